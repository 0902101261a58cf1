/* test_groundtruth.c - every launch of the H200 ground truth, simulated.
 *
 * groundtruth/h200-seed-counters.csv holds what Nsight Compute measured on an
 * H200 for each //@ launch of groundtruth/seed_kernels.cu (buffers
 * zero-filled).  Global and local request and sector counts must be equal;
 * shared-memory wavefronts must lie in [88%, 100%] of the measured ones
 * (Nsight Compute adds wavefronts from other L1 traffic, up to +10% here;
 * see groundtruth/README.md).  Launches where ptxas changes the
 * instruction mix are listed in `sass_differs` with the cause.
 *
 * Under the sanitizers (WARPMEM_SANITIZED=1) the launches that execute more
 * than 6M warp instructions are skipped: they take minutes there.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"
#include "util/csv.h"

static const WmMetric exact[] = {
  WM_M_GLD_REQ, WM_M_GLD_SEC, WM_M_GST_REQ, WM_M_GST_SEC, WM_M_GATOM_REQ, WM_M_GATOM_SEC,
  WM_M_GRED_REQ, WM_M_GRED_SEC, WM_M_LLD_REQ, WM_M_LLD_SEC, WM_M_LST_REQ, WM_M_LST_SEC,
  WM_M_GLD_INST, WM_M_GST_INST, WM_M_GRED_INST, WM_M_WARPS,
};
static const WmMetric shared_wf[] = {WM_M_SLD_WF, WM_M_SST_WF};
static const WmMetric shared_all[] = {WM_M_SLD_WF, WM_M_SST_WF, WM_M_SATOM_WF, WM_M_SLD_BC, WM_M_SST_BC,
                                      WM_M_SLD_INST, WM_M_SST_INST, WM_M_SATOM_INST};

/* Launches where ptxas changes the instruction mix beyond what the model
 * follows.  (mm_s used to be one: ptxas fuses As[ty][k], k = 0..15, into
 * four 128-bit LDS, 20 shared loads per tile where the PTX has 32; the
 * emulator now counts such groups as the SASS does, see EmuFuse.) */
static const char *const sass_differs[] = {
  "bitonic", /* public_kernels.cu: ptxas unrolls the sort's 55 steps and makes
                the two loads of each stride-1 step one LDS.64 (its SASS in
                docs/results/h200-2026-11-26-public): 112% of the wavefronts */
  "atomic_sum_hier", /* lab: 256 threads' atomicAdd to one shared word executes
                        32,768 shared-store instructions and 39,108 atomic
                        wavefronts on the H200 and the H100 where the PTX's
                        4096 stores and 32,768 atomics make as many; its one
                        shared load a block measures 5396 wavefronts, 1300
                        of them "conflicts" (76% in the model) */
  NULL};

/* Launches whose SASS executes more global load instructions than the
 * PTX has loads, with the requests and sectors equal: lab sgemm_128 (272
 * LDGs where the PTX's loads execute 256 times on the H200 and the H100;
 * #256: 2112 for 2048). */
static const char *const inst_differs[] = {"sgemm_128", NULL};

/* Shared-memory wavefronts beyond the +12% the other L1 traffic adds
 * (the 88-100% band): variant setRowReadColIpad#1056, eight blocks an SM,
 * its 33,792 conflict-free loads measured as 38,773 wavefronts on the H200
 * (87.2%; its stores 33,792, exact); lowest accepted there: 85%. */
static const char *const shared_noisy[] = {"setRowReadColIpad#1056", NULL};

typedef struct Row {
  char label[64];
  long long v[WM_M_COUNT];
} Row;

static Row *rows;
static int nrows;
/* The GPU the rows were measured on, and the preset that models it (NULL:
 * the default, h200). */
static const char *gpu_name = "H200";
static const Arch *gpu_arch;

/* Options for a launch of the rows: buffers zero-filled, as measured, on
 * the preset of their GPU. */
static void truth_options(SimOptions *o) {
  sim_options_init(o);
  o->init = INIT_ZERO;
  if (gpu_arch) o->cfg.arch = gpu_arch, o->cfg.sm = gpu_arch->cc;
}

static void load_truth(const char *csv) {
  nrows = 0;
  WmErr e = {0};
  char *text = wm_read_file(tu_truth(csv), NULL, &e);
  assert_non_null(text);
  char *p = text, *names[256], *f[256];
  int ncol = wm_csv_read(&p, names, 256), n;
  assert_in_range(ncol, 2, 256);
  rows = calloc(128, sizeof *rows);
  assert_non_null(rows);
  while ((n = wm_csv_read(&p, f, 256)) > 0) {
    if (n != ncol) fail_msg("%s: a row of %d columns, the header has %d", csv, n, ncol);
    assert_true(nrows < 128);
    Row *r = &rows[nrows++];
    snprintf(r->label, sizeof r->label, "%s", f[0]);
    for (int m = 0; m < WM_M_COUNT; m++) {
      r->v[m] = -1;
      for (int c = 0; c < ncol; c++)
        if (!strcmp(names[c], wm_metric_name[m])) r->v[m] = atoll(f[c]);
    }
  }
  free(text);
}

