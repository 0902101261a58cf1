/* emu_wgmma.c - the warpgroup MMA instructions of sm_90a: wgmma.fence,
 * wgmma.commit_group, wgmma.wait_group, wgmma.mma_async.
 *
 * Notes:
 *  - A warpgroup is 4 consecutive warps whose first warp index is a
 *    multiple of 4 (PTX ISA, "Warpgroup").  The instructions are
 *    .sync.aligned: every thread of the warpgroup executes the same one.
 *    A partial warp, or a warpgroup the block does not hold whole, is a
 *    located fault; so is a warp of the group that exited or reached
 *    another wgmma.mma_async.
 *  - wgmma.mma_async is one operation of the whole warpgroup: the
 *    hardware reads every warp's A registers and accumulators and B (and
 *    A) from shared memory as one.  The emulator makes it a rendezvous of
 *    the 4 warps (EmuWgGroup): the first three wait at it (W_WAIT,
 *    bar_id EMU_BAR_WGMMA), the fourth computes the 64 x N tile from all
 *    four register files and wakes them; they go on past it.  So a warp
 *    that waits for the group (wait_group) and lets a producer reuse the
 *    buffer (one elected thread arriving on an mbarrier, as CUTLASS and
 *    fast.cu do) finds the other warps' parts done, as on the GPU.  The
 *    result is computed at issue, a legal schedule of the asynchronous
 *    operation: commit_group and wait_group have nothing left to wait for,
 *    and wgmma.fence only orders (no effect here).
 *  - Operands.  Each warp w owns rows 16w..16w+15 of D and of a register
 *    A.  Register j of lane (g = lane/4, t = lane%4) holds, for any input
 *    type, bytes 4t + 16(j/2) .. +3 of the 32-byte K row 16w + g + 8(j%2)
 *    of A (the ISA's register fragments of wgmma for k16, k8, k32 and
 *    k256); element e of D (register e for f32/s32, half e%2 of register
 *    e/2 for f16) is at row 16w + g + 8((e/2)%2), column 8(e/4) + 2t + e%2.
 *  - Matrix descriptors (ISA "Matrix Descriptor Format"): start address,
 *    leading and stride byte offsets (LBO, SBO; 14 bits each, in 16-byte
 *    units), base offset, swizzle (0 none, 1 128 B, 2 64 B, 3 32 B).  The
 *    canonical layouts are in 16-byte chunks (CuTe's make_gmma_desc, the
 *    ISA's "Shared Memory Matrix Layout"): a K-major tile is rows of 2
 *    chunks (K is always 256 bits), row r at (r/8) SBO + (r%8) 16 and
 *    chunk c at c LBO without swizzle, at (r/8) SBO + (r%8) span + 16c
 *    with one; an MN-major tile (16-bit types only) is K rows of M or N,
 *    chunk q of row k at q SBO + (k/8) LBO + (k%8) 16 without swizzle,
 *    at (q / (span/16)) LBO + (q % (span/16)) 16 + (k/8) SBO + (k%8) span
 *    with one.  The swizzle is emu_swizzle() of the absolute address,
 *    shifted by the base offset: the pattern's row is the address's bits
 *    7.. less the base offset (hypothesis where the base offset is not 0:
 *    the ISA only says how to compute it).  A chunk past the block's
 *    shared memory is a located fault, and so are descriptors that differ
 *    between the threads of the warpgroup.
 *  - Counters: the core matrices (8 rows of 16 bytes) each operand reads
 *    go to the memory model once per warpgroup instruction (mem/gmma.c
 *    says how it counts them).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "emu/emu_swizzle.h"
#include "util/half.h"

/* A warpgroup's rendezvous at wgmma.mma_async. */
typedef struct EmuWgGroup {
  uint32_t pc;        /* the instruction its waiting warps wait at */
  uint8_t arrived;    /* warps (bit w % 4) waiting there */
  uint8_t done;       /* warps whose part was computed: they go on */
} EmuWgGroup;

