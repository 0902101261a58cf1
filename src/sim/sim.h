/* sim.h - one launch end to end: bind its arguments, run it in the
 * emulator with the memory model on, then the caches, DRAM and the time
 * model (sim_model.c), and the occupancy beside them.
 *
 * Used by the `sim` command, the lab, the benchmark and the tests: every
 * path from a launch spec to counters goes through sim_run_launch().
 * Configuration (SimOptions) is separate from the result (SimRun).
 */
#ifndef WM_SIM_H
#define WM_SIM_H

#include <stdint.h>

#include "arch/arch.h"
#include "arch/occupancy.h"
#include "emu/emu.h"
#include "launch/launch.h"
#include "mem/cache.h"
#include "mem/mem.h"
#include "model/model.h"

typedef struct SimOptions {
  MemConfig cfg;         /* the preset and the memory model's switches */
  InitKind init;         /* how buffers without an explicit init are filled */
  uint64_t seed, mem_limit;
  uint64_t max_threads;  /* most threads a launch may have (simulation time) */
  const char *kernel, *dump_dir;
  uint32_t grid[3], block[3], smem;
  int have_grid, have_block, smem_set;
  const char **args;
  int nargs;
  const char **consts;   /* --const specs */
  int nconsts;
  int keep_buffers;      /* sim_run_launch keeps the buffers in SimRun.gmem */
  int sample;            /* --sample N: simulate every N-th wave of resident
                            blocks and scale the counters (1: all) */
  int regs;              /* --regs N: registers per thread for occupancy,
                            over ptxas; 0: not given */
  int carveout_pct;      /* --carveout PCT, or OCC_CARVEOUT_DEFAULT */
  uint32_t stack_size;   /* --stack-size: call stack bytes per thread (0: 1 KiB) */
  uint64_t heap_size;    /* --heap-size: bytes of malloc's heap (0: 8 MiB) */
  int cooperative;       /* --cooperative: every launch is cooperative */
  uint32_t cluster[3];   /* --cluster X,Y,Z: every launch's cluster (0: its own) */
  int cluster_nonportable; /* --nonportable-cluster: clusters of up to 16 blocks */
  int functional;        /* outputs only: no memory model, caches or time
                            (as SimBound.functional; the benchmark's
                            emulation-only stage) */
  FILE *printf_out;      /* device printf's text (NULL: stdout) */
  struct EmuCheck *check;/* `warpmem check` (emu/emu_check.h): each launch is
                            checked; buffers without an init are uninitialized
                            for initcheck unless init_given */
  int init_given;        /* --init was given */
  uint64_t max_instrs;   /* --max-instructions: the watchdog's budget of warp
                            instructions per launch (0: EMU_MAX_INSTRS_DEFAULT) */
  double timeout;        /* --timeout: wall seconds per launch (0: none) */
} SimOptions;

typedef struct SimRun {
  MemModel mm;
  const PtxKernel *kernel;
  uint64_t thread_instrs;
  double seconds;
  GlobalMem gmem;        /* the buffers after the run, if keep_buffers */
  int have_gmem;
  /* occupancy of the launch on cfg.arch: blocks per SM, the limiter, the
   * L1 left beside the shared-memory carveout (occ.l1_bytes) */
  OccResult occ;
  int have_occ;          /* 0: the block cannot run on the preset (occ_note says why) */
  int regs;              /* registers per thread the occupancy used */
  const char *regs_from; /* "ptxas -arch=sm_90", "--regs", "assumed" */
  char occ_note[256];    /* why the registers are assumed or the launch cannot run */
  ModelTime time;        /* predicted time (with caches) */
  ModelLaunch model;     /* and what the time model knew of the launch */
  int have_time;
  uint64_t blocks_run;   /* blocks simulated (fewer than the grid's with
                            --sample; the counters are scaled up) */
  char *approx;          /* located warnings, a line per instruction the
                            emulator computes only approximately
                            (emu_approx_notes); NULL if none */
} SimRun;

/* The caches and time model around one launch (sim_model.c). */
typedef struct SimModel {
  const Arch *arch;
  int blocks_per_sm;
  CacheSys cache;
  int on;
} SimModel;

void sim_model_begin(const SimOptions *o, const PtxKernel *k, const LaunchSpec *ls, const SimRun *run,
                     SimModel *cm, EmuLaunch *l);
void sim_model_end(SimModel *cm, const EmuLaunch *l, SimRun *run);
void sim_model_abort(SimModel *cm);

#define SIM_DEFAULT_MAX_THREADS (1ull << 32)

/* The defaults: the default preset, caches on, rand-initialized buffers. */
void sim_options_init(SimOptions *o);
/* The preset of o (the default if none was chosen). */
const Arch *sim_arch(const SimOptions *o);

/* Binds, runs and models one launch; run->mm holds the counters (free with
 * sim_run_free).  Errors name the launch. */
int sim_run_launch(const PtxModule *mod, const LaunchSpec *ls, const SimOptions *o, SimRun *run, WmErr *e);

/* A launch whose arguments are bound already, in memory that outlives it:
 * warpmem run's launches, on the application's cudaMalloc'd buffers. */
typedef struct SimBound {
  GlobalMem *gmem;          /* the buffers, kept (and changed) by the launch */
  const uint8_t *params;    /* the parameter buffer, kernel->param_size bytes */
  uint8_t *const_mem;       /* the module's constant bank (mod->const_size
                               bytes), relocated; NULL: its initializers */
  uint64_t global_base;     /* the module's .global segment, a buffer of gmem
                               made once by gmem_module_segment (relocated
                               with const_mem there; EmuLaunch.global_base);
                               0: the module has none (required otherwise) */
  int functional;           /* 1: outputs only, no memory model, caches or
                               time (ncu's unprofiled launches): run->mm all
                               zeros, have_time 0; occupancy, blocks_run,
                               thread_instrs and seconds are set */
} SimBound;

/* Runs ls's kernel (ls->name; its grid, block, smem, cooperative and label;
 * ls->args unused) on b.  Same results and errors as sim_run_launch (the
 * same counters for the same inputs at the same addresses), but nothing is
 * bound, nothing is allocated in b->gmem that outlives the launch except
 * the device heap of the first launch that calls malloc (kept, as CUDA
 * keeps it), and o's init, consts, dump_dir and keep_buffers are not used.
 * b->gmem is changed even when the launch fails (what ran before the
 * fault stays written, as on a GPU). */
int sim_run_bound(const PtxModule *mod, const LaunchSpec *ls, const SimBound *b, const SimOptions *o, SimRun *run,
                  WmErr *e);
void sim_run_free(SimRun *r);

/* Every launch's call of the emulator: emu_run, unless a runner is set.
 * Under mpirun, sim_mpi.c sets one that shards each launch over the ranks
 * (rank: this process's, of nranks); sim_rank() says which this is (0 and
 * 1 rank otherwise), so that only rank 0 prints and writes files. */
typedef int (*SimRunner)(EmuLaunch *l, WmErr *e);
void sim_set_runner(SimRunner r, int rank, int nranks);
int sim_rank(void);
int sim_nranks(void);

#endif
