/* emu_clock.c - a clock for each warp, for the asynchronous units.
 *
 * A kernel whose warps wait for the TMA or the tensor cores (it uses
 * mbarriers or wgmma: Block.clocked) spends its time in those waits, which
 * no count of instructions shows: a block that loads a tile, waits for it,
 * multiplies it and waits again takes a round trip and the tile's math per
 * step, however little else it does.  So each warp keeps a clock
 * (Warp.now, in the preset's clocks):
 *  - it advances by each instruction's dependent clocks (EmuInstr.clocks,
 *    emu_latency.c), as warpmem__dependent_clocks sums them;
 *  - at a barrier it jumps to the latest arrival; at an mbarrier's wait to
 *    when the phase completed: its last arrival, or the last byte of the
 *    copies it tracks (emu_async.c); at the 4 warps' wgmma.mma_async to
 *    the last of them; at wgmma.wait_group to when the groups it waits for
 *    end;
 *  - a copy (TMA or cp.async.bulk) ends a round trip after the block's TMA
 *    unit has sent its bytes, one copy after another; a wgmma ends after
 *    its multiply-adds at the SM's rate (Arch.tensor_fma), one warpgroup's
 *    instruction after another.
 * The block ends with its last warp; that end, times the block's warps,
 * is summed into warpmem__block_clocks, and the time model adds what a
 * warp waited beyond its dependent clocks to its chain (model.c).
 *
 * Not modelled: blocks that share an SM (each has the tensor cores and
 * the TMA unit to itself here; the throughput bounds count the sharing),
 * the cluster barrier.
 */
#include <pthread.h>

#include "emu/emu_exec.h"
#include "mem/cache.h"
#include "mem/mem.h"

/* X(name, value, unit, where it comes from); measured on the H200 by
 * groundtruth/tma_size_kernels.cu, hopper_kernels.cu and
 * cluster_arrive_kernels.cu, one thread's chain of loads or arrivals
 * (docs/results/h200-2026-12-02-clock) */
#define EMU_CLOCK_CONSTANTS(X)                                                                                   \
  X(CLK_TMA_TRIP, 317, "clocks", "a TMA load's round trip from L2 to its mbarrier's phase: tma_chain_box#1k, "    \
                                 "192 ns a load less its loop's 27 ns and its bytes' 5, at 1.98 GHz")           \
  X(CLK_TMA_BYTES, 104, "bytes a clock", "the TMA's bytes into one SM from L2: tma_chain_box#1k..#32k, 152 ns "  \
                                         "more for 31 KiB more (207 bytes a ns)")                              \
  X(CLK_DRAM_TRIP, 520, "clocks", "what a line first read from DRAM adds: tma_chain#dram against #l2 (1 KiB "    \
                                  "boxes, 270 ns), with CLK_DRAM_BYTES")                                       \
  X(CLK_DRAM_BYTES, 76, "bytes a clock", "one copy's lines from DRAM: tma_chain_box#16k_walk cold against hot, " \
                                         "372 ns more for 16 KiB (201 clocks more than for 1 KiB)")            \
  X(CLK_DSM_TRIP, 180, "clocks", "a bulk copy into a peer block, assumed a dependent load's: dsm_chain#peer, 93 ns") \
  X(CLK_RELEASE_CLUSTER, 363, "clocks", "an mbarrier arrival at cluster scope (its release a memory barrier): arrive_chain#cluster and #peer against #cta, 183 ns more an arrival")

enum {
#define X(name, value, unit, why) name = value,
  EMU_CLOCK_CONSTANTS(X)
#undef X
};

static void wait_until(Warp *w, uint64_t t) {
  if (t > w->now) w->now = t;
}

void emu_clock_start(Block *b) {
  b->clocked = b->async != NULL || b->wg != NULL;
  memset(b->bar_now, 0, sizeof b->bar_now);
  b->tc_free = b->tma_free = b->end_now = 0;
  b->warps_ended = 0;
  for (uint32_t w = 0; w < b->nwarps; w++) {
    Warp *wp = &b->warps[w];
    wp->now = wp->wg_last = 0;
    wp->wg_commits = 0;
  }
}

void emu_clock_bar_arrive(Block *b, const Warp *w, uint32_t id) {
  if (w->now > b->bar_now[id]) b->bar_now[id] = w->now;
}

void emu_clock_bar_release(Block *b, Warp *w, uint32_t id) { wait_until(w, b->bar_now[id]); }

void emu_clock_warp_end(Block *b, const Warp *w) {
  if (!b->clocked) return;
  if (w->now > b->end_now) b->end_now = w->now;
  if (++b->warps_ended == b->nwarps) b->block_clocks += (uint64_t)b->nwarps * b->end_now;
}

/* When warp's copy starts: now, or when the TMA unit has sent the last. */
static uint64_t copy_start(const Block *b, int warp) {
  return b->warps[warp].now > b->tma_free ? b->warps[warp].now : b->tma_free;
}

uint64_t emu_clock_peer_copy(Block *b, int warp, uint32_t bytes) {
  b->tma_free = copy_start(b, warp) + (bytes + CLK_TMA_BYTES - 1) / CLK_TMA_BYTES;
  return b->tma_free + CLK_DSM_TRIP;
}

/* --- the lines a TMA load reads: in L2 or not yet ---
 *
 * A launch starts with L2 empty, as Nsight Compute measures it.  The first
 * copy that reads a line fetches it from DRAM; a copy that reads it while
 * that fetch is on its way waits for it (the blocks of a GEMM that read one
 * tile together all wait for DRAM); a later one finds it in L2.  Each line
 * of a buffer the TMA reads keeps when it is in L2 and the wave of the
 * block that fetched it: a block of a later wave finds it there (each
 * wave's clocks start at 0). */

