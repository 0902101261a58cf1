/* replay.h - the global and local sectors each block touched, recorded in
 * a trace while the emulator runs it, and replayed in launch order through
 * L1, L2 and DRAM (replay.c; the caches are cache.h's, DRAM dram.h's).
 *
 * The emulator runs blocks on several host threads, but caches depend on
 * order.  So each block's global and local sectors are recorded in a trace
 * (MemTrace, filled by mem.c), and the traces are replayed here in launch
 * order, a group of consecutive blocks that share an SM at a time, their
 * warps' requests interleaved: blocks are dealt to the SMs in turn, `group`
 * at a time, each SM holding blocks_per_sm, so co-resident blocks share its
 * L1.  The result does not depend on the number of host threads.
 */
#ifndef WM_REPLAY_H
#define WM_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "mem/metrics.h"
#include "util/spill.h"

/* One sector a request touched. */
typedef enum {
  TR_LD,       /* global load, cached in L1 */
  TR_LD_NC,    /* global load that bypasses L1 (ld.cg, or no L1 caching) */
  TR_ST,       /* global store: written through to L2 */
  TR_ATOM,     /* global atomic (its result used): performed at L2 */
  TR_LOCAL_LD, /* local: `sector` is the sector within the warp's local
                  window (the interleaved address / 32) */
  TR_LOCAL_ST,
  TR_TEX,      /* texture fetch: a load through L1 counted under the
                  texture pipe's hits and misses */
  TR_SULD,     /* surface load: the same, under the surface's */
  TR_LDGSTS,   /* cp.async.ca: a load cached in L1, also counted as LDGSTS */
  TR_LDGSTS_NC,/* cp.async.cg: a load that bypasses L1, the same */
  TR_RED,      /* global reduction (an atomic whose result no one reads):
                  performed at L2, not counted as an atomic there (H100:
                  lts__t_sectors_srcunit_tex_op_atom is 0 for atom_hot) */
  TR_BULK,     /* cp.async.bulk's global source: the TMA unit reads L2
                  directly, no L1 lookup, and the L2 counts it under
                  srcunit_tex (H100 corpus barrier_sum: 1024 sectors in
                  256 requests, its 32 KB in 128-byte lines) */
  TR_BULK_ST,  /* a TMA store's sector: written to L2, no L1 lookup (a
                  copy there is dropped, stale) */
  TR_BULK_RED  /* a TMA reduction's sector: performed at L2, as TR_RED */
} TraceKind;

typedef struct TraceRec {
  uint64_t sector;  /* byte address / 32 */
  uint32_t bytes;   /* bytes of the sector written (bit i: byte i) */
  uint32_t now;     /* the warp's clock when it issued the request (Warp.now,
                       low 32 bits: its dependent clocks and barrier
                       releases, no memory waits); 0 where not known */
  uint16_t epoch;   /* barriers the warp had left by then */
  uint16_t since;   /* its clocks since it left the last one (at most 65535) */
  uint8_t warp;     /* warp within the block (at most 32) */
  uint8_t ops;      /* TR_ATOM: updates the L2 serializes on the sector
                       (lanes on one word each count); else 1 */
  uint8_t kind;     /* TraceKind */
  uint8_t first;    /* non-zero: first sector of its request; with TR_ROUND,
                       of a load that starts a round trip */
} TraceRec;

#define TR_ROUND 2 /* TraceRec.first: the request starts a round trip */
#define TR_AFTER_ST 4 /* TraceRec.first: a store right after another store */
#define TR_AFTER_BAR 8 /* TraceRec.first: the warp's first request since it
                          waited at a barrier (back in step with its block) */
#define TR_ROUND_SKIP 32 /* TraceRec.first, with TR_ROUND: a round's leader
                            in an iteration of an unrolled loop whose loads
                            ptxas issued with an earlier iteration's (the
                            replay's clock does not wait before it) */
#define TR_STRONG 16 /* TraceRec.first: a store that bypasses L1 (st.cg, or
                        strong above the block: MemReq.cache MEM_LOADS_CG) */

/* A block's trace.  Up to WM_SPILL_BYTES it lives on the heap; beyond, in
 * a temporary file mapped in memory (util/spill.h): a launch whose blocks
 * each touch gigabytes of sectors does not need that much memory. */
