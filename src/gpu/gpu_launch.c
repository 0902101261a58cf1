/* gpu_launch.c - modules and launches on the GPU, from the same PTX and the
 * same //@ specs the emulator runs.
 *
 * Notes:
 * - Buffers are filled by launch_bind, the emulator's own binder, so the
 *   GPU starts from the bytes the emulator starts from; only the addresses
 *   differ, and gpu_params_for_device swaps them in the parameter buffer.
 * - Parameters are passed as kernelParams: one pointer per .param, into the
 *   parameter buffer at the offset the PTX gives it.
 * - Module .global and __constant__ variables live in the CUmodule, with the
 *   initializers the PTX gives them (the emulator's defaults too).
 * - tex: and surf: arguments become CUDA arrays and objects (gpu_tex.c);
 *   tmap: arguments tensor maps the driver encodes (gpu_tmap.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_int.h"

/* A static kernel may use 48 KiB of shared memory without asking. */
#define GPU_SMEM_DEFAULT_LIMIT (48u * 1024u)

/* ---- modules ------------------------------------------------------------ */

int gpu_module_load(Gpu *g, const PtxModule *m, GpuModule **out, WmErr *e) {
  *out = NULL;
  if (!m->text) return wm_err(e, WM_EUSAGE, "%s: the module has no PTX text to load", m->path);
  char *log = wm_xcalloc(8192, 1);
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *val[] = {log, (void *)(uintptr_t)8192};
  CUmodule mod = NULL;
  CUresult r = g->cu.cuModuleLoadDataEx(&mod, m->text, 2, opt, val);
  if (r != CUDA_SUCCESS) {
    char what[512];
    snprintf(what, sizeof what, "module %s (JIT of its PTX, .target %s)", m->path, m->target);
    gpu_cu_fail(g, e, r, "cuModuleLoadDataEx", what);
    size_t len = strlen(e->msg);
    snprintf(e->msg + len, sizeof e->msg - len, "\n  JIT log: %s", log[0] ? log : "(empty)");
    free(log);
    return -1;
  }
  free(log);
  GpuModule *gm = wm_xcalloc(1, sizeof *gm);
  *gm = (GpuModule){.g = g, .mod = mod, .m = m};
  *out = gm;
  return 0;
}

void gpu_module_free(GpuModule *gm) {
  if (!gm) return;
  gm->g->cu.cuModuleUnload(gm->mod);
  free(gm);
}

int gpu_module_set_global(GpuModule *gm, const char *name, const void *data, uint64_t size, WmErr *e) {
  Gpu *g = gm->g;
  CUdeviceptr p;
  size_t bytes;
  char what[256];
  snprintf(what, sizeof what, "variable %s of module %s", name, gm->m->path);
  CUresult r = g->cu.cuModuleGetGlobal(&p, &bytes, gm->mod, name);
  if (r != CUDA_SUCCESS) return gpu_cu_fail(g, e, r, "cuModuleGetGlobal", what);
  if (size > bytes)
    return wm_err(e, WM_EARGS, "%s: %llu bytes given, the variable has %zu", what, (unsigned long long)size,
                  bytes);
  GPU_TRY(g, e, what, cuMemcpyHtoD, (p, data, (size_t)size));
  return 0;
}

/* ---- parameter buffers ------------------------------------------------- */

static uint64_t load_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static void store_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static int buffer_at(const GlobalMem *host, uint64_t addr) {
  for (int b = 0; b < host->n; b++)
    if (host->buf[b].addr == addr) return b;
  return -1;
}

int gpu_params_for_device(const PtxKernel *k, const LaunchSpec *l, const GlobalMem *host,
                          const uint64_t *dptr, uint8_t *params, WmErr *e) {
  if (l->nargs != k->nparams)
    return wm_err(e, WM_EARGS, "kernel %s: %d arguments for %d parameters", k->name, l->nargs, k->nparams);
  /* every buffer address launch_bind wrote: arguments and struct members
   * (texture handles are not among them: gpu_tex.c replaces those) */
  uint32_t slots[LAUNCH_MAX_ARGS * 16];
  int n = launch_pointer_slots(k, l, slots, (int)(sizeof slots / sizeof *slots));
  if (n < 0 || n > (int)(sizeof slots / sizeof *slots))
    return wm_err(e, WM_EARGS, "kernel %s: the arguments' buffer addresses cannot be found", k->name);
  for (int i = 0; i < n; i++) {
    if (slots[i] + 8 > k->param_size)
      return wm_err(e, WM_EARGS, "kernel %s: a buffer address at byte %u lies outside the %u-byte parameters",
                    k->name, slots[i], k->param_size);
    uint64_t emu_addr = load_le64(params + slots[i]);
    int b = buffer_at(host, emu_addr);
    if (b < 0) {
      int pi = 0; /* the parameter holding the slot, for the message */
      while (pi + 1 < k->nparams && k->params[pi + 1].offset <= slots[i]) pi++;
      const PtxParam *p = &k->params[pi];
      char member[32] = "";
      if (slots[i] != p->offset) snprintf(member, sizeof member, ", its byte %u", slots[i] - p->offset);
      return wm_err(e, WM_EARGS, "kernel %s, parameter %s (arg%d '%s'%s): address 0x%llx names no buffer", k->name,
                    p->name ? p->name : "?", pi, l->args[pi].text, member, (unsigned long long)emu_addr);
    }
    store_le64(params + slots[i], dptr[b]);
  }
  return 0;
}

