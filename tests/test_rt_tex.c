/* test_rt_tex.c - CUDA arrays, texture and surface objects of the stand-in
 * runtime's context (src/rt/rt_tex.h), driven directly as the runtime and
 * driver front ends drive them: arrays round-trip through copies (the
 * tiled layout in between), and kernels of tests/corpus/tex_sampling.cu
 * read objects made from arrays, linear and pitched memory.  Expected
 * values from the kernels' definitions (see tests/test_corpus_tex.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt/rt.h"
#include "rt/rt_env.h"
#include "rt/rt_tex.h"
#include "util/diag.h"
#include "testutil.h"

static char report_path[64];
static char *ptx_text;

static int setup(void **state) {
  const char *vars[] = {RT_ENV_FORMAT, RT_ENV_ARCH, RT_ENV_KERNEL, RT_ENV_SKIP, RT_ENV_COUNT, RT_ENV_MEMLIMIT};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) unsetenv(vars[i]);
  snprintf(report_path, sizeof report_path, "/tmp/wm_test_rt_tex_%d.txt", (int)getpid());
  setenv(RT_ENV_REPORT, report_path, 1);
  setenv(RT_ENV_PROGRESS, "0", 1);
  if (!ptx_text) {
    WmErr e = {0};
    size_t len;
    ptx_text = wm_read_file(tu_corpus("tex_sampling.ptx"), &len, &e);
    if (!ptx_text) fail_msg("%s", e.msg);
  }
  return 0;
}

static int teardown(void **state) {
  rt_shutdown();
  unlink(report_path);
  return 0;
}

static int teardown_all(void **state) {
  free(ptx_text);
  return 0;
}

static const RtFormat F32 = {{32, 0, 0, 0}, 2}, S32 = {{32, 0, 0, 0}, 0}, U32 = {{32, 0, 0, 0}, 1};

static RtFunction *kernel(const char *name) {
  RtModule *m = NULL;
  RtFunction *f = NULL;
  assert_int_equal(rt_module_load_ptx(ptx_text, "tex_sampling.ptx", &m), RT_SUCCESS);
  assert_int_equal(rt_module_function(m, name, &f), RT_SUCCESS);
  return f;
}

static RtError launch(RtFunction *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx, uint32_t by, void **args) {
  RtLaunchConfig c = {.grid = {gx, gy, gz}, .block = {bx, by, 1}};
  return rt_launch(f, &c, args);
}

/* ---- arrays and copies ----------------------------------------------------- */

/* A 2D array of 37x19 floats (GOBs of 16x8 f32, so partial ones at both
 * edges) filled from dense rows with a row pitch of 40 floats, read back
 * into other rows, and a 5x4 box at (3, 2) read back alone. */
static void test_array_2d_round_trip(void **state) {
  enum { W = 37, H = 19, P = 40 };
  RtArrayDesc d = {.f = F32, .w = W, .h = H};
  RtArray *a = NULL;
  assert_int_equal(rt_array_create(&d, &a), RT_SUCCESS);
  assert_int_equal(rt_array_elem_size(a), 4);
  static float in[H][P], out[H][W], box[4][5];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < P; x++) in[y][x] = (float)(y * 1000 + x);
  RtCopySide arr = {.array = a}, src = {.ptr = in, .pitch = P * 4, .height = H};
  assert_int_equal(rt_copy_3d(&arr, &src, W * 4, H, 1), RT_SUCCESS);
  RtCopySide dst = {.ptr = out, .pitch = W * 4, .height = H};
  assert_int_equal(rt_copy_3d(&dst, &arr, W * 4, H, 1), RT_SUCCESS);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) assert_true(out[y][x] == (float)(y * 1000 + x));
  RtCopySide part = {.array = a, .x = 3 * 4, .y = 2}, bd = {.ptr = box, .pitch = 5 * 4, .height = 4};
  assert_int_equal(rt_copy_3d(&bd, &part, 5 * 4, 4, 1), RT_SUCCESS);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 5; x++) assert_true(box[y][x] == (float)((y + 2) * 1000 + x + 3));
  /* outside: one row too many, an x not a multiple of the element size */
  assert_int_equal(rt_copy_3d(&dst, &arr, W * 4, H + 1, 1), RT_ERR_INVALID_VALUE);
  RtCopySide odd = {.array = a, .x = 2};
  assert_int_equal(rt_copy_3d(&bd, &odd, 4, 1, 1), RT_ERR_INVALID_VALUE);
  RtArrayDesc back;
  assert_int_equal(rt_array_info(a, &back), RT_SUCCESS);
  assert_int_equal(back.w, W);
  assert_int_equal(back.h, H);
  assert_int_equal(back.d, 0);
  assert_int_equal(rt_array_destroy(a), RT_SUCCESS);
  assert_int_equal(rt_array_destroy(a), RT_ERR_INVALID_VALUE); /* twice */
}

