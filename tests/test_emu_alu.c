/* test_emu_alu.c - instruction semantics against the PTX ISA.
 *
 * Each test is a kernel body run by 32 threads (one warp); thread t writes
 * up to 32 u64 result slots at out[t*32 + i] (a narrower store leaves the
 * rest of the slot zero).  The prologue leaves %r0 = %tid.x and %rd0 = the
 * thread's first slot.  Expected values follow the PTX ISA's semantics.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NSLOT TU_NSLOT

static const char head[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_out)\n{\n"
  " .reg .b32 %r<40>;\n .reg .b64 %rd<40>;\n .reg .f32 %f<16>;\n .reg .f64 %fd<16>;\n"
  " .reg .pred %p<8>;\n .reg .b16 %h<8>;\n"
  " ld.param.u64 %rd1, [p_out];\n cvta.to.global.u64 %rd1, %rd1;\n"
  " mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd2, %r0, 256;\n add.s64 %rd0, %rd1, %rd2;\n";

#define CHECK(body, ...)                                            \
  do {                                                              \
    static const uint64_t w_[] = {__VA_ARGS__};                     \
    tu_check_warp(__func__, head, body, w_, (int)(sizeof w_ / sizeof *w_));   \
  } while (0)

/* stores: slot i */
/* stores to the slot at byte offset `o` (a multiple of 8) */
#define S32(o, r) " st.global.u32 [%rd0+" #o "], " r ";\n"
#define S64(o, r) " st.global.u64 [%rd0+" #o "], " r ";\n"
#define S16(o, r) " st.global.u16 [%rd0+" #o "], " r ";\n"
#define S8(o, r) " st.global.u8 [%rd0+" #o "], " r ";\n"
#define SP(o, p) " selp.u32 %r39, 1, 0, " p ";\n" S32(o, "%r39")

/* float -> integer: saturates to the destination's range, NaN gives 0 */
static void test_cvt_f2i_saturate(void **state) {
  (void)state;
  CHECK(" mov.f32 %f1, 0f7FC00000;\n" /* NaN */
        " mov.f32 %f2, 0f4F800000;\n" /* 2^32 */
        " mov.f32 %f3, 0fCF800000;\n" /* -2^32 */
        " mov.f32 %f4, 0f7149F2CA;\n" /* 1e30 */
        " cvt.rzi.s8.f32 %r1, %f1;\n" S8(0, "%r1")
        " cvt.rzi.u8.f32 %r1, %f1;\n" S8(8, "%r1")
        " cvt.rzi.s16.f32 %h1, %f1;\n" S16(16, "%h1")
        " cvt.rzi.u16.f32 %h1, %f1;\n" S16(24, "%h1")
        " cvt.rzi.s32.f32 %r1, %f1;\n" S32(32, "%r1")
        " cvt.rzi.u32.f32 %r1, %f1;\n" S32(40, "%r1")
        " cvt.rzi.s64.f32 %rd3, %f1;\n" S64(48, "%rd3")
        " cvt.rzi.u64.f32 %rd3, %f1;\n" S64(56, "%rd3")
        " cvt.rzi.s8.f32 %r1, %f2;\n" S8(64, "%r1")
        " cvt.rzi.u8.f32 %r1, %f2;\n" S8(72, "%r1")
        " cvt.rzi.s16.f32 %h1, %f2;\n" S16(80, "%h1")
        " cvt.rzi.u16.f32 %h1, %f2;\n" S16(88, "%h1")
        " cvt.rzi.s32.f32 %r1, %f2;\n" S32(96, "%r1")
        " cvt.rzi.u32.f32 %r1, %f2;\n" S32(104, "%r1")
        " cvt.rzi.s64.f32 %rd3, %f2;\n" S64(112, "%rd3")
        " cvt.rzi.u64.f32 %rd3, %f2;\n" S64(120, "%rd3")
        " cvt.rzi.s8.f32 %r1, %f3;\n" S8(128, "%r1")
        " cvt.rzi.u8.f32 %r1, %f3;\n" S8(136, "%r1")
        " cvt.rzi.s16.f32 %h1, %f3;\n" S16(144, "%h1")
        " cvt.rzi.u16.f32 %h1, %f3;\n" S16(152, "%h1")
        " cvt.rzi.s32.f32 %r1, %f3;\n" S32(160, "%r1")
        " cvt.rzi.u32.f32 %r1, %f3;\n" S32(168, "%r1")
        " cvt.rzi.s64.f32 %rd3, %f3;\n" S64(176, "%rd3")
        " cvt.rzi.u64.f32 %rd3, %f3;\n" S64(184, "%rd3")
        " cvt.rzi.s64.f32 %rd3, %f4;\n" S64(192, "%rd3")
        " cvt.rzi.u64.f32 %rd3, %f4;\n" S64(200, "%rd3")
        " neg.f32 %f4, %f4;\n"
        " cvt.rzi.s64.f32 %rd3, %f4;\n" S64(208, "%rd3")
        " cvt.rzi.u64.f32 %rd3, %f4;\n" S64(216, "%rd3")
        " mov.f64 %fd1, 0d7FF0000000000000;\n" /* +inf */
        " cvt.rzi.s32.f64 %r1, %fd1;\n" S32(224, "%r1")
        " mov.f64 %fd1, 0dC1E0000000200000;\n" /* -2147483649 */
        " cvt.rzi.s32.f64 %r1, %fd1;\n" S32(232, "%r1"),
        0, 0, 0, 0, 0, 0, 0, 0,
        0x7f, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0xffffffff, 4294967296ull, 4294967296ull,
        0x80, 0, 0x8000, 0, 0x80000000, 0, (uint64_t)-4294967296ll, 0,
        (uint64_t)INT64_MAX, UINT64_MAX, (uint64_t)INT64_MIN, 0, 0x7fffffff, 0x80000000);
}

