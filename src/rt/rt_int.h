/* rt_int.h - inside the stand-in runtime's context (rt.h): the state the
 * rt_*.c files share, and their internal functions (rtx_*, hidden: the
 * library exports the rt_* API only).
 *
 * The files call each other in one direction (tools/check_layout.py
 * refuses cycles): rt_env < rt_ctx < rt_mem, rt_stream, rt_tex, rt_select <
 * rt_report < rt_module < rt_launch < rt_life; rt_err stands alone. */
#ifndef WM_RT_INT_H
#define WM_RT_INT_H

#include <pthread.h>
#include <regex.h>
#include <stdint.h>

#include "report/report.h"
#include "rt/rt.h"
#include "sim/sim.h"

#pragma GCC visibility push(hidden)

/* What the environment (rt_env.h) asked for. */
typedef struct RtConfig {
  SimOptions o;            /* preset, caches, loads, limits; printf to stdout */
  ReportFormat format;
  int lines;
  char *report_path;       /* NULL: stdout */
  char *kernel;            /* the kernel filter (NULL: every kernel) */
  int kernel_regex;        /* kernel is a POSIX ERE (re) */
  regex_t re;
  uint64_t skip, count;    /* ncu's --launch-skip, --launch-count (0: all) */
  int once;                /* --profile-once: a kernel's first selected launch only */
  int progress;            /* a line per launch on stderr */
  char *check_path;        /* run --check: the findings' file (NULL: no check) */
} RtConfig;

/* Reads the environment into c (o initialized); -1 with the message naming
 * the variable in err.  rtx_env_free releases it. */
int rtx_env_read(RtConfig *c, char *err, size_t n);
void rtx_env_free(RtConfig *c);

struct RtModule {
  int id;                  /* 1, 2, ... in order of loading */
  char name[96];           /* for messages: "app.1.ptx" */
  PtxModule *mod;          /* NULL: no usable device code (error says why) */
  char *error;             /* why mod is NULL */
  RtError error_code;
  uint64_t gbase;          /* its .global segment's buffer, 0: none */
  uint8_t *const_mem;      /* its constant bank (mod->const_size bytes) */
  int regs_done;           /* ptxas -v has been asked */
  int fused_done;          /* ptx_contractions has been asked */
  int loaded;              /* not unloaded yet */
  struct RtModule *next;
};

#define RT_FUNC_MAGIC 0x52544655u
struct RtFunction {
  uint32_t magic;
  RtModule *m;
  const PtxKernel *k;      /* NULL: not in the module (error names it) */
  char *name;              /* the PTX entry name */
  char *demangled;         /* the full C++ name, or NULL */
  char *base;              /* its own name: "Kernel" of "void ns::Kernel<int>(int*)" */
  const void *host;        /* the host stub, NULL for driver-API lookups */
  int max_dyn_smem;        /* cudaFuncAttributeMaxDynamicSharedMemorySize */
  int carveout;            /* percent, or OCC_CARVEOUT_DEFAULT */
  uint32_t cluster[3];     /* cudaFuncAttributeRequiredClusterWidth/Height/Depth set */
  int nonportable;         /* cudaFuncAttributeNonPortableClusterSizeAllowed */
  int cluster_policy;      /* cudaFuncAttributeClusterSchedulingPolicyPreference */
  int profiled;            /* a launch of it was profiled (--profile-once) */
  /* its last profiled launch's shape and predicted time: a functional
   * repeat of that shape advances the device clock as much (events time a
   * benchmark loop's repeats) */
  uint32_t timed_grid[3], timed_block[3], timed_smem;
  double timed_ns;
  struct RtFunction *next;
};

typedef struct RtVar {
  const void *host;        /* the host shadow */
  RtModule *m;
  char *name;
  const PtxVar *v;         /* NULL: not in the module */
  uint8_t *addr;           /* where it lives (unified buffer or constant bank) */
  uint64_t size;
} RtVar;

/* A launch, for the progress line, the reports and the summary table. */
typedef struct RtLaunchRec {
  RtFunction *f;
  char label[160];         /* "vadd#3" */
  uint32_t grid[3], block[3], smem;
  int profiled;
  ReportStatus status;
  char *error;             /* status != REPORT_OK: the located message */
  SimRun run;              /* profiled and ran: the counters */
  double ns;               /* predicted time (0: none) */
} RtLaunchRec;

