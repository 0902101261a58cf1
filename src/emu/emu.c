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

#include "emu/emu_check.h"
#include "emu/emu_exec.h"

/* --- control --- */

/* Special registers that differ between the blocks of a launch. */
static int sreg_per_block(int sr) {
  switch (sr) {
  case PTX_SR_CTAID_X: case PTX_SR_CTAID_Y: case PTX_SR_CTAID_Z: case PTX_SR_SMID:
  case PTX_SR_CLOCK: case PTX_SR_CLOCK64: case PTX_SR_GLOBALTIMER:
  case PTX_SR_GLOBALTIMER_LO: case PTX_SR_GLOBALTIMER_HI: case PTX_SR_CLOCK_HI:
  case PTX_SR_CLUSTERID_X: case PTX_SR_CLUSTERID_Y: case PTX_SR_CLUSTERID_Z:
  case PTX_SR_CLUSTER_CTAID_X: case PTX_SR_CLUSTER_CTAID_Y: case PTX_SR_CLUSTER_CTAID_Z:
  case PTX_SR_CLUSTER_CTARANK:
    return 1;
  default: return 0;
  }
}

/* Special registers set per thread by warp_init_slots. */
static int sreg_per_thread(int sr) {
  return (sr >= PTX_SR_TID_X && sr <= PTX_SR_TID_Z) || sr == PTX_SR_LANEID || sr == PTX_SR_WARPID ||
         (sr >= PTX_SR_LANEMASK_EQ && sr <= PTX_SR_LANEMASK_GE);
}

/* The values of the special registers that differ between blocks
 * (sreg_per_block); the other entries of v are left alone. */
static void sreg_block_values(const Block *b, uint64_t v[PTX_SR_COUNT]) {
  const EmuLaunch *l = b->l;
  v[PTX_SR_CTAID_X] = b->ctaid[0], v[PTX_SR_CTAID_Y] = b->ctaid[1], v[PTX_SR_CTAID_Z] = b->ctaid[2];
  v[PTX_SR_SMID] = ((uint64_t)b->ctaid[0] + (uint64_t)b->ctaid[1] * l->grid[0]) % b->sms;
  v[PTX_SR_CLOCK] = v[PTX_SR_CLOCK64] = v[PTX_SR_GLOBALTIMER] = v[PTX_SR_GLOBALTIMER_LO] = b->warp_instrs;
  v[PTX_SR_GLOBALTIMER_HI] = v[PTX_SR_CLOCK_HI] = b->warp_instrs >> 32;
  /* the PTX ISA's cluster registers; without a cluster launch every block
   * is a cluster of one (1x1x1) */
  uint32_t d[3];
  emu_cluster_dims(l, d);
  for (int i = 0; i < 3; i++) {
    v[PTX_SR_CLUSTERID_X + i] = b->ctaid[i] / d[i];
    v[PTX_SR_CLUSTER_CTAID_X + i] = b->ctaid[i] % d[i];
  }
  v[PTX_SR_CLUSTER_CTARANK] = b->crank;
}

/* The special registers' values in block b (those of a thread aside). */
static void sreg_values(const Block *b, uint64_t v[PTX_SR_COUNT]) {
  const EmuLaunch *l = b->l;
  memset(v, 0, sizeof(uint64_t) * PTX_SR_COUNT);
  v[PTX_SR_NTID_X] = l->block[0], v[PTX_SR_NTID_Y] = l->block[1], v[PTX_SR_NTID_Z] = l->block[2];
  v[PTX_SR_NCTAID_X] = l->grid[0], v[PTX_SR_NCTAID_Y] = l->grid[1], v[PTX_SR_NCTAID_Z] = l->grid[2];
  v[PTX_SR_NWARPID] = b->max_warps;
  v[PTX_SR_NSMID] = b->sms;
  v[PTX_SR_GRIDID] = 1;
  v[PTX_SR_DYN_SMEM] = l->smem_dynamic;
  v[PTX_SR_TOTAL_SMEM] = b->shared_size;
  sreg_block_values(b, v);
  uint32_t d[3];
  emu_cluster_dims(l, d);
  for (int i = 0; i < 3; i++) {
    v[PTX_SR_NCLUSTERID_X + i] = l->grid[i] / d[i];
    v[PTX_SR_CLUSTER_NCTAID_X + i] = d[i];
  }
  v[PTX_SR_CLUSTER_NCTARANK] = d[0] * d[1] * d[2];
  v[PTX_SR_IS_EXPLICIT_CLUSTER] = l->cluster[0] != 0;
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
  if (w->sp == 0 && w->state != W_DONE) {
    emu_clock_warp_end(b, w);
    w->state = W_DONE;
  }
}

