// Seed 000 (EECS 471, lecture 5: DRAM, shared memory, coalescing): every
// experiment of the lecture as a launch.  Format of the //@ and //! lines:
// docs/lab.md.  //@ lines are the simulation size; //! gpu: the size measured
// on a GPU (sized to leave a 60 MiB L2 unless the seed's own size is the
// point).  Compile: nvcc -ptx -arch=sm_90 -O3 -lineinfo (tools/build_ptx.py).

//! group: inc
//! seed: 000
//! title: a[i]++ on 3M floats, 12K blocks x 256 threads: coalesced, 3 of 4 lanes, a[0] contention, a[blockStart] contention

//! exp: inc_3M
//! title: 3M floats (12 MB, fits in L2), the seed's size
//! seed-says: "Times averaged over 10K runs: a[i]++ t=1.0; 3 of 4 participate t=1.0; every 4th access a[0] t=24.6 (4x from not coalescing and 8x from contention); a[startOfBlock] t=3.7"
//! bytes: 25165824
//! peak: copy
//! why: The seed's GPU serialized the same-address updates in DRAM (24x); Hopper merges a warp's 8 same-address lanes in L1 and the 12 MB array stays in L2, so a[0] contention costs ~3x and a[blockStart] almost nothing.
//@ inc_case#0 grid=12288 block=256 args=buf:f32:3145728:rand,i32:0
//! speedup: 1
//@ inc_case#1 grid=12288 block=256 args=buf:f32:3145728:rand,i32:1
//! speedup: 1
//@ inc_case#2 grid=12288 block=256 args=buf:f32:3145728:rand,i32:2
//! speedup: 0.041
//! reported: t=24.6
//! tolerate: 1
//@ inc_case#3 grid=12288 block=256 args=buf:f32:3145728:rand,i32:3
//! speedup: 0.27
//! reported: t=3.7
//! tolerate: 12288

//! exp: inc_64M
//! title: the same at 64M floats (256 MB, leaves the L2); simulated at 3M (counters per request do not depend on the size)
//! seed-says: "t=1.0 / 1.0 / 24.6 / 3.7 (3M floats)"
//! bytes: 536870912
//! peak: copy
//! why: From DRAM the coalesced cases run at ~80% of the copy bandwidth, a[0] contention costs ~3x (the same-address updates serialize in L2) and a[blockStart] ~1.8x, against the seed's 24.6x and 3.7x from a GPU without caches.
//@ inc_case#0-64M grid=12288 block=256 args=buf:f32:3145728:rand,i32:0
//! gpu: grid=262144 block=256 args=buf:f32:67108864:rand,i32:0
//! speedup: 1
//@ inc_case#1-64M grid=12288 block=256 args=buf:f32:3145728:rand,i32:1
//! gpu: grid=262144 block=256 args=buf:f32:67108864:rand,i32:1
//! speedup: 1
//@ inc_case#2-64M grid=12288 block=256 args=buf:f32:3145728:rand,i32:2
//! gpu: grid=262144 block=256 args=buf:f32:67108864:rand,i32:2
//! speedup: 0.041
//! reported: t=24.6
//! tolerate: 1
//@ inc_case#3-64M grid=12288 block=256 args=buf:f32:3145728:rand,i32:3
//! gpu: grid=262144 block=256 args=buf:f32:67108864:rand,i32:3
//! speedup: 0.27
//! reported: t=3.7
//! tolerate: 12288
// The seed's kernel with its switch made a parameter.  Cases 2 and 3 race on
// purpose (the seed's point): a[0] and a[blockStart] end with a value that
// depends on the order of the warps, hence `tolerate`.
extern "C" __global__ void inc_case(float *a, int iiTest) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  switch (iiTest) {
  case 0: a[i] += i; break;
  case 1: if ((i & 0x3) != 0) a[i]++; break;
  case 2: if ((i & 0x3) != 0) a[i] += 1.0f; else a[0] += 1.0f; break;
  case 3: if ((i & 0x3) != 0) a[i]++; else a[blockIdx.x * blockDim.x]++; break;
  }
}

//! group: float3
//! seed: 000
//! title: float3 read-modify-write: three 4-byte accesses 12 bytes apart vs coalesced through shared memory

