/* gpu_tex.c - texture and surface objects on the GPU, made as the emulator
 * describes them (launch_tex.c's GTex): a CUDA array of the same channel
 * format, size and layering, its texels copied from the host buffer that
 * launch_bind filled for the emulator, and the object's 64-bit handle in
 * the argument's parameter slot.
 *
 * Notes:
 * - The host buffer holds the texels in the emulator's tiled layout
 *   (gtex_offset); cuMemcpy3D wants them dense, row by row, so they are
 *   packed into a dense copy first and a surface's array is unpacked back
 *   after the launch, so that --check compares it like any buffer.
 * - Every option of the spec has a driver equivalent: the address mode in
 *   every dimension, the filter, normalized coordinates, and the read mode
 *   (CU_TRSF_READ_AS_INTEGER unless the integers are read as normalized
 *   floats; float channels never set it).  The border colour is 0, as the
 *   emulator reads border texels.
 * - The texels' own device buffer (alloc_all allocates every buffer) stays
 *   unused, except for a pitched object (`mem`), whose texels are that
 *   buffer, uploaded with the others (CU_RESOURCE_TYPE_LINEAR or PITCH2D).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_int.h"
#include "ptx/ptx.h"

/* The sizes the documented layouts give on LP64: a wrong field shows here. */
_Static_assert(sizeof(CudaArray3DDesc) == 40, "CUDA_ARRAY3D_DESCRIPTOR is 40 bytes");
_Static_assert(sizeof(CudaMemcpy3D) == 200, "CUDA_MEMCPY3D is 200 bytes");
_Static_assert(sizeof(CudaResourceDesc) == 144, "CUDA_RESOURCE_DESC is 144 bytes");
_Static_assert(sizeof(CudaTextureDesc) == 104, "CUDA_TEXTURE_DESC is 104 bytes");

struct GpuTexObj {
  int arg;              /* the kernel argument */
  const GTex *t;        /* the emulator's description (in the launch's GlobalMem) */
  CUarray array;
  unsigned long long handle; /* CUtexObject or CUsurfObject; 0: none yet */
};

/* ---- descriptions (pure) ------------------------------------------------ */

static int array_format(uint8_t type) {
  switch (type) {
  case PTX_T_U8: return CU_AD_FORMAT_UNSIGNED_INT8;
  case PTX_T_U16: return CU_AD_FORMAT_UNSIGNED_INT16;
  case PTX_T_U32: return CU_AD_FORMAT_UNSIGNED_INT32;
  case PTX_T_S8: return CU_AD_FORMAT_SIGNED_INT8;
  case PTX_T_S16: return CU_AD_FORMAT_SIGNED_INT16;
  case PTX_T_S32: return CU_AD_FORMAT_SIGNED_INT32;
  case PTX_T_F16: return CU_AD_FORMAT_HALF;
  case PTX_T_F32: return CU_AD_FORMAT_FLOAT;
  default: return -1;
  }
}

/* The copy's extent: rows of W texels, H rows (1 for 1D), D slices or layers. */
static void extent(const GTex *t, size_t *w_bytes, size_t *h, size_t *d) {
  *w_bytes = (size_t)t->w * t->texel;
  *h = t->dims >= 2 ? t->h : 1;
  *d = t->layered ? t->layers : t->dims == 3 ? t->d : 1;
}

int gpu_tex_array_desc(const GTex *t, CudaArray3DDesc *d) {
  memset(d, 0, sizeof *d);
  int f = array_format(t->type);
  if (f < 0 || (t->nchan != 1 && t->nchan != 2 && t->nchan != 4)) return -1;
  d->Width = t->w;
  d->Height = t->dims >= 2 ? t->h : 0;  /* 0: a 1D array */
  d->Depth = t->layered ? t->layers : t->dims == 3 ? t->d : 0;
  d->Format = f;
  d->NumChannels = t->nchan;
  /* a cubemap's faces are its layers: CUBEMAP alone for one, with LAYERED for several */
  d->Flags = (t->layered && t->cube != 1 ? CUDA_ARRAY3D_LAYERED : 0) | (t->cube ? CUDA_ARRAY3D_CUBEMAP : 0) |
             (t->surface ? CUDA_ARRAY3D_SURFACE_LDST : 0);
  return 0;
}

