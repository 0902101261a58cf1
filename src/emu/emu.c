/* emu.c - the SIMT core: blocks of warps, the SIMT stack, barriers, the
 * launch over host threads, and the dispatch of each decoded instruction to
 * its function (EmuInstr.fn, which emu_select.c chose; the files of the
 * emulator are listed in emu_exec.h).
 *
 * Notes:
 *  - A block's warps run one at a time, each until it waits at a barrier,
 *    exits, has run EMU_SLICE instructions, or spins (the spin watch of
 *    emu_sched.c: a loop iteration that changed none of its registers), so a
 *    warp spinning on a flag another warp sets lets that warp run.  Counters
 *    do not depend on the interleaving: the memory model sees every request,
 *    in a fixed, deterministic order.
 *  - Blocks of a plain launch run one after another (on several host
 *    threads); a cooperative launch sets up every block and runs their warps
 *    in turn on one thread, so blocks can wait for each other (grid.sync()).
 *    When every warp that runs spins for EMU_SPIN_BUDGET warp instructions
 *    with no barrier completing, the kernel is stopped with a located error.
 *  - Each decoded instruction runs all 32 lanes of the warp in one loop over
 *    lane-contiguous registers (R[slot*32 + lane], 64 bits each; an
 *    instruction reads only the low bits of its operand type).
 *  - Divergence: a SIMT stack of (pc, reconvergence pc, mask) entries;
 *    lanes reconverge at the immediate post-dominator (emu_prepare.c).  A
 *    path that spins at the branch that split it yields to the other lanes
 *    of that branch (switch_path), as independent thread scheduling would:
 *    a lane that took a lock runs on to release it.
 *  - Barriers count threads, as on Volta and later: bar.sync completes when
 *    the arrived threads (plus, without an explicit count, the threads that
 *    have exited) reach the block's size.  A warp waits as a whole: if only
 *    some of its lanes reach bar.sync, the others cannot run until the
 *    barrier completes (pre-Volta semantics); a barrier that can then never
 *    complete is reported as a deadlock.
 *  - Floating point follows C on the host: .rn arithmetic is exact IEEE,
 *    .rz/.rm/.rp arithmetic runs in that host rounding mode;
 *    .approx functions use the C library (close to, not bit-equal with, the
 *    GPU's).  .ftz flushes f32 subnormal inputs and results to zero.
 */
#include <fenv.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_exec.h"

#define EMU_SLICE 100000

/* --- control --- */

/* Special registers that differ between the blocks of a launch. */
static int sreg_per_block(int sr) {
  switch (sr) {
  case PTX_SR_CTAID_X: case PTX_SR_CTAID_Y: case PTX_SR_CTAID_Z: case PTX_SR_SMID:
  case PTX_SR_CLOCK: case PTX_SR_CLOCK64: case PTX_SR_GLOBALTIMER:
  case PTX_SR_GLOBALTIMER_LO: case PTX_SR_GLOBALTIMER_HI: case PTX_SR_CLOCK_HI:
  case PTX_SR_CLUSTERID_X: case PTX_SR_CLUSTERID_Y: case PTX_SR_CLUSTERID_Z:
    return 1;
  default: return 0;
  }
}

/* Special registers set per thread by warp_init_slots. */
static int sreg_per_thread(int sr) {
  return (sr >= PTX_SR_TID_X && sr <= PTX_SR_TID_Z) || sr == PTX_SR_LANEID || sr == PTX_SR_WARPID ||
         (sr >= PTX_SR_LANEMASK_EQ && sr <= PTX_SR_LANEMASK_GE);
}

/* The special registers' values in block b (those of a thread aside). */
static void sreg_values(const Block *b, uint64_t v[PTX_SR_COUNT]) {
  const EmuLaunch *l = b->l;
  memset(v, 0, sizeof(uint64_t) * PTX_SR_COUNT);
  v[PTX_SR_NTID_X] = l->block[0], v[PTX_SR_NTID_Y] = l->block[1], v[PTX_SR_NTID_Z] = l->block[2];
  v[PTX_SR_CTAID_X] = b->ctaid[0], v[PTX_SR_CTAID_Y] = b->ctaid[1], v[PTX_SR_CTAID_Z] = b->ctaid[2];
  v[PTX_SR_NCTAID_X] = l->grid[0], v[PTX_SR_NCTAID_Y] = l->grid[1], v[PTX_SR_NCTAID_Z] = l->grid[2];
  v[PTX_SR_NWARPID] = b->max_warps;
  v[PTX_SR_NSMID] = b->sms;
  v[PTX_SR_SMID] = ((uint64_t)b->ctaid[0] + (uint64_t)b->ctaid[1] * l->grid[0]) % b->sms;
  v[PTX_SR_GRIDID] = 1;
  v[PTX_SR_DYN_SMEM] = l->smem_dynamic;
  v[PTX_SR_TOTAL_SMEM] = b->shared_size;
  v[PTX_SR_CLOCK] = v[PTX_SR_CLOCK64] = v[PTX_SR_GLOBALTIMER] = v[PTX_SR_GLOBALTIMER_LO] = b->warp_instrs;
  v[PTX_SR_GLOBALTIMER_HI] = v[PTX_SR_CLOCK_HI] = b->warp_instrs >> 32;
  /* without a cluster launch every block is a cluster of one */
  for (int i = 0; i < 3; i++) {
    v[PTX_SR_CLUSTERID_X + i] = b->ctaid[i];
    v[PTX_SR_NCLUSTERID_X + i] = l->grid[i];
    v[PTX_SR_CLUSTER_NCTAID_X + i] = 1;
  }
  v[PTX_SR_CLUSTER_NCTARANK] = 1;
  /* the driver's values; a cooperative launch puts its grid-sync workspace
   * in 1 and 2 (load_env_reg64<1, 2>() reads the high half from %envreg1) */
  for (int i = 0; i < 32; i++) v[PTX_SR_ENVREG0 + i] = l->envreg[i];
  if (l->grid_ws) {
    v[PTX_SR_ENVREG1] = (uint32_t)(l->grid_ws >> 32);
    v[PTX_SR_ENVREG2] = (uint32_t)l->grid_ws;
  }
}

