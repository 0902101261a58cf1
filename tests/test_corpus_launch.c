/* test_corpus_launch.c - the launch side of real kernels: arguments passed
 * by value as aggregates (tests/corpus/byvalue_args.cu), a file whose one
 * refused kernel and one faulting launch leave the others running and
 * reported (tests/corpus/refuse_one.cu), and a project-style .cu that needs
 * -I and -D (tests/corpus/project_stencil.cu).
 *
 * Outputs are checked against plain C on the host; layouts against C's
 * rules worked out by hand next to each case (offsetof of the same struct
 * on the host agrees: the host's x86-64 and CUDA lay structs out alike).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "gpu/gpu.h"
#include "testutil.h"
#include "util/csv.h"
#include "util/half.h"
#include "util/sys.h"

static PtxModule *byvalue;

static const PtxModule *bv(void) {
  if (!byvalue) byvalue = tu_load(tu_corpus("byvalue_args.ptx"));
  return byvalue;
}

/* The buffer of a tu_launch whose name starts with `prefix` ("arg0.1 ("
 * for the second buffer member of argument 0), checked to hold count
 * elements of elem bytes. */
static void *buf_named(SimRun *run, const char *prefix, size_t elem, size_t count) {
  for (int i = 0; i < run->gmem.n; i++)
    if (!strncmp(run->gmem.buf[i].name, prefix, strlen(prefix))) {
      assert_true(run->gmem.buf[i].size >= elem * count);
      return run->gmem.buf[i].data;
    }
  fail_msg("no buffer named %s...", prefix);
  return NULL;
}

static const PtxKernel *kernel(const char *name) {
  WmErr e = {0};
  const PtxKernel *k = ptx_find_kernel(bv(), name, &e);
  if (!k) fail_msg("%s", e.msg);
  return k;
}

/* ---- outputs ----------------------------------------------------------- */

/* struct Params { const float* in; float* out; int n; float alpha; } by value:
 * the pointers are buffer members. */
static void test_struct_of_params(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, bv(), "scale_params", "4", "256", 0, "struct{buf:f32:1000,buf:f32:1000:zero,i32:1000,f32:2.5}",
            NULL);
  const float *in = buf_named(&run, "arg0.0 (", 4, 1000), *out = buf_named(&run, "arg0.1 (", 4, 1000);
  for (int i = 0; i < 1000; i++) assert_true(out[i] == 2.5f * in[i]);
  sim_run_free(&run);
}

/* transform2<saxpy_functor>: the functor's one float by value. */
static void test_functor_saxpy(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, bv(), "_Z10transform2I13saxpy_functorEvPKfS2_PfiT_", "2", "128", 0, "buf:f32:777",
            "buf:f32:777", "buf:f32:777:zero", "i32:777", "struct{f32:3}", NULL);
  const float *x = tu_arg_buf(&run, 0, 4, 777), *y = tu_arg_buf(&run, 1, 4, 777), *out = tu_arg_buf(&run, 2, 4, 777);
  for (int i = 0; i < 777; i++) assert_true(out[i] == fmaf(3.0f, x[i], y[i])); /* nvcc contracts a*x+y */
  sim_run_free(&run);
}

/* transform1<square>: a functor without members is one byte, struct{}. */
static void test_functor_empty(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, bv(), "_Z10transform1I6squareEvPKfPfiT_", "2", "128", 0, "buf:f32:500", "buf:f32:500:zero",
            "i32:500", "struct{}", NULL);
  const float *x = tu_arg_buf(&run, 0, 4, 500), *out = tu_arg_buf(&run, 1, 4, 500);
  for (int i = 0; i < 500; i++) assert_true(out[i] == x[i] * x[i]);
  sim_run_free(&run);
}

/* transform1<clamp_affine>: char, double, short, int, float with padding. */
static void test_functor_padded(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, bv(), "_Z10transform1I12clamp_affineEvPKfPfiT_", "1", "256", 0, "buf:f32:600:iota",
            "buf:f32:600:zero", "i32:600", "struct{i8:1,f64:0.75,i16:10,i32:300,f32:-4}", NULL);
  const float *out = tu_arg_buf(&run, 1, 4, 600);
  for (int i = 0; i < 600; i++) {
    float v = (float)(0.75 * (double)i) + -4.0f;
    v = v < 10 ? 10.0f : v > 300 ? 300.0f : v;
    if (out[i] != v) fail_msg("out[%d] = %g, want %g", i, out[i], v);
  }
  sim_run_free(&run);
}

