/* report_html_src.c - the source view of the HTML page: each CUDA source
 * file the kernel's memory instructions come from, line by line, with the
 * memory instructions of each line added up (requests, sectors per request
 * against the ideal, shared wavefronts per instruction, the explanation of
 * the worst), the worst lines marked, sortable; under each line its PTX
 * instructions, each with a picture slot (div.pic data-instr=INDEX) that
 * report_picture_svg fills.
 *
 * The file is read where .file names it, else by its base name beside the
 * PTX (or the .cu) or in the folder above (lab/ptx/X.ptx, lab/X.cu); a file
 * that cannot be read shows its PTX instructions instead.  Only the lines
 * the kernel spans are shown, and of a span over SRC_FULL_LINES lines only
 * those around memory instructions, so that the page stays small. */
#include "report/report_html_int.h"
#include "report/report_int.h"
#include "report/report_picture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { SRC_FULL_LINES = 2000, SRC_CONTEXT = 3, SRC_WORST = 3, SRC_MAX_BYTES = 64 << 20 };

/* One CUDA line's memory instructions: SrcRows src[first..first+nsrc). */
typedef struct LineAgg {
  uint32_t line;
  int first, nsrc;
  uint64_t g_req, g_units, g_ideal; /* sectors or transactions (global, local, texture) */
  uint64_t s_req, s_units, s_ideal; /* shared: requests (instructions), wavefronts */
  uint64_t excess;                  /* units over the ideal, all kinds */
  const LineStat *worst;
  int rank;                         /* 1..SRC_WORST among the worst lines; 0 */
} LineAgg;

static int shared_unit(uint8_t k) { return k == MEM_UNIT_WAVEFRONTS || k == MEM_UNIT_SMEM_TRANS; }

/* Groups src[lo..hi) (one file, by line) into lines; marks the worst. */
static LineAgg *aggregate(const SrcRow *src, int lo, int hi, int *n) {
  LineAgg *a = wm_xcalloc((size_t)(hi - lo), sizeof *a);
  int k = 0;
  for (int i = lo; i < hi; i++) {
    const SrcRow *s = &src[i];
    if (i == lo || s->line != src[i - 1].line) a[k++] = (LineAgg){.line = s->line, .first = i, .worst = s->worst};
    LineAgg *g = &a[k - 1];
    g->nsrc++;
    uint64_t ex = s->units > s->ideal ? s->units - s->ideal : 0;
    if (ex > (g->worst->units > g->worst->ideal ? g->worst->units - g->worst->ideal : 0)) g->worst = s->worst;
    g->excess += ex;
    if (shared_unit(s->unit_kind)) g->s_req += s->requests, g->s_units += s->units, g->s_ideal += s->ideal;
    else g->g_req += s->requests, g->g_units += s->units, g->g_ideal += s->ideal;
  }
  for (int r = 1; r <= SRC_WORST; r++) { /* the SRC_WORST lines most over their ideal */
    int best = -1;
    for (int i = 0; i < k; i++)
      if (!a[i].rank && a[i].excess && (best < 0 || a[i].excess > a[best].excess)) best = i;
    if (best >= 0) a[best].rank = r;
  }
  *n = k;
  return a;
}

/* The text of `file`, found as the header comment says; NULL if none. */
static char *read_source(const ReportRun *r, const char *file, size_t *len) {
  char path[4096];
  const char *mp = r->mod && r->mod->path ? r->mod->path : "";
  const char *slash = strrchr(mp, '/');
  int dir = slash ? (int)(slash - mp) : 0;
  for (int t = 0; t < 3; t++) {
    if (t == 0) snprintf(path, sizeof path, "%s", file);
    else if (t == 1) snprintf(path, sizeof path, "%.*s%s%s", dir, mp, slash ? "/" : "", report_base_name(file));
    else snprintf(path, sizeof path, "%.*s%s../%s", dir, mp, slash ? "/" : "", report_base_name(file));
    struct stat st; /* a regular file of reasonable size: not a device or a fifo a .file may name */
    if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > SRC_MAX_BYTES) continue;
    WmErr e = {0};
    char *text = wm_read_file(path, len, &e);
    if (text && *len <= SRC_MAX_BYTES && !memchr(text, '\0', *len)) return text;
    free(text);
  }
  return NULL;
}

