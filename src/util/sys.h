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

#endif
