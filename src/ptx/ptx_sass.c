/* ptx_sass.c - which float adds ptxas contracted with a mul into one fma,
 * read from the code ptxas makes of the module (ptx_contractions, ptx.h).
 *
 * Notes:
 * - The PTX ISA lets ptxas fuse a mul and an add or sub without a rounding
 *   modifier into one fma (nvcc's default -fmad=true), which rounds once:
 *   the GPU's sum then differs from the twice-rounded one in its last bits.
 *   Which pairs it fuses is its choice (a product read twice stays an FMUL
 *   and an FADD; mul.rn never fuses), so it is read, not guessed.
 * - The module's PTX is written again with a `.loc` before each
 *   instruction's line naming that line (file "ptx"), compiled by ptxas
 *   with -lineinfo for the preset's GPU, and listed by nvdisasm -g: each
 *   SASS instruction under the PTX line it came from.  An add or sub whose
 *   line holds an FFMA (DFMA) and no FADD (DADD) was contracted with the
 *   mul whose product it reads; of two such muls, the one whose own line
 *   holds no FMUL (DMUL).  Line info changes nothing in ptxas's code.
 * - A pair whose lines hold no SASS at all was merged with an equal one
 *   (ptxas's common subexpressions) or dropped: fused when its product is
 *   read once, as every such pair seen was (a rule from what was seen, not
 *   from a statement of ptxas's).
 * - Only f32 and f64; the half types' HFMA2 are not read.
 * - nvdisasm is CUDA's (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin), or
 *   $WARPMEM_NVDISASM, or the one scripts/setup.sh installed from PyPI
 *   (WM_NVDISASM, set by CMake).  Without it nothing is marked and the
 *   emulator rounds twice, warning at each pair (emu_approx.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptx/ptx.h"
#include "ptx/ptx_load_int.h"
#include "ptx/ptx_ops.h"
#include "util/diag.h"

/* What a PTX line's SASS holds. */
enum { S_FMA32 = 1, S_ADD32 = 2, S_MUL32 = 4, S_FMA64 = 8, S_ADD64 = 16, S_MUL64 = 32 };

/* Whether instruction in writes register r (its destination operand). */
static int writes(const PtxKernel *k, const PtxInstr *in, uint32_t r) {
  if (in->nopd == 0 || (ptx_op[in->op].flags & OPF_NODST)) return 0;
  const PtxOperand *d = &in->opd[0];
  if (d->kind == PTX_O_REG) return d->reg[0] == r;
  if (d->kind == PTX_O_VEC)
    for (int j = 0; j < d->n; j++)
      if (ptx_vec_reg(k, d, j) == r) return 1;
  return 0;
}

static int reg_of(const PtxOperand *o) { return o->kind == PTX_O_REG ? (int)o->reg[0] : -1; }

/* The plain mul of add i's type whose product operand `o` of i reads, in
 * i's block, its sources unchanged since: its index, or -1. */
static int product_of(const PtxKernel *k, int i, int o) {
  const PtxInstr *add = &k->code[i];
  int r = reg_of(&add->opd[o]);
  if (r < 0) return -1;
  for (int j = i - 1; j >= 0; j--) {
    const PtxInstr *in = &k->code[j];
    if (ptx_op[in->op].flags & (OPF_BRANCH | OPF_EXIT | OPF_BARRIER)) return -1;
    if (!writes(k, in, (uint32_t)r)) continue;
    if (!ptx_plain_float(in, PTX_OP_MUL) || in->type != add->type || in->guard != add->guard) return -1;
    int a = reg_of(&in->opd[1]), b = reg_of(&in->opd[2]);
    for (int m = j + 1; m < i; m++)
      if ((a >= 0 && writes(k, &k->code[m], (uint32_t)a)) || (b >= 0 && writes(k, &k->code[m], (uint32_t)b)))
        return -1;
    return j;
  }
  return -1;
}

/* The muls (up to 2) whose products add or sub i could absorb; how many. */
static int candidates(const PtxKernel *k, int i, int mul[2]) {
  const PtxInstr *in = &k->code[i];
  if (!ptx_plain_float(in, PTX_OP_ADD) && !ptx_plain_float(in, PTX_OP_SUB)) return 0;
  int n = 0;
  for (int o = 1; o <= 2 && o < in->nopd; o++) {
    int j = product_of(k, i, o);
    if (j >= 0) mul[n++] = j;
  }
  return n;
}

static int any_candidate(const PtxModule *m) {
  int mul[2];
  for (int kk = 0; kk < m->nkernels; kk++)
    for (int i = 0; i < m->kernels[kk].ncode; i++)
      if (candidates(&m->kernels[kk], i, mul)) return 1;
  return 0;
}

/* The module's text with `.loc 1 LINE 0` before each line an instruction
 * starts on and its own .loc and .file lines dropped, into path. */
