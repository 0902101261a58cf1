/* emu_grid.c - a launch: its blocks over host threads, and their cache
 * traces to the replay in launch order (emu.c runs one block).
 *
 * Notes:
 * - emu_run() is the launch: its checks, then a plain grid (below) or a
 *   cooperative one (every block resident, run on one thread).
 * - Blocks are independent, so they run on several host threads (workers),
 *   each with its own block state and statistics, summed at the end; no
 *   counter depends on the thread count.
 * - Work is handed out in chunks of consecutive blocks (in run order) from
 *   one counter, so a thread that draws cheap blocks takes more of them
 *   (two static halves left the second thread idle on uneven grids), and
 *   the threads meet once per chunk, not once per block (a launch of two
 *   million one-warp blocks spent a fifth of its time in futex calls).
 *   A chunk is a whole number of the replay's groups (blocks that share an
 *   SM, replay_group()).
 * - The traces of a chunk wait in a ring of EMU_RING chunks until every
 *   earlier chunk is in; whoever then finds the next chunk ready replays it
 *   through the caches (mem/replay.h), so the replay sees the blocks in
 *   launch order whatever thread ran them.
 * - Bounded memory: traces waiting in the ring may hold at most
 *   EmuLaunch.trace_budget bytes (beyond one chunk per thread in progress);
 *   a worker whose finished chunk would exceed it waits for the replay to
 *   catch up before it takes more work.
 * - A block that faults stops the replay (ring_abort); blocks before it
 *   still run, untraced, so that the lowest faulting block is the one
 *   reported, as one thread would report it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_check.h"
#include "emu/emu_exec.h"
#include "util/spill.h"

/* Sampling: the j-th block in sampled order is sampled(l, j); with
 * sample_every k > 1 only every k-th wave of sample_wave blocks runs. */
static uint64_t sampled(const EmuLaunch *l, uint64_t j) {
  if (l->sample_every <= 1 || !l->sample_wave) return j;
  return j / l->sample_wave * l->sample_wave * l->sample_every + j % l->sample_wave;
}

static uint64_t blocks_to_run(const EmuLaunch *l, uint64_t nblocks) {
  if (l->sample_every <= 1 || !l->sample_wave) return nblocks;
  uint64_t span = l->sample_wave * l->sample_every, full = nblocks / span, rest = nblocks % span;
  return full * l->sample_wave + (rest < l->sample_wave ? rest : l->sample_wave);
}

static uint64_t launch_blocks(const EmuLaunch *l) { return (uint64_t)l->grid[0] * l->grid[1] * l->grid[2]; }

/* The block that runs j-th.  With run_set r, each wave of sms * r blocks
 * runs SM by SM: place j of a wave is SM j / r's block j % r (replay.c's
 * placement, replay_wave_block).  A wave short of blocks leaves places
 * past the grid (block_of >= launch_blocks): they run nothing. */
static uint64_t block_of(const EmuLaunch *l, uint64_t j) {
  if (l->cluster[0]) return emu_cluster_block(l, sampled(l, j)); /* a cluster's blocks in a row */
  if (!l->run_set) return sampled(l, j);
  uint64_t r = l->run_set, sms = (uint64_t)l->cache->cfg.sms, wave = sms * r, p = j % wave;
  return sampled(l, j - p) + replay_wave_block(l->cache, (int)(p / r), (int)(p % r));
}

uint64_t emu_place_of(const EmuLaunch *l, uint64_t block) {
  uint64_t j = l->cluster[0] ? emu_cluster_place(l, block) : block;
  if (l->sample_every > 1 && l->sample_wave) {
    uint64_t span = l->sample_wave * l->sample_every;
    j = block / span * l->sample_wave + block % span;
  }
  if (!l->run_set) return j;
  uint64_t r = l->run_set, wave = (uint64_t)l->cache->cfg.sms * r;
  int slot, sm = replay_slot(l->cache, block, &slot);
  return j - j % wave + (uint64_t)sm * r + (uint64_t)slot;
}

/* The replay's group: an SM's blocks of a wave (emu_run_set), else
 * replay_group's, or 1 beyond EMU_GROUP_MAX. */
static int emu_replay_group(const EmuLaunch *l) {
  if (l->run_set) return (int)l->run_set;
  int group = replay_group(l->cache);
  return group < 1 || group > EMU_GROUP_MAX ? 1 : group;
}

/* ---- the ring of chunks waiting for the replay ---------------------------- */

#define EMU_RING 16       /* chunks */

typedef struct Chunk {
  MemTrace t[EMU_CHUNK_MAX]; /* one per block (emptied once the L1 stage ran) */
  int n;                     /* blocks */
  size_t bytes;              /* chunk_bytes() when it reached the ring */
  L2Ops ops;                 /* the L1 stage's output, in launch order */
} Chunk;

typedef struct Ring {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  Chunk slot[EMU_RING];
  uint8_t ready[EMU_RING];
  uint64_t head;   /* next chunk to replay */
  uint64_t nblocks;
  size_t bytes;    /* trace bytes of the ready chunks */
  size_t budget;   /* most bytes ready chunks may hold */
  uint64_t chunk;  /* blocks per chunk */
  int group;       /* blocks replayed together (emu_replay_group) */
  const EmuLaunch *l;
  int draining, abort;
  int warned;      /* note_big_group said so */
  CacheSys *cache;
  ReplayWorker rw; /* the drainer's L1 stage, when the workers cannot run it */
  /* A launch sharded over processes (EmuShard): rank 0's ring takes the
   * others' traces too, in launch order (feed_ring); theirs hands its own
   * blocks' traces to rank 0 (deliver), not to caches.  Ring slots are
   * chunks of the run order on rank 0, the process's own chunks elsewhere. */
  const EmuShard *sh;
  int out;
  /* The L1 stage in the workers: group G (in run order) runs on SM
   * G % sms, after group G - sms; sm_next[s] is the group SM s waits for. */
  int parallel_l1;
  int sms;
  uint64_t *sm_next;
  pthread_mutex_t sm_mu;
  pthread_cond_t sm_cv;
  /* An SM's co-resident blocks replayed together (the drainer's L1 stage):
   * hold.slot is NULL when the launch needs no holding. */
  ReplayHold hold;
  L2Wave wave;     /* the L2 stage: the SMs' groups gathered, a wave at a time */
} Ring;

