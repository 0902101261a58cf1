/* rt_env.h - how `warpmem run` (src/cli/run_cmd.c) tells the stand-in CUDA
 * runtime inside the application (src/rt) what to do: environment
 * variables, read once when the runtime starts.  A variable left unset
 * takes the default of `warpmem sim`; a bad value is an error naming the
 * variable, printed on stderr by the runtime, which then fails every CUDA
 * call with cudaErrorInitializationError (never a silent default). */
#ifndef WM_RT_ENV_H
#define WM_RT_ENV_H

#define RT_ENV_REPORT   "WARPMEM_RUN_REPORT"   /* file the reports go to at exit (else stdout) */
#define RT_ENV_FORMAT   "WARPMEM_RUN_FORMAT"   /* text | json | csv | ncu-csv | html */
#define RT_ENV_LINES    "WARPMEM_RUN_LINES"    /* 1: per-instruction tables (sim --lines), 2: per source line */
#define RT_ENV_ARCH     "WARPMEM_RUN_ARCH"     /* preset name (warpmem arch); default h200 */
#define RT_ENV_KERNEL   "WARPMEM_RUN_KERNEL"   /* ncu --kernel-name: a name, or regex:EXPR (POSIX ERE) */
#define RT_ENV_SKIP     "WARPMEM_RUN_SKIP"     /* ncu --launch-skip N: matching launches not profiled first */
#define RT_ENV_COUNT    "WARPMEM_RUN_COUNT"    /* ncu --launch-count N: profile at most N (0: all) */
#define RT_ENV_ONCE     "WARPMEM_RUN_ONCE"     /* 1: profile each kernel's first matching launch only */
#define RT_ENV_CACHES   "WARPMEM_RUN_CACHES"   /* 0: --no-caches */
#define RT_ENV_LOADS    "WARPMEM_RUN_LOADS"    /* ca | cg (sim --loads) */
#define RT_ENV_PROGRESS "WARPMEM_RUN_PROGRESS" /* 0: no progress lines on stderr */
#define RT_ENV_MEMLIMIT "WARPMEM_RUN_MEM_LIMIT"/* bytes of device memory (sim --mem-limit) */
#define RT_ENV_STACK    "WARPMEM_RUN_STACK"    /* sim --stack-size */
#define RT_ENV_HEAP     "WARPMEM_RUN_HEAP"     /* sim --heap-size */
#define RT_ENV_CHECK    "WARPMEM_RUN_CHECK"    /* run --check: every launch checked (emu/emu_check.h),
                                                  the findings written to this file at exit */
#define RT_ENV_MAXINSTR "WARPMEM_RUN_MAX_INSTRUCTIONS" /* sim --max-instructions */
#define RT_ENV_TIMEOUT  "WARPMEM_RUN_TIMEOUT"  /* sim --timeout (seconds) */

#endif
