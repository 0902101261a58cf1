/* ptx_link.c - the device functions a kernel can reach, appended to its
 * code, so that the emulator sees one program per kernel (one pc space, one
 * register file).
 *
 * Each function reached (directly, or through a function pointer: every
 * function whose address is taken) is copied after the kernel's code; its
 * registers are renumbered after the kernel's (and the previous
 * functions'), its labels and call sites relocated.  PtxKernel.fn lists the
 * pieces, fn[0] the kernel; calls name their callee by its index there.
 * reach[] says which function can call which, directly or not: a call
 * whose callee can reach the caller again (recursion) makes the emulator
 * save the caller's registers, which the callee's invocation would
 * otherwise overwrite.
 *
 * Then each kernel's shared memory is laid out as ptxas lays it out: the
 * module-scope .shared variables that its code or a function it reaches
 * names (a module of many kernels declares some for one kernel only),
 * then the variables of its own body and of the functions', in declaration
 * order; the dynamic array after them.  The parser placed every variable
 * after all the module-scope ones before it; the operands that name them
 * (PtxKernel.sfix) move by the difference.
 */
#include "ptx/ptx_parse_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The call instruction of call site c in f's code. */
static const PtxInstr *call_instr(const PtxKernel *f, int c) {
  for (int i = 0; i < f->ncode; i++)
    if (f->code[i].op == PTX_OP_CALL && f->code[i].opd[0].imm == c) return &f->code[i];
  return &f->code[0];
}

/* Marks k unsupported with a located message at instruction `in`. */
__attribute__((format(printf, 4, 5)))
static void refuse(const PtxModule *m, PtxKernel *k, const PtxInstr *in, const char *fmt, ...) {
  if (k->unsupported) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  WmErr e;
  wm_err_at(&e, WM_EUNSUP, m->path, m->text, (int)in->ptx_line, in->ptx_col, "%s", msg);
  k->unsupported = wm_xstrdup(e.msg);
}

/* CUDA's device-side launch API (dynamic parallelism), which nvcc calls
 * for <<<>>> in a kernel: cudaGetParameterBuffer, cudaLaunchDevice and
 * CUDA 12+'s __cudaCDP2* names. */
static int device_launch(const char *name) {
  return !strncmp(name, "__cudaCDP", 9) || !strncmp(name, "cudaLaunchDevice", 16) ||
         !strncmp(name, "cudaGetParameterBuffer", 22);
}

typedef struct Link {
  PtxModule *m;
  PtxKernel *k;
  PtxFn *fn;
  int n;
  int *fn_of;
} Link;

static void add_fn(Link *L, int mi) {
  if (L->fn_of[mi] >= 0) return;
  L->fn_of[mi] = L->n;
  L->fn[L->n++] = (PtxFn){.f = &L->m->funcs[mi], .fp_slot = PTX_NOREG};
}

/* Finds every function the kernel can reach; returns -1 (k refused) if
 * one has no body here or is itself refused. */
static int reach_all(Link *L) {
  PtxModule *m = L->m;
  for (int i = 0; i < L->n; i++) {
    const PtxKernel *f = i ? L->fn[i].f : L->k;
    if (f->unsupported) {
      if (!L->k->unsupported) L->k->unsupported = wm_xstrdup(f->unsupported);
      return -1;
    }
    for (int c = 0; c < f->ncalls; c++) {
      int callee = f->calls[c].callee;
      if (callee == PTX_CALL_INDIRECT) {
        for (int j = 0; j < m->nfuncs; j++)
          if (m->funcs[j].addr_taken && m->funcs[j].has_body) add_fn(L, j);
        continue;
      }
      const PtxKernel *g = &m->funcs[callee];
      if (g->builtin) continue;
      if (!g->has_body && device_launch(g->name)) {
        refuse(m, L->k, call_instr(f, c),
               "unsupported dynamic parallelism: kernel %s launches a kernel from the device (it calls %s); "
               "warpmem runs launches from the host only", L->k->name, g->plain_name);
        return -1;
      }
      if (!g->has_body) {
        refuse(m, L->k, call_instr(f, c),
               "unsupported call of external device function '%s' (kernel %s): it is declared here but "
               "defined in another file; warpmem runs one PTX module, so compile the function into this "
               "file (or link with nvcc -dlink and give warpmem the linked PTX; warpmem run links an -rdc=true "
               "application's files, but a device library's (.a) functions have no PTX there)",
               g->plain_name, L->k->name);
        return -1;
      }
      add_fn(L, callee);
    }
  }
  return 0;
}

/* A register of a function moved to slot_base in its kernel; a coordinate
 * constant (PTX_VCONST) moved to cbase in the kernel's vconsts. */
