/* emu_half.c - half precision: f16, bf16 and their pairs f16x2, bf16x2
 * (two 16-bit values in a 32-bit register, the low half the first
 * element), in add, sub, mul, fma, neg, abs, min, max, setp, set, ex2,
 * tanh, the atomics' add/min/max, and cvt between them, every other type
 * and the narrow formats tf32, e4m3x2 and e5m2x2.
 *
 * emu_half_select() picks the function when the kernel is prepared: an
 * instruction with a half type runs a function of this file and never its
 * row's f32/f64 one, and a half form PTX lacks (div.f16, sqrt.f16, ...) is
 * refused with a located error.
 *
 * Notes:
 *  - One rounding.  Operands are read exactly into doubles and the exact
 *    result is rounded once to the format (util/half.h, IEEE round to
 *    nearest even unless the instruction names a direction).  Why the
 *    double is exact, or as good as exact:
 *      mul: the significands have at most 11 bits (f16) or 8 (bf16), so a
 *        product has at most 22 bits; its exponent lies in [2^-266, 2^256]
 *        (bf16's smallest subnormal squared, its largest value squared),
 *        inside double's normal range: the product is exact.
 *      add, sub, fma: a sum of an f16 sum's operands spans at most 2^16 down
 *        to 2^-24 (40 bits) and is exact, but bf16 operands (and an f16 fma,
 *        whose product reaches 2^-48) can span more than double's 53 bits.
 *        So sums use add_odd: the sum rounded to odd (TwoSum finds the
 *        error; an inexact result gets its last bit set).  Rounding a
 *        round-to-odd result of p >= q + 2 bits once more to q bits gives
 *        the correctly rounded result in every direction (Boldo and
 *        Melquiond, "Emulation of FMA and correctly rounded sums: proved
 *        algorithms using rounding to odd", IEEE Trans. Computers 57(4),
 *        2008); here p = 53 and q <= 11.  fma is then exact product +
 *        add_odd: one rounding, as PTX requires.
 *      Integer sources wider than 53 bits are narrowed to odd the same way.
 *  - NaN results: the ISA leaves them unspecified except for .relu and
 *    .NaN (canonical); warpmem always writes the canonical 0x7fff.  .sat
 *    makes NaN +0 and clamps to [0, 1]; .relu makes negative results +0 and
 *    keeps NaN; .ftz (f16 only in PTX) flushes subnormal operands and
 *    results to zero of the same sign.
 *  - .approx (ex2, tanh) are computed in double and rounded to nearest:
 *    within half an ulp, inside the PTX ISA's bounds for them.
 *  - .oob (fma): a NaN multiplicand makes the result +0.  The ISA names a
 *    special "OOB NaN" (what TMA fills out-of-bounds elements with) without
 *    its bits here; any NaN in a or b is what CUTLASS's own fallback for
 *    fma.rn.oob.relu (guarded_multiply_add_relu0) tests, so we do the same.
 *  - min/max: -0 is below +0; a NaN operand gives the other one (both NaN:
 *    NaN); .NaN gives NaN if either is; .xorsign.abs orders the magnitudes
 *    and gives the result the XOR of the operands' signs.
 *  - fp8 (e4m3x2, e5m2x2) takes .rn.satfinite as PTX requires: out of range
 *    gives the largest finite value, NaN gives NaN.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "util/half.h"

#define CANON_NAN 0x7fffu

static int is_half(unsigned t) {
  return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
}
static int is_narrow(unsigned t) {
  return is_half(t) || t == PTX_T_TF32 || t == PTX_T_E4M3X2 || t == PTX_T_E5M2X2;
}
static int is_pair(unsigned t) { return t == PTX_T_F16X2 || t == PTX_T_BF16X2; }
static int is_bf(unsigned t) { return t == PTX_T_BF16 || t == PTX_T_BF16X2; }

/* The IEEE direction of a PTX float rounding modifier (none: nearest). */
static WmRound wm_round_of(unsigned rnd) {
  switch (rnd) {
  case PTX_RND_RZ: return WM_RND_ZERO;
  case PTX_RND_RM: return WM_RND_DOWN;
  case PTX_RND_RP: return WM_RND_UP;
  case PTX_RND_RNA: return WM_RND_AWAY;
  default: return WM_RND_NEAREST;
  }
}

/* --- one instruction's format and modifiers --- */

