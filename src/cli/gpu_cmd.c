/* gpu_cmd.c - `warpmem gpu`: device info, copy bandwidth, cuBLAS SGEMM, and
 * timed launches of a file's //@ lines, checked against the emulator. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gpu_cmd.h"
#include "arch/arch.h"
#include "launch/launch.h"
#include "gpu/gpu.h"
#include "report/report.h"

static const char *usage_gpu =
  "usage: warpmem gpu info|bandwidth|sgemm|run [OPTIONS]\n"
  "\n"
  "Runs on the GPU through the CUDA driver (libcuda.so.1, loaded at run time).\n"
  "  info                  the device: name, SMs, clocks, L2, memory\n"
  "  bandwidth [--size B]  device-to-device copy and float4-copy kernel bandwidth\n"
  "                        (default 1 GiB; read + written bytes, 1 GB = 1e9 B)\n"
  "  sgemm [--n N]         cuBLAS SGEMM N x N x N (default 4096): time and GFLOP/s\n"
  "  run FILE [--only NAME]... [--bytes B] [--flops F] [--check [--exact]] [--no-time]\n"
  "                        each //@ launch of FILE (.cu or .ptx; --only: a label or\n"
  "                        kernel name), from the PTX the simulator runs: cold (L2\n"
  "                        flushed) and hot (back-to-back) times; --bytes/--flops\n"
  "                        give the rates (default bytes: every buffer argument's\n"
  "                        size once); --check runs the launch in the emulator too\n"
  "                        and compares the output buffers (floats within a few\n"
  "                        ulp; --exact: equal values, bit for bit but for\n"
  "                        zero's sign and NaN payloads)\n"
  "\n"
  "  --budget S            seconds per series of samples (default 0.5)\n"
  "  --device N            the GPU (default 0)\n"
  "  --format text|json\n"
  CLI_NVCC_USAGE
  "  --init KIND, --seed N buffer initialization, as for sim\n"
  "  WARPMEM_LIBCUDA, WARPMEM_LIBCUBLAS  other library names or paths\n"
  "\n"
  "exit status: 0 ok, 1 an error (the file, the GPU), 2 usage, 3 no GPU (driver,\n"
  "device or cuBLAS), 4 some launches of FILE were refused or failed: each is\n"
  "reported in its place (JSON: status and error) and the others ran.\n";

typedef struct GpuCmd {
  const char *sub, *file;
  const char *only[64];
  int nonly;
  double bytes, flops;
  uint64_t size;
  int n, device, check, exact, no_time, json;
  GpuMeasureConfig mc;
  SimOptions o;       /* --init, --seed and the emulator's options for --check */
  CliNvcc nvcc;       /* -I, -D, -std, --nvcc-flag for a .cu */
} GpuCmd;

static int fail_gpu(const WmErr *e) {
  fprintf(stderr, "warpmem: %s\n", e->msg);
  if (e->code == WM_ENOGPU) return CLI_EXIT_NO_GPU;
  return e->code == WM_EUSAGE ? 2 : 1;
}

static int parse_double(const char *s, double *v) {
  char *end;
  *v = strtod(s, &end);
  return end == s || *end || *v < 0 ? -1 : 0;
}

/* ---- output -------------------------------------------------------------- */

static json_t *stats_json(const GpuStats *s) {
  return json_pack("{s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:i, s:s}", "samples", s->n, "discarded",
                   s->discarded, "median_s", s->median_s, "min_s", s->min_s, "mean_s", s->mean_s, "noise",
                   s->noise, "clock_mhz", s->clock_mhz, "clock_min_mhz", s->clock_min_mhz, "spent_s", s->spent_s,
                   "batch", s->batch, "stop", gpu_stop_reason_name(s->stop));
}

static json_t *timing_json(const GpuTiming *t) {
  json_t *j = json_pack("{s:f, s:f, s:f}", "bytes", t->bytes, "flops", t->flops, "max_clock_mhz",
                        t->max_clock_mhz);
  if (t->cold.n) {
    json_object_set_new(j, "cold", stats_json(&t->cold));
    json_object_set_new(j, "cold_gbps", json_real(t->cold_gbps));
    json_object_set_new(j, "cold_gflops", json_real(t->cold_gflops));
  }
  if (t->hot.n) {
    json_object_set_new(j, "hot", stats_json(&t->hot));
    json_object_set_new(j, "hot_gbps", json_real(t->hot_gbps));
    json_object_set_new(j, "hot_gflops", json_real(t->hot_gflops));
  }
  return j;
}

