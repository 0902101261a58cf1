/* emu_check_mem.c - the shadow of the memory a checked kernel touches:
 * racecheck's last write and reads of every byte of shared memory (an array
 * beside the block's) and of global memory (a table of the bytes one block
 * touched), and initcheck's written bytes of registered global buffers.
 *
 * Notes:
 *  - The checked ld, st, atom and red resolve their lanes' addresses as the
 *    instruction will (emu_mem_locate), check every lane against the shadow
 *    as it was before the instruction, update it, then run the instruction:
 *    lanes of one instruction never race each other (they run in lockstep,
 *    one of them wins a common store).
 *  - A hazard is two accesses to one byte by different threads of a block,
 *    at least one a write, both plain (atomics, .volatile, .relaxed,
 *    .acquire and .release accesses synchronize: racecheck neither checks
 *    nor records them), in one epoch (no barrier of the block completed
 *    between them) and, for two threads of one warp, no bar.warp.sync
 *    (__syncwarp) of that warp between them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check_int.h"

/* --- initcheck's buffers --- */

/* The index of the buffer holding a, or -1; *at: where one would go. */
static int buf_index(const EmuCheck *c, uint64_t a, int *at) {
  int lo = 0, hi = c->nbufs;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (c->bufs[mid].addr + c->bufs[mid].size <= a) lo = mid + 1;
    else hi = mid;
  }
  if (at) *at = lo;
  return lo < c->nbufs && c->bufs[lo].addr <= a ? lo : -1;
}

void emu_check_uninit(EmuCheck *c, uint64_t addr, uint64_t size) {
  if (!size) return;
  emu_check_forget(c, addr);
  int at;
  buf_index(c, addr, &at);
  if (c->nbufs == c->capbufs) {
    c->capbufs = c->capbufs ? c->capbufs * 2 : 8;
    c->bufs = realloc(c->bufs, (size_t)c->capbufs * sizeof *c->bufs);
    if (!c->bufs) abort();
  }
  memmove(&c->bufs[at + 1], &c->bufs[at], (size_t)(c->nbufs - at) * sizeof *c->bufs);
  c->bufs[at] = (ChkBuf){addr, size, wm_xcalloc((size_t)((size + 7) / 8), 1)};
  c->nbufs++;
}

void emu_check_forget(EmuCheck *c, uint64_t addr) {
  int i = buf_index(c, addr, NULL);
  if (i < 0 || c->bufs[i].addr != addr) return;
  free(c->bufs[i].set);
  memmove(&c->bufs[i], &c->bufs[i + 1], (size_t)(c->nbufs - i - 1) * sizeof *c->bufs);
  c->nbufs--;
}

void emu_check_forget_all(EmuCheck *c) {
  for (int i = 0; i < c->nbufs; i++) free(c->bufs[i].set);
  c->nbufs = 0;
}

static void set_bits(uint8_t *bits, uint64_t from, uint64_t n) {
  for (; n && from % 8; n--, from++) bits[from / 8] |= (uint8_t)(1u << from % 8);
  if (n >= 8) {
    memset(bits + from / 8, 0xff, (size_t)(n / 8));
    from += n / 8 * 8;
    n %= 8;
  }
  for (; n; n--, from++) bits[from / 8] |= (uint8_t)(1u << from % 8);
}

void emu_check_written(EmuCheck *c, uint64_t addr, uint64_t size) {
  int at;
  buf_index(c, addr, &at);
  for (int i = at; i < c->nbufs && c->bufs[i].addr < addr + size; i++) {
    ChkBuf *g = &c->bufs[i];
    uint64_t lo = addr > g->addr ? addr : g->addr, hi = addr + size < g->addr + g->size ? addr + size
                                                                                       : g->addr + g->size;
    if (lo < hi) set_bits(g->set, lo - g->addr, hi - lo);
  }
}

/* --- which checks a kernel allows --- */