struct EmuWgBlock {
  uint32_t ngroups;
  EmuWgGroup *g;
  EmuWgTile tile;     /* the instruction being computed */
  uint64_t arow[128], brow[512]; /* the core matrices' rows it reads */
};

int emu_wgmma_used(const EmuProgram *p) { return p->nwgmma > 0; }

EmuWgBlock *emu_wgmma_new(uint32_t nwarps) {
  EmuWgBlock *w = wm_xcalloc(1, sizeof *w);
  w->ngroups = nwarps / 4;
  w->g = wm_xcalloc(w->ngroups + 1, sizeof *w->g);
  return w;
}

void emu_wgmma_reset(EmuWgBlock *w) { memset(w->g, 0, (w->ngroups + 1) * sizeof *w->g); }

void emu_wgmma_free(EmuWgBlock *w) {
  if (!w) return;
  free(w->g);
  free(w);
}

int emu_wgmma_decode(EmuProgram *p, const PtxInstr *in, EmuInstr *x) {
  p->wgmma = wm_xrealloc(p->wgmma, (p->nwgmma + 1) * sizeof *p->wgmma);
  EmuWgmma *t = &p->wgmma[p->nwgmma];
  memset(t, 0, sizeof *t);
  t->m = in->mma;
  t->nd = in->opd[0].n;
  for (int i = 0; i < t->nd; i++) t->d[i] = ptx_vec_reg(p->k, &in->opd[0], i);
  t->adesc = EMU_NOSLOT;
  if (in->mma.wg & PTX_WG_AREG)
    for (int i = 0; i < 4; i++) t->a[i] = ptx_vec_reg(p->k, &in->opd[1], i);
  else
    t->adesc = in->opd[1].reg[0];
  t->bdesc = in->opd[2].reg[0];
  t->scale = (in->mma.wg & PTX_WG_SCALE_IMM) ? EMU_NOSLOT : in->opd[3].reg[0];
  t->scale_imm = (uint8_t)(in->opd[3].imm != 0);
  x->target = p->nwgmma++;
  return 0;
}

/* --- the warpgroup --- */

/* The 4 warps of warp's warpgroup must all be whole threads of the block,
 * and warp's lanes all active. */
static int whole_warpgroup(Block *b, const EmuInstr *x, int warp, uint32_t mask) {
  if (mask != FULL)
    return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP,
                     "%s needs all 32 lanes of the warp (it is .sync.aligned); active lanes 0x%08x", ptx_op_name[x->op],
                     mask);
  unsigned first = (unsigned)warp & ~3u;
  int whole = first + 4 <= b->nwarps;
  for (unsigned w = first; whole && w < first + 4; w++) whole = b->warps[w].exists == FULL;
  if (!whole)
    return emu_fault(b, x, warp, 0, WM_EFAULT,
                     "%s is executed by a warpgroup of 4 warps (128 threads, its first warp's index a multiple "
                     "of 4): warp %d's warpgroup, threads %u..%u, is not whole in this block of %u threads",
                     ptx_op_name[x->op], warp, 32 * first, 32 * first + 127, b->nthreads);
  return 0;
}

int emu_exec_wgmma_fence(EMU_EXEC_ARGS) {
  (void)R;
  return whole_warpgroup(b, x, warp, mask) ? -1 : 0;
}

int emu_exec_wgmma_commit(EMU_EXEC_ARGS) {
  (void)R;
  if (whole_warpgroup(b, x, warp, mask)) return -1;
  emu_clock_wgmma_commit(&b->warps[warp]);
  return 0;
}

int emu_exec_wgmma_wait(EMU_EXEC_ARGS) {
  if (whole_warpgroup(b, x, warp, mask)) return -1;
  emu_clock_wgmma_wait(&b->warps[warp], (uint32_t)R[(size_t)x->s[0] * 32 + (size_t)__builtin_ctz(mask)]);
  return 0;
}

