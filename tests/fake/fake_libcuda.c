/* fake_libcuda.c - a stand-in for libcuda.so.1 that the GPU runner's tests
 * load through WARPMEM_LIBCUDA: device memory is host memory, a CUDA array
 * is a dense host copy, and a kernel launch runs nothing but adds 1.0 to
 * every f32 texel of every surface array (so that a copy back shows).  What
 * the runner asked for (the array and texture descriptions, the parameter
 * values at the launch) is kept in fake_state for the test to read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cuda_api.h"

#define FAKE_MAX 16

typedef struct FakeArray {
  CudaArray3DDesc d;
  uint8_t *data;  /* dense: rows of Width texels, rows, slices */
  size_t bytes;
  int live;
} FakeArray;

/* One encode call: its arguments; the map it writes is 0x5a bytes with the
 * global address in the first 8 and the call's number in byte 8. */
typedef struct FakeTmap {
  int dtype, im2col, interleave, swizzle, l2, oob;
  unsigned rank, box[5], estride[5], channels, pixels;
  unsigned long long addr, dim[5], strides[4];
  int lower[3], upper[3];
} FakeTmap;

struct FakeState {
  FakeArray arrays[FAKE_MAX];
  int narrays, arrays_destroyed;
  CudaResourceDesc res[FAKE_MAX];
  CudaTextureDesc tex[FAKE_MAX];
  int ntex, nsurf, objects_destroyed;
  uint8_t launch_params[8][8]; /* the first 8 bytes of the first 8 parameters */
  int launches, cooperative_launches;
  int nparams;                 /* set by the test: the kernel's parameter count
                                  (kernelParams has no terminator) */
  int cluster_launches;        /* cuLaunchKernelEx with a cluster dimension ... */
  unsigned cluster_dim[3];     /* ... the last one */
  int nonportable;             /* CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED set */
  FakeTmap tmaps[FAKE_MAX];    /* cuTensorMapEncodeTiled/Im2col's arguments */
  int ntmaps;
} fake_state;

#define OK return CUDA_SUCCESS

static size_t texel_bytes(const CudaArray3DDesc *d) {
  size_t c = d->Format == CU_AD_FORMAT_UNSIGNED_INT8 || d->Format == CU_AD_FORMAT_SIGNED_INT8 ? 1
             : d->Format == CU_AD_FORMAT_UNSIGNED_INT16 || d->Format == CU_AD_FORMAT_SIGNED_INT16 ||
                     d->Format == CU_AD_FORMAT_HALF ? 2 : 4;
  return c * d->NumChannels;
}

CUresult cuInit(unsigned f) { (void)f; OK; }
CUresult cuDriverGetVersion(int *v) { *v = 12080; OK; }
CUresult cuDeviceGetCount(int *n) { *n = 1; OK; }
CUresult cuDeviceGet(CUdevice *d, int o) { *d = o; OK; }
CUresult cuDeviceGetAttribute(int *v, int a, CUdevice d) {
  (void)d;
  *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ? 0
       : a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT ? 132 : a == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE ? 50 << 20
       : 1000;
  OK;
}
CUresult cuDeviceGetName(char *n, int len, CUdevice d) { (void)d; strncpy(n, "fake GPU", (size_t)len); OK; }
CUresult cuDeviceTotalMem_v2(size_t *b, CUdevice d) { (void)d; *b = 1ull << 34; OK; }
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)&fake_state; OK; }
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { (void)d; OK; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; OK; }
CUresult cuCtxSynchronize(void) { OK; }
CUresult cuModuleLoadDataEx(CUmodule *m, const void *img, unsigned n, CUjit_option *o, void **v) {
  (void)img, (void)n, (void)o, (void)v;
  *m = (CUmodule)&fake_state;
  OK;
}
CUresult cuModuleUnload(CUmodule m) { (void)m; OK; }
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) { (void)m, (void)name; *f = (CUfunction)&fake_state; OK; }
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *b, CUmodule m, const char *n) {
  (void)p, (void)b, (void)m, (void)n;
  return CUDA_ERROR_NOT_FOUND;
}
CUresult cuFuncGetAttribute(int *v, int a, CUfunction f) { (void)a, (void)f; *v = 0; OK; }
CUresult cuFuncSetAttribute(CUfunction f, int a, int v) {
  (void)f;
  if (a == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED) fake_state.nonportable = v;
  OK;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t b) { *p = (CUdeviceptr)(uintptr_t)calloc(b, 1); OK; }
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); OK; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); OK; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); OK; }
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); OK; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); OK; }

