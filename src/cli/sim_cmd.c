/* sim_cmd.c - `warpmem sim`: the launches of a file (or one from the
 * options), each through sim_run_launch, then one report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "arch/arch.h"
#include "report/report.h"
#include "report/report_html.h"
#include "util/sys.h"

static const char *usage_sim =
  "usage: warpmem sim FILE [--kernel NAME] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]]\n"
  "                   [--smem BYTES] [--arg SPEC]... [--arch NAME] [--regs N]\n"
  "                   [--stack-size BYTES] [--heap-size BYTES]\n"
  "                   [--loads ca|cg] [--bank-mode 4|8] [--format text|json|csv|ncu-csv|html]\n"
  "                   [--lines[=source]] [--out FILE] [--dump DIR]\n"
  "                   [--init zero|iota|rand] [--seed N] [--mem-limit BYTES]\n"
  "                   [--max-threads N] [--const NAME=TYPE:VALUE[,VALUE...]]...\n"
  "                   [--sample N] [--no-caches] [--cooperative]\n"
  "                   [--cluster X[,Y[,Z]]] [--nonportable-cluster]\n"
  "                   [--max-instructions N] [--timeout SECONDS]\n"
  "                   [-I DIR]... [-D NAME[=VALUE]]... [-std=X] [--nvcc-flag FLAG]...\n"
  "\n"
  "FILE is a .ptx, or a .cu compiled with nvcc -ptx -arch=sm_90 -O3 -lineinfo\n"
  "(and the -I, -D, -std and --nvcc-flag options, as the project's build has them).\n"
  "Without --kernel, every '//@' launch line of FILE runs:\n"
  "  //@ NAME[#VARIANT] [cooperative] [nonportable] grid=X[,Y[,Z]] block=X[,Y[,Z]] [smem=BYTES]\n"
  "      [cluster=X[,Y[,Z]]] args=SPEC,...\n"
  "(for a .ptx without them, the .cu of the same name beside it or in the\n"
  "folder above: lab/ptx/X.ptx reads lab/X.cu).\n"
  "With --kernel and no --grid/--block/--arg, the //@ launches of that kernel run;\n"
  "otherwise one launch is built from the options.  --kernel takes the PTX entry\n"
  "name or the plain C++ name of a mangled one.\n"
  "\n"
  "SPEC: TYPE:VALUE (a scalar), buf:TYPE:COUNT[:INIT] (a device buffer), or an\n"
  "aggregate passed by value (checked against the .param's size and alignment):\n"
  "  struct[@A]{M,M,...}  a struct laid out as C lays it out; each member M is a\n"
  "                       SPEC (a buf member is its pointer); @A: __align__(A)\n"
  "  TYPExN{V,...}        a vector type, N = 1..4: f32x2{1,2} is a float2,\n"
  "                       f32x4{..} a float4 (16-byte aligned), i32x3{..} an int3\n"
  "  bytes{B,...}, bytes:HEX  raw bytes (bytes:0a0b0c0d), checked for size only\n"
  "  e.g. struct{buf:f32:1024,buf:f32:1024:zero,i32:1024,f32:0.5} for\n"
  "  struct { const float* in; float* out; int n; float alpha; }; a functor\n"
  "  without members is struct{}.  Commas inside braces do not split args=;\n"
  "  --arg also takes struct:M,M,... and f32x2:1,2.\n"
  "  TYPE  i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 f16 bf16 (f16, bf16: rounded to nearest)\n"
  "  INIT  zero, iota, rand (seeded; floats in [0,1), integers in [0,1024)) or a constant\n"
  "  or tex:CHAN:W[xH[xD]][:OPT...] (a texture object), surf:CHAN:W[xH[xD]][:OPT...] (a surface)\n"
  "  CHAN  f32 f16 i32 u32 i16 u16 i8 u8 (s8 s16 s32 too), with x2 or x4 for 2 or 4 channels\n"
  "  OPT   point|linear, clamp|wrap|mirror|border, norm, elem|normfloat, layered, INIT\n"
  "  or a tensor map (a const __grid_constant__ CUtensorMap, or a pointer to one; docs/tma.md):\n"
  "        tmap:MTYPE:D0xD1[x...]:box=B0xB1[x...][:MOPT...]   (tiled, innermost dimension first)\n"
  "        tmap:MTYPE:D0xD1xD2[x...]:im2col=CxP[:MOPT...]     (C channels per pixel, P pixels)\n"
  "  MTYPE u8 u16 u32 i32 u64 i64 f16 bf16 f32 f64 tf32\n"
  "  MOPT  swz=none|32|64|128, oob=zero|nan, l2=none|64|128|256, interleave=none|16|32,\n"
  "        estride=E0xE1.., stride=BYTES1xBYTES2.. (default dense, rows rounded up to 16 bytes),\n"
  "        lower=L1x.., upper=U1x.. (im2col corners), over=N (argument N's buffer), INIT\n"
  "  e.g. tmap:bf16:1024x512:box=64x128:swz=128 (64 x 128 boxes of a 512 x 1024 matrix)\n"
  "\n"
  "  --arch NAME      GPU to model: gt200, fermi, kepler, volta, ampere, hopper\n"
  "                   (h100) or h200 (sm_90, the default); see warpmem arch\n"
  "  --loads ca|cg    global loads without a cache operator: cached in L1 and L2\n"
  "                   (ca: 128-byte lines on fermi) or in L2 only (cg: 32-byte\n"
  "                   segments), as nvcc -Xptxas -dlcm=ca|cg; ld.global.cg is cg\n"
  "  --bank-mode 4|8  kepler's shared-memory bank mode (cudaDeviceSetSharedMemConfig)\n"
  "  --regs N         registers per thread for the occupancy (default: ptxas -v\n"
  "                   on the PTX; 32 if ptxas is missing)\n"
  "  --stack-size B   call stack per thread for device functions (default 1K,\n"
  "                   as cudaLimitStackSize)\n"
  "  --heap-size B    the device heap of malloc and new (default 8M, as\n"
  "                   cudaLimitMallocHeapSize); malloc returns NULL when full\n"
  "  --carveout PCT   preferred shared-memory carveout, percent (or max-l1,\n"
  "                   max-shared); default: the driver's choice\n"
  "  --format FMT     text (default), json, csv, ncu-csv (the layout of\n"
  "                   ncu --csv --page raw) or html (one self-contained page:\n"
  "                   memory chart, source view, occupancy, time; docs/report.md);\n"
  "                   metric names are Nsight Compute's\n"
  "  --lines          per memory instruction: source line, requests, sectors or\n"
  "                   wavefronts per request, the ideal, and why\n"
  "  --lines=source   the same added up per CUDA source line (as ncu's source page)\n"
  "  -o, --out FILE   write the report to FILE instead of stdout\n"
  "  --dump DIR       write every buffer after the run to DIR\n"
  "  --const N=T:V,.. set the __constant__, __device__ or __managed__ variable N\n"
  "                   (type T) from its start, as the host would before the\n"
  "                   launch; otherwise it holds its initializer, or zeros\n"
  "  --init KIND      initializer of buffers whose SPEC names none (default rand)\n"
  "  --seed N         seed of rand (default 1)\n"
  "  --mem-limit B    most bytes of buffers a launch may allocate (default 16 GiB)\n"
  "  --max-threads N  most threads a launch may have (default 4G: beyond, hours)\n"
  "  --sample N       simulate every N-th wave of resident blocks and scale the\n"
  "                   counters (the L2 shrinks in proportion): for large grids\n"
  "                   whose blocks touch data of their own\n"
  "  --no-caches      L1 counters only: no L1/L2/DRAM replay, no predicted time\n"
  "  --cooperative    launch as cudaLaunchCooperativeKernel (as the //@ word\n"
  "                   cooperative): all blocks resident at once, so grid.sync()\n"
  "                   and flags between blocks work; a grid larger than the GPU\n"
  "                   holds is refused as CUDA refuses it\n"
  "  --cluster X,Y,Z  launch with thread block clusters of X*Y*Z blocks (as the\n"
  "                   //@ field cluster=, cudaLaunchKernelEx's cluster attribute):\n"
  "                   a cluster's blocks run together and share distributed\n"
  "                   shared memory (docs/clusters.md)\n"
  "  --nonportable-cluster  allow clusters of up to 16 blocks, not 8 (as the //@\n"
  "                   word nonportable)\n"
  CLI_WATCH_USAGE
  CLI_NVCC_USAGE
  "  WARPMEM_THREADS  host threads that run blocks (default: one per CPU)\n"
  "\n"
  "exit status: 0 every launch ran; 1 an error (FILE unreadable, malformed PTX,\n"
  "nvcc failed, the one launch built from --kernel/--grid/--block/--arg failed);\n"
  "2 a usage error; 4 some launches of FILE were refused (an instruction warpmem\n"
  "does not run, arguments that do not bind, a limit) or failed (a fault, a\n"
  "deadlock, a launch the watchdog stopped) while the others ran: each is reported\n"
  "in its place (text: REFUSED: or FAILED: and the located message; JSON and\n"
  "CSV: status and error).\n";

/* The launches to run: //@ lines of the file (for a .ptx, of its .cu if
 * any: launch_read_file), filtered by --kernel, or one built from the options. */
