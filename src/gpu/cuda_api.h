/* cuda_api.h - the few CUDA driver and cuBLAS types, constants and entry
 * points warpmem uses, declared here so that nothing needs cuda.h to build.
 *
 * Every constant is one row of CUDA_CONSTANTS with the name cuda.h gives
 * it; tests/test_gpu.c checks each value against /usr/local/cuda/include/
 * cuda.h (or cublas_api.h) when that file exists.  Every function is one
 * row of CUDA_DRIVER_FUNCS or CUBLAS_FUNCS: the field name, the exported
 * symbol (the versioned one that cuda.h's #defines select: cuMemAlloc is
 * cuMemAlloc_v2), a fallback symbol for older drivers, and the prototype.
 */
#ifndef WM_CUDA_API_H
#define WM_CUDA_API_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr; /* 64-bit builds only */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;   /* NULL: the legacy default stream */
typedef int CUjit_option;
typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
typedef struct CUarray_st *CUarray;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;

/* X(NAME, VALUE, HEADER): the header that defines NAME. */
#define CUDA_CONSTANTS(X)                                              \
  X(CUDA_SUCCESS, 0, "cuda.h")                                         \
  X(CUDA_ERROR_INVALID_VALUE, 1, "cuda.h")                             \
  X(CUDA_ERROR_OUT_OF_MEMORY, 2, "cuda.h")                             \
  X(CUDA_ERROR_NOT_INITIALIZED, 3, "cuda.h")                           \
  X(CUDA_ERROR_NO_DEVICE, 100, "cuda.h")                               \
  X(CUDA_ERROR_INVALID_PTX, 218, "cuda.h")                             \
  X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222, "cuda.h")                 \
  X(CUDA_ERROR_NOT_FOUND, 500, "cuda.h")                               \
  X(CUDA_ERROR_ILLEGAL_ADDRESS, 700, "cuda.h")                         \
  X(CUDA_ERROR_ASSERT, 710, "cuda.h")                                  \
  X(CUDA_ERROR_HARDWARE_STACK_ERROR, 714, "cuda.h")                    \
  X(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715, "cuda.h")                     \
  X(CUDA_ERROR_MISALIGNED_ADDRESS, 716, "cuda.h")                      \
  X(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717, "cuda.h")                   \
  X(CUDA_ERROR_INVALID_PC, 718, "cuda.h")                              \
  X(CUDA_ERROR_LAUNCH_FAILED, 719, "cuda.h")                           \
  X(CUDA_ERROR_LAUNCH_TIMEOUT, 702, "cuda.h")                          \
  X(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, 720, "cuda.h")            \
  X(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 95, "cuda.h")              \
  X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1, "cuda.h")            \
  X(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 10, "cuda.h")                       \
  X(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 13, "cuda.h")                      \
  X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16, "cuda.h")            \
  X(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 36, "cuda.h")               \
  X(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 37, "cuda.h")         \
  X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38, "cuda.h")                   \
  X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 39, "cuda.h")  \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75, "cuda.h")        \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76, "cuda.h")        \
  X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 81, "cuda.h") \
  X(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 82, "cuda.h") \
  X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 97, "cuda.h") \
  X(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0, "cuda.h")              \
  X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1, "cuda.h")                  \
  X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3, "cuda.h")                   \
  X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4, "cuda.h")                           \
  X(CU_FUNC_ATTRIBUTE_PTX_VERSION, 5, "cuda.h")                        \
  X(CU_FUNC_ATTRIBUTE_BINARY_VERSION, 6, "cuda.h")                     \
  X(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 8, "cuda.h")      \
  X(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 9, "cuda.h")   \
  X(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 14, "cuda.h") \
  X(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, 4, "cuda.h")                \
  X(CU_JIT_INFO_LOG_BUFFER, 3, "cuda.h")                               \
  X(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, 4, "cuda.h")                    \
  X(CU_JIT_ERROR_LOG_BUFFER, 5, "cuda.h")                              \
  X(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, 6, "cuda.h")                   \
  X(CU_JIT_LOG_VERBOSE, 12, "cuda.h")                                  \
  X(CU_EVENT_DEFAULT, 0, "cuda.h")                                     \
  X(CU_AD_FORMAT_UNSIGNED_INT8, 0x01, "cuda.h")                        \
  X(CU_AD_FORMAT_UNSIGNED_INT16, 0x02, "cuda.h")                       \
  X(CU_AD_FORMAT_UNSIGNED_INT32, 0x03, "cuda.h")                       \
  X(CU_AD_FORMAT_SIGNED_INT8, 0x08, "cuda.h")                          \
  X(CU_AD_FORMAT_SIGNED_INT16, 0x09, "cuda.h")                         \
  X(CU_AD_FORMAT_SIGNED_INT32, 0x0a, "cuda.h")                         \
  X(CU_AD_FORMAT_HALF, 0x10, "cuda.h")                                 \
  X(CU_AD_FORMAT_FLOAT, 0x20, "cuda.h")                                \
  X(CUDA_ARRAY3D_LAYERED, 0x01, "cuda.h")                              \
  X(CUDA_ARRAY3D_CUBEMAP, 0x04, "cuda.h")                              \
  X(CUDA_ARRAY3D_SURFACE_LDST, 0x02, "cuda.h")                         \
  X(CU_MEMORYTYPE_HOST, 0x01, "cuda.h")                                \
  X(CU_MEMORYTYPE_ARRAY, 0x03, "cuda.h")                               \
  X(CU_RESOURCE_TYPE_ARRAY, 0x00, "cuda.h")                            \
  X(CU_RESOURCE_TYPE_LINEAR, 0x02, "cuda.h")                           \
  X(CU_RESOURCE_TYPE_PITCH2D, 0x03, "cuda.h")                          \
  X(CU_TR_ADDRESS_MODE_WRAP, 0, "cuda.h")                              \
  X(CU_TR_ADDRESS_MODE_CLAMP, 1, "cuda.h")                             \
  X(CU_TR_ADDRESS_MODE_MIRROR, 2, "cuda.h")                            \
  X(CU_TR_ADDRESS_MODE_BORDER, 3, "cuda.h")                            \
  X(CU_TR_FILTER_MODE_POINT, 0, "cuda.h")                              \
  X(CU_TR_FILTER_MODE_LINEAR, 1, "cuda.h")                             \
  X(CU_TRSF_READ_AS_INTEGER, 0x01, "cuda.h")                           \
  X(CU_TRSF_NORMALIZED_COORDINATES, 0x02, "cuda.h")                    \
  X(CUBLAS_STATUS_SUCCESS, 0, "cublas_api.h")                          \
  X(CUBLAS_OP_N, 0, "cublas_api.h")

