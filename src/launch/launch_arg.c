/* launch_arg.c - one argument spec: its types, its literals, the scalar and
 * buffer forms (TYPE:VALUE, buf:TYPE:COUNT[:INIT]) and a buffer's contents.
 * launch_agg.c builds aggregates from these; launch.c reads whole specs.
 *
 * Notes:
 * - Scalars are range-checked for their type.  Decimal literals must fit the
 *   type's value range (i8: -128..127, u8: 0..255, ...); hexadecimal ones are
 *   bit patterns and may use the whole width (i32:0xffffffff is -1).  Floats
 *   take anything strtod reads (1, 1.5, -2e-3, inf, nan, 0x1p-3) or the PTX
 *   bit forms 0fXXXXXXXX (f32) and 0dXXXXXXXXXXXXXXXX (f64).
 * - A buffer holds 1 element at least and 1 TiB at most; the run's real
 *   limit (GlobalMem.limit, --mem-limit) is gmem_alloc's to enforce.
 * - rand is reproducible: splitmix64 seeded by (seed, argument number), so
 *   the same seed gives the same data and different arguments get different
 *   data.  Floats are uniform in [0, 1); integers uniform in [0, 1024) (in
 *   [0, 128) for i8 and [0, 256) for u8) so that kernels which use the data
 *   as indices or trip counts stay in bounds and finish quickly.
 * - iota stores element i converted to the type (wrapping for narrow
 *   integer types, rounded for floats beyond 2^24 / 2^53).
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch_int.h"

#define MAX_BUF_BYTES (1ull << 40) /* sanity bound on one buffer */

/* ---- types ------------------------------------------------------------- */

static const struct {
  const char *name;
  uint8_t type;
  uint8_t size;
} arg_types[] = {
  {"i8", PTX_T_S8, 1},   {"u8", PTX_T_U8, 1},   {"i16", PTX_T_S16, 2}, {"u16", PTX_T_U16, 2},
  {"i32", PTX_T_S32, 4}, {"u32", PTX_T_U32, 4}, {"i64", PTX_T_S64, 8}, {"u64", PTX_T_U64, 8},
  {"f32", PTX_T_F32, 4}, {"f64", PTX_T_F64, 8},
};
#define NTYPES (sizeof arg_types / sizeof arg_types[0])
#define TYPE_LIST "i8 u8 i16 u16 i32 u32 i64 u64 f32 f64"

static int type_index(uint8_t t) {
  for (size_t i = 0; i < NTYPES; i++)
    if (arg_types[i].type == t) return (int)i;
  return -1;
}

/* The spec's name of a type ("i32"), or NULL for types a spec cannot name. */
const char *la_type_spec_name(uint8_t t) {
  int i = type_index(t);
  return i < 0 ? NULL : arg_types[i].name;
}

unsigned la_type_bytes(uint8_t t) {
  int i = type_index(t);
  return i < 0 ? 0 : arg_types[i].size;
}

static int type_signed(uint8_t t) {
  return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

static int type_float(uint8_t t) { return t == PTX_T_F32 || t == PTX_T_F64; }

const char *la_param_type_name(uint8_t t) {
  static const char *const names[PTX_T_COUNT] = {
    [PTX_T_PRED] = "pred", [PTX_T_B8] = "b8",   [PTX_T_B16] = "b16", [PTX_T_B32] = "b32",
    [PTX_T_B64] = "b64",   [PTX_T_B128] = "b128", [PTX_T_U8] = "u8", [PTX_T_U16] = "u16",
    [PTX_T_U32] = "u32",   [PTX_T_U64] = "u64", [PTX_T_S8] = "s8",  [PTX_T_S16] = "s16",
    [PTX_T_S32] = "s32",   [PTX_T_S64] = "s64", [PTX_T_F16] = "f16", [PTX_T_F16X2] = "f16x2",
    [PTX_T_BF16] = "bf16", [PTX_T_BF16X2] = "bf16x2", [PTX_T_F32] = "f32", [PTX_T_F64] = "f64",
  };
  return t < PTX_T_COUNT && names[t] ? names[t] : "?";
}

static uint64_t width_mask(unsigned bytes) {
  return bytes >= 8 ? UINT64_MAX : (1ull << (8 * bytes)) - 1;
}

/* ---- literals ---------------------------------------------------------- */

/* An unsigned decimal or 0x-hex literal filling all of s[0..n).  Returns 0,
 * -1 (not a number) or -2 (over 2^64-1). */
int la_parse_uint(const char *s, size_t n, uint64_t *v, int *hex) {
  uint64_t x = 0;
  unsigned base = 10;
  *hex = 0;
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16, s += 2, n -= 2;
    *hex = 1;
  }
  if (n == 0) return -1;
  int over = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned d;
    char c = s[i];
    if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
    else return -1;
    if (x > (UINT64_MAX - d) / base) over = 1;
    else x = x * base + d;
  }
  if (over) return -2;
  *v = x;
  return 0;
}

