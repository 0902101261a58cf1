/* spill.h - arrays that may grow past what memory should hold: on the heap
 * up to WM_SPILL_BYTES, beyond in a temporary file mapped in memory
 * (deleted as soon as it is made), whose pages the kernel writes out and
 * drops under memory pressure (spill.c).  The cache model's block traces
 * and L2 operations live in these, so a launch whose blocks touch
 * gigabytes of sectors needs disk, not memory. */
#ifndef WM_SPILL_H
#define WM_SPILL_H

#include <stddef.h>

#define WM_SPILL_BYTES ((size_t)64 << 20)

/* Makes *p (an array of *cap elements of `elem` bytes, the first n used)
 * hold at least `want`, moving it to a temporary file ($TMPDIR, else /tmp)
 * once it passes WM_SPILL_BYTES; *file is the file's descriptor + 1 (0:
 * the heap).  Exits with a message (status 70, as on running out of
 * memory) if neither can grow. */
void wm_spill_reserve(void **p, size_t *cap, size_t n, size_t want, size_t elem, int *file);
/* Frees what wm_spill_reserve made. */
void wm_spill_free(void *p, size_t cap, size_t elem, int file);

#endif
