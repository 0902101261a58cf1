/* emu_prepare.c - from decoded PTX to the emulator's slot form, and where
 * divergent branches reconverge.
 *
 * Notes:
 *  - Reconvergence is at the immediate post-dominator of the branch's basic
 *    block (the classic SIMT stack of pre-Volta GPUs, and what Volta+
 *    compilers arrange with BSSY/BSYNC for structured code).
 *  - Post-dominators are computed with bit sets over basic blocks: kernels
 *    have at most a few thousand blocks, and this runs once per launch.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"

typedef struct Consts {
  uint64_t *v;
  uint32_t n, cap;
} Consts;

static uint32_t const_slot(EmuProgram *p, Consts *c, uint64_t v) {
  for (uint32_t i = 0; i < c->n; i++)
    if (c->v[i] == v) return p->const_base + i;
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 32;
    c->v = wm_xrealloc(c->v, c->cap * sizeof *c->v);
  }
  c->v[c->n] = v;
  return p->const_base + c->n++;
}

static uint64_t sym_value(const PtxOperand *o, uint64_t gbase) {
  return o->space == PTX_S_GLOBAL ? gbase + (uint64_t)o->imm : (uint64_t)o->imm;
}

/* The slot an operand is read from. */
static uint32_t src_slot(EmuProgram *p, Consts *c, const PtxOperand *o, uint64_t gbase) {
  switch (o->kind) {
  case PTX_O_REG: return o->reg[0];
  case PTX_O_IMM: return const_slot(p, c, (uint64_t)o->imm);
  case PTX_O_SREG:
    p->sregs_used[o->sreg / 64] |= 1ull << o->sreg % 64;
    return p->sreg_base + o->sreg;
  case PTX_O_SYM: return const_slot(p, c, sym_value(o, gbase));
  default: return EMU_NOSLOT;
  }
}

static int unsupported(const PtxModule *m, const PtxInstr *in, const char *why, WmErr *e) {
  char text[256];
  ptx_instr_text(m, in, text, sizeof text);
  return wm_err_at(e, WM_EUNSUP, m->path, m->text, (int)in->ptx_line, in->ptx_col,
                   "cannot emulate '%s': %s", text, why);
}

/* The fewest source operands each instruction reads (a vector counts its
 * elements): its shape's, from ptx_ops.h; the executors index them
 * without checking. */
static int min_sources(const EmuInstr *x) {
  int n = ptx_shape_nsrc[ptx_op[x->op].shape];
  if (n >= 0) return n;
  if (x->op == PTX_OP_ST) return x->vec;
  return x->sub >= PTX_SUB_RED_POPC && x->sub <= PTX_SUB_RED_OR ? 3 : 1; /* bar, barrier */
}

/* Refuses operand lists the executors cannot run: missing sources,
 * destinations or addresses (the parser should not let them through, but an
 * emulated kernel must never read outside its register file). */
static int check_operands(const PtxModule *m, const PtxInstr *in, const EmuInstr *x, int has_addr, WmErr *e) {
  int need = min_sources(x);
  int is_red = (x->op == PTX_OP_BAR || x->op == PTX_OP_BARRIER) && x->sub >= PTX_SUB_RED_POPC;
  for (int i = 0; i < need; i++)
    if (i >= x->ns || (x->s[i] == EMU_NOSLOT && !(is_red && i == 1))) /* bar.red's count is optional */
      return unsupported(m, in, "an operand is missing", e);
  PtxShape shape = ptx_op[x->op].shape;
  if ((ptx_op[x->op].flags & OPF_MEM) && !has_addr) return unsupported(m, in, "the address operand is missing", e);
  /* forms whose destinations may all be sinks ('_'): p|q, d|p, vectors, atom's old value */
  int sinks = shape == PTX_SH_SETP || shape == PTX_SH_SHFL || shape == PTX_SH_MATCH || shape == PTX_SH_ELECT ||
              shape == PTX_SH_LD ||
              shape == PTX_SH_ATOM || shape == PTX_SH_TEX || shape == PTX_SH_SULD ||
              shape == PTX_SH_MBAR_ARRIVE;
  int texlike = shape == PTX_SH_TEX || shape == PTX_SH_SULD || shape == PTX_SH_SUST || shape == PTX_SH_TXQ;
  if (texlike && x->abase == EMU_NOSLOT) return unsupported(m, in, "the texture or surface handle is missing", e);
  int needs_dst = !(ptx_op[x->op].flags & OPF_NODST) && !sinks;
  if (needs_dst && (x->nd == 0 || x->d[0] == EMU_NOSLOT))
    return unsupported(m, in, "the destination is missing", e);
  return 0;
}