/* The special registers block_start writes into each warp: those the
 * kernel reads, but a thread's own; the launch-wide ones (all but ctaid,
 * smid and the clocks) only in the worker's first block.  Returns how
 * many are in sr[]. */
static int sreg_block_list(const Block *b, uint16_t sr[PTX_SR_COUNT]) {
  const EmuProgram *p = b->p;
  int n = 0;
  for (int s = 0; s < PTX_SR_COUNT; s++) {
    if (!(p->sregs_used[s / 64] >> s % 64 & 1) || sreg_per_thread(s)) continue;
    if (b->sregs_ready && !sreg_per_block(s)) continue;
    sr[n++] = (uint16_t)s;
  }
  return n;
}

/* Per-warp values that never change between blocks of a launch. */
static void warp_init_slots(Block *b, int w, uint64_t *R) {
  const EmuProgram *p = b->p;
  for (uint32_t i = 0; i < p->nconst; i++) {
    uint64_t *s = R + (size_t)(p->const_base + i) * 32;
    for (int l = 0; l < 32; l++) s[l] = p->consts[i];
  }
  uint64_t *tid[3], *lane = R + (size_t)(p->sreg_base + PTX_SR_LANEID) * 32;
  uint64_t *wid = R + (size_t)(p->sreg_base + PTX_SR_WARPID) * 32;
  for (int i = 0; i < 3; i++) tid[i] = R + (size_t)(p->sreg_base + PTX_SR_TID_X + (uint32_t)i) * 32;
  for (int l = 0; l < 32; l++) {
    uint32_t t[3];
    thread_of(b, w, l, t);
    for (int i = 0; i < 3; i++) tid[i][l] = t[i];
    lane[l] = (uint64_t)l;
    wid[l] = (uint64_t)w;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_EQ) * 32 + (size_t)l] = 1ull << l;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_LT) * 32 + (size_t)l] = (1ull << l) - 1;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_LE) * 32 + (size_t)l] = (2ull << l) - 1;
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_GT) * 32 + (size_t)l] = (uint32_t)~((2ull << l) - 1);
    R[(size_t)(p->sreg_base + PTX_SR_LANEMASK_GE) * 32 + (size_t)l] = (uint32_t)~((1ull << l) - 1);
  }
}

/* Removes exited lanes from the stack and pops finished entries; a call
 * whose entry is popped returns to its caller (emu_ctrl.c). */
static void pop_done(Block *b, Warp *w) {
  for (;;) {
    while (w->sp > 0) {
      SimtEntry *t = &w->stack[w->sp - 1];
      t->mask &= ~w->exited;
      if (t->mask && t->pc != t->rpc) break;
      w->sp--;
    }
    if (!w->nframes || w->sp > w->frames[w->nframes - 1].base) break;
    emu_frame_return(b, w);
  }
  if (w->sp == 0) w->state = W_DONE;
}

static int arrive(Block *b, Warp *w, int wi, const EmuInstr *x, uint32_t mask, uint64_t *R) {
  uint32_t id = (uint32_t)R[(size_t)x->s[0] * 32 + (size_t)__builtin_ctz(mask)];
  if (id >= 16) return emu_fault(b, x, wi, __builtin_ctz(mask), WM_EFAULT, "barrier id %u is out of range (0..15)", id);
  if (x->s[1] != EMU_NOSLOT) {
    uint32_t cnt = (uint32_t)R[(size_t)x->s[1] * 32 + (size_t)__builtin_ctz(mask)];
    if (cnt % 32 || cnt == 0 || cnt > b->nwarps * 32)
      return emu_fault(b, x, wi, __builtin_ctz(mask), WM_EFAULT,
                   "barrier thread count %u must be a non-zero multiple of 32 no larger than the block", cnt);
    b->bar_expected[id] = cnt;
  }
  /* as the hardware does, a warp counts as a whole (32 threads, or all of a
   * partial warp) when it arrives */
  b->bar_arrived[id] += popc32(w->exists & ~w->exited);
  if (x->sub >= PTX_SUB_RED_POPC && x->sub <= PTX_SUB_RED_OR) {
    uint32_t c = pred_mask(R + (size_t)x->s[2] * 32);
    if (x->s_neg[2]) c = ~c;
    c &= mask;
    b->bar_popc[id] += popc32(c);
    if (c != mask) b->bar_all[id] = 0;
    if (c) b->bar_any[id] = 1;
    w->red_kind = x->sub;
    w->red_dst = x->d[0];
    w->red_mask = mask;
  }
  if (x->sub == PTX_SUB_ARRIVE) return 0;
  w->state = W_WAIT;
  w->bar_id = (int)id;
  w->bar_pc = (uint32_t)(x - b->p->code);
  return 1;
}

/* A warp whose path spins (the spin watch) at the branch `pc` that split
 * it lets its other lanes run, as Volta's independent thread scheduling
 * does, so that a lock one lane of the warp took can be released: the other
 * side of that branch runs first, or the lanes that left the loop there
 * (the lock's holder), parked where it reconverges, go on alone to the
 * next reconvergence point.  Returns 1 if it switched.  A path split by
 * another branch (grid.sync()'s master spinning in its `if`) keeps its
 * order: its parked lanes wait for it by design, and so does the entry of
 * a device-function call (its Frame points at it). */
