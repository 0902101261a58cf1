#include "emu/gmem.h"
#include "ptx/ptx.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older glibc headers lack it */
#endif

/* Released buffers remembered for messages (GlobalMem.freed). */
#define GMEM_FREED_MAX 1024

/* Attempts to find a free range for a unified buffer before giving up. */
#define GMEM_MAP_TRIES 32

void gmem_init(GlobalMem *g, uint64_t limit) {
  memset(g, 0, sizeof *g);
  g->next = GMEM_BASE;
  g->limit = limit ? limit : GMEM_DEFAULT_LIMIT;
}

void gmem_init_unified(GlobalMem *g, uint64_t limit) {
  gmem_init(g, limit);
  g->unified = 1;
}

/* Bytes a buffer of `size` takes in the address space (its mapping). */
static uint64_t span(uint64_t size) { return (size ? size + GMEM_ALIGN - 1 : GMEM_ALIGN) / GMEM_ALIGN * GMEM_ALIGN; }

static void drop_data(const GlobalMem *g, GBuf *b) {
  if (b->adopted)
    ; /* the application's */
  else if (g->unified)
    munmap(b->data, span(b->size));
  else if (b->size >= GMEM_POOL_MIN)
    gpool_give(b->data, b->size);
  else
    free(b->data);
  b->data = NULL;
  free(b->line_time);
  b->line_time = NULL;
}

void gmem_free(GlobalMem *g) {
  for (int i = 0; i < g->n; i++) drop_data(g, &g->buf[i]);
  free(g->buf);
  free(g->tex);
  free(g->heap.grain);
  free(g->heap.free);
  free(g->freed);
  memset(g, 0, sizeof *g);
}

uint64_t gmem_add_tex(GlobalMem *g, const GTex *t) {
  if (g->ntex == g->tex_cap) {
    g->tex_cap = g->tex_cap ? g->tex_cap * 2 : 8;
    g->tex = wm_xrealloc(g->tex, (size_t)g->tex_cap * sizeof *g->tex);
  }
  g->tex[g->ntex] = *t;
  return GTEX_HANDLE0 + (uint64_t)g->ntex++;
}

const GTex *gmem_tex(const GlobalMem *g, uint64_t handle) {
  uint64_t i = handle - GTEX_HANDLE0;
  return handle >= GTEX_HANDLE0 && i < (uint64_t)g->ntex ? &g->tex[i] : NULL;
}

/* A unified buffer's host copy: anonymous zeroed pages mapped exactly at
 * g->next, never over an existing mapping (MAP_FIXED_NOREPLACE).  When the
 * range is taken (by the application's own mappings, a library), g->next
 * moves past it, in growing steps, and tries again.  NULL with a message. */
static uint8_t *map_at_next(GlobalMem *g, uint64_t size, const char *name, WmErr *e) {
  uint64_t len = span(size), step = len + GMEM_ALIGN;
  long page = sysconf(_SC_PAGESIZE);
  if (page > 0 && GMEM_ALIGN % (uint64_t)page)
    return wm_err(e, WM_EUNSUP, "%s: unified memory needs host pages of at most %llu bytes (this host's: %ld)", name,
                  (unsigned long long)GMEM_ALIGN, page), NULL;
  for (int t = 0; t < GMEM_MAP_TRIES; t++, step *= 2) {
    void *want = (void *)(uintptr_t)g->next;
    void *p = mmap(want, (size_t)len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == want) return p;
    if (p != MAP_FAILED) munmap(p, (size_t)len); /* a kernel without NOREPLACE took it as a hint */
    else if (errno != EEXIST)
      return wm_err(e, WM_ELIMIT, "%s: cannot map %llu bytes at 0x%" PRIx64 ": %s", name, (unsigned long long)len,
                    g->next, strerror(errno)), NULL;
    g->next += step;
  }
  return wm_err(e, WM_ELIMIT, "%s: no free range of %llu bytes for unified memory after %d tries (the last at "
                "0x%" PRIx64 "): the host's address space is taken there", name, (unsigned long long)len,
                GMEM_MAP_TRIES, g->next), NULL;
}

/* Room in g->buf for one more buffer. */
static void room_for_one(GlobalMem *g) {
  if (g->n == g->cap) {
    g->cap = g->cap ? g->cap * 2 : 8;
    g->buf = wm_xrealloc(g->buf, (size_t)g->cap * sizeof *g->buf);
  }
}

/* The host copy of a new buffer: at its device address (unified), from
 * the pool (large), else calloc'd.  zero 0: the caller writes every byte. */
