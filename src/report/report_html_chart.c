/* report_html_chart.c - the memory chart of a launch, as Nsight Compute's
 * Memory Workload Analysis draws it: the kernel, L1/TEX and shared memory,
 * L2 and DRAM as boxes (hit rates inside), the traffic between them on
 * arrows (requests, sectors or wavefronts, bytes).  Every number is also a
 * data-* attribute: boxes carry data-unit and data-hit-pct, arrows
 * data-link, data-op, data-requests, data-units, data-unit-kind and
 * data-bytes. */
#include "report/report_html_int.h"

#include "mem/metrics.h"

/* One arrow: what goes from one box to the next. */
typedef struct Flow {
  const char *link;      /* "kernel-l1", "kernel-shared", "l1-l2", "l2-dram" */
  const char *op;        /* "load", "store", ... */
  uint64_t req, units;   /* requests (instructions for shared), units */
  const char *req_name, *unit_name;
  double bytes;          /* -1: not meaningful (shared wavefronts) */
} Flow;

enum { W = 1000, KX = 10, KW = 110, L1X = 300, BW = 150, L2X = 620, DX = 885, DW = 110, TOP = 34, ROW = 44 };

static uint64_t m(const ReportRun *r, int k) { return r->mm->metric[k]; }

/* The arrows into L1 from the kernel (global, local, texture, surface). */
static int l1_flows(const ReportRun *r, Flow *f) {
  int n = 0;
  uint64_t ld_req = m(r, WM_M_GLD_REQ) + m(r, WM_M_LLD_REQ) + m(r, WM_M_LDGSTS_REQ);
  uint64_t ld_sec = m(r, WM_M_GLD_SEC) + m(r, WM_M_LLD_SEC) + m(r, WM_M_LDGSTS_SEC);
  uint64_t st_req = m(r, WM_M_GST_REQ) + m(r, WM_M_LST_REQ), st_sec = m(r, WM_M_GST_SEC) + m(r, WM_M_LST_SEC);
  uint64_t at_req = m(r, WM_M_GATOM_REQ) + m(r, WM_M_GRED_REQ), at_sec = m(r, WM_M_GATOM_SEC) + m(r, WM_M_GRED_SEC);
  uint64_t tx_req = m(r, WM_M_TEX_REQ) + m(r, WM_M_SULD_REQ) + m(r, WM_M_SUST_REQ);
  uint64_t tx_sec = m(r, WM_M_TEX_SEC) + m(r, WM_M_SULD_SEC) + m(r, WM_M_SUST_SEC);
  if (ld_req || ld_sec || !(st_req | at_req | tx_req))
    f[n++] = (Flow){"kernel-l1", "load", ld_req, ld_sec, "req", "sectors", 32.0 * (double)ld_sec};
  if (st_req || st_sec) f[n++] = (Flow){"kernel-l1", "store", st_req, st_sec, "req", "sectors", 32.0 * (double)st_sec};
  if (at_req || at_sec) f[n++] = (Flow){"kernel-l1", "atomic", at_req, at_sec, "req", "sectors", 32.0 * (double)at_sec};
  if (tx_req || tx_sec)
    f[n++] = (Flow){"kernel-l1", "texture", tx_req, tx_sec, "req", "sectors", 32.0 * (double)tx_sec};
  return n;
}

static Flow shared_flow(const ReportRun *r) {
  uint64_t inst = m(r, WM_M_SLD_INST) + m(r, WM_M_SST_INST) + m(r, WM_M_SATOM_INST) + m(r, WM_M_LDSM_INST) +
                  m(r, WM_M_STSM_INST) + m(r, WM_M_LDGSTS_INST);
  uint64_t wf = m(r, WM_M_SLD_WF) + m(r, WM_M_SST_WF) + m(r, WM_M_SATOM_WF) + m(r, WM_M_LDSM_WF) +
                m(r, WM_M_STSM_WF) + m(r, WM_M_LDGSTS_WF);
  int old = r->mm->gen.banks != MEM_BANKS_SM70;
  return (Flow){"kernel-shared", "shared", inst, wf, "inst", old ? "transactions" : "wavefronts", -1};
}

