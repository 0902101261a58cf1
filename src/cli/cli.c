/* cli.c - what the subcommands share: messages, the simulation options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cli_usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "warpmem: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see warpmem --help)\n");
  return 2;
}

int cli_format_option(const char *what, const char *v, unsigned allowed, ReportFormat *f) {
  char names[96], fmt[160];
  if (!report_format_parse(v, allowed, f, names, sizeof names)) return 0;
  snprintf(fmt, sizeof fmt, "%s takes %s, not '%%s'", what, names);
  return cli_usage_error(fmt, v ? v : "");
}

int cli_parse_size(const char *s, uint64_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  uint64_t mul = 1;
  if (end == s) return -1;
  if (*end == 'K' || *end == 'k') mul = 1ull << 10, end++;
  else if (*end == 'M' || *end == 'm') mul = 1ull << 20, end++;
  else if (*end == 'G' || *end == 'g') mul = 1ull << 30, end++;
  if (*end || (mul > 1 && v > UINT64_MAX / mul)) return -1;
  *out = v * mul;
  return 0;
}

int cli_parse_arch(const char *s, MemConfig *cfg, WmErr *e) {
  const Arch *a = arch_find(s);
  if (!a) {
    char names[256];
    arch_names(names, sizeof names);
    return wm_err(e, WM_EUSAGE, "unknown --arch '%s': the presets are %s (or sm_XX; see warpmem arch)", s, names);
  }
  cfg->arch = a;
  cfg->sm = a->cc;
  return 0;
}


int cli_parse_carveout(const char *s, int *pct) {
  /* the names of cudaSharedmemCarveoutMaxL1 / MaxShared */
  if (!strcmp(s, "max-l1")) *pct = 0;
  else if (!strcmp(s, "max-shared")) *pct = 100;
  else if (!strcmp(s, "default")) *pct = OCC_CARVEOUT_DEFAULT;
  else {
    uint64_t v;
    if (cli_parse_size(s, &v) || v > 100) return -1;
    *pct = (int)v;
  }
  return 0;
}

int cli_choice(const char *s, const char *const *words, int n) {
  for (int i = 0; s && i < n; i++)
    if (words[i] && !strcmp(s, words[i])) return i;
  return -1;
}

/* --max-instructions N (1 to 2^50 warp instructions) or --timeout SECONDS
 * (above 0, at most a week): the watchdog's budget of a launch.  1, or an
 * exit status + 2. */
int cli_watch_option(const char *a, const char *v, SimOptions *o) {
  char *end = NULL;
  if (!strcmp(a, "--max-instructions")) {
    uint64_t n;
    if (!v || cli_parse_size(v, &n) || n < 1 || n > (1ull << 50))
      return 2 + cli_usage_error("--max-instructions takes warp instructions per launch, 1 to 2^50 (K, M, G "
                                 "suffixes), not '%s'", v ? v : "");
    o->max_instrs = n;
    return 1;
  }
  double t = v ? strtod(v, &end) : 0;
  if (!v || end == v || *end || !(t > 0) || t > 7 * 86400.0)
    return 2 + cli_usage_error("--timeout takes seconds per launch, above 0 and at most 604800, not '%s'", v ? v : "");
  o->timeout = t;
  return 1;
}

/* Simulation options shared by sim and lab; returns 1 if argv[*i] was one, 0 if not,
 * or an exit status + 2 (so >= 2) on a bad value. */