/* A tensor-core instruction: its fragments' slots into a new EmuTensor
 * (the parser checked their sizes), the address into abase/aoff. */
static int decode_tensor(EmuProgram *p, Consts *c, const PtxModule *m, const PtxInstr *in, EmuInstr *x,
                         uint64_t gbase, WmErr *e) {
  p->tensor = wm_xrealloc(p->tensor, (p->ntensor + 1) * sizeof *p->tensor);
  EmuTensor *t = &p->tensor[p->ntensor];
  memset(t, 0, sizeof *t);
  t->m = in->mma;
  t->stride = EMU_NOSLOT;
  x->target = p->ntensor++;
  int nfrag = 0, has_addr = 0;
  for (int i = 0; i < in->nopd; i++) {
    const PtxOperand *o = &in->opd[i];
    if (o->kind == PTX_O_ADDR) {
      has_addr = 1;
      x->abase = o->reg[0] == PTX_NOREG ? EMU_NOSLOT : o->reg[0];
      x->aoff = o->reg[0] == PTX_NOREG && o->space == PTX_S_GLOBAL ? (int64_t)gbase + o->imm : o->imm;
    } else if (nfrag < 4 && !((ptx_op[in->op].flags & OPF_MEM) && i == 2)) { /* opd[2] of a load or store: the stride */
      int n = o->kind == PTX_O_VEC ? o->n : 1;
      t->n[nfrag] = (uint8_t)n;
      for (int j = 0; j < n; j++) {
        uint32_t r = o->kind == PTX_O_VEC ? ptx_vec_reg(p->k, o, j) : o->reg[0];
        t->r[nfrag][j] = r == PTX_NOREG ? EMU_NOSLOT : r;
      }
      nfrag++;
    } else {
      t->stride = src_slot(p, c, o, gbase);
    }
  }
  if ((ptx_op[in->op].flags & OPF_MEM) && !has_addr) return unsupported(m, in, "the address operand is missing", e);
  return 0;
}

/* An address operand's base slot (a constant 0 without a register) and
 * offset slot, into r[0] and r[1]. */
static uint32_t tma_space(EmuProgram *p, Consts *c, const PtxOperand *o, uint64_t gbase, uint32_t *r) {
  int sym = o->reg[0] == PTX_NOREG;
  uint64_t off = (uint64_t)o->imm + (sym && o->space == PTX_S_GLOBAL ? gbase : 0);
  r[0] = sym ? const_slot(p, c, 0) : o->reg[0];
  r[1] = const_slot(p, c, off);
  return sym && (o->space == PTX_S_PARAM || o->space == PTX_S_CONST) ? o->space : PTX_S_GENERIC;
}

/* A TMA instruction (shape SH_TMA): its operands into a new EmuTensor, laid
 * out as emu_int.h says (EMU_TMA_*). */
