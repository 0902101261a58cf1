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

#include "arch/arch.h"
#include "mem/cache.h"
#include "mem/metrics.h"

/* LDSM/STSM: ldmatrix and stmatrix, shared only; addr[] holds the rows'
 * addresses (lanes 8i..8i+7 those of matrix i), size is 16.
 * MEM_LDGSTS: cp.async, given twice: its global reads (space GLOBAL, the
 * lanes that read) and its shared writes (space SHARED, all lanes).
 * MEM_GMMA: never a MemReq (mem_gmma() counts wgmma); a line's picture
 * of core-matrix rows, 16 bytes each, as LDSM's. */
typedef enum { MEM_LD, MEM_ST, MEM_ATOM, MEM_RED, MEM_LDSM, MEM_STSM, MEM_LDGSTS, MEM_GMMA } MemOpKind;

/* Where a global load may be cached: --loads (the default for loads
 * without a cache operator, as -Xptxas -dlcm sets it) and MemReq.cache (the
 * instruction's own operator). */
typedef enum { MEM_LOADS_DEFAULT, MEM_LOADS_CA, MEM_LOADS_CG } MemLoads;

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
  uint8_t cache;   /* MemLoads of the instruction's cache operator: CA for
                      ld.ca/.cs/.lu (L1 and L2), CG for ld.cg/.cv (L2 only),
                      DEFAULT without one */
  uint8_t after_bar; /* the warp's first global or local request since it
                      waited at a barrier (TR_AFTER_BAR) */
  uint8_t part;    /* 1: a later request of the same execution (a wmma
                      fragment's next registers, the lanes of a generic
                      access in another space): an execution, and a round,
                      count once */
  uint8_t with_own; /* a distributed shared memory request whose instruction
                      also has lanes in the block's own shared memory */
  uint16_t epoch;  /* the warp's clock (TraceRec.now, .epoch, .since) */
  uint16_t since;
  uint32_t now;
} MemReq;

/* A texture fetch or surface access of a warp (mem/texture.c): every texel
 * address it reads or writes, in the object's storage (device addresses:
 * the texels' tiled layout is the emulator's, emu_tex.c). */
typedef enum { MEM_TEX_FETCH, MEM_SURF_LD, MEM_SURF_ST } MemTexOp;

typedef struct MemTexReq {
  uint8_t op;            /* MemTexOp */
  uint8_t size;          /* bytes each texel address covers (1..16) */
  uint32_t n;            /* addresses: a lane's point fetch is one, a
                            bilinear fetch four, a trilinear one eight;
                            border texels have none */
  const uint64_t *addr;  /* [n] */
  const uint8_t *lane;   /* [n]: the lane of each address */
  uint32_t lanes;        /* active lanes */
  int instr;             /* index of the instruction in the kernel's code */
  uint16_t warp;         /* warp within the block (for the cache trace) */
  uint8_t group;         /* lanes per request, 4 or 8 (0: the op's usual:
                            4 for fetches, 8 for surfaces); texture.c says
                            which objects differ */
} MemTexReq;

/* The tensor cores' math, by path: X(ENUM, its counter (WmMetric), the
 * time model's rate (ArchTensorRate)).  Nsight Compute's
 * sm__ops_path_tensor_* counters count two ops (a multiply and an add) per
 * multiply-add: measured on the H200 for every wgmma type
 * (docs/results/h200-2026-12-02-hopper); mma.sync's paths are counted the
 * same way, which groundtruth/tensor_kernels.cu measures. */
