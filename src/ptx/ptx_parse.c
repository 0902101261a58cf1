/* ptx_parse.c - PTX text to PtxModule: a recursive-descent parser over the
 * token array from ptx_lex.c (the files of the parser: ptx_parse_int.h).  This file is the top
 * of the descent: the module, its directives and declarations, kernels
 * and their parameters, .loc; ptx_instr.c parses instructions.
 *
 * Errors: malformed input -> WM_EPARSE, valid PTX that warpmem does not run
 * -> WM_EUNSUP, both located with file:line:col, the line and a caret.  The
 * module fails for malformed input anywhere and for unsupported constructs
 * outside instructions (.reg .v2, .extern .global, ...).  An unsupported
 * instruction (tex, wmma, cp.async, brx.idx, an unknown opcode or
 * modifier, an unknown special register) or body directive (.branchtargets)
 * only marks its kernel: PtxKernel.unsupported holds the first such located
 * message, parsing resumes after the ';' and ptx_find_kernel refuses that
 * kernel.  Device functions (.func) are parsed as kernels are (ptx_call.c)
 * and linked into the kernels that call them (ptx_link.c).  Errors
 * leave the parser by longjmp; every allocation is owned by the Parser or the
 * module when it can happen.
 */
#include "ptx/ptx.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_parse_int.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- variables */

/* Writes the value of n, an element of type ty, at dst (little-endian). */
static void store_elem(Parser *P, const PtxTok *t, Num n, PtxType ty, uint8_t *dst) {
  uint64_t v = pp_num_value(P, t, n, ty);
  unsigned size = ptx_type_size(ty);
  for (unsigned i = 0; i < size && i < 8; i++) dst[i] = (uint8_t)(v >> (8 * i));
}

/* init := '{' init {',' init} '}' | signed-number | address */
static void initializer(Parser *P, uint8_t *buf, uint64_t nelem, PtxType ty, uint64_t *i, int depth) {
  const PtxTok *t = pp_peek(P);
  if (pp_is_punct(t, '{')) {
    if (depth > 8) pp_fail(P, t, "initializer nested too deeply");
    pp_next(P);
    do initializer(P, buf, nelem, ty, i, depth + 1);
    while (pp_accept(P, ","));
    pp_expect(P, '}');
    return;
  }
  if (t->kind == TK_WORD) {
    pp_address_init(P, buf, nelem, ty, i);
    return;
  }
  Num n = pp_signed_number(P);
  if (*i >= nelem) pp_fail(P, t, "too many initializers");
  store_elem(P, t, n, ty, buf + *i * ptx_type_size(ty));
  (*i)++;
}

/* .align N, P at the .align: N must be a power of two up to `most` */
static uint32_t alignment(Parser *P, uint64_t most) {
  pp_next(P);
  const PtxTok *at = pp_peek(P);
  uint64_t a = pp_int_number(P, "an alignment");
  if (a == 0 || a > most || (a & (a - 1))) pp_fail(P, at, "bad alignment %llu", (unsigned long long)a);
  return (uint32_t)a;
}

/* Places a module-scope .global or .const variable in its segment (which
 * keeps the initial contents) and records it in the module; returns where
 * its initial contents go. */
static uint8_t *module_segment(Parser *P, const PtxTok *name, Sym *s, int space, int type, uint64_t size,
                               uint32_t align) {
  PtxModule *m = P->m;
  uint64_t *segsize = space == PTX_S_GLOBAL ? &m->global_size : NULL;
  uint64_t cursize = space == PTX_S_GLOBAL ? m->global_size : m->const_size;
  s->offset = pp_align_up(cursize, align);
  uint64_t end = s->offset + size;
  /* the initial contents are kept in memory: keep them sane.  64 KiB is
   * the hardware's constant bank. */
  if (space == PTX_S_CONST && end > 65536) {
    wm_err_at(P->e, WM_ELIMIT, P->path, P->src, (int)name->line, (int)name->col,
              ".const variables exceed 64 KiB");
    longjmp(P->jb, 1);
  }
  if (end > (1ull << 30)) {
    wm_err_at(P->e, WM_ELIMIT, P->path, P->src, (int)name->line, (int)name->col,
              "module .global variables exceed 1 GiB");
    longjmp(P->jb, 1);
  }
  uint8_t **bufp = space == PTX_S_GLOBAL ? &m->global_init : &m->const_init;
  uint64_t *cap = space == PTX_S_GLOBAL ? &P->gcap : &P->ccap;
  if (end > *cap || !*bufp) { /* !*bufp: a first variable of 0 bytes still gets a segment */
    uint64_t nc = *cap ? *cap : 256;
    while (nc < end) nc *= 2;
    *bufp = wm_xrealloc(*bufp, nc);
    memset(*bufp + *cap, 0, nc - *cap);
    *cap = nc;
  }
  if (segsize) *segsize = end;
  else m->const_size = (uint32_t)end;
  uint8_t *init = *bufp + s->offset;
  GROW(m->vars, m->nvars, P->capvars);
  PtxVar *v = &m->vars[m->nvars++];
  memset(v, 0, sizeof *v);
  v->name = pp_tok_dup(name);
  v->space = (uint8_t)space;
  v->type = (uint8_t)type;
  v->size = (uint32_t)size;
  v->align = align;
  v->offset = s->offset;
  v->line = name->line;
  return init;
}

/* A static .shared variable after those before it (module-scope ones, or
 * the body's after them), noted in PtxModule.svars for the kernels'
 * layouts (ptx_link.c). */
static void place_shared(Parser *P, const PtxTok *name, Sym *s, uint64_t size) {
  uint32_t *cur = P->k ? &P->shared_cur : &P->mshared;
  s->offset = pp_align_up(*cur, s->align);
  if (s->offset + size > 0xffffffffull) pp_fail(P, name, "too much shared memory");
  *cur = (uint32_t)(s->offset + size);
  PtxModule *m = P->m;
  GROW(m->svars, m->nsvars, m->capsvars);
  m->svars[m->nsvars++] = (PtxSharedVar){(uint32_t)s->offset, (uint32_t)size, s->align, (uint8_t)!P->k};
  s->svar = m->nsvars;
}

