/* launch_tex.c - texture and surface objects as kernel arguments: the
 * tex: and surf: specs, and the objects they make (the texels in a buffer
 * of the GlobalMem, laid out as gtex_offset() says; the handle in the
 * kernel's .u64 parameter, as cudaTextureObject_t is passed).
 *
 * Grammar (launch.h):
 *   tex:CHAN:DIMS{:OPT}   surf:CHAN:DIMS{:OPT}
 *   CHAN := CTYPE[x1|x2|x4]   (f32x4: four f32 channels, as float4)
 *   DIMS := W[xH[xD]]         each 1..65536
 *   OPT  := point | linear    filter (point by default)
 *         | clamp | wrap | mirror | border   address mode (clamp by default)
 *         | norm              normalized coordinates
 *         | elem | normfloat  read mode of 8/16-bit integers (elem by default)
 *         | layered           the last dimension counts layers (a1d, a2d)
 *         | cube              a cubemap WxW of 6 faces (tex.cube); with
 *                             layered, WxWxN is N cubemaps (tex.acube)
 *         | mem               the texels in linear memory, not a CUDA array:
 *                             1D as cudaResourceTypeLinear (tex1Dfetch; no
 *                             filtering, 0 out of range), 2D as Pitch2D
 *                             (rows padded to 32 bytes)
 *         | zero | iota | rand | CONSTANT   contents, as for buffers
 *
 * Notes:
 * - Refused as cudaCreateTextureObject would refuse or ignore them: linear
 *   filtering of integers read as elements, normfloat of 32-bit channels
 *   or floats, wrap and mirror without normalized coordinates (CUDA treats
 *   them as clamp), sampling options on a surface.
 * - Every object is a CUDA array (block-linear storage).  tex1Dfetch on
 *   linear memory reads 0 out of range whatever the address mode: give such
 *   a texture :border.
 * - Contents: channel k of texel (x, y, z) is element
 *   ((z * H + y) * W + x) * channels + k of what iota, rand or CONSTANT
 *   would put in a buffer of the channel type (f16: the f32 value rounded),
 *   drawn the same way as launch.c draws a buffer's (splitmix64 seeded by
 *   the seed and the argument number; floats in [0, 1), integers in
 *   [0, 1024), [0, 128) for s8 and [0, 256) for u8).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch_int.h"
#include "util/bits.h"
#include "util/half.h"

static const struct {
  const char *name;
  uint8_t type;
} chan_types[] = {
  {"f32", PTX_T_F32}, {"f16", PTX_T_F16}, {"i32", PTX_T_S32}, {"s32", PTX_T_S32}, {"u32", PTX_T_U32},
  {"i16", PTX_T_S16}, {"s16", PTX_T_S16}, {"u16", PTX_T_U16}, {"i8", PTX_T_S8},   {"s8", PTX_T_S8},
  {"u8", PTX_T_U8},
};
#define CHAN_LIST "f32 f16 i32 s32 u32 i16 s16 u16 i8 s8 u8, with x1 x2 or x4"

static int word(const char *s, size_t n, const char *w) { return strlen(w) == n && !memcmp(s, w, n); }

/* A decimal number filling s[0..n); -1 if it is not one. */
static int decimal(const char *s, size_t n, uint64_t *v) {
  *v = 0;
  if (n == 0 || n > 9) return -1;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    *v = *v * 10 + (uint64_t)(s[i] - '0');
  }
  return 0;
}

static int is_signed(uint8_t t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32; }

/* A CONSTANT of channel type t (decimal or 0x-hex integers, strtod's
 * floats) as the channel's bits; -1 if it is not one or out of range. */
static int constant(const char *s, size_t n, uint8_t t, uint64_t *bits) {
  char buf[64];
  if (n == 0 || n >= sizeof buf) return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  char *end;
  errno = 0;
  if (t == PTX_T_F32 || t == PTX_T_F16) {
    double d = strtod(buf, &end);
    if (*end || errno == ERANGE || (isfinite(d) && fabs(d) > 3.4028234663852886e38)) return -1;
    *bits = t == PTX_T_F16 ? wm_f16_from(d, WM_RND_NEAREST) : wm_f32_bits((float)d);
    return 0;
  }
  unsigned bytes = ptx_type_size((PtxType)t);
  uint64_t mask = bytes >= 8 ? UINT64_MAX : (1ull << (8 * bytes)) - 1;
  int hex = n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
  long long v = strtoll(buf, &end, 0);
  if (*end || errno == ERANGE) return -1;
  long long lo = is_signed(t) && !hex ? -(long long)(mask >> 1) - 1 : 0;
  long long hi = is_signed(t) && !hex ? (long long)(mask >> 1) : (long long)mask;
  if (v < lo || v > hi) return -1;
  *bits = (uint64_t)v & mask;
  return 0;
}

