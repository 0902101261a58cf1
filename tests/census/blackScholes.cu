// blackScholes.cu - European call and put prices by the Black-Scholes
// formula, with the polynomial approximation of the normal CDF, two
// options per thread, float and double.
#include "census_common.h"

template <typename T> __device__ inline T cnd(T d);

template <> __device__ inline float cnd<float>(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;
  float K = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - c : c;
}

template <> __device__ inline double cnd<double>(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
  const double RSQRT2PI = 0.39894228040143267793994605993438;
  double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double c = RSQRT2PI * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - c : c;
}

template <typename T>
__device__ inline void price(T &call, T &put, T S, T X, T t, T R, T V) {
  T sqrtT = sqrt(t);
  T d1 = (log(S / X) + (R + T(0.5) * V * V) * t) / (V * sqrtT);
  T d2 = d1 - V * sqrtT;
  T expRT = exp(-R * t);
  call = S * cnd(d1) - X * expRT * cnd(d2);
  put = X * expRT * (T(1) - cnd(d2)) - S * (T(1) - cnd(d1));
}

__global__ void __launch_bounds__(128) BlackScholesGPU(float2 *__restrict__ d_Call, float2 *__restrict__ d_Put,
                                                       const float2 *__restrict__ d_S, const float2 *__restrict__ d_X,
                                                       const float2 *__restrict__ d_T, float R, float V, int optN) {
  const int opt = blockDim.x * blockIdx.x + threadIdx.x;
  if (opt < optN / 2) {
    float c1, p1, c2, p2;
    float2 s = d_S[opt], x = d_X[opt], t = d_T[opt];
    price(c1, p1, s.x, x.x, t.x, R, V);
    price(c2, p2, s.y, x.y, t.y, R, V);
    d_Call[opt] = make_float2(c1, c2);
    d_Put[opt] = make_float2(p1, p2);
  }
}

__global__ void BlackScholesDouble(double *call, double *put, const double *S, const double *X, const double *T,
                                   double R, double V, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    price(call[i], put[i], S[i], X[i], T[i], R, V);
}
