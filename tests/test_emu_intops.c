/* test_emu_intops.c - the integer instructions of real code: carry chains
 * (add.cc, addc, sub.cc, subc, mad.cc, madc), the dot products dp4a and
 * dp2a, the SIMD video instructions, packed .u16x2/.s16x2 arithmetic, and
 * sm_90's elect.sync, mapa, getctarank, griddepcontrol, setmaxnreg.
 *
 * Each test runs a kernel body on one warp: lane t reads its operands
 * from four .global tables (A, B, C, D: edge values first, then values of
 * a fixed pseudo-random sequence) and stores up to 4 u64 results; every
 * result is compared with a C reference written here (128-bit arithmetic
 * through unsigned __int128, the video elements byte by byte).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "testutil.h"

#define NOUT 4
typedef unsigned __int128 u128;

static uint64_t A[32], B[32], C[32], D[32];

/* Edge values, then a 64-bit LCG (Knuth's MMIX constants). */
static void fill_inputs(void) {
  static const uint64_t edge[] = {0,
                                  1,
                                  0xffffffffull,
                                  0x80000000ull,
                                  0x7fffffffull,
                                  0xffffffffffffffffull,
                                  0x8000000000000000ull,
                                  0x7fffffffffffffffull,
                                  0x00000000ffffffffull,
                                  0xffffffff00000000ull,
                                  0x0000000100000000ull,
                                  0x80808080ff7f0180ull};
  uint64_t s = 0x2545f4914f6cdd1dull;
  uint64_t *tab[4] = {A, B, C, D};
  for (int t = 0; t < 4; t++)
    for (int l = 0; l < 32; l++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      /* edges paired in every combination over the first 12 lanes */
      tab[t][l] = l < 12 ? edge[(l * (t + 1) + t) % 12] : s ^ (s >> 29);
    }
}

static void append(char **buf, size_t *len, size_t *cap, const char *s) {
  size_t n = strlen(s);
  if (*len + n + 1 > *cap) {
    *cap = (*len + n + 1) * 2;
    *buf = realloc(*buf, *cap);
    assert_non_null(*buf);
  }
  memcpy(*buf + *len, s, n + 1);
  *len += n;
}

/* The kernel: %rd10..%rd13 = A..D[lane], %r10..%r13 their low words;
 * `body` stores results with ST(i, reg). */
static char *kernel_text(const char *body) {
  char *buf = NULL, line[64];
  size_t len = 0, cap = 0;
  append(&buf, &len, &cap, ".version 8.0\n.target sm_90\n.address_size 64\n");
  const char *names[4] = {"ga", "gb", "gc", "gd"};
  uint64_t *tab[4] = {A, B, C, D};
  for (int t = 0; t < 4; t++) {
    snprintf(line, sizeof line, ".global .align 8 .u64 %s[32] = {", names[t]);
    append(&buf, &len, &cap, line);
    for (int l = 0; l < 32; l++) {
      snprintf(line, sizeof line, "%s0x%llx", l ? ", " : "", (unsigned long long)tab[t][l]);
      append(&buf, &len, &cap, line);
    }
    append(&buf, &len, &cap, "};\n");
  }
  append(&buf, &len, &cap,
         ".visible .entry k(.param .u64 p_out)\n{\n"
         " .reg .b32 %r<64>;\n .reg .b64 %rd<64>;\n .reg .pred %p<8>;\n"
         " ld.param.u64 %rd1, [p_out];\n cvta.to.global.u64 %rd1, %rd1;\n"
         " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 8;\n"
         " mul.wide.u32 %rd3, %r1, 32;\n add.s64 %rd0, %rd1, %rd3;\n"
         " mov.u64 %rd4, ga;\n add.s64 %rd4, %rd4, %rd2;\n ld.global.u64 %rd10, [%rd4];\n"
         " mov.u64 %rd4, gb;\n add.s64 %rd4, %rd4, %rd2;\n ld.global.u64 %rd11, [%rd4];\n"
         " mov.u64 %rd4, gc;\n add.s64 %rd4, %rd4, %rd2;\n ld.global.u64 %rd12, [%rd4];\n"
         " mov.u64 %rd4, gd;\n add.s64 %rd4, %rd4, %rd2;\n ld.global.u64 %rd13, [%rd4];\n"
         " cvt.u32.u64 %r10, %rd10;\n cvt.u32.u64 %r11, %rd11;\n"
         " cvt.u32.u64 %r12, %rd12;\n cvt.u32.u64 %r13, %rd13;\n");
  append(&buf, &len, &cap, body);
  append(&buf, &len, &cap, " ret;\n}\n");
  return buf;
}

