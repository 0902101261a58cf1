// Seed 003 (CS 193G lecture 4, CUDA memories): adjacent difference naive and
// through shared memory, the tiled matrix multiply and its TILE_WIDTH, a
// thread-local array (the ten-nearest-neighbours heap), one kernel per memory
// space for the penalty table, global vs hierarchical atomics; and the best
// known SGEMM against cuBLAS.  Format: docs/lab.md.

//! group: adjdiff
//! seed: 003
//! title: adjacent difference result[i] = input[i] - input[i-1]: two global loads per element vs one through shared memory

//! exp: adj
//! title: 64M ints (512 MB moved, leaves the L2); simulated at 1M ints
//! seed-says: "Throughput 36.8 GB/s (original) vs 57.5 GB/s (improved): relative improvement 1.57x; experiment performed on a GT200 chip; improvement likely worse on a newer architecture"
//! bytes: 536870912
//! peak: copy
//! why: As the seed predicts for newer GPUs, L1 serves the second load input[i-1] from the sector the neighbouring lane just fetched, so the naive kernel already reads DRAM once per element and the shared-memory copy is ~12% slower (a barrier and more instructions); int4 vectors reach the copy bandwidth.
//@ adj_diff_naive grid=4096 block=256 args=buf:i32:1048576:zero,buf:i32:1048576:rand
//! gpu: grid=262144 block=256 args=buf:i32:67108864:zero,buf:i32:67108864:rand
//! speedup: 1
//! reported: 36.8 GB/s
//@ adj_diff grid=4096 block=256 args=buf:i32:1048576:zero,buf:i32:1048576:rand
//! gpu: grid=262144 block=256 args=buf:i32:67108864:zero,buf:i32:67108864:rand
//! speedup: 1.57
//! reported: 57.5 GB/s
//@ adj_diff_dyn grid=4096 block=256 smem=1024 args=buf:i32:1048576:zero,buf:i32:1048576:rand
//! gpu: grid=262144 block=256 smem=1024 args=buf:i32:67108864:zero,buf:i32:67108864:rand
//! reported: the seed's extern __shared__ variant
//@ adj_diff_v4 grid=1024 block=256 args=buf:i32:1048576:zero,buf:i32:1048576:rand
//! gpu: grid=65536 block=256 args=buf:i32:67108864:zero,buf:i32:67108864:rand
//! reported: best known: 16-byte vectors
#define BLOCK_SIZE 256
extern "C" __global__ void adj_diff_naive(int *result, int *input) {
  unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i > 0) {
    int x_i = input[i];
    int x_i_minus_one = input[i - 1];
    result[i] = x_i - x_i_minus_one;
  }
}
extern "C" __global__ void adj_diff(int *result, int *input) {
  __shared__ int s_data[BLOCK_SIZE];
  unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;
  s_data[threadIdx.x] = input[i];
  __syncthreads();
  if (threadIdx.x > 0) result[i] = s_data[threadIdx.x] - s_data[threadIdx.x - 1];
  else if (i > 0) result[i] = s_data[threadIdx.x] - input[i - 1];
}
extern "C" __global__ void adj_diff_dyn(int *result, int *input) {
  extern __shared__ int s_data[];
  unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;
  s_data[threadIdx.x] = input[i];
  __syncthreads();
  if (threadIdx.x > 0) result[i] = s_data[threadIdx.x] - s_data[threadIdx.x - 1];
  else if (i > 0) result[i] = s_data[threadIdx.x] - input[i - 1];
}
// Best known: four elements per thread as one int4; the element before them
// comes from the previous thread's vector, through L1.
extern "C" __global__ void adj_diff_v4(int *__restrict__ result, const int *__restrict__ input) {
  unsigned int t = blockDim.x * blockIdx.x + threadIdx.x;
  int4 x = ((const int4 *)input)[t];
  int prev = t > 0 ? input[4 * t - 1] : 0;
  int4 r = make_int4(x.x - prev, x.y - x.x, x.z - x.y, x.w - x.z);
  if (t > 0) {
    ((int4 *)result)[t] = r;
  } else { // result[0] is not written, as in the seed's kernels
    result[1] = r.y; result[2] = r.z; result[3] = r.w;
  }
}

//! group: tiles
//! seed: 003
//! title: matrix multiply, one thread per element of AB: from global memory vs tiles of TILE_WIDTH x TILE_WIDTH in shared memory

