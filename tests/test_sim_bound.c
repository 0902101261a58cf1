/* test_sim_bound.c - launches on memory that outlives them, as warpmem run
 * makes them: unified device memory (gmem_init_unified: a device address is
 * a host pointer), cudaFree (gmem_release), a module's .global segment made
 * once (gmem_module_segment, EmuLaunch.global_base) and sim_run_bound with
 * and without the memory model.
 *
 * First principles behind the numbers:
 *  - fill writes out[i] = 3i+1 and twice out[i] = 2*in[i]: what the second
 *    launch reads is what the first wrote (or the host, through the pointer).
 *  - counter starts at 5 (its initializer) and each bump adds 1: 6, then 7;
 *    both relocated pointers to it read the same, so they were relocated
 *    once (twice, they would point a segment further and fault).
 *  - a bound launch of the same kernel on the same inputs, at the same
 *    addresses (both GlobalMems hand out GMEM_BASE first), makes the same
 *    requests: every counter equals sim_run_launch's.  A functional one
 *    writes the same outputs and counts nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arch/arch.h"
#include "emu/emu_exec.h"
#include "launch/launch.h"
#include "sim/sim.h"
#include "testutil.h"

static void expect_contains(const char *text, const char *want) {
  if (!text || !strstr(text, want)) fail_msg("expected to find\n  %s\nin\n%s", want, text ? text : "(null)");
}

/* One //@ line, parsed. */
static LaunchSpec spec(const char *line) {
  char text[512];
  snprintf(text, sizeof text, "//@ %s\n", line);
  LaunchSpec *ls = NULL, out;
  int n = 0;
  WmErr e = {0};
  if (launch_parse_file("test.cu", text, &ls, &n, &e)) fail_msg("%s", e.msg);
  assert_int_equal(n, 1);
  out = ls[0];
  free(ls);
  return out;
}

static SimOptions options(void) {
  SimOptions o;
  sim_options_init(&o);
  return o;
}

/* Memory for bound launches of one module: its buffers, parameters, bank. */
typedef struct Bound {
  GlobalMem g;
  uint8_t params[4096];
  uint8_t *cmem;
  SimBound b;
} Bound;

/* A unified GlobalMem with ls's arguments bound as sim_run_launch binds
 * them (o's init and seed), then, as emu_run would make it, the module's
 * segment (so that every address is sim_run_launch's). */
static void bind(Bound *B, const PtxModule *m, const LaunchSpec *ls, const SimOptions *o) {
  memset(B, 0, sizeof *B);
  gmem_init_unified(&B->g, 0);
  WmErr e = {0};
  const PtxKernel *k = ptx_find_kernel(m, ls->name, &e);
  if (!k) fail_msg("%s", e.msg);
  assert_true(k->param_size <= sizeof B->params);
  if (launch_bind(k, ls, &B->g, B->params, o->init, o->seed, &e)) fail_msg("%s: %s", ls->label, e.msg);
  B->cmem = calloc(m->const_size + 1, 1);
  if (m->const_init) memcpy(B->cmem, m->const_init, m->const_size);
  if (gmem_module_segment(&B->g, m, NULL, B->cmem, &B->b.global_base, &e)) fail_msg("%s", e.msg);
  B->b.gmem = &B->g;
  B->b.params = B->params;
  B->b.const_mem = B->cmem;
}

static void unbind(Bound *B) {
  gmem_free(&B->g);
  free(B->cmem);
}

static void run_ok(const PtxModule *m, const LaunchSpec *ls, const SimBound *b, SimRun *run) {
  SimOptions o = options();
  WmErr e = {0};
  if (sim_run_bound(m, ls, b, &o, run, &e)) fail_msg("%s: %s", ls->label, e.msg);
}

/* Every buffer's host copy lies at its device address. */
static void check_unified(const GlobalMem *g) {
  assert_int_equal(g->unified, 1);
  for (int i = 0; i < g->n; i++) assert_ptr_equal(g->buf[i].data, (uint8_t *)(uintptr_t)g->buf[i].addr);
}

/* --- memory shared by launches --------------------------------------------- */

