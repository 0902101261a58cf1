// memlat_kernels.cu - how long one warp waits for a global load, by where
// the data is: the constants of the replay's clock (src/mem/replay_clock.c,
// issue 34), each measured by one chain here, not fitted to other launches.
//
// One warp (one block) runs a chain of `steps` dependent loads: each
// address is the value the previous load returned plus `stride`, masked to
// the footprint (`mask`, in words), so that the buffer's iota contents
// (a[i] = i) make a walk of stride words.  All lanes read the same word
// (one sector a request) unless the kernel spreads them.  The launch's
// time over its steps is the latency of one step: the load's round trip
// plus the add and the and (a few clocks, ptxas's IADD3 and LOP3).
//
//  - stride 0: the same word every step: an L1 hit (memlat_ca), or with
//    ld.global.cg an L2 hit on a line that stays (memlat_cg);
//  - a footprint that fits (64 KB): after the first pass, L1 (ca) or L2
//    (cg) hits on lines that differ each step;
//  - a walk of new lines (stride 32 words: the next line; 4128 words:
//    16.5 KB on, another DRAM row each step) over more than the L2
//    holds: a DRAM access each step (Nsight Compute flushes the caches
//    before each launch);
//  - four chains a warp (memlat4): four loads in flight, the step waits for
//    the slowest;
//  - the lanes on 32 lines (memlat_lanes): one request of 32 sectors a step.
//
//   warpmem sim groundtruth/ptx/memlat_kernels.ptx; on a GPU, gpu run and
//   ncu as tools/gpu/clock_runs.sh does (SETS=memlat=...).
#include <cuda_runtime.h>

//@ memlat_ca#hit grid=1 block=32 args=buf:u32:1024:iota,buf:u32:32,i32:4096,i32:0,i32:1023
//@ memlat_ca#fit grid=1 block=32 args=buf:u32:16384:iota,buf:u32:32,i32:8192,i32:32,i32:16383
//@ memlat_ca#dram_next grid=1 block=32 args=buf:u32:8388608:iota,buf:u32:32,i32:2048,i32:32,i32:8388607
//@ memlat_ca#dram_far grid=1 block=32 args=buf:u32:8388608:iota,buf:u32:32,i32:2000,i32:4128,i32:8388607
extern "C" __global__ void memlat_ca(const unsigned *a, unsigned *out, int steps, int stride, int mask) {
  unsigned idx = 0;
  for (int s = 0; s < steps; s++) idx = (a[idx] + (unsigned)stride) & (unsigned)mask;
  out[threadIdx.x] = idx;
}

//@ memlat_cg#hit grid=1 block=32 args=buf:u32:1024:iota,buf:u32:32,i32:4096,i32:0,i32:1023
//@ memlat_cg#fit grid=1 block=32 args=buf:u32:16384:iota,buf:u32:32,i32:8192,i32:32,i32:16383
//@ memlat_cg#dram_next grid=1 block=32 args=buf:u32:8388608:iota,buf:u32:32,i32:2048,i32:32,i32:8388607
//@ memlat_cg#dram_far grid=1 block=32 args=buf:u32:8388608:iota,buf:u32:32,i32:2000,i32:4128,i32:8388607
extern "C" __global__ void memlat_cg(const unsigned *a, unsigned *out, int steps, int stride, int mask) {
  unsigned idx = 0;
  for (int s = 0; s < steps; s++) idx = (__ldcg(&a[idx]) + (unsigned)stride) & (unsigned)mask;
  out[threadIdx.x] = idx;
}

// Four chains, a quarter of the footprint apart: four loads a step.
//@ memlat4_cg#fit grid=1 block=32 args=buf:u32:16384:iota,buf:u32:32,i32:8192,i32:32,i32:16383
//@ memlat4_cg#dram_far grid=1 block=32 args=buf:u32:8388608:iota,buf:u32:32,i32:500,i32:4128,i32:8388607
extern "C" __global__ void memlat4_cg(const unsigned *a, unsigned *out, int steps, int stride, int mask) {
  unsigned q = ((unsigned)mask + 1) / 4, i0 = 0, i1 = q, i2 = 2 * q, i3 = 3 * q;
  for (int s = 0; s < steps; s++) {
    i0 = (__ldcg(&a[i0]) + (unsigned)stride) & (unsigned)mask;
    i1 = (__ldcg(&a[i1]) + (unsigned)stride) & (unsigned)mask;
    i2 = (__ldcg(&a[i2]) + (unsigned)stride) & (unsigned)mask;
    i3 = (__ldcg(&a[i3]) + (unsigned)stride) & (unsigned)mask;
  }
  out[threadIdx.x] = i0 + i1 + i2 + i3;
}

// Each lane on its own line (32 words apart): a request of 32 sectors in
// 32 lines a step, the chain's address the lane's own.
//@ memlat_lanes_cg#fit grid=1 block=32 args=buf:u32:16384:iota,buf:u32:32,i32:4096,i32:1024,i32:16383
//@ memlat_lanes_cg#dram_far grid=1 block=32 args=buf:u32:8388608:iota,buf:u32:32,i32:1000,i32:8256,i32:8388607
extern "C" __global__ void memlat_lanes_cg(const unsigned *a, unsigned *out, int steps, int stride, int mask) {
  unsigned idx = threadIdx.x * 32;
  for (int s = 0; s < steps; s++) idx = (__ldcg(&a[idx]) + (unsigned)stride) & (unsigned)mask;
  out[threadIdx.x] = idx;
}

// An empty launch of the same shape: what a launch costs without its chain.
//@ memlat_empty grid=1 block=32 args=buf:u32:1024:iota,buf:u32:32,i32:0,i32:0,i32:1023
extern "C" __global__ void memlat_empty(const unsigned *a, unsigned *out, int steps, int stride, int mask) {
  if (steps) out[threadIdx.x] = a[threadIdx.x & (unsigned)mask] + (unsigned)stride;
}
