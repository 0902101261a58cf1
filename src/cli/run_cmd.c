/* run_cmd.c - `warpmem run [OPTIONS] APP [ARGS...]`: runs an unmodified
 * CUDA application with warpmem's CUDA runtime (build/rt) in place of
 * NVIDIA's.  This file reads and checks the options and the app; running
 * it is run_exec.c's, the report run_report.c's.  Every value is checked
 * here, before the app starts, so a typo costs no run. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "report/report.h"
#include "sim/sim_mpi.h"
#include "cli/cli.h"
#include "cli/run_cmd.h"

static const char *usage_run =
  "usage: warpmem run [OPTIONS] APP [ARGS...]\n"
  "\n"
  "Runs APP, an unmodified CUDA application, with warpmem's CUDA runtime in\n"
  "place of NVIDIA's: the host code runs natively, every kernel launch in the\n"
  "emulator with the application's own arguments and data.  No GPU is needed.\n"
  "APP runs as built: with the shared CUDA runtime (nvcc -cudart shared),\n"
  "with nvcc's and CMake's default static runtime (its calls reach warpmem's\n"
  "libcuda.so.1), or with the driver API alone (cuModuleLoadData, cuLaunchKernel).\n"
  "The first word that is not an option is APP; the rest are its arguments.\n"
  "APP without a '/' is looked up in PATH.\n"
  "\n"
  "After APP ends, one report per profiled launch follows its output, as\n"
  "warpmem sim writes them, and in text a summary table of every launch\n"
  "(name, grid, block, predicted time, limiter).\n"
  "\n"
  "which launches are profiled (Nsight Compute's options; the others run\n"
  "functionally only: results, no counters, much faster):\n"
  "  -k, --kernel-name NAME   launches of kernel NAME (its base name, mangled\n"
  "                   name or demangled signature), or regex:EXPR, a POSIX\n"
  "                   extended regular expression matched against each\n"
  "                   (default: all)\n"
  "  -s, --launch-skip N      skip the first N matching launches (default 0)\n"
  "  -c, --launch-count N     profile at most N matching launches (default: all)\n"
  "  --profile-once           profile the first matching launch of each kernel\n"
  "                           and run its repeats functionally (a benchmark\n"
  "                           loop's hundreds of launches in seconds)\n"
  "\n"
  "the model (as warpmem sim):\n"
  "  --arch NAME      GPU to model, as cudaGetDeviceProperties reports it:\n"
  "                   gt200, fermi, kepler, volta, ampere, hopper (h100) or\n"
  "                   h200 (sm_90, the default); see warpmem arch\n"
  "  --loads ca|cg    global loads without a cache operator: cached in L1 and\n"
  "                   L2 (ca) or in L2 only (cg), as nvcc -Xptxas -dlcm=ca|cg\n"
  "  --no-caches      L1 counters only: no L1/L2/DRAM replay, no predicted time\n"
  "  --mem-limit B    most bytes of device memory (cudaMalloc beyond it returns\n"
  "                   cudaErrorMemoryAllocation; default 16 GiB)\n"
  "  --stack-size B   call stack per thread (default 1K, as cudaLimitStackSize;\n"
  "                   cudaDeviceSetLimit changes it)\n"
  "  --heap-size B    the device heap of malloc and new (default 8M, as\n"
  "                   cudaLimitMallocHeapSize)\n"
  CLI_WATCH_USAGE
  "\n"
  "the report:\n"
  "  --format FMT     text (default), json, csv, ncu-csv or html (one page: memory\n"
  "                   chart, source view, occupancy, time); metric names are\n"
  "                   Nsight Compute's\n"
  "  --lines          per memory instruction: source line, requests, sectors or\n"
  "                   wavefronts per request, the ideal, and why\n"
  "  --lines=source   the same added up per CUDA source line\n"
  "  -o, --out FILE   write the report to FILE instead of stdout\n"
  "  -q, --quiet      no progress lines on stderr while APP runs\n"
  "  --check          check every launch as warpmem check does (memcheck,\n"
  "                   racecheck, synccheck, initcheck; cudaMalloc'd memory is\n"
  "                   uninitialized until a copy, memset or kernel writes it),\n"
  "                   plus device memory never freed (leaks) and double or\n"
  "                   invalid frees: the findings follow the report\n"
  "  --               ends the options (for an APP whose name starts with '-')\n"
  "\n"
  "B takes K, M and G suffixes (powers of 2).\n"
  "\n"
  "environment:\n"
  "  WARPMEM_RT_DIR   the folder of warpmem's libcudart.so.13 (.so.12) and\n"
  "                   libcuda.so.1 (default: rt beside the warpmem executable,\n"
  "                   build/rt; `make build` builds them)\n"
  "  WARPMEM_THREADS  host threads that run blocks (default: one per CPU)\n"
  "\n"
  "A fault in a kernel (an out-of-bounds access, a deadlock) prints warpmem's\n"
  "located error and makes the next CUDA call return CUDA's error\n"
  "(cudaErrorIllegalAddress, ...), so APP's own error handling runs; a launch\n"
  "the watchdog stops returns cudaErrorLaunchTimeout.\n"
  "See docs/run.md.\n"
  "\n"
  "exit status: APP's own (5 with --check when APP exited 0 and the check found\n"
  "something); 128+N if a signal N ended it; 1 if APP could not\n"
  "be run (not found, not an ELF executable, linked with the static CUDA\n"
  "runtime, warpmem's runtime not built) or the report not written; 2 a usage\n"
  "error.\n";

/* A count for --launch-skip/--launch-count: decimal digits, at most 10^9
 * (strtoull alone would take "-1" and wrap it). */