static size_t chunk_bytes(const Chunk *c) {
  size_t n = c->ops.n * sizeof(L2Op);
  for (int i = 0; i < c->n; i++) n += c->t[i].n * sizeof(TraceRec);
  return n;
}

/* The L1 stage of the group of n blocks starting at run-order block j0,
 * traces t[0..n), appending to out; `wait` makes it wait for its SM's turn
 * (-1 if the run was aborted meanwhile).  The traces are emptied. */
static int group_l1(Ring *g, ReplayWorker *rw, uint64_t j0, MemTrace *t, int n, L2Ops *out, int wait) {
  uint64_t G = j0 / (uint64_t)g->group;
  int sm = (int)(G % (uint64_t)g->sms);
  if (wait && __atomic_load_n(&g->sm_next[sm], __ATOMIC_ACQUIRE) != G) {
    pthread_mutex_lock(&g->sm_mu);
    while (!__atomic_load_n(&g->abort, __ATOMIC_RELAXED) && __atomic_load_n(&g->sm_next[sm], __ATOMIC_ACQUIRE) != G)
      pthread_cond_wait(&g->sm_cv, &g->sm_mu);
    pthread_mutex_unlock(&g->sm_mu);
    if (__atomic_load_n(&g->abort, __ATOMIC_RELAXED)) return -1;
  }
  const MemTrace *x[EMU_GROUP_MAX];
  uint64_t blocks[EMU_GROUP_MAX];
  int real = 0; /* an SM's blocks of a short wave: places past the grid run nothing */
  for (int j = 0; j < n; j++) {
    uint64_t b = block_of(g->l, j0 + (uint64_t)j);
    if (b < launch_blocks(g->l)) blocks[real] = b, x[real++] = &t[j];
  }
  replay_l1_blocks(g->cache, rw, blocks, x, real, out);
  for (int j = 0; j < n; j++) t[j].n = 0;
  if (wait) {
    pthread_mutex_lock(&g->sm_mu);
    __atomic_store_n(&g->sm_next[sm], G + (uint64_t)g->sms, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&g->sm_cv);
    pthread_mutex_unlock(&g->sm_mu);
  }
  return 0;
}

/* The L1 stage of chunk k's blocks through the ring's hold: each SM's
 * blocks of a wave replayed together once its last one is in. */
static void hold_chunk(Ring *g, uint64_t k, Chunk *c) {
  for (int i = 0; i < c->n; i++)
    replay_hold_put(g->cache, &g->hold, &g->rw, block_of(g->l, k * g->chunk + (uint64_t)i), &c->t[i], &c->ops);
}

/* Replays chunk k (the ring's head) through the L2: its L1 stage first,
 * if the workers did not run it. */
static void replay_chunk(Ring *g, uint64_t k, Chunk *c) {
  if (g->out) { /* k is this process's k-th chunk */
    uint64_t j0 = (k * (uint64_t)g->sh->nproc + (uint64_t)g->sh->rank) * g->chunk;
    for (int i = 0; i < c->n; i++) g->sh->deliver(g->sh->ctx, j0 + (uint64_t)i, &c->t[i]);
    return;
  }
  if (g->hold.slot) hold_chunk(g, k, c);
  for (int i = 0; !g->hold.slot && !g->parallel_l1 && i < c->n; i += g->group)
    group_l1(g, &g->rw, k * g->chunk + (uint64_t)i, &c->t[i], c->n - i < g->group ? c->n - i : g->group, &c->ops, 0);
  l2wave_put(g->cache, &g->wave, &c->ops);
}

/* Replays the chunks that are in order; the caller holds g->mu. */
static void ring_drain(Ring *g) {
  g->draining = 1;
  while (!g->abort && g->ready[g->head % EMU_RING]) {
    Chunk *c = &g->slot[g->head % EMU_RING];
    pthread_mutex_unlock(&g->mu);
    replay_chunk(g, g->head, c);
    pthread_mutex_lock(&g->mu);
    g->bytes -= c->bytes;
    for (int i = 0; i < c->n; i++) c->t[i].n = 0;
    l2ops_clear(&c->ops);
    g->ready[g->head % EMU_RING] = 0;
    g->head++;
    pthread_cond_broadcast(&g->cv);
  }
  g->draining = 0;
}

/* Hands chunk k's traces (emptied in exchange, keeping the slot's buffers
 * for reuse) to the ring, replays what is in order, and waits while the
 * ring holds more than its budget.  Returns -1 if the run was aborted. */
static int ring_put(Ring *g, uint64_t k, Chunk *c) {
  pthread_mutex_lock(&g->mu);
  while (!g->abort && k - g->head >= EMU_RING) pthread_cond_wait(&g->cv, &g->mu);
  if (g->abort) {
    pthread_mutex_unlock(&g->mu);
    return -1;
  }
  Chunk *s = &g->slot[k % EMU_RING];
  for (int i = 0; i < c->n; i++) {
    MemTrace spare = s->t[i];
    s->t[i] = c->t[i];
    c->t[i] = spare;
    c->t[i].n = 0;
  }
  L2Ops spare = s->ops;
  s->ops = c->ops;
  c->ops = spare;
  l2ops_clear(&c->ops);
  s->n = c->n;
  s->bytes = chunk_bytes(s);
  g->ready[k % EMU_RING] = 1;
  g->bytes += s->bytes;
  if (!g->draining) ring_drain(g);
  while (!g->abort && g->bytes > g->budget && g->head <= k) pthread_cond_wait(&g->cv, &g->mu);
  pthread_mutex_unlock(&g->mu);
  return 0;
}

static void ring_abort(Ring *g) {
  pthread_mutex_lock(&g->mu);
  __atomic_store_n(&g->abort, 1, __ATOMIC_RELAXED);
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
  pthread_mutex_lock(&g->sm_mu);
  pthread_cond_broadcast(&g->sm_cv);
  pthread_mutex_unlock(&g->sm_mu);
}

