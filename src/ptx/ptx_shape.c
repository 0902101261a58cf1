/* ptx_shape.c - the operand forms of PTX instructions (PtxShape, one per
 * row of ptx_ops.h): which operands each takes, of which kinds, and in
 * which order the parser stores them in PtxInstr.opd.
 *
 * OPERAND CONVENTIONS (the emulator relies on these exactly -- keep them):
 *   opd[] holds the operands in the order written, destinations first, except:
 *   setp    opd[0]=p, opd[1]=q (NONE if absent), opd[2]=a, opd[3]=b,
 *           opd[4]=c (NONE if absent; written !c -> opd[4].neg=1 and
 *           PTX_IF_NEG_C); sub = BAND/BOR/BXOR with a combination; nopd = 5.
 *   set     opd[0]=d, opd[1]=a, opd[2]=b[, opd[3]=c (neg as for setp)];
 *           type = destination type, type2 = source type.
 *   shfl    opd[0]=d, opd[1]=p (NONE if absent), opd[2]=a, opd[3]=b,
 *           opd[4]=c, opd[5]=membermask (NONE for the non-.sync form);
 *           sub = UP/DOWN/BFLY/IDX; nopd = 6.
 *   vote    opd[0]=d, opd[1]=a (pred, .neg if !a), opd[2]=membermask (NONE for
 *           the non-.sync form); sub = ALL/ANY/UNI/BALLOT; nopd = 3.
 *   match   opd[0]=d, opd[1]=p (NONE if absent), opd[2]=a, opd[3]=membermask;
 *           sub = ANY/ALL; nopd = 4.
 *   elect   opd[0]=d, opd[1]=p (NONE if absent), opd[2]=membermask; nopd = 3.
 *   redux   opd[0]=d, opd[1]=a, opd[2]=membermask; sub = AADD..AXOR.
 *   st/red  opd[0]=ADDR, opd[1]=value.
 *   atom    opd[0]=d, opd[1]=ADDR, opd[2]=b, opd[3]=c (cas only).
 *   bar/barrier  opd[0]=barrier id (IMM or REG), opd[1]=thread count (NONE if
 *           absent); sub = SYNC or ARRIVE; nopd = 2.
 *   bar.red / barrier.red (.popc.u32 d or .and/.or.pred p, a[, b], [!]c)
 *           opd[0]=d, opd[1]=a (barrier id), opd[2]=b (thread count, NONE if
 *           absent), opd[3]=c (predicate REG or IMM; written !c -> opd[3].neg=1
 *           and PTX_IF_NEG_C); sub = RED_POPC/RED_AND/RED_OR; type = U32 for
 *           popc, PRED for and/or; nopd = 4.  ptx_op[].flags keep OPF_NODST for
 *           BAR/BARRIER: with a RED_* sub opd[0] is a destination all the same.
 *   shf     shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: opd[0]=d, opd[1]=a (low
 *           word), opd[2]=b (high word), opd[3]=c (shift amount; an IMM is
 *           read as u32); sub = SHF_L_WRAP/SHF_L_CLAMP/SHF_R_WRAP/SHF_R_CLAMP;
 *           type = B32.
 *   bfind   opd[0]=d (32-bit), opd[1]=a; type = u32/u64/s32/s64 (that of a);
 *           sub = SHIFTAMT for .shiftamt, else NONE.
 *   bar.warp.sync  opd[0]=membermask.
 *   bra     opd[0]=LABEL, imm = index of the target instruction.
 *   cvta    cvta.to.global.u64 d,a: space=GLOBAL, sub=PTX_SUB_TO;
 *           cvta.shared.u64 d,a: space=SHARED, sub=NONE.
 *   ld/st/ldu/atom/red/prefetch without a space: space=GENERIC.
 *   ld/st   type = element type, vec = 1/2/4; a vector operand has n == vec.
 *   cvt     type = destination, type2 = source, rnd = rounding.
 *   slct    type = type of d, a, b; type2 = type of c.
 *   mul/mad/mul24/mad24  sub = LO/HI/WIDE; an integer mul/mad written without
 *           a mode gets LO; .wide sets type2 = type (the source type).
 *   IMM     integers: the value as written, sign-extended to int64 (0xffffffff
 *           stays 4294967295, -1 is -1).  Float types: the IEEE bits in the
 *           operand's type (0f.. converted to double for .f64 operands, 0d..
 *           to float for .f32, decimal floats and integers converted by value).
 *           The operand's type is the instruction type, except: cvt source
 *           -> type2, set sources -> type2, slct c -> type2, shift amounts
 *           (shl/shr b, shf c) and bfe/bfi positions -> u32, bar.red c -> pred.
 *   SYM     mov.u32 %r, var / mov.u64 %rd, __local_depot0: space = the var's
 *           space, imm = its offset in that space (shared: in the block's
 *           shared memory, local: in the thread's local memory, global/const:
 *           in the module's segment, param: in the parameter buffer).
 *   ADDR    [reg+imm] with reg = the base register; [sym+off] has
 *           reg = PTX_NOREG, space = the symbol's space and imm = its offset
 *           plus off; [1024] has reg = PTX_NOREG, space = NONE.
 *   Dynamic shared (.extern .shared x[]) lives at shared_static rounded up to
 *   shared_extern_align; that offset is already folded into every SYM/ADDR.
 *   Registers are slots 0..nregs-1 numbered in order of first use (predicates
 *   included); reg_names[slot] is the name.  '_' in a vector is PTX_NOREG.
 *   ptx_col is the column of the guard if there is one, else of the mnemonic;
 *   text is the byte offset of the same place in module->text.
 *   A kernel whose code can run past its last instruction (no final
 *   unguarded ret/exit/trap/bra, or a label just before the closing '}') gets
 *   an implicit ret located at that '}', so every LABEL target and every
 *   fall-through pc is < ncode.
 *
 *   tex/tld4  opd[0]=VEC d (4), opd[1]=ADDR (reg[0] = the texture object's
 *           register), opd[2]=VEC coordinates trimmed to those the geometry
 *           reads (1d: x; 2d: x y; 3d: x y z; a1d: layer x; a2d: layer x y),
 *           opd[3]=lod (tex.level); sub = PTX_SUB_TEX_*; type = d's type,
 *           type2 = the coordinates'; aux = PTX_TEX_LEVEL/GRAD, tld4: channel.
 *   suld    opd[0]=d (VEC of vec, or REG), opd[1]=ADDR, opd[2]=VEC coords (x in
 *           bytes); aux = PTX_SU_TRAP/CLAMP/ZERO.
 *   sust    opd[0]=ADDR, opd[1]=VEC coords, opd[2]=the values (VEC or REG);
 *           aux as suld, | PTX_SU_P for sust.p.
 *   txq     opd[0]=d, opd[1]=ADDR; sub = PTX_SUB_TXQ_*.
 *   tensor  ldmatrix/wmma.load: opd[0]=d (VEC, or REG for one register),
 *           opd[1]=ADDR, opd[2]=stride (wmma; absent: the matrix's width);
 *           stmatrix/wmma.store: opd[0]=ADDR, opd[1]=VEC, opd[2]=stride;
 *           mma/wmma.mma: opd[0..3] = d, a, b, c; the fragment sizes are
 *           ptx_mma_regs(); a VEC of more than 4 registers keeps them in
 *           PtxKernel.vregs (ptx_vec_reg); PtxInstr.mma says the rest.
 *   wgmma.mma_async  opd[0]=D (VEC of up to 128 registers, in vregs),
 *           opd[1]=A's descriptor (REG .b64) or registers (VEC of 4),
 *           opd[2]=B's descriptor (REG .b64), opd[3]=scale-d (predicate
 *           REG, or IMM 0/1); imm-scale-a/-b and imm-trans-a/-b are in
 *           PtxInstr.mma.wg (PTX_WG_*), the shape in mma.wn/wk; nopd = 4.
 *   cp.async  opd[0]=ADDR dst (shared), opd[1]=ADDR src (global), opd[2]=size
 *           (IMM 4, 8 or 16; 16 for .cg), opd[3]=src-size (sub ASYNC_SRCSIZE)
 *           or the ignore-src predicate (sub ASYNC_IGNORE) or NONE,
 *           opd[4]=cache policy (with .L2::cache_hint) or NONE; space =
 *           SHARED; nopd = 5.
 *   cp.async.bulk  opd[0]=ADDR dst, opd[1]=ADDR src, opd[2]=size, opd[3]=ADDR
 *           mbarrier (NONE for the shared-to-global .bulk_group form, sub
 *           BULK_STORE; sub BULK_DSM: shared to a peer's shared memory),
 *           opd[4]=ctaMask (.multicast::cluster, aux PTX_TMA_MULTICAST) or
 *           NONE (a cache policy is checked and not kept); nopd = 5; space =
 *           SHARED.  cp.async.bulk.prefetch.L2.global [a], size: space GLOBAL.
 *           cp.reduce.async.bulk: the same, space GLOBAL or SHARED (the
 *           destination), sub its operation.
 *   cp.async.bulk.tensor, cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor
 *           opd[0]=ADDR dst (loads; else NONE), opd[1]=ADDR of the tensor map
 *           (its register, or a variable), opd[2]=VEC coordinates (aux's
 *           dimensions of them; past 4 in PtxKernel.vregs), opd[3]=ADDR mbar
 *           (loads) or src (stores, reductions; NONE for a prefetch),
 *           opd[4]=VEC im2col offsets or NONE, opd[5]=ctaMask or NONE;
 *           nopd = 6; aux = PTX_TMA_*; stores: sub BULK_STORE, cp.reduce: sub
 *           its operation.
 *   fence   no operands, or opd[0]=ADDR, opd[1]=size (tensormap::generic).
 *   tensormap.replace  opd[0]=ADDR of the map, opd[1]=ordinal (IMM) or NONE,
 *           opd[2]=new value; aux = PTX_TMAP_*, space GLOBAL, SHARED or
 *           GENERIC.  tensormap.cp_fenceproxy: opd[0]=ADDR dst (global),
 *           opd[1]=ADDR src (shared), opd[2]=128; space GLOBAL.
 *   mbarrier.init/expect_tx/complete_tx  opd[0]=ADDR, opd[1]=count.
 *   mbarrier.arrive/arrive_drop  opd[0]=state (NONE for '_'), opd[1]=ADDR,
 *           opd[2]=count or tx-count (NONE if absent); sub = MB_EXPECT_TX,
 *           MB_NOCOMPLETE or NONE; nopd = 3.
 *   mbarrier.test_wait/try_wait  opd[0]=p, opd[1]=ADDR, opd[2]=state or
 *           parity (sub MB_PARITY), opd[3]=suspend-time hint or NONE; nopd = 4.
 *   mbarrier ops and cp.async.mbarrier.arrive without a space: GENERIC.
 *   .loc    cu_file/cu_line = the outermost call site of inlined code (the
 *           kernel's line, following chains of inlined_at), cu_file_inner/
 *           cu_line_inner = the .loc's own position (see loc() in ptx_decl.c).  A position
 *           whose file number has no .file is dropped (cu_line = 0).
 *
 */
