/* launch_tmap.c - tensor maps as kernel arguments: the tmap: spec, read
 * into the Tmap the emulator's driver would encode (emu/emu_tmap.h); the
 * binding (launch.c) allocates and fills the tensor's buffer as buf: does
 * and writes the 128-byte map into a `const __grid_constant__ CUtensorMap`
 * parameter (.param .align 64 .b8 [128]), or into a buffer of its own whose
 * address a pointer parameter gets (a map the application copied to global
 * memory).
 *
 * Grammar (launch.h):
 *   tmap:TYPE:DIMS:box=BOX{:OPT}          tiled (cuTensorMapEncodeTiled)
 *   tmap:TYPE:DIMS:im2col=CxP{:OPT}       im2col: C channels per pixel, P
 *                                         pixels per column (..EncodeIm2col)
 *   TYPE := u8 u16 u32 i32 u64 i64 f16 bf16 f32 f64 tf32 f32ftz tf32ftz
 *   DIMS := D0xD1[x...]  globalDim, innermost first, as the driver takes it
 *   BOX  := B0xB1[x...]  boxDim, one per dimension
 *   OPT  := swz=none|32|64|128        swizzle (none by default)
 *         | oob=zero|nan              the fill of elements outside the tensor
 *         | l2=none|64|128|256        L2 promotion
 *         | interleave=none|16|32
 *         | estride=E0xE1[x...]       elementStrides (1 each by default)
 *         | stride=S1[xS2...]         globalStrides in bytes, dimensions 1 and
 *                                     up (by default dense: dimension 0's
 *                                     bytes rounded up to 16, then products)
 *         | lower=L1[xL2...] | upper=U1[xU2...]   im2col corners, W first
 *                                     (0 by default)
 *         | over=N                    the tensor is argument N's buffer (an
 *                                     earlier buf: or tmap:), from its start
 *         | zero | iota | rand | CONSTANT   its own buffer's contents, as buf:
 * The map is checked as the driver checks an encode call (tmap_check): a
 * spec the driver would refuse is an error naming the field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch_int.h"

static int word(const char *s, size_t n, const char *w) { return strlen(w) == n && !memcmp(s, w, n); }

/* The buffer element type of a map's data type (tf32 is stored in f32s). */
static uint8_t buffer_type(unsigned dtype) {
  static const uint8_t t[TMAP_T_COUNT] = {
    [TMAP_T_UINT8] = PTX_T_U8,     [TMAP_T_UINT16] = PTX_T_U16,   [TMAP_T_UINT32] = PTX_T_U32,
    [TMAP_T_INT32] = PTX_T_S32,    [TMAP_T_UINT64] = PTX_T_U64,   [TMAP_T_INT64] = PTX_T_S64,
    [TMAP_T_FLOAT16] = PTX_T_F16,  [TMAP_T_FLOAT32] = PTX_T_F32,  [TMAP_T_FLOAT64] = PTX_T_F64,
    [TMAP_T_BFLOAT16] = PTX_T_BF16, [TMAP_T_FLOAT32_FTZ] = PTX_T_F32, [TMAP_T_TFLOAT32] = PTX_T_F32,
    [TMAP_T_TFLOAT32_FTZ] = PTX_T_F32,
  };
  return dtype < TMAP_T_COUNT ? t[dtype] : PTX_T_NONE;
}

/* N0xN1x... (signed when `sign`): up to `max` numbers into v; their count,
 * or -1. */
static int numbers(const char *s, size_t n, int sign, int64_t *v, int max) {
  int k = 0;
  for (size_t i = 0; i <= n;) {
    size_t j = i;
    while (j < n && s[j] != 'x') j++;
    const char *p = s + i;
    size_t len = j - i;
    int neg = sign && len && p[0] == '-';
    uint64_t u;
    int hex;
    if (k == max || la_parse_uint(p + neg, len - (size_t)neg, &u, &hex) || u > (1ull << 40)) return -1;
    v[k++] = neg ? -(int64_t)u : (int64_t)u;
    i = j + 1;
  }
  return k;
}

