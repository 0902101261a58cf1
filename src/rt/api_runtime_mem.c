/* api_runtime_mem.c - the CUDA runtime API's memory, symbols, streams and
 * events, on the context of rt.h: device memory is unified (a device
 * pointer is a host pointer), every call runs to its end at once (async
 * forms too), and events read the device clock of predicted times. */
#include <string.h>

#include "rt/api_runtime.h"

#define E(x) ((cudaError_t)(x))

/* ---- allocation ---- */

cudaError_t cudaMalloc(void **devPtr, size_t size) { return E(rt_malloc(size, RT_MEM_DEVICE, devPtr)); }

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  return E(rt_malloc(size, RT_MEM_MANAGED, devPtr));
}

cudaError_t cudaMallocHost(void **ptr, size_t size) { return E(rt_malloc(size, RT_MEM_HOST, ptr)); }

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  return E(rt_malloc(size, RT_MEM_HOST, pHost));
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream) {
  return E(rt_malloc(size, RT_MEM_DEVICE, devPtr));
}

cudaError_t cudaFree(void *devPtr) { return E(rt_free(devPtr, RT_MEM_DEVICE)); }
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) { return E(rt_free(devPtr, RT_MEM_DEVICE)); }
cudaError_t cudaFreeHost(void *ptr) { return E(rt_free(ptr, RT_MEM_HOST)); }

/* Rows aligned to 512 bytes, as CUDA's texture pitch alignment asks. */
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  if (!pitch) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *pitch = (width + 511) & ~(size_t)511;
  return E(rt_malloc(*pitch * height, RT_MEM_DEVICE, devPtr));
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent) {
  if (!pitchedDevPtr) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  size_t pitch = (extent.width + 511) & ~(size_t)511;
  size_t rows = (extent.height ? extent.height : 1) * (extent.depth ? extent.depth : 1);
  void *p = NULL;
  RtError r = rt_malloc(pitch * rows, RT_MEM_DEVICE, &p);
  *pitchedDevPtr = (struct cudaPitchedPtr){.ptr = p, .pitch = pitch, .xsize = extent.width, .ysize = extent.height};
  return E(r);
}

/* Memory pools: one, the device's, from which cudaMallocAsync takes; its
 * attributes (release thresholds, ...) change nothing here. */
static int the_pool;

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
  if (!memPool) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  if (device != 0) return E(rt_set_last_error(RT_ERR_INVALID_DEVICE));
  *memPool = (cudaMemPool_t)&the_pool;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
  return cudaDeviceGetDefaultMemPool(memPool, device);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  return cudaSuccess;
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  if (value) memset(value, 0, attr == cudaMemPoolReuseFollowEventDependencies ||
                              attr == cudaMemPoolReuseAllowOpportunistic ||
                              attr == cudaMemPoolReuseAllowInternalDependencies ? sizeof(int) : sizeof(uint64_t));
  return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) { return cudaSuccess; }

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return E(rt_malloc(size, RT_MEM_DEVICE, ptr));
}

/* Host memory of the application is not device memory here: only memory
 * from cudaMallocHost/cudaHostAlloc maps (it is unified already). */
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
  int kind = -1;
  RtError r = rt_pointer_info(pHost, &kind, NULL, NULL);
  if (r) return E(r);
  if (!pDevice || kind < 0) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  *pDevice = pHost;
  return cudaSuccess;
}

/* With unified addressing registered memory is mapped whatever the flags:
 * kernels reach it at its own address. */
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  if (flags & (cudaHostRegisterIoMemory | cudaHostRegisterReadOnly))
    return E(rt_unsupported("cudaHostRegister (cudaHostRegisterIoMemory, cudaHostRegisterReadOnly)"));
  RtError r = rt_host_register(ptr, size);
  return r == RT_ERR_INVALID_VALUE ? E(rt_set_last_error(RT_ERR_HOST_MEMORY_ALREADY_REGISTERED)) : E(r);
}

cudaError_t cudaHostUnregister(void *ptr) {
  RtError r = rt_host_unregister(ptr);
  return r == RT_ERR_INVALID_VALUE ? E(rt_set_last_error(RT_ERR_HOST_MEMORY_NOT_REGISTERED)) : E(r);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) { return E(rt_mem_info(free_bytes, total)); }

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr) {
  int kind = -1;
  void *base = NULL;
  RtError r = rt_pointer_info(ptr, &kind, &base, NULL);
  if (r) return E(r);
  if (!attributes) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  memset(attributes, 0, sizeof *attributes);
  static const enum cudaMemoryType types[] = {[RT_MEM_DEVICE] = cudaMemoryTypeDevice,
                                              [RT_MEM_MANAGED] = cudaMemoryTypeManaged,
                                              [RT_MEM_HOST] = cudaMemoryTypeHost};
  attributes->type = kind < 0 ? cudaMemoryTypeUnregistered : types[kind];
  attributes->device = 0;
  if (kind >= 0) attributes->devicePointer = attributes->hostPointer = (void *)ptr;
  return cudaSuccess;
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location) {
  return cudaSuccess;
}

/* ---- copies and sets: unified memory, so the direction is only checked ---- */

static RtError check_kind(enum cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return rt_set_last_error(RT_ERR_INVALID_MEMCPY_DIRECTION);
  return RT_SUCCESS;
}

