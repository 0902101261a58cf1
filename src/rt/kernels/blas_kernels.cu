// blas_kernels.cu - the kernels of warpmem's stand-in for cuBLAS
// (src/rt/api_blas_gemm.c): each library call is one
// launch of one of these, named warpmem_<the call>[_<A type>_<C type>] so
// that a report says which call it stands in for.  Compiled once to PTX by
// tools/build_ptx.py (src/rt/kernels/ptx/blas_kernels.ptx, committed) and
// embedded in libcublas.so.13.  The GEMM itself: gemm.cuh.
#include "gemm.cuh"

GEMM_KERNEL(cublasSgemm, float, float, float)
GEMM_KERNEL(cublasSgemmStridedBatched, float, float, float)
GEMM_KERNEL(cublasSgemmBatched, float, float, float)
GEMM_KERNEL(cublasDgemm, double, double, double)
GEMM_KERNEL(cublasDgemmStridedBatched, double, double, double)
GEMM_KERNEL(cublasDgemmBatched, double, double, double)
GEMM_KERNEL(cublasHgemm, __half, __half, float)
GEMM_KERNEL(cublasHgemmStridedBatched, __half, __half, float)
GEMM_KERNEL(cublasHgemmBatched, __half, __half, float)
GEMM_FAMILY(cublasGemmEx)
GEMM_FAMILY(cublasGemmStridedBatchedEx)
GEMM_FAMILY(cublasGemmBatchedEx)

// GEMV: y = alpha op(A) x + beta y, one thread per element of y, in order
// of the columns (N) or rows (T) of A.
template <typename T>
__device__ static void gemv_body(int trans, int m, int n, T alpha, const T *a, int lda, const T *x, int incx, T beta,
                                 T *y, int incy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int ny = trans ? n : m, nx = trans ? m : n;
  if (i >= ny) return;
  T s = 0;
  long long x0 = incx < 0 ? (long long)(1 - nx) * incx : 0; // BLAS: negative increments start at the end
  for (int j = 0; j < nx; j++) {
    T av = trans ? a[j + (long long)i * lda] : a[i + (long long)j * lda];
    s = fma(av, x[x0 + (long long)j * incx], s);
  }
  long long y0 = incy < 0 ? (long long)(1 - ny) * incy : 0;
  T *yp = y + y0 + (long long)i * incy;
  *yp = beta != (T)0 ? fma(beta, *yp, alpha * s) : alpha * s;
}
extern "C" __global__ void warpmem_cublasSgemv(int trans, int m, int n, float alpha, const float *a, int lda,
                                               const float *x, int incx, float beta, float *y, int incy) {
  gemv_body<float>(trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
extern "C" __global__ void warpmem_cublasDgemv(int trans, int m, int n, double alpha, const double *a, int lda,
                                               const double *x, int incx, double beta, double *y, int incy) {
  gemv_body<double>(trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

// Level 1 (incx > 0; lib_blas.c returns n <= 0 and incx <= 0 cases itself).
extern "C" __global__ void warpmem_cublasSaxpy(int n, float alpha, const float *x, int incx, float *y, int incy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[(long long)i * incy] = fmaf(alpha, x[(long long)i * incx], y[(long long)i * incy]);
}
extern "C" __global__ void warpmem_cublasSscal(int n, float alpha, float *x, int incx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[(long long)i * incx] *= alpha;
}
extern "C" __global__ void warpmem_cublasScopy(int n, const float *x, int incx, float *y, int incy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[(long long)i * incy] = x[(long long)i * incx];
}

// Reductions: one block of 256 threads, each a strided partial sum in
// double, then a tree in shared memory; the result (float) to *out.
enum { RED_DOT = 0, RED_NRM2 = 1, RED_ASUM = 2 };
extern "C" __global__ void __launch_bounds__(256) warpmem_cublasSreduce(int op, int n, const float *x, int incx,
                                                                        const float *y, int incy, float *out) {
  __shared__ double part[256];
  double s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    double v = x[(long long)i * incx];
    s += op == RED_DOT ? v * (double)y[(long long)i * incy] : op == RED_NRM2 ? v * v : fabs(v);
  }
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = (float)(op == RED_NRM2 ? sqrt(part[0]) : part[0]);
}
// Isamax: the first (1-based) index of the largest |x|.
extern "C" __global__ void __launch_bounds__(256) warpmem_cublasIsamax(int n, const float *x, int incx, int *out) {
  __shared__ float best[256];
  __shared__ int at_[256];
  float b = -1.0f;
  int bi = 0x7fffffff;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = fabsf(x[(long long)i * incx]);
    if (v > b) b = v, bi = i;
  }
  best[threadIdx.x] = b, at_[threadIdx.x] = bi;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) {
      float o = best[threadIdx.x + w];
      int oi = at_[threadIdx.x + w];
      if (o > best[threadIdx.x] || (o == best[threadIdx.x] && oi < at_[threadIdx.x]))
        best[threadIdx.x] = o, at_[threadIdx.x] = oi;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = at_[0] == 0x7fffffff ? 0 : at_[0] + 1;
}
