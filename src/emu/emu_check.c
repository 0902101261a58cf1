/* emu_check.c - `warpmem check`: the findings, the checked forms of the
 * warp instructions (synccheck's member masks), the barrier hooks (synccheck,
 * and racecheck's epochs) and each block's part of the state.  The shadow
 * of memory is emu_check_mem.c's.
 *
 * Notes:
 *  - A checked launch runs on one host thread (emu_grid.c), so the state
 *    needs no lock.
 *  - Findings are kept once per launch, tool, kind and pair of source
 *    lines (of instructions without line information), with a count: a
 *    race in a loop is one finding.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check_int.h"

const char *const emu_chk_tool_name[CHK_NTOOLS] = {"memcheck", "racecheck", "synccheck", "initcheck"};

EmuCheck *emu_check_new(unsigned tools) {
  EmuCheck *c = wm_xcalloc(1, sizeof *c);
  c->tools = tools ? tools : (1u << CHK_NTOOLS) - 1;
  return c;
}

void emu_check_free(EmuCheck *c) {
  if (!c) return;
  for (int i = 0; i < c->nbufs; i++) free(c->bufs[i].set);
  free(c->bufs);
  free(c->gtab);
  free(c->orig);
  free(c->wg_track);
  free(c->wg_next);
  free(c->f);
  free(c);
}

unsigned emu_check_tools(const EmuCheck *c) { return c->tools; }
size_t emu_check_count(const EmuCheck *c) { return c->nf; }
const EmuFinding *emu_check_get(const EmuCheck *c, size_t i) { return i < c->nf ? &c->f[i] : NULL; }
uint64_t emu_check_dropped(const EmuCheck *c) { return c->dropped; }
const char *emu_check_limits(const EmuCheck *c) { return c->limits; }

void emu_check_launch(EmuCheck *c) {
  c->first = c->nf;
  c->fault_seen = 0;
  c->limits[0] = '\0';
}

/* A new finding of this launch, or NULL when it has too many (counted as
 * dropped). */
static EmuFinding *add_finding(EmuCheck *c, EmuChkTool tool, const char *kind, uint32_t pc, uint32_t pc2) {
  if (c->nf - c->first >= EMU_CHK_MAX_FINDINGS) {
    c->dropped++;
    return NULL;
  }
  if (c->nf == c->capf) {
    c->capf = c->capf ? c->capf * 2 : 16;
    c->f = realloc(c->f, c->capf * sizeof *c->f);
    if (!c->f) abort();
  }
  EmuFinding *f = &c->f[c->nf++];
  memset(f, 0, sizeof *f);
  f->tool = (uint8_t)tool;
  snprintf(f->kind, sizeof f->kind, "%s", kind);
  f->at.pc = pc;
  f->other.pc = pc2;
  f->addr = UINT64_MAX;
  f->key = pc;
  f->key2 = pc2;
  return f;
}

/* The finding of this launch with these keys (source lines, *fresh 0), or a
 * new one at pc and pc2. */
static EmuFinding *finding_at(EmuCheck *c, EmuChkTool tool, const char *kind, uint64_t key, uint64_t key2,
                              uint32_t pc, uint32_t pc2, int *fresh) {
  *fresh = 0;
  for (size_t i = c->nf; i-- > c->first;) {
    EmuFinding *f = &c->f[i];
    if (f->tool == tool && f->key == key && f->key2 == key2 && !strcmp(f->kind, kind)) return f;
  }
  *fresh = 1;
  EmuFinding *f = add_finding(c, tool, kind, pc, pc2);
  if (f) f->key = key, f->key2 = key2;
  return f;
}

/* The finding of this launch with these keys (*fresh 0), or a new one. */
static EmuFinding *finding(EmuCheck *c, EmuChkTool tool, const char *kind, uint32_t pc, uint32_t pc2, int *fresh) {
  return finding_at(c, tool, kind, pc, pc2, pc, pc2, fresh);
}

