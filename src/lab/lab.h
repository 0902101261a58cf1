/* lab.h - `warpmem lab` inside: what one run of the lab holds, shared by
 * lab.c (options, simulation, the flow), lab_gpu.c (measurement),
 * lab_doc.c (the results as a report document, report_doc.h: src/report/
 * renders every format), lab_ncu.c (--ncu) and lab_truth.c (--groundtruth).
 *
 * Configuration (LabOptions, the catalogue) is kept apart from results
 * (LabResult per launch, LabRefs for the device's reference points).
 */
#ifndef WM_LAB_H
#define WM_LAB_H

#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "sim/sim.h"
#include "lab/lab_catalogue.h"
#include "gpu/gpu.h"
#include "mem/metrics.h"

/* The lab's formats are the report's (report.h). */
typedef ReportFormat LabFormat;
#define LAB_TEXT REPORT_TEXT
#define LAB_MARKDOWN REPORT_MARKDOWN
#define LAB_JSON REPORT_JSON
#define LAB_CSV REPORT_CSV
#define LAB_HTML REPORT_HTML

/* Exit status when some launches were refused or failed and the others
 * were reported (the same as `warpmem sim`'s, cli.h). */
#define LAB_EXIT_SOME_NOT_RUN 4

typedef struct LabOptions {
  const char *dir;         /* the catalogue */
  const char *only[64];    /* names from --only (split at commas) */
  int nonly;
  int list, groundtruth, ncu, no_gpu, progress;
  int no_time;             /* --no-time: outputs checked, nothing timed */
  int ncu_child;           /* this process is the one ncu profiles (--ncu-child) */
  const char *ncu_launches;/* --ncu-launches I,J,..: the child runs only these
                              catalogue indices (the parent's simulated ones) */
  LabFormat format;
  const char *out_dir;     /* --out: results.json, results.md and results.html */
  int device;
  GpuMeasureConfig mc;
  SimOptions sim;          /* the emulator's options (caches on, --arch) */
  char command[1024];      /* the command line, for the results files */
} LabOptions;

/* What the lab found for one launch. */
typedef struct LabResult {
  int selected;
  /* simulation, at the //@ size */
  int simulated;
  ReportStatus sim_status;  /* REPORT_REFUSED / REPORT_FAILED: not simulated */
  char sim_error[sizeof(((WmErr *)0)->msg)]; /* why, located */
  int twin;                /* index of the launch whose identical simulation
                              this one reuses, or -1 */
  uint64_t metric[WM_M_COUNT];
  double sim_seconds;
  uint64_t thread_instrs;
  int regs;                /* registers the occupancy used */
  int blocks_per_sm;
  double scale;            /* GPU-size threads / simulated threads */
  ModelLaunch model;       /* the simulated launch, for the time model */
  double pred_ns;          /* predicted time at the GPU size, 0: no model */
  /* the GPU */
  int measured;
  char match[256];         /* "equal", "equal but 1 (race)", "3 of 4096 differ ...", or the failure */
  int match_ok;
  GpuTiming t;
  GpuKernelAttrs attrs;
  double speedup;          /* baseline hot median / this hot median, 0: none */
  double pct_peak;         /* % of the copy bandwidth or of cuBLAS, 0: none */
  char gpu_error[sizeof(((WmErr *)0)->msg)];     /* a failure on the GPU for this launch only */
  /* the pictures (kept for --format html and --out only) */
  ReportAccess *acc;       /* its executed memory instructions, by PTX line */
  int nacc;
  MemGen gen;              /* the rules the pictures follow */
} LabResult;

/* The device's reference points. */
typedef struct LabRefs {
  int have_gpu;
  char no_gpu_reason[512];
  GpuInfo info;
  int have_copy;
  GpuBandwidth copy;
  int ncublas;
  int cublas_n[16];
  double cublas_s[16];     /* hot median seconds, 0: failed */
  char cublas_note[256];   /* why cuBLAS is missing */
} LabRefs;

typedef struct Lab {
  LabOptions opt;
  LabCatalogue cat;
  LabResult *res;          /* [cat.nlaunches] */
  LabRefs refs;
  char date[32];
  double sim_seconds;      /* wall time of the whole simulation */
  int nselected;
  int not_run;             /* selected launches refused or failed in the simulation */
} Lab;

/* Runs the lab as the options say: prints the report (or the list, or the
 * ground-truth table) on stdout and errors on stderr; returns the exit
 * status. */
int lab_run(const LabOptions *o);

/* Predicted time at the GPU size from the simulated counters (lab.c). */
double lab_time_metric(const uint64_t *metric);

/* lab_gpu.c: opens the GPU (or says why not) and measures the references
 * the selected experiments need; per launch, the output check at the
 * simulated size and the timing at the GPU size.  A failure of one launch
 * is kept in its LabResult, not fatal. */
int lab_gpu_open(Lab *lab, Gpu **g);
void lab_gpu_refs(Lab *lab, Gpu *g);
void lab_gpu_launch(Lab *lab, Gpu *g, GpuModule *gm, const PtxModule *mod, int i, const GlobalMem *emu);
double lab_cublas_seconds(const Lab *lab, int n);
void lab_gpu_derive(Lab *lab);

/* lab_doc.c: the shown part of the lab as a report document (the
 * strings and arrays it points to are the lab's; lab_doc_free frees the
 * document's own arrays), and the lab's outputs rendered from it. */
typedef struct LabDoc {
  ReportDoc doc;
  int *shown_at;           /* [cat.nlaunches]: a launch's index in doc, -1 */
  ReportGroup *groups;
  ReportExp *exps;
  ReportLabLaunch *launches;
  ReportVs vs;             /* lab --ncu's table, if any (doc.vs) */
  ReportVsRow *vs_rows;
} LabDoc;
void lab_doc_build(const Lab *lab, LabDoc *ld);
void lab_doc_free(LabDoc *ld);
int lab_report(const Lab *lab, FILE *out, LabFormat f);
/* Whether any launch of experiment x, or of group g, was selected (--only). */
static inline int lab_exp_selected(const Lab *lab, const LabExp *x) {
  for (int i = x->first; i < x->first + x->n; i++)
    if (lab->res[i].selected) return 1;
  return 0;
}

static inline int lab_group_selected(const Lab *lab, const LabGroup *g) {
  for (int x = g->first; x < g->first + g->n; x++)
    if (lab_exp_selected(lab, &lab->cat.exps[x])) return 1;
  return 0;
}
int lab_write_results(const Lab *lab, const char *dir);
void lab_list(const Lab *lab, FILE *out);

/* The memory instructions of a launch, kept for the HTML page by
 * lab_keep_accesses (after the simulation, while the module lives) and
 * freed by lab_free_accesses (lab_doc.c). */
void lab_keep_accesses(Lab *lab, int i, const SimRun *run, const PtxModule *mod);
void lab_free_accesses(Lab *lab);

/* lab_ncu.c: --ncu, and the child the profiler runs (--ncu-child). */
int lab_ncu(Lab *lab);
/* The table of simulated against measured counters from ncu's CSV output
 * (`--csv --page raw --print-units base`), for tests; -1 if it has no rows. */
int lab_ncu_table(const Lab *lab, FILE *ncu_out, FILE *out, int md);
int lab_ncu_child(Lab *lab);

/* lab_truth.c: --groundtruth (groundtruth/seed_kernels.cu against the H200's counters). */
int lab_groundtruth(const LabOptions *o);

#endif
