// A __noinline__ device function with many parameters of mixed types and a
// struct returned by value, as a physics or geometry helper is written
// (ptxas passes them in registers; the PTX passes them in .param
// variables).
//! group: calls_noinline
//! title: a __noinline__ function with many mixed parameters
//! exp: noinline_struct
//! title: a struct returned by value
//@ noinline_kernel grid=2 block=96 args=buf:i32:1152,buf:f32:192:rand,buf:f64:192:rand
#include <cstdint>

struct Result {
  int id;
  float score;
  double weight;
  long long key;
};

__device__ __noinline__ Result combine(int id, int a, short b, char c, unsigned char d, float x, float y,
                                       double w, long long key, bool flip, const float *extra) {
  Result r;
  r.id = id * 3 + a - b + c + d;
  r.score = flip ? x * y - extra[id & 7] : x + y * extra[(id + 1) & 7];
  r.weight = w * 0.5 + (double)x;
  r.key = key ^ ((long long)id << 20);
  return r;
}

__global__ void noinline_kernel(Result *out, const float *x, const double *w) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Result r = combine(t, t % 7, (short)(-t), (char)(t & 0x7f), (unsigned char)(255 - (t & 0xff)), x[t],
                     x[(t + 5) % 192], w[t], (long long)t * 1000003LL, (t & 1) != 0, x);
  out[t] = r;
}