#include "ptx/ptx_parse_int.h"

#include <stdio.h>

int pp_is_bar_red(const PtxInstr *in) {
  return (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) &&
         (in->sub == PTX_SUB_RED_POPC || in->sub == PTX_SUB_RED_AND || in->sub == PTX_SUB_RED_OR);
}

/* The type an operand at (final) position i is read as, for immediates: the
 * opcode's imm column (ptx_ops.h), whose last letter stands for every later
 * position; bar.red's operands differ from bar.sync's. */
PtxType pp_opd_type(const PtxInstr *in, int i) {
  const char *imm = ptx_op[in->op].imm;
  if (pp_is_bar_red(in)) imm = "tuup";
  size_t n = strlen(imm);
  char c = n == 0 ? 't' : imm[(size_t)i < n ? (size_t)i : n - 1];
  switch (c) {
  case '2': return (PtxType)in->type2;
  case 'u': return PTX_T_U32;
  case 'b': return PTX_T_B32;
  case 'p': return PTX_T_PRED;
  default: return (PtxType)in->type;
  }
}

/* Operand kinds accepted at a position. */
enum { K_REG = 1, K_IMM = 2, K_SREG = 4, K_SYM = 8, K_VEC = 16, K_ADDR = 32, K_NONE = 64 };
#define K_VAL (K_REG | K_IMM | K_SREG)

/* Checks operand o: its kind is one of `kinds`; a register is a predicate
 * when pred == 1, not one when pred == 0 (-1: either). */
static void check(Parser *P, const Opd *o, int kinds, int pred, const char *what) {
  static const int kind_bit[] = {[PTX_O_NONE] = K_NONE, [PTX_O_REG] = K_REG, [PTX_O_IMM] = K_IMM,
                                 [PTX_O_SREG] = K_SREG, [PTX_O_ADDR] = K_ADDR, [PTX_O_VEC] = K_VEC,
                                 [PTX_O_LABEL] = 0, [PTX_O_SYM] = K_SYM};
  char buf[128];
  if (!(kind_bit[o->o.kind] & kinds)) {
    if (o->o.kind == PTX_O_LABEL) pp_fail(P, o->tok, "expected %s, found label", what);
    pp_fail(P, o->tok, "bad operand: expected %s", what);
  }
  if (o->o.kind == PTX_O_REG && pred >= 0 && (o->rtype == PTX_T_PRED) != pred)
    pp_fail(P, o->tok, "register '%s' %s a predicate; expected %s", pp_tok_str(o->tok, buf, sizeof buf),
            pred ? "is not" : "is", what);
}

