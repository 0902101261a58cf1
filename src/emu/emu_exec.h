/* emu_exec.h - the insides of the SIMT emulator, shared by its files:
 *   emu.c        the SIMT core: blocks of warps, the SIMT stack, barriers,
 *                the launch over host threads, the dispatch of each decoded
 *                instruction to its function
 *   emu_mem.c    ld, st, atomics: addresses, state spaces, the memory model
 *   emu_alu.c    integer and floating-point arithmetic, the carry chains
 *   emu_video.c  dp4a, dp2a, the SIMD video instructions (vabsdiff4, ...)
 *   emu_bits.c   bit manipulation
 *   emu_cmp.c    comparison and selection
 *   emu_cvt.c    mov, cvt, cvta, mapa, getctarank
 *   emu_half.c   f16, bf16 and their pairs: arithmetic, comparison, cvt
 *   emu_warp.c   shfl, vote, match, redux, activemask, elect
 *   emu_tensor.c ldmatrix, stmatrix, movmatrix, mma, wmma
 *   emu_wgmma.c  wgmma.* (sm_90a): the warpgroup's rendezvous, descriptors,
 *                fragments; emu_wgmma_math.c its arithmetic
 *   emu_async.c  cp.async, cp.async.bulk, their groups, mbarriers
 *   emu_cluster.c clusters: barrier.cluster, shared::cluster addresses, the
 *                cluster launch's checks
 *   emu_nreg.c   setmaxnreg's register pool
 *   emu_tma.c    the TMA unit: cp.async.bulk.tensor, cp.reduce.async.bulk{.tensor},
 *                prefetches, the bulk copy's multicast and peer forms
 *   emu_ctrl.c   call and ret's frames, and the built-in device functions:
 *                printf (vprintf), assert (__assertfail)
 *   emu_heap.c   the device heap: malloc, free, new, delete
 *   emu_printf.c printf's formatting, and its output in block order
 *   emu_fault.c  located runtime faults
 *   emu_sched.c  the spin watch: warps that wait for memory nobody changes
 *   emu_select.c which function runs each instruction (EmuInstr.fn, chosen
 *                at prepare time)
 *   emu_fast.c   fast forms of the common instructions
 * Each instruction runs as emu_exec_EXEC (EXEC from its row of ptx_ops.h),
 * or the fast form emu_select.c chose for it, over all active lanes of one
 * warp.
 */
#ifndef WM_EMU_EXEC_H
#define WM_EMU_EXEC_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "emu/emu_int.h"
#include "util/bits.h"

#define FULL 0xffffffffu

typedef struct SimtEntry {
  uint32_t pc, rpc, mask;
  uint32_t from;      /* the branch whose divergence pushed it (UINT32_MAX: none) */
} SimtEntry;

enum { W_READY, W_WAIT, W_DONE };

#define EMU_STACK_MAX 1024 /* SIMT stack entries per warp */

/* The rpc of a call's entry on the SIMT stack: never reached, the entry
 * ends when all its lanes have returned (or exited). */
#define EMU_NORPC 0xffffffffu

/* A device function's invocation by some lanes of a warp (emu_ctrl.c). */
typedef struct Frame {
  int base;          /* index of the call's entry on the SIMT stack */
  uint32_t mask;     /* the lanes that called */
  uint32_t call;     /* PtxKernel.calls index */
  int fn;            /* the callee: PtxKernel.fn index */
  uint32_t fp;       /* the frame's offset in each lane's local memory */
  size_t saved;      /* the caller's registers in Warp.save, or SIZE_MAX */
} Frame;
/* Barriers of a block: bar.sync's 16, then barrier.cluster's (whose state
 * is the cluster's: emu_cluster.c), which Warp.bar_id names. */
#define EMU_BAR_CLUSTER 16
#define EMU_NBARS 17
#define EMU_WAIT_NREG (-2) /* Warp.bar_id of a warp that waits in setmaxnreg.inc for registers */
/* A warp waiting for the rest of its warpgroup at a wgmma.mma_async has
 * bar_id EMU_BAR_WGMMA. */
#define EMU_BAR_WGMMA (-3)

typedef struct Warp {
  int state;
  uint32_t exists;    /* lanes that are threads of the block */
  uint32_t exited;
  SimtEntry *stack;
  int sp;
  uint64_t *R;        /* [nslots * 32] */
  int bar_id;         /* barrier waited at */
  uint32_t bar_pc;
  uint32_t red_dst;   /* bar.red: slot that gets the block-wide result */
  uint32_t red_mask;  /* bar.red: lanes that get it */
  uint8_t red_kind;   /* bar.red: PTX_SUB_RED_*, 0 if none */
  uint32_t cl_mask;   /* barrier.cluster: lanes that arrived and have not
                         waited yet (emu_cluster.c) ... */
  uint32_t cl_phase;  /* ... and the cluster barrier's phase they arrived in */
  uint16_t nreg;      /* registers a thread (setmaxnreg; EmuLaunch.regs at start) */
  uint16_t nreg_want; /* a setmaxnreg.inc it waits in (bar_id EMU_WAIT_NREG): the count */
  uint32_t mbar_wait; /* shared offset + 1 of the mbarrier whose phase it
                         waits for (test_wait/try_wait), 0 if none */
  /* the warp's clock (emu_clock.c): its instructions' dependent clocks
   * (EmuInstr.clocks) and its waits for barriers, mbarriers and wgmma */
  uint64_t now;
  uint64_t left_now;   /* its clock when it last left a barrier (MemReq.since) */
  uint16_t bars_left;  /* barriers it has left (MemReq.epoch) */
  uint64_t wg_last;   /* when its warpgroup's last wgmma.mma_async ends */
  uint64_t dsm_free;  /* when its last atomic's packets to peers have left */
  uint64_t wg_ring[8];/* when each of its last 8 committed wgmma groups ends */
  uint32_t wg_commits;/* wgmma groups it committed */
  Frame *frames;      /* device-function calls in progress, innermost last */
  int nframes, capframes;
  uint32_t stack_top; /* local memory used by the frames (from Block.stack_base) */
  uint64_t *save;     /* registers saved across recursive calls */
  size_t nsave, capsave;
  /* the spin watch (emu_sched.c): a fingerprint of the warp's state at a
   * backward branch, compared one loop iteration later */
  uint8_t spin_armed; /* spin_hash holds the state at spin_pc */
  uint8_t spin_stuck; /* its state repeated: it ended its slice there */
  uint16_t spin_edges; /* backward branches since the last check */
  uint32_t spin_pc;
  uint64_t spin_hash;
} Warp;

