// half_intrinsics.cu - the <cuda_fp16.h>, <cuda_bf16.h> and <cuda_fp8.h>
// intrinsics one by one, for tests/test_emu_half.c (test_intrinsics_*): each thread
// applies every operation to its inputs x in [-8, 8), y in [-1, 3) and
// f in [-35000, 35000) and writes result k of thread i at [k * n + i].
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

template <typename H, typename H2> struct Ops;

template <> struct Ops<__half, __half2> {
  static __device__ __half from_float(float f) { return __float2half(f); }
  static __device__ __half rz(float f) { return __float2half_rz(f); }
  static __device__ __half rd(float f) { return __float2half_rd(f); }
  static __device__ __half ru(float f) { return __float2half_ru(f); }
  static __device__ __half rn(float f) { return __float2half_rn(f); }
  static __device__ __half from_int(int v) { return __int2half_rn(v); }
  static __device__ __half from_double(double d) { return __double2half(d); }
  static __device__ int to_int(__half h) { return __half2int_rn(h); }
  static __device__ __half2 pair(__half lo, __half hi) { return __halves2half2(lo, hi); }
  static __device__ unsigned bits(__half2 p) { return *reinterpret_cast<unsigned *>(&p); }
};

template <> struct Ops<__nv_bfloat16, __nv_bfloat162> {
  static __device__ __nv_bfloat16 from_float(float f) { return __float2bfloat16(f); }
  static __device__ __nv_bfloat16 rz(float f) { return __float2bfloat16_rz(f); }
  static __device__ __nv_bfloat16 rd(float f) { return __float2bfloat16_rd(f); }
  static __device__ __nv_bfloat16 ru(float f) { return __float2bfloat16_ru(f); }
  static __device__ __nv_bfloat16 rn(float f) { return __float2bfloat16_rn(f); }
  static __device__ __nv_bfloat16 from_int(int v) { return __int2bfloat16_rn(v); }
  static __device__ __nv_bfloat16 from_double(double d) { return __double2bfloat16(d); }
  static __device__ int to_int(__nv_bfloat16 h) { return __bfloat162int_rn(h); }
  static __device__ __nv_bfloat162 pair(__nv_bfloat16 lo, __nv_bfloat16 hi) { return __halves2bfloat162(lo, hi); }
  static __device__ unsigned bits(__nv_bfloat162 p) { return *reinterpret_cast<unsigned *>(&p); }
};

// out: 22 halves per thread, pairs: 9 words, ints: 4, approx: 6 halves
template <typename H, typename H2>
__device__ void all_ops(const H *a, const H *b, const float *fin, H *out, unsigned *pairs, int *ints, H *approx,
                        int n) {
  using O = Ops<H, H2>;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  H x = __hsub(__hmul(a[i], O::from_float(16.0f)), O::from_float(8.0f));
  H y = __hsub(__hmul(b[i], O::from_float(4.0f)), O::from_float(1.0f));
  float f = fin[i] * 70000.0f - 35000.0f;
  const H r[] = {__hadd(x, y),       __hsub(x, y),       __hmul(x, y),      __hfma(x, y, x),
                 __hfma_relu(x, y, y), __hneg(x),        __habs(x),         __hmax(x, y),
                 __hmin_nan(x, y),   __hadd_sat(x, y),   __hmul_sat(x, y),  O::rz(f),
                 O::rd(f),           O::ru(f),           O::rn(f),          O::from_int((int)f),
                 hfloor(x),          hceil(x),           htrunc(x),         hrint(x),
                 O::from_double((double)f * 1.0000001), __hsub(y, x)};
  for (int k = 0; k < 22; k++) out[k * n + i] = r[k];
  H2 p = O::pair(x, y), q = O::pair(y, x);
  const unsigned rp[] = {O::bits(__hadd2(p, q)), O::bits(__hmul2(p, q)),       O::bits(__hfma2(p, q, p)),
                         O::bits(__hmax2(p, q)), O::bits(__hmin2(p, q)),       O::bits(__habs2(__hneg2(p))),
                         O::bits(__hlt2(p, q)),  O::bits(__hfma2_relu(p, q, q)), O::bits(__hsub2(p, q))};
  for (int k = 0; k < 9; k++) pairs[k * n + i] = rp[k];
  const int ri[] = {O::to_int(x), __hlt(x, y), __hgeu(x, y), __heq(x, x)};
  for (int k = 0; k < 4; k++) ints[k * n + i] = ri[k];
  const H ra[] = {hsqrt(__habs(x)), hrcp(y), hexp2(y), hlog2(__habs(x)), __hdiv(x, y), htanh(y)};
  for (int k = 0; k < 6; k++) approx[k * n + i] = ra[k];
}

//@ half_ops grid=2 block=128 args=buf:f16:256:rand,buf:f16:256:rand,buf:f32:256:rand,buf:f16:5632:zero,buf:u32:2304:zero,buf:i32:1024:zero,buf:f16:1536:zero,i32:256
__global__ void half_ops(const __half *a, const __half *b, const float *fin, __half *out, unsigned *pairs, int *ints,
                         __half *approx, int n) {
  all_ops<__half, __half2>(a, b, fin, out, pairs, ints, approx, n);
}

//@ bf16_ops grid=2 block=128 args=buf:bf16:256:rand,buf:bf16:256:rand,buf:f32:256:rand,buf:bf16:5632:zero,buf:u32:2304:zero,buf:i32:1024:zero,buf:bf16:1536:zero,i32:256
__global__ void bf16_ops(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *fin, __nv_bfloat16 *out,
                         unsigned *pairs, int *ints, __nv_bfloat16 *approx, int n) {
  all_ops<__nv_bfloat16, __nv_bfloat162>(a, b, fin, out, pairs, ints, approx, n);
}

// fp8: v in [-600, 600) past e4m3's largest (448) on both sides, 200 v past
// e5m2's (57344); the conversions saturate (.satfinite).  A pair of e4m3
// widened back to __half2.
//@ fp8_ops grid=1 block=64 args=buf:f32:64:rand,buf:u8:64:zero,buf:u8:64:zero,buf:f16:128:zero,i32:64
__global__ void fp8_ops(const float *x, __nv_fp8_e4m3 *q4, __nv_fp8_e5m2 *q5, __half *back, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  float v = x[i] * 1200.0f - 600.0f;
  q4[i] = __nv_fp8_e4m3(v);
  q5[i] = __nv_fp8_e5m2(v * 200.0f);
  __half2 h = static_cast<__half2>(__nv_fp8x2_e4m3(make_float2(v, -0.5f * v)));
  back[2 * i] = __low2half(h);
  back[2 * i + 1] = __high2half(h);
}