static int switch_path(Warp *w, uint32_t pc) {
  SimtEntry *top = &w->stack[w->sp - 1];
  if (w->sp < 2 || top->from != pc || w->sp + 1 > EMU_STACK_MAX) return 0;
  if (w->nframes && w->sp - 2 <= w->frames[w->nframes - 1].base) return 0; /* the call's own entry stays */
  SimtEntry *below = &w->stack[w->sp - 2];
  if (below->from == pc && below->pc != top->rpc) { /* the other side of the branch */
    SimtEntry t = *top;
    *top = *below;
    *below = t;
    return 1;
  }
  uint32_t parked = below->mask & ~top->mask & ~w->exited;
  if (below->pc != top->rpc || !parked) return 0;
  below->mask &= ~parked; /* the spinning lanes reconverge there alone */
  w->stack[w->sp++] = (SimtEntry){below->pc, below->rpc, parked, below->from};
  return 1;
}

/* A divergent branch: this entry waits at the reconvergence point while
 * the two paths run, taken path first.  Returns 0, or -1 after a fault. */
static int diverge(Block *b, int wi, const EmuInstr *x, uint32_t mask, uint32_t eff) {
  Warp *w = &b->warps[wi];
  SimtEntry *top = &w->stack[w->sp - 1];
  if (w->sp + 2 > EMU_STACK_MAX)
    return emu_fault(b, x, wi, __builtin_ctz(mask), WM_ELIMIT, "divergence nested deeper than %d levels",
                     EMU_STACK_MAX);
  uint32_t rpc = x->rpc, next = top->pc + 1, from = (uint32_t)(x - b->p->code);
  top->pc = rpc;
  if (next != rpc) w->stack[w->sp++] = (SimtEntry){next, rpc, mask & ~eff, from};
  if (x->target != rpc) w->stack[w->sp++] = (SimtEntry){x->target, rpc, eff, from};
  pop_done(b, w);
  return 0;
}

/* barrier.cluster.wait: the warp waits at the block's cluster barrier (a
 * cluster of one block), after the instruction. */
static void cluster_wait(Block *b, Warp *w) {
  SimtEntry *top = &w->stack[w->sp - 1];
  b->bar_arrived[EMU_BAR_CLUSTER] += popc32(w->exists & ~w->exited);
  w->state = W_WAIT;
  w->bar_id = EMU_BAR_CLUSTER;
  w->bar_pc = top->pc;
  top->pc++;
}

/* Runs warp wi until it waits, exits or uses up its slice.  Long because
 * it is the core's one switch over what changes the SIMT stack (branches,
 * calls, returns, exits, barriers), a few lines each. */
static int run_warp(Block *b, int wi) {
  b->cur_warp = (uint16_t)wi;
  Warp *w = &b->warps[wi];
  const EmuProgram *p = b->p;
  const EmuInstr *code = p->code;
  uint64_t *R = w->R;
  uint64_t winstr = 0, tinstr = 0;
  int rc = 0, switched = 0;
  w->spin_stuck = 0;
  for (int budget = EMU_SLICE; budget > 0 && w->state == W_READY; budget--) {
    SimtEntry *top = &w->stack[w->sp - 1];
    const EmuInstr *x = &code[top->pc];
    uint32_t mask = top->mask;
    winstr++;
    tinstr += mask == FULL ? 32u : (uint64_t)popc32(mask);
    uint32_t eff = mask;
    if (x->guard != EMU_NOSLOT) {
      uint32_t g = pred_mask(R + (size_t)x->guard * 32);
      eff &= x->guard_neg ? ~g : g;
    }
    uint32_t next = top->pc + 1;
    if (eff == 0 && x->op != PTX_OP_BRA) goto advance;
    switch (x->op) { /* what changes the SIMT stack is the core's; the rest, its function's */
    case PTX_OP_BRA: {
      if (eff == mask) {
        next = x->target;
        if (next <= top->pc && (w->spin_armed || ++w->spin_edges >= EMU_SPIN_EVERY) &&
            emu_spin_backedge(b, w, x, top->pc)) {
          uint32_t pc = top->pc;
          top->pc = next;
          if (next == top->rpc) pop_done(b, w);
          if (!switched && w->state == W_READY && switch_path(w, pc)) { /* once a slice: both may spin */
            switched = 1;
            continue;
          }
          w->spin_stuck = 1; /* a spin: let the others run */
          goto out;
        }
      } else if (eff != 0) {
        if (diverge(b, wi, x, mask, eff)) return -1;
        continue;
      }
      break;
    }
    case PTX_OP_CALL:
      rc = emu_call(b, w, wi, x, eff);
      if (rc == 0) continue;
      if (rc < 0) goto out;
      rc = 0;
      break;
    case PTX_OP_RET:
      if (w->nframes) { /* from a device function: these lanes leave its frame */
        for (int s = w->frames[w->nframes - 1].base; s < w->sp; s++) w->stack[s].mask &= ~eff;
        if (eff == mask) {
          pop_done(b, w);
          continue;
        }
        break;
      }
      __attribute__((fallthrough)); /* a kernel's ret ends the thread */
    case PTX_OP_EXIT:
      w->exited |= eff;
      b->exited_threads += popc32(eff);
      if (eff == mask) {
        pop_done(b, w);
        continue;
      }
      top->mask &= ~eff;
      break;
    case PTX_OP_BARCLUSTER:
      if (x->sub == PTX_SUB_ARRIVE) break; /* arrival counts at .wait, which every thread reaches */
      cluster_wait(b, w);
      goto out;
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
      rc = arrive(b, w, wi, x, eff, R);
      if (rc > 0) {
        top->pc = next;
        rc = 0;
        goto out;
      }
      break;
    default:
      rc = x->fn(b, x, wi, eff, R);
      if (rc > 0) { /* it waits before the instruction (mbarrier): not executed yet */
        winstr--;
        tinstr -= mask == FULL ? 32u : (uint64_t)popc32(mask);
        rc = 0;
        goto out;
      }
    }
    if (rc) break;
  advance:
    top->pc = next;
    if (next == top->rpc) pop_done(b, w);
  }
out:
  b->warp_instrs += winstr;
  b->thread_instrs += tinstr;
  return rc;
}