/* The "kernel": every f32 texel of a surface array gets 1.0 added. */
static void run_kernel(void **params) {
  fake_state.launches++;
  for (int i = 0; i < 8 && i < fake_state.nparams; i++) memcpy(fake_state.launch_params[i], params[i], 8);
  for (int a = 0; a < fake_state.narrays; a++) {
    FakeArray *A = &fake_state.arrays[a];
    if (!A->live || !(A->d.Flags & CUDA_ARRAY3D_SURFACE_LDST) || A->d.Format != CU_AD_FORMAT_FLOAT) continue;
    for (size_t k = 0; k + 4 <= A->bytes; k += 4) {
      float f;
      memcpy(&f, A->data + k, 4);
      f += 1.0f;
      memcpy(A->data + k, &f, 4);
    }
  }
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, CUstream s, void **params, void **extra) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem, (void)s, (void)extra;
  run_kernel(params);
  OK;
}
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned smem, CUstream s, void **params) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem, (void)s;
  fake_state.cooperative_launches++;
  run_kernel(params);
  OK;
}

CUresult cuLaunchKernelEx(const CudaLaunchConfig *c, CUfunction f, void **params, void **extra) {
  (void)f, (void)extra;
  for (unsigned i = 0; i < c->numAttrs; i++)
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      fake_state.cluster_launches++;
      fake_state.cluster_dim[0] = c->attrs[i].value.cluster_dim.x;
      fake_state.cluster_dim[1] = c->attrs[i].value.cluster_dim.y;
      fake_state.cluster_dim[2] = c->attrs[i].value.cluster_dim.z;
    }
  run_kernel(params);
  OK;
}