/* .rni rounds to nearest, ties to even; .rmi/.rpi floor/ceil */
static void test_cvt_round_int(void **state) {
  (void)state;
  CHECK(" cvt.rni.s32.f32 %r1, 0f40200000;\n" S32(0, "%r1")   /* 2.5 -> 2 */
        " cvt.rni.s32.f32 %r1, 0f40600000;\n" S32(8, "%r1")   /* 3.5 -> 4 */
        " cvt.rni.s32.f32 %r1, 0fC0200000;\n" S32(16, "%r1")  /* -2.5 -> -2 */
        " cvt.rni.s32.f32 %r1, 0f3F000000;\n" S32(24, "%r1")  /* 0.5 -> 0 */
        " cvt.rni.f32.f32 %f1, 0f40200000;\n" S32(32, "%f1")  /* 2.5 -> 2.0 */
        " cvt.rmi.s32.f32 %r1, 0fC0200000;\n" S32(40, "%r1")  /* -2.5 -> -3 */
        " cvt.rpi.s32.f32 %r1, 0f40066666;\n" S32(48, "%r1")  /* 2.1 -> 3 */
        " cvt.rzi.s32.f32 %r1, 0fC0200000;\n" S32(56, "%r1")  /* -2.5 -> -2 */
        " cvt.rni.s64.f64 %rd3, 0d4016000000000000;\n" S64(64, "%rd3"), /* 5.5 -> 6 */
        2, 4, 0xfffffffe, 0, 0x40000000, 0xfffffffd, 3, 0xfffffffe, 6);
}

/* integer -> integer: .sat clamps to the destination range; without it
 * the source is sign- or zero-extended per its type, then truncated */
static void test_cvt_int(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 300;\n mov.u32 %r2, -300;\n mov.u32 %r3, -5;\n mov.u32 %r4, 70000;\n"
        " mov.u32 %r5, 0xffffffff;\n mov.u64 %rd3, -1;\n mov.u64 %rd4, 0x100000000;\n"
        " cvt.sat.s8.s32 %r10, %r1;\n" S8(0, "%r10")
        " cvt.sat.s8.s32 %r10, %r2;\n" S8(8, "%r10")
        " cvt.sat.u8.s32 %r10, %r3;\n" S8(16, "%r10")
        " cvt.sat.u16.u32 %h1, %r4;\n" S16(24, "%h1")
        " cvt.sat.s32.u32 %r10, %r5;\n" S32(32, "%r10")
        " cvt.sat.u32.s64 %r10, %rd3;\n" S32(40, "%r10")
        " cvt.sat.s32.s64 %r10, %rd4;\n" S32(48, "%r10")
        " cvt.sat.u64.s32 %rd5, %r5;\n" S64(56, "%rd5")
        " cvt.s64.s32 %rd5, %r5;\n" S64(64, "%rd5")
        " cvt.u64.s32 %rd5, %r5;\n" S64(72, "%rd5")
        " cvt.u64.u32 %rd5, %r5;\n" S64(80, "%rd5")
        " mov.u64 %rd6, 0x123456789;\n cvt.u32.u64 %r10, %rd6;\n" S32(88, "%r10")
        " mov.u32 %r6, 0x180;\n cvt.s32.s8 %r10, %r6;\n" S32(96, "%r10")
        " cvt.u32.u8 %r10, %r6;\n" S32(104, "%r10")
        " cvt.sat.s16.s64 %h1, %rd3;\n" S16(112, "%h1")
        " cvt.sat.u8.u64 %r10, %rd4;\n" S8(120, "%r10"),
        0x7f, 0x80, 0, 0xffff, 0x7fffffff, 0, 0x7fffffff, 0,
        UINT64_MAX, UINT64_MAX, 0xffffffff, 0x23456789, 0xffffff80, 0x80, 0xffff, 0xff);
}

/* f64 -> f32 rounds per the mode; ties to even by default */
static void test_cvt_f64_f32(void **state) {
  (void)state;
  CHECK(" cvt.rn.f32.f64 %f1, 0d3FF0000010000000;\n" S32(0, "%f1")   /* 1+2^-24: tie -> 1 */
        " cvt.rn.f32.f64 %f1, 0d3FF0000030000000;\n" S32(8, "%f1")   /* 1+3*2^-24: tie -> 1+2^-22 */
        " cvt.rz.f32.f64 %f1, 0d3FF0000001F00000;\n" S32(16, "%f1")  /* just under 1+2^-23 */
        " cvt.rp.f32.f64 %f1, 0d3FF0000000400000;\n" S32(24, "%f1")  /* 1+2^-30 up */
        " cvt.rm.f32.f64 %f1, 0dBFF0000000400000;\n" S32(32, "%f1")  /* -(1+2^-30) down */
        " cvt.rz.f32.f64 %f1, 0d47F0000000000000;\n" S32(40, "%f1")  /* 2^128 -> FLT_MAX */
        " cvt.rn.f32.f64 %f1, 0d47F0000000000000;\n" S32(48, "%f1")  /* -> inf */
        " cvt.f64.f32 %fd1, 0f3FC00000;\n" S64(56, "%fd1"),
        0x3f800000, 0x3f800002, 0x3f800000, 0x3f800001, 0xbf800001, 0x7f7fffff, 0x7f800000,
        0x3FF8000000000000ull);
}

/* cvt to f16 in each rounding mode (half bits computed by hand: 1/3 lies
 * between 0x3555 = 0.33325 and 0x3556 = 0.33350, nearer the first; 70000
 * is past the largest half, 65504 = 0x7bff), and a double just above a tie
 * (1 + 2^-11 + 2^-40) that rounding through float would turn into a tie. */
