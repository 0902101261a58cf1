/* ptx_wgmma.c - the warpgroup MMA instructions of sm_90a: wgmma.fence,
 * wgmma.commit_group, wgmma.wait_group and wgmma.mma_async.
 *
 * wgmma.mma_async.sync.aligned.m64nNkK.DTYPE.ATYPE.BTYPE names its shape
 * and the types of D, A and B (PTX ISA, "Asynchronous Warpgroup Level
 * Matrix Multiply-Accumulate Instructions": "Matrix Shape" and the
 * instruction's syntax).  The forms accepted are the ISA's dense ones for
 * sm_90a, each checked against what ptxas 13.0 assembles:
 *   .f16            k16, D .f16 or .f32     N = 8, 16, ..., 256
 *   .bf16           k16, D .f32             N as .f16
 *   .tf32           k8,  D .f32             N as .f16
 *   .e4m3/.e5m2     k32, D .f16 or .f32     N as .f16; A and B may differ
 *   .s8/.u8         k32, D .s32 {.satfinite} N = 8, 16, 24, 32, 48, ..., 256
 *                                           (steps of 16 past 32); A and B
 *                                           may differ (PTX 8.4)
 *   .b1             k256 .and.popc, D .s32  N as .s8
 * The operands (ptx_shape.c's shape_wgmma puts them in PtxInstr.opd and
 * the immediates in PtxMma.wg) are D, A (a 64-bit matrix descriptor, or
 * four 32-bit registers), B's descriptor, scale-d (a predicate or 0/1),
 * then imm-scale-a and imm-scale-b (1 or -1; not for .s8/.u8/.b1), and
 * for .f16/.bf16 imm-trans-a (descriptor A only) and imm-trans-b: the
 * other types are K-major only.  The sparse form (.sp) is refused.
 */
#include "ptx/ptx_parse_int.h"

#include <stdio.h>
#include <stdlib.h>

#define T(a) PTX_T_##a

/* InstrCtx.wgmma */
enum { WG_SEEN_ALIGNED = 1, WG_SEEN_AND = 2, WG_SEEN_POPC = 4, WG_SEEN_SAT = 8 };

unsigned ptx_wgmma_elem_bits(unsigned t) {
  switch (t) {
  case PTX_MMA_E4M3:
  case PTX_MMA_E5M2:
  case T(S8):
  case T(U8): return 8;
  case PTX_MMA_B1: return 1;
  case PTX_MMA_TF32:
  case T(F32):
  case T(S32): return 32;
  default: return 16; /* f16, bf16 */
  }
}

const char *ptx_wgmma_type_name(unsigned t) {
  return t == PTX_MMA_E4M3 ? "e4m3" : t == PTX_MMA_E5M2 ? "e5m2" : t == PTX_MMA_B1 ? "b1" : ptx_type_name((PtxType)t);
}

/* D: N/2 32-bit registers (f32, s32: one element each), N/4 for f16
 * (.f16x2); A from registers: four, whatever the type (16 rows of K
 * elements a warp: 256 bits a lane). */
int ptx_wgmma_dregs(const PtxMma *m) { return m->dtype == T(F16) ? m->wn / 4 : m->wn / 2; }
int ptx_wgmma_aregs(const PtxMma *m) {
  (void)m;
  return 4;
}

/* The type word c: a PtxType or one of wgmma's own (-1: none). */
static int wgmma_type(Comp c) {
  if (IS(c, "e4m3")) return PTX_MMA_E4M3;
  if (IS(c, "e5m2")) return PTX_MMA_E5M2;
  if (IS(c, "b1")) return PTX_MMA_B1;
  return pp_type_of(c.p, c.len);
}

/* ".m64nNkK": sets wn and wk; 0 if c is not such a word. */
static int shape_word(Comp c, PtxMma *m) {
  if (c.len < 6 || memcmp(c.p, "m64n", 4) != 0) return 0;
  unsigned n = 0, k = 0, i = 4;
  while (i < c.len && c.p[i] >= '0' && c.p[i] <= '9' && n < 1000) n = n * 10 + (unsigned)(c.p[i++] - '0');
  if (i == 4 || i >= c.len || c.p[i++] != 'k') return 0;
  unsigned k0 = i;
  while (i < c.len && c.p[i] >= '0' && c.p[i] <= '9' && k < 1000) k = k * 10 + (unsigned)(c.p[i++] - '0');
  if (i != c.len || i == k0 || m->wn) return 0;
  m->wn = (uint16_t)n;
  m->wk = (uint16_t)k;
  return 1;
}

int pp_wgmma_modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  PtxMma *m = &in->mma;
  int mma = in->op == PTX_OP_WGMMA_MMA, t;
  if (IS(c, "aligned")) {
    if (x->wgmma & WG_SEEN_ALIGNED) return 0;
    x->wgmma |= WG_SEEN_ALIGNED;
    return 1;
  }
  if (!mma) return -1;
  if (IS(c, "sp")) {
    char buf[128];
    pp_unsup(P, x->mn, "unsupported instruction '%s' (%s %s): the sparse wgmma.mma_async.sp is not supported "
             "(the dense forms are)", pp_tok_str(x->mn, buf, sizeof buf), pp_owner(P), P->k->name);
  }
  if (shape_word(c, m)) return 1;
  if ((t = wgmma_type(c)) >= 0) {
    if (x->ntypes == 3) return 0;
    x->mtypes[x->ntypes++] = (uint8_t)t;
    return 1;
  }
  int bit = IS(c, "satfinite") ? WG_SEEN_SAT : IS(c, "and") ? WG_SEEN_AND : IS(c, "popc") ? WG_SEEN_POPC : 0;
  if (bit) {
    if (x->wgmma & bit) return 0;
    x->wgmma |= (uint8_t)bit;
    return 1;
  }
  return -1;
}

