/* graphMemory - CUDA graphs with memory nodes, as the samples'
 * graphMemoryNodes builds them: an allocation node, a kernel that fills
 * the allocation, a copy of it to the host and a free node, the graph
 * instantiated once and launched three times (the host copy cleared
 * between launches, so each refills it), the allocation's address the
 * same each time.  Passes natively on a GPU
 * and under warpmem run (-cudart shared). */
#include <algorithm>
#include <vector>

#include "app_util.h"

__global__ void fill(float *p, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + (float)i;
}

int main() {
  const int n = 4096;
  std::vector<float> h(n);
  cudaGraph_t g;
  CHECK_CUDA(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(float);
  cudaGraphNode_t alloc, kern, copy, freen;
  CHECK_CUDA(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
  float *d = (float *)ap.dptr, v = 1.0f;
  int nn = n;
  void *args[] = {&d, &v, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill, kp.gridDim = dim3(n / 256), kp.blockDim = dim3(256), kp.kernelParams = args;
  CHECK_CUDA(cudaGraphAddKernelNode(&kern, g, &alloc, 1, &kp));
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&copy, g, &kern, 1, h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaGraphAddMemFreeNode(&freen, g, &copy, 1, d));
  cudaGraphNodeType t;
  CHECK_CUDA(cudaGraphNodeGetType(alloc, &t));
  long wrong = t != cudaGraphNodeTypeMemAlloc;
  CHECK_CUDA(cudaGraphNodeGetType(freen, &t));
  wrong += t != cudaGraphNodeTypeMemFree;
  cudaMemAllocNodeParams back;
  CHECK_CUDA(cudaGraphMemAllocNodeGetParams(alloc, &back));
  wrong += back.dptr != d || back.bytesize != ap.bytesize;
  cudaGraphExec_t x;
  CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
  for (int launch = 0; launch < 3; launch++) {
    std::fill(h.begin(), h.end(), -1.0f);
    CHECK_CUDA(cudaGraphLaunch(x, 0));
    CHECK_CUDA(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++) wrong += h[i] != v + (float)i;
  }
  CHECK_CUDA(cudaGraphExecDestroy(x));
  CHECK_CUDA(cudaGraphDestroy(g));
  CHECK_CUDA(cudaDeviceGraphMemTrim(0));
  return app_verdict("graphMemory", wrong, 3L * n + 3);
}