CUresult cuArray3DCreate_v2(CUarray *out, const CudaArray3DDesc *d) {
  if (fake_state.narrays == FAKE_MAX) return CUDA_ERROR_OUT_OF_MEMORY;
  FakeArray *A = &fake_state.arrays[fake_state.narrays++];
  A->d = *d;
  A->bytes = d->Width * (d->Height ? d->Height : 1) * (d->Depth ? d->Depth : 1) * texel_bytes(d);
  A->data = calloc(A->bytes, 1);
  A->live = 1;
  *out = (CUarray)A;
  OK;
}
CUresult cuArrayDestroy(CUarray a) {
  FakeArray *A = (FakeArray *)a;
  free(A->data);
  A->data = NULL;
  A->live = 0;
  fake_state.arrays_destroyed++;
  OK;
}
/* Whole-array copies between host memory and an array, as the runner does. */
CUresult cuMemcpy3D_v2(const CudaMemcpy3D *c) {
  if (c->reserved0 || c->reserved1) return CUDA_ERROR_INVALID_VALUE;
  size_t n = c->WidthInBytes * c->Height * c->Depth;
  if (c->srcMemoryType == CU_MEMORYTYPE_HOST && c->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
    FakeArray *A = (FakeArray *)c->dstArray;
    if (n != A->bytes || c->srcPitch != c->WidthInBytes) return CUDA_ERROR_INVALID_VALUE;
    memcpy(A->data, c->srcHost, n);
    OK;
  }
  if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY && c->dstMemoryType == CU_MEMORYTYPE_HOST) {
    FakeArray *A = (FakeArray *)c->srcArray;
    if (n != A->bytes || c->dstPitch != c->WidthInBytes) return CUDA_ERROR_INVALID_VALUE;
    memcpy(c->dstHost, A->data, n);
    OK;
  }
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuTexObjectCreate(CUtexObject *t, const CudaResourceDesc *r, const CudaTextureDesc *d, const void *view) {
  if (view || fake_state.ntex == FAKE_MAX) return CUDA_ERROR_INVALID_VALUE;
  fake_state.res[fake_state.ntex] = *r;
  fake_state.tex[fake_state.ntex] = *d;
  *t = 0x7e0000ull + (unsigned long long)fake_state.ntex++;
  OK;
}
CUresult cuTexObjectDestroy(CUtexObject t) { (void)t; fake_state.objects_destroyed++; OK; }
CUresult cuSurfObjectCreate(CUsurfObject *s, const CudaResourceDesc *r) {
  if (fake_state.ntex == FAKE_MAX) return CUDA_ERROR_INVALID_VALUE;
  fake_state.res[fake_state.ntex++] = *r;
  *s = 0x5f0000ull + (unsigned long long)fake_state.nsurf++;
  OK;
}
CUresult cuSurfObjectDestroy(CUsurfObject s) { (void)s; fake_state.objects_destroyed++; OK; }
CUresult cuEventCreate(CUevent *e, unsigned f) { (void)f; *e = (CUevent)&fake_state; OK; }
CUresult cuEventRecord(CUevent e, CUstream s) { (void)e, (void)s; OK; }
CUresult cuEventSynchronize(CUevent e) { (void)e; OK; }
CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) { (void)a, (void)b; *ms = 0.01f; OK; }
CUresult cuEventDestroy_v2(CUevent e) { (void)e; OK; }
static CUresult fake_tmap(void *map, int dtype, unsigned rank, void *addr, const unsigned long long *dim,
                          const unsigned long long *strides, const unsigned *estride, int il, int sw, int l2, int oob,
                          FakeTmap **out) {
  if (fake_state.ntmaps == FAKE_MAX || rank < 1 || rank > 5) return CUDA_ERROR_INVALID_VALUE;
  FakeTmap *t = &fake_state.tmaps[fake_state.ntmaps];
  memset(t, 0, sizeof *t);
  t->dtype = dtype, t->rank = rank, t->addr = (uintptr_t)addr;
  t->interleave = il, t->swizzle = sw, t->l2 = l2, t->oob = oob;
  for (unsigned i = 0; i < rank; i++) {
    t->dim[i] = dim[i], t->estride[i] = estride[i];
    if (i) t->strides[i - 1] = strides[i - 1];
  }
  memset(map, 0x5a, 128);
  memcpy(map, &t->addr, 8);
  ((unsigned char *)map)[8] = (unsigned char)fake_state.ntmaps++;
  *out = t;
  OK;
}
CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *addr, const unsigned long long *dim,
                                const unsigned long long *strides, const unsigned *box, const unsigned *estride,
                                int il, int sw, int l2, int oob) {
  FakeTmap *t;
  CUresult r = fake_tmap(map, dtype, rank, addr, dim, strides, estride, il, sw, l2, oob, &t);
  for (unsigned i = 0; r == CUDA_SUCCESS && i < rank; i++) t->box[i] = box[i];
  return r;
}
CUresult cuTensorMapEncodeIm2col(void *map, int dtype, unsigned rank, void *addr, const unsigned long long *dim,
                                 const unsigned long long *strides, const int *lower, const int *upper,
                                 unsigned channels, unsigned pixels, const unsigned *estride, int il, int sw, int l2,
                                 int oob) {
  FakeTmap *t;
  CUresult r = fake_tmap(map, dtype, rank, addr, dim, strides, estride, il, sw, l2, oob, &t);
  if (r != CUDA_SUCCESS) return r;
  t->im2col = 1, t->channels = channels, t->pixels = pixels;
  for (unsigned i = 0; i + 2 < rank; i++) t->lower[i] = lower[i], t->upper[i] = upper[i];
  OK;
}
CUresult cuGetErrorName(CUresult r, const char **s) { (void)r; *s = "CUDA_ERROR_FAKE"; OK; }
CUresult cuGetErrorString(CUresult r, const char **s) { (void)r; *s = "the fake driver's error"; OK; }