#define MEM_TC_OPS_PER_MAC 2
#define MEM_TENSOR_PATHS(X)                                         \
  X(HGMMA_F16, WM_M_OPS_HGMMA_F16, ARCH_TC_GMMA_F16)                \
  X(HGMMA_BF16, WM_M_OPS_HGMMA_BF16, ARCH_TC_GMMA_F16)              \
  X(HGMMA_TF32, WM_M_OPS_HGMMA_TF32, ARCH_TC_GMMA_TF32)             \
  X(QGMMA_FP8, WM_M_OPS_FP8, ARCH_TC_GMMA_FP8)                      \
  X(IGMMA_INT8, WM_M_OPS_IGMMA_INT8, ARCH_TC_GMMA_INT8)             \
  X(BGMMA_B1, WM_M_OPS_BGMMA_B1, ARCH_TC_GMMA_B1)                   \
  X(HMMA_F16_F16, WM_M_OPS_HMMA_F16_F16, ARCH_TC_MMA_F16)           \
  X(HMMA_F16_F32, WM_M_OPS_HMMA_F16_F32, ARCH_TC_MMA_F16)           \
  X(HMMA_BF16, WM_M_OPS_HMMA_BF16, ARCH_TC_MMA_F16)                 \
  X(HMMA_TF32, WM_M_OPS_HMMA_TF32, ARCH_TC_MMA_TF32)                \
  X(IMMA_INT8, WM_M_OPS_IMMA_INT8, ARCH_TC_MMA_INT8)                \
  X(DMMA_F64, WM_M_OPS_DMMA_F64, ARCH_TC_MMA_F64)

typedef enum {
#define X(e, metric, rate) MEM_TC_##e,
  MEM_TENSOR_PATHS(X)
#undef X
  MEM_TC_COUNT
} MemTensorPath;

extern const uint16_t mem_tc_metric[MEM_TC_COUNT]; /* WmMetric of each path */
extern const uint8_t mem_tc_rate[MEM_TC_COUNT];   /* ArchTensorRate of each */

/* One operand a wgmma.mma_async reads from shared memory through its
 * descriptor: the core matrices (8 rows of 16 bytes) it reads. */
typedef struct MemGmmaOpd {
  uint32_t nmat;           /* core matrices; 0: the operand is in registers */
  const uint64_t *row;     /* [8 * nmat] each row's shared address, swizzled,
                              matrix after matrix */
  uint16_t mn, k;          /* the tile: M or N rows by K elements */
  uint8_t span;            /* its swizzle: 0, 32, 64 or 128 bytes */
  uint8_t mn_major;        /* imm-trans: M- or N-major; else K-major */
  uint8_t bits;            /* of an element */
} MemGmmaOpd;

/* One warpgroup's wgmma.mma_async (mem/gmma.c). */
typedef struct MemGmma {
  uint8_t path;            /* MemTensorPath of its math */
  uint8_t warps;           /* warps that executed it: 4 */
  uint64_t macs;           /* its multiply-adds: 64 x N x K */
  MemGmmaOpd a, b;
  int instr;               /* index of the instruction in the kernel's code */
  uint16_t warp;           /* the warpgroup's first warp */
} MemGmma;

struct Arch;

typedef struct MemConfig {
  int sm;              /* compute capability * 10: 90 for Hopper */
  const struct Arch *arch; /* the preset (arch/arch.h); NULL: h200 */
  uint8_t loads;       /* MemLoads: --loads ca|cg (-Xptxas -dlcm), Fermi+ */
  uint8_t bank_bytes;  /* --bank-mode 4|8 (Kepler); 0: the preset's */
  int caches;          /* model L1, L2 and DRAM (mem/replay.c) */
} MemConfig;

/* Shared-memory bank rules, by generation (smem.c, smem_legacy.c). */
typedef enum {
  MEM_BANKS_CC1,    /* 1.x: 16 banks of 4 bytes, per half-warp, one
                       broadcast word per pass */
  MEM_BANKS_FERMI,  /* 2.x: 32 banks of 4 bytes, any number of words
                       broadcast; 8-byte accesses per half-warp, 16-byte
                       per quarter-warp */
  MEM_BANKS_KEPLER, /* 3.x: 32 banks, 8 bytes wide, in 4- or 8-byte
                       addressing mode */
  MEM_BANKS_SM70    /* 5.x and later, as measured on sm_90 (smem.c) */
} MemBanks;

/* The generation's rules, derived from MemConfig once by mem_init(). */
typedef struct MemGen {
  uint8_t coal;        /* ArchCoalesce: how global requests become
                          transactions */
  uint8_t banks;       /* MemBanks */
  uint8_t bank_bytes;  /* Kepler's addressing mode: 4 or 8 (4 elsewhere) */
  uint8_t loads;       /* MemLoads for loads without a cache operator:
                          CA or CG (Fermi's default is CA) */
} MemGen;

/* One warp's access of a memory instruction, kept for the pictures of the
 * HTML report (report/report_picture.c): the lanes of the instruction's
 * worst request, kept with `why` (the same request, the same block). */
