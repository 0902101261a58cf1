/* replay_clock.c - the replay's clock: a group's requests in the order of
 * time, each issued when its warp gets to it and answered when its data
 * is back, so that the group's duration follows from when things happen
 * rather than from counts (issue 34's first part).
 *
 * Notes:
 * - A warp's clock in the trace (TraceRec.now) is the emulator's: its
 *   dependent clocks and its barrier releases, loads charged their issue
 *   only (emu_latency.c).  Here a warp's clock is that plus what it waited
 *   for memory: between two requests it advances by the trace's
 *   difference, and never runs behind the emulator's clock.
 * - A request that starts a round trip (TR_ROUND: it needs the data of the
 *   warp's previous round, emu_rounds.c; in a loop ptxas unrolls, one
 *   iteration in k, TR_ROUND_SKIP the others) first waits for that round's
 *   loads; so does a store (it usually stores what was loaded).  An
 *   atomic whose result is used waits as a load does.
 * - The SM's L1 takes the group's requests one at a time, a clock for each
 *   line a request touches and each sector it fills (the L1 cycles of the
 *   time model): a request waits for the pipe, and its data for the
 *   pipe, then a hit's L1 latency (or the fill in flight that brings its
 *   sector: a later hit waits for an earlier miss), or a miss's L2 latency,
 *   or for the first load of a 64-byte piece in the launch DRAM's (the
 *   L2 is taken as holding what was read before: capacity misses are not
 *   seen here).
 * - DRAM (memq_kernels.cu): the 4 KB place a line is in serves the lines
 *   asked of it one at a time, CLOCK_DRAM_LINE apart, in a queue the group
 *   keeps; each place answers after a delay drawn for it (place_delay), so
 *   that a request over many places waits for the slowest.
 * - A load that writes a register waits for the data of the load
 *   CLOCK_LOADS_INFLIGHT loads back (the registers ptxas gives them).
 * - A barrier: a warp's request of a later epoch (TraceRec.epoch) waits
 *   until every warp of its block has arrived (its loads back) or ended,
 *   then goes on TraceRec.since clocks after the last arrival.
 * - A warp ends at its last issue, its last load's data or its last
 *   store's arrival at L2, whichever is last; a block ends with its last
 *   warp, and its SM slot takes the next block then (replay.c: each slot
 *   sums its own blocks' clocks, not the group's longest).
 * - Not here: the L2's slices as queues, DRAM's places as queues shared
 *   by the SMs (each group keeps its own; the throughput bounds stay in
 *   model.c), shared memory's wavefronts, the
 *   requests' order in the L1 stage (it replays in turns: the counters do
 *   not depend on this clock).
 */
#include "mem/replay_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "util/diag.h"

enum { W_RUN, W_BAR, W_DONE };

typedef struct WarpClock {
  size_t pos;
  uint64_t c;           /* its clock at its last request */
  uint32_t stamp;       /* the trace's clock there */
  uint16_t epoch;       /* barriers left */
  uint8_t state;
  uint64_t round_ready; /* when its current round's loads are back */
  uint64_t loads_ready; /* ... all its loads */
  uint64_t acked;       /* when its last store reaches L2 */
  uint64_t window[CLOCK_LOADS_INFLIGHT]; /* when its last loads' data is back, */
  uint32_t loads;                        /* ... in a ring: loads issued */
} WarpClock;

typedef struct BlockClock {
  uint32_t first, warps;         /* its warps: w[first .. first + warps) */
  uint32_t waiting, done;        /* of those, at a barrier; ended */
  uint64_t arrived;              /* the last arrival at the barrier */
  uint64_t end;                  /* its last warp's end */
} BlockClock;

typedef struct HeapItem {
  uint64_t t;
  uint32_t w;
} HeapItem;

#define INFLIGHT 4096 /* sectors in flight a group keeps track of (direct-mapped) */
#define PLACES 1024   /* DRAM places (4 KB each) a group keeps the queues of (direct-mapped) */

/* An entry of a direct-mapped table of times: key + 1 (0: empty), the
 * group that set it. */
typedef struct TimeSlot {
  uint64_t key, t;
  uint32_t gen;
} TimeSlot;

