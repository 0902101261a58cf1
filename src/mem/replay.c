/* replay.c - the blocks' traces, recorded while the emulator runs them and
 * replayed in launch order through L1, L2 and DRAM (cache.c, dram.c).
 *
 * Notes:
 * - Recording: mem.c appends every global and local sector a warp's
 *   request touches, in lane order, the first of each request marked.
 *   Shared and constant memory and instruction fetch never reach the
 *   trace.
 * - Placement: blocks are dealt to the SMs in launch order, in waves of
 *   sms * blocks_per_sm, in the preset's order where it has one and an SM
 *   holds several blocks (place.h: the GH100's turns over its TPCs), else
 *   `group` consecutive blocks to an SM before the next SM gets any; the
 *   blocks of a group share their SM's L1.  The real block scheduler hands
 *   out later blocks as SMs free up; the model assumes every block of a
 *   wave takes as long, so block b runs where block b % wave of the first
 *   wave did.
 * - Local memory: each resident warp slot of an SM has its own window,
 *   reused by the blocks that take that slot later (so a later block's
 *   local data can hit in L1 and L2 on the earlier one's lines).
 * - Interleaving: the warps of a group take turns, one request each, as
 *   warps sharing an SM issue in turn; the L2 stage takes a wave's groups
 *   (one an SM) together, a line's operations from each in turn
 *   (L2Wave), as the SMs reach the L2 at once: what one SM's data leaves
 *   of the L2 depends on every SM's (groundtruth/l2cap_kernels.cu).
 *   Requests are ordered, not timed.
 * - A group is all the blocks an SM holds at once (replay_l1_blocks):
 *   the emulator runs them in a row
 *   (emu_run_set), or, for kernels whose blocks may wait for each other
 *   and so run in launch order, a ReplayHold keeps their traces until the
 *   SM's last block of the wave is in (PolyBench mm2_tmp: one block at a
 *   time missed 7.24x the H200's L1 sectors, interleaved 1.02x).
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
#include "mem/replay_clock.h"
#include "util/diag.h"
#include "util/spill.h"

/* ---- recording ------------------------------------------------------------ */

void trace_reserve(MemTrace *t, size_t n) {
  void *p = t->r;
  wm_spill_reserve(&p, &t->cap, t->n, n, sizeof *t->r, &t->file);
  t->r = p;
}

void trace_push(MemTrace *t, uint64_t sector, uint32_t bytes, unsigned warp, unsigned kind,
                int first) {
  *trace_append(t, 1) = (TraceRec){.sector = sector, .bytes = bytes, .warp = (uint8_t)warp, .ops = 1, .kind = (uint8_t)kind, .first = (uint8_t)first};
}

TraceRec *trace_append(MemTrace *t, size_t n) {
  if (t->cap - t->n < n) trace_reserve(t, t->n + n);
  t->n += n;
  return t->r + t->n - n;
}

void trace_free(MemTrace *t) {
  wm_spill_free(t->r, t->cap, sizeof *t->r, t->file);
  memset(t, 0, sizeof *t);
}

/* ---- where a block runs ------------------------------------------------- */

/* The SM block b runs on, and its slot among the SM's resident blocks:
 * waves of sms * blocks_per_sm blocks, dealt as the GPU deals them
 * (place.h), or else `group` at a time to SM 0, 1, ... in turn. */
static void place(const CacheSys *c, uint64_t b, uint64_t *sm, uint64_t *slot) {
  const CacheConfig *k = &c->cfg;
  uint64_t g = (uint64_t)k->group, sms = (uint64_t)k->sms;
  uint64_t p = b % (sms * (uint64_t)k->blocks_per_sm);
  if (c->place.sm) {
    *sm = c->place.sm[p];
    *slot = c->place.slot[p];
    return;
  }
  *sm = p / g % sms;
  *slot = p / (g * sms) * g + p % g;
}

uint64_t replay_wave_block(const CacheSys *c, int sm, int slot) {
  uint64_t q = (uint64_t)slot * (uint64_t)c->cfg.sms + (uint64_t)sm;
  return c->place.at ? c->place.at[q] : q;
}