/* Splits text into lines in place; *n lines, the array malloc'd. */
static char **split_lines(char *text, size_t len, int *n) {
  int cap = 1;
  for (size_t i = 0; i < len; i++) cap += text[i] == '\n';
  char **v = wm_xmalloc(sizeof *v * (size_t)cap);
  int k = 0;
  for (char *p = text; p < text + len;) {
    char *nl = memchr(p, '\n', (size_t)(text + len - p));
    v[k++] = p;
    if (!nl) break;
    *nl = '\0';
    if (nl > p && nl[-1] == '\r') nl[-1] = '\0';
    p = nl + 1;
  }
  *n = k;
  return v;
}

static void ratio_cell(FILE *out, uint64_t num, uint64_t den) {
  if (den) fprintf(out, "<td class=\"n\">%.2f</td>", (double)num / (double)den);
  else fputs("<td class=\"n\"></td>", out);
}

static double ratio(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : -1; }

/* The PTX instructions of line g, each with its picture slot. */
static void instructions(FILE *out, const ReportRun *r, const LineAgg *g, const SrcRow *src, const LineRow *rows) {
  fputs("<tr class=\"instr\"><td></td><td colspan=\"9\">\n", out);
  for (int s = g->first; s < g->first + g->nsrc; s++)
    for (int i = src[s].first; i < src[s].first + src[s].ninstr; i++) {
      const LineRow *lr = &rows[i];
      const LineStat *ls = lr->ls;
      char text[512];
      report_instr_text(r, lr->in, text, sizeof text);
      fprintf(out, "<div class=\"minstr\" data-ptx-line=\"%u\" data-requests=\"%llu\" data-units=\"%llu\" "
                   "data-ideal=\"%llu\" data-unit=\"%s\"><code>ptx:%u  ", lr->in->ptx_line,
              (unsigned long long)ls->requests, (unsigned long long)ls->units, (unsigned long long)ls->ideal,
              report_unit_name(ls->unit_kind), lr->in->ptx_line);
      report_html_text(out, text);
      fprintf(out, "</code> &mdash; %llu requests", (unsigned long long)ls->requests);
      if (ls->requests && ls->unit_kind)
        fprintf(out, ", %.2f %s per request (ideal %.2f)", ratio(ls->units, ls->requests),
                report_unit_name(ls->unit_kind), ratio(ls->ideal, ls->requests));
      if (ls->why[0]) {
        fputs(": <span class=\"why\">", out);
        report_html_text(out, ls->why);
        fputs("</span>", out);
      }
      fprintf(out, "</div>\n<div class=\"pic\" data-instr=\"%d\">", lr->idx);
      report_picture_svg(out, r->mm, lr->idx);
      fputs("</div>\n", out);
    }
  fputs("</td></tr>\n", out);
}

/* The code cell: the source text, or the line's PTX where there is none. */
static void code_cell(FILE *out, const ReportRun *r, const char *code, const LineAgg *g, const SrcRow *src,
                      const LineRow *rows) {
  fputs("<td class=\"code\">", out);
  if (code) report_html_text(out, code);
  else if (g) {
    fputs("<span class=\"ptx\">", out);
    const SrcRow *s = &src[g->first];
    char text[512];
    report_instr_text(r, rows[s->first].in, text, sizeof text);
    report_html_text(out, text);
    if (g->nsrc > 1 || s->ninstr > 1) fputs(" ...", out);
    fputs("</span>", out);
  }
  fputs("</td>", out);
}

