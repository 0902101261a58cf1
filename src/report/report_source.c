/* report_source.c - --lines=source: the memory instructions of each CUDA
 * source line added up, as Nsight Compute's source page shows them (one row
 * per line and unit: a line with global loads and shared stores has a row
 * of sectors and one of wavefronts). */
#include "report/report_int.h"

#include "util/csv.h"

#include <stdlib.h>
#include <string.h>

/* "file.cu:39", or "ptx:272" for instructions without a .loc. */
static void src_name(const SrcRow *s, char *buf, size_t n) {
  if (s->ptx) snprintf(buf, n, "ptx:%u", s->line);
  else snprintf(buf, n, "%s:%u", *s->file ? report_base_name(s->file) : "?", s->line);
}

static void per_req(char *buf, size_t n, uint8_t kind, uint64_t num, uint64_t den) {
  if (kind && den) snprintf(buf, n, "%.2f", (double)num / (double)den);
  else snprintf(buf, n, "-");
}

void report_text_source(FILE *out, const ReportRun *r) {
  LineRow *rows;
  SrcRow *src;
  int nrows, nsrc;
  report_src_rows(r, &rows, &nrows, &src, &nsrc);
  if (!nsrc) {
    fprintf(out, "\n  memory instructions: none executed\n");
    free(rows);
    return;
  }
  int wsrc = 6;
  for (int i = 0; i < nsrc; i++) {
    char name[300];
    src_name(&src[i], name, sizeof name);
    if ((int)strlen(name) > wsrc) wsrc = (int)strlen(name);
  }
  fprintf(out, "\n  memory instructions (by source line)\n");
  fprintf(out, "  %-*s  %6s  %12s  %-12s  %12s  %9s  %9s  %s\n", wsrc, "source", "instrs", "requests", "unit",
          "units", "units/req", "ideal/req", "worst explanation");
  for (int i = 0; i < nsrc; i++) {
    const SrcRow *s = &src[i];
    char name[300], per[24], ideal[24];
    src_name(s, name, sizeof name);
    per_req(per, sizeof per, s->unit_kind, s->units, s->requests);
    per_req(ideal, sizeof ideal, s->unit_kind, s->ideal, s->requests);
    fprintf(out, "  %-*s  %6d  %12llu  %-12s  %12llu  %9s  %9s%s%s\n", wsrc, name, s->ninstr,
            (unsigned long long)s->requests, s->unit_kind ? report_unit_name(s->unit_kind) : "-",
            (unsigned long long)s->units, per, ideal, s->worst->why[0] ? "  " : "", s->worst->why);
  }
  free(rows);
  free(src);
}

static json_t *ratio(uint8_t kind, uint64_t num, uint64_t den) {
  return kind && den ? json_real((double)num / (double)den) : json_null();
}

json_t *report_json_source(const ReportRun *r) {
  LineRow *rows;
  SrcRow *src;
  int nrows, nsrc;
  report_src_rows(r, &rows, &nrows, &src, &nsrc);
  json_t *a = json_array();
  for (int i = 0; i < nsrc; i++) {
    const SrcRow *s = &src[i];
    json_t *o = json_object();
    json_object_set_new(o, "cu_file", s->ptx ? json_null() : json_string(s->file));
    json_object_set_new(o, s->ptx ? "ptx_line" : "cu_line", json_integer(s->line));
    json_object_set_new(o, "instructions", json_integer(s->ninstr));
    json_object_set_new(o, "requests", json_integer((json_int_t)s->requests));
    json_object_set_new(o, "units", json_integer((json_int_t)s->units));
    json_object_set_new(o, "unit", s->unit_kind ? json_string(report_unit_name(s->unit_kind)) : json_null());
    json_object_set_new(o, "per_request", ratio(s->unit_kind, s->units, s->requests));
    json_object_set_new(o, "ideal_per_request", ratio(s->unit_kind, s->ideal, s->requests));
    json_object_set_new(o, "explanation", json_string(s->worst->why));
    json_array_append_new(a, o);
  }
  free(rows);
  free(src);
  return a;
}

static void csv_ratio(FILE *out, uint8_t kind, uint64_t num, uint64_t den) {
  if (kind && den) fprintf(out, ",%.6g", (double)num / (double)den);
  else fputc(',', out);
}

void report_csv_source(FILE *out, const ReportRun *runs, int nruns) {
  fputs("\nlaunch,cu_file,cu_line,ptx_line,instructions,requests,units,unit,per_request,ideal_per_request,"
        "explanation\n", out);
  for (int i = 0; i < nruns; i++) {
    LineRow *rows;
    SrcRow *src;
    int nrows, nsrc;
    report_src_rows(&runs[i], &rows, &nrows, &src, &nsrc);
    for (int j = 0; j < nsrc; j++) {
      const SrcRow *s = &src[j];
      wm_csv_write(out, report_launch_name(&runs[i]));
      fputc(',', out);
      wm_csv_write(out, s->ptx ? "" : s->file);
      if (s->ptx) fprintf(out, ",,%u", s->line);
      else fprintf(out, ",%u,", s->line);
      fprintf(out, ",%d,%llu,%llu,%s", s->ninstr, (unsigned long long)s->requests, (unsigned long long)s->units,
              report_unit_name(s->unit_kind));
      csv_ratio(out, s->unit_kind, s->units, s->requests);
      csv_ratio(out, s->unit_kind, s->ideal, s->requests);
      fputc(',', out);
      wm_csv_write(out, s->worst->why);
      fputc('\n', out);
    }
    free(rows);
    free(src);
  }
}
