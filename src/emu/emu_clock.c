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
 *  - at barrier.cluster.wait it jumps to the cluster's latest arrival
 *    (emu_cluster.c), and a load from a peer block's shared memory waits
 *    a peer's round trip (EmuInstr.peer_clocks, emu_latency.c); a cluster
 *    launch is clocked so.
 * Not modelled: blocks that share an SM (each has the tensor cores and
 * the TMA unit to itself here; the throughput bounds count the sharing).
 */
#include <pthread.h>
#include <sched.h>
#include <time.h>

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
  X(CLK_DSM_PACKET_X2, 3, "half clocks", "an atomic's packet to a peer block leaving the SM (one for each "       \
                                         "(peer, sector), times its busiest word's lanes): dsm_atom#same, "          \
                                         "#sector4, #two_peers_same (32 a warp instruction) 4.26-4.35 us against "   \
                                         "#distinct, #pairs, #two_peers (4) 2.94-3.14, 0.74 ns a packet (a fit of "  \
                                         "one probe set, docs/results/h200-2026-12-03-rules)")                      \
  X(CLK_RELEASE_CLUSTER, 363, "clocks", "an mbarrier arrival at cluster scope (its release a memory barrier): arrive_chain#cluster and #peer against #cta, 183 ns more an arrival")

enum {
#define X(name, value, unit, why) name = value,
  EMU_CLOCK_CONSTANTS(X)
#undef X
};

static void seen_clear(Block *b);

static void wait_until(Warp *w, uint64_t t) {
  if (t > w->now) w->now = t;
}

void emu_clock_start(Block *b) {
  /* a cluster's blocks wait for each other (barrier.cluster, peers' memory) */
  b->clocked = b->async != NULL || b->wg != NULL || (b->cluster && b->cluster->n > 1);
  memset(b->bar_now, 0, sizeof b->bar_now);
  b->tc_free = b->tma_free = b->end_now = b->dsm_busy = 0;
  b->warps_ended = 0;
  seen_clear(b);
  for (uint32_t w = 0; w < b->nwarps; w++) {
    Warp *wp = &b->warps[w];
    wp->now = wp->wg_last = wp->dsm_free = wp->left_now = 0;
    wp->bars_left = 0;
    wp->wg_commits = 0;
  }
}

void emu_clock_bar_arrive(Block *b, const Warp *w, uint32_t id) {
  if (w->now > b->bar_now[id]) b->bar_now[id] = w->now;
}

void emu_clock_bar_release(Block *b, Warp *w, uint32_t id) {
  wait_until(w, b->bar_now[id]);
  w->left_now = w->now;
  w->bars_left++;
}

void emu_clock_stamp(const Block *b, MemReq *r) {
  const Warp *w = &b->warps[b->cur_warp];
  uint64_t since = w->now - w->left_now;
  r->now = (uint32_t)w->now;
  r->epoch = w->bars_left;
  r->since = (uint16_t)(since < 65535 ? since : 65535);
}

