/* model.c - cache configuration for a launch, and the time model.
 *
 * Notes:
 * - The L1 gets what the unified L1/shared array leaves after the shared
 *   memory carveout: the smallest carveout the preset offers that holds the
 *   resident blocks' shared memory (plus the reserved 1 KiB each on sm_80+),
 *   as the driver picks it by default.
 * - Time: see model.h.  Each bound is the work of one level divided by that
 *   level's throughput; the constants below say where each comes from.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"
#include "mem/replay_clock.h"
#include "model/model.h"

const char *const model_bound_name[MODEL_NBOUNDS] = {
#define X(e, s, l) s,
    MODEL_BOUNDS(X)
#undef X
};

const char *const model_bound_limit[MODEL_NBOUNDS] = {
#define X(e, s, l) l,
    MODEL_BOUNDS(X)
#undef X
};

/* The carveout (bytes) the driver gives shared memory for `need` bytes. */
static uint32_t pick_carveout(const Arch *a, uint32_t need) {
  if (!a->carveouts || !need) return need; /* sm_70+ also allow 0 KiB, which carveouts[] cannot list */
  uint32_t best = 0;
  for (const int *c = a->carveouts; *c; c++) {
    best = (uint32_t)*c * 1024u;
    if (best >= need) return best;
  }
  return best;
}

void model_cache_config(const Arch *a, int blocks_per_sm, uint32_t threads, uint32_t smem,
                        uint32_t local_bytes, CacheConfig *out) {
  memset(out, 0, sizeof *out);
  if (blocks_per_sm < 1) blocks_per_sm = 1;
  out->sms = a->sms;
  out->blocks_per_sm = blocks_per_sm;
  /* Blocks reach an SM block_group consecutive at a time, or as many as
   * divide its resident blocks. */
  out->group = a->block_group > 0 ? a->block_group : 1;
  while (blocks_per_sm % out->group) out->group /= 2;
  out->warps_per_block = (int)((threads + 31) / 32);
  out->local_bytes = local_bytes;
  if (a->l1_smem_bytes) {
    uint32_t need = smem ? (uint32_t)blocks_per_sm * (smem + (uint32_t)a->smem_reserved) : 0;
    uint32_t carve = pick_carveout(a, need);
    out->l1_bytes = (uint32_t)a->l1_smem_bytes > carve ? (uint32_t)a->l1_smem_bytes - carve : 0;
  } else {
    out->l1_bytes = (uint32_t)a->l1_bytes;
  }
  if (!a->l1_caches_loads && a->cc < 70) out->l1_bytes = 0; /* global loads bypass L1 */
  out->l1_ways = a->l1_ways;
  out->l2_bytes = (uint64_t)a->l2_bytes * (uint64_t)a->l2_model_pct / 100;
  out->l2_ways = a->l2_ways ? a->l2_ways : 16;
  out->l2_parts = a->l2_parts;
  memcpy(out->l2_side, a->l2_side, sizeof out->l2_side);
  out->fetch_bytes = a->fetch_bytes ? a->fetch_bytes : 32;
  out->xbar_sms = a->xbar_sms;
  out->layout = a->layout;
  out->merge_sectors = a->merge_sectors;
  out->merge_lines = a->merge_lines;
  out->partial_sectors = (uint32_t)a->partial_bytes / 32;
  out->channels = a->channels;
  out->banks = a->dram_banks;
  out->row_bytes = (uint32_t)a->row_bytes;
  out->interleave = (uint32_t)a->dram_interleave;
  /* the replay's clock, where the preset's constants were measured, when
   * asked for (WARPMEM_CLOCK: an experiment, until it predicts better than
   * the time model's chain; docs/accuracy.md) */
  if (a->replay_clock && getenv("WARPMEM_CLOCK")) out->lat_l1 = CLOCK_L1_HIT, out->lat_l2 = CLOCK_L2_HIT, out->lat_dram = CLOCK_DRAM;
}

