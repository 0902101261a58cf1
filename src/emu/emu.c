/* emu.c - the SIMT emulator.
 *
 * Notes:
 *  - A block's warps run one at a time, each until it waits at a barrier,
 *    exits, or has run EMU_SLICE instructions (so a warp spinning on a flag
 *    another warp sets still lets that warp run).  Counters do not depend on
 *    the interleaving: the memory model sees every request, in a fixed,
 *    deterministic order.
 *  - Each decoded instruction runs all 32 lanes of the warp in one loop over
 *    lane-contiguous registers (R[slot*32 + lane], 64 bits each; an
 *    instruction reads only the low bits of its operand type).
 *  - Divergence: a SIMT stack of (pc, reconvergence pc, mask) entries;
 *    lanes reconverge at the immediate post-dominator (emu_prepare.c).
 *  - Barriers count threads, as on Volta and later: bar.sync completes when
 *    the arrived threads (plus, without an explicit count, the threads that
 *    have exited) reach the block's size.  A warp waits as a whole: if only
 *    some of its lanes reach bar.sync, the others cannot run until the
 *    barrier completes (pre-Volta semantics); a barrier that can then never
 *    complete is reported as a deadlock.
 *  - Floating point follows C on the host: .rn arithmetic is exact IEEE,
 *    .rz/.rm/.rp arithmetic runs in that host rounding mode;
 *    .approx functions use the C library (close to, not bit-equal with, the
 *    GPU's).  .ftz flushes f32 subnormal inputs and results to zero.
 */
#include <fenv.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_int.h"
#include "util/bits.h"

#define FULL 0xffffffffu
#define EMU_SLICE 100000
#define EMU_STACK_MAX 1024

typedef struct SimtEntry {
  uint32_t pc, rpc, mask;
} SimtEntry;

enum { W_READY, W_WAIT, W_DONE };

typedef struct Warp {
  int state;
  uint32_t exists;    /* lanes that are threads of the block */
  uint32_t exited;
  SimtEntry *stack;
  int sp;
  uint64_t *R;        /* [nslots * 32] */
  int bar_id;         /* barrier waited at */
  uint32_t bar_pc;
  uint32_t red_dst;   /* bar.red: slot that gets the block-wide result */
  uint32_t red_mask;  /* bar.red: lanes that get it */
  uint8_t red_kind;   /* bar.red: PTX_SUB_RED_*, 0 if none */
} Warp;

typedef struct Block {
  EmuLaunch *l;
  const EmuProgram *p;
  const PtxModule *m;
  uint32_t ctaid[3];
  uint32_t nthreads, nwarps;
  Warp *warps;
  uint8_t *shared;
  uint32_t shared_size;
  uint8_t *local;     /* [nthreads * local_size] */
  uint32_t local_size;
  uint32_t bar_arrived[16];
  uint32_t bar_expected[16]; /* 0: all live threads */
  uint32_t bar_popc[16];     /* bar.red accumulators */
  uint8_t bar_all[16], bar_any[16];
  uint32_t exited_threads;
  uint64_t warp_instrs, thread_instrs;
  uint64_t *regs;     /* the warps' register files */
  int sregs_ready;    /* launch-wide special registers are in place */
  GBuf *last_buf;     /* the buffer the last global access hit */
  MemModel *mm;       /* this worker's statistics, or NULL */
  uint16_t cur_warp;  /* the warp running now (for the cache trace) */
  WmErr *e;
  int failed;
} Block;

/* --- value helpers --- */

/* short names: the arithmetic below uses them on every line */
#define F32 wm_f32
#define B32 wm_f32_bits
#define F64 wm_f64
#define B64 wm_f64_bits
static inline float ftz32(float f) {
  return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* Sign- or zero-extends the low `size` bytes of v. */
static inline int64_t sext(uint64_t v, unsigned size) {
  switch (size) {
  case 1: return (int8_t)v;
  case 2: return (int16_t)v;
  case 4: return (int32_t)v;
  default: return (int64_t)v;
  }
}
static inline uint64_t zext(uint64_t v, unsigned size) {
  return size >= 8 ? v : v & ((1ull << (size * 8)) - 1);
}

/* Population count without a libgcc call (the build targets baseline
 * x86-64, which has no popcnt instruction). */
static inline uint32_t popc32(uint32_t v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

typedef enum { C_U, C_S, C_F, C_P } Class;
static inline Class tclass(unsigned t) {
  if (t == PTX_T_PRED) return C_P;
  if (ptx_type_is_float((PtxType)t)) return C_F;
  if (ptx_type_is_signed((PtxType)t)) return C_S;
  return C_U;
}

#define LANES(mask, body)                                            \
  do {                                                               \
    if ((mask) == FULL) {                                            \
      for (int l = 0; l < 32; l++) { body; }                         \
    } else {                                                         \
      for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {                 \
        int l = __builtin_ctz(m_);                                   \
        body;                                                        \
      }                                                              \
    }                                                                \
  } while (0)

/* --- faults --- */

/* "PTX file.ptx:LINE", or "PTX line LINE" for PTX that nvcc made from a .cu
 * (there is no file to open). */
static void ptx_where(const PtxModule *m, uint32_t line, char *buf, size_t n) {
  size_t len = strlen(m->path);
  if (len > 3 && !strcmp(m->path + len - 3, ".cu")) snprintf(buf, n, "PTX line %u", line);
  else snprintf(buf, n, "PTX %s:%u", m->path, line);
}

static void thread_of(const Block *b, int warp, int lane, uint32_t t[3]) {
  const uint32_t *bd = b->l->block;
  uint32_t lin = (uint32_t)warp * 32 + (uint32_t)lane;
  t[0] = lin % bd[0];
  t[1] = lin / bd[0] % bd[1];
  t[2] = lin / (bd[0] * bd[1]);
}

static int fault(Block *b, const EmuInstr *x, int warp, int lane, int code, const char *fmt, ...)
  __attribute__((format(printf, 6, 7)));

static int fault(Block *b, const EmuInstr *x, int warp, int lane, int code, const char *fmt, ...) {
  if (b->failed) return -1;
  b->failed = 1;
  char what[1024], text[256], where[512] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  int pc = (int)(x - b->p->code);
  const PtxInstr *in = pc < b->p->ncode ? &b->p->k->code[pc] : NULL;
  uint32_t t[3];
  thread_of(b, warp, lane, t);
  if (in) {
    ptx_instr_text(b->m, in, text, sizeof text);
    const char *cu = ptx_cu_file(b->m, in);
    const char *base = strrchr(cu, '/');
    if (in->cu_line)
      snprintf(where, sizeof where, "%s:%u, ", base ? base + 1 : cu, in->cu_line);
    char ptxw[512];
    ptx_where(b->m, in->ptx_line, ptxw, sizeof ptxw);
    wm_err(b->e, code,
           "%s\n  kernel %s, %s%s: %s\n  block (%u,%u,%u), thread (%u,%u,%u) (warp %d, lane %d)",
           what, b->p->k->name, where, ptxw, text, b->ctaid[0], b->ctaid[1],
           b->ctaid[2], t[0], t[1], t[2], warp, lane);
  } else {
    wm_err(b->e, code, "%s\n  kernel %s, block (%u,%u,%u), thread (%u,%u,%u)", what,
           b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], t[0], t[1], t[2]);
  }
  return -1;
}

/* --- memory --- */

/* Where a lane's access lands on the host, or NULL after reporting a fault. */
static uint8_t *global_ptr(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a,
                           unsigned size, int store) {
  GBuf *g = b->last_buf;
  if (!g || a < g->addr || a + size > g->addr + g->size) {
    g = gmem_find(b->l->gmem, a, size);
    if (!g) {
      const GBuf *n = gmem_nearest(b->l->gmem, a);
      char near[256] = "no buffers are allocated";
      if (n) {
        if (a >= n->addr + n->size || a + size > n->addr + n->size)
          snprintf(near, sizeof near, "%" PRIu64 " bytes past the end of %s (%" PRIu64
                   " bytes at 0x%" PRIx64 ")", a + size - (n->addr + n->size), n->name, n->size, n->addr);
        else
          snprintf(near, sizeof near, "%" PRIu64 " bytes before %s (%" PRIu64 " bytes at 0x%" PRIx64 ")",
                   n->addr - a, n->name, n->size, n->addr);
      }
      fault(b, x, warp, lane, WM_EFAULT, "out-of-bounds global %s of %u bytes at 0x%" PRIx64 ": %s",
            store ? "store" : "load", size, a, near);
      return NULL;
    }
    b->last_buf = g;
  }
  return g->data + (a - g->addr);
}

static const char *op_word(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_ST: return "store";
  case PTX_OP_ATOM: return "atomic";
  case PTX_OP_RED: return "reduction";
  default: return "load";
  }
}

/* Resolves every active lane's address to a space and a host pointer:
 * off[l] gets its address in that space, ptr[l] where it is on the host.
 * Returns -1 after a fault, the space (> 0) when all lanes are in the
 * instruction's own space, or 0 when spaces[l] says each lane's (generic
 * addresses are mapped by the windows). */
