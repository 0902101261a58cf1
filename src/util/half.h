/* half.h - the narrow IEEE formats of GPUs (f16, bf16, tf32) and their
 * conversions from and to double, in each IEEE rounding direction.
 *
 * One routine serves every format: a value is scaled by its quantum (a power
 * of two, so exactly), rounded to an integer, and encoded.  Conversions to
 * double are exact.
 */
#ifndef WM_HALF_H
#define WM_HALF_H

#include <stdint.h>

/* A format with `ebits` exponent and `mbits` stored mantissa bits. */
typedef struct WmFloatFmt {
  int ebits, mbits;
} WmFloatFmt;

extern const WmFloatFmt wm_fmt_f16;  /* 5, 10 */
extern const WmFloatFmt wm_fmt_bf16; /* 8, 7 */
extern const WmFloatFmt wm_fmt_tf32; /* 8, 10 (stored in the top 19 bits of an f32) */

/* IEEE rounding directions. */
typedef enum { WM_RND_NEAREST, WM_RND_ZERO, WM_RND_DOWN, WM_RND_UP } WmRound;

/* v rounded to the format: the bits (sign at bit ebits + mbits).  NaN
 * becomes the canonical NaN (all exponent bits and the top mantissa bit);
 * overflow gives infinity or the largest finite value as the direction
 * says. */
uint32_t wm_to_narrow(WmFloatFmt f, double v, WmRound r);
/* The value of bits in the format (exact). */
double wm_from_narrow(WmFloatFmt f, uint32_t bits);

static inline uint16_t wm_f16_from(double v, WmRound r) { return (uint16_t)wm_to_narrow(wm_fmt_f16, v, r); }
static inline uint16_t wm_bf16_from(double v, WmRound r) { return (uint16_t)wm_to_narrow(wm_fmt_bf16, v, r); }
static inline float wm_f16_value(uint16_t h) { return (float)wm_from_narrow(wm_fmt_f16, h); }
static inline float wm_bf16_value(uint16_t h) { return (float)wm_from_narrow(wm_fmt_bf16, h); }

#endif
