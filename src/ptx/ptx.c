/* ptx.c - name tables generated from the X-macros, and PtxModule queries. */
#include "ptx/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const PtxOpInfo ptx_op[PTX_OP_COUNT] = {
#define X(e, name, flags, mods, shape, imm, exec, sem) {name, flags, mods, PTX_##shape, imm, #exec, sem},
  PTX_OPS(X)
#undef X
};

const char *const ptx_op_name[PTX_OP_COUNT] = {
#define X(e, name, flags, mods, shape, imm, exec, sem) name,
  PTX_OPS(X)
#undef X
};

const char *const ptx_shape_form[PTX_SH_COUNT] = {
#define X(e, nsrc, form) form,
  PTX_SHAPES(X)
#undef X
};

const signed char ptx_shape_nsrc[PTX_SH_COUNT] = {
#define X(e, nsrc, form) nsrc,
  PTX_SHAPES(X)
#undef X
};

const PtxModInfo ptx_mods[] = {
#define X(name, bit, words) {name, words},
  PTX_MODS(X)
#undef X
};
const int ptx_nmods = (int)(sizeof ptx_mods / sizeof ptx_mods[0]);

const char *const ptx_sreg_name[PTX_SR_COUNT] = {
#define X(e, name) name,
  PTX_SREGS(X)
#undef X
};

static const char *const type_names[PTX_T_COUNT] = {
  [PTX_T_NONE] = "", [PTX_T_PRED] = "pred", [PTX_T_B8] = "b8", [PTX_T_B16] = "b16",
  [PTX_T_B32] = "b32", [PTX_T_B64] = "b64", [PTX_T_B128] = "b128", [PTX_T_U8] = "u8",
  [PTX_T_U16] = "u16", [PTX_T_U32] = "u32", [PTX_T_U64] = "u64", [PTX_T_S8] = "s8",
  [PTX_T_S16] = "s16", [PTX_T_S32] = "s32", [PTX_T_S64] = "s64", [PTX_T_F16] = "f16",
  [PTX_T_F16X2] = "f16x2", [PTX_T_BF16] = "bf16", [PTX_T_BF16X2] = "bf16x2", [PTX_T_F32] = "f32",
  [PTX_T_F64] = "f64", [PTX_T_TF32] = "tf32", [PTX_T_E4M3X2] = "e4m3x2", [PTX_T_E5M2X2] = "e5m2x2",
  [PTX_T_U16X2] = "u16x2", [PTX_T_S16X2] = "s16x2",
};

/* bytes; PRED is 1 */
const uint8_t ptx_type_sizes[PTX_T_COUNT] = {
  [PTX_T_NONE] = 0, [PTX_T_PRED] = 1, [PTX_T_B8] = 1, [PTX_T_B16] = 2, [PTX_T_B32] = 4,
  [PTX_T_B64] = 8, [PTX_T_B128] = 16, [PTX_T_U8] = 1, [PTX_T_U16] = 2, [PTX_T_U32] = 4,
  [PTX_T_U64] = 8, [PTX_T_S8] = 1, [PTX_T_S16] = 2, [PTX_T_S32] = 4, [PTX_T_S64] = 8,
  [PTX_T_F16] = 2, [PTX_T_F16X2] = 4, [PTX_T_BF16] = 2, [PTX_T_BF16X2] = 4, [PTX_T_F32] = 4,
  [PTX_T_F64] = 8, [PTX_T_TF32] = 4, [PTX_T_E4M3X2] = 2, [PTX_T_E5M2X2] = 2, [PTX_T_U16X2] = 4,
  [PTX_T_S16X2] = 4,
};



const char *ptx_type_name(PtxType t) {
  return (unsigned)t < PTX_T_COUNT ? type_names[t] : "?";
}

const char *ptx_space_name(PtxSpace s) {
  static const char *const names[PTX_S_COUNT] = {
    [PTX_S_NONE] = "",         [PTX_S_REG] = "reg",     [PTX_S_PARAM] = "param",
    [PTX_S_GLOBAL] = "global", [PTX_S_SHARED] = "shared", [PTX_S_LOCAL] = "local",
    [PTX_S_CONST] = "const",   [PTX_S_GENERIC] = "generic", [PTX_S_CLUSTER] = "shared::cluster",
  };
  return (unsigned)s < PTX_S_COUNT ? names[s] : "?";
}

/* Performance-monitor counters read 0, and so does the shared memory the
 * driver reserves (none is modelled).  (The cluster registers are real
 * special registers: emu.c gives them a cluster of one block.) */
const PtxSregAlias ptx_sreg_alias[] = {
  {"WARP_SZ", -1, 32},
  {"%aggr_smem_size", PTX_SR_TOTAL_SMEM, 0},
  {"%reserved_smem_offset_begin", -1, 0}, {"%reserved_smem_offset_end", -1, 0},
  {"%reserved_smem_offset_cap", -1, 0}, {"%reserved_smem_offset_0", -1, 0},
  {"%reserved_smem_offset_1", -1, 0}, {"%current_graph_exec", -1, 0},
  {"%pm0", -1, 0}, {"%pm1", -1, 0}, {"%pm2", -1, 0}, {"%pm3", -1, 0},
  {"%pm4", -1, 0}, {"%pm5", -1, 0}, {"%pm6", -1, 0}, {"%pm7", -1, 0},
  {"%pm0_64", -1, 0}, {"%pm1_64", -1, 0}, {"%pm2_64", -1, 0}, {"%pm3_64", -1, 0},
  {"%pm4_64", -1, 0}, {"%pm5_64", -1, 0}, {"%pm6_64", -1, 0}, {"%pm7_64", -1, 0},
};
const int ptx_nsreg_alias = (int)(sizeof ptx_sreg_alias / sizeof *ptx_sreg_alias);