struct ReplayClock {
  ClockWarp *in;
  size_t in_cap;
  WarpClock *w;
  size_t w_cap;
  BlockClock *b;
  size_t b_cap;
  HeapItem *heap;
  size_t heap_n;
  uint32_t gen;                /* the group being replayed (no clearing of the tables between groups) */
  TimeSlot fill[INFLIGHT];     /* a sector and when its fill is in */
  TimeSlot place[PLACES];      /* a DRAM place and when it takes its next line */
};

/* The time kept for key in its slot s, if the slot is this group's and
 * holds key; else 0 (no wait). */
static uint64_t slot_time(const struct ReplayClock *k, const TimeSlot *s, uint64_t key) {
  return s->gen == k->gen && s->key == key + 1 ? s->t : 0;
}

static void slot_set(const struct ReplayClock *k, TimeSlot *s, uint64_t key, uint64_t t) {
  *s = (TimeSlot){key + 1, t, k->gen};
}

/* The heap's order: earlier first, the lower warp at a tie (the L1
 * stage's turns). */
static int before(HeapItem a, HeapItem b) { return a.t < b.t || (a.t == b.t && a.w < b.w); }

static void heap_push(struct ReplayClock *k, uint64_t t, uint32_t w) {
  size_t i = k->heap_n++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (before(k->heap[p], (HeapItem){t, w})) break;
    k->heap[i] = k->heap[p];
    i = p;
  }
  k->heap[i] = (HeapItem){t, w};
}

static HeapItem heap_pop(struct ReplayClock *k) {
  HeapItem top = k->heap[0], last = k->heap[--k->heap_n];
  size_t i = 0, n = k->heap_n;
  for (;;) {
    size_t l = 2 * i + 1, m = l;
    if (l >= n) break;
    if (l + 1 < n && before(k->heap[l + 1], k->heap[l])) m = l + 1;
    if (before(last, k->heap[m])) break;
    k->heap[i] = k->heap[m];
    i = m;
  }
  k->heap[i] = last;
  return top;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The clocks from the trace's stamp `from` to `to` (0 if it went back:
 * records the emulator did not stamp). */
static uint64_t stamp_gap(uint32_t from, uint32_t to) {
  int32_t d = (int32_t)(to - from);
  return d > 0 ? (uint64_t)d : 0;
}

/* 1 if the request r starts a round: its loads need the previous round's
 * data (an unrolled loop's later iterations do not: TR_ROUND_SKIP). */
static int starts_round(const TraceRec *r) { return (r->first & (TR_ROUND | TR_ROUND_SKIP)) == TR_ROUND; }

/* 1 if the request's data goes to a register, which stays taken until it
 * is back: ptxas keeps at most CLOCK_LOADS_INFLIGHT such loads in flight. */
static int holds_register(unsigned kind) {
  return kind == TR_LD || kind == TR_LD_NC || kind == TR_LOCAL_LD || kind == TR_TEX || kind == TR_SULD ||
         kind == TR_ATOM;
}

/* When warp w issues its next request (its pos), it being free to: after
 * its round's loads if it starts a round or stores, and after the data of
 * the load CLOCK_LOADS_INFLIGHT loads back if it loads. */
static uint64_t next_issue(const WarpClock *s, const ClockWarp *w) {
  const TraceRec *r = &w->r[s->pos];
  uint64_t base = s->c;
  if (starts_round(r) || r->kind == TR_ST || r->kind == TR_LOCAL_ST) base = max64(base, s->round_ready);
  if (holds_register(r->kind)) base = max64(base, s->window[s->loads % CLOCK_LOADS_INFLIGHT]);
  return max64(base + stamp_gap(s->stamp, r->now), r->now);
}

/* The end of request records r[0..n): the records up to the next first. */
static size_t request_end(const ClockWarp *w, size_t pos) {
  size_t e = pos + 1;
  while (e < w->n && !w->r[e].first) e++;
  return e;
}

/* 1 the first time the launch's loads ask for the 64-byte piece of
 * `sector` (DRAM serves it), in the table the SMs share. */
static int first_ask(CacheSys *c, uint64_t sector) {
  uint64_t piece = sector >> 1, tag = piece + 1;
  size_t at = (size_t)((piece * 0x9E3779B97F4A7C15ull) >> 44) & (CLOCK_SEEN - 1);
  return __atomic_exchange_n(&c->seen[at], tag, __ATOMIC_RELAXED) != tag;
}

