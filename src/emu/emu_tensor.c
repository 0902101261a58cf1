/* emu_tensor.c - the tensor-core instructions: ldmatrix, stmatrix,
 * movmatrix (8x8 b16 matrices between shared memory and the warp's
 * registers), mma.sync and wmma.load/store/mma.
 *
 * Notes:
 *  - Fragments.  Every mma.sync layout of the PTX ISA (f16/bf16 m16n8k8 and
 *    m16n8k16, tf32 m16n8k4/k8, f64 m8n8k4 and sm_90's m16n8k4/k8/k16,
 *    s8/u8 m16n8k16/k32) is built from one "core tile": lane (g = lane / 4,
 *    t = lane % 4) holds row g and the w elements 4w*tile + w*t .. +w-1 of
 *    an 8-row tile (w: elements per 32-bit register for A and B, so 8x8
 *    tiles of f16, 8x16 of s8, 8x4 of tf32 and f64; always 2 for C and D).
 *    A and C list their tiles down the rows first (a0a1 rows 0-7, a2a3 rows
 *    8-15, a4a5 the next columns), B holds B^T's tiles along k first
 *    (b0b1 k 0-7, b2b3 k 8-15).  elem_pos() computes this once for all
 *    shapes; the PTX ISA's figures for each shape are this rule.
 *  - wmma's layout is unspecified by PTX.  We use the same rule over the
 *    whole wmma matrix: an m16n16k16 fragment is the m16n8k16 fragments of
 *    its tiles side by side, which is how sm_80+ runs wmma (ptxas lowers
 *    an f16 m16n16k16 wmma.mma to two m16n8k16 HMMAs), so each lane's
 *    wmma.load addresses -- and the sectors and wavefronts counted -- are
 *    those of real m16n8k16 fragments.  wmma's f16 A and B fragments have
 *    8 registers whatever the shape; the registers past the distinct
 *    elements repeat them (element e holds element e mod distinct).  The
 *    results do not depend on the layout: load, mma and store agree on it.
 *  - Arithmetic.  f16, bf16 and tf32 products are exact in f32 (at most 22
 *    significant bits); they are summed in f32 in k order starting from C,
 *    and an f16 D is rounded once from that f32 sum (nearest even).  The
 *    hardware's adder tree keeps more bits and rounds differently: results
 *    can differ in the last f32 bits, never more than the f32 sum's error
 *    bound.  tf32 inputs drop their 13 low mantissa bits as the hardware
 *    does.  f64 is a chain of fused multiply-adds (.rn).  s8/u8 sums are
 *    exact; s32 wraps, or clamps with .satfinite.
 *  - wmma.load/store move one request per register (its elements when they
 *    are adjacent in memory, else one per element), skipping repeated
 *    registers; ptxas may fuse them into wider LDG/LDS or use LDSM.  A
 *    store of 32- or 64-bit elements moves two registers per request when
 *    their elements are adjacent and aligned in every lane: the H100 stores
 *    f32, s32 and f64 accumulators with STG.64 and STG.128 (half the
 *    requests of one per element, docs/results/h100-2026-11-23-corpus),
 *    and loads them with LDG.64 alike, except m8n32k16's 32-bit ones: a
 *    row of the tile per register (row_request).  A 16-bit register whose
 *    elements are not adjacent is one request too (transposed_request).
 *  - All 32 lanes must execute these instructions (.sync.aligned): a
 *    partial warp is a located fault.
 */
#include <inttypes.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "util/half.h"

#define TF32 PTX_MMA_TF32

/* One fragment of an instruction: the matrix it holds and how. */
typedef struct Frag {
  unsigned rows, cols;   /* A: M x K, B: K x N, C and D: M x N */
  unsigned type, esize;  /* element type (PtxType or TF32) and bytes */
  unsigned per_reg;      /* elements in one register */
  unsigned w;            /* elements side by side in a core-tile row */
  unsigned nregs, unique;/* registers; distinct elements per lane */
  int is_b;
} Frag;

static void frag_init(Frag *f, const PtxMma *m, char which, unsigned nregs) {
  const PtxMmaDims *d = &ptx_mma_dims[m->shape];
  f->type = which == 'a' ? m->atype : which == 'b' ? m->btype : which == 'c' ? m->ctype : m->dtype;
  f->esize = ptx_mma_elem_size(f->type);
  f->is_b = which == 'b';
  f->rows = which == 'b' ? d->k : d->m;
  f->cols = which == 'a' ? d->k : d->n;
  f->per_reg = f->esize >= 4 ? 1 : 4 / f->esize;
  f->w = which == 'a' || which == 'b' ? f->per_reg : 2;
  f->nregs = nregs;
  f->unique = f->rows * f->cols / 32;
}

