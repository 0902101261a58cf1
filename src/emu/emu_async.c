/* emu_async.c - asynchronous copies (cp.async, cp.async.bulk) and the
 * mbarriers that order them.
 *
 * Notes:
 *  - A cp.async's bytes are read from global memory when it is issued and
 *    land in shared memory when it completes for its thread (its wait, or
 *    the mbarrier that tracks it); a bulk copy's land at issue.  What is
 *    modelled is when the copy *completes* for whom: a read of a
 *    destination byte before then is a race.  `warpmem check` reports it
 *    as an error, and so does a run for a bulk copy's bytes; for a
 *    cp.async's a run warns once a launch and goes on with the bytes from
 *    before the copy, as a GPU gives them when the read comes first
 *    (NVIDIA's globalToShmemAsyncCopy sample fills 5 stages of a 4-stage
 *    ring: its first read of stage 0 races with the copy of stage 4).  A copy's bytes are pending in a per-block shadow
 *    of shared memory (one entry per 4-byte word, kept only when the kernel
 *    uses cp.async) until:
 *      - for the issuing thread: its cp.async.wait_group/wait_all covers
 *        the copy's group, or the mbarrier tracking the copy completes its
 *        phase;
 *      - for every thread: a block barrier after the issuing thread's wait,
 *        or that mbarrier phase completing (the waiters observe it).
 *    Reads are checked in ld (shared, or generic resolving to shared),
 *    ldmatrix (each row for the lane addressing it) and the TMA's stores
 *    and reductions (their source); shared atomics are not checked yet.
 *  - cp.async groups per thread: the open group is committed + 1;
 *    wait_group N completes all but the newest N committed groups;
 *    wait_all is commit_group then wait_group 0 (the PTX ISA's words).
 *  - mbarriers live in their 8 bytes of shared memory, packed as the
 *    PTX ISA describes the object: pending arrivals (bits 0-19), expected
 *    arrivals (20-39), tx-count (40-60, signed), initialized (61), phase
 *    parity (63).  A phase completes when pending arrivals and tx-count are
 *    both 0; pending then goes back to expected and the parity flips.
 *    The state token of arrive is the object before the arrival.
 *  - cp.async.mbarrier.arrive: the copies complete at issue, so its
 *    arrive-on happens at once (without .noinc the pending count is raised
 *    first, so the arrival only balances it).  The thread's pending copies
 *    become tracked by the mbarrier.
 *  - A test_wait/try_wait that would return false makes the warp wait
 *    before it until the phase completes, then returns true: a schedule the
 *    GPU may produce, and the one that keeps spin loops finite.  If nothing
 *    can complete the phase, the block reports a deadlock naming the
 *    mbarrier.  As for bar.sync, a warp waits as a whole.
 *  - Counted as the hardware counts LDGSTS: the global side as a load of
 *    cp-size bytes per lane (lanes with a zero source size read nothing),
 *    the shared side as a store of cp-size bytes per lane; .cg bypasses L1.
 *    cp.async.bulk (emu_tma.c) goes through the TMA unit, not LSU.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"

/* When an mbarrier's current phase can complete (its latest arrival or
 * copy so far) and when its last phase did, in the warps' clock
 * (emu_clock.c). */
typedef struct MbarTime {
  uint32_t off;
  uint64_t ready, done;
} MbarTime;

/* One copy of one thread, pending until it settles.  A cp.async's bytes
 * (at most 16) land in shared memory when the copy completes for its
 * thread (land); the TMA's, tracked here, land at issue (emu_tma.c). */
typedef struct AsyncCopy {
  uint32_t lo, hi;    /* shared words [lo, hi) it writes */
  uint32_t thread;    /* linear thread index in the block */
  uint32_t group;     /* the thread's group (cp.async), 0 for a bulk copy */
  uint32_t mbar;      /* shared offset + 1 of the mbarrier that tracks it, or 0 */
  uint32_t pc;        /* the copying instruction */
  uint8_t landed;     /* its bytes are in shared memory */
  uint8_t data[16];   /* a cp.async's bytes, (hi - lo) words, until they land */
} AsyncCopy;

