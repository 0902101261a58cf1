// Kernels that exercise the emulator's semantics; tests/test_emu_outputs.c
// runs each and compares its output with a plain C reference.
// Regenerate the PTX with:
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo emu_semantics.cu -o emu_semantics.ptx
// Inputs a kernel derives from its index are derived the same way on the host.

#define FULL 0xffffffffu

// Divergence and reconvergence.  Lanes with lane % 7 == 5 return early.
// out[4i+0]: value from a nested if/else on the lane number
// out[4i+1]: __activemask() in the innermost branch taken
// out[4i+2]: __activemask() after the if/else (all lanes still running)
// out[4i+3]: a loop with a per-thread trip count, continue and break
extern "C" __global__ void diverge(int* out, const int* trips) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int* o = out + 4 * i;
  if (lane % 7 == 5) {
    o[0] = o[1] = o[2] = o[3] = -1;
    return;
  }
  int v;
  if (lane < 16) {
    if (lane & 1) {
      v = lane * 3;
      o[1] = __activemask();
    } else {
      v = lane + 100;
      o[1] = __activemask() + 1;
    }
  } else {
    if (lane < 24) {
      v = -lane;
      o[1] = __activemask() + 2;
    } else {
      v = lane << 4;
      o[1] = __activemask() + 3;
    }
  }
  o[2] = __activemask();
  int acc = 0, n = trips[i];
  for (int k = 0; k < n; k++) {
    if (k % 3 == 2) continue;
    if (acc > 5000) break;
    acc = acc * 3 + k;
  }
  o[0] = v;
  o[3] = acc;
}

// Warp shuffles (full warps only: blocks of a multiple of 32 threads).
extern "C" __global__ void shuffles(int* out, float* fout, const int* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int x = in[i];
  int* o = out + 8 * i;
  o[0] = __shfl_up_sync(FULL, x, 3);
  o[1] = __shfl_down_sync(FULL, x, 5);
  o[2] = __shfl_xor_sync(FULL, x, 6);
  o[3] = __shfl_sync(FULL, x, (lane * 7 + 3) & 31);
  o[4] = __shfl_sync(FULL, x, lane + 1, 8);
  o[5] = __shfl_down_sync(FULL, x, 3, 16);
  int s = x;
  for (int d = 16; d; d >>= 1) s += __shfl_xor_sync(FULL, s, d);
  o[6] = s;
  if (lane < 16) o[7] = __shfl_xor_sync(0x0000ffffu, x, 1);
  else o[7] = __shfl_down_sync(0xffff0000u, x, 1);
  float f = (float)x * 0.5f;
  for (int d = 1; d < 32; d <<= 1) f = fmaxf(f, __shfl_xor_sync(FULL, f, d));
  fout[i] = f;
}

// Votes over the full warp and over the lanes of a branch.
extern "C" __global__ void votes(int* out, const int* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int x = in[i];
  int* o = out + 6 * i;
  o[0] = __all_sync(FULL, x >= 0);
  o[1] = __all_sync(FULL, x < 1000);
  o[2] = __any_sync(FULL, x % 64 == 7);
  o[3] = __any_sync(FULL, x > 1024);
  o[4] = __ballot_sync(FULL, x & 1);
  if (lane >= 8 && lane < 28) o[5] = __ballot_sync(0x0fffff00u, x % 3 == 0);
  else o[5] = __any_sync(0xf00000ffu, x < 100) + 10;
}

// Global atomics.  st: {min, max, or, xor} and u: {umax, inc, dec, exch, cas
// ticket} start at 0; ones: {and, umin} start at all ones; fsum at 0.
extern "C" __global__ void atomics_global(const int* in, unsigned* hist, int* st, int* ones,
                                          unsigned* u, int* olds, int* tickets, float* fsum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  atomicAdd(&hist[x % 16], 1u);
  atomicMin(&st[0], x - 600);
  atomicMax(&st[1], x - 600);
  atomicOr(&st[2], 1 << (x % 29));
  atomicXor(&st[3], x);
  atomicAnd(&ones[0], ~(x << 3));
  atomicMin((unsigned*)&ones[1], (unsigned)(x - 600));
  atomicMax(&u[0], (unsigned)(x - 600));
  atomicInc(&u[1], 17u);
  atomicDec(&u[2], 9u);
  olds[i] = (int)atomicExch(&u[3], (unsigned)(i + 1));
  unsigned t;
  do {
    t = *(volatile unsigned*)&u[4];
  } while (atomicCAS(&u[4], t, t + 1) != t);
  tickets[i] = (int)t;
  atomicAdd(fsum, 0.5f);
}

