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

/* Data types.  Size in bytes from ptx_type_size(). */
typedef enum {
  PTX_T_NONE,
  PTX_T_PRED,
  PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
  PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
  PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
  PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_F32, PTX_T_F64,
  PTX_T_COUNT
} PtxType;

unsigned ptx_type_size(PtxType t);     /* bytes; PRED is 1 */
int ptx_type_is_signed(PtxType t);     /* .sN */
int ptx_type_is_float(PtxType t);      /* .f16/.bf16/.f32/.f64 (and x2) */
const char *ptx_type_name(PtxType t);  /* "f32", ... */

/* State spaces.  Addresses in GENERIC are mapped by the emulator's windows. */
typedef enum {
  PTX_S_NONE, PTX_S_REG, PTX_S_PARAM, PTX_S_GLOBAL, PTX_S_SHARED,
  PTX_S_LOCAL, PTX_S_CONST, PTX_S_GENERIC, PTX_S_COUNT
} PtxSpace;
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
  X(DYN_SMEM, "dynamic_smem_size") X(TOTAL_SMEM, "total_smem_size")

typedef enum {
#define X(e, name) PTX_SR_##e,
  PTX_SREGS(X)
#undef X
  PTX_SR_COUNT
} PtxSreg;
extern const char *const ptx_sreg_name[PTX_SR_COUNT];

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
  PTX_SUB_RED_POPC, PTX_SUB_RED_AND, PTX_SUB_RED_OR
};

/* Rounding (PtxInstr.rnd): for cvt, float arithmetic, div, sqrt, rcp. */
typedef enum {
  PTX_RND_NONE,
  PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,      /* float rounding */
  PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,  /* round to integer */
  PTX_RND_APPROX, PTX_RND_FULL                        /* approximate forms */
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
#define PTX_IF_CC       0x1000 /* .cc / carry variants (addc, subc: unsupported) */
#define PTX_IF_NEG_C    0x2000 /* setp: the c predicate operand was written !%p */

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
  uint32_t reg[4];
  int64_t imm;
} PtxOperand;

#define PTX_MAX_OPD 6

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
  uint8_t nopd;     /* operands in opd[] */
  uint16_t flags;   /* PTX_IF_* */
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
  uint32_t shared_static;   /* bytes of static shared memory: module-level
                               .shared variables then this entry's own */
  uint32_t shared_extern_align; /* alignment of the dynamic (extern) shared
                               array, placed at the end of the static part
                               rounded up to it; 0 if the kernel has none */
  uint32_t local_size;      /* bytes of .local per thread (depot + others) */
  uint32_t maxntid[3];      /* .maxntid if given, else 0 */
  uint32_t reqntid[3];      /* .reqntid if given, else 0 */
  uint32_t line;            /* PTX line of the .entry */
  int regs;                 /* registers per thread from ptxas -v
                               (ptx_registers), 0: unknown */
  char *unsupported;        /* NULL, or the located message (file:line:col,
                               the line, a caret) of the first construct in
                               this kernel that warpmem does not run (call,
                               tex, cp.async, ...): the module loads, the
                               other kernels run, ptx_find_kernel refuses this
                               one with WM_EUNSUP and this message.  code[]
                               is then incomplete. */
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
  PtxVar *vars;      /* module-scope .global and .const variables */
  int nvars;
  uint32_t const_size;   /* bytes of the .const segment */
  uint8_t *const_init;   /* [const_size] initial contents (zeros if none) */
  uint64_t global_size;  /* bytes of module .global variables */
  uint8_t *global_init;  /* [global_size] initial contents */
  char regs_from[64];    /* how PtxKernel.regs were found: "ptxas -arch=sm_90" */
  char regs_note[192];   /* why they are unknown or from another target */
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

/* Registers per thread of the module's kernels, from `ptxas -arch=sm_XX -v`
 * on the module's PTX (ptxas found like nvcc): fills PtxKernel.regs of the
 * entries named in `entries` (PTX names; NULL: all) and m->regs_from.  `cc`
 * is the preset's compute capability * 10; CUDA 13's ptxas targets sm_75
 * and later only, so older (and sm_70) presets get sm_75's counts, said in
 * m->regs_note, with the PTX's .target lowered to match.  Returns 0, or -1
 * (ptxas missing or failed: m->regs_note says why; the kernels' regs stay
 * 0).  Never fatal to a simulation. */
int ptx_registers(PtxModule *m, int cc, const char *const *entries, int nentries);

void ptx_module_free(PtxModule *m);

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
