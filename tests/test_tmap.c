/* test_tmap.c - tensor maps: the driver's rules (emu/emu_tmap.c, cuda.h's
 * documentation of cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col,
 * rule by rule, each refusal naming its field), warpmem's 128-byte
 * encoding (round trip, bytes nobody encoded, bytes changed since),
 * cuTensorMapReplaceAddress; the driver stand-in (build/rt/libcuda.so.1,
 * loaded as an application loads it): the encode calls, CUDA_ERROR_INVALID_VALUE
 * for bad alignment, box and rank, cuGetProcAddress, and a map it encoded
 * used by a TMA kernel launched with cuLaunchKernel; the mbarrier, fence
 * and prefetch forms libcu++ and CUTLASS emit, parsed and run; and a map
 * edited on the device (tensormap.replace, tensormap.cp_fenceproxy). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "emu/emu_tmap.h"
#include "gpu/cuda_api.h"
#include "rt/rt_env.h"
#include "testutil.h"

/* A valid tiled map: a 256 x 64 bf16 matrix, 64 x 32 boxes, 128B swizzle. */
static Tmap tiled(void) {
  Tmap t;
  memset(&t, 0, sizeof t);
  t.dtype = TMAP_T_BFLOAT16, t.rank = 2, t.addr = 0x7f0000001000ull;
  t.dim[0] = 256, t.dim[1] = 64, t.stride[1] = 512;
  t.box[0] = 64, t.box[1] = 32, t.estride[0] = t.estride[1] = 1;
  t.swizzle = TMAP_SWIZZLE_128B;
  return t;
}

/* t must be refused, the reason containing `why`. */
static void refused(const Tmap *t, const char *why) {
  char msg[300];
  if (tmap_check(t, NULL, msg, sizeof msg) == 0) fail_msg("accepted; expected '%s'", why);
  if (!strstr(msg, why)) fail_msg("'%s' does not say '%s'", msg, why);
}

static void test_tiled_rules(void **state) {
  (void)state;
  char msg[300];
  Tmap t = tiled();
  assert_int_equal(tmap_check(&t, NULL, msg, sizeof msg), 0);
  t = tiled(), t.rank = 0, refused(&t, "tensorRank 0 is not in 1..5");
  t = tiled(), t.rank = 6, refused(&t, "tensorRank 6 is not in 1..5");
  t = tiled(), t.dtype = 16, refused(&t, "tensorDataType 16 is not a CUtensorMapDataType");
  t = tiled(), t.addr += 8, refused(&t, "globalAddress 0x7f0000001008 is not 16-byte aligned");
  t = tiled(), t.dim[1] = 0, refused(&t, "globalDim[1] = 0 is not in 1..2^32");
  t = tiled(), t.dim[0] = (1ull << 32) + 1, refused(&t, "globalDim[0] = 4294967297");
  t = tiled(), t.stride[1] = 520, refused(&t, "globalStrides[0] = 520 is not a multiple of 16 below 2^40");
  t = tiled(), t.stride[1] = 1ull << 40, refused(&t, "globalStrides[0]");
  t = tiled(), t.box[1] = 257, refused(&t, "boxDim[1] = 257 is not in 1..256");
  t = tiled(), t.box[0] = 4, t.swizzle = 0, refused(&t, "boxDim[0] = 4: its 8 bytes are not a multiple of 16");
  t = tiled(), t.estride[1] = 9, refused(&t, "elementStrides[1] = 9 is not in 1..8");
  t = tiled(), t.estride[0] = 0, refused(&t, "elementStrides[0] = 0 is not in 1..8");
  t = tiled(), t.box[0] = 128, refused(&t, "inner dimension is 256 bytes, more than the 128-byte swizzle span");
  t = tiled(), t.swizzle = TMAP_SWIZZLE_64B, refused(&t, "more than the 64-byte swizzle span");
  t = tiled(), t.swizzle = 7, refused(&t, "swizzle 7 is not a CUtensorMapSwizzle");
  t = tiled(), t.l2promo = 4, refused(&t, "l2Promotion 4 is not a CUtensorMapL2promotion");
  t = tiled(), t.oobfill = 2, refused(&t, "oobFill 2 is not a CUtensorMapFloatOOBfill");
  t = tiled(), t.dtype = TMAP_T_INT32, t.box[0] = 32, t.oobfill = TMAP_OOB_NAN, refused(&t, "the NaN fill needs a floating-point");
  /* interleaved layouts: at least 3 dimensions; a 32B one is 32-byte aligned and swizzles 32B */
  t = tiled(), t.interleave = TMAP_INTERLEAVE_16B, refused(&t, "an interleaved layout needs at least 3 dimensions");
  t = tiled(), t.rank = 3, t.dim[2] = 4, t.stride[2] = 512 * 64, t.box[2] = 1, t.estride[2] = 1;
  t.interleave = TMAP_INTERLEAVE_32B, t.swizzle = TMAP_SWIZZLE_128B, refused(&t, "a 32B interleave needs CU_TENSOR_MAP_SWIZZLE_32B");
  t.swizzle = TMAP_SWIZZLE_32B, t.addr += 16, refused(&t, "is not 32-byte aligned");
  t.addr -= 16;
  assert_int_equal(tmap_check(&t, NULL, msg, sizeof msg), 0); /* the inner box rule is not the interleaved one's */
  /* the object itself: 64-byte aligned */
  static _Alignas(64) uint8_t map[TMAP_BYTES + 64];
  t = tiled();
  assert_int_equal(tmap_check(&t, map, msg, sizeof msg), 0);
  assert_int_equal(tmap_check(&t, map + 32, msg, sizeof msg), -1);
  assert_non_null(strstr(msg, "is not 64-byte aligned"));
}