static int check_count(const char *s) {
  size_t n = strspn(s, "0123456789");
  return n > 0 && n <= 9 && s[n] == '\0' ? 0 : -1;
}

/* NAME, or regex:EXPR that regcomp accepts (its message if not). */
static int check_kernel(const char *s) {
  if (!*s) return cli_usage_error("--kernel-name takes a kernel name or regex:EXPR, not '%s'", s);
  if (strncmp(s, "regex:", 6)) return -1;
  regex_t re;
  int rc = regcomp(&re, s + 6, REG_EXTENDED | REG_NOSUB);
  if (rc == 0) {
    regfree(&re);
    return -1;
  }
  char why[256];
  regerror(rc, &re, why, sizeof why);
  fprintf(stderr, "warpmem: --kernel-name %s: not a POSIX extended regular expression: %s\n"
                  "(see warpmem run --help)\n", s, why);
  return 2;
}

/* --arch, --loads, --no-caches, --mem-limit, --stack-size, --heap-size:
 * checked as warpmem sim checks them (cli_common_option), kept as given
 * for the runtime.  Returns 1 taken, 0 not one, else an exit status + 2. */
static int model_option(int argc, char **argv, int *i, RunCmd *c) {
  static const char *const names[] = {"--arch", "--loads", "--no-caches", "--mem-limit", "--stack-size",
                                      "--heap-size", "--max-instructions", "--timeout"};
  const char *a = argv[*i];
  if (cli_choice(a, names, (int)(sizeof names / sizeof *names)) < 0) return 0;
  SimOptions o;
  sim_options_init(&o);
  int st = cli_common_option(argc, argv, i, &o);
  if (st != 1) return st;
  if (!strcmp(a, "--arch")) c->arch = argv[*i];
  else if (!strcmp(a, "--loads")) c->loads = argv[*i];
  else if (!strcmp(a, "--no-caches")) c->no_caches = 1;
  else if (!strcmp(a, "--mem-limit")) c->mem_limit = o.mem_limit;
  else if (!strcmp(a, "--stack-size")) c->stack_size = o.stack_size;
  else if (!strcmp(a, "--max-instructions")) c->max_instrs = argv[*i];
  else if (!strcmp(a, "--timeout")) c->timeout = argv[*i];
  else c->heap_size = o.heap_size;
  return 1;
}

static int is_value_option(const char *a) {
  static const char *const names[] = {"--format", "--out", "-o", "--kernel-name", "-k", "--launch-skip", "-s",
                                      "--launch-count", "-c"};
  return cli_choice(a, names, (int)(sizeof names / sizeof *names)) >= 0;
}

/* One of is_value_option()'s, with its value v.  Returns -1 to go on, else
 * an exit status. */
static int value_option(RunCmd *c, const char *a, const char *v) {
  if (!strcmp(a, "--format")) {
    ReportFormat f;
    if (cli_format_option("--format", v, REPORT_RUN_FORMATS, &f)) return 2;
    c->format = report_format_name[f];
  } else if (!strcmp(a, "--out") || !strcmp(a, "-o")) {
    if (!*v) return cli_usage_error("--out takes a file name, not '%s'", v);
    c->out = v;
  } else if (!strcmp(a, "--kernel-name") || !strcmp(a, "-k")) {
    int st = check_kernel(v);
    if (st >= 0) return st;
    c->kernel = v;
  } else if (!strcmp(a, "--launch-skip") || !strcmp(a, "-s")) {
    if (check_count(v)) return cli_usage_error("--launch-skip takes a count of launches (0 or more), not '%s'", v);
    c->skip = v;
  } else {
    if (check_count(v)) return cli_usage_error("--launch-count takes a count of launches (0 or more), not '%s'", v);
    c->count = v;
  }
  return -1;
}

