/* test_occupancy.c - the occupancy calculator against published numbers.
 *
 * Where the expected numbers come from:
 * - the CUDA C++ Best Practices Guide, "Register Pressure" / occupancy: on
 *   compute capability 7.0, 128-thread blocks of 37 registers per thread give
 *   12 active blocks (75%), 320-thread blocks of 37 registers give 4 (63%);
 * - seed 003 ("Memory Resources as Limit to Parallelism"): GT200 has 16384
 *   registers and 16 KB of shared memory per SM; 16384 / 768 threads = 21
 *   registers per thread, 16 KB / 8 blocks = 2 KB per block;
 * - the rules of the CUDA occupancy calculator (cuda_occupancy.h, which is
 *   cudaOccupancyMaxActiveBlocksPerMultiprocessor): derivations next to each
 *   row of the per-generation table below;
 * - the H200 ground truth (groundtruth/h200-large-counters.csv): achieved
 *   occupancy never exceeds the theoretical one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/occupancy.h"
#include "launch/launch.h"
#include "ptx/ptx.h"
#include "testutil.h"

static OccResult occ(const char *arch, int threads, int regs, uint32_t smem, int carveout) {
  const Arch *a = arch_find(arch);
  if (!a) fail_msg("no preset %s", arch);
  OccInput in = {.threads = threads, .regs = regs, .smem = smem, .carveout_pct = carveout};
  OccResult r;
  WmErr e = {0};
  if (occ_compute(a, &in, &r, &e)) fail_msg("%s %d threads %d regs %u smem: %s", arch, threads, regs, smem, e.msg);
  return r;
}

#define BIT(l) (1u << OCC_LIMIT_##l)

/* Best Practices Guide, cc 7.0, 37 registers: 37 x 32 = 1184 registers per
 * warp, allocated as 1280 (units of 256); a quarter of the 65536-register
 * file holds 16384 / 1280 = 12 warps, 48 per SM: 12 blocks of 4 warps (75%),
 * 4 blocks of 10 warps (40 warps, 62.5%, "63%"). */
static void test_best_practices_guide(void **state) {
  (void)state;
  OccResult r = occ("volta", 128, 37, 0, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.blocks_sm, 12);
  assert_int_equal(r.warps_sm, 48);
  assert_true(r.occupancy_pct == 75.0);
  assert_int_equal(r.limiters, BIT(REGS));
  assert_int_equal(r.regs_warp, 1280);
  r = occ("volta", 320, 37, 0, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.blocks_sm, 4);
  assert_int_equal(r.warps_sm, 40);
  assert_int_equal((int)(r.occupancy_pct + 0.5), 63);
  assert_int_equal(r.limiters, BIT(REGS));
  /* "sm_70" and "7.0" are the same preset */
  assert_ptr_equal(arch_find("sm_70"), arch_find("volta"));
  assert_ptr_equal(arch_find("7.0"), arch_find("volta"));
}

/* Seed 003's GT200 table, with the exact 1.3 rules: registers are allocated
 * per block, regs x 32 x warps (warps rounded up to pairs) rounded up to 512.
 * The seed's 768 threads is G80's limit; GT200 (1.3) holds 1024 threads, 32
 * warps, 8 blocks.  21 registers give 768 threads with 192- or 384-thread
 * blocks; with 256-thread blocks the rounding to 512 costs a block. */
