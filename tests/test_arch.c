/* test_arch.c - the presets, `warpmem arch`, `warpmem occupancy`, and the
 * occupancy in `warpmem sim` reports, end to end.
 *
 * Expected numbers: published facts of each GPU (the sources are in
 * src/arch/arch.c), the H200 ground truth's README (132 SMs, 60 MiB L2), and
 * the CUDA Best Practices Guide's occupancy example (cc 7.0, 37 registers:
 * 12 blocks of 128 threads, 4 of 320).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "testutil.h"

static char *run_ok(const char *args) {
  char *out = NULL, *err = NULL;
  int rc = tu_run_cli(args, &out, &err);
  if (rc != 0) fail_msg("warpmem %s exited %d:\n%s", args, rc, err ? err : "");
  free(err);
  return out;
}

static json_t *run_json(const char *args) {
  char *out = run_ok(args);
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("warpmem %s: not JSON (%s):\n%s", args, je.text, out);
  free(out);
  return root;
}

static json_int_t jint(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v)) fail_msg("no integer %s", key);
  return json_integer_value(v);
}

static const char *jstr(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!json_is_string(v)) fail_msg("no string %s", key);
  return json_string_value(v);
}

/* The presets in generation order, their aliases, and the facts the memory
 * model relies on. */
static void test_presets(void **state) {
  (void)state;
  static const char *const order[] = {"gt200", "fermi", "kepler", "volta", "ampere", "hopper", "h200"};
  static const int cc[] = {13, 20, 30, 70, 80, 90, 90};
  assert_int_equal(arch_count(), 7);
  for (int i = 0; i < 7; i++) {
    assert_string_equal(arch_preset(i)->name, order[i]);
    assert_int_equal(arch_preset(i)->cc, cc[i]);
    assert_ptr_equal(arch_find(order[i]), arch_preset(i));
  }
  assert_null(arch_preset(7));
  assert_null(arch_find("sm_99"));
  assert_ptr_equal(arch_find("sm_13"), arch_find("gt200"));
  assert_ptr_equal(arch_find("1.3"), arch_find("gt200"));
  assert_ptr_equal(arch_find("13"), arch_find("gt200"));
  assert_ptr_equal(arch_find("sm_20"), arch_find("fermi"));
  assert_ptr_equal(arch_find("sm_30"), arch_find("kepler"));
  assert_ptr_equal(arch_find("sm_80"), arch_find("ampere"));
  assert_ptr_equal(arch_find("h100"), arch_find("hopper"));
  /* sm_90 is the ground truth's GPU, as is the default */
  assert_ptr_equal(arch_find("sm_90"), arch_find("h200"));
  assert_ptr_equal(arch_find("90"), arch_default());
  /* nvcc's one target is the default preset's */
  assert_string_equal(arch_ptx_target(), "sm_90a"); /* Hopper's arch-specific target: wgmma compiles */
  assert_ptr_equal(arch_find(arch_ptx_target()), arch_default());
  const Arch *h = arch_default();
  assert_int_equal(h->sms, 132);                  /* groundtruth/README.md */
  assert_int_equal(h->l2_bytes, 60 * 1024 * 1024);  /* groundtruth/README.md */
  assert_true(h->dram_gbs == 4800);
  /* seed 004 / the programming guide: the memory system per generation */
  const Arch *g = arch_find("gt200"), *f = arch_find("fermi"), *k = arch_find("kepler");
  assert_int_equal(g->banks, 16);
  assert_int_equal(g->coalesce, COAL_CC12);
  assert_int_equal(g->l1_caches_loads, 0);
  assert_int_equal(g->l2_bytes, 0);
  assert_int_equal(f->banks, 32);
  assert_int_equal(f->coalesce, COAL_FERMI);
  assert_int_equal(f->l1_bytes, 16 * 1024);       /* 48 KB shared / 16 KB L1 */
  assert_int_equal(f->smem_sm, 48 * 1024);
  assert_int_equal(f->l1_caches_loads, 1);
  assert_int_equal(f->l2_bytes, 768 * 1024);
  assert_int_equal(f->l2_line, 128);
  assert_int_equal(k->bank_bytes, 4);
  assert_int_equal(k->l1_caches_loads, 0);
  assert_int_equal(k->l2_bytes, 512 * 1024);
  assert_int_equal(k->coalesce, COAL_SECTOR);
  /* unified arrays and their largest shared-memory configuration */
  static const struct { const char *name; int kib, max_carve; } unified[] = {
    {"volta", 128, 96}, {"ampere", 192, 164}, {"hopper", 256, 228}, {"h200", 256, 228}};
  for (size_t i = 0; i < sizeof unified / sizeof unified[0]; i++) {
    const Arch *a = arch_find(unified[i].name);
    assert_int_equal(a->l1_smem_bytes, unified[i].kib * 1024);
    int last = 0;
    for (const int *c = a->carveouts; *c; c++) {
      assert_true(*c > last); /* ascending */
      last = *c;
    }
    assert_int_equal(last, unified[i].max_carve);
    assert_int_equal(a->smem_sm, last * 1024);
    assert_int_equal(a->l1_caches_loads, 1);
    assert_int_equal(a->l2_sector, 32);
    assert_int_equal(a->l1_line, 128);
  }
  /* DRAM: the peak follows from the bus; every preset says which */
  for (int i = 0; i < arch_count(); i++) {
    const Arch *a = arch_preset(i);
    assert_true(a->dram_gbs > 0 && a->bus_bits > 0 && a->channels > 0 && a->dram_banks > 0);
    assert_int_equal(a->bus_bits % a->channels, 0);
    assert_true(a->max_warps_sm * a->warp_size == a->max_threads_sm);
  }
}

