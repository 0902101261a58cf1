/* ptx.h - a PTX module decoded once into compact form.
 *
 * The parser (ptx_parse.c and the files ptx_parse_int.h lists) turns PTX
 * text into a PtxModule; the emulator runs PtxInstr arrays without looking
 * at text again.  Registers are numbered
 * slots (every register, whatever its type, is one 64-bit slot per lane);
 * symbols are resolved to offsets in their state space; labels to
 * instruction indices.
 */
#ifndef WM_PTX_H
#define WM_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx_ops.h"
#include "util/diag.h"

#define PTX_NOREG 0xffffffffu /* no register (a '_' sink, no guard, no base) */
/* An element of a TMA instruction's coordinate vector written as a
 * constant ({0, %r49, %r1061, 0, 0}, as CUTLASS-style code passes a 5-D
 * box's unused coordinates): PTX_VCONST + i, the value in
 * PtxKernel.vconsts[i]. */
#define PTX_VCONST 0xf0000000u
static inline int ptx_is_vconst(uint32_t r) { return r >= PTX_VCONST && r != 0xffffffffu; }

/* What the front end accepts (docs/limits.md says why each value). */
#define PTX_MAX_BYTES (256u << 20)  /* a PTX text: 256 MiB */
#define PTX_MAX_INSTRS (1 << 22)    /* a kernel's instructions, its device functions' included */
#define PTX_MAX_FUNCS 4096          /* device functions one kernel reaches */

/* Data types.  Size in bytes from ptx_type_size(). */
typedef enum {
  PTX_T_NONE,
  PTX_T_PRED,
  PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
  PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
  PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
  PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_F32, PTX_T_F64,
  /* formats only cvt names (their values live in .b16/.b32 registers) */
  PTX_T_TF32, PTX_T_E4M3X2, PTX_T_E5M2X2,
  /* packed 16-bit integers (sm_90: add, sub, min, max) */
  PTX_T_U16X2, PTX_T_S16X2,
  PTX_T_COUNT
} PtxType;

/* Inline: the emulator asks for every instruction it runs. */
extern const uint8_t ptx_type_sizes[PTX_T_COUNT];
static inline unsigned ptx_type_size(PtxType t) { /* bytes; PRED is 1 */
  return (unsigned)t < PTX_T_COUNT ? ptx_type_sizes[t] : 0;
}
static inline int ptx_type_is_signed(PtxType t) { /* .sN */
  return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}
static inline int ptx_type_is_float(PtxType t) { /* .f16/.bf16/.f32/.f64 (and x2) */
  return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2 || t == PTX_T_F32 ||
         t == PTX_T_F64;
}
const char *ptx_type_name(PtxType t);  /* "f32", ... */

/* State spaces.  Addresses in GENERIC are mapped by the emulator's windows. */
typedef enum {
  PTX_S_NONE, PTX_S_REG, PTX_S_PARAM, PTX_S_GLOBAL, PTX_S_SHARED,
  PTX_S_LOCAL, PTX_S_CONST, PTX_S_GENERIC,
  PTX_S_CLUSTER, /* .shared::cluster: distributed shared memory (sm_90);
                    the emulator resolves a lane's address to the block
                    that holds it: a peer's is CLUSTER, its own SHARED */
  PTX_S_COUNT
} PtxSpace;

/* Call frames.  A device function's .param variables (its parameters and
 * the arguments of the calls it makes) live in the thread's local memory
 * with its .local variables, in a frame at a per-call offset that the
 * function's frame register (PtxKernel.fp_slot) holds; an address
 * [frame + PTX_PARAM_FRAME + off] in the .param space is offset off of the
 * thread's local memory, not of the kernel's parameters.  The memory model
 * counts .param accesses nowhere (they are registers on the GPU), .local
 * ones as local memory. */
#define PTX_PARAM_FRAME 0x40000000u
/* The address of device function i of a module (PtxModule.funcs), for
 * function pointers: a code address no buffer can have. */
#define PTX_FUNC_ADDR_BASE 0x0000530000000000ull
#define PTX_FUNC_ADDR_STEP 16u
const char *ptx_space_name(PtxSpace s); /* "global", ... */

