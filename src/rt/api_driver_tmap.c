/* api_driver_tmap.c - the driver API's tensor maps (libcuda.so.1):
 * cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and
 * cuTensorMapReplaceAddress over rt_tmap.c, and cuGetProcAddress, through
 * which CUTLASS-style code (and the runtime's cudaGetDriverEntryPoint)
 * finds them. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_tmap.h"
#include "rt/api_driver.h"

#define R(x) drv_result(x)

/* The arguments every encode call shares, as a Tmap (arrays read up to
 * the rank only, and only a valid rank's). */
static int common(Tmap *t, CUtensorMapDataType dt, cuuint32_t rank, void *addr, const cuuint64_t *dim,
                  const cuuint64_t *strides, const cuuint32_t *estr, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                  CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  memset(t, 0, sizeof *t);
  t->dtype = (uint8_t)(dt < 256 ? dt : 255);
  t->rank = (uint8_t)(rank < 256 ? rank : 255);
  t->addr = (uint64_t)(uintptr_t)addr;
  t->interleave = (uint8_t)(il < 256 ? il : 255), t->swizzle = (uint8_t)(sw < 256 ? sw : 255);
  t->l2promo = (uint8_t)(l2 < 256 ? l2 : 255), t->oobfill = (uint8_t)(oob < 256 ? oob : 255);
  if (rank < 1 || rank > TMAP_MAX_RANK) return 0; /* tmap_check refuses it by name */
  if (!dim || !estr || (rank > 1 && !strides)) return -1;
  for (unsigned i = 0; i < rank; i++) {
    t->dim[i] = dim[i];
    t->estride[i] = estr[i];
    if (i) t->stride[i] = strides[i - 1];
  }
  return 0;
}

static CUresult null_argument(const char *fn) {
  return R(rt_tensor_map_encode(NULL, NULL, fn));
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                void *globalAddress, const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
                                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  Tmap t;
  if (common(&t, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, elementStrides, interleave,
             swizzle, l2Promotion, oobFill) ||
      (tensorRank >= 1 && tensorRank <= TMAP_MAX_RANK && !boxDim))
    return null_argument("cuTensorMapEncodeTiled");
  for (unsigned i = 0; tensorRank <= TMAP_MAX_RANK && i < tensorRank; i++) t.box[i] = boxDim[i]; /* a bad rank: none read */
  return R(rt_tensor_map_encode(&t, tensorMap, "cuTensorMapEncodeTiled"));
}

CUresult cuTensorMapEncodeIm2col(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                 void *globalAddress, const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                 const int *pixelBoxLowerCorner, const int *pixelBoxUpperCorner,
                                 cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
                                 const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                 CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                 CUtensorMapFloatOOBfill oobFill) {
  Tmap t;
  int spatial = tensorRank >= 3 && tensorRank <= TMAP_MAX_RANK;
  if (common(&t, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, elementStrides, interleave,
             swizzle, l2Promotion, oobFill) ||
      (spatial && (!pixelBoxLowerCorner || !pixelBoxUpperCorner)))
    return null_argument("cuTensorMapEncodeIm2col");
  t.im2col = 1;
  t.channels = channelsPerPixel;
  t.pixels = pixelsPerColumn;
  for (unsigned i = 0; spatial && i + 2 < tensorRank; i++) {
    t.lower[i] = pixelBoxLowerCorner[i];
    t.upper[i] = pixelBoxUpperCorner[i];
  }
  return R(rt_tensor_map_encode(&t, tensorMap, "cuTensorMapEncodeIm2col"));
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress) {
  return R(rt_tensor_map_replace_address(tensorMap, globalAddress));
}

/* cuGetProcAddress: a driver function of this library by its base name,
 * the newest _vN it has (the current ABI, which every cudaVersion this
 * stand-in serves asks for); per-thread default streams are the default
 * stream here. */
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *symbolStatus) {
  (void)cudaVersion, (void)flags;
  if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (!symbol || !pfn) return drv_fail(RT_ERR_INVALID_VALUE);
  *pfn = NULL;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD); /* this library: warpmem run puts it first */
  static const char *const suffix[] = {"_v4", "_v3", "_v2", ""};
  for (int i = 0; i < 4 && lib && !*pfn; i++) {
    char name[256];
    if ((size_t)snprintf(name, sizeof name, "%s%s", symbol, suffix[i]) < sizeof name) *pfn = dlsym(lib, name);
  }
  if (lib) dlclose(lib);
  if (!*pfn) return drv_fail(RT_ERR_NOT_FOUND);
  if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
  return CUDA_SUCCESS;
}