enum {
#define X(name, value, header) name = value,
  CUDA_CONSTANTS(X)
#undef X
};

/* ---- CUDA arrays, texture and surface objects ----------------------------
 * The structure layouts of the CUDA driver API reference ("Data types used
 * by CUDA driver": CUDA_ARRAY3D_DESCRIPTOR_v2, CUDA_MEMCPY3D_v2,
 * CUDA_RESOURCE_DESC_v1, CUDA_TEXTURE_DESC_v1), field for field in the
 * documented order; the enum-typed fields (CUarray_format, CUmemorytype,
 * CUresourcetype, CUaddress_mode, CUfilter_mode) are C enums, int-sized.
 * test_gpu.c checks sizes and offsets against cuda.h when it is here. */
typedef struct CudaArray3DDesc {        /* CUDA_ARRAY3D_DESCRIPTOR */
  size_t Width, Height, Depth;          /* Height 0: 1D; Depth 0: no third dimension */
  int Format;                           /* CU_AD_FORMAT_* */
  unsigned NumChannels;                 /* 1, 2 or 4 */
  unsigned Flags;                       /* CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST */
} CudaArray3DDesc;

typedef struct CudaMemcpy3D {           /* CUDA_MEMCPY3D */
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;                    /* CU_MEMORYTYPE_* */
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0;                      /* must be NULL */
  size_t srcPitch, srcHeight;           /* ignored for arrays */
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1;                      /* must be NULL */
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
} CudaMemcpy3D;

