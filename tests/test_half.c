/* test_half.c - util/half: rounding doubles to f16, bf16, tf32 and fp8 in
 * each IEEE direction, and reading them back.
 *
 * Expected bits come from first principles: the formats' definitions
 * (f16: 1-5-10, bias 15; bf16: 1-8-7, bias 127; e4m3: 1-4-3, bias 7, no
 * infinities, 0x7f NaN; e5m2: 1-5-2, bias 15), written out by hand next to
 * each case, and a brute-force search over every finite f16 and bf16 value
 * (decoded by an independent formula below) for the neighbours of random
 * doubles.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/half.h"

#define F16(v, r) wm_to_narrow(wm_fmt_f16, (v), (r))
#define BF16(v, r) wm_to_narrow(wm_fmt_bf16, (v), (r))
#define RN WM_RND_NEAREST
#define RZ WM_RND_ZERO
#define RP WM_RND_UP

/* Every direction's bits for v: nearest, zero, down, up, away. */
static void expect5(WmFloatFmt f, double v, uint32_t rn, uint32_t rz, uint32_t rm, uint32_t rp, uint32_t ra) {
  const uint32_t want[5] = {rn, rz, rm, rp, ra};
  const WmRound dir[5] = {WM_RND_NEAREST, WM_RND_ZERO, WM_RND_DOWN, WM_RND_UP, WM_RND_AWAY};
  for (int i = 0; i < 5; i++) {
    uint32_t got = wm_to_narrow(f, v, dir[i]);
    if (got != want[i]) fail_msg("%a (fmt %d/%d) direction %d: got 0x%x, want 0x%x", v, f.ebits, f.mbits, i, got, want[i]);
  }
}

/* 65504 = (2 - 2^-10) * 2^15 = 0x7bff is f16's largest finite value; the
 * next step would be 2^16.  65520 is the midpoint: a tie that goes to the
 * even neighbour 2^16 and so overflows to infinity (0x7c00). */
static void test_f16_largest(void **state) {
  (void)state;
  expect5(wm_fmt_f16, 65504.0, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff);
  expect5(wm_fmt_f16, 65519.0, 0x7bff, 0x7bff, 0x7bff, 0x7c00, 0x7bff);
  expect5(wm_fmt_f16, 65520.0, 0x7c00, 0x7bff, 0x7bff, 0x7c00, 0x7c00);
  expect5(wm_fmt_f16, 1e10, 0x7c00, 0x7bff, 0x7bff, 0x7c00, 0x7c00);
  expect5(wm_fmt_f16, -1e10, 0xfc00, 0xfbff, 0xfc00, 0xfbff, 0xfc00);
  expect5(wm_fmt_f16, INFINITY, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00);
  expect5(wm_fmt_f16, -INFINITY, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00);
}

/* bf16's largest finite value is (2 - 2^-7) * 2^127 = 0x7f7f; FLT_MAX =
 * (2 - 2^-23) * 2^127 lies above the midpoint (2 - 2^-8) * 2^127. */
static void test_bf16_largest(void **state) {
  (void)state;
  double max = ldexp(2.0 - ldexp(1, -7), 127), mid = ldexp(2.0 - ldexp(1, -8), 127);
  expect5(wm_fmt_bf16, max, 0x7f7f, 0x7f7f, 0x7f7f, 0x7f7f, 0x7f7f);
  expect5(wm_fmt_bf16, 0x1.fffffep127, 0x7f80, 0x7f7f, 0x7f7f, 0x7f80, 0x7f80);
  expect5(wm_fmt_bf16, mid, 0x7f80, 0x7f7f, 0x7f7f, 0x7f80, 0x7f80); /* tie: 0x7f7f is odd */
  expect5(wm_fmt_bf16, -mid, 0xff80, 0xff7f, 0xff80, 0xff7f, 0xff80);
  expect5(wm_fmt_bf16, 1e300, 0x7f80, 0x7f7f, 0x7f7f, 0x7f80, 0x7f80);
}

