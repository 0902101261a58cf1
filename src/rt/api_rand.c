/* api_rand.c - warpmem's stand-in for cuRAND's host API
 * (build/rt/libcurand.so.10): generators XORWOW (the default) and
 * PHILOX4_32_10, on the device or the host (curandCreateGeneratorHost), a
 * seed, an offset, the orderings whose sequence is the default's, a
 * stream, and the distributions curandGenerate, GenerateUniform(Double),
 * GenerateNormal(Double), GenerateLogNormal(Double), each call one launch
 * of warpmem_<call>_<generator> (src/rt/kernels/rand_kernels.cu).  The
 * outputs are NVIDIA's cuRAND's: the ordering was read from its outputs
 * on an H200 (the kernels' header says it), integers and uniform values
 * bit for bit, normal ones within the fast sine's error (docs/run.md).
 *
 * XORWOW's 4096 subsequences start 2^67 values apart: the host computes
 * each thread's state there from the seed (curand_init's salted seeding)
 * and the jump matrices of the generator's linear recurrence over GF(2)
 * (M^(2^i), M the one-step map of its 160-bit state), once per seed; a
 * thread's state is kept in device memory between calls, and jumped again
 * on the host only when an offset moves it far.  Philox needs no state. */
#include <curand.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/api_lib.h"

extern const char wm_rand_ptx[]; /* src/rt/kernels/ptx/rand_kernels.ptx, embedded by CMake */
static LibKernels kernels = LIB_KERNELS(wm_rand_ptx, "warpmem's cuRAND kernels");

#define THREADS 4096u /* the host API's threads: subsequences 0..4095 (cuRAND's, as measured) */
#define GEN_MAGIC 0x72616e64u
struct curandGenerator_st {
  unsigned magic;
  curandRngType_t type; /* XORWOW or PHILOX4_32_10 */
  int host;             /* curandCreateGeneratorHost: results in host memory */
  unsigned long long seed, offset;
  unsigned long long at; /* 32-bit values consumed so far (from the offset) */
  RtStream *stream;
  int seeded;            /* XORWOW: states[] match seed */
  uint32_t *base;        /* XORWOW: each thread's state at position 0 (host) */
  uint32_t *state;       /* XORWOW: each thread's state now (device: 6 words) */
  unsigned long long *pos; /* XORWOW: each thread's position now (device) */
};

static curandStatus_t say(const char *call, curandStatus_t st, const char *why) {
  lib_say(call, "%s", why);
  return st;
}
#define CHECK_GEN(call, g)                                                                    \
  if (!(g) || (g)->magic != GEN_MAGIC)                                                        \
  return say(call, CURAND_STATUS_NOT_INITIALIZED, "not a generator from curandCreateGenerator: " \
                                                  "CURAND_STATUS_NOT_INITIALIZED")

/* ---- XORWOW's jumps: 160-bit state vectors, matrices as column images ---- */

typedef struct { uint32_t w[5]; } Vec;
#define NPOW 68 /* M^(2^i) for i < 68: positions below 2^64, subsequences 2^67 apart */
static Vec (*jump)[160]; /* jump[i][b]: M^(2^i) applied to basis vector b */
static pthread_once_t jump_once = PTHREAD_ONCE_INIT;

static Vec step(Vec x) { /* one step of the recurrence on v[0..4] (the Weyl counter d apart) */
  uint32_t t = x.w[0] ^ (x.w[0] >> 2);
  Vec y = {{x.w[1], x.w[2], x.w[3], x.w[4], (x.w[4] ^ (x.w[4] << 4)) ^ (t ^ (t << 1))}};
  return y;
}
static Vec apply(const Vec *cols, Vec x) {
  Vec r = {{0}};
  for (int b = 0; b < 160; b++)
    if (x.w[b / 32] >> (b % 32) & 1)
      for (int i = 0; i < 5; i++) r.w[i] ^= cols[b].w[i];
  return r;
}
static void make_jumps(void) {
  jump = malloc(sizeof *jump * NPOW);
  if (!jump) abort();
  for (int b = 0; b < 160; b++) {
    Vec e = {{0}};
    e.w[b / 32] = 1u << (b % 32);
    jump[0][b] = step(e);
  }
  for (int i = 1; i < NPOW; i++)
    for (int b = 0; b < 160; b++) jump[i][b] = apply(jump[i - 1], jump[i - 1][b]);
}

