/* emu_rounds.c - which loads start a round trip to memory.
 *
 * A warp waits for memory when an instruction reads a register that an
 * outstanding load writes.  So a warp's time is at least (rounds x
 * latency): copy_grid on one block (one load per iteration, waited for by
 * the store) takes one DRAM round trip per iteration on an H100, whatever
 * the bandwidth (docs/results/h100-2026-11-25-hierarchy).
 *
 * The rounds are those of the machine code, not of the PTX: ptxas issues
 * the independent loads of a straight line together, before the first use
 * of any of them (nvcc's unrolled `s += a[r*pitch]` interleaves loads and
 * adds in PTX; the SASS issues the four loads first).  So a load's round
 * is its depth in the chain of loads it waits for: one more than the
 * deepest load its address (or guard) needs, and no earlier than a global
 * or local store before it that waited for a load (a load may not pass a
 * store it cannot prove apart, and that store waits).  A straight line
 * costs its deepest round; the first load at each new depth is marked, and
 * counted at run time for free: a marked load counts each time it executes
 * and reaches beyond shared memory (MemModel.line[pc].far_execs).
 *
 * A branch, a branch target, a call, a return or a barrier ends the
 * straight line (the next load starts a round) -- except a short forward
 * branch over a few instructions, which ptxas turns into predicated ones
 * (if-conversion: the bounds checks of the public set's conv_rows and
 * reduce_tree become `@!P LDG`, issued with the loads around them); the
 * skipped instructions then wait for the branch's predicate as for an
 * operand.  So a load hoisted above a
 * loop's back edge is counted in each iteration -- except in the loops
 * ptxas unrolls: a straight line that branches back to its own start, has
 * no global or local store and carries no load's value into the next
 * iteration's addresses (a sum, not a pointer chase) is unrolled EMU_UNROLL
 * times, its loads issued together, so it costs a round every EMU_UNROLL
 * iterations, or fewer when that makes more than EMU_INFLIGHT loads
 * (round[i] = the iterations a round covers: the count divides the
 * executions).
 *
 * The same straight lines tell which stores follow a store directly
 * (emu_mark_store_runs): L1 merges only those with the warp's previous.
 */
#include "emu/emu_int.h"

#include <stdlib.h>
#include <string.h>

/* A load whose value travels from global or local memory (or a texture):
 * what a warp waits a memory round trip for. */
static int is_far_load(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_LD:
  case PTX_OP_LDU:
  case PTX_OP_WMMA_LOAD: /* a fragment from global memory: LDGs in SASS */
    return x->space == PTX_S_GLOBAL || x->space == PTX_S_LOCAL || x->space == PTX_S_GENERIC;
  case PTX_OP_ATOM:
    return x->space != PTX_S_SHARED && x->space != PTX_S_CLUSTER && x->nd > 0 && x->d[0] != EMU_NOSLOT;
  case PTX_OP_TEX:
  case PTX_OP_TLD4:
  case PTX_OP_SULD:
    return 1;
  default:
    return 0;
  }
}

int emu_ends_line(const EmuInstr *x) {
  return x->op == PTX_OP_BRA || x->op == PTX_OP_CALL || x->op == PTX_OP_RET || x->op == PTX_OP_EXIT ||
         x->op == PTX_OP_BAR || x->op == PTX_OP_BARRIER;
}

/* The depth of each register slot: 0 for values no outstanding load
 * feeds, else the round whose load they wait for. */
typedef struct Depths {
  uint16_t *of;   /* [nslots] */
  uint32_t *list; /* the slots set, to clear them */
  int n, cap;
  uint32_t nslots;
  uint16_t fence; /* loads after a waiting store start after this round */
  uint16_t top;   /* the deepest round of the straight line so far */
  uint16_t cond;  /* the predicate's depth of an if-converted branch ... */
  int cond_end;   /* ... over the instructions before this pc */
  uint16_t *at;   /* [ncode] each far load's round, or NULL */
} Depths;