/* attribute := .attribute '(' (.managed | .unified '(' N ',' N ')') ')'
 * __managed__ variables (.managed) and variables at an address that host
 * and device share (.unified, with its 128-bit id): the emulator has one
 * address space, so either is an ordinary module .global variable. */
static void var_attribute(Parser *P, int space) {
  const PtxTok *at = pp_next(P);
  char buf[128];
  if (space != PTX_S_GLOBAL) pp_fail(P, at, ".attribute applies only to .global variables");
  pp_expect(P, '(');
  const PtxTok *a = pp_peek(P);
  if (pp_accept(P, ".unified")) {
    pp_expect(P, '(');
    pp_int_number(P, "the high 64 bits of a .unified id");
    pp_expect(P, ',');
    pp_int_number(P, "the low 64 bits of a .unified id");
    pp_expect(P, ')');
  } else if (!pp_accept(P, ".managed")) {
    pp_unsup(P, a, "unsupported variable attribute '%s' (warpmem knows .managed and .unified)",
             pp_tok_str(a, buf, sizeof buf));
  }
  pp_expect(P, ')');
}

/* var-decl := space {.align N | .vN | type | .ptr | attribute} name {'[' [N] ']'} ['=' init] {',' ...} ';'
 * (after any .extern/.visible/.weak; the current token is the space) */
void pp_var_decl(Parser *P, int is_extern) {
  const PtxTok *st = pp_next(P);
  char buf[128];
  int space = pp_space_of(st->p + 1, st->len - 1);
  if (space < 0) pp_unsup(P, st, "unsupported state space '%s'", pp_tok_str(st, buf, sizeof buf));
  uint32_t align = 0, vec = 1;
  int type = -1;
  for (;;) {
    const PtxTok *t = pp_peek(P);
    if (pp_is(t, ".align")) {
      align = alignment(P, 65536);
    } else if (pp_is(t, ".v2") || pp_is(t, ".v4")) {
      pp_next(P);
      vec = t->p[2] - '0';
    } else if (pp_is(t, ".ptr")) {
      pp_next(P);
    } else if (pp_is(t, ".attribute")) {
      var_attribute(P, space);
    } else if (pp_dir_type(t) >= 0) {
      pp_next(P);
      type = pp_dir_type(t);
    } else if (pp_is(t, ".texref") || pp_is(t, ".surfref") || pp_is(t, ".samplerref")) {
      pp_unsup(P, t, "legacy texture references ('%s' variables) were removed in CUDA 12 and are not supported: "
               "pass a cudaTextureObject_t or cudaSurfaceObject_t kernel argument instead",
               pp_tok_str(t, buf, sizeof buf));
    } else if (t->kind == TK_WORD && t->p[0] == '.') {
      pp_unsup(P, t, "unsupported variable attribute '%s'", pp_tok_str(t, buf, sizeof buf));
    } else {
      break;
    }
  }
  if (type < 0) pp_fail_expected(P, "a type");
  if (type == PTX_T_PRED) pp_fail(P, st, "variables cannot have type .pred");
  uint32_t esize = ptx_type_size((PtxType)type) * vec;
  if (!align) align = esize;

  if (P->k && (space == PTX_S_GLOBAL || space == PTX_S_CONST))
    pp_unsup(P, st, ".%s variables inside a kernel are not supported", ptx_space_name((PtxSpace)space));
  if (!P->k && space == PTX_S_LOCAL) pp_unsup(P, st, "module-scope .local variables are not supported");
  if (space == PTX_S_PARAM) pp_unsup(P, st, ".param variables outside a kernel's parameter list are not supported");
  if (is_extern && space != PTX_S_SHARED) pp_unsup(P, st, ".extern .%s variables are not supported", ptx_space_name((PtxSpace)space));
  if (P->k && P->k->is_func && space == PTX_S_SHARED) { /* nvcc declares them at module scope */
    pp_defer_statement(P, st, ".shared variables declared inside a device function are not supported (function %s)",
                       P->k->name);
    return;
  }

  do {
    const PtxTok *name = pp_expect_word(P, "a variable name");
    if (name->p[0] == '.' || name->p[0] == '%') pp_fail(P, name, "bad variable name '%s'", pp_tok_str(name, buf, sizeof buf));
    uint64_t count = 1;
    int flexible = 0;
    while (pp_is_punct(pp_peek(P), '[')) {
      const PtxTok *lb = pp_next(P);
      if (pp_is_punct(pp_peek(P), ']')) {
        if (count != 1 || flexible || !is_extern) pp_fail(P, lb, "array size missing");
        flexible = 1;
      } else {
        uint64_t c = pp_int_number(P, "an array size");
        if (c > (1ull << 32)) pp_fail(P, lb, "array too large");
        count *= c;
        if (count > (1ull << 32)) pp_fail(P, lb, "array too large");
      }
      pp_expect(P, ']');
    }
    if (is_extern && !flexible) pp_unsup(P, name, ".extern .shared with a size is not supported (write name[])");
    uint64_t size = flexible ? 0 : count * esize;
    if (size > 0xffffffffull) pp_fail(P, name, "variable too large");

    Sym *s = pp_new_sym(P, name, space);
    s->align = align;
    s->ext = (uint8_t)flexible;
    pp_declare_sym(P, name, s);
    if (space == PTX_S_SHARED && !flexible) {
      place_shared(P, name, s, size);
    } else if (space == PTX_S_LOCAL) {
      s->frame = P->k->is_func ? SYM_FRAME : 0;
      s->offset = pp_align_up(P->local_cur, align);
      if (s->offset + size > 0xffffffffull) pp_fail(P, name, "too much local memory");
      P->local_cur = (uint32_t)(s->offset + size);
    }
    uint8_t *init = NULL;
    if (space == PTX_S_GLOBAL || space == PTX_S_CONST) init = module_segment(P, name, s, space, type, size, align);
    if (pp_is_punct(pp_peek(P), '=')) {
      const PtxTok *eq = pp_next(P);
      if (!init) pp_fail(P, eq, ".%s variables cannot have initializers", ptx_space_name((PtxSpace)space));
      uint64_t i = 0;
      P->init_space = (uint8_t)space;
      P->init_at = s->offset;
      initializer(P, init, count * vec, (PtxType)type, &i, 0);
    }
  } while (pp_accept(P, ","));
  pp_expect(P, ';');
}