/* Where element e (< unique) of lane l's fragment lies in the matrix. */
static void elem_pos(const Frag *f, int l, unsigned e, unsigned *r, unsigned *c) {
  unsigned g = (unsigned)l >> 2, t = (unsigned)l & 3, tile = e / f->w, i = e % f->w, span = 4 * f->w;
  if (f->is_b) { /* B^T's tiles: k (the rows of B) first */
    unsigned nk = f->rows / span;
    *r = span * (tile % nk) + f->w * t + i;
    *c = 8 * (tile / nk) + g;
  } else {
    unsigned nr = f->rows / 8;
    *r = 8 * (tile % nr) + g;
    *c = span * (tile / nr) + f->w * t + i;
  }
}

/* The value of an element's bits. */
static double elem_value(unsigned type, uint64_t bits) {
  switch (type) {
  case PTX_T_F16: return wm_f16_value((uint16_t)bits);
  case PTX_T_BF16: return wm_bf16_value((uint16_t)bits);
  case TF32: return F32((uint32_t)bits & 0xffffe000u); /* the 13 low mantissa bits are ignored */
  case PTX_T_F32: return F32((uint32_t)bits);
  case PTX_T_F64: return F64(bits);
  case PTX_T_S8: return (int8_t)bits;
  case PTX_T_U8: return (uint8_t)bits;
  case PTX_T_S32: return (int32_t)bits;
  default: return (double)bits;
  }
}

/* The bits of v as an element of a D or C fragment (or a stored matrix). */
static uint64_t elem_bits(unsigned type, double v) {
  switch (type) {
  case PTX_T_F16: return wm_f16_from(v, WM_RND_NEAREST);
  case PTX_T_BF16: return wm_bf16_from(v, WM_RND_NEAREST);
  case PTX_T_F32: return B32((float)v);
  case PTX_T_F64: return B64(v);
  default: return (uint32_t)(int32_t)(int64_t)v; /* s32: v is already in range */
  }
}

static uint64_t field(const Frag *f, uint64_t reg, unsigned i) {
  unsigned bits = f->esize * 8;
  return bits >= 64 ? reg : reg >> (i * bits) & ((1ull << bits) - 1);
}

/* Lane l's fragment in registers `slots` -> mat[rows * cols]. */
static void gather(const Frag *f, const uint32_t *slots, const uint64_t *R, double *mat) {
  for (int l = 0; l < 32; l++)
    for (unsigned e = 0; e < f->unique; e++) {
      unsigned r, c;
      elem_pos(f, l, e, &r, &c);
      uint64_t reg = R[(size_t)slots[e / f->per_reg] * 32 + (size_t)l];
      mat[r * f->cols + c] = elem_value(f->type, field(f, reg, e % f->per_reg));
    }
}

/* mat -> every lane's fragment registers (repeated elements included). */
static void scatter(const Frag *f, const uint32_t *slots, uint64_t *R, const double *mat) {
  unsigned bits = f->esize * 8;
  for (unsigned j = 0; j < f->nregs; j++) {
    if (slots[j] == EMU_NOSLOT) continue;
    uint64_t *d = R + (size_t)slots[j] * 32;
    for (int l = 0; l < 32; l++) {
      uint64_t v = 0;
      for (unsigned i = 0; i < f->per_reg; i++) {
        unsigned r, c;
        elem_pos(f, l, (j * f->per_reg + i) % f->unique, &r, &c);
        v |= elem_bits(f->type, mat[r * f->cols + c]) << (i * bits);
      }
      d[l] = v;
    }
  }
}

static int whole_warp(Block *b, const EmuInstr *x, int warp, uint32_t mask) {
  if (mask == FULL) return 0;
  return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP,
                   "%s needs all 32 lanes of the warp (it is .sync.aligned); active lanes 0x%08x",
                   ptx_op_name[x->op], mask);
}

