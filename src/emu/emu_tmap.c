/* emu_tmap.c - tensor maps: the driver's rules for them, and warpmem's
 * 128-byte encoding (emu_tmap.h).
 *
 * Notes:
 *  - The rules are cuda.h 13.0's documentation of cuTensorMapEncodeTiled
 *    and cuTensorMapEncodeIm2col, field by field, in that order; where it
 *    says nothing, warpmem chooses (and says so here):
 *      - an im2col map's row (channelsPerPixel elements) must be a multiple
 *        of 16 bytes without interleave, as a tiled map's boxDim[0] must:
 *        shared memory is written in 16-byte chunks;
 *      - channelsPerPixel and pixelsPerColumn must be at least 1.
 *  - The encoding (little-endian):
 *      0  "WMTM" magic          4  version (1)   5  flags (bit 0: im2col)
 *      6  dtype    7  rank      8  interleave    9  swizzle
 *      10 l2Promotion  11 oobFill   12 checksum (FNV-1a of bytes 4-11, 16-127)
 *      16 globalAddress (8)     24 globalDim[5] - 1 (4 each)
 *      44 globalStrides[4] (5 each, < 2^40)     64 boxDim[5] (2 each)
 *      74 elementStrides[5] (1 each)            80 pixelBoxLowerCorner[3] (2 each)
 *      86 pixelBoxUpperCorner[3] (2 each)       92 channelsPerPixel (2)
 *      94 pixelsPerColumn (2)   96-127 zero
 */
#include "emu/emu_tmap.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  uint8_t bits;
  char kind;
} types[TMAP_T_COUNT] = {
#define X(e, name, bits, kind) {name, bits, kind},
  TMAP_DTYPES(X)
#undef X
};

const char *tmap_type_name(unsigned dtype) { return dtype < TMAP_T_COUNT ? types[dtype].name : NULL; }
unsigned tmap_type_bits(unsigned dtype) { return dtype < TMAP_T_COUNT ? types[dtype].bits : 0; }
int tmap_type_is_float(unsigned dtype) { return dtype < TMAP_T_COUNT && types[dtype].kind == 'f'; }
int tmap_type_is_packed(unsigned dtype) { return dtype < TMAP_T_COUNT && types[dtype].kind == 'p'; }

int tmap_type_of(const char *name, size_t n) {
  for (int i = 0; i < TMAP_T_COUNT; i++)
    if (strlen(types[i].name) == n && !memcmp(types[i].name, name, n)) return i;
  if (n == 3 && !memcmp(name, "s32", 3)) return TMAP_T_INT32; /* the PTX spellings */
  if (n == 3 && !memcmp(name, "s64", 3)) return TMAP_T_INT64;
  return -1;
}

unsigned tmap_swizzle_span(unsigned swizzle) {
  switch (swizzle) {
  case TMAP_SWIZZLE_32B: return 32;
  case TMAP_SWIZZLE_64B: return 64;
  case TMAP_SWIZZLE_NONE: return 0;
  default: return 128; /* 128B and its atomicity sub-modes */
  }
}

uint32_t tmap_box_elems(const Tmap *t, unsigned i) {
  if (i >= t->rank) return 1;
  if (t->im2col) return i == 0 ? t->channels : i == 1 ? t->pixels : 1;
  if (i == 0 && t->interleave == TMAP_INTERLEAVE_NONE) return t->box[0];
  return (t->box[i] + t->estride[i] - 1) / t->estride[i];
}

uint64_t tmap_box_bytes(const Tmap *t) {
  uint64_t n = 1;
  for (unsigned i = 0; i < t->rank; i++) n *= tmap_box_elems(t, i);
  return n * tmap_type_bits(t->dtype) / 8;
}

void tmap_describe(const Tmap *t, char *buf, size_t n) {
  char dims[64] = "";
  size_t o = 0;
  unsigned shown = t->im2col ? 2 : t->rank;
  for (unsigned i = 0; i < shown && o < sizeof dims; i++) /* innermost first, as boxDim and the tmap: spec */
    o += (size_t)snprintf(dims + o, sizeof dims - o, "%s%u", o ? "x" : "", tmap_box_elems(t, i));
  unsigned row = (unsigned)(tmap_box_elems(t, 0) * tmap_type_bits(t->dtype) / 8);
  unsigned span = tmap_swizzle_span(t->swizzle);
  char sw[32] = "no swizzle";
  if (span) snprintf(sw, sizeof sw, "%uB swizzle", span);
  snprintf(buf, n, "a %s %s %s (%u-byte rows, %s)", dims, types[t->dtype < TMAP_T_COUNT ? t->dtype : 0].name,
           t->im2col ? "im2col box" : "box", row, sw);
}