/* A statement in a kernel body that warpmem does not run: marks the kernel
 * (see pp_instruction()) and skips to its ';'. */
void pp_defer_statement(Parser *P, const PtxTok *t, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pp_mark_unsupported(P, t, msg);
  pp_skip_statement(P);
}

/* ---------------------------------------------------------------- kernels */

/* loc := .loc file line col {',' (function_name label ['+' N] | inlined_at file line col)}
 *
 * nvcc -lineinfo writes code inlined from another function as
 *   .loc 2 134 49, function_name $L__info_string6, inlined_at 1 47 3
 * (the label names the function in .debug_str, nothing more).  A chain of
 * inlining is a chain of such lines, outermost first, each inlined_at naming
 * the position of the previous one:
 *   .loc 1 51 3, function_name $L__info_string4, inlined_at 1 57 3   (kernel)
 *   .loc 1 47 3, function_name $L__info_string5, inlined_at 1 51 3
 *   .loc 2 134 49, function_name $L__info_string6, inlined_at 1 47 3
 * (nvcc 13.0, tests/data/parse_more.ptx).  So every position remembers the
 * outermost call site it was last seen under, and an inlined_at that names a
 * remembered position continues its chain; one that names none is the
 * kernel's own line.  Instructions get the outermost site as cu_file/cu_line
 * (the user's line) and the .loc's own position as cu_file_inner/_inner. */
static void loc(Parser *P) {
  const PtxTok *t = pp_next(P);
  const PtxTok *ft = pp_peek(P);
  uint64_t f = pp_int_number(P, "a file number");
  uint64_t l = pp_int_number(P, "a line number");
  uint64_t c = pp_int_number(P, "a column number");
  if (f > 0xffff) pp_fail(P, ft, "file number too large");
  uint64_t of = f, ol = l; /* the outermost call site */
  while (pp_is_punct(pp_peek(P), ',') && pp_peek(P)->line == t->line) {
    pp_next(P);
    const PtxTok *kw = pp_expect_word(P, "function_name or inlined_at");
    if (pp_is(kw, "function_name")) {
      pp_expect_word(P, "a label");
      if (pp_accept(P, "+")) pp_int_number(P, "an offset");
    } else if (pp_is(kw, "inlined_at")) {
      const PtxTok *it = pp_peek(P);
      uint64_t fi = pp_int_number(P, "a file number");
      uint64_t li = pp_int_number(P, "a line number");
      uint64_t ci = pp_int_number(P, "a column number");
      if (fi > 0xffff) pp_fail(P, it, "file number too large");
      const LocEnt *outer = pp_loc_get(&P->locs, pp_loc_key(fi, li, ci));
      of = outer ? outer->file : fi;
      ol = outer ? outer->line : li;
    } else {
      break; /* an attribute we do not know: it cannot change the position */
    }
  }
  while (pp_peek(P)->kind != TK_EOF && pp_peek(P)->line == t->line) pp_next(P);
  if (ol > 0xffffffffu) ol = 0xffffffffu;
  if (l > 0xffffffffu) l = 0xffffffffu;
  pp_loc_put(&P->locs, pp_loc_key(f, l, c), (uint16_t)of, (uint32_t)ol);
  P->cur_file = (uint16_t)of;
  P->cur_line = (uint32_t)ol;
  P->cur_file_inner = (uint16_t)f;
  P->cur_line_inner = (uint32_t)l;
}


/* param := .param {.align N | type | .ptr | space} name ['[' N ']']
 * A device function's parameters are in its frame (SYM_FRAME). */
static void param(Parser *P) {
  PtxKernel *k = P->k;
  const PtxTok *pt = pp_peek(P);
  char buf[128];
  if (!pp_is(pt, ".param")) {
    if (pp_is(pt, ".reg")) pp_unsup(P, pt, ".reg parameters are not supported");
    pp_fail_expected(P, "'.param'");
  }
  pp_next(P);
  uint32_t align = 0;
  int type = -1, is_ptr = 0;
  for (;;) {
    const PtxTok *t = pp_peek(P);
    if (pp_is(t, ".align")) {
      align = alignment(P, 4096);
    } else if (pp_is(t, ".ptr")) {
      pp_next(P);
      is_ptr = 1;
    } else if (pp_dir_type(t) >= 0) {
      pp_next(P);
      type = pp_dir_type(t);
    } else if (t->kind == TK_WORD && t->p[0] == '.' && pp_space_of(t->p + 1, t->len - 1) >= 0) {
      pp_next(P);
    } else if (t->kind == TK_WORD && t->p[0] == '.') {
      pp_unsup(P, t, "unsupported parameter attribute '%s'", pp_tok_str(t, buf, sizeof buf));
    } else {
      break;
    }
  }
  if (type < 0) pp_fail_expected(P, "a parameter type");
  if (type == PTX_T_PRED) pp_fail(P, pt, "parameters cannot be .pred");
  const PtxTok *name = pp_expect_word(P, "a parameter name");
  uint64_t count = 1;
  if (pp_is_punct(pp_peek(P), '[')) {
    const PtxTok *lb = pp_next(P);
    count = pp_int_number(P, "an array size");
    if (count == 0 || count > 65536) pp_fail(P, lb, "bad parameter array size");
    pp_expect(P, ']');
  }
  uint32_t esize = ptx_type_size((PtxType)type);
  if (!align) align = esize;
  GROW(k->params, k->nparams, P->capparams);
  PtxParam *pp = &k->params[k->nparams++];
  memset(pp, 0, sizeof *pp);
  pp->name = pp_tok_dup(name);
  pp->type = (uint8_t)type;
  pp->size = (uint32_t)(esize * count);
  pp->align = align;
  pp->offset = (uint32_t)pp_align_up(k->param_size, align);
  pp->is_ptr = (uint8_t)is_ptr;
  k->param_size = pp->offset + pp->size;
  Sym *s = pp_new_sym(P, name, PTX_S_PARAM);
  s->align = align;
  s->offset = pp->offset;
  if (k->is_func) s->offset += PTX_PARAM_FRAME, s->frame = SYM_FRAME;
  pp_declare_sym(P, name, s);
}

