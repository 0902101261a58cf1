/* emu_mem.c - ld, ldu, st, atom, red: every lane's address resolved to a
 * state space and a host pointer (generic addresses through the windows
 * of emu_int.h), checked for bounds and alignment, then the access, then
 * one request to the memory model for the warp.
 *
 * Notes:
 *  - Global atomics are atomic on the host too: blocks run on several
 *    host threads.
 *  - Loads ptxas fuses into LDS.128 reach the memory model as one 16-byte
 *    request (EmuFuse, emu_prepare.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_exec.h"


/* Where a lane's access lands on the host, or NULL after reporting a fault. */
static uint8_t *global_ptr(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a,
                           unsigned size, int store) {
  GBuf *g = b->last_buf;
  if (!g || a < g->addr || a + size > g->addr + g->size) {
    g = gmem_find(b->l->gmem, a, size);
    if (!g) {
      const GBuf *n = gmem_nearest(b->l->gmem, a), *f = gmem_freed(b->l->gmem, a);
      char near[256] = "no buffers are allocated";
      if (f)
        snprintf(near, sizeof near, "%" PRIu64 " bytes into %s (%" PRIu64 " bytes at 0x%" PRIx64 "), which was %s before",
                 a - f->addr, f->name, f->size, f->addr,
                 f->adopted ? "unregistered (cudaHostUnregister)" : "freed (cudaFree)");
      else if (n) {
        if (a >= n->addr + n->size || a + size > n->addr + n->size)
          snprintf(near, sizeof near, "%" PRIu64 " bytes past the end of %s (%" PRIu64
                   " bytes at 0x%" PRIx64 ")", a + size - (n->addr + n->size), n->name, n->size, n->addr);
        else
          snprintf(near, sizeof near, "%" PRIu64 " bytes before %s (%" PRIu64 " bytes at 0x%" PRIx64 ")",
                   n->addr - a, n->name, n->size, n->addr);
      }
      emu_fault(b, x, warp, lane, WM_EFAULT, "out-of-bounds global %s of %u bytes at 0x%" PRIx64 ": %s",
            store ? "store" : "load", size, a, near);
      return NULL;
    }
    b->last_buf = g;
  }
  return g->data + (a - g->addr);
}

static const char *op_word(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_ST:
  case PTX_OP_STMATRIX:
  case PTX_OP_WMMA_STORE: return "store";
  case PTX_OP_ATOM: return "atomic";
  case PTX_OP_RED: return "reduction";
  default: return "load";
  }
}

/* One host region that a warp's accesses may all fall in: lane l's bytes
 * are at data + (off[l] - origin). */
typedef struct Region {
  uint8_t *data;
  uint64_t origin;
} Region;

typedef uint64_t V2 __attribute__((vector_size(16)));

/* off[l] = (base[l] + aoff) & wrap for the lanes of mask; returns whether
 * every one, aligned to size, lies with its size bytes in [start, start +
 * len).  a - start and len - size - (a - start) both stay below 2^63
 * exactly when a lane is inside, so the top bit of their OR over the lanes
 * says if any is not: one pass without branches, two lanes at a time for
 * a full warp. */
static inline int offsets_inside(uint32_t mask, const uint64_t *base, uint64_t aoff, uint64_t wrap, unsigned size,
                                 uint64_t start, uint64_t len, uint64_t *off) {
  uint64_t lim = len - size, bad = len < size ? 1ull << 63 : 0, bits = 0;
  if (mask == FULL) {
    V2 vbad = {0, 0}, vbits = {0, 0};
    const V2 va = {aoff, aoff}, vw = {wrap, wrap}, vs = {start, start}, vl = {lim, lim};
    for (int l = 0; l < 32; l += 2) {
      V2 v;
      memcpy(&v, base + l, sizeof v);
      v = (v + va) & vw;
      memcpy(off + l, &v, sizeof v);
      V2 rel = v - vs;
      vbad |= rel | (vl - rel);
      vbits |= v;
    }
    bad |= vbad[0] | vbad[1];
    bits = vbits[0] | vbits[1];
  } else {
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      uint64_t v = (base[l] + aoff) & wrap, rel = v - start;
      off[l] = v;
      bad |= rel | (lim - rel);
      bits |= v;
    }
  }
  return !(bad >> 63) && !(bits & (size - 1));
}

