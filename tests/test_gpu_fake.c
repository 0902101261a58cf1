/* test_gpu_fake.c - the GPU runner against a stand-in driver
 * (tests/fake/fake_libcuda.c, loaded through WARPMEM_LIBCUDA): what it asks
 * the driver for, checked without a GPU.
 *
 * Texture and surface objects: the CUDA arrays' descriptions (extent,
 * format, channels, layered and surface flags), the texels copied in dense
 * row order from the emulator's tiled buffer, the texture description
 * (address modes, filter, normalized coordinates), the handles in the
 * parameter slots at the launch, a surface's array copied back into the
 * emulator's layout, texels copied in again by reupload, and everything
 * released.  Tensor maps: encoded by the driver over the device buffers.
 * Also: a cooperative launch goes through
 * cuLaunchCooperativeKernel, and a struct argument's pointer member holds
 * the device address of its buffer.
 */
#include "testutil.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cuda_api.h"
#include "gpu/gpu.h"
#include "emu/emu_tmap.h"
#include "gpu/gpu_int.h"
#include "launch/launch.h"
#include "ptx/ptx.h"

/* fake_libcuda.c's record, as it lays it out */
#define FAKE_MAX 16
typedef struct FakeArray {
  CudaArray3DDesc d;
  uint8_t *data;
  size_t bytes;
  int live;
} FakeArray;
typedef struct FakeTmap {
  int dtype, im2col, interleave, swizzle, l2, oob;
  unsigned rank, box[5], estride[5], channels, pixels;
  unsigned long long addr, dim[5], strides[4];
  int lower[3], upper[3];
} FakeTmap;
typedef struct FakeState {
  FakeArray arrays[FAKE_MAX];
  int narrays, arrays_destroyed;
  CudaResourceDesc res[FAKE_MAX];
  CudaTextureDesc tex[FAKE_MAX];
  int ntex, nsurf, objects_destroyed;
  uint8_t launch_params[8][8];
  int launches, cooperative_launches;
  int nparams;
  int cluster_launches;
  unsigned cluster_dim[3];
  int nonportable;
  FakeTmap tmaps[FAKE_MAX];
  int ntmaps;
} FakeState;

static Gpu *g;
static FakeState *fake;

static int open_fake(void **state) {
  (void)state;
  setenv("WARPMEM_LIBCUDA", WM_FAKECUDA, 1);
  WmErr e = {0};
  if (gpu_open(0, &g, &e)) {
    fprintf(stderr, "%s\n", e.msg);
    return -1;
  }
  void *lib = dlopen(WM_FAKECUDA, RTLD_NOW | RTLD_NOLOAD);
  fake = lib ? dlsym(lib, "fake_state") : NULL;
  return fake ? 0 : -1;
}

static int close_fake(void **state) {
  (void)state;
  gpu_close(g);
  unsetenv("WARPMEM_LIBCUDA");
  return 0;
}

static const char *ptx =
  ".version 7.8\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 k_t, .param .u64 k_s, .param .u64 k_o)\n{\n  ret;\n}\n"
  ".visible .entry agg(.param .align 8 .b8 agg_p[16])\n{\n  ret;\n}\n"
  ".visible .entry tm(.param .align 64 .b8 tm_a[128], .param .u64 tm_b, .param .u64 tm_o)\n{\n  ret;\n}\n";

static LaunchSpec spec_of(const char *line) {
  LaunchSpec *v = NULL;
  int n = 0;
  WmErr e = {0};
  if (launch_parse_file("t.cu", line, &v, &n, &e) || n != 1) fail_msg("%s: %s", line, e.msg);
  LaunchSpec l = v[0];
  free(v);
  return l;
}

static float f32_at(const uint8_t *p) {
  float f;
  memcpy(&f, p, 4);
  return f;
}