/* Marks the .u64 params that the kernel uses as pointers (loaded, then
 * converted with cvta or used as an address): informational only. */
static void guess_pointers(PtxKernel *k) {
  if (!k->nregs) return;
  int *from = wm_xmalloc(k->nregs * sizeof *from);
  for (uint32_t i = 0; i < k->nregs; i++) from[i] = -1;
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    if (in->op == PTX_OP_LD && in->space == PTX_S_PARAM && ptx_type_size((PtxType)in->type) == 8 &&
        in->opd[0].kind == PTX_O_REG && in->opd[1].reg[0] == PTX_NOREG && in->opd[1].space == PTX_S_PARAM)
      for (int j = 0; j < k->nparams; j++)
        if ((int64_t)k->params[j].offset == in->opd[1].imm && k->params[j].size == 8)
          from[in->opd[0].reg[0]] = j;
  }
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    uint32_t r = PTX_NOREG;
    if (in->op == PTX_OP_CVTA && in->opd[1].kind == PTX_O_REG) r = in->opd[1].reg[0];
    for (int j = 0; j < in->nopd && r == PTX_NOREG; j++)
      if (in->opd[j].kind == PTX_O_ADDR) r = in->opd[j].reg[0];
    if (r != PTX_NOREG && from[r] >= 0) k->params[from[r]].is_ptr = 1;
  }
  free(from);
}

static int is_terminator(const PtxInstr *in) {
  return in->guard == PTX_NOREG && (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT ||
                                    in->op == PTX_OP_TRAP || in->op == PTX_OP_BRA);
}

/* The frame: a function's parameters, then its .local variables (placed
 * from the parameters' end on), then the arguments of its calls; a kernel's
 * .local variables then its calls' arguments.  The arguments' offsets are
 * known only now. */
static void frame_layout(Parser *P) {
  PtxKernel *k = P->k;
  uint32_t arg_base = (uint32_t)pp_align_up(P->local_cur, 16);
  for (int i = 0; i < P->nafix; i += 2) k->code[P->afix[i]].opd[P->afix[i + 1]].imm += arg_base;
  for (int i = 0; i < k->ncalls; i++)
    for (int j = 0; j < k->calls[i].nret + k->calls[i].narg; j++) k->calls[i].off[j] += arg_base;
  k->frame_size = P->arg_max ? (uint32_t)pp_align_up(arg_base + P->arg_max, 16) : P->local_cur;
}

/* Whether a branch targets the end of the code (a label after the last
 * instruction). */
static int branches_to_end(const PtxKernel *k) {
  for (int i = 0; i < k->ncode; i++)
    for (int j = 0; j < k->code[i].nopd; j++)
      if (k->code[i].opd[j].kind == PTX_O_LABEL && k->code[i].opd[j].imm == k->ncode) return 1;
  return 0;
}

/* Resolves labels and finishes the kernel's layout.  `close` is the '}' of
 * the body (NULL for a declaration without one). */
static void end_kernel(Parser *P, const PtxTok *close) {
  PtxKernel *k = P->k;
  pp_resolve_labels(P);
  int falls_off = k->ncode == 0 || !is_terminator(&k->code[k->ncode - 1]) || branches_to_end(k);
  if (close && falls_off) {
    /* Running off the end of a kernel returns: make that an explicit ret so
     * that every pc the emulator can reach is in code[]. */
    PtxInstr in;
    memset(&in, 0, sizeof in);
    in.op = PTX_OP_RET;
    in.guard = PTX_NOREG;
    in.vec = 1;
    in.ptx_line = close->line;
    in.ptx_col = (uint16_t)(close->col > 0xffff ? 0xffff : close->col);
    in.cu_file = P->cur_file;
    in.cu_line = P->cur_line;
    in.cu_file_inner = P->cur_file_inner;
    in.cu_line_inner = P->cur_line_inner;
    in.text = (uint32_t)(close->p - P->src);
    GROW(k->code, k->ncode, P->capcode);
    k->code[k->ncode++] = in;
  }
  k->shared_static = P->shared_cur;
  k->shared_extern_align = P->extern_align; /* the array itself is placed by ptx_link.c */
  k->svar_hi = P->m->nsvars;
  k->local_size = P->local_cur;
  frame_layout(P);
  k->kernel_ncode = (uint32_t)k->ncode;
  if (!k->is_func) guess_pointers(k);
  while (P->depth >= 0) pp_leave_scope(P);
  pp_map_free(&P->ksyms);
  pp_map_free(&P->labels);
  P->nluses = P->nafix = P->nldefs = P->nshadows = 0;
  P->k = NULL;
}

/* perf := (.maxntid | .reqntid | .reqnctapercluster) N [',' N [',' N]] | .maxclusterrank N
 *       | .explicitcluster | .minnctapersm N | .maxnreg N | ... */