/* D = A * B + C over the whole matrices (see the Notes for the precision). */
static void multiply(const PtxMma *m, const double *A, const double *B, const double *C, double *D) {
  const PtxMmaDims *d = &ptx_mma_dims[m->shape];
  int integer = m->dtype == PTX_T_S32, f64 = m->dtype == PTX_T_F64;
  for (unsigned i = 0; i < d->m; i++)
    for (unsigned j = 0; j < d->n; j++) {
      const double *a = A + i * d->k, *bcol = B + j;
      double acc = C[i * d->n + j];
      if (integer || f64) {
        for (unsigned k = 0; k < d->k; k++) acc = fma(a[k], bcol[k * d->n], acc); /* exact for integers */
      } else {
        float s = (float)acc;
        for (unsigned k = 0; k < d->k; k++) s += (float)(a[k] * bcol[k * d->n]);
        acc = s;
      }
      if (integer) {
        if (m->layout & PTX_MMA_SAT) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        else acc = (int32_t)(uint32_t)(uint64_t)(int64_t)acc;
      }
      D[i * d->n + j] = acc;
    }
}

/* The counter of an mma.sync's or wmma.mma's math (MemTensorPath). */
static unsigned tensor_path(const PtxMma *m) {
  switch (m->atype) {
  case PTX_T_F16: return m->dtype == PTX_T_F16 ? MEM_TC_HMMA_F16_F16 : MEM_TC_HMMA_F16_F32;
  case PTX_T_BF16: return MEM_TC_HMMA_BF16;
  case TF32: return MEM_TC_HMMA_TF32;
  case PTX_T_F64: return MEM_TC_DMMA_F64;
  default: return MEM_TC_IMMA_INT8;
  }
}

/* mma.sync and wmma.mma: the same computation on their fragments. */
int emu_exec_mma(EMU_EXEC_ARGS) {
  if (whole_warp(b, x, warp, mask)) return -1;
  const EmuTensor *t = &b->p->tensor[x->target];
  Frag fd, fa, fb, fc;
  frag_init(&fd, &t->m, 'd', t->n[0]);
  frag_init(&fa, &t->m, 'a', t->n[1]);
  frag_init(&fb, &t->m, 'b', t->n[2]);
  frag_init(&fc, &t->m, 'c', t->n[3]);
  double A[512], B[512], C[512], D[512]; /* the largest: 32 x 16 (m32n8k16 A), 16 x 32 (k32 A) */
  gather(&fa, t->r[1], R, A);
  gather(&fb, t->r[2], R, B);
  gather(&fc, t->r[3], R, C);
  multiply(&t->m, A, B, C, D);
  scatter(&fd, t->r[0], R, D);
  if (b->mm) {
    const PtxMmaDims *d = &ptx_mma_dims[t->m.shape];
    mem_tensor_ops(b->mm, tensor_path(&t->m), (uint64_t)d->m * d->n * d->k);
  }
  return 0;
}

int emu_exec_wmma_mma(EMU_EXEC_ARGS) { return emu_exec_mma(b, x, warp, mask, R); }

/* --- wmma.load and wmma.store --- */

/* Every lane's address of element e: [a] (base[l], captured before any
 * register is written) plus the element's place in the row- or
 * column-major matrix with leading dimension ld[l] (0: dense). */
static uint64_t matrix_addr(const Frag *f, int col, uint64_t base, uint64_t ld, unsigned r, unsigned c) {
  uint64_t lead = ld ? ld : col ? f->rows : f->cols;
  return base + (col ? (uint64_t)c * lead + r : (uint64_t)r * lead + c) * f->esize;
}

static void elem_addr(const Frag *f, int col, const uint64_t *base, const uint64_t *ld, unsigned e, uint64_t *addr) {
  for (int l = 0; l < 32; l++) {
    unsigned r, c;
    elem_pos(f, l, e % f->unique, &r, &c);
    addr[l] = matrix_addr(f, col, base[l], ld[l], r, c);
  }
}

/* Counts one request of `size` bytes a lane at addr (the memory model's
 * view of a fragment move whose data went element by element). */
static int model_request(Block *b, const EmuInstr *x, int warp, const uint64_t *addr, unsigned size, unsigned esize,
                         int store) {
  EmuWhere w;
  if (emu_mem_locate(b, x, warp, FULL, addr, size, store, &w)) return -1;
  emu_mem_model(b, x, FULL, &w, size, esize);
  return 0;
}

/* Register j's elements lie side by side, aligned to the register's size,
 * in every lane: one request for the register. */