struct EmuAsync {
  uint32_t *word;     /* [shared words]: 1 + index in copy[] of the newest
                         pending copy of that word; 0: settled */
  uint32_t nwords;
  AsyncCopy *copy;
  uint32_t ncopy, cap;
  uint32_t *committed, *completed; /* [threads]: groups committed, completed */
  uint32_t nthreads;
  MbarTime *mt;       /* each mbarrier's times (emu_clock.c), in the order first used */
  uint32_t nmt, capmt;
};

/* --- the block's state --- */

/* The rows of ptx_ops.h's "asynchronous copies and mbarriers" section are
 * consecutive, from CPASYNC to MBAR_PENDING. */
int emu_async_used(const EmuProgram *p) {
  for (int i = 0; i < p->ncode; i++)
    if (p->code[i].op >= PTX_OP_CPASYNC && p->code[i].op <= PTX_OP_MBAR_PENDING) return 1;
  return 0;
}

EmuAsync *emu_async_new(uint32_t shared_size, uint32_t nthreads) {
  EmuAsync *a = wm_xcalloc(1, sizeof *a);
  a->nwords = (shared_size + 3) / 4;
  a->word = wm_xcalloc(a->nwords + 1, sizeof *a->word);
  a->committed = wm_xcalloc(nthreads, sizeof *a->committed);
  a->completed = wm_xcalloc(nthreads, sizeof *a->completed);
  a->nthreads = nthreads;
  return a;
}

void emu_async_free(EmuAsync *a) {
  if (!a) return;
  free(a->word);
  free(a->copy);
  free(a->committed);
  free(a->completed);
  free(a->mt);
  free(a);
}

/* Clears what the last block left (its pending copies and groups). */
void emu_async_reset(EmuAsync *a) {
  for (uint32_t i = 0; i < a->ncopy; i++)
    for (uint32_t w = a->copy[i].lo; w < a->copy[i].hi; w++) a->word[w] = 0;
  a->ncopy = 0;
  memset(a->committed, 0, a->nthreads * sizeof *a->committed);
  memset(a->completed, 0, a->nthreads * sizeof *a->completed);
  a->nmt = 0;
}

/* The times of the mbarrier at offset off (a kernel has a few). */
static MbarTime *mbar_time(EmuAsync *a, uint32_t off) {
  for (uint32_t i = 0; i < a->nmt; i++)
    if (a->mt[i].off == off) return &a->mt[i];
  if (a->nmt == a->capmt) {
    a->capmt = a->capmt ? a->capmt * 2 : 16;
    a->mt = wm_xrealloc(a->mt, a->capmt * sizeof *a->mt);
  }
  a->mt[a->nmt] = (MbarTime){off, 0, 0};
  return &a->mt[a->nmt++];
}

static void add_copy(EmuAsync *a, AsyncCopy c) {
  if (a->ncopy == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 256;
    a->copy = wm_xrealloc(a->copy, a->cap * sizeof *a->copy);
  }
  a->copy[a->ncopy++] = c;
  for (uint32_t w = c.lo; w < c.hi; w++) a->word[w] = a->ncopy;
}

static int done_for_thread(const EmuAsync *a, const AsyncCopy *c) {
  return c->group && c->group <= a->completed[c->thread];
}

/* Puts a cp.async's bytes in shared memory: it completed. */
static void land(Block *b, AsyncCopy *c) {
  if (c->landed) return;
  memcpy(b->shared + (size_t)c->lo * 4, c->data, (size_t)(c->hi - c->lo) * 4);
  c->landed = 1;
}

/* Lands the copies of warp's threads in `lanes` that their waits
 * completed: one pass for the warp. */
static void land_waited(Block *b, int warp, uint32_t lanes) {
  EmuAsync *a = b->async;
  for (uint32_t i = 0; i < a->ncopy; i++) {
    AsyncCopy *c = &a->copy[i];
    uint32_t l = c->thread - (uint32_t)warp * 32;
    if (l < 32 && (lanes >> l & 1) && !c->landed && done_for_thread(a, c)) land(b, c);
  }
}

