/* bench_sim.c - how fast the simulator runs: every launch of the
 * ground-truth file (groundtruth/seed_kernels.cu, its PTX in
 * groundtruth/ptx/), with the memory model on (and the caches, DRAM and
 * time model unless --no-caches).
 * Reports simulated thread-instructions per second per launch and the wall
 * time of the whole file.
 *
 *   build/bench_sim [--only NAME] [--no-caches] [PTX CU]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "arch/arch.h"
#include "util/sys.h"

#ifndef WM_GROUNDTRUTH_DIR
#define WM_GROUNDTRUTH_DIR "groundtruth"
#endif

int main(int argc, char **argv) {
  const char *only = NULL, *ptx = WM_GROUNDTRUTH_DIR "/ptx/seed_kernels.ptx",
             *cu = WM_GROUNDTRUTH_DIR "/seed_kernels.cu";
  int pos = 0, caches = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--no-caches")) caches = 0;
    else if (pos == 0) ptx = argv[i], pos++;
    else cu = argv[i];
  }
  WmErr e = {0};
  PtxModule *mod = ptx_load(ptx, arch_ptx_target(), &e);
  LaunchSpec *ls = NULL;
  int n = 0;
  if (!mod || launch_read_file(cu, &ls, &n, &e)) {
    fprintf(stderr, "bench_sim: %s\n", e.msg);
    return 1;
  }
  SimOptions o;
  sim_options_init(&o);
  o.init = INIT_ZERO;
  o.cfg.caches = caches;
  double total = 0, t0 = wm_now();
  uint64_t tinstr = 0;
  printf("%-22s %14s %9s %12s\n", "launch", "thread-instr", "seconds", "Minstr/s");
  for (int i = 0; i < n; i++) {
    if (only && strcmp(only, ls[i].label) && strcmp(only, ls[i].name)) continue;
    SimRun r;
    double s = wm_now();
    if (sim_run_launch(mod, &ls[i], &o, &r, &e)) {
      fprintf(stderr, "bench_sim: %s\n", e.msg);
      return 1;
    }
    double w = wm_now() - s; /* bind (buffer fill) + simulation */
    printf("%-22s %14llu %9.3f %12.1f\n", ls[i].label, (unsigned long long)r.thread_instrs, r.seconds,
           r.seconds > 0 ? (double)r.thread_instrs / r.seconds / 1e6 : 0.0);
    fflush(stdout);
    total += w;
    tinstr += r.thread_instrs;
    sim_run_free(&r);
  }
  double wall = wm_now() - t0;
  printf("\ntotal: %llu thread-instructions, %.1f s wall (%.1f s in launches), %.1f M thread-instr/s overall\n",
         (unsigned long long)tinstr, wall, total, (double)tinstr / wall / 1e6);
  free(ls);
  ptx_module_free(mod);
  return 0;
}
