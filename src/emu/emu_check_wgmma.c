/* emu_check_wgmma.c - `warpmem check` of wgmma.mma_async's asynchronous
 * registers: racecheck reports an instruction of the warp that reads or
 * writes a wgmma's D (or register A) before the wgmma.wait_group that
 * completes it.  The PTX ISA ("wgmma.mma_async"): accessing the
 * accumulator or the input registers before waiting for the wgmma's
 * group gives undefined results (the tensor cores may still be reading
 * and writing them); the emulator, which computes at issue, would show
 * the finished values.
 *
 * Notes:
 *  - Checked launches only: emu_chk_prepare_wgmma wraps wgmma.mma_async,
 *    commit_group, wait_group and each instruction that names one of
 *    their registers (its sources, destinations, address base, guard);
 *    the normal path is unchanged.
 *  - Per warp: its commit groups closed (wg_open) and completed (wg_done:
 *    wait_group N completes all but the newest N); per tracked slot the
 *    wgmma that wrote it last and the group it joined (the one still open
 *    when it issued).  A slot is pending while its group has not
 *    completed; a finding clears it (one a write).
 *  - A wgmma may name the D of a pending one: accumulating into the same
 *    registers, the ISA orders them.  Tensor-core fragments of mma.sync
 *    and wmma (their own register lists) are not looked at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check_int.h"

#define NONE UINT32_MAX

static int wgmma_family(unsigned op) {
  return op == PTX_OP_WGMMA_MMA || op == PTX_OP_WGMMA_COMMIT || op == PTX_OP_WGMMA_WAIT || op == PTX_OP_WGMMA_FENCE;
}

/* A slot an instruction names: tracked? */
static int tracked(const EmuCheck *c, const EmuProgram *p, uint32_t s) {
  return s < p->nslots && c->wg_track[s] >= 0;
}


/* Reports slot s of warp's if pending, and clears it. */
static void check_slot(Block *b, int warp, uint32_t mask, uint32_t pc, uint32_t s, const char *how) {
  const EmuCheck *c = b->l->check;
  EmuChkBlock *k = b->chk;
  if (s >= b->p->nslots || c->wg_track[s] < 0) return;
  size_t at = (size_t)warp * c->wg_ntrack + (size_t)c->wg_track[s];
  if (k->wg_pc[at] == NONE || k->wg_group[at] < k->wg_done[warp]) return;
  uint32_t wpc = k->wg_pc[at];
  k->wg_pc[at] = NONE;
  char where[256], d[640];
  emu_cu_where(b->m, &b->p->k->code[wpc], where, sizeof where);
  snprintf(d, sizeof d,
           "register %s is %s before the wgmma.wait_group that completes the wgmma.mma_async at %s%sPTX line %u "
           "(its group: %s): undefined on the GPU, whose tensor cores may still be working on it",
           s < b->p->k->nregs ? b->p->k->reg_names[s] : "?", how, where, where[0] ? ", " : "",
           b->p->k->code[wpc].ptx_line, k->wg_group[at] >= k->wg_open[warp] ? "not committed yet" : "not waited for");
  emu_chk_report(b, CHK_RACECHECK, "wgmma register hazard", "", pc, (uint32_t)warp * 32 + (uint32_t)__builtin_ctz(mask),
                 how, wpc, (uint32_t)warp * 32 + (uint32_t)__builtin_ctz(mask), "wgmma.mma_async", UINT64_MAX, d);
}

/* Any other instruction that names a tracked slot. */
static int exec_named(EMU_EXEC_ARGS) {
  uint32_t pc = (uint32_t)(x - b->p->code);
  if (b->chk && b->chk->wg_pc) {
    for (int i = 0; i < x->ns; i++) check_slot(b, warp, mask, pc, x->s[i], "read");
    check_slot(b, warp, mask, pc, x->abase, "read");
    check_slot(b, warp, mask, pc, x->guard, "read");
    for (int i = 0; i < x->nd; i++) check_slot(b, warp, mask, pc, x->d[i], x->op == PTX_OP_SUST ? "read" : "written");
  }
  return b->l->check->wg_next[pc](b, x, warp, mask, R);
}

/* wgmma.mma_async, commit_group, wait_group: their own function, then the
 * warp's groups and registers, once the warp goes past (not while it
 * waits for its warpgroup). */