/* Drops the copies `settled` says are visible to all, keeping the order of
 * the others (and the shadow pointing at them). */
static void settle(Block *b, int (*settled)(const EmuAsync *, const AsyncCopy *, uint32_t), uint32_t arg) {
  EmuAsync *a = b->async;
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->ncopy; i++) {
    AsyncCopy *c = &a->copy[i];
    int gone = settled(a, c, arg);
    if (gone) land(b, c);
    for (uint32_t w = c->lo; w < c->hi; w++)
      if (a->word[w] == i + 1) a->word[w] = gone ? 0 : n + 1;
    if (!gone) a->copy[n++] = *c;
  }
  a->ncopy = n;
}

static int waited(const EmuAsync *a, const AsyncCopy *c, uint32_t unused) {
  (void)unused;
  return done_for_thread(a, c);
}

static int tracked_by(const EmuAsync *a, const AsyncCopy *c, uint32_t mbar) {
  (void)a;
  return c->mbar == mbar;
}

/* A block barrier completed: the copies their threads waited for are now
 * visible to all. */
void emu_async_barrier(Block *b) {
  if (b->async && b->async->ncopy) settle(b, waited, 0);
}

/* --- reads of pending bytes --- */

static void copy_where(const Block *b, const AsyncCopy *c, char *buf, size_t n) {
  const PtxInstr *in = &b->p->k->code[c->pc];
  char cu[300], ptxw[400];
  emu_cu_where(b->m, in, cu, sizeof cu);
  emu_ptx_where(b->m, in->ptx_line, ptxw, sizeof ptxw);
  if (cu[0]) snprintf(buf, n, "%s (%s)", cu, ptxw);
  else snprintf(buf, n, "%s", ptxw);
}

static int pending_read(Block *b, const EmuInstr *x, int warp, int lane, uint64_t off, const AsyncCopy *c) {
  /* a bulk copy's bytes landed at issue, which a GPU's would not have: a
   * located error then, as under `warpmem check` */
  int fault = b->chk || !c->group;
  if (!fault && __atomic_load_n(&b->l->noted_async_race, __ATOMIC_RELAXED)) return 1; /* warned */
  const EmuAsync *a = b->async;
  uint32_t me = (uint32_t)warp * 32 + (uint32_t)lane, t[3];
  thread_of(b, (int)(c->thread / 32), (int)(c->thread % 32), t);
  char where[800], why[400];
  copy_where(b, c, where, sizeof where);
  if (c->mbar)
    snprintf(why, sizeof why, "the mbarrier tracking it (shared offset 0x%x) has not completed its phase",
             c->mbar - 1);
  else if (c->thread == me)
    snprintf(why, sizeof why, "this thread has not waited for it (cp.async.wait_group / wait_all, "
             "__pipeline_wait_prior, cuda::pipeline consumer_wait)");
  else if (done_for_thread(a, c))
    snprintf(why, sizeof why, "its thread waited for it, but no barrier (__syncthreads) since has made it "
             "visible to this thread");
  else
    snprintf(why, sizeof why, "its thread has not waited for it (cp.async.wait_group / wait_all; a barrier "
             "alone does not complete a cp.async)");
  const char *op = ptx_op_name[b->p->k->code[c->pc].op];
  if (fault)
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "read of shared memory before its %s completed: shared offset 0x%" PRIx64
                     " was copied by thread (%u,%u,%u) at %s; %s", op, off, t[0], t[1], t[2], where, why);
  emu_warn_once(b, x, warp, lane, &b->l->noted_async_race,
                "read of shared memory before its %s completed (a race; reported once a launch, `warpmem check` "
                "reports each): shared offset 0x%" PRIx64 " was copied by thread (%u,%u,%u) at %s; %s. The read "
                "gets the bytes %s, as a GPU gives them when the read comes first", op, off, t[0], t[1], t[2],
                where, why, c->landed ? "the copy wrote" : "from before the copy");
  return 1;
}