static void clear(Depths *q) {
  for (int i = 0; i < q->n; i++) q->of[q->list[i]] = 0;
  q->n = 0;
  q->fence = q->top = q->cond = 0;
  q->cond_end = 0;
}

static uint16_t depth_of(const Depths *q, uint32_t s) { return s < q->nslots ? q->of[s] : 0; }

static void set_depth(Depths *q, uint32_t s, uint16_t d) {
  if (s >= q->nslots) return;
  if (!q->of[s] && d) {
    if (q->n == q->cap) {
      q->cap = q->cap ? 2 * q->cap : 16;
      q->list = wm_xrealloc(q->list, (size_t)q->cap * sizeof *q->list);
    }
    q->list[q->n++] = s;
  }
  q->of[s] = d;
}

/* The deepest round an instruction's operands wait for. */
static uint16_t operand_depth(const EmuInstr *x, const Depths *q) {
  uint16_t d = 0;
  for (int i = 0; i < x->ns && i < 6; i++)
    if (depth_of(q, x->s[i]) > d) d = depth_of(q, x->s[i]);
  if (depth_of(q, x->abase) > d) d = depth_of(q, x->abase);
  if (depth_of(q, x->guard) > d) d = depth_of(q, x->guard);
  return d;
}

/* A store to memory a later global or local load might read. */
static int is_far_store(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_ST:
  case PTX_OP_ATOM:
  case PTX_OP_RED:
    return x->space == PTX_S_GLOBAL || x->space == PTX_S_LOCAL || x->space == PTX_S_GENERIC;
  case PTX_OP_SUST:
    return 1;
  default:
    return 0;
  }
}

/* ptxas unrolls a store-free loop of independent loads 4 times beyond what
 * nvcc did: the SASS of colsum, matvec_reg and st_loop_reg issues 16 loads
 * per round where their PTX has 4 (cuobjdump -sass on an H100, sm_90,
 * docs/results/h100-2026-11-25-hierarchy). */
#define EMU_UNROLL 4
#define EMU_INFLIGHT 16 /* loads a warp issues before it waits (H100 colsum, matvec_reg: 16 LDGs) */

/* Marks instruction pc (round[pc]) and updates the depths. */
static void step(const EmuProgram *p, int pc, Depths *q, uint8_t *round) {
  const EmuInstr *x = &p->code[pc];
  uint16_t d = operand_depth(x, q);
  if (pc < q->cond_end && q->cond > d) d = q->cond;
  *round = 0;
  if (x->op == PTX_OP_BRA) { /* within a line, an if-converted one: what it skips waits for its predicate */
    q->cond = d;
    q->cond_end = (int)x->target;
    return;
  }
  if (is_far_load(x)) {
    uint16_t r = (uint16_t)((d > q->fence ? d : q->fence) + 1);
    if (r == UINT16_MAX) r--; /* a chain that long saturates */
    if (r > q->top) *round = 1, q->top = r;
    if (q->at) q->at[pc] = r;
    d = r;
  }
  if (is_far_store(x) && d > q->fence) q->fence = d;
  for (int i = 0; i < x->nd && i < 4; i++) set_depth(q, x->d[i], d);
}

/* Marks the straight line code[a..b] (round[]) from the depths in q;
 * returns whether it has a global or local store. */
static int scan(const EmuProgram *p, int a, int b, Depths *q, uint8_t *round) {
  int stores = 0;
  for (int i = a; i <= b; i++) {
    step(p, i, q, &round[i]);
    stores |= is_far_store(&p->code[i]);
  }
  return stores;
}

/* The instruction of code[a..b] that last writes slot s before b, or -1. */
static int writer(const EmuProgram *p, int a, int b, uint32_t s) {
  for (int i = b - 1; i >= a; i--)
    for (int j = 0; j < p->code[i].nd && j < 4; j++)
      if (p->code[i].d[j] == s) return i;
  return -1;
}

static int is_const(const EmuProgram *p, uint32_t s) { return s >= p->const_base && s < p->nslots; }

