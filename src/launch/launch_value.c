/* launch_value.c - the types a spec can name and their literal values
 * (launch_agg.c and launch.c read specs with them).
 *
 * Notes:
 * - Scalars are range-checked for their type.  Decimal literals must fit the
 *   type's value range (i8: -128..127, u8: 0..255, ...); hexadecimal ones are
 *   bit patterns and may use the whole width (i32:0xffffffff is -1).  Floats
 *   take anything strtod reads (1, 1.5, -2e-3, inf, nan, 0x1p-3) or the PTX
 *   bit forms 0fXXXXXXXX (f32) and 0dXXXXXXXXXXXXXXXX (f64); f16 and bf16
 *   values are rounded to nearest even (util/half), and one beyond the
 *   format's largest is out of range.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch_int.h"
#include "util/half.h"

/* ---- types ------------------------------------------------------------- */

static const struct {
  const char *name;
  uint8_t type;
  uint8_t size;
} arg_types[] = {
  {"i8", PTX_T_S8, 1},   {"u8", PTX_T_U8, 1},   {"i16", PTX_T_S16, 2}, {"u16", PTX_T_U16, 2},
  {"i32", PTX_T_S32, 4}, {"u32", PTX_T_U32, 4}, {"i64", PTX_T_S64, 8}, {"u64", PTX_T_U64, 8},
  {"f32", PTX_T_F32, 4}, {"f64", PTX_T_F64, 8}, {"f16", PTX_T_F16, 2}, {"bf16", PTX_T_BF16, 2},
};
#define NTYPES (sizeof arg_types / sizeof arg_types[0])

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

static int type_float(uint8_t t) {
  return t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_BF16;
}

/* The PTX spelling of a .param type, for messages ("u64", "b8"). */
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

uint64_t la_width_mask(unsigned bytes) {
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
    if ((t == PTX_T_F32 || t == PTX_T_F64) && n == nhex + 2 && s[0] == '0' && (s[1] == (t == PTX_T_F32 ? 'f' : 'd') ||
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
    if (t == PTX_T_F16 || t == PTX_T_BF16) { /* rounded to nearest even; beyond the largest: out of range */
      uint16_t h = t == PTX_T_F16 ? wm_f16_from(d, WM_RND_NEAREST) : wm_bf16_from(d, WM_RND_NEAREST);
      if (isfinite(d) && isinf(t == PTX_T_F16 ? wm_f16_value(h) : wm_bf16_value(h)))
        return wm_err(e, WM_EUSAGE, "%.*s is out of range for %s", (int)n, s, tn);
      *bits = h;
    } else if (t == PTX_T_F32) {
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
  uint64_t umax = la_width_mask(bytes);
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
