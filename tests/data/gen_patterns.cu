// Access patterns of the seeds' tables, for tests/test_generations.c: each
// is simulated on several GPU generations (--arch gt200|fermi|kepler|h200,
// --loads ca|cg, --bank-mode 4|8).  PTX beside this file:
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo gen_patterns.cu
// Each '//@' line is one launch (grammar: src/launch/launch.h).

// ---- global loads: seed 004's caching and non-caching load cases ---------
// Lane l of warp w reads in[w * 2048 + ((l * a + b) & 31) * s + off]: a odd
// permutes the lanes, s spreads them, off misaligns them, s = 0 makes every
// lane read one word.  The input is zero-filled, so the store never runs:
// the load under test is the launch's only global traffic.
//@ gen_ld32#aligned grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:1,i32:0,i32:1,i32:0
//@ gen_ld32#permuted grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:7,i32:3,i32:1,i32:0
//@ gen_ld32#misaligned grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:1,i32:0,i32:1,i32:1
//@ gen_ld32#misaligned32 grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:1,i32:0,i32:1,i32:8
//@ gen_ld32#one_word grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:1,i32:0,i32:0,i32:5
//@ gen_ld32#lines grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:1,i32:0,i32:32,i32:0
//@ gen_ld32#scattered grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:13,i32:5,i32:37,i32:2
extern "C" __global__ void gen_ld32(const float* in, float* out, int a, int b, int s, int off) {
  int lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  float v = in[warp * 2048 + ((lane * a + b) & 31) * s + off];
  if (v != 0.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The same through ld.global.cg (cached in L2 only), whatever --loads says.
//@ gen_ld32_cg#aligned grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:1,i32:0,i32:1,i32:0
//@ gen_ld32_cg#one_word grid=2 block=64 args=buf:f32:8192:zero,buf:f32:128,i32:1,i32:0,i32:0,i32:5
extern "C" __global__ void gen_ld32_cg(const float* in, float* out, int a, int b, int s, int off) {
  int lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  float v = __ldcg(&in[warp * 2048 + ((lane * a + b) & 31) * s + off]);
  if (v != 0.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// 1-byte and 8-byte words: 1.x segments follow the word size (32 bytes for
// 1-byte words), Fermi splits 8-byte requests into half-warps.
//@ gen_ld8#aligned grid=2 block=64 args=buf:u8:8192:zero,buf:u8:128,i32:1,i32:0,i32:1,i32:0
extern "C" __global__ void gen_ld8(const unsigned char* in, unsigned char* out, int a, int b, int s,
                                   int off) {
  int lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned char v = in[warp * 2048 + ((lane * a + b) & 31) * s + off];
  if (v != 0) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
//@ gen_ld64#aligned grid=2 block=64 args=buf:f64:8192:zero,buf:f64:128,i32:1,i32:0,i32:1,i32:0
//@ gen_ld64#one_word grid=2 block=64 args=buf:f64:8192:zero,buf:f64:128,i32:1,i32:0,i32:0,i32:5
extern "C" __global__ void gen_ld64(const double* in, double* out, int a, int b, int s, int off) {
  int lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  double v = in[warp * 1024 + ((lane * a + b) & 31) * s + off];
  if (v != 0.0) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Stores (Fermi: 32-byte segments whatever --loads says).
//@ gen_st32#aligned grid=2 block=64 args=buf:f32:8192,i32:1,i32:0,i32:1,i32:0
//@ gen_st32#misaligned grid=2 block=64 args=buf:f32:8192,i32:1,i32:0,i32:1,i32:1
extern "C" __global__ void gen_st32(float* out, int a, int b, int s, int off) {
  int lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  out[warp * 2048 + ((lane * a + b) & 31) * s + off] = 1.0f;
}

// ---- shared memory: seed 000's bank examples (GTX 680) -------------------
// One warp reads sh[s * t]: "foo = shared[baseIndex + s * threadIdx.x]".
// The fill loop's stores are conflict-free; the load is the one under test.
//@ gen_sh32#s1 grid=1 block=32 args=buf:f32:32,i32:1
//@ gen_sh32#s2 grid=1 block=32 args=buf:f32:32,i32:2
//@ gen_sh32#s3 grid=1 block=32 args=buf:f32:32,i32:3
//@ gen_sh32#s4 grid=1 block=32 args=buf:f32:32,i32:4
//@ gen_sh32#s32 grid=1 block=32 args=buf:f32:32,i32:32
//@ gen_sh32#s33 grid=1 block=32 args=buf:f32:32,i32:33
//@ gen_sh32#same grid=1 block=32 args=buf:f32:32,i32:0
extern "C" __global__ void gen_sh32(float* out, int s) {
  __shared__ float sh[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) sh[i] = i;
  __syncthreads();
  out[threadIdx.x] = sh[s * threadIdx.x];
}

// "__shared__ char shared[]; foo = shared[baseIndex + threadIdx.x]"
//@ gen_sh8 grid=1 block=32 args=buf:u8:32
extern "C" __global__ void gen_sh8(unsigned char* out) {
  __shared__ unsigned char sh[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) sh[i] = (unsigned char)i;
  __syncthreads();
  out[threadIdx.x] = sh[threadIdx.x];
}

// "__shared__ double shared[]; foo = shared[baseIndex + threadIdx.x]"
//@ gen_sh64 grid=1 block=32 args=buf:f64:32
extern "C" __global__ void gen_sh64(double* out) {
  __shared__ double sh[64];
  for (int i = threadIdx.x; i < 64; i += blockDim.x) sh[i] = i;
  __syncthreads();
  out[threadIdx.x] = sh[threadIdx.x];
}

// "struct vector2 { float f; int c; }; v = v2[baseIndex + threadIdx.x]" and
// the 3-word "struct vector3 { float x, y, z; }": each member is one 32-bit
// load with a stride of 2 (3) words.
struct vector2 { float f; int c; };
struct vector3 { float x, y, z; };
//@ gen_shv2 grid=1 block=32 args=buf:f32:32
extern "C" __global__ void gen_shv2(float* out) {
  __shared__ vector2 v2[64];
  for (int i = threadIdx.x; i < 64; i += blockDim.x) v2[i] = vector2{(float)i, i};
  __syncthreads();
  vector2 v = v2[threadIdx.x];
  out[threadIdx.x] = v.f + v.c;
}
//@ gen_shv3 grid=1 block=32 args=buf:f32:32
extern "C" __global__ void gen_shv3(float* out) {
  __shared__ vector3 v3[64];
  for (int i = threadIdx.x; i < 64; i += blockDim.x) v3[i] = vector3{(float)i, 1.0f, 2.0f};
  __syncthreads();
  vector3 v = v3[threadIdx.x];
  out[threadIdx.x] = v.x + v.y + v.z;
}

// "shared[2*tid] = global[2*tid]; shared[2*tid+1] = global[2*tid+1];" (the
// seed's 2-way example) against "shared[tid] = global[tid]; shared[tid +
// blockDim.x] = global[tid + blockDim.x];" (its better pattern).
//@ gen_sh2tid#interleaved grid=1 block=32 args=buf:f32:64,buf:f32:32,i32:1
//@ gen_sh2tid#blocked grid=1 block=32 args=buf:f32:64,buf:f32:32,i32:0
extern "C" __global__ void gen_sh2tid(const float* g, float* out, int interleaved) {
  __shared__ float sh[64];
  int tid = threadIdx.x;
  if (interleaved) {
    sh[2 * tid] = g[2 * tid];
    sh[2 * tid + 1] = g[2 * tid + 1];
  } else {
    sh[tid] = g[tid];
    sh[tid + blockDim.x] = g[tid + blockDim.x];
  }
  __syncthreads();
  out[tid] = sh[tid] + sh[tid + 32];
}
