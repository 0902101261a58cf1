/* report_doc.h - the one data model every report renders (docs/report.md).
 *
 * A report is a ReportDoc: what produced it (command, date, the simulated
 * preset), and either
 *   - launches (ReportRun): `warpmem sim` and `warpmem run`, one per
 *     simulated launch, with its counters, its memory instructions, its
 *     predicted time, its occupancy and whether it ran; or
 *   - the lab's catalogue: groups of experiments of launches
 *     (ReportLabLaunch: the launch as the catalogue gives it, its simulation,
 *     its measurement on the GPU, its kept accesses for the pictures) and the
 *     device's reference points (ReportDevice); or
 *   - counters compared with measured ones (ReportVs: `lab --ncu`,
 *     `lab --groundtruth`).
 * Producers (src/cli, src/rt, src/lab) fill it; the renderers of src/report
 * read it and write text, markdown, JSON, CSV, ncu-csv or HTML.  Nothing in
 * it points back into a producer's own structures: the strings and arrays
 * it points to live as long as the producer keeps them, and every renderer
 * takes the document as const.
 */
#ifndef WM_REPORT_DOC_H
#define WM_REPORT_DOC_H

#include <stdint.h>
#include <stdio.h>

#include "arch/occupancy.h"
#include "launch/launch.h"
#include "mem/mem.h"
#include "mem/metrics.h"
#include "model/model.h"
#include "ptx/ptx.h"

/* ---- a launch of sim and run ------------------------------------------------ */

/* Whether a launch ran: refused before it ran (an unsupported instruction,
 * arguments that do not bind, a limit) or failed while running (a fault, a
 * division by zero, a deadlock).  Names in report_status_name. */
typedef enum { REPORT_OK, REPORT_REFUSED, REPORT_FAILED } ReportStatus;

typedef struct ReportRun {
  const char *launch;        /* NAME#VARIANT */
  const PtxModule *mod;
  const PtxKernel *kernel;
  uint32_t grid[3], block[3];
  uint32_t smem;             /* dynamic shared bytes */
  const MemModel *mm;        /* metrics and per-instruction statistics */
  uint64_t thread_instrs;    /* lane-instructions executed */
  double seconds;            /* wall time of the simulation */
  /* occupancy on the preset (all optional: NULL/0 leave it out) */
  const Arch *arch;          /* the preset */
  const OccResult *occ;      /* NULL if the block cannot run there */
  int regs;                  /* registers per thread it used */
  const char *regs_from;     /* "ptxas -arch=sm_90", "--regs", "assumed" */
  const char *occ_note;      /* why registers are assumed, or why the
                                block cannot run ("" or NULL: nothing) */
  /* caches, DRAM and time (optional: NULL leaves them out) */
  const ModelTime *time;     /* predicted time and its bounds */
  uint64_t blocks_run;       /* blocks simulated, if fewer than the grid's
                                (--sample); 0: all */
  /* a launch that did not run (no counters): REPORT_REFUSED or
     REPORT_FAILED and its located message */
  ReportStatus status;
  const char *error;
  /* located warnings, one line per instruction computed only approximately
     (text: after the launch; JSON: "warnings"); NULL: none */
  const char *warnings;
} ReportRun;

/* ---- the lab ---------------------------------------------------------------- */

/* One memory instruction of a simulated launch, kept (by its producer) for
 * the pictures once the launch's module is gone. */
typedef struct ReportAccess {
  uint32_t ptx_line, cu_line;
  char src[64];            /* the CUDA file's base name, "" if none */
  char text[96];           /* the PTX instruction */
  LineStat ls;             /* its statistics and kept access (ls.pic) */
} ReportAccess;

/* One timing series on the GPU (a median of samples). */
typedef struct ReportStats {
  int n, discarded;        /* samples kept, dropped as throttled */
  double median_s, min_s, max_s, noise, clock_mhz, spent_s;
  int batch;               /* launches per sample */
  const char *stop;        /* why the series stopped */
} ReportStats;

/* A launch measured on the GPU. */
typedef struct ReportMeasured {
  int timed;               /* cold, hot and the rates below are set */
  ReportStats cold, hot;
  double cold_gbps, hot_gbps, hot_gflops;
  int regs, local_bytes;   /* the kernel's attributes on the device */
  double speedup;          /* baseline hot median / this one's, 0: none */
  double pct_peak;         /* % of the copy bandwidth or of cuBLAS, 0: none */
  const char *outputs;     /* "equal", "equal but 1 (race)", "3 of 4096 differ
                              ...", a failure; "": not compared */
  int outputs_ok;
  const char *error;       /* a failure on the GPU for this launch, "": none */
} ReportMeasured;