enum { MEM_PIC_TEX_SECTORS = 20 }; /* sectors a texture picture keeps */

typedef struct MemPicture {
  union {
    uint64_t addr[32]; /* each lane's address, as MemReq.addr */
    struct {           /* a texture or surface access (texop != 0,
                          mem/texture.c): the texels' sectors */
      uint64_t sector[MEM_PIC_TEX_SECTORS]; /* distinct 32-byte sectors of the
                          texels the lanes' filters read, in lane order of
                          first touch (sector numbers: address / 32) */
      uint32_t lanes[MEM_PIC_TEX_SECTORS];  /* the lanes reading each */
      uint8_t nsector; /* kept */
      uint8_t more;    /* distinct sectors beyond those kept (at most 236) */
      uint16_t texels; /* texel addresses of the request */
    } tex;
  };
  uint32_t mask;       /* lanes that accessed memory; 0: nothing kept */
  uint8_t size;        /* bytes each lane accesses (local: at most 4, the
                          costliest 4-byte word's request, as counted;
                          texture: each texel's) */
  uint8_t space;       /* PtxSpace (PTX_S_GLOBAL for a texture access) */
  uint8_t op;          /* MemOpKind */
  uint8_t texop;       /* MemTexOp + 1 for a texture fetch or surface
                          access (tex above), 0: a MemReq's (addr) */
  uint16_t warp;       /* warp within its block */
} MemPicture;

/* LineStat.unit_kind */
typedef enum {
  MEM_UNIT_NONE,
  MEM_UNIT_SECTORS,      /* global and local on sm_30+: 32-byte sectors */
  MEM_UNIT_WAVEFRONTS,   /* shared on sm_50+ */
  MEM_UNIT_TRANSACTIONS, /* global on 1.x and 2.x: segments or lines */
  MEM_UNIT_SMEM_TRANS    /* shared on 1.x-3.x: bank transactions (nvprof's
                            shared_*_transactions) */
} MemUnit;

/* What --lines shows for one memory instruction. */
typedef struct LineStat {
  uint64_t execs;      /* warp-level executions with an active lane */
  uint64_t far_execs;  /* of those, the ones whose requests left the
                          cluster's shared memory (global, local,
                          texture): what a load that starts a round waits
                          for (a generic load of shared memory, the
                          block's or a peer's, waits for no round) */
  uint64_t requests;   /* requests (local vectors: one per 4-byte word) */
  uint64_t units;      /* sectors (global, local) or wavefronts (shared) */
  uint64_t ideal;      /* the fewest units the same active lanes could need:
                          global/local: bytes moved rounded up to whole
                          sectors (contiguous, aligned); shared: one
                          wavefront per 128 bytes */
  uint8_t unit_kind;   /* MemUnit: what `units` counts */
  uint32_t worst;      /* most units one request took */
  uint64_t worst_block;/* the block (in run order) where it first did:
                          merged statistics keep the earliest block's why,
                          whichever host thread ran it */
  char why[160];       /* explanation of the worst request, e.g.
                          "32 lanes touch 32 sectors: lanes are 8 KiB apart" */
  MemPicture pic;      /* the worst request's lanes */
} LineStat;

/* What a global request of a memo's shape costs with lane 0 at one place
 * in its sector (a loop over k moves lane 0 through the places of its
 * sector: mm_g's A[row * N + k] takes 8 of them, one after another). */
typedef struct MemPhase {
  uint32_t sectors, distinct;
  uint8_t tn;          /* sectors for the cache trace (0: not yet) */
  uint64_t trel[32];   /* their sector numbers minus lane 0's */
  uint32_t tbytes[32]; /* the bytes touched in each */
} MemPhase;

/* The last shape of an instruction's full-warp requests: a warp whose
 * addresses have the same shape (offsets from lane 0) and lane 0 at the same
 * place in its sector costs the same, so it is counted without sorting
 * (global: each place's cost in ph, shared: the last place's in phase). */
typedef struct MemMemo {
  MemPhase *ph;        /* global: [32] by lane 0's place in its sector, */
  uint32_t known;      /* those of them computed for this shape (bits) */
  uint64_t delta[32];  /* addr[l] - addr[0] */
  uint32_t phase;      /* shared: the place (addr[0] % 128) and op */
  uint32_t size;       /* bytes per lane; 0: nothing remembered */
  uint32_t sectors, distinct; /* shared: its cost */
} MemMemo;

