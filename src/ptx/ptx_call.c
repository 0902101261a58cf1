/* ptx_call.c - device functions and the calls between them: their names,
 * the .param variables of call sequences, the operands of call, and
 * addresses (of functions, of variables) in initializers.
 *
 * nvcc wraps every call in a block that declares its arguments:
 *
 *   { .param .b32 param0;  st.param.b32 [param0+0], %r4;
 *     .param .b32 retval0;
 *     call.uni (retval0), _Z3fibi, (param0);
 *     ld.param.b32 %r5, [retval0+0]; }
 *
 * (.func declarations and bodies are parsed in ptx_parse.c.)  Those .param
 * variables are the caller's call arguments (SYM_ARG): each
 * block's start at the same offset of the caller's argument area, which
 * follows its .local variables in its frame.  A function's own parameters
 * (return values first) are at the start of its frame (SYM_FRAME), its
 * .local variables after them; the emulator copies the arguments into the
 * callee's frame at the call and the return values back at the return.
 * In a function, frame variables are addressed through its frame register
 * (PtxKernel.fp_slot): [param0] becomes [%frame + offset], and
 * mov %rd, __local_depot3 becomes add.u64 %rd, %frame, offset.
 */
#include "ptx/ptx_parse_int.h"

#include <stdio.h>
#include <stdlib.h>

/* The CUDA runtime's device functions that warpmem runs itself. */
static int builtin_of(const PtxTok *name) {
  if (pp_is(name, "vprintf")) return PTX_CALL_VPRINTF;
  if (pp_is(name, "__assertfail")) return PTX_CALL_ASSERTFAIL;
  if (pp_is(name, "malloc")) return PTX_CALL_MALLOC;
  if (pp_is(name, "free")) return PTX_CALL_FREE;
  if (pp_is(name, "__cuda_syscall_aligned_malloc")) return PTX_CALL_ALIGNED_MALLOC;
  return 0;
}

/* The index in PtxModule.funcs of the function `name`, declared now if
 * `declare` and unknown; -1 if unknown. */
int pp_func_index(Parser *P, const PtxTok *name, int declare) {
  PtxModule *m = P->m;
  intptr_t v = pp_map_get(&P->funcs, name->p, name->len);
  if (v) return (int)v - 1;
  if (!declare) return -1;
  GROW(m->funcs, m->nfuncs, P->capfuncs);
  PtxKernel *f = &m->funcs[m->nfuncs];
  memset(f, 0, sizeof *f);
  f->name = pp_tok_dup(name);
  f->plain_name = pp_demangle(f->name);
  if (!f->plain_name) f->plain_name = f->name;
  f->is_func = 1;
  f->builtin = builtin_of(name);
  f->line = name->line;
  pp_map_put(&P->funcs, name->p, name->len, m->nfuncs + 1);
  return m->nfuncs++;
}

/* body-param := .param {.align N | type} name ['[' N ']'] ';'
 * A call argument or return value in the caller's argument area; each
 * call sequence's block declares its own (body() in ptx_parse.c restores the area's top
 * at the block's end). */
void pp_body_param(Parser *P) {
  const PtxTok *t = pp_next(P);
  char buf[128];
  uint32_t align = 0;
  int type = -1;
  for (;;) {
    const PtxTok *a = pp_peek(P);
    if (pp_is(a, ".align")) {
      pp_next(P);
      const PtxTok *at = pp_peek(P);
      uint64_t v = pp_int_number(P, "an alignment");
      if (v == 0 || v > 256 || (v & (v - 1))) pp_fail(P, at, "bad alignment %llu", (unsigned long long)v);
      align = (uint32_t)v;
    } else if (pp_dir_type(a) >= 0) {
      pp_next(P);
      type = pp_dir_type(a);
    } else if (a->kind == TK_WORD && a->p[0] == '.') {
      pp_unsup(P, a, "unsupported .param attribute '%s'", pp_tok_str(a, buf, sizeof buf));
    } else {
      break;
    }
  }
  if (type < 0 || type == PTX_T_PRED) pp_fail(P, t, "a .param needs a type");
  const PtxTok *name = pp_expect_word(P, "a parameter name");
  if (name->p[0] == '%' || name->p[0] == '.') pp_fail(P, name, "bad parameter name '%s'", pp_tok_str(name, buf, sizeof buf));
  uint64_t count = 1;
  if (pp_accept(P, "[")) {
    const PtxTok *nt = pp_peek(P);
    count = pp_int_number(P, "an array size");
    if (count == 0 || count > 65536) pp_fail(P, nt, "bad parameter array size");
    pp_expect(P, ']');
  }
  uint32_t size = (uint32_t)(ptx_type_size((PtxType)type) * count);
  if (!align) align = ptx_type_size((PtxType)type);
  uint64_t off = pp_align_up(P->arg_cur, align);
  if (off + size > 65536) pp_fail(P, name, "call arguments exceed 64 KiB");
  P->arg_cur = (uint32_t)(off + size);
  if (P->arg_cur > P->arg_max) P->arg_max = P->arg_cur;
  Sym *s = pp_new_sym(P, name, PTX_S_PARAM);
  s->align = align;
  s->size = size;
  s->offset = PTX_PARAM_FRAME + off;
  s->frame = SYM_ARG;
  pp_map_put(&P->ksyms, name->p, name->len, (intptr_t)s); /* each block redeclares param0 */
  pp_expect(P, ';');
}