static void test_cvt_f16(void **state) {
  (void)state;
  CHECK(" mov.f32 %f1, 0f3EAAAAAB;\n mov.f32 %f2, 0fBEAAAAAB;\n"
        " mov.f32 %f3, 0f4788B800;\n mov.f32 %f4, 0fC788B800;\n"
        " cvt.rn.f16.f32 %h1, %f1;\n" S16(0, "%h1") " cvt.rz.f16.f32 %h1, %f1;\n" S16(8, "%h1")
        " cvt.rm.f16.f32 %h1, %f1;\n" S16(16, "%h1") " cvt.rp.f16.f32 %h1, %f1;\n" S16(24, "%h1")
        " cvt.rn.f16.f32 %h1, %f2;\n" S16(32, "%h1") " cvt.rz.f16.f32 %h1, %f2;\n" S16(40, "%h1")
        " cvt.rm.f16.f32 %h1, %f2;\n" S16(48, "%h1") " cvt.rp.f16.f32 %h1, %f2;\n" S16(56, "%h1")
        " cvt.rn.f16.f32 %h1, %f3;\n" S16(64, "%h1") " cvt.rz.f16.f32 %h1, %f3;\n" S16(72, "%h1")
        " cvt.rm.f16.f32 %h1, %f3;\n" S16(80, "%h1") " cvt.rp.f16.f32 %h1, %f3;\n" S16(88, "%h1")
        " cvt.rn.f16.f32 %h1, %f4;\n" S16(96, "%h1") " cvt.rz.f16.f32 %h1, %f4;\n" S16(104, "%h1")
        " cvt.rm.f16.f32 %h1, %f4;\n" S16(112, "%h1") " cvt.rp.f16.f32 %h1, %f4;\n" S16(120, "%h1")
        " mov.f64 %fd1, 0d3FF0020000001000;\n cvt.rn.f16.f64 %h1, %fd1;\n" S16(128, "%h1"),
        0x3555, 0x3555, 0x3555, 0x3556, 0xb555, 0xb555, 0xb556, 0xb555,
        0x7c00, 0x7bff, 0x7bff, 0x7c00, 0xfc00, 0xfbff, 0xfc00, 0xfbff, 0x3c01);
}

/* shifts clamp amounts >= the width; shr.s fills with the sign */
static void test_shifts(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 1;\n mov.u32 %r2, 0x80000000;\n mov.u32 %r3, -8;\n mov.u32 %r4, 0xffffffff;\n"
        " shl.b32 %r10, %r1, 32;\n" S32(0, "%r10")
        " shl.b32 %r10, %r1, 31;\n" S32(8, "%r10")
        " shr.u32 %r10, %r2, 40;\n" S32(16, "%r10")
        " shr.s32 %r10, %r2, 40;\n" S32(24, "%r10")
        " shr.s32 %r10, %r3, 1;\n" S32(32, "%r10")
        " shl.b32 %r10, %r1, %r4;\n" S32(40, "%r10")
        " shr.s32 %r10, %r3, %r4;\n" S32(48, "%r10")
        " mov.u64 %rd3, 1;\n shl.b64 %rd4, %rd3, 64;\n" S64(56, "%rd4")
        " mov.u64 %rd3, 0x8000000000000000;\n shr.s64 %rd4, %rd3, 100;\n" S64(64, "%rd4")
        " shr.u64 %rd4, %rd3, 63;\n" S64(72, "%rd4")
        " mov.u16 %h1, 0x8000;\n shr.u16 %h2, %h1, 15;\n" S16(80, "%h2")
        " shr.s16 %h2, %h1, 15;\n" S16(88, "%h2")
        " shr.s16 %h2, %h1, 20;\n" S16(96, "%h2")
        " shl.b16 %h2, %h1, 1;\n" S16(104, "%h2")
        " shr.b32 %r10, %r2, 4;\n" S32(112, "%r10"),
        0, 0x80000000, 0, 0xffffffff, 0xfffffffc, 0, 0xffffffff, 0, UINT64_MAX, 1, 1, 0xffff, 0xffff, 0,
        0x08000000);
}

/* bfe: d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit, with
 * sbit = a[min(pos+len-1, msb)] for signed types, 0 for unsigned or len 0 */
/* bmsk and szext (CUB's radix sort emits them): the values the PTX ISA's
 * semantics give, worked by hand (a1 = a & 31, b1 = b & 31; .clamp makes
 * a >= 32 an empty mask and b >= 32 a mask to bit 31 / the whole value). */
static void test_bmsk_szext(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 33;\n mov.u32 %r2, 2;\n"
        " bmsk.wrap.b32 %r10, 1, 2;\n" S32(0, "%r10")       /* the ISA's example: 0x6 */
        " bmsk.clamp.b32 %r10, 4, 32;\n" S32(8, "%r10")     /* bits 4..31 */
        " bmsk.wrap.b32 %r10, 4, 32;\n" S32(16, "%r10")     /* width 32 mod 32 = 0: none */
        " bmsk.clamp.b32 %r10, %r1, %r2;\n" S32(24, "%r10") /* from bit 33: none */
        " bmsk.wrap.b32 %r10, %r1, %r2;\n" S32(32, "%r10")  /* from bit 1 */
        " bmsk.clamp.b32 %r10, 28, 8;\n" S32(40, "%r10")    /* past bit 31: cut there */
        " bmsk.clamp.b32 %r10, 0, 31;\n" S32(48, "%r10")
        " mov.u32 %r3, 0xffffffff;\n mov.u32 %r4, 0xf0;\n mov.u32 %r5, 0x80000070;\n mov.u32 %r6, 0x70;\n"
        " szext.wrap.u32 %r10, %r3, 0;\n" S32(56, "%r10")   /* the ISA's example: 0 */
        " szext.clamp.s32 %r10, %r4, 8;\n" S32(64, "%r10")  /* bit 7 set: negative */
        " szext.clamp.u32 %r10, %r4, 8;\n" S32(72, "%r10")
        " szext.clamp.s32 %r10, %r5, 32;\n" S32(80, "%r10") /* 32 bits: a itself */
        " szext.wrap.s32 %r10, %r5, 32;\n" S32(88, "%r10")  /* 32 mod 32 = 0 bits: 0 */
        " szext.wrap.s32 %r10, %r6, 7;\n" S32(96, "%r10")   /* bit 6 of 0x70 set */
        " szext.clamp.s32 %r10, %r5, 100;\n" S32(104, "%r10"),
        0x6, 0xfffffff0, 0, 0, 0x6, 0xf0000000, 0x7fffffff, 0, 0xfffffff0, 0xf0, 0x80000070, 0, 0xfffffff0,
        0x80000070);
}

