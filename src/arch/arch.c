/* arch.c - the GPU presets: one struct of published facts per generation.
 *
 * Sources, abbreviated in the comments:
 *   [PG]    CUDA C++ Programming Guide, "Compute Capabilities" (technical
 *           specifications per compute capability, and the per-generation
 *           sections on shared memory banks and global memory caching);
 *           1.x and 2.x rows from the editions that still had them (3.x-5.x).
 *   [OCC]   the CUDA occupancy calculator: cuda_occupancy.h of CUDA 13.0
 *           (sm_30 and later) and of CUDA 7.0 (sm_1x, sm_2x), which is what
 *           cudaOccupancyMaxActiveBlocksPerMultiprocessor computes.
 *   [GT200] NVIDIA GeForce GTX 200 GPU Architectural Overview (2008) and the
 *           GTX 280 product specifications.
 *   [FERMI] NVIDIA's Next Generation CUDA Compute Architecture: Fermi
 *           (whitepaper, 2009) and the Tesla C2050 board specification.
 *   [GK104] NVIDIA GeForce GTX 680 whitepaper (2012).
 *   [GV100] NVIDIA Tesla V100 GPU Architecture whitepaper (2017).
 *   [GA100] NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020).
 *   [GH100] NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022) and the
 *           H100 SXM5 datasheet; H200 SXM datasheet (2024).
 *   [GT]    groundtruth/README.md: the H200 the counters were
 *           measured on (132 SMs, 60 MiB L2 as the driver reports it).
 *   [JEDEC] JEDEC GDDR3, GDDR5 (JESD212), HBM2 (JESD235), HBM3 (JESD238).
 *   [SEED4] J. Luitjens, "Global Memory Usage and Strategy", NVIDIA GPU
 *           Computing Webinar, 2011 (the lab's seed 004): "GMEM latency:
 *           400-800 cycles".
 *
 * DRAM: `channels` counts independent interfaces of `bus_bits / channels`
 * bits each (64-bit partitions for GDDR3, 32-bit devices for GDDR5,
 * pseudo-channels for HBM); banks and row sizes are the JEDEC device's, per
 * channel.  Where a vendor publishes nothing (L2 associativity, banks, row
 * size, time-model throughputs and latencies) the value is marked
 * "assumed" with the reason.
 *
 * The time-model lines (dram_latency_ns .. barrier_lat, read by the time
 * model, src/model/model.c) of h200 are fitted to [GT] and hopper's follow
 * them: they are marked TIME-MODEL.
 */
#include "arch/arch.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Shared-memory configurations the unified L1/shared array supports, KiB,
 * 0-terminated; sm_70+ also allow 0 KiB (arch.h). */
static const int fermi_carveouts[] = {16, 48, 0};              /* [FERMI], [PG] 2.x */
static const int kepler_carveouts[] = {16, 32, 48, 0};         /* [PG] 3.x: 16/32/48 KB shared */
static const int volta_carveouts[] = {8, 16, 32, 64, 96, 0};   /* [PG] 7.x, [OCC] */
static const int ampere_carveouts[] = {8, 16, 32, 64, 100, 132, 164, 0};           /* [PG] 8.0, [OCC] */
static const int hopper_carveouts[] = {8, 16, 32, 64, 100, 132, 164, 196, 228, 0}; /* [PG] 9.0, [OCC] */
#define CARVEOUTS(a) .carveouts = (a)

/* Tensor cores, dense multiply-adds per SM per clock (Arch.tensor_fma),
 * measured on the H200 at the tensor-busy clock (HOPPER_TENSOR_CLOCK):
 * groundtruth/tensor_kernels.cu keeps every SM's tensor cores busy with one
 * path each (132 blocks of two warpgroups, or of mma.sync warps), Nsight
 * Compute's ops over its time (docs/results/h200-2026-12-02-hopper).  The
 * datasheet's ([GH100] H100 SXM5: 989.4 dense f16/bf16 TFLOPS = 132 SMs x 2
 * x 2048 at 1.83 GHz) are a tenth higher; b1, which no datasheet gives for
 * Hopper, is 8 times int8.  One probe a constant: a measured rate, not a
 * mechanism (what keeps wgmma under its datasheet rate is not modelled). */
#define HOPPER_TENSOR                                                                                   \
  HOPPER_TENSOR_CLOCK,                                                                                  \
  .tensor_fma = {[ARCH_TC_GMMA_F16] = 1840, [ARCH_TC_GMMA_TF32] = 916, [ARCH_TC_GMMA_FP8] = 3540,          \
                 [ARCH_TC_GMMA_INT8] = 3700, [ARCH_TC_GMMA_B1] = 29950, [ARCH_TC_MMA_F16] = 1315,          \
                 [ARCH_TC_MMA_TF32] = 663, [ARCH_TC_MMA_INT8] = 2645, [ARCH_TC_MMA_F64] = 143}

/* The SM clock under tensor-core load: measured on the H200, Nsight
 * Compute's sm__cycles_elapsed.avg.per_second over eleven wgmma GEMMs of a
 * public series at 2048^3 (1.72 to 1.80 GHz, mean 1.75; its SIMT kernel ran
 * at 1.98), docs/results/h200-2026-12-02-hopper.  A fit of one series'
 * clocks, not a power model: the H100 is assumed alike. */
#define HOPPER_TENSOR_CLOCK .tensor_clock_ghz = 1.75

#define KIB 1024
#define MIB (1024 * 1024)

