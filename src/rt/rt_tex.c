/* rt_tex.c - CUDA arrays, texture and surface objects in the context
 * (rt_tex.h): an array is a buffer of the unified GlobalMem in the tiled
 * layout of gtex_offset(), an object a GTex of that GlobalMem, so that a
 * kernel's tex, suld and sust instructions (emu_tex.c) read what the
 * application copied in. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_int.h"
#include "rt/rt_tex.h"

#define RT_ARRAY_MAGIC 0x52544152u

struct RtArray {
  uint32_t magic;
  RtArrayDesc desc;        /* as the application gave it */
  GTex t;                  /* shape and format (buf, addr unset) */
  uint64_t addr;           /* its buffer's address; 0: freed */
  struct RtArray *next;
};

/* What each object was made with (cudaGetTextureObjectResourceDesc), by
 * handle - GTEX_HANDLE0. */
typedef struct ObjMeta {
  RtResource r;
  RtSampler s;
  int surface, destroyed;
} ObjMeta;

static struct {
  RtArray *arrays;
  uint64_t narrays;
  ObjMeta *meta;
  int nmeta, capmeta;
} tx;

/* ---- formats ---------------------------------------------------------- */

/* The channel type (PtxType) and count of f, or -1 with a message. */
static int format_of(const RtFormat *f, const char *what, uint8_t *type, uint8_t *nchan) {
  int n = 0;
  while (n < 4 && f->bits[n]) n++;
  for (int i = n; i < 4; i++)
    if (f->bits[i]) {
      rtx_say("%s: channel %d has %d bits but channel %d has none (channels fill x, y, z, w in order)", what, i,
              f->bits[i], n);
      return -1;
    }
  for (int i = 1; i < n; i++)
    if (f->bits[i] != f->bits[0]) {
      rtx_say("%s: channels of %d and %d bits (warpmem's textures have channels of one size)", what, f->bits[0],
              f->bits[i]);
      return -1;
    }
  if (n == 0 || n == 3) {
    rtx_say("%s: %d channels (CUDA arrays and textures have 1, 2 or 4)", what, n);
    return -1;
  }
  int b = f->bits[0];
  uint8_t t = 0;
  if (f->kind == 0) t = b == 8 ? PTX_T_S8 : b == 16 ? PTX_T_S16 : b == 32 ? PTX_T_S32 : 0;
  else if (f->kind == 1) t = b == 8 ? PTX_T_U8 : b == 16 ? PTX_T_U16 : b == 32 ? PTX_T_U32 : 0;
  else if (f->kind == 2) t = b == 16 ? PTX_T_F16 : b == 32 ? PTX_T_F32 : 0;
  if (!t) {
    rtx_say("%s: format kind %d with %d-bit channels is not supported (signed or unsigned 8/16/32-bit, or float "
            "16/32-bit channels)", what, f->kind, b);
    return -1;
  }
  *type = t;
  *nchan = (uint8_t)n;
  return 0;
}

/* ---- arrays ------------------------------------------------------------- */

/* The GTex shape of an array description, or -1 with a message. */
static int array_shape(const RtArrayDesc *d, GTex *t) {
  memset(t, 0, sizeof *t);
  if (format_of(&d->f, "cudaMallocArray", &t->type, &t->nchan)) return -1;
  t->texel = (uint8_t)(ptx_type_size((PtxType)t->type) * t->nchan);
  int layered = (d->flags & RT_ARRAY_LAYERED) != 0, cube = (d->flags & RT_ARRAY_CUBEMAP) != 0;
  if (d->flags & ~(RT_ARRAY_LAYERED | RT_ARRAY_SURFACE | RT_ARRAY_CUBEMAP | RT_ARRAY_GATHER)) {
    rtx_say("cudaMalloc3DArray: flags 0x%x are not supported (layered, surface load/store, cubemap, gather)",
            d->flags);
    return -1;
  }
  if (!d->w || d->w > 65536 || d->h > 65536 || d->d > 65536 || (!d->h && d->d && !layered)) {
    rtx_say("cudaMalloc3DArray: extent %zux%zux%zu (width 1..65536; height 0 for 1D, depth 0 for 2D)", d->w,
            d->h, d->d);
    return -1;
  }
  if (cube && (d->w != d->h || !d->d || d->d % 6 || (!layered && d->d != 6))) {
    rtx_say("cudaMalloc3DArray: a cubemap is WxWx6 (layered: WxWx6N), not %zux%zux%zu", d->w, d->h, d->d);
    return -1;
  }
  if (layered && !d->d) {
    rtx_say("cudaMalloc3DArray: a layered array's depth counts its layers; it is 0");
    return -1;
  }
  t->w = (uint32_t)d->w;
  t->h = d->h ? (uint32_t)d->h : 1;
  t->d = 1;
  t->dims = !d->h ? 1 : (d->d && !layered && !cube) ? 3 : 2;
  if (t->dims == 3) t->d = (uint32_t)d->d;
  if (layered || cube) t->layered = 1, t->layers = (uint32_t)d->d;
  if (cube) t->cube = (uint8_t)(1 + layered), t->norm = 1;
  return 0;
}

