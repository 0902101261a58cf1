/* sim_mpi.c - launches sharded over MPI ranks (sim_mpi.h; docs/mpi.md).
 *
 * Notes:
 *  - Every rank runs the same command on the same input: the same module,
 *    the same launches, the same buffers with the same (seeded) values.  For
 *    each launch the emulator runs only this rank's chunks of blocks
 *    (EmuShard, emu_shard.c) and calls back here for what is shared:
 *    - traces: every other rank sends each of its blocks' traces (TraceRec
 *      records, 16 bytes each, after a header record naming the block) to
 *      rank 0 in block order, then an end record; rank 0's ring replays
 *      them with its own in launch order through the only caches;
 *    - statistics: rank 0 adds each rank's counters and per-line statistics
 *      (mem_merge) and instruction counts, in rank order;
 *    - faults: the message of the lowest faulting block goes to every rank;
 *    - memory: after the launch each rank broadcasts the bytes its blocks
 *      changed (sim_diff.c); every rank applies all, in rank order, so
 *      that where blocks of two ranks raced (plain stores to the same
 *      bytes) every rank keeps the same, the last rank's.
 *  - A kernel whose blocks may communicate through global memory
 *    (emu_shard_unsafe) runs on rank 0 alone, which broadcasts what changed.
 *  - One MPI call at a time (MPI_THREAD_SERIALIZED): during the blocks,
 *    rank 0's feeder thread (emu_grid.c) and the other ranks' ring
 *    drainer make them; the main thread after.
 *  - Built without MPI (no WARPMEM_MPI), only the refusal is left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_mpi.h"

/* How many processes mpirun started: Open MPI says, PMIx only that there
 * are some (0: ask MPI), and 1 outside mpirun. */
static int launched_ranks(void) {
  const char *n = getenv("OMPI_COMM_WORLD_SIZE");
  if (n) return atoi(n) > 0 ? atoi(n) : 1;
  return getenv("PMIX_RANK") ? 0 : 1;
}

int sim_mpi_env_rank(void) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  if (!r) r = getenv("PMIX_RANK");
  if (!r || launched_ranks() == 1) return -1;
  return atoi(r);
}

#ifndef WARPMEM_MPI

int sim_mpi_start(WmErr *e) {
  if (launched_ranks() == 1) return 1;
  return wm_err(e, WM_EUSAGE, "this warpmem was built without MPI, so it cannot run under mpirun: install "
                "libopenmpi-dev (scripts/setup.sh does) and rebuild, or run it without mpirun");
}

int sim_mpi_stop(int status) { return status; }

#else

#include <mpi.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/sim_diff.h"
#include "util/sys.h"

enum { TAG_TRACE = 1, TAG_STATS = 2 };
#define TRACE_END 1u                  /* TraceRec.bytes of a header: the rank sends no more */
#define PEND_LIMIT (256ull << 20)     /* trace bytes a rank may have in flight before it waits */
#define PIECE (1ull << 30)            /* bytes per broadcast of a memory diff */
#define MAX_NOTICED 256

static struct {
  int started, rank, nproc, verbose;
  MPI_Datatype rec;                   /* one TraceRec */
  int err_fd;                         /* the real stderr of a rank > 0 */
  pthread_t tee;
  int teeing;
  const PtxKernel *noticed[MAX_NOTICED];
  int nnoticed;
} G;

/* ---- the ranks' stdout and stderr ---- */

/* Copies the lines written to this rank's stderr to the real one, each
 * after the rank's number. */
static void *tee_stderr(void *arg) {
  FILE *in = arg;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, in)) > 0) dprintf(G.err_fd, "[rank %d] %.*s", G.rank, (int)n, line);
  free(line);
  fclose(in);
  return NULL;
}

static void quiet_rank(void) {
  fflush(stdout);
  if (!freopen("/dev/null", "w", stdout)) return;
  int p[2];
  fflush(stderr);
  if (pipe(p)) return;
  G.err_fd = dup(2);
  FILE *in = fdopen(p[0], "r");
  if (G.err_fd < 0 || !in || dup2(p[1], 2) < 0 || pthread_create(&G.tee, NULL, tee_stderr, in)) {
    close(p[1]);
    return;
  }
  close(p[1]);
  G.teeing = 1;
}