static int collect_launches(const char *path, const PtxModule *mod, const SimOptions *o,
                            LaunchSpec **out, int *n, WmErr *e) {
  *out = NULL;
  *n = 0;
  if (o->kernel && (o->have_grid || o->have_block || o->nargs)) {
    if (!o->have_grid || !o->have_block)
      return wm_err(e, WM_EUSAGE, "--kernel %s: give both --grid and --block", o->kernel);
    LaunchSpec *l = wm_xcalloc(1, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", o->kernel);
    snprintf(l->label, sizeof l->label, "%s", o->kernel);
    memcpy(l->grid, o->grid, sizeof l->grid);
    memcpy(l->block, o->block, sizeof l->block);
    l->smem = o->smem;
    l->cooperative = o->cooperative;
    memcpy(l->cluster, o->cluster, sizeof l->cluster);
    l->cluster_nonportable = o->cluster_nonportable;
    for (int i = 0; i < o->nargs; i++)
      if (launch_parse_arg(o->args[i], &l->args[l->nargs++], e)) {
        free(l);
        return -1;
      }
    *out = l;
    *n = 1;
    return 0;
  }
  LaunchSpec *all = NULL;
  int nall = 0;
  if (launch_read_file(path, &all, &nall, e)) return -1;
  if (nall == 0) {
    free(all);
    return wm_err(e, WM_EUSAGE,
                  "%s has no '//@' launch lines: name a launch with --kernel NAME --grid X --block X "
                  "--arg SPEC...%s",
                  path, wm_ends_with(path, ".ptx") ? " (nvcc drops comments from PTX; a .cu of the same name "
                                                   "beside it, or in the folder above, is read for them)" : "");
  }
  int kept = 0;
  for (int i = 0; i < nall; i++) {
    if (o->kernel && strcmp(all[i].name, o->kernel)) {
      const PtxKernel *k = cli_named_kernel(mod, all[i].name);
      if (!k || !k->plain_name || strcmp(k->plain_name, o->kernel)) continue;
    }
    if (o->smem_set) all[i].smem = o->smem;
    if (o->cooperative) all[i].cooperative = 1;
    if (o->cluster[0]) memcpy(all[i].cluster, o->cluster, sizeof o->cluster);
    if (o->cluster_nonportable) all[i].cluster_nonportable = 1;
    all[kept++] = all[i];
  }
  if (kept == 0) {
    free(all);
    return wm_err(e, WM_EUSAGE, "%s has no '//@' launch of kernel %s", path, o->kernel);
  }
  *out = all;
  *n = kept;
  return 0;
}

/* Registers per thread of the kernels the launches run, from ptxas, for
 * the occupancy in the report; a failure leaves them unknown (the report
 * says so), never the simulation. */
static void find_registers(PtxModule *mod, const LaunchSpec *ls, int n, const Arch *a) {
  const char **names = wm_xcalloc((size_t)n, sizeof *names);
  int k = 0;
  for (int i = 0; i < n; i++) {
    const PtxKernel *kern = ptx_find_kernel(mod, ls[i].name, NULL);
    int seen = !kern;
    for (int j = 0; j < k && !seen; j++) seen = !strcmp(names[j], kern->name);
    if (!seen) names[k++] = kern->name;
  }
  if (k) ptx_registers(mod, a->cc, names, k);
  free(names);
}

/* What `warpmem sim` was asked: the simulation options, the report's form
 * and the file.  o.args and o.consts point into args and consts. */
typedef struct SimCmd {
  SimOptions o;
  ReportFormat format;
  int lines;             /* REPORT_LINES_* */
  const char *out;       /* --out FILE; NULL: stdout */
  const char *file;
  const char *args[LAUNCH_MAX_ARGS], *consts[LAUNCH_MAX_ARGS];
  CliNvcc nvcc;          /* -I, -D, -std, --nvcc-flag */
} SimCmd;

static int is_launch_option(const char *a) {
  return !strcmp(a, "--kernel") || !strcmp(a, "--grid") || !strcmp(a, "--block") || !strcmp(a, "--smem") ||
         !strcmp(a, "--arg") || !strcmp(a, "--dump") || !strcmp(a, "--cluster");
}

/* One of is_launch_option()'s, with its value v (not NULL).  Returns -1 to
 * go on, else an exit status. */
static int launch_option(SimCmd *c, const char *a, const char *v) {
  SimOptions *o = &c->o;
  WmErr e = {0};
  if (!strcmp(a, "--kernel")) o->kernel = v;
  else if (!strcmp(a, "--dump")) o->dump_dir = v;
  else if (!strcmp(a, "--grid")) {
    if (launch_parse_dim(v, o->grid, &e)) return wm_err_print(&e);
    o->have_grid = 1;
  } else if (!strcmp(a, "--block")) {
    if (launch_parse_dim(v, o->block, &e)) return wm_err_print(&e);
    o->have_block = 1;
  } else if (!strcmp(a, "--cluster")) {
    if (launch_parse_dim(v, o->cluster, &e)) return wm_err_print(&e);
  } else if (!strcmp(a, "--smem")) {
    uint64_t s;
    if (cli_parse_size(v, &s) || s > 0xffffffffu) return cli_usage_error("--smem takes a byte count, not '%s'", v);
    o->smem = (uint32_t)s;
    o->smem_set = 1;
  } else {
    if (o->nargs == LAUNCH_MAX_ARGS) return cli_usage_error("too many --arg options (at most %s)", "64");
    c->args[o->nargs++] = v;
  }
  return -1;
}

/* Reads the command line into c.  Returns -1 to go on, else an exit
 * status. */
static int parse_options(int argc, char **argv, SimCmd *c) {
  memset(c, 0, sizeof *c);
  sim_options_init(&c->o);
  c->format = REPORT_TEXT;
  c->o.args = c->args;
  c->o.consts = c->consts;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int st = cli_common_option(argc, argv, &i, &c->o);
    if (st == 0) st = cli_nvcc_option(argc, argv, &i, &c->nvcc);
    if (st >= 2) return st - 2;
    if (st == 1) continue;
    if (!strcmp(a, "--format")) {
      if (cli_format_option("--format", v, REPORT_RUN_FORMATS, &c->format)) return 2;
      i++;
    } else if (!strcmp(a, "--lines")) {
      c->lines = REPORT_LINES_PTX;
    } else if (!strncmp(a, "--lines=", 8)) {
      if (strcmp(a + 8, "source") && strcmp(a + 8, "ptx"))
        return cli_usage_error("--lines= takes source or ptx, not '%s'", a + 8);
      c->lines = strcmp(a + 8, "source") ? REPORT_LINES_PTX : REPORT_LINES_SOURCE;
    } else if (!strcmp(a, "--out") || !strcmp(a, "-o")) {
      if (!v || !*v) return cli_usage_error("%s takes a file name", a);
      c->out = argv[++i];
    } else if (!strcmp(a, "--cooperative")) {
      c->o.cooperative = 1;
    } else if (!strcmp(a, "--nonportable-cluster")) {
      c->o.cluster_nonportable = 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_sim, stdout);
      return 0;
    } else if (!strcmp(a, "--const")) {
      if (!v) return cli_usage_error("%s needs a value", a);
      if (c->o.nconsts == LAUNCH_MAX_ARGS) return cli_usage_error("too many --const options (at most %s)", "64");
      c->consts[c->o.nconsts++] = argv[++i];
    } else if (is_launch_option(a)) {
      if (!v) return cli_usage_error("%s needs a value", a);
      i++;
      if ((st = launch_option(c, a, v)) >= 0) return st;
    } else if (a[0] == '-' && a[1]) {
      return cli_usage_error("unknown option '%s'", a);
    } else if (c->file) {
      return cli_usage_error("one FILE only ('%s' is a second)", a);
    } else {
      c->file = a;
    }
  }
  if (!c->file) return cli_usage_error("%s", "sim needs a FILE (.cu or .ptx)");
  if ((c->o.have_grid || c->o.have_block || c->o.nargs) && !c->o.kernel)
    return cli_usage_error("%s", "--grid, --block and --arg build one launch: name its --kernel");
  return -1;
}

