// functor.cu - kernels that take structs and functors by value, as
// template libraries write them: a transform with a functor, a parameter
// block struct, float2/double2 arguments, and a small array in a struct.
#include "census_common.h"

struct saxpy_functor {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct clamp_functor {
  float lo, hi;
  __host__ __device__ float operator()(float x, float) const { return fminf(fmaxf(x, lo), hi); }
};

template <typename F>
__global__ void transform2(const float *x, const float *y, float *out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(x[i], y[i]);
}

struct ImageParams {
  int width, height, pitch;
  float scale, offset;
  unsigned char channels;
};

__global__ void normalize_image(const unsigned char *in, float *out, ImageParams p) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.width || y >= p.height) return;
  for (int c = 0; c < p.channels; c++)
    out[(y * p.width + x) * p.channels + c] = in[y * p.pitch + x * p.channels + c] * p.scale + p.offset;
}

__global__ void rotate_points(float2 *pts, int n, float2 center, double2 rot) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float dx = pts[i].x - center.x, dy = pts[i].y - center.y;
  pts[i] = make_float2(center.x + (float)(rot.x * dx - rot.y * dy), center.y + (float)(rot.y * dx + rot.x * dy));
}

template <int N>
struct Stencil {
  float w[N];
};

template <int N>
__global__ void apply_stencil(const float *in, float *out, int n, Stencil<N> s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N / 2 || i >= n - N / 2) return;
  float acc = 0;
#pragma unroll
  for (int k = 0; k < N; k++) acc += s.w[k] * in[i + k - N / 2];
  out[i] = acc;
}

// a lambda captured by value (extended lambdas need --extended-lambda; a
// named functor is the portable spelling)
struct CountAbove {
  float threshold;
  int *counter;
  __device__ void operator()(float v) const {
    if (v > threshold) atomicAdd(counter, 1);
  }
};

template <typename F>
__global__ void for_each(const float *x, int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) f(x[i]);
}

template __global__ void transform2<saxpy_functor>(const float *, const float *, float *, int, saxpy_functor);
template __global__ void transform2<clamp_functor>(const float *, const float *, float *, int, clamp_functor);
template __global__ void apply_stencil<5>(const float *, float *, int, Stencil<5>);
template __global__ void apply_stencil<9>(const float *, float *, int, Stencil<9>);
template __global__ void for_each<CountAbove>(const float *, int, CountAbove);