static void test_im2col_rules(void **state) {
  (void)state;
  char msg[300];
  Tmap t;
  memset(&t, 0, sizeof t);
  t.im2col = 1, t.dtype = TMAP_T_FLOAT16, t.rank = 4, t.addr = 0x10000;
  uint64_t dim[4] = {64, 14, 9, 8};
  for (int i = 0; i < 4; i++) t.dim[i] = dim[i], t.estride[i] = 1;
  t.stride[1] = 128, t.stride[2] = 128 * 14, t.stride[3] = 128 * 14 * 9;
  t.lower[0] = t.lower[1] = -1, t.upper[0] = t.upper[1] = -1;
  t.channels = 64, t.pixels = 128, t.swizzle = TMAP_SWIZZLE_128B;
  assert_int_equal(tmap_check(&t, NULL, msg, sizeof msg), 0);
  Tmap u = t;
  u.rank = 2, refused(&u, "tensorRank 2: an im2col map has 3, 4 or 5 dimensions");
  u = t, u.lower[0] = -129, refused(&u, "pixelBoxLowerCorner[0] = -129 is not in [-128, 127] for a rank-4 map");
  u = t, u.upper[1] = 128, refused(&u, "pixelBoxUpperCorner[1] = 128");
  u = t, u.lower[0] = 10, u.upper[0] = -5, refused(&u, "the pixel box has no area along dimension 1");
  u = t, u.channels = 257, refused(&u, "channelsPerPixel = 257 is not in 1..256");
  u = t, u.pixels = 1025, refused(&u, "pixelsPerColumn = 1025 is not in 1..1024");
  u = t, u.channels = 4, refused(&u, "channelsPerPixel = 4: its 8 bytes are not a multiple of 16");
  u = t, u.channels = 128, refused(&u, "inner dimension is 256 bytes, more than the 128-byte swizzle span");
  /* rank 3 takes corners in [-32768, 32767]; rank 5 in [-16, 15] */
  u = t, u.rank = 3, u.lower[0] = -30000;
  assert_int_equal(tmap_check(&u, NULL, msg, sizeof msg), 0);
  u = t, u.rank = 5, u.dim[4] = 2, u.stride[4] = 1 << 20, u.estride[4] = 1, u.lower[2] = -17;
  refused(&u, "pixelBoxLowerCorner[2] = -17 is not in [-16, 15] for a rank-5 map");
}

