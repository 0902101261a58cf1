// tma_copy.cu - the Tensor Memory Accelerator as Hopper code uses it:
// tensor maps passed as `const __grid_constant__ CUtensorMap` (and one by
// pointer, as an application that copied it to global memory passes it),
// boxes loaded by one elected thread into shared memory and waited for on
// an mbarrier (cuda::ptx's wrappers, libcu++'s cuda::barrier with
// cuda::device::experimental's copies, and inline PTX where neither has a
// wrapper: im2col, multicast), the three swizzles read back as CUTLASS's
// Swizzle<B,4,3> does, boxes partly outside the tensor (zero and NaN fill),
// 1D/3D/5D boxes with element strides, TMA stores and reductions, a
// warp-specialised producer/consumer ring of mbarrier stages, the bulk
// copy's reduction; and three wrong kernels (a read before the barrier
// completes, a pointer to bytes that are no tensor map, a multicast to a
// block the cluster does not have) for the located errors.
// Outputs and counters: tests/test_corpus_tma.c.
//! nvcc: -arch=sm_90a
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <stdint.h>

namespace ptx = cuda::ptx;
namespace cde = cuda::device::experimental;

//! group: tma_copy
//! title: TMA: tensor maps, swizzles, boxes, stores, reductions, pipelines
//! exp: tile_raw
//! title: a 2D box's bytes in shared memory, each swizzle, at the tensor's edges
//@ tile_raw#none grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:80,i32:60,i32:512
//@ tile_raw#sw128 grid=1 block=128 args=tmap:f32:100x70:box=32x16:swz=128,buf:u32:512:zero,i32:80,i32:60,i32:512
//@ tile_raw#sw64 grid=1 block=128 args=tmap:f32:100x70:box=16x16:swz=64,buf:u32:256:zero,i32:88,i32:-3,i32:256
//@ tile_raw#sw32 grid=1 block=128 args=tmap:f32:100x70:box=8x32:swz=32,buf:u32:256:zero,i32:-4,i32:50,i32:256
//@ tile_raw#nan grid=1 block=128 args=tmap:f32:100x70:box=32x16:swz=128:oob=nan,buf:u32:512:zero,i32:80,i32:60,i32:512
//@ tile_raw#bf16 grid=1 block=128 args=tmap:bf16:200x33:box=64x8:swz=128:oob=nan,buf:u32:256:zero,i32:160,i32:30,i32:256
//@ tile_raw#w16 grid=1 block=128 args=tmap:f32:100x70:box=4x32,buf:u32:128:zero,i32:96,i32:50,i32:128
//@ tile_raw#w256 grid=1 block=128 args=tmap:f32:100x70:box=64x8,buf:u32:512:zero,i32:40,i32:66,i32:512
//@ tile_raw#odd grid=1 block=128 args=tmap:f32:100x70:box=32x16,buf:u32:512:zero,i32:4,i32:5,i32:512
//! exp: transpose
//! title: a tile transpose: swizzled box in, its columns read without conflicts, TMA store out
//@ transpose#sw128 grid=3,2 block=32 args=tmap:f32:70x50:box=32x32:swz=128,tmap:f32:50x70:box=32x32:zero,i32:128
//@ transpose#plain grid=3,2 block=32 args=tmap:f32:70x50:box=32x32,tmap:f32:50x70:box=32x32:zero,i32:0
//@ transpose16#sw64 grid=5,4 block=32 args=tmap:f32:70x50:box=16x16:swz=64,tmap:f32:50x70:box=16x16:zero,i32:64
//@ transpose8#sw32 grid=9,7 block=32 args=tmap:f32:70x50:box=8x8:swz=32,tmap:f32:50x70:box=8x8:zero,i32:32
//! exp: box_nd
//! title: 1D, 3D and 5D boxes, element strides
//@ box_1d grid=1 block=64 args=tmap:u8:1000:box=256,buf:u32:64:zero,i32:896
//@ box_3d grid=1 block=64 args=tmap:i32:12x9x5:box=8x6x4:estride=1x2x1,buf:u32:96:zero,i32:4,i32:-1,i32:2
//@ box_5d grid=1 block=64 args=tmap:u16:16x3x4x2x3:box=8x2x3x2x2:estride=1x1x2x1x1,buf:u32:64:zero,i32:8,i32:1,i32:0,i32:1,i32:2
//! exp: im2col
//! title: im2col boxes of an NHWC tensor (a 3x3 filter, padding 1): offsets, strides, corners
//@ im2col#tap00 grid=1 block=64 args=tmap:f32:8x6x5x2:im2col=8x32:lower=-1x-1:upper=-1x-1,buf:u32:256:zero,i32:-1,i32:-1,i32:0,i32:0,i32:0,i32:256
//@ im2col#tap21 grid=1 block=64 args=tmap:f32:8x6x5x2:im2col=8x32:lower=-1x-1:upper=-1x-1,buf:u32:256:zero,i32:3,i32:2,i32:0,i32:2,i32:1,i32:256
//@ im2col#stride2 grid=1 block=64 args=tmap:f32:8x6x5x2:im2col=8x16:lower=-1x-1:upper=-1x-1:estride=1x2x2x1,buf:u32:128:zero,i32:-1,i32:-1,i32:0,i32:1,i32:1,i32:128
//! exp: store_reduce
//! title: TMA store and reduce-add of a tile at the tensor's edge
//@ store_reduce grid=2 block=128 args=tmap:f32:40x20:box=32x8:iota,tmap:f32:40x20:box=32x8:1.5,i32:24,i32:16
//! exp: pipeline
//! title: a warp-specialised producer/consumer ring of three mbarrier stages
//@ pipeline grid=4 block=160 args=tmap:f32:512x256:box=32x64:swz=128,buf:f32:256:zero
//! exp: libcudacxx
//! title: cuda::barrier and cuda::device::experimental's TMA copies (the programming guide's)
//@ libcudacxx grid=2,3 block=128 args=tmap:i32:128x96:box=64x32,tmap:i32:128x96:box=64x32:zero
//! exp: by_pointer
//! title: a tensor map the application copied to global memory (prefetch.tensormap)
//@ by_pointer grid=4 block=64 args=tmap:f32:64x64:box=16x16:swz=64,buf:f32:1024:zero
//! exp: multicast
//! title: a multicast to the blocks of ctaMask (a cluster of one: rank 0)
//@ multicast grid=2 block=64 args=tmap:f32:64x8:box=32x8,buf:f32:512:zero,i32:1
//@ multicast2 grid=4 block=64 args=tmap:f32:64x8:box=32x8,buf:f32:1024:zero
//! exp: bulk_reduce
//! title: cp.reduce.async.bulk: a block's partial sums added into global memory
//@ bulk_reduce grid=8 block=128 args=buf:f32:4096,buf:f32:128:zero
// early_read, early_ldmatrix, not_a_map and multicast#bad fail by design
// (a located error each): tests/test_corpus_tma.c launches them.

