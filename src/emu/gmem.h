/* gmem.h - the emulated device's global memory: named buffers at fixed
 * addresses, as cuMemAlloc would hand them out.
 *
 * Buffers are 4 KiB aligned (cudaMalloc gives at least 256 bytes; sector
 * counts only depend on alignment to 32 and 128), start at GMEM_BASE and
 * never overlap; a gap of one page after each buffer makes small overruns
 * land outside every buffer, so they are caught as faults.
 */
#ifndef WM_GMEM_H
#define WM_GMEM_H

#include <stdint.h>

#include "util/diag.h"

#define GMEM_BASE 0x0000700000000000ull
#define GMEM_ALIGN 4096ull
#define GMEM_DEFAULT_LIMIT (16ull << 30) /* bytes of buffers a run may allocate */

typedef struct GBuf {
  char name[64];   /* "arg0", "param o", "global g_table": for messages */
  uint64_t addr;   /* device address */
  uint64_t size;   /* bytes */
  uint8_t *data;   /* host copy, size bytes (owned) */
  uint8_t type;    /* PtxType of the elements, for --dump and inits */
  uint64_t count;  /* elements */
} GBuf;

typedef struct GlobalMem {
  GBuf *buf;       /* sorted by addr */
  int n, cap;
  uint64_t next;   /* next free address */
  uint64_t total;  /* bytes allocated */
  uint64_t limit;  /* most bytes allowed */
} GlobalMem;

void gmem_init(GlobalMem *g, uint64_t limit);
void gmem_free(GlobalMem *g);

/* Allocates `size` zeroed bytes; returns the buffer's index or -1 (with a
 * message naming `name` and the limit). */
int gmem_alloc(GlobalMem *g, uint64_t size, const char *name, uint8_t type,
               uint64_t count, WmErr *e);

/* The buffer holding [addr, addr+len), or NULL. */
GBuf *gmem_find(GlobalMem *g, uint64_t addr, uint64_t len);

/* The buffer nearest to addr (for "missed buffer X by N bytes"), or NULL. */
const GBuf *gmem_nearest(const GlobalMem *g, uint64_t addr);

#endif
