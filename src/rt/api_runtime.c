/* api_runtime.c - the CUDA runtime API of warpmem run (libcudart.so.13 and
 * .so.12): what nvcc's host stubs call to register device code and launch
 * kernels, device management and properties, errors, and kernel
 * attributes.  Thin: every call goes to the context of rt.h in
 * libwarpmem_rt.so (shared with the driver API).  Memory, streams and events
 * are in api_runtime_mem.c; every other cudaError_t function of the
 * toolkit's header is a stub (generated: tools/gen_rt_stubs.py) that says it
 * is not supported.  Types are the toolkit's own (cuda_runtime_api.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rt/api_runtime.h"

#define E(x) ((cudaError_t)(x))

/* ---- what nvcc's host stubs call (crt/host_runtime.h) ---- */

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global);
char __cudaInitModule(void **handle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                    cudaStream_t stream);

void **__cudaRegisterFatBinary(void *fatCubin) { return (void **)rt_module_register_fatbin(fatCubin); }

void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

void __cudaUnregisterFatBinary(void **handle) { rt_module_unload((RtModule *)handle); }

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize) {
  rt_module_register_function((RtModule *)handle, hostFun, deviceName ? deviceName : deviceFun);
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global) {
  rt_module_register_var((RtModule *)handle, hostVar, deviceName ? deviceName : deviceAddress, size, NULL);
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global) {
  rt_module_register_var((RtModule *)handle, hostVarPtrAddress, deviceName ? deviceName : deviceAddress, size,
                         hostVarPtrAddress);
}

/* The module's variables are made when it is registered. */
char __cudaInitModule(void **handle) { return 1; }

/* <<<grid, block, smem, stream>>> pushes a configuration that the kernel's
 * host stub pops; a stack per thread, as an argument may launch too. */
typedef struct CallConfig {
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
} CallConfig;
#define MAX_CALL_CONFIGS 16
static _Thread_local CallConfig call_configs[MAX_CALL_CONFIGS];
static _Thread_local int ncall_configs;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream) {
  if (ncall_configs == MAX_CALL_CONFIGS) return 1; /* nonzero: the launch is skipped */
  call_configs[ncall_configs++] = (CallConfig){gridDim, blockDim, sharedMem, stream};
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream) {
  if (ncall_configs == 0) return E(rt_set_last_error(RT_ERR_INVALID_CONFIGURATION));
  CallConfig c = call_configs[--ncall_configs];
  *gridDim = c.grid;
  *blockDim = c.block;
  *sharedMem = c.smem;
  *(cudaStream_t *)stream = c.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun) {
  RtFunction *f = NULL;
  RtError r = rt_function_by_host(fun, &f);
  if (kernel) *kernel = (cudaKernel_t)f;
  return E(r);
}

/* The configuration of a launch. */
static RtLaunchConfig launch_config(dim3 g, dim3 b, size_t smem, cudaStream_t s, int cooperative) {
  RtLaunchConfig c = {.grid = {g.x, g.y, g.z}, .block = {b.x, b.y, b.z}, .smem = (uint32_t)smem,
                      .stream = (RtStream *)s, .cooperative = cooperative};
  if (smem > UINT32_MAX) c.smem = UINT32_MAX;
  return c;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream) {
  if (!kernel) return E(rt_set_last_error(RT_ERR_INVALID_DEVICE_FUNCTION));
  RtLaunchConfig c = launch_config(gridDim, blockDim, sharedMem, stream, 0);
  if (api_capturing(stream)) return api_capture_kernel(stream, (RtFunction *)kernel, &c, args);
  return E(rt_launch((RtFunction *)kernel, &c, args));
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                    cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

/* The kernel of a host stub (or of a cudaKernel_t handed back as one). */
static RtError function_of(const void *func, RtFunction **f) {
  RtError r = rt_function_by_host(func, f);
  if (r == RT_SUCCESS) return r;
  RtFuncInfo info;
  if (func && rt_function_info((RtFunction *)(uintptr_t)func, &info) == RT_SUCCESS) {
    *f = (RtFunction *)(uintptr_t)func;
    rt_set_last_error(RT_SUCCESS);
    return RT_SUCCESS;
  }
  return rt_set_last_error(RT_ERR_INVALID_DEVICE_FUNCTION);
}

static cudaError_t launch(const void *func, dim3 g, dim3 b, void **args, size_t smem, cudaStream_t s, int coop,
                          const uint32_t *cluster) {
  RtFunction *f;
  RtError r = function_of(func, &f);
  if (r) return E(r);
  RtLaunchConfig c = launch_config(g, b, smem, s, coop);
  if (cluster) memcpy(c.cluster, cluster, sizeof c.cluster);
  if (api_capturing(s)) return api_capture_kernel(s, f, &c, args);
  return E(rt_launch(f, &c, args));
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream, 0, NULL);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream, 1, NULL);
}

