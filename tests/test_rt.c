/* test_rt.c - the stand-in runtime's context (src/rt/rt.h) driven
 * directly, as the CUDA front ends drive it, without an application: a
 * module from PTX text, unified memory, launches, sticky errors, events on
 * the device clock, the kernel filter, symbols and the reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jansson.h>

#include "rt/rt.h"
#include "rt/rt_env.h"
#include "rt/rt_image.h"
#include "rt/rt_md2.h"
#include "rt/rt_tex.h"
#include "util/diag.h"
#include "testutil.h"

/* vadd: c[i] = (a[i] + b[i]) * c_scale[0] for i < n, and g_count counts
 * the threads that wrote; oob: one store 1 MiB past its pointer. */
static const char *ptx =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".global .align 4 .u32 g_count;\n"
  ".const .align 4 .f32 c_scale[4];\n"
  ".visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 pn)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<10>;\n"
  "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n"
  "  ld.param.u32 %r1, [pn];\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
  "  mad.lo.s32 %r5, %r2, %r3, %r4;\n  setp.ge.s32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
  "  cvta.to.global.u64 %rd4, %rd1;\n  mul.wide.s32 %rd5, %r5, 4;\n  add.s64 %rd6, %rd4, %rd5;\n"
  "  ld.global.f32 %f1, [%rd6];\n  cvta.to.global.u64 %rd7, %rd2;\n  add.s64 %rd8, %rd7, %rd5;\n"
  "  ld.global.f32 %f2, [%rd8];\n  add.f32 %f3, %f1, %f2;\n  ld.const.f32 %f4, [c_scale];\n"
  "  mul.f32 %f3, %f3, %f4;\n  cvta.to.global.u64 %rd9, %rd3;\n  add.s64 %rd9, %rd9, %rd5;\n"
  "  st.global.f32 [%rd9], %f3;\n  red.global.add.u32 [g_count], 1;\nDONE:\n  ret;\n}\n"
  ".visible .entry _Z3oobPi(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 7;\n"
  "  st.global.u32 [%rd2+1048576], %r1;\n  ret;\n}\n";

#define N 1000

static char report_path[64];

static void clear_env(void) {
  const char *vars[] = {RT_ENV_REPORT, RT_ENV_FORMAT, RT_ENV_LINES, RT_ENV_ARCH, RT_ENV_KERNEL, RT_ENV_SKIP,
                        RT_ENV_COUNT, RT_ENV_CACHES, RT_ENV_LOADS, RT_ENV_PROGRESS, RT_ENV_MEMLIMIT,
                        RT_ENV_STACK, RT_ENV_HEAP, RT_ENV_ONCE};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) unsetenv(vars[i]);
  snprintf(report_path, sizeof report_path, "/tmp/wm_test_rt_%d.txt", (int)getpid());
  setenv(RT_ENV_REPORT, report_path, 1);
  setenv(RT_ENV_PROGRESS, "0", 1);
}

static int setup(void **state) {
  clear_env();
  return 0;
}

static int teardown(void **state) {
  rt_shutdown();
  unlink(report_path);
  return 0;
}

/* The test module, its vadd kernel and the host shadows of its variables. */
static int host_count;
static float host_scale[4];

static RtModule *load(RtFunction **vadd, RtFunction **oob) {
  RtModule *m = NULL;
  assert_int_equal(rt_module_load_ptx(ptx, "test_rt.ptx", &m), RT_SUCCESS);
  rt_module_register_var(m, &host_count, "g_count", sizeof host_count, NULL);
  rt_module_register_var(m, host_scale, "c_scale", sizeof host_scale, NULL);
  if (vadd) assert_int_equal(rt_module_function(m, "vadd", vadd), RT_SUCCESS);
  if (oob) assert_int_equal(rt_module_function(m, "_Z3oobPi", oob), RT_SUCCESS);
  return m;
}

