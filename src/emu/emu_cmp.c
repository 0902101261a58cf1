/* emu_cmp.c - comparison and selection: setp, set, selp, slct, testp.
 * Float comparisons follow IEEE: ordered ones are false on NaN, the
 * unordered forms (.equ, .ltu, ...) true (emu_cmp_float); half types
 * compare in emu_half.c. */
#include <math.h>

#include "emu/emu_exec.h"

static inline int cmp_int(unsigned cmp, int64_t a, int64_t b, uint64_t ua, uint64_t ub) {
  switch (cmp) {
  case PTX_CMP_EQ: return a == b;
  case PTX_CMP_NE: return a != b;
  case PTX_CMP_LT: return a < b;
  case PTX_CMP_LE: return a <= b;
  case PTX_CMP_GT: return a > b;
  case PTX_CMP_GE: return a >= b;
  case PTX_CMP_LO: return ua < ub;
  case PTX_CMP_LS: return ua <= ub;
  case PTX_CMP_HI: return ua > ub;
  case PTX_CMP_HS: return ua >= ub;
  default: return 0;
  }
}

static inline int compare(const EmuInstr *x, uint64_t a, uint64_t b) {
  unsigned size = ptx_type_size((PtxType)x->type);
  switch (tclass(x->type)) {
  case C_F:
    if (size == 4) {
      float fa = F32(a), fb = F32(b);
      if (x->flags & PTX_IF_FTZ) fa = ftz32(fa), fb = ftz32(fb);
      return emu_cmp_float(x->cmp, fa, fb);
    }
    return emu_cmp_float(x->cmp, F64(a), F64(b));
  case C_S: return cmp_int(x->cmp, sext(a, size), sext(b, size), zext(a, size), zext(b, size));
  default: {
    /* unsigned and bit types: lt/le/gt/ge compare as unsigned */
    uint64_t ua = zext(a, size), ub = zext(b, size);
    unsigned c = x->cmp;
    if (c == PTX_CMP_LT) c = PTX_CMP_LO;
    else if (c == PTX_CMP_LE) c = PTX_CMP_LS;
    else if (c == PTX_CMP_GT) c = PTX_CMP_HI;
    else if (c == PTX_CMP_GE) c = PTX_CMP_HS;
    return cmp_int(c, (int64_t)ua, (int64_t)ub, ua, ub);
  }
  }
}


/* The lanes of `mask` for which a CMP b holds, as a bit mask: the common
 * type/comparison pairs as straight loops, the rest through compare(). */
static uint32_t compare_lanes(const EmuInstr *x, uint32_t mask, const uint64_t *a, const uint64_t *bb) {
  uint32_t v = 0;
#define CMP_LOOP(GET, OP) LANES(mask, v |= (uint32_t)(GET(a[l]) OP GET(bb[l])) << l)
#define CMP_SWITCH(GET)                                  \
  switch (x->cmp) {                                      \
  case PTX_CMP_EQ: CMP_LOOP(GET, ==); return v;          \
  case PTX_CMP_NE: CMP_LOOP(GET, !=); return v;          \
  case PTX_CMP_LT: case PTX_CMP_LO: CMP_LOOP(GET, <); return v;  \
  case PTX_CMP_LE: case PTX_CMP_LS: CMP_LOOP(GET, <=); return v; \
  case PTX_CMP_GT: case PTX_CMP_HI: CMP_LOOP(GET, >); return v;  \
  case PTX_CMP_GE: case PTX_CMP_HS: CMP_LOOP(GET, >=); return v; \
  default: break;                                        \
  }
#define GET_S32(r) ((int32_t)(r))
#define GET_U32(r) ((uint32_t)(r))
#define GET_S64(r) ((int64_t)(r))
#define GET_U64(r) (r)
  switch (x->type) {
  case PTX_T_S32: CMP_SWITCH(GET_S32) break;
  case PTX_T_U32: case PTX_T_B32: CMP_SWITCH(GET_U32) break;
  case PTX_T_S64: CMP_SWITCH(GET_S64) break;
  case PTX_T_U64: case PTX_T_B64: CMP_SWITCH(GET_U64) break;
  case PTX_T_F32:
    /* ordered comparisons are false on NaN, as C's are; != is not */
    if (!(x->flags & PTX_IF_FTZ) && x->cmp != PTX_CMP_NE && x->cmp >= PTX_CMP_EQ && x->cmp <= PTX_CMP_GE) {
      CMP_SWITCH(F32)
    }
    break;
  default: break;
  }
#undef CMP_LOOP
#undef CMP_SWITCH
#undef GET_S32
#undef GET_U32
#undef GET_S64
#undef GET_U64
  LANES(mask, v |= (uint32_t)compare(x, a[l], bb[l]) << l);
  return v;
}

