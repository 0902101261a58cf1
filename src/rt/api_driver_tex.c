/* api_driver_tex.c - the driver API's CUDA arrays, 2D and 3D copies, and
 * texture and surface objects (libcuda.so.1), over the context's rt_tex.h:
 * formats and descriptors mapped to the runtime API's numbering. */
#include <string.h>

#include "rt/api_driver.h"
#include "rt/rt_tex.h"

#define R(x) drv_result(x)
#define PTR(d) ((void *)(uintptr_t)(d))

/* ---- formats and arrays ------------------------------------------------------- */

/* A CUarray_format and channel count as the runtime's format (kind -1 for
 * a format warpmem has no texels for: the context refuses it, saying so). */
static RtFormat format_of(CUarray_format f, unsigned nchan) {
  RtFormat r = {{0, 0, 0, 0}, -1};
  int bits = 0;
  switch (f) {
  case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8, r.kind = 1; break;
  case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16, r.kind = 1; break;
  case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32, r.kind = 1; break;
  case CU_AD_FORMAT_SIGNED_INT8: bits = 8, r.kind = 0; break;
  case CU_AD_FORMAT_SIGNED_INT16: bits = 16, r.kind = 0; break;
  case CU_AD_FORMAT_SIGNED_INT32: bits = 32, r.kind = 0; break;
  case CU_AD_FORMAT_HALF: bits = 16, r.kind = 2; break;
  case CU_AD_FORMAT_FLOAT: bits = 32, r.kind = 2; break;
  default: bits = 8; break;
  }
  for (unsigned i = 0; i < nchan && i < 4; i++) r.bits[i] = bits;
  if (nchan > 4) r.bits[3] = 0, r.bits[0] = 0; /* refused: no channels */
  return r;
}

/* The CUarray_format and channels of a runtime format. */
static void format_back(const RtFormat *f, CUarray_format *fmt, unsigned *nchan) {
  static const CUarray_format u[] = {CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT16,
                                     CU_AD_FORMAT_UNSIGNED_INT32};
  static const CUarray_format s[] = {CU_AD_FORMAT_SIGNED_INT8, CU_AD_FORMAT_SIGNED_INT16, CU_AD_FORMAT_SIGNED_INT32};
  int i = f->bits[0] == 8 ? 0 : f->bits[0] == 16 ? 1 : 2;
  *fmt = f->kind == 2 ? (i == 1 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT) : f->kind == 1 ? u[i] : s[i];
  unsigned n = 0;
  while (n < 4 && f->bits[n]) n++;
  *nchan = n;
}

CUresult cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d) {
  if (!pHandle || !d) return drv_fail(RT_ERR_INVALID_VALUE);
  RtArrayDesc a = {.f = format_of(d->Format, d->NumChannels), .w = d->Width, .h = d->Height, .d = d->Depth,
                   .flags = d->Flags};
  return R(rt_array_create(&a, (RtArray **)pHandle));
}

CUresult cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *d) {
  if (!pHandle || !d) return drv_fail(RT_ERR_INVALID_VALUE);
  RtArrayDesc a = {.f = format_of(d->Format, d->NumChannels), .w = d->Width, .h = d->Height};
  return R(rt_array_create(&a, (RtArray **)pHandle));
}

CUresult cuArrayDestroy(CUarray hArray) {
  if (!hArray) return drv_fail(RT_ERR_INVALID_HANDLE);
  return R(rt_array_destroy((RtArray *)hArray));
}

CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *out, CUarray hArray) {
  RtArrayDesc d;
  RtError r = rt_array_info((RtArray *)hArray, &d);
  if (r) return R(r);
  if (!out) return drv_fail(RT_ERR_INVALID_VALUE);
  memset(out, 0, sizeof *out);
  format_back(&d.f, &out->Format, &out->NumChannels);
  out->Width = d.w, out->Height = d.h, out->Depth = d.d, out->Flags = d.flags;
  return CUDA_SUCCESS;
}

CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *out, CUarray hArray) {
  CUDA_ARRAY3D_DESCRIPTOR d;
  CUresult r = cuArray3DGetDescriptor(&d, hArray);
  if (r) return r;
  if (!out) return drv_fail(RT_ERR_INVALID_VALUE);
  out->Width = d.Width, out->Height = d.Height, out->Format = d.Format, out->NumChannels = d.NumChannels;
  return CUDA_SUCCESS;
}

/* ---- copies ------------------------------------------------------------------ */