/* A 3D array 9x5x3 and a 1D layered one (12 wide, 4 layers) round trip
 * with cudaMemcpy3D's slices. */
static void test_array_3d_and_layered(void **state) {
  RtArray *a = NULL, *l = NULL;
  RtArrayDesc d3 = {.f = S32, .w = 9, .h = 5, .d = 3};
  RtArrayDesc dl = {.f = S32, .w = 12, .h = 0, .d = 4, .flags = RT_ARRAY_LAYERED};
  assert_int_equal(rt_array_create(&d3, &a), RT_SUCCESS);
  assert_int_equal(rt_array_create(&dl, &l), RT_SUCCESS);
  static int in[3][5][9], out[3][5][9], lin[4][12], lout[4][12];
  for (int i = 0; i < 3 * 5 * 9; i++) (&in[0][0][0])[i] = i * 7 + 1;
  for (int i = 0; i < 4 * 12; i++) (&lin[0][0])[i] = -i;
  RtCopySide arr = {.array = a}, src = {.ptr = in, .pitch = 9 * 4, .height = 5},
             dst = {.ptr = out, .pitch = 9 * 4, .height = 5};
  assert_int_equal(rt_copy_3d(&arr, &src, 9 * 4, 5, 3), RT_SUCCESS);
  assert_int_equal(rt_copy_3d(&dst, &arr, 9 * 4, 5, 3), RT_SUCCESS);
  assert_memory_equal(in, out, sizeof in);
  RtCopySide la = {.array = l}, ls = {.ptr = lin, .pitch = 12 * 4, .height = 1},
             ld = {.ptr = lout, .pitch = 12 * 4, .height = 1};
  assert_int_equal(rt_copy_3d(&la, &ls, 12 * 4, 1, 4), RT_SUCCESS);
  assert_int_equal(rt_copy_3d(&ld, &la, 12 * 4, 1, 4), RT_SUCCESS);
  assert_memory_equal(lin, lout, sizeof lin);
  assert_int_equal(rt_copy_3d(&ld, &la, 12 * 4, 1, 5), RT_ERR_INVALID_VALUE); /* a fifth layer */
}

/* What cudaMalloc3DArray refuses: 3 channels, channels of different sizes,
 * a cubemap that is not square, a layered array without layers. */
static void test_array_refusals(void **state) {
  RtArray *a = NULL;
  RtArrayDesc three = {.f = {{32, 32, 32, 0}, 2}, .w = 4, .h = 4};
  RtArrayDesc mixed = {.f = {{8, 16, 0, 0}, 1}, .w = 4, .h = 4};
  RtArrayDesc cube = {.f = F32, .w = 4, .h = 5, .d = 6, .flags = RT_ARRAY_CUBEMAP};
  RtArrayDesc layers = {.f = F32, .w = 4, .h = 4, .d = 0, .flags = RT_ARRAY_LAYERED};
  assert_int_equal(rt_array_create(&three, &a), RT_ERR_INVALID_VALUE);
  assert_int_equal(rt_array_create(&mixed, &a), RT_ERR_INVALID_VALUE);
  assert_int_equal(rt_array_create(&cube, &a), RT_ERR_INVALID_VALUE);
  assert_int_equal(rt_array_create(&layers, &a), RT_ERR_INVALID_VALUE);
}

/* ---- textures read by kernels ---------------------------------------------------- */

