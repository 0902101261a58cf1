/* lab_cmd.c - `warpmem lab`: its options; the lab itself is src/lab. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lab/lab.h"

#ifndef WM_LAB_DIR
#define WM_LAB_DIR "lab"
#endif

static const char *usage_lab =
  "usage: warpmem lab [--only NAME[,NAME...]]... [--list] [--format text|markdown|json|csv|html]\n"
  "                   [--out DIR] [--ncu] [--no-gpu] [--no-time] [--progress] [--budget S]\n"
  "                   [--device N] [--dir DIR] [--groundtruth]\n"
  "\n"
  "Runs the catalogue: every experiment of the seed documents as CUDA kernels\n"
  "(lab/*.cu, their PTX in lab/ptx/; docs/lab.md).  Each launch is simulated at\n"
  "its simulation size (the //@ line) and, when a GPU is present, run there too:\n"
  "outputs compared with the emulator's at the simulation size, time measured at\n"
  "the GPU size (the //! gpu: line, sized to leave the L2).  One table per group:\n"
  "simulated counters per request, predicted time, the seed's speedup and, on a\n"
  "GPU, measured time, bandwidth, % of the copy bandwidth or of cuBLAS, speedup\n"
  "over the experiment's first launch, and whether the outputs match.\n"
  "\n"
  "  --only NAME     a group, experiment, launch label or kernel name; repeatable\n"
  "  --list          list the catalogue and exit\n"
  "  --format FMT    text (default), markdown, json, csv or html (one self-contained\n"
  "                  page: charts of predicted and measured times, a picture of\n"
  "                  one warp's access per memory instruction; docs/lab.md)\n"
  "  --out DIR       also write DIR/results.json, DIR/results.md and DIR/results.html\n"
  "  --ncu           with a GPU and ncu on PATH: profile the simulated launches with\n"
  "                  Nsight Compute and print simulated vs measured counters\n"
  "  --no-gpu        simulate only, even if a GPU is present\n"
  "  --no-time       on a GPU, check the outputs but time nothing (kernels that\n"
  "                  append or accumulate may not run twice on the same buffers)\n"
  "  --progress      progress on stderr even when it is not a terminal\n"
  "  --budget S      seconds per timing series, cold or hot (default 0.5)\n"
  "  --device N      the GPU (default 0)\n"
  "  --dir DIR       the catalogue (default: lab/ of the source tree, or\n"
  "                  $WARPMEM_LAB_DIR)\n"
  "  --groundtruth   the simulator against the H200's Nsight Compute counters for\n"
  "                  the measured kernels instead: groundtruth/seed_kernels.cu and\n"
  "                  h200-seed-counters.csv of the source tree, or of\n"
  "                  $WARPMEM_GROUNDTRUTH_DIR; takes --only, --list and --format\n"
  "  --arch NAME     the preset simulated (default h200)\n"
  CLI_WATCH_USAGE
  "\n"
  "A launch the simulator refuses (an instruction it does not run), that\n"
  "faults or that the watchdog stops is reported in its place (text and\n"
  "markdown: a '!' line with the located message; JSON and CSV: status and\n"
  "error) and the others run.\n"
  "exit status: 0 ok, 1 an error, 2 usage, 4 some launches refused or failed.\n";

/* ---- options ---------------------------------------------------------------- */

/* --only A,B,C: each name kept (pointers into argv, commas cut). */
static int add_only(LabOptions *o, char *list) {
  for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (o->nonly == (int)(sizeof o->only / sizeof *o->only)) return -1;
    o->only[o->nonly++] = t;
  }
  return 0;
}

static void record_command(LabOptions *o, int argc, char **argv) {
  size_t n = 0;
  n += (size_t)snprintf(o->command, sizeof o->command, "warpmem");
  for (int i = 1; i < argc && n < sizeof o->command; i++)
    n += (size_t)snprintf(o->command + n, sizeof o->command - n, " %s", argv[i]);
}

/* Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, LabOptions *o) {
  memset(o, 0, sizeof *o);
  sim_options_init(&o->sim);
  gpu_measure_defaults(&o->mc);
  o->dir = getenv("WARPMEM_LAB_DIR");
  if (!o->dir) o->dir = WM_LAB_DIR;
  o->format = LAB_TEXT;
  record_command(o, argc, argv);
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_lab, stdout);
      return 0;
    }
    if (!strcmp(a, "--format")) {
      if (cli_format_option("lab --format", v, REPORT_LAB_FORMATS, &o->format)) return 2;
      i++;
    } else if (!strcmp(a, "--only")) {
      if (!v) return cli_usage_error("%s needs a name", a);
      if (add_only(o, argv[++i])) return cli_usage_error("too many --only names (at most %s)", "64");
    } else if (!strcmp(a, "--out") || !strcmp(a, "--dir")) {
      if (!v) return cli_usage_error("%s needs a folder", a);
      *(!strcmp(a, "--out") ? &o->out_dir : &o->dir) = argv[++i];
    } else if (!strcmp(a, "--budget")) {
      char *end;
      double b = v ? strtod(v, &end) : 0;
      if (!v || end == v || *end || b <= 0 || b > 600)
        return cli_usage_error("--budget takes seconds per series, such as 0.5, not '%s'", v ? v : "");
      o->mc.budget_s = b;
      i++;
    } else if (!strcmp(a, "--device")) {
      char *end;
      long d = v ? strtol(v, &end, 10) : -1;
      if (!v || end == v || *end || d < 0 || d > 64) return cli_usage_error("--device takes a GPU number, not '%s'", v ? v : "");
      o->device = (int)d;
      i++;
    } else if (!strcmp(a, "--list")) {
      o->list = 1;
    } else if (!strcmp(a, "--groundtruth")) {
      o->groundtruth = 1;
    } else if (!strcmp(a, "--ncu")) {
      o->ncu = 1;
    } else if (!strcmp(a, "--ncu-child")) {
      o->ncu_child = 1;
    } else if (!strcmp(a, "--ncu-launches")) { /* the parent's, for the child */
      if (!v) return cli_usage_error("%s needs a list of launch numbers", a);
      o->ncu_launches = argv[++i];
    } else if (!strcmp(a, "--no-gpu")) {
      o->no_gpu = 1;
    } else if (!strcmp(a, "--no-time")) {
      o->no_time = 1;
    } else if (!strcmp(a, "--progress")) {
      o->progress = 1;
    } else {
      int c = cli_common_option(argc, argv, &i, &o->sim);
      if (c >= 2) return c - 2;
      if (c == 0) {
        fprintf(stderr, "warpmem: lab: unknown option '%s' (see warpmem lab --help)\n", a);
        return 2;
      }
    }
  }
  if (o->groundtruth && o->format == LAB_HTML)
    return cli_usage_error("lab --groundtruth takes --format text, markdown, json or csv, not '%s'", "html");
  if (!o->progress) o->progress = isatty(2);
  return -1;
}


int cli_lab_cmd(int argc, char **argv) {
  LabOptions o;
  int st = parse_options(argc, argv, &o);
  if (st >= 0) return st;
  return lab_run(&o);
}