/* Special registers: X(ENUM, "name without %") */
#define PTX_SREGS(X)                                                          \
  X(TID_X, "tid.x") X(TID_Y, "tid.y") X(TID_Z, "tid.z")                       \
  X(NTID_X, "ntid.x") X(NTID_Y, "ntid.y") X(NTID_Z, "ntid.z")                 \
  X(CTAID_X, "ctaid.x") X(CTAID_Y, "ctaid.y") X(CTAID_Z, "ctaid.z")           \
  X(NCTAID_X, "nctaid.x") X(NCTAID_Y, "nctaid.y") X(NCTAID_Z, "nctaid.z")     \
  X(LANEID, "laneid") X(WARPID, "warpid") X(NWARPID, "nwarpid")               \
  X(SMID, "smid") X(NSMID, "nsmid") X(GRIDID, "gridid")                       \
  X(LANEMASK_EQ, "lanemask_eq") X(LANEMASK_LT, "lanemask_lt")                 \
  X(LANEMASK_LE, "lanemask_le") X(LANEMASK_GT, "lanemask_gt")                 \
  X(LANEMASK_GE, "lanemask_ge")                                               \
  X(CLOCK, "clock") X(CLOCK64, "clock64") X(GLOBALTIMER, "globaltimer")       \
  X(DYN_SMEM, "dynamic_smem_size") X(TOTAL_SMEM, "total_smem_size")        \
  X(GLOBALTIMER_LO, "globaltimer_lo") X(GLOBALTIMER_HI, "globaltimer_hi")     \
  X(CLOCK_HI, "clock_hi")                                                     \
  /* driver-provided values: 1 and 2 hold the grid-sync workspace of a     \
   * cooperative launch (cooperative_groups/details/driver_abi.h) */        \
  X(ENVREG0, "envreg0") X(ENVREG1, "envreg1") X(ENVREG2, "envreg2")         \
  X(ENVREG3, "envreg3") X(ENVREG4, "envreg4") X(ENVREG5, "envreg5")         \
  X(ENVREG6, "envreg6") X(ENVREG7, "envreg7") X(ENVREG8, "envreg8")         \
  X(ENVREG9, "envreg9") X(ENVREG10, "envreg10") X(ENVREG11, "envreg11")     \
  X(ENVREG12, "envreg12") X(ENVREG13, "envreg13") X(ENVREG14, "envreg14")   \
  X(ENVREG15, "envreg15") X(ENVREG16, "envreg16") X(ENVREG17, "envreg17")   \
  X(ENVREG18, "envreg18") X(ENVREG19, "envreg19") X(ENVREG20, "envreg20")   \
  X(ENVREG21, "envreg21") X(ENVREG22, "envreg22") X(ENVREG23, "envreg23")   \
  X(ENVREG24, "envreg24") X(ENVREG25, "envreg25") X(ENVREG26, "envreg26")   \
  X(ENVREG27, "envreg27") X(ENVREG28, "envreg28") X(ENVREG29, "envreg29")   \
  X(ENVREG30, "envreg30") X(ENVREG31, "envreg31")                           \
  /* clusters (sm_90): a launch without clusters has clusters of one block */ \
  X(CLUSTER_CTAID_X, "cluster_ctaid.x") X(CLUSTER_CTAID_Y, "cluster_ctaid.y") \
  X(CLUSTER_CTAID_Z, "cluster_ctaid.z")                                       \
  X(CLUSTER_NCTAID_X, "cluster_nctaid.x") X(CLUSTER_NCTAID_Y, "cluster_nctaid.y") \
  X(CLUSTER_NCTAID_Z, "cluster_nctaid.z")                                     \
  X(CLUSTERID_X, "clusterid.x") X(CLUSTERID_Y, "clusterid.y") X(CLUSTERID_Z, "clusterid.z") \
  X(NCLUSTERID_X, "nclusterid.x") X(NCLUSTERID_Y, "nclusterid.y")             \
  X(NCLUSTERID_Z, "nclusterid.z")                                             \
  X(CLUSTER_CTARANK, "cluster_ctarank") X(CLUSTER_NCTARANK, "cluster_nctarank") \
  X(IS_EXPLICIT_CLUSTER, "is_explicit_cluster")
/* Special registers whose value the parser knows are not here: it reads
 * them as another register (%aggr_smem_size as %total_smem_size) or as a
 * constant (%pm0..7 0, ...): pp_sreg_alias(). */

typedef enum {
#define X(e, name) PTX_SR_##e,
  PTX_SREGS(X)
#undef X
  PTX_SR_COUNT
} PtxSreg;
extern const char *const ptx_sreg_name[PTX_SR_COUNT];

/* Predefined identifiers and special registers whose value the parser
 * knows: it reads them as the special register `sreg`, or (sreg < 0) as
 * the constant `value` (ptx.c says why). */
typedef struct PtxSregAlias {
  const char *name;  /* as written: "WARP_SZ", "%clusterid.x" */
  int sreg;          /* PtxSreg, or -1 */
  uint64_t value;
} PtxSregAlias;
extern const PtxSregAlias ptx_sreg_alias[];
extern const int ptx_nsreg_alias;

/* Comparisons of setp/set (PtxInstr.cmp). */
typedef enum {
  PTX_CMP_NONE,
  PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
  PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,          /* unsigned */
  PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU,      /* float, unordered */
  PTX_CMP_GTU, PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN
} PtxCmp;