static void scope(EmuCheck *c, const EmuProgram *p) {
  int race = c->tools >> CHK_RACECHECK & 1, init = c->tools >> CHK_INITCHECK & 1;
  c->race_shared = c->race_global = race;
  c->init_shared = c->init_global = init;
  const char *why = NULL;
  for (int i = 0; i < p->ncode; i++) {
    unsigned op = p->code[i].op;
    if (op >= PTX_OP_CPASYNC && op <= PTX_OP_MBAR_PENDING) {
      c->race_shared = c->init_shared = c->init_global = 0; /* copies and mbarrier waits it does not see */
      why = "cp.async or mbarriers";
    } else if (op == PTX_OP_STMATRIX || op == PTX_OP_WMMA_STORE || op == PTX_OP_SUST) {
      c->init_shared = c->init_global = 0;
      if (!why) why = "stmatrix, wmma.store or sust";
    }
  }
  if (why && (race || init))
    snprintf(c->limits, sizeof c->limits, "the kernel uses %s, whose accesses the checks do not see: %s%s",
             why, c->race_shared || !race ? "" : "racecheck of shared memory and ",
             init ? "initcheck are off for it" : "");
}

/* --- the global table --- */

/* The words of a 128-byte line in consecutive slots: a warp's neighbouring
 * lanes touch neighbouring slots. */
static size_t slot_hash(uint64_t a, size_t cap) {
  return (size_t)(((a >> 7) * 0x9E3779B97F4A7C15ull >> 20) + (a >> 2 & 31)) & (cap - 1);
}

/* Grows the table, keeping generation gen's slots; 0, or -1 at the limit. */
static int grow(EmuCheck *c, uint32_t gen) {
  size_t cap = c->gcap ? c->gcap * 2 : 4096;
  if (cap > CHK_GLOBAL_SLOTS_MAX) return -1;
  ChkSlot *t = wm_xcalloc(cap, sizeof *t);
  for (size_t i = 0; i < c->gcap; i++) {
    const ChkSlot *s = &c->gtab[i];
    if (s->gen != gen || !gen) continue;
    size_t h = slot_hash(s->addr, cap);
    while (t[h].gen == gen) h = (h + 1) & (cap - 1);
    t[h] = *s;
  }
  free(c->gtab);
  c->gtab = t;
  c->gcap = cap;
  return 0;
}

/* The cells of word a (4-byte aligned) in this block (gen), NULL when it has
 * none (insert 0) or the table is full. */
static ChkCell *gword(EmuCheck *c, uint32_t gen, uint64_t a, int insert) {
  if (insert && (c->gused + 1) * 2 > c->gcap && grow(c, gen)) {
    if (!strstr(c->limits, "global racecheck"))
      snprintf(c->limits + strlen(c->limits), sizeof c->limits - strlen(c->limits),
               "%sa block touched over %zu bytes of global memory: global racecheck saw only the first",
               c->limits[0] ? "; " : "", CHK_GLOBAL_SLOTS_MAX / 2 * 4);
    return NULL;
  }
  if (!c->gcap) return NULL;
  for (size_t h = slot_hash(a, c->gcap);; h = (h + 1) & (c->gcap - 1)) {
    ChkSlot *s = &c->gtab[h];
    if (s->gen != gen) {
      if (!insert) return NULL;
      s->gen = gen;
      s->addr = a;
      for (int i = 0; i < 4; i++) s->c[i] = (ChkCell){.wt = CHK_NOTHREAD, .rt = CHK_NOTHREAD, .rt2 = CHK_NOTHREAD};
      c->gused++;
      return s->c;
    }
    if (s->addr == a) return s->c;
  }
}

/* --- one access --- */

typedef struct Access {
  Block *b;
  uint32_t pc, t;       /* instruction, thread */
  uint32_t epoch;
  uint16_t sy;          /* the warp's bar.warp.sync count */
  int write, sync;      /* a write; atomic or volatile */
  const char *space;
  uint64_t addr;
} Access;

/* Whether u's access in epoch ep (its warp at sync count sy) races with a. */
static int conflict(const Access *a, uint16_t u, uint32_t ep, uint16_t sy) {
  if (ep != a->epoch || u == CHK_NOTHREAD || u == a->t) return 0;
  return u / 32 != a->t / 32 || sy == a->sy;
}