static int resolve(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *R,
                   unsigned size, uint8_t **ptr, uint64_t *off, uint8_t *spaces) {
  const uint64_t *base = x->abase == EMU_NOSLOT ? NULL : R + (size_t)x->abase * 32;
  int store = x->op != PTX_OP_LD && x->op != PTX_OP_LDU;
  if (base && (x->space == PTX_S_GLOBAL || x->space == PTX_S_SHARED)) {
    /* fast path: every lane aligned and inside the buffer the last access
     * hit (or inside shared memory); anything else takes the checked path */
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0, aoff = (uint64_t)x->aoff;
    uint64_t wrap = x->space == PTX_S_SHARED ? 0xffffffffull : UINT64_MAX;
    LANES(mask, {
      uint64_t a = (base[l] + aoff) & wrap;
      off[l] = a;
      bits |= a;
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    });
    if ((bits & (size - 1)) == 0) {
      uint8_t *data = NULL;
      uint64_t origin = 0;
      if (x->space == PTX_S_SHARED) {
        if (hi + size <= b->shared_size) data = b->shared;
      } else {
        GBuf *g = b->last_buf;
        if (!g || lo < g->addr || hi + size > g->addr + g->size) {
          /* kernels alternate between buffers: one lookup for the warp */
          g = gmem_find(b->l->gmem, lo, hi + size - lo);
          if (g) b->last_buf = g;
        }
        if (g) data = g->data, origin = g->addr;
      }
      if (data) {
        LANES(mask, ptr[l] = data + (off[l] - origin));
        return x->space;
      }
    }
  }
  int first = -1; /* without a base register every lane has one address */
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (first >= 0 && spaces[first] != PTX_S_LOCAL) {
      ptr[l] = ptr[first], off[l] = off[first], spaces[l] = spaces[first];
      continue;
    }
    uint64_t a = (base ? base[l] : 0) + (uint64_t)x->aoff;
    unsigned sp = x->space;
    if (sp == PTX_S_SHARED || sp == PTX_S_LOCAL) a &= 0xffffffffull;
    if (sp == PTX_S_GENERIC) {
      if (a - EMU_SHARED_WIN < EMU_WIN_SIZE) sp = PTX_S_SHARED, a -= EMU_SHARED_WIN;
      else if (a - EMU_LOCAL_WIN < EMU_WIN_SIZE) sp = PTX_S_LOCAL, a -= EMU_LOCAL_WIN;
      else if (a - EMU_CONST_WIN < EMU_WIN_SIZE) sp = PTX_S_CONST, a -= EMU_CONST_WIN;
      else sp = PTX_S_GLOBAL;
    }
    if ((size & (size - 1)) == 0 ? (a & (size - 1)) != 0 : a % size != 0)
      return fault(b, x, warp, l, WM_EFAULT, "misaligned %s %s of %u bytes at 0x%" PRIx64
                   " (must be a multiple of %u)", ptx_space_name((PtxSpace)sp), op_word(x), size, a, size);
    uint8_t *p = NULL;
    switch (sp) {
    case PTX_S_GLOBAL:
      p = global_ptr(b, x, warp, l, a, size, store);
      if (!p) return -1;
      break;
    case PTX_S_SHARED:
      if (a + size > b->shared_size)
        return fault(b, x, warp, l, WM_EFAULT, "out-of-bounds shared %s of %u bytes at offset %" PRIu64
                     ": the block has %u bytes of shared memory", op_word(x), size, a, b->shared_size);
      p = b->shared + a;
      break;
    case PTX_S_LOCAL:
      if (a + size > b->local_size)
        return fault(b, x, warp, l, WM_EFAULT, "out-of-bounds local %s of %u bytes at offset %" PRIu64
                     ": each thread has %u bytes of local memory", op_word(x), size, a, b->local_size);
      p = b->local + ((size_t)warp * 32 + (size_t)l) * b->local_size + a;
      break;
    case PTX_S_CONST: {
      uint32_t cs = b->m->const_size;
      if (a + size > cs)
        return fault(b, x, warp, l, WM_EFAULT, "out-of-bounds constant load of %u bytes at offset %" PRIu64
                     ": the module has %u bytes of __constant__ data", size, a, cs);
      p = b->l->const_mem + a;
      break;
    }
    case PTX_S_PARAM:
      if (a + size > b->p->k->param_size)
        return fault(b, x, warp, l, WM_EFAULT, "out-of-bounds parameter load at offset %" PRIu64
                     ": the kernel has %u bytes of parameters", a, b->p->k->param_size);
      p = (uint8_t *)b->l->params + a;
      break;
    default:
      return fault(b, x, warp, l, WM_EUNSUP, "memory access to the %s space",
                   ptx_space_name((PtxSpace)sp));
    }
    if (store && (sp == PTX_S_CONST || sp == PTX_S_PARAM))
      return fault(b, x, warp, l, WM_EFAULT, "%s to the read-only %s space", op_word(x),
                   ptx_space_name((PtxSpace)sp));
    ptr[l] = p;
    off[l] = a;
    spaces[l] = (uint8_t)sp;
    if (!base) first = l;
  }
  return first >= 0 ? spaces[first] : 0;
}

/* The cache operator as the memory model sees it: L1 and L2 (.ca, and .cs
 * and .lu, which allocate with evict-first), L2 only (.cg, .cv), or the
 * default (--loads). */
static uint8_t cache_op(uint16_t flags) {
  if (flags & (PTX_IF_CG | PTX_IF_CV)) return MEM_LOADS_CG;
  if (flags & (PTX_IF_CA | PTX_IF_CS | PTX_IF_LU)) return MEM_LOADS_CA;
  return MEM_LOADS_DEFAULT;
}

/* Hands the request to the memory model, split by space when a generic
 * access spans several. */