/* CHAN := CTYPE[xN] */
static int parse_chan(const char *s, size_t n, GTex *t) {
  size_t tn = n;
  t->nchan = 1;
  if (n >= 2 && s[n - 2] == 'x' && (s[n - 1] == '1' || s[n - 1] == '2' || s[n - 1] == '4')) {
    t->nchan = (uint8_t)(s[n - 1] - '0');
    tn = n - 2;
  }
  for (size_t i = 0; i < sizeof chan_types / sizeof chan_types[0]; i++)
    if (word(s, tn, chan_types[i].name)) {
      t->type = chan_types[i].type;
      t->texel = (uint8_t)(ptx_type_size((PtxType)t->type) * t->nchan);
      return 0;
    }
  return -1;
}

/* DIMS := W[xH[xD]]; returns the offset of a bad part, or -1 when good. */
static long parse_dims(const char *s, size_t n, uint32_t d[3], int *nd) {
  size_t i = 0;
  *nd = 0;
  d[0] = d[1] = d[2] = 1;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != 'x') j++;
    uint64_t v;
    if (*nd == 3 || decimal(s + i, j - i, &v) || v == 0 || v > 65536) return (long)i;
    d[(*nd)++] = (uint32_t)v;
    if (j == n) return -1;
    i = j + 1;
  }
}

/* One OPT; `seen` holds the groups already given (filter, address, norm,
 * read mode, layered, init). */
static int parse_opt(const char *s, size_t n, ArgSpec *a, unsigned *seen, WmErr *e) {
  static const char *const filters[] = {"point", "linear"};
  static const char *const modes[] = {"clamp", "wrap", "mirror", "border"};
  GTex *t = &a->tex;
  unsigned group;
  if (word(s, n, "point") || word(s, n, "linear")) {
    group = 1, t->filter = word(s, n, filters[1]) ? GTEX_LINEAR : GTEX_POINT;
  } else if (word(s, n, modes[0]) || word(s, n, modes[1]) || word(s, n, modes[2]) || word(s, n, modes[3])) {
    group = 2;
    for (uint8_t k = 0; k < 4; k++)
      if (word(s, n, modes[k])) t->amode = k == 0 ? GTEX_CLAMP : k == 1 ? GTEX_WRAP : k == 2 ? GTEX_MIRROR : GTEX_BORDER;
  } else if (word(s, n, "norm")) {
    group = 4, t->norm = 1;
  } else if (word(s, n, "elem") || word(s, n, "normfloat")) {
    group = 8, t->normfloat = word(s, n, "normfloat");
  } else if (n >= 3 && (!memcmp(s, "mip", 3) || !memcmp(s, "lod", 3))) {
    return wm_err(e, WM_EUSAGE, "'%.*s': mipmapped textures are not supported (a texture has one level, which "
                  "tex.level and tex.grad read)", (int)n, s);
  } else if (word(s, n, "layered")) {
    group = 16, t->layered = 1;
  } else if (word(s, n, "mem")) {
    group = 128, t->pitched = 1;
    if (a->tex.surface) return wm_err(e, WM_EUSAGE, "'mem': a surface is always a CUDA array");
  } else if (word(s, n, "cube")) {
    group = 64, t->cube = 1;
    if (a->tex.surface)
      return wm_err(e, WM_EUSAGE, "'cube': cubemap surfaces are not supported (give a 2D layered surface of 6 layers)");
  } else {
    group = 32;
    if (word(s, n, "zero")) a->init = INIT_ZERO;
    else if (word(s, n, "iota")) a->init = INIT_IOTA;
    else if (word(s, n, "rand")) a->init = INIT_RAND;
    else if (constant(s, n, t->type, &a->bits) == 0) a->init = INIT_CONST;
    else
      return wm_err(e, WM_EUSAGE, "unknown option '%.*s' (point linear clamp wrap mirror border norm elem "
                    "normfloat layered cube mem, or zero iota rand or a %s constant in range)", (int)n, s,
                    ptx_type_name((PtxType)t->type));
  }
  if (*seen & group) return wm_err(e, WM_EUSAGE, "'%.*s' contradicts or repeats an earlier option", (int)n, s);
  if (a->tex.surface && (group & 15))
    return wm_err(e, WM_EUSAGE, "'%.*s' is a sampling option; a surface has none", (int)n, s);
  *seen |= group;
  return 0;
}