static uint8_t *host_copy(GlobalMem *g, uint64_t size, const char *name, int zero, WmErr *e) {
  uint8_t *data;
  if (g->unified) {
    if (!(data = map_at_next(g, size, name, e))) return NULL;
    if (size >= GMEM_POOL_MIN) gpool_populate(data, size);
    return data;
  }
  data = size >= GMEM_POOL_MIN ? gpool_take(size, zero) : calloc(size ? size : 1, 1);
  if (!data)
    return wm_err(e, WM_ELIMIT, "%s: cannot allocate %llu bytes on the host", name, (unsigned long long)size), NULL;
  return data;
}

static void shift_indices(GlobalMem *g, int i, int delta);

static int alloc_buffer(GlobalMem *g, uint64_t size, const char *name, uint8_t type, uint64_t count, int zero,
                        WmErr *e) {
  if (size > g->limit || g->total + size > g->limit)
    return wm_err(e, WM_ELIMIT,
                  "%s: %llu bytes would take the run to %llu bytes of global memory, over the "
                  "limit of %llu (raise it with --mem-limit)",
                  name, (unsigned long long)size, (unsigned long long)(g->total + size),
                  (unsigned long long)g->limit);
  uint8_t *data = host_copy(g, size, name, zero, e);
  if (!data) return -1;
  room_for_one(g);
  /* in address order (gmem_find searches by halves): before host memory
   * adopted at higher addresses (cudaHostRegister of an mmap'd buffer) */
  int i = g->n;
  while (i > 0 && g->buf[i - 1].addr > g->next) i--;
  memmove(&g->buf[i + 1], &g->buf[i], (size_t)(g->n - i) * sizeof *g->buf);
  if (i < g->n) shift_indices(g, i, +1);
  GBuf *b = &g->buf[i];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", name);
  b->addr = g->next;
  b->size = size;
  b->data = data;
  b->type = type;
  b->count = count;
  g->next += (size + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN + GMEM_ALIGN;
  g->total += size;
  g->n++;
  return i;
}

int gmem_alloc(GlobalMem *g, uint64_t size, const char *name, uint8_t type, uint64_t count, WmErr *e) {
  return alloc_buffer(g, size, name, type, count, 1, e);
}

int gmem_alloc_filled(GlobalMem *g, uint64_t size, const char *name, uint8_t type, uint64_t count, WmErr *e) {
  return alloc_buffer(g, size, name, type, count, 0, e);
}

GBuf *gmem_find(GlobalMem *g, uint64_t addr, uint64_t len) {
  int lo = 0, hi = g->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    GBuf *b = &g->buf[mid];
    if (addr < b->addr)
      hi = mid - 1;
    else if (addr >= b->addr + b->size)
      lo = mid + 1;
    else
      return addr + len <= b->addr + b->size ? b : NULL;
  }
  return NULL;
}

const GBuf *gmem_nearest(const GlobalMem *g, uint64_t addr) {
  const GBuf *best = NULL;
  uint64_t bestd = UINT64_MAX;
  for (int i = 0; i < g->n; i++) {
    const GBuf *b = &g->buf[i];
    uint64_t d = addr < b->addr ? b->addr - addr
               : addr >= b->addr + b->size ? addr - (b->addr + b->size) + 1 : 0;
    if (d < bestd) bestd = d, best = b;
  }
  return best;
}

void gmem_relocate(GlobalMem *g, const PtxModule *m, uint8_t *const_mem, uint64_t gbase) {
  GBuf *gb = g && m->global_size ? gmem_find(g, gbase, m->global_size) : NULL;
  for (int i = 0; i < m->nrelocs; i++) {
    const PtxReloc *r = &m->relocs[i];
    uint8_t *p = r->space == PTX_S_GLOBAL ? (gb ? gb->data + r->at : NULL)
                 : const_mem && r->at + 8 <= m->const_size ? const_mem + r->at : NULL;
    uint64_t v;
    if (!p) continue;
    memcpy(&v, p, 8);
    v += gbase;
    memcpy(p, &v, 8);
  }
}

int gmem_module_segment(GlobalMem *g, const PtxModule *m, const uint8_t *init, uint8_t *const_mem, uint64_t *base,
                        WmErr *e) {
  *base = 0;
  if (m->global_size) {
    int gi = gmem_alloc(g, m->global_size, "module __device__ variables", PTX_T_B8, m->global_size, e);
    if (gi < 0) return -1;
    *base = g->buf[gi].addr;
    if (init || m->global_init) memcpy(g->buf[gi].data, init ? init : m->global_init, m->global_size);
  }
  gmem_relocate(g, m, const_mem, *base);
  return 0;
}