/* ---- launches ---------------------------------------------------------- */

static int upload_all(GpuLaunch *L, const GlobalMem *src, WmErr *e) {
  Gpu *g = L->gm->g;
  for (int b = 0; b < src->n; b++)
    if (src->buf[b].size) GPU_TRY(g, e, L->where, cuMemcpyHtoD, (L->dptr[b], src->buf[b].data, src->buf[b].size));
  return 0;
}

static int alloc_all(GpuLaunch *L, WmErr *e) {
  Gpu *g = L->gm->g;
  L->dptr = wm_xcalloc((size_t)(L->host.n > 0 ? L->host.n : 1), sizeof *L->dptr);
  for (int b = 0; b < L->host.n; b++) {
    size_t size = L->host.buf[b].size ? L->host.buf[b].size : 16;
    CUdeviceptr p = 0;
    CUresult r = g->cu.cuMemAlloc(&p, size);
    L->dptr[b] = p;
    if (r != CUDA_SUCCESS) {
      char what[512];
      snprintf(what, sizeof what, "%s, buffer %s (%zu bytes)", L->where, L->host.buf[b].name, size);
      return gpu_cu_fail(g, e, r, "cuMemAlloc", what);
    }
  }
  return 0;
}

/* Above 48 KiB of shared memory a kernel must opt in. */
static int allow_smem(GpuLaunch *L, WmErr *e) {
  Gpu *g = L->gm->g;
  if (L->spec.smem + L->k->shared_static <= GPU_SMEM_DEFAULT_LIMIT) return 0;
  GPU_TRY(g, e, L->where, cuFuncSetAttribute,
          (L->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)L->spec.smem));
  return 0;
}

int gpu_launch_prepare(GpuModule *gm, const PtxKernel *k, const LaunchSpec *l, InitKind dflt,
                       uint64_t seed, GpuLaunch **out, WmErr *e) {
  *out = NULL;
  GpuLaunch *L = wm_xcalloc(1, sizeof *L);
  L->gm = gm;
  L->k = k;
  L->spec = *l;
  L->dflt = dflt;
  L->seed = seed;
  if (l->line)
    snprintf(L->where, sizeof L->where, "launch %s (%s:%d)", l->label, gm->m->path, l->line);
  else
    snprintf(L->where, sizeof L->where, "launch %s (%s)", l->label, gm->m->path);
  gmem_init(&L->host, GMEM_DEFAULT_LIMIT);
  L->params = wm_xcalloc(k->param_size + 8, 1);
  L->kparams = wm_xcalloc((size_t)(k->nparams > 0 ? k->nparams : 1), sizeof *L->kparams);
  Gpu *g = gm->g;
  CUresult r = g->cu.cuModuleGetFunction(&L->fn, gm->mod, k->name);
  if (r != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuModuleGetFunction", L->where);
    goto fail;
  }
  if (launch_bind(k, l, &L->host, L->params, dflt, seed, e)) {
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    wm_err(e, e->code, "%s: %s", L->where, why);
    goto fail;
  }
  if (alloc_all(L, e) || upload_all(L, &L->host, e) ||
      gpu_params_for_device(k, l, &L->host, L->dptr, L->params, e) || gpu_tex_create_all(L, e) ||
      gpu_tmap_create_all(L, e) || allow_smem(L, e))
    goto fail;
  for (int i = 0; i < k->nparams; i++) L->kparams[i] = L->params + k->params[i].offset;
  *out = L;
  return 0;
fail:
  gpu_launch_free(L);
  return -1;
}

void gpu_launch_free(GpuLaunch *L) {
  if (!L) return;
  gpu_tex_free_all(L);
  gpu_tmap_free_all(L);
  if (L->dptr)
    for (int b = 0; b < L->host.n; b++)
      if (L->dptr[b]) L->gm->g->cu.cuMemFree(L->dptr[b]);
  gmem_free(&L->host);
  free(L->dptr);
  free(L->params);
  free(L->kparams);
  free(L);
}