/* a, b and c (a[i] = b[i] = i) and the scale 2 in c_scale[0]. */
static void make_inputs(float **a, float **b, float **c) {
  assert_int_equal(rt_malloc(N * 4, RT_MEM_DEVICE, (void **)a), RT_SUCCESS);
  assert_int_equal(rt_malloc(N * 4, RT_MEM_MANAGED, (void **)b), RT_SUCCESS);
  assert_int_equal(rt_malloc(N * 4, RT_MEM_DEVICE, (void **)c), RT_SUCCESS);
  float h[N];
  for (int i = 0; i < N; i++) h[i] = (float)i;
  assert_int_equal(rt_memcpy(*a, h, sizeof h), RT_SUCCESS);
  for (int i = 0; i < N; i++) (*b)[i] = (float)i; /* managed: written in place */
  float s[4] = {2, 0, 0, 0};
  assert_int_equal(rt_symbol_copy(host_scale, 0, s, sizeof s, 1), RT_SUCCESS);
}

static RtError launch_vadd(RtFunction *f, float *a, float *b, float *c, int n, uint32_t block) {
  void *args[] = {&a, &b, &c, &n};
  RtLaunchConfig cfg = {.grid = {(uint32_t)(n + block - 1) / block, 1, 1}, .block = {block, 1, 1}};
  return rt_launch(f, &cfg, args);
}

static char *read_report(void) {
  WmErr e = {0};
  char *text = wm_read_file(report_path, NULL, &e);
  assert_non_null(text);
  return text;
}

/* alloc, copy, launch, copy back: c[i] = (i + i) * 2; 1000 threads count. */
static void test_launch_end_to_end(void **state) {
  RtFunction *vadd;
  load(&vadd, NULL);
  float *a, *b, *c;
  make_inputs(&a, &b, &c);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
  float h[N];
  assert_int_equal(rt_memcpy(h, c, sizeof h), RT_SUCCESS);
  for (int i = 0; i < N; i++) assert_true(h[i] == 4.0f * (float)i);
  int count = 0;
  assert_int_equal(rt_symbol_copy(&host_count, 0, &count, 4, 0), RT_SUCCESS);
  assert_int_equal(count, N);
  int profiled = -1;
  assert_int_equal(rt_launch_count(&profiled), 1);
  assert_int_equal(profiled, 1);
  assert_int_equal(rt_free(a, RT_MEM_DEVICE), RT_SUCCESS);
  rt_report_flush();
  char *text = read_report();
  assert_non_null(strstr(text, "vadd#1"));
  assert_non_null(strstr(text, "== warpmem run: 1 launch, 1 profiled, 0 functional =="));
  assert_non_null(strstr(text, "(4,1,1)"));
  free(text);
}

/* cudaHostRegister: the kernel writes the application's own malloc'd
 * memory at its own address; a second registration of it, or of an
 * overlapping range, is refused; after unregistering, a launch on it
 * faults. */
static void test_host_register(void **state) {
  RtFunction *vadd;
  load(&vadd, NULL);
  float *a, *b, *c;
  make_inputs(&a, &b, &c);
  float *host = calloc(N, sizeof *host);
  assert_non_null(host);
  assert_int_equal(rt_host_register(host, N * sizeof *host), RT_SUCCESS);
  assert_int_equal(rt_host_register(host + 8, 16), RT_ERR_INVALID_VALUE);
  int kind = -1;
  assert_int_equal(rt_pointer_info(host + 3, &kind, NULL, NULL), RT_SUCCESS);
  assert_int_equal(kind, RT_MEM_HOST);
  assert_int_equal(launch_vadd(vadd, a, b, host, N, 256), RT_SUCCESS);
  for (int i = 0; i < N; i++) assert_true(host[i] == 4.0f * (float)i);
  assert_int_equal(rt_free(host, RT_MEM_HOST), RT_ERR_INVALID_VALUE); /* not cudaMallocHost's */
  assert_int_equal(rt_host_unregister(host), RT_SUCCESS);
  assert_int_equal(rt_host_unregister(host), RT_ERR_INVALID_VALUE);
  assert_int_equal(launch_vadd(vadd, a, b, host, N, 256), RT_ERR_ILLEGAL_ADDRESS);
  free(host);
}

