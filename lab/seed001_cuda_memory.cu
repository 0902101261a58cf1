// Seed 001 (CUDA series part 3, CUDA memory): matrix addition with coalesced
// and swapped indices, matrix multiply from global memory and through 16x16
// shared tiles, static vs dynamic shared memory.  Format: docs/lab.md.

//! group: madd
//! seed: 001
//! title: matrix addition C = A + B, 16x16 threads per block: row = threadIdx.y (coalesced) vs row = threadIdx.x (swapped)

//! exp: madd512
//! title: 512x512 floats, the seed's size (3 MB: fits in L2)
//! seed-says: "Non-coalesced Memory Time: 0.430 ms, Coalesced Memory Time: 0.022 ms, Speedup: 19.54x; Coalesced Bandwidth: 142.88 GB/s"
//! bytes: 3145728
//! peak: copy
//! why: At 512x512 both kernels take a few microseconds of mostly launch overhead and the swapped kernel's 16-sector requests are served from L2: 1.4x, where the seed's GPU (its 142 GB/s suggests a small one) measured 19.5x.
//@ madd_nc grid=32,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! speedup: 1
//! reported: 0.430 ms
//@ madd_c grid=32,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! speedup: 19.54
//! reported: 0.022 ms
//@ madd_c4 grid=8,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! reported: best known: 16-byte vectors

