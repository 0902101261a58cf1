/* test_mem.c - the memory model (src/mem) against first principles and the
 * counters measured on an H200 (groundtruth/h200-seed-counters.csv).
 *
 * Each test feeds the warp's addresses of a seed kernel's access to the model
 * and states where its golden number comes from.  Measured shared-memory
 * wavefronts include up to +10% from other L1 traffic (groundtruth/README.md):
 * where a kernel has such traffic the model must land in [88%, 100%] of the
 * measurement, elsewhere it must match exactly.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"
#include "ptx/ptx.h"
#include "util/diag.h"

#define ALL 0xffffffffu

/* ---- helpers ---------------------------------------------------------- */

/* A measured counter: column `col` of row `launch` of the seed CSV. */
static double measured(const char *launch, const char *col)
{
  WmErr e;
  char *text = wm_read_file(tu_truth("h200-seed-counters.csv"), NULL, &e);
  assert_non_null(text);
  double v = tu_csv_value(text, launch, col);
  free(text);
  if (v < 0)
    fail_msg("h200-seed-counters.csv has no %s for %s", col, launch);
  return v;
}

#define SMEM_LD_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define SMEM_ST_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define SMEM_LD_INST "smsp__inst_executed_op_shared_ld.sum"
#define SMEM_ST_INST "smsp__inst_executed_op_shared_st.sum"
#define GLD_SEC "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define GLD_REQ "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
#define GST_SEC "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
#define GST_REQ "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"

/* The model's count must be within [88%, 100%] of a measured one that other
 * L1 traffic may have inflated. */
static void assert_faithful(double model, double meas)
{
  assert_in_range((unsigned long)(model * 1000 / meas), 880, 1000);
}

/* Lane l at base + l * stride. */
static void strided(uint64_t *a, uint64_t base, int64_t stride)
{
  for (int l = 0; l < 32; l++)
    a[l] = base + (uint64_t)(l * stride);
}

static MemModel model(int ncode)
{
  MemModel mm;
  MemConfig cfg = {.sm = 90};
  assert_int_equal(mem_init(&mm, &cfg, ncode), 0);
  return mm;
}

static void req(MemModel *mm, int space, int op, unsigned size, uint32_t mask,
                   const uint64_t *addr, int instr)
{
  MemReq r = {.space = (uint8_t)space, .op = (uint8_t)op, .size = (uint8_t)size,
              .elem = (uint8_t)(size > 4 ? 4 : size), .mask = mask, .addr = addr,
              .instr = instr};
  mem_access(mm, &r);
}

/* ---- global: sectors -------------------------------------------------- */

/* 32 floats: aligned 128 bytes = 4 sectors; 4 bytes past a sector boundary
 * = 5 (measured offset_copy#1: 655360 sectors / 131072 requests); every
 * other float = 8 (stride_copy#2: 1048576 / 131072). */
static void test_sectors_floats(void **state)
{
  uint64_t a[32];
  strided(a, 0x10000, 4);
  assert_int_equal(mem_sectors(a, ALL, 4), 4);
  assert_int_equal(measured("offset_copy#0", GLD_SEC) / measured("offset_copy#0", GLD_REQ), 4);
  strided(a, 0x10004, 4);
  assert_int_equal(mem_sectors(a, ALL, 4), 5);
  assert_int_equal(measured("offset_copy#1", GLD_SEC) / measured("offset_copy#1", GLD_REQ), 5);
  strided(a, 0x10000, 8);
  assert_int_equal(mem_sectors(a, ALL, 4), 8);
  assert_int_equal(measured("stride_copy#2", GLD_SEC) / measured("stride_copy#2", GLD_REQ), 8);
  /* 32 bytes past the boundary is a whole sector: still 4 (offset_copy#8). */
  strided(a, 0x10020, 4);
  assert_int_equal(mem_sectors(a, ALL, 4), 4);
  assert_int_equal(measured("offset_copy#8", GLD_SEC) / measured("offset_copy#8", GLD_REQ), 4);
  /* Descending and permuted: the same 4 sectors. */
  strided(a, 0x10000 + 31 * 4, -4);
  assert_int_equal(mem_sectors(a, ALL, 4), 4);
  for (int l = 0; l < 32; l++)
    a[l] = 0x10000 + (uint64_t)((l * 7) % 32) * 4;
  assert_int_equal(mem_sectors(a, ALL, 4), 4);
}

/* tr_naive's store o[y + h * x]: lanes 2048 floats = 8 KiB apart, one sector
 * each (measured 4194304 sectors / 131072 requests = 32); f3_plain's float3
 * fields: 12-byte stride, 384 bytes = 12 sectors (1179648 / 98304). */
static void test_sectors_strided(void **state)
{
  uint64_t a[32];
  strided(a, 0x100000, 8192);
  assert_int_equal(mem_sectors(a, ALL, 4), 32);
  assert_int_equal(measured("tr_naive", GST_SEC) / measured("tr_naive", GST_REQ), 32);
  strided(a, 0x100000, 12);
  assert_int_equal(mem_sectors(a, ALL, 4), 12);
  assert_int_equal(measured("f3_plain", GLD_SEC) / measured("f3_plain", GLD_REQ), 12);
}

