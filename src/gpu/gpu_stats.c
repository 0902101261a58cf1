/* gpu_stats.c - statistics of timing samples: median, min, noise, the
 * throttle filter and the stop rule (pure functions, no GPU).
 *
 * Notes:
 * - Noise is nvbench's: the relative standard deviation (sample stdev, n-1,
 *   over the mean) of the samples kept.
 * - Throttling: a sample whose SM clock is below throttle_frac x the median
 *   clock of all samples ran slower for a reason that is not the kernel's
 *   (power or thermal capping, a clock still ramping up); it is dropped and
 *   counted.  Samples without a clock reading (0) are always kept.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "util/diag.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double gpu_median(const double *v, int n) {
  if (n <= 0) return 0;
  double *s = wm_xmalloc((size_t)n * sizeof *s);
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
  return m;
}

/* The median and the minimum of the clock readings that exist (> 0). */
static void clock_summary(const double *clk, int n, double *median, double *min) {
  *median = *min = 0;
  if (!clk) return;
  double *v = wm_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *v);
  int m = 0;
  for (int i = 0; i < n; i++)
    if (clk[i] > 0) v[m++] = clk[i];
  if (m) {
    *median = gpu_median(v, m);
    *min = v[0];
    for (int i = 1; i < m; i++)
      if (v[i] < *min) *min = v[i];
  }
  free(v);
}

void gpu_stats_compute(const double *times, const double *clock_mhz, int n, double throttle_frac,
                       GpuStats *s) {
  GpuStats keep_meta = *s; /* spent_s, batch and stop belong to the caller */
  memset(s, 0, sizeof *s);
  s->spent_s = keep_meta.spent_s;
  s->batch = keep_meta.batch;
  s->stop = keep_meta.stop;
  clock_summary(clock_mhz, n, &s->clock_mhz, &s->clock_min_mhz);
  double floor_mhz = s->clock_mhz * throttle_frac;
  double *kept = wm_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *kept);
  for (int i = 0; i < n; i++) {
    int throttled = clock_mhz && clock_mhz[i] > 0 && clock_mhz[i] < floor_mhz;
    if (throttled) s->discarded++;
    else kept[s->n++] = times[i];
  }
  if (s->n) {
    double sum = 0;
    s->min_s = s->max_s = kept[0];
    for (int i = 0; i < s->n; i++) {
      sum += kept[i];
      if (kept[i] < s->min_s) s->min_s = kept[i];
      if (kept[i] > s->max_s) s->max_s = kept[i];
    }
    s->mean_s = sum / s->n;
    s->median_s = gpu_median(kept, s->n);
    if (s->n >= 2 && s->mean_s > 0) {
      double ss = 0;
      for (int i = 0; i < s->n; i++) ss += (kept[i] - s->mean_s) * (kept[i] - s->mean_s);
      s->noise = sqrt(ss / (s->n - 1)) / s->mean_s;
    }
  }
  free(kept);
}

GpuStopReason gpu_stop_rule(const GpuMeasureConfig *c, const GpuStats *s, int taken) {
  if (s->n >= c->min_samples && s->n >= 2 && s->noise <= c->max_noise) return GPU_STOP_NOISE;
  if (taken >= c->max_samples) return GPU_STOP_MAX_SAMPLES;
  /* the budget is soft: three kept samples make a median worth reporting,
   * unless the clock keeps the samples out for four budgets */
  if (s->spent_s >= c->budget_s && (s->n >= 3 || s->spent_s >= 4 * c->budget_s)) return GPU_STOP_BUDGET;
  return GPU_STOP_CONTINUE;
}

const char *gpu_stop_reason_name(GpuStopReason r) {
  switch (r) {
  case GPU_STOP_CONTINUE: return "not stopped";
  case GPU_STOP_NOISE: return "noise";
  case GPU_STOP_BUDGET: return "budget";
  case GPU_STOP_MAX_SAMPLES: return "max-samples";
  }
  return "?";
}

void gpu_measure_defaults(GpuMeasureConfig *c) {
  *c = (GpuMeasureConfig){.warmup = 3,
                          .min_samples = 10,
                          .max_samples = 1000,
                          .max_noise = 0.005,
                          .budget_s = 0.5,
                          .throttle_frac = 0.90,
                          .hot_batch_s = 1e-3,
                          .cold = 1,
                          .hot = 1,
                          .check_clock = 1};
  const char *b = getenv("WARPMEM_GPU_BUDGET");
  if (b && *b) {
    char *end;
    double v = strtod(b, &end);
    if (*end == '\0' && v > 0 && v < 3600) c->budget_s = v;
  }
}
