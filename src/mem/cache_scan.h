/* cache_scan.h - the line state word of cache.c's set-associative arrays,
 * and the scans of a set that every look-up makes (AVX2 where the host has
 * it).  Included by cache.c alone: its functions are static, so the hot
 * look-ups inline there. */
#ifndef WM_CACHE_SCAN_H
#define WM_CACHE_SCAN_H

#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WM_SCAN_AVX2 1 /* the set scans' AVX2 form, where the host has it */
#endif

/* A line's state word: the tag (line address + 1; 0: empty way), the
 * sectors present, written (L2) and fetched along with another and not yet
 * used (L2), and the line's LRU rank in its set (0: most recent).  Ranks
 * instead of time stamps keep a set in ways * 8 bytes and give the same
 * victims: the least recently used line has the highest rank. */
#define CL_TAG_BITS 45 /* lines below 2^45: gmem's buffers start at 2^46.8 bytes */
#define CL_TAG_MASK ((1ull << CL_TAG_BITS) - 1)
#define CL_COPIED 45 /* an L2 line at home: the other partition may hold a copy */
#define CL_VALID 46
#define CL_DIRTY 50
#define CL_UNUSED 54
#define CL_RANK 58
#define CL_MAX_WAYS 64 /* ranks of 6 bits */

static inline uint64_t cl_tag(uint64_t m) { return m & CL_TAG_MASK; }
static inline int cl_has(uint64_t m, int at, unsigned s) { return (int)(m >> (at + (int)s) & 1); }
static inline void cl_set(uint64_t *m, int at, unsigned s) { *m |= 1ull << (at + (int)s); }
static inline void cl_clear(uint64_t *m, int at, unsigned s) { *m &= ~(1ull << (at + (int)s)); }

/* ---- the set scans ---------------------------------------------------------
 * Each look-up asks three things of a set: which way holds the line, which
 * is empty, which is the least recent.  A 16-way L2 set is four AVX2
 * registers and an 8-way (Hopper) L1 set two, so on hosts with AVX2 (chosen once, in
 * level_init: CacheLevel.scan) the answers are three bit masks from a few
 * compares instead of a loop of branches per way (the scalar loop cost
 * 250 instructions per L2 look-up).  Both forms give the same ways: the
 * hit, else the first empty way, else the one of the last rank (ranks are
 * a permutation of 0 .. ways-1). */

/* Masks over the ways of a set: the line's way, empty ways, the LRU way. */
typedef struct SetScan {
  uint64_t hit, empty, lru;
} SetScan;

#ifdef WM_SCAN_AVX2
/* Bit i set where 64-bit word i of the `ways` (4 or 16) at p equals `key`
 * after `mask` (shift: after the shift to the rank instead). */
__attribute__((target("avx2"), always_inline)) static inline uint64_t eq_mask(const uint64_t *p, uint32_t ways,
                                                                                __m256i mask, __m256i key, int shift) {
  uint64_t m = 0;
#pragma GCC unroll 4
  for (uint32_t i = 0; i < ways; i += 4) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
    v = shift ? _mm256_srli_epi64(v, CL_RANK) : _mm256_and_si256(v, mask);
    m |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(v, key))) << i;
  }
  return m;
}

/* The ways of a set of 4, 8 or 16 that hold line ln (one bit at most). */
__attribute__((target("avx2"))) static uint64_t find_avx2(const uint64_t *set, uint32_t ways, uint64_t ln) {
  __m256i tag = _mm256_set1_epi64x((long long)CL_TAG_MASK), key = _mm256_set1_epi64x((long long)(ln + 1));
  return ways == 16 ? eq_mask(set, 16, tag, key, 0) : ways == 8 ? eq_mask(set, 8, tag, key, 0) : eq_mask(set, 4, tag, key, 0);
}

/* The entries of a store FIFO of 16 (merged_store) equal to key. */
__attribute__((target("avx2"))) static uint64_t fifo_avx2(const uint64_t *fifo, uint64_t key) {
  return eq_mask(fifo, 16, _mm256_set1_epi64x(-1), _mm256_set1_epi64x((long long)key), 0);
}

/* The victim of a set of `ways` (4, 8 or 16): its first empty way, else its
 * LRU one (both masks from one load of the set). */
__attribute__((target("avx2"), always_inline)) static inline uint32_t victim(const uint64_t *set, uint32_t ways) {
  __m256i tag = _mm256_set1_epi64x((long long)CL_TAG_MASK), zero = _mm256_setzero_si256();
  __m256i last = _mm256_set1_epi64x((long long)(ways - 1));
  uint64_t e = 0, lru = 0;
#pragma GCC unroll 4
  for (uint32_t i = 0; i < ways; i += 4) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(set + i));
    __m256i ce = _mm256_cmpeq_epi64(_mm256_and_si256(v, tag), zero);
    __m256i cl = _mm256_cmpeq_epi64(_mm256_srli_epi64(v, CL_RANK), last);
    e |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(ce)) << i;
    lru |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(cl)) << i;
  }
  return (uint32_t)__builtin_ctzll(e ? e : lru);
}