static void model(Block *b, const EmuInstr *x, uint32_t mask, const uint64_t *off,
                  const uint8_t *spaces, int uniform, unsigned size, unsigned elem) {
  static const uint8_t kind[PTX_OP_COUNT] = {[PTX_OP_LD] = MEM_LD, [PTX_OP_LDU] = MEM_LD,
                                             [PTX_OP_ST] = MEM_ST, [PTX_OP_ATOM] = MEM_ATOM,
                                             [PTX_OP_RED] = MEM_RED};
  MemReq r = {.op = kind[x->op], .size = (uint8_t)size, .elem = (uint8_t)elem, .addr = off,
              .instr = (int)(x - b->p->code), .warp = b->cur_warp, .cache = cache_op(x->flags)};
  if (uniform) { /* all lanes in one space */
    r.space = (uint8_t)uniform;
    r.mask = mask;
    if (b->mm && r.space != PTX_S_PARAM) mem_access(b->mm, &r);
    return;
  }
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
      if (b->mm) mem_access(b->mm, &r);
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

static int exec_ld(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R) {
  unsigned elem = ptx_type_size((PtxType)x->type), size = elem * x->vec;
  uint8_t *ptr[32];
  uint64_t off[32];
  uint8_t spaces[32];
  int uniform = resolve(b, x, warp, mask, R, size, ptr, off, spaces);
  if (uniform < 0) return -1;
  int sign = ptx_type_is_signed((PtxType)x->type);
  for (unsigned v = 0; v < x->vec; v++) {
    if (x->d[v] == EMU_NOSLOT) continue;
    uint64_t *d = R + (size_t)x->d[v] * 32;
    unsigned o = v * elem;
    switch (elem) { /* fixed sizes, so memcpy becomes one move */
    case 4: {
      uint32_t t;
      if (sign) LANES(mask, { memcpy(&t, ptr[l] + o, 4); d[l] = (uint64_t)(int64_t)(int32_t)t; });
      else LANES(mask, { memcpy(&t, ptr[l] + o, 4); d[l] = t; });
      break;
    }
    case 8: LANES(mask, memcpy(&d[l], ptr[l] + o, 8)); break;
    default:
      LANES(mask, {
        uint64_t t = 0;
        memcpy(&t, ptr[l] + o, elem);
        d[l] = sign ? (uint64_t)sext(t, elem) : t;
      });
    }
  }
  if (x->fuse == FUSE_NONE) model(b, x, mask, off, spaces, uniform, size, elem);
  else if (x->fuse == FUSE_LEAD4) model_fused4(b, x, mask, off, spaces, uniform);
  return 0;
}

static int exec_st(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R) {
  unsigned elem = ptx_type_size((PtxType)x->type), size = elem * x->vec;
  uint8_t *ptr[32];
  uint64_t off[32];
  uint8_t spaces[32];
  int uniform = resolve(b, x, warp, mask, R, size, ptr, off, spaces);
  if (uniform < 0) return -1;
  for (unsigned v = 0; v < x->vec; v++) {
    const uint64_t *s = R + (size_t)x->s[v] * 32;
    unsigned o = v * elem;
    switch (elem) {
    case 4: LANES(mask, { uint32_t t = (uint32_t)s[l]; memcpy(ptr[l] + o, &t, 4); }); break;
    case 8: LANES(mask, memcpy(ptr[l] + o, &s[l], 8)); break;
    default: LANES(mask, memcpy(ptr[l] + o, &s[l], elem));
    }
  }
  model(b, x, mask, off, spaces, uniform, size, elem);
  return 0;
}

/* The value an atomic operation stores, given the old one. */
static uint64_t atomic_value(const EmuInstr *x, unsigned size, uint64_t old, uint64_t bv, uint64_t cv) {
  Class c = tclass(x->type);
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

/* One lane's atomic read-modify-write; returns the old value.  Blocks run on
 * several host threads, so global atomics must be atomic on the host too. */
static uint64_t atomic_apply(const EmuInstr *x, uint8_t *p, uint64_t bv, uint64_t cv) {
  unsigned size = ptx_type_size((PtxType)x->type);
  if (size == 4) {
    uint32_t *w = (uint32_t *)(void *)p, old = __atomic_load_n(w, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(w, &old, (uint32_t)atomic_value(x, 4, old, bv, cv), 0,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
  }
  if (size == 8) {
    uint64_t *w = (uint64_t *)(void *)p, old = __atomic_load_n(w, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(w, &old, atomic_value(x, 8, old, bv, cv), 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
    }
    return old;
  }
  uint64_t old = 0, nv;
  memcpy(&old, p, size);
  nv = atomic_value(x, size, old, bv, cv);
  memcpy(p, &nv, size);
  return old;
}

static int exec_atom(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R) {
  unsigned size = ptx_type_size((PtxType)x->type);
  uint8_t *ptr[32];
  uint64_t off[32];
  uint8_t spaces[32];
  if (x->sub < PTX_SUB_AADD || x->sub > PTX_SUB_AXOR)
    return fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP, "atomic operation not supported");
  int uniform = resolve(b, x, warp, mask, R, size, ptr, off, spaces);
  if (uniform < 0) return -1;
  const uint64_t *bs = R + (size_t)x->s[0] * 32;
  const uint64_t *cs = x->s[1] != EMU_NOSLOT ? R + (size_t)x->s[1] * 32 : bs;
  uint64_t *d = x->d[0] != EMU_NOSLOT && x->op == PTX_OP_ATOM ? R + (size_t)x->d[0] * 32 : NULL;
  /* lanes in order: the result a real GPU gives is one of the orders */
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t old = atomic_apply(x, ptr[l], bs[l], cs[l]);
    if (d) d[l] = old;
  }
  model(b, x, mask, off, spaces, uniform, size, size);
  return 0;
}

/* --- arithmetic --- */

#define SRC(i) (R + (size_t)x->s[i] * 32)
#define DST(i) (R + (size_t)x->d[i] * 32)

static uint32_t pred_mask(const uint64_t *p) {
  uint32_t m = 0;
  for (int l = 0; l < 32; l++) m |= (uint32_t)(p[l] & 1) << l;
  return m;
}

static inline int cmp_int(unsigned cmp, int64_t a, int64_t b, uint64_t ua, uint64_t ub) {
  switch (cmp) {
  case PTX_CMP_EQ: return a == b;
  case PTX_CMP_NE: return a != b;
  case PTX_CMP_LT: return a < b;
  case PTX_CMP_LE: return a <= b;
  case PTX_CMP_GT: return a > b;
  case PTX_CMP_GE: return a >= b;
  case PTX_CMP_LO: return ua < ub;
  case PTX_CMP_LS: return ua <= ub;
  case PTX_CMP_HI: return ua > ub;
  case PTX_CMP_HS: return ua >= ub;
  default: return 0;
  }
}

static inline int cmp_float(unsigned cmp, double a, double b) {
  int un = isnan(a) || isnan(b);
  switch (cmp) {
  case PTX_CMP_EQ: return !un && a == b;
  case PTX_CMP_NE: return !un && a != b;
  case PTX_CMP_LT: return !un && a < b;
  case PTX_CMP_LE: return !un && a <= b;
  case PTX_CMP_GT: return !un && a > b;
  case PTX_CMP_GE: return !un && a >= b;
  case PTX_CMP_EQU: return un || a == b;
  case PTX_CMP_NEU: return un || a != b;
  case PTX_CMP_LTU: return un || a < b;
  case PTX_CMP_LEU: return un || a <= b;
  case PTX_CMP_GTU: return un || a > b;
  case PTX_CMP_GEU: return un || a >= b;
  case PTX_CMP_NUM: return !un;
  case PTX_CMP_NAN: return un;
  default: return 0;
  }
}

static inline int compare(const EmuInstr *x, uint64_t a, uint64_t b) {
  unsigned size = ptx_type_size((PtxType)x->type);
  switch (tclass(x->type)) {
  case C_F:
    if (size == 4) {
      float fa = F32(a), fb = F32(b);
      if (x->flags & PTX_IF_FTZ) fa = ftz32(fa), fb = ftz32(fb);
      return cmp_float(x->cmp, fa, fb);
    }
    return cmp_float(x->cmp, F64(a), F64(b));
  case C_S: return cmp_int(x->cmp, sext(a, size), sext(b, size), zext(a, size), zext(b, size));
  default: {
    /* unsigned and bit types: lt/le/gt/ge compare as unsigned */
    uint64_t ua = zext(a, size), ub = zext(b, size);
    unsigned c = x->cmp;
    if (c == PTX_CMP_LT) c = PTX_CMP_LO;
    else if (c == PTX_CMP_LE) c = PTX_CMP_LS;
    else if (c == PTX_CMP_GT) c = PTX_CMP_HI;
    else if (c == PTX_CMP_GE) c = PTX_CMP_HS;
    return cmp_int(c, (int64_t)ua, (int64_t)ub, ua, ub);
  }
  }
}

static inline int boolop(unsigned sub, int v, int c) {
  switch (sub) {
  case PTX_SUB_BAND: return v && c;
  case PTX_SUB_BOR: return v || c;
  case PTX_SUB_BXOR: return v != c;
  default: return v;
  }
}

/* Saturating signed 32-bit result (add/sub .sat). */
static inline uint64_t sat32(int64_t v) {
  if (v > INT32_MAX) v = INT32_MAX;
  if (v < INT32_MIN) v = INT32_MIN;
  return (uint32_t)(int32_t)v;
}

static inline float satf(float f) {
  if (isnan(f)) return 0.0f;
  return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

static inline uint64_t mulhi_u64(uint64_t a, uint64_t b) {
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static inline uint64_t mulhi_s64(int64_t a, int64_t b) {
  return (uint64_t)(((__int128)a * b) >> 64);
}

/* Integer multiply per .lo/.hi/.wide; a and b already read per size. */
static inline uint64_t imul(unsigned sub, Class c, unsigned size, uint64_t a, uint64_t b) {
  if (c == C_S) {
    int64_t sa = sext(a, size), sb = sext(b, size);
    if (sub == PTX_SUB_WIDE) return (uint64_t)(sa * sb); /* size <= 4 */
    if (sub == PTX_SUB_HI) return size == 8 ? mulhi_s64(sa, sb) : (uint64_t)((sa * sb) >> (size * 8));
    return (uint64_t)sa * (uint64_t)sb;
  }
  uint64_t ua = zext(a, size), ub = zext(b, size);
  if (sub == PTX_SUB_WIDE) return ua * ub;
  if (sub == PTX_SUB_HI) return size == 8 ? mulhi_u64(ua, ub) : (ua * ub) >> (size * 8);
  return ua * ub;
}

static double round_to(unsigned rnd, double v) {
  switch (rnd) {
  case PTX_RND_RNI: return nearbyint(v); /* default mode: to nearest even */
  case PTX_RND_RZI: return trunc(v);
  case PTX_RND_RMI: return floor(v);
  case PTX_RND_RPI: return ceil(v);
  default: return v;
  }
}

/* float -> integer of `size` bytes: PTX saturates and maps NaN to 0. */
static uint64_t f2i(double v, unsigned rnd, int sign, unsigned size) {
  if (isnan(v)) return 0;
  v = round_to(rnd ? rnd : PTX_RND_RZI, v);
  if (sign) {
    double lo = -ldexp(1.0, (int)size * 8 - 1), hi = ldexp(1.0, (int)size * 8 - 1);
    if (v < lo) return (uint64_t)(int64_t)lo;
    if (v >= hi) return size == 8 ? (uint64_t)INT64_MAX : (uint64_t)((1ull << (size * 8 - 1)) - 1);
    return (uint64_t)(int64_t)v;
  }
  if (v <= 0) return 0;
  if (v >= ldexp(1.0, (int)size * 8)) return size == 8 ? UINT64_MAX : (1ull << (size * 8)) - 1;
  return (uint64_t)v;
}

static int fe_mode(unsigned rnd) {
  switch (rnd) {
  case PTX_RND_RZ: return FE_TOWARDZERO;
  case PTX_RND_RM: return FE_DOWNWARD;
  case PTX_RND_RP: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

/* f16 <-> f32 (cvt only) */
static float half_to_float(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) return (s ? -1.0f : 1.0f) * ldexpf((float)m, -24);
  if (e == 31) return F32(s | 0x7f800000u | (m << 13));
  return F32(s | ((e + 112) << 23) | (m << 13));
}
static uint16_t float_to_half(float f) {
  uint32_t u = (uint32_t)B32(f), s = (u >> 16) & 0x8000;
  float a = fabsf(f);
  if (isnan(f)) return (uint16_t)(s | 0x7e00);
  if (a >= 65520.0f) return (uint16_t)(s | 0x7c00);
  if (a < ldexpf(1.0f, -14)) return (uint16_t)(s | (uint32_t)nearbyintf(a * ldexpf(1.0f, 24)));
  int e;
  float fr = frexpf(a, &e); /* a = fr * 2^e, fr in [0.5,1) */
  uint32_t m = (uint32_t)nearbyintf((fr * 2.0f - 1.0f) * 1024.0f);
  uint32_t ee = (uint32_t)(e - 1 + 15);
  if (m == 1024) m = 0, ee++;
  if (ee >= 31) return (uint16_t)(s | 0x7c00);
  return (uint16_t)(s | (ee << 10) | m);
}

/* The next half toward +infinity (up) or -infinity. */
static uint16_t half_step(uint16_t h, int up) {
  if ((h & 0x7fff) == 0) return up ? 0x0001 : 0x8001;
  return (uint16_t)((h & 0x8000) ? (up ? h - 1 : h + 1) : (up ? h + 1 : h - 1));
}

/* v rounded to f16 in mode rnd: float_to_half's nearest result (computed in
 * the default mode, at most one step off after the rounding to float) moved
 * to the neighbour the mode asks for, so .rz/.rm/.rp and ties of a double
 * come out right. */
static uint16_t double_to_half(double v, unsigned rnd) {
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  if (isnan(v)) return (uint16_t)(sign | 0x7e00);
  uint16_t h = float_to_half((float)v);
  double hv = half_to_float(h);
  switch (rnd) {
  case PTX_RND_RZ:
    if (fabs(hv) > fabs(v)) h = half_step(h, v < 0);
    break;
  case PTX_RND_RM:
    if (hv > v) h = half_step(h, 0);
    break;
  case PTX_RND_RP:
    if (hv < v) h = half_step(h, 1);
    break;
  default: /* nearest, ties to even; from 65520 on, infinity */
    if (fabs(v) >= 65520.0) return (uint16_t)(sign | 0x7c00);
    if (isinf(hv)) return (uint16_t)(sign | 0x7bff);
    if (hv != v) {
      uint16_t n = half_step(h, hv < v);
      double dh = fabs(hv - v), dn = fabs((double)half_to_float(n) - v);
      if (dn < dh || (dn == dh && !(n & 1))) h = n;
    }
  }
  return h;
}

static int exec_cvt(Block *b, const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0);
  uint64_t *d = DST(0);
  unsigned dt = x->type, st = x->type2, ds = ptx_type_size((PtxType)dt), ss = ptx_type_size((PtxType)st);
  Class dc = tclass(dt), sc = tclass(st);
  int ftz = x->flags & PTX_IF_FTZ, sat = x->flags & PTX_IF_SAT;
  int old_mode = fegetround();
  /* f16 results round in double_to_half, in the default mode */
  if (dc == C_F && dt != PTX_T_F16 && x->rnd >= PTX_RND_RN && x->rnd <= PTX_RND_RP) fesetround(fe_mode(x->rnd));
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t v = a[l], out;
    if (sc == C_F) {
      double f = st == PTX_T_F16 ? half_to_float((uint16_t)v) : ss == 4 ? (double)F32(v) : F64(v);
      if (ftz && ss == 4) f = ftz32((float)f);
      if (dc == C_F) {
        if (x->rnd >= PTX_RND_RNI && x->rnd <= PTX_RND_RPI) f = round_to(x->rnd, f);
        if (dt == PTX_T_F16) out = double_to_half(f, x->rnd);
        else if (ds == 4) {
          volatile float r = (float)f; /* rounded in the current mode */
          float rf = ftz ? ftz32(r) : r;
          out = B32(sat ? satf(rf) : rf);
        } else out = B64(sat ? (isnan(f) ? 0.0 : f < 0 ? 0.0 : f > 1 ? 1.0 : f) : f);
      } else {
        out = zext(f2i(f, x->rnd, dc == C_S, ds), ds);
      }
    } else {
      int64_t iv = sc == C_S ? sext(v, ss) : (int64_t)zext(v, ss);
      uint64_t uv = zext(v, ss);
      if (dc == C_F) {
        if (dt == PTX_T_F16) out = double_to_half(sc == C_S ? (double)iv : (double)uv, x->rnd);
        else if (ds == 4) {
          volatile float r = sc == C_S ? (float)iv : (float)uv;
          out = B32(sat ? satf(r) : r);
        } else {
          volatile double r = sc == C_S ? (double)iv : (double)uv;
          out = B64(r);
        }
      } else if (sat) {
        /* clamp to the destination's range */
        if (dc == C_S) {
          int64_t lo = ds == 8 ? INT64_MIN : -(int64_t)(1ull << (ds * 8 - 1));
          int64_t hi = ds == 8 ? INT64_MAX : (int64_t)((1ull << (ds * 8 - 1)) - 1);
          if (sc == C_U && uv > (uint64_t)hi) iv = hi;
          else iv = iv < lo ? lo : iv > hi ? hi : iv;
          out = zext((uint64_t)iv, ds);
        } else {
          uint64_t hi = ds == 8 ? UINT64_MAX : (1ull << (ds * 8)) - 1;
          if (sc == C_S && iv < 0) out = 0;
          else out = uv > hi ? hi : uv;
        }
      } else {
        out = dc == C_S ? (uint64_t)sext((uint64_t)iv, ds) : zext((uint64_t)iv, ds);
        out = zext(out, ds);
        if (dc == C_S && ds < 8) out = (uint64_t)sext(out, ds);
      }
    }
    d[l] = out;
  }
  fesetround(old_mode);
  (void)b;
  return 0;
}

/* add, sub, mul, mad, fma, div, rem, min, max, abs, neg and the float
 * functions: one switch per class. */
static int arith(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R) {
  unsigned size = ptx_type_size((PtxType)x->type);
  Class c = tclass(x->type);
  uint64_t *d = DST(0);
  const uint64_t *a = SRC(0);
  const uint64_t *s1 = x->ns > 1 ? SRC(1) : a;
  const uint64_t *s2 = x->ns > 2 ? SRC(2) : a;
  int ftz = x->flags & PTX_IF_FTZ, sat = x->flags & PTX_IF_SAT;

  if (c == C_F && size == 4) {
#define FA (ftz ? ftz32(F32(a[l])) : F32(a[l]))
#define FB (ftz ? ftz32(F32(s1[l])) : F32(s1[l]))
#define FC (ftz ? ftz32(F32(s2[l])) : F32(s2[l]))
#define PUT(v) do { float r_ = (v); if (ftz) r_ = ftz32(r_); if (sat) r_ = satf(r_); d[l] = B32(r_); } while (0)
    switch (x->op) {
    case PTX_OP_ADD: LANES(mask, PUT(FA + FB)); break;
    case PTX_OP_SUB: LANES(mask, PUT(FA - FB)); break;
    case PTX_OP_MUL: LANES(mask, PUT(FA * FB)); break;
    case PTX_OP_FMA:
    case PTX_OP_MAD: LANES(mask, PUT(fmaf(FA, FB, FC))); break;
    case PTX_OP_DIV: LANES(mask, PUT(FA / FB)); break;
    case PTX_OP_MIN: LANES(mask, PUT(fminf(FA, FB))); break;
    case PTX_OP_MAX: LANES(mask, PUT(fmaxf(FA, FB))); break;
    case PTX_OP_ABS: LANES(mask, PUT(fabsf(FA))); break;
    case PTX_OP_NEG: LANES(mask, PUT(-FA)); break;
    case PTX_OP_SQRT: LANES(mask, PUT(sqrtf(FA))); break;
    case PTX_OP_RSQRT: LANES(mask, PUT(1.0f / sqrtf(FA))); break;
    case PTX_OP_RCP: LANES(mask, PUT(1.0f / FA)); break;
    case PTX_OP_EX2: LANES(mask, PUT(exp2f(FA))); break;
    case PTX_OP_LG2: LANES(mask, PUT(log2f(FA))); break;
    case PTX_OP_SIN: LANES(mask, PUT(sinf(FA))); break;
    case PTX_OP_COS: LANES(mask, PUT(cosf(FA))); break;
    case PTX_OP_TANH: LANES(mask, PUT(tanhf(FA))); break;
    case PTX_OP_COPYSIGN: LANES(mask, PUT(copysignf(FB, FA))); break;
    default: goto unsup;
    }
#undef FA
#undef FB
#undef FC
#undef PUT
    return 0;
  }
  if (c == C_F && size == 8) {
#define DA F64(a[l])
#define DB F64(s1[l])
#define DC F64(s2[l])
    switch (x->op) {
    case PTX_OP_ADD: LANES(mask, d[l] = B64(DA + DB)); break;
    case PTX_OP_SUB: LANES(mask, d[l] = B64(DA - DB)); break;
    case PTX_OP_MUL: LANES(mask, d[l] = B64(DA * DB)); break;
    case PTX_OP_FMA:
    case PTX_OP_MAD: LANES(mask, d[l] = B64(fma(DA, DB, DC))); break;
    case PTX_OP_DIV: LANES(mask, d[l] = B64(DA / DB)); break;
    case PTX_OP_MIN: LANES(mask, d[l] = B64(fmin(DA, DB))); break;
    case PTX_OP_MAX: LANES(mask, d[l] = B64(fmax(DA, DB))); break;
    case PTX_OP_ABS: LANES(mask, d[l] = B64(fabs(DA))); break;
    case PTX_OP_NEG: LANES(mask, d[l] = B64(-DA)); break;
    case PTX_OP_SQRT: LANES(mask, d[l] = B64(sqrt(DA))); break;
    case PTX_OP_RSQRT: LANES(mask, d[l] = B64(1.0 / sqrt(DA))); break;
    case PTX_OP_RCP: LANES(mask, d[l] = B64(1.0 / DA)); break;
    case PTX_OP_EX2: LANES(mask, d[l] = B64(exp2(DA))); break;
    case PTX_OP_LG2: LANES(mask, d[l] = B64(log2(DA))); break;
    case PTX_OP_SIN: LANES(mask, d[l] = B64(sin(DA))); break;
    case PTX_OP_COS: LANES(mask, d[l] = B64(cos(DA))); break;
    case PTX_OP_COPYSIGN: LANES(mask, d[l] = B64(copysign(DB, DA))); break;
    default: goto unsup;
    }
#undef DA
#undef DB
#undef DC
    return 0;
  }
  if (c == C_F) goto unsup;

  /* integers */
  if (size == 4 && c != C_P) {
    switch (x->op) {
    case PTX_OP_ADD:
      if (sat) LANES(mask, d[l] = sat32((int64_t)(int32_t)a[l] + (int32_t)s1[l]));
      else LANES(mask, d[l] = (uint32_t)(a[l] + s1[l]));
      return 0;
    case PTX_OP_SUB:
      if (sat) LANES(mask, d[l] = sat32((int64_t)(int32_t)a[l] - (int32_t)s1[l]));
      else LANES(mask, d[l] = (uint32_t)(a[l] - s1[l]));
      return 0;
    case PTX_OP_MUL:
      if (x->sub == PTX_SUB_WIDE) {
        if (c == C_S) LANES(mask, d[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)s1[l]));
        else LANES(mask, d[l] = (uint64_t)(uint32_t)a[l] * (uint32_t)s1[l]);
      } else if (x->sub == PTX_SUB_HI) {
        LANES(mask, d[l] = (uint32_t)imul(PTX_SUB_HI, c, 4, a[l], s1[l]));
      } else {
        LANES(mask, d[l] = (uint32_t)((uint32_t)a[l] * (uint32_t)s1[l]));
      }
      return 0;
    case PTX_OP_MAD:
      if (x->sub == PTX_SUB_WIDE) {
        if (c == C_S) LANES(mask, d[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)s1[l]) + s2[l]);
        else LANES(mask, d[l] = (uint64_t)(uint32_t)a[l] * (uint32_t)s1[l] + s2[l]);
      } else if (x->sub == PTX_SUB_HI) {
        if (sat && c == C_S) /* mad.hi.sat.s32: the sum clamps to the s32 range */
          LANES(mask, d[l] = sat32((int64_t)(int32_t)imul(PTX_SUB_HI, c, 4, a[l], s1[l]) + (int32_t)s2[l]));
        else LANES(mask, d[l] = (uint32_t)(imul(PTX_SUB_HI, c, 4, a[l], s1[l]) + s2[l]));
      } else {
        LANES(mask, d[l] = (uint32_t)((uint32_t)a[l] * (uint32_t)s1[l] + (uint32_t)s2[l]));
      }
      return 0;
    case PTX_OP_MIN:
      if (c == C_S) LANES(mask, d[l] = (uint32_t)((int32_t)a[l] < (int32_t)s1[l] ? a[l] : s1[l]));
      else LANES(mask, d[l] = (uint32_t)a[l] < (uint32_t)s1[l] ? (uint32_t)a[l] : (uint32_t)s1[l]);
      return 0;
    case PTX_OP_MAX:
      if (c == C_S) LANES(mask, d[l] = (uint32_t)((int32_t)a[l] > (int32_t)s1[l] ? a[l] : s1[l]));
      else LANES(mask, d[l] = (uint32_t)a[l] > (uint32_t)s1[l] ? (uint32_t)a[l] : (uint32_t)s1[l]);
      return 0;
    default: break;
    }
  }
  /* any integer size (the general, slower path) */
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t ua = zext(a[l], size), ub = zext(s1[l], size);
    int64_t sa = sext(a[l], size), sb = sext(s1[l], size);
    uint64_t r;
    switch (x->op) {
    case PTX_OP_ADD: r = ua + ub; break;
    case PTX_OP_SUB: r = ua - ub; break;
    case PTX_OP_MUL: r = imul(x->sub, c, size, a[l], s1[l]); break;
    case PTX_OP_MAD: r = imul(x->sub, c, size, a[l], s1[l]) + s2[l]; break;
    case PTX_OP_MUL24:
    case PTX_OP_MAD24:
      r = c == C_S ? (uint64_t)((int64_t)((int32_t)((uint32_t)a[l] << 8) >> 8) *
                                (int64_t)((int32_t)((uint32_t)s1[l] << 8) >> 8))
                   : (a[l] & 0xffffff) * (s1[l] & 0xffffff);
      if (x->sub == PTX_SUB_HI) r >>= 16;
      if (x->op == PTX_OP_MAD24) r += s2[l];
      break;
    case PTX_OP_DIV:
    case PTX_OP_REM:
      if (ub == 0)
        return fault(b, x, warp, l, WM_EARITH, "integer division by zero (%s.%s)",
                     x->op == PTX_OP_DIV ? "div" : "rem", ptx_type_name((PtxType)x->type));
      if (c == C_S) {
        int64_t min = size == 8 ? INT64_MIN : -(int64_t)(1ull << (size * 8 - 1));
        if (sa == min && sb == -1) r = x->op == PTX_OP_DIV ? (uint64_t)min : 0;
        else r = x->op == PTX_OP_DIV ? (uint64_t)(sa / sb) : (uint64_t)(sa % sb);
      } else {
        r = x->op == PTX_OP_DIV ? ua / ub : ua % ub;
      }
      break;
    case PTX_OP_MIN: r = c == C_S ? (uint64_t)(sa < sb ? sa : sb) : (ua < ub ? ua : ub); break;
    case PTX_OP_MAX: r = c == C_S ? (uint64_t)(sa > sb ? sa : sb) : (ua > ub ? ua : ub); break;
    case PTX_OP_ABS: r = (uint64_t)(sa < 0 ? -(uint64_t)sa : (uint64_t)sa); break;
    case PTX_OP_NEG: r = -ua; break;
    case PTX_OP_SAD: /* |a - b| + c; the difference in unsigned (s64 extremes overflow int64) */
      r = (c == C_S ? (sa > sb ? (uint64_t)sa - (uint64_t)sb : (uint64_t)sb - (uint64_t)sa)
                    : (ua > ub ? ua - ub : ub - ua)) + s2[l];
      break;
    default: goto unsup;
    }
    d[l] = x->sub == PTX_SUB_WIDE ? r : zext(r, size);
  }
  return 0;
unsup:
  return fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP, "%s.%s is not supported by the emulator",
               ptx_op_name[x->op], ptx_type_name((PtxType)x->type));
}