//! exp: tile_sweep
//! title: 1024x1024 floats (the seed's size), TILE_WIDTH 4, 8, 16, 32, and the register-blocked SGEMM; simulated at 128x128
//! seed-says: "Throughput 10.7 GFLOPS (original) vs 183.9 GFLOPS (TILE_WIDTH 16): relative improvement 17.2x, on a GT200; TILE_WIDTH = 16 gives each SM 3 blocks, 768 threads, full occupancy"
//! flops: 2147483648
//! peak: cublas 1024
//! scale: 512
//! why: The GT200 had no cache in front of DRAM, so every operand of the naive kernel cost a DRAM access (17.2x for tiles); Hopper's L1 serves those re-reads, so 16x16 tiles gain ~1.5x, 4x4 tiles (16-thread blocks) lose 3x, and only register blocking gains 4x.
//@ mat_mul grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=64,64 block=16,16 args=buf:f32:1048576:rand,buf:f32:1048576:rand,buf:f32:1048576:zero,i32:1024
//! speedup: 1
//! reported: 10.7 GFLOPS
//@ mm_tile4 grid=32,32 block=4,4 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=256,256 block=4,4 args=buf:f32:1048576:rand,buf:f32:1048576:rand,buf:f32:1048576:zero,i32:1024
//@ mm_tile8 grid=16,16 block=8,8 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=128,128 block=8,8 args=buf:f32:1048576:rand,buf:f32:1048576:rand,buf:f32:1048576:zero,i32:1024
//@ mm_tile16 grid=8,8 block=16,16 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=64,64 block=16,16 args=buf:f32:1048576:rand,buf:f32:1048576:rand,buf:f32:1048576:zero,i32:1024
//! speedup: 17.2
//! reported: 183.9 GFLOPS
//@ mm_tile32 grid=4,4 block=32,32 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=32,32 block=32,32 args=buf:f32:1048576:rand,buf:f32:1048576:rand,buf:f32:1048576:zero,i32:1024
//@ sgemm_128 grid=1,1 block=256 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128
//! gpu: grid=8,8 block=256 args=buf:f32:1048576:rand,buf:f32:1048576:rand,buf:f32:1048576:zero,i32:1024
//! reported: best known: 128x128 block tile, 8x8 per thread

//! group: sgemm
//! seed: 003
//! title: best known: a register-blocked SGEMM (128x128 block tile, 8x8 outputs per thread, float4 loads, double-buffered shared memory) against cuBLAS

//! exp: sgemm4096
//! title: C = A B, 4096x4096 floats; simulated at 256x256
//! seed-says: "Better performance still possible in theory" (after 183.9 GFLOPS with 16x16 tiles)
//! flops: 137438953472
//! peak: cublas 4096
//! scale: 4096
//! why: The seed stops at shared-memory tiles; holding an 8x8 block of C in registers makes each shared-memory load feed 8 FMAs instead of 1, which brings a hand-written kernel to ~85% of cuBLAS (5.3x the 16x16 tiles).
//@ mm_tile16#256 grid=16,16 block=16,16 args=buf:f32:65536:rand,buf:f32:65536:rand,buf:f32:65536:zero,i32:256
//! gpu: grid=256,256 block=16,16 args=buf:f32:16777216:rand,buf:f32:16777216:rand,buf:f32:16777216:zero,i32:4096
//! speedup: 1
//@ sgemm_128#256 grid=2,2 block=256 args=buf:f32:65536:rand,buf:f32:65536:rand,buf:f32:65536:zero,i32:256
//! gpu: grid=32,32 block=256 args=buf:f32:16777216:rand,buf:f32:16777216:rand,buf:f32:16777216:zero,i32:4096
//! reported: best known (target: 60% of cuBLAS)

