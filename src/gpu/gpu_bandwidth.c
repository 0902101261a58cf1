/* gpu_bandwidth.c - the device's own copy bandwidth, a reference point for
 * the lab: cuMemcpyDtoD and the runner's float4 copy kernel (wm_copy4, in
 * gpu_kernels.c), each timed with gpu_measure.c's engine.
 *
 * Notes:
 * - Each copy is timed alone (batch 1) with no L2 flush: the buffers (1 GiB
 *   by default) are far larger than the L2, so every copy reads and writes
 *   DRAM.
 * - bytes = read + written = 2 x size.
 */
#include <string.h>

#include "gpu/gpu_int.h"

typedef struct CopyCtx {
  Gpu *g;
  CUdeviceptr dst, src;
  size_t size;
} CopyCtx;

static int enqueue_d2d(void *p, WmErr *e) {
  CopyCtx *c = p;
  GPU_TRY(c->g, e, "the device-to-device copy", cuMemcpyDtoD, (c->dst, c->src, c->size));
  return 0;
}

static int enqueue_copy4(void *p, WmErr *e) {
  CopyCtx *c = p;
  return gpu_copy4_enqueue(c->g, c->dst, c->src, c->size / 16, e);
}

/* Each copy timed alone (batch 1, no flush): the buffers are far larger
 * than the L2, so every copy reads and writes DRAM. */
static int time_copy(Gpu *g, CopyCtx *cc, int (*enq)(void *, WmErr *), const GpuMeasureConfig *c,
                     GpuStats *s, WmErr *e) {
  GpuWork w = {enq, cc};
  double last;
  if (gpu_measure_warmup(g, &w, c, &last, e)) return -1;
  return gpu_measure_series(g, &w, c, 0, 1, s, e);
}

int gpu_copy_bandwidth(Gpu *g, uint64_t size, const GpuMeasureConfig *c, GpuBandwidth *out, WmErr *e) {
  memset(out, 0, sizeof *out);
  if (size == 0) size = 1ull << 30;
  size &= ~15ull;
  if (size == 0) return wm_err(e, WM_EUSAGE, "copy bandwidth: the size must be at least 16 bytes");
  if (gpu_tools_init(g, e)) return -1;
  CopyCtx cc = {g, 0, 0, (size_t)size};
  int rc = -1;
  CUresult r = g->cu.cuMemAlloc(&cc.src, cc.size);
  if (r != CUDA_SUCCESS) return gpu_cu_fail(g, e, r, "cuMemAlloc", "the copy's source");
  r = g->cu.cuMemAlloc(&cc.dst, cc.size);
  if (r != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuMemAlloc", "the copy's destination");
    goto out;
  }
  r = g->cu.cuMemsetD8(cc.src, 1, cc.size);
  if (r != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuMemsetD8", "the copy's source");
    goto out;
  }
  out->bytes = 2.0 * (double)size;
  if (time_copy(g, &cc, enqueue_d2d, c, &out->d2d, e) ||
      time_copy(g, &cc, enqueue_copy4, c, &out->vec4, e))
    goto out;
  out->d2d_gbps = out->d2d.median_s > 0 ? out->bytes / out->d2d.median_s / 1e9 : 0;
  out->vec4_gbps = out->vec4.median_s > 0 ? out->bytes / out->vec4.median_s / 1e9 : 0;
  rc = 0;
out:
  if (cc.dst) g->cu.cuMemFree(cc.dst);
  g->cu.cuMemFree(cc.src);
  return rc;
}
