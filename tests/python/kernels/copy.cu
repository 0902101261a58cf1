// Copies for tests/python: a coalesced float copy, the same reading every
// second float, and one that reads past its input (a located fault).
// copy.ptx beside it is `nvcc -ptx -arch=sm_90 -O3 -lineinfo copy.cu`.
//@ copy grid=64 block=256 args=buf:f32:16384,buf:f32:16384:zero,i32:16384
//@ copy_stride2 grid=64 block=256 args=buf:f32:32768,buf:f32:16384:zero,i32:16384
extern "C" __global__ void copy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

extern "C" __global__ void copy_stride2(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[2 * i];
}

// reads in[i + shift] for every i < n: past the input when shift > 0
extern "C" __global__ void copy_shifted(const float *in, float *out, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + shift];
}

// y = a * x + y in double precision, for the scalar types
extern "C" __global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
