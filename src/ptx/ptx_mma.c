/* ptx_mma.c - the tensor-core instructions' modifiers and fragments:
 * ldmatrix, stmatrix, movmatrix, mma.sync and wmma.load/store/mma.
 *
 * Their mnemonics carry a shape (.m16n8k16), layouts (.row.col, .trans),
 * a matrix count (.x4), a fragment (.a) and up to four types (d, a, b, c)
 * that PtxInstr's type fields cannot hold, so they are parsed here into
 * PtxInstr.mma (ptx.h) and checked against the forms the PTX ISA lists.
 * Fragment sizes (registers per operand) are the ISA's; the emulator's
 * element positions are in emu_tensor.c.
 */
#include "ptx/ptx_parse_int.h"

#include <stdio.h>

const PtxMmaDims ptx_mma_dims[PTX_MMA_COUNT] = {
  [PTX_MMA_M8N8] = {8, 8, 0},      [PTX_MMA_M8N8K4] = {8, 8, 4},     [PTX_MMA_M16N8K4] = {16, 8, 4},
  [PTX_MMA_M16N8K8] = {16, 8, 8},  [PTX_MMA_M16N8K16] = {16, 8, 16}, [PTX_MMA_M16N8K32] = {16, 8, 32},
  [PTX_MMA_M16N16K16] = {16, 16, 16}, [PTX_MMA_M32N8K16] = {32, 8, 16}, [PTX_MMA_M8N32K16] = {8, 32, 16},
  [PTX_MMA_M16N16K8] = {16, 16, 8}, [PTX_MMA_M8N8K16] = {8, 8, 16},
};

const char *const ptx_mma_shape_name[PTX_MMA_COUNT] = {
  "", "m8n8", "m8n8k4", "m16n8k4", "m16n8k8", "m16n8k16", "m16n8k32", "m16n16k16", "m32n8k16", "m8n32k16",
  "m16n16k8", "m8n8k16",
};

unsigned ptx_mma_elem_size(unsigned t) {
  return t == PTX_MMA_TF32 ? 4 : ptx_type_size((PtxType)t);
}

static int is_wmma(int op) {
  return op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE || op == PTX_OP_WMMA_MMA;
}

/* The type of fragment `which` (its element type). */
static unsigned frag_type(const PtxMma *m, char which) {
  switch (which) {
  case 'a': return m->atype;
  case 'b': return m->btype;
  case 'c': return m->ctype;
  default: return m->dtype;
  }
}

int ptx_mma_regs(const PtxInstr *in, char which) {
  const PtxMma *m = &in->mma;
  const PtxMmaDims *d = &ptx_mma_dims[m->shape];
  if (in->op == PTX_OP_LDMATRIX || in->op == PTX_OP_STMATRIX) return m->num;
  if (in->op == PTX_OP_MOVMATRIX) return 1;
  unsigned t = frag_type(m, which), es = ptx_mma_elem_size(t);
  unsigned elems = which == 'a' ? d->m * d->k : which == 'b' ? d->k * d->n : d->m * d->n;
  /* wmma's f16 A and B fragments are 8 registers whatever the shape: each
   * element is held twice or four times (a layout from sm_70's m8n8k4) */
  if (is_wmma(in->op) && (which == 'a' || which == 'b') && t == PTX_T_F16) return 8;
  unsigned per_reg = es >= 4 ? 1 : 4 / es; /* 32-bit registers, f64 in 64-bit ones */
  if (which == 'c' || which == 'd') per_reg = es == 2 ? 2 : 1;
  return (int)(elems / 32 / per_reg);
}

static const char *const frag_names = "abcd";

/* One modifier word of a tensor-core instruction: returns 1 if it was one
 * of theirs, 0 for the words every instruction shares (.sync, .shared,
 * .rn). */
