/* emu_wgmma_math.c - wgmma.mma_async's arithmetic: D = A * B (+ C) over a
 * warpgroup's 64 x N tile, once emu_wgmma.c has gathered its operands
 * (EmuWgTile: A's rows and B's columns as the 32 bytes of K elements a
 * K-major tile holds, C in d[]).
 *
 * Notes (where the PTX ISA leaves the arithmetic open, what warpmem
 * chose; docs/tensor-cores.md, "wgmma"):
 *  - Inputs.  f16, bf16 and fp8 values are exact in f32; tf32 drops its 13
 *    low mantissa bits (the ISA: the hardware ignores them); imm-scale-a/-b
 *    of -1 negate A or B (exactly).  Products of any two are exact in f32
 *    (at most 22 significant bits).
 *  - The adder is the model's named parameter, one row of WG_ADDERS per
 *    input type: `bits` 0 adds the products to D one at a time in k order,
 *    each sum rounded to nearest f32 (mma.sync's model); `bits` b > 0
 *    sums each `group` of products together with the running D after
 *    aligning them to the largest exponent among them, every addend
 *    truncated toward zero to b bits below that exponent's leading bit
 *    (the fixed-point adder Fasi et al., "Numerical behavior of NVIDIA
 *    tensor cores", PeerJ CS 2021, measured on V100-A100), then rounds the
 *    sum to f32.  DeepSeek-V3's report (2024, section 3.3.2) measured
 *    Hopper's FP8 accumulation "limited to retaining around 14 bits":
 *    fp8's row is {14, 32} (a whole k32 instruction), a hypothesis that
 *    tools/gpu/wgmma_adder_probe.cu tests on the H200 (it prints the
 *    bits and group that reproduce the GPU).  An infinite or NaN addend
 *    gives the IEEE sum.
 *  - An f16 D is rounded once, to nearest even, from the f32 sum; its C
 *    is widened exactly.  Integers are exact: the k32 sum of products
 *    fits in 22 bits, C is added in 64 bits, then wrapped to s32 or, with
 *    .satfinite, clamped.  .b1 sums popc(a AND b) over the 256 bits.
 *  - Loops run over a row of D (j innermost, unit stride) so that the
 *    compiler vectorizes them: the bench's 2048^3 bf16 GEMM spends its
 *    time here.
 */
#include <math.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "util/half.h"

/* X(type, bits, group, what): the adder of each input type (see Notes). */
#define WG_ADDERS(X)                                                                                   \
  X(PTX_T_F16, 0, 1, "f32 adds in k order, each rounded to nearest (as mma.sync)")                   \
  X(PTX_T_BF16, 0, 1, "f32 adds in k order, each rounded to nearest (as mma.sync)")                  \
  X(PTX_MMA_TF32, 0, 1, "f32 adds in k order, each rounded to nearest (as mma.sync)")                \
  X(PTX_MMA_E4M3, 14, 32, "32 products and D aligned to the largest, truncated to 14 bits, summed") \
  X(PTX_MMA_E5M2, 14, 32, "32 products and D aligned to the largest, truncated to 14 bits, summed")

typedef struct Adder {
  unsigned type, bits, group;
  const char *what;
} Adder;

static const Adder adders[] = {
#define X(t, b, g, w) {t, b, g, w},
  WG_ADDERS(X)
#undef X
};

static const Adder *adder_of(unsigned t) {
  for (size_t i = 0; i < sizeof adders / sizeof adders[0]; i++)
    if (adders[i].type == t) return &adders[i];
  return &adders[0];
}

const char *emu_wgmma_adder(unsigned atype, unsigned *bits, unsigned *group) {
  const Adder *a = adder_of(atype);
  if (bits) *bits = a->bits;
  if (group) *group = a->group;
  return a->what;
}

/* --- element values (exact) --- */

static inline float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline float f16_val(uint32_t h) { return emu_f16_float(h); }

static inline float e4m3_val(uint32_t v) {
  uint32_t s = (v & 0x80u) << 24, e = (v >> 3) & 15, m = v & 7;
  if ((v & 0x7f) == 0x7f) return f32_of(s | 0x7fc00000u); /* the only NaN: no infinities */
  if (e == 0) return (s ? -1.0f : 1.0f) * (float)m * 0x1p-9f;
  return f32_of(s | (e + 120) << 23 | m << 20);
}

/* Element i of a 32-byte row of type t as a float (tf32 truncated). */
static inline float elem(const uint8_t *row, unsigned t, unsigned i) {
  uint32_t u;
  switch (t) {
  case PTX_T_F16: return f16_val((uint32_t)row[2 * i] | (uint32_t)row[2 * i + 1] << 8);
  case PTX_T_BF16: return f32_of(((uint32_t)row[2 * i] | (uint32_t)row[2 * i + 1] << 8) << 16);
  case PTX_MMA_TF32:
    memcpy(&u, row + 4 * i, 4);
    return f32_of(u & 0xffffe000u);
  case PTX_MMA_E4M3: return e4m3_val(row[i]);
  default: return f16_val((uint32_t)row[i] << 8); /* e5m2: the high byte of an f16 */
  }
}