/* The fast path of resolve(), for global and shared accesses through a
 * base register: off[l] gets each lane's address; returns 1 with *rg set
 * when every lane is aligned and inside one buffer (the one this
 * instruction hit last, or the last access's, or one found for the warp)
 * or shared memory, else 0: the checked path decides. */
static inline int resolve_fast(Block *b, const EmuInstr *x, uint32_t mask, const uint64_t *base, uint64_t aoff,
                               unsigned size, uint64_t *off, Region *rg) {
  if (x->space == PTX_S_SHARED) {
    rg->data = b->shared, rg->origin = 0;
    return offsets_inside(mask, base, aoff, 0xffffffffull, size, 0, b->shared_size, off);
  }
  GBuf **memo = &b->buf_memo[(size_t)(x - b->p->code) % EMU_BUF_MEMO];
  GBuf *g = *memo ? *memo : b->last_buf;
  int in = offsets_inside(mask, base, aoff, UINT64_MAX, size, g ? g->addr : 0, g ? g->size : 0, off);
  if (!in) { /* one lookup for the warp */
    uint64_t lo = UINT64_MAX, hi = 0;
    LANES(mask, {
      lo = off[l] < lo ? off[l] : lo;
      hi = off[l] > hi ? off[l] : hi;
    });
    g = gmem_find(b->l->gmem, lo, hi + size - lo);
    if (!g || !offsets_inside(mask, base, aoff, UINT64_MAX, size, g->addr, g->size, off)) return 0;
  }
  b->last_buf = *memo = g;
  rg->data = g->data, rg->origin = g->addr;
  return 1;
}

/* Resolves every active lane's address base[l] + aoff (base NULL: aoff
 * for all) to a space and a host pointer:
 * off[l] gets its address in that space, ptr[l] where it is on the host.
 * Returns -1 after a fault, the space (> 0) when all lanes are in the
 * instruction's own space, or 0 when spaces[l] says each lane's (generic
 * addresses are mapped by the windows). */