/* Float arithmetic with .rz/.rm/.rp (add.rz.f32, __fmul_ru, __ddiv_rd, ...)
 * runs in that rounding mode on the host; everything else in the default
 * round-to-nearest-even. */
static int exec_arith(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R) {
  if (x->rnd >= PTX_RND_RZ && x->rnd <= PTX_RND_RP && ptx_type_is_float((PtxType)x->type)) {
    int old_mode = fegetround();
    fesetround(fe_mode(x->rnd));
    int rc = arith(b, x, warp, mask, R);
    fesetround(old_mode);
    return rc;
  }
  return arith(b, x, warp, mask, R);
}

static int exec_bits(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R) {
  unsigned size = ptx_type_size((PtxType)x->type);
  uint64_t *d = DST(0);
  const uint64_t *a = SRC(0);
  const uint64_t *s1 = x->ns > 1 ? SRC(1) : a;
  const uint64_t *s2 = x->ns > 2 ? SRC(2) : a;
  const uint64_t *s3 = x->ns > 3 ? SRC(3) : a;
  unsigned bits = size * 8;
  if (x->type == PTX_T_PRED) {
    switch (x->op) {
    case PTX_OP_AND: LANES(mask, d[l] = (a[l] & s1[l]) & 1); return 0;
    case PTX_OP_OR: LANES(mask, d[l] = (a[l] | s1[l]) & 1); return 0;
    case PTX_OP_XOR: LANES(mask, d[l] = (a[l] ^ s1[l]) & 1); return 0;
    case PTX_OP_NOT: LANES(mask, d[l] = ~a[l] & 1); return 0;
    default: break;
    }
  }
  switch (x->op) {
  case PTX_OP_AND: LANES(mask, d[l] = a[l] & s1[l]); return 0;
  case PTX_OP_OR: LANES(mask, d[l] = a[l] | s1[l]); return 0;
  case PTX_OP_XOR: LANES(mask, d[l] = a[l] ^ s1[l]); return 0;
  case PTX_OP_NOT: LANES(mask, d[l] = zext(~a[l], size)); return 0;
  case PTX_OP_CNOT: LANES(mask, d[l] = zext(a[l], size) == 0); return 0;
  case PTX_OP_SHL:
    LANES(mask, d[l] = (uint32_t)s1[l] >= bits ? 0 : zext(a[l] << (uint32_t)s1[l], size));
    return 0;
  case PTX_OP_SHR:
    if (ptx_type_is_signed((PtxType)x->type))
      LANES(mask, d[l] = zext((uint64_t)(sext(a[l], size) >> ((uint32_t)s1[l] >= bits ? bits - 1 : (uint32_t)s1[l])), size));
    else
      LANES(mask, d[l] = (uint32_t)s1[l] >= bits ? 0 : zext(a[l], size) >> (uint32_t)s1[l]);
    return 0;
  case PTX_OP_POPC: LANES(mask, d[l] = (uint64_t)__builtin_popcountll(zext(a[l], size))); return 0;
  case PTX_OP_CLZ:
    LANES(mask, d[l] = zext(a[l], size) == 0 ? bits : (uint64_t)(__builtin_clzll(zext(a[l], size)) - (64 - (int)bits)));
    return 0;
  case PTX_OP_BREV:
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      uint64_t v = a[l], r = 0;
      for (unsigned i = 0; i < bits; i++) r |= ((v >> i) & 1) << (bits - 1 - i);
      d[l] = r;
    }
    return 0;
  case PTX_OP_BFE:
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      unsigned pos = (uint8_t)s1[l], len = (uint8_t)s2[l];
      uint64_t v = zext(a[l], size), r;
      int sign = ptx_type_is_signed((PtxType)x->type);
      /* d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit, where sbit is
       * a[min(pos+len-1, msb)] for signed types (0 for unsigned or len 0):
       * the n bits that exist, then the sign bit above them */
      if (len == 0) r = 0;
      else {
        unsigned n = pos >= bits ? 0 : bits - pos < len ? bits - pos : len;
        uint64_t field = n == 0 ? 0 : v >> pos;
        if (n < 64) field &= (1ull << n) - 1;
        unsigned top = pos + len - 1 >= bits ? bits - 1 : pos + len - 1;
        if (sign && n < 64 && ((v >> top) & 1)) field |= ~0ull << n;
        r = zext(field, size);
      }
      d[l] = r;
    }
    return 0;
  case PTX_OP_BFI:
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      unsigned pos = (uint8_t)s2[l], len = (uint8_t)s3[l];
      uint64_t f = a[l], base = zext(s1[l], size);
      if (len && pos < bits) {
        uint64_t msk = (len >= 64 ? ~0ull : (1ull << len) - 1) << pos;
        base = (base & ~msk) | ((f << pos) & msk);
      }
      d[l] = zext(base, size);
    }
    return 0;
  case PTX_OP_PRMT:
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      uint64_t bytes = ((uint64_t)(uint32_t)s1[l] << 32) | (uint32_t)a[l];
      uint32_t sel = (uint32_t)s2[l], r = 0;
      for (int i = 0; i < 4; i++) {
        unsigned s = (sel >> (4 * i)) & 0xf;
        uint32_t byte = (uint32_t)(bytes >> ((s & 7) * 8)) & 0xff;
        if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
      }
      d[l] = r;
    }
    return 0;
  case PTX_OP_SHF:
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      uint64_t v = (uint64_t)(uint32_t)s1[l] << 32 | (uint32_t)a[l];
      uint32_t n = (uint32_t)s2[l];
      int wrap = x->sub == PTX_SUB_SHF_L_WRAP || x->sub == PTX_SUB_SHF_R_WRAP;
      n = wrap ? n & 31 : n > 32 ? 32 : n;
      if (x->sub == PTX_SUB_SHF_L_WRAP || x->sub == PTX_SUB_SHF_L_CLAMP) d[l] = (uint32_t)((v << n) >> 32);
      else d[l] = (uint32_t)(v >> n);
    }
    return 0;
  case PTX_OP_BFIND:
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      uint64_t v = zext(a[l], size);
      if (ptx_type_is_signed((PtxType)x->type) && (v >> (bits - 1)) & 1) v = zext(~v, size);
      uint64_t r = 0xffffffffu;
      if (v) {
        unsigned pos = 63u - (unsigned)__builtin_clzll(v);
        r = x->sub == PTX_SUB_SHIFTAMT ? bits - 1 - pos : pos;
      }
      d[l] = r;
    }
    return 0;
  case PTX_OP_LOP3:
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      uint64_t r = 0, lut = (uint8_t)s3[l];
      for (unsigned i = 0; i < bits; i++) {
        unsigned idx = (unsigned)(((a[l] >> i) & 1) << 2 | ((s1[l] >> i) & 1) << 1 | ((s2[l] >> i) & 1));
        r |= ((lut >> idx) & 1) << i;
      }
      d[l] = r;
    }
    return 0;
  default:
    return fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP, "%s is not supported by the emulator",
                 ptx_op_name[x->op]);
  }
}

