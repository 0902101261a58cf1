/* metrics.h - the counters warpmem reports, under Nsight Compute's names.
 *
 * X(ENUM, "ncu metric name", "what it counts here").  Reports list them in
 * this order; JSON and CSV keys are the ncu names verbatim.
 */
#ifndef WM_METRICS_H
#define WM_METRICS_H

#define WM_METRICS(X)                                                                          \
  X(GLD_REQ,  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",   "global load requests (warp instructions with an active lane)") \
  X(GLD_SEC,  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",    "32-byte sectors touched by global loads") \
  X(GST_REQ,  "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",   "global store requests")   \
  X(GST_SEC,  "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",    "sectors touched by global stores") \
  X(GRED_REQ, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",  "global reduction requests (red)") \
  X(GRED_SEC, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",   "sectors touched by global reductions") \
  X(GATOM_REQ,"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "global atomic requests (atom)") \
  X(GATOM_SEC,"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",  "sectors touched by global atomics") \
  X(LLD_REQ,  "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",    "local load requests (one per 4-byte word of a vector)") \
  X(LLD_SEC,  "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",     "sectors touched by local loads") \
  X(LST_REQ,  "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",    "local store requests")    \
  X(LST_SEC,  "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",     "sectors touched by local stores") \
  X(SLD_INST, "smsp__inst_executed_op_shared_ld.sum",              "shared load warp instructions") \
  X(SST_INST, "smsp__inst_executed_op_shared_st.sum",              "shared store warp instructions") \
  X(SATOM_INST,"smsp__inst_executed_op_shared_atom.sum",           "shared atomic warp instructions") \
  X(SLD_WF,   "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",  "shared load wavefronts (bank passes)") \
  X(SST_WF,   "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",  "shared store wavefronts") \
  X(SATOM_WF, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum","shared atomic wavefronts") \
  X(SLD_BC,   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared load wavefronts beyond the ideal") \
  X(SST_BC,   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared store wavefronts beyond the ideal") \
  X(LDSM_INST,"smsp__inst_executed_op_ldsm.sum",                  "ldmatrix warp instructions (Shared Load Matrix)") \
  X(LDSM_WF,  "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", "ldmatrix wavefronts: one per 8x8 matrix without conflicts (mem/smem.c)") \
  X(LDSM_BC,  "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", "ldmatrix wavefronts beyond one per matrix") \
  X(STSM_INST,"smsp__inst_executed_op_shared_stsm.sum",                  "stmatrix warp instructions (Shared Store Matrix, sm_90)") \
  X(STSM_WF,  "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum", "stmatrix wavefronts") \
  X(STSM_BC,  "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum", "stmatrix wavefronts beyond one per matrix") \
  /* wgmma.mma_async (HGMMA, QGMMA, IGMMA, BGMMA; mem/gmma.c states the counting rule, a      \
   * hypothesis until measured: groundtruth/wgmma_kernels.cu) */                               \
  X(GMMA_INST, "smsp__inst_executed_pipe_tensor_op_gmma.sum",      "wgmma.mma_async warp instructions (each of the warpgroup's 4 warps executes one)") \
  X(GMMA_BYTES,"smsp__sass_data_bytes_mem_shared_op_gmma.sum",     "shared bytes wgmma's descriptors read: 128 a core matrix (8 rows of 16 bytes), once a warpgroup instruction") \
  X(GMMA_WF,  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", "wgmma shared wavefronts: one a core matrix whose 8 rows lie in 8 bank groups") \
  X(GMMA_BC,  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum", "wgmma shared wavefronts beyond one a core matrix") \
  /* tensor-core math, one op a multiply-add (mem.h MEM_TENSOR_PATHS) */                      \
  X(OPS_HGMMA_F16, "sm__ops_path_tensor_op_hgmma_src_fp16.sum",    "ops (2 a multiply-add) of f16 wgmma (D f16 or f32)") \
  X(OPS_HGMMA_BF16,"sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum", "ops (2 a multiply-add) of bf16 wgmma") \
  X(OPS_HGMMA_TF32,"sm__ops_path_tensor_op_hgmma_src_tf32_dst_fp32.sum", "ops (2 a multiply-add) of tf32 wgmma") \
  X(OPS_FP8,  "sm__ops_path_tensor_src_fp8.sum",                   "ops (2 a multiply-add) of fp8 (e4m3, e5m2) wgmma") \
  X(OPS_IGMMA_INT8,"sm__ops_path_tensor_op_igmma_src_int8.sum",    "ops (2 a multiply-add) of s8/u8 wgmma") \
  X(OPS_BGMMA_B1,"sm__ops_path_tensor_op_bgmma_src_int1.sum",      "ops (2 an AND-popc bit pair) of b1 wgmma") \
  X(OPS_HMMA_F16_F16,"sm__ops_path_tensor_op_hmma_src_fp16_dst_fp16.sum", "ops (2 a multiply-add) of f16 mma.sync/wmma.mma with f16 D") \
  X(OPS_HMMA_F16_F32,"sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32.sum", "ops (2 a multiply-add) of f16 mma.sync/wmma.mma with f32 D") \
  X(OPS_HMMA_BF16,"sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32.sum", "ops (2 a multiply-add) of bf16 mma.sync/wmma.mma") \
  X(OPS_HMMA_TF32,"sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32.sum", "ops (2 a multiply-add) of tf32 mma.sync/wmma.mma") \
  X(OPS_IMMA_INT8,"sm__ops_path_tensor_op_imma_src_int8.sum",      "ops (2 a multiply-add) of s8/u8 mma.sync/wmma.mma") \
  X(OPS_DMMA_F64,"sm__ops_path_tensor_src_fp64.sum",               "ops (2 a multiply-add) of f64 mma.sync/wmma.mma (DMMA)") \
  X(GLD_INST, "smsp__inst_executed_op_global_ld.sum",              "global load warp instructions") \
  X(GST_INST, "smsp__inst_executed_op_global_st.sum",              "global store warp instructions") \
  X(GRED_INST,"smsp__inst_executed_op_global_red.sum",             "global reduction warp instructions (Nsight Compute has no counter for atom)") \
  /* cp.async (LDGSTS): global reads and shared writes of one instruction */                   \
  X(LDGSTS_INST,"smsp__inst_executed_op_ldgsts.sum",               "cp.async warp instructions (LDGSTS)") \
  X(LDGSTS_REQ, "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", "cp.async global requests (warp instructions with a lane that reads)") \
  X(LDGSTS_SEC, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",  "sectors cp.async reads from global memory") \
  X(LDGSTS_SEC_CA,"l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", "cp.async.ca sectors (allocate in L1)") \
  X(LDGSTS_SEC_CG,"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum", "cp.async.cg sectors (bypass L1)") \
  X(LDGSTS_WF,  "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", "shared wavefronts cp.async writes") \
  X(LDGSTS_BC,  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "cp.async shared wavefronts beyond the ideal") \
  X(LDGSTS_HIT, "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum", "cp.async.ca sectors that hit in L1 (cache replay)") \
  X(LDGSTS_MISS,"l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum", "cp.async.ca sectors that missed in L1 (.cg bypasses L1: no lookup)") \
  /* distributed shared memory (sm_90): accesses whose bytes are in a peer block's shared memory     \
   * (docs/clusters.md: what counts as dshared is a hypothesis, probed by tests/corpus/cluster_dsm.cu) */ \
  X(DSLD_INST, "smsp__sass_inst_executed_op_dshared_ld.sum",      "distributed shared memory load warp instructions (a lane in a peer block's shared memory)") \
  X(DSST_INST, "smsp__sass_inst_executed_op_dshared_st.sum",      "distributed shared memory store warp instructions") \
  X(DSATOM_INST,"smsp__sass_inst_executed_op_dshared_atom.sum",   "distributed shared memory atomic and reduction warp instructions (ptxas makes red.shared::cluster an ATOM)") \
  X(DSLD_REQ,  "l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum", "distributed shared memory load requests") \
  X(DSST_REQ,  "l1tex__t_requests_pipe_lsu_mem_dshared_op_st.sum", "distributed shared memory store requests") \
  X(DSATOM_REQ,"l1tex__t_requests_pipe_lsu_mem_dshared_op_atom.sum", "distributed shared memory atomic and reduction requests") \
  X(DSLD_SEC,  "l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum",  "32-byte sectors of peers' shared memory that loads touch") \
  X(DSST_SEC,  "l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum",  "sectors of peers' shared memory that stores touch") \
  X(DSATOM_SEC,"l1tex__t_sectors_pipe_lsu_mem_dshared_op_atom.sum", "sectors of peers' shared memory that atomics and reductions update") \
  X(DS_RD,     "l1tex__m_xbar2l1tex_read_bytes_mem_dshared.sum",   "bytes peers' shared memory returns over the crossbar: 32 a load or store sector, 64 an atomic or reduction sector") \
  X(DS_RD_LD,  "l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_ld.sum", "of those, the loads'") \
  X(DS_WR,     "l1tex__m_l1tex2xbar_write_bytes_mem_dshared.sum",  "bytes sent over the crossbar to peers' shared memory: 32 a load or store sector, 64 an atomic or reduction sector") \
  X(DS_WR_ST,  "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_st.sum", "of those, the stores'") \
  /* the TMA unit (cp{.reduce}.async.bulk{.tensor}: mem/tma.c).  ptxas loops over the active    \
   * lanes (ELECT, one UTMALDG each): every lane's copy is an instruction and a request.         \
   * Which sectors and requests a box makes, and what a multicast counts, is a hypothesis        \
   * (docs/tma.md; tests/corpus/tma_copy.cu has the probes). */                                 \
  X(TMA_LD_INST, "smsp__inst_executed_op_tma_ld.sum",             "TMA loads (UTMALDG, UBLKCP.S.G): lanes that ran cp.async.bulk{.tensor} into shared memory") \
  X(TMA_ST_INST, "smsp__inst_executed_op_tma_st.sum",             "TMA stores and reductions (UTMASTG, UTMAREDG, UBLKCP.G.S): lanes that ran them") \
  X(TMA_REQ,   "l1tex__tmain_requests.sum",                       "TMA instructions sent to the TMA unit (loads, stores, reductions, prefetches)") \
  X(TMA_LD_BYTES, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "bytes TMA loads read from L2: whole sectors of the box rows inside the tensor (a multicast's once a destination block)") \
  X(TMA_LD_SEC, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", "sectors TMA loads read from L2") \
  X(TMA_SELF_BYTES, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_self.sum", "of them, bytes of loads into the issuing block alone") \
  X(TMA_SELF_SEC, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_self.sum", "sectors of loads into the issuing block alone") \
  X(TMA_MC_BYTES, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum", "bytes of .multicast::cluster loads, once a destination block (L2 reads them once)") \
  X(TMA_MC_SEC, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_multicast.sum", "sectors of .multicast::cluster loads") \
  X(TMA_MC_REQ, "l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast.sum", "read requests of multicast loads: a box row's piece in each 128-byte line") \
  X(TMA_MC_REQ32, "l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast_size_32B.sum", "of them, 32-byte requests (one sector)") \
  X(TMA_MC_REQ64, "l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast_size_64B.sum", "64-byte requests") \
  X(TMA_MC_REQ96, "l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast_size_96B.sum", "96-byte requests") \
  X(TMA_MC_REQ128, "l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast_size_128B.sum", "128-byte requests (a whole line)") \
  X(TMA_ST_BYTES, "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", "bytes TMA stores write to L2: whole sectors of the box rows inside the tensor") \
  X(TMA_ST_SEC, "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum", "sectors TMA stores write") \
  X(TMA_RED_BYTES, "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum", "bytes TMA reductions send to L2") \
  X(TMA_RED_SEC, "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum", "sectors TMA reductions send") \
  X(TMA_DSM_BYTES, "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_st.sum", "bytes bulk copies write into a peer block's shared memory (cp.async.bulk.shared::cluster.shared::cta)") \
  X(TMA_DSM_RED_BYTES, "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_red.sum", "bytes bulk reductions send into a peer block's shared memory") \
  X(TMA_SMEM_BYTES, "warpmem__tma_shared_bytes",                  "bytes the TMA unit wrote to or read from shared memory (each block of a multicast)") \
  X(TMA_L2_RD, "warpmem__tma_l2_read_sectors",                    "L2 sectors the TMA's loads read (a multicast's once), before the crossbar merges SMs' reads") \
  X(WARPS,    "sm__warps_launched.sum",                            "warps launched")          \
  X(INST,     "smsp__inst_executed.sum",                           "warp instructions executed (PTX instructions, not SASS)") \
  X(BLOCK_CLOCKS, "warpmem__block_clocks",                         "kernels with mbarriers or wgmma: each block's end in its warps' clock (their dependent clocks and their waits for barriers, TMA copies and wgmma), times its warps, summed (emu/emu_clock.c)") \
  X(REPLAY_CLOCKS, "warpmem__replay_clocks",                      "the replay's clock: the clocks of the SM slot whose blocks took longest, their requests issued at their warps' clocks and waiting for their loads' data (mem/replay_clock.c)") \
  X(DEP_CLOCKS, "warpmem__dependent_clocks",                       "clocks each warp waits for its instructions' results, summed over warps (a shuffle 26, an integer % 69, an FMA 4: measured on an H200, emu/emu_latency.c)") \
  /* caches and DRAM (mem/cache.c, mem/dram.c) */                                            \
  X(L1_HIT,   "l1tex__t_sectors_lookup_hit.sum",                   "global/local/texture sectors that hit in L1 (stores: to a valid sector)") \
  X(L1_MISS,  "l1tex__t_sectors_lookup_miss.sum",                  "global/local/texture sectors that missed in L1 (stores and atomics included)") \
  X(MISS_REQ, "warpmem__l1_missed_load_requests",                  "load requests that missed L1 in at least one sector (they wait for L2)") \
  X(ROUND_REQ, "warpmem__round_requests",                           "load requests that start a round trip (each execution, unrolled loops too)") \
  X(MISS_ROUNDS, "warpmem__l1_missed_rounds",                       "of those rounds, the ones in which a load missed L1 (they wait for L2)") \
  X(L2_RD,    "lts__t_sectors_srcunit_tex_op_read.sum",            "L2 sectors read by L1 (misses and uncached loads)") \
  X(L2_WR,    "lts__t_sectors_srcunit_tex_op_write.sum",           "L2 sectors written by L1 (stores write through)") \
  X(L2_ATOM,  "lts__t_sectors_srcunit_tex_op_atom.sum",            "L2 sectors of atomics whose result is used") \
  X(L2_RED,   "lts__t_sectors_srcunit_tex_op_red.sum",             "L2 sectors of reductions (atomics whose result no one reads)") \
  X(L2_RDREQ, "lts__t_requests_srcunit_tex_op_read.sum",           "L2 read requests from L1 (one per 128-byte line a request misses)") \
  X(L2_WRREQ, "lts__t_requests_srcunit_tex_op_write.sum",          "L2 write requests from L1 (one per line a store writes)") \
  X(XBAR,     "warpmem__l2_xbar_merged_reads",                     "L1 read misses the crossbar merged with another SM's read of the sector in the same round (not counted as L2 reads; share_kernels.cu)") \
  X(L2_HIT,   "lts__t_sectors_lookup_hit.sum",                     "L2 sectors that hit") \
  X(L2_MISS,  "lts__t_sectors_lookup_miss.sum",                    "L2 sectors that missed") \
  X(L2_FABRIC, "lts__t_sectors_srcunit_ltcfabric.sum",             "L2 sectors that crossed between the partitions: reads filling a copy of a line homed on the far side, and writes and atomics sent to it (l2cap_kernels.cu)") \
  X(L1_LINES, "warpmem__l1_tag_lookups",                           "128-byte lines global/local requests touch (L1TEX looks up one tag per clock)") \
  X(HOT,      "warpmem__l2_hot_line_writes",                       "store sectors sent to the most-written L2 line (same-address contention)") \
  X(HOT_ATOM, "warpmem__l2_hot_line_atomics",                      "atomic updates the most-updated L2 line performed, lanes on one word each counted") \
  X(RAW,      "warpmem__l1_loads_after_store",                     "loads of a sector this SM stored moments before (they wait for the store to reach L2)") \
  X(ROUNDS,   "warpmem__load_rounds",                              "global/local loads that start a round trip in the PTX: no earlier load's value was used since (a warp waits a memory latency once per round; ptxas may batch the loads of a loop without stores: fewer on the GPU; emu/emu_rounds.c)") \
  X(DRAM_RD,  "dram__bytes_read.sum",                              "bytes read from DRAM (fills, in fetch-size units)") \
  X(DRAM_WR,  "dram__bytes_write.sum",                             "bytes written to DRAM (dirty L2 evictions)") \
  X(DRAM_USED,"warpmem__dram_bytes_used",                          "bytes of DRAM reads that were used: asked for, or fetched along and touched later (the rest is over-fetch)") \
  X(ROW_HIT,  "warpmem__dram_row_hits",                            "DRAM accesses that found their row open") \
  X(ROW_MISS, "warpmem__dram_row_misses",                          "DRAM accesses that opened a row") \
  X(TIME,     "gpu__time_duration.sum",                            "predicted kernel duration, ns (model/model.c)") \
  /* generations before sector-based L1 (mem/coalesce.c) */                                 \
  X(G_TRANS,  "warpmem__global_transactions",                      "global memory transactions (segments or lines of the generation)") \
  X(G_MOVED,  "warpmem__global_bytes_moved",                       "bytes the transactions move") \
  X(G_USED,   "warpmem__global_bytes_requested",                   "bytes the active lanes asked for") \
  /* textures and surfaces (mem/texture.c; hits and misses: mem/cache.c) */                  \
  X(TEX_INST, "smsp__inst_executed_op_texture.sum",                "texture warp instructions (tex, tld4)") \
  X(TEX_REQ,  "l1tex__t_requests_pipe_tex_mem_texture.sum",        "texture requests to the tag stage (one per warp instruction)") \
  X(TEX_SEC,  "l1tex__t_sectors_pipe_tex_mem_texture.sum",         "32-byte sectors of the texels fetched (every texel a filter reads)") \
  X(TEX_HIT,  "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum",  "texture sectors that hit in L1") \
  X(TEX_MISS, "l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum", "texture sectors that missed in L1") \
  X(SULD_INST,"smsp__inst_executed_op_surface_ld.sum",             "surface load warp instructions (suld)") \
  X(SUST_INST,"smsp__inst_executed_op_surface_st.sum",             "surface store warp instructions (sust)") \
  X(SULD_REQ, "l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum",  "surface load requests") \
  X(SULD_SEC, "l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum",   "sectors touched by surface loads") \
  X(SULD_HIT, "l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum",  "surface load sectors that hit in L1") \
  X(SULD_MISS,"l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_miss.sum", "surface load sectors that missed in L1") \
  X(SUST_REQ, "l1tex__t_requests_pipe_tex_mem_surface_op_st.sum",  "surface store requests") \
  X(SUST_SEC, "l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum",   "sectors touched by surface stores")

typedef enum {
#define X(e, name, desc) WM_M_##e,
  WM_METRICS(X)
#undef X
  WM_M_COUNT
} WmMetric;

/* warpmem__dependent_clocks' unit: the Hopper clocks a dependent FMA waits
 * (emu_latency.c's LAT_ALU), what a preset's warp_cpi scales. */
#define WM_ALU_CLOCKS 4

extern const char *const wm_metric_name[WM_M_COUNT];
extern const char *const wm_metric_desc[WM_M_COUNT];

#endif
