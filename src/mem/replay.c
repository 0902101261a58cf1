/* replay.c - the blocks' traces, recorded while the emulator runs them and
 * replayed in launch order through L1, L2 and DRAM (cache.c, dram.c).
 *
 * Notes:
 * - Recording: mem.c appends every global and local sector a warp's
 *   request touches, in lane order, the first of each request marked.
 *   Shared and constant memory and instruction fetch never reach the
 *   trace.
 * - Placement: blocks are dealt to the SMs in launch order, `group`
 *   consecutive blocks to an SM before the next SM gets any, in waves of
 *   sms * blocks_per_sm; the blocks of a group share their SM's L1.  The
 *   real block scheduler hands out blocks as SMs free up; the model assumes
 *   every block of a wave takes as long.
 * - Local memory: each resident warp slot of an SM has its own window,
 *   reused by the blocks that take that slot later (so a later block's
 *   local data can hit in L1 and L2 on the earlier one's lines).
 * - Interleaving: the warps of a group take turns, one request each, as
 *   warps sharing an SM issue in turn; groups are replayed one after the
 *   other, so the L2 sees one SM's group at a time, never two SMs'
 *   requests interleaved.  Requests are ordered, not timed.
 * - Each request goes to cache_request() whole (what it does to L1, L2
 *   and DRAM is cache.c's); the replay adds the warp's local window to
 *   local sectors, and counts a load whose first sector another warp of
 *   the group stores as a read-after-write wait (WM_M_RAW, for the time
 *   model).
 */
#include "mem/replay.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "util/diag.h"

/* ---- recording ------------------------------------------------------------ */

void trace_push(MemTrace *t, uint64_t sector, uint32_t bytes, unsigned warp, unsigned kind,
                int first) {
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 1024;
    t->r = wm_xrealloc(t->r, t->cap * sizeof *t->r);
  }
  t->r[t->n++] = (TraceRec){sector, bytes, (uint16_t)warp, (uint8_t)kind, (uint8_t)first};
}

void trace_free(MemTrace *t) {
  free(t->r);
  memset(t, 0, sizeof *t);
}

/* ---- where a block runs ------------------------------------------------- */

/* The SM block b runs on, and its slot among the SM's resident blocks:
 * waves of sms * blocks_per_sm blocks, dealt `group` at a time to SM 0,
 * 1, ... in turn. */
static void place(const CacheConfig *k, uint64_t b, uint64_t *sm, uint64_t *slot) {
  uint64_t g = (uint64_t)k->group, sms = (uint64_t)k->sms;
  uint64_t p = b % (sms * (uint64_t)k->blocks_per_sm);
  *sm = p / g % sms;
  *slot = p / (g * sms) * g + p % g;
}

/* Where local memory of (block, warp) lives: each resident warp slot of an
 * SM has its own window, reused by the blocks that follow on that slot. */
static uint64_t local_base(const CacheSys *c, uint64_t block, unsigned warp) {
  const CacheConfig *k = &c->cfg;
  uint64_t sm, slot;
  place(k, block, &sm, &slot);
  uint64_t hw_warp = (sm * (uint64_t)k->blocks_per_sm + slot) * (uint64_t)k->warps_per_block + warp;
  uint64_t window = ((uint64_t)k->local_bytes * 32 + 127) / 128 * 128;
  return 0x100000000000ull + hw_warp * window; /* far from global buffers */
}

int replay_group(const CacheSys *c) { return c->cfg.group; }

/* ---- one request ---------------------------------------------------------- */

/* A sector some warp of the replayed group stores, and which warp. */
typedef struct GroupStore {
  uint64_t sector;
  uint64_t warp;  /* block * 65536 + warp */
} GroupStore;

static int store_cmp(const void *a, const void *b) {
  const GroupStore *x = a, *y = b;
  if (x->sector != y->sector) return x->sector < y->sector ? -1 : 1;
  return x->warp < y->warp ? -1 : x->warp > y->warp;
}

/* 1 if a warp other than `warp` of the group stores `sector`: a load of it
 * then waits for that store to reach L2 (measured: inc_case#3, where each
 * block's warps read and write a[blockStart], takes 1.7x inc_case#1). */
static int stored_by_other(const CacheSys *c, uint64_t sector, uint64_t warp) {
  size_t lo = 0, hi = c->nstores;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (c->stores[mid].sector < sector) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < c->nstores && c->stores[i].sector == sector; i++)
    if (c->stores[i].warp != warp) return 1;
  return 0;
}