int emu_async_check_read(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *off,
                         const uint8_t *spaces, int uniform, unsigned size) {
  const EmuAsync *a = b->async;
  if (!a->ncopy) return 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if ((uniform ? uniform : spaces[l]) != PTX_S_SHARED) continue;
    uint32_t me = (uint32_t)warp * 32 + (uint32_t)l;
    for (uint64_t w = off[l] / 4; w <= (off[l] + size - 1) / 4 && w < a->nwords; w++) {
      if (!a->word[w]) continue;
      const AsyncCopy *c = &a->copy[a->word[w] - 1];
      if (c->thread == me && done_for_thread(a, c)) continue;
      if (pending_read(b, x, warp, l, w * 4 > off[l] ? w * 4 : off[l], c) < 0) return -1;
      break; /* warned: the lane's next words too */
    }
  }
  return 0;
}

/* --- mbarriers --- */

#define MB_VALID (1ull << 61)
#define MB_PHASE (1ull << 63)
#define MB_MAX 0xfffffu /* counts are 20 bits */

static uint32_t mb_pending(uint64_t v) { return (uint32_t)(v & MB_MAX); }
static uint32_t mb_expected(uint64_t v) { return (uint32_t)(v >> 20 & MB_MAX); }
static int32_t mb_tx(uint64_t v) {
  int32_t t = (int32_t)(v >> 40 & 0x1fffff);
  return t & 0x100000 ? t - 0x200000 : t;
}
static uint64_t mb_pack(uint32_t pending, uint32_t expected, int32_t tx, uint64_t phase) {
  return (uint64_t)pending | (uint64_t)expected << 20 | (uint64_t)((uint32_t)tx & 0x1fffff) << 40 | MB_VALID |
         (phase & MB_PHASE);
}

static uint64_t mb_load(const Block *b, uint32_t off) {
  uint64_t v;
  memcpy(&v, b->shared + off, 8);
  return v;
}
static void mb_store(Block *b, uint32_t off, uint64_t v) { memcpy(b->shared + off, &v, 8); }

/* An mbarrier object: the block whose shared memory holds it (a peer's
 * through a shared::cluster address) and its offset there. */
typedef struct Mbar {
  Block *owner;
  uint32_t off;
} Mbar;

/* The mbarrier at address a in the instruction's space (generic addresses
 * must fall in the shared window; shared ones may name a peer block of the
 * cluster): 0, or -1 after a fault. */
static int mbar_locate(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a, Mbar *mb) {
  if (x->space == PTX_S_GENERIC) {
    if (a - EMU_SHARED_WIN >= EMU_WIN_SIZE)
      return emu_fault(b, x, warp, lane, WM_EFAULT,
                       "mbarrier object at generic address 0x%" PRIx64 " is not in shared memory", a);
    a -= EMU_SHARED_WIN;
  }
  a &= 0xffffffffu;
  if (a % 8)
    return emu_fault(b, x, warp, lane, WM_EFAULT, "mbarrier object at shared address 0x%" PRIx64
                     " is not 8-byte aligned", a);
  return emu_dsm_locate(b, x, warp, lane, a, 8, &mb->owner, &mb->off);
}

static int mbar_of(Block *b, const EmuInstr *x, int warp, int lane, const uint64_t *R, Mbar *mb) {
  uint64_t base = x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + (size_t)lane];
  return mbar_locate(b, x, warp, lane, base + (uint64_t)x->aoff, mb);
}

static int not_initialized(Block *b, const EmuInstr *x, int warp, int lane, Mbar mb) {
  if (mb.owner != b)
    return emu_fault(b, x, warp, lane, WM_EFAULT, "mbarrier at shared offset 0x%x of block rank %u of the cluster "
                     "is used before mbarrier.init (or after mbarrier.inval)", mb.off, mb.owner->crank);
  return emu_fault(b, x, warp, lane, WM_EFAULT,
                   "mbarrier at shared offset 0x%x is used before mbarrier.init (or after mbarrier.inval)", mb.off);
}