// The seed's "First Implementation" (width a multiple of the block).
extern "C" __global__ void mat_mul(float *a, float *b, float *ab, int width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float result = 0;
  for (int k = 0; k < width; ++k) result += a[row * width + k] * b[k * width + col];
  ab[row * width + col] = result;
}
// The seed's "Better Implementation" at each TILE_WIDTH (blockDim =
// TILE_WIDTH x TILE_WIDTH; width a multiple of it).
#define MM_TILE(NAME, TILE_WIDTH)                                                \
  extern "C" __global__ void NAME(float *a, float *b, float *ab, int width) {    \
    int tx = threadIdx.x, ty = threadIdx.y;                                      \
    int bx = blockIdx.x, by = blockIdx.y;                                        \
    __shared__ float s_a[TILE_WIDTH][TILE_WIDTH];                                \
    __shared__ float s_b[TILE_WIDTH][TILE_WIDTH];                                \
    int row = by * blockDim.y + ty;                                              \
    int col = bx * blockDim.x + tx;                                              \
    float result = 0;                                                            \
    for (int p = 0; p < width / TILE_WIDTH; ++p) {                               \
      s_a[ty][tx] = a[row * width + (p * TILE_WIDTH + tx)];                      \
      s_b[ty][tx] = b[(p * TILE_WIDTH + ty) * width + col];                      \
      __syncthreads();                                                           \
      for (int k = 0; k < TILE_WIDTH; ++k) result += s_a[ty][k] * s_b[k][tx];    \
      __syncthreads();                                                           \
    }                                                                            \
    ab[row * width + col] = result;                                              \
  }
MM_TILE(mm_tile4, 4)
MM_TILE(mm_tile8, 8)
MM_TILE(mm_tile16, 16)
MM_TILE(mm_tile32, 32)

// Best known without tensor cores or cp.async (which warpmem does not run):
// a block of 256 threads computes a 128x128 tile of C; each thread an 8x8
// block of it, as four 4x4 quadrants 64 rows/columns apart so that the
// float4 reads of shared memory are conflict-free.  K advances 8 at a time;
// the next slice of A and B is loaded into registers while the current one
// is multiplied, then stored into the other shared buffer (one barrier per
// step).  A's slice is stored transposed (As[k][m]), padded by 4 floats so
// the transposing stores do not conflict.  N a multiple of 128.
#define SG_BM 128
#define SG_BK 8
#define SG_PAD 4
extern "C" __global__ void __launch_bounds__(256) sgemm_128(const float *__restrict__ A, const float *__restrict__ B,
                                                            float *__restrict__ C, int N) {
  __shared__ __align__(16) float As[2][SG_BK][SG_BM + SG_PAD];
  __shared__ __align__(16) float Bs[2][SG_BK][SG_BM];
  const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
  const int a_row = tid >> 1, a_col = (tid & 1) * 4;   // A slice: 128 rows x 8 columns
  const int b_row = tid >> 5, b_col = (tid & 31) * 4;  // B slice: 8 rows x 128 columns
  const float *Ap = A + (size_t)(blockIdx.y * SG_BM + a_row) * N + a_col;
  const float *Bp = B + (size_t)b_row * N + blockIdx.x * SG_BM + b_col;
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0.f;

  float4 a_ld = *(const float4 *)Ap, b_ld = *(const float4 *)Bp;
  As[0][a_col + 0][a_row] = a_ld.x; As[0][a_col + 1][a_row] = a_ld.y;
  As[0][a_col + 2][a_row] = a_ld.z; As[0][a_col + 3][a_row] = a_ld.w;
  *(float4 *)&Bs[0][b_row][b_col] = b_ld;
  __syncthreads();

  const int steps = N / SG_BK;
  for (int s = 0; s < steps; s++) {
    const int cur = s & 1;
    if (s + 1 < steps) { // next slice into registers while this one computes
      a_ld = *(const float4 *)(Ap + (size_t)(s + 1) * SG_BK);
      b_ld = *(const float4 *)(Bp + (size_t)(s + 1) * SG_BK * N);
    }
#pragma unroll
    for (int k = 0; k < SG_BK; k++) {
      float4 a0 = *(const float4 *)&As[cur][k][ty * 4], a1 = *(const float4 *)&As[cur][k][64 + ty * 4];
      float4 b0 = *(const float4 *)&Bs[cur][k][tx * 4], b1 = *(const float4 *)&Bs[cur][k][64 + tx * 4];
      float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
    }
    if (s + 1 < steps) {
      const int nxt = cur ^ 1;
      As[nxt][a_col + 0][a_row] = a_ld.x; As[nxt][a_col + 1][a_row] = a_ld.y;
      As[nxt][a_col + 2][a_row] = a_ld.z; As[nxt][a_col + 3][a_row] = a_ld.w;
      *(float4 *)&Bs[nxt][b_row][b_col] = b_ld;
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; i++) {
    const int row = blockIdx.y * SG_BM + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
    float4 *Cv = (float4 *)(C + (size_t)row * N + blockIdx.x * SG_BM); /* 16-byte stores, as float4 in the PTX too */
    Cv[tx] = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    Cv[16 + tx] = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
  }
}

//! group: local
//! seed: 003
//! title: thread-local array: the ten-nearest-neighbours heap (float2 heap[10]) in local memory vs kept in registers

//! exp: knn
//! title: 65536 points p against 4096 points q, 10 nearest kept per p; simulated with 4096 p and 256 q
//! seed-says: "per-thread heap goes in off-chip memory"; "int array_var[10]: local, penalty 100x"
//! scale: 256
//! why: The seed's local memory was uncached DRAM (100x a register); Hopper caches local memory in L1, so the run-time-indexed heap costs ~2x the register version, not 100x.
//@ ten_nn grid=16 block=256 args=buf:f32:81920:zero,buf:f32:8192:rand,buf:f32:512:rand,u64:256
//! gpu: grid=256 block=256 args=buf:f32:1310720:zero,buf:f32:131072:rand,buf:f32:8192:rand,u64:4096
//! speedup: 1
//@ ten_nn_regs grid=16 block=256 args=buf:f32:81920:zero,buf:f32:8192:rand,buf:f32:512:rand,u64:256
//! gpu: grid=256 block=256 args=buf:f32:1310720:zero,buf:f32:131072:rand,buf:f32:8192:rand,u64:4096
//! reported: the same heap in registers (sorted insertion, compile-time indices)
// The seed's ten_nn with its "..." written out: a max-heap on the squared
// distance (x) of the 10 nearest q so far (y: q's index).  The sift-down
// indexes heap[] at run time, so the array lives in local memory.
extern "C" __global__ void ten_nn(float2 *result, float2 *ps, float2 *qs, size_t num_qs) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 p = ps[i];
  float2 heap[10];
  for (int k = 0; k < 10; k++) heap[k] = make_float2(3.0e38f, -1.0f);
  for (size_t q = 0; q < num_qs; q++) {
    float dx = qs[q].x - p.x, dy = qs[q].y - p.y;
    float d = dx * dx + dy * dy;
    if (d < heap[0].x) { // replace the farthest, sift down
      int k = 0;
      for (;;) {
        int c = 2 * k + 1;
        if (c >= 10) break;
        if (c + 1 < 10 && heap[c + 1].x > heap[c].x) c++;
        if (heap[c].x <= d) break;
        heap[k] = heap[c];
        k = c;
      }
      heap[k] = make_float2(d, (float)q);
    }
  }
  for (int k = 0; k < 10; k++) result[i * 10 + k] = heap[k];
}
// The same 10 nearest, kept sorted in registers: every index is a
// compile-time constant after unrolling.
extern "C" __global__ void ten_nn_regs(float2 *result, float2 *ps, float2 *qs, size_t num_qs) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 p = ps[i];
  float bd[10], bq[10];
