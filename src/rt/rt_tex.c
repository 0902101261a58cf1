/* rt_tex.c - CUDA arrays and texture and surface objects: an array is a
 * buffer of the context's memory holding its texels in the layout the
 * emulator's texture unit reads (gtex_offset: 1D linear, 2D and 3D in
 * 64-byte x 8-row blocks), so copies to and from it convert; an object is a
 * GTex of the GlobalMem (gmem_add_tex), its handle the kernel's
 * cudaTextureObject_t. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_int.h"

/* The PtxType of one channel of bits and kind (0 signed, 1 unsigned, 2
 * float), or PTX_T_NONE for one the texture unit does not read. */
static PtxType channel_type(int bits, int kind) {
  static const PtxType t[3][3] = {{PTX_T_S8, PTX_T_S16, PTX_T_S32}, {PTX_T_U8, PTX_T_U16, PTX_T_U32},
                                  {PTX_T_NONE, PTX_T_F16, PTX_T_F32}};
  int i = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : -1;
  return i < 0 || kind < 0 || kind > 2 ? PTX_T_NONE : t[kind][i];
}

/* The geometry of d into t; -1 with a message. */
static int array_geo(const RtArrayDesc *d, GTex *t, char *why, size_t n) {
  memset(t, 0, sizeof *t);
  int nchan = 0;
  while (nchan < 4 && d->bits[nchan]) nchan++;
  for (int i = nchan; i < 4; i++)
    if (d->bits[i]) return snprintf(why, n, "channels must be the first ones (x, then y, ...)"), -1;
  for (int i = 1; i < nchan; i++)
    if (d->bits[i] != d->bits[0]) return snprintf(why, n, "channels of different sizes"), -1;
  t->type = (uint8_t)channel_type(d->bits[0], d->kind);
  if (nchan == 0 || nchan == 3 || t->type == PTX_T_NONE)
    return snprintf(why, n, "channel format of %d channels of %d bits (kind %d): warpmem has 1, 2 or 4 channels "
                    "of 8, 16 or 32 bits (16 or 32 for floats)", nchan, d->bits[0], d->kind), -1;
  t->nchan = (uint8_t)nchan;
  t->texel = (uint8_t)(nchan * d->bits[0] / 8);
  if (d->w == 0) return snprintf(why, n, "width 0"), -1;
  t->layered = d->layered != 0;
  t->dims = (uint8_t)(d->h == 0 ? 1 : (d->d == 0 || d->layered) ? 2 : 3);
  t->w = d->w;
  t->h = d->h ? d->h : 1;
  t->d = t->dims == 3 ? d->d : 1;
  t->layers = d->layered ? d->d : 0;
  if (d->layered && d->d == 0) return snprintf(why, n, "a layered array with 0 layers"), -1;
  return 0;
}

RtError rt_array_create(const RtArrayDesc *d, RtArray **out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!d || !out) return rtx_leave(RT_ERR_INVALID_VALUE);
  RtArray *a = wm_xcalloc(1, sizeof *a);
  char why[256];
  if (array_geo(d, &a->geo, why, sizeof why)) {
    rtx_say("cudaMallocArray: %s", why);
    free(a);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  char name[64];
  snprintf(name, sizeof name, "cudaMallocArray#%" PRIu64, ++rtx.nallocs);
  WmErr e = {0};
  uint64_t bytes = gtex_storage_bytes(&a->geo);
  int i = gmem_alloc(&rtx.g, bytes, name, a->geo.type, bytes / ptx_type_size(a->geo.type), &e);
  if (i < 0) {
    rtx_say("cudaMallocArray: %s", e.msg);
    free(a);
    return rtx_leave(RT_ERR_MEMORY_ALLOCATION);
  }
  a->magic = RT_ARRAY_MAGIC;
  a->addr = rtx.g.buf[i].addr;
  a->next = rtx.arrays;
  rtx.arrays = a;
  *out = a;
  return rtx_leave(RT_SUCCESS);
}

/* a if it is a live array, else NULL. */
static RtArray *live_array(RtArray *a) {
  for (RtArray *t = rtx.arrays; t && a; t = t->next)
    if (t == a) return a;
  return NULL;
}

RtError rt_array_destroy(RtArray *a) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!a) return rtx_leave(RT_SUCCESS);
  for (RtArray **p = &rtx.arrays; *p; p = &(*p)->next)
    if (*p == a) {
      *p = a->next;
      WmErr e = {0};
      gmem_release(&rtx.g, a->addr, &e); /* its objects fault from now on */
      free(a);
      return rtx_leave(RT_SUCCESS);
    }
  return rtx_leave(RT_ERR_INVALID_VALUE);
}

size_t rt_array_texel(RtArray *a) {
  if (rtx_enter(0)) return 0;
  size_t n = live_array(a) ? a->geo.texel : 0;
  rtx_leave(RT_SUCCESS);
  return n;
}