static void decode_tma(EmuProgram *p, Consts *c, const PtxInstr *in, EmuInstr *x, uint64_t gbase) {
  p->tensor = wm_xrealloc(p->tensor, (p->ntensor + 1) * sizeof *p->tensor);
  EmuTensor *t = &p->tensor[p->ntensor];
  memset(t, 0, sizeof *t);
  x->target = p->ntensor++;
  for (int i = 0; i < 4; i++) x->d[i] = EMU_NOSLOT;
  for (int i = 0; i < 6; i++) x->s[i] = EMU_NOSLOT;
  x->abase = EMU_NOSLOT;
  const PtxOperand *o = in->opd;
  for (int v = 0; v < 2; v++) { /* coordinates, im2col offsets */
    const PtxOperand *vec = &o[v ? 4 : 2];
    t->n[v] = vec->kind == PTX_O_VEC ? vec->n : vec->kind == PTX_O_REG ? 1 : 0;
    for (int j = 0; j < t->n[v]; j++) {
      uint32_t r = vec->kind == PTX_O_REG ? vec->reg[0] : ptx_vec_reg(p->k, vec, j);
      t->r[v][j] = ptx_is_vconst(r) ? const_slot(p, c, (uint64_t)p->k->vconsts[r - PTX_VCONST]) : r;
    }
  }
  uint32_t *r = t->r[2];
  t->n[2] = EMU_TMA_NSLOTS;
  t->m.dtype = (uint8_t)tma_space(p, c, &o[1], gbase, &r[EMU_TMA_MAP]);
  for (int k = 0; k < 2; k++) { /* the shared side, the mbarrier (absent: constant 0) */
    const PtxOperand *a = &o[k ? 3 : 0];
    int op_is_load = in->op == PTX_OP_CPASYNC_BULK_TENSOR && in->sub != PTX_SUB_BULK_STORE;
    const PtxOperand *use = op_is_load ? a : k ? NULL : &o[3]; /* stores: opd[3] is the source */
    uint32_t *dst = &r[k ? EMU_TMA_MBAR : EMU_TMA_SMEM];
    if (use && use->kind == PTX_O_ADDR) tma_space(p, c, use, gbase, dst);
    else dst[0] = dst[1] = const_slot(p, c, 0);
  }
  r[EMU_TMA_MASK] = o[5].kind == PTX_O_NONE ? EMU_NOSLOT : src_slot(p, c, &o[5], gbase);
}

/* Fills x's slots from in's operands, following the operand conventions of
 * ptx_shape.c. */
static int decode_operands(EmuProgram *p, Consts *c, const PtxModule *m, const PtxInstr *in,
                           EmuInstr *x, uint64_t gbase, WmErr *e) {
  int first_src = 1;
  for (int i = 0; i < 4; i++) x->d[i] = EMU_NOSLOT;
  for (int i = 0; i < 6; i++) x->s[i] = EMU_NOSLOT;
  x->abase = EMU_NOSLOT;
  const PtxOperand *o = in->opd;
  int flags = ptx_op[in->op].flags;
  if (ptx_op[in->op].mods & M_MMA_MISC) return decode_tensor(p, c, m, in, x, gbase, e);
  if (in->op == PTX_OP_WGMMA_MMA) return emu_wgmma_decode(p, in, x);

  switch (ptx_op[in->op].shape) {
  case PTX_SH_SETP: /* two destinations: p|q, d|p */
  case PTX_SH_SHFL:
  case PTX_SH_MATCH:
  case PTX_SH_ELECT:
    x->d[0] = o[0].kind == PTX_O_REG ? o[0].reg[0] : EMU_NOSLOT;
    x->d[1] = o[1].kind == PTX_O_REG ? o[1].reg[0] : EMU_NOSLOT;
    x->nd = 2;
    first_src = 2;
    break;
  case PTX_SH_BRA:
    x->target = (uint32_t)o[0].imm;
    return 0;
  case PTX_SH_SUST: /* the values go to d[]: 3 coordinates and 4 values do not fit s[] */
    if (o[2].kind == PTX_O_VEC) {
      x->nd = o[2].n;
      for (int i = 0; i < o[2].n; i++) x->d[i] = o[2].reg[i] == PTX_NOREG ? EMU_NOSLOT : o[2].reg[i];
    } else {
      x->nd = 1;
      x->d[0] = o[2].reg[0];
    }
    for (int i = 0; i < x->nd; i++)
      if (x->d[i] == EMU_NOSLOT) return unsupported(m, in, "a value to store is '_'", e);
    first_src = 0;
    break;
  case PTX_SH_CALL: /* target: the call site; s[0]: the pointer of an indirect call */
    x->target = (uint32_t)o[0].imm;
    if (in->nopd > 1) x->s[0] = o[1].reg[0], x->ns = 1;
    if (x->target >= (uint32_t)p->k->ncalls || (p->k->calls[x->target].callee == PTX_CALL_INDIRECT && x->ns != 1) ||
        (p->k->calls[x->target].callee >= 0 && !p->k->fn))
      return unsupported(m, in, "a call site the linker did not resolve", e);
    return 0;
  case PTX_SH_BAR:
    if (in->sub >= PTX_SUB_RED_POPC && in->sub <= PTX_SUB_RED_OR) { /* bar.red d, a[, b], c */
      x->d[0] = o[0].kind == PTX_O_REG ? o[0].reg[0] : EMU_NOSLOT;
      x->nd = 1;
      first_src = 1;
    } else {
      first_src = 0;
    }
    break;
  default:
    if (flags & OPF_NODST) {
      first_src = 0;
    } else if (o[0].kind == PTX_O_VEC) {
      x->nd = o[0].n;
      for (int i = 0; i < o[0].n; i++) x->d[i] = o[0].reg[i] == PTX_NOREG ? EMU_NOSLOT : o[0].reg[i];
    } else if (o[0].kind == PTX_O_REG) {
      x->d[0] = o[0].reg[0];
      x->nd = 1;
    } else if (o[0].kind == PTX_O_NONE && ptx_op[in->op].shape == PTX_SH_MBAR_ARRIVE) {
      x->nd = 1; /* mbarrier.arrive _, [a]: no state wanted */
    } else if (in->nopd > 0) {
      return unsupported(m, in, "the destination is not a register", e);
    }
  }

  int ns = 0, has_addr = 0;
  int nopd = ptx_op[in->op].shape == PTX_SH_SUST ? 2 : in->nopd;
  for (int i = first_src; i < nopd; i++) {
    const PtxOperand *a = &o[i];
    int64_t aoff = a->reg[0] == PTX_NOREG && a->space == PTX_S_GLOBAL ? (int64_t)gbase + a->imm : a->imm;
    if (a->kind == PTX_O_ADDR && has_addr) {
      /* a second address (cp.async's source, the bulk copy's mbarrier):
       * two sources, its base register (or 0) and its offset */
      if (ns + 2 > 6) return unsupported(m, in, "too many operands", e);
      x->s[ns++] = a->reg[0] == PTX_NOREG ? const_slot(p, c, 0) : a->reg[0];
      x->s[ns++] = const_slot(p, c, (uint64_t)aoff);
      continue;
    }
    if (a->kind == PTX_O_ADDR) {
      has_addr = 1;
      x->abase = a->reg[0] == PTX_NOREG ? EMU_NOSLOT : a->reg[0];
      x->aoff = aoff;
      continue;
    }
    if (a->kind == PTX_O_VEC) {
      for (int j = 0; j < a->n && ns < 6; j++)
        x->s[ns++] = a->vimm >> j & 1 ? const_slot(p, c, (uint64_t)a->imm) : a->reg[j];
      continue;
    }
    if (ns >= 6) return unsupported(m, in, "too many operands", e);
    x->s_neg[ns] = a->neg;
    x->s[ns++] = src_slot(p, c, a, gbase);
  }
  x->ns = (uint8_t)ns;
  return check_operands(m, in, x, has_addr, e);
}