/* fetch_layered: out[(l * 8 + y) * 16 + x] = tex2DLayered(t, x + .5, y + .5,
 * l) on a 16x8 array of 3 layers holding iota: out[i] == i. */
static void test_texture_layered_array(void **state) {
  RtFunction *f = kernel("_Z13fetch_layeredyPf");
  RtArrayDesc d = {.f = F32, .w = 16, .h = 8, .d = 3, .flags = RT_ARRAY_LAYERED};
  RtArray *a = NULL;
  assert_int_equal(rt_array_create(&d, &a), RT_SUCCESS);
  static float iota[384];
  for (int i = 0; i < 384; i++) iota[i] = (float)i;
  RtCopySide arr = {.array = a}, src = {.ptr = iota, .pitch = 64, .height = 8};
  assert_int_equal(rt_copy_3d(&arr, &src, 64, 8, 3), RT_SUCCESS);
  RtResource r = {.type = RT_RES_ARRAY, .array = a};
  RtSampler s = {.amode = {1, 1, 1}}; /* clamp, point, unnormalized */
  uint64_t tex = 0;
  assert_int_equal(rt_texture_create(&r, &s, &tex), RT_SUCCESS);
  assert_true(tex != 0);
  float *out = NULL;
  assert_int_equal(rt_malloc(384 * 4, RT_MEM_DEVICE, (void **)&out), RT_SUCCESS);
  void *args[] = {&tex, &out};
  assert_int_equal(launch(f, 1, 1, 3, 16, 8, args), RT_SUCCESS);
  for (int i = 0; i < 384; i++) assert_true(out[i] == (float)i);
  RtResource back;
  RtSampler sb;
  assert_int_equal(rt_object_desc(tex, 0, &back, &sb), RT_SUCCESS);
  assert_ptr_equal(back.array, a);
  assert_int_equal(sb.amode[0], 1);
  assert_int_equal(rt_object_desc(tex, 1, &back, NULL), RT_ERR_INVALID_VALUE); /* not a surface */
}

/* fetch1d_int: out[i] = tex1Dfetch<int>(t, x0 + i) on linear memory of 40
 * ints holding i: x0 = -8 gives i - 8 where 0 <= i - 8 < 40, else 0
 * (tex1Dfetch reads 0 out of range). */
static void test_texture_linear(void **state) {
  RtFunction *f = kernel("_Z11fetch1d_intyPii");
  int *lin = NULL, *out = NULL;
  assert_int_equal(rt_malloc(40 * 4, RT_MEM_DEVICE, (void **)&lin), RT_SUCCESS);
  assert_int_equal(rt_malloc(64 * 4, RT_MEM_DEVICE, (void **)&out), RT_SUCCESS);
  for (int i = 0; i < 40; i++) lin[i] = i;
  RtResource r = {.type = RT_RES_LINEAR, .ptr = lin, .f = S32, .bytes = 40 * 4};
  RtSampler s = {.amode = {0, 0, 0}}; /* all 0 (memset): wrap, which linear memory ignores */
  uint64_t tex = 0;
  assert_int_equal(rt_texture_create(&r, &s, &tex), RT_SUCCESS);
  int x0 = -8;
  void *args[] = {&tex, &out, &x0};
  assert_int_equal(launch(f, 1, 1, 1, 64, 1, args), RT_SUCCESS);
  for (int i = 0; i < 64; i++) assert_int_equal(out[i], i - 8 >= 0 && i - 8 < 40 ? i - 8 : 0);
  /* the texels must lie in an allocation */
  RtResource bad = r;
  bad.bytes = 41 * 4;
  assert_int_equal(rt_texture_create(&bad, &s, &tex), RT_ERR_INVALID_VALUE);
}

/* resize<float> from 64x48 to 64x48 with linear filtering and normalized
 * coordinates samples every texel at its centre (x = (i + .5) / 64 * 64 -
 * .5 = i, weight 0): out == in, from pitched memory (rows of 512 bytes). */
