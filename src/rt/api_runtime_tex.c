/* api_runtime_tex.c - the runtime API's CUDA arrays, 3D copies, texture and
 * surface objects (libcudart.so.13/.12, beside api_runtime.c): thin, over
 * the context's rt_tex.h.  Types are the toolkit's own. */
#include <string.h>

#include <cuda_runtime_api.h>

#include "rt/rt_tex.h"

#define E(x) ((cudaError_t)(x))

static cudaError_t fail(RtError e) { return E(rt_set_last_error(e)); }

/* driver_functions.h's make_cudaExtent, which C does not get. */
static struct cudaExtent extent_of(size_t w, size_t h, size_t d) {
  struct cudaExtent e = {w, h, d};
  return e;
}

/* ---- formats and arrays ------------------------------------------------------- */

/* cudaCreateChannelDesc is api_runtime.c's. */

static RtFormat format_of(const struct cudaChannelFormatDesc *d) {
  RtFormat f = {{d->x, d->y, d->z, d->w}, (int)d->f};
  return f;
}

static struct cudaChannelFormatDesc desc_of(const RtFormat *f) {
  return cudaCreateChannelDesc(f->bits[0], f->bits[1], f->bits[2], f->bits[3], (enum cudaChannelFormatKind)f->kind);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned int flags) {
  if (!array || !desc) return fail(RT_ERR_INVALID_VALUE);
  RtArrayDesc d = {.f = format_of(desc), .w = extent.width, .h = extent.height, .d = extent.depth, .flags = flags};
  return E(rt_array_create(&d, (RtArray **)array));
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned int flags) {
  if (flags & (cudaArrayLayered | cudaArrayCubemap)) return fail(RT_ERR_INVALID_VALUE); /* 3D arrays only */
  return cudaMalloc3DArray(array, desc, extent_of(width, height, 0), flags);
}

cudaError_t cudaFreeArray(cudaArray_t array) { return E(rt_array_destroy((RtArray *)array)); }

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array) {
  RtArrayDesc d;
  RtError r = rt_array_info((RtArray *)array, &d);
  if (r) return E(r);
  if (desc) *desc = desc_of(&d.f);
  if (extent) *extent = extent_of(d.w, d.h, d.d);
  if (flags) *flags = d.flags;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array) {
  if (!desc) return fail(RT_ERR_INVALID_VALUE);
  return cudaArrayGetInfo(desc, NULL, NULL, (cudaArray_t)array);
}

/* ---- copies ------------------------------------------------------------------ */

static cudaError_t check_kind(enum cudaMemcpyKind kind) {
  return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault ? cudaSuccess
                                                                   : fail(RT_ERR_INVALID_MEMCPY_DIRECTION);
}

/* A copy between an array side and linear memory, or two arrays. */
static cudaError_t copy(const RtCopySide *dst, const RtCopySide *src, size_t width, size_t height, size_t depth,
                        enum cudaMemcpyKind kind) {
  cudaError_t r = check_kind(kind);
  return r ? r : E(rt_copy_3d(dst, src, width, height, depth));
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind) {
  RtCopySide d = {.array = (RtArray *)dst, .x = wOffset, .y = hOffset};
  RtCopySide s = {.ptr = (void *)src, .pitch = spitch, .height = height};
  if (spitch < width) return fail(RT_ERR_INVALID_PITCH);
  return copy(&d, &s, width, height, 1, kind);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind) {
  RtCopySide d = {.ptr = dst, .pitch = dpitch, .height = height};
  RtCopySide s = {.array = (RtArray *)src, .x = wOffset, .y = hOffset};
  if (dpitch < width) return fail(RT_ERR_INVALID_PITCH);
  return copy(&d, &s, width, height, 1, kind);
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind) {
  RtCopySide d = {.array = (RtArray *)dst, .x = wOffsetDst, .y = hOffsetDst};
  RtCopySide s = {.array = (RtArray *)src, .x = wOffsetSrc, .y = hOffsetSrc};
  return copy(&d, &s, width, height, 1, kind);
}

