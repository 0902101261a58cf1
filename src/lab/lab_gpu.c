/* lab_gpu.c - the lab on a GPU (through gpu/gpu.h): the device's reference
 * points, and per launch the output check and the timing.
 *
 * Notes:
 * - Outputs are checked at the simulated size, where the emulator's buffers
 *   exist: the GPU runs the //@ launch on the same initial data and every
 *   buffer is compared (integers exactly, floats within gpu_compare.c's
 *   tolerance).  Kernels that race on purpose (seed 000's a[0]++) name the
 *   elements a race may change with `tolerate:`.
 * - Timing is at the gpu: size.  "time" in the tables is the hot median
 *   (back-to-back launches, as the seeds timed them); the cold median (L2
 *   flushed before each launch, as Nsight Compute profiles) is beside it.
 * - Speedups divide the experiment's baseline (first launch) hot median by
 *   the launch's; % of peak is of the device-to-device copy bandwidth
 *   measured first, or of cuBLAS SGEMM at the experiment's size.
 */
#include <stdio.h>
#include <string.h>

#include "lab/lab.h"

int lab_gpu_open(Lab *lab, Gpu **g) {
  WmErr e = {0};
  *g = NULL;
  if (gpu_open(lab->opt.device, g, &e)) {
    const char *why = e.msg;
    if (!strncmp(why, "no GPU found: ", 14)) why += 14; /* said once, by the caller */
    snprintf(lab->refs.no_gpu_reason, sizeof lab->refs.no_gpu_reason, "%.500s", why);
    *g = NULL;
    return -1;
  }
  lab->refs.have_gpu = 1;
  lab->refs.info = *gpu_info(*g);
  return 0;
}

double lab_cublas_seconds(const Lab *lab, int n) {
  for (int i = 0; i < lab->refs.ncublas; i++)
    if (lab->refs.cublas_n[i] == n) return lab->refs.cublas_s[i];
  return 0;
}

/* The copy bandwidth, and cuBLAS at each size an experiment compares with. */
void lab_gpu_refs(Lab *lab, Gpu *g) {
  WmErr e = {0};
  LabRefs *r = &lab->refs;
  if (lab->opt.progress) fprintf(stderr, "warpmem lab: measuring the device-to-device copy bandwidth\n");
  if (gpu_copy_bandwidth(g, 0, &lab->opt.mc, &r->copy, &e) == 0) r->have_copy = 1;
  else fprintf(stderr, "warpmem lab: copy bandwidth: %s\n", e.msg);
  for (int x = 0; x < lab->cat.nexps; x++) {
    const LabExp *ex = &lab->cat.exps[x];
    int used = 0;
    for (int i = ex->first; i < ex->first + ex->n; i++) used |= lab->res[i].selected;
    if (!used || ex->peak != LAB_PEAK_CUBLAS || r->cublas_note[0]) continue;
    int seen = 0;
    for (int k = 0; k < r->ncublas; k++) seen |= r->cublas_n[k] == ex->peak_n;
    if (seen || r->ncublas == (int)(sizeof r->cublas_n / sizeof *r->cublas_n)) continue;
    if (lab->opt.progress) fprintf(stderr, "warpmem lab: cuBLAS SGEMM %d\n", ex->peak_n);
    GpuTiming t;
    if (gpu_cublas_sgemm_time(g, ex->peak_n, &lab->opt.mc, &t, &e)) {
      snprintf(r->cublas_note, sizeof r->cublas_note, "%.250s", e.msg);
      continue;
    }
    r->cublas_n[r->ncublas] = ex->peak_n;
    r->cublas_s[r->ncublas++] = t.hot.median_s;
  }
}

/* Counts the GPU's output elements that differ from the emulator's, and
 * says so in r->match. */