static int write_located(const PtxModule *m, const char *path) {
  size_t nlines = 1;
  for (const char *p = m->text; *p; p++) nlines += *p == '\n';
  uint8_t *has = calloc(nlines + 1, 1);
  FILE *f = has ? fopen(path, "wb") : NULL;
  if (!f) return free(has), -1;
  for (int kk = 0; kk < m->nkernels; kk++)
    for (int i = 0; i < m->kernels[kk].ncode; i++) {
      uint32_t l = m->kernels[kk].code[i].ptx_line;
      if (l <= nlines) has[l] = 1;
    }
  /* the .file goes after .address_size (or .target): nothing may come between */
  const char *anchor = strstr(m->text, ".address_size") ? ".address_size" : ".target";
  int file_done = 0, ok = 1;
  size_t line = 1;
  for (const char *p = m->text; *p && ok; line++) {
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
    const char *w = p + strspn(p, " \t");
    int directive = !strncmp(w, ".loc", 4) || !strncmp(w, ".file", 5);
    if (has[line]) ok = fprintf(f, "\t.loc 1 %zu 0\n", line) > 0;
    if (!directive && ok) ok = fwrite(p, 1, n, f) == n;
    if (!file_done && !strncmp(w, anchor, strlen(anchor))) ok = ok && fputs("\n.file 1 \"ptx\"\n", f) >= 0, file_done = 1;
    else if (directive) ok = ok && fputc('\n', f) != EOF; /* keep the lines' numbers */
    p += n;
  }
  free(has);
  return fclose(f) == 0 && ok && file_done ? 0 : -1;
}

/* nvdisasm: $WARPMEM_NVDISASM, CUDA's, or the one setup installed. */
static int find_nvdisasm(char *buf, size_t n) {
  const char *env = getenv("WARPMEM_NVDISASM");
  if (env && *env) return snprintf(buf, n, "%s", env) < (int)n && access(buf, X_OK) == 0 ? 0 : -1;
  if (pl_find_tool("nvdisasm", buf, n) == 0) return 0;
#ifdef WM_NVDISASM
  if (snprintf(buf, n, "%s", WM_NVDISASM) < (int)n && access(buf, X_OK) == 0) return 0;
#endif
  return -1;
}

/* One line of nvdisasm -g's listing: "//## File "ptx", line N" sets *cur;
 * an instruction ("/ *0090* /  @P0 FFMA R9, ...") adds its kind to bits. */
static void listing_line(const char *s, size_t *cur, uint8_t *bits, size_t nlines) {
  const char *at = strstr(s, "//## File \"ptx\", line ");
  if (at) {
    *cur = (size_t)strtoul(at + 22, NULL, 10);
    return;
  }
  const char *op = strstr(s, "*/");
  if (!op || *cur == 0 || *cur > nlines) return;
  op += 2 + strspn(op + 2, " \t");
  if (*op == '@') op += strcspn(op, " \t"), op += strspn(op, " \t"); /* a predicate */
  static const struct { const char *name; uint8_t bit; } kinds[] = {
    {"FFMA", S_FMA32}, {"FADD", S_ADD32}, {"FMUL", S_MUL32}, {"DFMA", S_FMA64}, {"DADD", S_ADD64}, {"DMUL", S_MUL64}};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    if (!strncmp(op, kinds[k].name, 4)) bits[*cur] |= kinds[k].bit;
}

/* Runs ptxas -lineinfo and nvdisasm -c -g in dir; the listing's bits per
 * PTX line in *bits (nlines + 1).  0, or -1 with why. */
