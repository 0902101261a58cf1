// blockPrimitives.cu - CUB-style block primitives written by hand:
// templated warp and block reductions and scans with TempStorage in shared
// memory, a blocked-to-striped load/store, and a block radix-rank step,
// used by a tiled sum, an exclusive scan and a one-pass radix sort tile.
#include "census_common.h"

struct Sum {
  template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct Max {
  template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, int LOGICAL_WARP = 32>
struct WarpReduce {
  template <typename Op>
  __device__ static T reduce(T v, Op op) {
#pragma unroll
    for (int off = LOGICAL_WARP / 2; off > 0; off >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, off, LOGICAL_WARP));
    return v;
  }
};

template <typename T, int BLOCK_THREADS>
struct BlockReduce {
  static constexpr int WARPS = BLOCK_THREADS / 32;
  struct TempStorage {
    T warp_aggregates[WARPS];
  };
  TempStorage &temp;
  __device__ explicit BlockReduce(TempStorage &t) : temp(t) {}
  template <typename Op>
  __device__ T Reduce(T v, Op op) {
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = WarpReduce<T>::reduce(v, op);
    if (lane == 0) temp.warp_aggregates[warp] = v;
    __syncthreads();
    if (warp == 0) {
      v = lane < WARPS ? temp.warp_aggregates[lane] : temp.warp_aggregates[0];
      v = WarpReduce<T>::reduce(v, op);
    }
    return v;
  }
  __device__ T Sum(T v) { return Reduce(v, ::Sum()); }
};

template <typename T, int BLOCK_THREADS>
struct BlockScan {
  static constexpr int WARPS = BLOCK_THREADS / 32;
  struct TempStorage {
    T warp_totals[WARPS];
  };
  TempStorage &temp;
  __device__ explicit BlockScan(TempStorage &t) : temp(t) {}
  __device__ void ExclusiveSum(T in, T &out, T &block_total) {
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T incl = in;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      T up = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += up;
    }
    if (lane == 31) temp.warp_totals[warp] = incl;
    __syncthreads();
    T base = 0;
    block_total = 0;
#pragma unroll
    for (int w = 0; w < WARPS; w++) {
      if (w < warp) base += temp.warp_totals[w];
      block_total += temp.warp_totals[w];
    }
    out = base + incl - in;
  }
};

template <typename T, int BLOCK_THREADS, int ITEMS>
__device__ void LoadDirectStriped(const T *block_ptr, T (&items)[ITEMS], int valid, T oob) {
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    int idx = i * BLOCK_THREADS + threadIdx.x;
    items[i] = idx < valid ? block_ptr[idx] : oob;
  }
}

template <typename T, int BLOCK_THREADS, int ITEMS>
__global__ void __launch_bounds__(BLOCK_THREADS) tile_sum(const T *in, T *out, int n) {
  using Reduce = BlockReduce<T, BLOCK_THREADS>;
  __shared__ typename Reduce::TempStorage temp;
  T items[ITEMS];
  int base = blockIdx.x * BLOCK_THREADS * ITEMS;
  LoadDirectStriped<T, BLOCK_THREADS, ITEMS>(in + base, items, n - base, T(0));
  T s = 0;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) s += items[i];
  T mx = s;
  s = Reduce(temp).Sum(s);
  __syncthreads();
  mx = Reduce(temp).Reduce(mx, Max());
  if (threadIdx.x == 0) out[blockIdx.x] = s + mx;
}

template <int BLOCK_THREADS>
__global__ void tile_exclusive_scan(const int *in, int *out, int *totals, int n) {
  using Scan = BlockScan<int, BLOCK_THREADS>;
  __shared__ typename Scan::TempStorage temp;
  int i = blockIdx.x * BLOCK_THREADS + threadIdx.x, v = i < n ? in[i] : 0, excl, total;
  Scan(temp).ExclusiveSum(v, excl, total);
  if (i < n) out[i] = excl;
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// one 4-bit digit pass of a block radix sort on a tile of keys
template <int BLOCK_THREADS>
__global__ void radix_tile_pass(const unsigned *keys_in, unsigned *keys_out, int shift) {
  __shared__ unsigned digit_counts[16 * BLOCK_THREADS];
  __shared__ unsigned digit_base[16];
  unsigned key = keys_in[blockIdx.x * BLOCK_THREADS + threadIdx.x];
  unsigned d = (key >> shift) & 15u;
  for (int k = 0; k < 16; k++) digit_counts[k * BLOCK_THREADS + threadIdx.x] = (d == (unsigned)k);
  __syncthreads();
  // serial scan per digit column by 16 threads (small tiles)
  if (threadIdx.x < 16) {
    unsigned run = 0;
    for (int t = 0; t < BLOCK_THREADS; t++) {
      unsigned c = digit_counts[threadIdx.x * BLOCK_THREADS + t];
      digit_counts[threadIdx.x * BLOCK_THREADS + t] = run;
      run += c;
    }
    digit_base[threadIdx.x] = run;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned acc = 0;
    for (int k = 0; k < 16; k++) {
      unsigned c = digit_base[k];
      digit_base[k] = acc;
      acc += c;
    }
  }
  __syncthreads();
  unsigned rank = digit_base[d] + digit_counts[d * BLOCK_THREADS + threadIdx.x];
  keys_out[blockIdx.x * BLOCK_THREADS + rank] = key;
}

template __global__ void tile_sum<float, 128, 4>(const float *, float *, int);
template __global__ void tile_sum<int, 256, 8>(const int *, int *, int);
template __global__ void tile_exclusive_scan<128>(const int *, int *, int *, int);
template __global__ void radix_tile_pass<128>(const unsigned *, unsigned *, int);