// One thread sets the mbarrier up for `count` arrivals, then the block
// sees it (fence.mbarrier_init makes it visible to the async proxy too).
__device__ inline void barrier_init(uint64_t *bar, unsigned count) {
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(bar, count);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
}

// One lane of the warp, as CUTLASS's cute::elect_one_sync() picks it.
__device__ inline bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync _|P, 0xffffffff;\n selp.b32 %0, 1, 0, P;\n}" : "=r"(pred));
  return pred != 0;
}

__device__ inline void barrier_wait(uint64_t *bar, unsigned parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

// The byte offset CUTLASS's Swizzle<B,4,3> gives byte offset o of a tile
// that starts at a 1024-byte boundary: the 16-byte chunk's bits [4, 4+B)
// XOR the 128-byte line's bits [7, 7+B).
template <int SPAN>
__device__ inline unsigned swizzled(unsigned o) {
  if (SPAN == 0) return o;
  constexpr unsigned mask = SPAN / 16 - 1;
  return o ^ (((o >> 7) & mask) << 4);
}

// A box of the map at (x, y), its bytes copied to out as words: what
// the TMA laid out in shared memory, swizzle and fill included.
__global__ void tile_raw(const __grid_constant__ CUtensorMap tm, uint32_t *out, int x, int y, int words) {
  __shared__ alignas(1024) uint32_t tile[2048];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  if (threadIdx.x == 0) {
    int c[2] = {x, y};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tm, c, &full);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, words * 4);
  }
  barrier_wait(&full, 0);
  for (int i = threadIdx.x; i < words; i += blockDim.x) out[i] = tile[i];
}

