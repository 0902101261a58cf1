// memcheck.cu - out-of-bounds accesses, and the corrected twins
// (tests/test_check.c asserts the lines).
//@ global_oob grid=2 block=64 args=buf:f32:100:zero,i32:100
//@ global_fixed grid=2 block=64 args=buf:f32:100:zero,i32:100
//@ shared_oob grid=1 block=64 args=buf:f32:64:zero
//@ shared_fixed grid=1 block=64 args=buf:f32:64:zero

// 128 threads write a buffer of 100 floats without a bounds check.
extern "C" __global__ void global_oob(float *out, int n) {
  int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = (float)n;
}

extern "C" __global__ void global_fixed(float *out, int n) {
  int i = blockIdx.x * 64 + threadIdx.x;
  if (i < n) out[i] = (float)n;
}

// 64 threads write a shared array of 32.
extern "C" __global__ void shared_oob(float *out) {
  __shared__ float s[32];
  int t = threadIdx.x;
  s[t] = (float)t;
  __syncthreads();
  out[t] = s[t % 32];
}

extern "C" __global__ void shared_fixed(float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = (float)t;
  __syncthreads();
  out[t] = s[t % 32];
}