typedef struct HCtx {
  WmFloatFmt f;      /* the 16-bit format */
  int bf;            /* bf16 rather than f16 */
  int n;             /* elements per register: 1, or 2 for a pair */
  WmRound dir;
  int ftz, sat, relu;
  uint32_t expo;     /* the exponent bits: 0x7c00 or 0x7f80 */
} HCtx;

static HCtx ctx_of(const EmuInstr *x, unsigned t) {
  HCtx c;
  c.bf = is_bf(t);
  c.f = c.bf ? wm_fmt_bf16 : wm_fmt_f16;
  c.n = is_pair(t) ? 2 : 1;
  c.dir = wm_round_of(x->rnd);
  c.ftz = (x->flags & PTX_IF_FTZ) != 0;
  c.sat = (x->flags & PTX_IF_SAT) != 0;
  c.relu = (x->fmod & PTX_FM_RELU) != 0;
  c.expo = c.bf ? 0x7f80u : 0x7c00u;
  return c;
}

static inline int h_isnan(const HCtx *c, uint32_t h) { return (h & c->expo) == c->expo && (h & ~c->expo & 0x7fff); }
static inline int h_issub(const HCtx *c, uint32_t h) { return (h & c->expo) == 0 && (h & 0x7fff); }
/* the operand with .ftz applied */
static inline uint32_t h_flush(const HCtx *c, uint32_t h) { return c->ftz && h_issub(c, h) ? h & 0x8000 : h; }

/* The exact value of an f16: its f32 bits built by hand (normal and
 * infinite/NaN ones rebias the exponent; subnormals are m * 2^-24). */
static inline float f16_float(uint32_t h) {
  uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 0x3ff;
  if (e == 0) return s ? -(float)m * 0x1p-24f : (float)m * 0x1p-24f;
  if (e == 31) return F32(s | 0x7f800000u | (m << 13));
  return F32(s | ((e + 112) << 23) | (m << 13));
}
/* A bf16 is the top half of an f32. */
static inline double h_value(const HCtx *c, uint32_t h) {
  h = h_flush(c, h & 0xffff);
  return c->bf ? (double)F32(h << 16) : (double)f16_float(h);
}

/* v rounded once to the format with the instruction's modifiers. */
static uint32_t h_round(const HCtx *c, double v) {
  if (isnan(v)) return c->sat ? 0 : CANON_NAN;
  if (c->relu && v < 0) v = 0.0;
  if (c->sat) v = v <= 0 ? 0.0 : v > 1 ? 1.0 : v;
  uint32_t r = c->dir != WM_RND_NEAREST ? wm_to_narrow(c->f, v, c->dir) : c->bf ? wm_bf16_rn(v) : wm_f16_rn(v);
  return h_flush(c, r);
}

/* a + b rounded to odd (see the Notes): exact when the sum fits a double,
 * else the neighbour with an odd last bit on the side of the error. */
static double add_odd(double a, double b) {
  double s = a + b;
  if (!isfinite(s)) return s;
  double bv = s - a, err = (a - (s - bv)) + (b - bv); /* TwoSum: a + b = s + err exactly */
  if (err != 0 && !(B64(s) & 1)) s = nextafter(s, err > 0 ? INFINITY : -INFINITY);
  return s;
}

/* --- arithmetic: one loop shape for all of it --- */

#define EL(v, i) ((uint32_t)((v) >> (16 * (i))) & 0xffffu)
/* d = expr per element, expr of the element bits ea, eb, ec */
#define HALF_LANES(c, expr)                                                        \
  do {                                                                             \
    const uint64_t *a_ = SRC(0), *b_ = x->ns > 1 ? SRC(1) : a_, *c_ = x->ns > 2 ? SRC(2) : a_; \
    uint64_t *d_ = DST(0);                                                         \
    LANES(mask, {                                                                  \
      uint32_t out_ = 0;                                                           \
      for (int i_ = 0; i_ < (c).n; i_++) {                                         \
        uint32_t ea = EL(a_[l], i_), eb = EL(b_[l], i_), ec = EL(c_[l], i_);       \
        (void)eb, (void)ec;                                                        \
        out_ |= (uint32_t)(expr) << (16 * i_);                                     \
      }                                                                            \
      d_[l] = out_;                                                                \
    });                                                                            \
  } while (0)

#define VA h_value(&c, ea)
#define VB h_value(&c, eb)
#define VC h_value(&c, ec)

static int h_add(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  HALF_LANES(c, h_round(&c, add_odd(VA, VB)));
  return 0;
}

