// queue_kernels.cu - issue 13: checks of the crossbar rules of session 30
// (src/mem/xbar.h: TPC pairs where an SM holds 64 warps, SM i of four GPCs
// below; of XBAR_QUEUE loads queued an SM, a share (XBAR_QUEUE / Q)^2 meets
// beyond) on launches they were not fitted to: mm_g's loop unrolled 8
// times (between race_kernels.cu's 4 and 16), and with dynamic shared
// memory that leaves 6 or 4 blocks an SM (48 and 32 warps, between the 32
// and 64 that set XBAR_TPC_WARPS).  Measured on an H200 and an H100 by
// tools/gpu/queue_runs.sh; buffers zero-filled.  The model's predictions
// were written into docs/results/h200-2026-11-27-queue/README.md before the
// measurement.
//
// mmq_uU#G[sS]: C = A B (N = 512), one thread an element, blocks of 16 x 16
// (8 warps), G blocks, `#pragma unroll U` (2U loads in flight a warp), and
// S bytes of dynamic shared memory (34816: 6 blocks an SM; 48128: 4).
// Each //@ line is one launch, in the grammar of seed_kernels.cu.
#define PRAGMA(x) _Pragma(#x)
#define MMQ(U)                                                                                     \
  extern "C" __global__ void mmq_u##U(const float *A, const float *B, float *C, int N, int gx) {  \
    int bx = blockIdx.x % gx, by = blockIdx.x / gx;                                                \
    int r = by * 16 + threadIdx.y, c = bx * 16 + threadIdx.x;                                      \
    if (r >= N) return;                                                                            \
    float s = 0.0f;                                                                                \
    PRAGMA(unroll U) for (int k = 0; k < N; k++) s += A[r * N + k] * B[k * N + c];            \
    C[r * N + c] = s;                                                                              \
  }
//@ mmq_u8#1024 grid=1024 block=16,16 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
//@ mmq_u8#768s6 grid=768 block=16,16 smem=34816 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
MMQ(8)
//@ mmq_u16#768s6 grid=768 block=16,16 smem=34816 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
//@ mmq_u16#512s4 grid=512 block=16,16 smem=48128 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
MMQ(16)
//@ mmq_u4#512s4 grid=512 block=16,16 smem=48128 args=buf:f32:262144,buf:f32:262144,buf:f32:262144,i32:512,i32:32
MMQ(4)
