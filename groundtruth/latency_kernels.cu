// latency_kernels.cu - how long one warp waits for the result of each kind
// of PTX instruction (issue 13: the time of latency-bound kernels).
//
// Each kernel is one warp running a chain of 512 instructions of one kind,
// each reading the previous one's result, between two reads of %clock64.
// lat[k] is the chain's clocks per instruction: the dependent latency of a
// PTX instruction as ptxas compiles it (rem.s32 by a run-time value, for
// one, is some twenty SASS instructions).  Chains that need a second
// instruction to stay dependent (noted) include that one's 4-clock add.
// The loop counter is independent of the chain, so it overlaps.
//
//   nvcc -arch=sm_90 -o lat groundtruth/latency_kernels.cu && ./lat
//
// prints "name clocks-per-instruction" lines (docs/results/.../latency.txt).
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define N 512
#define UNROLL 16

// The timed chain: `step` UNROLL times a loop iteration, n steps in all,
// between two reads of %clock64; thread 0 writes the clocks to out[0].
#define TIMED(step)                                                             \
  long long t0 = clock64();                                                     \
  _Pragma("unroll 1") for (int i = 0; i < n; i += UNROLL) {                     \
    _Pragma("unroll") for (int j = 0; j < UNROLL; j++) { step; }                \
  }                                                                             \
  long long t1 = clock64();                                                     \
  if (threadIdx.x == 0) out[0] = t1 - t0;

// One kernel: x starts as `init` (an int or float expression of the
// arguments, which the compiler cannot know), `body` is the inline PTX of
// one step from x to x.
#define CHAIN(name, T, C, init, body, ...)                                      \
  __global__ void name(long long *out, T *keep, int n, T a, T b) {              \
    T x = init;                                                                 \
    TIMED(asm volatile(body : "+" C(x) : __VA_ARGS__))                          \
    keep[threadIdx.x] = x;                                                      \
  }

#define R "r"
#define F "f"
#define D "d"

// (ptxas folds chains of add.s32: fma.f32 stands for the simple ALU)
CHAIN(k_mad_lo_s32, int, R, a, "mad.lo.s32 %0, %0, %1, %2;", "r"(b), "r"(a))
CHAIN(k_mul_hi_u32, int, R, a, "mul.hi.u32 %0, %0, %1;", "r"(b))
CHAIN(k_fma_f32, float, F, a, "fma.rn.f32 %0, %0, %1, %2;", "f"(b), "f"(a))
CHAIN(k_fma_f64, double, D, a, "fma.rn.f64 %0, %0, %1, %2;", "d"(b), "d"(a))
CHAIN(k_lop3, int, R, a, "lop3.b32 %0, %0, %1, %2, 0x96;", "r"(b), "r"(a))
CHAIN(k_popc, int, R, a, "popc.b32 %0, %0;")
CHAIN(k_selp, int, R, a, "{ .reg .pred p; setp.lt.s32 p, %0, %1; selp.b32 %0, %1, %0, p; }", "r"(b))
CHAIN(k_cvt_f32_s32, int, R, a, "{ .reg .f32 f; cvt.rn.f32.s32 f, %0; cvt.rzi.s32.f32 %0, f; }")
// integer division and remainder by a run-time value: a subroutine in SASS
CHAIN(k_rem_s32, int, R, a, "{ rem.s32 %0, %0, %1; add.s32 %0, %0, %1; }", "r"(b))  // + add
CHAIN(k_div_s32, int, R, a, "{ div.s32 %0, %0, %1; add.s32 %0, %0, %1; }", "r"(b))  // + add
CHAIN(k_rem_u32, int, R, a, "{ rem.u32 %0, %0, %1; add.s32 %0, %0, %1; }", "r"(b))  // + add
// float division, square root and the special function unit
CHAIN(k_div_rn_f32, float, F, a, "div.rn.f32 %0, %0, %1;", "f"(b))
CHAIN(k_div_approx_f32, float, F, a, "div.approx.f32 %0, %0, %1;", "f"(b))
CHAIN(k_rcp_rn_f32, float, F, a, "rcp.rn.f32 %0, %0;")
CHAIN(k_sqrt_rn_f32, float, F, a, "sqrt.rn.f32 %0, %0;")
CHAIN(k_ex2_approx, float, F, a, "ex2.approx.ftz.f32 %0, %0;")
CHAIN(k_sin_approx, float, F, a, "sin.approx.f32 %0, %0;")
CHAIN(k_div_rn_f64, double, D, a, "div.rn.f64 %0, %0, %1;", "d"(b))
CHAIN(k_rsqrt_approx, float, F, a, "rsqrt.approx.f32 %0, %0;")
CHAIN(k_lg2_approx, float, F, a, "lg2.approx.f32 %0, %0;")
CHAIN(k_tanh_approx, float, F, a, "tanh.approx.f32 %0, %0;")
CHAIN(k_sqrt_approx, float, F, a, "sqrt.approx.f32 %0, %0;")
// half precision and conversions between float widths
CHAIN(k_fma_f16x2, int, R, a, "fma.rn.f16x2 %0, %0, %1, %2;", "r"(b), "r"(a))
CHAIN(k_cvt_f16_f32, float, F, a, "{ .reg .f16 h; cvt.rn.f16.f32 h, %0; cvt.f32.f16 %0, h; }")
// a 32 x 32 -> 64-bit multiply (the address arithmetic of every array index)
CHAIN(k_mul_wide_u32, long long, "l", a, "{ .reg .u32 lo; cvt.u32.u64 lo, %0; mul.wide.u32 %0, lo, %1; }", "r"((int)b))
// lanes exchanging values
// (values that differ by lane: ptxas drops shuffles of a uniform value; a
// lane from the value itself, xor masks that alternate)
CHAIN(k_shfl_idx, int, R, a + (int)threadIdx.x, "{ .reg .b32 l; and.b32 l, %0, 31; shfl.sync.idx.b32 %0, %0, l, 0x1f, -1; }")  // + and
CHAIN(k_shfl_bfly, int, R, a + (int)threadIdx.x, "{ shfl.sync.bfly.b32 %0, %0, %1, 0x1f, -1; shfl.sync.bfly.b32 %0, %0, %2, 0x1f, -1; }", "r"(b), "r"(a))  // 2 a step
CHAIN(k_vote_ballot, int, R, a, "{ .reg .pred p; setp.ne.s32 p, %0, 0; vote.sync.ballot.b32 %0, p, -1; }")
CHAIN(k_redux_add, int, R, a, "redux.sync.add.u32 %0, %0, -1;")
CHAIN(k_match_any, int, R, a, "match.any.sync.b32 %0, %0, -1;")

