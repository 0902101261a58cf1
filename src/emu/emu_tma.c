/* emu_tma.c - the TMA unit: cp.async.bulk.tensor (loads of a tensor map's
 * box into shared memory, tiled and im2col, multicast to a cluster; stores
 * of a box to global memory), cp.reduce.async.bulk.tensor,
 * cp.async.bulk.prefetch.tensor, and the plain bulk copy's cluster forms
 * and reductions (cp.async.bulk multicast and into a peer's shared memory,
 * cp.reduce.async.bulk).
 *
 * Notes:
 *  - As for cp.async (emu_async.c), the data moves when the instruction
 *    runs; what is modelled is completion: a load's bytes stay pending in
 *    its destination block until the mbarrier it signals completes a phase
 *    (emu_async_track), so a read before then is a located error, and the
 *    complete_tx(box bytes) happens at issue.  Stores and reductions read
 *    their shared source at issue too: a write to it before
 *    cp.async.bulk.wait_group.read is not detected.
 *  - The box in shared memory (PTX ISA 5.5.3, 5.5.4, 5.5.7): its elements
 *    dense, dimension 0 innermost (tiled: ceil(box[i] / elementStrides[i])
 *    along dimension i, elementStrides[0] ignored without interleave;
 *    im2col: pixelsPerColumn rows of channelsPerPixel), then each 16-byte
 *    chunk at its swizzled address (emu_swizzle.h).  The destination must be
 *    128-byte aligned (the CUDA programming guide's table of TMA swizzle
 *    modes asks that of every mode).  A swizzled box ending inside a
 *    128-byte line may write the rest of that line.
 *  - Elements outside the tensor (coordinates are signed) are zeros, or
 *    with the NaN fill on a float tensor the "OOB-NaN" whose bits the ISA
 *    does not give.  Measured on the H200 (tests/corpus/tma_copy.cu,
 *    tile_raw#nan and #bf16; docs/results/h200-2026-12-02-hopper): the
 *    halfword 0x7ff7 in every 2 bytes of the fill, whatever the type, so a
 *    bf16 is 0x7ff7, an f32 0x7ff77ff7, an f64 0x7ff77ff77ff77ff7 (NaNs
 *    all; f16's 0x7ff7 is one too).
 *    Stores and reductions skip them.
 *  - im2col (5.5.4): the filter base walks the bounding box [lower corner,
 *    dim - 1 + upper corner] of each of W, H, D from the coordinates, W
 *    fastest, each step its traversal stride, back to the lower corner
 *    past the upper one, then N; each pixel reads channelsPerPixel
 *    channels at base + im2col offsets.  Where the walk restarts after a
 *    strided step past the corner is not documented: at the lower corner.
 *  - A multicast writes the box at dstMem's offset in every block of
 *    ctaMask and signals each one's mbarrier at mbar's offset (a mask bit
 *    beyond the cluster is a located fault); it reads global memory once.
 *  - Not run (a located error): the sm_100 forms (refused by the parser),
 *    sub-byte types, the 128B swizzle's 32- and 64-byte atomicity modes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "emu/emu_swizzle.h"
#include "emu/emu_tmap.h"
#include "util/half.h"

/* One lane's box: the map and where in it. */
typedef struct Box {
  Tmap m;
  int64_t c[TMAP_MAX_RANK];   /* coordinates */
  int64_t off[3];             /* im2col offsets */
  uint32_t n[TMAP_MAX_RANK];  /* elements along each dimension in shared memory */
  uint32_t es, row;           /* bytes of an element, of a shared row */
  uint64_t rows, bytes;       /* rows, bytes in shared memory */
  unsigned span;              /* the swizzle's, 0: none */
} Box;

/* Where the walk over a box's rows is: the global coordinates of the
 * row's first element (g), and for a tiled box the row's indices. */
typedef struct Walk {
  int64_t g[TMAP_MAX_RANK];
  uint32_t idx[TMAP_MAX_RANK];
} Walk;

static const char *tma_name(const EmuInstr *x) {
  if (x->op == PTX_OP_CPASYNC_BULK_TENSOR)
    return x->sub == PTX_SUB_BULK_STORE ? "cp.async.bulk.tensor (store)" : "cp.async.bulk.tensor";
  return ptx_op_name[x->op];
}

/* --- the tensor map --- */

/* The 128 bytes of lane l's tensor map into m: 0, or -1 after a located
 * fault (no memory there, misaligned, not a map). */
static int read_map(Block *b, const EmuInstr *x, int warp, int l, const EmuTensor *t, const uint64_t *R, Tmap *m) {
  const uint32_t *r = t->r[2];
  uint64_t a = R[(size_t)r[EMU_TMA_MAP] * 32 + l] + R[(size_t)r[EMU_TMA_MAP + 1] * 32 + l];
  const uint8_t *p = NULL;
  size_t avail = 0;
  char where[96], why[300];
  if (t->m.dtype == PTX_S_PARAM) {
    snprintf(where, sizeof where, "parameter offset %" PRIu64, a);
    if (a + TMAP_BYTES <= b->p->k->param_size) p = b->l->params + a, avail = TMAP_BYTES;
  } else if (t->m.dtype == PTX_S_CONST) {
    snprintf(where, sizeof where, "constant offset %" PRIu64, a);
    if (a + TMAP_BYTES <= b->m->const_size && b->l->const_mem) p = b->l->const_mem + a, avail = TMAP_BYTES;
  } else {
    snprintf(where, sizeof where, "generic address 0x%" PRIx64, a);
    p = emu_device_ptr(b, warp, l, a, TMAP_BYTES, &avail);
  }
  if (!p || avail < TMAP_BYTES)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: no tensor map at %s (its 128 bytes are in no parameter, "
                     "constant, shared or global memory)", tma_name(x), where);
  if (a % 64)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: the tensor map at %s is not 64-byte aligned", tma_name(x), where);
  if (tmap_unpack(p, m, why, sizeof why))
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: the tensor map at %s: %s", tma_name(x), where, why);
  return 0;
}

/* Sets up lane l's box from its map, coordinates and offsets: 0, or -1
 * after a located fault (a map of another kind or rank, a form not run). */
static int box_of(Block *b, const EmuInstr *x, int warp, int l, const EmuTensor *t, const uint64_t *R, Box *bx) {
  if (read_map(b, x, warp, l, t, R, &bx->m)) return -1;
  const Tmap *m = &bx->m;
  unsigned dims = PTX_TMA_DIMS(x->aux);
  int im2col = (x->aux & (PTX_TMA_IM2COL | PTX_TMA_IM2COL_NO_OFFS)) != 0;
  if (m->rank != dims || m->im2col != im2col)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s.%ud%s with a %s tensor map of rank %u (the PTX ISA leaves it "
                     "undefined)", tma_name(x), dims, im2col ? ".im2col" : ".tile", m->im2col ? "im2col" : "tiled",
                     m->rank);
  if (tmap_type_is_packed(m->dtype) || m->swizzle > TMAP_SWIZZLE_128B)
    return emu_fault(b, x, warp, l, WM_EUNSUP, "%s: tensor map of %s, swizzle mode %u: sub-byte types and the 128B "
                     "swizzle's 32- and 64-byte atomicity are sm_100 forms warpmem does not run", tma_name(x),
                     tmap_type_name(m->dtype), m->swizzle);
  for (unsigned i = 0; i < dims; i++) {
    bx->c[i] = (int32_t)R[(size_t)t->r[0][i] * 32 + l];
    bx->n[i] = tmap_box_elems(m, i);
  }
  for (unsigned i = 0; i < 3; i++) bx->off[i] = i < t->n[1] ? (uint16_t)R[(size_t)t->r[1][i] * 32 + l] : 0;
  bx->es = tmap_type_bits(m->dtype) / 8;
  bx->row = bx->n[0] * bx->es;
  bx->rows = 1;
  for (unsigned i = 1; i < dims; i++) bx->rows *= bx->n[i];
  bx->bytes = bx->rows * bx->row;
  bx->span = tmap_swizzle_span(m->swizzle);
  return 0;
}

