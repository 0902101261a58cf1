/* emu_sched.c - the spin watch: finds warps that spin on memory no running
 * warp will change, so that the schedulers (emu.c) run the others and stop
 * a kernel that can never finish with a located error instead of hanging.
 *
 * Notes:
 *  - At every EMU_SPIN_EVERY-th backward branch a warp takes with all its
 *    lanes, the watch fingerprints the registers the loop writes (the
 *    destinations of the instructions between target and branch) and its
 *    SIMT stack; at the next backward branch it compares.  Equal: one
 *    iteration changed nothing, so the loop ends only when another warp
 *    (or block) writes the memory it reads -- a spin (while (!flag);, the
 *    grid barrier's ld.acquire loop).  The warp then yields.
 *  - A loop that leaves its range of instructions (a branch out and back)
 *    is fingerprinted by all its registers.
 *  - The fingerprint is a 64-bit hash; a collision only yields a warp early.
 *  - A kernel is stopped when every warp that runs spins, no barrier
 *    completes and no warp exits for EMU_SPIN_BUDGET warp instructions
 *    (emu.c counts; in a plain launch on several host threads, only while no
 *    earlier block runs on another).  A loop whose registers repeat while a
 *    counter in memory nobody reads climbs to a bound (red.add in a loop
 *    that polls its own total through a discarded load) would be stopped
 *    too; no real code seen does that.
 */
#include <stdio.h>
#include <string.h>

#include "emu/emu_exec.h"

#define EMU_SPIN_RANGE 512 /* longest loop fingerprinted by its own writes */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_slot(uint64_t h, const uint64_t *R, uint32_t slot) {
  const uint64_t *r = R + (size_t)slot * 32;
  for (int l = 0; l < 32; l++) h = mix(h, r[l]);
  return mix(h, slot);
}

/* Whether an iteration of the loop [target, pc] stays in that range: every
 * branch in it lands inside it (exit and ret end the loop for good). */
static int loop_is_closed(const EmuProgram *p, uint32_t target, uint32_t pc) {
  if (pc - target > EMU_SPIN_RANGE) return 0;
  for (uint32_t i = target; i < pc; i++) {
    const EmuInstr *x = &p->code[i];
    if (x->op == PTX_OP_BRA && (x->target < target || x->target > pc)) return 0;
  }
  return 1;
}

static uint64_t fingerprint(const Block *b, const Warp *w, uint32_t target, uint32_t pc) {
  const EmuProgram *p = b->p;
  uint64_t h = mix(0, (uint64_t)w->sp);
  for (int s = 0; s < w->sp; s++)
    h = mix(mix(mix(h, w->stack[s].pc), w->stack[s].rpc), w->stack[s].mask);
  if (loop_is_closed(p, target, pc)) {
    for (uint32_t i = target; i <= pc; i++)
      for (int d = 0; d < p->code[i].nd; d++)
        if (p->code[i].d[d] != EMU_NOSLOT) h = hash_slot(h, w->R, p->code[i].d[d]);
  } else {
    for (uint32_t s = 0; s < p->sreg_base; s++) h = hash_slot(h, w->R, s);
  }
  return h;
}

int emu_spin_backedge(Block *b, Warp *w, const EmuInstr *x, uint32_t pc) {
  uint64_t h = fingerprint(b, w, x->target, pc);
  if (w->spin_armed && w->spin_pc == pc && w->spin_hash == h) return 1;
  if (w->spin_armed) { /* it computes: look again later */
    w->spin_armed = 0;
    w->spin_edges = 0;
    return 0;
  }
  w->spin_armed = 1;
  w->spin_pc = pc;
  w->spin_hash = h;
  return 0;
}

int emu_no_progress(Block *b, int warp, uint64_t instrs, int cooperative) {
  const Warp *w = &b->warps[warp];
  const EmuInstr *x = &b->p->code[w->spin_pc];
  /* lanes that left the spin loop at its own branch (a lock one of them
   * took) wait for the spinning ones where the two paths reconverge */
  const SimtEntry *top = &w->stack[w->sp - 1];
  uint32_t spinning = top->mask, parked = 0;
  for (int s = w->sp - 2; s >= 0 && top->rpc == x->rpc; s--)
    if (w->stack[s].pc == top->rpc) {
      parked = w->stack[s].mask & ~spinning & ~w->exited;
      break;
    }
  char its[256] = "";
  if (parked)
    snprintf(its, sizeof its,
             "; lanes 0x%08x of this warp wait where its paths reconverge: Volta and later would run them on "
             "(independent thread scheduling), warpmem keeps a warp's paths in order",
             parked);
  return emu_fault(b, x, warp, __builtin_ctz(spinning), WM_EDEADLOCK,
                   "no progress: %llu warp instructions ran with every running warp spinning in a loop whose "
                   "registers repeat, waiting for memory that no running thread will change, and no barrier "
                   "completing%s%s",
                   (unsigned long long)instrs, its,
                   cooperative || parked ? ""
                               : " (blocks of a plain launch run here one after another: a flag that another "
                                 "block sets needs all blocks resident, a cooperative launch: the //@ word "
                                 "cooperative or --cooperative)");
}
