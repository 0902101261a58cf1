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
/* Room for n warps to give replay_clock_group, in *scratch. */
ClockWarp *replay_clock_warps(struct ReplayClock **scratch, size_t n);
void replay_clock_free(struct ReplayClock *k);

#endif
