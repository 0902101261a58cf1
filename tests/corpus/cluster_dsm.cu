// cluster_dsm.cu - thread block clusters and distributed shared memory as
// Hopper code writes them: __cluster_dims__ and launches with a cluster
// attribute, cooperative_groups::this_cluster() (map_shared_rank, sync,
// block_rank), and the raw PTX of CUTLASS-style code (mapa,
// ld/st.shared::cluster, remote mbarrier arrivals): a 2- and a 4-block
// cluster reduction, a histogram in distributed shared memory with remote
// atomics, a ring exchange with remote mbarrier arrivals, the cluster
// special registers of a 3-D cluster, the probes of the DSM counters, and
// four wrong kernels for the located errors.  Outputs and counters:
// tests/test_corpus_cluster.c.
#include <cooperative_groups.h>
#include <stdint.h>

namespace cg = cooperative_groups;

//! group: cluster_dsm
//! title: thread block clusters and distributed shared memory (sm_90)
//! exp: cluster_sum2
//! title: a 2-block cluster reduction through distributed shared memory
//@ cluster_sum2 grid=8 block=256 args=buf:f32:2048:iota,buf:f32:4:zero
//! exp: cluster_sum4
//! title: a 4-block cluster reduction (the cluster from the launch)
//@ cluster_sum4 grid=8 block=256 cluster=4 args=buf:f32:2048:iota,buf:f32:2:zero
//! exp: cluster_histogram
//! title: a 256-bin histogram spread over a 4-block cluster, remote atomics
//@ cluster_histogram grid=8 block=128 args=buf:u32:5000:rand,buf:u32:512:zero,i32:5000
//! exp: cluster_ring
//! title: a ring exchange with remote mbarrier arrivals
//@ cluster_ring grid=8 block=64 cluster=4 args=buf:f32:512:iota,buf:f32:512:zero
//! exp: cluster_regs
//! title: the cluster special registers of a 3-D cluster
//@ cluster_regs grid=4,2,2 block=32 cluster=2,2,2 args=buf:u32:320:zero

// Each block sums its BLOCK elements (a shared-memory tree); after
// cluster.sync() rank 0 adds every block's sum, read from that block's
// shared memory, and writes the cluster's; the second cluster.sync() keeps
// each block (and its shared memory) alive until rank 0 has read it.
template <int BLOCK>
__device__ void cluster_sum_body(const float *in, float *out) {
  __shared__ float part[BLOCK];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  cluster.sync();
  if (cluster.block_rank() == 0 && t == 0) {
    float sum = 0.0f;
    for (unsigned r = 0; r < cluster.num_blocks(); r++) sum += *cluster.map_shared_rank(&part[0], r);
    out[blockIdx.x / cluster.num_blocks()] = sum;
  }
  cluster.sync();
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_sum2(const float *in, float *out) {
  cluster_sum_body<256>(in, out);
}

extern "C" __global__ void cluster_sum4(const float *in, float *out) { cluster_sum_body<256>(in, out); }

// 256 bins over the cluster's 4 blocks, 64 in each one's shared memory:
// a thread adds each of its elements to the bin's owner with atomicAdd
// through map_shared_rank (red.shared::cluster); after cluster.sync() each
// block writes its bins into its cluster's histogram.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_histogram(const unsigned *in, unsigned *hist, int n) {
  __shared__ unsigned bins[64];
  cg::cluster_group cluster = cg::this_cluster();
  for (int i = threadIdx.x; i < 64; i += blockDim.x) bins[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned v = in[i] & 255;
    unsigned *bin = cluster.map_shared_rank(bins, v / 64);
    atomicAdd(bin + v % 64, 1u);
  }
  cluster.sync();
  for (int i = threadIdx.x; i < 64; i += blockDim.x)
    hist[blockIdx.x / 4 * 256 + cluster.block_rank() * 64 + i] = bins[i];
}

// The raw PTX of a ring: each block's warp 0 stores 32 values into the next
// rank's shared memory (mapa + st.shared::cluster), then lane 0 arrives on
// that block's mbarrier (mbarrier.arrive.release.cluster.shared::cluster);
// every block waits on its own mbarrier, then writes what it received.
__device__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ uint32_t peer_addr(uint32_t a, uint32_t rank) {
  uint32_t d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(rank));
  return d;
}

