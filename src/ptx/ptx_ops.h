/* ptx_ops.h - the PTX instruction set warpmem understands: one row each.
 *
 *   X(ENUM, "mnemonic", flags, modifiers, shape, imm, exec, semantics)
 *
 * From this one table come the opcode enum and names (ptx.c), the modifiers
 * the parser accepts and requires (ptx_instr.c), the operands it checks and
 * their order (shape: ptx_shape.c), the type an immediate is read as (imm),
 * the emulator's dispatch (exec: emu_exec.h) and the list of supported
 * instructions in docs/ptx-instructions.md (`warpmem isa`).  Adding an
 * instruction is one row here and one function emu_exec_EXEC; a new operand
 * form is also one shape.
 *
 * flags      OPF_*: how the rest of warpmem treats it.
 * modifiers  M_*: the groups of dot-modifiers it takes (.v4, .global, .rn,
 *            .ftz, ...) and those it must have (M_NEED_*).
 * shape      SH_*: its operand form (the parser's rule and the order of
 *            PtxInstr.opd, documented at the top of ptx_shape.c).
 * imm        the type an immediate operand at each position of opd[] is read
 *            as: 't' the instruction's type, '2' its second type, 'u' u32,
 *            'b' b32, 'p' a predicate; positions past the string: 't'.
 * exec       the emulator's function: emu_exec_EXEC (simt: the SIMT core
 *            itself, for what changes control flow or waits).
 */
#ifndef WM_PTX_OPS_H
#define WM_PTX_OPS_H

#include <stdint.h>

/* flags */
#define OPF_MEM     0x01 /* reads or writes a state space through an address */
#define OPF_BRANCH  0x02 /* may change the pc */
#define OPF_BARRIER 0x04 /* synchronizes the warps of a block */
#define OPF_EXIT    0x08 /* ends the thread */
#define OPF_WARP    0x10 /* lanes see each other's values (shfl, vote) */
#define OPF_NODST   0x20 /* first operand is not a destination */
#define OPF_FROUND  0x40 /* float .rz/.rm/.rp run in that host rounding mode */
#define OPF_PRED    0x80 /* .pred is a valid type */

/* Modifier groups an opcode accepts (the parser's words for each are in
 * ptx_instr.c), and what it requires: X(NAME, bit, the words, for docs). */
#define PTX_MODS(X)                                                                                                   \
  X(M_VEC, 0, ".v2 .v4")                                                                                              \
  X(M_SPACE, 1, ".global .shared .local .const .param; .shared::cluster (ld, st, atom, red, cvta)")                 \
  X(M_CACHE, 2, ".ca .cg .cs .lu .cv .wb .wt .nc, L1::/L2:: hints")                                                   \
  X(M_SEM, 3, ".volatile .relaxed .acquire .release .acq_rel .mmio; .cta .gpu .sys .cluster")                         \
  X(M_RND, 4, ".rn .rz .rm .rp")                                                                                      \
  X(M_IRND, 5, ".rni .rzi .rmi .rpi")                                                                                 \
  X(M_FTZ, 6, ".ftz")                                                                                                 \
  X(M_SAT, 7, ".sat")                                                                                                 \
  X(M_CC, 8, ".cc (writes the lane's carry flag)")                                                            \
  X(M_MULMODE, 9, ".lo .hi .wide")                                                                                    \
  X(M_CMP, 10, ".eq .ne .lt .le .gt .ge .lo .ls .hi .hs .equ .neu .ltu .leu .gtu .geu .num .nan; .and .or .xor")      \
  X(M_SHFL, 11, ".up .down .bfly .idx")                                                                               \
  X(M_SYNC, 12, ".sync")                                                                                              \
  X(M_VOTE, 13, ".all .any .uni .ballot")                                                                             \
  X(M_ATOMOP, 14, ".add .min .max .inc .dec .exch .cas .and .or .xor")                                                \
  X(M_TESTP, 15, ".finite .infinite .number .notanumber .normal .subnormal")                                          \
  X(M_BAR, 16, ".sync .arrive .red.popc .red.and .red.or .aligned")                                                   \
  X(M_UNI, 17, ".uni")                                                                                                \
  X(M_TO, 18, ".to")                                                                                                  \
  X(M_LEVEL, 19, ".cta .gl .sys")                                                                                     \
  X(M_ANY, 20, "any (no effect here)")                                                                                \
  X(M_TYPE2, 21, "a second type (needs two)")                                                                         \
  X(M_NOTYPE, 22, "(no type)")                                                                                        \
  X(M_MATCH, 23, ".any .all")                                                                                         \
  X(M_APPROX, 24, ".approx .full")                                                                                    \
  X(M_SHF, 25, ".l .r .wrap .clamp")                                                                                  \
  X(M_SHIFTAMT, 26, ".shiftamt")                                                                                      \
  X(M_NEED_SUB, 27, "(needs its operation)")                                                                          \
  X(M_NEED_SYNC, 28, "(needs .sync)")                                                                                 \
  X(M_NEED_SPACE, 29, "(needs a state space)")                                                                     \
  X(M_RELU, 34, ".relu")                                                                                              \
  X(M_NANMODE, 35, ".NaN .xorsign.abs")                                                                               \
  X(M_OOB, 36, ".oob")                                                                                                \
  X(M_SATFINITE, 37, ".satfinite .rna") \
  X(M_ASYNC, 38, "cp.async: .ca .cg .shared{::cta,::cluster} .global .L2::cache_hint .L2::64B/128B/256B; bulk: "    \
                 ".mbarrier::complete_tx::bytes .bulk_group, .read, .L2")                                                                  \
  X(M_MBAR, 39, "mbarrier: .shared{::cta,::cluster} .noinc .expect_tx .noComplete .parity; .acquire .release "        \
                ".relaxed; .cta .cluster") \
  X(M_MMA_SHAPE, 44, ".m8n8 .m8n8k4 .m8n8k16 .m16n8k{4,8,16,32} .m16n16k16 .m32n8k16 .m8n32k16 .m16n16k8")            \
  X(M_MMA_LAYOUT, 45, ".row .col (A then B); .trans")                                                                 \
  X(M_MMA_NUM, 46, ".x1 .x2 .x4")                                                                                     \
  X(M_MMA_FRAG, 47, ".a .b .c .d (the wmma fragment)")                                                                \
  X(M_MMA_MISC, 48, ".aligned .satfinite; up to four types (d, a, b, c) including .tf32") \
  X(M_TEXGEOM, 50, ".1d .2d .3d .a1d .a2d .cube .acube")                                                           \
  X(M_TEXMIP, 51, ".level .grad (tex: the lod or gradients)")                                                        \
  X(M_TLD4, 52, ".r .g .b .a (tld4: the channel gathered)")                                                          \
  X(M_SUCLAMP, 53, ".trap .clamp .zero (surface: out-of-range coordinates)")                                         \
  X(M_SUFMT, 54, ".b .p (surface: raw bytes or formatted)")                                                          \
  X(M_TXQ, 55, ".width .height .depth .channel_data_type .channel_order .normalized_coords .filter_mode "            \
               ".addr_mode_0/1/2 .array_size .num_mipmap_levels .num_samples") \
  X(M_WGMMA, 42, "wgmma: .aligned, .m64nNkK, the types of D, A and B (.e4m3 .e5m2 .tf32 .b1 too); .satfinite; "     \
                 ".and.popc")                                                                                     \
  X(M_CLUSTER, 56, ".arrive .wait (barrier.cluster); .aligned .relaxed .release .acquire")                         \
  X(M_TMA, 40, "tensor copies: .1d-.5d .tile .im2col .im2col_no_offs .multicast::cluster; reductions: .add .min "   \
               ".max .inc .dec .and .or .xor .noftz")                                                                \
  X(M_TMAP, 41, "tensormap.replace: .tile, its field, .global .shared::cta, .b1024; tensormap.cp_fenceproxy: "       \
                ".global.shared::cta.tensormap::generic.release, a scope, .sync.aligned")                          \
  X(M_VIDEO, 60, "video: a third type (d, a, b); .add (accumulate)")