static void unquiet_rank(void) {
  if (!G.teeing) return;
  fflush(stderr);
  dup2(G.err_fd, 2); /* closes the pipe's last write end: the tee sees its end */
  pthread_join(G.tee, NULL);
  close(G.err_fd);
  G.teeing = 0;
}

/* ---- waiting ---- */

/* Open MPI's blocking calls poll, a core each: a rank that waits for
 * another (rank 0's feeder for the next trace, a rank done with its blocks
 * for rank 0's replay) would take the cores its own workers, or another
 * rank on the same machine, need.  So waits test and sleep. */
static void nap(void) {
  struct timespec ts = {0, 100 * 1000};
  nanosleep(&ts, NULL);
}

static void wait_for(MPI_Request *r) {
  int done = 0;
  while (MPI_Test(r, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) nap();
}

/* ---- one launch ---- */

typedef struct Pending {
  MPI_Request req;
  TraceRec *buf;
  size_t bytes;
} Pending;

typedef struct Launch {
  EmuShard sh;
  int traced;                 /* the caches are on: traces go to rank 0 */
  uint8_t *ended;             /* rank 0: [nproc] that rank sent its end */
  Pending *pend;              /* the other ranks: traces in flight, oldest at head */
  size_t npend, head, cap, pend_bytes;
  uint64_t trace_bytes, stat_bytes;
} Launch;

/* Frees the sends that completed, oldest first; waits for them while more
 * than PEND_LIMIT bytes are in flight, or for all of them. */
static void reap(Launch *L, int all) {
  while (L->head < L->npend) {
    Pending *p = &L->pend[L->head];
    int done = 0;
    if (all || L->pend_bytes > PEND_LIMIT) {
      wait_for(&p->req);
      done = 1;
    } else {
      MPI_Test(&p->req, &done, MPI_STATUS_IGNORE);
    }
    if (!done) break;
    free(p->buf);
    L->pend_bytes -= p->bytes;
    L->head++;
  }
  if (L->head == L->npend) L->head = L->npend = 0;
}

static void deliver(void *ctx, uint64_t j, const MemTrace *t) {
  Launch *L = ctx;
  TraceRec *m = wm_xmalloc((t->n + 1) * sizeof *m);
  m[0] = (TraceRec){.sector = j};
  if (t->n) memcpy(m + 1, t->r, t->n * sizeof *m);
  if (L->npend == L->cap) {
    L->cap = L->cap ? L->cap * 2 : 64;
    L->pend = wm_xrealloc(L->pend, L->cap * sizeof *L->pend);
  }
  Pending *p = &L->pend[L->npend++];
  p->buf = m;
  p->bytes = (t->n + 1) * sizeof *m;
  L->pend_bytes += p->bytes;
  L->trace_bytes += p->bytes;
  MPI_Isend(m, (int)(t->n + 1), G.rec, 0, TAG_TRACE, MPI_COMM_WORLD, &p->req);
  reap(L, 0);
}

/* Rank 0: the next trace message of rank `from` into t (its records) and
 * *j (its block).  Returns 1 for the end record. */
static int recv_trace(Launch *L, int from, MemTrace *t, uint64_t *j) {
  MPI_Status st;
  int n = 0, ready = 0;
  while (MPI_Iprobe(from, TAG_TRACE, MPI_COMM_WORLD, &ready, &st) == MPI_SUCCESS && !ready) nap();
  MPI_Get_count(&st, G.rec, &n);
  if (n < 1) n = 1;
  trace_reserve(t, (size_t)n);
  MPI_Recv(t->r, n, G.rec, from, TAG_TRACE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  L->trace_bytes += (uint64_t)n * sizeof *t->r;
  TraceRec h = t->r[0];
  memmove(t->r, t->r + 1, (size_t)(n - 1) * sizeof *t->r);
  t->n = (size_t)(n - 1);
  *j = h.sector;
  return h.bytes == TRACE_END;
}

static int fetch(void *ctx, uint64_t j, MemTrace *t) {
  Launch *L = ctx;
  int from = emu_shard_owner(&L->sh, j);
  uint64_t got;
  if (L->ended[from]) return 1;
  if (recv_trace(L, from, t, &got)) {
    L->ended[from] = 1;
    t->n = 0;
    return 1;
  }
  if (got != j) {
    fprintf(stderr, "warpmem: mpi: rank %d sent the trace of block %llu where block %llu was due\n", from,
            (unsigned long long)got, (unsigned long long)j);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}

/* After the blocks: the other ranks end their traces; rank 0 takes what
 * it has not yet (after a fault) up to each one's end. */
static void end_traces(Launch *L) {
  if (G.rank) {
    reap(L, 1);
    TraceRec end = {.sector = UINT64_MAX, .bytes = TRACE_END};
    MPI_Send(&end, 1, G.rec, 0, TAG_TRACE, MPI_COMM_WORLD);
    return;
  }
  MemTrace t = {0};
  uint64_t j;
  for (int r = 1; r < G.nproc; r++)
    while (!L->ended[r]) L->ended[r] = (uint8_t)recv_trace(L, r, &t, &j);
  trace_free(&t);
}

/* Rank 0 adds the others' instruction counts and statistics to l's, in
 * rank order (mem_merge: ties of the worst request keep the lower rank's
 * explanation, as they keep the lower worker's). */
static void merge_stats(Launch *L, EmuLaunch *l) {
  size_t nline = l->mm ? (size_t)l->mm->nline : 0, head = (3 + WM_M_COUNT) * sizeof(uint64_t);
  size_t bytes = head + nline * sizeof(LineStat);
  uint64_t *buf = wm_xmalloc(bytes);
  if (G.rank) {
    buf[0] = l->warp_instrs;
    buf[1] = l->thread_instrs;
    buf[2] = l->warp_clocks;
    if (l->mm) memcpy(buf + 3, l->mm->metric, sizeof l->mm->metric);
    if (nline) memcpy((uint8_t *)buf + head, l->mm->line, nline * sizeof(LineStat));
    MPI_Send(buf, (int)bytes, MPI_BYTE, 0, TAG_STATS, MPI_COMM_WORLD);
  }
  for (int r = 1; G.rank == 0 && r < G.nproc; r++) {
    MPI_Recv(buf, (int)bytes, MPI_BYTE, r, TAG_STATS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    L->stat_bytes += bytes;
    l->warp_instrs += buf[0];
    l->thread_instrs += buf[1];
    l->warp_clocks += buf[2];
    if (!l->mm) continue;
    MemModel part;
    memset(&part, 0, sizeof part);
    memcpy(part.metric, buf + 3, sizeof part.metric);
    part.line = (LineStat *)((uint8_t *)buf + head);
    part.nline = (int)nline;
    mem_merge(l->mm, &part);
  }
  free(buf);
}

static int finish(void *ctx, EmuLaunch *l, uint64_t fault, WmErr *e) {
  Launch *L = ctx;
  if (L->traced) end_traces(L);
  MPI_Request all_here; /* the ranks done first wait for the others asleep, then exchange */
  MPI_Ibarrier(MPI_COMM_WORLD, &all_here);
  wait_for(&all_here);
  merge_stats(L, l);
  uint64_t low = UINT64_MAX;
  MPI_Allreduce(&fault, &low, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  if (low == UINT64_MAX) return 0;
  MPI_Bcast(e, (int)sizeof *e, MPI_BYTE, emu_shard_owner(&L->sh, emu_place_of(l, low)), MPI_COMM_WORLD);
  return -1;
}

/* Every rank's changes to every other rank, in rank order.  Returns the
 * bytes of changes (each sent to the nproc - 1 others). */
static uint64_t exchange_memory(GlobalMem *g, const SimSnap *snap) {
  size_t mine_len = 0;
  uint8_t *mine = snap ? sim_diff_build(g, snap, &mine_len) : NULL;
  uint64_t total = 0, missed = 0;
  for (int r = 0; r < G.nproc; r++) {
    uint64_t n = r == G.rank ? mine_len : 0;
    MPI_Bcast(&n, 1, MPI_UINT64_T, r, MPI_COMM_WORLD);
    total += n;
    if (!n) continue;
    uint8_t *d = r == G.rank ? mine : wm_xmalloc(n);
    for (uint64_t off = 0; off < n; off += PIECE)
      MPI_Bcast(d + off, (int)(n - off < PIECE ? n - off : PIECE), MPI_BYTE, r, MPI_COMM_WORLD);
    missed += sim_diff_apply(g, d, n); /* own too: where ranks raced, the last rank's bytes win on all */
    if (r != G.rank) free(d);
  }
  free(mine);
  if (missed)
    fprintf(stderr, "warpmem: mpi: %llu changes of other ranks fell outside every buffer of this one\n",
            (unsigned long long)missed);
  return total;
}

/* Once per kernel, on rank 0: why its launches are not sharded. */
static void notice(const PtxKernel *k, const char *why) {
  for (int i = 0; i < G.nnoticed; i++)
    if (G.noticed[i] == k) return;
  if (G.nnoticed < MAX_NOTICED) G.noticed[G.nnoticed++] = k;
  if (G.rank == 0)
    fprintf(stderr, "warpmem: kernel %s runs on rank 0 alone, not sharded over %d ranks: %s\n", k->name, G.nproc,
            why);
}

static int sharded_run(EmuLaunch *l, WmErr *e) {
  Launch L;
  memset(&L, 0, sizeof L);
  char why[256] = "";
  int unsafe = emu_shard_unsafe(l->kernel, l->cooperative, why, sizeof why);
  if (!unsafe && (l->cluster[0] || l->cluster[1] || l->cluster[2]))
    unsafe = 1, snprintf(why, sizeof why, "a cluster launch (a cluster's blocks run together)");
  if (unsafe) notice(l->kernel, why);
  L.sh = (EmuShard){.chunk = unsafe ? UINT64_MAX : emu_shard_chunk(l), .rank = G.rank, .nproc = G.nproc,
                    .ctx = &L, .fetch = fetch, .deliver = deliver, .finish = finish};
  L.traced = l->cache && l->mm;
  L.ended = wm_xcalloc((size_t)G.nproc, 1);
  SimSnap snap = {0};
  int changes = !unsafe || G.rank == 0; /* unsharded, only rank 0 runs blocks */
  double t0 = wm_now();
  if (changes) sim_snap_take(l->gmem, &snap);
  double t1 = wm_now();
  l->shard = &L.sh;
  l->warp_instrs = l->thread_instrs = l->warp_clocks = 0;
  int rc = emu_run(l, e);
  l->shard = NULL;
  double t2 = wm_now();
  uint64_t diff = exchange_memory(l->gmem, changes ? &snap : NULL);
  sim_snap_free(&snap);
  double t3 = wm_now();
  if (G.verbose && G.rank == 0)
    fprintf(stderr,
            "warpmem: mpi: %s: %d ranks, %s; block traces to rank 0 %llu bytes, statistics %llu bytes, "
            "changed memory %llu bytes (each rank's to the %d others); seconds: blocks %.3f, snapshot, "
            "diff and exchange %.3f\n",
            l->kernel->name, G.nproc, unsafe ? "on rank 0 alone" : "sharded", (unsigned long long)L.trace_bytes,
            (unsigned long long)L.stat_bytes, (unsigned long long)diff, G.nproc - 1, t2 - t1, (t1 - t0) + (t3 - t2));
  free(L.ended);
  free(L.pend);
  return rc;
}

/* ---- start and stop ---- */

int sim_mpi_start(WmErr *e) {
  if (launched_ranks() == 1) return 1;
  int provided = 0;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    return wm_err(e, WM_ETOOL, "MPI_Init_thread failed under mpirun");
  G.started = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &G.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &G.nproc);
  if (G.nproc < 2) return 1;
  if (provided < MPI_THREAD_SERIALIZED)
    return wm_err(e, WM_ETOOL, "this MPI library gives threads level %d, below MPI_THREAD_SERIALIZED", provided);
  MPI_Type_contiguous((int)sizeof(TraceRec), MPI_BYTE, &G.rec);
  MPI_Type_commit(&G.rec);
  const char *v = getenv("WARPMEM_MPI_VERBOSE");
  G.verbose = v && *v && strcmp(v, "0");
  if (G.rank) quiet_rank();
  sim_set_runner(sharded_run, G.rank, G.nproc);
  return G.nproc;
}

int sim_mpi_stop(int status) {
  if (!G.started) return status;
  int worst = status;
  fflush(stdout);
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (G.nproc > 1) MPI_Type_free(&G.rec);
  MPI_Finalize();
  sim_set_runner(NULL, 0, 1);
  unquiet_rank();
  G.started = 0;
  return worst;
}

#endif
