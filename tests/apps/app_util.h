/* app_util.h - what the sample applications of tests/apps share: a check
 * of every CUDA call (the call, its file and line, CUDA's error name and
 * string, then exit 1) and the verdict line that run_app.sh looks for.
 * Written for these tests; the apps are plain CUDA, built with
 * `nvcc -cudart shared`, and run as well on a GPU as under warpmem run. */
#ifndef APP_UTIL_H
#define APP_UTIL_H

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK_CUDA(call)                                                                       \
  do {                                                                                         \
    cudaError_t err_ = (call);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,           \
                   cudaGetErrorName(err_), cudaGetErrorString(err_));                          \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

/* The launch just made was accepted (a bad configuration fails here). */
#define CHECK_LAUNCH() CHECK_CUDA(cudaGetLastError())

/* Prints PASSED or FAILED (with how many of how many values were wrong)
 * and returns main's status. */
static inline int app_verdict(const char *name, long wrong, long total) {
  if (wrong == 0) {
    std::printf("%s: PASSED\n", name);
    return 0;
  }
  std::printf("%s: FAILED (%ld of %ld values wrong)\n", name, wrong, total);
  return 1;
}

/* A deterministic pseudo-random sequence (xorshift32), the same on every
 * host, so that a failure can be reproduced. */
static inline unsigned app_rand(unsigned *state) {
  unsigned x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

/* A float in [0, 1) from app_rand. */
static inline float app_randf(unsigned *state) { return (app_rand(state) >> 8) * (1.0f / 16777216.0f); }

#endif