/* How much longer than the fastest a DRAM place answers at time t: a draw
 * from an exponential of mean CLOCK_DRAM_SPREAD (at most 8 times that),
 * from a hash of the place and the request's time in windows of 512
 * clocks, shorter than a miss (the same for every run and thread count).
 * It stands for what makes one miss slower than another (which channel,
 * its queue and rows, refresh), whose causes are not modelled one by one:
 * a request of lines in several places waits for the slowest. */
static uint64_t place_delay(uint64_t place, uint64_t t) {
  uint64_t h = (place ^ (t >> 9) * 0xD6E8FEB86659FD93ull) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  double u = ((double)(h >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
  double d = -(double)CLOCK_DRAM_SPREAD * log(u);
  return d < 8.0 * CLOCK_DRAM_SPREAD ? (uint64_t)d : 8u * CLOCK_DRAM_SPREAD;
}

/* When a DRAM read of `sector`, asked at t, is back at the L1: its place
 * (the 4 KB it is in) serves its lines one at a time, CLOCK_DRAM_LINE
 * apart, then answers after the L2's and DRAM's latency and its delay. */
static uint64_t dram_ready(struct ReplayClock *k, const CacheConfig *cfg, uint64_t sector, uint64_t t) {
  uint64_t place = sector >> 7;
  size_t at = (size_t)((place * 0x9E3779B97F4A7C15ull) >> 54) & (PLACES - 1);
  uint64_t s = max64(t, slot_time(k, &k->place[at], place));
  slot_set(k, &k->place[at], place, s + CLOCK_DRAM_LINE);
  return s + cfg->lat_dram - CLOCK_DRAM_SPREAD + place_delay(place, t);
}

/* Issues warp i's request at t through the SM's L1 (free from *l1_free). */
static void issue(CacheSys *c, struct ReplayClock *k, const ClockWarp *w, WarpClock *s, uint64_t t,
                  uint64_t *l1_free) {
  const CacheConfig *cfg = &c->cfg;
  size_t e = request_end(w, s->pos);
  const TraceRec *r = w->r;
  unsigned cost = 0;
  uint64_t ln = UINT64_MAX;
  for (size_t j = s->pos; j < e; j++) {
    cost += (r[j].sector >> 2) != ln;
    ln = r[j].sector >> 2;
    cost += w->wait[j] == RW_MISS;
  }
  uint64_t start = max64(t, *l1_free), done = start + cost, data = 0;
  *l1_free = done;
  for (size_t j = s->pos; j < e; j++) {
    size_t at = (size_t)(r[j].sector ^ r[j].sector >> 12) & (INFLIGHT - 1);
    switch (w->wait[j]) {
    case RW_HIT: {
      uint64_t ready = done + cfg->lat_l1;
      ready = max64(ready, slot_time(k, &k->fill[at], r[j].sector));
      data = max64(data, ready);
      break;
    }
    case RW_MISS: {
      uint64_t ready = first_ask(c, r[j].sector) ? dram_ready(k, cfg, r[j].sector, done) : done + cfg->lat_l2;
      slot_set(k, &k->fill[at], r[j].sector, ready);
      data = max64(data, ready);
      break;
    }
    case RW_STORE: s->acked = max64(s->acked, done + cfg->lat_l2); break;
    default: break;
    }
  }
  if (starts_round(&r[s->pos])) s->round_ready = data;
  else s->round_ready = max64(s->round_ready, data);
  s->loads_ready = max64(s->loads_ready, data);
  if (holds_register(r[s->pos].kind)) s->window[s->loads++ % CLOCK_LOADS_INFLIGHT] = data;
  s->c = t;
  s->stamp = r[s->pos].now;
  s->pos = e;
}

/* Releases block b's barrier when all its warps arrived or ended: those
 * whose next request is past the fewest barriers go on; the others wait
 * at the next, arrived when this one released. */
static void try_release(struct ReplayClock *k, const ClockWarp *w, uint32_t b) {
  BlockClock *bc = &k->b[b];
  if (bc->waiting == 0 || bc->waiting + bc->done < bc->warps) return;
  uint16_t first = UINT16_MAX;
  size_t lo = bc->first, hi = lo + bc->warps;
  for (size_t i = lo; i < hi; i++)
    if (k->w[i].state == W_BAR && w[i].r[k->w[i].pos].epoch < first) first = w[i].r[k->w[i].pos].epoch;
  uint64_t at = bc->arrived;
  for (size_t i = lo; i < hi; i++) {
    WarpClock *s = &k->w[i];
    if (s->state != W_BAR || w[i].r[s->pos].epoch != first) continue;
    const TraceRec *r = &w[i].r[s->pos];
    s->state = W_RUN;
    s->epoch = r->epoch;
    s->c = at;
    s->stamp = r->now - r->since; /* the emulator's release */
    bc->waiting--;
    heap_push(k, next_issue(s, &w[i]), (uint32_t)i);
  }
}

/* A warp that has issued: next, it runs on, waits at a barrier, or ends. */
static void step_on(struct ReplayClock *k, const ClockWarp *w, uint32_t i, uint64_t *end) {
  WarpClock *s = &k->w[i];
  BlockClock *bc = &k->b[w[i].block];
  if (s->pos >= w[i].n) {
    uint64_t e = max64(max64(s->c, s->loads_ready), s->acked);
    s->state = W_DONE;
    bc->done++;
    if (e > *end) *end = e;
    if (e > bc->end) bc->end = e;
    if (e > bc->arrived) bc->arrived = e;
    return;
  }
  if (w[i].r[s->pos].epoch > s->epoch) { /* at a barrier, with its loads back */
    uint64_t a = max64(s->c, s->loads_ready);
    s->state = W_BAR;
    bc->waiting++;
    if (a > bc->arrived) bc->arrived = a;
    return;
  }
  heap_push(k, next_issue(s, &w[i]), i);
}

static void clock_reserve(struct ReplayClock *k, size_t nw, uint32_t nblocks) {
  if (k->w_cap < nw) {
    free(k->w);
    free(k->heap);
    k->w = wm_xmalloc(nw * sizeof *k->w);
    k->heap = wm_xmalloc(nw * sizeof *k->heap);
    k->w_cap = nw;
  }
  if (k->b_cap < nblocks) {
    free(k->b);
    k->b = wm_xmalloc(nblocks * sizeof *k->b);
    k->b_cap = nblocks;
  }
}

uint64_t replay_clock_group(CacheSys *c, struct ReplayClock **scratch, const ClockWarp *w, size_t nw,
                            uint32_t nblocks) {
  if (!c->slot_clock || !nw) return 0;
  if (!*scratch) *scratch = wm_xcalloc(1, sizeof **scratch);
  struct ReplayClock *k = *scratch;
  clock_reserve(k, nw, nblocks);
  if (++k->gen == 0) { /* wrapped: no entry may pass for this group's */
    memset(k->fill, 0, sizeof k->fill);
    memset(k->place, 0, sizeof k->place);
    k->gen = 1;
  }
  memset(k->b, 0, nblocks * sizeof *k->b);
  k->heap_n = 0;
  uint64_t end = 0, l1_free = 0;
  for (size_t i = 0; i < nw; i++) {
    k->w[i] = (WarpClock){0};
    BlockClock *bc = &k->b[w[i].block];
    if (!bc->warps) bc->first = (uint32_t)i;
    bc->warps++;
  }
  for (size_t i = 0; i < nw; i++) {
    if (w[i].n) step_on(k, w, (uint32_t)i, &end);
    else k->b[w[i].block].done++;
  }
  for (uint32_t b = 0; b < nblocks; b++) try_release(k, w, b);
  while (k->heap_n) {
    HeapItem h = heap_pop(k);
    WarpClock *s = &k->w[h.w];
    issue(c, k, &w[h.w], s, h.t, &l1_free);
    step_on(k, w, h.w, &end);
    if (s->state != W_RUN) try_release(k, w, w[h.w].block);
  }
  return end;
}

uint64_t replay_clock_block(const struct ReplayClock *k, uint32_t b) { return k->b[b].end; }

ClockWarp *replay_clock_warps(struct ReplayClock **scratch, size_t n) {
  if (!*scratch) *scratch = wm_xcalloc(1, sizeof **scratch);
  struct ReplayClock *k = *scratch;
  if (k->in_cap < n) {
    free(k->in);
    k->in = wm_xmalloc(n * sizeof *k->in);
    k->in_cap = n;
  }
  return k->in;
}

void replay_clock_free(struct ReplayClock *k) {
  if (!k) return;
  free(k->in);
  free(k->w);
  free(k->b);
  free(k->heap);
  free(k);
}