/* One OPT into t (or over, init); *seen holds the options given. */
static int option(const char *s, size_t n, ArgSpec *a, Tmap *t, int *over, unsigned *seen, WmErr *e) {
  static const char *const keys[] = {"swz", "oob", "l2", "interleave", "estride", "stride", "lower", "upper", "over"};
  const char *eq = memchr(s, '=', n);
  int64_t v[TMAP_MAX_RANK];
  unsigned k = 0;
  while (eq && k < 9 && !word(s, (size_t)(eq - s), keys[k])) k++;
  if (!eq || k == 9) { /* the contents */
    uint8_t bt = buffer_type(t->dtype);
    WmErr sub = {0};
    k = 9;
    if (word(s, n, "zero")) a->init = INIT_ZERO;
    else if (word(s, n, "iota")) a->init = INIT_IOTA;
    else if (word(s, n, "rand")) a->init = INIT_RAND;
    else if (la_parse_value(s, n, bt, &a->bits, &sub) == 0) a->init = INIT_CONST;
    else
      return wm_err(e, WM_EUSAGE, "unknown option '%.*s' (swz= oob= l2= interleave= estride= stride= lower= upper= "
                    "over=, or zero iota rand or a %s constant)", (int)n, s, tmap_type_name(t->dtype));
  }
  if (*seen >> k & 1) return wm_err(e, WM_EUSAGE, "'%.*s' repeats an earlier option", (int)n, s);
  *seen |= 1u << k;
  if (k == 9) return 0;
  const char *val = eq + 1;
  size_t vn = n - (size_t)(val - s);
  int cnt = 0;
  switch (k) {
  case 0: /* swz */
    t->swizzle = word(val, vn, "none") ? TMAP_SWIZZLE_NONE : word(val, vn, "32") ? TMAP_SWIZZLE_32B
               : word(val, vn, "64") ? TMAP_SWIZZLE_64B : word(val, vn, "128") ? TMAP_SWIZZLE_128B : 99;
    if (t->swizzle == 99) return wm_err(e, WM_EUSAGE, "'%.*s': swz= takes none, 32, 64 or 128", (int)n, s);
    return 0;
  case 1:
    if (!word(val, vn, "zero") && !word(val, vn, "nan")) return wm_err(e, WM_EUSAGE, "'%.*s': oob= takes zero or nan", (int)n, s);
    t->oobfill = word(val, vn, "nan") ? TMAP_OOB_NAN : TMAP_OOB_ZERO;
    return 0;
  case 2:
    t->l2promo = word(val, vn, "none") ? TMAP_L2_NONE : word(val, vn, "64") ? TMAP_L2_64B
               : word(val, vn, "128") ? TMAP_L2_128B : word(val, vn, "256") ? TMAP_L2_256B : 99;
    if (t->l2promo == 99) return wm_err(e, WM_EUSAGE, "'%.*s': l2= takes none, 64, 128 or 256", (int)n, s);
    return 0;
  case 3:
    t->interleave = word(val, vn, "none") ? TMAP_INTERLEAVE_NONE : word(val, vn, "16") ? TMAP_INTERLEAVE_16B
                  : word(val, vn, "32") ? TMAP_INTERLEAVE_32B : 99;
    if (t->interleave == 99) return wm_err(e, WM_EUSAGE, "'%.*s': interleave= takes none, 16 or 32", (int)n, s);
    return 0;
  case 8:
    if (numbers(val, vn, 0, v, 1) != 1 || v[0] >= LAUNCH_MAX_ARGS)
      return wm_err(e, WM_EUSAGE, "'%.*s': over= takes an argument number", (int)n, s);
    *over = (int)v[0];
    return 0;
  default:
    break;
  }
  int want = k == 4 ? t->rank : k == 5 ? t->rank - 1 : t->rank - 2;
  cnt = numbers(val, vn, k >= 6, v, TMAP_MAX_RANK);
  if (cnt != want || want <= 0)
    return wm_err(e, WM_EUSAGE, "'%.*s': %s takes %d number%s for a rank-%u map (x between them)%s", (int)n, s,
                  keys[k], want, want == 1 ? "" : "s", t->rank, k >= 6 && !t->im2col ? "; it is for im2col maps" : "");
  for (int i = 0; i < cnt; i++) {
    if (k == 4) t->estride[i] = (uint32_t)v[i];
    if (k == 5) t->stride[i + 1] = (uint64_t)v[i];
    if (k == 6) t->lower[i] = (int32_t)v[i];
    if (k == 7) t->upper[i] = (int32_t)v[i];
  }
  return 0;
}

/* The driver's default: dense, each row padded to 16 bytes. */
static void dense_strides(Tmap *t) {
  uint64_t es = tmap_type_bits(t->dtype) / 8;
  t->stride[0] = es;
  if (t->rank > 1) t->stride[1] = (t->dim[0] * es + 15) / 16 * 16;
  for (unsigned i = 2; i < t->rank; i++) t->stride[i] = t->stride[i - 1] * t->dim[i - 1];
}

uint64_t lc_tmap_extent(const Tmap *t) {
  uint64_t end = t->dim[0] * (tmap_type_bits(t->dtype) / 8);
  for (unsigned i = 1; i < t->rank; i++) end += (t->dim[i] - 1) * t->stride[i];
  return end;
}