static void hazard(const Access *a, const char *kind, uint32_t pc2, uint16_t u) {
  char d[300];
  snprintf(d, sizeof d, "%s by thread %u and thread %u of the block with no %s between them", kind, a->t, u,
           u / 32 == a->t / 32 ? "__syncwarp() or barrier" : "barrier (__syncthreads())");
  int other_writes = kind[0] == 'W' && kind[2] == 'W';
  emu_chk_report(a->b, CHK_RACECHECK, kind, a->space, a->pc, a->t, a->write ? "write" : "read", pc2, u,
                 other_writes || kind[0] == 'R' ? "write" : "read", a->addr, d);
}

/* Checks one byte's cell; 1 if it reported a hazard. */
static int cell_check(const Access *a, const ChkCell *k) {
  if (a->sync) return 0;
  if (!a->write) {
    if (!conflict(a, k->wt, k->wep, k->wsy)) return 0;
    hazard(a, "RAW hazard", k->wpc, k->wt);
    return 1;
  }
  if (conflict(a, k->wt, k->wep, k->wsy)) hazard(a, "WAW hazard", k->wpc, k->wt);
  else if (conflict(a, k->rt, k->rep, k->rsy)) hazard(a, "WAR hazard", k->rpc, k->rt);
  else if (conflict(a, k->rt2, k->rep, k->rsy2)) hazard(a, "WAR hazard", k->rpc2, k->rt2);
  else return 0;
  return 1;
}

static void cell_update(const Access *a, ChkCell *k) {
  if (a->write) {
    k->wep = a->epoch;
    k->wt = a->sync ? CHK_NOTHREAD : (uint16_t)a->t; /* an atomic's write initializes, never races */
    k->wpc = a->pc;
    k->wsy = a->sy;
    if (!a->sync) k->rep = 0;
    return;
  }
  if (a->sync) return;
  if (k->rep != a->epoch) {
    k->rep = a->epoch;
    k->rt = (uint16_t)a->t, k->rpc = a->pc, k->rsy = a->sy;
    k->rt2 = CHK_NOTHREAD;
  } else if (k->rt == a->t) {
    k->rpc = a->pc, k->rsy = a->sy;
  } else if (k->rt2 == CHK_NOTHREAD || k->rt2 == a->t) {
    k->rt2 = (uint16_t)a->t, k->rpc2 = a->pc, k->rsy2 = a->sy;
  }
}

static void uninit(const Access *a, uint64_t at, const char *what) {
  char d[300];
  snprintf(d, sizeof d, "thread %u reads %s at 0x%" PRIx64 " that nothing wrote%s", a->t, what, at,
           a->space[0] == 's' ? " in this block (shared memory starts uninitialized)" : "");
  emu_chk_report(a->b, CHK_INITCHECK, "uninitialized read", a->space, a->pc, a->t, "read", UINT32_MAX, 0, NULL, at,
                 d);
}

/* Lane's access of n bytes at shared offset off: phase 0 checks, 1 updates. */
static void shared_access(Access *a, uint64_t off, unsigned n, int phase, int read) {
  EmuCheck *c = a->b->l->check;
  EmuChkBlock *k = a->b->chk;
  ChkCell *cells = k->shared + off;
  a->addr = off;
  for (unsigned i = 0; i < n; i++) {
    if (phase == 0) {
      if (read && c->init_shared && cells[i].wep < k->start) {
        uninit(a, off + i, "shared memory");
        read = 0;
      }
      if (c->race_shared && cell_check(a, &cells[i])) break;
    } else if (c->race_shared || c->init_shared) {
      cell_update(a, &cells[i]);
    }
  }
}