static const Arch presets[] = {
  {
    .name = "gt200", .gpu = "NVIDIA GeForce GTX 280", .generation = "Tesla (GT200)", .cc = 13,
    .sms = 30,                   /* [GT200]: 10 TPCs x 3 SMs, 240 cores */
    .warp_size = 32,
    .clock_ghz = 1.296,          /* [GT200]: processor (shader) clock */
    .max_threads_block = 512,    /* [PG] 1.x */
    .max_threads_sm = 1024,      /* [PG] 1.2/1.3 (768 was 1.0/1.1: the seed's
                                    "768 threads" is G80's number) */
    .max_warps_sm = 32,          /* [PG] 1.2/1.3 */
    .max_blocks_sm = 8,          /* [PG] 1.x */
    .regs_sm = 16384,            /* [PG] 1.2/1.3; the seed's "16384 per GT200 SM" */
    .regs_block = 16384,         /* [OCC] 1.3: the whole file */
    .regs_thread = 128,          /* [PG] 1.x (later editions print 127) */
    .reg_unit = 512,             /* [OCC] 1.2/1.3: per block, units of 512 */
    .reg_per_warp = 0,           /* [OCC]: 1.x allocates registers per block */
    .warp_alloc_unit = 2,        /* [OCC]: 1.x allocates warps in pairs */
    .reg_partitions = 1,
    .smem_sm = 16 * KIB,         /* [PG] 1.x */
    .smem_block = 16 * KIB,
    .smem_block_optin = 16 * KIB,
    .smem_unit = 512,            /* [OCC] 1.x */
    .smem_reserved = 0,
    .banks = 16, .bank_bytes = 4, /* [PG] 1.x: 16 banks of 32 bits */
    .coalesce = COAL_CC12,       /* [PG] 1.2/1.3 coalescing, seed 004 */
    .l1_bytes = 0,               /* no cache for global memory on 1.x */
    .l1_smem_bytes = 0,          /* 16 KB of shared memory, fixed */
    .carveouts = NULL,
    .l1_caches_loads = 0,
    .l1_line = 0, .l1_sector = 0,
    .l2_bytes = 0, .l2_line = 0, .l2_sector = 0, .l2_ways = 0, /* no L2 for global */
    .dram = "GDDR3",
    .bus_bits = 512,             /* [GT200]: eight 64-bit partitions */
    .dram_gbs = 141.7,           /* [GT200]: 1107 MHz DDR x 512 bits */
    .channels = 8,               /* [GT200]: 8 memory partitions of 64 bits */
    .dram_banks = 8,             /* [JEDEC] GDDR3 512 Mb device: 8 banks */
    .row_bytes = 4096,           /* assumed: two x32 GDDR3 devices of 2 KB
                                    pages side by side per 64-bit partition */
    .burst_bytes = 32,           /* [JEDEC] GDDR3 burst of 4 x 64 bits */
    .fetch_bytes = 32,           /* [PG] 1.2/1.3: smallest segment 32 bytes */
    .dram_latency_ns = 340,      /* approximate: ~440 shader clocks, Wong et al.,
                                    "Demystifying GPU Microarchitecture through
                                    Microbenchmarking", ISPASS 2010 */
    .dram_interleave = 256,      /* assumed: not published */
    .l1_ways = 4,                /* assumed: not published */
    .l2_model_pct = 50,          /* as h200: not fitted here */
    .block_group = 1,            /* as h200: not measured here */
    .merge_sectors = 0,          /* no store merging before sm_70 (none modeled) */
    .merge_lines = 16,
    .partial_bytes = 0,          /* not modeled before sm_70 */
    .launch_ns = 5000,           /* approximate: 3-7 us, Volkov & Demmel,
                                    "Benchmarking GPUs to tune dense linear
                                    algebra", SC08 */
    .block_ns = 50,              /* assumed: not published */
    .dram_eff = 0.75,            /* approximate: streaming kernels reach ~75%
                                    of peak on GDDR3 boards */
    .schedulers = 1,             /* [GT200]: one warp instruction per SM every 4
                                    shader clocks (8 cores): this field cannot
                                    say 1/4, so the issue bound is optimistic */
    .hot_write_ns = 4.0,         /* assumed: not published */
    .l2_reqs_ns = 0,             /* unknown: no L2 bound (not fitted) */
    .raw_wait_ns = 0,            /* unknown: not fitted */
    .barrier_lat = 1.2,          /* as h200 (fitted there) */
  },
  {
    .name = "fermi", .gpu = "NVIDIA Tesla C2050", .generation = "Fermi (GF100)", .cc = 20,
    .sms = 14,                   /* [FERMI] C2050: 14 SMs x 32 cores */
    .warp_size = 32,
    .clock_ghz = 1.15,           /* [FERMI] C2050 processor clock */
    .max_threads_block = 1024,   /* [PG] 2.x */
    .max_threads_sm = 1536,
    .max_warps_sm = 48,
    .max_blocks_sm = 8,
    .regs_sm = 32768,            /* [PG] 2.x: 32K */
    .regs_block = 32768,
    .regs_thread = 63,           /* [PG] 2.x */
    .reg_unit = 64,              /* [OCC] 2.x: per warp, units of 64 (128 for
                                    21,22,29,30,37,38,45,46: occupancy.c) */
    .reg_per_warp = 1,
    .warp_alloc_unit = 1,        /* [OCC] CUDA 7.0 (the .xls said 2) */
    .reg_partitions = 2,         /* [OCC] 2.x: two register file halves */
    .smem_sm = 48 * KIB,         /* [PG] 2.x: 48 KB with the default split */
    .smem_block = 48 * KIB,
    .smem_block_optin = 48 * KIB,
    .smem_unit = 128,            /* [OCC] 2.x */
    .smem_reserved = 0,
    .banks = 32, .bank_bytes = 4, /* [PG] 2.x */
    .coalesce = COAL_FERMI,
    .l1_bytes = 16 * KIB,        /* [FERMI]: 64 KB split 48 KB shared / 16 KB L1
                                    by default (cudaFuncCachePreferNone) */
    .l1_smem_bytes = 64 * KIB,   /* [FERMI]: 64 KB per SM, 16/48 or 48/16 */
    CARVEOUTS(fermi_carveouts),
    .l1_caches_loads = 1,        /* [PG] 2.x: global loads cached in L1 by
                                    default (-Xptxas -dlcm=ca), seed 004 */
    .l1_line = 128, .l1_sector = 128, /* [PG] 2.x: 128-byte cache lines */
    .l2_bytes = 768 * KIB,       /* [FERMI]: 768 KB unified L2 */
    .l2_line = 128,              /* [FERMI] */
    .l2_sector = 32,             /* [PG] 2.x: uncached loads fetch 32-byte segments */
    .l2_ways = 16,               /* assumed: not published */
    .dram = "GDDR5",
    .bus_bits = 384,             /* [FERMI]: six 64-bit controllers */
    .dram_gbs = 144.0,           /* C2050: 1.5 GHz GDDR5 (3 Gb/s) x 384 bits */
    .channels = 12,              /* 384 bits / 32-bit GDDR5 devices */
    .dram_banks = 16,            /* [JEDEC] GDDR5: 16 banks in 4 bank groups */
    .row_bytes = 2048,           /* [JEDEC] GDDR5 x32 page: 2 KB */
    .burst_bytes = 32,           /* [JEDEC] GDDR5 burst of 8 x 32 bits */
    .fetch_bytes = 32,           /* L2 sector */
    .dram_latency_ns = 520,      /* [SEED4]: 400-800 cycles; 600 at 1.15 GHz */
    .dram_interleave = 256,      /* assumed: not published */
    .l1_ways = 4,                /* assumed: not published */
    .l2_model_pct = 50,          /* as h200: not fitted here */
    .block_group = 1,            /* as h200: not measured here */
    .merge_sectors = 0,          /* no store merging before sm_70 (none modeled) */
    .merge_lines = 16,
    .partial_bytes = 0,          /* not modeled before sm_70 */
    .launch_ns = 5000,           /* approximate, as gt200 */
    .block_ns = 50,              /* assumed: not published */
    .dram_eff = 0.75,            /* approximate: ECC on (the C2050 default) costs ~20% of peak */
    .schedulers = 1,             /* [FERMI]: 2 schedulers, each a warp
                                    instruction per 2 clocks on 16 cores */
    .hot_write_ns = 4.0,         /* assumed: not published */
    .l2_reqs_ns = 0,             /* unknown: no L2 bound (not fitted) */
    .raw_wait_ns = 0,            /* unknown: not fitted */
    .barrier_lat = 1.2,          /* as h200 (fitted there) */
  },
  {
    .name = "kepler", .gpu = "NVIDIA GeForce GTX 680", .generation = "Kepler (GK104)", .cc = 30,
    .sms = 8,                    /* [GK104]: 8 SMX x 192 cores */
    .warp_size = 32,
    .clock_ghz = 1.058,          /* [GK104]: 1006 MHz base, 1058 MHz boost */
    .max_threads_block = 1024,   /* [PG] 3.0 */
    .max_threads_sm = 2048,
    .max_warps_sm = 64,
    .max_blocks_sm = 16,         /* [PG] 3.x, [OCC] */
    .regs_sm = 65536,            /* [PG] 3.0: 64K */
    .regs_block = 65536,
    .regs_thread = 63,           /* [PG] 3.0 (255 from 3.5) */
    .reg_unit = 256,             /* [OCC] 3.x+ */
    .reg_per_warp = 1,
    .warp_alloc_unit = 1,
    .reg_partitions = 4,         /* [OCC] 3.x: four sub-partitions */
    .smem_sm = 48 * KIB,         /* [PG] 3.0 */
    .smem_block = 48 * KIB,
    .smem_block_optin = 48 * KIB,
    .smem_unit = 256,            /* [OCC] 3.x */
    .smem_reserved = 0,
    .banks = 32,                 /* [PG] 3.x, seed 000 ("GTX680 has 32 banks") */
    .bank_bytes = 4,             /* [PG] 3.x: 4-byte mode by default, 8-byte
                                    with cudaDeviceSetSharedMemConfig (--bank-mode) */
    .coalesce = COAL_SECTOR,
    .l1_bytes = 16 * KIB,        /* [PG] 3.x: 48 KB shared / 16 KB L1 by default */
    .l1_smem_bytes = 64 * KIB,   /* [GK104]: 64 KB per SMX, 16/32/48 KB L1 */
    CARVEOUTS(kepler_carveouts),
    .l1_caches_loads = 0,        /* [PG] 3.0: global loads are cached in L2
                                    only; L1 holds local memory */
    .l1_line = 128, .l1_sector = 32, /* [PG] 3.x */
    .l2_bytes = 512 * KIB,       /* [GK104]: 512 KB */
    .l2_line = 128, .l2_sector = 32,
    .l2_ways = 16,               /* assumed: not published */
    .dram = "GDDR5",
    .bus_bits = 256,             /* [GK104]: four 64-bit controllers */
    .dram_gbs = 192.26,          /* [GK104]: 6008 MT/s x 256 bits */
    .channels = 8,               /* 256 bits / 32-bit GDDR5 devices */
    .dram_banks = 16,            /* [JEDEC] GDDR5 */
    .row_bytes = 2048,           /* [JEDEC] GDDR5 x32 page */
    .burst_bytes = 32,           /* [JEDEC] GDDR5 burst of 8 x 32 bits */
    .fetch_bytes = 32,
    .dram_latency_ns = 300,      /* approximate: ~300 cycles, Mei & Chu,
                                    "Dissecting GPU Memory Hierarchy through
                                    Microbenchmarking", TPDS 2017 */
    .dram_interleave = 256,      /* assumed: not published */
    .l1_ways = 4,                /* assumed: not published */
    .l2_model_pct = 50,          /* as h200: not fitted here */
    .block_group = 1,            /* as h200: not measured here */
    .merge_sectors = 0,          /* no store merging before sm_70 (none modeled) */
    .merge_lines = 16,
    .partial_bytes = 0,          /* not modeled before sm_70 */
    .launch_ns = 4000,           /* approximate */
    .block_ns = 40,              /* assumed: not published */
    .dram_eff = 0.80,            /* approximate: published STREAM-like copies on GTX 680 */
    .schedulers = 4,             /* [GK104]: 4 warp schedulers per SMX (each may dual-issue) */
    .hot_write_ns = 3.0,         /* assumed: not published */
    .l2_reqs_ns = 0,             /* unknown: no L2 bound (not fitted) */
    .raw_wait_ns = 0,            /* unknown: not fitted */
    .barrier_lat = 1.2,          /* as h200 (fitted there) */
  },
  {
    .name = "volta", .gpu = "NVIDIA Tesla V100 SXM2", .generation = "Volta (GV100)", .cc = 70,
    .sms = 80,                   /* [GV100]: 80 SMs on V100 */
    .warp_size = 32,
    .clock_ghz = 1.53,           /* [GV100]: boost 1530 MHz */
    .max_threads_block = 1024,   /* [PG] 7.0 */
    .max_threads_sm = 2048,
    .max_warps_sm = 64,
    .max_blocks_sm = 32,         /* [PG] 7.0, [OCC] */
    .regs_sm = 65536,
    .regs_block = 65536,
    .regs_thread = 255,          /* [PG] 3.5+ */
    .reg_unit = 256,             /* [OCC] */
    .reg_per_warp = 1,
    .warp_alloc_unit = 1,
    .reg_partitions = 4,         /* [OCC], [GV100]: 4 processing blocks per SM */
    .smem_sm = 96 * KIB,         /* [PG] 7.0 */
    .smem_block = 48 * KIB,      /* [PG]: more needs the opt-in attribute */
    .smem_block_optin = 96 * KIB,
    .smem_unit = 256,            /* [OCC] 7.x */
    .smem_reserved = 0,
    .banks = 32, .bank_bytes = 4,
    .coalesce = COAL_SECTOR,
    .l1_bytes = 128 * KIB,       /* [GV100]: the whole 128 KB when no shared */
    .l1_smem_bytes = 128 * KIB,  /* [GV100]: 128 KB combined L1/shared */
    CARVEOUTS(volta_carveouts),
    .l1_caches_loads = 1,        /* [PG] 7.x: global loads cached in L1 by default */
    .l1_line = 128, .l1_sector = 32,
    .l2_bytes = 6 * MIB,         /* [GV100]: 6144 KB */
    .l2_line = 128, .l2_sector = 32,
    .l2_ways = 16,               /* assumed: not published */
    .dram = "HBM2",
    .bus_bits = 4096,            /* [GV100]: 4 stacks x 1024 bits */
    .dram_gbs = 900,             /* [GV100] */
    .channels = 64,              /* [JEDEC] HBM2: 8 channels x 2 pseudo-channels per stack */
    .dram_banks = 16,            /* assumed: [JEDEC] HBM2 allows 8-32 per channel */
    .row_bytes = 1024,           /* [JEDEC] HBM2 pseudo-channel page: 1 KB */
    .burst_bytes = 32,           /* [JEDEC] HBM2 burst of 4 x 64 bits */
    .fetch_bytes = 32,
    .dram_latency_ns = 400,      /* approximate: Jia et al., "Dissecting the
                                    NVIDIA Volta GPU Architecture via
                                    Microbenchmarking", 2018 */
    .dram_interleave = 256,      /* assumed: not published */
    .l1_ways = 4,                /* assumed: not published */
    .l2_model_pct = 50,          /* as h200: not fitted here */
    .block_group = 1,            /* as h200: not measured here */
    .merge_sectors = 16,         /* [GT] fitted on h200: L1 store merging (sm_70+) */
    .merge_lines = 16,
    .partial_bytes = 7 << 20,    /* [GT] fitted on h200: ~7 MiB of partly written sectors */
    .launch_ns = 3000,           /* approximate */
    .block_ns = 30,              /* assumed: not published */
    .dram_eff = 0.88,            /* approximate: BabelStream reaches ~790 of 900 GB/s */
    .schedulers = 4,             /* [GV100]: 4 processing blocks, one scheduler each */
    .hot_write_ns = 2.0,         /* assumed: not published */
    .l2_reqs_ns = 0,             /* unknown: no L2 bound (not fitted) */
    .raw_wait_ns = 0,            /* unknown: not fitted */
    .barrier_lat = 1.2,          /* as h200 (fitted there) */
    .tensor_fma = {[ARCH_TC_MMA_F16] = 512}, /* [GV100]: 125 TFLOPS = 80 SMs x 1.53 GHz x 2 x 512 */
  },
  {
    .name = "ampere", .gpu = "NVIDIA A100 SXM4 40GB", .generation = "Ampere (GA100)", .cc = 80,
    .sms = 108,                  /* [GA100]: 108 SMs on A100 */
    .warp_size = 32,
    .clock_ghz = 1.41,           /* [GA100]: boost 1410 MHz */
    .max_threads_block = 1024,   /* [PG] 8.0 */
    .max_threads_sm = 2048,
    .max_warps_sm = 64,
    .max_blocks_sm = 32,         /* [PG] 8.0, [OCC] */
    .regs_sm = 65536,
    .regs_block = 65536,
    .regs_thread = 255,
    .reg_unit = 256,
    .reg_per_warp = 1,
    .warp_alloc_unit = 1,
    .reg_partitions = 4,
    .smem_sm = 164 * KIB,        /* [PG] 8.0: 164 KB */
    .smem_block = 48 * KIB,
    .smem_block_optin = 163 * KIB, /* [PG] 8.0: 163 KB (164 less the reserved 1 KB) */
    .smem_unit = 128,            /* [OCC] 8.x */
    .smem_reserved = 1024,       /* [PG] 8.x: 1 KB per block for system use */
    .banks = 32, .bank_bytes = 4,
    .coalesce = COAL_SECTOR,
    .l1_bytes = 192 * KIB,
    .l1_smem_bytes = 192 * KIB,  /* [GA100]: 192 KB combined per SM */
    CARVEOUTS(ampere_carveouts),
    .l1_caches_loads = 1,
    .l1_line = 128, .l1_sector = 32,
    .l2_bytes = 40 * MIB,        /* [GA100]: 40 MB on A100 */
    .l2_line = 128, .l2_sector = 32,
    .l2_ways = 16,               /* assumed: not published */
    .dram = "HBM2",
    .bus_bits = 5120,            /* [GA100]: 5 active stacks x 1024 bits */
    .dram_gbs = 1555,            /* [GA100] */
    .channels = 80,              /* 5 stacks x 16 pseudo-channels */
    .dram_banks = 16,            /* assumed, as volta */
    .row_bytes = 1024,
    .burst_bytes = 32,
    .fetch_bytes = 32,
    .dram_latency_ns = 480,      /* approximate: published microbenchmarks */
    .dram_interleave = 256,      /* assumed: not published */
    .l1_ways = 4,                /* assumed: not published */
    .l2_model_pct = 50,          /* as h200: not fitted here */
    .block_group = 1,            /* as h200: not measured here */
    .merge_sectors = 16,         /* [GT] fitted on h200: L1 store merging (sm_70+) */
    .merge_lines = 16,
    .partial_bytes = 7 << 20,    /* [GT] fitted on h200: ~7 MiB of partly written sectors */
    .launch_ns = 2500,           /* approximate */
    .block_ns = 25,              /* assumed: not published */
    .dram_eff = 0.88,            /* approximate: BabelStream reaches ~1370 of 1555 GB/s */
    .schedulers = 4,             /* [GA100]: 4 processing blocks */
    .hot_write_ns = 1.5,         /* assumed: not published */
    .l2_reqs_ns = 0,             /* unknown: no L2 bound (not fitted) */
    .raw_wait_ns = 0,            /* unknown: not fitted */
    .barrier_lat = 1.2,          /* as h200 (fitted there) */
    /* [GA100]: 312 f16, 156 tf32, 624 int8, 19.5 f64 dense T(FL)OPS = 108 SMs x 1.41 GHz x 2 x these */
    .tensor_fma = {[ARCH_TC_MMA_F16] = 1024, [ARCH_TC_MMA_TF32] = 512, [ARCH_TC_MMA_INT8] = 2048,
                   [ARCH_TC_MMA_F64] = 64},
  },
  {
    .name = "hopper", .gpu = "NVIDIA H100 SXM5 80GB", .generation = "Hopper (GH100)", .cc = 90,
    .sms = 132,                  /* [GH100]: 132 SMs on H100 SXM5 */
    .warp_size = 32,
    .clock_ghz = 1.98,           /* [GH100] datasheet: max boost 1980 MHz */
    .max_threads_block = 1024,   /* [PG] 9.0 */
    .max_threads_sm = 2048,
    .max_warps_sm = 64,
    .max_blocks_sm = 32,         /* [PG] 9.0, [OCC] */
    .regs_sm = 65536,
    .regs_block = 65536,
    .regs_thread = 255,
    .reg_unit = 256,
    .reg_per_warp = 1,
    .warp_alloc_unit = 1,
    .reg_partitions = 4,
    .smem_sm = 228 * KIB,        /* [PG] 9.0: 228 KB */
    .smem_block = 48 * KIB,
    .smem_block_optin = 227 * KIB, /* [PG] 9.0: 227 KB */
    .smem_unit = 128,            /* [OCC] 9.x */
    .smem_reserved = 1024,       /* [PG] 8.x+: 1 KB per block */
    .banks = 32, .bank_bytes = 4,
    .coalesce = COAL_SECTOR,
    .l1_bytes = 256 * KIB,
    .l1_smem_bytes = 256 * KIB,  /* [GH100]: 256 KB combined per SM */
    CARVEOUTS(hopper_carveouts),
    .l1_caches_loads = 1,
    .l1_line = 128, .l1_sector = 32,
    .l2_bytes = 50 * MIB,        /* [GH100]: 50 MB on H100 SXM5 */
    .l2_line = 128, .l2_sector = 32,
    .l2_ways = 16,               /* assumed: not published */
    .dram = "HBM3",
    .bus_bits = 5120,            /* [GH100]: 5 active stacks x 1024 bits */
    .dram_gbs = 3352,            /* [GH100] datasheet: 3.35 TB/s */
    .channels = 160,             /* [JEDEC] HBM3: 16 channels x 2 pseudo-channels
                                    of 32 bits per stack, 5 stacks */
    .dram_banks = 16,            /* assumed: [JEDEC] HBM3 16 banks (4 groups)
                                    per pseudo-channel for 8-16 Gb dies */
    .row_bytes = 1024,           /* [JEDEC] HBM3 pseudo-channel page: 1 KB */
    .burst_bytes = 32,           /* [JEDEC] HBM3 burst of 8 x 32 bits */
    .fetch_bytes = 64,           /* as h200: a sector pair per read miss */
    /* TIME-MODEL: hopper throughputs and latencies, as h200's where fitted */
    .dram_latency_ns = 782,      /* as h200 (fitted there) */
    .dram_interleave = 256,      /* assumed: not published */
    .l1_ways = 8,                /* as h200 (the same GH100 SM) */
    .l2_model_pct = 100,
    .l2_parts = 2,               /* as h200 (the same GH100 L2); the capacities checked on
                                    an H100 (docs/results/h100-2026-11-26-l2cap) */
    .l2_side = {0xc0fcc0fcc0fcc0fcull, 0x0cc0ff03fc0ff03full, 0}, /* measured on an H100 as
                                    on the H200: the same SMs (tools/gpu/side_probe.cu) */
    .block_group = 1,            /* as h200 */
    .layout = &arch_gh100_132,   /* measured on an H100 as on the H200: the same order
                                    (docs/results/h100-2026-11-26-place, arch/deal.c) */
    .xbar_sms = 4,               /* measured on an H100: K SMs reading one sector at once
                                    count it 1 time for 2-4, 2 for 8, 10 for 32, 32.9 for
                                    128, with the H200's placement (docs/results/
                                    h100-2026-11-26-place); another H100 dealt its first
                                    blocks to other groups (h100-2026-11-26-share) */
    .merge_sectors = 16,         /* [GT] fitted on h200: L1 store merging (sm_70+) */
    .merge_lines = 16,
    .partial_bytes = 7 << 20,    /* [GT] fitted on h200: ~7 MiB of partly written sectors */
    .launch_dram_bytes = 2816,   /* measured on an H100: the shortest launches (empty,
                                    one_store, setRowReadRow) read 2816 bytes,
                                    docs/results/h100-2026-11-25-hierarchy */
    .launch_ns = 2020,           /* measured: the empty kernel takes 2.1 us on an H100
                                    (hierarchy probe `empty`, one block of 80 ns) */
    .block_ns = 79.4,            /* as h200 (fitted there) */
    .dram_eff = 0.90,            /* as h200 (fitted there) */
    .dram_act_ns = 7.0,          /* as h200 (fitted there) */
    .schedulers = 4,             /* [GH100]: 4 processing blocks */
    .hot_write_ns = 0.31,        /* as h200 (fitted there) */
    .l2_reqs_ns = 80,            /* as h200 (fitted there; same L2 design) */
    .raw_wait_ns = 619,          /* as h200 (fitted there) */
    .barrier_lat = 1.2,          /* as h200 (fitted there) */
    /* one warp's rounds, measured: an L1 hit 32 clocks, 16 ns (an H200,
       the ld.global chase of groundtruth/latency_kernels.cu: 41.2 clocks a
       step less its cvt and 64-bit add); on an H100
       (docs/results/h100-2026-11-25-hierarchy) chase#l2 hot (218 ns, the
       step's arithmetic included), copy_grid on 1-132 blocks (372-433 ns
       a round) */
    .l1_round_ns = 16,
    .l2_round_ns = 218,
    .dram_round_ns = 400,
    .replay_clock = 1,           /* measured on an H200: groundtruth/memlat_kernels.cu */
    .warp_cpi = 4,               /* a dependent ALU result after 4 clocks, the
                                    unit of emu_latency.c's table (measured on an
                                    H200: fma.rn.f32 4.7 a step with the loop; the
                                    H100 corpus's warps of over 300 instructions
                                    took 4.2 to 4.9 clocks each) */
    .l1_write_cycles = 4,        /* as h200 (measured there) */
    .atom_update_ns = 0.735,     /* measured on an H100: atom_hot#132x1 and #528x1,
                                    540,672 and 2,162,688 updates of one word in
                                    398 and 1584 us */
    HOPPER_TENSOR,
  },
  {
    .name = "h200", .gpu = "NVIDIA H200 SXM 141GB", .generation = "Hopper (GH100)", .cc = 90,
    .sms = 132,                  /* [GT], [GH100] H200 datasheet */
    .warp_size = 32,
    .clock_ghz = 1.98,           /* [GH100] H200 datasheet: max boost 1980 MHz */
    .max_threads_block = 1024,   /* [PG] 9.0 */
    .max_threads_sm = 2048,
    .max_warps_sm = 64,
    .max_blocks_sm = 32,
    .regs_sm = 65536,
    .regs_block = 65536,
    .regs_thread = 255,
    .reg_unit = 256,
    .reg_per_warp = 1,
    .warp_alloc_unit = 1,
    .reg_partitions = 4,
    .smem_sm = 228 * KIB,
    .smem_block = 48 * KIB,
    .smem_block_optin = 227 * KIB,
    .smem_unit = 128,
    .smem_reserved = 1024,
    .banks = 32, .bank_bytes = 4,
    .coalesce = COAL_SECTOR,
    .l1_bytes = 256 * KIB,
    .l1_smem_bytes = 256 * KIB,
    CARVEOUTS(hopper_carveouts),
    .l1_caches_loads = 1,
    .l1_line = 128, .l1_sector = 32,
    .l2_bytes = 60 * MIB,        /* [GT]: 60 MiB as the driver reports it */
    .l2_line = 128, .l2_sector = 32,
    .l2_ways = 16,               /* assumed: not published */
    .dram = "HBM3e",
    .bus_bits = 6144,            /* 6 stacks x 1024 bits (4.8 TB/s at 6.25 Gb/s) */
    .dram_gbs = 4800,            /* [GH100] H200 datasheet: 4.8 TB/s */
    .channels = 192,             /* 6 stacks x 32 pseudo-channels */
    .dram_banks = 16,            /* assumed, as hopper */
    .row_bytes = 1024,
    .burst_bytes = 32,
    .fetch_bytes = 64,           /* [GT] a read miss fetches a 64-byte sector pair:
                                    stride_copy#16 reads 3x what it asks for
                                    (2x its loads, 1x filling half-written
                                    sectors), dram__bytes_read.sum */
    /* TIME-MODEL: fitted to the 39 large launches of [GT]
     * (h200-large-counters.csv, gpu__time_duration.sum); docs/accuracy.md
     * shows the fit and what each constant explains. */
    .dram_latency_ns = 782,      /* [GT] fitted: copy_k, inc1#256 (Little's law:
                                    64 warps x 128 B in flight per SM) */
    .dram_interleave = 256,      /* assumed: not published */
    .l1_ways = 8,                /* [GT] measured: a warp cycling over K lines of its own
                                    (groundtruth/policy_kernels.cu) hits 0.79, 0.45, 0.15, 0.00
                                    of its re-reads at K = 1792, 1920, 2048, 2304 lines with
                                    224 KB of L1: with 8 ways 0.78, 0.42, 0.15, 0.00; 4 ways
                                    0.69, 0.53, 0.37, 0.13; 16 ways 0.75, 0.17, 0, 0 */
    .l2_model_pct = 100,
    .l2_parts = 2,               /* [GT] measured: data every SM reads stays up to half the
                                    L2, data each SM reads alone up to two thirds
                                    (groundtruth/l2cap_kernels.cu): a line kept at home and
                                    near a reader on the other side (mem/cache.c) */
    .l2_side = {0xc0fcc0fcc0fcc0fcull, 0x0cc0ff03fc0ff03full, 0}, /* [GT] measured: the SMs
                                    near partition 1, 66 of 132: TPCs 1-3 and 7 of the
                                    16-SM GPCs, 0-2 and 6 of the 14-SM ones, 118-119,
                                    122-123; the others near partition 0 (an SM times one
                                    load of 256 lines: 270 clocks near, 480 far;
                                    tools/gpu/side_probe.cu, docs/results/h200-2026-11-26-side) */
    .block_group = 1,            /* [GT] measured: consecutive blocks share no L1 (H100
                                    mm_s: 2.07 M L1 misses, 2.10 M if no two shared an SM;
                                    the public set's 2-D stencils read the L2 sectors of
                                    blocks that share none, docs/results/
                                    h200-2026-11-26-public).  4, fitted to mm_s's L2 reads,
                                    stood in for the L2's merging of reads from several SMs
                                    (share_kernels.cu), now xbar_sms */
    .layout = &arch_gh100_132,   /* [GT] measured: the order the H200 deals a grid's
                                    blocks to TPCs (place_probe.cu, arch/deal.c) */
    .xbar_sms = 4,               /* [GT] measured: K SMs reading one sector at once count
                                    it 1 time for 2-4 SMs, 2 for 8, 10 for 32, 32.5 for
                                    128, 34.4 for 132 (share_kernels.cu); each block ran on
                                    its own SM (place_probe.cu), so the SMs of the same
                                    TPC in 4 GPCs share one path (34 of them; mem/xbar.c
                                    deals blocks to them) */
    .merge_sectors = 16,         /* [GT] fitted on h200: L1 store merging (sm_70+) */
    .merge_lines = 16,
    .partial_bytes = 7 << 20,    /* [GT] fitted on h200: ~7 MiB of partly written sectors */
    .launch_dram_bytes = 2816,   /* [GT] measured: setRowReadRow and the other
                                    launches without global loads read 2816 bytes */
    .launch_ns = 1420,           /* [GT] measured: the empty kernel takes 1.5 us on the
                                    H200 (hierarchy probe `empty`, one block of 80 ns) */
    .block_ns = 79.4,            /* [GT] fitted: inc1#32/64/128 start one block
                                    per 79.4 ns per SM */
    .dram_eff = 0.90,            /* [GT] fitted: stride_copy#2..8 sustain 4.3
                                    of 4.8 TB/s */
    .dram_act_ns = 7.0,          /* fitted: variant stride_copy#64 (one float in
                                    256 bytes, 2.0 TB/s); checked: variant
                                    stride_copy#16 (4.2 TB/s), seed #32 */
    .schedulers = 4,             /* [GH100]: 4 processing blocks */
    .hot_write_ns = 0.31,        /* [GT] fitted: inc_case#2, every warp's a[0] */
    .l2_reqs_ns = 80,            /* [GT] fitted: tr_naive, madd_nc, setRowReadRow */
    .raw_wait_ns = 619,          /* [GT] fitted: inc_case#3 */
    .barrier_lat = 1.2,          /* [GT] fitted: adj_smem, tr_smem_pad, tr_smem */
    .l1_round_ns = 16,           /* measured on an H200 (as hopper) */
    .l2_round_ns = 218,
    .dram_round_ns = 400,
    .replay_clock = 1,           /* measured on an H200: groundtruth/memlat_kernels.cu */
    .warp_cpi = 4,               /* as hopper */
    .atom_update_ns = 0.735,     /* as hopper (measured on an H100) */
    .l1_write_cycles = 4,        /* measured on the H200: the store-bound launches
                                    send the L2 one write request per SM every 4.0
                                    clocks (tr_naive 0.251 a clock, local_heap 0.247,
                                    PolyBench-style cov_product on 4 SMs 0.238) */
    HOPPER_TENSOR,               /* as hopper: the same GH100 SM */
  },
};

