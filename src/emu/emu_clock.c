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
 * copies that miss L2 (each takes L2's round trip), the cluster barrier.
 */
#include "emu/emu_exec.h"
#include "mem/mem.h"

/* X(name, value, unit, where it comes from) */
#define EMU_CLOCK_CONSTANTS(X)                                                                                   \
  X(CLK_TMA_TRIP, 400, "clocks", "a TMA load's round trip from L2 to its mbarrier's phase: 215 ns a step "       \
                                 "of tma_chain#l2 (a 1 KiB box, hot), 425 clocks at 1.98 GHz, less its loop's") \
  X(CLK_TMA_BYTES, 64, "bytes a clock", "assumed: the SM's port to the crossbar (not measured)")                 \
  X(CLK_DSM_TRIP, 180, "clocks", "a bulk copy into a peer block: dsm_chain#peer, 93 ns a dependent load")

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

uint64_t emu_clock_copy(Block *b, int warp, uint32_t bytes, int from_peer) {
  uint64_t start = b->warps[warp].now > b->tma_free ? b->warps[warp].now : b->tma_free;
  b->tma_free = start + (bytes + CLK_TMA_BYTES - 1) / CLK_TMA_BYTES;
  return b->tma_free + (from_peer ? CLK_DSM_TRIP : CLK_TMA_TRIP);
}

void emu_clock_wait(Warp *w, uint64_t t) { wait_until(w, t); }

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