/* Host memory registered at a higher address than device memory (an
 * mmap'd buffer), then a cudaMalloc: the allocations stay in address
 * order, so a memset of the whole new allocation finds it (the CUDA
 * sample simpleStreams was refused "0 bytes past the end" of it). */
static void test_register_then_malloc(void **state) {
  (void)state;
  size_t big = 8u << 20; /* mapped as glibc maps a large malloc: above warpmem's device range */
  char *host = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(host != MAP_FAILED);
  assert_int_equal(rt_host_register(host, big), RT_SUCCESS);
  void *d1 = NULL, *d2 = NULL;
  assert_int_equal(rt_malloc(1 << 20, RT_MEM_DEVICE, &d1), RT_SUCCESS);
  assert_int_equal(rt_malloc(3 << 20, RT_MEM_DEVICE, &d2), RT_SUCCESS);
  assert_true((uintptr_t)d2 < (uintptr_t)host); /* the case: device memory below the registered */
  assert_int_equal(rt_memset(d1, 0, 1 << 20), RT_SUCCESS);
  assert_int_equal(rt_memset(d2, 7, 3 << 20), RT_SUCCESS);
  assert_int_equal(rt_memset(host, 1, big), RT_SUCCESS);
  assert_int_equal(rt_memset((char *)d2 + 1, 0, 3 << 20), RT_ERR_INVALID_VALUE); /* one byte past: still refused */
  assert_int_equal(rt_free(d1, RT_MEM_DEVICE), RT_SUCCESS);
  assert_int_equal(rt_free(d2, RT_MEM_DEVICE), RT_SUCCESS);
  assert_int_equal(rt_host_unregister(host), RT_SUCCESS);
  munmap(host, big);
}

/* An out-of-bounds store: the launch fails with cudaErrorIllegalAddress,
 * which sticks (every later call returns it) until cudaDeviceReset. */
static void test_fault_is_sticky(void **state) {
  RtFunction *oob;
  load(NULL, &oob);
  int *p;
  assert_int_equal(rt_malloc(64, RT_MEM_DEVICE, (void **)&p), RT_SUCCESS);
  void *args[] = {&p};
  RtLaunchConfig cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
  assert_int_equal(rt_launch(oob, &cfg, args), RT_ERR_ILLEGAL_ADDRESS);
  assert_int_equal(rt_get_last_error(), RT_ERR_ILLEGAL_ADDRESS);
  assert_int_equal(rt_get_last_error(), RT_ERR_ILLEGAL_ADDRESS); /* not cleared */
  assert_int_equal(rt_device_sync(), RT_ERR_ILLEGAL_ADDRESS);
  void *q = NULL;
  assert_int_equal(rt_malloc(64, RT_MEM_DEVICE, &q), RT_ERR_ILLEGAL_ADDRESS);
  assert_string_equal(rt_error_name(RT_ERR_ILLEGAL_ADDRESS), "cudaErrorIllegalAddress");
  assert_int_equal(rt_device_reset(), RT_SUCCESS);
  assert_int_equal(rt_get_last_error(), RT_SUCCESS);
  assert_int_equal(rt_malloc(64, RT_MEM_DEVICE, &q), RT_SUCCESS);
  rt_report_flush();
  char *text = read_report();
  assert_non_null(strstr(text, "FAILED"));
  free(text);
}

/* A block over 1024 threads, or a zero grid: cudaErrorInvalidConfiguration
 * from the launch and from the last error once, not sticky. */
