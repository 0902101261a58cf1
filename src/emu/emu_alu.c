/* emu_alu.c - integer and floating-point arithmetic, one function per
 * opcode (the exec column of ptx_ops.h), each covering every type it takes.
 *
 * Notes:
 *  - f32 and f64 follow C on the host: .rn is exact IEEE; .rz/.rm/.rp run
 *    in that host rounding mode (the dispatch in emu.c sets it for rows
 *    flagged OPF_FROUND); .approx functions use the C library.
 *  - .ftz flushes f32 subnormal inputs and results; .sat clamps f32 to
 *    [0, 1] (NaN to 0) and s32 add/sub/mad.hi to the s32 range.
 *  - 16-bit floats (f16, bf16 and their x2 pairs) never reach these
 *    functions: emu_half_select sends them to emu_half.c.
 *  - 32-bit integers take straight loops; other sizes a general one that
 *    reads each operand at the instruction's size.
 *  - The carry flag CC.CF is per lane, in a hidden register slot
 *    (EmuProgram.carry: the last source of a carry form, its second
 *    destination with .cc).  Subtraction keeps the hardware's carry, not a
 *    borrow: sub.cc and subc compute a + ~b + carry-in (1 for sub.cc), so
 *    CF = 1 means no borrow; chains of them give the PTX ISA's
 *    a - (b + borrow).
 */
#include <math.h>

#include "emu/emu_exec.h"

/* Saturating signed 32-bit result (add/sub .sat). */
static inline uint64_t sat32(int64_t v) {
  if (v > INT32_MAX) v = INT32_MAX;
  if (v < INT32_MIN) v = INT32_MIN;
  return (uint32_t)(int32_t)v;
}

static inline uint64_t mulhi_u64(uint64_t a, uint64_t b) {
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static inline uint64_t mulhi_s64(int64_t a, int64_t b) {
  return (uint64_t)(((__int128)a * b) >> 64);
}

/* Integer multiply per .lo/.hi/.wide; a and b already read per size. */
static inline uint64_t imul(unsigned sub, Class c, unsigned size, uint64_t a, uint64_t b) {
  if (c == C_S) {
    int64_t sa = sext(a, size), sb = sext(b, size);
    if (sub == PTX_SUB_WIDE) return (uint64_t)(sa * sb); /* size <= 4 */
    if (sub == PTX_SUB_HI) return size == 8 ? mulhi_s64(sa, sb) : (uint64_t)((sa * sb) >> (size * 8));
    return (uint64_t)sa * (uint64_t)sb;
  }
  uint64_t ua = zext(a, size), ub = zext(b, size);
  if (sub == PTX_SUB_WIDE) return ua * ub;
  if (sub == PTX_SUB_HI) return size == 8 ? mulhi_u64(ua, ub) : (ua * ub) >> (size * 8);
  return ua * ub;
}

/* The operands every function below reads: d = f(a, s1, s2). */
#define OPERANDS                                                               \
  unsigned size = ptx_type_size((PtxType)x->type);                             \
  Class c = tclass(x->type);                                                   \
  uint64_t *d = DST(0);                                                        \
  const uint64_t *a = SRC(0);                                                  \
  const uint64_t *s1 = x->ns > 1 ? SRC(1) : a;                                 \
  const uint64_t *s2 = x->ns > 2 ? SRC(2) : a;                                 \
  int ftz = x->flags & PTX_IF_FTZ, sat = x->flags & PTX_IF_SAT;                \
  (void)size, (void)c, (void)s1, (void)s2, (void)ftz, (void)sat

#define IS_F32 (x->type == PTX_T_F32)
#define IS_F64 (x->type == PTX_T_F64)
#define IS_I32 (size == 4 && c != C_F)

/* f32: inputs flushed with .ftz, the result flushed and clamped */
#define FA (ftz ? ftz32(F32(a[l])) : F32(a[l]))
#define FB (ftz ? ftz32(F32(s1[l])) : F32(s1[l]))
#define FC (ftz ? ftz32(F32(s2[l])) : F32(s2[l]))
#define F32_LANES(expr)                                                        \
  LANES(mask, float r_ = (expr); if (ftz) r_ = ftz32(r_); if (sat) r_ = satf(r_); d[l] = B32(r_))
/* f64 */
#define DA F64(a[l])
#define DB F64(s1[l])
#define DC F64(s2[l])
#define F64_LANES(expr) LANES(mask, d[l] = B64(expr))
/* any integer size: ua/ub zero-, sa/sb sign-extended from the type's size */
#define INT_LANES(expr)                                                        \
  do {                                                                         \
    for (uint32_t m = mask; m; m &= m - 1) {                                   \
      int l = __builtin_ctz(m);                                                \
      uint64_t ua = zext(a[l], size), ub = zext(s1[l], size);                  \
      int64_t sa = sext(a[l], size), sb = sext(s1[l], size);                   \
      (void)ua, (void)ub, (void)sa, (void)sb;                                  \
      uint64_t r = (expr);                                                     \
      d[l] = x->sub == PTX_SUB_WIDE ? r : zext(r, size);                       \
    }                                                                          \
  } while (0)

/* A float function of one operand, f32 and f64. */
#define FLOAT_FUNCTION(name, f32expr, f64expr)                                 \
  int emu_exec_##name(EMU_EXEC_ARGS) {                                         \
    OPERANDS;                                                                  \
    if (IS_F32) F32_LANES(f32expr);                                            \
    else if (IS_F64) F64_LANES(f64expr);                                       \
    else return emu_unsupported_type(b, x, warp, mask);                        \
    return 0;                                                                  \
  }

