/* emu_cluster.c - clusters (sm_90): the blocks of a cluster, their
 * barrier (barrier.cluster) and the distributed shared memory they see each
 * other's shared memory through.
 *
 * Notes:
 *  - A launch without a cluster dimension runs every block as a cluster of
 *    one (Block.cluster NULL, rank 0): its shared::cluster window is its own
 *    shared memory, its cluster barrier its own (Block.cl_arrived, cl_phase).
 *  - A cluster launch runs a cluster's blocks together on one host thread
 *    (emu_grid.c, run_together), their warps interleaved pass by pass, so a
 *    block may wait for a peer (barrier.cluster, a remote mbarrier arrival)
 *    and read its shared memory while it runs.
 *  - Ranks: %cluster_ctarank is x + y * X + z * X * Y of the block's place
 *    in its cluster (PTX ISA, special registers %cluster_ctarank and
 *    %cluster_ctaid); clusters are numbered the same way in the grid.
 *  - barrier.cluster (PTX ISA, barrier.cluster): .arrive marks the thread's
 *    arrival, .wait waits until every non-exited thread of the cluster has
 *    arrived; a thread arrives, then waits, in turn.  Arrivals count
 *    threads; a thread that arrived and exits before its wait is taken out
 *    again (it is no longer a non-exited thread).  A warp waits as a whole.
 *  - A block's shared memory lives only while the block runs: the PTX ISA
 *    (distributed shared memory) requires a block not to exit while others
 *    may still access its shared memory, so an access to an exited peer's
 *    is a located fault.
 *  - Addresses: emu_exec.h (EMU_DSM_SHIFT).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_exec.h"

void emu_cluster_dims(const EmuLaunch *l, uint32_t d[3]) {
  for (int i = 0; i < 3; i++) d[i] = l->cluster[i] ? l->cluster[i] : 1;
}

uint32_t emu_cluster_size(const EmuLaunch *l) {
  uint32_t d[3];
  emu_cluster_dims(l, d);
  return d[0] * d[1] * d[2];
}

uint64_t emu_cluster_block(const EmuLaunch *l, uint64_t place) {
  uint32_t d[3];
  emu_cluster_dims(l, d);
  uint64_t n = (uint64_t)d[0] * d[1] * d[2], q = place / n, r = place % n;
  uint64_t ncx = l->grid[0] / d[0], ncy = l->grid[1] / d[1];
  uint64_t x = q % ncx * d[0] + r % d[0], y = q / ncx % ncy * d[1] + r / d[0] % d[1];
  uint64_t z = q / (ncx * ncy) * d[2] + r / ((uint64_t)d[0] * d[1]);
  return x + (uint64_t)l->grid[0] * (y + (uint64_t)l->grid[1] * z);
}

uint64_t emu_cluster_place(const EmuLaunch *l, uint64_t block) {
  uint32_t d[3];
  emu_cluster_dims(l, d);
  uint64_t x = block % l->grid[0], y = block / l->grid[0] % l->grid[1], z = block / ((uint64_t)l->grid[0] * l->grid[1]);
  uint64_t ncx = l->grid[0] / d[0], ncy = l->grid[1] / d[1];
  uint64_t q = x / d[0] + ncx * (y / d[1] + ncy * (z / d[2]));
  uint64_t r = x % d[0] + d[0] * (y % d[1] + (uint64_t)d[1] * (z % d[2]));
  return q * ((uint64_t)d[0] * d[1] * d[2]) + r;
}

Block *emu_cluster_peer(Block *b, uint32_t rank) {
  if (!b->cluster) return rank == b->crank ? b : NULL;
  return rank < b->cluster->n ? b->cluster->blocks[rank] : NULL;
}

static uint32_t cluster_blocks(const Block *b) { return b->cluster ? b->cluster->n : 1; }

/* Whether every thread of b has exited (its shared memory is gone). */
static int block_exited(const Block *b) { return b->exited_threads >= b->nthreads; }