static int l2_flows(const ReportRun *r, Flow *f) {
  int n = 0;
  f[n++] = (Flow){"l1-l2", "read", m(r, WM_M_L2_RDREQ), m(r, WM_M_L2_RD), "req", "sectors", 32.0 * (double)m(r, WM_M_L2_RD)};
  f[n++] = (Flow){"l1-l2", "write", m(r, WM_M_L2_WRREQ), m(r, WM_M_L2_WR), "req", "sectors",
                  32.0 * (double)m(r, WM_M_L2_WR)};
  if (m(r, WM_M_L2_ATOM))
    f[n++] = (Flow){"l1-l2", "atomic", 0, m(r, WM_M_L2_ATOM), "req", "sectors", 32.0 * (double)m(r, WM_M_L2_ATOM)};
  return n;
}

/* An arrow from x0 to x1 at height y, its two label lines above it. */
static void arrow(FILE *out, const Flow *f, int x0, int x1, int y) {
  char req[32], units[32], bytes[32] = "";
  report_html_si(req, sizeof req, (double)f->req);
  report_html_si(units, sizeof units, (double)f->units);
  if (f->bytes >= 0) report_html_bytes(bytes, sizeof bytes, f->bytes);
  fprintf(out, "<g class=\"arrow\" data-link=\"%s\" data-op=\"%s\" data-requests=\"%llu\" data-units=\"%llu\" "
               "data-unit-kind=\"%s\" data-bytes=\"%.0f\">",
          f->link, f->op, (unsigned long long)f->req, (unsigned long long)f->units, f->unit_name,
          f->bytes >= 0 ? f->bytes : 0.0);
  fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#4a6b8a\" stroke-width=\"2\" "
               "marker-end=\"url(#wm-arrow)\"/>", x0 + 2, y, x1 - 4, y);
  int mid = (x0 + x1) / 2;
  if (f->req || f->unit_name[0] == 'w' || f->unit_name[0] == 't')
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s: %s %s</text>", mid, y - 18,
            f->op, req, f->req_name);
  else
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>", mid, y - 18, f->op);
  if (f->unit_name[0])
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s %s%s%s</text></g>\n", mid,
            y - 5, units, f->unit_name, bytes[0] ? " \xc2\xb7 " : "", bytes);
  else /* DRAM: bytes only */
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text></g>\n", mid, y - 5, bytes);
}

/* A box with a title and up to three lines; `pct` the hit rate (-1: none). */
static void box(FILE *out, const char *unit, const char *title, int x, int y, int w, int h, double pct,
                const char *l1, const char *l2) {
  fprintf(out, "<g class=\"box\" data-unit=\"%s\"", unit);
  if (pct >= 0) fprintf(out, " data-hit-pct=\"%.2f\"", pct);
  fprintf(out, "><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"#eef4e4\" stroke=\"#5b7f1f\"/>",
          x, y, w, h);
  fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\">%s</text>",
          x + w / 2, y + 20, title);
  if (l1 && *l1)
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>", x + w / 2, y + 40, l1);
  if (l2 && *l2)
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>", x + w / 2, y + 58, l2);
  fputs("</g>\n", out);
}

static void rate_text(char *buf, size_t n, const char *what, double pct) {
  if (pct >= 0) snprintf(buf, n, "%s %.1f%%", what, pct);
  else buf[0] = '\0';
}

/* The boxes of the hierarchy beyond L1: only where the caches were
 * modelled (r->time set); their hit rates and the traffic between them. */
