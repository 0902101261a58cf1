/* test_emu_half.c - half precision instructions on edge values, against
 * the PTX ISA.
 *
 * Each test is a kernel body run by one warp (test_emu_alu.c's harness):
 * thread t writes up to 32 u64 result slots at out[t*32 + i].  Operands
 * are written as bits; every expected value is worked out by hand next to
 * it from the formats: f16 is 1-5-10 with bias 15 (1.0 = 0x3c00, 2.0 =
 * 0x4000, 65504 = 0x7bff, infinity 0x7c00, smallest subnormal 2^-24 =
 * 0x0001), bf16 the top half of an f32 (1.0 = 0x3f80).  A pair holds its
 * first element in the low 16 bits.  The canonical NaN of both is 0x7fff.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

#include "cli/cli.h"
#include "testutil.h"
#include "util/half.h"

#define NSLOT TU_NSLOT

static const char head[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_out)\n{\n"
  " .reg .b32 %r<40>;\n .reg .b64 %rd<40>;\n .reg .f32 %f<16>;\n .reg .f64 %fd<16>;\n"
  " .reg .pred %p<8>;\n .reg .b16 %h<16>;\n"
  " ld.param.u64 %rd1, [p_out];\n cvta.to.global.u64 %rd1, %rd1;\n"
  " mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd2, %r0, 256;\n add.s64 %rd0, %rd1, %rd2;\n";

#define CHECK(body, ...)                                            \
  do {                                                              \
    static const uint64_t w_[] = {__VA_ARGS__};                     \
    tu_check_warp(__func__, head, body, w_, (int)(sizeof w_ / sizeof *w_));   \
  } while (0)

#define S16(o, r) " st.global.b16 [%rd0+" #o "], " r ";\n"
#define S32(o, r) " st.global.b32 [%rd0+" #o "], " r ";\n"
#define S64(o, r) " st.global.b64 [%rd0+" #o "], " r ";\n"
#define SP(o, p) " selp.u32 %r39, 1, 0, " p ";\n" S32(o, "%r39")
#define H(r, bits) " mov.b16 " r ", " bits ";\n"
#define W(r, bits) " mov.b32 " r ", " bits ";\n"

/* add.f16: ties to even, overflow at the midpoint 65520, .sat, .ftz, NaN */
static void test_add_f16(void **state) {
  (void)state;
  CHECK(H("%h1", "0x3c00") H("%h2", "0x1000") H("%h3", "0x3c01") H("%h4", "0x7bff") H("%h5", "0x4c00")
        " add.rn.f16 %h6, %h1, %h2;\n" S16(0, "%h6")   /* 1 + 2^-11: tie, to even 1.0 */
        " add.rn.f16 %h6, %h3, %h2;\n" S16(8, "%h6")   /* 1 + 3*2^-11: tie, to even 1 + 2^-9 */
        " add.rn.f16 %h6, %h4, %h5;\n" S16(16, "%h6")  /* 65504 + 16 = 65520: tie, to 2^16: inf */
        " add.rn.sat.f16 %h6, %h1, %h1;\n" S16(24, "%h6") /* 2 clamped to 1 */
        " mov.b16 %h7, 0x7e00;\n add.f16 %h6, %h7, %h1;\n" S16(32, "%h6") /* NaN: canonical */
        " mov.b16 %h7, 0x0001;\n add.f16 %h6, %h7, %h7;\n" S16(40, "%h6") /* 2 * 2^-24 */
        " add.ftz.f16 %h6, %h7, %h7;\n" S16(48, "%h6")                   /* flushed: 0 */
        " mov.b16 %h7, 0x8000;\n add.f16 %h6, %h7, %h7;\n" S16(56, "%h6") /* -0 + -0 = -0 */
        " sub.rn.f16 %h6, %h1, %h3;\n" S16(64, "%h6")  /* 1 - (1 + 2^-10) = -2^-10 */
        " mov.b16 %h7, 0x7c00;\n mov.b16 %h8, 0xfc00;\n add.f16 %h6, %h7, %h8;\n" S16(72, "%h6") /* inf - inf */
        " add.sat.f16 %h6, %h7, %h8;\n" S16(80, "%h6"), /* .sat: NaN becomes 0 */
        0x3c00, 0x3c02, 0x7c00, 0x3c00, 0x7fff, 0x0002, 0x0000, 0x8000, 0x9400, 0x7fff, 0x0000);
}