/* Whether group G always runs on SM G % sms, so that the workers can run
 * the L1 stage (each SM's groups in order): true of the placement
 * (replay.c) when sampled waves are whole waves of resident blocks;
 * checked on the first groups. */
static int sm_is_periodic(const Ring *g, uint64_t nblocks) {
  const CacheConfig *k = &g->cache->cfg;
  uint64_t wave = (uint64_t)k->sms * (uint64_t)k->blocks_per_sm;
  if (g->l->sample_every > 1 && g->l->sample_wave % wave) return 0;
  uint64_t groups = (nblocks + (uint64_t)g->group - 1) / (uint64_t)g->group;
  for (uint64_t G = 0; G < groups && G < 4 * (uint64_t)k->sms; G++)
    if (replay_sm(g->cache, block_of(g->l, G * (uint64_t)g->group)) != (int)(G % (uint64_t)k->sms)) return 0;
  return 1;
}

static Ring *ring_new(EmuLaunch *l, uint64_t chunk, uint64_t nblocks, int nw, size_t budget) {
  Ring *ring = wm_xcalloc(1, sizeof *ring);
  pthread_mutex_init(&ring->mu, NULL);
  pthread_cond_init(&ring->cv, NULL);
  pthread_mutex_init(&ring->sm_mu, NULL);
  pthread_cond_init(&ring->sm_cv, NULL);
  ring->cache = l->cache;
  ring->l = l;
  ring->chunk = chunk;
  ring->nblocks = nblocks;
  ring->group = emu_replay_group(l);
  ring->budget = budget;
  ring->sms = l->cache->cfg.sms;
  ring->wave.sms = ring->sms;
  ring->sh = l->shard && l->shard->chunk < nblocks ? l->shard : NULL;
  ring->out = ring->sh && ring->sh->rank;
  if (!ring->out && !l->run_set && emu_whole_waves(l)) replay_hold_init(&ring->hold, l->cache, launch_blocks(l), budget);
  ring->parallel_l1 = !ring->hold.slot && nw > 1 && !ring->sh && !l->cluster[0] && sm_is_periodic(ring, nblocks);
  ring->sm_next = wm_xmalloc((size_t)ring->sms * sizeof *ring->sm_next);
  for (int s = 0; s < ring->sms; s++) ring->sm_next[s] = (uint64_t)s;
  return ring;
}

static void ring_free(Ring *ring) {
  for (int i = 0; i < EMU_RING; i++) {
    for (int j = 0; j < EMU_CHUNK_MAX; j++) trace_free(&ring->slot[i].t[j]);
    l2ops_free(&ring->slot[i].ops);
  }
  replay_hold_free(&ring->hold);
  l2wave_free(&ring->wave);
  replay_worker_add(ring->cache, &ring->rw);
  replay_worker_free(&ring->rw);
  free(ring->sm_next);
  pthread_mutex_destroy(&ring->mu);
  pthread_cond_destroy(&ring->cv);
  pthread_mutex_destroy(&ring->sm_mu);
  pthread_cond_destroy(&ring->sm_cv);
  free(ring);
}

/* ---- workers ---------------------------------------------------------------- */

typedef struct Worker {
  Block b;                /* the block it runs (a cluster's rank 0) */
  EmuCluster cl;          /* a cluster launch: its blocks, b first (cl.n 0: none) */
  MemModel mm;
  Chunk chunk;            /* the traces of the chunk being run */
  ReplayWorker rw;        /* its L1 stages (Ring.parallel_l1) */
  Ring *ring;
  WmErr err;
  int id;
  uint64_t nblocks, chunk_blocks;
  uint64_t *next;         /* next chunk to hand out (shared) */
  const EmuShard *sh;     /* the launch is sharded: this process's chunks */
  uint64_t *stop_at;      /* the last place in the run order that must run (shared) */
  uint64_t *fault_id;     /* lowest faulting block so far (shared) */
  uint64_t fault_block;   /* this worker's lowest */
  pthread_t th;
  int started;
} Worker;

/* A positive whole number from the environment variable `name`, or `def`
 * when it is unset; -1 with a message when it is not one. */
static long env_count(const char *name, long def, long max, WmErr *e) {
  const char *v = getenv(name);
  if (!v || !*v) return def;
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno || *end || n < 1 || n > max)
    return wm_err(e, WM_EUSAGE, "%s=%s: expected a whole number from 1 to %ld", name, v, max), -1;
  return n;
}

/* The host threads and the trace budget, from WARPMEM_THREADS and
 * WARPMEM_TRACE_MB (checked: a typo must not pass for the default). */
static int grid_settings(int *threads, size_t *budget, WmErr *e) {
  long n = env_count("WARPMEM_THREADS", sysconf(_SC_NPROCESSORS_ONLN), 1L << 20, e);
  long mb = env_count("WARPMEM_TRACE_MB", (long)(EMU_TRACE_BUDGET >> 20), 1L << 30, e);
  if (n < 0 || mb < 0) return -1;
  *threads = n > EMU_MAX_THREADS ? EMU_MAX_THREADS : (int)n; /* env_count: n >= 1 */
  *budget = (size_t)mb << 20;
  return 0;
}