static int resolve(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *base, uint64_t aoff,
                   int store, unsigned size, uint8_t **ptr, uint64_t *off, uint8_t *spaces) {
  Region rg;
  if (base && (x->space == PTX_S_GLOBAL || x->space == PTX_S_SHARED) &&
      resolve_fast(b, x, mask, base, aoff, size, off, &rg)) {
    LANES(mask, ptr[l] = rg.data + (off[l] - rg.origin));
    return x->space;
  }
  int first = -1; /* without a base register every lane has one address */
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (first >= 0 && spaces[first] != PTX_S_LOCAL &&
        !(spaces[first] == PTX_S_PARAM && (uint64_t)x->aoff >= PTX_PARAM_FRAME)) { /* per-thread spaces */
      ptr[l] = ptr[first], off[l] = off[first], spaces[l] = spaces[first];
      continue;
    }
    uint64_t a = (base ? base[l] : 0) + aoff;
    unsigned sp = x->space;
    if (sp == PTX_S_SHARED || sp == PTX_S_LOCAL || sp == PTX_S_CLUSTER) a &= 0xffffffffull;
    if (sp == PTX_S_GENERIC) {
      if (a - EMU_SHARED_WIN < EMU_WIN_SIZE) /* a peer's shared memory too (mapa.u64) */
        a -= EMU_SHARED_WIN, sp = a >> EMU_DSM_SHIFT ? PTX_S_CLUSTER : PTX_S_SHARED;
      else if (a - EMU_LOCAL_WIN < EMU_WIN_SIZE) sp = PTX_S_LOCAL, a -= EMU_LOCAL_WIN;
      else if (a - EMU_CONST_WIN < EMU_WIN_SIZE) sp = PTX_S_CONST, a -= EMU_CONST_WIN;
      else if (a - EMU_PARAM_WIN < EMU_WIN_SIZE) sp = PTX_S_PARAM, a -= EMU_PARAM_WIN;
      else sp = PTX_S_GLOBAL;
    }
    if ((size & (size - 1)) == 0 ? (a & (size - 1)) != 0 : a % size != 0)
      return emu_fault(b, x, warp, l, WM_EFAULT, "misaligned %s %s of %u bytes at 0x%" PRIx64
                   " (must be a multiple of %u)", ptx_space_name((PtxSpace)sp), op_word(x), size, a, size);
    uint8_t *p = NULL;
    switch (sp) {
    case PTX_S_GLOBAL:
      p = global_ptr(b, x, warp, l, a, size, store);
      if (!p) return -1;
      break;
    case PTX_S_SHARED:
      if (a + size > b->shared_size)
        return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds shared %s of %u bytes at offset %" PRIu64
                     ": the block has %u bytes of shared memory", op_word(x), size, a, b->shared_size);
      p = b->shared + a;
      break;
    case PTX_S_CLUSTER: { /* distributed shared memory: the block of the address's rank */
      Block *ob;
      uint32_t o;
      if (emu_dsm_locate(b, x, warp, l, a, size, &ob, &o)) return -1;
      p = ob->shared + o;
      /* the memory model's address: the offset, tagged with the peer's
       * rank (two peers' equal offsets are different sectors) */
      a = o | (uint64_t)(ob->crank + 1) << EMU_DSM_SHIFT;
      if (ob == b) sp = PTX_S_SHARED, a = o; /* its own: counted as shared memory (docs/clusters.md) */
      break;
    }
    case PTX_S_LOCAL:
      if (a + size > b->local_size)
        return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds local %s of %u bytes at offset %" PRIu64
                     ": each thread has %u bytes of local memory", op_word(x), size, a, b->local_size);
      p = b->local + ((size_t)warp * 32 + (size_t)l) * b->local_size + a;
      break;
    case PTX_S_CONST: {
      uint32_t cs = b->m->const_size;
      if (a + size > cs)
        return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds constant load of %u bytes at offset %" PRIu64
                     ": the module has %u bytes of __constant__ data", size, a, cs);
      p = b->l->const_mem + a;
      break;
    }
    case PTX_S_PARAM:
      if (a >= PTX_PARAM_FRAME) { /* a call's .param: in the thread's frame (ptx.h) */
        a -= PTX_PARAM_FRAME;
        if (a + size > b->local_size)
          return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds .param %s of %u bytes at frame offset %" PRIu64,
                           op_word(x), size, a);
        p = b->local + ((size_t)warp * 32 + (size_t)l) * b->local_size + a;
        ptr[l] = p, off[l] = a, spaces[l] = PTX_S_PARAM;
        if (!base) first = l;
        continue;
      }
      if (a + size > b->p->k->param_size)
        return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds parameter load at offset %" PRIu64
                     ": the kernel has %u bytes of parameters", a, b->p->k->param_size);
      p = (uint8_t *)b->l->params + a;
      break;
    default:
      return emu_fault(b, x, warp, l, WM_EUNSUP, "memory access to the %s space",
                   ptx_space_name((PtxSpace)sp));
    }
    if (store && (sp == PTX_S_CONST || sp == PTX_S_PARAM))
      return emu_fault(b, x, warp, l, WM_EFAULT, "%s to the read-only %s space", op_word(x),
                   ptx_space_name((PtxSpace)sp));
    ptr[l] = p;
    off[l] = a;
    spaces[l] = (uint8_t)sp;
    if (!base) first = l;
  }
  return first >= 0 ? spaces[first] : 0;
}

/* The cache operator as the memory model sees it: L1 and L2 (.ca, and .cs
 * and .lu, which allocate with evict-first), L2 only (.cg, .cv, and a
 * strong access above the block's scope: .volatile, .relaxed, .acquire,
 * .release at .gpu or .sys, which ptxas makes LDG/STG.STRONG.GPU or .SYS
 * and the L1, not coherent between SMs, does not serve: lab space_global's
 * 32,768 volatile load sectors all miss L1 on the H200 and the H100), or
 * the default (--loads). */