#define OFF_0 "0"
#define OFF_1 "8"
#define OFF_2 "16"
#define OFF_3 "24"
#define ST64(i, r) " st.global.u64 [%rd0+" OFF_##i "], " r ";\n"
#define ST32(i, r) " cvt.u64.u32 %rd60, " r ";\n st.global.u64 [%rd0+" OFF_##i "], %rd60;\n"

typedef void RefFn(int lane, uint64_t want[NOUT]);

/* Runs body on one warp and compares the first n results of every lane
 * with ref's. */
static void check(const char *name, const char *body, int n, RefFn *ref) {
  fill_inputs();
  char *text = kernel_text(body), *path = tu_temp_file(".ptx", text);
  PtxModule *m = tu_load(path);
  SimRun r;
  tu_launch(&r, m, "k", "1", "32", 0, "buf:u64:128:zero", (const char *)NULL);
  const uint64_t *out = tu_arg_buf(&r, 0, 8, 32 * NOUT);
  int bad = 0;
  for (int l = 0; l < 32; l++) {
    uint64_t want[NOUT] = {0};
    ref(l, want);
    for (int i = 0; i < n; i++)
      if (out[l * NOUT + i] != want[i] && bad++ < 8)
        print_error("%s: lane %d result %d: got 0x%llx, want 0x%llx (a 0x%llx b 0x%llx c 0x%llx d 0x%llx)\n", name,
                    l, i, (unsigned long long)out[l * NOUT + i], (unsigned long long)want[i],
                    (unsigned long long)A[l], (unsigned long long)B[l], (unsigned long long)C[l],
                    (unsigned long long)D[l]);
  }
  sim_run_free(&r);
  ptx_module_free(m);
  unlink(path);
  free(path);
  free(text);
  if (bad) fail_msg("%s: %d wrong results", name, bad);
}

/* ---- carry chains ---- */

/* {B:A} + {D:C} as 128-bit numbers, and the carry out of the top */
static void ref_add128(int l, uint64_t w[NOUT]) {
  u128 x = (u128)B[l] << 64 | A[l], y = (u128)D[l] << 64 | C[l], s = x + y;
  w[0] = (uint64_t)s, w[1] = (uint64_t)(s >> 64), w[2] = s < x;
}
static void test_add128(void **state) {
  (void)state;
  check("add128",
        " add.cc.u64 %rd20, %rd10, %rd12;\n addc.cc.u64 %rd21, %rd11, %rd13;\n addc.u64 %rd22, 0, 0;\n"
        ST64(0, "%rd20") ST64(1, "%rd21") ST64(2, "%rd22"),
        3, ref_add128);
}

/* {B:A} - {D:C}, and 0 - borrow from subc.u64 d, 0, 0 */
static void ref_sub128(int l, uint64_t w[NOUT]) {
  u128 x = (u128)B[l] << 64 | A[l], y = (u128)D[l] << 64 | C[l], s = x - y;
  w[0] = (uint64_t)s, w[1] = (uint64_t)(s >> 64), w[2] = x < y ? ~0ull : 0;
}
static void test_sub128(void **state) {
  (void)state;
  check("sub128",
        " sub.cc.s64 %rd20, %rd10, %rd12;\n subc.cc.s64 %rd21, %rd11, %rd13;\n subc.u64 %rd22, 0, 0;\n"
        ST64(0, "%rd20") ST64(1, "%rd21") ST64(2, "%rd22"),
        3, ref_sub128);
}

/* 96-bit add from 32-bit words: {B.lo:A.hi:A.lo} + {D.lo:C.hi:C.lo} */
static void ref_add96(int l, uint64_t w[NOUT]) {
  u128 m = ((u128)1 << 96) - 1;
  u128 x = ((u128)(uint32_t)B[l] << 64 | A[l]), y = ((u128)(uint32_t)D[l] << 64 | C[l]), s = x + y;
  w[0] = (uint32_t)s, w[1] = (uint32_t)(s >> 32), w[2] = (uint32_t)(s >> 64), w[3] = (s & ~m) != 0;
}
static void test_add96_u32(void **state) {
  (void)state;
  check("add96",
        " mov.b64 {%r20, %r21}, %rd10;\n mov.b64 {%r22, %r23}, %rd12;\n"
        " add.cc.u32 %r30, %r20, %r22;\n addc.cc.u32 %r31, %r21, %r23;\n addc.cc.s32 %r32, %r11, %r13;\n"
        " addc.u32 %r33, 0, 0;\n" ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32") ST32(3, "%r33"),
        4, ref_add96);
}

