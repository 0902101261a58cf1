/* report.h - the renderers of a report (report_doc.h is what they render):
 * the launches of sim and run as text, JSON, CSV, ncu-csv or HTML; the
 * lab's catalogue as text, markdown, JSON, CSV or HTML; counters beside
 * measured ones (lab --ncu, lab --groundtruth).  docs/report.md says where
 * a new format goes. */
#ifndef WM_REPORT_H
#define WM_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "report/report_doc.h"

/* The formats; report_format_name[] spells them as --format takes them. */
typedef enum { REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_NCU_CSV, REPORT_HTML, REPORT_MARKDOWN, REPORT_NFORMATS } ReportFormat;
extern const char *const report_format_name[REPORT_NFORMATS];

/* The formats each report takes (bit f: ReportFormat f): a new format is
 * added here, in report_format_name and in its renderer, and every
 * command's --format takes it. */
#define REPORT_RUN_FORMATS                                                                                   \
  (1u << REPORT_TEXT | 1u << REPORT_JSON | 1u << REPORT_CSV | 1u << REPORT_NCU_CSV | 1u << REPORT_HTML)
#define REPORT_LAB_FORMATS                                                                                   \
  (1u << REPORT_TEXT | 1u << REPORT_MARKDOWN | 1u << REPORT_JSON | 1u << REPORT_CSV | 1u << REPORT_HTML)

/* The format named s among `allowed` ("md" is markdown): 0, or -1 with
 * the names it takes in why[nwhy] ("text, json, csv, ncu-csv or html"). */
int report_format_parse(const char *s, unsigned allowed, ReportFormat *f, char *why, size_t nwhy);

/* report_write's `lines`: none, one row per memory instruction (--lines),
 * or one per CUDA source line (--lines=source: text a table by source
 * line; JSON both "lines" and "source_lines"; CSV a section by source
 * line instead of the one by instruction; HTML as ever). */
enum { REPORT_LINES_NONE, REPORT_LINES_PTX, REPORT_LINES_SOURCE };

extern const char *const report_status_name[3];
/* The status of a launch that did not run, from its error's WM_E* code:
 * failed for a fault, a division by zero, a deadlock or a failed GPU
 * launch; refused otherwise. */
ReportStatus report_status_of(int code);

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

/* Any document: its lab part, its comparison (lab --ncu) or its runs
 * (with d->lines), in the format given. */
int report_doc_write(FILE *out, const ReportDoc *d, ReportFormat fmt);

/* ---- the lab (report_doc.h's groups, experiments, launches, device) ---------- */

/* Text, markdown, JSON, CSV (report_lab.c) or HTML (report_lab_html.c);
 * 0, or -1 if writing failed. */
int report_lab_write(FILE *out, const ReportDoc *d, ReportFormat fmt);
int report_lab_html(FILE *out, const ReportDoc *d);
/* The line text and markdown reports start with, before the launches
 * run: the device and how many launches, or why there is no GPU. */
void report_lab_start(FILE *out, const ReportDoc *d);
/* lab --out's results.md: a heading (device, date, command), then markdown. */
int report_lab_results_md(FILE *out, const ReportDoc *d);
/* lab --list: groups, experiments, launches and their sizes. */
void report_lab_list(FILE *out, const ReportDoc *d);

/* ---- counters beside measured ones (d->vs; report_lab_vs.c) ------------------ */

/* lab --ncu: the Nsight Compute metrics compared, in the table's order
 * (the lab asks the profiler for these). */
int report_vs_ncu_count(void);
const char *report_vs_ncu_metric(int c);
/* d->vs whole: the --ncu table (text or markdown) or the --groundtruth
 * one (any of its formats); 0, -1 without d->vs.  ncu.md: a heading
 * (device, date, command), then the markdown --ncu table. */
int report_vs_write(FILE *out, const ReportDoc *d, ReportFormat fmt);
int report_vs_ncu_md(FILE *out, const ReportDoc *d);
/* lab --groundtruth, a row at a time (text, markdown, CSV; JSON at the
 * end): begin writes the heading, end (ok: the run succeeded) the JSON or
 * the text's footnote with `seconds` of simulation, and frees. */
typedef struct ReportVsOut ReportVsOut;
ReportVsOut *report_vs_begin(FILE *out, ReportFormat fmt);
void report_vs_row(ReportVsOut *v, const ReportVsRow *r);
void report_vs_end(ReportVsOut *v, int ok, double seconds);
/* lab --groundtruth --list: a launch and its sizes, one line. */
void report_vs_list_line(FILE *out, const LaunchSpec *l);

#endif
