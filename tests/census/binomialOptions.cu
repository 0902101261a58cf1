// binomialOptions.cu - American-style binomial tree pricing: one option per
// block, the tree's leaves computed from the payoff and rolled back to the
// root in shared memory, a few time steps per barrier.
#include "census_common.h"

#define NUM_STEPS 2048
#define CACHE_SIZE 256
#define CACHE_DELTA 32
#define CACHE_STEP (CACHE_SIZE - CACHE_DELTA)

struct OptionData {
  float S, X, vDt, puByDf, pdByDf;
};

__constant__ OptionData d_OptionData[1024];
__device__ float d_CallValue[1024];

__device__ inline float expiryCallValue(float S, float X, float vDt, int i) {
  float d = S * __expf(vDt * (2.0f * i - NUM_STEPS)) - X;
  return d > 0.0f ? d : 0.0f;
}

__global__ void binomialOptionsKernel() {
  __shared__ float call_exchange[CACHE_SIZE + 1];
  const int tid = threadIdx.x;
  const float S = d_OptionData[blockIdx.x].S, X = d_OptionData[blockIdx.x].X;
  const float vDt = d_OptionData[blockIdx.x].vDt;
  const float puByDf = d_OptionData[blockIdx.x].puByDf, pdByDf = d_OptionData[blockIdx.x].pdByDf;
  float call[NUM_STEPS / CACHE_SIZE + 1];
  for (int i = 0; i < NUM_STEPS / CACHE_SIZE + 1; i++) call[i] = expiryCallValue(S, X, vDt, tid + i * CACHE_SIZE);
  if (tid == 0) call_exchange[CACHE_SIZE] = expiryCallValue(S, X, vDt, NUM_STEPS);
  int final_it = max(0, tid - (CACHE_SIZE - 1) / 2);
  for (int i = NUM_STEPS; i > 0; i--) {
    call_exchange[tid] = call[0];
    __syncthreads();
    call[NUM_STEPS / CACHE_SIZE] = call_exchange[tid + 1];
    __syncthreads();
    if (i > final_it) {
#pragma unroll
      for (int j = 0; j < NUM_STEPS / CACHE_SIZE; j++) call[j] = puByDf * call[j + 1] + pdByDf * call[j];
    }
  }
  if (tid == 0) d_CallValue[blockIdx.x] = call[0];
}

// The textbook form: the whole tree level in shared memory.
template <int STEPS>
__global__ void binomial_tree(const float *S, const float *X, const float *T, float R, float V, float *out) {
  __shared__ float level[STEPS + 1];
  int opt = blockIdx.x;
  float dt = T[opt] / STEPS, vdt = V * sqrtf(dt), rdt = R * dt;
  float If = expf(rdt), Df = expf(-rdt);
  float u = expf(vdt), d = expf(-vdt);
  float pu = (If - d) / (u - d), pd = 1.0f - pu;
  for (int i = threadIdx.x; i <= STEPS; i += blockDim.x) {
    float price = S[opt] * powf(u, (float)(2 * i - STEPS));
    level[i] = fmaxf(price - X[opt], 0.0f);
  }
  for (int n = STEPS; n > 0; n--) {
    __syncthreads();
    float v[4];
    int k = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v[k++ & 3] = Df * (pu * level[i + 1] + pd * level[i]);
    __syncthreads();
    k = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) level[i] = v[k++ & 3];
  }
  if (threadIdx.x == 0) out[opt] = level[0];
}

template __global__ void binomial_tree<512>(const float *, const float *, const float *, float, float, float *);
