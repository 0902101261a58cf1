/* gpu_kernels.c - the runner's own kernels, in PTX, and the calls that
 * enqueue them: the SM-clock probe, the L2 flush and the float4 copy.
 * Nothing here times anything: gpu_measure.c uses the probe and the flush
 * around its samples, gpu_bandwidth.c times the copy.
 *
 * Notes:
 * - The PTX targets sm_70 so that any Volta or later GPU JIT-compiles it;
 *   the tests parse it (and run the copy in the emulator) on machines
 *   without a GPU.
 * - wm_clock spins one thread until %globaltimer (ns) has advanced by
 *   `ns`, and writes the %clock64 cycles and the nanoseconds that passed:
 *   cycles / ns x 1000 is the SM clock in MHz.
 * - wm_copy4 is a grid-stride copy of 16-byte words, four loads in flight
 *   per thread before their stores (one float4 per thread and trip leaves
 *   too few bytes in flight to fill an HBM3e GPU).
 */
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_int.h"

const char gpu_tools_ptx[] =
  ".version 7.0\n"
  ".target sm_70\n"
  ".address_size 64\n"
  "\n"
  ".visible .entry wm_clock(.param .u64 wm_clock_out, .param .u64 wm_clock_ns)\n"
  "{\n"
  "  .reg .pred %p<2>;\n"
  "  .reg .b64 %rd<10>;\n"
  "  ld.param.u64 %rd1, [wm_clock_out];\n"
  "  ld.param.u64 %rd2, [wm_clock_ns];\n"
  "  cvta.to.global.u64 %rd1, %rd1;\n"
  "  mov.u64 %rd3, %globaltimer;\n"
  "  mov.u64 %rd4, %clock64;\n"
  "$L_spin:\n"
  "  mov.u64 %rd5, %globaltimer;\n"
  "  sub.u64 %rd6, %rd5, %rd3;\n"
  "  setp.lt.u64 %p1, %rd6, %rd2;\n"
  "  @%p1 bra $L_spin;\n"
  "  mov.u64 %rd7, %clock64;\n"
  "  sub.u64 %rd8, %rd7, %rd4;\n"
  "  st.global.u64 [%rd1], %rd8;\n"
  "  st.global.u64 [%rd1+8], %rd6;\n"
  "  ret;\n"
  "}\n"
  "\n"
  ".visible .entry wm_copy4(.param .u64 wm_copy4_dst, .param .u64 wm_copy4_src, .param .u64 wm_copy4_n)\n"
  "{\n"
  "  .reg .pred %p<3>;\n"
  "  .reg .b32 %r<24>;\n"
  "  .reg .b64 %rd<20>;\n"
  "  ld.param.u64 %rd1, [wm_copy4_dst];\n"
  "  ld.param.u64 %rd2, [wm_copy4_src];\n"
  "  ld.param.u64 %rd3, [wm_copy4_n];\n"
  "  cvta.to.global.u64 %rd1, %rd1;\n"
  "  cvta.to.global.u64 %rd2, %rd2;\n"
  "  mov.u32 %r1, %ctaid.x;\n"
  "  mov.u32 %r2, %ntid.x;\n"
  "  mov.u32 %r3, %tid.x;\n"
  "  mov.u32 %r4, %nctaid.x;\n"
  "  mul.wide.u32 %rd4, %r1, %r2;\n"
  "  cvt.u64.u32 %rd5, %r3;\n"
  "  add.u64 %rd4, %rd4, %rd5;\n"       /* i: this thread's first word */
  "  mul.wide.u32 %rd6, %r4, %r2;\n"    /* stride: threads in the grid */
  "  mul.lo.u64 %rd7, %rd6, 3;\n"
  "  shl.b64 %rd10, %rd6, 4;\n"         /* stride in bytes */
  "  shl.b64 %rd16, %rd6, 2;\n"         /* four strides, in words */
  "$L_four:\n"
  "  add.u64 %rd8, %rd4, %rd7;\n"
  "  setp.ge.u64 %p1, %rd8, %rd3;\n"
  "  @%p1 bra $L_one;\n"
  "  shl.b64 %rd9, %rd4, 4;\n"
  "  add.u64 %rd11, %rd2, %rd9;\n"
  "  ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd11];\n"
  "  add.u64 %rd12, %rd11, %rd10;\n"
  "  ld.global.v4.u32 {%r9, %r10, %r11, %r12}, [%rd12];\n"
  "  add.u64 %rd13, %rd12, %rd10;\n"
  "  ld.global.v4.u32 {%r13, %r14, %r15, %r16}, [%rd13];\n"
  "  add.u64 %rd14, %rd13, %rd10;\n"
  "  ld.global.v4.u32 {%r17, %r18, %r19, %r20}, [%rd14];\n"
  "  add.u64 %rd15, %rd1, %rd9;\n"
  "  st.global.v4.u32 [%rd15], {%r5, %r6, %r7, %r8};\n"
  "  add.u64 %rd15, %rd15, %rd10;\n"
  "  st.global.v4.u32 [%rd15], {%r9, %r10, %r11, %r12};\n"
  "  add.u64 %rd15, %rd15, %rd10;\n"
  "  st.global.v4.u32 [%rd15], {%r13, %r14, %r15, %r16};\n"
  "  add.u64 %rd15, %rd15, %rd10;\n"
  "  st.global.v4.u32 [%rd15], {%r17, %r18, %r19, %r20};\n"
  "  add.u64 %rd4, %rd4, %rd16;\n"
  "  bra.uni $L_four;\n"
  "$L_one:\n"
  "  setp.ge.u64 %p2, %rd4, %rd3;\n"
  "  @%p2 bra $L_done;\n"
  "  shl.b64 %rd9, %rd4, 4;\n"
  "  add.u64 %rd11, %rd2, %rd9;\n"
  "  ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd11];\n"
  "  add.u64 %rd15, %rd1, %rd9;\n"
  "  st.global.v4.u32 [%rd15], {%r5, %r6, %r7, %r8};\n"
  "  add.u64 %rd4, %rd4, %rd6;\n"
  "  bra.uni $L_one;\n"
  "$L_done:\n"
  "  ret;\n"
  "}\n";