static int h_sub(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  HALF_LANES(c, h_round(&c, add_odd(VA, -VB)));
  return 0;
}

static int h_mul(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  HALF_LANES(c, h_round(&c, VA * VB));
  return 0;
}

static uint32_t fma1(const HCtx *c, int oob, uint32_t a, uint32_t b, uint32_t cc) {
  if (oob && (h_isnan(c, a) || h_isnan(c, b))) return 0;
  return h_round(c, add_odd(h_value(c, a) * h_value(c, b), h_value(c, cc)));
}

static int h_fma(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  int oob = (x->fmod & PTX_FM_OOB) != 0;
  HALF_LANES(c, fma1(&c, oob, ea, eb, ec));
  return 0;
}

/* neg and abs change the sign bit only (after .ftz) */
static int h_neg(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  HALF_LANES(c, h_flush(&c, ea) ^ 0x8000u);
  return 0;
}

static int h_abs(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  HALF_LANES(c, h_flush(&c, ea) & 0x7fffu);
  return 0;
}

/* min (is_max 0) or max of two elements, as the Notes say */
static uint32_t minmax1(const HCtx *c, unsigned fmod, int is_max, uint32_t a, uint32_t b) {
  a = h_flush(c, a), b = h_flush(c, b);
  int an = h_isnan(c, a), bn = h_isnan(c, b), xs = (fmod & PTX_FM_XORSIGN) != 0;
  if (an || bn) {
    if ((fmod & PTX_FM_NAN) || (an && bn)) return CANON_NAN;
    return xs ? ((an ? b : a) & 0x7fffu) | ((a ^ b) & 0x8000u) : an ? b : a;
  }
  uint32_t sign = (a ^ b) & 0x8000u;
  if (xs) a &= 0x7fffu, b &= 0x7fffu;
  double va = h_value(c, a), vb = h_value(c, b);
  int a_first = va < vb || (va == vb && (a & 0x8000u)); /* a is the smaller; -0 < +0 */
  uint32_t r = is_max ? (a_first ? b : a) : (a_first ? a : b);
  return xs ? r | sign : r;
}

static int h_min(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  unsigned fm = x->fmod;
  HALF_LANES(c, minmax1(&c, fm, 0, ea, eb));
  return 0;
}

static int h_max(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  unsigned fm = x->fmod;
  HALF_LANES(c, minmax1(&c, fm, 1, ea, eb));
  return 0;
}

/* ex2.approx and tanh.approx: correctly rounded, so within the ISA's bound */
static int h_ex2(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  c.dir = WM_RND_NEAREST;
  HALF_LANES(c, h_round(&c, exp2(VA)));
  return 0;
}

static int h_tanh(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  c.dir = WM_RND_NEAREST;
  HALF_LANES(c, h_round(&c, tanh(VA)));
  return 0;
}

/* --- comparisons --- */


/* setp.f16/.bf16 p[|q], a, b[, c]: p = t OP c, q = !t OP c.  The pairs
 * compare each half: p = t_low OP c, q = t_high OP c. */
static int h_setp(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type);
  const uint64_t *a = SRC(0), *bb = SRC(1), *cp = x->s[2] != EMU_NOSLOT ? SRC(2) : NULL;
  uint64_t *p = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *q = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int t0 = emu_cmp_float(x->cmp, h_value(&c, EL(a[l], 0)), h_value(&c, EL(bb[l], 0)));
    int t1 = c.n == 2 ? emu_cmp_float(x->cmp, h_value(&c, EL(a[l], 1)), h_value(&c, EL(bb[l], 1))) : !t0;
    int cv = cp ? (int)(cp[l] & 1) ^ x->s_neg[2] : 1;
    if (p) p[l] = (uint64_t)emu_boolop(x->sub, t0, cv);
    if (q) q[l] = (uint64_t)emu_boolop(x->sub, t1, cv);
  }
  return 0;
}

/* set.CMP.dtype.stype with a half stype: per element, 1.0 in a half dtype,
 * all ones in an integer one (per half for the pairs' .u32/.s32). */