/* PtxInstr.sub: the variant of an opcode.  Which group applies depends on op. */
enum {
  PTX_SUB_NONE = 0,
  /* mul, mad, mul24, mad24 */
  PTX_SUB_LO, PTX_SUB_HI, PTX_SUB_WIDE,
  /* setp/set boolean combination with the c predicate */
  PTX_SUB_BAND, PTX_SUB_BOR, PTX_SUB_BXOR,
  /* shfl */
  PTX_SUB_UP, PTX_SUB_DOWN, PTX_SUB_BFLY, PTX_SUB_IDX,
  /* vote, match */
  PTX_SUB_ALL, PTX_SUB_ANY, PTX_SUB_UNI, PTX_SUB_BALLOT,
  /* atom, red, redux: the operation */
  PTX_SUB_AADD, PTX_SUB_AMIN, PTX_SUB_AMAX, PTX_SUB_AINC, PTX_SUB_ADEC,
  PTX_SUB_AEXCH, PTX_SUB_ACAS, PTX_SUB_AAND, PTX_SUB_AOR, PTX_SUB_AXOR,
  /* cvta: PtxInstr.space is the non-generic side; TO means space -> generic is
   * reversed (cvta.to.global: generic -> global) */
  PTX_SUB_TO,
  /* bar/barrier: bar.sync vs bar.arrive (bar.red: one of PTX_SUB_RED_*) */
  PTX_SUB_SYNC, PTX_SUB_ARRIVE,
  /* testp */
  PTX_SUB_FINITE, PTX_SUB_INFINITE, PTX_SUB_NUMBER, PTX_SUB_NOTANUMBER,
  PTX_SUB_NORMAL, PTX_SUB_SUBNORMAL,
  /* bfind-like shifts */
  PTX_SUB_CLAMP, PTX_SUB_WRAP,
  /* shf: direction and mode */
  PTX_SUB_SHF_L_WRAP, PTX_SUB_SHF_L_CLAMP, PTX_SUB_SHF_R_WRAP, PTX_SUB_SHF_R_CLAMP,
  /* bfind.shiftamt */
  PTX_SUB_SHIFTAMT,
  /* bar.red / barrier.red: the reduction */
  PTX_SUB_RED_POPC, PTX_SUB_RED_AND, PTX_SUB_RED_OR,
  /* tex, tld4, suld, sust: the geometry (PtxInstr.aux says the rest) */
  PTX_SUB_TEX_1D, PTX_SUB_TEX_2D, PTX_SUB_TEX_3D, PTX_SUB_TEX_A1D, PTX_SUB_TEX_A2D,
  PTX_SUB_TEX_CUBE, PTX_SUB_TEX_ACUBE, /* tex only */
  /* txq: the attribute queried */
  PTX_SUB_TXQ_WIDTH, PTX_SUB_TXQ_HEIGHT, PTX_SUB_TXQ_DEPTH, PTX_SUB_TXQ_CHTYPE, PTX_SUB_TXQ_CHORDER,
  PTX_SUB_TXQ_NORM, PTX_SUB_TXQ_FILTER, PTX_SUB_TXQ_ADDR0, PTX_SUB_TXQ_ADDR1, PTX_SUB_TXQ_ADDR2,
  PTX_SUB_TXQ_ARRAY, PTX_SUB_TXQ_MIPS, PTX_SUB_TXQ_SAMPLES,
  /* cp.async: what its fourth operand is (src-size, or the ignore-src
   * predicate); mbarrier ops and cp.async.mbarrier.arrive: the variant */
  PTX_SUB_ASYNC_SRCSIZE, PTX_SUB_ASYNC_IGNORE,
  PTX_SUB_MB_EXPECT_TX, PTX_SUB_MB_NOCOMPLETE, PTX_SUB_MB_PARITY, PTX_SUB_MB_NOINC,
  /* cp.async.bulk{.tensor} from shared to global (.bulk_group) */
  PTX_SUB_BULK_STORE,
  /* setmaxnreg.inc / .dec */
  PTX_SUB_NREG_INC, PTX_SUB_NREG_DEC,
  /* cp.async.bulk.shared::cluster.shared::cta: into a peer block's shared
   * memory (cp.reduce.async.bulk says its direction with space: GLOBAL or
   * SHARED, and its operation with PTX_SUB_AADD..AXOR) */
  PTX_SUB_BULK_DSM,
  /* prefetch.tensormap: a tensor map into the TMA unit's cache */
  PTX_SUB_TENSORMAP
};

/* PtxInstr.aux of the TMA instructions (cp.async.bulk.tensor,
 * cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor): the
 * dimensions (.1d-.5d) in the low 3 bits, the load mode, .multicast::cluster
 * (also of the plain cp.async.bulk). */
#define PTX_TMA_DIMS(aux) ((aux) & 7u)
#define PTX_TMA_IM2COL 8          /* .im2col (with offsets) */
#define PTX_TMA_IM2COL_NO_OFFS 16 /* .im2col_no_offs (stores, reductions) */
#define PTX_TMA_MULTICAST 32      /* .multicast::cluster: a ctaMask operand */
/* PtxInstr.aux of mbarrier.arrive{,_drop}: .cluster scope (its release is
 * a memory barrier for the arriving warp: emu/emu_clock.c). */
#define PTX_MB_CLUSTER 1
/* PtxInstr.aux of barrier.cluster.arrive: .relaxed (no release: without
 * it the arrival is a release at cluster scope, as an mbarrier's). */
#define PTX_BC_RELAXED 1
/* PtxInstr.aux of tensormap.replace: the field (PTX ISA 9.7.9.28: .field1,
 * .field2 taking an ordinal, .field3 taking an immediate). */
#define PTX_TMAP_FIELDS(X)                                                          \
  X(GLOBAL_ADDRESS, "global_address") X(RANK, "rank") X(BOX_DIM, "box_dim")       \
  X(GLOBAL_DIM, "global_dim") X(GLOBAL_STRIDE, "global_stride")                    \
  X(ELEMENT_STRIDE, "element_stride") X(ELEMTYPE, "elemtype")                      \
  X(INTERLEAVE, "interleave_layout") X(SWIZZLE_MODE, "swizzle_mode")               \
  X(SWIZZLE_ATOMICITY, "swizzle_atomicity") X(FILL_MODE, "fill_mode")