static void test_gt200_seed_registers(void **state) {
  (void)state;
  const Arch *a = arch_find("gt200");
  assert_int_equal(a->regs_sm, 16384);
  assert_int_equal(a->smem_sm, 16 * 1024);
  assert_int_equal(a->max_threads_sm, 1024);
  assert_int_equal(16384 / 768, 21); /* the seed's arithmetic */
  /* 192 threads = 6 warps: 21 x 32 x 6 = 4032 -> 4096; 16384 / 4096 = 4
   * blocks = 768 threads = 24 warps (75% of 32) */
  OccResult r = occ("gt200", 192, 21, 0, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.regs_block, 4096);
  assert_int_equal(r.blocks_sm, 4);
  assert_int_equal(r.warps_sm * 32, 768);
  assert_int_equal(r.limiters, BIT(REGS));
  /* 384 threads = 12 warps: 8064 -> 8192 registers; 2 blocks = 768 threads */
  r = occ("gt200", 384, 21, 0, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.regs_block, 8192);
  assert_int_equal(r.blocks_sm * 384, 768);
  /* 256 threads (TILE_WIDTH 16) = 8 warps: 5376 -> 5632; 16384 / 5632 = 2
   * blocks; 20 registers: 5120 exactly, 3 blocks = 768 threads (the seed's
   * "3 blocks, 768 threads"); 16 registers: 4096, 4 blocks = 1024 threads,
   * 100% (warps and registers both limit) */
  r = occ("gt200", 256, 21, 0, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.regs_block, 5632);
  assert_int_equal(r.blocks_sm, 2);
  r = occ("gt200", 256, 20, 0, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.blocks_sm, 3);
  assert_int_equal(r.blocks_sm * 256, 768);
  r = occ("gt200", 256, 16, 0, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.blocks_sm, 4);
  assert_true(r.occupancy_pct == 100.0);
  assert_int_equal(r.limiters, BIT(WARPS) | BIT(REGS));
}

/* Seed 003: 16 KB / 8 blocks = 2 KB of shared memory per block.  1.x
 * allocates shared memory in units of 512 bytes: 2048 bytes give 8 blocks
 * (also the block limit); 2049 round up to 2560, 6 blocks. */
static void test_gt200_seed_shared_memory(void **state) {
  (void)state;
  OccResult r = occ("gt200", 64, 10, 2048, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.limit[OCC_LIMIT_SMEM], 8);
  assert_int_equal(r.blocks_sm, 8);
  assert_int_equal(r.limiters, BIT(SMEM) | BIT(BLOCKS));
  r = occ("gt200", 64, 10, 2049, OCC_CARVEOUT_DEFAULT);
  assert_int_equal(r.smem_block, 2560);
  assert_int_equal(r.blocks_sm, 6);
  assert_int_equal(r.limiters, BIT(SMEM));
  /* no L1 for global memory, shared memory fixed */
  assert_int_equal(r.l1_bytes, 0);
  assert_int_equal(r.carveout, 16 * 1024);
}

/* One row of the per-generation table. */
typedef struct Case {
  const char *arch;
  int threads, regs;
  uint32_t smem;
  int carveout;
  int blocks, warps;
  unsigned limiters;
  uint32_t l1_kib; /* L1 left for caching */
} Case;

#define DFLT OCC_CARVEOUT_DEFAULT