static uint8_t cache_op(uint16_t flags) {
  if (flags & (PTX_IF_CG | PTX_IF_CV)) return MEM_LOADS_CG;
  if ((flags & PTX_IF_VOLATILE) && !(flags & PTX_IF_CTA)) return MEM_LOADS_CG;
  if (flags & (PTX_IF_CA | PTX_IF_CS | PTX_IF_LU)) return MEM_LOADS_CA;
  return MEM_LOADS_DEFAULT;
}

/* 1 if the warp waited at a barrier since its last request to a traced
 * space (global or local; the cache's "in step"), which this one is. */
static uint8_t after_barrier(Block *b, unsigned space) {
  uint32_t bit = 1u << (b->cur_warp & 31);
  if (!(b->bar_since & bit) || (space != PTX_S_GLOBAL && space != PTX_S_LOCAL)) return 0;
  b->bar_since &= ~bit;
  return 1;
}

/* 1 if r, a strong load that bypasses L1, reads again what the warp's
 * previous strong load read (the same instruction and address, no store,
 * atomic or reduction of the warp between): a poll of a flag.  How often
 * the GPU polls depends on its timing, which the emulator does not have
 * (it may spin far longer); such repeats are counted as cached loads, so
 * that the first poll and one fill reach L2, not every poll (corpus
 * cg_grid on the H100:
 * grid_normalize, grid_scan and flag_chain read 0.51, 1.02 and 0.31 of the
 * measured L2 sectors so, 1.96, 2.78 and 7.01 with every poll sent).  A
 * store, atomic or reduction of the warp, in any space, ends its poll. */
static int repeated_poll(Block *b, const MemReq *r, uint32_t mask, const uint64_t *off) {
  unsigned w = b->cur_warp & 31;
  if (r->op != MEM_LD) {
    b->poll_instr[w] = -1;
    return 0;
  }
  if (r->cache != MEM_LOADS_CG || !mask) return 0;
  uint64_t a = off[__builtin_ctz(mask)];
  int again = b->poll_instr[w] == r->instr && b->poll_addr[w] == a;
  b->poll_instr[w] = r->instr, b->poll_addr[w] = a;
  return again;
}

/* Hands the request to the memory model, split by space when a generic
 * access spans several. */
static void model(Block *b, const EmuInstr *x, uint32_t mask, const uint64_t *off,
                  const uint8_t *spaces, int uniform, unsigned size, unsigned elem) {
  static const uint8_t kind[PTX_OP_COUNT] = {[PTX_OP_LD] = MEM_LD, [PTX_OP_LDU] = MEM_LD,
                                             [PTX_OP_ST] = MEM_ST, [PTX_OP_ATOM] = MEM_ATOM,
                                             [PTX_OP_RED] = MEM_RED, [PTX_OP_LDMATRIX] = MEM_LDSM,
                                             [PTX_OP_STMATRIX] = MEM_STSM, [PTX_OP_WMMA_LOAD] = MEM_LD,
                                             [PTX_OP_WMMA_STORE] = MEM_ST};
  if (!b->mm) return; /* functional: no model */
  MemReq r = {.op = kind[x->op], .size = (uint8_t)size, .elem = (uint8_t)elem, .addr = off,
              .instr = (int)(x - b->p->code), .warp = b->cur_warp, .cache = cache_op(x->flags)};
  r.after_bar = after_barrier(b, uniform ? (unsigned)uniform : spaces[__builtin_ctz(mask)]);
  emu_clock_stamp(b, &r);
  if (repeated_poll(b, &r, mask, off)) r.cache = MEM_LOADS_DEFAULT;
  r.part = b->mem_next;
  b->mem_next = b->mem_multi;
  if (uniform) { /* all lanes in one space */
    r.space = (uint8_t)uniform;
    r.mask = mask;
    if (r.space != PTX_S_PARAM) mem_access(b->mm, &r);
    return;
  }
  LANES(mask, r.with_own |= spaces[l] == PTX_S_SHARED);
  while (mask) {
    unsigned sp = spaces[__builtin_ctz(mask)];
    uint32_t same = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      if (spaces[l] == sp) same |= 1u << l;
    }
    if (sp != PTX_S_PARAM) {
      r.space = (uint8_t)sp;
      r.mask = same;
      mem_access(b->mm, &r);
      r.part = 1;
    }
    mask &= ~same;
  }
}