static int listed(const char *const *list, const char *name) {
  for (int i = 0; list[i]; i++)
    if (!strcmp(list[i], name)) return 1;
  return 0;
}

/* Beyond L1: the measured L2 sectors (lts__t_sectors_srcunit_tex_op_read
 * and _write) must lie within 5% and DRAM bytes read within 10% (rows that
 * read at least 1 MB: below that, the profiler's own traffic dominates).
 * Exceptions, with what the model misses:
 * - local_heap reads: 13.5 K measured, 8.2 K in the model (its global
 *   loads); the remaining 5.3 K are local loads that miss in L1 on the
 *   H200, which the model keeps resident. */
typedef struct Beyond {
  const char *launch;
  WmMetric metric;
} Beyond;
static const Beyond beyond_exceptions[] = {
  {"local_heap", WM_M_L2_RD},
  /* merge_kernels.cu: what the merging rules leave (docs/results/
   * h200-2026-11-26-drift, whose three runs of the set differ by up to
   * 37% on these launches): four back-to-back stores of 16 sectors merge
   * 72% as much as the model merges them, of 32 sectors 12% (the model:
   * all); warps in step merge a shared sector 17-66% of the time (the
   * model: half of a 16-sector request's, all of a narrower one's),
   * partners 2 or 4 warps apart 5-8% (the model: never); after one to
   * eight round trips of their own, 3-23% (the model: none, from the
   * first); back from a barrier, 4 warps sharing 16 sectors merge 34% of
   * the time and neighbours 68% (the model: half, all). */
  {"st_gap#w4g0", WM_M_L2_WR},    {"st_gap#w8g0", WM_M_L2_WR},    {"st_share#p2d1", WM_M_L2_WR},
  {"st_share#p2d2", WM_M_L2_WR},  {"st_share#p2d4", WM_M_L2_WR},  {"st_share#p4d1", WM_M_L2_WR},
  {"st_share#p4d2", WM_M_L2_WR},  {"st_drift#s4k0", WM_M_L2_WR},  {"st_drift#s4k1", WM_M_L2_WR},
  {"st_drift#s4k2", WM_M_L2_WR},  {"st_drift#s4k4", WM_M_L2_WR},  {"st_drift#s4k8", WM_M_L2_WR},
  {"st_drift#s4k64", WM_M_L2_WR}, {"st_drift#s1k0", WM_M_L2_WR},  {"st_drift#s1k1", WM_M_L2_WR},
  {"st_drift#s1k2", WM_M_L2_WR},  {"st_drift#s5k0", WM_M_L2_WR},  {"st_rejoin#s4k4", WM_M_L2_WR},
  {"st_rejoin#s5k4", WM_M_L2_WR},
  /* fill_kernels.cu (docs/results/h200-, h100-2026-11-26-fill): pairs that
   * wait for one line after four round trips of their own merge 22-26%
   * (the model: all, 57%: it does not see the second warp ask after the
   * fill is in); st_lastfill's blocks read their last line with the next
   * block on another SM, which the L2 counts once (112% and 106%: the
   * crossbar's merges of share_kernels.cu). */
  {"st_pairfill#k4", WM_M_L2_WR}, {"st_lastfill#j0", WM_M_L2_RD}, {"st_lastfill#j1", WM_M_L2_RD},
  /* public_kernels.cu (docs/results/h200-2026-11-26-public): mm2_tmp
   * reads 191% of the H200's sectors (its L1 misses equal the H200's
   * since an SM's blocks share its L1 in turn; the GPU's crossbar merges
   * 59% of them, the model's same-numbered blocks 21%) and syr2k 41% (its
   * L1 misses 59% of the H200's); nbody 50% (its 8-warp blocks merge fewer reads
   * than the model's rounds say, though one-warp blocks stay in step
   * through 160 us of compute, share_step: not explained) and 87% of the
   * write sectors (float3 stores). */
  {"mm2_tmp#512", WM_M_L2_RD}, {"nbody#8192", WM_M_L2_RD},
  /* share_kernels.cu (docs/results/h200-2026-11-26-share): grids of 12 to
   * 64 blocks, dealt one SM a TPC over a few GPCs, fall into 6 to 17
   * crossbar groups on the H200 and 3 to 16 in the model (share_read#12
   * 50%, #16 40%, #32 and share_step#32 80%, #64 93% of the reads); blocks
   * that start 0.5 us apart merge less than in step (share_read#late:
   * 26-53%). */
  {"share_read#12", WM_M_L2_RD},     {"share_read#16", WM_M_L2_RD},      {"share_read#32", WM_M_L2_RD},
  {"share_read#64", WM_M_L2_RD},
  {"share_step#32c0", WM_M_L2_RD},   {"share_step#32c1024", WM_M_L2_RD}, {"share_step#32c4096", WM_M_L2_RD},
  {"share_read#late8", WM_M_L2_RD},  {"share_read#late32", WM_M_L2_RD},  {"share_read#late128", WM_M_L2_RD},
  {"syr2k#384", WM_M_L2_RD},   {"nbody#8192", WM_M_L2_WR},
  /* policy_kernels.cu (docs/results/h200-2026-11-26-policy): 8 warps
   * sharing a cycle of lines run out of step on the GPU and re-read less
   * of it than the model's warps taking turns (cycle8#2048x132 75%,
   * #1024x264 91% of the L2 reads); a cycle of 38.9 MB of the SMs' own lines
   * stays in the H200's L2 (39.5 MB read), in the model's 47% of it is
   * read again (147%): its hashed sets fill unevenly and spill a little
   * below the 40 MB the GPU keeps (l2cap_kernels.cu, l2_own#2368: 1.04
   * of the footprint read, the model 1.2). */
  {"cycle8#2048x132", WM_M_L2_RD},
  {"cycle8#1024x264", WM_M_L2_RD},   {"cycle#2304", WM_M_DRAM_RD},
  /* race_kernels.cu (docs/results/h200-, h100-2026-11-27-race): mm_g's
   * loop with a guard around each load (mmx) runs 1.6x slower than mm_g
   * and its crossbar merges 42% of its L1 misses, where mm_g's merges
   * 12%: with 8 loads queued a warp it should merge as the unguarded loop
   * unrolled 4 times (mmu_u4#1024: 31-37%), and the model merges what TPC
   * pairs leave, 29% (ab1024 121-128% of the GPUs' reads; ab512 103-110%,
   * a1024 103-108%); unrolled once (mmu_u1#1024) the GPUs merge 45%
   * (127-128%).  B read by every block of a column, eight blocks an SM,
   * merges on the GPU across more SMs than TPC pairs (b1024: 182-192%);
   * with one block an SM the GPUs merge 24-33% of what the four-GPC groups
   * leave, the model 38% (ab128, mmu_u1#128, mmu_u16#128: 84-93%).  Warps
   * in step storing a float each to one sector: the GPUs merge about four
   * warps' stores, the model all of a block's (race_all#w32 and #w8b4
   * write 0.11-0.25 of the GPUs' sectors); race_split#w32's 32 warps of
   * their own drift apart (reads 0.87-0.89, writes 1.17-1.18). */
  {"mmx#ab1024", WM_M_L2_RD},      {"mmx#ab1024bar", WM_M_L2_RD}, {"mmx#ab512", WM_M_L2_RD},
  {"mmx#ab128", WM_M_L2_RD},       {"mmx#ab128bar", WM_M_L2_RD},  {"mmx#b1024", WM_M_L2_RD},
  {"mmx#a1024", WM_M_L2_RD},       {"race_all#w32", WM_M_L2_WR},  {"race_all#w8b4", WM_M_L2_WR},
  {"race_split#w32", WM_M_L2_RD},  {"race_split#w32", WM_M_L2_WR}, {"mmu_u1#1024", WM_M_L2_RD},
  {"mmu_u1#128", WM_M_L2_RD},      {"mmu_u4#1024", WM_M_L2_RD},   {"mmu_u16#128", WM_M_L2_RD},
  /* queue_kernels.cu (docs/results/h200-, h100-2026-11-27-queue): with 6
   * blocks' shared memory an SM (a 28 KB L1 in the model) the GPUs miss
   * 0.69-0.73 of the model's L1 sectors (mmq_u16#768s6 118-120% of the
   * reads; mmq_u8#768s6 comes within 1-6% with 1.46x the misses and 1.5x
   * the merging); with 4 blocks an SM, 32 loads in flight a warp (1024 queued,
   * where the model's queue term starts at 1170) the GPUs merge 29-31% of
   * the misses, the model the groups' 38% (mmq_u16#512s4 90-92%). */
  {"mmq_u8#768s6", WM_M_L2_RD},    {"mmq_u16#768s6", WM_M_L2_RD},  {"mmq_u16#512s4", WM_M_L2_RD},
};

