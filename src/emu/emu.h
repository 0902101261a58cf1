/* emu.h - the SIMT emulator: runs a kernel's blocks, warp by warp, 32 lanes
 * per decoded instruction, and feeds memory instructions to the model. */
#ifndef WM_EMU_H
#define WM_EMU_H

#include <stdint.h>
#include <stdio.h>

#include "emu/gmem.h"
#include "mem/mem.h"
#include "ptx/ptx.h"

typedef struct EmuLaunch {
  const Arch *arch;          /* the GPU: its launch limits and SM count;
                                NULL: the default preset */
  const PtxModule *mod;
  const PtxKernel *kernel;
  uint32_t grid[3], block[3];
  uint32_t smem_dynamic;     /* bytes */
  const uint8_t *params;     /* kernel->param_size bytes */
  GlobalMem *gmem;           /* buffers; module .global variables are
                                allocated here by emu_run (unless
                                global_base); emu_run's own per-launch
                                buffers are released before it returns */
  uint8_t *const_mem;        /* module->const_size bytes, or NULL (zeros) */
  const uint8_t *global_init;/* module->global_size bytes: the __device__
                                and __managed__ variables before the launch;
                                NULL: their initializers */
  uint64_t global_base;      /* nonzero: the module's .global segment is
                                already a buffer of gmem at this address,
                                initialized and relocated (with const_mem)
                                by the caller, and outlives the launch
                                (warpmem run); global_init is not used */
  MemModel *mm;              /* receives every memory request */
  CacheSys *cache;           /* if set (with mm), the blocks' global and
                                local sectors are replayed through it in
                                launch order (mem/cache.h) */
  size_t trace_budget;       /* most bytes of block traces waiting for the
                                cache replay (0: EMU_TRACE_BUDGET); threads
                                that run ahead wait beyond it */
  uint64_t sample_wave;      /* sampling: blocks per wave (0: run all) */
  uint32_t sample_every;     /* run every sample_every-th wave (<= 1: all);
                                the counters are those of the blocks run */
  uint32_t envreg[32];       /* %envreg0..31 (a cooperative launch sets some) */
  uint32_t stack_size;       /* bytes of call stack per thread beyond the
                                kernel's own frame (0: CUDA's 1 KiB) */
  uint64_t heap_size;        /* bytes of the device heap of malloc and new,
                                made on the first launch that calls them
                                (0: CUDA's 8 MiB, cudaLimitMallocHeapSize) */
  FILE *printf_out;          /* where printf's text goes (NULL: stdout) */
  int cooperative;           /* cudaLaunchCooperativeKernel: all blocks are
                                resident at once and their warps interleave
                                (emu_sched.c), the grid-sync workspace is
                                allocated and its address is in %envreg1/2 */
  uint64_t grid_ws;          /* set by emu_run: that workspace's address
                                (released when the launch ends), 0 for a
                                plain launch (grid.is_valid() false) */
  /* out */
  uint64_t blocks_run;       /* blocks run (all, unless sampling) */
  uint64_t thread_instrs;    /* lane-instructions executed */
  uint64_t warp_instrs;      /* warp-instructions executed */
  uint64_t printf_bytes;     /* printf text written */
  uint64_t printf_dropped;   /* and dropped: beyond CUDA's 1 MiB FIFO */
} EmuLaunch;

#define EMU_MAX_THREADS 64
#define EMU_TRACE_BUDGET ((size_t)1 << 30) /* EmuLaunch.trace_budget's default */

/* Host threads emu_run uses: $WARPMEM_THREADS, else the online CPUs. */
int emu_threads(void);

/* Checks the launch against the limits, then runs every block.  Returns 0,
 * or -1 with a message naming the kernel, CUDA and PTX line, block, thread
 * and address of the first fault (WM_EFAULT, WM_EARITH, WM_EDEADLOCK,
 * WM_ELIMIT, WM_EUNSUP). */
int emu_run(EmuLaunch *l, WmErr *e);

/* Whether the emulator can run kernel k of m, without running it: the
 * parser's per-kernel refusal (ptx_find_kernel) has been passed already;
 * this decodes k as a launch would (emu_prepare) and frees the result.
 * Returns 0, or -1 with the located reason (WM_EUNSUP, ...).  For
 * `warpmem isa --scan`. */
int emu_check(const PtxModule *m, const PtxKernel *k, WmErr *e);

#endif