/* A (64 x k, row-major) and B (k x n, row-major: B[k][j]) as floats. */
static void float_operands(EmuWgTile *t) {
  float sa = t->neg_a ? -1.0f : 1.0f, sb = t->neg_b ? -1.0f : 1.0f;
  for (unsigned r = 0; r < EMU_WG_M; r++)
    for (unsigned k = 0; k < t->k; k++) t->av.f[r * t->k + k] = sa * elem(t->a[r], t->atype, k);
  for (unsigned j = 0; j < t->n; j++)
    for (unsigned k = 0; k < t->k; k++) t->bv.f[k * t->n + j] = sb * elem(t->b[j], t->btype, k);
}

/* The IEEE model: D row r += a[r][k] * B[k][:], k in order.  The product
 * is exact in f32, so a fused or a separate multiply-add rounds the same.
 * Four rows by 16 (or 8) columns at a time, in vectors of 8 floats (GCC's
 * vector extensions: AVX where the host has it, else pairs of SSE2
 * operations): eight independent sums, so that the adds' latency hides;
 * N is a multiple of 8.  The bench's 2048^3 GEMM spends its time here. */
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* (Macros, not functions: a function returning a 32-byte vector changes
 * the ABI on hosts without AVX.) */
#define LOAD8(v, p) memcpy(&(v), (p), sizeof(v8f))
#define STORE8(p, v) memcpy((p), &(v), sizeof(v8f))
#define SPLAT8(a) ((v8f){(a), (a), (a), (a), (a), (a), (a), (a)})

#define IEEE_ROWS_BODY(t)                                                                            \
  do {                                                                                               \
    unsigned n = (t)->n, k = (t)->k;                                                                 \
    for (unsigned r = 0; r < EMU_WG_M; r += 4) {                                                     \
      float *d = (t)->d.f + r * n;                                                                   \
      const float *a = (t)->av.f + r * k, *bm = (t)->bv.f;                                           \
      if (!(t)->scale[r / 16]) memset(d, 0, 4 * n * sizeof *d); /* rows r..r+3: one warp's */        \
      unsigned j = 0;                                                                                \
      for (; j + 16 <= n; j += 16) {                                                                 \
        v8f c[4][2];                                                                                 \
        for (int q = 0; q < 4; q++) LOAD8(c[q][0], d + q * n + j), LOAD8(c[q][1], d + q * n + j + 8);   \
        for (unsigned kk = 0; kk < k; kk++) {                                                        \
          v8f b0, b1;                                                                                \
          LOAD8(b0, bm + kk * n + j);                                                                \
          LOAD8(b1, bm + kk * n + j + 8);                                                            \
          for (int q = 0; q < 4; q++) {                                                              \
            v8f s = SPLAT8(a[q * k + kk]);                                                           \
            c[q][0] += s * b0;                                                                       \
            c[q][1] += s * b1;                                                                       \
          }                                                                                          \
        }                                                                                            \
        for (int q = 0; q < 4; q++) STORE8(d + q * n + j, c[q][0]), STORE8(d + q * n + j + 8, c[q][1]);  \
      }                                                                                              \
      for (; j < n; j += 8) {                                                                        \
        v8f c[4];                                                                                    \
        for (int q = 0; q < 4; q++) LOAD8(c[q], d + q * n + j);                                      \
        for (unsigned kk = 0; kk < k; kk++) {                                                        \
          v8f b0;                                                                                    \
          LOAD8(b0, bm + kk * n + j);                                                                \
          for (int q = 0; q < 4; q++) c[q] += SPLAT8(a[q * k + kk]) * b0;                            \
        }                                                                                            \
        for (int q = 0; q < 4; q++) STORE8(d + q * n + j, c[q]);                                     \
      }                                                                                              \
    }                                                                                                \
  } while (0)

static void ieee_rows_base(EmuWgTile *t) { IEEE_ROWS_BODY(t); }

#if defined(__x86_64__) && defined(__GNUC__)
/* AVX without FMA: the compiler keeps multiply and add apart (not that a
 * fused one would round differently: the product is exact). */
__attribute__((target("avx2"))) static void ieee_rows_avx2(EmuWgTile *t) { IEEE_ROWS_BODY(t); }
#endif

static void ieee_rows(EmuWgTile *t) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2")) {
    ieee_rows_avx2(t);
    return;
  }
#endif
  ieee_rows_base(t);
}