static void beyond_l1(FILE *out, const ReportRun *r, int h1) {
  char a[48], b[48];
  int timed = r->time != NULL;
  rate_text(a, sizeof a, "hit", timed ? report_rate(r->mm, REPORT_L2_HIT_PCT) : -1);
  if (r->arch) snprintf(b, sizeof b, "%d MiB", r->arch->l2_bytes >> 20);
  else b[0] = '\0';
  box(out, "l2", "L2 cache", L2X, TOP, BW, h1, timed ? report_rate(r->mm, REPORT_L2_HIT_PCT) : -1, a, b);
  rate_text(a, sizeof a, "row hits", timed ? report_rate(r->mm, REPORT_ROW_HIT_PCT) : -1);
  rate_text(b, sizeof b, "used", timed ? report_rate(r->mm, REPORT_DRAM_USED_PCT) : -1);
  box(out, "dram", r->arch && r->arch->dram ? r->arch->dram : "DRAM", DX, TOP, DW, h1,
      timed ? report_rate(r->mm, REPORT_ROW_HIT_PCT) : -1, a, b);
  Flow f[3];
  int n = l2_flows(r, f);
  for (int i = 0; i < n; i++) arrow(out, &f[i], L1X + BW, L2X, TOP + 40 + i * ROW);
  Flow d[2] = {{"l2-dram", "read", 0, 0, "req", "", (double)m(r, WM_M_DRAM_RD)},
               {"l2-dram", "write", 0, 0, "req", "", (double)m(r, WM_M_DRAM_WR)}};
  for (int i = 0; i < 2; i++) arrow(out, &d[i], L2X + BW, DX, TOP + 40 + i * ROW);
  if (!timed)
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#a00\">caches not modelled "
                 "(--no-caches)</text>\n", L2X, TOP + h1 + 16);
}

void report_html_chart(FILE *out, const ReportRun *r) {
  Flow f[4];
  int n = l1_flows(r, f);
  int h1 = n * ROW + 36 < 110 ? 110 : n * ROW + 36;
  int sy = TOP + h1 + 24, sh = 70, h = sy + sh + 12;
  fputs("<h3>Memory chart</h3>\n", out);
  fprintf(out, "<svg class=\"mem-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
               "aria-label=\"memory chart\">\n", W, h, W, h);
  fputs("<defs><marker id=\"wm-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
        "markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#4a6b8a\"/></marker></defs>\n", out);
  fprintf(out, "<g class=\"box\" data-unit=\"kernel\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" "
               "fill=\"#e4ecf5\" stroke=\"#4a6b8a\"/><text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\" "
               "text-anchor=\"middle\">Kernel</text></g>\n", KX, TOP, KW, sy + sh - TOP, KX + KW / 2, TOP + 20);
  char a[48], b[48];
  int timed = r->time != NULL;
  double l1 = timed ? report_rate(r->mm, REPORT_L1_HIT_PCT) : -1;
  rate_text(a, sizeof a, "hit", l1);
  b[0] = '\0';
  if (r->occ) snprintf(b, sizeof b, "%u KiB per SM", r->occ->l1_bytes / 1024);
  box(out, "l1", "L1/TEX cache", L1X, TOP, BW, h1, l1, a, b);
  for (int i = 0; i < n; i++) arrow(out, &f[i], KX + KW, L1X, TOP + 40 + i * ROW);
  Flow s = shared_flow(r);
  char bc[48] = "";
  uint64_t conf = m(r, WM_M_SLD_BC) + m(r, WM_M_SST_BC) + m(r, WM_M_LDSM_BC) + m(r, WM_M_STSM_BC) + m(r, WM_M_LDGSTS_BC);
  if (s.units) snprintf(bc, sizeof bc, "conflicts %.1f%%", 100.0 * (double)conf / (double)s.units);
  box(out, "shared", "Shared memory", L1X, sy, BW, sh, -1, bc, "");
  arrow(out, &s, KX + KW, L1X, sy + 40);
  beyond_l1(out, r, h1);
  fputs("</svg>\n", out);
}