/* float4, float2 and int3 by value. */
static void test_vector_types(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, bv(), "affine2d", "2", "128", 0, "buf:f32:512", "buf:f32:512:zero", "i32:256",
            "f32x4{2,-1,0.5,3}", "f32x2{10,-20}", "i32x3{1,2,3}", NULL);
  const float *in = tu_arg_buf(&run, 0, 4, 512), *out = tu_arg_buf(&run, 1, 4, 512);
  for (int i = 0; i < 256; i++) {
    double x = in[2 * i], y = in[2 * i + 1];
    double wx = 2 * x - y + 10 + 1, wy = 0.5 * x + 3 * y - 20 + 2 * 3;
    assert_true(fabs(out[2 * i] - wx) <= 1e-5 * (fabs(wx) + 1));
    assert_true(fabs(out[2 * i + 1] - wy) <= 1e-5 * (fabs(wy) + 1));
  }
  sim_run_free(&run);
}

/* __half and __nv_bfloat16 by value, a buffer of halves (rand: multiples
 * of 2^-11 in [0, 1), every one exact in f16). */
static void test_half_by_value(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, bv(), "half_scale", "1", "128", 0, "buf:f16:128", "buf:f32:128:zero", "f16:0.5", "bf16:-3", NULL);
  const uint16_t *in = tu_arg_buf(&run, 0, 2, 128);
  const float *out = tu_arg_buf(&run, 1, 4, 128);
  int distinct = 0;
  for (int i = 0; i < 128; i++) {
    float x = wm_f16_value(in[i]);
    assert_true(x >= 0 && x < 1 && x * 2048 == floorf(x * 2048));
    distinct += i && in[i] != in[i - 1];
    assert_true(out[i] == x * 0.5f - 3.0f);
  }
  assert_true(distinct > 64);
  sim_run_free(&run);
  /* the bits of f16 and bf16 specs: 1.5 is 0x3e00 / 0x3fc0 (sign 0,
   * exponent 15 / 127, mantissa .1b); 0.1 the nearest f16, within half an
   * ulp (2^-4 * 2^-11); 65504 the largest f16, 70000 beyond it */
  ArgSpec a;
  WmErr e = {0};
  assert_int_equal(launch_parse_arg("f16:1.5", &a, &e), 0);
  assert_int_equal(a.bits, 0x3e00);
  assert_int_equal(launch_parse_arg("bf16:1.5", &a, &e), 0);
  assert_int_equal(a.bits, 0x3fc0);
  assert_int_equal(launch_parse_arg("f16:0.1", &a, &e), 0);
  assert_int_equal(a.bits, wm_f16_from(0.1, WM_RND_NEAREST));
  assert_true(fabs(wm_f16_value((uint16_t)a.bits) - 0.1) <= 0.1 * 0x1p-11);
  assert_int_equal(launch_parse_arg("f16:65504", &a, &e), 0);
  assert_int_equal(a.bits, 0x7bff); /* the largest f16 */
  assert_int_equal(launch_parse_arg("f16:70000", &a, &e), -1);
  assert_non_null(strstr(e.msg, "out of range for f16"));
}

/* ---- layouts from first principles ------------------------------------- */

static void expect_layout(const char *spec, uint32_t size, uint32_t align) {
  ArgSpec a;
  WmErr e = {0};
  if (launch_parse_arg(spec, &a, &e)) fail_msg("%s: %s", spec, e.msg);
  assert_int_equal(a.kind, ARG_AGG);
  if (a.agg_size != size || a.agg_align != align)
    fail_msg("%s: %u bytes aligned %u, want %u aligned %u", spec, a.agg_size, a.agg_align, size, align);
}