static RtError check_stream(cudaStream_t s) { return rt_stream_check((RtStream *)s); }

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  RtError r = check_kind(kind);
  return E(r ? r : rt_memcpy(dst, src, count));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  RtError r = check_kind(kind);
  if (!r) r = check_stream(stream);
  if (!r && api_capturing(stream)) return api_capture_copy(stream, dst, src, count);
  return E(r ? r : rt_memcpy(dst, src, count));
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind) {
  RtError r = check_kind(kind);
  return E(r ? r : rt_memcpy_2d(dst, dpitch, src, spitch, width, height));
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream) {
  RtError r = check_kind(kind);
  if (!r) r = check_stream(stream);
  return E(r ? r : rt_memcpy_2d(dst, dpitch, src, spitch, width, height));
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
  if (dstDevice || srcDevice) return E(rt_set_last_error(RT_ERR_INVALID_DEVICE));
  return E(rt_memcpy(dst, src, count));
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count) { return E(rt_memset(devPtr, value, count)); }

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
  RtError r = check_stream(stream);
  if (!r && api_capturing(stream)) return api_capture_set(stream, devPtr, value, count);
  return E(r ? r : rt_memset(devPtr, value, count));
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  return E(rt_memset_2d(devPtr, pitch, value, width, height));
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  RtError r = check_stream(stream);
  return E(r ? r : rt_memset_2d(devPtr, pitch, value, width, height));
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent) {
  for (size_t z = 0; z < (extent.depth ? extent.depth : 1); z++) {
    char *slice = (char *)pitchedDevPtr.ptr + z * pitchedDevPtr.pitch * pitchedDevPtr.ysize;
    RtError r = rt_memset_2d(slice, pitchedDevPtr.pitch, value, extent.width, extent.height ? extent.height : 1);
    if (r) return E(r);
  }
  return cudaSuccess;
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream) {
  RtError r = check_stream(stream);
  return r ? E(r) : cudaMemset3D(pitchedDevPtr, value, extent);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
  RtError r = check_stream(stream);
  return r ? E(r) : cudaMemcpy3D(p);
}

/* ---- symbols (__device__, __constant__, __managed__ variables) ---- */

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind) {
  RtError r = check_kind(kind);
  return E(r ? r : rt_symbol_copy(symbol, offset, (void *)src, count, 1));
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream) {
  RtError r = check_kind(kind);
  if (!r) r = check_stream(stream);
  return E(r ? r : rt_symbol_copy(symbol, offset, (void *)src, count, 1));
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind) {
  RtError r = check_kind(kind);
  return E(r ? r : rt_symbol_copy(symbol, offset, dst, count, 0));
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
  RtError r = check_kind(kind);
  if (!r) r = check_stream(stream);
  return E(r ? r : rt_symbol_copy(symbol, offset, dst, count, 0));
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  return E(rt_symbol(symbol, devPtr, NULL));
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) { return E(rt_symbol(symbol, NULL, size)); }

/* ---- streams: in order, and done when called ---- */

cudaError_t cudaStreamCreate(cudaStream_t *pStream) { return E(rt_stream_create((RtStream **)pStream)); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
  return E(rt_stream_create((RtStream **)pStream));
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority) {
  return E(rt_stream_create((RtStream **)pStream));
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) { return E(rt_stream_destroy((RtStream *)stream)); }
cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return E(rt_stream_sync((RtStream *)stream)); }
cudaError_t cudaStreamQuery(cudaStream_t stream) { return E(rt_stream_sync((RtStream *)stream)); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return E(rt_stream_check((RtStream *)stream));
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  if (!fn) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  if (api_capturing(stream)) return api_capture_host(stream, fn, userData);
  RtError r = rt_stream_sync((RtStream *)stream);
  if (r) return E(r);
  fn(userData);
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags) {
  RtError r = rt_stream_check((RtStream *)stream);
  if (r) return E(r);
  if (!callback) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  callback(stream, E(rt_sticky_error()), userData);
  return cudaSuccess;
}

/* ---- events: the device clock ---- */

cudaError_t cudaEventCreate(cudaEvent_t *event) { return E(rt_event_create((RtEvent **)event, 1)); }

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  return E(rt_event_create((RtEvent **)event, !(flags & cudaEventDisableTiming)));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (api_capturing(stream)) return api_capture_event(stream, event);
  return E(rt_event_record((RtEvent *)event, (RtStream *)stream));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) { return E(rt_event_sync((RtEvent *)event)); }
cudaError_t cudaEventQuery(cudaEvent_t event) { return E(rt_event_sync((RtEvent *)event)); }
cudaError_t cudaEventDestroy(cudaEvent_t event) { return E(rt_event_destroy((RtEvent *)event)); }

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  return E(rt_event_elapsed((RtEvent *)start, (RtEvent *)end, ms));
}

/* ---- stream properties and hints that change nothing here ---- */

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority) {
  if (priority) *priority = 0;
  return E(rt_stream_check((RtStream *)hStream));
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags) {
  if (flags) *flags = 0;
  return E(rt_stream_check((RtStream *)hStream));
}

/* An L2 access policy window, a priority, ...: hints for a GPU's
 * scheduler and caches, which warpmem's model does not take; kept and read
 * back as set. */
cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out) {
  return E(rt_stream_get_attr((RtStream *)hStream, (unsigned)attr, value_out, sizeof *value_out));
}

cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value) {
  return E(rt_stream_set_attr((RtStream *)hStream, (unsigned)attr, value, sizeof *value));
}

cudaError_t cudaCtxResetPersistingL2Cache(void) { return cudaSuccess; }

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags) {
  return E(rt_stream_check((RtStream *)stream));
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) { return cudaSuccess; }

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig) {
  if (pConfig) *pConfig = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) { return cudaSuccess; }
cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config) { return cudaSuccess; }