/* f16 subnormals are m * 2^-24 (m < 1024), the smallest normal 2^-14. */
static void test_f16_subnormals(void **state) {
  (void)state;
  expect5(wm_fmt_f16, ldexp(1, -24), 0x0001, 0x0001, 0x0001, 0x0001, 0x0001);
  expect5(wm_fmt_f16, ldexp(1, -25), 0x0000, 0x0000, 0x0000, 0x0001, 0x0001); /* tie: 0 is even */
  expect5(wm_fmt_f16, ldexp(3, -25), 0x0002, 0x0001, 0x0001, 0x0002, 0x0002); /* tie: 2 is even */
  expect5(wm_fmt_f16, ldexp(1, -25) * 1.0001, 0x0001, 0x0000, 0x0000, 0x0001, 0x0001);
  expect5(wm_fmt_f16, -1e-30, 0x8000, 0x8000, 0x8001, 0x8000, 0x8000);
  expect5(wm_fmt_f16, ldexp(1023, -24), 0x03ff, 0x03ff, 0x03ff, 0x03ff, 0x03ff);
  expect5(wm_fmt_f16, ldexp(1, -14), 0x0400, 0x0400, 0x0400, 0x0400, 0x0400);
  /* between the largest subnormal and the smallest normal: a tie */
  expect5(wm_fmt_f16, ldexp(2047, -25), 0x0400, 0x03ff, 0x03ff, 0x0400, 0x0400);
  expect5(wm_fmt_f16, 0.0, 0, 0, 0, 0, 0);
  expect5(wm_fmt_f16, -0.0, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000);
  /* bf16 subnormals: m * 2^-133 */
  expect5(wm_fmt_bf16, ldexp(1, -133), 0x0001, 0x0001, 0x0001, 0x0001, 0x0001);
  expect5(wm_fmt_bf16, ldexp(1, -134), 0x0000, 0x0000, 0x0000, 0x0001, 0x0001);
}

/* 1 + 2^-11 lies halfway between 1 (0x3c00, even) and 1 + 2^-10 (0x3c01);
 * 1 + 3 * 2^-11 halfway between 0x3c01 and 0x3c02 (even). */
static void test_ties(void **state) {
  (void)state;
  expect5(wm_fmt_f16, 1 + ldexp(1, -11), 0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01);
  expect5(wm_fmt_f16, 1 + ldexp(3, -11), 0x3c02, 0x3c01, 0x3c01, 0x3c02, 0x3c02);
  expect5(wm_fmt_f16, -(1 + ldexp(1, -11)), 0xbc00, 0xbc00, 0xbc01, 0xbc00, 0xbc01);
  /* just above a tie: not a tie */
  expect5(wm_fmt_f16, 1 + ldexp(1, -11) + ldexp(1, -40), 0x3c01, 0x3c00, 0x3c00, 0x3c01, 0x3c01);
  /* bf16: 1 + 2^-8 between 0x3f80 and 0x3f81 */
  expect5(wm_fmt_bf16, 1 + ldexp(1, -8), 0x3f80, 0x3f80, 0x3f80, 0x3f81, 0x3f81);
  expect5(wm_fmt_bf16, 1 + ldexp(3, -8), 0x3f82, 0x3f81, 0x3f81, 0x3f82, 0x3f82);
  /* tf32 (1-8-10): 1 + 2^-11 again, the f32 bits are the 19 bits << 13 */
  expect5(wm_fmt_tf32, 1 + ldexp(1, -11), 0x3f800000 >> 13, 0x3f800000 >> 13, 0x3f800000 >> 13,
          (0x3f800000 >> 13) + 1, (0x3f800000 >> 13) + 1);
  /* a tie that carries into the next binade: (2 - 2^-11) -> 2.0 = 0x4000 */
  expect5(wm_fmt_f16, 2 - ldexp(1, -11), 0x4000, 0x3fff, 0x3fff, 0x4000, 0x4000);
}

static void test_nan(void **state) {
  (void)state;
  assert_int_equal(F16(NAN, RN), 0x7e00);   /* all exponent bits, top mantissa bit */
  assert_int_equal(F16(-NAN, RZ), 0xfe00);
  assert_int_equal(BF16(NAN, RP), 0x7fc0);
  assert_true(isnan(wm_from_narrow(wm_fmt_f16, 0x7c01)));
  assert_true(isnan(wm_from_narrow(wm_fmt_bf16, 0xffff)));
  assert_true(isinf(wm_from_narrow(wm_fmt_f16, 0xfc00)) && wm_from_narrow(wm_fmt_f16, 0xfc00) < 0);
}

/* OCP FP8: e4m3 (bias 7, exponent 15 holds numbers, S.1111.111 is NaN,
 * largest 1.75 * 2^8 = 448 = 0x7e, smallest subnormal 2^-9) and e5m2
 * (IEEE-like, bias 15, largest 1.75 * 2^15 = 57344 = 0x7b, infinity 0x7c). */
