/* cublasLt - cuBLASLt as llm.c's matmul_cublaslt calls it: a matmul
 * descriptor (compute 32F, scale 32F), TRANSA/TRANSB, matrix layouts
 * (bf16 or f32, batch count and strided batch offset), a preference with a
 * workspace, one algorithm from cublasLtMatmulAlgoGetHeuristic, and the
 * epilogues DEFAULT, BIAS, RELU_BIAS, GELU_AUX_BIAS (the pre-GELU values
 * kept in the aux buffer), DGELU (the backward pass through them) and
 * BGRADB (the bias gradient).  Checked against a CPU reference in double
 * within the k-term dot product's rounding bound carried through the
 * epilogue, and against NVIDIA's cuBLASLt on an H200 (app_golden.h). */
#include <cublasLt.h>
#include <cuda_bf16.h>

#include <cmath>
#include <vector>

#include "app_golden.h"
#include "app_util.h"

#define CHECK_LT(call)                                                                                \
  do {                                                                                                \
    cublasStatus_t st_ = (call);                                                                      \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                               \
      std::fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call, (int)st_);     \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

typedef __nv_bfloat16 bf16;
static long wrong = 0, total = 0;
static unsigned seed = 777;
static cublasLtHandle_t lt;
static void *workspace;
static const size_t WS = 1 << 22;

static double gelu(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }
static double gelu_grad(double x) {
  double t = std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.7978845608028654 * (1 + 3 * 0.044715 * x * x);
}

template <typename T> static T mk(double v);
template <> float mk<float>(double v) { return (float)v; }
template <> bf16 mk<bf16>(double v) { return __float2bfloat16_rn((float)v); }
static double dd(float v) { return v; }
static double dd(bf16 v) { return __bfloat162float(v); }

template <typename T> static T *dev(std::vector<T> &v, double lo, double hi) {
  for (T &x : v) x = mk<T>(lo + (hi - lo) * app_randf(&seed));
  T *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 16));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T> static std::vector<double> back(const T *d, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<double> r(n);
  for (size_t i = 0; i < n; i++) r[i] = dd(v[i]);
  return r;
}

/* tol: warpmem's bound (one rounding to D's type); the library's rounds
 * f16/bf16 outputs twice (seen on the H200: alpha AB + bias, then with
 * beta C or the epilogue), so natively, and against the golden values, the
 * bound is libtol. */
static void check(const char *name, const std::vector<double> &got, const std::vector<double> &ref,
                  const std::vector<double> &ourtol, const std::vector<double> &libtol) {
  long bad = 0;
  const std::vector<double> &tol = std::getenv("WARPMEM_RUN_REPORT") ? ourtol : libtol;
  for (size_t i = 0; i < got.size(); i++)
    if (!(std::fabs(got[i] - ref[i]) <= tol[i]) && bad++ < 5)
      std::printf("%s[%zu] = %.9g, reference %.9g (bound %.3g)\n", name, i, got[i], ref[i], tol[i]);
  std::vector<double> both(tol);
  for (size_t i = 0; i < both.size(); i++) both[i] = ourtol[i] + libtol[i]; /* each within its bound */
  bad += golden_case(name, got.data(), both.data(), (long)got.size());
  std::printf("%-28s %6zu values: %s\n", name, got.size(), bad ? "WRONG" : "ok");
  wrong += bad, total += (long)got.size();
}

/* D (m x n, ld m) = epi(op(A) op(B) + beta C + bias), as llm.c lays it out:
 * A is k x m (transA) or m x k, B k x n (or n x k with transB). */