static void test_layout_sizes(void **state) {
  (void)state;
  /* C: char 0, double 8, short 16, int 20, float 24, size 28 -> 32 (align 8) */
  expect_layout("struct{i8:1,f64:0.75,i16:10,i32:300,f32:-4}", 32, 8);
  /* vector_types.h: float2 8/8, float4 16/16, int3 12/4, double4 32/16,
   * char4 4/4, short3 6/2, double1 8/8 */
  expect_layout("f32x2{1,2}", 8, 8);
  expect_layout("f32x4{1,2,3,4}", 16, 16);
  expect_layout("i32x3{1,2,3}", 12, 4);
  expect_layout("f64x4{1,2,3,4}", 32, 16);
  expect_layout("i8x4{1,2,3,4}", 4, 4);
  expect_layout("i16x3{1,2,3}", 6, 2);
  expect_layout("f64x1{1}", 8, 8);
  expect_layout("f16x2{1,2}", 4, 4); /* __half2 */
  expect_layout("struct{f16:1,f32:2}", 8, 4);
  /* a char then a float4: the float4 at 16, size 32, align 16 */
  expect_layout("struct{i8:1,f32x4{1,2,3,4}}", 32, 16);
  /* nested: {int; {char; double}} -> the inner at 8 (16 bytes), total 24 */
  expect_layout("struct{i32:1,struct{u8:2,f64:3}}", 24, 8);
  /* a pointer member is 8 bytes aligned 8: {int, float*} is 16 */
  expect_layout("struct{i32:1,buf:f32:4}", 16, 8);
  expect_layout("struct@16{f32:1}", 16, 16); /* __align__(16) */
  expect_layout("struct{}", 1, 1);           /* an empty C++ struct */
  char deep[400] = ""; /* 35 levels of nesting: each level measured once */
  for (int i = 0; i < 35; i++) strcat(deep, "struct{");
  strcat(deep, "i16:1");
  for (int i = 0; i < 35; i++) strcat(deep, "}");
  expect_layout(deep, 2, 2);
  expect_layout("bytes:0a0b0c", 3, 0);        /* raw: no alignment */
  expect_layout("bytes{1,0x2,255}", 3, 0);
  /* --arg's brace-less forms */
  expect_layout("struct:f32:1.5,f32:2,i32:7", 12, 4);
  expect_layout("f32x2:1,2", 8, 8);
}

/* The bytes launch_bind writes for the padded functor: every member at
 * its C offset, the padding zero. */
static void test_layout_bytes(void **state) {
  (void)state;
  const PtxKernel *k = kernel("_Z10transform1I12clamp_affineEvPKfPfiT_");
  LaunchSpec *l = calloc(1, sizeof *l);
  WmErr e = {0};
  const char *specs[] = {"buf:f32:4", "buf:f32:4", "i32:4", "struct{i8:1,f64:0.75,i16:-2,i32:300,f32:-4}"};
  for (int i = 0; i < 4; i++)
    if (launch_parse_arg(specs[i], &l->args[l->nargs++], &e)) fail_msg("%s", e.msg);
  GlobalMem g;
  gmem_init(&g, 1 << 20);
  uint8_t *params = calloc(k->param_size + 8, 1);
  if (launch_bind(k, l, &g, params, INIT_ZERO, 1, &e)) fail_msg("%s", e.msg);
  const uint8_t *p = params + k->params[3].offset;
  assert_int_equal(k->params[3].size, 32);
  struct host { /* the same struct: x86-64 and CUDA agree on its layout */
    char flag;
    double scale;
    short lo;
    int hi;
    float bias;
  } want;
  memset(&want, 0, sizeof want);
  want.flag = 1, want.scale = 0.75, want.lo = -2, want.hi = 300, want.bias = -4;
  assert_int_equal(sizeof want, 32);
  assert_int_equal(offsetof(struct host, scale), 8);
  assert_int_equal(offsetof(struct host, hi), 20);
  assert_memory_equal(p, &want, 32);
  /* the two buffers' addresses are where launch_pointer_slots says */
  uint32_t slots[8];
  assert_int_equal(launch_pointer_slots(k, l, slots, 8), 2);
  assert_int_equal(slots[0], k->params[0].offset);
  assert_int_equal(slots[1], k->params[1].offset);
  free(params);
  gmem_free(&g);
  free(l);
}

