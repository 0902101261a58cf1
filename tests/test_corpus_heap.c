/* test_corpus_heap.c - the device heap (malloc, free, new, delete,
 * __nv_aligned_device_malloc) and __managed__ variables: the corpus kernels
 * tests/corpus/device_heap.cu and managed_vars.cu against references
 * written here in C, the same outputs and counters whatever the number of
 * host threads, heap exhaustion (malloc returns NULL), --heap-size, the
 * located faults of bad frees, and --const/--dump on __managed__ variables.
 *
 * Where nvcc contracts a multiply and an add into fma (the PTX shows
 * fma.rn), the reference uses fmaf too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "testutil.h"

#define ARG(run, argno, T, count) ((T *)tu_arg_buf(run, argno, sizeof(T), count))

static void expect_contains(const char *text, const char *want) {
  if (!text || !strstr(text, want)) fail_msg("expected to find\n  %s\nin\n%s", want, text ? text : "(null)");
}

/* The bytes of module variable `name` after the run (the buffer of the
 * module's .global segment). */
static void *module_var(SimRun *run, const PtxModule *m, const char *name, size_t bytes) {
  const PtxVar *v = NULL;
  for (int i = 0; i < m->nvars; i++)
    if (m->vars[i].space == PTX_S_GLOBAL && !strcmp(m->vars[i].name, name)) v = &m->vars[i];
  if (!v) fail_msg("no .global variable %s", name);
  assert_true(v->size >= bytes);
  for (int i = 0; i < run->gmem.n; i++)
    if (!strcmp(run->gmem.buf[i].name, "module __device__ variables")) return run->gmem.buf[i].data + v->offset;
  fail_msg("no buffer of module variables");
  return NULL;
}

/* --- malloc and free -------------------------------------------------------- */

/* Per-thread scratch: a weighted window sum through malloc'd memory. */
static void test_thread_scratch(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("device_heap.ptx"));
  SimRun run;
  enum { N = 256, K = 24 };
  tu_launch(&run, m, "_Z14thread_scratchPKfPfi", "4", "64", 0, "buf:f32:256", "buf:f32:256:zero", "i32:24", NULL);
  const float *in = ARG(&run, 0, float, N), *out = ARG(&run, 1, float, N);
  for (int t = 0; t < N; t++) {
    float s = 0.0f;
    for (int i = 0; i < K; i++) s = fmaf(in[(t + i) % N], (float)(i + 1), s);
    if (out[t] != s) fail_msg("out[%d] = %.9g, expected %.9g", t, out[t], s);
  }
  sim_run_free(&run);
  ptx_module_free(m);
}

/* A buffer per block, allocated by thread 0 and shared through shared
 * memory.  The heap's bookkeeping: allocation is serialized in block order
 * and each block frees its buffer before the next block runs, so first fit
 * gives every block the same address, 16-byte aligned. */
static void test_block_buffer(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("device_heap.ptx"));
  SimRun run;
  enum { B = 3, N = 500 };
  tu_launch(&run, m, "_Z12block_bufferPKiPiPyi", "3", "128", 0, "buf:i32:1500:iota", "buf:i32:1500:zero",
            "buf:u64:3:zero", "i32:500", NULL);
  const int32_t *in = ARG(&run, 0, int32_t, B * N), *out = ARG(&run, 1, int32_t, B * N);
  const uint64_t *where = ARG(&run, 2, uint64_t, B);
  for (int b = 0; b < B; b++) {
    for (int i = 0; i < N; i++)
      if (out[b * N + i] != in[b * N + N - 1 - i] * 2)
        fail_msg("block %d: out[%d] = %d, expected %d", b, i, out[b * N + i], in[b * N + N - 1 - i] * 2);
    assert_int_not_equal(where[b], 0);
    assert_int_equal(where[b] % 16, 0);
    assert_int_equal(where[b], where[0]);
  }
  /* the pointer is in the heap's buffer, which --dump writes */
  const GBuf *heap = gmem_find(&run.gmem, where[0], N * 4);
  assert_non_null(heap);
  assert_string_equal(heap->name, "device heap");
  assert_int_equal(heap->size, 8u << 20); /* cudaLimitMallocHeapSize's default */
  sim_run_free(&run);
  ptx_module_free(m);
}

/* A linked list of a template class built with new, reversed, summed by
 * position and torn down with delete. */
