/* emu_nreg.c - setmaxnreg (sm_90a): a warpgroup gives registers back to
 * its block's pool (.dec) or takes more from it (.inc), as warp-specialised
 * kernels move registers from producer warpgroups to consumers.
 *
 * Notes:
 *  - The PTX ISA (setmaxnreg): the count is an immediate in 24..256, a
 *    multiple of 8; .sync.aligned: every thread of the warpgroup (4
 *    consecutive warps) executes the same setmaxnreg; .dec releases
 *    registers down to the count, .inc requests them up to it and blocks
 *    until the pool has them.  A count below the warp's for .inc, or above
 *    it for .dec, is a located fault here (the ISA leaves it undefined).
 *  - The pool: the block starts with every warp at EmuLaunch.regs a thread
 *    (ptxas's count for the kernel, what the occupancy calculator sized the
 *    block by: 168 for __launch_bounds__(384, 1), 65536 / 384 rounded down
 *    to 8) and nothing free; what .dec releases is free for .inc.  An .inc
 *    the pool cannot satisfy waits, and when nothing can release registers
 *    the launch ends in a located deadlock.  Registers unknown
 *    (EmuLaunch.regs 0): the counts are checked, the pool is not.
 *  - Blocks per SM do not change: the registers move within the block.
 */
#include <stdio.h>

#include "emu/emu_exec.h"

/* The registers a warp's threads hold: at launch EmuLaunch.regs. */
static uint32_t warp_regs(const Block *b, const Warp *w) { return w->nreg ? w->nreg : (uint32_t)b->l->regs; }

/* The warpgroup rule: all of warp wi's threads execute it, its block is
 * made of whole warpgroups, and the group's warps set one count.  0, or -1
 * after a located fault. */
static int warpgroup_rule(Block *b, const EmuInstr *x, int wi, uint32_t mask, uint32_t n) {
  const Warp *w = &b->warps[wi];
  uint32_t live = w->exists & ~w->exited, g = (uint32_t)wi / 4;
  if (mask != live)
    return emu_fault(b, x, wi, __builtin_ctz(live & ~mask ? live & ~mask : mask), WM_EFAULT,
                     "setmaxnreg.sync.aligned executed by lanes 0x%08x of the warp's 0x%08x: every thread of the "
                     "warpgroup must execute it", mask, live);
  if (b->nwarps % 4)
    return emu_fault(b, x, wi, __builtin_ctz(mask), WM_EFAULT, "setmaxnreg in a block of %u threads: it works on "
                     "warpgroups of 4 warps, and the block's last one is not whole", b->nthreads);
  if (b->wg_seen[g] && b->wg_nreg[g] != n)
    return emu_fault(b, x, wi, __builtin_ctz(mask), WM_EFAULT, "setmaxnreg to %u registers where another warp of "
                     "warpgroup %u set %u: the warpgroup's warps must execute the same setmaxnreg", n, g,
                     b->wg_nreg[g]);
  b->wg_nreg[g] = (uint16_t)n;
  b->wg_seen[g] |= (uint8_t)(1u << (wi % 4));
  if (b->wg_seen[g] == 0xf) b->wg_seen[g] = 0; /* the group is done with this one */
  return 0;
}

int emu_exec_setmaxnreg(EMU_EXEC_ARGS) {
  Warp *w = &b->warps[warp];
  int l = __builtin_ctz(mask), inc = x->sub == PTX_SUB_NREG_INC;
  uint32_t n = (uint32_t)R[(size_t)x->s[0] * 32 + (size_t)l], cur = warp_regs(b, w);
  if (n < 24 || n > 256 || n % 8)
    return emu_fault(b, x, warp, l, WM_EFAULT, "setmaxnreg count %u: the PTX ISA allows 24 to 256, a multiple of 8", n);
  if (w->bar_id != EMU_WAIT_NREG && warpgroup_rule(b, x, warp, mask, n)) return -1; /* not again on its retry */
  w->bar_id = -1;
  if (!cur) { /* registers unknown: the counts only */
    w->nreg = (uint16_t)n;
    return 0;
  }
  if (inc ? n < cur : n > cur)
    return emu_fault(b, x, warp, l, WM_EFAULT, "setmaxnreg.%s to %u registers a thread from the warp's %u: .inc "
                     "must not lower the count nor .dec raise it", inc ? "inc" : "dec", n, cur);
  uint32_t lanes = 32; /* registers are allocated for whole warps */
  if (!inc) {
    b->nreg_free += (cur - n) * lanes;
  } else if ((n - cur) * lanes > b->nreg_free) { /* wait for a .dec to give them back */
    w->state = W_WAIT;
    w->bar_id = EMU_WAIT_NREG;
    w->nreg_want = (uint16_t)n;
    w->bar_pc = (uint32_t)(x - b->p->code);
    return 1;
  } else {
    b->nreg_free -= (n - cur) * lanes;
  }
  w->nreg = (uint16_t)n;
  return 0;
}

int emu_nreg_release(Block *b) {
  int woke = 0;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    Warp *w = &b->warps[i];
    if (w->state == W_WAIT && w->bar_id == EMU_WAIT_NREG && (w->nreg_want - warp_regs(b, w)) * 32u <= b->nreg_free) {
      w->state = W_READY; /* it runs the setmaxnreg again, and takes them */
      woke = 1;
    }
  }
  return woke;
}

void emu_nreg_describe(const Block *b, const Warp *w, char *buf, size_t n) {
  snprintf(buf, n, "in setmaxnreg.inc for %u registers a thread (it has %u; the block's pool has %u free, of %u x "
           "%u at launch)", w->nreg_want, warp_regs(b, w), b->nreg_free, (unsigned)b->l->regs, b->nthreads);
}