static void test_bfe(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 0x12345678;\n mov.u32 %r2, 0x0000F000;\n mov.u32 %r3, 0x80000000;\n"
        " mov.u32 %r4, 0x00000070;\n mov.u32 %r5, 0xF0000000;\n mov.u32 %r6, 264;\n"
        " bfe.u32 %r10, %r1, 8, 8;\n" S32(0, "%r10")
        " bfe.s32 %r10, %r2, 12, 4;\n" S32(8, "%r10")
        " bfe.s32 %r10, %r3, 28, 8;\n" S32(16, "%r10")
        " bfe.u32 %r10, %r1, 40, 8;\n" S32(24, "%r10")
        " bfe.s32 %r10, %r3, 40, 8;\n" S32(32, "%r10")
        " bfe.s32 %r10, %r3, 4, 0;\n" S32(40, "%r10")
        " bfe.u32 %r10, %r5, 28, 8;\n" S32(48, "%r10")
        " bfe.s32 %r10, %r4, 4, 3;\n" S32(56, "%r10")
        " bfe.u32 %r10, %r1, %r6, 8;\n" S32(64, "%r10")
        " bfe.s32 %r10, %r5, 4, 32;\n" S32(72, "%r10")
        " bfe.u32 %r10, %r5, 4, 32;\n" S32(80, "%r10")
        " mov.u64 %rd3, 0x8000000000000000;\n mov.u64 %rd4, 0x123456789abcdef0;\n"
        " bfe.s64 %rd5, %rd3, 60, 10;\n" S64(88, "%rd5")
        " bfe.u64 %rd5, %rd4, 32, 16;\n" S64(96, "%rd5")
        " bfe.s64 %rd5, %rd4, 4, 0;\n" S64(104, "%rd5")
        " bfe.s32 %r10, %r1, 0, 32;\n" S32(112, "%r10")
        " bfe.s32 %r10, %r5, 0, 200;\n" S32(120, "%r10"),
        0x56, 0xffffffff, 0xfffffff8, 0, 0xffffffff, 0, 0xf, 0xffffffff, 0x56, 0xff000000, 0x0f000000,
        0xfffffffffffffff8ull, 0x5678, 0, 0x12345678, 0xf0000000);
}

/* bfi: f = b; f[pos+i] = a[i] for i < len and pos+i <= msb */
static void test_bfi(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 0xAB;\n mov.u32 %r2, 0x12345678;\n mov.u32 %r3, 0xFFFF;\n mov.u32 %r4, 0;\n"
        " bfi.b32 %r10, %r1, %r2, 8, 8;\n" S32(0, "%r10")
        " bfi.b32 %r10, %r1, %r2, 8, 0;\n" S32(8, "%r10")
        " bfi.b32 %r10, %r1, %r2, 40, 8;\n" S32(16, "%r10")
        " bfi.b32 %r10, %r3, %r4, 28, 8;\n" S32(24, "%r10")
        " mov.u64 %rd3, 0xF;\n mov.u64 %rd4, 0;\n"
        " bfi.b64 %rd5, %rd3, %rd4, 60, 8;\n" S64(32, "%rd5"),
        0x1234AB78, 0x12345678, 0x12345678, 0xF0000000, 0xF000000000000000ull);
}

/* prmt default mode: byte i of d = byte sel[i]&7 of {b,a}, sign-replicated
 * when sel[i]&8 */
static void test_prmt(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 0x03020100;\n mov.u32 %r2, 0x07060504;\n mov.u32 %r3, 0x80;\n"
        " prmt.b32 %r10, %r1, %r2, 0x4321;\n" S32(0, "%r10")
        " prmt.b32 %r10, %r1, %r2, 0x7654;\n" S32(8, "%r10")
        " prmt.b32 %r10, %r3, %r1, 0x8888;\n" S32(16, "%r10")
        " prmt.b32 %r10, %r3, %r1, 0x0008;\n" S32(24, "%r10"),
        0x04030201, 0x07060504, 0xffffffff, 0x808080ff);
}

/* min/max return the non-NaN operand */
static void test_minmax(void **state) {
  (void)state;
  CHECK(" mov.f32 %f1, 0f7FC00000;\n mov.f32 %f2, 0f3F800000;\n"
        " min.f32 %f3, %f1, %f2;\n" S32(0, "%f3")
        " max.f32 %f3, %f2, %f1;\n" S32(8, "%f3")
        " min.f32 %f3, %f2, 0fBF800000;\n" S32(16, "%f3")
        " mov.f64 %fd1, 0d7FF8000000000000;\n mov.f64 %fd2, 0d4000000000000000;\n"
        " min.f64 %fd3, %fd1, %fd2;\n" S64(24, "%fd3")
        " max.f64 %fd3, %fd2, %fd1;\n" S64(32, "%fd3")
        " mov.u32 %r1, -1;\n mov.u32 %r2, 1;\n"
        " min.s32 %r10, %r1, %r2;\n" S32(40, "%r10")
        " min.u32 %r10, %r1, %r2;\n" S32(48, "%r10")
        " max.s32 %r10, %r1, %r2;\n" S32(56, "%r10")
        " max.u32 %r10, %r1, %r2;\n" S32(64, "%r10")
        " mov.u16 %h1, 0x8000;\n mov.u16 %h2, 1;\n min.s16 %h3, %h1, %h2;\n" S16(72, "%h3")
        " mov.u64 %rd3, -1;\n mov.u64 %rd4, 1;\n min.s64 %rd5, %rd3, %rd4;\n" S64(80, "%rd5")
        " max.u64 %rd5, %rd3, %rd4;\n" S64(88, "%rd5"),
        0x3f800000, 0x3f800000, 0xbf800000, 0x4000000000000000ull, 0x4000000000000000ull, 0xffffffff, 1, 1,
        0xffffffff, 0x8000, UINT64_MAX, UINT64_MAX);
}