static void test_invalid_configuration(void **state) {
  RtFunction *vadd;
  load(&vadd, NULL);
  float *a, *b, *c;
  make_inputs(&a, &b, &c);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 2048), RT_ERR_INVALID_CONFIGURATION);
  assert_int_equal(rt_get_last_error(), RT_ERR_INVALID_CONFIGURATION);
  assert_int_equal(rt_get_last_error(), RT_SUCCESS);
  RtLaunchConfig cfg = {.grid = {0, 1, 1}, .block = {32, 1, 1}};
  int n = N;
  void *args[] = {&a, &b, &c, &n};
  assert_int_equal(rt_launch(vadd, &cfg, args), RT_ERR_INVALID_CONFIGURATION);
  assert_int_equal(rt_sticky_error(), RT_SUCCESS);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
}

/* Events read the device clock: across a copy of n bytes, n / the preset's
 * DRAM bandwidth (GB/s = bytes per ns); across a launch, its predicted
 * time (> the preset's launch overhead). */
static void test_events_device_clock(void **state) {
  RtFunction *vadd;
  load(&vadd, NULL);
  float *a, *b, *c;
  make_inputs(&a, &b, &c);
  RtEvent *e0, *e1, *e2, *nt;
  assert_int_equal(rt_event_create(&e0, 1), RT_SUCCESS);
  assert_int_equal(rt_event_create(&e1, 1), RT_SUCCESS);
  assert_int_equal(rt_event_create(&e2, 1), RT_SUCCESS);
  assert_int_equal(rt_event_create(&nt, 0), RT_SUCCESS);
  float ms = -1;
  assert_int_equal(rt_event_elapsed(e0, e1, &ms), RT_ERR_INVALID_HANDLE); /* not recorded */
  assert_int_equal(rt_event_record(e0, NULL), RT_SUCCESS);
  assert_int_equal(rt_memcpy(c, a, N * 4), RT_SUCCESS);
  assert_int_equal(rt_event_record(e1, NULL), RT_SUCCESS);
  assert_int_equal(rt_event_elapsed(e0, e1, &ms), RT_SUCCESS);
  double want = N * 4 / rt_arch()->dram_gbs / 1e6;
  assert_float_equal(ms, want, want * 1e-4);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
  assert_int_equal(rt_event_record(e2, NULL), RT_SUCCESS);
  assert_int_equal(rt_event_elapsed(e1, e2, &ms), RT_SUCCESS);
  assert_true(ms * 1e6 > rt_arch()->launch_ns);
  assert_int_equal(rt_event_record(nt, NULL), RT_SUCCESS);
  assert_int_equal(rt_event_elapsed(e0, nt, &ms), RT_ERR_INVALID_HANDLE); /* made without timing */
  RtStream *s;
  assert_int_equal(rt_stream_create(&s), RT_SUCCESS);
  assert_int_equal(rt_stream_sync(s), RT_SUCCESS);
  assert_int_equal(rt_stream_destroy(s), RT_SUCCESS);
  assert_int_equal(rt_stream_destroy(s), RT_ERR_INVALID_HANDLE);
  assert_int_equal(rt_event_destroy(e0), RT_SUCCESS);
  assert_int_equal(rt_event_destroy(e0), RT_ERR_INVALID_HANDLE);
}

/* ncu's selection: kernel regex ^v, skip 1, count 2 of four launches
 * profiles the second and third; the JSON report has those two. */
static void test_kernel_filter_skip_count(void **state) {
  setenv(RT_ENV_KERNEL, "regex:^v", 1);
  setenv(RT_ENV_SKIP, "1", 1);
  setenv(RT_ENV_COUNT, "2", 1);
  setenv(RT_ENV_FORMAT, "json", 1);
  RtFunction *vadd;
  load(&vadd, NULL);
  float *a, *b, *c;
  make_inputs(&a, &b, &c);
  for (int i = 0; i < 4; i++) assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
  int profiled = -1;
  assert_int_equal(rt_launch_count(&profiled), 4);
  assert_int_equal(profiled, 2);
  rt_report_flush();
  json_error_t je;
  json_t *root = json_load_file(report_path, 0, &je);
  assert_non_null(root);
  assert_int_equal(json_array_size(root), 2);
  assert_string_equal(json_string_value(json_object_get(json_array_get(root, 0), "launch")), "vadd#2");
  assert_string_equal(json_string_value(json_object_get(json_array_get(root, 1), "launch")), "vadd#3");
  json_decref(root);
}