/* One option at argv[*i] (not APP).  Returns -1 to go on, else an exit
 * status. */
static int one_option(int argc, char **argv, int *i, RunCmd *c) {
  const char *a = argv[*i];
  int st = model_option(argc, argv, i, c);
  if (st >= 2) return st - 2;
  if (st == 1) return -1;
  if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
    fputs(usage_run, stdout);
    return 0;
  }
  if (!strcmp(a, "--lines") || !strcmp(a, "--lines=ptx")) c->lines = REPORT_LINES_PTX;
  else if (!strcmp(a, "--lines=source")) c->lines = REPORT_LINES_SOURCE;
  else if (!strcmp(a, "--check")) c->check = 1;
  else if (!strcmp(a, "--profile-once")) c->once = 1;
  else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) c->quiet = 1;
  else if (is_value_option(a)) {
    if (*i + 1 >= argc) return cli_usage_error("%s needs a value", a);
    return value_option(c, a, argv[++*i]);
  } else return cli_usage_error("unknown option '%s' (APP comes after the options; -- ends them)", a);
  return -1;
}

/* Reads the command line into c: options up to APP (or --), then APP and
 * its arguments untouched.  Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, RunCmd *c) {
  memset(c, 0, sizeof *c);
  c->quiet = sim_mpi_env_rank() > 0; /* under mpirun, rank 0 tells the progress */
  c->format = "text";
  int i = 2;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (a[0] != '-' || !a[1]) break;
    int st = one_option(argc, argv, &i, c);
    if (st >= 0) return st;
  }
  if (i >= argc) return cli_usage_error("%s", "run needs an APP to run (warpmem run [OPTIONS] APP [ARGS...])");
  if (!argv[i][0]) return cli_usage_error("%s", "APP is an empty name");
  c->app = argv[i];
  c->app_argv = &argv[i];
  if (sim_mpi_env_rank() > 0 && c->out) c->out = "/dev/null"; /* under mpirun, rank 0 writes the report */
  return -1;
}

/* A script (#!INTERP) is not refused for nothing: the CUDA program it
 * starts inherits warpmem's runtime when its interpreter is what runs. */
static int script_hint(const char *path, WmErr *e) {
  char line[256] = "";
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int got = fgets(line, sizeof line, f) != NULL;
  fclose(f);
  if (!got || strncmp(line, "#!", 2)) return 0;
  line[strcspn(line, "\r\n")] = '\0';
  const char *interp = line + 2 + strspn(line + 2, " \t");
  wm_err(e, WM_EIO, "%s is a script (#!%s), not an application: run its interpreter, e.g. "
         "warpmem run %.*s %s ...; the CUDA applications it starts load warpmem's runtime", path, interp,
         (int)strcspn(interp, " \t"), interp, path);
  return 1;
}

/* The app's ELF facts: a 64-bit ELF executable.  One linked with the
 * static runtime runs too: that runtime loads libcuda.so.1 with dlopen,
 * and warpmem's stands in for it (rt/api_driver_export.c). */
static int check_app(const RunCmd *c, RunPlan *p, WmErr *e) {
  if (run_resolve_app(c->app, p->app_path, sizeof p->app_path, e)) return -1;
  if (elf_inspect(p->app_path, &p->elf, e)) {
    script_hint(p->app_path, e);
    return -1;
  }
  if (!p->elf.is_elf64)
    return wm_err(e, WM_EIO, "%s is not a 64-bit ELF executable (warpmem run runs compiled CUDA applications; "
                  "for a .cu or .ptx file use warpmem sim)", p->app_path);
  return 0;
}

int cli_run_cmd(int argc, char **argv) {
  RunCmd c;
  int st = parse_options(argc, argv, &c);
  if (st >= 0) return st;
  static RunPlan p; /* large paths: not on the stack */
  memset(&p, 0, sizeof p);
  WmErr e = {0};
  if (check_app(&c, &p, &e) || run_find_rt(&p.elf, p.rt_dir, sizeof p.rt_dir, &e) ||
      run_report_prepare(&c, &p, &e)) {
    wm_err_print(&e);
    return 1;
  }
  run_set_env(&c, &p);
  run_check_loader(&p);
  run_check_lib_symbols(&p);
  int wstatus = 0;
  if (run_app(&c, &p, &wstatus, &e)) {
    run_report_finish(&c, &p, -1);
    wm_err_print(&e);
    return 1;
  }
  return run_report_finish(&c, &p, wstatus);
}