/* add, sub, min, max on .u16x2/.s16x2: each half on its own (wrapping) */
static int packed16(const EmuInstr *x, uint32_t mask, uint64_t *d, const uint64_t *a, const uint64_t *b) {
  int sign = x->type == PTX_T_S16X2;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t r = 0;
    for (unsigned h = 0; h < 32; h += 16) {
      uint32_t ua = (uint32_t)(a[l] >> h) & 0xffff, ub = (uint32_t)(b[l] >> h) & 0xffff, v;
      int32_t sa = (int16_t)ua, sb = (int16_t)ub;
      int lt = sign ? sa < sb : ua < ub;
      switch (x->op) {
      case PTX_OP_ADD: v = ua + ub; break;
      case PTX_OP_SUB: v = ua - ub; break;
      case PTX_OP_MIN: v = lt ? ua : ub; break;
      default: v = lt ? ub : ua; break;
      }
      r |= (v & 0xffff) << h;
    }
    d[l] = r;
  }
  return 0;
}
#define IS_PACKED16 (x->type == PTX_T_U16X2 || x->type == PTX_T_S16X2)

/* add.cc, addc, sub.cc, subc, mad.cc, madc (.lo/.hi) on u32/s32/u64/s64:
 * d = x + y + carry-in, CF = its carry out (emu_prepare checked the form). */
int emu_exec_carry(EMU_EXEC_ARGS) {
  OPERANDS;
  int op = x->op, mad = op == PTX_OP_MAD || op == PTX_OP_MADC;
  int sub = op == PTX_OP_SUB || op == PTX_OP_SUBC, chained = op == PTX_OP_ADDC || op == PTX_OP_SUBC || op == PTX_OP_MADC;
  const uint64_t *cf = SRC(x->ns - 1);
  uint64_t *cf_out = x->flags & PTX_IF_CC ? DST(1) : NULL;
  unsigned bits = size * 8;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t xa = mad ? imul(x->sub, c, size, a[l], s1[l]) : a[l];
    uint64_t ya = mad ? s2[l] : sub ? ~s1[l] : s1[l];
    unsigned cin = chained ? (unsigned)(cf[l] & 1) : (unsigned)sub;
    unsigned __int128 sum = (unsigned __int128)zext(xa, size) + zext(ya, size) + cin;
    d[l] = zext((uint64_t)sum, size);
    if (cf_out) cf_out[l] = (uint64_t)(sum >> bits) & 1;
  }
  return 0;
}

