/* emu_fast.c - the common forms of the common instructions, each its own
 * function, chosen when the kernel is prepared (emu_fast_fn), so that the
 * hot loop neither re-reads the instruction's type and modifiers for
 * every instruction nor branches on them per lane.
 *
 * Notes:
 *  - Each function computes bit for bit what the row's general function
 *    (emu_alu.c, emu_bits.c, emu_cmp.c, emu_cvt.c) computes for that form,
 *    including what it leaves in the upper bits of a 64-bit register
 *    (tests/test_emu_fast.c runs both on the same random lanes).
 *  - Forms with .ftz, .sat, .cc, a rounding mode other than the default
 *    round-to-nearest, a half type or a combining predicate keep the general
 *    function.
 *  - fma and mad on floats use the host's fused multiply-add instruction
 *    when it has one (one rounding, as fmaf does, without libm's call).
 *  - A shift by an immediate reads its count when the kernel is prepared
 *    (EmuInstr.imm), so the lanes' loop is one shift.
 */
#include <math.h>
#include <string.h>

#include "emu/emu_exec.h"

/* Which NaN an operation on NaNs gives depends on the order in which the
 * compiled general function (or libm's fmaf) hands the operands to the
 * host's instruction, which returns its first NaN operand; the compiler
 * may commute a + b, a * b and fma's a and b.  So a float form whose
 * operands hold a NaN in an active lane leaves the warp to the general
 * function: the same bits by construction. */