// out = in^T, one W x W tile per block (one warp): the tile arrives
// swizzled (SPAN bytes, W floats a row), lane r reads column c of it --
// without the swizzle, 32 lanes on one bank -- into a plain tile, which a
// TMA store writes at the transposed place; the store skips what falls
// outside `out`.
template <int W>
__device__ void transpose_tile(const CUtensorMap *in, const CUtensorMap *out, int span) {
  __shared__ alignas(1024) float tile[W * W];
  __shared__ alignas(128) float tr[W * W];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  const int x = blockIdx.x * W, y = blockIdx.y * W, lane = threadIdx.x;
  if (lane == 0) {
    int c[2] = {x, y};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, in, c, &full);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof tile);
  }
  barrier_wait(&full, 0);
  if (lane < W) {
#pragma unroll 4
    for (int c = 0; c < W; c++) {
      unsigned o = (lane * W + c) * 4;
      unsigned p = span == 128 ? swizzled<128>(o) : span == 64 ? swizzled<64>(o) : span == 32 ? swizzled<32>(o) : o;
      tr[c * W + lane] = tile[p / 4];
    }
  }
  ptx::fence_proxy_async(ptx::space_shared); // the generic writes of tr, then the async proxy's read
  __syncthreads();
  if (lane == 0) {
    int c[2] = {y, x};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, out, c, tr);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

__global__ void transpose(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out, int span) {
  transpose_tile<32>(&in, &out, span);
}
__global__ void transpose16(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out, int span) {
  transpose_tile<16>(&in, &out, span);
}
__global__ void transpose8(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out, int span) {
  transpose_tile<8>(&in, &out, span);
}

// An N-dimensional box copied to out as words.
template <int N>
__device__ void box_raw(const CUtensorMap *tm, uint32_t *out, const int (&c)[N], int words) {
  __shared__ alignas(128) uint32_t box[512];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, c, &full);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, words * 4);
  }
  barrier_wait(&full, 0);
  for (int i = threadIdx.x; i < words; i += blockDim.x) out[i] = box[i];
}

__global__ void box_1d(const __grid_constant__ CUtensorMap tm, uint32_t *out, int x) {
  const int c[1] = {x};
  box_raw<1>(&tm, out, c, 64);
}
__global__ void box_3d(const __grid_constant__ CUtensorMap tm, uint32_t *out, int x, int y, int z) {
  const int c[3] = {x, y, z};
  box_raw<3>(&tm, out, c, 96);
}
__global__ void box_5d(const __grid_constant__ CUtensorMap tm, uint32_t *out, int a, int b, int c2, int d, int e) {
  const int c[5] = {a, b, c2, d, e};
  box_raw<5>(&tm, out, c, 64);
}

// im2col: the filter base (w, h) of image n and its tap (ow, oh); the
// box is the pixels the map's bounding box walks, 8 channels each (`words`
// 4-byte words: pixelsPerColumn x 8).  cuda::ptx has no im2col form.
__global__ void im2col(const __grid_constant__ CUtensorMap tm, uint32_t *out, int w, int h, int n, int ow, int oh,
                       int words) {
  __shared__ alignas(128) uint32_t cols[1024];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  if (threadIdx.x == 0) {
    uint32_t dst = (uint32_t)__cvta_generic_to_shared(cols), bar = (uint32_t)__cvta_generic_to_shared(&full);
    uint16_t offw = (uint16_t)ow, offh = (uint16_t)oh;
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                 :
                 : "r"(dst), "l"(&tm), "r"(0), "r"(w), "r"(h), "r"(n), "r"(bar), "h"(offw), "h"(offh)
                 : "memory");
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, words * 4);
  }
  barrier_wait(&full, 0);
  for (int i = threadIdx.x; i < words; i += blockDim.x) out[i] = cols[i];
}