typedef struct MemModel {
  MemConfig cfg;
  /* derived state */
  MemGen gen;          /* the generation's rules */
  MemMemo *memo;       /* [nline] global requests */
  MemMemo *smemo;      /* [nline] shared requests: the wavefronts in
                          `sectors`, the ideal in `distinct`, the op in
                          phase's high bits */
  MemTrace *trace;     /* if set, global and local sectors are recorded here
                          for the cache model (mem/replay.h) */
  uint64_t block;      /* the block running (its place in run order), set
                          by the emulator */
  /* statistics */
  uint64_t metric[WM_M_COUNT];
  LineStat *line;      /* [nline], indexed by instruction */
  uint8_t *round;      /* [nline] k > 0: a load that starts a round trip
                          every k executions (emu_mark_rounds);
                          WM_M_ROUNDS sums far_execs / k */
  uint32_t *round_alt; /* [nline] the leader's pc + 1 (emu_mark_rounds):
                          of a load at the depth of a round whose first
                          load sits in an if-converted body, which starts
                          the round when that load was skipped; of the
                          branch over that body, which skips it */
  uint32_t owed[32];   /* each warp of the running block: the leader + 1
                          whose round is owed (its body skipped), or 0 */
  uint32_t lead_pc[32], lead_n[32]; /* each warp's last round leader + 1 and
                          its executions (in_unrolled_round) ... */
  uint64_t lead_block[32];          /* ... in this block */
  uint8_t *after_st;   /* [nline] 1: a global store whose previous
                          instruction is one too (emu_mark_store_runs): L1
                          may merge its sectors with that store's */
  int nline;
} MemModel;

/* Sets up a model for a kernel of `ncode` instructions (per-line statistics
 * are kept for all of them).  Returns 0, or -1 if cfg is not supported
 * (mem_config_error() says why). */
int mem_init(MemModel *mm, const MemConfig *cfg, int ncode);
void mem_free(MemModel *mm);

/* The generation's rules for cfg: its preset's, else those of compute
 * capability cfg->sm, with --loads and --bank-mode applied.  Returns 0, or
 * -1 with the reason in why[nwhy] (may be NULL) for a configuration the
 * model does not support (compute capability 1.0/1.1, --bank-mode 8 off
 * Kepler, --loads on 1.x). */
int mem_gen(const MemConfig *cfg, MemGen *g, char *why, size_t nwhy);

/* Adds src's statistics to dst's (same kernel): metrics and per-line
 * numbers add up, the worst request's explanation is kept. */
void mem_merge(MemModel *dst, const MemModel *src);

/* Counts one warp-level memory instruction. */
void mem_access(MemModel *mm, const MemReq *r);

/* Counts a global instruction of kind op (MemOpKind) that ran with no
 * active lane (predicated off, or if-converted by ptxas and skipped by a
 * branch in the PTX): an instruction Nsight Compute counts, no request. */
void mem_idle_global(MemModel *mm, unsigned op);

/* One operation of the TMA unit (mem/tma.c): a lane's cp.async.bulk,
 * cp.async.bulk.tensor or cp{.reduce}.async.bulk{.tensor}.  The emulator
 * gives its global side row by row (mem_tma_row: the contiguous bytes of
 * one box row inside the tensor; rows outside it are read by nobody), then
 * the operation (mem_tma_done).  No L1 counter sees it: the TMA unit reads
 * and writes the L2 directly. */
typedef enum { MEM_TMA_LD, MEM_TMA_ST, MEM_TMA_RED, MEM_TMA_DSM, MEM_TMA_DSM_RED, MEM_TMA_PREFETCH } MemTmaOp;

typedef struct MemTma {
  uint8_t op;          /* MemTmaOp: DSM and DSM_RED are a copy or a
                          reduction into a peer block's shared memory (no
                          global side) */
  uint8_t multicast;   /* a load of .multicast::cluster */
  uint8_t part;        /* a later lane of the same warp instruction */
  uint8_t dests;       /* shared memories written (a multicast's blocks) */
  int instr;           /* index of the instruction in the kernel's code */
  uint16_t warp;
  uint64_t smem_bytes; /* bytes written to (read from) each shared memory */
  /* filled by mem_tma_row: */
  uint64_t sectors;    /* 32-byte sectors of the global side */
  uint64_t requests;   /* its pieces within 128-byte lines */
  uint64_t req_size[4];/* of them, those of 32, 64, 96, 128 bytes */
} MemTma;