enum {
  PTX_TMAP_NONE,
#define X(e, name) PTX_TMAP_##e,
  PTX_TMAP_FIELDS(X)
#undef X
};

/* PtxInstr.aux of texture and surface instructions: tex: PTX_TEX_LEVEL or
 * PTX_TEX_GRAD (0: neither); tld4: the channel, 0..3 for .r .g .b .a;
 * suld/sust: PTX_SU_TRAP/CLAMP/ZERO, plus PTX_SU_P for sust.p. */
enum { PTX_TEX_LEVEL = 1, PTX_TEX_GRAD = 2 };
enum { PTX_SU_TRAP = 0, PTX_SU_CLAMP = 1, PTX_SU_ZERO = 2, PTX_SU_P = 4 };

/* Rounding (PtxInstr.rnd): for cvt, float arithmetic, div, sqrt, rcp. */
typedef enum {
  PTX_RND_NONE,
  PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,      /* float rounding */
  PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,  /* round to integer */
  PTX_RND_APPROX, PTX_RND_FULL,                       /* approximate forms */
  PTX_RND_RNA                                         /* cvt.rna: nearest, ties away */
} PtxRnd;

/* PtxInstr.flags */
#define PTX_IF_FTZ      0x0001 /* .ftz: flush subnormals to zero */
#define PTX_IF_SAT      0x0002 /* .sat: clamp */
#define PTX_IF_UNI      0x0004 /* .uni: branch known uniform */
#define PTX_IF_VOLATILE 0x0008 /* .volatile (or .relaxed/.acquire/.release) */
#define PTX_IF_NC       0x0010 /* ld.global.nc (read-only path) */
#define PTX_IF_CA       0x0020 /* cache operators */
#define PTX_IF_CG       0x0040
#define PTX_IF_CS       0x0080
#define PTX_IF_LU       0x0100
#define PTX_IF_CV       0x0200
#define PTX_IF_WB       0x0400
#define PTX_IF_WT       0x0800
#define PTX_IF_CC       0x1000 /* .cc: writes the carry flag */
#define PTX_IF_NEG_C    0x2000 /* setp: the c predicate operand was written !%p */
#define PTX_IF_NOUNROLL 0x4000 /* the first instruction after `.pragma "nounroll";`:
                                  ptxas does not unroll the loop it heads */
#define PTX_IF_CTA      0x8000 /* ld/st .cta: a strong access within the block,
                                  which the SM's L1 may serve */

/* PtxInstr.fmod: the modifiers of half-precision arithmetic and of the
 * narrow conversions (M_RELU, M_NANMODE, M_OOB, M_SATFINITE). */
#define PTX_FM_RELU      0x01 /* .relu: negative results become +0 */
#define PTX_FM_NAN       0x02 /* min/max .NaN: a NaN operand gives NaN */
#define PTX_FM_XORSIGN   0x04 /* min/max .xorsign.abs (both words) */
#define PTX_FM_ABS       0x08
#define PTX_FM_OOB       0x10 /* fma .oob: an out-of-bounds operand gives 0 */
#define PTX_FM_SATFINITE 0x20 /* cvt .satfinite: no infinities */

/* Operand kinds. */
typedef enum {
  PTX_O_NONE,
  PTX_O_REG,   /* reg[0] */
  PTX_O_IMM,   /* imm: integer value, or the IEEE bits of a float immediate
                  converted to the instruction's type (0f.. and 0d.. literals,
                  decimal floats) */
  PTX_O_SREG,  /* sreg */
  PTX_O_ADDR,  /* [reg[0] + imm]; reg[0] == PTX_NOREG for [symbol+off] or
                  [imm]; a symbol's address is folded into imm */
  PTX_O_VEC,   /* {reg[0], ..., reg[n-1]}; PTX_NOREG for '_' */
  PTX_O_LABEL, /* imm: index of the target instruction in PtxKernel.code */
  PTX_O_SYM    /* a variable used as a value (mov %r, sym): imm is its
                  address in space `space` */
} PtxOpdKind;

typedef struct PtxOperand {
  uint8_t kind;     /* PtxOpdKind */
  uint8_t neg;      /* REG of a predicate written !%p */
  uint8_t n;        /* VEC: number of elements (2 or 4) */
  uint8_t sreg;     /* SREG: PtxSreg */
  uint8_t space;    /* ADDR/SYM: PtxSpace of the symbol, or PTX_S_NONE */
  uint8_t vimm;     /* VEC: bit i set: element i is the constant imm, not a
                       register (a source such as {0, %rs1}: the bf16 -> f32
                       idiom of <cuda_bf16.h>) */
  uint32_t reg[4];
  int64_t imm;
} PtxOperand;

#define PTX_MAX_OPD 6

/* Tensor-core instructions (ldmatrix, stmatrix, movmatrix, mma, wmma.*,
 * wgmma.*): what their modifiers say (ptx_mma.c, ptx_wgmma.c).  Their
 * vector operands hold up to 8 registers (wgmma's D up to 128): a vector of
 * more than 4 keeps them in PtxKernel.vregs from index imm (ptx_vec_reg
 * reads either form). */