int emu_exec_setp(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *bb = SRC(1);
  uint64_t *p = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *q = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  uint32_t v = compare_lanes(x, mask, a, bb), nv = ~v;
  if (x->s[2] != EMU_NOSLOT) { /* combine with the c predicate */
    uint32_t c = pred_mask(SRC(2));
    if (x->s_neg[2]) c = ~c;
    switch (x->sub) {
    case PTX_SUB_BAND: v &= c, nv &= c; break;
    case PTX_SUB_BOR: v |= c, nv |= c; break;
    case PTX_SUB_BXOR: v ^= c, nv ^= c; break;
    default: break;
    }
  }
  if (p) LANES(mask, p[l] = v >> l & 1);
  if (q) LANES(mask, q[l] = nv >> l & 1);
  return 0;
}

int emu_exec_selp(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  uint64_t *d = DST(0);
  LANES(mask, d[l] = (c[l] & 1) ? a[l] : bb[l]);
  return 0;
}

/* slct: c >= 0, with c of type2 */
int emu_exec_slct(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  uint64_t *d = DST(0);
  int f = x->type2 == PTX_T_F32;
  LANES(mask, d[l] = (f ? F32(c[l]) >= 0.0f : (int32_t)c[l] >= 0) ? a[l] : bb[l]);
  return 0;
}

int emu_exec_set(EMU_EXEC_ARGS) {
  /* set.CMP.DTYPE.STYPE d, a, b[, c]: compare as STYPE (type2) */
  EmuInstr cx = *x;
  cx.type = x->type2;
  const uint64_t *a = SRC(0), *bb = SRC(1);
  const uint64_t *c = x->ns > 2 ? SRC(2) : NULL;
  uint64_t *d = DST(0);
  /* true: 1.0 in a float dtype (f16 and bf16 too), else all ones */
  uint64_t one = x->type == PTX_T_F32 ? B32(1.0f) : x->type == PTX_T_F16 ? 0x3c00u
               : x->type == PTX_T_BF16 ? 0x3f80u : zext(~0ull, ptx_type_size((PtxType)x->type));
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int v = emu_boolop(x->sub, compare(&cx, a[l], bb[l]), c ? (int)(c[l] & 1) ^ x->s_neg[2] : 1);
    d[l] = v ? one : 0;
  }
  return 0;
}

int emu_exec_testp(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0);
  uint64_t *d = DST(0);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    double v = x->type == PTX_T_F32 ? (double)F32(a[l]) : F64(a[l]);
    int cls = x->type == PTX_T_F32 ? fpclassify(F32(a[l])) : fpclassify(v);
    int r;
    switch (x->sub) {
    case PTX_SUB_FINITE: r = isfinite(v); break;
    case PTX_SUB_INFINITE: r = isinf(v); break;
    case PTX_SUB_NUMBER: r = !isnan(v); break;
    case PTX_SUB_NOTANUMBER: r = isnan(v); break;
    case PTX_SUB_NORMAL: r = cls == FP_NORMAL || cls == FP_ZERO; break; /* PTX: zeros count as normal */
    default: r = cls == FP_SUBNORMAL; break;
    }
    d[l] = (uint64_t)r;
  }
  return 0;
}
