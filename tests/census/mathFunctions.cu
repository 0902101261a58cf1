// mathFunctions.cu - a sweep of the CUDA math library as scientific code
// uses it, single and double precision: trigonometric and hyperbolic
// functions, exponentials and logarithms, special functions, rounding and
// classification, sincos with output pointers, and the fast intrinsics
// under -use_fast_math's spellings.
#include "census_common.h"

__global__ void float_math(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], s, c;
  sincosf(v, &s, &c);
  float r = s + c + tanf(v) + asinf(v * 0.5f) + acosf(v * 0.5f) + atanf(v) + sinhf(v) + coshf(v) + tanhf(v);
  r += expf(v) + exp2f(v) + exp10f(v) + expm1f(v) + logf(fabsf(v) + 1) + log10f(fabsf(v) + 1) + log1pf(fabsf(v));
  r += powf(fabsf(v), 1.5f) + sqrtf(fabsf(v)) + rsqrtf(fabsf(v) + 1) + rcbrtf(v + 2) + hypotf(v, 1.f);
  r += erfcf(v) + erfinvf(v * 0.5f) + normcdff(v) + normcdfinvf(0.25f + 0.5f * fabsf(tanhf(v))) + tgammaf(fabsf(v) + 1);
  r += j0f(v) + y0f(fabsf(v) + 1) + cyl_bessel_i0f(v);
  r += floorf(v) + ceilf(v) + roundf(v) + rintf(v) + fdimf(v, 1) + remquof(v, 2.f, &n) + modff(v, &s) + s;
  r += isnan(v) + isinf(v) + signbit(v) + ilogbf(v + 3) + logbf(v + 3) + scalbnf(v, 2) + fmaf(v, v, 1);
  r += __fdividef(v, 3.f) + __expf(v) + __logf(fabsf(v) + 1) + __tanf(v) + __fmul_rz(v, v) + __fadd_rd(v, 1);
  y[i] = r;
}

__global__ void double_math(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i], s, c;
  sincos(v, &s, &c);
  double r = s + c + sinpi(v) + cospi(v) + tan(v) + asin(v * 0.5) + atan2(v, 2.0) + cosh(v) + atanh(v * 0.5);
  r += exp(v) + exp10(v) + expm1(v) + log(fabs(v) + 1) + log2(fabs(v) + 1) + pow(fabs(v), 2.5) + cbrt(v);
  r += erf(v) + erfc(v) + erfcinv(0.5 + 0.25 * tanh(v)) + lgamma(fabs(v) + 1) + tgamma(fabs(v) + 0.5) + j1(v);
  r += norm3d(v, 1.0, 2.0) + rhypot(v, 1.0) + fmod(v, 1.5) + nextafter(v, 0.0) + trunc(v) + round(v);
  r += __dadd_rn(v, 1.0) + __dmul_rz(v, v) + __ddiv_ru(v, 3.0) + __fma_rn(v, v, v);
  long long ll = llrint(v);
  y[i] = r + (double)ll;
}

// integer division and remainder by run-time values, 32 and 64 bit
__global__ void int_division(const int *a, const int *b, long long *q, unsigned long long *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || b[i] == 0) return;
  q[i] = (long long)a[i] / b[i] + (long long)a[i] * 1000000007LL / (b[i] | 1);
  r[i] = (unsigned long long)(unsigned)a[i] % (unsigned)b[i] + ((unsigned long long)a[i] << 20) % (b[i] | 1);
}