static const Case cases[] = {
  /* ---- gt200 (1.3): 32 warps, 8 blocks, 16384 registers per block in
   * units of 512, warps in pairs, shared memory in units of 512 */
  /* 96 threads = 3 warps, allocated as 4: 32 / 4 = 8 blocks; 10 regs: 10 x
   * 32 x 4 = 1280 -> 1536, 10 blocks; 8 blocks x 3 warps = 24 */
  {"gt200", 96, 10, 0, DFLT, 8, 24, BIT(WARPS) | BIT(BLOCKS), 0},
  /* 512 threads, 32 regs: 16384 registers, one block; 16 warps */
  {"gt200", 512, 32, 0, DFLT, 1, 16, BIT(REGS), 0},
  /* 128 threads, 8 regs, 4000 B smem -> 4096: 16384 / 4096 = 4 blocks */
  {"gt200", 128, 8, 4000, DFLT, 4, 16, BIT(SMEM), 0},
  /* 32 threads (1 warp, allocated as 2): 16 by warps, 8 by blocks */
  {"gt200", 32, 4, 0, DFLT, 8, 8, BIT(BLOCKS), 0},

  /* ---- fermi (2.0): 48 warps, 8 blocks, 32768 registers in two halves,
   * per warp in units of 64 (128 for 21, 22, 29, 30, 37, 38, 45, 46), shared
   * memory in units of 128, 48 KB (16 KB preferring L1) */
  /* 21 regs: 672 -> 768 per warp; 16384 / 768 = 21 warps per half, 42 per
   * SM; 8-warp blocks: 5 (6 by warps) = 40 warps */
  {"fermi", 256, 21, 0, DFLT, 5, 40, BIT(REGS), 16},
  /* 20 regs: 640 per warp; 25 per half, 50: 6 blocks = 6 by warps = 48 warps */
  {"fermi", 256, 20, 0, DFLT, 6, 48, BIT(WARPS) | BIT(REGS), 16},
  /* 12 KB smem: 49152 / 12288 = 4 blocks of 4 warps */
  {"fermi", 128, 16, 12288, DFLT, 4, 16, BIT(SMEM), 16},
  /* 64 threads: 24 by warps, 8 by blocks */
  {"fermi", 64, 10, 0, DFLT, 8, 16, BIT(BLOCKS), 16},
  /* prefer L1 (0%): 16 KB shared, 48 KB L1; 8 KB blocks: 2 */
  {"fermi", 128, 16, 8192, 0, 2, 8, BIT(SMEM), 48},

  /* ---- kepler (3.0): 64 warps, 16 blocks, 65536 registers in four
   * quarters, units of 256, shared memory in units of 256, 48 KB */
  /* 63 regs: 2016 -> 2048 per warp; 8 per quarter, 32 warps: 4 blocks */
  {"kepler", 256, 63, 0, DFLT, 4, 32, BIT(REGS), 16},
  /* 32 regs: 1024 per warp; 16 per quarter, 64: 8 blocks = 8 by warps */
  {"kepler", 256, 32, 0, DFLT, 8, 64, BIT(WARPS) | BIT(REGS), 16},
  /* 64 threads: 32 by warps, 16 by blocks */
  {"kepler", 64, 16, 0, DFLT, 16, 32, BIT(BLOCKS), 16},
  /* 12 KB smem: 4 blocks of 8 warps */
  {"kepler", 256, 16, 12288, DFLT, 4, 32, BIT(SMEM), 16},
  /* prefer equal (50%: 24 KB -> the 32 KB configuration): 2 blocks, L1 32 KB */
  {"kepler", 256, 16, 12288, 50, 2, 16, BIT(SMEM), 32},

  /* ---- volta (7.0): 64 warps, 32 blocks, units of 256 (registers and
   * shared memory), 96 KB shared of a 128 KB array, no reserved memory */
  /* 48 KB per block: 98304 / 49152 = 2 blocks; the driver's carveout 96 KB */
  {"volta", 256, 32, 49152, DFLT, 2, 16, BIT(SMEM), 32},
  /* 64 regs: 2048 per warp, 8 per quarter, 32 warps: one 32-warp block */
  {"volta", 1024, 64, 0, DFLT, 1, 32, BIT(REGS), 128},
  /* 32 threads: 32 blocks, 32 warps; no shared memory: carveout 0, L1 128 KB */
  {"volta", 32, 8, 0, DFLT, 32, 32, BIT(BLOCKS), 128},
  /* 10000 B -> 10240: 9 blocks (98304 / 10240); 9 x 10 KB = 90 KB -> 96 KB */
  {"volta", 128, 16, 10000, DFLT, 9, 36, BIT(SMEM), 32},

  /* ---- ampere (8.0): as volta, 164 KB shared of 192 KB, units of 128,
   * 1 KB reserved per block */
  /* no smem: 1024 reserved -> 164 blocks by shared memory; 8 by warps;
   * carveout 8 x 1 KB -> 8 KB, L1 184 KB */
  {"ampere", 256, 16, 0, DFLT, 8, 64, BIT(WARPS), 184},
  /* 48 KB + 1 KB = 50176: 167936 / 50176 = 3; 3 x 49 KB = 147 KB -> 164 KB */
  {"ampere", 128, 32, 49152, DFLT, 3, 12, BIT(SMEM), 28},
  /* 1024 threads, 32 regs: 2 by warps, 1024 per warp -> 64 warps -> 2;
   * 2 x 1 KB reserved -> the 8 KB carveout */
  {"ampere", 1024, 32, 0, DFLT, 2, 64, BIT(WARPS) | BIT(REGS), 184},
  /* 255 regs: 8160 -> 8192 per warp, 2 per quarter, 8 warps: 2 blocks */
  {"ampere", 128, 255, 0, DFLT, 2, 8, BIT(REGS), 184},

  /* ---- hopper and h200 (9.0): 228 KB shared of 256 KB, units of 128,
   * 1 KB reserved */
  /* the seeds' tr_smem: 1024 threads, 4 KB: 2 by warps; 2 x 5 KB -> 16 KB */
  {"h200", 1024, 16, 4096, DFLT, 2, 64, BIT(WARPS), 240},
  /* inc1#32: 32 threads: 32 blocks, 50%; 32 x 1 KB reserved -> 32 KB */
  {"h200", 32, 16, 0, DFLT, 32, 32, BIT(BLOCKS), 224},
  /* 64 regs: 2048 per warp, 8 per quarter, 32 warps: 4 blocks of 8 */
  {"hopper", 256, 64, 0, DFLT, 4, 32, BIT(REGS), 248},
  /* 30 KB + 1 KB = 31744 bytes; default: 233472 / 31744 = 7, 7 x 31 KB =
   * 217 KB -> 228 KB; a 50% preference: 114 KB -> 132 KB, 4 blocks */
  {"h200", 128, 32, 30720, DFLT, 7, 28, BIT(SMEM), 28},
  {"h200", 128, 32, 30720, 50, 4, 16, BIT(SMEM), 124},
  /* the most a block may opt in to: 227 KB + 1 KB = the whole 228 KB */
  {"hopper", 256, 32, 227 * 1024, DFLT, 1, 8, BIT(SMEM), 28},
};