ReportRun cli_report_row(const PtxModule *mod, const LaunchSpec *ls, const SimRun *r, const SimOptions *o) {
  ReportRun row = {.launch = ls->label, .mod = mod, .kernel = r->kernel, .smem = ls->smem, .mm = &r->mm,
                   .thread_instrs = r->thread_instrs, .seconds = r->seconds};
  row.arch = sim_arch(o);
  row.occ = r->have_occ ? &r->occ : NULL;
  row.regs = r->regs;
  row.regs_from = r->regs_from;
  row.occ_note = r->occ_note;
  row.warnings = r->approx;
  row.time = r->have_time ? &r->time : NULL;
  if (r->blocks_run < (uint64_t)ls->grid[0] * ls->grid[1] * ls->grid[2]) row.blocks_run = r->blocks_run;
  memcpy(row.grid, ls->grid, sizeof row.grid);
  memcpy(row.block, ls->block, sizeof row.block);
  return row;
}

/* The report's row for a launch that did not run; `why` is malloc'd and
 * freed by the caller (errors[]). */
static ReportRun report_refusal(const PtxModule *mod, const LaunchSpec *ls, const WmErr *e, char *why) {
  ReportRun row = {.launch = ls->label, .mod = mod, .kernel = cli_named_kernel(mod, ls->name), .smem = ls->smem,
                   .status = report_status_of(e->code), .error = why};
  memcpy(row.grid, ls->grid, sizeof row.grid);
  memcpy(row.block, ls->block, sizeof row.block);
  return row;
}