/* --profile-once: of three launches of vadd at one shape and one at
 * another, only the first is profiled; the events around a functional
 * repeat of the profiled shape read its predicted time, those around the
 * other shape's the launch overhead alone. */
static void test_profile_once(void **state) {
  setenv(RT_ENV_ONCE, "1", 1);
  RtFunction *vadd;
  load(&vadd, NULL);
  float *a, *b, *c;
  make_inputs(&a, &b, &c);
  RtEvent *e[4];
  for (int i = 0; i < 4; i++) assert_int_equal(rt_event_create(&e[i], 1), RT_SUCCESS);
  float first = 0, repeat = 0, other = 0;
  assert_int_equal(rt_event_record(e[0], NULL), RT_SUCCESS);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
  assert_int_equal(rt_event_record(e[1], NULL), RT_SUCCESS);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
  assert_int_equal(rt_event_record(e[2], NULL), RT_SUCCESS);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 128), RT_SUCCESS);
  assert_int_equal(rt_event_record(e[3], NULL), RT_SUCCESS);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
  assert_int_equal(rt_event_elapsed(e[0], e[1], &first), RT_SUCCESS);
  assert_int_equal(rt_event_elapsed(e[1], e[2], &repeat), RT_SUCCESS);
  assert_int_equal(rt_event_elapsed(e[2], e[3], &other), RT_SUCCESS);
  assert_true(first * 1e6 > rt_arch()->launch_ns);
  assert_float_equal(repeat, first, first * 1e-6);
  assert_float_equal(other * 1e6, rt_arch()->launch_ns, 1e-3);
  int profiled = -1;
  assert_int_equal(rt_launch_count(&profiled), 4);
  assert_int_equal(profiled, 1);
  float h[N];
  assert_int_equal(rt_memcpy(h, c, sizeof h), RT_SUCCESS);
  assert_true(h[N - 1] == 4.0f * (N - 1)); /* the repeats computed all the same */
  rt_report_flush();
  char *text = read_report();
  assert_non_null(strstr(text, "4 launches, 1 profiled (--profile-once: the first of each kernel), 3 functional"));
  free(text);
}

/* A plain name matches the base name of a mangled kernel (oob for
 * _Z3oobPi), not other kernels: vadd runs functionally. */
static void test_kernel_filter_name(void **state) {
  setenv(RT_ENV_KERNEL, "oob", 1);
  RtFunction *vadd;
  load(&vadd, NULL);
  float *a, *b, *c;
  make_inputs(&a, &b, &c);
  assert_int_equal(launch_vadd(vadd, a, b, c, N, 256), RT_SUCCESS);
  float h[N];
  assert_int_equal(rt_memcpy(h, c, sizeof h), RT_SUCCESS);
  assert_true(h[N - 1] == 4.0f * (N - 1)); /* functional launches compute all the same */
  int profiled = -1;
  assert_int_equal(rt_launch_count(&profiled), 1);
  assert_int_equal(profiled, 0);
  rt_report_flush();
  char *text = read_report();
  assert_non_null(strstr(text, "functional"));
  free(text);
}