/* Up to 64 groups: the bits of a uint64_t (an enum that wide is a GNU C
 * and C23 feature; gcc and clang accept it). */
enum PtxModBits {
#define X(name, bit, words) name = 1ull << bit,
  PTX_MODS(X)
#undef X
};
#define M_FLOAT (M_RND | M_FTZ | M_APPROX)

/* Operand forms (ptx_shape.c): X(SHAPE, nsrc, form), nsrc the fewest
 * source registers an instruction of that form reads, which the emulator
 * may index without checking (-1: it depends: st's .vN, bar.red's 3). */
#define PTX_SHAPES(X)                                                         \
  X(SH_D1, 1, "d, a")                                                            \
  X(SH_D2, 2, "d, a, b")                                                         \
  X(SH_D3, 3, "d, a, b, c")                                                      \
  X(SH_D4, 4, "d, a, b, c, e")                                                   \
  X(SH_LOP3, 4, "d, a, b, c, lut (a constant)")                                  \
  X(SH_CVT, 1, "d, a (d, a, b: a pair from two .f32)")                           \
  X(SH_LD, 0, "d, [a]")                                                          \
  X(SH_ST, -1, "[a], b")                                                          \
  X(SH_ADDR, 0, "[a]")                                                           \
  X(SH_MOV, 1, "d, a")                                                           \
  X(SH_CVTA, 1, "d, a")                                                          \
  X(SH_SETP, 2, "p[|q], a, b[, c]")                                              \
  X(SH_SET, 2, "d, a, b[, c]")                                                   \
  X(SH_SELP, 3, "d, a, b, c")                                                    \
  X(SH_TESTP, 1, "p, a")                                                         \
  X(SH_BRA, 0, "label")                                                          \
  X(SH_NONE, 0, "")                                                              \
  X(SH_BAR, -1, "a[, b] | d, a[, b], c")                                          \
  X(SH_ONE, 0, "a")                                                              \
  X(SH_ATOM, 1, "d, [a], b[, c]")                                                \
  X(SH_RED, 1, "[a], b")                                                         \
  X(SH_SHFL, 3, "d[|p], a, b, c[, mask]")                                        \
  X(SH_VOTE, 1, "d, a[, mask]")                                                  \
  X(SH_MATCH, 2, "d[|p], a, mask")                                               \
  X(SH_REDUX, 2, "d, a, mask")                                                   \
  X(SH_DST, 0, "d")                                                              \
  X(SH_TEX, 1, "{d,d,d,d}, [h, {c...}][, lod | , {dPdx}, {dPdy}]")                 \
  X(SH_SULD, 1, "{d...}, [h, {c...}]")                                            \
  X(SH_SUST, 1, "[h, {c...}], {b...}")                                            \
  X(SH_TXQ, 0, "d, [h]") \
  X(SH_MMA, 0, "{d..}, {a..}, {b..}, {c..} (register lists of the fragments)")   \
  X(SH_MLOAD, 0, "{d..}, [a][, stride]")                                         \
  X(SH_MSTORE, 0, "[a], {b..}[, stride]")                                        \
  X(SH_MMOV, 0, "d, a") \
  X(SH_CPASYNC, 3, "[d], [a], size[, src-size | ignore-src][, policy]")          \
  X(SH_BULK, 3, "[d], [a], size, [mbar][, policy] | [d], [a], size[, policy]")                              \
  X(SH_MBAR_INIT, 1, "[a], b")                                                   \
  X(SH_MBAR_ARRIVE, 0, "d|_, [a][, b]")                                          \
  X(SH_MBAR_WAIT, 1, "p, [a], b[, hint]") \
  X(SH_TMA, 0, "[d], [map, {c..}], [mbar][, {offsets}][, ctaMask][, policy] | [map, {c..}], [s][, policy] | "  \
               "[map, {c..}][, {offsets}][, policy]")                                                           \
  X(SH_FENCE, 0, "[[a], size] (fence.proxy.tensormap::generic.acquire)")                                     \
  X(SH_TMAP_OP, 0, "[a][, ord], new_val (tensormap.replace) | [d], [s], size (tensormap.cp_fenceproxy)")      \
  X(SH_WGMMA, 0, "{d..}, a-desc | {a..}, b-desc, scale-d[, imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b]") \
  X(SH_ELECT, 1, "d[|p], mask")                                                  \
  X(SH_CALL, 0, "[(ret, ...),] f | fptr [, (arg, ...)] [, prototype]")

