// initcheck.cu - reads of memory nothing wrote, and the corrected twins
// (tests/test_check.c asserts the lines).
//@ shared_uninit grid=2 block=64 args=buf:f32:128:zero,buf:f32:128:iota
//@ shared_fixed grid=2 block=64 args=buf:f32:128:zero,buf:f32:128:iota
//@ global_uninit grid=2 block=64 args=buf:f32:128:zero,buf:f32:128
//@ global_fixed grid=2 block=64 args=buf:f32:128:zero,buf:f32:128:rand

// Each thread reads its right neighbour's value; the last one reads s[64],
// which no thread wrote.
extern "C" __global__ void shared_uninit(float *out, const float *in) {
  __shared__ float s[65];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  out[blockIdx.x * 64 + t] = s[t + 1];
}

extern "C" __global__ void shared_fixed(float *out, const float *in) {
  __shared__ float s[65];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  if (t == 0) s[64] = 0.0f;
  __syncthreads();
  out[blockIdx.x * 64 + t] = s[t + 1];
}

// The same scaling; global_uninit's launch gives it an input buffer nothing
// initialized (a cudaMalloc with no cudaMemcpy).
extern "C" __global__ void global_uninit(float *out, const float *in) {
  int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = 2.0f * in[i];
}

extern "C" __global__ void global_fixed(float *out, const float *in) {
  int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = 2.0f * in[i];
}
