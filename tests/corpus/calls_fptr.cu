// Calls through function pointers: a table of device functions in global
// memory (__device__ initialized with their addresses) and lanes of one
// warp choosing different entries, as an interpreter or a plug-in kernel
// does; one of them recursive through the table.
//! group: calls_fptr
//! title: calls through a table of function pointers
//! exp: fptr_table
//! title: lanes of a warp calling different entries
//@ fptr_kernel grid=2 block=64 args=buf:f32:128:rand,buf:f32:128
#include <cstdint>

typedef float (*unary_op)(float, int);

__device__ float op_scale(float x, int k) { return x * (float)(k + 1); }
__device__ float op_shift(float x, int k) { return x + 0.25f * k; }
__device__ float op_square(float x, int k) { return x * x - (float)k; }
__device__ float op_repeat(float x, int k);

__device__ unary_op ops[4] = {op_scale, op_shift, op_square, op_repeat};

// Applies op_scale then itself again through the table, k times.
__device__ __noinline__ float op_repeat(float x, int k) {
  if (k <= 0) return x;
  unary_op again = ops[3];
  return again(op_scale(x, 0) * 0.5f + 1.0f, k - 1);
}

__global__ void fptr_kernel(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unary_op f = ops[(t / 3) & 3];
  out[t] = f(in[t], t & 3);
}
