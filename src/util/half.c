/* half.c - rounding to narrow floating-point formats (half.h). */
#include "util/half.h"

#include <math.h>

#include "util/bits.h"

const WmFloatFmt wm_fmt_f16 = {5, 10, 0};
const WmFloatFmt wm_fmt_bf16 = {8, 7, 0};
const WmFloatFmt wm_fmt_tf32 = {8, 10, 0};
const WmFloatFmt wm_fmt_e4m3 = {4, 3, 1};
const WmFloatFmt wm_fmt_e5m2 = {5, 2, 0};

/* The integer n (>= 0, with fraction frac of a unit above floor) rounded in
 * direction r for a value of sign neg. */
static double round_magnitude(double n, int neg, WmRound r) {
  double lo = floor(n), frac = n - lo;
  if (frac == 0.0) return lo;
  switch (r) {
  case WM_RND_ZERO: return lo;
  case WM_RND_DOWN: return neg ? lo + 1 : lo;
  case WM_RND_UP: return neg ? lo : lo + 1;
  case WM_RND_AWAY: return frac >= 0.5 ? lo + 1 : lo;
  default:
    if (frac > 0.5) return lo + 1;
    if (frac < 0.5) return lo;
    return fmod(lo, 2.0) == 0.0 ? lo : lo + 1; /* ties to even */
  }
}

uint32_t wm_to_narrow(WmFloatFmt f, double v, WmRound r) {
  uint32_t sign = signbit(v) ? 1u << (f.ebits + f.mbits) : 0;
  uint32_t inf = ((1u << f.ebits) - 1) << f.mbits, ones = (1u << f.mbits) - 1;
  uint32_t nan = f.finite ? inf | ones : inf | (1u << (f.mbits - 1));
  if (isnan(v)) return sign | nan;
  int neg = sign != 0, bias = (1 << (f.ebits - 1)) - 1, emin = 1 - bias;
  int emax = f.finite ? bias + 1 : bias; /* a finite format's top binade holds numbers */
  double a = fabs(v);
  if (isinf(v)) return sign | (f.finite ? nan : inf);
  if (a == 0.0) return sign;
  int e;
  frexp(a, &e);
  e -= 1; /* a = 1.x * 2^e */
  if (e < emin) e = emin;
  /* n: a in units of the quantum at its exponent (exact: a power of two) */
  double n = round_magnitude(ldexp(a, f.mbits - e), neg, r);
  if (n >= ldexp(1.0, f.mbits + 1)) n /= 2, e += 1; /* rounded up to the next binade */
  uint32_t m = (uint32_t)n;
  if (e > emax || (f.finite && e == emax && (m & ones) == ones)) { /* overflow */
    int to_inf = r == WM_RND_NEAREST || r == WM_RND_AWAY || (r == WM_RND_UP && !neg) || (r == WM_RND_DOWN && neg);
    uint32_t max = f.finite ? inf | (ones - 1) : inf - 1;
    return sign | (to_inf ? (f.finite ? nan : inf) : max);
  }
  if (m < (1u << f.mbits)) return sign | m; /* subnormal (e == emin) */
  return sign | ((uint32_t)(e + bias) << f.mbits) | (m - (1u << f.mbits));
}

double wm_from_narrow(WmFloatFmt f, uint32_t bits) {
  int bias = (1 << (f.ebits - 1)) - 1;
  uint32_t ones = (1u << f.mbits) - 1, m = bits & ones, ex = (bits >> f.mbits) & ((1u << f.ebits) - 1);
  double s = (bits >> (f.ebits + f.mbits)) & 1 ? -1.0 : 1.0;
  if (ex == (1u << f.ebits) - 1 && f.finite && m == ones) return NAN;
  if (ex == (1u << f.ebits) - 1 && !f.finite) return m ? NAN : s * INFINITY;
  if (ex == 0) return s * ldexp((double)m, 1 - bias - f.mbits);
  return s * ldexp((double)(m | (1u << f.mbits)), (int)ex - bias - f.mbits);
}

/* v rounded to odd in a float: truncated toward zero, its last bit set if
 * that lost anything (values past FLT_MAX become FLT_MAX, which is odd). */
static uint32_t float_odd_bits(double v) {
  float f = (float)v;
  if ((double)f == v || isnan(v)) return (uint32_t)wm_f32_bits(f);
  if (fabs((double)f) > fabs(v)) f = nextafterf(f, 0.0f);
  return (uint32_t)wm_f32_bits(f) | 1u;
}

uint16_t wm_f16_rn(double v) {
  uint32_t x = float_odd_bits(v), sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);     /* NaN */
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);    /* >= 65520, the tie above 65504: inf */
  if (a >= 0x38800000u) {                                    /* >= 2^-14: normal */
    uint32_t r = a - (112u << 23);                           /* exponent rebiased from 127 to 15 */
    r += 0xfffu + ((r >> 13) & 1u);                          /* 23 -> 10 mantissa bits, ties to even */
    return (uint16_t)(sign | (r >> 13));
  }
  uint32_t e = a >> 23;
  if (e < 102) return (uint16_t)sign;                        /* below 2^-25: zero */
  /* subnormal: the value in units of 2^-24 is m * 2^(e - 126) */
  uint32_t m = (a & 0x7fffffu) | 0x800000u, shift = 126 - e, n = m >> shift;
  uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (n & 1u))) n++;
  return (uint16_t)(sign | n);
}

uint16_t wm_bf16_rn(double v) {
  uint32_t x = float_odd_bits(v);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((x >> 16) & 0x8000u) | 0x7fc0u); /* NaN */
  x += 0x7fffu + ((x >> 16) & 1u); /* ties to even; a carry out of the top is infinity */
  return (uint16_t)(x >> 16);
}