int pp_mma_modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  PtxMma *m = &in->mma;
  int t = pp_type_of(c.p, c.len);
  if (t >= 0 || IS(c, "tf32")) {
    if (x->ntypes == 4) return 0;
    x->mtypes[x->ntypes++] = (uint8_t)(t >= 0 ? t : PTX_MMA_TF32);
    return 1;
  }
  for (int s = 1; s < PTX_MMA_COUNT; s++)
    if (strlen(ptx_mma_shape_name[s]) == c.len && memcmp(ptx_mma_shape_name[s], c.p, c.len) == 0) {
      if (m->shape) return 0;
      m->shape = (uint8_t)s;
      return 1;
    }
  if (IS(c, "row") || IS(c, "col")) {
    /* the first names A (or the wmma.load/store matrix), the second B */
    if (x->nlayouts == 2) return 0;
    if (IS(c, "col")) m->layout |= x->nlayouts == 0 ? PTX_MMA_ACOL : PTX_MMA_BCOL;
    x->nlayouts++;
    return 1;
  }
  if ((ptx_op[in->op].mods & M_MMA_NUM) && (IS(c, "x1") || IS(c, "x2") || IS(c, "x4"))) {
    if (m->num) return 0;
    m->num = (uint8_t)(c.p[1] - '0');
    return 1;
  }
  if ((ptx_op[in->op].mods & M_MMA_FRAG) && c.len == 1 && strchr(frag_names, c.p[0])) {
    if (m->frag) return 0;
    m->frag = (uint8_t)c.p[0];
    return 1;
  }
  int bit = IS(c, "trans") && (ptx_op[in->op].mods & M_SPACE) && !is_wmma(in->op) ? PTX_MMA_TRANS
            : IS(c, "satfinite")                                                 ? PTX_MMA_SAT
                                                                                 : 0;
  if (bit) {
    if (m->layout & bit) return 0;
    m->layout |= (uint8_t)bit;
    return 1;
  }
  if (IS(c, "aligned")) return 1; /* every lane executes it together: a promise */
  return -1;
}

static _Noreturn void bad(Parser *P, const InstrCtx *x, const char *why) {
  char buf[128];
  pp_unsup(P, x->mn, "unsupported instruction '%s' (%s %s): %s", pp_tok_str(x->mn, buf, sizeof buf),
           pp_owner(P), P->k->name, why);
}

#define T(a) PTX_T_##a
#define TF32 PTX_MMA_TF32

/* ldmatrix, stmatrix, movmatrix: .m8n8 of .b16, in shared memory. */
static void matrix_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  PtxMma *m = &in->mma;
  if (m->shape != PTX_MMA_M8N8) bad(P, x, "only the .m8n8 shape is supported");
  if (x->ntypes != 1 || x->mtypes[0] != T(B16)) bad(P, x, "only .b16 matrices are supported");
  if (x->nlayouts || (m->layout & PTX_MMA_SAT)) bad(P, x, "no .row/.col/.satfinite here");
  if (in->op == PTX_OP_MOVMATRIX) {
    if (!(m->layout & PTX_MMA_TRANS)) bad(P, x, "movmatrix needs .trans");
  } else if (m->num != 1 && m->num != 2 && m->num != 4) {
    bad(P, x, "needs .x1, .x2 or .x4");
  }
  if (in->op != PTX_OP_MOVMATRIX && in->space != PTX_S_SHARED && in->space != PTX_S_GENERIC)
    bad(P, x, "the matrices are in shared memory (.shared)");
  m->dtype = T(B16);
}

/* Whether (d, a, b, c) is a type combination of mma/wmma.mma on shape s. */
static int mma_types_ok(int wmma, unsigned s, const PtxMma *m) {
  unsigned a = m->atype, d = m->dtype, c = m->ctype;
  int k16 = s == PTX_MMA_M16N8K8 || s == PTX_MMA_M16N8K16;
  int w16 = s == PTX_MMA_M16N16K16 || s == PTX_MMA_M32N8K16 || s == PTX_MMA_M8N32K16;
  if (a != m->btype && !((a == T(S8) || a == T(U8)) && (m->btype == T(S8) || m->btype == T(U8)))) return 0;
  if (a == T(F16)) return (wmma ? w16 : k16) && (d == T(F16) || d == T(F32)) && (c == T(F16) || c == T(F32));
  if (a == T(BF16)) return (wmma ? w16 : k16) && d == T(F32) && c == T(F32);
  if (a == TF32)
    return (wmma ? s == PTX_MMA_M16N16K8 : s == PTX_MMA_M16N8K4 || s == PTX_MMA_M16N8K8) && d == T(F32) &&
           c == T(F32);
  if (a == T(F64))
    return (wmma ? s == PTX_MMA_M8N8K4
                 : s == PTX_MMA_M8N8K4 || s == PTX_MMA_M16N8K4 || s == PTX_MMA_M16N8K8 || s == PTX_MMA_M16N8K16) &&
           d == T(F64) && c == T(F64);
  if (a == T(S8) || a == T(U8))
    return (wmma ? w16 : s == PTX_MMA_M8N8K16 || s == PTX_MMA_M16N8K16 || s == PTX_MMA_M16N8K32) && d == T(S32) &&
           c == T(S32);
  return 0;
}