static void test_mul(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, -2;\n mov.u32 %r2, 3;\n mov.u32 %r3, 0xffffffff;\n mov.u32 %r4, 5;\n"
        " mul.hi.s32 %r10, %r1, %r2;\n" S32(0, "%r10")
        " mul.hi.u32 %r10, %r3, %r3;\n" S32(8, "%r10")
        " mul.wide.s32 %rd3, %r1, %r2;\n" S64(16, "%rd3")
        " mul.wide.u32 %rd3, %r3, 2;\n" S64(24, "%rd3")
        " mov.u64 %rd4, -1;\n mov.u64 %rd5, 1;\n mov.u64 %rd6, 0x8000000000000000;\n"
        " mul.hi.s64 %rd3, %rd4, %rd5;\n" S64(32, "%rd3")
        " mul.hi.u64 %rd3, %rd4, %rd4;\n" S64(40, "%rd3")
        " mul.hi.s64 %rd3, %rd6, %rd6;\n" S64(48, "%rd3")
        " mad.hi.u32 %r10, %r3, %r3, %r4;\n" S32(56, "%r10")
        " mad.hi.s32 %r10, %r1, %r2, %r4;\n" S32(64, "%r10")
        " mad.lo.s32 %r10, %r1, %r2, %r4;\n" S32(72, "%r10")
        " mov.u64 %rd7, 10;\n mad.wide.s32 %rd3, %r1, %r2, %rd7;\n" S64(80, "%rd3")
        " mul.lo.u64 %rd3, %rd4, %rd4;\n" S64(88, "%rd3")
        " mad.hi.u64 %rd3, %rd4, %rd4, %rd7;\n" S64(96, "%rd3")
        " mov.u16 %h1, -2;\n mov.u16 %h2, 3;\n mul.wide.s16 %r10, %h1, %h2;\n" S32(104, "%r10")
        " mul.hi.s16 %h3, %h1, %h2;\n" S16(112, "%h3")
        " mul.hi.u16 %h3, %h1, %h2;\n" S16(120, "%h3")
        " mul24.lo.s32 %r10, %r1, %r2;\n" S32(128, "%r10")
        " mul24.hi.u32 %r10, %r3, %r3;\n" S32(136, "%r10")
        " mov.u32 %r5, 0x40000000;\n mov.u32 %r6, 0x7fffffff;\n"
        " mad.hi.sat.s32 %r10, %r5, %r5, %r6;\n" S32(144, "%r10")  /* 2^28 + MAX clamps */
        " mad.hi.s32 %r10, %r5, %r5, %r6;\n" S32(152, "%r10"),
        0xffffffff, 0xfffffffe, 0xfffffffffffffffaull, 0x1fffffffeull, UINT64_MAX, 0xfffffffffffffffeull,
        0x4000000000000000ull, 3, 4, 0xffffffff, 4, 1, 8, 0xfffffffa, 0xffff, 2,
        0xfffffffa, 0xfffffe00, 0x7fffffff, 0x8fffffff);
}

static void test_div_rem_abs(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, -7;\n mov.u32 %r2, 2;\n mov.u32 %r3, 7;\n mov.u32 %r4, -2;\n"
        " mov.u32 %r5, 0x80000000;\n mov.u32 %r6, -1;\n"
        " div.s32 %r10, %r1, %r2;\n" S32(0, "%r10")
        " rem.s32 %r10, %r1, %r2;\n" S32(8, "%r10")
        " rem.s32 %r10, %r3, %r4;\n" S32(16, "%r10")
        " div.s32 %r10, %r5, %r6;\n" S32(24, "%r10")
        " rem.s32 %r10, %r5, %r6;\n" S32(32, "%r10")
        " div.u32 %r10, %r1, %r2;\n" S32(40, "%r10")
        " abs.s32 %r10, %r5;\n" S32(48, "%r10")
        " abs.s32 %r10, %r1;\n" S32(56, "%r10")
        " neg.s32 %r10, %r5;\n" S32(64, "%r10")
        " mov.u64 %rd3, 0x8000000000000000;\n abs.s64 %rd4, %rd3;\n" S64(72, "%rd4")
        " mov.u16 %h1, 0x8000;\n abs.s16 %h2, %h1;\n" S16(80, "%h2")
        " mov.u64 %rd3, -7;\n mov.u64 %rd5, 2;\n div.s64 %rd4, %rd3, %rd5;\n" S64(88, "%rd4")
        " rem.s64 %rd4, %rd3, %rd5;\n" S64(96, "%rd4")
        " sad.s32 %r10, %r6, %r2, 10;\n" S32(104, "%r10")
        " sad.u32 %r10, %r2, %r3, 0;\n" S32(112, "%r10")
        " mov.u64 %rd6, 0x8000000000000000;\n mov.u64 %rd7, 0x7fffffffffffffff;\n mov.u64 %rd8, 0;\n"
        " sad.s64 %rd4, %rd6, %rd7, %rd8;\n" S64(120, "%rd4")
        " sad.s64 %rd4, %rd7, %rd6, %rd8;\n" S64(128, "%rd4")
        " sad.u64 %rd4, %rd6, %rd7, %rd8;\n" S64(136, "%rd4"),
        0xfffffffd, 0xffffffff, 1, 0x80000000, 0, 0x7ffffffc, 0x80000000, 7, 0x80000000,
        0x8000000000000000ull, 0x8000, (uint64_t)-3, (uint64_t)-1, 13, 5, UINT64_MAX, UINT64_MAX, 1);
}

static void test_bitcount(void **state) {
  (void)state;
  CHECK(" mov.u64 %rd3, -1;\n mov.u64 %rd4, 1;\n mov.u64 %rd5, 0;\n mov.u32 %r1, 1;\n mov.u32 %r2, 0;\n"
        " mov.u32 %r3, -1;\n"
        " popc.b64 %r10, %rd3;\n" S32(0, "%r10")
        " clz.b64 %r10, %rd4;\n" S32(8, "%r10")
        " clz.b64 %r10, %rd5;\n" S32(16, "%r10")
        " brev.b64 %rd6, %rd4;\n" S64(24, "%rd6")
        " brev.b32 %r10, %r1;\n" S32(32, "%r10")
        " popc.b32 %r10, %r3;\n" S32(40, "%r10")
        " clz.b32 %r10, %r2;\n" S32(48, "%r10")
        " clz.b32 %r10, %r1;\n" S32(56, "%r10")
        " bfind.u32 %r10, %r2;\n" S32(64, "%r10")
        " bfind.s32 %r10, %r3;\n" S32(72, "%r10")
        " bfind.shiftamt.u32 %r10, %r1;\n" S32(80, "%r10")
        " bfind.u64 %r10, %rd3;\n" S32(88, "%r10")
        " mov.u32 %r4, 0xfffffff0;\n bfind.s32 %r10, %r4;\n" S32(96, "%r10")
        " not.b32 %r10, %r2;\n" S32(104, "%r10")
        " cnot.b32 %r10, %r2;\n" S32(112, "%r10")
        " cnot.b32 %r10, %r3;\n" S32(120, "%r10"),
        64, 63, 64, 0x8000000000000000ull, 0x80000000, 32, 32, 31, 0xffffffff, 0xffffffff, 31, 63, 3,
        0xffffffff, 1, 0);
}