#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

/* Other spellings of each preset.  "sm_90" and "90" name h200, the GPU of
 * the ground truth, so the default and `--arch sm_90` agree; "hopper" and
 * "h100" name the H100 SXM5. */
static const struct {
  const char *alias, *name;
} aliases[] = {
  {"sm_13", "gt200"}, {"sm13", "gt200"}, {"1.3", "gt200"}, {"13", "gt200"}, {"tesla", "gt200"},
  {"sm_20", "fermi"}, {"sm20", "fermi"}, {"2.0", "fermi"}, {"20", "fermi"}, {"c2050", "fermi"},
  {"sm_30", "kepler"}, {"sm30", "kepler"}, {"3.0", "kepler"}, {"30", "kepler"}, {"gtx680", "kepler"},
  {"sm_70", "volta"}, {"sm70", "volta"}, {"7.0", "volta"}, {"70", "volta"}, {"v100", "volta"},
  {"sm_80", "ampere"}, {"sm80", "ampere"}, {"8.0", "ampere"}, {"80", "ampere"}, {"a100", "ampere"},
  {"h100", "hopper"},
  {"sm_90", "h200"}, {"sm_90a", "h200"}, {"sm90", "h200"}, {"9.0", "h200"}, {"90", "h200"},
};

int arch_count(void) { return NPRESETS; }

