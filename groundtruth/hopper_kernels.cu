// hopper_kernels.cu - issue 33's timing set on the H200: the Hopper GEMMs of
// tests/corpus/hopper_gemm.cu (included) at sizes that fill the GPU, and
// probes of the TMA's latency and bandwidth and of distributed shared
// memory's latency: the constants of the time model's Hopper rules, and
// launches the model predicts before they are measured.
//! nvcc: -arch=sm_90a
#include "../tests/corpus/hopper_gemm.cu"

//! group: hopper_time
//! title: Hopper GEMMs at full size, TMA and DSM probes
//! exp: gemm_sizes
//! title: the warp-specialised, multicast, TMA-store and one-warpgroup GEMMs at 2048 and 4096
//@ gemm_ws#2048 grid=16,16 block=384 smem=132096 args=tmap:bf16:2048x2048:box=64x128:swz=128,tmap:bf16:2048x2048:box=64x128:swz=128,buf:bf16:4194304:zero,i32:2048,i32:2048,i32:2048
//@ gemm_ws#4096 grid=32,32 block=384 smem=132096 args=tmap:bf16:4096x4096:box=64x128:swz=128,tmap:bf16:4096x4096:box=64x128:swz=128,buf:bf16:16777216:zero,i32:4096,i32:4096,i32:4096
//@ gemm_mc#2048 grid=16,16 block=384 cluster=1,2,1 smem=132096 args=tmap:bf16:2048x2048:box=64x128:swz=128,tmap:bf16:2048x2048:box=64x128:swz=128,buf:bf16:4194304:zero,i32:2048,i32:2048,i32:2048
//@ gemm_mc#4096 grid=32,32 block=384 cluster=1,2,1 smem=132096 args=tmap:bf16:4096x4096:box=64x128:swz=128,tmap:bf16:4096x4096:box=64x128:swz=128,buf:bf16:16777216:zero,i32:4096,i32:4096,i32:4096
//@ gemm_tmastore#2048 grid=16,16 block=384 smem=132096 args=tmap:bf16:2048x2048:box=64x128:swz=128,tmap:bf16:2048x2048:box=64x128:swz=128,tmap:bf16:2048x2048:box=64x128:zero,i32:2048,i32:2048,i32:2048
//@ gemm_1wg#2048 grid=32,32 block=128 smem=33792 args=tmap:bf16:2048x2048:box=64x64:swz=128,tmap:bf16:2048x2048:box=64x64:swz=128,buf:bf16:4194304:zero,i32:2048,i32:2048,i32:2048
//! exp: tma_chain
//! title: one thread's chain of TMA loads, each waited for before the next: a round trip each
//@ tma_chain#l2 grid=1 block=32 args=tmap:f32:1024x1024:box=32x8,buf:f32:32:zero,i32:256,i32:0
//@ tma_chain#dram grid=1 block=32 args=tmap:f32:1024x1024:box=32x8,buf:f32:32:zero,i32:256,i32:4
//! exp: tma_stream
//! title: 264 blocks streaming 32 KiB boxes of a 128 MiB tensor through 4-stage rings (TMA bandwidth)
//@ tma_stream grid=264 block=128 smem=132096 args=tmap:bf16:8192x8192:box=64x256:swz=128,buf:f32:264:zero,i32:8192,i32:8192
//! exp: dsm_chain
//! title: a dependent chain of loads from the peer block's shared memory (and from its own)
//@ dsm_chain#peer grid=2 block=32 cluster=2 args=buf:u32:2:zero,i32:1024,i32:1
//@ dsm_chain#own grid=2 block=32 cluster=2 args=buf:u32:2:zero,i32:1024,i32:0

// One thread loads a box, waits for it, and loads the next from where the
// box's first element points (a chain: each waits a whole round trip).
// step 0 reloads the same box (L2 hits); step s > 0 walks s boxes down and
// right each time over a 4 MiB tensor (fresh lines from DRAM).
extern "C" __global__ void tma_chain(const __grid_constant__ CUtensorMap t, float *out, int n, int step) {
  __shared__ alignas(128) float box[8 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0) return;
  mbar_init(&bar, 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  int x = 0, y = 0;
  float acc = 0;
  for (int i = 0; i < n; i++) {
    mbar_expect_tx(&bar, sizeof box);
    tma_load(box, &t, &bar, x, y);
    mbar_wait(&bar, i & 1);
    acc += box[0];
    int hop = step;
    x = (x + 32 * hop) % 1024;
    y = (y + 8 * hop + (x == 0 ? 8 : 0)) % 1024;
  }
  out[0] = acc;
}

// Each block streams boxes of 256 rows x 64 bf16 (32 KiB) through a ring
// of 4 stages: thread 0 loads, warps 1-3 touch one word of each and
// release it.  out[block] = the sum of those words.
extern "C" __global__ void __launch_bounds__(128) tma_stream(const __grid_constant__ CUtensorMap t, float *out, int cols, int rows) {
  uint32_t pad = (1024 - (smem_u32(dyn_smem) & 1023)) & 1023;
  __nv_bfloat16 *stage = reinterpret_cast<__nv_bfloat16 *>(dyn_smem + pad);
  uint64_t *full = reinterpret_cast<uint64_t *>(stage + 4 * 256 * 64), *empty = full + 4;
  int boxes = (cols / 64) * (rows / 256), per = (boxes + gridDim.x - 1) / gridDim.x;
  int first = blockIdx.x * per, last = min(boxes, first + per);
  if (threadIdx.x == 0) {
    for (int s = 0; s < 4; s++) mbar_init(&full[s], 1), mbar_init(&empty[s], 3);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float acc = 0;
  for (int b = first, i = 0; b < last; b++, i++) {
    int s = i % 4;
    if (threadIdx.x == 0) {
      if (i >= 4) mbar_wait(&empty[s], (i / 4 - 1) & 1);
      mbar_expect_tx(&full[s], 256 * 64 * 2);
      tma_load(stage + s * 256 * 64, &t, &full[s], (b % (cols / 64)) * 64, (b / (cols / 64)) * 256);
    } else if (threadIdx.x >= 32) {
      mbar_wait(&full[s], (i / 4) & 1);
      if (threadIdx.x % 32 == 0) {
        acc += __bfloat162float(stage[s * 256 * 64 + threadIdx.x]);
        mbar_arrive(&empty[s]);
      }
    }
  }
  if (threadIdx.x >= 32 && threadIdx.x % 32 == 0) atomicAdd(&out[blockIdx.x], acc);
}

// Rank 0's thread follows a chain of n indices through 1 KiB of shared
// memory: the peer's (peer 1) over distributed shared memory, or its own.
extern "C" __global__ void __cluster_dims__(2, 1, 1) dsm_chain(uint32_t *out, int n, int peer) {
  __shared__ uint32_t next[256];
  for (int i = threadIdx.x; i < 256; i += 32) next[i] = (i * 97 + 13) % 256;
  cluster_sync();
  if (cluster_rank() == 0 && threadIdx.x == 0) {
    uint32_t base = smem_u32(next), at = 0;
    if (peer) asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(base) : "r"(base));
    for (int i = 0; i < n; i++)
      asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(at) : "r"(base + 4 * at) : "memory");
    out[0] = at;
  }
  cluster_sync();
}