static void test_second_launch_reads_first(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_data("sim_bound.ptx"));
  SimOptions o = options();
  LaunchSpec lf = spec("fill grid=4 block=256 args=buf:u32:1000:zero,u32:1000");
  LaunchSpec lt = spec("twice grid=4 block=256 args=buf:u32:1:zero,buf:u32:1000:zero,u32:1000");
  Bound B;
  bind(&B, m, &lf, &o);
  SimRun run;
  run_ok(m, &lf, &B.b, &run);
  sim_run_free(&run);
  uint64_t filled = B.g.buf[0].addr;
  /* twice's own arguments on the same memory, then its input pointed at fill's output */
  WmErr e = {0};
  const PtxKernel *kt = ptx_find_kernel(m, "twice", &e);
  uint8_t tp[64] = {0};
  assert_int_equal(launch_bind(kt, &lt, &B.g, tp, o.init, o.seed, &e), 0);
  uint32_t slots[4];
  assert_int_equal(launch_pointer_slots(kt, &lt, slots, 4), 2);
  memcpy(tp + slots[0], &filled, 8);
  uint64_t out_addr;
  memcpy(&out_addr, tp + slots[1], 8);
  /* the host writes through the device address: the kernel sees it */
  uint32_t *in = (uint32_t *)(uintptr_t)filled;
  assert_int_equal(in[7], 22);
  in[0] = 100;
  SimBound bt = B.b;
  bt.params = tp;
  run_ok(m, &lt, &bt, &run);
  assert_int_equal(run.have_time, 1);
  sim_run_free(&run);
  check_unified(&B.g);
  /* and reads the result the same way */
  const uint32_t *out = (const uint32_t *)(uintptr_t)out_addr;
  assert_int_equal(out[0], 200);
  for (uint32_t i = 1; i < 1000; i++) assert_int_equal(out[i], 2 * (3 * i + 1));
  unbind(&B);
  ptx_module_free(m);
}

static void test_module_counter_persists(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_data("sim_bound.ptx"));
  SimOptions o = options();
  LaunchSpec ls = spec("bump grid=2 block=32 args=buf:u32:2:zero");
  Bound B;
  bind(&B, m, &ls, &o);
  assert_true(B.b.global_base != 0);
  int nbuf = B.g.n;
  const uint32_t *seen = (const uint32_t *)(uintptr_t)B.g.buf[0].addr;
  const uint32_t *counter = (const uint32_t *)(uintptr_t)B.b.global_base; /* counter: offset 0 */
  for (uint32_t launch = 1; launch <= 2; launch++) {
    SimRun run;
    run_ok(m, &ls, &B.b, &run);
    sim_run_free(&run);
    assert_int_equal(seen[0], 5 + launch);
    assert_int_equal(seen[1], 5 + launch);
    assert_int_equal(*counter, 5 + launch);
    assert_int_equal(B.g.n, nbuf); /* nothing left behind by a launch */
  }
  /* functional: the same memory, the same effect */
  B.b.functional = 1;
  SimRun run;
  run_ok(m, &ls, &B.b, &run);
  sim_run_free(&run);
  assert_int_equal(*counter, 8);
  assert_int_equal(seen[1], 8);
  /* a bound launch of a module with variables needs their segment */
  B.b.global_base = 0;
  WmErr e = {0};
  assert_int_not_equal(sim_run_bound(m, &ls, &B.b, &o, &run, &e), 0);
  expect_contains(e.msg, "global_base");
  unbind(&B);
  ptx_module_free(m);
}

/* The device heap outlives a launch, with what it holds (CUDA: until the
 * context ends): 100 bytes take 7 granules of 16, so the second launch's
 * allocation starts 112 bytes after the first's. */