const Arch *arch_preset(int i) { return i >= 0 && i < NPRESETS ? &presets[i] : NULL; }

static const Arch *by_name(const char *name) {
  for (int i = 0; i < NPRESETS; i++)
    if (!strcmp(presets[i].name, name)) return &presets[i];
  return NULL;
}

const Arch *arch_find(const char *name) {
  if (!name) return NULL;
  const Arch *a = by_name(name);
  if (a) return a;
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (!strcmp(aliases[i].alias, name)) return by_name(aliases[i].name);
  return NULL;
}

const Arch *arch_default(void) { return by_name("h200"); }

const char *arch_ptx_target(void) {
  static _Thread_local char target[16];
  int cc = arch_default()->cc;
  snprintf(target, sizeof target, "sm_%d%s", cc, cc == 90 ? "a" : "");
  return target;
}

const char *arch_coalesce_name(ArchCoalesce c) {
  switch (c) {
  case COAL_CC12: return "cc1.2 half-warp segments";
  case COAL_FERMI: return "fermi 128-byte lines / 32-byte segments";
  case COAL_SECTOR: return "32-byte sectors";
  }
  return "?";
}

void arch_names(char *buf, size_t n) {
  size_t used = 0;
  if (n) buf[0] = '\0';
  for (int i = 0; i < NPRESETS && used < n; i++) {
    int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", presets[i].name);
    if (w < 0) break;
    used += (size_t)w;
  }
}

