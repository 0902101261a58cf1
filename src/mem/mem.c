/* mem.c - the memory model's entry point: one warp request at a time.
 *
 * Notes:
 * - Dispatches on the state space and counts what Nsight Compute reports on
 *   sm_90 (metrics.h):
 *   global ld/st/atom/red: one request (and one instruction) per warp
 *     instruction with an active lane, plus its distinct sectors (coalesce.c);
 *   local ld/st: the address goes through the per-lane interleaving
 *     (local.c); an access wider than 4 bytes is one request per 4-byte word,
 *     each with its own sectors (measured: local_heap, see tests/test_mem.c);
 *   shared ld/st/atom: one instruction, its wavefronts (smem.c) and, for
 *     ld/st, the wavefronts beyond the conflict-free ideal;
 *   cp.async (MEM_LDGSTS, given twice): the global side as a load of the
 *     lanes that read (op_ldgsts requests and sectors, split by .ca/.cg,
 *     and again under op_ld),
 *     the shared side as a store (op_ldgsts wavefronts and conflicts);
 *   const and param: nothing in the L1 counters (the constant cache serves
 *     them), but their lines are still counted for --lines.
 * - Other generations (mm->gen, gen.c): global requests also count the
 *   generation's transactions, bytes moved and bytes requested
 *   (warpmem__global_*: 1.x segments, Fermi lines or segments, sectors from
 *   Kepler on; coalesce_legacy.c); the l1tex__ request and sector counters
 *   keep their sm_70 meaning on every generation so reports line up.
 *   Shared memory follows the generation's banks (smem_legacy.c).
 * - Does not touch WM_M_WARPS or WM_M_INST: the emulator counts those.
 * - Ignores caches, timing and ordering between warps: none of these
 *   counters depend on them.
 * - The hot path allocates nothing and formats no strings; a line's `why` is
 *   rebuilt only when one of its requests is costlier than all before.
 */
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"
#include "ptx/ptx.h"
#include "util/diag.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* shape_diff four lanes to a register (a full warp's memo check: a
 * hundred instructions a request in the loop). */
__attribute__((target("avx2"))) static int shape_diff_avx2(const uint64_t *addr, const uint64_t *delta) {
  __m256i a0 = _mm256_set1_epi64x((long long)addr[0]), acc = _mm256_setzero_si256();
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(addr + l));
    __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(delta + l));
    acc = _mm256_or_si256(acc, _mm256_xor_si256(_mm256_sub_epi64(a, a0), d));
  }
  return !_mm256_testz_si256(acc, acc);
}
#endif

/* 1 unless every lane's offset from lane 0 equals delta's (32 lanes). */
static int shape_diff(const uint64_t *addr, const uint64_t *delta) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2")) return shape_diff_avx2(addr, delta);
#endif
  uint64_t a0 = addr[0], diff = 0;
  for (unsigned l = 0; l < 32; l++)
    diff |= (addr[l] - a0) ^ delta[l];
  return diff != 0;
}

int mem_init(MemModel *mm, const MemConfig *cfg, int ncode)
{
  memset(mm, 0, sizeof *mm);
  /* The generation's rules are decided once, here: the hot path dispatches
   * on the small enums of mm->gen, never on names. */
  if (!cfg || ncode < 0 || mem_gen(cfg, &mm->gen, NULL, 0))
    return -1;
  mm->cfg = *cfg;
  mm->nline = ncode;
  mm->line = ncode ? wm_xcalloc((size_t)ncode, sizeof *mm->line) : NULL;
  mm->memo = ncode ? wm_xcalloc((size_t)ncode, sizeof *mm->memo) : NULL;
  mm->smemo = ncode ? wm_xcalloc((size_t)ncode, sizeof *mm->smemo) : NULL;
  mm->round = ncode ? wm_xcalloc((size_t)ncode, sizeof *mm->round) : NULL;
  mm->after_st = ncode ? wm_xcalloc((size_t)ncode, sizeof *mm->after_st) : NULL;
  mm->round_alt = ncode ? wm_xcalloc((size_t)ncode, sizeof *mm->round_alt) : NULL;
  return 0;
}