static void check_count(Parser *P, const InstrCtx *x, int n, int lo, int hi) {
  char buf[128];
  if (n < lo || n > hi) {
    if (lo == hi)
      pp_fail(P, x->mn, "'%s' takes %d operand%s, found %d", pp_tok_str(x->mn, buf, sizeof buf), lo,
              lo == 1 ? "" : "s", n);
    pp_fail(P, x->mn, "'%s' takes %d to %d operands, found %d", pp_tok_str(x->mn, buf, sizeof buf), lo, hi, n);
  }
}

/* The arguments of every shape: the instruction, the parse context, the
 * operands as written (r[0..n-1]) and where they go in conventional order
 * (out[]); each returns the number of operands stored. */
typedef struct Shape {
  Parser *P;
  PtxInstr *in;
  const InstrCtx *x;
  Opd *r;
  int n;
  Opd *out;
  int pipe;       /* r[1] was written after '|' */
} Shape;

static const Opd none = {.o = {.kind = PTX_O_NONE}};

static int keep_all(Shape *s) {
  for (int i = 0; i < s->n; i++) s->out[i] = s->r[i];
  return s->n;
}

/* d = f(a, b, ...): the destination and nsrc sources, all values of the
 * instruction's type (predicates for .pred). */
static int dst_and_sources(Shape *s, int nsrc) {
  int vp = s->in->type == PTX_T_PRED ? 1 : 0;
  check_count(s->P, s->x, s->n, nsrc + 1, nsrc + 1);
  check(s->P, &s->r[0], K_REG, vp, "a destination register");
  for (int i = 1; i < s->n; i++) check(s->P, &s->r[i], K_VAL, vp, "a source operand");
  return keep_all(s);
}

static int shape_d1(Shape *s) { return dst_and_sources(s, 1); }
static int shape_d2(Shape *s) { return dst_and_sources(s, 2); }
static int shape_d3(Shape *s) { return dst_and_sources(s, 3); }
static int shape_d4(Shape *s) { return dst_and_sources(s, 4); }

static int shape_lop3(Shape *s) {
  int n = dst_and_sources(s, 4);
  if (s->r[4].o.kind != PTX_O_IMM) pp_fail(s->P, s->r[4].tok, "lop3 needs a constant lookup table");
  return n;
}

static int shape_cvt(Shape *s) {
  /* a pair made from two .f32 values: d, a, b */
  unsigned t = s->in->type;
  int pair = t == PTX_T_F16X2 || t == PTX_T_BF16X2 || t == PTX_T_E4M3X2 || t == PTX_T_E5M2X2;
  return dst_and_sources(s, pair && s->in->type2 == PTX_T_F32 ? 2 : 1);
}

static int shape_dst(Shape *s) {
  check_count(s->P, s->x, s->n, 1, 1);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  s->out[0] = s->r[0];
  return 1;
}

/* A destination vector holds registers (or '_'), never constants. */
static void check_dst_vector(Shape *s, const Opd *o) {
  if (o->o.kind == PTX_O_VEC && o->o.vimm) pp_fail(s->P, o->tok, "a constant in a destination vector");
}

/* A vector operand's length must be the instruction's .vN. */
static void check_vector(Shape *s, const Opd *o) {
  if (s->in->vec > 1 && o->o.n != s->in->vec)
    pp_fail(s->P, o->tok, "vector operand has %d elements, instruction is .v%d", o->o.n, s->in->vec);
}

static int shape_ld(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], s->in->vec > 1 ? K_VEC : K_REG, 0, "a destination register");
  check(s->P, &s->r[1], K_ADDR, -1, "an address [...]");
  check_vector(s, &s->r[0]);
  check_dst_vector(s, &s->r[0]);
  return keep_all(s);
}

static int shape_st(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], K_ADDR, -1, "an address [...]");
  check(s->P, &s->r[1], s->in->vec > 1 ? K_VEC : K_REG | K_IMM, 0, "a source register");
  check_vector(s, &s->r[1]);
  return keep_all(s);
}

static int shape_addr(Shape *s) {
  check_count(s->P, s->x, s->n, 1, 1);
  check(s->P, &s->r[0], K_ADDR, -1, "an address [...]");
  return keep_all(s);
}

static int shape_mov(Shape *s) {
  int vp = s->in->type == PTX_T_PRED ? 1 : 0;
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], K_REG | K_VEC, vp, "a destination register");
  check(s->P, &s->r[1], K_VAL | K_SYM | K_VEC, vp, "a source operand");
  check_dst_vector(s, &s->r[0]);
  return keep_all(s);
}

static int shape_cvta(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  check(s->P, &s->r[1], K_REG | K_SYM, 0, "a source register or variable");
  return keep_all(s);
}

/* The optional predicate c of setp and set: needs .and/.or/.xor, and the
 * combination needs it. */
static void combine_predicate(Shape *s, const Opd *c, int present) {
  char buf[128];
  if (present) {
    if (!s->in->sub) pp_fail(s->P, c->tok, "a fourth operand needs .and, .or or .xor");
    check(s->P, c, K_REG | K_IMM, 1, "a predicate");
    if (c->o.neg) s->in->flags |= PTX_IF_NEG_C;
  } else if (s->in->sub) {
    pp_fail(s->P, s->x->mn, "'%s' needs a predicate operand c", pp_tok_str(s->x->mn, buf, sizeof buf));
  }
}

static int shape_setp(Shape *s) {
  Opd *r = s->r;
  int n = s->n, pipe = s->pipe;
  check_count(s->P, s->x, n - pipe, 3, 4);
  check(s->P, &r[0], K_REG, 1, "a destination predicate");
  s->out[0] = r[0];
  s->out[1] = pipe ? r[1] : none;
  if (pipe) check(s->P, &r[1], K_REG, 1, "a destination predicate");
  r += pipe, n -= pipe;
  check(s->P, &r[1], K_VAL, 0, "a source operand");
  check(s->P, &r[2], K_VAL, 0, "a source operand");
  s->out[2] = r[1], s->out[3] = r[2];
  combine_predicate(s, &r[3], n == 4);
  s->out[4] = n == 4 ? r[3] : none;
  return 5;
}

static int shape_set(Shape *s) {
  check_count(s->P, s->x, s->n, 3, 4);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  check(s->P, &s->r[1], K_VAL, 0, "a source operand");
  check(s->P, &s->r[2], K_VAL, 0, "a source operand");
  combine_predicate(s, &s->r[3], s->n == 4);
  return keep_all(s);
}

