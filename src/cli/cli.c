/* cli.c - what the subcommands share: options, running one launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "emu/emu.h"

int cli_usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "warpmem: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see warpmem --help)\n");
  return 2;
}

int cli_fail(const WmErr *e) {
  fprintf(stderr, "warpmem: %s\n", e->msg);
  return e->code == WM_EUSAGE ? 2 : 1;
}

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

const Arch *cli_arch(const CliOptions *o) { return o->cfg.arch ? o->cfg.arch : arch_default(); }

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

/* Occupancy of the launch on the preset, into run->occ: registers from
 * --regs, else ptxas (PtxKernel.regs), else an assumed 32.  A block that
 * cannot run on the preset is not an error of the simulation: run->occ_note
 * says why and have_occ stays 0. */
#define CLI_ASSUMED_REGS 32
static void launch_occupancy(const PtxModule *mod, const PtxKernel *k, const LaunchSpec *ls, const CliOptions *o,
                             CliRun *run) {
  const Arch *a = cli_arch(o);
  if (o->regs > 0) {
    run->regs = o->regs;
    run->regs_from = "--regs";
  } else if (k->regs > 0) {
    run->regs = k->regs;
    run->regs_from = mod->regs_from[0] ? mod->regs_from : "ptxas";
    if (mod->regs_note[0]) snprintf(run->occ_note, sizeof run->occ_note, "%s", mod->regs_note);
  } else {
    run->regs = CLI_ASSUMED_REGS;
    run->regs_from = "assumed";
    snprintf(run->occ_note, sizeof run->occ_note, "registers unknown (%s): assuming %d; use --regs",
             mod->regs_note[0] ? mod->regs_note : "ptxas not run", CLI_ASSUMED_REGS);
  }
  uint64_t threads = (uint64_t)ls->block[0] * ls->block[1]; /* < 2^62; saturate before the third */
  if (threads <= 0x7fffffff) threads *= ls->block[2];
  OccInput in = {.threads = threads > 0x7fffffff ? 0x7fffffff : (int)threads, .regs = run->regs,
                 .smem = k->shared_static + ls->smem, .carveout_pct = o->carveout_pct};
  WmErr oe = {0};
  if (occ_compute(a, &in, &run->occ, &oe) == 0) {
    run->have_occ = 1;
    return;
  }
  size_t used = strlen(run->occ_note);
  snprintf(run->occ_note + used, sizeof run->occ_note - used, "%scannot launch on %s: %s", used ? "; " : "", a->name,
           oe.msg);
}

void cli_run_free(CliRun *r) {
  mem_free(&r->mm);
  if (r->have_gmem) gmem_free(&r->gmem);
  memset(r, 0, sizeof *r);
}