RtError rt_array_create(const RtArrayDesc *d, RtArray **out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!d || !out) return rtx_leave(RT_ERR_INVALID_VALUE);
  GTex t;
  if (array_shape(d, &t)) return rtx_leave(RT_ERR_INVALID_VALUE);
  char name[64];
  snprintf(name, sizeof name, "cudaArray#%" PRIu64, ++tx.narrays);
  WmErr e = {0};
  uint64_t bytes = gtex_storage_bytes(&t);
  int i = gmem_alloc(&rtx.g, bytes, name, t.type, bytes / ptx_type_size((PtxType)t.type), &e);
  if (i < 0) {
    rtx_say("cudaMallocArray fails: %s", e.msg);
    return rtx_leave(RT_ERR_MEMORY_ALLOCATION);
  }
  RtArray *a = wm_xcalloc(1, sizeof *a);
  a->magic = RT_ARRAY_MAGIC;
  a->desc = *d;
  a->t = t;
  a->addr = rtx.g.buf[i].addr;
  a->next = tx.arrays;
  tx.arrays = a;
  *out = a;
  return rtx_leave(RT_SUCCESS);
}

/* A live array, else NULL. */
static RtArray *live_array(RtArray *a) {
  for (RtArray *p = tx.arrays; p && a; p = p->next)
    if (p == a) return a->addr ? a : NULL;
  return NULL;
}

RtError rt_array_destroy(RtArray *a) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!a) return rtx_leave(RT_SUCCESS);
  if (!live_array(a)) return rtx_leave(RT_ERR_INVALID_VALUE);
  WmErr e = {0};
  if (gmem_release(&rtx.g, a->addr, &e)) {
    rtx_say("cudaFreeArray: %s", e.msg);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  a->addr = 0; /* kept (the list owns it), so a second free is an error */
  return rtx_leave(RT_SUCCESS);
}

RtError rt_array_info(RtArray *a, RtArrayDesc *d) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!live_array(a)) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (d) *d = a->desc;
  return rtx_leave(RT_SUCCESS);
}

size_t rt_array_elem_size(RtArray *a) {
  if (rtx_enter(0)) return 0;
  size_t n = live_array(a) ? a->t.texel : 0;
  rtx_leave(RT_SUCCESS);
  return n;
}

/* ---- copies ------------------------------------------------------------- */

/* Rows and slices of an array as copies count them. */
static uint32_t array_rows(const GTex *t) { return t->dims == 1 ? 1 : t->h; }
static uint32_t array_slices(const GTex *t) { return t->layered ? t->layers : t->d; }

/* Whether the box fits array side s (x in bytes). */
static RtError check_array_side(const RtCopySide *s, const char *side, size_t width, size_t height, size_t depth) {
  const GTex *t = &s->array->t;
  if (s->x % t->texel || width % t->texel) {
    rtx_say("cudaMemcpy to or from an array: the %s offset (%zu bytes) and width (%zu bytes) must be multiples of "
            "its element size (%u bytes)", side, s->x, width, t->texel);
    return RT_ERR_INVALID_VALUE;
  }
  if (s->x + width > (size_t)t->w * t->texel || s->y + height > array_rows(t) || s->z + depth > array_slices(t)) {
    rtx_say("cudaMemcpy to or from an array: the %s box (%zu bytes at x %zu, %zu rows at y %zu, %zu slices at z "
            "%zu) is outside the array (%u bytes x %u rows x %u slices)", side, width, s->x, height, s->y, depth,
            s->z, t->w * t->texel, array_rows(t), array_slices(t));
    return RT_ERR_INVALID_VALUE;
  }
  return RT_SUCCESS;
}

/* The bytes of a row of linear side s at (y, z) lie in host memory, or in
 * one allocation. */