/* `warpmem arch`: one row per preset, in order. */
static void test_arch_list(void **state) {
  (void)state;
  char *out = run_ok("arch");
  const char *prev = out;
  static const char *const order[] = {"\ngt200 ", "\nfermi ", "\nkepler ", "\nvolta ", "\nampere ", "\nhopper ",
                                      "\nh200 "};
  for (int i = 0; i < 7; i++) {
    const char *p = strstr(out, order[i]);
    if (!p || p < prev) fail_msg("%s missing or out of order:\n%s", order[i] + 1, out);
    prev = p;
  }
  assert_non_null(strstr(out, "NVIDIA H200 SXM 141GB"));
  assert_non_null(strstr(out, "HBM3e 6144-bit"));
  free(out);
  json_t *arr = run_json("arch --format json");
  assert_true(json_is_array(arr));
  assert_int_equal(json_array_size(arr), 7);
  json_t *h = json_array_get(arr, 6);
  assert_string_equal(jstr(h, "name"), "h200");
  assert_int_equal(jint(h, "sms"), 132);
  assert_int_equal(jint(h, "l2_bytes"), 62914560);
  assert_string_equal(jstr(json_array_get(arr, 0), "cc"), "1.3");
  json_decref(arr);
}

/* `warpmem arch NAME`: every field with its meaning; aliases; errors. */
static void test_arch_show(void **state) {
  (void)state;
  char *out = run_ok("arch fermi");
  assert_non_null(strstr(out, "NVIDIA Tesla C2050"));
  assert_non_null(strstr(out, "l2_bytes"));
  assert_non_null(strstr(out, "768 KiB"));
  assert_non_null(strstr(out, "L2 cache"));   /* the meaning column */
  assert_non_null(strstr(out, "16,48"));      /* Fermi's two configurations */
  free(out);
  json_t *o = run_json("arch sm_80 --format json");
  assert_string_equal(jstr(o, "name"), "ampere");
  assert_int_equal(jint(o, "sms"), 108);
  assert_int_equal(jint(o, "smem_reserved"), 1024);
  json_t *c = json_object_get(o, "carveouts");
  assert_int_equal(json_array_size(c), 8);
  assert_int_equal(json_integer_value(json_array_get(c, 0)), 0);
  assert_int_equal(json_integer_value(json_array_get(c, 7)), 164);
  assert_true(json_is_true(json_object_get(o, "l1_caches_loads")));
  json_decref(o);
  o = run_json("arch h100 --format json");
  assert_string_equal(jstr(o, "name"), "hopper");
  assert_int_equal(jint(o, "l2_bytes"), 50 * 1024 * 1024);
  json_decref(o);

  char *err = NULL;
  assert_int_equal(tu_run_cli("arch sm_99", NULL, &err), 2);
  assert_non_null(strstr(err, "unknown GPU preset 'sm_99'"));
  assert_non_null(strstr(err, "gt200, fermi, kepler, volta, ampere, hopper, h200"));
  free(err);
  assert_int_equal(tu_run_cli("arch --format yaml", NULL, NULL), 2);
  assert_int_equal(tu_run_cli("arch h200 volta", NULL, NULL), 2);
  /* --arch of sim takes the same names and says the same */
  assert_int_equal(tu_run_cli("sim x.ptx --arch pascal", NULL, &err), 2);
  assert_non_null(strstr(err, "unknown --arch 'pascal'"));
  assert_non_null(strstr(err, "gt200, fermi"));
  free(err);
}

