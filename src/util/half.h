/* half.h - the narrow IEEE formats of GPUs (f16, bf16, tf32, fp8) and their
 * conversions from and to double, in each IEEE rounding direction.
 *
 * One routine serves every format: a value is scaled by its quantum (a power
 * of two, so exactly), rounded to an integer, and encoded.  Conversions to
 * double are exact.
 */
#ifndef WM_HALF_H
#define WM_HALF_H

#include <stdint.h>

/* A format with `ebits` exponent and `mbits` stored mantissa bits.
 * `finite`: no infinities, the largest exponent holds numbers too and only
 * its all-ones mantissa is NaN (OCP FP8 E4M3). */
typedef struct WmFloatFmt {
  int ebits, mbits, finite;
} WmFloatFmt;

extern const WmFloatFmt wm_fmt_f16;  /* 5, 10 */
extern const WmFloatFmt wm_fmt_bf16; /* 8, 7 */
extern const WmFloatFmt wm_fmt_tf32; /* 8, 10 (stored in the top 19 bits of an f32) */
extern const WmFloatFmt wm_fmt_e4m3; /* 4, 3, finite: largest 448, NaN 0x7f */
extern const WmFloatFmt wm_fmt_e5m2; /* 5, 2 */

/* IEEE rounding directions; AWAY is to nearest with ties away from zero
 * (IEEE roundTiesToAway, PTX .rna). */
typedef enum { WM_RND_NEAREST, WM_RND_ZERO, WM_RND_DOWN, WM_RND_UP, WM_RND_AWAY } WmRound;

/* v rounded to the format: the bits (sign at bit ebits + mbits).  NaN
 * becomes the canonical NaN (all exponent bits and the top mantissa bit;
 * all ones in a finite format); overflow gives infinity (NaN in a finite
 * format) or the largest finite value as the direction says. */
uint32_t wm_to_narrow(WmFloatFmt f, double v, WmRound r);
/* wm_to_narrow(f16 or bf16, v, WM_RND_NEAREST) by bit arithmetic, for
 * the emulator's inner loops: v rounded to odd in a float (24 bits, so the
 * second rounding is exact: Boldo and Melquiond 2008), then the float
 * rounded to nearest even by integer arithmetic on its bits. */
uint16_t wm_f16_rn(double v);
uint16_t wm_bf16_rn(double v);
/* The value of bits in the format (exact). */
double wm_from_narrow(WmFloatFmt f, uint32_t bits);

static inline uint16_t wm_f16_from(double v, WmRound r) { return (uint16_t)wm_to_narrow(wm_fmt_f16, v, r); }
static inline uint16_t wm_bf16_from(double v, WmRound r) { return (uint16_t)wm_to_narrow(wm_fmt_bf16, v, r); }
static inline float wm_f16_value(uint16_t h) { return (float)wm_from_narrow(wm_fmt_f16, h); }
static inline float wm_bf16_value(uint16_t h) { return (float)wm_from_narrow(wm_fmt_bf16, h); }

#endif