/* One source line: a tbody (rows move together when sorted). */
static void line_group(FILE *out, const ReportRun *r, const char *code, uint32_t ln, const LineAgg *g,
                       const SrcRow *src, const LineRow *rows) {
  if (!g) {
    fprintf(out, "<tbody class=\"grp plain\" data-line=\"%u\"><tr class=\"src\"><td class=\"ln\">%u</td>", ln, ln);
    code_cell(out, r, code, NULL, src, rows);
    fputs("<td colspan=\"8\"></td></tr></tbody>\n", out);
    return;
  }
  fprintf(out, "<tbody class=\"grp mem\" data-line=\"%u\" data-requests=\"%llu\" data-per-req=\"%.4f\" "
               "data-ideal-req=\"%.4f\" data-shared=\"%llu\" data-wf=\"%.4f\" data-ideal-wf=\"%.4f\" data-excess=\"%llu\" "
               "data-worst=\"%d\">\n", ln, (unsigned long long)g->g_req, ratio(g->g_units, g->g_req),
          ratio(g->g_ideal, g->g_req), (unsigned long long)g->s_req, ratio(g->s_units, g->s_req),
          ratio(g->s_ideal, g->s_req), (unsigned long long)g->excess, g->rank);
  fprintf(out, "<tr class=\"src mem%s\"><td class=\"ln\"%s>%u</td>", g->rank ? " worst" : "",
          g->rank ? " title=\"among the worst lines\"" : "", ln);
  code_cell(out, r, code, g, src, rows);
  if (g->g_req) fprintf(out, "<td class=\"n\">%llu</td>", (unsigned long long)g->g_req);
  else fputs("<td></td>", out);
  ratio_cell(out, g->g_units, g->g_req);
  ratio_cell(out, g->g_ideal, g->g_req);
  if (g->s_req) fprintf(out, "<td class=\"n\">%llu</td>", (unsigned long long)g->s_req);
  else fputs("<td></td>", out);
  ratio_cell(out, g->s_units, g->s_req);
  ratio_cell(out, g->s_ideal, g->s_req);
  fprintf(out, "<td class=\"n\">%llu</td><td class=\"why\">", (unsigned long long)g->excess);
  report_html_text(out, g->worst->why);
  fputs("</td></tr>\n", out);
  instructions(out, r, g, src, rows);
  fputs("</tbody>\n", out);
}

static void table_head(FILE *out, const char *id, const char *what) {
  fprintf(out, "<label><input type=\"checkbox\" class=\"mem-only\" data-table=\"%s\"> only lines with memory "
               "instructions</label>\n", id);
  fprintf(out, "<table class=\"sortable source\" id=\"%s\"><thead><tr><th data-key=\"line\">%s</th><th>source</th>"
               "<th class=\"n\" data-key=\"requests\" title=\"global and local requests\">requests</th>"
               "<th class=\"n\" data-key=\"perReq\" title=\"sectors per request\">sect/req</th>"
               "<th class=\"n\" data-key=\"idealReq\" title=\"the fewest sectors per request\">ideal</th>"
               "<th class=\"n\" data-key=\"shared\" title=\"shared-memory instructions (warp-level)\">shared</th>"
               "<th class=\"n\" data-key=\"wf\" title=\"wavefronts per shared instruction\">wf/inst</th>"
               "<th class=\"n\" data-key=\"idealWf\" title=\"the fewest wavefronts per instruction\">ideal</th>"
               "<th class=\"n\" data-key=\"excess\" title=\"units (sectors, wavefronts) over the ideal\">excess</th>"
               "<th>worst explanation</th></tr></thead>\n", id, what);
}

/* Lines left out. */
static void gap_row(FILE *out) {
  fputs("<tbody class=\"gap\"><tr><td class=\"ln\">&hellip;</td><td colspan=\"9\"></td></tr></tbody>\n", out);
}

/* The lines of `file` that the kernel's code comes from (its first and
 * last .loc in that file, and a few lines around): *lo..*hi, 0 if none. */
static void kernel_span(const ReportRun *r, const char *file, int *lo, int *hi) {
  *lo = *hi = 0;
  for (int i = 0; r->kernel && i < r->kernel->ncode; i++) {
    const PtxInstr *in = &r->kernel->code[i];
    if (!in->cu_line || strcmp(report_cu_file(r, in), file)) continue;
    if (!*lo || (int)in->cu_line < *lo) *lo = (int)in->cu_line;
    if ((int)in->cu_line > *hi) *hi = (int)in->cu_line;
  }
  if (*lo) *lo = *lo > SRC_CONTEXT ? *lo - SRC_CONTEXT : 1;
  if (*hi) *hi += SRC_CONTEXT;
}

