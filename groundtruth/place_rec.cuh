// place_rec.cuh - what place_probe.cu and place_race.cu record of each
// block: the SM it ran on (%smid) and when it started and ended
// (%globaltimer, ns); and CK, their check of a CUDA runtime call.
#ifndef PLACE_REC_CUH
#define PLACE_REC_CUH
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Rec {
  unsigned sm, pad;
  unsigned long long t0, t1;
};

__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Thread (0, 0) of a block writes its Rec, indexed by block (x + y * gx). */
__device__ void record(Rec *rec, unsigned long long t0) {
  unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    Rec r = {sm_id(), 0, t0, now()};
    rec[b] = r;
  }
}

#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e = (x);                                                                       \
    if (e != cudaSuccess) {                                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));               \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)
#endif