/* One word read by all lanes: 1 sector. */
static void test_sectors_broadcast(void **state)
{
  uint64_t a[32];
  strided(a, 0x2004, 0);
  assert_int_equal(mem_sectors(a, ALL, 4), 1);
  unsigned d = 0;
  assert_int_equal(mem_coalesce(a, ALL, 4, &d), 1);
  assert_int_equal(d, 1);
}

/* 8- and 16-byte lanes side by side: 256 and 512 bytes = 8 and 16 sectors.
 * A misaligned 8-byte lane at 28 straddles two sectors. */
static void test_sectors_vectors(void **state)
{
  uint64_t a[32];
  strided(a, 0x4000, 8);
  assert_int_equal(mem_sectors(a, ALL, 8), 8);
  strided(a, 0x4000, 16);
  assert_int_equal(mem_sectors(a, ALL, 16), 16);
  a[0] = 28;
  assert_int_equal(mem_sectors(a, 1, 8), 2);
  /* Two lanes sharing the upper sector of a straddling access. */
  a[1] = 36;
  assert_int_equal(mem_sectors(a, 3, 8), 2);
}

/* Partial warps: one lane = 1 sector; 16 consecutive floats = 64 bytes = 2;
 * lanes 0 and 31 of a consecutive warp = 2 (first and last sector). */
static void test_sectors_partial(void **state)
{
  uint64_t a[32];
  strided(a, 0x8000, 4);
  assert_int_equal(mem_sectors(a, 0x1, 4), 1);
  assert_int_equal(mem_sectors(a, 0xffff, 4), 2);
  assert_int_equal(mem_sectors(a, 0xffff0000u, 4), 2);
  assert_int_equal(mem_sectors(a, 0x80000001u, 4), 2);
}

/* ---- shared: wavefronts ----------------------------------------------- */

/* A 32x32 float tile: a row (lanes on consecutive words) is conflict-free,
 * a column (lanes 128 B apart, all bank 0) a 32-way conflict.  Measured
 * setRowReadRow: 4224 wavefronts / 4224 loads = 1; setRowReadCol:
 * 135168 / 4224 = 32 (shared-only kernels: exact). */
static void test_smem_tile(void **state)
{
  uint64_t a[32];
  strided(a, 5 * 128, 4);
  assert_int_equal(mem_smem_wavefronts(a, ALL, 4), 1);
  assert_int_equal(measured("setRowReadRow", SMEM_LD_WF) / measured("setRowReadRow", SMEM_LD_INST), 1);
  strided(a, 5 * 4, 128);
  assert_int_equal(mem_smem_wavefronts(a, ALL, 4), 32);
  assert_int_equal(measured("setRowReadCol", SMEM_LD_WF) / measured("setRowReadCol", SMEM_LD_INST), 32);
  assert_int_equal(measured("setColReadCol", SMEM_ST_WF) / measured("setColReadCol", SMEM_ST_INST), 32);
  /* One column of padding (t[32][33]): stride 33 words, conflict-free
   * (setRowReadColIpad: 4224 / 4224). */
  strided(a, 5 * 4, 132);
  assert_int_equal(mem_smem_wavefronts(a, ALL, 4), 1);
  assert_int_equal(measured("setRowReadColIpad", SMEM_LD_WF) / measured("setRowReadColIpad", SMEM_LD_INST), 1);
  /* Stride 2 words: 2-way. */
  strided(a, 0, 8);
  assert_int_equal(mem_smem_wavefronts(a, ALL, 4), 2);
}

/* setRowReadColRect: block 32x16, int t[16][32 + pad], out[idx] =
 * t[idx % 16][idx / 16].  Lanes 0-15 walk rows 0-15 of column c, lanes 16-31
 * of column c + 1.  Without padding: 16 words in bank c -> 16 wavefronts;
 * pad 1: banks (row + col) % 32 -> banks c+1..c+15 hold 2 words -> 2;
 * pad 2: banks (2 row + col) % 32 -> even and odd banks, all distinct -> 1.
 * Measured: 33792, 4224, 2112 wavefronts for 2112 loads. */
static void test_smem_rect(void **state)
{
  static const char *const launch[3] = {"setRowReadColRect", "setRowReadColRectPad",
                                        "setRowReadColRectPad2"};
  static const unsigned expect[3] = {16, 2, 1};
  for (unsigned pad = 0; pad < 3; pad++) {
    unsigned long total = 0;
    for (unsigned w = 0; w < 16; w++) {
      uint64_t a[32];
      for (unsigned l = 0; l < 32; l++) {
        unsigned idx = w * 32 + l, ic = idx % 16, ir = idx / 16;
        a[l] = (uint64_t)(ic * (32 + pad) + ir) * 4;
      }
      unsigned wf = mem_smem_wavefronts(a, ALL, 4);
      assert_int_equal(wf, expect[pad]);
      total += wf;
    }
    double per = measured(launch[pad], SMEM_LD_WF) / measured(launch[pad], SMEM_LD_INST);
    assert_int_equal(total / 16, (unsigned long)per);
    assert_int_equal(per * 1000, expect[pad] * 1000); /* exact, no fraction */
  }
}