static int h_set(EMU_EXEC_ARGS) {
  HCtx c = ctx_of(x, x->type2);
  const uint64_t *a = SRC(0), *bb = SRC(1), *cp = x->ns > 2 ? SRC(2) : NULL;
  uint64_t *d = DST(0);
  unsigned dt = x->type, size = ptx_type_size((PtxType)dt);
  uint32_t one = dt == PTX_T_F16 || dt == PTX_T_F16X2 ? 0x3c00u : is_bf(dt) ? 0x3f80u
               : c.n == 2 ? 0xffffu : (uint32_t)zext(~0ull, size);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int cv = cp ? (int)(cp[l] & 1) ^ x->s_neg[2] : 1;
    uint32_t out = 0;
    for (int i = 0; i < c.n; i++) {
      int t = emu_cmp_float(x->cmp, h_value(&c, EL(a[l], i)), h_value(&c, EL(bb[l], i)));
      if (emu_boolop(x->sub, t, cv)) out |= one << (16 * i);
    }
    d[l] = out;
  }
  return 0;
}

/* --- conversions --- */

/* An integer of `size` bytes as a double rounded to odd: exact up to 53
 * bits, else truncated with the lost bits' OR in the last place, so that
 * the one rounding to the half format that follows is correct. */
static double int_odd(uint64_t v, int sign, unsigned size) {
  int neg = sign && sext(v, size) < 0;
  uint64_t u = neg ? 0 - (uint64_t)sext(v, size) : zext(v, size);
  int k = u >> 53 ? 64 - __builtin_clzll(u) - 53 : 0;
  uint64_t s = k ? (u >> k) | ((u & ((1ull << k) - 1)) != 0) : u;
  double d = ldexp((double)s, k);
  return neg ? -d : d;
}

/* The formats cvt reads and writes here, element by element. */
typedef struct NarrowFmt {
  WmFloatFmt f;
  unsigned bits;    /* element width: 16, 8 (fp8), 19 (tf32 in the top of 32) */
  unsigned n;       /* elements in the register */
} NarrowFmt;

static int narrow_fmt(unsigned t, NarrowFmt *nf) {
  switch (t) {
  case PTX_T_F16: *nf = (NarrowFmt){wm_fmt_f16, 16, 1}; return 1;
  case PTX_T_F16X2: *nf = (NarrowFmt){wm_fmt_f16, 16, 2}; return 1;
  case PTX_T_BF16: *nf = (NarrowFmt){wm_fmt_bf16, 16, 1}; return 1;
  case PTX_T_BF16X2: *nf = (NarrowFmt){wm_fmt_bf16, 16, 2}; return 1;
  case PTX_T_TF32: *nf = (NarrowFmt){wm_fmt_tf32, 19, 1}; return 1;
  case PTX_T_E4M3X2: *nf = (NarrowFmt){wm_fmt_e4m3, 8, 2}; return 1;
  case PTX_T_E5M2X2: *nf = (NarrowFmt){wm_fmt_e5m2, 8, 2}; return 1;
  default: return 0;
  }
}

/* Element i of a register in a narrow format, exactly. */
static double narrow_value(const NarrowFmt *nf, uint64_t v, unsigned i) {
  if (nf->bits == 19) return (double)F32((uint32_t)v & 0xffffe000u);
  return wm_from_narrow(nf->f, (uint32_t)(v >> (nf->bits * i)) & ((1u << nf->bits) - 1));
}

/* v rounded to a narrow format with cvt's modifiers: .rn/.rz/.rm/.rp/.rna
 * (.rni.. for a half destination round to an integer first), .relu, .sat,
 * .satfinite. */
static uint32_t narrow_round(const EmuInstr *x, const NarrowFmt *nf, double v) {
  int nan = isnan(v);
  unsigned fm = x->fmod;
  if (x->rnd >= PTX_RND_RNI && x->rnd <= PTX_RND_RPI) v = emu_round_int(x->rnd, v);
  if (!nan && (fm & PTX_FM_RELU) && v < 0) v = 0.0;
  if (x->flags & PTX_IF_SAT) v = nan ? 0.0 : v <= 0 ? 0.0 : v > 1 ? 1.0 : v;
  if (nan && !(x->flags & PTX_IF_SAT)) /* canonical NaNs: f32's for tf32, all ones for fp8 */
    return nf->bits == 16 ? CANON_NAN : nf->bits == 19 ? 0x7fffffffu : 0x7fu;
  WmRound dir = wm_round_of(x->rnd);
  uint32_t r = nf->bits != 16 || dir != WM_RND_NEAREST ? wm_to_narrow(nf->f, v, dir)
             : nf->f.ebits == 5                        ? wm_f16_rn(v)
                                                       : wm_bf16_rn(v);
  if (fm & PTX_FM_SATFINITE) { /* infinities and overflow: the largest finite value */
    uint32_t sign = 1u << (nf->f.ebits + nf->f.mbits), inf = ((1u << nf->f.ebits) - 1) << nf->f.mbits;
    uint32_t ones = (1u << nf->f.mbits) - 1, mag = r & (sign - 1);
    uint32_t top = nf->f.finite ? inf | ones : inf;            /* what overflow gave */
    if (mag == top) r = (r & sign) | (nf->f.finite ? inf | (ones - 1) : inf - 1);
  }
  return nf->bits == 19 ? r << 13 : r;
}

