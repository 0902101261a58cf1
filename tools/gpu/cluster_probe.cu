// What an H200 answers about thread block clusters, to compare with what
// warpmem assumes (docs/clusters.md): cudaOccupancyMaxActiveClusters and
// cudaOccupancyMaxPotentialClusterSize for cluster sizes 1..16 at 1, 2 and
// 4 blocks an SM (shared memory sets blocks per SM), the error codes of the
// launches warpmem refuses, and where the blocks of clusters of 16 run
// (%smid per rank: the SMs of each GPC, which arch_cluster_gpc_of assumes).
// The same program runs under `warpmem run`, which prints warpmem's answers.
//
// Build and run on a GPU (the device machine), from the repository root:
//   nvcc -O2 -arch=sm_90 -cudart shared -o /tmp/cluster_probe tools/gpu/cluster_probe.cu
//   /tmp/cluster_probe > gpu.txt; build/warpmem run /tmp/cluster_probe > wm.txt 2>/dev/null
//   diff <(grep -v '^  ' gpu.txt) <(grep -v '^  ' wm.txt)   # every line but the report's
// Output lines: "active SIZE BPS N", "potential BPS N", "error WHAT NAME",
// "gpc SMS...": the SMs of one 16-block cluster, sorted.
#include <algorithm>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

__global__ void where(unsigned *out) {
  extern __shared__ char pad[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  if (threadIdx.x == 0) out[blockIdx.x] = s;
  pad[threadIdx.x] = 0;
  cluster.sync();
}

__global__ void __cluster_dims__(2, 1, 1) fixed(unsigned *out) { out[blockIdx.x] = 1; }

static cudaLaunchConfig_t config(int grid, int cluster, size_t smem, cudaLaunchAttribute *a) {
  cudaLaunchConfig_t c = {};
  c.gridDim = dim3(grid);
  c.blockDim = dim3(128);
  c.dynamicSmemBytes = smem;
  a->id = cudaLaunchAttributeClusterDimension;
  a->val.clusterDim.x = cluster, a->val.clusterDim.y = 1, a->val.clusterDim.z = 1;
  c.attrs = a;
  c.numAttrs = 1;
  return c;
}

int main() {
  CHECK(cudaFuncSetAttribute(where, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CHECK(cudaFuncSetAttribute(where, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
  const size_t smem_of[3] = {150 << 10, 80 << 10, 40 << 10}; /* about 1, 2 and 4 blocks an SM */
  for (int k = 0; k < 3; k++) {
    int bps = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, where, 128, smem_of[k]));
    for (int n = 1; n <= 16; n++) {
      cudaLaunchAttribute a;
      cudaLaunchConfig_t c = config(n, n, smem_of[k], &a);
      int active = -1;
      cudaError_t e = cudaOccupancyMaxActiveClusters(&active, where, &c);
      printf("active %d %d %d%s%s\n", n, bps, active, e ? " " : "", e ? cudaGetErrorName(e) : "");
    }
    cudaLaunchAttribute a;
    cudaLaunchConfig_t c = config(1, 1, smem_of[k], &a);
    int potential = -1;
    CHECK(cudaOccupancyMaxPotentialClusterSize(&potential, where, &c));
    printf("potential %d %d\n", bps, potential);
  }
  unsigned *d;
  CHECK(cudaMalloc(&d, 4096 * sizeof(unsigned)));
  cudaLaunchAttribute a;
  cudaLaunchConfig_t c = config(6, 4, 0, &a);
  printf("error grid_not_multiple %s\n", cudaGetErrorName(cudaLaunchKernelEx(&c, where, d)));
  cudaGetLastError();
  c = config(4, 4, 0, &a);
  printf("error fixed_dims_mismatch %s\n", cudaGetErrorName(cudaLaunchKernelEx(&c, fixed, d)));
  cudaGetLastError();
  c = config(32, 32, 0, &a);
  printf("error cluster_of_32 %s\n", cudaGetErrorName(cudaLaunchKernelEx(&c, where, d)));
  cudaGetLastError();
  /* where clusters of 16 run: one block an SM */
  int active = 0;
  c = config(16, 16, smem_of[0], &a);
  CHECK(cudaOccupancyMaxActiveClusters(&active, where, &c));
  c = config(16 * active, 16, smem_of[0], &a);
  CHECK(cudaLaunchKernelEx(&c, where, d));
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> sm(16 * active);
  CHECK(cudaMemcpy(sm.data(), d, sm.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int q = 0; q < active; q++) {
    std::sort(sm.begin() + 16 * q, sm.begin() + 16 * q + 16);
    printf("gpc");
    for (int b = 0; b < 16; b++) printf(" %u", sm[16 * q + b]);
    printf("\n");
  }
  CHECK(cudaFree(d));
  return 0;
}
