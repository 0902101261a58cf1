/* clusterReduce - thread block clusters from the host side: a sum reduced
 * through distributed shared memory in clusters of 4 blocks launched with
 * cudaLaunchKernelEx and the cluster attribute, sized by
 * cudaOccupancyMaxActiveClusters; a __cluster_dims__ kernel launched with
 * <<<>>> and its attributes (cudaFuncGetAttributes); a 16-block cluster
 * after cudaFuncSetAttribute(NonPortableClusterSizeAllowed); and the
 * launches CUDA refuses (a grid that is not a whole number of clusters, 16
 * blocks without the attribute).  Checked exactly against the host (the
 * inputs are small integers: every sum is exact in float). */
#include <cooperative_groups.h>
#include <vector>

#include "app_util.h"

namespace cg = cooperative_groups;

#define BLOCK 128

/* Each block sums its BLOCK elements in shared memory; rank 0 of the
 * cluster adds its peers' sums, read from their shared memory. */
__global__ void clusterSum(const float *in, float *out) {
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

/* The same with its cluster fixed at compile time. */
__global__ void __cluster_dims__(2, 1, 1) pairSum(const float *in, float *out) {
  __shared__ float part[BLOCK];
  cg::cluster_group cluster = cg::this_cluster();
  part[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  cluster.sync();
  if (cluster.block_rank() == 0)
    out[blockIdx.x * BLOCK / 2 + threadIdx.x] = part[threadIdx.x] + *cluster.map_shared_rank(&part[threadIdx.x], 1);
  cluster.sync();
}

static cudaError_t launchClusters(int grid, int cluster, const float *in, float *out) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(BLOCK);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, clusterSum, in, out);
}

static long checkSums(const std::vector<float> &in, const float *dout, int clusters, int per) {
  std::vector<float> got(clusters);
  CHECK_CUDA(cudaMemcpy(got.data(), dout, clusters * sizeof(float), cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int c = 0; c < clusters; c++) {
    double want = 0;
    for (int i = c * per * BLOCK; i < (c + 1) * per * BLOCK; i++) want += in[i];
    wrong += got[c] != (float)want;
  }
  return wrong;
}

int main() {
  int attr = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&attr, cudaDevAttrClusterLaunch, 0));
  if (!attr) {
    std::printf("clusterReduce: the device has no cluster launch\n");
    return app_verdict("clusterReduce", 1, 1);
  }
  /* as many clusters of 4 as can be resident at once, two waves of them */
  cudaLaunchConfig_t q = {};
  q.blockDim = dim3(BLOCK);
  q.gridDim = dim3(4);
  cudaLaunchAttribute qa;
  qa.id = cudaLaunchAttributeClusterDimension;
  qa.val.clusterDim.x = 4, qa.val.clusterDim.y = 1, qa.val.clusterDim.z = 1;
  q.attrs = &qa;
  q.numAttrs = 1;
  int active = 0, potential = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveClusters(&active, clusterSum, &q));
  CHECK_CUDA(cudaOccupancyMaxPotentialClusterSize(&potential, clusterSum, &q));
  std::printf("active clusters of 4: %d, largest portable cluster: %d\n", active, potential);
  long wrong = active <= 0 || potential != 8;
  int clusters = 2 * active < 64 ? 2 * active : 64, n = (clusters * 4 > 16 ? clusters * 4 : 16) * BLOCK;
  std::vector<float> in(n);
  unsigned seed = 7;
  for (int i = 0; i < n; i++) in[i] = (float)(app_rand(&seed) % 16);
  float *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(launchClusters(clusters * 4, 4, din, dout));
  CHECK_CUDA(cudaDeviceSynchronize());
  wrong += checkSums(in, dout, clusters, 4);

  /* a compile-time cluster: its attributes, a plain launch */
  cudaFuncAttributes fa;
  CHECK_CUDA(cudaFuncGetAttributes(&fa, pairSum));
  wrong += fa.requiredClusterWidth != 2 || fa.requiredClusterHeight != 1 || fa.requiredClusterDepth != 1;
  pairSum<<<4, BLOCK>>>(din, dout);
  CHECK_LAUNCH();
  std::vector<float> pairs(2 * BLOCK);
  CHECK_CUDA(cudaMemcpy(pairs.data(), dout, 2 * BLOCK * sizeof(float), cudaMemcpyDeviceToHost));
  for (int c = 0; c < 2; c++)
    for (int t = 0; t < BLOCK; t++) wrong += pairs[c * BLOCK + t] != in[2 * c * BLOCK + t] + in[(2 * c + 1) * BLOCK + t];
  /* its cluster cannot change at run time */
  wrong += cudaFuncSetAttribute(pairSum, cudaFuncAttributeRequiredClusterWidth, 4) != cudaErrorNotPermitted;

  /* what CUDA refuses: 6 blocks in clusters of 4, 16 blocks without the attribute */
  wrong += launchClusters(6, 4, din, dout) != cudaErrorInvalidClusterSize;
  wrong += launchClusters(16, 16, din, dout) != cudaErrorInvalidClusterSize;
  cudaGetLastError();
  /* 16 blocks with it */
  CHECK_CUDA(cudaFuncSetAttribute(clusterSum, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CHECK_CUDA(launchClusters(16, 16, din, dout));
  CHECK_CUDA(cudaDeviceSynchronize());
  wrong += checkSums(in, dout, 1, 16);
  std::printf("clusterReduce: %d clusters of 4, 2 pairs, 1 cluster of 16\n", clusters);
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  return app_verdict("clusterReduce", wrong, clusters + 2 * BLOCK + 8);
}