/* --- the driver's rules --- */

static int bad(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (why && n) vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}

/* tensorRank, globalAddress, globalDim, globalStrides: what tiled and
 * im2col maps share. */
static int check_global(const Tmap *t, char *why, size_t n) {
  int packed16 = t->dtype == TMAP_T_16U4_ALIGN16B || t->dtype == TMAP_T_16U6_ALIGN16B;
  if (t->dtype >= TMAP_T_COUNT) return bad(why, n, "tensorDataType %u is not a CUtensorMapDataType", t->dtype);
  if (t->im2col && (t->rank < 3 || t->rank > 5))
    return bad(why, n, "tensorRank %u: an im2col map has 3, 4 or 5 dimensions", t->rank);
  if (t->rank < 1 || t->rank > TMAP_MAX_RANK) return bad(why, n, "tensorRank %u is not in 1..5", t->rank);
  if (t->interleave != TMAP_INTERLEAVE_NONE && t->rank < 3)
    return bad(why, n, "tensorRank %u: an interleaved layout needs at least 3 dimensions", t->rank);
  unsigned align = t->interleave == TMAP_INTERLEAVE_32B || packed16 ? 32 : 16;
  if (t->addr % align)
    return bad(why, n, "globalAddress 0x%" PRIx64 " is not %u-byte aligned%s", t->addr, align,
               align == 32 ? " (32 with a 32B interleave or a 16-byte-aligned packed type)" : "");
  for (unsigned i = 0; i < t->rank; i++) {
    if (t->dim[i] == 0 || t->dim[i] > (1ull << 32))
      return bad(why, n, "globalDim[%u] = %" PRIu64 " is not in 1..2^32", i, t->dim[i]);
  }
  if (packed16 && t->dim[0] % 128) return bad(why, n, "globalDim[0] = %" PRIu64 " of a %s map is not a multiple of 128", t->dim[0], types[t->dtype].name);
  if (t->dtype == TMAP_T_16U4_ALIGN8B && t->dim[0] % 2)
    return bad(why, n, "globalDim[0] = %" PRIu64 " of a u4x16 map is not a multiple of 2", t->dim[0]);
  unsigned salign = t->interleave == TMAP_INTERLEAVE_32B || packed16 ? 32 : 16;
  for (unsigned i = 1; i < t->rank; i++) {
    uint64_t s = t->stride[i];
    if (s % salign || s >= (1ull << 40))
      return bad(why, n, "globalStrides[%u] = %" PRIu64 " is not a multiple of %u below 2^40", i - 1, s, salign);
  }
  return 0;
}

/* boxDim (tiled) or the corners, channels and pixels (im2col). */
static int check_box(const Tmap *t, char *why, size_t n) {
  unsigned bits = tmap_type_bits(t->dtype);
  int packed16 = t->dtype == TMAP_T_16U4_ALIGN16B || t->dtype == TMAP_T_16U6_ALIGN16B;
  if (!t->im2col) {
    for (unsigned i = 0; i < t->rank; i++)
      if (t->box[i] == 0 || t->box[i] > 256) return bad(why, n, "boxDim[%u] = %u is not in 1..256", i, t->box[i]);
    if (t->interleave == TMAP_INTERLEAVE_NONE && (uint64_t)t->box[0] * bits % 128)
      return bad(why, n, "boxDim[0] = %u: its %g bytes are not a multiple of 16 (without interleave)", t->box[0],
                 t->box[0] * bits / 8.0);
    if (packed16 && t->box[0] != 128) return bad(why, n, "boxDim[0] = %u of a %s map is not 128", t->box[0], types[t->dtype].name);
    return 0;
  }
  static const int32_t lim[6] = {0, 0, 0, 32768, 128, 16}; /* by rank: [-lim, lim - 1] */
  for (unsigned i = 0; i + 2 < t->rank; i++) {
    int32_t l = lim[t->rank];
    if (t->lower[i] < -l || t->lower[i] >= l)
      return bad(why, n, "pixelBoxLowerCorner[%u] = %d is not in [%d, %d] for a rank-%u map", i, t->lower[i], -l,
                 l - 1, t->rank);
    if (t->upper[i] < -l || t->upper[i] >= l)
      return bad(why, n, "pixelBoxUpperCorner[%u] = %d is not in [%d, %d] for a rank-%u map", i, t->upper[i], -l,
                 l - 1, t->rank);
    if ((int64_t)t->dim[i + 1] - 1 + t->upper[i] < t->lower[i])
      return bad(why, n, "the pixel box has no area along dimension %u (lower corner %d, upper corner %d, %" PRIu64
                 " elements)", i + 1, t->lower[i], t->upper[i], t->dim[i + 1]);
  }
  if (t->channels == 0 || t->channels > 256) return bad(why, n, "channelsPerPixel = %u is not in 1..256", t->channels);
  if (packed16 && t->channels != 128) return bad(why, n, "channelsPerPixel = %u of a %s map is not 128", t->channels, types[t->dtype].name);
  if (t->pixels == 0 || t->pixels > 1024) return bad(why, n, "pixelsPerColumn = %u is not in 1..1024", t->pixels);
  if (t->interleave == TMAP_INTERLEAVE_NONE && (uint64_t)t->channels * bits % 128)
    return bad(why, n, "channelsPerPixel = %u: its %g bytes are not a multiple of 16 (without interleave)",
               t->channels, t->channels * bits / 8.0);
  return 0;
}