/* variant_kernels.cu (docs/results/h*-2026-11-27-variant): the seed
 * kernels at 48 launches chosen, simulated and the predictions committed
 * before they were measured.  Tiled multiplies of 256 and 768 blocks read
 * 1.08x the GPUs' sectors (mm_s#256, #768; mm_g#256 on the H100 1.07x):
 * with 16x16 tiles their crossbar merges 40% and 22% of the L1 misses
 * where the model's merges 36% and 13%.  local_heap with 2048 blocks or
 * 256-thread blocks reads 0.55-0.70x: as the seed's local_heap, local
 * loads of sectors the warp stored partially just before miss on the GPUs
 * now and then (below: lab row_per_thread, ten_nn). */
static const Beyond variant_exceptions[] = {
  /* readback_kernels.cu (docs/results/h200-2026-11-27-readback): a warp
   * alone on its SM loading another word of a sector right after storing
   * to it misses L1 again about one request in 64 (own_word_k0: 1.47x the
   * model's reads), another sector of the line twice as often (1.33x);
   * eight warps an SM each storing its own line again right after
   * loading it merge 9% of those stores on the H200 (a store after a
   * load, which the model never merges: 1.10x the writes) */
  {"rb#own_word_k0", WM_M_L2_RD}, {"rb#own_sect_k0", WM_M_L2_RD}, {"rb#warp_same_k0w8", WM_M_L2_WR},
  /* rows_kernels.cu (docs/results/h*-2026-11-27-rows): one float in 1 KB
   * reads 0.88-0.89x the GPUs' DRAM bytes (their fetches beyond the 64
   * bytes a read miss takes in the model, at the sparsest stride) */
  {"stride_copy#256", WM_M_DRAM_RD},
  {"mm_s#256", WM_M_L2_RD}, {"mm_s#768", WM_M_L2_RD}, {"mm_g#256", WM_M_L2_RD},
  {"local_heap#2048", WM_M_L2_RD}, {"local_heap#b256", WM_M_L2_RD},
};