/* --- walking the rows --- */

static void walk_start(const Box *bx, Walk *w) {
  memset(w, 0, sizeof *w);
  for (unsigned i = 0; i < bx->m.rank; i++) w->g[i] = bx->c[i];
}

/* The next row: tiled, the indices in mixed radix over n[1..]; im2col,
 * the filter base's next place in its bounding box (then N). */
static void walk_next(const Box *bx, Walk *w) {
  const Tmap *m = &bx->m;
  if (!m->im2col) {
    for (unsigned i = 1; i < m->rank; i++) {
      if (++w->idx[i] < bx->n[i]) {
        w->g[i] = bx->c[i] + (int64_t)w->idx[i] * m->estride[i];
        return;
      }
      w->idx[i] = 0;
      w->g[i] = bx->c[i];
    }
    return;
  }
  unsigned spatial = m->rank - 2;
  for (unsigned k = 1; k <= spatial; k++) {
    w->g[k] += m->estride[k];
    if (w->g[k] <= (int64_t)m->dim[k] - 1 + m->upper[k - 1]) return;
    w->g[k] = m->lower[k - 1];
  }
  w->g[m->rank - 1]++;
}

/* The byte offset in global memory of the row's element at dimension-0
 * coordinate g0, and whether the row lies inside the tensor (dimensions
 * 1 and up; for im2col at base + offsets). */
static int row_inside(const Box *bx, const Walk *w, uint64_t *at) {
  const Tmap *m = &bx->m;
  uint64_t a = m->addr;
  for (unsigned i = 1; i < m->rank; i++) {
    int64_t g = w->g[i] + (m->im2col && i + 1 < m->rank ? bx->off[i - 1] : 0);
    if (g < 0 || g >= (int64_t)m->dim[i]) return 0;
    a += (uint64_t)g * m->stride[i];
  }
  *at = a;
  return 1;
}

/* The row's elements inside the tensor along dimension 0: [*lo, *hi) of
 * its n[0] (contiguous: element stride 1). */
static void row_span(const Box *bx, uint32_t *lo, uint32_t *hi) {
  int64_t c0 = bx->c[0], d0 = (int64_t)bx->m.dim[0];
  int64_t a = c0 < 0 ? -c0 : 0, z = d0 - c0 < (int64_t)bx->n[0] ? d0 - c0 : bx->n[0];
  *lo = (uint32_t)(a < z ? a : 0);
  *hi = (uint32_t)(a < z ? z : 0);
}

/* dimension 0's stride in elements (1 but for interleaved layouts) */
static uint32_t step0(const Box *bx) {
  return bx->m.im2col || bx->m.interleave == TMAP_INTERLEAVE_NONE ? 1 : bx->m.estride[0];
}

/* --- moving bytes --- */

/* The fill's bytes (emu_tma.c's Notes): element j of a box row is
 * es bytes from fill + j * es % 2 (rows are 16-byte multiples), so the
 * halfword pattern holds across the row (a byte type has no NaN fill). */
static const uint8_t nan_fill[10] = {0xf7, 0x7f, 0xf7, 0x7f, 0xf7, 0x7f, 0xf7, 0x7f, 0xf7, 0x7f};
static const uint8_t zero_fill[10];

static const uint8_t *fill_at(const uint8_t *fill, const Box *bx, uint32_t j) {
  return fill + (size_t)j * bx->es % 2;
}

/* Lane l's global bytes [a, a + n): a host pointer, or NULL after a
 * located fault naming the box row. */
static uint8_t *global_row(Block *b, const EmuInstr *x, int warp, int l, const Box *bx, const Walk *w, uint64_t a,
                           uint64_t n, int store) {
  GBuf *g = gmem_find(b->l->gmem, a, n);
  if (g) return g->data + (a - g->addr);
  char at[96];
  size_t o = (size_t)snprintf(at, sizeof at, "(%" PRId64, bx->c[0]);
  for (unsigned i = 1; i < bx->m.rank && o < sizeof at; i++) o += (size_t)snprintf(at + o, sizeof at - o, ", %" PRId64, w->g[i]);
  emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds global %s of %" PRIu64 " bytes at 0x%" PRIx64 " by %s: the box "
            "row at tensor coordinates %s) is in no buffer (the tensor map's address 0x%" PRIx64 ", dimensions and "
            "strides describe memory that was not allocated)", store ? "write" : "read", n, a, tma_name(x), at,
            bx->m.addr);
  return NULL;
}

/* What a box row of a load costs the memory model, as the H200 counts it
 * (groundtruth/tma_edge_kernels.cu, docs/tma.md): the TMA reads the row in
 * 128-byte pieces of the box; a piece reads the sectors its part inside
 * the tensor touches (two pieces that touch one sector read it twice; a
 * part that ends at the tensor's edge reads on to a 16-byte boundary:
 * tests/corpus/tma_copy.cu's transposes of a 70-float row) and,
 * for its part outside, as many sectors as those bytes fill, rounded up
 * (a row wholly outside the tensor too).  The L2 replays a piece's outside
 * part where the row would go on; a row outside along another dimension
 * is not replayed (the H200's L2 counts about half of it).  `in`: the row
 * is inside along the other dimensions, [lo, hi) its elements inside
 * along dimension 0, at global address a + (c[0] + j) * es. */
static void count_row(MemModel *mm, MemTma *t, const Box *bx, uint64_t a, int in, uint32_t lo, uint32_t hi) {
  uint32_t per = 128 / bx->es; /* elements a piece */
  for (uint32_t p0 = 0; p0 < bx->n[0]; p0 += per) {
    uint32_t p1 = p0 + per < bx->n[0] ? p0 + per : bx->n[0];
    uint32_t i0 = in && lo > p0 ? lo : p0, i1 = in && hi < p1 ? hi : p1;
    uint32_t inside = in && i1 > i0 ? i1 - i0 : 0, bytes = inside * bx->es, pad = 0;
    /* an inside part that ends at the tensor's edge within the piece reads
     * on to a 16-byte boundary, the TMA's granule (the row pitch is one) */
    if (inside && i1 < p1) pad = (uint32_t)(-((int64_t)bx->c[0] + i1) * bx->es & 15);
    if (inside) mem_tma_row(mm, t, a + (uint64_t)(bx->c[0] + i0) * bx->es, bytes + pad);
    /* the part before or after the inside one, where the row would go on */
    int after = inside && i0 == p0;
    uint64_t from = a + (uint64_t)((int64_t)bx->c[0] + (after ? i1 : p0)) * bx->es + (after ? pad : 0);
    mem_tma_outside(mm, t, from, (p1 - p0) * bx->es - bytes - pad, in);
  }
}