static int one_request(const Frag *f, uint64_t (*addr)[32], unsigned n) {
  for (int l = 0; l < 32; l++) {
    if (addr[0][l] % (n * f->esize)) return 0;
    for (unsigned i = 1; i < n; i++)
      if (addr[i][l] != addr[0][l] + i * f->esize) return 0;
  }
  return 1;
}

/* A load or store of one-element registers j and j+1 in one request of
 * twice the size: their elements adjacent, aligned to the pair, in every
 * lane (the H100's LDG.64/STG.64 of f32 and s32 accumulators: corpus
 * wmma_gemm_s8 loads its s32 C in 4 requests a warp, 32 sectors). */
static int pair_request(const Frag *f, int col, const uint64_t *base, const uint64_t *ld, unsigned j,
                        const uint64_t *addr) {
  if (f->per_reg != 1 || f->esize < 4 || j % 2 || j + 1 >= f->nregs || j + 1 >= f->unique) return 0;
  uint64_t next[32];
  elem_addr(f, col, base, ld, j + 1, next);
  for (int l = 0; l < 32; l++)
    if (addr[l] % (2 * f->esize) || next[l] != addr[l] + f->esize) return 0;
  return 1;
}

/* A 16-bit register whose two elements are not adjacent in memory (A
 * column-major, B row-major): ptxas loads the adjacent pair of the
 * transposed 8x8 tile, one 32-bit LDG a lane, and transposes it in
 * registers (MOVM.16.MT88; corpus wmma_m8n32k16_acol: 2 LDGs a warp for
 * its column-major A where one per element would be 4).  The same bytes,
 * one request. */
static int transposed_request(Block *b, const EmuInstr *x, int warp, const Frag *f, int col, const uint64_t *base,
                              const uint64_t *ld, unsigned first) {
  uint64_t addr[32];
  for (int l = 0; l < 32; l++) {
    unsigned r, c;
    elem_pos(f, l, first % f->unique, &r, &c);
    unsigned dr = r % 8, dc = c % 8; /* within its 8x8 tile: swapped */
    addr[l] = matrix_addr(f, col, base[l], ld[l], r - dr + dc, c - dc + dr);
  }
  return model_request(b, x, warp, addr, 2 * f->esize, f->esize, 0);
}

/* An m8n32k16 accumulator's register j (32-bit elements): the H100 moves
 * it as row j of the 8x32 tile, lane l's element in column l (corpus
 * wmma_m8n32k16_acol: its C stored in 8 requests a warp of 4 sectors
 * each, one 128-byte row each).  The same bytes as all the registers of
 * our layout; each request as the hardware's. */
static int is_row_per_register(const Frag *f) { return f->rows == 8 && f->cols == 32 && f->esize == 4; }

static int row_request(Block *b, const EmuInstr *x, int warp, const Frag *f, int col, const uint64_t *base,
                       const uint64_t *ld, unsigned j, int store) {
  uint64_t addr[32];
  for (int l = 0; l < 32; l++) addr[l] = matrix_addr(f, col, base[l], ld[l], j, (unsigned)l);
  return model_request(b, x, warp, addr, f->esize, f->esize, store);
}

