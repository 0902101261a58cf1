/* test_ptx_parse.c - the PTX front end: nvcc output decoded field by field,
 * every class of error located exactly, and garbage survived. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "ptx/ptx.h"

/* ---------------------------------------------------------------- helpers */

static PtxModule *parse_text(const char *text, WmErr *e) {
  memset(e, 0, sizeof *e);
  return ptx_parse("t.ptx", wm_xstrdup(text), e);
}

/* A module of tests/data, or of groundtruth/ for a name with a folder
 * ("ptx/seed_kernels.ptx"). */
static const char *data_path(const char *name) { return strchr(name, '/') ? tu_truth(name) : tu_data(name); }

static PtxModule *load_data(const char *name) {
  WmErr e = {0};
  PtxModule *m = ptx_load(data_path(name), arch_ptx_target(), &e);
  if (!m) fail_msg("%s", e.msg);
  return m;
}

/* A one-kernel module: lines 1-10 are the header and declarations, the body
 * starts on line 11. */
static char *kernel_text(const char *body) {
  static const char head[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1)\n"
    "{\n"
    "  .reg .pred %p<8>;\n"
    "  .reg .b32 %r<20>;\n"
    "  .reg .b64 %rd<20>;\n"
    "  .reg .f32 %f<20>;\n"
    "  .reg .f64 %fd<20>;\n";
  size_t n = strlen(head) + strlen(body) + 8;
  char *s = wm_xmalloc(n);
  snprintf(s, n, "%s%s}\n", head, body);
  return s;
}

static PtxModule *parse_kernel(const char *body, WmErr *e) {
  char *text = kernel_text(body);
  memset(e, 0, sizeof *e);
  PtxModule *m = ptx_parse("t.ptx", text, e);
  return m;
}

static PtxModule *parse_kernel_ok(const char *body) {
  WmErr e;
  PtxModule *m = parse_kernel(body, &e);
  if (!m) fail_msg("unexpected error: %s", e.msg);
  return m;
}

/* A malformed kernel body: the module loads (one kernel's error never
 * refuses the others) and its kernel is refused with the located message
 * and code. */
static void expect_error(const char *body, int code, const char *msg) {
  WmErr e;
  PtxModule *m = parse_kernel(body, &e);
  if (!m) fail_msg("the module was refused (%s), not the kernel: %s", e.msg, msg);
  memset(&e, 0, sizeof e);
  if (ptx_find_kernel(m, "k", &e)) fail_msg("expected an error: %s", msg);
  ptx_module_free(m);
  assert_string_equal(e.msg, msg);
  assert_int_equal(e.code, code);
}

/* An unsupported instruction in kernel k: the module loads, k is refused
 * with the located message. */
static void expect_unsupported(const char *body, const char *msg) {
  WmErr e;
  PtxModule *m = parse_kernel(body, &e);
  if (!m) fail_msg("unexpected module error: %s", e.msg);
  assert_non_null(m->kernels[0].unsupported);
  assert_string_equal(m->kernels[0].unsupported, msg);
  memset(&e, 0, sizeof e);
  assert_null(ptx_find_kernel(m, "k", &e));
  assert_int_equal(e.code, WM_EUNSUP);
  assert_string_equal(e.msg, msg);
  ptx_module_free(m);
}

static const PtxKernel *kernel(const PtxModule *m, const char *name) {
  WmErr e;
  const PtxKernel *k = ptx_find_kernel(m, name, &e);
  if (!k) fail_msg("%s", e.msg);
  return k;
}

/* Index of the n-th (0-based) instruction whose text is `text`, or -1. */
static int find_instr(const PtxModule *m, const PtxKernel *k, const char *text, int nth) {
  char buf[256];
  for (int i = 0; i < k->ncode; i++) {
    ptx_instr_text(m, &k->code[i], buf, sizeof buf);
    if (strcmp(buf, text) == 0 && nth-- == 0) return i;
  }
  return -1;
}

static int find_prefix(const PtxModule *m, const PtxKernel *k, const char *prefix) {
  char buf[256];
  for (int i = 0; i < k->ncode; i++) {
    ptx_instr_text(m, &k->code[i], buf, sizeof buf);
    if (strncmp(buf, prefix, strlen(prefix)) == 0) return i;
  }
  return -1;
}

static const char *reg_name(const PtxKernel *k, uint32_t slot) {
  assert_true(slot < k->nregs);
  return k->reg_names[slot];
}

/* ---------------------------------------------------------------- seed_kernels.ptx */

static void test_seed_module(void **state) {
  PtxModule *m = load_data("ptx/seed_kernels.ptx");
  assert_int_equal(m->nkernels, 26);
  assert_int_equal(m->version_major, 9);
  assert_int_equal(m->version_minor, 0);
  assert_string_equal(m->target, "sm_90");
  assert_int_equal(m->address_size, 64);
  assert_true(m->nfiles >= 2);
  const char *f = m->files[1];
  assert_non_null(f);
  assert_true(strlen(f) >= 15 && strcmp(f + strlen(f) - 15, "seed_kernels.cu") == 0);
  for (int i = 0; i < m->nkernels; i++) {
    const PtxKernel *k = &m->kernels[i];
    assert_true(k->ncode > 0);
    assert_int_equal(k->code[k->ncode - 1].op, PTX_OP_RET);
    for (uint32_t r = 0; r < k->nregs; r++) assert_non_null(k->reg_names[r]);
    for (int j = 0; j < k->ncode; j++) {
      const PtxInstr *in = &k->code[j];
      assert_true(in->nopd <= PTX_MAX_OPD);
      if (in->guard != PTX_NOREG) assert_true(in->guard < k->nregs);
      for (int o = 0; o < in->nopd; o++)
        if (in->opd[o].kind == PTX_O_REG) assert_true(in->opd[o].reg[0] < k->nregs);
    }
  }
  ptx_module_free(m);
}

static void test_seed_params_and_memory(void **state) {
  PtxModule *m = load_data("ptx/seed_kernels.ptx");
  const PtxKernel *k = kernel(m, "inc_case");
  assert_int_equal(k->nparams, 2);
  assert_int_equal(k->params[0].offset, 0);
  assert_int_equal(k->params[0].type, PTX_T_U64);
  assert_int_equal(k->params[0].is_ptr, 1);
  assert_int_equal(k->params[1].offset, 8);
  assert_int_equal(k->params[1].size, 4);
  assert_int_equal(k->params[1].is_ptr, 0);
  assert_int_equal(k->param_size, 16);
  assert_int_equal(k->shared_static, 0);
  assert_int_equal(k->shared_extern_align, 0);

  assert_int_equal(kernel(m, "f3_smem")->shared_static, 3072);
  assert_int_equal(kernel(m, "mm_s")->shared_static, 2048);
  assert_int_equal(kernel(m, "local_heap")->local_size, 40);

  /* dynamic shared: `mov.u32 %r8, t` names the extern array at offset 0 */
  k = kernel(m, "setRowReadColDyn");
  assert_int_equal(k->shared_static, 0);
  assert_int_equal(k->shared_extern_align, 16);
  int i = find_instr(m, k, "mov.u32 %r8, t", 0);
  assert_true(i >= 0);
  assert_int_equal(k->code[i].opd[1].kind, PTX_O_SYM);
  assert_int_equal(k->code[i].opd[1].space, PTX_S_SHARED);
  assert_int_equal(k->code[i].opd[1].imm, 0);

  /* local depot as a value */
  k = kernel(m, "local_heap");
  i = find_instr(m, k, "mov.u64 %SPL, __local_depot25", 0);
  assert_true(i >= 0);
  assert_int_equal(k->code[i].opd[1].kind, PTX_O_SYM);
  assert_int_equal(k->code[i].opd[1].space, PTX_S_LOCAL);
  assert_int_equal(k->code[i].opd[1].imm, 0);
  assert_string_equal(reg_name(k, k->code[i].opd[0].reg[0]), "%SPL");
  ptx_module_free(m);
}