/* `warpmem occupancy`: the Best Practices Guide's example, text and JSON. */
static void test_occupancy_cmd(void **state) {
  (void)state;
  char *out = run_ok("occupancy --arch volta --block 128 --regs 37");
  assert_non_null(strstr(out, "blocks per SM   12\n"));
  assert_non_null(strstr(out, "warps per SM    48 of 64\n"));
  assert_non_null(strstr(out, "occupancy       75.0%\n"));
  assert_non_null(strstr(out, "limited by      registers\n"));
  assert_non_null(strstr(out, "1280 registers per warp"));
  free(out);
  json_t *o = run_json("occupancy --arch 7.0 --block 32,10 --regs 37 --format json");
  assert_int_equal(jint(o, "blocks_per_sm"), 4);
  assert_int_equal(jint(o, "warps_per_sm"), 40);
  assert_int_equal(jint(o, "threads"), 320);
  assert_string_equal(json_string_value(json_array_get(json_object_get(o, "limiters"), 0)), "registers");
  assert_int_equal(jint(json_object_get(o, "limits"), "warps"), 6);
  assert_true(json_is_null(json_object_get(json_object_get(o, "limits"), "shared_memory")));
  json_decref(o);
  /* seed 003: 2 KB of shared memory per block, 8 blocks on GT200 */
  o = run_json("occupancy --arch gt200 --block 64 --regs 10 --smem 2K --format json");
  assert_int_equal(jint(o, "blocks_per_sm"), 8);
  assert_int_equal(jint(json_object_get(o, "limits"), "shared_memory"), 8);
  json_decref(o);
  /* a preference: half of 228 KB rounds up to the 132 KB configuration */
  o = run_json("occupancy --block 128 --regs 32 --smem 30720 --carveout 50 --format json");
  assert_string_equal(jstr(o, "arch"), "h200");
  assert_int_equal(jint(o, "blocks_per_sm"), 4);
  assert_int_equal(jint(o, "carveout_bytes"), 132 * 1024);
  assert_int_equal(jint(o, "l1_bytes"), 124 * 1024);
  json_decref(o);
}

static void expect_fail(const char *args, int status, const char *needle) {
  char *err = NULL;
  int rc = tu_run_cli(args, NULL, &err);
  if (rc != status || !err || !strstr(err, needle))
    fail_msg("warpmem %s: exit %d (want %d), stderr:\n%s\n(want '%s')", args, rc, status, err ? err : "", needle);
  free(err);
}