/* --- control flow: basic blocks and immediate post-dominators --- */

static int ends_block(const PtxInstr *in) {
  return in->op == PTX_OP_BRA || (ptx_op[in->op].flags & OPF_EXIT);
}

typedef uint64_t Word;
#define WBITS 64

/* The reconvergence points of the branches in code[lo, lo + n): a kernel
 * or one device function, whose ret and exit lead to the exit node. */
static int reconverge_range(EmuProgram *p, const PtxKernel *k, int lo, int n) {
  if (n == 0) return 0;
  const PtxInstr *code = k->code + lo;
  /* leaders */
  char *leader = wm_xcalloc((size_t)n + 1, 1);
  leader[0] = 1;
  for (int i = 0; i < n; i++) {
    const PtxInstr *in = &code[i];
    if (in->op == PTX_OP_BRA && in->opd[0].imm - lo < n && in->opd[0].imm >= lo) leader[in->opd[0].imm - lo] = 1;
    if (ends_block(in)) leader[i + 1] = 1;
  }
  int *block_of = wm_xmalloc(sizeof(int) * (size_t)n);
  int nb = 0;
  for (int i = 0; i < n; i++) {
    if (leader[i]) nb++;
    block_of[i] = nb - 1;
  }
  int *start = wm_xmalloc(sizeof(int) * (size_t)(nb + 1));
  for (int i = 0, b = 0; i < n; i++)
    if (leader[i]) start[b++] = i;
  start[nb] = n;
  /* successors: at most two per block; nb stands for the kernel exit */
  int (*succ)[2] = wm_xmalloc(sizeof *succ * (size_t)nb);
  for (int b = 0; b < nb; b++) {
    const PtxInstr *last = &code[start[b + 1] - 1];
    int fall = start[b + 1] < n ? block_of[start[b + 1]] : nb;
    int guarded = last->guard != PTX_NOREG;
    succ[b][0] = succ[b][1] = -1;
    if (last->op == PTX_OP_BRA) {
      int64_t t = last->opd[0].imm - lo;
      succ[b][0] = t >= 0 && t < n ? block_of[t] : nb;
      if (guarded) succ[b][1] = fall;
    } else if (ptx_op[last->op].flags & OPF_EXIT) {
      succ[b][0] = nb;
      if (guarded) succ[b][1] = fall;
    } else {
      succ[b][0] = fall;
    }
  }
  /* pdom[b]: bit set over nb+1 nodes; start from "everything" */
  int words = (nb + 1 + WBITS - 1) / WBITS;
  Word *pd = wm_xmalloc(sizeof(Word) * (size_t)words * (size_t)(nb + 1));
  Word *tmp = wm_xmalloc(sizeof(Word) * (size_t)words);
#define PD(b) (pd + (size_t)(b) * (size_t)words)
  for (int b = 0; b < nb; b++) memset(PD(b), 0xff, sizeof(Word) * (size_t)words);
  memset(PD(nb), 0, sizeof(Word) * (size_t)words);
  PD(nb)[nb / WBITS] |= (Word)1 << (nb % WBITS);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = nb - 1; b >= 0; b--) {
      memset(tmp, 0xff, sizeof(Word) * (size_t)words);
      for (int s = 0; s < 2; s++)
        if (succ[b][s] >= 0)
          for (int w = 0; w < words; w++) tmp[w] &= PD(succ[b][s])[w];
      tmp[b / WBITS] |= (Word)1 << (b % WBITS);
      if (memcmp(tmp, PD(b), sizeof(Word) * (size_t)words)) {
        memcpy(PD(b), tmp, sizeof(Word) * (size_t)words);
        changed = 1;
      }
    }
  }
  /* which blocks can reach the exit (the others keep the "everything" set) */
  char *reach = wm_xcalloc((size_t)nb + 1, 1);
  reach[nb] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = nb - 1; b >= 0; b--)
      if (!reach[b] && ((succ[b][0] >= 0 && reach[succ[b][0]]) || (succ[b][1] >= 0 && reach[succ[b][1]])))
        reach[b] = changed = 1;
  }
  /* size of each pdom set: the immediate post-dominator of b is its strict
   * post-dominator with the largest set (the nearest one) */
  int *size = wm_xmalloc(sizeof(int) * (size_t)(nb + 1));
  for (int b = 0; b <= nb; b++) {
    int s = 0;
    for (int d = 0; d <= nb; d++) s += (int)(PD(b)[d / WBITS] >> (d % WBITS) & 1);
    size[b] = s;
  }
  for (int i = 0; i < n; i++) {
    if (code[i].op != PTX_OP_BRA) continue;
    int b = block_of[i], best = nb, bestsz = size[nb];
    if (reach[b]) /* else its set is meaningless: no reconvergence */
      for (int d = 0; d < nb; d++)
        if (d != b && (PD(b)[d / WBITS] >> (d % WBITS) & 1) && size[d] > bestsz)
          best = d, bestsz = size[d];
    p->code[lo + i].rpc = best == nb ? (uint32_t)k->ncode : (uint32_t)(lo + start[best]);
  }