/* Simulates the n launches in order into runs[] and rep[] (a progress line
 * on a terminal when there are several).  A launch that cannot run is
 * reported in its place (errors[i] its message, malloc'd) and the others
 * run on; *not_run counts them.  A single launch built from the options
 * (`single`) that cannot run, and an error of the options (a configuration
 * the preset cannot model, a bad --const), end the command instead. */
static int run_launches(const PtxModule *mod, const LaunchSpec *ls, int n, const SimCmd *c, int single,
                        SimRun *runs, ReportRun *rep, char **errors, int *not_run) {
  int progress = n > 1 && isatty(2) && c->format == REPORT_TEXT;
  *not_run = 0;
  for (int i = 0; i < n; i++) {
    WmErr e = {0};
    if (progress) fprintf(stderr, "\r[%d/%d] %-40s", i + 1, n, ls[i].label);
    if (sim_run_launch(mod, &ls[i], &c->o, &runs[i], &e) == 0) {
      rep[i] = cli_report_row(mod, &ls[i], &runs[i], &c->o);
      continue;
    }
    if (progress) fprintf(stderr, "\r%60s\r", "");
    if (single || !cli_launch_error(&e)) return wm_err_print(&e); /* the options', not this launch's */
    errors[i] = wm_xstrdup(e.msg);
    rep[i] = report_refusal(mod, &ls[i], &e, errors[i]);
    ++*not_run;
    /* text shows the message in place; JSON and CSV go to files, so say it here too */
    if (c->format != REPORT_TEXT && sim_rank() == 0)
      fprintf(stderr, "warpmem: %s %s: %s\n", ls[i].label, report_status_name[rep[i].status], e.msg);
  }
  if (progress) fprintf(stderr, "\r%60s\r", "");
  return 0;
}

