// share_kernels.cu - do the L2's read counters see one read when several
// SMs read the same sector at about the same time?  (issue 13: tiled
// kernels' L2 reads.)  On the H200 the public set's matrix_mul and nbody,
// whose blocks each run alone on an SM and miss L1 on every sector, read
// 62% and 59% of the L2 sectors their L1 misses ask for; mm_s on the H100
// misses L1 2.07 M sectors and reads 1.39 M from L2.
//
// share_read#K: K one-warp blocks, each reading the same 64 KB (512 loads
// of 128 B, 16 in flight) and writing one sum: K x 2048 sectors miss L1.
// share_read#lateK: the same, but block b first runs b x 256 dependent FMAs
// (about 0.5 us apart), so the blocks read the array at different times.
// share_own#K: each block reads its own 64 KB (nothing to share).
// (K = 3 to 264 added after the first measurement, for the curve.
// share_read#264's output buffer held 256 floats when it was measured: its
// last 8 blocks wrote past it on the GPU, which warpmem reports as an error;
// 512 since, which changes none of its counters.)
// Each //@ line is one launch, in the grammar of seed_kernels.cu.

//@ share_read#2 grid=2 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#8 grid=8 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#32 grid=32 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#128 grid=128 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#3 grid=3 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#4 grid=4 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#6 grid=6 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#12 grid=12 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#16 grid=16 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#64 grid=64 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#132 grid=132 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_read#264 grid=264 block=32 args=buf:f32:16384,buf:f32:512,i32:0
//@ share_read#late8 grid=8 block=32 args=buf:f32:16384,buf:f32:256,i32:256
//@ share_read#late32 grid=32 block=32 args=buf:f32:16384,buf:f32:256,i32:256
//@ share_read#late128 grid=128 block=32 args=buf:f32:16384,buf:f32:256,i32:256
extern "C" __global__ void share_read(const float *a, float *out, int delay) {
  float w = 1.0f + threadIdx.x;
  for (int i = 0; i < (int)blockIdx.x * delay; i++) w = w * 0.999f + 0.5f;
  float s = 0.0f;
  for (int i = 0; i < 16384; i += 32) s += a[i + threadIdx.x];
  out[blockIdx.x] = s + (w == 0.0f ? 1.0f : 0.0f);
}
//@ share_own#8 grid=8 block=32 args=buf:f32:2097152,buf:f32:256
//@ share_own#32 grid=32 block=32 args=buf:f32:2097152,buf:f32:256
extern "C" __global__ void share_own(const float *a, float *out) {
  const float *mine = a + (size_t)blockIdx.x * 16384;
  float s = 0.0f;
  for (int i = 0; i < 16384; i += 32) s += mine[i + threadIdx.x];
  out[blockIdx.x] = s;
}
// share_step#KcC (added 2026-11-26, second measurement): do blocks that
// start together stay in step?  K one-warp blocks read the same 64 KB in 16
// rounds of 4 KB (32 independent loads a lane), and between rounds run C
// dependent FMAs (about 4.7 clocks each); the next round's addresses wait
// for them.  With C = 0 the blocks read in step; the larger C, the more
// time for them to drift apart between rounds.
//@ share_step#128c0 grid=128 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_step#128c64 grid=128 block=32 args=buf:f32:16384,buf:f32:256,i32:64
//@ share_step#128c256 grid=128 block=32 args=buf:f32:16384,buf:f32:256,i32:256
//@ share_step#128c1024 grid=128 block=32 args=buf:f32:16384,buf:f32:256,i32:1024
//@ share_step#128c4096 grid=128 block=32 args=buf:f32:16384,buf:f32:256,i32:4096
//@ share_step#32c0 grid=32 block=32 args=buf:f32:16384,buf:f32:256,i32:0
//@ share_step#32c1024 grid=32 block=32 args=buf:f32:16384,buf:f32:256,i32:1024
//@ share_step#32c4096 grid=32 block=32 args=buf:f32:16384,buf:f32:256,i32:4096
extern "C" __global__ void share_step(const float *a, float *out, int work) {
  float w = 1.0f + threadIdx.x, s = 0.0f;
  for (int r = 0; r < 16; r++) {
    int off = w == 12345.0f ? 1 : 0; /* the round's loads wait for the chain */
    const float *p = a + r * 1024 + threadIdx.x + off;
#pragma unroll
    for (int i = 0; i < 32; i++) s += p[i * 32];
    for (int i = 0; i < work; i++) w = w * 0.999f + 0.5f;
  }
  out[blockIdx.x] = s + w;
}