static void print_stats(const char *what, const GpuStats *s, double bytes, double flops) {
  printf("  %-5s median %10.4f ms  min %10.4f ms  noise %5.2f%%  n %4d", what, s->median_s * 1e3,
         s->min_s * 1e3, 100 * s->noise, s->n);
  if (bytes > 0) printf("  %8.1f GB/s", bytes / s->median_s / 1e9);
  if (flops > 0) printf("  %9.1f GFLOP/s", flops / s->median_s / 1e9);
  if (s->batch > 1) printf("  batch %d", s->batch);
  if (s->clock_mhz > 0) printf("  SM %4.0f MHz", s->clock_mhz);
  if (s->discarded) printf("  (%d throttled samples dropped)", s->discarded);
  printf("  [stop: %s]\n", gpu_stop_reason_name(s->stop));
}

static void print_timing(const GpuTiming *t) {
  if (t->cold.n) print_stats("cold", &t->cold, t->bytes, t->flops);
  if (t->hot.n) print_stats("hot", &t->hot, t->bytes, t->flops);
}

static json_t *info_json(const GpuInfo *in) {
  char cc[16];
  snprintf(cc, sizeof cc, "sm_%d%d", in->cc_major, in->cc_minor);
  return json_pack("{s:s, s:i, s:i, s:s, s:i, s:f, s:f, s:i, s:i, s:i, s:i, s:I}", "name", in->name, "ordinal",
                   in->ordinal, "driver_version", in->driver_version, "compute_capability", cc, "sms", in->sms,
                   "max_clock_mhz", in->clock_khz / 1e3, "mem_clock_mhz", in->mem_clock_khz / 1e3,
                   "bus_width_bits", in->bus_width_bits, "l2_bytes", in->l2_bytes, "smem_per_block_optin",
                   in->smem_per_block_optin, "smem_per_sm", in->smem_per_sm, "total_mem",
                   (json_int_t)in->total_mem);
}

static void print_info(const GpuInfo *in) {
  printf("%s (device %d), compute capability %d.%d, driver %d.%d\n", in->name, in->ordinal, in->cc_major,
         in->cc_minor, in->driver_version / 1000, in->driver_version % 1000 / 10);
  printf("  %d SMs, SM clock up to %.0f MHz, memory clock %.0f MHz, %d-bit bus\n", in->sms,
         in->clock_khz / 1e3, in->mem_clock_khz / 1e3, in->bus_width_bits);
  printf("  L2 %.1f MiB, shared memory %d KiB per SM (%d KiB per block opt-in), %d registers per SM\n",
         in->l2_bytes / 1048576.0, in->smem_per_sm / 1024, in->smem_per_block_optin / 1024, in->regs_per_sm);
  printf("  %.1f GiB of memory, %d threads per SM\n", (double)in->total_mem / (1ull << 30),
         in->max_threads_per_sm);
}

static int emit_json(json_t *j) {
  int rc = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(6)) ? 1 : 0;
  putchar('\n');
  json_decref(j);
  return rc;
}

/* ---- subcommands --------------------------------------------------------- */

static int do_info(Gpu *g, const GpuCmd *c) {
  const GpuInfo *in = gpu_info(g);
  if (!c->json) {
    print_info(in);
    return 0;
  }
  return emit_json(info_json(in));
}

static int do_bandwidth(Gpu *g, const GpuCmd *c) {
  GpuBandwidth b;
  WmErr e = {0};
  if (gpu_copy_bandwidth(g, c->size, &c->mc, &b, &e)) return fail_gpu(&e);
  if (c->json)
    return emit_json(json_pack("{s:s, s:f, s:o, s:f, s:o, s:f}", "device", gpu_info(g)->name, "bytes", b.bytes,
                               "d2d", stats_json(&b.d2d), "d2d_gbps", b.d2d_gbps, "vec4", stats_json(&b.vec4),
                               "vec4_gbps", b.vec4_gbps));
  printf("%s: copy of %.0f MiB (%.3f GB read + written)\n", gpu_info(g)->name, b.bytes / 2 / 1048576, b.bytes / 1e9);
  printf("device-to-device cuMemcpyDtoD: %.1f GB/s\n", b.d2d_gbps);
  print_stats("d2d", &b.d2d, b.bytes, 0);
  printf("float4 copy kernel (wm_copy4): %.1f GB/s\n", b.vec4_gbps);
  print_stats("vec4", &b.vec4, b.bytes, 0);
  return 0;
}

