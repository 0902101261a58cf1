/* ptx_instr.c - one PTX instruction: its guard, its mnemonic and
 * modifiers (what each opcode accepts and needs is its row in ptx_ops.h),
 * its operands; their form is checked in ptx_shape.c. */
#include "ptx/ptx_parse_int.h"

#include <stdio.h>
#include <stdlib.h>

static int find_word(Comp c, const char *const *list, int n) {
  for (int i = 0; i < n; i++)
    if (strlen(list[i]) == c.len && memcmp(list[i], c.p, c.len) == 0) return i;
  return -1;
}

static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                        "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const rnd_names[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const atom_names[] = {"add", "min", "max", "inc", "dec", "exch", "cas", "and", "or", "xor"};
static const char *const testp_names[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
static const char *const cache_names[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc"};
static const uint16_t cache_flags[] = {PTX_IF_CA, PTX_IF_CG, PTX_IF_CS, PTX_IF_LU,
                                       PTX_IF_CV, PTX_IF_WB, PTX_IF_WT, PTX_IF_NC};


static _Noreturn void bad_mod(Parser *P, const InstrCtx *x, Comp c) {
  char buf[128];
  pp_unsup(P, x->mn, "unsupported instruction '%s' (kernel %s): unknown or unsupported modifier '.%.*s'",
        pp_tok_str(x->mn, buf, sizeof buf), P->k->name, (int)c.len, c.p);
}

/* One modifier (the part between dots) of the mnemonic.  Long because it
 * is one flat list: a branch per modifier group's words. */
static void modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  uint64_t mods = ptx_op[in->op].mods;
  int t = pp_type_of(c.p, c.len), i;
  if (mods & M_ANY) return; /* fence.*: no effect on a sequential emulator */
  if (t >= 0) {
    if (x->ntypes == 0) in->type = (uint8_t)t;
    else if (x->ntypes == 1 && (mods & M_TYPE2)) in->type2 = (uint8_t)t;
    else bad_mod(P, x, c);
    x->ntypes++;
  } else if ((mods & M_VEC) && (IS(c, "v2") || IS(c, "v4"))) {
    in->vec = (uint8_t)(c.p[1] - '0');
  } else if ((mods & M_SPACE) && (i = pp_space_of(c.p, c.len)) >= 0) {
    if (in->space != PTX_S_NONE) bad_mod(P, x, c);
    in->space = (uint8_t)i;
  } else if ((mods & M_CACHE) && (i = find_word(c, cache_names, 8)) >= 0) {
    if (i == 7 && in->op != PTX_OP_LD) bad_mod(P, x, c);
    in->flags |= cache_flags[i];
  } else if ((mods & M_CACHE) && c.len >= 2 && (c.p[0] == 'L') && (c.p[1] == '1' || c.p[1] == '2')) {
    /* L1::evict_last, L2::128B, prefetch.L2: hints without effect here */
    if (IS(c, "L2::cache_hint")) bad_mod(P, x, c);
  } else if ((mods & M_SEM) && (IS(c, "volatile") || IS(c, "relaxed") || IS(c, "acquire") ||
                                IS(c, "release") || IS(c, "acq_rel") || IS(c, "mmio"))) {
    if (in->op == PTX_OP_LD || in->op == PTX_OP_ST) in->flags |= PTX_IF_VOLATILE;
  } else if ((mods & M_SEM) && (IS(c, "weak") || IS(c, "cta") || IS(c, "gpu") || IS(c, "sys") ||
                                IS(c, "cluster"))) {
    /* scopes: a sequential emulator is coherent at every scope */
  } else if ((mods & M_RND) && (i = find_word(c, rnd_names, 8)) >= 0) {
    if (i >= 4 && !(mods & M_IRND)) bad_mod(P, x, c);
    if (in->rnd != PTX_RND_NONE) bad_mod(P, x, c);
    in->rnd = (uint8_t)(PTX_RND_RN + i);
  } else if ((mods & M_APPROX) && IS(c, "approx")) {
    in->rnd = PTX_RND_APPROX;
  } else if ((mods & M_APPROX) && IS(c, "full")) {
    in->rnd = PTX_RND_FULL;
  } else if ((mods & M_FTZ) && IS(c, "ftz")) {
    in->flags |= PTX_IF_FTZ;
  } else if ((mods & M_SAT) && IS(c, "sat")) {
    in->flags |= PTX_IF_SAT;
  } else if ((mods & M_CC) && IS(c, "cc")) {
    in->flags |= PTX_IF_CC;
  } else if ((mods & M_MULMODE) && (IS(c, "lo") || IS(c, "hi") || IS(c, "wide"))) {
    if (in->sub) bad_mod(P, x, c);
    if (IS(c, "wide") && (in->op == PTX_OP_MUL24 || in->op == PTX_OP_MAD24)) bad_mod(P, x, c);
    in->sub = IS(c, "lo") ? PTX_SUB_LO : IS(c, "hi") ? PTX_SUB_HI : PTX_SUB_WIDE;
  } else if ((mods & M_CMP) && (i = find_word(c, cmp_names, 18)) >= 0) {
    if (in->cmp) bad_mod(P, x, c);
    in->cmp = (uint8_t)(PTX_CMP_EQ + i);
  } else if ((mods & M_CMP) && (IS(c, "and") || IS(c, "or") || IS(c, "xor"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "and") ? PTX_SUB_BAND : IS(c, "or") ? PTX_SUB_BOR : PTX_SUB_BXOR;
  } else if ((mods & M_SHFL) && (IS(c, "up") || IS(c, "down") || IS(c, "bfly") || IS(c, "idx"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "up") ? PTX_SUB_UP : IS(c, "down") ? PTX_SUB_DOWN : IS(c, "bfly") ? PTX_SUB_BFLY : PTX_SUB_IDX;
  } else if ((mods & M_SYNC) && IS(c, "sync")) {
    x->has_sync = 1;
  } else if ((mods & M_VOTE) && (IS(c, "all") || IS(c, "any") || IS(c, "uni") || IS(c, "ballot"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "all") ? PTX_SUB_ALL : IS(c, "any") ? PTX_SUB_ANY : IS(c, "uni") ? PTX_SUB_UNI : PTX_SUB_BALLOT;
  } else if ((mods & M_MATCH) && (IS(c, "all") || IS(c, "any"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "all") ? PTX_SUB_ALL : PTX_SUB_ANY;
  } else if ((mods & M_ATOMOP) && (i = find_word(c, atom_names, 10)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    if (in->op == PTX_OP_REDUX && (i == 3 || i == 4 || i == 5 || i == 6)) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_AADD + i);
  } else if ((mods & M_ATOMOP) && IS(c, "noftz") && in->op != PTX_OP_REDUX) {
    /* f16/f32 atomic add without flushing: we never flush in atomics */
  } else if ((mods & M_TESTP) && (i = find_word(c, testp_names, 6)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_FINITE + i);
  } else if ((mods & M_BAR) && (IS(c, "sync") || IS(c, "arrive"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "sync") ? PTX_SUB_SYNC : PTX_SUB_ARRIVE;
  } else if ((mods & M_BAR) && IS(c, "red")) {
    if (x->has_red) bad_mod(P, x, c);
    x->has_red = 1;
  } else if ((mods & M_BAR) && x->has_red && (IS(c, "popc") || IS(c, "and") || IS(c, "or"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "popc") ? PTX_SUB_RED_POPC : IS(c, "and") ? PTX_SUB_RED_AND : PTX_SUB_RED_OR;
  } else if ((mods & M_SHF) && (IS(c, "l") || IS(c, "r"))) {
    if (x->shf_dir) bad_mod(P, x, c);
    x->shf_dir = c.p[0];
  } else if ((mods & M_SHF) && (IS(c, "wrap") || IS(c, "clamp"))) {
    if (x->shf_mode) bad_mod(P, x, c);
    x->shf_mode = c.p[0];
  } else if ((mods & M_SHIFTAMT) && IS(c, "shiftamt")) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = PTX_SUB_SHIFTAMT;
  } else if ((mods & M_BAR) && (IS(c, "aligned") || IS(c, "cta"))) {
    /* all threads of the block reach it together: a promise, not a variant */
  } else if ((mods & M_CLUSTER) && (IS(c, "arrive") || IS(c, "wait"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "wait") ? PTX_SUB_SYNC : PTX_SUB_ARRIVE;
  } else if ((mods & M_CLUSTER) && (IS(c, "aligned") || IS(c, "relaxed") || IS(c, "release") || IS(c, "acquire"))) {
    /* ordering of the arrival: the emulator's memory is sequential */
  } else if ((mods & M_UNI) && IS(c, "uni")) {
    in->flags |= PTX_IF_UNI;
  } else if ((mods & M_TO) && IS(c, "to")) {
    in->sub = PTX_SUB_TO;
  } else if ((mods & M_LEVEL) && (IS(c, "cta") || IS(c, "gl") || IS(c, "sys"))) {
    /* membar level: no effect */
  } else {
    bad_mod(P, x, c);
  }
}


/* The register named by t as a REG operand. */
static void reg_operand(Parser *P, const PtxTok *t, Opd *o) {
  o->o.kind = PTX_O_REG;
  o->o.reg[0] = pp_reg_slot(P, t, &o->rtype);
}

/* address := '[' (reg [('+'|'-') ['-'] number] | symbol [('+'|'-') ['-'] number] | number) ']' */
static void address(Parser *P, Opd *o) {
  pp_next(P); /* [ */
  const PtxTok *t = pp_peek(P);
  char buf[128];
  o->o.kind = PTX_O_ADDR;
  o->o.reg[0] = PTX_NOREG;
  uint64_t base = 0;
  if (t->kind == TK_NUM) {
    Num n = pp_number_tok(P, pp_next(P));
    if (n.kind != NUM_INT) pp_fail(P, t, "bad address");
    base = n.bits;
  } else if (t->kind == TK_WORD) {
    pp_next(P);
    uint32_t idx;
    if (t->p[0] == '%' || pp_find_reg(P, t, &idx)) {
      if (pp_sreg_of(t) >= 0) pp_fail(P, t, "a special register cannot be an address");
      uint8_t type;
      o->o.reg[0] = pp_reg_slot(P, t, &type);
      if (type == PTX_T_PRED) pp_fail(P, t, "predicate register '%s' used as an address", pp_tok_str(t, buf, sizeof buf));
      if (ptx_type_is_float((PtxType)type))
        pp_fail(P, t, "floating-point register '%s' used as an address", pp_tok_str(t, buf, sizeof buf));
    } else {
      const Sym *s = pp_find_sym(P, t);
      if (!s) pp_fail(P, t, "undeclared identifier '%s'", pp_tok_str(t, buf, sizeof buf));
      o->sym = s;
      o->o.space = s->space;
      base = s->offset;
    }
  } else {
    pp_fail(P, t, "bad address");
  }
  if (pp_is_punct(pp_peek(P), '+') || pp_is_punct(pp_peek(P), '-')) {
    int neg = pp_is_punct(pp_next(P), '-');
    const PtxTok *nt = pp_peek(P);
    Num n = pp_signed_number(P);
    if (n.kind != NUM_INT) pp_fail(P, nt, "bad address offset");
    uint64_t off = n.neg ? 0 - n.bits : n.bits;
    base = neg ? base - off : base + off;
  }
  o->o.imm = (int64_t)base;
  pp_expect(P, ']');
}

/* vector := '{' (reg | '_') {',' (reg | '_')} '}' */
static void vector(Parser *P, Opd *o) {
  const PtxTok *lb = pp_next(P);
  o->o.kind = PTX_O_VEC;
  int n = 0;
  do {
    const PtxTok *t = pp_peek(P);
    if (n == 4) pp_fail(P, t, "vector operand with more than 4 elements");
    if (pp_is(t, "_")) {
      pp_next(P);
      o->o.reg[n++] = PTX_NOREG;
      continue;
    }
    if (t->kind != TK_WORD) pp_fail_expected(P, "a register");
    pp_next(P);
    char buf[128];
    if (pp_sreg_of(t) >= 0) pp_fail(P, t, "special register in a vector operand");
    uint8_t type;
    o->o.reg[n++] = pp_reg_slot(P, t, &type);
    if (type == PTX_T_PRED) pp_fail(P, t, "predicate register '%s' in a vector operand", pp_tok_str(t, buf, sizeof buf));
  } while (pp_accept(P, ","));
  pp_expect(P, '}');
  if (n != 2 && n != 4) pp_fail(P, lb, "vector operand with %d elements (2 or 4 expected)", n);
  o->o.n = (uint8_t)n;
}

/* operand := ['!'] reg | sreg | ['-'] number | address | vector | symbol [('+'|'-') number] */
static void operand(Parser *P, Opd *o, int is_bra) {
  const PtxTok *t = pp_peek(P);
  char buf[128];
  memset(o, 0, sizeof *o);
  o->tok = t;
  if (pp_is_punct(t, '[')) {
    address(P, o);
    return;
  }
  if (pp_is_punct(t, '{')) {
    vector(P, o);
    return;
  }
  if (pp_is_punct(t, '!')) {
    pp_next(P);
    const PtxTok *r = pp_peek(P);
    if (r->kind != TK_WORD) pp_fail_expected(P, "a predicate register after '!'");
    pp_next(P);
    reg_operand(P, r, o);
    o->o.neg = 1;
    return;
  }
  if (pp_is_punct(t, '-') || t->kind == TK_NUM) {
    o->o.kind = PTX_O_IMM;
    o->num = pp_signed_number(P);
    return;
  }
  if (t->kind != TK_WORD || t->p[0] == '.') pp_fail_expected(P, "an operand");
  pp_next(P);
  if (pp_is(t, "WARP_SZ")) { /* the predefined constant (warpSize) */
    o->o.kind = PTX_O_IMM;
    o->num = (Num){.kind = NUM_INT, .bits = 32};
    return;
  }
  if (is_bra) {
    o->o.kind = PTX_O_LABEL;
    return;
  }
  int sr = pp_sreg_of(t);
  if (sr >= 0) {
    o->o.kind = PTX_O_SREG;
    o->o.sreg = (uint8_t)sr;
    return;
  }
  if (pp_is(t, "_")) pp_fail(P, t, "'_' is only allowed inside a vector operand");
  uint32_t idx;
  if (t->p[0] == '%' || pp_find_reg(P, t, &idx)) {
    reg_operand(P, t, o);
    return;
  }
  const Sym *s = pp_find_sym(P, t);
  if (!s) {
    if (pp_map_get(&P->funcs, t->p, t->len))
      pp_unsup(P, t, "the address of device function '%s' (a function pointer) is not supported",
            pp_tok_str(t, buf, sizeof buf));
    if (pp_map_get(&P->labels, t->p, t->len) || (t->p[0] == '$' && t->len > 2 && t->p[1] == 'L'))
      pp_unsup(P, t, "labels as values are not supported ('%s')", pp_tok_str(t, buf, sizeof buf));
    pp_fail(P, t, "undeclared identifier '%s'", pp_tok_str(t, buf, sizeof buf));
  }
  o->o.kind = PTX_O_SYM;
  o->o.space = s->space;
  o->sym = s;
  uint64_t v = s->offset;
  if (pp_is_punct(pp_peek(P), '+')) {
    pp_next(P);
    const PtxTok *nt = pp_peek(P);
    Num n = pp_signed_number(P);
    if (n.kind != NUM_INT) pp_fail(P, nt, "bad offset");
    v += n.neg ? 0 - n.bits : n.bits;
  }
  o->o.imm = (int64_t)v;
}

/* The opcode named by the mnemonic's components (c[0] or c[0].c[1]). */
static int find_op(Comp *c, int nc, int *used) {
  *used = 1;
  if (nc > 1 && IS(c[0], "bar") && IS(c[1], "warp")) {
    *used = 2;
    return PTX_OP_BARWARP;
  }
  if (nc > 1 && IS(c[0], "barrier") && IS(c[1], "cluster")) {
    *used = 2;
    return PTX_OP_BARCLUSTER;
  }
  for (int op = 0; op < PTX_OP_COUNT; op++)
    if (op != PTX_OP_BARWARP && op != PTX_OP_BARCLUSTER && strlen(ptx_op_name[op]) == c[0].len &&
        memcmp(ptx_op_name[op], c[0].p, c[0].len) == 0)
      return op;
  return -1;
}

/* call := call{.uni} [(ret), ] target [, (args)] [, prototype] ';' -- not run:
 * says what was called. */
static _Noreturn void call(Parser *P, const PtxTok *mn) {
  char buf[128], fn[128];
  int depth = 0;
  const PtxTok *target = NULL;
  for (int i = P->pos; P->toks[i].kind != TK_EOF && !pp_is_punct(&P->toks[i], ';'); i++) {
    const PtxTok *t = &P->toks[i];
    if (pp_is_punct(t, '(')) depth++;
    else if (pp_is_punct(t, ')')) depth--;
    else if (depth == 0 && t->kind == TK_WORD) {
      target = t;
      break;
    }
  }
  pp_tok_str(mn, buf, sizeof buf);
  if (target && pp_is(target, "vprintf"))
    pp_unsup(P, mn, "unsupported instruction '%s' (kernel %s): printf (a call to vprintf) is not supported",
          buf, P->k->name);
  if (!target || target->p[0] == '%')
    pp_unsup(P, mn, "unsupported instruction '%s' (kernel %s): indirect calls (function pointers, virtual "
                 "functions) are not supported", buf, P->k->name);
  pp_tok_str(target, fn, sizeof fn);
  char *plain = pp_demangle(fn), shown[300];
  if (plain) snprintf(shown, sizeof shown, "'%s' (%s)", plain, fn);
  else snprintf(shown, sizeof shown, "'%s'", fn);
  free(plain);
  pp_unsup(P, mn, "unsupported instruction '%s' (kernel %s): a call to device function %s; warpmem runs "
               "kernels whose device functions are inlined (use __forceinline__)",
        buf, P->k->name, shown);
}

/* guard := '@' ['!'] pred */
static void guard(Parser *P, PtxInstr *in) {
  char buf[128];
  pp_next(P);
  if (pp_accept(P, "!")) in->guard_neg = 1;
  const PtxTok *g = pp_peek(P);
  if (g->kind != TK_WORD) pp_fail_expected(P, "a predicate register after '@'");
  pp_next(P);
  uint8_t type;
  in->guard = pp_reg_slot(P, g, &type);
  if (type != PTX_T_PRED) pp_fail(P, g, "guard '%s' is not a predicate register", pp_tok_str(g, buf, sizeof buf));
}

/* mnemonic := opcode {'.' modifier}: sets in->op and what the modifiers say. */
static void mnemonic(Parser *P, PtxInstr *in, InstrCtx *x) {
  const PtxTok *mn = x->mn;
  char buf[128];
  Comp c[16];
  int nc = 0;
  for (uint32_t i = 0, s = 0; i <= mn->len; i++) {
    if (i == mn->len || mn->p[i] == '.') {
      if (nc == 16 || i == s) pp_fail(P, mn, "malformed instruction '%s'", pp_tok_str(mn, buf, sizeof buf));
      c[nc].p = mn->p + s;
      c[nc++].len = i - s;
      s = i + 1;
    }
  }
  int used, op = find_op(c, nc, &used);
  if (op < 0 && IS(c[0], "call")) call(P, mn);
  if (op < 0) pp_unsup(P, mn, "unsupported instruction '%s' (kernel %s)", pp_tok_str(mn, buf, sizeof buf), P->k->name);
  in->op = (uint16_t)op;
  for (int i = used; i < nc; i++) modifier(P, in, x, c[i]);
}

/* Fails with "'MNEMONIC'" and what is wrong with it (" needs ...", ": ..."). */
static _Noreturn void bad_form(Parser *P, const PtxTok *mn, const char *what) {
  char buf[128];
  pp_fail(P, mn, "'%s'%s", pp_tok_str(mn, buf, sizeof buf), what);
}

/* What the opcode's row says it must have: a type (or two), a comparison,
 * its operation, .sync, a state space. */
static void required_modifiers(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  uint64_t mods = ptx_op[in->op].mods;
  if (!(mods & M_NOTYPE) && x->ntypes == 0) bad_form(P, mn, " needs a type (.u32, .f32, ...)");
  if ((mods & M_TYPE2) && x->ntypes != 2) bad_form(P, mn, " needs two types");
  if ((mods & M_CMP) && !in->cmp) bad_form(P, mn, " needs a comparison (.eq, .lt, ...)");
  if ((mods & M_NEED_SUB) && !in->sub) bad_form(P, mn, " needs an operation modifier");
  if ((mods & M_NEED_SYNC) && !x->has_sync) bad_form(P, mn, " needs .sync");
  if ((mods & M_NEED_SPACE) && in->space == PTX_S_NONE) bad_form(P, mn, " needs a state space");
  if ((mods & M_SPACE) && in->space == PTX_S_NONE) in->space = PTX_S_GENERIC;
  if (in->type == PTX_T_PRED && !(ptx_op[in->op].flags & OPF_PRED) && !x->has_red)
    bad_form(P, mn, ": .pred is not a valid type here");
}

/* The rules of single opcodes that no column of the table expresses. */
static void opcode_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  int op = in->op;
  if (op == PTX_OP_SHF) {
    if (!x->shf_dir || !x->shf_mode) bad_form(P, mn, " needs .l or .r and .wrap or .clamp");
    in->sub = x->shf_dir == 'l' ? (x->shf_mode == 'w' ? PTX_SUB_SHF_L_WRAP : PTX_SUB_SHF_L_CLAMP)
                                : (x->shf_mode == 'w' ? PTX_SUB_SHF_R_WRAP : PTX_SUB_SHF_R_CLAMP);
    if (in->type != PTX_T_B32) bad_form(P, mn, ": shf is .b32");
  }
  if (op == PTX_OP_BFIND && in->type != PTX_T_U32 && in->type != PTX_T_U64 && in->type != PTX_T_S32 &&
      in->type != PTX_T_S64)
    bad_form(P, mn, ": bfind is .u32, .u64, .s32 or .s64");
  if (x->has_red) {
    if (!pp_is_bar_red(in)) bad_form(P, mn, " needs .popc, .and or .or");
    if (in->type != (in->sub == PTX_SUB_RED_POPC ? PTX_T_U32 : PTX_T_PRED) || x->ntypes != 1)
      bad_form(P, mn, ": bar.red.popc is .u32, bar.red.and/.or are .pred");
  }
  if ((op == PTX_OP_ATOM || op == PTX_OP_RED) && in->space != PTX_S_GENERIC && in->space != PTX_S_GLOBAL &&
      in->space != PTX_S_SHARED)
    bad_form(P, mn, ": atomics work on .global or .shared");
  if ((op == PTX_OP_MUL || op == PTX_OP_MAD) && !ptx_type_is_float((PtxType)in->type) && !in->sub)
    in->sub = PTX_SUB_LO;
  if ((op == PTX_OP_MUL || op == PTX_OP_MAD) && ptx_type_is_float((PtxType)in->type) && in->sub)
    bad_form(P, mn, ": .lo/.hi/.wide are for integer types");
  if (in->sub == PTX_SUB_WIDE) in->type2 = in->type;
  if (op == PTX_OP_VOTE && in->type != (in->sub == PTX_SUB_BALLOT ? PTX_T_B32 : PTX_T_PRED))
    bad_form(P, mn, ": vote.ballot is .b32, vote.all/any/uni are .pred");
}

/* operands := [operand ['|' operand] {',' operand}] ';' -- as written, into
 * raw[]; returns how many. */
static int operands(Parser *P, const PtxInstr *in, Opd *raw) {
  int n = 0;
  if (!pp_is_punct(pp_peek(P), ';')) {
    for (;;) {
      if (n == 8) pp_fail(P, pp_peek(P), "too many operands");
      operand(P, &raw[n], in->op == PTX_OP_BRA);
      n++;
      if (n == 1 && pp_is_punct(pp_peek(P), '|')) {
        pp_next(P);
        operand(P, &raw[n], 0);
        raw[n++].pipe = 1;
      }
      if (!pp_accept(P, ",")) break;
    }
  }
  if (!pp_is_punct(pp_peek(P), ';')) pp_fail_expected(P, "';'");
  pp_next(P);
  return n;
}

/* Appends the checked instruction to the kernel: immediates converted to
 * the type of their position, labels and dynamic shared memory noted for
 * fixing up at the kernel's end. */
static void append(Parser *P, PtxInstr *in, Opd *fin, int nf) {
  PtxKernel *k = P->k;
  for (int i = 0; i < nf; i++) { /* may fail: before anything refers to idx */
    Opd *o = &fin[i];
    if (o->o.kind == PTX_O_IMM) o->o.imm = (int64_t)pp_num_value(P, o->tok, o->num, pp_opd_type(in, i));
    if (o->o.kind == PTX_O_REG && (o->o.reg[0] == PTX_NOREG)) pp_fail(P, o->tok, "bad register");
  }
  GROW(k->code, k->ncode, P->capcode);
  int idx = k->ncode;
  for (int i = 0; i < nf; i++) {
    Opd *o = &fin[i];
    if (o->o.kind == PTX_O_LABEL) {
      GROW(P->luses, P->nluses, P->capluses);
      P->luses[P->nluses++] = (LabelUse){idx, o->tok};
    }
    if (o->sym && o->sym->ext) {
      if (o->sym->align > P->extern_align) P->extern_align = o->sym->align;
      GROW(P->xfix, P->nxfix + 1, P->capxfix);
      P->xfix[P->nxfix++] = idx;
      P->xfix[P->nxfix++] = i;
    }
    in->opd[i] = o->o;
  }
  in->nopd = (uint8_t)nf;
  k->code[k->ncode++] = *in;
}

/* instruction := [guard] mnemonic operands */
static void instruction_body(Parser *P) {
  const PtxTok *start = pp_peek(P);
  char buf[128];
  PtxInstr in;
  memset(&in, 0, sizeof in);
  in.guard = PTX_NOREG;
  in.vec = 1;
  if (pp_is_punct(start, '@')) guard(P, &in);
  const PtxTok *mn = pp_peek(P);
  if (mn->kind != TK_WORD || mn->p[0] == '.' || mn->p[0] == '%')
    pp_fail(P, mn, "expected an instruction, found '%s'", pp_tok_str(mn, buf, sizeof buf));
  pp_next(P);
  InstrCtx x = {.mn = mn};
  mnemonic(P, &in, &x);
  required_modifiers(P, &in, &x);
  opcode_rules(P, &in, &x);

  in.ptx_line = start->line;
  in.ptx_col = (uint16_t)(start->col > 0xffff ? 0xffff : start->col);
  in.cu_file = P->cur_file;
  in.cu_line = P->cur_line;
  in.cu_file_inner = P->cur_file_inner;
  in.cu_line_inner = P->cur_line_inner;
  in.text = (uint32_t)(start->p - P->src);

  Opd raw[8], fin[PTX_MAX_OPD];
  int n = operands(P, &in, raw);
  memset(fin, 0, sizeof fin);
  int nf = pp_shape(P, &in, &x, raw, n, fin);
  append(P, &in, fin, nf);
}

/* An instruction; one that warpmem does not run (an unknown opcode or
 * modifier, call, a special register we lack, ...) marks the kernel with its
 * located message, and parsing goes on after its ';'.  Malformed input still
 * fails the module: the instruction must at least end with a ';'. */
void pp_instruction(Parser *P) {
  int end = P->pos, depth = 0; /* the ';', or where one is missing */
  for (; P->toks[end].kind != TK_EOF; end++) {
    const PtxTok *t = &P->toks[end];
    if (t->kind != TK_PUNCT) continue;
    if (t->p[0] == ';') break;
    if (t->p[0] == '(' || t->p[0] == '[' || t->p[0] == '{') depth++;
    if ((t->p[0] == ')' || t->p[0] == ']' || t->p[0] == '}') && depth-- == 0) break;
  }
  P->instr_end = end;
  if (setjmp(P->ijb)) {
    P->defer = 0;
    P->pos = P->instr_end;
    if (!pp_is_punct(pp_peek(P), ';')) pp_fail_expected(P, "';'");
    pp_next(P);
    return;
  }
  P->defer = 1;
  instruction_body(P);
  P->defer = 0;
}