/* The pairs work on both halves apart; computed as f32 they would not */
static void test_pairs(void **state) {
  (void)state;
  CHECK(W("%r1", "0x40003c00") W("%r2", "0xc0003c00") W("%r3", "0x42004000") W("%r4", "0x38004400")
        W("%r5", "0xbe003c00")
        " add.rn.f16x2 %r6, %r1, %r2;\n" S32(0, "%r6")  /* {1+1, 2-2} = {2, 0} */
        " mul.rn.f16x2 %r6, %r3, %r4;\n" S32(8, "%r6")  /* {2*4, 3*0.5} = {8, 1.5} */
        " fma.rn.f16x2 %r6, %r3, %r4, %r5;\n" S32(16, "%r6") /* {8+1, 1.5-1.5} = {9, 0} */
        " sub.rn.f16x2 %r6, %r1, %r1;\n" S32(24, "%r6")
        W("%r7", "0x40003f80") W("%r8", "0xbf804000")
        " add.rn.bf16x2 %r6, %r7, %r8;\n" S32(32, "%r6") /* bf16 {1+2, 2-1} = {3, 1} */
        " mul.rn.bf16x2 %r6, %r7, %r8;\n" S32(40, "%r6") /* {2, -2} */
        " neg.f16x2 %r6, %r1;\n" S32(48, "%r6")
        " abs.bf16x2 %r6, %r8;\n" S32(56, "%r6"),
        0x00004000, 0x3e004800, 0x00004880, 0x00000000, 0x3f804040, 0xc0004000, 0xc000bc00, 0x3f804000);
}

/* fma rounds once: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 (a subnormal, 16 *
 * 2^-24), where mul then add would round the square to 1 + 2^-9 and give 0.
 * bf16: 2^100 * (1 + 2^-7) * 1.5 = 2^100 * (1.5 + 2^-7 + 2^-8) is a tie
 * between mantissas 0x41 and 0x42; minus 2^-100 it must round down (0x71c1),
 * a double sum would round to the tie itself and then to even (0x71c2). */
static void test_fma_once(void **state) {
  (void)state;
  CHECK(H("%h1", "0x3c01") H("%h2", "0xbc02") H("%h3", "0x3c00")
        " fma.rn.f16 %h6, %h1, %h1, %h2;\n" S16(0, "%h6")
        " mul.rn.f16 %h7, %h1, %h1;\n add.rn.f16 %h6, %h7, %h2;\n" S16(8, "%h6")
        H("%h4", "0x7181") H("%h5", "0x3fc0") H("%h8", "0x8d80")
        " fma.rn.bf16 %h6, %h4, %h5, %h8;\n" S16(16, "%h6")
        H("%h9", "0xc000")
        " fma.rn.relu.f16 %h6, %h9, %h3, %h3;\n" S16(24, "%h6")  /* -2 + 1 = -1: relu 0 */
        " fma.rn.relu.f16 %h6, %h3, %h3, %h3;\n" S16(32, "%h6")  /* 2 */
        " fma.rn.sat.f16 %h6, %h3, %h3, %h3;\n" S16(40, "%h6")   /* 2: sat 1 */
        H("%h10", "0x7fff")
        " fma.rn.oob.f16 %h6, %h10, %h3, %h3;\n" S16(48, "%h6")  /* a NaN multiplicand (OOB): 0 */
        " fma.rn.f16 %h6, %h10, %h3, %h3;\n" S16(56, "%h6"),     /* without .oob: NaN */
        0x0010, 0x0000, 0x71c1, 0x0000, 0x4000, 0x3c00, 0x0000, 0x7fff);
}

/* min/max: a NaN gives the other operand (.NaN: NaN), -0 < +0,
 * .xorsign.abs: the magnitudes ordered, the XOR of the signs */