/* --- descriptors and operands --- */

typedef struct Desc {
  uint64_t raw;
  uint32_t start, lbo, sbo, base;
  unsigned span; /* swizzle bytes: 0 (none), 128, 64, 32 */
} Desc;

static void desc_decode(uint64_t d, Desc *o) {
  static const unsigned spans[4] = {0, 128, 64, 32};
  o->raw = d;
  o->start = (uint32_t)(d & 0x3fff) << 4;
  o->lbo = (uint32_t)((d >> 16) & 0x3fff) << 4;
  o->sbo = (uint32_t)((d >> 32) & 0x3fff) << 4;
  o->base = (uint32_t)((d >> 49) & 7);
  o->span = spans[d >> 62];
}

static uint32_t physical(const Desc *d, uint32_t a) {
  if (!d->span) return a;
  uint32_t base = d->base << 7;
  return emu_swizzle(a - base, d->span) + base;
}

/* K-major: chunk c (0, 1) of row r. */
static uint32_t kmajor_chunk(const Desc *d, unsigned r, unsigned c) {
  uint32_t a = d->start + (r >> 3) * d->sbo;
  a += d->span ? (r & 7) * d->span + 16 * c : (r & 7) * 16 + c * d->lbo;
  return physical(d, a);
}

/* MN-major: chunk q (8 16-bit elements of M or N) of K row k. */
static uint32_t mnmajor_chunk(const Desc *d, unsigned q, unsigned k) {
  uint32_t a = d->start;
  if (d->span) {
    unsigned w = d->span / 16;
    a += (q / w) * d->lbo + (q % w) * 16 + (k >> 3) * d->sbo + (k & 7) * d->span;
  } else {
    a += q * d->sbo + (k >> 3) * d->lbo + (k & 7) * 16;
  }
  return physical(d, a);
}

static const char *layout_name(const Desc *d, int mn) {
  static const char *const names[2][4] = {{"K-major", "K-major 32B-swizzled", "K-major 64B-swizzled",
                                           "K-major 128B-swizzled"},
                                          {"MN-major", "MN-major 32B-swizzled", "MN-major 64B-swizzled",
                                           "MN-major 128B-swizzled"}};
  return names[mn][d->span == 32 ? 1 : d->span == 64 ? 2 : d->span == 128 ? 3 : 0];
}

static int past_shared(Block *b, const EmuInstr *x, int warp, char which, const Desc *d, int mn, uint32_t a,
                       unsigned r, unsigned c) {
  return emu_fault(b, x, warp, 0, WM_EFAULT,
                   "wgmma.mma_async's %c descriptor 0x%016" PRIx64 " (start 0x%x, LBO %u, SBO %u, %s) reads shared "
                   "memory at 0x%x (%s %u, chunk %u), past the block's %u bytes",
                   which, d->raw, d->start, d->lbo, d->sbo, layout_name(d, mn), a, mn ? "K row" : "row", mn ? c : r,
                   mn ? r : c, b->shared_size);
}

/* An operand of `rows` M or N rows from shared memory into dst[row][32]
 * (the 32 bytes of its K elements), and its core matrices' rows into
 * rowaddr (8 a matrix).  Returns the matrices, or -1 after a fault. */