static void test_encoding(void **state) {
  (void)state;
  uint8_t map[TMAP_BYTES];
  char why[300];
  Tmap t = tiled(), back;
  t.oobfill = TMAP_OOB_NAN, t.l2promo = TMAP_L2_256B, t.estride[1] = 2;
  tmap_pack(&t, map);
  assert_int_equal(tmap_unpack(map, &back, why, sizeof why), 0);
  assert_true(back.dtype == t.dtype && back.rank == 2 && back.addr == t.addr && back.dim[0] == 256 &&
              back.dim[1] == 64 && back.stride[1] == 512 && back.box[0] == 64 && back.box[1] == 32 &&
              back.estride[1] == 2 && back.swizzle == t.swizzle && back.oobfill == 1 && back.l2promo == 3);
  assert_int_equal(back.stride[0], 2); /* the element */
  /* 2^32 elements along a dimension survive the 4-byte field (dim - 1) */
  t = tiled(), t.dim[1] = 1ull << 32;
  tmap_pack(&t, map);
  assert_int_equal(tmap_unpack(map, &back, why, sizeof why), 0);
  assert_int_equal(back.dim[1], 1ull << 32);
  /* bytes nobody encoded, and bytes changed after encoding */
  uint8_t zeros[TMAP_BYTES] = {0};
  assert_int_equal(tmap_unpack(zeros, &back, why, sizeof why), -1);
  assert_non_null(strstr(why, "its 128 bytes are not a tensor map"));
  /* but tensormap.replace edits zeros as a map of rank 1, u8, sizes 1 */
  assert_int_equal(tmap_decode_edit(zeros, &back, why, sizeof why), 0);
  assert_true(back.rank == 1 && back.dtype == TMAP_T_UINT8 && back.dim[0] == 1 && back.box[0] == 1 &&
              back.stride[0] == 1 && back.addr == 0);
  map[0] ^= 1; /* other bytes nobody encoded are still none */
  assert_int_equal(tmap_decode_edit(map, &back, why, sizeof why), -1);
  map[0] ^= 1;
  map[70] ^= 1;
  assert_int_equal(tmap_unpack(map, &back, why, sizeof why), -1);
  assert_non_null(strstr(why, "changed after it was encoded"));
  /* cuTensorMapReplaceAddress: the new address, aligned as the old one must be */
  t = tiled();
  tmap_pack(&t, map);
  assert_int_equal(tmap_replace_address(map, 0x7f0000002000ull, why, sizeof why), 0);
  assert_int_equal(tmap_unpack(map, &back, why, sizeof why), 0);
  assert_int_equal(back.addr, 0x7f0000002000ull);
  assert_int_equal(tmap_replace_address(map, 0x7f0000002004ull, why, sizeof why), -1);
  assert_non_null(strstr(why, "is not 16-byte aligned"));
  /* what a box is */
  t = tiled();
  assert_int_equal(tmap_box_bytes(&t), 64 * 32 * 2);
  tmap_describe(&t, why, sizeof why);
  assert_string_equal(why, "a 64x32 bf16 box (128-byte rows, 128B swizzle)");
  t.estride[1] = 3;
  assert_int_equal(tmap_box_elems(&t, 1), 11); /* ceil(32 / 3) */
  assert_int_equal(tmap_type_of("s32", 3), TMAP_T_INT32);
  assert_int_equal(tmap_type_of("e4m3", 4), -1);
}

/* --- the driver stand-in -------------------------------------------------- */

static void *lib;

static int setup_all(void **state) {
  (void)state;
#ifdef WM_LIBCUDA
  setenv(RT_ENV_PROGRESS, "0", 1);
  setenv(RT_ENV_REPORT, "/dev/null", 1);
  lib = dlopen(WM_LIBCUDA, RTLD_NOW | RTLD_LOCAL);
#endif
  return 0;
}

static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  if (!p) fail_msg("libcuda.so.1 has no %s", name);
  return p;
}

typedef CUresult (*fn_tiled)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *, const unsigned *,
                             const unsigned *, int, int, int, int);
typedef CUresult (*fn_im2col)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *, const int *,
                              const int *, unsigned, unsigned, const unsigned *, int, int, int, int);
typedef CUresult (*fn_procaddr)(const char *, void **, int, uint64_t, int *);

/* A TMA kernel: the 32 x 8 f32 box at (x, 0) of the map `tm` into shared
 * memory, waited for, copied to out; x = 32 * ctaid.x. */