static void test_minmax(void **state) {
  (void)state;
  CHECK(H("%h1", "0x3c00") H("%h2", "0x7e00") H("%h3", "0x8000") H("%h4", "0x0000") H("%h5", "0xc000")
        " min.f16 %h6, %h1, %h2;\n" S16(0, "%h6")
        " min.NaN.f16 %h6, %h1, %h2;\n" S16(8, "%h6")
        " min.f16 %h6, %h4, %h3;\n" S16(16, "%h6")
        " max.f16 %h6, %h3, %h4;\n" S16(24, "%h6")
        " min.xorsign.abs.f16 %h6, %h5, %h1;\n" S16(32, "%h6")  /* |1| with sign - xor + = - */
        " max.xorsign.abs.f16 %h6, %h5, %h1;\n" S16(40, "%h6")  /* |-2| with sign - */
        W("%r1", "0xc0003f80") W("%r2", "0x3f804000")
        " min.bf16x2 %r3, %r1, %r2;\n" S32(48, "%r3")           /* {min(1,2), min(-2,1)} */
        " max.bf16x2 %r3, %r1, %r2;\n" S32(56, "%r3")
        " max.NaN.f16x2 %r3, %r1, %r2;\n" S32(64, "%r3")        /* as f16: 0x3f80 = 1.875, 0x4000 = 2 */
        " mov.f32 %f1, 0fC0000000;\n mov.f32 %f2, 0f3F800000;\n"
        " min.xorsign.abs.f32 %f3, %f1, %f2;\n" S32(72, "%f3")  /* f32 too: -1 */
        " mov.f32 %f4, 0f7FC00000;\n min.NaN.f32 %f3, %f2, %f4;\n" S32(80, "%f3"),
        0x3c00, 0x7fff, 0x8000, 0x0000, 0xbc00, 0xc000, 0xc0003f80, 0x3f804000, 0x3f804000, 0xbf800000,
        0x7fffffff);
}

/* setp on a pair writes p from the low halves and q from the high ones */
static void test_setp_set(void **state) {
  (void)state;
  CHECK(W("%r1", "0x42003c00") W("%r2", "0x40004000")  /* {1, 3} and {2, 2} */
        " setp.lt.f16x2 %p1|%p2, %r1, %r2;\n" SP(0, "%p1") SP(8, "%p2")
        " setp.gt.f16x2 %p1|%p2, %r1, %r2;\n" SP(16, "%p1") SP(24, "%p2")
        " setp.eq.u32 %p5, %r0, 99;\n"
        " setp.gt.or.f16x2 %p1|%p2, %r1, %r2, !%p5;\n" SP(32, "%p1") SP(40, "%p2")
        H("%h1", "0x4000") H("%h2", "0x3c00") H("%h3", "0x7e00")
        " setp.gt.f16 %p1|%p2, %h1, %h2;\n" SP(48, "%p1") SP(56, "%p2")
        " setp.ltu.f16 %p1, %h3, %h2;\n" SP(64, "%p1")    /* unordered: true on NaN */
        " setp.lt.f16 %p1, %h3, %h2;\n" SP(72, "%p1")
        " set.lt.f16.f16 %h4, %h2, %h1;\n" S16(80, "%h4")
        " set.lt.u32.f16x2 %r3, %r1, %r2;\n" S32(88, "%r3")
        " set.lt.f16x2.f16x2 %r3, %r1, %r2;\n" S32(96, "%r3")
        " mov.f32 %f1, 0f40000000;\n set.gt.f16.f32 %h4, %f1, 0f3F800000;\n" S16(104, "%h4")
        H("%h5", "0x3f80") " set.eq.bf16.bf16 %h4, %h5, %h5;\n" S16(112, "%h4"),
        1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0x3c00, 0x0000ffff, 0x00003c00, 0x3c00, 0x3f80);
}

/* cvt: pairs from two f32 (a in the high half), .relu, .satfinite, bf16
 * sources (exact), integers (one rounding, wide ones too), tf32 .rna */