/* Reads lane l's box from global memory into buf (bx->bytes, linear),
 * fills what lies outside the tensor, and gives its rows to the memory
 * model (t).  0, or -1 after a fault. */
static int gather(Block *b, const EmuInstr *x, int warp, int l, const Box *bx, uint8_t *buf, MemTma *t,
                  EmuCopyClock *ck) {
  Walk w;
  walk_start(bx, &w);
  uint32_t lo, hi, s0 = step0(bx);
  row_span(bx, &lo, &hi);
  const uint8_t *fill = bx->m.oobfill == TMAP_OOB_NAN ? nan_fill : zero_fill;
  for (uint64_t r = 0; r < bx->rows; r++, walk_next(bx, &w)) {
    uint8_t *row = buf + r * bx->row;
    uint64_t a;
    int in = row_inside(bx, &w, &a);
    for (uint32_t j = 0; j < bx->n[0]; j++) /* fill first: the inside part is copied over it */
      if (!in || (s0 == 1 ? j < lo || j >= hi : 0)) memcpy(row + (size_t)j * bx->es, fill_at(fill, bx, j), bx->es);
    if (!in && (s0 != 1 || !b->mm)) continue;
    if (s0 != 1) { /* an interleaved layout's strided dimension 0: element by element */
      for (uint32_t j = 0; j < bx->n[0]; j++) {
        int64_t g0 = bx->c[0] + (int64_t)j * s0;
        if (g0 < 0 || g0 >= (int64_t)bx->m.dim[0]) {
          memcpy(row + (size_t)j * bx->es, fill_at(fill, bx, j), bx->es);
          continue;
        }
        uint8_t *src = global_row(b, x, warp, l, bx, &w, a + (uint64_t)g0 * bx->es, bx->es, 0);
        if (!src) return -1;
        memcpy(row + (size_t)j * bx->es, src, bx->es);
        emu_clock_copy_row(b, ck, a + (uint64_t)g0 * bx->es, bx->es);
        if (b->mm) mem_tma_row(b->mm, t, a + (uint64_t)g0 * bx->es, bx->es);
      }
      continue;
    }
    if (b->mm) count_row(b->mm, t, bx, a, in, lo, hi);
    if (!in || hi <= lo) continue;
    uint64_t ga = a + ((uint64_t)(bx->c[0] + lo)) * bx->es, gn = (uint64_t)(hi - lo) * bx->es;
    uint8_t *src = global_row(b, x, warp, l, bx, &w, ga, gn, 0);
    if (!src) return -1;
    memcpy(row + (size_t)lo * bx->es, src, gn);
    emu_clock_copy_row(b, ck, ga, gn);
  }
  return 0;
}

/* Copies n linear bytes between buf and shared memory at offset `at`
 * through the swizzle (to_smem: into shared memory). */
static void swizzled(uint8_t *smem, uint32_t at, uint8_t *buf, uint64_t n, unsigned span, int to_smem) {
  for (uint64_t k = 0; k < n; k += 16) {
    uint32_t phys = emu_swizzle(at + (uint32_t)k, span);
    size_t len = n - k < 16 ? (size_t)(n - k) : 16;
    if (to_smem) memcpy(smem + phys, buf + k, len);
    else memcpy(buf + k, smem + phys, len);
  }
}

/* The shared bytes a box at offset `off` touches: its own, to the end of
 * a 128-byte line when swizzled. */
static uint64_t touched(const Box *bx, uint32_t off) {
  uint64_t end = off + bx->bytes;
  return (bx->span ? (end + 127) / 128 * 128 : end) - off;
}

/* 0 if a box at shared offset `off` of block `owner` fits and is aligned,
 * else -1 after a located fault. */
static int shared_ok(Block *b, const EmuInstr *x, int warp, int l, const Box *bx, Block *owner, uint32_t off) {
  if (off % 128)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: shared memory at offset 0x%x is not 128-byte aligned (a TMA box's "
                     "must be)", tma_name(x), off);
  if (off + touched(bx, off) > owner->shared_size)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: a box of %" PRIu64 " bytes at shared offset 0x%x does not fit the "
                     "%u bytes of block rank %u's shared memory", tma_name(x), bx->bytes, off, owner->shared_size,
                     owner->crank);
  return 0;
}

/* "a 64x128 bf16 box (128-byte rows, 128B swizzle): 512 sectors from L2 in 128 requests" */
static void explain(const Box *bx, const MemTma *t, char *buf, size_t n) {
  char d[120];
  tmap_describe(&bx->m, d, sizeof d);
  const char *dir = t->op == MEM_TMA_LD ? "from" : "to";
  snprintf(buf, n, "%s: %" PRIu64 " sectors %s L2 in %" PRIu64 " requests%s", d, t->sectors, dir, t->requests,
           t->multicast ? ", multicast" : "");
}

static MemTma tma_req(const Block *b, const EmuInstr *x, uint8_t op, int part) {
  MemTma t;
  memset(&t, 0, sizeof t);
  t.op = op;
  t.part = (uint8_t)part;
  t.instr = (int)(x - b->p->code);
  t.warp = b->cur_warp;
  t.dests = 1;
  return t;
}

/* --- loads --- */

/* The blocks a load writes and signals: dstMem's own, or each of ctaMask
 * (the same offsets); *n of them into to[]. */
static int destinations(Block *b, const EmuInstr *x, int warp, int l, const EmuTensor *t, const uint64_t *R,
                        Block *owner, Block **to, int *n) {
  *n = 0;
  if (!(x->aux & PTX_TMA_MULTICAST)) {
    to[(*n)++] = owner;
    return 0;
  }
  uint32_t mask = (uint32_t)R[(size_t)t->r[2][EMU_TMA_MASK] * 32 + l] & 0xffffu;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t rank = (uint32_t)__builtin_ctz(m);
    Block *peer = emu_cluster_peer(b, rank);
    if (!peer)
      return emu_fault(b, x, warp, l, WM_EFAULT, "%s.multicast::cluster: ctaMask 0x%x names block rank %u, which "
                       "this cluster does not have", tma_name(x), mask, rank);
    to[(*n)++] = peer;
  }
  return 0;
}

/* Writes the staged box into each destination at offset `off`, keeps it
 * pending there, and signals complete_tx(box bytes) on each one's mbarrier
 * at mb_off. */
static int deliver(Block *b, const EmuInstr *x, int warp, int l, const Box *bx, uint8_t *buf, Block **to, int n,
                   uint32_t off, uint32_t mb_off, uint64_t ready) {
  for (int i = 0; i < n; i++)
    if (shared_ok(b, x, warp, l, bx, to[i], off)) return -1;
  uint32_t thread = (uint32_t)warp * 32 + (uint32_t)l, pc = (uint32_t)(x - b->p->code);
  for (int i = 0; i < n; i++) {
    swizzled(to[i]->shared, off, buf, bx->bytes, bx->span, 1);
    emu_async_track(to[i], off, off + (uint32_t)touched(bx, off), mb_off, thread, pc);
    if (emu_mbar_complete_tx(b, x, warp, l, to[i], mb_off, (uint32_t)bx->bytes, ready)) return -1;
  }
  return 0;
}