/* Copies are checked against the allocations; frees against their kinds. */
static void test_memory_checks(void **state) {
  char *d, *h;
  assert_int_equal(rt_malloc(100, RT_MEM_DEVICE, (void **)&d), RT_SUCCESS);
  assert_int_equal(rt_malloc(100, RT_MEM_HOST, (void **)&h), RT_SUCCESS);
  char buf[200] = {0};
  assert_int_equal(rt_memcpy(d, buf, 100), RT_SUCCESS);
  assert_int_equal(rt_memcpy(d, buf, 101), RT_ERR_INVALID_VALUE); /* one byte past */
  assert_int_equal(rt_memset(d + 50, 1, 60), RT_ERR_INVALID_VALUE);
  assert_int_equal(rt_memset(d, 7, 100), RT_SUCCESS);
  assert_int_equal(d[99], 7); /* unified: the device pointer is readable here */
  int kind = -2;
  assert_int_equal(rt_pointer_info(h + 10, &kind, NULL, NULL), RT_SUCCESS);
  assert_int_equal(kind, RT_MEM_HOST);
  assert_int_equal(rt_pointer_info(buf, &kind, NULL, NULL), RT_SUCCESS);
  assert_int_equal(kind, -1);
  assert_int_equal(rt_free(h, RT_MEM_DEVICE), RT_ERR_INVALID_DEVICE_POINTER);
  assert_int_equal(rt_free(d + 4, RT_MEM_DEVICE), RT_ERR_INVALID_DEVICE_POINTER);
  assert_int_equal(rt_free(h, RT_MEM_HOST), RT_SUCCESS);
  assert_int_equal(rt_free(d, RT_MEM_DEVICE), RT_SUCCESS);
  void *z = (void *)1;
  assert_int_equal(rt_malloc(0, RT_MEM_DEVICE, &z), RT_SUCCESS);
  assert_null(z);
}

/* Symbols: sizes checked, unknown shadows refused, addresses valid here. */
static void test_symbols(void **state) {
  RtFunction *vadd;
  RtModule *m = load(&vadd, NULL);
  float s[8] = {0};
  assert_int_equal(rt_symbol_copy(host_scale, 4, s, 16, 1), RT_ERR_INVALID_VALUE); /* 4 + 16 > 16 */
  assert_int_equal(rt_symbol_copy(&s, 0, s, 4, 1), RT_ERR_INVALID_SYMBOL);
  void *addr = NULL;
  size_t size = 0;
  assert_int_equal(rt_symbol(&host_count, &addr, &size), RT_SUCCESS);
  assert_int_equal(size, 4);
  *(int *)addr = 41; /* a __device__ variable lives in unified memory */
  int v = 0;
  assert_int_equal(rt_symbol_copy(&host_count, 0, &v, 4, 0), RT_SUCCESS);
  assert_int_equal(v, 41);
  void *g = NULL;
  assert_int_equal(rt_module_global(m, "g_count", &g, &size), RT_SUCCESS);
  assert_ptr_equal(g, addr);
  assert_int_equal(rt_module_global(m, "nope", &g, &size), RT_ERR_NOT_FOUND);
  void *managed = NULL;
  rt_module_register_var(m, &managed, "g_count", 4, &managed);
  assert_ptr_equal(managed, addr);
}

/* A bad variable of the environment: every call fails with
 * cudaErrorInitializationError. */
static void test_bad_environment(void **state) {
  setenv(RT_ENV_FORMAT, "xml", 1);
  assert_int_equal(rt_init(), RT_ERR_INITIALIZATION);
  void *p = NULL;
  assert_int_equal(rt_malloc(16, RT_MEM_DEVICE, &p), RT_ERR_INITIALIZATION);
}