// Shared memory: a chase through a word that holds its own address (0).
__global__ void k_ld_shared(long long *out, int *keep, int n, int a, int b) {
  __shared__ int s[32];
  s[threadIdx.x] = 0;
  __syncwarp();
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  int x = a & 0; /* 0, unknown to the compiler */
  TIMED(asm volatile("{ .reg .u32 p; add.u32 p, %1, %0; ld.shared.u32 %0, [p]; }" : "+r"(x) : "r"(base)))
  keep[threadIdx.x] = x + b;
}

// A shared atomic whose result is the next one's operand.
__global__ void k_atom_shared(long long *out, int *keep, int n, int a, int b) {
  __shared__ int s[32];
  s[threadIdx.x] = a;
  __syncwarp();
  unsigned at = (unsigned)__cvta_generic_to_shared(s + threadIdx.x);
  int x = b;
  TIMED(asm volatile("atom.shared.add.u32 %0, [%1], %0;" : "+r"(x) : "r"(at)))
  keep[threadIdx.x] = x;
}

// Global memory: a chase through one word of L1 (the first miss is 1 in 512).
__global__ void k_ld_global(long long *out, int *keep, int n, int a, int b) {
  long long x = (long long)(keep + 64) + (a & 0);
  keep[64] = 0;
  __syncwarp();
  TIMED(asm volatile("{ .reg .s32 v; .reg .s64 w; ld.global.s32 v, [%0]; cvt.s64.s32 w, v; add.s64 %0, %0, w; }" : "+l"(x)))
  keep[threadIdx.x] = (int)x + b;
}

// A warp's tensor-core multiply-add, d = a * b + d (m16n8k16, f16 in, f32 accumulate).
__global__ void k_mma_f16(long long *out, float *keep, int n, float a, float b) {
  unsigned ha = __half_as_ushort(__float2half(a)) * 0x10001u, hb = __half_as_ushort(__float2half(b)) * 0x10001u;
  float d0 = a, d1 = b, d2 = a, d3 = b;
  TIMED(asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(ha), "r"(hb)))
  keep[threadIdx.x] = d0 + d1 + d2 + d3;
}

// A call of a function that cannot be inlined, and its return.
__device__ __noinline__ int callee(int x, int b) { return x + b; }
__global__ void k_call(long long *out, int *keep, int n, int a, int b) {
  int x = a;
  TIMED(x = callee(x, b))
  keep[threadIdx.x] = x;
}

// bar.sync of a one-warp block, each after an add the next one reads.
__global__ void k_bar_sync(long long *out, int *keep, int n, int a, int b) {
  int x = a;
  TIMED(asm volatile("{ add.s32 %0, %0, %1; bar.sync 0; }" : "+r"(x) : "r"(b)))
  keep[threadIdx.x] = x;
}

