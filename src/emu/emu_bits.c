/* emu_bits.c - bit manipulation, one function per opcode (the exec
 * column of ptx_ops.h): logic (also on predicates), shifts, counts, bit
 * fields, byte permutes, funnel shifts, lop3 and fns. */
#include "emu/emu_exec.h"

/* The operands every function below reads: d = f(a, s1, s2, s3). */
#define OPERANDS                                                               \
  unsigned size = ptx_type_size((PtxType)x->type), bits = size * 8;            \
  uint64_t *d = DST(0);                                                        \
  const uint64_t *a = SRC(0);                                                  \
  const uint64_t *s1 = x->ns > 1 ? SRC(1) : a;                                 \
  const uint64_t *s2 = x->ns > 2 ? SRC(2) : a;                                 \
  const uint64_t *s3 = x->ns > 3 ? SRC(3) : a;                                 \
  (void)bits, (void)s1, (void)s2, (void)s3

int emu_exec_and(EMU_EXEC_ARGS) {
  OPERANDS;
  if (x->type == PTX_T_PRED) LANES(mask, d[l] = (a[l] & s1[l]) & 1);
  else LANES(mask, d[l] = a[l] & s1[l]);
  return 0;
}

int emu_exec_or(EMU_EXEC_ARGS) {
  OPERANDS;
  if (x->type == PTX_T_PRED) LANES(mask, d[l] = (a[l] | s1[l]) & 1);
  else LANES(mask, d[l] = a[l] | s1[l]);
  return 0;
}

int emu_exec_xor(EMU_EXEC_ARGS) {
  OPERANDS;
  if (x->type == PTX_T_PRED) LANES(mask, d[l] = (a[l] ^ s1[l]) & 1);
  else LANES(mask, d[l] = a[l] ^ s1[l]);
  return 0;
}

int emu_exec_not(EMU_EXEC_ARGS) {
  OPERANDS;
  if (x->type == PTX_T_PRED) LANES(mask, d[l] = ~a[l] & 1);
  else LANES(mask, d[l] = zext(~a[l], size));
  return 0;
}

int emu_exec_cnot(EMU_EXEC_ARGS) {
  OPERANDS;
  LANES(mask, d[l] = zext(a[l], size) == 0);
  return 0;
}

int emu_exec_shl(EMU_EXEC_ARGS) {
  OPERANDS;
  LANES(mask, d[l] = (uint32_t)s1[l] >= bits ? 0 : zext(a[l] << (uint32_t)s1[l], size));
  return 0;
}

int emu_exec_shr(EMU_EXEC_ARGS) {
  OPERANDS;
  if (ptx_type_is_signed((PtxType)x->type))
    LANES(mask, d[l] = zext((uint64_t)(sext(a[l], size) >> ((uint32_t)s1[l] >= bits ? bits - 1 : (uint32_t)s1[l])), size));
  else
    LANES(mask, d[l] = (uint32_t)s1[l] >= bits ? 0 : zext(a[l], size) >> (uint32_t)s1[l]);
  return 0;
}

int emu_exec_popc(EMU_EXEC_ARGS) {
  OPERANDS;
  LANES(mask, d[l] = (uint64_t)__builtin_popcountll(zext(a[l], size)));
  return 0;
}

int emu_exec_clz(EMU_EXEC_ARGS) {
  OPERANDS;
  LANES(mask, d[l] = zext(a[l], size) == 0 ? bits : (uint64_t)(__builtin_clzll(zext(a[l], size)) - (64 - (int)bits)));
  return 0;
}

int emu_exec_brev(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t v = a[l], r = 0;
    for (unsigned i = 0; i < bits; i++) r |= ((v >> i) & 1) << (bits - 1 - i);
    d[l] = r;
  }
  return 0;
}

int emu_exec_bfe(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    unsigned pos = (uint8_t)s1[l], len = (uint8_t)s2[l];
    uint64_t v = zext(a[l], size), r;
    int sign = ptx_type_is_signed((PtxType)x->type);
    /* d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit, where sbit is
     * a[min(pos+len-1, msb)] for signed types (0 for unsigned or len 0):
     * the n bits that exist, then the sign bit above them */
    if (len == 0) r = 0;
    else {
      unsigned n = pos >= bits ? 0 : bits - pos < len ? bits - pos : len;
      uint64_t field = n == 0 ? 0 : v >> pos;
      if (n < 64) field &= (1ull << n) - 1;
      unsigned top = pos + len - 1 >= bits ? bits - 1 : pos + len - 1;
      if (sign && n < 64 && ((v >> top) & 1)) field |= ~0ull << n;
      r = zext(field, size);
    }
    d[l] = r;
  }
  return 0;
}

