// recursion.cu - device recursion without dynamic parallelism: a quicksort
// of small segments with an explicit recursive partition, a recursive
// Fibonacci-style tree walk, and the recursive Gaussian filter's causal
// and anti-causal passes (iterative, one column per thread).
#include "census_common.h"

__device__ void swap_int(int &a, int &b) {
  int t = a;
  a = b;
  b = t;
}

__device__ void quicksort_rec(int *a, int lo, int hi, int depth) {
  if (lo >= hi) return;
  if (depth > 24 || hi - lo < 8) {
    for (int i = lo + 1; i <= hi; i++)
      for (int j = i; j > lo && a[j - 1] > a[j]; j--) swap_int(a[j - 1], a[j]);
    return;
  }
  int pivot = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < pivot) i++;
    while (a[j] > pivot) j--;
    if (i <= j) swap_int(a[i++], a[j--]);
  }
  quicksort_rec(a, lo, j, depth + 1);
  quicksort_rec(a, i, hi, depth + 1);
}

__global__ void quicksort_segments(int *data, int seg_len, int nseg) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nseg) quicksort_rec(data + (size_t)s * seg_len, 0, seg_len - 1, 0);
}

struct Node {
  int left, right;
  float value;
};

__device__ float tree_sum(const Node *nodes, int at) {
  if (at < 0) return 0.0f;
  const Node &n = nodes[at];
  return n.value + tree_sum(nodes, n.left) + tree_sum(nodes, n.right);
}

__global__ void sum_trees(const Node *nodes, const int *roots, float *out, int ntrees) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < ntrees) out[t] = tree_sum(nodes, roots[t]);
}

__device__ unsigned long long ackermann_small(unsigned m, unsigned long long n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann_small(m - 1, 1);
  return ackermann_small(m - 1, ackermann_small(m, n - 1));
}

__global__ void ackermann(unsigned long long *out) { out[threadIdx.x] = ackermann_small(threadIdx.x % 3, 3); }

// recursive Gaussian (Deriche) filter, one column per thread
__global__ void d_recursiveGaussian(const float *id, float *od, int w, int h, float a0, float a1, float a2, float a3,
                                   float b1, float b2, float coefp, float coefn) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w) return;
  id += x;
  od += x;
  float xp = *id, yp = coefp * xp, yb = yp;
  for (int y = 0; y < h; y++) {
    float xc = *id, yc = a0 * xc + a1 * xp - b1 * yp - b2 * yb;
    *od = yc;
    id += w;
    od += w;
    xp = xc;
    yb = yp;
    yp = yc;
  }
  id -= w;
  od -= w;
  float xn = *id, xa = xn, yn = coefn * xn, ya = yn;
  for (int y = h - 1; y >= 0; y--) {
    float xc = *id, yc = a2 * xn + a3 * xa - b1 * yn - b2 * ya;
    xa = xn;
    xn = xc;
    ya = yn;
    yn = yc;
    *od = *od + yc;
    id -= w;
    od -= w;
  }
}