static int is_hex_digits(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return 0;
  }
  return n > 0;
}

/* A value of type t from s[0..n) into *bits (little-endian value of the
 * type's width).  On error, a message (without location) in e. */
int la_parse_value(const char *s, size_t n, uint8_t t, uint64_t *bits, WmErr *e) {
  const char *tn = la_type_spec_name(t);
  unsigned bytes = la_type_bytes(t);
  if (n == 0) return wm_err(e, WM_EUSAGE, "missing %s value", tn);
  if (type_float(t)) {
    /* PTX bit forms: 0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX */
    size_t nhex = t == PTX_T_F32 ? 8 : 16;
    if (n == nhex + 2 && s[0] == '0' && (s[1] == (t == PTX_T_F32 ? 'f' : 'd') ||
                                         s[1] == (t == PTX_T_F32 ? 'F' : 'D')) &&
        is_hex_digits(s + 2, nhex)) {
      uint64_t x = 0;
      for (size_t i = 2; i < n; i++)
        x = x << 4 | (uint64_t)(isdigit((unsigned char)s[i]) ? s[i] - '0'
                                                              : (tolower((unsigned char)s[i]) - 'a' + 10));
      *bits = x;
      return 0;
    }
    char *buf = wm_xstrndup(s, n), *end;
    errno = 0;
    double d = strtod(buf, &end);
    int bad = end == buf || *end || isspace((unsigned char)buf[0]);
    int range = (errno == ERANGE && isinf(d)) ||
                (t == PTX_T_F32 && isfinite(d) && fabs(d) > (double)FLT_MAX);
    free(buf);
    if (bad) return wm_err(e, WM_EUSAGE, "'%.*s' is not a %s number", (int)n, s, tn);
    if (range) return wm_err(e, WM_EUSAGE, "%.*s is out of range for %s", (int)n, s, tn);
    if (t == PTX_T_F32) {
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      *bits = u;
    } else {
      memcpy(bits, &d, 8);
    }
    return 0;
  }
  int neg = s[0] == '-';
  const char *digits = s + (neg || s[0] == '+');
  size_t nd = n - (size_t)(digits - s);
  uint64_t mag;
  int hex;
  int rc = la_parse_uint(digits, nd, &mag, &hex);
  int sgn = type_signed(t);
  uint64_t umax = width_mask(bytes);
  uint64_t smax = umax >> 1; /* largest positive signed value */
  if (rc == -1) return wm_err(e, WM_EUSAGE, "'%.*s' is not an integer (%s)", (int)n, s, tn);
  if (sgn)
    if (rc == -2 || (neg && mag > smax + 1) || (!neg && mag > (hex ? umax : smax)))
      return wm_err(e, WM_EUSAGE, "%.*s is out of range for %s (%lld..%lld)", (int)n, s, tn,
                    -(long long)(smax) - 1, (long long)smax);
  if (!sgn && (rc == -2 || neg || mag > umax))
    return wm_err(e, WM_EUSAGE, "%.*s is out of range for %s (0..%llu)", (int)n, s, tn,
                  (unsigned long long)umax);
  *bits = (neg ? (uint64_t)0 - mag : mag) & umax;
  return 0;
}