// A 32x8 tile at (x0, y0 - 16 * blockIdx.x), in from the first map and
// written back through the same map doubled by a TMA store, then added
// into the second map's tensor by a TMA reduction; both skip the part
// outside the tensor.  (A store's box may end past the tensor, not start
// before it: the H200 stops the kernel at one with a negative coordinate,
// as warpmem does: groundtruth/bulk_group_kernels.cu.)
__global__ void store_reduce(const __grid_constant__ CUtensorMap t, const __grid_constant__ CUtensorMap acc, int x0,
                             int y0) {
  __shared__ alignas(128) float tile[8][32];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  const int c[2] = {x0, y0 - 16 * (int)blockIdx.x};
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[0][0], &t, c, &full);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof tile);
  }
  barrier_wait(&full, 0);
  for (int i = threadIdx.x; i < 8 * 32; i += blockDim.x) tile[i / 32][i % 32] *= 2.0f;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &t, c, &tile[0][0]);
    ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &acc, c, &tile[0][0]);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

// Row sums of a 256 x 512 matrix, a band of 64 rows per block: a producer
// warp (one elected thread) streams 64 x 32 tiles through a ring of three
// stages, each with a `full` mbarrier (expect_tx of the tile's bytes) and an
// `empty` one the four consumer warps arrive on when they have read it;
// consumer lane l of warp w adds up row 16 w + l / 2, half of the tile's
// columns each.
constexpr int STAGES = 3, TILE_K = 32, BAND = 64;
__global__ void pipeline(const __grid_constant__ CUtensorMap a, float *sums) {
  __shared__ alignas(1024) float stage[STAGES][BAND * TILE_K];
  __shared__ uint64_t full[STAGES], empty[STAGES];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, ktiles = 512 / TILE_K;
  if (threadIdx.x == 0)
    for (int s = 0; s < STAGES; s++) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 4);
    }
  ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  __syncthreads();
  if (warp == 0) { /* the producer */
    if (elect_one()) {
      for (int k = 0; k < ktiles; k++) {
        int s = k % STAGES;
        if (k >= STAGES) barrier_wait(&empty[s], (k / STAGES - 1) & 1);
        int c[2] = {k * TILE_K, (int)blockIdx.x * BAND};
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                       sizeof stage[0]);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, stage[s], &a, c, &full[s]);
      }
    }
    return;
  }
  const int row = (warp - 1) * 16 + lane / 2, half = lane % 2;
  float acc = 0;
  for (int k = 0; k < ktiles; k++) {
    int s = k % STAGES;
    barrier_wait(&full[s], (k / STAGES) & 1);
    for (int j = 0; j < TILE_K / 2; j++) {
      unsigned o = (row * TILE_K + half * (TILE_K / 2) + j) * 4;
      acc += stage[s][swizzled<128>(o) / 4];
    }
    __syncwarp();
    if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
  }
  acc += __shfl_xor_sync(0xffffffff, acc, 1);
  if (half == 0) sums[blockIdx.x * BAND + row] = acc;
}

// The CUDA programming guide's TMA example, with libcu++'s own wrappers: a
// block-scoped cuda::barrier, cde::cp_async_bulk_tensor_2d_global_to_shared
// and barrier_arrive_tx, the tile incremented, and written back to the
// second tensor with cde::cp_async_bulk_tensor_2d_shared_to_global.
__global__ void libcudacxx(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out) {
  using barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(128) int tile[32][64];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  const int x = blockIdx.x * 64, y = blockIdx.y * 32;
  barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &in, x, y, bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof tile);
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < 32 * 64; i += blockDim.x) tile[i / 64][i % 64] += 1;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&out, x, y, &tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
  if (threadIdx.x == 0) (&bar)->~barrier();
}