/* Buffer members: their addresses sit at their offsets inside the struct. */
static void test_pointer_members(void **state) {
  (void)state;
  const PtxKernel *k = kernel("scale_params");
  LaunchSpec *l = calloc(1, sizeof *l);
  WmErr e = {0};
  if (launch_parse_arg("struct{buf:f32:8,buf:f32:8,i32:8,f32:1}", &l->args[l->nargs++], &e)) fail_msg("%s", e.msg);
  uint32_t slots[4];
  assert_int_equal(launch_pointer_slots(k, l, slots, 4), 2);
  assert_int_equal(slots[0], k->params[0].offset + 0);
  assert_int_equal(slots[1], k->params[0].offset + 8);
  GlobalMem g;
  gmem_init(&g, 1 << 20);
  uint8_t *params = calloc(k->param_size + 8, 1);
  if (launch_bind(k, l, &g, params, INIT_ZERO, 1, &e)) fail_msg("%s", e.msg);
  assert_int_equal(g.n, 2);
  uint64_t a0, a1;
  memcpy(&a0, params + slots[0], 8);
  memcpy(&a1, params + slots[1], 8);
  assert_true(a0 == g.buf[0].addr && a1 == g.buf[1].addr);
  assert_non_null(strstr(g.buf[1].name, "arg0.1 (buf:f32:8)"));
  /* the GPU runner puts the device's addresses in the same slots and
   * leaves n and alpha alone */
  uint8_t before[24];
  memcpy(before, params + k->params[0].offset, 24);
  uint64_t dev[2] = {0x7f0000200000ull, 0x7f0000a00400ull}, d0, d1;
  if (gpu_params_for_device(k, l, &g, dev, params, &e)) fail_msg("%s", e.msg);
  memcpy(&d0, params + slots[0], 8);
  memcpy(&d1, params + slots[1], 8);
  assert_true(d0 == dev[0] && d1 == dev[1]);
  assert_memory_equal(params + k->params[0].offset + 16, before + 16, 8);
  free(params);
  gmem_free(&g);
  free(l);
}

/* ---- errors ------------------------------------------------------------- */

static void expect_bind_error(const char *kname, const char *const *specs, int n, const char *needle) {
  const PtxKernel *k = kernel(kname);
  LaunchSpec *l = calloc(1, sizeof *l);
  WmErr e = {0};
  for (int i = 0; i < n; i++)
    if (launch_parse_arg(specs[i], &l->args[l->nargs++], &e)) fail_msg("%s", e.msg);
  GlobalMem g;
  gmem_init(&g, 1 << 20);
  uint8_t *params = calloc(k->param_size + 8, 1);
  assert_int_equal(launch_bind(k, l, &g, params, INIT_ZERO, 1, &e), -1);
  assert_int_equal(e.code, WM_EARGS);
  if (!strstr(e.msg, needle)) fail_msg("expected \"%s\" in: %s", needle, e.msg);
  free(params);
  gmem_free(&g);
  free(l);
}

static void expect_parse_error(const char *spec, const char *needle) {
  ArgSpec a;
  WmErr e = {0};
  assert_int_equal(launch_parse_arg(spec, &a, &e), -1);
  if (!strstr(e.msg, needle)) fail_msg("%s: expected \"%s\" in: %s", spec, needle, e.msg);
}

