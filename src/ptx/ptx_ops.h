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
  X(M_SPACE, 1, ".global .shared .local .const .param")                                                               \
  X(M_CACHE, 2, ".ca .cg .cs .lu .cv .wb .wt .nc, L1::/L2:: hints")                                                   \
  X(M_SEM, 3, ".volatile .relaxed .acquire .release .acq_rel .mmio; .cta .gpu .sys .cluster")                         \
  X(M_RND, 4, ".rn .rz .rm .rp")                                                                                      \
  X(M_IRND, 5, ".rni .rzi .rmi .rpi")                                                                                 \
  X(M_FTZ, 6, ".ftz")                                                                                                 \
  X(M_SAT, 7, ".sat")                                                                                                 \
  X(M_CC, 8, ".cc (parsed; the emulator refuses carries)")                                                            \
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
  X(M_NEED_SPACE, 29, "(needs a state space)")                                                                    \
  X(M_CLUSTER, 56, ".arrive .wait (barrier.cluster); .aligned .relaxed .release .acquire")

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
  X(SH_CVT, 1, "d, a (two sources for .f16x2/.bf16x2)")                          \
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
  X(SH_DST, 0, "d")

typedef enum {
#define X(e, nsrc, form) PTX_##e,
  PTX_SHAPES(X)
#undef X
  PTX_SH_COUNT
} PtxShape;

#define ARITH (M_FLOAT | M_SAT)
#define PTX_OPS(X)                                                                                           \
  /* data movement */                                                                                        \
  X(LD, "ld", OPF_MEM, M_VEC | M_SPACE | M_CACHE | M_SEM, SH_LD, "", ld,                                     \
    "d = [a] (also .v2/.v4, .nc/.ca/.cg/.cs, .volatile)")                                                    \
  X(LDU, "ldu", OPF_MEM, M_VEC | M_SPACE | M_CACHE, SH_LD, "", ld, "d = [a], uniform across the warp")       \
  X(ST, "st", OPF_MEM | OPF_NODST, M_VEC | M_SPACE | M_CACHE | M_SEM, SH_ST, "", st, "[a] = b (also .v2/.v4)") \
  X(MOV, "mov", OPF_PRED, 0, SH_MOV, "", mov, "d = a (register, immediate, special register, symbol address)") \
  X(CVTA, "cvta", 0, M_SPACE | M_TO | M_NEED_SPACE, SH_CVTA, "", cvta,                                       \
    "d = a converted between a state space and generic")                                                     \
  X(CVT, "cvt", 0, M_RND | M_IRND | M_FTZ | M_SAT | M_TYPE2, SH_CVT, "t2", cvt,                               \
    "d = (type) a with rounding/saturation")                                                                 \
  /* integer and floating-point arithmetic */                                                                \
  X(ADD, "add", OPF_FROUND, ARITH | M_CC, SH_D2, "", add, "d = a + b")                                       \
  X(SUB, "sub", OPF_FROUND, ARITH | M_CC, SH_D2, "", sub, "d = a - b")                                       \
  X(MUL, "mul", OPF_FROUND, ARITH | M_MULMODE, SH_D2, "", mul, "d = a * b (.lo, .hi, .wide for integers)")   \
  X(MAD, "mad", OPF_FROUND, ARITH | M_MULMODE | M_CC, SH_D3, "", mad,                                        \
    "d = a * b + c (.lo, .hi, .wide for integers)")                                                          \
  X(MUL24, "mul24", 0, M_MULMODE, SH_D2, "", mul24, "d = a[23:0] * b[23:0] (.lo, .hi)")                       \
  X(MAD24, "mad24", 0, M_MULMODE | M_SAT, SH_D3, "", mul24, "d = a[23:0] * b[23:0] + c")                      \
  X(FMA, "fma", OPF_FROUND, ARITH, SH_D3, "", mad, "d = a * b + c, rounded once")                            \
  X(DIV, "div", OPF_FROUND, M_FLOAT, SH_D2, "", div, "d = a / b (integer division by zero is a fault)")      \
  X(REM, "rem", 0, 0, SH_D2, "", div, "d = a % b (by zero is a fault)")                                      \
  X(MIN, "min", 0, M_FTZ, SH_D2, "", min, "d = min(a, b)")                                                   \
  X(MAX, "max", 0, M_FTZ, SH_D2, "", max, "d = max(a, b)")                                                   \
  X(ABS, "abs", 0, M_FTZ, SH_D1, "", abs, "d = |a|")                                                         \
  X(NEG, "neg", 0, M_FTZ, SH_D1, "", neg, "d = -a")                                                          \
  X(SAD, "sad", 0, 0, SH_D3, "", sad, "d = |a - b| + c")                                                     \
  X(COPYSIGN, "copysign", 0, 0, SH_D2, "", copysign, "d = |b| with the sign of a")                           \
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
  X(BFIND, "bfind", 0, M_SHIFTAMT, SH_D1, "", bfind,                                                         \
    "d = position of the most significant non-sign bit of a (.shiftamt: 31 - it)")                           \
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
    "return from the kernel (no device-function calls)")                                                     \
  X(EXIT, "exit", OPF_EXIT | OPF_NODST, M_NOTYPE, SH_NONE, "", simt, "end the thread")                       \
  X(TRAP, "trap", OPF_EXIT | OPF_NODST, M_NOTYPE, SH_NONE, "", trap, "abort the kernel: a fault")            \
  X(BAR, "bar", OPF_BARRIER | OPF_NODST, M_BAR | M_NOTYPE, SH_BAR, "u", simt,                                \
    "bar.sync/bar.arrive a[, b]: block barrier a, b threads; bar.red d, a[, b], c: and a block-wide "        \
    "popc/and/or of c")                                                                                      \
  X(BARRIER, "barrier", OPF_BARRIER | OPF_NODST, M_BAR | M_NOTYPE, SH_BAR, "u", simt,                        \
    "barrier.sync[.aligned] a[, b]: as bar.sync")                                                            \
  X(MEMBAR, "membar", OPF_NODST, M_LEVEL | M_NOTYPE, SH_NONE, "", nop,                                       \
    "memory ordering: no effect in a sequential emulator")                                                   \
  X(FENCE, "fence", OPF_NODST, M_ANY | M_NOTYPE, SH_NONE, "", nop,                                           \
    "memory ordering: no effect in a sequential emulator")                                                   \
  X(BARWARP, "bar.warp", OPF_NODST, M_SYNC | M_NOTYPE | M_NEED_SYNC, SH_ONE, "u", nop,                       \
    "bar.warp.sync mask: warp already in lockstep")                                                          \
  X(NANOSLEEP, "nanosleep", OPF_NODST, 0, SH_ONE, "u", nop, "no effect")                                     \
  X(PREFETCH, "prefetch", OPF_NODST, M_SPACE | M_CACHE | M_NOTYPE, SH_ADDR, "", nop, "no effect on counters") \
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
    "d = add/min/max/and/or/xor of a over mask b")                                                             \
  /* cooperative groups */                                                                                   \
  X(BARCLUSTER, "barrier.cluster", OPF_BARRIER | OPF_NODST, M_CLUSTER | M_NOTYPE | M_NEED_SUB, SH_NONE, "",  \
    simt, "barrier.cluster.arrive/.wait: the cluster's barrier; without a cluster launch a cluster is "      \
    "one block: .wait completes when all its threads have arrived")

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