static void test_occupancy_errors(void **state) {
  (void)state;
  expect_fail("occupancy --arch gt200 --block 1024 --regs 8", 1, "over the 512 threads per block of gt200");
  expect_fail("occupancy --arch kepler --block 256 --regs 64", 1, "over the 63 a thread may have");
  expect_fail("occupancy --block 1024 --regs 128", 1, "131072 registers");
  expect_fail("occupancy --block 128 --regs 32 --smem 300000", 1, "300000 bytes of shared memory");
  expect_fail("occupancy --block 128", 2, "needs --regs");
  expect_fail("occupancy --regs 32", 2, "needs --block");
  expect_fail("occupancy --arch nosuch --block 32 --regs 8", 2, "unknown GPU preset 'nosuch'");
  expect_fail("occupancy --block 32 --regs 8 --carveout 120", 2, "--carveout");
  expect_fail("occupancy --block 32 --regs 8 --bogus 1", 2, "unknown option '--bogus'");
  expect_fail("occupancy --block 0 --regs 8", 2, "");
}

#define TR_SMEM "--kernel tr_smem --grid 2,2 --block 32,32 --arg buf:f32:4096 --arg buf:f32:4096 --arg i32:64 " \
                "--arg i32:64 --init zero"
#define COPY_K "--kernel copy_k --grid 8 --block 256 --arg buf:f32:2048 --arg buf:f32:2048 --arg i32:2048 --init zero"

/* The sim report: registers (from ptxas, or --regs) and occupancy in text,
 * JSON and CSV. */
static void test_sim_report(void **state) {
  (void)state;
  char args[2048];
  /* tr_smem: 32x32 blocks with 4 KB of static shared memory: 2 per SM by the
   * warp limit, whatever ptxas says (2048 threads x 32 registers fit) */
  snprintf(args, sizeof args, "sim '%s' " TR_SMEM " --format json", tu_truth("ptx/seed_kernels.ptx"));
  json_t *root = run_json(args);
  json_t *o = json_object_get(json_array_get(root, 0), "occupancy");
  assert_non_null(o);
  assert_string_equal(jstr(o, "arch"), "h200");
  assert_int_equal(jint(o, "blocks_per_sm"), 2);
  assert_int_equal(jint(o, "warps_per_sm"), 64);
  assert_int_equal(jint(o, "smem_per_block"), 4096 + 1024);
  const char *from = jstr(o, "registers_from");
  if (!strcmp(from, "ptxas -arch=sm_90")) {
    /* ptxas -v: 12 registers (Nsight Compute reports 16: see test_occupancy) */
    assert_int_equal(jint(o, "registers"), 12);
    assert_true(json_is_null(json_object_get(o, "note")));
  } else {
    assert_string_equal(from, "assumed");
    assert_non_null(strstr(jstr(o, "note"), "use --regs"));
  }
  json_decref(root);

  /* --regs overrides: 64 registers x 1024 threads leave one block */
  snprintf(args, sizeof args, "sim '%s' " TR_SMEM " --regs 64 --format json", tu_truth("ptx/seed_kernels.ptx"));
  root = run_json(args);
  o = json_object_get(json_array_get(root, 0), "occupancy");
  assert_int_equal(jint(o, "registers"), 64);
  assert_string_equal(jstr(o, "registers_from"), "--regs");
  assert_int_equal(jint(o, "blocks_per_sm"), 1);
  assert_string_equal(json_string_value(json_array_get(json_object_get(o, "limiters"), 0)), "registers");
  json_decref(root);

  /* text and CSV */
  snprintf(args, sizeof args, "sim '%s' " COPY_K " --regs 40", tu_truth("ptx/seed_kernels.ptx"));
  char *out = run_ok(args);
  /* 40 x 32 = 1280 per warp, 12 per quarter, 48 warps: 6 blocks of 8 */
  assert_non_null(strstr(out, "occupancy on h200 (NVIDIA H200 SXM 141GB), 40 registers per thread (--regs)"));
  assert_non_null(strstr(out, "6 blocks per SM, 48 of 64 warps (75.0%), limited by registers"));
  free(out);
  snprintf(args, sizeof args, "sim '%s' " COPY_K " --regs 40 --format csv", tu_truth("ptx/seed_kernels.ptx"));
  out = run_ok(args);
  /* occupancy columns, then the cache-model rates and the time's limiter */
  assert_non_null(strstr(out, ",registers,blocks_per_sm,warps_per_sm,occupancy_pct,limiter,"
                              "l1tex__t_sector_hit_rate.pct,"));
  assert_non_null(strstr(out, ",40,6,48,75.0,registers,"));
  free(out);
  /* volta: CUDA 13's ptxas has no sm_70; sm_75's count, and the report says so */
  snprintf(args, sizeof args, "sim '%s' " COPY_K " --arch volta --format json", tu_truth("ptx/seed_kernels.ptx"));
  root = run_json(args);
  o = json_object_get(json_array_get(root, 0), "occupancy");
  assert_string_equal(jstr(o, "arch"), "volta");
  if (strcmp(jstr(o, "registers_from"), "assumed")) {
    assert_string_equal(jstr(o, "registers_from"), "ptxas -arch=sm_75");
    assert_non_null(strstr(jstr(o, "note"), "sm_70"));
  }
  /* 256 threads: 8 blocks by the warp limit; no shared memory: L1 128 KiB */
  assert_int_equal(jint(o, "blocks_per_sm"), 8);
  assert_int_equal(jint(o, "l1_bytes"), 128 * 1024);
  json_decref(root);
  expect_fail("sim x.ptx --regs 0", 2, "--regs takes registers per thread");
  expect_fail("sim x.ptx --carveout lots", 2, "--carveout takes");
}

