// Which fill a warp resumes with (issue 13, store merging; cache_step.h's
// "In step").  A warp waits for every line its loads miss; it resumes when
// the last of them is in.  Two warps that resume with the same fill are in
// step, and their stores to a shared sector merge; fills of different
// lines come back in an order no warp controls.  Measured with Nsight
// Compute (tools/gpu/hierarchy_ncu.sh fill); buffers zero-filled.  Every
// launch: 264 blocks of 8 warps, then stores as merge_kernels.cu's s5 (warp
// w writes floats 32w+1 .. 32w+32 of its block's row: 5 sectors, the last
// shared with warp w + 1; 7 shared sectors a block, 8 * 5 sectors with no
// merging).
//
// st_lastfill#jJ: warp g (of the grid) loads, in one round, J + 2
// neighbouring lines: line g(J+1), shared with warp g - 1, J lines of its
// own, and line (g+1)(J+1), shared with warp g + 1 (J = 0: offset_copy#1's
// loads).  Warps g and g + 1 both wait for line (g+1)(J+1); they resume
// with it when its fill is the last of both warps' 2J + 3 lines: in
// 1 / (2J + 3) of the pairs if the order is the lines' own.
//@ st_lastfill#j0 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:0
//@ st_lastfill#j1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1
//@ st_lastfill#j3 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:3
//@ st_lastfill#j7 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:7
extern "C" __global__ void st_lastfill(float *out, const float *in, int j) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  size_t g = (size_t)blockIdx.x * 8 + wp;
  float v = in[(g * (j + 1) + lane % (j + 2)) * 32 + lane];
  out[(size_t)blockIdx.x * 4096 + 32 * wp + 1 + lane] = v + 1.0f;
}

// st_pairfill#kK: K dependent loads from lines of the warp's own, 8 KB
// apart (merge_kernels.cu's st_drift: the warps drift apart), then one
// load, dependent too, from a line the warps 2p and 2p + 1 of a block
// share: each pair waits for one fill last, if the second warp asks for
// the line before it is in.  Pairs (2p, 2p+1) share that fill; pairs
// (2p+1, 2p+2) do not.
//@ st_pairfill#k0 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:0
//@ st_pairfill#k1 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:1
//@ st_pairfill#k4 grid=264 block=256 args=buf:f32:1081344,buf:f32:4325376,i32:4
extern "C" __global__ void st_pairfill(float *out, const float *in, int k) {
  int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  const float *p = in + (size_t)(blockIdx.x * 8 + wp) * 64 * 32 + lane;
  float v = 0.0f;
  for (int j = 0; j < k; j++) v = p[(size_t)j * 32 + (int)v];
  const float *t = in + (size_t)(blockIdx.x * 8 + (wp & ~1)) * 64 * 32 + 63 * 32 + lane;
  v = t[(int)v];
  out[(size_t)blockIdx.x * 4096 + 32 * wp + 1 + lane] = v + 1.0f;
}
