// atomicCAS.cu - atomics built from compare-and-swap loops, as code for
// older GPUs writes them: double add, float max/min, 64-bit and 16-bit
// packed updates, and a spin lock.
#include "census_common.h"

__device__ double atomicAddDouble(double *address, double val) {
  unsigned long long *as_ull = (unsigned long long *)address;
  unsigned long long old = *as_ull, assumed;
  do {
    assumed = old;
    old = atomicCAS(as_ull, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__device__ float atomicMaxFloat(float *address, float val) {
  int *as_int = (int *)address;
  int old = *as_int, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(as_int, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ float atomicMinFloat(float *address, float val) {
  return val >= 0 ? __int_as_float(atomicMin((int *)address, __float_as_int(val)))
                  : __uint_as_float(atomicMax((unsigned *)address, __float_as_uint(val)));
}

__global__ void cas_sum(const double *x, double *sum, float *mx, float *mn, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAddDouble(sum, x[i]);
  atomicMaxFloat(mx, (float)x[i]);
  atomicMinFloat(mn, (float)x[i]);
}

// a packed (count, sum) pair updated as one 64-bit word
__global__ void packed_pair(const unsigned *v, unsigned long long *pair, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long old = *pair, assumed;
  do {
    assumed = old;
    unsigned cnt = (unsigned)(assumed >> 32) + 1, s = (unsigned)assumed + v[i];
    old = atomicCAS(pair, assumed, ((unsigned long long)cnt << 32) | s);
  } while (old != assumed);
}

// 16-bit CAS (sm_70+)
__global__ void short_cas(unsigned short *counters, const int *which, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned short *p = &counters[which[i]];
  unsigned short old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, (unsigned short)(assumed + 1));
  } while (old != assumed);
}

// a block-level critical section with a global spin lock
__global__ void locked_append(int *lock, int *list, int *len, int value) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    list[*len] = value + blockIdx.x;
    *len += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