void mem_free(MemModel *mm)
{
  free(mm->line);
  for (int i = 0; mm->memo && i < mm->nline; i++)
    free(mm->memo[i].ph);
  free(mm->memo);
  free(mm->smemo);
  free(mm->round);
  free(mm->after_st);
  free(mm->round_alt);
  mm->round_alt = NULL;
  mm->round = NULL;
  mm->after_st = NULL;
  mm->line = NULL;
  mm->memo = NULL;
  mm->smemo = NULL;
  mm->nline = 0;
}

/* Counters for global ld, st, atom, red (MemOpKind order). */
static const uint16_t greq[4] = {WM_M_GLD_REQ, WM_M_GST_REQ, WM_M_GATOM_REQ, WM_M_GRED_REQ};
static const uint16_t gsec[4] = {WM_M_GLD_SEC, WM_M_GST_SEC, WM_M_GATOM_SEC, WM_M_GRED_SEC};
/* Nsight Compute counts global ld, st and red instructions, not atom
 * (measured: smsp__inst_executed_op_global_red.sum is 0 for atom kernels). */
static const int ginst[4] = {WM_M_GLD_INST, WM_M_GST_INST, -1, WM_M_GRED_INST};

void mem_idle_global(MemModel *mm, unsigned op)
{
  if (op < 4 && ginst[op] >= 0)
    mm->metric[ginst[op]]++;
}

/* Keeps the lanes of the request a line's `why` explains, for the HTML
 * report's picture (mem.h MemPicture).  Called only when the worst grows,
 * so the hot path pays nothing for it. */
static void keep_picture(MemPicture *p, const MemReq *r)
{
  for (unsigned l = 0; l < 32; l++)
    p->addr[l] = r->mask >> l & 1 ? r->addr[l] : 0;
  p->mask = r->mask;
  p->size = r->size;
  p->space = r->space;
  p->op = r->op;
  p->warp = r->warp;
}

static void line_units(const MemModel *mm, LineStat *ls, const MemReq *r,
                       unsigned units, unsigned ideal, uint8_t kind)
{
  ls->requests++;
  ls->units += units;
  ls->ideal += ideal;
  ls->unit_kind = kind;
  if (units > ls->worst) {
    ls->worst = units;
    ls->worst_block = mm->block;
    mem_explain(ls->why, sizeof ls->why, &mm->gen, r, units, ideal);
    keep_picture(&ls->pic, r);
  }
}

/* The distinct sectors of a request (sec[], in lane order of first touch)
 * and the bytes the lanes touch in each; returns how many.  `addr` are byte
 * addresses (global) or interleaved local offsets. */
static unsigned request_sectors(const MemReq *r, const uint64_t *addr, unsigned size, uint64_t *sec,
                                uint32_t *bytes)
{
  unsigned n = 0;
  uint64_t hi = 0;
  uint32_t lane_bytes = size >= 32 ? 0xffffffffu : (1u << size) - 1;
  for (uint32_t m = r->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    uint64_t s = addr[l] >> 5;
    uint32_t b = lane_bytes << (addr[l] & 31);
    unsigned k = n;
    if (!n || s > hi) k = 0, hi = s; /* above every sector so far: new, no search */
    else
      while (k > 0 && sec[k - 1] != s) k--; /* lanes usually follow each other */
    if (k > 0) bytes[k - 1] |= b;
    else {
      sec[n] = s;
      bytes[n++] = b;
    }
  }
  return n;
}

/* Appends a request's sectors to the trace, `base` added to each. */
static void trace_emit(MemTrace *t, const MemReq *r, uint64_t base, const uint64_t *sec, const uint32_t *bytes,
                       unsigned n, unsigned kind)
{
  TraceRec *out = trace_append(t, n);
  for (unsigned i = 0; i < n; i++)
    out[i] = (TraceRec){base + sec[i], bytes[i], r->now, r->epoch, r->since, (uint8_t)r->warp, 1, (uint8_t)kind, i == 0};
}

