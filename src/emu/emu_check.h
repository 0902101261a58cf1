/* emu_check.h - `warpmem check`: compute-sanitizer's four tools on the
 * emulator (docs/check.md).
 *
 * An EmuCheck, set in EmuLaunch.check, makes emu_run check the launch:
 *   memcheck   the located faults (out of bounds, misaligned, ...), the
 *              device allocations a program leaks or frees twice (rt);
 *   racecheck  shared-memory hazards between barriers, global-memory races
 *              between threads of one block;
 *   synccheck  barriers in divergent code, different barriers released
 *              together, mismatched thread counts, member masks of
 *              bar.warp.sync, shfl, vote, match and redux that name lanes
 *              which do not execute them;
 *   initcheck  reads of shared memory and of registered global buffers
 *              (emu_check_uninit) that nothing wrote.
 * Without one nothing changes: the checked forms of the memory and warp
 * instructions are chosen when the kernel is prepared, and a checked
 * launch runs its blocks on one host thread.
 */
#ifndef WM_EMU_CHECK_H
#define WM_EMU_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

typedef enum { CHK_MEMCHECK, CHK_RACECHECK, CHK_SYNCCHECK, CHK_INITCHECK, CHK_NTOOLS } EmuChkTool;
extern const char *const emu_chk_tool_name[CHK_NTOOLS];

/* One place of a finding: an instruction executed by a thread. */
typedef struct EmuChkSite {
  uint32_t pc;           /* instruction index in the kernel; UINT32_MAX: none */
  uint32_t ptx_line;
  char src[160];         /* "file.cu:LINE", "" without line information */
  char op[64];           /* the access ("write", "read", "atomic") or the instruction */
  uint32_t block[3], thread[3];
} EmuChkSite;

/* One finding, reported once per launch, tool, kind and pair of sites
 * (count says how often it occurred). */
typedef struct EmuFinding {
  uint8_t tool;          /* EmuChkTool */
  char kind[48];         /* "RAW hazard", "uninitialized read", ... */
  char kernel[160];
  char space[16];        /* "shared", "global", "" */
  EmuChkSite at, other;  /* other.pc UINT32_MAX when there is one site */
  uint64_t addr;         /* in its space; UINT64_MAX: none */
  uint64_t count;
  uint64_t key, key2;    /* the two source lines (or instructions without
                            line information): one finding per pair */
  char detail[2048];     /* the rest, in words (a fault's whole message) */
} EmuFinding;

typedef struct EmuCheck EmuCheck;

/* tools: a bit per EmuChkTool (0: all). */
EmuCheck *emu_check_new(unsigned tools);
void emu_check_free(EmuCheck *c);
unsigned emu_check_tools(const EmuCheck *c);

/* Findings, in the order found; a launch's are those from the count before
 * it.  At most EMU_CHK_MAX_FINDINGS distinct ones are kept per launch (the
 * rest are counted in emu_check_dropped). */
#define EMU_CHK_MAX_FINDINGS 256
size_t emu_check_count(const EmuCheck *c);
const EmuFinding *emu_check_get(const EmuCheck *c, size_t i);
uint64_t emu_check_dropped(const EmuCheck *c);
/* Starts a launch's findings (dedup is per launch). */
void emu_check_launch(EmuCheck *c);
/* A launch that stopped with error e (a fault, a deadlock): a memcheck (or,
 * for a deadlock or a member mask, synccheck) finding, unless the checks
 * reported it already. */
void emu_check_fault(EmuCheck *c, const char *kernel, const WmErr *e);
/* Adds a finding that is not the emulator's (leaks and frees of warpmem
 * run): tool, kind and detail. */
void emu_check_note(EmuCheck *c, EmuChkTool tool, const char *kind, uint64_t addr, const char *detail);
/* Notes once per launch what a check could not cover (a kernel whose
 * writes it cannot see, the shadow budget), "" if nothing. */
const char *emu_check_limits(const EmuCheck *c);

/* initcheck's global memory: the bytes [addr, addr + size) of a buffer are
 * not initialized (a buffer without an initializer, a cudaMalloc) until a
 * kernel or the host writes them.  Buffers never named here count as
 * initialized. */
void emu_check_uninit(EmuCheck *c, uint64_t addr, uint64_t size);
/* The host wrote [addr, addr + size) (cudaMemcpy, cudaMemset). */
void emu_check_written(EmuCheck *c, uint64_t addr, uint64_t size);
/* The buffer at addr was freed; all buffers (a new GlobalMem). */
void emu_check_forget(EmuCheck *c, uint64_t addr);
void emu_check_forget_all(EmuCheck *c);

/* --- the emulator's hooks (emu.c, emu_grid.c); b is a Block --- */
struct Block;
struct EmuProgram;
struct EmuInstr;
/* Chooses the checked functions of p's instructions; per launch. */
void emu_chk_prepare(EmuCheck *c, struct EmuProgram *p);
void emu_chk_block_new(struct Block *b);
void emu_chk_block_free(struct Block *b);
void emu_chk_block_start(struct Block *b);
/* The block's part of wgmma's register check (emu_check_wgmma.c), made
 * after emu_chk_block_new, reset after emu_chk_block_start and freed before
 * emu_chk_block_free: nothing when the kernel has no wgmma. */
void emu_chk_wgmma_block_new(struct Block *b);
void emu_chk_wgmma_block_start(struct Block *b);
void emu_chk_wgmma_block_free(struct Block *b);
/* Warp wi arrives at barrier instruction x with lanes `mask` (before the
 * emulator counts it). */
void emu_chk_arrive(struct Block *b, int wi, const struct EmuInstr *x, uint32_t mask, const uint64_t *R);
/* Block b ran to its end (what synccheck waited for is reported). */
void emu_chk_block_end(struct Block *b);
/* Barrier id completes (before the emulator releases its warps). */
void emu_chk_release(struct Block *b, int id);

#endif
