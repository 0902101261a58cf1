// hopper_gemm.cu - bf16 GEMMs as Hopper code writes them: tiles of A and B
// brought into 128B-swizzled shared memory by TMA (one elected producer
// thread, cp.async.bulk.tensor completing on mbarriers), multiplied by
// consumer warpgroups with wgmma from shared-memory descriptors, a ring of
// STAGES full/empty mbarrier pairs between them (warp specialisation with
// setmaxnreg), a cluster variant whose B tile one block multicasts to both
// blocks of its cluster, and a TMA-store epilogue.  C[m][n] = sum_k
// A[m][k] * B[n][k]: A is M x K and B is N x K, both row-major (K-major
// tiles for both operands), C is M x N row-major in bf16 (f32 sums).
// Outputs and counters: tests/test_corpus_hopper.c; on the H200:
// tools/gpu/corpus_ncu.sh.
//! nvcc: -arch=sm_90a
#include <cuda.h>
#include <cuda_bf16.h>
#include <stdint.h>

//! group: hopper_gemm
//! title: Hopper GEMMs: TMA, wgmma, warp specialisation, clusters with multicast, TMA stores
//! exp: gemm_ws
//! title: warp-specialised TMA + wgmma GEMM: 1 producer, 2 consumer warpgroups, a 4-stage mbarrier ring
//@ gemm_ws#512 grid=4,4 block=384 smem=132096 args=tmap:bf16:512x512:box=64x128:swz=128,tmap:bf16:512x512:box=64x128:swz=128,buf:bf16:262144:zero,i32:512,i32:512,i32:512
//@ gemm_ws#256x512x1024 grid=4,2 block=384 smem=132096 args=tmap:bf16:1024x256:box=64x128:swz=128,tmap:bf16:1024x512:box=64x128:swz=128,buf:bf16:131072:zero,i32:256,i32:512,i32:1024
//! exp: gemm_mc
//! title: the same with clusters of 2 blocks along M, B multicast by rank 0 to both
//@ gemm_mc#512 grid=4,4 block=384 cluster=1,2,1 smem=132096 args=tmap:bf16:512x512:box=64x128:swz=128,tmap:bf16:512x512:box=64x128:swz=128,buf:bf16:262144:zero,i32:512,i32:512,i32:512
//! exp: gemm_tmastore
//! title: the warp-specialised GEMM with a TMA-store epilogue (C through shared memory)
//@ gemm_tmastore#512 grid=4,4 block=384 smem=132096 args=tmap:bf16:512x512:box=64x128:swz=128,tmap:bf16:512x512:box=64x128:swz=128,tmap:bf16:512x512:box=64x128:zero,i32:512,i32:512,i32:512
//! exp: gemm_1wg
//! title: one warpgroup, double-buffered TMA loads, m64n64 wgmma (no specialisation)
//@ gemm_1wg#256 grid=4,4 block=128 smem=33792 args=tmap:bf16:256x256:box=64x64:swz=128,tmap:bf16:256x256:box=64x64:swz=128,buf:bf16:65536:zero,i32:256,i32:256,i32:256

#define BM 128
#define BN 128
#define BK 64
#define STAGES 4

extern __shared__ uint8_t dyn_smem[];

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

// --- mbarriers (the wait loop as inline asm writes it: its labels are the block's own) ---
__device__ __forceinline__ void mbar_init(uint64_t *b, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t *b, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t *b, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "LAB_WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      "@P1 bra.uni DONE;\n"
      "bra.uni LAB_WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(smem_u32(b)),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(b)) : "memory");
}
// arrive on the barrier at the same offset in block `rank` of the cluster
__device__ __forceinline__ void mbar_arrive_rank(uint64_t *b, uint32_t rank) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(smem_u32(b)),
      "r"(rank)
      : "memory");
}

// --- TMA ---
__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, uint64_t *bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
      ::"r"(smem_u32(dst)), "l"(map), "r"(smem_u32(bar)), "r"(c0), "r"(c1)
      : "memory");
}
__device__ __forceinline__ void tma_load_multicast(void *dst, const CUtensorMap *map, uint64_t *bar, int c0, int c1,
                                                   uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;"
      ::"r"(smem_u32(dst)), "l"(map), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "h"(mask)
      : "memory");
}
__device__ __forceinline__ void tma_store(const CUtensorMap *map, const void *src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];"
               ::"l"(map), "r"(smem_u32(src)), "r"(c0), "r"(c1)
               : "memory");
}