static const char *tma_ptx =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry box(.param .align 64 .b8 tm[128], .param .u64 out)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .f32 %f<2>;\n  .reg .b64 %rd<8>;\n"
  "  .shared .align 128 .b8 tile[1024];\n  .shared .align 8 .b64 bar;\n"
  "  mov.b64 %rd1, tm;\n  cvta.param.u64 %rd2, %rd1;\n  ld.param.u64 %rd3, [out];\n"
  "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, bar;\n  mov.u32 %r3, tile;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra WAIT;\n"
  "  mbarrier.init.shared::cta.b64 [%r2], 1;\n  fence.mbarrier_init.release.cluster;\n"
  "  mov.u32 %r4, %ctaid.x;\n  shl.b32 %r5, %r4, 5;\n  mov.u32 %r6, 0;\n"
  "  prefetch.param.tensormap [tm];\n"
  "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r3], [%rd2, {%r5, %r6}], [%r2];\n"
  "  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r2], 1024;\n"
  "WAIT:\n  bar.sync 0;\n"
  "LOOP:\n  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n  @!%p1 bra LOOP;\n"
  "  shl.b32 %r7, %r1, 2;\n  add.u32 %r8, %r3, %r7;\n  ld.shared.f32 %f1, [%r8];\n"
  "  mov.u32 %r9, %ctaid.x;\n  mad.lo.u32 %r10, %r9, 256, %r1;\n  mul.wide.u32 %rd4, %r10, 4;\n"
  "  add.s64 %rd5, %rd3, %rd4;\n  st.global.f32 [%rd5], %f1;\n  ret;\n}\n";

static void test_driver_encode(void **state) {
  (void)state;
  if (!lib) {
    fprintf(stderr, "skipped: build/rt/libcuda.so.1 was not built (no CUDA headers)\n");
    skip();
  }
  assert_int_equal(((CUresult(*)(unsigned))sym("cuInit"))(0), CUDA_SUCCESS);
  fn_tiled enc = (fn_tiled)sym("cuTensorMapEncodeTiled");
  static _Alignas(64) uint8_t map[2 * TMAP_BYTES];
  static _Alignas(16) float data[64 * 8];
  uint64_t dim[2] = {64, 8}, strides[1] = {256};
  unsigned box[2] = {32, 8}, es[2] = {1, 1};
  assert_int_equal(enc(map, 7, 2, data, dim, strides, box, es, 0, 0, 0, 0), CUDA_SUCCESS);
  /* CUDA_ERROR_INVALID_VALUE (1): bad alignment, box and rank, a NULL array */
  assert_int_equal(enc(map, 7, 2, (uint8_t *)data + 4, dim, strides, box, es, 0, 0, 0, 0), 1);
  assert_int_equal(enc(map + 32, 7, 2, data, dim, strides, box, es, 0, 0, 0, 0), 1);
  unsigned wide[2] = {512, 8};
  assert_int_equal(enc(map, 7, 2, data, dim, strides, wide, es, 0, 0, 0, 0), 1);
  assert_int_equal(enc(map, 7, 6, data, dim, strides, box, es, 0, 0, 0, 0), 1);
  assert_int_equal(enc(map, 7, 2, data, dim, NULL, box, es, 0, 0, 0, 0), 1);
  uint64_t odd[1] = {260};
  assert_int_equal(enc(map, 7, 2, data, dim, odd, box, es, 0, 0, 0, 0), 1);
  fn_im2col i2c = (fn_im2col)sym("cuTensorMapEncodeIm2col");
  uint64_t d4[4] = {8, 6, 5, 2}, s4[3] = {32, 192, 960};
  int lo[2] = {-1, -1}, hi[2] = {-1, -1};
  unsigned e4[4] = {1, 1, 1, 1};
  assert_int_equal(i2c(map + TMAP_BYTES, 7, 4, data, d4, s4, lo, hi, 8, 32, e4, 0, 0, 0, 0), CUDA_SUCCESS);
  assert_int_equal(i2c(map + TMAP_BYTES, 7, 2, data, d4, s4, lo, hi, 8, 32, e4, 0, 0, 0, 0), 1);
  /* cuGetProcAddress finds them (the newest _vN of others), not a name it lacks */
  fn_procaddr gpa = (fn_procaddr)sym("cuGetProcAddress_v2");
  void *p = NULL;
  int status = -1;
  assert_int_equal(gpa("cuTensorMapEncodeTiled", &p, 12000, 0, &status), CUDA_SUCCESS);
  assert_ptr_equal(p, (void *)enc);
  assert_int_equal(status, 0); /* CU_GET_PROC_ADDRESS_SUCCESS */
  assert_int_equal(gpa("cuMemAlloc", &p, 12000, 0, &status), CUDA_SUCCESS);
  assert_ptr_equal(p, sym("cuMemAlloc_v2"));
  assert_int_equal(gpa("cuNoSuchFunction", &p, 12000, 0, &status), 500); /* CUDA_ERROR_NOT_FOUND */
  assert_int_equal(status, 1);                                             /* SYMBOL_NOT_FOUND */
  assert_null(p);
}