static void check_outputs(const LabLaunch *l, LabResult *r, const GlobalMem *gpu, const GlobalMem *emu) {
  uint64_t bad = 0;
  char first[200] = "";
  for (int b = 0; b < gpu->n && b < emu->n; b++) {
    GpuMismatch m;
    memset(&m, 0, sizeof m);
    uint64_t n = gpu_compare_buf(&gpu->buf[b], &emu->buf[b], NULL, &m);
    if (n && !first[0])
      snprintf(first, sizeof first, "%s[%llu] = %s on the GPU, %s emulated", gpu->buf[b].name,
               (unsigned long long)m.first, m.got, m.want);
    bad += n;
  }
  if (bad == 0) {
    snprintf(r->match, sizeof r->match, "equal");
    r->match_ok = 1;
  } else if (bad <= l->tolerate) {
    snprintf(r->match, sizeof r->match, "equal but %llu (race, tolerated)", (unsigned long long)bad);
    r->match_ok = 1;
  } else {
    snprintf(r->match, sizeof r->match, "%llu differ: %s", (unsigned long long)bad, first);
    r->match_ok = 0;
  }
}

static int prepare(Lab *lab, GpuModule *gm, const PtxKernel *k, const LabLaunch *l, const LaunchSpec *spec,
                   GpuLaunch **L, WmErr *e) {
  if (gpu_launch_prepare(gm, k, spec, lab->opt.sim.init, lab->opt.sim.seed, L, e)) return -1;
  if (l->carveout >= 0 && gpu_launch_set_carveout(*L, l->carveout, e)) {
    gpu_launch_free(*L);
    *L = NULL;
    return -1;
  }
  return 0;
}

void lab_gpu_launch(Lab *lab, Gpu *g, GpuModule *gm, const PtxModule *mod, int i, const GlobalMem *emu) {
  (void)g;
  const LabLaunch *l = &lab->cat.launches[i];
  LabResult *r = &lab->res[i];
  WmErr e = {0};
  GpuLaunch *L = NULL;
  const PtxKernel *k = ptx_find_kernel(mod, l->sim.name, &e);
  if (!k) goto fail;
  /* the output check, at the simulated size */
  if (emu) {
    if (prepare(lab, gm, k, l, &l->sim, &L, &e) || gpu_launch_run(L, &e) || gpu_launch_download(L, &e)) goto fail;
    check_outputs(l, r, gpu_launch_buffers(L), emu);
  } else if (r->twin >= 0) { /* same launch as an earlier one: same outputs */
    snprintf(r->match, sizeof r->match, "%s", lab->res[r->twin].match);
    r->match_ok = lab->res[r->twin].match_ok;
  }
  if (lab->opt.no_time) {
    if (L) gpu_launch_free(L);
    return;
  }
  /* the timing, at the GPU size */
  if (l->has_gpu_spec || !L) {
    if (L) gpu_launch_free(L);
    L = NULL;
    if (prepare(lab, gm, k, l, &l->gpu, &L, &e)) goto fail;
  }
  if (gpu_launch_attrs(L, &r->attrs, &e) || gpu_launch_measure(L, &lab->opt.mc, l->bytes, l->flops, &r->t, &e))
    goto fail;
  r->measured = 1;
  gpu_launch_free(L);
  return;
fail:
  snprintf(r->gpu_error, sizeof r->gpu_error, "%s", e.msg);
  if (!r->match[0]) snprintf(r->match, sizeof r->match, "not run");
  if (L) gpu_launch_free(L);
}

/* Speedups over each experiment's baseline and % of peak. */
void lab_gpu_derive(Lab *lab) {
  for (int x = 0; x < lab->cat.nexps; x++) {
    const LabExp *ex = &lab->cat.exps[x];
    double base = 0;
    for (int i = ex->first; i < ex->first + ex->n; i++) {
      LabResult *r = &lab->res[i];
      if (!r->measured || r->t.hot.median_s <= 0) continue;
      if (base == 0 && i == ex->first) base = r->t.hot.median_s;
      if (base > 0) r->speedup = base / r->t.hot.median_s;
      if (ex->peak == LAB_PEAK_COPY && lab->refs.have_copy && lab->refs.copy.d2d_gbps > 0)
        r->pct_peak = 100.0 * r->t.hot_gbps / lab->refs.copy.d2d_gbps;
      else if (ex->peak == LAB_PEAK_CUBLAS && lab_cublas_seconds(lab, ex->peak_n) > 0)
        r->pct_peak = 100.0 * lab_cublas_seconds(lab, ex->peak_n) / r->t.hot.median_s;
    }
  }
}