static void test_mismatch_errors(void **state) {
  (void)state;
  const char *small[] = {"buf:f32:4", "buf:f32:4", "i32:4", "struct{f32:1,f32:2}"};
  expect_bind_error("_Z10transform1I12clamp_affineEvPKfPfiT_", small, 4,
                    "the aggregate lays out in 8 bytes (alignment 4), but parameter "
                    "_Z10transform1I12clamp_affineEvPKfPfiT__param_3 is 32 bytes (.param .align 8 .b8");
  /* 32 bytes but aligned to 4: eight ints are not the functor */
  const char *ints[] = {"buf:f32:4", "buf:f32:4", "i32:4", "struct{i32:1,i32:2,i32:3,i32:4,i32:5,i32:6,i32:7,i32:8}"};
  expect_bind_error("_Z10transform1I12clamp_affineEvPKfPfiT_", ints, 4, "is aligned to 4 bytes, but parameter");
  /* a scalar of another size for a struct parameter (one of its size is
   * taken: f32:3 is the saxpy functor's bytes) */
  const char *scalar[] = {"buf:f32:4", "buf:f32:4", "buf:f32:4", "i32:4", "i64:3"};
  expect_bind_error("_Z10transform2I13saxpy_functorEvPKfS2_PfiT_", scalar, 5, "i64 is 8 bytes, but parameter");
  /* raw bytes of the wrong size */
  const char *raw[] = {"bytes:00000000"};
  expect_bind_error("scale_params", raw, 1, "lays out in 4 bytes");

  expect_parse_error("struct{f32:1,}", "empty member");
  expect_parse_error("f32x2{1}", "f32x2 takes 2 values, 1 given");
  expect_parse_error("f32x2{1,2,3}", "f32x2 takes 2 values, more are given");
  expect_parse_error("struct{f32:1", "balanced braces");
  expect_parse_error("struct{i32:1,i32:2}{i32:3}", "balanced braces"); /* a field must end inside its braces */
  expect_parse_error("struct{i32:1,f32x2{1,2}}}", "unbalanced braces");
  expect_parse_error("struct{f33:1}", "unknown type 'f33'");
  expect_parse_error("struct{i8:300}", "300 is out of range for i8");
  expect_parse_error("bytes:abc", "even number of hex digits");
  expect_parse_error("struct@3{f32:1}", "power of two");
  /* over CUDA's 4 KiB of parameters: refused before a byte is written */
  char big[400] = "struct{";
  for (int i = 0; i < 18; i++) strcat(big, i ? ",struct@256{i8:1}" : "struct@256{i8:1}");
  strcat(big, "}");
  expect_parse_error(big, "over 4096 bytes");
}

/* In a //@ line, an aggregate's commas do not split args=, and its errors
 * point at the bad member. */
static void test_launch_line_aggregates(void **state) {
  (void)state;
  const char *text = "//@ k grid=1 block=32 args=struct{i32:1,f32x2{1,2}},i32:5,bytes{1,2}\n"
                     "//@ bad grid=1 block=32 args=struct{i32:1,f32x2{1,x}}\n"
                     "//@ colon grid=1 block=32 args=struct:i32:1,f32:2\n";
  LaunchSpec *ls = NULL;
  int n = 0;
  WmErr e = {0};
  assert_int_equal(launch_parse_file("t.cu", "//@ k grid=1 block=32 args=struct{i32:1,f32x2{1,2}},i32:5,bytes{1,2}\n",
                                     &ls, &n, &e), 0);
  assert_int_equal(n, 1);
  assert_int_equal(ls[0].nargs, 3);
  assert_string_equal(ls[0].args[0].text, "struct{i32:1,f32x2{1,2}}");
  assert_int_equal(ls[0].args[0].agg_size, 16);
  assert_int_equal(ls[0].args[2].agg_size, 2);
  free(ls);
  assert_int_equal(launch_parse_file("t.cu", text, &ls, &n, &e), -1);
  /* line 2, the caret under the 'x' */
  if (!strstr(e.msg, "t.cu:2:51:") || !strstr(e.msg, "'x' is not a f32 number")) fail_msg("%s", e.msg);
  assert_int_equal(launch_parse_file("t.cu", text + strlen("//@ k grid=1 block=32 args=struct{i32:1,f32x2{1,2}},"
                                                           "i32:5,bytes{1,2}\n//@ bad grid=1 block=32 args=struct{"
                                                           "i32:1,f32x2{1,x}}\n"),
                                     &ls, &n, &e),
                   -1);
  if (!strstr(e.msg, "write struct{MEMBER,...}")) fail_msg("%s", e.msg);
}

/* ---- the command line ---------------------------------------------------- */

static int run(const char *args, char **out, char **err) {
  int st = tu_run_cli(args, out, err);
  return st;
}

/* One refused kernel and one faulting launch: the other two run and are
 * reported in every format, and the exit status is 4. */
