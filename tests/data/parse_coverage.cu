// parse_coverage.cu - kernels that exercise the PTX constructs the warpmem
// front end must parse: warp shuffles and votes, atomics on global and shared
// memory, doubles, fast float intrinsics, integer division, a switch, a
// __constant__ array with an initializer, module-scope __device__ data.
#include <cuda_runtime.h>

__constant__ float coeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f, 2.0f, 4.0f, -1.0f, 3.5f};
__constant__ int ctab[4] = {7, -3, 0x10, 1717986919};
__device__ int dev_counter = 5;
__device__ unsigned long long dev_hist[16];

__global__ void warp_ops(const int *in, int *out, unsigned *ballots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int s = v;
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  int u = __shfl_up_sync(0xffffffffu, v, 1);
  int x = __shfl_xor_sync(0xffffffffu, v, 4);
  int b = __shfl_sync(0xffffffffu, v, 0);
  unsigned bal = __ballot_sync(0xffffffffu, v > 0);
  int all = __all_sync(0xffffffffu, v != 3);
  int any = __any_sync(0xffffffffu, v == 7);
  unsigned am = __activemask();
  unsigned mt = __match_any_sync(0xffffffffu, v);
  out[i] = s + u + x + b + all + any + (int)mt;
  if ((threadIdx.x & 31) == 0) ballots[i >> 5] = bal ^ am;
#if __CUDA_ARCH__ >= 800
  out[i] += __reduce_add_sync(0xffffffffu, v) + __reduce_max_sync(0xffffffffu, v);
#endif
}

__global__ void atomics(int *g, unsigned *gu, float *gf, unsigned long long *g64, int n) {
  __shared__ int sh[64];
  __shared__ float shf[32];
  int t = threadIdx.x;
  if (t < 64) sh[t] = 0;
  if (t < 32) shf[t] = 0.0f;
  __syncthreads();
  atomicAdd(&sh[t % 64], 1);
  atomicMax(&sh[(t + 1) % 64], t);
  atomicMin(&sh[(t + 2) % 64], -t);
  atomicAdd(&shf[t % 32], 0.5f);
  int old = atomicCAS(&sh[0], 0, t);
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    atomicAdd(&g[0], sh[t % 64]);
    int prev = atomicAdd(&g[1], old);
    atomicExch(&g[2], prev);
    atomicInc(&gu[0], 100u);
    atomicDec(&gu[1], 100u);
    atomicAnd(&g[3], 0xff0);
    atomicOr(&g[4], 1 << (t & 15));
    atomicXor(&g[5], t);
    atomicAdd(gf, shf[t % 32]);
    atomicAdd(&g64[i % 4], 1ull);
    atomicCAS(&g64[4], 0ull, (unsigned long long)i);
    atomicAdd(&dev_counter, 1);
    atomicAdd(&dev_hist[t & 15], 2ull);
  }
}

__global__ void doubles(const double *a, double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i];
  double y = x * 1.5 + 0.1;
  y = fma(y, x, -2.0);
  y = sqrt(fabs(y)) / (x + 3.0);
  y = fmin(y, 1e10) + fmax(x, -1e-10);
  b[i] = y + (double)(float)x + (double)i;
  long long q = (long long)y;
  b[i + n] = (double)(q / 7) + (double)(unsigned)(i % 13);
}

__global__ void fmath(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  float r = sqrtf(x) + __expf(x) + __sinf(x) + __cosf(x) + rsqrtf(x) + __fdividef(x, 3.0f);
  r += __logf(x + 1.0f) + tanhf(x) + x / (x + 2.0f) + fminf(x, 0.5f) - fabsf(r);
  r += isinf(x) ? 1.0f : 0.0f;
  r += isnan(x) ? 2.0f : 0.0f;
  r += __saturatef(x) + coeffs[i & 7];
  b[i] = r;
}

__global__ void intdiv(const int *a, unsigned *ua, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  unsigned ux = ua[i];
  int d = a[(i + 1) % n] | 1;
  int r = x / d + x % d + (int)(ux / 10u) + (int)(ux % 7u) + x / 3;
  r += __popc(ux) + __clz(x) + __brev(ux) + (int)__byte_perm(ux, (unsigned)x, 0x5410);
  r += __mul24(x, d) + __umulhi(ux, 12345u) + __mulhi(x, d);
  r += (ux >> (x & 7)) & 0x3ff;
  long long w = (long long)x * d;
  r += (int)(w / 1000003LL) + (int)(w % 3LL);
  r += ctab[i & 3];
  b[i] = r;
}

__global__ void switchy(const int *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r;
  switch (a[i]) {
  case 0: r = 1.0f; break;
  case 1: r = b[i] * 2.0f; break;
  case 2: r = b[i] - 3.0f; break;
  case 3: r = coeffs[3]; break;
  case 5: r = -b[i]; break;
  case 7: r = b[i] * b[i]; break;
  case 8: r = (float)i; break;
  default: r = 0.0f; break;
  }
  b[i] = r;
}

struct Pair { float x; int y; double z; };

__global__ void bystruct(Pair p, float *out, unsigned char c, short s) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = p.x + (float)p.y + (float)p.z + c + s;
  __syncthreads();
  out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