static void test_linked_list(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("device_heap.ptx"));
  SimRun run;
  enum { T = 192, LEN = 12 };
  tu_launch(&run, m, "_Z11list_kernelPii", "2", "96", 0, "buf:i32:192:zero", "i32:12", NULL);
  const int32_t *sums = ARG(&run, 0, int32_t, T);
  for (int t = 0; t < T; t++) {
    int32_t s = 0;
    for (int i = 0; i < LEN; i++) s += (3 * t + i) * (i + 1);
    if (sums[t] != s) fail_msg("sums[%d] = %d, expected %d", t, sums[t], s);
  }
  assert_int_equal(run.gmem.heap.live, 0); /* every node deleted */
  sim_run_free(&run);
  ptx_module_free(m);
}

/* new of an alignas(64) type and __nv_aligned_device_malloc(40, 256) (both
 * __cuda_syscall_aligned_malloc in the PTX): aligned pointers that hold
 * what is written through them. */
static void test_aligned_new(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("device_heap.ptx"));
  SimRun run;
  tu_launch(&run, m, "_Z11aligned_newPj", "1", "32", 0, "buf:u32:64:zero", NULL);
  const uint32_t *out = ARG(&run, 0, uint32_t, 64);
  for (uint32_t t = 0; t < 32; t++) {
    if (out[2 * t] != t * 1000) fail_msg("new Tile: out[%u] = %u, expected %u", 2 * t, out[2 * t], t * 1000);
    if (out[2 * t + 1] != 7 * t * 1000)
      fail_msg("aligned malloc: out[%u] = %u, expected %u", 2 * t + 1, out[2 * t + 1], 7 * t * 1000);
  }
  sim_run_free(&run);
  ptx_module_free(m);
}

/* Exhaustion: the 128 threads of a block try 8 chunks of 64 KiB each and
 * keep them.  The 8 MiB heap holds exactly 128 (chunks are whole granules,
 * allocations carry no header), so 128 malloc calls succeed and 896 return
 * NULL.  (One block: blocks of a heap kernel run one after another, so a
 * second block would find the chunks the first freed.) */
static void test_fill_heap(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("device_heap.ptx"));
  SimRun run;
  tu_launch(&run, m, "_Z9fill_heapPiS_ji", "1", "128", 0, "buf:i32:128:zero", "buf:i32:2:zero", "u32:65536", "i32:8",
            NULL);
  const int32_t *got = ARG(&run, 0, int32_t, 128), *totals = ARG(&run, 1, int32_t, 2);
  assert_int_equal(totals[0], 128);
  assert_int_equal(totals[1], 128 * 8 - 128);
  int sum = 0;
  for (int t = 0; t < 128; t++) {
    assert_in_range(got[t], 0, 8);
    sum += got[t];
  }
  assert_int_equal(sum, 128);
  assert_int_equal(run.gmem.heap.live, 0); /* all freed at the end */
  sim_run_free(&run);
  ptx_module_free(m);
}

/* --heap-size: a 1 MiB heap holds 16 chunks of 64 KiB. */
static void test_heap_size_option(void **state) {
  (void)state;
  char dir[] = "/tmp/wmheapXXXXXX";
  assert_non_null(mkdtemp(dir));
  char args[1024], *out = NULL, *err = NULL;
  snprintf(args, sizeof args,
           "sim %s --kernel _Z9fill_heapPiS_ji --grid 1 --block 128 --arg buf:i32:128:zero --arg buf:i32:2:zero "
           "--arg u32:65536 --arg i32:8 --heap-size 1M --dump %s",
           tu_corpus("device_heap.ptx"), dir);
  int rc = tu_run_cli(args, &out, &err);
  if (rc) fail_msg("rc %d: %s", rc, err);
  int32_t totals[2];
  tu_read_dump(dir, "_Z9fill_heapPiS_ji.arg1.i32.bin", totals, sizeof totals);
  assert_int_equal(totals[0], 16);
  assert_int_equal(totals[1], 128 * 8 - 16);
  static uint8_t heap[1 << 20];
  tu_read_dump(dir, "_Z9fill_heapPiS_ji.device_heap.b8.bin", heap, sizeof heap); /* --dump writes the heap */
  int marked = 0; /* each chunk's first byte holds the try that got it */
  for (int c = 0; c < 16; c++) marked += heap[(size_t)c << 16] < 8 && heap[((size_t)c << 16) + 65535] == heap[(size_t)c << 16];
  assert_int_equal(marked, 16);
  free(out);
  free(err);
  snprintf(args, sizeof args, "sim %s --kernel _Z9fill_heapPiS_ji --heap-size 1x", tu_corpus("device_heap.ptx"));
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  expect_contains(err, "--heap-size takes bytes");
  free(err);
  snprintf(args, sizeof args, "rm -rf %s", dir);
  assert_int_equal(system(args), 0);
}

/* The same outputs and counters on 1 and on 4 host threads: allocation is
 * serialized in block order. */