/* Completes every barrier whose threads have all arrived. */
static int release_barriers(Block *b) {
  int released = 0;
  uint32_t live = b->nthreads - b->exited_threads;
  for (int id = 0; id < EMU_NBARS; id++) {
    uint32_t need = b->bar_expected[id] ? b->bar_expected[id] : live;
    int waiting = 0;
    for (uint32_t w = 0; w < b->nwarps; w++)
      if (b->warps[w].state == W_WAIT && b->warps[w].bar_id == id) waiting = 1;
    if (!waiting || b->bar_arrived[id] < need) continue;
    for (uint32_t w = 0; w < b->nwarps; w++) {
      Warp *wp = &b->warps[w];
      if (wp->state != W_WAIT || wp->bar_id != id) continue;
      wp->state = W_READY;
      if (wp->red_kind && wp->red_dst != EMU_NOSLOT) {
        uint64_t v = wp->red_kind == PTX_SUB_RED_POPC ? b->bar_popc[id]
                   : wp->red_kind == PTX_SUB_RED_AND ? b->bar_all[id] : b->bar_any[id];
        uint64_t *d = wp->R + (size_t)wp->red_dst * 32;
        LANES(wp->red_mask, d[l] = v);
      }
      wp->red_kind = 0;
    }
    b->bar_arrived[id] = 0;
    b->bar_expected[id] = 0;
    b->bar_popc[id] = 0;
    b->bar_all[id] = 1;
    b->bar_any[id] = 0;
    released = 1;
  }
  if (released) emu_async_barrier(b);
  return released;
}

static int deadlock(Block *b) {
  char list[1536] = "";
  size_t n = 0;
  int first = -1;
  for (uint32_t w = 0; w < b->nwarps && n < sizeof list - 200; w++) {
    Warp *wp = &b->warps[w];
    if (wp->state != W_WAIT) continue;
    if (first < 0) first = (int)w;
    const PtxInstr *in = &b->p->k->code[wp->bar_pc];
    uint32_t pending = 0;
    for (int s = 0; s < wp->sp; s++) pending |= wp->stack[s].mask;
    char cu[300], src[310] = "", what[200];
    emu_cu_where(b->m, in, cu, sizeof cu);
    if (cu[0]) snprintf(src, sizeof src, "%s, ", cu);
    if (wp->mbar_wait) snprintf(what, sizeof what, "on the mbarrier at shared offset 0x%x", wp->mbar_wait - 1);
    else snprintf(what, sizeof what, "at barrier %d", wp->bar_id);
    n += (size_t)snprintf(list + n, sizeof list - n, "\n  warp %u waits %s (%sPTX line %u)%s", w,
                          what, src, in->ptx_line,
                          (pending & ~wp->exited) != (wp->exists & ~wp->exited)
                              ? ": some of its lanes are on another path and cannot arrive" : "");
  }
  uint32_t live = b->nthreads - b->exited_threads;
  const PtxInstr *in = &b->p->k->code[b->warps[first].bar_pc];
  char cu[300], ptxw[512];
  emu_cu_where(b->m, in, cu, sizeof cu);
  emu_ptx_where(b->m, in->ptx_line, ptxw, sizeof ptxw);
  char at[1024];
  if (cu[0]) snprintf(at, sizeof at, "%s (%s)", cu, ptxw);
  else snprintf(at, sizeof at, "%s", ptxw);
  if (b->warps[first].mbar_wait) {
    char mb[300];
    emu_async_describe(b, b->warps[first].mbar_wait - 1, mb, sizeof mb);
    return wm_err(b->e, WM_EDEADLOCK,
                  "mbarrier deadlock in kernel %s, block (%u,%u,%u): the mbarrier wait at %s can never complete: "
                  "%s, and no thread that could arrive can run%s",
                  b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], at, mb, list);
  }
  return wm_err(b->e, WM_EDEADLOCK,
                "barrier deadlock in kernel %s, block (%u,%u,%u): the barrier at %s can never complete: "
                "%u of %u live threads arrived%s",
                b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], at,
                b->bar_arrived[b->warps[first].bar_id], live, list);
}

static void block_start(Block *b) {
  /* the block's special registers once, then each warp's copy (the values
   * are the same for every warp, the clocks' too: computed before any runs) */
  uint64_t v[PTX_SR_COUNT];
  uint16_t sr[PTX_SR_COUNT];
  int nsr = sreg_block_list(b, sr);
  if (nsr) sreg_values(b, v);
  for (uint32_t w = 0; w < b->nwarps; w++) {
    Warp *wp = &b->warps[w];
    uint32_t first = w * 32, n = b->nthreads - first < 32 ? b->nthreads - first : 32;
    wp->exists = n == 32 ? FULL : (1u << n) - 1;
    wp->exited = 0;
    wp->state = W_READY;
    wp->sp = 1;
    wp->stack[0] = (SimtEntry){0, (uint32_t)b->p->ncode, wp->exists, UINT32_MAX};
    wp->mbar_wait = 0;
    wp->nframes = 0;
    wp->nsave = 0;
    wp->stack_top = b->stack_base;
    wp->spin_armed = 0;
    wp->spin_edges = 0;
    for (int i = 0; i < nsr; i++) {
      uint64_t *s = wp->R + (size_t)(b->p->sreg_base + sr[i]) * 32, val = v[sr[i]];
      for (int ln = 0; ln < 32; ln++) s[ln] = val;
    }
  }
  b->sregs_ready = 1;
  if (b->async) emu_async_reset(b->async);
  memset(b->bar_arrived, 0, sizeof b->bar_arrived);
  memset(b->bar_expected, 0, sizeof b->bar_expected);
  memset(b->bar_popc, 0, sizeof b->bar_popc);
  memset(b->bar_all, 1, sizeof b->bar_all);
  memset(b->bar_any, 0, sizeof b->bar_any);
  b->exited_threads = 0;
}

/* What one pass over the ready warps of a block (or grid) did. */
typedef struct Pass {
  uint64_t ran, spun;  /* warps run; of them, warps that yielded in a spin */
  uint64_t instrs;     /* warp instructions */
  int released;        /* a barrier completed */
  int waiting;         /* a warp waits at a barrier */
} Pass;

