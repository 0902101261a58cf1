// census_common.h - small helpers shared by the census kernels, the kind
// every CUDA project grows in its own "helper_cuda.h".
#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CENSUS_CHECK(call)                                                      \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

#define DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define IDX2(i, j, ld) ((i) * (ld) + (j))

template <typename T> __host__ __device__ inline T census_min(T a, T b) { return a < b ? a : b; }
template <typename T> __host__ __device__ inline T census_max(T a, T b) { return a > b ? a : b; }

// Dynamic shared memory typed per element type: the usual trick, since an
// extern __shared__ array cannot be declared twice with different types.
template <typename T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int census_smem_[];
    return reinterpret_cast<T *>(census_smem_);
  }
};
template <> struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double census_smem_d_[];
    return census_smem_d_;
  }
};