/* The map the stand-in encoded over device memory, passed by value to a
 * TMA kernel through cuLaunchKernel: the kernel reads its boxes. */
static void test_driver_map_in_a_launch(void **state) {
  (void)state;
  if (!lib) skip();
  CUmodule m = NULL;
  CUfunction f = NULL;
  assert_int_equal(((CUresult(*)(CUmodule *, const void *))sym("cuModuleLoadData"))(&m, tma_ptx), CUDA_SUCCESS);
  assert_int_equal(((CUresult(*)(CUfunction *, CUmodule, const char *))sym("cuModuleGetFunction"))(&f, m, "box"),
                   CUDA_SUCCESS);
  CUdeviceptr din = 0, dout = 0;
  CUresult (*alloc)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))sym("cuMemAlloc_v2");
  assert_int_equal(alloc(&din, 64 * 8 * 4), CUDA_SUCCESS);
  assert_int_equal(alloc(&dout, 512 * 4), CUDA_SUCCESS);
  static float in[64 * 8], out[512];
  for (int i = 0; i < 64 * 8; i++) in[i] = (float)i;
  assert_int_equal(((CUresult(*)(CUdeviceptr, const void *, size_t))sym("cuMemcpyHtoD_v2"))(din, in, sizeof in),
                   CUDA_SUCCESS);
  static _Alignas(64) uint8_t map[TMAP_BYTES];
  uint64_t dim[2] = {64, 8}, strides[1] = {256};
  unsigned box[2] = {32, 8}, es[2] = {1, 1};
  fn_tiled enc = (fn_tiled)sym("cuTensorMapEncodeTiled");
  assert_int_equal(enc(map, 7, 2, (void *)(uintptr_t)din, dim, strides, box, es, 0, 0, 0, 0), CUDA_SUCCESS);
  void *params[] = {map, &dout};
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                     void **, void **) = (void *)sym("cuLaunchKernel");
  assert_int_equal(launch(f, 2, 1, 1, 256, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
  assert_int_equal(((CUresult(*)(void))sym("cuCtxSynchronize"))(), CUDA_SUCCESS);
  assert_int_equal(((CUresult(*)(void *, CUdeviceptr, size_t))sym("cuMemcpyDtoH_v2"))(out, dout, sizeof out),
                   CUDA_SUCCESS);
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < 256; i++) assert_true(out[b * 256 + i] == in[(i / 32) * 64 + b * 32 + i % 32]);
  /* cuTensorMapReplaceAddress moves it: now boxes of `out` */
  CUresult (*repl)(void *, void *) = (CUresult(*)(void *, void *))sym("cuTensorMapReplaceAddress");
  assert_int_equal(repl(map, (void *)(uintptr_t)(dout + 2)), 1); /* misaligned */
  assert_int_equal(repl(map, (void *)(uintptr_t)din), CUDA_SUCCESS);
}

/* --- the mbarrier, fence and prefetch forms libcu++ and CUTLASS emit -------- */

/* One thread walks an mbarrier through two phases with the forms of
 * <cuda/ptx> and CUTLASS's ClusterBarrier / ClusterTransactionBarrier, and
 * writes what the waits returned. */
