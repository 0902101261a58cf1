/* emu_video.c - the integer dot products and the SIMD video instructions:
 * dp4a, dp2a; vadd4, vsub4, vabsdiff4, vmin4, vmax4 and their two-way
 * (half-word) forms.
 *
 * Notes:
 *  - dp4a/dp2a: the products of sign- or zero-extended bytes (halves of a
 *    for dp2a) summed with c, wrapping at 32 bits; d and c are .s32 when
 *    either source type is signed.
 *  - The video forms take the default selectors only (a's elements from
 *    a, b's from b, all of them written): that is what nvcc emits for the
 *    __v* intrinsics (__vabsdiffu4, __vsadu2, ...; most others it expands
 *    to plain integer code).  An operand selector (%r1.b0) is a parse error.
 *    Each element's result is computed exactly from the extended operands;
 *    .sat clamps it to the element range of d's type, then it is merged
 *    into d (the secondary merge), or .add sums all results with c.
 */
#include "emu/emu_exec.h"

/* Element i (bits per element `w`) of v, sign- or zero-extended. */
static inline int64_t elem(uint32_t v, unsigned w, int i, int sign) {
  uint32_t e = (v >> (w * (unsigned)i)) & ((1u << w) - 1);
  return sign ? (int64_t)e - ((e >> (w - 1)) ? (int64_t)1 << w : 0) : (int64_t)e;
}

static inline int is_signed(unsigned t) { return ptx_type_is_signed((PtxType)t); }

int emu_exec_dp4a(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  uint64_t *d = DST(0);
  int sa = is_signed(x->type), sb = is_signed(x->type2);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int64_t sum = (int32_t)c[l];
    for (int i = 0; i < 4; i++) sum += elem((uint32_t)a[l], 8, i, sa) * elem((uint32_t)bb[l], 8, i, sb);
    d[l] = (uint32_t)sum;
  }
  return 0;
}

/* dp2a.lo/.hi: a's two halves times b's bytes 0 and 1 (.lo) or 2 and 3 */
int emu_exec_dp2a(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  uint64_t *d = DST(0);
  int sa = is_signed(x->type), sb = is_signed(x->type2), hi = x->sub == PTX_SUB_HI ? 2 : 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int64_t sum = (int32_t)c[l];
    for (int i = 0; i < 2; i++) sum += elem((uint32_t)a[l], 16, i, sa) * elem((uint32_t)bb[l], 8, hi + i, sb);
    d[l] = (uint32_t)sum;
  }
  return 0;
}

/* The element operation of a video opcode, exactly. */
static inline int64_t video_op(unsigned op, int64_t a, int64_t b) {
  switch (op) {
  case PTX_OP_VADD4: case PTX_OP_VADD2: return a + b;
  case PTX_OP_VSUB4: case PTX_OP_VSUB2: return a - b;
  case PTX_OP_VABSDIFF4: case PTX_OP_VABSDIFF2: return a > b ? a - b : b - a;
  case PTX_OP_VMIN4: case PTX_OP_VMIN2: return a < b ? a : b;
  default: return a > b ? a : b;
  }
}

/* vop4/vop2.dtype.atype.btype{.sat|.add} d, a, b, c (type, type2, aux) */
int emu_exec_video(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  uint64_t *d = DST(0);
  int two = x->op >= PTX_OP_VADD2 && x->op <= PTX_OP_VMAX2;
  unsigned w = two ? 16 : 8, n = two ? 2 : 4;
  int sd = is_signed(x->type), sa = is_signed(x->type2), sb = is_signed(x->aux);
  int acc = x->sub == PTX_SUB_AADD, sat = (x->flags & PTX_IF_SAT) && !acc;
  int64_t lo = sd ? -((int64_t)1 << (w - 1)) : 0, hi = sd ? ((int64_t)1 << (w - 1)) - 1 : ((int64_t)1 << w) - 1;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t r = 0;
    int64_t sum = 0;
    for (unsigned i = 0; i < n; i++) {
      int64_t t = video_op(x->op, elem((uint32_t)a[l], w, (int)i, sa), elem((uint32_t)bb[l], w, (int)i, sb));
      if (sat) t = t < lo ? lo : t > hi ? hi : t;
      sum += t;
      r |= ((uint32_t)t & ((1u << w) - 1)) << (w * i);
    }
    d[l] = acc ? (uint32_t)(sum + (int64_t)(sd ? (int64_t)(int32_t)c[l] : (int64_t)(uint32_t)c[l])) : r;
  }
  return 0;
}