/* The first load of a fused group (EmuFuse): one 16-byte request if every
 * lane's address is 16-byte aligned, as LDS.128 requires; otherwise the
 * four 4-byte requests the group is made of. */
static void model_fused4(Block *b, const EmuInstr *x, uint32_t mask, const uint64_t *off, const uint8_t *spaces,
                         int uniform) {
  uint64_t bad = 0;
  LANES(mask, bad |= off[l] & 15);
  if (!bad && uniform) {
    model(b, x, mask, off, spaces, uniform, 16, 4);
    return;
  }
  uint64_t word[32];
  for (unsigned w = 0; w < 4; w++) {
    LANES(mask, word[l] = off[l] + 4 * w);
    model(b, x, mask, word, spaces, uniform, 4, 4);
  }
}

typedef EmuWhere Where;

static int locate(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *R, unsigned size,
                  Where *w) {
  const uint64_t *base = x->abase == EMU_NOSLOT ? NULL : R + (size_t)x->abase * 32;
  int store = x->op != PTX_OP_LD && x->op != PTX_OP_LDU;
  w->uniform = resolve(b, x, warp, mask, base, (uint64_t)x->aoff, store, size, w->ptr, w->off, w->spaces);
  return w->uniform < 0 ? -1 : 0;
}

int emu_mem_locate(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *addr, unsigned size,
                   int store, EmuWhere *w) {
  w->uniform = resolve(b, x, warp, mask, addr, 0, store, size, w->ptr, w->off, w->spaces);
  return w->uniform < 0 ? -1 : 0;
}

void emu_mem_model(Block *b, const EmuInstr *x, uint32_t mask, const EmuWhere *w, unsigned size, unsigned elem) {
  model(b, x, mask, w->off, w->spaces, w->uniform, size, elem);
}

/* Lane l's element of a load: elem bytes at p, sign-extended if sign. */
static inline uint64_t load_elem(const uint8_t *p, unsigned elem, int sign) {
  uint64_t t = 0;
  memcpy(&t, p, elem);
  return sign ? (uint64_t)sext(t, elem) : t;
}

/* Loads element v of every lane into d, from where the lanes' addresses
 * are: ptr[l] (AT(l) = ptr[l] + o) or one region (rg.data + off[l] -
 * rg.origin + o); fixed sizes, so memcpy becomes one move. */
#define LOAD_LANES(AT)                                                          \
  switch (elem) {                                                               \
  case 4: {                                                                     \
    uint32_t t;                                                                 \
    if (sign) LANES(mask, { memcpy(&t, AT(l), 4); d[l] = (uint64_t)(int64_t)(int32_t)t; }); \
    else LANES(mask, { memcpy(&t, AT(l), 4); d[l] = t; });                      \
    break;                                                                      \
  }                                                                             \
  case 8: LANES(mask, memcpy(&d[l], AT(l), 8)); break;                          \
  default: LANES(mask, d[l] = load_elem(AT(l), elem, sign));                    \
  }
#define AT_PTR(l) (at.ptr[l] + o)
#define AT_REGION(l) (rg.data + (at.off[l] - rg.origin) + o)

/* ld from an address without a base register (a parameter, a variable):
 * one lane's access, its value for all.  Returns 1 when done (0 or -1 in
 * *rc), 0 when the space is per thread (local, a call's parameters) and
 * every lane must be resolved. */