/* mma.sync and wmma.mma: the types in order d, a, b, c (wmma's f16 form
 * names only d and c). */
static void mma_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  PtxMma *m = &in->mma;
  int wmma = in->op == PTX_OP_WMMA_MMA;
  if (!m->shape || ptx_mma_dims[m->shape].k == 0) bad(P, x, "needs a shape such as .m16n8k16");
  if (x->nlayouts != 2) bad(P, x, "needs the layouts of A and B (.row.col)");
  if (!wmma && (m->layout & (PTX_MMA_ACOL | PTX_MMA_BCOL)) != PTX_MMA_BCOL)
    bad(P, x, "only .row.col is supported (the m8n8k4 .f16 layouts are not)");
  if (m->layout & PTX_MMA_TRANS) bad(P, x, "no .trans here");
  if (wmma && x->ntypes == 2) {
    m->dtype = x->mtypes[0], m->ctype = x->mtypes[1], m->atype = m->btype = T(F16);
  } else if (x->ntypes == 4) {
    m->dtype = x->mtypes[0], m->atype = x->mtypes[1], m->btype = x->mtypes[2], m->ctype = x->mtypes[3];
  } else {
    bad(P, x, "needs the types of D, A, B and C");
  }
  if (!mma_types_ok(wmma, m->shape, m))
    bad(P, x, "this combination of shape and types is not supported (f16, bf16, tf32, f64, s8/u8 forms)");
  if ((m->layout & PTX_MMA_SAT) && m->dtype != T(S32)) bad(P, x, ".satfinite is for integer forms");
  if (in->rnd && (in->rnd != PTX_RND_RN || m->dtype != T(F64))) bad(P, x, "only f64 forms take a rounding (.rn)");
}

/* wmma.load.{a,b,c} and wmma.store.d: one layout, one type. */
static void wmma_mem_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  PtxMma *m = &in->mma;
  unsigned s = m->shape;
  if (!s || ptx_mma_dims[s].k == 0 || s == PTX_MMA_M16N8K4 || s == PTX_MMA_M16N8K8 || s == PTX_MMA_M16N8K16 ||
      s == PTX_MMA_M16N8K32 || s == PTX_MMA_M8N8K16)
    bad(P, x, "needs a wmma shape (.m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8, .m8n8k4)");
  if (x->nlayouts != 1) bad(P, x, "needs one layout (.row or .col)");
  if (x->ntypes != 1) bad(P, x, "needs one type");
  if (m->layout & (PTX_MMA_TRANS | PTX_MMA_SAT)) bad(P, x, "no .trans or .satfinite here");
  if (in->op == PTX_OP_WMMA_LOAD ? m->frag == 'd' || !m->frag : m->frag != 'd')
    bad(P, x, in->op == PTX_OP_WMMA_LOAD ? "needs .a, .b or .c" : "needs .d");
  if (in->space != PTX_S_GLOBAL && in->space != PTX_S_SHARED && in->space != PTX_S_GENERIC)
    bad(P, x, "the matrix is in global or shared memory");
  /* check the type through the mma form it belongs to */
  PtxMma t = *m;
  unsigned ty = x->mtypes[0];
  if (m->frag == 'a' || m->frag == 'b') {
    t.atype = t.btype = (uint8_t)ty;
    t.dtype = t.ctype = ty == T(F16) || ty == T(BF16) || ty == TF32 ? T(F32) : ty == T(F64) ? T(F64) : T(S32);
  } else {
    t.dtype = t.ctype = (uint8_t)ty;
    t.atype = t.btype = ty == T(F16) || ty == T(F32) ? (s == PTX_MMA_M16N16K8 ? TF32 : T(F16))
                        : ty == T(F64)               ? T(F64)
                                                     : T(S8);
  }
  if (!mma_types_ok(1, s, &t)) bad(P, x, "this combination of shape, fragment and type is not supported");
  *m = t;
}

void pp_mma_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  switch (in->op) {
  case PTX_OP_LDMATRIX:
  case PTX_OP_STMATRIX:
  case PTX_OP_MOVMATRIX: matrix_rules(P, in, x); break;
  case PTX_OP_MMA:
  case PTX_OP_WMMA_MMA: mma_rules(P, in, x); break;
  default: wmma_mem_rules(P, in, x); break;
  }
  in->type = in->mma.dtype == PTX_MMA_TF32 ? PTX_T_B32 : in->mma.dtype;
}