template <typename T>
static void lt_case(const char *name, int transA, int transB, int m, int n, int k, int batch, float beta,
                    cublasLtEpilogue_t epi, cudaDataType dt) {
  const double u = 0x1p-24, uout = sizeof(T) == 2 ? 0x1p-8 : 0x1p-24;
  bool has_bias = epi == CUBLASLT_EPILOGUE_BIAS || epi == CUBLASLT_EPILOGUE_RELU_BIAS ||
                  epi == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  bool aux_out = epi == CUBLASLT_EPILOGUE_GELU_AUX_BIAS, aux_in = epi == CUBLASLT_EPILOGUE_DGELU;
  bool bgrad = epi == CUBLASLT_EPILOGUE_BGRADB;
  long long sA = (long long)m * k, sB = (long long)k * n, sD = (long long)m * n;
  std::vector<T> A(sA * batch), B(sB * batch), D(sD * batch), bias(bgrad ? n : m), aux(sD);
  T *dA = dev(A, -1, 1), *dB = dev(B, -1, 1), *dD = dev(D, -1, 1), *dbias = dev(bias, -0.5, 0.5);
  T *daux = dev(aux, -2, 2);
  cublasLtMatmulDesc_t desc;
  CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, transA ? &opT : &opN, sizeof opT));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, transB ? &opT : &opN, sizeof opT));
  cublasLtMatrixLayout_t la, lb, lc, ld;
  CHECK_LT(transA ? cublasLtMatrixLayoutCreate(&la, dt, k, m, k) : cublasLtMatrixLayoutCreate(&la, dt, m, k, m));
  CHECK_LT(transB ? cublasLtMatrixLayoutCreate(&lb, dt, n, k, n) : cublasLtMatrixLayoutCreate(&lb, dt, k, n, k));
  CHECK_LT(cublasLtMatrixLayoutCreate(&lc, dt, m, n, m));
  CHECK_LT(cublasLtMatrixLayoutCreate(&ld, dt, m, n, m));
  if (batch > 1) {
    long long strides[4] = {sA, sB, sD, sD};
    cublasLtMatrixLayout_t ls[4] = {la, lb, lc, ld};
    for (int i = 0; i < 4; i++) {
      CHECK_LT(cublasLtMatrixLayoutSetAttribute(ls[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof batch));
      CHECK_LT(cublasLtMatrixLayoutSetAttribute(ls[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &strides[i],
                                                sizeof strides[i]));
    }
  }
  cublasLtMatmulPreference_t pref;
  CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
  CHECK_LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &WS, sizeof WS));
  if (aux_out || aux_in) {
    int64_t ldaux = m;
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ldaux, sizeof ldaux));
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &daux, sizeof daux));
  }
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
  if (has_bias || bgrad) {
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &dt, sizeof dt));
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias, sizeof dbias));
  }
  cudaDataType scale = CUDA_R_32F;
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_SCALE_TYPE, &scale, sizeof scale));
  cublasLtMatmulHeuristicResult_t heur;
  int found = 0;
  CHECK_LT(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, ld, pref, 1, &heur, &found));
  if (found != 1) {
    std::printf("%s: no algorithm\n", name);
    wrong++, total++;
    return;
  }
  float alpha = 1.0f;
  CHECK_LT(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, lb, &beta, dD, lc, dD, ld, &heur.algo, workspace, WS, 0));
  std::vector<double> got = back(dD, D.size()), ref, tol, libtol;
  for (int z = 0; z < batch; z++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
        double s = 0, abs = 0;
        for (int l = 0; l < k; l++) {
          double a = dd(transA ? A[z * sA + l + (long long)i * k] : A[z * sA + i + (long long)l * m]);
          double b = dd(transB ? B[z * sB + j + (long long)l * n] : B[z * sB + l + (long long)j * k]);
          s += a * b, abs += std::fabs(a * b);
        }
        double c = beta != 0 ? dd(D[z * sD + i + (long long)j * m]) : 0;
        double pre = s + beta * c + (has_bias ? dd(bias[i]) : 0);
        double t = (k + 4) * u * (abs + std::fabs(beta * c) + (has_bias ? std::fabs(dd(bias[i])) : 0));
        double r = pre, rt = t;
        if (epi == CUBLASLT_EPILOGUE_RELU_BIAS) r = pre > 0 ? pre : 0;
        if (aux_out) r = gelu(pre), rt = 1.2 * t + 1e-6 * std::fabs(pre);
        if (aux_in) {
          double g = gelu_grad(dd(aux[i + (long long)j * m]));
          r = pre * g, rt = std::fabs(g) * t + 1e-6 * std::fabs(pre);
        }
        double gmax = aux_in ? std::fabs(gelu_grad(dd(aux[i + (long long)j * m]))) : 1.2;
        ref.push_back(r), tol.push_back(rt + uout * std::fabs(r) + 1e-30);
        libtol.push_back(tol.back() + uout * gmax * (std::fabs(s) + std::fabs(beta * c) +
                                                     (has_bias ? std::fabs(dd(bias[i])) : 0)));
      }
  check(name, got, ref, tol, libtol);
  if (aux_out) { /* the pre-GELU values, as the backward pass reads them */
    std::vector<double> ga = back(daux, aux.size()), ra, ta;
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
        double s = 0, abs = 0;
        for (int l = 0; l < k; l++) {
          double a = dd(transA ? A[l + (long long)i * k] : A[i + (long long)l * m]);
          double b = dd(transB ? B[j + (long long)l * n] : B[l + (long long)j * k]);
          s += a * b, abs += std::fabs(a * b);
        }
        double pre = s + dd(bias[i]);
        ra.push_back(pre), ta.push_back((k + 4) * u * (abs + std::fabs(dd(bias[i]))) + uout * std::fabs(pre) + 1e-30);
      }
    std::string an = std::string(name) + "_aux";
    check(an.c_str(), ga, ra, ta, ta);
  }
  if (bgrad) { /* dbias[j]: the sum over k of op(B)(., j) */
    std::vector<double> gb = back(dbias, (size_t)n), rb, tb;
    for (int j = 0; j < n; j++) {
      double s = 0, abs = 0;
      for (int l = 0; l < k; l++) {
        double b = dd(transB ? B[j + (long long)l * n] : B[l + (long long)j * k]);
        s += b, abs += std::fabs(b);
      }
      rb.push_back(s), tb.push_back((k + 4) * u * abs + uout * std::fabs(s) + 1e-30);
    }
    std::string bn = std::string(name) + "_dbias";
    check(bn.c_str(), gb, rb, tb, tb);
  }
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc), cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
  cudaFree(dA), cudaFree(dB), cudaFree(dD), cudaFree(dbias), cudaFree(daux);
}