void emu_async_describe(const Block *b, uint32_t off, char *buf, size_t n) {
  uint64_t v = mb_load(b, off);
  snprintf(buf, n, "the mbarrier at shared offset 0x%x (phase parity %u: %u of %u arrivals pending, tx-count %d)",
           off, (unsigned)(v >> 63), mb_pending(v), mb_expected(v), mb_tx(v));
}

/* The phase of the mbarrier at off completed: its waiters may go on, and
 * the copies it tracks are visible. */
static void phase_complete(Block *b, uint32_t off) {
  MbarTime *t = mbar_time(b->async, off);
  t->done = t->ready;
  t->ready = 0;
  uint64_t v = mb_load(b, off);
  mb_store(b, off, mb_pack(mb_expected(v), mb_expected(v), 0, v ^ MB_PHASE));
  for (uint32_t w = 0; w < b->nwarps; w++) {
    Warp *wp = &b->warps[w];
    if (wp->state == W_WAIT && wp->mbar_wait == off + 1) {
      wp->state = W_READY;
      wp->mbar_wait = 0;
    }
  }
  if (b->async && b->async->ncopy) settle(b, tracked_by, off + 1);
}

/* count arrivals (dropping them from later phases with drop) and tx more
 * bytes expected, on the mbarrier mb, for lane `lane` of warp `warp` of b,
 * at time `at` in the warps' clock; *state gets the object before. */
static int mb_arrive(Block *b, const EmuInstr *x, int warp, int lane, Mbar mb, uint32_t count, int drop,
                     int64_t tx, uint64_t at, uint64_t *state) {
  uint32_t off = mb.off;
  uint64_t v = mb_load(mb.owner, off);
  if (!(v & MB_VALID)) return not_initialized(b, x, warp, lane, mb);
  MbarTime *mt = mbar_time(mb.owner->async, off);
  if (at > mt->ready) mt->ready = at;
  if (state) *state = v;
  uint32_t pending = mb_pending(v), expected = mb_expected(v);
  int64_t t = mb_tx(v) + tx;
  if (t > (int64_t)MB_MAX || t < -(int64_t)MB_MAX)
    return emu_fault(b, x, warp, lane, WM_EFAULT, "mbarrier at shared offset 0x%x: tx-count %" PRId64
                     " is out of range (the PTX ISA allows +-(2^20-1))", off, t);
  if (count > pending || (drop && count > expected))
    return emu_fault(b, x, warp, lane, WM_EFAULT, "%u arrivals on the mbarrier at shared offset 0x%x, which "
                     "has only %u of %u pending in this phase", count, off, pending, expected);
  pending -= count;
  if (drop) expected -= count;
  mb_store(mb.owner, off, mb_pack(pending, expected, (int32_t)t, v));
  if (pending == 0 && t == 0) {
    if (x->sub == PTX_SUB_MB_NOCOMPLETE)
      return emu_fault(b, x, warp, lane, WM_EFAULT, "mbarrier.arrive.noComplete completed the phase of the "
                       "mbarrier at shared offset 0x%x (undefined in the PTX ISA)", off);
    phase_complete(mb.owner, off);
  }
  return 0;
}

int emu_mbar_at(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a, Block **owner, uint32_t *off) {
  Mbar mb;
  if (mbar_locate(b, x, warp, lane, a, &mb)) return -1;
  *owner = mb.owner;
  *off = mb.off;
  return 0;
}

int emu_mbar_complete_tx(Block *b, const EmuInstr *x, int warp, int lane, Block *owner, uint32_t off,
                         uint32_t bytes, uint64_t ready) {
  return mb_arrive(b, x, warp, lane, (Mbar){owner, off}, 0, 0, -(int64_t)bytes, ready, NULL);
}

void emu_async_track(Block *owner, uint32_t lo, uint32_t hi, uint32_t mbar, uint32_t thread, uint32_t pc) {
  add_copy(owner->async, (AsyncCopy){lo / 4, (hi + 3) / 4, thread, 0, mbar + 1, pc, 1, {0}});
}