/* curand_init's seeding of subsequence 0, position 0 (v[0..4], d). */
static void seed_state(unsigned long long seed, uint32_t s[6]) {
  uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u, s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
  uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  s[0] = 123456789u + t0, s[1] = 362436069u ^ t0, s[2] = 521288629u + t1, s[3] = 88675123u ^ t1;
  s[4] = 5783321u + t0, s[5] = 6615241u + t1 + t0;
}

/* s (6 words) advanced by p positions: M^p on v, d += 362437 p. */
static void advance(uint32_t s[6], unsigned long long p) {
  Vec v;
  memcpy(v.w, s, 20);
  for (int i = 0; i < 64; i++)
    if (p >> i & 1) v = apply(jump[i], v);
  memcpy(s, v.w, 20);
  s[5] += (uint32_t)(362437ull * p);
}

/* The thread states for g's seed: subsequence t is 2^67 steps past t-1
 * (the Weyl counter moves by 362437 * 2^67 = 0 mod 2^32). */
static curandStatus_t xorwow_seed(struct curandGenerator_st *g) {
  pthread_once(&jump_once, make_jumps);
  if (!g->base) {
    g->base = malloc(6 * sizeof(uint32_t) * THREADS);
    if (!g->base || rt_malloc(6 * sizeof(uint32_t) * THREADS, RT_MEM_DEVICE, (void **)&g->state) ||
        rt_malloc(sizeof(unsigned long long) * THREADS, RT_MEM_DEVICE, (void **)&g->pos))
      return CURAND_STATUS_ALLOCATION_FAILED;
  }
  uint32_t s[6];
  seed_state(g->seed, s);
  for (unsigned t = 0; t < THREADS; t++) {
    memcpy(g->base + 6 * t, s, sizeof s);
    Vec v;
    memcpy(v.w, s, 20);
    v = apply(jump[67], v);
    memcpy(s, v.w, 20);
  }
  memcpy(g->state, g->base, 6 * sizeof(uint32_t) * THREADS); /* device memory is the host's too */
  memset(g->pos, 0, sizeof(unsigned long long) * THREADS);
  g->seeded = 1;
  return CURAND_STATUS_SUCCESS;
}

/* Before a call of items j0.. (c values each): each thread's state at or a
 * little before its first item's position (the kernel steps the rest). */
static void xorwow_place(struct curandGenerator_st *g, unsigned long long j0, int c) {
  for (unsigned t = 0; t < THREADS; t++) {
    unsigned long long j = j0 + (t + THREADS - (unsigned)(j0 % THREADS)) % THREADS;
    unsigned long long want = (unsigned long long)c * (j / THREADS);
    if (g->pos[t] <= want && want - g->pos[t] <= 4096) continue;
    memcpy(g->state + 6 * t, g->base + 6 * t, 6 * sizeof(uint32_t));
    advance(g->state + 6 * t, want);
    g->pos[t] = want;
  }
}

/* ---- generators ---- */

