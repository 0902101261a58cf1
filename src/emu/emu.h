/* emu.h - the SIMT emulator: runs a kernel's blocks, warp by warp, 32 lanes
 * per decoded instruction, and feeds memory instructions to the model. */
#ifndef WM_EMU_H
#define WM_EMU_H

#include <stdint.h>
#include <stdio.h>

#include "emu/gmem.h"
#include "mem/mem.h"
#include "ptx/ptx.h"

struct EmuLaunch;

/* A launch sharded over processes (MPI ranks; src/sim/sim_mpi.c fills it,
 * the emulator stays MPI-free).  The blocks, in run order j (after
 * sampling), are dealt in chunks of `chunk` consecutive blocks, chunk c to
 * process c % nproc; each process runs only its own.  The caches are
 * rank 0's: every other process hands its blocks' traces over in order of
 * j (deliver), and rank 0's ring takes them in (fetch) beside its own, so
 * the replay sees every block in launch order, as one process does. */
typedef struct EmuShard {
  uint64_t chunk;            /* a multiple of the replay's group (a group
                                never spans processes); >= the blocks:
                                rank 0 runs all, the others none */
  int rank, nproc;
  void *ctx;
  /* rank 0: into *t, the trace of block j run by another process (called
     in order of j); 0, or 1 when that process stopped sending (a fault) */
  int (*fetch)(void *ctx, uint64_t j, MemTrace *t);
  /* the others: block j's trace (in order of j) */
  void (*deliver)(void *ctx, uint64_t j, const MemTrace *t);
  /* every process, after its blocks: adds the others' statistics and
     instruction counts to rank 0's l, and agrees on the fault of the lowest
     block (`fault`: this process's lowest faulting block, UINT64_MAX if none,
     its message in *e).  0, or -1 with that fault's message in *e. */
  int (*finish)(void *ctx, struct EmuLaunch *l, uint64_t fault, WmErr *e);
} EmuShard;

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
  uint32_t cluster[3];       /* blocks per cluster in x, y, z (cudaLaunch-
                                AttributeClusterDimension); 0: the kernel's
                                .reqnctapercluster, else clusters of one
                                (emu_run sets it to what runs: all 0 for
                                an implicit 1x1x1 cluster).  The blocks of a
                                cluster run together, their warps
                                interleaved, on one host thread */
  int regs;                  /* registers a thread at launch (ptxas, --regs),
                                0: unknown (setmaxnreg's pool is not checked) */
  int cluster_nonportable;   /* cudaFuncAttributeNonPortableClusterSizeAllowed:
                                up to EMU_CLUSTER_MAX blocks, not 8 */
  uint64_t grid_ws;          /* set by emu_run: that workspace's address
                                (released when the launch ends), 0 for a
                                plain launch (grid.is_valid() false) */
  const EmuShard *shard;     /* NULL: this process runs every block */
  struct EmuCheck *check;    /* `warpmem check` (emu_check.h); NULL: off */
  uint64_t max_instrs;       /* the watchdog (emu_watch.c): warp instructions
                                the launch may run before it is stopped
                                (0: EMU_MAX_INSTRS_DEFAULT) */
  double timeout;            /* and wall seconds (0: no limit) */
  uint32_t run_set;          /* set by emu_run (emu_run_set): blocks an SM
                                holds at once run one after another */
  /* out */
  uint64_t blocks_run;       /* blocks run (all, unless sampling) */
  uint64_t thread_instrs;    /* lane-instructions executed */
  uint64_t warp_instrs;      /* warp-instructions executed */
  uint64_t warp_clocks;      /* and their dependent latencies, summed */
  uint64_t clock_epoch;      /* set by emu_run: this launch's, for the lines' times */
  uint64_t block_clocks;     /* each block's end in its warps' clock, times its
                                warps (kernels with mbarriers or wgmma) */
  uint64_t printf_bytes;     /* printf text written */
  uint64_t printf_dropped;   /* and dropped: beyond CUDA's 1 MiB FIFO */
  int noted_async_race;      /* a read before its cp.async completed was warned of (emu_async.c) */
} EmuLaunch;

#define EMU_MAX_THREADS 64
#define EMU_CLUSTER_MAX 16 /* blocks of a cluster: 8 portable, 16 non-portable on sm_90 */
/* The watchdog's default budget: 2^35 (3.4e10) warp instructions, 1.1e12
 * thread-instructions at full warps, 30 times the largest launch of
 * bench/large_kernels.cu (3e10 thread-instructions) and about 20 minutes
 * of emulation on one host thread; a kernel that runs longer is taken to
 * loop forever (--max-instructions raises it). */
#define EMU_MAX_INSTRS_DEFAULT (1ull << 35)
#define EMU_TRACE_BUDGET ((size_t)1 << 30) /* default of WARPMEM_TRACE_MB: bytes of block traces
                                              waiting for the cache replay (emu_grid.c) */

/* Checks the launch against the limits, then runs every block.  Returns 0,
 * or -1 with a message naming the kernel, CUDA and PTX line, block, thread
 * and address of the first fault (WM_EFAULT, WM_EARITH, WM_EDEADLOCK,
 * WM_ELIMIT, WM_EUNSUP). */
int emu_run(EmuLaunch *l, WmErr *e);

/* Sharding (emu_shard.c): the blocks of the run order process sh->rank
 * runs out of n, the q-th of them, and the process that runs block j. */
uint64_t emu_shard_count(const EmuShard *sh, uint64_t n);
uint64_t emu_shard_block(const EmuShard *sh, uint64_t q);
int emu_shard_owner(const EmuShard *sh, uint64_t j);
/* Consecutive blocks to deal to a process: the replay's group (1 without
 * caches) times as many as fit a chunk of the host threads (emu_grid.c), so
 * that a chunk is one process's and one thread's. */
uint64_t emu_shard_chunk(const EmuLaunch *l);
/* The blocks of an SM's wave that run in a row, one after another (the
 * SM's blocks of the replay's placement, so that the cache replay
 * interleaves them as the SM does), or 0: blocks run in launch order.  Only for kernels whose blocks
 * cannot wait for each other (emu_shard_unsafe), traced for the caches. */
uint32_t emu_run_set(const EmuLaunch *l);
/* The place in the run order of a block that runs (emu_run set up). */
uint64_t emu_place_of(const EmuLaunch *l, uint64_t block);
/* Whether sharding kernel k (of a plain launch, or a cooperative one) gives
 * exactly one process's result: 0 if so, else 1 with the reason in why[n]
 * (blocks that may communicate through global memory within the launch:
 * global atomics, volatile or acquire/release accesses, the device heap,
 * printf's order, a cooperative grid). */
int emu_shard_unsafe(const PtxKernel *k, int cooperative, char *why, size_t n);

/* Whether the emulator can run kernel k of m, without running it: the
 * parser's per-kernel refusal (ptx_find_kernel) has been passed already;
 * this decodes k as a launch would (emu_prepare) and frees the result.
 * Returns 0, or -1 with the located reason (WM_EUNSUP, ...).  For
 * `warpmem isa --scan`. */
int emu_check(const PtxModule *m, const PtxKernel *k, WmErr *e);

#endif