static void test_cvt(void **state) {
  (void)state;
  CHECK(" mov.f32 %f1, 0f3F800000;\n mov.f32 %f2, 0f40000000;\n mov.f32 %f3, 0fC0000000;\n"
        " cvt.rn.f16x2.f32 %r1, %f1, %f2;\n" S32(0, "%r1")       /* {hi 1.0, lo 2.0} */
        " cvt.rn.bf16x2.f32 %r1, %f1, %f3;\n" S32(8, "%r1")      /* {hi 1.0, lo -2.0} */
        " cvt.rn.relu.f16.f32 %h1, %f3;\n" S16(16, "%h1")
        " mov.f32 %f4, 0f49742400;\n cvt.rn.satfinite.f16.f32 %h1, %f4;\n" S16(24, "%h1") /* 1e6 */
        " mov.f32 %f4, 0fFF800000;\n cvt.rn.satfinite.f16.f32 %h1, %f4;\n" S16(32, "%h1") /* -inf */
        H("%h2", "0x3fc0") " cvt.f32.bf16 %f5, %h2;\n" S32(40, "%f5")   /* 1.5 */
        H("%h2", "0x0001") " cvt.f32.f16 %f5, %h2;\n" S32(48, "%f5")    /* 2^-24 */
        H("%h2", "0x7bff") " cvt.f64.f16 %fd1, %h2;\n" S64(56, "%fd1")  /* 65504 */
        H("%h2", "0xc100")                                                 /* -2.5 */
        " cvt.rzi.s32.f16 %r2, %h2;\n" S32(64, "%r2")
        " cvt.rni.s32.f16 %r2, %h2;\n" S32(72, "%r2")
        " cvt.rmi.s32.f16 %r2, %h2;\n" S32(80, "%r2")
        " mov.u32 %r3, 2049;\n cvt.rn.f16.s32 %h3, %r3;\n" S16(88, "%h3")  /* tie: 2048 */
        " mov.u32 %r3, 2051;\n cvt.rn.f16.s32 %h3, %r3;\n" S16(96, "%h3")  /* tie: 2052 */
        /* 2^63 + 2^55 + 1: above the tie at 2^63 + 2^55, so up; a double
         * would hold 2^63 + 2^55, a tie going to even 2^63 */
        " mov.u64 %rd3, 0x8080000000000001;\n cvt.rn.bf16.u64 %h3, %rd3;\n" S16(104, "%h3")
        H("%h4", "0x3f81") " cvt.rn.f16.bf16 %h5, %h4;\n" S16(112, "%h5")  /* 1 + 2^-7, exact */
        H("%h4", "0x3c01") " cvt.rn.bf16.f16 %h5, %h4;\n" S16(120, "%h5")  /* 1 + 2^-10 -> 1 */
        " mov.b32 %f6, 0x3f801000;\n cvt.rna.tf32.f32 %r4, %f6;\n" S32(128, "%r4")   /* tie: away */
        " cvt.rn.tf32.f32 %r4, %f6;\n" S32(136, "%r4")                               /* tie: even */
        " mov.b32 %f6, 0x3f803000;\n cvt.rna.tf32.f32 %r4, %f6;\n" S32(144, "%r4")
        " mov.f32 %f7, 0f7FC00000;\n cvt.rn.relu.f16.f32 %h1, %f7;\n" S16(152, "%h1") /* NaN stays */
        " cvt.rn.relu.bf16x2.f32 %r5, %f3, %f2;\n" S32(160, "%r5")      /* {hi relu(-2) = 0, lo 2} */
        " mov.f32 %f8, 0f49742400;\n mov.f32 %f9, 0fC9742400;\n"         /* 1e6, -1e6 */
        " cvt.rn.satfinite.f16x2.f32 %r5, %f8, %f9;\n" S32(168, "%r5"),
        0x3c004000, 0x3f80c000, 0x0000, 0x7bff, 0xfbff, 0x3fc00000, 0x33800000, 0x40effc0000000000ull,
        0xfffffffe, 0xfffffffe, 0xfffffffd, 0x6800, 0x6802, 0x5f01, 0x3c08, 0x3f80, 0x3f802000, 0x3f800000,
        0x3f804000, 0x7fff, 0x00004000, 0x7bfffbff);
}

/* fp8 (OCP): e4m3 1.0 = 0x38, largest 448 = 0x7e; e5m2 -1.0 = 0xbc,
 * largest 57344 = 0x7b.  .satfinite clamps; back to f16: 448 = 0x5f00. */