static void test_texture_pitch2d(void **state) {
  RtFunction *f = kernel("_Z6resizeIfEvyPT_ii");
  float *img = NULL, *out = NULL;
  assert_int_equal(rt_malloc(512 * 48, RT_MEM_DEVICE, (void **)&img), RT_SUCCESS);
  assert_int_equal(rt_malloc(64 * 48 * 4, RT_MEM_DEVICE, (void **)&out), RT_SUCCESS);
  for (int y = 0; y < 48; y++)
    for (int x = 0; x < 64; x++) img[y * 128 + x] = (float)(y * 64 + x);
  RtResource r = {.type = RT_RES_PITCH2D, .ptr = img, .f = F32, .w = 64, .h = 48, .pitch = 512};
  RtSampler s = {.amode = {1, 1, 1}, .filter = 1, .norm = 1};
  uint64_t tex = 0;
  assert_int_equal(rt_texture_create(&r, &s, &tex), RT_SUCCESS);
  int ow = 64, oh = 48;
  void *args[] = {&tex, &out, &ow, &oh};
  assert_int_equal(launch(f, 2, 2, 1, 32, 32, args), RT_SUCCESS);
  for (int i = 0; i < 64 * 48; i++) assert_true(out[i] == (float)i);
}

/* cube_faces: each thread looks at texel (x, y) of face f of a 16x16
 * cubemap holding iota: out[(f * 16 + y) * 16 + x] == that index. */
static void test_texture_cubemap(void **state) {
  RtFunction *f = kernel("_Z10cube_facesyPfi");
  RtArrayDesc d = {.f = F32, .w = 16, .h = 16, .d = 6, .flags = RT_ARRAY_CUBEMAP};
  RtArray *a = NULL;
  assert_int_equal(rt_array_create(&d, &a), RT_SUCCESS);
  static float iota[1536];
  for (int i = 0; i < 1536; i++) iota[i] = (float)i;
  RtCopySide arr = {.array = a}, src = {.ptr = iota, .pitch = 64, .height = 16};
  assert_int_equal(rt_copy_3d(&arr, &src, 64, 16, 6), RT_SUCCESS);
  RtResource r = {.type = RT_RES_ARRAY, .array = a};
  RtSampler s = {.amode = {0, 0, 0}};
  uint64_t tex = 0;
  assert_int_equal(rt_texture_create(&r, &s, &tex), RT_SUCCESS);
  float *out = NULL;
  assert_int_equal(rt_malloc(1536 * 4, RT_MEM_DEVICE, (void **)&out), RT_SUCCESS);
  int w = 16;
  void *args[] = {&tex, &out, &w};
  assert_int_equal(launch(f, 16, 6, 1, 16, 1, args), RT_SUCCESS);
  for (int i = 0; i < 1536; i++) assert_true(out[i] == (float)i);
}

/* surf_zero: each of 64 threads reads element i of a 48-element surface
 * (0 past the end) and writes it + 1000 (dropped past the end): element i
 * becomes i + 1000. */
static void test_surface(void **state) {
  RtFunction *f = kernel("_Z9surf_zeroy");
  RtArrayDesc d = {.f = U32, .w = 48, .flags = RT_ARRAY_SURFACE};
  RtArray *a = NULL;
  assert_int_equal(rt_array_create(&d, &a), RT_SUCCESS);
  static uint32_t in[48], out[48];
  for (int i = 0; i < 48; i++) in[i] = (uint32_t)i;
  RtCopySide arr = {.array = a}, src = {.ptr = in, .pitch = sizeof in, .height = 1},
             dst = {.ptr = out, .pitch = sizeof out, .height = 1};
  assert_int_equal(rt_copy_3d(&arr, &src, sizeof in, 1, 1), RT_SUCCESS);
  RtResource r = {.type = RT_RES_ARRAY, .array = a};
  uint64_t surf = 0;
  assert_int_equal(rt_surface_create(&r, &surf), RT_SUCCESS);
  void *args[] = {&surf};
  assert_int_equal(launch(f, 1, 1, 1, 64, 1, args), RT_SUCCESS);
  assert_int_equal(rt_copy_3d(&dst, &arr, sizeof out, 1, 1), RT_SUCCESS);
  for (int i = 0; i < 48; i++) assert_int_equal(out[i], i + 1000);
  /* an array without cudaArraySurfaceLoadStore makes no surface */
  RtArrayDesc plain = {.f = U32, .w = 48};
  RtArray *p = NULL;
  assert_int_equal(rt_array_create(&plain, &p), RT_SUCCESS);
  RtResource rp = {.type = RT_RES_ARRAY, .array = p};
  assert_int_equal(rt_surface_create(&rp, &surf), RT_ERR_INVALID_VALUE);
}

