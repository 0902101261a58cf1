/* test_ptx_merge.c - relocatable PTX (nvcc -rdc=true) linked into one
 * module (ptx_merge): tests/data/rdc_kernels.ptx calls functions of and
 * updates a variable defined in tests/data/rdc_funcs.ptx; hand-written
 * texts check renaming of names without linkage, weak definitions and the
 * errors (a variable nobody defines, two .visible definitions). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ptx/ptx_merge.h"
#include "testutil.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  fclose(f);
  return s;
}

/* The merged text of texts, parsed; fails the test on an error. */
static PtxModule *merge_parse(const char *const *texts, int n) {
  const char *names[] = {"a.ptx", "b.ptx", "c.ptx"};
  WmErr e = {0};
  char *text = ptx_merge(texts, names, n, &e);
  if (!text) fail_msg("ptx_merge: %s", e.msg);
  PtxModule *m = ptx_parse("merged.ptx", text, &e);
  if (!m) fail_msg("ptx_parse of the merged text: %s", e.msg);
  return m;
}

/* linked<<<1, 32>>>: every thread adds 1 to counter (declared .extern in
 * rdc_kernels, defined in rdc_funcs) and 2 to its unit's static hits,
 * writes scale(i) = 3i + 1 (factor = 3.0 lives in the other unit), and
 * thread 0 reads back, after the barrier: peekCounter() (the other unit's
 * code reading counter) = 32 if counter is one object (0 if two),
 * peekHits() = 7 (rdc_funcs' own hits, untouched), hits = 64. */