ArchLimits arch_limits(const Arch *a) {
  if (!a) { /* the loosest of all presets */
    ArchLimits most = {0};
    for (int i = 0; i < NPRESETS; i++) {
      ArchLimits l = arch_limits(&presets[i]);
      if (l.block_threads > most.block_threads) most.block_threads = l.block_threads;
      if (l.block_xy > most.block_xy) most.block_xy = l.block_xy;
      if (l.block_z > most.block_z) most.block_z = l.block_z;
      if (l.grid_x > most.grid_x) most.grid_x = l.grid_x;
      if (l.grid_yz > most.grid_yz) most.grid_yz = l.grid_yz;
      if (l.smem_block > most.smem_block) most.smem_block = l.smem_block;
    }
    return most;
  }
  ArchLimits l;
  l.block_threads = (uint32_t)a->max_threads_block;
  l.block_xy = (uint32_t)a->max_threads_block; /* 512 on 1.x, 1024 since 2.0 */
  l.block_z = 64;
  l.grid_x = a->cc >= 30 ? 2147483647u : 65535u; /* 2^31 - 1 since 3.0 */
  l.grid_yz = 65535;
  l.smem_block = (uint32_t)(a->smem_block_optin > a->smem_block ? a->smem_block_optin : a->smem_block);
  return l;
}
