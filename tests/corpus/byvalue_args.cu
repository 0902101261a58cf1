// byvalue_args.cu - kernels that take their arguments by value as
// aggregates, as real code does: a struct of parameters (pointers and
// scalars), thrust-style functors applied by a templated transform, and
// CUDA's vector types (float2, float4, int3).  The //@ lines write them
// with the aggregate specs (docs: README "Arguments by value").

// A parameter block, as many codes pass one instead of a long signature.
struct Params {
  const float* in;
  float* out;
  int n;
  float alpha;
};

//! group: byvalue_args
//! title: arguments by value: parameter structs, functors, vector types, halves
//! exp: params_struct
//! title: a struct of pointers and scalars
//@ scale_params grid=4 block=256 args=struct{buf:f32:1000,buf:f32:1000:zero,i32:1000,f32:2.5}
__global__ void scale_params(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] = p.alpha * p.in[i];
}

// Functors in the style of thrust: state by value, applied per element.
struct saxpy_functor {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct square {  // no state: an empty struct, one byte by value
  __host__ __device__ float operator()(float x) const { return x * x; }
};

// Members of every size, so the layout has padding in three places.
struct clamp_affine {
  char flag;      // 0
  double scale;   // 8 (7 bytes of padding before it)
  short lo;       // 16
  int hi;         // 20 (2 bytes of padding before it)
  float bias;     // 24, then 4 bytes of tail padding: 32 bytes, align 8
  __host__ __device__ float operator()(float x) const {
    float v = (float)(scale * x) + bias;
    if (flag) v = v < lo ? (float)lo : v > hi ? (float)hi : v;
    return v;
  }
};

template <typename F>
__global__ void transform2(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out,
                           int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = f(x[i], y[i]);
}

template <typename F>
__global__ void transform1(const float* __restrict__ x, float* __restrict__ out, int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = f(x[i]);
}

template __global__ void transform2<saxpy_functor>(const float*, const float*, float*, int, saxpy_functor);
template __global__ void transform1<square>(const float*, float*, int, square);
template __global__ void transform1<clamp_affine>(const float*, float*, int, clamp_affine);

//! exp: functors
//! title: thrust-style functors by value (padding in the layouts)
//@ _Z10transform2I13saxpy_functorEvPKfS2_PfiT_ grid=2 block=128 args=buf:f32:777,buf:f32:777,buf:f32:777:zero,i32:777,struct{f32:3}
//@ _Z10transform1I6squareEvPKfPfiT_ grid=2 block=128 args=buf:f32:500,buf:f32:500:zero,i32:500,struct{}
//@ _Z10transform1I12clamp_affineEvPKfPfiT_ grid=1 block=256 args=buf:f32:600:iota,buf:f32:600:zero,i32:600,struct{i8:1,f64:0.75,i16:10,i32:300,f32:-4}

// Vector types by value: a 2-D affine map of points.
//! exp: vector_types
//! title: float4, float2 and int3 by value
//@ affine2d grid=2 block=128 args=buf:f32:512,buf:f32:512:zero,i32:256,f32x4{2,-1,0.5,3},f32x2{10,-20},i32x3{1,2,3}
__global__ void affine2d(const float2* __restrict__ in, float2* __restrict__ out, int n, float4 m, float2 t,
                         int3 k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = in[i];
  out[i] = make_float2(m.x * p.x + m.y * p.y + t.x + k.x, m.z * p.x + m.w * p.y + t.y + k.y * k.z);
}

// __half by value and a buffer of halves (f16 specs round to nearest even).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
//! exp: half_args
//! title: __half and __nv_bfloat16 by value
//@ half_scale grid=1 block=128 args=buf:f16:128,buf:f32:128:zero,f16:0.5,bf16:-3
__global__ void half_scale(const __half* __restrict__ in, float* __restrict__ out, __half s, __nv_bfloat16 b) {
  int i = threadIdx.x;
  out[i] = __half2float(in[i]) * __half2float(s) + __bfloat162float(b);
}
