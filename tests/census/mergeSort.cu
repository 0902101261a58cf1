// mergeSort.cu - merge-sort style kernels: sorted runs merged by ranking
// every element in the other run with a binary search (stable, one element
// per thread), and a merge-path partition of two long sorted arrays.
#include "census_common.h"

template <bool INCLUSIVE>
__device__ __forceinline__ unsigned binary_rank(unsigned key, const unsigned *data, unsigned len) {
  unsigned lo = 0, hi = len;
  while (lo < hi) {
    unsigned mid = (lo + hi) >> 1;
    bool go_right = INCLUSIVE ? data[mid] <= key : data[mid] < key;
    if (go_right) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Merges pairs of sorted runs of `run` elements into runs of 2*run.
__global__ void merge_runs(unsigned *__restrict__ dst, const unsigned *__restrict__ src, unsigned n, unsigned run) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned pair = i / (2 * run), base = pair * 2 * run, off = i - base;
  bool in_second = off >= run;
  const unsigned *mine = src + base + (in_second ? run : 0);
  const unsigned *other = src + base + (in_second ? 0 : run);
  unsigned other_len = min(run, n > base + (in_second ? 0 : run) ? n - base - (in_second ? 0 : run) : 0u);
  unsigned my_pos = in_second ? off - run : off;
  unsigned key = mine[my_pos];
  unsigned r = in_second ? binary_rank<true>(key, other, other_len) : binary_rank<false>(key, other, other_len);
  dst[base + my_pos + r] = key;
}

// Each block sorts its tile of keys in shared memory by odd-even
// transposition, the first step before merging.
__global__ void sort_tiles(unsigned *keys, unsigned n) {
  extern __shared__ unsigned tile[];
  unsigned base = blockIdx.x * blockDim.x * 2, t = threadIdx.x;
  for (unsigned k = t; k < 2 * blockDim.x; k += blockDim.x) tile[k] = base + k < n ? keys[base + k] : 0xffffffffu;
  for (unsigned phase = 0; phase < 2 * blockDim.x; phase++) {
    __syncthreads();
    unsigned i = 2 * t + (phase & 1);
    if (i + 1 < 2 * blockDim.x && tile[i] > tile[i + 1]) {
      unsigned x = tile[i];
      tile[i] = tile[i + 1];
      tile[i + 1] = x;
    }
  }
  __syncthreads();
  for (unsigned k = t; k < 2 * blockDim.x; k += blockDim.x)
    if (base + k < n) keys[base + k] = tile[k];
}

// Merge path: where diagonal d of the merge of a and b crosses.
__device__ int merge_path(const int *a, int na, const int *b, int nb, int d) {
  int lo = max(0, d - nb), hi = min(d, na);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] <= b[d - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <int ITEMS>
__global__ void merge_path_kernel(const int *a, int na, const int *b, int nb, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int d0 = min(t * ITEMS, na + nb), d1 = min(d0 + ITEMS, na + nb);
  int i = merge_path(a, na, b, nb, d0), j = d0 - i;
  int iend = merge_path(a, na, b, nb, d1), jend = d1 - iend;
#pragma unroll
  for (int k = 0; k < ITEMS; k++) {
    if (d0 + k >= d1) break;
    bool take_a = j >= jend || (i < iend && a[i] <= b[j]);
    out[d0 + k] = take_a ? a[i++] : b[j++];
  }
}

template __global__ void merge_path_kernel<8>(const int *, int, const int *, int, int *);
