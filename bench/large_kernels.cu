// large_kernels.cu - launches of 1e10 to 3e10 thread-instructions, the size
// of real workloads, for `make bench-large` (bench/bench_sim.c): how long
// one such launch takes to simulate with the caches on, and how much memory
// the model needs.  Written as a new user would write them, in the style of
// PolyBench/GPU and the CUDA samples (our own code).
//
// corr: PolyBench's correlation, one thread per output element (j1, j2)
//   of the 256x256 correlation matrix, each walking all n rows, over the
//   column means and standard deviations it computes itself (the naive
//   per-thread version: every thread reads two whole columns, n * 2 loads
//   strided by m floats).
// covar: the covariance of the same shape, with the means precomputed.
// sgemm_tiled: C = A * B, 2048 x 2048, 16x16 tiles through shared memory.
// sgemm_naive: the same without tiles, 1024 x 1024.

#define TILE 16

extern "C" __global__ void corr(const float *data, float *symmat, int m, int n) {
  int j1 = blockIdx.y * blockDim.y + threadIdx.y, j2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= m || j2 >= m) return;
  float m1 = 0.f, m2 = 0.f;
  for (int i = 0; i < n; i++) {
    m1 += data[i * m + j1];
    m2 += data[i * m + j2];
  }
  m1 /= n;
  m2 /= n;
  float s1 = 0.f, s2 = 0.f, s12 = 0.f;
  for (int i = 0; i < n; i++) {
    float a = data[i * m + j1] - m1, b = data[i * m + j2] - m2;
    s1 += a * a;
    s2 += b * b;
    s12 += a * b;
  }
  symmat[j1 * m + j2] = s12 / (sqrtf(s1) * sqrtf(s2) + 1e-12f);
}

extern "C" __global__ void covar(const float *data, const float *mean, float *symmat, int m, int n) {
  int j1 = blockIdx.y * blockDim.y + threadIdx.y, j2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= m || j2 >= m) return;
  float s = 0.f;
  for (int i = 0; i < n; i++) s += (data[i * m + j1] - mean[j1]) * (data[i * m + j2] - mean[j2]);
  symmat[j1 * m + j2] = s / (n - 1);
}

extern "C" __global__ void sgemm_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

extern "C" __global__ void sgemm_naive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float acc = 0.f;
  for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

//@ corr grid=16,16 block=16,16 args=buf:f32:4194304,buf:f32:65536:zero,i32:256,i32:16384
//@ covar grid=16,16 block=16,16 args=buf:f32:4194304,buf:f32:256,buf:f32:65536:zero,i32:256,i32:16384
//@ sgemm_tiled grid=128,128 block=16,16 args=buf:f32:4194304,buf:f32:4194304,buf:f32:4194304:zero,i32:2048
//@ sgemm_naive grid=64,64 block=16,16 args=buf:f32:1048576,buf:f32:1048576,buf:f32:1048576:zero,i32:1024
