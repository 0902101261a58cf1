/* cache.h - what happens beyond L1TEX's tag stage: a data cache per SM and
 * the L2 all SMs share (cache.c), in front of DRAM (dram.h), driven by the
 * blocks' traces (replay.h).  CacheSys is the whole of it.
 *
 * Layout follows Dinero IV: CacheConfig is what was chosen (from the preset
 * and the occupancy), CacheSys holds the derived state, and the counters
 * are Nsight Compute's (metrics.h), added with cache_add_metrics().
 */
#ifndef WM_CACHE_H
#define WM_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "mem/dram.h"
#include "mem/metrics.h"
#include "mem/place.h"
#include "mem/replay.h"
#include "mem/xbar.h"

typedef struct CacheConfig {
  int sms;               /* SMs blocks are spread over */
  int blocks_per_sm;     /* resident blocks per SM (occupancy) */
  int group;             /* consecutive blocks dealt to one SM before the
                            next SM gets any (1: round-robin) */
  int warps_per_block;
  uint32_t local_bytes;  /* local memory per thread */
  uint32_t l1_bytes;     /* L1 data cache per SM: unified array minus the
                            shared memory carveout; 0: no L1 caching */
  int l1_ways;
  uint64_t l2_bytes;     /* L2 capacity the model uses */
  int l2_ways;
  int l2_parts;          /* 2: the L2 is two partitions, half the SMs near
                            each (cache.c); 0 or 1: one */
  uint64_t l2_side[3];   /* bit s: SM s sits near partition 1; all 0: the
                            two SMs of a TPC, then the next two, alternate */
  int fetch_bytes;       /* DRAM bytes per L2 read miss (64 on Hopper: a
                            sector pair) */
  int xbar_sms;          /* SMs whose reads of one sector in the same round
                            (same-numbered blocks of the first wave) reach
                            the L2 as one read (xbar.h); 0: none */
  const ArchLayout *layout; /* the order the GPU deals a wave's blocks in
                            (arch/deal.h; place.h), used when an SM holds
                            several blocks; NULL: in turn */
  int cluster_blocks;    /* a cluster launch's blocks a cluster (1-D: x
                            only), > 1: a cluster's blocks are placed on one
                            GPC (place_init_clusters); else 0 */
  int sm_blocks;         /* blocks an SM holds at once in this launch: its
                            share of a grid smaller than a wave, else
                            blocks_per_sm (0: blocks_per_sm) */
  int warp_inflight;     /* loads a warp of the kernel has in flight at most
                            (its deepest unrolled loop's, emu_rounds.c; 0:
                            not known): how long an SM's queue of requests
                            grows (xbar_meets) */
  int xbar_paired;       /* 1: blocks are dealt to both SMs of a TPC in turn
                            (grids of more blocks than TPCs), so SMs
                            2k and 2k+1 are in different crossbar groups */
  int merge_sectors;     /* L1 store merging: a store sector that another
                            recent store (within this many sectors) wrote
                            is combined with it, not sent again */
  int merge_lines;       /* ...only for requests that touch at most this
                            many 128-byte lines */
  uint32_t partial_sectors; /* L2 keeps at most this many partly written
                            sectors; beyond, the oldest is completed from
                            DRAM (0: unlimited) */
  int channels, banks;   /* DRAM channels and banks per channel */
  uint32_t row_bytes;    /* DRAM row (page) size */
  uint32_t interleave;   /* bytes mapped to one channel before the next */
  /* the replay's clock (replay_clock.c): how long a load waits, in the
   * SM's clocks, for L1, for L2, for DRAM (0: no clock) */
  uint32_t lat_l1, lat_l2, lat_dram;
} CacheConfig;

/* One set-associative array of 128-byte lines (an L1, or the L2).  A
 * line's state is one word (cache.c's CL_* fields: tag, sector masks and
 * its LRU rank within the set), so a set of 16 ways is 128 bytes: one or
 * two host cache lines per look-up. */
typedef struct CacheLevel {
  uint64_t *way;       /* [sets * ways] line state words */
  struct LineWrites *writes; /* [sets * ways] the L2's write state; NULL for
                          an L1 */
  uint32_t sets, ways;
  int scan;            /* 1: sets scanned with AVX2 (4 or 16 ways, the
                          host has it); chosen by cache_init */
} CacheLevel;

/* Entries of an SM's table of pending sectors: enough for the sectors its
 * warps wait for at once (with 64, the 4 warps of madd_nc's large launch
 * that wait for the same 32 lines found different ones of them pending,
 * fell out of step and wrote 135% of the H200's L2 sectors). */
#define CACHE_PEND 1024