static void run_with_threads(const PtxModule *m, const char *threads, SimRun *run) {
  setenv("WARPMEM_THREADS", threads, 1);
  tu_launch(run, m, "_Z11list_kernelPii", "8", "64", 0, "buf:i32:512:zero", "i32:9", NULL);
  unsetenv("WARPMEM_THREADS");
}

static void test_threads_deterministic(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("device_heap.ptx"));
  SimRun one, four;
  run_with_threads(m, "1", &one);
  run_with_threads(m, "4", &four);
  assert_memory_equal(ARG(&one, 0, int32_t, 512), ARG(&four, 0, int32_t, 512), 512 * sizeof(int32_t));
  for (int i = 0; i < WM_M_COUNT; i++)
    if (one.mm.metric[i] != four.mm.metric[i])
      fail_msg("metric %d: %llu on 1 thread, %llu on 4", i, (unsigned long long)one.mm.metric[i],
               (unsigned long long)four.mm.metric[i]);
  assert_true(one.mm.metric[WM_M_GLD_SEC] > 0);
  assert_true(one.time.ns == four.time.ns);
  sim_run_free(&one);
  sim_run_free(&four);
  ptx_module_free(m);
}

/* Frees CUDA leaves undefined are located faults: kernel, source line,
 * block, thread, address. */
static void bad_free(int mode, const char *want1, const char *want2) {
  char args[1024], *err = NULL;
  snprintf(args, sizeof args,
           "sim %s --kernel _Z8bad_freePii --grid 1 --block 32 --arg buf:i32:32:zero --arg i32:%d",
           tu_corpus("device_heap.ptx"), mode);
  int rc = tu_run_cli(args, NULL, &err);
  assert_int_not_equal(rc, 0);
  expect_contains(err, want1);
  expect_contains(err, want2);
  expect_contains(err, "kernel _Z8bad_freePii, device_heap.cu:");
  free(err);
}

static void test_bad_frees(void **state) {
  (void)state;
  bad_free(0, "double free of 0x", "block (0,0,0), thread (3,0,0)");
  bad_free(1, "8 bytes into the 32-byte allocation at 0x", "thread (5,0,0)");
  bad_free(2, "which malloc did not return: it is in buffer 'arg0", "thread (7,0,0)");
}

/* The heap is a buffer like any other for the bounds checks: a store just
 * past a 64-byte heap's only allocation is a located fault that names it. */
static void test_past_the_heap(void **state) {
  (void)state;
  static const char *const ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
    ".visible .entry past(.param .u64 out)\n{\n  .reg .b64 %rd<3>;\n"
    "  { .param .b64 param0;\n    st.param.b64 [param0+0], 64;\n    .param .b64 retval0;\n"
    "    call.uni (retval0), malloc, (param0);\n    ld.param.b64 %rd1, [retval0+0]; }\n"
    "  st.global.u32 [%rd1+64], 7;\n  ret;\n}\n";
  char *path = tu_temp_file(".ptx", ptx), args[512], *err = NULL;
  snprintf(args, sizeof args, "sim %s --kernel past --grid 1 --block 1 --arg buf:u32:1 --heap-size 64", path);
  assert_int_not_equal(tu_run_cli(args, NULL, &err), 0);
  expect_contains(err, "out-of-bounds global store");
  expect_contains(err, "device heap (64 bytes at 0x");
  expect_contains(err, ":13: st.global.u32 [%rd1+64], 7");
  free(err);
  unlink(path);
  free(path);
}

/* --- __managed__ variables ---------------------------------------------------- */

/* A __managed__ counter, histogram and scale (with its initializer) and a
 * __device__ float total, read after the run from the module's variables. */
static void test_managed_counter(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("managed_vars.ptx"));
  SimRun run;
  enum { N = 512 };
  tu_launch(&run, m, "_Z11count_abovePKfPfif", "4", "128", 0, "buf:f32:512", "buf:f32:512:zero", "i32:512", "f32:0.5",
            NULL);
  const float *in = ARG(&run, 0, float, N), *out = ARG(&run, 1, float, N);
  uint64_t count = 0;
  int32_t hist[16] = {0};
  double total = 0;
  for (int i = 0; i < N; i++) {
    if (out[i] != in[i] * 1.5f) fail_msg("out[%d] = %g, expected %g", i, out[i], in[i] * 1.5f);
    count += in[i] > 0.5f;
    int bin = (int)(in[i] * 16.0f);
    hist[bin < 0 ? 0 : bin > 15 ? 15 : bin]++;
    total += in[i];
  }
  uint64_t got_count;
  memcpy(&got_count, module_var(&run, m, "m_count", 8), 8);
  assert_int_equal(got_count, count);
  assert_true(count > 100 && count < 412); /* the input is not degenerate */
  assert_memory_equal(module_var(&run, m, "m_hist", sizeof hist), hist, sizeof hist);
  float got_total;
  memcpy(&got_total, module_var(&run, m, "d_total", 4), 4);
  assert_true(fabs(got_total - total) < 1e-3 * total); /* float atomics: any order */
  sim_run_free(&run);
  ptx_module_free(m);
}