static const char *forms_ptx =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry forms(.param .align 64 .b8 tm[128], .param .u64 out)\n{\n"
  "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
  "  .shared .align 8 .b64 bar;\n  .shared .align 128 .b8 tile[4096];\n"
  "  mov.u32 %r1, bar;\n  mov.u32 %r2, tile;\n  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
  "  mov.b64 %rd2, tm;\n  cvta.param.u64 %rd3, %rd2;\n  mov.u32 %r3, 0;\n"
  "  mbarrier.init.shared::cta.b64 [%r1], 1;\n"
  "  fence.mbarrier_init.release.cluster;\n  fence.proxy.async.shared::cta;\n  fence.proxy.async.global;\n"
  "  fence.proxy.async;\n  fence.proxy.tensormap::generic.release.gpu;\n"
  "  fence.proxy.tensormap::generic.acquire.gpu [%rd3], 128;\n"
  "  prefetch.tensormap [%rd3];\n  prefetch.param.tensormap [tm];\n"
  "  cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd3, {%r3, %r3}];\n"
  /* phase 0: expect_tx + a copy, waited for with try_wait.parity and a suspend hint */
  "  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 4096;\n"
  "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%r2], [%rd3, {%r3, %r3}], [%r1], %rd2;\n"
  "  mbarrier.arrive.release.cta.shared::cta.b64 %rd4, [%r1];\n"
  "W0:\n  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [%r1], 0, 10000000;\n  @!%p1 bra W0;\n"
  "  mbarrier.test_wait.parity.shared::cta.b64 %p2, [%r1], 0;\n"
  "  mbarrier.test_wait.shared::cta.b64 %p3, [%r1], %rd4;\n"
  /* phase 1: arrive.expect_tx with a sink, complete_tx by hand, a remote-style arrive */
  "  mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%r1], 16;\n"
  "  mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [%r1], 16;\n"
  "W1:\n  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r1], 1;\n  @!%p4 bra W1;\n"
  /* phase 2: a token wait, then cp.async.mbarrier.arrive.noinc of no copies */
  "  mbarrier.arrive.shared::cta.b64 %rd5, [%r1];\n"
  "  mbarrier.try_wait.acquire.cluster.shared::cta.b64 %p5, [%r1], %rd5;\n"
  "  cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r1];\n"
  "  mbarrier.test_wait.parity.shared::cta.b64 %p6, [%r1], 1;\n"
  "  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group.read 0;\n  cp.async.bulk.wait_group 0;\n"
  "  selp.u32 %r4, 1, 0, %p1;\n  selp.u32 %r5, 1, 0, %p2;\n  selp.u32 %r6, 1, 0, %p3;\n"
  "  selp.u32 %r7, 1, 0, %p4;\n  selp.u32 %r8, 1, 0, %p5;\n  selp.u32 %r10, 1, 0, %p6;\n"
  "  st.global.u32 [%rd1], %r4;\n  st.global.u32 [%rd1+4], %r5;\n  st.global.u32 [%rd1+8], %r6;\n"
  "  st.global.u32 [%rd1+12], %r7;\n  st.global.u32 [%rd1+16], %r8;\n"
  "  ld.shared.u32 %r9, [%r2+4092];\n  st.global.u32 [%rd1+20], %r9;\n  st.global.u32 [%rd1+24], %r10;\n"
  "  ret;\n}\n";

static void test_forms(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", forms_ptx);
  PtxModule *m = tu_load(path);
  SimRun run;
  tu_launch(&run, m, "forms", "1", "1", 0, "tmap:u32:32x32:box=32x32:iota", "buf:u32:7:zero", (const char *)NULL);
  const uint32_t *out = tu_arg_buf(&run, 1, 4, 7);
  /* phase 0 complete (by parity and by its token), phase 1 complete, the
   * token's phase complete; the copy's last word: iota.  (A wait that
   * would be false waits until it is true: emu_async.c's Notes.) */
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 1);
  assert_int_equal(out[2], 1);
  assert_int_equal(out[3], 1);
  assert_int_equal(out[4], 1);
  assert_int_equal(out[5], 1023);
  assert_int_equal(out[6], 1); /* the .noinc arrival completed phase 3 (parity 1) */
  /* the bulk prefetch, the copy, the two prefetch.tensormap and the
   * commit_group */
  assert_int_equal(run.mm.metric[WM_M_TMA_REQ], 5);
  sim_run_free(&run);
  ptx_module_free(m);
  unlink(path);
  free(path);
}