static inline int nan32(uint64_t v) { return ((uint32_t)v & 0x7fffffffu) > 0x7f800000u; }
static inline int nan64(uint64_t v) { return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* d = EXPR(l) for the active lanes, or the general function GENERAL when a
 * lane's operand is a NaN (NAN(v) says, for sources a, b and, with three, c). */
#define FAST_FLOAT(name, GENERAL, NAN, EXPR)                                   \
  static int name(EMU_EXEC_ARGS) {                                             \
    uint64_t *d = DST(0);                                                      \
    const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(x->ns > 2 ? 2 : 1);     \
    int any = 0;                                                               \
    LANES(mask, any |= NAN(a[l]) | NAN(bb[l]) | NAN(c[l]));                    \
    if (any) return GENERAL(b, x, warp, mask, R);                              \
    LANES(mask, d[l] = (EXPR));                                                \
    return 0;                                                                  \
  }

/* d = EXPR(l) for the active lanes; a, b, c the first three sources. */
#define FAST(name, EXPR)                                                       \
  static int name(EMU_EXEC_ARGS) {                                             \
    uint64_t *d = DST(0);                                                      \
    const uint64_t *a = SRC(0), *bb = SRC(x->ns > 1 ? 1 : 0);                  \
    const uint64_t *c = SRC(x->ns > 2 ? 2 : 0);                                \
    (void)b, (void)warp, (void)a, (void)bb, (void)c;                           \
    LANES(mask, d[l] = (EXPR));                                                \
    return 0;                                                                  \
  }

/* The same for a full warp two lanes at a time (GCC's vector types: SSE2
 * on x86-64), VEXPR computing them from va and vb. */
typedef uint64_t V2 __attribute__((vector_size(16)));
#define FAST_V(name, EXPR, VEXPR)                                              \
  static int name(EMU_EXEC_ARGS) {                                             \
    uint64_t *d = DST(0);                                                      \
    const uint64_t *a = SRC(0), *bb = SRC(x->ns > 1 ? 1 : 0);                  \
    const V2 lo32 = {0xffffffffu, 0xffffffffu};                                \
    (void)b, (void)warp, (void)lo32;                                           \
    if (mask != FULL) {                                                        \
      LANES(mask, d[l] = (EXPR));                                              \
      return 0;                                                                \
    }                                                                          \
    for (int l = 0; l < 32; l += 2) {                                          \
      V2 va, vb;                                                               \
      memcpy(&va, a + l, sizeof va);                                           \
      memcpy(&vb, bb + l, sizeof vb);                                          \
      (void)vb;                                                                \
      V2 vd = (VEXPR);                                                         \
      memcpy(d + l, &vd, sizeof vd);                                           \
    }                                                                          \
    return 0;                                                                  \
  }

FAST_V(mov_any, a[l], va)
FAST_V(add_i32, (uint32_t)(a[l] + bb[l]), (va + vb) & lo32)
FAST_V(add_i64, a[l] + bb[l], va + vb)
FAST_FLOAT(add_f32, emu_exec_add, nan32, B32(F32(a[l]) + F32(bb[l])))
FAST_FLOAT(add_f64, emu_exec_add, nan64, B64(F64(a[l]) + F64(bb[l])))
FAST_V(sub_i32, (uint32_t)(a[l] - bb[l]), (va - vb) & lo32)
FAST_V(sub_i64, a[l] - bb[l], va - vb)
FAST_FLOAT(sub_f32, emu_exec_sub, nan32, B32(F32(a[l]) - F32(bb[l])))
FAST_FLOAT(sub_f64, emu_exec_sub, nan64, B64(F64(a[l]) - F64(bb[l])))
FAST(mul_lo_i32, (uint32_t)((uint32_t)a[l] * (uint32_t)bb[l]))
FAST(mul_wide_s32, (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)bb[l]))
FAST(mul_wide_u32, (uint64_t)(uint32_t)a[l] * (uint32_t)bb[l])
FAST(mul_lo_i64, a[l] * bb[l])
FAST_FLOAT(mul_f32, emu_exec_mul, nan32, B32(F32(a[l]) * F32(bb[l])))
FAST_FLOAT(mul_f64, emu_exec_mul, nan64, B64(F64(a[l]) * F64(bb[l])))
FAST(mad_lo_i32, (uint32_t)((uint32_t)a[l] * (uint32_t)bb[l] + (uint32_t)c[l]))
FAST(mad_wide_s32, (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)bb[l]) + c[l])
FAST(mad_wide_u32, (uint64_t)(uint32_t)a[l] * (uint32_t)bb[l] + c[l])
FAST(mad_lo_i64, a[l] * bb[l] + c[l])
FAST_V(and_any, a[l] & bb[l], va & vb)
FAST_V(or_any, a[l] | bb[l], va | vb)
FAST_V(xor_any, a[l] ^ bb[l], va ^ vb)
FAST(selp_any, (c[l] & 1) ? a[l] : bb[l])
FAST(and_pred, (a[l] & bb[l]) & 1)
FAST(or_pred, (a[l] | bb[l]) & 1)
FAST(xor_pred, (a[l] ^ bb[l]) & 1)
FAST_V(cvt_zext32, (uint32_t)a[l], va & lo32)
FAST(cvt_sext32, (uint64_t)(int64_t)(int32_t)a[l])
FAST(cvt_f32_s32, B32((float)(int32_t)a[l]))
FAST(cvt_f32_u32, B32((float)(uint32_t)a[l]))
FAST(cvt_f64_f32, B64((double)F32(a[l])))
FAST_V(shl_i32, (uint32_t)(a[l] << x->imm), (va << x->imm) & lo32)
FAST_V(shl_i64, a[l] << x->imm, va << x->imm)
FAST(shr_u32, (uint32_t)a[l] >> x->imm)
FAST(shr_s32, (uint32_t)((int32_t)a[l] >> x->imm))
FAST_V(shr_u64, a[l] >> x->imm, va >> x->imm)
FAST(shr_s64, (uint64_t)((int64_t)a[l] >> x->imm))
FAST(zero_any, 0)

/* fma on the host's FMA unit when it has one: the same single rounding as
 * fmaf, without the call.  Nothing else in these functions, so that no
 * a * b + c of C is contracted into one. */