/* An atomic or reduction request: its sectors, and the updates each takes
 * (trace, may be NULL); returns the sectors Nsight Compute counts (their
 * updates). */
static unsigned atomic_access(MemTrace *t, const MemReq *r, unsigned kind)
{
  uint64_t sec[32];
  uint32_t bytes[32];
  uint8_t ops[32];
  unsigned n = mem_atomic_ops(r->addr, r->mask, r->size, sec, bytes, ops), updates = 0;
  TraceRec *out = t ? trace_append(t, n) : NULL;
  for (unsigned i = 0; i < n; i++) {
    updates += ops[i];
    if (out)
      out[i] = (TraceRec){sec[i], bytes[i], r->now, r->epoch, r->since, (uint8_t)r->warp, ops[i], (uint8_t)kind, i == 0};
  }
  return updates;
}

/* Records the sectors of a request for the cache model. */
static void trace_request(MemTrace *t, const MemReq *r, const uint64_t *addr, unsigned size,
                          unsigned kind)
{
  uint64_t sec[32];
  uint32_t bytes[32];
  unsigned n = request_sectors(r, addr, size, sec, bytes);
  trace_emit(t, r, 0, sec, bytes, n, kind);
}

/* Records a full warp's global request whose shape the instruction's memo
 * holds: its sectors relative to lane 0's, kept from the first request of
 * that shape with lane 0 at that place in its sector. */
static void trace_memo(MemTrace *t, MemPhase *mo, const MemReq *r, unsigned kind)
{
  uint64_t base = r->addr[0] >> 5;
  if (!mo->tn) {
    uint64_t sec[32];
    mo->tn = (uint8_t)request_sectors(r, r->addr, r->size, sec, mo->tbytes);
    for (unsigned i = 0; i < mo->tn; i++)
      mo->trel[i] = sec[i] - base;
  }
  trace_emit(t, r, base, mo->trel, mo->tbytes, mo->tn, kind);
}

static const uint8_t trace_kind[4] = {TR_LD, TR_ST, TR_ATOM, TR_RED};

/* 1.x and 2.x: the generation's segments or lines (coalesce_legacy.c) are
 * the transactions, and what --lines shows. */
static void generation_transactions(MemModel *mm, const MemReq *r, LineStat *ls)
{
  MemTrans t;
  mem_transactions(&mm->gen, r, &t);
  mm->metric[WM_M_G_TRANS] += t.n;
  mm->metric[WM_M_G_MOVED] += t.moved;
  if (ls)
    line_units(mm, ls, r, t.n, t.ideal, MEM_UNIT_TRANSACTIONS);
}

static void global_access(MemModel *mm, const MemReq *r, LineStat *ls)
{
  unsigned kind = r->op == MEM_LD && !mem_load_cached(&mm->gen, r) ? TR_LD_NC : trace_kind[r->op & 3];
  unsigned op = r->op & 3, distinct;
  unsigned sec;
  if (r->op == MEM_ATOM || r->op == MEM_RED) {
    sec = atomic_access(mm->trace, r, kind);
    mem_coalesce(r->addr, r->mask, r->size, &distinct);
  } else if (r->mask == 0xffffffffu && mm->memo && r->instr >= 0 && r->instr < mm->nline) {
    MemMemo *mo = &mm->memo[r->instr];
    uint64_t a0 = r->addr[0];
    unsigned phase = (unsigned)(a0 & 31);
    if (mo->size != r->size || shape_diff(r->addr, mo->delta)) { /* a new shape: its places are all to find */
      for (unsigned l = 0; l < 32; l++)
        mo->delta[l] = r->addr[l] - a0;
      mo->size = r->size;
      mo->known = 0;
    }
    if (!mo->ph)
      mo->ph = wm_xmalloc(32 * sizeof *mo->ph);
    MemPhase *ph = &mo->ph[phase];
    if (!(mo->known >> phase & 1)) {
      ph->sectors = mem_coalesce(r->addr, r->mask, r->size, &ph->distinct);
      ph->tn = 0;
      mo->known |= 1u << phase;
    }
    sec = ph->sectors;
    distinct = ph->distinct;
    if (mm->trace)
      trace_memo(mm->trace, ph, r, kind);
  } else {
    if (mm->trace)
      trace_request(mm->trace, r, r->addr, r->size, kind);
    sec = mem_coalesce(r->addr, r->mask, r->size, &distinct);
  }
  mm->metric[greq[op]]++;
  if (ginst[op] >= 0)
    mm->metric[ginst[op]]++;
  mm->metric[gsec[op]] += sec;
  mm->metric[WM_M_G_USED] += distinct * r->size;
  if (mm->gen.coal != COAL_SECTOR) {
    generation_transactions(mm, r, ls);
    return;
  }
  /* sm_30+: a transaction is a 32-byte sector */
  mm->metric[WM_M_G_TRANS] += sec;
  mm->metric[WM_M_G_MOVED] += 32u * sec;
  if (ls)
    line_units(mm, ls, r, sec, (distinct * r->size + 31) / 32, MEM_UNIT_SECTORS);
}

