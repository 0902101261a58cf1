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

/* One sector a request touched. */
typedef enum {
  TR_LD,       /* global load, cached in L1 */
  TR_LD_NC,    /* global load that bypasses L1 (ld.cg, or no L1 caching) */
  TR_ST,       /* global store: written through to L2 */
  TR_ATOM,     /* global atomic or reduction: performed at L2 */
  TR_LOCAL_LD, /* local: `sector` is the sector within the warp's local
                  window (the interleaved address / 32) */
  TR_LOCAL_ST,
  TR_TEX,      /* texture fetch: a load through L1 counted under the
                  texture pipe's hits and misses */
  TR_SULD,     /* surface load: the same, under the surface's */
  TR_LDGSTS,   /* cp.async.ca: a load cached in L1, also counted as LDGSTS */
  TR_LDGSTS_NC /* cp.async.cg: a load that bypasses L1, the same */
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

/* Appends one record (the trace grows as needed; trace_free() frees it). */
void trace_push(MemTrace *t, uint64_t sector, uint32_t bytes, unsigned warp, unsigned kind,
                int first);
void trace_free(MemTrace *t);

struct CacheSys;

/* Replays the traces of blocks first .. first+nb-1, which run on the same
 * SM at the same time (a group, see replay_group()), interleaving their
 * warps' requests.  Groups must come in launch order. */
void replay_blocks(struct CacheSys *c, uint64_t first, const MemTrace *const *t, int nb);

/* Consecutive blocks that share an SM and are replayed together. */
int replay_group(const struct CacheSys *c);

#endif
