/* cli.h - pieces of the command line shared by its subcommands. */
#ifndef WM_CLI_H
#define WM_CLI_H

#include <stdint.h>

#include "arch/arch.h"
#include "arch/occupancy.h"
#include "cli/launch.h"
#include "emu/emu.h"
#include "mem/cache.h"
#include "mem/mem.h"
#include "model/model.h"
#include "report/report.h"

typedef struct CliOptions {
  MemConfig cfg;
  ReportFormat format;
  int lines;
  InitKind init;
  uint64_t seed, mem_limit;
  uint64_t max_threads;  /* most threads a launch may have (simulation time) */
  const char *kernel, *dump_dir;
  uint32_t grid[3], block[3], smem;
  int have_grid, have_block, smem_set;
  const char **args;
  int nargs;
  const char **consts;  /* --const specs */
  int nconsts;
  int keep_buffers;     /* cli_run_launch keeps the buffers in CliRun.gmem */
  int sample;           /* --sample N: simulate every N-th wave of resident
                           blocks and scale the counters (1: all) */
  int regs;             /* --regs N: registers per thread for occupancy,
                           over ptxas; 0: not given */
  int carveout_pct;     /* --carveout PCT, or OCC_CARVEOUT_DEFAULT */
} CliOptions;

typedef struct CliRun {
  MemModel mm;
  const PtxKernel *kernel;
  uint64_t thread_instrs;
  double seconds;
  GlobalMem gmem;       /* the buffers after the run, if keep_buffers */
  int have_gmem;
  /* occupancy of the launch on cfg.arch: blocks per SM, the limiter, the
   * L1 left beside the shared-memory carveout (occ.l1_bytes) */
  OccResult occ;
  int have_occ;         /* 0: the block cannot run on the preset (occ_note says why) */
  int regs;             /* registers per thread the occupancy used */
  const char *regs_from; /* "ptxas -arch=sm_90", "--regs", "assumed" */
  char occ_note[256];   /* why the registers are assumed or the launch cannot run */
  ModelTime time;       /* predicted time (with caches) */
  int have_time;
  uint64_t blocks_run;  /* blocks simulated (fewer than the grid's with
                           --sample; the counters are scaled up) */
} CliRun;

/* The caches and time model around one launch (cli_model.c). */
typedef struct CliModel {
  const Arch *arch;
  int blocks_per_sm;
  CacheSys cache;
  int on;
} CliModel;

void cli_model_begin(const CliOptions *o, const PtxKernel *k, const LaunchSpec *ls, const CliRun *run,
                     CliModel *cm, EmuLaunch *l);
void cli_model_end(CliModel *cm, const EmuLaunch *l, CliRun *run);
void cli_model_abort(CliModel *cm);

#define CLI_DEFAULT_MAX_THREADS (1ull << 32)

void cli_options_init(CliOptions *o);
int cli_common_option(int argc, char **argv, int *i, CliOptions *o);
int cli_parse_size(const char *s, uint64_t *out);
/* --arch NAME: a preset name or alias (arch_find); sets cfg->arch and
 * cfg->sm.  Unknown: WM_EUSAGE listing the presets. */
int cli_parse_arch(const char *s, MemConfig *cfg, WmErr *e);
/* The preset of o (the default if none was chosen). */
const Arch *cli_arch(const CliOptions *o);
/* --carveout: 0-100 (percent of the most shared memory), max-l1 (0),
 * max-shared (100), default (OCC_CARVEOUT_DEFAULT).  -1 if malformed. */
int cli_parse_carveout(const char *s, int *pct);
double cli_now(void);
/* Prints e and returns the exit status it calls for (2 usage, 1 other). */
int cli_fail(const WmErr *e);
/* Prints "warpmem: " fmt (with one %s) and a hint; returns 2. */
int cli_usage_error(const char *fmt, const char *arg);

/* Binds, runs and models one launch; run->mm holds the counters (free with
 * cli_run_free).  Errors name the launch. */
int cli_run_launch(const PtxModule *mod, const LaunchSpec *ls, const CliOptions *o, CliRun *run, WmErr *e);
void cli_run_free(CliRun *r);

/* warpmem arch, warpmem occupancy (arch_cmd.c) */
int cli_arch_cmd(int argc, char **argv);
int cli_occupancy_cmd(int argc, char **argv);

/* warpmem lab */
int cli_lab(int argc, char **argv);

#endif
