// Which SMs' reads the crossbar merges when several warps of a block want
// the same sector (issue 13, mm_g's L2 reads; src/mem/xbar.h).  On the
// H200 and the H100, mm_g's crossbar merges 11-12% of its L1 misses, where
// warpmem merges 36%; mm_s, whose warps each load sectors of their own
// between barriers, merges as much as warpmem does.  In mm_g every warp of
// a block reads the same two sectors of B each iteration: which warp's
// miss fetches them is a race on each SM.  Measured with Nsight Compute
// (tools/gpu/race_runs.sh); buffers zero-filled.
//
// Every launch: one block on each of 128 SMs, all reading the same array
// in 16 rounds, a round's addresses waiting for the previous round's data
// (every round is a round trip).  A round is 32 loads of 128 B a warp.
//
// race_all#wW: W warps a block, each reading the same 4 KB a round (the
// first warp to ask for a sector misses, the others wait for its fill).
// race_split#wW: W warps a block, each reading 4 KB of its own a round
// (every block reads the same W x 4 KB): one warp asks for each sector.
// race_all#wWb4: race_all with 512 blocks, four on an SM.
// Each //@ line is one launch, in the grammar of seed_kernels.cu.
//@ race_all#w1 grid=128 block=32 args=buf:f32:524288,buf:f32:4096
//@ race_all#w2 grid=128 block=64 args=buf:f32:524288,buf:f32:4096
//@ race_all#w4 grid=128 block=128 args=buf:f32:524288,buf:f32:4096
//@ race_all#w8 grid=128 block=256 args=buf:f32:524288,buf:f32:4096
//@ race_all#w32 grid=128 block=1024 args=buf:f32:524288,buf:f32:4096
//@ race_all#w8b4 grid=512 block=256 args=buf:f32:524288,buf:f32:4096
extern "C" __global__ void race_all(const float *a, float *out) {
  int lane = threadIdx.x & 31;
  float s = 0.0f;
  for (int r = 0; r < 16; r++) {
    const float *p = a + r * 1024 + lane + (s == -1.0f ? 1 : 0);
#pragma unroll
    for (int i = 0; i < 32; i++) s += p[i * 32];
  }
  if (lane == 0) out[blockIdx.x * 8 + (threadIdx.x >> 5) % 8] = s;
}
//@ race_split#w1 grid=128 block=32 args=buf:f32:524288,buf:f32:4096
//@ race_split#w2 grid=128 block=64 args=buf:f32:524288,buf:f32:4096
//@ race_split#w4 grid=128 block=128 args=buf:f32:524288,buf:f32:4096
//@ race_split#w8 grid=128 block=256 args=buf:f32:524288,buf:f32:4096
//@ race_split#w32 grid=128 block=1024 args=buf:f32:524288,buf:f32:4096
extern "C" __global__ void race_split(const float *a, float *out) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  float s = 0.0f;
  for (int r = 0; r < 16; r++) {
    const float *p = a + (r * nw + wp) * 1024 + lane + (s == -1.0f ? 1 : 0);
#pragma unroll
    for (int i = 0; i < 32; i++) s += p[i * 32];
  }
  if (lane == 0) out[blockIdx.x * 8 + wp % 8] = s;
}

// mmx#PART[GRID][bar] (added after the first measurement, which showed
// race_all and race_split merging as the model does, while mm_g merges
// a third of what it would): mm_g's loop (N = 512, 16 x 16 threads, tile
// (bx, by) = (block % gx, block / gx)), taking one factor away at a time.
// PART ab: A and B as mm_g (ab1024 is mm_g); b: B only (every warp of a
// block reads the same two sectors of B each k); a: A only (each warp its
// own two rows, a new sector every 8 k).  GRID 1024: eight blocks an SM;
// 128: one.  bar: __syncthreads() every 16 k (mm_s's cadence).
//@ mmx#ab1024 grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32,i32:3,i32:0
//@ mmx#ab1024bar grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32,i32:3,i32:1
//@ mmx#b1024 grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32,i32:2,i32:0
//@ mmx#a1024 grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32,i32:1,i32:0
//@ mmx#ab512 grid=512 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32,i32:3,i32:0
//@ mmx#ab128 grid=128 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:16,i32:3,i32:0
//@ mmx#ab128bar grid=128 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:16,i32:3,i32:1
//@ mmx#b128 grid=128 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:16,i32:2,i32:0
//@ mmx#a128 grid=128 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:16,i32:1,i32:0
extern "C" __global__ void mmx(const float *A, const float *B, float *C, int N, int gx, int part, int bar) {
  int bx = blockIdx.x % gx, by = blockIdx.x / gx;
  int r = by * 16 + threadIdx.y, c = bx * 16 + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < N; k++) {
    float a = (part & 1) ? A[r * N + k] : 1.0f, b = (part & 2) ? B[k * N + c] : 1.0f;
    s += a * b;
    if (bar && (k & 15) == 15) __syncthreads();
  }
  C[r * N + c] = s;
}

// mmu_uU#G (added after the second measurement, in which mmx merged three
// times as much as mm_g): mm_g's loop with no guards and `#pragma unroll U`
// (ptxas's SASS: ../docs/results/h100-2026-11-27-race/sass.txt), on
// G blocks (1024: eight an SM, as mm_g; 128: one an SM, gx = 16).  Does
// the share of reads the crossbar merges fall as a warp has more loads in
// flight?
#define PRAGMA(x) _Pragma(#x)
#define MMU(U)                                                                                     \
  extern "C" __global__ void mmu_u##U(const float *A, const float *B, float *C, int N, int gx) {  \
    int bx = blockIdx.x % gx, by = blockIdx.x / gx;                                                \
    int r = by * 16 + threadIdx.y, c = bx * 16 + threadIdx.x;                                      \
    float s = 0.0f;                                                                                \
    PRAGMA(unroll U) for (int k = 0; k < N; k++) s += A[r * N + k] * B[k * N + c];            \
    C[r * N + c] = s;                                                                              \
  }
//@ mmu_u1#1024 grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
//@ mmu_u1#128 grid=128 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:16
MMU(1)
//@ mmu_u4#1024 grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
MMU(4)
//@ mmu_u16#1024 grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
//@ mmu_u16#128 grid=128 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:16
MMU(16)