static void test_rdc_pair(void **state) {
  (void)state;
  char *a = slurp(tu_data("rdc_kernels.ptx")), *b = slurp(tu_data("rdc_funcs.ptx"));
  const char *texts[] = {a, b};
  PtxModule *m = merge_parse(texts, 2);
  SimRun run;
  tu_launch(&run, m, "_Z6linkedPfPi", "1", "32", 0, "buf:f32:32:zero", "buf:i32:3:zero", (const char *)NULL);
  const float *out = tu_arg_buf(&run, 0, sizeof(float), 32);
  const int32_t *cnt = tu_arg_buf(&run, 1, sizeof(int32_t), 3);
  for (int i = 0; i < 32; i++)
    if (out[i] != 3.0f * (float)i + 1.0f) fail_msg("out[%d] = %g, expected %g", i, out[i], 3.0 * i + 1);
  assert_int_equal(cnt[0], 32);
  assert_int_equal(cnt[1], 7);
  assert_int_equal(cnt[2], 64);
  sim_run_free(&run);
  ptx_module_free(m);
  free(a);
  free(b);
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Both units have a `tmp` of their own (no linkage) and a weak `w`; the
 * kernel of the first writes tmp + w, the second unit's get() reads its
 * tmp (5), and two(), weak in the first unit (2) and .visible in the
 * second (22): out = {1 + 10, 5, 22}, w the first weak definition (10)
 * since there is no .visible one. */
static const char *unit_a = HEAD
    ".extern .func (.param .b32 r) get ();\n"
    ".global .align 4 .u32 tmp = 1;\n"
    ".weak .global .align 4 .u32 w = 10;\n"
    ".weak .func (.param .b32 r) two () { st.param.b32 [r], 2; ret; }\n"
    ".visible .entry k(.param .u64 p) {\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [tmp]; ld.global.u32 %r2, [w]; add.s32 %r3, %r1, %r2;\n"
    "  st.global.u32 [%rd1], %r3;\n"
    "  { .param .b32 rv; call.uni (rv), get, (); ld.param.b32 %r4, [rv]; }\n"
    "  st.global.u32 [%rd1+4], %r4;\n"
    "  { .param .b32 rv; call.uni (rv), two, (); ld.param.b32 %r5, [rv]; }\n"
    "  st.global.u32 [%rd1+8], %r5;\n"
    "  ret;\n}\n";
static const char *unit_b = HEAD
    ".global .align 4 .u32 tmp = 5;\n"
    ".weak .global .align 4 .u32 w = 20;\n"
    ".visible .func (.param .b32 r) get () {\n"
    "  .reg .b32 %r<2>;\n"
    "  ld.global.u32 %r1, [tmp]; st.param.b32 [r], %r1; ret;\n}\n"
    ".visible .func (.param .b32 r) two () { st.param.b32 [r], 22; ret; }\n";

static void test_rename_weak(void **state) {
  (void)state;
  const char *texts[] = {unit_a, unit_b};
  PtxModule *m = merge_parse(texts, 2);
  SimRun run;
  tu_launch(&run, m, "k", "1", "1", 0, "buf:u32:3:zero", (const char *)NULL);
  const uint32_t *out = tu_arg_buf(&run, 0, sizeof(uint32_t), 3);
  assert_int_equal(out[0], 11);
  assert_int_equal(out[1], 5);
  assert_int_equal(out[2], 22);
  sim_run_free(&run);
  ptx_module_free(m);
}

static void expect_error(const char *a, const char *b, const char *want1, const char *want2) {
  const char *texts[] = {a, b}, *names[] = {"a.ptx", "b.ptx"};
  WmErr e = {0};
  char *text = ptx_merge(texts, names, 2, &e);
  if (text) fail_msg("merged, expected an error with '%s'", want1);
  if (!strstr(e.msg, want1) || !strstr(e.msg, want2)) fail_msg("message lacks '%s' or '%s':\n%s", want1, want2, e.msg);
}

/* An extern variable nobody defines: named, with the file that needs it;
 * two .visible definitions of one name: both files named. */
static void test_errors(void **state) {
  (void)state;
  const char *ext = HEAD ".extern .global .align 4 .u32 missing;\n";
  expect_error(unit_b, ext, "b.ptx:4:", "undefined external variable 'missing'");
  const char *v1 = HEAD ".visible .global .align 4 .u32 twice;\n";
  expect_error(v1, v1, "'twice' is defined here and in a.ptx", "b.ptx:4:");
}

/* Dynamic parallelism (a launch from the device) refuses the kernel that
 * does it, naming it, and only that kernel: by the call of CUDA's device
 * launch API, or by the address of a kernel declared (or defined) before. */
static void test_dynamic_parallelism(void **state) {
  (void)state;
  const char *text = HEAD
      ".extern .func (.param .b32 r) cudaLaunchDeviceV2 (.param .b64 a, .param .b64 b);\n"
      ".visible .entry child(.param .u64 p);\n"
      ".visible .entry launcher(.param .u64 p) {\n"
      "  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
      "  mov.u64 %rd1, 0;\n"
      "  { .param .b64 a; .param .b64 b; .param .b32 rv; st.param.b64 [a], %rd1; st.param.b64 [b], %rd1;\n"
      "    call.uni (rv), cudaLaunchDeviceV2, (a, b); ld.param.b32 %r1, [rv]; }\n"
      "  ret;\n}\n"
      ".visible .entry taker(.param .u64 p) { .reg .b64 %rd<2>; mov.u64 %rd1, child; ret; }\n"
      ".visible .entry child(.param .u64 p) { ret; }\n";
  WmErr e = {0};
  PtxModule *m = ptx_parse("dp.ptx", strdup(text), &e);
  if (!m) fail_msg("ptx_parse: %s", e.msg);
  int seen = 0;
  for (int i = 0; i < m->nkernels; i++) {
    const PtxKernel *k = &m->kernels[i];
    const char *u = k->unsupported;
    if (!strcmp(k->name, "child")) {
      if (u) fail_msg("child refused: %s", u);
      seen++;
      continue;
    }
    if (!u || !strstr(u, "dynamic parallelism")) fail_msg("%s: not refused as dynamic parallelism: %s", k->name, u ? u : "(ran)");
    if (!strcmp(k->name, "launcher") && !strstr(u, "cudaLaunchDeviceV2")) fail_msg("launcher: %s", u);
    if (!strcmp(k->name, "taker") && !strstr(u, "'child'")) fail_msg("taker: %s", u);
    seen++;
  }
  assert_int_equal(seen, 3);
  ptx_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rdc_pair),
      cmocka_unit_test(test_rename_weak),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_dynamic_parallelism),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