static void test_cvt_fp8(void **state) {
  (void)state;
  CHECK(" mov.f32 %f1, 0f3F800000;\n mov.f32 %f2, 0f43FA0000;\n"   /* 1.0, 500.0 */
        " cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;\n" S16(0, "%h1")
        " mov.f32 %f3, 0fBF800000;\n mov.f32 %f4, 0f49742400;\n"    /* -1.0, 1e6 */
        " cvt.rn.satfinite.e5m2x2.f32 %h1, %f3, %f4;\n" S16(8, "%h1")
        H("%h2", "0x387e") " cvt.rn.f16x2.e4m3x2 %r1, %h2;\n" S32(16, "%r1")
        W("%r2", "0x3c005f00") " cvt.rn.satfinite.e4m3x2.f16x2 %h3, %r2;\n" S16(24, "%h3")
        " cvt.rn.satfinite.relu.e4m3x2.f32 %h1, %f3, %f1;\n" S16(32, "%h1"), /* {relu(-1) = 0, 1} */
        0x387e, 0xbc7b, 0x3c005f00, 0x387e, 0x0038);
}

/* ex2 and tanh on halves, on values whose results f16 holds exactly */
static void test_ex2_tanh(void **state) {
  (void)state;
  CHECK(H("%h1", "0x3c00") " ex2.approx.f16 %h2, %h1;\n" S16(0, "%h2")         /* 2^1 */
        W("%r1", "0x4400bc00") " ex2.approx.f16x2 %r2, %r1;\n" S32(8, "%r2")    /* {2^-1, 2^4} */
        H("%h3", "0x3f80") " ex2.approx.ftz.bf16 %h4, %h3;\n" S16(16, "%h4")
        H("%h5", "0x0000") " tanh.approx.f16 %h6, %h5;\n" S16(24, "%h6")
        H("%h5", "0x4c00") " tanh.approx.f16 %h6, %h5;\n" S16(32, "%h6")        /* tanh 16 = 1 - 2.5e-14 */
        W("%r3", "0xc1804180") " tanh.approx.bf16x2 %r4, %r3;\n" S32(40, "%r4"), /* {16, -16} */
        0x4000, 0x4c003800, 0x4000, 0x0000, 0x3c00, 0xbf803f80);
}

/* {0, %h}: <cuda_bf16.h>'s bf16 -> f32 widening packs a constant and a
 * register (the low element first); '_' and constants mix with registers */
static void test_vector_constant(void **state) {
  (void)state;
  CHECK(H("%h1", "0x3fc0") " mov.b32 %f1, {0, %h1};\n" S32(0, "%f1")   /* 1.5f */
        " mov.b32 %r1, {%h1, 0};\n" S32(8, "%r1")
        " mov.b64 %rd3, {%r1, 7};\n" S64(16, "%rd3"),
        0x3fc00000, 0x00003fc0, 0x0000000700003fc0ull);
}

/* Atomics: all 32 lanes add to one word of lane 0's slots, which must end
 * as 32 times the operand; exactly, since the sums stay small integers. */
static void test_atomics(void **state) {
  (void)state;
  static uint64_t out[32][NSLOT];
  tu_run_warp(head, H("%h1", "0x3c00") " atom.global.add.noftz.f16 %h2, [%rd1+200], %h1;\n"
           W("%r1", "0x3c004000") " atom.global.add.noftz.f16x2 %r2, [%rd1+208], %r1;\n"
           H("%h3", "0x3f80") " red.global.add.noftz.bf16 [%rd1+216], %h3;\n"
           W("%r3", "0xbf803f80") " red.global.add.noftz.bf16x2 [%rd1+224], %r3;\n"
           H("%h4", "0x0000") H("%h5", "0x1234") " atom.global.cas.b16 %h6, [%rd1+232], %h4, %h5;\n"
           " .shared .align 4 .b32 sm;\n st.shared.b32 [sm], 0;\n bar.sync 0;\n"
           " atom.shared.add.noftz.f16x2 %r5, [sm], %r1;\n bar.sync 0;\n ld.shared.b32 %r6, [sm];\n"
           S32(240, "%r6"),
           out, NULL);
  assert_int_equal(out[0][25], 0x5000);     /* 32 * 1.0 = 2^5: exponent 20 */
  assert_int_equal(out[0][26], 0x50005400); /* {32 * 2.0, 32 * 1.0} */
  assert_int_equal(out[0][27], 0x4200);     /* bf16 32.0 */
  assert_int_equal(out[0][28], 0xc2004200); /* {32, -32} */
  assert_int_equal(out[0][29], 0x1234);     /* the first cas wins */
  assert_int_equal(out[0][30], 0x50005400); /* shared memory too */
}

