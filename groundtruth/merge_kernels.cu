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
