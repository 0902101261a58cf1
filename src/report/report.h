/* report.h - the counters of one or more launches as text, JSON or CSV. */
#ifndef WM_REPORT_H
#define WM_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "arch/occupancy.h"
#include "mem/mem.h"
#include "model/model.h"
#include "ptx/ptx.h"

typedef enum { REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_NCU_CSV, REPORT_HTML } ReportFormat;

/* report_write's `lines`: none, one row per memory instruction (--lines),
 * or one per CUDA source line (--lines=source: text a table by source
 * line; JSON both "lines" and "source_lines"; CSV a section by source
 * line instead of the one by instruction; HTML as ever). */
enum { REPORT_LINES_NONE, REPORT_LINES_PTX, REPORT_LINES_SOURCE };

/* Whether a launch ran: refused before it ran (an unsupported instruction,
 * arguments that do not bind, a limit) or failed while running (a fault, a
 * division by zero, a deadlock).  Names in report_status_name. */
typedef enum { REPORT_OK, REPORT_REFUSED, REPORT_FAILED } ReportStatus;
extern const char *const report_status_name[3];
/* The status of a launch that did not run, from its error's WM_E* code:
 * failed for a fault, a division by zero, a deadlock or a failed GPU
 * launch; refused otherwise. */
ReportStatus report_status_of(int code);

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

/* Ratios of the hierarchy counters, in percent (-1 where undefined); the
 * names in report_rate_name, the formulas in report_rate() (report.c). */
typedef enum {
  REPORT_L1_HIT_PCT,   /* l1tex__t_sector_hit_rate.pct */
  REPORT_L2_HIT_PCT,   /* lts__t_sector_hit_rate.pct */
  REPORT_ROW_HIT_PCT,  /* warpmem__dram_row_hit_rate.pct */
  REPORT_DRAM_USED_PCT,/* warpmem__dram_read_used.pct: of the bytes read */
  REPORT_NRATES
} ReportRate;

extern const char *const report_rate_name[REPORT_NRATES];
double report_rate(const MemModel *mm, ReportRate which);

/* Text: one table of metrics per launch (and with `lines`, a table of the
 * memory instructions: CUDA file:line, PTX line, instruction, requests,
 * units per request, ideal, explanation).
 * JSON: an array of objects {launch, kernel, grid, block, smem, status,
 * metrics, [occupancy], [lines]}, metric keys spelled as Nsight Compute
 * spells them; a launch that did not run is {launch, kernel, grid, block,
 * smem, status: "refused"|"failed", error}.
 * CSV: a header `launch,kernel,<metric>...,status,error` and one row per
 * launch (empty counters where it did not run; with `lines`, a second
 * section `launch,cu_file,cu_line,ptx_line,...`).
 * Text: a launch that did not run is its heading, then "REFUSED:" or
 * "FAILED:" and the message, indented.
 * HTML: one self-contained page (report_html_write), the source view
 * always included. */
int report_write(FILE *out, const ReportRun *runs, int nruns, ReportFormat fmt, int lines);

/* ncu-csv: the layout of `ncu --csv --page raw --print-units base`
 * (report_ncu.c): Nsight Compute's metrics only, the launches that ran. */
void report_write_ncu_csv(FILE *out, const ReportRun *runs, int nruns);

/* The "occupancy" object of the JSON report (also `warpmem occupancy
 * --format json`): arch, registers, registers_from, blocks_per_sm,
 * warps_per_sm, max_warps_per_sm, occupancy_pct, limiters, limits (blocks
 * each resource allows, null if unlimited), the allocations, carveout and
 * l1_bytes.  New reference; the caller owns it. */
json_t *report_occupancy_json(const Arch *a, const OccResult *r, int regs, const char *regs_from);

#endif
