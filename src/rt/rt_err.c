/* rt_err.c - the names and descriptions of the errors the context returns
 * (cudaGetErrorName / cudaGetErrorString).  The names are CUDA's, so that an
 * application's messages read as they would on a GPU. */
#include <stddef.h>

#include "rt/rt.h"

typedef struct RtErrText {
  RtError e;
  const char *name, *text;
} RtErrText;

static const RtErrText errs[] = {
  {RT_SUCCESS, "cudaSuccess", "no error"},
  {RT_ERR_INVALID_VALUE, "cudaErrorInvalidValue", "invalid argument"},
  {RT_ERR_MEMORY_ALLOCATION, "cudaErrorMemoryAllocation", "out of memory"},
  {RT_ERR_INITIALIZATION, "cudaErrorInitializationError", "initialization error"},
  {RT_ERR_INVALID_CONFIGURATION, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
  {RT_ERR_INVALID_PITCH, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
  {RT_ERR_INVALID_SYMBOL, "cudaErrorInvalidSymbol", "invalid device symbol"},
  {RT_ERR_INVALID_DEVICE_POINTER, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
  {RT_ERR_INVALID_MEMCPY_DIRECTION, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
  {RT_ERR_INVALID_DEVICE_FUNCTION, "cudaErrorInvalidDeviceFunction", "invalid device function"},
  {RT_ERR_INVALID_DEVICE, "cudaErrorInvalidDevice", "invalid device ordinal"},
  {RT_ERR_INVALID_KERNEL_IMAGE, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
  {RT_ERR_NO_KERNEL_IMAGE, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
  {RT_ERR_UNSUPPORTED_LIMIT, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
  {RT_ERR_INVALID_PTX, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
  {RT_ERR_INVALID_HANDLE, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
  {RT_ERR_NOT_FOUND, "cudaErrorSymbolNotFound", "named symbol not found"},
  {RT_ERR_NOT_READY, "cudaErrorNotReady", "device not ready"},
  {RT_ERR_ILLEGAL_ADDRESS, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
  {RT_ERR_ASSERT, "cudaErrorAssert", "device-side assert triggered"},
  {RT_ERR_HOST_MEMORY_ALREADY_REGISTERED, "cudaErrorHostMemoryAlreadyRegistered",
   "part or all of the requested memory range is already mapped"},
  {RT_ERR_HOST_MEMORY_NOT_REGISTERED, "cudaErrorHostMemoryNotRegistered",
   "pointer does not correspond to a registered memory region"},
  {RT_ERR_LAUNCH_OUT_OF_RESOURCES, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
  {RT_ERR_LAUNCH_FAILURE, "cudaErrorLaunchFailure", "unspecified launch failure"},
  {RT_ERR_LAUNCH_TIMEOUT, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
  {RT_ERR_COOPERATIVE_TOO_LARGE, "cudaErrorCooperativeLaunchTooLarge",
   "too many blocks in cooperative launch"},
  {RT_ERR_NOT_PERMITTED, "cudaErrorNotPermitted", "operation not permitted"},
  {RT_ERR_NOT_SUPPORTED, "cudaErrorNotSupported", "operation not supported"},
  {RT_ERR_INVALID_CLUSTER_SIZE, "cudaErrorInvalidClusterSize", "invalid cluster size"},
  {RT_ERR_UNKNOWN, "cudaErrorUnknown", "unknown error"},
};

static const RtErrText *find(RtError e) {
  for (size_t i = 0; i < sizeof errs / sizeof *errs; i++)
    if (errs[i].e == e) return &errs[i];
  return NULL;
}

const char *rt_error_name(RtError e) {
  const RtErrText *t = find(e);
  return t ? t->name : "cudaErrorUnknown";
}

const char *rt_error_string(RtError e) {
  const RtErrText *t = find(e);
  return t ? t->text : "unrecognized error code";
}