static void local_access(MemModel *mm, const MemReq *r, LineStat *ls)
{
  uint64_t phys[32];
  unsigned words = r->size > 4 ? r->size / 4u : 1;
  unsigned wsize = r->size > 4 ? 4 : r->size;
  int st = r->op != MEM_LD;
  unsigned worst = 0, worst_ideal = 0, worst_word = 0;

  for (unsigned w = 0; w < words; w++) {
    for (uint32_t m = r->mask; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctz(m);
      uint64_t off = r->addr[l] + 4u * w; /* mem_local_address(), inlined */
      phys[l] = ((off >> 2) * 32 + l) * 4 + (off & 3);
    }
    unsigned distinct;
    unsigned sec = mem_coalesce(phys, r->mask, wsize, &distinct);
    if (mm->trace)
      trace_request(mm->trace, r, phys, wsize, st ? TR_LOCAL_ST : TR_LOCAL_LD);
    unsigned ideal = (distinct * wsize + 31) / 32;
    mm->metric[st ? WM_M_LST_SEC : WM_M_LLD_SEC] += sec;
    if (ls) {
      ls->requests++;
      ls->units += sec;
      ls->ideal += ideal;
    }
    if (sec > worst) {
      worst = sec;
      worst_ideal = ideal;
      worst_word = w;
    }
  }
  mm->metric[st ? WM_M_LST_REQ : WM_M_LLD_REQ] += words;
  if (ls) {
    ls->unit_kind = MEM_UNIT_SECTORS;
    if (worst > ls->worst) {
      ls->worst = worst;
      ls->worst_block = mm->block;
      mem_explain(ls->why, sizeof ls->why, &mm->gen, r, worst, worst_ideal);
      keep_picture(&ls->pic, r);
      /* the picture is of the costliest 4-byte word's request, the one
       * `why` counts */
      for (uint32_t m = r->mask; m; m &= m - 1)
        ls->pic.addr[__builtin_ctz(m)] += 4u * worst_word;
      ls->pic.size = (uint8_t)wsize;
    }
  }
}

/* ldmatrix and stmatrix: per 8x8 matrix (smem.c), under Nsight Compute's
 * "Shared Load Matrix" / "Shared Store Matrix" counters, and also in the
 * shared op_ld / op_st wavefronts and conflicts (so an H100 counts them:
 * docs/results/h100-2026-11-23-corpus). */
static void matrix_access(MemModel *mm, const MemReq *r, LineStat *ls)
{
  unsigned ideal, wf = mem_smem_matrix_cost(r->addr, r->mask, &ideal);
  int st = r->op == MEM_STSM;
  mm->metric[st ? WM_M_STSM_INST : WM_M_LDSM_INST]++;
  mm->metric[st ? WM_M_STSM_WF : WM_M_LDSM_WF] += wf;
  mm->metric[st ? WM_M_STSM_BC : WM_M_LDSM_BC] += wf - ideal;
  mm->metric[st ? WM_M_SST_WF : WM_M_SLD_WF] += wf;
  mm->metric[st ? WM_M_SST_BC : WM_M_SLD_BC] += wf - ideal;
  if (ls)
    line_units(mm, ls, r, wf, ideal, MEM_UNIT_WAVEFRONTS);
}