/* Pending asynchronous copies of a block (emu_async.c). */
typedef struct EmuAsync EmuAsync;
/* The warpgroups' rendezvous at wgmma.mma_async (emu_wgmma.c). */
typedef struct EmuWgBlock EmuWgBlock;

/* The blocks of one cluster, resident together (emu_cluster.c): a host
 * thread's, reused cluster after cluster. */
typedef struct EmuCluster {
  struct Block **blocks; /* [n] by rank */
  uint32_t n;
  uint32_t arrived;      /* barrier.cluster: threads arrived in this phase */
  uint32_t phase;        /* its phases completed */
  uint64_t arrive_now;   /* the warps' clock (emu_clock.c): the phase's latest arrival */
  uint64_t release_now;  /* ... and when the last completed phase did */
} EmuCluster;


/* printf's output: each block's text is kept apart and written in block
 * order at the end of the launch, so that it does not depend on the host
 * threads. */
typedef struct PrintChunk {
  uint64_t block;     /* the j-th block run */
  size_t off, len;    /* one lane's printf text, in Block.out */
} PrintChunk;

/* Memory instructions whose last buffer a block remembers (kernels that
 * alternate between buffers find each one without a search). */
#define EMU_BUF_MEMO 64

typedef struct Block {
  EmuLaunch *l;
  const EmuProgram *p;
  const PtxModule *m;
  uint32_t ctaid[3];
  uint32_t nthreads, nwarps;
  uint32_t sms;       /* the preset's SM count (%nsmid) */
  Warp *warps;
  uint8_t *shared;
  uint32_t shared_size;
  uint8_t *local;     /* [nthreads * local_size] */
  uint32_t local_size;
  uint32_t bar_arrived[EMU_NBARS];
  uint32_t bar_expected[EMU_NBARS]; /* 0: all live threads */
  uint32_t bar_popc[EMU_NBARS];     /* bar.red accumulators */
  uint8_t bar_all[EMU_NBARS], bar_any[EMU_NBARS];
  uint32_t exited_threads;
  uint64_t warp_instrs, thread_instrs;
  uint64_t slice_instrs;    /* the running warp's instructions this slice, as of its last backward
                               branch: %clock reads count them (a wait on the clock ends) */
  uint64_t warp_clocks; /* the instructions' dependent latencies, summed (EmuInstr.clocks) */
  /* the block's clock (emu_clock.c), kept for kernels with mbarriers or
   * wgmma (clocked): the latest arrival at each barrier, when its tensor
   * cores and its TMA unit are next free, its last warp's end, its
   * atomics' packets to peers (their clocks at the port, summed) */
  int clocked;
  uint64_t bar_now[EMU_NBARS];
  uint64_t tc_free, tma_free, end_now, dsm_busy;
  uint32_t warps_ended;
  uint64_t block_clocks; /* each block's end times its warps, summed */
  struct EmuLineSeen *seen; /* the lines its TMA loads fetched from DRAM, and
                         when each arrives: an open table of seen_cap (a power
                         of 2), seen_n used (emu_clock.c) */
  uint32_t seen_cap, seen_n;
  int waves_met;      /* it waited for the earlier waves to end (emu_clock.c) */
  const Arch *arch;
  uint64_t *regs;     /* the warps' register files */
  int sregs_ready;    /* launch-wide special registers are in place */
  uint16_t sr_block[16]; /* then the special registers each block sets: */
  int nsr_block;      /* those of sreg_per_block() the kernel reads */
  GBuf *last_buf;     /* the buffer the last global access hit */
  GBuf *buf_memo[EMU_BUF_MEMO]; /* the buffer each memory instruction (its pc
                         modulo EMU_BUF_MEMO) last hit, or NULL */
  MemModel *mm;       /* this worker's statistics, or NULL */
  uint16_t cur_warp;  /* the warp running now (for the cache trace) */
  uint8_t mem_multi;  /* an instruction that sends several requests runs
                         (wmma's fragments): after its first, ... */
  uint8_t mem_next;   /* ... the rest are parts of one execution (MemReq.part) */
  uint32_t bar_since; /* warps that waited at a barrier since their last
                         global or local request (MemReq.after_bar) */
  int32_t poll_instr[32];  /* each warp's last strong global load (-1: none, or
                              a store, atomic or reduction since) ... */
  uint64_t poll_addr[32];  /* ... and its first lane's address (emu_mem.c's
                              repeated_poll) */
  EmuAsync *async;    /* pending cp.async copies; NULL unless the kernel
                         uses cp.async or mbarriers */
  EmuCluster *cluster;/* the cluster it runs in, NULL: a cluster of one */
  uint32_t crank;     /* its rank in that cluster (%cluster_ctarank) */
  uint32_t cl_arrived, cl_phase; /* a cluster of one's barrier.cluster
                         (EmuCluster's arrived and phase otherwise) */
  uint64_t cl_arrive_now, cl_release_now; /* ... and its clock's (EmuCluster's) */
  uint32_t nreg_free; /* setmaxnreg: registers the block's warps gave back, not yet taken */
  uint16_t wg_nreg[8];/* setmaxnreg: the count warpgroup g's warps are setting (0: none) ... */
  uint8_t wg_seen[8]; /* ... and which of its 4 warps did (bits) */
  EmuWgBlock *wg;     /* NULL unless the kernel has wgmma.mma_async */
  WmErr *e;
  int failed;
  uint32_t max_warps; /* the preset's warps per SM (%nwarpid) */
  uint32_t stack_base;/* where the call stack starts in local memory */
  char *out;          /* printf's text of the blocks this worker ran */
  size_t nout, capout;
  size_t nrec;        /* bytes of the record being written, after nout */
  uint64_t dropped;   /* printf bytes beyond EMU_PRINTF_FIFO */
  PrintChunk *chunks;
  size_t nchunks, capchunks;
  uint64_t order;     /* its place in the launch's run order */
  uint64_t *running;  /* [nrunning]: the place of the block each host thread
                         runs now (UINT64_MAX: none); NULL on one thread */
  int nrunning;
  struct EmuChkBlock *chk; /* `warpmem check`'s shadow (emu_check_int.h), NULL */
  struct EmuWatch *watch; /* the launch's watchdog (emu_watch.c), or NULL */
  uint64_t watch_pending; /* warp instructions not yet told to it */
  uint32_t slice;     /* most instructions a warp runs before the next
                         (EMU_SLICE, less under a small budget) */
  int stopped;        /* the watchdog stopped it (not a fault: b->e unset) */
} Block;