typedef enum {
  PTX_MMA_NONE, PTX_MMA_M8N8, PTX_MMA_M8N8K4, PTX_MMA_M16N8K4, PTX_MMA_M16N8K8, PTX_MMA_M16N8K16,
  PTX_MMA_M16N8K32, PTX_MMA_M16N16K16, PTX_MMA_M32N8K16, PTX_MMA_M8N32K16, PTX_MMA_M16N16K8, PTX_MMA_M8N8K16,
  PTX_MMA_COUNT
} PtxMmaShape;
#define PTX_MMA_TF32 PTX_T_TF32 /* the element type of tf32 A and B */
#define PTX_MMA_ACOL 1           /* layout: A (wmma.load/store: the matrix) is column-major */
#define PTX_MMA_BCOL 2           /* layout: B is column-major */
#define PTX_MMA_TRANS 4          /* layout: ldmatrix/stmatrix/movmatrix .trans */
#define PTX_MMA_SAT 8            /* layout: .satfinite */
/* wgmma.mma_async's element types beyond PtxType (ptx_wgmma.c) */
#define PTX_MMA_E4M3 PTX_T_COUNT       /* fp8: 4 exponent bits, 3 mantissa */
#define PTX_MMA_E5M2 (PTX_T_COUNT + 1) /* fp8: 5 exponent bits, 2 mantissa */
#define PTX_MMA_B1 (PTX_T_COUNT + 2)   /* single bits (.and.popc) */
/* PtxMma.wg: wgmma.mma_async's immediates and forms */
#define PTX_WG_NEG_A 1    /* imm-scale-a is -1: A negated */
#define PTX_WG_NEG_B 2    /* imm-scale-b is -1 */
#define PTX_WG_TRANS_A 4  /* imm-trans-a is 1: A is M-major in shared memory */
#define PTX_WG_TRANS_B 8  /* imm-trans-b is 1: B is N-major */
#define PTX_WG_AREG 16    /* A comes from registers (opd[1] is a vector) */
#define PTX_WG_SCALE_IMM 32 /* scale-d is an immediate (opd[3].imm), not a predicate */
typedef struct PtxMma {
  uint8_t shape;    /* PtxMmaShape (wgmma: PTX_MMA_NONE, wn and wk say it) */
  uint8_t layout;   /* PTX_MMA_* bits */
  uint8_t num;      /* ldmatrix/stmatrix: matrices (.x1 .x2 .x4) */
  uint8_t frag;     /* wmma.load/store: 'a', 'b', 'c' or 'd' */
  uint8_t dtype, atype, btype, ctype; /* PtxType or PTX_MMA_TF32; ldmatrix,
                       wmma.load/store: the one type in dtype; wgmma: D, A,
                       B (PTX_MMA_E4M3/E5M2/B1 too; ctype unused) */
  uint16_t wn;      /* wgmma.mma_async: N of .m64nNkK (8..256) */
  uint16_t wk;      /* and K (8, 16, 32 or 256) */
  uint8_t wg;       /* PTX_WG_* */
} PtxMma;

typedef struct PtxInstr {
  uint16_t op;      /* PtxOp */
  uint8_t type;     /* PtxType: the main type (last type suffix for most
                       instructions; the destination type for cvt) */
  uint8_t type2;    /* cvt: source type; mul.wide/mad.wide: same as type
                       (the destination is twice as wide); set: source type;
                       otherwise PTX_T_NONE */
  uint8_t space;    /* ld/st/atom/red/cvta/prefetch: PtxSpace (GENERIC when
                       the instruction names none) */
  uint8_t vec;      /* 1, 2 or 4 (.v2/.v4) */
  uint8_t cmp;      /* setp/set: PtxCmp */
  uint8_t sub;      /* PTX_SUB_* variant */
  uint8_t rnd;      /* PtxRnd */
  uint8_t aux;      /* texture and surface instructions: see PTX_TEX_*; TMA: PTX_TMA_* */
  uint8_t nopd;     /* operands in opd[] */
  uint16_t flags;   /* PTX_IF_* */
  uint8_t fmod;     /* PTX_FM_* */
  uint32_t guard;   /* @%p guard register, PTX_NOREG if none */
  uint8_t guard_neg;/* @!%p */
  PtxOperand opd[PTX_MAX_OPD]; /* destination(s) first, as written */
  /* where it came from */
  uint32_t ptx_line;  /* 1-based line in the PTX text */
  uint16_t ptx_col;   /* 1-based column of the mnemonic (or guard) */
  uint16_t cu_file;   /* .loc file index (PtxModule.files), 0 if none */
  uint32_t cu_line;   /* .loc line, 0 if none */
  uint32_t text;      /* offset of this instruction's text in PtxModule.text */
  /* Code inlined from another function (a .loc with inlined_at): cu_file and
   * cu_line above name the outermost call site -- the line in the kernel --
   * and these the position inside the inlined function (the header line of
   * __ldg, a shuffle, ...).  Not inlined: the same as cu_file/cu_line. */
  uint16_t cu_file_inner;
  uint32_t cu_line_inner;
  PtxMma mma;         /* tensor-core instructions only */
  uint32_t fused;     /* an f32/f64 add or sub that ptxas contracted with the
                         mul whose product it reads into one fma
                         (ptx_contractions): 1 + that mul's index in the
                         kernel's code; 0 none */
} PtxInstr;