void model_spread_small_grid(CacheConfig *k, uint64_t blocks) {
  uint64_t per_sm = k->sms > 0 ? (blocks + (uint64_t)k->sms - 1) / (uint64_t)k->sms : blocks;
  while (k->group > 1 && (uint64_t)k->group > per_sm) k->group /= 2;
  /* place_probe.cu (H200): 64 blocks take one SM of each TPC, 128 both */
  k->xbar_paired = 2 * blocks > (uint64_t)k->sms;
  /* a grid of at most one block an SM takes one SM each (place_probe.cu:
   * share#132), not the order of full grids */
  if (blocks <= (uint64_t)k->sms) k->layout = NULL;
  k->sm_blocks = (uint64_t)k->blocks_per_sm < per_sm ? k->blocks_per_sm : (int)per_sm;
}

static double ratio(double num, double den) { return den > 0 ? num / den : 0; }

/* How the bounds combine: 6 fits the H200 launches where two bounds are
 * close (madd_c: DRAM and latency; copy_k: latency and L2). */
#define MODEL_OVERLAP_P 6.0

/* How long one round of a warp's loads waits: an L1 hit, or the L2, or
 * DRAM, in the proportions the counters give.  A round waits for its
 * slowest load, so the L1's share is per round: the rounds in which a load
 * missed (warpmem__l1_missed_rounds; bicg: an A miss among r hits makes
 * the round wait for L2), or per request where no round was traced; and
 * of those, the share a DRAM fetch (fetch_bytes) serves: fetches per
 * missed round, at most one. */
static double round_ns(const Arch *a, const uint64_t *m) {
  double reqs = (double)m[WM_M_ROUND_REQ], missed = (double)m[WM_M_MISS_ROUNDS];
  if (reqs <= 0) {
    reqs = (double)(m[WM_M_GLD_REQ] + m[WM_M_LLD_REQ]);
    missed = fmin(reqs, (double)m[WM_M_MISS_REQ]);
  }
  double fetch = a->fetch_bytes > 0 ? a->fetch_bytes : 32;
  double dram = missed > 0 ? fmin(1.0, (double)m[WM_M_DRAM_RD] / fetch / missed) : 0;
  double beyond = a->l2_round_ns + dram * (a->dram_round_ns - a->l2_round_ns);
  double l1_miss = reqs > 0 ? fmin(1.0, missed / reqs) : 1.0;
  return (1 - l1_miss) * a->l1_round_ns + l1_miss * beyond;
}

typedef struct WarpChain {
  double rounds, round_ns; /* its load rounds, and what one waits */
  double dep_ns;           /* its instructions' dependent latencies */
  double wait_ns;          /* its waits for the TMA and the tensor cores */
  double l1_ns;            /* its share of the L1's work */
  double ack_ns;           /* its last stores' trip to L2 */
  double ns;               /* the sum */
} WarpChain;

/* A warp alone: it waits its rounds one after another, waits for each
 * instruction's result before the next (their dependent latencies,
 * measured in Hopper clocks: warpmem__dependent_clocks, scaled by the
 * preset's warp_cpi over Hopper's 4), and waits for its share of
 * the L1's work (l1_ns: the launch's L1 cycles -- tag look-ups, fills,
 * shared wavefronts -- in ns); a wave
 * lasts that long however few blocks (copy_grid on 1 block takes 65536
 * rounds; PolyBench-style bicg_q and gesummv, 2 warps an SM of 32-line
 * requests, take their L1 time and their round trips one after the
 * other). */
