/* report_int.h - what the report formats share (report_rows.c): the
 * memory instructions of a run in order, their names, and their
 * aggregation by CUDA source line (--lines=source, the HTML source view). */
#ifndef WM_REPORT_INT_H
#define WM_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

/* One memory instruction with statistics, for the --lines tables. */
typedef struct LineRow {
  int idx;               /* instruction index in the kernel's code */
  const PtxInstr *in;
  const LineStat *ls;
} LineRow;

/* The executed memory instructions of a run, by PTX line (malloc'd, caller
 * frees; NULL when there are none). */
LineRow *report_line_rows(const ReportRun *r, int *n);

/* NAME#VARIANT, else the kernel's plain or PTX name ("" if none). */
const char *report_launch_name(const ReportRun *r);
/* "ok", "refused" or "failed" (report_status_name). */
const char *report_run_status(const ReportRun *r);
/* The kernel's PTX name ("" if none). */
const char *report_kernel_name(const ReportRun *r);
/* "sectors", "wavefronts", "transactions" ("" for MEM_UNIT_NONE). */
const char *report_unit_name(uint8_t kind);
/* The part of path after its last '/'. */
const char *report_base_name(const char *path);
/* The instruction as PTX text into buf ("" without a module). */
void report_instr_text(const ReportRun *r, const PtxInstr *in, char *buf, size_t n);
/* Its CUDA file as .file names it ("" without a .loc). */
const char *report_cu_file(const ReportRun *r, const PtxInstr *in);

/* The memory instructions of one CUDA source line that count the same unit
 * (a line with global loads and shared stores has two), as Nsight
 * Compute's source page adds them up.  Instructions without a .loc are
 * grouped by PTX line (file "", ptx set). */
typedef struct SrcRow {
  const char *file;      /* .file name; "" without a .loc */
  uint32_t line;         /* CUDA line, or the PTX line where file is "" */
  int ptx;               /* 1: no .loc, `line` is a PTX line */
  uint8_t unit_kind;     /* MemUnit */
  int first, ninstr;     /* its instructions: rows[first..first+ninstr) */
  uint64_t execs, requests, units, ideal;
  const LineStat *worst; /* the instruction most over its ideal: its why */
} SrcRow;

/* The rows of run r by source line: *rows its memory instructions sorted
 * by (file, line, unit, PTX line), *src the groups in that order (both
 * malloc'd, the caller frees them; NULL and 0 when none ran). */
void report_src_rows(const ReportRun *r, LineRow **rows, int *nrows, SrcRow **src, int *nsrc);

/* The text table of --lines=source (report_source.c). */
void report_text_source(FILE *out, const ReportRun *r);
/* JSON array of the same rows ("source_lines"). */
json_t *report_json_source(const ReportRun *r);
/* CSV: a section `launch,cu_file,cu_line,ptx_line,instructions,requests,
 * units,unit,per_request,ideal_per_request,explanation`, a row per source
 * line of each launch (ptx_line set, cu_file and cu_line empty, for
 * instructions without a .loc). */
void report_csv_source(FILE *out, const ReportRun *runs, int nruns);

#endif
