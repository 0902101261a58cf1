/* emu_approx.c - which instructions the emulator computes approximately.
 *
 * Notes:
 * - Everything else is exact: integer arithmetic, IEEE float arithmetic
 *   with its rounding modifier (.rn/.rz/.rm/.rp run in that host rounding
 *   mode), conversions, fma (one rounding), .ftz and .sat.
 * - The GPU computes .approx functions (sin, cos, ex2, lg2, rsqrt, rcp,
 *   sqrt, tanh, div.approx) and div.full.f32 in its special-function unit,
 *   within the error bounds the PTX ISA gives (a few ulp, or 2^-22-ish
 *   relative); the emulator uses the host's libm, which is closer to the
 *   true value, so results agree to those bounds, not bit for bit.
 * - A mul and an add (or sub) of f32/f64 without a rounding modifier may be
 *   contracted by ptxas into one fma (the PTX ISA allows it; nvcc's
 *   -fmad=true), which rounds once where the emulator rounds twice: seen on
 *   an H100 (docs/results/h100-2026-11-23-corpus, noinline_kernel).  Which
 *   pairs ptxas fuses is its choice: where ptx_contractions read it from
 *   ptxas's code (ptx_sass.c), the emulator runs each fused pair as that
 *   fma and the others rounded twice, as the GPU does, and warns of
 *   nothing; where it could not (no ptxas or nvdisasm), it computes them
 *   as written and warns where the product feeds only the next add or sub
 *   of its block.
 */
#include "emu/emu_approx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

int emu_approx(const PtxInstr *in, char *why, size_t n) {
  static const struct {
    int op;
    const char *host;
  } fns[] = {
    {PTX_OP_SIN, "sinf"},   {PTX_OP_COS, "cosf"},       {PTX_OP_EX2, "exp2"},       {PTX_OP_LG2, "log2"},
    {PTX_OP_TANH, "tanhf"}, {PTX_OP_RSQRT, "1/sqrt"},   {PTX_OP_RCP, "1/x"},        {PTX_OP_SQRT, "sqrt"},
    {PTX_OP_DIV, "a/b"},
  };
  int approx = in->rnd == PTX_RND_APPROX || in->op == PTX_OP_TANH || in->op == PTX_OP_SIN || in->op == PTX_OP_COS ||
               in->op == PTX_OP_EX2 || in->op == PTX_OP_LG2 ||
               (in->rnd == PTX_RND_FULL && in->op == PTX_OP_DIV);
  if (!approx) return 0;
  for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
    if (fns[i].op == in->op) {
      snprintf(why, n, "the host's %s stands in for the GPU's approximation (equal within its error bound, "
                       "not bit for bit)", fns[i].host);
      return 1;
    }
  return 0;
}

/* Instruction i, a plain mul whose product only the next plain add or sub
 * of its block reads: that add's index, or -1. */
static int contractible(const PtxKernel *k, int i) {
  const PtxInstr *mul = &k->code[i];
  if (!ptx_plain_float(mul, PTX_OP_MUL) || mul->opd[0].kind != PTX_O_REG) return -1;
  uint32_t d = mul->opd[0].reg[0];
  for (int j = i + 1; j < k->ncode; j++) {
    const PtxInstr *in = &k->code[j];
    if (ptx_op[in->op].flags & (OPF_BRANCH | OPF_EXIT | OPF_BARRIER)) return -1;
    int reads = 0;
    for (int o = 1; o < in->nopd; o++) reads |= in->opd[o].kind == PTX_O_REG && in->opd[o].reg[0] == d;
    if (!reads) continue;
    int fusable = (ptx_plain_float(in, PTX_OP_ADD) || ptx_plain_float(in, PTX_OP_SUB)) && in->type == mul->type &&
                  in->guard == mul->guard && ptx_reads_of(k, d) == 1;
    return fusable ? j : -1;
  }
  return -1;
}

/* Appends one located warning line about instruction in. */
static void note(char **out, size_t *len, const PtxModule *m, const PtxInstr *in, const char *why) {
  char text[256], line[1024];
  ptx_instr_text(m, in, text, sizeof text);
  const char *cu = ptx_cu_file(m, in), *base = strrchr(cu, '/');
  int w = snprintf(line, sizeof line, "%s:%u:%u: warning: %s: %s", m->path, in->ptx_line, in->ptx_col, text, why);
  if (in->cu_line && w > 0 && (size_t)w < sizeof line)
    snprintf(line + w, sizeof line - (size_t)w, " (%s:%u)", base ? base + 1 : cu, in->cu_line);
  size_t l = strlen(line);
  *out = wm_xrealloc(*out, *len + l + 2);
  memcpy(*out + *len, line, l);
  *len += l;
  (*out)[(*len)++] = '\n';
  (*out)[*len] = '\0';
}

char *emu_approx_notes(const PtxModule *m, const PtxKernel *k) {
  char *out = NULL;
  size_t len = 0;
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    char why[256];
    int j;
    if (emu_approx(in, why, sizeof why)) {
      note(&out, &len, m, in, why);
    } else if (!m->fused_known && (j = contractible(k, i)) >= 0) {
      snprintf(why, sizeof why, "ptxas may contract it with the mul of PTX line %u into one fma (rounded once); "
               "warpmem rounds both, so the result may differ in its last bit", in->ptx_line);
      note(&out, &len, m, &k->code[j], why);
    }
  }
  if (out) out[len - 1] = '\0'; /* no trailing newline */
  return out;
}
