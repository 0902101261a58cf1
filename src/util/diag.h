/* diag.h - errors that name where they happened.
 *
 * Library code never prints or exits: it fills a WmErr and returns -1 (or
 * NULL).  Only the CLI prints err.msg and chooses the exit status.  A message
 * may span several lines (a located error shows the source line and a caret).
 */
#ifndef WM_DIAG_H
#define WM_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum {
  WM_OK = 0,
  WM_EUSAGE,    /* bad command line or launch spec */
  WM_EIO,       /* file cannot be read or written */
  WM_EPARSE,    /* malformed PTX */
  WM_EUNSUP,    /* PTX we do not implement */
  WM_EARGS,     /* kernel arguments do not match the .param list */
  WM_ELIMIT,    /* launch or allocation over a limit */
  WM_EFAULT,    /* emulated kernel: bad address, misaligned access */
  WM_EARITH,    /* emulated kernel: integer division by zero */
  WM_EDEADLOCK, /* emulated kernel: barrier that can never complete */
  WM_ETOOL,     /* external tool (nvcc) missing or failed */
  WM_EGPU,      /* CUDA driver or cuBLAS failed */
  WM_ENOGPU,    /* no GPU: the driver, a device or cuBLAS is missing */
  WM_EWATCHDOG, /* emulated kernel: over --max-instructions or --timeout */
  WM_EASSERT,   /* emulated kernel: a device-side assert failed */
};

/* 1 if code is a fault of the emulated kernel itself (what it did: an
 * address, an assert, a division, a barrier), not of its launch or the
 * tool: what CUDA reports as a kernel's error. */
static inline int wm_kernel_fault(int code) {
  return code == WM_EFAULT || code == WM_EASSERT || code == WM_EARITH || code == WM_EDEADLOCK;
}

typedef struct WmErr {
  int code;        /* one of WM_E*, WM_OK when no error */
  char msg[2048];  /* human-readable, may hold several lines, no trailing newline */
} WmErr;

/* Formats msg; returns -1 so callers can `return wm_err(...)`. */
int wm_err(WmErr *e, int code, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
int wm_verr(WmErr *e, int code, const char *fmt, va_list ap);

/* Prints e on stderr as a command's message ("warpmem: ...") and returns
 * the exit status it calls for: 2 for usage errors, 1 for the others.  For
 * the layers that run a whole command (cli, lab); the rest only fill e. */
int wm_err_print(const WmErr *e);

/* A chibicc-style located error:
 *   FILE:LINE:COL: MESSAGE
 *     <the source line>
 *     ^
 * `src` is the whole source text (the line is found by number), col is 1-based
 * (0: no caret).  Returns -1. */
int wm_err_at(WmErr *e, int code, const char *file, const char *src,
              int line, int col, const char *fmt, ...)
  __attribute__((format(printf, 7, 8)));

/* Copies line `line` (1-based) of src into buf (without newline). */
void wm_source_line(const char *src, int line, char *buf, size_t bufsz);

/* Allocation that cannot fail quietly: aborts with a message on OOM.
 * The caller frees the result with free(). */
void *wm_xmalloc(size_t n);
void *wm_xcalloc(size_t n, size_t size);
void *wm_xrealloc(void *p, size_t n);
void *wm_xaligned(size_t align, size_t n); /* free() it; align a power of two */
/* Asks for huge pages for the 2 MiB-aligned part of [p, p + n), where the
 * kernel gives them on request: a large table or buffer then costs a page
 * fault (and, when the first write replaces the zero page, a TLB flush of
 * every thread's CPU) per 2 MiB instead of per 4 KiB. */
void wm_advise_huge(void *p, size_t n);
char *wm_xstrdup(const char *s);
char *wm_xstrndup(const char *s, size_t n);

/* Reads a whole file into a NUL-terminated malloc'd buffer (caller frees).
 * Returns NULL and fills e on failure. */
char *wm_read_file(const char *path, size_t *len, WmErr *e);
/* Opens path for reading without blocking (a FIFO with no writer would
 * wait forever) and requires a regular file of at most max bytes: a
 * directory, FIFO, device or socket is an error naming what it is.
 * Returns the descriptor (blocking again), or -1 with a message. */
int wm_open_regular(const char *path, uint64_t max, WmErr *e);
/* The largest file wm_read_file reads (docs/limits.md): 1 GiB. */
#define WM_READ_MAX (1ull << 30)

#endif
