/* emu_cvt.c - moving and converting values: mov (with vector packing),
 * cvt between the integer, f32 and f64 types with PTX's rounding and
 * saturation (the half types convert in emu_half.c), cvta between a state
 * space and the generic address windows (emu_int.h), mapa and getctarank
 * (shared::cluster addresses: emu_exec.h, EMU_DSM_SHIFT). */
#include <fenv.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emu/emu_exec.h"

double emu_round_int(unsigned rnd, double v) {
  switch (rnd) {
  case PTX_RND_RNI: return nearbyint(v); /* default mode: to nearest even */
  case PTX_RND_RZI: return trunc(v);
  case PTX_RND_RMI: return floor(v);
  case PTX_RND_RPI: return ceil(v);
  default: return v;
  }
}

uint64_t emu_cvt_f2i(double v, unsigned rnd, int sign, unsigned size) {
  if (isnan(v)) return 0;
  v = emu_round_int(rnd ? rnd : PTX_RND_RZI, v);
  if (sign) {
    double lo = -ldexp(1.0, (int)size * 8 - 1), hi = ldexp(1.0, (int)size * 8 - 1);
    if (v < lo) return (uint64_t)(int64_t)lo;
    if (v >= hi) return size == 8 ? (uint64_t)INT64_MAX : (uint64_t)((1ull << (size * 8 - 1)) - 1);
    return (uint64_t)(int64_t)v;
  }
  if (v <= 0) return 0;
  if (v >= ldexp(1.0, (int)size * 8)) return size == 8 ? UINT64_MAX : (1ull << (size * 8)) - 1;
  return (uint64_t)v;
}

int emu_fe_mode(unsigned rnd) {
  switch (rnd) {
  case PTX_RND_RZ: return FE_TOWARDZERO;
  case PTX_RND_RM: return FE_DOWNWARD;
  case PTX_RND_RP: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

/* f16, bf16, their pairs and the narrow formats convert in emu_half.c:
 * emu_half_select routes every cvt that names one there. */
int emu_exec_cvt(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0);
  uint64_t *d = DST(0);
  unsigned dt = x->type, st = x->type2, ds = ptx_type_size((PtxType)dt), ss = ptx_type_size((PtxType)st);
  Class dc = tclass(dt), sc = tclass(st);
  int ftz = x->flags & PTX_IF_FTZ, sat = x->flags & PTX_IF_SAT;
  int old_mode = fegetround();
  if (dc == C_F && x->rnd >= PTX_RND_RN && x->rnd <= PTX_RND_RP) fesetround(emu_fe_mode(x->rnd));
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t v = a[l], out;
    if (sc == C_F) {
      double f = ss == 4 ? (double)F32(v) : F64(v);
      if (ftz && ss == 4) f = ftz32((float)f);
      if (dc == C_F) {
        if (x->rnd >= PTX_RND_RNI && x->rnd <= PTX_RND_RPI) f = emu_round_int(x->rnd, f);
        if (ds == 4) {
          volatile float r = (float)f; /* rounded in the current mode */
          float rf = ftz ? ftz32(r) : r;
          out = B32(sat ? satf(rf) : rf);
        } else out = B64(sat ? (isnan(f) ? 0.0 : f < 0 ? 0.0 : f > 1 ? 1.0 : f) : f);
      } else {
        out = zext(emu_cvt_f2i(f, x->rnd, dc == C_S, ds), ds);
      }
    } else {
      int64_t iv = sc == C_S ? sext(v, ss) : (int64_t)zext(v, ss);
      uint64_t uv = zext(v, ss);
      if (dc == C_F) {
        if (ds == 4) {
          volatile float r = sc == C_S ? (float)iv : (float)uv;
          out = B32(sat ? satf(r) : r);
        } else {
          volatile double r = sc == C_S ? (double)iv : (double)uv;
          out = B64(r);
        }
      } else if (sat) {
        /* clamp to the destination's range */
        if (dc == C_S) {
          int64_t lo = ds == 8 ? INT64_MIN : -(int64_t)(1ull << (ds * 8 - 1));
          int64_t hi = ds == 8 ? INT64_MAX : (int64_t)((1ull << (ds * 8 - 1)) - 1);
          if (sc == C_U && uv > (uint64_t)hi) iv = hi;
          else iv = iv < lo ? lo : iv > hi ? hi : iv;
          out = zext((uint64_t)iv, ds);
        } else {
          uint64_t hi = ds == 8 ? UINT64_MAX : (1ull << (ds * 8)) - 1;
          if (sc == C_S && iv < 0) out = 0;
          else out = uv > hi ? hi : uv;
        }
      } else {
        out = dc == C_S ? (uint64_t)sext((uint64_t)iv, ds) : zext((uint64_t)iv, ds);
        out = zext(out, ds);
        if (dc == C_S && ds < 8) out = (uint64_t)sext(out, ds);
      }
    }
    d[l] = out;
  }
  fesetround(old_mode);
  return 0;
}

