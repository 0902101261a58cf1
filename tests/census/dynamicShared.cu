// dynamicShared.cu - dynamic shared memory: one extern array carved into
// several typed parts, the SharedMemory<T> template for templated kernels,
// a 16-byte aligned extern array of vectors, and both static and dynamic
// shared memory in one kernel.
#include "census_common.h"

__global__ void carve(const float *f, const int *k, const double *d, float *out, int n) {
  extern __shared__ unsigned char pool[];
  double *sd = reinterpret_cast<double *>(pool);                 // n doubles first (alignment)
  float *sf = reinterpret_cast<float *>(sd + n);                 // then n floats
  int *si = reinterpret_cast<int *>(sf + n);                     // then n ints
  short *ss = reinterpret_cast<short *>(si + n);                 // then n shorts
  unsigned char *sc = reinterpret_cast<unsigned char *>(ss + n); // then n bytes
  int t = threadIdx.x;
  if (t < n) sd[t] = d[t], sf[t] = f[t], si[t] = k[t], ss[t] = (short)k[t], sc[t] = (unsigned char)k[t];
  __syncthreads();
  if (t < n) {
    int o = n - 1 - t;
    out[t] = (float)sd[o] + sf[o] + si[o] + ss[o] + sc[o];
  }
}

template <typename T>
__global__ void reverse_block(T *data) {
  T *s = SharedMemory<T>();
  int base = blockIdx.x * blockDim.x;
  s[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void vector_tile(const float4 *in, float4 *out) {
  extern __shared__ __align__(16) float4 v4[];
  v4[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  float4 a = v4[threadIdx.x], b = v4[(threadIdx.x + 1) % blockDim.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void static_and_dynamic(const int *in, int *out) {
  __shared__ int fixed[32];
  extern __shared__ int dyn[];
  if (threadIdx.x < 32) fixed[threadIdx.x] = threadIdx.x;
  dyn[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[threadIdx.x] * fixed[threadIdx.x % 32];
}

template __global__ void reverse_block<int>(int *);
template __global__ void reverse_block<float>(float *);
template __global__ void reverse_block<double>(double *);
template __global__ void reverse_block<char>(char *);
template __global__ void reverse_block<unsigned long long>(unsigned long long *);
