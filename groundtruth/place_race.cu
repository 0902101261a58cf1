// place_race.cu - where race_kernels.cu's eight-blocks-an-SM launches put
// their blocks, in the very launch Nsight Compute measures, so that which
// SMs' reads the crossbar merges can be tested against the counters
// (issue 13: mmx#b1024 merges about half its L1 misses on the GPUs, the
// model's groups none; tools/accuracy/race_place.py tests the rules).
//
// A standalone program, as place_probe.cu: each kernel records every
// block's SM (%smid) and start and end (%globaltimer).  Under Nsight
// Compute with one pass of metrics, the placement written is the measured
// launch's:
//   nvcc -arch=sm_90 -O3 -o place_race groundtruth/place_race.cu
//   ncu --metrics ... ./place_race FILE
// Launches, in this order (race_kernels.cu's, N = 512, 1024 blocks of
// 16 x 16 threads, tile (block % 32, block / 32)):
//   mmx#b1024, mmx#a1024, mmx#ab1024   the guarded loop, B only, A only, both
//   mmu_u16#1024, mmu_u1#1024          unguarded, unrolled 16 times or not
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "place_rec.cuh"


extern "C" __global__ void mmx(const float *A, const float *B, float *C, int N, int gx, int part, Rec *rec) {
  unsigned long long t0 = now();
  int bx = blockIdx.x % gx, by = blockIdx.x / gx;
  int r = by * 16 + threadIdx.y, c = bx * 16 + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < N; k++) {
    float a = (part & 1) ? A[r * N + k] : 1.0f, b = (part & 2) ? B[k * N + c] : 1.0f;
    s += a * b;
  }
  C[r * N + c] = s;
  record(rec, t0);
}

#define PRAGMA(x) _Pragma(#x)
#define MMU(U)                                                                                    \
  extern "C" __global__ void mmu_u##U(const float *A, const float *B, float *C, int N, int gx, Rec *rec) { \
    unsigned long long t0 = now();                                                                \
    int bx = blockIdx.x % gx, by = blockIdx.x / gx;                                               \
    int r = by * 16 + threadIdx.y, c = bx * 16 + threadIdx.x;                                     \
    float s = 0.0f;                                                                               \
    PRAGMA(unroll U) for (int k = 0; k < N; k++) s += A[r * N + k] * B[k * N + c];                \
    C[r * N + c] = s;                                                                             \
    record(rec, t0);                                                                              \
  }
MMU(1)
MMU(16)


static void report(FILE *f, const char *name, Rec *d, int nb) {
  std::vector<Rec> r(nb);
  CK(cudaMemcpy(r.data(), d, nb * sizeof(Rec), cudaMemcpyDeviceToHost));
  unsigned long long lo = ~0ull;
  for (int b = 0; b < nb; b++) lo = r[b].t0 < lo ? r[b].t0 : lo;
  printf("%s: blocks %d\n", name, nb);
  if (!f) return;
  fprintf(f, "# %s\n", name);
  for (int b = 0; b < nb; b++) fprintf(f, "%d %u %llu %llu\n", b, r[b].sm, r[b].t0 - lo, r[b].t1 - lo);
}

int main(int argc, char **argv) {
  FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
  const int n = 512, nb = 1024;
  float *a, *b, *c;
  Rec *rec;
  CK(cudaMalloc(&a, n * n * 4));
  CK(cudaMalloc(&b, n * n * 4));
  CK(cudaMalloc(&c, n * n * 4));
  CK(cudaMalloc(&rec, nb * sizeof(Rec)));
  CK(cudaMemset(a, 0, n * n * 4));
  CK(cudaMemset(b, 0, n * n * 4));
  dim3 t(16, 16);
  const char *names[] = {"mmx#b1024", "mmx#a1024", "mmx#ab1024"};
  for (int part = 2, i = 0; i < 3; i++, part = part == 2 ? 1 : 3) {
    mmx<<<nb, t>>>(a, b, c, n, 32, part, rec);
    CK(cudaDeviceSynchronize());
    report(f, names[i], rec, nb);
  }
  mmu_u16<<<nb, t>>>(a, b, c, n, 32, rec);
  CK(cudaDeviceSynchronize());
  report(f, "mmu_u16#1024", rec, nb);
  mmu_u1<<<nb, t>>>(a, b, c, n, 32, rec);
  CK(cudaDeviceSynchronize());
  report(f, "mmu_u1#1024", rec, nb);
  if (f) fclose(f);
  return 0;
}