/* A full warp's shared request costs what the instruction's previous one
 * cost when every lane's offset from lane 0 is the same and lane 0 sits at
 * the same place among the banks (its address mod 128): the cost is a
 * function of those alone.  A tiled kernel's loads repeat their pattern
 * from tile to tile, so the grouping (smem.c) runs once per pattern. */
static unsigned smem_cost_memo(MemModel *mm, const MemReq *r, unsigned *ideal)
{
  if (r->mask != 0xffffffffu || !mm->smemo || r->instr < 0 || r->instr >= mm->nline)
    return mem_smem_cost(r->addr, r->mask, r->size, r->op, ideal);
  MemMemo *mo = &mm->smemo[r->instr];
  uint64_t a0 = r->addr[0];
  uint32_t key = (uint32_t)(a0 & 127) | (uint32_t)r->op << 8;
  if (mo->size == r->size && mo->phase == key && !shape_diff(r->addr, mo->delta)) {
    *ideal = mo->distinct;
    return mo->sectors;
  }
  unsigned wf = mem_smem_cost(r->addr, r->mask, r->size, r->op, ideal);
  for (unsigned l = 0; l < 32; l++)
    mo->delta[l] = r->addr[l] - a0;
  mo->phase = key;
  mo->size = r->size ? r->size : 1; /* 0 marks an empty memo */
  mo->sectors = wf;
  mo->distinct = *ideal;
  if (mo->size != r->size)
    mo->size = 0; /* a size-0 request is never remembered */
  return wf;
}

static void shared_access(MemModel *mm, const MemReq *r, LineStat *ls)
{
  unsigned ideal;
  if (r->op == MEM_LDSM || r->op == MEM_STSM) {
    matrix_access(mm, r, ls);
    return;
  }
  unsigned wf = mm->gen.banks == MEM_BANKS_SM70
                    ? smem_cost_memo(mm, r, &ideal)
                    : mem_smem_cost_gen(&mm->gen, r->addr, r->mask, r->size, r->op, &ideal);
  switch (r->op) {
  case MEM_LD:
    mm->metric[WM_M_SLD_INST]++;
    mm->metric[WM_M_SLD_WF] += wf;
    mm->metric[WM_M_SLD_BC] += wf - ideal;
    break;
  case MEM_ST:
    mm->metric[WM_M_SST_INST]++;
    mm->metric[WM_M_SST_WF] += wf;
    mm->metric[WM_M_SST_BC] += wf - ideal;
    break;
  default: /* atom, red: ncu has no bank-conflict counter for them */
    mm->metric[WM_M_SATOM_INST]++;
    mm->metric[WM_M_SATOM_WF] += wf;
    break;
  }
  if (ls)
    line_units(mm, ls, r, wf, ideal,
               mm->gen.banks == MEM_BANKS_SM70 ? MEM_UNIT_WAVEFRONTS : MEM_UNIT_SMEM_TRANS);
}

/* Distributed shared memory (a request's lanes in peers' shared memory,
 * PTX_S_CLUSTER; addr[] their offsets there, tagged with the peer's rank
 * above bit 24): one instruction and one request, the distinct 32-byte
 * sectors of the addresses (a crossbar packet per sector and peer, as for
 * global memory).  The crossbar bytes, as the H200
 * counts them (docs/clusters.md; docs/results/h200-2026-12-02-hopper):
 * the same both ways, 32 a sector for loads and stores (a load's request
 * is counted as written, a store's acknowledgement as read), 64 a sector
 * for atomics and reductions.  An atomic or reduction sends each sector
 * once for every lane on its busiest address (mem_atomic_sectors, as for
 * global atomics: lanes on one address are
 * sent apart: groundtruth/dsm_atom_kernels.cu, 32 sectors for 32 lanes on
 * one word; cluster_histogram 2633 against the H200's 2657), and takes the
 * executing block's shared-memory atomic unit one wavefront, which lanes in
 * its own memory, counted as a shared atomic, already take (dsm_atom's
 * own_peer, four and mixed). */
