/* emu_check_int.h - the state of `warpmem check`, shared by emu_check.c
 * (findings, barriers, warp masks) and emu_check_mem.c (the shadow of the
 * memory the kernel touches). */
#ifndef WM_EMU_CHECK_INT_H
#define WM_EMU_CHECK_INT_H

#include "emu/emu_check.h"
#include "emu/emu_exec.h"

#define CHK_NOTHREAD 0xffffu

/* The shadow of one byte: its last plain write and up to two of its plain
 * reads since, each with the epoch (a block barrier's count, from the
 * launch-wide clock), the thread (linear in the block), the instruction and
 * the warp-sync count of that thread's warp.  A write in an epoch older than
 * the block's start means nothing wrote the byte in this block. */
typedef struct ChkCell {
  uint32_t wep, rep;
  uint32_t wpc, rpc, rpc2;
  uint16_t wt, rt, rt2;
  uint16_t wsy, rsy, rsy2;
} ChkCell;

/* A global word's shadow (its 4 bytes') within one block: an
 * open-addressing table keyed by the word's address, its slots valid only
 * for the generation (block) that wrote them, so a new block starts empty
 * without clearing it. */
typedef struct ChkSlot {
  uint64_t addr;
  uint32_t gen;
  ChkCell c[4];
} ChkSlot;

/* initcheck's view of a buffer named by emu_check_uninit: a bit per byte,
 * set once written. */
typedef struct ChkBuf {
  uint64_t addr, size;
  uint8_t *set;
} ChkBuf;

/* Most slots of the global table (128 bytes each, 4 bytes of global
 * memory): beyond, global races of that block go unchecked and
 * emu_check_limits says so. */
#define CHK_GLOBAL_SLOTS_MAX ((size_t)1 << 20)

struct EmuCheck {
  unsigned tools;
  EmuFinding *f;
  size_t nf, capf, first;  /* findings; first: this launch's first */
  uint64_t dropped;
  int fault_seen;          /* a check reported the launch's fault already */
  uint32_t clock;          /* epochs, launch after launch */
  EmuExecFn **orig;        /* [ncode + 1] each instruction's own function */
  int norig;
  int race_shared, race_global, init_shared, init_global; /* this kernel's */
  char limits[512];
  ChkBuf *bufs;            /* by address */
  int nbufs, capbufs;
  ChkSlot *gtab;
  size_t gcap, gused;
  uint32_t ggen;
  /* wgmma's asynchronous registers (emu_check_wgmma.c) */
  int32_t *wg_track;       /* [nslots] a D or register-A slot's index, or -1 */
  uint32_t wg_ntrack;      /* slots tracked: 0 when the kernel has no wgmma */
  EmuExecFn **wg_next;     /* [ncode + 1] what each wrapped instruction runs next */
};

/* A block's part (Block.chk). */
typedef struct EmuChkBlock {
  ChkCell *shared;         /* [shared_size] */
  uint32_t start, epoch;   /* the epoch the block started in, the current */
  uint32_t gen;            /* its generation in the global table */
  uint16_t *wsync;         /* [nwarps] bar.warp.sync count of each warp */
  uint32_t bar_pc[EMU_NBARS]; /* pc of the first bar.sync without a count
                                 in the current instance, UINT32_MAX none */
  uint16_t bar_t[EMU_NBARS];  /* its thread */
  struct ChkSplit *split;  /* [nwarps] a warp's barrier arrival without some
                              of its lanes: they must reach it later */
  uint32_t *wg_pc, *wg_group; /* [nwarps * wg_ntrack]: the wgmma that last
                              wrote a tracked slot asynchronously (UINT32_MAX:
                              none pending) and the commit group it joined */
  uint32_t *wg_open, *wg_done; /* [nwarps]: a warp's groups committed and
                              completed (groups below wg_done are) */
} EmuChkBlock;

/* Lanes of a warp that did not arrive with the others at the barrier
 * instruction pc: on Volta and later they may arrive there later (a warp's
 * threads arrive independently), else it is __syncthreads() in divergent
 * code. */
typedef struct ChkSplit {
  uint32_t pc, lanes, t;
} ChkSplit;

/* Records a finding at instruction pc, thread t of b (other: pc2, t2;
 * pc2 UINT32_MAX for none); op words name the two accesses. */
void emu_chk_report(Block *b, EmuChkTool tool, const char *kind, const char *space, uint32_t pc, uint32_t t,
                    const char *op, uint32_t pc2, uint32_t t2, const char *op2, uint64_t addr,
                    const char *detail);
/* The checked memory instruction (emu_check_mem.c). */
int emu_chk_exec_mem(EMU_EXEC_ARGS);
/* The checked warp instruction (emu_check.c): bar.warp.sync, shfl, vote,
 * match, redux. */
int emu_chk_exec_warp(EMU_EXEC_ARGS);
/* wgmma's registers (emu_check_wgmma.c): the program's tracked slots and
 * wrapped instructions, after emu_chk_prepare's own. */
void emu_chk_prepare_wgmma(EmuCheck *c, EmuProgram *p);

#endif