/* Loads (store == 0) or stores fragment f through registers `slots`. */
static int wmma_move(Block *b, const EmuInstr *x, int warp, uint64_t *R, const Frag *f, const uint32_t *slots,
                     int store) {
  const EmuTensor *t = &b->p->tensor[x->target];
  unsigned bits = f->esize * 8;
  uint64_t addr[4][32], base[32], ld[32];
  EmuWhere w[4];
  for (int l = 0; l < 32; l++) {
    base[l] = (x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + (size_t)l]) + (uint64_t)x->aoff;
    ld[l] = t->stride == EMU_NOSLOT ? 0 : (uint32_t)R[(size_t)t->stride * 32 + (size_t)l];
  }
  int col = (t->m.layout & PTX_MMA_ACOL) != 0, modeled = 0; /* modeled: register j's request went with j-1's */
  for (unsigned j = 0; j < f->nregs; j++) {
    unsigned first = j * f->per_reg;
    if (first >= f->unique) break; /* the rest repeat registers already moved */
    for (unsigned i = 0; i < f->per_reg; i++) {
      elem_addr(f, col, base, ld, first + i, addr[i]);
      if (emu_mem_locate(b, x, warp, FULL, addr[i], f->esize, store, &w[i])) return -1;
    }
    uint64_t *reg = slots[j] == EMU_NOSLOT ? NULL : R + (size_t)slots[j] * 32;
    for (int l = 0; l < 32; l++)
      for (unsigned i = 0; i < f->per_reg; i++) {
        uint64_t v = 0;
        if (store) {
          v = field(f, reg[l], i);
          memcpy(w[i].ptr[l], &v, f->esize); /* little-endian host, as the GPU */
        } else if (reg) {
          memcpy(&v, w[i].ptr[l], f->esize);
          reg[l] = (i ? reg[l] : 0) | (bits >= 64 ? v : v << (i * bits));
        }
      }
    if (modeled) {
      modeled = 0;
    } else if (is_row_per_register(f)) {
      if (row_request(b, x, warp, f, col, base, ld, first, store)) return -1;
    } else if (pair_request(f, col, base, ld, j, addr[0])) {
      emu_mem_model(b, x, FULL, &w[0], 2 * f->esize, f->esize);
      modeled = 1;
    } else if (one_request(f, addr, f->per_reg)) {
      emu_mem_model(b, x, FULL, &w[0], f->per_reg * f->esize, f->esize);
    } else if (!store && f->esize == 2 && f->per_reg == 2) {
      if (transposed_request(b, x, warp, f, col, base, ld, first)) return -1;
    } else {
      for (unsigned i = 0; i < f->per_reg; i++) emu_mem_model(b, x, FULL, &w[i], f->esize, f->esize);
    }
  }
  /* repeated registers (wmma's f16 A and B) get their copies */
  for (unsigned j = 0; !store && j < f->nregs; j++)
    if (j * f->per_reg >= f->unique && slots[j] != EMU_NOSLOT) {
      unsigned src = (j * f->per_reg % f->unique) / f->per_reg;
      if (slots[src] != EMU_NOSLOT)
        memcpy(R + (size_t)slots[j] * 32, R + (size_t)slots[src] * 32, 32 * sizeof *R);
    }
  return 0;
}

/* wmma_move as one execution: its requests after the first are parts of
 * it (MemReq.part), so a load that starts a round counts one round. */
static int wmma_move_once(Block *b, const EmuInstr *x, int warp, uint64_t *R, const Frag *f, const uint32_t *slots,
                          int store) {
  b->mem_multi = 1, b->mem_next = 0;
  int rc = wmma_move(b, x, warp, R, f, slots, store);
  b->mem_multi = b->mem_next = 0;
  return rc;
}

int emu_exec_wmma_load(EMU_EXEC_ARGS) {
  if (whole_warp(b, x, warp, mask)) return -1;
  const EmuTensor *t = &b->p->tensor[x->target];
  Frag f;
  frag_init(&f, &t->m, (char)t->m.frag, t->n[0]);
  return wmma_move_once(b, x, warp, R, &f, t->r[0], 0);
}

int emu_exec_wmma_store(EMU_EXEC_ARGS) {
  if (whole_warp(b, x, warp, mask)) return -1;
  const EmuTensor *t = &b->p->tensor[x->target];
  Frag f;
  frag_init(&f, &t->m, 'd', t->n[0]);
  return wmma_move_once(b, x, warp, R, &f, t->r[0], 1);
}

/* --- ldmatrix, stmatrix, movmatrix --- */

/* The rows' addresses: lanes 8i..8i+7 give those of matrix i; they must
 * be in shared memory. */
static int matrix_rows(Block *b, const EmuInstr *x, int warp, const uint64_t *R, unsigned num, int store,
                       EmuWhere *w, uint32_t *amask) {
  uint64_t addr[32];
  const uint64_t *base = x->abase == EMU_NOSLOT ? NULL : R + (size_t)x->abase * 32;
  *amask = num == 4 ? FULL : (1u << (8 * num)) - 1;
  for (int l = 0; l < 32; l++) addr[l] = (base ? base[l] : 0) + (uint64_t)x->aoff;
  if (emu_mem_locate(b, x, warp, *amask, addr, 16, store, w)) return -1;
  for (uint32_t m = *amask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    unsigned sp = w->uniform ? (unsigned)w->uniform : w->spaces[l];
    if (sp != PTX_S_SHARED)
      return emu_fault(b, x, warp, l, WM_EFAULT, "%s row address 0x%" PRIx64 " is not in shared memory",
                       ptx_op_name[x->op], addr[l]);
  }
  return 0;
}

