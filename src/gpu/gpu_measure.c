/* gpu_measure.c - timing work on the GPU: warm-up, cold and hot series of
 * event-timed samples, the SM clock around each, and the stop rule.
 *
 * Notes (after nvbench's cold and hot measurements):
 * - A cold sample flushes the L2 (a memset of twice its size) and then times
 *   one run alone between two events; it is what a kernel costs when its
 *   data comes from DRAM.
 * - A hot sample times `batch` back-to-back runs between two events and
 *   divides: launch gaps are hidden and data left in the L2 by the run
 *   before is reused, as in a loop of launches in an application.  batch is
 *   chosen so a sample lasts about hot_batch_s (events resolve about 0.5 us).
 * - The clock probe runs before and after each sample (outside the events);
 *   the lower of the two readings is the sample's clock.
 * - Elapsed time and clock readings need the stream to drain, so each
 *   sample synchronizes once; the host time this costs counts against the
 *   budget, not against the sample.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_int.h"

static int run_batch(const GpuWork *w, int batch, WmErr *e) {
  for (int i = 0; i < batch; i++)
    if (w->enqueue(w->ctx, e)) return -1;
  return 0;
}

/* One sample: [flush] [probe] ev0 work x batch ev1 [probe], then wait. */
static int take_sample(Gpu *g, const GpuWork *w, const GpuMeasureConfig *c, int cold, int batch,
                       double *t, double *mhz, WmErr *e) {
  if (cold && gpu_l2_flush(g, e)) return -1;
  if (c->check_clock && gpu_clock_probe(g, 0, e)) return -1;
  GPU_TRY(g, e, "the sample's start event", cuEventRecord, (g->ev[0], NULL));
  if (run_batch(w, batch, e)) return -1;
  GPU_TRY(g, e, "the sample's end event", cuEventRecord, (g->ev[1], NULL));
  if (c->check_clock && gpu_clock_probe(g, 1, e)) return -1;
  GPU_TRY(g, e, "the timed work", cuCtxSynchronize, ());
  float ms = 0;
  GPU_TRY(g, e, "the sample's time", cuEventElapsedTime, (&ms, g->ev[0], g->ev[1]));
  *t = 1e-3 * (double)ms / batch;
  *mhz = 0;
  if (c->check_clock && gpu_clock_read(g, mhz, e)) return -1;
  return 0;
}

int gpu_measure_warmup(Gpu *g, const GpuWork *w, const GpuMeasureConfig *c, double *last_s, WmErr *e) {
  if (gpu_tools_init(g, e)) return -1;
  int n = c->warmup > 0 ? c->warmup : 1;
  GpuMeasureConfig quiet = *c;
  quiet.check_clock = 0;
  for (int i = 0; i < n; i++) {
    double mhz;
    if (take_sample(g, w, &quiet, 0, 1, last_s, &mhz, e)) return -1;
  }
  return 0;
}

/* Back-to-back runs in one hot sample: enough to last about hot_batch_s. */
static int hot_batch_size(const GpuMeasureConfig *c, double one_run_s) {
  if (one_run_s <= 0) return 100;
  double b = ceil(c->hot_batch_s / one_run_s);
  return b < 1 ? 1 : b > 1000 ? 1000 : (int)b;
}

int gpu_measure_series(Gpu *g, const GpuWork *w, const GpuMeasureConfig *c, int cold, int batch,
                       GpuStats *s, WmErr *e) {
  memset(s, 0, sizeof *s);
  if (gpu_tools_init(g, e)) return -1;
  if (cold) batch = 1;
  if (batch <= 0) {
    double one;
    if (gpu_measure_warmup(g, w, &(GpuMeasureConfig){.warmup = 1}, &one, e)) return -1;
    batch = hot_batch_size(c, one);
  }
  int cap = c->max_samples > 0 ? c->max_samples : 1;
  double *t = wm_xmalloc((size_t)cap * sizeof *t), *mhz = wm_xmalloc((size_t)cap * sizeof *mhz);
  double t0 = gpu_now();
  int taken = 0, rc = -1;
  GpuStopReason stop = GPU_STOP_CONTINUE;
  while (stop == GPU_STOP_CONTINUE) {
    if (take_sample(g, w, c, cold, batch, &t[taken], &mhz[taken], e)) goto out;
    taken++;
    s->spent_s = gpu_now() - t0;
    s->batch = batch;
    gpu_stats_compute(t, c->check_clock ? mhz : NULL, taken, c->throttle_frac, s);
    stop = gpu_stop_rule(c, s, taken);
  }
  s->stop = stop;
  if (s->n == 0) {
    wm_err(e, WM_EGPU,
           "every one of %d samples ran with the SM clock below %.0f%% of the median (%.0f MHz): "
           "the GPU is throttling; nothing measured",
           taken, 100 * c->throttle_frac, s->clock_mhz);
    goto out;
  }
  rc = 0;
out:
  free(t);
  free(mhz);
  return rc;
}

static void rates(GpuTiming *t) {
  if (t->cold.median_s > 0) {
    t->cold_gbps = t->bytes / t->cold.median_s / 1e9;
    t->cold_gflops = t->flops / t->cold.median_s / 1e9;
  }
  if (t->hot.median_s > 0) {
    t->hot_gbps = t->bytes / t->hot.median_s / 1e9;
    t->hot_gflops = t->flops / t->hot.median_s / 1e9;
  }
}

int gpu_measure_work(Gpu *g, const GpuWork *w, const GpuMeasureConfig *c, double bytes, double flops,
                     GpuTiming *t, WmErr *e) {
  memset(t, 0, sizeof *t);
  t->bytes = bytes;
  t->flops = flops;
  t->max_clock_mhz = g->info.clock_khz / 1e3;
  double one;
  if (gpu_measure_warmup(g, w, c, &one, e)) return -1;
  if (c->cold && gpu_measure_series(g, w, c, 1, 1, &t->cold, e)) return -1;
  if (c->hot && gpu_measure_series(g, w, c, 0, hot_batch_size(c, one), &t->hot, e)) return -1;
  rates(t);
  return 0;
}