static void store_min(uint64_t *at, uint64_t v) {
  uint64_t cur = __atomic_load_n(at, __ATOMIC_RELAXED);
  while (v < cur && !__atomic_compare_exchange_n(at, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

/* emu_run_together (emu_exec.h): a pass runs each ready warp of each block once, blocks in
 * order, so a block that spins on a flag (the grid barrier's counter) or
 * waits at a barrier (barrier.cluster, a peer's mbarrier) lets the others
 * go on; one host thread runs them, so the order and the counters do not
 * depend on the thread count.  Block i's requests go to trace tr[i] (tr
 * NULL: none), under its index in the grid.  0, or -1 after a fault or a
 * deadlock. */
int emu_run_together(Block *const *bs, uint64_t n, MemModel *mm, MemTrace *tr) {
  uint64_t quiet = 0;
  for (;;) {
    EmuPass ps = {0};
    for (uint64_t i = 0; i < n; i++) {
      const Block *b = bs[i];
      if (tr) mm->trace = &tr[i];
      if (mm) mm->block = b->ctaid[0] + (uint64_t)b->l->grid[0] * (b->ctaid[1] + (uint64_t)b->l->grid[1] * b->ctaid[2]);
      if (emu_run_pass(bs[i], &ps)) return -1;
    }
    int go = emu_after_pass(&ps, &quiet);
    if (go > 0) continue;
    if (go == 0) return 0;
    if (ps.ran && emu_earlier_running(bs[0])) { /* a cluster's spin that an earlier one may end */
      quiet = 0;
      sched_yield();
      continue;
    }
    for (uint64_t i = 0; i < n; i++) /* the first block with a spinning warp, else a waiting one */
      for (uint32_t w = 0; w < bs[i]->nwarps; w++)
        if (bs[i]->warps[w].state == W_READY && bs[i]->warps[w].spin_stuck) return emu_stopped(bs[i], quiet, 1);
    for (uint64_t i = 0; i < n; i++)
      for (uint32_t w = 0; w < bs[i]->nwarps; w++)
        if (bs[i]->warps[w].state == W_WAIT) return emu_stopped(bs[i], quiet, 1);
    return -1;
  }
}

/* Runs block j (run order) on w; its trace goes to trace slot i of the
 * chunk.  Returns -1 if it faulted.  A block above the lowest that faulted
 * so far does not run (its fault would not be the one reported). */
static int run_one(Worker *w, uint64_t j, int i) {
  Block *b = &w->b;
  const EmuLaunch *l = b->l;
  uint64_t id = block_of(l, j);
  if (id >= launch_blocks(l) || id > __atomic_load_n(w->fault_id, __ATOMIC_RELAXED)) { /* past the grid (block_of) */
    w->chunk.t[i].n = 0;
    return 0;
  }
  b->ctaid[0] = (uint32_t)(id % l->grid[0]);
  b->ctaid[1] = (uint32_t)(id / l->grid[0] % l->grid[1]);
  b->ctaid[2] = (uint32_t)(id / ((uint64_t)l->grid[0] * l->grid[1]));
  if (b->shared_size) memset(b->shared, 0, b->shared_size);
  b->order = j;
  if (b->running) __atomic_store_n(&b->running[w->id], j, __ATOMIC_RELEASE);
  if (w->ring) w->mm.trace = &w->chunk.t[i];
  w->mm.block = id;
  b->failed = 0; /* SM by SM, blocks run after one faulted (run_chunk) */
  if (!emu_block_run(b)) return 0;
  if (w->ring) ring_abort(w->ring);
  w->fault_block = id; /* below this worker's earlier faults: those ran no block above them */
  store_min(w->fault_id, id);
  /* the blocks of lower number all run first: in launch order, those before
   * j; SM by SM (run_set), those of j's wave */
  uint64_t wave = l->run_set ? (uint64_t)l->cache->cfg.sms * l->run_set : 1;
  store_min(w->stop_at, (j / wave + 1) * wave - 1);
  return -1;
}

/* Runs the cluster whose blocks are places j .. j + n - 1 of the run order
 * on w, its blocks together (run_together), their traces into chunk slots
 * i .. i + n - 1.  Returns -1 if a block faulted; the cluster's first block
 * stands for it in the lowest-fault order (first blocks grow with the
 * cluster's place). */
static int run_cluster(Worker *w, uint64_t j, int i) {
  const EmuLaunch *l = w->b.l;
  uint32_t n = w->cl.n;
  uint64_t first = block_of(l, j);
  if (first >= launch_blocks(l) || first > __atomic_load_n(w->fault_id, __ATOMIC_RELAXED)) {
    for (uint32_t r = 0; r < n; r++) w->chunk.t[i + (int)r].n = 0;
    return 0;
  }
  if (w->b.running) __atomic_store_n(&w->b.running[w->id], j, __ATOMIC_RELEASE);
  w->cl.arrived = w->cl.phase = 0;
  for (uint32_t r = 0; r < n; r++) {
    Block *b = w->cl.blocks[r];
    uint64_t id = block_of(l, j + r);
    b->ctaid[0] = (uint32_t)(id % l->grid[0]);
    b->ctaid[1] = (uint32_t)(id / l->grid[0] % l->grid[1]);
    b->ctaid[2] = (uint32_t)(id / ((uint64_t)l->grid[0] * l->grid[1]));
    if (b->shared_size) memset(b->shared, 0, b->shared_size);
    b->order = j + r;
    b->crank = r;
    b->failed = 0;
    emu_block_start(b);
  }
  MemModel *mm = w->b.mm;
  if (!emu_run_together(w->cl.blocks, n, mm, w->ring ? &w->chunk.t[i] : NULL)) return 0;
  if (w->ring) ring_abort(w->ring);
  w->fault_block = first;
  store_min(w->fault_id, first);
  store_min(w->stop_at, j + n - 1);
  return -1;
}

/* Drops the trace: another block faulted and stopped the replay, and the
 * blocks before it still run (untraced) so that the lowest fault is the
 * one reported. */
static void stop_tracing(Worker *w) {
  w->ring = NULL;
  w->mm.trace = NULL;
}

/* The trace of one group must be held whole (its warps' requests are
 * interleaved): say so, once per launch, when one is larger than the
 * budget the rest of the replay keeps to (beyond WM_SPILL_BYTES a trace lives
 * in a temporary file, so it costs disk, not memory). */
static void note_big_group(Ring *g, uint64_t j0, const MemTrace *t, int n) {
  size_t bytes = 0;
  for (int i = 0; i < n; i++) bytes += t[i].n * sizeof(TraceRec);
  if (bytes <= g->budget || __atomic_exchange_n(&g->warned, 1, __ATOMIC_RELAXED)) return;
  fprintf(stderr,
          "warpmem: note: kernel %s, block %llu: its cache trace holds %zu MiB, over the replay's budget of %zu "
          "MiB (WARPMEM_TRACE_MB): a block's trace is kept whole until the caches replay it, in a temporary "
          "file in $TMPDIR beyond %zu MiB; --no-caches needs none\n",
          g->l->kernel->name, (unsigned long long)block_of(g->l, j0), bytes >> 20, g->budget >> 20,
          WM_SPILL_BYTES >> 20);
}

/* Runs the blocks of chunk k (n from run-order block j0) on w.  With the
 * L1 stage in the workers, each group's traces go through it as soon as
 * the group has run (so a worker holds one group's traces, hot in the host
 * cache); otherwise they wait in the chunk for the drainer.  Returns -1 if
 * a block faulted. */
static int run_chunk(Worker *w, uint64_t j0, uint64_t n) {
  if (w->cl.n) { /* a cluster launch: whole clusters (chunks hold whole ones; no L1 stage in the workers) */
    for (uint64_t i = 0; i < n; i += w->cl.n) {
      if (j0 + i > __atomic_load_n(w->stop_at, __ATOMIC_RELAXED)) return 0;
      if (run_cluster(w, j0 + i, (int)i)) return -1;
    }
    return 0;
  }
  Ring *g = w->ring;
  int par = g && g->parallel_l1;
  uint64_t group = g ? (uint64_t)g->group : 1;
  for (uint64_t i0 = 0; i0 < n; i0 += group) {
    uint64_t m = n - i0 < group ? n - i0 : group;
    for (uint64_t i = i0; i < i0 + m; i++) {
      if (j0 + i > __atomic_load_n(w->stop_at, __ATOMIC_RELAXED)) return 0;
      if (run_one(w, j0 + i, (int)(par ? i - i0 : i))) {
        if (!w->b.l->run_set || w->b.stopped) return -1;
        stop_tracing(w); /* SM by SM: lower blocks of the wave may follow */
        g = NULL, par = 0;
      }
    }
    if (g) note_big_group(g, j0 + i0, &w->chunk.t[par ? 0 : i0], (int)m);
    if (par && w->ring && group_l1(g, &w->rw, j0 + i0, w->chunk.t, (int)m, &w->chunk.ops, 1)) stop_tracing(w);
  }
  return 0;
}

static void *run_chunks(void *arg) {
  Worker *w = arg;
  const EmuShard *sh = w->sh;
  for (;;) {
    /* q: this process's next chunk; k: its place in the run order */
    uint64_t q = __atomic_fetch_add(w->next, 1, __ATOMIC_RELAXED);
    uint64_t k = sh ? q * (uint64_t)sh->nproc + (uint64_t)sh->rank : q, j0 = k * w->chunk_blocks;
    if (j0 >= w->nblocks || j0 > __atomic_load_n(w->stop_at, __ATOMIC_RELAXED)) break;
    uint64_t n = w->nblocks - j0 < w->chunk_blocks ? w->nblocks - j0 : w->chunk_blocks;
    if (run_chunk(w, j0, n)) break;
    w->chunk.n = w->ring && w->ring->parallel_l1 ? 0 : (int)n;
    if (w->ring && ring_put(w->ring, w->ring->out ? q : k, &w->chunk)) stop_tracing(w);
  }
  if (w->b.running) __atomic_store_n(&w->b.running[w->id], UINT64_MAX, __ATOMIC_RELEASE);
  return NULL;
}

/* Rank 0 of a sharded launch: the other processes' traces, fed to the
 * ring in launch order on a thread of their own. */
static void *feed_ring(void *arg) {
  Ring *g = arg;
  const EmuShard *sh = g->sh;
  Chunk *c = wm_xcalloc(1, sizeof *c);
  for (uint64_t k = 0; k * g->chunk < g->nblocks; k++) {
    if (k % (uint64_t)sh->nproc == 0) continue; /* rank 0's own */
    uint64_t j0 = k * g->chunk, n = g->nblocks - j0 < g->chunk ? g->nblocks - j0 : g->chunk;
    int stop = 0;
    for (uint64_t i = 0; i < n && !stop; i++) stop = sh->fetch(sh->ctx, j0 + i, &c->t[i]);
    c->n = (int)n;
    if (stop || ring_put(g, k, c)) {
      ring_abort(g); /* one stopped (a fault): rank 0's blocks run on untraced */
      break;
    }
  }
  for (int i = 0; i < EMU_CHUNK_MAX; i++) trace_free(&c->t[i]);
  l2ops_free(&c->ops);
  free(c);
  return NULL;
}

/* Runs the workers: worker 0 on this thread, the others on threads of
 * their own (or here, if one cannot start). */
static void run_workers(Worker *ws, int nw) {
  for (int t = 1; t < nw; t++)
    if (pthread_create(&ws[t].th, NULL, run_chunks, &ws[t])) {
      ws[t].started = -1;
      if (ws[t].b.running) ws[t].b.running[t] = UINT64_MAX; /* runs later: nobody may wait for it */
    } else {
      ws[t].started = 1;
    }
  run_chunks(&ws[0]);
  for (int t = 1; t < nw; t++) {
    if (ws[t].started == 1) pthread_join(ws[t].th, NULL);
    else run_chunks(&ws[t]); /* no thread: run what is left here */
  }
}

/* A cluster launch: w's cluster, w->b its rank 0 and further blocks set up
 * as it is, sharing its statistics, error and watchdog. */
static void worker_cluster(Worker *w, EmuWatch *watch, const Arch *arch, const EmuProgram *prog, uint32_t shared) {
  EmuLaunch *l = w->b.l;
  w->cl.n = emu_cluster_size(l);
  w->cl.blocks = wm_xcalloc(w->cl.n, sizeof *w->cl.blocks);
  w->cl.blocks[0] = &w->b;
  for (uint32_t r = 1; r < w->cl.n; r++) {
    Block *p = wm_xcalloc(1, sizeof *p);
    p->mm = w->b.mm;
    emu_block_setup(p, l, arch, prog, shared, &w->err);
    emu_watch_attach(watch, p);
    p->running = w->b.running;
    p->nrunning = w->b.nrunning;
    w->cl.blocks[r] = p;
  }
  for (uint32_t r = 0; r < w->cl.n; r++) w->cl.blocks[r]->cluster = &w->cl;
}

/* Sums the workers' instructions and statistics into the launch, and frees
 * them. */
static void workers_finish(EmuLaunch *l, Worker *ws, int nw) {
  l->warp_instrs = l->thread_instrs = l->warp_clocks = l->block_clocks = 0;
  for (int t = 0; t < nw; t++) {
    Worker *w = &ws[t];
    for (uint32_t r = 1; r < w->cl.n; r++) { /* a cluster's other blocks */
      Block *p = w->cl.blocks[r];
      l->warp_instrs += p->warp_instrs;
      l->warp_clocks += p->warp_clocks;
      l->block_clocks += p->block_clocks;
      l->thread_instrs += p->thread_instrs;
      emu_block_teardown(p);
      free(p);
    }
    free(w->cl.blocks);
    l->warp_instrs += w->b.warp_instrs;
    l->warp_clocks += w->b.warp_clocks;
    l->block_clocks += w->b.block_clocks;
    l->thread_instrs += w->b.thread_instrs;
    if (w->b.mm) mem_merge(l->mm, &w->mm);
    if (w->b.mm) mem_free(&w->mm);
    for (int i = 0; i < EMU_CHUNK_MAX; i++) trace_free(&w->chunk.t[i]);
    l2ops_free(&w->chunk.ops);
    if (l->cache) replay_worker_add(l->cache, &w->rw);
    replay_worker_free(&w->rw);
    emu_block_teardown(&w->b);
  }
}

/* Blocks per chunk: a whole number of replay groups, about 256 warps (so
 * that threads meet rarely), at most EMU_CHUNK_MAX blocks, and small
 * enough that each thread gets several chunks. */
static uint64_t chunk_size(const EmuLaunch *l, uint64_t nblocks, int nw, int group) {
  uint64_t cs = emu_cluster_size(l), unit = (uint64_t)group; /* whole clusters and groups: their lcm */
  while (unit % cs) unit += (uint64_t)group;
  uint64_t warps = ((uint64_t)l->block[0] * l->block[1] * l->block[2] + 31) / 32;
  uint64_t c = (256 + warps - 1) / warps;
  uint64_t fair = nblocks / (8 * (uint64_t)nw);
  if (c > fair) c = fair;
  if (c > EMU_CHUNK_MAX) c = EMU_CHUNK_MAX;
  c = c / unit * unit;
  return c ? c : unit;
}
/* A host thread's own model for the launch's: its configuration and the
 * loads that start rounds (marked once, on the launch's model), so that
 * its trace marks them for the cache. */
static int worker_model(MemModel *w, const MemModel *main, int ncode) {
  if (mem_init(w, &main->cfg, ncode)) return -1;
  size_t n = (size_t)(w->nline < main->nline ? w->nline : main->nline);
  if (w->round && main->round) memcpy(w->round, main->round, n);
  if (w->round_alt && main->round_alt) memcpy(w->round_alt, main->round_alt, n * sizeof *w->round_alt);
  if (w->after_st && main->after_st) memcpy(w->after_st, main->after_st, n);
  return 0;
}


/* Runs a plain launch's blocks over the host threads, their traces
 * replayed in launch order when l->cache is set: 0, or -1 for the lowest
 * block that faulted. */
static int emu_grid_run(EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared, WmErr *e) {
  const PtxKernel *k = l->kernel;
  int nw, rc = 0;
  size_t budget;
  uint64_t block_bytes;
  if (emu_check_budget(l, prog, shared, &block_bytes, e) || grid_settings(&nw, &budget, e)) return -1;
  nw = emu_budget_threads(nw, block_bytes * emu_cluster_size(l)); /* a worker holds a cluster */
  if (emu_heap_used(k) || l->check) nw = 1; /* allocation in block order (emu_heap.c); the check's shadow */
  uint64_t grid_blocks = launch_blocks(l);
  l->run_set = emu_run_set(l);
  l->blocks_run = blocks_to_run(l, grid_blocks);
  uint64_t nblocks = l->blocks_run; /* places in the run order (block_of) */
  if (l->run_set) {
    uint64_t wave = (uint64_t)l->cache->cfg.sms * l->run_set;
    nblocks = (nblocks + wave - 1) / wave * wave;
  }
  const EmuShard *sh = l->shard && l->shard->chunk < nblocks ? l->shard : NULL;
  uint64_t nrun = l->shard ? emu_shard_count(l->shard, nblocks) : nblocks; /* this process's */
  if ((uint64_t)nw > nrun) nw = (int)nrun;
  int group = l->cache ? emu_replay_group(l) : 1;
  uint64_t chunk = sh ? sh->chunk : chunk_size(l, nblocks, nw ? nw : 1, group), next = 0;
  Worker *ws = wm_xcalloc((size_t)(nw ? nw : 1), sizeof *ws);
  uint64_t running[EMU_MAX_THREADS];
  for (int t = 0; t < nw; t++) running[t] = 0; /* not started: may run anything */
  uint64_t stop_at = UINT64_MAX, fault_id = UINT64_MAX;
  EmuWatch watch;
  emu_watch_init(&watch, l);
  Ring *ring = l->cache && l->mm ? ring_new(l, chunk, nblocks, nw, budget) : NULL;
  for (int t = 0; t < nw; t++) {
    Worker *w = &ws[t];
    w->id = t;
    w->nblocks = nblocks;
    w->chunk_blocks = chunk;
    w->next = &next;
    w->sh = sh;
    w->stop_at = &stop_at;
    w->fault_id = &fault_id;
    w->fault_block = UINT64_MAX;
    if (l->mm && worker_model(&w->mm, l->mm, k->ncode) == 0) w->b.mm = &w->mm;
    if (ring && w->b.mm) w->ring = ring;
    emu_block_setup(&w->b, l, arch, prog, shared, &w->err);
    emu_watch_attach(&watch, &w->b);
    w->b.running = nw > 1 ? running : NULL;
    w->b.nrunning = nw;
    if (l->cluster[0]) worker_cluster(w, &watch, arch, prog, shared);
  }
  pthread_t feeder;
  int feed = ring && ring->sh && !ring->out, fed = feed && pthread_create(&feeder, NULL, feed_ring, ring) == 0;
  if (feed && !fed) ring_abort(ring); /* the workers run untraced; the launch fails */
  if (nw) run_workers(ws, nw);
  if (fed) pthread_join(feeder, NULL);
  if (ring && !ring->abort && !ring->out) l2wave_flush(ring->cache, &ring->wave); /* a short last wave */
  /* the fault of the lowest block wins: every lower block has run */
  uint64_t fault = UINT64_MAX;
  for (int t = 0; t < nw; t++)
    if (ws[t].fault_block < fault) fault = ws[t].fault_block, *e = ws[t].err;
  if (feed && !fed) {
    fault = 0;
    wm_err(e, WM_ELIMIT, "cannot start the thread that takes the other ranks' block traces");
  }
  Block *bp[EMU_MAX_THREADS * EMU_CLUSTER_MAX];
  size_t nbp = 0;
  for (int t = 0; t < nw; t++)
    for (uint32_t r = 0; r < (ws[t].cl.n ? ws[t].cl.n : 1); r++) bp[nbp++] = ws[t].cl.n ? ws[t].cl.blocks[r] : &ws[t].b;
  if (watch.stop) emu_watch_error(&watch, l, bp, nbp, e); /* over the others' faults */
  emu_printf_flush(l, bp, nbp, stop_at);
  workers_finish(l, ws, nw);
  rc = l->shard ? l->shard->finish(l->shard->ctx, l, fault, e) : fault == UINT64_MAX ? 0 : -1;
  if (l->mm) {
    l->mm->metric[WM_M_WARPS] += l->blocks_run * ((l->block[0] * l->block[1] * l->block[2] + 31) / 32);
    l->mm->metric[WM_M_INST] += l->warp_instrs;
    l->mm->metric[WM_M_DEP_CLOCKS] += l->warp_clocks;
    l->mm->metric[WM_M_BLOCK_CLOCKS] += l->block_clocks;
  }
  free(ws);
  if (ring) ring_free(ring);
  return rc;
}

/* --- cooperative launches: every block is resident, all run together
 * (run_together); each block keeps its own cache trace, replayed in launch
 * order as for a plain launch. --- */

/* A cooperative launch's traces (blocks 0 .. n-1, all resident) through the
 * caches: an SM's blocks together, the SMs together at the L2. */
static void replay_all(EmuLaunch *l, MemTrace *tr, uint64_t n) {
  ReplayWorker w = {0};
  L2Ops ops = {0};
  L2Wave wave = {.sms = l->cache->cfg.sms};
  ReplayHold hold;
  if (replay_hold_init(&hold, l->cache, n, SIZE_MAX)) {
    for (uint64_t i = 0; i < n; i++) replay_hold_put(l->cache, &hold, &w, i, &tr[i], &ops);
    replay_hold_free(&hold);
  } else {
    int group = emu_replay_group(l);
    for (uint64_t i = 0; i < n; i += (uint64_t)group) {
      const MemTrace *x[EMU_GROUP_MAX];
      int k = 0;
      for (; k < group && i + (uint64_t)k < n; k++) x[k] = &tr[i + (uint64_t)k];
      replay_l1(l->cache, &w, i, x, k, &ops);
    }
  }
  replay_worker_add(l->cache, &w);
  l2wave_put(l->cache, &wave, &ops);
  l2wave_flush(l->cache, &wave);
  l2wave_free(&wave);
  replay_worker_free(&w);
  l2ops_free(&ops);
}

/* Runs a cooperative launch on this thread: every block set up at once. */
static int run_cooperative(EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared, WmErr *e) {
  uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], block_bytes;
  if (emu_check_budget(l, prog, shared, &block_bytes, e)) return -1;
  if (block_bytes > EMU_BLOCKS_BYTES_MAX / n)
    return wm_err(e, WM_ELIMIT, "kernel %s: the %llu blocks of the cooperative launch, all resident, need %llu MiB "
                  "of host memory, over warpmem's budget of %llu MiB (docs/limits.md)", l->kernel->name,
                  (unsigned long long)n, (unsigned long long)(block_bytes * n >> 20),
                  (unsigned long long)(EMU_BLOCKS_BYTES_MAX >> 20));
  MemModel mm;
  int have_mm = l->mm && worker_model(&mm, l->mm, l->kernel->ncode) == 0;
  MemTrace *tr = have_mm && l->cache ? wm_xcalloc(n, sizeof *tr) : NULL;
  Block *bs = wm_xcalloc(n, sizeof *bs);
  EmuWatch watch;
  emu_watch_init(&watch, l);
  for (uint64_t i = 0; i < n; i++) {
    Block *b = &bs[i];
    b->mm = have_mm ? &mm : NULL;
    emu_block_setup(b, l, arch, prog, shared, e);
    emu_watch_attach(&watch, b);
    b->ctaid[0] = (uint32_t)(i % l->grid[0]);
    b->ctaid[1] = (uint32_t)(i / l->grid[0] % l->grid[1]);
    b->ctaid[2] = (uint32_t)(i / ((uint64_t)l->grid[0] * l->grid[1]));
    b->order = i;
    emu_block_start(b);
  }
  Block **bp = wm_xmalloc(n * sizeof *bp);
  for (uint64_t i = 0; i < n; i++) bp[i] = &bs[i];
  int rc = emu_run_together(bp, n, have_mm ? &mm : NULL, tr);
  for (uint64_t i = 0; watch.stop && i < n; i++) bs[i].stopped = 1; /* every block is in progress */
  if (watch.stop) emu_watch_error(&watch, l, bp, (size_t)n, e);
  emu_printf_flush(l, bp, (size_t)n, UINT64_MAX);
  free(bp);
  if (have_mm) mm.trace = NULL;
  if (rc == 0 && tr) replay_all(l, tr, n);
  l->blocks_run = n;
  l->warp_instrs = l->thread_instrs = l->warp_clocks = l->block_clocks = 0;
  for (uint64_t i = 0; i < n; i++) {
    l->warp_instrs += bs[i].warp_instrs;
    l->warp_clocks += bs[i].warp_clocks;
    l->block_clocks += bs[i].block_clocks;
    l->thread_instrs += bs[i].thread_instrs;
    emu_block_teardown(&bs[i]);
    if (tr) trace_free(&tr[i]);
  }
  if (have_mm) {
    mem_merge(l->mm, &mm);
    mem_free(&mm);
  }
  free(bs);
  free(tr);
  return rc;
}

/* The grid-sync workspace the driver gives a cooperative launch
 * (cooperative_groups/details/driver_abi.h: {wsSize, barrier}, the barrier
 * counting arrivals from zero), then the grid. */
static int cooperative_launch(EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared, WmErr *e) {
  int wi = gmem_alloc(l->gmem, 8, "grid-sync workspace of the cooperative launch", PTX_T_U32, 2, e);
  if (wi < 0) return -1;
  uint32_t ws[2] = {8, 0};
  memcpy(l->gmem->buf[wi].data, ws, sizeof ws);
  l->grid_ws = l->gmem->buf[wi].addr;
  int idle = l->shard && l->shard->rank; /* not sharded: rank 0 runs the grid */
  int rc = idle ? 0 : run_cooperative(l, arch, prog, shared, e);
  if (idle) l->blocks_run = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  if (l->shard) rc = l->shard->finish(l->shard->ctx, l, rc ? 0 : UINT64_MAX, e);
  WmErr ignored; /* the workspace is of this launch only: a long-lived GlobalMem must not collect them */
  if (gmem_release(l->gmem, l->grid_ws, &ignored) == 0) l->gmem->nfreed--; /* nor remember them */
  if (l->mm) {
    l->mm->metric[WM_M_WARPS] += l->blocks_run * ((l->block[0] * l->block[1] * l->block[2] + 31) / 32);
    l->mm->metric[WM_M_INST] += l->warp_instrs;
    l->mm->metric[WM_M_DEP_CLOCKS] += l->warp_clocks;
    l->mm->metric[WM_M_BLOCK_CLOCKS] += l->block_clocks;
  }
  return rc;
}

/* --- launch --- */

static int check_launch(const EmuLaunch *l, const Arch *a, const PtxKernel *k, uint32_t shared, WmErr *e) {
  const uint32_t *g = l->grid, *bl = l->block;
  ArchLimits lim = arch_limits(a);
  uint64_t threads = (uint64_t)bl[0] * bl[1] * bl[2];
  if (!g[0] || !g[1] || !g[2] || !bl[0] || !bl[1] || !bl[2])
    return wm_err(e, WM_ELIMIT, "kernel %s: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
                  k->name, g[0], g[1], g[2], bl[0], bl[1], bl[2]);
  if (threads > lim.block_threads || bl[0] > lim.block_xy || bl[1] > lim.block_xy || bl[2] > lim.block_z)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s: block (%u,%u,%u) has %llu threads; CUDA allows at most %u per block on %s "
                  "(x, y <= %u, z <= %u): the launch would fail with cudaErrorInvalidConfiguration",
                  k->name, bl[0], bl[1], bl[2], (unsigned long long)threads, lim.block_threads, a->name,
                  lim.block_xy, lim.block_z);
  if (g[1] > lim.grid_yz || g[2] > lim.grid_yz || g[0] > lim.grid_x)
    return wm_err(e, WM_ELIMIT, "kernel %s: grid (%u,%u,%u) exceeds CUDA's limits on %s (x <= %u, y, z <= %u)",
                  k->name, g[0], g[1], g[2], a->name, lim.grid_x, lim.grid_yz);
  for (int i = 0; i < 3; i++)
    if (k->reqntid[i] && k->reqntid[i] != bl[i])
      return wm_err(e, WM_ELIMIT, "kernel %s requires a block of (%u,%u,%u) threads (.reqntid), not (%u,%u,%u)",
                    k->name, k->reqntid[0], k->reqntid[1] ? k->reqntid[1] : 1, k->reqntid[2] ? k->reqntid[2] : 1,
                    bl[0], bl[1], bl[2]);
  if (shared > lim.smem_block)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s: %u bytes of shared memory per block (%u static + %u dynamic) exceed the "
                  "%u bytes a block can have on %s",
                  k->name, shared, k->shared_static, l->smem_dynamic, lim.smem_block, a->name);
  return 0; /* dynamic shared memory nobody uses is allowed, as CUDA allows it */
}