typedef enum {
#define X(e, nsrc, form) PTX_##e,
  PTX_SHAPES(X)
#undef X
  PTX_SH_COUNT
} PtxShape;

#define ARITH (M_FLOAT | M_SAT)
#define MMA_MODS (M_SYNC | M_NEED_SYNC | M_NOTYPE | M_MMA_SHAPE | M_MMA_LAYOUT | M_MMA_MISC)
#define MMA_MEM (MMA_MODS | M_SPACE)
#define WGMMA_MODS (M_SYNC | M_NEED_SYNC | M_NOTYPE | M_WGMMA)
#define PTX_OPS(X)                                                                                           \
  /* data movement */                                                                                        \
  X(LD, "ld", OPF_MEM, M_VEC | M_SPACE | M_CACHE | M_SEM, SH_LD, "", ld,                                     \
    "d = [a] (also .v2/.v4, .nc/.ca/.cg/.cs, .volatile)")                                                    \
  X(LDU, "ldu", OPF_MEM, M_VEC | M_SPACE | M_CACHE, SH_LD, "", ld, "d = [a], uniform across the warp")       \
  /* textures and surfaces (emu_tex.c; h is a texture or surface object) */                                 \
  X(TEX, "tex", 0, M_TEXGEOM | M_TEXMIP | M_VEC | M_TYPE2, SH_TEX, "", tex,                                   \
    "d = texels of h at coordinates c, filtered (point/linear), addressed (clamp/wrap/mirror/border)")      \
  X(TLD4, "tld4", 0, M_TEXGEOM | M_TLD4 | M_VEC | M_TYPE2 | M_NEED_SUB, SH_TEX, "", tld4,                     \
    "d = one channel of the 4 texels bilinear filtering of h at c would use")                                \
  X(TXQ, "txq", 0, M_TXQ | M_NEED_SUB, SH_TXQ, "", txq, "d = an attribute of texture or surface h")          \
  X(SULD, "suld", 0, M_TEXGEOM | M_SUFMT | M_SUCLAMP | M_VEC, SH_SULD, "", suld,                              \
    "d = the bytes of surface h at byte x, row y, slice z (.trap/.clamp/.zero out of range)")                \
  X(SUST, "sust", OPF_NODST, M_TEXGEOM | M_SUFMT | M_SUCLAMP | M_VEC, SH_SUST, "", sust,                      \
    "surface h at byte x, row y, slice z = b (.b raw, .p formatted from f32/u32/s32)")                      \
  X(ST, "st", OPF_MEM | OPF_NODST, M_VEC | M_SPACE | M_CACHE | M_SEM, SH_ST, "", st, "[a] = b (also .v2/.v4)") \
  X(MOV, "mov", OPF_PRED, 0, SH_MOV, "", mov, "d = a (register, immediate, special register, symbol address)") \
  X(CVTA, "cvta", 0, M_SPACE | M_TO | M_NEED_SPACE, SH_CVTA, "", cvta,                                       \
    "d = a converted between a state space and generic")                                                     \
  X(CVT, "cvt", 0, M_RND | M_IRND | M_FTZ | M_SAT | M_TYPE2 | M_RELU | M_SATFINITE, SH_CVT, "t22", cvt,      \
    "d = (type) a with rounding/saturation; .f16x2/.bf16x2/.e4m3x2/.e5m2x2 from .f32: d = {a, b}, a high")   \
  /* integer and floating-point arithmetic */                                                                \
  X(ADD, "add", OPF_FROUND, ARITH | M_CC, SH_D2, "", add, "d = a + b")                                       \
  X(SUB, "sub", OPF_FROUND, ARITH | M_CC, SH_D2, "", sub, "d = a - b")                                       \
  X(MUL, "mul", OPF_FROUND, ARITH | M_MULMODE, SH_D2, "", mul, "d = a * b (.lo, .hi, .wide for integers)")   \
  X(MAD, "mad", OPF_FROUND, ARITH | M_MULMODE | M_CC, SH_D3, "", mad,                                        \
    "d = a * b + c (.lo, .hi, .wide for integers)")                                                          \
  X(MUL24, "mul24", 0, M_MULMODE, SH_D2, "", mul24, "d = a[23:0] * b[23:0] (.lo, .hi)")                       \
  X(MAD24, "mad24", 0, M_MULMODE | M_SAT, SH_D3, "", mul24, "d = a[23:0] * b[23:0] + c")                      \
  X(FMA, "fma", OPF_FROUND, ARITH | M_RELU | M_OOB, SH_D3, "", mad,                                          \
    "d = a * b + c, rounded once (halves: .relu, .oob)")                                                     \
  X(DIV, "div", OPF_FROUND, M_FLOAT, SH_D2, "", div, "d = a / b (integer division by zero is a fault)")      \
  X(REM, "rem", 0, 0, SH_D2, "", div, "d = a % b (by zero is a fault)")                                      \
  X(MIN, "min", 0, M_FTZ | M_NANMODE, SH_D2, "", min, "d = min(a, b) (floats: .NaN, .xorsign.abs)")          \
  X(MAX, "max", 0, M_FTZ | M_NANMODE, SH_D2, "", max, "d = max(a, b) (floats: .NaN, .xorsign.abs)")          \
  X(ABS, "abs", 0, M_FTZ, SH_D1, "", abs, "d = |a|")                                                         \
  X(NEG, "neg", 0, M_FTZ, SH_D1, "", neg, "d = -a")                                                          \
  X(SAD, "sad", 0, 0, SH_D3, "", sad, "d = |a - b| + c")                                                     \
  X(COPYSIGN, "copysign", 0, 0, SH_D2, "", copysign, "d = |b| with the sign of a")                           \
  /* carry chains: each lane's carry flag CF lives in a hidden register */                                    \
  X(ADDC, "addc", 0, M_CC, SH_D2, "", carry, "d = a + b + CF (.cc: CF = the carry out)")                       \
  X(SUBC, "subc", 0, M_CC, SH_D2, "", carry,                                                                  \
    "d = a - (b + borrow), borrow = !CF: CF is the carry of a + ~b + CF (sub.cc: of a + ~b + 1)")             \
  X(MADC, "madc", 0, M_MULMODE | M_CC, SH_D3, "", carry, "d = (a * b).lo/.hi + c + CF (.cc: CF = the carry out)") \
  /* bit manipulation */                                                                                     \
  X(AND, "and", OPF_PRED, 0, SH_D2, "", and, "d = a & b")                                                    \
  X(OR, "or", OPF_PRED, 0, SH_D2, "", or, "d = a | b")                                                       \
  X(XOR, "xor", OPF_PRED, 0, SH_D2, "", xor, "d = a ^ b")                                                    \
  X(NOT, "not", OPF_PRED, 0, SH_D1, "", not, "d = ~a")                                                       \
  X(CNOT, "cnot", 0, 0, SH_D1, "", cnot, "d = (a == 0)")                                                     \
  X(SHL, "shl", 0, 0, SH_D2, "ttu", shl, "d = a << b")                                                       \
  X(SHR, "shr", 0, 0, SH_D2, "ttu", shr, "d = a >> b (arithmetic for .s types)")                             \
  X(POPC, "popc", 0, 0, SH_D1, "", popc, "d = number of one bits in a")                                      \
  X(CLZ, "clz", 0, 0, SH_D1, "", clz, "d = number of leading zero bits in a")                                \
  X(BREV, "brev", 0, 0, SH_D1, "", brev, "d = a with its bits reversed")                                     \
  X(BFE, "bfe", 0, 0, SH_D3, "ttuu", bfe, "d = bit field of a at b, length c")                               \
  X(BFI, "bfi", 0, 0, SH_D4, "tttuu", bfi, "d = b with bit field at c, length e, replaced by a")             \
  X(PRMT, "prmt", 0, 0, SH_D3, "", prmt, "d = bytes of {b,a} selected by c")                                 \
  X(LOP3, "lop3", 0, 0, SH_LOP3, "", lop3, "d = LUT[e](a, b, c)")                                            \
  X(FNS, "fns", 0, 0, SH_D3, "", fns, "d = position of the c-th set bit of a from b")                        \
  X(SHF, "shf", 0, M_SHF, SH_D3, "tttu", shf, "d = funnel shift of {b:a} by c (.l/.r, .wrap/.clamp)")         \
  X(BMSK, "bmsk", 0, M_SHF, SH_D2, "buu", bmsk, "d = a mask of b one bits from bit a (.wrap: both mod 32; .clamp: "  \
    "none from a >= 32, to bit 31 for b >= 32)")                                                                \
  X(SZEXT, "szext", 0, M_SHF, SH_D2, "ttu", szext, "d = the low b bits of a, sign- (.s32) or zero-extended (.u32); " \
    ".wrap: b mod 32, .clamp: a whole for b >= 32")                                                             \
  X(BFIND, "bfind", 0, M_SHIFTAMT, SH_D1, "", bfind,                                                         \
    "d = position of the most significant non-sign bit of a (.shiftamt: 31 - it)")                           \
  /* video and dot products (emu_video.c) */                                                                  \
  X(DP4A, "dp4a", 0, M_TYPE2, SH_D3, "", dp4a, "d = c + the sum of a's 4 bytes times b's (.atype.btype)")      \
  X(DP2A, "dp2a", 0, M_TYPE2 | M_MULMODE, SH_D3, "", dp2a,                                                   \
    "d = c + a's 2 halves times b's bytes 0,1 (.lo) or 2,3 (.hi)")                                          \
  X(VADD4, "vadd4", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "bytes: a + b; merged into c, or .add: c + their sum") \
  X(VSUB4, "vsub4", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "bytes: a - b; merged into c, or .add: c + their sum") \
  X(VABSDIFF4, "vabsdiff4", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video,                                  \
    "bytes: |a - b|; merged into c, or .add: c + their sum")                                                \
  X(VMIN4, "vmin4", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "bytes: min(a, b); merged into c, or .add: c + their sum") \
  X(VMAX4, "vmax4", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "bytes: max(a, b); merged into c, or .add: c + their sum") \
  X(VADD2, "vadd2", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "halves: a + b; merged into c, or .add: c + their sum") \
  X(VSUB2, "vsub2", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "halves: a - b; merged into c, or .add: c + their sum") \
  X(VABSDIFF2, "vabsdiff2", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video,                                  \
    "halves: |a - b|; merged into c, or .add: c + their sum")                                               \
  X(VMIN2, "vmin2", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "halves: min(a, b); merged into c, or .add: c + their sum") \
  X(VMAX2, "vmax2", 0, M_TYPE2 | M_VIDEO | M_SAT, SH_D3, "", video, "halves: max(a, b); merged into c, or .add: c + their sum") \
  /* comparison and selection */                                                                             \
  X(SETP, "setp", 0, M_CMP | M_FTZ, SH_SETP, "ttttp", setp, "p[|q] = (a CMP b) BOOLOP c")                    \
  X(SET, "set", 0, M_CMP | M_FTZ | M_TYPE2, SH_SET, "t22p", set, "d = (a CMP b) ? all ones (1.0f) : 0")      \
  X(SELP, "selp", OPF_PRED, 0, SH_SELP, "tttp", selp, "d = c ? a : b")                                       \
  X(SLCT, "slct", 0, M_FTZ | M_TYPE2, SH_D3, "ttt2", slct, "d = c >= 0 ? a : b")                             \
  X(TESTP, "testp", 0, M_TESTP | M_NEED_SUB, SH_TESTP, "", testp,                                            \
    "p = class test of a (finite, infinite, number, notanumber, normal, subnormal)")                         \
  /* floating-point functions */                                                                             \
  X(SQRT, "sqrt", OPF_FROUND, M_FLOAT, SH_D1, "", sqrt, "d = sqrt(a)")                                       \
  X(RSQRT, "rsqrt", OPF_FROUND, M_FLOAT, SH_D1, "", rsqrt, "d = 1 / sqrt(a)")                                \
  X(RCP, "rcp", OPF_FROUND, M_FLOAT, SH_D1, "", rcp, "d = 1 / a")                                            \
  X(EX2, "ex2", OPF_FROUND, M_FLOAT, SH_D1, "", ex2, "d = 2^a")                                              \
  X(LG2, "lg2", OPF_FROUND, M_FLOAT, SH_D1, "", lg2, "d = log2(a)")                                          \
  X(SIN, "sin", OPF_FROUND, M_FLOAT, SH_D1, "", sin, "d = sin(a)")                                           \
  X(COS, "cos", OPF_FROUND, M_FLOAT, SH_D1, "", cos, "d = cos(a)")                                           \
  X(TANH, "tanh", OPF_FROUND, M_FLOAT, SH_D1, "", tanh, "d = tanh(a)")                                       \
  /* control flow */                                                                                         \
  X(BRA, "bra", OPF_BRANCH | OPF_NODST, M_UNI | M_NOTYPE, SH_BRA, "", simt,                                  \
    "pc = label (divergent lanes reconverge at the immediate post-dominator)")                               \
  X(RET, "ret", OPF_EXIT | OPF_NODST, M_UNI | M_NOTYPE, SH_NONE, "", simt,                                   \
    "return from a device function (its frame is popped when all its lanes have returned); in a kernel, "    \
    "end the thread")                                                                                        \
  X(CALL, "call", OPF_BRANCH | OPF_NODST, M_UNI | M_NOTYPE, SH_CALL, "", simt,                              \
    "call a device function: direct, through a function pointer (lanes grouped by target), recursive; "      \
    "printf (vprintf) and assert (__assertfail) built in; device malloc/free refused")                       \
  X(EXIT, "exit", OPF_EXIT | OPF_NODST, M_NOTYPE, SH_NONE, "", simt, "end the thread")                       \
  X(TRAP, "trap", OPF_EXIT | OPF_NODST, M_NOTYPE, SH_NONE, "", trap, "abort the kernel: a fault")            \
  X(BAR, "bar", OPF_BARRIER | OPF_NODST, M_BAR | M_NOTYPE, SH_BAR, "u", simt,                                \
    "bar.sync/bar.arrive a[, b]: block barrier a, b threads; bar.red d, a[, b], c: and a block-wide "        \
    "popc/and/or of c")                                                                                      \
  X(BARRIER, "barrier", OPF_BARRIER | OPF_NODST, M_BAR | M_NOTYPE, SH_BAR, "u", simt,                        \
    "barrier.sync[.aligned] a[, b]: as bar.sync")                                                            \
  X(MEMBAR, "membar", OPF_NODST, M_LEVEL | M_NOTYPE, SH_NONE, "", nop,                                       \
    "memory ordering: no effect in a sequential emulator")                                                   \
  X(FENCE, "fence", OPF_NODST, M_ANY | M_NOTYPE, SH_FENCE, "u", nop,                                         \
    "memory ordering and proxies (.proxy.async, .proxy.tensormap::generic [a], 128, .mbarrier_init): no "   \
    "effect in a sequential emulator")                                                                       \
  X(BARWARP, "bar.warp", OPF_NODST, M_SYNC | M_NOTYPE | M_NEED_SYNC, SH_ONE, "u", nop,                       \
    "bar.warp.sync mask: warp already in lockstep")                                                          \
  X(NANOSLEEP, "nanosleep", OPF_NODST, 0, SH_ONE, "u", nop, "no effect")                                     \
  X(PREFETCH, "prefetch", OPF_NODST, M_SPACE | M_CACHE | M_NOTYPE, SH_ADDR, "", prefetch,                     \
    "no effect on counters; .tensormap: a tensor map's 128 bytes, a request to the TMA unit")               \
  /* asynchronous copies and mbarriers (emu_async.c) */                                                    \
  X(CPASYNC, "cp.async", OPF_MEM | OPF_NODST, M_ASYNC | M_NOTYPE, SH_CPASYNC, "uuuuub", cp_async,            \
    "[d] = [a], size 4/8/16 bytes global to shared (LDGSTS); bytes past src-size, or all with ignore-src, "   \
    "are zeros; complete at wait_group/wait_all or an mbarrier")                                            \
  X(CPASYNC_COMMIT, "cp.async.commit_group", OPF_NODST, M_NOTYPE, SH_NONE, "", cp_async_commit,             \
    "closes this thread's group of cp.async")                                                               \
  X(CPASYNC_WAIT, "cp.async.wait_group", OPF_NODST, M_NOTYPE, SH_ONE, "u", cp_async_wait,                   \
    "completes this thread's groups but the newest a")                                                      \
  X(CPASYNC_WAITALL, "cp.async.wait_all", OPF_NODST, M_NOTYPE, SH_NONE, "", cp_async_wait,                  \
    "completes all of this thread's cp.async")                                                              \
  X(CPASYNC_MBAR, "cp.async.mbarrier.arrive", OPF_NODST, M_MBAR, SH_ADDR, "", cp_async_mbar,                \
    "arrive-on mbarrier [a] once this thread's cp.async complete (.noinc: counts as an arrival)")           \
  X(CPASYNC_BULK, "cp.async.bulk", OPF_MEM | OPF_NODST, M_ASYNC | M_NOTYPE, SH_BULK, "uuuuub", cp_async_bulk, \
    "[d] = [a], size bytes (a multiple of 16): global to shared, then complete_tx(size) on mbarrier [mbar] " \
    "(.multicast::cluster: in each block of ctaMask); shared to a peer block's shared memory, complete_tx on " \
    "its [mbar]; or shared to global (.bulk_group)")                                                        \
  X(CPASYNC_BULK_COMMIT, "cp.async.bulk.commit_group", OPF_NODST, M_NOTYPE, SH_NONE, "", cp_async_bulk_commit, \
    "closes this thread's bulk async-group (its copies are done at issue)")                                 \
  X(CPASYNC_BULK_WAIT, "cp.async.bulk.wait_group", OPF_NODST, M_ASYNC | M_NOTYPE, SH_ONE, "u", nop,          \
    "waits for bulk async-groups (.read: their reads): done at issue")                                      \
  X(CPASYNC_BULK_PREFETCH, "cp.async.bulk.prefetch", OPF_NODST, M_ASYNC | M_NOTYPE, SH_MBAR_INIT, "uu", nop,  \
    "prefetch.L2.global [a], b bytes into L2: no effect on counters")                                      \
  /* tensor copies through the TMA unit (emu_tma.c; tensor maps: emu_tmap.h) */                            \
  X(CPASYNC_BULK_TENSOR, "cp.async.bulk.tensor", OPF_MEM | OPF_NODST, M_ASYNC | M_TMA | M_NOTYPE, SH_TMA,     \
    "uuuuuu", tma_copy, "the box of tensor map [map] at coordinates {c..} (.tile, .im2col with offsets) into " \
    "shared [d], then complete_tx on [mbar] (.multicast::cluster: the same in each block of ctaMask); or "   \
    "shared [s] into the box in global memory (.bulk_group; elements outside the tensor are not written)")   \
  X(CPREDUCE_BULK_TENSOR, "cp.reduce.async.bulk.tensor", OPF_MEM | OPF_NODST, M_ASYNC | M_TMA | M_NOTYPE,      \
    SH_TMA, "uuuuuu", tma_reduce, "the box of tensor map [map] at {c..} in global memory OP= shared [s], "  \
    "elementwise in the map's type (.add .min .max .inc .dec .and .or .xor; .bulk_group)")                  \
  X(CPASYNC_BULK_PREFETCH_TENSOR, "cp.async.bulk.prefetch.tensor", OPF_NODST, M_ASYNC | M_TMA | M_NOTYPE,     \
    SH_TMA, "uuuuuu", tma_prefetch, "prefetch the box of tensor map [map] at {c..} into L2: its map is "     \
    "checked; no effect on counters")                                                                       \
  X(TENSORMAP_REPLACE, "tensormap.replace", OPF_MEM | OPF_NODST, M_TMAP, SH_TMAP_OP, "uut", tensormap_replace,   \
    "field FIELD (its ordinal ord) of the tensor map at [a] = new_val (sm_90a; the map in global or shared)")  \
  X(TENSORMAP_CP, "tensormap.cp_fenceproxy", OPF_MEM | OPF_NODST, M_TMAP | M_NOTYPE, SH_TMAP_OP, "uuu",         \
    tensormap_cp, "the 128-byte tensor map at shared [s] to global [d], fenced for the tensormap proxy")      \
  X(CPREDUCE_BULK, "cp.reduce.async.bulk", OPF_MEM | OPF_NODST, M_ASYNC | M_TMA, SH_BULK, "uuuuub",            \
    cp_reduce_bulk, "[d] OP= [a], size bytes of .type elements: shared to global (.bulk_group), or into a " \
    "peer block's shared memory, then complete_tx(size) on its mbarrier [mbar]")                             \
  X(MBAR_INIT, "mbarrier.init", OPF_NODST, M_MBAR, SH_MBAR_INIT, "bu", mbar_init,                            \
    "mbarrier [a]: phase 0, b arrivals expected, tx-count 0")                                               \
  X(MBAR_INVAL, "mbarrier.inval", OPF_NODST, M_MBAR, SH_ADDR, "", mbar_inval, "mbarrier [a] invalidated")    \
  X(MBAR_ARRIVE, "mbarrier.arrive", 0, M_MBAR, SH_MBAR_ARRIVE, "ttu", mbar_arrive,                          \
    "d = phase token; b (default 1) arrivals on [a] (.expect_tx: tx-count += b, one arrival)")              \
  X(MBAR_ARRIVE_DROP, "mbarrier.arrive_drop", 0, M_MBAR, SH_MBAR_ARRIVE, "ttu", mbar_arrive,                \
    "as arrive, and b fewer arrivals expected from the next phase on")                                      \
  X(MBAR_EXPECT_TX, "mbarrier.expect_tx", OPF_NODST, M_MBAR, SH_MBAR_INIT, "bu", mbar_tx,                   \
    "tx-count of [a] += b")                                                                                 \
  X(MBAR_COMPLETE_TX, "mbarrier.complete_tx", OPF_NODST, M_MBAR, SH_MBAR_INIT, "bu", mbar_tx,               \
    "tx-count of [a] -= b (may complete the phase)")                                                        \
  X(MBAR_TEST_WAIT, "mbarrier.test_wait", 0, M_MBAR, SH_MBAR_WAIT, "ptu", mbar_wait,                        \
    "p = phase of token b (.parity: of parity b) complete; false is delayed until true (the warp waits)")   \
  X(MBAR_TRY_WAIT, "mbarrier.try_wait", 0, M_MBAR, SH_MBAR_WAIT, "ptu", mbar_wait,                          \
    "as test_wait: the warp waits until the phase completes")                                               \
  X(MBAR_PENDING, "mbarrier.pending_count", 0, M_MBAR, SH_D1, "t", mbar_pending,                            \
    "d = arrivals pending in phase token a")                                                                \
  /* atomics and warp-level */                                                                               \
  X(ATOM, "atom", OPF_MEM, M_SPACE | M_SEM | M_ATOMOP | M_NEED_SUB, SH_ATOM, "", atom,                       \
    "d = [a]; [a] = OP([a], b[, c]) atomically")                                                             \
  X(RED, "red", OPF_MEM | OPF_NODST, M_SPACE | M_SEM | M_ATOMOP | M_NEED_SUB, SH_RED, "", atom,              \
    "[a] = OP([a], b) atomically, no result")                                                                \
  X(SHFL, "shfl", OPF_WARP, M_SHFL | M_SYNC | M_NEED_SUB, SH_SHFL, "bbbbbb", shfl,                           \
    "d[|p] = a from lane (up/down/bfly/idx b, clamp c), mask e")                                             \
  X(VOTE, "vote", OPF_WARP | OPF_PRED, M_VOTE | M_SYNC | M_NEED_SUB, SH_VOTE, "bbb", vote,                   \
    "d = all/any/uni/ballot of predicate a over mask b")                                                     \
  X(ACTIVEMASK, "activemask", OPF_WARP, 0, SH_DST, "", activemask, "d = mask of active lanes")               \
  X(MATCH, "match", OPF_WARP, M_MATCH | M_SYNC | M_NEED_SUB | M_NEED_SYNC, SH_MATCH, "bbtb", match,          \
    "d = lanes of mask whose a equals mine (.any/.all)")                                                     \
  X(REDUX, "redux", OPF_WARP, M_ATOMOP | M_SYNC | M_NEED_SUB | M_NEED_SYNC, SH_REDUX, "btb", redux,          \
    "d = add/min/max/and/or/xor of a over mask b")                                                           \
  /* tensor cores (ptx_mma.c: modifiers and fragments; emu_tensor.c: semantics) */                           \
  X(LDMATRIX, "ldmatrix", OPF_MEM | OPF_WARP, MMA_MEM | M_MMA_NUM, SH_MLOAD, "", ldmatrix,                  \
    "d[i] = row (lane/4) of 8x8 b16 matrix i whose rows lanes 8i..8i+7 address (.trans: column)")           \
  X(STMATRIX, "stmatrix", OPF_MEM | OPF_WARP | OPF_NODST, MMA_MEM | M_MMA_NUM, SH_MSTORE, "", stmatrix,     \
    "8x8 b16 matrix i (rows addressed by lanes 8i..8i+7) = the lanes' b[i] (.trans: transposed)")            \
  X(MOVMATRIX, "movmatrix", OPF_WARP, MMA_MEM, SH_MMOV, "", movmatrix,                                       \
    "d = the warp's 8x8 b16 matrix in a, transposed (.trans)")                                              \
  X(MMA, "mma", OPF_WARP, MMA_MODS | M_RND, SH_MMA, "", mma,                                                 \
    "D = A * B + C on the warp's fragments (PTX ISA layouts; f16, bf16, tf32, f64, s8/u8)")                  \
  X(WMMA_LOAD, "wmma.load", OPF_MEM | OPF_WARP, MMA_MODS | M_MMA_FRAG | M_SPACE, SH_MLOAD, "u", wmma_load,   \
    "fragment a/b/c = the matrix at [a] (row or col major, leading dimension stride)")                       \
  X(WMMA_STORE, "wmma.store", OPF_MEM | OPF_WARP | OPF_NODST, MMA_MODS | M_MMA_FRAG | M_SPACE, SH_MSTORE,   \
    "u", wmma_store, "the matrix at [a] = fragment d")                                                       \
  X(WMMA_MMA, "wmma.mma", OPF_WARP, MMA_MODS | M_RND, SH_MMA, "", wmma_mma,                                  \
    "D = A * B + C on wmma fragments") \
  /* warpgroup MMA, sm_90a (ptx_wgmma.c: modifiers and operands; emu_wgmma.c: semantics) */                 \
  X(WGMMA_FENCE, "wgmma.fence", OPF_WARP | OPF_NODST, WGMMA_MODS, SH_NONE, "", wgmma_fence,                   \
    "orders the warp's register and shared-memory accesses before the wgmma.mma_async that follow")         \
  X(WGMMA_COMMIT, "wgmma.commit_group", OPF_WARP | OPF_NODST, WGMMA_MODS, SH_NONE, "", wgmma_commit,          \
    "closes the warp's group of wgmma.mma_async (computed at issue)")                                       \
  X(WGMMA_WAIT, "wgmma.wait_group", OPF_WARP | OPF_NODST, WGMMA_MODS, SH_ONE, "u", wgmma_wait,               \
    "waits until at most a of the warp's wgmma groups are pending (they completed at issue)")              \
  X(WGMMA_MMA, "wgmma.mma_async", OPF_WARP, WGMMA_MODS, SH_WGMMA, "p", wgmma_mma,                            \
    "D = A * B (+ D if scale-d) on the warpgroup's 64 x N tile: A from registers or a shared-memory "      \
    "descriptor, B from a descriptor (K-major or MN-major, swizzled 32/64/128 B); f16, bf16, tf32, e4m3, "  \
    "e5m2, s8/u8, b1") \
  /* cooperative groups */                                                                                   \
  X(ELECT, "elect", OPF_WARP, M_SYNC | M_NEED_SYNC | M_NOTYPE, SH_ELECT, "b", elect,                          \
    "d = the lowest active lane of mask, p = (this lane is it)")                                             \
  X(GRIDDEP, "griddepcontrol", OPF_NODST, M_ANY | M_NOTYPE, SH_NONE, "", nop,                                \
    ".wait/.launch_dependents (programmatic dependent launch): no effect on a single launch")               \
  X(MAPA, "mapa", 0, M_ANY, SH_D2, "tu", mapa,                                                               \
    "d = address a in the shared memory of the cluster's block of rank b (.shared::cluster or generic; a rank "  \
    "beyond the cluster faults)") \
  X(GETCTARANK, "getctarank", 0, M_ANY, SH_D1, "", getctarank, "d = the cluster rank of the block whose shared " \
    "memory address a is in") \
  X(SETMAXNREG, "setmaxnreg", OPF_NODST, M_ANY | M_NOTYPE | M_NEED_SUB, SH_ONE, "u", setmaxnreg,              \
    "setmaxnreg.inc/.dec.sync.aligned.u32 a: the warp's registers a thread become a (24..256, a multiple of " \
    "8), taken from or given back to the block's pool; .inc waits until the pool has them") \
  X(BARCLUSTER, "barrier.cluster", OPF_BARRIER | OPF_NODST, M_CLUSTER | M_NOTYPE | M_NEED_SUB, SH_NONE, "",  \
    simt, "barrier.cluster.arrive/.wait: .wait waits until every non-exited thread of the cluster has "      \
    "arrived (without a cluster launch a cluster is one block)")

typedef enum {
#define X(e, name, flags, mods, shape, imm, exec, sem) PTX_OP_##e,
  PTX_OPS(X)
#undef X
  PTX_OP_COUNT
} PtxOp;

/* One row of the table, for code that looks an opcode up. */
typedef struct PtxOpInfo {
  const char *name;     /* the mnemonic */
  unsigned flags;       /* OPF_* */
  uint64_t mods;        /* M_* */
  PtxShape shape;
  const char *imm;      /* immediate types by position */
  const char *exec;     /* the emulator's function, "simt" for the core */
  const char *sem;      /* what it does, in a few words */
} PtxOpInfo;

extern const PtxOpInfo ptx_op[PTX_OP_COUNT];
extern const char *const ptx_op_name[PTX_OP_COUNT];
extern const char *const ptx_shape_form[PTX_SH_COUNT]; /* "d, a, b" */
extern const signed char ptx_shape_nsrc[PTX_SH_COUNT];
/* The modifier groups: bit (M_*) and their words, for docs. */
typedef struct PtxModInfo {
  uint64_t bit;
  const char *words;
} PtxModInfo;
extern const PtxModInfo ptx_mods[];
extern const int ptx_nmods;

#endif