/* Lane's access of n bytes at global address g. */
static void global_access(Access *a, uint64_t g, unsigned n, int phase, int read) {
  EmuCheck *c = a->b->l->check;
  a->addr = g;
  if (c->init_global && (read || phase == 1)) {
    int i = buf_index(c, g, NULL);
    if (i >= 0) {
      ChkBuf *bf = &c->bufs[i];
      uint64_t o = g - bf->addr;
      for (unsigned j = 0; phase == 0 && j < n && o + j < bf->size; j++)
        if (!(bf->set[(o + j) / 8] >> (o + j) % 8 & 1)) {
          char what[100];
          const GBuf *gb = gmem_find(a->b->l->gmem, g, 1);
          snprintf(what, sizeof what, "%.60s", gb ? gb->name : "a buffer");
          uninit(a, g + j, what);
          break;
        }
      if (phase == 1 && a->write) set_bits(bf->set, o, o + n <= bf->size ? n : bf->size - o);
    }
  }
  if (!c->race_global || a->sync) return;
  const GlobalMem *gm = a->b->l->gmem;
  if (gm->heap.size && g - gm->buf[gm->heap.buf].addr < gm->heap.size) return; /* malloc reuses what free gave back */
  ChkCell *word = NULL;
  for (unsigned i = 0; i < n; i++) {
    uint64_t at = g + i;
    if (i == 0 || at % 4 == 0) word = gword(c, a->b->chk->gen, at & ~3ull, phase == 1);
    if (!word) continue;
    if (phase == 1) cell_update(a, &word[at % 4]);
    else if (cell_check(a, &word[at % 4])) break;
  }
}

int emu_chk_exec_mem(EMU_EXEC_ARGS) {
  EmuCheck *c = b->l->check;
  uint32_t pc = (uint32_t)(x - b->p->code);
  EmuExecFn *fn = c->orig[pc];
  if (x->space == PTX_S_PARAM || x->space == PTX_S_CONST || x->space == PTX_S_LOCAL || !b->chk) return fn(b, x, warp, mask, R);
  int atom = x->op == PTX_OP_ATOM || x->op == PTX_OP_RED, store = x->op == PTX_OP_ST;
  unsigned elem = ptx_type_size((PtxType)x->type), size = atom ? elem : elem * (x->vec ? x->vec : 1);
  uint64_t addr[32];
  const uint64_t *base = x->abase == EMU_NOSLOT ? NULL : R + (size_t)x->abase * 32;
  LANES(mask, addr[l] = (base ? base[l] : 0) + (uint64_t)x->aoff);
  EmuWhere w;
  if (emu_mem_locate(b, x, warp, mask, addr, size, store || atom, &w)) return -1;
  Access a = {.b = b, .pc = pc, .epoch = b->chk->epoch, .sy = b->chk->wsync[warp], .write = store || atom,
              .sync = atom || (x->flags & PTX_IF_VOLATILE)};
  for (int phase = 0; phase < 2; phase++)
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      unsigned sp = w.uniform ? (unsigned)w.uniform : w.spaces[l];
      a.t = (uint32_t)warp * 32 + (uint32_t)l;
      if (sp == PTX_S_SHARED) {
        a.space = "shared";
        shared_access(&a, w.off[l], size, phase, !store);
      } else if (sp == PTX_S_GLOBAL) {
        a.space = "global";
        global_access(&a, w.off[l], size, phase, !store);
      }
    }
  return fn(b, x, warp, mask, R);
}

/* --- the checked functions, chosen per launch --- */

void emu_chk_prepare(EmuCheck *c, EmuProgram *p) {
  free(c->orig);
  c->norig = p->ncode + 1;
  c->orig = wm_xcalloc((size_t)c->norig, sizeof *c->orig);
  scope(c, p);
  for (int i = 0; i <= p->ncode; i++) {
    EmuInstr *x = &p->code[i];
    c->orig[i] = x->fn;
    if (i == p->ncode) continue;
    switch (x->op) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED:
      x->fn = emu_chk_exec_mem;
      break;
    case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX: case PTX_OP_BARWARP:
      x->fn = emu_chk_exec_warp;
      break;
    default: break;
    }
  }
  emu_chk_prepare_wgmma(c, p);
}
