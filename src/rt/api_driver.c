/* api_driver.c - the CUDA driver API of warpmem run (libcuda.so.1), for
 * applications that load their device code themselves (cuModuleLoadData,
 * cuLaunchKernel): errors, the device (the preset), contexts, modules,
 * kernels and launches.  Memory, streams and events are in
 * api_driver_mem.c, arrays and texture objects in api_driver_tex.c; every
 * other function of NVIDIA's libcuda.so.1 is a stub (generated:
 * tools/gen_cu_stubs.py) that says it is not supported.
 *
 * One device (ordinal 0) with one context, the one of rt.h, shared with
 * the runtime API: cuCtxCreate and the primary context hand out the same
 * handle, and the current-context stack of each thread holds it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt/api_driver.h"
#include "rt/rt_image.h"

/* ---- errors --------------------------------------------------------------- */

CUresult drv_result(RtError e) {
  switch (e) {
  case RT_SUCCESS: return CUDA_SUCCESS;
  case RT_ERR_MEMORY_ALLOCATION: return CUDA_ERROR_OUT_OF_MEMORY;
  case RT_ERR_INITIALIZATION: return CUDA_ERROR_NOT_INITIALIZED;
  case RT_ERR_INVALID_SYMBOL: return CUDA_ERROR_NOT_FOUND;
  case RT_ERR_INVALID_DEVICE_FUNCTION: return CUDA_ERROR_INVALID_HANDLE;
  case RT_ERR_INVALID_VALUE: case RT_ERR_INVALID_CONFIGURATION: case RT_ERR_INVALID_PITCH:
  case RT_ERR_INVALID_DEVICE_POINTER: case RT_ERR_INVALID_MEMCPY_DIRECTION:
    return CUDA_ERROR_INVALID_VALUE;
  case RT_ERR_INVALID_DEVICE: return CUDA_ERROR_INVALID_DEVICE;
  case RT_ERR_INVALID_KERNEL_IMAGE: return CUDA_ERROR_INVALID_IMAGE;
  case RT_ERR_NO_KERNEL_IMAGE: return CUDA_ERROR_NO_BINARY_FOR_GPU;
  case RT_ERR_UNSUPPORTED_LIMIT: return CUDA_ERROR_UNSUPPORTED_LIMIT;
  case RT_ERR_INVALID_PTX: return CUDA_ERROR_INVALID_PTX;
  case RT_ERR_INVALID_HANDLE: return CUDA_ERROR_INVALID_HANDLE;
  case RT_ERR_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
  case RT_ERR_NOT_READY: return CUDA_ERROR_NOT_READY;
  case RT_ERR_ILLEGAL_ADDRESS: return CUDA_ERROR_ILLEGAL_ADDRESS;
  case RT_ERR_ASSERT: return CUDA_ERROR_ASSERT;
  case RT_ERR_HOST_MEMORY_ALREADY_REGISTERED: return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  case RT_ERR_HOST_MEMORY_NOT_REGISTERED: return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  case RT_ERR_LAUNCH_OUT_OF_RESOURCES: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  case RT_ERR_LAUNCH_FAILURE: return CUDA_ERROR_LAUNCH_FAILED;
  case RT_ERR_LAUNCH_TIMEOUT: return CUDA_ERROR_LAUNCH_TIMEOUT;
  case RT_ERR_COOPERATIVE_TOO_LARGE: return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  case RT_ERR_NOT_SUPPORTED: return CUDA_ERROR_NOT_SUPPORTED;
  case RT_ERR_NOT_PERMITTED: return CUDA_ERROR_NOT_PERMITTED;
  case RT_ERR_INVALID_CLUSTER_SIZE: return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  default: return CUDA_ERROR_UNKNOWN;
  }
}

CUresult drv_fail(RtError e) { return drv_result(rt_set_last_error(e)); }

#define R(x) drv_result(x)