/* The lab catalogue (the .cu files of lab/; docs/results/h*-2026-11-27-labncu), its
 * predictions committed before it was profiled.  Its labels repeat the
 * seed's (madd_nc), so its exceptions are its own:
 * - 128x128 multiplies on 64 blocks of 16x16 threads (and mm_tile32 on 16
 *   of 32x32) read 0.82-0.92x the GPUs' sectors where each thread walks a
 *   row of A and a column of B from global memory: the model's crossbar
 *   merges 41% of the L1 misses, the GPUs 28-30%; the same multiply
 *   through shared tiles agrees (matrix_mult_shared, mm_tile16).
 *   mm_tile16#256 merges more on the GPUs (1.08x), as variant mm_s#256.
 * - madd_nc on 1024 blocks writes 0.89-0.91x the GPUs' sectors: its
 *   column-walking 16x16 blocks' stores merge less on the GPUs.
 * - row_per_thread (each lane's load, add and store walk its own line)
 *   reads 0.64x: on the GPUs 8% of the loads that follow the warp's store
 *   to the same sector miss L1 again, the model none; ten_nn's local heap
 *   (0.40x reads) and ten_nn_regs' result writes (1.2-1.3x, read 0.7x)
 *   the same kind of read-back. */
static const Beyond lab_exceptions[] = {
  {"MatrixMulKernel", WM_M_L2_RD},    {"matrix_mult_global", WM_M_L2_RD}, {"matrix_mult_global#4096", WM_M_L2_RD},
  {"mat_mul", WM_M_L2_RD},            {"mm_tile32", WM_M_L2_RD},          {"mm_tile16#256", WM_M_L2_RD},
  {"madd_nc", WM_M_L2_WR},            {"madd_nc#8192", WM_M_L2_WR},       {"row_per_thread", WM_M_L2_RD},
  {"ten_nn", WM_M_L2_RD},             {"ten_nn_regs", WM_M_L2_RD},        {"ten_nn_regs", WM_M_L2_WR},
};

/* The large seed launches' own: mm_s reads 113% of the H200's sectors.
 * The model merges reads of the first wave only, whose blocks start
 * together (exact at the small size); the GPU also merges some in the
 * three later waves, whose blocks start as earlier ones end (the first
 * wave's rule applied to the GPU's own placement there leaves 72% of the
 * reads, the GPU 79%: tools/accuracy/place_merge.py). */
static const Beyond large_exceptions[] = {{"mm_s", WM_M_L2_RD}};

static int listed_beyond(const Beyond *list, size_t n, const char *label, WmMetric m) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i].launch, label) && list[i].metric == m) return 1;
  return 0;
}

/* The H100's own (docs/results/h100-2026-11-26-drift): its warps stay in
 * step longer than the H200's; after 4, 8 and 16 round trips of their own
 * 8 warps' one-float stores to one sector still merge 11%, 9% and 6% (the
 * H200's: 5%, 4%, 2%; the model: none), 4 warps' 16-sector ones 5% after
 * 16. */
static const Beyond h100_exceptions[] = {{"st_drift#s1k4", WM_M_L2_WR},
                                         {"st_drift#s1k8", WM_M_L2_WR},
                                         {"st_drift#s1k16", WM_M_L2_WR},
                                         {"st_drift#s4k16", WM_M_L2_WR}};

/* Where check_file finds a set's PTX and launch lines: groundtruth/ (the
 * probe sets) or lab/ (the catalogue, whose exceptions are its own). */
static const char *(*set_dir)(const char *) = tu_truth;

static int beyond_exception(const char *label, WmMetric m, int large) {
  if (set_dir == tu_lab) return listed_beyond(lab_exceptions, sizeof lab_exceptions / sizeof *lab_exceptions, label, m);
  return listed_beyond(beyond_exceptions, sizeof beyond_exceptions / sizeof *beyond_exceptions, label, m) ||
         listed_beyond(variant_exceptions, sizeof variant_exceptions / sizeof *variant_exceptions, label, m) ||
         (gpu_arch && listed_beyond(h100_exceptions, sizeof h100_exceptions / sizeof *h100_exceptions, label, m)) ||
         (large && listed_beyond(large_exceptions, sizeof large_exceptions / sizeof *large_exceptions, label, m));
}

/* Within tol of the measured value, or within 4 KB of it (`unit` bytes a
 * count; 0: no such slack): a few sectors are noise on a small launch (the
 * rule of tools/accuracy/levels.py and docs/accuracy.md). */