static void test_fp8(void **state) {
  (void)state;
  expect5(wm_fmt_e4m3, 448, 0x7e, 0x7e, 0x7e, 0x7e, 0x7e);
  expect5(wm_fmt_e4m3, 449, 0x7e, 0x7e, 0x7e, 0x7f, 0x7e); /* up: past 448 is overflow, NaN */
  /* 464 is the midpoint to 480 (mantissa 111 would be NaN): a tie to the
   * even 448; just past it is overflow */
  expect5(wm_fmt_e4m3, 464, 0x7e, 0x7e, 0x7e, 0x7f, 0x7f);
  expect5(wm_fmt_e4m3, 465, 0x7f, 0x7e, 0x7e, 0x7f, 0x7f);
  expect5(wm_fmt_e4m3, 256, 0x78, 0x78, 0x78, 0x78, 0x78); /* 2^8: exponent field 15 */
  expect5(wm_fmt_e4m3, ldexp(1, -9), 0x01, 0x01, 0x01, 0x01, 0x01);
  expect5(wm_fmt_e4m3, -1.0, 0xb8, 0xb8, 0xb8, 0xb8, 0xb8); /* 1.0 = 0.0111.000 */
  assert_int_equal(wm_to_narrow(wm_fmt_e4m3, NAN, RN), 0x7f);
  assert_int_equal(wm_to_narrow(wm_fmt_e4m3, -INFINITY, RN), 0xff);
  assert_true(wm_from_narrow(wm_fmt_e4m3, 0x7e) == 448.0);
  assert_true(wm_from_narrow(wm_fmt_e4m3, 0x78) == 256.0);
  assert_true(isnan(wm_from_narrow(wm_fmt_e4m3, 0xff)));
  expect5(wm_fmt_e5m2, 57344, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b);
  expect5(wm_fmt_e5m2, 65536, 0x7c, 0x7b, 0x7b, 0x7c, 0x7c);
  expect5(wm_fmt_e5m2, 1.25, 0x3d, 0x3d, 0x3d, 0x3d, 0x3d); /* 1.01b: 0.01111.01 */
  assert_true(isinf(wm_from_narrow(wm_fmt_e5m2, 0x7c)));
}

/* An independent decoder: (-1)^s * 2^(e - bias) * (1 + m / 2^mbits), or
 * the subnormal m * 2^(1 - bias - mbits). */
static double decode(int ebits, int mbits, uint32_t h) {
  int bias = (1 << (ebits - 1)) - 1;
  uint32_t m = h & ((1u << mbits) - 1), e = (h >> mbits) & ((1u << ebits) - 1);
  double sgn = (h >> (ebits + mbits)) & 1 ? -1.0 : 1.0;
  if (e == 0) return sgn * m * pow(2.0, 1 - bias - mbits);
  return sgn * pow(2.0, (double)e - bias) * (1.0 + m / pow(2.0, mbits));
}

/* Every finite f16 and bf16 reads back as the decoder says, and rounds
 * back to itself in every direction. */
static void test_roundtrip(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 0x10000; h++) {
    if ((h & 0x7c00) != 0x7c00) {
      double v = wm_from_narrow(wm_fmt_f16, h);
      if (v != decode(5, 10, h)) fail_msg("f16 0x%04x reads %a", h, v);
      for (int r = 0; r < 5; r++)
        if (F16(v, (WmRound)r) != h && !(v == 0)) fail_msg("f16 0x%04x does not round to itself (%d)", h, r);
    }
    if ((h & 0x7f80) != 0x7f80) {
      double v = wm_from_narrow(wm_fmt_bf16, h);
      if (v != decode(8, 7, h)) fail_msg("bf16 0x%04x reads %a", h, v);
      if (BF16(v, RN) != h && v != 0) fail_msg("bf16 0x%04x does not round to itself", h);
    }
  }
}