int emu_exec_mbar_init(EMU_EXEC_ARGS) {
  const uint64_t *cnt = SRC(0);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    Mbar mb;
    if (mbar_of(b, x, warp, l, R, &mb)) return -1;
    uint32_t c = (uint32_t)cnt[l];
    if (c == 0 || c > MB_MAX)
      return emu_fault(b, x, warp, l, WM_EFAULT, "mbarrier.init count %u is out of range (1 to 2^20-1)", c);
    mb_store(mb.owner, mb.off, mb_pack(c, c, 0, 0));
    *mbar_time(mb.owner->async, mb.off) = (MbarTime){mb.off, 0, 0};
  }
  return 0;
}

int emu_exec_mbar_inval(EMU_EXEC_ARGS) {
  for (uint32_t m = mask; m; m &= m - 1) {
    Mbar mb;
    if (mbar_of(b, x, warp, __builtin_ctz(m), R, &mb)) return -1;
    mb_store(mb.owner, mb.off, 0);
  }
  return 0;
}

/* mbarrier.arrive, arrive_drop (.expect_tx: one arrival, b bytes expected) */
int emu_exec_mbar_arrive(EMU_EXEC_ARGS) {
  const uint64_t *cnt = x->s[0] != EMU_NOSLOT ? SRC(0) : NULL;
  uint64_t *d = x->d[0] != EMU_NOSLOT ? DST(0) : NULL;
  int expect = x->sub == PTX_SUB_MB_EXPECT_TX, drop = x->op == PTX_OP_MBAR_ARRIVE_DROP;
  if (x->aux & PTX_MB_CLUSTER) emu_clock_release(&b->warps[warp]);
  for (uint32_t m = mask; m; m &= m - 1) { /* lanes in order: an arrival may complete the phase */
    int l = __builtin_ctz(m);
    Mbar mb;
    if (mbar_of(b, x, warp, l, R, &mb)) return -1;
    uint32_t c = cnt && !expect ? (uint32_t)cnt[l] : 1;
    int64_t tx = expect ? (int64_t)(uint32_t)cnt[l] : 0;
    if (c == 0 || c > MB_MAX)
      return emu_fault(b, x, warp, l, WM_EFAULT, "mbarrier arrival count %u is out of range (1 to 2^20-1)", c);
    uint64_t state = 0;
    if (mb_arrive(b, x, warp, l, mb, c, drop, tx, b->warps[warp].now, &state)) return -1;
    if (d) d[l] = state;
  }
  return 0;
}

/* mbarrier.expect_tx / complete_tx [a], b */
int emu_exec_mbar_tx(EMU_EXEC_ARGS) {
  const uint64_t *n = SRC(0);
  int sign = x->op == PTX_OP_MBAR_COMPLETE_TX ? -1 : 1;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    Mbar mb;
    if (mbar_of(b, x, warp, l, R, &mb)) return -1;
    if (mb_arrive(b, x, warp, l, mb, 0, 0, sign * (int64_t)(uint32_t)n[l], b->warps[warp].now, NULL)) return -1;
  }
  return 0;
}

/* test_wait / try_wait: p = the phase of token b (or of parity b) is
 * complete; if it is not for some lane, the warp waits before the
 * instruction (returns 1) until the phase completes. */