int gpu_tools_init(Gpu *g, WmErr *e) {
  if (g->tools) return 0;
  char log[4096] = "";
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *val[] = {log, (void *)(uintptr_t)sizeof log};
  CUresult r = g->cu.cuModuleLoadDataEx(&g->tools, gpu_tools_ptx, 2, opt, val);
  if (r != CUDA_SUCCESS) {
    g->tools = NULL;
    gpu_cu_fail(g, e, r, "cuModuleLoadDataEx", "warpmem's own kernels (wm_clock, wm_copy4)");
    size_t len = strlen(e->msg);
    snprintf(e->msg + len, sizeof e->msg - len, "\n  JIT log: %s", log[0] ? log : "(empty)");
    return -1;
  }
  GPU_TRY(g, e, "wm_clock", cuModuleGetFunction, (&g->clock_fn, g->tools, "wm_clock"));
  GPU_TRY(g, e, "wm_copy4", cuModuleGetFunction, (&g->copy4_fn, g->tools, "wm_copy4"));
  GPU_TRY(g, e, "the clock probe's buffer", cuMemAlloc, (&g->clock_buf, 32));
  GPU_TRY(g, e, "timing events", cuEventCreate, (&g->ev[0], CU_EVENT_DEFAULT));
  GPU_TRY(g, e, "timing events", cuEventCreate, (&g->ev[1], CU_EVENT_DEFAULT));
  g->have_events = 1;
  return 0;
}

int gpu_clock_probe(Gpu *g, int slot, WmErr *e) {
  CUdeviceptr out = g->clock_buf + 16ull * (unsigned)slot;
  unsigned long long ns = GPU_CLOCK_SPIN_NS;
  void *args[] = {&out, &ns};
  GPU_TRY(g, e, "the SM clock probe (wm_clock)", cuLaunchKernel,
          (g->clock_fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
  return 0;
}

int gpu_clock_read(Gpu *g, double *mhz, WmErr *e) {
  unsigned long long v[4];
  GPU_TRY(g, e, "the SM clock probe's results", cuMemcpyDtoH, (v, g->clock_buf, sizeof v));
  double a = v[1] ? 1e3 * (double)v[0] / (double)v[1] : 0;
  double b = v[3] ? 1e3 * (double)v[2] / (double)v[3] : 0;
  *mhz = a > 0 && b > 0 ? (a < b ? a : b) : (a > 0 ? a : b);
  return 0;
}

int gpu_l2_flush(Gpu *g, WmErr *e) {
  if (!g->flush) {
    /* twice the L2, so nothing the kernel left there survives */
    size_t want = 2 * (size_t)(g->info.l2_bytes > 0 ? g->info.l2_bytes : 64 << 20);
    GPU_TRY(g, e, "the L2-flush buffer (2 x L2 bytes)", cuMemAlloc, (&g->flush, want));
    g->flush_bytes = want;
  }
  /* a new value each time, in case a memset of equal bytes is ever elided */
  g->flush_value = (g->flush_value + 1) & 0xff;
  GPU_TRY(g, e, "the L2 flush", cuMemsetD8, (g->flush, (unsigned char)g->flush_value, g->flush_bytes));
  return 0;
}

int gpu_copy4_enqueue(Gpu *g, CUdeviceptr dst, CUdeviceptr src, unsigned long long n16, WmErr *e) {
  /* one full wave: 256-thread blocks, as many as fit on every SM at once */
  unsigned per_sm = g->info.max_threads_per_sm > 0 ? (unsigned)g->info.max_threads_per_sm / 256 : 8;
  unsigned blocks = (unsigned)g->info.sms * (per_sm ? per_sm : 1);
  void *args[] = {&dst, &src, &n16};
  GPU_TRY(g, e, "the float4 copy (wm_copy4)", cuLaunchKernel,
          (g->copy4_fn, blocks ? blocks : 1, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  return 0;
}
