// The L2's capacity for data one SM reads and for data every SM reads (issue
// 13: policy_kernels.cu's cycles of 39 MB stay in the H200's L2, of 52 MB
// do not, while the model's L2 is 30 MB, half the 60 MB, because the two
// partitions may each keep a line).  Measured with Nsight Compute
// (tools/gpu/hierarchy_ncu.sh l2cap; docs/results/); buffers zero-filled.
// Each //@ line is one launch, in the grammar of seed_kernels.cu.

// ---- private: block b cycles over lines [b*K, b*K + K), 3 passes ----------
// 132 blocks of 8 warps, one an SM; K lines a block beyond the L1 (1792
// lines), so every pass reaches the L2: 132 * K * 128 bytes in all, 30 to
// 52 MB.
//@ l2_own#1776 grid=132 block=256 args=buf:f32:7501824,buf:f32:1056,i32:1776,i32:3
//@ l2_own#2128 grid=132 block=256 args=buf:f32:8988672,buf:f32:1056,i32:2128,i32:3
//@ l2_own#2368 grid=132 block=256 args=buf:f32:10002432,buf:f32:1056,i32:2368,i32:3
//@ l2_own#2608 grid=132 block=256 args=buf:f32:11016192,buf:f32:1056,i32:2608,i32:3
//@ l2_own#2848 grid=132 block=256 args=buf:f32:12029952,buf:f32:1056,i32:2848,i32:3
//@ l2_own#3072 grid=132 block=256 args=buf:f32:12976128,buf:f32:1056,i32:3072,i32:3
extern "C" __global__ void l2_own(const float *a, float *out, int lines, int passes) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  const float *p = a + (size_t)blockIdx.x * lines * 32 + l;
  float s = 0.0f;
  for (int r = 0; r < passes; r++)
    for (int i = w; i < lines; i += 8) s += p[(size_t)i * 32];
  if (l == 0) out[blockIdx.x * 8 + w] = s;
}

// ---- shared: every block cycles over the same K lines, 2 passes -----------
// Block b starts at line b * K / 132 (so that blocks do not ask for a line
// at the same moment and merge in the crossbar), 132 blocks of 8 warps;
// K * 128 bytes: 20 to 44 MB, each line read by all 132 SMs a pass.
//@ l2_all#163840 grid=132 block=256 args=buf:f32:5242880,buf:f32:1056,i32:163840,i32:2
//@ l2_all#196608 grid=132 block=256 args=buf:f32:6291456,buf:f32:1056,i32:196608,i32:2
//@ l2_all#229376 grid=132 block=256 args=buf:f32:7340032,buf:f32:1056,i32:229376,i32:2
//@ l2_all#262144 grid=132 block=256 args=buf:f32:8388608,buf:f32:1056,i32:262144,i32:2
//@ l2_all#294912 grid=132 block=256 args=buf:f32:9437184,buf:f32:1056,i32:294912,i32:2
//@ l2_all#360448 grid=132 block=256 args=buf:f32:11534336,buf:f32:1056,i32:360448,i32:2
extern "C" __global__ void l2_all(const float *a, float *out, int lines, int passes) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  int start = (int)((long long)blockIdx.x * lines / gridDim.x);
  float s = 0.0f;
  for (int r = 0; r < passes; r++)
    for (int i = w; i < lines; i += 8) {
      int ln = start + i;
      if (ln >= lines) ln -= lines;
      s += a[(size_t)ln * 32 + l];
    }
  if (l == 0) out[blockIdx.x * 8 + w] = s;
}