/* A PTX that ptxas refuses (a .version it does not know): the simulation
 * runs, the registers are assumed and the report says why. */
static void test_registers_unknown(void **state) {
  (void)state;
  static const char ptx[] =
    ".version 9.9\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<3>;\n  .reg .b32 %r<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  st.global.u32 [%rd2], %r1;\n  ret;\n}\n";
  char *path = tu_temp_file(".ptx", ptx);
  char args[1024];
  snprintf(args, sizeof args, "sim '%s' --kernel k --grid 1 --block 64 --arg buf:u32:64 --format json", path);
  json_t *root = run_json(args);
  json_t *o = json_object_get(json_array_get(root, 0), "occupancy");
  assert_non_null(o);
  assert_int_equal(jint(o, "registers"), 32);
  assert_string_equal(jstr(o, "registers_from"), "assumed");
  const char *note = jstr(o, "note");
  assert_non_null(strstr(note, "assuming 32; use --regs"));
  /* 64 threads, 32 registers: 2 warps; 32 blocks by the block limit */
  assert_int_equal(jint(o, "blocks_per_sm"), 32);
  json_decref(root);
  unlink(path);
  free(path);
}

/* Launch limits come from each preset (CUDA C Programming Guide, Technical
 * Specifications): 512 threads per block and a 65535-block grid x on 1.x,
 * 1024 threads from 2.0, 2^31 - 1 blocks in x from 3.0; the opt-in shared
 * memory per block.  The emulator refuses what the chosen preset refuses. */
