/* rt_tex.h - CUDA arrays, texture objects and surface objects of the
 * stand-in runtime's context (rt.h), for both front ends: the runtime API
 * (api_runtime_tex.c: cudaMallocArray, cudaCreateTextureObject, ...) and
 * the driver API (api_driver_tex.c: cuArray3DCreate, cuTexObjectCreate, ...).
 *
 * A CUDA array is a buffer of the context's GlobalMem holding its texels in
 * the tiled layout of gtex_offset() (src/emu/emu_tex.c); copies to and from
 * it convert from and to dense rows.  A texture or surface object is a GTex
 * of that GlobalMem (gmem_add_tex): its handle is what the kernel receives.
 * A texture on linear or pitched memory references the application's own
 * allocation (GTex.pitched).
 *
 * Formats and sampler settings use the runtime API's numbering
 * (cudaChannelFormatKind, cudaTextureAddressMode, ...): the driver front
 * end maps its own to them.  What GTex cannot express (mipmaps, sRGB,
 * different address modes per dimension, a non-zero border colour, 3
 * channels, ...) is refused with RT_ERR_INVALID_VALUE (RT_ERR_NOT_SUPPORTED
 * for what CUDA allows) and a message on stderr saying what and why. */
#ifndef WM_RT_TEX_H
#define WM_RT_TEX_H

#include <stddef.h>
#include <stdint.h>

#include "rt/rt.h"

/* A texel format: cudaChannelFormatDesc's bits per channel and kind
 * (0 signed, 1 unsigned, 2 float). */
typedef struct RtFormat {
  int bits[4]; /* x, y, z, w; 0: no such channel */
  int kind;    /* cudaChannelFormatKind */
} RtFormat;

/* cudaArrayLayered, cudaArraySurfaceLoadStore, cudaArrayCubemap,
 * cudaArrayTextureGather (the driver's CUDA_ARRAY3D_* have the same bits). */
#define RT_ARRAY_LAYERED 0x01u
#define RT_ARRAY_SURFACE 0x02u
#define RT_ARRAY_CUBEMAP 0x04u
#define RT_ARRAY_GATHER 0x08u

typedef struct RtArray RtArray;

/* An array's shape as CUDA gives it: cudaExtent in elements, height 0 for
 * 1D, depth 0 without a third dimension; layered: depth counts layers;
 * cubemap: width == height and depth 6 (layered: 6 * the cubemaps). */
typedef struct RtArrayDesc {
  RtFormat f;
  size_t w, h, d;
  unsigned flags; /* RT_ARRAY_* */
} RtArrayDesc;

/* cudaMalloc3DArray / cudaMallocArray / cuArray3DCreate: zeroed texels. */
RtError rt_array_create(const RtArrayDesc *d, RtArray **out);
/* cudaFreeArray: textures and surfaces on it fault when used later. */
RtError rt_array_destroy(RtArray *a);
/* cudaArrayGetInfo: the description it was made with. */
RtError rt_array_info(RtArray *a, RtArrayDesc *d);
/* Bytes per element (texel) of a, 0 if a is not an array. */
size_t rt_array_elem_size(RtArray *a);

/* One side of a copy: an array (x in bytes, a multiple of the element
 * size; y the row; z the slice, layer or cubemap face), else linear memory
 * (host or device): row y of slice z at ptr + (z * height + y) * pitch + x. */
typedef struct RtCopySide {
  RtArray *array;
  void *ptr;
  size_t pitch, height;
  size_t x, y, z;
} RtCopySide;

/* cudaMemcpy3D, cudaMemcpy2DToArray, cuMemcpy2D, ...: `width` bytes by
 * height rows by depth slices from src to dst, checked against both. */
RtError rt_copy_3d(const RtCopySide *dst, const RtCopySide *src, size_t width, size_t height, size_t depth);

/* A texture's or surface's resource (cudaResourceDesc). */
typedef enum { RT_RES_ARRAY = 0, RT_RES_MIPMAP = 1, RT_RES_LINEAR = 2, RT_RES_PITCH2D = 3 } RtResType;
typedef struct RtResource {
  RtResType type;
  RtArray *array;        /* RT_RES_ARRAY */
  void *ptr;             /* linear, pitch2D: the texels */
  RtFormat f;            /* linear, pitch2D */
  size_t bytes;          /* linear: size in bytes */
  size_t w, h, pitch;    /* pitch2D: in elements, rows, bytes per row */
} RtResource;

/* A texture's sampling (cudaTextureDesc, runtime numbering). */
typedef struct RtSampler {
  int amode[3];          /* cudaAddressModeWrap 0, Clamp 1, Mirror 2, Border 3 */
  int filter;            /* cudaFilterModePoint 0, Linear 1 */
  int read_normalized;   /* cudaReadModeNormalizedFloat */
  int srgb;
  float border[4];
  int norm;              /* normalizedCoords */
  unsigned max_aniso;
  int mip_filter;
  float mip_bias, mip_min, mip_max;
  int seamless_cubemap;
} RtSampler;

/* cudaCreateTextureObject: the handle the kernel reads (never 0). */
RtError rt_texture_create(const RtResource *r, const RtSampler *s, uint64_t *handle);
/* cudaCreateSurfaceObject: on an array made with RT_ARRAY_SURFACE. */
RtError rt_surface_create(const RtResource *r, uint64_t *handle);
/* cudaDestroyTextureObject / cudaDestroySurfaceObject (surface 1): later
 * uses by a kernel fault.  Handle 0 is fine (nothing). */
RtError rt_object_destroy(uint64_t handle, int surface);
/* cudaGetTextureObjectResourceDesc / ...TextureDesc / cudaGetSurfaceObject-
 * ResourceDesc: what the object was made with (s may be NULL). */
RtError rt_object_desc(uint64_t handle, int surface, RtResource *r, RtSampler *s);

/* Frees the arrays' and objects' bookkeeping (rt_shutdown; hidden). */
__attribute__((visibility("hidden"))) void rtx_tex_free(void);

#endif
