/* test_api.c - the C API of src/api/wm_api.h (libwarpmem_api.so), as the
 * Python package calls it: a copy's counters from first principles, the
 * caller's buffers in and out, located errors for bad requests.  Also run
 * under the sanitizers (make test-sanitize), where pytest is not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/wm_api.h"

/* out[i] = in[i] for i < n */
static const char *copy_ptx =
  ".version 9.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry copy(.param .u64 in, .param .u64 out, .param .u32 n) {\n"
  "  .reg .pred %p<2>; .reg .b32 %r<6>; .reg .f32 %f<2>; .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out]; ld.param.u32 %r1, [n];\n"
  "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
  "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
  "  setp.ge.u32 %p1, %r5, %r1;\n"
  "  @%p1 bra DONE;\n"
  "  mul.wide.u32 %rd3, %r5, 4; add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3;\n"
  "  ld.global.f32 %f1, [%rd4]; st.global.f32 [%rd5], %f1;\n"
  "DONE:\n  ret;\n}\n";

/* The result of a request (json_pack's format and values), parsed. */
static json_t *call(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  json_t *req = json_vpack_ex(NULL, 0, fmt, ap);
  va_end(ap);
  assert_non_null(req);
  char *text = json_dumps(req, 0);
  json_decref(req);
  char *res = wm_api_sim(text);
  free(text);
  json_t *r = json_loads(res, 0, NULL);
  wm_api_free(res);
  assert_non_null(r);
  return r;
}

static void test_copy_counts_and_buffers(void **state) {
  (void)state;
  enum { N = 4096 };
  float *in = malloc(N * sizeof *in), *out = calloc(N, sizeof *out);
  for (int i = 0; i < N; i++) in[i] = (float)i;
  json_t *r = call("{s:s, s:i, s:i, s:[{s:I, s:i, s:s}, {s:I, s:i}, {s:i}]}", "ptx", copy_ptx, "grid", N / 128,
                   "block", 128, "args", "ptr", (json_int_t)(uintptr_t)in, "bytes", N * 4, "type", "f32", "ptr",
                   (json_int_t)(uintptr_t)out, "bytes", N * 4, "value", N);
  assert_true(json_is_true(json_object_get(r, "ok")));
  json_t *m = json_object_get(json_array_get(json_object_get(r, "report"), 0), "metrics");
  /* N floats, 8 to a 32-byte sector, read and written once */
  assert_int_equal(json_integer_value(json_object_get(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")), N / 8);
  assert_int_equal(json_integer_value(json_object_get(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")), N / 8);
  assert_int_equal(memcmp(in, out, N * sizeof *in), 0); /* copied back into the caller's memory */
  json_decref(r);
  free(in);
  free(out);
}

/* A buffer whose pointer lies "offset" bytes into it (a strided view's span). */
static void test_offset_into_the_buffer(void **state) {
  (void)state;
  enum { N = 256 };
  float in[N + 1], out[N] = {0};
  for (int i = 0; i <= N; i++) in[i] = (float)i;
  json_t *r = call("{s:s, s:i, s:i, s:[{s:I, s:i, s:i}, {s:I, s:i}, {s:i}]}", "ptx", copy_ptx, "grid", 2, "block",
                   128, "args", "ptr", (json_int_t)(uintptr_t)in, "bytes", (N + 1) * 4, "offset", 4, "ptr",
                   (json_int_t)(uintptr_t)out, "bytes", N * 4, "value", N);
  assert_true(json_is_true(json_object_get(r, "ok")));
  for (int i = 0; i < N; i++) assert_true(out[i] == in[i + 1]);
  json_decref(r);
  r = call("{s:s, s:i, s:i, s:[{s:I, s:i, s:i}, {s:I, s:i}, {s:i}]}", "ptx", copy_ptx, "grid", 1, "block", 1,
           "args", "ptr", (json_int_t)(uintptr_t)in, "bytes", 8, "offset", 9, "ptr", (json_int_t)(uintptr_t)out,
           "bytes", 8, "value", 1);
  assert_string_equal(json_string_value(json_object_get(r, "code")), "args");
  json_decref(r);
}

static void test_errors_are_results(void **state) {
  (void)state;
  float buf[64] = {0};
  json_int_t p = (json_int_t)(uintptr_t)buf;
  /* n larger than the buffers: a located fault, the caller's buffer untouched */
  json_t *r = call("{s:s, s:i, s:i, s:[{s:I, s:i}, {s:I, s:i}, {s:i}]}", "ptx", copy_ptx, "grid", 1, "block", 128,
                   "args", "ptr", p, "bytes", 32 * 4, "ptr", p + 32 * 4, "bytes", 32 * 4, "value", 128);
  assert_false(json_is_true(json_object_get(r, "ok")));
  assert_string_equal(json_string_value(json_object_get(r, "code")), "fault");
  assert_non_null(strstr(json_string_value(json_object_get(r, "error")), "out-of-bounds global load"));
  json_decref(r);
  r = call("{s:s, s:i, s:i, s:[{s:f}]}", "ptx", copy_ptx, "grid", 1, "block", 1, "args", "value", 1.5);
  assert_string_equal(json_string_value(json_object_get(r, "code")), "args");
  assert_non_null(strstr(json_string_value(json_object_get(r, "error")), "takes 3 arguments"));
  json_decref(r);
  r = call("{s:s, s:i, s:i}", "ptx", ".version 9.0\n.target sm_90\nbogus\n", "grid", 1, "block", 1);
  assert_string_equal(json_string_value(json_object_get(r, "code")), "parse");
  assert_non_null(strstr(json_string_value(json_object_get(r, "error")), "<ptx>:3:"));
  json_decref(r);
  char *res = wm_api_sim("not json");
  assert_non_null(strstr(res, "not a JSON object"));
  wm_api_free(res);
  res = wm_api_kernels("{\"ptx\": \"\"}");
  assert_non_null(strstr(res, "\"ok\""));
  wm_api_free(res);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_copy_counts_and_buffers),
    cmocka_unit_test(test_offset_into_the_buffer),
    cmocka_unit_test(test_errors_are_results),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