/* A launch configuration's attributes that change what runs: cooperative
 * and the cluster dimension (a cluster scheduling policy is accepted: the
 * emulator places a cluster's blocks one way); the others are hints. */
static RtError config_attributes(const cudaLaunchConfig_t *config, int *coop, uint32_t cluster[3]) {
  if (config->numAttrs && !config->attrs) return RT_ERR_INVALID_VALUE;
  for (unsigned i = 0; i < config->numAttrs; i++) {
    const cudaLaunchAttribute *a = &config->attrs[i];
    if (a->id == cudaLaunchAttributeCooperative) *coop = a->val.cooperative != 0;
    if (a->id == cudaLaunchAttributeClusterDimension) {
      cluster[0] = a->val.clusterDim.x, cluster[1] = a->val.clusterDim.y, cluster[2] = a->val.clusterDim.z;
      if (!cluster[0] || !cluster[1] || !cluster[2]) return RT_ERR_INVALID_CLUSTER_SIZE;
    }
  }
  return RT_SUCCESS;
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  if (!config) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  int coop = 0;
  uint32_t cluster[3] = {0, 0, 0};
  RtError r = config_attributes(config, &coop, cluster);
  if (r) return E(rt_set_last_error(r));
  return launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream, coop,
                cluster);
}

/* cudaOccupancyMaxActiveClusters / cudaOccupancyMaxPotentialClusterSize. */
static cudaError_t cluster_occupancy(int *out, const void *func, const cudaLaunchConfig_t *config, int potential) {
  RtFunction *f;
  RtError r = function_of(func, &f);
  if (r) return E(r);
  if (!config || !out) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  int coop = 0;
  RtLaunchConfig c = launch_config(config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, 0);
  if ((r = config_attributes(config, &coop, c.cluster))) return E(rt_set_last_error(r));
  return E(rt_set_last_error(rt_cluster_occupancy(f, &c, potential, out)));
}

cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func, const cudaLaunchConfig_t *launchConfig) {
  return cluster_occupancy(numClusters, func, launchConfig, 0);
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                 const cudaLaunchConfig_t *launchConfig) {
  return cluster_occupancy(clusterSize, func, launchConfig, 1);
}

/* ---- kernels' attributes and occupancy ---- */

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
  RtFunction *f;
  RtFuncInfo in;
  RtError r = function_of(func, &f);
  if (r || (r = rt_function_info(f, &in))) return E(r);
  if (!attr) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = in.shared_static;
  attr->constSizeBytes = in.const_size;
  attr->localSizeBytes = in.local_size;
  attr->maxThreadsPerBlock = in.max_threads;
  attr->numRegs = in.regs;
  attr->ptxVersion = in.ptx_version;
  attr->binaryVersion = in.binary_version;
  attr->maxDynamicSharedSizeBytes = in.max_dynamic_smem;
  attr->preferredShmemCarveout = in.carveout_pct;
  attr->clusterDimMustBeSet = in.cluster_must;
  attr->requiredClusterWidth = (int)in.cluster[0];
  attr->requiredClusterHeight = (int)in.cluster[1];
  attr->requiredClusterDepth = (int)in.cluster[2];
  attr->clusterSchedulingPolicyPreference = in.cluster_policy;
  attr->nonPortableClusterSizeAllowed = in.nonportable;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  RtFunction *f;
  RtError r = function_of(func, &f);
  if (r) return E(r);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    return E(rt_function_set_attribute(f, RT_FATTR_MAX_DYNAMIC_SMEM, value));
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
    return E(rt_function_set_attribute(f, RT_FATTR_CARVEOUT, value));
  switch (attr) {
  case cudaFuncAttributeRequiredClusterWidth: return E(rt_function_set_attribute(f, RT_FATTR_CLUSTER_X, value));
  case cudaFuncAttributeRequiredClusterHeight: return E(rt_function_set_attribute(f, RT_FATTR_CLUSTER_Y, value));
  case cudaFuncAttributeRequiredClusterDepth: return E(rt_function_set_attribute(f, RT_FATTR_CLUSTER_Z, value));
  case cudaFuncAttributeNonPortableClusterSizeAllowed:
    return E(rt_function_set_attribute(f, RT_FATTR_NONPORTABLE, value));
  case cudaFuncAttributeClusterSchedulingPolicyPreference:
    return E(rt_function_set_attribute(f, RT_FATTR_CLUSTER_POLICY, value));
  default: return cudaSuccess; /* other hints change nothing here */
  }
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig) {
  RtFunction *f;
  return E(function_of(func, &f));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags) {
  RtFunction *f;
  RtError r = function_of(func, &f);
  if (r) return E(r);
  return E(rt_occupancy(f, blockSize, dynamicSMemSize, numBlocks));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr) {
  return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

cudaError_t cudaFuncGetName(const char **name, const void *func) {
  RtFunction *f;
  RtFuncInfo in;
  RtError r = function_of(func, &f);
  if (r || (r = rt_function_info(f, &in))) return E(r);
  if (!name) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *name = in.name;
  return cudaSuccess;
}

/* Dynamic shared memory a block may take with numBlocks blocks of
 * blockSize threads on one SM: the SM's shared memory shared out, less
 * each block's reserved and static part, within the opt-in limit. */
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                                      int blockSize) {
  RtFunction *f;
  RtFuncInfo in;
  RtError r = function_of(func, &f);
  if (r || (r = rt_function_info(f, &in))) return E(r);
  if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  const Arch *a = rt_arch();
  long long per = (long long)a->smem_sm / numBlocks - a->smem_reserved - in.shared_static;
  long long cap = (long long)a->smem_block_optin - in.shared_static;
  *dynamicSmemSize = per < 0 ? 0 : (size_t)(per < cap ? per : cap);
  return cudaSuccess;
}