// The same operations on shared memory, one set per block.
// out[32b + 0..15]: histogram; out[32b + 16..23]: min, max, and, or, xor, inc, dec, exch;
// tickets[i]: CAS ticket within the block; olds[i]: exch's old value.
extern "C" __global__ void atomics_shared(const int* in, int* out, int* tickets, int* olds) {
  __shared__ unsigned h[16];
  __shared__ int s[10];
  int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  if (t < 16) h[t] = 0;
  if (t == 0) {
    s[0] = 0x7fffffff;
    s[1] = -0x7fffffff - 1;
    s[2] = -1;
    s[3] = 0;
    s[4] = 0;
    s[5] = 0;
    s[6] = 0;
    s[7] = 0;
    s[8] = 0;
  }
  __syncthreads();
  int x = in[i];
  atomicAdd(&h[x % 16], 1u);
  atomicMin(&s[0], x - 600);
  atomicMax(&s[1], x - 600);
  atomicAnd(&s[2], ~(x << 3));
  atomicOr(&s[3], 1 << (x % 29));
  atomicXor(&s[4], x);
  atomicInc((unsigned*)&s[5], 17u);
  atomicDec((unsigned*)&s[6], 9u);
  olds[i] = atomicExch(&s[7], t + 1);
  int k;
  do {
    k = *(volatile int*)&s[8];
  } while (atomicCAS(&s[8], k, k + 1) != k);
  tickets[i] = k;
  __syncthreads();
  if (t < 16) out[32 * blockIdx.x + t] = (int)h[t];
  if (t < 8) out[32 * blockIdx.x + 16 + t] = s[t];
}

// Integer arithmetic with negative operands; a, b derived from in[] as on the host.
extern "C" __global__ void intmath(int* out, long long* out64, const int* ina, const int* inb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = ina[i] - 512;
  int b = inb[i] % 23 - 11;
  if (b == 0) b = 5;
  int* o = out + 16 * i;
  o[0] = a / b;
  o[1] = a % b;
  o[2] = (int)((unsigned)a / (unsigned)b);
  o[3] = (int)((unsigned)a % (unsigned)b);
  o[4] = a >> (b & 31);
  o[5] = (int)((unsigned)a >> (b & 31));
  o[6] = (int)((unsigned)a << (b & 15));
  o[7] = min(a, b);
  o[8] = max(a, b);
  o[9] = (int)min((unsigned)a, (unsigned)b);
  o[10] = (int)max((unsigned)a, (unsigned)b);
  o[11] = abs(a);
  o[12] = __mulhi(a * 65599, b * 100003);
  o[13] = (int)__umulhi((unsigned)a * 65599u, (unsigned)b);
  o[14] = __popc(a);
  o[15] = __clz(a);
  long long w = (long long)a * 1000000007LL;
  long long* q = out64 + 4 * i;
  q[0] = w / b;
  q[1] = w % b;
  q[2] = (long long)((unsigned long long)w / (unsigned long long)(unsigned)(b + 12));
  q[3] = (w << 20) >> (b & 31);
}

// Conversions.  x takes quarter steps from -32 (ties for the round-to-nearest
// forms), y reaches +-3e9 (saturation of 32-bit results).
extern "C" __global__ void conversions(int* oi, unsigned* ou, float* of, double* od,
                                       long long* ol, const int* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (float)(i - 128) * 0.25f;
  double y = (double)x * 1.0000001 + 3e9 * (double)(i % 3 - 1);
  int r = in[i];
  int* pi = oi + 8 * i;
  pi[0] = (int)x;
  pi[1] = __float2int_rn(x);
  pi[2] = __float2int_rd(x);
  pi[3] = __float2int_ru(x);
  pi[4] = (int)(x * 1e9f);
  pi[5] = __double2int_rn(y);
  pi[6] = (int)(signed char)(i * 37 + r);
  pi[7] = (int)(short)(i * 1000 + r);
  unsigned* pu = ou + 4 * i;
  pu[0] = __float2uint_rz(x);
  pu[1] = __float2uint_rn(x * 3e7f);
  pu[2] = (unsigned)(unsigned char)(r + 200);
  pu[3] = __double2uint_rz(y);
  float* pf = of + 8 * i;
  pf[0] = (float)((unsigned)i * 16777217u + (unsigned)r);
  pf[1] = (float)((i - 128) * 16777213);
  pf[2] = __int2float_rz((i - 128) * 16777213);
  pf[3] = (float)y;
  pf[4] = __double2float_rz(y);
  pf[5] = rintf(x);
  pf[6] = floorf(x) + ceilf(x) * 100.0f;
  pf[7] = truncf(x * 1.5f);
  double* pd = od + 2 * i;
  pd[0] = (double)x * (double)r;
  pd[1] = (double)((long long)r * 1000000000000LL + i);
  long long* pl = ol + 2 * i;
  pl[0] = (long long)y;
  pl[1] = __double2ll_rn(y * 4.0e9);
}