static int ld_uniform(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R, unsigned elem, int *rc) {
  unsigned size = elem * x->vec;
  int sign = ptx_type_is_signed((PtxType)x->type), l0 = __builtin_ctz(mask);
  Where at;
  int sp = resolve(b, x, warp, mask & -mask, NULL, (uint64_t)x->aoff, 0, size, at.ptr, at.off, at.spaces);
  if (sp < 0) return *rc = -1, 1;
  if (sp == PTX_S_LOCAL || (sp == PTX_S_PARAM && (uint64_t)x->aoff >= PTX_PARAM_FRAME)) return 0;
  for (unsigned v = 0; v < x->vec; v++) {
    if (x->d[v] == EMU_NOSLOT) continue;
    uint64_t *d = R + (size_t)x->d[v] * 32, val = load_elem(at.ptr[l0] + v * elem, elem, sign);
    LANES(mask, d[l] = val);
  }
  if (sp == PTX_S_PARAM && x->fuse == FUSE_NONE) return *rc = 0, 1; /* model() takes no parameter reads */
  uint64_t a0 = at.off[l0];
  LANES(mask, at.off[l] = a0);
  if (x->fuse == FUSE_NONE) model(b, x, mask, at.off, at.spaces, sp, size, elem);
  else if (x->fuse == FUSE_LEAD4) model_fused4(b, x, mask, at.off, at.spaces, sp);
  return *rc = 0, 1;
}

/* An ld or atom that read a peer block's memory (a lane in PTX_S_CLUSTER;
 * its own is PTX_S_SHARED): the warp waits the peer's round trip, longer
 * than its own memory's (emu_latency.c). */
static void wait_for_peer(Block *b, const EmuInstr *x, int warp, uint32_t mask, const Where *at) {
  int peer = at->uniform == PTX_S_CLUSTER;
  if (!at->uniform) LANES(mask, peer |= at->spaces[l] == PTX_S_CLUSTER);
  if (!peer) return;
  b->warps[warp].now += x->peer_clocks;
  b->warp_clocks += x->peer_clocks;
}

int emu_exec_ld(EMU_EXEC_ARGS) {
  unsigned elem = ptx_type_size((PtxType)x->type), size = elem * x->vec;
  int rc, sign = ptx_type_is_signed((PtxType)x->type);
  if (x->abase == EMU_NOSLOT && !b->async && ld_uniform(b, x, warp, mask, R, elem, &rc)) return rc;
  Where at;
  Region rg;
  int fast = x->abase != EMU_NOSLOT && (x->space == PTX_S_GLOBAL || x->space == PTX_S_SHARED) &&
             resolve_fast(b, x, mask, R + (size_t)x->abase * 32, (uint64_t)x->aoff, size, at.off, &rg);
  if (fast) at.uniform = x->space;
  else if (locate(b, x, warp, mask, R, size, &at)) return -1;
  if (b->async && (at.uniform == PTX_S_SHARED || at.uniform == 0) &&
      emu_async_check_read(b, x, warp, mask, at.off, at.spaces, at.uniform, size))
    return -1;
  for (unsigned v = 0; v < x->vec; v++) {
    if (x->d[v] == EMU_NOSLOT) continue;
    uint64_t *d = R + (size_t)x->d[v] * 32;
    unsigned o = v * elem;
    if (fast) {
      LOAD_LANES(AT_REGION)
    } else {
      LOAD_LANES(AT_PTR)
    }
  }
  if (x->peer_clocks) wait_for_peer(b, x, warp, mask, &at);
  if (x->fuse == FUSE_NONE) model(b, x, mask, at.off, at.spaces, at.uniform, size, elem);
  else if (x->fuse == FUSE_LEAD4) model_fused4(b, x, mask, at.off, at.spaces, at.uniform);
  return 0;
}

/* Stores element v of every lane, as LOAD_LANES loads. */
#define STORE_LANES(AT)                                                         \
  switch (elem) {                                                               \
  case 4: LANES(mask, { uint32_t t = (uint32_t)s[l]; memcpy(AT(l), &t, 4); }); break; \
  case 8: LANES(mask, memcpy(AT(l), &s[l], 8)); break;                          \
  default: LANES(mask, memcpy(AT(l), &s[l], elem));                             \
  }

