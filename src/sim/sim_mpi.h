/* sim_mpi.h - `mpirun -np N warpmem sim ...`: every rank runs the same
 * command, and each launch's blocks are sharded over the ranks (sim_mpi.c,
 * docs/mpi.md).  The result equals one process's.  Built with MPI when
 * CMake finds it (WARPMEM_MPI); without, started by mpirun with several
 * ranks, sim_mpi_start says so and fails. */
#ifndef WM_SIM_MPI_H
#define WM_SIM_MPI_H

#include "util/diag.h"

/* Started by mpirun (Open MPI's OMPI_COMM_WORLD_SIZE, or PMIx's PMIX_RANK)
 * with more than one rank: initializes MPI, sends the stdout of every rank
 * but 0 to /dev/null and prefixes its stderr lines with the rank, and sets
 * the sharded runner (sim_set_runner).  Otherwise does nothing (MPI is
 * never initialized in a single process).  Returns the number of ranks
 * (1: a single process), or -1 with a message. */
int sim_mpi_start(WmErr *e);

/* This process's rank when mpirun started it with several ranks (from the
 * environment; MPI is not initialized), else -1.  `warpmem run` under
 * mpirun: the command does not initialize MPI, the application it starts
 * does (its stand-in runtime, src/rt), and the command of every rank but 0
 * is silent. */
int sim_mpi_env_rank(void);

/* Ends the run: every rank returns the highest exit status of all ranks,
 * after MPI_Finalize.  A single process: status. */
int sim_mpi_stop(int status);

#endif
