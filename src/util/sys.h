/* sys.h - what warpmem asks of the host: a clock, programs on PATH. */
#ifndef WM_SYS_H
#define WM_SYS_H

#include <stddef.h>

/* Seconds on a monotonic clock (for durations only). */
double wm_now(void);

/* Finds an executable `prog` in the folders of $PATH; writes its path into
 * buf (n bytes).  Returns 0, or -1 if there is none (buf then undefined). */
int wm_find_program(const char *prog, char *buf, size_t n);

/* Whether s ends with suffix. */
int wm_ends_with(const char *s, const char *suffix);

/* Runs fn over [0, n) split into contiguous ranges, one per CPU (at most 8)
 * when n is at least 2 * grain, else fn(ctx, 0, n) on this thread; returns
 * when every range is done.  Each range starts at a multiple of `align`
 * (>= 1).  For work that is the same whatever the split: filling and
 * clearing large buffers. */
#include <stdint.h>
void wm_split(uint64_t n, uint64_t grain, uint64_t align, void (*fn)(void *ctx, uint64_t lo, uint64_t hi), void *ctx);

#endif
