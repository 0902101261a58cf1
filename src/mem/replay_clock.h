/* replay_clock.h - the replay's clock: when a group's requests issue and
 * when their data is back (replay_clock.c), from the warps' own clocks in
 * the trace (TraceRec.now) and what the L1 stage found (ReplayWait). */
#ifndef WM_REPLAY_CLOCK_H
#define WM_REPLAY_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "mem/replay.h"

struct CacheSys;
struct ReplayClock;

/* The clock's constants for the GH100 (the hopper and h200 presets), each
 * measured by one chain of groundtruth/memlat_kernels.cu on the H200
 * (docs/results/h200-2026-12-03-memlat): Nsight Compute's duration less
 * the empty launch's, over the chain's steps, at 1.98 GHz, less what the
 * clock itself gives the step besides the constant: the emulator's
 * dependent clocks of the loop's other instructions (23 a step: address,
 * add, and, loop test, each charged as dependent) and the L1 pipe's clock
 * for each line and each filled sector.  Held by tests/test_replay_clock.c.
 * X(name, value, unit, the probe that measures it) */
#define REPLAY_CLOCK_CONSTANTS(X)                                                                                 \
  X(CLOCK_L1_HIT, 29, "clocks", "memlat_ca#hit: 53 a step (the same word each step, an L1 hit), less 23 and 1")     \
  X(CLOCK_L2_HIT, 269, "clocks", "memlat_cg#hit and #fit: 291 a step on one line, 321 over 512 lines (of which "     \
                                 "1 in 16 first from DRAM), less 23 and 2: 266 and 271")                         \
  X(CLOCK_DRAM, 675, "clocks", "memlat_cg#dram_far and #dram_next: 700 a step, each a line no load asked for "    \
                               "before (the caches flushed), rows 16.5 KB or 128 bytes apart alike, less 23 and 2")    \
  X(CLOCK_DRAM_LINE, 5, "clocks a line", "memq_lanes#c32 against #c1: 905 and 703 a step, 32 lines of one 4 KB "      \
                                         "place against one, less the L1 pipe's 62 more: 140 over 31 lines, 4.5")    \
  X(CLOCK_DRAM_SPREAD, 130, "clocks", "memq_lanes#s4 against #c1: 849 and 703 a step, less the pipe's 6 more: the "  \
                                      "slowest of 4 places' delays, 130 x (1/2 + 1/3 + 1/4) = 141 (a fit of one probe)") \
  X(CLOCK_LOADS_INFLIGHT, 16, "loads", "ptxas's SASS: 16 LDGs before the first use in H100 colsum and matvec_reg "     \
                                       "(EMU_INFLIGHT, emu_rounds.c), 14 in share_read's 32-load loop body")

enum {
#define X(name, value, unit, probe) name = value,
  REPLAY_CLOCK_CONSTANTS(X)
#undef X
};

/* One warp of a group: its records r[0..n) in issue order, what each
 * waits for (ReplayWait), and its block (0 .. nblocks - 1 in the group;
 * a block's warps are consecutive in the group's array). */
typedef struct ClockWarp {
  const TraceRec *r;
  const uint8_t *wait;
  size_t n;
  uint32_t block;
} ClockWarp;

/* The clocks the group's blocks take on their SM, from their start
 * together to their last warp's end (its last load back, its last store at
 * L2).  *scratch is the worker's, kept between groups (replay_clock_free). */
uint64_t replay_clock_group(struct CacheSys *c, struct ReplayClock **scratch, const ClockWarp *w, size_t nw,
                            uint32_t nblocks);
/* Block b's own clocks in the group last replayed with k: to its last
 * warp's end. */
uint64_t replay_clock_block(const struct ReplayClock *k, uint32_t b);
/* Room for n warps to give replay_clock_group, in *scratch. */
ClockWarp *replay_clock_warps(struct ReplayClock **scratch, size_t n);
void replay_clock_free(struct ReplayClock *k);

#endif
