/* emu_select.c - which function runs each decoded instruction, chosen
 * once when the kernel is prepared (EmuInstr.fn): a half-precision form
 * (emu_half.c), the row's function in a host rounding mode, a fast form
 * of a common instruction (emu_fast.c), or the row's function (the exec
 * column of ptx_ops.h).  The hot loop then makes one indirect call. */
#include <fenv.h>

#include "emu/emu_exec.h"

static EmuExecFn *const exec_fn[PTX_OP_COUNT] = {
#define X(e, name, flags, mods, shape, imm, exec, sem) [PTX_OP_##e] = emu_exec_##exec,
  PTX_OPS(X)
#undef X
};

/* Float arithmetic with .rz/.rm/.rp (add.rz.f32, __fmul_ru, __ddiv_rd, ...)
 * runs in that rounding mode on the host; everything else in the default
 * round-to-nearest-even. */
int emu_exec_rounded(EMU_EXEC_ARGS) {
  int old_mode = fegetround();
  fesetround(emu_fe_mode(x->rnd));
  int rc = exec_fn[x->op](b, x, warp, mask, R);
  fesetround(old_mode);
  return rc;
}

/* bra, ret, exit, bar and barrier change the SIMT stack: run_warp runs them */
int emu_exec_simt(EMU_EXEC_ARGS) {
  return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP, "%s reached the dispatch", ptx_op_name[x->op]);
}

/* membar, fence, bar.warp.sync, nanosleep, prefetch: nothing to do in a
 * sequential emulator that keeps its warps in lockstep */
int emu_exec_nop(EMU_EXEC_ARGS) { return 0; }

EmuExecFn *emu_row_fn(const EmuInstr *x) { return exec_fn[x->op]; }

void emu_select_fns(EmuProgram *p) {
  for (int i = 0; i <= p->ncode; i++) { /* the sentinel too */
    EmuInstr *x = &p->code[i];
    EmuExecFn *fast = NULL;
    if (x->half) x->fn = emu_half_fns[x->half];
    else if (x->host_rnd) x->fn = emu_exec_rounded;
    else if ((fast = emu_fast_fn(x, p))) x->fn = fast;
    else x->fn = exec_fn[x->op];
  }
}