/* A tiled load's box must start on a 16-byte boundary of its row: the H200
 * stops the kernel with an illegal instruction at the UTMALDG otherwise
 * (measured on five launches of four shapes, f32 and u8, inside and
 * across the tensor's edge, none of them refused by the driver's encode;
 * every aligned start ran: docs/tma.md).  0, or -1 after the fault. */
static int load_start_ok(Block *b, const EmuInstr *x, int warp, int l, const Box *bx) {
  if (bx->m.im2col || bx->m.interleave) return 0;
  int64_t at = (int64_t)bx->c[0] * bx->es;
  if (at % 16 == 0) return 0;
  return emu_fault(b, x, warp, l, WM_EFAULT, "%s: the box starts at coordinate %" PRId64 " of dimension 0, byte %" PRId64
                   " of a row, not a multiple of 16 (the H200 stops the kernel: an illegal instruction)", tma_name(x),
                   bx->c[0], at);
}

/* One lane's cp.async.bulk.tensor into shared memory. */
static int tma_load(Block *b, const EmuInstr *x, int warp, int l, const EmuTensor *t, const uint64_t *R, int part) {
  Box bx;
  if (box_of(b, x, warp, l, t, R, &bx) || load_start_ok(b, x, warp, l, &bx)) return -1;
  const uint32_t *r = t->r[2];
  uint64_t dst = R[(size_t)r[EMU_TMA_SMEM] * 32 + l] + R[(size_t)r[EMU_TMA_SMEM + 1] * 32 + l];
  uint64_t mba = R[(size_t)r[EMU_TMA_MBAR] * 32 + l] + R[(size_t)r[EMU_TMA_MBAR + 1] * 32 + l];
  Block *owner, *mbo, *to[EMU_CLUSTER_MAX];
  uint32_t off, mb_off;
  int n;
  if (emu_dsm_locate(b, x, warp, l, dst, 1, &owner, &off) || emu_mbar_at(b, x, warp, l, mba, &mbo, &mb_off) ||
      destinations(b, x, warp, l, t, R, owner, to, &n))
    return -1;
  if (!(x->aux & PTX_TMA_MULTICAST) && mbo != owner)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: the destination is in block rank %u's shared memory, the mbarrier "
                     "in rank %u's: without .cta_group::2 they are in the same block (PTX ISA)", tma_name(x),
                     owner->crank, mbo->crank);
  if (bx.bytes > owner->shared_size) return shared_ok(b, x, warp, l, &bx, owner, off);
  uint8_t *buf = wm_xmalloc(bx.bytes ? bx.bytes : 1);
  MemTma req = tma_req(b, x, MEM_TMA_LD, part);
  /* a multicast to the issuing block alone is counted as its own load */
  req.multicast = (x->aux & PTX_TMA_MULTICAST) && !(n == 1 && to[0] == b);
  req.dests = (uint8_t)n;
  req.smem_bytes = bx.bytes;
  EmuCopyClock ck;
  emu_clock_copy_begin(b, warp, &ck);
  int rc = gather(b, x, warp, l, &bx, buf, &req, &ck);
  if (rc == 0) rc = deliver(b, x, warp, l, &bx, buf, to, n, off, mb_off, emu_clock_copy_end(b, &ck, (uint32_t)bx.bytes));
  free(buf);
  if (rc == 0 && b->mm) {
    char why[200];
    explain(&bx, &req, why, sizeof why);
    mem_tma_done(b->mm, &req, why);
  }
  return rc;
}

/* --- stores and reductions --- */

/* The value of an element of kind 'f' (f32, f64 by size), 'h' (f16) or
 * 'b' (bf16). */
static double fvalue(char kind, unsigned size, uint64_t v) {
  if (kind == 'h') return wm_f16_value((uint16_t)v);
  if (kind == 'b') return wm_bf16_value((uint16_t)v);
  return size == 4 ? (double)wm_f32((uint32_t)v) : wm_f64(v);
}

/* d OP s on one element; kinds: 'u' 's' unsigned and signed integers, 'x'
 * bits, 'f' f32/f64, 'h' f16, 'b' bf16.  Float adds round to nearest even
 * (the f16 and bf16 sums are exact in a double first); min and max return
 * an operand, a NaN one only if both are. */
static uint64_t reduce1(unsigned sub, char kind, unsigned size, uint64_t d, uint64_t s) {
  if (kind == 'f' || kind == 'h' || kind == 'b') {
    double a = fvalue(kind, size, d), v = fvalue(kind, size, s);
    if (sub == PTX_SUB_AADD) {
      if (kind == 'h') return wm_f16_from(a + v, WM_RND_NEAREST);
      if (kind == 'b') return wm_bf16_from(a + v, WM_RND_NEAREST);
      return size == 4 ? wm_f32_bits(wm_f32((uint32_t)d) + wm_f32((uint32_t)s)) : wm_f64_bits(a + v);
    }
    if (a != a) return s;
    if (v != v) return d;
    return (sub == PTX_SUB_AMIN ? v < a : v > a) ? s : d;
  }
  uint64_t mask = size >= 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
  int64_t sd = sext(d, size), ss = sext(s, size);
  switch (sub) {
  case PTX_SUB_AADD: return (d + s) & mask;
  case PTX_SUB_AMIN: return kind == 's' ? (sd < ss ? d : s) : (d < s ? d : s);
  case PTX_SUB_AMAX: return kind == 's' ? (sd > ss ? d : s) : (d > s ? d : s);
  case PTX_SUB_AINC: return d >= s ? 0 : (d + 1) & mask;
  case PTX_SUB_ADEC: return d == 0 || d > s ? s : d - 1;
  case PTX_SUB_AAND: return d & s;
  case PTX_SUB_AOR: return d | s;
  default: return d ^ s;
  }
}

typedef struct RedArgs {
  unsigned sub, size;
  char kind;
  uint64_t s;
} RedArgs;

static uint64_t red_update(uint64_t d, const void *ctx) {
  const RedArgs *a = ctx;
  return reduce1(a->sub, a->kind, a->size, d, a->s);
}

/* dst[i] OP= src[i] for n elements of `size` bytes (naturally aligned),
 * each an atomic update: other blocks, on other host threads, reduce into
 * the same bytes. */
static void reduce_run(unsigned sub, char kind, unsigned size, uint8_t *dst, const uint8_t *src, uint64_t n) {
  RedArgs a = {sub, size, kind, 0};
  for (uint64_t i = 0; i < n; i++) {
    a.s = 0;
    memcpy(&a.s, src + i * size, size);
    emu_atomic_update(dst + i * size, size, red_update, &a);
  }
}

/* The element kind of a reduction on a tensor map's type (the PTX ISA's
 * table for cp.reduce.async.bulk.tensor), or 0 if it allows none. */