/* 64-bit subtract from 32-bit words, and the borrow as 0 - borrow */
static void ref_sub64(int l, uint64_t w[NOUT]) {
  uint64_t s = A[l] - C[l];
  w[0] = (uint32_t)s, w[1] = (uint32_t)(s >> 32), w[2] = A[l] < C[l] ? 0xffffffffu : 0;
}
static void test_sub64_u32(void **state) {
  (void)state;
  check("sub64",
        " mov.b64 {%r20, %r21}, %rd10;\n mov.b64 {%r22, %r23}, %rd12;\n"
        " sub.cc.u32 %r30, %r20, %r22;\n subc.cc.u32 %r31, %r21, %r23;\n subc.u32 %r32, 0, 0;\n"
        ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32"),
        3, ref_sub64);
}

/* a*b + {d:c} with 32-bit words: mad.lo.cc, madc.hi.cc, then the carry */
static void ref_mad32(int l, uint64_t w[NOUT]) {
  uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l], d = (uint32_t)D[l];
  u128 s = (u128)((uint64_t)a * b) + ((uint64_t)d << 32 | c);
  w[0] = (uint32_t)s, w[1] = (uint32_t)(s >> 32), w[2] = (uint32_t)(s >> 64);
}
static void test_mad_carry_u32(void **state) {
  (void)state;
  check("mad32",
        " mad.lo.cc.u32 %r30, %r10, %r11, %r12;\n madc.hi.cc.u32 %r31, %r10, %r11, %r13;\n"
        " addc.u32 %r32, 0, 0;\n" ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32"),
        3, ref_mad32);
}

/* madc.lo/.hi with a carry in, on u64 (a 64x64 multiply's column sums),
 * and signed .hi: the high half of the signed product, the carry of the
 * unsigned addition */
static void ref_mad64(int l, uint64_t w[NOUT]) {
  u128 p = (u128)A[l] * B[l];
  int cf = 1; /* sub.cc of equal values: no borrow, CF = 1 */
  u128 s0 = (u128)(uint64_t)p + C[l] + (unsigned)cf;
  u128 s1 = (u128)(uint64_t)(p >> 64) + D[l] + (unsigned)(s0 >> 64);
  uint64_t sh = (uint64_t)(((__int128)(int64_t)A[l] * (int64_t)B[l]) >> 64);
  u128 s2 = (u128)sh + C[l];
  w[0] = (uint64_t)s0, w[1] = (uint64_t)s1, w[2] = (uint64_t)s2, w[3] = (uint64_t)(s2 >> 64) + (uint64_t)(s1 >> 64);
}
static void test_mad_carry_u64(void **state) {
  (void)state;
  check("mad64",
        " sub.cc.u64 %rd19, %rd10, %rd10;\n madc.lo.cc.u64 %rd20, %rd10, %rd11, %rd12;\n"
        " madc.hi.cc.u64 %rd21, %rd10, %rd11, %rd13;\n addc.u64 %rd24, 0, 0;\n"
        " mad.hi.cc.s64 %rd22, %rd10, %rd11, %rd12;\n addc.u64 %rd23, %rd24, 0;\n"
        ST64(0, "%rd20") ST64(1, "%rd21") ST64(2, "%rd22") ST64(3, "%rd23"),
        4, ref_mad64);
}

/* The flag is per lane and survives divergence: odd lanes add on a path
 * of their own (which also sets its flag from its own values) between
 * the add.cc and the addc of all lanes. */
static void ref_diverge(int l, uint64_t w[NOUT]) {
  uint64_t s = A[l] + C[l], t = B[l] + 0x8000000000000000ull;
  unsigned cf = l & 1 ? t < B[l] : s < A[l];
  w[0] = B[l] + D[l] + cf;
  w[1] = l & 1 ? t : 0;
}
static void test_carry_divergence(void **state) {
  (void)state;
  check("diverge",
        " add.cc.u64 %rd20, %rd10, %rd12;\n and.b32 %r2, %r1, 1;\n setp.eq.u32 %p1, %r2, 0;\n"
        " @%p1 bra EVEN;\n add.cc.u64 %rd30, %rd11, 0x8000000000000000;\n" ST64(1, "%rd30") "EVEN:\n"
        " addc.u64 %rd21, %rd11, %rd13;\n" ST64(0, "%rd21"),
        2, ref_diverge);
}