/* cuGetErrorName's and cuGetErrorString's texts, as NVIDIA's driver gives them. */
static const struct {
  CUresult r;
  const char *name, *text;
} errors[] = {
  {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
  {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
  {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
  {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
  {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
  {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
  {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
  {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
  {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
  {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
   "no kernel image is available for execution on the device"},
  {CUDA_ERROR_UNSUPPORTED_LIMIT, "CUDA_ERROR_UNSUPPORTED_LIMIT", "limit is not supported on this architecture"},
  {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
  {CUDA_ERROR_INVALID_SOURCE, "CUDA_ERROR_INVALID_SOURCE", "device kernel image is invalid"},
  {CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
  {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
  {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
  {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
  {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
  {CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
  {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
   "too many resources requested for launch"},
  {CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
  {CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
  {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
  {CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
  {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
   "too many blocks in cooperative launch"},
  {CUDA_ERROR_NOT_PERMITTED, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
  {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
  {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

CUresult cuGetErrorName(CUresult error, const char **pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (errors[i].r == error) return *pStr = errors[i].name, CUDA_SUCCESS;
  *pStr = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (errors[i].r == error) return *pStr = errors[i].text, CUDA_SUCCESS;
  *pStr = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

/* ---- the driver and the device ------------------------------------------ */

CUresult cuInit(unsigned int Flags) {
  if (Flags) return CUDA_ERROR_INVALID_VALUE;
  return R(rt_init());
}

CUresult cuDriverGetVersion(int *driverVersion) {
  if (!driverVersion) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = CUDA_VERSION;
  return CUDA_SUCCESS;
}

static CUresult check_dev(CUdevice dev) {
  RtError r = rt_init();
  if (r) return R(r);
  return dev == 0 ? CUDA_SUCCESS : drv_fail(RT_ERR_INVALID_DEVICE);
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  CUresult r = check_dev(ordinal);
  if (r) return r;
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  RtError r = rt_init();
  *count = r ? 0 : 1;
  return R(r);
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  const Arch *a = rt_arch();
  snprintf(name, (size_t)len, "%s (warpmem %s)", a->gpu, a->name);
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  size_t free_b = 0;
  return R(rt_mem_info(&free_b, bytes));
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  *major = rt_arch()->cc / 10;
  *minor = rt_arch()->cc % 10;
  return CUDA_SUCCESS;
}

/* A fixed UUID: "warpmem" and the preset's cc, the same every run. */
static void fill_uuid(CUuuid *uuid) {
  memset(uuid, 0, sizeof *uuid);
  memcpy(uuid->bytes, "warpmem", 7);
  uuid->bytes[15] = (char)rt_arch()->cc;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  fill_uuid(uuid);
  return CUDA_SUCCESS;
}


CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!pi) return CUDA_ERROR_INVALID_VALUE;
  *pi = (int)rt_device_attribute((int)attrib);
  return CUDA_SUCCESS;
}

/* A PCI address of its own, so that applications that print one can. */
CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!pciBusId || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  snprintf(pciBusId, (size_t)len, "0000:00:00.0");
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId) {
  if (!dev || !pciBusId) return CUDA_ERROR_INVALID_VALUE;
  *dev = 0;
  return R(rt_init());
}

/* ---- contexts: one, shared ------------------------------------------------ */

static struct CUctx_st {
  int unused;
} the_ctx;
#define CTX (&the_ctx)
#define CTX_STACK 16
static _Thread_local CUcontext ctx_stack[CTX_STACK];
static _Thread_local int ctx_depth;

static CUresult check_ctx(CUcontext c) { return c == CTX ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; }

/* Makes c the thread's current context (the top of its stack). */
static void set_current(CUcontext c) {
  if (!ctx_depth) ctx_depth = 1;
  ctx_stack[ctx_depth - 1] = c;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  *pctx = CTX;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return check_dev(dev); }
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) { return check_dev(dev); }

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
  *flags = 0;
  *active = 1;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev) {
  CUresult r = check_dev(dev);
  return r ? r : R(rt_device_reset());
}

/* cuCtxCreate (CUDA 13: _v4 with CUctxCreateParams; CUDA 12: _v2, _v3). */
static CUresult ctx_create(CUcontext *pctx, CUdevice dev) {
  CUresult r = check_dev(dev);
  if (r) return r;
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  *pctx = CTX;
  if (ctx_depth < CTX_STACK) ctx_stack[ctx_depth++] = CTX; /* pushed, as cuCtxCreate does */
  return CUDA_SUCCESS;
}

CUresult cuCtxCreate(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev) {
  return ctx_create(pctx, dev);
}
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev) { return ctx_create(pctx, dev); }
CUresult cuCtxCreate_v3(CUcontext *pctx, void *paramsArray, int numParams, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v3(CUcontext *pctx, void *paramsArray, int numParams, unsigned int flags, CUdevice dev) {
  return ctx_create(pctx, dev);
}

CUresult cuCtxDestroy(CUcontext ctx) {
  if (check_ctx(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  if (ctx_depth && ctx_stack[ctx_depth - 1] == ctx) ctx_depth--;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (ctx && check_ctx(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  set_current(ctx);
  return R(rt_init());
}

CUresult cuCtxGetCurrent(CUcontext *pctx) {
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  *pctx = ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext ctx) {
  if (check_ctx(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  if (ctx_depth == CTX_STACK) return CUDA_ERROR_INVALID_VALUE;
  ctx_stack[ctx_depth++] = ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *pctx) {
  if (!ctx_depth || !ctx_stack[ctx_depth - 1]) return CUDA_ERROR_INVALID_CONTEXT;
  CUcontext c = ctx_stack[--ctx_depth];
  if (pctx) *pctx = c;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device) {
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}

/* CUDA 13's form (the static runtime calls it): ctx is this one or NULL. */
CUresult cuCtxSynchronize_v2(CUcontext ctx) {
  (void)ctx;
  return cuCtxSynchronize();
}

/* CUDA 13's form, which the static runtime calls: the device of ctx (NULL:
 * the current one); there is one device, whatever the context. */
CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx) {
  (void)ctx;
  return cuCtxGetDevice(device);
}

CUresult cuCtxSynchronize(void) { return R(rt_device_sync()); }

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = 3020; /* what every current driver reports */
  return CUDA_SUCCESS;
}

CUresult cuCtxGetFlags(unsigned int *flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = 0;
  return CUDA_SUCCESS;
}

/* The cache configuration is a hint; the carveout attribute is what counts. */
CUresult cuCtxSetCacheConfig(CUfunc_cache config) { return CUDA_SUCCESS; }

CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig) {
  if (!pconfig) return CUDA_ERROR_INVALID_VALUE;
  *pconfig = CU_FUNC_CACHE_PREFER_NONE;
  return CUDA_SUCCESS;
}

/* CUlimit to the context's, or -1. */
/* CUlimit numbers RtLimit's. */
static int limit_of(CUlimit limit) { return (unsigned)limit < RT_LIMIT_COUNT ? (int)limit : -1; }

CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  int l = limit_of(limit);
  return l < 0 ? drv_fail(RT_ERR_UNSUPPORTED_LIMIT) : R(rt_set_limit((RtLimit)l, value));
}

CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit) {
  int l = limit_of(limit);
  if (l < 0) return drv_fail(RT_ERR_UNSUPPORTED_LIMIT);
  if (!pvalue) return CUDA_ERROR_INVALID_VALUE;
  uint64_t v = 0;
  RtError r = rt_get_limit((RtLimit)l, &v);
  *pvalue = (size_t)v;
  return R(r);
}

/* The profiler's range (cudaProfilerStart through the static runtime):
 * every profiled launch is reported anyway. */
CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }
CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }

CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  if (leastPriority) *leastPriority = 0;
  if (greatestPriority) *greatestPriority = -5;
  return CUDA_SUCCESS;
}

/* ---- modules ------------------------------------------------------------------ */

/* The JIT options' log buffers: emptied (warpmem's messages go to stderr). */
void drv_jit_logs(unsigned int n, CUjit_option *options, void **values) {
  for (unsigned i = 0; options && values && i < n; i++) {
    if ((options[i] == CU_JIT_INFO_LOG_BUFFER || options[i] == CU_JIT_ERROR_LOG_BUFFER) && values[i])
      *(char *)values[i] = '\0';
    if (options[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES || options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      values[i] = (void *)(uintptr_t)0;
  }
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  if (!module || !image) return drv_fail(RT_ERR_INVALID_VALUE);
  RtModule *m = NULL;
  RtError r = rt_module_load_image(image, 0, NULL, &m);
  *module = r ? NULL : (CUmodule)m;
  return R(r);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues) {
  drv_jit_logs(numOptions, options, optionValues);
  return cuModuleLoadData(module, image);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) { return cuModuleLoadData(module, fatCubin); }

/* The whole file at path (NUL-terminated, malloc'd), or NULL; a FIFO or a
 * device is refused with a message (it could block or never end). */
char *drv_read_file(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
    fprintf(stderr, "==WARPMEM== %s is not a regular file (a FIFO, device or directory)\n", path);
    close(fd);
    fd = -1;
  }
  FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
  if (!f) {
    if (fd >= 0) close(fd);
    return NULL;
  }
  char *buf = NULL;
  size_t n = 0, cap = 0, got;
  do {
    if (n + 65536 + 1 > cap) {
      cap = (n + 65536 + 1) * 2;
      char *nb = realloc(buf, cap);
      if (!nb) break;
      buf = nb;
    }
    got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
  } while (got > 0);
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = n;
  return buf;
}

CUresult cuModuleLoad(CUmodule *module, const char *fname) {
  if (!module || !fname) return drv_fail(RT_ERR_INVALID_VALUE);
  RtError r = rt_init();
  if (r) return R(r);
  size_t len = 0;
  char *buf = drv_read_file(fname, &len);
  if (!buf) {
    fprintf(stderr, "==WARPMEM== cuModuleLoad: cannot read %s\n", fname);
    return CUDA_ERROR_FILE_NOT_FOUND;
  }
  if (len < 4) memset(buf + len, 0, 1);
  const char *base = strrchr(fname, '/');
  RtModule *m = NULL;
  r = len >= 4 ? rt_module_load_image(buf, len, base ? base + 1 : fname, &m) : RT_ERR_INVALID_PTX;
  free(buf);
  *module = r ? NULL : (CUmodule)m;
  return R(r);
}

CUresult cuModuleUnload(CUmodule hmod) {
  if (!hmod) return drv_fail(RT_ERR_INVALID_HANDLE);
  rt_module_unload((RtModule *)hmod);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
  if (!hfunc || !hmod || !name) return drv_fail(RT_ERR_INVALID_VALUE);
  RtFunction *f = NULL;
  RtError r = rt_module_function((RtModule *)hmod, name, &f);
  *hfunc = r ? NULL : (CUfunction)f;
  return R(r);
}

CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name) {
  if (!hmod || !name) return drv_fail(RT_ERR_INVALID_VALUE);
  void *addr = NULL;
  size_t size = 0;
  RtError r = rt_module_global((RtModule *)hmod, name, &addr, &size);
  if (r) return R(r);
  if (dptr) *dptr = (CUdeviceptr)(uintptr_t)addr;
  if (bytes) *bytes = size;
  return CUDA_SUCCESS;
}

/* CUDA 12's library management: a library is a module, a kernel is its
 * function (cuLaunchKernel takes a CUkernel as a CUfunction). */
CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions, void **jitOptionsValues,
                           unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues,
                           unsigned int numLibraryOptions) {
  drv_jit_logs(numJitOptions, jitOptions, jitOptionsValues);
  return cuModuleLoadData((CUmodule *)library, code);
}

CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                               void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions,
                               void **libraryOptionValues, unsigned int numLibraryOptions) {
  drv_jit_logs(numJitOptions, jitOptions, jitOptionsValues);
  return cuModuleLoad((CUmodule *)library, fileName);
}

CUresult cuLibraryUnload(CUlibrary library) { return cuModuleUnload((CUmodule)library); }

CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library) {
  if (!pMod || !library) return drv_fail(RT_ERR_INVALID_VALUE);
  *pMod = (CUmodule)library;
  return CUDA_SUCCESS;
}

CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name) {
  return cuModuleGetFunction((CUfunction *)pKernel, (CUmodule)library, name);
}

CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name) {
  return cuModuleGetGlobal(dptr, bytes, (CUmodule)library, name);
}

/* A __managed__ variable (the static runtime asks for each it registered):
 * device memory here is the process's own, so its address serves host and
 * device as unified memory does. */
CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name) {
  return cuModuleGetGlobal(dptr, bytes, (CUmodule)library, name);
}

CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel) {
  if (!pFunc || !kernel) return drv_fail(RT_ERR_INVALID_VALUE);
  *pFunc = (CUfunction)kernel;
  return CUDA_SUCCESS;
}

/* ---- kernels -------------------------------------------------------------------- */

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc) {
  if (!pi) return drv_fail(RT_ERR_INVALID_VALUE);
  RtFuncInfo fi;
  RtError r = rt_function_info((RtFunction *)hfunc, &fi);
  if (r) return R(r);
  switch (attrib) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = fi.max_threads; break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)fi.shared_static; break;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)fi.const_size; break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)fi.local_size; break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = fi.regs; break;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = fi.ptx_version; break;
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = fi.binary_version; break;
  case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = fi.max_dynamic_smem; break;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = fi.carveout_pct; break;
  case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = fi.cluster_must; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = (int)fi.cluster[0]; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = (int)fi.cluster[1]; break;
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = (int)fi.cluster[2]; break;
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = fi.nonportable; break;
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = fi.cluster_policy; break;
  default: *pi = 0; break;
  }
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return R(rt_function_set_attribute((RtFunction *)hfunc, RT_FATTR_MAX_DYNAMIC_SMEM, value));
  if (attrib == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
    return R(rt_function_set_attribute((RtFunction *)hfunc, RT_FATTR_CARVEOUT, value));
  static const struct { CUfunction_attribute cu; RtFuncAttr rt; } cluster[] = {
    {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, RT_FATTR_CLUSTER_X},
    {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, RT_FATTR_CLUSTER_Y},
    {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, RT_FATTR_CLUSTER_Z},
    {CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, RT_FATTR_NONPORTABLE},
    {CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, RT_FATTR_CLUSTER_POLICY},
  };
  for (size_t i = 0; i < sizeof cluster / sizeof *cluster; i++)
    if (attrib == cluster[i].cu) return R(rt_function_set_attribute((RtFunction *)hfunc, cluster[i].rt, value));
  RtFuncInfo fi;
  RtError r = rt_function_info((RtFunction *)hfunc, &fi); /* a valid function, a hint ignored */
  return r ? R(r) : CUDA_SUCCESS;
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  RtFuncInfo fi;
  return R(rt_function_info((RtFunction *)hfunc, &fi));
}

CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config) {
  RtFuncInfo fi;
  return R(rt_function_info((RtFunction *)hfunc, &fi));
}

CUresult cuFuncGetName(const char **name, CUfunction hfunc) {
  if (!name) return drv_fail(RT_ERR_INVALID_VALUE);
  RtFuncInfo fi;
  RtError r = rt_function_info((RtFunction *)hfunc, &fi);
  *name = r ? NULL : fi.name;
  return R(r);
}

/* The parameter buffer of cuLaunchKernel's `extra`: pairs of a key and a
 * value up to CU_LAUNCH_PARAM_END; -1 for an unknown key. */
static int extra_buffer(void **extra, void **buf, size_t *size) {
  *buf = NULL;
  *size = 0;
  for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) *buf = extra[i + 1];
    else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) *size = extra[i + 1] ? *(size_t *)extra[i + 1] : 0;
    else return -1;
  }
  return 0;
}

static CUresult launch(CUfunction f, const unsigned g[3], const unsigned b[3], unsigned smem, CUstream s,
                       void **params, void **extra, int cooperative, const uint32_t *cluster) {
  RtLaunchConfig c = {.grid = {g[0], g[1], g[2]}, .block = {b[0], b[1], b[2]}, .smem = smem,
                      .stream = (RtStream *)s, .cooperative = cooperative};
  if (cluster) memcpy(c.cluster, cluster, sizeof c.cluster);
  if (params && extra) return drv_fail(RT_ERR_INVALID_VALUE); /* one or the other */
  if (!extra) return R(rt_launch((RtFunction *)f, &c, params));
  void *buf;
  size_t size;
  if (extra_buffer(extra, &buf, &size)) return drv_fail(RT_ERR_INVALID_VALUE);
  RtFuncInfo fi; /* a C struct of the parameters may end in padding the kernel's buffer has not */
  if (!rt_function_info((RtFunction *)f, &fi) && size > fi.param_size) size = fi.param_size;
  return R(rt_launch_packed((RtFunction *)f, &c, buf, size));
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
  const unsigned g[3] = {gridDimX, gridDimY, gridDimZ}, b[3] = {blockDimX, blockDimY, blockDimZ};
  return launch(f, g, b, sharedMemBytes, hStream, kernelParams, extra, 0, NULL);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                   unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                   unsigned int sharedMemBytes, CUstream hStream, void **kernelParams) {
  const unsigned g[3] = {gridDimX, gridDimY, gridDimZ}, b[3] = {blockDimX, blockDimY, blockDimZ};
  return launch(f, g, b, sharedMemBytes, hStream, kernelParams, NULL, 1, NULL);
}

/* A CUlaunchConfig's attributes that change what runs: cooperative and the
 * cluster dimension (the scheduling policy is accepted); the others
 * (priorities, ...) change nothing that warpmem models. */
static RtError config_attributes(const CUlaunchConfig *config, int *coop, uint32_t cluster[3]) {
  if (config->numAttrs && !config->attrs) return RT_ERR_INVALID_VALUE;
  for (unsigned i = 0; i < config->numAttrs; i++) {
    const CUlaunchAttribute *a = &config->attrs[i];
    if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) *coop = a->value.cooperative != 0;
    if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      cluster[0] = a->value.clusterDim.x, cluster[1] = a->value.clusterDim.y, cluster[2] = a->value.clusterDim.z;
      if (!cluster[0] || !cluster[1] || !cluster[2]) return RT_ERR_INVALID_CLUSTER_SIZE;
    }
  }
  return RT_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra) {
  if (!config) return drv_fail(RT_ERR_INVALID_VALUE);
  int coop = 0;
  uint32_t cluster[3] = {0, 0, 0};
  RtError r = config_attributes(config, &coop, cluster);
  if (r) return drv_fail(r);
  const unsigned g[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
  const unsigned b[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
  return launch(f, g, b, config->sharedMemBytes, config->hStream, kernelParams, extra, coop, cluster);
}

/* cuOccupancyMaxActiveClusters / cuOccupancyMaxPotentialClusterSize. */
static CUresult cluster_occupancy(int *out, CUfunction f, const CUlaunchConfig *config, int potential) {
  if (!config || !out) return drv_fail(RT_ERR_INVALID_VALUE);
  int coop = 0;
  RtLaunchConfig c = {.grid = {config->gridDimX, config->gridDimY, config->gridDimZ},
                      .block = {config->blockDimX, config->blockDimY, config->blockDimZ},
                      .smem = config->sharedMemBytes};
  RtError r = config_attributes(config, &coop, c.cluster);
  if (r) return drv_fail(r);
  return R(rt_cluster_occupancy((RtFunction *)f, &c, potential, out));
}

CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func, const CUlaunchConfig *config) {
  return cluster_occupancy(numClusters, func, config, 0);
}

CUresult cuOccupancyMaxPotentialClusterSize(int *clusterSize, CUfunction func, const CUlaunchConfig *config) {
  return cluster_occupancy(clusterSize, func, config, 1);
}

CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) {
  return cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev) {
  return cuFuncSetAttribute((CUfunction)kernel, attrib, val);
}

/* ---- occupancy (warpmem's calculator) ---------------------------------------- */

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize) {
  return R(rt_occupancy((RtFunction *)func, blockSize, dynamicSMemSize, numBlocks));
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                              size_t dynamicSMemSize, unsigned int flags) {
  return R(rt_occupancy((RtFunction *)func, blockSize, dynamicSMemSize, numBlocks));
}

