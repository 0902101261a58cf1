/* emu_uniform.c - reductions ptxas aggregates per warp.
 *
 * ptxas turns an integer atomicAdd whose address and value it can prove
 * the same in every lane (atomicAdd(&counter, 1) on a __device__ variable)
 * into one RED per warp carrying the active lanes' total; and a 32-bit one
 * whose address alone it can prove uniform into a REDUX.SUM of the lanes'
 * values and one lane's RED (the lab's atomic_sum, `atomicAdd(result,
 * input[i])`: VOTEU.ANY, UFLO, REDUX.SUM, @P0 REDG in its sm_90 SASS; the
 * H200 ran its 2M warps' reductions in 1.6 ms, one update each, not 32);
 * in shared memory too (atomic_sum_hier: REDUX.SUM, then one lane's
 * ATOMS).
 * Measured on an
 * H100 (docs/results/h100-2026-11-25-apps): such a reduction touches one
 * sector per request, where 32 lanes on one word otherwise cost 32
 * (mem_atomic_sectors, measured on an H200 with an address ptxas cannot
 * prove uniform: gred#same).  So the uniformity that matters is the
 * compiler's, found here from the code: a register is uniform when every
 * instruction that writes it is an unguarded computation from uniform
 * operands (immediates, symbols, the kernel's parameters, the block's and
 * grid's special registers); anything read from memory, another lane, a
 * per-thread register or a call's .param (a device function's parameters
 * and return values, in the thread's frame) is not.  The emulator still runs every lane; only
 * the memory model sees one lane (EmuFuse FUSE_AGGREGATE). */
#include <stdlib.h>

#include "emu/emu_int.h"

/* Special registers with one value per warp (per block or grid). */
static int uniform_sreg(unsigned sr) {
  switch (sr) {
  case PTX_SR_NTID_X: case PTX_SR_NTID_Y: case PTX_SR_NTID_Z:
  case PTX_SR_CTAID_X: case PTX_SR_CTAID_Y: case PTX_SR_CTAID_Z:
  case PTX_SR_NCTAID_X: case PTX_SR_NCTAID_Y: case PTX_SR_NCTAID_Z:
  case PTX_SR_NWARPID: case PTX_SR_NSMID: case PTX_SR_GRIDID:
  case PTX_SR_DYN_SMEM: case PTX_SR_TOTAL_SMEM: return 1;
  default: return 0;
  }
}

/* Computations whose result is uniform when their operands are. */
static int uniform_op(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_MOV: case PTX_OP_CVTA: case PTX_OP_CVT: case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL:
  case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_AND:
  case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_SELP:
  case PTX_OP_SETP: return 1;
  case PTX_OP_LD: /* the kernel's parameters, not a call's (ptx.h: PTX_PARAM_FRAME) */
    return x->space == PTX_S_CONST ||
           (x->space == PTX_S_PARAM && x->abase == EMU_NOSLOT && (uint64_t)x->aoff < PTX_PARAM_FRAME);
  default: return 0;
  }
}

static int slot_uniform(const EmuProgram *p, const uint8_t *reg_uniform, uint32_t s) {
  if (s == EMU_NOSLOT) return 1;
  if (s < p->carry) return reg_uniform[s];
  if (s >= p->const_base) return 1;
  return s >= p->sreg_base && uniform_sreg(s - p->sreg_base);
}

static int sources_uniform(const EmuProgram *p, const uint8_t *u, const EmuInstr *x) {
  if (!slot_uniform(p, u, x->abase)) return 0;
  for (int i = 0; i < x->ns; i++)
    if (!slot_uniform(p, u, x->s[i])) return 0;
  return 1;
}

/* Registers start uniform and lose it, until nothing changes. */
static uint8_t *uniform_registers(const EmuProgram *p, int ncode) {
  uint8_t *u = malloc(p->carry + 1);
  if (!u) return NULL;
  for (uint32_t r = 0; r <= p->carry; r++) u[r] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < ncode; i++) {
      const EmuInstr *x = &p->code[i];
      int keep = x->guard == EMU_NOSLOT && uniform_op(x) && sources_uniform(p, u, x);
      for (int j = 0; j < x->nd && j < 4; j++)
        if (x->d[j] < p->carry && u[x->d[j]] && !keep) u[x->d[j]] = 0, changed = 1;
    }
  }
  return u;
}

static int integer_add(const EmuInstr *x) {
  return x->sub == PTX_SUB_AADD && (x->type == PTX_T_U32 || x->type == PTX_T_S32 || x->type == PTX_T_U64);
}

/* Whether ptxas makes reduction x one lane's: its address uniform, and its
 * value too unless REDUX.SUM can add the lanes' values (32 bits). */
static int aggregated(const EmuProgram *p, const uint8_t *u, const EmuInstr *x) {
  if (x->type != PTX_T_U64) return slot_uniform(p, u, x->abase);
  return sources_uniform(p, u, x);
}

void emu_mark_aggregated(EmuProgram *p, int ncode) {
  int any = 0;
  for (int i = 0; i < ncode && !any; i++) any = p->code[i].op == PTX_OP_RED && integer_add(&p->code[i]);
  if (!any) return;
  uint8_t *u = uniform_registers(p, ncode);
  if (!u) return; /* no memory: count every lane, as before */
  for (int i = 0; i < ncode; i++) {
    EmuInstr *x = &p->code[i];
    if (x->op == PTX_OP_RED && integer_add(x) && x->fuse == FUSE_NONE &&
        (x->space == PTX_S_GLOBAL || x->space == PTX_S_GENERIC || x->space == PTX_S_SHARED) && aggregated(p, u, x))
      x->fuse = FUSE_AGGREGATE;
  }
  free(u);
}