/* ---- dot products ---- */

static int64_t byte_of(uint32_t v, int i, int sign) {
  uint8_t b = (uint8_t)(v >> (8 * i));
  return sign ? (int64_t)(int8_t)b : (int64_t)b;
}
static int64_t half_of(uint32_t v, int i, int sign) {
  uint16_t h = (uint16_t)(v >> (16 * i));
  return sign ? (int64_t)(int16_t)h : (int64_t)h;
}
static uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, int sa, int sb) {
  int64_t s = (int32_t)c;
  for (int i = 0; i < 4; i++) s += byte_of(a, i, sa) * byte_of(b, i, sb);
  return (uint32_t)s;
}
static uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, int sa, int sb, int hi) {
  int64_t s = (int32_t)c;
  for (int i = 0; i < 2; i++) s += half_of(a, i, sa) * byte_of(b, 2 * hi + i, sb);
  return (uint32_t)s;
}
static void ref_dp4a(int l, uint64_t w[NOUT]) {
  uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l];
  for (int i = 0; i < 4; i++) w[i] = dp4a(a, b, c, i >> 1, i & 1);
}
static void test_dp4a(void **state) {
  (void)state;
  check("dp4a",
        " dp4a.u32.u32 %r30, %r10, %r11, %r12;\n dp4a.u32.s32 %r31, %r10, %r11, %r12;\n"
        " dp4a.s32.u32 %r32, %r10, %r11, %r12;\n dp4a.s32.s32 %r33, %r10, %r11, %r12;\n"
        ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32") ST32(3, "%r33"),
        4, ref_dp4a);
}
static void ref_dp2a(int l, uint64_t w[NOUT]) {
  uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l];
  w[0] = dp2a(a, b, c, 0, 0, 0), w[1] = dp2a(a, b, c, 1, 1, 0);
  w[2] = dp2a(a, b, c, 0, 1, 1), w[3] = dp2a(a, b, c, 1, 0, 1);
}
static void test_dp2a(void **state) {
  (void)state;
  check("dp2a",
        " dp2a.lo.u32.u32 %r30, %r10, %r11, %r12;\n dp2a.lo.s32.s32 %r31, %r10, %r11, %r12;\n"
        " dp2a.hi.u32.s32 %r32, %r10, %r11, %r12;\n dp2a.hi.s32.u32 %r33, %r10, %r11, %r12;\n"
        ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32") ST32(3, "%r33"),
        4, ref_dp2a);
}

/* ---- video ---- */

/* |a - b| per byte, merged (vabsdiff4.u32.u32.u32) or summed with c (.add,
 * what __vsadu4 compiles to); the signed form of s32 bytes */
static void ref_absdiff4(int l, uint64_t w[NOUT]) {
  uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l], r = 0, rs = 0, sum = c;
  for (int i = 0; i < 4; i++) {
    int64_t du = byte_of(a, i, 0) - byte_of(b, i, 0), ds = byte_of(a, i, 1) - byte_of(b, i, 1);
    du = du < 0 ? -du : du, ds = ds < 0 ? -ds : ds;
    r |= (uint32_t)du << (8 * i);
    rs |= (uint32_t)(ds > 127 ? 127 : ds) << (8 * i); /* .sat to s8 */
    sum += (uint32_t)du;
  }
  w[0] = r, w[1] = sum, w[2] = rs;
}
static void test_vabsdiff4(void **state) {
  (void)state;
  check("vabsdiff4",
        " vabsdiff4.u32.u32.u32 %r30, %r10, %r11, %r12;\n vabsdiff4.u32.u32.u32.add %r31, %r10, %r11, %r12;\n"
        " vabsdiff4.s32.s32.s32.sat %r32, %r10, %r11, %r12;\n"
        ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32"),
        3, ref_absdiff4);
}

