/* cache_pool.c - the caches' large tables, kept from one launch for the
 * next.
 *
 * Every launch sets up an L2 of some 15 MB of tables (its ways and write
 * state) and an L1 per SM, and frees them at its end.  Fresh from the
 * kernel, their pages fault in one at a time while the serial L2 stage
 * touches them (about 3,000 faults a launch: the seed benchmark's 38
 * launches spent 0.1-0.2 s of wall time, nothing else running, there).  A
 * freed table waits here instead, and the next table of the same size
 * takes it: its pages are resident, and the caller clears it as it would a
 * fresh one.  At most POOL_SLOTS tables and POOL_BYTES are kept.
 */
#include "mem/cache.h"

#include <pthread.h>
#include <stdlib.h>

#include "util/diag.h"

#define POOL_SLOTS 8
#define POOL_BYTES (256u << 20)

static struct {
  pthread_mutex_t lock;
  void *p[POOL_SLOTS];
  size_t bytes[POOL_SLOTS];
  int n;
  size_t total;
} pool = {PTHREAD_MUTEX_INITIALIZER, {0}, {0}, 0, 0};

/* Takes slot i's table out of the pool (the lock held). */
static void *remove_slot(int i) {
  void *p = pool.p[i];
  pool.total -= pool.bytes[i];
  for (int j = i; j + 1 < pool.n; j++) pool.p[j] = pool.p[j + 1], pool.bytes[j] = pool.bytes[j + 1];
  pool.n--;
  return p;
}

void *cache_table_take(size_t bytes) {
  void *p = NULL;
  pthread_mutex_lock(&pool.lock);
  for (int i = pool.n - 1; i >= 0; i--) /* the most recent first: likeliest in the host's caches */
    if (pool.bytes[i] == bytes) {
      p = remove_slot(i);
      break;
    }
  pthread_mutex_unlock(&pool.lock);
  return p ? p : wm_xaligned(64, bytes);
}

void cache_table_give(void *p, size_t bytes) {
  if (!p) return;
  pthread_mutex_lock(&pool.lock);
  while (pool.n && (pool.n == POOL_SLOTS || pool.total + bytes > POOL_BYTES)) /* the oldest goes */
    free(remove_slot(0));
  if (bytes <= POOL_BYTES) {
    pool.p[pool.n] = p;
    pool.bytes[pool.n++] = bytes;
    pool.total += bytes;
    p = NULL;
  }
  pthread_mutex_unlock(&pool.lock);
  free(p);
}

void cache_table_drain(void) {
  pthread_mutex_lock(&pool.lock);
  for (int i = 0; i < pool.n; i++) free(pool.p[i]);
  pool.n = 0;
  pool.total = 0;
  pthread_mutex_unlock(&pool.lock);
}
