/* arch.h - GPU presets: the published facts of each generation that the
 * memory model, the occupancy calculator and the time model use.
 *
 * One row per preset in arch.c (ARCH_PRESETS X-macro-free table of structs,
 * each number with its source in a comment).  Configuration only: nothing
 * here is derived or counted.
 */
#ifndef WM_ARCH_H
#define WM_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "arch/deal.h"

/* How a warp's global accesses become memory transactions. */
typedef enum {
  COAL_CC12,   /* compute capability 1.2/1.3: per half-warp, 32/64/128-byte
                  segments, then the segment is reduced (seed 004) */
  COAL_FERMI,  /* 2.x: 128-byte L1 lines for caching loads (ld.ca), 32-byte
                  segments for non-caching loads (ld.cg) and stores */
  COAL_SECTOR  /* 3.0 and later: 32-byte sectors */
} ArchCoalesce;

/* The tensor cores' dense rates the time model's tensor bound divides by
 * (Arch.tensor_fma): X(ENUM, what).  wgmma and mma.sync are apart, as
 * Hopper may not reach wgmma's rate with mma.sync. */
#define ARCH_TENSOR_RATES(X)                                                \
  X(GMMA_F16, "wgmma f16 and bf16")                                         \
  X(GMMA_TF32, "wgmma tf32")                                                \
  X(GMMA_FP8, "wgmma e4m3 and e5m2")                                        \
  X(GMMA_INT8, "wgmma s8 and u8")                                           \
  X(GMMA_B1, "wgmma b1")                                                    \
  X(MMA_F16, "mma.sync and wmma f16 and bf16")                              \
  X(MMA_TF32, "mma.sync and wmma tf32")                                     \
  X(MMA_INT8, "mma.sync and wmma s8 and u8")                                \
  X(MMA_F64, "mma.sync and wmma f64")

typedef enum {
#define X(e, what) ARCH_TC_##e,
  ARCH_TENSOR_RATES(X)
#undef X
  ARCH_TC_COUNT
} ArchTensorRate;