static void dshared_access(MemModel *mm, const MemReq *r, LineStat *ls)
{
  unsigned distinct, sec = mem_coalesce(r->addr, r->mask, r->size, &distinct);
  uint64_t bytes = 32ull * sec;
  switch (r->op) {
  case MEM_LD:
    mm->metric[WM_M_DSLD_INST]++;
    mm->metric[WM_M_DSLD_REQ]++;
    mm->metric[WM_M_DSLD_SEC] += sec;
    mm->metric[WM_M_DS_RD_LD] += bytes;
    break;
  case MEM_ST:
    mm->metric[WM_M_DSST_INST]++;
    mm->metric[WM_M_DSST_REQ]++;
    mm->metric[WM_M_DSST_SEC] += sec;
    mm->metric[WM_M_DS_WR_ST] += bytes;
    break;
  default: /* atom, red */
    sec = mem_atomic_sectors(r->addr, r->mask, r->size);
    bytes = 64ull * sec;
    mm->metric[WM_M_DSATOM_INST]++;
    mm->metric[WM_M_DSATOM_REQ]++;
    mm->metric[WM_M_DSATOM_SEC] += sec;
    mm->metric[WM_M_SATOM_WF] += !r->with_own;
    break;
  }
  mm->metric[WM_M_DS_RD] += bytes;
  mm->metric[WM_M_DS_WR] += bytes;
  if (ls)
    line_units(mm, ls, r, sec, (distinct * r->size + 31) / 32, MEM_UNIT_SECTORS);
}

/* cp.async (LDGSTS): the global side is counted as a load of the lanes
 * that read (sectors as for ld, .ca through L1, .cg around it; under
 * op_ldgsts and op_ld both, as the H100 counts them), the shared
 * side as a store of every lane's bytes (its wavefronts and conflicts);
 * --lines shows the global side. */
static void ldgsts_access(MemModel *mm, const MemReq *r, LineStat *ls)
{
  unsigned ideal, distinct;
  if (r->space == PTX_S_SHARED) {
    unsigned wf = mm->gen.banks == MEM_BANKS_SM70
                      ? mem_smem_cost(r->addr, r->mask, r->size, MEM_ST, &ideal)
                      : mem_smem_cost_gen(&mm->gen, r->addr, r->mask, r->size, MEM_ST, &ideal);
    mm->metric[WM_M_LDGSTS_INST]++;
    mm->metric[WM_M_LDGSTS_WF] += wf;
    mm->metric[WM_M_LDGSTS_BC] += wf - ideal;
    return;
  }
  int cg = r->cache == MEM_LOADS_CG;
  if (mm->trace)
    trace_request(mm->trace, r, r->addr, r->size, cg ? TR_LDGSTS_NC : TR_LDGSTS);
  unsigned sec = mem_coalesce(r->addr, r->mask, r->size, &distinct);
  mm->metric[WM_M_LDGSTS_REQ]++;
  mm->metric[WM_M_LDGSTS_SEC] += sec;
  mm->metric[WM_M_GLD_REQ]++; /* op_ld includes LDGSTS's reads, as measured on an H100 */
  mm->metric[WM_M_GLD_SEC] += sec;
  mm->metric[cg ? WM_M_LDGSTS_SEC_CG : WM_M_LDGSTS_SEC_CA] += sec;
  if (ls) {
    ls->execs++;
    line_units(mm, ls, r, sec, (distinct * r->size + 31) / 32, MEM_UNIT_SECTORS);
  }
}

/* Flags a global or local request's first trace record, at `at`, for the
 * cache: a load that starts a round trip (MemModel.round; the cache counts
 * the rounds that wait for L2), a store right after another
 * (MemModel.after_st; L1 may merge them), the first since a barrier. */