extern "C" __global__ void cluster_ring(const float *in, float *out) {
  __shared__ float slot[32];
  __shared__ __align__(8) uint64_t full;
  uint32_t rank, nranks;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nranks));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&full)));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;");
  uint32_t next = (rank + 1) % nranks;
  if (threadIdx.x < 32) {
    float v = in[blockIdx.x * 32 + threadIdx.x] * 2.0f;
    asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(peer_addr(smem_addr(&slot[threadIdx.x]), next)), "f"(v));
    __syncwarp();
    if (threadIdx.x == 0)
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(peer_addr(smem_addr(&full), next)));
  }
  uint32_t done = 0;
  while (!done)
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(smem_addr(&full)));
  if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = slot[threadIdx.x];
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;");
}

// One thread a block writes the cluster registers: 20 words per block.
__device__ uint32_t sreg(int i) {
  uint32_t v = 0;
  switch (i) {
  case 0: asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
  case 1: asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v)); break;
  case 2: asm("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(v)); break;
  case 3: asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v)); break;
  case 4: asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v)); break;
  case 5: asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v)); break;
  case 6: asm("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
  case 7: asm("mov.u32 %0, %%clusterid.y;" : "=r"(v)); break;
  case 8: asm("mov.u32 %0, %%clusterid.z;" : "=r"(v)); break;
  case 9: asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
  case 10: asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v)); break;
  case 11: asm("mov.u32 %0, %%nclusterid.z;" : "=r"(v)); break;
  case 12: asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); break;
  case 13: asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); break;
  case 14: asm("{\n\t.reg .pred e;\n\tmov.pred e, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, e;\n\t}" : "=r"(v)); break;
  }
  return v;
}

extern "C" __global__ void cluster_regs(unsigned *out) {
  cg::cluster_group cluster = cg::this_cluster();
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (threadIdx.x < 15) out[b * 20 + threadIdx.x] = sreg(threadIdx.x);
  if (threadIdx.x == 15) out[b * 20 + 15] = cluster.block_rank();
  if (threadIdx.x == 16) out[b * 20 + 16] = cluster.block_index().x + 10 * cluster.block_index().y + 100 * cluster.block_index().z;
  if (threadIdx.x == 17) out[b * 20 + 17] = cluster.num_blocks();
  if (threadIdx.x == 18) out[b * 20 + 18] = b;
  if (threadIdx.x == 19) {
    uint32_t r;
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(peer_addr(0, cluster.num_blocks() - 1 - cluster.block_rank())));
    out[b * 20 + 19] = r;
  }
}

// --- probes of the distributed shared memory counters (docs/clusters.md) ---
// Each: 2-block clusters, 4 warps a block, 16 accesses a warp to the shared
// memory of the block of rank `to` (the peer, or its own through mapa), lane
// l at word l * STRIDE; which of these Nsight Compute counts as dshared,
// and how, is measured on the H200 (docs/clusters.md).  The loads and
// stores are volatile: ptxas hoists a plain ld.shared::cluster out of the
// loop (the H200 counted 1 load a warp where 16 were meant).
//! exp: dsm_ld_peer
//! title: probe: ld.shared::cluster.f32 of the peer, consecutive words
//@ dsm_ld_peer cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_ld_own
//! title: probe: ld.shared::cluster.f32 of the block's own memory through mapa
//@ dsm_ld_own cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_ld_cta
//! title: probe: ld.shared::cluster.f32 through a shared::cta address (no mapa)
//@ dsm_ld_cta cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_ld_v4_peer
//! title: probe: ld.shared::cluster.v4.f32 of the peer
//@ dsm_ld_v4_peer cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_ld_strided_peer
//! title: probe: ld.shared::cluster.f32 of the peer, lanes 8 words apart
//@ dsm_ld_strided_peer cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_st_peer
//! title: probe: st.shared::cluster.f32 to the peer
//@ dsm_st_peer cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_atom_peer
//! title: probe: atom.shared::cluster.add.u32 on the peer (result used)
//@ dsm_atom_peer cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_red_peer
//! title: probe: red.shared::cluster.add.u32 on the peer
//@ dsm_red_peer cluster=2 grid=8 block=128 args=buf:f32:1024:zero
//! exp: dsm_generic_peer
//! title: probe: a generic ld of the peer's memory (map_shared_rank's pointer)
//@ dsm_generic_peer cluster=2 grid=8 block=128 args=buf:f32:1024:zero
enum { PROBE_LD, PROBE_LD_V4, PROBE_ST, PROBE_ATOM, PROBE_RED, PROBE_GENERIC };

