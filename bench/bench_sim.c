/* bench_sim.c - how fast the simulator runs: every launch of the
 * ground-truth file (groundtruth/seed_kernels.cu, its PTX in
 * groundtruth/ptx/), or of another PTX and launch file.
 *
 *   build/bench_sim [--only NAME] [--no-caches] [--quick] [--functional] [--json FILE] [PTX CU]
 *
 * Reports, on the machine it runs on (its CPUs and load average first):
 *   1. each launch with the whole model (emulation, coalescing and banks,
 *      caches and DRAM, time) on every host thread: thread-instructions,
 *      seconds and the rate; then the total and the overall rate;
 *   2. the share of each stage: the same launches again with the emulation
 *      alone (no memory model), then with the L1 model but no caches; the
 *      differences are what coalescing and banks, and the cache replay,
 *      add (wall and CPU time);
 *   3. scaling: the whole model on 1, 2, ... N host threads (N = the CPUs).
 * --quick stops after 1.  --functional runs 1 with the emulation alone,
 * as `warpmem run` runs a launch it does not profile (issue 35's rate).
 * A thread-instruction is a lane executed: a warp
 * instruction with 32 active lanes counts 32.  Every run must execute the
 * same thread-instructions; the benchmark says so if one does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "arch/arch.h"
#include "sim/sim.h"
#include "util/sys.h"

#ifndef WM_GROUNDTRUTH_DIR
#define WM_GROUNDTRUTH_DIR "groundtruth"
#endif

typedef struct Bench {
  const PtxModule *mod;
  const LaunchSpec *ls;
  int n;
  const char *only;
} Bench;

/* One pass over the launches: wall and CPU seconds, thread-instructions. */
typedef struct Pass {
  double wall, cpu, launch; /* launch: the launches' own seconds (SimRun.seconds), without binding */
  uint64_t instrs;
} Pass;

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
         (double)u.ru_stime.tv_usec * 1e-6;
}

static int selected(const Bench *b, const LaunchSpec *ls) {
  return !b->only || !strcmp(b->only, ls->label) || !strcmp(b->only, ls->name);
}

/* Runs the selected launches with `threads` host threads; prints a line per
 * launch when `table`.  0, or -1 with the error printed. */
static int run_pass(const Bench *b, const SimOptions *o, int threads, int table, FILE *json, Pass *p) {
  char nt[16];
  snprintf(nt, sizeof nt, "%d", threads);
  setenv("WARPMEM_THREADS", nt, 1);
  memset(p, 0, sizeof *p);
  double t0 = wm_now(), c0 = cpu_seconds();
  for (int i = 0; i < b->n; i++) {
    if (!selected(b, &b->ls[i])) continue;
    SimRun r;
    WmErr e = {0};
    if (sim_run_launch(b->mod, &b->ls[i], o, &r, &e)) {
      fprintf(stderr, "bench_sim: %s\n", e.msg);
      return -1;
    }
    if (table) {
      printf("%-22s %14llu %9.3f %10.1f\n", b->ls[i].label, (unsigned long long)r.thread_instrs, r.seconds,
             r.seconds > 0 ? (double)r.thread_instrs / r.seconds / 1e6 : 0.0);
      fflush(stdout);
    }
    if (json)
      fprintf(json, "%s{\"launch\": \"%s\", \"thread_instructions\": %llu, \"seconds\": %.6f}",
              p->instrs ? ",\n    " : "    ", b->ls[i].label, (unsigned long long)r.thread_instrs, r.seconds);
    p->instrs += r.thread_instrs;
    p->launch += r.seconds;
    sim_run_free(&r);
  }
  p->wall = wm_now() - t0;
  p->cpu = cpu_seconds() - c0;
  return 0;
}

static double rate(const Pass *p) { return p->wall > 0 ? (double)p->instrs / p->wall / 1e6 : 0; }

static void print_load(void) {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) < 0) load[0] = load[1] = load[2] = -1;
  printf("machine: %ld CPUs online; load average %.2f %.2f %.2f (before the run)\n", sysconf(_SC_NPROCESSORS_ONLN),
         load[0], load[1], load[2]);
}

/* Part 2: emulation alone, then the L1 model, then everything. */
static int stages(const Bench *b, const SimOptions *base, int threads, const Pass *full, FILE *json) {
  SimOptions o = *base;
  Pass emu, l1;
  o.functional = 1;
  if (run_pass(b, &o, threads, 0, NULL, &emu)) return -1;
  o.functional = 0;
  o.cfg.caches = 0;
  if (run_pass(b, &o, threads, 0, NULL, &l1)) return -1;
  if (emu.instrs != full->instrs || l1.instrs != full->instrs)
    printf("warning: the passes executed different thread-instructions (%llu, %llu, %llu)\n",
           (unsigned long long)emu.instrs, (unsigned long long)l1.instrs, (unsigned long long)full->instrs);
  printf("\nstage (%d threads)                      wall s   share    CPU s   share\n", threads);
  const char *name[3] = {"emulation (no memory model)", "+ coalescing and shared banks (L1)",
                         "+ cache replay (L1, L2, DRAM, time)"};
  double w[3] = {emu.wall, l1.wall - emu.wall, full->wall - l1.wall};
  double c[3] = {emu.cpu, l1.cpu - emu.cpu, full->cpu - l1.cpu};
  for (int i = 0; i < 3; i++)
    printf("%-38s %7.2f %6.1f%% %8.2f %6.1f%%\n", name[i], w[i], 100 * w[i] / full->wall, c[i],
           100 * c[i] / full->cpu);
  printf("%-38s %7.2f %6.1f%% %8.2f %6.1f%%\n", "whole model", full->wall, 100.0, full->cpu, 100.0);
  if (json)
    fprintf(json, ",\n  \"stages\": {\"threads\": %d, \"emulation\": {\"wall\": %.3f, \"cpu\": %.3f}, "
            "\"l1\": {\"wall\": %.3f, \"cpu\": %.3f}, \"full\": {\"wall\": %.3f, \"cpu\": %.3f}}",
            threads, emu.wall, emu.cpu, l1.wall, l1.cpu, full->wall, full->cpu);
  return 0;
}