static int shape_selp(Shape *s) {
  check_count(s->P, s->x, s->n, 4, 4);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  check(s->P, &s->r[1], K_VAL, 0, "a source operand");
  check(s->P, &s->r[2], K_VAL, 0, "a source operand");
  check(s->P, &s->r[3], K_REG | K_IMM, 1, "a predicate");
  return keep_all(s);
}

static int shape_testp(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], K_REG, 1, "a destination predicate");
  check(s->P, &s->r[1], K_REG | K_IMM, 0, "a source operand");
  return keep_all(s);
}

static int shape_bra(Shape *s) {
  check_count(s->P, s->x, s->n, 1, 1);
  if (s->r[0].o.kind != PTX_O_LABEL) pp_fail(s->P, s->r[0].tok, "expected a label");
  return keep_all(s);
}

static int shape_none(Shape *s) {
  check_count(s->P, s->x, s->n, 0, 0);
  return 0;
}

/* bar.red d, a[, b], c: a destination and a block-wide reduction of c */
static int shape_bar_red(Shape *s) {
  Opd *r = s->r;
  int n = s->n, popc = s->in->sub == PTX_SUB_RED_POPC;
  check_count(s->P, s->x, n, 3, 4);
  check(s->P, &r[0], K_REG, !popc, popc ? "a destination register" : "a destination predicate");
  check(s->P, &r[1], K_REG | K_IMM, 0, "a barrier number");
  if (n == 4) check(s->P, &r[2], K_REG | K_IMM, 0, "a thread count");
  check(s->P, &r[n - 1], K_REG | K_IMM, 1, "a predicate");
  if (r[n - 1].o.neg) s->in->flags |= PTX_IF_NEG_C;
  s->out[0] = r[0], s->out[1] = r[1];
  s->out[2] = n == 4 ? r[2] : none;
  s->out[3] = r[n - 1];
  return 4;
}

static int shape_bar(Shape *s) {
  char buf[128];
  if (pp_is_bar_red(s->in)) return shape_bar_red(s);
  check_count(s->P, s->x, s->n, 1, 2);
  if (!s->in->sub) pp_fail(s->P, s->x->mn, "'%s' needs .sync or .arrive", pp_tok_str(s->x->mn, buf, sizeof buf));
  check(s->P, &s->r[0], K_REG | K_IMM, 0, "a barrier number");
  s->out[0] = s->r[0];
  s->out[1] = s->n > 1 ? s->r[1] : none;
  if (s->n > 1) check(s->P, &s->r[1], K_REG | K_IMM, 0, "a thread count");
  return 2;
}

static int shape_one(Shape *s) {
  check_count(s->P, s->x, s->n, 1, 1);
  check(s->P, &s->r[0], K_REG | K_IMM, 0, "a register or constant");
  return keep_all(s);
}

static int shape_atom(Shape *s) {
  int want = s->in->sub == PTX_SUB_ACAS ? 4 : 3;
  check_count(s->P, s->x, s->n, want, want);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  check(s->P, &s->r[1], K_ADDR, -1, "an address [...]");
  check(s->P, &s->r[2], K_REG | K_IMM, 0, "a source operand");
  if (s->n > 3) check(s->P, &s->r[3], K_REG | K_IMM, 0, "a source operand");
  return keep_all(s);
}

static int shape_red(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  if (s->in->sub == PTX_SUB_ACAS || s->in->sub == PTX_SUB_AEXCH) pp_fail(s->P, s->x->mn, "red has no .cas or .exch");
  check(s->P, &s->r[0], K_ADDR, -1, "an address [...]");
  check(s->P, &s->r[1], K_REG | K_IMM, 0, "a source operand");
  return keep_all(s);
}

/* d[|p]: a destination register and an optional destination predicate;
 * returns r advanced past them. */
static Opd *dst_and_pipe(Shape *s) {
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  s->out[0] = s->r[0];
  s->out[1] = s->pipe ? s->r[1] : none;
  if (s->pipe) check(s->P, &s->r[1], K_REG, 1, "a destination predicate");
  return s->r + s->pipe;
}

static int shape_shfl(Shape *s) {
  int want = s->x->has_sync ? 5 : 4;
  check_count(s->P, s->x, s->n - s->pipe, want, want);
  Opd *r = dst_and_pipe(s);
  for (int i = 1; i < want; i++) check(s->P, &r[i], K_REG | K_IMM, 0, "a source operand");
  s->out[2] = r[1], s->out[3] = r[2], s->out[4] = r[3];
  s->out[5] = s->x->has_sync ? r[4] : none;
  return 6;
}

static int shape_vote(Shape *s) {
  int want = s->x->has_sync ? 3 : 2, ballot = s->in->sub == PTX_SUB_BALLOT;
  check_count(s->P, s->x, s->n, want, want);
  check(s->P, &s->r[0], K_REG, !ballot, ballot ? "a destination register" : "a destination predicate");
  check(s->P, &s->r[1], K_REG | K_IMM, 1, "a predicate");
  s->out[0] = s->r[0], s->out[1] = s->r[1];
  s->out[2] = s->x->has_sync ? s->r[2] : none;
  if (s->x->has_sync) check(s->P, &s->r[2], K_REG | K_IMM, 0, "a member mask");
  return 3;
}

static int shape_match(Shape *s) {
  check_count(s->P, s->x, s->n - s->pipe, 3, 3);
  Opd *r = dst_and_pipe(s);
  check(s->P, &r[1], K_REG | K_IMM, 0, "a source operand");
  check(s->P, &r[2], K_REG | K_IMM, 0, "a member mask");
  s->out[2] = r[1], s->out[3] = r[2];
  return 4;
}

/* elect.sync d|p, mask: d may be '_' (only p wanted) */
static int shape_elect(Shape *s) {
  check_count(s->P, s->x, s->n - s->pipe, 2, 2);
  check(s->P, &s->r[0], K_REG | K_NONE, 0, "a destination register or '_'");
  if (s->pipe) check(s->P, &s->r[1], K_REG, 1, "a destination predicate");
  Opd *r = s->r + s->pipe;
  check(s->P, &r[1], K_REG | K_IMM, 0, "a member mask");
  s->out[0] = s->r[0];
  s->out[1] = s->pipe ? s->r[1] : none;
  s->out[2] = r[1];
  return 3;
}

static int shape_redux(Shape *s) {
  check_count(s->P, s->x, s->n, 3, 3);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  check(s->P, &s->r[1], K_REG, 0, "a source register");
  check(s->P, &s->r[2], K_REG | K_IMM, 0, "a member mask");
  return keep_all(s);
}

/* ---- textures and surfaces ---- */

/* Coordinates each geometry reads (1d .. a2d; the layer of a1d/a2d first):
 * 3d and a2d vectors are written with 4 elements, the last one unused. */