typedef struct CudaResourceDesc {       /* CUDA_RESOURCE_DESC */
  int resType;                          /* CU_RESOURCE_TYPE_*: res.array, .linear, .pitch2D */
  union {
    struct {
      CUarray hArray;
    } array;
    struct {
      unsigned long long devPtr;          /* CUdeviceptr */
      int format;                         /* CUarray_format */
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      unsigned long long devPtr;
      int format;
      unsigned numChannels;
      size_t width, height, pitchInBytes;
    } pitch2D;
    int reserved[32];                   /* the size of the documented union */
  } res;
  unsigned flags;                       /* must be zero */
} CudaResourceDesc;

typedef struct CudaTextureDesc {        /* CUDA_TEXTURE_DESC */
  int addressMode[3];                   /* CU_TR_ADDRESS_MODE_* */
  int filterMode;                       /* CU_TR_FILTER_MODE_* */
  unsigned flags;                       /* CU_TRSF_* */
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
} CudaTextureDesc;

/* ---- cuLaunchKernelEx's configuration (CUlaunchConfig, CUlaunchAttribute):
 * an attribute is its id, padding to 8 bytes and a 64-byte union of which a
 * cluster dimension uses the first three words. */
typedef struct CudaLaunchAttr {
  int id;                               /* CU_LAUNCH_ATTRIBUTE_* */
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } cluster_dim;
  } value;
} CudaLaunchAttr;

typedef struct CudaLaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  CudaLaunchAttr *attrs;
  unsigned numAttrs;
} CudaLaunchConfig;
_Static_assert(sizeof(CudaLaunchAttr) == 72, "CUlaunchAttribute is 72 bytes (cuda.h)");
_Static_assert(sizeof(void *) != 8 || (offsetof(CudaLaunchConfig, hStream) == 32 && sizeof(CudaLaunchConfig) == 56),
               "CUlaunchConfig's layout (cuda.h, 64-bit)");

