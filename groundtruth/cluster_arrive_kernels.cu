// cluster_arrive_kernels.cu - issue 33: what an mbarrier arrival costs the
// arriving warp by its scope.  The multicast GEMM's consumers release each
// stage with mbarrier.arrive.release.cluster on the peer block's barrier,
// and stall on `membar` (docs/results/h200-2026-12-02-clock,
// ncu-gemm-stalls.csv).  One thread arrives n times back to back (each
// arrival completes a phase of a count-1 barrier; nobody waits): at the
// block's own barrier at CTA scope, at it at cluster scope, at the peer's.
// The model's predictions are committed before the GPU runs these.
//! nvcc: -arch=sm_90a
#include "../tests/corpus/hopper_gemm.cu"

//! group: cluster_arrive
//! title: mbarrier arrivals by scope, one thread of a 2-block cluster
//! exp: arrive_scope
//! title: 1024 arrivals back to back: CTA scope, cluster scope on the own barrier, on the peer's
//@ arrive_chain#cta grid=2 block=32 cluster=2 args=buf:u32:2:zero,i32:1024,i32:0
//@ arrive_chain#cluster grid=2 block=32 cluster=2 args=buf:u32:2:zero,i32:1024,i32:1
//@ arrive_chain#peer grid=2 block=32 cluster=2 args=buf:u32:2:zero,i32:1024,i32:2

extern "C" __global__ void __cluster_dims__(2, 1, 1) arrive_chain(uint32_t *out, int n, int mode) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_sync();
  if (cluster_rank() == 0 && threadIdx.x == 0) {
    uint32_t own = smem_u32(&bar), peer;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(peer) : "r"(own));
    for (int i = 0; i < n; i++) {
      if (mode == 0)
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(own) : "memory");
      else if (mode == 1)
        asm volatile("mbarrier.arrive.release.cluster.shared::cta.b64 _, [%0];" ::"r"(own) : "memory");
      else
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(peer) : "memory");
    }
    out[0] = (uint32_t)n;
  }
  cluster_sync();
}