typedef struct PtxParam {
  char *name;
  uint8_t type;     /* PtxType of the .param (B8 for .b8 arrays) */
  uint32_t size;    /* bytes (arrays: element size * count) */
  uint32_t align;   /* bytes */
  uint32_t offset;  /* offset in the kernel's parameter buffer */
  uint8_t is_ptr;   /* .ptr attribute or a .u64 that nvcc uses as a pointer:
                       informational only */
} PtxParam;

/* A call site: a PtxInstr of op CALL has opd[0].imm = its index in
 * PtxKernel.calls. */
enum {
  PTX_CALL_INDIRECT = -1, /* through a function pointer in `reg` */
  PTX_CALL_VPRINTF = -2,  /* built-ins: the CUDA runtime's device functions */
  PTX_CALL_ASSERTFAIL = -3,
  PTX_CALL_MALLOC = -4,   /* malloc, new */
  PTX_CALL_FREE = -5,     /* free, delete */
  PTX_CALL_ALIGNED_MALLOC = -6 /* __nv_aligned_device_malloc, new of an
                                  over-aligned type */
};
typedef struct PtxCall {
  int32_t callee;     /* parsed: index in PtxModule.funcs; linked: index in
                         PtxKernel.fn; or PTX_CALL_* */
  uint32_t reg;       /* indirect: the register slot holding the address */
  uint16_t nret, narg;
  int32_t caller;     /* linked: index in PtxKernel.fn of the calling function */
  uint32_t *off;      /* [nret + narg] the caller's .param variables: offsets
                         in its frame (of local memory) */
  uint32_t *size;     /* [nret + narg] their sizes */
} PtxCall;

/* A function linked into a kernel (PtxKernel.fn): its code is
 * code[start, end), its registers slots [slot_base, slot_base + nslots). */
typedef struct PtxFn {
  const struct PtxKernel *f;  /* the module's function; NULL: the kernel */
  uint32_t start, end;
  uint32_t slot_base, nslots;
  uint32_t fp_slot;           /* its frame register (PTX_NOREG: the kernel) */
} PtxFn;

/* A static .shared variable (PtxModule.svars) where the parser placed it:
 * module-scope ones first come, then each body's own after them.  A
 * kernel's layout keeps only the module-scope variables its code (or a
 * function it reaches) names, as ptxas does: ptx_link.c. */
typedef struct PtxSharedVar {
  uint32_t offset, size, align;
  uint8_t module_scope;
} PtxSharedVar;

/* An operand whose immediate holds a shared address (PtxKernel.sfix):
 * instruction `instr` of the body's code, operand `opd`; var indexes
 * PtxModule.svars, -1 the dynamic (extern) array. */
typedef struct PtxSharedFix {
  uint32_t instr;
  uint8_t opd;
  int32_t var;
} PtxSharedFix;