static void test_heap_persists(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_data("sim_bound.ptx"));
  SimOptions o = options();
  LaunchSpec ls = spec("keep grid=1 block=32 args=buf:u64:1:zero");
  Bound B;
  bind(&B, m, &ls, &o);
  const uint64_t *where = (const uint64_t *)(uintptr_t)B.g.buf[0].addr;
  uint64_t first = 0;
  for (int launch = 0; launch < 2; launch++) {
    SimRun run;
    run_ok(m, &ls, &B.b, &run);
    sim_run_free(&run);
    assert_int_equal(B.g.heap.size, GHEAP_DEFAULT_SIZE);
    uint64_t heap = B.g.buf[B.g.heap.buf].addr;
    if (launch == 0) {
      first = where[0];
      assert_int_equal(first, heap);
    } else {
      assert_int_equal(where[0], first + 112);
    }
    assert_int_equal(B.g.heap.live, 112 * (uint64_t)(launch + 1));
    assert_int_equal(((uint8_t *)(uintptr_t)where[0])[99], 1); /* the host reads it too */
  }
  unbind(&B);
  ptx_module_free(m);
}

/* The grid-sync workspace of a cooperative launch does not pile up. */
static void test_cooperative_leaves_nothing(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_corpus("cg_grid.ptx"));
  SimOptions o = options();
  LaunchSpec ls = spec("grid_scan cooperative grid=12 block=256 args=buf:i32:3072:rand,buf:i32:12:zero,"
                       "buf:i32:3072:zero");
  Bound B;
  bind(&B, m, &ls, &o);
  int nbuf = B.g.n;
  uint64_t total = B.g.total;
  for (int i = 0; i < 2; i++) {
    SimRun run;
    run_ok(m, &ls, &B.b, &run);
    sim_run_free(&run);
    assert_int_equal(B.g.n, nbuf);
    assert_int_equal(B.g.total, total);
    assert_int_equal(B.g.nfreed, 0);
  }
  /* the scan is right: out[i] = in[0] + ... + in[i] */
  const int32_t *in = (const int32_t *)B.g.buf[0].data, *out = (const int32_t *)B.g.buf[2].data;
  int32_t sum = 0;
  for (int i = 0; i < 3072; i++) assert_int_equal(out[i], sum += in[i]);
  unbind(&B);
  ptx_module_free(m);
}

/* --- cudaFree ------------------------------------------------------------------ */

static int mapped(uint64_t addr) { return msync((void *)(uintptr_t)addr, 4096, MS_ASYNC) == 0 || errno != ENOMEM; }

static void test_release(void **state) {
  (void)state;
  GlobalMem g;
  gmem_init_unified(&g, 0);
  WmErr e = {0};
  int a = gmem_alloc(&g, 100, "a", PTX_T_U8, 100, &e), b = gmem_alloc(&g, 5000, "b", PTX_T_U8, 5000, &e);
  int c = gmem_alloc(&g, 64, "c", PTX_T_U8, 64, &e);
  assert_true(a == 0 && b == 1 && c == 2);
  assert_int_equal(emu_heap_open(&g, 4096, &e), 0);
  assert_int_equal(g.heap.buf, 3);
  uint64_t aa = g.buf[0].addr, ba = g.buf[1].addr, ca = g.buf[2].addr, ha = g.buf[3].addr;
  /* the guard page after each buffer is left unmapped */
  assert_true(ba >= aa + 2 * GMEM_ALIGN);
  assert_false(mapped(aa + GMEM_ALIGN));
  GTex t = {.dims = 1, .type = PTX_T_U8, .nchan = 1, .texel = 1, .w = 64, .h = 1, .d = 1, .buf = c, .addr = ca};
  uint64_t hc = gmem_add_tex(&g, &t);
  t.buf = a;
  t.addr = aa;
  uint64_t ht = gmem_add_tex(&g, &t);
  uint64_t total = g.total;
  ((uint8_t *)(uintptr_t)aa)[99] = 1;
  assert_true(mapped(aa));
  assert_int_equal(gmem_release(&g, aa, &e), 0);
  assert_false(mapped(aa)); /* a host access to it would fault now */
  assert_int_equal(g.n, 3);
  assert_int_equal(g.total, total - 100);
  assert_int_equal(g.buf[0].addr, ba);
  assert_int_equal(gmem_tex(&g, hc)->buf, 1); /* follows its buffer */
  assert_int_equal(gmem_tex(&g, ht)->buf, -1); /* its buffer is gone */
  assert_int_equal(g.heap.buf, 2);
  assert_int_equal(g.buf[g.heap.buf].addr, ha);
  /* errors name the address and the nearest buffer */
  char want[64];
  assert_int_equal(gmem_release(&g, aa, &e), -1);
  snprintf(want, sizeof want, "0x%" PRIx64, aa);
  expect_contains(e.msg, want);
  expect_contains(e.msg, "nearest is b");
  assert_int_equal(gmem_release(&g, ba + 16, &e), -1);
  expect_contains(e.msg, "16 bytes into buffer b");
  assert_int_equal(gmem_release(&g, ha, &e), -1);
  expect_contains(e.msg, "device heap");
  assert_int_equal(gmem_release(&g, 0, &e), 0); /* cudaFree(NULL) */
  assert_int_equal(g.n, 3);
  /* a new buffer never reuses a released address */
  int d = gmem_alloc(&g, 8, "d", PTX_T_U8, 8, &e);
  assert_true(g.buf[d].addr > ha);
  check_unified(&g);
  gmem_free(&g);
  assert_false(mapped(ba));
}