static void warp_alone(const Arch *a, const uint64_t *m, const ModelLaunch *l, double warps, double l1_ns, WarpChain *c) {
  double clk = a->clock_ghz > 0 ? a->clock_ghz : 1.0;
  c->rounds = ratio((double)m[WM_M_ROUNDS], warps);
  c->round_ns = round_ns(a, m);
  double dep = m[WM_M_DEP_CLOCKS] ? (double)m[WM_M_DEP_CLOCKS] / WM_ALU_CLOCKS : (double)l->warp_instrs;
  c->dep_ns = ratio(dep, warps) * a->warp_cpi / clk;
  /* a kernel with mbarriers or wgmma: its blocks' ends in the warps' clock
   * (emu/emu_clock.c) beyond their dependent clocks are the waits for
   * copies and tensor math, one after another and after its loads' round
   * trips (fast.cu's kernel 3 loads a tile, waits, multiplies, waits) */
  double waited = (double)m[WM_M_BLOCK_CLOCKS] - (double)m[WM_M_DEP_CLOCKS];
  c->wait_ns = m[WM_M_BLOCK_CLOCKS] && waited > 0 ? ratio(waited, warps) / clk : 0;
  c->l1_ns = a->l1_round_ns > 0 || a->dram_round_ns > 0 ? ratio(l1_ns, warps) : 0; /* with the rounds */
  /* the blocks of one wave that wait at barriers start in step and stay
   * so: every warp waits, between its round trips, for its SM's whole L1
   * work, which the SM's other blocks, in the same phase, do not overlap
   * (the public set's matrix_mul, 64 blocks of 32 warps alone on their
   * SMs: 0.73 of the H200's time with a warp's share; the variant set's
   * mm_s#256 and the lab's mm_tile16#256, two blocks an SM: 0.70 and 0.64,
   * 0.81 and 0.78 so; the seed's mm_s, 8: 0.85, 1.05 so).  Blocks of later
   * waves start as earlier ones end, out of step (the large mm_s, four
   * waves: 1.10 with a warp's share, 1.34 with the SM's) */
  double blocks = (double)(l->blocks ? l->blocks : 1), sms = a->sms > 0 ? a->sms : 1;
  int in_step = l->barriers && c->l1_ns > 0 && blocks <= (l->blocks_per_sm > 0 ? l->blocks_per_sm : 1) * sms;
  if (in_step) c->l1_ns = l1_ns / fmin(blocks, sms);
  /* the kernel ends when its last stores reach L2 (hierarchy probe
   * one_store takes 0.2 us longer than empty on the H200, 0.3 on the H100) */
  c->ack_ns = m[WM_M_L2_WRREQ] + m[WM_M_L2_ATOM] + m[WM_M_L2_RED] ? a->l2_round_ns : 0;
  /* (the block's L1 work overlaps its warps' arithmetic, not their loads) */
  c->ns = c->rounds * c->round_ns + c->wait_ns + (in_step ? fmax(c->dep_ns, c->l1_ns) : c->dep_ns + c->l1_ns) +
          c->ack_ns;
}

/* The latency bound's explanation when one warp's chain sets it. */
static void why_chain(ModelTime *t, double waves, const WarpChain *c) {
  snprintf(t->why, sizeof t->why,
           "%s: a warp's chain, %.0f wave%s x %.2f us: %.1f load rounds of %.0f ns, %.2f us waiting for "
           "copies and tensor math, %.2f us of dependent instructions, %.2f us of L1 work, %.2f us for its "
           "stores to reach L2",
           model_bound_limit[MODEL_LATENCY], waves, waves > 1 ? "s" : "", c->ns / 1000, c->rounds, c->round_ns,
           c->wait_ns / 1000, c->dep_ns / 1000, c->l1_ns / 1000, c->ack_ns / 1000);
}

void model_time_scaled(const Arch *a, const uint64_t *m, const ModelLaunch *l, double scale, uint64_t blocks,
                       uint32_t threads, ModelTime *t) {
  uint64_t ms[WM_M_COUNT];
  for (int i = 0; i < WM_M_COUNT; i++) ms[i] = model_scaled(m[i], scale);
  ModelLaunch ml = *l;
  ml.blocks = blocks;
  ml.threads = threads;
  ml.warp_instrs = model_scaled(ml.warp_instrs, scale);
  ml.hot_writes = model_scaled(ml.hot_writes, scale);
  ml.hot_atoms = model_scaled(ml.hot_atoms, scale);
  model_time(a, ms, &ml, t);
}

/* DRAM: bytes over the bandwidth a streaming kernel sustains, or, if
 * longer, its rows opened one after another in each channel (a fetch that
 * uses one 64-byte piece of 256 bytes: variant stride_copy#64 moves 2.0
 * TB/s where #16 moves 4.2; the misses of mem/dram.c's unhashed map).
 * *by_rows: the rows set it. */