/* x truncated toward zero to a multiple of q (a power of two). */
static inline double trunc_to(double x, double q) { return trunc(x / q) * q; }

/* One group of the aligned adder: acc and the products p[0..g), each
 * truncated to `bits` bits below the largest's leading bit, summed
 * exactly (they are multiples of one quantum, within 2^(bits + 6) of it:
 * exact in a double), rounded to f32. */
static float aligned_group(float acc, const double *p, unsigned g, unsigned bits) {
  int emax = INT32_MIN;
  double plain = acc;
  int special = !isfinite(acc);
  if (acc != 0.0f) emax = ilogb(acc);
  for (unsigned i = 0; i < g; i++) {
    plain += p[i];
    if (!isfinite(p[i])) special = 1;
    else if (p[i] != 0.0 && ilogb(p[i]) > emax) emax = ilogb(p[i]);
  }
  if (special || emax == INT32_MIN) return (float)plain; /* infinities, NaN; or all zeros (signed as IEEE sums) */
  double q = ldexp(1.0, emax + 1 - (int)bits), sum = trunc_to(acc, q);
  for (unsigned i = 0; i < g; i++) sum += trunc_to(p[i], q);
  return (float)sum;
}

/* Column j of row r, one group at a time through aligned_group(): the
 * general form, and the vector form's fallback. */
static float aligned_column(const EmuWgTile *t, unsigned r, unsigned j, float acc, unsigned k0, unsigned g,
                            unsigned bits) {
  double p[32];
  for (unsigned i = 0; i < g; i++) p[i] = (double)t->av.f[r * t->k + k0 + i] * t->bv.f[(k0 + i) * t->n + j];
  return aligned_group(acc, p, g, bits);
}

/* The aligned adder on 8 columns at once, in f32 and int32 vectors:
 * products exact in f32; e the largest biased exponent among them and
 * acc; each addend scaled by 2^(bits - 1 - (e - 127)) (so the largest
 * lies in [2^(bits-1), 2^bits)) and truncated to an integer, summed in 32
 * bits (33 addends of under 2^bits), scaled back: exactly
 * aligned_group()'s sum, which a column takes instead when an addend is
 * infinite or NaN, or everything is below 2^-100 (zeros included). */
#define EXPF(v) (((v8i)(v) >> 23) & 0xff)
#define VMAX(a, b) (((a) & ((a) > (b))) | ((b) & ~((a) > (b))))

#define ALIGNED_ROWS_BODY(t, bits, group)                                                              \
  do {                                                                                                 \
    unsigned n = (t)->n, k = (t)->k;                                                                   \
    for (unsigned r = 0; r < EMU_WG_M; r++)                                                            \
      for (unsigned j = 0; j < n; j += 8) {                                                            \
        float *d = (t)->d.f + r * n + j;                                                               \
        v8f acc = SPLAT8(0.0f);                                                                        \
        if ((t)->scale[r / 16]) LOAD8(acc, d);                                                         \
        for (unsigned k0 = 0; k0 < k; k0 += (group)) {                                                 \
          unsigned g = k - k0 < (group) ? k - k0 : (group);                                            \
          v8f p[32];                                                                                   \
          v8i e = EXPF(acc);                                                                           \
          for (unsigned i = 0; i < g; i++) {                                                           \
            v8f b;                                                                                     \
            LOAD8(b, (t)->bv.f + (k0 + i) * n + j);                                                    \
            p[i] = SPLAT8((t)->av.f[r * k + k0 + i]) * b;                                              \
            e = VMAX(e, EXPF(p[i]));                                                                   \
          }                                                                                            \
          v8i special = (e == 255) | (e < 27); /* biased 27: 2^-100 */                                  \
          for (unsigned i = 0; i < g; i++) special |= EXPF(p[i]) == 255;                               \
          special |= EXPF(acc) == 255;                                                                 \
          v8f sc = (v8f)((253 + (int)(bits) - e) << 23), q = (v8f)((e + 1 - (int)(bits)) << 23);       \
          v8i sum = __builtin_convertvector(acc * sc, v8i);                                            \
          for (unsigned i = 0; i < g; i++) sum += __builtin_convertvector(p[i] * sc, v8i);            \
          v8f next = __builtin_convertvector(sum, v8f) * q;                                            \
          for (int c = 0; c < 8; c++)                                                                  \
            if (special[c]) next[c] = aligned_column((t), r, j + (unsigned)c, acc[c], k0, g, (bits));   \
          acc = next;                                                                                  \
        }                                                                                              \
        STORE8(d, acc);                                                                                \
      }                                                                                                \
  } while (0)