static int do_sgemm(Gpu *g, const GpuCmd *c) {
  GpuTiming t;
  WmErr e = {0};
  if (gpu_cublas_sgemm_time(g, c->n, &c->mc, &t, &e)) return fail_gpu(&e);
  if (c->json) {
    json_t *j = timing_json(&t);
    json_object_set_new(j, "n", json_integer(c->n));
    json_object_set_new(j, "device", json_string(gpu_info(g)->name));
    return emit_json(j);
  }
  printf("%s: cuBLAS SGEMM %d x %d x %d (column-major, FP32): %.3f ms, %.1f GFLOP/s (hot median)\n",
         gpu_info(g)->name, c->n, c->n, c->n, t.hot.median_s * 1e3, t.hot_gflops);
  print_timing(&t);
  return 0;
}

/* //@ launches of FILE, or of a .ptx's .cu (launch_read_file). */
static int read_launches(const char *path, LaunchSpec **ls, int *n, WmErr *e) {
  if (launch_read_file(path, ls, n, e)) return -1;
  if (*n == 0) return wm_err(e, WM_EUSAGE, "%s has no '//@' launch lines", path);
  return 0;
}

static int selected(const GpuCmd *c, const LaunchSpec *l) {
  if (!c->nonly) return 1;
  for (int i = 0; i < c->nonly; i++)
    if (!strcmp(c->only[i], l->label) || !strcmp(c->only[i], l->name)) return 1;
  return 0;
}

static double buffer_bytes(const GlobalMem *g) {
  double b = 0;
  for (int i = 0; i < g->n; i++) b += (double)g->buf[i].size;
  return b;
}

/* The emulator's run of the same launch, and the comparison. */
static int check_launch(const PtxModule *mod, const LaunchSpec *l, const GpuCmd *c, const GpuLaunch *L,
                        WmErr *e) {
  SimOptions o = c->o;
  o.keep_buffers = 1;
  SimRun run;
  if (sim_run_launch(mod, l, &o, &run, e)) return -1;
  static const GpuTolerance none = {0, 0};
  int rc = gpu_compare_buffers(gpu_launch_buffers(L), &run.gmem, l, c->exact ? &none : NULL, e);
  sim_run_free(&run);
  return rc;
}

/* Prepare, run once, download, [check], [time]. */
static int run_one(Gpu *g, GpuModule *gm, const PtxModule *mod, const LaunchSpec *l, const GpuCmd *c,
                   json_t *arr, WmErr *e) {
  (void)g;
  /* the GPU runs what the emulator refuses; --check then refuses it */
  const PtxKernel *k = cli_named_kernel(mod, l->name);
  if (!k) {
    ptx_find_kernel(mod, l->name, e); /* its message lists the module's kernels */
    return -1;
  }
  GpuLaunch *L;
  if (gpu_launch_prepare(gm, k, l, c->o.init, c->o.seed, &L, e)) return -1;
  int rc = -1;
  GpuKernelAttrs a = {0};
  GpuTiming t = {0};
  double bytes = c->bytes > 0 ? c->bytes : buffer_bytes(gpu_launch_buffers(L));
  if (gpu_launch_attrs(L, &a, e) || gpu_launch_run(L, e) || gpu_launch_download(L, e)) goto out;
  const char *checked = "not checked";
  if (c->check) {
    if (check_launch(mod, l, c, L, e)) goto out;
    checked = c->exact ? "outputs equal to the emulator's, bit for bit" : "outputs equal to the emulator's";
  }
  if (!c->no_time && gpu_launch_measure(L, &c->mc, bytes, c->flops, &t, e)) goto out;
  if (arr) {
    json_t *j = c->no_time ? json_object() : timing_json(&t);
    json_object_set_new(j, "launch", json_string(l->label));
    json_object_set_new(j, "line", json_integer(l->line));
    json_object_set_new(j, "regs", json_integer(a.regs));
    json_object_set_new(j, "local_bytes", json_integer(a.local_bytes));
    json_object_set_new(j, "checked", json_boolean(c->check));
    json_object_set_new(j, "status", json_string("ok"));
    json_array_append_new(arr, j);
  } else {
    printf("%s (line %d): grid %u,%u,%u block %u,%u,%u, %d registers, %d B local; %s\n", l->label, l->line,
           l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], a.regs, a.local_bytes,
           checked);
    if (!c->no_time) {
      printf("  bytes %.0f (%s)%s\n", bytes, c->bytes > 0 ? "--bytes" : "buffer arguments, once each",
             c->flops > 0 ? ", flops from --flops" : "");
      print_timing(&t);
    }
  }
  rc = 0;
