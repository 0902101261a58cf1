/* bits.h - IEEE values and their bits, as registers and PTX immediates hold
 * them (a float in the low 32 bits of a 64-bit slot). */
#ifndef WM_BITS_H
#define WM_BITS_H

#include <stdint.h>
#include <string.h>

static inline float wm_f32(uint64_t bits) {
  uint32_t u = (uint32_t)bits;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline uint64_t wm_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static inline double wm_f64(uint64_t bits) {
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

static inline uint64_t wm_f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

#endif