/* Linear memory (cudaResourceTypeLinear) has no filtering, normalized
 * coordinates or address modes: tex1Dfetch reads 0 out of range. */
static int check_linear_mem(const GTex *t, unsigned seen, WmErr *e) {
  if (t->layered || t->cube || t->dims == 3)
    return wm_err(e, WM_EUSAGE, "'mem' textures are 1D or 2D (layered, cubemap and 3D textures are CUDA arrays)");
  if (t->dims == 1 && (t->filter == GTEX_LINEAR || t->norm || ((seen & 2) && t->amode != GTEX_BORDER)))
    return wm_err(e, WM_EUSAGE, "a 1D 'mem' texture is read by tex1Dfetch: no filtering, normalized coordinates "
                  "or address mode (out of range reads 0, as :border)");
  return 0;
}

/* The combinations CUDA refuses or ignores. */
static int check_tex(const ArgSpec *a, unsigned seen, WmErr *e) {
  const GTex *t = &a->tex;
  if (t->pitched && check_linear_mem(t, seen, e)) return -1;
  int small = t->type == PTX_T_U8 || t->type == PTX_T_S8 || t->type == PTX_T_U16 || t->type == PTX_T_S16;
  if (t->normfloat && !small)
    return wm_err(e, WM_EUSAGE, "normfloat reads 8- and 16-bit integers as floats; this texture's channels are %s",
                  ptx_type_name((PtxType)t->type));
  if (t->filter == GTEX_LINEAR && t->type != PTX_T_F32 && t->type != PTX_T_F16 && !t->normfloat)
    return wm_err(e, WM_EUSAGE, "linear filtering needs float texels: f32, f16, or 8/16-bit integers with normfloat");
  if ((t->amode == GTEX_WRAP || t->amode == GTEX_MIRROR) && !t->norm)
    return wm_err(e, WM_EUSAGE, "wrap and mirror work on normalized coordinates only: add :norm");
  return 0;
}

int lc_parse_tex(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e) {
  size_t fs[16], fe[16];
  int nf = 0;
  for (size_t i = 0;;) {
    size_t j = i;
    while (j < n && s[j] != ':') j++;
    if (nf == 16) {
      *bad = i;
      return wm_err(e, WM_EUSAGE, "argument '%.*s': too many ':' fields", (int)n, s);
    }
    fs[nf] = i, fe[nf++] = j;
    if (j == n) break;
    i = j + 1;
  }
#define F(k) (s + fs[k]), (fe[k] - fs[k])
  a->kind = ARG_TEX;
  a->tex.surface = s[0] == 's';
  a->init = INIT_DEFAULT;
  const char *what = a->tex.surface ? "surf" : "tex";
  if (nf < 3) {
    *bad = n;
    return wm_err(e, WM_EUSAGE, "argument '%.*s': expected %s:CHANNELS:WxH[xD][:OPTION...]", (int)n, s, what);
  }
  *bad = fs[1];
  if (parse_chan(F(1), &a->tex))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': unknown channel format '%.*s' (" CHAN_LIST ")", (int)n, s,
                  (int)(fe[1] - fs[1]), s + fs[1]);
  uint32_t d[3];
  int nd;
  long at = parse_dims(F(2), d, &nd);
  if (at >= 0) {
    *bad = fs[2] + (size_t)at;
    return wm_err(e, WM_EUSAGE, "argument '%.*s': size '%.*s': expected W, WxH or WxHxD, each 1..65536", (int)n, s,
                  (int)(fe[2] - fs[2]), s + fs[2]);
  }
  unsigned seen = 0;
  for (int k = 3; k < nf; k++) {
    *bad = fs[k];
    WmErr sub = {0};
    if (parse_opt(F(k), a, &seen, &sub)) return wm_err(e, WM_EUSAGE, "argument '%.*s': %s", (int)n, s, sub.msg);
  }
  *bad = fs[2];
  GTex *t = &a->tex;
  if (t->layered && nd == 1)
    return wm_err(e, WM_EUSAGE, "argument '%.*s': a layered object is WxL (1D) or WxHxL (2D)", (int)n, s);
  if (t->cube && (nd != 2 + t->layered || d[0] != d[1]))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': a cubemap is WxW (square faces)%s", (int)n, s,
                  t->layered ? ", and layered WxWxN for N cubemaps" : "");
  t->dims = (uint8_t)(nd - t->layered);
  t->w = d[0];
  t->h = t->dims >= 2 ? d[1] : 1;
  t->d = t->dims == 3 ? d[2] : 1;
  t->layers = t->layered ? d[nd - 1] : 0;
  if (t->cube) { /* six faces as the layers of a 2D layered object; a face is addressed in [0, 1] */
    t->cube = (uint8_t)(1 + t->layered);
    t->layers = 6 * (t->layered ? d[2] : 1);
    t->layered = 1;
    t->norm = 1;
  }
  if (t->pitched && t->dims == 2) t->pitch = ((uint64_t)t->w * t->texel + 31) / 32 * 32;
  *bad = fs[3 < nf ? 3 : 2];
  WmErr sub = {0};
  if (check_tex(a, seen, &sub)) return wm_err(e, WM_EUSAGE, "argument '%.*s': %s", (int)n, s, sub.msg);
  if (t->pitched && t->dims == 1) t->amode = GTEX_BORDER; /* out of range reads 0 */
  a->type = t->type;
  a->count = (uint64_t)t->w * t->h * t->d * (t->layered ? t->layers : 1) * t->nchan;
  if (gtex_storage_bytes(t) > (1ull << 40))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': too large (at most 1 TiB)", (int)n, s);