/* The lanes of `mask` for which a CMP b holds, as a bit mask: the common
 * type/comparison pairs as straight loops, the rest through compare(). */
static uint32_t compare_lanes(const EmuInstr *x, uint32_t mask, const uint64_t *a, const uint64_t *bb) {
  uint32_t v = 0;
#define CMP_LOOP(GET, OP) LANES(mask, v |= (uint32_t)(GET(a[l]) OP GET(bb[l])) << l)
#define CMP_SWITCH(GET)                                  \
  switch (x->cmp) {                                      \
  case PTX_CMP_EQ: CMP_LOOP(GET, ==); return v;          \
  case PTX_CMP_NE: CMP_LOOP(GET, !=); return v;          \
  case PTX_CMP_LT: case PTX_CMP_LO: CMP_LOOP(GET, <); return v;  \
  case PTX_CMP_LE: case PTX_CMP_LS: CMP_LOOP(GET, <=); return v; \
  case PTX_CMP_GT: case PTX_CMP_HI: CMP_LOOP(GET, >); return v;  \
  case PTX_CMP_GE: case PTX_CMP_HS: CMP_LOOP(GET, >=); return v; \
  default: break;                                        \
  }
#define GET_S32(r) ((int32_t)(r))
#define GET_U32(r) ((uint32_t)(r))
#define GET_S64(r) ((int64_t)(r))
#define GET_U64(r) (r)
  switch (x->type) {
  case PTX_T_S32: CMP_SWITCH(GET_S32) break;
  case PTX_T_U32: case PTX_T_B32: CMP_SWITCH(GET_U32) break;
  case PTX_T_S64: CMP_SWITCH(GET_S64) break;
  case PTX_T_U64: case PTX_T_B64: CMP_SWITCH(GET_U64) break;
  case PTX_T_F32:
    /* ordered comparisons are false on NaN, as C's are; != is not */
    if (!(x->flags & PTX_IF_FTZ) && x->cmp != PTX_CMP_NE && x->cmp >= PTX_CMP_EQ && x->cmp <= PTX_CMP_GE) {
      CMP_SWITCH(F32)
    }
    break;
  default: break;
  }
#undef CMP_LOOP
#undef CMP_SWITCH
#undef GET_S32
#undef GET_U32
#undef GET_S64
#undef GET_U64
  LANES(mask, v |= (uint32_t)compare(x, a[l], bb[l]) << l);
  return v;
}

static void exec_setp(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0), *bb = SRC(1);
  uint64_t *p = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *q = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  uint32_t v = compare_lanes(x, mask, a, bb), nv = ~v;
  if (x->s[2] != EMU_NOSLOT) { /* combine with the c predicate */
    uint32_t c = pred_mask(SRC(2));
    if (x->s_neg[2]) c = ~c;
    switch (x->sub) {
    case PTX_SUB_BAND: v &= c, nv &= c; break;
    case PTX_SUB_BOR: v |= c, nv |= c; break;
    case PTX_SUB_BXOR: v ^= c, nv ^= c; break;
    default: break;
    }
  }
  if (p) LANES(mask, p[l] = v >> l & 1);
  if (q) LANES(mask, q[l] = nv >> l & 1);
}

static void exec_mov(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  unsigned size = ptx_type_size((PtxType)x->type);
  if (x->nd > 1) { /* mov.b64 {lo, hi}, a: unpack */
    unsigned part = size / x->nd * 8;
    const uint64_t *a = SRC(0);
    for (unsigned i = 0; i < x->nd; i++) {
      if (x->d[i] == EMU_NOSLOT) continue;
      uint64_t *d = DST(i);
      LANES(mask, d[l] = zext(a[l] >> (part * i), part / 8));
    }
    return;
  }
  uint64_t *d = DST(0);
  if (x->ns > 1) { /* mov.b64 d, {lo, hi}: pack */
    unsigned part = size / x->ns * 8;
    LANES(mask, d[l] = 0);
    for (unsigned i = 0; i < x->ns; i++) {
      const uint64_t *a = SRC(i);
      LANES(mask, d[l] |= zext(a[l], part / 8) << (part * i));
    }
    return;
  }
  const uint64_t *a = SRC(0);
  LANES(mask, d[l] = a[l]);
}

static int exec_shfl(Block *b, const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  uint64_t *d = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *p = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  uint64_t src[32];
  memcpy(src, a, sizeof src);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t bval = (uint32_t)bb[l] & 31, cval = (uint32_t)c[l] & 31, seg = ((uint32_t)c[l] >> 8) & 31;
    uint32_t maxl = ((uint32_t)l & seg) | (cval & ~seg), minl = (uint32_t)l & seg;
    int j, ok;
    switch (x->sub) {
    case PTX_SUB_UP: j = l - (int)bval; ok = j >= (int)maxl; break;
    case PTX_SUB_DOWN: j = l + (int)bval; ok = j <= (int)maxl; break;
    case PTX_SUB_BFLY: j = l ^ (int)bval; ok = j <= (int)maxl; break;
    default: j = (int)(minl | (bval & ~seg)); ok = j <= (int)maxl; break;
    }
    if (!ok) j = l;
    if (d) d[l] = (uint32_t)src[j];
    if (p) p[l] = (uint64_t)ok;
  }
  (void)b;
  return 0;
}

static void exec_vote(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0);
  uint32_t members = mask;
  if (x->s[1] != EMU_NOSLOT) members &= (uint32_t)SRC(1)[__builtin_ctz(mask)];
  uint32_t ballot = 0;
  for (uint32_t m = members; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (((a[l] & 1) ^ x->s_neg[0]) != 0) ballot |= 1u << l;
  }
  uint64_t *d = DST(0);
  uint64_t v;
  switch (x->sub) {
  case PTX_SUB_ALL: v = ballot == members; break;
  case PTX_SUB_ANY: v = ballot != 0; break;
  case PTX_SUB_UNI: v = ballot == 0 || ballot == members; break;
  default: v = ballot; break;
  }
  LANES(mask, d[l] = v);
}