/* Where instruction pc of b's kernel is, run by linear thread t. */
static void site(Block *b, EmuChkSite *s, uint32_t pc, uint32_t t, const char *op) {
  s->pc = pc;
  snprintf(s->op, sizeof s->op, "%s", op ? op : "");
  if (pc == UINT32_MAX || (int)pc >= b->p->ncode) return;
  const PtxInstr *in = &b->p->k->code[pc];
  s->ptx_line = in->ptx_line;
  emu_cu_where(b->m, in, s->src, sizeof s->src);
  memcpy(s->block, b->ctaid, sizeof s->block);
  thread_of(b, (int)(t / 32), (int)(t % 32), s->thread);
}

/* Instruction pc's source line as a key (file and line), or the
 * instruction's (the top bit set) without line information. */
static uint64_t line_key(const Block *b, uint32_t pc) {
  if (pc == UINT32_MAX || (int)pc >= b->p->ncode) return UINT64_MAX;
  const PtxInstr *in = &b->p->k->code[pc];
  return in->cu_line ? (uint64_t)in->cu_file << 32 | in->cu_line : 1ull << 63 | pc;
}

void emu_chk_report(Block *b, EmuChkTool tool, const char *kind, const char *space, uint32_t pc, uint32_t t,
                    const char *op, uint32_t pc2, uint32_t t2, const char *op2, uint64_t addr,
                    const char *detail) {
  EmuCheck *c = b->l->check;
  int fresh;
  EmuFinding *f = finding_at(c, tool, kind, line_key(b, pc), line_key(b, pc2), pc, pc2, &fresh);
  if (!f) return;
  f->count++;
  if (!fresh) return;
  snprintf(f->kernel, sizeof f->kernel, "%s", b->p->k->name);
  snprintf(f->space, sizeof f->space, "%s", space ? space : "");
  site(b, &f->at, pc, t, op);
  site(b, &f->other, pc2, t2, op2);
  f->addr = addr;
  snprintf(f->detail, sizeof f->detail, "%s", detail ? detail : "");
}

void emu_check_note(EmuCheck *c, EmuChkTool tool, const char *kind, uint64_t addr, const char *detail) {
  EmuFinding *f = NULL;
  for (size_t i = c->first; i < c->nf && !f; i++) /* one finding per address */
    if (c->f[i].tool == tool && c->f[i].addr == addr && !strcmp(c->f[i].kind, kind)) f = &c->f[i];
  if (!f && !(f = add_finding(c, tool, kind, UINT32_MAX, UINT32_MAX))) return;
  f->count++;
  f->addr = addr;
  snprintf(f->detail, sizeof f->detail, "%s", detail);
}

void emu_check_fault(EmuCheck *c, const char *kernel, const WmErr *e) {
  if (c->fault_seen) return;
  int sync = strstr(e->msg, "barrier deadlock") || strstr(e->msg, ".sync: the member mask");
  const char *kind = e->code == WM_EASSERT ? "device assert" : sync ? (strstr(e->msg, "deadlock") ? "barrier deadlock" : "member mask")
                   : e->code == WM_EFAULT ? "invalid access"
                   : e->code == WM_EDEADLOCK ? "no progress" : "launch error";
  int fresh;
  EmuFinding *f = finding(c, sync ? CHK_SYNCCHECK : CHK_MEMCHECK, kind, UINT32_MAX, UINT32_MAX, &fresh);
  if (!f) return;
  f->count++;
  snprintf(f->kernel, sizeof f->kernel, "%s", kernel ? kernel : "");
  snprintf(f->detail, sizeof f->detail, "%s", e->msg);
  /* the fault message names the lines; keep them for the summary */
  const char *p = strstr(e->msg, "PTX line ");
  if (p) f->at.ptx_line = (uint32_t)strtoul(p + 9, NULL, 10);
}

/* --- warp instructions: member masks --- */

/* The slot of x's member mask, or EMU_NOSLOT. */
static uint32_t mask_slot(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_SHFL: return x->ns > 3 ? x->s[3] : EMU_NOSLOT;
  case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX: return x->s[1];
  case PTX_OP_BARWARP: return x->s[0];
  default: return EMU_NOSLOT;
  }
}