/* What GTex cannot express is refused, naming it; a destroyed texture
 * faults when a kernel reads it (CUDA's sticky illegal address). */
static void test_texture_refusals_and_destroy(void **state) {
  RtFunction *f = kernel("_Z13fetch_layeredyPf");
  RtArrayDesc d = {.f = F32, .w = 16, .h = 8, .d = 3, .flags = RT_ARRAY_LAYERED};
  RtArray *a = NULL;
  assert_int_equal(rt_array_create(&d, &a), RT_SUCCESS);
  RtResource r = {.type = RT_RES_ARRAY, .array = a};
  uint64_t tex = 0;
  RtSampler modes = {.amode = {1, 3, 1}}; /* clamp x, border y */
  RtSampler srgb = {.amode = {1, 1, 1}, .srgb = 1};
  RtSampler border = {.amode = {3, 3, 3}, .border = {1, 0, 0, 0}};
  assert_int_equal(rt_texture_create(&r, &modes, &tex), RT_ERR_NOT_SUPPORTED);
  assert_int_equal(rt_texture_create(&r, &srgb, &tex), RT_ERR_NOT_SUPPORTED);
  assert_int_equal(rt_texture_create(&r, &border, &tex), RT_ERR_NOT_SUPPORTED);
  RtResource mip = {.type = RT_RES_MIPMAP};
  RtSampler s = {.amode = {1, 1, 1}};
  assert_int_equal(rt_texture_create(&mip, &s, &tex), RT_ERR_NOT_SUPPORTED);
  RtArrayDesc di = {.f = S32, .w = 4, .h = 4};
  RtArray *ai = NULL;
  assert_int_equal(rt_array_create(&di, &ai), RT_SUCCESS);
  RtResource ri = {.type = RT_RES_ARRAY, .array = ai};
  RtSampler lin = {.amode = {1, 1, 1}, .filter = 1}; /* linear filtering of 32-bit integers */
  assert_int_equal(rt_texture_create(&ri, &lin, &tex), RT_ERR_INVALID_VALUE);
  assert_int_equal(rt_texture_create(&r, &s, &tex), RT_SUCCESS);
  assert_int_equal(rt_object_destroy(tex, 0), RT_SUCCESS);
  assert_int_equal(rt_object_destroy(tex, 0), RT_ERR_INVALID_VALUE);
  float *out = NULL;
  assert_int_equal(rt_malloc(384 * 4, RT_MEM_DEVICE, (void **)&out), RT_SUCCESS);
  void *args[] = {&tex, &out};
  assert_int_equal(launch(f, 1, 1, 3, 16, 8, args), RT_ERR_ILLEGAL_ADDRESS);
  assert_int_equal(rt_sticky_error(), RT_ERR_ILLEGAL_ADDRESS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_array_2d_round_trip, setup, teardown),
    cmocka_unit_test_setup_teardown(test_array_3d_and_layered, setup, teardown),
    cmocka_unit_test_setup_teardown(test_array_refusals, setup, teardown),
    cmocka_unit_test_setup_teardown(test_texture_layered_array, setup, teardown),
    cmocka_unit_test_setup_teardown(test_texture_linear, setup, teardown),
    cmocka_unit_test_setup_teardown(test_texture_pitch2d, setup, teardown),
    cmocka_unit_test_setup_teardown(test_texture_cubemap, setup, teardown),
    cmocka_unit_test_setup_teardown(test_surface, setup, teardown),
    cmocka_unit_test_setup_teardown(test_texture_refusals_and_destroy, setup, teardown),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  teardown_all(NULL);
  return rc;
}