static void test_generation_table(void **state) {
  (void)state;
  int per[16] = {0};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const Case *c = &cases[i];
    OccResult r = occ(c->arch, c->threads, c->regs, c->smem, c->carveout);
    if (r.blocks_sm != c->blocks || r.warps_sm != c->warps || r.limiters != c->limiters ||
        r.l1_bytes != c->l1_kib * 1024u)
      fail_msg("case %zu (%s, %d threads, %d regs, %u smem, carveout %d): blocks %d warps %d limiters %#x L1 %u "
               "KiB, want %d %d %#x %u KiB",
               i, c->arch, c->threads, c->regs, c->smem, c->carveout, r.blocks_sm, r.warps_sm, r.limiters,
               r.l1_bytes / 1024, c->blocks, c->warps, c->limiters, c->l1_kib);
    for (int p = 0; p < arch_count(); p++)
      if (arch_preset(p) == arch_find(c->arch)) per[p]++;
  }
  /* at least four cases per preset (hopper and h200 share their rules) */
  for (int p = 0; p < arch_count(); p++)
    if (strcmp(arch_preset(p)->name, "hopper") && strcmp(arch_preset(p)->name, "h200"))
      assert_true(per[p] >= 4);
  int hop = 0;
  for (int p = 0; p < arch_count(); p++)
    if (!strcmp(arch_preset(p)->name, "hopper") || !strcmp(arch_preset(p)->name, "h200")) hop += per[p];
  assert_true(hop >= 4);
}