static RtError check_linear_row(const uint8_t *p, size_t n, const char *side) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  if (a < GMEM_BASE || a >= rtx.g.next + GMEM_ALIGN || gmem_find(&rtx.g, a, n)) return RT_SUCCESS;
  const GBuf *b = gmem_nearest(&rtx.g, a);
  rtx_say("cudaMemcpy3D: the %s rows of %zu bytes at %p are not inside one allocation (the nearest is %s, %" PRIu64
          " bytes at 0x%" PRIx64 ")", side, n, (const void *)p, b ? b->name : "none", b ? b->size : 0,
          b ? b->addr : 0);
  return RT_ERR_INVALID_VALUE;
}

/* The bytes at byte xb of row (y, z) of the copy on side s, and how many
 * of them are contiguous (arrays: up to the next 16-byte piece). */
static uint8_t *span(const RtCopySide *s, size_t xb, size_t y, size_t z, size_t *run) {
  if (!s->array) {
    *run = SIZE_MAX;
    return (uint8_t *)s->ptr + ((s->z + z) * s->height + s->y + y) * s->pitch + s->x + xb;
  }
  const GTex *t = &s->array->t;
  size_t bx = s->x + xb;
  uint32_t x = (uint32_t)(bx / t->texel), yy = (uint32_t)(s->y + y), zz = (uint32_t)(s->z + z);
  uint64_t off = t->dims == 1 ? gtex_offset(t, x, zz, 0) : gtex_offset(t, x, yy, zz);
  off += bx % t->texel;
  *run = t->dims == 1 ? SIZE_MAX : 16 - bx % 16;
  return (uint8_t *)(uintptr_t)s->array->addr + off;
}

/* Both sides valid for the box, or an error. */
static RtError check_sides(const RtCopySide *dst, const RtCopySide *src, size_t width, size_t height, size_t depth) {
  const RtCopySide *sides[2] = {dst, src};
  const char *names[2] = {"destination", "source"};
  for (int k = 0; k < 2; k++) {
    const RtCopySide *s = sides[k];
    RtError r;
    if (s->array) {
      if (!live_array(s->array)) return RT_ERR_INVALID_VALUE;
      if ((r = check_array_side(s, names[k], width, height, depth))) return r;
      continue;
    }
    if (!s->ptr) return RT_ERR_INVALID_VALUE;
    if ((height > 1 || depth > 1) && s->pitch < s->x + width) {
      rtx_say("cudaMemcpy3D: the %s pitch (%zu bytes) is less than the row (%zu bytes at x %zu)", names[k],
              s->pitch, width, s->x);
      return RT_ERR_INVALID_PITCH;
    }
    if (depth > 1 && s->height < s->y + height) {
      rtx_say("cudaMemcpy3D: the %s slices have %zu rows, the copy needs %zu", names[k], s->height, s->y + height);
      return RT_ERR_INVALID_VALUE;
    }
    for (size_t z = 0; z < depth; z++)
      for (size_t y = 0; y < height; y++) {
        size_t run;
        if ((r = check_linear_row(span(s, 0, y, z, &run), width, names[k]))) return r;
      }
  }
  return RT_SUCCESS;
}

RtError rt_copy_3d(const RtCopySide *dst, const RtCopySide *src, size_t width, size_t height, size_t depth) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!dst || !src) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (!width || !height || !depth) return rtx_leave(RT_SUCCESS);
  if ((r = check_sides(dst, src, width, height, depth))) return rtx_leave(r);
  for (size_t z = 0; z < depth; z++)
    for (size_t y = 0; y < height; y++)
      for (size_t xb = 0; xb < width;) {
        size_t rd, rs;
        uint8_t *d = span(dst, xb, y, z, &rd);
        const uint8_t *s = span(src, xb, y, z, &rs);
        size_t n = width - xb;
        if (rd < n) n = rd;
        if (rs < n) n = rs;
        memmove(d, s, n);
        xb += n;
      }
  rtx_clock_copy((uint64_t)width * height * depth);
  return rtx_leave(RT_SUCCESS);
}

/* ---- texture and surface objects --------------------------------------- */

/* t's buffer fields for texels at addr, n bytes; -1 with a message if they
 * are not inside one allocation. */
static int bind_buffer(GTex *t, uint64_t addr, uint64_t n, const char *what) {
  GBuf *b = gmem_find(&rtx.g, addr, n ? n : 1);
  if (!b) {
    rtx_say("%s: the texels (%" PRIu64 " bytes at 0x%" PRIx64 ") are not inside one device allocation", what, n,
            addr);
    return -1;
  }
  t->buf = (int)(b - rtx.g.buf);
  t->addr = addr;
  return 0;
}