#pragma unroll
  for (int k = 0; k < 10; k++) { bd[k] = 3.0e38f; bq[k] = -1.0f; }
  for (size_t q = 0; q < num_qs; q++) {
    float dx = qs[q].x - p.x, dy = qs[q].y - p.y;
    float d = dx * dx + dy * dy, fq = (float)q;
    if (d < bd[9]) {
      bd[9] = d; bq[9] = fq;
#pragma unroll
      for (int k = 9; k > 0; k--)
        if (bd[k] < bd[k - 1]) {
          float t = bd[k]; bd[k] = bd[k - 1]; bd[k - 1] = t;
          t = bq[k]; bq[k] = bq[k - 1]; bq[k - 1] = t;
        }
    }
  }
#pragma unroll
  for (int k = 0; k < 10; k++) result[i * 10 + k] = make_float2(bd[k], bq[k]);
}

//! group: spaces
//! seed: 003
//! title: one kernel per memory space: a chain of dependent read-modify-writes of a variable in a register, local, shared, global or constant memory

//! exp: penalty
//! title: 1056 blocks of 256 threads (8 per SM), 4096 dependent updates each; simulated with 16 blocks and 64 updates
//! seed-says: "register 1x, local 100x, shared 1x, global 100x, constant 1x (penalty)"
//! scale: 4224
//! why: The seed's 100x was an uncached DRAM round trip per access; on Hopper a local access hits in L1 (~7x a register), volatile global accesses go to L2 (~20x), shared memory costs ~1.4x and a constant ~1.6x.
//@ space_register grid=16 block=256 args=buf:u32:4096:zero,i32:64
//! gpu: grid=1056 block=256 args=buf:u32:270336:zero,i32:4096
//! speedup: 1
//! reported: 1x
//@ space_local grid=16 block=256 args=buf:u32:4096:zero,i32:64
//! gpu: grid=1056 block=256 args=buf:u32:270336:zero,i32:4096
//! speedup: 0.01
//! reported: 100x
//@ space_shared grid=16 block=256 args=buf:u32:4096:zero,i32:64
//! gpu: grid=1056 block=256 args=buf:u32:270336:zero,i32:4096
//! speedup: 1
//! reported: 1x
//@ space_global grid=16 block=256 args=buf:u32:4096:zero,i32:64
//! gpu: grid=1056 block=256 args=buf:u32:270336:zero,i32:4096
//! speedup: 0.01
//! reported: 100x
//@ space_constant grid=16 block=256 args=buf:u32:4096:zero,i32:64
//! gpu: grid=1056 block=256 args=buf:u32:270336:zero,i32:4096
//! speedup: 1
//! reported: 1x
// Each step is v = v * 3 + x; volatile makes every step a real load and
// store in its space, and `unroll 1` keeps the index of the local array a
// run-time value.
__constant__ unsigned int c_add[16] = {1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47};
extern "C" __global__ void space_register(unsigned int *out, int iters) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, v = i;
#pragma unroll 1
  for (int k = 0; k < iters; k++) v = v * 3u + (unsigned)k;
  out[i] = v;
}
extern "C" __global__ void space_local(unsigned int *out, int iters) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  volatile unsigned int array_var[10];
  for (int j = 0; j < 10; j++) array_var[j] = i + j;