out:
  gpu_launch_free(L);
  return rc;
}

/* A launch that could not run or be checked, in its place: a JSON entry
 * with status and error, or a line (and the message on stderr). */
static void report_not_run(const LaunchSpec *l, const WmErr *e, json_t *arr) {
  const char *status = report_status_name[report_status_of(e->code)];
  if (arr) {
    json_array_append_new(arr, json_pack("{s:s, s:i, s:s, s:s}", "launch", l->label, "line", l->line, "status",
                                         status, "error", e->msg));
    fprintf(stderr, "warpmem: %s %s: %s\n", l->label, status, e->msg);
    return;
  }
  printf("%s (line %d): %s: %s\n", l->label, l->line, status, e->msg);
}

static int do_run(Gpu *g, GpuCmd *c) {
  WmErr e = {0};
  PtxModule *mod = ptx_load_with(c->file, arch_ptx_target(), c->nvcc.flag, c->nvcc.n, &e);
  if (!mod) return fail_gpu(&e);
  if (c->check) ptx_contractions(mod, sim_arch(&c->o)->cc); /* the emulator fuses as ptxas did */
  LaunchSpec *ls = NULL;
  int n = 0, status = 0, ran = 0, not_run = 0;
  GpuModule *gm = NULL;
  json_t *arr = c->json ? json_array() : NULL;
  if (read_launches(c->file, &ls, &n, &e) || gpu_module_load(g, mod, &gm, &e)) {
    status = fail_gpu(&e);
    goto out;
  }
  if (!c->json) printf("%s\n", gpu_info(g)->name);
  for (int i = 0; i < n && !status; i++) {
    if (!selected(c, &ls[i])) continue;
    ran++;
    fflush(stdout);
    if (run_one(g, gm, mod, &ls[i], c, arr, &e)) {
      if (!cli_launch_error(&e)) status = fail_gpu(&e); /* the options', not this launch's */
      else not_run++, report_not_run(&ls[i], &e, arr); /* in its place; the others run on */
    }
  }
  if (!status && !ran) {
    wm_err(&e, WM_EUSAGE, "%s: no '//@' launch matches --only", c->file);
    status = fail_gpu(&e);
  }
  if (!status && arr) {
    json_t *j = json_pack("{s:s, s:s, s:O}", "device", gpu_info(g)->name, "file", c->file, "launches", arr);
    status = emit_json(j);
  }
  if (!status && not_run) {
    fprintf(stderr, "warpmem: %d of %d launches did not run (reported in place)\n", not_run, ran);
    status = CLI_EXIT_SOME_NOT_RUN;
  }
out:
  if (arr) json_decref(arr);
  gpu_module_free(gm);
  free(ls);
  ptx_module_free(mod);
  return status;
}

/* ---- options --------------------------------------------------------------- */