static void perf_directive(Parser *P) {
  PtxKernel *k = P->k;
  const PtxTok *t = pp_next(P);
  uint32_t *dims = pp_is(t, ".maxntid") ? k->maxntid : pp_is(t, ".reqntid") ? k->reqntid
                 : pp_is(t, ".reqnctapercluster") ? k->cluster_dims : NULL;
  if (pp_is(t, ".maxclusterrank")) {
    const PtxTok *nt = pp_peek(P);
    uint64_t v = pp_int_number(P, "a number");
    if (v == 0 || v > 0xffffffffu) pp_fail(P, nt, ".maxclusterrank must be a positive count of blocks");
    k->max_cluster_rank = (uint32_t)v;
  } else if (dims || pp_is(t, ".minnctapersm") || pp_is(t, ".maxnreg") || pp_is(t, ".maxnctapersm")) {
    int i = 0;
    do {
      const PtxTok *nt = pp_peek(P);
      uint64_t v = pp_int_number(P, "a number");
      if (i == 3) pp_fail(P, nt, "too many dimensions");
      if (dims) dims[i] = v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
      i++;
    } while (pp_accept(P, ","));
    if (dims)
      for (; i < 3; i++) dims[i] = 1;
    if (dims == k->cluster_dims && (!dims[0] || !dims[1] || !dims[2])) pp_fail(P, t, ".reqnctapercluster dimensions must be positive");
  } else if (pp_is(t, ".explicitcluster")) {
    k->explicit_cluster = 1; /* launched only with a cluster dimension (PTX ISA, .explicitcluster) */
  } else if (pp_is(t, ".noreturn")) {
  } else if (pp_is(t, ".pragma")) {
    pp_skip_statement(P);
  } else {
    char buf[128];
    pp_unsup(P, t, "unsupported %s directive '%s'", k->is_func ? "function" : "kernel", pp_tok_str(t, buf, sizeof buf));
  }
}

/* .pragma "nounroll"; in a body marks the next instruction, the head of a
 * loop ptxas must not unroll (nvcc writes it for `#pragma unroll 1` and
 * for the remainder loop of one it unrolled); other pragmas are hints
 * warpmem does not need. */
static void body_pragma(Parser *P) {
  const PtxTok *t = pp_peek(P);
  if (t->kind == TK_STR && t->len == 10 && memcmp(t->p, "\"nounroll\"", 10) == 0) P->next_flags |= PTX_IF_NOUNROLL;
  pp_skip_statement(P);
}

/* body := '{' {statement} '}'
 * statement := '{' {statement} '}' | reg-decl | var-decl | .loc ... | .pragma ...;
 *            | label ':' | instruction */
static const PtxTok *body(Parser *P) {
  PtxKernel *k = P->k;
  char buf[128];
  pp_expect(P, '{');
  P->depth = 0;
  for (;;) {
    const PtxTok *t = pp_peek(P);
    if (t->kind == TK_EOF) pp_fail(P, t, "expected '}' at the end of %s %s", k->is_func ? "function" : "kernel", k->name);
    if (pp_is_punct(t, '}')) {
      pp_next(P);
      if (P->depth == 0) return t;
      P->arg_cur = P->arg_at[P->depth]; /* a call sequence's arguments end with its block */
      pp_resolve_labels(P);
      pp_leave_scope(P);
      continue;
    }
    if (pp_is_punct(t, '{')) {
      pp_next(P);
      if (P->depth >= 64) pp_fail(P, t, "blocks nested too deeply");
      P->depth++;
      P->arg_at[P->depth] = P->arg_cur;
      P->luse_at[P->depth] = P->nluses;
      continue;
    }
    if (pp_is_punct(t, '@')) {
      pp_instruction(P);
      continue;
    }
    if (t->kind != TK_WORD) pp_fail(P, t, "expected a statement, found '%s'", pp_tok_str(t, buf, sizeof buf));
    if (pp_is(t, ".reg") || (t->len > 5 && memcmp(t->p, ".reg.", 5) == 0)) {
      pp_reg_decl(P);
    } else if (pp_is(t, ".shared") || pp_is(t, ".local") || pp_is(t, ".global") || pp_is(t, ".const")) {
      pp_var_decl(P, 0);
    } else if (pp_is(t, ".extern")) {
      pp_next(P);
      if (!pp_is(pp_peek(P), ".shared")) pp_unsup(P, t, "unsupported .extern declaration in a kernel");
      pp_var_decl(P, 1);
    } else if (pp_is(t, ".loc")) {
      loc(P);
    } else if (pp_is(t, ".pragma")) {
      pp_next(P);
      body_pragma(P);
    } else if (pp_is(t, ".param")) {
      pp_body_param(P);
    } else if (pp_is(t, ".callprototype")) {
      pp_skip_statement(P); /* the signature of an indirect call: not checked */
    } else if (t->p[0] == '.') {
      pp_defer_statement(P, t, "unsupported directive '%s' (%s %s)", pp_tok_str(t, buf, sizeof buf), pp_owner(P),
                         k->name);
    } else if (pp_is_punct(pp_peek2(P), ':')) {
      pp_next(P);
      pp_next(P);
      if (t->p[0] == '%') pp_fail(P, t, "bad label name '%s'", pp_tok_str(t, buf, sizeof buf));
      pp_define_label(P, t, k->ncode);
    } else {
      pp_instruction(P);
    }
  }
}

/* The index of the token after the '}' that closes the block opened at
 * token `open`, or -1 when the text ends first. */
static int block_end(const Parser *P, int open) {
  int depth = 0;
  for (int i = open; i < P->ntoks && P->toks[i].kind != TK_EOF; i++) {
    if (pp_is_punct(&P->toks[i], '{')) depth++;
    else if (pp_is_punct(&P->toks[i], '}') && --depth == 0) return i + 1;
  }
  return -1;
}

