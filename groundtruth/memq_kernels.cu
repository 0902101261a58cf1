// memq_kernels.cu - what one warp waits for when several of its global
// loads miss at once (issue 34, the replay's clock): memlat_kernels.cu
// measured one miss a step (DRAM 700 clocks), four chains a step (878) and
// a request of 32 consecutive lines (913); which mechanism makes several
// misses slower than one is not known.  These chains tell apart:
//  - the slowest of N: N lines in one request (memq_lanes), consecutive
//    (#cN: 128 B apart, as memlat_lanes) or spread 33 KB apart (#sN).  If
//    each miss draws its latency from one distribution and the request
//    waits for its slowest, the step grows with N and levels off, alike for
//    both layouts; if the lines' channels or banks matter, the layouts
//    differ;
//  - a DRAM bank's rows: four chains, four requests a step (memq_chains),
//    their lines a separation apart: 8 MB (memlat4's, #far), 33 KB (#mid),
//    4 KB + 128 B (#near).  If four misses to one bank's rows queue behind
//    each other, the separations differ.
//  - the L2 alone: the same shapes over a 64 KB footprint (#l2_*): after
//    the first pass, L2 hits only.
// Every chain walks lines no load of the launch asked for before (its
// stride is more than the request's span), through a 256 MB iota buffer
// (a[i] = i), so that each step's lines come from DRAM; ld.global.cg, as
// memlat_cg, so that L1 keeps nothing.
//
//   warpmem sim groundtruth/ptx/memq_kernels.ptx; on a GPU, gpu run and
//   ncu as tools/gpu/clock_runs.sh does (SETS=memq=...).
#include <cuda_runtime.h>

// Lane l starts on line (l % nlines) of the step's span, `gap` words apart.
//@ memq_lanes#c1 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:1000,i32:4128,i32:67108863,i32:1,i32:32
//@ memq_lanes#c2 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:1000,i32:4128,i32:67108863,i32:2,i32:32
//@ memq_lanes#c4 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:1000,i32:4128,i32:67108863,i32:4,i32:32
//@ memq_lanes#c8 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:1000,i32:4128,i32:67108863,i32:8,i32:32
//@ memq_lanes#c16 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:1000,i32:4128,i32:67108863,i32:16,i32:32
//@ memq_lanes#c32 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:1000,i32:4128,i32:67108863,i32:32,i32:32
//@ memq_lanes#s4 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:400,i32:33056,i32:67108863,i32:4,i32:8256
//@ memq_lanes#s16 grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:400,i32:132128,i32:67108863,i32:16,i32:8256
//@ memq_lanes#l2_c4 grid=1 block=32 args=buf:u32:16384:iota,buf:u32:32,i32:4096,i32:1056,i32:16383,i32:4,i32:32
//@ memq_lanes#l2_c32 grid=1 block=32 args=buf:u32:16384:iota,buf:u32:32,i32:4096,i32:1056,i32:16383,i32:32,i32:32
// (added 2026-12-04 after the first measurement) the L2 alone with the
// lines spread: 256 starting points 4 KB apart in a 1 MB footprint, the
// lanes' lines 33 KB apart: after the first 256 steps, L2 hits only.
//@ memq_lanes#l2_s4 grid=1 block=32 args=buf:u32:262144:iota,buf:u32:32,i32:4096,i32:33792,i32:262143,i32:4,i32:8256
//@ memq_lanes#l2_s16 grid=1 block=32 args=buf:u32:262144:iota,buf:u32:32,i32:4096,i32:33792,i32:262143,i32:16,i32:8256
//@ memq_lanes#l2_s32 grid=1 block=32 args=buf:u32:262144:iota,buf:u32:32,i32:4096,i32:33792,i32:262143,i32:32,i32:8256
//@ memq_lanes#l2_c16 grid=1 block=32 args=buf:u32:262144:iota,buf:u32:32,i32:4096,i32:33792,i32:262143,i32:16,i32:32
extern "C" __global__ void memq_lanes(const unsigned *a, unsigned *out, int steps, int stride, int mask, int nlines,
                                      int gap) {
  unsigned idx = (threadIdx.x % (unsigned)nlines) * (unsigned)gap;
  for (int s = 0; s < steps; s++) idx = (__ldcg(&a[idx]) + (unsigned)stride) & (unsigned)mask;
  out[threadIdx.x] = idx;
}