int emu_exec_mbar_wait(EMU_EXEC_ARGS) {
  const uint64_t *s = SRC(0);
  uint64_t *d = x->d[0] != EMU_NOSLOT ? DST(0) : NULL;
  uint64_t done = 0; /* when the phases it waited for completed */
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    Mbar mb;
    if (mbar_of(b, x, warp, l, R, &mb)) return -1;
    if (mb.owner != b)
      return emu_fault(b, x, warp, l, WM_EFAULT, "%s on block rank %u's mbarrier: a thread waits only on an "
                       "mbarrier of its own block (the PTX ISA's shared::cta)", ptx_op_name[x->op], mb.owner->crank);
    uint32_t off = mb.off;
    uint64_t v = mb_load(b, off);
    if (!(v & MB_VALID)) return not_initialized(b, x, warp, l, mb);
    unsigned want = x->sub == PTX_SUB_MB_PARITY ? (unsigned)(s[l] & 1) : (unsigned)(s[l] >> 63);
    if ((unsigned)(v >> 63) != want) {
      uint64_t t = mbar_time(b->async, off)->done;
      if (t > done) done = t;
      continue;
    }
    Warp *w = &b->warps[warp];
    w->state = W_WAIT;
    w->bar_id = -1;
    w->mbar_wait = off + 1;
    w->bar_pc = (uint32_t)(x - b->p->code);
    return 1;
  }
  emu_clock_wait(&b->warps[warp], done);
  if (d) LANES(mask, d[l] = 1);
  return 0;
}

int emu_exec_mbar_pending(EMU_EXEC_ARGS) {
  const uint64_t *s = SRC(0);
  uint64_t *d = DST(0);
  LANES(mask, d[l] = mb_pending(s[l]));
  return 0;
}

/* --- cp.async groups --- */

int emu_exec_cp_async_commit(EMU_EXEC_ARGS) {
  (void)R;
  EmuAsync *a = b->async;
  LANES(mask, a->committed[warp * 32 + l]++);
  return 0;
}

/* wait_group N: all but the newest N committed groups; wait_all: all. */
int emu_exec_cp_async_wait(EMU_EXEC_ARGS) {
  EmuAsync *a = b->async;
  uint32_t keep = x->op == PTX_OP_CPASYNC_WAIT ? (uint32_t)SRC(0)[__builtin_ctz(mask)] : 0, moved = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t t = (uint32_t)warp * 32 + (uint32_t)__builtin_ctz(m);
    if (x->op == PTX_OP_CPASYNC_WAITALL) a->committed[t]++;
    uint32_t upto = a->committed[t] > keep ? a->committed[t] - keep : 0;
    if (upto > a->completed[t]) a->completed[t] = upto, moved |= m & -m;
  }
  if (moved) land_waited(b, warp, moved);
  return 0;
}

/* cp.async.mbarrier.arrive{.noinc} [a]: the mbarrier tracks this thread's
 * pending copies; their completion (now) is an arrival that .noinc counts
 * against the expected ones and the plain form first adds to them. */
int emu_exec_cp_async_mbar(EMU_EXEC_ARGS) {
  EmuAsync *a = b->async;
  Mbar at[32];
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (mbar_of(b, x, warp, l, R, &at[l])) return -1;
    if (at[l].owner != b)
      return emu_fault(b, x, warp, l, WM_EFAULT, "cp.async.mbarrier.arrive on block rank %u's mbarrier: "
                       "it tracks this thread's copies on an mbarrier of its own block", at[l].owner->crank);
  }
  for (uint32_t i = 0; i < a->ncopy; i++) { /* one pass for the warp's lanes */
    AsyncCopy *c = &a->copy[i];
    uint32_t l = c->thread - (uint32_t)warp * 32;
    if (l < 32 && (mask >> l & 1) && !c->mbar && !done_for_thread(a, c)) c->mbar = at[l].off + 1, land(b, c);
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t v = mb_load(b, at[l].off);
    if (!(v & MB_VALID)) return not_initialized(b, x, warp, l, at[l]);
    if (x->sub == PTX_SUB_MB_NOINC && mb_arrive(b, x, warp, l, at[l], 1, 0, 0, b->warps[warp].now, NULL)) return -1;
  }
  return 0;
}

/* --- the copies --- */

/* Counts one cp.async as LDGSTS: its global reads (lanes in `reads`) and
 * its shared writes (all lanes of mask). */