static void test_launch_limits(void **state) {
  (void)state;
  ArchLimits g = arch_limits(arch_find("gt200")), f = arch_limits(arch_find("fermi"));
  ArchLimits h = arch_limits(arch_find("h200")), most = arch_limits(NULL);
  assert_int_equal(g.block_threads, 512);
  assert_int_equal(g.block_xy, 512);
  assert_int_equal(g.grid_x, 65535);
  assert_int_equal(f.block_threads, 1024);
  assert_int_equal(f.grid_x, 65535);
  assert_int_equal(h.block_threads, 1024);
  assert_int_equal(h.block_z, 64);
  assert_int_equal(h.grid_x, 2147483647u);
  assert_int_equal(h.grid_yz, 65535);
  assert_int_equal(h.smem_block, 227 * 1024);
  assert_int_equal(arch_limits(arch_find("ampere")).smem_block, 163 * 1024);
  assert_int_equal(most.block_threads, 1024);
  assert_int_equal(most.grid_x, 2147483647u);
  assert_int_equal(most.smem_block, 227 * 1024);
  /* a 640-thread block runs on fermi and is refused on gt200, naming it */
  char args[4200], *err = NULL;
  snprintf(args, sizeof args, "sim '%s' --kernel setRowReadRow --grid 1 --block 32,20 --arg buf:i32:1024 --arch %%s",
           tu_truth("ptx/seed_kernels.ptx"));
  char cmd[4300];
  snprintf(cmd, sizeof cmd, args, "fermi");
  assert_int_equal(tu_run_cli(cmd, NULL, NULL), 0);
  snprintf(cmd, sizeof cmd, args, "gt200");
  assert_int_equal(tu_run_cli(cmd, NULL, &err), 1);
  assert_non_null(strstr(err, "at most 512 per block on gt200"));
  free(err);
}

/* The block scheduler's order (arch/deal.c) against place_probe.cu's
 * H200 and H100 runs (docs/results/h200-, h100-2026-11-26-place). */
static void test_deal(void **state) {
  (void)state;
  const ArchLayout *L = &arch_gh100_132;
  assert_int_equal(arch_layout_sms(L), 132);
  assert_ptr_equal(arch_find("h200")->layout, L);
  assert_ptr_equal(arch_find("hopper")->layout, L);
  uint16_t sm[132 * 8];
  assert_int_equal(arch_deal(L, 8, 8, sm, 132 * 8), 132 * 8);
  /* mm_s's first blocks: the four TPCs of 124-131 at once, then TPC 0 of
   * the four 16-SM GPCs, then TPC 1 of those and TPC 0 of the 14-SM ones */
  static const uint16_t first[32] = {124, 125, 126, 127, 128, 129, 130, 131, 0,  1,  16, 17, 32, 33, 48, 49,
                                     2,   3,   18,  19,  34,  35,  50,  51,  64, 65, 78, 79, 92, 93, 106, 107};
  assert_memory_equal(sm, first, sizeof first);
  /* an SM's blocks lie 124, 132 or 140 apart (mm_g on the H200: 730 of
   * the 810 gaps of SMs 0-119), not a fixed stride */
  int last[132], gaps = 0, usual = 0, g124 = 0, g140 = 0;
  for (int s = 0; s < 132; s++) last[s] = -1;
  for (int b = 0; b < 132 * 8; b++) {
    int s = sm[b], d = last[s] < 0 ? 0 : b - last[s];
    last[s] = b;
    if (!d || s >= 120) continue;
    gaps++, usual += d == 124 || d == 132 || d == 140, g124 += d == 124, g140 += d == 140;
  }
  assert_true(usual * 10 >= gaps * 8);
  assert_true(g124 > 0 && g140 > 0);
  /* fewer blocks than a wave: spread evenly first, then up to per_sm */
  int held[132] = {0};
  assert_int_equal(arch_deal(L, 2, 8, sm, 264), 264);
  for (int b = 0; b < 264; b++) held[sm[b]]++;
  for (int s = 0; s < 132; s++) assert_int_equal(held[s], 2);
  /* the crossbar's groups: SM i of GPCs of one path */
  assert_int_equal(arch_xbar_group(L, 0), arch_xbar_group(L, 48));
  assert_int_equal(arch_xbar_group(L, 65), arch_xbar_group(L, 107));
  assert_int_not_equal(arch_xbar_group(L, 0), arch_xbar_group(L, 64));
  assert_int_equal(arch_xbar_group(L, 132), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_presets),          cmocka_unit_test(test_arch_list),
    cmocka_unit_test(test_arch_show),        cmocka_unit_test(test_occupancy_cmd),
    cmocka_unit_test(test_occupancy_errors), cmocka_unit_test(test_sim_report),
    cmocka_unit_test(test_registers_unknown), cmocka_unit_test(test_launch_limits),
    cmocka_unit_test(test_deal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