/* X(FIELD, SYMBOL, FALLBACK or NULL, (PARAMETERS)); all return CUresult. */
#define CUDA_DRIVER_FUNCS(X)                                                          \
  X(cuInit, "cuInit", NULL, (unsigned flags))                                         \
  X(cuDriverGetVersion, "cuDriverGetVersion", NULL, (int *version))                   \
  X(cuDeviceGetCount, "cuDeviceGetCount", NULL, (int *count))                         \
  X(cuDeviceGet, "cuDeviceGet", NULL, (CUdevice *dev, int ordinal))                   \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", NULL, (int *v, int attr, CUdevice dev)) \
  X(cuDeviceGetName, "cuDeviceGetName", NULL, (char *name, int len, CUdevice dev))    \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", NULL, (size_t *bytes, CUdevice dev))     \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL, (CUcontext *ctx, CUdevice dev)) \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease", \
    (CUdevice dev))                                                                   \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", NULL, (CUcontext ctx))                        \
  X(cuCtxSynchronize, "cuCtxSynchronize", NULL, (void))                               \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", NULL,                                   \
    (CUmodule *mod, const void *image, unsigned nopt, CUjit_option *opt, void **val)) \
  X(cuModuleUnload, "cuModuleUnload", NULL, (CUmodule mod))                           \
  X(cuModuleGetFunction, "cuModuleGetFunction", NULL, (CUfunction *f, CUmodule mod, const char *name)) \
  X(cuModuleGetGlobal, "cuModuleGetGlobal_v2", NULL,                                  \
    (CUdeviceptr *p, size_t *bytes, CUmodule mod, const char *name))                  \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", NULL, (int *v, int attr, CUfunction f)) \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", NULL, (CUfunction f, int attr, int v))  \
  X(cuMemAlloc, "cuMemAlloc_v2", NULL, (CUdeviceptr *p, size_t bytes))                \
  X(cuMemFree, "cuMemFree_v2", NULL, (CUdeviceptr p))                                 \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", NULL, (CUdeviceptr dst, const void *src, size_t n)) \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", NULL, (void *dst, CUdeviceptr src, size_t n))    \
  X(cuMemcpyDtoD, "cuMemcpyDtoD_v2", NULL, (CUdeviceptr dst, CUdeviceptr src, size_t n)) \
  X(cuMemsetD8, "cuMemsetD8_v2", NULL, (CUdeviceptr dst, unsigned char v, size_t n))  \
  X(cuLaunchKernel, "cuLaunchKernel", NULL,                                           \
    (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,   \
     unsigned bz, unsigned smem, CUstream s, void **params, void **extra))            \
  X(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel", NULL,                     \
    (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,   \
     unsigned bz, unsigned smem, CUstream s, void **params))                          \
  X(cuLaunchKernelEx, "cuLaunchKernelEx", NULL,                                       \
    (const CudaLaunchConfig *c, CUfunction f, void **params, void **extra))           \
  X(cuArray3DCreate, "cuArray3DCreate_v2", NULL, (CUarray *a, const CudaArray3DDesc *d)) \
  X(cuArrayDestroy, "cuArrayDestroy", NULL, (CUarray a))                              \
  X(cuMemcpy3D, "cuMemcpy3D_v2", NULL, (const CudaMemcpy3D *c))                       \
  X(cuTexObjectCreate, "cuTexObjectCreate", NULL,                                     \
    (CUtexObject *t, const CudaResourceDesc *r, const CudaTextureDesc *d, const void *view)) \
  X(cuTexObjectDestroy, "cuTexObjectDestroy", NULL, (CUtexObject t))                  \
  X(cuSurfObjectCreate, "cuSurfObjectCreate", NULL, (CUsurfObject *s, const CudaResourceDesc *r)) \
  X(cuSurfObjectDestroy, "cuSurfObjectDestroy", NULL, (CUsurfObject s))               \
  X(cuEventCreate, "cuEventCreate", NULL, (CUevent *ev, unsigned flags))              \
  X(cuEventRecord, "cuEventRecord", NULL, (CUevent ev, CUstream s))                   \
  X(cuEventSynchronize, "cuEventSynchronize", NULL, (CUevent ev))                     \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime",                \
    (float *ms, CUevent start, CUevent end))                                          \
  X(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy", (CUevent ev))              \
  X(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", NULL,                          \
    (void *map, int dtype, unsigned rank, void *addr, const unsigned long long *dim,  \
     const unsigned long long *strides, const unsigned *box, const unsigned *estride,  \
     int interleave, int swizzle, int l2, int oob))                                   \
  X(cuTensorMapEncodeIm2col, "cuTensorMapEncodeIm2col", NULL,                        \
    (void *map, int dtype, unsigned rank, void *addr, const unsigned long long *dim,  \
     const unsigned long long *strides, const int *lower, const int *upper,           \
     unsigned channels, unsigned pixels, const unsigned *estride, int interleave,     \
     int swizzle, int l2, int oob))                                                   \
  X(cuGetErrorName, "cuGetErrorName", NULL, (CUresult r, const char **s))             \
  X(cuGetErrorString, "cuGetErrorString", NULL, (CUresult r, const char **s))

/* X(FIELD, SYMBOL, FALLBACK or NULL, (PARAMETERS)); all return cublasStatus_t. */
#define CUBLAS_FUNCS(X)                                                               \
  X(cublasCreate, "cublasCreate_v2", NULL, (cublasHandle_t *h))                       \
  X(cublasDestroy, "cublasDestroy_v2", NULL, (cublasHandle_t h))                      \
  X(cublasSgemm, "cublasSgemm_v2", NULL,                                              \
    (cublasHandle_t h, int transa, int transb, int m, int n, int k, const float *alpha, \
     const float *a, int lda, const float *b, int ldb, const float *beta, float *c, int ldc))

typedef struct CudaDriver {
#define X(field, sym, alt, params) CUresult (*field) params;
  CUDA_DRIVER_FUNCS(X)
#undef X
} CudaDriver;

typedef struct CublasApi {
#define X(field, sym, alt, params) cublasStatus_t (*field) params;
  CUBLAS_FUNCS(X)
#undef X
  const char *(*cublasGetStatusString)(cublasStatus_t s); /* optional (cuBLAS >= 11.4) */
} CublasApi;

#endif