static void exec_match(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0);
  uint32_t members = mask & (uint32_t)SRC(1)[__builtin_ctz(mask)];
  unsigned size = ptx_type_size((PtxType)x->type);
  uint64_t *d = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *p = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  uint32_t same_all = members;
  for (uint32_t m = members; m; m &= m - 1)
    if (zext(a[__builtin_ctz(m)], size) != zext(a[__builtin_ctz(members)], size)) same_all = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t same = 0;
    for (uint32_t k = members; k; k &= k - 1)
      if (zext(a[__builtin_ctz(k)], size) == zext(a[l], size)) same |= 1u << __builtin_ctz(k);
    if (d) d[l] = x->sub == PTX_SUB_ALL ? same_all : same;
    if (p) p[l] = same_all != 0;
  }
}

static void exec_redux(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0);
  uint32_t members = mask & (uint32_t)SRC(1)[__builtin_ctz(mask)];
  int sign = ptx_type_is_signed((PtxType)x->type), first = 1;
  uint64_t acc = 0;
  for (uint32_t m = members; m; m &= m - 1) {
    uint32_t v = (uint32_t)a[__builtin_ctz(m)];
    if (first) {
      acc = v;
      first = 0;
      continue;
    }
    switch (x->sub) {
    case PTX_SUB_AADD: acc = (uint32_t)(acc + v); break;
    case PTX_SUB_AMIN: acc = sign ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
    case PTX_SUB_AMAX: acc = sign ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
    case PTX_SUB_AAND: acc &= v; break;
    case PTX_SUB_AOR: acc |= v; break;
    default: acc ^= v; break;
    }
  }
  uint64_t *d = DST(0);
  LANES(mask, d[l] = acc);
}

static void exec_selp(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  uint64_t *d = DST(0);
  if (x->op == PTX_OP_SELP) {
    LANES(mask, d[l] = (c[l] & 1) ? a[l] : bb[l]);
  } else { /* slct: c >= 0 */
    int f = x->type2 == PTX_T_F32;
    LANES(mask, d[l] = (f ? F32(c[l]) >= 0.0f : (int32_t)c[l] >= 0) ? a[l] : bb[l]);
  }
}

static void exec_set(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  /* set.CMP.DTYPE.STYPE d, a, b[, c]: compare as STYPE (type2) */
  EmuInstr cx = *x;
  cx.type = x->type2;
  const uint64_t *a = SRC(0), *bb = SRC(1);
  const uint64_t *c = x->ns > 2 ? SRC(2) : NULL;
  uint64_t *d = DST(0);
  int f = x->type == PTX_T_F32;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int v = boolop(x->sub, compare(&cx, a[l], bb[l]), c ? (int)(c[l] & 1) ^ x->s_neg[2] : 1);
    d[l] = f ? (v ? B32(1.0f) : 0) : (v ? 0xffffffffull : 0);
  }
}

static void exec_testp(const EmuInstr *x, uint32_t mask, uint64_t *R) {
  const uint64_t *a = SRC(0);
  uint64_t *d = DST(0);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    double v = x->type == PTX_T_F32 ? (double)F32(a[l]) : F64(a[l]);
    int cls = x->type == PTX_T_F32 ? fpclassify(F32(a[l])) : fpclassify(v);
    int r;
    switch (x->sub) {
    case PTX_SUB_FINITE: r = isfinite(v); break;
    case PTX_SUB_INFINITE: r = isinf(v); break;
    case PTX_SUB_NUMBER: r = !isnan(v); break;
    case PTX_SUB_NOTANUMBER: r = isnan(v); break;
    case PTX_SUB_NORMAL: r = cls == FP_NORMAL || cls == FP_ZERO; break; /* PTX: zeros count as normal */
    default: r = cls == FP_SUBNORMAL; break;
    }
    d[l] = (uint64_t)r;
  }
}

/* --- control --- */

static void sreg_block_values(Block *b, uint64_t *R) {
  const EmuProgram *p = b->p;
  const EmuLaunch *l = b->l;
  uint64_t v[PTX_SR_COUNT] = {0};
  v[PTX_SR_NTID_X] = l->block[0], v[PTX_SR_NTID_Y] = l->block[1], v[PTX_SR_NTID_Z] = l->block[2];
  v[PTX_SR_CTAID_X] = b->ctaid[0], v[PTX_SR_CTAID_Y] = b->ctaid[1], v[PTX_SR_CTAID_Z] = b->ctaid[2];
  v[PTX_SR_NCTAID_X] = l->grid[0], v[PTX_SR_NCTAID_Y] = l->grid[1], v[PTX_SR_NCTAID_Z] = l->grid[2];
  v[PTX_SR_NWARPID] = 64;
  v[PTX_SR_NSMID] = 132;
  v[PTX_SR_SMID] = ((uint64_t)b->ctaid[0] + (uint64_t)b->ctaid[1] * l->grid[0]) % 132;
  v[PTX_SR_GRIDID] = 1;
  v[PTX_SR_DYN_SMEM] = l->smem_dynamic;
  v[PTX_SR_TOTAL_SMEM] = b->shared_size;
  v[PTX_SR_CLOCK] = v[PTX_SR_CLOCK64] = v[PTX_SR_GLOBALTIMER] = b->warp_instrs;
  const uint64_t per_block = 1ull << PTX_SR_CTAID_X | 1ull << PTX_SR_CTAID_Y | 1ull << PTX_SR_CTAID_Z |
                             1ull << PTX_SR_SMID | 1ull << PTX_SR_CLOCK | 1ull << PTX_SR_CLOCK64 |
                             1ull << PTX_SR_GLOBALTIMER;
  static const int uniform[] = {PTX_SR_NTID_X, PTX_SR_NTID_Y, PTX_SR_NTID_Z, PTX_SR_CTAID_X,
                                PTX_SR_CTAID_Y, PTX_SR_CTAID_Z, PTX_SR_NCTAID_X, PTX_SR_NCTAID_Y,
                                PTX_SR_NCTAID_Z, PTX_SR_NWARPID, PTX_SR_NSMID, PTX_SR_SMID,
                                PTX_SR_GRIDID, PTX_SR_DYN_SMEM, PTX_SR_TOTAL_SMEM, PTX_SR_CLOCK,
                                PTX_SR_CLOCK64, PTX_SR_GLOBALTIMER};
  for (size_t i = 0; i < sizeof uniform / sizeof *uniform; i++) {
    /* only the special registers the kernel reads; the launch-wide ones
     * (all but ctaid, smid and the clocks) once per warp */
    int sr = uniform[i];
    if (!(p->sregs_used >> sr & 1)) continue;
    if (b->sregs_ready && !(per_block >> sr & 1)) continue;
    uint64_t *s = R + (size_t)(p->sreg_base + (uint32_t)uniform[i]) * 32;
    for (int ln = 0; ln < 32; ln++) s[ln] = v[uniform[i]];
  }
}

/* Per-warp values that never change between blocks of a launch. */
static void warp_init_slots(Block *b, int w, uint64_t *R) {
  const EmuProgram *p = b->p;
  for (uint32_t i = 0; i < p->nconst; i++) {
    uint64_t *s = R + (size_t)(p->const_base + i) * 32;
    for (int l = 0; l < 32; l++) s[l] = p->consts[i];
  }
  uint64_t *tid[3], *lane = R + (size_t)(p->sreg_base + PTX_SR_LANEID) * 32;
  uint64_t *wid = R + (size_t)(p->sreg_base + PTX_SR_WARPID) * 32;
  for (int i = 0; i < 3; i++) tid[i] = R + (size_t)(p->sreg_base + PTX_SR_TID_X + (uint32_t)i) * 32;
  for (int l = 0; l < 32; l++) {
    uint32_t t[3];
    thread_of(b, w, l, t);
    for (int i = 0; i < 3; i++) tid[i][l] = t[i];
    lane[l] = (uint64_t)l;
    wid[l] = (uint64_t)w;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_EQ) * 32 + (size_t)l] = 1ull << l;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_LT) * 32 + (size_t)l] = (1ull << l) - 1;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_LE) * 32 + (size_t)l] = (2ull << l) - 1;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_GT) * 32 + (size_t)l] = (uint32_t)~((2ull << l) - 1);
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_GE) * 32 + (size_t)l] = (uint32_t)~((1ull << l) - 1);
  }
}

/* Removes exited lanes from the stack and pops finished entries. */
static void pop_done(Warp *w) {
  while (w->sp > 0) {
    SimtEntry *t = &w->stack[w->sp - 1];
    t->mask &= ~w->exited;
    if (t->mask && t->pc != t->rpc) break;
    w->sp--;
  }
  if (w->sp == 0) w->state = W_DONE;
}

static int arrive(Block *b, Warp *w, int wi, const EmuInstr *x, uint32_t mask, uint64_t *R) {
  uint32_t id = (uint32_t)R[(size_t)x->s[0] * 32 + (size_t)__builtin_ctz(mask)];
  if (id >= 16) return fault(b, x, wi, __builtin_ctz(mask), WM_EFAULT, "barrier id %u is out of range (0..15)", id);
  if (x->s[1] != EMU_NOSLOT) {
    uint32_t cnt = (uint32_t)R[(size_t)x->s[1] * 32 + (size_t)__builtin_ctz(mask)];
    if (cnt % 32 || cnt == 0 || cnt > b->nwarps * 32)
      return fault(b, x, wi, __builtin_ctz(mask), WM_EFAULT,
                   "barrier thread count %u must be a non-zero multiple of 32 no larger than the block", cnt);
    b->bar_expected[id] = cnt;
  }
  /* as the hardware does, a warp counts as a whole (32 threads, or all of a
   * partial warp) when it arrives */
  b->bar_arrived[id] += popc32(w->exists & ~w->exited);
  if (x->sub >= PTX_SUB_RED_POPC && x->sub <= PTX_SUB_RED_OR) {
    uint32_t c = pred_mask(R + (size_t)x->s[2] * 32);
    if (x->s_neg[2]) c = ~c;
    c &= mask;
    b->bar_popc[id] += popc32(c);
    if (c != mask) b->bar_all[id] = 0;
    if (c) b->bar_any[id] = 1;
    w->red_kind = x->sub;
    w->red_dst = x->d[0];
    w->red_mask = mask;
  }
  if (x->sub == PTX_SUB_ARRIVE) return 0;
  w->state = W_WAIT;
  w->bar_id = (int)id;
  w->bar_pc = (uint32_t)(x - b->p->code);
  return 1;
}