/* One word read by every lane: broadcast, 1 wavefront.  Sub-word reads of
 * the same word too. */
static void test_smem_broadcast(void **state)
{
  uint64_t a[32];
  strided(a, 64, 0);
  assert_int_equal(mem_smem_wavefronts(a, ALL, 4), 1);
  for (int l = 0; l < 32; l++)
    a[l] = 64 + (uint64_t)(l % 4);
  assert_int_equal(mem_smem_wavefronts(a, ALL, 1), 1);
  /* Two words in one bank read by 16 lanes each: 2. */
  for (int l = 0; l < 32; l++)
    a[l] = l < 16 ? 0 : 128;
  assert_int_equal(mem_smem_wavefronts(a, ALL, 4), 2);
}

/* 8- and 16-byte lanes side by side: 256 and 512 bytes, served 128 bytes per
 * wavefront = 2 and 4, no conflict (ideal the same). */
static void test_smem_vectors(void **state)
{
  uint64_t a[32];
  unsigned ideal;
  strided(a, 0, 8);
  assert_int_equal(mem_smem_cost(a, ALL, 8, MEM_LD, &ideal), 2);
  assert_int_equal(ideal, 2);
  assert_int_equal(mem_smem_cost(a, ALL, 8, MEM_ST, &ideal), 2);
  strided(a, 0, 16);
  assert_int_equal(mem_smem_cost(a, ALL, 16, MEM_LD, &ideal), 4);
  assert_int_equal(ideal, 4);
  /* double with stride 2 (16 B): each half-warp covers 256 B, 2-way -> 4. */
  strided(a, 0, 16);
  assert_int_equal(mem_smem_cost(a, ALL, 8, MEM_LD, &ideal), 4);
  assert_int_equal(ideal, 2);
  /* NVIDIA forum case (offset = tid % 4 * 16, LDS.128): not pair-uniform,
   * 4 quarter-warps each conflict-free -> 4. */
  for (int l = 0; l < 32; l++)
    a[l] = (uint64_t)(l % 4) * 16;
  assert_int_equal(mem_smem_cost(a, ALL, 16, MEM_LD, &ideal), 4);
}

/* mm_s: ptxas fuses As[ty][k..k+3] into LDS.128 where lanes 0-15 share one
 * address and lanes 16-31 (next row, 64 B on) another: lane pairs are
 * uniform, so the load is served by half-warps: 2 wavefronts, ideal 2.  With
 * the 16 Bs[k][tx] broadcast loads (1 each) a tile costs 4 * 2 + 16 = 24;
 * measured 6295295 / (8192 warps * 32 tiles) = 24.01. */
static void test_smem_packed_uniform(void **state)
{
  uint64_t a[32];
  unsigned ideal;
  for (int l = 0; l < 32; l++)
    a[l] = 6 * 64 + (l < 16 ? 0 : 64) + 16;
  assert_int_equal(mem_smem_cost(a, ALL, 16, MEM_LD, &ideal), 2);
  assert_int_equal(ideal, 2);
  uint64_t b[32];
  for (int l = 0; l < 32; l++)
    b[l] = 1024 + 3 * 64 + (uint64_t)(l % 16) * 4;
  unsigned tile = 4 * mem_smem_cost(a, ALL, 16, MEM_LD, NULL) + 16 * mem_smem_wavefronts(b, ALL, 4);
  assert_int_equal(tile, 24);
  double tiles = measured("mm_s", SMEM_LD_INST) / 20;
  assert_faithful(tile * tiles, measured("mm_s", SMEM_LD_WF));
  /* Stores are not packed: 4 quarters. */
  assert_int_equal(mem_smem_cost(a, ALL, 16, MEM_ST, &ideal), 4);
}

/* Partial warps: one lane costs 1 wavefront; 16 lanes of a column 16-way. */
static void test_smem_partial(void **state)
{
  uint64_t a[32];
  unsigned ideal;
  strided(a, 0, 128);
  assert_int_equal(mem_smem_cost(a, 0x1, 4, MEM_LD, &ideal), 1);
  assert_int_equal(ideal, 1);
  assert_int_equal(mem_smem_cost(a, 0xffff, 4, MEM_LD, &ideal), 16);
  /* 16-byte lanes, only the first quarter active: 1 group. */
  strided(a, 0, 16);
  assert_int_equal(mem_smem_cost(a, 0xff, 16, MEM_LD, &ideal), 1);
  assert_int_equal(ideal, 1);
}

/* float3 through shared memory (f3_smem): lane t reads s[3t], s[3t+1],
 * s[3t+2]; stride 3 words shares no factor with 32 banks: conflict-free.
 * 6 shared loads per warp, 1 wavefront each; measured 207835 wavefronts for
 * 196608 loads (+5.7% from the kernel's global traffic). */