#undef PD
  free(size);
  free(reach);
  free(tmp);
  free(pd);
  free(succ);
  free(start);
  free(block_of);
  free(leader);
  return 0;
}

static void compute_reconvergence(EmuProgram *p, const PtxKernel *k) {
  if (!k->fn) {
    reconverge_range(p, k, 0, k->ncode);
    return;
  }
  for (int i = 0; i < k->nfn; i++)
    reconverge_range(p, k, (int)k->fn[i].start, (int)(k->fn[i].end - k->fn[i].start));
}

/* --- clocks --- */

/* mov from %clock, %clock64, %globaltimer and their halves reads the time
 * when it runs (EMU_CLOCK_*), not a value fixed at the block's start: a
 * kernel that spins until the clock has advanced (the CUDA samples'
 * clock_block) must end. */
static void mark_clock_reads(EmuProgram *p, int ncode) {
  for (int i = 0; i < ncode; i++) {
    EmuInstr *x = &p->code[i];
    if (x->op != PTX_OP_MOV || x->ns != 1 || x->nd != 1 || x->s[0] < p->sreg_base || x->s[0] >= p->const_base)
      continue;
    switch (x->s[0] - p->sreg_base) {
    case PTX_SR_CLOCK: case PTX_SR_CLOCK64: case PTX_SR_GLOBALTIMER: case PTX_SR_GLOBALTIMER_LO:
      x->aux = EMU_CLOCK_LOW;
      break;
    case PTX_SR_CLOCK_HI: case PTX_SR_GLOBALTIMER_HI: x->aux = EMU_CLOCK_HIGH; break;
    default: break;
    }
  }
}