/* elementStrides, interleave, swizzle, l2Promotion, oobFill. */
static int check_modes(const Tmap *t, char *why, size_t n) {
  for (unsigned i = 0; i < t->rank; i++)
    if (t->estride[i] == 0 || t->estride[i] > 8)
      return bad(why, n, "elementStrides[%u] = %u is not in 1..8", i, t->estride[i]);
  if (t->interleave >= TMAP_INTERLEAVE_COUNT) return bad(why, n, "interleave %u is not a CUtensorMapInterleave", t->interleave);
  if (t->swizzle >= TMAP_SWIZZLE_COUNT) return bad(why, n, "swizzle %u is not a CUtensorMapSwizzle", t->swizzle);
  if (t->l2promo >= TMAP_L2_COUNT) return bad(why, n, "l2Promotion %u is not a CUtensorMapL2promotion", t->l2promo);
  if (t->oobfill >= TMAP_OOB_COUNT) return bad(why, n, "oobFill %u is not a CUtensorMapFloatOOBfill", t->oobfill);
  unsigned span = tmap_swizzle_span(t->swizzle);
  uint64_t inner = (uint64_t)(t->im2col ? t->channels : t->box[0]) * tmap_type_bits(t->dtype) / 8;
  if (t->interleave == TMAP_INTERLEAVE_NONE && span && inner > span)
    return bad(why, n, "swizzle: the box's inner dimension is %" PRIu64 " bytes, more than the %u-byte swizzle span",
               inner, span);
  if (t->interleave == TMAP_INTERLEAVE_32B && t->swizzle != TMAP_SWIZZLE_32B)
    return bad(why, n, "swizzle: a 32B interleave needs CU_TENSOR_MAP_SWIZZLE_32B");
  if (t->dtype == TMAP_T_16U6_ALIGN16B && t->interleave != TMAP_INTERLEAVE_NONE)
    return bad(why, n, "interleave: a u6x16p32 map has none");
  int p16 = t->dtype == TMAP_T_16U4_ALIGN16B || t->dtype == TMAP_T_16U6_ALIGN16B;
  int sw_ok = t->swizzle == TMAP_SWIZZLE_NONE || t->swizzle == TMAP_SWIZZLE_128B || t->swizzle == TMAP_SWIZZLE_128B_ATOM_32B ||
              (t->dtype == TMAP_T_16U6_ALIGN16B && t->swizzle == TMAP_SWIZZLE_128B_ATOM_64B);
  if (p16 && !sw_ok) return bad(why, n, "swizzle %u is not one a %s map takes", t->swizzle, types[t->dtype].name);
  if (t->oobfill == TMAP_OOB_NAN && !tmap_type_is_float(t->dtype))
    return bad(why, n, "oobFill: the NaN fill needs a floating-point tensorDataType, not %s", types[t->dtype].name);
  return 0;
}

int tmap_check(const Tmap *t, const void *map, char *why, size_t n) {
  if (map && (uintptr_t)map % 64) return bad(why, n, "tensorMap %p is not 64-byte aligned", map);
  if (check_global(t, why, n) || check_box(t, why, n) || check_modes(t, why, n)) return -1;
  return 0;
}

/* --- the encoding --- */

#define MAGIC 0x4d544d57u /* "WMTM" */
#define VERSION 1