static void test_smem_float3(void **state)
{
  uint64_t a[32];
  for (unsigned f = 0; f < 3; f++) {
    strided(a, 4 * f, 12);
    assert_int_equal(mem_smem_wavefronts(a, ALL, 4), 1);
  }
  double warps = measured("f3_smem", "sm__warps_launched.sum");
  assert_int_equal(measured("f3_smem", SMEM_LD_INST), warps * 6);
  assert_faithful(warps * 6, measured("f3_smem", SMEM_LD_WF));
}

/* tr_smem reads b[threadIdx.x][threadIdx.y]: lanes 128 B apart -> 32; with
 * b[32][33] 1.  Measured (with global traffic): 4208646 and 136915
 * wavefronts for 131072 loads. */
static void test_smem_transpose(void **state)
{
  uint64_t a[32];
  strided(a, 7 * 4, 128);
  unsigned wf = mem_smem_wavefronts(a, ALL, 4);
  assert_int_equal(wf, 32);
  assert_faithful(wf * measured("tr_smem", SMEM_LD_INST), measured("tr_smem", SMEM_LD_WF));
  strided(a, 7 * 4, 132);
  wf = mem_smem_wavefronts(a, ALL, 4);
  assert_int_equal(wf, 1);
  assert_faithful(wf * measured("tr_smem_pad", SMEM_LD_INST), measured("tr_smem_pad", SMEM_LD_WF));
}

/* Shared atomics: lanes on the same word serialize (one pass per lane);
 * distinct words in distinct banks take one pass. */
static void test_smem_atomics(void **state)
{
  uint64_t a[32];
  strided(a, 0, 0);
  assert_int_equal(mem_smem_cost(a, ALL, 4, MEM_ATOM, NULL), 32);
  assert_int_equal(mem_smem_cost(a, 0xf, 4, MEM_RED, NULL), 4);
  strided(a, 0, 4);
  assert_int_equal(mem_smem_cost(a, ALL, 4, MEM_ATOM, NULL), 1);
  /* Histogram of 4 bins, 8 lanes each: 8 passes. */
  for (int l = 0; l < 32; l++)
    a[l] = (uint64_t)(l % 4) * 4;
  assert_int_equal(mem_smem_cost(a, ALL, 4, MEM_ATOM, NULL), 8);
}

/* ---- local ------------------------------------------------------------ */

static void test_local_address(void **state)
{
  assert_int_equal(mem_local_address(0, 0), 0);
  assert_int_equal(mem_local_address(0, 5), 20);
  assert_int_equal(mem_local_address(4, 0), 128);
  assert_int_equal(mem_local_address(4 * 9 + 2, 31), (9 * 32 + 31) * 4 + 2);
}

/* local_heap (groundtruth/seed_kernels.cu), 512 blocks x 128 threads = 2048
 * warps, ps zero-filled.  heap[10] lies at local offset 0 (__local_depot25,
 * 40 bytes).  Per warp the PTX does:
 *   init: 5 st.local.v2.f32 at 0, 8, ..., 32, same offset in every lane;
 *   q = 0..63: ld.local.f32 heap[(i + q) % 10]; the store of d = |0 - q|
 *     happens only while d < heap[slot], i.e. at q = 0..9 (every slot's
 *     first visit, 1e30 before), for all lanes;
 *   sum: 5 ld.local.v2.f32 at 0, 8, ..., 32.
 * Each v2 is one request per 4-byte word; a same-offset word is 128
 * contiguous bytes = 4 sectors; an indexed word: lanes i..i+31 pick slots
 * (i+q)%10, so each 8-lane sector column hits 8 different 128-byte rows = 32
 * sectors.  Per warp: loads 64 + 10 = 74 requests, 64*32 + 10*4 = 2088
 * sectors; stores 10 + 10 = 20 requests, 10*4 + 10*32 = 360 sectors.
 * Measured: 151552 / 4276224 ld, 40960 / 737280 st = 2048 x those. */
