// monteCarlo.cu - option pricing and pi estimation with the cuRAND device
// API: per-thread generator states set up once with curand_init, then
// uniform and normal draws (XORWOW, Philox and MRG32k3a).
#include <curand_kernel.h>
#include "census_common.h"

__global__ void setup_states(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void setup_philox(curandStatePhilox4_32_10_t *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

// pi from the fraction of uniform points inside the quarter circle
__global__ void estimate_pi(curandState *states, unsigned long long *hits, int per_thread) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned count = 0;
  for (int i = 0; i < per_thread; i++) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    count += x * x + y * y <= 1.0f;
  }
  states[id] = local;
  atomicAdd(hits, (unsigned long long)count);
}

// A European call's expected payoff under geometric Brownian motion.
template <int PATHS_PER_THREAD>
__global__ void MonteCarloOneBlockPerOption(curandStatePhilox4_32_10_t *states, const float *S, const float *X,
                                            const float *T, float R, float V, float *price) {
  __shared__ float partial[256];
  int opt = blockIdx.x, id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t local = states[id];
  float drift = (R - 0.5f * V * V) * T[opt], vol = V * sqrtf(T[opt]);
  float sum = 0;
  for (int p = 0; p < PATHS_PER_THREAD; p += 4) {
    float4 z = curand_normal4(&local);
    sum += fmaxf(S[opt] * __expf(drift + vol * z.x) - X[opt], 0.f);
    sum += fmaxf(S[opt] * __expf(drift + vol * z.y) - X[opt], 0.f);
    sum += fmaxf(S[opt] * __expf(drift + vol * z.z) - X[opt], 0.f);
    sum += fmaxf(S[opt] * __expf(drift + vol * z.w) - X[opt], 0.f);
  }
  partial[threadIdx.x] = sum;
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    __syncthreads();
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
  }
  if (threadIdx.x == 0) price[opt] = expf(-R * T[opt]) * partial[0] / (PATHS_PER_THREAD * blockDim.x);
  states[id] = local;
}

// normal draws in double precision, and a generator made on the spot
__global__ void random_walk(double *out, int steps, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStateMRG32k3a st;
  curand_init(seed, id, 0, &st);
  double x = 0;
  for (int s = 0; s < steps; s++) x += curand_normal_double(&st);
  out[id] = x;
}

__global__ void raw_bits(unsigned *out, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, id, 0, &st);
  out[id] = curand(&st) ^ (unsigned)(curand_log_normal(&st, 0.0f, 1.0f) * 1000.0f);
}

template __global__ void MonteCarloOneBlockPerOption<256>(curandStatePhilox4_32_10_t *, const float *, const float *,
                                                          const float *, float, float, float *);
