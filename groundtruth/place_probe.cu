// place_probe.cu - where the block scheduler puts a launch's blocks, and
// whether blocks on one SM or on several merge their reads of a sector
// before the L2 counts them (issue 13: the tiled kernels' L2 reads).
//
// A standalone program (not a warpmem launch file): every kernel records,
// for each block, the SM it ran on (%smid) and when it started and ended
// (%globaltimer).  Run it natively for the placement table, and under Nsight
// Compute for the counters:
//   nvcc -arch=sm_90 -o place groundtruth/place_probe.cu && ./place
//   ncu --metrics lts__t_sectors_srcunit_tex_op_read.sum,... ./place
// Launches (in this order, each printed with its name):
//   share#K      K one-warp blocks reading the same 64 KB (share_kernels.cu)
//   share_pin#K  the same with 120 KB of dynamic shared memory a block,
//                so no SM holds two of them
//   mm_s         the seed's shared-tile multiply (N = 512, 16 x 16 tiles,
//                1024 blocks of 256 threads)
//   mm_s_pin     the same with 120 KB of dynamic shared memory a block
//   mm_g         the seed's naive multiply (N = 512)
//   mm_s_large   mm_s at N = 1024 (4096 blocks, about four waves)
//   gemm_pb#256  PolyBench-style gemm, in place (256 blocks of 32 x 8)
//   gemm_pb#512  the same at n = 512 (1024 blocks: mm2_tmp's shape)
// With an argument, every block's SM and times go to that file.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "place_rec.cuh"


extern "C" __global__ void share_read(const float *a, float *out, Rec *rec) {
  unsigned long long t0 = now();
  float s = 0.0f;
  for (int i = 0; i < 16384; i += 32) s += a[i + threadIdx.x];
  out[blockIdx.x] = s;
  record(rec, t0);
}

#define T 16
extern "C" __global__ void mm_s(const float *A, const float *B, float *C, int n, Rec *rec) {
  unsigned long long t0 = now();
  __shared__ float as[T][T], bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float s = 0.0f;
  for (int k = 0; k < n; k += T) {
    as[ty][tx] = A[row * n + k + tx];
    bs[ty][tx] = B[(k + ty) * n + col];
    __syncthreads();
    for (int j = 0; j < T; j++) s += as[ty][j] * bs[j][tx];
    __syncthreads();
  }
  C[row * n + col] = s;
  __syncthreads();
  record(rec, t0);
}

extern "C" __global__ void mm_g(const float *A, const float *B, float *C, int n, Rec *rec) {
  unsigned long long t0 = now();
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < n; k++) s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s;
  __syncthreads();
  record(rec, t0);
}

/* PolyBench-style gemm (polybench_kernels.cu): C updated in place, B's
 * column strip read a row an iteration; and public_kernels.cu's mm2_tmp,
 * the same at n = 512 into tmp. */
extern "C" __global__ void gemm_pb(const float *A, const float *B, float *C, int n, Rec *rec) {
  unsigned long long t0 = now();
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    C[i * n + j] *= 0.5f;
    for (int k = 0; k < n; k++) C[i * n + j] += 1.5f * A[i * n + k] * B[k * n + j];
  }
  __syncthreads();
  record(rec, t0);
}


/* One line a launch: the SMs used, blocks per SM (most), how many
 * consecutive block pairs share an SM, the spread of start times, and the
 * first blocks' SMs. */
static FILE *dump; /* place-blocks.txt */

