/* emu_ctrl.c - device-function calls and the CUDA runtime's device
 * functions warpmem runs itself (vprintf, __assertfail; malloc and free
 * through emu_heap.c).
 *
 * Notes:
 *  - A call by lanes eff pushes an entry on the SIMT stack (pc: the
 *    callee's first instruction, never a reconvergence point) and a Frame.
 *    Lanes that execute ret leave every entry of the frame; when none is
 *    left (all returned or exited) the frame is popped and the caller's
 *    entry, waiting at the instruction after the call, runs on.  So
 *    divergence inside a callee, a ret taken by some lanes, and exit inside
 *    a function keep the SIMT stack right.
 *  - A call through a pointer runs one target at a time: the lanes calling
 *    the first lane's target go first, the others wait on an entry that
 *    runs the call again (as a divergent branch would).
 *  - Frames live in each thread's local memory, from the end of the
 *    kernel's own frame on: the callee's parameters, .local variables and
 *    call arguments (ptx_call.c), plus 16 bytes for the return address.
 *    ptxas also spills registers there, which the PTX does not show, so a
 *    real stack fills sooner: the local traffic counted is what the PTX's
 *    ld/st.local imply.  A call that does not fit in the stack
 *    (EmuLaunch.stack_size, 1 KiB like cudaLimitStackSize) is a fault.
 *  - Registers are the kernel's slots; a recursive call (its callee can
 *    reach the caller again) saves the caller's slots on the host and
 *    restores them at the return, as ptxas saves live registers.
 *  - The .param accesses of call sequences are registers on the GPU: the
 *    memory model does not count them (emu_mem.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"

#define FRAME_OVERHEAD 16u /* the return address and saved state, at least */

static uint8_t *lane_local(Block *b, int warp, int lane) {
  return b->local + ((size_t)warp * 32 + (size_t)lane) * b->local_size;
}

/* The frame offset of the caller of call c, in lane `lane`. */
static uint64_t caller_fp(const Block *b, const PtxCall *c, const uint64_t *R, int lane) {
  const PtxKernel *k = b->p->k;
  if (c->caller <= 0 || !k->fn) return 0;
  return R[(size_t)k->fn[c->caller].fp_slot * 32 + (size_t)lane];
}

/* The bytes a frame of function fn takes on the stack. */
static uint32_t frame_bytes(const PtxKernel *f) {
  return (f->frame_size + 15u) / 16u * 16u + FRAME_OVERHEAD;
}

/* The lanes of eff that call the same function as the first one, and its
 * index in PtxKernel.fn (or -1 after a fault). */
static int indirect_target(Block *b, const EmuInstr *x, int wi, uint32_t eff, const uint64_t *R, uint32_t *group) {
  const PtxKernel *k = b->p->k;
  const uint64_t *fp = R + (size_t)x->s[0] * 32;
  int first = __builtin_ctz(eff);
  uint64_t a = fp[first];
  *group = 0;
  LANES(eff, if (fp[l] == a) *group |= 1u << l);
  uint64_t i = (a - PTX_FUNC_ADDR_BASE) / PTX_FUNC_ADDR_STEP;
  if (a < PTX_FUNC_ADDR_BASE || (a - PTX_FUNC_ADDR_BASE) % PTX_FUNC_ADDR_STEP || i >= (uint64_t)b->m->nfuncs ||
      !k->fn_of || k->fn_of[i] < 0)
    return emu_fault(b, x, wi, first, WM_EFAULT,
                     "indirect call through 0x%" PRIx64 ", which is not the address of a device function of "
                     "this module", a);
  return k->fn_of[i];
}

/* Saves the slots of function `fn` (all lanes) on the warp's save stack. */
static size_t save_registers(Warp *w, const PtxFn *fn) {
  size_t n = (size_t)fn->nslots * 32, at = w->nsave;
  if (w->nsave + n > w->capsave) {
    w->capsave = (w->nsave + n) * 2;
    w->save = wm_xrealloc(w->save, w->capsave * sizeof *w->save);
  }
  memcpy(w->save + at, w->R + (size_t)fn->slot_base * 32, n * sizeof *w->save);
  w->nsave += n;
  return at;
}

