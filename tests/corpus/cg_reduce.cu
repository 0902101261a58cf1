// Block reductions and warp tiles with cooperative groups, written as the
// CUDA samples' reduction and the CUDA programming guide's tile examples
// are: a templated block reduction over a grid-stride loop with
// cg::tiled_partition<32> and cg::reduce (cg::plus, cg::greater: redux.sync
// for int on sm_80+), and the tile operations of every sub-warp size.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Sum and maximum of in[0..n) per block: each warp reduces with cg::reduce,
// warp 0 reduces the warps' results from shared memory.
template <typename T, int BLOCK>
__device__ void block_reduce(const T *in, T *sums, T *maxes, int n) {
  __shared__ T warp_sum[BLOCK / 32], warp_max[BLOCK / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  T sum = 0, mx = in[0];
  for (int i = blockIdx.x * BLOCK + block.thread_rank(); i < n; i += BLOCK * gridDim.x) {
    sum += in[i];
    mx = in[i] > mx ? in[i] : mx;
  }
  sum = cg::reduce(warp, sum, cg::plus<T>());
  mx = cg::reduce(warp, mx, cg::greater<T>());
  if (warp.thread_rank() == 0) {
    warp_sum[warp.meta_group_rank()] = sum;
    warp_max[warp.meta_group_rank()] = mx;
  }
  block.sync();
  if (warp.meta_group_rank() == 0) {
    bool mine = warp.thread_rank() < warp.meta_group_size();
    sum = mine ? warp_sum[warp.thread_rank()] : T(0);
    mx = mine ? warp_max[warp.thread_rank()] : warp_max[0];
    sum = cg::reduce(warp, sum, cg::plus<T>());
    mx = cg::reduce(warp, mx, cg::greater<T>());
    if (warp.thread_rank() == 0) {
      sums[blockIdx.x] = sum;
      maxes[blockIdx.x] = mx;
    }
  }
}

//! group: cg_reduce
//! title: block reductions and warp tiles with cooperative groups
//! exp: block_reduce
//! title: cg::reduce sums and maxima per block, int and float
//@ block_reduce_i32 grid=8 block=256 args=buf:i32:10000:rand,buf:i32:8:zero,buf:i32:8:zero,i32:10000
extern "C" __global__ void block_reduce_i32(const int *in, int *sums, int *maxes, int n) {
  block_reduce<int, 256>(in, sums, maxes, n);
}

//@ block_reduce_f32 grid=4 block=128 args=buf:f32:3000:rand,buf:f32:4:zero,buf:f32:4:zero,i32:3000
extern "C" __global__ void block_reduce_f32(const float *in, float *sums, float *maxes, int n) {
  block_reduce<float, 128>(in, sums, maxes, n);
}

// What each lane of a TILE-wide tile sees, 10 ints per thread:
// the leader's value (shfl), the tile's sum by shfl_down (lane 0's, shared by
// shfl), any/all, ballot, match_any, meta_group_rank (+ 100 * the warp, by
// warpSize: PTX's WARP_SZ), thread_rank, the sum by shfl_xor, and the sum
// and maximum by cg::reduce (redux.sync with the tile's member mask).
template <int TILE>
__device__ void tile_ops(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int *o = out + 10 * i;
  o[0] = tile.shfl(v, 0);
  int s = v;
  for (int d = tile.size() / 2; d > 0; d /= 2) s += tile.shfl_down(s, d);
  o[1] = tile.shfl(s, 0);
  o[2] = tile.any(v % 7 == 0) | tile.all(v % 2 == 0) << 1;
  o[3] = tile.ballot(v % 3 == 0);
  o[4] = tile.match_any(v % 4);
  o[5] = tile.meta_group_rank() + 100 * (threadIdx.x / warpSize);
  o[6] = tile.thread_rank();
  int x = v;
  for (int d = 1; d < tile.num_threads(); d *= 2) x += tile.shfl_xor(x, d);
  o[7] = x;
  o[8] = cg::reduce(tile, v, cg::plus<int>());
  o[9] = cg::reduce(tile, v, cg::greater<int>());
}

//! exp: tile_ops
//! title: every tile operation at tile sizes 16, 8, 4, 2
//@ tile_ops16 grid=2 block=96 args=buf:i32:192:rand,buf:i32:1920:zero
extern "C" __global__ void tile_ops16(const int *in, int *out) { tile_ops<16>(in, out); }
//@ tile_ops8 grid=2 block=96 args=buf:i32:192:rand,buf:i32:1920:zero
extern "C" __global__ void tile_ops8(const int *in, int *out) { tile_ops<8>(in, out); }
//@ tile_ops4 grid=2 block=96 args=buf:i32:192:rand,buf:i32:1920:zero
extern "C" __global__ void tile_ops4(const int *in, int *out) { tile_ops<4>(in, out); }
//@ tile_ops2 grid=2 block=96 args=buf:i32:192:rand,buf:i32:1920:zero
extern "C" __global__ void tile_ops2(const int *in, int *out) { tile_ops<2>(in, out); }


// A tile whose size is known only at run time (cg::thread_group from
// tiled_partition(block, size)), warpSize (PTX's WARP_SZ), tile.sync and
// cg::sync: each thread writes rank + 100 * size + 10000 * warp.
//! exp: dyn_tile
//! title: a tile whose size is known only at run time
//@ dyn_tile grid=2 block=64 args=buf:i32:128:zero,i32:8
extern "C" __global__ void dyn_tile(int *out, int size) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, size);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = tile.thread_rank() + 100 * tile.size() + 10000 * (threadIdx.x / warpSize);
  tile.sync();
  out[i] = v;
  cg::sync(block);
}
