/* spill.c - growing arrays that move to a temporary file past a size
 * (spill.h). */
#define _GNU_SOURCE /* mremap */
#include "util/spill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/diag.h"

/* Moves the array to a temporary file of `bytes` bytes mapped in memory,
 * or grows that file; 0, or -1 if the file cannot be made or grown. */
static int to_file(void **p, size_t old_bytes, size_t used_bytes, size_t bytes, int *file) {
  if (!*file) {
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/warpmem-spill-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    unlink(path);
    void *m = ftruncate(fd, (off_t)bytes) ? MAP_FAILED : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
      close(fd);
      return -1;
    }
    if (used_bytes) memcpy(m, *p, used_bytes);
    free(*p);
    *p = m;
    *file = fd + 1;
    return 0;
  }
  void *m = ftruncate(*file - 1, (off_t)bytes) ? MAP_FAILED : mremap(*p, old_bytes, bytes, MREMAP_MAYMOVE);
  if (m == MAP_FAILED) return -1;
  *p = m;
  return 0;
}

void wm_spill_reserve(void **p, size_t *cap, size_t n, size_t want, size_t elem, int *file) {
  if (want <= *cap) return;
  size_t c = *cap ? *cap : 1024;
  while (c < want) c *= 2;
  size_t bytes = c * elem;
  if ((bytes > WM_SPILL_BYTES || *file) && to_file(p, *cap * elem, n * elem, bytes, file) == 0) {
    *cap = c;
    return;
  }
  if (*file) { /* as out of memory (diag.c): nothing sensible is left to do */
    fprintf(stderr, "warpmem: cannot grow an array to %zu MiB in its temporary file (TMPDIR full?)\n", bytes >> 20);
    exit(70);
  }
  *p = wm_xrealloc(*p, bytes); /* no file to be had: the heap */
  *cap = c;
}

void wm_spill_free(void *p, size_t cap, size_t elem, int file) {
  if (file) {
    munmap(p, cap * elem);
    close(file - 1);
  } else {
    free(p);
  }
}
