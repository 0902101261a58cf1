// cacheHints.cu - what bandwidth-tuned code writes to steer the caches:
// the load/store cache-operator intrinsics (__ldcg, __ldcs, __ldca, __ldlu,
// __ldcv, __stcg, __stcs, __stwt, __stwb), L2 prefetches in inline PTX,
// and libcu++ atomics with memory orders and scopes.
#include <cuda/atomic>
#include "census_common.h"

__global__ void streaming_copy(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float4 v = __ldcs(in + i); // evict-first: read once
    __stcs(out + i, v);
  }
}

__global__ void cache_operators(const int *a, const int *b, const int *c, const int *d, int *o1, int *o2, int *o3,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = __ldcg(a + i) + __ldca(b + i) + __ldlu(c + i) + __ldcv(d + i);
  __stcg(o1 + i, x);
  __stwt(o2 + i, x + 1);
  __stwb(o3 + i, x + 2);
}

__global__ void prefetch_ahead(const float *in, float *out, int n, int dist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + dist < n) asm volatile("prefetch.global.L2 [%0];" ::"l"(in + i + dist));
  if (i < n) out[i] = in[i] * 2.0f;
}

__global__ void evict_hints(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v;
  asm volatile("ld.global.L1::no_allocate.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
  asm volatile("st.global.L1::no_allocate.f32 [%0], %1;" ::"l"(out + i), "f"(v * 3.0f));
}

// a producer publishes with release, consumers read with acquire
__global__ void flag_handoff(int *data, int *flag, int n) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = i;
    __syncthreads();
    if (threadIdx.x == 0) f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += data[i];
    data[n + blockIdx.x * blockDim.x + threadIdx.x] = s;
  }
}

__global__ void ordered_counters(unsigned *counter, unsigned long long *total) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> c(counter[blockIdx.x]);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> t(*total);
  unsigned mine = c.fetch_add(1u, cuda::memory_order_relaxed);
  t.fetch_add(mine, cuda::memory_order_acq_rel);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
  unsigned expected = 0;
  c.compare_exchange_strong(expected, 7u, cuda::memory_order_acq_rel);
  t.fetch_max(mine);
}
