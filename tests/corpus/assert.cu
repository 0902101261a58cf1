// assert() in device code: a precondition on the input that fails for
// some elements, as a kernel's input check is written.
//! group: assert
//! title: assert() in device code
//! exp: checked_scale
//! title: a failing precondition: the launch stops with the assert's message
//@ checked_scale grid=2 block=64 args=buf:i32:128:iota,i32:100,f32:2
#include <cassert>

__global__ void checked_scale(int *data, int limit, float factor) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  assert(data[t] < limit && "inputs must be below the limit");
  data[t] = (int)(data[t] * factor);
}