int main() {
  CHECK_LT(cublasLtCreate(&lt));
  std::printf("cuBLASLt version %zu\n", cublasLtGetVersion());
  CHECK_CUDA(cudaMalloc(&workspace, WS));
  /* llm.c's forward matmul: out (OC x B*T) = weight^T (C x OC)^T * inp (C x B*T) */
  lt_case<bf16>("Lt_bf16_default_TN", 1, 0, 48, 20, 64, 1, 0.0f, CUBLASLT_EPILOGUE_DEFAULT, CUDA_R_16BF);
  lt_case<bf16>("Lt_bf16_bias_TN", 1, 0, 48, 20, 64, 1, 0.0f, CUBLASLT_EPILOGUE_BIAS, CUDA_R_16BF);
  lt_case<bf16>("Lt_bf16_gelu_aux_bias_TN", 1, 0, 48, 20, 64, 1, 0.0f, CUBLASLT_EPILOGUE_GELU_AUX_BIAS, CUDA_R_16BF);
  lt_case<bf16>("Lt_bf16_dgelu_NN", 0, 0, 48, 20, 32, 1, 0.0f, CUBLASLT_EPILOGUE_DGELU, CUDA_R_16BF);
  lt_case<bf16>("Lt_bf16_bgradb_NT", 0, 1, 32, 24, 40, 1, 1.0f, CUBLASLT_EPILOGUE_BGRADB, CUDA_R_16BF);
  lt_case<bf16>("Lt_bf16_batched_accumulate", 1, 0, 16, 12, 32, 3, 1.0f, CUBLASLT_EPILOGUE_DEFAULT, CUDA_R_16BF);
  lt_case<float>("Lt_f32_relu_bias_NN", 0, 0, 40, 24, 50, 1, 0.5f, CUBLASLT_EPILOGUE_RELU_BIAS, CUDA_R_32F);
  lt_case<float>("Lt_f32_batched_TT", 1, 1, 20, 16, 24, 2, 0.0f, CUBLASLT_EPILOGUE_DEFAULT, CUDA_R_32F);
  /* a layout with a leading dimension below its rows is refused */
  cublasLtMatmulDesc_t desc;
  CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasLtMatrixLayout_t bad, good;
  cublasStatus_t made = cublasLtMatrixLayoutCreate(&bad, CUDA_R_32F, 8, 8, 4);
  CHECK_LT(cublasLtMatrixLayoutCreate(&good, CUDA_R_32F, 8, 8, 8));
  cublasLtMatmulPreference_t pref;
  CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
  cublasLtMatmulHeuristicResult_t heur;
  int found = -1;
  cublasStatus_t st = made != CUBLAS_STATUS_SUCCESS ? made
                      : cublasLtMatmulAlgoGetHeuristic(lt, desc, bad, good, good, good, pref, 1, &heur, &found);
  total++;
  if (st == CUBLAS_STATUS_SUCCESS && found > 0) std::printf("ld < rows: accepted\n"), wrong++;
  else std::printf("ld < rows: refused (status %d, %d algorithms)\n", (int)st, found);
  if (made == CUBLAS_STATUS_SUCCESS) cublasLtMatrixLayoutDestroy(bad);
  cublasLtMatrixLayoutDestroy(good);
  cublasLtMatmulPreferenceDestroy(pref), cublasLtMatmulDescDestroy(desc);
  CHECK_LT(cublasLtDestroy(lt));
  cudaFree(workspace);
  return app_verdict("cublasLt", wrong, total);
}