int la_lookup_type(const char *s, size_t n, uint8_t *t) {
  for (size_t i = 0; i < NTYPES; i++)
    if (strlen(arg_types[i].name) == n && memcmp(arg_types[i].name, s, n) == 0) {
      *t = arg_types[i].type;
      return 0;
    }
  return -1;
}

int la_field_is(const char *s, size_t n, const char *word) {
  return strlen(word) == n && memcmp(s, word, n) == 0;
}

int la_leaf_parse(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e) {
  memset(a, 0, sizeof *a);
  *bad = 0;
  size_t tn = n < sizeof a->text - 1 ? n : sizeof a->text - 1;
  memcpy(a->text, s, tn);
  a->text[tn] = '\0';
  if (n == 0) return wm_err(e, WM_EUSAGE, "empty argument: expected TYPE:VALUE or buf:TYPE:COUNT[:INIT]");

  /* split into at most 4 fields at ':' (a float constant has none) */
  size_t fs[5], fe[5];
  int nf = 0;
  size_t i = 0;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != ':') j++;
    if (nf == 4) {
      *bad = i - 1;
      return wm_err(e, WM_EUSAGE, "argument '%.*s': too many ':' fields", (int)n, s);
    }
    fs[nf] = i, fe[nf] = j, nf++;
    if (j == n) break;
    i = j + 1;
  }
#define F(k) (s + fs[k]), (fe[k] - fs[k])
  WmErr sub = {0};
  if (la_field_is(F(0), "buf")) {
    a->kind = ARG_BUF;
    if (nf < 3) {
      *bad = n;
      return wm_err(e, WM_EUSAGE, "argument '%.*s': expected buf:TYPE:COUNT[:INIT]", (int)n, s);
    }
    if (la_lookup_type(F(1), &a->type)) {
      *bad = fs[1];
      return wm_err(e, WM_EUSAGE, "argument '%.*s': unknown type '%.*s' (types: " TYPE_LIST ")",
                    (int)n, s, (int)(fe[1] - fs[1]), s + fs[1]);
    }
    uint64_t count;
    int hex;
    int rc = la_parse_uint(F(2), &count, &hex);
    *bad = fs[2];
    if (rc == -1)
      return wm_err(e, WM_EUSAGE, "argument '%.*s': buffer length '%.*s' is not a positive integer",
                    (int)n, s, (int)(fe[2] - fs[2]), s + fs[2]);
    if (rc == 0 && count == 0)
      return wm_err(e, WM_EUSAGE, "argument '%.*s': a buffer needs at least 1 element", (int)n, s);
    unsigned es = la_type_bytes(a->type);
    if (rc == -2 || count > MAX_BUF_BYTES / es)
      return wm_err(e, WM_EUSAGE,
                    "argument '%.*s': buffer of %.*s %s elements is too large (at most 1 TiB)",
                    (int)n, s, (int)(fe[2] - fs[2]), s + fs[2], la_type_spec_name(a->type));
    a->count = count;
    a->init = INIT_DEFAULT;
    if (nf == 4) {
      *bad = fs[3];
      if (la_field_is(F(3), "zero")) a->init = INIT_ZERO;
      else if (la_field_is(F(3), "iota")) a->init = INIT_IOTA;
      else if (la_field_is(F(3), "rand")) a->init = INIT_RAND;
      else if (la_parse_value(F(3), a->type, &a->bits, &sub) == 0) a->init = INIT_CONST;
      else
        return wm_err(e, WM_EUSAGE,
                      "argument '%.*s': bad INIT '%.*s' (zero, iota, rand or a %s constant: %s)",
                      (int)n, s, (int)(fe[3] - fs[3]), s + fs[3], la_type_spec_name(a->type), sub.msg);
    }
    return 0;
  }
  a->kind = ARG_SCALAR;
  if (la_lookup_type(F(0), &a->type)) {
    *bad = 0;
    return wm_err(e, WM_EUSAGE,
                  "argument '%.*s': unknown type '%.*s' (expected TYPE:VALUE or "
                  "buf:TYPE:COUNT[:INIT]; types: " TYPE_LIST ")",
                  (int)n, s, (int)(fe[0] - fs[0]), s + fs[0]);
  }
  if (nf != 2) {
    *bad = nf < 2 ? n : fe[1];
    return wm_err(e, WM_EUSAGE, "argument '%.*s': expected TYPE:VALUE", (int)n, s);
  }
  *bad = fs[1];
  if (la_parse_value(F(1), a->type, &a->bits, &sub))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': %s", (int)n, s, sub.msg);