static int read_sass(PtxModule *m, int cc, const char *dir, uint8_t *bits, size_t nlines, char *why, size_t nwhy) {
  char ptxas[4096], nvdisasm[4096];
  if (pl_find_tool("ptxas", ptxas, sizeof ptxas) < 0)
    return snprintf(why, nwhy, "ptxas not found on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin"), -1;
  if (find_nvdisasm(nvdisasm, sizeof nvdisasm) < 0)
    return snprintf(why, nwhy, "nvdisasm not found ($WARPMEM_NVDISASM, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin; "
                    "scripts/setup.sh installs it)"), -1;
  char in[4200], cubin[4200], log[4200], list[4200], archopt[48], arch[32];
  snprintf(in, sizeof in, "%s/located.ptx", dir);
  snprintf(cubin, sizeof cubin, "%s/located.cubin", dir);
  snprintf(log, sizeof log, "%s/ptxas.log", dir);
  snprintf(list, sizeof list, "%s/sass.txt", dir);
  int own = strncmp(m->target, "sm_", 3) == 0 ? atoi(m->target + 3) : 0;
  int target = cc < 75 ? 75 : cc; /* CUDA 13's ptxas: sm_75 and later */
  pl_ptxas_arch(m, own > target ? own : target, arch, sizeof arch);
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  int rc = -1, status = 0;
  WmErr e = {0};
  char *pargv[] = {ptxas, archopt, "-lineinfo", in, "-o", cubin, NULL};
  char *dargv[] = {nvdisasm, "-c", "-g", cubin, NULL};
  if (write_located(m, in)) {
    snprintf(why, nwhy, "cannot write the PTX for ptxas in %.100s", dir);
  } else if (pl_spawn_logged(pargv, log, "ptxas -lineinfo (the contractions)", m->path, "WARPMEM_PTXAS_TIMEOUT",
                             PTX_PTXAS_TIMEOUT, &status, &e) || !WIFEXITED(status) || WEXITSTATUS(status)) {
    char said[120];
    pl_read_tail(log, said, sizeof said);
    snprintf(why, nwhy, "ptxas %.40s -lineinfo failed: %.100s", archopt, e.code ? e.msg : said);
  } else if (pl_spawn_logged(dargv, list, "nvdisasm", m->path, "WARPMEM_PTXAS_TIMEOUT", PTX_PTXAS_TIMEOUT, &status,
                             &e) || !WIFEXITED(status) || WEXITSTATUS(status)) {
    snprintf(why, nwhy, "nvdisasm failed on ptxas's code: %.100s", e.code ? e.msg : "see its output");
  } else {
    FILE *f = fopen(list, "r");
    char buf[1024];
    size_t cur = 0;
    while (f && fgets(buf, sizeof buf, f)) listing_line(buf, &cur, bits, nlines);
    if (f) fclose(f), rc = 0;
    else snprintf(why, nwhy, "cannot read nvdisasm's listing");
  }
  unlink(in), unlink(cubin), unlink(log), unlink(list);
  return rc;
}

/* Marks kernel k's adds the listing shows contracted; how many. */
static int mark(PtxKernel *k, const uint8_t *bits, size_t nlines) {
  int marked = 0;
  for (int i = 0; i < k->ncode; i++) {
    PtxInstr *in = &k->code[i];
    int mul[2], n = candidates(k, i, mul);
    if (!n || in->ptx_line > nlines) continue;
    int f64 = in->type == PTX_T_F64;
    uint8_t fma = f64 ? S_FMA64 : S_FMA32, add = f64 ? S_ADD64 : S_ADD32, mulb = f64 ? S_MUL64 : S_MUL32;
    uint8_t here = bits[in->ptx_line];
    int pick = -1;
    for (int c = 0; c < n && pick < 0; c++) {
      uint8_t there = k->code[mul[c]].ptx_line <= nlines ? bits[k->code[mul[c]].ptx_line] : 0;
      /* the FFMA under the add's line (or, no add left, under the mul's) */
      int fused = ((here & fma) && !(here & add)) || (!(here & (fma | add)) && (there & fma) && !(there & mulb));
      if (!here && !there) fused = ptx_reads_of(k, k->code[mul[c]].opd[0].reg[0]) == 1; /* merged away */
      if (fused && (n == 1 || !(there & mulb))) pick = mul[c];
    }
    if (pick < 0 && n == 2 && (here & fma) && !(here & add)) pick = mul[0]; /* both products kept: the first */
    in->fused = pick >= 0 ? (uint32_t)pick + 1 : 0;
    marked += pick >= 0;
  }
  return marked;
}

int ptx_contractions(PtxModule *m, int cc) {
  m->fused_known = 0;
  m->fused_note[0] = '\0';
  for (int kk = 0; kk < m->nkernels; kk++)
    for (int i = 0; i < m->kernels[kk].ncode; i++) m->kernels[kk].code[i].fused = 0;
  if (!any_candidate(m)) {
    m->fused_known = 1;
    snprintf(m->fused_note, sizeof m->fused_note, "no add reads a mul's product: nothing for ptxas to contract");
    return 0;
  }
  size_t nlines = 1;
  for (const char *p = m->text; *p; p++) nlines += *p == '\n';
  uint8_t *bits = wm_xcalloc(nlines + 1, 1);
  char dir[4000], why[sizeof m->fused_note] = "";
  WmErr e = {0};
  int rc = pl_make_temp_dir(dir, sizeof dir, &e);
  if (rc) snprintf(why, sizeof why, "%.180s", e.msg);
  else rc = read_sass(m, cc, dir, bits, nlines, why, sizeof why), rmdir(dir);
  if (rc == 0) {
    int n = 0;
    for (int kk = 0; kk < m->nkernels; kk++) n += mark(&m->kernels[kk], bits, nlines);
    m->fused_known = 1;
    snprintf(m->fused_note, sizeof m->fused_note, "ptxas's code (nvdisasm): %d add%s contracted with a mul", n,
             n == 1 ? "" : "s");
  } else {
    snprintf(m->fused_note, sizeof m->fused_note, "%s", why);
  }
  free(bits);
  return rc;
}
