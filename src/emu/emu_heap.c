/* emu_heap.c - the device heap: malloc, free, __nv_aligned_device_malloc,
 * and C++ new and delete (nvcc 12/13 compile them to calls of malloc,
 * __cuda_syscall_aligned_malloc and free), run by warpmem itself for the
 * calls of emu_ctrl.c.
 *
 * Notes:
 *  - One heap of EmuLaunch.heap_size bytes (cudaLimitMallocHeapSize: 8 MiB
 *    unless --heap-size says otherwise), a buffer of the GlobalMem named
 *    "device heap", made by the first launch whose kernel calls malloc or
 *    free.  Later launches on that GlobalMem share it (and its
 *    allocations), as kernels of one CUDA context do; --dump writes it.
 *  - Allocations are first fit from the lowest address, in whole 16-byte
 *    granules, so every pointer is 16-byte aligned as CUDA promises; an
 *    aligned malloc rounds its start up to the alignment.  malloc returns
 *    NULL when no free range holds the request (as CUDA's does), and
 *    malloc(0) a granule of its own, which free takes.  Fresh memory holds
 *    whatever the heap held there (zeros at first): malloc does not clear.
 *  - Determinism: allocation is serialized in block order.  The blocks of
 *    a kernel that calls malloc or free run on one host thread, in launch
 *    order (emu_run); a block's warps run in the emulator's fixed order and
 *    a warp's lanes call in lane order.  So every address, output and
 *    counter is the same whatever WARPMEM_THREADS says.  (Per-block arenas
 *    would keep the host threads, but a block could then not have more
 *    than its share of the heap, which CUDA allows.)  So blocks do not
 *    compete for the heap as blocks resident together on a GPU do: what a
 *    block frees before it ends is free again for the next.
 *  - Not modelled: the GPU allocator's own instructions and memory traffic;
 *    only the kernel's accesses to the memory it returns are counted (as
 *    global memory, like any buffer's).
 *  - Checks: free of a pointer that is not the start of a live allocation
 *    (never returned by malloc, inside an allocation, or freed already) is
 *    a located fault.  Loads and stores are checked against the heap's
 *    buffer as a whole: an access past the end of an allocation into free
 *    heap or into a neighbour is not caught (finer checking is out of
 *    scope); past the heap's end it is, as past any buffer.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"

/* The state of a granule (GHeap.grain). */
enum {
  GRAIN_FREE,  /* not allocated */
  GRAIN_START, /* the first granule of a live allocation */
  GRAIN_BODY,  /* a later granule of one */
  GRAIN_FREED  /* not allocated; a freed allocation started here (free
                  again: a double free) */
};

int emu_heap_used(const PtxKernel *k) {
  for (int c = 0; c < k->ncalls; c++) {
    int callee = k->calls[c].callee;
    if (callee == PTX_CALL_MALLOC || callee == PTX_CALL_FREE || callee == PTX_CALL_ALIGNED_MALLOC) return 1;
  }
  return 0;
}

int emu_heap_open(GlobalMem *g, uint64_t size, WmErr *e) {
  GHeap *h = &g->heap;
  if (h->size) return 0;
  size = size ? (size + GHEAP_GRAIN - 1) / GHEAP_GRAIN * GHEAP_GRAIN : GHEAP_DEFAULT_SIZE;
  int bi = gmem_alloc(g, size, "device heap", PTX_T_B8, size, e);
  if (bi < 0) return -1;
  h->size = size;
  h->buf = bi;
  h->grain = wm_xcalloc(size / GHEAP_GRAIN, 1);
  h->capfree = 16;
  h->free = wm_xmalloc((size_t)h->capfree * sizeof *h->free);
  h->free[0] = (GHeapRange){0, size / GHEAP_GRAIN};
  h->nfree = 1;
  return 0;
}

static void insert_range(GHeap *h, int i, GHeapRange r) {
  if (h->nfree == h->capfree) {
    h->capfree *= 2;
    h->free = wm_xrealloc(h->free, (size_t)h->capfree * sizeof *h->free);
  }
  memmove(&h->free[i + 1], &h->free[i], (size_t)(h->nfree - i) * sizeof *h->free);
  h->free[i] = r;
  h->nfree++;
}

static void remove_range(GHeap *h, int i) {
  memmove(&h->free[i], &h->free[i + 1], (size_t)(h->nfree - i - 1) * sizeof *h->free);
  h->nfree--;
}

/* Takes n granules starting at a multiple of a granules from the lowest
 * free range that holds them; returns the first granule, or UINT64_MAX. */
static uint64_t take_first_fit(GHeap *h, uint64_t n, uint64_t a) {
  for (int i = 0; i < h->nfree; i++) {
    GHeapRange r = h->free[i];
    uint64_t at = (r.at + a - 1) / a * a, end = r.at + r.n;
    if (at >= end || end - at < n) continue;
    uint64_t before = at - r.at, after = end - (at + n);
    if (before && after) {
      h->free[i].n = before;
      insert_range(h, i + 1, (GHeapRange){at + n, after});
    } else if (before) {
      h->free[i].n = before;
    } else if (after) {
      h->free[i] = (GHeapRange){at + n, after};
    } else {
      remove_range(h, i);
    }
    return at;
  }
  return UINT64_MAX;
}

