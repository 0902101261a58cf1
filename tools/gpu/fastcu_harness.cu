// fastcu_harness.cu - runs the twelve bf16 GEMM kernels of the public
// fast.cu series (github.com/pranjalssh/fast.cu, examples/matmul/
// matmul_N.cuh, unmodified) at a size of our choice, checks each against a
// CPU reference and times it.  Only this harness is ours: it stands for the
// series' matmul.cu, which checks against cuBLAS at 8192 (warpmem does not
// run cuBLAS, issue 35), and includes the kernels' headers as that file
// does.  Build from the series' checkout, as its Makefile builds, plus
// -cudart shared (tools/gpu/clock_runs.sh):
//   nvcc -std=c++17 -O3 -DNDEBUG -w --expt-relaxed-constexpr --expt-extended-lambda --use_fast_math
//     -Xcompiler=-fPIE -Xcompiler=-Wno-psabi -Xcompiler=-fno-strict-aliasing
//     -arch=compute_90a -code=sm_90a,compute_90a -cudart shared -lineinfo
//     -I FASTCU -o harness fastcu_harness.cu -lcuda
// Usage: harness SIZE REPEATS KERNEL...  (REPEATS 0: check only).
// The check: the rows i % 61 == 0 and columns j % 61 == 0 of C against a
// double-precision product, within 0.1 (the series' own bound) plus one
// bf16 unit in the last place (the two round the same sum differently when
// their orders of accumulation differ).  Kernel 1 (SIMT) takes row-major
// A (MxK), B (KxN) and C; the others A and B with K contiguous and C
// column-major (the series' cuBLAS call).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

void cudaCheck(cudaError_t error, const char *file, int line) {
  if (error != cudaSuccess) {
    printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
    exit(1);
  }
}
#define cudaCheck(err) (cudaCheck(err, __FILE__, __LINE__))

#include "examples/matmul/matmul_1.cuh"
#include "examples/matmul/matmul_2.cuh"
#include "examples/matmul/matmul_3.cuh"
#include "examples/matmul/matmul_4.cuh"
#include "examples/matmul/matmul_5.cuh"
#include "examples/matmul/matmul_6.cuh"
#include "examples/matmul/matmul_7.cuh"
#include "examples/matmul/matmul_8.cuh"
#include "examples/matmul/matmul_9.cuh"
#include "examples/matmul/matmul_10.cuh"
#include "examples/matmul/matmul_11.cuh"
#include "examples/matmul/matmul_12.cuh"

static void run_kernel(int kernel, int M, int N, int K, bf16 *A, bf16 *B, bf16 *C, int *DB) {
  switch (kernel) {
  case 1: runKernel1(M, N, K, A, B, C); break;
  case 2: runKernel2(M, N, K, A, B, C); break;
  case 3: runKernel3(M, N, K, A, B, C, DB); break;
  case 4: runKernel4(M, N, K, A, B, C, DB); break;
  case 5: runKernel5(M, N, K, A, B, C, DB); break;
  case 6: runKernel6(M, N, K, A, B, C, DB); break;
  case 7: runKernel7(M, N, K, A, B, C, DB); break;
  case 8: runKernel8(M, N, K, A, B, C, DB); break;
  case 9: runKernel9(M, N, K, A, B, C, DB); break;
  case 10: runKernel10(M, N, K, A, B, C, DB); break;
  case 11: runKernel11(M, N, K, A, B, C, DB); break;
  case 12: runKernel12(M, N, K, A, B, C, DB); break;
  default: printf("no kernel %d (1-12)\n", kernel); exit(2);
  }
}

// C's element (i, j) by the CPU, in the kernel's layout.
static double reference(int kernel, long n, const std::vector<float> &a, const std::vector<float> &b, long i, long j) {
  double s = 0;
  for (long k = 0; k < n; k++) s += (double)a[i * n + k] * (kernel == 1 ? b[k * n + j] : b[j * n + k]);
  return s;
}

static float out_at(int kernel, long n, const std::vector<bf16> &c, long i, long j) {
  return __bfloat162float(kernel == 1 ? c[i * n + j] : c[j * n + i]);
}

// The sampled rows and columns; the number of elements beyond the bound.
static long check(int kernel, long n, const std::vector<float> &a, const std::vector<float> &b, const std::vector<bf16> &c) {
  long bad = 0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      if (i % 61 && j % 61) continue;
      double want = reference(kernel, n, a, b, i, j), got = out_at(kernel, n, c, i, j);
      double ulp = std::ldexp(1.0, std::ilogb(std::fabs(want) > 1e-30 ? want : 1e-30) - 7);
      if (std::fabs(want - got) > 0.1 + ulp && bad++ < 5)
        printf("  kernel %d: C(%ld, %ld) = %.4f, expected %.4f\n", kernel, i, j, got, want);
    }
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    printf("usage: %s SIZE REPEATS KERNEL...\n", argv[0]);
    return 2;
  }
  long n = atol(argv[1]);
  int repeats = atoi(argv[2]);
  if (n < 128 || n % 128) {
    printf("SIZE must be a multiple of 128\n");
    return 2;
  }
  std::default_random_engine gen(69);
  std::normal_distribution<float> normal(0, 1);
  std::vector<bf16> A(n * n), B(n * n), C(n * n);
  std::vector<float> a(n * n), b(n * n);
  for (long i = 0; i < n * n; i++) A[i] = normal(gen), a[i] = __bfloat162float(A[i]);
  for (long i = 0; i < n * n; i++) B[i] = normal(gen), b[i] = __bfloat162float(B[i]);
  bf16 *dA, *dB, *dC;
  int *dDB;
  size_t bytes = sizeof(bf16) * n * n;
  cudaCheck(cudaMalloc(&dA, bytes));
  cudaCheck(cudaMalloc(&dB, bytes));
  cudaCheck(cudaMalloc(&dC, bytes));
  cudaCheck(cudaMalloc(&dDB, sizeof(int) * n * 128));
  cudaCheck(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  cudaCheck(cudaEventCreate(&start));
  cudaCheck(cudaEventCreate(&stop));
  int failed = 0;
  for (int arg = 3; arg < argc; arg++) {
    int kernel = atoi(argv[arg]);
    cudaCheck(cudaMemset(dC, 0, bytes));
    cudaCheck(cudaMemset(dDB, 0xff, sizeof(int) * n * 128));
    run_kernel(kernel, (int)n, (int)n, (int)n, dA, dB, dC, dDB);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());
    cudaCheck(cudaMemcpy(C.data(), dC, bytes, cudaMemcpyDeviceToHost));
    long bad = check(kernel, n, a, b, C);
    printf("kernel %d: %s (%ld sampled elements off)", kernel, bad ? "FAILED" : "passed", bad);
    failed |= bad != 0;
    if (repeats > 0) {
      float ms = 0;
      cudaCheck(cudaEventRecord(start));
      for (int r = 0; r < repeats; r++) run_kernel(kernel, (int)n, (int)n, (int)n, dA, dB, dC, dDB);
      cudaCheck(cudaEventRecord(stop));
      cudaCheck(cudaEventSynchronize(stop));
      cudaCheck(cudaEventElapsedTime(&ms, start, stop));
      double us = 1000.0 * ms / repeats;
      printf(", %.2f us a launch, %.1f TFLOP/s", us, 2.0 * n * n * n / us * 1e-6);
    }
    printf("\n");
  }
  return failed;
}