/* bar.warp.sync, shfl.sync, vote.sync, match.sync, redux.sync: every lane
 * named in a member mask must execute the instruction (not be exited, on
 * another path or outside the block), and every lane that executes it must
 * be in its own mask.  Then the instruction's own function. */
int emu_chk_exec_warp(EMU_EXEC_ARGS) {
  EmuCheck *c = b->l->check;
  uint32_t pc = (uint32_t)(x - b->p->code), ms = mask_slot(x);
  const Warp *w = &b->warps[warp];
  if (ms != EMU_NOSLOT && (c->tools >> CHK_SYNCCHECK & 1)) {
    const uint64_t *mm = R + (size_t)ms * 32;
    uint32_t named = 0, outside = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      named |= (uint32_t)mm[l];
      if (!((uint32_t)mm[l] >> l & 1)) outside |= 1u << l;
    }
    uint32_t missing = named & ~mask;
    char d[400];
    if (missing) {
      uint32_t none = missing & ~w->exists, path = missing & w->exists & ~w->exited;
      snprintf(d, sizeof d, "%s.sync's member mask 0x%08x names lanes 0x%08x of warp %d that do not execute it "
               "(exited, returned, on another path or guarded off%s): undefined on the GPU",
               ptx_op_name[x->op], named, missing, warp, none ? "; some are not threads of the block" : "");
      emu_chk_report(b, CHK_SYNCCHECK, "member mask names inactive lanes", "", pc,
                     (uint32_t)warp * 32 + (uint32_t)__builtin_ctz(mask), ptx_op_name[x->op], UINT32_MAX, 0, NULL,
                     UINT64_MAX, d);
      if (path && x->op != PTX_OP_BARWARP) c->fault_seen = 1; /* its function faults: reported here */
    }
    if (outside) {
      snprintf(d, sizeof d, "lanes 0x%08x of warp %d execute %s with a member mask that does not name them",
               outside, warp, ptx_op_name[x->op]);
      emu_chk_report(b, CHK_SYNCCHECK, "lane outside its member mask", "", pc,
                     (uint32_t)warp * 32 + (uint32_t)__builtin_ctz(outside), ptx_op_name[x->op], UINT32_MAX, 0,
                     NULL, UINT64_MAX, d);
    }
  }
  if (x->op == PTX_OP_BARWARP && b->chk) b->chk->wsync[warp]++;
  return c->orig[pc](b, x, warp, mask, R);
}

/* --- blocks --- */

void emu_chk_block_new(Block *b) {
  EmuChkBlock *k = wm_xcalloc(1, sizeof *k);
  k->shared = wm_xcalloc((size_t)b->shared_size + 1, sizeof *k->shared);
  k->wsync = wm_xcalloc(b->nwarps, sizeof *k->wsync);
  k->split = wm_xcalloc(b->nwarps, sizeof *k->split);
  b->chk = k;
}

void emu_chk_block_free(Block *b) {
  if (!b->chk) return;
  free(b->chk->shared);
  emu_chk_block_end(b);
  free(b->chk->wsync);
  free(b->chk->split);
  free(b->chk);
  b->chk = NULL;
}

void emu_chk_block_start(Block *b) {
  EmuCheck *c = b->l->check;
  EmuChkBlock *k = b->chk;
  k->start = k->epoch = ++c->clock;
  k->gen = ++c->ggen;
  c->gused = 0;
  memset(k->wsync, 0, b->nwarps * sizeof *k->wsync);
  memset(k->split, 0, b->nwarps * sizeof *k->split);
  for (int i = 0; i < EMU_NBARS; i++) k->bar_pc[i] = UINT32_MAX;
}

/* --- barriers --- */

/* Lanes of w parked where their next instruction ends the thread (an
 * unguarded exit or a kernel's ret): on the GPU they have exited already
 * (`if (i >= n) return;` then __syncthreads()). */
static uint32_t parked_at_exit(const Block *b, const Warp *w) {
  uint32_t m = 0;
  for (int s = 0; s + 1 < w->sp; s++) {
    uint32_t pc = w->stack[s].pc;
    const EmuInstr *x = &b->p->code[pc < (uint32_t)b->p->ncode ? pc : (uint32_t)b->p->ncode];
    if (pc >= (uint32_t)b->p->ncode || /* the kernel's end */
        (x->guard == EMU_NOSLOT && (x->op == PTX_OP_EXIT || (x->op == PTX_OP_RET && !w->nframes))))
      m |= w->stack[s].mask;
  }
  return m;
}