static _Noreturn void bad(Parser *P, const InstrCtx *x, const char *why) {
  char buf[128];
  pp_fail(P, x->mn, "'%s': %s", pp_tok_str(x->mn, buf, sizeof buf), why);
}

static int is_fp8(unsigned t) { return t == PTX_MMA_E4M3 || t == PTX_MMA_E5M2; }
static int is_int8(unsigned t) { return t == T(S8) || t == T(U8); }

/* The N the ISA lists for the integer and .b1 forms: 8, 16, 24, then
 * multiples of 16 up to 256. */
static int integer_n(unsigned n) { return n == 8 || n == 24 || (n % 16 == 0 && n >= 16 && n <= 256); }

/* The K of A's type, the D types it allows ("f16 f32"), whether N is
 * allowed; NULL if A and B do not make a form. */
static const char *form_of(const PtxMma *m, unsigned *k) {
  unsigned a = m->atype, b = m->btype;
  if ((a == T(F16) || a == T(BF16) || a == PTX_MMA_TF32) && b != a) return NULL;
  if (is_fp8(a) != is_fp8(b) || is_int8(a) != is_int8(b) || (a == PTX_MMA_B1) != (b == PTX_MMA_B1)) return NULL;
  if (a == T(F16)) return *k = 16, "f16 f32";
  if (a == T(BF16)) return *k = 16, "f32";
  if (a == PTX_MMA_TF32) return *k = 8, "f32";
  if (is_fp8(a)) return *k = 32, "f16 f32";
  if (is_int8(a)) return *k = 32, "s32";
  if (a == PTX_MMA_B1) return *k = 256, "s32";
  return NULL;
}

/* wgmma.mma_async: the shape and types make one of the forms of the
 * header, with .satfinite only for integers and .and.popc exactly for
 * .b1. */
static void mma_async_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  PtxMma *m = &in->mma;
  char why[192];
  if (!m->wn) bad(P, x, "needs a shape .m64nNkK");
  if (x->ntypes != 3) bad(P, x, "needs the types of D, A and B");
  m->dtype = x->mtypes[0], m->atype = x->mtypes[1], m->btype = x->mtypes[2];
  unsigned k = 0;
  const char *dtypes = form_of(m, &k);
  if (!dtypes) bad(P, x, "A and B must be f16, bf16 or tf32 alike, or both fp8 (.e4m3/.e5m2), both 8-bit "
                         "integers (.s8/.u8) or both .b1");
  if (m->wk != k) {
    snprintf(why, sizeof why, ".%s takes K = %u (.m64nNk%u)", ptx_wgmma_type_name(m->atype), k, k);
    bad(P, x, why);
  }
  const char *dn = ptx_wgmma_type_name(m->dtype);
  size_t dl = strlen(dn);
  const char *hit = strstr(dtypes, dn);
  if (!hit || (hit[dl] != ' ' && hit[dl] != 0)) {
    snprintf(why, sizeof why, "D of .%s is %s (here .%s)", ptx_wgmma_type_name(m->atype),
             strchr(dtypes, ' ') ? ".f16 or .f32" : dtypes[0] == 's' ? ".s32" : ".f32", dn);
    bad(P, x, why);
  }
  int integer = is_int8(m->atype) || m->atype == PTX_MMA_B1;
  if (m->wn < 8 || m->wn > 256 || m->wn % 8 || (integer && !integer_n(m->wn))) {
    snprintf(why, sizeof why, "N = %u is not a shape of .%s (%s)", m->wn, ptx_wgmma_type_name(m->atype),
             integer ? "8, 16, 24, or a multiple of 16 up to 256" : "a multiple of 8 from 8 to 256");
    bad(P, x, why);
  }
  if ((x->wgmma & WG_SEEN_SAT) && !is_int8(m->atype)) bad(P, x, ".satfinite is for .s8/.u8 forms");
  if (x->wgmma & WG_SEEN_SAT) m->layout |= PTX_MMA_SAT;
  int popc = (x->wgmma & (WG_SEEN_AND | WG_SEEN_POPC)) == (WG_SEEN_AND | WG_SEEN_POPC);
  if ((m->atype == PTX_MMA_B1) != popc || ((x->wgmma & (WG_SEEN_AND | WG_SEEN_POPC)) && !popc))
    bad(P, x, m->atype == PTX_MMA_B1 ? ".b1 needs .and.popc" : ".and.popc is for .b1 forms");
  in->type = (uint8_t)m->dtype;
}

void pp_wgmma_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  if (!(x->wgmma & WG_SEEN_ALIGNED)) bad(P, x, "needs .sync.aligned (the warpgroup executes it together)");
  if (in->op == PTX_OP_WGMMA_MMA) mma_async_rules(P, in, x);
}