static void check_within(const char *label, WmMetric m, double sim, double meas, double tol, double unit) {
  if ((sim < (1 - tol) * meas || sim > (1 + tol) * meas) && (unit == 0 || fabs(sim - meas) * unit > 4096))
    fail_msg("%s: %s = %.0f is %.1f%% of the %s's %.0f (expected within %.0f%% or 4 KB)", label, wm_metric_name[m],
             sim, 100 * sim / meas, gpu_name, meas, 100 * tol);
}

static void check_beyond_l1(const SimRun *run, const Row *r, const char *label, int small_dram, int large) {
  static const WmMetric l2[] = {WM_M_L2_RD, WM_M_L2_WR};
  for (size_t k = 0; k < sizeof l2 / sizeof *l2; k++) {
    WmMetric m = l2[k];
    if (r->v[m] <= 0 || beyond_exception(label, m, large)) continue;
    check_within(label, m, (double)run->mm.metric[m], (double)r->v[m], 0.05, 32);
  }
  if (r->v[WM_M_DRAM_RD] >= 1000000 && !beyond_exception(label, WM_M_DRAM_RD, large))
    check_within(label, WM_M_DRAM_RD, (double)run->mm.metric[WM_M_DRAM_RD], (double)r->v[WM_M_DRAM_RD], 0.10, 1);
  /* Below 1 MB, launches without global loads read only their parameters
   * and code: 2816 bytes with 512 bytes of code, plus the rest of the code
   * in 256-byte pieces (setRowReadColRect: 896 bytes of SASS, 3328 read).
   * Exact when ptxas gave the code's size. */
  else if (small_dram && r->v[WM_M_DRAM_RD] > 0 && run->kernel->code_bytes && run->mm.metric[WM_M_GLD_REQ] == 0 &&
           (long long)run->mm.metric[WM_M_DRAM_RD] != r->v[WM_M_DRAM_RD])
    fail_msg("%s: dram__bytes_read = %llu, %s measured %lld (code %u bytes)", label,
             (unsigned long long)run->mm.metric[WM_M_DRAM_RD], gpu_name, r->v[WM_M_DRAM_RD], run->kernel->code_bytes);
}

/* check_file's flags */
enum {
  SHARED_EXACT = 1, /* shared-memory counters must be equal too (kernels with
                       no other L1 traffic to add wavefronts); nothing beyond
                       L1 is checked */
  SMALL_DRAM = 2,   /* launches that read no global memory read exactly their
                       parameters and code from DRAM */
  AS_WRITTEN = 4,   /* buffers filled as the launch lines ask (the lab's
                       :rand), not zero-filled */
  TIMED = 8         /* the predicted time within 25% of Nsight's duration */
};

/* Runs every //@ launch of `cu` (PTX in `ptx`) and compares with `csv`. */
static void check_file(const char *ptx, const char *cu, const char *csv, int flags) {
  int shared_exact = flags & SHARED_EXACT;
  load_truth(csv);
  WmErr e = {0};
  PtxModule *mod = ptx_load(set_dir(ptx), arch_ptx_target(), &e);
  if (!mod) fail_msg("%s", e.msg);
  ptx_registers(mod, 90, NULL, 0); /* as `warpmem sim` does; without ptxas, as before */
  char *text = wm_read_file(set_dir(cu), NULL, &e);
  assert_non_null(text);
  LaunchSpec *ls;
  int n;
  assert_int_equal(launch_parse_file(cu, text, &ls, &n, &e), 0);
  free(text);
  assert_int_equal(n, nrows);
  int sanitized = getenv("WARPMEM_SANITIZED") != NULL, checked = 0;
  SimOptions o;
  truth_options(&o);
  if (flags & AS_WRITTEN) o.init = INIT_DEFAULT;
  for (int i = 0; i < n; i++) {
    const Row *r = NULL;
    for (int j = 0; j < nrows; j++)
      if (!strcmp(rows[j].label, ls[i].label)) r = &rows[j];
    assert_non_null(r);
    long long inst = 0;
    for (int m = 0; m < WM_M_COUNT; m++)
      if (m == WM_M_INST) inst = r->v[m];
    if (sanitized && inst > 6000000) {
      printf("skipped under sanitizers: %s (%lld warp instructions)\n", ls[i].label, inst);
      continue;
    }
    SimRun run;
    if (sim_run_launch(mod, &ls[i], &o, &run, &e)) fail_msg("%s: %s", ls[i].label, e.msg);
    for (size_t k = 0; k < sizeof exact / sizeof *exact; k++) {
      WmMetric m = exact[k];
      if (r->v[m] < 0) continue;
      if (listed(inst_differs, ls[i].name) && (m == WM_M_GLD_INST || m == WM_M_GST_INST || m == WM_M_GRED_INST))
        continue;
      if ((long long)run.mm.metric[m] != r->v[m])
        fail_msg("%s: %s = %llu, %s measured %lld", ls[i].label, wm_metric_name[m],
                 (unsigned long long)run.mm.metric[m], gpu_name, r->v[m]);
    }
    if (shared_exact) {
      for (size_t k = 0; k < sizeof shared_all / sizeof *shared_all; k++) {
        WmMetric m = shared_all[k];
        if (r->v[m] >= 0 && (long long)run.mm.metric[m] != r->v[m])
          fail_msg("%s: %s = %llu, %s measured %lld", ls[i].label, wm_metric_name[m],
                   (unsigned long long)run.mm.metric[m], gpu_name, r->v[m]);
      }
    } else if (!listed(sass_differs, ls[i].name)) {
      for (size_t k = 0; k < sizeof shared_wf / sizeof *shared_wf; k++) {
        WmMetric m = shared_wf[k];
        double sim = (double)run.mm.metric[m], meas = (double)r->v[m];
        if (meas <= 0) {
          assert_int_equal(run.mm.metric[m], 0);
          continue;
        }
        if (sim < (listed(shared_noisy, ls[i].label) ? 0.85 : 0.88) * meas || sim > meas)
          fail_msg("%s: %s = %.0f is %.1f%% of the %s's %.0f (expected 88%%..100%%)", ls[i].label,
                   wm_metric_name[m], sim, 100 * sim / meas, gpu_name, meas);
      }
    }
    if (!shared_exact) check_beyond_l1(&run, r, ls[i].label, flags & SMALL_DRAM, 0);
    if (flags & TIMED) {
      assert_true(run.have_time && r->v[WM_M_TIME] > 0);
      check_within(ls[i].label, WM_M_TIME, (double)run.mm.metric[WM_M_TIME], (double)r->v[WM_M_TIME], 0.25, 0);
    }
    printf("ok %s\n", ls[i].label);
    checked++;
    sim_run_free(&run);
  }
  assert_true(checked >= (sanitized ? n / 2 : n));
  free(ls);
  free(rows);
  ptx_module_free(mod);
}

