// Public-code-style kernels (issue 13's held-back classes), written on
// 2026-11-26 before warpmem simulated any of them: the rest of PolyBench/GPU
// (mvt, gemver, 2mm, syr2k, correlation, the 2-D and 3-D convolutions,
// fdtd-2d, jacobi-1d) at the sizes that fill a GPU (n = 4096), and kernels
// shaped like the CUDA samples' (vectorAdd, reduction, histogram, scan,
// matrixMul, transpose, separable convolution, Black-Scholes, dot product,
// bitonic sort, n-body) on grids of about 64 blocks with generic sizes.
// Nothing here was tuned to the model.  Measured with Nsight Compute on an
// H200 (tools/gpu/hierarchy_ncu.sh public; docs/results/); buffers
// zero-filled, so kernels that would branch on data compute their input
// from the index.  Each //@ line is one launch, in the grammar of
// seed_kernels.cu.

// ---- PolyBench/GPU at n = 4096: matrix-vector, in place ---------------------
// mvt: x1 = x1 + A y1 (a row per thread), x2 = x2 + A^T y2 (a column).
//@ mvt_rows#4096 grid=16 block=256 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void mvt_rows(const float *a, float *x1, const float *y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) x1[i] = x1[i] + a[(size_t)i * n + j] * y1[j];
}
//@ mvt_cols#4096 grid=16 block=256 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void mvt_cols(const float *a, float *x2, const float *y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) x2[i] = x2[i] + a[(size_t)j * n + i] * y2[j];
}
// gemver: A += u1 v1^T + u2 v2^T (2-D, fills the GPU), x += beta A^T y,
// w += alpha A x.
//@ gemver_outer#4096 grid=128,512 block=32,8 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void gemver_outer(float *a, const float *v1, const float *v2, const float *u1,
                                        const float *u2, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) a[(size_t)i * n + j] += u1[i] * v1[j] + u2[i] * v2[j];
}
//@ gemver_x#4096 grid=16 block=256 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void gemver_x(const float *a, float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) x[i] += 1.2f * a[(size_t)j * n + i] * y[j];
}
//@ gemver_w#4096 grid=16 block=256 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void gemver_w(const float *a, float *w, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) w[i] += 1.5f * a[(size_t)i * n + j] * x[j];
}
// correlation's standard deviation: a column per thread, accumulated in place.
//@ corr_std#4096 grid=16 block=256 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void corr_std(const float *data, const float *mean, float *std, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  std[j] = 0.0f;
  for (int i = 0; i < n; i++) {
    float d = data[(size_t)i * n + j] - mean[j];
    std[j] += d * d;
  }
  std[j] = sqrtf(std[j] / n);
  if (std[j] <= 0.1f) std[j] = 1.0f;
}

// ---- PolyBench/GPU at n = 4096: stencils -----------------------------------
//@ conv2d#4096 grid=128,512 block=32,8 args=buf:f32:16777216,buf:f32:16777216,i32:4096
extern "C" __global__ void conv2d(const float *a, float *b, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= n - 1 || j >= n - 1) return;
  b[i * n + j] = 0.2f * a[(i - 1) * n + j - 1] + 0.5f * a[(i - 1) * n + j] - 0.8f * a[(i - 1) * n + j + 1] -
                 0.3f * a[i * n + j - 1] + 0.6f * a[i * n + j] - 0.9f * a[i * n + j + 1] +
                 0.4f * a[(i + 1) * n + j - 1] + 0.7f * a[(i + 1) * n + j] + 0.1f * a[(i + 1) * n + j + 1];
}
//@ fdtd_hz#4096 grid=128,512 block=32,8 args=buf:f32:16777216,buf:f32:16777216,buf:f32:16777216,i32:4096
extern "C" __global__ void fdtd_hz(const float *ex, const float *ey, float *hz, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n - 1 && j < n - 1)
    hz[i * n + j] -= 0.7f * (ex[i * n + j + 1] - ex[i * n + j] + ey[(i + 1) * n + j] - ey[i * n + j]);
}
//@ fdtd_ex#4096 grid=128,512 block=32,8 args=buf:f32:16777216,buf:f32:16777216,i32:4096
extern "C" __global__ void fdtd_ex(float *ex, const float *hz, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j >= 1 && j < n) ex[i * n + j] -= 0.5f * (hz[i * n + j] - hz[i * n + j - 1]);
}
//@ jacobi1d#4194304 grid=16384 block=256 args=buf:f32:4194304,buf:f32:4194304,i32:4194304
extern "C" __global__ void jacobi1d(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1) b[i] = 0.33333f * (a[i - 1] + a[i] + a[i + 1]);
}
// 3DCONV: a thread per (j, k) of one plane i, the planes in a loop, 256^3.
//@ conv3d#256 grid=8,32 block=32,8 args=buf:f32:16777216,buf:f32:16777216,i32:256
extern "C" __global__ void conv3d(const float *a, float *b, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (j < 1 || k < 1 || j >= n - 1 || k >= n - 1) return;
  for (int i = 1; i < n - 1; i++) {
    size_t c = ((size_t)i * n + j) * n + k, p = (size_t)n * n;
    b[c] = 2.0f * a[c - p - n - 1] + 5.0f * a[c - p - n + 1] - 8.0f * a[c - p + n + 1] - 3.0f * a[c - n - 1] +
           6.0f * a[c] - 9.0f * a[c + n + 1] + 4.0f * a[c + p - n - 1] + 7.0f * a[c + p + n + 1] +
           0.1f * a[c + p - n + 1];
  }
}