static void test_local_heap(void **state)
{
  enum { LD_IDX, ST_IDX, ST_INIT, LD_SUM, NCODE };
  MemModel mm = model(NCODE);
  uint64_t a[32];
  for (unsigned w = 0; w < 2048; w++) {
    for (unsigned k = 0; k < 5; k++) {
      strided(a, 8 * k, 0);
      req(&mm, PTX_S_LOCAL, MEM_ST, 8, ALL, a, ST_INIT);
    }
    for (unsigned q = 0; q < 64; q++) {
      for (unsigned l = 0; l < 32; l++)
        a[l] = ((w * 32 + l + q) % 10) * 4;
      req(&mm, PTX_S_LOCAL, MEM_LD, 4, ALL, a, LD_IDX);
      if (q < 10)
        req(&mm, PTX_S_LOCAL, MEM_ST, 4, ALL, a, ST_IDX);
    }
    for (unsigned k = 0; k < 5; k++) {
      strided(a, 8 * k, 0);
      req(&mm, PTX_S_LOCAL, MEM_LD, 8, ALL, a, LD_SUM);
    }
  }
  assert_int_equal(mm.metric[WM_M_LLD_REQ], 2048 * 74);
  assert_int_equal(mm.metric[WM_M_LLD_SEC], 2048 * 2088);
  assert_int_equal(mm.metric[WM_M_LST_REQ], 2048 * 20);
  assert_int_equal(mm.metric[WM_M_LST_SEC], 2048 * 360);
  assert_int_equal(mm.metric[WM_M_LLD_REQ], measured("local_heap", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"));
  assert_int_equal(mm.metric[WM_M_LLD_SEC], measured("local_heap", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"));
  assert_int_equal(mm.metric[WM_M_LST_REQ], measured("local_heap", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"));
  assert_int_equal(mm.metric[WM_M_LST_SEC], measured("local_heap", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"));
  /* Nothing leaks into other counters. */
  assert_int_equal(mm.metric[WM_M_GLD_REQ], 0);
  assert_int_equal(mm.metric[WM_M_SLD_INST], 0);

  /* Lines: the v2 init store is 2 requests of 4 sectors per execution. */
  LineStat *init = &mm.line[ST_INIT], *ld = &mm.line[LD_IDX];
  assert_int_equal(init->execs, 2048 * 5);
  assert_int_equal(init->requests, 2048 * 10);
  assert_int_equal(init->units, 2048 * 40);
  assert_int_equal(init->ideal, 2048 * 40);
  assert_int_equal(init->worst, 4);
  assert_int_equal(init->unit_kind, 1);
  assert_int_equal(ld->worst, 32);
  assert_int_equal(ld->ideal, 2048 * 64 * 4);
  assert_non_null(strstr(ld->why, "different offsets"));
  assert_non_null(strstr(init->why, "same local offset"));
  mem_free(&mm);
}

/* ---- mem_access bookkeeping ------------------------------------------- */

static void test_access_global(void **state)
{
  MemModel mm = model(4);
  uint64_t a[32];
  strided(a, 0x1000, 4);
  req(&mm, PTX_S_GLOBAL, MEM_LD, 4, ALL, a, 0);
  req(&mm, PTX_S_GLOBAL, MEM_LD, 4, 0x1, a, 0);
  req(&mm, PTX_S_GLOBAL, MEM_ST, 4, ALL, a, 1);
  strided(a, 0x1004, 4);
  req(&mm, PTX_S_GLOBAL, MEM_ATOM, 4, ALL, a, 2);
  strided(a, 0x1000, 0);
  req(&mm, PTX_S_GLOBAL, MEM_RED, 4, ALL, a, 3);
  assert_int_equal(mm.metric[WM_M_GLD_REQ], 2);
  assert_int_equal(mm.metric[WM_M_GLD_INST], 2);
  assert_int_equal(mm.metric[WM_M_GLD_SEC], 5);
  assert_int_equal(mm.metric[WM_M_GST_REQ], 1);
  assert_int_equal(mm.metric[WM_M_GST_INST], 1);
  assert_int_equal(mm.metric[WM_M_GST_SEC], 4);
  assert_int_equal(mm.metric[WM_M_GATOM_REQ], 1);
  assert_int_equal(mm.metric[WM_M_GATOM_SEC], 5);
  assert_int_equal(mm.metric[WM_M_GRED_REQ], 1);
  assert_int_equal(mm.metric[WM_M_GRED_INST], 1); /* and no instruction counter for atom */
  /* 32 lanes updating one word are served one after another: 32 sectors
   * (measured on an H200: tools/probe gred#same) */
  assert_int_equal(mm.metric[WM_M_GRED_SEC], 32);
  assert_int_equal(mm.metric[WM_M_WARPS], 0);
  assert_int_equal(mm.metric[WM_M_INST], 0);

  LineStat *l0 = &mm.line[0];
  assert_int_equal(l0->execs, 2);
  assert_int_equal(l0->requests, 2);
  assert_int_equal(l0->units, 5);
  assert_int_equal(l0->ideal, 5); /* 4 + 1 */
  assert_int_equal(l0->worst, 4);
  assert_int_equal(l0->unit_kind, 1);
  assert_non_null(strstr(l0->why, "coalesced"));
  /* The misaligned atomic: 5 where 4 would do. */
  assert_int_equal(mm.line[2].ideal, 4);
  assert_non_null(strstr(mm.line[2].why, "4 bytes past a sector boundary"));
  /* The red of one word by all lanes: ideal 1, served one lane at a time. */
  assert_int_equal(mm.line[3].ideal, 1);
  assert_non_null(strstr(mm.line[3].why, "one lane at a time"));
  mem_free(&mm);
}

static void test_access_shared(void **state)
{
  MemModel mm = model(3);
  uint64_t a[32];
  strided(a, 0, 128);
  req(&mm, PTX_S_SHARED, MEM_LD, 4, ALL, a, 0);
  strided(a, 0, 4);
  req(&mm, PTX_S_SHARED, MEM_LD, 4, ALL, a, 0);
  strided(a, 0, 8);
  req(&mm, PTX_S_SHARED, MEM_ST, 4, ALL, a, 1);
  strided(a, 0, 16);
  req(&mm, PTX_S_SHARED, MEM_ST, 16, ALL, a, 1);
  strided(a, 0, 0);
  req(&mm, PTX_S_SHARED, MEM_ATOM, 4, 0xff, a, 2);
  assert_int_equal(mm.metric[WM_M_SLD_INST], 2);
  assert_int_equal(mm.metric[WM_M_SLD_WF], 33);
  assert_int_equal(mm.metric[WM_M_SLD_BC], 31);
  assert_int_equal(mm.metric[WM_M_SST_INST], 2);
  assert_int_equal(mm.metric[WM_M_SST_WF], 2 + 4);
  assert_int_equal(mm.metric[WM_M_SST_BC], 1);
  assert_int_equal(mm.metric[WM_M_SATOM_INST], 1);
  assert_int_equal(mm.metric[WM_M_SATOM_WF], 8);
  assert_int_equal(mm.metric[WM_M_GLD_SEC], 0);

  LineStat *l0 = &mm.line[0];
  assert_int_equal(l0->execs, 2);
  assert_int_equal(l0->requests, 2);
  assert_int_equal(l0->units, 33);
  assert_int_equal(l0->ideal, 2);
  assert_int_equal(l0->worst, 32);
  assert_int_equal(l0->unit_kind, 2);
  assert_non_null(strstr(l0->why, "32-way bank conflict"));
  assert_non_null(strstr(l0->why, "128 B apart"));
  /* The line's costliest request is the conflict-free 16-byte store. */
  assert_int_equal(mm.line[1].worst, 4);
  assert_non_null(strstr(mm.line[1].why, "4 wavefronts: conflict-free"));
  assert_non_null(strstr(mm.line[2].why, "atomics serialize"));
  mem_free(&mm);
}

/* Const and param: no L1 counter moves, the line still counts. */
static void test_access_const(void **state)
{
  MemModel mm = model(2);
  uint64_t a[32];
  strided(a, 0, 0);
  req(&mm, PTX_S_CONST, MEM_LD, 4, ALL, a, 0);
  req(&mm, PTX_S_PARAM, MEM_LD, 8, ALL, a, 1);
  req(&mm, PTX_S_PARAM, MEM_LD, 8, ALL, a, 1);
  for (int m = 0; m < WM_M_COUNT; m++)
    assert_int_equal(mm.metric[m], 0);
  assert_int_equal(mm.line[1].execs, 2);
  assert_int_equal(mm.line[1].requests, 2);
  assert_int_equal(mm.line[1].units, 0);
  assert_int_equal(mm.line[1].unit_kind, 0);
  assert_non_null(strstr(mm.line[0].why, "constant cache"));
  /* An instruction index outside the kernel is counted, not stored. */
  req(&mm, PTX_S_GLOBAL, MEM_LD, 4, ALL, a, 7);
  req(&mm, PTX_S_GLOBAL, MEM_LD, 4, ALL, a, -1);
  assert_int_equal(mm.metric[WM_M_GLD_REQ], 2);
  mem_free(&mm);
}

/* Local vectors: one request per word; a float4 of the same offset in every
 * lane is 4 requests of 4 sectors. */
static void test_access_local_vector(void **state)
{
  MemModel mm = model(1);
  uint64_t a[32];
  strided(a, 16, 0);
  req(&mm, PTX_S_LOCAL, MEM_LD, 16, ALL, a, 0);
  assert_int_equal(mm.metric[WM_M_LLD_REQ], 4);
  assert_int_equal(mm.metric[WM_M_LLD_SEC], 16);
  req(&mm, PTX_S_LOCAL, MEM_ST, 1, 0x3, a, 0);
  assert_int_equal(mm.metric[WM_M_LST_REQ], 1);
  assert_int_equal(mm.metric[WM_M_LST_SEC], 1);
  assert_int_equal(mm.line[0].requests, 5);
  mem_free(&mm);
}

/* ---- fast paths against brute force ------------------------------------ */

static uint64_t lcg(uint64_t *x)
{
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return *x >> 33;
}

/* Random warps in the shapes the fast paths look for (side by side, one
 * address, ascending, descending, random, partial masks, misaligned). */
static void random_warp(uint64_t *x, uint64_t *a, uint32_t *mask, unsigned *size)
{
  static const unsigned sizes[5] = {1, 2, 4, 8, 16};
  *size = sizes[lcg(x) % 5];
  uint64_t base = (lcg(x) % 4096) & ~(uint64_t)(lcg(x) % 2 ? *size - 1 : 0);
  int64_t stride = (int64_t)(lcg(x) % 4 == 0 ? 0 : *size * (lcg(x) % 5)) * (lcg(x) % 3 ? 1 : -1);
  unsigned kind = (unsigned)(lcg(x) % 4);
  for (int l = 0; l < 32; l++)
    a[l] = kind == 2   ? (lcg(x) % 2048) & ~(uint64_t)(*size - 1)
           : kind == 3 ? base + 65536 + (uint64_t)((l >> 1) * stride) /* pairs */
                       : base + 65536 + (uint64_t)(l * stride);
  *mask = lcg(x) % 2 ? ALL : (uint32_t)(lcg(x) << 16 ^ lcg(x)) | 1;
}

static unsigned brute_sectors(const uint64_t *a, uint32_t mask, unsigned size)
{
  uint64_t s[64];
  unsigned n = 0, d = 0;
  for (int l = 0; l < 32; l++)
    if (mask >> l & 1)
      for (uint64_t x = a[l] >> 5; x <= (a[l] + size - 1) >> 5; x++)
        s[n++] = x;
  for (unsigned i = 0; i < n; i++) {
    unsigned seen = 0;
    for (unsigned j = 0; j < i; j++)
      seen |= s[j] == s[i];
    d += !seen;
  }
  return d;
}

/* The rule of smem.c, written plainly. */
static unsigned brute_wavefronts(const uint64_t *a, uint32_t mask, unsigned size, int op)
{
  unsigned lanes = size <= 4 ? 32 : size == 8 ? 16 : 8;
  if (op == MEM_LD && size > 4) {
    for (unsigned x = 1; x <= 2; x++) {
      int ok = 1;
      for (unsigned l = 0; l < 32; l++)
        if ((mask >> l & 1) && (mask >> (l ^ x) & 1) && a[l] != a[l ^ x])
          ok = 0;
      if (ok) {
        lanes *= 2;
        break;
      }
    }
  }
  unsigned total = 0;
  for (unsigned g = 0; g < 32; g += lanes) {
    uint64_t w[160];
    unsigned n = 0, worst = 0, any = 0;
    for (unsigned l = g; l < g + lanes; l++)
      if (mask >> l & 1) {
        any = 1;
        for (uint64_t x = a[l] >> 2; x <= (a[l] + size - 1) >> 2; x++)
          w[n++] = x;
      }
    for (unsigned b = 0; b < 32; b++) {
      unsigned c = 0;
      for (unsigned i = 0; i < n; i++) {
        unsigned dup = 0;
        for (unsigned j = 0; j < i && op != MEM_ATOM; j++)
          dup |= w[j] == w[i];
        c += (w[i] & 31) == b && !dup;
      }
      worst = c > worst ? c : worst;
    }
    total += any ? worst : 0;
  }
  return total;
}

static void test_random_against_brute_force(void **state)
{
  uint64_t x = 12345, a[32];
  for (int i = 0; i < 4000; i++) {
    uint32_t mask;
    unsigned size, d;
    random_warp(&x, a, &mask, &size);
    assert_int_equal(mem_coalesce(a, mask, size, &d), brute_sectors(a, mask, size));
    unsigned nd = 0;
    for (int l = 0; l < 32; l++) {
      unsigned seen = 0;
      for (int j = 0; j < l; j++)
        seen |= (mask >> j & 1) && a[j] == a[l];
      nd += (mask >> l & 1) && !seen;
    }
    assert_int_equal(d, nd);
    for (int op = MEM_LD; op <= MEM_ATOM; op++)
      assert_int_equal(mem_smem_cost(a, mask, size, (unsigned)op, NULL),
                       brute_wavefronts(a, mask, size, op));
  }
}

/* ---- explanations ----------------------------------------------------- */

static void explain(char *buf, int space, int op, unsigned size, uint32_t mask,
                    const uint64_t *a, int shared)
{
  MemReq r = {.space = (uint8_t)space, .op = (uint8_t)op, .size = (uint8_t)size,
              .elem = (uint8_t)size, .mask = mask, .addr = a};
  unsigned ideal, d, units;
  if (shared) {
    units = mem_smem_cost(a, mask, size, op, &ideal);
  } else {
    units = mem_coalesce(a, mask, size, &d);
    ideal = (d * size + 31) / 32;
  }
  mem_explain(buf, 160, NULL, &r, units, ideal);
}

static void test_explain(void **state)
{
  char b[160];
  uint64_t a[32];
  strided(a, 0x100000, 8192);
  explain(b, PTX_S_GLOBAL, MEM_ST, 4, ALL, a, 0);
  assert_string_equal(b, "32 lanes write 32 sectors where 4 would do: lanes are 8 KiB apart, one sector each");
  strided(a, 0x1000, 4);
  explain(b, PTX_S_GLOBAL, MEM_LD, 4, ALL, a, 0);
  assert_string_equal(b, "32 lanes read 4 sectors: consecutive 4-byte words, coalesced");
  strided(a, 0x1004, 4);
  explain(b, PTX_S_GLOBAL, MEM_LD, 4, ALL, a, 0);
  assert_string_equal(b, "32 lanes read 5 sectors where 4 would do: the warp's 128 bytes start 4 bytes past a sector boundary");
  strided(a, 0x1000, 8);
  explain(b, PTX_S_GLOBAL, MEM_LD, 4, ALL, a, 0);
  assert_string_equal(b, "32 lanes read 8 sectors where 4 would do: lanes are 8 B apart, 4 of every 8 bytes fetched are used");
  strided(a, 0x1000, 0);
  explain(b, PTX_S_GLOBAL, MEM_LD, 4, ALL, a, 0);
  assert_string_equal(b, "1 sector: all lanes read the same word (broadcast)");
  explain(b, PTX_S_SHARED, MEM_LD, 4, ALL, a, 1);
  assert_string_equal(b, "1 wavefront: all lanes read the same word (broadcast)");
  strided(a, 0, 128);
  explain(b, PTX_S_SHARED, MEM_LD, 4, ALL, a, 1);
  assert_string_equal(b, "32 wavefronts: 32-way bank conflict, lanes 128 B apart all hit bank 0");
  strided(a, 0, 8);
  explain(b, PTX_S_SHARED, MEM_LD, 4, ALL, a, 1);
  assert_string_equal(b, "2 wavefronts: 2-way bank conflict (stride 2 words)");
  strided(a, 0, 4);
  explain(b, PTX_S_SHARED, MEM_LD, 4, ALL, a, 1);
  assert_string_equal(b, "1 wavefront: conflict-free");
  strided(a, 0, 16);
  explain(b, PTX_S_SHARED, MEM_LD, 16, ALL, a, 1);
  assert_non_null(strstr(b, "4 wavefronts: conflict-free"));
  /* The rectangle: no single stride. */
  for (unsigned l = 0; l < 32; l++)
    a[l] = (uint64_t)((l % 16) * 32 + l / 16) * 4;
  explain(b, PTX_S_SHARED, MEM_LD, 4, ALL, a, 1);
  assert_string_equal(b, "16 wavefronts where 1 would do: 16-way bank conflict, 16 different words in bank 0");
  /* Every explanation fits. */
  assert_true(strlen(b) < sizeof b);
}

/* An atomic request's updates per sector: lanes on one word are each an
 * update of their own (the L2 serializes them), lanes on distinct words of
 * a sector are one.  32 lanes on one word: 1 sector, 32 updates; 32
 * consecutive words: 4 sectors of 8 words, 1 update each; 16 lanes on
 * word 0 and 16 on word 8 (the next sector): 2 sectors, 16 updates each. */
static void test_atomic_ops(void **state)
{
  (void)state;
  uint64_t a[32], sec[32];
  uint32_t bytes[32];
  uint8_t ops[32];
  for (unsigned l = 0; l < 32; l++) a[l] = 4096;
  assert_int_equal(mem_atomic_ops(a, ALL, 4, sec, bytes, ops), 1);
  assert_int_equal(ops[0], 32);
  assert_int_equal(sec[0], 4096 / 32);
  assert_int_equal(bytes[0], 0xf);
  assert_int_equal(mem_atomic_sectors(a, ALL, 4), 32);
  for (unsigned l = 0; l < 32; l++) a[l] = 4096 + 4 * l;
  assert_int_equal(mem_atomic_ops(a, ALL, 4, sec, bytes, ops), 4);
  for (unsigned i = 0; i < 4; i++) {
    assert_int_equal(ops[i], 1);
    assert_int_equal(bytes[i], 0xffffffffu);
  }
  for (unsigned l = 0; l < 32; l++) a[l] = 4096 + (l & 1) * 32;
  assert_int_equal(mem_atomic_ops(a, ALL, 4, sec, bytes, ops), 2);
  assert_int_equal(ops[0], 16);
  assert_int_equal(ops[1], 16);
  assert_int_equal(mem_atomic_sectors(a, ALL, 4), 32);
}

static void test_init_and_names(void **state)
{
  MemModel mm;
  /* compute capability 1.0/1.1 coalesces by other rules: not modelled */
  MemConfig old = {.sm = 11};
  assert_int_equal(mem_init(&mm, &old, 4), -1);
  mm = model(0);
  assert_null(mm.line);
  mem_free(&mm);
  assert_string_equal(wm_metric_name[WM_M_GLD_REQ], "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  assert_string_equal(wm_metric_name[WM_M_SLD_BC], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  for (int m = 0; m < WM_M_COUNT; m++) {
    assert_non_null(wm_metric_name[m]);
    assert_true(wm_metric_desc[m][0] != 0);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_sectors_floats),
    cmocka_unit_test(test_atomic_ops),
    cmocka_unit_test(test_sectors_strided),
    cmocka_unit_test(test_sectors_broadcast),
    cmocka_unit_test(test_sectors_vectors),
    cmocka_unit_test(test_sectors_partial),
    cmocka_unit_test(test_smem_tile),
    cmocka_unit_test(test_smem_rect),
    cmocka_unit_test(test_smem_broadcast),
    cmocka_unit_test(test_smem_vectors),
    cmocka_unit_test(test_smem_packed_uniform),
    cmocka_unit_test(test_smem_partial),
    cmocka_unit_test(test_smem_float3),
    cmocka_unit_test(test_smem_transpose),
    cmocka_unit_test(test_smem_atomics),
    cmocka_unit_test(test_local_address),
    cmocka_unit_test(test_local_heap),
    cmocka_unit_test(test_access_global),
    cmocka_unit_test(test_access_shared),
    cmocka_unit_test(test_access_const),
    cmocka_unit_test(test_access_local_vector),
    cmocka_unit_test(test_random_against_brute_force),
    cmocka_unit_test(test_explain),
    cmocka_unit_test(test_init_and_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