/* The host sets __managed__ variables before a launch (--const) and reads
 * them after it (--dump writes the module's variables). */
static void test_managed_cli(void **state) {
  (void)state;
  char dir[] = "/tmp/wmmanagedXXXXXX";
  assert_non_null(mkdtemp(dir));
  char args[1024], *err = NULL;
  snprintf(args, sizeof args, "sim %s --const m_scale=f32:2 --const m_count=u64:1000 --dump %s",
           tu_corpus("managed_vars.ptx"), dir);
  int rc = tu_run_cli(args, NULL, &err);
  if (rc) fail_msg("rc %d: %s", rc, err);
  free(err);
  PtxModule *m = tu_load(tu_corpus("managed_vars.ptx"));
  float in[512], out[512];
  tu_read_dump(dir, "count_above.arg0.f32.bin", in, sizeof in);
  tu_read_dump(dir, "count_above.arg1.f32.bin", out, sizeof out);
  uint8_t *vars = malloc(m->global_size);
  tu_read_dump(dir, "count_above.module___device___variables.b8.bin", vars, m->global_size);
  uint64_t count = 1000, got;
  for (int i = 0; i < 512; i++) {
    if (out[i] != in[i] * 2.0f) fail_msg("out[%d] = %g, expected %g", i, out[i], in[i] * 2.0f);
    count += in[i] > 0.5f;
  }
  for (int i = 0; i < m->nvars; i++)
    if (!strcmp(m->vars[i].name, "m_count")) memcpy(&got, vars + m->vars[i].offset, 8);
  assert_int_equal(got, count);
  free(vars);
  ptx_module_free(m);
  snprintf(args, sizeof args, "rm -rf %s", dir);
  assert_int_equal(system(args), 0);
}

/* .attribute(.managed) and .attribute(.unified(hi, lo)) on .global
 * variables; anything else is a located error. */
static void test_attribute_forms(void **state) {
  (void)state;
  static const char *const head = ".version 8.0\n.target sm_90\n.address_size 64\n";
  char text[1024];
  snprintf(text, sizeof text,
           "%s.global .attribute(.managed) .align 4 .u32 m;\n"
           ".global .attribute(.unified(19, 95)) .f32 u = 0f3F800000;\n"
           ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %%r<3>;\n  .reg .b64 %%rd<2>;\n"
           "  ld.param.u64 %%rd1, [out];\n  ld.global.u32 %%r1, [m];\n  ld.global.u32 %%r2, [u];\n"
           "  add.u32 %%r1, %%r1, %%r2;\n  st.global.u32 [%%rd1], %%r1;\n  ret;\n}\n",
           head);
  char *path = tu_temp_file(".ptx", text);
  PtxModule *m = tu_load(path);
  SimRun run;
  tu_launch(&run, m, "k", "1", "1", 0, "buf:u32:1:zero", NULL);
  assert_int_equal(*ARG(&run, 0, uint32_t, 1), 0x3F800000u); /* m is 0, u holds 1.0f */
  sim_run_free(&run);
  ptx_module_free(m);
  unlink(path);
  free(path);

  static const char *const bad[][2] = {
    {".global .attribute(.pinned) .u32 x;\n", ":4:20: unsupported variable attribute '.pinned'"},
    {".shared .attribute(.managed) .u32 x;\n", ":4:9: .attribute applies only to .global variables"},
    {".global .attribute(.unified(1)) .u32 x;\n", ":4:30: "},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    snprintf(text, sizeof text, "%s%s", head, bad[i][0]);
    path = tu_temp_file(".ptx", text);
    WmErr e = {0};
    PtxModule *bm = ptx_load(path, NULL, &e);
    if (bm) fail_msg("'%s' loaded", bad[i][0]);
    expect_contains(e.msg, bad[i][1]);
    expect_contains(e.msg, "^");
    unlink(path);
    free(path);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_thread_scratch),
    cmocka_unit_test(test_block_buffer),
    cmocka_unit_test(test_linked_list),
    cmocka_unit_test(test_aligned_new),
    cmocka_unit_test(test_fill_heap),
    cmocka_unit_test(test_heap_size_option),
    cmocka_unit_test(test_threads_deterministic),
    cmocka_unit_test(test_bad_frees),
    cmocka_unit_test(test_past_the_heap),
    cmocka_unit_test(test_managed_counter),
    cmocka_unit_test(test_managed_cli),
    cmocka_unit_test(test_attribute_forms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