//! exp: f3
//! title: 16M float3 (192 MB each way), 256 threads per block; simulated at the seed's 1M float3
//! seed-says: "1M float3s, 4K blocks x 256 threads: t=2.6 float3 uncoalesced, t=1.0 float3 coalesced through shared memory"
//! bytes: 402653184
//! peak: copy
//! why: The seed's GPU fetched a 128-byte segment per 4-byte access; Hopper's L1 keeps the sectors the .x load brought for the .y and .z loads, so the direct kernel already moves each byte once and staging through shared memory gains nothing (1.0x, not 2.6x).
//@ f3_plain grid=4096 block=256 args=buf:f32:3145728:rand,buf:f32:3145728:zero
//! gpu: grid=65536 block=256 args=buf:f32:50331648:rand,buf:f32:50331648:zero
//! speedup: 1
//@ f3_smem grid=4096 block=256 args=buf:f32:3145728:rand,buf:f32:3145728:zero
//! gpu: grid=65536 block=256 args=buf:f32:50331648:rand,buf:f32:50331648:zero
//! speedup: 2.6
//@ f3_flat4 grid=3072 block=256 args=buf:f32:3145728:rand,buf:f32:3145728:zero,i32:786432
//! gpu: grid=49152 block=256 args=buf:f32:50331648:rand,buf:f32:50331648:zero,i32:12582912
//! reported: best known: the update is elementwise, so treat the array as float4s
extern "C" __global__ void f3_plain(float3 *d_in, float3 *d_out) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  float3 a = d_in[index];
  a.x += 2; a.y += 2; a.z += 2;
  d_out[index] = a;
}
// The seed's accessInt3Shared: read through shared memory in three
// coalesced passes, compute on float3, write back in three passes.
extern "C" __global__ void f3_smem(float *g_in, float *g_out) {
  int index = blockIdx.x * blockDim.x * 3 + threadIdx.x;
  __shared__ float s_data[256 * 3];
  s_data[threadIdx.x] = g_in[index];
  s_data[threadIdx.x + 256] = g_in[index + 256];
  s_data[threadIdx.x + 512] = g_in[index + 512];
  __syncthreads();
  float3 a = ((float3 *)s_data)[threadIdx.x];
  a.x += 2; a.y += 2; a.z += 2;
  ((float3 *)s_data)[threadIdx.x] = a;
  __syncthreads();
  g_out[index] = s_data[threadIdx.x];
  g_out[index + 256] = s_data[threadIdx.x + 256];
  g_out[index + 512] = s_data[threadIdx.x + 512];
}
// Best known: x, y and z all get +2, so the float3 array is n4 float4s.
extern "C" __global__ void f3_flat4(const float4 *__restrict__ in, float4 *__restrict__ out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    v.x += 2; v.y += 2; v.z += 2; v.w += 2;
    out[i] = v;
  }
}

//! group: transpose
//! seed: 000
//! title: matrix transpose, 32x32 threads per block: naive, through shared memory, padded; best known: 64x64 tiles of float4
// Every launch moves 2 * 4 * N * N bytes (read + write).  tr_32x8 is the
// classic tile of 32x32 with 32x8 threads (4 elements per thread, padded);
// tr_v4 reads and writes 16-byte vectors, 16 elements per thread.

//! exp: tr128
//! title: 128x128 floats
//! seed-says: "128x128 array: Optimized vs Simple: 1.3x"
//! bytes: 131072
//! peak: copy
//! why: At 128x128 (64 KB) every kernel takes ~3 us of launch overhead, so no variant is faster (the seed measured 1.3x).
//@ tr_naive#128 grid=4,4 block=32,32 args=buf:f32:16384:zero,buf:f32:16384:rand,i32:128,i32:128
//! speedup: 1
//@ tr_smem#128 grid=4,4 block=32,32 args=buf:f32:16384:zero,buf:f32:16384:rand,i32:128,i32:128
//@ tr_pad#128 grid=4,4 block=32,32 args=buf:f32:16384:zero,buf:f32:16384:rand,i32:128,i32:128
//! speedup: 1.3
//@ tr_32x8#128 grid=4,4 block=32,8 args=buf:f32:16384:zero,buf:f32:16384:rand,i32:128,i32:128
//@ tr_v4#128 grid=2,2 block=16,16 args=buf:f32:16384:zero,buf:f32:16384:rand,i32:128,i32:128

//! exp: tr512
//! title: 512x512 floats
//! seed-says: "512x512 array, 32x32 blocks: Simple t=8, Optimized w/ shared memory t=4, Optimized w/ shared memory & padding t=1 (Optimized vs Simple: 8x)"
//! bytes: 2097152
//! peak: copy
//! why: 2 MB fits in L2, which absorbs the naive kernel's 32-sector stores that the seed's GPU sent to DRAM, and ~3 us of launch overhead caps every speedup: ~2x instead of 8x.
//@ tr_naive#512 grid=16,16 block=32,32 args=buf:f32:262144:zero,buf:f32:262144:rand,i32:512,i32:512
//! speedup: 1
//! reported: t=8
//@ tr_smem#512 grid=16,16 block=32,32 args=buf:f32:262144:zero,buf:f32:262144:rand,i32:512,i32:512
//! speedup: 2
//! reported: t=4
//@ tr_pad#512 grid=16,16 block=32,32 args=buf:f32:262144:zero,buf:f32:262144:rand,i32:512,i32:512
//! speedup: 8
//! reported: t=1
//@ tr_32x8#512 grid=16,16 block=32,8 args=buf:f32:262144:zero,buf:f32:262144:rand,i32:512,i32:512
//@ tr_v4#512 grid=8,8 block=16,16 args=buf:f32:262144:zero,buf:f32:262144:rand,i32:512,i32:512

