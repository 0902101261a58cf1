/* emu_cluster.c - clusters (sm_90): the blocks of a cluster and the
 * distributed shared memory they see each other's shared memory through.
 *
 * Notes:
 *  - A launch without a cluster dimension runs every block as a cluster of
 *    one (Block.cluster NULL, rank 0): its shared::cluster window is its own
 *    shared memory.
 *  - Addresses: emu_exec.h (EMU_DSM_SHIFT).
 */
#include <inttypes.h>

#include "emu/emu_exec.h"

Block *emu_cluster_peer(Block *b, uint32_t rank) {
  if (!b->cluster) return rank == b->crank ? b : NULL;
  return NULL; /* clusters of several blocks: not yet */
}

int emu_dsm_locate(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a, unsigned size, Block **owner,
                   uint32_t *off) {
  uint32_t a32 = (uint32_t)a, tag = a32 >> EMU_DSM_SHIFT, o = a32 & EMU_DSM_OFF_MASK;
  Block *ob = tag ? emu_cluster_peer(b, tag - 1) : b;
  if (!ob)
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "shared::cluster address 0x%x names block rank %u of the cluster, which has %u block%s", a32,
                     tag - 1, b->cluster ? 0u : 1u, b->cluster ? "s" : "");
  if ((uint64_t)o + size > ob->shared_size)
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "out-of-bounds shared::cluster access of %u bytes at offset 0x%x of block rank %u: it has %u "
                     "bytes of shared memory", size, o, tag ? tag - 1 : b->crank, ob->shared_size);
  *owner = ob;
  *off = o;
  return 0;
}