/* Half forms that PTX lacks are refused at load time with a located error */
static void test_refused(void **state) {
  (void)state;
  static uint64_t out[32][NSLOT];
  char *err = NULL;
  int rc = tu_run_warp(head, H("%h1", "0x3c00") " div.rn.f16 %h2, %h1, %h1;\n", out, &err);
  assert_int_not_equal(rc, 0);
  assert_non_null(err);
  if (!strstr(err, "no half-precision form of div.f16") || !strstr(err, "div.rn.f16 %h2, %h1, %h1;") ||
      !strstr(err, "^"))
    fail_msg("unexpected message:\n%s", err);
  free(err);
  err = NULL;
  rc = tu_run_warp(head, W("%r1", "0x3c003c00") " sqrt.rn.f16x2 %r2, %r1;\n", out, &err);
  assert_int_not_equal(rc, 0);
  if (!err || !strstr(err, "no half-precision form of sqrt.f16x2")) fail_msg("unexpected message:\n%s", err);
  free(err);
  rc = tu_run_warp(head, " mov.f32 %f1, 0f3F800000;\n cvt.rna.f16.f32 %h1, %f1;\n", out, &err);
  assert_int_not_equal(rc, 0);
  if (!err || !strstr(err, ".rna is for cvt.rna.tf32.f32 only")) fail_msg("unexpected message:\n%s", err);
  free(err);
  rc = tu_run_warp(head, " mov.f32 %f1, 0f3F800000;\n max.NaN.f64 %fd1, %fd2, %fd3;\n", out, &err);
  assert_int_not_equal(rc, 0);
  if (!err || !strstr(err, "max.NaN and .xorsign.abs are for .f32 and the half types"))
    fail_msg("unexpected message:\n%s", err);
  free(err);
}

/* --- the intrinsics of <cuda_fp16.h>/<cuda_bf16.h> (tests/data/half_intrinsics.cu) ---
 * Every result the PTX ISA defines is checked bit for bit against the
 * operation in double rounded once (util/half.h), in the kernel's order;
 * the header functions built on f32 approximations (hsqrt, hrcp, hexp2,
 * hlog2, __hdiv, htanh) within one unit in the last place. */

typedef struct Ref {
  WmFloatFmt f;
  uint32_t one; /* 1.0 */
} Ref;

static uint32_t R(const Ref *r, double v) { return wm_to_narrow(r->f, v, WM_RND_NEAREST); }
static double V(const Ref *r, uint32_t h) { return wm_from_narrow(r->f, h); }
/* .sat's range is [+0, 1] (so -0 becomes +0, as CUDA documents for __saturatef) */
static double clamp01(double v) { return v <= 0 ? 0 : v > 1 ? 1 : v; }
static double relu(double v) { return v < 0 ? 0 : v; }

static void expect_near(const Ref *r, const char *what, int i, uint16_t got, double exact) {
  if (!isfinite(exact)) return;
  if (exact == 0) {
    if (V(r, got) != 0) fail_msg("%s[%d] = %a, exact 0", what, i, V(r, got));
    return;
  }
  double ulp = ldexp(1.0, (int)floor(log2(fabs(exact))) - r->f.mbits);
  if (!(fabs(V(r, got) - exact) <= ulp)) fail_msg("%s[%d] = %a, exact %a", what, i, V(r, got), exact);
}

