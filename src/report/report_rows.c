/* report_rows.c - the memory instructions of a run, their names, and their
 * sums per CUDA source line (report_int.h). */
#include "report/report_int.h"

#include <stdlib.h>
#include <string.h>

const char *report_kernel_name(const ReportRun *r) {
  return r->kernel && r->kernel->name ? r->kernel->name : "";
}

const char *report_launch_name(const ReportRun *r) {
  if (r->launch) return r->launch;
  if (r->kernel && r->kernel->plain_name) return r->kernel->plain_name;
  return report_kernel_name(r);
}

const char *report_unit_name(uint8_t kind) {
  static const char *const names[] = {[MEM_UNIT_SECTORS] = "sectors",
                                      [MEM_UNIT_WAVEFRONTS] = "wavefronts",
                                      [MEM_UNIT_TRANSACTIONS] = "transactions",
                                      [MEM_UNIT_SMEM_TRANS] = "transactions"};
  return kind < sizeof names / sizeof names[0] && names[kind] ? names[kind] : "";
}

const char *report_base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

void report_instr_text(const ReportRun *r, const PtxInstr *in, char *buf, size_t n) {
  buf[0] = '\0';
  if (r->mod) ptx_instr_text(r->mod, in, buf, n);
}

const char *report_cu_file(const ReportRun *r, const PtxInstr *in) {
  if (!r->mod || in->cu_line == 0) return "";
  const char *f = ptx_cu_file(r->mod, in);
  return f ? f : "";
}

static int row_cmp(const void *a, const void *b) {
  const LineRow *x = a, *y = b;
  if (x->in->ptx_line != y->in->ptx_line) return x->in->ptx_line < y->in->ptx_line ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

LineRow *report_line_rows(const ReportRun *r, int *n) {
  *n = 0;
  if (!r->mm || !r->kernel || !r->mm->line) return NULL;
  int lim = r->mm->nline < r->kernel->ncode ? r->mm->nline : r->kernel->ncode;
  LineRow *v = NULL;
  int cnt = 0;
  for (int i = 0; i < lim; i++) {
    if (r->mm->line[i].execs == 0) continue;
    if (!v) v = wm_xmalloc((size_t)lim * sizeof *v);
    v[cnt++] = (LineRow){i, &r->kernel->code[i], &r->mm->line[i]};
  }
  if (cnt) qsort(v, (size_t)cnt, sizeof *v, row_cmp);
  *n = cnt;
  return v;
}

/* ---- by source line ------------------------------------------------------ */

/* qsort has no context: the module the comparison names files with. */
typedef struct SrcKey {
  const char *file;      /* "" without a .loc */
  uint32_t line;         /* CUDA line, or PTX line without a .loc */
  int ptx;
  LineRow row;
} SrcKey;

static int key_cmp(const void *a, const void *b) {
  const SrcKey *x = a, *y = b;
  if (x->ptx != y->ptx) return x->ptx - y->ptx; /* lines with a .loc first */
  int c = strcmp(x->file, y->file);
  if (c) return c;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->row.ls->unit_kind != y->row.ls->unit_kind) return x->row.ls->unit_kind - y->row.ls->unit_kind;
  return row_cmp(&x->row, &y->row);
}

static uint64_t excess(const LineStat *ls) { return ls->units > ls->ideal ? ls->units - ls->ideal : 0; }

static void add_row(SrcRow *s, const SrcKey *k, int i) {
  const LineStat *ls = k->row.ls;
  if (s->ninstr == 0) {
    *s = (SrcRow){.file = k->file, .line = k->line, .ptx = k->ptx, .unit_kind = ls->unit_kind, .first = i,
                  .worst = ls};
  }
  s->ninstr++;
  s->execs += ls->execs;
  s->requests += ls->requests;
  s->units += ls->units;
  s->ideal += ls->ideal;
  if (excess(ls) > excess(s->worst) || (excess(ls) == excess(s->worst) && ls->units > s->worst->units))
    s->worst = ls;
}

void report_src_rows(const ReportRun *r, LineRow **rows, int *nrows, SrcRow **src, int *nsrc) {
  *src = NULL;
  *nsrc = 0;
  LineRow *v = report_line_rows(r, nrows);
  *rows = v;
  if (!v) return;
  int n = *nrows;
  SrcKey *k = wm_xmalloc((size_t)n * sizeof *k);
  for (int i = 0; i < n; i++) {
    int ptx = v[i].in->cu_line == 0;
    k[i] = (SrcKey){ptx ? "" : report_cu_file(r, v[i].in), ptx ? v[i].in->ptx_line : v[i].in->cu_line, ptx, v[i]};
  }
  qsort(k, (size_t)n, sizeof *k, key_cmp);
  SrcRow *s = wm_xcalloc((size_t)n, sizeof *s);
  int ns = 0;
  for (int i = 0; i < n; i++) {
    v[i] = k[i].row;
    int same = i > 0 && k[i].ptx == k[i - 1].ptx && !strcmp(k[i].file, k[i - 1].file) &&
               k[i].line == k[i - 1].line && k[i].row.ls->unit_kind == k[i - 1].row.ls->unit_kind;
    if (!same) ns++;
    add_row(&s[ns - 1], &k[i], i);
  }
  free(k);
  *src = s;
  *nsrc = ns;
}

const char *const report_status_name[3] = {[REPORT_OK] = "ok", [REPORT_REFUSED] = "refused",
                                           [REPORT_FAILED] = "failed"};

const char *report_run_status(const ReportRun *r) {
  return r->status <= REPORT_FAILED ? report_status_name[r->status] : "failed";
}

const char *const report_format_name[REPORT_NFORMATS] = {
  [REPORT_TEXT] = "text", [REPORT_JSON] = "json", [REPORT_CSV] = "csv",
  [REPORT_NCU_CSV] = "ncu-csv", [REPORT_HTML] = "html", [REPORT_MARKDOWN] = "markdown"};

/* The order --help and the messages list the formats in. */
static const ReportFormat format_order[REPORT_NFORMATS] = {REPORT_TEXT, REPORT_MARKDOWN, REPORT_JSON,
                                                           REPORT_CSV,  REPORT_NCU_CSV,  REPORT_HTML};

int report_format_parse(const char *s, unsigned allowed, ReportFormat *f, char *why, size_t nwhy) {
  for (int i = 0; s && i < REPORT_NFORMATS; i++)
    if (allowed >> i & 1 && (!strcmp(s, report_format_name[i]) || (i == REPORT_MARKDOWN && !strcmp(s, "md")))) {
      *f = (ReportFormat)i;
      return 0;
    }
  size_t at = 0;
  int left = __builtin_popcount(allowed & ((1u << REPORT_NFORMATS) - 1));
  if (why && nwhy) why[0] = '\0';
  for (int k = 0; why && k < REPORT_NFORMATS; k++) {
    ReportFormat g = format_order[k];
    if (!(allowed >> g & 1)) continue;
    left--;
    int w = snprintf(why + at, nwhy - at, "%s%s", report_format_name[g], left > 1 ? ", " : left == 1 ? " or " : "");
    if (w < 0 || (size_t)w >= nwhy - at) break;
    at += (size_t)w;
  }
  return -1;
}
