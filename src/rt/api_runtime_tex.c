/* api_runtime_tex.c - the CUDA runtime API's arrays and texture and surface
 * objects, on rt.h's (rt_tex.c): cudaMallocArray, cudaMalloc3DArray, the
 * copies to and from arrays, cudaCreateTextureObject on arrays, linear and
 * pitched memory, cudaCreateSurfaceObject. */
#include <string.h>

#include <cuda_runtime_api.h>

#include "rt/rt.h"

#define E(x) ((cudaError_t)(x))

static RtArrayDesc array_desc(const struct cudaChannelFormatDesc *d, size_t w, size_t h, size_t depth, int layered) {
  RtArrayDesc a = {.bits = {d->x, d->y, d->z, d->w}, .w = (uint32_t)w, .h = (uint32_t)h, .d = (uint32_t)depth,
                   .layered = layered};
  a.kind = d->f == cudaChannelFormatKindSigned ? 0 : d->f == cudaChannelFormatKindUnsigned ? 1
         : d->f == cudaChannelFormatKindFloat ? 2 : -1;
  return a;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int flags) {
  if (!desc || !array) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  RtArrayDesc d = array_desc(desc, width, height, 0, 0);
  return E(rt_array_create(&d, (RtArray **)array));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned int flags) {
  if (!desc || !array) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  if (flags & (cudaArrayCubemap | cudaArrayTextureGather))
    return E(rt_unsupported("cudaMalloc3DArray (cubemap or gather arrays)"));
  RtArrayDesc d = array_desc(desc, extent.width, extent.height, extent.depth, (flags & cudaArrayLayered) != 0);
  return E(rt_array_create(&d, (RtArray **)array));
}

cudaError_t cudaFreeArray(cudaArray_t array) { return E(rt_array_destroy((RtArray *)array)); }

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind) {
  RtArrayCopy c = {.x0 = wOffset, .y0 = hOffset, .width = width, .height = height, .depth = 1,
                   .mem = (void *)src, .pitch = spitch};
  return E(rt_array_copy((RtArray *)dst, &c, 1));
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                     size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream) {
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind) {
  RtArrayCopy c = {.x0 = wOffset, .y0 = hOffset, .width = width, .height = height, .depth = 1, .mem = dst,
                   .pitch = dpitch};
  return E(rt_array_copy((RtArray *)(uintptr_t)src, &c, 0));
}

/* The deprecated row-wise copy: count bytes from (wOffset, hOffset) on,
 * within one row of a 1D or 2D array. */
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind) {
  RtArrayCopy c = {.x0 = wOffset, .y0 = hOffset, .width = count, .height = 1, .depth = 1, .mem = (void *)src,
                   .pitch = count};
  return E(rt_array_copy((RtArray *)dst, &c, 1));
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  if (!p || (p->srcArray && p->dstArray)) {
    if (p) return E(rt_unsupported("cudaMemcpy3D (array to array)"));
    return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  }
  const struct cudaExtent *ex = &p->extent;
  if (!p->srcArray && !p->dstArray) { /* linear to linear: rows of extent.width bytes */
    for (size_t z = 0; z < ex->depth; z++)
      for (size_t y = 0; y < ex->height; y++) {
        const char *s = (const char *)p->srcPtr.ptr + ((p->srcPos.z + z) * p->srcPtr.ysize + p->srcPos.y + y) *
                        p->srcPtr.pitch + p->srcPos.x;
        char *d = (char *)p->dstPtr.ptr + ((p->dstPos.z + z) * p->dstPtr.ysize + p->dstPos.y + y) * p->dstPtr.pitch +
                  p->dstPos.x;
        RtError r = rt_memcpy(d, s, ex->width);
        if (r) return E(r);
      }
    return cudaSuccess;
  }
  /* with an array, widths and the array's x are in elements */
  int to_array = p->dstArray != NULL;
  RtArray *a = (RtArray *)(to_array ? p->dstArray : p->srcArray);
  const struct cudaPitchedPtr *m = to_array ? &p->srcPtr : &p->dstPtr;
  const struct cudaPos *ap = to_array ? &p->dstPos : &p->srcPos, *mp = to_array ? &p->srcPos : &p->dstPos;
  RtArrayCopy c = {.x0 = ap->x, .y0 = ap->y, .z0 = ap->z, .height = ex->height, .depth = ex->depth,
                   .mem = (char *)m->ptr + (mp->z * m->ysize + mp->y) * m->pitch + mp->x, .pitch = m->pitch,
                   .slice = m->pitch * m->ysize};
  size_t elem = rt_array_texel(a);
  c.x0 *= elem;
  c.width = ex->width * elem;
  return E(rt_array_copy(a, &c, to_array));
}

static RtTexDesc tex_desc(const struct cudaTextureDesc *t) {
  RtTexDesc d = {0};
  if (!t) return d;
  d.linear = t->filterMode == cudaFilterModeLinear;
  switch (t->addressMode[0]) {
  case cudaAddressModeWrap: d.amode = 1; break; /* GTexAddr's order: clamp, wrap, mirror, border */
  case cudaAddressModeMirror: d.amode = 2; break;
  case cudaAddressModeBorder: d.amode = 3; break;
  default: d.amode = 0; break;
  }
  d.norm = t->normalizedCoords != 0;
  d.normfloat = t->readMode == cudaReadModeNormalizedFloat;
  return d;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc) {
  if (!pTexObject || !pResDesc) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  RtTexDesc td = tex_desc(pTexDesc);
  uint64_t h = 0;
  RtError r;
  if (pResDesc->resType == cudaResourceTypeArray) {
    r = rt_tex_array((RtArray *)pResDesc->res.array.array, &td, 0, &h);
  } else if (pResDesc->resType == cudaResourceTypeLinear) {
    const struct cudaChannelFormatDesc *cd = &pResDesc->res.linear.desc;
    size_t texel = (size_t)(cd->x + cd->y + cd->z + cd->w) / 8;
    RtArrayDesc d = array_desc(cd, texel ? pResDesc->res.linear.sizeInBytes / texel : 0, 0, 0, 0);
    r = rt_tex_linear(pResDesc->res.linear.devPtr, &d, 0, &td, &h);
  } else if (pResDesc->resType == cudaResourceTypePitch2D) {
    RtArrayDesc d = array_desc(&pResDesc->res.pitch2D.desc, pResDesc->res.pitch2D.width,
                               pResDesc->res.pitch2D.height, 0, 0);
    r = rt_tex_linear(pResDesc->res.pitch2D.devPtr, &d, pResDesc->res.pitch2D.pitchInBytes, &td, &h);
  } else {
    return E(rt_unsupported("cudaCreateTextureObject (mipmapped arrays)"));
  }
  *pTexObject = h;
  return E(r);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) { return cudaSuccess; }

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc) {
  if (!pSurfObject || !pResDesc) return E(rt_set_last_error(RT_ERR_INVALID_VALUE));
  if (pResDesc->resType != cudaResourceTypeArray)
    return E(rt_set_last_error(RT_ERR_INVALID_VALUE)); /* as CUDA: surfaces are on arrays */
  uint64_t h = 0;
  RtError r = rt_tex_array((RtArray *)pResDesc->res.array.array, NULL, 1, &h);
  *pSurfObject = h;
  return E(r);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) { return cudaSuccess; }