static void test_seed_instructions(void **state) {
  PtxModule *m = load_data("ptx/seed_kernels.ptx");

  /* the first ld.global.f32 of f3_smem */
  const PtxKernel *k = kernel(m, "f3_smem");
  int i = find_prefix(m, k, "ld.global.f32");
  assert_true(i >= 0);
  const PtxInstr *in = &k->code[i];
  assert_int_equal(in->op, PTX_OP_LD);
  assert_int_equal(in->space, PTX_S_GLOBAL);
  assert_int_equal(in->type, PTX_T_F32);
  assert_int_equal(in->vec, 1);
  assert_int_equal(in->nopd, 2);
  assert_int_equal(in->opd[0].kind, PTX_O_REG);
  assert_int_equal(in->opd[1].kind, PTX_O_ADDR);
  assert_true(in->opd[1].reg[0] != PTX_NOREG);
  assert_int_equal(in->guard, PTX_NOREG);

  /* shared store with an offset */
  i = find_instr(m, k, "st.shared.f32 [%r8+1024], %f2", 0);
  assert_true(i >= 0);
  in = &k->code[i];
  assert_int_equal(in->op, PTX_OP_ST);
  assert_int_equal(in->space, PTX_S_SHARED);
  assert_int_equal(in->opd[0].kind, PTX_O_ADDR);
  assert_string_equal(reg_name(k, in->opd[0].reg[0]), "%r8");
  assert_int_equal(in->opd[0].imm, 1024);
  assert_string_equal(reg_name(k, in->opd[1].reg[0]), "%f2");

  /* st.local.v2.f32 [%rd1+8], {%f7, %f7} */
  k = kernel(m, "local_heap");
  i = find_instr(m, k, "st.local.v2.f32 [%rd1+8], {%f7, %f7}", 0);
  assert_true(i >= 0);
  in = &k->code[i];
  assert_int_equal(in->op, PTX_OP_ST);
  assert_int_equal(in->space, PTX_S_LOCAL);
  assert_int_equal(in->type, PTX_T_F32);
  assert_int_equal(in->vec, 2);
  assert_int_equal(in->opd[0].kind, PTX_O_ADDR);
  assert_string_equal(reg_name(k, in->opd[0].reg[0]), "%rd1");
  assert_int_equal(in->opd[0].imm, 8);
  assert_int_equal(in->opd[1].kind, PTX_O_VEC);
  assert_int_equal(in->opd[1].n, 2);
  assert_string_equal(reg_name(k, in->opd[1].reg[0]), "%f7");
  assert_int_equal(in->opd[1].reg[0], in->opd[1].reg[1]);
  assert_int_equal(in->ptx_line, 1459);
  assert_int_equal(in->ptx_col, 2);
  assert_int_equal(in->cu_file, 1);
  assert_int_equal(in->cu_line, 137);

  /* ld.local.v2.f32 {%f29, %f30}, [%rd1+8] */
  i = find_instr(m, k, "ld.local.v2.f32 {%f29, %f30}, [%rd1+8]", 0);
  assert_true(i >= 0);
  in = &k->code[i];
  assert_int_equal(in->opd[0].kind, PTX_O_VEC);
  assert_string_equal(reg_name(k, in->opd[0].reg[1]), "%f30");
  assert_int_equal(in->opd[1].imm, 8);

  /* inc_case: params, cvta, mul.wide, setp, bra, cu lines */
  k = kernel(m, "inc_case");
  in = &k->code[0];
  assert_int_equal(in->op, PTX_OP_LD);
  assert_int_equal(in->space, PTX_S_PARAM);
  assert_int_equal(in->opd[1].kind, PTX_O_ADDR);
  assert_int_equal(in->opd[1].reg[0], PTX_NOREG);
  assert_int_equal(in->opd[1].space, PTX_S_PARAM);
  assert_int_equal(in->opd[1].imm, 0);
  assert_int_equal(k->code[1].opd[1].imm, 8);
  assert_int_equal(in->cu_line, 11);
  assert_string_equal(ptx_cu_file(m, in) + strlen(ptx_cu_file(m, in)) - 15, "seed_kernels.cu");

  i = find_instr(m, k, "cvta.to.global.u64 %rd1, %rd3", 0);
  assert_true(i >= 0);
  assert_int_equal(k->code[i].op, PTX_OP_CVTA);
  assert_int_equal(k->code[i].space, PTX_S_GLOBAL);
  assert_int_equal(k->code[i].sub, PTX_SUB_TO);
  assert_int_equal(k->code[i].cu_line, 12);

  i = find_instr(m, k, "mov.u32 %r4, %ntid.x", 0);
  assert_int_equal(k->code[i].opd[1].kind, PTX_O_SREG);
  assert_int_equal(k->code[i].opd[1].sreg, PTX_SR_NTID_X);

  i = find_instr(m, k, "mul.wide.s32 %rd4, %r2, 4", 0);
  assert_true(i >= 0);
  in = &k->code[i];
  assert_int_equal(in->op, PTX_OP_MUL);
  assert_int_equal(in->sub, PTX_SUB_WIDE);
  assert_int_equal(in->type, PTX_T_S32);
  assert_int_equal(in->type2, PTX_T_S32);
  assert_int_equal(in->opd[2].kind, PTX_O_IMM);
  assert_int_equal(in->opd[2].imm, 4);
  assert_int_equal(in->cu_line, 14);

  i = find_instr(m, k, "mul.lo.s32 %r1, %r5, %r4", 0);
  assert_int_equal(k->code[i].sub, PTX_SUB_LO);

  i = find_instr(m, k, "setp.gt.s32 %p1, %r3, 1", 0);
  assert_true(i >= 0);
  in = &k->code[i];
  assert_int_equal(in->op, PTX_OP_SETP);
  assert_int_equal(in->cmp, PTX_CMP_GT);
  assert_int_equal(in->type, PTX_T_S32);
  assert_int_equal(in->nopd, 5);
  assert_int_equal(in->opd[0].kind, PTX_O_REG);
  assert_int_equal(in->opd[1].kind, PTX_O_NONE);
  assert_string_equal(reg_name(k, in->opd[2].reg[0]), "%r3");
  assert_int_equal(in->opd[3].imm, 1);
  assert_int_equal(in->opd[4].kind, PTX_O_NONE);
  assert_int_equal(in->sub, PTX_SUB_NONE);

  /* @%p1 bra $L__BB0_5: the target is the first instruction after the label */
  in = &k->code[i + 1];
  assert_int_equal(in->op, PTX_OP_BRA);
  assert_string_equal(reg_name(k, in->guard), "%p1");
  assert_int_equal(in->guard_neg, 0);
  assert_int_equal(in->ptx_line, 55);
  assert_int_equal(in->ptx_col, 2); /* the guard's column */
  assert_int_equal(in->opd[0].kind, PTX_O_LABEL);
  int target = (int)in->opd[0].imm;
  assert_int_equal(target, find_instr(m, k, "setp.eq.s32 %p2, %r3, 2", 0));
  assert_int_equal(k->code[target].ptx_line, 77);
  char buf[128];
  ptx_instr_text(m, in, buf, sizeof buf);
  assert_string_equal(buf, "@%p1 bra $L__BB0_5");

  i = find_instr(m, k, "bra.uni $L__BB0_14", 0);
  assert_true(k->code[i].flags & PTX_IF_UNI);
  assert_int_equal(k->code[i].opd[0].imm, k->ncode - 1); /* ret */

  i = find_instr(m, k, "add.f32 %f10, %f9, 0f3F800000", 0);
  assert_int_equal(k->code[i].opd[2].kind, PTX_O_IMM);
  assert_int_equal(k->code[i].opd[2].imm, 0x3F800000);

  i = find_instr(m, k, "cvt.rn.f32.s32 %f11, %r2", 0);
  assert_int_equal(k->code[i].op, PTX_OP_CVT);
  assert_int_equal(k->code[i].type, PTX_T_F32);
  assert_int_equal(k->code[i].type2, PTX_T_S32);
  assert_int_equal(k->code[i].rnd, PTX_RND_RN);

  /* mul.hi.s32 with a large immediate */
  k = kernel(m, "local_heap");
  i = find_prefix(m, k, "mul.hi.s32");
  assert_int_equal(k->code[i].sub, PTX_SUB_HI);
  assert_int_equal(k->code[i].opd[2].imm, 1717986919);
  i = find_prefix(m, k, "add.s32 %r30, %r65, -3");
  assert_int_equal(k->code[i].opd[2].imm, -3);
  ptx_module_free(m);
}

/* ---------------------------------------------------------------- parse_coverage.ptx */

static void test_coverage_parses(void **state) {
  PtxModule *m = load_data("parse_coverage.ptx");
  assert_int_equal(m->nkernels, 7);

  /* module variables and their initializers */
  assert_int_equal(m->nvars, 4);
  assert_string_equal(m->vars[0].name, "coeffs");
  assert_int_equal(m->vars[0].space, PTX_S_CONST);
  assert_int_equal(m->vars[0].size, 32);
  float f;
  memcpy(&f, m->const_init + m->vars[0].offset + 4, 4);
  assert_true(f == 0.5f);
  int32_t v;
  memcpy(&v, m->const_init + m->vars[1].offset + 4, 4);
  assert_int_equal(v, -3);
  assert_string_equal(m->vars[2].name, "dev_counter");
  assert_int_equal(m->vars[2].space, PTX_S_GLOBAL);
  memcpy(&v, m->global_init + m->vars[2].offset, 4);
  assert_int_equal(v, 5);
  assert_int_equal(m->vars[3].offset, 8);
  assert_int_equal(m->global_size, 136);

  /* plain names */
  const PtxKernel *k = kernel(m, "warp_ops");
  assert_string_equal(k->name, "_Z8warp_opsPKiPiPj");
  assert_ptr_equal(k, kernel(m, "_Z8warp_opsPKiPiPj"));

  /* shfl d|p, a, b, c, mask */
  int i = find_prefix(m, k, "shfl.sync.bfly.b32");
  const PtxInstr *in = &k->code[i];
  assert_int_equal(in->op, PTX_OP_SHFL);
  assert_int_equal(in->sub, PTX_SUB_BFLY);
  assert_int_equal(in->nopd, 6);
  assert_string_equal(reg_name(k, in->opd[0].reg[0]), "%r28");
  assert_string_equal(reg_name(k, in->opd[1].reg[0]), "%p8");
  assert_string_equal(reg_name(k, in->opd[2].reg[0]), "%r1");
  assert_string_equal(reg_name(k, in->opd[5].reg[0]), "%r12");
  /* inlined from a header: the user's line, and the header's position */
  assert_int_equal(in->cu_file, 1);
  assert_int_equal(in->cu_line, 18);
  assert_int_equal(in->cu_file_inner, 2);
  assert_int_equal(in->cu_line_inner, 409);
  assert_non_null(strstr(ptx_cu_file(m, in), "parse_coverage.cu"));

  i = find_prefix(m, k, "vote.sync.ballot.b32");
  in = &k->code[i];
  assert_int_equal(in->sub, PTX_SUB_BALLOT);
  assert_int_equal(in->nopd, 3);
  assert_string_equal(reg_name(k, in->opd[1].reg[0]), "%p10");
  assert_int_equal(in->opd[2].kind, PTX_O_REG);
  i = find_prefix(m, k, "vote.sync.all.pred");
  assert_int_equal(k->code[i].sub, PTX_SUB_ALL);
  assert_int_equal(k->code[i].type, PTX_T_PRED);
  i = find_prefix(m, k, "match.any.sync.b32");
  assert_int_equal(k->code[i].sub, PTX_SUB_ANY);
  assert_int_equal(k->code[i].opd[1].kind, PTX_O_NONE);
  assert_int_equal(k->code[i].nopd, 4);
  i = find_prefix(m, k, "redux.sync.add.s32");
  assert_int_equal(k->code[i].sub, PTX_SUB_AADD);
  assert_true(find_prefix(m, k, "activemask.b32 %r4") >= 0);

  k = kernel(m, "atomics");
  assert_int_equal(k->shared_static, 384);
  i = find_prefix(m, k, "atom.shared.cas.b32");
  in = &k->code[i];
  assert_int_equal(in->op, PTX_OP_ATOM);
  assert_int_equal(in->space, PTX_S_SHARED);
  assert_int_equal(in->sub, PTX_SUB_ACAS);
  assert_int_equal(in->nopd, 4);
  assert_int_equal(in->opd[1].kind, PTX_O_ADDR);
  i = find_prefix(m, k, "atom.shared.add.f32");
  assert_int_equal(k->code[i].opd[2].imm, 0x3F000000);
  i = find_prefix(m, k, "atom.global.inc.u32");
  assert_int_equal(k->code[i].sub, PTX_SUB_AINC);
  assert_int_equal(k->code[i].opd[2].imm, 100);
  i = find_prefix(m, k, "mov.u64 %rd25, dev_hist");
  assert_int_equal(k->code[i].opd[1].kind, PTX_O_SYM);
  assert_int_equal(k->code[i].opd[1].space, PTX_S_GLOBAL);
  assert_int_equal(k->code[i].opd[1].imm, 8);
  i = find_prefix(m, k, "mov.u32 %r12, _ZZ7atomicsPiPjPfPyiE3shf");
  assert_int_equal(k->code[i].opd[1].imm, 256);

  k = kernel(m, "doubles");
  i = find_prefix(m, k, "fma.rn.f64 %fd2");
  assert_int_equal(k->code[i].opd[2].imm, (int64_t)0x3FF8000000000000ll);
  i = find_prefix(m, k, "cvt.rzi.s64.f64");
  assert_int_equal(k->code[i].rnd, PTX_RND_RZI);

  k = kernel(m, "fmath");
  i = find_prefix(m, k, "ld.const.f32 %f54, [%rd9]");
  assert_int_equal(k->code[i].space, PTX_S_CONST);
  i = find_prefix(m, k, "rcp.approx.ftz.f32");
  assert_int_equal(k->code[i].rnd, PTX_RND_APPROX);
  assert_true(k->code[i].flags & PTX_IF_FTZ);
  i = find_prefix(m, k, "cvt.sat.f32.f32");
  assert_true(k->code[i].flags & PTX_IF_SAT);

  k = kernel(m, "switchy");
  i = find_prefix(m, k, "ld.const.f32 %f14, [coeffs+12]");
  assert_int_equal(k->code[i].opd[1].kind, PTX_O_ADDR);
  assert_int_equal(k->code[i].opd[1].reg[0], PTX_NOREG);
  assert_int_equal(k->code[i].opd[1].space, PTX_S_CONST);
  assert_int_equal(k->code[i].opd[1].imm, 12);

  /* struct by value: .param .align 8 .b8 p[16] */
  k = kernel(m, "bystruct");
  assert_int_equal(k->params[0].size, 16);
  assert_int_equal(k->params[0].align, 8);
  assert_int_equal(k->params[1].offset, 16);
  assert_int_equal(k->params[2].offset, 24);
  assert_int_equal(k->params[3].offset, 26);
  assert_int_equal(k->param_size, 32);
  assert_int_equal(k->shared_extern_align, 16);
  i = find_prefix(m, k, "ld.param.f64");
  assert_int_equal(k->code[i].opd[1].imm, 8);
  ptx_module_free(m);
}

