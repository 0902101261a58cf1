/* emu_budget.c - the host memory a launch's blocks need, checked against
 * stated budgets before anything is allocated (docs/limits.md).
 *
 * A block's state is its register file (nslots 8-byte slots per lane), its
 * local memory (the kernel's frame, plus the call stack when it calls
 * functions) per thread, and its shared memory.  Every value comes from the
 * PTX or the launch, so one mutated number (a .local array of 4 GB) must be
 * a clear refusal, not a calloc of terabytes that aborts the process.
 */
#include <stdio.h>

#include "emu/emu_exec.h"

/* The local memory of one thread: the frame (and call stack) as
 * emu_block_setup lays it out, in 64 bits. */
static uint64_t local_per_thread(const EmuLaunch *l) {
  const PtxKernel *k = l->kernel;
  if (k->nfn > 1) return ((uint64_t)k->frame_size + 15) / 16 * 16 + (l->stack_size ? l->stack_size : EMU_STACK_DEFAULT);
  return k->frame_size > k->local_size ? k->frame_size : k->local_size;
}

int emu_check_budget(const EmuLaunch *l, const EmuProgram *p, uint32_t shared, uint64_t *block_bytes, WmErr *e) {
  const PtxKernel *k = l->kernel;
  uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
  uint64_t lanes = (threads + 31) / 32 * 32;
  uint64_t own = k->frame_size > k->local_size ? k->frame_size : k->local_size;
  if (own > EMU_LOCAL_MAX)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s has %llu bytes of local memory per thread (.local variables and call frames); CUDA "
                  "allows at most %u KiB per thread (ptxas refuses more), and so does warpmem (docs/limits.md)",
                  k->name, (unsigned long long)own, EMU_LOCAL_MAX >> 10);
  uint64_t local = local_per_thread(l), regs = (uint64_t)p->nslots * 8;
  uint64_t bytes = lanes * (regs + local) + shared;
  if (bytes > EMU_BLOCK_BYTES_MAX)
    return wm_err(e, WM_ELIMIT,
                  "kernel %s: one block of %llu threads needs %llu MiB of host memory (%llu register slots and "
                  "%llu bytes of local memory per thread, %u bytes of shared memory), over warpmem's budget of "
                  "%llu MiB per block (docs/limits.md)",
                  k->name, (unsigned long long)threads, (unsigned long long)(bytes >> 20),
                  (unsigned long long)p->nslots, (unsigned long long)local, shared,
                  (unsigned long long)(EMU_BLOCK_BYTES_MAX >> 20));
  *block_bytes = bytes;
  return 0;
}

int emu_budget_threads(int nw, uint64_t block_bytes) {
  uint64_t fit = block_bytes ? EMU_BLOCKS_BYTES_MAX / block_bytes : (uint64_t)nw;
  if (fit < 1) fit = 1;
  return (uint64_t)nw > fit ? (int)fit : nw;
}
