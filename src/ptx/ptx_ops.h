/* ptx_ops.h - the PTX instruction set warpmem understands: one row each.
 *
 * X(ENUM, "mnemonic", flags, semantics) -- from this one table come the opcode
 * enum, the mnemonic strings the parser matches and the flags the emulator and
 * the memory model consult.  Adding an instruction is one row here, its
 * operand rules in ptx_parse.c and one case in emu.c.
 */
#ifndef WM_PTX_OPS_H
#define WM_PTX_OPS_H

/* flags */
#define OPF_MEM     0x01 /* reads or writes a state space through an address */
#define OPF_BRANCH  0x02 /* may change the pc */
#define OPF_BARRIER 0x04 /* synchronizes the warps of a block */
#define OPF_EXIT    0x08 /* ends the thread */
#define OPF_WARP    0x10 /* lanes see each other's values (shfl, vote) */
#define OPF_NODST   0x20 /* first operand is not a destination */

#define PTX_OPS(X)                                                                      \
  /* data movement */                                                                   \
  X(LD,      "ld",      OPF_MEM,               "d = [a] (also .v2/.v4, .nc/.ca/.cg/.cs, .volatile)") \
  X(LDU,     "ldu",     OPF_MEM,               "d = [a], uniform across the warp")       \
  X(ST,      "st",      OPF_MEM | OPF_NODST,   "[a] = b (also .v2/.v4)")                 \
  X(MOV,     "mov",     0,                     "d = a (register, immediate, special register, symbol address)") \
  X(CVTA,    "cvta",    0,                     "d = a converted between a state space and generic") \
  X(CVT,     "cvt",     0,                     "d = (type) a with rounding/saturation")  \
  /* integer and floating-point arithmetic */                                           \
  X(ADD,     "add",     0,                     "d = a + b")                              \
  X(SUB,     "sub",     0,                     "d = a - b")                              \
  X(MUL,     "mul",     0,                     "d = a * b (.lo, .hi, .wide for integers)") \
  X(MAD,     "mad",     0,                     "d = a * b + c (.lo, .hi, .wide for integers)") \
  X(MUL24,   "mul24",   0,                     "d = a[23:0] * b[23:0] (.lo, .hi)")       \
  X(MAD24,   "mad24",   0,                     "d = a[23:0] * b[23:0] + c")              \
  X(FMA,     "fma",     0,                     "d = a * b + c, rounded once")            \
  X(DIV,     "div",     0,                     "d = a / b (integer division by zero is a fault)") \
  X(REM,     "rem",     0,                     "d = a % b (by zero is a fault)")         \
  X(MIN,     "min",     0,                     "d = min(a, b)")                          \
  X(MAX,     "max",     0,                     "d = max(a, b)")                          \
  X(ABS,     "abs",     0,                     "d = |a|")                                \
  X(NEG,     "neg",     0,                     "d = -a")                                 \
  X(SAD,     "sad",     0,                     "d = |a - b| + c")                        \
  X(COPYSIGN,"copysign",0,                     "d = |b| with the sign of a")             \
  /* bit manipulation */                                                                \
  X(AND,     "and",     0,                     "d = a & b")                              \
  X(OR,      "or",      0,                     "d = a | b")                              \
  X(XOR,     "xor",     0,                     "d = a ^ b")                              \
  X(NOT,     "not",     0,                     "d = ~a")                                 \
  X(CNOT,    "cnot",    0,                     "d = (a == 0)")                           \
  X(SHL,     "shl",     0,                     "d = a << b")                             \
  X(SHR,     "shr",     0,                     "d = a >> b (arithmetic for .s types)")   \
  X(POPC,    "popc",    0,                     "d = number of one bits in a")            \
  X(CLZ,     "clz",     0,                     "d = number of leading zero bits in a")   \
  X(BREV,    "brev",    0,                     "d = a with its bits reversed")           \
  X(BFE,     "bfe",     0,                     "d = bit field of a at b, length c")      \
  X(BFI,     "bfi",     0,                     "d = b with bit field at c, length e, replaced by a") \
  X(PRMT,    "prmt",    0,                     "d = bytes of {b,a} selected by c")       \
  X(LOP3,    "lop3",    0,                     "d = LUT[e](a, b, c)")                    \
  X(FNS,     "fns",     0,                     "d = position of the c-th set bit of a from b") \
  X(SHF,     "shf",     0,                     "d = funnel shift of {b:a} by c (.l/.r, .wrap/.clamp)") \
  X(BFIND,   "bfind",   0,                     "d = position of the most significant non-sign bit of a (.shiftamt: 31 - it)") \
  /* comparison and selection */                                                        \
  X(SETP,    "setp",    0,                     "p[|q] = (a CMP b) BOOLOP c")             \
  X(SET,     "set",     0,                     "d = (a CMP b) ? all ones (1.0f) : 0")    \
  X(SELP,    "selp",    0,                     "d = c ? a : b")                          \
  X(SLCT,    "slct",    0,                     "d = c >= 0 ? a : b")                     \
  X(TESTP,   "testp",   0,                     "p = class test of a (finite, infinite, number, notanumber, normal, subnormal)") \
  /* floating-point functions */                                                        \
  X(SQRT,    "sqrt",    0,                     "d = sqrt(a)")                            \
  X(RSQRT,   "rsqrt",   0,                     "d = 1 / sqrt(a)")                        \
  X(RCP,     "rcp",     0,                     "d = 1 / a")                              \
  X(EX2,     "ex2",     0,                     "d = 2^a")                                \
  X(LG2,     "lg2",     0,                     "d = log2(a)")                            \
  X(SIN,     "sin",     0,                     "d = sin(a)")                             \
  X(COS,     "cos",     0,                     "d = cos(a)")                             \
  X(TANH,    "tanh",    0,                     "d = tanh(a)")                            \
  /* control flow */                                                                    \
  X(BRA,     "bra",     OPF_BRANCH | OPF_NODST,"pc = label (divergent lanes reconverge at the immediate post-dominator)") \
  X(RET,     "ret",     OPF_EXIT | OPF_NODST,  "return from the kernel (no device-function calls)") \
  X(EXIT,    "exit",    OPF_EXIT | OPF_NODST,  "end the thread")                         \
  X(TRAP,    "trap",    OPF_EXIT | OPF_NODST,  "abort the kernel: a fault")              \
  X(BAR,     "bar",     OPF_BARRIER | OPF_NODST, "bar.sync/bar.arrive a[, b]: block barrier a, b threads; bar.red d, a[, b], c: and a block-wide popc/and/or of c") \
  X(BARRIER, "barrier", OPF_BARRIER | OPF_NODST, "barrier.sync[.aligned] a[, b]: as bar.sync") \
  X(MEMBAR,  "membar",  OPF_NODST,             "memory ordering: no effect in a sequential emulator") \
  X(FENCE,   "fence",   OPF_NODST,             "memory ordering: no effect in a sequential emulator") \
  X(BARWARP, "bar.warp",OPF_NODST,             "bar.warp.sync mask: warp already in lockstep") \
  X(NANOSLEEP,"nanosleep",OPF_NODST,           "no effect")                              \
  X(PREFETCH,"prefetch",OPF_NODST,             "no effect on counters")                  \
  /* atomics and warp-level */                                                          \
  X(ATOM,    "atom",    OPF_MEM,               "d = [a]; [a] = OP([a], b[, c]) atomically") \
  X(RED,     "red",     OPF_MEM | OPF_NODST,   "[a] = OP([a], b) atomically, no result") \
  X(SHFL,    "shfl",    OPF_WARP,              "d[|p] = a from lane (up/down/bfly/idx b, clamp c), mask e") \
  X(VOTE,    "vote",    OPF_WARP,              "d = all/any/uni/ballot of predicate a over mask b") \
  X(ACTIVEMASK,"activemask",OPF_WARP,          "d = mask of active lanes")               \
  X(MATCH,   "match",   OPF_WARP,              "d = lanes of mask whose a equals mine (.any/.all)") \
  X(REDUX,   "redux",   OPF_WARP,              "d = add/min/max/and/or/xor of a over mask b")

typedef enum {
#define X(e, name, flags, sem) PTX_OP_##e,
  PTX_OPS(X)
#undef X
  PTX_OP_COUNT
} PtxOp;

extern const char *const ptx_op_name[PTX_OP_COUNT];
extern const unsigned char ptx_op_flags[PTX_OP_COUNT];

#endif
