/* run_cmd.h - `warpmem run`: the pieces of the command (run_cmd.c parses
 * and checks, run_exec.c prepares the environment and runs the app, and
 * run_report.c hands the runtime's report on). */
#ifndef WM_RUN_CMD_H
#define WM_RUN_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "util/elf.h"
#include "util/diag.h"

/* What `warpmem run` was asked.  Strings point into argv; NULL (or 0) is
 * "not given": the runtime then takes `warpmem sim`'s default. */
typedef struct RunCmd {
  const char *format;      /* text | json | csv */
  const char *out;         /* --out FILE (NULL: stdout) */
  const char *arch;        /* a preset name, checked */
  const char *kernel;      /* NAME or regex:EXPR, checked */
  const char *loads;       /* ca | cg */
  const char *skip, *count;/* --launch-skip/--launch-count, checked digits */
  uint64_t mem_limit, stack_size, heap_size;
  const char *max_instrs, *timeout; /* the watchdog's, checked */
  int lines, no_caches, quiet;
  int check;               /* --check: every launch checked (warpmem check's tools) */
  int once;                /* --profile-once: a kernel's first launch profiled, its repeats functional */
  const char *app;         /* APP as given */
  char **app_argv;         /* APP and its arguments, NULL-terminated (argv's tail) */
} RunCmd;

/* Where the app and the stand-in runtime are, and what the app needs. */
typedef struct RunPlan {
  char app_path[4096];     /* APP resolved through PATH */
  char rt_dir[4096];       /* the folder of libcudart.so.N, libcuda.so.1 */
  char report_dir[4096];   /* a temporary folder of our own */
  char report[4200];       /* the report file the runtime writes at exit */
  char check[4200];        /* --check: the findings' file the runtime writes at exit */
  FILE *out;               /* --out FILE, opened before the run (NULL: stdout) */
  int preload_asan;        /* warpmem's libraries are ASan's: libasan preloaded */
  ElfInfo elf;
} RunPlan;

/* run_exec.c */
/* APP through $PATH as execvp finds it (a name without '/'), checked to be
 * an executable file. */
int run_resolve_app(const char *app, char *path, size_t n, WmErr *e);
/* $WARPMEM_RT_DIR, else the folder `rt` beside the warpmem executable;
 * checks that it holds the libraries the app needs (elf). */
int run_find_rt(const ElfInfo *elf, char *dir, size_t n, WmErr *e);
/* Exports the runtime's variables (rt/rt_env.h) for c and the report file,
 * and puts rt_dir first on LD_LIBRARY_PATH; unsets those not asked for so
 * that a stale one from the caller's shell has no say. */
void run_set_env(const RunCmd *c, const RunPlan *p);
/* Asks the dynamic loader which CUDA libraries the app would load; where
 * one is not warpmem's (an RPATH to NVIDIA's), preloads warpmem's in its
 * place with a note; preloads the sanitizer runtime when warpmem's
 * libraries need it.  Never fails the run: a loader that cannot tell leaves
 * things as they are. */
void run_check_loader(RunPlan *p);
/* Names, on stderr, the cuBLAS, cuBLASLt and cuRAND functions the app
 * imports that warpmem's stand-ins in p->rt_dir do not define (run_libs.c). */
void run_check_lib_symbols(const RunPlan *p);
/* Runs the app with its arguments and waits: returns its wait status, or
 * -1 with e filled if it could not be started. */
int run_app(const RunCmd *c, const RunPlan *p, int *wstatus, WmErr *e);

/* run_report.c */
/* A temporary folder for the report (p->report_dir, p->report), and --out
 * opened now, so that a path that cannot be written costs no run. */
int run_report_prepare(const RunCmd *c, RunPlan *p, WmErr *e);
/* Says how the app ended (wstatus; -1: it never started), copies the
 * report to --out or stdout, or if there is none says why it may be missing
 * (the app's ELF facts and how it ended), and removes the temporary folder.
 * Returns warpmem run's exit status: the app's, 128+N for a signal N, 1 if
 * the report could not be written. */
int run_report_finish(const RunCmd *c, const RunPlan *p, int wstatus);

#endif