typedef struct CacheSys {
  CacheConfig cfg;     /* as given; cache_init makes sms, blocks_per_sm,
                          group and fetch_bytes valid (DRAM's: dram) */
  /* derived state: the caches (cache.c) */
  CacheLevel *l1;      /* [sms] */
  CacheLevel l2;
  /* Each SM's recent store sectors, the block (low bits) and the warp that
   * stored each, and the next slot: merge_stride bytes an SM, a whole number of host cache
   * lines, since host threads replay different SMs at once. */
  uint8_t *merge;
  size_t merge_stride;
  /* Each SM's sectors that loads missed lately, with the round (the
   * missing warp's, CacheLastStore.round) and SM: a direct-mapped table of
   * CACHE_PEND entries an SM.  A load that hits a sector another warp
   * missed in its own round or later waits for that fill as the miss does
   * (PolyBench-style gemm: the 8 warps of a block load row k of B
   * together; cache_step.h: which warps it keeps in step). */
  uint64_t *pend;
  int merge_scan;      /* 1: merge_sectors is 16 and the host has AVX2 (the
                          FIFO scanned as cache.c's sets are) */
  uint64_t *partial;   /* [partial_sectors] ring of partly written sectors */
  Place place;         /* where a wave's blocks run (empty: in turn) */
  uint8_t *xbar_of;    /* [sms] the SM's crossbar group + 1 (xbar_sms;
                          NULL: reads not merged) */
  uint64_t xbar_cut;   /* a read meets its group's when its hash (32 bits)
                          is below this: 2^32 all (cache.c, set_xbar_cut) */
  /* What only the serial L2 stage writes, on host cache lines of its own
   * (the L1 stage's threads read the fields above all the time). */
  _Alignas(64) uint64_t l2_last_ln[2]; /* the lines the L2's last two look-ups gave */
  size_t l2_last_at[2], l2_last_way[2]; /* their sets and ways (l2_line; [0] the last) */
  size_t partial_pos, partial_n;
  /* The crossbar's recent reads and what merged (xbar.h) */
  Xbar xbar;
  /* DRAM: its configuration, state and counters (dram.c) */
  Dram dram;
  /* statistics */
  uint64_t metric[WM_M_COUNT]; /* the caches' and the replay's (DRAM's
                                  are in dram) */
  uint64_t blocks;
  uint64_t hot_writes; /* most store sectors one L2 line was sent, counting
                          those L1 merged: a line every warp writes (a[0])
                          serializes the warps at its L2 slice */
  uint64_t hot_atoms;  /* most atomic updates one L2 line performed */
  /* The replay's clock (replay_clock.c), written by the L1 stage's
   * threads with atomic adds: each SM slot's clocks (the blocks that took
   * it one after another), and the 64-byte pieces some load has asked the
   * L2 for (a direct-mapped table of CLOCK_SEEN tags: the first asks DRAM) */
  uint64_t *slot_clock; /* [sms * blocks_per_sm]; NULL: no clock */
  uint64_t *seen;       /* [CLOCK_SEEN] */
} CacheSys;

#define CLOCK_SEEN (1u << 20)

/* Sets up the caches and DRAM for cfg, empty; free with cache_free(). */
void cache_init(CacheSys *c, const CacheConfig *cfg);
/* Sets cfg.warp_inflight, which the emulator learns from the kernel's code
 * after the caches are made, and what follows from it. */
void cache_set_inflight(CacheSys *c, int loads);
void cache_free(CacheSys *c);

/* The large tables of the caches (cache_pool.c): take gives a table of
 * `bytes` (64-byte aligned, its contents undefined), a kept one when the
 * pool has one of that size; give keeps it for the next launch (or frees
 * it); drain frees what the pool keeps. */
void *cache_table_take(size_t bytes);
void cache_table_give(void *p, size_t bytes);
void cache_table_drain(void);

/* Adds the cache and DRAM counters to m. */
void cache_add_metrics(const CacheSys *c, uint64_t *m);


/* ---- one request (replay.c decides which, when and on which SM) ------- */

/* The sectors of a warp's last store request: the warp's next store to
 * one of them, right after it, merges with it in L1 (f3_plain's x, y and z
 * stores). */
typedef struct CacheLastStore {
  uint64_t sec[32];
  int n;
  uint8_t round_missed; /* a load of its current round missed L1 */
  uint32_t round;       /* the rounds the warp started (TR_ROUND) */
  uint32_t round_last;  /* fill_order of the last fill its current round waits for (0: none) */
  uint32_t step;        /* whose time the warp keeps (cache_step.h, "In step"):
                           0 as launched (or since a barrier), else the
                           fill (fill_id) it last resumed with */
} CacheLastStore;

/* One warp's request through the L1 of SM sm: the records r[0..n), r[0]
 * its first, all of one kind and one warp (as mem.c records them).
 * `local` (sectors) is added to the sector of local records: the warp's
 * local window; `block` is the warp's block (stores merge within a block);
 * `xbar` its block's crossbar tag (xbar_tag; 0: its reads are not
 * merged).  `last` is the warp's last store request; a store request
 * replaces it.  L1's counters go to metric, what it sends the L2 to out,
 * what each record waits for to wait[0..n) (ReplayWait, for the clock). */
void cache_request(CacheSys *c, int sm, uint64_t block, uint32_t xbar, const TraceRec *r, size_t n, uint64_t local,
                   CacheLastStore *last, uint64_t *metric, L2Ops *out, uint8_t *wait);

/* Asks the host to bring in the set of SM sm's L1 that sector maps to. */
void cache_prefetch_l1(const CacheSys *c, int sm, uint64_t sector);

/* Asks the host for SM sm's whole L1 table (its words, a line of the host
 * at a time): the L1 stage of a group touches sets all over it, and the
 * table was last used a round of the SMs ago. */
void cache_warm_l1(const CacheSys *c, int sm);

/* The L2 (and DRAM) serve ops[0..n), in order. */
void cache_l2(CacheSys *c, const L2Op *ops, size_t n);

#endif