static void put(uint8_t *p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get(const uint8_t *p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static uint32_t checksum(const uint8_t *m) {
  uint32_t h = 2166136261u;
  for (unsigned i = 4; i < TMAP_BYTES; i++)
    if (i < 12 || i >= 16) h = (h ^ m[i]) * 16777619u;
  return h;
}

void tmap_pack(const Tmap *t, void *map) {
  uint8_t *m = map;
  memset(m, 0, TMAP_BYTES);
  put(m, MAGIC, 4);
  m[4] = VERSION, m[5] = t->im2col ? 1 : 0, m[6] = t->dtype, m[7] = t->rank;
  m[8] = t->interleave, m[9] = t->swizzle, m[10] = t->l2promo, m[11] = t->oobfill;
  put(m + 16, t->addr, 8);
  for (unsigned i = 0; i < TMAP_MAX_RANK; i++) { /* all five: tensormap.replace may raise the rank */
    put(m + 24 + 4 * i, t->dim[i] ? t->dim[i] - 1 : 0, 4);
    if (i) put(m + 44 + 5 * (i - 1), t->stride[i], 5);
    put(m + 64 + 2 * i, t->box[i], 2);
    m[74 + i] = (uint8_t)t->estride[i];
  }
  for (unsigned i = 0; i < 3; i++) {
    put(m + 80 + 2 * i, (uint16_t)t->lower[i], 2);
    put(m + 86 + 2 * i, (uint16_t)t->upper[i], 2);
  }
  put(m + 92, t->channels, 2);
  put(m + 94, t->pixels, 2);
  put(m + 12, checksum(m), 4);
}

/* Whether the n bytes at p are all zero. */
static int all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

int tmap_decode_edit(const void *map, Tmap *t, char *why, size_t n) {
  if (!all_zero(map, TMAP_BYTES)) return tmap_decode(map, t, why, n);
  memset(t, 0, sizeof *t); /* as a zero map's fields read: rank 1, u8, every size 1 */
  t->rank = 1, t->dtype = TMAP_T_UINT8;
  for (unsigned i = 0; i < TMAP_MAX_RANK; i++) t->dim[i] = 1, t->box[i] = 1, t->estride[i] = 1;
  t->stride[0] = 1;
  return 0;
}

int tmap_decode(const void *map, Tmap *t, char *why, size_t n) {
  const uint8_t *m = map;
  if (get(m, 4) != MAGIC)
    return bad(why, n, "its 128 bytes are not a tensor map (cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col made "
               "none there; a map's bytes must be copied whole)");
  if (m[4] != VERSION) return bad(why, n, "a tensor map of encoding version %u (warpmem writes %u)", m[4], VERSION);
  if (get(m + 12, 4) != checksum(m)) return bad(why, n, "the tensor map's bytes were changed after it was encoded");
  memset(t, 0, sizeof *t);
  t->im2col = m[5] & 1, t->dtype = m[6], t->rank = m[7];
  t->interleave = m[8], t->swizzle = m[9], t->l2promo = m[10], t->oobfill = m[11];
  t->addr = get(m + 16, 8);
  for (unsigned i = 0; i < TMAP_MAX_RANK; i++) {
    t->dim[i] = get(m + 24 + 4 * i, 4) + 1;
    if (i) t->stride[i] = get(m + 44 + 5 * (i - 1), 5);
    t->box[i] = (uint32_t)get(m + 64 + 2 * i, 2);
    t->estride[i] = m[74 + i];
  }
  for (unsigned i = 0; i < 3; i++) {
    t->lower[i] = (int16_t)get(m + 80 + 2 * i, 2);
    t->upper[i] = (int16_t)get(m + 86 + 2 * i, 2);
  }
  t->channels = (uint32_t)get(m + 92, 2);
  t->pixels = (uint32_t)get(m + 94, 2);
  t->stride[0] = tmap_type_bits(t->dtype) / 8;
  return 0;
}

int tmap_unpack(const void *map, Tmap *t, char *why, size_t n) {
  if (tmap_decode(map, t, why, n)) return -1;
  return tmap_check(t, NULL, why, n);
}

int tmap_replace_address(void *map, uint64_t addr, char *why, size_t n) {
  Tmap t;
  if (tmap_unpack(map, &t, why, n)) return -1;
  t.addr = addr;
  if (tmap_check(&t, NULL, why, n)) return -1;
  tmap_pack(&t, map);
  return 0;
}