/* Launches whose predicted time the model knowingly misses by more than
 * 25%: none. */
static const char *const time_exceptions[] = {NULL};

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* groundtruth/seed_launches_large.cu: the seed kernels at sizes that leave
 * the L2 and outlast launch overhead, measured on an H200
 * (h200-large-counters.csv, gpu__time_duration.sum in ns) and an H100
 * (h100-large-counters.csv, docs/results/h100-2026-11-26-fabric).  Every
 * launch runs with --sample 8 (every 8th wave of resident blocks; their
 * blocks touch data of their own, so the counters scale), except mm_g and
 * mm_s, whose blocks all read the same A and B through L2 and run in full.
 * Predicted time within 25%, DRAM bytes read within 10%, L2 sectors within
 * 5% (exceptions above).  Skipped under the sanitizers: minutes there. */
static void large_launches(const char *csv) {
  if (getenv("WARPMEM_SANITIZED")) {
    printf("skipped under sanitizers: the large launches take minutes there\n");
    return;
  }
  load_truth(csv);
  WmErr e = {0};
  PtxModule *mod = ptx_load(tu_truth("ptx/seed_kernels.ptx"), arch_ptx_target(), &e);
  if (!mod) fail_msg("%s", e.msg);
  char *text = wm_read_file(tu_truth("seed_launches_large.cu"), NULL, &e);
  assert_non_null(text);
  LaunchSpec *ls;
  int n;
  assert_int_equal(launch_parse_file("seed_launches_large.cu", text, &ls, &n, &e), 0);
  free(text);
  assert_int_equal(n, nrows);
  double err[128];
  int nerr = 0;
  for (int i = 0; i < n; i++) {
    const Row *r = NULL;
    for (int j = 0; j < nrows; j++)
      if (!strcmp(rows[j].label, ls[i].label)) r = &rows[j];
    assert_non_null(r);
    SimOptions o;
    truth_options(&o);
    o.sample = strcmp(ls[i].name, "mm_g") && strcmp(ls[i].name, "mm_s") ? 8 : 1;
    SimRun run;
    if (sim_run_launch(mod, &ls[i], &o, &run, &e)) fail_msg("%s: %s", ls[i].label, e.msg);
    assert_true(run.have_time);
    check_beyond_l1(&run, r, ls[i].label, 0, 1);
    double sim = (double)run.mm.metric[WM_M_TIME], meas = (double)r->v[WM_M_TIME];
    assert_true(meas > 0);
    err[nerr++] = sim > meas ? sim / meas - 1 : 1 - sim / meas;
    printf("%-22s predicted %9.0f ns, measured %9.0f ns (%5.1f%%), %s\n", ls[i].label, sim, meas, 100 * sim / meas,
           run.time.why);
    if (!listed(time_exceptions, ls[i].name)) check_within(ls[i].label, WM_M_TIME, sim, meas, 0.25, 0);
    sim_run_free(&run);
  }
  qsort(err, (size_t)nerr, sizeof *err, cmp_double);
  printf("median time error %.1f%% over %d launches\n", 100 * err[nerr / 2], nerr);
  assert_true(err[nerr / 2] < 0.10);
  free(ls);
  free(rows);
  ptx_module_free(mod);
}

static void test_large_launches(void **state) {
  (void)state;
  large_launches("h200-large-counters.csv");
}

static void test_seed_launches(void **state) {
  (void)state;
  check_file("ptx/seed_kernels.ptx", "seed_kernels.cu", "h200-seed-counters.csv", SMALL_DRAM);
}