typedef struct Arch {
  const char *name;          /* preset name for --arch: "h200" */
  const char *gpu;           /* "NVIDIA H200 SXM 141GB" */
  const char *generation;    /* "Hopper" */
  int cc;                    /* compute capability * 10: 90 */
  int sms;                   /* streaming multiprocessors */
  int warp_size;
  double clock_ghz;          /* SM boost clock */

  /* Occupancy limits (CUDA C Programming Guide, "Technical Specifications
   * per Compute Capability", and the CUDA occupancy calculator). */
  int max_threads_block;
  int max_threads_sm;
  int max_warps_sm;
  int max_blocks_sm;
  int regs_sm;               /* 32-bit registers per SM */
  int regs_block;            /* per block */
  int regs_thread;           /* most per thread */
  int reg_unit;              /* allocation unit (registers) */
  int reg_per_warp;          /* 1: registers allocated per warp (sm_20+),
                                0: per block (1.x) */
  int warp_alloc_unit;       /* 1.x: warps allocated in units of 2 */
  int reg_partitions;        /* register file sub-partitions: a warp's
                                registers lie in one (cuda_occupancy.h) */
  int smem_sm;               /* most shared memory per SM, bytes */
  int smem_block;            /* most per block without opt-in, bytes */
  int smem_block_optin;      /* most per block with opt-in, bytes */
  int smem_unit;             /* shared memory allocation unit, bytes */
  int smem_reserved;         /* system use per block (1 KiB on sm_80+) */

  /* Shared memory banks. */
  int banks;                 /* 16 (1.x) or 32 */
  int bank_bytes;            /* 4; Kepler can switch to 8 */

  /* Global memory path. */
  ArchCoalesce coalesce;
  int l1_bytes;              /* L1 data cache per SM when shared memory is
                                not using the unified array (the default) */
  int l1_smem_bytes;         /* unified L1 + shared array per SM, 0 if the
                                two are separate or fixed */
  const int *carveouts;      /* shared memory sizes (KiB) the unified array
                                may give to shared memory, ascending,
                                0-terminated; NULL if fixed (1.x).  sm_70+
                                also allow 0 KiB, which is not listed */
  int l1_caches_loads;       /* global loads allocate in L1 by default */
  int l1_line, l1_sector;    /* bytes */
  int l2_bytes;
  int l2_line, l2_sector;    /* bytes */
  int l2_ways;

  /* DRAM. */
  const char *dram;          /* "HBM3e" */
  int bus_bits;
  double dram_gbs;           /* peak bandwidth, GB/s (1e9 bytes/s) */
  int channels;              /* independent channels (pseudo-channels for HBM) */
  int dram_banks;            /* banks per channel */
  int row_bytes;             /* row (page) size per bank */
  int burst_bytes;           /* bytes per access (burst length * width) */
  int fetch_bytes;           /* smallest L2 fill from DRAM */
  int dram_interleave;       /* bytes mapped to one channel before the next */

  /* How the cache model treats this GPU (src/model/model.c, src/mem/). */
  int l1_ways;               /* L1 associativity */
  int l2_model_pct;          /* share of l2_bytes an LRU model of the L2
                                holds */
  int l2_parts;              /* 2: two L2 partitions, a far line kept in
                                both (mem/cache.c); 0 or 1: one */
  uint64_t l2_side[3];       /* bit s: SM s near partition 1 (all 0: TPCs
                                alternate) */
  int block_group;           /* consecutive blocks placed on one SM together */
  const ArchLayout *layout;  /* the order blocks are dealt to the SMs and the
                                crossbar's groups (deal.h); NULL: in turn */
  int xbar_sms;              /* SMs whose reads of one sector in the same
                                round reach the L2 as one read (0: none) */
  int merge_sectors;         /* L1 store merging window, sectors (0: none) */
  int merge_lines;           /* ...for requests of at most this many lines */
  int partial_bytes;         /* partly written L2 sectors kept before the
                                oldest is completed from DRAM (0: unlimited) */

  /* Time model (src/model/model.c): throughputs and latencies. */
  double dram_latency_ns;
  double launch_ns;          /* kernel launch overhead */
  double launch_dram_bytes;  /* DRAM bytes every launch reads besides its
                                data (its code and parameters, as Nsight
                                Compute counts dram__bytes_read), measured
                                with kernels of 512 bytes of code: a larger
                                kernel reads the rest of its code too
                                (sim_model.c); 0: unknown */
  double block_ns;           /* per-SM cost to launch a block */
  double dram_act_ns;        /* a row activation's share of a channel's time:
                                 the DRAM bound is at least the row misses x
                                 this / channels (0: not modelled) */
  double dram_eff;           /* fraction of dram_gbs a streaming kernel
                                sustains */
  int schedulers;            /* warp schedulers per SM (one issue each per
                                clock) */
  double hot_write_ns;       /* time between two writes to one L2 line */
  double l2_reqs_ns;         /* L2 requests (one per line per L1 request)
                                all slices serve per ns; 0: no L2 bound */
  double raw_wait_ns;        /* a load of a sector its SM is still writing
                                waits this long for the store */
  double barrier_lat;        /* a block's first memory phase lasts this many
                                times the DRAM latency when a barrier waits
                                for the slowest warp */
  /* a warp's round trip (emu_rounds.c) to the level its loads reach, with
     little else in flight; 0: no bound from dependent rounds */
  double l1_round_ns, l2_round_ns, dram_round_ns;
  int replay_clock;          /* 1: the replay's clock has this GPU's constants (mem/replay_clock.h: the GH100's) */
  double warp_cpi;           /* clocks a dependent ALU result takes: scales the
                                latency table (emu_latency.c, Hopper clocks,
                                where it is 4); 0: no such bound */
  double atom_update_ns;     /* between two atomic updates of one L2 line
                                (each lane's, when lanes share a word) */
  double l1_write_cycles;    /* clocks an SM's L1 needs per write request it
                                sends the L2; 0: no such bound */
  double tensor_clock_ghz;   /* the SM clock while the tensor cores are busy
                                (power-limited below the boost clock), 0:
                                the boost clock */
  double tensor_fma[ARCH_TC_COUNT]; /* dense multiply-adds an SM's tensor cores
                                complete per clock, by ArchTensorRate; 0: no
                                tensor bound for that path */
} Arch;

/* The presets, in order of generation; arch_count() of them. */
const Arch *arch_preset(int i);
int arch_count(void);

/* Finds a preset by name ("h200") or alias ("sm_90", "hopper", "90").
 * NULL if none. */
const Arch *arch_find(const char *name);

/* The default preset (h200: the ground truth's GPU). */
const Arch *arch_default(void);

/* The target nvcc compiles a .cu for, whatever the preset: "sm_90a", from
 * the default preset's cc (in a buffer of the calling thread's): Hopper's
 * arch-specific target, for which wgmma and setmaxnreg compile and plain
 * code compiles to the same PTX as for sm_90 but its .target line.  One
 * target for every preset: CUDA 13's nvcc cannot compile for the older
 * GPUs (sm_75 is its lowest), and one PTX keeps the presets' counters
 * comparable (the ground truth's was compiled for sm_90).  What does
 * differ per preset, the registers per thread, ptx_registers() gets from
 * ptxas for the preset's own cc. */
const char *arch_ptx_target(void);

/* "32-byte sectors", ... */
const char *arch_coalesce_name(ArchCoalesce c);

/* What a launch may ask of a preset (CUDA C Programming Guide, "Technical
 * Specifications per Compute Capability"): derived from max_threads_block,
 * smem_block_optin and the compute capability. */
typedef struct ArchLimits {
  uint32_t block_threads;    /* threads per block */
  uint32_t block_xy, block_z; /* block dimensions */
  uint32_t grid_x, grid_yz;  /* grid dimensions */
  uint32_t smem_block;       /* shared memory per block, with opt-in */
} ArchLimits;

/* The limits of preset a; a == NULL: the largest any preset allows (for
 * checks made before a preset is chosen). */
ArchLimits arch_limits(const Arch *a);

/* The preset names, comma-separated, for messages. */
void arch_names(char *buf, size_t n);

#endif
