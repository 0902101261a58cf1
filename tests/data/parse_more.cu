// Instructions the parser learned after parse_coverage.cu: funnel shifts
// (shf), bfind (from __ffs/__clz-style code), bar.red (__syncthreads_count/
// _and/_or) and a device function inlined inside another one (nested
// .loc inlined_at chains).  tests/test_ptx_parse.c checks the decoded fields.
// Regenerate the PTX with:
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo parse_more.cu -o parse_more.ptx
extern "C" __global__ void funnel_more(unsigned* out, const unsigned* in, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = in[i], b = in[i + 1];
  out[8 * i + 0] = __funnelshift_l(a, b, s);
  out[8 * i + 1] = __funnelshift_r(a, b, s);
  out[8 * i + 2] = __funnelshift_lc(a, b, 5);
  out[8 * i + 3] = __funnelshift_rc(a, b, s);
  out[8 * i + 4] = (a << 7) | (a >> 25);               /* rotate left by a constant */
  out[8 * i + 5] = (a >> (s & 31)) | (a << ((32 - s) & 31)); /* rotate right */
}

extern "C" __global__ void bits_more(int* out, const int* in, const long long* in64) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  long long w = in64[i];
  out[6 * i + 0] = __ffs(v);
  out[6 * i + 1] = __clz(v);
  out[6 * i + 2] = 31 - __clz((unsigned)v);            /* highest set bit */
  out[6 * i + 3] = __ffsll(w);
  out[6 * i + 4] = __clzll(w);
  int hb;
  asm("bfind.s32 %0, %1;" : "=r"(hb) : "r"(v));
  out[6 * i + 5] = hb;
  int sa;
  asm("bfind.shiftamt.u64 %0, %1;" : "=r"(sa) : "l"(w));
  out[6 * i + 5] += sa;
}

extern "C" __global__ void barred_more(int* out, const int* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int n = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v & 1);
  int any = __syncthreads_or(v & 2);
  out[3 * i + 0] = n;
  out[3 * i + 1] = all;
  out[3 * i + 2] = any;
}

__device__ __forceinline__ float inner_load(const float* p, int i) {
  return __ldg(p + i) * 2.0f;
}

__device__ __forceinline__ float outer_sum(const float* p, int i) {
  float a = inner_load(p, i);
  return a + inner_load(p, i + 1);
}

extern "C" __global__ void nested_more(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = outer_sum(in, i);
}