int emu_exec_bfi(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    unsigned pos = (uint8_t)s2[l], len = (uint8_t)s3[l];
    uint64_t f = a[l], base = zext(s1[l], size);
    if (len && pos < bits) {
      uint64_t msk = (len >= 64 ? ~0ull : (1ull << len) - 1) << pos;
      base = (base & ~msk) | ((f << pos) & msk);
    }
    d[l] = zext(base, size);
  }
  return 0;
}

int emu_exec_prmt(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t bytes = ((uint64_t)(uint32_t)s1[l] << 32) | (uint32_t)a[l];
    uint32_t sel = (uint32_t)s2[l], r = 0;
    for (int i = 0; i < 4; i++) {
      unsigned s = (sel >> (4 * i)) & 0xf;
      uint32_t byte = (uint32_t)(bytes >> ((s & 7) * 8)) & 0xff;
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
      r |= byte << (8 * i);
    }
    d[l] = r;
  }
  return 0;
}

/* bmsk and szext: the PTX ISA's semantics, the position and width taken
 * mod 32 (.wrap) or as they are (.clamp). */
int emu_exec_bmsk(EMU_EXEC_ARGS) {
  OPERANDS;
  int clamp = x->sub == PTX_SUB_CLAMP;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t pa = (uint32_t)a[l], wb = (uint32_t)s1[l], a1 = pa & 31, b1 = wb & 31;
    uint64_t mask0 = clamp && pa >= 32 ? 0 : (uint64_t)UINT32_MAX << a1 & UINT32_MAX;
    uint64_t mask1 = (uint64_t)UINT32_MAX << (a1 + b1) & UINT32_MAX;
    if (a1 + b1 >= 32 || (clamp && (pa >= 32 || wb >= 32))) mask1 = 0;
    else if (b1 == 0) mask1 = UINT32_MAX;
    d[l] = (uint32_t)(mask0 & ~mask1);
  }
  return 0;
}

int emu_exec_szext(EMU_EXEC_ARGS) {
  OPERANDS;
  int clamp = x->sub == PTX_SUB_CLAMP, sign = x->type == PTX_T_S32;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t v = (uint32_t)a[l], n = (uint32_t)s1[l], b1 = n & 31;
    int whole = clamp && n >= 32;
    uint32_t hi = whole ? 0 : UINT32_MAX << b1; /* the bits above the field */
    int neg = sign && b1 && !whole && (v >> ((b1 - 1) & 31) & 1);
    d[l] = (v & ~hi) | (neg ? hi : 0);
  }
  return 0;
}

int emu_exec_shf(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t v = (uint64_t)(uint32_t)s1[l] << 32 | (uint32_t)a[l];
    uint32_t n = (uint32_t)s2[l];
    int wrap = x->sub == PTX_SUB_SHF_L_WRAP || x->sub == PTX_SUB_SHF_R_WRAP;
    n = wrap ? n & 31 : n > 32 ? 32 : n;
    if (x->sub == PTX_SUB_SHF_L_WRAP || x->sub == PTX_SUB_SHF_L_CLAMP) d[l] = (uint32_t)((v << n) >> 32);
    else d[l] = (uint32_t)(v >> n);
  }
  return 0;
}

int emu_exec_bfind(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t v = zext(a[l], size);
    if (ptx_type_is_signed((PtxType)x->type) && (v >> (bits - 1)) & 1) v = zext(~v, size);
    uint64_t r = 0xffffffffu;
    if (v) {
      unsigned pos = 63u - (unsigned)__builtin_clzll(v);
      r = x->sub == PTX_SUB_SHIFTAMT ? bits - 1 - pos : pos;
    }
    d[l] = r;
  }
  return 0;
}

int emu_exec_lop3(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t r = 0, lut = (uint8_t)s3[l];
    for (unsigned i = 0; i < bits; i++) {
      unsigned idx = (unsigned)(((a[l] >> i) & 1) << 2 | ((s1[l] >> i) & 1) << 1 | ((s2[l] >> i) & 1));
      r |= ((lut >> idx) & 1) << i;
    }
    d[l] = r;
  }
  return 0;
}

/* fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of
 * mask counting from bit base, upwards for offset > 0 and downwards for
 * offset < 0 (offset 0: base itself if set); 0xffffffff if there is none. */
int emu_exec_fns(EMU_EXEC_ARGS) {
  OPERANDS;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t bitmask = (uint32_t)a[l], r = 0xffffffffu;
    int base = (int)(uint32_t)s1[l], offset = (int32_t)s2[l];
    if (offset == 0) {
      if (base >= 0 && base < 32 && (bitmask >> base & 1)) r = (uint32_t)base;
    } else {
      int inc = offset > 0 ? 1 : -1;
      int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
      for (int pos = base; pos >= 0 && pos < 32; pos += inc) {
        if (!(bitmask >> pos & 1)) continue;
        if (count-- == 0) {
          r = (uint32_t)pos;
          break;
        }
      }
    }
    d[l] = r;
  }
  return 0;
}
