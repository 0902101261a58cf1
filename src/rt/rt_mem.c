/* rt_mem.c - device memory: every allocation is a buffer of the context's
 * unified GlobalMem, its host copy mapped at its device address, so that
 * cudaMallocManaged, cudaMallocHost and zero-copy need nothing more and a
 * copy is a memcpy, checked: a range in device memory must lie inside one
 * allocation, as the GPU would fault otherwise. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_check.h"
#include "report/report_check.h"
#include "rt/rt_int.h"

/* Allocations are named KIND#N ("cudaMalloc#3"): the name says the kind
 * (cudaFree of a cudaMallocHost pointer is an error) and a fault's message
 * names the allocation it missed. */
static const char *const kind_name[] = {[RT_MEM_DEVICE] = "cudaMalloc", [RT_MEM_MANAGED] = "cudaMallocManaged",
                                        [RT_MEM_HOST] = "cudaMallocHost"};

/* The kind of buffer b, or -1 (a module's variables, the device heap). */
static int buf_kind(const GBuf *b) {
  for (int k = 2; k >= 0; k--) {
    size_t n = strlen(kind_name[k]);
    if (!strncmp(b->name, kind_name[k], n) && b->name[n] == '#') return k;
  }
  return -1;
}

static int in_device_range(const void *p) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  return a >= GMEM_BASE && a < rtx.g.next + GMEM_ALIGN;
}

RtError rt_malloc(size_t size, RtMemKind kind, void **out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!out || kind < RT_MEM_DEVICE || kind > RT_MEM_HOST) return rtx_leave(RT_ERR_INVALID_VALUE);
  *out = NULL;
  if (size == 0) return rtx_leave(RT_SUCCESS);
  char name[64];
  snprintf(name, sizeof name, "%s#%" PRIu64, kind_name[kind], ++rtx.nallocs);
  WmErr e = {0};
  int i = gmem_alloc(&rtx.g, size, name, PTX_T_B8, size, &e);
  if (i < 0) {
    rtx_say("%s(%zu bytes) fails: %s", kind_name[kind], size, e.msg);
    return rtx_leave(RT_ERR_MEMORY_ALLOCATION);
  }
  *out = (void *)(uintptr_t)rtx.g.buf[i].addr;
  if (rtx.check && kind == RT_MEM_DEVICE) emu_check_uninit(rtx.check, rtx.g.buf[i].addr, size);
  return rtx_leave(RT_SUCCESS);
}

/* run --check: a free of something that is not a live allocation of that
 * kind: a double free (it was one), or an invalid one. */
static void check_bad_free(uint64_t a, RtMemKind kind, const GBuf *b) {
  const char *fn = kind == RT_MEM_HOST ? "cudaFreeHost" : "cudaFree";
  const GBuf *f = gmem_freed(&rtx.g, a);
  char d[400];
  if (!b && f && f->addr == a) {
    snprintf(d, sizeof d, "%s(0x%" PRIx64 "): %s (%" PRIu64 " bytes) was freed before", fn, a, f->name, f->size);
    emu_check_note(rtx.check, CHK_MEMCHECK, "double free", a, d);
    return;
  }
  if (b && b->addr != a)
    snprintf(d, sizeof d, "%s(0x%" PRIx64 "): %" PRIu64 " bytes into %s, not the address the allocation returned",
             fn, a, a - b->addr, b->name);
  else if (b)
    snprintf(d, sizeof d, "%s(0x%" PRIx64 "): %s is not memory %s frees", fn, a, b->name, fn);
  else
    snprintf(d, sizeof d, "%s(0x%" PRIx64 "): no allocation is at this address", fn, a);
  emu_check_note(rtx.check, CHK_MEMCHECK, "invalid free", a, d);
}