/* Runs warp wi until it waits, exits or uses up its slice. */
static int run_warp(Block *b, int wi) {
  b->cur_warp = (uint16_t)wi;
  Warp *w = &b->warps[wi];
  const EmuProgram *p = b->p;
  const EmuInstr *code = p->code;
  uint64_t *R = w->R;
  uint64_t winstr = 0, tinstr = 0;
  int rc = 0;
  for (int budget = EMU_SLICE; budget > 0 && w->state == W_READY; budget--) {
    SimtEntry *top = &w->stack[w->sp - 1];
    const EmuInstr *x = &code[top->pc];
    uint32_t mask = top->mask;
    winstr++;
    tinstr += mask == FULL ? 32u : (uint64_t)popc32(mask);
    uint32_t eff = mask;
    if (x->guard != EMU_NOSLOT) {
      uint32_t g = pred_mask(R + (size_t)x->guard * 32);
      eff &= x->guard_neg ? ~g : g;
    }
    uint32_t next = top->pc + 1;
    if (eff == 0 && x->op != PTX_OP_BRA) goto advance;
    switch (x->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU: rc = exec_ld(b, x, wi, eff, R); break;
    case PTX_OP_ST: rc = exec_st(b, x, wi, eff, R); break;
    case PTX_OP_ATOM:
    case PTX_OP_RED: rc = exec_atom(b, x, wi, eff, R); break;
    case PTX_OP_MOV: exec_mov(x, eff, R); break;
    case PTX_OP_CVTA: {
      const uint64_t *a = SRC(0);
      uint64_t *d = DST(0);
      uint64_t win = x->space == PTX_S_SHARED ? EMU_SHARED_WIN
                   : x->space == PTX_S_LOCAL ? EMU_LOCAL_WIN
                   : x->space == PTX_S_CONST ? EMU_CONST_WIN : 0;
      unsigned size = ptx_type_size((PtxType)x->type);
      if (x->sub == PTX_SUB_TO) LANES(eff, d[l] = zext(a[l] - win, size));
      else LANES(eff, d[l] = zext(a[l] + win, size));
      break;
    }
    case PTX_OP_CVT: rc = exec_cvt(b, x, eff, R); break;
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24:
    case PTX_OP_MAD24: case PTX_OP_FMA: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_MIN:
    case PTX_OP_MAX: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_SAD: case PTX_OP_COPYSIGN:
    case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_EX2: case PTX_OP_LG2:
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH:
      rc = exec_arith(b, x, wi, eff, R);
      break;
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV:
    case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_PRMT: case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_BFIND:
      rc = exec_bits(b, x, wi, eff, R);
      break;
    case PTX_OP_SETP: exec_setp(x, eff, R); break;
    case PTX_OP_SET: exec_set(x, eff, R); break;
    case PTX_OP_SELP:
    case PTX_OP_SLCT: exec_selp(x, eff, R); break;
    case PTX_OP_TESTP: exec_testp(x, eff, R); break;
    case PTX_OP_SHFL: rc = exec_shfl(b, x, eff, R); break;
    case PTX_OP_VOTE: exec_vote(x, eff, R); break;
    case PTX_OP_MATCH: exec_match(x, eff, R); break;
    case PTX_OP_REDUX: exec_redux(x, eff, R); break;
    case PTX_OP_ACTIVEMASK: {
      uint64_t *d = DST(0);
      LANES(eff, d[l] = mask);
      break;
    }
    case PTX_OP_BRA: {
      if (eff == mask) {
        next = x->target;
      } else if (eff != 0) {
        /* divergence: this entry waits at the reconvergence point while
         * the two paths run, taken path first */
        if (w->sp + 2 > EMU_STACK_MAX)
          return fault(b, x, wi, __builtin_ctz(mask), WM_ELIMIT, "divergence nested deeper than %d levels",
                       EMU_STACK_MAX);
        uint32_t rpc = x->rpc;
        top->pc = rpc;
        if (next != rpc) w->stack[w->sp++] = (SimtEntry){next, rpc, mask & ~eff};
        if (x->target != rpc) w->stack[w->sp++] = (SimtEntry){x->target, rpc, eff};
        pop_done(w);
        continue;
      }
      break;
    }
    case PTX_OP_RET:
    case PTX_OP_EXIT:
      w->exited |= eff;
      b->exited_threads += popc32(eff);
      if (eff == mask) {
        pop_done(w);
        continue;
      }
      top->mask &= ~eff;
      break;
    case PTX_OP_TRAP:
      rc = fault(b, x, wi, __builtin_ctz(eff), WM_EFAULT, "trap instruction executed");
      break;
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
      rc = arrive(b, w, wi, x, eff, R);
      if (rc > 0) {
        top->pc = next;
        rc = 0;
        goto out;
      }
      break;
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_BARWARP: case PTX_OP_NANOSLEEP:
    case PTX_OP_PREFETCH:
      break;
    default:
      rc = fault(b, x, wi, __builtin_ctz(eff), WM_EUNSUP, "%s is not supported by the emulator",
                 ptx_op_name[x->op]);
    }
    if (rc) break;
  advance:
    top->pc = next;
    if (next == top->rpc) pop_done(w);
  }
out:
  b->warp_instrs += winstr;
  b->thread_instrs += tinstr;
  return rc;
}

/* Completes every barrier whose threads have all arrived. */
static int release_barriers(Block *b) {
  int released = 0;
  uint32_t live = b->nthreads - b->exited_threads;
  for (int id = 0; id < 16; id++) {
    uint32_t need = b->bar_expected[id] ? b->bar_expected[id] : live;
    int waiting = 0;
    for (uint32_t w = 0; w < b->nwarps; w++)
      if (b->warps[w].state == W_WAIT && b->warps[w].bar_id == id) waiting = 1;
    if (!waiting || b->bar_arrived[id] < need) continue;
    for (uint32_t w = 0; w < b->nwarps; w++) {
      Warp *wp = &b->warps[w];
      if (wp->state != W_WAIT || wp->bar_id != id) continue;
      wp->state = W_READY;
      if (wp->red_kind && wp->red_dst != EMU_NOSLOT) {
        uint64_t v = wp->red_kind == PTX_SUB_RED_POPC ? b->bar_popc[id]
                   : wp->red_kind == PTX_SUB_RED_AND ? b->bar_all[id] : b->bar_any[id];
        uint64_t *d = wp->R + (size_t)wp->red_dst * 32;
        LANES(wp->red_mask, d[l] = v);
      }
      wp->red_kind = 0;
    }
    b->bar_arrived[id] = 0;
    b->bar_expected[id] = 0;
    b->bar_popc[id] = 0;
    b->bar_all[id] = 1;
    b->bar_any[id] = 0;
    released = 1;
  }
  return released;
}

static int deadlock(Block *b) {
  char list[1536] = "";
  size_t n = 0;
  int first = -1;
  for (uint32_t w = 0; w < b->nwarps && n < sizeof list - 200; w++) {
    Warp *wp = &b->warps[w];
    if (wp->state != W_WAIT) continue;
    if (first < 0) first = (int)w;
    const PtxInstr *in = &b->p->k->code[wp->bar_pc];
    const char *cu = ptx_cu_file(b->m, in), *base = strrchr(cu, '/');
    uint32_t pending = 0;
    for (int s = 0; s < wp->sp; s++) pending |= wp->stack[s].mask;
    char src[300] = "";
    if (in->cu_line) snprintf(src, sizeof src, "%s:%u, ", base ? base + 1 : cu, in->cu_line);
    n += (size_t)snprintf(list + n, sizeof list - n, "\n  warp %u waits at barrier %d (%sPTX line %u)%s", w,
                          wp->bar_id, src, in->ptx_line,
                          (pending & ~wp->exited) != (wp->exists & ~wp->exited)
                              ? ": some of its lanes are on another path and cannot arrive" : "");
  }
  uint32_t live = b->nthreads - b->exited_threads;
  const PtxInstr *in = &b->p->k->code[b->warps[first].bar_pc];
  const char *cu = ptx_cu_file(b->m, in), *base = strrchr(cu, '/');
  char ptxw[512];
  ptx_where(b->m, in->ptx_line, ptxw, sizeof ptxw);
  char at[1024];
  if (in->cu_line) snprintf(at, sizeof at, "%s:%u (%s)", base ? base + 1 : cu, in->cu_line, ptxw);
  else snprintf(at, sizeof at, "%s", ptxw);
  return wm_err(b->e, WM_EDEADLOCK,
                "barrier deadlock in kernel %s, block (%u,%u,%u): the barrier at %s can never complete: "
                "%u of %u live threads arrived%s",
                b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], at,
                b->bar_arrived[b->warps[first].bar_id], live, list);
}

static int run_block(Block *b) {
  for (uint32_t w = 0; w < b->nwarps; w++) {
    Warp *wp = &b->warps[w];
    uint32_t first = w * 32, n = b->nthreads - first < 32 ? b->nthreads - first : 32;
    wp->exists = n == 32 ? FULL : (1u << n) - 1;
    wp->exited = 0;
    wp->state = W_READY;
    wp->sp = 1;
    wp->stack[0] = (SimtEntry){0, (uint32_t)b->p->ncode, wp->exists};
    sreg_block_values(b, wp->R);
  }
  b->sregs_ready = 1;
  memset(b->bar_arrived, 0, sizeof b->bar_arrived);
  memset(b->bar_expected, 0, sizeof b->bar_expected);
  memset(b->bar_popc, 0, sizeof b->bar_popc);
  memset(b->bar_all, 1, sizeof b->bar_all);
  memset(b->bar_any, 0, sizeof b->bar_any);
  b->exited_threads = 0;
  for (;;) {
    int ran = 0, waiting = 0;
    for (uint32_t w = 0; w < b->nwarps; w++) {
      if (b->warps[w].state == W_READY) {
        if (run_warp(b, (int)w)) return -1;
        ran = 1;
      }
    }
    for (uint32_t w = 0; w < b->nwarps; w++) waiting |= b->warps[w].state == W_WAIT;
    if (release_barriers(b)) continue;
    if (ran) continue;
    if (!waiting) return 0;
    return deadlock(b);
  }
}

/* --- launch --- */

static int check_launch(const EmuLaunch *l, const PtxKernel *k, uint32_t shared, WmErr *e) {
  const uint32_t *g = l->grid, *bl = l->block;
  uint64_t threads = (uint64_t)bl[0] * bl[1] * bl[2];
  if (!g[0] || !g[1] || !g[2] || !bl[0] || !bl[1] || !bl[2])
    return wm_err(e, WM_ELIMIT, "kernel %s: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
                  k->name, g[0], g[1], g[2], bl[0], bl[1], bl[2]);
  if (threads > EMU_MAX_BLOCK_THREADS || bl[0] > EMU_MAX_BLOCK_DIM_XY || bl[1] > EMU_MAX_BLOCK_DIM_XY ||
      bl[2] > EMU_MAX_BLOCK_DIM_Z)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s: block (%u,%u,%u) has %llu threads; CUDA allows at most %u per block "
                  "(x, y <= %u, z <= %u): the launch would fail with cudaErrorInvalidConfiguration",
                  k->name, bl[0], bl[1], bl[2], (unsigned long long)threads, EMU_MAX_BLOCK_THREADS,
                  EMU_MAX_BLOCK_DIM_XY, EMU_MAX_BLOCK_DIM_Z);
  if (g[1] > EMU_MAX_GRID_YZ || g[2] > EMU_MAX_GRID_YZ || g[0] > EMU_MAX_GRID_X)
    return wm_err(e, WM_ELIMIT, "kernel %s: grid (%u,%u,%u) exceeds CUDA's limits (x < 2^31, y, z <= %u)",
                  k->name, g[0], g[1], g[2], EMU_MAX_GRID_YZ);
  for (int i = 0; i < 3; i++)
    if (k->reqntid[i] && k->reqntid[i] != bl[i])
      return wm_err(e, WM_ELIMIT, "kernel %s requires a block of (%u,%u,%u) threads (.reqntid), not (%u,%u,%u)",
                    k->name, k->reqntid[0], k->reqntid[1] ? k->reqntid[1] : 1, k->reqntid[2] ? k->reqntid[2] : 1,
                    bl[0], bl[1], bl[2]);
  if (shared > EMU_MAX_SMEM_BLOCK)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s: %u bytes of shared memory per block (%u static + %u dynamic) exceed the "
                  "%u bytes an sm_90 block can have",
                  k->name, shared, k->shared_static, l->smem_dynamic, EMU_MAX_SMEM_BLOCK);
  if (l->smem_dynamic && !k->shared_extern_align)
    return 0; /* allowed: CUDA accepts dynamic shared memory nobody uses */
  return 0;
}

