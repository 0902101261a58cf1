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
  uint8_t *data;   /* host copy, size bytes (owned unless adopted) */
  uint8_t adopted; /* the application's own memory (gmem_adopt): data is
                      addr, never freed here */
  uint8_t type;    /* PtxType of the elements, for --dump and inits */
  uint64_t count;  /* elements */
  uint64_t *line_time; /* [size / 128 + 1]: when each line is in L2 in the
                      warps' clock, for the TMA (emu_clock.c), or NULL ... */
  uint64_t line_epoch; /* ... and the launch it belongs to */
} GBuf;

/* A texture or surface object (cudaTextureObject_t, cudaSurfaceObject_t):
 * what the kernel's 64-bit handle names.  Its texels live in a buffer of
 * the GlobalMem, in the layout gtex_offset() gives (emu_tex.c). */
typedef enum { GTEX_POINT, GTEX_LINEAR } GTexFilter;
typedef enum { GTEX_CLAMP, GTEX_WRAP, GTEX_MIRROR, GTEX_BORDER } GTexAddr;

typedef struct GTex {
  uint8_t surface;   /* 1: a surface object (suld/sust), 0: a texture */
  uint8_t dims;      /* 1, 2 or 3 */
  uint8_t layered;   /* 1: an array of 1D or 2D layers (tex.a1d/.a2d) */
  uint8_t cube;      /* 1: a cubemap (tex.cube), 2: an array of them
                        (tex.acube); 2D, layered, 6 square faces each */
  uint8_t pitched;   /* texels in linear memory, row y at y * pitch, from
                        addr (cudaResourceTypeLinear: 1D, read by
                        tex1Dfetch, 0 out of range; Pitch2D: 2D); else a
                        CUDA array in gtex_offset's tiled layout */
  uint64_t pitch;    /* pitched 2D: bytes from one row to the next */
  uint8_t type;      /* PtxType of one channel: F32 S32 U32 F16 U8 U16 S8 S16 */
  uint8_t nchan;     /* channels per texel: 1, 2 or 4 */
  uint8_t texel;     /* bytes per texel */
  uint8_t filter;    /* GTexFilter */
  uint8_t amode;     /* GTexAddr, every dimension */
  uint8_t norm;      /* normalized coordinates */
  uint8_t normfloat; /* 8/16-bit integers read as floats in [0,1] ([-1,1]) */
  uint32_t w, h, d;  /* width, height, depth (1 where absent) */
  uint32_t layers;   /* layered: how many (0 otherwise) */
  int buf;           /* the buffer of its texels (index into GlobalMem.buf,
                        kept current by gmem_release); -1: that buffer was
                        released, a fetch faults */
  uint64_t addr;     /* the device address of texel 0: that buffer's (a
                        pitched object may start inside it) */
} GTex;

/* Handles are small integers, as the CUDA runtime hands out: texture
 * object i of a run is GTEX_HANDLE0 + i (0 is never a valid object). */
#define GTEX_HANDLE0 1ull

/* The device heap of malloc, free, new and delete (emu_heap.c): a buffer of
 * the GlobalMem, made by the first launch that calls them, which keeps it
 * (allocations outlive a kernel, as in a CUDA context).  Its bookkeeping
 * lives here on the host, out of the kernels' reach. */
typedef struct GHeapRange {
  uint64_t at, n;    /* granules (GHEAP_GRAIN bytes) from the heap's start */
} GHeapRange;

#define GHEAP_GRAIN UINT64_C(16)               /* malloc's alignment (CUDA: 16 bytes) */
#define GHEAP_DEFAULT_SIZE (UINT64_C(8) << 20) /* cudaLimitMallocHeapSize's default */

typedef struct GHeap {
  uint64_t size;     /* bytes; 0: no heap yet */
  int buf;           /* its buffer (index into GlobalMem.buf) */
  uint8_t *grain;    /* [size / GHEAP_GRAIN] each granule's state (emu_heap.c) */
  GHeapRange *free;  /* the free ranges, by address, never adjacent */
  int nfree, capfree;
  uint64_t live;     /* bytes allocated now (in whole granules) */
} GHeap;

typedef struct GlobalMem {
  GBuf *buf;       /* sorted by addr */
  int n, cap;
  GTex *tex;       /* texture and surface objects, by handle */
  int ntex, tex_cap;
  uint64_t next;   /* next free address */
  uint64_t total;  /* bytes allocated */
  uint64_t limit;  /* most bytes allowed */
  GHeap heap;      /* malloc's heap (emu_heap.c) */
  int unified;     /* each buffer's host copy lies at its device address
                      (gmem_init_unified) */
  GBuf *freed;     /* buffers gmem_release took (data NULL), in order: for
                      the message of a later access to one */
  int nfreed, freed_cap;
} GlobalMem;