static void test_kernel_after_release(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_data("sim_bound.ptx"));
  SimOptions o = options();
  LaunchSpec ls = spec("fill grid=1 block=32 args=buf:u32:32:zero,u32:32");
  Bound B;
  bind(&B, m, &ls, &o);
  uint64_t addr = B.g.buf[0].addr;
  WmErr e = {0};
  assert_int_equal(gmem_release(&B.g, addr, &e), 0);
  SimRun run;
  assert_int_equal(sim_run_bound(m, &ls, &B.b, &o, &run, &e), -1);
  assert_int_equal(e.code, WM_EFAULT);
  char want[96];
  snprintf(want, sizeof want, "out-of-bounds global store of 4 bytes at 0x%" PRIx64, addr);
  expect_contains(e.msg, want);
  expect_contains(e.msg, "fill");
  expect_contains(e.msg, "0 bytes into arg0");
  expect_contains(e.msg, "which was freed");
  unbind(&B);
  ptx_module_free(m);
  /* a texture object whose texels were freed */
  m = tu_load(tu_corpus("tex_sampling.ptx"));
  ls = spec("stencil5 grid=8,16 block=32,8 args=tex:f32:256x128:point:clamp,buf:f32:32768:zero,i32:256,i32:128");
  bind(&B, m, &ls, &o);
  assert_int_equal(B.g.ntex, 1);
  uint64_t texels = B.g.buf[B.g.tex[0].buf].addr;
  assert_int_equal(gmem_release(&B.g, texels, &e), 0);
  assert_int_equal(sim_run_bound(m, &ls, &B.b, &o, &run, &e), -1);
  assert_int_equal(e.code, WM_EFAULT);
  snprintf(want, sizeof want, "its texels' buffer at 0x%" PRIx64 " was freed", texels);
  expect_contains(e.msg, want);
  unbind(&B);
  ptx_module_free(m);
}

/* --- bound vs sim_run_launch, functional vs modeled ---------------------------- */

static void same_buffers(const GlobalMem *want, const GlobalMem *got, const char *label) {
  assert_int_equal(want->n, got->n);
  for (int i = 0; i < want->n; i++) {
    assert_int_equal(want->buf[i].addr, got->buf[i].addr);
    assert_int_equal(want->buf[i].size, got->buf[i].size);
    if (memcmp(want->buf[i].data, got->buf[i].data, want->buf[i].size))
      fail_msg("%s: buffer %s differs", label, want->buf[i].name);
  }
}

/* ls three ways: sim_run_launch, bound and modeled (every counter the
 * same), bound and functional (the same outputs, no counters).  Returns
 * 0, or -1 when sim_run_launch fails (then the bound ones fail alike). */
