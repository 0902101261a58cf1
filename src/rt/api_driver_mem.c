/* api_driver_mem.c - the driver API's memory, pointers, streams and events
 * (libcuda.so.1): every allocation is one of the context's unified memory,
 * so a CUdeviceptr is also a host pointer and every copy is a checked
 * memcpy; streams run in order, events read the device clock. */
#include <stdlib.h>
#include <string.h>

#include "rt/api_driver.h"

#define R(x) drv_result(x)
#define PTR(d) ((void *)(uintptr_t)(d))

/* ---- allocations ------------------------------------------------------------ */

static CUresult alloc(CUdeviceptr *dptr, size_t bytes, RtMemKind kind) {
  if (!dptr) return drv_fail(RT_ERR_INVALID_VALUE);
  if (!bytes) return drv_fail(RT_ERR_INVALID_VALUE); /* the driver refuses 0 bytes */
  void *p = NULL;
  RtError r = rt_malloc(bytes, kind, &p);
  *dptr = (CUdeviceptr)(uintptr_t)p;
  return R(r);
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) { return alloc(dptr, bytesize, RT_MEM_DEVICE); }

/* Stream-ordered allocation (cudaMallocAsync through the static runtime):
 * in order on every stream here, so it is an allocation now, from the one
 * pool of the device (its attributes change nothing). */
static int drv_pool;

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
  RtError r = rt_stream_check((RtStream *)hStream);
  return r ? R(r) : alloc(dptr, bytesize, RT_MEM_DEVICE);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream) {
  if (!pool) return drv_fail(RT_ERR_INVALID_VALUE);
  return cuMemAllocAsync(dptr, bytesize, hStream);
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  RtError r = rt_stream_check((RtStream *)hStream);
  return r ? R(r) : R(rt_free(PTR(dptr), RT_MEM_DEVICE));
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev) {
  if (!pool_out) return drv_fail(RT_ERR_INVALID_VALUE);
  if (dev != 0) return drv_fail(RT_ERR_INVALID_DEVICE);
  *pool_out = (CUmemoryPool)&drv_pool;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) { return cuDeviceGetDefaultMemPool(pool, dev); }

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
  return pool && value ? CUDA_SUCCESS : drv_fail(RT_ERR_INVALID_VALUE);
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
  if (!pool || !value) return drv_fail(RT_ERR_INVALID_VALUE);
  int flag = attr == CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES || attr == CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC ||
             attr == CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
  memset(value, 0, flag ? sizeof(int) : sizeof(uint64_t));
  return CUDA_SUCCESS;
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
  return pool ? CUDA_SUCCESS : drv_fail(RT_ERR_INVALID_VALUE);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags) {
  return alloc(dptr, bytesize, RT_MEM_MANAGED);
}

CUresult cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                         unsigned int ElementSizeBytes) {
  if (!pPitch || !WidthInBytes || !Height) return drv_fail(RT_ERR_INVALID_VALUE);
  if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16) return drv_fail(RT_ERR_INVALID_VALUE);
  *pPitch = (WidthInBytes + 511) & ~(size_t)511;
  return alloc(dptr, *pPitch * Height, RT_MEM_DEVICE);
}

CUresult cuMemFree(CUdeviceptr dptr) { return R(rt_free(PTR(dptr), RT_MEM_DEVICE)); }

CUresult cuMemAllocHost(void **pp, size_t bytesize) {
  if (!pp || !bytesize) return drv_fail(RT_ERR_INVALID_VALUE);
  return R(rt_malloc(bytesize, RT_MEM_HOST, pp));
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) { return cuMemAllocHost(pp, bytesize); }

CUresult cuMemFreeHost(void *p) { return R(rt_free(p, RT_MEM_HOST)); }

/* Registered memory is reached at its own address (unified addressing). */
CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags) {
  RtError r = rt_host_register(p, bytesize);
  return r == RT_ERR_INVALID_VALUE ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED : R(r);
}

CUresult cuMemHostUnregister(void *p) {
  RtError r = rt_host_unregister(p);
  return r == RT_ERR_INVALID_VALUE ? CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED : R(r);
}

/* Memory from cuMemAllocHost is unified already: its device pointer is itself. */
CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags) {
  int kind = -1;
  RtError r = rt_pointer_info(p, &kind, NULL, NULL);
  if (r) return R(r);
  if (!pdptr || kind != RT_MEM_HOST) return drv_fail(RT_ERR_INVALID_VALUE);
  *pdptr = (CUdeviceptr)(uintptr_t)p;
  return CUDA_SUCCESS;
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p) {
  int kind = -1;
  RtError r = rt_pointer_info(p, &kind, NULL, NULL);
  if (r) return R(r);
  if (!pFlags || kind != RT_MEM_HOST) return drv_fail(RT_ERR_INVALID_VALUE);
  *pFlags = CU_MEMHOSTALLOC_DEVICEMAP;
  return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t *free, size_t *total) { return R(rt_mem_info(free, total)); }

CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr) {
  int kind = -1;
  void *base = NULL;
  size_t size = 0;
  RtError r = rt_pointer_info(PTR(dptr), &kind, &base, &size);
  if (r) return R(r);
  if (kind < 0) return drv_fail(RT_ERR_NOT_FOUND);
  if (pbase) *pbase = (CUdeviceptr)(uintptr_t)base;
  if (psize) *psize = size;
  return CUDA_SUCCESS;
}

/* Managed memory is where the host and the device both see it already. */
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                            CUstream hStream) {
  return R(rt_stream_check((RtStream *)hStream));
}

CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location) {
  return CUDA_SUCCESS;
}

/* ---- pointers -------------------------------------------------------------------- */

/* One attribute of the allocation ptr lies in (kind -1: host memory). */
static CUresult pointer_attribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr, int kind, void *base,
                                  size_t size) {
  static const CUmemorytype types[] = {[RT_MEM_DEVICE] = CU_MEMORYTYPE_DEVICE, [RT_MEM_MANAGED] = CU_MEMORYTYPE_DEVICE,
                                       [RT_MEM_HOST] = CU_MEMORYTYPE_HOST};
  switch (attribute) {
  case CU_POINTER_ATTRIBUTE_CONTEXT: {
    CUcontext c = NULL;
    if (kind >= 0) cuCtxGetCurrent(&c);
    *(CUcontext *)data = c;
    break;
  }
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *(unsigned *)data = kind < 0 ? 0 : types[kind]; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = kind < 0 ? 0 : ptr; break;
  case CU_POINTER_ATTRIBUTE_HOST_POINTER: *(void **)data = kind < 0 ? NULL : PTR(ptr); break;
  case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned *)data = kind == RT_MEM_MANAGED; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)base; break;
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = size; break;
  case CU_POINTER_ATTRIBUTE_MAPPED: *(unsigned *)data = kind >= 0; break;
  case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(unsigned *)data = 1; break;
  case CU_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = (unsigned long long)(uintptr_t)base; break;
  default: return drv_fail(RT_ERR_INVALID_VALUE);
  }
  return kind < 0 && attribute != CU_POINTER_ATTRIBUTE_MEMORY_TYPE && attribute != CU_POINTER_ATTRIBUTE_CONTEXT
             ? drv_fail(RT_ERR_INVALID_VALUE)
             : CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  if (!data) return drv_fail(RT_ERR_INVALID_VALUE);
  int kind = -1;
  void *base = NULL;
  size_t size = 0;
  RtError r = rt_pointer_info(PTR(ptr), &kind, &base, &size);
  if (r) return R(r);
  return pointer_attribute(data, attribute, ptr, kind, base, size);
}

CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr) {
  if (!attributes || !data) return drv_fail(RT_ERR_INVALID_VALUE);
  int kind = -1;
  void *base = NULL;
  size_t size = 0;
  RtError r = rt_pointer_info(PTR(ptr), &kind, &base, &size);
  if (r) return R(r);
  for (unsigned i = 0; i < numAttributes; i++) /* host memory: zeros, not an error (the driver's way) */
    if (data[i]) pointer_attribute(data[i], attributes[i], ptr, kind, base, size);
  rt_set_last_error(RT_SUCCESS);
  return CUDA_SUCCESS;
}

/* ---- copies and memsets --------------------------------------------------------- */

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return R(rt_memcpy(PTR(dst), PTR(src), ByteCount));
}
CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) {
  return R(rt_memcpy(PTR(dstDevice), srcHost, ByteCount));
}
CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return R(rt_memcpy(dstHost, PTR(srcDevice), ByteCount));
}
CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return R(rt_memcpy(PTR(dstDevice), PTR(srcDevice), ByteCount));
}

/* The async forms run at once, in order, after checking the stream. */
static CUresult copy_async(void *dst, const void *src, size_t n, CUstream s) {
  RtError r = rt_stream_check((RtStream *)s);
  return R(r ? r : rt_memcpy(dst, src, n));
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return copy_async(PTR(dst), PTR(src), ByteCount, hStream);
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream) {
  return copy_async(PTR(dstDevice), srcHost, ByteCount, hStream);
}
CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return copy_async(dstHost, PTR(srcDevice), ByteCount, hStream);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return copy_async(PTR(dstDevice), PTR(srcDevice), ByteCount, hStream);
}

/* n elements of `size` bytes (1, 2 or 4) of value v in each of `height`
 * rows `pitch` bytes apart: copies from a pattern, so that every row is
 * checked as cuMemcpy's ranges are. */