static char tensor_kind(unsigned sub, unsigned dtype) {
  int bits = sub == PTX_SUB_AAND || sub == PTX_SUB_AOR || sub == PTX_SUB_AXOR;
  switch (dtype) {
  case TMAP_T_UINT32: return bits ? 'x' : 'u';
  case TMAP_T_INT32: return bits ? 'x' : sub == PTX_SUB_AINC || sub == PTX_SUB_ADEC ? 0 : 's';
  case TMAP_T_UINT64: return bits ? 'x' : sub == PTX_SUB_AINC || sub == PTX_SUB_ADEC ? 0 : 'u';
  case TMAP_T_INT64: return bits ? 'x' : sub == PTX_SUB_AMIN || sub == PTX_SUB_AMAX ? 's' : 0;
  case TMAP_T_FLOAT32: case TMAP_T_FLOAT32_FTZ: return sub == PTX_SUB_AADD ? 'f' : 0;
  case TMAP_T_FLOAT16: case TMAP_T_BFLOAT16:
    return sub == PTX_SUB_AADD || sub == PTX_SUB_AMIN || sub == PTX_SUB_AMAX ? (dtype == TMAP_T_FLOAT16 ? 'h' : 'b') : 0;
  default: return 0;
  }
}

/* Writes (or reduces, kind != 0) the staged box into global memory: each
 * row's part inside the tensor. */
static int scatter(Block *b, const EmuInstr *x, int warp, int l, const Box *bx, const uint8_t *buf, char kind,
                   MemTma *t) {
  Walk w;
  walk_start(bx, &w);
  uint32_t lo, hi, s0 = step0(bx);
  row_span(bx, &lo, &hi);
  for (uint64_t r = 0; r < bx->rows; r++, walk_next(bx, &w)) {
    uint64_t a;
    if (!row_inside(bx, &w, &a)) continue;
    for (uint32_t j = s0 == 1 ? lo : 0; s0 == 1 ? j < hi : j < bx->n[0]; j += s0 == 1 ? hi - lo : 1) {
      uint32_t cnt = s0 == 1 ? hi - lo : 1;
      int64_t g0 = bx->c[0] + (int64_t)j * s0;
      if (g0 < 0 || g0 >= (int64_t)bx->m.dim[0]) continue;
      uint64_t ga = a + (uint64_t)g0 * bx->es, gn = (uint64_t)cnt * bx->es;
      uint8_t *dst = global_row(b, x, warp, l, bx, &w, ga, gn, 1);
      if (!dst) return -1;
      const uint8_t *src = buf + r * bx->row + (size_t)j * bx->es;
      if (kind) reduce_run(x->sub, kind, bx->es, dst, src, cnt);
      else memcpy(dst, src, gn);
      if (b->mm) mem_tma_row(b->mm, t, ga, (uint32_t)gn);
    }
  }
  return 0;
}

/* A store's or reduction's box must not start before the tensor: the
 * H200 stops the kernel with an illegal instruction at one that starts at
 * a negative coordinate, along x or y, partly inside or wholly outside
 * (groundtruth/bulk_group_kernels.cu's store_at#xm8, #ym4, #xm32 and
 * #red_xm8; one past the far edges writes its inside part).  0, or -1
 * after the fault. */
static int store_start_ok(Block *b, const EmuInstr *x, int warp, int l, const Box *bx) {
  for (unsigned i = 0; i < bx->m.rank; i++)
    if (bx->c[i] < 0)
      return emu_fault(b, x, warp, l, WM_EFAULT, "%s: the box starts at coordinate %" PRId64 " of dimension %u, before "
                       "the tensor (a TMA store's or reduction's box may end past the tensor, not start before it: the "
                       "H200 stops the kernel, an illegal instruction)", tma_name(x), bx->c[i], i);
  return 0;
}

/* One lane's store (or reduction) of a box from its own shared memory. */
static int tma_store(Block *b, const EmuInstr *x, int warp, int l, const EmuTensor *t, const uint64_t *R, int part) {
  Box bx;
  if (box_of(b, x, warp, l, t, R, &bx) || store_start_ok(b, x, warp, l, &bx)) return -1;
  int red = x->op == PTX_OP_CPREDUCE_BULK_TENSOR;
  char kind = red ? tensor_kind(x->sub, bx.m.dtype) : 0;
  if (red && !kind)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: a tensor map of %s takes no such reduction (the PTX ISA's table: "
                     "add on u32 s32 u64 f32 f16 bf16, min and max on u32 s32 u64 s64 f16 bf16, inc and dec on u32, "
                     "and/or/xor on 32- and 64-bit integers)", tma_name(x), tmap_type_name(bx.m.dtype));
  const uint32_t *r = t->r[2];
  uint64_t src = (R[(size_t)r[EMU_TMA_SMEM] * 32 + l] + R[(size_t)r[EMU_TMA_SMEM + 1] * 32 + l]) & 0xffffffffu;
  if (shared_ok(b, x, warp, l, &bx, b, (uint32_t)src)) return -1;
  uint64_t at[32];
  at[l] = src;
  if (b->async && emu_async_check_read(b, x, warp, 1u << l, at, NULL, PTX_S_SHARED, (unsigned)touched(&bx, (uint32_t)src)))
    return -1;
  uint8_t *buf = wm_xmalloc(bx.bytes ? bx.bytes : 1);
  swizzled(b->shared, (uint32_t)src, buf, bx.bytes, bx.span, 0);
  MemTma req = tma_req(b, x, red ? MEM_TMA_RED : MEM_TMA_ST, part);
  req.smem_bytes = bx.bytes;
  int rc = scatter(b, x, warp, l, &bx, buf, kind, &req);
  free(buf);
  if (rc == 0 && b->mm) {
    char why[200];
    explain(&bx, &req, why, sizeof why);
    mem_tma_done(b->mm, &req, why);
  }
  return rc;
}

/* --- the instructions --- */

int emu_exec_tma_copy(EMU_EXEC_ARGS) {
  const EmuTensor *t = &b->p->tensor[x->target];
  int store = x->sub == PTX_SUB_BULK_STORE, part = 0;
  for (uint32_t m = mask; m; m &= m - 1, part = 1) { /* lanes in order, as ptxas's ELECT loop issues them */
    int l = __builtin_ctz(m);
    if (store ? tma_store(b, x, warp, l, t, R, part) : tma_load(b, x, warp, l, t, R, part)) return -1;
  }
  return 0;
}

int emu_exec_tma_reduce(EMU_EXEC_ARGS) {
  const EmuTensor *t = &b->p->tensor[x->target];
  int part = 0;
  for (uint32_t m = mask; m; m &= m - 1, part = 1)
    if (tma_store(b, x, warp, __builtin_ctz(m), t, R, part)) return -1;
  return 0;
}

/* cp.async.bulk.prefetch.tensor: the map is read and checked (a bad one
 * faults as a copy's would); the L2 it would warm is not modelled. */
int emu_exec_tma_prefetch(EMU_EXEC_ARGS) {
  const EmuTensor *t = &b->p->tensor[x->target];
  int part = 0;
  for (uint32_t m = mask; m; m &= m - 1, part = 1) {
    Box bx;
    int l = __builtin_ctz(m);
    if (box_of(b, x, warp, l, t, R, &bx)) return -1;
    if (b->mm) {
      MemTma req = tma_req(b, x, MEM_TMA_PREFETCH, part);
      mem_tma_done(b->mm, &req, NULL);
    }
  }
  return 0;
}

