/* gmem_pool.c - the host copies of large buffers: made resident before a
 * kernel runs, and kept for the next launch when freed.
 *
 * A file of launches binds and frees the same large buffers again and
 * again (the seed benchmark: 3.1 GB over 38 launches).  Fresh pages cost
 * the kernel a fault, a clear and a cgroup charge each, and munmap as much
 * again: 0.8 s of the benchmark's 9.  A freed block waits in a small pool
 * instead, and a later buffer takes it (whole, split or grown: take_kept),
 * cleared in user space over the CPUs (or not at all when the caller
 * writes every byte).
 * The pool holds at most GPOOL_BYTES; a block it cannot keep is unmapped.
 */
#define _GNU_SOURCE /* mremap */
#include "emu/gmem.h"
#include "util/sys.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older glibc headers lack it */
#endif

#define GPOOL_SLOTS 32
#define GPOOL_BYTES (2ull << 30) /* most bytes kept between launches */
#define GPOOL_SPLIT (64ull << 20) /* blocks from this size are cleared by every CPU */

typedef struct Block {
  uint8_t *p;
  uint64_t len; /* bytes mapped: a whole number of pages */
} Block;

static struct {
  pthread_mutex_t lock;
  Block b[GPOOL_SLOTS];
  int n;
  uint64_t bytes;
} pool = {PTHREAD_MUTEX_INITIALIZER, {{0, 0}}, 0, 0};

static uint64_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (uint64_t)p : 4096;
}

static uint64_t round_to_pages(uint64_t size) {
  uint64_t pg = page_size();
  return (size + pg - 1) / pg * pg;
}

/* Why populate fresh pages at all: a kernel's first write to a page that
 * still maps the shared zero page must flush that page from the TLB of
 * every CPU running one of the simulator's threads (an IPI each, a VM exit
 * in a virtual machine: a fifth of inc1's time).  The kernel clears about
 * 3 GB/s on one thread here, so large blocks are split over the CPUs
 * (0.31 s a GiB on one, 0.17 on two).  Where the kernel cannot populate
 * (before Linux 5.14), nothing changes.  Kept pages are cleared in user
 * space instead (memset). */
typedef struct Job {
  uint8_t *p;
  int zero; /* 1: memset (kept pages), 0: MADV_POPULATE_WRITE (fresh ones) */
} Job;

static void do_range(void *ctx, uint64_t lo, uint64_t hi) {
  const Job *j = ctx;
  if (j->zero) memset(j->p + lo, 0, (size_t)(hi - lo));
  else (void)madvise(j->p + lo, (size_t)(hi - lo), MADV_POPULATE_WRITE);
}

static void over_cpus(uint8_t *p, uint64_t len, int zero) {
  Job j = {p, zero};
  wm_split(len, GPOOL_SPLIT / 2, page_size(), do_range, &j);
}

/* Takes pool slot i out (the caller holds the lock). */
static Block take_slot(int i) {
  Block b = pool.b[i];
  pool.bytes -= b.len;
  pool.b[i] = pool.b[--pool.n];
  return b;
}

/* A kept block for `len` bytes, taken out of the pool, its first *kept
 * bytes the kept pages (the rest, if any, fresh and not yet populated);
 * NULL if the pool is empty.  In order of preference:
 * - the block that fits with the least to spare, at most an eighth (its
 *   spare pages go);
 * - else the smallest larger block, split: its head serves, its tail stays
 *   kept (the seed benchmark's 268 MB buffer of inc1 from the 537 MB ones
 *   of stride_copy#32, its 17 MB ones of offset_copy from the 134 MB ones);
 * - else the largest block, grown to len by mremap (stride_copy#2 to #32
 *   double their buffers from launch to launch: only the new half faults
 *   in fresh).
 * Each of the three saves the kernel a fault and a clear of every page it
 * keeps. */
static uint8_t *take_kept(uint64_t len, uint64_t *kept) {
  pthread_mutex_lock(&pool.lock);
  int fit = -1, split = -1, grow = -1;
  for (int i = 0; i < pool.n; i++) {
    uint64_t n = pool.b[i].len;
    if (n >= len && n - len <= len / 8 && (fit < 0 || n < pool.b[fit].len)) fit = i;
    if (n > len && (split < 0 || n < pool.b[split].len)) split = i;
    if (n < len && (grow < 0 || n > pool.b[grow].len)) grow = i;
  }
  uint8_t *p = NULL;
  *kept = len;
  if (fit >= 0) {
    Block b = take_slot(fit);
    p = b.p;
    if (b.len > len) munmap(p + len, (size_t)(b.len - len)); /* page-aligned tail */
  } else if (split >= 0) {
    Block b = take_slot(split);
    p = b.p;
    pool.b[pool.n++] = (Block){p + len, b.len - len}; /* a slot was just freed */
    pool.bytes += b.len - len;
  } else if (grow >= 0) {
    Block b = take_slot(grow);
    void *q = mremap(b.p, (size_t)b.len, (size_t)len, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) munmap(b.p, (size_t)b.len);
    else p = q, *kept = b.len;
  }
  pthread_mutex_unlock(&pool.lock);
  return p;
}

uint8_t *gpool_take(uint64_t size, int zero) {
  uint64_t len = round_to_pages(size ? size : 1), kept;
  uint8_t *p = take_kept(len, &kept);
  if (p) {
    if (zero) over_cpus(p, kept, 1);
    if (kept < len) over_cpus(p + kept, len - kept, 0);
    return p;
  }
  p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  over_cpus(p, len, 0);
  return p;
}

void gpool_give(uint8_t *p, uint64_t size) {
  if (!p) return;
  uint64_t len = round_to_pages(size ? size : 1);
  pthread_mutex_lock(&pool.lock);
  /* Room: the oldest blocks go first (they fit the launches of long ago). */
  while (pool.n && (pool.n == GPOOL_SLOTS || pool.bytes + len > GPOOL_BYTES)) {
    munmap(pool.b[0].p, (size_t)pool.b[0].len);
    pool.bytes -= pool.b[0].len;
    memmove(&pool.b[0], &pool.b[1], (size_t)--pool.n * sizeof pool.b[0]);
  }
  if (len <= GPOOL_BYTES) {
    pool.b[pool.n++] = (Block){p, len};
    pool.bytes += len;
    p = NULL;
  }
  pthread_mutex_unlock(&pool.lock);
  if (p) munmap(p, (size_t)len);
}

void gpool_drain(void) {
  pthread_mutex_lock(&pool.lock);
  for (int i = 0; i < pool.n; i++) munmap(pool.b[i].p, (size_t)pool.b[i].len);
  pool.n = 0;
  pool.bytes = 0;
  pthread_mutex_unlock(&pool.lock);
}

uint64_t gpool_kept(void) {
  pthread_mutex_lock(&pool.lock);
  uint64_t b = pool.bytes;
  pthread_mutex_unlock(&pool.lock);
  return b;
}

void gpool_populate(void *data, uint64_t size) {
  uint64_t pg = page_size();
  uintptr_t lo = ((uintptr_t)data + pg - 1) / pg * pg, hi = ((uintptr_t)data + size) / pg * pg;
  if (hi > lo) over_cpus((uint8_t *)lo, hi - lo, 0);
}