static void test_refused_kernel_every_format(void **state) {
  (void)state;
  char args[4200], *out, *err;
  const char *ptx = tu_corpus("refuse_one.ptx");
  snprintf(args, sizeof args, "sim '%s' --no-caches", ptx);
  assert_int_equal(run(args, &out, &err), CLI_EXIT_SOME_NOT_RUN);
  assert_non_null(strstr(out, "fill#a  grid=(2,1,1)"));
  assert_non_null(strstr(out, "fill#b  grid=(1,1,1)"));
  assert_non_null(strstr(out, "REFUSED: "));
  assert_non_null(strstr(out, "unsupported instruction 'pmevent'"));
  assert_non_null(strstr(out, "FAILED: launch fill#short (line 16): out-of-bounds global store"));
  assert_true(strstr(out, "fill#a") < strstr(out, "with_event") && strstr(out, "with_event") < strstr(out, "fill#short") &&
              strstr(out, "fill#short") < strstr(out, "fill#b"));
  assert_non_null(strstr(err, "2 of 4 launches did not run"));
  free(out);
  free(err);

  snprintf(args, sizeof args, "sim '%s' --format json", ptx);
  assert_int_equal(run(args, &out, &err), CLI_EXIT_SOME_NOT_RUN);
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("not JSON: %s\n%s", je.text, out);
  assert_int_equal(json_array_size(root), 4);
  static const char *const want[4][2] = {{"fill#a", "ok"}, {"with_event", "refused"}, {"fill#short", "failed"},
                                         {"fill#b", "ok"}};
  for (int i = 0; i < 4; i++) {
    json_t *o = json_array_get(root, (size_t)i);
    assert_string_equal(json_string_value(json_object_get(o, "launch")), want[i][0]);
    assert_string_equal(json_string_value(json_object_get(o, "status")), want[i][1]);
    int ok = !strcmp(want[i][1], "ok");
    assert_int_equal(json_object_get(o, "metrics") != NULL, ok);
    assert_int_equal(json_object_get(o, "error") != NULL, !ok);
  }
  /* fill#a stored 256 floats: 8 requests of 4 sectors */
  json_t *m = json_object_get(json_array_get(root, 0), "metrics");
  assert_int_equal(json_integer_value(json_object_get(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")), 32);
  assert_non_null(strstr(json_string_value(json_object_get(json_array_get(root, 1), "error")), "refuse_one.ptx:"));
  json_decref(root);
  assert_non_null(strstr(err, "with_event refused:"));
  free(out);
  free(err);

  snprintf(args, sizeof args, "sim '%s' --format csv", ptx);
  assert_int_equal(run(args, &out, &err), CLI_EXIT_SOME_NOT_RUN);
  assert_true(tu_csv_value(out, "fill#a", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 32);
  assert_true(tu_csv_value(out, "fill#b", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 8);
  char *p = out, *f[256];
  int nhead = wm_csv_read(&p, f, 256), rows = 0;
  assert_string_equal(f[nhead - 2], "status");
  assert_string_equal(f[nhead - 1], "error");
  const char *statuses[4] = {"ok", "refused", "failed", "ok"};
  for (int got; (got = wm_csv_read(&p, f, 256)) > 0 && rows < 4; rows++) {
    assert_int_equal(got, nhead);
    assert_string_equal(f[nhead - 2], statuses[rows]);
    assert_int_equal(f[nhead - 1][0] != '\0', rows == 1 || rows == 2);
  }
  assert_int_equal(rows, 4);
  free(out);
  free(err);

  /* every launch of a file that runs: 0 */
  snprintf(args, sizeof args, "sim '%s' --kernel fill --no-caches --format csv", ptx);
  assert_int_equal(run(args, &out, &err), CLI_EXIT_SOME_NOT_RUN); /* fill#short still faults */
  free(out);
  free(err);
  snprintf(args, sizeof args, "sim '%s' --kernel fill --grid 1 --block 32 --arg buf:f32:32 --arg f32:1 --no-caches",
           ptx);
  assert_int_equal(run(args, &out, &err), 0);
  free(out);
  free(err);
}

/* The lab: a catalogue whose experiment has the refused kernel and the
 * faulting launch reports the other two in every format, exit status 4. */
static void test_lab_refused_launch(void **state) {
  (void)state;
  char dir[] = "/tmp/wmlabXXXXXX", path[4200], cmd[9000];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/mix.cu", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("//! group: mix\n//! seed: 000\n//! title: a refused kernel among others\n\n"
        "//! exp: mixed\n//! title: four launches\n//! bytes: 1024\n//! peak: copy\n"
        "//@ fill#a grid=2 block=128 args=buf:f32:256:zero,f32:1.5\n"
        "//@ with_event grid=1 block=32 args=buf:f32:32:zero\n"
        "//@ fill#short grid=2 block=128 args=buf:f32:200:zero,f32:2\n"
        "//@ fill#b grid=1 block=64 args=buf:f32:64:zero,f32:-3\n",
        f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "mkdir -p '%s/ptx' && cp '%s' '%s/ptx/mix.ptx'", dir, tu_corpus("refuse_one.ptx"), dir);
  assert_int_equal(system(cmd), 0);
  static const char *const formats[] = {"text", "markdown", "json", "csv"};
  for (int k = 0; k < 4; k++) {
    char *out, *err;
    snprintf(cmd, sizeof cmd, "lab --dir '%s' --no-gpu --format %s", dir, formats[k]);
    int st = run(cmd, &out, &err);
    if (st != 4) fail_msg("%s: exit %d\n%s\n%s", formats[k], st, out, err);
    static const char *const want[] = {"fill#a", "fill#b", "with_event", "unsupported instruction 'pmevent'",
                                       "fill#short", "out-of-bounds global store"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
      if (!strstr(out, want[i])) fail_msg("%s: no \"%s\" in:\n%s", formats[k], want[i], out);
    if (k == 2) {
      json_t *root = json_loads(out, 0, NULL);
      assert_non_null(root);
      assert_non_null(strstr(out, "\"status\": \"refused\""));
      assert_non_null(strstr(out, "\"status\": \"failed\""));
      json_decref(root);
    }
    if (k == 3) {
      /* rows are named by their group here: look for the status fields */
      assert_non_null(strstr(out, "\nmix,mixed,fill#a,fill,256,256,1,1024,0,0,4,"));
      assert_non_null(strstr(out, ",refused,"));
      assert_non_null(strstr(out, ",failed,"));
    }
    assert_non_null(strstr(err, "2 of 4 launches were not simulated"));
    free(out);
    free(err);
  }
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* --arg with the brace-less struct form, and --dump naming member buffers. */
static void test_cli_struct_arg(void **state) {
  (void)state;
  char dir[] = "/tmp/wmbvXXXXXX";
  assert_non_null(mkdtemp(dir));
  char args[4400], *out, *err;
  snprintf(args, sizeof args,
           "sim '%s' --kernel scale_params --grid 4 --block 256 --no-caches --init iota --dump %s "
           "--arg 'struct:buf:f32:1000,buf:f32:1000:zero,i32:1000,f32:0.5'",
           tu_corpus("byvalue_args.ptx"), dir);
  if (run(args, &out, &err) != 0) fail_msg("%s", err);
  float in[1000], res[1000];
  tu_read_dump(dir, "scale_params.arg0.0.f32.bin", in, sizeof in);
  tu_read_dump(dir, "scale_params.arg0.1.f32.bin", res, sizeof res);
  for (int i = 0; i < 1000; i++) assert_true(in[i] == (float)i && res[i] == 0.5f * (float)i);
  free(out);
  free(err);
  snprintf(args, sizeof args, "rm -rf '%s'", dir);
  assert_int_equal(system(args), 0);
}

/* A project's kernel file: its header through -I, its macro through -D;
 * without them nvcc's own message and the command run. */
static void test_project_flags(void **state) {
  (void)state;
  char nvcc[4096];
  if (wm_find_program("nvcc", nvcc, sizeof nvcc) && access("/usr/local/cuda/bin/nvcc", X_OK)) skip();
  char cu[4096], inc[4096], dir[] = "/tmp/wmprojXXXXXX";
  snprintf(cu, sizeof cu, "%s", tu_corpus("../project_stencil.cu"));
  snprintf(inc, sizeof inc, "%s", tu_corpus("../include"));
  assert_non_null(mkdtemp(dir));
  char args[12800], *out, *err;
  snprintf(args, sizeof args, "sim '%s' --no-caches --dump %s -I '%s' -D PROJ_RADIUS=2", cu, dir, inc);
  if (run(args, &out, &err) != 0) fail_msg("%s", err);
  free(out);
  free(err);
  float in[1000], res[1000];
  tu_read_dump(dir, "box_blur.arg0.f32.bin", in, sizeof in);
  tu_read_dump(dir, "box_blur.arg1.f32.bin", res, sizeof res);
  for (int i = 0; i < 1000; i++) {
    float s = 0;
    for (int d = -2; d <= 2; d++) s += in[i + d < 0 ? 0 : i + d >= 1000 ? 999 : i + d];
    assert_true(fabsf(res[i] - s / 5) <= 1e-6f * (fabsf(s) + 1));
  }
  /* the header found but the macro missing: nvcc's #error and the command */
  snprintf(args, sizeof args, "sim '%s' --no-caches --nvcc-flag -I'%s'", cu, inc);
  assert_int_equal(run(args, &out, &err), 1);
  if (!strstr(err, "PROJ_RADIUS is not defined") || !strstr(err, "command: ") || !strstr(err, " -arch=sm_90a "))
    fail_msg("%s", err);
  free(out);
  free(err);
  snprintf(args, sizeof args, "rm -rf '%s'", dir);
  assert_int_equal(system(args), 0);
}

/* Instructions computed only approximately are named once each, located,
 * in the text and JSON reports; exact kernels have no warnings. */
static void test_approx_warnings(void **state) {
  (void)state;
  char args[4200], *out, *err;
  snprintf(args, sizeof args, "sim '%s' --no-caches", tu_corpus("approx_warn.ptx"));
  assert_int_equal(run(args, &out, &err), 0);
  static const char *const want[] = {"approx_warn.ptx:38:2: warning: ex2.approx.f32 %f3, %f2: the host's exp2",
                                     "approx_warn.ptx:39:2: warning: sin.approx.f32",
                                     "approx_warn.ptx:42:2: warning: div.approx.f32", "(approx_warn.cu:14)"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    if (!strstr(out, want[i])) fail_msg("no \"%s\" in:\n%s", want[i], out);
  free(out);
  free(err);
  snprintf(args, sizeof args, "sim '%s' --no-caches --format json", tu_corpus("approx_warn.ptx"));
  assert_int_equal(run(args, &out, &err), 0);
  json_t *root = json_loads(out, 0, NULL);
  assert_non_null(root);
  assert_int_equal(json_array_size(json_object_get(json_array_get(root, 0), "warnings")), 3);
  json_decref(root);
  free(out);
  free(err);
  /* a mul.f32 whose product only the next sub.f32 reads (no rounding
   * modifiers): ptxas may fuse the two, and did on an H100 (24 of 1152
   * results one ulp apart: docs/results/h100-2026-11-23-corpus) */
  /* where ptxas's code can be read (ptx_sass.c), the emulator fuses as it
   * did and warns of nothing; else it warns at the pair */
  PtxModule *nm = tu_load(tu_corpus("calls_noinline.ptx"));
  int known = ptx_contractions(nm, 90) == 0;
  ptx_module_free(nm);
  snprintf(args, sizeof args, "sim '%s' --no-caches", tu_corpus("calls_noinline.ptx"));
  assert_int_equal(run(args, &out, &err), 0);
  const char *warned = strstr(out, "calls_noinline.ptx:60:2: warning: sub.f32 %f9, %f6, %f7: ptxas may contract it "
                                   "with the mul of PTX line 54 into one fma");
  if (known && warned) fail_msg("a contraction warning, though ptxas's code was read:\n%s", out);
  if (!known && !warned) fail_msg("no contraction warning in:\n%s", out);
  free(out);
  free(err);
  snprintf(args, sizeof args, "sim '%s' --no-caches --format json", tu_corpus("byvalue_args.ptx"));
  assert_int_equal(run(args, &out, &err), 0);
  assert_null(strstr(out, "\"warnings\""));
  free(out);
  free(err);
}

static int teardown(void **state) {
  (void)state;
  if (byvalue) ptx_module_free(byvalue);
  byvalue = NULL;
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_struct_of_params),      cmocka_unit_test(test_functor_saxpy),
    cmocka_unit_test(test_functor_empty),         cmocka_unit_test(test_functor_padded),
    cmocka_unit_test(test_vector_types),          cmocka_unit_test(test_layout_sizes),
    cmocka_unit_test(test_layout_bytes),          cmocka_unit_test(test_pointer_members),
    cmocka_unit_test(test_mismatch_errors),       cmocka_unit_test(test_launch_line_aggregates),
    cmocka_unit_test(test_refused_kernel_every_format), cmocka_unit_test(test_cli_struct_arg),
    cmocka_unit_test(test_project_flags),         cmocka_unit_test(test_approx_warnings),
    cmocka_unit_test(test_lab_refused_launch),    cmocka_unit_test(test_half_by_value),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