/* cudaMemcpyToArray's count bytes fill the array's rows in order from
 * (wOffset, hOffset): a partial first row, whole rows, a partial last. */
static cudaError_t copy_rows(RtArray *a, size_t x, size_t y, void *mem, size_t count, int to_array,
                             enum cudaMemcpyKind kind) {
  RtArrayDesc d;
  RtError r = rt_array_info(a, &d);
  if (r) return E(r);
  size_t row = d.w * rt_array_elem_size(a);
  for (uint8_t *p = mem; count;) {
    size_t n = x < row && row - x < count ? row - x : count;
    RtCopySide as = {.array = a, .x = x, .y = y}, ls = {.ptr = p, .pitch = n, .height = 1};
    cudaError_t e = to_array ? copy(&as, &ls, n, 1, 1, kind) : copy(&ls, &as, n, 1, 1, kind);
    if (e) return e;
    p += n, count -= n, x = 0, y++;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind) {
  return copy_rows((RtArray *)dst, wOffset, hOffset, (void *)src, count, 1, kind);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                enum cudaMemcpyKind kind) {
  return copy_rows((RtArray *)src, wOffset, hOffset, dst, count, 0, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream) {
  RtError r = rt_stream_check((RtStream *)stream);
  return r ? E(r) : cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  RtError r = rt_stream_check((RtStream *)stream);
  return r ? E(r) : cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

/* One side of cudaMemcpy3D: an array (positions in elements) or pitched
 * memory (x in bytes). */
static RtCopySide side3d(cudaArray_t a, struct cudaPitchedPtr p, struct cudaPos pos) {
  RtCopySide s = {.array = (RtArray *)a, .ptr = p.ptr, .pitch = p.pitch, .height = p.ysize,
                  .x = pos.x, .y = pos.y, .z = pos.z};
  if (a) s.x = pos.x * rt_array_elem_size((RtArray *)a);
  return s;
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  if (!p) return fail(RT_ERR_INVALID_VALUE);
  if (!!p->srcArray == !!p->srcPtr.ptr || !!p->dstArray == !!p->dstPtr.ptr) return fail(RT_ERR_INVALID_VALUE);
  RtCopySide d = side3d(p->dstArray, p->dstPtr, p->dstPos), s = side3d(p->srcArray, p->srcPtr, p->srcPos);
  /* extent: in elements with an array on either side, else width in bytes */
  cudaArray_t a = p->dstArray ? p->dstArray : p->srcArray;
  size_t width = p->extent.width * (a ? rt_array_elem_size((RtArray *)a) : 1);
  if (a && !rt_array_elem_size((RtArray *)a)) return fail(RT_ERR_INVALID_VALUE);
  return copy(&d, &s, width, p->extent.height ? p->extent.height : 1, p->extent.depth ? p->extent.depth : 1,
              p->kind);
}

/* cudaMemcpy3DAsync and cudaMalloc3D are api_runtime_mem.c's. */

/* ---- texture and surface objects ------------------------------------------------- */

/* The context's resource of a cudaResourceDesc, or -1. */
static int resource_of(const struct cudaResourceDesc *d, RtResource *r) {
  memset(r, 0, sizeof *r);
  r->type = (RtResType)d->resType;
  switch (d->resType) {
  case cudaResourceTypeArray: r->array = (RtArray *)d->res.array.array; return 0;
  case cudaResourceTypeMipmappedArray: return 0; /* refused by the context, with its message */
  case cudaResourceTypeLinear:
    r->ptr = d->res.linear.devPtr;
    r->f = format_of(&d->res.linear.desc);
    r->bytes = d->res.linear.sizeInBytes;
    return 0;
  case cudaResourceTypePitch2D:
    r->ptr = d->res.pitch2D.devPtr;
    r->f = format_of(&d->res.pitch2D.desc);
    r->w = d->res.pitch2D.width, r->h = d->res.pitch2D.height, r->pitch = d->res.pitch2D.pitchInBytes;
    return 0;
  default: return -1;
  }
}

static void resource_desc(const RtResource *r, struct cudaResourceDesc *d) {
  memset(d, 0, sizeof *d);
  d->resType = (enum cudaResourceType)r->type;
  if (r->type == RT_RES_ARRAY) {
    d->res.array.array = (cudaArray_t)r->array;
  } else if (r->type == RT_RES_LINEAR) {
    d->res.linear.devPtr = r->ptr;
    d->res.linear.desc = desc_of(&r->f);
    d->res.linear.sizeInBytes = r->bytes;
  } else if (r->type == RT_RES_PITCH2D) {
    d->res.pitch2D.devPtr = r->ptr;
    d->res.pitch2D.desc = desc_of(&r->f);
    d->res.pitch2D.width = r->w, d->res.pitch2D.height = r->h, d->res.pitch2D.pitchInBytes = r->pitch;
  }
}

static RtSampler sampler_of(const struct cudaTextureDesc *t) {
  RtSampler s = {.amode = {t->addressMode[0], t->addressMode[1], t->addressMode[2]}, .filter = t->filterMode,
                 .read_normalized = t->readMode == cudaReadModeNormalizedFloat, .srgb = t->sRGB,
                 .border = {t->borderColor[0], t->borderColor[1], t->borderColor[2], t->borderColor[3]},
                 .norm = t->normalizedCoords, .max_aniso = t->maxAnisotropy, .mip_filter = t->mipmapFilterMode,
                 .mip_bias = t->mipmapLevelBias, .mip_min = t->minMipmapLevelClamp, .mip_max = t->maxMipmapLevelClamp,
                 .seamless_cubemap = t->seamlessCubemap};
  return s;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc) {
  if (!pTexObject || !pResDesc || !pTexDesc) return fail(RT_ERR_INVALID_VALUE);
  if (pResViewDesc) return E(rt_unsupported("cudaCreateTextureObject with a resource view"));
  RtResource r;
  if (resource_of(pResDesc, &r)) return fail(RT_ERR_INVALID_VALUE);
  RtSampler s = sampler_of(pTexDesc);
  uint64_t h = 0;
  RtError e = rt_texture_create(&r, &s, &h);
  *pTexObject = e ? 0 : h;
  return E(e);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) { return E(rt_object_destroy(texObject, 0)); }

/* The resource a texture (surface 0) or surface (1) object reads. */
static cudaError_t object_resource_desc(struct cudaResourceDesc *pResDesc, uint64_t object, int surface) {
  if (!pResDesc) return fail(RT_ERR_INVALID_VALUE);
  RtResource r;
  RtError e = rt_object_desc(object, surface, &r, NULL);
  if (e) return E(e);
  resource_desc(&r, pResDesc);
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject) {
  return object_resource_desc(pResDesc, texObject, 0);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject) {
  if (!pTexDesc) return fail(RT_ERR_INVALID_VALUE);
  RtSampler s;
  RtError e = rt_object_desc(texObject, 0, NULL, &s);
  if (e) return E(e);
  memset(pTexDesc, 0, sizeof *pTexDesc);
  for (int i = 0; i < 3; i++) pTexDesc->addressMode[i] = (enum cudaTextureAddressMode)s.amode[i];
  pTexDesc->filterMode = (enum cudaTextureFilterMode)s.filter;
  pTexDesc->readMode = s.read_normalized ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  pTexDesc->normalizedCoords = s.norm;
  pTexDesc->maxAnisotropy = s.max_aniso;
  return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc) {
  if (!pSurfObject || !pResDesc) return fail(RT_ERR_INVALID_VALUE);
  RtResource r;
  if (resource_of(pResDesc, &r)) return fail(RT_ERR_INVALID_VALUE);
  uint64_t h = 0;
  RtError e = rt_surface_create(&r, &h);
  *pSurfObject = e ? 0 : h;
  return E(e);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) { return E(rt_object_destroy(surfObject, 1)); }

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject) {
  return object_resource_desc(pResDesc, surfObject, 1);
}