/* --- the plain bulk copy's forms through the cluster, and bulk reductions --- */

void emu_tma_count_bulk(Block *b, const EmuInstr *x, int op, int part, uint64_t addr, uint32_t size) {
  MemTma req = tma_req(b, x, (uint8_t)op, part);
  req.smem_bytes = size;
  mem_tma_row(b->mm, &req, addr, size);
  char why[160];
  snprintf(why, sizeof why, "a bulk %s of %u bytes: %" PRIu64 " sectors %s L2 in %" PRIu64 " requests",
           op == MEM_TMA_RED ? "reduction" : "copy", size, req.sectors, op == MEM_TMA_LD ? "from" : "to", req.requests);
  mem_tma_done(b->mm, &req, why);
}

/* The element kind of cp.reduce.async.bulk's .type (reduce1). */
static char plain_kind(unsigned sub, unsigned type) {
  switch (type) {
  case PTX_T_S32: case PTX_T_S64: return 's';
  case PTX_T_F32: case PTX_T_F64: return 'f';
  case PTX_T_F16: return 'h';
  case PTX_T_BF16: return 'b';
  case PTX_T_B32: case PTX_T_B64: return 'x';
  default: return sub == PTX_SUB_AAND || sub == PTX_SUB_AOR || sub == PTX_SUB_AXOR ? 'x' : 'u';
  }
}

/* A bulk operation's size: a non-zero multiple of 16 (0), else a fault. */
static int bulk_size(Block *b, const EmuInstr *x, int warp, int l, uint32_t size) {
  if (size % 16 == 0 && size) return 0;
  return emu_fault(b, x, warp, l, WM_EFAULT, "%s size %u is not a non-zero multiple of 16", ptx_op_name[x->op], size);
}

/* Shared bytes [off, off + size) of block o, 16-byte aligned and inside. */
static int bulk_shared(Block *b, const EmuInstr *x, int warp, int l, const Block *o, uint64_t off, uint32_t size,
                       const char *what) {
  if (off % 16 == 0 && off + size <= o->shared_size) return 0;
  return emu_fault(b, x, warp, l, WM_EFAULT, "%s %s of %u bytes at shared offset 0x%" PRIx64 " of block rank %u: %s",
                   ptx_op_name[x->op], what, size, off, o->crank,
                   off % 16 ? "not 16-byte aligned" : "out of bounds of its shared memory");
}

/* Lane l's cp.async.bulk.shared::cluster.global.multicast::cluster: size
 * bytes of global memory at src into each block of ctaMask at dst's
 * offset, complete_tx on each one's mbarrier at mbar's offset. */
static int bulk_multicast(Block *b, const EmuInstr *x, int warp, int l, const uint64_t *R, int part) {
  uint64_t dst = (uint64_t)((x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + l]) + (uint64_t)x->aoff);
  uint64_t src = SRC(0)[l] + SRC(1)[l];
  uint32_t size = (uint32_t)SRC(2)[l], mask = (uint32_t)SRC(5)[l] & 0xffffu;
  Block *owner, *mbo;
  uint32_t off, mb_off;
  if (bulk_size(b, x, warp, l, size) || emu_dsm_locate(b, x, warp, l, dst, 1, &owner, &off) ||
      emu_mbar_at(b, x, warp, l, SRC(3)[l] + SRC(4)[l], &mbo, &mb_off))
    return -1;
  if (src % 16)
    return emu_fault(b, x, warp, l, WM_EFAULT, "misaligned cp.async.bulk source at 0x%" PRIx64 " (must be a multiple "
                     "of 16)", src);
  GBuf *g = gmem_find(b->l->gmem, src, size);
  if (!g)
    return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds global read of %u bytes at 0x%" PRIx64 " by "
                     "cp.async.bulk: no buffer holds them", size, src);
  uint64_t ready = emu_clock_bulk(b, warp, src, size);
  for (uint32_t m = mask; m; m &= m - 1) {
    Block *peer = emu_cluster_peer(b, (uint32_t)__builtin_ctz(m));
    if (!peer)
      return emu_fault(b, x, warp, l, WM_EFAULT, "cp.async.bulk.multicast::cluster: ctaMask 0x%x names block rank %d, "
                       "which this cluster does not have", mask, __builtin_ctz(m));
    if (bulk_shared(b, x, warp, l, peer, off, size, "destination")) return -1;
    memcpy(peer->shared + off, g->data + (src - g->addr), size);
    emu_async_track(peer, off, off + size, mb_off, (uint32_t)warp * 32 + (uint32_t)l, (uint32_t)(x - b->p->code));
    if (emu_mbar_complete_tx(b, x, warp, l, peer, mb_off, size, ready)) return -1;
  }
  if (b->mm) {
    MemTma req = tma_req(b, x, MEM_TMA_LD, part);
    req.multicast = mask != 1u << b->crank; /* as tma_load */
    req.dests = (uint8_t)popc32(mask);
    req.smem_bytes = size;
    mem_tma_row(b->mm, &req, src, size);
    mem_tma_done(b->mm, &req, "a bulk copy multicast to the blocks of its ctaMask");
  }
  return 0;
}

/* Lane l's copy (reduction: kind != 0) of size bytes of its own shared
 * memory at src into a peer block's at dst, complete_tx(size) on the
 * peer's mbarrier (shared::cluster.shared::cta). */
static int bulk_to_peer(Block *b, const EmuInstr *x, int warp, int l, const uint64_t *R, char kind, int part) {
  uint64_t dst = (uint64_t)((x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + l]) + (uint64_t)x->aoff);
  uint64_t src = (SRC(0)[l] + SRC(1)[l]) & 0xffffffffu;
  uint32_t size = (uint32_t)SRC(2)[l], off, mb_off;
  Block *owner, *mbo;
  if (bulk_size(b, x, warp, l, size) || emu_dsm_locate(b, x, warp, l, dst, 1, &owner, &off) ||
      emu_mbar_at(b, x, warp, l, SRC(3)[l] + SRC(4)[l], &mbo, &mb_off) ||
      bulk_shared(b, x, warp, l, b, src, size, "source") || bulk_shared(b, x, warp, l, owner, off, size, "destination"))
    return -1;
  if (owner == b)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s.shared::cluster.shared::cta into the block's own shared memory "
                     "(the PTX ISA: the destination is another block of the cluster)", ptx_op_name[x->op]);
  if (mbo != owner)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: the mbarrier is in block rank %u, the destination in rank %u (the "
                     "PTX ISA signals the destination's)", ptx_op_name[x->op], mbo->crank, owner->crank);
  uint64_t at[32];
  at[l] = src;
  if (b->async && emu_async_check_read(b, x, warp, 1u << l, at, NULL, PTX_S_SHARED, size)) return -1;
  unsigned es = ptx_type_size((PtxType)x->type);
  if (kind) reduce_run(x->sub, kind, es, owner->shared + off, b->shared + src, size / es);
  else memmove(owner->shared + off, b->shared + src, size);
  emu_async_track(owner, off, off + size, mb_off, (uint32_t)warp * 32 + (uint32_t)l, (uint32_t)(x - b->p->code));
  if (emu_mbar_complete_tx(b, x, warp, l, owner, mb_off, size, emu_clock_peer_copy(b, warp, size))) return -1;
  if (b->mm) {
    MemTma req = tma_req(b, x, kind ? MEM_TMA_DSM_RED : MEM_TMA_DSM, part);
    req.smem_bytes = size;
    mem_tma_done(b->mm, &req, kind ? "a bulk reduction into a peer block's shared memory"
                                   : "a bulk copy into a peer block's shared memory");
  }
  return 0;
}