/* ---- errors ---- */

const char *cudaGetErrorName(cudaError_t error) { return rt_error_name((RtError)error); }
const char *cudaGetErrorString(cudaError_t error) { return rt_error_string((RtError)error); }
cudaError_t cudaGetLastError(void) { return E(rt_get_last_error()); }
cudaError_t cudaPeekAtLastError(void) { return E(rt_peek_last_error()); }

/* ---- the device: one, the chosen preset ---- */

cudaError_t cudaGetDeviceCount(int *count) {
  RtError r = rt_init();
  if (r) return E(rt_set_last_error(r));
  if (!count) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *count = 1;
  return cudaSuccess;
}

static cudaError_t check_device(int device) {
  RtError r = rt_init();
  if (r) return E(rt_set_last_error(r));
  return device == 0 ? cudaSuccess : E(rt_set_last_error(RT_ERR_INVALID_DEVICE));
}

cudaError_t cudaSetDevice(int device) { return check_device(device); }
cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) { return check_device(device); }
cudaError_t cudaSetDeviceFlags(unsigned int flags) { return check_device(0); }

cudaError_t cudaGetDevice(int *device) {
  if (!device) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *device = 0;
  return check_device(0);
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  if (!flags) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *flags = cudaDeviceMapHost;
  return check_device(0);
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) { return cudaGetDevice(device); }

cudaError_t cudaDeviceSynchronize(void) { return E(rt_device_sync()); }
cudaError_t cudaDeviceReset(void) { return E(rt_device_reset()); }

/* The one device's PCI address: domain, bus and device 0, as
 * cudaDevAttrPciBusId and friends report. */
#define WM_PCI_BUS_ID "0000:00:00.0"

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  cudaError_t r = check_device(device);
  if (r) return r;
  if (!pciBusId || len <= 0) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  snprintf(pciBusId, (size_t)len, "%s", WM_PCI_BUS_ID);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  if (!device || !pciBusId || strcasecmp(pciBusId, WM_PCI_BUS_ID) != 0)
    return E(rt_set_last_error(RT_ERR_INVALID_DEVICE));
  *device = 0;
  return cudaSuccess;
}

/* A driver function by name, from the libcuda.so.1 warpmem run puts first
 * on the library path (warpmem's): the newest _vN the name has, as
 * cuGetProcAddress gives the current ABI. */
static cudaError_t driver_entry(const char *symbol, void **fn, enum cudaDriverEntryPointQueryResult *status) {
  if (status) *status = cudaDriverEntryPointSymbolNotFound;
  if (!symbol || !fn) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *fn = NULL;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return cudaSuccess; /* found nothing: driverStatus says so */
  static const char *const suffix[] = {"_v4", "_v3", "_v2", ""};
  for (int i = 0; i < 4 && !*fn; i++) {
    char name[256];
    if ((size_t)snprintf(name, sizeof name, "%s%s", symbol, suffix[i]) < sizeof name) *fn = dlsym(lib, name);
  }
  if (*fn && status) *status = cudaDriverEntryPointSuccess;
  return cudaSuccess;
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *driverStatus) {
  return driver_entry(symbol, funcPtr, driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                             unsigned long long flags,
                                             enum cudaDriverEntryPointQueryResult *driverStatus) {
  return driver_entry(symbol, funcPtr, driverStatus);
}

cudaError_t cudaDriverGetVersion(int *driverVersion) {
  if (!driverVersion) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *driverVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) { return cudaDriverGetVersion(runtimeVersion); }

/* cudaLimit numbers RtLimit's (rt.h); others are cudaErrorUnsupportedLimit. */
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) { return E(rt_set_limit((RtLimit)limit, value)); }

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
  uint64_t v = 0;
  if (!pValue) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  RtError r = rt_get_limit((RtLimit)limit, &v);
  *pValue = (size_t)v;
  return E(r);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  if (leastPriority) *leastPriority = 0;
  if (greatestPriority) *greatestPriority = -5;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) { return check_device(0); }

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
  if (pCacheConfig) *pCacheConfig = cudaFuncCachePreferNone;
  return check_device(0);
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer) *canAccessPeer = 0;
  return check_device(device);
}

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ---- properties: the preset's, so that samples checking the compute
 * capability proceed ---- */