static int gather_shared(Block *b, const EmuInstr *x, int warp, char which, const Desc *d, int mn, unsigned rows,
                         uint8_t (*dst)[32], uint64_t *rowaddr) {
  const uint8_t *sh = b->shared;
  if (!mn) {
    for (unsigned r = 0; r < rows; r++)
      for (unsigned c = 0; c < 2; c++) {
        uint32_t a = kmajor_chunk(d, r, c);
        if ((uint64_t)a + 16 > b->shared_size) return past_shared(b, x, warp, which, d, 0, a, r, c);
        memcpy(dst[r] + 16 * c, sh + a, 16);
        rowaddr[((r >> 3) * 2 + c) * 8 + (r & 7)] = a;
      }
    return (int)(rows / 8 * 2);
  }
  for (unsigned q = 0; q < rows / 8; q++) /* 16-bit elements: 8 to a chunk, K = 16 rows */
    for (unsigned k = 0; k < 16; k++) {
      uint32_t a = mnmajor_chunk(d, q, k);
      if ((uint64_t)a + 16 > b->shared_size) return past_shared(b, x, warp, which, d, 1, a, k, q);
      for (unsigned e = 0; e < 8; e++) memcpy(dst[8 * q + e] + 2 * k, sh + a + 2 * e, 2);
      rowaddr[(q * 2 + (k >> 3)) * 8 + (k & 7)] = a;
    }
  return (int)(rows / 8 * 2);
}

/* Slot s of the 4 warps of the group from `first`: the same in all 128
 * threads, or a fault naming the first that differs. */
static int uniform_value(Block *b, const EmuInstr *x, unsigned first, uint32_t s, char which, uint64_t *v) {
  const uint64_t *r0 = b->warps[first].R + (size_t)s * 32;
  *v = r0[0];
  for (unsigned w = first; w < first + 4; w++) {
    const uint64_t *r = b->warps[w].R + (size_t)s * 32;
    for (int l = 0; l < 32; l++)
      if (r[l] != *v)
        return emu_fault(b, x, (int)w, l, WM_EFAULT,
                         "wgmma.mma_async's %c descriptor differs between the threads of the warpgroup: 0x%016" PRIx64
                         " here, 0x%016" PRIx64 " in thread %u",
                         which, r[l], *v, 32 * first);
  }
  return 0;
}

/* Where element e of a lane's D fragment lies in the warp's 16 rows of an
 * n-column D: lane_off(lane) + elem_off(e) (the Notes' layout, split so
 * that a register's 32 lanes move with one add each). */
static inline unsigned lane_off(unsigned lane, unsigned n) { return (lane >> 2) * n + 2 * (lane & 3); }
static inline unsigned elem_off(unsigned e, unsigned n) { return 8 * ((e >> 1) & 1) * n + 8 * (e >> 2) + (e & 1); }

/* Each warp's A registers into the tile's rows. */
static void gather_registers(Block *b, const EmuWgmma *t, unsigned first, EmuWgTile *tile) {
  for (unsigned w = 0; w < 4; w++) {
    const uint64_t *R = b->warps[first + w].R;
    for (unsigned j = 0; j < 4; j++)
      for (unsigned l = 0; l < 32; l++) {
        uint32_t v = (uint32_t)R[(size_t)t->a[j] * 32 + l];
        memcpy(tile->a[16 * w + (l >> 2) + 8 * (j & 1)] + 4 * (l & 3) + 16 * (j >> 1), &v, 4);
      }
  }
}

/* The accumulators of the warps whose scale-d is 1 into tile->d. */
static void gather_c(Block *b, const EmuWgmma *t, unsigned first, EmuWgTile *tile) {
  unsigned n = t->m.wn, f16 = t->m.dtype == PTX_T_F16, lo[32];
  for (unsigned l = 0; l < 32; l++) lo[l] = lane_off(l, n);
  for (unsigned w = 0; w < 4; w++) {
    const uint64_t *R = b->warps[first + w].R;
    tile->scale[w] = t->scale == EMU_NOSLOT ? t->scale_imm : (uint8_t)(R[(size_t)t->scale * 32] & 1);
    if (!tile->scale[w]) continue;
    for (unsigned i = 0; i < t->nd; i++) {
      const uint64_t *r = R + (size_t)t->d[i] * 32;
      if (f16) { /* two halves a register, widened exactly */
        float *d0 = tile->d.f + 16 * w * n + elem_off(2 * i, n), *d1 = tile->d.f + 16 * w * n + elem_off(2 * i + 1, n);
        for (unsigned l = 0; l < 32; l++) {
          d0[lo[l]] = emu_f16_float((uint32_t)r[l] & 0xffff);
          d1[lo[l]] = emu_f16_float((uint32_t)(r[l] >> 16) & 0xffff);
        }
      } else { /* f32 bits or s32: the union's same 4 bytes */
        int32_t *d = tile->d.i + 16 * w * n + elem_off(i, n);
        for (unsigned l = 0; l < 32; l++) d[lo[l]] = (int32_t)(uint32_t)r[l];
      }
    }
  }
}

