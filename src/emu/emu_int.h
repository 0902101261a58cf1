/* emu_int.h - the emulator's internal form: a kernel prepared for execution.
 *
 * emu_prepare() turns a PtxKernel into an EmuProgram once per launch:
 * every operand becomes a register-file slot (immediates and special
 * registers get read-only slots of their own, so an instruction's lanes
 * always read arrays), and every branch knows where its lanes reconverge
 * (the immediate post-dominator).
 */
#ifndef WM_EMU_INT_H
#define WM_EMU_INT_H

#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"

/* Generic-address windows: a generic address in [WIN, WIN + 4 GiB) is in
 * that space (cvta.shared adds SHARED_WIN, and so on); anything else is
 * global.  GMEM_BASE lies above them. */
#define EMU_SHARED_WIN 0x0000500000000000ull
#define EMU_LOCAL_WIN 0x0000510000000000ull
#define EMU_CONST_WIN 0x0000520000000000ull
#define EMU_PARAM_WIN 0x0000540000000000ull /* a kernel's parameters (cvta.param):
                                               __grid_constant__ tensor maps */
#define EMU_WIN_SIZE 0x100000000ull

#define EMU_NOSLOT 0xffffffffu

struct Block;
struct EmuInstr;
/* What runs an instruction (emu_exec.h: EMU_EXEC_ARGS). */
typedef int EmuExecFn(struct Block *b, const struct EmuInstr *x, int warp, uint32_t mask, uint64_t *R);

/* One decoded instruction.  Slots index the warp's register file. */
typedef struct EmuInstr {
  EmuExecFn *fn;        /* its function, chosen at prepare time (emu_select.c):
                           the row's exec, a half-precision one, the rounded
                           wrapper or a fast form (emu_fast.c) */
  uint16_t op;          /* PtxOp */
  uint8_t type, type2;  /* PtxType */
  uint8_t space, vec, cmp, sub, rnd;
  uint16_t flags;
  uint8_t nd;           /* destination slots used in d[] */
  uint8_t guard_neg;
  uint8_t aux;          /* PtxInstr.aux (textures and surfaces); mov: EMU_CLOCK_*;
                           an fma ptxas made of a mul and a sub: EMU_FUSED_* */
  uint32_t guard;       /* predicate slot or EMU_NOSLOT */
  uint32_t d[4];        /* destinations (vector elements); EMU_NOSLOT = sink */
  uint32_t s[6];        /* sources: a, b, c, ... (vector sources of st in s[0..3]) */
  uint8_t ns;           /* sources used */
  uint8_t s_neg[6];     /* predicate source written !%p */
  uint32_t abase;       /* address base slot or EMU_NOSLOT */
  int64_t aoff;         /* address offset */
  uint32_t target;      /* branch target pc; tensor-core instructions:
                           their EmuTensor in EmuProgram.tensor */
  uint32_t rpc;         /* branch: reconvergence pc (ncode = kernel exit) */
  uint8_t fuse;         /* EmuFuse: how the memory model counts this load */
  uint8_t host_rnd;     /* float .rz/.rm/.rp: runs in that host rounding mode */
  uint8_t fmod;         /* PTX_FM_*: .relu, .NaN, .xorsign.abs, .oob, .satfinite */
  uint8_t half;         /* a half type's function (emu_half_fns[half], chosen at
                           prepare time), 0: the row's exec */
  uint32_t imm;         /* a fast form's operand read at prepare time (a shift count) */
  uint8_t clocks;       /* a dependent instruction waits this long for its result (emu_latency.c) */
  uint8_t peer_clocks;  /* ld or atom of shared::cluster or generic space: the clocks more when it reads a peer block's memory */
} EmuInstr;

/* ptxas fuses four scalar 4-byte shared loads of one thread from
 * consecutive words of an aligned 16 bytes into one LDS.128 (mm_s:
 * As[ty][k..k+3]).  The emulator still runs each load; the memory model
 * sees one 16-byte request at the group's first word (if every lane's
 * address is 16-byte aligned) and nothing for the other three. */