// Independent work beside a chain (the schedule of emu_latency.c): k
// chains side by side, a step one instruction of each, so the step's
// clocks over k are what an independent instruction costs a warp alone.
#define SIDE(name, T, C, op)                                                    \
  __global__ void name(long long *out, T *keep, int n, T a, T b) {              \
    T x0 = a, x1 = a + b, x2 = a - b, x3 = b, x4 = a * b, x5 = b - a, x6 = a + a, x7 = b + b; \
    TIMED(asm volatile("{" op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) "}"  \
                       : "+" C(x0), "+" C(x1), "+" C(x2), "+" C(x3), "+" C(x4), "+" C(x5), "+" C(x6), "+" C(x7) \
                       : C(b), C(a)))                                           \
    keep[threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;                 \
  }
#define FMA_OP(i) "fma.rn.f32 %" #i ", %" #i ", %8, %9;"
#define MAD_OP(i) "mad.lo.s32 %" #i ", %" #i ", %8, %9;"
SIDE(k_fma_x8, float, F, FMA_OP)   // 8 independent FMAs a step
SIDE(k_mad_x8, int, R, MAD_OP)     // 8 independent integer mads a step
// a long latency beside a dependent chain: rsqrt (39) on x, 8 dependent FMAs
// on y, a step; summed 39 + 8 x 4 = 71, overlapped about 39
__global__ void k_rsqrt_beside_fma(long long *out, float *keep, int n, float a, float b) {
  float x = a, y = b;
  TIMED(asm volatile("{ rsqrt.approx.f32 %0, %0; fma.rn.f32 %1, %1, %2, %3; fma.rn.f32 %1, %1, %2, %3;"
                     " fma.rn.f32 %1, %1, %2, %3; fma.rn.f32 %1, %1, %2, %3; fma.rn.f32 %1, %1, %2, %3;"
                     " fma.rn.f32 %1, %1, %2, %3; fma.rn.f32 %1, %1, %2, %3; fma.rn.f32 %1, %1, %2, %3; }"
                     : "+f"(x), "+f"(y) : "f"(b), "f"(a)))
  keep[threadIdx.x] = x + y;
}

template <typename T> static void run(const char *name, void (*k)(long long *, T *, int, T, T), T a, T b) {
  long long *out, h[2];
  T *keep;
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&keep, 128 * sizeof(T) + 1024);
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) { /* the first warms the instruction cache */
    k<<<1, 32>>>(out, keep, N, a, b);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("%s error %s\n", name, cudaGetErrorString(e)); return; }
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    double c = (double)h[0] / N;
    if (rep > 0 && c < best) best = c;
  }
  printf("%-18s %7.1f\n", name, best);
  cudaFree(out);
  cudaFree(keep);
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("# %s, clocks per dependent instruction (best of 4 runs, %d per chain)\n", p.name, N);
#define RUN_I(k) run<int>(#k + 2, k, 7, 3)
#define RUN_F(k) run<float>(#k + 2, k, 1.0001f, 0.9999f)
#define RUN_D(k) run<double>(#k + 2, k, 1.0001, 0.9999)
  RUN_I(k_mad_lo_s32); RUN_I(k_mul_hi_u32); RUN_F(k_fma_f32); RUN_D(k_fma_f64);
  RUN_I(k_lop3); RUN_I(k_popc); RUN_I(k_selp); RUN_I(k_cvt_f32_s32);
  RUN_I(k_rem_s32); RUN_I(k_div_s32); RUN_I(k_rem_u32);
  RUN_F(k_div_rn_f32); RUN_F(k_div_approx_f32); RUN_F(k_rcp_rn_f32); RUN_F(k_sqrt_rn_f32);
  RUN_F(k_ex2_approx); RUN_F(k_sin_approx); RUN_D(k_div_rn_f64);
  RUN_F(k_rsqrt_approx); RUN_F(k_lg2_approx); RUN_F(k_tanh_approx); RUN_F(k_sqrt_approx);
  RUN_I(k_fma_f16x2); RUN_F(k_cvt_f16_f32); run<long long>("mul_wide_u32", k_mul_wide_u32, 7, 3);
  RUN_I(k_shfl_idx); RUN_I(k_shfl_bfly); RUN_I(k_vote_ballot); RUN_I(k_redux_add); RUN_I(k_match_any);
  RUN_I(k_ld_shared); RUN_I(k_atom_shared); RUN_I(k_ld_global); RUN_F(k_mma_f16); RUN_I(k_call); RUN_I(k_bar_sync);
  RUN_F(k_fma_x8); RUN_I(k_mad_x8); RUN_F(k_rsqrt_beside_fma); /* clocks a step, not an instruction */
  return 0;
}