/* The same seed launches, small and large, measured on an H100 with the
 * hopper preset (the second GPU: docs/results/h100-2026-11-26-fabric). */
static void test_h100_seed_launches(void **state) {
  (void)state;
  gpu_name = "H100", gpu_arch = arch_find("hopper");
  assert_non_null(gpu_arch);
  check_file("ptx/seed_kernels.ptx", "seed_kernels.cu", "h100-seed-counters.csv", SMALL_DRAM);
  large_launches("h100-large-counters.csv");
}

/* groundtruth/merge_kernels.cu: when a warp's stores, and a block's warps'
 * stores, to the same sectors reach L2 as one write (issue 13; measured on
 * an H200, docs/results/h200-2026-11-26-drift): L1 counters exact, L2
 * writes within 5% but for the exceptions above. */
static void test_merge_launches(void **state) {
  (void)state;
  check_file("ptx/merge_kernels.ptx", "merge_kernels.cu", "h200-merge-counters.csv", 0);
}

/* The same on the second GPU, with the hopper preset
 * (docs/results/h100-2026-11-26-drift). */
static void test_h100_merge_launches(void **state) {
  (void)state;
  gpu_name = "H100", gpu_arch = arch_find("hopper");
  assert_non_null(gpu_arch);
  check_file("ptx/merge_kernels.ptx", "merge_kernels.cu", "h100-merge-counters.csv", 0);
}

/* A probe set measured on both GPUs: groundtruth/SET_kernels.cu against
 * h200-SET-counters.csv, then with the hopper preset against
 * h100-SET-counters.csv. */
static void check_both_gpus_as(const char *set, int flags) {
  char ptx[64], cu[64], h200[64], h100[64];
  snprintf(ptx, sizeof ptx, "ptx/%s_kernels.ptx", set);
  snprintf(cu, sizeof cu, "%s_kernels.cu", set);
  snprintf(h200, sizeof h200, "h200-%s-counters.csv", set);
  snprintf(h100, sizeof h100, "h100-%s-counters.csv", set);
  check_file(ptx, cu, h200, flags);
  gpu_name = "H100", gpu_arch = arch_find("hopper");
  assert_non_null(gpu_arch);
  check_file(ptx, cu, h100, flags);
}

static void check_both_gpus(const char *set) { check_both_gpus_as(set, 0); }

/* groundtruth/fill_kernels.cu: warps that resume with one fill stay in
 * step, and their stores merge (cache_step.h; measured on an H200 and an
 * H100, docs/results/h*-2026-11-26-fill). */
static void test_fill_launches(void **state) {
  (void)state;
  check_both_gpus("fill");
}

/* groundtruth/race_kernels.cu: several warps of a block wanting one
 * sector, on blocks of many SMs (race_all, race_split: the crossbar merges
 * them as the model does), and mm_g's loop one factor at a time (mmx,
 * mmu); measured on an H200 and an H100, docs/results/h*-2026-11-27-race. */
static void test_race_launches(void **state) {
  (void)state;
  check_both_gpus("race");
}

/* groundtruth/queue_kernels.cu: the crossbar rules of session 30 on
 * launches they were not fitted to (mm_g's loop unrolled 8 times; 6 and 4
 * blocks an SM); docs/results/h*-2026-11-27-queue.  Skipped under the
 * sanitizers, where all five are too large to run. */
static void test_queue_launches(void **state) {
  (void)state;
  if (getenv("WARPMEM_SANITIZED")) { /* each launch executes 9.8-22M warp instructions */
    printf("skipped under sanitizers: every queue_kernels.cu launch takes minutes there\n");
    return;
  }
  check_both_gpus("queue");
}

/* groundtruth/variant_kernels.cu: the seed kernels at 48 launches the
 * model had not seen (other sizes, strides, offsets, block shapes),
 * predicted before they were measured on an H200 and an H100
 * (docs/results/h*-2026-11-27-variant): L1 counters exact, L2 and DRAM
 * within tolerance but for the exceptions above. */
static void test_variant_launches(void **state) {
  (void)state;
  check_both_gpus("variant");
}

/* groundtruth/rows_kernels.cu: strided copies at strides 24 to 256,
 * predicted before they were measured on an H200 and an H100 (the DRAM
 * rows bound's check; docs/results/h*-2026-11-27-rows): counters, and the
 * predicted time within 25% (0.81-1.15 of the measured; the bytes' bound
 * alone gives 0.30-0.82).  Skipped under the sanitizers: buffers of up to
 * 1 GB each. */
static void test_rows_launches(void **state) {
  (void)state;
  if (getenv("WARPMEM_SANITIZED")) {
    printf("skipped under sanitizers: rows_kernels.cu's buffers take up to 2 GB a launch\n");
    return;
  }
  check_both_gpus_as("rows", TIMED);
}

/* groundtruth/readback_kernels.cu: loads of sectors the warp has just
 * stored to, measured on an H200 (docs/results/h200-2026-11-27-readback);
 * the model has them all hit, which holds but for the two listed in
 * variant_exceptions. */