/* vadd4.sat (u8 clamps), vsub4 (wraps), vmin4.s32, vmax2.u32.add */
static void ref_vmisc(int l, uint64_t w[NOUT]) {
  uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l], add = 0, sub = 0, mn = 0;
  for (int i = 0; i < 4; i++) {
    int64_t s = byte_of(a, i, 0) + byte_of(b, i, 0);
    add |= (uint32_t)(s > 255 ? 255 : s) << (8 * i);
    sub |= (uint32_t)((byte_of(a, i, 0) - byte_of(b, i, 0)) & 0xff) << (8 * i);
    int64_t x = byte_of(a, i, 1), y = byte_of(b, i, 1);
    mn |= (uint32_t)((x < y ? x : y) & 0xff) << (8 * i);
  }
  uint32_t mx = c;
  for (int i = 0; i < 2; i++) mx += (uint32_t)(half_of(a, i, 0) > half_of(b, i, 0) ? half_of(a, i, 0) : half_of(b, i, 0));
  w[0] = add, w[1] = sub, w[2] = mn, w[3] = mx;
}
static void test_video_misc(void **state) {
  (void)state;
  check("video",
        " vadd4.u32.u32.u32.sat %r30, %r10, %r11, %r12;\n vsub4.u32.u32.u32 %r31, %r10, %r11, %r12;\n"
        " vmin4.s32.s32.s32 %r32, %r10, %r11, %r12;\n vmax2.u32.u32.u32.add %r33, %r10, %r11, %r12;\n"
        ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32") ST32(3, "%r33"),
        4, ref_vmisc);
}

/* vabsdiff2.add (__vsadu2), vsub2.s32.sat: halves */
static void ref_v2(int l, uint64_t w[NOUT]) {
  uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l], sum = c, sub = 0;
  for (int i = 0; i < 2; i++) {
    int64_t d = half_of(a, i, 0) - half_of(b, i, 0);
    sum += (uint32_t)(d < 0 ? -d : d);
    int64_t s = half_of(a, i, 1) - half_of(b, i, 1);
    s = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
    sub |= (uint32_t)(s & 0xffff) << (16 * i);
  }
  w[0] = sum, w[1] = sub;
}
static void test_video_halves(void **state) {
  (void)state;
  check("video2",
        " vabsdiff2.u32.u32.u32.add %r30, %r10, %r11, %r12;\n vsub2.s32.s32.s32.sat %r31, %r10, %r11, %r12;\n"
        ST32(0, "%r30") ST32(1, "%r31"),
        2, ref_v2);
}

/* add, sub, min, max on packed halves (sm_90) */
static void ref_packed(int l, uint64_t w[NOUT]) {
  uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l];
  for (int i = 0; i < 2; i++) {
    int sh = 16 * i;
    w[0] |= (uint64_t)((half_of(a, i, 0) + half_of(b, i, 0)) & 0xffff) << sh;
    w[1] |= (uint64_t)((half_of(a, i, 1) - half_of(b, i, 1)) & 0xffff) << sh;
    int64_t x = half_of(a, i, 1), y = half_of(b, i, 1);
    w[2] |= (uint64_t)((x < y ? x : y) & 0xffff) << sh;
    x = half_of(a, i, 0), y = half_of(b, i, 0);
    w[3] |= (uint64_t)((x > y ? x : y) & 0xffff) << sh;
  }
}
static void test_packed16(void **state) {
  (void)state;
  check("packed16",
        " add.u16x2 %r30, %r10, %r11;\n sub.s16x2 %r31, %r10, %r11;\n min.s16x2 %r32, %r10, %r11;\n"
        " max.u16x2 %r33, %r10, %r11;\n" ST32(0, "%r30") ST32(1, "%r31") ST32(2, "%r32") ST32(3, "%r33"),
        4, ref_packed);
}

/* ---- sm_90 misc ---- */

/* elect.sync over the odd lanes (they alone run it): lane 1 leads; mapa
 * with rank 0 is the address itself; getctarank is 0; griddepcontrol and
 * setmaxnreg have no effect; elect.sync _|p over the whole warp elects
 * lane 0 */