#define FMA_FORMS(suffix)                                                      \
  FAST_FLOAT(fma_f32##suffix, emu_exec_mad, nan32, B32(__builtin_fmaf(F32(a[l]), F32(bb[l]), F32(c[l])))) \
  FAST_FLOAT(fma_f64##suffix, emu_exec_mad, nan64, B64(__builtin_fma(F64(a[l]), F64(bb[l]), F64(c[l]))))
FMA_FORMS()
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("fma")
FMA_FORMS(_hw)
#pragma GCC pop_options
static int host_fma(void) { return __builtin_cpu_supports("fma"); }

/* f32 add, sub, mul and fma of a full warp eight lanes at a time (AVX2):
 * the low halves of lanes l .. l+7 gathered into one register, in the
 * order l, l+1, l+4, l+5 | l+2, l+3, l+6, l+7, which the two unpacks with
 * zero undo (the upper halves of the results are zero, as B32 leaves
 * them).  The same single rounding per lane as the scalar forms; a NaN in
 * any lane hands the warp to the general function, as FAST_FLOAT does. */
#include <immintrin.h>
#pragma GCC push_options
#pragma GCC target("avx2,fma")
static inline __m256 f32x8(const uint64_t *p) {
  __m256 lo = _mm256_loadu_ps((const float *)(const void *)p), hi = _mm256_loadu_ps((const float *)(const void *)(p + 4));
  return _mm256_shuffle_ps(lo, hi, 0x88);
}
#define FAST_F32X8(name, SCALAR, GENERAL, VEXPR)                               \
  static int name(EMU_EXEC_ARGS) {                                             \
    if (mask != FULL) return SCALAR(b, x, warp, mask, R);                      \
    uint64_t *d = DST(0);                                                      \
    const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(x->ns > 2 ? 2 : 1);     \
    __m256 nan = _mm256_setzero_ps();                                          \
    for (int l = 0; l < 32; l += 8) {                                          \
      __m256 va = f32x8(a + l), vb = f32x8(bb + l), vc = f32x8(c + l);         \
      nan = _mm256_or_ps(nan, _mm256_or_ps(_mm256_cmp_ps(va, vb, _CMP_UNORD_Q), _mm256_cmp_ps(vc, vc, _CMP_UNORD_Q))); \
    }                                                                          \
    if (_mm256_movemask_ps(nan)) return GENERAL(b, x, warp, mask, R);          \
    for (int l = 0; l < 32; l += 8) {                                          \
      __m256 va = f32x8(a + l), vb = f32x8(bb + l), vc = f32x8(c + l);         \
      __m256 r = (VEXPR), z = _mm256_setzero_ps();                             \
      (void)vc;                                                                \
      _mm256_storeu_ps((float *)(void *)(d + l), _mm256_unpacklo_ps(r, z));    \
      _mm256_storeu_ps((float *)(void *)(d + l + 4), _mm256_unpackhi_ps(r, z)); \
    }                                                                          \
    return 0;                                                                  \
  }
FAST_F32X8(add_f32_v, add_f32, emu_exec_add, _mm256_add_ps(va, vb))
FAST_F32X8(sub_f32_v, sub_f32, emu_exec_sub, _mm256_sub_ps(va, vb))
FAST_F32X8(mul_f32_v, mul_f32, emu_exec_mul, _mm256_mul_ps(va, vb))
FAST_F32X8(fma_f32_v, fma_f32_hw, emu_exec_mad, _mm256_fmadd_ps(va, vb, vc))

/* FAST_V's forms four lanes at a time (a full warp; SCALAR otherwise). */
typedef uint64_t V4 __attribute__((vector_size(32)));
#define FAST_V4(name, SCALAR, VEXPR)                                           \
  static int name(EMU_EXEC_ARGS) {                                             \
    if (mask != FULL) return SCALAR(b, x, warp, mask, R);                      \
    uint64_t *d = DST(0);                                                      \
    const uint64_t *a = SRC(0), *bb = SRC(x->ns > 1 ? 1 : 0);                  \
    const V4 lo32 = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};      \
    (void)lo32;                                                                \
    for (int l = 0; l < 32; l += 4) {                                          \
      V4 va, vb;                                                               \
      memcpy(&va, a + l, sizeof va);                                           \
      memcpy(&vb, bb + l, sizeof vb);                                          \
      (void)vb;                                                                \
      V4 vd = (VEXPR);                                                         \
      memcpy(d + l, &vd, sizeof vd);                                           \
    }                                                                          \
    return 0;                                                                  \
  }
FAST_V4(mov_any_v, mov_any, va)
FAST_V4(add_i32_v, add_i32, (va + vb) & lo32)
FAST_V4(add_i64_v, add_i64, va + vb)
FAST_V4(sub_i32_v, sub_i32, (va - vb) & lo32)
FAST_V4(sub_i64_v, sub_i64, va - vb)
FAST_V4(and_any_v, and_any, va & vb)
FAST_V4(or_any_v, or_any, va | vb)
FAST_V4(xor_any_v, xor_any, va ^ vb)
FAST_V4(cvt_zext32_v, cvt_zext32, va & lo32)
FAST_V4(shl_i32_v, shl_i32, (va << x->imm) & lo32)
FAST_V4(shl_i64_v, shl_i64, va << x->imm)
FAST_V4(shr_u64_v, shr_u64, va >> x->imm)
#pragma GCC pop_options

/* The AVX2 twin of a FAST_V form, or the form itself. */
static EmuExecFn *avx2_twin(EmuExecFn *f) {
  static EmuExecFn *const twin[][2] = {
    {mov_any, mov_any_v}, {add_i32, add_i32_v}, {add_i64, add_i64_v}, {sub_i32, sub_i32_v},
    {sub_i64, sub_i64_v}, {and_any, and_any_v}, {or_any, or_any_v}, {xor_any, xor_any_v},
    {cvt_zext32, cvt_zext32_v}, {shl_i32, shl_i32_v}, {shl_i64, shl_i64_v}, {shr_u64, shr_u64_v},
  };
  for (size_t i = 0; i < sizeof twin / sizeof twin[0]; i++)
    if (twin[i][0] == f) return twin[i][1];
  return f;
}
static int host_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#else
#define fma_f32_hw fma_f32
#define fma_f64_hw fma_f64
#define add_f32_v add_f32
#define sub_f32_v sub_f32
#define mul_f32_v mul_f32
#define fma_f32_v fma_f32
static int host_fma(void) { return 0; }
static int host_avx2(void) { return 0; }
static EmuExecFn *avx2_twin(EmuExecFn *f) { return f; }
#endif

/* setp with one comparison of integers (or ordered f32), no combining
 * predicate: p = a CMP b, q = !p, as compare_lanes (emu_cmp.c) reads the
 * types. */
#define SETP(name, GET, OP)                                                    \
  static int name(EMU_EXEC_ARGS) {                                             \
    const uint64_t *a = SRC(0), *bb = SRC(1);                                  \
    uint64_t *p = x->d[0] != EMU_NOSLOT ? DST(0) : NULL;                       \
    uint64_t *q = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;                       \
    (void)b, (void)warp;                                                       \
    if (p && q) LANES(mask, { uint64_t t_ = GET(a[l]) OP GET(bb[l]); p[l] = t_; q[l] = t_ ^ 1; }); \
    else if (p) LANES(mask, p[l] = GET(a[l]) OP GET(bb[l]));                   \
    else if (q) LANES(mask, q[l] = !(GET(a[l]) OP GET(bb[l])));                \
    return 0;                                                                  \
  }
#define GET_S32(r) ((int32_t)(r))
#define GET_U32(r) ((uint32_t)(r))
#define GET_S64(r) ((int64_t)(r))
#define GET_U64(r) (r)
#define SETPS(T)                                                               \
  SETP(setp_eq_##T, GET_##T, ==) SETP(setp_ne_##T, GET_##T, !=)                \
  SETP(setp_lt_##T, GET_##T, <) SETP(setp_le_##T, GET_##T, <=)                 \
  SETP(setp_gt_##T, GET_##T, >) SETP(setp_ge_##T, GET_##T, >=)
SETPS(S32)
SETPS(U32)
SETPS(S64)
SETPS(U64)
#define GET_F32(r) F32(r)
SETP(setp_eq_F32, GET_F32, ==)
SETP(setp_lt_F32, GET_F32, <)
SETP(setp_le_F32, GET_F32, <=)
SETP(setp_gt_F32, GET_F32, >)
SETP(setp_ge_F32, GET_F32, >=)

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
/* The integer setp forms and the 32-bit multiplies of a full warp four
 * lanes to a register (AVX2; SCALAR otherwise): a comparison gives -1 or
 * 0 per lane, kept as 1 or 0; vpmuludq and vpmuldq multiply the low 32
 * bits of each lane into 64, as the scalar forms' casts do. */
#pragma GCC push_options
#pragma GCC target("avx2")
typedef int64_t V4s __attribute__((vector_size(32)));
#define SETP_V4(name, SCALAR, CMP)                                             \
  static int name(EMU_EXEC_ARGS) {                                             \
    if (mask != FULL) return SCALAR(b, x, warp, mask, R);                      \
    const uint64_t *a = SRC(0), *bb = SRC(1);                                  \
    uint64_t *p = x->d[0] != EMU_NOSLOT ? DST(0) : NULL;                       \
    uint64_t *q = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;                       \
    const V4 one = {1, 1, 1, 1}, lo32 = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}; \
    (void)lo32;                                                                \
    for (int l = 0; l < 32; l += 4) {                                          \
      V4 va, vb;                                                               \
      memcpy(&va, a + l, sizeof va);                                           \
      memcpy(&vb, bb + l, sizeof vb);                                          \
      V4 t = (V4)(CMP) & one, u = t ^ one;                                     \
      if (p) memcpy(p + l, &t, sizeof t);                                      \
      if (q) memcpy(q + l, &u, sizeof u);                                      \
    }                                                                          \
    return 0;                                                                  \
  }
#define V_S32(v) (((V4s)((v) << 32)) >> 32)
#define SETPS_V4(T, A, B)                                                      \
  SETP_V4(setp_eq_##T##_v, setp_eq_##T, A == B) SETP_V4(setp_ne_##T##_v, setp_ne_##T, A != B) \
  SETP_V4(setp_lt_##T##_v, setp_lt_##T, A < B) SETP_V4(setp_le_##T##_v, setp_le_##T, A <= B) \
  SETP_V4(setp_gt_##T##_v, setp_gt_##T, A > B) SETP_V4(setp_ge_##T##_v, setp_ge_##T, A >= B)
SETPS_V4(S32, V_S32(va), V_S32(vb))
SETPS_V4(U32, (va & lo32), (vb & lo32))
SETPS_V4(S64, (V4s)va, (V4s)vb)
SETPS_V4(U64, va, vb)

#define MUL_V4(name, SCALAR, VEXPR)                                            \
  static int name(EMU_EXEC_ARGS) {                                             \
    if (mask != FULL) return SCALAR(b, x, warp, mask, R);                      \
    uint64_t *d = DST(0);                                                      \
    const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(x->ns > 2 ? 2 : 0);     \
    const __m256i lo32 = _mm256_set1_epi64x(0xffffffffll);                     \
    (void)lo32;                                                                \
    for (int l = 0; l < 32; l += 4) {                                          \
      __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(a + l)); \
      __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(bb + l)); \
      __m256i vc = _mm256_loadu_si256((const __m256i *)(const void *)(c + l)); \
      (void)vc;                                                                \
      _mm256_storeu_si256((__m256i *)(void *)(d + l), (VEXPR));                \
    }                                                                          \
    return 0;                                                                  \
  }
MUL_V4(mul_lo_i32_v, mul_lo_i32, _mm256_and_si256(_mm256_mul_epu32(va, vb), lo32))
MUL_V4(mul_wide_s32_v, mul_wide_s32, _mm256_mul_epi32(va, vb))
MUL_V4(mul_wide_u32_v, mul_wide_u32, _mm256_mul_epu32(va, vb))
MUL_V4(mad_lo_i32_v, mad_lo_i32, _mm256_and_si256(_mm256_add_epi64(_mm256_mul_epu32(va, vb), vc), lo32))
MUL_V4(mad_wide_s32_v, mad_wide_s32, _mm256_add_epi64(_mm256_mul_epi32(va, vb), vc))
MUL_V4(mad_wide_u32_v, mad_wide_u32, _mm256_add_epi64(_mm256_mul_epu32(va, vb), vc))
#pragma GCC pop_options

/* The AVX2 twin of a setp or multiply form, or the form itself. */
static EmuExecFn *avx2_twin_cmp(EmuExecFn *f) {
#define TWINS6(T)                                                              \
  {setp_eq_##T, setp_eq_##T##_v}, {setp_ne_##T, setp_ne_##T##_v}, {setp_lt_##T, setp_lt_##T##_v}, \
  {setp_le_##T, setp_le_##T##_v}, {setp_gt_##T, setp_gt_##T##_v}, {setp_ge_##T, setp_ge_##T##_v}
  static EmuExecFn *const twin[][2] = {
    TWINS6(S32), TWINS6(U32), TWINS6(S64), TWINS6(U64),
    {mul_lo_i32, mul_lo_i32_v}, {mul_wide_s32, mul_wide_s32_v}, {mul_wide_u32, mul_wide_u32_v},
    {mad_lo_i32, mad_lo_i32_v}, {mad_wide_s32, mad_wide_s32_v}, {mad_wide_u32, mad_wide_u32_v},
  };
#undef TWINS6
  for (size_t i = 0; i < sizeof twin / sizeof twin[0]; i++)
    if (twin[i][0] == f) return twin[i][1];
  return f;
}
#else
static EmuExecFn *avx2_twin_cmp(EmuExecFn *f) { return f; }
#endif

/* The comparison's function among the six of a type (EQ..GE). */
#define PICK6(T) { setp_eq_##T, setp_ne_##T, setp_lt_##T, setp_le_##T, setp_gt_##T, setp_ge_##T }
static EmuExecFn *const setp_fns[4][6] = {PICK6(S32), PICK6(U32), PICK6(S64), PICK6(U64)};
static EmuExecFn *const setp_f32_fns[6] = {setp_eq_F32, NULL, setp_lt_F32, setp_le_F32, setp_gt_F32, setp_ge_F32};

static EmuExecFn *setp_fn(const EmuInstr *x) {
  if (x->s[2] != EMU_NOSLOT || x->nd < 1 || (x->flags & PTX_IF_FTZ) || x->cmp < PTX_CMP_EQ ||
      x->cmp > PTX_CMP_GE)
    return NULL;
  unsigned i = x->cmp - PTX_CMP_EQ;
  switch (x->type) {
  case PTX_T_S32: return setp_fns[0][i];
  case PTX_T_U32: case PTX_T_B32: return setp_fns[1][i];
  case PTX_T_S64: return setp_fns[2][i];
  case PTX_T_U64: case PTX_T_B64: return setp_fns[3][i];
  case PTX_T_F32: return setp_f32_fns[i];
  default: return NULL;
  }
}

/* Integer types of 32 and 64 bits (not the bit types for arithmetic:
 * their class is unsigned, which is what these forms compute anyway). */
static int is_int32(unsigned t) { return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32; }
static int is_int64(unsigned t) { return t == PTX_T_U64 || t == PTX_T_S64 || t == PTX_T_B64; }

/* add, sub, mul, mad and fma without .cc, .sat, .ftz or modifiers. */
static EmuExecFn *arith_fn(const EmuInstr *x) {
  unsigned t = x->type, sub = x->sub;
  int i32 = is_int32(t), i64 = is_int64(t), f32 = t == PTX_T_F32, f64 = t == PTX_T_F64;
  int s = t == PTX_T_S32, lo = sub != PTX_SUB_WIDE && sub != PTX_SUB_HI;
  switch (x->op) {
  case PTX_OP_ADD: return i32 ? add_i32 : i64 ? add_i64 : f32 ? (host_avx2() ? add_f32_v : add_f32) : f64 ? add_f64 : NULL;
  case PTX_OP_SUB: return i32 ? sub_i32 : i64 ? sub_i64 : f32 ? (host_avx2() ? sub_f32_v : sub_f32) : f64 ? sub_f64 : NULL;
  case PTX_OP_MUL:
    if (f32) return host_avx2() ? mul_f32_v : mul_f32;
    if (f64) return mul_f64;
    if (i32) return sub == PTX_SUB_WIDE ? (s ? mul_wide_s32 : mul_wide_u32) : lo ? mul_lo_i32 : NULL;
    return i64 && lo ? mul_lo_i64 : NULL;
  case PTX_OP_MAD:
  case PTX_OP_FMA:
    if (f32) return host_avx2() ? fma_f32_v : host_fma() ? fma_f32_hw : fma_f32;
    if (f64) return host_fma() ? fma_f64_hw : fma_f64;
    if (x->op == PTX_OP_FMA) return NULL;
    if (i32) return sub == PTX_SUB_WIDE ? (s ? mad_wide_s32 : mad_wide_u32) : lo ? mad_lo_i32 : NULL;
    return i64 && lo ? mad_lo_i64 : NULL;
  default: return NULL;
  }
}

/* shl and shr by an immediate count (in x->imm, which emu_fast_fn sets). */
static EmuExecFn *shift_fn(EmuInstr *x, const EmuProgram *p) {
  if (x->ns < 2 || x->s[1] < p->const_base || x->s[1] >= p->const_base + p->nconst) return NULL;
  uint32_t k = (uint32_t)p->consts[x->s[1] - p->const_base];
  unsigned t = x->type, bits = is_int32(t) ? 32 : is_int64(t) ? 64 : 0;
  int sign = t == PTX_T_S32 || t == PTX_T_S64;
  if (!bits) return NULL;
  if (x->op == PTX_OP_SHR && sign) k = k >= bits ? bits - 1 : k; /* the sign fills it */
  else if (k >= bits) return zero_any;
  x->imm = k;
  if (x->op == PTX_OP_SHL) return bits == 32 ? shl_i32 : shl_i64;
  return bits == 32 ? (sign ? shr_s32 : shr_u32) : (sign ? shr_s64 : shr_u64);
}

/* cvt between integers of 32 and 64 bits (the source's low 32 bits zero-
 * or sign-extended, as the destination's or a 32-bit source's sign says),
 * and the round-to-nearest conversions of 32-bit integers to f32 and of
 * f32 to f64 (exact). */
static EmuExecFn *cvt_fn(const EmuInstr *x) {
  unsigned dt = x->type, st = x->type2;
  int d32 = dt == PTX_T_U32 || dt == PTX_T_S32, d64 = dt == PTX_T_U64 || dt == PTX_T_S64;
  int s32 = st == PTX_T_U32 || st == PTX_T_S32, s64 = st == PTX_T_U64 || st == PTX_T_S64;
  if (x->flags & (PTX_IF_SAT | PTX_IF_FTZ)) return NULL;
  if (d32 && (s32 || s64)) return dt == PTX_T_S32 ? cvt_sext32 : cvt_zext32;
  if (d64 && s32) return st == PTX_T_S32 ? cvt_sext32 : cvt_zext32;
  if (d64 && s64) return mov_any;
  if (dt == PTX_T_F32 && (x->rnd == PTX_RND_RN || x->rnd == PTX_RND_NONE))
    return st == PTX_T_S32 ? cvt_f32_s32 : st == PTX_T_U32 ? cvt_f32_u32 : NULL;
  if (dt == PTX_T_F64 && st == PTX_T_F32 && x->rnd <= PTX_RND_RP) return cvt_f64_f32;
  return NULL;
}

static EmuExecFn *fast_fn(EmuInstr *x, const EmuProgram *p);

/* The fast form, four lanes to a register where the host has AVX2. */
EmuExecFn *emu_fast_fn(EmuInstr *x, const EmuProgram *p) {
  EmuExecFn *f = fast_fn(x, p);
  return f && host_avx2() ? avx2_twin_cmp(avx2_twin(f)) : f;
}

static EmuExecFn *fast_fn(EmuInstr *x, const EmuProgram *p) {
  if (x->half || x->host_rnd || x->fmod || x->nd < 1 || x->d[0] == EMU_NOSLOT) return NULL;
  int plain = !(x->flags & (PTX_IF_CC | PTX_IF_SAT | PTX_IF_FTZ));
  switch (x->op) {
  case PTX_OP_MOV: return x->nd == 1 && x->ns == 1 && x->aux == EMU_CLOCK_NONE ? mov_any : NULL;
  case PTX_OP_CVTA: return x->space == PTX_S_GLOBAL && ptx_type_size((PtxType)x->type) == 8 ? mov_any : NULL;
  case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA:
    if (x->op == PTX_OP_FMA && x->aux) return NULL; /* a contracted sub's negation: emu_exec_mad */
    return plain && x->ns >= (x->op == PTX_OP_MAD || x->op == PTX_OP_FMA ? 3 : 2) ? arith_fn(x) : NULL;
  case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
    if (x->ns < 2) return NULL;
    if (x->type == PTX_T_PRED) return x->op == PTX_OP_AND ? and_pred : x->op == PTX_OP_OR ? or_pred : xor_pred;
    return x->op == PTX_OP_AND ? and_any : x->op == PTX_OP_OR ? or_any : xor_any;
  case PTX_OP_SELP: return x->ns >= 3 ? selp_any : NULL;
  case PTX_OP_SHL: case PTX_OP_SHR: return shift_fn(x, p);
  case PTX_OP_SETP: return setp_fn(x);
  case PTX_OP_CVT: return cvt_fn(x);
  default: return NULL;
  }
}