typedef struct PtxKernel {
  char *name;         /* the .entry name as written (possibly mangled) */
  char *plain_name;   /* the C++ function name of a mangled entry
                         (_Z8transposePfPKfii -> "transpose"), else == name */
  PtxParam *params;
  int nparams;
  uint32_t param_size;      /* bytes of the parameter buffer */
  PtxInstr *code;
  int ncode;
  uint32_t nregs;           /* register slots used by code */
  char **reg_names;         /* [nregs]: "%r5", for messages */
  uint32_t shared_static;   /* bytes of static shared memory: the
                               module-level .shared variables it uses, then
                               this entry's own (linked: ptx_link.c) */
  uint32_t shared_extern_align; /* alignment of the dynamic (extern) shared
                               array, placed at the end of the static part
                               rounded up to it; 0 if the kernel has none */
  uint32_t local_size;      /* bytes of .local per thread (depot + others) */
  uint32_t maxntid[3];      /* .maxntid if given, else 0 */
  uint32_t reqntid[3];      /* .reqntid if given, else 0 */
  uint32_t cluster_dims[3]; /* .reqnctapercluster (__cluster_dims__) if
                               given, else 0: a launch's default cluster */
  uint32_t max_cluster_rank;/* .maxclusterrank: most blocks a cluster may
                               have, 0 if not given */
  uint8_t explicit_cluster; /* .explicitcluster: must be launched with a
                               cluster dimension */
  uint32_t line;            /* PTX line of the .entry */
  int regs;                 /* registers per thread from ptxas -v
                               (ptx_registers), 0: unknown */
  uint32_t code_bytes;      /* the size of its SASS (.text.NAME of the cubin
                               ptxas -v built), 0 when unknown: a launch
                               reads it from DRAM */
  int64_t *vconsts;         /* constants of coordinate vectors (PTX_VCONST) */
  uint32_t nvconsts, capvconsts;
  uint32_t *vregs;          /* registers of vector operands longer than 4
                               (tensor-core fragments), see PtxMma */
  uint32_t nvregs, capvregs;
  char *unsupported;        /* NULL, or the located message (file:line:col,
                               the line, a caret) of the first construct in
                               this kernel that warpmem does not run (call,
                               tex, cp.async, ...): the module loads, the
                               other kernels run, ptx_find_kernel refuses this
                               one with WM_EUNSUP and this message.  code[]
                               is then incomplete.  A malformed body (a
                               parse error) refuses its kernel the same
                               way, with refused_code WM_EPARSE. */
  int refused_code;         /* the WM_E* code of `unsupported` (0: WM_EUNSUP) */
  /* Calls.  Functions (.func) are PtxKernels too, in PtxModule.funcs; at
   * the end of parsing, the functions a kernel can reach are appended to its
   * code (their registers renumbered after its own, their labels and calls
   * relocated: ptx_link.c), so that code[] is everything the kernel runs. */
  PtxCall *calls;
  int ncalls;
  uint8_t is_func;          /* a .func */
  uint8_t has_body;         /* .func: defined here (not only declared) */
  uint8_t addr_taken;       /* .func: its address is a value somewhere */
  int32_t builtin;          /* .func without body: PTX_CALL_* or 0 */
  uint16_t nret;            /* .func: return parameters, first in params[] */
  uint32_t fp_slot;         /* .func: its frame register */
  uint32_t frame_size;      /* bytes of local memory of one frame: a
                               function's parameters, .local variables and
                               call arguments; a kernel's .local variables
                               and call arguments (the stack starts after) */
  PtxFn *fn;                /* [nfn] linked functions, fn[0] the kernel;
                               NULL when it calls none */
  int nfn;
  int *fn_of;               /* [PtxModule.nfuncs] index in fn or -1 */
  uint8_t *reach;           /* [nfn * nfn]: fn i can call fn j, directly or not */
  uint32_t kernel_ncode;    /* instructions of the kernel itself */
  PtxSharedFix *sfix;       /* operands of its own code naming shared memory */
  uint32_t nsfix, capsfix;
  int32_t svar_lo, svar_hi; /* its own shared variables: svars[lo, hi) */
} PtxKernel;

/* A module-scope variable in .global or .const (with its initializer). */
typedef struct PtxVar {
  char *name;
  uint8_t space;    /* PTX_S_GLOBAL or PTX_S_CONST */
  uint8_t type;
  uint32_t size, align;
  uint64_t offset;  /* offset in the module's global or const segment */
  uint32_t line;
} PtxVar;

/* An address in a variable's initializer (a table of strings: .u64 names[3]
 * = {generic($str), ...}): the 8 bytes at `at` of the .global or .const
 * segment (`space`) hold an offset in the .global segment, to which the
 * emulator adds the segment's address. */
typedef struct PtxReloc {
  uint8_t space;
  uint64_t at;
} PtxReloc;

typedef struct PtxModule {
  char *path;        /* shown in messages: the .ptx, or the .cu it came from */
  char *text;        /* the whole PTX text (owned) */
  int version_major, version_minor; /* .version */
  char target[32];   /* .target, e.g. "sm_90" */
  int address_size;  /* 32 or 64 */
  PtxKernel *kernels;
  int nkernels;
  char **files;      /* .file names indexed by number, NULL where unset */
  int nfiles;        /* length of files[] (max index + 1) */
  PtxKernel *funcs;  /* device functions (.func), declared or defined */
  int nfuncs;
  PtxVar *vars;      /* module-scope .global and .const variables */
  int nvars;
  PtxSharedVar *svars; /* every static .shared variable, in declaration order */
  int nsvars, capsvars;
  uint32_t const_size;   /* bytes of the .const segment */
  uint8_t *const_init;   /* [const_size] initial contents (zeros if none) */
  PtxReloc *relocs;      /* addresses in initializers */
  int nrelocs;
  uint64_t global_size;  /* bytes of module .global variables */
  uint8_t *global_init;  /* [global_size] initial contents */
  char regs_from[64];    /* how PtxKernel.regs were found: "ptxas -arch=sm_90" */
  char regs_note[192];   /* why they are unknown or from another target */
  int fused_known;       /* ptx_contractions read ptxas's code: every add's
                            PtxInstr.fused is ptxas's choice */
  char fused_note[192];  /* how (or why not) */
} PtxModule;

/* Parses PTX text.  `path` names the file in messages; the module takes
 * ownership of `text` (a malloc'd NUL-terminated buffer) in all cases.
 * Returns NULL with a located error (file:line:col, the line, a caret) in e
 * for malformed PTX, or for unsupported constructs outside a kernel's
 * instructions; an unsupported instruction only marks its kernel
 * (PtxKernel.unsupported).  Free with ptx_module_free(). */
PtxModule *ptx_parse(const char *path, char *text, WmErr *e);

/* Reads `path`: a .ptx is parsed as is, a .cu is first compiled with
 * `nvcc -ptx -arch=ARCH -O3 -lineinfo` (nvcc from PATH or $CUDA_HOME/bin).
 * `arch` is e.g. "sm_90"; NULL: arch_ptx_target().  Free with
 * ptx_module_free(). */