int emu_exec_st(EMU_EXEC_ARGS) {
  unsigned elem = ptx_type_size((PtxType)x->type), size = elem * x->vec;
  Where at;
  Region rg;
  int fast = x->abase != EMU_NOSLOT && (x->space == PTX_S_GLOBAL || x->space == PTX_S_SHARED) &&
             resolve_fast(b, x, mask, R + (size_t)x->abase * 32, (uint64_t)x->aoff, size, at.off, &rg);
  if (fast) at.uniform = x->space;
  else if (locate(b, x, warp, mask, R, size, &at)) return -1;
  for (unsigned v = 0; v < x->vec; v++) {
    const uint64_t *s = R + (size_t)x->s[v] * 32;
    unsigned o = v * elem;
    if (fast) {
      STORE_LANES(AT_REGION)
    } else {
      STORE_LANES(AT_PTR)
    }
  }
  model(b, x, mask, at.off, at.spaces, at.uniform, size, elem);
  return 0;
}

/* The value an atomic operation stores, given the old one. */
static uint64_t atomic_value(const EmuInstr *x, unsigned size, uint64_t old, uint64_t bv, uint64_t cv) {
  Class c = tclass(x->type);
  int half = c == C_F && x->type != PTX_T_F32 && x->type != PTX_T_F64; /* f16, bf16, their pairs */
  if (half && (x->sub == PTX_SUB_AADD || x->sub == PTX_SUB_AMIN || x->sub == PTX_SUB_AMAX))
    return emu_half_atomic(x, (uint32_t)old, (uint32_t)bv);
  switch (x->sub) {
  case PTX_SUB_AADD:
    if (c == C_F) return size == 4 ? B32(F32(old) + F32(bv)) : B64(F64(old) + F64(bv));
    return old + bv;
  case PTX_SUB_AMIN:
  case PTX_SUB_AMAX: {
    int lt;
    if (c == C_F) lt = size == 4 ? F32(old) < F32(bv) : F64(old) < F64(bv);
    else if (c == C_S) lt = sext(old, size) < sext(bv, size);
    else lt = zext(old, size) < zext(bv, size);
    return (x->sub == PTX_SUB_AMIN) == lt ? old : bv;
  }
  case PTX_SUB_AINC: return zext(old, size) >= zext(bv, size) ? 0 : old + 1;
  case PTX_SUB_ADEC: return (zext(old, size) == 0 || zext(old, size) > zext(bv, size)) ? bv : old - 1;
  case PTX_SUB_AEXCH: return bv;
  case PTX_SUB_ACAS: return zext(old, size) == zext(bv, size) ? cv : old;
  case PTX_SUB_AAND: return old & bv;
  case PTX_SUB_AOR: return old | bv;
  case PTX_SUB_AXOR: return old ^ bv;
  default: return old;
  }
}

/* Blocks run on several host threads, so an update of memory they share
 * must be atomic on the host too: a compare-and-swap loop of the word's
 * width (1, 2, 4 or 8 bytes, naturally aligned); another size plainly. */