void ptx_module_free(PtxModule *m) {
  if (!m) return;
  for (int i = 0; i < m->nkernels + m->nfuncs; i++) {
    PtxKernel *k = i < m->nkernels ? &m->kernels[i] : &m->funcs[i - m->nkernels];
    if (k->plain_name != k->name) free(k->plain_name);
    free(k->name);
    for (int j = 0; j < k->nparams; j++) free(k->params[j].name);
    free(k->params);
    free(k->code);
    free(k->vregs);
    free(k->vconsts);
    free(k->sfix);
    for (uint32_t r = 0; r < k->nregs; r++) free(k->reg_names[r]);
    free(k->reg_names);
    free(k->unsupported);
    for (int j = 0; j < k->ncalls; j++) free(k->calls[j].off), free(k->calls[j].size);
    free(k->calls);
    free(k->fn);
    free(k->fn_of);
    free(k->reach);
  }
  free(m->kernels);
  free(m->funcs);
  for (int i = 0; i < m->nfiles; i++) free(m->files[i]);
  free(m->files);
  for (int i = 0; i < m->nvars; i++) free(m->vars[i].name);
  free(m->vars);
  free(m->svars);
  free(m->relocs);
  free(m->const_init);
  free(m->global_init);
  free(m->path);
  free(m->text);
  free(m);
}

/* Appends to buf[*len..n) as much of s as fits. */
static void append(char *buf, size_t n, size_t *len, const char *s) {
  size_t l = strlen(s);
  if (*len + 1 >= n) return;
  if (l > n - 1 - *len) l = n - 1 - *len;
  memcpy(buf + *len, s, l);
  *len += l;
  buf[*len] = '\0';
}

/* The kernel k, unless it uses something we do not run: then its message. */
static const PtxKernel *runnable(const PtxKernel *k, WmErr *e) {
  if (!k->unsupported) return k;
  wm_err(e, k->refused_code ? k->refused_code : WM_EUNSUP, "%s", k->unsupported);
  return NULL;
}

const PtxKernel *ptx_find_kernel(const PtxModule *m, const char *name, WmErr *e) {
  for (int i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, name) == 0) return runnable(&m->kernels[i], e);
  const PtxKernel *found = NULL;
  int nfound = 0;
  for (int i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].plain_name, name) == 0) {
      found = &m->kernels[i];
      nfound++;
    }
  if (nfound == 1) return runnable(found, e);

  char list[1536];
  size_t len = 0;
  list[0] = '\0';
  for (int i = 0; i < m->nkernels; i++) {
    const PtxKernel *k = &m->kernels[i];
    append(list, sizeof list, &len, i ? ", " : "");
    append(list, sizeof list, &len, k->plain_name);
    if (k->plain_name != k->name && strcmp(k->plain_name, k->name) != 0) {
      append(list, sizeof list, &len, " (");
      append(list, sizeof list, &len, k->name);
      append(list, sizeof list, &len, ")");
    }
  }
  if (nfound > 1)
    wm_err(e, WM_EUSAGE, "%s: kernel name '%s' is ambiguous; use the mangled name. Kernels: %s",
           m->path ? m->path : "?", name, list);
  else if (m->nkernels == 0)
    wm_err(e, WM_EUSAGE, "%s: no kernel '%s': the module has no kernels (.entry)",
           m->path ? m->path : "?", name);
  else
    wm_err(e, WM_EUSAGE, "%s: no kernel '%s'. Kernels: %s", m->path ? m->path : "?", name, list);
  return NULL;
}

const char *ptx_cu_file(const PtxModule *m, const PtxInstr *in) {
  if (in->cu_file == 0 || in->cu_file >= m->nfiles || !m->files[in->cu_file]) return "";
  return m->files[in->cu_file];
}

void ptx_instr_text(const PtxModule *m, const PtxInstr *in, char *buf, size_t n) {
  if (n == 0) return;
  size_t len = 0;
  const char *p = m->text ? m->text + in->text : "";
  if (*p == '}') p = "ret (end of kernel)"; /* the parser's implicit ret */
  int space = 0;
  for (; *p && *p != ';' && len + 1 < n; p++) {
    if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
      space = len > 0;
      continue;
    }
    if (space && len + 2 < n) buf[len++] = ' ';
    space = 0;
    buf[len++] = *p;
  }
  buf[len] = '\0';
}

int ptx_reads_of(const PtxKernel *k, uint32_t r) {
  int n = 0;
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    int first = (ptx_op[in->op].flags & OPF_NODST) ? 0 : 1;
    for (int o = first; o < in->nopd; o++) {
      const PtxOperand *x = &in->opd[o];
      if (x->kind == PTX_O_VEC)
        for (int j = 0; j < x->n; j++) n += ptx_vec_reg(k, x, j) == r;
      else if (x->kind == PTX_O_REG || x->kind == PTX_O_ADDR)
        n += x->reg[0] == r;
    }
    if (in->guard == r) n++;
  }
  return n;
}