static void mark_trace(MemModel *mm, const MemReq *r, size_t at, int starts)
{
  if (!mm->trace || mm->trace->n <= at) return;
  if (r->after_bar) mm->trace->r[at].first |= TR_AFTER_BAR;
  if (r->op == MEM_ST && r->cache == MEM_LOADS_CG) mm->trace->r[at].first |= TR_STRONG;
  if ((unsigned)r->instr >= (unsigned)mm->nline) return;
  if (starts) mm->trace->r[at].first |= starts > 1 ? TR_ROUND | TR_ROUND_SKIP : TR_ROUND;
  if (mm->after_st && mm->after_st[r->instr]) mm->trace->r[at].first |= TR_AFTER_ST;
}

/* 1 if this execution of a round's leader is not the first of the k
 * iterations of an unrolled loop that one round covers (MemModel.round k
 * > 1): ptxas issued its loads with the first's, so the replay's clock
 * does not wait before it (TR_ROUND_SKIP).  Counted per warp of the block,
 * for the leader it last executed. */
static int in_unrolled_round(MemModel *mm, const MemReq *r, unsigned w)
{
  unsigned k = mm->round[r->instr];
  if (k <= 1) return 0;
  if (mm->lead_pc[w] != (uint32_t)r->instr + 1 || mm->lead_block[w] != mm->block)
    mm->lead_pc[w] = (uint32_t)r->instr + 1, mm->lead_block[w] = mm->block, mm->lead_n[w] = 0;
  return mm->lead_n[w]++ % k != 0;
}

/* Whether a far request starts a round trip: its load leads a round
 * (MemModel.round), or it is the first load of a round whose leader the
 * warp skipped (round_alt: the round counts on the leader's line); 2 for
 * a leader's execution inside an unrolled round (in_unrolled_round). */
static int starts_round(MemModel *mm, const MemReq *r)
{
  unsigned w = r->warp < 32 ? r->warp : 31;
  if (mm->round && mm->round[r->instr]) {
    mm->owed[w] = 0;
    return 1 + in_unrolled_round(mm, r, w);
  }
  uint32_t lead = mm->round_alt ? mm->round_alt[r->instr] : 0;
  if (!lead || mm->owed[w] != lead) return 0;
  mm->owed[w] = 0;
  mm->line[lead - 1].far_execs++;
  return 1;
}

void mem_round_owed(MemModel *mm, int pc, unsigned warp)
{
  if (mm->round_alt && (unsigned)pc < (unsigned)mm->nline && mm->round_alt[pc])
    mm->owed[warp < 32 ? warp : 31] = mm->round_alt[pc];
}

/* Shared memory, the block's own or a peer's in its cluster: no trip to
 * L2, so no round (a generic load that reaches a peer waits the peer's
 * trip in the warp's clock instead: emu_latency.c) */
static int near_space(unsigned space) { return space == PTX_S_SHARED || space == PTX_S_CLUSTER; }

void mem_access(MemModel *mm, const MemReq *r)
{
  LineStat *ls = (unsigned)r->instr < (unsigned)mm->nline ? &mm->line[r->instr] : NULL;
  if (r->op == MEM_LDGSTS) {
    ldgsts_access(mm, r, ls);
    return;
  }
  if (ls && !r->part) {
    ls->execs++;
    ls->far_execs += !near_space(r->space);
  }
  int starts = ls && !r->part && !near_space(r->space) ? starts_round(mm, r) : 0; /* 0, 1 or 2 */
  size_t at = mm->trace ? mm->trace->n : 0;
  switch (r->space) {
  case PTX_S_GLOBAL:
    global_access(mm, r, ls);
    mark_trace(mm, r, at, starts);
    break;
  case PTX_S_LOCAL:
    local_access(mm, r, ls);
    mark_trace(mm, r, at, starts);
    break;
  case PTX_S_SHARED:
    shared_access(mm, r, ls);
    break;
  case PTX_S_CLUSTER:
    dshared_access(mm, r, ls);
    break;
  default: /* const, param: the constant cache, not L1 */
    if (ls) {
      ls->requests++;
      if (ls->execs == 1) {
        ls->worst_block = mm->block;
        mem_explain(ls->why, sizeof ls->why, &mm->gen, r, 0, 0);
        keep_picture(&ls->pic, r);
      }
    }
    break;
  }
}