#undef F
  return 0;
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The bits of element i of the contents, in the channel type. */
static uint64_t element(const ArgSpec *a, uint8_t init, uint64_t i, uint64_t *state) {
  uint8_t t = a->tex.type;
  if (init == INIT_CONST) return a->bits;
  if (init == INIT_IOTA) {
    if (t == PTX_T_F32) return wm_f32_bits((float)i);
    if (t == PTX_T_F16) return wm_f16_from((double)i, WM_RND_NEAREST);
    unsigned bytes = ptx_type_size((PtxType)t);
    return i & (bytes >= 8 ? UINT64_MAX : (1ull << (8 * bytes)) - 1);
  }
  uint64_t x = splitmix64(state);
  float f = (float)(x >> 40) * (1.0f / 16777216.0f); /* 24 bits: [0, 1) exactly */
  if (t == PTX_T_F32) return wm_f32_bits(f);
  if (t == PTX_T_F16) return wm_f16_from((double)f, WM_RND_NEAREST);
  return (x >> 32) % (t == PTX_T_S8 ? 128 : t == PTX_T_U8 ? 256 : 1024);
}

int lc_create_tex(GlobalMem *g, const ArgSpec *a, const char *name, int argno, InitKind dflt, uint64_t seed,
                  uint64_t *handle, WmErr *e) {
  GTex t = a->tex;
  int bi = gmem_alloc(g, gtex_storage_bytes(&t), name, t.type, a->count, e);
  if (bi < 0) return -1;
  uint8_t init = a->init == INIT_DEFAULT ? (uint8_t)dflt : a->init;
  if (init == INIT_DEFAULT) init = INIT_RAND;
  uint8_t *data = g->buf[bi].data;
  unsigned cs = ptx_type_size((PtxType)t.type);
  uint64_t st = seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(argno + 1)), i = 0; /* as launch.c's */
  uint32_t nz = t.layered ? t.layers : t.d;
  for (uint32_t z = 0; z < nz; z++)
    for (uint32_t y = 0; y < (t.dims == 1 ? 1 : t.h); y++)
      for (uint32_t x = 0; x < t.w; x++) {
        uint64_t off = t.dims == 1 ? gtex_offset(&t, x, z, 0) : gtex_offset(&t, x, y, z);
        for (unsigned c = 0; c < t.nchan; c++, i++) {
          uint64_t v = init == INIT_ZERO ? 0 : element(a, init, i, &st);
          memcpy(data + off + c * cs, &v, cs); /* little-endian host */
        }
      }
  t.buf = bi;
  t.addr = g->buf[bi].addr;
  *handle = gmem_add_tex(g, &t);
  return 0;
}
