// nbody.cu - all-pairs gravitational forces: positions and masses as
// float4, tiles of bodies staged in shared memory, rsqrtf for the inverse
// distance, and the integration step.
#include "census_common.h"

#define SOFTENING_SQUARED 0.01f

template <typename T> struct vec3 { typedef float3 type; };
template <> struct vec3<double> { typedef double3 type; };
template <typename T> struct vec4 { typedef float4 type; };
template <> struct vec4<double> { typedef double4 type; };

template <typename T> __device__ inline T rsqrt_t(T x);
template <> __device__ inline float rsqrt_t<float>(float x) { return rsqrtf(x); }
template <> __device__ inline double rsqrt_t<double>(double x) { return rsqrt(x); }

template <typename T>
__device__ inline typename vec3<T>::type bodyBodyInteraction(typename vec3<T>::type ai, typename vec4<T>::type bi,
                                                              typename vec4<T>::type bj) {
  typename vec3<T>::type r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  T distSqr = r.x * r.x + r.y * r.y + r.z * r.z + T(SOFTENING_SQUARED);
  T invDist = rsqrt_t(distSqr);
  T s = bj.w * invDist * invDist * invDist;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

template <typename T>
__global__ void integrateBodies(typename vec4<T>::type *__restrict__ newPos, const typename vec4<T>::type *__restrict__ oldPos,
                                typename vec4<T>::type *vel, unsigned numBodies, T deltaTime, T damping) {
  extern __shared__ char smem_raw[];
  typename vec4<T>::type *tile = reinterpret_cast<typename vec4<T>::type *>(smem_raw);
  unsigned index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= numBodies) return;
  typename vec4<T>::type pos = oldPos[index];
  typename vec3<T>::type acc = {0, 0, 0};
  for (unsigned start = 0; start < numBodies; start += blockDim.x) {
    tile[threadIdx.x] = oldPos[start + threadIdx.x];
    __syncthreads();
#pragma unroll 4
    for (unsigned j = 0; j < blockDim.x; j++) acc = bodyBodyInteraction<T>(acc, pos, tile[j]);
    __syncthreads();
  }
  typename vec4<T>::type v = vel[index];
  v.x = (v.x + acc.x * deltaTime) * damping;
  v.y = (v.y + acc.y * deltaTime) * damping;
  v.z = (v.z + acc.z * deltaTime) * damping;
  pos.x += v.x * deltaTime;
  pos.y += v.y * deltaTime;
  pos.z += v.z * deltaTime;
  newPos[index] = pos;
  vel[index] = v;
}

template __global__ void integrateBodies<float>(float4 *, const float4 *, float4 *, unsigned, float, float);
template __global__ void integrateBodies<double>(double4 *, const double4 *, double4 *, unsigned, double, double);
