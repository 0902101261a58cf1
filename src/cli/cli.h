/* cli.h - pieces of the command line shared by its subcommands. */
#ifndef WM_CLI_H
#define WM_CLI_H

#include <stdint.h>

#include "cli/launch.h"
#include "mem/mem.h"
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
} CliOptions;

typedef struct CliRun {
  MemModel mm;
  const PtxKernel *kernel;
  uint64_t thread_instrs;
  double seconds;
  GlobalMem gmem;       /* the buffers after the run, if keep_buffers */
  int have_gmem;
} CliRun;

#define CLI_DEFAULT_MAX_THREADS (1ull << 32)

void cli_options_init(CliOptions *o);
int cli_common_option(int argc, char **argv, int *i, CliOptions *o);
int cli_parse_size(const char *s, uint64_t *out);
int cli_parse_arch(const char *s, MemConfig *cfg, WmErr *e);
double cli_now(void);
/* Prints e and returns the exit status it calls for (2 usage, 1 other). */
int cli_fail(const WmErr *e);
/* Prints "warpmem: " fmt (with one %s) and a hint; returns 2. */
int cli_usage_error(const char *fmt, const char *arg);

/* Binds, runs and models one launch; run->mm holds the counters (free with
 * cli_run_free).  Errors name the launch. */
int cli_run_launch(const PtxModule *mod, const LaunchSpec *ls, const CliOptions *o, CliRun *run, WmErr *e);
void cli_run_free(CliRun *r);

/* warpmem lab */
int cli_lab(int argc, char **argv);

#endif
