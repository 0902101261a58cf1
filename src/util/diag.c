#include "util/diag.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int wm_verr(WmErr *e, int code, const char *fmt, va_list ap) {
  if (e) {
    e->code = code;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  }
  return -1;
}

int wm_err(WmErr *e, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wm_verr(e, code, fmt, ap);
  va_end(ap);
  return -1;
}

void wm_source_line(const char *src, int line, char *buf, size_t bufsz) {
  buf[0] = '\0';
  if (!src || line < 1 || bufsz == 0) return;
  const char *p = src;
  for (int l = 1; l < line && *p; l++) {
    const char *nl = strchr(p, '\n');
    if (!nl) return;
    p = nl + 1;
  }
  size_t n = strcspn(p, "\n");
  if (n >= bufsz) n = bufsz - 1;
  memcpy(buf, p, n);
  buf[n] = '\0';
}

int wm_err_at(WmErr *e, int code, const char *file, const char *src,
              int line, int col, const char *fmt, ...) {
  if (!e) return -1;
  char what[1024], text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  wm_source_line(src, line, text, sizeof text);
  /* Tabs would misplace the caret: show them as single spaces. */
  for (char *t = text; *t; t++)
    if (*t == '\t') *t = ' ';
  char caret[512] = "";
  if (col >= 1 && (size_t)col < sizeof caret - 1) {
    memset(caret, ' ', (size_t)col - 1);
    caret[col - 1] = '^';
    caret[col] = '\0';
  }
  if (text[0])
    return wm_err(e, code, "%s:%d:%d: %s\n  %s\n  %s", file, line, col, what, text, caret);
  return wm_err(e, code, "%s:%d:%d: %s", file, line, col, what);
}

static void *check(void *p, size_t n) {
  if (!p && n) {
    fprintf(stderr, "warpmem: out of memory (%zu bytes)\n", n);
    exit(70);
  }
  return p;
}

void *wm_xmalloc(size_t n) { return check(malloc(n ? n : 1), n); }
void *wm_xcalloc(size_t n, size_t size) { return check(calloc(n ? n : 1, size ? size : 1), n * size); }
void *wm_xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n); }
void wm_advise_huge(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  uintptr_t lo = ((uintptr_t)p + huge - 1) / huge * huge, hi = ((uintptr_t)p + n) / huge * huge;
  if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)p, (void)n;
#endif
}

void *wm_xaligned(size_t align, size_t n) {
  /* Tables of megabytes read at random (the caches' sets) take a TLB miss
   * per access on 4 KiB pages: ask for huge pages where the kernel gives
   * them on request (transparent_hugepage=madvise). */
  const size_t huge = (size_t)2 << 20;
  int big = n >= 2 * huge;
  if (big && align < huge) align = huge;
  n = (n + align - 1) / align * align; /* aligned_alloc wants a multiple */
  void *p = check(aligned_alloc(align, n ? n : align), n);
  if (big) wm_advise_huge(p, n);
  return p;
}
char *wm_xstrdup(const char *s) { return check(strdup(s), strlen(s) + 1); }

char *wm_xstrndup(const char *s, size_t n) {
  char *d = wm_xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

int wm_open_regular(const char *path, uint64_t max, WmErr *e) {
  /* O_NONBLOCK: opening a FIFO with no writer would wait forever */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return wm_err(e, WM_EIO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  const char *what = NULL;
  if (fstat(fd, &st)) what = strerror(errno);
  else if (S_ISDIR(st.st_mode)) what = "a directory, not a file";
  else if (S_ISFIFO(st.st_mode)) what = "a FIFO (named pipe), not a file: warpmem reads regular files only";
  else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) what = "a device, not a file: warpmem reads regular files only";
  else if (S_ISSOCK(st.st_mode)) what = "a socket, not a file: warpmem reads regular files only";
  else if (!S_ISREG(st.st_mode)) what = "not a regular file";
  if (what) {
    close(fd);
    return wm_err(e, WM_EIO, "%s: %s", path, what);
  }
  if ((uint64_t)st.st_size > max) {
    close(fd);
    return wm_err(e, WM_ELIMIT, "%s: %llu bytes, over the %llu MiB warpmem reads (docs/limits.md)", path,
                  (unsigned long long)st.st_size, (unsigned long long)(max >> 20));
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

char *wm_read_file(const char *path, size_t *len, WmErr *e) {
  int fd = wm_open_regular(path, WM_READ_MAX, e);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    close(fd);
    wm_err(e, WM_EIO, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = wm_xmalloc(cap);
  for (;;) {
    if (n + 1 >= cap) buf = wm_xrealloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    wm_err(e, WM_EIO, "%s: read error", path);
    return NULL;
  }
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

int wm_err_print(const WmErr *e) {
  fprintf(stderr, "warpmem: %s\n", e->msg);
  return e->code == WM_EUSAGE ? 2 : 1;
}