/* Gives n granules from `at` back, merged with the free ranges beside. */
static void give_back(GHeap *h, uint64_t at, uint64_t n) {
  int lo = 0, hi = h->nfree; /* the first range after `at` */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (h->free[mid].at < at) lo = mid + 1;
    else hi = mid;
  }
  int join_prev = lo > 0 && h->free[lo - 1].at + h->free[lo - 1].n == at;
  int join_next = lo < h->nfree && at + n == h->free[lo].at;
  if (join_prev && join_next) {
    h->free[lo - 1].n += n + h->free[lo].n;
    remove_range(h, lo);
  } else if (join_prev) {
    h->free[lo - 1].n += n;
  } else if (join_next) {
    h->free[lo].at = at;
    h->free[lo].n += n;
  } else {
    insert_range(h, lo, (GHeapRange){at, n});
  }
}

uint64_t emu_heap_alloc(Block *b, uint64_t size, uint64_t align) {
  GlobalMem *g = b->l->gmem;
  GHeap *h = &g->heap;
  if (!h->size || size > h->size || align == 0 || (align & (align - 1)) || align > h->size) return 0;
  uint64_t n = size / GHEAP_GRAIN + (size % GHEAP_GRAIN != 0), a = align > GHEAP_GRAIN ? align / GHEAP_GRAIN : 1;
  if (n == 0) n = 1;
  uint64_t at = take_first_fit(h, n, a);
  if (at == UINT64_MAX) return 0;
  h->grain[at] = GRAIN_START;
  memset(h->grain + at + 1, GRAIN_BODY, (size_t)(n - 1));
  h->live += n * GHEAP_GRAIN;
  return g->buf[h->buf].addr + at * GHEAP_GRAIN;
}

/* The faults of a free that CUDA leaves undefined (the GPU may corrupt
 * its heap or stop the kernel): which allocation p misses, and how. */
static int bad_free(Block *b, const EmuInstr *x, int warp, int lane, uint64_t p) {
  GlobalMem *g = b->l->gmem;
  GHeap *h = &g->heap;
  uint64_t base = h->size ? g->buf[h->buf].addr : 0;
  if (!h->size || p < base || p >= base + h->size) {
    const GBuf *in = gmem_find(g, p, 1);
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "free of 0x%" PRIx64 ", which malloc did not return: it is %s%s%s, not in the device heap "
                     "(free and delete take only what malloc or new returned in a kernel)",
                     p, in ? "in buffer '" : "in no buffer of device memory", in ? in->name : "", in ? "'" : "");
  }
  uint64_t gi = (p - base) / GHEAP_GRAIN;
  if (h->grain[gi] == GRAIN_FREED && (p - base) % GHEAP_GRAIN == 0)
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "double free of 0x%" PRIx64 ": malloc returned it, and it has been freed already", p);
  if (h->grain[gi] == GRAIN_BODY || h->grain[gi] == GRAIN_START) {
    uint64_t s = gi, end = gi + 1;
    while (h->grain[s] != GRAIN_START) s--;
    while (end < h->size / GHEAP_GRAIN && h->grain[end] == GRAIN_BODY) end++;
    return emu_fault(b, x, warp, lane, WM_EFAULT,
                     "free of 0x%" PRIx64 ", which malloc did not return: it is %" PRIu64 " bytes into the "
                     "%" PRIu64 "-byte allocation at 0x%" PRIx64 " (free that pointer)",
                     p, p - (base + s * GHEAP_GRAIN), (end - s) * GHEAP_GRAIN, base + s * GHEAP_GRAIN);
  }
  return emu_fault(b, x, warp, lane, WM_EFAULT,
                   "free of 0x%" PRIx64 ", which malloc did not return: no allocation of the device heap "
                   "starts there (offset %" PRIu64 " of the heap, which is free)", p, p - base);
}

int emu_heap_free(Block *b, const EmuInstr *x, int warp, int lane, uint64_t p) {
  if (!p) return 0; /* free(NULL), delete of a null pointer */
  GlobalMem *g = b->l->gmem;
  GHeap *h = &g->heap;
  uint64_t base = h->size ? g->buf[h->buf].addr : 0;
  if (!h->size || p < base || p >= base + h->size || (p - base) % GHEAP_GRAIN ||
      h->grain[(p - base) / GHEAP_GRAIN] != GRAIN_START)
    return bad_free(b, x, warp, lane, p);
  uint64_t at = (p - base) / GHEAP_GRAIN, end = at + 1, total = h->size / GHEAP_GRAIN;
  while (end < total && h->grain[end] == GRAIN_BODY) end++;
  h->grain[at] = GRAIN_FREED;
  memset(h->grain + at + 1, GRAIN_FREE, (size_t)(end - at - 1));
  h->live -= (end - at) * GHEAP_GRAIN;
  give_back(h, at, end - at);
  return 0;
}
