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

char *emu_approx_notes(const PtxModule *m, const PtxKernel *k) {
  char *out = NULL;
  size_t len = 0;
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    char why[256], text[256], line[1024];
    if (!emu_approx(in, why, sizeof why)) continue;
    ptx_instr_text(m, in, text, sizeof text);
    const char *cu = ptx_cu_file(m, in), *base = strrchr(cu, '/');
    int w = snprintf(line, sizeof line, "%s:%u:%u: warning: %s: %s", m->path, in->ptx_line, in->ptx_col, text, why);
    if (in->cu_line && w > 0 && (size_t)w < sizeof line)
      snprintf(line + w, sizeof line - (size_t)w, " (%s:%u)", base ? base + 1 : cu, in->cu_line);
    size_t l = strlen(line);
    out = wm_xrealloc(out, len + l + 2);
    memcpy(out + len, line, l);
    len += l;
    out[len++] = '\n';
    out[len] = '\0';
  }
  if (out) out[len - 1] = '\0'; /* no trailing newline */
  return out;
}
