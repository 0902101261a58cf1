/* report_html.h - self-contained HTML pages (inline CSS, SVG and a little
 * plain JavaScript; nothing from the network): the pieces every page shares,
 * so that sim, run and lab pages look alike, and the page of sim and run.
 *
 * The shared script sets document.body.dataset.ready = "1" once it has run
 * (report_html_end writes the call) and window.onerror puts the message of
 * any script error in document.body.dataset.error; tools/html_check.py
 * checks both in headless Chromium.  It also sorts every table of class
 * "sortable" by the column whose header (th data-key=K, data-type=num|str)
 * is clicked, on the data-K attributes of its rows (or of its tbody
 * elements of class "grp", which move with their detail rows). */
#ifndef WM_REPORT_HTML_H
#define WM_REPORT_HTML_H

#include <stdio.h>

#include "report/report.h"

/* <!doctype html>, <head> with the shared style and script, <body> and an
 * <h1> of `title`. */
void report_html_begin(FILE *out, const char *title);
/* Closes what report_html_begin opened (after running the shared script's
 * set-up: sortable tables, the ready flag). */
void report_html_end(FILE *out);
/* `s` with &, <, >, " and ' escaped. */
void report_html_text(FILE *out, const char *s);

/* The page of `warpmem sim` and `warpmem run --format html`: per launch
 * the memory chart, the predicted time's bounds, the occupancy charts, the
 * source view with a picture per memory instruction (report_picture_svg)
 * and every counter; a launch that did not run shows its message.  `title`
 * NULL: "warpmem report".  `lines` is report_write's (unused: the source
 * view is always there).  0, or -1 if writing failed. */
int report_html_write(FILE *out, const ReportRun *runs, int nruns, const char *title, int lines);

#endif