/* Every way of a rank below r moves down one, four ways per compare. */
__attribute__((target("avx2"), always_inline)) static inline void age(uint64_t *set, uint32_t ways, uint64_t r) {
  __m256i rv = _mm256_set1_epi64x((long long)r), one = _mm256_set1_epi64x((long long)(1ull << CL_RANK));
#pragma GCC unroll 4
  for (uint32_t i = 0; i < ways; i += 4) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(set + i));
    __m256i lt = _mm256_cmpgt_epi64(rv, _mm256_srli_epi64(v, CL_RANK)); /* ranks < 64: signed is fine */
    _mm256_storeu_si256((__m256i *)(void *)(set + i), _mm256_add_epi64(v, _mm256_and_si256(lt, one)));
  }
}

/* Makes way w of a set of `ways` the most recent (level_touch). */
__attribute__((target("avx2"), always_inline)) static inline void touch(uint64_t *set, uint32_t ways, uint32_t w) {
  uint64_t r = set[w] >> CL_RANK;
  if (r == 0) return;
  age(set, ways, r);
  set[w] &= ~(63ull << CL_RANK);
}

__attribute__((target("avx2"))) static void touch_avx2(uint64_t *set, uint32_t ways, uint32_t w) {
  if (ways == 16) touch(set, 16, w);
  else if (ways == 8) touch(set, 8, w);
  else touch(set, 4, w);
}

/* level_lookup on a set of `ways` (4, 8 or 16): the way within the set. */
__attribute__((target("avx2"), always_inline)) static inline uint32_t lookup(uint64_t *set, uint32_t ways, uint64_t ln,
                                                                               int *hit) {
  __m256i tag = _mm256_set1_epi64x((long long)CL_TAG_MASK), key = _mm256_set1_epi64x((long long)(ln + 1));
  uint64_t h = eq_mask(set, ways, tag, key, 0);
  *hit = h != 0;
  uint32_t w = h ? (uint32_t)__builtin_ctzll(h) : victim(set, ways);
  touch(set, ways, w);
  return w;
}

__attribute__((target("avx2"))) static uint32_t lookup_avx2(uint64_t *set, uint32_t ways, uint64_t ln, int *hit) {
  return ways == 16 ? lookup(set, 16, ln, hit) : ways == 8 ? lookup(set, 8, ln, hit) : lookup(set, 4, ln, hit);
}

__attribute__((target("avx2"))) static uint32_t victim16_avx2(const uint64_t *set) { return victim(set, 16); }
__attribute__((target("avx2"))) static uint32_t victim8_avx2(const uint64_t *set) { return victim(set, 8); }
__attribute__((target("avx2"))) static uint32_t victim4_avx2(const uint64_t *set) { return victim(set, 4); }

/* level_way on a set of `ways` (4, 8 or 16): the way holding ln, else the
 * victim, from one load of the set (not find_avx2 then victim: two calls,
 * the set loaded twice). */
__attribute__((target("avx2"), always_inline)) static inline uint32_t way_of(const uint64_t *set, uint32_t ways,
                                                                               uint64_t ln) {
  __m256i tag = _mm256_set1_epi64x((long long)CL_TAG_MASK), key = _mm256_set1_epi64x((long long)(ln + 1));
  __m256i zero = _mm256_setzero_si256(), last = _mm256_set1_epi64x((long long)(ways - 1));
  uint64_t h = 0, e = 0, lru = 0;
#pragma GCC unroll 4
  for (uint32_t i = 0; i < ways; i += 4) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(set + i)), t = _mm256_and_si256(v, tag);
    h |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(t, key))) << i;
    e |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(t, zero))) << i;
    lru |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_srli_epi64(v, CL_RANK), last)))
           << i;
  }
  return (uint32_t)__builtin_ctzll(h ? h : e ? e : lru);
}

__attribute__((target("avx2"))) static uint32_t way_avx2(const uint64_t *set, uint32_t ways, uint64_t ln) {
  return ways == 16 ? way_of(set, 16, ln) : ways == 8 ? way_of(set, 8, ln) : way_of(set, 4, ln);
}

/* The masks, as scan_loop gives them. */
static SetScan scan_avx2(const uint64_t *set, uint32_t ways, uint64_t ln) {
  SetScan s = {find_avx2(set, ways, ln), 0, 0};
  if (!s.hit) /* standing for both */
    s.empty = 1ull << (ways == 16 ? victim16_avx2(set) : ways == 8 ? victim8_avx2(set) : victim4_avx2(set));
  return s;
}
#endif

/* The masks, by loop (any ways; CacheLevel.scan 0). */
static SetScan scan_loop(const uint64_t *set, uint32_t ways, uint64_t ln) {
  SetScan s = {0, 0, 0};
  for (uint32_t w = 0; w < ways; w++) {
    uint64_t t = cl_tag(set[w]);
    s.hit |= (uint64_t)(t == ln + 1) << w;
    s.empty |= (uint64_t)(t == 0) << w;
    s.lru |= (uint64_t)(set[w] >> CL_RANK == ways - 1) << w;
  }
  if (s.hit) s.empty = s.lru = 0; /* as scan_avx2: they matter on a miss only */
  return s;
}

#endif
