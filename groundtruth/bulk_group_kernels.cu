// bulk_group_kernels.cu - issue 33: what the TMA unit counts as a request
// (l1tex__tmain_requests) besides its copies: the commit of a bulk group,
// the wait for one, a prefetch of a tensor map, by one lane or by a whole
// warp (the H200 counted one request more a block of tma_copy.cu's stores,
// which commit once and wait once, and of by_pointer, which prefetches its
// map once: these launches tell which instruction it is and whether lanes
// count); and which TMA stores the H200 refuses (tma_copy.cu's store_reduce
// stopped at its store of a box at x = -8 with an illegal instruction, a
// load at x = -8 did not).  The model's predictions are committed before
// the GPU runs these.
//! nvcc: -arch=sm_90a
#include "../tests/corpus/hopper_gemm.cu"

//! group: bulk_group
//! title: TMA requests of bulk groups and tensor-map prefetches; TMA stores at the tensor's edges
//! exp: commits
//! title: one warp's TMA stores of a 32x8 f32 box: stores, commits (once, after each, by 32 lanes), waits, prefetches
//@ commits#s4c1 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:4,i32:0,i32:1,i32:1,i32:0
//@ commits#s4c4 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:4,i32:1,i32:1,i32:1,i32:0
//@ commits#s1w4 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:1,i32:0,i32:1,i32:4,i32:0
//@ commits#s1c32 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:1,i32:0,i32:32,i32:1,i32:0
//@ commits#s0c1 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:0,i32:0,i32:1,i32:1,i32:0
//@ commits#s0c0 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:0,i32:0,i32:0,i32:0,i32:0
//@ commits#p1 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:0,i32:0,i32:0,i32:0,i32:1
//@ commits#p32 grid=1 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:0,i32:0,i32:0,i32:0,i32:32
//@ commits#s2c1b4 grid=4 block=32 args=tmap:f32:64x64:box=32x8:zero,i32:2,i32:0,i32:1,i32:1,i32:0
//! exp: store_edges
//! title: a TMA store (and a reduce-add) of a 32x8 f32 box into a 40x20 tensor, inside, past its far edges, before its near ones
//@ store_at#in grid=1 block=32 args=tmap:f32:40x20:box=32x8:zero,i32:0,i32:0,i32:0
//@ store_at#far grid=1 block=32 args=tmap:f32:40x20:box=32x8:zero,i32:24,i32:16,i32:0
//@ store_at#xm8 grid=1 block=32 args=tmap:f32:40x20:box=32x8:zero,i32:-8,i32:8,i32:0
//@ store_at#ym4 grid=1 block=32 args=tmap:f32:40x20:box=32x8:zero,i32:8,i32:-4,i32:0
//@ store_at#xm32 grid=1 block=32 args=tmap:f32:40x20:box=32x8:zero,i32:-32,i32:0,i32:0
//@ store_at#red_in grid=1 block=32 args=tmap:f32:40x20:box=32x8:1.5,i32:0,i32:0,i32:1
//@ store_at#red_xm8 grid=1 block=32 args=tmap:f32:40x20:box=32x8:1.5,i32:-8,i32:8,i32:1

__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void tma_reduce_add(const CUtensorMap *map, const void *src, int c0, int c1) {
  asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];"
               ::"l"(map), "r"(smem_u32(src)), "r"(c0), "r"(c1)
               : "memory");
}

// Lane 0 stores `stores` boxes (rows 8 apart), committing after each
// (each = 1) or once after all, by `committers` lanes (1 or 32); then
// `waits` waits for the groups' reads; `prefetchers` lanes prefetch the
// map first.  Block b stores at column 32 * (b % 2).
extern "C" __global__ void commits(const __grid_constant__ CUtensorMap t, int stores, int each, int committers,
                                   int waits, int prefetchers) {
  __shared__ alignas(128) float tile[8][32];
  const unsigned lane = threadIdx.x;
  if ((int)lane < prefetchers) asm volatile("prefetch.tensormap [%0];" ::"l"(&t) : "memory");
  for (int i = lane; i < 8 * 32; i += 32) tile[i / 32][i % 32] = (float)(i + 256 * blockIdx.x);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncwarp();
  for (int s = 0; s < stores; s++) {
    if (lane == 0) tma_store(&t, &tile[0][0], 32 * (blockIdx.x % 2), 8 * s);
    if (each && (int)lane < committers) bulk_commit();
  }
  if (!each && (int)lane < committers) bulk_commit();
  if (lane == 0)
    for (int w = 0; w < waits; w++) bulk_wait_read();
}

// Lane 0 stores (reduce = 0) or adds (reduce = 1) the box at (x, y).
extern "C" __global__ void store_at(const __grid_constant__ CUtensorMap t, int x, int y, int reduce) {
  __shared__ alignas(128) float tile[8][32];
  const unsigned lane = threadIdx.x;
  for (int i = lane; i < 8 * 32; i += 32) tile[i / 32][i % 32] = (float)(i + 1);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncwarp();
  if (lane == 0) {
    if (reduce) tma_reduce_add(&t, &tile[0][0], x, y);
    else tma_store(&t, &tile[0][0], x, y);
    bulk_commit();
    bulk_wait_read();
  }
}