int cli_common_option(int argc, char **argv, int *i, SimOptions *o) {
  const char *a = argv[*i];
#define VALUE() (*i + 1 < argc ? argv[++*i] : NULL)
  WmErr e = {0};
  if (!strcmp(a, "--arch")) {
    const char *v = VALUE();
    if (!v) return 2 + cli_usage_error("%s needs a value", a);
    if (cli_parse_arch(v, &o->cfg, &e)) return 2 + wm_err_print(&e);
    return 1;
  }
  if (!strcmp(a, "--loads")) { /* -Xptxas -dlcm=ca|cg */
    const char *v = VALUE();
    if (v && !strcmp(v, "ca")) o->cfg.loads = MEM_LOADS_CA;
    else if (v && !strcmp(v, "cg")) o->cfg.loads = MEM_LOADS_CG;
    else return 2 + cli_usage_error("--loads takes ca (L1 and L2) or cg (L2 only), not '%s'", v ? v : "");
    return 1;
  }
  if (!strcmp(a, "--bank-mode")) { /* cudaDeviceSetSharedMemConfig, Kepler */
    const char *v = VALUE();
    if (v && !strcmp(v, "4")) o->cfg.bank_bytes = 4;
    else if (v && !strcmp(v, "8")) o->cfg.bank_bytes = 8;
    else return 2 + cli_usage_error("--bank-mode takes 4 or 8 (bytes per bank), not '%s'", v ? v : "");
    return 1;
  }
  if (!strcmp(a, "--init")) {
    const char *v = VALUE();
    static const char *const inits[] = {[INIT_ZERO] = "zero", [INIT_IOTA] = "iota", [INIT_RAND] = "rand"};
    int k = cli_choice(v, inits, (int)(sizeof inits / sizeof *inits));
    if (k < 0) return 2 + cli_usage_error("--init takes zero, iota or rand, not '%s'", v ? v : "");
    o->init = (InitKind)k;
    o->init_given = 1;
    return 1;
  }
  if (!strcmp(a, "--seed")) {
    const char *v = VALUE();
    if (!v || cli_parse_size(v, &o->seed)) return 2 + cli_usage_error("--seed takes a number, not '%s'", v ? v : "");
    return 1;
  }
  if (!strcmp(a, "--mem-limit")) {
    const char *v = VALUE();
    if (!v || cli_parse_size(v, &o->mem_limit) || o->mem_limit == 0)
      return 2 + cli_usage_error("--mem-limit takes a byte count such as 4G, not '%s'", v ? v : "");
    return 1;
  }
  if (!strcmp(a, "--max-threads")) {
    const char *v = VALUE();
    if (!v || cli_parse_size(v, &o->max_threads) || o->max_threads == 0)
      return 2 + cli_usage_error("--max-threads takes a number such as 8G, not '%s'", v ? v : "");
    return 1;
  }
  if (!strcmp(a, "--regs")) {
    const char *v = VALUE();
    uint64_t n;
    if (!v || cli_parse_size(v, &n) || n < 1 || n > 255)
      return 2 + cli_usage_error("--regs takes registers per thread, 1 to 255, not '%s'", v ? v : "");
    o->regs = (int)n;
    return 1;
  }
  if (!strcmp(a, "--stack-size")) {
    const char *v = VALUE();
    uint64_t n;
    if (!v || cli_parse_size(v, &n) || n < 16 || n > (1u << 20))
      return 2 + cli_usage_error("--stack-size takes bytes per thread, 16 to 1M, not '%s'", v ? v : "");
    o->stack_size = (uint32_t)n;
    return 1;
  }
  if (!strcmp(a, "--heap-size")) {
    const char *v = VALUE();
    uint64_t n;
    if (!v || cli_parse_size(v, &n) || n < 16 || n > (64ull << 30))
      return 2 + cli_usage_error("--heap-size takes bytes, 16 to 64G, not '%s'", v ? v : "");
    o->heap_size = n;
    return 1;
  }
  if (!strcmp(a, "--carveout")) {
    const char *v = VALUE();
    if (!v || cli_parse_carveout(v, &o->carveout_pct))
      return 2 + cli_usage_error("--carveout takes a percentage of shared memory (0-100), max-l1 or max-shared, "
                                 "not '%s'", v ? v : "");
    return 1;
  }
  if (!strcmp(a, "--sample")) {
    const char *v = VALUE();
    uint64_t n;
    if (!v || cli_parse_size(v, &n) || n < 1 || n > 1000000)
      return 2 + cli_usage_error("--sample takes how many waves of blocks make one simulated wave (1 to 1000000), not '%s'",
                                 v ? v : "");
    o->sample = (int)n;
    return 1;
  }
  if (!strcmp(a, "--max-instructions") || !strcmp(a, "--timeout")) return cli_watch_option(a, VALUE(), o);
  if (!strcmp(a, "--no-caches")) {
    o->cfg.caches = 0;
    return 1;
  }
  return 0;
#undef VALUE
}

const PtxKernel *cli_named_kernel(const PtxModule *mod, const char *name) {
  for (int i = 0; i < mod->nkernels; i++)
    if (!strcmp(mod->kernels[i].name, name)) return &mod->kernels[i];
  for (int i = 0; i < mod->nkernels; i++)
    if (mod->kernels[i].plain_name && !strcmp(mod->kernels[i].plain_name, name)) return &mod->kernels[i];
  return NULL;
}

static int push_flag(CliNvcc *f, const char *flag) {
  if (f->n == CLI_MAX_NVCC_FLAGS) return 2 + cli_usage_error("too many nvcc flags (at most %s)", "128");
  f->flag[f->n++] = flag;
  return 1;
}

int cli_nvcc_option(int argc, char **argv, int *i, CliNvcc *f) {
  const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
  int takes = !strcmp(a, "-I") || !strcmp(a, "-D") || !strcmp(a, "-std") || !strcmp(a, "--std") ||
              !strcmp(a, "--nvcc-flag");
  if (takes) {
    if (!v) return 2 + cli_usage_error("%s needs a value", a);
    ++*i;
    if (!strcmp(a, "--nvcc-flag")) return push_flag(f, v);
    int st = push_flag(f, a); /* nvcc takes "-I DIR", "-D X", "-std c++17" as two words */
    return st == 1 ? push_flag(f, v) : st;
  }
  if (!strncmp(a, "--nvcc-flag=", 12)) return push_flag(f, a + 12);
  if ((!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2)) && a[2]) return push_flag(f, a);
  if (!strncmp(a, "-std=", 5) || !strncmp(a, "--std=", 6)) return push_flag(f, a);
  return 0;
}

int cli_launch_error(const WmErr *e) {
  return e->code == WM_EUNSUP || e->code == WM_EARGS || e->code == WM_ELIMIT || wm_kernel_fault(e->code) ||
         e->code == WM_EGPU || e->code == WM_EWATCHDOG;
}