RtError rt_free(void *p, RtMemKind kind) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!p) return rtx_leave(RT_SUCCESS);
  uint64_t a = (uint64_t)(uintptr_t)p;
  GBuf *b = gmem_find(&rtx.g, a, 1);
  int k = b && b->addr == a ? buf_kind(b) : -1;
  /* cudaFree takes managed memory too */
  int ok = kind == RT_MEM_HOST ? k == RT_MEM_HOST : (k == RT_MEM_DEVICE || k == RT_MEM_MANAGED);
  if (!ok) {
    if (rtx.check) check_bad_free(a, kind, b);
    return rtx_leave(kind == RT_MEM_HOST ? RT_ERR_INVALID_VALUE : RT_ERR_INVALID_DEVICE_POINTER);
  }
  WmErr e = {0};
  if (gmem_release(&rtx.g, a, &e)) {
    rtx_say("%s", e.msg);
    return rtx_leave(RT_ERR_INVALID_DEVICE_POINTER);
  }
  if (rtx.check) emu_check_forget(rtx.check, a);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_host_register(void *p, size_t size) {
  RtError r = rtx_enter(1);
  if (r) return r;
  char name[64];
  snprintf(name, sizeof name, "cudaHostRegister#%" PRIu64, ++rtx.nallocs);
  WmErr e = {0};
  if (gmem_adopt(&rtx.g, (uint64_t)(uintptr_t)p, size, name, &e) < 0) {
    rtx_say("cudaHostRegister(%p, %zu) fails: %s", p, size, e.msg);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  return rtx_leave(RT_SUCCESS);
}

RtError rt_host_unregister(void *p) {
  RtError r = rtx_enter(1);
  if (r) return r;
  uint64_t a = (uint64_t)(uintptr_t)p;
  GBuf *b = p ? gmem_find(&rtx.g, a, 1) : NULL;
  WmErr e = {0};
  if (!b || !b->adopted || b->addr != a || gmem_release(&rtx.g, a, &e)) return rtx_leave(RT_ERR_INVALID_VALUE);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_pointer_info(const void *p, int *kind, void **base, size_t *size) {
  RtError r = rtx_enter(1);
  if (r) return r;
  GBuf *b = p ? gmem_find(&rtx.g, (uint64_t)(uintptr_t)p, 1) : NULL;
  int k = b ? buf_kind(b) : -1;
  if (b && k < 0) k = b->adopted ? RT_MEM_HOST : RT_MEM_DEVICE; /* registered memory; a module's variables */
  if (kind) *kind = k;
  if (base) *base = b ? (void *)(uintptr_t)b->addr : NULL;
  if (size) *size = b ? (size_t)b->size : 0;
  return rtx_leave(RT_SUCCESS);
}

RtError rt_mem_info(size_t *free_bytes, size_t *total) {
  RtError r = rtx_enter(1);
  if (r) return r;
  uint64_t lim = rtx.g.limit;
  if (total) *total = (size_t)lim;
  if (free_bytes) *free_bytes = (size_t)(rtx.g.total < lim ? lim - rtx.g.total : 0);
  return rtx_leave(RT_SUCCESS);
}

/* Whether [p, p+n) may be touched: host memory, or inside one allocation.
 * The message says which allocation it misses and by how much. */
static RtError check_range(const char *what, const char *side, const void *p, size_t n) {
  if (!in_device_range(p) || n == 0) return RT_SUCCESS;
  uint64_t a = (uint64_t)(uintptr_t)p;
  if (gmem_find(&rtx.g, a, n)) {
    if (rtx.check && side[0] == 'd') emu_check_written(rtx.check, a, n); /* initcheck: the host wrote it */
    return RT_SUCCESS;
  }
  const GBuf *b = gmem_nearest(&rtx.g, a);
  if (b && a >= b->addr && a < b->addr + b->size)
    rtx_say("%s: the %s range of %zu bytes at %p runs %" PRIu64 " bytes past the end of %s (%" PRIu64
            " bytes at 0x%" PRIx64 ")",
            what, side, n, p, a + n - (b->addr + b->size), b->name, b->size, b->addr);
  else if (b)
    rtx_say("%s: the %s address %p is in no allocation (the nearest is %s, %" PRIu64 " bytes at 0x%" PRIx64 ")",
            what, side, p, b->name, b->size, b->addr);
  else
    rtx_say("%s: the %s address %p is in no allocation", what, side, p);
  return RT_ERR_INVALID_VALUE;
}

void rtx_clock_copy(uint64_t n) {
  const Arch *a = rtx.cfg.o.cfg.arch ? rtx.cfg.o.cfg.arch : arch_default();
  if (a->dram_gbs > 0) rtx.clock_ns += (double)n / a->dram_gbs; /* GB/s = bytes per ns */
}

RtError rt_memcpy(void *dst, const void *src, size_t n) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (n && (!dst || !src)) return rtx_leave(RT_ERR_INVALID_VALUE);
  if ((r = check_range("cudaMemcpy", "destination", dst, n)) || (r = check_range("cudaMemcpy", "source", src, n)))
    return rtx_leave(r);
  if (n) memmove(dst, src, n);
  rtx_clock_copy(n);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (width > dpitch || width > spitch) return rtx_leave(RT_ERR_INVALID_PITCH);
  if (height && width && (!dst || !src)) return rtx_leave(RT_ERR_INVALID_VALUE);
  for (size_t y = 0; y < height && width; y++) {
    char *d = (char *)dst + y * dpitch;
    const char *s = (const char *)src + y * spitch;
    if ((r = check_range("cudaMemcpy2D", "destination", d, width)) ||
        (r = check_range("cudaMemcpy2D", "source", s, width)))
      return rtx_leave(r);
    memmove(d, s, width);
  }
  rtx_clock_copy((uint64_t)width * height);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_memset(void *dst, int value, size_t n) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (n && !dst) return rtx_leave(RT_ERR_INVALID_VALUE);
  if ((r = check_range("cudaMemset", "destination", dst, n))) return rtx_leave(r);
  if (n) memset(dst, value, n);
  rtx_clock_copy(n);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_memset_2d(void *dst, size_t pitch, int value, size_t width, size_t height) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (width > pitch) return rtx_leave(RT_ERR_INVALID_PITCH);
  for (size_t y = 0; y < height && width; y++) {
    char *d = (char *)dst + y * pitch;
    if ((r = check_range("cudaMemset2D", "destination", d, width))) return rtx_leave(r);
    memset(d, value, width);
  }
  rtx_clock_copy((uint64_t)width * height);
  return rtx_leave(RT_SUCCESS);
}

/* cudaDeviceReset: the application's allocations go (modules' variables and
 * the device heap stay with their modules). */
void rtx_mem_free_all(void) {
  for (;;) { /* a release may renumber the other buffers: look again */
    int i = 0;
    while (i < rtx.g.n && buf_kind(&rtx.g.buf[i]) < 0) i++;
    if (i == rtx.g.n) return;
    WmErr e = {0};
    if (gmem_release(&rtx.g, rtx.g.buf[i].addr, &e)) return;
  }
}

void rtx_check_flush(void) {
  if (rtx.pid != (long)getpid()) return; /* a child forked from the app: its parent reports */
  emu_check_launch(rtx.check);
  for (int i = 0; i < rtx.g.n; i++) {
    const GBuf *b = &rtx.g.buf[i];
    int k = buf_kind(b);
    if (k != RT_MEM_DEVICE && k != RT_MEM_MANAGED) continue;
    char d[200];
    snprintf(d, sizeof d, "%s: %" PRIu64 " bytes at 0x%" PRIx64 " never freed", b->name, b->size, b->addr);
    emu_check_note(rtx.check, CHK_MEMCHECK, "leak", b->addr, d);
  }
  size_t n = emu_check_count(rtx.check);
  if (!n) return;
  FILE *f = fopen(rtx.cfg.check_path, "w");
  if (!f) {
    rtx_say("cannot write the check's findings to %s", rtx.cfg.check_path);
    return;
  }
  uint64_t per[CHK_NTOOLS] = {0};
  for (size_t i = 0; i < n; i++) {
    report_check_finding(f, emu_check_get(rtx.check, i));
    per[emu_check_get(rtx.check, i)->tool]++;
  }
  fprintf(f, "check: %zu error%s (memcheck %" PRIu64 ", racecheck %" PRIu64 ", synccheck %" PRIu64
          ", initcheck %" PRIu64 ")\n", n, n == 1 ? "" : "s", per[0], per[1], per[2], per[3]);
  fclose(f);
}