static void aligned_rows_base(EmuWgTile *t, unsigned bits, unsigned group) { ALIGNED_ROWS_BODY(t, bits, group); }

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static void aligned_rows_avx2(EmuWgTile *t, unsigned bits, unsigned group) {
  ALIGNED_ROWS_BODY(t, bits, group);
}
#endif

static void aligned_rows(EmuWgTile *t, unsigned bits, unsigned group) {
  if (group > 32 || bits > 24) { /* outside the vector form's range: column by column */
    for (unsigned r = 0; r < EMU_WG_M; r++)
      for (unsigned j = 0; j < t->n; j++) {
        float acc = t->scale[r / 16] ? t->d.f[r * t->n + j] : 0.0f;
        for (unsigned k0 = 0; k0 < t->k; k0 += group)
          acc = aligned_column(t, r, j, acc, k0, t->k - k0 < group ? t->k - k0 : group, bits);
        t->d.f[r * t->n + j] = acc;
      }
    return;
  }
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2")) {
    aligned_rows_avx2(t, bits, group);
    return;
  }
#endif
  aligned_rows_base(t, bits, group);
}

/* s8/u8: exact sums of the k32 products (under 2^22: int32), 8 columns at
 * a time in vectors, then C in 64 bits. */
#define INTEGER_SUMS_BODY(t, r, sum)                                                                 \
  do {                                                                                               \
    unsigned n = (t)->n, k = (t)->k;                                                                 \
    for (unsigned j = 0; j < n; j += 8) {                                                            \
      v8i c = {0, 0, 0, 0, 0, 0, 0, 0};                                                              \
      for (unsigned kk = 0; kk < k; kk++) {                                                          \
        v8i b;                                                                                       \
        int32_t a = (t)->av.i[(r) * k + kk];                                                         \
        memcpy(&b, (t)->bv.i + kk * n + j, sizeof b);                                                \
        c += (v8i){a, a, a, a, a, a, a, a} * b;                                                      \
      }                                                                                              \
      memcpy((sum) + j, &c, sizeof c);                                                               \
    }                                                                                                \
  } while (0)

static void integer_sums_base(const EmuWgTile *t, unsigned r, int32_t *sum) { INTEGER_SUMS_BODY(t, r, sum); }
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static void integer_sums_avx2(const EmuWgTile *t, unsigned r, int32_t *sum) {
  INTEGER_SUMS_BODY(t, r, sum);
}
#endif

static void integer_rows(EmuWgTile *t) {
  unsigned n = t->n, k = t->k;
  int sa = t->atype == PTX_T_S8, sb = t->btype == PTX_T_S8;
  for (unsigned r = 0; r < EMU_WG_M; r++)
    for (unsigned kk = 0; kk < k; kk++) t->av.i[r * k + kk] = sa ? (int8_t)t->a[r][kk] : t->a[r][kk];
  for (unsigned j = 0; j < n; j++)
    for (unsigned kk = 0; kk < k; kk++) t->bv.i[kk * n + j] = sb ? (int8_t)t->b[j][kk] : t->b[j][kk];
  int32_t sum[256];
#if defined(__x86_64__) && defined(__GNUC__)
  int avx2 = __builtin_cpu_supports("avx2");
#endif
  for (unsigned r = 0; r < EMU_WG_M; r++) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) integer_sums_avx2(t, r, sum);
    else
#endif
      integer_sums_base(t, r, sum);
    int32_t *d = t->d.i + r * n;
    for (unsigned j = 0; j < n; j++) {
      int64_t v = (int64_t)sum[j] + (t->scale[r / 16] ? d[j] : 0);
      if (t->sat) v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
      d[j] = (int32_t)(uint32_t)(uint64_t)v;
    }
  }
}

/* .b1 .and.popc: D += popc(A row AND B column) over 256 bits. */
static void popc_rows(EmuWgTile *t) {
  unsigned n = t->n;
  for (unsigned r = 0; r < EMU_WG_M; r++) {
    uint32_t a[8];
    memcpy(a, t->a[r], 32);
    for (unsigned j = 0; j < n; j++) {
      uint32_t b[8], c = 0;
      memcpy(b, t->b[j], 32);
      for (int w = 0; w < 8; w++) c += popc32(a[w] & b[w]);
      int32_t *d = t->d.i + r * n + j;
      *d = (int32_t)((uint32_t)(t->scale[r / 16] ? *d : 0) + c);
    }
  }
}

void emu_wgmma_multiply(EmuWgTile *t) {
  if (t->atype == PTX_T_S8 || t->atype == PTX_T_U8) {
    integer_rows(t);
    return;
  }
  if (t->atype == PTX_MMA_B1) {
    popc_rows(t);
    return;
  }
  float_operands(t);
  const Adder *ad = adder_of(t->atype);
  if (ad->bits) aligned_rows(t, ad->bits, ad->group);
  else ieee_rows(t);
}