/* Runs each ready warp of b once, then completes the barriers it can. */
static int run_pass(Block *b, Pass *ps) {
  uint64_t before = b->warp_instrs;
  for (uint32_t w = 0; w < b->nwarps; w++) {
    if (b->warps[w].state != W_READY) continue;
    if (run_warp(b, (int)w)) return -1;
    ps->ran++;
    ps->spun += b->warps[w].spin_stuck;
  }
  ps->instrs += b->warp_instrs - before;
  ps->released |= release_barriers(b);
  for (uint32_t w = 0; w < b->nwarps; w++) ps->waiting |= b->warps[w].state == W_WAIT;
  return 0;
}

/* After a pass: 1 to go on, 0 when every warp is done, -1 for a deadlock or
 * a spin that lasted EMU_SPIN_BUDGET warp instructions (*quiet counts them). */
static int after_pass(const Pass *ps, uint64_t *quiet) {
  if (ps->released || (ps->ran && ps->spun < ps->ran)) {
    *quiet = 0;
    return 1;
  }
  if (ps->ran) return (*quiet += ps->instrs) < EMU_SPIN_BUDGET ? 1 : -1;
  return ps->waiting ? -1 : 0;
}

/* The error for a stopped block: its spinning warp, else its barrier. */
static int stopped(Block *b, uint64_t quiet, int cooperative) {
  for (uint32_t w = 0; w < b->nwarps; w++)
    if (b->warps[w].state == W_READY && b->warps[w].spin_stuck) return emu_no_progress(b, (int)w, quiet, cooperative);
  return deadlock(b);
}

/* Whether another host thread runs a block before b (which b may wait
 * for: a decoupled look-back scan's flags). */
static int earlier_block_running(const Block *b) {
  for (int t = 0; b->running && t < b->nrunning; t++)
    if (__atomic_load_n(&b->running[t], __ATOMIC_ACQUIRE) < b->order) return 1;
  return 0;
}

static int run_block(Block *b) {
  block_start(b);
  uint64_t quiet = 0;
  for (;;) {
    Pass ps = {0};
    if (run_pass(b, &ps)) return -1;
    int go = after_pass(&ps, &quiet);
    if (go < 0 && ps.ran && earlier_block_running(b)) {
      quiet = 0; /* its spin may end when that block writes */
      sched_yield();
      continue;
    }
    if (go <= 0) return go ? stopped(b, quiet, 0) : 0;
  }
}

/* --- launch --- */

static int check_launch(const EmuLaunch *l, const Arch *a, const PtxKernel *k, uint32_t shared, WmErr *e) {
  const uint32_t *g = l->grid, *bl = l->block;
  ArchLimits lim = arch_limits(a);
  uint64_t threads = (uint64_t)bl[0] * bl[1] * bl[2];
  if (!g[0] || !g[1] || !g[2] || !bl[0] || !bl[1] || !bl[2])
    return wm_err(e, WM_ELIMIT, "kernel %s: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
                  k->name, g[0], g[1], g[2], bl[0], bl[1], bl[2]);
  if (threads > lim.block_threads || bl[0] > lim.block_xy || bl[1] > lim.block_xy || bl[2] > lim.block_z)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s: block (%u,%u,%u) has %llu threads; CUDA allows at most %u per block on %s "
                  "(x, y <= %u, z <= %u): the launch would fail with cudaErrorInvalidConfiguration",
                  k->name, bl[0], bl[1], bl[2], (unsigned long long)threads, lim.block_threads, a->name,
                  lim.block_xy, lim.block_z);
  if (g[1] > lim.grid_yz || g[2] > lim.grid_yz || g[0] > lim.grid_x)
    return wm_err(e, WM_ELIMIT, "kernel %s: grid (%u,%u,%u) exceeds CUDA's limits on %s (x <= %u, y, z <= %u)",
                  k->name, g[0], g[1], g[2], a->name, lim.grid_x, lim.grid_yz);
  for (int i = 0; i < 3; i++)
    if (k->reqntid[i] && k->reqntid[i] != bl[i])
      return wm_err(e, WM_ELIMIT, "kernel %s requires a block of (%u,%u,%u) threads (.reqntid), not (%u,%u,%u)",
                    k->name, k->reqntid[0], k->reqntid[1] ? k->reqntid[1] : 1, k->reqntid[2] ? k->reqntid[2] : 1,
                    bl[0], bl[1], bl[2]);
  if (shared > lim.smem_block)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s: %u bytes of shared memory per block (%u static + %u dynamic) exceed the "
                  "%u bytes a block can have on %s",
                  k->name, shared, k->shared_static, l->smem_dynamic, lim.smem_block, a->name);
  return 0; /* dynamic shared memory nobody uses is allowed, as CUDA allows it */
}

/* --- workers: blocks are independent, so they run on several host threads;
 * each worker has its own block state and statistics, merged at the end in
 * worker order, so the counters do not depend on the thread count. --- */

/* Sampling: the j-th block run is block_of(l, j); with sample_every k > 1
 * only every k-th wave of sample_wave blocks runs. */
static uint64_t block_of(const EmuLaunch *l, uint64_t j) {
  if (l->sample_every <= 1 || !l->sample_wave) return j;
  return j / l->sample_wave * l->sample_wave * l->sample_every + j % l->sample_wave;
}

static uint64_t blocks_to_run(const EmuLaunch *l, uint64_t nblocks) {
  if (l->sample_every <= 1 || !l->sample_wave) return nblocks;
  uint64_t span = l->sample_wave * l->sample_every, full = nblocks / span, rest = nblocks % span;
  return full * l->sample_wave + (rest < l->sample_wave ? rest : l->sample_wave);
}

/* Block traces wait here to be replayed through the caches in launch order
 * (mem/cache.h): a worker that finishes block i parks its trace in slot
 * i % EMU_RING, then whoever finds the next block in order ready replays
 * it.  A worker more than EMU_RING blocks ahead waits. */
