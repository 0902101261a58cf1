/* cublasGemm - an application of cuBLAS as ML and HPC code calls it: GEMM
 * in every type (Sgemm, Dgemm, Hgemm, GemmEx f16/bf16/f32 with f32
 * compute), every transpose, leading dimensions larger than the rows,
 * alpha and beta from the host and from the device, beta == 0 over a C of
 * NaN, strided and pointer-array batches, GEMV, level 1 and bad arguments.
 * Each result is checked against a CPU reference in double within the
 * rounding error bound of a k-term dot product (Higham: |err| <= gamma_k
 * sum|a||b|, gamma_k = k u / (1 - k u), u the accumulation's unit
 * roundoff, plus the output's rounding), and against the values NVIDIA's
 * cuBLAS computed on an H200 (app_golden.h) within the sum of both
 * implementations' bounds.  The library's bound is wider where it computes
 * at a lower precision: Hgemm accumulates in f16 (u = 2^-11),
 * CUBLAS_COMPUTE_32F_FAST_TF32 rounds inputs to TF32 (2^-11), and f16/bf16
 * outputs are rounded twice (tools/gpu/libs_golden.sh's H200 run shows
 * each).  Built with -lcublas; runs on a GPU as under
 * warpmem run. */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "app_golden.h"
#include "app_util.h"

#define CHECK_BLAS(call)                                                                              \
  do {                                                                                                \
    cublasStatus_t st_ = (call);                                                                      \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cublasGetStatusString(st_)); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

static long wrong = 0, total = 0;
static unsigned seed = 12345;

template <typename T> static T from_d(double v) { return (T)v; }
template <> __half from_d<__half>(double v) { return __float2half_rn((float)v); }
template <> __nv_bfloat16 from_d<__nv_bfloat16>(double v) { return __float2bfloat16_rn((float)v); }
template <typename T> static double to_d(T v) { return (double)v; }
template <> double to_d<__half>(__half v) { return __half2float(v); }
template <> double to_d<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T> static double unit() { return 0x1p-24; }
template <> double unit<double>() { return 0x1p-53; }
template <> double unit<__half>() { return 0x1p-11; }
template <> double unit<__nv_bfloat16>() { return 0x1p-8; }