#define CAS_UPDATE(T)                                                                           \
  do {                                                                                          \
    T *w = p, old = __atomic_load_n(w, __ATOMIC_RELAXED);                                       \
    while (!__atomic_compare_exchange_n(w, &old, (T)f(old, ctx), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                                           \
    return old;                                                                                 \
  } while (0)

uint64_t emu_atomic_update(void *p, unsigned size, EmuUpdate f, const void *ctx) {
  switch (size) {
  case 1: CAS_UPDATE(uint8_t);
  case 2: CAS_UPDATE(uint16_t); /* atom.cas.b16, the f16 and bf16 atomics */
  case 4: CAS_UPDATE(uint32_t);
  case 8: CAS_UPDATE(uint64_t);
  default: {
    uint64_t old = 0, nv;
    memcpy(&old, p, size);
    nv = f(old, ctx);
    memcpy(p, &nv, size);
    return old;
  }
  }
}

typedef struct AtomArgs {
  const EmuInstr *x;
  unsigned size;
  uint64_t bv, cv;
} AtomArgs;

static uint64_t atom_update(uint64_t old, const void *ctx) {
  const AtomArgs *a = ctx;
  return atomic_value(a->x, a->size, old, a->bv, a->cv);
}

/* One lane's atomic read-modify-write; returns the old value. */
static uint64_t atomic_apply(const EmuInstr *x, uint8_t *p, uint64_t bv, uint64_t cv) {
  AtomArgs a = {x, ptx_type_size((PtxType)x->type), bv, cv};
  return emu_atomic_update(p, a.size, atom_update, &a);
}

/* The packets of an atomic's lanes in peer blocks, into the warp's clock. */
static void send_to_peers(Block *b, const EmuInstr *x, int warp, uint32_t mask, const Where *at, unsigned size) {
  uint32_t peers = at->uniform == PTX_S_CLUSTER ? mask : 0;
  if (!at->uniform) LANES(mask, peers |= (uint32_t)(at->spaces[l] == PTX_S_CLUSTER) << l);
  if (peers) emu_clock_dsm_send(b, warp, mem_atomic_sectors(at->off, peers, size), x->op == PTX_OP_ATOM);
}

int emu_exec_atom(EMU_EXEC_ARGS) {
  unsigned size = ptx_type_size((PtxType)x->type);
  Where at;
  if (x->sub < PTX_SUB_AADD || x->sub > PTX_SUB_AXOR)
    return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP, "atomic operation not supported");
  if (locate(b, x, warp, mask, R, size, &at)) return -1;
  const uint64_t *bs = R + (size_t)x->s[0] * 32;
  const uint64_t *cs = x->s[1] != EMU_NOSLOT ? R + (size_t)x->s[1] * 32 : bs;
  uint64_t *d = x->d[0] != EMU_NOSLOT && x->op == PTX_OP_ATOM ? R + (size_t)x->d[0] * 32 : NULL;
  /* lanes in order: the result a real GPU gives is one of the orders */
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t old = atomic_apply(x, at.ptr[l], bs[l], cs[l]);
    if (d) d[l] = old;
  }
  /* a reduction ptxas aggregates reaches memory from one lane */
  uint32_t sent = x->fuse == FUSE_AGGREGATE ? mask & -mask : mask;
  if (b->clocked) send_to_peers(b, x, warp, sent, &at, size);
  if (x->peer_clocks) wait_for_peer(b, x, warp, mask, &at);
  model(b, x, sent, at.off, at.spaces, at.uniform, size, size);
  return 0;
}

/* For the built-ins (printf's strings, assert's message): generic address
 * a through the windows, bounds-checked, without the memory model. */
const uint8_t *emu_device_ptr(Block *b, int warp, int lane, uint64_t a, size_t n, size_t *avail) {
  uint64_t lim;
  const uint8_t *base;
  if (a - EMU_SHARED_WIN < EMU_WIN_SIZE) {
    a -= EMU_SHARED_WIN, base = b->shared, lim = b->shared_size;
  } else if (a - EMU_LOCAL_WIN < EMU_WIN_SIZE) {
    a -= EMU_LOCAL_WIN, base = b->local + ((size_t)warp * 32 + (size_t)lane) * b->local_size, lim = b->local_size;
  } else if (a - EMU_CONST_WIN < EMU_WIN_SIZE) {
    a -= EMU_CONST_WIN, base = b->l->const_mem, lim = b->m->const_size;
  } else if (a - EMU_PARAM_WIN < EMU_WIN_SIZE) { /* the kernel's own parameters (not a call's frame) */
    a -= EMU_PARAM_WIN, base = b->l->params, lim = b->p->k->param_size;
  } else {
    const GBuf *g = gmem_find(b->l->gmem, a, n);
    if (!g) return NULL;
    *avail = (size_t)(g->addr + g->size - a);
    return g->data + (a - g->addr);
  }
  if (!base || a + n > lim) return NULL;
  *avail = (size_t)(lim - a);
  return base + a;
}