// A map the host copied to global memory and passes by pointer, as the
// fast.cu series of Hopper GEMMs does: prefetched, then used.
__global__ void by_pointer(const CUtensorMap *tm, float *out) {
  __shared__ alignas(512) float tile[16 * 16];
  __shared__ uint64_t full;
  if (threadIdx.x == 0) asm volatile("prefetch.tensormap [%0];" : : "l"(tm) : "memory");
  barrier_init(&full, 1);
  const int x = (blockIdx.x % 4) * 16, y = (blockIdx.x / 4) * 16;
  if (threadIdx.x == 0) {
    int c[2] = {x, y};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, tm, c, &full);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof tile);
  }
  barrier_wait(&full, 0);
  for (int i = threadIdx.x; i < 256; i += blockDim.x) /* undo the 64-byte swizzle */
    out[blockIdx.x * 256 + i] = tile[swizzled<64>(i * 4) / 4];
}

// A box multicast to the blocks of ctaMask, each signalled on its own
// mbarrier at the same offset; launched without clusters, a cluster is one
// block, so only mask 1 (rank 0) is valid (multicast#bad: 3).
__global__ void multicast(const __grid_constant__ CUtensorMap tm, float *out, int mask) {
  __shared__ alignas(128) float tile[8 * 32];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  if (threadIdx.x == 0) {
    int c[2] = {(int)blockIdx.x * 32, 0};
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof tile);
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tm, c, &full, (uint16_t)mask);
  }
  barrier_wait(&full, 0);
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[blockIdx.x * 256 + i] = tile[i];
}

// A multicast across a cluster of two (__cluster_dims__): rank 0 loads
// the cluster's box once into both blocks, each of which expects its bytes
// on its own mbarrier.  It runs where clusters of several blocks do (with
// clusters of one, ctaMask 3 names a rank the cluster lacks: a located
// fault); the probe of multicast's counters.
__global__ void __cluster_dims__(2, 1, 1) multicast2(const __grid_constant__ CUtensorMap tm, float *out) {
  __shared__ alignas(128) float tile[8 * 32];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof tile);
    if (rank == 0) {
      int c[2] = {(int)(blockIdx.x / 2) * 32, 0};
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tm, c, &full, (uint16_t)3);
    }
  }
  barrier_wait(&full, 0);
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[blockIdx.x * 256 + i] = tile[i];
  asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Each block sums its 512 floats into 128 partial sums in shared memory
// and adds them into out with one bulk reduction (.add.f32).
__global__ void bulk_reduce(const float *in, float *out) {
  __shared__ alignas(16) float part[128];
  const float *p = in + blockIdx.x * 512;
  part[threadIdx.x] = p[threadIdx.x] + p[threadIdx.x + 128] + p[threadIdx.x + 256] + p[threadIdx.x + 384];
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, out, part, sizeof part);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

// Wrong: every thread reads the box before its mbarrier completes (the
// wait is missing), which the GPU would let return stale bytes.
__global__ void early_read(const __grid_constant__ CUtensorMap tm, float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  if (threadIdx.x == 0) {
    int c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tm, c, &full);
  }
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

// Wrong: the warp feeds ldmatrix from the box before the barrier's wait.
__global__ void early_ldmatrix(const __grid_constant__ CUtensorMap tm, uint32_t *out) {
  __shared__ alignas(1024) uint16_t tile[64 * 8];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  if (threadIdx.x == 0) {
    int c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tm, c, &full);
  }
  __syncwarp();
  uint32_t r, row = (uint32_t)__cvta_generic_to_shared(&tile[(threadIdx.x % 8) * 64]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(row));
  out[threadIdx.x] = r;
}

// Wrong: `tm` points at bytes no encode call wrote (a buffer of zeros).
__global__ void not_a_map(const CUtensorMap *tm, float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t full;
  barrier_init(&full, 1);
  if (threadIdx.x == 0) {
    int c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, tm, c, &full);
  }
  barrier_wait(&full, 0);
  out[threadIdx.x] = tile[threadIdx.x];
}