/* EmuInstr.aux of a mov that reads a clock (emu_prepare.c): the time now,
 * its low bits or its high 32. */
enum { EMU_CLOCK_NONE, EMU_CLOCK_LOW, EMU_CLOCK_HIGH };
/* EmuInstr.aux of an fma made of a mul and the sub ptxas contracted it
 * with (emu_prepare.c, PtxInstr.fused): a*b - c, or c - a*b. */
enum { EMU_FUSED_ADD, EMU_FUSED_NEG_C, EMU_FUSED_NEG_AB };

typedef enum { FUSE_NONE, FUSE_LEAD4, FUSE_MEMBER,
               FUSE_AGGREGATE /* a reduction ptxas makes one lane's (emu_uniform.c) */ } EmuFuse;

/* A tensor-core instruction's register lists, which EmuInstr's d[]/s[]
 * cannot hold (wmma fragments have 8), kept aside so that every other
 * instruction stays small. */
/* A TMA instruction's (shape SH_TMA) EmuTensor: r[0][0..n[0]) its
 * coordinates, r[1][0..n[1]) its im2col offsets, r[2][EMU_TMA_*] the slots
 * of its addresses (a base and an offset each; a constant 0 base without a
 * register) and ctaMask (EMU_NOSLOT: none); m.dtype is the tensor map's
 * space (PTX_S_GENERIC, or a .param or .const variable's). */
enum { EMU_TMA_MAP = 0, EMU_TMA_SMEM = 2, EMU_TMA_MBAR = 4, EMU_TMA_MASK = 6, EMU_TMA_NSLOTS = 7 };

typedef struct EmuTensor {
  PtxMma m;             /* shape, layouts, types (ptx.h) */
  uint8_t n[4];         /* registers in r[i] */
  uint32_t r[4][8];     /* slots: mma d, a, b, c; ldmatrix/wmma.load the
                           destination and stmatrix/wmma.store the source in
                           r[0]; movmatrix d in r[0], a in r[1]; EMU_NOSLOT
                           for '_' */
  uint32_t stride;      /* wmma.load/store: slot of the stride operand, or
                           EMU_NOSLOT (the matrix is dense) */
} EmuTensor;

/* A wgmma.mma_async's operands, decoded once (emu_wgmma.c): D has up to
 * 128 registers, more than EmuTensor holds. */
typedef struct EmuWgmma {
  PtxMma m;             /* shape (wn, wk), types, PTX_WG_* (ptx.h) */
  uint16_t nd;          /* registers in d[] */
  uint8_t scale_imm;    /* scale-d when it is an immediate (scale == EMU_NOSLOT) */
  uint32_t adesc, bdesc;/* the descriptors' slots (adesc EMU_NOSLOT: A in a[]) */
  uint32_t a[4];        /* A's registers (PTX_WG_AREG) */
  uint32_t scale;       /* scale-d's predicate slot, or EMU_NOSLOT */
  uint32_t d[128];      /* D's registers */
} EmuWgmma;

typedef struct EmuProgram {
  const PtxKernel *k;
  EmuInstr *code;       /* [ncode] */
  int ncode;
  uint32_t nslots;      /* registers, the carry flag, special registers, constants */
  uint32_t carry;       /* slot of each lane's carry flag CC.CF (after the registers) */
  uint32_t sreg_base;   /* slot of PTX_SR_* 0 */
  uint64_t sregs_used[(PTX_SR_COUNT + 63) / 64]; /* bit PTX_SR_x: the code reads it */
  uint32_t const_base;  /* first constant slot */
  uint64_t *consts;     /* [nconst] values of the constant slots */
  uint32_t nconst;
  EmuTensor *tensor;    /* [ntensor] */
  uint32_t ntensor;
  EmuWgmma *wgmma;      /* [nwgmma]: wgmma.mma_async's EmuInstr.target indexes it */
  uint32_t nwgmma;
} EmuProgram;