uint64_t emu_clock_epoch(void) {
  static uint64_t epoch;
  return __atomic_add_fetch(&epoch, 1, __ATOMIC_RELAXED);
}

static pthread_mutex_t lines_lock = PTHREAD_MUTEX_INITIALIZER;

/* g's line times for this launch (a new launch clears them). */
static uint64_t *line_times(const Block *b, GBuf *g) {
  uint64_t epoch = b->l->clock_epoch;
  if (__atomic_load_n(&g->line_epoch, __ATOMIC_ACQUIRE) == epoch) return g->line_time;
  pthread_mutex_lock(&lines_lock);
  if (g->line_epoch != epoch) {
    size_t n = (size_t)(g->size / 128 + 1);
    free(g->line_time);
    g->line_time = wm_xcalloc(n, sizeof *g->line_time);
    __atomic_store_n(&g->line_epoch, epoch, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lines_lock);
  return g->line_time;
}

/* The block's wave, from its place in the run order and the SMs' blocks. */
static uint64_t wave_of(const Block *b) {
  const CacheConfig *k = b->l->cache ? &b->l->cache->cfg : NULL;
  uint64_t per = k && k->sms > 0 ? (uint64_t)k->sms * (uint64_t)(k->blocks_per_sm > 0 ? k->blocks_per_sm : 1) : 0;
  return per ? b->order / per : 0;
}

/* A line time packs the wave (high 16 bits) and the clock (low 48). */
#define LINE_CLOCK(v) ((v) & ((1ull << 48) - 1))
#define LINE_WAVE(v) ((v) >> 48)

void emu_clock_copy_begin(Block *b, int warp, EmuCopyClock *c) {
  c->start = copy_start(b, warp);
  c->bytes = c->dram = 0;
  c->ready = 0;
  c->wave = wave_of(b);
}

/* A row of n bytes at global address a: its lines leave the TMA unit one
 * after another; each arrives after L2's round trip, or after DRAM's. */
void emu_clock_copy_row(Block *b, EmuCopyClock *c, uint64_t a, uint64_t n) {
  GBuf *g = b->l->cache && n ? gmem_find(b->l->gmem, a, n) : NULL;
  if (!g) {
    c->bytes += n;
    return;
  }
  uint64_t *lt = line_times(b, g), wave = c->wave < 0xffff ? c->wave : 0xffff;
  for (uint64_t line = (a - g->addr) / 128, last = (a + n - 1 - g->addr) / 128; line <= last; line++) {
    c->bytes += 128;
    uint64_t sent = c->start + c->bytes / CLK_TMA_BYTES, arrive = sent + CLK_TMA_TRIP;
    uint64_t v = __atomic_load_n(&lt[line], __ATOMIC_RELAXED);
    if (!v) {
      uint64_t fetched = arrive + CLK_DRAM_TRIP + (c->dram + 128) / CLK_DRAM_BYTES;
      uint64_t want = wave << 48 | (fetched & ((1ull << 48) - 1));
      if (__atomic_compare_exchange_n(&lt[line], &v, want, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        c->dram += 128;
        arrive = fetched;
      }
    }
    if (v && LINE_WAVE(v) == wave && LINE_CLOCK(v) > arrive) arrive = LINE_CLOCK(v); /* on its way */
    if (arrive > c->ready) c->ready = arrive;
  }
}

uint64_t emu_clock_copy_end(Block *b, EmuCopyClock *c, uint32_t bytes) {
  if (c->bytes < bytes) c->bytes = bytes; /* rows outside the tensor are filled, not read */
  b->tma_free = c->start + (c->bytes + CLK_TMA_BYTES - 1) / CLK_TMA_BYTES;
  uint64_t least = b->tma_free + CLK_TMA_TRIP;
  return c->ready > least ? c->ready : least;
}

uint64_t emu_clock_bulk(Block *b, int warp, uint64_t src, uint32_t size) {
  EmuCopyClock c;
  emu_clock_copy_begin(b, warp, &c);
  emu_clock_copy_row(b, &c, src, size);
  return emu_clock_copy_end(b, &c, size);
}

void emu_clock_wait(Warp *w, uint64_t t) { wait_until(w, t); }

void emu_clock_release(Warp *w) { w->now += CLK_RELEASE_CLUSTER; }

/* The warpgroup's 4 warps meet at the instruction and go on; its math
 * starts when the tensor cores finish the block's previous one. */
void emu_clock_wgmma(Block *b, unsigned first, unsigned path, uint64_t macs) {
  uint64_t met = 0;
  for (unsigned w = first; w < first + 4; w++)
    if (b->warps[w].now > met) met = b->warps[w].now;
  double rate = b->arch ? b->arch->tensor_fma[mem_tc_rate[path]] : 0;
  uint64_t start = met > b->tc_free ? met : b->tc_free;
  uint64_t end = start + (rate > 0 ? (uint64_t)((double)macs / rate + 0.5) : 0);
  b->tc_free = end;
  for (unsigned w = first; w < first + 4; w++) {
    wait_until(&b->warps[w], met);
    b->warps[w].wg_last = end;
  }
}

void emu_clock_wgmma_commit(Warp *w) { w->wg_ring[w->wg_commits++ % 8] = w->wg_last; }

void emu_clock_wgmma_wait(Warp *w, uint32_t pending) {
  if (pending < 8 && w->wg_commits > pending) wait_until(w, w->wg_ring[(w->wg_commits - 1 - pending) % 8]);
}