/* The kernel or function being parsed had an error in its body: it keeps
 * the located message as the reason it is refused, its half-built state is
 * dropped, and parsing goes on after its closing brace.  The message stays
 * in P->e (for the module) when the body never closes. */
static int refuse_body(Parser *P, int open) {
  int next = block_end(P, open);
  if (next < 0) return -1;
  PtxKernel *k = P->k;
  free(k->unsupported); /* malformed PTX says more than an unsupported instruction before it */
  k->unsupported = wm_xstrdup(P->e->msg);
  k->refused_code = P->e->code;
  memset(P->e, 0, sizeof *P->e);
  while (P->depth >= 0) pp_leave_scope(P);
  pp_map_free(&P->ksyms);
  pp_map_free(&P->labels);
  P->nluses = P->nafix = P->nldefs = P->nshadows = 0;
  P->defer = 0;
  P->k = NULL;
  P->pos = next;
  return 0;
}

/* The body and its end (labels, layout), refusing only its own kernel (or
 * function) when it is malformed: one kernel's error never refuses the
 * module's others (a label defined twice in one kernel's inline asm, an
 * unknown label, an operand form the ISA does not have). */
static void guarded_body(Parser *P) {
  jmp_buf outer;
  memcpy(outer, P->jb, sizeof outer);
  int open = P->pos;
  if (setjmp(P->jb)) {
    memcpy(P->jb, outer, sizeof outer);
    if (refuse_body(P, open)) longjmp(P->jb, 1);
    return;
  }
  end_kernel(P, body(P));
  memcpy(P->jb, outer, sizeof outer);
}

/* The parser's state for a new kernel or function k. */
static void start_kernel(Parser *P, PtxKernel *k) {
  P->k = k;
  P->next_flags = 0;
  P->capcode = P->capnames = P->capparams = P->capcalls = 0;
  P->shared_cur = P->mshared;
  k->svar_lo = k->svar_hi = P->m->nsvars;
  P->local_cur = 0;
  P->declared_regs = 0;
  P->extern_align = 0;
  P->arg_cur = P->arg_max = 0;
  P->cur_file = P->cur_file_inner = 0;
  P->cur_line = P->cur_line_inner = 0;
  P->depth = 0;
}

/* entry := .entry name ['(' [param {',' param}] ')'] {perf} (body | ';') */
static void entry(Parser *P) {
  PtxModule *m = P->m;
  const PtxTok *et = pp_next(P);
  const PtxTok *name = pp_expect_word(P, "a kernel name");
  char buf[128];
  if (name->p[0] == '.' || name->p[0] == '%') pp_fail(P, name, "bad kernel name '%s'", pp_tok_str(name, buf, sizeof buf));
  for (int i = 0; i < m->nkernels; i++)
    if (strlen(m->kernels[i].name) == name->len && memcmp(m->kernels[i].name, name->p, name->len) == 0)
      pp_fail(P, name, "kernel '%s' defined twice", pp_tok_str(name, buf, sizeof buf));
  GROW(m->kernels, m->nkernels, P->capkernels);
  PtxKernel *k = &m->kernels[m->nkernels++];
  memset(k, 0, sizeof *k);
  k->name = pp_tok_dup(name);
  k->plain_name = pp_demangle(k->name);
  if (!k->plain_name) k->plain_name = k->name;
  k->line = et->line;
  start_kernel(P, k);
  if (pp_accept(P, "(")) {
    if (!pp_is_punct(pp_peek(P), ')')) {
      do param(P);
      while (pp_accept(P, ","));
    }
    pp_expect(P, ')');
  }
  uint32_t maxalign = 1;
  for (int i = 0; i < k->nparams; i++)
    if (k->params[i].align > maxalign) maxalign = k->params[i].align;
  k->param_size = (uint32_t)pp_align_up(k->param_size, maxalign);
  while (pp_peek(P)->kind == TK_WORD && pp_peek(P)->p[0] == '.') perf_directive(P);
  if (pp_is_punct(pp_peek(P), ';')) { /* a declaration: nothing to run */
    pp_next(P);
    pp_map_put(&P->entry_decls, name->p, name->len, 1); /* its address: a device-side launch */
    end_kernel(P, NULL);
    m->nkernels--;
    for (int i = 0; i < k->nparams; i++) free(k->params[i].name);
    free(k->params);
    if (k->plain_name != k->name) free(k->plain_name);
    free(k->name);
    return;
  }
  guarded_body(P);
}

/* Skips a balanced '(' ... ')' if one comes next. */
static void skip_parens(Parser *P) {
  if (!pp_is_punct(pp_peek(P), '(')) return;
  int depth = 0;
  do {
    const PtxTok *t = pp_next(P);
    if (t->kind == TK_EOF) pp_fail(P, t, "unbalanced '(' in a .func declaration");
    if (pp_is_punct(t, '(')) depth++;
    if (pp_is_punct(t, ')')) depth--;
  } while (depth > 0);
}

/* params := '(' [param {',' param}] ')' */
static void param_list(Parser *P) {
  pp_expect(P, '(');
  if (!pp_is_punct(pp_peek(P), ')')) {
    do param(P);
    while (pp_accept(P, ","));
  }
  pp_expect(P, ')');
}

/* The function's frame register: a register of its own that the emulator
 * sets at each call to the frame's offset in local memory. */
static void frame_register(Parser *P, PtxKernel *f) {
  f->reg_names = wm_xrealloc(f->reg_names, 16 * sizeof *f->reg_names);
  P->capnames = 16;
  f->reg_names[0] = wm_xstrdup("%frame");
  f->fp_slot = 0;
  f->nregs = 1;
}

/* func := .func {attribute} ['(' params ')'] name ['(' params ')'] {directive} (';' | body)
 * A declaration only names the function (nvcc declares every function,
 * vprintf included, before its first use); a definition is parsed as a
 * kernel is, with its parameters in its frame. */