void emu_clock_warp_end(Block *b, const Warp *w) {
  if (!b->clocked) return;
  if (w->now > b->end_now) b->end_now = w->now;
  if (b->dsm_busy > b->end_now) b->end_now = b->dsm_busy; /* the port's packets, all warps' */
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
 * A launch starts with L2 empty, as Nsight Compute measures it.  A line is
 * in L2 for a block if a block of an earlier wave fetched it (each wave's
 * clocks start at 0), or if the block fetched it itself (then a read
 * while the fetch is on its way waits for it).  Otherwise the block's
 * copy reads it from DRAM: the blocks of one wave that read a tile
 * together each wait for DRAM, as they do on the GPU, where they ask for
 * it at about the same time.
 *
 * The rule uses no other block of the block's own wave, and a block waits
 * for the earlier waves to end before it reads the lines' waves, so the
 * times do not depend on which host thread ran which block, or when (the
 * first toucher of a line in emulation order did decide them: two runs on
 * two threads differed). */

typedef struct EmuLineSeen {
  uint64_t key; /* the line's address / 128, plus 1 (0: empty) */
  uint64_t at;  /* when it is in L2 */
} EmuLineSeen;

void emu_clock_free(Block *b) {
  free(b->seen);
  b->seen = NULL;
  b->seen_cap = b->seen_n = 0;
}

static void seen_clear(Block *b) {
  if (b->seen_n) memset(b->seen, 0, (size_t)b->seen_cap * sizeof *b->seen);
  b->seen_n = 0;
  b->waves_met = 0;
}

static EmuLineSeen *seen_slot(EmuLineSeen *t, uint32_t cap, uint64_t key) {
  uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
  while (t[i].key && t[i].key != key) i = (i + 1) & (cap - 1);
  return &t[i];
}

/* When line `key` the block fetched is in L2, 0 if it did not fetch it. */
static uint64_t seen_at(const Block *b, uint64_t key) {
  return b->seen_cap ? seen_slot(b->seen, b->seen_cap, key)->at : 0;
}

static void seen_put(Block *b, uint64_t key, uint64_t at) {
  if (2 * (b->seen_n + 1) > b->seen_cap) { /* at most half full */
    uint32_t cap = b->seen_cap ? 2 * b->seen_cap : 1024;
    EmuLineSeen *t = wm_xcalloc(cap, sizeof *t);
    for (uint32_t i = 0; i < b->seen_cap; i++)
      if (b->seen[i].key) *seen_slot(t, cap, b->seen[i].key) = b->seen[i];
    free(b->seen);
    b->seen = t, b->seen_cap = cap;
  }
  EmuLineSeen *s = seen_slot(b->seen, b->seen_cap, key);
  if (!s->key) b->seen_n++;
  s->key = key, s->at = at;
}

uint64_t emu_clock_epoch(void) {
  static uint64_t epoch;
  return __atomic_add_fetch(&epoch, 1, __ATOMIC_RELAXED);
}

static pthread_mutex_t lines_lock = PTHREAD_MUTEX_INITIALIZER;

/* g's lines for this launch: the earliest wave that fetched each, plus 1
 * (0: none yet); a new launch clears them. */
static uint64_t *line_waves(const Block *b, GBuf *g) {
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

static void wave_fetched(uint64_t *at, uint64_t wave) {
  uint64_t cur = __atomic_load_n(at, __ATOMIC_RELAXED), v = wave + 1;
  while ((cur == 0 || v < cur) && !__atomic_compare_exchange_n(at, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

/* The block's wave, from its place in the run order and the SMs' blocks. */
static uint64_t wave_of(const Block *b) {
  const CacheConfig *k = b->l->cache ? &b->l->cache->cfg : NULL;
  uint64_t per = k && k->sms > 0 ? (uint64_t)k->sms * (uint64_t)(k->blocks_per_sm > 0 ? k->blocks_per_sm : 1) : 0;
  return per ? b->order / per : 0;
}

/* Waits until no host thread runs a block of a wave before `wave`: the
 * threads take blocks in run order, each its own in order, so then every
 * earlier block has ended.  An earlier block never waits for a later one
 * (one that spins for it is stopped as spinning, and its thread ends). */
static void wait_earlier_waves(Block *b, uint64_t wave) {
  b->waves_met = 1;
  const CacheConfig *k = &b->l->cache->cfg;
  uint64_t first = wave * (uint64_t)k->sms * (uint64_t)(k->blocks_per_sm > 0 ? k->blocks_per_sm : 1);
  for (int t = 0; b->running && t < b->nrunning; t++)
    for (unsigned tries = 0; __atomic_load_n(&b->running[t], __ATOMIC_ACQUIRE) < first; tries++) {
      if (tries < 64) {
        sched_yield();
      } else {
        struct timespec nap = {0, 20000};
        nanosleep(&nap, NULL);
      }
    }
}

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
  uint64_t *lw = line_waves(b, g);
  for (uint64_t line = (a - g->addr) / 128, last = (a + n - 1 - g->addr) / 128; line <= last; line++) {
    c->bytes += 128;
    uint64_t sent = c->start + c->bytes / CLK_TMA_BYTES, arrive = sent + CLK_TMA_TRIP;
    uint64_t key = (g->addr >> 7) + line + 1, own = seen_at(b, key);
    if (own) {
      if (own > arrive) arrive = own; /* on its way */
    } else {
      if (c->wave && !b->waves_met) wait_earlier_waves(b, c->wave);
      uint64_t w = __atomic_load_n(&lw[line], __ATOMIC_RELAXED);
      if (!w || w - 1 >= c->wave) { /* no earlier wave fetched it */
        arrive += CLK_DRAM_TRIP + (c->dram + 128) / CLK_DRAM_BYTES;
        c->dram += 128;
        seen_put(b, key, arrive);
        wave_fetched(&lw[line], c->wave);
      }
    }
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

/* An atomic's packets to peer blocks leave the SM one after another: a warp
 * waits while the port still sends its earlier instruction's, and one whose
 * result it needs waits for its own too (the peer's round trip follows:
 * EmuInstr.peer_clocks).  The warps of a block share the port: the block
 * lasts at least all their packets (a bound, not a queue: the emulator
 * runs one warp ahead of another, so their clocks do not interleave). */
void emu_clock_dsm_send(Block *b, int warp, unsigned packets, int wait_result) {
  Warp *w = &b->warps[warp];
  uint64_t sends = ((uint64_t)packets * CLK_DSM_PACKET_X2 + 1) / 2;
  wait_until(w, w->dsm_free);
  w->dsm_free = w->now + sends;
  b->dsm_busy += sends;
  if (wait_result) wait_until(w, w->dsm_free);
}

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