static int compare_ways(const PtxModule *m, const LaunchSpec *ls) {
  SimOptions o = options();
  o.keep_buffers = 1;
  o.printf_out = fopen("/dev/null", "w");
  SimRun ref, run;
  WmErr e = {0}, eb = {0};
  int rc = sim_run_launch(m, ls, &o, &ref, &e);
  /* one after the other: two unified GlobalMems cannot both lie at GMEM_BASE */
  for (int functional = 0; functional < 2; functional++) {
    Bound B;
    bind(&B, m, ls, &o);
    B.b.functional = functional;
    int rb = sim_run_bound(m, ls, &B.b, &o, &run, &eb);
    assert_int_equal(rb, rc);
    if (rc) {
      assert_int_equal(eb.code, e.code);
      unbind(&B);
      continue;
    }
    for (int i = 0; i < WM_M_COUNT; i++) {
      uint64_t want = functional ? 0 : ref.mm.metric[i];
      if (run.mm.metric[i] != want)
        fail_msg("%s%s: counter %d: %" PRIu64 ", want %" PRIu64, ls->label, functional ? " functional" : "", i,
                 run.mm.metric[i], want);
    }
    assert_int_equal(run.have_time, functional ? 0 : ref.have_time);
    assert_int_equal(run.mm.nline, functional ? 0 : ref.mm.nline);
    assert_int_equal(run.thread_instrs, ref.thread_instrs);
    same_buffers(&ref.gmem, &B.g, ls->label);
    sim_run_free(&run);
    unbind(&B);
  }
  if (rc == 0) sim_run_free(&ref);
  fclose(o.printf_out);
  return rc;
}

static void test_seed_kernels(void **state) {
  (void)state;
  PtxModule *m = tu_load(tu_truth("ptx/seed_kernels.ptx"));
  static const char *const launches[] = {
      "tr_smem grid=8,8 block=32,32 args=buf:f32:65536,buf:f32:65536,i32:256,i32:256",
      "tr_naive grid=8,8 block=32,32 args=buf:f32:65536,buf:f32:65536,i32:256,i32:256",
      "inc_case#1 grid=48 block=256 args=buf:f32:12288,i32:1",
      "f3_smem grid=16 block=256 args=buf:f32:12288,buf:f32:12288",
  };
  for (size_t i = 0; i < sizeof launches / sizeof *launches; i++) {
    LaunchSpec ls = spec(launches[i]);
    assert_int_equal(compare_ways(m, &ls), 0);
  }
  ptx_module_free(m);
}

/* Every //@ launch of corpus files whose instructions have paths of their
 * own for the model: cp.async and barriers, ldmatrix and mma, textures,
 * cooperative grids, the heap, module variables, printf. */
static void test_corpus_launches(void **state) {
  (void)state;
  static const char *const files[] = {"async_copy.ptx", "mma_ldmatrix.ptx", "tex_sampling.ptx", "cg_grid.ptx",
                                      "device_heap.ptx", "managed_vars.ptx", "printf.ptx"};
  int ran = 0;
  /* one host thread: cg_grid's lookback_chain spins on flags other blocks
   * set, and managed_vars adds floats with atomics, so how often it spins
   * and the sum's rounding depend on the host threads' timing otherwise */
  const char *threads = getenv("WARPMEM_THREADS");
  char *saved = threads ? strdup(threads) : NULL;
  setenv("WARPMEM_THREADS", "1", 1);
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    PtxModule *m = tu_load(tu_corpus(files[f]));
    LaunchSpec *ls = NULL;
    int n = 0;
    WmErr e = {0};
    if (launch_read_file(tu_corpus(files[f]), &ls, &n, &e)) fail_msg("%s", e.msg);
    for (int i = 0; i < n; i++) ran += compare_ways(m, &ls[i]) == 0;
    free(ls);
    ptx_module_free(m);
  }
  if (saved) setenv("WARPMEM_THREADS", saved, 1);
  else unsetenv("WARPMEM_THREADS");
  free(saved);
  assert_true(ran >= 30);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_second_launch_reads_first), cmocka_unit_test(test_module_counter_persists),
      cmocka_unit_test(test_heap_persists),              cmocka_unit_test(test_cooperative_leaves_nothing),
      cmocka_unit_test(test_release),
      cmocka_unit_test(test_kernel_after_release),       cmocka_unit_test(test_seed_kernels),
      cmocka_unit_test(test_corpus_launches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