static void test_texture_and_surface(void **state) {
  (void)state;
  WmErr e = {0};
  PtxModule *m = ptx_parse("t.ptx", wm_xstrdup(ptx), &e);
  if (!m) fail_msg("%s", e.msg);
  GpuModule *gm;
  assert_int_equal(gpu_module_load(g, m, &gm, &e), 0);
  LaunchSpec l = spec_of("//@ k grid=1 block=32 args=tex:f32x2:20x11:linear:border:norm:iota,"
                         "surf:f32:5x6x2:layered:iota,buf:f32:32\n");
  const PtxKernel *k = ptx_find_kernel(m, "k", &e);
  memset(fake, 0, sizeof *fake);
  fake->nparams = 3;
  GpuLaunch *L;
  if (gpu_launch_prepare(gm, k, &l, INIT_RAND, 1, &L, &e)) fail_msg("%s", e.msg);
  /* the arrays */
  assert_int_equal(fake->narrays, 2);
  const CudaArray3DDesc *t = &fake->arrays[0].d, *s = &fake->arrays[1].d;
  assert_true(t->Width == 20 && t->Height == 11 && t->Depth == 0);
  assert_true(t->Format == CU_AD_FORMAT_FLOAT && t->NumChannels == 2 && t->Flags == 0);
  assert_true(s->Width == 5 && s->Height == 6 && s->Depth == 2);
  assert_int_equal(s->Flags, CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST);
  /* iota, densely: channel c of texel (x, y) is element (y * 20 + x) * 2 + c */
  for (int i = 0; i < 20 * 11 * 2; i++) assert_true(f32_at(fake->arrays[0].data + 4 * i) == (float)i);
  for (int i = 0; i < 5 * 6 * 2; i++) assert_true(f32_at(fake->arrays[1].data + 4 * i) == (float)i);
  /* the objects */
  assert_int_equal(fake->res[0].resType, CU_RESOURCE_TYPE_ARRAY);
  assert_ptr_equal(fake->res[0].res.array.hArray, &fake->arrays[0]);
  assert_ptr_equal(fake->res[1].res.array.hArray, &fake->arrays[1]);
  for (int d = 0; d < 3; d++) assert_int_equal(fake->tex[0].addressMode[d], CU_TR_ADDRESS_MODE_BORDER);
  assert_int_equal(fake->tex[0].filterMode, CU_TR_FILTER_MODE_LINEAR);
  assert_int_equal(fake->tex[0].flags, CU_TRSF_NORMALIZED_COORDINATES);
  assert_int_equal(fake->nsurf, 1);
  /* the launch sees the driver's handles and the output's device address */
  if (gpu_launch_run(L, &e)) fail_msg("%s", e.msg);
  uint64_t h0, h1, out;
  memcpy(&h0, fake->launch_params[0], 8);
  memcpy(&h1, fake->launch_params[1], 8);
  memcpy(&out, fake->launch_params[2], 8);
  assert_int_equal(h0, 0x7e0000ull);
  assert_int_equal(h1, 0x5f0000ull);
  assert_int_equal(out, L->dptr[2]);
  /* the surface comes back (the fake kernel added 1), in the emulator's layout */
  if (gpu_launch_download(L, &e)) fail_msg("%s", e.msg);
  const GlobalMem *host = gpu_launch_buffers(L);
  const GTex *st = gmem_tex(host, GTEX_HANDLE0 + 1), *tt = gmem_tex(host, GTEX_HANDLE0);
  assert_non_null(st);
  assert_true(st->surface && !tt->surface);
  for (uint32_t z = 0; z < 2; z++)
    for (uint32_t y = 0; y < 6; y++)
      for (uint32_t x = 0; x < 5; x++) {
        float want = (float)((z * 6 + y) * 5 + x) + 1.0f;
        assert_true(f32_at(host->buf[st->buf].data + gtex_offset(st, x, y, z)) == want);
      }
  /* the texture's host copy is as bound */
  assert_true(f32_at(host->buf[tt->buf].data + gtex_offset(tt, 3, 2, 0) + 4) == (float)((2 * 20 + 3) * 2 + 1));
  /* reupload puts the initial texels back into the arrays */
  assert_int_equal(gpu_launch_reupload(L, &e), 0);
  for (int i = 0; i < 5 * 6 * 2; i++) assert_true(f32_at(fake->arrays[1].data + 4 * i) == (float)i);
  gpu_launch_free(L);
  assert_int_equal(fake->arrays_destroyed, 2);
  assert_int_equal(fake->objects_destroyed, 2);

  /* cooperative, and a pointer inside a struct passed by value */
  memset(fake, 0, sizeof *fake);
  fake->nparams = 1;
  l = spec_of("//@ agg cooperative grid=2 block=32 args=struct{buf:f32:8,i32:3}\n");
  k = ptx_find_kernel(m, "agg", &e);
  if (gpu_launch_prepare(gm, k, &l, INIT_RAND, 1, &L, &e) || gpu_launch_run(L, &e)) fail_msg("%s", e.msg);
  assert_int_equal(fake->cooperative_launches, 1);
  uint64_t member;
  memcpy(&member, fake->launch_params[0], 8);
  assert_int_equal(member, L->dptr[0]);
  gpu_launch_free(L);

  /* a cluster launch: cuLaunchKernelEx with the cluster dimension, the
   * non-portable size allowed first */
  memset(fake, 0, sizeof *fake);
  fake->nparams = 1;
  l = spec_of("//@ agg nonportable grid=32 block=32 cluster=16 args=struct{buf:f32:8,i32:3}\n");
  if (gpu_launch_prepare(gm, k, &l, INIT_RAND, 1, &L, &e) || gpu_launch_run(L, &e)) fail_msg("%s", e.msg);
  assert_int_equal(fake->cluster_launches, 1);
  assert_int_equal(fake->cooperative_launches, 0);
  assert_true(fake->cluster_dim[0] == 16 && fake->cluster_dim[1] == 1 && fake->cluster_dim[2] == 1);
  assert_int_equal(fake->nonportable, 1);
  assert_int_equal(fake->launches, 1);
  gpu_launch_free(L);
  gpu_module_free(gm);
  ptx_module_free(m);
}