static int is_sreg(const EmuProgram *p, uint32_t s) { return s >= p->sreg_base && s < p->sreg_base + PTX_SR_COUNT; }

/* Whether slot s holds a run-time value the loop code[a..b] does not
 * change: written before it, or read again in it from a special register
 * (nvcc re-reads %ntid.x in the loop: wgmma_gemm.cu's staging loops). */
static int invariant_runtime(const EmuProgram *p, int a, int b, uint32_t s) {
  if (is_const(p, s)) return 0;
  int w = writer(p, a, b + 1, s);
  if (w < 0) return 1;
  const EmuInstr *x = &p->code[w];
  return x->op == PTX_OP_MOV && x->ns >= 1 && is_sreg(p, x->s[0]);
}

/* Whether the loop code[a..b] steps its counter by a run-time value: the
 * predicate of its back branch compares a register that an add in the
 * loop advances by a register, as a grid-stride loop does (`i +=
 * blockDim.x * gridDim.x`), or by a special register it reads again.
 * Neither nvcc nor ptxas unrolls those (cg_reduce's block_reduce: one LDG
 * an iteration in its SASS, each waited for; sm_90,
 * docs/results/h200-2026-11-26-latency). */
static int runtime_stride(const EmuProgram *p, int a, int b) {
  const EmuInstr *br = &p->code[b];
  int cmp = br->guard == EMU_NOSLOT ? -1 : writer(p, a, b, br->guard);
  if (cmp < 0 || p->code[cmp].op != PTX_OP_SETP) return 0;
  for (int k = 0; k < 2 && k < p->code[cmp].ns; k++) {
    int add = writer(p, a, cmp, p->code[cmp].s[k]);
    if (add < 0 || (p->code[add].op != PTX_OP_ADD && p->code[add].op != PTX_OP_SUB) || p->code[add].ns < 2) continue;
    const EmuInstr *x = &p->code[add]; /* counter = counter + step */
    uint32_t step = x->s[0] == x->d[0] ? x->s[1] : x->s[1] == x->d[0] ? x->s[0] : EMU_NOSLOT;
    if (step != EMU_NOSLOT && invariant_runtime(p, a, b, step)) return 1;
  }
  return 0;
}

/* Whether the loop code[a..b] (its last instruction branches back to a)
 * is one ptxas unrolls: no store, no if-converted branch (race_kernels.cu's
 * mmx, four iterations of two guarded loads in its PTX: 8 predicated LDGs
 * a round in its SASS, not 32), a constant step, not marked `.pragma
 * "nounroll"` (race_kernels.cu's mmu_u1, `#pragma unroll 1`: two LDGs an
 * iteration in its SASS, 512 round trips a warp, 173 us on the H200), and
 * a second iteration, starting from the depths the first left, goes no
 * deeper (no loaded value feeds the next iteration's loads).  q holds the
 * first iteration's depths. */
static int unrolls(const EmuProgram *p, int a, int b, Depths *q, int stores, const uint8_t *ifc, uint8_t *scratch) {
  if (stores || (p->code[a].flags & PTX_IF_NOUNROLL) || runtime_stride(p, a, b)) return 0;
  for (int i = a; i < b; i++)
    if (ifc[i]) return 0;
  uint16_t first = q->top;
  q->top = q->fence = 0;
  scan(p, a, b, q, scratch);
  return q->top <= first;
}

/* Iterations of an unrolled loop of `loads` far loads an iteration that a
 * round covers: EMU_UNROLL, unless their loads are more than a warp issues
 * before its first use
 * (EMU_INFLIGHT): ptxas then starts using the first while issuing the
 * rest, a round every EMU_INFLIGHT loads (PolyBench-style bicg_s on the
 * H200: nvcc unrolls 4 iterations of 2 loads, ptxas 4 more; its SASS
 * issues 13 of the 32 loads before the first FFMA). */
static int unrolled_per_round(int loads) {
  int per = loads ? EMU_INFLIGHT / loads : EMU_UNROLL;
  return per < 1 ? 1 : per > EMU_UNROLL ? EMU_UNROLL : per;
}