#pragma unroll 1
  for (int k = 0; k < iters; k++) array_var[k & 7] = array_var[(k + 7) & 7] * 3u + (unsigned)k;
  out[i] = array_var[(iters + 7) & 7];
}
extern "C" __global__ void space_shared(unsigned int *out, int iters) {
  volatile __shared__ unsigned int shared_var[256];
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  shared_var[threadIdx.x] = i;
#pragma unroll 1
  for (int k = 0; k < iters; k++) shared_var[threadIdx.x] = shared_var[threadIdx.x] * 3u + (unsigned)k;
  out[i] = shared_var[threadIdx.x];
}
extern "C" __global__ void space_global(unsigned int *out, int iters) {
  volatile unsigned int *global_var = out;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  global_var[i] = i;
#pragma unroll 1
  for (int k = 0; k < iters; k++) global_var[i] = global_var[i] * 3u + (unsigned)k;
}
extern "C" __global__ void space_constant(unsigned int *out, int iters) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, v = i;
#pragma unroll 1
  for (int k = 0; k < iters; k++) v = v * 3u + c_add[k & 15];
  out[i] = v;
}

//! group: atomics
//! seed: 003
//! title: sum of an array: one global atomicAdd per thread vs a per-block partial sum in shared memory and one global atomicAdd per block

//! exp: sum
//! title: 64M ints; simulated with 1M
//! seed-says: "Atomic operations aren't cheap! They imply serialized access to a variable"; "Atomics to __shared__ variables are much faster than atomics to global variables" (no timing)
//! bytes: 268435456
//! peak: copy
//! why: The seed gives no number; ptxas sums a warp's 32 values with REDUX.SUM and one lane adds the total to the address all share (the SASS), so one atomicAdd per thread costs ~6x the hierarchical version rather than full serialization.
//@ atomic_sum grid=4096 block=256 args=buf:i32:1048576:rand,buf:i32:1:zero
//! gpu: grid=262144 block=256 args=buf:i32:67108864:rand,buf:i32:1:zero
//! speedup: 1
//@ atomic_sum_hier grid=4096 block=256 args=buf:i32:1048576:rand,buf:i32:1:zero
//! gpu: grid=262144 block=256 args=buf:i32:67108864:rand,buf:i32:1:zero
//! reported: the seed's "hierarchical atomics"
extern "C" __global__ void atomic_sum(int *input, int *result) {
  atomicAdd(result, input[blockIdx.x * blockDim.x + threadIdx.x]);
}
extern "C" __global__ void atomic_sum_hier(int *input, int *result) {
  __shared__ int partial_sum;
  if (threadIdx.x == 0) partial_sum = 0;
  __syncthreads();
  atomicAdd(&partial_sum, input[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(result, partial_sum);
}