/* One row of t's global side: len bytes at addr (traced for the caches). */
void mem_tma_row(MemModel *mm, MemTma *t, uint64_t addr, uint32_t len);
/* A load's bytes of a box row outside the tensor: the sectors they fill,
 * rounded up, counted as read over the crossbar; replayed in L2 from the
 * address the row would have there (addr) when `replay`, else not (tma.c). */
void mem_tma_outside(MemModel *mm, MemTma *t, uint64_t addr, uint32_t bytes, int replay);
/* Counts t; why (may be NULL) explains it on its line ("a 64x128 bf16 box
 * ..."). */
void mem_tma_done(MemModel *mm, const MemTma *t, const char *why);
/* Warp `warp` skipped the if-converted body after branch pc: if that body
 * holds the first load of a round, the next load of the round counts it
 * (MemModel.round_alt). */
void mem_round_owed(MemModel *mm, int pc, unsigned warp);

/* Counts a warpgroup's wgmma.mma_async: instructions, shared bytes,
 * wavefronts and bank conflicts of its descriptors' reads, its ops, and
 * its line's statistics (mem/gmma.c). */
void mem_gmma(MemModel *mm, const MemGmma *g);
/* Counts `macs` multiply-adds of a tensor-core instruction on `path`
 * (MemTensorPath): mma.sync and wmma.mma. */
void mem_tensor_ops(MemModel *mm, unsigned path, uint64_t macs);
/* Wavefronts of the core matrices a wgmma operand reads, each 8 rows of
 * 16 bytes (row[8 m + r]): one per matrix whose rows lie in 8 different
 * bank groups, more as mem_smem_matrix_cost() counts; *ideal gets nmat. */
unsigned mem_gmma_cost(const uint64_t *row, uint32_t nmat, unsigned *ideal);

/* Counts one warp-level texture or surface instruction. */
void mem_texture(MemModel *mm, const MemTexReq *r);

/* The models, exposed for unit tests and reuse. */

/* Distinct 32-byte sectors touched by the active lanes, each accessing
 * `size` bytes at addr[lane]. */
unsigned mem_sectors(const uint64_t *addr, uint32_t mask, unsigned size);

/* Sectors of a global atomic or reduction request: per sector, as many as
 * the lanes that update its most-updated word (same-address updates are
 * serialized). */
unsigned mem_atomic_sectors(const uint64_t *addr, uint32_t mask, unsigned size);
/* The same request's sectors (sec[], ascending; bytes[]: the bytes its lanes
 * update) and ops[]: the updates the L2 performs one after another on each
 * (the most lanes on one of its words).  Returns how many sectors. */
unsigned mem_atomic_ops(const uint64_t *addr, uint32_t mask, unsigned size, uint64_t *sec, uint32_t *bytes,
                        uint8_t *ops);

/* Shared-memory wavefronts for one request on sm_70+ (32 banks of 4 bytes):
 * see smem.c for the rule for 8- and 16-byte accesses. */
unsigned mem_smem_wavefronts(const uint64_t *addr, uint32_t mask, unsigned size);

/* Local memory: the address the hardware uses for `off` bytes into lane
 * `lane`'s local memory (consecutive 4-byte words of one thread lie 128
 * bytes apart, the 32 lanes of a warp side by side). */
uint64_t mem_local_address(uint64_t off, unsigned lane);

/* Sorts a[0..n) ascending (insertion sort: n is a warp's lanes or the
 * words they touch, at most 160, usually in order already; lanes.c). */
void mem_sort64(uint64_t *a, unsigned n);

/* The distinct addresses among the lanes in mask (lanes.c). */
unsigned mem_distinct(const uint64_t *addr, uint32_t mask);

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

/* Wavefronts of an ldmatrix/stmatrix: the lanes of mask give 16-byte rows,
 * lanes 8i..8i+7 the 8 rows of matrix i; *ideal (may be NULL) gets the
 * conflict-free count, one per matrix (smem.c). */
