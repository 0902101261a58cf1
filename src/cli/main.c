/* main.c - the warpmem command line: picks the subcommand.
 *
 * The only place that prints errors and picks exit statuses:
 *   0 success, 1 a run failed (bad PTX, nvcc, a fault in the one launch
 *   asked for, ...), 2 usage, 3 no GPU (gpu), 4 some launches of a file were
 *   refused or failed and the others were reported (cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/gpu_cmd.h"
#include "sim/sim_mpi.h"

static const char *usage_main =
  "usage: warpmem COMMAND [OPTIONS]\n"
  "\n"
  "Shows what a GPU's memory system does with a CUDA kernel: runs the kernel's\n"
  "PTX on the CPU, 32 lanes per warp, and reports the counters Nsight Compute\n"
  "would report on the GPU (sm_90, Hopper), per kernel and per source line.\n"
  "\n"
  "commands:\n"
  "  sim FILE [...]   simulate kernels of a .cu or .ptx file (warpmem sim --help)\n"
  "  run APP [...]    run a CUDA application, every launch simulated (warpmem run --help)\n"
  "  check FILE [...] find races, uninitialized reads, barrier misuse, bad accesses\n"
  "                   in the kernels of a .cu or .ptx file (warpmem check --help)\n"
  "  lab [...]        run the experiment catalogue (warpmem lab --help)\n"
  "  arch [NAME]      the GPU presets, or every fact of one (warpmem arch --help)\n"
  "  occupancy ...    blocks per SM and what limits them (warpmem occupancy --help)\n"
  "  gpu [...]        run and time kernels on a GPU (warpmem gpu --help)\n"
  "  isa [OPCODE]     the PTX instructions warpmem runs (warpmem isa --help)\n"
  "  help             this text\n"
  "  version          the version\n"
  "\n"
  "exit status: 0 ok, 1 an error, 2 usage, 3 no GPU (gpu), 4 some launches of a\n"
  "file were refused or failed while the others ran and were reported, 5 check\n"
  "found errors.\n";

static int command(int argc, char **argv);

/* Under mpirun with several ranks, every rank runs the command: `sim`
 * shards each launch's blocks over them (sim_mpi.h), `run` the launches of
 * the application that each rank runs; the commands that do not simulate
 * run alike on each, rank 0's output shown. */
int main(int argc, char **argv) {
  WmErr e = {0};
  const char *cmd = argc > 1 ? argv[1] : "";
  if (!strcmp(cmd, "run") && sim_mpi_env_rank() >= 0) {
    /* the application's runtime joins the ranks (src/rt); rank 0 speaks */
    if (sim_mpi_env_rank() > 0 && !freopen("/dev/null", "w", stdout)) return 1;
    return command(argc, argv);
  }
  int nranks = sim_mpi_start(&e);
  if (nranks < 0) return sim_mpi_stop(wm_err_print(&e));
  if (nranks > 1 && (!strcmp(cmd, "lab") || !strcmp(cmd, "gpu"))) {
    fprintf(stderr, "warpmem: `warpmem %s` does not run under mpirun yet (only `warpmem sim` is sharded over "
            "MPI ranks: docs/mpi.md); run it as one process\n", cmd);
    return sim_mpi_stop(1);
  }
  return sim_mpi_stop(command(argc, argv));
}

static int command(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_main, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
    fputs(usage_main, stdout);
    return 0;
  }
  if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
    puts("warpmem 0.1");
    return 0;
  }
  if (!strcmp(cmd, "sim")) return cli_sim_cmd(argc, argv);
  if (!strcmp(cmd, "check")) return cli_check_cmd(argc, argv);
  if (!strcmp(cmd, "run")) return cli_run_cmd(argc, argv);
  if (!strcmp(cmd, "arch")) return cli_arch_cmd(argc, argv);
  if (!strcmp(cmd, "occupancy")) return cli_occupancy_cmd(argc, argv);
  if (!strcmp(cmd, "lab")) return cli_lab_cmd(argc, argv);
  if (!strcmp(cmd, "gpu")) return cli_gpu(argc, argv);
  if (!strcmp(cmd, "isa")) return cli_isa_cmd(argc, argv);
  return cli_usage_error("unknown command '%s'", cmd);
}