/* Function attributes and occupancy from warpmem's calculator. */
static void test_function_info(void **state) {
  RtFunction *vadd;
  load(&vadd, NULL);
  RtFuncInfo in;
  assert_int_equal(rt_function_info(vadd, &in), RT_SUCCESS);
  assert_int_equal(in.param_size, 32); /* three .u64 and a .u32, rounded up to 8 */
  assert_int_equal(in.max_threads, 1024);
  assert_true(in.regs > 0);
  int blocks = 0;
  assert_int_equal(rt_occupancy(vadd, 1024, 0, &blocks), RT_SUCCESS);
  /* Hopper: 64 warps per SM hold two blocks of 32 warps; registers allow
   * as many (at most 32 per thread: 2 x 32768 of 65536) */
  assert_int_equal(blocks, 2);
  assert_int_equal(rt_function_set_attribute(vadd, RT_FATTR_MAX_DYNAMIC_SMEM, 100000), RT_SUCCESS);
  assert_int_equal(rt_function_info(vadd, &in), RT_SUCCESS);
  assert_int_equal(in.max_dynamic_smem, 100000);
  assert_int_equal(rt_function_set_attribute(vadd, RT_FATTR_MAX_DYNAMIC_SMEM, 1 << 30), RT_ERR_INVALID_VALUE);
}

/* Arrays (rt_tex.h): a box copied in and out comes back; a box past the
 * array is refused; texture and surface objects get handles (1, 2, ...). */
static void test_arrays(void **state) {
  RtArrayDesc d = {.f = {{32, 0, 0, 0}, 2}, .w = 70, .h = 20, .flags = RT_ARRAY_SURFACE};
  RtArray *a;
  assert_int_equal(rt_array_create(&d, &a), RT_SUCCESS);
  assert_int_equal(rt_array_elem_size(a), 4);
  float in[20][70], out[20][70];
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 70; x++) in[y][x] = (float)(y * 100 + x);
  RtCopySide arr = {.array = a}, mem = {.ptr = in, .pitch = sizeof in[0], .height = 20};
  assert_int_equal(rt_copy_3d(&arr, &mem, sizeof in[0], 20, 1), RT_SUCCESS);
  memset(out, 0, sizeof out);
  mem.ptr = out;
  assert_int_equal(rt_copy_3d(&mem, &arr, sizeof in[0], 20, 1), RT_SUCCESS);
  assert_memory_equal(in, out, sizeof in);
  RtCopySide past = {.array = a, .x = 4};
  assert_int_equal(rt_copy_3d(&past, &mem, sizeof in[0], 1, 1), RT_ERR_INVALID_VALUE); /* one texel beyond the row */
  RtResource r = {.type = RT_RES_ARRAY, .array = a};
  RtSampler s = {.amode = {1, 1, 1}, .filter = 1, .norm = 1};
  uint64_t h1 = 0, h2 = 0;
  assert_int_equal(rt_texture_create(&r, &s, &h1), RT_SUCCESS);
  assert_int_equal(rt_surface_create(&r, &h2), RT_SUCCESS);
  assert_int_equal(h1, 1); /* GTEX_HANDLE0 */
  assert_int_equal(h2, 2);
  RtArrayDesc three = {.f = {{8, 8, 8, 0}, 1}, .w = 4, .h = 4};
  RtArray *b = NULL;
  assert_int_equal(rt_array_create(&three, &b), RT_ERR_INVALID_VALUE); /* no 3-channel texels */
  assert_int_equal(rt_array_destroy(a), RT_SUCCESS);
  assert_int_equal(rt_array_elem_size(a), 0);
}

/* cuModuleLoadData's inputs (rt_module_load_image): a fat binary image (its LZ4-compressed PTX
 * runs: a[i] += b[i]), PTX text, and SASS only (refused). */