static uint32_t moved(uint32_t r, uint32_t slot_base, uint32_t cbase) {
  return r == PTX_NOREG ? r : ptx_is_vconst(r) ? r + cbase : r + slot_base;
}

static void relocate(PtxInstr *in, uint32_t slot_base, uint32_t cbase, uint32_t start, uint32_t call_base) {
  if (in->guard != PTX_NOREG) in->guard += slot_base;
  for (int j = 0; j < in->nopd; j++) {
    PtxOperand *o = &in->opd[j];
    switch (o->kind) {
    case PTX_O_REG:
    case PTX_O_ADDR:
      if (o->reg[0] != PTX_NOREG) o->reg[0] += slot_base;
      break;
    case PTX_O_VEC: /* reg[] holds the first 4; a longer vector's are in vregs (append_fn) */
      for (int v = 0; v < o->n && v < 4; v++) o->reg[v] = moved(o->reg[v], slot_base, cbase);
      break;
    case PTX_O_LABEL: o->imm += start; break;
    default: break;
    }
  }
  if (in->op == PTX_OP_CALL) in->opd[0].imm += call_base;
}

/* The dynamic shared array's alignment: the largest of the kernel's and its
 * functions' (each placed it after its static part; the layout below
 * moves them all to one place). */
static void dynamic_align(Link *L, const PtxKernel *f) {
  if (f->shared_extern_align > L->k->shared_extern_align) L->k->shared_extern_align = f->shared_extern_align;
}

/* Appends function fn[i]'s code, registers and call sites to the kernel. */
static void append_fn(Link *L, int i) {
  PtxKernel *k = L->k;
  PtxFn *p = &L->fn[i];
  const PtxKernel *f = p->f;
  p->start = (uint32_t)k->ncode;
  p->end = (uint32_t)(k->ncode + f->ncode);
  p->slot_base = k->nregs;
  p->nslots = f->nregs;
  p->fp_slot = k->nregs + f->fp_slot;
  uint32_t call_base = (uint32_t)k->ncalls, vbase = k->nvregs;
  /* the function's long vectors (tensor-core fragments) after the kernel's */
  if (f->nvregs) {
    if (k->nvregs + f->nvregs > k->capvregs) {
      k->capvregs = k->nvregs + f->nvregs;
      k->vregs = wm_xrealloc(k->vregs, k->capvregs * sizeof *k->vregs);
    }
    for (uint32_t v = 0; v < f->nvregs; v++) k->vregs[vbase + v] = moved(f->vregs[v], p->slot_base, k->nvconsts);
    k->nvregs += f->nvregs;
  }
  uint32_t cbase = k->nvconsts; /* and its coordinates' constants after the kernel's */
  if (f->nvconsts) {
    k->vconsts = wm_xrealloc(k->vconsts, (k->nvconsts + f->nvconsts) * sizeof *k->vconsts);
    memcpy(k->vconsts + k->nvconsts, f->vconsts, f->nvconsts * sizeof *f->vconsts);
    k->nvconsts += f->nvconsts;
    k->capvconsts = k->nvconsts;
  }
  k->code = wm_xrealloc(k->code, sizeof *k->code * (size_t)(k->ncode + f->ncode));
  for (int j = 0; j < f->ncode; j++) {
    PtxInstr *in = &k->code[k->ncode + j];
    *in = f->code[j];
    relocate(in, p->slot_base, cbase, p->start, call_base);
    for (int o = 0; o < in->nopd; o++)
      if (in->opd[o].kind == PTX_O_VEC && in->opd[o].n > 4) in->opd[o].imm += vbase;
  }
  k->ncode += f->ncode;
  k->reg_names = wm_xrealloc(k->reg_names, sizeof *k->reg_names * (size_t)(k->nregs + f->nregs + 1));
  for (uint32_t r = 0; r < f->nregs; r++) k->reg_names[k->nregs + r] = wm_xstrdup(f->reg_names[r]);
  k->nregs += f->nregs;
  k->calls = wm_xrealloc(k->calls, sizeof *k->calls * (size_t)(k->ncalls + f->ncalls));
  for (int c = 0; c < f->ncalls; c++) {
    PtxCall *d = &k->calls[k->ncalls + c];
    *d = f->calls[c];
    size_t n = (size_t)d->nret + d->narg + 1;
    d->off = wm_xmalloc(n * sizeof *d->off);
    d->size = wm_xmalloc(n * sizeof *d->size);
    memcpy(d->off, f->calls[c].off, (n - 1) * sizeof *d->off);
    memcpy(d->size, f->calls[c].size, (n - 1) * sizeof *d->size);
    if (d->reg != PTX_NOREG) d->reg += p->slot_base;
    d->caller = i;
  }
  k->ncalls += f->ncalls;
}