#define EMU_RING 64

typedef struct Ring {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  MemTrace slot[EMU_RING];
  uint8_t ready[EMU_RING];
  uint64_t head;          /* next block to replay */
  uint64_t nblocks;
  int group;              /* blocks replayed together (replay_group) */
  const EmuLaunch *l;
  int draining, abort;
  CacheSys *cache;
} Ring;

/* Blocks of the group starting at g->head, if all are ready, else 0. */
static int group_ready(const Ring *g) {
  uint64_t n = g->nblocks - g->head < (uint64_t)g->group ? g->nblocks - g->head : (uint64_t)g->group;
  for (uint64_t i = 0; i < n; i++)
    if (!g->ready[(g->head + i) % EMU_RING]) return 0;
  return (int)n;
}

/* Hands block i's trace (emptied in exchange) to the ring and replays what
 * is in order.  Returns -1 if the run was aborted. */
static int ring_put(Ring *g, uint64_t i, MemTrace *t) {
  pthread_mutex_lock(&g->mu);
  while (!g->abort && i - g->head >= EMU_RING) pthread_cond_wait(&g->cv, &g->mu);
  if (g->abort) {
    pthread_mutex_unlock(&g->mu);
    return -1;
  }
  MemTrace spare = g->slot[i % EMU_RING];
  g->slot[i % EMU_RING] = *t;
  *t = spare;
  t->n = 0;
  g->ready[i % EMU_RING] = 1;
  if (!g->draining) {
    g->draining = 1;
    int n;
    while (!g->abort && (n = group_ready(g)) > 0) {
      const MemTrace *x[EMU_RING];
      for (int j = 0; j < n; j++) x[j] = &g->slot[(g->head + (uint64_t)j) % EMU_RING];
      pthread_mutex_unlock(&g->mu);
      replay_blocks(g->cache, block_of(g->l, g->head), x, n);
      pthread_mutex_lock(&g->mu);
      for (int j = 0; j < n; j++) {
        g->slot[g->head % EMU_RING].n = 0;
        g->ready[g->head % EMU_RING] = 0;
        g->head++;
      }
      pthread_cond_broadcast(&g->cv);
    }
    g->draining = 0;
  }
  pthread_mutex_unlock(&g->mu);
  return 0;
}

static void ring_abort(Ring *g) {
  pthread_mutex_lock(&g->mu);
  g->abort = 1;
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

typedef struct Worker {
  Block b;
  MemModel mm;
  MemTrace trace;
  Ring *ring;
  WmErr err;
  uint64_t first, step, nblocks;
  uint64_t *stop_at;      /* lowest faulting block so far (shared) */
  uint64_t fault_block;
  pthread_t th;
  int started;
} Worker;

int emu_threads(void) {
  const char *env = getenv("WARPMEM_THREADS");
  long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > EMU_MAX_THREADS) n = EMU_MAX_THREADS;
  return (int)n;
}

static void block_setup(Block *b, EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared,
                        WmErr *e) {
  MemModel *mm = b->mm;
  memset(b, 0, sizeof *b);
  b->mm = mm;
  b->l = l;
  b->p = prog;
  b->m = l->mod;
  b->e = e;
  b->sms = (uint32_t)arch->sms;
  b->nthreads = l->block[0] * l->block[1] * l->block[2];
  b->nwarps = (b->nthreads + 31) / 32;
  b->shared_size = shared;
  b->shared = wm_xcalloc(shared + 16, 1);
  b->max_warps = (uint32_t)arch->max_warps_sm;
  b->local_size = l->kernel->local_size;
  if (l->kernel->nfn > 1) { /* it calls functions: their frames follow its own */
    b->stack_base = (l->kernel->frame_size + 15u) / 16u * 16u;
    b->local_size = b->stack_base + (l->stack_size ? l->stack_size : EMU_STACK_DEFAULT);
  } else if (l->kernel->frame_size > b->local_size) {
    b->local_size = l->kernel->frame_size; /* built-in calls' arguments */
  }
  b->local = wm_xcalloc((size_t)b->nwarps * 32 * (b->local_size ? b->local_size : 1), 1);
  b->warps = wm_xcalloc(b->nwarps, sizeof *b->warps);
  if (emu_async_used(prog)) b->async = emu_async_new(shared, b->nwarps * 32);
  b->regs = wm_xcalloc((size_t)b->nwarps * prog->nslots * 32, sizeof(uint64_t));
  for (uint32_t w = 0; w < b->nwarps; w++) {
    b->warps[w].R = b->regs + (size_t)w * prog->nslots * 32;
    b->warps[w].stack = wm_xmalloc(sizeof(SimtEntry) * EMU_STACK_MAX);
    warp_init_slots(b, (int)w, b->warps[w].R);
  }
}

static void block_teardown(Block *b) {
  for (uint32_t w = 0; w < b->nwarps; w++) {
    free(b->warps[w].stack);
    free(b->warps[w].frames);
    free(b->warps[w].save);
  }
  emu_async_free(b->async);
  free(b->out);
  free(b->chunks);
  free(b->regs);
  free(b->warps);
  free(b->local);
  free(b->shared);
}