/* per geometry (1d 2d 3d a1d a2d cube acube): registers read, and written
 * in braces ({x, y, z, _} for 3d and cube; {layer, x, y, z} for acube) */
static const uint8_t geom_coords[] = {1, 2, 3, 2, 3, 3, 4};
static const uint8_t geom_written[] = {1, 2, 4, 2, 4, 4, 4};

/* [h, {c...}]: the handle must be a register (texture and surface objects
 * are 64-bit values; the .texref globals they replaced are gone since CUDA
 * 12), the coordinates a vector as long as the geometry asks.  Stores the
 * address and the coordinates (trimmed to those read) at out[0..1]. */
static void texture_address(Shape *s, const Opd *a, Opd *out, int coords) {
  char buf[128];
  check(s->P, a, K_ADDR, -1, "a texture or surface [handle, {coordinates}]");
  if (a->o.reg[0] == PTX_NOREG || a->o.imm != 0) {
    if (a->ref)
      pp_unsup(s->P, s->x->mn, "unsupported instruction '%s' (%s %s): '%.*s' is not a texture object in a "
               "register; legacy texture and surface references (.texref, .surfref) were removed in CUDA 12: "
               "pass a cudaTextureObject_t or cudaSurfaceObject_t argument instead",
               pp_tok_str(s->x->mn, buf, sizeof buf), pp_owner(s->P), s->P->k->name, (int)a->ref->len, a->ref->p);
    pp_fail(s->P, a->tok, "expected [handle, {...}] with the texture or surface object in a .u64 register");
  }
  out[0] = *a;
  out[0].o.n = 0;
  if (!coords) {
    if (a->coord.kind != PTX_O_NONE) pp_fail(s->P, a->tok, "txq takes [handle] without coordinates");
    return;
  }
  int g = s->in->sub - PTX_SUB_TEX_1D;
  if (a->coord.kind != PTX_O_VEC) pp_fail(s->P, a->tok, "expected coordinates: [handle, {...}]");
  if (a->coord.n != geom_written[g])
    pp_fail(s->P, a->tok, "a .%s access takes %d coordinate%s in braces, found %d",
            (const char *[]){"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"}[g], geom_written[g], geom_written[g] > 1 ? "s" : "",
            a->coord.n);
  for (int i = 0; i < geom_coords[g]; i++)
    if (a->coord.reg[i] == PTX_NOREG) pp_fail(s->P, a->tok, "a coordinate cannot be '_'");
  memset(&out[1], 0, sizeof out[1]);
  out[1].o = a->coord;
  out[1].o.n = geom_coords[g];
  out[1].tok = a->tok;
}

/* A texture or surface's data operand: {r...} of vec elements (a single
 * register also for one). */
static void texel_vector(Shape *s, const Opd *o, int n, const char *what) {
  check(s->P, o, K_VEC | K_REG, 0, what);
  if (o->o.kind == PTX_O_VEC && o->o.n != n)
    pp_fail(s->P, o->tok, "vector operand has %d elements, instruction has %d", o->o.n, n);
  if (o->o.kind == PTX_O_REG && n != 1)
    pp_fail(s->P, o->tok, "expected a vector of %d registers", n);
}

/* tex d, [h, c][, lod] | tex.grad d, [h, c], dPdx, dPdy | tld4 d, [h, c]:
 * opd[0]=d, opd[1]=ADDR (the handle), opd[2]=VEC coordinates (as many as
 * the geometry reads), opd[3]=lod (tex.level only; gradients are checked
 * and dropped: warpmem's textures have one level). */
static int shape_tex(Shape *s) {
  int mip = s->in->op == PTX_OP_TEX ? s->in->aux : 0;
  int want = mip == PTX_TEX_LEVEL ? 3 : mip == PTX_TEX_GRAD ? 4 : 2;
  check_count(s->P, s->x, s->n, want, want);
  texel_vector(s, &s->r[0], 4, "a destination vector {d, d, d, d}");
  s->out[0] = s->r[0];
  texture_address(s, &s->r[1], &s->out[1], 1);
  if (mip == PTX_TEX_LEVEL) {
    check(s->P, &s->r[2], K_REG | K_IMM, 0, "a level of detail");
    s->out[3] = s->r[2];
    return 4;
  }
  for (int i = 2; i < want; i++) check(s->P, &s->r[i], K_VEC | K_REG, 0, "a gradient vector");
  return 3;
}

/* suld d, [h, c]: opd[0]=d, opd[1]=ADDR, opd[2]=VEC coordinates */
static int shape_suld(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  texel_vector(s, &s->r[0], s->in->vec, "a destination vector");
  s->out[0] = s->r[0];
  texture_address(s, &s->r[1], &s->out[1], 1);
  return 3;
}

/* sust [h, c], b: opd[0]=ADDR, opd[1]=VEC coordinates, opd[2]=b */
static int shape_sust(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  texture_address(s, &s->r[0], &s->out[0], 1);
  texel_vector(s, &s->r[1], s->in->vec, "a vector of values");
  s->out[2] = s->r[1];
  return 3;
}

/* txq d, [h]: opd[0]=d, opd[1]=ADDR */
static int shape_txq(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  s->out[0] = s->r[0];
  texture_address(s, &s->r[1], &s->out[1], 0);
  return 2;
}

/* A tensor-core fragment: a vector (or, for one register, a register) of
 * exactly the registers fragment `which` takes (ptx_mma_regs); sources
 * have no '_'. */
static void check_fragment(Shape *s, const Opd *o, char which, int is_src) {
  int want = ptx_mma_regs(s->in, which), n = o->o.kind == PTX_O_VEC ? o->o.n : 1;
  check(s->P, o, K_VEC | K_REG, 0, "a vector of registers {...}");
  if (n != want)
    pp_fail(s->P, o->tok, "fragment %c of this %s has %d register%s, found %d", which, ptx_op[s->in->op].name, want,
            want == 1 ? "" : "s", n);
  for (int i = 0; is_src && o->o.kind == PTX_O_VEC && i < n; i++)
    if (ptx_vec_reg(s->P->k, &o->o, i) == PTX_NOREG) pp_fail(s->P, o->tok, "'_' in a source fragment");
}

static int shape_mma(Shape *s) {
  check_count(s->P, s->x, s->n, 4, 4);
  for (int i = 0; i < 4; i++) check_fragment(s, &s->r[i], "dabc"[i], i > 0);
  return keep_all(s);
}

/* A register of a 64-bit integer type: a wgmma matrix descriptor. */
static void check_descriptor(Shape *s, const Opd *o, const char *what) {
  char buf[160];
  snprintf(buf, sizeof buf, "%s (a 64-bit matrix descriptor in a .b64 register)", what);
  check(s->P, o, K_REG, 0, buf);
  if (o->rtype != PTX_T_B64 && o->rtype != PTX_T_U64 && o->rtype != PTX_T_S64) pp_fail(s->P, o->tok, "expected %s", buf);
}