static size_t total_mem(void) {
  size_t free_b = 0, total = 0;
  rt_mem_info(&free_b, &total);
  return total;
}

/* The fields CUDA 12's and 13's cudaDeviceProp share, by name. */
#define FILL_COMMON_PROPS(p, a)                                                 \
  do {                                                                          \
    memset(p, 0, sizeof *p);                                                    \
    snprintf(p->name, sizeof p->name, "%s (warpmem %s)", a->gpu, a->name);      \
    p->totalGlobalMem = total_mem();                                            \
    p->sharedMemPerBlock = (size_t)a->smem_block;                               \
    p->regsPerBlock = a->regs_block;                                            \
    p->warpSize = a->warp_size;                                                 \
    p->memPitch = (size_t)1 << 31;                                              \
    p->maxThreadsPerBlock = a->max_threads_block;                               \
    ArchLimits L = rt_arch_limits();                                            \
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = (int)L.block_xy;                \
    p->maxThreadsDim[2] = (int)L.block_z;                                       \
    p->maxGridSize[0] = (int)L.grid_x;                                          \
    p->maxGridSize[1] = p->maxGridSize[2] = (int)L.grid_yz;                     \
    p->totalConstMem = 64 << 10;                                                \
    p->major = a->cc / 10;                                                      \
    p->minor = a->cc % 10;                                                      \
    p->textureAlignment = 512;                                                  \
    p->texturePitchAlignment = 32;                                              \
    p->multiProcessorCount = a->sms;                                            \
  } while (0)

#ifdef WM_CUDART12
/* CUDA 12's cudaDeviceProp begins as CUDA 13's but for clockRate after
 * maxGridSize, deviceOverlap before multiProcessorCount and a few more:
 * its leading fields are filled by this layout, the rest left as they are
 * (the application's struct may be smaller than CUDA 13's). */
struct DeviceProp12 {
  char name[256];
  char uuid[16];
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount;
};

static void fill_props(struct DeviceProp12 *p, const Arch *a) {
  FILL_COMMON_PROPS(p, a);
  p->clockRate = (int)(a->clock_ghz * 1e6);
  p->deviceOverlap = 1;
}

cudaError_t cudaGetDeviceProperties_v2(struct DeviceProp12 *prop, int device);
cudaError_t cudaGetDeviceProperties_v2(struct DeviceProp12 *prop, int device) {
  cudaError_t r = check_device(device);
  if (r) return r;
  if (!prop) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  fill_props(prop, rt_arch());
  return cudaSuccess;
}
#else
static void fill_props(struct cudaDeviceProp *p, const Arch *a) {
  FILL_COMMON_PROPS(p, a);
  p->canMapHostMemory = p->unifiedAddressing = p->managedMemory = p->concurrentManagedAccess = 1;
  p->concurrentKernels = p->cooperativeLaunch = p->streamPrioritiesSupported = 1;
  p->clusterLaunch = a->cc >= 90;
  p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  p->asyncEngineCount = (int)rt_device_attribute(40);     /* the attributes' table: rt_attrs.c */
  p->memoryBusWidth = (int)rt_device_attribute(37);
  p->persistingL2CacheMaxSize = (int)rt_device_attribute(108);
  p->accessPolicyMaxWindowSize = (int)rt_device_attribute(109);
  p->l2CacheSize = a->l2_bytes;
  p->maxThreadsPerMultiProcessor = a->max_threads_sm;
  p->sharedMemPerMultiprocessor = (size_t)a->smem_sm;
  p->regsPerMultiprocessor = a->regs_sm;
  p->sharedMemPerBlockOptin = (size_t)a->smem_block_optin;
  p->maxBlocksPerMultiProcessor = a->max_blocks_sm;
  p->reservedSharedMemPerBlock = (size_t)a->smem_reserved;
  p->hostNativeAtomicSupported = 0;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
  cudaError_t r = check_device(device);
  if (r) return r;
  if (!prop) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  fill_props(prop, rt_arch());
  return cudaSuccess;
}
#endif

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  cudaError_t r = check_device(device);
  if (r) return r;
  if (!value) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *value = (int)rt_device_attribute((int)attr);
  return cudaSuccess;
}

/* Not an error-returning function, so not among the stubs: the texture
 * calls that use it are. */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}