static void check_intrinsics(const char *kernel, const char *type, const Ref *r) {
  SimRun run;
  static PtxModule *m;
  if (!m) m = tu_load(tu_data("half_intrinsics.ptx"));
  char a[64], b[64], out[64], approx[64];
  snprintf(a, sizeof a, "buf:%s:256:rand", type);
  snprintf(b, sizeof b, "buf:%s:256:rand", type);
  snprintf(out, sizeof out, "buf:%s:5632:zero", type);
  snprintf(approx, sizeof approx, "buf:%s:1536:zero", type);
  tu_launch(&run, m, kernel, "2", "128", 0, a, b, "buf:f32:256:rand", out, "buf:u32:2304:zero",
            "buf:i32:1024:zero", approx, "i32:256", NULL);
  const uint16_t *in_a = tu_arg_buf(&run, 0, 2, 256), *in_b = tu_arg_buf(&run, 1, 2, 256);
  const float *fin = tu_arg_buf(&run, 2, 4, 256);
  const uint16_t *o = tu_arg_buf(&run, 3, 2, 5632), *ap = tu_arg_buf(&run, 6, 2, 1536);
  const uint32_t *pr = tu_arg_buf(&run, 4, 4, 2304);
  const int32_t *in = tu_arg_buf(&run, 5, 4, 1024);
  const int n = 256;
  for (int i = 0; i < n; i++) {
    uint32_t xb = R(r, V(r, R(r, V(r, in_a[i]) * 16)) - 8), yb = R(r, V(r, R(r, V(r, in_b[i]) * 4)) - 1);
    double x = V(r, xb), y = V(r, yb);
    float f = fmaf(fin[i], 70000.0f, -35000.0f);
    const uint32_t want[22] = {
      R(r, x + y), R(r, x - y), R(r, x * y), R(r, x * y + x), R(r, relu(x * y + y)), xb ^ 0x8000u,
      xb & 0x7fffu, x > y ? xb : yb, x < y ? xb : yb, R(r, clamp01(x + y)), R(r, clamp01(x * y)),
      wm_to_narrow(r->f, f, WM_RND_ZERO), wm_to_narrow(r->f, f, WM_RND_DOWN), wm_to_narrow(r->f, f, WM_RND_UP),
      R(r, f), R(r, (double)(int)f), R(r, floor(x)), R(r, ceil(x)), R(r, trunc(x)), R(r, nearbyint(x)),
      R(r, (double)f * 1.0000001), R(r, y - x)};
    for (int k = 0; k < 22; k++)
      if (o[k * n + i] != want[k])
        fail_msg("%s op %d, thread %d (x %a, y %a, f %a): 0x%04x, expected 0x%04x", kernel, k, i, x, y, (double)f,
                 o[k * n + i], want[k]);
    const uint32_t lo[9] = {R(r, x + y), R(r, x * y), R(r, x * y + x), x > y ? xb : yb, x < y ? xb : yb,
                            xb & 0x7fffu, x < y ? r->one : 0, R(r, relu(x * y + y)), R(r, x - y)};
    const uint32_t hi[9] = {R(r, y + x), R(r, y * x), R(r, y * x + y), y > x ? yb : xb, y < x ? yb : xb,
                            yb & 0x7fffu, y < x ? r->one : 0, R(r, relu(y * x + x)), R(r, y - x)};
    for (int k = 0; k < 9; k++)
      if (pr[k * n + i] != (hi[k] << 16 | lo[k]))
        fail_msg("%s pair op %d, thread %d: 0x%08x, expected 0x%08x", kernel, k, i, pr[k * n + i],
                 hi[k] << 16 | lo[k]);
    const int32_t wi[4] = {(int32_t)nearbyint(x), x < y, !(x < y), 1};
    for (int k = 0; k < 4; k++)
      if (in[k * n + i] != wi[k]) fail_msg("%s int op %d, thread %d: %d, expected %d", kernel, k, i, in[k * n + i], wi[k]);
    expect_near(r, "hsqrt", i, ap[0 * n + i], sqrt(fabs(x)));
    if (y != 0) expect_near(r, "hrcp", i, ap[1 * n + i], 1 / y);
    expect_near(r, "hexp2", i, ap[2 * n + i], exp2(y));
    if (x != 0) expect_near(r, "hlog2", i, ap[3 * n + i], log2(fabs(x)));
    if (y != 0) expect_near(r, "hdiv", i, ap[4 * n + i], x / y);
    expect_near(r, "htanh", i, ap[5 * n + i], tanh(y));
  }
  sim_run_free(&run);
}