// Four chains `sep` words apart, all lanes on each chain's word: four
// requests of one sector a step.
//@ memq_chains#far grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:500,i32:4128,i32:67108863,i32:2097152
//@ memq_chains#mid grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:500,i32:33056,i32:67108863,i32:8256
//@ memq_chains#near grid=1 block=32 args=buf:u32:67108864:iota,buf:u32:32,i32:500,i32:4160,i32:67108863,i32:1032
//@ memq_chains#l2 grid=1 block=32 args=buf:u32:16384:iota,buf:u32:32,i32:8192,i32:32,i32:16383,i32:4096
extern "C" __global__ void memq_chains(const unsigned *a, unsigned *out, int steps, int stride, int mask, int sep) {
  unsigned i0 = 0, i1 = (unsigned)sep, i2 = 2u * (unsigned)sep, i3 = 3u * (unsigned)sep;
  for (int s = 0; s < steps; s++) {
    i0 = (__ldcg(&a[i0]) + (unsigned)stride) & (unsigned)mask;
    i1 = (__ldcg(&a[i1]) + (unsigned)stride) & (unsigned)mask;
    i2 = (__ldcg(&a[i2]) + (unsigned)stride) & (unsigned)mask;
    i3 = (__ldcg(&a[i3]) + (unsigned)stride) & (unsigned)mask;
  }
  out[threadIdx.x] = i0 + i1 + i2 + i3;
}

// (added 2026-12-04, third run) many SMs at once on L2 hits: hierarchy's
// colsum_l2 (each one-warp block reads its own 128-byte strip of `rows`
// rows `pitch` floats apart, 4 passes, ld.global.cg) on 1 to 264 blocks.
// On 132 SMs the H200 took about 1000 clocks per 16 loads, one warp alone
// on other lines 394: does the step grow with the SMs at once?
//@ memq_colsum#k1 grid=1 block=32 args=buf:f32:16809984,buf:f32:8448,i32:16416,i32:1024
//@ memq_colsum#k8 grid=8 block=32 args=buf:f32:16809984,buf:f32:8448,i32:16416,i32:1024
//@ memq_colsum#k33 grid=33 block=32 args=buf:f32:16809984,buf:f32:8448,i32:16416,i32:1024
//@ memq_colsum#k66 grid=66 block=32 args=buf:f32:16809984,buf:f32:8448,i32:16416,i32:1024
//@ memq_colsum#k132 grid=132 block=32 args=buf:f32:16809984,buf:f32:8448,i32:16416,i32:1024
//@ memq_colsum#k264 grid=264 block=32 args=buf:f32:16809984,buf:f32:8448,i32:16416,i32:1024
//@ memq_colsum#near132 grid=132 block=32 args=buf:f32:4194304,buf:f32:8448,i32:1024,i32:256
extern "C" __global__ void memq_colsum(const float *a, float *out, int pitch, int rows) {
  int col = blockIdx.x * 32 + threadIdx.x;
  float s = 0.0f;
  for (int pass = 0; pass < 4; pass++)
    for (int r = 0; r < rows; r++) s += __ldcg(&a[(size_t)r * pitch + col]);
  out[col] = s;
}

// (added 2026-12-04, fourth run) what makes memq_colsum's full-line L2
// hits cost about 60 clocks each: one warp, colsum_l2's loop (16 loads an
// iteration, 256 rows 4 KB + 128 B apart, 4 passes: a 1 MB span, more
// than L1 holds), its lanes on `width` words of the line (32: the whole
// line, 4 sectors; 8: one sector; 1: one word), ld.global.cg or plain
// ld.global (cached in L1 where it can be).
//@ memq_rows_cg#w32 grid=1 block=32 args=buf:f32:270336,buf:f32:32,i32:1056,i32:256,i32:31
//@ memq_rows_cg#w8 grid=1 block=32 args=buf:f32:270336,buf:f32:32,i32:1056,i32:256,i32:7
//@ memq_rows_cg#w1 grid=1 block=32 args=buf:f32:270336,buf:f32:32,i32:1056,i32:256,i32:0
extern "C" __global__ void memq_rows_cg(const float *a, float *out, int pitch, int rows, int width) {
  int col = threadIdx.x & width;
  float s = 0.0f;
  for (int pass = 0; pass < 4; pass++)
    for (int r = 0; r < rows; r++) s += __ldcg(&a[(size_t)r * pitch + col]);
  out[threadIdx.x] = s;
}
//@ memq_rows_ca#w32 grid=1 block=32 args=buf:f32:270336,buf:f32:32,i32:1056,i32:256,i32:31
//@ memq_rows_ca#w8 grid=1 block=32 args=buf:f32:270336,buf:f32:32,i32:1056,i32:256,i32:7
extern "C" __global__ void memq_rows_ca(const float *a, float *out, int pitch, int rows, int width) {
  int col = threadIdx.x & width;
  float s = 0.0f;
  for (int pass = 0; pass < 4; pass++)
    for (int r = 0; r < rows; r++) s += a[(size_t)r * pitch + col];
  out[threadIdx.x] = s;
}

// An empty launch of the same shape: what a launch costs without its chain.
//@ memq_empty grid=1 block=32 args=buf:u32:1024:iota,buf:u32:32,i32:0,i32:0,i32:1023,i32:1,i32:32
extern "C" __global__ void memq_empty(const unsigned *a, unsigned *out, int steps, int stride, int mask, int nlines,
                                      int gap) {
  if (steps) out[threadIdx.x] = a[threadIdx.x & (unsigned)mask] + (unsigned)stride + (unsigned)nlines + (unsigned)gap;
}