int emu_exec_add(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_PACKED16) return packed16(x, mask, d, a, s1);
  if (x->flags & PTX_IF_CC) return emu_exec_carry(b, x, warp, mask, R);
  if (IS_F32) F32_LANES(FA + FB);
  else if (IS_F64) F64_LANES(DA + DB);
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else if (IS_I32 && sat) LANES(mask, d[l] = sat32((int64_t)(int32_t)a[l] + (int32_t)s1[l]));
  else if (IS_I32) LANES(mask, d[l] = (uint32_t)(a[l] + s1[l]));
  else INT_LANES(ua + ub);
  return 0;
}

int emu_exec_sub(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_PACKED16) return packed16(x, mask, d, a, s1);
  if (x->flags & PTX_IF_CC) return emu_exec_carry(b, x, warp, mask, R);
  if (IS_F32) F32_LANES(FA - FB);
  else if (IS_F64) F64_LANES(DA - DB);
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else if (IS_I32 && sat) LANES(mask, d[l] = sat32((int64_t)(int32_t)a[l] - (int32_t)s1[l]));
  else if (IS_I32) LANES(mask, d[l] = (uint32_t)(a[l] - s1[l]));
  else INT_LANES(ua - ub);
  return 0;
}

/* mul.lo/.hi/.wide for integers: 32-bit sources take straight loops */
static void mul_i32(const EmuInstr *x, uint32_t mask, Class c, uint64_t *d, const uint64_t *a, const uint64_t *s1) {
  if (x->sub == PTX_SUB_WIDE && c == C_S) LANES(mask, d[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)s1[l]));
  else if (x->sub == PTX_SUB_WIDE) LANES(mask, d[l] = (uint64_t)(uint32_t)a[l] * (uint32_t)s1[l]);
  else if (x->sub == PTX_SUB_HI) LANES(mask, d[l] = (uint32_t)imul(PTX_SUB_HI, c, 4, a[l], s1[l]));
  else LANES(mask, d[l] = (uint32_t)((uint32_t)a[l] * (uint32_t)s1[l]));
}

int emu_exec_mul(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_F32) F32_LANES(FA * FB);
  else if (IS_F64) F64_LANES(DA * DB);
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else if (IS_I32) mul_i32(x, mask, c, d, a, s1);
  else INT_LANES(imul(x->sub, c, size, a[l], s1[l]));
  return 0;
}

/* mad.lo/.hi/.wide for 32-bit integers; mad.hi.sat.s32 clamps the sum */
static void mad_i32(const EmuInstr *x, uint32_t mask, Class c, int sat, uint64_t *d, const uint64_t *a,
                    const uint64_t *s1, const uint64_t *s2) {
  if (x->sub == PTX_SUB_WIDE && c == C_S)
    LANES(mask, d[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)s1[l]) + s2[l]);
  else if (x->sub == PTX_SUB_WIDE) LANES(mask, d[l] = (uint64_t)(uint32_t)a[l] * (uint32_t)s1[l] + s2[l]);
  else if (x->sub == PTX_SUB_HI && sat && c == C_S)
    LANES(mask, d[l] = sat32((int64_t)(int32_t)imul(PTX_SUB_HI, c, 4, a[l], s1[l]) + (int32_t)s2[l]));
  else if (x->sub == PTX_SUB_HI) LANES(mask, d[l] = (uint32_t)(imul(PTX_SUB_HI, c, 4, a[l], s1[l]) + s2[l]));
  else LANES(mask, d[l] = (uint32_t)((uint32_t)a[l] * (uint32_t)s1[l] + (uint32_t)s2[l]));
}