RtError rt_array_copy(RtArray *a, const RtArrayCopy *c, int to_array) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!live_array(a) || !c || (!c->mem && c->width)) return rtx_leave(RT_ERR_INVALID_VALUE);
  const GTex *t = &a->geo;
  size_t depth = c->depth ? c->depth : 1, height = c->height ? c->height : 1;
  size_t slice = c->slice ? c->slice : c->pitch * height;
  size_t layers = t->layered ? t->layers : t->d, rows = t->dims == 1 && t->layered ? t->layers : t->h;
  if (c->x0 % t->texel || c->width % t->texel || c->x0 + c->width > (size_t)t->w * t->texel ||
      c->width > c->pitch || c->y0 + height > (t->dims == 1 ? 1 : t->h) ||
      c->z0 + depth > (t->dims == 1 ? rows : layers)) {
    rtx_say("copy of %zux%zux%zu bytes at (%zu,%zu,%zu) does not fit the array (%u texels of %u bytes x %u x %zu)",
            c->width, height, depth, c->x0, c->y0, c->z0, t->w, t->texel, t->h, layers);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  uint8_t *base = (uint8_t *)(uintptr_t)a->addr;
  for (size_t z = 0; z < depth; z++)
    for (size_t y = 0; y < height; y++) {
      uint8_t *row = (uint8_t *)c->mem + z * slice + y * c->pitch;
      for (size_t x = 0; x < c->width / t->texel; x++) {
        /* a 1D layered array's layer is gtex_offset's y */
        uint32_t ax = (uint32_t)(c->x0 / t->texel + x), ay = (uint32_t)(c->y0 + y), az = (uint32_t)(c->z0 + z);
        uint64_t off = t->dims == 1 ? gtex_offset(t, ax, az, 0) : gtex_offset(t, ax, ay, az);
        if (to_array) memcpy(base + off, row + x * t->texel, t->texel);
        else memcpy(row + x * t->texel, base + off, t->texel);
      }
    }
  rtx_clock_copy((uint64_t)c->width * height * depth);
  return rtx_leave(RT_SUCCESS);
}

/* Adds the object of geometry geo on the buffer at addr. */
static RtError add_object(GTex geo, uint64_t addr, const RtTexDesc *td, int surface, uint64_t *handle) {
  GBuf *b = gmem_find(&rtx.g, addr, 1);
  if (!b || !handle) return RT_ERR_INVALID_VALUE;
  geo.surface = surface != 0;
  if (td && !surface) {
    geo.filter = td->linear ? GTEX_LINEAR : GTEX_POINT;
    geo.amode = (uint8_t)td->amode;
    geo.norm = td->norm != 0;
    geo.normfloat = td->normfloat && ptx_type_size(geo.type) < 4 && geo.type != PTX_T_F16;
  }
  geo.buf = (int)(b - rtx.g.buf);
  geo.addr = addr;
  *handle = gmem_add_tex(&rtx.g, &geo);
  return RT_SUCCESS;
}

RtError rt_tex_array(RtArray *a, const RtTexDesc *t, int surface, uint64_t *handle) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!live_array(a)) return rtx_leave(RT_ERR_INVALID_VALUE);
  return rtx_leave(add_object(a->geo, a->addr, t, surface, handle));
}

RtError rt_tex_linear(void *ptr, const RtArrayDesc *d, size_t pitch, const RtTexDesc *t, uint64_t *handle) {
  RtError r = rtx_enter(1);
  if (r) return r;
  GTex geo;
  char why[256];
  GBuf *b = ptr ? gmem_find(&rtx.g, (uint64_t)(uintptr_t)ptr, 1) : NULL;
  if (!d || array_geo(d, &geo, why, sizeof why) || !b) {
    rtx_say("cudaCreateTextureObject: %s", !b ? "the memory is no allocation of the device" : why);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  if (geo.dims == 1) {
    if (b->addr != (uint64_t)(uintptr_t)ptr || (uint64_t)geo.w * geo.texel > b->size) {
      rtx_say("cudaCreateTextureObject: linear memory must start an allocation and lie inside it");
      return rtx_leave(RT_ERR_INVALID_VALUE);
    }
    return rtx_leave(add_object(geo, b->addr, t, 0, handle));
  }
  /* pitched 2D: a copy in the texture layout */
  static int said;
  if (!said++)
    rtx_say("cudaCreateTextureObject on pitched memory: warpmem copies its texels now; later writes to that "
            "memory are not seen through the texture");
  RtArray *a;
  RtArrayDesc ad = *d;
  ad.d = 0;
  ad.layered = 0;
  if ((r = rt_array_create(&ad, &a))) return rtx_leave(r);
  RtArrayCopy c = {.width = (size_t)geo.w * geo.texel, .height = geo.h, .depth = 1, .mem = ptr, .pitch = pitch};
  if ((r = rt_array_copy(a, &c, 1))) return rtx_leave(r);
  return rtx_leave(add_object(a->geo, a->addr, t, 0, handle));
}

void rtx_arrays_free(void) {
  while (rtx.arrays) {
    RtArray *a = rtx.arrays;
    rtx.arrays = a->next;
    free(a);
  }
}