int emu_dsm_locate(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a, unsigned size, Block **owner,
                   uint32_t *off) {
  uint32_t a32 = (uint32_t)a, tag = a32 >> EMU_DSM_SHIFT, o = a32 & EMU_DSM_OFF_MASK;
  Block *ob = tag ? emu_cluster_peer(b, tag - 1) : b;
  uint32_t n = cluster_blocks(b);
  if (!ob)
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "shared::cluster address 0x%x names block rank %u of the cluster, which has %u block%s "
                     "(ranks 0 to %u)", a32, tag - 1, n, n == 1 ? "" : "s", n - 1);
  /* The PTX ISA leaves an access to an exited peer's shared memory
   * undefined; on the H200 it does no harm (fast.cu's kernels 8-12 arrive
   * on an exited peer's mbarriers at their end and pass their checks), so
   * a run goes on (the cluster keeps its blocks' memory until all exit)
   * and `warpmem check` reports it. */
  if (ob != b && block_exited(ob) && b->chk)
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "shared::cluster access at offset 0x%x of block rank %u of the cluster, which has exited: its "
                     "shared memory is gone (the PTX ISA requires a block to stay until its peers' accesses to "
                     "its shared memory are done: a cluster barrier before it exits)", o, ob->crank);
  if ((uint64_t)o + size > ob->shared_size)
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "out-of-bounds shared::cluster access of %u bytes at offset 0x%x of block rank %u: it has %u "
                     "bytes of shared memory", size, o, ob->crank, ob->shared_size);
  *owner = ob;
  *off = o;
  return 0;
}

/* --- barrier.cluster --- */

/* The cluster's barrier state: arrived threads and completed phases. */
static uint32_t *arrived_of(Block *b) { return b->cluster ? &b->cluster->arrived : &b->cl_arrived; }
static uint32_t *phase_of(Block *b) { return b->cluster ? &b->cluster->phase : &b->cl_phase; }
/* ... and in the warps' clock (emu_clock.c): the open phase's latest
 * arrival, and when the last phase completed, which its waiters wait for */
static uint64_t *arrive_now_of(Block *b) { return b->cluster ? &b->cluster->arrive_now : &b->cl_arrive_now; }
static uint64_t *release_now_of(Block *b) { return b->cluster ? &b->cluster->release_now : &b->cl_release_now; }

static void wait_for_release(Block *b, Warp *w) {
  if (*release_now_of(b) > w->now) w->now = *release_now_of(b);
}

/* Threads of the cluster that have not exited. */
static uint32_t live_threads(const Block *b) {
  if (!b->cluster) return b->nthreads - b->exited_threads;
  uint32_t n = 0;
  for (uint32_t r = 0; r < b->cluster->n; r++) n += b->cluster->blocks[r]->nthreads - b->cluster->blocks[r]->exited_threads;
  return n;
}

int emu_cluster_arrive(Block *b, int wi, const EmuInstr *x, uint32_t eff) {
  Warp *w = &b->warps[wi];
  if (w->cl_mask & eff)
    return emu_fault(b, x, wi, __builtin_ctz(w->cl_mask & eff), WM_EFAULT,
                     "barrier.cluster.arrive by a thread that arrived already and has not waited "
                     "(barrier.cluster.wait): the PTX ISA makes each thread arrive, then wait, in turn");
  if (!(x->aux & PTX_BC_RELAXED)) emu_clock_release(w); /* its release: a memory barrier at cluster scope */
  *arrived_of(b) += popc32(eff);
  if (w->now > *arrive_now_of(b)) *arrive_now_of(b) = w->now;
  w->cl_mask |= eff;
  w->cl_phase = *phase_of(b);
  return 0;
}

int emu_cluster_wait(Block *b, int wi, const EmuInstr *x, uint32_t eff) {
  Warp *w = &b->warps[wi];
  if (~w->cl_mask & eff)
    return emu_fault(b, x, wi, __builtin_ctz(~w->cl_mask & eff), WM_EFAULT,
                     "barrier.cluster.wait by a thread that has not arrived (barrier.cluster.arrive) since its "
                     "last wait: the PTX ISA makes each thread arrive, then wait, in turn");
  w->cl_mask &= ~eff;
  if (w->cl_phase != *phase_of(b)) { /* the phase it arrived in is complete (the last one: it has not arrived since) */
    wait_for_release(b, w);
    return 0;
  }
  SimtEntry *top = &w->stack[w->sp - 1];
  w->state = W_WAIT;
  w->bar_id = EMU_BAR_CLUSTER;
  w->bar_pc = top->pc;
  return 1;
}

void emu_cluster_exit(Block *b, int wi, uint32_t lanes) {
  Warp *w = &b->warps[wi];
  uint32_t gone = w->cl_mask & lanes;
  if (!gone) return;
  *arrived_of(b) -= popc32(gone);
  w->cl_mask &= ~gone;
}

int emu_cluster_release(Block *b) {
  uint32_t *arrived = arrived_of(b);
  if (!*arrived || *arrived < live_threads(b)) return 0;
  *arrived = 0;
  ++*phase_of(b);
  *release_now_of(b) = *arrive_now_of(b);
  *arrive_now_of(b) = 0;
  for (uint32_t r = 0; r < cluster_blocks(b); r++) {
    Block *p = emu_cluster_peer(b, r);
    for (uint32_t w = 0; w < p->nwarps; w++)
      if (p->warps[w].state == W_WAIT && p->warps[w].bar_id == EMU_BAR_CLUSTER) {
        p->warps[w].state = W_READY;
        wait_for_release(p, &p->warps[w]);
      }
  }
  return 1;
}

