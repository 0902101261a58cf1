/* api_lib.c - the launch path and messages warpmem's library stand-ins
 * share (api_lib.h). */
#include "rt/api_lib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static LibKernels *loading; /* pthread_once takes no argument: the one being loaded, under load_lock */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static void load_now(void) {
  LibKernels *k = loading;
  k->err = rt_module_load_ptx(k->ptx, k->name, &k->mod);
  if (k->err) lib_say(k->name, "warpmem's kernels for this library do not load (%s): a build problem; rebuild warpmem",
                      rt_error_name(k->err));
}

RtError lib_launch(LibKernels *k, const char *call, const char *kernel, const uint32_t grid[3], uint32_t bx,
                   uint32_t by, RtStream *s, void **args) {
  pthread_mutex_lock(&load_lock);
  loading = k;
  pthread_once(&k->once, load_now);
  pthread_mutex_unlock(&load_lock);
  if (k->err) return RT_ERR_INVALID_KERNEL_IMAGE;
  RtFunction *f;
  if (rt_module_function(k->mod, kernel, &f)) {
    lib_say(call, "warpmem's kernel %s is missing from %s (a build problem)", kernel, k->name);
    return RT_ERR_INVALID_KERNEL_IMAGE;
  }
  RtLaunchConfig c = {.grid = {grid[0], grid[1], grid[2]}, .block = {bx, by, 1}, .stream = s};
  return rt_launch(f, &c, args);
}

RtError lib_gemm(LibKernels *k, const char *call, const char *kernel, const LibGemm *g, RtStream *s) {
  if (g->batch > 65535) {
    lib_say(call, "a batch of %d: warpmem's kernel takes at most 65535 (gridDim.z)", g->batch);
    return RT_ERR_NOT_SUPPORTED;
  }
  uint32_t grid[3] = {(uint32_t)(g->m + 15) / 16, (uint32_t)(g->n + 15) / 16, (uint32_t)g->batch};
  float af = (float)g->alpha, bf = (float)g->beta;
  double ad = g->alpha, bd = g->beta;
  void *alpha = g->acc_double ? (void *)&ad : (void *)&af, *beta = g->acc_double ? (void *)&bd : (void *)&bf;
  LibGemm c = *g; /* the kernel's parameters, in its order (gemm.cuh's GEMM_PARAMS) */
  void *args[] = {&c.ta, &c.tb, &c.m, &c.n, &c.k, alpha, &c.A, &c.lda, &c.sA, &c.B, &c.ldb, &c.sB, beta,
                  &c.C, &c.ldc, &c.sC, &c.D, &c.ldd, &c.sD, &c.arrays, &c.epi, &c.bias, &c.bias_f32, &c.aux,
                  &c.ldaux, &c.sAux};
  return lib_launch(k, call, kernel, grid, 16, 16, s, args);
}

static void vsay(const char *call, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  fflush(stdout);
  fprintf(stderr, "==WARPMEM== %s: %s\n", call, msg);
}

void lib_say(const char *call, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsay(call, fmt, ap);
  va_end(ap);
}

#define MAX_SAID 256
void lib_say_once(const char *call, const char *fmt, ...) {
  static char *said[MAX_SAID];
  static int nsaid;
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  char msg[1024], key[1300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(key, sizeof key, "%s: %s", call, msg);
  pthread_mutex_lock(&lock);
  int seen = 0;
  for (int i = 0; i < nsaid && !seen; i++) seen = !strcmp(said[i], key);
  if (!seen && nsaid < MAX_SAID) said[nsaid++] = strdup(key);
  pthread_mutex_unlock(&lock);
  if (!seen) lib_say(call, "%s", msg);
}

int lib_read_scalar(const void *p, void *out, size_t n) {
  if (!p) return -1;
  memcpy(out, p, n);
  return 0;
}

float lib_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023, bits;
  if (e == 31) bits = sign | 0x7f800000u | (m << 13);
  else if (e) bits = sign | ((e + 112) << 23) | (m << 13);
  else if (!m) bits = sign;
  else { /* subnormal: normalize */
    e = 113;
    while (!(m & 1024)) m <<= 1, e--;
    bits = sign | (e << 23) | ((m & 1023) << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

float lib_bf16_to_float(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}
