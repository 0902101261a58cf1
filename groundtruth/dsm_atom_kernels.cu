// dsm_atom_kernels.cu - issue 33: how the H200 counts atomics on
// distributed shared memory when a warp's lanes meet at one address, spread
// over several peers, or mix the block's own memory and a peer's.
// tests/corpus/cluster_dsm.cu's cluster_histogram (random bins over a
// 4-block cluster) read 2657 sectors where the model counted 2411 (the
// distinct sectors of each peer its lanes update) and took 256 shared
// atomic wavefronts where it counted 404; these launches vary one thing at
// a time so that the rule can be read off.  Rank 0's one warp does 64
// atomics of a pattern; the model's predictions are committed before the
// GPU runs these.
//! nvcc: -arch=sm_90a
#include <cstdint>

//! group: dsm_atom
//! title: atomics on distributed shared memory: address conflicts, several peers, own and peer lanes
//! exp: dsm_atom_pattern
//! title: 64 atomicAdds of one warp of rank 0 (generic pointers from mapa, as cooperative groups make them), by pattern
//@ dsm_atom#distinct grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:0,i32:0,i32:64
//@ dsm_atom#same grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:1,i32:0,i32:64
//@ dsm_atom#pairs grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:2,i32:0,i32:64
//@ dsm_atom#sector4 grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:3,i32:0,i32:64
//@ dsm_atom#two_peers grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:4,i32:0,i32:64
//@ dsm_atom#two_peers_same grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:5,i32:0,i32:64
//@ dsm_atom#own_peer grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:6,i32:0,i32:64
//@ dsm_atom#four grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:7,i32:0,i32:64
//@ dsm_atom#own grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:8,i32:0,i32:64
//@ dsm_atom#mixed grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:9,i32:0,i32:64
//! exp: dsm_atom_form
//! title: the same patterns as red.shared::cluster (no result) and atom.shared::cluster (its result used)
//@ dsm_atom#same_red grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:1,i32:1,i32:64
//@ dsm_atom#pairs_red grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:2,i32:1,i32:64
//@ dsm_atom#two_peers_red grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:4,i32:1,i32:64
//@ dsm_atom#own_peer_red grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:6,i32:1,i32:64
//@ dsm_atom#same_atom grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:1,i32:2,i32:64
//@ dsm_atom#own_peer_atom grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:6,i32:2,i32:64
//@ dsm_atom#mixed_atom grid=4 block=32 cluster=4 args=buf:u32:257:zero,i32:9,i32:2,i32:64

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Lane l's target: a rank of the cluster and a word of its 64 bins.
__device__ __forceinline__ void target(int pattern, unsigned l, unsigned *rank, unsigned *word) {
  switch (pattern) {
  case 0: *rank = 1, *word = l; break;                      // one peer, 32 words: 4 sectors
  case 1: *rank = 1, *word = 0; break;                      // one peer, one address
  case 2: *rank = 1, *word = l / 2; break;                  // one peer, 2 lanes an address (2 sectors)
  case 3: *rank = 1, *word = (l % 4) * 8; break;            // one peer, 4 addresses in 4 sectors, 8 lanes each
  case 4: *rank = 1 + l % 2, *word = l / 2; break;          // two peers, 16 words each (2 sectors each)
  case 5: *rank = 1 + l % 2, *word = 0; break;              // two peers, one address each
  case 6: *rank = l % 2, *word = l / 2; break;              // own (rank 0) and one peer, 16 words each
  case 7: *rank = l % 4, *word = l / 4; break;              // all four blocks, 8 words each
  case 8: *rank = 0, *word = l; break;                      // own memory only, through shared::cluster
  default: *rank = (l * 5) % 4, *word = (l * 13) % 16; break; // a histogram's mix: all four, collisions
  }
}

// form 0: atomicAdd on the generic pointer of the peer's word (the result
// unused, as cluster_histogram's); 1: red.shared::cluster.add; 2:
// atom.shared::cluster.add, its results summed into out.
extern "C" __global__ void __cluster_dims__(4, 1, 1) dsm_atom(uint32_t *out, int pattern, int form, int n) {
  __shared__ unsigned bins[64];
  const unsigned lane = threadIdx.x;
  bins[lane] = 0;
  bins[lane + 32] = 0;
  cluster_sync();
  if (cluster_rank() == 0) {
    unsigned rank, word, sum = 0;
    target(pattern, lane, &rank, &word);
    uint32_t local = (uint32_t)__cvta_generic_to_shared(&bins[word]), remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
    unsigned *generic;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(generic) : "l"(&bins[word]), "r"(rank));
    for (int i = 0; i < n; i++) {
      if (form == 0) atomicAdd(generic, 1u);
      else if (form == 1) asm volatile("red.shared::cluster.add.u32 [%0], 1;" ::"r"(remote) : "memory");
      else {
        unsigned old;
        asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(remote) : "memory");
        sum += old;
      }
    }
    if (form == 2) atomicAdd(&out[256], sum);
  }
  cluster_sync();
  out[64 * cluster_rank() + lane] = bins[lane];
  out[64 * cluster_rank() + lane + 32] = bins[lane + 32];
}