/* --- workers: blocks are independent, so they run on several host threads;
 * each worker has its own block state and statistics, merged at the end in
 * worker order, so the counters do not depend on the thread count. --- */

/* Sampling: the j-th block run is block_of(l, j); with sample_every k > 1
 * only every k-th wave of sample_wave blocks runs. */
static uint64_t block_of(const EmuLaunch *l, uint64_t j) {
  if (l->sample_every <= 1 || !l->sample_wave) return j;
  return j / l->sample_wave * l->sample_wave * l->sample_every + j % l->sample_wave;
}

static uint64_t blocks_to_run(const EmuLaunch *l, uint64_t nblocks) {
  if (l->sample_every <= 1 || !l->sample_wave) return nblocks;
  uint64_t span = l->sample_wave * l->sample_every, full = nblocks / span, rest = nblocks % span;
  return full * l->sample_wave + (rest < l->sample_wave ? rest : l->sample_wave);
}

/* Block traces wait here to be replayed through the caches in launch order
 * (mem/cache.h): a worker that finishes block i parks its trace in slot
 * i % EMU_RING, then whoever finds the next block in order ready replays
 * it.  A worker more than EMU_RING blocks ahead waits. */
#define EMU_RING 64

typedef struct Ring {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  MemTrace slot[EMU_RING];
  uint8_t ready[EMU_RING];
  uint64_t head;          /* next block to replay */
  uint64_t nblocks;
  int group;              /* blocks replayed together (cache_group) */
  const EmuLaunch *l;
  int draining, abort;
  CacheSys *cache;
} Ring;

/* Blocks of the group starting at g->head, if all are ready, else 0. */
static int group_ready(const Ring *g) {
  uint64_t n = g->nblocks - g->head < (uint64_t)g->group ? g->nblocks - g->head : (uint64_t)g->group;
  for (uint64_t i = 0; i < n; i++)
    if (!g->ready[(g->head + i) % EMU_RING]) return 0;
  return (int)n;
}

/* Hands block i's trace (emptied in exchange) to the ring and replays what
 * is in order.  Returns -1 if the run was aborted. */
static int ring_put(Ring *g, uint64_t i, MemTrace *t) {
  pthread_mutex_lock(&g->mu);
  while (!g->abort && i - g->head >= EMU_RING) pthread_cond_wait(&g->cv, &g->mu);
  if (g->abort) {
    pthread_mutex_unlock(&g->mu);
    return -1;
  }
  MemTrace spare = g->slot[i % EMU_RING];
  g->slot[i % EMU_RING] = *t;
  *t = spare;
  t->n = 0;
  g->ready[i % EMU_RING] = 1;
  if (!g->draining) {
    g->draining = 1;
    int n;
    while (!g->abort && (n = group_ready(g)) > 0) {
      const MemTrace *x[EMU_RING];
      for (int j = 0; j < n; j++) x[j] = &g->slot[(g->head + (uint64_t)j) % EMU_RING];
      pthread_mutex_unlock(&g->mu);
      cache_blocks(g->cache, block_of(g->l, g->head), x, n);
      pthread_mutex_lock(&g->mu);
      for (int j = 0; j < n; j++) {
        g->slot[g->head % EMU_RING].n = 0;
        g->ready[g->head % EMU_RING] = 0;
        g->head++;
      }
      pthread_cond_broadcast(&g->cv);
    }
    g->draining = 0;
  }
  pthread_mutex_unlock(&g->mu);
  return 0;
}

static void ring_abort(Ring *g) {
  pthread_mutex_lock(&g->mu);
  g->abort = 1;
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

typedef struct Worker {
  Block b;
  MemModel mm;
  MemTrace trace;
  Ring *ring;
  WmErr err;
  uint64_t first, step, nblocks;
  uint64_t *stop_at;      /* lowest faulting block so far (shared) */
  uint64_t fault_block;
  pthread_t th;
  int started;
} Worker;

int emu_threads(void) {
  const char *env = getenv("WARPMEM_THREADS");
  long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > EMU_MAX_THREADS) n = EMU_MAX_THREADS;
  return (int)n;
}

static void block_setup(Block *b, EmuLaunch *l, const EmuProgram *prog, uint32_t shared, WmErr *e) {
  MemModel *mm = b->mm;
  memset(b, 0, sizeof *b);
  b->mm = mm;
  b->l = l;
  b->p = prog;
  b->m = l->mod;
  b->e = e;
  b->nthreads = l->block[0] * l->block[1] * l->block[2];
  b->nwarps = (b->nthreads + 31) / 32;
  b->shared_size = shared;
  b->shared = wm_xcalloc(shared + 16, 1);
  b->local_size = l->kernel->local_size;
  b->local = wm_xcalloc((size_t)b->nwarps * 32 * (b->local_size ? b->local_size : 1), 1);
  b->warps = wm_xcalloc(b->nwarps, sizeof *b->warps);
  b->regs = wm_xcalloc((size_t)b->nwarps * prog->nslots * 32, sizeof(uint64_t));
  for (uint32_t w = 0; w < b->nwarps; w++) {
    b->warps[w].R = b->regs + (size_t)w * prog->nslots * 32;
    b->warps[w].stack = wm_xmalloc(sizeof(SimtEntry) * EMU_STACK_MAX);
    warp_init_slots(b, (int)w, b->warps[w].R);
  }
}

static void block_teardown(Block *b) {
  for (uint32_t w = 0; w < b->nwarps; w++) free(b->warps[w].stack);
  free(b->regs);
  free(b->warps);
  free(b->local);
  free(b->shared);
}

static void *run_blocks(void *arg) {
  Worker *w = arg;
  Block *b = &w->b;
  const EmuLaunch *l = b->l;
  for (uint64_t j = w->first; j < w->nblocks; j += w->step) {
    if (j > __atomic_load_n(w->stop_at, __ATOMIC_RELAXED)) break;
    uint64_t i = block_of(l, j);
    b->ctaid[0] = (uint32_t)(i % l->grid[0]);
    b->ctaid[1] = (uint32_t)(i / l->grid[0] % l->grid[1]);
    b->ctaid[2] = (uint32_t)(i / ((uint64_t)l->grid[0] * l->grid[1]));
    if (b->shared_size) memset(b->shared, 0, b->shared_size);
    int bad = run_block(b);
    if (!bad && w->ring && ring_put(w->ring, j, &w->trace)) break;
    if (bad) {
      if (w->ring) ring_abort(w->ring);
      w->fault_block = j;
      uint64_t cur = __atomic_load_n(w->stop_at, __ATOMIC_RELAXED);
      while (j < cur && !__atomic_compare_exchange_n(w->stop_at, &cur, j, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      }
      break;
    }
  }
  return NULL;
}

int emu_run(EmuLaunch *l, WmErr *e) {
  const PtxKernel *k = l->kernel;
  const PtxModule *m = l->mod;
  uint32_t align = k->shared_extern_align ? k->shared_extern_align : 1;
  uint32_t shared = l->smem_dynamic ? (k->shared_static + align - 1) / align * align + l->smem_dynamic
                                    : k->shared_static;
  if (check_launch(l, k, shared, e)) return -1;

  /* module .global variables live in a buffer of their own */
  uint64_t gbase = 0;
  if (m->global_size) {
    int gi = gmem_alloc(l->gmem, m->global_size, "module __device__ variables", PTX_T_B8, m->global_size, e);
    if (gi < 0) return -1;
    gbase = l->gmem->buf[gi].addr;
    memcpy(l->gmem->buf[gi].data, m->global_init, m->global_size);
  }
  uint8_t *const_owned = NULL;
  if (!l->const_mem) {
    const_owned = wm_xcalloc(m->const_size + 1, 1);
    if (m->const_init) memcpy(const_owned, m->const_init, m->const_size);
    l->const_mem = const_owned;
  }
  EmuProgram prog;
  if (emu_prepare(&prog, m, k, gbase, e)) {
    free(const_owned);
    return -1;
  }

  int nw = emu_threads(), rc = 0;
  uint64_t grid_blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  uint64_t nblocks = blocks_to_run(l, grid_blocks);
  l->blocks_run = nblocks;
  if ((uint64_t)nw > nblocks) nw = (int)nblocks;
  Worker *ws = wm_xcalloc((size_t)nw, sizeof *ws);
  uint64_t stop_at = UINT64_MAX;
  Ring *ring = NULL;
  if (l->cache && l->mm) {
    ring = wm_xcalloc(1, sizeof *ring);
    pthread_mutex_init(&ring->mu, NULL);
    pthread_cond_init(&ring->cv, NULL);
    ring->cache = l->cache;
    ring->nblocks = nblocks;
    ring->l = l;
    ring->group = cache_group(l->cache);
    if (ring->group < 1 || ring->group > EMU_RING / 2) ring->group = 1;
  }
  for (int t = 0; t < nw; t++) {
    Worker *w = &ws[t];
    w->first = (uint64_t)t;
    w->step = (uint64_t)nw;
    w->nblocks = nblocks;
    w->stop_at = &stop_at;
    w->fault_block = UINT64_MAX;
    if (l->mm && mem_init(&w->mm, &l->mm->cfg, k->ncode) == 0) w->b.mm = &w->mm;
    if (ring && w->b.mm) {
      w->ring = ring;
      w->mm.trace = &w->trace;
    }
    block_setup(&w->b, l, &prog, shared, &w->err);
  }
  if (nw == 1) {
    run_blocks(&ws[0]);
  } else {
    for (int t = 1; t < nw; t++)
      if (pthread_create(&ws[t].th, NULL, run_blocks, &ws[t])) ws[t].started = -1;
      else ws[t].started = 1;
    run_blocks(&ws[0]);
    for (int t = 1; t < nw; t++) {
      if (ws[t].started == 1) pthread_join(ws[t].th, NULL);
      else run_blocks(&ws[t]); /* no thread: run its share here */
    }
  }
  /* the fault of the lowest block wins: every lower block has run */
  int worst = -1;
  for (int t = 0; t < nw; t++)
    if (ws[t].fault_block != UINT64_MAX && (worst < 0 || ws[t].fault_block < ws[worst].fault_block)) worst = t;
  if (worst >= 0) {
    *e = ws[worst].err;
    rc = -1;
  }
  l->warp_instrs = l->thread_instrs = 0;
  for (int t = 0; t < nw; t++) {
    Worker *w = &ws[t];
    l->warp_instrs += w->b.warp_instrs;
    l->thread_instrs += w->b.thread_instrs;
    if (w->b.mm) mem_merge(l->mm, &w->mm);
    if (w->b.mm) mem_free(&w->mm);
    trace_free(&w->trace);
    block_teardown(&w->b);
  }
  if (l->mm) {
    l->mm->metric[WM_M_WARPS] += nblocks * ((l->block[0] * l->block[1] * l->block[2] + 31) / 32);
    l->mm->metric[WM_M_INST] += l->warp_instrs;
  }
  free(ws);
  if (ring) {
    for (int i = 0; i < EMU_RING; i++) trace_free(&ring->slot[i]);
    pthread_mutex_destroy(&ring->mu);
    pthread_cond_destroy(&ring->cv);
    free(ring);
  }
  emu_program_free(&prog);
  if (const_owned) {
    free(const_owned);
    l->const_mem = NULL;
  }
  return rc;
}