uint8_t *emu_branch_targets(const EmuProgram *p, int n) {
  uint8_t *target = wm_xcalloc((size_t)n + 1, 1);
  for (int i = 0; i < n; i++)
    if (p->code[i].op == PTX_OP_BRA && p->code[i].target < (uint32_t)n) target[p->code[i].target] = 1;
  return target;
}

/* The most instructions ptxas predicates rather than branches over
 * (conv_rows: one load; reduce_tree: an add, a load and an add;
 * race_kernels.cu's mmx: an add, a mad, a mul.wide, an add and a load,
 * all four of a loop's predicated: 8,388,608 LDGs on the H200 and the
 * H100 where the PTX branches past half). */
#define EMU_IFCONV_MAX 5

/* Whether the branch x leaves the kernel: its target returns.  ptxas
 * makes `if (c) { ... } return;` an exit of the warps that skip, not
 * predicated code (reduce_tree's last store: 64 STGs on the H200, one a
 * block, over a 5-instruction body). */
static int jumps_to_exit(const EmuProgram *p, const EmuInstr *x, int n) {
  if (x->target >= (uint32_t)n) return 1;
  unsigned t = p->code[x->target].op;
  return t == PTX_OP_RET || t == PTX_OP_EXIT;
}

/* Whether code[i] is a conditional forward branch over at most
 * EMU_IFCONV_MAX instructions that nothing else jumps into, that neither
 * branch, call nor wait at a barrier, and that does not jump to the exit:
 * one ptxas if-converts. */
static int if_converted(const EmuProgram *p, int i, int n, const uint8_t *target) {
  const EmuInstr *x = &p->code[i];
  if (x->op != PTX_OP_BRA || x->guard == EMU_NOSLOT || x->target <= (uint32_t)i + 1 ||
      x->target > (uint32_t)(i + 1 + EMU_IFCONV_MAX) || x->target > (uint32_t)n || jumps_to_exit(p, x, n))
    return 0;
  for (int j = i + 1; j < (int)x->target; j++)
    if (emu_ends_line(&p->code[j]) || target[j]) return 0;
  return 1;
}

int emu_global_kind(const EmuInstr *x) {
  if (x->space != PTX_S_GLOBAL) return -1;
  switch (x->op) {
  case PTX_OP_LD:
  case PTX_OP_LDU:
    return MEM_LD;
  case PTX_OP_ST:
    return MEM_ST;
  case PTX_OP_RED:
    return MEM_RED;
  case PTX_OP_ATOM:
    return MEM_ATOM;
  default:
    return -1;
  }
}

void emu_mark_skipped_globals(EmuProgram *p, int n) {
  uint8_t *target = emu_branch_targets(p, n);
  for (int i = 0; i < n; i++) {
    if (p->code[i].op != PTX_OP_BRA) continue;
    p->code[i].aux = 0;
    if (!if_converted(p, i, n, target)) continue;
    unsigned ld = 0, st = 0, red = 0; /* at most EMU_IFCONV_MAX each: 3 bits, 3 and 2 */
    for (uint32_t j = (uint32_t)i + 1; j < p->code[i].target; j++) {
      int k = emu_global_kind(&p->code[j]);
      ld += k == MEM_LD, st += k == MEM_ST, red += k == MEM_RED;
    }
    p->code[i].aux = (uint8_t)(ld | st << 3 | (red > 3 ? 3 : red) << 6);
  }
  free(target);
}

/* Marks ifc[i] for the if-converted branches of code[0..n) and clears
 * their targets from target[] unless another branch jumps there too. */
static void mark_if_conversions(const EmuProgram *p, int n, uint8_t *target, uint8_t *ifc) {
  for (int i = 0; i < n; i++) ifc[i] = (uint8_t)if_converted(p, i, n, target);
  memset(target, 0, (size_t)n + 1);
  for (int i = 0; i < n; i++)
    if (p->code[i].op == PTX_OP_BRA && !ifc[i] && p->code[i].target < (uint32_t)n) target[p->code[i].target] = 1;
}

