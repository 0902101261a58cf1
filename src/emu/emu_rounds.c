/* emu_rounds.c - which loads start a round trip to memory.
 *
 * A warp waits for memory when an instruction reads a register that an
 * outstanding load writes; loads issued before that wait travel together.
 * So a warp's time is at least (rounds x latency): copy_grid on one block
 * (one load per iteration, waited for by the store) takes one DRAM round
 * trip per iteration on an H100, whatever the bandwidth (docs/results/
 * h100-2026-11-25-hierarchy).  The rounds are marked here once per kernel,
 * from its code in order, and counted at run time for free: a marked load
 * counts each time it executes (MemModel.line[pc].execs).
 *
 * The scan is straight-line: a branch, a branch target, a call, a return
 * or a barrier ends the outstanding loads (the next load starts a round),
 * so a load hoisted above a loop's back edge is counted in each iteration.
 */
#include "emu/emu_int.h"

#include <stdlib.h>

/* A load whose value travels from global or local memory (or a texture):
 * what a warp waits a memory round trip for. */
static int is_far_load(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_LD:
  case PTX_OP_LDU:
    return x->space == PTX_S_GLOBAL || x->space == PTX_S_LOCAL || x->space == PTX_S_GENERIC;
  case PTX_OP_ATOM:
    return x->space != PTX_S_SHARED && x->nd > 0 && x->d[0] != EMU_NOSLOT;
  case PTX_OP_TEX:
  case PTX_OP_TLD4:
  case PTX_OP_SULD:
    return 1;
  default:
    return 0;
  }
}

static int ends_straight_line(const EmuInstr *x) {
  return x->op == PTX_OP_BRA || x->op == PTX_OP_CALL || x->op == PTX_OP_RET || x->op == PTX_OP_EXIT ||
         x->op == PTX_OP_BAR || x->op == PTX_OP_BARRIER;
}

typedef struct Pending {
  uint8_t *slot;  /* [nslots] 1: an outstanding load writes it */
  uint32_t *list; /* the slots set, to clear them */
  int n, cap;
} Pending;

static void clear(Pending *q) {
  for (int i = 0; i < q->n; i++) q->slot[q->list[i]] = 0;
  q->n = 0;
}

static void add(Pending *q, uint32_t s, uint32_t nslots) {
  if (s >= nslots || q->slot[s]) return;
  if (q->n == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 16;
    q->list = wm_xrealloc(q->list, (size_t)q->cap * sizeof *q->list);
  }
  q->slot[s] = 1;
  q->list[q->n++] = s;
}

static int reads_pending(const EmuInstr *x, const Pending *q, uint32_t nslots) {
  for (int i = 0; i < x->ns && i < 6; i++)
    if (x->s[i] < nslots && q->slot[x->s[i]]) return 1;
  return (x->abase < nslots && q->slot[x->abase]) || (x->guard < nslots && q->slot[x->guard]);
}

void emu_mark_rounds(const EmuProgram *p, uint8_t *round, int nline) {
  int n = p->ncode < nline ? p->ncode : nline;
  uint8_t *target = wm_xcalloc((size_t)n + 1, 1);
  for (int i = 0; i < n; i++)
    if (p->code[i].op == PTX_OP_BRA && p->code[i].target < (uint32_t)n) target[p->code[i].target] = 1;
  Pending q = {wm_xcalloc((size_t)p->nslots + 1, 1), NULL, 0, 0};
  for (int i = 0; i < n; i++) {
    const EmuInstr *x = &p->code[i];
    if (target[i]) clear(&q);
    if (q.n && reads_pending(x, &q, p->nslots)) clear(&q);
    round[i] = 0;
    if (is_far_load(x)) {
      round[i] = q.n == 0;
      for (int d = 0; d < x->nd && d < 4; d++) add(&q, x->d[d], p->nslots);
    }
    if (ends_straight_line(x)) clear(&q);
  }
  free(q.slot);
  free(q.list);
  free(target);
}