static void test_intrinsics_f16(void **state) {
  (void)state;
  const Ref r = {wm_fmt_f16, 0x3c00};
  check_intrinsics("half_ops", "f16", &r);
}

static void test_intrinsics_bf16(void **state) {
  (void)state;
  const Ref r = {wm_fmt_bf16, 0x3f80};
  check_intrinsics("bf16_ops", "bf16", &r);
}

/* fp8 (tests/data/half_intrinsics.cu fp8_ops): each conversion is the
 * value rounded once to e4m3 or e5m2, out-of-range values saturated to the
 * largest finite one (.satfinite); widening back to f16 is exact. */
static uint32_t fp8_sat(WmFloatFmt f, double v) {
  uint32_t r = wm_to_narrow(f, v, WM_RND_NEAREST), sign = r & 0x80u, mag = r & 0x7fu;
  uint32_t top = f.finite ? 0x7fu : 0x7cu, max = f.finite ? 0x7eu : 0x7bu; /* overflow's bits, largest */
  return mag == top ? sign | max : r;
}

static void test_intrinsics_fp8(void **state) {
  (void)state;
  SimRun run;
  PtxModule *m = tu_load(tu_data("half_intrinsics.ptx"));
  tu_launch(&run, m, "fp8_ops", "1", "64", 0, "buf:f32:64:rand", "buf:u8:64:zero", "buf:u8:64:zero",
            "buf:f16:128:zero", "i32:64", NULL);
  const float *x = tu_arg_buf(&run, 0, 4, 64);
  const uint8_t *q4 = tu_arg_buf(&run, 1, 1, 64), *q5 = tu_arg_buf(&run, 2, 1, 64);
  const uint16_t *back = tu_arg_buf(&run, 3, 2, 128);
  int saturated = 0;
  for (int i = 0; i < 64; i++) {
    float v = fmaf(x[i], 1200.0f, -600.0f), w = v * 200.0f;
    uint32_t w4 = fp8_sat(wm_fmt_e4m3, v), w5 = fp8_sat(wm_fmt_e5m2, w), wlo = w4;
    uint32_t whi = fp8_sat(wm_fmt_e4m3, -0.5f * v);
    saturated += (w4 & 0x7f) == 0x7e;
    if (q4[i] != w4) fail_msg("e4m3(%a) = 0x%02x, expected 0x%02x", (double)v, q4[i], w4);
    if (q5[i] != w5) fail_msg("e5m2(%a) = 0x%02x, expected 0x%02x", (double)w, q5[i], w5);
    uint16_t blo = (uint16_t)wm_to_narrow(wm_fmt_f16, wm_from_narrow(wm_fmt_e4m3, wlo), WM_RND_NEAREST);
    uint16_t bhi = (uint16_t)wm_to_narrow(wm_fmt_f16, wm_from_narrow(wm_fmt_e4m3, whi), WM_RND_NEAREST);
    if (back[2 * i] != blo || back[2 * i + 1] != bhi)
      fail_msg("back[%d] = {0x%04x, 0x%04x}, expected {0x%04x, 0x%04x}", i, back[2 * i], back[2 * i + 1], blo, bhi);
  }
  assert_true(saturated > 0); /* the range does reach past 448 */
  sim_run_free(&run);
  ptx_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_add_f16), cmocka_unit_test(test_pairs),   cmocka_unit_test(test_fma_once),
    cmocka_unit_test(test_minmax),  cmocka_unit_test(test_setp_set), cmocka_unit_test(test_cvt),
    cmocka_unit_test(test_cvt_fp8), cmocka_unit_test(test_ex2_tanh), cmocka_unit_test(test_atomics),
    cmocka_unit_test(test_refused), cmocka_unit_test(test_vector_constant), cmocka_unit_test(test_intrinsics_f16),
    cmocka_unit_test(test_intrinsics_bf16), cmocka_unit_test(test_intrinsics_fp8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