static CUresult fill(CUdeviceptr dst, size_t pitch, uint32_t v, unsigned size, size_t n, size_t height) {
  if (size == 1) return R(rt_memset_2d(PTR(dst), pitch ? pitch : n, (int)(v & 0xff), n, height));
  enum { CHUNK = 16384 };
  static _Thread_local uint8_t pattern[CHUNK];
  for (size_t i = 0; i < CHUNK; i += size) memcpy(pattern + i, &v, size);
  size_t row = n * size;
  if (pitch && pitch < row) return drv_fail(RT_ERR_INVALID_PITCH);
  for (size_t y = 0; y < height; y++)
    for (size_t off = 0; off < row; off += CHUNK) {
      size_t k = row - off < CHUNK ? row - off : CHUNK;
      RtError r = rt_memcpy((uint8_t *)PTR(dst) + y * pitch + off, pattern, k);
      if (r) return R(r);
    }
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N) { return fill(dstDevice, 0, uc, 1, N, 1); }
CUresult cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N) { return fill(dstDevice, 0, us, 2, N, 1); }
CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N) { return fill(dstDevice, 0, ui, 4, N, 1); }
CUresult cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height) {
  return fill(dstDevice, dstPitch, uc, 1, Width, Height);
}
CUresult cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height) {
  return fill(dstDevice, dstPitch, us, 2, Width, Height);
}
CUresult cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height) {
  return fill(dstDevice, dstPitch, ui, 4, Width, Height);
}

static CUresult fill_async(CUdeviceptr d, uint32_t v, unsigned size, size_t n, CUstream s) {
  RtError r = rt_stream_check((RtStream *)s);
  return r ? R(r) : fill(d, 0, v, size, n, 1);
}
CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  return fill_async(dstDevice, uc, 1, N, hStream);
}
CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) {
  return fill_async(dstDevice, us, 2, N, hStream);
}
CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) {
  return fill_async(dstDevice, ui, 4, N, hStream);
}

/* ---- streams ------------------------------------------------------------------------ */

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  if (!phStream) return drv_fail(RT_ERR_INVALID_VALUE);
  return R(rt_stream_create((RtStream **)phStream));
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority) {
  return cuStreamCreate(phStream, flags);
}

CUresult cuStreamDestroy(CUstream hStream) { return R(rt_stream_destroy((RtStream *)hStream)); }

/* Kept and read back, no effect (as cudaStreamSetAttribute). */
CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value) {
  return R(rt_stream_set_attr((RtStream *)hStream, (unsigned)attr, value, sizeof *value));
}

CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out) {
  return R(rt_stream_get_attr((RtStream *)hStream, (unsigned)attr, value_out, sizeof *value_out));
}

/* The persisting L2 lines: none are kept apart in the model. */
CUresult cuCtxResetPersistingL2Cache(void) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream hStream) { return R(rt_stream_sync((RtStream *)hStream)); }
CUresult cuStreamQuery(CUstream hStream) { return R(rt_stream_check((RtStream *)hStream)); }

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return R(rt_stream_check((RtStream *)hStream));
}

/* Host functions run at once: everything before them in the stream is done. */
CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData) {
  RtError r = rt_stream_check((RtStream *)hStream);
  if (r) return R(r);
  if (!fn) return drv_fail(RT_ERR_INVALID_VALUE);
  fn(userData);
  return CUDA_SUCCESS;
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags) {
  RtError r = rt_stream_check((RtStream *)hStream);
  if (r) return R(r);
  if (!callback) return drv_fail(RT_ERR_INVALID_VALUE);
  callback(hStream, drv_result(rt_sticky_error()), userData);
  return CUDA_SUCCESS;
}

/* ---- events ---------------------------------------------------------------------------- */

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
  if (!phEvent) return drv_fail(RT_ERR_INVALID_VALUE);
  return R(rt_event_create((RtEvent **)phEvent, !(Flags & CU_EVENT_DISABLE_TIMING)));
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  return R(rt_event_record((RtEvent *)hEvent, (RtStream *)hStream));
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags) {
  return cuEventRecord(hEvent, hStream);
}

CUresult cuEventSynchronize(CUevent hEvent) { return R(rt_event_sync((RtEvent *)hEvent)); }
CUresult cuEventQuery(CUevent hEvent) { return R(rt_event_sync((RtEvent *)hEvent)); }
CUresult cuEventDestroy(CUevent hEvent) { return R(rt_event_destroy((RtEvent *)hEvent)); }

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
  if (!pMilliseconds) return drv_fail(RT_ERR_INVALID_VALUE);
  return R(rt_event_elapsed((RtEvent *)hStart, (RtEvent *)hEnd, pMilliseconds));
}

/* ---- the names of older headers ---------------------------------------------------------- */

#undef cuEventElapsedTime
#undef cuEventDestroy
#undef cuStreamDestroy
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
  return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}
CUresult cuEventDestroy(CUevent hEvent);
CUresult cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }
CUresult cuStreamDestroy(CUstream hStream);
CUresult cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }
