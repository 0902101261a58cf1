/* lab_catalogue.h - the lab's catalogue: the seeds' experiments, read from
 * the `//!` and `//@` lines of the lab/ .cu files (the format is docs/lab.md's).
 *
 * A catalogue file holds groups (one table each), a group holds
 * experiments, an experiment holds launches; the first launch of an
 * experiment is its baseline.  A `//! key: value` line belongs to the last
 * `group:`, `exp:` or `//@` above it.  Every launch has two specs: the `//@`
 * line, simulated, and its `//! gpu:` line (default: the same), measured.
 *
 * Configuration only: nothing here runs or measures.
 */
#ifndef WM_LAB_CATALOGUE_H
#define WM_LAB_CATALOGUE_H

#include <stdint.h>

#include "launch/launch.h"
#include "util/diag.h"

/* What an experiment's "% of peak" column compares with. */
typedef enum { LAB_PEAK_NONE, LAB_PEAK_COPY, LAB_PEAK_CUBLAS } LabPeak;

typedef struct LabLaunch {
  LaunchSpec sim;        /* the //@ line: the simulated launch */
  LaunchSpec gpu;        /* the //! gpu: line, or a copy of sim */
  int has_gpu_spec;      /* 1 if a gpu: line was given */
  double bytes, flops;   /* at the GPU size, as the seed counts them (0: none);
                            the experiment's unless the launch gives its own */
  double scale;          /* work of the GPU-size launch / the simulated one's
                            (default: the ratio of threads) */
  double seed_speedup;   /* the seed's speedup over the baseline, 0: none */
  char *reported;        /* the seed's words or number for this launch, or NULL */
  char *why;             /* overrides the experiment's why, or NULL */
  uint64_t tolerate;     /* elements the GPU's output may differ in (races) */
  int carveout;          /* shared-memory carveout percent, -1: default */
  int exp;               /* index of its experiment */
  int file;              /* index of its file */
} LabLaunch;

typedef struct LabExp {
  char *name, *title, *seed_says, *why;
  LabPeak peak;
  int peak_n;            /* LAB_PEAK_CUBLAS: the SGEMM size */
  double bytes, flops;
  double scale;          /* default of its launches' scale, 0: none */
  int group;
  int first, n;          /* launches[first .. first+n-1]; first is the baseline */
  int line;
} LabExp;

typedef struct LabGroup {
  char *name, *title;
  int seed;              /* the seed document's number */
  int first, n;          /* exps[first .. first+n-1] */
  int file;
  int line;
} LabGroup;

typedef struct LabFile {
  char *cu, *ptx;        /* paths: DIR/X.cu and DIR/ptx/X.ptx, compiled from it */
} LabFile;

typedef struct LabCatalogue {
  LabFile *files;
  int nfiles;
  LabGroup *groups;
  int ngroups;
  LabExp *exps;
  int nexps;
  LabLaunch *launches;
  int nlaunches;
} LabCatalogue;

/* Parses one catalogue file (`path`, its text) into c, appending.  Errors
 * are located (file:line:col) and say what was expected. */
int lab_catalogue_parse(LabCatalogue *c, const char *path, const char *text, WmErr *e);

/* Reads every .cu file in DIR that has a `//! group:` line, in name order.  A
 * catalogue with no group is an error naming DIR. */
int lab_catalogue_load(LabCatalogue *c, const char *dir, WmErr *e);

void lab_catalogue_free(LabCatalogue *c);

/* The name an element is selected by (--only): "group", "exp" or a
 * launch's NAME#VARIANT.  Marks sel[i] = 1 for each launch i that `name`
 * selects; returns how many it selected (0: no such name). */
int lab_catalogue_select(const LabCatalogue *c, const char *name, unsigned char *sel);


/* The text after "peak:" for an experiment ("copy", "cublas 4096", "none"). */
const char *lab_peak_name(LabPeak p);

#endif