/* cvt with a narrow type on either side: the source element read exactly
 * (integers wider than 53 bits rounded to odd), then one rounding. */
static int h_cvt(EMU_EXEC_ARGS) {
  NarrowFmt dn, sn;
  unsigned dt = x->type, st = x->type2, ds = ptx_type_size((PtxType)dt), ss = ptx_type_size((PtxType)st);
  int dnarrow = narrow_fmt(dt, &dn), snarrow = narrow_fmt(st, &sn);
  int two_src = dnarrow && dn.n == 2 && st == PTX_T_F32; /* d = {a, b}: a in the high element */
  const uint64_t *a = SRC(0), *bsrc = two_src ? SRC(1) : a;
  uint64_t *d = DST(0);
  Class sc = tclass(st), dc = tclass(dt);
  int ftz = (x->flags & PTX_IF_FTZ) != 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (!dnarrow) { /* half -> f32, f64, integer: the value is exact in a double */
      double f = narrow_value(&sn, a[l], 0);
      if (dc == C_F && ds == 4) {
        float r = (float)f;
        if (ftz) r = ftz32(r);
        if (x->flags & PTX_IF_SAT) r = satf(r);
        d[l] = B32(r);
      } else if (dc == C_F) {
        if (x->flags & PTX_IF_SAT) f = isnan(f) ? 0.0 : f < 0 ? 0.0 : f > 1 ? 1.0 : f;
        d[l] = B64(f);
      } else {
        d[l] = zext(emu_cvt_f2i(f, x->rnd, dc == C_S, ds), ds);
      }
      continue;
    }
    uint64_t out = 0;
    for (unsigned i = 0; i < dn.n; i++) {
      double f;
      if (two_src) f = F32(i == 0 ? bsrc[l] : a[l]);
      else if (snarrow) f = narrow_value(&sn, a[l], sn.n == dn.n ? i : 0);
      else if (sc == C_F) f = ss == 4 ? (double)(ftz ? ftz32(F32(a[l])) : F32(a[l])) : F64(a[l]);
      else f = int_odd(a[l], sc == C_S, ss);
      out |= (uint64_t)narrow_round(x, &dn, f) << (dn.bits == 19 ? 0 : dn.bits * i);
    }
    d[l] = out;
  }
  return 0;
}

/* --- atomics --- */

uint32_t emu_half_atomic(const EmuInstr *x, uint32_t old, uint32_t b) {
  HCtx c = ctx_of(x, x->type); /* .noftz: nothing flushed */
  c.ftz = 0;
  c.dir = WM_RND_NEAREST;
  uint32_t out = 0;
  for (int i = 0; i < c.n; i++) {
    uint32_t eo = EL(old, i), eb = EL(b, i), r;
    if (x->sub == PTX_SUB_AADD) r = h_round(&c, add_odd(h_value(&c, eo), h_value(&c, eb)));
    else r = minmax1(&c, 0, x->sub == PTX_SUB_AMAX, eo, eb);
    out |= r << (16 * i);
  }
  return out;
}

/* --- choosing the function --- */

enum { HX_NONE, HX_ADD, HX_SUB, HX_MUL, HX_FMA, HX_NEG, HX_ABS, HX_MIN, HX_MAX, HX_SETP, HX_SET,
       HX_CVT, HX_EX2, HX_TANH, HX_COUNT };

EmuExecFn *const emu_half_fns[HX_COUNT] = {
  [HX_ADD] = h_add, [HX_SUB] = h_sub, [HX_MUL] = h_mul, [HX_FMA] = h_fma, [HX_NEG] = h_neg,
  [HX_ABS] = h_abs, [HX_MIN] = h_min, [HX_MAX] = h_max, [HX_SETP] = h_setp, [HX_SET] = h_set,
  [HX_CVT] = h_cvt, [HX_EX2] = h_ex2, [HX_TANH] = h_tanh,
};