static void test_find_kernel(void **state) {
  PtxModule *m = load_data("parse_coverage.ptx");
  WmErr e = {0};
  assert_null(ptx_find_kernel(m, "nosuch", &e));
  assert_int_equal(e.code, WM_EUSAGE);
  assert_non_null(strstr(e.msg, "no kernel 'nosuch'"));
  assert_non_null(strstr(e.msg, "warp_ops (_Z8warp_opsPKiPiPj)"));
  assert_non_null(strstr(e.msg, "bystruct"));
  ptx_module_free(m);

  /* the same plain name twice: ambiguous, the mangled names still work */
  WmErr e2;
  m = parse_text(".version 8.0\n.target sm_90\n.address_size 64\n"
                 ".entry _Z1fi(.param .u32 a) { ret; }\n"
                 ".entry _Z1ff(.param .f32 a) { ret; }\n"
                 ".entry _ZN2ns3barIiEEvPi(.param .u64 a) { ret; }\n", &e2);
  assert_non_null(m);
  assert_null(ptx_find_kernel(m, "f", &e2));
  assert_non_null(strstr(e2.msg, "ambiguous"));
  assert_non_null(ptx_find_kernel(m, "_Z1ff", &e2));
  assert_string_equal(kernel(m, "bar")->name, "_ZN2ns3barIiEEvPi");
  ptx_module_free(m);
}

/* ---------------------------------------------------------------- parse_more.ptx */

static const PtxInstr *instr_at(const PtxModule *m, const PtxKernel *k, const char *text) {
  int i = find_instr(m, k, text, 0);
  if (i < 0) fail_msg("no instruction '%s' in %s", text, k->name);
  return &k->code[i];
}

static void assert_reg(const PtxKernel *k, const PtxOperand *o, const char *name) {
  assert_int_equal(o->kind, PTX_O_REG);
  assert_string_equal(reg_name(k, o->reg[0]), name);
}

static void assert_imm(const PtxOperand *o, int64_t v) {
  assert_int_equal(o->kind, PTX_O_IMM);
  assert_int_equal(o->imm, v);
}

/* __funnelshift_l/r/lc/rc and rotates: shf */
static void test_more_shf(void **state) {
  PtxModule *m = load_data("parse_more.ptx");
  const PtxKernel *k = kernel(m, "funnel_more");
  static const struct { const char *text; int sub; uint32_t cu, inner; } rows[] = {
    {"shf.l.wrap.b32 %r1, %r2, %r3, %r4", PTX_SUB_SHF_L_WRAP, 10, 556},
    {"shf.r.wrap.b32 %r5, %r2, %r3, %r4", PTX_SUB_SHF_R_WRAP, 11, 570},
    {"shf.l.clamp.b32 %r9, %r2, %r3, %r12", PTX_SUB_SHF_L_CLAMP, 12, 562},
    {"shf.r.clamp.b32 %r13, %r2, %r3, %r4", PTX_SUB_SHF_R_CLAMP, 13, 576},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const PtxInstr *in = instr_at(m, k, rows[i].text);
    assert_int_equal(in->op, PTX_OP_SHF);
    assert_int_equal(in->type, PTX_T_B32);
    assert_int_equal(in->sub, rows[i].sub);
    assert_int_equal(in->nopd, 4);
    assert_string_equal(reg_name(k, in->opd[1].reg[0]), "%r2");
    assert_string_equal(reg_name(k, in->opd[2].reg[0]), "%r3");
    assert_int_equal(in->opd[3].kind, PTX_O_REG);
    /* inlined from sm_32_intrinsics.hpp: the kernel's line first */
    assert_int_equal(in->cu_file, 1);
    assert_int_equal(in->cu_line, rows[i].cu);
    assert_int_equal(in->cu_file_inner, 2);
    assert_int_equal(in->cu_line_inner, rows[i].inner);
  }
  const PtxInstr *in = instr_at(m, k, "shf.l.wrap.b32 %r23, %r2, %r2, 7"); /* (a << 7) | (a >> 25) */
  assert_int_equal(in->sub, PTX_SUB_SHF_L_WRAP);
  assert_reg(k, &in->opd[0], "%r23");
  assert_imm(&in->opd[3], 7);
  assert_int_equal(in->cu_line, 14);
  assert_int_equal(in->cu_line_inner, 14);
  in = instr_at(m, k, "shf.r.wrap.b32 %r25, %r2, %r2, %r24");
  assert_int_equal(in->sub, PTX_SUB_SHF_R_WRAP);
  ptx_module_free(m);

  /* immediates everywhere, c read as u32 */
  m = parse_kernel_ok("  shf.r.clamp.b32 %r1, 0xffffffff, -1, 40;\n");
  in = &m->kernels[0].code[0];
  assert_int_equal(in->sub, PTX_SUB_SHF_R_CLAMP);
  assert_imm(&in->opd[1], 4294967295);
  assert_imm(&in->opd[2], -1);
  assert_imm(&in->opd[3], 40);
  ptx_module_free(m);
  expect_error("  shf.l.b32 %r1, %r2, %r3, %r4;\n", WM_EPARSE,
               "t.ptx:11:3: 'shf.l.b32' needs .l or .r and .wrap or .clamp\n"
               "    shf.l.b32 %r1, %r2, %r3, %r4;\n"
               "    ^");
  expect_error("  shf.l.wrap.u32 %r1, %r2, %r3, %r4;\n", WM_EPARSE,
               "t.ptx:11:3: 'shf.l.wrap.u32': shf is .b32\n"
               "    shf.l.wrap.u32 %r1, %r2, %r3, %r4;\n"
               "    ^");
  expect_error("  shf.l.wrap.b32 %r1, %r2, %r3;\n", WM_EPARSE,
               "t.ptx:11:3: 'shf.l.wrap.b32' takes 4 operands, found 3\n"
               "    shf.l.wrap.b32 %r1, %r2, %r3;\n"
               "    ^");
  expect_unsupported("  shf.l.r.wrap.b32 %r1, %r2, %r3, %r4;\n",
                     "t.ptx:11:3: unsupported instruction 'shf.l.r.wrap.b32' (kernel k): unknown or "
                     "unsupported modifier '.r'\n"
                     "    shf.l.r.wrap.b32 %r1, %r2, %r3, %r4;\n"
                     "    ^");
}