static void test_load_data(void **state) {
  WmErr e = {0};
  size_t len = 0;
  char *image = wm_read_file(tu_data("fatbin/add_lz4.fatbin"), &len, &e);
  assert_non_null(image);
  RtModule *m = NULL;
  assert_int_equal(rt_module_load_image(image, len, "add_lz4", &m), RT_SUCCESS);
  free(image);
  RtFunction *add;
  assert_int_equal(rt_module_function(m, "_Z3addPfPKfi", &add), RT_SUCCESS);
  float *a, *b;
  int n = 300;
  assert_int_equal(rt_malloc((size_t)n * 4, RT_MEM_MANAGED, (void **)&a), RT_SUCCESS);
  assert_int_equal(rt_malloc((size_t)n * 4, RT_MEM_MANAGED, (void **)&b), RT_SUCCESS);
  for (int i = 0; i < n; i++) a[i] = (float)i, b[i] = 0.5f;
  void *args[] = {&a, &b, &n};
  RtLaunchConfig c = {.grid = {3, 1, 1}, .block = {128, 1, 1}};
  assert_int_equal(rt_launch(add, &c, args), RT_SUCCESS);
  for (int i = 0; i < n; i++) assert_true(a[i] == (float)i + 0.5f);
  RtModule *p = NULL;
  assert_int_equal(rt_module_load_image(ptx, 0, "text", &p), RT_SUCCESS);
  char *sass = wm_read_file(tu_data("fatbin/add_sass.fatbin"), &len, &e);
  assert_non_null(sass);
  RtModule *s = NULL;
  assert_int_equal(rt_module_load_image(sass, len, "add_sass", &s), RT_ERR_NO_KERNEL_IMAGE);
  free(sass);
}

/* RFC 1319's test suite (its appendix A.5): the digest the static
 * runtime's integrity check is built on. */
static void test_md2_rfc(void **state) {
  (void)state;
  static const struct { const char *in, *hex; } v[] = {
    {"", "8350e5a3e24c153df2275c9f80692773"},
    {"a", "32ec01ec4a6dac72c0ab96fb34c0b5d1"},
    {"abc", "da853b0d3f88d99b30283a69e6ded6bb"},
    {"message digest", "ab4f496bfb2a530b219ff33031fe06b0"},
    {"abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b"},
    {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "da33def2a42df13975352846c30338cd"},
    {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
     "d5976f79d83d3a0dc9806c3c66f3efd8"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint8_t d[16];
    char hex[33];
    rt_md2(v[i].in, strlen(v[i].in), d);
    for (int k = 0; k < 16; k++) snprintf(hex + 2 * k, 3, "%02x", d[k]);
    assert_string_equal(hex, v[i].hex);
  }
  /* added in pieces, the same digest */
  RtMd2 m;
  uint8_t whole[16], parts[16];
  const char *t = v[6].in;
  rt_md2(t, strlen(t), whole);
  rt_md2_init(&m);
  rt_md2_add(&m, t, 7);
  rt_md2_add(&m, t + 7, strlen(t) - 7);
  rt_md2_end(&m, parts);
  assert_memory_equal(whole, parts, 16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_md2_rfc),
    cmocka_unit_test_setup_teardown(test_host_register, setup, teardown),
    cmocka_unit_test_setup_teardown(test_register_then_malloc, setup, teardown),
    cmocka_unit_test_setup_teardown(test_launch_end_to_end, setup, teardown),
    cmocka_unit_test_setup_teardown(test_fault_is_sticky, setup, teardown),
    cmocka_unit_test_setup_teardown(test_invalid_configuration, setup, teardown),
    cmocka_unit_test_setup_teardown(test_events_device_clock, setup, teardown),
    cmocka_unit_test_setup_teardown(test_kernel_filter_skip_count, setup, teardown),
    cmocka_unit_test_setup_teardown(test_kernel_filter_name, setup, teardown),
    cmocka_unit_test_setup_teardown(test_profile_once, setup, teardown),
    cmocka_unit_test_setup_teardown(test_memory_checks, setup, teardown),
    cmocka_unit_test_setup_teardown(test_symbols, setup, teardown),
    cmocka_unit_test_setup_teardown(test_bad_environment, setup, teardown),
    cmocka_unit_test_setup_teardown(test_function_info, setup, teardown),
    cmocka_unit_test_setup_teardown(test_arrays, setup, teardown),
    cmocka_unit_test_setup_teardown(test_load_data, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