static int parse_args(int argc, char **argv, GpuCmd *c) {
  for (int i = 3; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_gpu, stdout);
      return 0;
    }
    if (!strcmp(a, "--check")) { c->check = 1; continue; }
    if (!strcmp(a, "--exact")) { c->check = c->exact = 1; continue; }
    if (!strcmp(a, "--no-time")) { c->no_time = 1; continue; }
    int st = cli_nvcc_option(argc, argv, &i, &c->nvcc);
    if (st >= 2) return st - 2;
    if (st == 1) continue;
    if (a[0] != '-') {
      if (c->file) return cli_usage_error("one FILE only ('%s' is a second)", a);
      c->file = a;
      continue;
    }
    if (!v) return cli_usage_error("%s needs a value", a);
    i++;
    uint64_t u;
    if (!strcmp(a, "--only")) {
      if (c->nonly == 64) return cli_usage_error("too many --only options (at most %s)", "64");
      c->only[c->nonly++] = v;
    } else if (!strcmp(a, "--bytes")) {
      if (parse_double(v, &c->bytes)) return cli_usage_error("--bytes takes a number, not '%s'", v);
    } else if (!strcmp(a, "--flops")) {
      if (parse_double(v, &c->flops)) return cli_usage_error("--flops takes a number, not '%s'", v);
    } else if (!strcmp(a, "--budget")) {
      if (parse_double(v, &c->mc.budget_s) || c->mc.budget_s <= 0)
        return cli_usage_error("--budget takes seconds > 0, not '%s'", v);
    } else if (!strcmp(a, "--size")) {
      if (cli_parse_size(v, &c->size) || c->size < 16) return cli_usage_error("--size takes bytes >= 16, not '%s'", v);
    } else if (!strcmp(a, "--n")) {
      if (cli_parse_size(v, &u) || u < 1 || u > 32768) return cli_usage_error("--n takes 1..32768, not '%s'", v);
      c->n = (int)u;
    } else if (!strcmp(a, "--device")) {
      if (cli_parse_size(v, &u) || u > 1024) return cli_usage_error("--device takes a GPU number, not '%s'", v);
      c->device = (int)u;
    } else if (!strcmp(a, "--format")) {
      if (strcmp(v, "text") && strcmp(v, "json")) return cli_usage_error("--format takes text or json, not '%s'", v);
      c->json = !strcmp(v, "json");
    } else if (!strcmp(a, "--init")) {
      if (!strcmp(v, "zero")) c->o.init = INIT_ZERO;
      else if (!strcmp(v, "iota")) c->o.init = INIT_IOTA;
      else if (!strcmp(v, "rand")) c->o.init = INIT_RAND;
      else return cli_usage_error("--init takes zero, iota or rand, not '%s'", v);
    } else if (!strcmp(a, "--seed")) {
      if (cli_parse_size(v, &c->o.seed)) return cli_usage_error("--seed takes a number, not '%s'", v);
    } else
      return cli_usage_error("unknown option '%s'", a);
  }
  return -1;
}

int cli_gpu(int argc, char **argv) {
  GpuCmd c = {0};
  c.n = 4096;
  gpu_measure_defaults(&c.mc);
  sim_options_init(&c.o);
  if (argc < 3 || !strcmp(argv[2], "-h") || !strcmp(argv[2], "--help")) {
    fputs(usage_gpu, argc < 3 ? stderr : stdout);
    return argc < 3 ? 2 : 0;
  }
  c.sub = argv[2];
  int known = !strcmp(c.sub, "info") || !strcmp(c.sub, "bandwidth") || !strcmp(c.sub, "sgemm") ||
              !strcmp(c.sub, "run");
  if (!known) return cli_usage_error("unknown gpu command '%s' (info, bandwidth, sgemm or run)", c.sub);
  int rc = parse_args(argc, argv, &c);
  if (rc >= 0) return rc;
  if (!strcmp(c.sub, "run") && !c.file) return cli_usage_error("%s", "gpu run needs a FILE (.cu or .ptx)");
  if (strcmp(c.sub, "run") && c.file) return cli_usage_error("unexpected argument '%s'", c.file);
  Gpu *g;
  WmErr e = {0};
  if (gpu_open(c.device, &g, &e)) return fail_gpu(&e);
  if (!strcmp(c.sub, "info")) rc = do_info(g, &c);
  else if (!strcmp(c.sub, "bandwidth")) rc = do_bandwidth(g, &c);
  else if (!strcmp(c.sub, "sgemm")) rc = do_sgemm(g, &c);
  else rc = do_run(g, &c);
  gpu_close(g);
  return rc;
}
