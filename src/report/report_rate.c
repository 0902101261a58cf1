/* report_rate.c - the ratios of the hierarchy counters every format shows
 * (report.h: ReportRate). */
#include "report/report.h"

#include "mem/metrics.h"

const char *const report_rate_name[REPORT_NRATES] = {
  "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct", "warpmem__dram_row_hit_rate.pct",
  "warpmem__dram_read_used.pct"};

static double pct(uint64_t num, uint64_t den) { return den ? 100.0 * (double)num / (double)den : -1; }

double report_rate(const MemModel *mm, ReportRate which) {
  const uint64_t *m = mm->metric;
  switch (which) {
  case REPORT_L1_HIT_PCT: return pct(m[WM_M_L1_HIT], m[WM_M_L1_HIT] + m[WM_M_L1_MISS]);
  case REPORT_L2_HIT_PCT: return pct(m[WM_M_L2_HIT], m[WM_M_L2_HIT] + m[WM_M_L2_MISS]);
  case REPORT_ROW_HIT_PCT: return pct(m[WM_M_ROW_HIT], m[WM_M_ROW_HIT] + m[WM_M_ROW_MISS]);
  case REPORT_DRAM_USED_PCT: return pct(m[WM_M_DRAM_USED], m[WM_M_DRAM_RD]);
  default: return -1;
  }
}
