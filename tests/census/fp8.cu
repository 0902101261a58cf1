// fp8.cu - 8-bit floats as inference code uses them (<cuda_fp8.h>):
// quantizing float activations to e4m3 and e5m2 with a scale, packed
// pairs, and dequantizing back to half and float.  Native conversions on
// sm_89 and later; sm_80 gets the library's emulation.
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include "census_common.h"

__global__ void quantize_e4m3(const float *x, __nv_fp8_e4m3 *q, float inv_scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = __nv_fp8_e4m3(x[i] * inv_scale);
}

__global__ void quantize_pairs_e5m2(const float2 *x, __nv_fp8x2_e5m2 *q, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) q[i] = __nv_fp8x2_e5m2(x[i]);
}

__global__ void dequantize(const __nv_fp8_e4m3 *q, const __nv_fp8x2_e4m3 *q2, float *y, __half2 *y2, float scale,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = float(q[i]) * scale;
  y2[i] = __half2(q2[i]);
}

__global__ void fp8_raw_convert(const float *x, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __nv_cvt_float_to_fp8(x[i], __NV_SATFINITE, __NV_E4M3);
}