/* tmap: arguments: the driver encodes each map over the device buffer
 * (the same fields the spec gives), the 128-byte parameter gets its bytes,
 * a pointer parameter the device address of the map's own buffer, which
 * holds the driver's bytes (again after a reupload); the download leaves
 * the host copy of that buffer the emulator's. */
static void test_tensor_maps(void **state) {
  (void)state;
  WmErr e = {0};
  PtxModule *m = ptx_parse("t.ptx", wm_xstrdup(ptx), &e);
  if (!m) fail_msg("%s", e.msg);
  GpuModule *gm;
  assert_int_equal(gpu_module_load(g, m, &gm, &e), 0);
  LaunchSpec l = spec_of("//@ tm grid=1 block=32 args=tmap:bf16:128x40:box=64x32:swz=128:oob=nan:l2=256,"
                         "tmap:f32:32x4x3:im2col=8x16:lower=-1:upper=1:estride=1x2x1:over=0,buf:f32:32\n");
  const PtxKernel *k = ptx_find_kernel(m, "tm", &e);
  memset(fake, 0, sizeof *fake);
  fake->nparams = 3;
  GpuLaunch *L;
  if (gpu_launch_prepare(gm, k, &l, INIT_RAND, 1, &L, &e)) fail_msg("%s", e.msg);
  assert_int_equal(fake->ntmaps, 2);
  const FakeTmap *a = &fake->tmaps[0], *b = &fake->tmaps[1];
  /* buffers: arg0's tensor, arg1's map (its tensor is arg0's), arg2 */
  assert_int_equal(L->host.n, 3);
  assert_int_equal(a->addr, L->dptr[0]);
  assert_true(a->dtype == 9 && a->rank == 2 && !a->im2col); /* CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 */
  assert_true(a->dim[0] == 128 && a->dim[1] == 40 && a->strides[0] == 256 && a->box[0] == 64 && a->box[1] == 32);
  assert_true(a->swizzle == 3 && a->oob == 1 && a->l2 == 3 && a->interleave == 0);
  assert_int_equal(b->addr, L->dptr[0]);
  assert_true(b->im2col && b->rank == 3 && b->dtype == 7 && b->channels == 8 && b->pixels == 16);
  assert_true(b->lower[0] == -1 && b->upper[0] == 1 && b->estride[1] == 2 && b->strides[0] == 128 &&
              b->strides[1] == 512);
  if (gpu_launch_run(L, &e)) fail_msg("%s", e.msg);
  uint64_t p0, p1, out;
  memcpy(&p0, fake->launch_params[0], 8);
  memcpy(&p1, fake->launch_params[1], 8);
  memcpy(&out, fake->launch_params[2], 8);
  assert_int_equal(p0, L->dptr[0]); /* the driver's map in the parameter: its first 8 bytes the address */
  assert_int_equal(p1, L->dptr[1]);
  assert_int_equal(out, L->dptr[2]);
  const uint8_t *dev_map = (const uint8_t *)(uintptr_t)L->dptr[1];
  assert_int_equal(dev_map[8], 1);
  memset((void *)(uintptr_t)L->dptr[1], 0, 128);
  assert_int_equal(gpu_launch_reupload(L, &e), 0);
  assert_int_equal(dev_map[8], 1);
  assert_int_equal(gpu_launch_download(L, &e), 0);
  Tmap t;
  char why[300];
  assert_int_equal(tmap_unpack(gpu_launch_buffers(L)->buf[1].data, &t, why, sizeof why), 0);
  assert_int_equal(t.addr, L->host.buf[0].addr);
  gpu_launch_free(L);
  gpu_module_free(gm);
  ptx_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_texture_and_surface),
    cmocka_unit_test(test_tensor_maps),
  };
  return cmocka_run_group_tests_name("gpu runner against a fake driver", tests, open_fake, close_fake);
}