/* Random doubles against a search of the sorted finite values: the result
 * is the neighbour below or above as the direction says (ties: even bits,
 * or away from zero), beyond the largest it is infinity or the largest. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void check_random(int ebits, int mbits, WmFloatFmt f, double scale) {
  static double vals[0x10000];
  static uint32_t bits[0x10000];
  int n = 0;
  uint32_t expmask = ((1u << ebits) - 1) << mbits, sign = 1u << (ebits + mbits);
  for (uint32_t h = 0; h < 0x10000 && h < (sign << 1); h++)
    if ((h & expmask) != expmask && h != sign) vals[n++] = decode(ebits, mbits, h); /* -0 left out */
  qsort(vals, (size_t)n, sizeof *vals, cmp_double);
  for (int i = 0; i < n; i++) bits[i] = wm_to_narrow(f, vals[i], RN); /* checked by test_roundtrip */
  srand(7);
  for (int k = 0; k < 20000; k++) {
    double v = ((double)rand() / RAND_MAX * 2 - 1) * scale * pow(2.0, -(rand() % 40));
    if (v == 0) continue;
    int lo = 0, hi = n - 1;
    if (v < vals[0] || v > vals[n - 1]) continue; /* overflow: test_*_largest */
    while (hi - lo > 1) {
      int mid = (lo + hi) / 2;
      if (vals[mid] <= v) lo = mid;
      else hi = mid;
    }
    if (vals[hi] == v) lo = hi;
    if (vals[lo] == v) continue;
    double dl = v - vals[lo], dh = vals[hi] - v;
    uint32_t below = bits[lo], above = bits[hi];
    uint32_t zero = v > 0 ? below : above, away = v > 0 ? above : below;
    uint32_t even = (below & 1) ? above : below;
    if (vals[lo] == 0 || vals[hi] == 0) even = vals[lo] == 0 ? below : above; /* zero is even */
    uint32_t nearest = dl < dh ? below : dh < dl ? above : even;
    uint32_t tiesaway = dl < dh ? below : dh < dl ? above : away;
    /* a result of zero keeps v's sign */
    if (vals[lo] == 0 && v < 0) below |= sign;
    if (vals[hi] == 0 && v < 0) above |= sign, zero |= sign;
    if (nearest == 0 && v < 0) nearest = sign;
    if (tiesaway == 0 && v < 0) tiesaway = sign;
    uint32_t want[5] = {nearest, zero, below, above, tiesaway};
    for (int r = 0; r < 5; r++) {
      uint32_t got = wm_to_narrow(f, v, (WmRound)r);
      if (got != want[r]) fail_msg("%a (%d/%d) direction %d: got 0x%x, want 0x%x", v, ebits, mbits, r, got, want[r]);
    }
  }
}

static void test_random_directions(void **state) {
  (void)state;
  check_random(5, 10, wm_fmt_f16, 70000.0);
  check_random(8, 7, wm_fmt_bf16, 1e38);
}

/* The bit-arithmetic nearest-even routines agree with the general one on
 * every finite f16/bf16 midpoint neighbourhood and on random doubles of
 * every magnitude, including specials. */
static void test_fast_nearest(void **state) {
  (void)state;
  const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 65504, 65519.99, 65520, -65520, 1e300,
                            ldexp(1, -25), ldexp(1, -25) * (1 + 1e-15), ldexp(3, -25), ldexp(1, -160), 1e-320,
                            0x1.fffffep127, ldexp(2.0 - ldexp(1, -8), 127), ldexp(1, -134), ldexp(3, -134)};
  for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
    assert_int_equal(wm_f16_rn(special[i]), F16(special[i], RN));
    assert_int_equal(wm_bf16_rn(special[i]), BF16(special[i], RN));
  }
  for (uint32_t h = 0; h < 0x10000; h++) { /* every value, and just around each midpoint */
    double v = wm_from_narrow(wm_fmt_f16, h), w = wm_from_narrow(wm_fmt_f16, h + 1);
    if (isfinite(v) && isfinite(w) && (h & 0x7fff) != 0x7fff) {
      double mid = (v + w) / 2;
      const double probe[] = {v, mid, nextafter(mid, -INFINITY), nextafter(mid, INFINITY)};
      for (int k = 0; k < 4; k++)
        if (wm_f16_rn(probe[k]) != F16(probe[k], RN)) fail_msg("f16 near 0x%04x: %a", h, probe[k]);
    }
    v = wm_from_narrow(wm_fmt_bf16, h), w = wm_from_narrow(wm_fmt_bf16, h + 1);
    if (isfinite(v) && isfinite(w) && (h & 0x7fff) != 0x7fff) {
      double mid = (v + w) / 2;
      const double probe[] = {v, mid, nextafter(mid, -INFINITY), nextafter(mid, INFINITY)};
      for (int k = 0; k < 4; k++)
        if (wm_bf16_rn(probe[k]) != BF16(probe[k], RN)) fail_msg("bf16 near 0x%04x: %a", h, probe[k]);
    }
  }
  srand(11);
  for (int k = 0; k < 200000; k++) {
    double v = ldexp((double)rand() / RAND_MAX - 0.5, rand() % 400 - 200);
    if (wm_f16_rn(v) != F16(v, RN)) fail_msg("f16 %a: 0x%x, general 0x%x", v, wm_f16_rn(v), F16(v, RN));
    if (wm_bf16_rn(v) != BF16(v, RN)) fail_msg("bf16 %a: 0x%x, general 0x%x", v, wm_bf16_rn(v), BF16(v, RN));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_f16_largest),  cmocka_unit_test(test_bf16_largest), cmocka_unit_test(test_f16_subnormals),
    cmocka_unit_test(test_ties),         cmocka_unit_test(test_nan),          cmocka_unit_test(test_fp8),
    cmocka_unit_test(test_roundtrip),    cmocka_unit_test(test_random_directions), cmocka_unit_test(test_fast_nearest),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