/* cp.async.bulk.global.shared::cta.bulk_group [d], [a], size: shared to
 * global, done at issue (its groups' commit and wait are no-ops). */
static int bulk_store(Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R) {
  const uint64_t *dbase = x->abase == EMU_NOSLOT ? NULL : R + (size_t)x->abase * 32;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t dst = (dbase ? dbase[l] : 0) + (uint64_t)x->aoff;
    uint64_t src = (SRC(0)[l] + SRC(1)[l]) & 0xffffffffu;
    uint32_t size = (uint32_t)SRC(2)[l];
    if (bulk_size(b, x, warp, l, size) || bulk_shared(b, x, warp, l, b, src, size, "source")) return -1;
    if (dst % 16)
      return emu_fault(b, x, warp, l, WM_EFAULT, "misaligned cp.async.bulk destination at 0x%" PRIx64 " (must be a "
                       "multiple of 16)", dst);
    GBuf *g = gmem_find(b->l->gmem, dst, size);
    if (!g)
      return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds global write of %u bytes at 0x%" PRIx64
                       " by cp.async.bulk: no buffer holds them", size, dst);
    memcpy(g->data + (dst - g->addr), b->shared + src, size);
    if (b->mm) emu_tma_count_bulk(b, x, MEM_TMA_ST, m != mask, dst, size);
  }
  return 0;
}

/* cp.async.bulk [d], [a], size, [mbar]: size bytes of global memory into
 * (a cluster block's) shared memory, pending until the mbarrier there
 * completes a phase, then complete_tx(size) on it; the store and the
 * cluster forms above.  Done at issue. */
int emu_exec_cp_async_bulk(EMU_EXEC_ARGS) {
  if (x->sub == PTX_SUB_BULK_STORE) return bulk_store(b, x, warp, mask, R);
  if (x->sub == PTX_SUB_BULK_DSM || (x->aux & PTX_TMA_MULTICAST)) return emu_tma_bulk_cluster(b, x, warp, mask, R);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t dst = (uint64_t)((x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + l]) + (uint64_t)x->aoff);
    uint64_t src = SRC(0)[l] + SRC(1)[l];
    uint32_t size = (uint32_t)SRC(2)[l], off, mb_off;
    Block *owner, *mbo;
    if (bulk_size(b, x, warp, l, size) || emu_dsm_locate(b, x, warp, l, dst, 1, &owner, &off) ||
        emu_mbar_at(b, x, warp, l, SRC(3)[l] + SRC(4)[l], &mbo, &mb_off) ||
        bulk_shared(b, x, warp, l, owner, off, size, "destination"))
      return -1;
    if (mbo != owner)
      return emu_fault(b, x, warp, l, WM_EFAULT, "cp.async.bulk: the destination is in block rank %u, the mbarrier in "
                       "rank %u (the PTX ISA signals the destination's)", owner->crank, mbo->crank);
    if (src % 16)
      return emu_fault(b, x, warp, l, WM_EFAULT, "misaligned cp.async.bulk source at 0x%" PRIx64 " (must be a multiple "
                       "of 16)", src);
    GBuf *g = gmem_find(b->l->gmem, src, size);
    if (!g)
      return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds global read of %u bytes at 0x%" PRIx64 " by "
                       "cp.async.bulk: no buffer holds them", size, src);
    memcpy(owner->shared + off, g->data + (src - g->addr), size);
    if (b->mm) emu_tma_count_bulk(b, x, MEM_TMA_LD, m != mask, src, size);
    emu_async_track(owner, off, off + size, mb_off, (uint32_t)warp * 32 + (uint32_t)l, (uint32_t)(x - b->p->code));
    if (emu_mbar_complete_tx(b, x, warp, l, owner, mb_off, size, emu_clock_bulk(b, warp, src, size))) return -1;
  }
  return 0;
}

/* cp.async.bulk.commit_group: the copies are done at issue, but the
 * commit goes to the TMA unit (UTMACMDFLUSH in the SASS), a request of its
 * own, one a warp instruction however many lanes commit (measured on the
 * H200: groundtruth/bulk_group_kernels.cu's commits#s4c4 and #s1c32,
 * docs/results/h200-2026-12-03-rules). */
int emu_exec_cp_async_bulk_commit(EMU_EXEC_ARGS) {
  (void)x, (void)warp, (void)mask, (void)R;
  if (b->mm) b->mm->metric[WM_M_TMA_REQ]++;
  return 0;
}

/* prefetch: no effect, but prefetch.tensormap is a request to the TMA
 * unit (the H200 counts one l1tex__tmain_request more a block of
 * tma_copy.cu's by_pointer, which prefetches its map once). */
int emu_exec_prefetch(EMU_EXEC_ARGS) {
  (void)warp, (void)mask, (void)R;
  if (x->sub == PTX_SUB_TENSORMAP && b->mm) b->mm->metric[WM_M_TMA_REQ]++;
  return 0;
}

int emu_tma_bulk_cluster(EMU_EXEC_ARGS) {
  int part = 0;
  for (uint32_t m = mask; m; m &= m - 1, part = 1) {
    int l = __builtin_ctz(m);
    if (x->sub == PTX_SUB_BULK_DSM ? bulk_to_peer(b, x, warp, l, R, 0, part) : bulk_multicast(b, x, warp, l, R, part))
      return -1;
  }
  return 0;
}

/* cp.reduce.async.bulk: into global memory (.bulk_group, done at issue),
 * or into a peer block's shared memory (complete_tx on its mbarrier). */
int emu_exec_cp_reduce_bulk(EMU_EXEC_ARGS) {
  char kind = plain_kind(x->sub, x->type);
  unsigned es = ptx_type_size((PtxType)x->type);
  int part = 0;
  for (uint32_t m = mask; m; m &= m - 1, part = 1) {
    int l = __builtin_ctz(m);
    if (x->space == PTX_S_SHARED) {
      if (bulk_to_peer(b, x, warp, l, R, kind, part)) return -1;
      continue;
    }
    uint64_t dst = (uint64_t)((x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + l]) + (uint64_t)x->aoff);
    uint64_t src = (SRC(0)[l] + SRC(1)[l]) & 0xffffffffu;
    uint32_t size = (uint32_t)SRC(2)[l];
    if (bulk_size(b, x, warp, l, size) || bulk_shared(b, x, warp, l, b, src, size, "source")) return -1;
    if (dst % 16)
      return emu_fault(b, x, warp, l, WM_EFAULT, "misaligned cp.reduce.async.bulk destination at 0x%" PRIx64
                       " (must be a multiple of 16)", dst);
    GBuf *g = gmem_find(b->l->gmem, dst, size);
    if (!g)
      return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-bounds global write of %u bytes at 0x%" PRIx64 " by "
                       "cp.reduce.async.bulk: no buffer holds them", size, dst);
    uint64_t at[32];
    at[l] = src;
    if (b->async && emu_async_check_read(b, x, warp, 1u << l, at, NULL, PTX_S_SHARED, size)) return -1;
    reduce_run(x->sub, kind, es, g->data + (dst - g->addr), b->shared + src, size / es);
    if (b->mm) emu_tma_count_bulk(b, x, MEM_TMA_RED, part, dst, size);
  }
  return 0;
}