static curandStatus_t create(const char *call, curandGenerator_t *out, curandRngType_t type, int host) {
  if (!out) return say(call, CURAND_STATUS_NOT_INITIALIZED, "generator is NULL");
  if (type == CURAND_RNG_PSEUDO_DEFAULT) type = CURAND_RNG_PSEUDO_XORWOW;
  if (type != CURAND_RNG_PSEUDO_XORWOW && type != CURAND_RNG_PSEUDO_PHILOX4_32_10) {
    lib_say(call, "generator type %d is not supported by warpmem's stand-in (it has XORWOW, the default, and "
                  "PHILOX4_32_10): CURAND_STATUS_TYPE_ERROR", (int)type);
    return CURAND_STATUS_TYPE_ERROR;
  }
  if (rt_init()) return CURAND_STATUS_INITIALIZATION_FAILED;
  struct curandGenerator_st *g = calloc(1, sizeof *g);
  if (!g) return CURAND_STATUS_ALLOCATION_FAILED;
  g->magic = GEN_MAGIC, g->type = type, g->host = host;
  *out = g;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandCreateGenerator(curandGenerator_t *g, curandRngType_t type) {
  return create("curandCreateGenerator", g, type, 0);
}
curandStatus_t curandCreateGeneratorHost(curandGenerator_t *g, curandRngType_t type) {
  return create("curandCreateGeneratorHost", g, type, 1);
}
curandStatus_t curandDestroyGenerator(curandGenerator_t g) {
  CHECK_GEN("curandDestroyGenerator", g);
  free(g->base);
  rt_free(g->state, RT_MEM_DEVICE);
  rt_free(g->pos, RT_MEM_DEVICE);
  g->magic = 0;
  free(g);
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGetVersion(int *version) {
  if (!version) return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGetProperty(libraryPropertyType type, int *value) {
  if (!value) return CURAND_STATUS_OUT_OF_RANGE;
  if (type == MAJOR_VERSION) *value = CURAND_VER_MAJOR;
  else if (type == MINOR_VERSION) *value = CURAND_VER_MINOR;
  else if (type == PATCH_LEVEL) *value = CURAND_VER_PATCH;
  else return CURAND_STATUS_OUT_OF_RANGE;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetStream(curandGenerator_t g, cudaStream_t s) {
  CHECK_GEN("curandSetStream", g);
  if (rt_stream_check((RtStream *)s)) return say("curandSetStream", CURAND_STATUS_OUT_OF_RANGE, "not a stream");
  g->stream = (RtStream *)s;
  return CURAND_STATUS_SUCCESS;
}
/* A new seed or offset restarts the sequence at the offset. */
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long seed) {
  CHECK_GEN("curandSetPseudoRandomGeneratorSeed", g);
  g->seed = seed, g->at = g->offset, g->seeded = 0;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOffset(curandGenerator_t g, unsigned long long offset) {
  CHECK_GEN("curandSetGeneratorOffset", g);
  g->offset = offset, g->at = offset;
  return CURAND_STATUS_SUCCESS;
}
/* PSEUDO_BEST, DEFAULT and LEGACY give one sequence (the H200 run: LEGACY's
 * equals DEFAULT's for both generators); SEEDED and DYNAMIC give others,
 * which warpmem does not have. */
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g, curandOrdering_t order) {
  CHECK_GEN("curandSetGeneratorOrdering", g);
  if (order == CURAND_ORDERING_PSEUDO_BEST || order == CURAND_ORDERING_PSEUDO_DEFAULT ||
      order == CURAND_ORDERING_PSEUDO_LEGACY)
    return CURAND_STATUS_SUCCESS;
  lib_say("curandSetGeneratorOrdering", "ordering %d is not supported by warpmem's stand-in (it has PSEUDO_DEFAULT, "
                                        "BEST and LEGACY, one sequence): CURAND_STATUS_OUT_OF_RANGE", (int)order);
  return CURAND_STATUS_OUT_OF_RANGE;
}
curandStatus_t curandGenerateSeeds(curandGenerator_t g) {
  CHECK_GEN("curandGenerateSeeds", g);
  return g->type == CURAND_RNG_PSEUDO_XORWOW && !g->seeded ? xorwow_seed(g) : CURAND_STATUS_SUCCESS;
}

/* ---- the calls ---- */

enum { D_BITS, D_UNIFORM, D_NORMAL, D_LOGNORMAL, D_UNIFORM_D, D_NORMAL_D, D_LOGNORMAL_D }; /* rand_kernels.cu's */
static const char *dist_call[] = {"curandGenerate", "curandGenerateUniform", "curandGenerateNormal",
                                  "curandGenerateLogNormal", "curandGenerateUniformDouble",
                                  "curandGenerateNormalDouble", "curandGenerateLogNormalDouble"};

/* n outputs of dist into out: items of c 32-bit values making o outputs
 * (XORWOW: 1, 1 for a value; 2, 2 a Box-Muller pair; 2, 1 a double; 4, 2 a
 * pair of doubles; Philox: 4 values an item, its uint4, and 8 making 4
 * doubles). */
static curandStatus_t generate(curandGenerator_t g, int dist, void *out, size_t n, double mean, double sd) {
  const char *call = dist_call[dist];
  CHECK_GEN(call, g);
  int pairs = dist == D_NORMAL || dist == D_LOGNORMAL || dist == D_NORMAL_D || dist == D_LOGNORMAL_D;
  if (pairs && n % 2) return say(call, CURAND_STATUS_LENGTH_NOT_MULTIPLE, "an odd count of normal values: "
                                                                          "CURAND_STATUS_LENGTH_NOT_MULTIPLE");
  if (!n) return CURAND_STATUS_SUCCESS;
  if (!out) return say(call, CURAND_STATUS_OUT_OF_RANGE, "outputPtr is NULL");
  int dbl = dist >= D_UNIFORM_D, xw = g->type == CURAND_RNG_PSEUDO_XORWOW;
  int c = xw ? (dist <= D_UNIFORM ? 1 : dist == D_NORMAL_D || dist == D_LOGNORMAL_D ? 4 : 2) : dbl ? 8 : 4;
  int o = dbl ? c / 2 : c;
  unsigned long long per = (unsigned long long)(c / o); /* 32-bit values an output takes */
  unsigned long long j0 = g->at / c;
  int skip = (int)(g->at % c) / (int)per; /* an offset inside an item (integers and floats only) */
  unsigned long long items = (n + skip + o - 1) / o;
  if (xw && !g->seeded) {
    curandStatus_t st = xorwow_seed(g);
    if (st) return st;
  }
  if (xw) xorwow_place(g, j0, c);
  size_t bytes = n * (dbl ? 8 : 4);
  void *dst = out;
  if (g->host && rt_malloc(bytes, RT_MEM_DEVICE, &dst)) return CURAND_STATUS_ALLOCATION_FAILED;
  long long nn = (long long)n;
  char kernel[64];
  snprintf(kernel, sizeof kernel, "warpmem_%s_%s", call, xw ? "xorwow" : "philox");
  void *xargs[] = {&g->state, &g->pos, &j0, &items, &c, &o, &skip, &mean, &sd, &dst, &nn};
  void *pargs[] = {&g->seed, &j0, &items, &c, &o, &skip, &mean, &sd, &dst, &nn};
  uint32_t grid[3] = {THREADS / 128, 1, 1};
  RtError r = lib_launch(&kernels, call, kernel, grid, 128, 1, g->host ? NULL : g->stream, xw ? xargs : pargs);
  if (g->host) {
    if (!r) memcpy(out, dst, bytes);
    rt_free(dst, RT_MEM_DEVICE);
  }
  if (r) return CURAND_STATUS_LAUNCH_FAILURE;
  g->at += n * per;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerate(curandGenerator_t g, unsigned int *out, size_t n) {
  return generate(g, D_BITS, out, n, 0, 1);
}
curandStatus_t curandGenerateUniform(curandGenerator_t g, float *out, size_t n) {
  return generate(g, D_UNIFORM, out, n, 0, 1);
}
curandStatus_t curandGenerateNormal(curandGenerator_t g, float *out, size_t n, float mean, float sd) {
  return generate(g, D_NORMAL, out, n, mean, sd);
}
curandStatus_t curandGenerateLogNormal(curandGenerator_t g, float *out, size_t n, float mean, float sd) {
  return generate(g, D_LOGNORMAL, out, n, mean, sd);
}
curandStatus_t curandGenerateUniformDouble(curandGenerator_t g, double *out, size_t n) {
  return generate(g, D_UNIFORM_D, out, n, 0, 1);
}
curandStatus_t curandGenerateNormalDouble(curandGenerator_t g, double *out, size_t n, double mean, double sd) {
  return generate(g, D_NORMAL_D, out, n, mean, sd);
}
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t g, double *out, size_t n, double mean, double sd) {
  return generate(g, D_LOGNORMAL_D, out, n, mean, sd);
}