void gpu_tex_desc(const GTex *t, CudaTextureDesc *d) {
  static const int modes[] = {[GTEX_CLAMP] = CU_TR_ADDRESS_MODE_CLAMP, [GTEX_WRAP] = CU_TR_ADDRESS_MODE_WRAP,
                              [GTEX_MIRROR] = CU_TR_ADDRESS_MODE_MIRROR, [GTEX_BORDER] = CU_TR_ADDRESS_MODE_BORDER};
  memset(d, 0, sizeof *d); /* border colour 0, one level, no anisotropy */
  for (int i = 0; i < 3; i++) d->addressMode[i] = modes[t->amode & 3];
  d->filterMode = t->filter == GTEX_LINEAR ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
  int integer = t->type != PTX_T_F32 && t->type != PTX_T_F16;
  if (integer && !t->normfloat) d->flags |= CU_TRSF_READ_AS_INTEGER;
  if (t->norm) d->flags |= CU_TRSF_NORMALIZED_COORDINATES;
}

/* Texel (x, row y, slice z) of the dense copy against the tiled buffer. */
static uint64_t tiled_offset(const GTex *t, uint32_t x, uint32_t y, uint32_t z) {
  return t->dims == 1 ? gtex_offset(t, x, z, 0) : gtex_offset(t, x, y, z); /* 1D: the layer is gtex's y */
}

void gpu_tex_pack(const GTex *t, const uint8_t *tiled, uint8_t *dense, int unpack) {
  size_t wb, h, d;
  extent(t, &wb, &h, &d);
  for (size_t z = 0; z < d; z++)
    for (size_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < t->w; x++) {
        uint8_t *lin = dense + (z * h + y) * wb + (size_t)x * t->texel;
        uint64_t off = tiled_offset(t, x, (uint32_t)y, (uint32_t)z);
        if (unpack) memcpy((uint8_t *)tiled + off, lin, t->texel);
        else memcpy(lin, tiled + off, t->texel);
      }
}

uint64_t gpu_tex_dense_bytes(const GTex *t) {
  size_t wb, h, d;
  extent(t, &wb, &h, &d);
  return (uint64_t)wb * h * d;
}

/* ---- the driver ---------------------------------------------------------- */

/* Copies between the array and the dense host copy (to_array: host -> array). */
static int copy_array(GpuLaunch *L, GpuTexObj *o, uint8_t *dense, int to_array, WmErr *e) {
  CudaMemcpy3D c;
  memset(&c, 0, sizeof c);
  size_t wb, h, d;
  extent(o->t, &wb, &h, &d);
  c.WidthInBytes = wb, c.Height = h, c.Depth = d;
  if (to_array) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = dense, c.srcPitch = wb, c.srcHeight = h;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = o->array;
  } else {
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = o->array;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = dense, c.dstPitch = wb, c.dstHeight = h;
  }
  GPU_TRY(L->gm->g, e, L->where, cuMemcpy3D, (&c));
  return 0;
}

/* Fills o's array from the tiled texels in `buf`. */
static int upload_texels(GpuLaunch *L, GpuTexObj *o, const GBuf *buf, WmErr *e) {
  uint8_t *dense = wm_xcalloc(gpu_tex_dense_bytes(o->t) + 1, 1);
  gpu_tex_pack(o->t, buf->data, dense, 0);
  int rc = copy_array(L, o, dense, 1, e);
  free(dense);
  return rc;
}

/* A pitched object reads its own device buffer, in the emulator's layout. */
static int linear_resource(GpuLaunch *L, const GTex *t, CudaResourceDesc *rd) {
  int f = array_format(t->type);
  if (f < 0) return -1;
  unsigned long long dev = L->dptr[t->buf] + (t->addr - L->host.buf[t->buf].addr);
  if (t->dims == 1) {
    rd->resType = CU_RESOURCE_TYPE_LINEAR;
    rd->res.linear.devPtr = dev, rd->res.linear.format = f, rd->res.linear.numChannels = t->nchan;
    rd->res.linear.sizeInBytes = (size_t)t->w * t->texel;
  } else {
    rd->resType = CU_RESOURCE_TYPE_PITCH2D;
    rd->res.pitch2D.devPtr = dev, rd->res.pitch2D.format = f, rd->res.pitch2D.numChannels = t->nchan;
    rd->res.pitch2D.width = t->w, rd->res.pitch2D.height = t->h, rd->res.pitch2D.pitchInBytes = t->pitch;
  }
  return 0;
}