static void model_ldgsts(Block *b, const EmuInstr *x, uint32_t mask, uint32_t reads, const uint64_t *src,
                         const uint64_t *dst, unsigned size) {
  MemReq r = {.space = PTX_S_GLOBAL, .op = MEM_LDGSTS, .size = (uint8_t)size, .elem = (uint8_t)size,
              .mask = reads, .addr = src, .instr = (int)(x - b->p->code), .warp = b->cur_warp,
              .cache = x->flags & PTX_IF_CG ? MEM_LOADS_CG : MEM_LOADS_CA};
  emu_clock_stamp(b, &r);
  if (reads) mem_access(b->mm, &r);
  r.space = PTX_S_SHARED;
  r.mask = mask;
  r.addr = dst;
  mem_access(b->mm, &r);
}

/* The bytes lane l reads of a cp.async of `size`: src-size, none with a
 * true ignore-src, else all; -1 after a fault. */
static int source_bytes(Block *b, const EmuInstr *x, int warp, int l, const uint64_t *R, unsigned size) {
  if (x->sub == PTX_SUB_ASYNC_IGNORE) {
    uint64_t p = SRC(3)[l] & 1;
    return (p ^ x->s_neg[3]) ? 0 : (int)size;
  }
  if (x->sub != PTX_SUB_ASYNC_SRCSIZE) return (int)size;
  uint32_t n = (uint32_t)SRC(3)[l];
  if (n > size)
    return emu_fault(b, x, warp, l, WM_EFAULT, "cp.async source size %u is larger than the copy size %u", n, size);
  return (int)n;
}

/* Checks and reads lane l's bytes into out: n from global src, zeros to
 * `size`. */
static int copy_lane(Block *b, const EmuInstr *x, int warp, int l, uint64_t dst, uint64_t src, unsigned n,
                     unsigned size, unsigned align, uint8_t *out) {
  if (dst % align || dst + size > b->shared_size)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s destination of %u bytes at shared offset 0x%" PRIx64 ": %s",
                     ptx_op_name[x->op], size, dst,
                     dst % align ? "misaligned" : "out of bounds of the block's shared memory");
  if (src % align)
    return emu_fault(b, x, warp, l, WM_EFAULT, "misaligned %s source at 0x%" PRIx64 " (must be a multiple of %u)",
                     ptx_op_name[x->op], src, align);
  if (n) {
    GBuf *g = gmem_find(b->l->gmem, src, n);
    if (!g)
      return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds global read of %u bytes at 0x%" PRIx64
                       " by %s: no buffer holds them", n, src, ptx_op_name[x->op]);
    memcpy(out, g->data + (src - g->addr), n);
  }
  memset(out + n, 0, size - n);
  return 0;
}

int emu_exec_cp_async(EMU_EXEC_ARGS) {
  EmuAsync *a = b->async;
  const uint64_t *dbase = x->abase == EMU_NOSLOT ? NULL : R + (size_t)x->abase * 32;
  const uint64_t *sbase = SRC(0), *soff = SRC(1);
  unsigned size = (unsigned)SRC(2)[__builtin_ctz(mask)];
  uint64_t dst[32], src[32];
  uint32_t reads = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    dst[l] = ((dbase ? dbase[l] : 0) + (uint64_t)x->aoff) & 0xffffffffu;
    src[l] = sbase[l] + soff[l];
    int n = source_bytes(b, x, warp, l, R, size);
    if (size > 16 || size % 4)
      return emu_fault(b, x, warp, l, WM_EFAULT, "cp.async of %u bytes: the copy size is 4, 8 or 16", size);
    AsyncCopy c = {(uint32_t)(dst[l] / 4), (uint32_t)((dst[l] + size + 3) / 4), (uint32_t)warp * 32 + (uint32_t)l,
                   0, 0, (uint32_t)(x - b->p->code), 0, {0}};
    if (n < 0 || copy_lane(b, x, warp, l, dst[l], src[l], (unsigned)n, size, size, c.data)) return -1;
    if (n) reads |= 1u << l;
    c.group = a->committed[c.thread] + 1;
    add_copy(a, c);
  }
  if (b->mm) model_ldgsts(b, x, mask, reads, src, dst, size);
  return 0;
}