static void func(Parser *P) {
  const PtxTok *ft = pp_next(P);
  char buf[128];
  while (pp_peek(P)->kind == TK_WORD && pp_peek(P)->p[0] == '.') { /* .attribute(...) */
    pp_next(P);
    skip_parens(P);
  }
  int start = P->pos;
  skip_parens(P);
  const PtxTok *name = pp_expect_word(P, "a function name");
  if (name->p[0] == '.' || name->p[0] == '%') pp_fail(P, name, "bad function name '%s'", pp_tok_str(name, buf, sizeof buf));
  int fi = pp_func_index(P, name, 1);
  skip_parens(P);
  while (pp_peek(P)->kind != TK_EOF && !pp_is_punct(pp_peek(P), ';') && !pp_is_punct(pp_peek(P), '{')) pp_next(P);
  if (pp_is_punct(pp_peek(P), ';')) {
    pp_next(P);
    return;
  }
  PtxKernel *f = &P->m->funcs[fi];
  if (f->has_body) pp_fail(P, name, "function '%s' defined twice", pp_tok_str(name, buf, sizeof buf));
  P->pos = start;
  start_kernel(P, f);
  f->has_body = 1;
  f->builtin = 0; /* a module's own malloc is its own */
  f->line = ft->line;
  frame_register(P, f);
  if (pp_is_punct(pp_peek(P), '(')) {
    param_list(P);
    f->nret = (uint16_t)f->nparams;
  }
  pp_next(P); /* the name */
  if (pp_is_punct(pp_peek(P), '(')) param_list(P);
  P->local_cur = (uint32_t)pp_align_up(f->param_size, 16);
  while (pp_peek(P)->kind == TK_WORD && pp_peek(P)->p[0] == '.') perf_directive(P);
  guarded_body(P);
}

/* file := .file N "path" [',' N ',' N] */
static void file(Parser *P) {
  PtxModule *m = P->m;
  pp_next(P);
  const PtxTok *nt = pp_peek(P);
  uint64_t n = pp_int_number(P, "a file number");
  if (n > 0xffff) pp_fail(P, nt, "file number too large");
  const PtxTok *s = pp_peek(P);
  if (s->kind != TK_STR) pp_fail_expected(P, "a file name");
  pp_next(P);
  while (pp_accept(P, ",")) pp_int_number(P, "a number");
  if ((int)n >= m->nfiles) {
    m->files = wm_xrealloc(m->files, (n + 1) * sizeof *m->files);
    for (int i = m->nfiles; i <= (int)n; i++) m->files[i] = NULL;
    m->nfiles = (int)n + 1;
  }
  char *name = wm_xmalloc(s->len);
  size_t j = 0;
  for (uint32_t i = 1; i + 1 < s->len; i++) {
    if (s->p[i] == '\\' && i + 2 < s->len) i++;
    name[j++] = s->p[i];
  }
  name[j] = '\0';
  free(m->files[n]);
  m->files[n] = name;
}

/* section := .section name '{' ... '}'  (debug information: skipped) */
static void section(Parser *P) {
  pp_next(P);
  pp_expect_word(P, "a section name");
  const PtxTok *lb = pp_expect(P, '{');
  int depth = 1;
  while (depth > 0) {
    const PtxTok *t = pp_next(P);
    if (t->kind == TK_EOF) pp_fail(P, lb, "unterminated .section");
    if (pp_is_punct(t, '{')) depth++;
    if (pp_is_punct(t, '}')) depth--;
  }
}

/* module := {directive}
 * directive := .version N.N | .target name {',' name} | .address_size N | file | section
 *            | .pragma ...; | {.visible | .weak | .extern | .common} (entry | func | var-decl) */
void pp_module(Parser *P) {
  PtxModule *m = P->m;
  char buf[128];
  for (;;) {
    const PtxTok *t = pp_peek(P);
    if (t->kind == TK_EOF) break;
    if (t->kind != TK_WORD || t->p[0] != '.')
      pp_fail(P, t, "expected a directive, found '%s'", pp_tok_str(t, buf, sizeof buf));
    if (pp_is(t, ".version")) {
      pp_next(P);
      const PtxTok *v = pp_peek(P);
      if (v->kind != TK_NUM) pp_fail_expected(P, "a version number");
      pp_next(P);
      char vb[32];
      pp_tok_str(v, vb, sizeof vb);
      char *dot;
      m->version_major = (int)strtol(vb, &dot, 10);
      m->version_minor = *dot == '.' ? (int)strtol(dot + 1, NULL, 10) : 0;
    } else if (pp_is(t, ".target")) {
      pp_next(P);
      const PtxTok *tg = pp_peek(P);
      if (tg->kind == TK_WORD && tg->p[0] == '.') pp_fail_expected(P, "a target"); /* `.target .file` */
      pp_expect_word(P, "a target");
      pp_tok_str(tg, m->target, sizeof m->target);
      P->target_tok = tg;
      while (pp_accept(P, ",")) pp_expect_word(P, "a target option");
    } else if (pp_is(t, ".address_size")) {
      pp_next(P);
      const PtxTok *at = pp_peek(P);
      uint64_t a = pp_int_number(P, "32 or 64");
      if (a != 32 && a != 64) pp_fail(P, at, "address size must be 32 or 64");
      m->address_size = (int)a;
    } else if (pp_is(t, ".file")) {
      file(P);
    } else if (pp_is(t, ".section")) {
      section(P);
    } else if (pp_is(t, ".pragma")) {
      pp_next(P);
      pp_skip_statement(P);
    } else if (pp_is(t, ".loc")) {
      loc(P);
    } else if (pp_is(t, ".alias")) { /* .alias name, function; */
      pp_next(P);
      const PtxTok *a = pp_expect_word(P, "an alias name");
      pp_expect(P, ',');
      const PtxTok *f = pp_expect_word(P, "a function name");
      int fi = pp_func_index(P, f, 0);
      if (fi < 0) pp_fail(P, f, "'%s' is not a declared function", pp_tok_str(f, buf, sizeof buf));
      pp_map_put(&P->funcs, a->p, a->len, fi + 1);
      pp_expect(P, ';');
    } else {
      int is_extern = 0;
      while (pp_is(pp_peek(P), ".visible") || pp_is(pp_peek(P), ".weak") || pp_is(pp_peek(P), ".extern") || pp_is(pp_peek(P), ".common"))
        if (pp_is(pp_next(P), ".extern")) is_extern = 1;
      const PtxTok *d = pp_peek(P);
      if (pp_is(d, ".entry")) entry(P);
      else if (pp_is(d, ".func")) func(P);
      else if (pp_is(d, ".global") || pp_is(d, ".const") || pp_is(d, ".shared") || pp_is(d, ".local") || pp_is(d, ".param"))
        pp_var_decl(P, is_extern);
      else if (d->kind == TK_WORD && d->p[0] == '.')
        pp_unsup(P, d, "unsupported directive '%s'", pp_tok_str(d, buf, sizeof buf));
      else
        pp_fail(P, d, "expected a directive, found '%s'", pp_tok_str(d, buf, sizeof buf));
    }
  }
}