static double dram_bound(const Arch *a, const uint64_t *m, int *by_rows) {
  double bytes = ratio((double)(m[WM_M_DRAM_RD] + m[WM_M_DRAM_WR]), a->dram_gbs * a->dram_eff);
  double rows = (double)m[WM_M_ROW_MISS] * a->dram_act_ns / (a->channels > 0 ? a->channels : 1);
  *by_rows = rows > bytes;
  return *by_rows ? rows : bytes;
}

/* Tensor cores: each path's multiply-adds (its ops counter over
 * MEM_TC_OPS_PER_MAC; mem.h MEM_TENSOR_PATHS: wgmma and mma.sync apart)
 * over its dense rate per SM and clock (Arch.tensor_fma),
 * on the SMs the grid keeps busy.  *top gets the path that takes longest. */
static double tensor_bound(const Arch *a, const uint64_t *m, double busy, double clk, int *top) {
  double sum = 0, most = 0;
  *top = 0;
  for (int p = 0; p < MEM_TC_COUNT; p++) {
    double rate = a->tensor_fma[mem_tc_rate[p]], ns = rate > 0 ? (double)m[mem_tc_metric[p]] / MEM_TC_OPS_PER_MAC / rate : 0;
    sum += ns;
    if (ns > most) most = ns, *top = p;
  }
  return sum / busy / clk;
}

/* The sectors L1 fills from L2 for loads (the L2 reads less the TMA's,
 * which go to shared memory: the crossbar's merging taken as sparing both
 * kinds alike). */
static double lsu_fills(const uint64_t *m) {
  double rd = (double)m[WM_M_L2_RD], all = rd + (double)m[WM_M_XBAR];
  double tma = all > 0 ? (double)m[WM_M_TMA_L2_RD] * rd / all : 0;
  return rd > tma ? rd - tma : 0;
}

static const char *const tensor_rate_name[ARCH_TC_COUNT] = {
#define X(e, what) what,
  ARCH_TENSOR_RATES(X)
#undef X
};

/* Long because each bound is a few lines of its own, sharing the launch's
 * derived numbers (busy SMs, waves, the L1's cycles), and the limiter's
 * explanation needs them all. */
