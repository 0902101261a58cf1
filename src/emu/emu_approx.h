/* emu_approx.h - the instructions the emulator computes only approximately:
 * those whose GPU result is a hardware approximation (.approx, div.full)
 * that the host's C library cannot reproduce bit for bit.  The report
 * names each one once, located, so no approximate result goes unsaid. */
#ifndef WM_EMU_APPROX_H
#define WM_EMU_APPROX_H

#include <stddef.h>

#include "ptx/ptx.h"

/* Whether `in` is computed approximately; if so, a short reason (without
 * location) in why[0..n). */
int emu_approx(const PtxInstr *in, char *why, size_t n);

/* One located warning per such instruction of kernel k, a line each
 * ("FILE:LINE:COL: warning: ...", the CUDA line after it), malloc'd (caller
 * frees); NULL when the kernel has none. */
char *emu_approx_notes(const PtxModule *m, const PtxKernel *k);

#endif
