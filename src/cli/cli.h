/* cli.h - pieces of the command line shared by its subcommands.  The
 * commands parse options, call the layers below (sim, lab, gpu, arch) and
 * print; only this layer prints errors and chooses exit statuses. */
#ifndef WM_CLI_H
#define WM_CLI_H

#include <stdint.h>

#include "report/report.h"
#include "sim/sim.h"

/* Exit statuses of the commands that run a file's launches (sim, lab, gpu
 * run): 0 all ran, 1 an error (nothing to report: the file cannot be read or
 * parsed, nvcc failed, a single launch from the options failed), 2 a usage
 * error, 3 no GPU (gpu only), 4 some launches were refused or failed while
 * the others ran: each is reported in its place. */
#define CLI_EXIT_SOME_NOT_RUN 4

/* Flags for nvcc when FILE is a .cu (sim, gpu run): -I DIR, -D NAME[=V],
 * -std=X, --nvcc-flag FLAG, in the order given; pointers into argv. */
#define CLI_MAX_NVCC_FLAGS 128
typedef struct CliNvcc {
  const char *flag[CLI_MAX_NVCC_FLAGS];
  int n;
} CliNvcc;
/* One of them at argv[*i]: returns 1 (taken, *i past its value), 0 (not
 * one) or an exit status + 2 (>= 2) on a missing value or too many. */
int cli_nvcc_option(int argc, char **argv, int *i, CliNvcc *f);
#define CLI_NVCC_USAGE \
  "  -I DIR, -D NAME[=VALUE], -std=c++17, --nvcc-flag FLAG (repeatable)\n" \
  "                   passed to nvcc for a .cu, in order, before the file: the\n" \
  "                   include paths, macros and flags of the project's build;\n" \
  "                   a failed compile shows nvcc's message and the command\n"

/* Simulation options shared by sim and lab (--arch, --loads, --init, ...);
 * returns 1 if argv[*i] was one, 0 if not, or an exit status + 2 (so >= 2)
 * on a bad value. */
int cli_common_option(int argc, char **argv, int *i, SimOptions *o);
/* --max-instructions or --timeout (a) with its value v (NULL: none). */
int cli_watch_option(const char *a, const char *v, SimOptions *o);
#define CLI_WATCH_USAGE \
  "  --max-instructions N  the watchdog: stop a launch that runs more than N warp\n" \
  "                   instructions (default 2^35 = 3.4e10, 1.1e12 thread-\n" \
  "                   instructions: 30x the largest benchmark launch) as an\n" \
  "                   endless loop, naming where its warps are\n" \
  "  --timeout S      the same after S seconds of wall-clock time (default none)\n"
int cli_parse_size(const char *s, uint64_t *out);
/* The index of s in words[0..n-1] (an option's value; NULL words are
 * skipped), or -1. */
int cli_choice(const char *s, const char *const *words, int n);
/* --arch NAME: a preset name or alias (arch_find); sets cfg->arch and
 * cfg->sm.  Unknown: WM_EUSAGE listing the presets. */
int cli_parse_arch(const char *s, MemConfig *cfg, WmErr *e);
/* --carveout: 0-100 (percent of the most shared memory), max-l1 (0),
 * max-shared (100), default (OCC_CARVEOUT_DEFAULT).  -1 if malformed. */
int cli_parse_carveout(const char *s, int *pct);
/* Whether e is about one launch (an unsupported instruction, arguments
 * that do not bind, a limit, a fault, a failed GPU launch), so the others
 * run on; otherwise (usage, I/O) it ends the command. */
int cli_launch_error(const WmErr *e);
/* The kernel NAME (PTX or plain C++ name) of mod, whether warpmem can run
 * it or not (ptx_find_kernel refuses those it cannot), or NULL: for a
 * report's heading, and for the GPU, which runs what warpmem refuses. */
const PtxKernel *cli_named_kernel(const PtxModule *mod, const char *name);
/* The report's row for launch ls, simulated into r with options o
 * (sim_cmd.c; also the C API's, src/api): it points into all three. */
ReportRun cli_report_row(const PtxModule *mod, const LaunchSpec *ls, const SimRun *r, const SimOptions *o);
/* Prints "warpmem: " fmt (with one %s) and a hint; returns 2. */
int cli_usage_error(const char *fmt, const char *arg);

/* --format's value v among the formats `allowed` (report.h's
 * REPORT_*_FORMATS) into *f: 0, or the usage error's exit status (2), the
 * message naming `what` ("--format") and the formats it takes. */
int cli_format_option(const char *what, const char *v, unsigned allowed, ReportFormat *f);

/* warpmem sim (sim_cmd.c) */
int cli_sim_cmd(int argc, char **argv);
/* warpmem check (check_cmd.c): exit status 5 when a check found something
 * (4 when none did but some launches were refused, as sim). */
#define CLI_EXIT_CHECK_FOUND 5
int cli_check_cmd(int argc, char **argv);
/* sim's options and launches, each checked by the tools (a bit per
 * EmuChkTool) and reported by cli_check_launches. */
typedef int CliCheckFn(const PtxModule *mod, const LaunchSpec *ls, int n, SimOptions *o, unsigned tools, int json,
                       const char *file);
int cli_sim_check(int argc, char **argv, unsigned tools, CliCheckFn *run);
/* warpmem run (run_cmd.c): an application with warpmem's CUDA runtime */
int cli_run_cmd(int argc, char **argv);
/* warpmem arch, warpmem occupancy (arch_cmd.c) */
int cli_arch_cmd(int argc, char **argv);
int cli_occupancy_cmd(int argc, char **argv);
/* warpmem isa (isa_cmd.c) */
int cli_isa_cmd(int argc, char **argv);
/* warpmem isa --scan (isa_scan.c): loads each file (a .cu with nvcc for
 * `arch`, NULL: the default target), prints every kernel as ok or refused
 * with its reason, and the refusals grouped by reason; text or JSON.
 * Returns 0, ISA_SCAN_REFUSED if a kernel was refused, 1 if a file could
 * not be loaded. */
#define ISA_SCAN_REFUSED 3
int cli_isa_scan(const char *const *paths, int n, const char *arch, int json);
/* warpmem lab (lab_cmd.c) */
int cli_lab_cmd(int argc, char **argv);

#endif