/* Warp wi's lanes split->lanes never reached the barrier the others of the
 * warp waited at. */
static void split_report(Block *b, int wi) {
  ChkSplit *sp = &b->chk->split[wi];
  char d[300];
  snprintf(d, sizeof d, "lanes 0x%08x of warp %d never reach the barrier the others of the warp waited at "
           "(on another path or guarded off): __syncthreads() in divergent code", sp->lanes, wi);
  emu_chk_report(b, CHK_SYNCCHECK, "divergent barrier", "", sp->pc, sp->t, ptx_op_name[b->p->code[sp->pc].op],
                 UINT32_MAX, 0, NULL, UINT64_MAX, d);
  sp->lanes = 0;
}

void emu_chk_block_end(Block *b) {
  if (!b->chk || !b->chk->split) return;
  for (uint32_t w = 0; w < b->nwarps; w++)
    if (b->chk->split[w].lanes) split_report(b, (int)w);
}

void emu_chk_arrive(Block *b, int wi, const EmuInstr *x, uint32_t mask, const uint64_t *R) {
  EmuCheck *c = b->l->check;
  EmuChkBlock *k = b->chk;
  if (!(c->tools >> CHK_SYNCCHECK & 1) || !k) return;
  const Warp *w = &b->warps[wi];
  uint32_t pc = (uint32_t)(x - b->p->code), live = w->exists & ~w->exited, l0 = (uint32_t)__builtin_ctz(mask);
  uint32_t t = (uint32_t)wi * 32 + l0, id = (uint32_t)R[(size_t)x->s[0] * 32 + l0] % EMU_NBARS;
  char d[400];
  ChkSplit *sp = &k->split[wi];
  if (sp->lanes && sp->pc == pc) sp->lanes &= ~mask; /* the rest of a split arrival */
  if (sp->lanes) split_report(b, wi);
  uint32_t missing = live & ~mask & ~parked_at_exit(b, w);
  if (missing) *sp = (ChkSplit){pc, missing, t};
  if (x->s[1] != EMU_NOSLOT) {
    uint32_t cnt = (uint32_t)R[(size_t)x->s[1] * 32 + l0], diff = 0;
    for (uint32_t m = mask; m; m &= m - 1)
      if ((uint32_t)R[(size_t)x->s[1] * 32 + (uint32_t)__builtin_ctz(m)] != cnt) diff = 1;
    if (diff || (b->bar_expected[id] && b->bar_expected[id] != cnt)) {
      snprintf(d, sizeof d, "barrier %u: warp %d arrives with a thread count of %u, %s", id, wi, cnt,
               diff ? "its lanes give different counts" : "another warp of this barrier gave a different one");
      emu_chk_report(b, CHK_SYNCCHECK, "barrier count mismatch", "", pc, t, ptx_op_name[x->op], UINT32_MAX, 0,
                     NULL, UINT64_MAX, d);
    }
    return;
  }
  if (x->sub == PTX_SUB_ARRIVE) return;
  if (k->bar_pc[id] == UINT32_MAX) {
    k->bar_pc[id] = pc;
    k->bar_t[id] = (uint16_t)t;
  } else if (k->bar_pc[id] != pc) {
    snprintf(d, sizeof d, "barrier %u completes with threads waiting at two different __syncthreads(): "
             "the block's threads do not take the same path", id);
    emu_chk_report(b, CHK_SYNCCHECK, "barriers at different lines", "", pc, t, ptx_op_name[x->op], k->bar_pc[id],
                   k->bar_t[id], ptx_op_name[x->op], UINT64_MAX, d);
  }
}

void emu_chk_release(Block *b, int id) {
  if (!b->chk) return;
  b->chk->bar_pc[id] = UINT32_MAX;
  b->chk->epoch = ++b->l->check->clock;
}