/* tmap:TYPE:DIMS:box=BOX|im2col=CxP{:OPT}, the Tmap (address 0). */
static int parse(const char *s, size_t n, ArgSpec *a, Tmap *t, int *over, size_t *bad, WmErr *e) {
  size_t fs[16], fe[16];
  int nf = 0;
  for (size_t i = 0;; i++) {
    size_t j = i;
    while (j < n && s[j] != ':') j++;
    if (nf == 16) return *bad = i, wm_err(e, WM_EUSAGE, "argument '%.*s': too many ':' fields", (int)n, s);
    fs[nf] = i, fe[nf++] = j;
    if (j == n) break;
    i = j;
  }
#define F(k) (s + fs[k]), (fe[k] - fs[k])
  memset(t, 0, sizeof *t);
  *over = -1;
  a->kind = ARG_TMAP;
  a->init = INIT_DEFAULT;
  if (nf < 4) return *bad = n, wm_err(e, WM_EUSAGE, "argument '%.*s': expected tmap:TYPE:DIMS:box=BOX[:OPTION...] "
                                      "or tmap:TYPE:DIMS:im2col=CxP[:OPTION...]", (int)n, s);
  int dt = tmap_type_of(F(1));
  if (dt < 0 || tmap_type_is_packed((unsigned)dt))
    return *bad = fs[1], wm_err(e, WM_EUSAGE, "argument '%.*s': unknown tensor type '%.*s' (u8 u16 u32 i32 u64 i64 "
                                "f16 bf16 f32 f64 tf32 f32ftz tf32ftz)", (int)n, s, (int)(fe[1] - fs[1]), s + fs[1]);
  t->dtype = (uint8_t)dt;
  int64_t v[TMAP_MAX_RANK];
  int rank = numbers(F(2), 0, v, TMAP_MAX_RANK);
  if (rank < 1) return *bad = fs[2], wm_err(e, WM_EUSAGE, "argument '%.*s': dimensions '%.*s': expected D0xD1... "
                                             "(innermost first, 1 to 5 of them)", (int)n, s, (int)(fe[2] - fs[2]), s + fs[2]);
  t->rank = (uint8_t)rank;
  for (int i = 0; i < rank; i++) t->dim[i] = (uint64_t)v[i], t->estride[i] = 1;
  dense_strides(t);
  *bad = fs[3];
  const char *b = s + fs[3];
  size_t bn = fe[3] - fs[3];
  t->im2col = bn > 7 && !memcmp(b, "im2col=", 7);
  if (!t->im2col && !(bn > 4 && !memcmp(b, "box=", 4)))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': expected box=B0xB1... or im2col=CxP after the dimensions", (int)n, s);
  int nb = numbers(b + (t->im2col ? 7 : 4), bn - (t->im2col ? 7 : 4), 0, v, TMAP_MAX_RANK);
  if (nb != (t->im2col ? 2 : rank))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': %s", (int)n, s,
                  t->im2col ? "im2col= takes CxP: channels per pixel x pixels per column" : "box= takes one size per dimension");
  for (int i = 0; i < nb && !t->im2col; i++) t->box[i] = (uint32_t)v[i];
  if (t->im2col) t->channels = (uint32_t)v[0], t->pixels = (uint32_t)v[1];
  unsigned seen = 0;
  for (int k = 4; k < nf; k++) {
    WmErr sub = {0};
    *bad = fs[k];
    if (option(F(k), a, t, over, &seen, &sub)) return wm_err(e, WM_EUSAGE, "argument '%.*s': %s", (int)n, s, sub.msg);
  }
#undef F
  char why[300];
  *bad = fs[2];
  if (tmap_check(t, NULL, why, sizeof why))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': cuTensorMapEncode%s would refuse it: %s", (int)n, s,
                  t->im2col ? "Im2col" : "Tiled", why);
  if (*over >= 0 && (seen >> 9 & 1))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': over=N shares argument N's buffer; its contents are N's", (int)n, s);
  return 0;
}

int lc_parse_tmap(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e) {
  Tmap t;
  int over;
  if (parse(s, n, a, &t, &over, bad, e)) return -1;
  a->type = buffer_type(t.dtype);
  uint64_t bytes = lc_tmap_extent(&t), es = tmap_type_bits(t.dtype) / 8;
  if (bytes > (1ull << 40)) return wm_err(e, WM_EUSAGE, "argument '%.*s': a tensor of over 1 TiB", (int)n, s);
  a->count = over >= 0 ? 0 : (bytes + es - 1) / es;
  return 0;
}

int lc_tmap_of(const ArgSpec *a, Tmap *t, int *over, WmErr *e) {
  ArgSpec tmp;
  size_t bad;
  memset(&tmp, 0, sizeof tmp);
  return parse(a->text, strlen(a->text), &tmp, t, over, &bad, e);
}