/* --- tensor maps edited on the device (sm_90a) --- */

/* The 128 bytes of the map lane l's address a names in x's space (global,
 * shared::cta, generic): a host pointer, or NULL after a located fault. */
static uint8_t *map_at(Block *b, const EmuInstr *x, int warp, int l, uint64_t a) {
  size_t avail = 0;
  uint8_t *p = NULL;
  if (x->space == PTX_S_SHARED) {
    a &= 0xffffffffu;
    if (a + TMAP_BYTES <= b->shared_size) p = b->shared + a, avail = TMAP_BYTES;
  } else if (x->space == PTX_S_GLOBAL) {
    GBuf *g = gmem_find(b->l->gmem, a, TMAP_BYTES);
    if (g) p = g->data + (a - g->addr), avail = TMAP_BYTES;
  } else {
    p = (uint8_t *)emu_device_ptr(b, warp, l, a, TMAP_BYTES, &avail);
  }
  if (!p || avail < TMAP_BYTES) {
    emu_fault(b, x, warp, l, WM_EFAULT, "%s: no 128-byte tensor map at %s 0x%" PRIx64, ptx_op_name[x->op],
              ptx_space_name((PtxSpace)x->space), a);
    return NULL;
  }
  if (a % 64) {
    emu_fault(b, x, warp, l, WM_EFAULT, "%s: the tensor map at 0x%" PRIx64 " is not 64-byte aligned", ptx_op_name[x->op], a);
    return NULL;
  }
  return p;
}

/* Field f of map t, ordinal ord, set to v as the PTX ISA's table says (the
 * modes' values are the ISA's, not cuda.h's); 0, or -1 with why. */
static int replace_field(Tmap *t, unsigned f, uint64_t ord, uint64_t v, char *why, size_t n) {
  static const int8_t elemtype[16] = {TMAP_T_UINT8, TMAP_T_UINT16, TMAP_T_UINT32, TMAP_T_INT32, TMAP_T_UINT64,
                                      TMAP_T_INT64, TMAP_T_FLOAT16, TMAP_T_FLOAT32, TMAP_T_FLOAT32_FTZ,
                                      TMAP_T_FLOAT64, TMAP_T_BFLOAT16, TMAP_T_TFLOAT32, TMAP_T_TFLOAT32_FTZ,
                                      TMAP_T_16U4_ALIGN8B, TMAP_T_16U4_ALIGN16B, TMAP_T_16U6_ALIGN16B};
  int dims = f == PTX_TMAP_BOX_DIM || f == PTX_TMAP_GLOBAL_DIM || f == PTX_TMAP_ELEMENT_STRIDE;
  if ((dims && ord >= TMAP_MAX_RANK) || (f == PTX_TMAP_GLOBAL_STRIDE && ord >= TMAP_MAX_RANK - 1))
    return snprintf(why, n, "ordinal %" PRIu64 " is beyond the map's dimensions", ord), -1;
  switch (f) {
  case PTX_TMAP_GLOBAL_ADDRESS: t->addr = v; break;
  case PTX_TMAP_RANK:
    if (v > 4) return snprintf(why, n, "rank value %" PRIu64 " (the rank less one) is not in 0..4", v), -1;
    t->rank = (uint8_t)(v + 1);
    break;
  case PTX_TMAP_BOX_DIM: t->box[ord] = (uint32_t)v; break;
  case PTX_TMAP_GLOBAL_DIM: t->dim[ord] = (uint32_t)v; break;
  case PTX_TMAP_GLOBAL_STRIDE: t->stride[ord + 1] = v; break;
  case PTX_TMAP_ELEMENT_STRIDE: t->estride[ord] = (uint32_t)v; break;
  case PTX_TMAP_ELEMTYPE:
    if (v > 15) return snprintf(why, n, "elemtype %" PRIu64 " is not in the PTX ISA's table (0..15)", v), -1;
    t->dtype = (uint8_t)elemtype[v];
    break;
  case PTX_TMAP_INTERLEAVE:
    if (v > 2) return snprintf(why, n, "interleave_layout %" PRIu64 " is not 0, 1 or 2", v), -1;
    t->interleave = (uint8_t)v;
    break;
  case PTX_TMAP_SWIZZLE_MODE:
    if (v > 3) return snprintf(why, n, "swizzle_mode %" PRIu64 " is not 0..3 (4, the 96B swizzle, is sm_103's)", v), -1;
    t->swizzle = (uint8_t)v;
    break;
  case PTX_TMAP_SWIZZLE_ATOMICITY:
    if (v) return snprintf(why, n, "swizzle_atomicity %" PRIu64 ": atomicities past 16 bytes are sm_100 forms", v), -1;
    break;
  default: /* fill_mode */
    if (v > 1) return snprintf(why, n, "fill_mode %" PRIu64 " is not 0 (zeros) or 1 (NaN)", v), -1;
    t->oobfill = (uint8_t)v;
    break;
  }
  return 0;
}

/* tensormap.replace: one field of a map (in global or shared memory) made
 * by the driver or copied from one; the map is checked when a copy uses it. */
int emu_exec_tensormap_replace(EMU_EXEC_ARGS) {
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t a = (x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + l]) + (uint64_t)x->aoff;
    uint8_t *p = map_at(b, x, warp, l, a);
    if (!p) return -1;
    Tmap t;
    char why[300];
    uint64_t ord = x->s[0] == EMU_NOSLOT ? 0 : SRC(0)[l], v = SRC(1)[l];
    if (x->type == PTX_T_B32) v &= 0xffffffffu;
    if (tmap_decode_edit(p, &t, why, sizeof why) || replace_field(&t, x->aux, ord, v, why, sizeof why))
      return emu_fault(b, x, warp, l, WM_EFAULT, "tensormap.replace at 0x%" PRIx64 ": %s", a, why);
    tmap_pack(&t, p);
  }
  return 0;
}

/* tensormap.cp_fenceproxy: a map from shared memory to global memory. */
int emu_exec_tensormap_cp(EMU_EXEC_ARGS) {
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t dst = (x->abase == EMU_NOSLOT ? 0 : R[(size_t)x->abase * 32 + l]) + (uint64_t)x->aoff;
    uint64_t src = (SRC(0)[l] + SRC(1)[l]) & 0xffffffffu;
    if (bulk_shared(b, x, warp, l, b, src, TMAP_BYTES, "source")) return -1;
    uint8_t *p = map_at(b, x, warp, l, dst);
    if (!p) return -1;
    memcpy(p, b->shared + src, TMAP_BYTES);
  }
  return 0;
}