/* __ffs (brev + bfind.shiftamt), inline-asm bfind */
static void test_more_bfind(void **state) {
  PtxModule *m = load_data("parse_more.ptx");
  const PtxKernel *k = kernel(m, "bits_more");
  static const struct { const char *text; int type, sub; const char *d, *a; } rows[] = {
    {"bfind.shiftamt.u32 %r9, %r8", PTX_T_U32, PTX_SUB_SHIFTAMT, "%r9", "%r8"},
    {"bfind.s32 %r1, %r2", PTX_T_S32, PTX_SUB_NONE, "%r1", "%r2"},
    {"bfind.shiftamt.u64 %r3, %rd1", PTX_T_U64, PTX_SUB_SHIFTAMT, "%r3", "%rd1"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const PtxInstr *in = instr_at(m, k, rows[i].text);
    assert_int_equal(in->op, PTX_OP_BFIND);
    assert_int_equal(in->type, rows[i].type);
    assert_int_equal(in->sub, rows[i].sub);
    assert_int_equal(in->nopd, 2);
    assert_reg(k, &in->opd[0], rows[i].d);
    assert_reg(k, &in->opd[1], rows[i].a);
  }
  ptx_module_free(m);

  m = parse_kernel_ok("  bfind.s64 %r1, -2;\n");
  assert_imm(&m->kernels[0].code[0].opd[1], -2);
  assert_int_equal(m->kernels[0].code[0].type, PTX_T_S64);
  ptx_module_free(m);
  expect_error("  bfind.b32 %r1, %r2;\n", WM_EPARSE,
               "t.ptx:11:3: 'bfind.b32': bfind is .u32, .u64, .s32 or .s64\n"
               "    bfind.b32 %r1, %r2;\n"
               "    ^");
  expect_error("  bfind.u32 %r1, %r2, %r3;\n", WM_EPARSE,
               "t.ptx:11:3: 'bfind.u32' takes 2 operands, found 3\n"
               "    bfind.u32 %r1, %r2, %r3;\n"
               "    ^");
}

/* __syncthreads_count/_and/_or: bar.red; barrier.red by hand */
static void test_more_bar_red(void **state) {
  PtxModule *m = load_data("parse_more.ptx");
  const PtxKernel *k = kernel(m, "barred_more");
  static const struct { const char *text; int sub, type; const char *d; } rows[] = {
    {"bar.red.popc.u32 %r7, 0, %p1", PTX_SUB_RED_POPC, PTX_T_U32, "%r7"},
    {"bar.red.and.pred %p2, 0, %p1", PTX_SUB_RED_AND, PTX_T_PRED, "%p2"},
    {"bar.red.or.pred %p2, 0, %p1", PTX_SUB_RED_OR, PTX_T_PRED, "%p2"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const PtxInstr *in = instr_at(m, k, rows[i].text);
    assert_int_equal(in->op, PTX_OP_BAR);
    assert_int_equal(in->sub, rows[i].sub);
    assert_int_equal(in->type, rows[i].type);
    assert_int_equal(in->nopd, 4);
    assert_reg(k, &in->opd[0], rows[i].d);
    assert_imm(&in->opd[1], 0);
    assert_int_equal(in->opd[2].kind, PTX_O_NONE);
    assert_reg(k, &in->opd[3], "%p1");
    assert_int_equal(in->opd[3].neg, 0);
    assert_int_equal(in->flags & PTX_IF_NEG_C, 0);
    assert_int_equal(in->cu_line, 38 + (uint32_t)i);
  }
  /* each block's %p1 is its own register */
  assert_int_not_equal(instr_at(m, k, rows[0].text)->opd[3].reg[0], instr_at(m, k, rows[1].text)->opd[3].reg[0]);
  ptx_module_free(m);

  m = parse_kernel_ok("  barrier.red.popc.aligned.u32 %r1, 1, 64, !%p1;\n"
                      "  barrier.cta.red.and.aligned.pred %p2, %r3, %p1;\n"
                      "  bar.cta.red.or.pred %p3, 2, %r4, 1;\n"
                      "  bar.sync 0;\n");
  k = &m->kernels[0];
  const PtxInstr *in = &k->code[0];
  assert_int_equal(in->op, PTX_OP_BARRIER);
  assert_int_equal(in->sub, PTX_SUB_RED_POPC);
  assert_int_equal(in->type, PTX_T_U32);
  assert_reg(k, &in->opd[0], "%r1");
  assert_imm(&in->opd[1], 1);
  assert_imm(&in->opd[2], 64);
  assert_reg(k, &in->opd[3], "%p1");
  assert_int_equal(in->opd[3].neg, 1);
  assert_true(in->flags & PTX_IF_NEG_C);
  in = &k->code[1];
  assert_int_equal(in->op, PTX_OP_BARRIER);
  assert_int_equal(in->sub, PTX_SUB_RED_AND);
  assert_int_equal(in->type, PTX_T_PRED);
  assert_reg(k, &in->opd[1], "%r3");
  assert_int_equal(in->opd[2].kind, PTX_O_NONE);
  in = &k->code[2];
  assert_int_equal(in->op, PTX_OP_BAR);
  assert_int_equal(in->sub, PTX_SUB_RED_OR);
  assert_reg(k, &in->opd[0], "%p3");
  assert_reg(k, &in->opd[2], "%r4");
  assert_imm(&in->opd[3], 1);
  in = &k->code[3]; /* the plain form is unchanged */
  assert_int_equal(in->sub, PTX_SUB_SYNC);
  assert_int_equal(in->nopd, 2);
  ptx_module_free(m);

  expect_error("  bar.red.u32 %r1, 0, %p1;\n", WM_EPARSE,
               "t.ptx:11:3: 'bar.red.u32' needs .popc, .and or .or\n"
               "    bar.red.u32 %r1, 0, %p1;\n"
               "    ^");
  expect_error("  bar.red.popc.pred %p2, 0, %p1;\n", WM_EPARSE,
               "t.ptx:11:3: 'bar.red.popc.pred': bar.red.popc is .u32, bar.red.and/.or are .pred\n"
               "    bar.red.popc.pred %p2, 0, %p1;\n"
               "    ^");
  expect_error("  bar.red.and.pred %p2, 0, %r1;\n", WM_EPARSE,
               "t.ptx:11:28: register '%r1' is not a predicate; expected a predicate\n"
               "    bar.red.and.pred %p2, 0, %r1;\n"
               "                             ^");
  expect_error("  bar.red.popc.u32 %r1, 0;\n", WM_EPARSE,
               "t.ptx:11:3: 'bar.red.popc.u32' takes 3 to 4 operands, found 2\n"
               "    bar.red.popc.u32 %r1, 0;\n"
               "    ^");
  expect_error("  bar.red.popc.u32 %r1, !%p1, %p2;\n", WM_EPARSE,
               "t.ptx:11:25: '!' is only allowed on the predicate operand of setp, set, vote and bar.red\n"
               "    bar.red.popc.u32 %r1, !%p1, %p2;\n"
               "                          ^");
}

/* a device function inlined inside another, both inlined into the kernel */
static void test_more_nested_inline(void **state) {
  PtxModule *m = load_data("parse_more.ptx");
  const PtxKernel *k = kernel(m, "nested_more");
  static const struct { const char *text; uint16_t fi; uint32_t li; } rows[] = {
    {"ld.global.nc.f32 %f1, [%rd1]", 2, 134}, /* __ldg in inner_load in outer_sum */
    {"ld.global.nc.f32 %f2, [%rd2]", 2, 134},
    {"add.f32 %f3, %f2, %f2", 1, 47},         /* inner_load's own line */
    {"fma.rn.f32 %f4, %f1, 0f40000000, %f3", 1, 52}, /* outer_sum's */
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const PtxInstr *in = instr_at(m, k, rows[i].text);
    assert_int_equal(in->cu_file, 1);
    assert_int_equal(in->cu_line, 57); /* out[i] = outer_sum(in, i); */
    assert_int_equal(in->cu_file_inner, rows[i].fi);
    assert_int_equal(in->cu_line_inner, rows[i].li);
  }
  const PtxInstr *in = instr_at(m, k, rows[0].text);
  assert_non_null(strstr(ptx_cu_file(m, in), "parse_more.cu"));
  ptx_module_free(m);
}

/* ---------------------------------------------------------------- synthetic PTX */

static void test_immediates(void **state) {
  PtxModule *m = parse_kernel_ok(
    "  mov.f32 %f1, 0f3F800000;\n"
    "  mov.s32 %r1, -1;\n"
    "  mov.u32 %r2, 0x10;\n"
    "  mov.u32 %r3, 1717986919;\n"
    "  mov.u32 %r4, 010;\n"
    "  mov.u32 %r5, 0b101;\n"
    "  mov.u32 %r6, 5U;\n"
    "  mov.f64 %fd1, 0f3F800000;\n"
    "  mov.f64 %fd2, 0d3FF0000000000000;\n"
    "  mov.f32 %f2, 1.5;\n"
    "  mov.f64 %fd3, -2.5e1;\n"
    "  mov.f32 %f3, -0f3F800000;\n"
    "  mov.u64 %rd1, 0xffffffffffffffff;\n"
    "  mov.u32 %r7, 0xffffffff;\n"
    "  add.f32 %f4, %f1, 2;\n"
    "  cvt.rn.f64.s32 %fd4, 7;\n"
    "  ret;\n");
  const PtxKernel *k = &m->kernels[0];
  int64_t want[] = {0x3F800000, -1, 16, 1717986919, 8, 5, 5, 0x3FF0000000000000ll, 0x3FF0000000000000ll,
                    0x3FC00000, (int64_t)0xC039000000000000ull, (int64_t)0xBF800000, -1, 0xffffffffll};
  for (int i = 0; i < (int)(sizeof want / sizeof *want); i++) {
    assert_int_equal(k->code[i].opd[1].kind, PTX_O_IMM);
    assert_int_equal(k->code[i].opd[1].imm, want[i]);
  }
  assert_int_equal(k->code[14].opd[2].imm, 0x40000000); /* 2 as f32 */
  assert_int_equal(k->code[15].opd[1].imm, 7);          /* cvt source is .s32 */
  ptx_module_free(m);
}

static void test_operand_forms(void **state) {
  PtxModule *m = parse_kernel_ok(
    "  ld.param.u64 %rd1, [k_p0];\n"                       /* 0 */
    "  ld.param.u32 %r1, [k_p1];\n"                        /* 1 */
    "  ld.global.f32 %f1, [%rd1+-8];\n"                    /* 2 */
    "  ld.global.f32 %f1, [%rd1-4];\n"                     /* 3 */
    "  ld.shared.u32 %r2, [1024];\n"                       /* 4 */
    "  ld.u32 %r3, [%rd1];\n"                              /* 5 */
    "  setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;\n"        /* 6 */
    "  setp.ge.or.f32 %p4, %f1, 0f00000000, %p1;\n"       /* 7 */
    "  @!%p1 st.global.v4.f32 [%rd1+16], {%f1, %f2, %f3, %f4};\n" /* 8 */
    "  ld.global.nc.v4.u32 {%r1, _, %r3, _}, [%rd1];\n"   /* 9 */
    "  ld.volatile.shared.u32 %r4, [%r1];\n"              /* 10 */
    "  ld.relaxed.gpu.global.u32 %r4, [%rd1];\n"          /* 11 */
    "  st.global.cs.u32 [%rd1], 7;\n"                     /* 12 */
    "  atom.relaxed.gpu.global.add.u32 %r5, [%rd1], 1;\n" /* 13 */
    "  red.global.add.u32 [%rd1+4], %r5;\n"               /* 14 */
    "  atom.add.u32 %r5, [%rd1], %r6;\n"                  /* 15 */
    "  cvta.shared.u64 %rd2, %rd1;\n"                     /* 16 */
    "  mad.wide.u32 %rd3, %r1, %r2, %rd2;\n"              /* 17 */
    "  vote.ballot.b32 %r7, %p1;\n"                       /* 18 */
    "  vote.sync.any.pred %p5, !%p1, -1;\n"               /* 19 */
    "  bar.sync 1, 64;\n"                                 /* 20 */
    "  barrier.sync.aligned 0;\n"                         /* 21 */
    "  bar.arrive %r1, %r2;\n"                            /* 22 */
    "  bar.warp.sync -1;\n"                               /* 23 */
    "  membar.gl;\n"                                      /* 24 */
    "  fence.acq_rel.gpu;\n"                              /* 25 */
    "  testp.finite.f32 %p6, %f1;\n"                      /* 26 */
    "  slct.f32.s32 %f5, %f1, %f2, %r1;\n"                /* 27 */
    "  set.lt.u32.f32 %r8, %f1, %f2;\n"                   /* 28 */
    "  prmt.b32 %r9, %r1, %r2, 0x5410;\n"                 /* 29 */
    "  lop3.b32 %r9, %r1, %r2, %r3, 0x96;\n"              /* 30 */
    "  bfe.u32 %r10, %r1, 4, 8;\n"                        /* 31 */
    "  bfi.b32 %r10, %r1, %r2, 4, 8;\n"                   /* 32 */
    "  shfl.up.b32 %r11, %r1, 1, 0;\n"                    /* 33 */
    "  match.all.sync.b32 %r12|%p7, %r1, -1;\n"           /* 34 */
    "  cvt.rni.f32.f32 %f6, %f1;\n"                       /* 35 */
    "  div.full.f32 %f7, %f1, %f2;\n"                     /* 36 */
    "  sqrt.approx.ftz.f32 %f8, %f1;\n"                   /* 37 */
    "  mov.b64 %rd4, {%r1, %r2};\n"                       /* 38 */
    "  mov.b64 {%r1, %r2}, %fd1;\n"                       /* 39 */
    "  and.pred %p1, %p2, %p3;\n"                         /* 40 */
    "  cvta.to.shared.u64 %rd5, %rd2;\n"                  /* 41 */
    "  mov.u64 %rd6, k_p1;\n"                             /* 42 */
    "  shl.b64 %rd7, %rd1, 3;\n"                          /* 43 */
    "  exit;\n"                                           /* 44 */
    "  trap;\n");
  const PtxKernel *k = &m->kernels[0];
  const PtxInstr *c = k->code;
  assert_int_equal(k->param_size, 16);
  assert_int_equal(c[1].opd[1].imm, 8);
  assert_int_equal(c[2].opd[1].imm, -8);
  assert_int_equal(c[3].opd[1].imm, -4);
  assert_int_equal(c[4].opd[1].reg[0], PTX_NOREG);
  assert_int_equal(c[4].opd[1].space, PTX_S_NONE);
  assert_int_equal(c[4].opd[1].imm, 1024);
  assert_int_equal(c[5].space, PTX_S_GENERIC);

  assert_int_equal(c[6].sub, PTX_SUB_BAND);
  assert_int_equal(c[6].cmp, PTX_CMP_LT);
  assert_string_equal(reg_name(k, c[6].opd[0].reg[0]), "%p1");
  assert_string_equal(reg_name(k, c[6].opd[1].reg[0]), "%p2");
  assert_string_equal(reg_name(k, c[6].opd[2].reg[0]), "%r1");
  assert_string_equal(reg_name(k, c[6].opd[4].reg[0]), "%p3");
  assert_int_equal(c[6].opd[4].neg, 1);
  assert_true(c[6].flags & PTX_IF_NEG_C);
  assert_int_equal(c[7].sub, PTX_SUB_BOR);
  assert_int_equal(c[7].opd[1].kind, PTX_O_NONE);
  assert_int_equal(c[7].opd[4].neg, 0);

  assert_int_equal(c[8].guard_neg, 1);
  assert_int_equal(c[8].vec, 4);
  assert_int_equal(c[8].opd[1].n, 4);
  assert_int_equal(c[8].ptx_col, 3);
  assert_int_equal(c[9].opd[0].reg[1], PTX_NOREG);
  assert_true(c[9].flags & PTX_IF_NC);
  assert_true(c[10].flags & PTX_IF_VOLATILE);
  assert_true(c[11].flags & PTX_IF_VOLATILE);
  assert_true(c[12].flags & PTX_IF_CS);
  assert_int_equal(c[12].opd[1].kind, PTX_O_IMM);
  assert_int_equal(c[13].sub, PTX_SUB_AADD);
  assert_int_equal(c[13].space, PTX_S_GLOBAL);
  assert_int_equal(c[14].op, PTX_OP_RED);
  assert_int_equal(c[14].opd[0].kind, PTX_O_ADDR);
  assert_int_equal(c[14].opd[0].imm, 4);
  assert_int_equal(c[15].space, PTX_S_GENERIC);
  assert_int_equal(c[16].space, PTX_S_SHARED);
  assert_int_equal(c[16].sub, PTX_SUB_NONE);
  assert_int_equal(c[17].sub, PTX_SUB_WIDE);
  assert_int_equal(c[17].nopd, 4);
  assert_int_equal(c[18].opd[2].kind, PTX_O_NONE);
  assert_int_equal(c[19].opd[1].neg, 1);
  assert_int_equal(c[19].opd[2].imm, -1);
  assert_int_equal(c[20].sub, PTX_SUB_SYNC);
  assert_int_equal(c[20].opd[0].imm, 1);
  assert_int_equal(c[20].opd[1].imm, 64);
  assert_int_equal(c[21].op, PTX_OP_BARRIER);
  assert_int_equal(c[21].opd[1].kind, PTX_O_NONE);
  assert_int_equal(c[22].sub, PTX_SUB_ARRIVE);
  assert_int_equal(c[22].opd[1].kind, PTX_O_REG);
  assert_int_equal(c[23].op, PTX_OP_BARWARP);
  assert_int_equal(c[24].op, PTX_OP_MEMBAR);
  assert_int_equal(c[25].op, PTX_OP_FENCE);
  assert_int_equal(c[26].sub, PTX_SUB_FINITE);
  assert_int_equal(c[27].type, PTX_T_F32);
  assert_int_equal(c[27].type2, PTX_T_S32);
  assert_int_equal(c[28].type, PTX_T_U32);
  assert_int_equal(c[28].type2, PTX_T_F32);
  assert_int_equal(c[29].opd[3].imm, 0x5410);
  assert_int_equal(c[30].nopd, 5);
  assert_int_equal(c[30].opd[4].imm, 0x96);
  assert_int_equal(c[32].nopd, 5);
  assert_int_equal(c[33].sub, PTX_SUB_UP);
  assert_int_equal(c[33].opd[1].kind, PTX_O_NONE);
  assert_int_equal(c[33].opd[5].kind, PTX_O_NONE);
  assert_int_equal(c[34].sub, PTX_SUB_ALL);
  assert_string_equal(reg_name(k, c[34].opd[1].reg[0]), "%p7");
  assert_int_equal(c[35].rnd, PTX_RND_RNI);
  assert_int_equal(c[36].rnd, PTX_RND_FULL);
  assert_int_equal(c[37].rnd, PTX_RND_APPROX);
  assert_int_equal(c[38].opd[1].kind, PTX_O_VEC);
  assert_int_equal(c[39].opd[0].kind, PTX_O_VEC);
  assert_int_equal(c[40].type, PTX_T_PRED);
  assert_int_equal(c[41].sub, PTX_SUB_TO);
  assert_int_equal(c[42].opd[1].kind, PTX_O_SYM);
  assert_int_equal(c[42].opd[1].space, PTX_S_PARAM);
  assert_int_equal(c[42].opd[1].imm, 8);
  assert_int_equal(c[43].opd[2].imm, 3);
  assert_int_equal(c[44].op, PTX_OP_EXIT);
  assert_int_equal(c[45].op, PTX_OP_TRAP);
  ptx_module_free(m);
}

static void test_memory_layout(void **state) {
  WmErr e;
  PtxModule *m = parse_text(
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".shared .align 4 .b8 mod_sh[100];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".global .align 4 .u32 g1 = 5;\n"
    ".global .align 8 .b8 g2[10] = {1, 2, 3};\n"
    ".const .align 4 .f32 c1[3] = {1.0, 0f40000000, 3};\n"
    ".const .align 8 .f64 c2 = 0f3F800000;\n"
    ".entry k(.param .u32 a, .param .align 8 .b8 s[12], .param .u64 .ptr .global .align 16 p)\n"
    ".maxntid 128, 1, 1\n"
    ".minnctapersm 2\n"
    "{\n"
    "  .shared .align 8 .b8 own[24];\n"
    "  .local .align 4 .b8 __local_depot0[20];\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, mod_sh;\n"
    "  mov.u32 %r2, own;\n"
    "  mov.u32 %r3, dyn;\n"
    "  ld.shared.u32 %r0, [dyn+4];\n"
    "  ld.const.f32 %r0, [c1+8];\n"
    "  ld.global.u32 %r0, [g2];\n"
    "  ret;\n"
    "}\n", &e);
  if (!m) fail_msg("%s", e.msg);
  const PtxKernel *k = &m->kernels[0];
  assert_int_equal(k->params[1].offset, 8);
  assert_int_equal(k->params[2].offset, 32);
  assert_int_equal(k->params[2].is_ptr, 1);
  assert_int_equal(k->param_size, 48);
  assert_int_equal(k->maxntid[0], 128);
  assert_int_equal(k->maxntid[1], 1);
  assert_int_equal(k->shared_static, 128); /* 100 module bytes, then own at 104 */
  assert_int_equal(k->shared_extern_align, 16);
  assert_int_equal(k->local_size, 20);
  assert_int_equal(k->code[0].opd[1].imm, 0);
  assert_int_equal(k->code[1].opd[1].imm, 104);
  assert_int_equal(k->code[2].opd[1].imm, 128);
  assert_int_equal(k->code[3].opd[1].imm, 132);
  assert_int_equal(k->code[4].opd[1].imm, 8);
  assert_int_equal(k->code[5].opd[1].space, PTX_S_GLOBAL);
  assert_int_equal(k->code[5].opd[1].imm, 8);

  assert_int_equal(m->global_size, 18);
  assert_int_equal(m->global_init[0], 5);
  assert_int_equal(m->global_init[8], 1);
  assert_int_equal(m->global_init[10], 3);
  assert_int_equal(m->global_init[11], 0);
  assert_int_equal(m->const_size, 24);
  float f[3];
  memcpy(f, m->const_init, sizeof f);
  assert_true(f[0] == 1.0f && f[1] == 2.0f && f[2] == 3.0f);
  double d;
  memcpy(&d, m->const_init + 16, 8);
  assert_true(d == 1.0);
  ptx_module_free(m);
}

static void test_scopes_and_text(void **state) {
  /* inline-asm style block with its own registers; a register used before
   * another gets the lower slot */
  PtxModule *m = parse_kernel_ok(
    "  {\n"
    "  .reg .pred p;\n"
    "  .reg .b32 %r<2>;\n"
    "  setp.ne.b32 p, %r1, 0;\n"
    "  @p   add.s32    %r0,%r1,  1;\n"
    "  }\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  ret;\n");
  const PtxKernel *k = &m->kernels[0];
  assert_int_equal(k->ncode, 4);
  assert_string_equal(reg_name(k, k->code[0].opd[0].reg[0]), "p");
  /* %r1 inside the block shadows the outer %r1 */
  assert_true(k->code[0].opd[2].reg[0] != k->code[2].opd[0].reg[0]);
  assert_string_equal(reg_name(k, k->code[2].opd[0].reg[0]), "%r1");
  char buf[64];
  ptx_instr_text(m, &k->code[1], buf, sizeof buf);
  assert_string_equal(buf, "@p add.s32 %r0,%r1, 1");
  ptx_instr_text(m, &k->code[1], buf, 8);
  assert_string_equal(buf, "@p add.");
  ptx_module_free(m);
}

/* Labels are scoped to their { } block as registers are: the wait loop of
 * an inline asm that the compiler copies into many places (fast.cu's
 * `LAB_WAIT: mbarrier.try_wait ...; @P1 bra DONE; bra LAB_WAIT; DONE:`)
 * defines its labels once per copy, and each copy's branches go to its own. */
static void test_scoped_labels(void **state) {
  PtxModule *m = parse_kernel_ok(
    "  {\n"                             /* 11 */
    "  .reg .pred P1;\n"
    "WAIT:\n"
    "  setp.ne.b32 P1, %r1, 0;\n"       /* 0 */
    "  @P1 bra.uni DONE;\n"             /* 1 -> 3 */
    "  bra.uni WAIT;\n"                 /* 2 -> 0 */
    "DONE:\n"
    "  }\n"
    "  {\n"
    "  .reg .pred P1;\n"
    "WAIT:\n"
    "  setp.ne.b32 P1, %r2, 0;\n"       /* 3 */
    "  @P1 bra.uni DONE;\n"             /* 4 -> 7: this block's DONE */
    "  { bra.uni WAIT; }\n"             /* 5 -> 3: the enclosing block's WAIT */
    "  bra.uni OUT;\n"                  /* 6 -> 8: the kernel's label, defined later */
    "DONE:\n"
    "  add.s32 %r3, %r3, 1;\n"          /* 7 */
    "  }\n"
    "OUT:\n"
    "  ret;\n");                        /* 8 */
  const PtxKernel *k = &m->kernels[0];
  assert_int_equal(k->ncode, 9);
  const int target[][2] = {{1, 3}, {2, 0}, {4, 7}, {5, 3}, {6, 8}};
  for (size_t i = 0; i < sizeof target / sizeof target[0]; i++) {
    assert_int_equal(k->code[target[i][0]].op, PTX_OP_BRA);
    assert_int_equal(k->code[target[i][0]].opd[0].imm, target[i][1]);
  }
  /* the two P1 are different registers */
  assert_true(k->code[0].opd[0].reg[0] != k->code[3].opd[0].reg[0]);
  ptx_module_free(m);
  /* twice in one block is still an error, and refuses only that kernel */
  expect_error("  { L: add.s32 %r1, %r1, 1;\n  L: ret; }\n", WM_EPARSE,
               "t.ptx:12:3: label 'L' defined twice\n"
               "    L: ret; }\n"
               "    ^");
  /* a label of a block that has ended is out of scope */
  expect_error("  { L: add.s32 %r1, %r1, 1; }\n  bra L;\n", WM_EPARSE,
               "t.ptx:12:7: unknown label 'L'\n"
               "    bra L;\n"
               "        ^");
  /* variables too: a .shared of each inline-asm copy */
  m = parse_kernel_ok("  { .shared .b32 s; st.shared.b32 [s], %r1; }\n"
                      "  { .shared .b32 s; st.shared.b32 [s], %r2; }\n  ret;\n");
  assert_int_equal(m->kernels[0].shared_static, 8);
  assert_true(m->kernels[0].code[0].opd[0].imm != m->kernels[0].code[1].opd[0].imm);
  ptx_module_free(m);
}

/* Each kernel's shared memory holds the module-scope variables that it or
 * a function it calls names, as ptxas lays it out (fast.cu's module of 12
 * GEMMs declares a 32 KiB one for one kernel; counted for all, the others
 * went over the 227 KiB limit): then its own, then the dynamic array. */
static void test_shared_per_kernel(void **state) {
  (void)state;
  WmErr e = {0};
  PtxModule *m = parse_text(
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".shared .align 128 .b8 only_a[32768];\n"
    ".shared .align 4 .b8 in_f[64];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".func f()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, in_f;\n  st.shared.u32 [dyn+8], %r1;\n  ret;\n}\n"
    ".entry a()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, only_a;\n  st.shared.u32 [only_a+4], %r1;\n  ret;\n}\n"
    ".entry b()\n{\n  .shared .align 8 .b8 own[24];\n  .reg .b32 %r<2>;\n  mov.u32 %r1, own;\n"
    "  st.shared.u32 [dyn], %r1;\n  call f, ();\n  ret;\n}\n"
    ".entry c()\n{\n  ret;\n}\n", &e);
  if (!m) fail_msg("%s", e.msg);
  const PtxKernel *a = kernel(m, "a"), *b = kernel(m, "b"), *c = kernel(m, "c");
  assert_int_equal(a->shared_static, 32768); /* only_a alone */
  assert_int_equal(a->code[0].opd[1].imm, 0);
  assert_int_equal(a->code[1].opd[0].imm, 4);
  /* b: in_f (through f) at 0, own at 64, dyn at 96 (88 rounded to 16) */
  assert_int_equal(b->shared_static, 88);
  assert_int_equal(b->code[0].opd[1].imm, 64);
  assert_int_equal(b->code[1].opd[0].imm, 96);
  const PtxFn *f = &b->fn[1];
  assert_int_equal(b->code[f->start].opd[1].imm, 0);
  assert_int_equal(b->code[f->start + 1].opd[0].imm, 96 + 8);
  assert_int_equal(c->shared_static, 0);
  ptx_module_free(m);
}

/* One kernel's (or device function's) malformed body refuses only the
 * kernels it touches: the others of the module run. */
static void test_refuse_one_kernel(void **state) {
  WmErr e;
  PtxModule *m = parse_text(".version 8.0\n.target sm_90a\n"
                            ".func (.param .b32 rv) bad_fn() { .reg .b32 %r<2>; mov.b32 %r1, 1 2; ret; }\n"
                            ".entry uses_bad() { .reg .b32 %r1; { .param .b32 rv0; call.uni (rv0), bad_fn, (); "
                            "ld.param.b32 %r1, [rv0]; } ret; }\n"
                            ".entry fine() { ret; }\n"
                            ".entry broken() { L: ret; L: ret; }\n"
                            ".entry fine2() { ret; }\n", &e);
  assert_non_null(m);
  assert_non_null(ptx_find_kernel(m, "fine", &e));
  assert_non_null(ptx_find_kernel(m, "fine2", &e));
  assert_null(ptx_find_kernel(m, "broken", &e));
  assert_int_equal(e.code, WM_EPARSE);
  assert_non_null(strstr(e.msg, "t.ptx:6:"));
  assert_non_null(strstr(e.msg, "label 'L' defined twice"));
  assert_null(ptx_find_kernel(m, "uses_bad", &e));
  assert_non_null(strstr(e.msg, "t.ptx:3:"));
  ptx_module_free(m);
  /* PTX for a GPU newer than Hopper loads; each kernel is refused at its .target */
  m = parse_text(".version 8.7\n.target sm_100a\n.address_size 64\n.entry k() { ret; }\n", &e);
  assert_non_null(m);
  assert_null(ptx_find_kernel(m, "k", &e));
  assert_int_equal(e.code, WM_EUNSUP);
  assert_non_null(strstr(e.msg, "t.ptx:2:9: PTX for sm_100a (.target): warpmem runs PTX for sm_90"));
  ptx_module_free(m);
  /* a body that never closes still fails the module, located */
  assert_null(parse_text(".version 8.0\n.entry a() { ret;\n", &e));
  assert_int_equal(e.code, WM_EPARSE);
}

static void test_implicit_ret(void **state) {
  /* a label just before '}' and a kernel without ret: both end in a ret
   * located at the closing brace */
  PtxModule *m = parse_kernel_ok("  @%p1 bra $L9;\n  ret;\n$L9:\n");
  const PtxKernel *k = &m->kernels[0];
  assert_int_equal(k->ncode, 3);
  assert_int_equal(k->code[0].opd[0].imm, 2);
  assert_int_equal(k->code[2].op, PTX_OP_RET);
  assert_int_equal(k->code[2].ptx_line, 14);
  assert_int_equal(k->code[2].ptx_col, 1);
  char buf[64];
  ptx_instr_text(m, &k->code[2], buf, sizeof buf);
  assert_string_equal(buf, "ret (end of kernel)");
  ptx_module_free(m);

  WmErr e;
  m = parse_text(".version 8.0\n.target sm_90\n.entry a() { }\n.entry b() { exit; }\n", &e);
  assert_non_null(m);
  assert_int_equal(m->kernels[0].ncode, 1);
  assert_int_equal(m->kernels[0].code[0].op, PTX_OP_RET);
  assert_int_equal(m->kernels[1].ncode, 1);
  ptx_module_free(m);
}

static void test_limits(void **state) {
  WmErr e;
  assert_null(parse_text(".version 8.0\n.target sm_90\n.const .b8 big[70000];\n", &e));
  assert_int_equal(e.code, WM_ELIMIT);
  assert_string_equal(e.msg, "t.ptx:3:12: .const variables exceed 64 KiB\n  .const .b8 big[70000];\n             ^");
  PtxModule *m = parse_text(".version 8.0\n.target sm_90\n.entry k() { .reg .b32 %a<1000000>, %b<1000000>, %c<1000000>, %d<1000000>, %e<1000000>; }\n", &e);
  assert_non_null(m); /* the kernel is refused, not the module */
  assert_null(ptx_find_kernel(m, "k", &e));
  assert_int_equal(e.code, WM_EPARSE);
  assert_non_null(strstr(e.msg, "too many registers declared in kernel k"));
  ptx_module_free(m);
}

/* ---------------------------------------------------------------- errors */

static void test_error_undeclared_register(void **state) {
  expect_error("  add.s32 %r1, %r1, %q7;\n",
               WM_EPARSE,
               "t.ptx:11:21: undeclared register '%q7'\n"
               "    add.s32 %r1, %r1, %q7;\n"
               "                      ^");
  /* beyond the declared range */
  expect_error("  add.s32 %r1, %r20, 1;\n", WM_EPARSE,
               "t.ptx:11:16: undeclared register '%r20'\n"
               "    add.s32 %r1, %r20, 1;\n"
               "                 ^");
}

static void test_error_unknown_label(void **state) {
  expect_error("  bra.uni $L__BB0_2;\n$L__BB0_2:\n  @%p1 bra $L__nope;\n  ret;\n",
               WM_EPARSE,
               "t.ptx:13:12: unknown label '$L__nope'\n"
               "    @%p1 bra $L__nope;\n"
               "             ^");
  expect_error("$L1:\n  ret;\n$L1:\n  ret;\n", WM_EPARSE,
               "t.ptx:13:1: label '$L1' defined twice\n"
               "  $L1:\n"
               "  ^");
}

static void test_error_missing_semicolon(void **state) {
  expect_error("  add.s32 %r1, %r1, 1\n  ret;\n",
               WM_EPARSE,
               "t.ptx:11:22: expected ';'\n"
               "    add.s32 %r1, %r1, 1\n"
               "                       ^");
  expect_error("  add.s32 %r1, %r1 %r2;\n", WM_EPARSE,
               "t.ptx:11:20: expected ';' before '%r2'\n"
               "    add.s32 %r1, %r1 %r2;\n"
               "                     ^");
}

static void test_error_bad_operand(void **state) {
  expect_error("  add.s32 %r1, [%rd1], 1;\n", WM_EPARSE,
               "t.ptx:11:16: bad operand: expected a source operand\n"
               "    add.s32 %r1, [%rd1], 1;\n"
               "                 ^");
  expect_error("  ld.global.f32 %f1, %rd1;\n", WM_EPARSE,
               "t.ptx:11:22: bad operand: expected an address [...]\n"
               "    ld.global.f32 %f1, %rd1;\n"
               "                       ^");
  expect_error("  mov.u32 %r1, 0x;\n", WM_EPARSE,
               "t.ptx:11:16: malformed number '0x'\n"
               "    mov.u32 %r1, 0x;\n"
               "                 ^");
  expect_error("  mov.u32 %r1, nosuchvar;\n", WM_EPARSE,
               "t.ptx:11:16: undeclared identifier 'nosuchvar'\n"
               "    mov.u32 %r1, nosuchvar;\n"
               "                 ^");
  expect_error("  ld.global.v2.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n", WM_EPARSE,
               "t.ptx:11:20: vector operand has 4 elements, instruction is .v2\n"
               "    ld.global.v2.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n"
               "                     ^");
  expect_error("  mov.u32 %r1, 1.5;\n", WM_EPARSE,
               "t.ptx:11:16: float constant where .u32 integer expected\n"
               "    mov.u32 %r1, 1.5;\n"
               "                 ^");
}

static void test_error_operand_count(void **state) {
  expect_error("  add.s32 %r1, %r2;\n", WM_EPARSE,
               "t.ptx:11:3: 'add.s32' takes 3 operands, found 2\n"
               "    add.s32 %r1, %r2;\n"
               "    ^");
  expect_error("  @%p1 fma.rn.f32 %f1, %f2, %f3;\n", WM_EPARSE,
               "t.ptx:11:8: 'fma.rn.f32' takes 4 operands, found 3\n"
               "    @%p1 fma.rn.f32 %f1, %f2, %f3;\n"
               "         ^");
  expect_error("  ret %r1;\n", WM_EPARSE,
               "t.ptx:11:3: 'ret' takes 0 operands, found 1\n"
               "    ret %r1;\n"
               "    ^");
}

static void test_error_register_kind(void **state) {
  expect_error("  @%r1 bra $L1;\n$L1:\n  ret;\n", WM_EPARSE,
               "t.ptx:11:4: guard '%r1' is not a predicate register\n"
               "    @%r1 bra $L1;\n"
               "     ^");
  expect_error("  setp.eq.s32 %r1, %r2, 0;\n", WM_EPARSE,
               "t.ptx:11:15: register '%r1' is not a predicate; expected a destination predicate\n"
               "    setp.eq.s32 %r1, %r2, 0;\n"
               "                ^");
  expect_error("  add.s32 %r1, %p1, 1;\n", WM_EPARSE,
               "t.ptx:11:16: register '%p1' is a predicate; expected a source operand\n"
               "    add.s32 %r1, %p1, 1;\n"
               "                 ^");
  expect_error("  ld.global.f32 %f1, [%f2];\n", WM_EPARSE,
               "t.ptx:11:23: floating-point register '%f2' used as an address\n"
               "    ld.global.f32 %f1, [%f2];\n"
               "                        ^");
}

/* A constant in a destination vector is an error; in a source one it is
 * kept in vimm/imm (two different constants: unsupported). */
static void test_vector_constants(void **state) {
  (void)state;
  expect_error("  mov.b32 {%r1, 0}, %r2;\n", WM_EPARSE,
               "t.ptx:11:11: a constant in a destination vector\n"
               "    mov.b32 {%r1, 0}, %r2;\n"
               "            ^");
  expect_error("  min.xorsign.f16 %rs1, %rs2, %rs3;\n", WM_EPARSE,
               "t.ptx:11:3: 'min.xorsign.f16': .xorsign and .abs go together (.xorsign.abs)\n"
               "    min.xorsign.f16 %rs1, %rs2, %rs3;\n"
               "    ^");
  expect_unsupported("  mov.b64 %rd1, {1, 2};\n",
                     "t.ptx:11:21: different constants in one vector operand are not supported\n"
                     "    mov.b64 %rd1, {1, 2};\n"
                     "                      ^");
}

static void test_error_unsupported(void **state) {
  expect_unsupported("  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];\n",
                     "t.ptx:11:3: unsupported instruction 'tex.2d.v4.f32.f32' (kernel k): 'tex0' is not a texture "
                     "object in a register; legacy texture and surface references (.texref, .surfref) were "
                     "removed in CUDA 12: pass a cudaTextureObject_t or cudaSurfaceObject_t argument instead\n"
                     "    tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];\n"
                     "    ^");
  /* calls whose operands are not the call sequence's .param variables */
  expect_unsupported("  call.uni (retval0), vprintf, (param0, param1);\n",
                     "t.ptx:11:13: unsupported call (kernel k): operand 'retval0' is not a .param variable of "
                     "the call sequence; warpmem runs calls whose arguments and results are .param variables, "
                     "as nvcc writes them\n"
                     "    call.uni (retval0), vprintf, (param0, param1);\n"
                     "              ^");
  expect_unsupported("  call (%r2), %rd1, (%r1), proto;\n",
                     "t.ptx:11:9: unsupported call (kernel k): operand '%r2' is not a .param variable of the "
                     "call sequence; warpmem runs calls whose arguments and results are .param variables, as "
                     "nvcc writes them\n"
                     "    call (%r2), %rd1, (%r1), proto;\n"
                     "          ^");
  /* a function must be declared before it is called */
  expect_error("  call.uni helper, (%r1);\n", WM_EPARSE,
               "t.ptx:11:12: call of undeclared function 'helper'\n"
               "    call.uni helper, (%r1);\n"
               "             ^");
  expect_unsupported("  @%p1 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [%r1], "
                     "[%rd1, {%r1, %r1, %r1, %r1, %r1}], [%r1];\n",
                     "t.ptx:11:8: unsupported instruction 'cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::"
                     "complete_tx::bytes' (kernel k): '.tile::gather4' is an sm_100 (Blackwell) form; warpmem runs the "
                     "sm_90 TMA modes (.tile, .im2col, .im2col_no_offs, .multicast::cluster)\n"
                     "    @%p1 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [%r1], "
                     "[%rd1, {%r1, %r1, %r1, %r1, %r1}], [%r1];\n"
                     "         ^");
  expect_unsupported("  min.relu.s32 %r1, %r2, %r3;\n",
                     "t.ptx:11:3: unsupported instruction 'min.relu.s32' (kernel k): unknown or unsupported "
                     "modifier '.relu'\n"
                     "    min.relu.s32 %r1, %r2, %r3;\n"
                     "    ^");
  expect_unsupported("  mov.u32 %r1, %tid.w;\n",
                     "t.ptx:11:16: unsupported special register '%tid.w'\n"
                     "    mov.u32 %r1, %tid.w;\n"
                     "                 ^");
  /* found after the ';' (an immediate's type): still only the kernel */
  expect_unsupported("  add.f16 %r1, %r2, 0f3F800000;\n  ret;\n",
                     "t.ptx:11:21: float constants are not supported for .f16 (write the bits as 0x...)\n"
                     "    add.f16 %r1, %r2, 0f3F800000;\n"
                     "                      ^");
  /* the first one wins; what follows is still parsed (and must be sound) */
  expect_unsupported("  tcgen05.fence::before_thread_sync;\n"
                     "  tex.1d.v4.s32.s32 {%r2, %r3, %r3, %r3}, [tex0, {%r1}];\n"
                     "  @%p1 bra $L1;\n$L1:\n  ret;\n",
                     "t.ptx:11:3: unsupported instruction 'tcgen05.fence::before_thread_sync' (kernel k)\n"
                     "    tcgen05.fence::before_thread_sync;\n"
                     "    ^");
  expect_error("  tex.1d.v4.s32.s32 {%r2, %r3, %r3, %r3}, [tex0, {%r1}];\n  bra $Lnone;\n", WM_EPARSE,
               "t.ptx:12:7: unknown label '$Lnone'\n"
               "    bra $Lnone;\n"
               "        ^");
  /* a missing ';' is still malformed */
  expect_error("  tex.1d.v4.s32.s32 {%r2, %r3, %r3, %r3}, [tex0, {%r1}]\n", WM_EPARSE,
               "t.ptx:11:56: expected ';'\n"
               "    tex.1d.v4.s32.s32 {%r2, %r3, %r3, %r3}, [tex0, {%r1}]\n"
               "                                                         ^");
  /* a call sequence as nvcc writes it, calling a function this module only
   * declares: refused at the call, the kernel's other statements parse */
  {
    WmErr e;
    PtxModule *m = parse_text(".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".extern .func (.param .b32 func_retval0) _Z6helperi(.param .b64 p);\n"
                              ".entry k()\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
                              "  {\n  .param .b64 param0;\n  st.param.b64 [param0], %rd1;\n"
                              "  .param .b32 retval0;\n  call.uni (retval0), _Z6helperi, (param0);\n"
                              "  ld.param.b32 %r1, [retval0];\n  }\n  ret;\n}\n", &e);
    if (!m) fail_msg("%s", e.msg);
    assert_null(ptx_find_kernel(m, "k", &e));
    assert_string_equal(e.msg, "t.ptx:13:3: unsupported call of external device function 'helper' (kernel k): it "
                               "is declared here but defined in another file; warpmem runs one PTX module, so "
                               "compile the function into this file (or link with nvcc -dlink and give warpmem "
                               "the linked PTX; warpmem run links an -rdc=true application's files, but a "
                               "device library's (.a) functions have no PTX there)\n"
                               "    call.uni (retval0), _Z6helperi, (param0);\n"
                               "    ^");
    ptx_module_free(m);
  }
  /* a call sequence's .param without a call is harmless */
  {
    PtxModule *m = parse_kernel_ok("  {\n  .param .b64 param0;\n  st.param.b64 [param0], %rd1;\n  }\n");
    assert_null(m->kernels[0].unsupported);
    ptx_module_free(m);
  }
  /* the address of a .func and a call through it */
  {
    WmErr e;
    PtxModule *m = parse_text(".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".func (.param .b32 r) helper(.param .b32 a)\n{\n  ret;\n}\n"
                              ".entry k()\n{\n  .reg .b64 %rd<2>;\n  mov.u64 %rd1, helper;\n"
                              "  prototype_0 : .callprototype ()_ (.param .b64 _);\n"
                              "  call %rd1, (), prototype_0;\n  ret;\n}\n", &e);
    if (!m) fail_msg("%s", e.msg);
    const PtxKernel *k = ptx_find_kernel(m, "k", &e);
    if (!k) fail_msg("%s", e.msg);
    assert_int_equal(k->ncalls, 1);
    assert_int_equal(k->calls[0].callee, PTX_CALL_INDIRECT);
    assert_int_equal(k->nfn, 2); /* the kernel and helper, whose address is taken */
    assert_string_equal(k->fn[1].f->name, "helper");
    ptx_module_free(m);
  }
  /* .branchtargets (brx.idx jump tables; nvcc 13 -O3 emits compare chains
   * for switches instead) */
  expect_unsupported("$L_jt: .branchtargets $L1, $L2;\n  brx.idx %r1, $L_jt;\n$L1:\n$L2:\n  ret;\n",
                     "t.ptx:11:8: unsupported directive '.branchtargets' (kernel k)\n"
                     "  $L_jt: .branchtargets $L1, $L2;\n"
                     "         ^");
  /* unsupported outside instructions: the module fails */
  expect_error("  .reg .v2 .f32 %v<2>;\n", WM_EUNSUP,
               "t.ptx:11:8: vector registers (.reg .v2/.v4) are not supported\n"
               "    .reg .v2 .f32 %v<2>;\n"
               "         ^");

  /* a .func nobody calls: the kernels run */
  WmErr e;
  PtxModule *m = parse_text(".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".func (.param .b32 r) helper(.param .b32 a)\n{\n  { ret; }\n}\n"
                            ".entry k() { ret; }\n", &e);
  if (!m) fail_msg("%s", e.msg);
  assert_int_equal(m->nkernels, 1);
  assert_non_null(ptx_find_kernel(m, "k", &e));
  ptx_module_free(m);
  assert_null(parse_text(".version 8.0\n.func helper()\n{\n  ret;\n", &e));
  assert_int_equal(e.code, WM_EPARSE);
  assert_non_null(strstr(e.msg, "expected '}' at the end of function helper"));
  /* a .func declaration alone is harmless */
  m = parse_text(".version 8.0\n.target sm_90\n.address_size 64\n"
                 ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
                 ".entry k() { ret; }\n", &e);
  assert_non_null(m);
  ptx_module_free(m);
}

/* .loc inlined_at chains: the instruction names the kernel's line (the
 * outermost call site) and keeps the inlined function's own position. */
static void test_loc_inlined(void **state) {
  WmErr e;
  PtxModule *m = parse_text(
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".entry k()\n{\n  .reg .b32 %r<4>;\n"
    "  .loc 1 10 3\n"
    "  .loc 1 5 3, function_name $L__info_string0, inlined_at 1 10 3\n"
    "  .loc 1 2 3, function_name $L__info_string1, inlined_at 1 5 3\n"
    "  .loc 2 134 49, function_name $L__info_string2, inlined_at 1 2 3\n"
    "  add.s32 %r1, %r1, 1;\n"
    "  .loc 1 6 3, function_name $L__info_string0, inlined_at 1 11 3\n"
    "  .loc 1 2 3, function_name $L__info_string1, inlined_at 1 6 3\n"
    "  add.s32 %r1, %r1, 2;\n"
    "  .loc 2 134 49, function_name $L__info_string2, inlined_at 1 2 3\n"
    "  add.s32 %r1, %r1, 3;\n"
    "  .loc 1 12 3\n"
    "  add.s32 %r1, %r1, 4;\n"
    "  .loc 3 7 1\n"
    "  add.s32 %r1, %r1, 5;\n"
    "  .loc 1 13 1, function_name $L__info_string0+4, inlined_at 3 99 1\n"
    "  add.s32 %r1, %r1, 6;\n"
    "  .loc 2 140 5, function_name $L__info_string0, inlined_at 1 14 7\n"
    "}\n"
    ".file 1 \"/src/a.cu\"\n.file 2 \"/inc/h.hpp\"\n", &e);
  if (!m) fail_msg("%s", e.msg);
  const PtxKernel *k = kernel(m, "k");
  static const struct { uint16_t f; uint32_t l; uint16_t fi; uint32_t li; } want[] = {
    {1, 10, 2, 134}, /* three levels deep: the kernel's line 10 */
    {1, 11, 1, 2},   /* the same inner position under another call site */
    {1, 11, 2, 134}, /* ... and the chain through it follows the latest one */
    {1, 12, 1, 12},  /* not inlined */
    {0, 0, 0, 0},    /* file 3 has no .file: no position rather than ":7" */
    {1, 13, 1, 13},  /* the call site's file is unknown: the inner position */
    {1, 14, 2, 140}, /* the implicit ret at '}' */
  };
  assert_int_equal(k->ncode, 7);
  for (int i = 0; i < 7; i++) {
    const PtxInstr *in = &k->code[i];
    assert_int_equal(in->cu_file, want[i].f);
    assert_int_equal(in->cu_line, want[i].l);
    assert_int_equal(in->cu_file_inner, want[i].fi);
    assert_int_equal(in->cu_line_inner, want[i].li);
  }
  assert_string_equal(ptx_cu_file(m, &k->code[0]), "/src/a.cu");
  assert_string_equal(ptx_cu_file(m, &k->code[4]), "");
  ptx_module_free(m);

  assert_null(parse_text(".version 8.0\n.loc 1 2 3, inlined_at 1 x\n", &e));
  assert_string_equal(e.msg, "t.ptx:2:26: expected a line number before 'x'\n"
                             "  .loc 1 2 3, inlined_at 1 x\n"
                             "                           ^");
}

/* One bad kernel does not take the module's other kernels with it. */
static void test_unsupported_deferred(void **state) {
  WmErr e;
  PtxModule *m = parse_text(".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry good(.param .u64 p)\n{\n"
                            "  .reg .b64 %rd<2>;\n"
                            "  ld.param.u64 %rd1, [p];\n"
                            "  ret;\n}\n"
                            ".visible .entry _Z3badPi(.param .u64 p)\n{\n"
                            "  .reg .b32 %r<4>;\n"
                            "  .reg .b64 %rd<2>;\n"
                            "  ld.param.u64 %rd1, [p];\n"
                            "  cp.async.bulk.tensor.1d.shared::cluster.global.tile.cta_group::2.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1}], [%r1];\n"
                            "  brx.idx %r1, $L_jt;\n"
                            "  add.s32 %r2, %r1, 1;\n"
                            "  ret;\n}\n"
                            ".visible .entry after()\n{\n  ret;\n}\n", &e);
  if (!m) fail_msg("%s", e.msg);
  assert_int_equal(m->nkernels, 3);
  const PtxKernel *good = kernel(m, "good");
  assert_null(good->unsupported);
  assert_int_equal(good->ncode, 2);
  assert_non_null(kernel(m, "after"));
  static const char msg[] = "t.ptx:15:3: unsupported instruction 'cp.async.bulk.tensor.1d.shared::cluster.global.tile.cta_group::2."
                            "mbarrier::complete_tx::bytes' (kernel _Z3badPi): '.cta_group::2' is an sm_100 (Blackwell) form; "
                            "warpmem runs the sm_90 TMA modes (.tile, .im2col, .im2col_no_offs, .multicast::cluster)\n"
                            "    cp.async.bulk.tensor.1d.shared::cluster.global.tile.cta_group::2.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1}], [%r1];\n"
                            "    ^";
  /* by PTX name and by plain name alike */
  assert_null(ptx_find_kernel(m, "_Z3badPi", &e));
  assert_int_equal(e.code, WM_EUNSUP);
  assert_string_equal(e.msg, msg);
  memset(&e, 0, sizeof e);
  assert_null(ptx_find_kernel(m, "bad", &e));
  assert_int_equal(e.code, WM_EUNSUP);
  assert_string_equal(e.msg, msg);
  /* the rest of the bad kernel was parsed */
  assert_int_equal(m->kernels[1].ncode, 3);
  /* an unknown kernel still lists them all */
  assert_null(ptx_find_kernel(m, "nosuch", &e));
  assert_int_equal(e.code, WM_EUSAGE);
  assert_non_null(strstr(e.msg, "Kernels: good, bad (_Z3badPi), after"));
  ptx_module_free(m);

  /* a syntax error in a kernel's body refuses that kernel only */
  m = parse_text(".version 8.0\n.entry a() { tex.1d [x]; ret; }\n.entry b() { add.s32 ; }\n.entry c() { ret; }\n", &e);
  assert_non_null(m);
  assert_null(ptx_find_kernel(m, "b", &e));
  assert_int_equal(e.code, WM_EPARSE);
  assert_non_null(strstr(e.msg, "t.ptx:3:"));
  assert_non_null(ptx_find_kernel(m, "c", &e));
  ptx_module_free(m);
  /* outside a body (a module directive, a kernel's header) it still fails the module */
  assert_null(parse_text(".version 8.0\n.entry a() { ret; }\n.global .b32 ;\n", &e));
  assert_int_equal(e.code, WM_EPARSE);
}

static void test_error_lexical(void **state) {
  WmErr e;
  assert_null(parse_text(".version 8.0\n.target sm_90 #\n", &e));
  assert_int_equal(e.code, WM_EPARSE);
  assert_string_equal(e.msg, "t.ptx:2:15: unexpected character '#'\n  .target sm_90 #\n                ^");
  assert_null(parse_text(".version 8.0\n/* open\n\n", &e));
  assert_string_equal(e.msg, "t.ptx:2:1: unterminated comment\n  /* open\n  ^");
  assert_null(parse_text(".version 8.0\n.entry k(\n", &e));
  assert_int_equal(e.code, WM_EPARSE);
  assert_null(parse_text(".version 8.0\n.entry k() {\n  ret;\n", &e));
  assert_string_equal(e.msg, "t.ptx:4:1: expected '}' at the end of kernel k");
  assert_null(parse_text("ld.global.f32 %f1, [%rd1];\n", &e));
  assert_string_equal(e.msg, "t.ptx:1:1: expected a directive, found 'ld.global.f32'\n"
                             "  ld.global.f32 %f1, [%rd1];\n  ^");
}

static void test_load_errors(void **state) {
  WmErr e = {0};
  assert_null(ptx_load("/nonexistent/x.ptx", "sm_90", &e));
  assert_int_equal(e.code, WM_EIO);
  assert_null(ptx_load("/nonexistent/x.cu", "sm_90", &e));
  assert_int_equal(e.code, WM_EIO);
}

static void test_load_cu(void **state) {
  if (access("/usr/local/cuda/bin/nvcc", X_OK) != 0 && system("command -v nvcc >/dev/null 2>&1") != 0) {
    skip();
  }
  WmErr e = {0};
  PtxModule *m = ptx_load(tu_data("parse_coverage.cu"), arch_ptx_target(), &e);
  if (!m) fail_msg("%s", e.msg);
  assert_int_equal(m->nkernels, 7);
  assert_string_equal(m->path, tu_data("parse_coverage.cu"));
  ptx_module_free(m);

  /* nvcc's complaint comes back in the message */
  char *bad = tu_temp_file(".cu", "__global__ void k(int *p) { p[0] = undeclared_thing; }\n");
  assert_null(ptx_load(bad, "sm_90", &e));
  assert_int_equal(e.code, WM_ETOOL);
  assert_non_null(strstr(e.msg, "nvcc failed"));
  assert_non_null(strstr(e.msg, "undeclared_thing"));
  unlink(bad);
  free(bad);
}

/* ---------------------------------------------------------------- robustness */

static uint32_t rng = 12345;
static uint32_t next_rand(void) {
  rng = rng * 1103515245u + 12345u;
  return rng >> 8;
}

static void parse_must_survive(const char *text, size_t len) {
  char *t = wm_xmalloc(len + 1);
  memcpy(t, text, len);
  t[len] = '\0';
  WmErr e = {0};
  PtxModule *m = ptx_parse("fuzz.ptx", t, &e);
  if (m) {
    assert_int_equal(e.code, WM_OK);
    for (int i = 0; i < m->nkernels; i++) { /* a refused kernel says why, located */
      const PtxKernel *k = ptx_find_kernel(m, m->kernels[i].name, &e);
      if (m->kernels[i].unsupported) {
        assert_null(k);
        assert_true(e.code == WM_EUNSUP || e.code == WM_EPARSE || e.code == WM_ELIMIT);
        assert_non_null(strstr(e.msg, "fuzz.ptx:"));
      }
    }
    ptx_module_free(m);
  } else {
    assert_true(e.code == WM_EPARSE || e.code == WM_EUNSUP || e.code == WM_ELIMIT);
    assert_true(e.msg[0] != '\0');
  }
}

static void fuzz_file(const char *name, int cuts, int mutations) {
  size_t len;
  WmErr e;
  char *src = wm_read_file(data_path(name), &len, &e);
  assert_non_null(src);
  /* truncations: everywhere in the head (directives), spread over the rest */
  for (size_t n = 0; n < 1200 && n < len; n += 7) parse_must_survive(src, n);
  for (int i = 0; i < cuts; i++) parse_must_survive(src, (size_t)next_rand() % len);
  /* mutations: a byte replaced, or a span deleted or duplicated */
  static const char interesting[] = ";,{}[]()<>|!@%.:+-_0123456789xfdU\"/* \n\t\x01\x7f\xff";
  char *buf = wm_xmalloc(2 * len + 1);
  for (int i = 0; i < mutations; i++) {
    memcpy(buf, src, len + 1);
    size_t n = len;
    int edits = 1 + (int)(next_rand() % 3);
    for (int j = 0; j < edits; j++) {
      size_t at = (size_t)next_rand() % n;
      switch (next_rand() % 3) {
      case 0:
        buf[at] = interesting[next_rand() % (sizeof interesting - 1)];
        if (buf[at] == '\0') buf[at] = ' ';
        break;
      case 1: {
        size_t span = 1 + next_rand() % 40;
        if (at + span > n) span = n - at;
        memmove(buf + at, buf + at + span, n - at - span + 1);
        n -= span;
        break;
      }
      default: {
        size_t span = 1 + next_rand() % 40;
        if (at + span > n) span = n - at;
        if (n + span > 2 * len) break;
        memmove(buf + at + span, buf + at, n - at + 1);
        n += span;
        break;
      }
      }
      if (n == 0) break;
    }
    buf[n] = '\0';
    parse_must_survive(buf, n);
  }
  free(buf);
  free(src);
}

static void test_fuzz_seed(void **state) { fuzz_file("ptx/seed_kernels.ptx", 150, 400); }
static void test_fuzz_coverage(void **state) { fuzz_file("parse_coverage.ptx", 100, 300); }
static void test_fuzz_more(void **state) { fuzz_file("parse_more.ptx", 100, 300); }

static void test_garbage(void **state) {
  static const char *const inputs[] = {
    "", "\n", ".", "{", "}", "[", "@", "%", ".entry", ".entry k", ".entry k(", ".entry k(.param",
    ".entry k{", ".entry k(){", ".entry k(){@", ".entry k(){@!", ".entry k(){.reg .b32 %r<",
    ".entry k(){.reg .b32 %r<99999999999>;}", ".entry k(){.reg .b32 %r<4294967296>;}",
    ".global .b8 x[99999999999999];", ".global .b8 x[4][4][4][4][4][4][4][4][4][4][4][4][4][4][4][4][4];",
    ".const .u32 c = {{{{{{{{{{{{{{1}}}}}}}}}}}}}};", ".file 99999999 \"x\"", ".file 3 \"unterminated",
    ".section .debug_info {", ".entry k(){ld.global.f32 %f1, [", ".entry k(){.reg .f32 %f1; mov.f32 %f1, 0f1;}",
    ".entry k(){.reg .u32 %r; mov.u32 %r, 99999999999999999999999;}",
    ".entry k(){.reg .u64 %r; ld.global.u64 %r, [%r+-9223372036854775808];}",
    ".entry k(){.reg .u64 %r; ld.global.u64 %r, [%r+18446744073709551615];}",
    ".entry k(){ { { { } } } ret; }", ".entry k(){ } .entry k(){ }", ".version 99999999999999999999.1",
    ".entry k() { $L: bra $L; }", ".entry k() { bra 5; }", ".entry k(.param .b8 a[0]) {}",
    ".shared .align 3 .b8 x[1];", ".extern .shared .b8 x[];\n.entry k() { .reg .b32 %r; mov.u32 %r, x+4; ret; }",
  };
  for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) parse_must_survive(inputs[i], strlen(inputs[i]));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_seed_module),
    cmocka_unit_test(test_seed_params_and_memory),
    cmocka_unit_test(test_seed_instructions),
    cmocka_unit_test(test_coverage_parses),
    cmocka_unit_test(test_find_kernel),
    cmocka_unit_test(test_more_shf),
    cmocka_unit_test(test_more_bfind),
    cmocka_unit_test(test_more_bar_red),
    cmocka_unit_test(test_more_nested_inline),
    cmocka_unit_test(test_immediates),
    cmocka_unit_test(test_operand_forms),
    cmocka_unit_test(test_memory_layout),
    cmocka_unit_test(test_shared_per_kernel),
    cmocka_unit_test(test_scopes_and_text),
    cmocka_unit_test(test_scoped_labels),
    cmocka_unit_test(test_refuse_one_kernel),
    cmocka_unit_test(test_implicit_ret),
    cmocka_unit_test(test_limits),
    cmocka_unit_test(test_error_undeclared_register),
    cmocka_unit_test(test_error_unknown_label),
    cmocka_unit_test(test_error_missing_semicolon),
    cmocka_unit_test(test_error_bad_operand),
    cmocka_unit_test(test_error_operand_count),
    cmocka_unit_test(test_error_register_kind),
    cmocka_unit_test(test_error_unsupported), cmocka_unit_test(test_vector_constants),
    cmocka_unit_test(test_unsupported_deferred),
    cmocka_unit_test(test_loc_inlined),
    cmocka_unit_test(test_error_lexical),
    cmocka_unit_test(test_load_errors),
    cmocka_unit_test(test_load_cu),
    cmocka_unit_test(test_garbage),
    cmocka_unit_test(test_fuzz_seed),
    cmocka_unit_test(test_fuzz_coverage),
    cmocka_unit_test(test_fuzz_more),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