/* The GTex of a resource (shape, format, texels), or an error. */
static RtError resource_tex(const RtResource *r, const char *what, GTex *t) {
  memset(t, 0, sizeof *t);
  if (r->type == RT_RES_ARRAY) {
    if (!live_array(r->array)) return RT_ERR_INVALID_VALUE;
    *t = r->array->t;
    return bind_buffer(t, r->array->addr, gtex_storage_bytes(t), what) ? RT_ERR_INVALID_VALUE : RT_SUCCESS;
  }
  if (r->type == RT_RES_MIPMAP) {
    rtx_say("%s: mipmapped arrays are not supported by warpmem (a texture has one level)", what);
    return RT_ERR_NOT_SUPPORTED;
  }
  if (r->type != RT_RES_LINEAR && r->type != RT_RES_PITCH2D) return RT_ERR_INVALID_VALUE;
  if (format_of(&r->f, what, &t->type, &t->nchan)) return RT_ERR_INVALID_VALUE;
  t->texel = (uint8_t)(ptx_type_size((PtxType)t->type) * t->nchan);
  t->pitched = 1;
  t->h = t->d = 1;
  uint64_t bytes;
  if (r->type == RT_RES_LINEAR) {
    t->dims = 1;
    uint64_t w = r->bytes / t->texel;
    if (!w || w > (1u << 27)) {
      rtx_say("%s: linear memory of %zu bytes holds %" PRIu64 " elements (1 .. 2^27)", what, r->bytes, w);
      return RT_ERR_INVALID_VALUE;
    }
    t->w = (uint32_t)w;
    bytes = w * t->texel;
  } else {
    t->dims = 2;
    if (!r->w || !r->h || r->w > 131072 || r->h > 65536 || r->pitch < r->w * t->texel) {
      rtx_say("%s: pitched memory of %zux%zu elements, %zu bytes per row (%u bytes per element)", what, r->w, r->h,
              r->pitch, t->texel);
      return RT_ERR_INVALID_VALUE;
    }
    t->w = (uint32_t)r->w, t->h = (uint32_t)r->h, t->pitch = r->pitch;
    bytes = (uint64_t)r->pitch * (r->h - 1) + r->w * t->texel;
  }
  return bind_buffer(t, (uint64_t)(uintptr_t)r->ptr, bytes, what) ? RT_ERR_INVALID_VALUE : RT_SUCCESS;
}

static int is_small_int(uint8_t type) {
  return type == PTX_T_U8 || type == PTX_T_S8 || type == PTX_T_U16 || type == PTX_T_S16;
}

/* The address mode of every dimension t uses, or an error. */
static RtError address_mode(const RtSampler *s, GTex *t) {
  static const uint8_t modes[4] = {GTEX_WRAP, GTEX_CLAMP, GTEX_MIRROR, GTEX_BORDER};
  int m0 = -1;
  for (int d = 0; d < t->dims; d++) {
    int m = s->amode[d];
    if (m < 0 || m > 3) return RT_ERR_INVALID_VALUE;
    if (!t->norm && (m == 0 || m == 2)) m = 1; /* CUDA: wrap and mirror need normalized coordinates */
    if (m0 >= 0 && m != m0) {
      rtx_say("cudaCreateTextureObject: different address modes per dimension (%d and %d) are not supported by "
              "warpmem", m0, m);
      return RT_ERR_NOT_SUPPORTED;
    }
    m0 = m;
  }
  t->amode = modes[m0];
  if (t->amode == GTEX_BORDER && (s->border[0] || s->border[1] || s->border[2] || s->border[3])) {
    rtx_say("cudaCreateTextureObject: a border colour other than 0 is not supported by warpmem");
    return RT_ERR_NOT_SUPPORTED;
  }
  return RT_SUCCESS;
}

/* The sampler's settings into t (shape and format set), or an error. */
static RtError apply_sampler(const RtSampler *s, GTex *t) {
  const char *what = "cudaCreateTextureObject";
  if (s->srgb) {
    rtx_say("%s: sRGB textures are not supported by warpmem", what);
    return RT_ERR_NOT_SUPPORTED;
  }
  if (s->filter < 0 || s->filter > 1) return RT_ERR_INVALID_VALUE;
  if (t->pitched && t->dims == 1) { /* tex1Dfetch: no filtering, 0 out of range */
    t->amode = GTEX_BORDER;
    t->filter = GTEX_POINT;
    return RT_SUCCESS;
  }
  t->filter = s->filter ? GTEX_LINEAR : GTEX_POINT;
  if (!t->cube) t->norm = s->norm != 0;
  if (s->read_normalized && is_small_int(t->type)) t->normfloat = 1;
  else if (s->read_normalized && t->type != PTX_T_F32 && t->type != PTX_T_F16) {
    rtx_say("%s: cudaReadModeNormalizedFloat needs 8- or 16-bit integer channels", what);
    return RT_ERR_INVALID_VALUE;
  }
  if (t->filter == GTEX_LINEAR && t->type != PTX_T_F32 && t->type != PTX_T_F16 && !t->normfloat) {
    rtx_say("%s: linear filtering needs float texels (float channels, or 8/16-bit integers read as normalized "
            "floats)", what);
    return RT_ERR_INVALID_VALUE;
  }
  if (t->cube) {
    t->amode = GTEX_CLAMP; /* a direction never leaves its face */
    return RT_SUCCESS;
  }
  return address_mode(s, t);
}