/* Launches that cannot run: a clear error, never a crash. */
static void test_errors(void **state) {
  (void)state;
  OccResult r;
  WmErr e = {0};
  OccInput in = {.threads = 1024, .regs = 16, .smem = 0, .carveout_pct = DFLT};
  /* 1.x blocks have at most 512 threads */
  assert_int_equal(occ_compute(arch_find("gt200"), &in, &r, &e), -1);
  assert_int_equal(e.code, WM_ELIMIT);
  assert_non_null(strstr(e.msg, "1024 threads"));
  assert_non_null(strstr(e.msg, "512"));
  assert_int_equal(r.blocks_sm, 0);
  /* Kepler (3.0): 63 registers per thread at most */
  in = (OccInput){.threads = 256, .regs = 64, .carveout_pct = DFLT};
  assert_int_equal(occ_compute(arch_find("kepler"), &in, &r, &e), -1);
  assert_non_null(strstr(e.msg, "63"));
  /* 1024 threads x 128 registers = 131072 > 65536 per block */
  in = (OccInput){.threads = 1024, .regs = 128, .carveout_pct = DFLT};
  assert_int_equal(occ_compute(arch_find("h200"), &in, &r, &e), -1);
  assert_non_null(strstr(e.msg, "131072"));
  /* Fermi: 1024 threads x 63 registers: 32 warps x 2048 > 32768 */
  in = (OccInput){.threads = 1024, .regs = 63, .carveout_pct = DFLT};
  assert_int_equal(occ_compute(arch_find("fermi"), &in, &r, &e), -1);
  /* shared memory over the opt-in limit (227 KB on sm_90) */
  in = (OccInput){.threads = 128, .regs = 16, .smem = 227 * 1024 + 1, .carveout_pct = DFLT};
  assert_int_equal(occ_compute(arch_find("h200"), &in, &r, &e), -1);
  assert_non_null(strstr(e.msg, "232448"));
  /* malformed input */
  in = (OccInput){.threads = 0, .regs = 16, .carveout_pct = DFLT};
  assert_int_equal(occ_compute(arch_find("h200"), &in, &r, &e), -1);
  assert_int_equal(e.code, WM_EUSAGE);
  in = (OccInput){.threads = 32, .regs = 16, .carveout_pct = 101};
  assert_int_equal(occ_compute(arch_find("h200"), &in, &r, &e), -1);
  assert_int_equal(e.code, WM_EUSAGE);
  /* over the default 48 KB but within the opt-in: computed, flagged */
  r = occ("volta", 128, 16, 50 * 1024, DFLT);
  assert_int_equal(r.optin, 1);
  assert_int_equal(r.blocks_sm, 1);
}

/* ---- the H200 ground truth ------------------------------------------------ */

/* Every launch of seed_launches_large.cu: the theoretical occupancy with the
 * registers Nsight Compute reports (launch__registers_per_thread) is at
 * least the achieved occupancy it measured (sm__warps_active, % of peak). */
static void test_ground_truth_upper_bound(void **state) {
  (void)state;
  WmErr e = {0};
  char *csv = wm_read_file(tu_truth("h200-large-counters.csv"), NULL, &e);
  char *cu = wm_read_file(tu_truth("seed_launches_large.cu"), NULL, &e);
  char *ptx = wm_read_file(tu_truth("ptx/seed_kernels.ptx"), NULL, &e);
  assert_non_null(csv);
  assert_non_null(cu);
  assert_non_null(ptx);
  PtxModule *m = ptx_parse(tu_truth("ptx/seed_kernels.ptx"), ptx, &e);
  if (!m) fail_msg("%s", e.msg);
  LaunchSpec *ls = NULL;
  int n = 0;
  if (launch_parse_file(tu_truth("seed_launches_large.cu"), cu, &ls, &n, &e)) fail_msg("%s", e.msg);
  assert_true(n >= 38);
  int checked = 0, full = 0;
  for (int i = 0; i < n; i++) {
    const PtxKernel *k = ptx_find_kernel(m, ls[i].name, NULL);
    double regs = tu_csv_value(csv, ls[i].label, "launch__registers_per_thread");
    double achieved = tu_csv_value(csv, ls[i].label, "sm__warps_active.avg.pct_of_peak_sustained_active");
    if (!k || regs <= 0) continue;
    OccResult r = occ("h200", (int)(ls[i].block[0] * ls[i].block[1] * ls[i].block[2]), (int)regs,
                      k->shared_static + ls[i].smem, DFLT);
    if (achieved > r.occupancy_pct)
      fail_msg("%s: achieved %.2f%% over the theoretical %.1f%%", ls[i].label, achieved, r.occupancy_pct);
    checked++;
    full += r.occupancy_pct == 100.0;
  }
  /* inc1#32: 32-thread blocks, 32 per SM: at most 50%; measured 8.58% */
  OccResult r = occ("h200", 32, 16, 0, DFLT);
  assert_true(r.occupancy_pct == 50.0);
  double inc1 = tu_csv_value(csv, "inc1#32", "sm__warps_active.avg.pct_of_peak_sustained_active");
  assert_true(inc1 > 0 && inc1 < 50.0);
  assert_int_equal(checked, n);
  assert_int_equal(full, n - 1); /* all but inc1#32 (inc1#64: 32 blocks of 2 warps) */
  free(ls);
  ptx_module_free(m);
  free(csv);
  free(cu);
}