/* A wgmma.mma_async's operands into a new EmuWgmma (x->target). */
int emu_wgmma_decode(EmuProgram *p, const PtxInstr *in, EmuInstr *x);

/* Builds the program; returns -1 with a located error for PTX the emulator
 * cannot run.  Free with emu_program_free(). */
int emu_prepare(EmuProgram *p, const PtxModule *m, const PtxKernel *k, uint64_t global_vars_base,
                WmErr *e);
void emu_program_free(EmuProgram *p);
/* Marks the integer reductions whose address and value ptxas can prove
 * uniform across the warp: FUSE_AGGREGATE (emu_uniform.c). */
void emu_mark_aggregated(EmuProgram *p, int ncode);
/* round[i] != 0 for each global/local load (or texture, or atomic with a
 * result) that starts a round trip, as ptxas schedules the code: 1 for a
 * round each execution, k for a round every k executions of a loop ptxas
 * unrolls (emu_rounds.c); i < nline.  Returns the most loads a warp has
 * in flight at once: the far loads of its longest straight line, times
 * the iterations ptxas unrolls a loop into one (the crossbar's queue,
 * CacheConfig.warp_inflight). */
int emu_mark_rounds(const EmuProgram *p, uint8_t *round, uint32_t *alt, int nline);

/* target[i] = 1 for each of code[0..n) a branch jumps to (malloc'd, n + 1;
 * emu_rounds.c). */
uint8_t *emu_branch_targets(const EmuProgram *p, int n);
/* Whether x ends a straight line of code: a branch, a call, a return, an
 * exit or a barrier (emu_rounds.c). */
int emu_ends_line(const EmuInstr *x);
/* The global memory kind (MemOpKind) of an ld, st, red or atom that
 * names the global space, or -1 (emu_rounds.c). */
int emu_global_kind(const EmuInstr *x);
/* For each branch ptxas if-converts (a short forward one), EmuInstr.aux =
 * the global loads, stores and reductions it skips, packed as
 * EMU_SKIPPED(aux, kind): when a warp takes it whole, those still count as
 * instructions, as their predicated SASS does (emu_rounds.c). */
void emu_mark_skipped_globals(EmuProgram *p, int n);
#define EMU_SKIPPED(aux, kind) ((kind) == MEM_LD ? (aux) & 7 : (kind) == MEM_ST ? (aux) >> 3 & 7 : (kind) == MEM_RED ? (aux) >> 6 : 0)

/* Sets each of code[0..n)'s clocks: its result's latency (emu_latency.c). */
void emu_mark_latencies(EmuProgram *p, int n);

/* after_st[i] = 1 for a global store whose previous instruction, in the
 * same straight line, is a global store: the stores L1 merges with the
 * warp's previous store (emu_rounds.c); i < nline. */
void emu_mark_store_runs(const EmuProgram *p, uint8_t *after_st, int nline);

/* Sets every instruction's fn (emu_select.c), once the program is
 * complete. */
void emu_select_fns(EmuProgram *p);
/* The general function of x's row of ptx_ops.h (what a fast form must
 * equal). */
EmuExecFn *emu_row_fn(const EmuInstr *x);
/* A fast form of x (emu_fast.c) or NULL; may set x->imm. */
EmuExecFn *emu_fast_fn(EmuInstr *x, const EmuProgram *p);

/* Chooses the half-precision function of x (emu_half.c) when one of its
 * types is f16, bf16, their pairs, or a narrow format of cvt: returns 1
 * with x->half set, 0 when x has no such type (or only moves its bits),
 * -1 with the reason in why[n] for a form the emulator does not run. */
int emu_half_select(EmuInstr *x, char *why, size_t n);

#endif
