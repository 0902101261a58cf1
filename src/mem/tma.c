/* tma.c - the TMA unit's operations, as the memory model counts them:
 * cp.async.bulk, cp.async.bulk.tensor and cp{.reduce}.async.bulk{.tensor}
 * (mem.h: MemTma).
 *
 * Notes:
 *  - The global side of a store is its box rows that lie inside the
 *    tensor (a row partly outside: its inside part); each row writes the
 *    32-byte sectors it touches, in one request per 128-byte line it
 *    touches.  A load reads its rows in 128-byte pieces, the part outside
 *    the tensor too, as the H200 counts them (emu_tma.c count_row,
 *    measured by groundtruth/tma_edge_kernels.cu: docs/tma.md); the
 *    outside part of a row is replayed in L2 where the row would go on,
 *    a row outside along another dimension not (the H200's L2 counts
 *    about half of those: not modelled).  The requests are
 *    one per 128-byte line a row's inside part touches (a hypothesis).
 *  - A multicast reads each sector from L2 once for every block of its
 *    ctaMask (once in the L2 and DRAM replay), but the crossbar delivers it
 *    to each: its bytes and sectors, under op_tma_ld and dest_multicast,
 *    count once a destination block, as the H200 counts them (measured:
 *    tests/corpus/hopper_gemm.cu's gemm_mc, docs/results/h200-2026-12-02-
 *    hopper); its requests count once (a hypothesis).  A multicast whose
 *    ctaMask names only the issuing block counts as the block's own load
 *    (dest_self, as the H200 counts tma_copy.cu's `multicast`; one to a
 *    single other block stays a multicast: not measured).
 *  - Instructions: ptxas runs a TMA instruction once per active lane (an
 *    ELECT loop around UTMALDG, seen in the SASS of sm_90a), so each lane's
 *    operation is an instruction and a request to the TMA unit.  The
 *    plain bulk copies (UBLKCP) count as TMA loads and stores too, as
 *    Nsight Compute's descriptions of op_tma_ld and op_tma_st say.
 *  - Prefetches to L2 count as TMA requests only: they fill no shared
 *    memory and nothing waits for them.
 */
#include <stdio.h>
#include <string.h>

#include "mem/mem.h"
#include "mem/replay.h"

void mem_tma_row(MemModel *mm, MemTma *t, uint64_t addr, uint32_t len) {
  if (len == 0 || t->op == MEM_TMA_PREFETCH || t->op == MEM_TMA_DSM || t->op == MEM_TMA_DSM_RED) return;
  uint64_t s0 = addr / 32, s1 = (addr + len - 1) / 32;
  t->sectors += s1 - s0 + 1;
  for (uint64_t s = s0; s <= s1;) { /* one request per 128-byte line */
    uint64_t end = (s | 3) < s1 ? (s | 3) : s1;
    t->requests++;
    t->req_size[end - s]++;
    s = end + 1;
  }
  if (!mm->trace) return;
  unsigned kind = t->op == MEM_TMA_LD ? TR_BULK : t->op == MEM_TMA_ST ? TR_BULK_ST : TR_BULK_RED;
  for (uint64_t s = s0; s <= s1; s++) {
    uint32_t bytes = 0; /* the bytes of sector s the row writes (bit i: byte i) */
    if (kind != TR_BULK) {
      uint64_t lo = s * 32 > addr ? s * 32 : addr, hi = s * 32 + 32 < addr + len ? s * 32 + 32 : addr + len;
      bytes = hi - lo >= 32 ? 0xffffffffu : ((1u << (hi - lo)) - 1) << (lo - s * 32);
    }
    trace_push(mm->trace, s, bytes, t->warp, kind, s == s0);
  }
}

void mem_tma_outside(MemModel *mm, MemTma *t, uint64_t addr, uint32_t bytes, int replay) {
  if (t->op != MEM_TMA_LD || bytes == 0) return;
  uint32_t n = (bytes + 31) / 32;
  t->sectors += n;
  if (!replay || !mm->trace) return;
  for (uint32_t i = 0; i < n; i++) trace_push(mm->trace, addr / 32 + i, 0, t->warp, TR_BULK, i == 0);
}

/* The instruction's line: an execution per warp instruction (not per
 * lane), a request per lane, its sectors. */
static void tma_line(MemModel *mm, const MemTma *t, const char *why) {
  if ((unsigned)t->instr >= (unsigned)mm->nline) return;
  LineStat *ls = &mm->line[t->instr];
  if (!t->part) ls->execs++;
  ls->requests++;
  ls->units += t->sectors;
  ls->ideal += t->sectors;
  ls->unit_kind = MEM_UNIT_SECTORS;
  if (t->sectors >= ls->worst && (t->sectors > ls->worst || !ls->why[0])) {
    ls->worst = (uint32_t)(t->sectors > UINT32_MAX ? UINT32_MAX : t->sectors);
    ls->worst_block = mm->block;
    if (why) snprintf(ls->why, sizeof ls->why, "%s", why);
  }
}

void mem_tma_done(MemModel *mm, const MemTma *t, const char *why) {
  uint64_t *m = mm->metric, bytes = t->sectors * 32;
  m[WM_M_TMA_REQ]++;
  tma_line(mm, t, why);
  switch (t->op) {
  case MEM_TMA_LD: {
    uint64_t copies = t->multicast && t->dests ? t->dests : 1; /* the blocks the crossbar delivers to */
    m[WM_M_TMA_LD_INST]++;
    m[WM_M_TMA_LD_BYTES] += copies * bytes;
    m[WM_M_TMA_LD_SEC] += copies * t->sectors;
    m[t->multicast ? WM_M_TMA_MC_BYTES : WM_M_TMA_SELF_BYTES] += copies * bytes;
    m[t->multicast ? WM_M_TMA_MC_SEC : WM_M_TMA_SELF_SEC] += copies * t->sectors;
    if (t->multicast) {
      m[WM_M_TMA_MC_REQ] += t->requests;
      for (int i = 0; i < 4; i++) m[WM_M_TMA_MC_REQ32 + i] += t->req_size[i];
    }
    m[WM_M_TMA_SMEM_BYTES] += t->smem_bytes * (t->dests ? t->dests : 1);
    break;
  }
  case MEM_TMA_ST:
  case MEM_TMA_RED:
    m[WM_M_TMA_ST_INST]++;
    m[t->op == MEM_TMA_ST ? WM_M_TMA_ST_BYTES : WM_M_TMA_RED_BYTES] += bytes;
    m[t->op == MEM_TMA_ST ? WM_M_TMA_ST_SEC : WM_M_TMA_RED_SEC] += t->sectors;
    m[WM_M_TMA_SMEM_BYTES] += t->smem_bytes;
    break;
  case MEM_TMA_DSM:
  case MEM_TMA_DSM_RED:
    m[WM_M_TMA_ST_INST]++;
    m[t->op == MEM_TMA_DSM ? WM_M_TMA_DSM_BYTES : WM_M_TMA_DSM_RED_BYTES] += t->smem_bytes;
    m[WM_M_TMA_SMEM_BYTES] += 2 * t->smem_bytes; /* read here, written there */
    break;
  default: /* a prefetch */
    break;
  }
}