/* tile->d into every warp's D registers. */
static void scatter_d(Block *b, const EmuWgmma *t, unsigned first, const EmuWgTile *tile) {
  unsigned n = t->m.wn, f16 = t->m.dtype == PTX_T_F16, lo[32];
  for (unsigned l = 0; l < 32; l++) lo[l] = lane_off(l, n);
  for (unsigned w = 0; w < 4; w++) {
    uint64_t *R = b->warps[first + w].R;
    for (unsigned i = 0; i < t->nd; i++) {
      uint64_t *r = R + (size_t)t->d[i] * 32;
      if (f16) { /* rounded to nearest even */
        const float *d0 = tile->d.f + 16 * w * n + elem_off(2 * i, n), *d1 = tile->d.f + 16 * w * n + elem_off(2 * i + 1, n);
        for (unsigned l = 0; l < 32; l++) r[l] = (uint32_t)wm_f16_rn(d0[lo[l]]) | (uint32_t)wm_f16_rn(d1[lo[l]]) << 16;
      } else {
        const int32_t *d = tile->d.i + 16 * w * n + elem_off(i, n);
        for (unsigned l = 0; l < 32; l++) r[l] = (uint32_t)d[lo[l]];
      }
    }
  }
}

/* The tensor path (MemTensorPath) of the instruction's math. */
static unsigned tensor_path(const PtxMma *m) {
  switch (m->atype) {
  case PTX_T_F16: return MEM_TC_HGMMA_F16;
  case PTX_T_BF16: return MEM_TC_HGMMA_BF16;
  case PTX_MMA_TF32: return MEM_TC_HGMMA_TF32;
  case PTX_T_S8:
  case PTX_T_U8: return MEM_TC_IGMMA_INT8;
  case PTX_MMA_B1: return MEM_TC_BGMMA_B1;
  default: return MEM_TC_QGMMA_FP8;
  }
}

static void model_operand(MemGmmaOpd *o, int nmat, const uint64_t *rows, const Desc *d, int mn, unsigned extent,
                          const PtxMma *m) {
  o->nmat = nmat > 0 ? (uint32_t)nmat : 0;
  o->row = rows;
  o->mn = (uint16_t)extent;
  o->k = m->wk;
  o->span = (uint8_t)(d ? d->span : 0);
  o->mn_major = (uint8_t)mn;
  o->bits = (uint8_t)ptx_wgmma_elem_bits(m->atype);
}

/* The warpgroup's instruction, once its 4 warps are there.  Long because
 * it is the one sequence of the instruction: descriptors, gathers, math,
 * results, counters, each a few lines. */