/* --- the shared loads ptxas fuses (EmuFuse) --- */

static int fusable_load(const EmuInstr *x) {
  return x->op == PTX_OP_LD && x->space == PTX_S_SHARED && x->vec == 1 && ptx_type_size((PtxType)x->type) == 4 &&
         x->guard == EMU_NOSLOT && x->abase != EMU_NOSLOT && x->fuse == FUSE_NONE;
}

static int writes_slot(const EmuInstr *x, uint32_t slot) {
  for (int d = 0; d < x->nd; d++)
    if (x->d[d] == slot) return 1;
  return 0;
}

/* Ends the window in which loads may be fused: control flow, a barrier,
 * anything that may write shared memory. */
static int fusion_barrier(const EmuInstr *x, const char *leader, int i) {
  if (leader[i] || x->op == PTX_OP_BRA || x->op == PTX_OP_CALL || (ptx_op[x->op].flags & (OPF_EXIT | OPF_BARRIER)))
    return 1;
  if (ptx_op[x->op].mods & (M_MMA_MISC | M_WGMMA)) return 1; /* stores, and writes registers outside d[] */
  if ((x->op == PTX_OP_ST || x->op == PTX_OP_ATOM || x->op == PTX_OP_RED) &&
      (x->space == PTX_S_SHARED || x->space == PTX_S_GENERIC))
    return 1;
  if (x->op == PTX_OP_CPASYNC || x->op == PTX_OP_CPASYNC_BULK) return 1;
  return 0;
}

static void fuse_shared_loads(EmuProgram *p, const PtxKernel *k) {
  int n = k->ncode;
  char *leader = wm_xcalloc((size_t)n + 1, 1);
  for (int i = 0; i < n; i++)
    if (k->code[i].op == PTX_OP_BRA && (int64_t)k->code[i].opd[0].imm < n) leader[k->code[i].opd[0].imm] = 1;
  for (int i = 0; i < n; i++) {
    EmuInstr *x = &p->code[i];
    if (!fusable_load(x) || x->aoff % 16 != 0) continue;
    int member[3] = {-1, -1, -1};
    for (int j = i + 1; j < n && !fusion_barrier(&p->code[j], leader, j); j++) {
      EmuInstr *y = &p->code[j];
      int64_t d = y->aoff - x->aoff;
      if (fusable_load(y) && y->abase == x->abase && (d == 4 || d == 8 || d == 12) && member[d / 4 - 1] < 0)
        member[d / 4 - 1] = j;
      if (writes_slot(y, x->abase)) break;
    }
    if (member[0] < 0 || member[1] < 0 || member[2] < 0) continue;
    x->fuse = FUSE_LEAD4;
    for (int g = 0; g < 3; g++) p->code[member[g]].fuse = FUSE_MEMBER;
  }
  free(leader);
}

/* The carry chains: add.cc, sub.cc, mad.cc and addc, subc, madc read the
 * lane's carry flag (the hidden register slot p->carry) as their last
 * source and write it as their second destination (.cc), so that it lives
 * in the warp's register file like any register.  Returns 0, or -1 with a
 * located error for a form PTX does not have. */