static int create_object(GpuLaunch *L, GpuTexObj *o, WmErr *e) {
  Gpu *g = L->gm->g;
  char what[400];
  snprintf(what, sizeof what, "%s, arg%d '%s'", L->where, o->arg, L->spec.args[o->arg].text);
  if (o->t->pitched) {
    CudaResourceDesc rd;
    CudaTextureDesc td;
    memset(&rd, 0, sizeof rd);
    if (linear_resource(L, o->t, &rd))
      return wm_err(e, WM_EUNSUP, "%s: no CUDA format for %s channels", what, ptx_type_name((PtxType)o->t->type));
    gpu_tex_desc(o->t, &td);
    GPU_TRY(g, e, what, cuTexObjectCreate, (&o->handle, &rd, &td, NULL));
    return 0;
  }
  CudaArray3DDesc ad;
  if (gpu_tex_array_desc(o->t, &ad))
    return wm_err(e, WM_EUNSUP, "%s: no CUDA array format for %u %s channels", what, o->t->nchan,
                  ptx_type_name((PtxType)o->t->type));
  GPU_TRY(g, e, what, cuArray3DCreate, (&o->array, &ad));
  if (upload_texels(L, o, &L->host.buf[o->t->buf], e)) return -1;
  CudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = o->array;
  if (o->t->surface) {
    GPU_TRY(g, e, what, cuSurfObjectCreate, (&o->handle, &rd));
    return 0;
  }
  CudaTextureDesc td;
  gpu_tex_desc(o->t, &td);
  GPU_TRY(g, e, what, cuTexObjectCreate, (&o->handle, &rd, &td, NULL));
  return 0;
}

static void store_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

int gpu_tex_create_all(GpuLaunch *L, WmErr *e) {
  const PtxKernel *k = L->k;
  for (int i = 0; i < L->spec.nargs && i < k->nparams; i++)
    if (L->spec.args[i].kind == ARG_TEX) L->ntex++;
  if (!L->ntex) return 0;
  L->tex = wm_xcalloc((size_t)L->ntex, sizeof *L->tex);
  int n = 0;
  for (int i = 0; i < L->spec.nargs && i < k->nparams; i++) {
    if (L->spec.args[i].kind != ARG_TEX) continue;
    GpuTexObj *o = &L->tex[n++];
    o->arg = i;
    /* launch_bind wrote the emulator's handle where the kernel reads it */
    uint8_t *slot = L->params + k->params[i].offset;
    o->t = gmem_tex(&L->host, load_le64(slot));
    if (!o->t || k->params[i].size < 8)
      return wm_err(e, WM_EARGS, "%s, arg%d '%s': no texture object behind the parameter", L->where, i,
                    L->spec.args[i].text);
    if (create_object(L, o, e)) return -1;
    store_le64(slot, o->handle);
  }
  return 0;
}

int gpu_tex_reupload(GpuLaunch *L, const GlobalMem *fresh, WmErr *e) {
  for (int i = 0; i < L->ntex; i++)
    if (!L->tex[i].t->pitched && upload_texels(L, &L->tex[i], &fresh->buf[L->tex[i].t->buf], e)) return -1;
  return 0;
}

int gpu_tex_download(GpuLaunch *L, WmErr *e) {
  for (int i = 0; i < L->ntex; i++) {
    GpuTexObj *o = &L->tex[i];
    if (!o->t->surface) continue; /* read-only: the host copy stands */
    uint8_t *dense = wm_xcalloc(gpu_tex_dense_bytes(o->t) + 1, 1);
    int rc = copy_array(L, o, dense, 0, e);
    if (rc == 0) gpu_tex_pack(o->t, L->host.buf[o->t->buf].data, dense, 1);
    free(dense);
    if (rc) return -1;
  }
  return 0;
}

void gpu_tex_free_all(GpuLaunch *L) {
  Gpu *g = L->gm->g;
  for (int i = 0; i < L->ntex; i++) {
    GpuTexObj *o = &L->tex[i];
    if (o->handle) {
      if (o->t->surface) g->cu.cuSurfObjectDestroy(o->handle);
      else g->cu.cuTexObjectDestroy(o->handle);
    }
    if (o->array) g->cu.cuArrayDestroy(o->array);
  }
  free(L->tex);
  L->tex = NULL;
  L->ntex = 0;
}