static int compute_group(Block *b, const EmuInstr *x, unsigned first) {
  const EmuWgmma *t = &b->p->wgmma[x->target];
  EmuWgBlock *wb = b->wg;
  EmuWgTile *tile = &wb->tile;
  const PtxMma *m = &t->m;
  tile->n = m->wn, tile->k = m->wk;
  tile->dtype = m->dtype, tile->atype = m->atype, tile->btype = m->btype;
  tile->sat = (m->layout & PTX_MMA_SAT) != 0;
  tile->neg_a = (m->wg & PTX_WG_NEG_A) != 0, tile->neg_b = (m->wg & PTX_WG_NEG_B) != 0;
  uint64_t braw, araw = 0;
  Desc ad, bd;
  if (uniform_value(b, x, first, t->bdesc, 'B', &braw)) return -1;
  desc_decode(braw, &bd);
  int bmn = (m->wg & PTX_WG_TRANS_B) != 0, amn = (m->wg & PTX_WG_TRANS_A) != 0;
  int bmat = gather_shared(b, x, (int)first, 'B', &bd, bmn, m->wn, tile->b, wb->brow), amat = 0;
  if (bmat < 0) return -1;
  if (t->adesc != EMU_NOSLOT) {
    if (uniform_value(b, x, first, t->adesc, 'A', &araw)) return -1;
    desc_decode(araw, &ad);
    amat = gather_shared(b, x, (int)first, 'A', &ad, amn, EMU_WG_M, tile->a, wb->arow);
    if (amat < 0) return -1;
  } else {
    gather_registers(b, t, first, tile);
  }
  gather_c(b, t, first, tile);
  emu_wgmma_multiply(tile);
  scatter_d(b, t, first, tile);
  emu_clock_wgmma(b, first, tensor_path(m), (uint64_t)EMU_WG_M * m->wn * m->wk);
  if (b->mm) {
    MemGmma g = {.path = (uint8_t)tensor_path(m), .warps = 4, .macs = (uint64_t)EMU_WG_M * m->wn * m->wk,
                 .instr = (int)(x - b->p->code), .warp = (uint16_t)first};
    model_operand(&g.a, amat, wb->arow, t->adesc != EMU_NOSLOT ? &ad : NULL, amn, EMU_WG_M, m);
    model_operand(&g.b, bmat, wb->brow, &bd, bmn, m->wn, m);
    mem_gmma(b->mm, &g);
  }
  return 0;
}

/* A warp of the group that can never arrive: exited, or at another wgmma. */
static int stray_warp(Block *b, const EmuInstr *x, int warp, unsigned first, const EmuWgGroup *g) {
  uint32_t pc = (uint32_t)(x - b->p->code);
  if (g->arrived && g->pc != pc)
    return emu_fault(b, x, warp, 0, WM_EFAULT,
                     "warp %d reached this wgmma.mma_async while the other warps of its warpgroup (warps %u..%u) "
                     "wait at the one at PTX line %u: the 4 warps execute the same wgmma.mma_async together "
                     "(.sync.aligned)",
                     warp, first, first + 3, b->p->k->code[g->pc].ptx_line);
  for (unsigned w = first; w < first + 4; w++)
    if (b->warps[w].state == W_DONE)
      return emu_fault(b, x, warp, 0, WM_EFAULT,
                       "warp %u of this warpgroup (warps %u..%u) has exited and cannot execute wgmma.mma_async "
                       "with it (.sync.aligned: the 4 warps execute it together)",
                       w, first, first + 3);
  return 0;
}

int emu_exec_wgmma_mma(EMU_EXEC_ARGS) {
  (void)R;
  if (whole_warpgroup(b, x, warp, mask)) return -1;
  unsigned first = (unsigned)warp & ~3u, bit = 1u << (warp & 3);
  EmuWgGroup *g = &b->wg->g[first / 4];
  if (g->done & bit) { /* the group's last warp computed this warp's part */
    g->done &= (uint8_t)~bit;
    return 0;
  }
  if (stray_warp(b, x, warp, first, g)) return -1;
  g->arrived |= (uint8_t)bit;
  g->pc = (uint32_t)(x - b->p->code);
  if (g->arrived != 0xf) {
    Warp *w = &b->warps[warp];
    w->state = W_WAIT;
    w->bar_id = EMU_BAR_WGMMA;
    w->bar_pc = g->pc;
    return 1;
  }
  g->arrived = 0;
  if (compute_group(b, x, first)) return -1;
  g->done = (uint8_t)(0xf & ~bit);
  for (unsigned w = first; w < first + 4; w++)
    if ((int)w != warp) b->warps[w].state = W_READY;
  return 0;
}