// --- wgmma ---
// A descriptor of a K-major tile of 8-row, 128-byte swizzle atoms (1024 bytes apart)
__device__ __forceinline__ uint64_t desc_sw128(const void *p) {
  uint64_t a = smem_u32(p);
  return ((a & 0x3FFFF) >> 4) | (1ull << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
// D (64 x 64, f32) += A (64 x 16, bf16, K-major) * B (64 x 16, bf16, K-major), both from
// 128B-swizzled shared memory through their descriptors; scale_d 0 starts D at A*B.
__device__ __forceinline__ void wgmma_m64n64k16(float d[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(da), "l"(db), "r"(scale_d));
}

// D (64 x 128, f32) += A (64 x 16, bf16, K-major) * B (128 x 16, bf16, K-major), both from
// 128B-swizzled shared memory through their descriptors; scale_d 0 starts D at A*B.
__device__ __forceinline__ void wgmma_m64n128k16(float d[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(scale_d));
}

// Warpgroup wg's 64 rows x N columns of D, lane `lane` of warp `w` of the
// warpgroup: element i is row 16w + lane/4 + 8((i/2)%2), column 8(i/4) +
// 2(lane%4) + i%2 (the PTX ISA's wgmma D fragment).
template <int N>
__device__ __forceinline__ void store_rows(__nv_bfloat16 *C, int ldc, int m0, int n0, const float *d, int M, int Nn) {
  int t = threadIdx.x % 128, w = t / 32, lane = t % 32;
  for (int i = 0; i < N / 2; i += 2) {
    int row = m0 + 16 * w + lane / 4 + 8 * ((i / 2) % 2), col = n0 + 8 * (i / 4) + 2 * (lane % 4);
    if (row < M && col + 1 < Nn)
      *reinterpret_cast<__nv_bfloat162 *>(&C[(size_t)row * ldc + col]) = __floats2bfloat162_rn(d[i], d[i + 1]);
  }
}

struct Ring {
  __nv_bfloat16 a[STAGES][BM * BK]; // 16 KiB a stage: 128 rows of 128 swizzled bytes
  __nv_bfloat16 b[STAGES][BN * BK];
  uint64_t full[STAGES], empty[STAGES];
};

// The ring, 1024-byte aligned (the 128B swizzle's atom) in dynamic shared memory.
__device__ __forceinline__ Ring &ring_of(uint8_t *smem) {
  uint32_t pad = (1024 - (smem_u32(smem) & 1023)) & 1023;
  return *reinterpret_cast<Ring *>(smem + pad);
}

// Consumer warpgroup `wg` (0 or 1) of a 128 x 128 tile: rows 64wg..64wg+63.
__device__ __forceinline__ void consume(Ring &r, int wg, int ktiles, float d[64], int cluster_rank, int in_cluster) {
  for (int kt = 0; kt < ktiles; kt++) {
    int s = kt % STAGES;
    mbar_wait(&r.full[s], (kt / STAGES) & 1);
    wgmma_fence();
    for (int kk = 0; kk < BK / 16; kk++)
      wgmma_m64n128k16(d, desc_sw128(&r.a[s][64 * wg * BK + 16 * kk]), desc_sw128(&r.b[s][16 * kk]), kt | kk);
    wgmma_commit();
    wgmma_wait<0>();
    if (threadIdx.x % 128 == 0) { // the warpgroup is done with stage s
      if (in_cluster) {
        mbar_arrive_rank(&r.empty[s], 0); // rank 0 refills B in both blocks
        if (cluster_rank) mbar_arrive(&r.empty[s]);
      } else {
        mbar_arrive(&r.empty[s]);
      }
    }
  }
}

// The producer thread: A's and B's tiles into stage s once its consumers
// (and, multicasting, the cluster's) have released it.
__device__ __forceinline__ void produce(Ring &r, const CUtensorMap *ta, const CUtensorMap *tb, int ktiles, int m0, int n0,
                                        int cluster_rank, int in_cluster) {
  for (int kt = 0; kt < ktiles; kt++) {
    int s = kt % STAGES;
    if (kt >= STAGES) mbar_wait(&r.empty[s], (kt / STAGES - 1) & 1);
    mbar_expect_tx(&r.full[s], (BM + BN) * BK * 2);
    tma_load(r.a[s], ta, &r.full[s], kt * BK, m0);
    if (!in_cluster) tma_load(r.b[s], tb, &r.full[s], kt * BK, n0);
    else if (cluster_rank == 0) tma_load_multicast(r.b[s], tb, &r.full[s], kt * BK, n0, 0x3);
  }
}

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

template <int IN_CLUSTER, int TMA_STORE>
__device__ __forceinline__ void gemm_body(const CUtensorMap *ta, const CUtensorMap *tb, const CUtensorMap *tc,
                                          __nv_bfloat16 *C, int M, int N, int K) {
  Ring &r = ring_of(dyn_smem);
  int wg = threadIdx.x / 128, m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, ktiles = K / BK;
  int rank = IN_CLUSTER ? (int)cluster_rank() : 0;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; s++) {
      mbar_init(&r.full[s], 1);
      mbar_init(&r.empty[s], IN_CLUSTER && rank == 0 ? 4 : 2); // rank 0 hears both blocks' consumers
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (IN_CLUSTER) cluster_sync(); // a peer's barriers exist before the first multicast
  else __syncthreads();
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (threadIdx.x == 0) produce(r, ta, tb, ktiles, m0, n0, rank, IN_CLUSTER);
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    float d[64];
    for (int i = 0; i < 64; i++) d[i] = 0.0f;
    consume(r, wg - 1, ktiles, d, rank, IN_CLUSTER);
    if (!TMA_STORE) {
      store_rows<128>(C, N, m0 + 64 * (wg - 1), n0, d, M, N);
    } else {
      // C's tile through shared memory (the ring's first A stage, free now:
      // every stage was consumed), then two TMA stores of 128 x 64
      __nv_bfloat16 *tile = r.a[0];
      int t = threadIdx.x % 128, w = t / 32, lane = t % 32;
      for (int i = 0; i < 64; i += 2) {
        int row = 64 * (wg - 1) + 16 * w + lane / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (lane % 4);
        __nv_bfloat16 *half = tile + (col / 64) * (BM * 64); // columns 0-63, then 64-127
        *reinterpret_cast<__nv_bfloat162 *>(&half[row * 64 + col % 64]) = __floats2bfloat162_rn(d[i], d[i + 1]);
      }
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // the stores, seen by TMA
      asm volatile("bar.sync 1, 256;" ::: "memory");              // the two consumer warpgroups
      if (threadIdx.x == 128) {
        tma_store(tc, tile, n0, m0);
        tma_store(tc, tile + BM * 64, n0 + 64, m0);
        asm volatile("cp.async.bulk.commit_group;\ncp.async.bulk.wait_group.read 0;" ::: "memory");
      }
    }
  }
  if (IN_CLUSTER) cluster_sync(); // no block leaves while its peer may still arrive on its barriers
}

extern "C" __global__ void __launch_bounds__(384, 1)
    gemm_ws(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, __nv_bfloat16 *C, int M,
            int N, int K) {
  gemm_body<0, 0>(&ta, &tb, nullptr, C, M, N, K);
}

extern "C" __global__ void __launch_bounds__(384, 1)
    gemm_mc(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, __nv_bfloat16 *C, int M,
            int N, int K) {
  gemm_body<1, 0>(&ta, &tb, nullptr, C, M, N, K);
}

extern "C" __global__ void __launch_bounds__(384, 1)
    gemm_tmastore(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb,
                  const __grid_constant__ CUtensorMap tc, int M, int N, int K) {
  gemm_body<0, 1>(&ta, &tb, &tc, nullptr, M, N, K);
}

// One warpgroup, two stages, m64n64 tiles: load stage kt+1 while multiplying stage kt.
extern "C" __global__ void __launch_bounds__(128)
    gemm_1wg(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, __nv_bfloat16 *C, int M,
             int N, int K) {
  uint32_t pad = (1024 - (smem_u32(dyn_smem) & 1023)) & 1023;
  __nv_bfloat16 *sa = reinterpret_cast<__nv_bfloat16 *>(dyn_smem + pad), *sb = sa + 2 * 64 * BK;
  uint64_t *full = reinterpret_cast<uint64_t *>(sb + 2 * 64 * BK);
  int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64, ktiles = K / BK;
  if (threadIdx.x == 0) {
    mbar_init(&full[0], 1);
    mbar_init(&full[1], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float d[32];
  for (int i = 0; i < 32; i++) d[i] = 0.0f;
  if (threadIdx.x == 0) {
    mbar_expect_tx(&full[0], 2 * 64 * BK * 2);
    tma_load(sa, &ta, &full[0], 0, m0);
    tma_load(sb, &tb, &full[0], 0, n0);
  }
  for (int kt = 0; kt < ktiles; kt++) {
    int s = kt % 2;
    if (threadIdx.x == 0 && kt + 1 < ktiles) { // the other stage was freed by the last iteration's wait
      mbar_expect_tx(&full[s ^ 1], 2 * 64 * BK * 2);
      tma_load(sa + (s ^ 1) * 64 * BK, &ta, &full[s ^ 1], (kt + 1) * BK, m0);
      tma_load(sb + (s ^ 1) * 64 * BK, &tb, &full[s ^ 1], (kt + 1) * BK, n0);
    }
    mbar_wait(&full[s], (kt / 2) & 1);
    wgmma_fence();
    for (int kk = 0; kk < BK / 16; kk++)
      wgmma_m64n64k16(d, desc_sw128(sa + s * 64 * BK + 16 * kk), desc_sw128(sb + s * 64 * BK + 16 * kk), kt | kk);
    wgmma_commit();
    wgmma_wait<0>();
    __syncthreads(); // stage s is free for the load of iteration kt + 2
  }
  store_rows<64>(C, N, m0, n0, d, M, N);
}