/* mad and fma: one rounding for floats */
int emu_exec_mad(EMU_EXEC_ARGS) {
  OPERANDS;
  if (x->flags & PTX_IF_CC) return emu_exec_carry(b, x, warp, mask, R);
  if (IS_F32 && x->aux) F32_LANES(fmaf(x->aux == EMU_FUSED_NEG_AB ? -FA : FA, FB, x->aux == EMU_FUSED_NEG_C ? -FC : FC));
  else if (IS_F64 && x->aux) F64_LANES(fma(x->aux == EMU_FUSED_NEG_AB ? -DA : DA, DB, x->aux == EMU_FUSED_NEG_C ? -DC : DC));
  else if (IS_F32) F32_LANES(fmaf(FA, FB, FC));
  else if (IS_F64) F64_LANES(fma(DA, DB, DC));
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else if (IS_I32) mad_i32(x, mask, c, sat, d, a, s1, s2);
  else INT_LANES(imul(x->sub, c, size, a[l], s1[l]) + s2[l]);
  return 0;
}

/* The product of the low 24 bits of a and b (sign-extended for .s32). */
static inline uint64_t mul24(Class c, uint64_t a, uint64_t b) {
  if (c == C_S)
    return (uint64_t)((int64_t)((int32_t)((uint32_t)a << 8) >> 8) * (int64_t)((int32_t)((uint32_t)b << 8) >> 8));
  return (a & 0xffffff) * (b & 0xffffff);
}

/* mul24 and mad24: .lo the low 32 bits of the product, .hi bits 16..47 */
int emu_exec_mul24(EMU_EXEC_ARGS) {
  OPERANDS;
  if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  unsigned shift = x->sub == PTX_SUB_HI ? 16 : 0;
  if (x->op == PTX_OP_MAD24) INT_LANES((mul24(c, a[l], s1[l]) >> shift) + s2[l]);
  else INT_LANES(mul24(c, a[l], s1[l]) >> shift);
  return 0;
}

/* div and rem: integer division by zero is a fault; INT_MIN / -1 wraps */
int emu_exec_div(EMU_EXEC_ARGS) {
  OPERANDS;
  int rem = x->op == PTX_OP_REM;
  if (IS_F32 && !rem) {
    F32_LANES(FA / FB);
    return 0;
  }
  if (IS_F64 && !rem) {
    F64_LANES(DA / DB);
    return 0;
  }
  if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  int64_t min = size == 8 ? INT64_MIN : -(int64_t)(1ull << (size * 8 - 1));
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t ua = zext(a[l], size), ub = zext(s1[l], size), r;
    int64_t sa = sext(a[l], size), sb = sext(s1[l], size);
    if (ub == 0)
      return emu_fault(b, x, warp, l, WM_EARITH, "integer division by zero (%s.%s)", rem ? "rem" : "div",
                       ptx_type_name((PtxType)x->type));
    if (c == C_S && sa == min && sb == -1) r = rem ? 0 : (uint64_t)min;
    else if (c == C_S) r = rem ? (uint64_t)(sa % sb) : (uint64_t)(sa / sb);
    else r = rem ? ua % ub : ua / ub;
    d[l] = zext(r, size);
  }
  return 0;
}

/* min/max.f32 with .NaN (a NaN operand gives the canonical NaN) or
 * .xorsign.abs (the magnitudes ordered, the XOR of the signs on the result) */
static inline float fminmax_mod(float a, float b, unsigned fmod, int is_max) {
  if ((fmod & PTX_FM_NAN) && (isnan(a) || isnan(b))) return F32(0x7fffffffu);
  int neg = signbit(a) != signbit(b), xs = (fmod & PTX_FM_XORSIGN) != 0;
  if (xs) a = fabsf(a), b = fabsf(b);
  float r = is_max ? fmaxf(a, b) : fminf(a, b);
  return xs && !isnan(r) ? copysignf(r, neg ? -1.0f : 1.0f) : r;
}