static void report(const char *name, Rec *d, int nb) {
  std::vector<Rec> r(nb);
  CK(cudaMemcpy(r.data(), d, nb * sizeof(Rec), cudaMemcpyDeviceToHost));
  std::vector<int> per(1024, 0);
  int used = 0, most = 0, pairs = 0;
  unsigned long long lo = ~0ull, hi = 0, end = 0;
  for (int b = 0; b < nb; b++) {
    if (!per[r[b].sm]++) used++;
    most = std::max(most, per[r[b].sm]);
    if (b && r[b].sm == r[b - 1].sm) pairs++;
    lo = std::min(lo, r[b].t0), hi = std::max(hi, r[b].t0), end = std::max(end, r[b].t1);
  }
  printf("%-12s blocks %5d  SMs %3d  most/SM %2d  consecutive-same-SM %4d  start spread %6llu ns  span %7llu ns\n",
         name, nb, used, most, pairs, hi - lo, end - lo);
  printf("  sm of block 0..:");
  for (int b = 0; b < nb && b < 48; b++) printf(" %u", r[b].sm);
  printf("\n  start (ns after first) of block 0..:");
  for (int b = 0; b < nb && b < 24; b++) printf(" %llu", r[b].t0 - lo);
  printf("\n");
  if (dump) { /* every block: launch index, SM, start and end (ns after the first start) */
    fprintf(dump, "# %s\n", name);
    for (int b = 0; b < nb; b++) fprintf(dump, "%d %u %llu %llu\n", b, r[b].sm, r[b].t0 - lo, r[b].t1 - lo);
  }
}

int main(int argc, char **argv) {
  if (argc > 1) dump = fopen(argv[1], "w");
  int n = 1024; /* buffers for the largest launch */
  float *a, *b, *c, *out;
  Rec *rec;
  CK(cudaMalloc(&a, n * n * 4));
  CK(cudaMalloc(&b, n * n * 4));
  CK(cudaMalloc(&c, n * n * 4));
  CK(cudaMalloc(&out, 4096 * 4));
  CK(cudaMalloc(&rec, 4096 * sizeof(Rec)));
  CK(cudaMemset(c, 0, n * n * 4));
  CK(cudaMemset(a, 0, n * n * 4));
  CK(cudaMemset(b, 0, n * n * 4));
  int pin = 120 * 1024;
  CK(cudaFuncSetAttribute(share_read, cudaFuncAttributeMaxDynamicSharedMemorySize, pin));
  CK(cudaFuncSetAttribute(mm_s, cudaFuncAttributeMaxDynamicSharedMemorySize, pin));
  int ks[] = {2, 3, 4, 8, 16, 32, 64, 128, 132};
  char name[64];
  for (int pinned = 0; pinned < 2; pinned++)
    for (int k : ks) {
      share_read<<<k, 32, pinned ? pin : 0>>>(a, out, rec);
      CK(cudaDeviceSynchronize());
      snprintf(name, sizeof name, "%s#%d", pinned ? "share_pin" : "share", k);
      report(name, rec, k);
    }
  n = 512;
  dim3 g(n / T, n / T), t(T, T);
  mm_s<<<g, t>>>(a, b, c, n, rec);
  CK(cudaDeviceSynchronize());
  report("mm_s", rec, g.x * g.y);
  mm_s<<<g, t, pin>>>(a, b, c, n, rec);
  CK(cudaDeviceSynchronize());
  report("mm_s_pin", rec, g.x * g.y);
  mm_g<<<g, t>>>(a, b, c, n, rec);
  CK(cudaDeviceSynchronize());
  report("mm_g", rec, g.x * g.y);
  n = 1024; /* the large seed launch: 4096 blocks, about 4 waves */
  dim3 gl(n / T, n / T);
  mm_s<<<gl, t>>>(a, b, c, n, rec);
  CK(cudaDeviceSynchronize());
  report("mm_s_large", rec, gl.x * gl.y);
  dim3 gt(32, 8); /* gemm#256 (polybench_kernels.cu) and mm2_tmp#512's shape (public_kernels.cu) */
  n = 256;
  dim3 gg(n / 32, n / 8);
  gemm_pb<<<gg, gt>>>(a, b, c, n, rec);
  CK(cudaDeviceSynchronize());
  report("gemm_pb#256", rec, gg.x * gg.y);
  n = 512;
  dim3 gm(n / 32, n / 8);
  gemm_pb<<<gm, gt>>>(a, b, c, n, rec);
  CK(cudaDeviceSynchronize());
  report("gemm_pb#512", rec, gm.x * gm.y);
  return 0;
}