/* The registers of a wgmma fragment: a vector of exactly `want`, no '_'. */
static void check_wgmma_regs(Shape *s, const Opd *o, int want, char which) {
  check(s->P, o, K_VEC, 0, "a vector of registers {...}");
  if (o->o.n != want)
    pp_fail(s->P, o->tok, "%c of this wgmma.mma_async (.m64n%uk%u.%s) has %d register%s, found %d", which,
            s->in->mma.wn, s->in->mma.wk, ptx_wgmma_type_name(which == 'D' ? s->in->mma.dtype : s->in->mma.atype),
            want, want == 1 ? "" : "s", o->o.n);
  for (int i = 0; i < o->o.n; i++)
    if (ptx_vec_reg(s->P->k, &o->o, i) == PTX_NOREG) pp_fail(s->P, o->tok, "'_' in a wgmma fragment");
}

/* An immediate of wgmma.mma_async that must be one of two values. */
static int wgmma_imm(Shape *s, const Opd *o, int a, int b, const char *what) {
  char buf[128];
  if (o->o.kind != PTX_O_IMM || o->num.kind != NUM_INT) pp_fail(s->P, o->tok, "expected %s: the constant %d or %d", what, a, b);
  int64_t v = o->num.neg ? -(int64_t)o->num.bits : (int64_t)o->num.bits;
  if (v != a && v != b)
    pp_fail(s->P, o->tok, "%s is %d or %d, found '%s'", what, a, b, pp_tok_str(o->tok, buf, sizeof buf));
  return v == b;
}

/* wgmma.mma_async d, a-desc | {a}, b-desc, scale-d[, imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b]
 * (ptx_wgmma.c says which types take which): opd[0] = D, opd[1] = A's
 * descriptor (REG) or registers (VEC), opd[2] = B's descriptor, opd[3] =
 * scale-d (a predicate REG, or IMM 0/1); the immediates go to
 * PtxMma.wg.  nopd = 4. */
static int shape_wgmma(Shape *s) {
  PtxMma *m = &s->in->mma;
  unsigned a = m->atype;
  int areg = s->n > 1 && s->r[1].o.kind == PTX_O_VEC;
  int half = a == PTX_T_F16 || a == PTX_T_BF16, scaled = half || a == PTX_MMA_TF32 || a == PTX_MMA_E4M3 || a == PTX_MMA_E5M2;
  int want = 4 + (scaled ? 2 : 0) + (half ? (areg ? 1 : 2) : 0);
  check_count(s->P, s->x, s->n, want, want);
  check_wgmma_regs(s, &s->r[0], ptx_wgmma_dregs(m), 'D');
  if (areg) {
    check_wgmma_regs(s, &s->r[1], ptx_wgmma_aregs(m), 'A');
    m->wg |= PTX_WG_AREG;
  } else {
    check_descriptor(s, &s->r[1], "A's descriptor or registers {...}");
  }
  check_descriptor(s, &s->r[2], "B's descriptor");
  check(s->P, &s->r[3], K_REG | K_IMM, 1, "scale-d: a predicate, or 0 or 1");
  if (s->r[3].o.kind == PTX_O_IMM) {
    wgmma_imm(s, &s->r[3], 0, 1, "scale-d");
    m->wg |= PTX_WG_SCALE_IMM;
  }
  int i = 4;
  if (scaled) {
    if (wgmma_imm(s, &s->r[i++], 1, -1, "imm-scale-a")) m->wg |= PTX_WG_NEG_A;
    if (wgmma_imm(s, &s->r[i++], 1, -1, "imm-scale-b")) m->wg |= PTX_WG_NEG_B;
  }
  if (half && !areg && wgmma_imm(s, &s->r[i++], 0, 1, "imm-trans-a")) m->wg |= PTX_WG_TRANS_A;
  if (half && wgmma_imm(s, &s->r[i++], 0, 1, "imm-trans-b")) m->wg |= PTX_WG_TRANS_B;
  for (int j = 0; j < 4; j++) s->out[j] = s->r[j];
  return 4;
}

/* ldmatrix d, [a]; wmma.load d, [a][, stride] */
static int shape_mload(Shape *s) {
  int wmma = s->in->op == PTX_OP_WMMA_LOAD;
  check_count(s->P, s->x, s->n, 2, wmma ? 3 : 2);
  check_fragment(s, &s->r[0], wmma ? (char)s->in->mma.frag : 'd', 0);
  check(s->P, &s->r[1], K_ADDR, -1, "an address [...]");
  if (s->n > 2) check(s->P, &s->r[2], K_REG | K_IMM, 0, "a stride");
  return keep_all(s);
}

/* stmatrix [a], b; wmma.store [a], b[, stride] */
static int shape_mstore(Shape *s) {
  int wmma = s->in->op == PTX_OP_WMMA_STORE;
  check_count(s->P, s->x, s->n, 2, wmma ? 3 : 2);
  check(s->P, &s->r[0], K_ADDR, -1, "an address [...]");
  check_fragment(s, &s->r[1], 'd', 1);
  if (s->n > 2) check(s->P, &s->r[2], K_REG | K_IMM, 0, "a stride");
  return keep_all(s);
}

static int shape_mmov(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], K_REG, 0, "a destination register");
  check(s->P, &s->r[1], K_REG, 0, "a source register");
  return keep_all(s);
}

/* cp.async [d], [a], size[, src-size | ignore-src][, policy] */
static int shape_cpasync(Shape *s) {
  Opd *r = s->r;
  int hint = s->x->async_hint, n = s->n;
  check_count(s->P, s->x, n, 3 + hint, 4 + hint);
  check(s->P, &r[0], K_ADDR, -1, "a shared-memory address [...]");
  check(s->P, &r[1], K_ADDR, -1, "a global address [...]");
  check(s->P, &r[2], K_IMM, -1, "the copy size (4, 8 or 16)");
  int64_t size = (int64_t)r[2].num.bits;
  if (r[2].num.kind != NUM_INT || r[2].num.neg || (size != 4 && size != 8 && size != 16))
    pp_fail(s->P, r[2].tok, "cp.async copies 4, 8 or 16 bytes");
  if ((s->in->flags & PTX_IF_CG) && size != 16) pp_fail(s->P, r[2].tok, "cp.async.cg copies 16 bytes");
  s->out[0] = r[0], s->out[1] = r[1], s->out[2] = r[2];
  s->out[3] = s->out[4] = none;
  if (n == 4 + hint) {
    check(s->P, &r[3], K_REG | K_IMM, -1, "a source size or an ignore-src predicate");
    int pred = r[3].o.kind == PTX_O_REG && r[3].rtype == PTX_T_PRED;
    s->in->sub = pred ? PTX_SUB_ASYNC_IGNORE : PTX_SUB_ASYNC_SRCSIZE;
    s->out[3] = r[3];
  }
  if (hint) {
    check(s->P, &r[n - 1], K_REG, 0, "a cache policy register");
    s->out[4] = r[n - 1];
  }
  return 5;
}

