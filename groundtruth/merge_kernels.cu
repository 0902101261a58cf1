// Store merging in L1 (issue 13's "stores merged too widely"): when do two
// global stores to the same 32-byte sector reach L2 as one write?  Two
// families, measured with Nsight Compute (tools/gpu/hierarchy_ncu.sh
// merge; docs/results/); buffers zero-filled.  Each //@ line is one launch,
// in the grammar of seed_kernels.cu.

// ---- one warp, w stores to the same sectors, g dependent FMAs apart -------
// Thread t owns w consecutive floats; store k writes float k of each
// thread's run, so every store of a warp touches the same 4*w sectors
// (w = 2: 8 sectors in 2 lines, 4: 16 in 4, 8: 32 in 8).  Between two
// stores the thread runs g dependent FMAs (the value stored waits for
// them), so g sets the time between a warp's stores.  With no merging
// each store's sectors reach L2: w * 4w sectors a warp; with merging of
// back-to-back stores, 4w.
//@ st_gap#w2g0 grid=264 block=128 args=buf:f32:270336,i32:2,i32:0
//@ st_gap#w2g4 grid=264 block=128 args=buf:f32:270336,i32:2,i32:4
//@ st_gap#w2g32 grid=264 block=128 args=buf:f32:270336,i32:2,i32:32
//@ st_gap#w4g0 grid=264 block=128 args=buf:f32:270336,i32:4,i32:0
//@ st_gap#w4g4 grid=264 block=128 args=buf:f32:270336,i32:4,i32:4
//@ st_gap#w4g32 grid=264 block=128 args=buf:f32:270336,i32:4,i32:32
//@ st_gap#w8g0 grid=264 block=128 args=buf:f32:270336,i32:8,i32:0
//@ st_gap#w8g4 grid=264 block=128 args=buf:f32:270336,i32:8,i32:4
//@ st_gap#w8g32 grid=264 block=128 args=buf:f32:270336,i32:8,i32:32
extern "C" __global__ void st_gap(float *out, int w, int g) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (float)t;
  float *o = out + (size_t)t * w;
  for (int k = 0; k < w; k++) {
    for (int j = 0; j < g; j++) v = v * 1.0001f + 0.5f;
    o[k] = v;
  }
}

// ---- p warps of a block write the same 16 sectors -------------------------
// Lane l writes 2 floats' worth: float (l & 1) + 2 * slot of sector l / 2,
// the sectors one 128-byte line apart (16 sectors in 16 lines, as madd_nc's
// stores).  Warp wp of a block of 8 warps writes slot (wp / d) % p of group
// (wp / (p * d)) * d + wp % d: p warps share each group's sectors, and
// partners are d warps apart (d = 1: neighbours, on different SM
// sub-partitions; d = 4: warps w and w + 4, on the same one).  With no
// merging each warp's 16 sectors reach L2 (8 * 16 a block); with all
// partners merged, 16 per group.
//@ st_share#p1 grid=264 block=256 args=buf:f32:1081344,i32:1,i32:1
//@ st_share#p2d1 grid=264 block=256 args=buf:f32:1081344,i32:2,i32:1
//@ st_share#p2d2 grid=264 block=256 args=buf:f32:1081344,i32:2,i32:2
//@ st_share#p2d4 grid=264 block=256 args=buf:f32:1081344,i32:2,i32:4
//@ st_share#p4d1 grid=264 block=256 args=buf:f32:1081344,i32:4,i32:1
//@ st_share#p4d2 grid=264 block=256 args=buf:f32:1081344,i32:4,i32:2
extern "C" __global__ void st_share(float *out, int p, int d) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  int group = (wp / (p * d)) * d + wp % d, slot = (wp / d) % p;
  float *base = out + (size_t)blockIdx.x * 4096 + (size_t)group * 512;
  base[(lane >> 1) * 32 + (lane & 1) + 2 * slot] = (float)(blockIdx.x + threadIdx.x);
}

// ---- warps that drift apart: k round trips, then stores partners share ----
// Each warp first runs a chain of k dependent loads, each from a line of
// its own (the next address adds the value loaded, zero, so the compiler
// cannot overlap them): k round trips to L2 and DRAM, whose latencies
// differ from warp to warp.  Then its lanes store, in one of three ways:
//   s4: warps w..w+3 write the same 16 sectors, one a line (st_share#p4d1,
//       madd_nc's stores);
//   s1: lane 0 of each warp writes one float, the block's 8 warps into one
//       sector (policy_kernels.cu's cycle8, a block's partial sums);
//   s5: warp w writes floats 32w+1 .. 32w+32 of its block's row, 5 sectors
//       of which it shares the first with warp w - 1 and the last with
//       warp w + 1 (seed_kernels.cu's offset_copy#1).
// With no merging: 8 * 16, 8 and 8 * 5 sectors a block reach L2.  How much
// merges as k grows is how long the warps of a block stay in step.
//@ st_drift#s4k0 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:0,i32:0
//@ st_drift#s4k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:0
//@ st_drift#s4k2 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:2,i32:0
//@ st_drift#s4k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:0
//@ st_drift#s4k8 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:8,i32:0
//@ st_drift#s4k16 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:16,i32:0
//@ st_drift#s4k64 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:64,i32:0
//@ st_drift#s1k0 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:0,i32:1
//@ st_drift#s1k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:1
//@ st_drift#s1k2 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:2,i32:1
//@ st_drift#s1k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:1
//@ st_drift#s1k8 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:8,i32:1
//@ st_drift#s1k16 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:16,i32:1
//@ st_drift#s1k64 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:64,i32:1
//@ st_drift#s5k0 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:0,i32:2
//@ st_drift#s5k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:2
//@ st_drift#s5k2 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:2,i32:2
//@ st_drift#s5k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:2
//@ st_drift#s5k8 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:8,i32:2
//@ st_drift#s5k16 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:16,i32:2
//@ st_drift#s5k64 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:64,i32:2
extern "C" __global__ void st_drift(float *out, const float *in, int k, int how) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  const float *p = in + (size_t)(blockIdx.x * 8 + wp) * 64 * 32 + lane;
  float v = 0.0f;
  for (int j = 0; j < k; j++) v = p[(size_t)j * 32 + (int)v];
  float *row = out + (size_t)blockIdx.x * 4096;
  if (how == 0)
    row[(wp / 4) * 512 + (lane >> 1) * 32 + (lane & 1) + 2 * (wp % 4)] = v + 1.0f;
  else if (how == 1) {
    if (lane == 0) row[wp] = v + 1.0f;
  } else
    row[32 * wp + 1 + lane] = v + 1.0f;
}

// ---- the same, with a barrier between the round trips and the stores ------
// Do warps that drifted apart come back into step at __syncthreads()?
//@ st_rejoin#s4k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:0
//@ st_rejoin#s1k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:1
//@ st_rejoin#s5k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:2
//@ st_rejoin#s1k16 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:16,i32:1
extern "C" __global__ void st_rejoin(float *out, const float *in, int k, int how) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  const float *p = in + (size_t)(blockIdx.x * 8 + wp) * 64 * 32 + lane;
  float v = 0.0f;
  for (int j = 0; j < k; j++) v = p[(size_t)j * 32 + (int)v];
  __syncthreads();
  float *row = out + (size_t)blockIdx.x * 4096;
  if (how == 0)
    row[(wp / 4) * 512 + (lane >> 1) * 32 + (lane & 1) + 2 * (wp % 4)] = v + 1.0f;
  else if (how == 1) {
    if (lane == 0) row[wp] = v + 1.0f;
  } else
    row[32 * wp + 1 + lane] = v + 1.0f;
}