int emu_run(EmuLaunch *l, WmErr *e) {
  const PtxKernel *k = l->kernel;
  const PtxModule *m = l->mod;
  uint32_t align = k->shared_extern_align ? k->shared_extern_align : 1;
  uint32_t shared = l->smem_dynamic ? (k->shared_static + align - 1) / align * align + l->smem_dynamic
                                    : k->shared_static;
  const Arch *arch = l->arch ? l->arch : arch_default();
  l->run_set = 0; /* emu_grid_run's to set */
  l->clock_epoch = emu_clock_epoch();
  if (check_launch(l, arch, k, shared, e) || emu_cluster_resolve(l, arch, e)) return -1;

  uint64_t gbase;
  uint8_t *const_owned;
  if (emu_segments(l, &gbase, &const_owned, e)) return -1;
  EmuProgram prog;
  if ((emu_heap_used(k) && emu_heap_open(l->gmem, l->heap_size, e)) || emu_prepare(&prog, m, k, gbase, e)) {
    free(const_owned);
    if (const_owned) l->const_mem = NULL;
    return -1;
  }
  l->grid_ws = 0;
  if (l->check) emu_chk_prepare(l->check, &prog);
  if (l->mm && l->mm->round) {
    int inflight = emu_mark_rounds(&prog, l->mm->round, l->mm->round_alt, l->mm->nline);
    if (l->cache) cache_set_inflight(l->cache, inflight);
  }
  if (l->mm && l->mm->after_st) emu_mark_store_runs(&prog, l->mm->after_st, l->mm->nline);
  int rc = l->cooperative ? cooperative_launch(l, arch, &prog, shared, e) : emu_grid_run(l, arch, &prog, shared, e);
  emu_program_free(&prog);
  if (const_owned) {
    free(const_owned);
    l->const_mem = NULL;
  }
  return rc;
}