int gpu_launch_attrs(const GpuLaunch *L, GpuKernelAttrs *a, WmErr *e) {
  Gpu *g = L->gm->g;
  struct {
    int which, *v;
  } rows[] = {
    {CU_FUNC_ATTRIBUTE_NUM_REGS, &a->regs},
    {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &a->static_smem},
    {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &a->local_bytes},
    {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &a->max_threads},
    {CU_FUNC_ATTRIBUTE_PTX_VERSION, &a->ptx_version},
    {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &a->binary_version},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    GPU_TRY(g, e, L->where, cuFuncGetAttribute, (rows[i].v, rows[i].which, L->fn));
  return 0;
}

int gpu_launch_set_carveout(GpuLaunch *L, int percent, WmErr *e) {
  if (percent < -1 || percent > 100)
    return wm_err(e, WM_EUSAGE, "%s: carveout %d%% is not -1 (default) or 0..100", L->where, percent);
  GPU_TRY(L->gm->g, e, L->where, cuFuncSetAttribute,
          (L->fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent));
  return 0;
}

/* A cluster launch (the spec's cluster=): cuLaunchKernelEx with the
 * cluster dimension attribute, after allowing non-portable sizes when the
 * spec says nonportable.  A kernel's own __cluster_dims__ needs neither:
 * cuLaunchKernel launches it with them. */
static int enqueue_cluster(GpuLaunch *L, WmErr *e) {
  const LaunchSpec *s = &L->spec;
  Gpu *g = L->gm->g;
  if (s->cluster_nonportable)
    GPU_TRY(g, e, L->where, cuFuncSetAttribute, (L->fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  CudaLaunchAttr a;
  memset(&a, 0, sizeof a);
  a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  a.value.cluster_dim.x = s->cluster[0], a.value.cluster_dim.y = s->cluster[1], a.value.cluster_dim.z = s->cluster[2];
  CudaLaunchConfig c = {s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2], s->smem, NULL, &a, 1};
  GPU_TRY(g, e, L->where, cuLaunchKernelEx, (&c, L->fn, L->kparams, NULL));
  return 0;
}

static int enqueue_launch(void *p, WmErr *e) {
  GpuLaunch *L = p;
  const LaunchSpec *s = &L->spec;
  if (s->cluster[0]) return enqueue_cluster(L, e);
  if (s->cooperative) { /* all blocks resident: grid.sync() (the runtime's cudaLaunchCooperativeKernel) */
    Gpu *g = L->gm->g;
    CUresult r = g->cu.cuLaunchCooperativeKernel(L->fn, s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1],
                                                 s->block[2], s->smem, NULL, L->kparams);
    if (r == CUDA_SUCCESS) return 0;
    gpu_cu_fail(g, e, r, "cuLaunchCooperativeKernel", L->where);
    if (r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) {
      size_t len = strlen(e->msg);
      snprintf(e->msg + len, sizeof e->msg - len, "\n  (%llu blocks must all be resident at once on %d SMs%s)",
               (unsigned long long)s->grid[0] * s->grid[1] * s->grid[2], g->info.sms,
               g->info.cooperative ? "" : "; this device cannot launch cooperatively");
    }
    return -1;
  }
  GPU_TRY(L->gm->g, e, L->where, cuLaunchKernel,
          (L->fn, s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2], s->smem, NULL,
           L->kparams, NULL));
  return 0;
}

int gpu_launch_run(GpuLaunch *L, WmErr *e) {
  if (enqueue_launch(L, e)) return -1;
  /* faults inside the kernel surface here */
  GPU_TRY(L->gm->g, e, L->where, cuCtxSynchronize, ());
  return 0;
}

int gpu_launch_download(GpuLaunch *L, WmErr *e) {
  Gpu *g = L->gm->g;
  for (int b = 0; b < L->host.n; b++)
    if (L->host.buf[b].size && !gpu_tmap_is_map(L, b))
      GPU_TRY(g, e, L->where, cuMemcpyDtoH, (L->host.buf[b].data, L->dptr[b], L->host.buf[b].size));
  return gpu_tex_download(L, e); /* after: a surface's buffer is its array */
}

int gpu_launch_reupload(GpuLaunch *L, WmErr *e) {
  /* launch_bind is deterministic (seeded): binding again gives the bytes
   * prepare uploaded, without keeping a second copy of every buffer */
  GlobalMem fresh;
  gmem_init(&fresh, GMEM_DEFAULT_LIMIT);
  uint8_t *params = wm_xcalloc(L->k->param_size + 8, 1);
  int rc = launch_bind(L->k, &L->spec, &fresh, params, L->dflt, L->seed, e);
  if (rc == 0) rc = upload_all(L, &fresh, e);
  if (rc == 0) rc = gpu_tex_reupload(L, &fresh, e);
  if (rc == 0) rc = gpu_tmap_reupload(L, e);
  free(params);
  gmem_free(&fresh);
  return rc;
}

const GlobalMem *gpu_launch_buffers(const GpuLaunch *L) { return &L->host; }

int gpu_launch_measure(GpuLaunch *L, const GpuMeasureConfig *c, double bytes, double flops, GpuTiming *t,
                       WmErr *e) {
  GpuWork w = {enqueue_launch, L};
  return gpu_measure_work(L->gm->g, &w, c, bytes, flops, t, e);
}
