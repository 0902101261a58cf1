// census-arch: sm_90
// threadBlockCluster.cu - Hopper thread block clusters: distributed shared
// memory read across the blocks of a cluster, cluster-wide barriers, and
// the cluster's dimensions and ranks.  sm_90 only.
#include <cooperative_groups.h>
#include "census_common.h"

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_histogram(const int *in, int *bins, int nbins, int n) {
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
  int per_block = (nbins + blocks - 1) / blocks;
  for (int b = threadIdx.x; b < per_block; b += blockDim.x) smem[b] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int bin = in[i] % nbins, owner = bin / per_block;
    int *dst = cluster.map_shared_rank(smem, owner);
    atomicAdd(dst + bin % per_block, 1);
  }
  cluster.sync();
  for (int b = threadIdx.x; b < per_block; b += blockDim.x)
    if (rank * per_block + b < nbins) atomicAdd(&bins[rank * per_block + b], smem[b]);
}

__global__ void cluster_neighbour_sum(const float *in, float *out) {
  __shared__ float mine[128];
  cg::cluster_group cluster = cg::this_cluster();
  mine[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  cluster.sync();
  unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
  float *theirs = cluster.map_shared_rank(mine, next);
  out[blockIdx.x * blockDim.x + threadIdx.x] = mine[threadIdx.x] + theirs[threadIdx.x] + cluster.dim_blocks().x;
  cluster.sync();
}