#define RT_STREAM_MAGIC 0x52545354u
#define RT_EVENT_MAGIC 0x52544556u
struct RtStream {
  uint32_t magic;
  struct RtStream *next;
  uint8_t attr[RT_STREAM_ATTRS][RT_STREAM_ATTR_BYTES]; /* rt_stream_set_attr's values */
};
struct RtEvent {
  uint32_t magic;
  int timing, recorded;
  double t_ns;             /* the device clock when recorded */
  struct RtEvent *next;
};

typedef struct RtCtx {
  int inited;
  RtError init_error;
  RtConfig cfg;
  GlobalMem g;
  uint64_t nallocs;        /* names of allocations: "cudaMalloc#N" */
  RtModule *modules;
  int nmodules, live_modules;
  RtFunction *funcs;
  RtVar *vars;
  int nvars, capvars;
  RtLaunchRec *launches;
  int nlaunches, caplaunches;
  uint64_t matched, profiled; /* launches the filter matched, profiled */
  double clock_ns;
  RtStream *streams;
  RtEvent *events;
  RtError sticky;
  int reported;
  long pid;        /* the process that made the context: a child forked
                      from it does not write the reports at its exit */
  uint64_t printf_fifo;
  uint64_t limit[RT_LIMIT_COUNT]; /* the limits without effect, as set (0: the default) */
  struct EmuCheck *check;  /* run --check (cfg.check_path), NULL: none */
} RtCtx;

extern RtCtx rtx;

/* rt_mem.c: run --check's end: the allocations never freed (leaks), then
 * every finding to cfg.check_path, if anything was found. */
void rtx_check_flush(void);

/* rt_ctx.c: every rt_* function starts with rtx_enter (initializes, takes
 * the lock; with sticky, a sticky error is returned) and ends with
 * rtx_leave (sets the last error if r, drops the lock). */
RtError rtx_enter(int sticky);
RtError rtx_leave(RtError r);
/* The lock alone (rt_shutdown). */
void rtx_lock(void);
void rtx_unlock(void);
/* "==WARPMEM== " and the text on stderr. */
void rtx_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The sticky error e (a fault in a kernel). */
void rtx_set_sticky(RtError e);
/* Frees the context's state of rt_ctx.c (memory, config). */
void rtx_ctx_free(void);

/* rt_mem.c */
void rtx_mem_free_all(void);
/* Advances the device clock by a copy of n bytes. */
void rtx_clock_copy(uint64_t n);

/* rt_stream.c */
void rtx_streams_free(void);

/* rt_select.c: whether the next launch of f is profiled (counts it). */
int rtx_select(RtFunction *f);
/* The full C++ name of a mangled one (malloc'd), or NULL. */
char *rtx_demangle(const char *mangled);
/* The function's name alone in a demangled one (malloc'd), or NULL. */
char *rtx_base_name(const char *demangled);

/* rt_report.c */
void rtx_progress(const RtLaunchRec *r, int n);
void rtx_launches_free(void);

/* rt_module.c */
/* Registers per thread of m's kernels, from ptxas (once). */
void rtx_module_regs(RtModule *m);
/* ptxas's contractions of the module (ptx_contractions), once. */
void rtx_module_fused(RtModule *m);
/* The PTX text of fat binary fb for the preset (len bytes, 0: trust its
 * headers; fatbin_pick_ptx's choice), or NULL with e (rt_module.c). */
char *rtx_fatbin_ptx(const void *fb, size_t len, WmErr *e);
/* The PTX of device code a driver is handed: a fat binary (len bytes, 0:
 * its headers), or a wrapper (wrapper 1), whose -rdc=true units are linked
 * when it holds no PTX of its own (rtx_rdc_text; `what` names the module).
 * NULL with e. */
char *rtx_device_ptx(const void *image, int wrapper, size_t len, const char *what, WmErr *e);
/* -rdc=true (rt_rdc.c): the translation units' relocatable PTX behind a
 * device-link module's wrapper, linked into one text (malloc'd); NULL if
 * the wrapper lists none (e untouched) or they cannot be linked (e says
 * why, naming `module` and the unit). */
char *rtx_rdc_text(const void *wrapper, const char *module, WmErr *e);
/* A valid function (magic), else NULL. */
RtFunction *rtx_function(RtFunction *f);
void rtx_modules_free(void);

#pragma GCC visibility pop

#endif