int emu_exec_mov(EMU_EXEC_ARGS) {
  unsigned size = ptx_type_size((PtxType)x->type);
  if (x->nd > 1) { /* mov.b64 {lo, hi}, a: unpack */
    unsigned part = size / x->nd * 8;
    const uint64_t *a = SRC(0);
    for (unsigned i = 0; i < x->nd; i++) {
      if (x->d[i] == EMU_NOSLOT) continue;
      uint64_t *d = DST(i);
      LANES(mask, d[l] = zext(a[l] >> (part * i), part / 8));
    }
    return 0;
  }
  uint64_t *d = DST(0);
  if (x->ns > 1) { /* mov.b64 d, {lo, hi}: pack */
    unsigned part = size / x->ns * 8;
    LANES(mask, d[l] = 0);
    for (unsigned i = 0; i < x->ns; i++) {
      const uint64_t *a = SRC(i);
      LANES(mask, d[l] |= zext(a[l], part / 8) << (part * i));
    }
    return 0;
  }
  if (x->aux != EMU_CLOCK_NONE) { /* the block's warp instructions so far: one per cycle */
    uint64_t t = b->warp_instrs + b->slice_instrs, v = x->aux == EMU_CLOCK_HIGH ? t >> 32 : size == 4 ? (uint32_t)t : t;
    LANES(mask, d[l] = v);
    return 0;
  }
  const uint64_t *a = SRC(0);
  LANES(mask, d[l] = a[l]);
  return 0;
}
int emu_exec_cvta(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0);
  uint64_t *d = DST(0);
  uint64_t win = x->space == PTX_S_SHARED || x->space == PTX_S_CLUSTER ? EMU_SHARED_WIN
               : x->space == PTX_S_LOCAL ? EMU_LOCAL_WIN
               : x->space == PTX_S_CONST ? EMU_CONST_WIN
               : x->space == PTX_S_PARAM ? EMU_PARAM_WIN : 0;
  unsigned size = ptx_type_size((PtxType)x->type);
  if (x->sub == PTX_SUB_TO) LANES(mask, d[l] = zext(a[l] - win, size));
  else LANES(mask, d[l] = zext(a[l] + win, size));
  return 0;
}

/* The shared::cluster address in lane l's a: a itself (.shared::cluster),
 * or a generic one's offset in the shared window (which holds peers' too:
 * EMU_SHARED_WIN + a shared::cluster address).  0, or -1 after a fault. */
static int cluster_address(Block *b, const EmuInstr *x, int warp, int l, uint64_t a, uint32_t *out) {
  if (x->space == PTX_S_CLUSTER) {
    *out = (uint32_t)a;
    return 0;
  }
  if (a - EMU_SHARED_WIN >= EMU_WIN_SIZE)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s: generic address 0x%" PRIx64 " is not in shared memory",
                     ptx_op_name[x->op], a);
  *out = (uint32_t)(a - EMU_SHARED_WIN);
  return 0;
}

/* mapa d, a, rank (PTX ISA, mapa): the address of the same offset as a in
 * the shared memory of the cluster's block `rank`, tagged with it
 * (EMU_DSM_SHIFT); generic in, generic out (mapa.u64), shared::cluster in,
 * shared::cluster out (mapa.shared::cluster.u32). */
int emu_exec_mapa(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *rank = SRC(1);
  uint64_t *d = DST(0);
  unsigned size = ptx_type_size((PtxType)x->type);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t r = (uint32_t)rank[l], ca = 0;
    if (cluster_address(b, x, warp, l, a[l], &ca)) return -1;
    if (!emu_cluster_peer(b, r)) {
      uint32_t n = b->cluster ? b->cluster->n : 1;
      return emu_fault(b, x, warp, l, WM_EFAULT, "mapa to block rank %u of the cluster, which has %u block%s "
                       "(ranks 0 to %u)", r, n, n == 1 ? "" : "s", n - 1);
    }
    uint64_t t = (ca & EMU_DSM_OFF_MASK) | (uint64_t)(r + 1) << EMU_DSM_SHIFT;
    d[l] = zext(x->space == PTX_S_CLUSTER ? t : EMU_SHARED_WIN + t, size);
  }
  return 0;
}

/* getctarank d, a (PTX ISA, getctarank): the cluster rank of the block
 * whose shared memory a (shared::cluster or generic) lies in. */
int emu_exec_getctarank(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0);
  uint64_t *d = DST(0);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t ca = 0;
    if (cluster_address(b, x, warp, l, a[l], &ca)) return -1;
    uint32_t tag = ca >> EMU_DSM_SHIFT;
    d[l] = tag ? tag - 1 : b->crank;
  }
  return 0;
}