/* The lines of one file the kernel spans (in a long span, those around
 * memory instructions only), or only the memory lines when the file is
 * missing. */
static void file_lines(FILE *out, const ReportRun *r, char **text, int ntext, const LineAgg *a, int na,
                       const SrcRow *src, const LineRow *rows) {
  if (!text) {
    for (int i = 0; i < na; i++) line_group(out, r, NULL, a[i].line, &a[i], src, rows);
    return;
  }
  int lo, hi;
  kernel_span(r, src[a[0].first].file, &lo, &hi);
  int full = hi - lo < SRC_FULL_LINES, k = 0, gap = 0;
  for (int ln = 1; ln <= ntext; ln++) {
    while (k < na && a[k].line < (uint32_t)ln) k++;
    const LineAgg *g = k < na && a[k].line == (uint32_t)ln ? &a[k] : NULL;
    int near = (full && ln >= lo && ln <= hi) || g || (k < na && a[k].line - (uint32_t)ln <= SRC_CONTEXT) ||
               (k > 0 && (uint32_t)ln - a[k - 1].line <= SRC_CONTEXT);
    if (!near) {
      gap = 1;
      continue;
    }
    if (gap) gap_row(out);
    gap = 0;
    line_group(out, r, text[ln - 1], (uint32_t)ln, g, src, rows);
  }
  if (gap) gap_row(out);
  for (; k < na; k++) /* lines past the file's end: it changed since nvcc read it */
    if (a[k].line > (uint32_t)ntext) line_group(out, r, NULL, a[k].line, &a[k], src, rows);
}

/* The section of one file (src[lo..hi)); `n` numbers the tables. */
static void file_section(FILE *out, const ReportRun *r, const SrcRow *src, int lo, int hi, const LineRow *rows,
                         int id, int n) {
  int na;
  LineAgg *a = aggregate(src, lo, hi, &na);
  const char *file = src[lo].file;
  size_t len = 0;
  char *body = src[lo].ptx ? NULL : read_source(r, file, &len);
  int ntext = 0;
  char **text = body ? split_lines(body, len, &ntext) : NULL;
  char tid[48];
  snprintf(tid, sizeof tid, "src-%d-%d", id, n);
  fprintf(out, "<div class=\"source-file\" data-file=\"");
  report_html_text(out, file);
  fprintf(out, "\" data-lines=\"%d\" data-found=\"%d\">\n<h4>", ntext, text != NULL);
  if (src[lo].ptx) fputs("PTX instructions without line information", out);
  else report_html_text(out, file);
  if (!src[lo].ptx && !text) fputs(" <small>(not found: its memory lines with their PTX)</small>", out);
  else if (text) fputs(" <small>(the lines of this kernel)</small>", out);
  fputs("</h4>\n", out);
  table_head(out, tid, src[lo].ptx ? "ptx line" : "line");
  file_lines(out, r, text, ntext, a, na, src, rows);
  fputs("</table>\n</div>\n", out);
  free(text);
  free(body);
  free(a);
}

void report_html_source(FILE *out, const ReportRun *r, int id) {
  LineRow *rows;
  SrcRow *src;
  int nrows, nsrc;
  report_src_rows(r, &rows, &nrows, &src, &nsrc);
  fprintf(out, "<h3>Source</h3>\n<div class=\"source-view\" data-instructions=\"%d\">\n", nrows);
  if (!nsrc) fputs("<p class=\"meta\">No memory instruction ran.</p>\n", out);
  for (int lo = 0, n = 0; lo < nsrc; n++) {
    int hi = lo + 1;
    while (hi < nsrc && src[hi].ptx == src[lo].ptx && !strcmp(src[hi].file, src[lo].file)) hi++;
    file_section(out, r, src, lo, hi, rows, id, n);
    lo = hi;
  }
  fputs("</div>\n", out);
  free(rows);
  free(src);
}