/* copysign.type d, a, b: the magnitude of b with the sign of a */
static void test_copysign(void **state) {
  (void)state;
  CHECK(" copysign.f32 %f1, 0fBF800000, 0f40000000;\n" S32(0, "%f1")
        " copysign.f32 %f1, 0f3F800000, 0fC0000000;\n" S32(8, "%f1")
        " copysign.f64 %fd1, 0dBFF0000000000000, 0d4000000000000000;\n" S64(16, "%fd1"),
        0xc0000000, 0x40000000, 0xC000000000000000ull);
}

/* testp: zeros count as normal numbers */
static void test_testp(void **state) {
  (void)state;
  CHECK(" mov.f32 %f1, 0f7F800000;\n mov.f32 %f2, 0f7FC00000;\n mov.f32 %f3, 0f3F800000;\n"
        " mov.f32 %f4, 0f00000000;\n mov.f32 %f5, 0f00000001;\n mov.f32 %f6, 0f80000000;\n"
        " testp.finite.f32 %p1, %f1;\n" SP(0, "%p1")
        " testp.infinite.f32 %p1, %f1;\n" SP(8, "%p1")
        " testp.number.f32 %p1, %f2;\n" SP(16, "%p1")
        " testp.notanumber.f32 %p1, %f2;\n" SP(24, "%p1")
        " testp.normal.f32 %p1, %f3;\n" SP(32, "%p1")
        " testp.normal.f32 %p1, %f4;\n" SP(40, "%p1")
        " testp.subnormal.f32 %p1, %f5;\n" SP(48, "%p1")
        " testp.subnormal.f32 %p1, %f4;\n" SP(56, "%p1")
        " testp.normal.f32 %p1, %f6;\n" SP(64, "%p1")
        " testp.normal.f32 %p1, %f5;\n" SP(72, "%p1")
        " testp.finite.f32 %p1, %f2;\n" SP(80, "%p1")
        " mov.f64 %fd1, 0d0000000000000001;\n mov.f64 %fd2, 0d0000000000000000;\n"
        " testp.subnormal.f64 %p1, %fd1;\n" SP(88, "%p1")
        " testp.normal.f64 %p1, %fd2;\n" SP(96, "%p1")
        " testp.finite.f64 %p1, %fd1;\n" SP(104, "%p1"),
        0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1);
}

/* selp, set (an .f32 destination gets 1.0f), setp with a combining op */
static void test_set_setp_selp(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, -1;\n mov.u32 %r2, 0;\n mov.f32 %f1, 0f7FC00000;\n mov.f32 %f2, 0f3F800000;\n"
        " setp.eq.u32 %p1, %r2, 0;\n setp.ne.u32 %p2, %r2, 0;\n" /* p1 true, p2 false */
        " selp.b32 %r10, 7, 9, %p1;\n" S32(0, "%r10")
        " selp.b32 %r10, 7, 9, %p2;\n" S32(8, "%r10")
        " set.lt.u32.s32 %r10, %r1, %r2;\n" S32(16, "%r10")
        " set.lt.f32.s32 %f3, %r1, %r2;\n" S32(24, "%f3")
        " set.lt.u32.u32 %r10, %r1, %r2;\n" S32(32, "%r10")
        " set.lt.and.u32.s32 %r10, %r1, %r2, !%p1;\n" S32(40, "%r10")
        " set.nan.u32.f32 %r10, %f1, %f2;\n" S32(48, "%r10")
        " set.ltu.f32.f32 %f3, %f1, %f2;\n" S32(56, "%f3")
        " set.gt.or.f32.s32 %f3, %r1, %r2, %p1;\n" S32(64, "%f3")
        " setp.lt.and.s32 %p2|%p3, %r1, %r2, %p1;\n" SP(72, "%p2") SP(80, "%p3")
        " setp.lt.or.s32 %p2|%p3, %r2, %r1, !%p1;\n" SP(88, "%p2") SP(96, "%p3")
        " setp.lt.xor.s32 %p2|%p3, %r1, %r2, %p1;\n" SP(104, "%p2") SP(112, "%p3")
        " setp.ne.f32 %p2, %f1, %f2;\n" SP(120, "%p2")
        " setp.neu.f32 %p2, %f1, %f2;\n" SP(128, "%p2")
        " setp.lt.u32 %p2, %r1, 1;\n" SP(136, "%p2")
        " setp.lt.s32 %p2, %r1, 1;\n" SP(144, "%p2")
        " mov.u16 %h1, 0x8000;\n setp.gt.s16 %p2, %h1, 1;\n" SP(152, "%p2")
        " setp.hi.u16 %p2, %h1, 1;\n" SP(160, "%p2")
        " setp.lt.f32 %p2, %f1, %f2;\n" SP(168, "%p2")
        " setp.ge.f32 %p2, %f2, %f2;\n" SP(176, "%p2")
        " slct.s32.s32 %r10, 7, 9, %r1;\n" S32(184, "%r10")
        " slct.s32.f32 %r10, 7, 9, 0f80000000;\n" S32(192, "%r10"),
        7, 9, 0xffffffff, 0x3f800000, 0, 0, 0xffffffff, 0x3f800000, 0x3f800000,
        1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 9, 7);
}

