// __managed__ variables (unified memory the host reads after the kernel
// without a copy): a counter and a histogram that every block updates with
// atomics, a scale the host sets before the launch (warpmem sim --const
// m_scale=f32:..), next to a plain __device__ total (tests/test_corpus_heap.c).
//! group: managed_vars
//! title: __managed__ variables updated with atomics
//! exp: managed_count
//! title: a counter and a histogram in unified memory
//@ count_above grid=4 block=128 args=buf:f32:512,buf:f32:512:zero,i32:512,f32:0.5
#include <cstdio>

__managed__ unsigned long long m_count;
__managed__ int m_hist[16];
__managed__ float m_scale = 1.5f;
__device__ float d_total;

__global__ void count_above(const float *in, float *out, int n, float threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  out[i] = v * m_scale;
  if (v > threshold) atomicAdd(&m_count, 1ull);
  int bin = min(15, max(0, (int)(v * 16.0f)));
  atomicAdd(&m_hist[bin], 1);
  atomicAdd(&d_total, v);
}