/* CUTLASS's way of pointing a map at another tensor on the device: the
 * parameter's map copied to shared memory (through its generic address),
 * its global address and rows replaced there, copied to global memory with
 * tensormap.cp_fenceproxy, fenced, and used: the box then comes from `b`,
 * rows past the new size filled with zeros. */
static const char *replace_ptx =
  ".version 8.3\n.target sm_90a\n.address_size 64\n"
  ".visible .entry rep(.param .align 64 .b8 tm[128], .param .u64 pb, .param .u64 pmap, .param .u64 out)\n{\n"
  "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
  "  .shared .align 128 .b8 smap[128];\n  .shared .align 128 .b8 tile[1024];\n  .shared .align 8 .b64 bar;\n"
  "  mov.b64 %rd1, tm;\n  cvta.param.u64 %rd2, %rd1;\n  ld.param.u64 %rd3, [pb];\n  ld.param.u64 %rd4, [pmap];\n"
  "  ld.param.u64 %rd5, [out];\n  mov.u32 %r1, smap;\n  mov.u32 %r2, tile;\n  mov.u32 %r3, bar;\n"
  "  mov.u32 %r4, 0;\n"
  "COPY:\n  cvt.u64.u32 %rd6, %r4;\n  add.s64 %rd7, %rd2, %rd6;\n  ld.u32 %r5, [%rd7];\n"
  "  add.u32 %r6, %r1, %r4;\n  st.shared.u32 [%r6], %r5;\n  add.u32 %r4, %r4, 4;\n"
  "  setp.lt.u32 %p1, %r4, 128;\n  @%p1 bra COPY;\n"
  "  tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r1], %rd3;\n"
  "  mov.u32 %r7, 5;\n  tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r1], 1, %r7;\n"
  "  tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%r1], 0;\n"
  "  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd4], [%r1], 128;\n"
  "  fence.proxy.tensormap::generic.acquire.gpu [%rd4], 128;\n"
  "  mbarrier.init.shared::cta.b64 [%r3], 1;\n  mov.u32 %r11, 0;\n"
  "  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], 1024;\n"
  "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd4, {%r11, %r11}], [%r3];\n"
  "W:\n  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;\n  @!%p2 bra W;\n"
  "  mov.u32 %r8, 0;\n"
  "OUT:\n  add.u32 %r9, %r2, %r8;\n  ld.shared.u32 %r10, [%r9];\n  cvt.u64.u32 %rd8, %r8;\n"
  "  add.s64 %rd9, %rd5, %rd8;\n  st.u32 [%rd9], %r10;\n  add.u32 %r8, %r8, 4;\n"
  "  setp.lt.u32 %p3, %r8, 1024;\n  @%p3 bra OUT;\n  ret;\n}\n";

static void test_tensormap_replace(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", replace_ptx);
  PtxModule *m = tu_load(path);
  SimRun run;
  /* the map over a (32 x 16 floats, zero), its 32 x 8 box at (0, 0); b holds iota */
  tu_launch(&run, m, "rep", "1", "1", 0, "tmap:f32:32x16:box=32x8:oob=nan:zero", "buf:f32:512:iota", "buf:u8:128:zero",
            "buf:f32:256:zero", (const char *)NULL);
  const float *out = tu_arg_buf(&run, 3, 4, 256);
  for (int i = 0; i < 256; i++) /* rows 0..4 of b, then zeros (fill_mode 0 replaced the NaN fill) */
    if (out[i] != (i < 5 * 32 ? (float)i : 0.0f)) fail_msg("out[%d] = %g", i, out[i]);
  sim_run_free(&run);
  ptx_module_free(m);
  unlink(path);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tiled_rules),
    cmocka_unit_test(test_im2col_rules),
    cmocka_unit_test(test_encoding),
    cmocka_unit_test(test_driver_encode),
    cmocka_unit_test(test_driver_map_in_a_launch),
    cmocka_unit_test(test_forms),
    cmocka_unit_test(test_tensormap_replace),
  };
  return cmocka_run_group_tests_name("tensor maps", tests, setup_all, NULL);
}