/* The callee's arguments: from the caller's call .params to the new frame. */
static int copy_arguments(Block *b, const EmuInstr *x, int wi, uint32_t group, const PtxCall *c,
                          const PtxKernel *f, uint32_t fp) {
  if (c->narg != f->nparams - f->nret || c->nret > f->nret)
    return emu_fault(b, x, wi, __builtin_ctz(group), WM_EFAULT,
                     "call of %s with %u arguments and %u return values; it takes %d and returns %u",
                     f->plain_name, c->narg, c->nret, f->nparams - f->nret, f->nret);
  for (uint32_t m = group; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint8_t *loc = lane_local(b, wi, l);
    uint64_t cfp = caller_fp(b, c, b->warps[wi].R, l);
    for (int i = 0; i < c->narg; i++) {
      const PtxParam *pp = &f->params[f->nret + i];
      uint32_t n = c->size[c->nret + i] < pp->size ? c->size[c->nret + i] : pp->size;
      memcpy(loc + fp + pp->offset, loc + cfp + c->off[c->nret + i], n);
    }
  }
  return 0;
}

static int run_builtin(Block *b, const EmuInstr *x, int wi, uint32_t eff, const PtxCall *c);

int emu_call(Block *b, Warp *w, int wi, const EmuInstr *x, uint32_t eff) {
  const PtxKernel *k = b->p->k;
  const PtxCall *c = &k->calls[x->target];
  if (c->callee <= PTX_CALL_VPRINTF) return run_builtin(b, x, wi, eff, c) ? -1 : 1;
  uint32_t group = eff;
  int fn = c->callee == PTX_CALL_INDIRECT ? indirect_target(b, x, wi, eff, w->R, &group) : c->callee;
  if (fn < 0) return -1;
  const PtxFn *callee = &k->fn[fn];
  const PtxKernel *f = callee->f;
  uint32_t fp = w->stack_top, need = frame_bytes(f);
  if ((uint64_t)fp + need > b->local_size)
    return emu_fault(b, x, wi, __builtin_ctz(group), WM_ELIMIT,
                     "stack overflow calling %s at call depth %d: the frames need more than the %u-byte stack "
                     "per thread (cudaLimitStackSize; warpmem --stack-size)",
                     f->plain_name, w->nframes + 1, b->local_size - b->stack_base);
  if (w->sp + 2 > EMU_STACK_MAX)
    return emu_fault(b, x, wi, __builtin_ctz(group), WM_ELIMIT, "calls and divergence nested too deeply");
  if (copy_arguments(b, x, wi, group, c, f, fp)) return -1;
  size_t saved = k->reach[fn * k->nfn + c->caller] ? save_registers(w, &k->fn[c->caller]) : SIZE_MAX;
  uint64_t *fpr = w->R + (size_t)callee->fp_slot * 32;
  LANES(group, fpr[l] = fp);
  SimtEntry *top = &w->stack[w->sp - 1];
  uint32_t pc = top->pc;
  top->pc = pc + 1;
  if (eff & ~group) w->stack[w->sp++] = (SimtEntry){pc, pc + 1, eff & ~group, UINT32_MAX}; /* the other targets, later */
  if (w->nframes == w->capframes) {
    w->capframes = w->capframes ? 2 * w->capframes : 8;
    w->frames = wm_xrealloc(w->frames, (size_t)w->capframes * sizeof *w->frames);
  }
  w->frames[w->nframes++] = (Frame){w->sp, group, x->target, fn, fp, saved};
  w->stack[w->sp++] = (SimtEntry){callee->start, EMU_NORPC, group, UINT32_MAX};
  w->stack_top = fp + need;
  return 0;
}

void emu_frame_return(Block *b, Warp *w) {
  const PtxKernel *k = b->p->k;
  Frame *F = &w->frames[--w->nframes];
  const PtxCall *c = &k->calls[F->call];
  const PtxKernel *f = k->fn[F->fn].f;
  if (F->saved != SIZE_MAX) {
    const PtxFn *caller = &k->fn[c->caller];
    memcpy(w->R + (size_t)caller->slot_base * 32, w->save + F->saved, (size_t)caller->nslots * 32 * sizeof *w->save);
    w->nsave = F->saved;
  }
  int wi = (int)(w - b->warps);
  for (uint32_t m = F->mask & ~w->exited; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint8_t *loc = lane_local(b, wi, l);
    uint64_t cfp = caller_fp(b, c, w->R, l);
    for (int i = 0; i < c->nret; i++) {
      uint32_t n = c->size[i] < f->params[i].size ? c->size[i] : f->params[i].size;
      memcpy(loc + cfp + c->off[i], loc + F->fp + f->params[i].offset, n);
    }
  }
  w->stack_top = F->fp;
}

