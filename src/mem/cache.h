/* cache.h - what happens beyond L1TEX's tag stage: a data cache per SM, the
 * L2 all SMs share, and DRAM with channels, banks and open rows.
 *
 * The emulator runs blocks on several host threads, but caches depend on
 * order.  So each block's global and local sectors are recorded in a trace
 * (MemTrace, filled by mem.c), and the traces are replayed here in launch
 * order, a group of consecutive blocks that share an SM at a time, their
 * warps' requests interleaved: blocks are dealt to the SMs in turn, `group`
 * at a time, each SM holding blocks_per_sm, so co-resident blocks share its
 * L1.  The result does not depend on the number of host threads.
 *
 * Layout follows Dinero IV: CacheConfig is what was chosen (from the preset
 * and the occupancy), CacheSys holds the derived state, and the counters
 * are Nsight Compute's (metrics.h), added with cache_add_metrics().
 */
#ifndef WM_CACHE_H
#define WM_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "mem/metrics.h"

/* One sector a request touched. */
typedef enum {
  TR_LD,       /* global load, cached in L1 */
  TR_LD_NC,    /* global load that bypasses L1 (ld.cg, or no L1 caching) */
  TR_ST,       /* global store: written through to L2 */
  TR_ATOM,     /* global atomic or reduction: performed at L2 */
  TR_LOCAL_LD, /* local: `sector` is the sector within the warp's local
                  window (the interleaved address / 32) */
  TR_LOCAL_ST
} TraceKind;

typedef struct TraceRec {
  uint64_t sector;  /* byte address / 32 */
  uint32_t bytes;   /* bytes of the sector written (bit i: byte i) */
  uint16_t warp;    /* warp within the block */
  uint8_t kind;     /* TraceKind */
  uint8_t first;    /* first sector of its request */
} TraceRec;

typedef struct MemTrace {
  TraceRec *r;
  size_t n, cap;
} MemTrace;

void trace_push(MemTrace *t, uint64_t sector, uint32_t bytes, unsigned warp, unsigned kind,
                int first);
void trace_free(MemTrace *t);

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
  int fetch_bytes;       /* DRAM bytes per L2 read miss (64 on Hopper: a
                            sector pair) */
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
} CacheConfig;

typedef struct CacheLine {
  uint64_t tag;        /* line address + 1; 0: empty */
  uint8_t valid;       /* sectors present */
  uint8_t dirty;       /* sectors written (L2) */
  uint8_t unused;      /* L2: sectors fetched along with another and not
                          yet used */
  uint32_t written[4]; /* L2: bytes written of a sector not present */
  uint32_t writes;     /* L2: writes the line received */
} CacheLine;

typedef struct CacheLevel {
  CacheLine *line;     /* [sets * ways] */
  uint64_t *tags;      /* [sets * ways] line[i].tag, apart for fast lookups */
  uint32_t *lru;       /* [sets * ways] last use of line[i] */
  uint32_t sets, ways;
  uint32_t clock;
} CacheLevel;

typedef struct CacheSys {
  CacheConfig cfg;
  /* derived state */
  CacheLevel *l1;      /* [sms] */
  CacheLevel l2;
  uint64_t *merge;     /* [sms * merge_sectors] recent store sectors */
  uint32_t *merge_pos; /* [sms] */
  int64_t *open_row;   /* [channels * banks]; -1: closed */
  uint64_t *partial;   /* [partial_sectors] ring of partly written sectors */
  size_t partial_pos, partial_n;
  TraceRec *sorted;    /* a group's records, by warp */
  size_t sorted_cap;
  struct Stream *streams;    /* the group's warps being replayed */
  size_t streams_cap;
  struct GroupStore *stores; /* the group's store sectors, sorted */
  size_t nstores, stores_cap;
  /* statistics */
  uint64_t metric[WM_M_COUNT];
  uint64_t blocks;
  uint64_t hot_writes; /* most store sectors one L2 line was sent, counting
                          those L1 merged: a line every warp writes (a[0])
                          serializes the warps at its L2 slice */
} CacheSys;

void cache_init(CacheSys *c, const CacheConfig *cfg);
void cache_free(CacheSys *c);

/* Replays the traces of blocks first .. first+nb-1, which run on the same
 * SM at the same time (a group, see cache_group()), interleaving their
 * warps' requests.  Groups must come in launch order. */
void cache_blocks(CacheSys *c, uint64_t first, const MemTrace *const *t, int nb);

/* Consecutive blocks that share an SM and are replayed together. */
int cache_group(const CacheSys *c);

/* Adds the cache and DRAM counters to m. */
void cache_add_metrics(const CacheSys *c, uint64_t *m);

/* The L2 capacity the model uses for a preset's `l2_bytes`: see cache.c. */
uint64_t cache_l2_effective(uint64_t l2_bytes);

#endif