static void time_at(const Arch *a, const uint64_t *m, const ModelLaunch *l, ModelTime *t) {
  memset(t, 0, sizeof *t);
  double clk = a->clock_ghz > 0 ? a->clock_ghz : 1.0; /* cycles per ns */
  double sms = a->sms > 0 ? a->sms : 1;
  double blocks = (double)(l->blocks ? l->blocks : 1);
  /* L2 work: a read request per line, a write per sector (measured: the
   * L2-bound launches tr_naive, madd_nc, setRowReadRow and stride_copy#16
   * take this many units at one rate) */
  double l2_reqs = (double)(m[WM_M_L2_RDREQ] + m[WM_M_L2_WR] + m[WM_M_L2_ATOM] + m[WM_M_L2_RED]);
  /* op_ld / op_st include ldmatrix's and stmatrix's */
  double wavefronts = (double)(m[WM_M_SLD_WF] + m[WM_M_SST_WF] + m[WM_M_SATOM_WF] + m[WM_M_LDGSTS_WF]);
  double warps = blocks * ((l->threads + 31) / 32);
  int resident = l->blocks_per_sm > 0 ? l->blocks_per_sm : 1;

  int by_rows;
  t->bound_ns[MODEL_DRAM] = dram_bound(a, m, &by_rows);
  /* L2: requests (a line each) over what the slices serve: scattered
   * sectors cost as much as whole lines (measured: tr_naive, madd_nc). */
  t->bound_ns[MODEL_L2] = ratio(l2_reqs, a->l2_reqs_ns);
  /* L1TEX, per SM, one per clock: shared memory wavefronts, a tag lookup
   * per line a global/local request touches, a sector filled from L2; and
   * the TMA's and wgmma's traffic, which takes the shared memory's data
   * path, 128 bytes a clock (32 banks of 4 bytes), not L1's fill path: the
   * bytes the TMA writes or reads there and the wgmma's core matrices (a
   * wavefront each), by their throughput alone (they are not in a warp's
   * chain). */
  double l1_cycles = wavefronts + (double)m[WM_M_L1_LINES] + lsu_fills(m);
  double l1_pipe = l1_cycles + (double)m[WM_M_GMMA_WF] + (double)m[WM_M_TMA_SMEM_BYTES] / 128;
  /* the SMs a grid smaller than the GPU keeps busy (matvec_alias and
   * matvec_reg on 4 and 16 blocks: each SM's L1 looks up 32 lines a
   * request, measured 155 ns a round) */
  double busy = blocks < sms ? blocks : sms;
  /* and apart from those, its path to the L2: a write request every
   * l1_write_cycles (a store request sends one per line it writes) */
  double write_cycles = (double)m[WM_M_L2_WRREQ] * a->l1_write_cycles;
  t->bound_ns[MODEL_L1] = fmax(l1_pipe, write_cycles) / busy / clk;
  /* Issue: each scheduler issues one warp-instruction per clock. */
  t->bound_ns[MODEL_ISSUE] = ratio((double)l->warp_instrs, busy * a->schedulers * clk);
  /* Block launch: an SM starts one block every block_ns. */
  t->bound_ns[MODEL_BLOCKS] = ceil(blocks / sms) * a->block_ns;
  /* Writes to one L2 line are serialized in its slice. */
  t->bound_ns[MODEL_HOT] = (double)l->hot_writes * a->hot_write_ns;
  /* and its atomic updates, one after another (lanes on one word too) */
  double atoms = (double)l->hot_atoms * a->atom_update_ns;
  if (atoms > t->bound_ns[MODEL_HOT]) t->bound_ns[MODEL_HOT] = atoms;
  /* Latency (Little's law per wave of resident blocks): a wave lasts one
   * DRAM round trip for its loads (longer when a barrier waits for the
   * slowest warp), plus the waits of loads behind stores, plus the shared
   * memory passes of its blocks, which share the SM's pipe. */
  double waves = blocks / (resident * sms);
  double mem = m[WM_M_L2_RD] ? a->dram_latency_ns * (l->barriers ? a->barrier_lat : 1.0) : 0;
  double raw = ratio((double)m[WM_M_RAW], warps) * a->raw_wait_ns;
  double smem = resident * ratio(wavefronts, blocks) / clk;
  t->bound_ns[MODEL_LATENCY] = waves * (mem + raw + smem);
  int top_path;
  t->bound_ns[MODEL_TENSOR] = tensor_bound(a, m, busy, clk, &top_path);
  WarpChain wc;
  warp_alone(a, m, l, warps, l1_cycles / clk, &wc);
  double chain = (waves > 1 ? waves : 1) * wc.ns;
  int by_chain = chain > t->bound_ns[MODEL_LATENCY];
  if (by_chain) t->bound_ns[MODEL_LATENCY] = chain;
  if (m[WM_M_REPLAY_CLOCKS]) { /* the replay's clock ran (asked for: model_cache_config) */
    double replayed = (double)m[WM_M_REPLAY_CLOCKS] / clk;
    double other = fmax(waves * smem, (waves > 1 ? waves : 1) * (wc.dep_ns + wc.wait_ns));
    t->bound_ns[MODEL_LATENCY] = fmax(replayed, other);
    by_chain = 0;
  }

  /* The bounds overlap, but not perfectly: a p-norm of them (a smooth
   * maximum) rather than the largest alone.  A clocked chain (emu_clock.c)
   * holds its block's tensor work already: it and the tensor bound count
   * the same work, the larger for both (tc_bf16, one block an SM: each
   * 167-169 us, 1.15 of the H200's time as two terms, 1.00 as one). */
  int same_work = m[WM_M_BLOCK_CLOCKS] > 0;
  double sum = 0;
  t->limiter = MODEL_DRAM;
  for (int b = 0; b < MODEL_NBOUNDS; b++) {
    if (t->bound_ns[b] > t->bound_ns[t->limiter]) t->limiter = b;
    double v = t->bound_ns[b];
    if (same_work && b == MODEL_TENSOR) continue;
    if (same_work && b == MODEL_LATENCY) v = fmax(v, t->bound_ns[MODEL_TENSOR]);
    sum += pow(v, MODEL_OVERLAP_P);
  }
  t->launch_ns = a->launch_ns;
  t->ns = pow(sum, 1.0 / MODEL_OVERLAP_P) + a->launch_ns;
  t->dram_gbs = ratio((double)(m[WM_M_DRAM_RD] + m[WM_M_DRAM_WR]), t->ns);
  t->l2_gbs = ratio((double)(m[WM_M_L2_RD] + m[WM_M_L2_WR]) * 32, t->ns);
  switch (t->limiter) {
  case MODEL_DRAM:
    snprintf(t->why, sizeof t->why, "%s: %.2f TB/s of DRAM's %.2f%s", model_bound_limit[t->limiter],
             t->dram_gbs / 1000, a->dram_gbs / 1000,
             by_rows ? ", opening a row for each few bytes it moves" : "");
    break;
  case MODEL_L2:
    snprintf(t->why, sizeof t->why, "%s: %.1f M L2 requests (reads per line, writes per sector) at %.0f per ns", model_bound_limit[t->limiter],
             l2_reqs / 1e6, a->l2_reqs_ns);
    break;
  case MODEL_LATENCY:
    if (by_chain) {
      why_chain(t, ceil(waves > 1 ? waves : 1), &wc);
      break;
    }
    snprintf(t->why, sizeof t->why,
             "%s: %.0f waves of %d blocks/SM, each %.0f ns (memory %.0f, loads behind stores %.0f, shared %.0f); "
             "DRAM at %.2f TB/s of %.2f",
             model_bound_limit[t->limiter], ceil(waves), resident, mem + raw + smem, mem, raw, smem,
             t->dram_gbs / 1000, a->dram_gbs / 1000);
    break;
  case MODEL_TENSOR:
    snprintf(t->why, sizeof t->why, "%s: %.2f G multiply-adds, most of %s at %.0f per SM per clock, on %.0f SMs",
             model_bound_limit[t->limiter], (double)m[mem_tc_metric[top_path]] / MEM_TC_OPS_PER_MAC / 1e9,
             tensor_rate_name[mem_tc_rate[top_path]], a->tensor_fma[mem_tc_rate[top_path]], busy);
    break;
  case MODEL_L1:
    if (write_cycles > l1_pipe) {
      snprintf(t->why, sizeof t->why, "%s: %.1f M write requests to L2 (a line each), one per %.0f clocks per SM",
               model_bound_limit[t->limiter], (double)m[WM_M_L2_WRREQ] / 1e6, a->l1_write_cycles);
      break;
    }
    __attribute__((fallthrough)); /* tag lookups and wavefronts: the general line */
  default:
    snprintf(t->why, sizeof t->why, "%s: %.1f us of %.1f us", model_bound_limit[t->limiter],
             t->bound_ns[t->limiter] / 1000, t->ns / 1000);
    break;
  }
}

/* A launch that keeps the tensor cores busy (their bound a quarter or more
 * of the largest) runs at the clock they allow (Arch.tensor_clock_ghz):
 * every bound counted in clocks is timed again at it. */
void model_time(const Arch *a, const uint64_t *m, const ModelLaunch *l, ModelTime *t) {
  time_at(a, m, l, t);
  double most = 0;
  for (int b = 0; b < MODEL_NBOUNDS; b++) most = fmax(most, t->bound_ns[b]);
  if (a->tensor_clock_ghz <= 0 || t->bound_ns[MODEL_TENSOR] <= 0 || t->bound_ns[MODEL_TENSOR] < 0.25 * most) return;
  Arch at = *a;
  at.clock_ghz = a->tensor_clock_ghz;
  time_at(&at, m, l, t);
  size_t n = strlen(t->why);
  snprintf(t->why + n, sizeof t->why - n, " (at the tensor cores' %.2f GHz)", at.clock_ghz);
}