typedef struct MemTrace {
  TraceRec *r;
  size_t n, cap;
  int file;         /* the temporary file's descriptor + 1; 0: heap */
} MemTrace;

/* Appends one record (the trace grows as needed; trace_free() frees it). */
void trace_push(MemTrace *t, uint64_t sector, uint32_t bytes, unsigned warp, unsigned kind,
                int first);
void trace_free(MemTrace *t);
/* Room for n more records at the end of t (counted in t->n): the caller
 * fills them. */
TraceRec *trace_append(MemTrace *t, size_t n);
/* Makes t hold at least n records (t->n unchanged). */
void trace_reserve(MemTrace *t, size_t n);

struct CacheSys;

/* Replays the traces of blocks first .. first+nb-1, which run on the same
 * SM at the same time (a group, see replay_group()), interleaving their
 * warps' requests.  Groups must come in launch order. */
void replay_blocks(struct CacheSys *c, uint64_t first, const MemTrace *const *t, int nb);

/* Consecutive blocks that share an SM and are replayed together. */
int replay_group(const struct CacheSys *c);

/* ---- the replay in two stages, for several host threads ---------------
 * replay_blocks() is replay_l1() then cache_l2().  The L1 stage of a group
 * touches only its SM's L1 (and the thread's own scratch), so groups on
 * different SMs can run it at the same time; a group must follow the
 * groups before it on the same SM.  Its output, the L2 operations, must
 * then reach the L2 in launch order: through an L2Wave (below), which
 * interleaves a wave's SMs, or straight to cache_l2() (replay_blocks, one
 * group at a time: the unit tests' small cases). */

/* What an L1 sends the L2: a sector read, written (with the bytes) or
 * updated atomically. */
enum { L2_READ, L2_WRITE, L2_WRITE_MERGED /* L1 combined it: not counted */, L2_ATOM };

typedef struct L2Op {
  uint64_t sector;
  uint32_t bytes;
  uint32_t kind;    /* L2_READ.. in the low 2 bits; above, the L2 set */
} L2Op;

typedef struct L2Ops { /* grows as a MemTrace does (util/spill.h) */
  L2Op *op;
  size_t n, cap;
  int file;
  size_t *end;        /* where each group's operations end (replay_l1) */
  size_t nend, end_cap;
} L2Ops;

/* Empties o, keeping its buffers. */
static inline void l2ops_clear(L2Ops *o) { o->n = o->nend = 0; }
/* Makes o hold at least n operations (o->n unchanged).  Inline: the L1
 * stage (cache.c) grows its output with it too. */
static inline void l2ops_reserve(L2Ops *o, size_t n) {
  void *p = o->op;
  wm_spill_reserve(&p, &o->cap, o->n, n, sizeof *o->op, &o->file);
  o->op = p;
}

/* The L2 side of concurrently running SMs: groups of operations (as
 * replay_l1 ended them) are gathered `sms` at a time, one group an SM,
 * and go to cache_l2 interleaved, a line's operations from each group in
 * turn, as the SMs' requests reach the L2 together. */
typedef struct L2Wave {
  L2Ops held, mixed;
  int sms;
} L2Wave;

/* Adds o's groups (o is left as it was); full waves go to the L2. */
void l2wave_put(struct CacheSys *c, L2Wave *w, const L2Ops *o);
/* The groups left (a short last wave) to the L2. */
void l2wave_flush(struct CacheSys *c, L2Wave *w);
void l2wave_free(L2Wave *w);

/* One host thread's side of the replay: scratch reused from group to group,
 * and the counters of its L1 stages. */
/* What a trace record waits for, as the L1 stage found it (cache_request),
 * for the replay's clock (replay_clock.c). */
typedef enum {
  RW_NONE,  /* nothing: shared-memory side, the TMA's (the emulator clocks it) */
  RW_HIT,   /* a load sector that hit L1 (it may wait for a fill in flight) */
  RW_MISS,  /* a load sector (or an atomic's result) that comes from L2 */
  RW_STORE  /* a store or reduction sector: the warp ends when it reaches L2 */
} ReplayWait;