static int arrive(Block *b, Warp *w, int wi, const EmuInstr *x, uint32_t mask, uint64_t *R) {
  uint32_t id = (uint32_t)R[(size_t)x->s[0] * 32 + (size_t)__builtin_ctz(mask)];
  if (id >= 16) return emu_fault(b, x, wi, __builtin_ctz(mask), WM_EFAULT, "barrier id %u is out of range (0..15)", id);
  if (b->chk) emu_chk_arrive(b, wi, x, mask, R);
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
  emu_clock_bar_arrive(b, w, id);
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
  b->bar_since |= 1u << (wi & 31);
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

/* A global instruction no lane runs: Nsight Compute counts it all the same
 * (mem_idle_global). */
static void count_idle(MemModel *mm, const EmuInstr *x) {
  int k = emu_global_kind(x);
  if (k >= 0) mem_idle_global(mm, (unsigned)k);
}

/* The global instructions of an if-converted branch's body that a warp
 * skipped whole (EmuInstr.aux, emu_mark_skipped_globals): the public set's
 * conv_rows runs its 10 predicated LDGs in every warp (10,240 on the
 * H200), where its PTX branches past some. */
static void count_skipped(MemModel *mm, unsigned aux) {
  static const unsigned kinds[] = {MEM_LD, MEM_ST, MEM_RED};
  for (int k = 0; k < 3; k++)
    for (unsigned n = EMU_SKIPPED(aux, kinds[k]); n > 0; n--) mem_idle_global(mm, kinds[k]);
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
  uint64_t winstr = 0, tinstr = 0, wclocks = 0;
  int rc = 0, switched = 0;
  w->spin_stuck = 0;
  for (uint32_t budget = b->slice; budget > 0 && w->state == W_READY; budget--) {
    SimtEntry *top = &w->stack[w->sp - 1];
    const EmuInstr *x = &code[top->pc];
    uint32_t mask = top->mask;
    winstr++;
    wclocks += x->clocks;
    w->now += x->clocks;
    tinstr += mask == FULL ? 32u : (uint64_t)popc32(mask);
    uint32_t eff = mask;
    if (x->guard != EMU_NOSLOT) {
      uint32_t g = pred_mask(R + (size_t)x->guard * 32);
      eff &= x->guard_neg ? ~g : g;
    }
    uint32_t next = top->pc + 1;
    if (eff == 0 && x->op != PTX_OP_BRA) {
      if (b->mm) count_idle(b->mm, x); /* predicated off: still an instruction */
      goto advance;
    }
    switch (x->op) { /* what changes the SIMT stack is the core's; the rest, its function's */
    case PTX_OP_BRA: {
      if (x->target <= top->pc) b->slice_instrs = winstr; /* the clock has moved on (mov_clock) */
      if (eff == mask) {
        next = x->target;
        if (x->aux && b->mm) {
          count_skipped(b->mm, x->aux);
          mem_round_owed(b->mm, (int)top->pc, b->cur_warp);
        }
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
      if (w->cl_mask) emu_cluster_exit(b, wi, eff);
      if (eff == mask) {
        pop_done(b, w);
        continue;
      }
      top->mask &= ~eff;
      break;
    case PTX_OP_BARCLUSTER:
      rc = x->sub == PTX_SUB_ARRIVE ? emu_cluster_arrive(b, wi, x, eff) : emu_cluster_wait(b, wi, x, eff);
      if (rc > 0) { /* it waits after the instruction */
        top->pc = next;
        rc = 0;
        goto out;
      }
      break;
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
        wclocks -= x->clocks;
        w->now -= x->clocks;
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
  b->slice_instrs = 0;
  b->warp_instrs += winstr;
  b->warp_clocks += wclocks;
  b->thread_instrs += tinstr;
  return rc;
}

/* Completes every barrier whose threads have all arrived. */
_Static_assert(EMU_NBARS <= 32, "release_barriers keeps the barriers in a 32-bit mask");

static int release_barriers(Block *b) {
  int released = 0;
  uint32_t live = b->nthreads - b->exited_threads, waiting = 0; /* the barriers some warp waits at */
  int nreg = 0; /* a warp waits in setmaxnreg.inc */
  for (uint32_t w = 0; w < b->nwarps; w++) {
    if (b->warps[w].state != W_WAIT) continue;
    if ((unsigned)b->warps[w].bar_id < EMU_BAR_CLUSTER) waiting |= 1u << b->warps[w].bar_id;
    nreg |= b->warps[w].bar_id == EMU_WAIT_NREG;
  }
  for (; waiting; waiting &= waiting - 1) { /* in the order of their ids */
    int id = __builtin_ctz(waiting);
    uint32_t need = b->bar_expected[id] ? b->bar_expected[id] : live;
    if (b->bar_arrived[id] < need) continue;
    if (b->chk) emu_chk_release(b, id);
    for (uint32_t w = 0; w < b->nwarps; w++) {
      Warp *wp = &b->warps[w];
      if (wp->state != W_WAIT || wp->bar_id != id) continue;
      wp->state = W_READY;
      emu_clock_bar_release(b, wp, (uint32_t)id);
      if (wp->red_kind && wp->red_dst != EMU_NOSLOT) {
        uint64_t v = wp->red_kind == PTX_SUB_RED_POPC ? b->bar_popc[id]
                   : wp->red_kind == PTX_SUB_RED_AND ? b->bar_all[id] : b->bar_any[id];
        uint64_t *d = wp->R + (size_t)wp->red_dst * 32;
        LANES(wp->red_mask, d[l] = v);
      }
      wp->red_kind = 0;
    }
    b->bar_arrived[id] = 0;
    b->bar_now[id] = 0;
    b->bar_expected[id] = 0;
    b->bar_popc[id] = 0;
    b->bar_all[id] = 1;
    b->bar_any[id] = 0;
    released = 1;
  }
  if (released) emu_async_barrier(b);
  if (nreg) released |= emu_nreg_release(b);
  return emu_cluster_release(b) | released; /* every live thread of the cluster arrived */
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
    else if (wp->bar_id == EMU_BAR_CLUSTER) snprintf(what, sizeof what, "at the cluster barrier");
    else if (wp->bar_id == EMU_WAIT_NREG) emu_nreg_describe(b, wp, what, sizeof what);
    else if (wp->bar_id == EMU_BAR_WGMMA)
      snprintf(what, sizeof what, "at a wgmma.mma_async for the other warps of its warpgroup (%u..%u)", w & ~3u,
               (w & ~3u) + 3);
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
  if (b->warps[first].bar_id == EMU_WAIT_NREG) {
    char why[300];
    emu_nreg_describe(b, &b->warps[first], why, sizeof why);
    return wm_err(b->e, WM_EDEADLOCK,
                  "register deadlock in kernel %s, block (%u,%u,%u): warp %d waits at %s %s, and no warp that "
                  "could give registers back (setmaxnreg.dec) can run%s",
                  b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], first, at, why, list);
  }
  if (b->warps[first].bar_id == EMU_BAR_CLUSTER) {
    char cl[200];
    emu_cluster_describe(b, cl, sizeof cl);
    return wm_err(b->e, WM_EDEADLOCK,
                  "cluster barrier deadlock in kernel %s, block (%u,%u,%u) (rank %u of its cluster): the "
                  "barrier.cluster.wait at %s can never complete: %s%s",
                  b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], b->crank, at, cl, list);
  } else if (b->warps[first].bar_id == EMU_BAR_WGMMA) {
    char gone[128] = "";
    size_t ng = 0;
    uint32_t g0 = (uint32_t)first & ~3u;
    for (uint32_t w = g0; w < g0 + 4 && w < b->nwarps; w++)
      if (b->warps[w].state == W_DONE) ng += (size_t)snprintf(gone + ng, sizeof gone - ng, " (warp %u has exited)", w);
    return wm_err(b->e, WM_EDEADLOCK,
                  "wgmma deadlock in kernel %s, block (%u,%u,%u): the wgmma.mma_async at %s can never complete: "
                  "its warpgroup's 4 warps execute it together, and the others cannot reach it%s%s",
                  b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], at, gone, list);
  }
  return wm_err(b->e, WM_EDEADLOCK,
                "barrier deadlock in kernel %s, block (%u,%u,%u): the barrier at %s can never complete: "
                "%u of %u live threads arrived%s",
                b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], at,
                b->bar_arrived[b->warps[first].bar_id], live, list);
}

void emu_block_start(Block *b) {
  /* the block's special registers once, then each warp's copy (the values
   * are the same for every warp, the clocks' too: computed before any runs) */
  uint64_t v[PTX_SR_COUNT];
  uint16_t sr[PTX_SR_COUNT];
  const uint16_t *list = sr;
  int nsr;
  if (b->sregs_ready) { /* the list of the worker's first block: the per-block ones, found then */
    list = b->sr_block;
    nsr = b->nsr_block;
    if (nsr) sreg_block_values(b, v);
  } else {
    nsr = sreg_block_list(b, sr);
    if (nsr) sreg_values(b, v);
    b->nsr_block = 0;
    for (int i = 0; i < nsr; i++)
      if (sreg_per_block(sr[i])) b->sr_block[b->nsr_block++] = sr[i];
  }
  for (uint32_t w = 0; w < b->nwarps; w++) {
    Warp *wp = &b->warps[w];
    uint32_t first = w * 32, n = b->nthreads - first < 32 ? b->nthreads - first : 32;
    wp->exists = n == 32 ? FULL : (1u << n) - 1;
    wp->exited = 0;
    wp->state = W_READY;
    wp->sp = 1;
    wp->stack[0] = (SimtEntry){0, (uint32_t)b->p->ncode, wp->exists, UINT32_MAX};
    wp->mbar_wait = 0;
    wp->cl_mask = 0;
    wp->nreg = 0;
    wp->nframes = 0;
    wp->nsave = 0;
    wp->stack_top = b->stack_base;
    wp->spin_armed = 0;
    wp->spin_edges = 0;
    for (int i = 0; i < nsr; i++) {
      uint64_t *s = wp->R + (size_t)(b->p->sreg_base + list[i]) * 32, val = v[list[i]];
      for (int ln = 0; ln < 32; ln++) s[ln] = val;
    }
  }
  b->sregs_ready = 1;
  if (b->async) emu_async_reset(b->async);
  if (b->wg) emu_wgmma_reset(b->wg);
  memset(b->bar_arrived, 0, sizeof b->bar_arrived);
  memset(b->bar_expected, 0, sizeof b->bar_expected);
  memset(b->bar_popc, 0, sizeof b->bar_popc);
  memset(b->bar_all, 1, sizeof b->bar_all);
  memset(b->bar_any, 0, sizeof b->bar_any);
  b->exited_threads = 0;
  b->cl_arrived = b->cl_phase = 0;
  b->cl_arrive_now = b->cl_release_now = 0;
  b->nreg_free = 0;
  memset(b->wg_seen, 0, sizeof b->wg_seen);
  if (b->cluster && b->crank == 0) {
    b->cluster->arrived = b->cluster->phase = 0;
    b->cluster->arrive_now = b->cluster->release_now = 0;
  }
  b->bar_since = 0;
  memset(b->poll_instr, 0xff, sizeof b->poll_instr);
  emu_clock_start(b);
  if (b->chk) emu_chk_block_start(b), emu_chk_wgmma_block_start(b);
}


/* Runs each ready warp of b once, then completes the barriers it can. */
int emu_run_pass(Block *b, EmuPass *ps) {
  uint64_t before = b->warp_instrs;
  for (uint32_t w = 0; w < b->nwarps; w++) {
    if (b->warps[w].state != W_READY) continue;
    if (run_warp(b, (int)w)) return -1;
    ps->ran++;
    ps->spun += b->warps[w].spin_stuck;
  }
  uint64_t ran = b->warp_instrs - before;
  ps->instrs += ran;
  if (b->watch && (b->watch_pending += ran) >= b->watch->every && emu_watch_look(b)) return -1;
  ps->released |= release_barriers(b);
  for (uint32_t w = 0; w < b->nwarps; w++) ps->waiting |= b->warps[w].state == W_WAIT;
  return 0;
}

/* After a pass: 1 to go on, 0 when every warp is done, -1 for a deadlock or
 * a spin that lasted EMU_SPIN_BUDGET warp instructions (*quiet counts them). */
int emu_after_pass(const EmuPass *ps, uint64_t *quiet) {
  if (ps->released || (ps->ran && ps->spun < ps->ran)) {
    *quiet = 0;
    return 1;
  }
  if (ps->ran) return (*quiet += ps->instrs) < EMU_SPIN_BUDGET ? 1 : -1;
  return ps->waiting ? -1 : 0;
}

/* The error for a stopped block: its spinning warp, else its barrier. */
int emu_stopped(Block *b, uint64_t quiet, int cooperative) {
  for (uint32_t w = 0; w < b->nwarps; w++)
    if (b->warps[w].state == W_READY && b->warps[w].spin_stuck) return emu_no_progress(b, (int)w, quiet, cooperative);
  return deadlock(b);
}

/* Whether another host thread runs a block before b (which b may wait
 * for: a decoupled look-back scan's flags). */
int emu_earlier_running(const Block *b) {
  for (int t = 0; b->running && t < b->nrunning; t++)
    if (__atomic_load_n(&b->running[t], __ATOMIC_ACQUIRE) < b->order) return 1;
  return 0;
}

int emu_block_run(Block *b) {
  emu_block_start(b);
  uint64_t quiet = 0;
  for (;;) {
    EmuPass ps = {0};
    if (emu_run_pass(b, &ps)) return -1;
    int go = emu_after_pass(&ps, &quiet);
    if (go < 0 && ps.ran && emu_earlier_running(b)) {
      quiet = 0; /* its spin may end when that block writes */
      sched_yield();
      continue;
    }
    if (go == 0 && b->chk) emu_chk_block_end(b);
    if (go <= 0) return go ? emu_stopped(b, quiet, 0) : 0;
  }
}

/* --- a block's state, set up once per host thread and reused --- */

void emu_block_setup(Block *b, EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared,
                        WmErr *e) {
  MemModel *mm = b->mm;
  memset(b, 0, sizeof *b);
  b->mm = mm;
  b->l = l;
  b->p = prog;
  b->m = l->mod;
  b->e = e;
  b->slice = EMU_SLICE;
  b->sms = (uint32_t)arch->sms;
  b->arch = arch;
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
  if (emu_wgmma_used(prog)) b->wg = emu_wgmma_new(b->nwarps);
  b->regs = wm_xcalloc((size_t)b->nwarps * prog->nslots * 32, sizeof(uint64_t));
  for (uint32_t w = 0; w < b->nwarps; w++) {
    b->warps[w].R = b->regs + (size_t)w * prog->nslots * 32;
    b->warps[w].stack = wm_xmalloc(sizeof(SimtEntry) * EMU_STACK_MAX);
    warp_init_slots(b, (int)w, b->warps[w].R);
  }
  if (l->check) emu_chk_block_new(b), emu_chk_wgmma_block_new(b);
}

void emu_block_teardown(Block *b) {
  if (b->chk) emu_chk_wgmma_block_free(b);
  emu_chk_block_free(b);
  for (uint32_t w = 0; w < b->nwarps; w++) {
    free(b->warps[w].stack);
    free(b->warps[w].frames);
    free(b->warps[w].save);
  }
  emu_async_free(b->async);
  emu_wgmma_free(b->wg);
  emu_clock_free(b);
  free(b->out);
  free(b->chunks);
  free(b->regs);
  free(b->warps);
  free(b->local);
  free(b->shared);
}


int emu_check(const PtxModule *m, const PtxKernel *k, WmErr *e) {
  EmuProgram prog;
  if (emu_prepare(&prog, m, k, 0, e)) return -1;
  emu_program_free(&prog);
  return 0;
}
