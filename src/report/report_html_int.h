/* report_html_int.h - the parts of the HTML page of sim and run
 * (report_html_page.c puts them together). */
#ifndef WM_REPORT_HTML_INT_H
#define WM_REPORT_HTML_INT_H

#include <stdint.h>
#include <stdio.h>

#include "report/report_html.h"

/* v with an SI prefix: "1.23 M", "512" (count) into buf. */
void report_html_si(char *buf, size_t n, double v);
/* Bytes as "16.8 MB", "512 B". */
void report_html_bytes(char *buf, size_t n, double bytes);

/* Nsight Compute's memory chart of run r (report_html_chart.c). */
void report_html_chart(FILE *out, const ReportRun *r);
/* The predicted time's bounds as bars, the limiter named. */
void report_html_time(FILE *out, const ReportRun *r);
/* The occupancy calculator's three charts, the launch marked
 * (report_html_occ.c). */
void report_html_occ(FILE *out, const ReportRun *r);
/* The source view: CUDA lines with their memory instructions, sortable,
 * a picture slot per instruction (report_html_src.c).  `id` numbers the
 * launch on the page. */
void report_html_source(FILE *out, const ReportRun *r, int id);

#endif
