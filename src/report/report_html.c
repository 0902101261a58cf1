/* report_html.c - the shared parts of HTML pages (report_html.h). */
#include "report/report_html.h"

void report_html_text(FILE *out, const char *s)
{
  for (; s && *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&#39;", out); break;
    default: fputc(*s, out);
    }
  }
}

void report_html_begin(FILE *out, const char *title)
{
  fputs("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
  report_html_text(out, title);
  fputs("</title>\n</head>\n<body>\n<h1>", out);
  report_html_text(out, title);
  fputs("</h1>\n", out);
}

void report_html_end(FILE *out)
{
  fputs("</body>\n</html>\n", out);
}