PtxModule *ptx_load(const char *path, const char *arch, WmErr *e);
/* ptx_load with extra nvcc flags for a .cu (a project's -I DIR, -D NAME=V,
 * -std=c++17, ...: each element one argument, placed before the file;
 * ignored for a .ptx).  A failed compile's message holds nvcc's output and
 * the command run. */
PtxModule *ptx_load_with(const char *path, const char *arch, const char *const *nvcc_flags, int nflags, WmErr *e);
/* The tools' time limits (seconds; $WARPMEM_NVCC_TIMEOUT and
 * $WARPMEM_PTXAS_TIMEOUT override them): nvcc on a large project file takes
 * a minute at most; ptxas -v on a 30 MB PTX took minutes, for a register
 * count the occupancy can do without (it then assumes one, and says so).
 * Past its limit the tool's process group is killed. */
#define PTX_NVCC_TIMEOUT 300.0
#define PTX_PTXAS_TIMEOUT 60.0

/* wgmma.mma_async (ptx_wgmma.c): the registers of D and of a register A
 * its shape and types take (the PTX ISA's "Register Fragments"), and the
 * bits of one element of A and B (1 for .b1). */
int ptx_wgmma_dregs(const PtxMma *m);
int ptx_wgmma_aregs(const PtxMma *m);
unsigned ptx_wgmma_elem_bits(unsigned t);
/* "e4m3", or ptx_type_name() of a PtxType. */
const char *ptx_wgmma_type_name(unsigned t);

/* Registers per thread of the module's kernels, from `ptxas -arch=sm_XX -v`
 * on the module's PTX (ptxas found like nvcc): fills PtxKernel.regs of the
 * entries named in `entries` (PTX names; NULL: all) and m->regs_from.  `cc`
 * is the preset's compute capability * 10; CUDA 13's ptxas targets sm_75
 * and later only, so older (and sm_70) presets get sm_75's counts, said in
 * m->regs_note, with the PTX's .target lowered to match.  Returns 0, or -1
 * (ptxas missing or failed: m->regs_note says why; the kernels' regs stay
 * 0).  Never fatal to a simulation. */
int ptx_registers(PtxModule *m, int cc, const char *const *entries, int nentries);

/* Which float adds and subs ptxas contracts with a mul into one fma
 * (ptx_sass.c): compiles the module for sm_<cc> (or its own target) with
 * every instruction's PTX line as its line info and reads nvdisasm's
 * listing; sets PtxInstr.fused, m->fused_known and m->fused_note.  Only
 * when some add reads a plain mul's product (else nothing to decide:
 * fused_known 1 at once).  Returns 0, or -1 when ptxas or nvdisasm is
 * missing or fails (fused_note says why; nothing is marked).  Never fatal. */
int ptx_contractions(PtxModule *m, int cc);

void ptx_module_free(PtxModule *m);

/* Whether in is an f32/f64 `op` (mul, add, sub) without a rounding
 * modifier or .sat: one ptxas may contract into an fma (ptx_sass.c,
 * emu_approx.c). */
static inline int ptx_plain_float(const PtxInstr *in, int op) {
  return in->op == op && in->rnd == PTX_RND_NONE && !(in->flags & PTX_IF_SAT) &&
         (in->type == PTX_T_F32 || in->type == PTX_T_F64);
}

/* How many times register r is read by k's code (any operand but a
 * destination, and guards): ptx.c. */
int ptx_reads_of(const PtxKernel *k, uint32_t r);

/* Register i of vector operand o of an instruction of kernel k. */
static inline uint32_t ptx_vec_reg(const PtxKernel *k, const PtxOperand *o, int i) {
  return o->n > 4 ? k->vregs[o->imm + i] : o->reg[i];
}

/* Tensor-core fragments (ptx_mma.c). */
typedef struct PtxMmaDims {
  uint8_t m, n, k;
} PtxMmaDims;
extern const PtxMmaDims ptx_mma_dims[PTX_MMA_COUNT];
extern const char *const ptx_mma_shape_name[PTX_MMA_COUNT]; /* "m16n8k16" */
/* Bytes of an element of type t (PTX_MMA_TF32: 4). */
unsigned ptx_mma_elem_size(unsigned t);
/* The registers fragment `which` ('d', 'a', 'b', 'c') of instruction in
 * takes, as the PTX ISA gives them (wmma's f16 A and B: 8). */
int ptx_mma_regs(const PtxInstr *in, char which);

/* Finds an entry by PTX name or, failing that, by plain C++ name.  Returns
 * NULL (and a message listing the module's kernels in e, WM_EUSAGE) if none
 * or if the plain name is ambiguous, and NULL with the kernel's located
 * `unsupported` message (WM_EUNSUP) if it uses something warpmem does not
 * run. */
const PtxKernel *ptx_find_kernel(const PtxModule *m, const char *name, WmErr *e);

/* The CUDA source file name of an instruction: the file of cu_file ("" if
 * none; the parser also clears cu_line where .loc names a file number that no
 * .file defines, so cu_line != 0 means a non-empty name). */
const char *ptx_cu_file(const PtxModule *m, const PtxInstr *in);

/* Writes the instruction's PTX text (one line, trimmed, without the ';')
 * into buf. */
void ptx_instr_text(const PtxModule *m, const PtxInstr *in, char *buf, size_t n);

#endif