/* reach[i * n + j]: fn i calls fn j, directly or through others. */
static uint8_t *closure(const PtxKernel *k, int n) {
  uint8_t *r = wm_xcalloc((size_t)n * (size_t)n, 1);
  for (int c = 0; c < k->ncalls; c++) {
    const PtxCall *call = &k->calls[c];
    if (call->callee >= 0) r[call->caller * n + call->callee] = 1;
    if (call->callee == PTX_CALL_INDIRECT)
      for (int j = 1; j < n; j++)
        if (k->fn[j].f->addr_taken) r[call->caller * n + j] = 1;
  }
  for (int via = 0; via < n; via++)
    for (int i = 0; i < n; i++)
      if (r[i * n + via])
        for (int j = 0; j < n; j++) r[i * n + j] |= r[via * n + j];
  return r;
}

static void link_kernel(PtxModule *m, PtxKernel *k) {
  Link L = {m, k, wm_xcalloc((size_t)m->nfuncs + 1, sizeof(PtxFn)), 1,
            wm_xmalloc(sizeof(int) * (size_t)(m->nfuncs + 1))};
  for (int i = 0; i < m->nfuncs; i++) L.fn_of[i] = -1;
  L.fn[0] = (PtxFn){NULL, 0, (uint32_t)k->ncode, 0, k->nregs, PTX_NOREG};
  if (reach_all(&L)) {
    free(L.fn);
    free(L.fn_of);
    return;
  }
  for (int i = 1; i < L.n; i++) dynamic_align(&L, L.fn[i].f);
  uint64_t total = (uint64_t)k->ncode;
  for (int i = 1; i < L.n; i++) total += (uint64_t)L.fn[i].f->ncode;
  if (L.n > PTX_MAX_FUNCS || total > PTX_MAX_INSTRS) {
    refuse(m, k, &k->code[0], "kernel %s reaches %d device functions, %llu instructions with its own: over "
           "warpmem's limits of %d functions and %d instructions (docs/limits.md)", k->name, L.n - 1,
           (unsigned long long)total, PTX_MAX_FUNCS, PTX_MAX_INSTRS);
    free(L.fn);
    free(L.fn_of);
    return;
  }
  for (int c = 0; c < k->ncalls; c++) k->calls[c].caller = 0;
  for (int i = 1; i < L.n; i++) append_fn(&L, i);
  for (int c = 0; c < k->ncalls; c++) {
    PtxCall *call = &k->calls[c];
    if (call->callee >= 0)
      call->callee = m->funcs[call->callee].builtin ? m->funcs[call->callee].builtin : L.fn_of[call->callee];
  }
  k->fn = L.fn;
  k->nfn = L.n;
  k->fn_of = L.fn_of;
  k->reach = closure(k, L.n);
}

/* Lays out kernel k's shared memory (the file comment) and moves the
 * operands of its code, and of the functions linked into it, that name it. */
static void shared_layout(PtxModule *m, PtxKernel *k) {
  int n = k->nfn ? k->nfn : 1;
  uint8_t *used = wm_xcalloc((size_t)m->nsvars + 1, 1);
  uint32_t *at = wm_xcalloc((size_t)m->nsvars + 1, sizeof *at);
  for (int i = 0; i < n; i++) {
    const PtxKernel *f = i ? k->fn[i].f : k;
    for (int32_t v = f->svar_lo; v < f->svar_hi; v++) used[v] = 1;
    for (uint32_t j = 0; j < f->nsfix; j++)
      if (f->sfix[j].var >= 0) used[f->sfix[j].var] = 1;
  }
  uint64_t cur = 0;
  for (int v = 0; v < m->nsvars; v++) {
    if (!used[v]) continue;
    at[v] = (uint32_t)pp_align_up(cur, m->svars[v].align);
    cur = (uint64_t)at[v] + m->svars[v].size;
  }
  uint32_t a = k->shared_extern_align;
  uint64_t dyn = a ? pp_align_up(cur, a) : cur;
  for (int i = 0; i < n; i++) {
    const PtxKernel *f = i ? k->fn[i].f : k;
    uint32_t base = i ? k->fn[i].start : 0;
    for (uint32_t j = 0; j < f->nsfix; j++) { /* the dynamic array's operands hold their offset in it */
      const PtxSharedFix *x = &f->sfix[j];
      int64_t delta = x->var < 0 ? (int64_t)dyn : (int64_t)at[x->var] - m->svars[x->var].offset;
      k->code[base + x->instr].opd[x->opd].imm += delta;
    }
  }
  k->shared_static = (uint32_t)cur;
  free(used);
  free(at);
}

void pp_link(PtxModule *m) {
  for (int i = 0; i < m->nkernels; i++) {
    PtxKernel *k = &m->kernels[i];
    if (k->ncalls && !k->unsupported) link_kernel(m, k);
    if (!k->unsupported) shared_layout(m, k);
  }
}
