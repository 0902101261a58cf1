/* sim_diff.h - what a launch changed in global memory, as runs of changed
 * bytes, so that processes that ran different blocks of one launch can
 * bring each other up to date (sim_mpi.c).  MPI-free. */
#ifndef WM_SIM_DIFF_H
#define WM_SIM_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "emu/gmem.h"

/* A copy of every buffer of a GlobalMem, taken before a launch. */
typedef struct SimSnap {
  int n;
  uint64_t *addr, *size;
  uint8_t **data;
} SimSnap;

void sim_snap_take(const GlobalMem *g, SimSnap *s);
void sim_snap_free(SimSnap *s);

/* The bytes of g's buffers that differ from s (a buffer s lacks, made
 * during the launch, from zeros: gmem_alloc's), as records
 * {u64 address, u64 length, the bytes, zeros to a multiple of 8}, or for a
 * page of scattered changes {u64 address, u64 length | 1 << 63, a bit per
 * byte (changed), the page}: only changed bytes are written, so that the
 * writes of other processes to other bytes of the same words stay.  Returns a malloc'd buffer (NULL when nothing changed)
 * and its length in *len. */
uint8_t *sim_diff_build(const GlobalMem *g, const SimSnap *s, size_t *len);

/* Writes the records of d into g's buffers.  Returns how many records
 * fell outside every buffer (not written; 0 when the processes agree). */
uint64_t sim_diff_apply(GlobalMem *g, const uint8_t *d, size_t len);

#endif
