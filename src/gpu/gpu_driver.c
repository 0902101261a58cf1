/* gpu_driver.c - the CUDA driver loaded at run time: the device, its primary
 * context, and error messages that name the call and the CUDA error.
 *
 * Notes:
 * - libcuda is dlopen'ed and never dlclose'd: the driver and cuBLAS (which
 *   carries its own CUDA runtime) register exit handlers, and unloading
 *   them while the process lives is not safe.  A second gpu_open reuses the
 *   loaded library (dlopen counts references).
 * - The primary context is the one the CUDA runtime, and so cuBLAS, uses:
 *   retaining it (rather than cuCtxCreate) lets cuBLAS see our buffers.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu_int.h"

const char *gpu_libcuda_name(void) {
  const char *s = getenv("WARPMEM_LIBCUDA");
  return s && *s ? s : "libcuda.so.1";
}

double gpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int gpu_cu_fail(const Gpu *g, WmErr *e, CUresult r, const char *call, const char *what) {
  const char *name = NULL, *str = NULL;
  if (g && g->cu.cuGetErrorName) g->cu.cuGetErrorName(r, &name);
  if (g && g->cu.cuGetErrorString) g->cu.cuGetErrorString(r, &str);
  char num[32];
  snprintf(num, sizeof num, "CUDA error %d", r);
  /* these errors are sticky: the context cannot be used again */
  const char *sticky = (r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ASSERT ||
                        (r >= CUDA_ERROR_HARDWARE_STACK_ERROR && r <= CUDA_ERROR_INVALID_PC))
                           ? "; the CUDA context is now unusable, later GPU calls in this process fail"
                           : "";
  return wm_err(e, WM_EGPU, "%s failed%s%s: %s (%s)%s", call, what && *what ? " for " : "",
                what ? what : "", name ? name : num, str ? str : "no description", sticky);
}

int gpu_driver_load(const char *name, CudaDriver *cu, WmErr *e) {
  memset(cu, 0, sizeof *cu);
  dlerror();
  void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    return wm_err(e, WM_ENOGPU, "no GPU found: %s", why ? why : name);
  }
  /* POSIX allows no cast from void* to a function pointer: copy the bits */
#define X(field, sym, alt, params)                                                          \
  {                                                                                         \
    const char *alt_ = alt;                                                                 \
    void *p = dlsym(lib, sym);                                                              \
    if (!p && alt_) p = dlsym(lib, alt_);                                                   \
    if (!p)                                                                                 \
      return wm_err(e, WM_ENOGPU, "no GPU found: %s has no %s (a CUDA driver older than warpmem needs)", \
                    name, sym);                                                             \
    memcpy(&cu->field, &p, sizeof p);                                                       \
  }
  CUDA_DRIVER_FUNCS(X)
#undef X
  return 0;
}

static int attr(Gpu *g, int which, int *v, WmErr *e) {
  GPU_TRY(g, e, "the device's attributes", cuDeviceGetAttribute, (v, which, g->dev));
  return 0;
}

static int read_info(Gpu *g, int ordinal, WmErr *e) {
  GpuInfo *in = &g->info;
  in->ordinal = ordinal;
  GPU_TRY(g, e, "the device's name", cuDeviceGetName, (in->name, (int)sizeof in->name - 1, g->dev));
  GPU_TRY(g, e, "the driver's version", cuDriverGetVersion, (&in->driver_version));
  size_t total = 0;
  GPU_TRY(g, e, "the device's memory", cuDeviceTotalMem, (&total, g->dev));
  in->total_mem = total;
  struct {
    int which, *v;
  } rows[] = {
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &in->cc_major},
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &in->cc_minor},
    {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &in->sms},
    {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &in->clock_khz},
    {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &in->mem_clock_khz},
    {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &in->bus_width_bits},
    {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &in->l2_bytes},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &in->smem_per_block_optin},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, &in->smem_per_sm},
    {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, &in->regs_per_sm},
    {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &in->max_threads_per_sm},
    {CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, &in->cooperative},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (attr(g, rows[i].which, rows[i].v, e)) return -1;
  return 0;
}

/* cuInit and the device count: failures here mean "no GPU", not a bug. */
static int find_device(Gpu *g, int ordinal, WmErr *e) {
  CUresult r = g->cu.cuInit(0);
  if (r != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuInit", NULL);
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    return wm_err(e, WM_ENOGPU, "no GPU found: %s", why);
  }
  int count = 0;
  r = g->cu.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS) return gpu_cu_fail(g, e, r, "cuDeviceGetCount", NULL);
  if (count == 0) return wm_err(e, WM_ENOGPU, "no GPU found: the CUDA driver sees no device");
  if (ordinal < 0 || ordinal >= count)
    return wm_err(e, WM_ENOGPU, "no GPU found: device %d asked for, %d present (0..%d)", ordinal, count,
                  count - 1);
  GPU_TRY(g, e, "the device", cuDeviceGet, (&g->dev, ordinal));
  return 0;
}

int gpu_open(int ordinal, Gpu **out, WmErr *e) {
  *out = NULL;
  Gpu *g = wm_xcalloc(1, sizeof *g);
  if (gpu_driver_load(gpu_libcuda_name(), &g->cu, e) || find_device(g, ordinal, e)) {
    free(g);
    return -1;
  }
  CUresult r = g->cu.cuDevicePrimaryCtxRetain(&g->ctx, g->dev);
  if (r != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuDevicePrimaryCtxRetain", "the device's primary context");
    free(g);
    return -1;
  }
  r = g->cu.cuCtxSetCurrent(g->ctx);
  if (r != CUDA_SUCCESS || read_info(g, ordinal, e)) {
    if (r != CUDA_SUCCESS) gpu_cu_fail(g, e, r, "cuCtxSetCurrent", "the device's primary context");
    g->cu.cuDevicePrimaryCtxRelease(g->dev);
    free(g);
    return -1;
  }
  *out = g;
  return 0;
}

void gpu_close(Gpu *g) {
  if (!g) return;
  g->cu.cuCtxSynchronize();
  if (g->have_blas && g->blas_handle) g->blas.cublasDestroy(g->blas_handle);
  if (g->have_events) {
    g->cu.cuEventDestroy(g->ev[0]);
    g->cu.cuEventDestroy(g->ev[1]);
  }
  if (g->flush) g->cu.cuMemFree(g->flush);
  if (g->clock_buf) g->cu.cuMemFree(g->clock_buf);
  if (g->tools) g->cu.cuModuleUnload(g->tools);
  g->cu.cuDevicePrimaryCtxRelease(g->dev);
  free(g);
}

const GpuInfo *gpu_info(const Gpu *g) { return &g->info; }

int gpu_available(WmErr *e) {
  Gpu *g;
  WmErr local = {0};
  if (gpu_open(0, &g, e ? e : &local)) return 0;
  gpu_close(g);
  return 1;
}