/* One side of a cuMemcpy2D/3D by its memory type. */
static int side_of(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray array, size_t pitch, size_t height,
                   size_t x, size_t y, size_t z, RtCopySide *s) {
  memset(s, 0, sizeof *s);
  s->x = x, s->y = y, s->z = z, s->pitch = pitch, s->height = height;
  switch (type) {
  case CU_MEMORYTYPE_HOST: s->ptr = (void *)host; return 0;
  case CU_MEMORYTYPE_DEVICE: case CU_MEMORYTYPE_UNIFIED: s->ptr = PTR(dev); return 0;
  case CU_MEMORYTYPE_ARRAY: s->array = (RtArray *)array; return array ? 0 : -1;
  default: return -1;
  }
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D *p) {
  if (!p) return drv_fail(RT_ERR_INVALID_VALUE);
  RtCopySide d, s;
  if (side_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcHeight, p->srcXInBytes,
              p->srcY, p->srcZ, &s) ||
      side_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight, p->dstXInBytes,
              p->dstY, p->dstZ, &d))
    return drv_fail(RT_ERR_INVALID_VALUE);
  return R(rt_copy_3d(&d, &s, p->WidthInBytes, p->Height ? p->Height : 1, p->Depth ? p->Depth : 1));
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D *p) {
  if (!p) return drv_fail(RT_ERR_INVALID_VALUE);
  RtCopySide d, s;
  if (side_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->Height, p->srcXInBytes,
              p->srcY, 0, &s) ||
      side_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->Height, p->dstXInBytes,
              p->dstY, 0, &d))
    return drv_fail(RT_ERR_INVALID_VALUE);
  return R(rt_copy_3d(&d, &s, p->WidthInBytes, p->Height, 1));
}

CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *p) { return cuMemcpy2D(p); }

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *p, CUstream hStream) {
  RtError r = rt_stream_check((RtStream *)hStream);
  return r ? R(r) : cuMemcpy2D(p);
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *p, CUstream hStream) {
  RtError r = rt_stream_check((RtStream *)hStream);
  return r ? R(r) : cuMemcpy3D(p);
}

/* ByteCount bytes of row 0 of a 1D array at byte offset off, to or from
 * linear memory (cuMemcpyHtoA and friends: 1D arrays). */
static CUresult array_1d(CUarray a, size_t off, void *mem, size_t n, int to_array) {
  RtCopySide as = {.array = (RtArray *)a, .x = off}, ls = {.ptr = mem, .pitch = n, .height = 1};
  return R(to_array ? rt_copy_3d(&as, &ls, n, 1, 1) : rt_copy_3d(&ls, &as, n, 1, 1));
}

CUresult cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount) {
  return array_1d(dstArray, dstOffset, (void *)srcHost, ByteCount, 1);
}
CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return array_1d(srcArray, srcOffset, dstHost, ByteCount, 0);
}
CUresult cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount) {
  return array_1d(dstArray, dstOffset, PTR(srcDevice), ByteCount, 1);
}
CUresult cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return array_1d(srcArray, srcOffset, PTR(dstDevice), ByteCount, 0);
}
CUresult cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  RtCopySide d = {.array = (RtArray *)dstArray, .x = dstOffset}, s = {.array = (RtArray *)srcArray, .x = srcOffset};
  return R(rt_copy_3d(&d, &s, ByteCount, 1, 1));
}

CUresult cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                           CUstream hStream) {
  RtError r = rt_stream_check((RtStream *)hStream);
  return r ? R(r) : array_1d(dstArray, dstOffset, (void *)srcHost, ByteCount, 1);
}

CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream) {
  RtError r = rt_stream_check((RtStream *)hStream);
  return r ? R(r) : array_1d(srcArray, srcOffset, dstHost, ByteCount, 0);
}

/* ---- texture and surface objects ------------------------------------------------- */

static int resource_of(const CUDA_RESOURCE_DESC *d, RtResource *r) {
  memset(r, 0, sizeof *r);
  r->type = (RtResType)d->resType;
  switch (d->resType) {
  case CU_RESOURCE_TYPE_ARRAY: r->array = (RtArray *)d->res.array.hArray; return 0;
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: return 0; /* refused by the context, with its message */
  case CU_RESOURCE_TYPE_LINEAR:
    r->ptr = PTR(d->res.linear.devPtr);
    r->f = format_of(d->res.linear.format, d->res.linear.numChannels);
    r->bytes = d->res.linear.sizeInBytes;
    return 0;
  case CU_RESOURCE_TYPE_PITCH2D:
    r->ptr = PTR(d->res.pitch2D.devPtr);
    r->f = format_of(d->res.pitch2D.format, d->res.pitch2D.numChannels);
    r->w = d->res.pitch2D.width, r->h = d->res.pitch2D.height, r->pitch = d->res.pitch2D.pitchInBytes;
    return 0;
  default: return -1;
  }
}

