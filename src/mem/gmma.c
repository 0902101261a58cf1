/* gmma.c - the counters of the tensor cores: wgmma.mma_async's shared
 * memory reads (GMMA) and the math of every tensor-core instruction.
 *
 * Notes (the counting rule: a hypothesis, Nsight Compute does not document
 * how the GMMA unit reads; groundtruth/wgmma_kernels.cu has the launches
 * that tell the candidate rules apart, docs/tensor-cores.md the commands):
 * - Instructions: each of a warpgroup's 4 warps executes the HGMMA (its
 *   SASS is a warp instruction), so one warpgroup instruction counts 4 in
 *   smsp__inst_executed_pipe_tensor_op_gmma.sum.
 * - Shared memory: the descriptors' core matrices (8 rows of 16 bytes:
 *   the unit of every canonical layout) are read once a warpgroup
 *   instruction, B for all four warps' tensor cores at once, A's 64 rows
 *   likewise; A in registers reads nothing.  A core matrix is 128 bytes
 *   (smsp__sass_data_bytes_mem_shared_op_gmma.sum) and one wavefront when
 *   its 8 rows lie in 8 different bank groups (the 4 banks of a 16-byte
 *   row: address / 16 mod 8); otherwise as many as its busiest group has
 *   distinct rows (mem_smem_matrix_cost, ldmatrix's rule), the excess
 *   being bank conflicts.  Every canonical layout puts a core matrix's
 *   rows in 8 groups (without swizzle they are 128 contiguous bytes; a
 *   swizzle's XOR moves rows span bytes apart to 8 groups), so a correct
 *   descriptor reads conflict-free; conflicts mean a layout that is not
 *   one (the rows of a tile written row-major and read with a swizzle of
 *   the wrong span, say).
 * - Ops: two a multiply-add (measured: MEM_TC_OPS_PER_MAC), 64 x N x K
 *   multiply-adds a warpgroup instruction, under the path's
 *   sm__ops_path_tensor_* counter; mma.sync and wmma.mma add theirs
 *   (mem_tensor_ops).
 * - Per line: a warpgroup instruction is 4 executions (one a warp), one
 *   request for each operand read from shared memory, its wavefronts the
 *   units, one a core matrix the ideal; `why` names the layouts.
 */
#include <stdio.h>
#include <string.h>

#include "mem/mem.h"
#include "ptx/ptx.h"

const uint16_t mem_tc_metric[MEM_TC_COUNT] = {
#define X(e, metric, rate) metric,
  MEM_TENSOR_PATHS(X)
#undef X
};

const uint8_t mem_tc_rate[MEM_TC_COUNT] = {
#define X(e, metric, rate) rate,
  MEM_TENSOR_PATHS(X)
#undef X
};

void mem_tensor_ops(MemModel *mm, unsigned path, uint64_t macs) {
  if (path < MEM_TC_COUNT) mm->metric[mem_tc_metric[path]] += MEM_TC_OPS_PER_MAC * macs;
}

unsigned mem_gmma_cost(const uint64_t *row, uint32_t nmat, unsigned *ideal) {
  unsigned total = 0;
  for (uint32_t m = 0; m < nmat; m += 4) {
    unsigned n = nmat - m < 4 ? nmat - m : 4;
    uint32_t mask = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1;
    total += mem_smem_matrix_cost(row + 8 * m, mask, NULL);
  }
  if (ideal) *ideal = nmat;
  return total;
}

/* "B: 128B-swizzled K-major 128x16 16-bit tile, 32 core matrices,
 * conflict-free" into buf (LineStat.why holds 160 bytes: both operands
 * fit). */
static int describe(char *buf, size_t n, char which, const MemGmmaOpd *o, unsigned wf) {
  static const char *const swz[] = {"", "32B-swizzled ", "64B-swizzled ", "128B-swizzled "};
  unsigned s = o->span == 32 ? 1 : o->span == 64 ? 2 : o->span == 128 ? 3 : 0;
  int len = snprintf(buf, n, "%c: %s%s %ux%u %u-bit tile, %u core matrices, ", which, swz[s],
                     o->mn_major ? (which == 'A' ? "M-major" : "N-major") : "K-major", o->mn, o->k, o->bits, o->nmat);
  if (len < 0 || (size_t)len >= n) return len;
  if (wf == o->nmat) return len + snprintf(buf + len, n - (size_t)len, "conflict-free");
  return len + snprintf(buf + len, n - (size_t)len, "%u wavefronts where %u would do: rows of a matrix share a "
                        "bank group (not a canonical layout)", wf, o->nmat);
}

/* The worst matrices' rows (up to 4 of them) as the line's picture. */
static void keep_rows(MemPicture *p, const MemGmmaOpd *o, uint16_t warp) {
  unsigned best = 0, worst = 0;
  for (uint32_t m = 0; m < o->nmat; m += 4) {
    unsigned n = o->nmat - m < 4 ? o->nmat - m : 4;
    uint32_t mask = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1;
    unsigned c = mem_smem_matrix_cost(o->row + 8 * m, mask, NULL);
    if (c > worst) worst = c, best = m;
  }
  unsigned n = o->nmat - best < 4 ? o->nmat - best : 4;
  memset(p, 0, sizeof *p);
  for (unsigned l = 0; l < 8 * n; l++) p->addr[l] = o->row[8 * best + l];
  p->mask = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1;
  p->size = 16;
  p->space = PTX_S_SHARED;
  p->op = MEM_GMMA;
  p->warp = warp;
}

void mem_gmma(MemModel *mm, const MemGmma *g) {
  unsigned wa = 0, wb = 0, ia = 0, ib = 0;
  if (g->a.nmat) wa = mem_gmma_cost(g->a.row, g->a.nmat, &ia);
  if (g->b.nmat) wb = mem_gmma_cost(g->b.row, g->b.nmat, &ib);
  mm->metric[WM_M_GMMA_INST] += g->warps;
  mm->metric[WM_M_GMMA_BYTES] += 128ull * (g->a.nmat + g->b.nmat);
  mm->metric[WM_M_GMMA_WF] += wa + wb;
  mm->metric[WM_M_GMMA_BC] += wa + wb - ia - ib;
  mem_tensor_ops(mm, g->path, g->macs);
  if ((unsigned)g->instr >= (unsigned)mm->nline) return;
  LineStat *ls = &mm->line[g->instr];
  ls->execs += g->warps;
  ls->requests += (g->a.nmat != 0) + (g->b.nmat != 0);
  ls->units += wa + wb;
  ls->ideal += ia + ib;
  ls->unit_kind = MEM_UNIT_WAVEFRONTS;
  if (wa + wb > ls->worst || !ls->why[0]) {
    ls->worst = wa + wb;
    ls->worst_block = mm->block;
    int len = describe(ls->why, sizeof ls->why, 'B', &g->b, wb);
    if (g->a.nmat && len > 0 && (size_t)len < sizeof ls->why - 2) {
      snprintf(ls->why + len, sizeof ls->why - (size_t)len, "; ");
      describe(ls->why + len + 2, sizeof ls->why - (size_t)len - 2, 'A', &g->a, wa);
    } else if (len > 0 && (size_t)len < sizeof ls->why) {
      snprintf(ls->why + len, sizeof ls->why - (size_t)len, "; A from registers");
    }
    keep_rows(&ls->pic, wa - ia > wb - ib ? &g->a : &g->b, g->warp);
  }
}