/* cp{.reduce}.async.bulk [d], [a], size[, [mbar]][, ctaMask][, policy]:
 * the cache policy is checked and dropped (a hint without effect here) */
static int shape_bulk(Shape *s) {
  Opd *r = s->r;
  int mbar = s->x->async_mbar == 1, mc = (s->in->aux & PTX_TMA_MULTICAST) != 0, hint = s->x->async_hint;
  int to_global = s->in->sub == PTX_SUB_BULK_STORE || (s->in->op == PTX_OP_CPREDUCE_BULK && !mbar);
  check_count(s->P, s->x, s->n, 3 + mbar + mc + hint, 3 + mbar + mc + hint);
  check(s->P, &r[0], K_ADDR, -1, to_global ? "a global address [...]" : "a shared-memory address [...]");
  check(s->P, &r[1], K_ADDR, -1, s->x->async_global ? "a global address [...]" : "a shared-memory address [...]");
  check(s->P, &r[2], K_REG | K_IMM, 0, "the copy size");
  if (mbar) check(s->P, &r[3], K_ADDR, -1, "the mbarrier's address [...]");
  if (mc) check(s->P, &r[3 + mbar], K_REG | K_IMM, 0, "a ctaMask");
  if (hint) check(s->P, &r[3 + mbar + mc], K_REG, 0, "a cache policy register");
  for (int i = 0; i < 3; i++) s->out[i] = r[i];
  s->out[3] = mbar ? r[3] : none;
  s->out[4] = mc ? r[3 + mbar] : none;
  return 5;
}

/* The tensor and its coordinates of a TMA instruction: [map, {c, ...}],
 * the map's generic address in a register (or a .param, .const or
 * .global variable), one .s32 coordinate per dimension. */
static void tensor_operand(Shape *s, const Opd *a, Opd *map, Opd *coords) {
  unsigned dims = PTX_TMA_DIMS(s->in->aux);
  check(s->P, a, K_ADDR, -1, "a tensor map and its coordinates [map, {...}]");
  if (a->coord.kind != PTX_O_VEC) pp_fail(s->P, a->tok, "expected [tensorMap, {coordinates}]");
  if (a->o.reg[0] == PTX_NOREG && !a->sym) pp_fail(s->P, a->tok, "the tensor map's address is a register or a variable");
  if ((unsigned)a->coord.n != dims)
    pp_fail(s->P, a->tok, "a .%ud tensor takes %u coordinate%s in braces, found %d", dims, dims, dims > 1 ? "s" : "",
            a->coord.n);
  *map = *a;
  map->o.n = 0;
  memset(coords, 0, sizeof *coords);
  coords->o = a->coord;
  coords->tok = a->tok;
}

/* cp.async.bulk.tensor [d], [map, {c..}], [mbar][, {offsets}][, ctaMask][, policy]
 *                      | [map, {c..}], [s][, policy]          (stores, cp.reduce)
 * cp.async.bulk.prefetch.tensor [map, {c..}][, {offsets}][, policy] */
static int shape_tma(Shape *s) {
  Opd *r = s->r;
  int op = s->in->op, prefetch = op == PTX_OP_CPASYNC_BULK_PREFETCH_TENSOR;
  int load = op == PTX_OP_CPASYNC_BULK_TENSOR && s->in->sub != PTX_SUB_BULK_STORE;
  int offs = (load || prefetch) && (s->in->aux & PTX_TMA_IM2COL), mc = (s->in->aux & PTX_TMA_MULTICAST) != 0;
  int hint = s->x->async_hint, lead = load ? 3 : prefetch ? 1 : 2;
  check_count(s->P, s->x, s->n, lead + offs + mc + hint, lead + offs + mc + hint);
  for (int i = 0; i < 6; i++) s->out[i] = none;
  if (load) check(s->P, &r[0], K_ADDR, -1, "a shared-memory address [...]");
  if (load) s->out[0] = r[0];
  tensor_operand(s, &r[load], &s->out[1], &s->out[2]);
  if (!prefetch) {
    check(s->P, &r[load + 1], K_ADDR, -1, load ? "the mbarrier's address [...]" : "a shared-memory address [...]");
    s->out[3] = r[load + 1];
  }
  if (offs) {
    unsigned want = PTX_TMA_DIMS(s->in->aux) - 2;
    const Opd *o = &r[lead];
    check(s->P, o, K_VEC | K_REG, 0, "the im2col offsets {...}");
    if ((unsigned)(o->o.kind == PTX_O_VEC ? o->o.n : 1) != want || (o->o.kind == PTX_O_VEC && o->o.vimm))
      pp_fail(s->P, o->tok, "a .%ud im2col copy takes %u offset register%s in braces", PTX_TMA_DIMS(s->in->aux), want,
              want > 1 ? "s" : "");
    s->out[4] = *o;
  }
  if (mc) check(s->P, &r[lead + offs], K_REG | K_IMM, 0, "a ctaMask");
  if (mc) s->out[5] = r[lead + offs];
  if (hint) check(s->P, &r[s->n - 1], K_REG, 0, "a cache policy register");
  return 6;
}

/* tensormap.replace [a][, ord], new_val (ord for box_dim, global_dim,
 * global_stride and element_stride; an immediate value for the modes);
 * tensormap.cp_fenceproxy [d], [s], 128 */
static int shape_tmap_op(Shape *s) {
  Opd *r = s->r;
  if (s->in->op == PTX_OP_TENSORMAP_CP) {
    check_count(s->P, s->x, s->n, 3, 3);
    check(s->P, &r[0], K_ADDR, -1, "a global address [...]");
    check(s->P, &r[1], K_ADDR, -1, "a shared-memory address [...]");
    check(s->P, &r[2], K_IMM, -1, "the size (128)");
    if (r[2].num.bits != 128) pp_fail(s->P, r[2].tok, "a tensor map is 128 bytes");
    return keep_all(s);
  }
  unsigned f = s->in->aux;
  int ord = f == PTX_TMAP_BOX_DIM || f == PTX_TMAP_GLOBAL_DIM || f == PTX_TMAP_GLOBAL_STRIDE ||
            f == PTX_TMAP_ELEMENT_STRIDE;
  check_count(s->P, s->x, s->n, 2 + ord, 2 + ord);
  check(s->P, &r[0], K_ADDR, -1, "the tensor map's address [...]");
  if (ord) check(s->P, &r[1], K_IMM, -1, "the dimension's ordinal (an immediate)");
  check(s->P, &r[1 + ord], f >= PTX_TMAP_ELEMTYPE ? K_IMM : K_REG | K_IMM, 0,
        f >= PTX_TMAP_ELEMTYPE ? "an immediate value" : "the new value");
  s->out[0] = r[0];
  s->out[1] = ord ? r[1] : none;
  s->out[2] = r[1 + ord];
  return 3;
}