/* The block size (a multiple of the warp size) with the most threads
 * resident per SM, the smallest of equals, as CUDA's helper picks it. */
CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                          int blockSizeLimit) {
  if (!minGridSize || !blockSize) return drv_fail(RT_ERR_INVALID_VALUE);
  RtFuncInfo fi;
  RtError r = rt_function_info((RtFunction *)func, &fi);
  if (r) return R(r);
  int limit = blockSizeLimit > 0 && blockSizeLimit < fi.max_threads ? blockSizeLimit : fi.max_threads;
  int warp = rt_arch()->warp_size, best = 0, best_size = warp, best_blocks = 0;
  for (int bs = warp; bs <= limit; bs += warp) {
    size_t smem = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(bs) : dynamicSMemSize;
    int blocks = 0;
    if ((r = rt_occupancy((RtFunction *)func, bs, smem, &blocks))) return R(r);
    if (blocks * bs > best) best = blocks * bs, best_size = bs, best_blocks = blocks;
  }
  *blockSize = best_size;
  *minGridSize = best_blocks * rt_arch()->sms;
  return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                   CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags) {
  return cuOccupancyMaxPotentialBlockSize(minGridSize, blockSize, func, blockSizeToDynamicSMemSize, dynamicSMemSize,
                                          blockSizeLimit);
}

/* ---- the names of older headers (cuda.h's #defines select the newer) ------ */

#undef cuDeviceGetUuid
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxSetFlags
#undef cuDevicePrimaryCtxReset
#undef cuCtxCreate
#undef cuCtxDestroy
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }
CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return check_dev(dev); }
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) { return check_dev(dev); }
CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }
CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev) { return ctx_create(pctx, dev); }
CUresult cuCtxDestroy(CUcontext ctx);
CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }
CUresult cuCtxPushCurrent(CUcontext ctx);
CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }
CUresult cuCtxPopCurrent(CUcontext *pctx);
CUresult cuCtxPopCurrent(CUcontext *pctx) { return cuCtxPopCurrent_v2(pctx); }