/* Where local memory of (block, warp) lives: each resident warp slot of an
 * SM has its own window, reused by the blocks that follow on that slot. */
static uint64_t local_base(const CacheSys *c, uint64_t block, unsigned warp) {
  const CacheConfig *k = &c->cfg;
  uint64_t sm, slot;
  place(c, block, &sm, &slot);
  uint64_t hw_warp = (sm * (uint64_t)k->blocks_per_sm + slot) * (uint64_t)k->warps_per_block + warp;
  uint64_t window = ((uint64_t)k->local_bytes * 32 + 127) / 128 * 128;
  return 0x100000000000ull + hw_warp * window; /* far from global buffers */
}

int replay_group(const CacheSys *c) { return c->cfg.group; }

/* ---- a group's stores, for the read-after-write waits ------------------ */

/* The sectors some warp of the replayed group stores, in an open-addressing
 * table: the sector, and the warp that stores it (block * 65536 + warp), or
 * MANY when several do. */
typedef struct GroupStore {
  uint64_t sector;  /* + 1; 0: empty */
  uint64_t warp;
} GroupStore;

#define MANY UINT64_MAX

static size_t store_slot(uint64_t sector, size_t mask) {
  return (size_t)((sector * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

static void stores_add(ReplayWorker *w, uint64_t sector, uint64_t warp) {
  size_t mask = w->stores_cap - 1, i = store_slot(sector, mask);
  while (w->stores[i].sector && w->stores[i].sector != sector + 1) i = (i + 1) & mask;
  GroupStore *g = &w->stores[i];
  if (!g->sector) *g = (GroupStore){sector + 1, warp};
  else if (g->warp != warp) g->warp = MANY;
}

/* Fills the table with the group's global store sectors (w->nstores of
 * them, counted by gather_streams). */
static void stores_collect(ReplayWorker *w, const uint64_t *blocks, const MemTrace *const *t, int nb) {
  size_t n = w->nstores;
  if (!n) return;
  size_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  if (w->stores_cap < cap) {
    free(w->stores);
    w->stores = wm_xmalloc(cap * sizeof *w->stores);
  }
  w->stores_cap = cap;
  memset(w->stores, 0, cap * sizeof *w->stores);
  for (int b = 0; b < nb; b++)
    for (size_t i = 0; i < t[b]->n; i++)
      if (t[b]->r[i].kind == TR_ST) stores_add(w, t[b]->r[i].sector, blocks[b] * 65536 + t[b]->r[i].warp);
}

/* 1 if a warp other than `warp` of the group stores `sector`: a load of it
 * then waits for that store to reach L2 (measured: inc_case#3, where each
 * block's warps read and write a[blockStart], takes 1.7x inc_case#1). */
static int stored_by_other(const ReplayWorker *w, uint64_t sector, uint64_t warp) {
  size_t mask = w->stores_cap - 1, i = store_slot(sector, mask);
  for (; w->stores[i].sector; i = (i + 1) & mask)
    if (w->stores[i].sector == sector + 1) return w->stores[i].warp != warp;
  return 0;
}

/* The crossbar tag of the reads of block (on SM sm, in slot `slot`;
 * xbar_tag): blocks of the first wave only, which start together. */
static uint32_t xbar_first_wave(const CacheSys *c, uint64_t block, uint64_t sm, uint64_t slot) {
  if (!c->xbar_of || block >= (uint64_t)c->cfg.sms * (uint64_t)c->cfg.blocks_per_sm) return 0;
  return xbar_tag(c->xbar_of[sm], slot);
}

/* ---- one request ---------------------------------------------------------- */

/* Replays one request through the L1: the records r[0..n) (one `first` at
 * r[0]) of a warp of `block` on SM sm (its crossbar tag `xbar`); `last` is
 * that warp's last store request. */
static void replay_request(CacheSys *c, ReplayWorker *w, int sm, uint64_t block, uint32_t xbar, const TraceRec *r,
                           size_t n, CacheLastStore *last, L2Ops *out, uint8_t *wait) {
  unsigned kind = r[0].kind;
  uint64_t local = kind == TR_LOCAL_LD || kind == TR_LOCAL_ST ? local_base(c, block, r[0].warp) / 32 : 0;
  if ((kind == TR_LD || kind == TR_LOCAL_LD) && w->nstores &&
      stored_by_other(w, r[0].sector + local, block * 65536 + r[0].warp))
    w->metric[WM_M_RAW]++;
  cache_request(c, sm, block, xbar, r, n, local, last, w->metric, out, wait);
}

/* ---- a group of co-resident blocks -------------------------------------- */

/* One warp's requests within a block's trace: the records of warp w, in
 * order, gathered into `sorted` by a counting sort. */
typedef struct Stream {
  const TraceRec *r;
  uint8_t *wait; /* [n] what each record waits for (ReplayWait) */
  size_t n, pos;
  uint64_t block;
  int sm;
  uint32_t xbar; /* xbar_first_wave */
  CacheLastStore last;
} Stream;

/* Sorts the group's records into one stream per warp, and counts them
 * (w->nrecs) and its global stores (w->nstores); returns the number of
 * streams (blocks * the most warps a block traced). */
static size_t gather_streams(CacheSys *c, ReplayWorker *w, const uint64_t *blocks, const MemTrace *const *t, int nb) {
  size_t total = 0, stores = 0;
  int maxw = 0;
  for (int b = 0; b < nb; b++) {
    total += t[b]->n;
    for (size_t i = 0; i < t[b]->n; i++) {
      if (t[b]->r[i].warp >= maxw) maxw = t[b]->r[i].warp + 1;
      stores += t[b]->r[i].kind == TR_ST;
    }
  }
  w->nstores = stores; /* for stores_collect */
  w->nrecs = total;
  if (!total) return 0;
  trace_reserve(&w->sorted, total); /* as large as the group's traces: spilled as they are */
  if (w->wait_cap < total) {
    free(w->wait);
    w->wait_cap = total + total / 4;
    w->wait = wm_xmalloc(w->wait_cap);
  }
  size_t nstreams = (size_t)nb * (size_t)maxw;
  if (w->streams_cap < nstreams) {
    w->streams_cap = nstreams;
    free(w->streams);
    w->streams = wm_xmalloc(nstreams * sizeof *w->streams);
  }
  Stream *st = w->streams;
  for (size_t i = 0; i < nstreams; i++) { /* not memset: `last` holds 32 sectors nobody reads until set */
    st[i].n = st[i].pos = 0;
    st[i].last.n = 0, st[i].last.round_missed = 1, st[i].last.round = 0; /* no round yet */
    st[i].last.round_last = 0, st[i].last.step = 0; /* in step, as launched */
  }
  size_t at = 0;
  for (int b = 0; b < nb; b++) {
    uint64_t sm, slot;
    uint64_t id = blocks[b];
    place(c, id, &sm, &slot);
    uint32_t xbar = xbar_first_wave(c, id, sm, slot);
    Stream *bs = &st[(size_t)b * (size_t)maxw];
    if (maxw == 1) { /* one warp: its records are its stream */
      bs->r = t[b]->r;
      bs->wait = w->wait + at;
      at += t[b]->n;
      bs->n = t[b]->n;
      bs->block = id;
      bs->sm = (int)sm;
      bs->xbar = xbar;
      continue;
    }
    for (size_t i = 0; i < t[b]->n; i++) bs[t[b]->r[i].warp].n++;
    for (int x = 0; x < maxw; x++) {
      bs[x].r = w->sorted.r + at;
      bs[x].wait = w->wait + at;
      bs[x].block = id;
      bs[x].sm = (int)sm;
      bs[x].xbar = xbar;
      at += bs[x].n;
      bs[x].n = 0;
    }
    for (size_t i = 0; i < t[b]->n; i++) {
      Stream *x = &bs[t[b]->r[i].warp];
      ((TraceRec *)x->r)[x->n++] = t[b]->r[i];
    }
  }
  return nstreams;
}

/* Ends a group's operations in out (replay_l1). */
static void end_group(L2Ops *out) {
  if (out->nend == out->end_cap) {
    out->end_cap = out->end_cap ? 2 * out->end_cap : 64;
    out->end = wm_xrealloc(out->end, out->end_cap * sizeof *out->end);
  }
  out->end[out->nend++] = out->n;
}

/* Each block's duration on the replay's clock, added to the clock of the
 * SM slot it took (replay_clock.c): a block that ends early frees its slot
 * for the next, as the GPU's block scheduler does. */
static void clock_group(CacheSys *c, ReplayWorker *w, const uint64_t *blocks, int nb, size_t nstreams) {
  if (!c->slot_clock) return;
  ClockWarp *cw = replay_clock_warps(&w->clock, nstreams);
  size_t per = nstreams / (size_t)nb;
  for (size_t s = 0; s < nstreams; s++) {
    const Stream *x = &w->streams[s];
    cw[s] = (ClockWarp){x->r, x->wait, x->n, (uint32_t)(s / per)};
  }
  replay_clock_group(c, &w->clock, cw, nstreams, (uint32_t)nb);
  for (int b = 0; b < nb; b++) {
    uint64_t sm, slot;
    place(c, blocks[b], &sm, &slot);
    __atomic_fetch_add(&c->slot_clock[sm * (uint64_t)c->cfg.blocks_per_sm + slot],
                       replay_clock_block(w->clock, (uint32_t)b), __ATOMIC_RELAXED);
  }
}

/* A group's requests through its SM's L1 (replay_l1, which then ends the
 * group). */
static void replay_streams(CacheSys *c, ReplayWorker *w, const uint64_t *blocks, const MemTrace *const *t, int nb,
                           L2Ops *out) {
  w->blocks += (uint64_t)nb;
  size_t nstreams = gather_streams(c, w, blocks, t, nb);
  if (!nstreams) return;
  stores_collect(w, blocks, t, nb);
  Stream *st = w->streams;
  if (w->nrecs >= 1024) cache_warm_l1(c, st[0].sm); /* many requests: most of its sets */
  for (size_t s = 0; s < nstreams; s++) /* the first L1 sets all warps need, asked for at once */
    if (st[s].n && st[s].r[0].kind != TR_LOCAL_LD && st[s].r[0].kind != TR_LOCAL_ST)
      cache_prefetch_l1(c, st[s].sm, st[s].r[0].sector);
  /* round-robin over the warps of the co-resident blocks, a request each:
   * they share the SM's L1 at the same time */
  for (size_t left = nstreams;;) {
    left = 0;
    for (size_t s = 0; s < nstreams; s++) {
      Stream *x = &st[s];
      if (x->pos >= x->n) continue;
      size_t e = x->pos + 1;
      while (e < x->n && !x->r[e].first) e++;
      replay_request(c, w, x->sm, x->block, x->xbar, x->r + x->pos, e - x->pos, &x->last, out, x->wait + x->pos);
      x->pos = e;
      left++;
    }
    if (!left) break;
  }
  clock_group(c, w, blocks, nb, nstreams);
}

void replay_l1_blocks(CacheSys *c, ReplayWorker *w, const uint64_t *blocks, const MemTrace *const *t, int nb,
                      L2Ops *out) {
  replay_streams(c, w, blocks, t, nb, out);
  end_group(out);
}

void replay_l1(CacheSys *c, ReplayWorker *w, uint64_t first, const MemTrace *const *t, int nb, L2Ops *out) {
  uint64_t own[64] = {0}, *blocks = nb <= 64 ? own : wm_xmalloc((size_t)nb * sizeof *blocks);
  for (int b = 0; b < nb; b++) blocks[b] = first + (uint64_t)b;
  replay_l1_blocks(c, w, blocks, t, nb, out);
  if (blocks != own) free(blocks);
}

/* ---- an SM's co-resident blocks ------------------------------------------- */

#define HOLD_MAX 64 /* most blocks an SM holds (the presets' limit is 32) */

int replay_coresident(const CacheSys *c, uint64_t grid_blocks) {
  const CacheConfig *k = &c->cfg;
  if (k->group != 1 || k->blocks_per_sm < 2 || k->blocks_per_sm > HOLD_MAX || grid_blocks <= (uint64_t)k->sms)
    return 0;
  return k->blocks_per_sm;
}

int replay_hold_init(ReplayHold *h, const CacheSys *c, uint64_t grid_blocks, size_t budget) {
  memset(h, 0, sizeof *h);
  h->bps = replay_coresident(c, grid_blocks);
  if (!h->bps) return 0;
  h->sms = c->cfg.sms;
  h->grid_blocks = grid_blocks;
  h->budget = budget;
  h->slot = wm_xcalloc((size_t)h->sms * (size_t)h->bps, sizeof *h->slot);
  h->first = wm_xcalloc((size_t)h->sms, sizeof *h->first);
  h->n = wm_xcalloc((size_t)h->sms, sizeof *h->n);
  return 1;
}

/* Replays SM sm's held blocks. */
static void hold_replay(CacheSys *c, ReplayHold *h, ReplayWorker *w, int sm, L2Ops *out) {
  HoldSlot *row = h->slot + (size_t)sm * (size_t)h->bps;
  MemTrace view[HOLD_MAX];
  const MemTrace *x[HOLD_MAX] = {0};
  uint64_t blocks[HOLD_MAX] = {0};
  uint32_t f = h->first[sm], n = h->n[sm];
  for (uint32_t i = 0; i < n; i++) {
    HoldSlot *s = &row[f + i];
    view[i] = (MemTrace){s->in_store ? h->store.r + s->off : s->own.r, s->n, 0, 0};
    x[i] = &view[i];
    blocks[i] = s->block;
  }
  replay_l1_blocks(c, w, blocks, x, (int)n, out);
  for (uint32_t i = 0; i < n; i++) {
    HoldSlot *s = &row[f + i];
    if (!s->in_store) h->bytes -= s->n * sizeof(TraceRec);
    s->own.n = s->n = 0;
    s->in_store = 0;
  }
  h->first[sm] = f + n;
  h->n[sm] = 0;
  h->held -= n;
  if (!h->held) h->store.n = 0; /* a wave replayed whole */
}

/* SM sm's blocks in a wave of in_wave blocks (the last may be short). */
static uint64_t blocks_in_wave(const CacheSys *c, uint64_t sm, uint64_t in_wave) {
  uint64_t sms = (uint64_t)c->cfg.sms, n = 0;
  if (!c->place.at) return (in_wave - sm + sms - 1) / sms;
  while (n < (uint64_t)c->cfg.blocks_per_sm && c->place.at[n * sms + sm] < in_wave) n++; /* dealt in slot order */
  return n;
}

void replay_hold_put(CacheSys *c, ReplayHold *h, ReplayWorker *w, uint64_t block, MemTrace *t, L2Ops *out) {
  uint64_t wave = (uint64_t)h->sms * (uint64_t)h->bps, w0 = block / wave * wave, sm, slot;
  place(c, block, &sm, &slot);
  uint64_t in_wave = h->grid_blocks - w0 < wave ? h->grid_blocks - w0 : wave;
  uint64_t count = blocks_in_wave(c, sm, in_wave);
  if (slot == 0) h->first[sm] = 0;
  HoldSlot *s = &h->slot[sm * (uint64_t)h->bps + slot];
  s->n = t->n;
  s->block = block;
  if (h->bytes + t->n * sizeof(TraceRec) <= h->budget) { /* in memory: the buffers change hands */
    MemTrace spare = s->own;
    s->own = *t;
    *t = spare;
    h->bytes += s->n * sizeof(TraceRec);
  } else { /* copied to the store */
    s->off = h->store.n;
    s->in_store = 1;
    if (t->n) memcpy(trace_append(&h->store, t->n), t->r, t->n * sizeof(TraceRec));
  }
  t->n = 0;
  h->n[sm]++;
  h->held++;
  if (slot + 1 == count) hold_replay(c, h, w, (int)sm, out);
}

void replay_hold_free(ReplayHold *h) {
  for (int i = 0; h->slot && i < h->sms * h->bps; i++) trace_free(&h->slot[i].own);
  trace_free(&h->store);
  free(h->slot);
  free(h->first);
  free(h->n);
  memset(h, 0, sizeof *h);
}

int replay_sm(const CacheSys *c, uint64_t block) { return replay_slot(c, block, NULL); }

int replay_slot(const CacheSys *c, uint64_t block, int *slot) {
  uint64_t sm, k;
  place(c, block, &sm, &k);
  if (slot) *slot = (int)k;
  return (int)sm;
}

void replay_worker_add(CacheSys *c, ReplayWorker *w) {
  for (int i = 0; i < WM_M_COUNT; i++) c->metric[i] += w->metric[i];
  memset(w->metric, 0, sizeof w->metric);
  c->blocks += w->blocks;
  w->blocks = 0;
}

void replay_worker_free(ReplayWorker *w) {
  trace_free(&w->sorted);
  free(w->wait);
  replay_clock_free(w->clock);
  free(w->streams);
  free(w->stores);
  memset(w, 0, sizeof *w);
}

void l2ops_free(L2Ops *o) {
  wm_spill_free(o->op, o->cap, sizeof *o->op, o->file);
  free(o->end);
  memset(o, 0, sizeof *o);
}

/* ---- concurrent SMs at the L2 ---------------------------------------------- */

static void ops_append(L2Ops *o, const L2Op *op, size_t n) {
  if (!n) return; /* o->op may be NULL yet */
  if (o->cap - o->n < n) l2ops_reserve(o, o->n + n);
  memcpy(o->op + o->n, op, n * sizeof *op);
  o->n += n;
}

/* The first k groups of `held`, interleaved a line at a time, to the L2;
 * the rest moved to the front. */
static void wave_replay(CacheSys *c, L2Wave *w, size_t k) {
  L2Ops *h = &w->held, *m = &w->mixed;
  size_t pos[512], *at = k <= 512 ? pos : wm_xmalloc(k * sizeof *at);
  for (size_t g = 0; g < k; g++) at[g] = g ? h->end[g - 1] : 0;
  size_t done = h->end[k - 1];
  m->n = 0;
  if (done) { /* groups without operations leave the buffers as they are (maybe NULL) */
    if (m->cap < done) l2ops_reserve(m, done); /* room for all of them: copied op by op below */
    L2Op *out = m->op;
    const L2Op *op = h->op;
    for (size_t left = k; left;) {
      left = 0;
      for (size_t g = 0; g < k; g++) {
        size_t i = at[g], e = h->end[g];
        if (i >= e) continue;
        uint64_t ln = op[i].sector >> 2;
        uint32_t kind = op[i].kind;
        do *out++ = op[i++];
        while (i < e && op[i].sector >> 2 == ln && op[i].kind == kind);
        at[g] = i;
        left++;
      }
    }
    m->n = (size_t)(out - m->op);
    cache_l2(c, m->op, m->n);
    if (h->n > done) memmove(h->op, h->op + done, (h->n - done) * sizeof *h->op);
    h->n -= done;
  }
  if (at != pos) free(at);
  for (size_t g = k; g < h->nend; g++) h->end[g - k] = h->end[g] - done;
  h->nend -= k;
}

void l2wave_put(CacheSys *c, L2Wave *w, const L2Ops *o) {
  size_t base = w->held.n;
  ops_append(&w->held, o->op, o->n);
  for (size_t g = 0; g < o->nend; g++) {
    w->held.n = base + o->end[g];
    end_group(&w->held);
  }
  w->held.n = base + o->n;
  size_t sms = (size_t)(w->sms > 0 ? w->sms : 1);
  while (w->held.nend >= sms) wave_replay(c, w, sms);
}

void l2wave_flush(CacheSys *c, L2Wave *w) {
  if (w->held.nend) wave_replay(c, w, w->held.nend);
}

void l2wave_free(L2Wave *w) {
  l2ops_free(&w->held);
  l2ops_free(&w->mixed);
}

void replay_blocks(CacheSys *c, uint64_t first, const MemTrace *const *t, int nb) {
  ReplayWorker w = {0};
  L2Ops ops = {0};
  replay_l1(c, &w, first, t, nb, &ops);
  replay_worker_add(c, &w);
  cache_l2(c, ops.op, ops.n);
  replay_worker_free(&w);
  l2ops_free(&ops);
}