template <int OP, int STRIDE, int OWN>
__device__ void dsm_probe(float *out, bool cta_address = false) {
  __shared__ __align__(16) float words[32 * 8 * 4];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned t = threadIdx.x, lane = t % 32;
  for (unsigned i = t; i < 32 * 8 * 4; i += blockDim.x) words[i] = (float)i;
  cluster.sync();
  unsigned to = OWN ? cluster.block_rank() : cluster.block_rank() ^ 1;
  uint32_t a = smem_addr(&words[lane * STRIDE]), p = cta_address ? a : peer_addr(a, to);
  float acc = 0.0f;
#pragma unroll 1
  for (int k = 0; k < 16; k++) {
    if (OP == PROBE_LD) {
      float v;
      asm volatile("ld.volatile.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(p));
      acc += v;
    } else if (OP == PROBE_LD_V4) {
      float x, y, z, w;
      asm volatile("ld.volatile.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "r"(p));
      acc += x + y + z + w;
    } else if (OP == PROBE_ST) {
      asm volatile("st.volatile.shared::cluster.f32 [%0], %1;" ::"r"(p), "f"((float)k));
    } else if (OP == PROBE_ATOM) {
      uint32_t old;
      asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(p));
      acc += (float)(old < 0x80000000u); // the result used, the same in any order
    } else if (OP == PROBE_RED) {
      asm volatile("red.shared::cluster.add.u32 [%0], 1;" ::"r"(p));
    } else {
      volatile float *g = cluster.map_shared_rank(&words[lane * STRIDE], to);
      acc += *g;
    }
  }
  cluster.sync();
  out[blockIdx.x * blockDim.x + t] = acc;
}

extern "C" __global__ void dsm_ld_peer(float *out) { dsm_probe<PROBE_LD, 1, 0>(out); }
extern "C" __global__ void dsm_ld_own(float *out) { dsm_probe<PROBE_LD, 1, 1>(out); }
extern "C" __global__ void dsm_ld_cta(float *out) { dsm_probe<PROBE_LD, 1, 1>(out, true); }
extern "C" __global__ void dsm_ld_v4_peer(float *out) { dsm_probe<PROBE_LD_V4, 4, 0>(out); }
extern "C" __global__ void dsm_ld_strided_peer(float *out) { dsm_probe<PROBE_LD, 8, 0>(out); }
extern "C" __global__ void dsm_st_peer(float *out) { dsm_probe<PROBE_ST, 1, 0>(out); }
extern "C" __global__ void dsm_atom_peer(float *out) { dsm_probe<PROBE_ATOM, 1, 0>(out); }
extern "C" __global__ void dsm_red_peer(float *out) { dsm_probe<PROBE_RED, 1, 0>(out); }
extern "C" __global__ void dsm_generic_peer(float *out) { dsm_probe<PROBE_GENERIC, 1, 0>(out); }

// --- wrong kernels: each fails with a located error (no //@ line; the
// test launches them) ---

// mapa to a rank the cluster does not have (a cluster of 2).
extern "C" __global__ void __cluster_dims__(2, 1, 1) mapa_beyond(float *out) {
  __shared__ float s[32];
  s[threadIdx.x] = 1.0f;
  uint32_t p = peer_addr(smem_addr(&s[threadIdx.x]), 5);
  float v;
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(p));
  out[threadIdx.x] = v;
}

// Rank 1 arrives at the cluster barrier and exits without waiting; rank 0
// waits, then reads rank 1's shared memory, which is gone.
extern "C" __global__ void __cluster_dims__(2, 1, 1) read_after_exit(float *out) {
  __shared__ float s[32];
  cg::cluster_group cluster = cg::this_cluster();
  s[threadIdx.x] = (float)threadIdx.x;
  asm volatile("barrier.cluster.arrive.release.aligned;");
  if (cluster.block_rank() == 1) return;
  asm volatile("barrier.cluster.wait.acquire.aligned;");
  out[threadIdx.x] = *cluster.map_shared_rank(&s[threadIdx.x], 1);
}

// A cluster barrier only rank 0 reaches, while rank 1 waits on an mbarrier
// nobody arrives at: a deadlock across the cluster.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_deadlock(float *out) {
  __shared__ __align__(8) uint64_t never;
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0) {
    cluster.sync();
  } else {
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&never)));
    __syncthreads();
    uint32_t done = 0;
    while (!done)
      asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\t"
                   "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(smem_addr(&never)));
  }
  out[threadIdx.x] = 1.0f;
}

// A plain kernel for the launch errors: a grid that is not a whole number
// of clusters, a cluster that does not fit, clusters too large.
extern "C" __global__ void cluster_any(float *out) {
  cg::cluster_group cluster = cg::this_cluster();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (float)cluster.block_rank();
}