int emu_exec_min(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_PACKED16) return packed16(x, mask, d, a, s1);
  if (IS_F32 && x->fmod) F32_LANES(fminmax_mod(FA, FB, x->fmod, 0));
  else if (IS_F32) F32_LANES(fminf(FA, FB));
  else if (IS_F64) F64_LANES(fmin(DA, DB));
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else if (IS_I32 && c == C_S) LANES(mask, d[l] = (uint32_t)((int32_t)a[l] < (int32_t)s1[l] ? a[l] : s1[l]));
  else if (IS_I32) LANES(mask, d[l] = (uint32_t)a[l] < (uint32_t)s1[l] ? (uint32_t)a[l] : (uint32_t)s1[l]);
  else INT_LANES(c == C_S ? (uint64_t)(sa < sb ? sa : sb) : (ua < ub ? ua : ub));
  return 0;
}

int emu_exec_max(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_PACKED16) return packed16(x, mask, d, a, s1);
  if (IS_F32 && x->fmod) F32_LANES(fminmax_mod(FA, FB, x->fmod, 1));
  else if (IS_F32) F32_LANES(fmaxf(FA, FB));
  else if (IS_F64) F64_LANES(fmax(DA, DB));
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else if (IS_I32 && c == C_S) LANES(mask, d[l] = (uint32_t)((int32_t)a[l] > (int32_t)s1[l] ? a[l] : s1[l]));
  else if (IS_I32) LANES(mask, d[l] = (uint32_t)a[l] > (uint32_t)s1[l] ? (uint32_t)a[l] : (uint32_t)s1[l]);
  else INT_LANES(c == C_S ? (uint64_t)(sa > sb ? sa : sb) : (ua > ub ? ua : ub));
  return 0;
}

int emu_exec_abs(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_F32) F32_LANES(fabsf(FA));
  else if (IS_F64) F64_LANES(fabs(DA));
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else INT_LANES((uint64_t)(sa < 0 ? -(uint64_t)sa : (uint64_t)sa));
  return 0;
}

int emu_exec_neg(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_F32) F32_LANES(-FA);
  else if (IS_F64) F64_LANES(-DA);
  else if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  else INT_LANES(-ua);
  return 0;
}

/* |a - b| + c; the difference in unsigned (s64 extremes overflow int64) */
int emu_exec_sad(EMU_EXEC_ARGS) {
  OPERANDS;
  if (c == C_F) return emu_unsupported_type(b, x, warp, mask);
  INT_LANES((c == C_S ? (sa > sb ? (uint64_t)sa - (uint64_t)sb : (uint64_t)sb - (uint64_t)sa)
                      : (ua > ub ? ua - ub : ub - ua)) + s2[l]);
  return 0;
}

int emu_exec_copysign(EMU_EXEC_ARGS) {
  OPERANDS;
  if (IS_F32) F32_LANES(copysignf(FB, FA));
  else if (IS_F64) F64_LANES(copysign(DB, DA));
  else return emu_unsupported_type(b, x, warp, mask);
  return 0;
}

FLOAT_FUNCTION(sqrt, sqrtf(FA), sqrt(DA))
FLOAT_FUNCTION(rsqrt, 1.0f / sqrtf(FA), 1.0 / sqrt(DA))
FLOAT_FUNCTION(rcp, 1.0f / FA, 1.0 / DA)
FLOAT_FUNCTION(ex2, exp2f(FA), exp2(DA))
FLOAT_FUNCTION(lg2, log2f(FA), log2(DA))
FLOAT_FUNCTION(sin, sinf(FA), sin(DA))
FLOAT_FUNCTION(cos, cosf(FA), cos(DA))

int emu_exec_tanh(EMU_EXEC_ARGS) { /* tanh.approx is f32 (and f16) only */
  OPERANDS;
  if (!IS_F32) return emu_unsupported_type(b, x, warp, mask);
  F32_LANES(tanhf(FA));
  return 0;
}