#undef F
  return 0;
}

void la_store_le(uint8_t *p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The bits of integer i (iota) or of a random draw in type t. */
static uint64_t iota_bits(uint8_t t, uint64_t i) {
  if (t == PTX_T_F32) {
    float f = (float)i;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  if (t == PTX_T_F64) {
    double d = (double)i;
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  return i & width_mask(la_type_bytes(t));
}

static uint64_t rand_bits(uint8_t t, uint64_t *state) {
  uint64_t x = splitmix64(state);
  if (t == PTX_T_F32) {
    float f = (float)(x >> 40) * (1.0f / 16777216.0f); /* 24 bits: [0, 1) exactly */
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  if (t == PTX_T_F64) {
    double d = (double)(x >> 11) * (1.0 / 9007199254740992.0);
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  uint64_t range = t == PTX_T_S8 ? 128 : t == PTX_T_U8 ? 256 : 1024;
  return (x >> 32) % range;
}

/* store_le for one element; memcpy on little-endian hosts (the fill loops
 * run over up to billions of elements). */
static inline void store_elem(uint8_t *p, uint64_t v, unsigned es) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint8_t b1 = (uint8_t)v;
  uint16_t b2 = (uint16_t)v;
  uint32_t b4 = (uint32_t)v;
  switch (es) {
  case 1: memcpy(p, &b1, 1); break;
  case 2: memcpy(p, &b2, 2); break;
  case 4: memcpy(p, &b4, 4); break;
  default: memcpy(p, &v, 8); break;
  }
#else
  la_store_le(p, v, es);
#endif
}

static void fill(GBuf *b, const ArgSpec *a, uint8_t init, uint64_t seed, int argno) {
  unsigned es = la_type_bytes(a->type);
  uint8_t *d = b->data;
  switch (init) {
  case INIT_ZERO:
    break; /* gmem_alloc zeroes */
  case INIT_IOTA:
    for (uint64_t i = 0; i < a->count; i++) store_elem(d + i * es, iota_bits(a->type, i), es);
    break;
  case INIT_CONST:
    for (uint64_t i = 0; i < a->count; i++) store_elem(d + i * es, a->bits, es);
    break;
  default: { /* INIT_RAND */
    uint64_t st = seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(argno + 1));
    for (uint64_t i = 0; i < a->count; i++) store_elem(d + i * es, rand_bits(a->type, &st), es);
    break;
  }
  }
}

/* Allocates and fills the buffer of spec a (argument argno, or a member of
 * it) named `name`, and writes its address at slot. */
int la_bind_buffer(const ArgSpec *a, const char *name, int argno, GlobalMem *g, uint8_t *slot, InitKind dflt,
                   uint64_t seed, WmErr *e) {
  int bi = gmem_alloc(g, a->count * la_type_bytes(a->type), name, a->type, a->count, e);
  if (bi < 0) return -1;
  uint8_t init = a->init == INIT_DEFAULT ? (uint8_t)dflt : a->init;
  if (init == INIT_DEFAULT) init = INIT_RAND;
  fill(&g->buf[bi], a, init, seed, argno);
  la_store_le(slot, g->buf[bi].addr, 8);
  return 0;
}