//! exp: tr1024
//! title: 1024x1024 floats
//! seed-says: "1024x1024 array: Optimized vs Simple: 10x"
//! bytes: 8388608
//! peak: copy
//! why: 8 MB still fits in L2, so the naive kernel's scattered stores cost less than on the seed's GPU: padding gains ~4x (seed 10x), and 4 elements per thread (tr_32x8) another 1.5x.
//@ tr_naive#1024 grid=32,32 block=32,32 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! speedup: 1
//@ tr_smem#1024 grid=32,32 block=32,32 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//@ tr_pad#1024 grid=32,32 block=32,32 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! speedup: 10
//@ tr_32x8#1024 grid=32,32 block=32,8 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//@ tr_v4#1024 grid=16,16 block=16,16 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024

//! exp: tr8192
//! title: 8192x8192 floats (256 MB each way, leaves the L2); simulated at 1024x1024 (same counters per request)
//! seed-says: "Optimized vs Simple: 1.3x (128), 8x (512), 10x (1024)"
//! bytes: 536870912
//! peak: copy
//! why: Out of L2 the naive kernel's 32 sectors per store request reach DRAM, but the L2 merges the partial writes of neighbouring warps, so padding gains ~3x, not 10x; one 4-byte access in flight per thread then holds it to about half the copy bandwidth, and 4 to 16 elements per thread (tr_32x8, tr_v4) reach 85-95%.
//@ tr_naive#8192 grid=32,32 block=32,32 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! gpu: grid=256,256 block=32,32 args=buf:f32:67108864:zero,buf:f32:67108864:rand,i32:8192,i32:8192
//! speedup: 1
//@ tr_smem#8192 grid=32,32 block=32,32 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! gpu: grid=256,256 block=32,32 args=buf:f32:67108864:zero,buf:f32:67108864:rand,i32:8192,i32:8192
//@ tr_pad#8192 grid=32,32 block=32,32 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! gpu: grid=256,256 block=32,32 args=buf:f32:67108864:zero,buf:f32:67108864:rand,i32:8192,i32:8192
//! speedup: 10
//! reported: 10x at 1024
//@ tr_32x8#8192 grid=32,32 block=32,8 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! gpu: grid=256,256 block=32,8 args=buf:f32:67108864:zero,buf:f32:67108864:rand,i32:8192,i32:8192
//@ tr_v4#8192 grid=16,16 block=16,16 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! gpu: grid=128,128 block=16,16 args=buf:f32:67108864:zero,buf:f32:67108864:rand,i32:8192,i32:8192
//! reported: best known (target: 90% of the device-to-device copy)
//@ copy32#8192 grid=32,32 block=32,32 args=buf:f32:1048576:zero,buf:f32:1048576:rand,i32:1024,i32:1024
//! gpu: grid=256,256 block=32,32 args=buf:f32:67108864:zero,buf:f32:67108864:rand,i32:8192,i32:8192
//! reported: reference: the same bytes copied without transposing

// The seed's "Uncoalesced transpose".
extern "C" __global__ void tr_naive(float *odata, const float *idata, int width, int height) {
  unsigned int xIndex = blockDim.x * blockIdx.x + threadIdx.x;
  unsigned int yIndex = blockDim.y * blockIdx.y + threadIdx.y;
  if (xIndex < width && yIndex < height) {
    unsigned int index_in = xIndex + width * yIndex;
    unsigned int index_out = yIndex + height * xIndex;
    odata[index_out] = idata[index_in];
  }
}
// The seed's "Coalesced transpose" (with __mul24, as written), without and
// with the padding column.
#define BLOCK_DIM 32
#define TR_SEED(NAME, PAD)                                                                 \
  extern "C" __global__ void NAME(float *odata, const float *idata, int width, int height) { \
    __shared__ float block[(BLOCK_DIM + PAD) * BLOCK_DIM];                                   \
    unsigned int xBlock = __mul24(blockDim.x, blockIdx.x);                                   \
    unsigned int yBlock = __mul24(blockDim.y, blockIdx.y);                                   \
    unsigned int xIndex = xBlock + threadIdx.x;                                              \
    unsigned int yIndex = yBlock + threadIdx.y;                                              \
    unsigned int index_out, index_transpose;                                                 \
    if (xIndex < width && yIndex < height) {                                                 \
      unsigned int index_in = __mul24(width, yIndex) + xIndex;                               \
      unsigned int index_block = __mul24(threadIdx.y, BLOCK_DIM + PAD) + threadIdx.x;        \
      block[index_block] = idata[index_in];                                                  \
      index_transpose = __mul24(threadIdx.x, BLOCK_DIM + PAD) + threadIdx.y;                 \
      index_out = __mul24(height, xBlock + threadIdx.y) + yBlock + threadIdx.x;              \
    }                                                                                        \
    __syncthreads();                                                                         \
    if (xIndex < width && yIndex < height) odata[index_out] = block[index_transpose];        \
  }