//! exp: madd8192
//! title: 8192x8192 floats (768 MB, leaves the L2); simulated at 512x512 (same counters per request)
//! seed-says: "Speedup: 19.54x (512x512)"
//! bytes: 805306368
//! peak: copy
//! why: Out of L2 the swapped kernel touches 16 sectors per request, but its neighbours use the rest of each sector from L2 before eviction, so DRAM moves nearly the same bytes and the gap is ~1.5x, not 19.5x; float4 accesses reach the copy bandwidth.
//@ madd_nc#8192 grid=32,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! gpu: grid=512,512 block=16,16 args=buf:f32:67108864:rand,buf:f32:67108864:rand,buf:f32:67108864:zero,i32:8192
//! speedup: 1
//@ madd_c#8192 grid=32,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! gpu: grid=512,512 block=16,16 args=buf:f32:67108864:rand,buf:f32:67108864:rand,buf:f32:67108864:zero,i32:8192
//! speedup: 19.54
//! reported: 19.54x at 512
//@ madd_c4#8192 grid=8,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! gpu: grid=128,512 block=16,16 args=buf:f32:67108864:rand,buf:f32:67108864:rand,buf:f32:67108864:zero,i32:8192
//! reported: best known: 16-byte vectors
extern "C" __global__ void madd_c(float *A, float *B, float *C, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < N && col < N) C[row * N + col] = A[row * N + col] + B[row * N + col];
}
extern "C" __global__ void madd_nc(float *A, float *B, float *C, int N) {
  int col = blockIdx.y * blockDim.y + threadIdx.y; // SWAPPED
  int row = blockIdx.x * blockDim.x + threadIdx.x; // SWAPPED
  if (row < N && col < N) C[row * N + col] = A[row * N + col] + B[row * N + col];
}
// Best known: each thread adds four consecutive columns as one float4 (N a
// multiple of 4).
extern "C" __global__ void madd_c4(const float *__restrict__ A, const float *__restrict__ B,
                                   float *__restrict__ C, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (row < N && col < N) {
    size_t i = (size_t)row * N + col;
    float4 a = *(const float4 *)(A + i), b = *(const float4 *)(B + i);
    *(float4 *)(C + i) = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

//! group: mm16
//! seed: 001
//! title: matrix multiply, 16x16 threads per block: every operand from global memory vs 16x16 tiles in shared memory (static and dynamic)

//! exp: mm512
//! title: 512x512 floats, the seed's size; simulated at 128x128
//! seed-says: "Global Memory Time: 0.643 ms, Shared Memory Time: 0.325 ms, Speedup: 1.98x"
//! flops: 268435456
//! peak: cublas 512
//! scale: 64
//! why: Hopper's L1 already caches the global kernel's reused rows and columns, so the tiles save fewer memory trips than on the seed's GPU: ~1.5x against its 1.98x.
//@ matrix_mult_global grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=32,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! speedup: 1
//! reported: 0.643 ms
//@ matrix_mult_shared grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=32,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! speedup: 1.98
//! reported: 0.325 ms

//! exp: mm4096
//! title: 4096x4096 floats; simulated at 128x128 (same counters per request)
//! seed-says: "Speedup: 1.98x (512x512)"
//! flops: 137438953472
//! peak: cublas 4096
//! scale: 32768
//! why: At 4096 both kernels are limited by L1/shared-memory throughput, not DRAM, so the tiles' 8x fewer global requests give ~1.5x, near the seed's 1.98x at 512.
//@ matrix_mult_global#4096 grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=256,256 block=16,16 args=buf:f32:16777216:rand,buf:f32:16777216:rand,buf:f32:16777216:zero,i32:4096
//! speedup: 1
//@ matrix_mult_shared#4096 grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=256,256 block=16,16 args=buf:f32:16777216:rand,buf:f32:16777216:rand,buf:f32:16777216:zero,i32:4096
//! speedup: 1.98
//! reported: 1.98x at 512

//! exp: dynsmem
//! title: the same 16x16 tiles with Bs in dynamic shared memory (extern __shared__, 1 KB at launch), 512x512; simulated at 128x128
//! seed-says: "The dynamic allocation is more flexible since its size depends on runtime parameters" (no timing: the seed expects the same speed)
//! flops: 268435456
//! peak: cublas 512
//! scale: 64
//! why: Static and dynamic shared memory are the same on-chip memory; only the address arithmetic differs, so both the seed and we see 1.0x.
//@ matrix_mult_shared#dyn512 grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=32,32 block=16,16 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! speedup: 1
//@ matrix_mult_mixed grid=8,8 block=16,16 smem=1024 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=32,32 block=16,16 smem=1024 args=buf:f32:262144:rand,buf:f32:262144:rand,buf:f32:262144:zero,i32:512
//! speedup: 1
extern "C" __global__ void matrix_mult_global(float *A, float *B, float *C, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < N && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < N; k++) sum += A[row * N + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}
extern "C" __global__ void matrix_mult_shared(float *A, float *B, float *C, int N) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int tile = 0; tile < (N + 15) / 16; tile++) {
    if (row < N && (tile * 16 + threadIdx.x) < N) As[threadIdx.y][threadIdx.x] = A[row * N + tile * 16 + threadIdx.x];
    else As[threadIdx.y][threadIdx.x] = 0.0f;
    if ((tile * 16 + threadIdx.y) < N && col < N) Bs[threadIdx.y][threadIdx.x] = B[(tile * 16 + threadIdx.y) * N + col];
    else Bs[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; k++) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < N && col < N) C[row * N + col] = sum;
}
// The seed's mixedExample: As static, Bs in the dynamic (extern) array.
extern "C" __global__ void matrix_mult_mixed(float *A, float *B, float *C, int N) {
  __shared__ float As[16][16];
  extern __shared__ float dynamic_mem[];
  float *Bs = dynamic_mem; // 16 * 16 floats, given at launch
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int tile = 0; tile < (N + 15) / 16; tile++) {
    if (row < N && (tile * 16 + threadIdx.x) < N) As[threadIdx.y][threadIdx.x] = A[row * N + tile * 16 + threadIdx.x];
    else As[threadIdx.y][threadIdx.x] = 0.0f;
    if ((tile * 16 + threadIdx.y) < N && col < N) Bs[threadIdx.y * 16 + threadIdx.x] = B[(tile * 16 + threadIdx.y) * N + col];
    else Bs[threadIdx.y * 16 + threadIdx.x] = 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; k++) sum += As[threadIdx.y][k] * Bs[k * 16 + threadIdx.x];
    __syncthreads();
  }
  if (row < N && col < N) C[row * N + col] = sum;
}