static void *run_blocks(void *arg) {
  Worker *w = arg;
  Block *b = &w->b;
  const EmuLaunch *l = b->l;
  for (uint64_t j = w->first; j < w->nblocks; j += w->step) {
    if (j > __atomic_load_n(w->stop_at, __ATOMIC_RELAXED)) break;
    uint64_t i = block_of(l, j);
    b->ctaid[0] = (uint32_t)(i % l->grid[0]);
    b->ctaid[1] = (uint32_t)(i / l->grid[0] % l->grid[1]);
    b->ctaid[2] = (uint32_t)(i / ((uint64_t)l->grid[0] * l->grid[1]));
    if (b->shared_size) memset(b->shared, 0, b->shared_size);
    b->order = j;
    if (b->running) __atomic_store_n(&b->running[w->first], j, __ATOMIC_RELEASE);
    int bad = run_block(b);
    if (!bad && w->ring && ring_put(w->ring, j, &w->trace)) {
      /* another block faulted and stopped the replay: the blocks before it
       * still run (untraced), so that the lowest fault is the one reported */
      w->ring = NULL;
      w->mm.trace = NULL;
    }
    if (bad) {
      if (w->ring) ring_abort(w->ring);
      w->fault_block = j;
      uint64_t cur = __atomic_load_n(w->stop_at, __ATOMIC_RELAXED);
      while (j < cur && !__atomic_compare_exchange_n(w->stop_at, &cur, j, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      }
      break;
    }
  }
  if (b->running) __atomic_store_n(&b->running[w->first], UINT64_MAX, __ATOMIC_RELEASE);
  return NULL;
}

/* The ring that hands the blocks' traces to the caches in launch order. */
static Ring *ring_new(EmuLaunch *l, uint64_t nblocks) {
  Ring *ring = wm_xcalloc(1, sizeof *ring);
  pthread_mutex_init(&ring->mu, NULL);
  pthread_cond_init(&ring->cv, NULL);
  ring->cache = l->cache;
  ring->nblocks = nblocks;
  ring->l = l;
  ring->group = replay_group(l->cache);
  if (ring->group < 1 || ring->group > EMU_RING / 2) ring->group = 1;
  return ring;
}

static void ring_free(Ring *ring) {
  for (int i = 0; i < EMU_RING; i++) trace_free(&ring->slot[i]);
  pthread_mutex_destroy(&ring->mu);
  pthread_cond_destroy(&ring->cv);
  free(ring);
}

/* Runs the workers' shares of the blocks: worker 0 on this thread, the
 * others on threads of their own (or here, if one cannot start). */
static void run_workers(Worker *ws, int nw) {
  for (int t = 1; t < nw; t++)
    if (pthread_create(&ws[t].th, NULL, run_blocks, &ws[t])) {
      ws[t].started = -1;
      if (ws[t].b.running) ws[t].b.running[t] = UINT64_MAX; /* runs later: nobody may wait for it */
    } else {
      ws[t].started = 1;
    }
  run_blocks(&ws[0]);
  for (int t = 1; t < nw; t++) {
    if (ws[t].started == 1) pthread_join(ws[t].th, NULL);
    else run_blocks(&ws[t]); /* no thread: run its share here */
  }
}

/* Sums the workers' instructions and statistics into the launch, and frees
 * them. */
static void workers_finish(EmuLaunch *l, Worker *ws, int nw) {
  l->warp_instrs = l->thread_instrs = 0;
  for (int t = 0; t < nw; t++) {
    Worker *w = &ws[t];
    l->warp_instrs += w->b.warp_instrs;
    l->thread_instrs += w->b.thread_instrs;
    if (w->b.mm) mem_merge(l->mm, &w->mm);
    if (w->b.mm) mem_free(&w->mm);
    trace_free(&w->trace);
    block_teardown(&w->b);
  }
}

/* --- cooperative launches: every block is resident; a pass runs each
 * ready warp of each block once, blocks in launch order, so a block that
 * spins on a flag (the grid barrier's counter) lets the others set it.
 * One host thread runs the grid, so the order and the counters do not
 * depend on the thread count; each block keeps its own cache trace, replayed
 * in launch order as for a plain launch. --- */

static int run_grid(Block *bs, uint64_t n, MemModel *mm, MemTrace *tr) {
  uint64_t quiet = 0;
  for (;;) {
    Pass ps = {0};
    for (uint64_t i = 0; i < n; i++) {
      if (tr) mm->trace = &tr[i];
      if (run_pass(&bs[i], &ps)) return -1;
    }
    int go = after_pass(&ps, &quiet);
    if (go > 0) continue;
    if (go == 0) return 0;
    for (uint64_t i = 0; i < n; i++) /* the first block with a spinning warp, else a waiting one */
      for (uint32_t w = 0; w < bs[i].nwarps; w++)
        if (bs[i].warps[w].state == W_READY && bs[i].warps[w].spin_stuck) return stopped(&bs[i], quiet, 1);
    for (uint64_t i = 0; i < n; i++)
      for (uint32_t w = 0; w < bs[i].nwarps; w++)
        if (bs[i].warps[w].state == W_WAIT) return stopped(&bs[i], quiet, 1);
    return -1;
  }
}

/* Runs a cooperative launch on this thread: every block set up at once. */
static int run_cooperative(EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared, WmErr *e) {
  uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  MemModel mm;
  int have_mm = l->mm && mem_init(&mm, &l->mm->cfg, l->kernel->ncode) == 0;
  MemTrace *tr = have_mm && l->cache ? wm_xcalloc(n, sizeof *tr) : NULL;
  Block *bs = wm_xcalloc(n, sizeof *bs);
  for (uint64_t i = 0; i < n; i++) {
    Block *b = &bs[i];
    b->mm = have_mm ? &mm : NULL;
    block_setup(b, l, arch, prog, shared, e);
    b->ctaid[0] = (uint32_t)(i % l->grid[0]);
    b->ctaid[1] = (uint32_t)(i / l->grid[0] % l->grid[1]);
    b->ctaid[2] = (uint32_t)(i / ((uint64_t)l->grid[0] * l->grid[1]));
    b->order = i;
    block_start(b);
  }
  int rc = run_grid(bs, n, have_mm ? &mm : NULL, tr);
  Block **bp = wm_xmalloc(n * sizeof *bp);
  for (uint64_t i = 0; i < n; i++) bp[i] = &bs[i];
  emu_printf_flush(l, bp, (size_t)n, UINT64_MAX);
  free(bp);
  if (have_mm) mm.trace = NULL;
  if (rc == 0 && tr) {
    int group = replay_group(l->cache);
    if (group < 1 || group > EMU_RING / 2) group = 1;
    for (uint64_t i = 0; i < n; i += (uint64_t)group) {
      const MemTrace *x[EMU_RING / 2];
      int k = 0;
      for (; k < group && i + (uint64_t)k < n; k++) x[k] = &tr[i + (uint64_t)k];
      replay_blocks(l->cache, i, x, k);
    }
  }
  l->blocks_run = n;
  l->warp_instrs = l->thread_instrs = 0;
  for (uint64_t i = 0; i < n; i++) {
    l->warp_instrs += bs[i].warp_instrs;
    l->thread_instrs += bs[i].thread_instrs;
    block_teardown(&bs[i]);
    if (tr) trace_free(&tr[i]);
  }
  if (have_mm) {
    mem_merge(l->mm, &mm);
    mem_free(&mm);
  }
  free(bs);
  free(tr);
  return rc;
}

/* The grid-sync workspace the driver gives a cooperative launch
 * (cooperative_groups/details/driver_abi.h: {wsSize, barrier}, the barrier
 * counting arrivals from zero), then the grid. */
static int cooperative_launch(EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared, WmErr *e) {
  int wi = gmem_alloc(l->gmem, 8, "grid-sync workspace of the cooperative launch", PTX_T_U32, 2, e);
  if (wi < 0) return -1;
  uint32_t ws[2] = {8, 0};
  memcpy(l->gmem->buf[wi].data, ws, sizeof ws);
  l->grid_ws = l->gmem->buf[wi].addr;
  int rc = run_cooperative(l, arch, prog, shared, e);
  WmErr ignored; /* the workspace is of this launch only: a long-lived GlobalMem must not collect them */
  if (gmem_release(l->gmem, l->grid_ws, &ignored) == 0) l->gmem->nfreed--; /* nor remember them */
  if (l->mm) {
    l->mm->metric[WM_M_WARPS] += l->blocks_run * ((l->block[0] * l->block[1] * l->block[2] + 31) / 32);
    l->mm->metric[WM_M_INST] += l->warp_instrs;
  }
  return rc;
}

int emu_run(EmuLaunch *l, WmErr *e) {
  const PtxKernel *k = l->kernel;
  const PtxModule *m = l->mod;
  uint32_t align = k->shared_extern_align ? k->shared_extern_align : 1;
  uint32_t shared = l->smem_dynamic ? (k->shared_static + align - 1) / align * align + l->smem_dynamic
                                    : k->shared_static;
  const Arch *arch = l->arch ? l->arch : arch_default();
  if (check_launch(l, arch, k, shared, e)) return -1;

  uint64_t gbase;
  uint8_t *const_owned;
  if (emu_segments(l, &gbase, &const_owned, e)) return -1;
  EmuProgram prog;
  if ((emu_heap_used(k) && emu_heap_open(l->gmem, l->heap_size, e)) || emu_prepare(&prog, m, k, gbase, e)) {
    free(const_owned);
    if (const_owned) l->const_mem = NULL;
    return -1;
  }
  l->grid_ws = 0;
  if (l->cooperative) {
    int rc = cooperative_launch(l, arch, &prog, shared, e);
    emu_program_free(&prog);
    if (const_owned) {
      free(const_owned);
      l->const_mem = NULL;
    }
    return rc;
  }

  int nw = emu_heap_used(k) ? 1 : emu_threads(), rc = 0; /* allocation in block order (emu_heap.c) */
  uint64_t grid_blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  uint64_t nblocks = blocks_to_run(l, grid_blocks);
  l->blocks_run = nblocks;
  if ((uint64_t)nw > nblocks) nw = (int)nblocks;
  Worker *ws = wm_xcalloc((size_t)nw, sizeof *ws);
  uint64_t running[EMU_MAX_THREADS];
  for (int t = 0; t < nw; t++) running[t] = 0; /* not started: may run anything */
  uint64_t stop_at = UINT64_MAX;
  Ring *ring = l->cache && l->mm ? ring_new(l, nblocks) : NULL;
  for (int t = 0; t < nw; t++) {
    Worker *w = &ws[t];
    w->first = (uint64_t)t;
    w->step = (uint64_t)nw;
    w->nblocks = nblocks;
    w->stop_at = &stop_at;
    w->fault_block = UINT64_MAX;
    if (l->mm && mem_init(&w->mm, &l->mm->cfg, k->ncode) == 0) w->b.mm = &w->mm;
    if (ring && w->b.mm) {
      w->ring = ring;
      w->mm.trace = &w->trace;
    }
    block_setup(&w->b, l, arch, &prog, shared, &w->err);
    w->b.running = nw > 1 ? running : NULL;
    w->b.nrunning = nw;
  }
  run_workers(ws, nw);
  /* the fault of the lowest block wins: every lower block has run */
  int worst = -1;
  for (int t = 0; t < nw; t++)
    if (ws[t].fault_block != UINT64_MAX && (worst < 0 || ws[t].fault_block < ws[worst].fault_block)) worst = t;
  if (worst >= 0) {
    *e = ws[worst].err;
    rc = -1;
  }
  Block *bp[EMU_MAX_THREADS];
  for (int t = 0; t < nw; t++) bp[t] = &ws[t].b;
  emu_printf_flush(l, bp, (size_t)nw, stop_at);
  workers_finish(l, ws, nw);
  if (l->mm) {
    l->mm->metric[WM_M_WARPS] += nblocks * ((l->block[0] * l->block[1] * l->block[2] + 31) / 32);
    l->mm->metric[WM_M_INST] += l->warp_instrs;
  }
  free(ws);
  if (ring) ring_free(ring);
  emu_program_free(&prog);
  if (const_owned) {
    free(const_owned);
    l->const_mem = NULL;
  }
  return rc;
}

int emu_check(const PtxModule *m, const PtxKernel *k, WmErr *e) {
  EmuProgram prog;
  if (emu_prepare(&prog, m, k, 0, e)) return -1;
  emu_program_free(&prog);
  return 0;
}
