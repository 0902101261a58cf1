/* test_rounds.c - warpmem__load_rounds (emu/emu_rounds.c): a warp waits a
 * memory round trip once for each level of its chain of dependent global
 * or local loads, as ptxas schedules them (independent loads first).
 * Kernels written so that the count follows from the code: one warp each,
 * so rounds = rounds per warp. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "mem/metrics.h"
#include "sim/sim.h"

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char *const kernels =
    PTX_HEAD
    /* ld a; use; ld b; use: the second load's address needs nothing
     * loaded, so ptxas issues it before the first use: 1 round */
    ".visible .entry interleaved(.param .u64 p)\n{\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.f32 %f1, [%rd2];\n  add.f32 %f2, %f1, %f1;\n"
    "  ld.global.f32 %f3, [%rd2+4];\n  add.f32 %f2, %f2, %f3;\n"
    "  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* ld a; ld [a]: the second address is the first value: 2 rounds */
    ".visible .entry chase(.param .u64 p)\n{\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.u64 %rd3, [%rd2];\n  and.b64 %rd4, %rd3, 56;\n  add.s64 %rd5, %rd2, %rd4;\n"
    "  ld.global.u64 %rd3, [%rd5];\n  st.global.u64 [%rd2+8], %rd3;\n  ret;\n}\n"
    /* ld a; st a'; ld b: the store waits for a, and b may not pass it
     * (it could read what the store writes): 2 rounds */
    ".visible .entry fenced(.param .u64 p)\n{\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.f32 %f1, [%rd2];\n  st.global.f32 [%rd2+8], %f1;\n"
    "  ld.global.f32 %f3, [%rd2+4];\n  st.global.f32 [%rd2+12], %f3;\n  ret;\n}\n"
    /* a loop of 8 iterations summing a[i] (a store only after it): ptxas
     * unrolls it 4 times and issues 4 iterations' loads together: 2 */
    ".visible .entry sum(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 0;\n"
    "  mov.f32 %f2, 0f00000000;\n  mov.u64 %rd3, %rd2;\n"
    "$L_sum:\n  ld.global.f32 %f1, [%rd3];\n  add.f32 %f2, %f2, %f1;\n  add.s64 %rd3, %rd3, 4;\n"
    "  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 8;\n  @%p1 bra $L_sum;\n"
    "  st.global.f32 [%rd2+128], %f2;\n  ret;\n}\n"
    /* the same loop under `.pragma "nounroll"` (nvcc's `#pragma unroll
     * 1`): ptxas keeps it, each iteration waits (race_kernels.cu's mmu_u1:
     * 2 LDGs in its SASS): 8 */
    ".visible .entry sum_nounroll(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 0;\n"
    "  mov.f32 %f2, 0f00000000;\n  mov.u64 %rd3, %rd2;\n"
    "$L_snu:\n  .pragma \"nounroll\";\n  ld.global.f32 %f1, [%rd3];\n  add.f32 %f2, %f2, %f1;\n  add.s64 %rd3, %rd3, 4;\n"
    "  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 8;\n  @%p1 bra $L_snu;\n"
    "  st.global.f32 [%rd2+128], %f2;\n  ret;\n}\n"
    /* the same loop loading 8 floats an iteration: 4 iterations' 32
     * loads are more than a warp issues before its first use (16), so a
     * round every 2 iterations: 4 */
    ".visible .entry sum8(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .f32 %f<12>;\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 0;\n"
    "  mov.f32 %f2, 0f00000000;\n  mov.u64 %rd3, %rd2;\n"
    "$L_sum8:\n  ld.global.f32 %f3, [%rd3];\n  ld.global.f32 %f4, [%rd3+4];\n  ld.global.f32 %f5, [%rd3+8];\n"
    "  ld.global.f32 %f6, [%rd3+12];\n  ld.global.f32 %f7, [%rd3+16];\n  ld.global.f32 %f8, [%rd3+20];\n"
    "  ld.global.f32 %f9, [%rd3+24];\n  ld.global.f32 %f10, [%rd3+28];\n"
    "  add.f32 %f2, %f2, %f3;\n  add.f32 %f2, %f2, %f4;\n  add.f32 %f2, %f2, %f5;\n  add.f32 %f2, %f2, %f6;\n"
    "  add.f32 %f2, %f2, %f7;\n  add.f32 %f2, %f2, %f8;\n  add.f32 %f2, %f2, %f9;\n  add.f32 %f2, %f2, %f10;\n"
    "  add.s64 %rd3, %rd3, 4;\n  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 8;\n  @%p1 bra $L_sum8;\n"
    "  st.global.f32 [%rd2+128], %f2;\n  ret;\n}\n"
    /* the sum loop with a guard around its load, if-converted: ptxas
     * predicates the load and does not unroll the loop further
     * (race_kernels.cu's mmx: 8 predicated LDGs a round in its SASS, as
     * its PTX has), so each iteration waits: 8 */
    ".visible .entry sum_guarded(.param .u64 p)\n{\n  .reg .pred %p<3>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 0;\n"
    "  mov.f32 %f2, 0f00000000;\n  mov.u64 %rd3, %rd2;\n"
    "$L_sg:\n  setp.gt.s32 %p2, %r1, 100;\n  @%p2 bra $L_sg_skip;\n  ld.global.f32 %f1, [%rd3];\n"
    "  add.f32 %f2, %f2, %f1;\n$L_sg_skip:\n  add.s64 %rd3, %rd3, 4;\n"
    "  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 8;\n  @%p1 bra $L_sg;\n"
    "  st.global.f32 [%rd2+128], %f2;\n  ret;\n}\n"
    /* the sum loop stepping by a run-time value (a grid-stride loop, by
     * the parameter n = 1 as the launch passes it): neither nvcc nor
     * ptxas unrolls it, so each of its 8 iterations waits: 8 */
    ".visible .entry sum_stride(.param .u64 p, .param .u32 n)\n{\n  .reg .pred %p<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r2, [n];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 0;\n"
    "  mov.f32 %f2, 0f00000000;\n  mov.u64 %rd3, %rd2;\n"
    "$L_sst:\n  ld.global.f32 %f1, [%rd3];\n  add.f32 %f2, %f2, %f1;\n  add.s64 %rd3, %rd3, 4;\n"
    "  add.s32 %r1, %r1, %r2;\n  setp.lt.s32 %p1, %r1, 8;\n  @%p1 bra $L_sst;\n"
    "  st.global.f32 [%rd2+128], %f2;\n  ret;\n}\n"
    /* a generic load whose address is shared memory (cvta.shared) waits
     * for no round; the global one after it does: 1 */
    ".visible .entry generic_shared(.param .u64 p)\n{\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<5>;\n"
    "  .shared .align 4 .f32 s[32];\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u64 %rd3, s;\n  cvta.shared.u64 %rd4, %rd3;\n"
    "  ld.f32 %f1, [%rd4];\n  add.f32 %f2, %f1, %f1;\n  st.global.f32 [%rd2+8], %f2;\n"
    "  ld.global.f32 %f3, [%rd2];\n  st.global.f32 [%rd2+12], %f3;\n  ret;\n}\n"
    /* the same loop chasing: the next address is the value loaded, so
     * unrolling overlaps nothing: 8 */
    ".visible .entry walk(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 0;\n  mov.u64 %rd3, 0;\n"
    "$L_walk:\n  add.s64 %rd4, %rd2, %rd3;\n  ld.global.u64 %rd5, [%rd4];\n  and.b64 %rd3, %rd5, 56;\n"
    "  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 8;\n  @%p1 bra $L_walk;\n"
    "  st.global.u64 [%rd2+128], %rd3;\n  ret;\n}\n"
    /* ld a; if (p) ld b; use both, p from the thread index: ptxas
     * predicates the short branch (@!P LDG), so both loads issue
     * together: 1 round (public set: conv_rows, reduce_tree) */
    ".visible .entry guarded(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  ld.global.f32 %f1, [%rd2];\n  mov.f32 %f3, 0f00000000;\n  setp.gt.u32 %p1, %r1, 7;\n  @%p1 bra $L_g;\n"
    "  ld.global.f32 %f3, [%rd2+4];\n$L_g:\n  add.f32 %f2, %f1, %f3;\n  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* the same with p from the first load's value (a > infinity: never
     * taken): the second load waits for it through the predicate: 2 */
    ".visible .entry guarded_dep(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.f32 %f1, [%rd2];\n  mov.f32 %f3, 0f00000000;\n  setp.gt.f32 %p1, %f1, 0f7F800000;\n  @%p1 bra $L_gd;\n"
    "  ld.global.f32 %f3, [%rd2+4];\n$L_gd:\n  add.f32 %f2, %f1, %f3;\n  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* the guarded load skipped by every lane (p: tid >= 0), and one
     * predicated off: both are instructions on the GPU (their SASS is a
     * predicated LDG; conv_rows on the H200), neither a request */
    ".visible .entry skipped(.param .u64 p)\n{\n  .reg .pred %p<3>;\n  .reg .b32 %r<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  ld.global.f32 %f1, [%rd2];\n  mov.f32 %f3, 0f00000000;\n  setp.ge.u32 %p1, %r1, 0;\n  @%p1 bra $L_s;\n"
    "  ld.global.f32 %f3, [%rd2+4];\n$L_s:\n  setp.gt.u32 %p2, %r1, 99;\n  @%p2 ld.global.f32 %f1, [%rd2+8];\n"
    "  add.f32 %f2, %f1, %f3;\n  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* if (p) ld a; ld b; use both, with p false for every lane: the
     * round's first load is skipped, the second starts it: 1 (mmx with
     * its A loads off, race_kernels.cu) */
    ".visible .entry first_off(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  mov.f32 %f1, 0f00000000;\n  setp.ge.u32 %p1, %r1, 0;\n  @%p1 bra $L_fo;\n"
    "  ld.global.f32 %f1, [%rd2];\n$L_fo:\n  ld.global.f32 %f3, [%rd2+4];\n  add.f32 %f2, %f1, %f3;\n"
    "  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* a body of 5 instructions (the address arithmetic and the load) that
     * every lane skips: ptxas predicates it, so its LDG is still an
     * instruction (race_kernels.cu's mmx#a1024); and a 5-instruction body
     * before the return: the lanes that skip exit, its STG is none
     * (public reduce_tree's last store) */
    ".visible .entry body5(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<6>;\n  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  ld.global.f32 %f1, [%rd2];\n  mov.f32 %f3, 0f00000000;\n  setp.ge.u32 %p1, %r1, 0;\n  @%p1 bra $L_b5;\n"
    "  add.s32 %r2, %r1, 1;\n  mul.lo.s32 %r3, %r2, 3;\n  mul.wide.u32 %rd3, %r3, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.f32 %f3, [%rd4];\n$L_b5:\n  add.f32 %f2, %f1, %f3;\n  @%p1 bra $L_b5x;\n"
    "  add.s32 %r2, %r1, 2;\n  mul.lo.s32 %r3, %r2, 3;\n  mul.wide.u32 %rd3, %r3, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.f32 [%rd4], %f2;\n$L_b5x:\n  ret;\n}\n"
    /* ld a; ld b; use both: 1 round */
    ".visible .entry one(.param .u64 p)\n{\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.f32 %f1, [%rd2];\n  ld.global.f32 %f3, [%rd2+4];\n  add.f32 %f2, %f1, %f3;\n"
    "  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* a loop of 5 iterations, each loading and storing what it loaded: 5;
     * the parameter load and the shared load count for nothing */
    ".visible .entry loop(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .shared .align 4 .f32 s[32];\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.shared.f32 %f3, [s];\n  add.f32 %f3, %f3, %f3;\n  mov.u32 %r1, 0;\n"
    "$L_top:\n  ld.global.f32 %f1, [%rd2];\n  st.global.f32 [%rd2+4], %f1;\n"
    "  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 5;\n  @%p1 bra $L_top;\n  ret;\n}\n"
    /* a float3 per lane, 12 bytes apart (f3_plain's store): x, y and z
     * touch the same 12 sectors; back to back, L1 merges them (12 reach
     * L2); with an add between each, all three reach L2 (3 x 12) */
    ".visible .entry f3_adjacent(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  .reg .f32 %f<2>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd4, %rd2, %rd3;\n  cvt.rn.f32.u32 %f1, %r1;\n"
    "  st.global.f32 [%rd4], %f1;\n  st.global.f32 [%rd4+4], %f1;\n  st.global.f32 [%rd4+8], %f1;\n  ret;\n}\n"
    ".visible .entry f3_apart(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  .reg .f32 %f<2>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd4, %rd2, %rd3;\n  cvt.rn.f32.u32 %f1, %r1;\n"
    "  st.global.f32 [%rd4], %f1;\n  add.f32 %f1, %f1, %f1;\n  st.global.f32 [%rd4+4], %f1;\n"
    "  add.f32 %f1, %f1, %f1;\n  st.global.f32 [%rd4+8], %f1;\n  ret;\n}\n"
/* eight loads of one word, LD as the kernel's name says (strong ones above
 * the block bypass L1, emu_mem.c's cache_op), with STORE between them or
 * not */
#define LOOP8(NAME, LD, STORE)                                                                       \
    ".visible .entry " NAME "(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"       \
    "  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"          \
    "  mov.u32 %r1, 0;\n$L_" NAME ":\n  " LD " %r2, [%rd2];\n  add.s32 %r3, %r2, 1;\n" STORE       \
    "  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 8;\n  @%p1 bra $L_" NAME ";\n  ret;\n}\n"
    LOOP8("weak", "ld.global.u32", "  st.global.u32 [%rd2+4], %r3;\n")
    LOOP8("volatile_rmw", "ld.volatile.global.u32", "  st.volatile.global.u32 [%rd2], %r3;\n")
    LOOP8("acquire_rmw", "ld.acquire.gpu.global.u32", "  st.global.u32 [%rd2], %r3;\n")
    LOOP8("cta_rmw", "ld.relaxed.cta.global.u32", "  st.global.u32 [%rd2], %r3;\n")
    LOOP8("volatile_poll", "ld.volatile.global.u32", "");

/* Runs one warp of kernel `name` on a buffer of 96 floats: its counters
 * in m (one warp launched). */
static void run_warp(const char *name, uint64_t *m) {
  WmErr e = {0};
  PtxModule *mod = ptx_parse("t.ptx", strdup(kernels), &e);
  if (!mod) fail_msg("%s", e.msg);
  SimRun run;
  if (strcmp(name, "sum_stride") == 0) tu_launch(&run, mod, name, "1", "32", 0, "buf:f32:96", "i32:1", NULL);
  else tu_launch(&run, mod, name, "1", "32", 0, "buf:f32:96", NULL);
  assert_int_equal(run.mm.metric[WM_M_WARPS], 1);
  memcpy(m, run.mm.metric, sizeof run.mm.metric);
  sim_run_free(&run);
  ptx_module_free(mod);
}

static uint64_t rounds_of(const char *name) {
  uint64_t m[WM_M_COUNT];
  run_warp(name, m);
  return m[WM_M_ROUNDS];
}

/* L2 write sectors of one warp of `name`. */
static uint64_t l2_writes_of(const char *name) {
  uint64_t m[WM_M_COUNT];
  run_warp(name, m);
  assert_int_equal(m[WM_M_GST_SEC], 3 * 12); /* 32 lanes x 12 bytes = 384: 12 sectors a store */
  return m[WM_M_L2_WR];
}

/* Strong loads above the block's scope bypass L1 (lab space_global on
 * the H200 and the H100: every volatile load sector misses); .cta ones
 * and weak ones are cached; a poll that reads again what the warp's
 * previous strong load read, nothing stored between, is counted as a
 * cached load (emu_mem.c's repeated_poll).  One warp, all lanes on one
 * word: a request is one sector. */
static void test_strong_loads(void **state) {
  (void)state;
  uint64_t m[WM_M_COUNT];
  run_warp("weak", m); /* the first load misses, 7 hit; the 8 stores' sector hits after the first */
  assert_int_equal(m[WM_M_L2_RD], 1);
  run_warp("volatile_rmw", m); /* 8 loads and 8 stores, all past L1 */
  assert_int_equal(m[WM_M_L2_RD], 8);
  assert_int_equal(m[WM_M_L1_MISS], 16);
  assert_int_equal(m[WM_M_L1_HIT], 0);
  run_warp("acquire_rmw", m); /* .acquire.gpu: the same for the loads */
  assert_int_equal(m[WM_M_L2_RD], 8);
  run_warp("cta_rmw", m); /* .relaxed.cta: within the SM, cached */
  assert_int_equal(m[WM_M_L2_RD], 1);
  run_warp("volatile_poll", m); /* the first poll past L1; repeats cached: one fill, then hits */
  assert_int_equal(m[WM_M_L2_RD], 2);
  assert_int_equal(m[WM_M_L1_HIT], 6);
}

/* A warp's stores to the same sectors merge in L1 only back to back
 * (emu_mark_store_runs; H200 probes st_gap). */
static void test_store_runs(void **state) {
  (void)state;
  assert_int_equal(l2_writes_of("f3_adjacent"), 12);
  assert_int_equal(l2_writes_of("f3_apart"), 3 * 12);
}

static void test_interleaved(void **state) {
  (void)state;
  assert_int_equal(rounds_of("interleaved"), 1);
}

static void test_chase(void **state) {
  (void)state;
  assert_int_equal(rounds_of("chase"), 2);
}

static void test_fenced(void **state) {
  (void)state;
  assert_int_equal(rounds_of("fenced"), 2);
}

static void test_one_round(void **state) {
  (void)state;
  assert_int_equal(rounds_of("one"), 1);
}

static void test_unrolled(void **state) {
  (void)state;
  assert_int_equal(rounds_of("sum"), 2);
  assert_int_equal(rounds_of("sum8"), 4);
  assert_int_equal(rounds_of("walk"), 8);
  assert_int_equal(rounds_of("sum_stride"), 8);
  assert_int_equal(rounds_of("sum_nounroll"), 8);
  assert_int_equal(rounds_of("sum_guarded"), 8);
}

static void test_if_converted(void **state) {
  (void)state;
  assert_int_equal(rounds_of("guarded"), 1);
  assert_int_equal(rounds_of("guarded_dep"), 2);
  assert_int_equal(rounds_of("first_off"), 1);
}

static void test_idle_instructions(void **state) {
  (void)state;
  uint64_t m[WM_M_COUNT];
  run_warp("skipped", m);
  assert_int_equal(m[WM_M_GLD_REQ], 1);  /* the first load only */
  assert_int_equal(m[WM_M_GLD_INST], 3); /* and the skipped and the predicated-off one */
  run_warp("body5", m);
  assert_int_equal(m[WM_M_GLD_REQ], 1);
  assert_int_equal(m[WM_M_GLD_INST], 2); /* the skipped 5-instruction body's load too */
  assert_int_equal(m[WM_M_GST_INST], 0); /* the body before the return: the warp exits */
}

static void test_generic_shared(void **state) {
  (void)state;
  assert_int_equal(rounds_of("generic_shared"), 1);
}

static void test_loop(void **state) {
  (void)state;
  assert_int_equal(rounds_of("loop"), 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_interleaved),
    cmocka_unit_test(test_chase),
    cmocka_unit_test(test_fenced),
    cmocka_unit_test(test_one_round),
    cmocka_unit_test(test_loop),
    cmocka_unit_test(test_unrolled),
    cmocka_unit_test(test_generic_shared),
    cmocka_unit_test(test_if_converted),
    cmocka_unit_test(test_idle_instructions),
    cmocka_unit_test(test_store_runs),
    cmocka_unit_test(test_strong_loads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