static int carry_operands(const EmuProgram *p, const PtxModule *m, const PtxInstr *in, EmuInstr *x, WmErr *e) {
  int chain = x->op == PTX_OP_ADDC || x->op == PTX_OP_SUBC || x->op == PTX_OP_MADC;
  if (!chain && !(x->flags & PTX_IF_CC)) return 0;
  if (!chain && x->op != PTX_OP_ADD && x->op != PTX_OP_SUB && x->op != PTX_OP_MAD) return 0;
  int t = x->type;
  if (t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_U64 && t != PTX_T_S64)
    return unsupported(m, in, "carries take .u32, .s32, .u64 or .s64", e);
  if (x->flags & PTX_IF_SAT) return unsupported(m, in, ".sat with a carry is not a PTX form", e);
  if ((x->op == PTX_OP_MAD || x->op == PTX_OP_MADC) && x->sub != PTX_SUB_LO && x->sub != PTX_SUB_HI)
    return unsupported(m, in, "mad with a carry needs .lo or .hi", e);
  if (x->ns >= 6) return unsupported(m, in, "too many operands", e);
  x->s[x->ns++] = p->carry;
  if (x->flags & PTX_IF_CC) x->d[1] = p->carry, x->nd = 2;
  return 0;
}

/* dp4a, dp2a and the video instructions take .u32 and .s32 only; the
 * packed .u16x2/.s16x2 belong to add, sub, min and max. */
static int integer_types(const PtxModule *m, const PtxInstr *in, WmErr *e) {
  if (in->type == PTX_T_U16X2 || in->type == PTX_T_S16X2) {
    int ok = in->op == PTX_OP_ADD || in->op == PTX_OP_SUB || in->op == PTX_OP_MIN || in->op == PTX_OP_MAX;
    if (!ok || (in->flags & (PTX_IF_SAT | PTX_IF_CC)) || in->fmod)
      return unsupported(m, in, ".u16x2 and .s16x2 are types of add, sub, min and max (without modifiers)", e);
  }
  if (in->op < PTX_OP_DP4A || in->op > PTX_OP_VMAX2) return 0;
  int n = in->op <= PTX_OP_DP2A ? 2 : 3, t[3] = {in->type, in->type2, in->aux};
  for (int i = 0; i < n; i++)
    if (t[i] != PTX_T_U32 && t[i] != PTX_T_S32)
      return unsupported(m, in, n == 2 ? "dp4a and dp2a take .u32 and .s32 types" : "video instructions take "
                         "three types (d, a, b), each .u32 or .s32", e);
  return 0;
}

/* The adds and subs ptxas contracted with a mul (PtxInstr.fused, read from
 * its code by ptx_contractions) run as the one fma it made: the mul's
 * sources and the other operand, rounded once.  The mul still runs (its
 * product may be read elsewhere). */
static void contract_fused(EmuProgram *p, const PtxKernel *k) {
  for (int i = 0; i < k->ncode; i++) {
    EmuInstr *x = &p->code[i];
    if (!k->code[i].fused || x->ns != 2 || x->half) continue;
    const EmuInstr *mul = &p->code[k->code[i].fused - 1];
    int q = x->s[0] == mul->d[0] ? 0 : x->s[1] == mul->d[0] ? 1 : -1; /* the product's place */
    if (q < 0 || mul->ns != 2) continue;
    uint32_t other = x->s[1 - q];
    x->aux = x->op == PTX_OP_ADD ? EMU_FUSED_ADD : q == 0 ? EMU_FUSED_NEG_C : EMU_FUSED_NEG_AB;
    x->op = PTX_OP_FMA;
    x->rnd = PTX_RND_RN;
    x->s[0] = mul->s[0], x->s[1] = mul->s[1], x->s[2] = other;
    x->ns = 3;
    x->flags |= mul->flags & PTX_IF_FTZ;
  }
}

