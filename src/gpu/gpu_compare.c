/* gpu_compare.c - the GPU's output buffers against the emulator's.
 *
 * Integers must be equal.  Floats pass when |got - want| <= abs + rel |want|
 * (NaN matches NaN, an infinity only the same infinity), with defaults
 *   f32: rel 1e-5 (about 84 ulp), abs 1e-6;  f64: rel 1e-12, abs 1e-14;
 *   f16: rel 2e-3 (2 ulp), abs 1e-4;  bf16: rel 1.6e-2 (2 ulp), abs 1e-3:
 *   a half sum of f32 terms rounds once at the end, and a term added in
 *   another order by the tensor cores moves it an ulp.
 * Why not bit-exact: ptxas may contract a PTX mul.f32 and add.f32 without
 * a rounding modifier into one fma (the emulator rounds twice); the .approx
 * functions (sin, ex2, rcp.approx, ...) differ between the GPU's units and
 * the host's C library by a few ulp; float atomics add in whatever order
 * the hardware schedules them.  Summations of K terms in one thread run in
 * the PTX's order on both, so the error stays a few ulp per term, not
 * K-dependent.  The absolute term keeps values that should be 0 (a
 * difference of equal sums) from failing on round-off.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu.h"
#include "util/half.h"

GpuTolerance gpu_default_tolerance(PtxType t) {
  if (t == PTX_T_F64) return (GpuTolerance){.rel = 1e-12, .abs = 1e-14};
  if (t == PTX_T_F16) return (GpuTolerance){.rel = 2e-3, .abs = 1e-4};
  if (t == PTX_T_BF16) return (GpuTolerance){.rel = 1.6e-2, .abs = 1e-3};
  return (GpuTolerance){.rel = 1e-5, .abs = 1e-6};
}

static uint64_t load_le(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = v << 8 | p[i];
  return v;
}

static double as_float(uint64_t bits, PtxType t, unsigned size) {
  if (size == 2) return t == PTX_T_BF16 ? wm_bf16_value((uint16_t)bits) : wm_f16_value((uint16_t)bits);
  if (size == 4) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    return f;
  }
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

static void print_elem(char *buf, size_t n, uint64_t bits, PtxType t, unsigned size) {
  if (ptx_type_is_float(t)) snprintf(buf, n, size <= 2 ? "%.5g" : size == 4 ? "%.9g" : "%.17g", as_float(bits, t, size));
  else if (ptx_type_is_signed(t)) {
    int64_t v = (int64_t)(bits << (64 - 8 * size)) >> (64 - 8 * size); /* sign-extend */
    snprintf(buf, n, "%lld", (long long)v);
  } else
    snprintf(buf, n, "%llu", (unsigned long long)bits);
}

/* Whether two floats agree, updating the largest errors seen. */
static int floats_agree(double g, double w, const GpuTolerance *tol, GpuMismatch *m) {
  if (isnan(g) || isnan(w)) return isnan(g) && isnan(w);
  if (isinf(g) || isinf(w)) return g == w;
  double err = fabs(g - w);
  if (err > m->max_abs_err) m->max_abs_err = err;
  if (w != 0 && err / fabs(w) > m->max_rel_err) m->max_rel_err = err / fabs(w); /* none against 0 */
  return err <= tol->abs + tol->rel * fabs(w);
}

uint64_t gpu_compare_buf(const GBuf *got, const GBuf *want, const GpuTolerance *tol, GpuMismatch *m) {
  memset(m, 0, sizeof *m);
  PtxType t = (PtxType)want->type;
  unsigned size = ptx_type_size(t);
  if (size == 0 || size > 8) size = 1; /* untyped: compare bytes */
  int is_float = ptx_type_is_float(t) && (size == 2 || size == 4 || size == 8);
  GpuTolerance dflt = gpu_default_tolerance(t);
  if (!tol) tol = &dflt;
  uint64_t bytes = got->size < want->size ? got->size : want->size;
  uint64_t n = bytes / size;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t g = load_le(got->data + i * size, size), w = load_le(want->data + i * size, size);
    int ok = g == w || (is_float && floats_agree(as_float(g, t, size), as_float(w, t, size), tol, m));
    if (ok) continue;
    if (m->count++ == 0) {
      m->first = i;
      print_elem(m->got, sizeof m->got, g, t, size);
      print_elem(m->want, sizeof m->want, w, t, size);
    }
  }
  return m->count;
}

int gpu_compare_buffers(const GlobalMem *gpu, const GlobalMem *emu, const LaunchSpec *l,
                        const GpuTolerance *tol, WmErr *e) {
  if (emu->n < gpu->n)
    return wm_err(e, WM_EGPU, "launch %s: the GPU has %d buffers, the emulator %d", l->label, gpu->n, emu->n);
  char msg[sizeof e->msg];
  size_t len = 0;
  int bad = 0;
  for (int b = 0; b < gpu->n; b++) {
    const GBuf *g = &gpu->buf[b], *w = &emu->buf[b];
    if (g->size != w->size || g->type != w->type || strcmp(g->name, w->name))
      return wm_err(e, WM_EGPU, "launch %s: buffer %d is %s (%llu bytes) on the GPU but %s (%llu bytes) in the emulator",
                    l->label, b, g->name, (unsigned long long)g->size, w->name, (unsigned long long)w->size);
    GpuMismatch m;
    if (!gpu_compare_buf(g, w, tol, &m)) continue;
    GpuTolerance dflt = gpu_default_tolerance((PtxType)w->type);
    const GpuTolerance *t = tol ? tol : &dflt;
    int floaty = ptx_type_is_float((PtxType)w->type);
    int k = snprintf(msg + len, sizeof msg - len,
                     "%slaunch %s: %s: %llu of %llu elements differ%s; first at [%llu]: GPU %s, emulator %s",
                     bad ? "\n" : "", l->label, g->name, (unsigned long long)m.count,
                     (unsigned long long)(w->size / (ptx_type_size((PtxType)w->type) ? ptx_type_size((PtxType)w->type) : 1)),
                     floaty ? "" : " (integers: exact)", (unsigned long long)m.first, m.got, m.want);
    if (k > 0 && (size_t)k < sizeof msg - len) len += (size_t)k;
    if (floaty) {
      k = snprintf(msg + len, sizeof msg - len, " (tolerance rel %g + abs %g; largest error abs %g, rel %g)",
                   t->rel, t->abs, m.max_abs_err, m.max_rel_err);
      if (k > 0 && (size_t)k < sizeof msg - len) len += (size_t)k;
    }
    bad++;
  }
  if (bad) return wm_err(e, WM_EGPU, "%s", msg);
  return 0;
}