/* The function of an arithmetic opcode on a half type, HX_NONE if PTX has
 * no half form of it. */
static int arith_fn(unsigned op) {
  switch (op) {
  case PTX_OP_ADD: return HX_ADD;
  case PTX_OP_SUB: return HX_SUB;
  case PTX_OP_MUL: return HX_MUL;
  case PTX_OP_FMA: return HX_FMA;
  case PTX_OP_NEG: return HX_NEG;
  case PTX_OP_ABS: return HX_ABS;
  case PTX_OP_MIN: return HX_MIN;
  case PTX_OP_MAX: return HX_MAX;
  case PTX_OP_SETP: return HX_SETP;
  case PTX_OP_EX2: return HX_EX2;
  case PTX_OP_TANH: return HX_TANH;
  default: return HX_NONE;
  }
}

/* A cvt whose narrow side the emulator runs: every half type with every
 * other type; tf32 from f32; fp8 pairs from two f32 or an f16x2, and to an
 * f16x2. */
static int cvt_supported(unsigned dt, unsigned st) {
  int dfp8 = dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2, sfp8 = st == PTX_T_E4M3X2 || st == PTX_T_E5M2X2;
  if (dfp8) return st == PTX_T_F32 || st == PTX_T_F16X2;
  if (sfp8) return dt == PTX_T_F16X2;
  if (dt == PTX_T_TF32) return st == PTX_T_F32;
  if (st == PTX_T_TF32) return 0;
  if (is_pair(dt)) return st == PTX_T_F32;  /* cvt.rn.f16x2.f32 d, a, b */
  return !is_pair(st);
}

int emu_half_select(EmuInstr *x, char *why, size_t n) {
  unsigned t = x->type, t2 = x->type2, op = x->op;
  const char *name = ptx_op_name[op];
  if (ptx_op[op].mods & (M_MMA_SHAPE | M_WGMMA)) return 0; /* tensor cores convert their own fragments */
  if (x->rnd == PTX_RND_RNA && !(op == PTX_OP_CVT && t == PTX_T_TF32)) {
    snprintf(why, n, ".rna is for cvt.rna.tf32.f32 only");
    return -1;
  }
  if (!is_narrow(t) && !is_narrow(t2)) {
    if (x->fmod && !(op == PTX_OP_MIN || op == PTX_OP_MAX) ) {
      snprintf(why, n, ".relu, .oob and .satfinite are supported for half types only");
      return -1;
    }
    if (x->fmod && t != PTX_T_F32) {
      snprintf(why, n, "%s.NaN and .xorsign.abs are for .f32 and the half types", name);
      return -1;
    }
    return 0;
  }
  unsigned half_t = is_narrow(t) ? t : t2;
  int fn = HX_NONE;
  switch (op) {
  case PTX_OP_MOV: case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_SELP:
    if (is_half(half_t)) return 0; /* the bits move as they are */
    break;
  case PTX_OP_ATOM: case PTX_OP_RED:
    if (x->sub == PTX_SUB_AADD || x->sub == PTX_SUB_AMIN || x->sub == PTX_SUB_AMAX || x->sub == PTX_SUB_AEXCH ||
        x->sub == PTX_SUB_ACAS)
      if (is_half(t)) return 0; /* emu_mem.c calls emu_half_atomic */
    break;
  case PTX_OP_SET:
    if (is_half(t2)) fn = HX_SET;
    else if (is_half(t) && !is_pair(t)) return 0; /* a half 1.0 from another comparison: emu_cmp.c */
    break;
  case PTX_OP_CVT:
    if (cvt_supported(t, t2)) fn = HX_CVT;
    break;
  default:
    if (is_half(t) && t2 == PTX_T_NONE) fn = arith_fn(op);
  }
  if (fn == HX_NONE) {
    snprintf(why, n, "no half-precision form of %s.%s%s%s (the emulator runs f16/bf16 in add, sub, mul, fma, "
             "neg, abs, min, max, setp, set, cvt, ex2, tanh, atom and red)",
             name, ptx_type_name((PtxType)t), t2 ? "." : "", t2 ? ptx_type_name((PtxType)t2) : "");
    return -1;
  }
  if ((x->fmod & (PTX_FM_NAN | PTX_FM_XORSIGN)) && fn != HX_MIN && fn != HX_MAX) {
    snprintf(why, n, ".NaN and .xorsign.abs are for min and max");
    return -1;
  }
  x->half = (uint8_t)fn;
  return 1;
}