/* lop3: bit i of d = lut[(a_i << 2) | (b_i << 1) | c_i] */
static void test_lop3(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 0xF0F0F0F0;\n mov.u32 %r2, 0xCCCCCCCC;\n mov.u32 %r3, 0xAAAAAAAA;\n"
        " lop3.b32 %r10, %r1, %r2, %r3, 0xF0;\n" S32(0, "%r10")
        " lop3.b32 %r10, %r1, %r2, %r3, 0xCC;\n" S32(8, "%r10")
        " lop3.b32 %r10, %r1, %r2, %r3, 0xAA;\n" S32(16, "%r10")
        " lop3.b32 %r10, %r1, %r2, %r3, 0x96;\n" S32(24, "%r10")
        " lop3.b32 %r10, %r1, %r2, %r3, 0xE8;\n" S32(32, "%r10")
        " lop3.b32 %r10, %r1, %r2, %r3, 0x80;\n" S32(40, "%r10")
        " lop3.b32 %r10, %r1, %r2, %r3, 0x01;\n" S32(48, "%r10"),
        0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0x96969696, 0xE8E8E8E8, 0x80808080, 0x01010101);
}

/* atom.inc: old >= b ? 0 : old+1; atom.dec: old == 0 || old > b ? b : old-1 */
static void test_atom_inc_dec(void **state) {
  (void)state;
  CHECK(" mov.u32 %r1, 5;\n st.global.u32 [%rd0+200], %r1;\n"
        " atom.global.inc.u32 %r10, [%rd0+200], 5;\n" S32(0, "%r10")
        " ld.global.u32 %r10, [%rd0+200];\n" S32(8, "%r10")
        " atom.global.inc.u32 %r10, [%rd0+200], 5;\n ld.global.u32 %r10, [%rd0+200];\n" S32(16, "%r10")
        " mov.u32 %r2, 0;\n st.global.u32 [%rd0+208], %r2;\n"
        " atom.global.dec.u32 %r10, [%rd0+208], 5;\n ld.global.u32 %r11, [%rd0+208];\n" S32(24, "%r11")
        " mov.u32 %r2, 7;\n st.global.u32 [%rd0+208], %r2;\n"
        " atom.global.dec.u32 %r10, [%rd0+208], 5;\n ld.global.u32 %r11, [%rd0+208];\n" S32(32, "%r11")
        " atom.global.dec.u32 %r10, [%rd0+208], 5;\n ld.global.u32 %r11, [%rd0+208];\n" S32(40, "%r11")
        " mov.u32 %r2, -1;\n st.global.u32 [%rd0+216], %r2;\n"
        " atom.global.min.s32 %r10, [%rd0+216], 3;\n ld.global.u32 %r11, [%rd0+216];\n" S32(48, "%r11")
        " atom.global.min.u32 %r10, [%rd0+216], 3;\n ld.global.u32 %r11, [%rd0+216];\n" S32(56, "%r11")
        " atom.global.max.s32 %r10, [%rd0+216], -9;\n ld.global.u32 %r11, [%rd0+216];\n" S32(64, "%r11")
        " atom.global.cas.b32 %r10, [%rd0+216], -1, 4;\n ld.global.u32 %r11, [%rd0+216];\n" S32(72, "%r11")
        " atom.global.cas.b32 %r10, [%rd0+216], 3, 4;\n ld.global.u32 %r11, [%rd0+216];\n" S32(80, "%r11")
        " st.global.u32 [%rd0+216], %r2;\n",
        5, 0, 1, 5, 5, 4, 0xffffffff, 3, 3, 3, 4);
}

/* per-lane expectations */
static void check_lanes(const char *name, const char *body, uint64_t want[32][NSLOT], int n) {
  static uint64_t out[32][NSLOT];
  tu_run_warp(head, body, out, NULL);
  int bad = 0;
  for (int l = 0; l < 32; l++)
    for (int i = 0; i < n; i++)
      if (out[l][i] != want[l][i]) {
        if (bad++ < 8)
          print_error("%s: lane %d slot %d: got 0x%llx, want 0x%llx\n", name, l, i, (unsigned long long)out[l][i],
                      (unsigned long long)want[l][i]);
      }
  if (bad) fail_msg("%s: %d wrong values", name, bad);
}

/* shfl.sync with c = ((32 - width) << 8) | clamp: segments of `width` lanes */
static void test_shfl(void **state) {
  (void)state;
  static uint64_t want[32][NSLOT];
  memset(want, 0, sizeof want);
  for (int l = 0; l < 32; l++) {
    int v = 100 + l, j;
    j = (l % 8) >= 1 ? l - 1 : l; /* up 1, width 8 */
    want[l][0] = (uint64_t)(100 + j), want[l][1] = (l % 8) >= 1;
    j = (l % 8) + 2 < 8 ? l + 2 : l; /* down 2, width 8 */
    want[l][2] = (uint64_t)(100 + j), want[l][3] = (l % 8) + 2 < 8;
    want[l][4] = (uint64_t)(100 + (l ^ 3)); /* bfly 3, width 32 */
    want[l][5] = (uint64_t)(100 + ((l & ~7) | 5)); /* idx 5, width 8 */
    want[l][6] = (uint64_t)(100 + 5); /* idx 37: lane 5 */
    j = (l % 16) + 4 < 16 ? l + 4 : l; /* down 4, width 16 */
    want[l][7] = (uint64_t)(100 + j);
    j = l >= 31 ? l : l + 1; /* down 1, width 32 */
    want[l][8] = (uint64_t)(100 + j);
    want[l][9] = (uint64_t)(100 + ((l & ~3) | ((l ^ 1) & 3))); /* bfly 1, width 4 */
    j = (l % 4) + 2; /* idx 2 in width 4 */
    want[l][10] = (uint64_t)(100 + (l & ~3) + 2);
    (void)v, (void)j;
  }
  check_lanes(__func__,
              " add.u32 %r1, %r0, 100;\n"
              " shfl.sync.up.b32 %r10|%p1, %r1, 1, 0x1800, 0xffffffff;\n" S32(0, "%r10") SP(8, "%p1")
              " shfl.sync.down.b32 %r10|%p1, %r1, 2, 0x181f, 0xffffffff;\n" S32(16, "%r10") SP(24, "%p1")
              " shfl.sync.bfly.b32 %r10, %r1, 3, 0x1f, 0xffffffff;\n" S32(32, "%r10")
              " shfl.sync.idx.b32 %r10, %r1, 5, 0x181f, 0xffffffff;\n" S32(40, "%r10")
              " mov.u32 %r2, 37;\n shfl.sync.idx.b32 %r10, %r1, %r2, 0x1f, 0xffffffff;\n" S32(48, "%r10")
              " shfl.sync.down.b32 %r10, %r1, 4, 0x101f, 0xffffffff;\n" S32(56, "%r10")
              " shfl.sync.down.b32 %r10, %r1, 1, 0x1f, 0xffffffff;\n" S32(64, "%r10")
              " shfl.sync.bfly.b32 %r10, %r1, 1, 0x1c1f, 0xffffffff;\n" S32(72, "%r10")
              " shfl.sync.idx.b32 %r10, %r1, 2, 0x1c1f, 0xffffffff;\n" S32(80, "%r10"),
              want, 11);
}