/* The newest PTX target warpmem runs: sm_90 and its arch-specific sm_90a
 * (Hopper).  A module for a newer GPU (sm_100a's tcgen05, sm_120) loads,
 * and each of its kernels is refused with the .target line. */
#define PTX_NEWEST_SM 90

static void refuse_newer_target(Parser *P) {
  PtxModule *m = P->m;
  int sm = strncmp(m->target, "sm_", 3) == 0 ? atoi(m->target + 3) : 0;
  if (sm <= PTX_NEWEST_SM || !P->target_tok) return;
  char msg[300];
  snprintf(msg, sizeof msg, "PTX for %s (.target): warpmem runs PTX for sm_%d and its arch-specific sm_%da "
           "(Hopper) and older; compile for those (nvcc -arch=sm_%da)", m->target, PTX_NEWEST_SM, PTX_NEWEST_SM,
           PTX_NEWEST_SM);
  for (int i = 0; i < m->nkernels; i++) {
    P->k = &m->kernels[i];
    free(P->k->unsupported); /* the target explains its other refusals too (tcgen05, ...) */
    P->k->unsupported = NULL;
    P->k->refused_code = 0;
    pp_mark_unsupported(P, P->target_tok, msg);
  }
  P->k = NULL;
}

/* .file directives come after the code in nvcc's output, so only now can a
 * .loc that names a file number no .file defines be told apart: such a
 * position is dropped (cu_line 0) so that no message shows a line without a
 * file; an unknown call site falls back to the inner position. */

static void check_files(PtxModule *m) {
  for (int i = 0; i < m->nkernels + m->nfuncs; i++) {
    PtxKernel *k = i < m->nkernels ? &m->kernels[i] : &m->funcs[i - m->nkernels];
    for (int j = 0; j < k->ncode; j++) {
      PtxInstr *in = &k->code[j];
      if (in->cu_file_inner == 0 || in->cu_file_inner >= m->nfiles || !m->files[in->cu_file_inner])
        in->cu_file_inner = 0, in->cu_line_inner = 0;
      if (in->cu_file == 0 || in->cu_file >= m->nfiles || !m->files[in->cu_file])
        in->cu_file = in->cu_file_inner, in->cu_line = in->cu_line_inner;
    }
  }
}

static void parser_free(Parser *P) {
  if (P->k) {
    P->depth = P->depth < 0 ? 0 : P->depth;
    while (P->depth >= 0) pp_leave_scope(P);
  }
  while (P->ndecls > 0) { /* only after an error inside nested blocks */
    RegDecl *d = P->decls[--P->ndecls];
    free(d->slots);
    free(d);
  }
  free(P->decls);
  for (int i = 0; i < P->nsyms; i++) free(P->syms[i]);
  free(P->syms);
  pp_map_free(&P->msyms);
  pp_map_free(&P->funcs);
  pp_map_free(&P->entry_decls);
  pp_map_free(&P->ksyms);
  pp_map_free(&P->regs);
  pp_map_free(&P->labels);
  free(P->ldefs);
  free(P->shadows);
  free(P->luses);
  free(P->afix);
  free(P->locs.e);
  free(P->toks);
  free(P);
}

PtxModule *ptx_parse(const char *path, char *text, WmErr *e) {
  size_t bytes = strlen(text);
  if (bytes > PTX_MAX_BYTES) {
    wm_err(e, WM_ELIMIT, "%s: %zu bytes of PTX, over the %u MiB warpmem reads (docs/limits.md)", path, bytes,
           PTX_MAX_BYTES >> 20);
    free(text); /* ptx_parse owns text (the module would have) */
    return NULL;
  }
  PtxModule *m = wm_xcalloc(1, sizeof *m);
  m->text = text;
  m->path = wm_xstrdup(path);
  m->address_size = 64;
  Parser *P = wm_xcalloc(1, sizeof *P);
  P->path = path;
  P->src = text;
  P->e = e;
  P->m = m;
  P->depth = -1;
  P->toks = ptx_lex(path, text, &P->ntoks, e);
  if (!P->toks) {
    parser_free(P);
    ptx_module_free(m);
    return NULL;
  }
  if (setjmp(P->jb)) { /* an error: everything is owned by P or m */
    parser_free(P);
    ptx_module_free(m);
    return NULL;
  }
  pp_module(P);
  refuse_newer_target(P);
  check_files(m);
  pp_link(m);
  parser_free(P);
  if (!m->const_init) m->const_init = wm_xcalloc(1, 1);
  if (!m->global_init) m->global_init = wm_xcalloc(1, 1);
  return m;
}