/* Element (r, c) of matrix i: the 16-bit word c of the row lane 8i + r
 * addresses. */
static uint8_t *matrix_elem(const EmuWhere *w, unsigned i, unsigned r, unsigned c) {
  return w->ptr[8 * i + r] + 2 * c;
}

int emu_exec_ldmatrix(EMU_EXEC_ARGS) {
  if (whole_warp(b, x, warp, mask)) return -1;
  const EmuTensor *t = &b->p->tensor[x->target];
  int trans = (t->m.layout & PTX_MMA_TRANS) != 0;
  EmuWhere w;
  uint32_t amask;
  if (matrix_rows(b, x, warp, R, t->m.num, 0, &w, &amask)) return -1;
  /* rows a cp.async or TMA copy has not completed for the lane addressing them: a located error */
  if (b->async && emu_async_check_read(b, x, warp, amask, w.off, w.spaces, w.uniform, 16)) return -1;
  uint32_t v[4][32];
  for (unsigned i = 0; i < t->m.num; i++)
    for (int l = 0; l < 32; l++) {
      unsigned g = (unsigned)l >> 2, q = (unsigned)l & 3;
      uint16_t lo, hi; /* lane (g, q) gets row g, columns 2q and 2q+1 (.trans: column g, rows 2q, 2q+1) */
      memcpy(&lo, trans ? matrix_elem(&w, i, 2 * q, g) : matrix_elem(&w, i, g, 2 * q), 2);
      memcpy(&hi, trans ? matrix_elem(&w, i, 2 * q + 1, g) : matrix_elem(&w, i, g, 2 * q + 1), 2);
      v[i][l] = (uint32_t)lo | (uint32_t)hi << 16;
    }
  for (unsigned i = 0; i < t->m.num; i++)
    if (t->r[0][i] != EMU_NOSLOT)
      for (int l = 0; l < 32; l++) R[(size_t)t->r[0][i] * 32 + (size_t)l] = v[i][l];
  emu_mem_model(b, x, amask, &w, 16, 2);
  return 0;
}

int emu_exec_stmatrix(EMU_EXEC_ARGS) {
  if (whole_warp(b, x, warp, mask)) return -1;
  const EmuTensor *t = &b->p->tensor[x->target];
  int trans = (t->m.layout & PTX_MMA_TRANS) != 0;
  EmuWhere w;
  uint32_t amask;
  if (matrix_rows(b, x, warp, R, t->m.num, 1, &w, &amask)) return -1;
  for (unsigned i = 0; i < t->m.num; i++)
    for (int l = 0; l < 32; l++) {
      unsigned g = (unsigned)l >> 2, q = (unsigned)l & 3;
      uint32_t v = (uint32_t)R[(size_t)t->r[0][i] * 32 + (size_t)l];
      uint16_t lo = (uint16_t)v, hi = (uint16_t)(v >> 16);
      memcpy(trans ? matrix_elem(&w, i, 2 * q, g) : matrix_elem(&w, i, g, 2 * q), &lo, 2);
      memcpy(trans ? matrix_elem(&w, i, 2 * q + 1, g) : matrix_elem(&w, i, g, 2 * q + 1), &hi, 2);
    }
  emu_mem_model(b, x, amask, &w, 16, 2);
  return 0;
}

/* movmatrix.trans: lane (g, q) gets column g, rows 2q and 2q+1, of the 8x8
 * matrix whose row r the lanes 4r..4r+3 hold (two columns each). */
int emu_exec_movmatrix(EMU_EXEC_ARGS) {
  if (whole_warp(b, x, warp, mask)) return -1;
  const EmuTensor *t = &b->p->tensor[x->target];
  const uint64_t *a = R + (size_t)t->r[1][0] * 32;
  uint32_t v[32];
  for (int l = 0; l < 32; l++) {
    unsigned g = (unsigned)l >> 2, q = (unsigned)l & 3, sh = 16 * (g & 1);
    uint32_t lo = (uint32_t)(a[8 * q + g / 2] >> sh) & 0xffff, hi = (uint32_t)(a[8 * q + 4 + g / 2] >> sh) & 0xffff;
    v[l] = lo | hi << 16;
  }
  if (t->r[0][0] != EMU_NOSLOT)
    for (int l = 0; l < 32; l++) R[(size_t)t->r[0][0] * 32 + (size_t)l] = v[l];
  return 0;
}