/* --- built-ins --- */

/* A 64-bit argument of a built-in call: the caller's .param i. */
static uint64_t arg64(Block *b, int wi, int l, const PtxCall *c, int i) {
  uint64_t v = 0;
  if (i >= c->narg) return 0;
  const uint8_t *p = lane_local(b, wi, l) + caller_fp(b, c, b->warps[wi].R, l) + c->off[c->nret + i];
  memcpy(&v, p, c->size[c->nret + i] < 8 ? c->size[c->nret + i] : 8);
  return v;
}

/* A NUL-terminated string at generic address a, for messages. */
static void device_string(Block *b, int wi, int l, uint64_t a, char *buf, size_t n) {
  size_t avail = 0;
  const uint8_t *p = emu_device_ptr(b, wi, l, a, 1, &avail);
  size_t i = 0;
  for (; p && i + 1 < n && i < avail && p[i]; i++) buf[i] = (char)p[i];
  buf[i] = '\0';
  if (!p) snprintf(buf, n, "(bad string address 0x%" PRIx64 ")", a);
}

/* __assertfail(message, file, line, function, charSize): the GPU's
 * message for the first lane that failed. */
static int assert_fail(Block *b, const EmuInstr *x, int wi, int l, const PtxCall *c) {
  char msg[512], file[256], fn[256];
  device_string(b, wi, l, arg64(b, wi, l, c, 0), msg, sizeof msg);
  device_string(b, wi, l, arg64(b, wi, l, c, 1), file, sizeof file);
  device_string(b, wi, l, arg64(b, wi, l, c, 3), fn, sizeof fn);
  uint32_t t[3];
  thread_of(b, wi, l, t);
  return emu_fault(b, x, wi, l, WM_EASSERT, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                   file, (uint32_t)arg64(b, wi, l, c, 2), fn, b->ctaid[0], b->ctaid[1], b->ctaid[2], t[0], t[1],
                   t[2], msg);
}

/* Stores a built-in's return value (its low `bytes`) in the caller's
 * return .param of lane l. */
static void set_result(Block *b, int wi, int l, const PtxCall *c, uint64_t v, uint32_t bytes) {
  if (!c->nret) return;
  memcpy(lane_local(b, wi, l) + caller_fp(b, c, b->warps[wi].R, l) + c->off[0], &v,
         c->size[0] < bytes ? c->size[0] : bytes);
}

static int run_builtin(Block *b, const EmuInstr *x, int wi, uint32_t eff, const PtxCall *c) {
  for (uint32_t m = eff; m; m &= m - 1) { /* lanes in order, as the GPU prints them */
    int l = __builtin_ctz(m);
    switch (c->callee) {
    case PTX_CALL_ASSERTFAIL: return assert_fail(b, x, wi, l, c);
    case PTX_CALL_MALLOC: set_result(b, wi, l, c, emu_heap_alloc(b, arg64(b, wi, l, c, 0), GHEAP_GRAIN), 8); break;
    case PTX_CALL_ALIGNED_MALLOC:
      set_result(b, wi, l, c, emu_heap_alloc(b, arg64(b, wi, l, c, 0), arg64(b, wi, l, c, 1)), 8);
      break;
    case PTX_CALL_FREE:
      if (emu_heap_free(b, x, wi, l, arg64(b, wi, l, c, 0))) return -1;
      break;
    default: {
      int n = emu_vprintf(b, x, wi, l, arg64(b, wi, l, c, 0), arg64(b, wi, l, c, 1));
      if (n < 0) return -1;
      set_result(b, wi, l, c, (uint32_t)n, 4);
    }
    }
  }
  return 0;
}

/* trap: a fault; the usual one is grid.sync() outside a cooperative launch. */
int emu_exec_trap(EMU_EXEC_ARGS) {
  const uint64_t *used = b->p->sregs_used;
  if (!b->l->grid_ws && (used[PTX_SR_ENVREG1 / 64] >> PTX_SR_ENVREG1 % 64 & 1))
    return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EFAULT,
                     "trap instruction executed: the kernel reads the grid-sync workspace (%%envreg1/2, "
                     "cooperative_groups::this_grid()) that CUDA gives only a cooperative launch, and "
                     "grid.sync() traps when grid.is_valid() is false (on the GPU: unspecified launch "
                     "failure); launch it with cudaLaunchCooperativeKernel: the //@ word cooperative or "
                     "--cooperative");
  return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EFAULT, "trap instruction executed");
}