void gmem_init(GlobalMem *g, uint64_t limit);
/* As gmem_init, but every buffer's host copy is mapped at its device
 * address, as CUDA's unified addressing makes a device pointer a valid
 * host pointer (cudaMallocManaged, cudaMallocHost): warpmem run hands these
 * addresses to the application, which reads and writes them directly.
 * Each buffer is anonymous zeroed pages mapped with MAP_FIXED_NOREPLACE at
 * g->next; where the range is taken, g->next moves past it (a bounded
 * number of tries, then gmem_alloc fails with a message).  The unmapped
 * page after each buffer stays: a host overrun faults as a kernel's does. */
void gmem_init_unified(GlobalMem *g, uint64_t limit);
void gmem_free(GlobalMem *g);

/* cudaHostRegister: the application's host memory [addr, addr+size)
 * becomes a buffer (addr is its device address too, as with unified
 * addressing), not counted against the limit and never freed here; -1 with
 * a message if it overlaps a buffer.  gmem_release forgets it.  Indices of
 * the other buffers may change. */
int gmem_adopt(GlobalMem *g, uint64_t addr, uint64_t size, const char *name, WmErr *e);

/* cudaFree: releases the buffer that starts at addr (unmapped in a
 * unified GlobalMem, so a later host access faults too; a kernel's is a
 * located fault, as for any address outside every buffer).  Texture and
 * surface objects on it keep their handles but fault when used (GTex.buf
 * -1).  Indices of the later buffers move down one (GTex.buf and GHeap.buf
 * follow); addresses are never handed out again.  addr 0 does nothing (as
 * cudaFree(NULL)).  -1 with a message naming addr and the nearest buffer
 * when no buffer starts at addr, or when it is the device heap. */
int gmem_release(GlobalMem *g, uint64_t addr, WmErr *e);

/* Allocates `size` zeroed bytes; returns the buffer's index or -1 (with a
 * message naming `name` and the limit). */
int gmem_alloc(GlobalMem *g, uint64_t size, const char *name, uint8_t type,
               uint64_t count, WmErr *e);

/* As gmem_alloc, for a caller that writes all `size` bytes itself before
 * any use: a buffer from the pool is not cleared first. */
int gmem_alloc_filled(GlobalMem *g, uint64_t size, const char *name, uint8_t type, uint64_t count, WmErr *e);

/* Host copies of GMEM_POOL_MIN bytes or more are mapped resident and, when
 * freed, kept in a process-wide pool for the next buffer of about their
 * size (gmem_pool.c; thread-safe).  gpool_take: size bytes (zeroed if
 * zero), NULL when the host has no memory; gpool_give: back to the pool or
 * unmapped; gpool_drain: unmaps what the pool keeps; gpool_kept: its
 * bytes; gpool_populate: makes fresh pages resident over the CPUs. */
#define GMEM_POOL_MIN (4ull << 20)
uint8_t *gpool_take(uint64_t size, int zero);
void gpool_give(uint8_t *p, uint64_t size);
void gpool_drain(void);
uint64_t gpool_kept(void);
void gpool_populate(void *data, uint64_t size);

/* Adds a texture or surface object (t->buf and t->addr set) and returns
 * its handle. */
uint64_t gmem_add_tex(GlobalMem *g, const GTex *t);

/* The object a handle names, or NULL. */
const GTex *gmem_tex(const GlobalMem *g, uint64_t handle);

/* Bytes a texture's texels take in the layout of gtex_offset(). */
uint64_t gtex_storage_bytes(const GTex *t);

/* Where texel (x, y, z) lies in the texture's buffer, in bytes (z is the
 * slice of a 3D texture or the layer of a layered one): see emu_tex.c for
 * the tiled layout assumed. */
uint64_t gtex_offset(const GTex *t, uint32_t x, uint32_t y, uint32_t z);

/* The buffer holding [addr, addr+len), or NULL. */
GBuf *gmem_find(GlobalMem *g, uint64_t addr, uint64_t len);

/* Adds gbase, the address of the module's .global segment, to every
 * address in m's initializers (PtxReloc: function and variable addresses),
 * in that segment's buffer (g NULL: not there) and in const_mem (NULL: not
 * there). */
struct PtxModule;
void gmem_relocate(GlobalMem *g, const struct PtxModule *m, uint8_t *const_mem, uint64_t gbase);

/* Makes module m's .global segment (its __device__ and __managed__
 * variables) a buffer of g named "module __device__ variables", holding
 * init (m->global_size bytes; NULL: m's initializers), and relocates it and
 * const_mem (m->const_size bytes; NULL: none) to its address, in *base (0
 * when m has no .global variables: const_mem is relocated all the same).
 * Done once, it is what EmuLaunch.global_base and SimBound.global_base
 * name.  0, or -1 with a message (the limit). */
int gmem_module_segment(GlobalMem *g, const struct PtxModule *m, const uint8_t *init, uint8_t *const_mem,
                        uint64_t *base, WmErr *e);

/* The released buffer (gmem_release) that held addr, the latest if
 * several did, or NULL: a fault's message says the access is after free. */
const GBuf *gmem_freed(const GlobalMem *g, uint64_t addr);

/* The buffer nearest to addr (for "missed buffer X by N bytes"), or NULL. */
const GBuf *gmem_nearest(const GlobalMem *g, uint64_t addr);

#endif