/* The report to --out (opened as `out`) or stdout: 0, or 1 if it could not
 * be written. */
static int write_report(const SimCmd *c, FILE *out, const ReportRun *rep, int n) {
  FILE *f = out ? out : stdout;
  int rc;
  if (c->format == REPORT_HTML) {
    char title[600];
    snprintf(title, sizeof title, "warpmem sim %s", c->file);
    rc = report_html_write(f, rep, n, title, c->lines);
    if (fflush(f)) rc = -1;
  } else {
    rc = report_write(f, rep, n, c->format, c->lines);
  }
  if (rc) fprintf(stderr, "warpmem: cannot write the report%s%s\n", c->out ? " to " : "", c->out ? c->out : "");
  return rc ? 1 : 0;
}

/* Opens --out (rank 0 alone under mpirun); *f NULL without it.  Returns -1
 * to go on, else an exit status. */
static int open_out(const SimCmd *c, FILE **f) {
  *f = NULL;
  if (!c->out) return -1;
  *f = fopen(sim_rank() ? "/dev/null" : c->out, "w");
  if (*f) return -1;
  fprintf(stderr, "warpmem: --out %s: cannot write: %s\n", c->out, strerror(errno));
  return 1;
}

/* `warpmem sim`, or `warpmem check` when tools is not 0 (check_cmd.c). */
static int sim_or_check(int argc, char **argv, unsigned tools, CliCheckFn *check) {
  SimCmd c;
  int status = parse_options(argc, argv, &c);
  if (status >= 0) return status;
  if (tools && (c.format == REPORT_CSV || c.format == REPORT_NCU_CSV || c.format == REPORT_HTML))
    return cli_usage_error("check writes text or json, not %s",
                           c.format == REPORT_CSV ? "csv" : c.format == REPORT_HTML ? "html" : "ncu-csv");
  if (tools && c.out) return cli_usage_error("%s", "check writes to stdout: no --out");
  FILE *out;
  if ((status = open_out(&c, &out)) >= 0) return status;
  char rank_dir[4200]; /* under mpirun, rank 0 writes --dump; the others only to check them (tests) */
  if (sim_rank() && c.o.dump_dir) {
    snprintf(rank_dir, sizeof rank_dir, "%s.rank%d", c.o.dump_dir, sim_rank());
    c.o.dump_dir = getenv("WARPMEM_MPI_DUMP_ALL") ? rank_dir : NULL;
  }
  WmErr e = {0};
  PtxModule *mod = ptx_load_with(c.file, arch_ptx_target(), c.nvcc.flag, c.nvcc.n, &e);
  if (!mod) {
    if (out) fclose(out);
    return wm_err_print(&e);
  }
  LaunchSpec *ls = NULL;
  int n = 0, not_run = 0;
  if (collect_launches(c.file, mod, &c.o, &ls, &n, &e)) {
    ptx_module_free(mod);
    if (out) fclose(out);
    return wm_err_print(&e);
  }
  if (c.o.regs == 0) find_registers(mod, ls, n, sim_arch(&c.o));
  ptx_contractions(mod, sim_arch(&c.o)->cc); /* the fmas ptxas makes: outputs as the GPU's */
  SimRun *runs = wm_xcalloc((size_t)n, sizeof *runs);
  ReportRun *rep = wm_xcalloc((size_t)n, sizeof *rep);
  char **errors = wm_xcalloc((size_t)n, sizeof *errors);
  int single = c.o.kernel && (c.o.have_grid || c.o.have_block || c.o.nargs);
  if (tools) status = check(mod, ls, n, &c.o, tools, c.format == REPORT_JSON, c.file);
  else status = run_launches(mod, ls, n, &c, single, runs, rep, errors, &not_run);
  if (status == 0 && !tools) status = write_report(&c, out, rep, n);
  if (out && fclose(out) && status == 0) {
    fprintf(stderr, "warpmem: --out %s: %s\n", c.out, strerror(errno));
    status = 1;
  }
  if (status == 0 && not_run) {
    if (sim_rank() == 0) fprintf(stderr, "warpmem: %d of %d launches did not run (refused or failed; reported in place)\n", not_run, n);
    status = CLI_EXIT_SOME_NOT_RUN;
  }
  for (int i = 0; i < n; i++) {
    sim_run_free(&runs[i]);
    free(errors[i]);
  }
  free(errors);
  free(runs);
  free(rep);
  free(ls);
  ptx_module_free(mod);
  return status;
}

int cli_sim_cmd(int argc, char **argv) { return sim_or_check(argc, argv, 0, NULL); }
int cli_sim_check(int argc, char **argv, unsigned tools, CliCheckFn *run) {
  return sim_or_check(argc, argv, tools, run);
}