/* A round's first load inside the body of an if-converted branch j
 * (round[i], j < i < target) does not run when the warp skips the body;
 * then the round starts at the next load of its depth after the body
 * (race_kernels.cu's mmx with A off: its rounds start at the B loads).
 * alt[] gets the leader + 1 at j and at those loads (MemModel.round_alt). */
static void mark_alternates(const EmuProgram *p, int a, int b, const uint8_t *ifc, const uint8_t *round,
                            const uint16_t *at, uint32_t *alt) {
  for (int j = a; j <= b; j++) {
    if (!ifc[j]) continue;
    int end = (int)p->code[j].target, lead = -1;
    for (int i = j + 1; i < end && lead < 0; i++)
      if (round[i] && is_far_load(&p->code[i])) lead = i;
    if (lead < 0) continue;
    alt[j] = (uint32_t)lead + 1;
    for (int k = end; k <= b; k++)
      if (is_far_load(&p->code[k]) && at[k] == at[lead]) alt[k] = (uint32_t)lead + 1;
  }
}

int emu_mark_rounds(const EmuProgram *p, uint8_t *round, uint32_t *alt, int nline) {
  int n = p->ncode < nline ? p->ncode : nline;
  uint8_t *target = emu_branch_targets(p, n);
  uint8_t *scratch = wm_xcalloc((size_t)n + 1, 1), *ifc = wm_xcalloc((size_t)n + 1, 1);
  mark_if_conversions(p, n, target, ifc);
  Depths q = {wm_xcalloc((size_t)p->nslots + 1, sizeof(uint16_t)), NULL, 0, 0, p->nslots, 0, 0, 0, 0, NULL};
  int inflight = 0;
  uint16_t *at = wm_xcalloc((size_t)n + 1, sizeof *at);
  for (int a = 0; a < n;) {
    int b = a;
    while (b + 1 < n && (!emu_ends_line(&p->code[b]) || ifc[b]) && !target[b + 1]) b++;
    clear(&q);
    q.at = at;
    int stores = scan(p, a, b, &q, round);
    q.at = NULL; /* unrolls() scans again from the first pass's depths */
    if (alt) mark_alternates(p, a, b, ifc, round, at, alt);
    const EmuInstr *last = &p->code[b];
    int loads = 0;
    for (int i = a; i <= b; i++) loads += is_far_load(&p->code[i]);
    if (last->op == PTX_OP_BRA && last->target == (uint32_t)a && unrolls(p, a, b, &q, stores, ifc, scratch)) {
      int per = unrolled_per_round(loads);
      for (int i = a; i <= b; i++)
        if (round[i]) round[i] = (uint8_t)per;
      loads *= EMU_UNROLL;
    }
    if (loads > inflight) inflight = loads;
    a = b + 1;
  }
  free(q.of);
  free(q.list);
  free(at);
  free(scratch);
  free(ifc);
  free(target);
  return inflight;
}

/* A store to global memory (st.global, or generic: nvcc's st through a
 * pointer it cannot place). */
static int is_global_store(const EmuInstr *x) {
  return x->op == PTX_OP_ST && (x->space == PTX_S_GLOBAL || x->space == PTX_S_GENERIC);
}

/* Back-to-back stores: L1 merges a warp's store with its previous one only
 * when no other instruction runs between them (H200 probes st_gap: four
 * adjacent stores to the same 16 sectors reach L2 as 1.4 writes a sector;
 * the same stores a loop's branch or 4 FMAs apart, as 4 -- and tile_ops'
 * ten stores to the same sectors, shuffles apart, as 8 to 10). */
void emu_mark_store_runs(const EmuProgram *p, uint8_t *after_st, int nline) {
  int n = p->ncode < nline ? p->ncode : nline;
  uint8_t *target = emu_branch_targets(p, n);
  for (int i = 1; i < n; i++)
    after_st[i] = is_global_store(&p->code[i]) && is_global_store(&p->code[i - 1]) && !target[i];
  free(target);
}
