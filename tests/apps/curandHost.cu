/* curandHost - cuRAND's host API as applications call it: a generator
 * (XORWOW, the default; PHILOX4_32_10; MRG32K3A), a seed, an offset, the
 * ordering, a stream, and every distribution of the common code (32-bit
 * integers, uniform and normal floats and doubles, log-normal), then a
 * second call that continues the sequence.  The outputs must equal the
 * values NVIDIA's cuRAND produced on an H200 (app_golden.h): integers and
 * uniform values exactly, normal and log-normal ones within the error of
 * the fast sine and cosine the library's Box-Muller uses (docs/run.md).
 * Without golden values it checks what holds for any correct generator:
 * ranges, means and deviations within 6 sigma.  Built with -lcurand. */
#include <curand.h>

#include <cmath>
#include <string>
#include <vector>

#include "app_golden.h"
#include "app_util.h"

#define CHECK_RAND(call)                                                                              \
  do {                                                                                                \
    curandStatus_t st_ = (call);                                                                      \
    if (st_ != CURAND_STATUS_SUCCESS) {                                                               \
      std::fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call, (int)st_);     \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

static long wrong = 0, total = 0;
static const size_t N = 8256; /* two rounds of 4096 threads and more */

/* The indices compared with the golden values: the start, both sides of
 * each multiple of 4096, the end.  WM_GOLDEN_FULL=1 records every value. */
static std::vector<size_t> picks(size_t n) {
  std::vector<size_t> v;
  for (size_t i = 0; i < n; i++)
    if (i < 64 || (i % 4096 >= 4088 || i % 4096 < 8) || i + 8 >= n) v.push_back(i);
  return v;
}

enum Kind { BITS, UNIFORM, NORMAL, LOGNORMAL, UNIFORM_D, NORMAL_D, LOGNORMAL_D };
static const char *kind_name[] = {"bits", "uniform", "normal", "lognormal", "uniform_double", "normal_double",
                                  "lognormal_double"};

/* tolerance of a normal-derived value v (z: its standard score): exact for
 * the rest (NULL). */
static void record(const std::string &name, Kind kind, const std::vector<double> &v, double mean, double sd) {
  std::vector<size_t> at = picks(v.size());
  std::vector<double> got, tol;
  for (size_t i : at) {
    got.push_back(v[i]);
    double z = kind == LOGNORMAL ? (std::log(v[i]) - mean) / sd : (v[i] - mean) / sd;
    double t = kind == NORMAL ? 0x1p-19 * sd * (2 + std::fabs(z)) : kind == LOGNORMAL ? 0x1p-19 * sd * (2 + std::fabs(z)) * v[i]
               : kind == NORMAL_D || kind == LOGNORMAL_D ? 8 * 0x1p-52 * std::fabs(v[i]) : 0;
    tol.push_back(t);
  }
  bool exact = kind == BITS || kind == UNIFORM || kind == UNIFORM_D;
  long bad = golden_case(name.c_str(), got.data(), exact ? nullptr : tol.data(), (long)got.size(), kind == BITS);
  if (std::getenv("WM_GOLDEN_FULL")) golden_case(("full_" + name).c_str(), v.data(), nullptr, (long)v.size(), kind == BITS);
  /* what any generator must give: the range, and the mean and deviation within 6 sigma */
  double s = 0, s2 = 0;
  for (double x : v) {
    double y = kind == LOGNORMAL || kind == LOGNORMAL_D ? std::log(x) : x;
    s += y, s2 += y * y;
    if ((kind == UNIFORM || kind == UNIFORM_D) && !(x > 0 && x <= 1)) bad++;
    if ((kind == LOGNORMAL || kind == LOGNORMAL_D) && !(x > 0)) bad++;
  }
  double n = (double)v.size(), m = s / n, dev = std::sqrt(s2 / n - m * m);
  double em = kind == BITS ? 2147483647.5 : kind == UNIFORM || kind == UNIFORM_D ? 0.5 : mean;
  double es = kind == BITS ? 4294967296.0 / std::sqrt(12.0) : kind == UNIFORM || kind == UNIFORM_D ? 1 / std::sqrt(12.0) : sd;
  if (std::fabs(m - em) > 6 * es / std::sqrt(n) || std::fabs(dev - es) > 0.1 * es) {
    std::printf("%s: mean %.6g, deviation %.6g: not the distribution's (%.6g, %.6g)\n", name.c_str(), m, dev, em, es);
    bad++;
  }
  std::printf("%-36s %6zu values (%zu compared): %s\n", name.c_str(), v.size(), at.size(), bad ? "WRONG" : "ok");
  wrong += bad, total += (long)at.size();
}

/* One generator made, seeded, offset, ordered; n values of `kind` from it
 * (then `again` more from the same generator, as a second call). */
static void run(const char *gname, curandRngType_t type, unsigned long long seed, unsigned long long offset,
                int ordering, Kind kind, size_t n, size_t again, bool host = false) {
  curandGenerator_t g;
  if (host) CHECK_RAND(curandCreateGeneratorHost(&g, type));
  else CHECK_RAND(curandCreateGenerator(&g, type));
  CHECK_RAND(curandSetPseudoRandomGeneratorSeed(g, seed));
  if (offset) CHECK_RAND(curandSetGeneratorOffset(g, offset));
  if (ordering == CURAND_ORDERING_PSEUDO_SEEDED && std::getenv("WARPMEM_RUN_REPORT")) {
    /* warpmem's stand-in has one sequence (DEFAULT's): SEEDED is refused, said */
    curandStatus_t st = curandSetGeneratorOrdering(g, (curandOrdering_t)ordering);
    total++;
    if (st == CURAND_STATUS_SUCCESS) wrong++, std::printf("PSEUDO_SEEDED accepted under warpmem\n");
    else std::printf("PSEUDO_SEEDED: refused under warpmem (status %d)\n", (int)st);
    CHECK_RAND(curandDestroyGenerator(g));
    return;
  }
  if (ordering) CHECK_RAND(curandSetGeneratorOrdering(g, (curandOrdering_t)ordering));
  cudaStream_t stream = nullptr;
  if (!host) {
    CHECK_CUDA(cudaStreamCreate(&stream));
    CHECK_RAND(curandSetStream(g, stream));
  }
  const double mean = kind == LOGNORMAL || kind == LOGNORMAL_D ? 0.25 : 1.0, sd = kind == LOGNORMAL || kind == LOGNORMAL_D ? 0.5 : 2.0;
  for (int call = 0; call < (again ? 2 : 1); call++) {
    size_t cnt = call ? again : n;
    bool dbl = kind >= UNIFORM_D;
    size_t bytes = cnt * (dbl ? 8 : 4);
    void *buf;
    if (host) buf = std::malloc(bytes);
    else CHECK_CUDA(cudaMalloc(&buf, bytes));
    switch (kind) {
    case BITS: CHECK_RAND(curandGenerate(g, (unsigned *)buf, cnt)); break;
    case UNIFORM: CHECK_RAND(curandGenerateUniform(g, (float *)buf, cnt)); break;
    case NORMAL: CHECK_RAND(curandGenerateNormal(g, (float *)buf, cnt, (float)mean, (float)sd)); break;
    case LOGNORMAL: CHECK_RAND(curandGenerateLogNormal(g, (float *)buf, cnt, (float)mean, (float)sd)); break;
    case UNIFORM_D: CHECK_RAND(curandGenerateUniformDouble(g, (double *)buf, cnt)); break;
    case NORMAL_D: CHECK_RAND(curandGenerateNormalDouble(g, (double *)buf, cnt, mean, sd)); break;
    case LOGNORMAL_D: CHECK_RAND(curandGenerateLogNormalDouble(g, (double *)buf, cnt, mean, sd)); break;
    }
    std::vector<unsigned char> raw(bytes);
    if (host) std::memcpy(raw.data(), buf, bytes), std::free(buf);
    else {
      CHECK_CUDA(cudaStreamSynchronize(stream));
      CHECK_CUDA(cudaMemcpy(raw.data(), buf, bytes, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaFree(buf));
    }
    std::vector<double> v(cnt);
    for (size_t i = 0; i < cnt; i++)
      v[i] = kind == BITS ? ((unsigned *)raw.data())[i] : dbl ? ((double *)raw.data())[i] : ((float *)raw.data())[i];
    std::string name = std::string(gname) + "_" + kind_name[kind] + (offset ? "_offset" : "") +
                       (ordering ? "_ordering" + std::to_string(ordering) : "") + (host ? "_host" : "") +
                       (call ? "_again" : "");
    record(name, kind, v, mean, sd);
  }
  CHECK_RAND(curandDestroyGenerator(g));
  if (stream) CHECK_CUDA(cudaStreamDestroy(stream));
}

int main() {
  int version = 0;
  CHECK_RAND(curandGetVersion(&version));
  std::printf("cuRAND version %d\n", version);
  struct { const char *name; curandRngType_t type; } gens[] = {
      {"xorwow", CURAND_RNG_PSEUDO_DEFAULT}, {"philox", CURAND_RNG_PSEUDO_PHILOX4_32_10},
      {"mrg32k3a", CURAND_RNG_PSEUDO_MRG32K3A}};
  const char *only = std::getenv("CURAND_GENERATORS"); /* a subset (warpmem run's test: those it stands in for) */
  for (auto &g : gens) {
    if (only && !std::strstr(only, g.name)) continue;
    run(g.name, g.type, 1234, 0, 0, BITS, N, 1000);
    run(g.name, g.type, 1234, 5, 0, BITS, 100, 0);
    run(g.name, g.type, 1234, 0, 0, UNIFORM, N, 0);
    run(g.name, g.type, 1234, 0, 0, NORMAL, N, 64);
    run(g.name, g.type, 1234, 0, 0, LOGNORMAL, 512, 0);
    run(g.name, g.type, 1234, 0, 0, UNIFORM_D, 4160, 0);
    run(g.name, g.type, 1234, 0, 0, NORMAL_D, 4160, 0);
    run(g.name, g.type, 1234, 0, 0, LOGNORMAL_D, 512, 0);
  }
  if (!only || std::strstr(only, "xorwow")) {
    run("xorwow", CURAND_RNG_PSEUDO_XORWOW, 1234, 0, CURAND_ORDERING_PSEUDO_LEGACY, BITS, N, 0);
    run("xorwow", CURAND_RNG_PSEUDO_XORWOW, 1234, 0, CURAND_ORDERING_PSEUDO_SEEDED, BITS, N, 0);
    run("xorwow_seed0", CURAND_RNG_PSEUDO_XORWOW, 0, 0, 0, BITS, 64, 0); /* named xorwow_seed0_bits */
    run("xorwow", CURAND_RNG_PSEUDO_XORWOW, 1234, 0, 0, BITS, 64, 0, true);
  }
  if (!only || std::strstr(only, "philox")) {
    run("philox", CURAND_RNG_PSEUDO_PHILOX4_32_10, 1234, 0, CURAND_ORDERING_PSEUDO_LEGACY, BITS, N, 0);
    run("philox", CURAND_RNG_PSEUDO_PHILOX4_32_10, 1234, 0, 0, BITS, 64, 0, true);
  }
  if (std::getenv("WARPMEM_RUN_REPORT")) { /* what warpmem's stand-in does not have is refused */
    curandGenerator_t m;
    curandStatus_t st = curandCreateGenerator(&m, CURAND_RNG_PSEUDO_MTGP32);
    total++;
    if (st != CURAND_STATUS_TYPE_ERROR) wrong++, std::printf("MTGP32 under warpmem: status %d\n", (int)st);
  }
  /* an odd count of normal values is refused (they come in pairs) */
  curandGenerator_t g;
  CHECK_RAND(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT));
  float *d;
  CHECK_CUDA(cudaMalloc(&d, 64));
  curandStatus_t st = curandGenerateNormal(g, d, 7, 0, 1);
  total++;
  if (st != CURAND_STATUS_LENGTH_NOT_MULTIPLE) std::printf("odd normal count: status %d\n", (int)st), wrong++;
  else std::printf("odd normal count: CURAND_STATUS_LENGTH_NOT_MULTIPLE as documented\n");
  CHECK_RAND(curandDestroyGenerator(g));
  cudaFree(d);
  return app_verdict("curandHost", wrong, total);
}