/* One launch of the catalogue: as given, simulated, measured. */
typedef struct ReportLabLaunch {
  const LaunchSpec *sim;   /* the //@ line: the simulated launch */
  const LaunchSpec *gpu;   /* the //! gpu: line, or the same as sim */
  int has_gpu_spec;        /* a gpu: line was given */
  double bytes, flops;     /* at the GPU size, as the seed counts them; 0: none */
  double seed_speedup;     /* the seed's speedup over the baseline, 0: none */
  const char *reported;    /* the seed's words for it, or NULL */
  const char *why;         /* why ours differs (this launch), or NULL */
  int carveout;            /* shared-memory carveout percent, -1: default */
  /* the simulation at the //@ size */
  int simulated;
  ReportStatus status;     /* REPORT_REFUSED / REPORT_FAILED: not simulated */
  const char *error;       /* why, located */
  int twin;                /* the launch (index in the document) whose
                              identical simulation it reuses, or -1 */
  const uint64_t *metric;  /* [WM_M_COUNT] */
  double seconds;          /* wall time of its simulation */
  uint64_t thread_instrs;
  int regs, blocks_per_sm; /* occupancy on the preset */
  double scale;            /* GPU-size work / simulated work */
  double pred_ns;          /* predicted time at the GPU size, 0: no model */
  /* the GPU (the document's device.have_gpu) */
  ReportMeasured gpu_run;
  /* the pictures: its memory instructions by PTX line (none kept: 0) */
  const ReportAccess *acc;
  int nacc;
  MemGen gen;              /* the rules the pictures follow */
} ReportLabLaunch;

/* An experiment: launches[first .. first+n-1], the first its baseline. */
typedef struct ReportExp {
  const char *name, *title, *seed_says, *why;
  const char *peak;        /* what %peak compares with: "copy", "cublas", "none" */
  int peak_n;              /* the SGEMM size of "cublas", else 0 */
  const char *baseline;    /* its first launch's label (shown or not) */
  int first, n;
} ReportExp;

/* A group (one seed's table): exps[first .. first+n-1]. */
typedef struct ReportGroup {
  const char *name, *title;
  const char *file;        /* its catalogue file */
  int seed;                /* the seed document's number, -1: none */
  int first, n;
} ReportGroup;

/* The device the lab measured on, and its reference points. */
typedef struct ReportDevice {
  int have_gpu;
  const char *no_gpu_reason;
  const char *name;        /* "NVIDIA H200" */
  int sms, cc, clock_khz, l2_bytes, driver;
  uint64_t memory;
  int have_copy;
  double copy_d2d_gbps, copy_vec4_gbps;
  int ncublas;
  const int *cublas_n;     /* SGEMM sizes */
  const double *cublas_s;  /* their hot median seconds */
  const char *cublas_note; /* why cuBLAS is missing, "": nothing */
} ReportDevice;

/* ---- counters compared with measured ones ------------------------------------ */

typedef enum {
  REPORT_VS_NCU,           /* lab --ncu: Nsight Compute at the simulated sizes */
  REPORT_VS_TRUTH          /* lab --groundtruth: the H200's committed counters */
} ReportVsKind;

/* One launch: simulated counters beside measured ones. */
typedef struct ReportVsRow {
  const char *label;
  const uint64_t *sim;     /* [WM_M_COUNT]; NULL: not simulated */
  const double *meas;      /* [WM_M_COUNT], < 0: not measured; NULL: the
                              launch was not measured at all */
  double seconds;          /* its simulation's wall time */
} ReportVsRow;

typedef struct ReportVs {
  ReportVsKind kind;
  const ReportVsRow *rows;
  int nrows;
} ReportVs;

/* ---- the document ------------------------------------------------------------ */

typedef struct ReportDoc {
  const char *title;       /* the HTML page's, NULL: the default */
  const char *command;     /* the command line that produced it */
  const char *date;        /* YYYY-MM-DD */
  const char *arch;        /* the simulated preset's name */
  double sim_seconds;      /* wall time of every simulation together */
  /* sim and run */
  const ReportRun *runs;
  int nruns;
  int lines;               /* REPORT_LINES_* (report.h) */
  /* the lab: only the launches shown (--only), in catalogue order */
  ReportDevice device;
  const ReportGroup *groups;
  int ngroups;
  const ReportExp *exps;
  int nexps;
  const ReportLabLaunch *launches;
  int nlaunches;
  /* lab --ncu, lab --groundtruth */
  const ReportVs *vs;
} ReportDoc;

#endif
