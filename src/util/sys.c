/* sys.c - the host: a monotonic clock, a PATH search. */
#include "util/sys.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double wm_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int is_exec(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int wm_find_program(const char *prog, char *buf, size_t n) {
  const char *p = getenv("PATH");
  if (!p) return -1;
  for (;;) {
    size_t len = strcspn(p, ":");
    if (len > 0 && (size_t)snprintf(buf, n, "%.*s/%s", (int)len, p, prog) < n && is_exec(buf)) return 0;
    if (!p[len]) return -1;
    p += len + 1;
  }
}

int wm_ends_with(const char *s, const char *suffix) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

typedef struct Part {
  void (*fn)(void *, uint64_t, uint64_t);
  void *ctx;
  uint64_t lo, hi;
  pthread_t th;
  int started;
} Part;

static void *run_part(void *arg) {
  Part *p = arg;
  if (p->hi > p->lo) p->fn(p->ctx, p->lo, p->hi);
  return NULL;
}

void wm_split(uint64_t n, uint64_t grain, uint64_t align, void (*fn)(void *ctx, uint64_t lo, uint64_t hi), void *ctx) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int parts = cpus > 8 ? 8 : cpus < 1 ? 1 : (int)cpus;
  if (align < 1) align = 1;
  if (n < 2 * grain || parts == 1) {
    if (n) fn(ctx, 0, n);
    return;
  }
  Part p[8];
  uint64_t step = n / (uint64_t)parts / align * align;
  for (int i = 0; i < parts; i++) {
    p[i] = (Part){fn, ctx, (uint64_t)i * step, i == parts - 1 ? n : (uint64_t)(i + 1) * step, 0, 0};
    if (i) p[i].started = pthread_create(&p[i].th, NULL, run_part, &p[i]) == 0;
  }
  run_part(&p[0]);
  for (int i = 1; i < parts; i++) {
    if (p[i].started) pthread_join(p[i].th, NULL);
    else run_part(&p[i]); /* no thread to be had: this one does it */
  }
}
