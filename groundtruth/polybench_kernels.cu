// PolyBench-style kernels (issue 13's "public code" class), written for
// this check after the time model's rules were fixed: linear algebra and
// stencils as GPU ports of PolyBench write them (one thread per output
// element, the output updated in place through plain global pointers,
// 1-D blocks of 256 or 2-D blocks of 32x8, grids of about 64 blocks, as
// the issue's held-back launches are), and two stencils whose grids fill
// the GPU.  Measured with Nsight Compute on an H100
// (tools/gpu/hierarchy_ncu.sh polybench; docs/results/); buffers
// zero-filled.  Each //@ line is one launch, in the grammar of
// seed_kernels.cu.

// ---- matrix-vector: one thread a row or a column --------------------------
// atax, first half: tmp[i] = sum_j A[i][j] x[j], accumulated in tmp[i].
//@ atax_rows#4096 grid=64 block=64 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void atax_rows(const float *A, const float *x, float *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) tmp[i] += A[(size_t)i * n + j] * x[j];
}
// atax, second half: y[j] = sum_i A[i][j] tmp[i] (lanes on neighbouring
// columns: coalesced).
//@ atax_cols#4096 grid=64 block=64 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void atax_cols(const float *A, const float *tmp, float *y, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    for (int i = 0; i < n; i++) y[j] += A[(size_t)i * n + j] * tmp[i];
}
// bicg: s = r^T A (columns) and q = A p (rows), with local accumulators.
//@ bicg_s#4096 grid=64 block=64 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void bicg_s(const float *A, const float *r, float *s, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float acc = 0.0f;
  for (int i = 0; i < n; i++) acc += r[i] * A[(size_t)i * n + j];
  s[j] = acc;
}
//@ bicg_q#4096 grid=64 block=64 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void bicg_q(const float *A, const float *p, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int j = 0; j < n; j++) acc += A[(size_t)i * n + j] * p[j];
  q[i] = acc;
}
// gesummv: y = alpha A x + beta B x, two matrices a row per thread.
//@ gesummv#2048 grid=32 block=64 args=buf:f32:4194304,buf:f32:4194304,buf:f32:2048,buf:f32:2048,i32:2048
extern "C" __global__ void gesummv(const float *A, const float *B, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float t = 0.0f, u = 0.0f;
  for (int j = 0; j < n; j++) {
    t += A[(size_t)i * n + j] * x[j];
    u += B[(size_t)i * n + j] * x[j];
  }
  y[i] = 1.5f * t + 1.2f * u;
}

// ---- matrix-matrix: one thread an element, 2-D blocks --------------------
// gemm: C = alpha A B + beta C, C updated in place every k.
//@ gemm#256 grid=8,32 block=32,8 args=buf:f32:65536,buf:f32:65536,buf:f32:65536,i32:256
extern "C" __global__ void gemm(const float *A, const float *B, float *C, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  C[i * n + j] *= 0.5f;
  for (int k = 0; k < n; k++) C[i * n + j] += 1.5f * A[i * n + k] * B[k * n + j];
}
// syrk: C = alpha A A^T + beta C, a register accumulator (rows of A read by
// lanes n floats apart).
//@ syrk#256 grid=8,32 block=32,8 args=buf:f32:65536,buf:f32:65536,i32:256
extern "C" __global__ void syrk(const float *A, float *C, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += A[i * n + k] * A[j * n + k];
  C[i * n + j] = 0.5f * C[i * n + j] + 1.5f * acc;
}

// ---- covariance: column means, centring, then the product --------------
//@ cov_mean#1024 grid=16 block=64 args=buf:f32:1048576,buf:f32:1024,i32:1024
extern "C" __global__ void cov_mean(const float *data, float *mean, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  mean[j] = 0.0f;
  for (int i = 0; i < n; i++) mean[j] += data[(size_t)i * n + j];
  mean[j] /= (float)n;
}
//@ cov_center#1024 grid=32,128 block=32,8 args=buf:f32:1048576,buf:f32:1024,i32:1024
extern "C" __global__ void cov_center(float *data, const float *mean, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) data[(size_t)i * n + j] -= mean[j];
}
// one thread a column j1, all j2 >= j1: the triangle, symmetric store
//@ cov_product#256 grid=4 block=64 args=buf:f32:65536,buf:f32:65536,i32:256
extern "C" __global__ void cov_product(const float *data, float *cov, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= n) return;
  for (int j2 = j1; j2 < n; j2++) {
    cov[j1 * n + j2] = 0.0f;
    for (int i = 0; i < n; i++) cov[j1 * n + j2] += data[i * n + j1] * data[i * n + j2];
    cov[j2 * n + j1] = cov[j1 * n + j2];
  }
}

// ---- stencils: grids that fill the GPU -------------------------------------
//@ jacobi2d#2048 grid=64,256 block=32,8 args=buf:f32:4194304,buf:f32:4194304,i32:2048
extern "C" __global__ void jacobi2d(const float *a, float *b, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i + 1) * n + j] + a[(i - 1) * n + j]);
}
//@ fdtd_ey#2048 grid=64,256 block=32,8 args=buf:f32:4194304,buf:f32:4194304,i32:2048
extern "C" __global__ void fdtd_ey(float *ey, const float *hz, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < n && j < n) ey[i * n + j] -= 0.5f * (hz[i * n + j] - hz[(i - 1) * n + j]);
}
