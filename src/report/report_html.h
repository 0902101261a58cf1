/* report_html.h - self-contained HTML pages (inline CSS, SVG and a little
 * plain JavaScript; nothing from the network): the pieces every page shares,
 * so that sim, run and lab pages look alike. */
#ifndef WM_REPORT_HTML_H
#define WM_REPORT_HTML_H

#include <stdio.h>

/* <!doctype html>, <head> with the shared style and script, <body> and an
 * <h1> of `title`. */
void report_html_begin(FILE *out, const char *title);
/* Closes what report_html_begin opened. */
void report_html_end(FILE *out);
/* `s` with &, <, >, " and ' escaped. */
void report_html_text(FILE *out, const char *s);

#endif
