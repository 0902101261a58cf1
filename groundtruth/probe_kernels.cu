// Probe kernels: memory patterns the seed kernels do not cover, measured with
// Nsight Compute (tools/probe/run_on_gpu.sh) to check the model's rules (README.md beside this file).
// Each //@ line is one launch, in the grammar of seed_kernels.cu.

// shared memory, 8-byte words: lane t reads s[((t >> sh) * stride) % 1024]
//@ sh64#consecutive grid=1 block=32 args=buf:f64:32,i32:1,i32:0
//@ sh64#stride2 grid=1 block=32 args=buf:f64:32,i32:2,i32:0
//@ sh64#stride16 grid=1 block=32 args=buf:f64:32,i32:16,i32:0
//@ sh64#broadcast grid=1 block=32 args=buf:f64:32,i32:0,i32:0
//@ sh64#pairs grid=1 block=32 args=buf:f64:32,i32:1,i32:1
//@ sh64#quads grid=1 block=32 args=buf:f64:32,i32:1,i32:2
extern "C" __global__ void sh64(double* out, int stride, int sh) {
  __shared__ double s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = i;
  __syncthreads();
  out[t] = s[((t >> sh) * stride) % 1024];
}
// shared memory, 16-byte words
//@ sh128#consecutive grid=1 block=32 args=buf:f32:128,i32:1,i32:0
//@ sh128#stride2 grid=1 block=32 args=buf:f32:128,i32:2,i32:0
//@ sh128#stride8 grid=1 block=32 args=buf:f32:128,i32:8,i32:0
//@ sh128#broadcast grid=1 block=32 args=buf:f32:128,i32:0,i32:0
//@ sh128#pairs grid=1 block=32 args=buf:f32:128,i32:1,i32:1
//@ sh128#quads grid=1 block=32 args=buf:f32:128,i32:1,i32:2
extern "C" __global__ void sh128(float4* out, int stride, int sh) {
  __shared__ float4 s[256];
  int t = threadIdx.x;
  for (int i = t; i < 256; i += blockDim.x) s[i] = make_float4(i, i, i, i);
  __syncthreads();
  out[t] = s[((t >> sh) * stride) % 256];
}
// shared-memory atomics: lane t adds to s[(t * stride) % mod]
//@ shatom#distinct grid=1 block=32 args=buf:i32:32,i32:1,i32:1024
//@ shatom#same grid=1 block=32 args=buf:i32:32,i32:0,i32:1024
//@ shatom#bank0 grid=1 block=32 args=buf:i32:32,i32:32,i32:1024
//@ shatom#mod8 grid=1 block=32 args=buf:i32:32,i32:1,i32:8
extern "C" __global__ void shatom(int* out, int stride, int mod) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  int old = atomicAdd(&s[(t * stride) % mod], 1);
  __syncthreads();
  out[t] = old + s[t];
}
// global atomics with and without a result (atom vs red)
//@ gatom#distinct grid=4 block=32 args=buf:i32:4096,buf:i32:128,i32:1,i32:4096
//@ gatom#same grid=4 block=32 args=buf:i32:4096,buf:i32:128,i32:0,i32:4096
//@ gatom#stride8 grid=4 block=32 args=buf:i32:4096,buf:i32:128,i32:8,i32:4096
//@ gatom#stride32 grid=4 block=32 args=buf:i32:4096,buf:i32:128,i32:32,i32:4096
extern "C" __global__ void gatom(int* a, int* out, int stride, int mod) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = atomicAdd(&a[(t * stride) % mod], 1);
}
//@ gred#distinct grid=4 block=32 args=buf:i32:4096,i32:1,i32:4096
//@ gred#same grid=4 block=32 args=buf:i32:4096,i32:0,i32:4096
//@ gred#stride8 grid=4 block=32 args=buf:i32:4096,i32:8,i32:4096
//@ gred#stride32 grid=4 block=32 args=buf:i32:4096,i32:32,i32:4096
extern "C" __global__ void gred(int* a, int stride, int mod) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&a[(t * stride) % mod], 1);
}
// local memory, 8-byte elements indexed per lane
//@ local64 grid=4 block=64 args=buf:f64:256,i32:16
extern "C" __global__ void local64(double* out, int n) {
  double h[8];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; k++) h[k] = k;
  for (int q = 0; q < n; q++) h[(t + q) & 7] += q;
  double s = 0;
  for (int k = 0; k < 8; k++) s += h[k] * (k + 1);
  out[t] = s;
}
// global 8- and 16-byte words, strided, and a partial warp
//@ gvec4#1 grid=4 block=32 args=buf:f32:4096,buf:f32:4096,i32:1
//@ gvec4#2 grid=4 block=32 args=buf:f32:4096,buf:f32:4096,i32:2
//@ gvec4#8 grid=4 block=32 args=buf:f32:4096,buf:f32:4096,i32:8
extern "C" __global__ void gvec4(float4* in, float4* out, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * stride];
}
//@ gvec2#1 grid=4 block=32 args=buf:f32:2048,buf:f32:2048,i32:1
//@ gvec2#4 grid=4 block=32 args=buf:f32:2048,buf:f32:2048,i32:4
extern "C" __global__ void gvec2(float2* in, float2* out, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * stride];
}
//@ partial grid=3 block=48 args=buf:f32:144,buf:f32:144
extern "C" __global__ void partial(const float* in, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t] * 2.0f;
}
// local memory, float4 elements
//@ local128 grid=2 block=64 args=buf:f32:512,i32:16
extern "C" __global__ void local128(float4* out, int n) {
  float4 h[4];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; k++) h[k] = make_float4(k, k, k, k);
  for (int q = 0; q < n; q++) { float4 v = h[(t + q) & 3]; v.x += q; v.w -= q; h[(t + q) & 3] = v; }
  float4 s = make_float4(0, 0, 0, 0);
  for (int k = 0; k < 4; k++) { s.x += h[k].x; s.y += h[k].y * k; s.z += h[k].z; s.w += h[k].w * k; }
  out[t] = s;
}
