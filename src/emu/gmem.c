#include "emu/gmem.h"
#include "ptx/ptx.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void gmem_init(GlobalMem *g, uint64_t limit) {
  memset(g, 0, sizeof *g);
  g->next = GMEM_BASE;
  g->limit = limit ? limit : GMEM_DEFAULT_LIMIT;
}

void gmem_free(GlobalMem *g) {
  for (int i = 0; i < g->n; i++) free(g->buf[i].data);
  free(g->buf);
  free(g->tex);
  free(g->heap.grain);
  free(g->heap.free);
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

int gmem_alloc(GlobalMem *g, uint64_t size, const char *name, uint8_t type,
               uint64_t count, WmErr *e) {
  if (size > g->limit || g->total + size > g->limit)
    return wm_err(e, WM_ELIMIT,
                  "%s: %llu bytes would take the run to %llu bytes of global memory, over the "
                  "limit of %llu (raise it with --mem-limit)",
                  name, (unsigned long long)size, (unsigned long long)(g->total + size),
                  (unsigned long long)g->limit);
  uint8_t *data = calloc(size ? size : 1, 1);
  if (!data)
    return wm_err(e, WM_ELIMIT, "%s: cannot allocate %llu bytes on the host", name,
                  (unsigned long long)size);
  if (g->n == g->cap) {
    g->cap = g->cap ? g->cap * 2 : 8;
    g->buf = wm_xrealloc(g->buf, (size_t)g->cap * sizeof *g->buf);
  }
  GBuf *b = &g->buf[g->n];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", name);
  b->addr = g->next;
  b->size = size;
  b->data = data;
  b->type = type;
  b->count = count;
  g->next += (size + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN + GMEM_ALIGN;
  g->total += size;
  return g->n++;
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
  GBuf *gb = m->global_size ? gmem_find(g, gbase, m->global_size) : NULL;
  for (int i = 0; i < m->nrelocs; i++) {
    const PtxReloc *r = &m->relocs[i];
    uint8_t *p = r->space == PTX_S_GLOBAL ? (gb ? gb->data + r->at : NULL)
                 : r->at + 8 <= m->const_size ? const_mem + r->at : NULL;
    uint64_t v;
    if (!p) continue;
    memcpy(&v, p, 8);
    v += gbase;
    memcpy(p, &v, 8);
  }
}