unsigned mem_smem_matrix_cost(const uint64_t *addr, uint32_t mask, unsigned *ideal);

/* How many lanes mem_smem_cost() serves together (32, 16 or 8). */
unsigned mem_smem_group_lanes(const uint64_t *addr, uint32_t mask,
                              unsigned size, unsigned op);

/* The HTML report's pictures: the wavefront (0-based) in which each active
 * lane of a request is served, by mem_smem_cost()'s rules (its groups; a
 * bank serves one distinct word per wavefront, lanes reading one word are
 * served together by broadcast; atomics one lane per pass); returns the
 * total, mem_smem_cost()'s.  Inactive lanes get 0. */
unsigned mem_smem_lane_waves(const uint64_t *addr, uint32_t mask, unsigned size, unsigned op,
                             uint16_t wave[32]);

/* The same for ldmatrix/stmatrix (mem_smem_matrix_cost()'s rules). */
unsigned mem_smem_matrix_lane_waves(const uint64_t *addr, uint32_t mask, uint16_t wave[32]);

/* ---- generations before sm_70 (coalesce_legacy.c, smem_legacy.c) ---- */

/* The global transactions of one request. */
typedef struct MemTrans {
  unsigned n;            /* transactions */
  unsigned moved;        /* bytes they move */
  unsigned ideal;        /* the fewest transactions the requested bytes
                            could take, contiguous and aligned */
  unsigned by_size[3];   /* 1.x: transactions of 32, 64 and 128 bytes */
} MemTrans;

/* Whether a global load is served in 128-byte L1 lines on Fermi: its own
 * .ca, or no cache operator and --loads not cg. */
int mem_load_cached(const MemGen *g, const MemReq *r);

/* The transactions of a global request on generation g: 1.2/1.3 segments
 * after the reduction rule, Fermi's 128-byte lines (caching loads) or
 * 32-byte segments (non-caching loads, stores, atomics), 32-byte sectors
 * from Kepler on. */
void mem_transactions(const MemGen *g, const MemReq *r, MemTrans *t);

/* The 1.2/1.3 protocol (per half-warp; see coalesce_legacy.c). */
void mem_coalesce_cc12(const uint64_t *addr, uint32_t mask, unsigned size,
                       MemTrans *t);

/* Fermi: the distinct `line`-byte lines (128 or 32) of each 128-byte
 * request (the warp; half-warps for 8-byte words, quarters for 16). */
void mem_coalesce_lines(const uint64_t *addr, uint32_t mask, unsigned size,
                        unsigned line, MemTrans *t);

/* Shared-memory cost of one request on generation g: mem_smem_cost() on
 * sm_70+ (wavefronts), bank transactions before (smem_legacy.c); *ideal
 * (may be NULL): the same without bank conflicts. */
unsigned mem_smem_cost_gen(const MemGen *g, const uint64_t *addr, uint32_t mask,
                           unsigned size, unsigned op, unsigned *ideal);

/* The busiest bank of a request on a generation before sm_70: returns its
 * passes (the conflict's ways) and its number in *bank. */
unsigned mem_smem_worst_bank(const MemGen *g, const uint64_t *addr, uint32_t mask,
                             unsigned size, unsigned op, unsigned *bank);

/* Each active lane's bank (its first byte's) and the wavefront or pass it
 * is served in, under generation g's rules (smem.c on sm_70+, the
 * generation's banks before; 1.x accesses wider than 4 bytes: the passes of
 * their first 32-bit piece, but the total of all); op is a MemOpKind
 * (LDSM/STSM included).  Returns the total, mem_smem_cost_gen()'s (or
 * mem_smem_matrix_cost()'s). */
unsigned mem_smem_lane_map(const MemGen *g, const uint64_t *addr, uint32_t mask, unsigned size,
                           unsigned op, uint8_t bank[32], uint16_t wave[32]);

/* One-line explanation, for a teacher's eye, of a request that took `units`
 * sectors, transactions (global, local) or wavefronts (shared) where
 * `ideal` would do, in the words of generation g (NULL: sm_70+); written
 * into buf (always NUL-terminated).  For a local vector, r is the whole
 * request and units/ideal those of its costliest word. */
void mem_explain(char *buf, size_t n, const MemGen *g, const MemReq *r,
                 unsigned units, unsigned ideal);

#endif