TR_SEED(tr_smem, 0)
TR_SEED(tr_pad, 1)

// 32x32 tile, 32x8 threads: each thread moves 4 elements (width and height
// multiples of 32).
extern "C" __global__ void tr_32x8(float *o, const float *in, int w, int h) {
  __shared__ float t[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8) o[(size_t)(y + j) * h + x] = t[threadIdx.x][threadIdx.y + j];
}

// Best known: a 64x64 tile per block of 16x16 threads; every global access is
// a 16-byte vector, four loads in flight per thread before the first store
// (width and height multiples of 64).  The padding column makes the
// column-wise reads 2-way instead of 16-way conflicted.
extern "C" __global__ void __launch_bounds__(256) tr_v4(float *o, const float *in, int w, int h) {
  __shared__ float t[64][65];
  int tx = threadIdx.x, ty = threadIdx.y;
  const float *src = in + (size_t)blockIdx.y * 64 * w + blockIdx.x * 64 + tx * 4;
  float4 v[4];
#pragma unroll
  for (int j = 0; j < 4; j++) v[j] = *(const float4 *)(src + (size_t)(ty + 16 * j) * w);
#pragma unroll
  for (int j = 0; j < 4; j++) {
    float *row = &t[ty + 16 * j][tx * 4];
    row[0] = v[j].x; row[1] = v[j].y; row[2] = v[j].z; row[3] = v[j].w;
  }
  __syncthreads();
  float *dst = o + (size_t)blockIdx.x * 64 * h + blockIdx.y * 64 + tx * 4;
#pragma unroll
  for (int j = 0; j < 4; j++) {
    int c = ty + 16 * j;
    float4 u = make_float4(t[tx * 4][c], t[tx * 4 + 1][c], t[tx * 4 + 2][c], t[tx * 4 + 3][c]);
    *(float4 *)(dst + (size_t)c * h) = u;
  }
}

// The same bytes without the transpose: what a transpose can hope for.
extern "C" __global__ void copy32(float *o, const float *in, int w, int h) {
  unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h) o[(size_t)y * w + x] = in[(size_t)y * w + x];
}

//! group: matmul
//! seed: 000
//! title: matrix multiply: M[Row*Width+k] is not coalesced, N[k*Width+Col] is; tiles in shared memory (TILE_WIDTH 16)

//! exp: mm2048
//! title: 2048x2048 floats, 16x16 threads per block; simulated at 128x128
//! seed-says: "N accesses are coalesced, M accesses are not coalesced: use shared memory to enable coalescing in tiled matrix multiplication" (no timing given)
//! flops: 17179869184
//! peak: cublas 2048
//! scale: 4096
//! why: The seed gives no number; Hopper's L1 serves the naive kernel's reused row of M and column of N, so 16x16 tiles gain ~1.5x and both stay far from cuBLAS, which keeps blocks of C in registers.
//@ MatrixMulKernel grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=128,128 block=16,16 args=buf:f32:4194304:rand,buf:f32:4194304:rand,buf:f32:4194304:zero,i32:2048
//! speedup: 1
//@ MatrixMulTiled grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=128,128 block=16,16 args=buf:f32:4194304:rand,buf:f32:4194304:rand,buf:f32:4194304:zero,i32:2048
extern "C" __global__ void MatrixMulKernel(float *M, float *N, float *P, int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
}
// The seed's tiled kernel with its blanks filled in (Width a multiple of 16).
#define TILE_WIDTH 16
extern "C" __global__ void MatrixMulTiled(float *M, float *N, float *P, int Width) {
  __shared__ float subTileM[TILE_WIDTH][TILE_WIDTH];
  __shared__ float subTileN[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty, Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int m = 0; m < Width / TILE_WIDTH; ++m) {
    subTileM[ty][tx] = M[Row * Width + m * TILE_WIDTH + tx];
    subTileN[ty][tx] = N[(m * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += subTileM[ty][k] * subTileN[k][tx];
    __syncthreads();
  }
  P[Row * Width + Col] = Pvalue;
}