/* vote and redux over the active lanes only (lanes 0..19) */
static void test_vote_redux(void **state) {
  (void)state;
  static uint64_t want[32][NSLOT];
  memset(want, 0, sizeof want);
  int32_t sum = 0, mn = INT32_MAX, mx = INT32_MIN;
  uint32_t umn = UINT32_MAX, umx = 0, an = ~0u, orr = 0, xr = 0;
  for (int l = 0; l < 20; l++) {
    int32_t v = l - 10;
    sum += v, mn = v < mn ? v : mn, mx = v > mx ? v : mx;
    umn = (uint32_t)v < umn ? (uint32_t)v : umn, umx = (uint32_t)v > umx ? (uint32_t)v : umx;
    an &= (uint32_t)v, orr |= (uint32_t)v, xr ^= (uint32_t)v;
  }
  for (int l = 0; l < 20; l++) {
    uint64_t *w = want[l];
    w[0] = 0x000aaaaa; /* ballot of odd lanes */
    w[1] = 0x00055555; /* ballot of !odd */
    w[2] = 0;          /* all odd */
    w[3] = 1;          /* any odd */
    w[4] = 1;          /* all lanes < 20 */
    w[5] = (uint32_t)sum, w[6] = (uint32_t)mn, w[7] = (uint32_t)mx, w[8] = umn, w[9] = umx;
    w[10] = an, w[11] = orr, w[12] = xr;
    w[13] = 0; /* uni odd */
  }
  check_lanes(__func__,
              " setp.ge.u32 %p1, %r0, 20;\n @%p1 bra DONE;\n"
              " and.b32 %r1, %r0, 1;\n setp.ne.u32 %p2, %r1, 0;\n setp.lt.u32 %p3, %r0, 20;\n"
              " sub.s32 %r2, %r0, 10;\n"
              " vote.sync.ballot.b32 %r10, %p2, 0x000fffff;\n" S32(0, "%r10")
              " vote.sync.ballot.b32 %r10, !%p2, 0x000fffff;\n" S32(8, "%r10")
              " vote.sync.all.pred %p4, %p2, 0x000fffff;\n" SP(16, "%p4")
              " vote.sync.any.pred %p4, %p2, 0x000fffff;\n" SP(24, "%p4")
              " vote.sync.all.pred %p4, %p3, 0x000fffff;\n" SP(32, "%p4")
              " redux.sync.add.s32 %r10, %r2, 0x000fffff;\n" S32(40, "%r10")
              " redux.sync.min.s32 %r10, %r2, 0x000fffff;\n" S32(48, "%r10")
              " redux.sync.max.s32 %r10, %r2, 0x000fffff;\n" S32(56, "%r10")
              " redux.sync.min.u32 %r10, %r2, 0x000fffff;\n" S32(64, "%r10")
              " redux.sync.max.u32 %r10, %r2, 0x000fffff;\n" S32(72, "%r10")
              " redux.sync.and.b32 %r10, %r2, 0x000fffff;\n" S32(80, "%r10")
              " redux.sync.or.b32 %r10, %r2, 0x000fffff;\n" S32(88, "%r10")
              " redux.sync.xor.b32 %r10, %r2, 0x000fffff;\n" S32(96, "%r10")
              " vote.sync.uni.pred %p4, %p2, 0x000fffff;\n" SP(104, "%p4"),
              want, 14);
}

/* %clock64 advances as the block runs (one per warp instruction), so a
 * kernel that spins until 1000 cycles have passed (the CUDA samples'
 * clock_block) ends, having seen at least that many; %clock_hi is the
 * high half (0 this early). */
static void test_clock_advances(void **state) {
  (void)state;
  static const char body[] =
    " mov.u64 %rd3, %clock64;\n"
    "SPIN:\n mov.u64 %rd4, %clock64;\n sub.s64 %rd5, %rd4, %rd3;\n"
    " setp.lt.s64 %p1, %rd5, 1000;\n @%p1 bra SPIN;\n"
    " setp.ge.s64 %p2, %rd5, 1000;\n selp.u64 %rd6, 1, 0, %p2;\n st.global.u64 [%rd0], %rd6;\n"
    " mov.u32 %r1, %clock_hi;\n cvt.u64.u32 %rd7, %r1;\n st.global.u64 [%rd0+8], %rd7;\n";
  static const uint64_t want[] = {1, 0};
  tu_check_warp(__func__, head, body, want, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cvt_f2i_saturate), cmocka_unit_test(test_cvt_round_int), cmocka_unit_test(test_cvt_int),
    cmocka_unit_test(test_cvt_f64_f32),
    cmocka_unit_test(test_cvt_f16),      cmocka_unit_test(test_shifts),        cmocka_unit_test(test_bfe),
    cmocka_unit_test(test_bfi),              cmocka_unit_test(test_bmsk_szext),              cmocka_unit_test(test_prmt),          cmocka_unit_test(test_minmax),
    cmocka_unit_test(test_mul),              cmocka_unit_test(test_div_rem_abs),   cmocka_unit_test(test_bitcount),
    cmocka_unit_test(test_copysign),         cmocka_unit_test(test_testp),         cmocka_unit_test(test_set_setp_selp),
    cmocka_unit_test(test_lop3),             cmocka_unit_test(test_atom_inc_dec),  cmocka_unit_test(test_shfl),
    cmocka_unit_test(test_vote_redux),       cmocka_unit_test(test_clock_advances),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
