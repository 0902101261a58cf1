/* emu_shard.c - who runs which blocks of a launch: the run order
 * (sampling), the host threads, and the processes of a launch sharded over
 * several (EmuShard, emu.h; the transport is the sim layer's,
 * src/sim/sim_mpi.c), and which kernels cannot be sharded exactly.
 *
 * Notes:
 *  - The run order is launch order, but for kernels whose blocks cannot
 *    wait for each other, traced for the caches, an SM's blocks of a wave
 *    run in a row (emu_run_set; block_of in emu_grid.c), so that the cache
 *    replay interleaves them as the SM does without holding a wave.
 *  - Blocks are dealt in chunks of consecutive blocks of the run order, in
 *    turn: chunk c to process c % nproc.  A chunk is a multiple of the cache
 *    replay's group, so the blocks replayed together always come from one
 *    process, and the host threads' chunk (emu_grid.c), so that each
 *    process hands its threads its own chunks.
 *  - Sharding is exact when no block reads what another block writes
 *    during the launch: each process then writes what one process would,
 *    and the sim layer merges what each changed.  Blocks that may
 *    communicate (global atomics, volatile or acquire/release accesses:
 *    flags and spin loops, the device heap, a cooperative grid) and printf
 *    (its order across blocks) make a kernel unsafe: it runs on rank 0.
 */
#include <stdio.h>

#include "emu/emu_exec.h"
#include "mem/cache.h"

/* Whether every sampled wave is a whole number of the replay's waves (or
 * the launch is not sampled), so that an SM's blocks of a wave all run. */
int emu_whole_waves(const EmuLaunch *l) {
  const CacheConfig *k = &l->cache->cfg;
  return l->sample_every <= 1 || !l->sample_wave || l->sample_wave % ((uint64_t)k->sms * (uint64_t)k->blocks_per_sm) == 0;
}

uint32_t emu_run_set(const EmuLaunch *l) {
  if (!l->cache || !l->mm || l->cooperative || l->check || l->cluster[0]) return 0; /* a cluster's blocks run in a row */
  int r = replay_coresident(l->cache, (uint64_t)l->grid[0] * l->grid[1] * l->grid[2]);
  char why[8];
  if (!r || r > EMU_GROUP_MAX || !emu_whole_waves(l) || emu_shard_unsafe(l->kernel, 0, why, sizeof why)) return 0;
  return (uint32_t)r;
}

uint64_t emu_shard_chunk(const EmuLaunch *l) {
  uint64_t group = emu_run_set(l);
  if (!group) group = (uint64_t)(l->cache ? replay_group(l->cache) : 1);
  if (group < 1 || group > EMU_GROUP_MAX) group = 1;
  return group * (EMU_CHUNK_MAX / group);
}

uint64_t emu_shard_count(const EmuShard *sh, uint64_t n) {
  if (sh->chunk >= n) return sh->rank == 0 ? n : 0;
  uint64_t span = sh->chunk * (uint64_t)sh->nproc, rest = n % span, mine = (uint64_t)sh->rank * sh->chunk;
  uint64_t tail = rest > mine ? rest - mine : 0;
  return n / span * sh->chunk + (tail < sh->chunk ? tail : sh->chunk);
}

uint64_t emu_shard_block(const EmuShard *sh, uint64_t q) {
  if (!sh) return q;
  return q / sh->chunk * sh->chunk * (uint64_t)sh->nproc + (uint64_t)sh->rank * sh->chunk + q % sh->chunk;
}

int emu_shard_owner(const EmuShard *sh, uint64_t j) { return (int)(j / sh->chunk % (uint64_t)sh->nproc); }

static int global_space(int space) { return space == PTX_S_GLOBAL || space == PTX_S_GENERIC || space == PTX_S_NONE; }

int emu_shard_unsafe(const PtxKernel *k, int cooperative, char *why, size_t n) {
  if (cooperative) return snprintf(why, n, "a cooperative launch (its blocks wait for each other)"), 1;
  if (k->cluster_dims[0]) return snprintf(why, n, "a cluster launch (a cluster's blocks run together)"), 1;
  for (int c = 0; c < k->ncalls; c++) {
    int callee = k->calls[c].callee;
    if (callee == PTX_CALL_MALLOC || callee == PTX_CALL_FREE || callee == PTX_CALL_ALIGNED_MALLOC)
      return snprintf(why, n, "it calls malloc or free (one device heap, allocated in block order)"), 1;
    if (callee == PTX_CALL_VPRINTF) return snprintf(why, n, "it calls printf (its text is in block order)"), 1;
  }
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    int mem = in->op == PTX_OP_LD || in->op == PTX_OP_ST;
    if ((in->op == PTX_OP_ATOM || in->op == PTX_OP_RED) && global_space(in->space))
      return snprintf(why, n, "it has global atomics (PTX line %u): blocks of different ranks could update "
                      "the same words", in->ptx_line), 1;
    if (in->op == PTX_OP_CPREDUCE_BULK_TENSOR || (in->op == PTX_OP_CPREDUCE_BULK && in->space == PTX_S_GLOBAL))
      return snprintf(why, n, "it has TMA reductions into global memory (PTX line %u): blocks of different ranks "
                      "could update the same words", in->ptx_line), 1;
    if (in->op == PTX_OP_CPASYNC_BULK_TENSOR || in->op == PTX_OP_CPASYNC_BULK)
      return snprintf(why, n, "it has TMA or bulk copies (PTX line %u): their times depend on the lines blocks of "
                      "earlier waves, on every rank, fetched (emu_clock.c)", in->ptx_line), 1;
    if (mem && (in->flags & PTX_IF_VOLATILE) && global_space(in->space))
      return snprintf(why, n, "it has volatile or acquire/release global accesses (PTX line %u): blocks may "
                      "wait for each other's writes", in->ptx_line), 1;
  }
  return 0;
}