int emu_prepare(EmuProgram *p, const PtxModule *m, const PtxKernel *k, uint64_t gbase, WmErr *e) {
  memset(p, 0, sizeof *p);
  p->k = k;
  p->ncode = k->ncode;
  p->code = wm_xcalloc((size_t)k->ncode + 1, sizeof *p->code);
  p->carry = k->nregs;
  p->sreg_base = k->nregs + 1;
  p->const_base = p->sreg_base + PTX_SR_COUNT;
  Consts c = {0};
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    EmuInstr *x = &p->code[i];
    x->op = in->op;
    x->type = in->type;
    x->type2 = in->type2;
    x->space = in->space;
    x->vec = in->vec ? in->vec : 1;
    x->cmp = in->cmp;
    x->sub = in->sub;
    x->rnd = in->rnd;
    x->aux = in->aux;
    x->host_rnd = (ptx_op[in->op].flags & OPF_FROUND) && in->rnd >= PTX_RND_RZ && in->rnd <= PTX_RND_RP &&
                  ptx_type_is_float((PtxType)in->type);
    x->flags = in->flags;
    x->fmod = in->fmod;
    x->guard = in->guard == PTX_NOREG ? EMU_NOSLOT : in->guard;
    x->guard_neg = in->guard_neg;
    x->rpc = (uint32_t)k->ncode;
    char why[200];
    if (ptx_op[in->op].shape == PTX_SH_TMA) decode_tma(p, &c, in, x, gbase);
    else if (decode_operands(p, &c, m, in, x, gbase, e) || carry_operands(p, m, in, x, e) || integer_types(m, in, e) ||
        (emu_half_select(x, why, sizeof why) < 0 && unsupported(m, in, why, e))) {
      free(c.v);
      emu_program_free(p);
      return -1;
    }
  }
  /* An atom whose result nothing reads is a reduction: ptxas emits RED for
   * it, and Nsight Compute counts it under op_red (measured, tools/probe). */
  char *read = wm_xcalloc((size_t)k->nregs + 1, 1);
  for (int i = 0; i < k->ncode; i++) {
    const EmuInstr *x = &p->code[i];
    for (int j = 0; j < x->ns; j++)
      if (x->s[j] < k->nregs) read[x->s[j]] = 1;
    if (x->abase < k->nregs) read[x->abase] = 1;
    if (x->guard < k->nregs) read[x->guard] = 1;
    if (x->op == PTX_OP_SUST) /* its values are in d[] */
      for (int j = 0; j < x->nd; j++)
        if (x->d[j] < k->nregs) read[x->d[j]] = 1;
  }
  for (uint32_t t = 0; t < p->ntensor; t++) { /* their sources are in the side table */
    if (p->tensor[t].stride < k->nregs) read[p->tensor[t].stride] = 1;
    for (int f = 0; f < 4; f++)
      for (int j = 0; j < p->tensor[t].n[f]; j++)
        if (p->tensor[t].r[f][j] < k->nregs) read[p->tensor[t].r[f][j]] = 1;
  }
  for (uint32_t t = 0; t < p->nwgmma; t++) { /* wgmma's too */
    const EmuWgmma *w = &p->wgmma[t];
    uint32_t src[3] = {w->adesc, w->bdesc, w->scale};
    for (int j = 0; j < 3; j++)
      if (src[j] < k->nregs) read[src[j]] = 1;
    for (int j = 0; j < 4 && (w->m.wg & PTX_WG_AREG); j++)
      if (w->a[j] < k->nregs) read[w->a[j]] = 1;
    for (int j = 0; j < w->nd; j++)
      if (w->d[j] < k->nregs) read[w->d[j]] = 1;
  }
  for (int i = 0; i < k->ncode; i++) {
    EmuInstr *x = &p->code[i];
    /* RED has no exchange or compare-and-swap */
    int has_red = x->sub != PTX_SUB_AEXCH && x->sub != PTX_SUB_ACAS;
    if (x->op == PTX_OP_ATOM && has_red && (x->d[0] == EMU_NOSLOT || !read[x->d[0]])) x->op = PTX_OP_RED;
  }
  free(read);
  fuse_shared_loads(p, k);
  contract_fused(p, k);
  emu_mark_aggregated(p, k->ncode);
  mark_clock_reads(p, k->ncode);
  /* a sentinel: running off the end of the code is a return */
  p->code[k->ncode].op = PTX_OP_RET;
  p->code[k->ncode].guard = EMU_NOSLOT;
  p->code[k->ncode].rpc = (uint32_t)k->ncode;
  compute_reconvergence(p, k);
  p->consts = c.v;
  p->nconst = c.n;
  p->nslots = p->const_base + c.n;
  emu_mark_latencies(p, k->ncode); /* it schedules by slot */
  emu_mark_skipped_globals(p, k->ncode);
  emu_select_fns(p);
  return 0;
}

void emu_program_free(EmuProgram *p) {
  free(p->code);
  free(p->tensor);
  free(p->wgmma);
  free(p->consts);
  memset(p, 0, sizeof *p);
}