typedef struct ReplayWorker {
  MemTrace sorted;           /* a group's records, by warp */
  uint8_t *wait;             /* [nrecs] ReplayWait of each record, as the streams order them */
  size_t wait_cap;
  struct ReplayClock *clock; /* the clock's scratch (replay_clock.c) */
  struct Stream *streams;    /* the group's warps being replayed */
  size_t streams_cap;
  struct GroupStore *stores; /* the group's store sectors (a hash table) */
  size_t nstores, stores_cap;
  size_t nrecs;              /* the group's records (gather_streams) */
  uint64_t metric[WM_M_COUNT];
  uint64_t blocks;           /* blocks replayed */
} ReplayWorker;

/* The L1 stage of a group, blocks first .. first + nb - 1: their requests
 * through the L1 of their SM, the L2 operations appended to out, counters
 * in w. */
void replay_l1(struct CacheSys *c, ReplayWorker *w, uint64_t first, const MemTrace *const *t, int nb, L2Ops *out);
/* The same for the blocks blocks[0..nb) (an SM's co-resident blocks). */
void replay_l1_blocks(struct CacheSys *c, ReplayWorker *w, const uint64_t *blocks, const MemTrace *const *t, int nb,
                      L2Ops *out);
/* ---- an SM's co-resident blocks, replayed together ---------------------
 * A wave's blocks run on an SM at the same time (the placement of
 * replay.c), so their warps take turns in its L1.  Blocks
 * come in launch order, so a block's trace is held until the last block
 * of its SM's wave arrives; then the SM's held blocks go through replay_l1
 * together.  Active for group 1 when a wave puts several blocks on an SM. */
typedef struct HoldSlot {
  MemTrace own;     /* the block's trace, taken in exchange for an empty one */
  size_t off, n;    /* or its records at store.r + off (in_store) */
  int in_store;
  uint64_t block;   /* the block */
} HoldSlot;

typedef struct ReplayHold {
  HoldSlot *slot;       /* [sms * bps]: the held blocks, by SM and slot */
  uint32_t *first;      /* [sms]: the slot of each SM's first held block */
  uint32_t *n;          /* [sms]: blocks held */
  int sms, bps;
  uint64_t grid_blocks; /* the launch's blocks: its last wave may be short */
  uint64_t held;        /* blocks held */
  size_t bytes, budget; /* trace bytes held in `own` buffers, and their most */
  MemTrace store;       /* past the budget, held records are copied here
                           (a temporary file beyond WM_SPILL_BYTES) */
} ReplayHold;

/* The blocks an SM holds at once (blocks_per_sm) when a launch of
 * grid_blocks puts several on an SM and they are replayed together (group
 * 1, at most 64), else 0. */
int replay_coresident(const struct CacheSys *c, uint64_t grid_blocks);
/* 1 and h ready when the launch's blocks need holding, else 0 (and h
 * empty: replay groups as they come).  `budget`: the bytes of traces held
 * in memory; the rest go to h->store. */
int replay_hold_init(ReplayHold *h, const struct CacheSys *c, uint64_t grid_blocks, size_t budget);
/* Takes block's trace into h (t gets an empty buffer in exchange, or keeps
 * its own, emptied); when it completes its SM's blocks of the wave,
 * replays them (replay_l1, output to out). */
void replay_hold_put(struct CacheSys *c, ReplayHold *h, ReplayWorker *w, uint64_t block, MemTrace *t, L2Ops *out);
void replay_hold_free(ReplayHold *h);

/* The SM that block runs on; replay_slot also its slot there (the k-th
 * block of the wave the SM received). */
int replay_sm(const struct CacheSys *c, uint64_t block);
int replay_slot(const struct CacheSys *c, uint64_t block, int *slot);
/* Which block of a wave (0 .. sms * blocks_per_sm - 1) runs on SM sm in
 * slot `slot` (group 1). */
uint64_t replay_wave_block(const struct CacheSys *c, int sm, int slot);
/* Moves w's counters into c. */
void replay_worker_add(struct CacheSys *c, ReplayWorker *w);
void replay_worker_free(ReplayWorker *w);
void l2ops_free(L2Ops *o);

#endif