int cli_run_launch(const PtxModule *mod, const LaunchSpec *ls, const CliOptions *o, CliRun *run,
                   WmErr *e) {
  memset(run, 0, sizeof *run);
  const PtxKernel *k = ptx_find_kernel(mod, ls->name, e);
  if (!k) return -1;
  uint64_t threads = (uint64_t)ls->grid[0] * ls->grid[1] * ls->grid[2] * ls->block[0] * ls->block[1] * ls->block[2];
  if (threads > o->max_threads)
    return wm_err(e, WM_ELIMIT,
                  "launch %s has %llu threads, over the %llu this run allows: simulating it would take "
                  "hours; raise --max-threads to run it anyway",
                  ls->label, (unsigned long long)threads, (unsigned long long)o->max_threads);
  launch_occupancy(mod, k, ls, o, run);
  GlobalMem g;
  gmem_init(&g, o->mem_limit);
  uint8_t *params = wm_xcalloc(k->param_size + 8, 1);
  int rc = -1;
  if (launch_bind(k, ls, &g, params, o->init, o->seed, e)) goto out;
  if (mem_init(&run->mm, &o->cfg, k->ncode)) {
    char why[256] = "";
    MemGen gen;
    mem_gen(&o->cfg, &gen, why, sizeof why);
    wm_err(e, WM_EUSAGE, "%s", why[0] ? why : "the memory model does not support this configuration");
    goto out;
  }
  uint8_t *cmem = wm_xcalloc(mod->const_size + 1, 1);
  if (mod->const_init) memcpy(cmem, mod->const_init, mod->const_size);
  for (int i = 0; i < o->nconsts; i++)
    if (launch_set_const(o->consts[i], mod, cmem, e)) {
      free(cmem);
      goto out;
    }
  EmuLaunch l = {.mod = mod, .kernel = k, .smem_dynamic = ls->smem, .params = params, .gmem = &g,
                 .const_mem = cmem, .mm = &run->mm};
  memcpy(l.grid, ls->grid, sizeof l.grid);
  memcpy(l.block, ls->block, sizeof l.block);
  CliModel cm;
  cli_model_begin(o, k, ls, run, &cm, &l);
  double t0 = cli_now();
  int failed = emu_run(&l, e);
  free(cmem);
  if (failed) cli_model_abort(&cm);
  else cli_model_end(&cm, &l, run);
  if (failed) {
    /* name the launch: a file of launches may have many of one kernel */
    if (ls->line) {
      char msg[sizeof e->msg];
      int head = snprintf(msg, sizeof msg, "launch %s (line %d): ", ls->label, ls->line);
      if (head > 0 && (size_t)head < sizeof msg) {
        size_t room = sizeof msg - (size_t)head - 1, len = strlen(e->msg);
        memcpy(msg + head, e->msg, len < room ? len : room);
        msg[(size_t)head + (len < room ? len : room)] = '\0';
        memcpy(e->msg, msg, sizeof msg);
      }
    }
    goto out;
  }
  run->seconds = cli_now() - t0;
  run->thread_instrs = l.thread_instrs;
  run->kernel = k;
  if (o->dump_dir && launch_dump(o->dump_dir, ls, &g, e)) goto out;
  rc = 0;
out:
  if (rc) mem_free(&run->mm);
  free(params);
  if (rc == 0 && o->keep_buffers) {
    run->gmem = g;
    run->have_gmem = 1;
  } else {
    gmem_free(&g);
  }
  return rc;
}

static int parse_format(const char *s, ReportFormat *f) {
  if (!strcmp(s, "text")) *f = REPORT_TEXT;
  else if (!strcmp(s, "json")) *f = REPORT_JSON;
  else if (!strcmp(s, "csv")) *f = REPORT_CSV;
  else return -1;
  return 0;
}

static int parse_init(const char *s, InitKind *k) {
  if (!strcmp(s, "zero")) *k = INIT_ZERO;
  else if (!strcmp(s, "iota")) *k = INIT_IOTA;
  else if (!strcmp(s, "rand")) *k = INIT_RAND;
  else return -1;
  return 0;
}

/* Options shared by sim and lab; returns 1 if argv[*i] was one, 0 if not,
 * or an exit status + 2 (so >= 2) on a bad value. */
int cli_common_option(int argc, char **argv, int *i, CliOptions *o) {
  const char *a = argv[*i];
#define VALUE() (*i + 1 < argc ? argv[++*i] : NULL)
  WmErr e = {0};
  if (!strcmp(a, "--format")) {
    const char *v = VALUE();
    if (!v || parse_format(v, &o->format)) return 2 + cli_usage_error("--format takes text, json or csv, not '%s'", v ? v : "");
    return 1;
  }
  if (!strcmp(a, "--arch")) {
    const char *v = VALUE();
    if (!v) return 2 + cli_usage_error("%s needs a value", a);
    if (cli_parse_arch(v, &o->cfg, &e)) return 2 + cli_fail(&e);
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
    if (!v || parse_init(v, &o->init)) return 2 + cli_usage_error("--init takes zero, iota or rand, not '%s'", v ? v : "");
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
  if (!strcmp(a, "--lines")) {
    o->lines = 1;
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
  if (!strcmp(a, "--no-caches")) {
    o->cfg.caches = 0;
    return 1;
  }
  return 0;
#undef VALUE
}

void cli_options_init(CliOptions *o) {
  memset(o, 0, sizeof *o);
  o->cfg.sm = 90;
  o->cfg.caches = 1;
  o->sample = 1;
  o->carveout_pct = OCC_CARVEOUT_DEFAULT;
  o->format = REPORT_TEXT;
  o->init = INIT_RAND;
  o->seed = 1;
  o->mem_limit = GMEM_DEFAULT_LIMIT;
  o->max_threads = CLI_DEFAULT_MAX_THREADS;
}