void emu_cluster_describe(Block *b, char *buf, size_t n) {
  uint32_t blocks = cluster_blocks(b);
  snprintf(buf, n, "%u of the %u live threads of the cluster (%u block%s) arrived", *arrived_of(b),
           live_threads(b), blocks, blocks == 1 ? "" : "s");
}

/* --- the launch --- */

#define PORTABLE_CLUSTER 8 /* blocks a cluster may have on sm_90 unless non-portable sizes are allowed (CUDA
                              Programming Guide, thread block clusters; cudaFuncAttributeNonPortableClusterSizeAllowed) */

/* "(x,y,z)" of d into buf. */
static const char *dims_str(const uint32_t d[3], char *buf, size_t n) {
  snprintf(buf, n, "(%u,%u,%u)", d[0], d[1], d[2]);
  return buf;
}

int emu_cluster_resolve(EmuLaunch *l, const Arch *a, WmErr *e) {
  const PtxKernel *k = l->kernel;
  char s1[48], s2[48];
  int given = l->cluster[0] || l->cluster[1] || l->cluster[2];
  if (given && (!l->cluster[0] || !l->cluster[1] || !l->cluster[2]))
    return wm_err(e, WM_ELIMIT, "kernel %s: cluster %s: every dimension of a cluster must be positive "
                  "(cudaErrorInvalidClusterSize)", k->name, dims_str(l->cluster, s1, sizeof s1));
  if (k->cluster_dims[0]) {
    if (given && memcmp(l->cluster, k->cluster_dims, sizeof l->cluster))
      return wm_err(e, WM_ELIMIT, "kernel %s was compiled with cluster %s (__cluster_dims__, .reqnctapercluster): "
                    "a launch with cluster %s fails with cudaErrorInvalidClusterSize", k->name,
                    dims_str(k->cluster_dims, s1, sizeof s1), dims_str(l->cluster, s2, sizeof s2));
    memcpy(l->cluster, k->cluster_dims, sizeof l->cluster);
    given = 1;
  }
  if (!given) {
    if (k->explicit_cluster)
      return wm_err(e, WM_ELIMIT, "kernel %s must be launched with a cluster dimension (.explicitcluster): "
                    "without one the launch fails with cudaErrorInvalidClusterSize", k->name);
    return 0; /* clusters of one */
  }
  uint32_t n = l->cluster[0] * l->cluster[1] * l->cluster[2], most = l->cluster_nonportable ? EMU_CLUSTER_MAX
                                                                                             : PORTABLE_CLUSTER;
  if (a->cc < 90)
    return wm_err(e, WM_ELIMIT, "kernel %s: cluster %s: %s (sm_%d) has no thread block clusters; they need sm_90 "
                  "or later", k->name, dims_str(l->cluster, s1, sizeof s1), a->name, a->cc);
  if (l->cluster[0] > EMU_CLUSTER_MAX || l->cluster[1] > EMU_CLUSTER_MAX || l->cluster[2] > EMU_CLUSTER_MAX ||
      n > most)
    return wm_err(e, WM_ELIMIT, "kernel %s: cluster %s has %llu blocks; at most %u are allowed%s "
                  "(cudaErrorInvalidClusterSize)", k->name, dims_str(l->cluster, s1, sizeof s1),
                  (unsigned long long)l->cluster[0] * l->cluster[1] * l->cluster[2], most,
                  l->cluster_nonportable ? " on sm_90"
                                         : " (8, portable; 16 with cudaFuncAttributeNonPortableClusterSizeAllowed)");
  if (k->max_cluster_rank && n > k->max_cluster_rank)
    return wm_err(e, WM_ELIMIT, "kernel %s allows at most %u blocks a cluster (.maxclusterrank): cluster %s has %u "
                  "(cudaErrorInvalidClusterSize)", k->name, k->max_cluster_rank, dims_str(l->cluster, s1, sizeof s1), n);
  for (int i = 0; i < 3; i++)
    if (l->grid[i] % l->cluster[i])
      return wm_err(e, WM_ELIMIT, "kernel %s: grid %s is not a whole number of clusters %s in %c "
                    "(cudaErrorInvalidClusterSize)", k->name, dims_str(l->grid, s1, sizeof s1),
                    dims_str(l->cluster, s2, sizeof s2), "xyz"[i]);
  if (l->cooperative)
    return wm_err(e, WM_EUNSUP, "kernel %s: a cooperative launch with clusters %s is not supported by warpmem",
                  k->name, dims_str(l->cluster, s1, sizeof s1));
  return 0;
}