// ---- PolyBench/GPU: matrix-matrix, the output in place ---------------------
// 2mm's first product, tmp = alpha A B, accumulated in tmp (n = 512, 1024 blocks).
//@ mm2_tmp#512 grid=16,64 block=32,8 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512
extern "C" __global__ void mm2_tmp(const float *a, const float *b, float *tmp, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  tmp[i * n + j] = 0.0f;
  for (int k = 0; k < n; k++) tmp[i * n + j] += 1.5f * a[i * n + k] * b[k * n + j];
}
// syr2k: C = alpha (A B^T + B A^T) + beta C, in place, n = 384 (not a power of two).
//@ syr2k#384 grid=12,48 block=32,8 args=buf:f32:147456,buf:f32:147456,buf:f32:147456,i32:384
extern "C" __global__ void syr2k(const float *a, const float *b, float *c, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  c[i * n + j] *= 0.8f;
  for (int k = 0; k < n; k++) c[i * n + j] += 1.1f * a[i * n + k] * b[j * n + k] + 1.1f * b[i * n + k] * a[j * n + k];
}

// ---- CUDA-samples-style kernels on about 64 blocks --------------------------
//@ vector_add#1000000 grid=64 block=256 args=buf:f32:1000000,buf:f32:1000000,buf:f32:1000000,i32:1000000
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) c[i] = a[i] + b[i];
}
// reduction, the samples' "reduce4": two loads a thread, a tree in shared
// memory, the last warp unrolled through volatile shared memory.
//@ reduce_tree#1048576 grid=64 block=256 args=buf:f32:1048576,buf:f32:64,i32:1048576
extern "C" __global__ void reduce_tree(const float *in, float *out, int n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  float sum = 0.0f;
  for (unsigned i = blockIdx.x * 512 + t; i < n; i += 512 * gridDim.x) {
    sum += in[i];
    if (i + 256 < n) sum += in[i + 256];
  }
  s[t] = sum;
  __syncthreads();
  for (unsigned k = 128; k > 32; k >>= 1) {
    if (t < k) s[t] = sum = sum + s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    volatile float *v = s;
    for (unsigned k = 32; k > 0; k >>= 1) v[t] = sum = sum + v[t + k];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
// histogram256: per-block sub-histograms by shared atomics, merged into the
// global one with atomicAdd; the bytes are a hash of the index.
//@ histogram256#4194304 grid=64 block=256 args=buf:u32:256,i32:4194304
extern "C" __global__ void histogram256(unsigned *hist, int n) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned v = (unsigned)i * 2654435761u;
    atomicAdd(&h[v >> 24], 1u);
  }
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}
// scan: a block's 512 elements, Hillis-Steele in double-buffered shared memory.
//@ scan_block#32768 grid=64 block=512 args=buf:f32:32768,buf:f32:32768
extern "C" __global__ void scan_block(const float *in, float *out) {
  __shared__ float s[2][512];
  int t = threadIdx.x, g = blockIdx.x * 512 + t, p = 0;
  s[0][t] = in[g];
  __syncthreads();
  for (int d = 1; d < 512; d <<= 1) {
    s[1 - p][t] = t >= d ? s[p][t] + s[p][t - d] : s[p][t];
    p = 1 - p;
    __syncthreads();
  }
  out[g] = s[p][t];
}
// matrixMul: 32x32 tiles in shared memory, 256x256 matrices (8x8 blocks).
//@ matrix_mul#256 grid=8,8 block=32,32 args=buf:f32:65536,buf:f32:65536,buf:f32:65536,i32:256
extern "C" __global__ void matrix_mul(float *c, const float *a, const float *b, int n) {
  __shared__ float as[32][32], bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
  for (int k = 0; k < n; k += 32) {
    as[ty][tx] = a[row * n + k + tx];
    bs[ty][tx] = b[(k + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int e = 0; e < 32; e++) acc += as[ty][e] * bs[e][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}
// transposeCoalesced: 32x32 tiles, 8 rows of threads, the tile padded.
//@ transpose_tile#256 grid=8,8 block=32,8 args=buf:f32:65536,buf:f32:65536,i32:256
extern "C" __global__ void transpose_tile(float *out, const float *in, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int r = 0; r < 32; r += 8) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int r = 0; r < 32; r += 8) out[(y + r) * n + x] = tile[threadIdx.x][threadIdx.y + r];
}
// convolutionSeparable's row pass: a row segment and its halo in shared memory.
//@ conv_rows#1024 grid=8,64 block=16,4 args=buf:f32:1048576,buf:f32:1048576,i32:1024
extern "C" __global__ void conv_rows(float *dst, const float *src, int w) {
  __shared__ float s[4][16 * 10];
  int x0 = (blockIdx.x * 8 - 1) * 16 + threadIdx.x, y = blockIdx.y * 4 + threadIdx.y;
  for (int k = 0; k < 10; k++) {
    int x = x0 + k * 16;
    s[threadIdx.y][threadIdx.x + k * 16] = x >= 0 && x < w ? src[y * w + x] : 0.0f;
  }
  __syncthreads();
  for (int k = 1; k < 9; k++) {
    float sum = 0.0f;
    for (int r = -8; r <= 8; r++) sum += (0.05f + 0.001f * r) * s[threadIdx.y][threadIdx.x + k * 16 + r];
    dst[y * w + x0 + k * 16] = sum;
  }
}
// Black-Scholes: a grid-stride loop of option prices, transcendental-heavy.
//@ black_scholes#1000000 grid=64 block=128 args=buf:f32:1000000,buf:f32:1000000,buf:f32:1000000,buf:f32:1000000,buf:f32:1000000,i32:1000000
extern "C" __global__ void black_scholes(float *call, float *put, const float *price, const float *strike,
                                         const float *years, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float s = 20.0f + price[i], x = 25.0f + strike[i], t = 0.5f + years[i], r = 0.02f, v = 0.3f;
    float sq = sqrtf(t), d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sq), d2 = d1 - v * sq;
    float c1 = normcdff(d1), c2 = normcdff(d2), e = x * expf(-r * t);
    call[i] = s * c1 - e * c2;
    put[i] = e * (1.0f - c2) - s * (1.0f - c1);
  }
}
// dot product: a grid-stride sum, a warp's shuffle reduction, one atomic a warp.
//@ dot_atomic#1000000 grid=64 block=256 args=buf:f32:1000000,buf:f32:1000000,buf:f32:1,i32:1000000
extern "C" __global__ void dot_atomic(const float *a, const float *b, float *out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += a[i] * b[i];
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, sum);
}
// bitonic sort of 1024 keys a block in shared memory (the keys hashed).
//@ bitonic#65536 grid=64 block=512 args=buf:u32:65536
extern "C" __global__ void bitonic(unsigned *keys) {
  __shared__ unsigned s[1024];
  unsigned t = threadIdx.x, base = blockIdx.x * 1024;
  s[t] = (base + t) * 2654435761u;
  s[t + 512] = (base + t + 512) * 2654435761u;
  __syncthreads();
  for (unsigned size = 2; size <= 1024; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      unsigned pos = 2 * t - (t & (stride - 1));
      bool up = ((pos & size) == 0);
      unsigned x = s[pos], y = s[pos + stride];
      if ((x > y) == up) { s[pos] = y; s[pos + stride] = x; }
      __syncthreads();
    }
  keys[base + t] = s[t];
  keys[base + t + 512] = s[t + 512];
}
// n-body: positions in tiles of 256 through shared memory, rsqrtf forces.
//@ nbody#8192 grid=32 block=256 args=buf:f32:32768,buf:f32:24576,i32:8192
extern "C" __global__ void nbody(const float4 *pos, float3 *acc, int n) {
  __shared__ float4 tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float3 a = {0.0f, 0.0f, 0.0f};
  for (int base = 0; base < n; base += 256) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < 256; k++) {
      float4 q = tile[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r = rsqrtf(dx * dx + dy * dy + dz * dz + 0.01f), s = q.w * r * r * r;
      a.x += dx * s; a.y += dy * s; a.z += dz * s;
    }
    __syncthreads();
  }
  acc[i] = a;
}