/* Records the object's description under handle h. */
static void add_meta(uint64_t h, const RtResource *r, const RtSampler *s, int surface) {
  int i = (int)(h - GTEX_HANDLE0);
  if (i >= tx.capmeta) {
    int cap = tx.capmeta ? tx.capmeta : 16;
    while (cap <= i) cap *= 2;
    tx.meta = wm_xrealloc(tx.meta, (size_t)cap * sizeof *tx.meta);
    memset(tx.meta + tx.capmeta, 0, (size_t)(cap - tx.capmeta) * sizeof *tx.meta);
    tx.capmeta = cap;
  }
  ObjMeta *m = &tx.meta[i];
  memset(m, 0, sizeof *m);
  m->r = *r;
  if (s) m->s = *s;
  m->surface = surface;
  if (i >= tx.nmeta) tx.nmeta = i + 1;
}

RtError rt_texture_create(const RtResource *r, const RtSampler *s, uint64_t *handle) {
  RtError e = rtx_enter(1);
  if (e) return e;
  if (!r || !s || !handle) return rtx_leave(RT_ERR_INVALID_VALUE);
  GTex t;
  if ((e = resource_tex(r, "cudaCreateTextureObject", &t)) || (e = apply_sampler(s, &t))) return rtx_leave(e);
  *handle = gmem_add_tex(&rtx.g, &t);
  add_meta(*handle, r, s, 0);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_surface_create(const RtResource *r, uint64_t *handle) {
  RtError e = rtx_enter(1);
  if (e) return e;
  if (!r || !handle) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (r->type != RT_RES_ARRAY) {
    rtx_say("cudaCreateSurfaceObject: a surface is a CUDA array (resource type %d given)", (int)r->type);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  GTex t;
  if ((e = resource_tex(r, "cudaCreateSurfaceObject", &t))) return rtx_leave(e);
  if (!(r->array->desc.flags & RT_ARRAY_SURFACE)) {
    rtx_say("cudaCreateSurfaceObject: the array was made without cudaArraySurfaceLoadStore");
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  t.surface = 1;
  t.cube = 0; /* surfCubemap* address faces as the layers of a 2D layered surface */
  t.norm = 0;
  *handle = gmem_add_tex(&rtx.g, &t);
  add_meta(*handle, r, NULL, 1);
  return rtx_leave(RT_SUCCESS);
}

/* The metadata of a live object of that kind, else NULL. */
static ObjMeta *object(uint64_t h, int surface) {
  if (h < GTEX_HANDLE0 || h - GTEX_HANDLE0 >= (uint64_t)tx.nmeta || !gmem_tex(&rtx.g, h)) return NULL;
  ObjMeta *m = &tx.meta[h - GTEX_HANDLE0];
  return m->surface == surface && !m->destroyed ? m : NULL;
}

RtError rt_object_destroy(uint64_t handle, int surface) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!handle) return rtx_leave(RT_SUCCESS);
  ObjMeta *m = object(handle, surface);
  if (!m) return rtx_leave(RT_ERR_INVALID_VALUE);
  m->destroyed = 1;
  rtx.g.tex[handle - GTEX_HANDLE0].buf = -1; /* a later use faults */
  return rtx_leave(RT_SUCCESS);
}

RtError rt_object_desc(uint64_t handle, int surface, RtResource *res, RtSampler *s) {
  RtError r = rtx_enter(1);
  if (r) return r;
  ObjMeta *m = object(handle, surface);
  if (!m) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (res) *res = m->r;
  if (s) *s = m->s;
  return rtx_leave(RT_SUCCESS);
}

void rtx_tex_free(void) {
  while (tx.arrays) {
    RtArray *a = tx.arrays;
    tx.arrays = a->next;
    free(a);
  }
  free(tx.meta);
  memset(&tx, 0, sizeof tx);
}