/* Replays one request: the records r[0..n) (one `first` at r[0]) of a warp
 * of `block` on SM sm; `last` is that warp's last store request. */
static void replay_request(CacheSys *c, int sm, uint64_t block, const TraceRec *r, size_t n,
                           CacheLastStore *last) {
  unsigned kind = r[0].kind;
  uint64_t local = kind == TR_LOCAL_LD || kind == TR_LOCAL_ST ? local_base(c, block, r[0].warp) / 32 : 0;
  if ((kind == TR_LD || kind == TR_LOCAL_LD) && c->nstores &&
      stored_by_other(c, r[0].sector + local, block * 65536 + r[0].warp))
    c->metric[WM_M_RAW]++;
  cache_request(c, sm, r, n, local, last);
}

/* ---- a group of co-resident blocks -------------------------------------- */

/* One warp's requests within a block's trace: the records of warp w, in
 * order, gathered into `sorted` by a counting sort. */
typedef struct Stream {
  const TraceRec *r;
  size_t n, pos;
  uint64_t block;
  int sm;
  CacheLastStore last;
} Stream;

void replay_blocks(CacheSys *c, uint64_t first, const MemTrace *const *t, int nb) {
  size_t total = 0;
  int maxw = 0;
  for (int b = 0; b < nb; b++) {
    total += t[b]->n;
    for (size_t i = 0; i < t[b]->n; i++)
      if (t[b]->r[i].warp >= maxw) maxw = t[b]->r[i].warp + 1;
  }
  c->blocks += (uint64_t)nb;
  if (!total) return;
  if ((size_t)c->sorted_cap < total) {
    c->sorted_cap = total;
    c->sorted = wm_xrealloc(c->sorted, total * sizeof *c->sorted);
  }
  size_t nstreams = (size_t)nb * (size_t)maxw;
  if (c->streams_cap < nstreams) {
    c->streams_cap = nstreams;
    free(c->streams);
    c->streams = wm_xmalloc(nstreams * sizeof *c->streams);
  }
  Stream *st = c->streams;
  memset(st, 0, nstreams * sizeof *st);
  size_t at = 0;
  for (int b = 0; b < nb; b++) {
    uint64_t sm, slot;
    place(&c->cfg, first + (uint64_t)b, &sm, &slot);
    Stream *bs = &st[(size_t)b * (size_t)maxw];
    for (size_t i = 0; i < t[b]->n; i++) bs[t[b]->r[i].warp].n++;
    for (int w = 0; w < maxw; w++) {
      bs[w].r = c->sorted + at;
      bs[w].block = first + (uint64_t)b;
      bs[w].sm = (int)sm;
      at += bs[w].n;
      bs[w].n = 0;
    }
    for (size_t i = 0; i < t[b]->n; i++) {
      Stream *x = &bs[t[b]->r[i].warp];
      ((TraceRec *)x->r)[x->n++] = t[b]->r[i];
    }
  }
  c->nstores = 0;
  for (int b = 0; b < nb; b++)
    for (size_t i = 0; i < t[b]->n; i++) {
      const TraceRec *x = &t[b]->r[i];
      if (x->kind != TR_ST) continue;
      if (c->nstores == c->stores_cap) {
        c->stores_cap = c->stores_cap ? 2 * c->stores_cap : 1024;
        c->stores = wm_xrealloc(c->stores, c->stores_cap * sizeof *c->stores);
      }
      c->stores[c->nstores++] = (GroupStore){x->sector, (first + (uint64_t)b) * 65536 + x->warp};
    }
  if (c->nstores) qsort(c->stores, c->nstores, sizeof *c->stores, store_cmp);
  /* round-robin over the warps of the co-resident blocks, a request each:
   * they share the SM's L1 at the same time */
  for (size_t left = nstreams;;) {
    left = 0;
    for (size_t s = 0; s < nstreams; s++) {
      Stream *x = &st[s];
      if (x->pos >= x->n) continue;
      size_t e = x->pos + 1;
      while (e < x->n && !x->r[e].first) e++;
      replay_request(c, x->sm, x->block, x->r + x->pos, e - x->pos, &x->last);
      x->pos = e;
      left++;
    }
    if (!left) break;
  }
}