static int exec_wgmma(EMU_EXEC_ARGS) {
  const EmuCheck *c = b->l->check;
  uint32_t pc = (uint32_t)(x - b->p->code);
  uint32_t n = x->op == PTX_OP_WGMMA_WAIT ? (uint32_t)R[(size_t)x->s[0] * 32 + (size_t)__builtin_ctz(mask)] : 0;
  int rc = c->wg_next[pc](b, x, warp, mask, R);
  EmuChkBlock *k = b->chk;
  if (rc || !k || !k->wg_pc) return rc;
  if (x->op == PTX_OP_WGMMA_COMMIT) k->wg_open[warp]++;
  if (x->op == PTX_OP_WGMMA_WAIT && k->wg_open[warp] >= n && k->wg_open[warp] - n > k->wg_done[warp])
    k->wg_done[warp] = k->wg_open[warp] - n;
  if (x->op != PTX_OP_WGMMA_MMA) return 0;
  const EmuWgmma *t = &b->p->wgmma[x->target];
  uint32_t slots[132], ns = 0;
  for (int i = 0; i < t->nd; i++) slots[ns++] = t->d[i];
  for (int i = 0; i < 4 && (t->m.wg & PTX_WG_AREG); i++) slots[ns++] = t->a[i];
  for (uint32_t i = 0; i < ns; i++) {
    if (slots[i] >= b->p->nslots || c->wg_track[slots[i]] < 0) continue;
    size_t at = (size_t)warp * c->wg_ntrack + (size_t)c->wg_track[slots[i]];
    k->wg_pc[at] = pc;
    k->wg_group[at] = k->wg_open[warp];
  }
  return 0;
}

void emu_chk_prepare_wgmma(EmuCheck *c, EmuProgram *p) {
  free(c->wg_track), free(c->wg_next);
  c->wg_track = NULL, c->wg_next = NULL, c->wg_ntrack = 0;
  if (!p->nwgmma || !(c->tools >> CHK_RACECHECK & 1)) return;
  c->wg_track = wm_xmalloc(p->nslots * sizeof *c->wg_track);
  for (uint32_t s = 0; s < p->nslots; s++) c->wg_track[s] = -1;
  for (uint32_t w = 0; w < p->nwgmma; w++) {
    const EmuWgmma *t = &p->wgmma[w];
    for (int i = 0; i < t->nd; i++)
      if (t->d[i] < p->nslots && c->wg_track[t->d[i]] < 0) c->wg_track[t->d[i]] = (int32_t)c->wg_ntrack++;
    for (int i = 0; i < 4 && (t->m.wg & PTX_WG_AREG); i++)
      if (t->a[i] < p->nslots && c->wg_track[t->a[i]] < 0) c->wg_track[t->a[i]] = (int32_t)c->wg_ntrack++;
  }
  c->wg_next = wm_xcalloc((size_t)p->ncode + 1, sizeof *c->wg_next);
  for (int i = 0; i < p->ncode; i++) {
    EmuInstr *x = &p->code[i];
    int named = 0;
    for (int j = 0; j < x->ns; j++) named |= tracked(c, p, x->s[j]);
    for (int j = 0; j < x->nd; j++) named |= tracked(c, p, x->d[j]);
    named |= tracked(c, p, x->abase) | tracked(c, p, x->guard);
    if (!wgmma_family(x->op) && !named) continue;
    c->wg_next[i] = x->fn;
    x->fn = wgmma_family(x->op) ? exec_wgmma : exec_named;
  }
}

void emu_chk_wgmma_block_new(Block *b) {
  const EmuCheck *c = b->l->check;
  EmuChkBlock *k = b->chk;
  if (!c || !c->wg_ntrack) return;
  size_t n = (size_t)b->nwarps * c->wg_ntrack;
  k->wg_pc = wm_xmalloc(n * sizeof *k->wg_pc);
  k->wg_group = wm_xcalloc(n, sizeof *k->wg_group);
  k->wg_open = wm_xcalloc(b->nwarps, sizeof *k->wg_open);
  k->wg_done = wm_xcalloc(b->nwarps, sizeof *k->wg_done);
  emu_chk_wgmma_block_start(b);
}

void emu_chk_wgmma_block_start(Block *b) {
  EmuChkBlock *k = b->chk;
  if (!k->wg_pc) return;
  size_t n = (size_t)b->nwarps * b->l->check->wg_ntrack;
  for (size_t i = 0; i < n; i++) k->wg_pc[i] = NONE;
  memset(k->wg_open, 0, b->nwarps * sizeof *k->wg_open);
  memset(k->wg_done, 0, b->nwarps * sizeof *k->wg_done);
}

void emu_chk_wgmma_block_free(Block *b) {
  EmuChkBlock *k = b->chk;
  free(k->wg_pc), free(k->wg_group), free(k->wg_open), free(k->wg_done);
  k->wg_pc = k->wg_group = k->wg_open = k->wg_done = NULL;
}