/* The message of a release that names no buffer's start. */
static int bad_release(const GlobalMem *g, uint64_t addr, WmErr *e) {
  const GBuf *b = gmem_nearest(g, addr);
  if (!b) return wm_err(e, WM_EUSAGE, "cannot free 0x%" PRIx64 ": no device memory is allocated", addr);
  if (addr >= b->addr && addr < b->addr + b->size)
    return wm_err(e, WM_EUSAGE, "cannot free 0x%" PRIx64 ": it is %" PRIu64 " bytes into buffer %s (0x%" PRIx64
                  ", %" PRIu64 " bytes); free takes the address the allocation returned", addr, addr - b->addr,
                  b->name, b->addr, b->size);
  return wm_err(e, WM_EUSAGE, "cannot free 0x%" PRIx64 ": no buffer starts there (the nearest is %s at 0x%" PRIx64
                ", %" PRIu64 " bytes)", addr, b->name, b->addr, b->size);
}

/* Every stored buffer index from i on moves by delta (a buffer inserted
 * at i: +1; buffer i removed: -1, after release_texels). */
static void shift_indices(GlobalMem *g, int i, int delta) {
  for (int t = 0; t < g->ntex; t++)
    if (g->tex[t].buf >= i) g->tex[t].buf += delta;
  if (g->heap.size && g->heap.buf >= i) g->heap.buf += delta;
}

/* Buffer i goes: texture objects on it keep their handle but lose their
 * texels (GTex.buf -1), and the indices above it move down one. */
static void renumber(GlobalMem *g, int i) {
  for (int t = 0; t < g->ntex; t++)
    if (g->tex[t].buf == i) g->tex[t].buf = -1;
  shift_indices(g, i + 1, -1);
}

int gmem_adopt(GlobalMem *g, uint64_t addr, uint64_t size, const char *name, WmErr *e) {
  if (!addr || !size || addr + size < addr)
    return wm_err(e, WM_EUSAGE, "%s: no memory to register at 0x%" PRIx64 " (%" PRIu64 " bytes)", name, addr, size);
  int i = 0;
  while (i < g->n && g->buf[i].addr < addr) i++;
  const GBuf *before = i ? &g->buf[i - 1] : NULL, *after = i < g->n ? &g->buf[i] : NULL;
  if ((before && before->addr + before->size > addr) || (after && addr + size > after->addr))
    return wm_err(e, WM_EUSAGE, "%s: [0x%" PRIx64 ", +%" PRIu64 ") overlaps %s", name, addr, size,
                  before && before->addr + before->size > addr ? before->name : after->name);
  room_for_one(g);
  memmove(&g->buf[i + 1], &g->buf[i], (size_t)(g->n - i) * sizeof *g->buf);
  g->n++;
  shift_indices(g, i, +1);
  GBuf *b = &g->buf[i];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", name);
  b->addr = addr, b->size = size, b->data = (uint8_t *)(uintptr_t)addr, b->adopted = 1;
  b->type = PTX_T_B8, b->count = size;
  return i;
}

int gmem_release(GlobalMem *g, uint64_t addr, WmErr *e) {
  if (!addr) return 0; /* cudaFree(NULL) does nothing */
  int lo = 0, hi = g->n - 1, i = -1;
  while (lo <= hi && i < 0) {
    int mid = (lo + hi) / 2;
    if (addr < g->buf[mid].addr) hi = mid - 1;
    else if (addr > g->buf[mid].addr) lo = mid + 1;
    else i = mid;
  }
  if (i < 0) return bad_release(g, addr, e);
  GBuf *b = &g->buf[i];
  if (g->heap.size && g->heap.buf == i)
    return wm_err(e, WM_EUSAGE, "cannot free 0x%" PRIx64 ": it is the device heap of malloc and new in kernels "
                  "(free it with free or delete in a kernel)", addr);
  if (!b->adopted) g->total -= b->size;
  drop_data(g, b);
  if (g->nfreed == GMEM_FREED_MAX) /* an application freeing in a loop: forget the oldest */
    memmove(g->freed, g->freed + 1, (size_t)--g->nfreed * sizeof *g->freed);
  if (g->nfreed == g->freed_cap) {
    g->freed_cap = g->freed_cap ? g->freed_cap * 2 : 8;
    g->freed = wm_xrealloc(g->freed, (size_t)g->freed_cap * sizeof *g->freed);
  }
  g->freed[g->nfreed++] = *b;
  renumber(g, i);
  memmove(b, b + 1, (size_t)(g->n - i - 1) * sizeof *b);
  g->n--;
  return 0;
}

const GBuf *gmem_freed(const GlobalMem *g, uint64_t addr) {
  for (int i = g->nfreed - 1; i >= 0; i--)
    if (addr >= g->freed[i].addr && addr - g->freed[i].addr < (g->freed[i].size ? g->freed[i].size : 1))
      return &g->freed[i];
  return NULL;
}