static void ref_elect(int l, uint64_t w[NOUT]) {
  w[0] = l & 1 ? 1 : 0;
  w[1] = l == 1;
  w[2] = 0x500000000000ull + (1ull << 24) + 8u * (unsigned)l; /* the shared window (emu_int.h), rank 0's tag + 1 */
  w[3] = l == 0 ? 2 : 0; /* getctarank (0) + 2 * (elected among all) */
}
static void test_sm90_misc(void **state) {
  (void)state;
  check("elect",
        " griddepcontrol.wait;\n mov.u32 %r30, 0;\n mov.u32 %r31, 0;\n"
        " and.b32 %r2, %r1, 1;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra SKIP;\n"
        " elect.sync %r30|%p2, 0xaaaaaaaa;\n selp.u32 %r31, 1, 0, %p2;\n SKIP:\n"
        " mul.wide.u32 %rd23, %r1, 8;\n cvta.shared.u64 %rd23, %rd23;\n"
        " mapa.u64 %rd20, %rd23, 0;\n getctarank.u64 %rd21, %rd20;\n griddepcontrol.launch_dependents;\n"
        " elect.sync _|%p3, 0xffffffff;\n selp.u64 %rd22, 2, 0, %p3;\n add.u64 %rd21, %rd21, %rd22;\n"
        ST32(0, "%r30") ST32(1, "%r31") ST64(2, "%rd20") ST64(3, "%rd21"),
        4, ref_elect);
}

/* ---- refusals and faults: located ---- */

static void expect_error(const char *body, const char *what) {
  fill_inputs();
  char *text = kernel_text(body), *path = tu_temp_file(".ptx", text), args[512], *err = NULL;
  snprintf(args, sizeof args, "sim %s --kernel k --grid 1 --block 32 --arg buf:u64:128:zero", path);
  int rc = tu_run_cli(args, NULL, &err);
  if (rc == 0 || !err || !strstr(err, what) || !strstr(err, ".ptx:") || !strstr(err, "^"))
    fail_msg("want a located error with '%s', got exit %d:\n%s", what, rc, err ? err : "");
  free(err);
  unlink(path);
  free(path);
  free(text);
}

static void test_bad_forms(void **state) {
  (void)state;
  expect_error(" add.cc.f32 %r30, %r10, %r11;\n", "carries take .u32, .s32, .u64 or .s64");
  expect_error(" madc.wide.u32 %rd30, %r10, %r11, %rd12;\n", "unsupported modifier '.wide'");
  expect_error(" add.sat.cc.s32 %r30, %r10, %r11;\n", ".sat with a carry is not a PTX form");
  expect_error(" dp4a.f32.s32 %r30, %r10, %r11, %r12;\n", "dp4a and dp2a take");
  expect_error(" vabsdiff4.u32.u32 %r30, %r10, %r11, %r12;\n", "needs three types");
  expect_error(" mul.lo.u16x2 %r30, %r10, %r11;\n", ".u16x2 and .s16x2 are types of add, sub, min and max");
  expect_error(" vabsdiff4.u32.u32.u32 %r30, %r10.b3210, %r11, %r12;\n", "operand selector '%r10.b3210'");
}

/* mapa to another block of the cluster: without a cluster launch a
 * cluster is one block */
static void test_mapa_fault(void **state) {
  (void)state;
  fill_inputs();
  char *text = kernel_text(" mov.u64 %rd23, 0;\n cvta.shared.u64 %rd23, %rd23;\n mapa.u64 %rd20, %rd23, 1;\n"
                           ST64(0, "%rd20"));
  char *path = tu_temp_file(".ptx", text), args[512], *err = NULL;
  snprintf(args, sizeof args, "sim %s --kernel k --grid 1 --block 32 --arg buf:u64:128:zero", path);
  int rc = tu_run_cli(args, NULL, &err);
  if (rc == 0 || !err || !strstr(err, "mapa to block rank 1 of the cluster, which has 1 block"))
    fail_msg("want a located fault, got exit %d:\n%s", rc, err ? err : "");
  free(err);
  unlink(path);
  free(path);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_add128),        cmocka_unit_test(test_sub128),       cmocka_unit_test(test_add96_u32),
    cmocka_unit_test(test_sub64_u32),     cmocka_unit_test(test_mad_carry_u32), cmocka_unit_test(test_mad_carry_u64),
    cmocka_unit_test(test_carry_divergence), cmocka_unit_test(test_dp4a),       cmocka_unit_test(test_dp2a),
    cmocka_unit_test(test_vabsdiff4),     cmocka_unit_test(test_video_misc),   cmocka_unit_test(test_video_halves),
    cmocka_unit_test(test_packed16),      cmocka_unit_test(test_sm90_misc),    cmocka_unit_test(test_bad_forms),
    cmocka_unit_test(test_mapa_fault),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
