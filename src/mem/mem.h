/* mem.h - what the memory system does with each warp-level memory instruction.
 *
 * The emulator hands every warp-level memory instruction that has at least
 * one active lane to mem_access() as a MemReq: the lanes' addresses, the
 * width, the space and the kind of operation.  The model turns it into
 * Nsight Compute's counters (metrics.h) and per-instruction statistics for
 * --lines.
 *
 * Layout follows Dinero IV: MemConfig is what the user chose, the derived
 * numbers live in MemModel next to it, and the statistics are separate.
 */
#ifndef WM_MEM_H
#define WM_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "mem/cache.h"
#include "mem/metrics.h"

typedef enum { MEM_LD, MEM_ST, MEM_ATOM, MEM_RED } MemOpKind;

typedef struct MemReq {
  uint8_t space;   /* PtxSpace: GLOBAL, LOCAL, SHARED, CONST or PARAM (the
                      emulator resolves generic addresses first) */
  uint8_t op;      /* MemOpKind */
  uint8_t size;    /* bytes each lane accesses: element size * vector
                      length (1, 2, 4, 8 or 16) */
  uint8_t elem;    /* bytes of one element (size / vector length) */
  uint32_t mask;   /* lanes that access memory (non-zero) */
  const uint64_t *addr; /* [32] byte address of each lane's access:
                      global: the global (= generic) address;
                      shared: offset in the block's shared memory;
                      local: offset in the thread's own local memory (the
                      model applies the hardware's interleaving);
                      const/param: offset in that space */
  int instr;       /* index of the instruction in the kernel's code */
  uint16_t warp;   /* warp within the block (for the cache trace) */
} MemReq;

struct Arch;

typedef enum { MEM_LOADS_DEFAULT, MEM_LOADS_CA, MEM_LOADS_CG } MemLoads;

typedef struct MemConfig {
  int sm;              /* compute capability * 10: 90 for Hopper */
  const struct Arch *arch; /* the preset (arch/arch.h); NULL: h200 */
  uint8_t loads;       /* MemLoads: --loads ca|cg (-Xptxas -dlcm), Fermi+ */
  uint8_t bank_bytes;  /* --bank-mode 4|8 (Kepler); 0: the preset's */
  int caches;          /* model L1, L2 and DRAM (mem/cache.c) */
} MemConfig;

/* What --lines shows for one memory instruction. */
typedef struct LineStat {
  uint64_t execs;      /* warp-level executions with an active lane */
  uint64_t requests;   /* requests (local vectors: one per 4-byte word) */
  uint64_t units;      /* sectors (global, local) or wavefronts (shared) */
  uint64_t ideal;      /* the fewest units the same active lanes could need:
                          global/local: bytes moved rounded up to whole
                          sectors (contiguous, aligned); shared: one
                          wavefront per 128 bytes */
  uint8_t unit_kind;   /* 0: none, 1: sectors, 2: wavefronts */
  uint32_t worst;      /* most units one request took */
  char why[160];       /* explanation of the worst request, e.g.
                          "32 lanes touch 32 sectors: lanes are 8 KiB apart" */
} LineStat;

/* The last full-warp global request of an instruction: a warp whose
 * addresses have the same shape (offsets from lane 0, lane 0's place in its
 * sector) costs the same, so it is counted without sorting. */
typedef struct MemMemo {
  uint64_t delta[32];  /* addr[l] - addr[0] */
  uint32_t phase;      /* addr[0] % 32 */
  uint32_t size;       /* bytes per lane; 0: nothing remembered */
  uint32_t sectors, distinct;
} MemMemo;

typedef struct MemModel {
  MemConfig cfg;
  /* derived state */
  MemMemo *memo;       /* [nline] */
  MemTrace *trace;     /* if set, global and local sectors are recorded here
                          for the cache model (mem/cache.h) */
  /* statistics */
  uint64_t metric[WM_M_COUNT];
  LineStat *line;      /* [nline], indexed by instruction */
  int nline;
} MemModel;

/* Sets up a model for a kernel of `ncode` instructions (per-line statistics
 * are kept for all of them).  Returns 0, or -1 if cfg is not supported. */
int mem_init(MemModel *mm, const MemConfig *cfg, int ncode);
void mem_free(MemModel *mm);

/* Adds src's statistics to dst's (same kernel): metrics and per-line
 * numbers add up, the worst request's explanation is kept. */
void mem_merge(MemModel *dst, const MemModel *src);

/* Counts one warp-level memory instruction. */
void mem_access(MemModel *mm, const MemReq *r);

/* The models, exposed for unit tests and reuse. */

/* Distinct 32-byte sectors touched by the active lanes, each accessing
 * `size` bytes at addr[lane]. */
unsigned mem_sectors(const uint64_t *addr, uint32_t mask, unsigned size);

/* Sectors of a global atomic or reduction request: per sector, as many as
 * the lanes that update its most-updated word (same-address updates are
 * serialized). */
unsigned mem_atomic_sectors(const uint64_t *addr, uint32_t mask, unsigned size);

/* Shared-memory wavefronts for one request on sm_70+ (32 banks of 4 bytes):
 * see smem.c for the rule for 8- and 16-byte accesses. */
unsigned mem_smem_wavefronts(const uint64_t *addr, uint32_t mask, unsigned size);

/* Local memory: the address the hardware uses for `off` bytes into lane
 * `lane`'s local memory (consecutive 4-byte words of one thread lie 128
 * bytes apart, the 32 lanes of a warp side by side). */
uint64_t mem_local_address(uint64_t off, unsigned lane);

/* mem_sectors(), also counting the distinct lane addresses into *ndistinct
 * (may be NULL): the ideal is ceil(ndistinct * size / 32) sectors. */
unsigned mem_coalesce(const uint64_t *addr, uint32_t mask, unsigned size,
                      unsigned *ndistinct);

/* Sectors of a global atomic or reduction request: per sector, as many as
 * the lanes that update its most-updated word (same-address updates are
 * serialized). */
unsigned mem_atomic_sectors(const uint64_t *addr, uint32_t mask, unsigned size);

/* Shared-memory wavefronts for one request of kind `op` (MemOpKind).  Loads
 * of 8 and 16 bytes whose lane pairs share addresses are packed; atomics
 * serialize lanes on the same word (see smem.c).  *ideal (may be NULL) gets
 * the wavefronts the request would take without bank conflicts (the number
 * of lane groups served together that have an active lane).
 * mem_smem_wavefronts() is mem_smem_cost() for a load. */
unsigned mem_smem_cost(const uint64_t *addr, uint32_t mask, unsigned size,
                       unsigned op, unsigned *ideal);

/* How many lanes mem_smem_cost() serves together (32, 16 or 8). */
unsigned mem_smem_group_lanes(const uint64_t *addr, uint32_t mask,
                              unsigned size, unsigned op);

/* One-line explanation, for a teacher's eye, of a request that took `units`
 * sectors (global, local) or wavefronts (shared) where `ideal` would do;
 * written into buf (always NUL-terminated).  For a local vector, r is the
 * whole request and units/ideal those of its costliest word. */
void mem_explain(char *buf, size_t n, const MemReq *r, unsigned units,
                 unsigned ideal);

#endif
