// Warps whose round trips fetch neighbouring lines: do they stay in step?
// (issue 13, store merging; the companion of merge_kernels.cu's st_drift,
// whose warps fetch lines 8 KB apart and drift apart after one round trip,
// while offset_copy#1's neighbours, fetching adjacent lines, still merge
// 42% of their shared sectors).  Measured with Nsight Compute
// (tools/gpu/hierarchy_ncu.sh near); buffers zero-filled.
//
// st_near#sSkK: K dependent loads a warp; round j of the block's 8 warps
// fetches 8 adjacent lines (1 KB: line 8j + w of the block's region), then
// the warps store to shared sectors as st_drift does (s4: warps w..w+3 the
// same 16 sectors, one a line; s1: one float a warp, the block's 8 into one
// sector; s5: floats 32w+1 .. 32w+32, a sector shared with each neighbour).
// With no merging: 8 * 16, 8 and 8 * 5 sectors a block reach L2.
// st_far#sSkK: the same with a block's warps' lines 8 KB apart in every
// round (st_drift's spacing), for the comparison in one run.
//@ st_near#s4k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:0
//@ st_near#s4k2 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:2,i32:0
//@ st_near#s4k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:0
//@ st_near#s4k16 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:16,i32:0
//@ st_near#s1k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:1
//@ st_near#s1k2 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:2,i32:1
//@ st_near#s1k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:1
//@ st_near#s1k16 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:16,i32:1
//@ st_near#s5k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:2
//@ st_near#s5k2 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:2,i32:2
//@ st_near#s5k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4,i32:2
//@ st_near#s5k16 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:16,i32:2
//@ st_far#s5k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:2
//@ st_far#s1k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:1
//@ st_far#s4k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1,i32:0

// The stores partners share, in pattern `how` (0: s4, 1: s1, 2: s5).
static __device__ __forceinline__ void shared_store(float *out, int how, int lane, int wp, float v) {
  float *row = out + (size_t)blockIdx.x * 4096;
  if (how == 0)
    row[(wp / 4) * 512 + (lane >> 1) * 32 + (lane & 1) + 2 * (wp % 4)] = v + 1.0f;
  else if (how == 1) {
    if (lane == 0) row[wp] = v + 1.0f;
  } else
    row[32 * wp + 1 + lane] = v + 1.0f;
}

// Round j reads line `j * step + w` of the block's 512 lines, the next
// address adding the value loaded (zero): k round trips.
static __device__ __forceinline__ float chain(const float *in, int k, int step, int lane, int wp) {
  const float *p = in + (size_t)blockIdx.x * 512 * 32 + (size_t)wp * 32 + lane;
  float v = 0.0f;
  for (int j = 0; j < k; j++) v = p[(size_t)j * step * 32 + (int)v];
  return v;
}

extern "C" __global__ void st_near(float *out, const float *in, int k, int how) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  shared_store(out, how, lane, wp, chain(in, k, 8, lane, wp));
}

// Warps 64 lines apart (8 KB), rounds a line apart: st_drift's spacing.
extern "C" __global__ void st_far(float *out, const float *in, int k, int how) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  const float *p = in + (size_t)blockIdx.x * 512 * 32 + (size_t)wp * 64 * 32 + lane;
  float v = 0.0f;
  for (int j = 0; j < k; j++) v = p[(size_t)j * 32 + (int)v];
  shared_store(out, how, lane, wp, v);
}