/* CUDA's default printf FIFO (cudaLimitPrintfFifoSize) and stack
 * (cudaLimitStackSize) */
#define EMU_PRINTF_FIFO (1u << 20)
#define EMU_STACK_DEFAULT 1024u

/* --- value helpers --- */

/* short names: the arithmetic uses them on every line */
#define F32 wm_f32
#define B32 wm_f32_bits
#define F64 wm_f64
#define B64 wm_f64_bits
static inline float ftz32(float f) {
  return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* .sat for floats: clamps to [0, 1], NaN to 0. */
static inline float satf(float f) {
  if (isnan(f)) return 0.0f;
  return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

/* Sign- or zero-extends the low `size` bytes of v. */
static inline int64_t sext(uint64_t v, unsigned size) {
  switch (size) {
  case 1: return (int8_t)v;
  case 2: return (int16_t)v;
  case 4: return (int32_t)v;
  default: return (int64_t)v;
  }
}
static inline uint64_t zext(uint64_t v, unsigned size) {
  return size >= 8 ? v : v & ((1ull << (size * 8)) - 1);
}

/* Population count without a libgcc call (the build targets baseline
 * x86-64, which has no popcnt instruction). */
static inline uint32_t popc32(uint32_t v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* a CMP b for floats: ordered comparisons are false on NaN, the unordered
 * forms (.equ, .ltu, ...) true. */
static inline int emu_cmp_float(unsigned cmp, double a, double b) {
  int un = isnan(a) || isnan(b);
  switch (cmp) {
  case PTX_CMP_EQ: return !un && a == b;
  case PTX_CMP_NE: return !un && a != b;
  case PTX_CMP_LT: return !un && a < b;
  case PTX_CMP_LE: return !un && a <= b;
  case PTX_CMP_GT: return !un && a > b;
  case PTX_CMP_GE: return !un && a >= b;
  case PTX_CMP_EQU: return un || a == b;
  case PTX_CMP_NEU: return un || a != b;
  case PTX_CMP_LTU: return un || a < b;
  case PTX_CMP_LEU: return un || a <= b;
  case PTX_CMP_GTU: return un || a > b;
  case PTX_CMP_GEU: return un || a >= b;
  case PTX_CMP_NUM: return !un;
  case PTX_CMP_NAN: return un;
  default: return 0;
  }
}

typedef enum { C_U, C_S, C_F, C_P } Class;
static inline Class tclass(unsigned t) {
  if (t == PTX_T_PRED) return C_P;
  if (ptx_type_is_float((PtxType)t)) return C_F;
  if (ptx_type_is_signed((PtxType)t)) return C_S;
  return C_U;
}

/* setp/set's combination (.and/.or/.xor, PtxInstr.sub) of the comparison
 * v with the predicate c. */
static inline int emu_boolop(unsigned sub, int v, int c) {
  switch (sub) {
  case PTX_SUB_BAND: return v && c;
  case PTX_SUB_BOR: return v || c;
  case PTX_SUB_BXOR: return v != c;
  default: return v;
  }
}

/* Runs `body` once per lane of mask, with the lane in l: a plain loop when
 * all 32 are active (the compiler vectorizes it), else over the set bits. */
#define LANES(mask, ...)                                             \
  do {                                                               \
    if ((mask) == FULL) {                                            \
      for (int l = 0; l < 32; l++) { __VA_ARGS__; }                  \
    } else {                                                         \
      for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {                 \
        int l = __builtin_ctz(m_);                                   \
        __VA_ARGS__;                                                 \
      }                                                              \
    }                                                                \
  } while (0)

/* The lanes of source operand i and destination i. */
#define SRC(i) (R + (size_t)x->s[i] * 32)
#define DST(i) (R + (size_t)x->d[i] * 32)

/* A predicate register's lanes as a bit mask: on x86-64, two lanes' bit
 * 0 moved to the sign and taken by one movemask (SSE2, every x86-64 has
 * it): a third of the loop's instructions. */
static inline uint32_t pred_mask(const uint64_t *p) {
  uint32_t m = 0;
#if defined(__x86_64__) && defined(__SSE2__)
  for (int l = 0; l < 32; l += 2) {
    __m128i v = _mm_slli_epi64(_mm_loadu_si128((const __m128i *)(const void *)(p + l)), 63);
    m |= (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(v)) << l;
  }
#else
  for (int l = 0; l < 32; l++) m |= (uint32_t)(p[l] & 1) << l;
#endif
  return m;
}

/* The thread index (x, y, z) of lane `lane` of warp `warp`. */
static inline void thread_of(const Block *b, int warp, int lane, uint32_t t[3]) {
  const uint32_t *bd = b->l->block;
  uint32_t lin = (uint32_t)warp * 32 + (uint32_t)lane;
  t[0] = lin % bd[0];
  t[1] = lin / bd[0] % bd[1];
  t[2] = lin / (bd[0] * bd[1]);
}

/* --- the instructions --- */

/* Every instruction's function: block b, its warp `warp`, the active lanes
 * `mask` (guard applied, never 0), the warp's registers R.  Returns 0, or
 * -1 after a fault (emu_fault), or 1 when the warp must wait before the
 * instruction (it set the warp's state to W_WAIT; mbarrier waits). */
#define EMU_EXEC_ARGS Block *b, const EmuInstr *x, int warp, uint32_t mask, uint64_t *R
#define X(e, name, flags, mods, shape, imm, exec, sem) EmuExecFn emu_exec_##exec;
PTX_OPS(X)
#undef X

/* Runs x's row function in the host rounding mode of x->rnd (emu_select.c). */
int emu_exec_rounded(EMU_EXEC_ARGS);

/* The host rounding mode (fenv.h) of a PTX rounding modifier. */
int emu_fe_mode(unsigned rnd);
/* v rounded to an integer as .rni/.rzi/.rmi/.rpi say (others: v). */
double emu_round_int(unsigned rnd, double v);
/* float -> integer of `size` bytes (.rzi unless rnd says otherwise): PTX
 * saturates and maps NaN to 0. */
uint64_t emu_cvt_f2i(double v, unsigned rnd, int sign, unsigned size);

/* The half-precision functions chosen at prepare time (emu_half.c),
 * indexed by EmuInstr.half. */
extern EmuExecFn *const emu_half_fns[];
/* The value an atomic add/min/max of a half type (f16, bf16, their pairs)
 * stores, given the old one and the operand. */
uint32_t emu_half_atomic(const EmuInstr *x, uint32_t old, uint32_t b);
/* Replaces the naturally aligned `size`-byte word at p by f(old, ctx) in
 * one atomic step (blocks run on several host threads; emu_mem.c): atom,
 * red and the TMA's bulk reductions.  Returns the old value. */
typedef uint64_t (*EmuUpdate)(uint64_t old, const void *ctx);
uint64_t emu_atomic_update(void *p, unsigned size, EmuUpdate f, const void *ctx);

/* --- memory (emu_mem.c), for instructions that compute their lanes'
 * addresses themselves (the tensor-core loads and stores) --- */

/* Where each active lane's access goes. */
typedef struct EmuWhere {
  uint8_t *ptr[32];    /* on the host */
  uint64_t off[32];    /* the address in its space */
  uint8_t spaces[32];  /* each lane's space, when not uniform */
  int uniform;         /* the one space of all lanes, or 0 */
} EmuWhere;

/* Resolves addr[l] (in x's state space, or generic) for the lanes of mask,
 * `size` bytes each, checked for bounds and alignment.  Returns 0, or -1
 * after a located fault. */
int emu_mem_locate(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *addr, unsigned size,
                   int store, EmuWhere *w);
/* Hands the access to the memory model as one warp request of x's kind. */
void emu_mem_model(Block *b, const EmuInstr *x, uint32_t mask, const EmuWhere *w, unsigned size, unsigned elem);

/* --- asynchronous copies (emu_async.c) --- */

/* Whether the program uses cp.async or mbarriers (then blocks keep an
 * EmuAsync: emu_async_new, reset per block, emu_async_free). */
int emu_async_used(const EmuProgram *p);
EmuAsync *emu_async_new(uint32_t shared_size, uint32_t nthreads);
void emu_async_reset(EmuAsync *a);
void emu_async_free(EmuAsync *a);
/* A block barrier completed: copies their threads waited for become
 * visible to all. */
void emu_async_barrier(Block *b);
/* Fails (a located fault, -1) if a lane reads shared bytes whose cp.async
 * has not completed for it; the lanes' addresses as emu_mem.c resolves them. */
int emu_async_check_read(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *off,
                         const uint8_t *spaces, int uniform, unsigned size);
/* "the mbarrier at shared offset 0x.. (phase parity .., ...)" for messages. */
void emu_async_describe(const Block *b, uint32_t off, char *buf, size_t n);

/* --- wgmma.mma_async (emu_wgmma.c; its arithmetic in emu_wgmma_math.c) --- */

#define EMU_WG_M 64 /* a warpgroup's rows */

/* One warpgroup instruction's operands, gathered, and its result. */
typedef struct EmuWgTile {
  unsigned n, k;                 /* N and K (M is 64) */
  unsigned dtype, atype, btype;  /* PtxType or PTX_MMA_* */
  int sat, neg_a, neg_b;         /* .satfinite; imm-scale-a/-b of -1 */
  uint8_t scale[4];              /* warp w's rows start from C (1) or 0 */
  uint8_t a[EMU_WG_M][32];       /* A's rows: the 256 bits of their K elements */
  uint8_t b[256][32];            /* B's columns, likewise */
  union {
    float f[EMU_WG_M * 256];
    int32_t i[EMU_WG_M * 256];
  } d;                           /* D[row * n + col]: C in (f32, or f16 widened; s32), D out */
  union {
    float f[EMU_WG_M * 32];
    int32_t i[EMU_WG_M * 32];
  } av;                          /* A[row * k + kk], the arithmetic's */
  union {
    float f[32 * 256];
    int32_t i[32 * 256];
  } bv;                          /* B[kk * n + col] */
} EmuWgTile;

/* The value of f16 bits h (exact; the tensor cores' inner loops). */
static inline float emu_f16_float(uint32_t h) {
  uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 0x3ffu, u;
  float f;
  if (e == 0) return (s ? -1.0f : 1.0f) * (float)m * 0x1p-24f;
  u = e == 31 ? s | 0x7f800000u | m << 13 : s | (e + 112) << 23 | m << 13;
  memcpy(&f, &u, 4);
  return f;
}

/* Computes t->d (emu_wgmma_math.c). */
void emu_wgmma_multiply(EmuWgTile *t);
/* The adder the model uses for A's type (its bits, 0: IEEE f32 adds, and
 * group), in words. */
const char *emu_wgmma_adder(unsigned atype, unsigned *bits, unsigned *group);
/* A block's rendezvous state: whether p needs it, made for a block of
 * nwarps (freed with emu_wgmma_free), reset for each block. */
int emu_wgmma_used(const EmuProgram *p);
EmuWgBlock *emu_wgmma_new(uint32_t nwarps);
void emu_wgmma_reset(EmuWgBlock *w);
void emu_wgmma_free(EmuWgBlock *w);

/* A host pointer to n bytes at generic address a as lane `lane` of warp
 * `warp` sees it, and in *avail the bytes readable from there; NULL if a
 * is in no buffer or window (emu_mem.c). */
const uint8_t *emu_device_ptr(Block *b, int warp, int lane, uint64_t a, size_t n, size_t *avail);

/* Tracks bytes [lo, hi) of block `owner`'s shared memory that an
 * asynchronous copy (TMA, cp.async.bulk) wrote: pending, so that a read is
 * a located error, until the mbarrier at owner's offset `mbar` completes a
 * phase.  `thread` is the issuing thread's linear index in its own block,
 * pc its instruction. */
void emu_async_track(Block *owner, uint32_t lo, uint32_t hi, uint32_t mbar, uint32_t thread, uint32_t pc);
/* complete_tx(bytes) on the mbarrier at shared offset `off` of block
 * `owner` (a peer's in a cluster), on behalf of lane `lane` of warp `warp`
 * of block b running x: may complete its phase.  0, or -1 after a located
 * fault in b. */
int emu_mbar_complete_tx(Block *b, const EmuInstr *x, int warp, int lane, Block *owner, uint32_t off,
                         uint32_t bytes, uint64_t ready);

/* The mbarrier at address a (shared, or shared::cluster naming a peer;
 * generic when x's space is) of lane `lane`: its block and offset.  0, or
 * -1 after a located fault (emu_async.c). */
int emu_mbar_at(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a, Block **owner, uint32_t *off);

/* --- the warps' clock (emu_clock.c) --- */

/* Resets the clocks for a new block (after its async and wgmma state). */
void emu_clock_start(Block *b);
/* Warp w arrives at barrier id; a warp it releases waits for the last. */
void emu_clock_bar_arrive(Block *b, const Warp *w, uint32_t id);
void emu_clock_bar_release(Block *b, Warp *w, uint32_t id);
/* Stamps r with the running warp's clock (MemReq.now, .epoch, .since), for
 * the replay's clock (mem/replay_clock.c). */
struct MemReq;
void emu_clock_stamp(const Block *b, struct MemReq *r);
/* Warp w has ended: the block ends with its last warp. */
void emu_clock_warp_end(Block *b, const Warp *w);
/* When a copy of `bytes` from warp's shared memory into a peer block's
 * ends: the block's TMA unit sends one copy at a time. */
uint64_t emu_clock_peer_copy(Block *b, int warp, uint32_t bytes);
/* A TMA load's times, row by row (emu_clock_copy_row), for loads whose
 * lines may come from DRAM: where its bytes leave the block's TMA unit
 * from, how many have, how many of them came from DRAM, when its last
 * arrives, the block's wave. */
typedef struct EmuCopyClock {
  uint64_t start, bytes, dram, ready, wave;
} EmuCopyClock;
/* Frees b's table of lines (emu_block_teardown). */
void emu_clock_free(Block *b);
void emu_clock_copy_begin(Block *b, int warp, EmuCopyClock *c);
void emu_clock_copy_row(Block *b, EmuCopyClock *c, uint64_t a, uint64_t n);
/* When the load of `bytes` ends; the TMA unit is free again after it. */
uint64_t emu_clock_copy_end(Block *b, EmuCopyClock *c, uint32_t bytes);
/* When a plain bulk copy of size bytes of global memory at src ends (one
 * row: begin, row, end). */
uint64_t emu_clock_bulk(Block *b, int warp, uint64_t src, uint32_t size);
/* A new number for each launch (EmuLaunch.clock_epoch). */
uint64_t emu_clock_epoch(void);
/* Warp w releases its memory at cluster scope (an mbarrier arrival's
 * .release.cluster): it waits for the memory barrier. */
void emu_clock_release(Warp *w);
void emu_clock_dsm_send(Block *b, int warp, unsigned packets, int wait_result);
/* Warp w waits until t (an mbarrier's phase). */
void emu_clock_wait(Warp *w, uint64_t t);
/* The warpgroup of warps first..first+3 issues a wgmma of `macs`
 * multiply-adds on tensor path `path` (MemTensorPath). */
void emu_clock_wgmma(Block *b, unsigned first, unsigned path, uint64_t macs);
/* wgmma.commit_group; wgmma.wait_group N (`pending` = N). */
void emu_clock_wgmma_commit(Warp *w);
void emu_clock_wgmma_wait(Warp *w, uint32_t pending);

/* --- the TMA unit (emu_tma.c) --- */

/* Counts lane `lane`'s plain bulk copy (op MEM_TMA_LD or MEM_TMA_ST, or a
 * reduction MEM_TMA_RED) of size bytes at global address addr; part: not
 * the warp instruction's first lane.  b->mm must be set. */
void emu_tma_count_bulk(Block *b, const EmuInstr *x, int op, int part, uint64_t addr, uint32_t size);
/* cp.async.bulk's cluster forms: .multicast::cluster, and shared::cta to a
 * peer's shared::cluster (sub PTX_SUB_BULK_DSM). */
int emu_tma_bulk_cluster(EMU_EXEC_ARGS);

/* --- clusters and distributed shared memory (emu_cluster.c) --- */

/* A shared::cluster address is 32 bits: bits 24 and up hold 1 + the
 * cluster rank of the block whose shared memory it names (mapa's result),
 * 0 the executing block's own, so every shared::cta address is also a
 * shared::cluster address of the same bytes (as on sm_90, whose CTAs' windows
 * lie 2^24 apart).  The offset is the low 24 bits (a block has at most
 * 227 KiB).  A generic address of peer memory is EMU_SHARED_WIN plus it. */
#define EMU_DSM_SHIFT 24
#define EMU_DSM_OFF_MASK ((1u << EMU_DSM_SHIFT) - 1)
/* The block of cluster rank `rank` in b's cluster (b itself for its own
 * rank), or NULL when the cluster has no such rank. */
Block *emu_cluster_peer(Block *b, uint32_t rank);
/* Resolves the shared::cluster address a (its low 32 bits) of `size`
 * bytes that lane `lane` of warp `warp` accesses at x: the block that holds
 * it and the offset there.  0, or -1 after a located fault (a rank beyond
 * the cluster, bytes beyond that block's shared memory). */
int emu_dsm_locate(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a, unsigned size, Block **owner,
                   uint32_t *off);
/* The launch's cluster: blocks in x, y, z (1, 1, 1 without one), and their
 * product. */
void emu_cluster_dims(const EmuLaunch *l, uint32_t d[3]);
uint32_t emu_cluster_size(const EmuLaunch *l);
/* The block (linear index in the grid) at place p of the cluster order
 * (cluster p / n's block of rank p % n, clusters numbered x first), and
 * the inverse. */
uint64_t emu_cluster_block(const EmuLaunch *l, uint64_t place);
uint64_t emu_cluster_place(const EmuLaunch *l, uint64_t block);
/* barrier.cluster.arrive by lanes eff of warp wi at x: 0, or -1 after a
 * located fault (a second arrival before a wait). */
int emu_cluster_arrive(Block *b, int wi, const EmuInstr *x, uint32_t eff);
/* barrier.cluster.wait: 0 when the phase its lanes arrived in is complete,
 * 1 when the warp waits (W_WAIT at EMU_BAR_CLUSTER, before x), -1 after a
 * located fault (lanes that did not arrive). */
int emu_cluster_wait(Block *b, int wi, const EmuInstr *x, uint32_t eff);
/* Lanes of warp wi exit: arrivals they made and did not wait for no longer
 * count. */
void emu_cluster_exit(Block *b, int wi, uint32_t lanes);
/* Completes the cluster barrier's phase when every live thread of the
 * cluster has arrived, waking the waiters in all its blocks: 1 if it did. */
int emu_cluster_release(Block *b);
/* Settles l's cluster before it runs: the kernel's .reqnctapercluster when
 * the launch names none (a different one is refused, as CUDA refuses it),
 * then CUDA's rules: positive dimensions, sm_90, at most 8 blocks (16 if
 * non-portable sizes are allowed), .maxclusterrank, a grid of whole
 * clusters, .explicitcluster.  0, or -1 with the message (WM_ELIMIT). */
int emu_cluster_resolve(EmuLaunch *l, const Arch *a, WmErr *e);
/* Runs the n blocks bs together (a cooperative grid, a cluster) on this
 * thread, their warps interleaved pass by pass; block i's requests go to
 * mm with trace tr[i] (tr NULL: none).  0, or -1 after a fault or a
 * deadlock (emu_grid.c). */
int emu_run_together(Block *const *bs, uint64_t n, MemModel *mm, MemTrace *tr);
/* "N of the M live threads of the cluster (K blocks) arrived", for a
 * deadlock's message. */
void emu_cluster_describe(Block *b, char *buf, size_t n);

/* --- setmaxnreg (emu_nreg.c) --- */

/* Wakes the warps waiting in setmaxnreg.inc whose registers the pool now
 * holds: 1 if one woke. */
int emu_nreg_release(Block *b);
/* "waits in setmaxnreg.inc for N registers a thread (...)" of warp w, for a
 * deadlock's message. */
void emu_nreg_describe(const Block *b, const Warp *w, char *buf, size_t n);

/* --- control (emu_ctrl.c) --- */

/* call: pushes a frame for the lanes eff (grouped by target for a call
 * through a pointer), or runs a built-in.  Returns 1 when the warp just
 * goes on with the next instruction, 0 when the SIMT stack changed, -1
 * after a fault. */
int emu_call(Block *b, Warp *w, int wi, const EmuInstr *x, uint32_t eff);
/* The innermost frame's lanes have all returned or exited: copies its
 * return values to the caller, restores what the call saved, pops it. */
void emu_frame_return(Block *b, Warp *w);
/* Writes printf's text (emu_printf.c): formats one lane's vprintf(fmt,
 * args) into the block's output.  Returns the number of arguments, or -1
 * after a fault. */
int emu_vprintf(Block *b, const EmuInstr *x, int warp, int lane, uint64_t fmt, uint64_t args);
/* Writes the blocks' printf text in block order (up to block `last`, the
 * one that faulted, if one did) and at most CUDA's FIFO of it. */
void emu_printf_flush(EmuLaunch *l, Block *const *bs, size_t nb, uint64_t last);

/* --- a block (emu.c), for the launch (emu_grid.c) --- */

/* Whether every sampled wave is a whole number of the cache replay's waves
 * (or the launch is not sampled): an SM's blocks of a wave all run. */
int emu_whole_waves(const EmuLaunch *l);

#define EMU_GROUP_MAX 32 /* a larger replay group is replayed block by block */
#define EMU_CHUNK_MAX 64 /* blocks handed to a host thread at a time */

/* Sets b up for blocks of launch l (the workers reuse it block after
 * block); frees with emu_block_teardown(). */
void emu_block_setup(Block *b, EmuLaunch *l, const Arch *arch, const EmuProgram *prog, uint32_t shared, WmErr *e);
void emu_block_teardown(Block *b);
/* Runs block b (its ctaid, order and shared memory set) to the end: 0, or
 * -1 after a fault (in b->e). */
int emu_block_run(Block *b);
/* The pieces of emu_block_run() a cooperative grid interleaves: */
void emu_block_start(Block *b); /* every warp at the kernel's start */
/* What one pass over the ready warps of a block (or grid) did. */
typedef struct EmuPass {
  uint64_t ran, spun;  /* warps run; of them, warps that yielded in a spin */
  uint64_t instrs;     /* warp instructions */
  int released;        /* a barrier completed */
  int waiting;         /* a warp waits at a barrier */
} EmuPass;
/* Runs each ready warp of b once, then completes the barriers it can. */
int emu_run_pass(Block *b, EmuPass *ps);
/* After a pass: 1 to go on, 0 when every warp is done, -1 for a deadlock or
 * a spin that lasted EMU_SPIN_BUDGET warp instructions (*quiet counts them). */
int emu_after_pass(const EmuPass *ps, uint64_t *quiet);
/* The error for a stopped block: its spinning warp, else its barrier. */
int emu_stopped(Block *b, uint64_t quiet, int cooperative);
/* Whether another host thread runs a block before b in the run order
 * (which b may wait for: a decoupled look-back scan's flags). */
int emu_earlier_running(const Block *b);

/* --- the module's segments (emu_segment.c) --- */

/* Sets up l's module segments: *gbase gets the .global segment's address
 * (EmuLaunch.global_base, else a buffer made here; 0: none), and when
 * l->const_mem is NULL a bank from the initializers goes there and in
 * *const_owned (the caller frees it and resets l->const_mem).  Relocates
 * what the caller did not.  0, or -1 with a message. */
int emu_segments(EmuLaunch *l, uint64_t *gbase, uint8_t **const_owned, WmErr *e);

/* --- the device heap (emu_heap.c) --- */

/* Whether kernel k calls malloc, free or an aligned malloc (then its
 * blocks run on one host thread: emu_heap.c says why). */
int emu_heap_used(const PtxKernel *k);
/* Makes g's heap of `size` bytes (0: CUDA's 8 MiB) unless it has one.
 * Returns 0, or -1 when global memory's limit does not leave room. */
int emu_heap_open(GlobalMem *g, uint64_t size, WmErr *e);
/* malloc(size) (align 16) or __nv_aligned_device_malloc(size, align): the
 * address, or 0 when the heap has no room (or align is not a power of 2). */
uint64_t emu_heap_alloc(Block *b, uint64_t size, uint64_t align);
/* free(p) by lane `lane` of warp `warp` at x: 0 (free(NULL) too), or -1
 * after a located fault for a pointer malloc did not return or a double
 * free. */
int emu_heap_free(Block *b, const EmuInstr *x, int warp, int lane, uint64_t p);

/* --- faults (emu_fault.c) --- */

/* Fails the block with a located message: the kernel, the CUDA and PTX
 * lines of x, the instruction, the block and thread of (warp, lane).
 * Returns -1; only the first fault of a block is kept. */
int emu_fault(Block *b, const EmuInstr *x, int warp, int lane, int code, const char *fmt, ...)
  __attribute__((format(printf, 6, 7)));
/* A located warning on stderr, the first time *once is 0 (then 1): what
 * the kernel does that a GPU may do otherwise, the emulator going on. */
void emu_warn_once(Block *b, const EmuInstr *x, int warp, int lane, int *once, const char *fmt, ...)
  __attribute__((format(printf, 6, 7)));
/* "PTX file.ptx:LINE", or "PTX line LINE" for PTX nvcc made from a .cu. */
void emu_ptx_where(const PtxModule *m, uint32_t line, char *buf, size_t n);
/* "kernel.cu:LINE" of the instruction (the file's name only), or "" when
 * the PTX has no line information for it. */
void emu_cu_where(const PtxModule *m, const PtxInstr *in, char *buf, size_t n);
/* x's type is one its function does not run: an EUNSUP fault. */
int emu_unsupported_type(Block *b, const EmuInstr *x, int warp, uint32_t mask);

/* --- the watchdog (emu_watch.c) --- */

/* A launch's budget of warp instructions and wall time, shared by the
 * host threads that run its blocks.  Each block tells it what it ran once
 * `every` instructions have gathered (emu_run_pass), so the hot loop pays
 * nothing per instruction; a thread that sees `stop` stops its block. */
typedef struct EmuWatch {
  uint64_t limit;     /* warp instructions (EmuLaunch.max_instrs) */
  uint64_t every;     /* a block's instructions between two looks */
  uint64_t used;      /* told so far, by every block (atomic) */
  double start, timeout; /* wm_now() at the start; seconds, 0: none */
  int stop;           /* atomic: 0, EMU_WATCH_INSTRS or EMU_WATCH_TIME */
} EmuWatch;
enum { EMU_WATCH_INSTRS = 1, EMU_WATCH_TIME = 2 };
#define EMU_SLICE 100000 /* instructions a warp runs before the next one's turn */
void emu_watch_init(EmuWatch *w, const EmuLaunch *l);
/* Makes w block b's watchdog (after emu_block_setup). */
void emu_watch_attach(EmuWatch *w, Block *b);
/* Tells b's pending instructions to the watchdog and looks at its clock:
 * 1 if the launch must stop (b->stopped set), else 0. */
int emu_watch_look(Block *b);
/* The watchdog's error (WM_EWATCHDOG) for a launch it stopped: the budget,
 * the warps still running in the n blocks bs (those it interrupted, the
 * others are skipped) and where some of them are.  Returns -1. */
int emu_watch_error(const EmuWatch *w, const EmuLaunch *l, Block *const *bs, size_t n, WmErr *e);

/* --- host memory budgets (emu_budget.c, docs/limits.md) --- */

#define EMU_LOCAL_MAX (512u << 10)            /* a thread's own local memory: CUDA's limit */
#define EMU_BLOCK_BYTES_MAX (4ull << 30)      /* one block's registers, local and shared memory */
#define EMU_BLOCKS_BYTES_MAX (16ull << 30)    /* the blocks in memory at once (one per host
                                                 thread; all of a cooperative grid) */
/* Checks what a block of l needs (registers of p, local memory, `shared`
 * bytes) against the budgets: 0 with the bytes in *block_bytes, or -1 with
 * a message (WM_ELIMIT). */
int emu_check_budget(const EmuLaunch *l, const EmuProgram *p, uint32_t shared, uint64_t *block_bytes, WmErr *e);
/* The host threads (at most nw) whose blocks fit EMU_BLOCKS_BYTES_MAX. */
int emu_budget_threads(int nw, uint64_t block_bytes);

/* --- the spin watch (emu_sched.c) --- */

/* Backward branches a warp takes between two looks of the watch (emu.c
 * counts them, so that a loop costs an increment until then). */
#define EMU_SPIN_EVERY 64
/* Warp w of b takes the backward branch x from pc, its EMU_SPIN_EVERY-th
 * since the last look or the one after an armed look: returns 1 when its
 * state (registers the loop writes, SIMT stack) is what it was one
 * iteration ago, at this branch: it spins on memory only another warp can
 * change, so the scheduler should run the others. */
int emu_spin_backedge(Block *b, Warp *w, const EmuInstr *x, uint32_t pc);
/* Warp instructions the warps of a block (of the grid, in a cooperative
 * launch) may run while every one that runs spins and no barrier completes,
 * before the kernel is stopped (emu_no_progress). */
#define EMU_SPIN_BUDGET (1u << 20)
/* The located error for such a kernel: WM_EDEADLOCK naming the warp of b
 * that spins, where and since how many instructions.  Returns -1. */
int emu_no_progress(Block *b, int warp, uint64_t instrs, int cooperative);

#endif