/* fence[.proxy.tensormap::generic.acquire...] [[a], size] */
static int shape_fence(Shape *s) {
  check_count(s->P, s->x, s->n, 0, 2);
  if (s->n == 1) pp_fail(s->P, s->x->mn, "a fence takes no operands, or an address and a size");
  if (s->n == 2) {
    check(s->P, &s->r[0], K_ADDR, -1, "an address [...]");
    check(s->P, &s->r[1], K_IMM, -1, "a size (128)");
  }
  return keep_all(s);
}

/* mbarrier.init/expect_tx/complete_tx [a], b */
static int shape_mbar_init(Shape *s) {
  check_count(s->P, s->x, s->n, 2, 2);
  check(s->P, &s->r[0], K_ADDR, -1, "the mbarrier's address [...]");
  check(s->P, &s->r[1], K_REG | K_IMM, 0, "a count");
  return keep_all(s);
}

/* mbarrier.arrive{_drop} d|_, [a][, b] */
static int shape_mbar_arrive(Shape *s) {
  int need = s->in->sub == PTX_SUB_MB_EXPECT_TX || s->in->sub == PTX_SUB_MB_NOCOMPLETE;
  check_count(s->P, s->x, s->n, 2 + need, 3);
  check(s->P, &s->r[0], K_REG | K_NONE, 0, "a state register or '_'");
  check(s->P, &s->r[1], K_ADDR, -1, "the mbarrier's address [...]");
  if (s->n == 3) check(s->P, &s->r[2], K_REG | K_IMM, 0, "a count");
  s->out[0] = s->r[0], s->out[1] = s->r[1];
  s->out[2] = s->n == 3 ? s->r[2] : none;
  return 3;
}

/* mbarrier.test_wait/try_wait p, [a], state|parity[, hint] */
static int shape_mbar_wait(Shape *s) {
  int try = s->in->op == PTX_OP_MBAR_TRY_WAIT;
  check_count(s->P, s->x, s->n, 3, 3 + try);
  check(s->P, &s->r[0], K_REG, 1, "a destination predicate");
  check(s->P, &s->r[1], K_ADDR, -1, "the mbarrier's address [...]");
  check(s->P, &s->r[2], K_REG | K_IMM, 0, s->in->sub == PTX_SUB_MB_PARITY ? "a phase parity" : "a phase state");
  if (s->n == 4) check(s->P, &s->r[3], K_REG | K_IMM, 0, "a suspend-time hint");
  s->out[0] = s->r[0], s->out[1] = s->r[1], s->out[2] = s->r[2];
  s->out[3] = s->n == 4 ? s->r[3] : none;
  return 4;
}

static int (*const shapes[PTX_SH_COUNT])(Shape *) = {
  [PTX_SH_D1] = shape_d1,       [PTX_SH_D2] = shape_d2,     [PTX_SH_D3] = shape_d3,
  [PTX_SH_D4] = shape_d4,       [PTX_SH_LOP3] = shape_lop3, [PTX_SH_CVT] = shape_cvt,
  [PTX_SH_LD] = shape_ld,       [PTX_SH_ST] = shape_st,     [PTX_SH_ADDR] = shape_addr,
  [PTX_SH_MOV] = shape_mov,     [PTX_SH_CVTA] = shape_cvta, [PTX_SH_SETP] = shape_setp,
  [PTX_SH_SET] = shape_set,     [PTX_SH_SELP] = shape_selp, [PTX_SH_TESTP] = shape_testp,
  [PTX_SH_BRA] = shape_bra,     [PTX_SH_NONE] = shape_none, [PTX_SH_BAR] = shape_bar,
  [PTX_SH_ONE] = shape_one,     [PTX_SH_ATOM] = shape_atom, [PTX_SH_RED] = shape_red,
  [PTX_SH_SHFL] = shape_shfl,   [PTX_SH_VOTE] = shape_vote, [PTX_SH_MATCH] = shape_match,
  [PTX_SH_REDUX] = shape_redux, [PTX_SH_DST] = shape_dst,   [PTX_SH_TEX] = shape_tex,
  [PTX_SH_SULD] = shape_suld,   [PTX_SH_SUST] = shape_sust, [PTX_SH_TXQ] = shape_txq,
  [PTX_SH_MMA] = shape_mma,     [PTX_SH_MLOAD] = shape_mload, [PTX_SH_MSTORE] = shape_mstore,
  [PTX_SH_MMOV] = shape_mmov,
  [PTX_SH_CPASYNC] = shape_cpasync, [PTX_SH_BULK] = shape_bulk, [PTX_SH_MBAR_INIT] = shape_mbar_init,
  [PTX_SH_MBAR_ARRIVE] = shape_mbar_arrive, [PTX_SH_MBAR_WAIT] = shape_mbar_wait,
  [PTX_SH_ELECT] = shape_elect, [PTX_SH_TMA] = shape_tma, [PTX_SH_FENCE] = shape_fence,
  [PTX_SH_TMAP_OP] = shape_tmap_op, [PTX_SH_WGMMA] = shape_wgmma,
};

/* '|' and '!' are only legal in a few places. */
static void check_marks(Parser *P, const PtxInstr *in, const Opd *r, int n) {
  for (int i = 0; i < n; i++) {
    if (r[i].pipe && !(i == 1 && (in->op == PTX_OP_SETP || in->op == PTX_OP_SHFL || in->op == PTX_OP_ELECT ||
                                  (in->op == PTX_OP_MATCH && in->sub == PTX_SUB_ALL))))
      pp_fail(P, r[i].tok, "unexpected '|' operand");
    if (r[i].o.neg && !((in->op == PTX_OP_SETP || in->op == PTX_OP_SET) && i == n - 1 && in->sub) &&
        !(in->op == PTX_OP_VOTE && i == 1) && !(pp_is_bar_red(in) && i == n - 1))
      pp_fail(P, r[i].tok, "'!' is only allowed on the predicate operand of setp, set, vote and bar.red");
  }
}

/* Checks the operands of one instruction against its shape and stores them
 * in the conventional order (see the top of this file) into out[]. */
int pp_shape(Parser *P, PtxInstr *in, const InstrCtx *x, Opd *r, int n, Opd *out) {
  check_marks(P, in, r, n);
  Shape s = {P, in, x, r, n, out, n > 1 && r[1].pipe};
  return shapes[ptx_op[in->op].shape](&s);
}