// Float arithmetic with directed rounding (.rz/.rm/.rp) and the exact
// .rn forms.  a, b from rand buffers in [0, 1).
extern "C" __global__ void fround(float* out, double* dout, const float* a, const float* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i] + 1.0f / 3.0f, y = b[i] * 3.0f + 0.1f;
  float* o = out + 8 * i;
  o[0] = __fadd_rn(x, y);
  o[1] = __fadd_rz(x, y * 1e-3f);
  o[2] = __fmul_ru(x, y);
  o[3] = __fmul_rd(x, y);
  o[4] = __fdiv_rn(x, y);
  o[5] = __fdiv_rz(x, y);
  o[6] = __fmaf_ru(x, y, -1.0f);
  o[7] = __fsqrt_rn(x);
  double dx = x, dy = y;
  dout[2 * i] = __dadd_rd(dx, dy * 1e-9);
  dout[2 * i + 1] = __ddiv_ru(dx, dy);
}

// Floating-point library functions (long instruction sequences, local
// memory in sinf's slow path): within a few ulps of the host's libm.
extern "C" __global__ void fmath(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i] * 20.0f - 10.0f;
  out[4 * i] = sinf(x * 1000.0f);
  out[4 * i + 1] = expf(x);
  out[4 * i + 2] = logf(fabsf(x) + 0.5f);
  out[4 * i + 3] = x / 3.0f;
}

// __constant__ data and module __device__ variables.
__constant__ int ctab[64] = {
  0, -6, -10, -12, -12, -10, -6, 0, 8, 18, 30, 44, 60, 78, 98, 120,
  144, 170, 198, 228, 260, 294, 330, 368, 408, 450, 494, 540, 588, 638, 690, 744,
  800, 858, 918, 980, 1044, 1110, 1178, 1248, 1320, 1394, 1470, 1548, 1628, 1710, 1794, 1880,
  1968, 2058, 2150, 2244, 2340, 2438, 2538, 2640, 2744, 2850, 2958, 3068, 3180, 3294, 3410, 3528};
__constant__ float cscale[4] = {0.5f, -1.25f, 3.0f, 1024.0f};
__device__ int gtab[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__device__ unsigned gcount;
__device__ int gout[16];

extern "C" __global__ void const_data(int* out, float* fout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ctab[(i * 5) % 64] + gtab[i % 16];
  fout[i] = cscale[i % 4] * (float)i;
  atomicAdd(&gcount, 1u);
  if (i < 16) gout[i] = gtab[i] * 10;
}

// Dynamic shared memory after a static array of odd size: the extern array
// must start 8-aligned.  Launch with 16 * blockDim.x bytes.
extern "C" __global__ void dyn_smem(double* out, const int* in) {
  __shared__ char tag[5];
  extern __shared__ double dyn[];
  int t = threadIdx.x, n = blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 5) tag[t] = (char)(t + 1);
  dyn[t] = in[i] * 0.5;
  dyn[n + t] = in[i] + 0.25;
  __syncthreads();
  out[2 * i] = dyn[n - 1 - t];
  out[2 * i + 1] = dyn[n + (t + 1) % n] + tag[t % 5];
}

// A 2D grid of 3D blocks: every thread writes its coordinates.
extern "C" __global__ void dims(int* out) {
  int bl = blockIdx.y * gridDim.x + blockIdx.x;
  int tl = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int nt = blockDim.x * blockDim.y * blockDim.z;
  int* o = out + 3 * (bl * nt + tl);
  o[0] = blockIdx.x | blockIdx.y << 8 | threadIdx.x << 16 | threadIdx.y << 20 | threadIdx.z << 24;
  o[1] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
  o[2] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
}
