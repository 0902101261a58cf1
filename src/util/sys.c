/* sys.c - the host: a monotonic clock, a PATH search. */
#include "util/sys.h"

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