template <typename T> static std::vector<T> randv(size_t n) {
  std::vector<T> v(n);
  for (T &x : v) x = from_d<T>(app_randf(&seed) * 2.0 - 1.0);
  return v;
}
template <typename T> static T *todev(const std::vector<T> &v) {
  T *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 16));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T> static std::vector<T> tohost(const T *d, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

/* One checked output: got vs ref within the bound of the implementation
 * that computed it (warpmem's under warpmem run, which sets
 * WARPMEM_RUN_REPORT; else the library's), and vs the golden values
 * within both bounds added. */
static void check(const char *name, const std::vector<double> &got, const std::vector<double> &ref,
                  const std::vector<double> &ourtol, const std::vector<double> &libtol) {
  long bad = 0;
  const std::vector<double> &tol = std::getenv("WARPMEM_RUN_REPORT") ? ourtol : libtol;
  for (size_t i = 0; i < got.size(); i++) {
    bool ok = std::fabs(got[i] - ref[i]) <= tol[i];
    if (!ok && bad++ < 5)
      std::printf("%s[%zu] = %.9g, reference %.9g (|err| %.3g > bound %.3g)\n", name, i, got[i], ref[i],
                  std::fabs(got[i] - ref[i]), tol[i]);
  }
  std::vector<double> both(tol.size());
  for (size_t i = 0; i < tol.size(); i++) both[i] = ourtol[i] + libtol[i];
  bad += golden_case(name, got.data(), both.data(), (long)got.size());
  std::printf("%-34s %6zu values: %s\n", name, got.size(), bad ? "WRONG" : "ok");
  wrong += bad, total += (long)got.size();
}

static double gamma_k(int k, double u) { return k * u / (1 - k * u); }

/* One GEMM case of types TA -> TC with accumulation of unit uacc (ours),
 * ulib (the library's: f16 compute for Hgemm, tf32 inputs for FAST_TF32).
 * `call` runs the library on device arrays. batch > 1: strided (sA = lda*cols...). */
struct Shape { int ta, tb, m, n, k, lda, ldb, ldc, batch; double alpha, beta; };

template <typename TA, typename TC, typename Call>
static void gemm_case(const char *name, Shape s, double uacc, double ulib, Call call) {
  int ar = s.ta ? s.k : s.m, ac = s.ta ? s.m : s.k, br = s.tb ? s.n : s.k, bc = s.tb ? s.k : s.n;
  long long sA = (long long)s.lda * ac, sB = (long long)s.ldb * bc, sC = (long long)s.ldc * s.n;
  std::vector<TA> A = randv<TA>(sA * s.batch), B = randv<TA>(sB * s.batch);
  std::vector<TC> C = randv<TC>(sC * s.batch);
  if (s.beta == 0) for (TC &x : C) x = from_d<TC>(NAN); /* beta == 0 must not read C */
  TA *dA = todev(A), *dB = todev(B);
  TC *dC = todev(C);
  (void)ar, (void)br;
  call(s, dA, dB, dC, sA, sB, sC);
  std::vector<TC> out = tohost(dC, C.size());
  std::vector<double> got, ref, tol, libtol;
  double uout = unit<TC>();
  for (int z = 0; z < s.batch; z++)
    for (int j = 0; j < s.n; j++)
      for (int i = 0; i < s.m; i++) {
        double sum = 0, abs = 0;
        for (int l = 0; l < s.k; l++) {
          double a = to_d(s.ta ? A[z * sA + l + (long long)i * s.lda] : A[z * sA + i + (long long)l * s.lda]);
          double b = to_d(s.tb ? B[z * sB + j + (long long)l * s.ldb] : B[z * sB + l + (long long)j * s.ldb]);
          sum += a * b, abs += std::fabs(a * b);
        }
        double c = s.beta != 0 ? to_d(C[z * sC + i + (long long)j * s.ldc]) : 0;
        double r = s.alpha * sum + s.beta * c;
        double tail = std::fabs(s.alpha * sum) + std::fabs(s.beta * c);
        got.push_back(to_d(out[z * sC + i + (long long)j * s.ldc]));
        ref.push_back(r);
        tol.push_back(std::fabs(s.alpha) * gamma_k(s.k, uacc) * abs + 2 * uacc * tail + uout * std::fabs(r) + 1e-300);
        /* cuBLAS rounds to C's type twice where C is f16 or bf16 (seen on the
           H200: alpha AB, then with beta C added): u_out of both terms too */
        libtol.push_back(std::fabs(s.alpha) * gamma_k(s.k + 2, ulib) * abs + (2 * ulib + uout) * tail +
                         uout * std::fabs(r));
      }
  /* rows past m in a column (lda/ldc > m) are not written */
  for (int z = 0; z < s.batch; z++)
    for (int j = 0; j < s.n; j++)
      for (int i = s.m; i < s.ldc; i++) {
        size_t at = z * sC + i + (size_t)j * s.ldc;
        double was = to_d(C[at]), is = to_d(out[at]);
        if (!(was == is || (std::isnan(was) && std::isnan(is)))) wrong++, std::printf("%s: C padding written\n", name);
      }
  check(name, got, ref, tol, libtol);
  cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

static cublasOperation_t op(int t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; }

int main() {
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  int version = 0;
  CHECK_BLAS(cublasGetVersion(h, &version));
  std::printf("cuBLAS version %d\n", version);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_BLAS(cublasSetStream(h, stream));
  cudaStream_t back = nullptr;
  CHECK_BLAS(cublasGetStream(h, &back));
  if (back != stream) std::printf("cublasGetStream: not the stream set\n"), wrong++;
  CHECK_BLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  const double f32 = 0x1p-24, f64 = 0x1p-53, f16 = 0x1p-11, tf32 = 0x1p-11;

  /* Sgemm, every transpose, lda/ldb/ldc past the rows */
  const char *names[4] = {"Sgemm_NN", "Sgemm_TN", "Sgemm_NT", "Sgemm_TT"};
  for (int t = 0; t < 4; t++) {
    int ta = t & 1, tb = t >> 1;
    Shape s{ta, tb, 33, 20, 45, (ta ? 45 : 33) + 3, (tb ? 20 : 45) + 1, 35, 1, 1.25, -0.5};
    gemm_case<float, float>(names[t], s, f32, f32, [&](Shape s, float *A, float *B, float *C, long long, long long, long long) {
      float al = (float)s.alpha, be = (float)s.beta;
      CHECK_BLAS(cublasSgemm(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &al, A, s.lda, B, s.ldb, &be, C, s.ldc));
    });
  }
  /* beta == 0 over NaN, alpha and beta read from device memory */
  {
    Shape s{0, 1, 40, 17, 64, 40, 17, 41, 1, 0.75, 0.0};
    gemm_case<float, float>("Sgemm_beta0_devptr", s, f32, f32, [&](Shape s, float *A, float *B, float *C, long long, long long, long long) {
      float ab[2] = {(float)s.alpha, (float)s.beta}, *dab;
      CHECK_CUDA(cudaMalloc(&dab, sizeof ab));
      CHECK_CUDA(cudaMemcpy(dab, ab, sizeof ab, cudaMemcpyHostToDevice));
      CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
      CHECK_BLAS(cublasSgemm(h, op(s.ta), op(s.tb), s.m, s.n, s.k, dab, A, s.lda, B, s.ldb, dab + 1, C, s.ldc));
      CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
      CHECK_CUDA(cudaDeviceSynchronize());
      cudaFree(dab);
    });
  }
  {
    Shape s{1, 0, 21, 30, 50, 50, 52, 24, 1, -1.0, 2.0};
    gemm_case<double, double>("Dgemm_TN", s, f64, f64, [&](Shape s, double *A, double *B, double *C, long long, long long, long long) {
      CHECK_BLAS(cublasDgemm(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &s.alpha, A, s.lda, B, s.ldb, &s.beta, C, s.ldc));
    });
  }
  {
    Shape s{0, 0, 32, 24, 40, 32, 40, 32, 1, 1.0, 0.5};
    gemm_case<__half, __half>("Hgemm_NN", s, f32, f16, [&](Shape s, __half *A, __half *B, __half *C, long long, long long, long long) {
      __half al = __float2half((float)s.alpha), be = __float2half((float)s.beta);
      CHECK_BLAS(cublasHgemm(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &al, A, s.lda, B, s.ldb, &be, C, s.ldc));
    });
  }
  /* GemmEx: f16 and bf16 inputs, f32 compute, f16/bf16/f32 outputs; f32 with TF32 allowed */
  auto ex = [&](Shape s, const void *A, cudaDataType at, const void *B, void *C, cudaDataType ct, cublasComputeType_t cp) {
    float al = (float)s.alpha, be = (float)s.beta;
    CHECK_BLAS(cublasGemmEx(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &al, A, at, s.lda, B, at, s.ldb, &be, C, ct, s.ldc,
                            cp, CUBLAS_GEMM_DEFAULT));
  };
  {
    Shape s{1, 0, 24, 18, 64, 64, 64, 24, 1, 1.0, 1.0};
    gemm_case<__half, float>("GemmEx_f16_f32_TN", s, f32, f32, [&](Shape s, __half *A, __half *B, float *C, long long, long long, long long) {
      ex(s, A, CUDA_R_16F, B, C, CUDA_R_32F, CUBLAS_COMPUTE_32F);
    });
    gemm_case<__nv_bfloat16, __nv_bfloat16>("GemmEx_bf16_bf16_TN", s, f32, f32, [&](Shape s, __nv_bfloat16 *A, __nv_bfloat16 *B, __nv_bfloat16 *C, long long, long long, long long) {
      ex(s, A, CUDA_R_16BF, B, C, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
    });
    gemm_case<__nv_bfloat16, float>("GemmEx_bf16_f32_TN", s, f32, f32, [&](Shape s, __nv_bfloat16 *A, __nv_bfloat16 *B, float *C, long long, long long, long long) {
      ex(s, A, CUDA_R_16BF, B, C, CUDA_R_32F, CUBLAS_COMPUTE_32F);
    });
    gemm_case<__half, __half>("GemmEx_f16_f16_NT", Shape{0, 1, 24, 18, 64, 24, 18, 24, 1, 1.0, 0.0}, f32, f32,
                              [&](Shape s, __half *A, __half *B, __half *C, long long, long long, long long) {
      ex(s, A, CUDA_R_16F, B, C, CUDA_R_16F, CUBLAS_COMPUTE_32F);
    });
    gemm_case<float, float>("GemmEx_f32_tf32_NN", Shape{0, 0, 24, 18, 64, 24, 64, 24, 1, 1.0, 0.0}, f32, tf32,
                            [&](Shape s, float *A, float *B, float *C, long long, long long, long long) {
      ex(s, A, CUDA_R_32F, B, C, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
    });
  }
  /* batches: strided and through arrays of pointers */
  {
    Shape s{0, 0, 16, 12, 20, 17, 20, 16, 3, 1.0, 0.25};
    gemm_case<float, float>("SgemmStridedBatched", s, f32, f32, [&](Shape s, float *A, float *B, float *C, long long sA, long long sB, long long sC) {
      float al = (float)s.alpha, be = (float)s.beta;
      CHECK_BLAS(cublasSgemmStridedBatched(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &al, A, s.lda, sA, B, s.ldb, sB, &be,
                                           C, s.ldc, sC, s.batch));
    });
    Shape t{1, 1, 16, 12, 32, 32, 12, 16, 4, 0.5, 0.0};
    gemm_case<__nv_bfloat16, __nv_bfloat16>("GemmStridedBatchedEx_bf16_TT", t, f32, f32, [&](Shape s, __nv_bfloat16 *A, __nv_bfloat16 *B, __nv_bfloat16 *C, long long sA, long long sB, long long sC) {
      float al = (float)s.alpha, be = (float)s.beta;
      CHECK_BLAS(cublasGemmStridedBatchedEx(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &al, A, CUDA_R_16BF, s.lda, sA, B,
                                            CUDA_R_16BF, s.ldb, sB, &be, C, CUDA_R_16BF, s.ldc, sC, s.batch,
                                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    });
    gemm_case<float, float>("SgemmBatched", s, f32, f32, [&](Shape s, float *A, float *B, float *C, long long sA, long long sB, long long sC) {
      std::vector<const float *> pa, pb;
      std::vector<float *> pc;
      for (int z = 0; z < s.batch; z++) pa.push_back(A + z * sA), pb.push_back(B + z * sB), pc.push_back(C + z * sC);
      const float **dpa = todev(pa), **dpb = todev(pb);
      float **dpc = todev(pc);
      float al = (float)s.alpha, be = (float)s.beta;
      CHECK_BLAS(cublasSgemmBatched(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &al, dpa, s.lda, dpb, s.ldb, &be, dpc, s.ldc,
                                    s.batch));
      CHECK_CUDA(cudaDeviceSynchronize());
      cudaFree(dpa), cudaFree(dpb), cudaFree(dpc);
    });
    gemm_case<__half, float>("GemmBatchedEx_f16_f32", s, f32, f32, [&](Shape s, __half *A, __half *B, float *C, long long sA, long long sB, long long sC) {
      std::vector<const void *> pa, pb;
      std::vector<void *> pc;
      for (int z = 0; z < s.batch; z++) pa.push_back(A + z * sA), pb.push_back(B + z * sB), pc.push_back(C + z * sC);
      const void **dpa = todev(pa), **dpb = todev(pb);
      void **dpc = todev(pc);
      float al = (float)s.alpha, be = (float)s.beta;
      CHECK_BLAS(cublasGemmBatchedEx(h, op(s.ta), op(s.tb), s.m, s.n, s.k, &al, dpa, CUDA_R_16F, s.lda, dpb, CUDA_R_16F,
                                     s.ldb, &be, dpc, CUDA_R_32F, s.ldc, s.batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      CHECK_CUDA(cudaDeviceSynchronize());
      cudaFree(dpa), cudaFree(dpb), cudaFree(dpc);
    });
  }
  /* GEMV, N and T: a GEMM with n = 1 (x a column, y a column) */
  for (int t = 0; t < 2; t++) {
    Shape s{t, 0, t ? 37 : 29, 1, t ? 29 : 37, 40, 0, 0, 1, 1.5, -1.0};
    s.ldb = s.k, s.ldc = s.m;
    gemm_case<float, float>(t ? "Sgemv_T" : "Sgemv_N", s, f32, f32, [&](Shape s, float *A, float *x, float *y, long long, long long, long long) {
      float al = (float)s.alpha, be = (float)s.beta;
      int rows = s.ta ? s.k : s.m, cols = s.ta ? s.m : s.k;
      CHECK_BLAS(cublasSgemv(h, op(s.ta), rows, cols, &al, A, s.lda, x, 1, &be, y, 1));
    });
    gemm_case<double, double>(t ? "Dgemv_T" : "Dgemv_N", s, f64, f64, [&](Shape s, double *A, double *x, double *y, long long, long long, long long) {
      int rows = s.ta ? s.k : s.m, cols = s.ta ? s.m : s.k;
      CHECK_BLAS(cublasDgemv(h, op(s.ta), rows, cols, &s.alpha, A, s.lda, x, 1, &s.beta, y, 1));
    });
  }
  /* level 1 */
  {
    const int n = 1000;
    std::vector<float> x = randv<float>(n), y = randv<float>(n);
    x[617] = 3.5f; /* Isamax's answer: 618 */
    float *dx = todev(x), *dy = todev(y);
    float a = 0.75f, dot = 0, nrm = 0, asum = 0;
    int imax = 0;
    CHECK_BLAS(cublasSaxpy(h, n, &a, dx, 1, dy, 1));
    CHECK_BLAS(cublasSdot(h, n, dx, 1, dy, 1, &dot));
    CHECK_BLAS(cublasSnrm2(h, n, dx, 1, &nrm));
    CHECK_BLAS(cublasSasum(h, n, dx, 1, &asum));
    CHECK_BLAS(cublasIsamax(h, n, dx, 1, &imax));
    CHECK_BLAS(cublasSscal(h, n / 2, &a, dx, 2)); /* every other element */
    std::vector<float> ox = tohost(dx, n), oy = tohost(dy, n);
    std::vector<double> got, ref, tol, libtol;
    double rdot = 0, rn = 0, ra = 0, sabs = 0;
    for (int i = 0; i < n; i++) {
      double yi = (double)a * x[i] + y[i];
      got.push_back(oy[i]), ref.push_back(yi), tol.push_back(2 * f32 * std::fabs(yi) + 1e-300);
      rdot += x[i] * yi, sabs += std::fabs(x[i] * yi), rn += (double)x[i] * x[i], ra += std::fabs(x[i]);
    }
    for (int i = 0; i < n; i++) {
      double xi = i % 2 == 0 && i / 2 < n / 2 ? (double)a * x[i] : x[i];
      got.push_back(ox[i]), ref.push_back(xi), tol.push_back(f32 * std::fabs(xi) + 1e-300);
    }
    /* the dot of x with the updated y (oy as computed) */
    rdot = 0, sabs = 0;
    for (int i = 0; i < n; i++) rdot += (double)x[i] * oy[i], sabs += std::fabs((double)x[i] * oy[i]);
    got.push_back(dot), ref.push_back(rdot), tol.push_back(gamma_k(n, f32) * sabs);
    got.push_back(nrm), ref.push_back(std::sqrt(rn)), tol.push_back(gamma_k(n, f32) * std::sqrt(rn));
    got.push_back(asum), ref.push_back(ra), tol.push_back(gamma_k(n, f32) * ra);
    got.push_back(imax), ref.push_back(618), tol.push_back(0);
    check("level1", got, ref, tol, tol);
  }
  /* bad arguments: CUBLAS_STATUS_INVALID_VALUE, nothing launched */
  {
    float one = 1, *d;
    CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(float)));
    cublasStatus_t a = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &one, d, 4, d, 4, &one, d, 4);
    cublasStatus_t b = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 4, 4, &one, d, 4, d, 4, &one, d, 8); /* lda < m */
    cublasStatus_t c = cublasSgemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 4);
    cublasStatus_t e = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, CUDA_R_32F, 4, d, CUDA_R_32F, 4, &one,
                                    d, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cublasStatus_t z = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 4, 4, &one, d, 4, d, 4, &one, d, 4); /* nothing to do */
    total += 5;
    if (a != CUBLAS_STATUS_INVALID_VALUE || b != CUBLAS_STATUS_INVALID_VALUE || c != CUBLAS_STATUS_INVALID_VALUE ||
        e != CUBLAS_STATUS_SUCCESS || z != CUBLAS_STATUS_SUCCESS) {
      std::printf("bad arguments: statuses %d %d %d %d %d\n", a, b, c, e, z);
      wrong++;
    } else {
      std::printf("bad arguments: CUBLAS_STATUS_INVALID_VALUE as documented\n");
    }
    cudaFree(d);
  }
  CHECK_BLAS(cublasDestroy(h));
  CHECK_CUDA(cudaStreamDestroy(stream));
  return app_verdict("cublasGemm", wrong, total);
}