/* Part 3: the whole model on 1 .. n threads. */
static int scaling(const Bench *b, const SimOptions *o, int n, const Pass *full, FILE *json) {
  printf("\nhost threads   wall s    CPU s   M thread-instr/s   speed-up\n");
  double one = 0;
  if (json) fprintf(json, ",\n  \"scaling\": [");
  for (int t = 1; t <= n; t++) {
    Pass p;
    if (t == n) p = *full;
    else if (run_pass(b, o, t, 0, NULL, &p)) return -1;
    if (t == 1) one = p.wall;
    printf("%12d %8.2f %8.2f %18.1f %9.2fx\n", t, p.wall, p.cpu, rate(&p), one / p.wall);
    if (json) fprintf(json, "%s{\"threads\": %d, \"wall\": %.3f, \"cpu\": %.3f}", t > 1 ? ", " : "", t, p.wall, p.cpu);
  }
  if (json) fprintf(json, "]");
  return 0;
}

int main(int argc, char **argv) {
  const char *ptx = WM_GROUNDTRUTH_DIR "/ptx/seed_kernels.ptx", *cu = WM_GROUNDTRUTH_DIR "/seed_kernels.cu";
  const char *json_path = NULL;
  Bench b = {0};
  int pos = 0, caches = 1, quick = 0, functional = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--only") && i + 1 < argc) b.only = argv[++i];
    else if (!strcmp(argv[i], "--no-caches")) caches = 0;
    else if (!strcmp(argv[i], "--quick")) quick = 1;
    else if (!strcmp(argv[i], "--functional")) functional = quick = 1;
    else if (!strcmp(argv[i], "--json") && i + 1 < argc) json_path = argv[++i];
    else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: bench_sim [--only NAME] [--no-caches] [--quick] [--functional] [--json FILE] [PTX CU]\n");
      return 2;
    } else if (pos++ == 0) ptx = argv[i];
    else cu = argv[i];
  }
  const char *env = getenv("WARPMEM_THREADS");
  int threads = env ? atoi(env) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  WmErr e = {0};
  PtxModule *mod = ptx_load(ptx, arch_ptx_target(), &e);
  LaunchSpec *ls = NULL;
  if (!mod || launch_read_file(cu, &ls, &b.n, &e)) {
    fprintf(stderr, "bench_sim: %s\n", e.msg);
    return 1;
  }
  b.mod = mod;
  b.ls = ls;
  FILE *json = json_path ? fopen(json_path, "w") : NULL;
  if (json_path && !json) {
    perror(json_path);
    return 1;
  }
  SimOptions o;
  sim_options_init(&o);
  o.init = INIT_ZERO;
  o.cfg.caches = caches;
  o.functional = functional;
  print_load();
  printf("%s: %s%s on %d host threads\n\n", cu, functional ? "the emulation alone" : "the whole model",
         caches || functional ? "" : " without caches", threads);
  printf("%-22s %14s %9s %10s\n", "launch", "thread-instr", "seconds", "Minstr/s");
  if (json) fprintf(json, "{\n  \"threads\": %d, \"caches\": %d, \"functional\": %d,\n  \"launches\": [\n", threads, caches,
                    functional);
  Pass full;
  int rc = run_pass(&b, &o, threads, 1, json, &full);
  if (json) fprintf(json, "\n  ]");
  if (!rc) {
    printf("\ntotal: %llu thread-instructions in %.2f s wall (%.2f s CPU), %.1f M thread-instr/s overall\n",
           (unsigned long long)full.instrs, full.wall, full.cpu, rate(&full));
    printf("  of which the launches %.2f s (%.1f M thread-instr/s); binding buffers and building the model %.2f s\n",
           full.launch, full.launch > 0 ? (double)full.instrs / full.launch / 1e6 : 0.0, full.wall - full.launch);
    if (json)
      fprintf(json, ",\n  \"total\": {\"thread_instructions\": %llu, \"wall\": %.3f, \"cpu\": %.3f, \"launches\": %.3f}",
              (unsigned long long)full.instrs, full.wall, full.cpu, full.launch);
    if (!quick && caches) rc = stages(&b, &o, threads, &full, json);
    if (!quick && !rc) rc = scaling(&b, &o, threads, &full, json);
  }
  if (json) {
    fprintf(json, "\n}\n");
    fclose(json);
  }
  free(ls);
  ptx_module_free(mod);
  return rc ? 1 : 0;
}