static void test_readback_launches(void **state) {
  (void)state;
  check_file("ptx/readback_kernels.ptx", "readback_kernels.cu", "h200-readback-counters.csv", 0);
}

/* The lab catalogue (the .cu files of lab/), profiled on an H200 and an H100
 * (docs/results/h*-2026-11-27-labncu; groundtruth/lab/GPU-FILE-counters.csv):
 * L1 counters exact, L2 and DRAM within tolerance but for the lab's
 * exceptions above. */
static void lab_on(const char *gpu) {
  static const char *const files[] = {"seed000_coalescing", "seed001_cuda_memory", "seed002_smem_layout",
                                      "seed003_memories", "seed004_global_memory"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char ptx[96], cu[96], csv[96];
    snprintf(ptx, sizeof ptx, "ptx/%s.ptx", files[i]);
    snprintf(cu, sizeof cu, "%s.cu", files[i]);
    snprintf(csv, sizeof csv, "lab/%s-%s-counters.csv", gpu, files[i]);
    check_file(ptx, cu, csv, AS_WRITTEN);
  }
}

static void test_lab_launches(void **state) {
  (void)state;
  set_dir = tu_lab;
  lab_on("h200");
  gpu_name = "H100", gpu_arch = arch_find("hopper");
  assert_non_null(gpu_arch);
  lab_on("h100");
  set_dir = tu_truth;
}

/* Every test starts on the H200 (a failed H100 test leaves its GPU set),
 * with the probe sets' folder. */
static int on_h200(void **state) {
  (void)state;
  gpu_name = "H200", gpu_arch = NULL, set_dir = tu_truth;
  return 0;
}

/* groundtruth/public_kernels.cu: public-code-style kernels (PolyBench/GPU
 * at n = 4096, CUDA-samples-style kernels on about 64 blocks), written
 * before warpmem simulated them and measured on an H200
 * (docs/results/h200-2026-11-26-public): L1 counters exact, L2 and DRAM
 * within tolerance but for the exceptions above. */
static void test_public_launches(void **state) {
  (void)state;
  check_file("ptx/public_kernels.ptx", "public_kernels.cu", "h200-public-counters.csv", 0);
}

/* groundtruth/share_kernels.cu: one-warp blocks on many SMs reading the
 * same data (the crossbar, src/mem/xbar.h; measured on an H200,
 * docs/results/h200-2026-11-26-share): L1 counters exact, L2 reads within
 * 5% where the model deals blocks to groups as the GPU does (2 to 8 and 128
 * to 264 blocks, in step), exceptions above. */
static void test_share_launches(void **state) {
  (void)state;
  check_file("ptx/share_kernels.ptx", "share_kernels.cu", "h200-share-counters.csv", 0);
}

/* groundtruth/policy_kernels.cu: a warp (or 8, or two blocks an SM)
 * cycling over K lines of its own, 32 KB to 512 KB, measured on an H200
 * (docs/results/h200-2026-11-26-policy): the L2 reads are the L1's misses,
 * so they check its capacity (256 KB less the 32 KB carveout), its 8 ways
 * and LRU order: re-reads hit 0.79, 0.45, 0.15 and 0.00 of the time at
 * 1792, 1920, 2048 and 2304 lines. */
static void test_policy_launches(void **state) {
  (void)state;
  check_file("ptx/policy_kernels.ptx", "policy_kernels.cu", "h200-policy-counters.csv", 0);
}

/* groundtruth/probe_kernels.cu: 8- and 16-byte shared accesses (pairs,
 * quads, broadcast, strides), shared and global atomics and reductions,
 * 8- and 16-byte local arrays, vector global accesses, a partial warp;
 * measured on an H200 (docs/results/h200-probe-2026-11-22).  These kernels
 * touch little else in L1, so shared-memory counters must be exact. */
static void test_probe_launches(void **state) {
  (void)state;
  check_file("ptx/probe_kernels.ptx", "probe_kernels.cu", "h200-probe-counters.csv", SHARED_EXACT);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test_setup(test_probe_launches, on_h200),
                                     cmocka_unit_test_setup(test_seed_launches, on_h200),
                                     cmocka_unit_test_setup(test_merge_launches, on_h200),
                                     cmocka_unit_test_setup(test_public_launches, on_h200),
                                     cmocka_unit_test_setup(test_share_launches, on_h200),
                                     cmocka_unit_test_setup(test_policy_launches, on_h200),
                                     cmocka_unit_test_setup(test_large_launches, on_h200),
                                     cmocka_unit_test_setup(test_h100_seed_launches, on_h200),
                                     cmocka_unit_test_setup(test_h100_merge_launches, on_h200),
                                     cmocka_unit_test_setup(test_fill_launches, on_h200),
                                     cmocka_unit_test_setup(test_race_launches, on_h200),
                                     cmocka_unit_test_setup(test_queue_launches, on_h200),
                                     cmocka_unit_test_setup(test_variant_launches, on_h200),
                                     cmocka_unit_test_setup(test_lab_launches, on_h200),
                                     cmocka_unit_test_setup(test_readback_launches, on_h200),
                                     cmocka_unit_test_setup(test_rows_launches, on_h200)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