/* One argument or return value of a call: a call sequence's .param. */
static void call_param(Parser *P, uint32_t *off, uint32_t *size) {
  const PtxTok *t = pp_expect_word(P, "a .param variable");
  char buf[128];
  const Sym *s = pp_find_sym(P, t);
  if (!s || s->frame != SYM_ARG)
    pp_unsup(P, t, "unsupported call (%s %s): operand '%s' is not a .param variable of the call "
             "sequence; warpmem runs calls whose arguments and results are .param variables, as nvcc writes "
             "them", pp_owner(P), P->k->name, pp_tok_str(t, buf, sizeof buf));
  *off = (uint32_t)(s->offset - PTX_PARAM_FRAME);
  *size = s->size;
}

/* A parenthesised list of call parameters; returns how many. */
static int call_list(Parser *P, uint32_t *off, uint32_t *size, int max) {
  int n = 0;
  pp_expect(P, '(');
  if (!pp_is_punct(pp_peek(P), ')')) {
    do {
      if (n == max) pp_unsup(P, pp_peek(P), "more than %d call arguments", max);
      call_param(P, &off[n], &size[n]);
      n++;
    } while (pp_accept(P, ","));
  }
  pp_expect(P, ')');
  return n;
}

/* call-operands := ['(' ret ')' ','] (function | register) [',' '(' args ')'] [',' prototype] ';'
 * Records the call site in PtxKernel.calls; fin[0] is its index (IMM),
 * fin[1] the function pointer of an indirect call.  Returns the operands. */
int pp_call_operands(Parser *P, PtxInstr *in, Opd *fin) {
  PtxKernel *k = P->k;
  char buf[128];
  uint32_t off[256], size[256];
  int nret = 0, narg = 0;
  if (pp_is_punct(pp_peek(P), '(')) {
    nret = call_list(P, off, size, 8);
    pp_expect(P, ',');
  }
  const PtxTok *t = pp_expect_word(P, "a function or a register");
  PtxCall c;
  memset(&c, 0, sizeof c);
  c.reg = PTX_NOREG;
  int nf = 1;
  if (t->p[0] == '%') {
    uint8_t type;
    c.callee = PTX_CALL_INDIRECT;
    c.reg = pp_reg_slot(P, t, &type);
    if (ptx_type_size((PtxType)type) != 8) pp_fail(P, t, "a function pointer is a 64-bit register");
    fin[1].o.kind = PTX_O_REG;
    fin[1].o.reg[0] = c.reg;
    fin[1].tok = t;
    nf = 2;
  } else {
    c.callee = pp_func_index(P, t, 0);
    if (c.callee < 0) pp_fail(P, t, "call of undeclared function '%s'", pp_tok_str(t, buf, sizeof buf));
  }
  if (pp_accept(P, ",")) {
    if (pp_is_punct(pp_peek(P), '(')) {
      narg = call_list(P, off + nret, size + nret, 256 - nret);
      if (pp_accept(P, ",")) pp_expect_word(P, "a prototype");
    } else {
      pp_expect_word(P, "a prototype or '('");
    }
  }
  if (!pp_is_punct(pp_peek(P), ';')) pp_fail_expected(P, "';'");
  pp_next(P);
  c.nret = (uint16_t)nret;
  c.narg = (uint16_t)narg;
  c.off = wm_xmalloc(sizeof *c.off * (size_t)(nret + narg + 1));
  c.size = wm_xmalloc(sizeof *c.size * (size_t)(nret + narg + 1));
  memcpy(c.off, off, sizeof *off * (size_t)(nret + narg));
  memcpy(c.size, size, sizeof *size * (size_t)(nret + narg));
  GROW(k->calls, k->ncalls, P->capcalls);
  k->calls[k->ncalls] = c;
  fin[0].o.kind = PTX_O_IMM;
  fin[0].num.kind = NUM_INT;
  fin[0].num.bits = (uint64_t)k->ncalls++;
  fin[0].tok = t;
  (void)in;
  return nf;
}

/* An address as an initializer: a function's (a table of function
 * pointers) or a .global variable's, written name or generic(name), plus an
 * offset (a table of strings). */
void pp_address_init(Parser *P, uint8_t *buf, uint64_t nelem, PtxType ty, uint64_t *i) {
  const PtxTok *t = pp_next(P);
  char b[128];
  int generic = pp_is(t, "generic") && pp_is_punct(pp_peek(P), '(');
  const PtxTok *name = generic ? (pp_next(P), pp_expect_word(P, "a variable name")) : t;
  int fi = pp_func_index(P, name, 0);
  const Sym *s = fi < 0 ? (const Sym *)pp_map_get(&P->msyms, name->p, name->len) : NULL;
  if (ptx_type_size(ty) != 8) pp_unsup(P, t, "addresses as initializers must be 64-bit");
  if (fi < 0 && (!s || s->space != PTX_S_GLOBAL))
    pp_unsup(P, name, "'%s' as an initializer: only functions and .global variables are supported",
             pp_tok_str(name, b, sizeof b));
  uint64_t v = fi >= 0 ? PTX_FUNC_ADDR_BASE + (uint64_t)fi * PTX_FUNC_ADDR_STEP : s->offset;
  if (pp_accept(P, "+")) v += pp_int_number(P, "an offset");
  if (generic) pp_expect(P, ')');
  if (*i >= nelem) pp_fail(P, t, "too many initializers");
  if (fi >= 0) {
    P->m->funcs[fi].addr_taken = 1;
  } else {
    PtxModule *m = P->m;
    GROW(m->relocs, m->nrelocs, P->caprelocs);
    m->relocs[m->nrelocs++] = (PtxReloc){P->init_space, P->init_at + *i * 8};
  }
  for (unsigned k = 0; k < 8; k++) buf[*i * 8 + k] = (uint8_t)(v >> (8 * k));
  (*i)++;
}