static void resource_desc(const RtResource *r, CUDA_RESOURCE_DESC *d) {
  memset(d, 0, sizeof *d);
  d->resType = (CUresourcetype)r->type;
  if (r->type == RT_RES_ARRAY) {
    d->res.array.hArray = (CUarray)r->array;
  } else if (r->type == RT_RES_LINEAR) {
    d->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->ptr;
    format_back(&r->f, &d->res.linear.format, &d->res.linear.numChannels);
    d->res.linear.sizeInBytes = r->bytes;
  } else if (r->type == RT_RES_PITCH2D) {
    d->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)r->ptr;
    format_back(&r->f, &d->res.pitch2D.format, &d->res.pitch2D.numChannels);
    d->res.pitch2D.width = r->w, d->res.pitch2D.height = r->h, d->res.pitch2D.pitchInBytes = r->pitch;
  }
}

/* The texel format of a resource, for the driver's read mode. */
static int small_int_format(const RtResource *r) {
  RtFormat f = r->f;
  if (r->type == RT_RES_ARRAY) {
    RtArrayDesc d;
    if (rt_array_info(r->array, &d)) return 0;
    f = d.f;
  }
  return f.kind != 2 && (f.bits[0] == 8 || f.bits[0] == 16);
}

/* The driver reads 8- and 16-bit integers as normalized floats unless
 * CU_TRSF_READ_AS_INTEGER says otherwise. */
static RtSampler sampler_of(const CUDA_TEXTURE_DESC *t, const RtResource *r) {
  RtSampler s = {.amode = {t->addressMode[0], t->addressMode[1], t->addressMode[2]}, .filter = t->filterMode,
                 .read_normalized = !(t->flags & CU_TRSF_READ_AS_INTEGER) && small_int_format(r),
                 .srgb = (t->flags & CU_TRSF_SRGB) != 0,
                 .border = {t->borderColor[0], t->borderColor[1], t->borderColor[2], t->borderColor[3]},
                 .norm = (t->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0, .max_aniso = t->maxAnisotropy,
                 .mip_filter = t->mipmapFilterMode, .mip_bias = t->mipmapLevelBias, .mip_min = t->minMipmapLevelClamp,
                 .mip_max = t->maxMipmapLevelClamp, .seamless_cubemap = (t->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0};
  return s;
}

CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc) {
  if (!pTexObject || !pResDesc || !pTexDesc) return drv_fail(RT_ERR_INVALID_VALUE);
  if (pResViewDesc) return R(rt_unsupported("cuTexObjectCreate with a resource view"));
  RtResource r;
  if (resource_of(pResDesc, &r)) return drv_fail(RT_ERR_INVALID_VALUE);
  RtSampler s = sampler_of(pTexDesc, &r);
  uint64_t h = 0;
  RtError e = rt_texture_create(&r, &s, &h);
  *pTexObject = e ? 0 : h;
  return R(e);
}

CUresult cuTexObjectDestroy(CUtexObject texObject) { return R(rt_object_destroy(texObject, 0)); }

/* The resource a texture (surface 0) or surface (1) object reads. */
static CUresult object_resource_desc(CUDA_RESOURCE_DESC *pResDesc, uint64_t object, int surface) {
  if (!pResDesc) return drv_fail(RT_ERR_INVALID_VALUE);
  RtResource r;
  RtError e = rt_object_desc(object, surface, &r, NULL);
  if (e) return R(e);
  resource_desc(&r, pResDesc);
  return CUDA_SUCCESS;
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject) {
  return object_resource_desc(pResDesc, texObject, 0);
}

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc) {
  if (!pSurfObject || !pResDesc) return drv_fail(RT_ERR_INVALID_VALUE);
  RtResource r;
  if (resource_of(pResDesc, &r)) return drv_fail(RT_ERR_INVALID_VALUE);
  uint64_t h = 0;
  RtError e = rt_surface_create(&r, &h);
  *pSurfObject = e ? 0 : h;
  return R(e);
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject) { return R(rt_object_destroy(surfObject, 1)); }

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject) {
  return object_resource_desc(pResDesc, surfObject, 1);
}