/* Registers from ptxas -v on the seeds' PTX for sm_90.  Nsight Compute
 * reports launch__registers_per_thread = max(ptxas's count, 16) on the H200
 * (groundtruth/h200-seed-counters.csv: 8..14 show as 16; 19, 22 and 32 as
 * is): an observation, not a published rule.  Skipped without ptxas. */
static void test_ptxas_registers(void **state) {
  (void)state;
  WmErr e = {0};
  char *ptx = wm_read_file(tu_truth("ptx/seed_kernels.ptx"), NULL, &e);
  char *csv = wm_read_file(tu_truth("h200-seed-counters.csv"), NULL, &e);
  assert_non_null(ptx);
  assert_non_null(csv);
  PtxModule *m = ptx_parse(tu_truth("ptx/seed_kernels.ptx"), ptx, &e);
  if (!m) fail_msg("%s", e.msg);
  if (ptx_registers(m, 90, NULL, 0)) {
    printf("  (skipped: %s)\n", m->regs_note);
    ptx_module_free(m);
    free(csv);
    skip();
  }
  assert_string_equal(m->regs_from, "ptxas -arch=sm_90");
  static const char *const launches[] = {"f3_smem", "mm_s", "mm_g", "local_heap", "tr_smem", "copy_k", "inc1#32"};
  for (size_t i = 0; i < sizeof launches / sizeof launches[0]; i++) {
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(launches[i], "#"), launches[i]);
    const PtxKernel *k = ptx_find_kernel(m, name, &e);
    assert_non_null(k);
    int want = (int)tu_csv_value(csv, launches[i], "launch__registers_per_thread");
    int got = k->regs < 16 ? 16 : k->regs;
    if (got != want) fail_msg("%s: ptxas %d registers, Nsight Compute %d", name, k->regs, want);
  }
  /* the code's size from the cubin ptxas built: SASS instructions are 16
   * bytes and ptxas pads a kernel to 128; mm_g's loop makes it larger
   * than copy_k's straight line */
  const PtxKernel *mmg = ptx_find_kernel(m, "mm_g", &e), *copy = ptx_find_kernel(m, "copy_k", &e);
  assert_true(copy->code_bytes > 0 && copy->code_bytes % 128 == 0);
  assert_true(mmg->code_bytes % 128 == 0 && mmg->code_bytes > copy->code_bytes);
  /* an older preset: sm_75's count, said so */
  assert_int_equal(ptx_registers(m, 30, NULL, 0), 0);
  assert_string_equal(m->regs_from, "ptxas -arch=sm_75");
  assert_non_null(strstr(m->regs_note, "sm_30"));
  assert_true(ptx_find_kernel(m, "mm_s", &e)->regs > 0);
  /* only the named entries */
  const char *only[] = {"copy_k"};
  assert_int_equal(ptx_registers(m, 90, only, 1), 0);
  assert_true(ptx_find_kernel(m, "copy_k", &e)->regs > 0);
  assert_int_equal(ptx_find_kernel(m, "mm_s", &e)->regs, 0);
  ptx_module_free(m);
  free(csv);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_best_practices_guide),
    cmocka_unit_test(test_gt200_seed_registers),
    cmocka_unit_test(test_gt200_seed_shared_memory),
    cmocka_unit_test(test_generation_table),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_ground_truth_upper_bound),
    cmocka_unit_test(test_ptxas_registers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
