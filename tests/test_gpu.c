/* test_gpu.c - the GPU runner.
 *
 * Without a GPU: the no-driver path and its message, the constants against
 * cuda.h (when the CUDA toolkit's header is here), the parameter buffer with
 * device pointers from a fake allocator, the statistics and the stop rule on
 * synthetic samples, the output comparison, and the runner's own PTX run in
 * the emulator.  With a GPU (libcuda.so.1 and a device): device info,
 * launches of groundtruth/ptx/seed_kernels.ptx checked against the emulator,
 * faults and JIT errors reported, timing, copy bandwidth and cuBLAS.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gpu_cmd.h"
#include "launch/launch.h"
#include "gpu/cuda_api.h"
#include "gpu/gpu.h"
#include "gpu/gpu_int.h"
#include "ptx/ptx.h"

/* ---- helpers ------------------------------------------------------------ */

static PtxModule *parse_text(const char *name, const char *text) {
  WmErr e = {0};
  PtxModule *m = ptx_parse(name, wm_xstrdup(text), &e);
  if (!m) fail_msg("%s", e.msg);
  return m;
}

static LaunchSpec spec_from(const char *line) {
  LaunchSpec *v = NULL;
  int n = 0;
  WmErr e = {0};
  if (launch_parse_file("spec", line, &v, &n, &e) || n != 1) fail_msg("bad spec %s: %s", line, e.msg);
  LaunchSpec l = v[0];
  free(v);
  return l;
}

static void set_f32(GBuf *b, uint64_t i, float v) { memcpy(b->data + 4 * i, &v, 4); }

static GBuf make_buf(PtxType t, uint64_t count, const char *name) {
  GBuf b = {0};
  snprintf(b.name, sizeof b.name, "%s", name);
  b.type = t;
  b.count = count;
  b.size = count * ptx_type_size(t);
  b.data = calloc(b.size ? b.size : 1, 1);
  return b;
}

/* ---- the driver's absence --------------------------------------------- */

static void test_no_driver_message(void **state) {
  (void)state;
  setenv("WARPMEM_LIBCUDA", "libwarpmem-no-such-cuda.so.1", 1);
  assert_string_equal(gpu_libcuda_name(), "libwarpmem-no-such-cuda.so.1");
  Gpu *g = (Gpu *)1;
  WmErr e = {0};
  assert_int_equal(gpu_open(0, &g, &e), -1);
  assert_null(g);
  assert_int_equal(e.code, WM_ENOGPU);
  /* one line: "no GPU found: <dlerror>" */
  assert_non_null(strstr(e.msg, "no GPU found: libwarpmem-no-such-cuda.so.1: cannot open shared object file"));
  assert_null(strchr(e.msg, '\n'));
  WmErr e2 = {0};
  assert_int_equal(gpu_available(&e2), 0);
  assert_int_equal(e2.code, WM_ENOGPU);
  unsetenv("WARPMEM_LIBCUDA");
  assert_string_equal(gpu_libcuda_name(), "libcuda.so.1");
}

/* A library that loads but is not the driver: the first missing entry. */
static void test_not_a_driver(void **state) {
  (void)state;
  CudaDriver cu;
  WmErr e = {0};
  assert_int_equal(gpu_driver_load("libm.so.6", &cu, &e), -1);
  assert_int_equal(e.code, WM_ENOGPU);
  assert_string_equal(e.msg, "no GPU found: libm.so.6 has no cuInit (a CUDA driver older than warpmem needs)");
}

/* The command line: exit 3 and the one-line reason. */
static void test_cli_no_gpu(void **state) {
  (void)state;
  setenv("WARPMEM_LIBCUDA", "libwarpmem-no-such-cuda.so.1", 1);
  char *out = NULL, *err = NULL;
  int rc = tu_run_cli("gpu info", &out, &err);
  assert_int_equal(rc, CLI_EXIT_NO_GPU);
  assert_non_null(strstr(err, "warpmem: no GPU found: libwarpmem-no-such-cuda.so.1: cannot open shared object file"));
  assert_string_equal(out, "");
  free(out);
  free(err);
  /* usage errors stay 2, before any GPU is looked for */
  rc = tu_run_cli("gpu run", NULL, &err);
  assert_int_equal(rc, 2);
  assert_non_null(strstr(err, "gpu run needs a FILE"));
  free(err);
  rc = tu_run_cli("gpu frobnicate", NULL, &err);
  assert_int_equal(rc, 2);
  free(err);
  unsetenv("WARPMEM_LIBCUDA");
}

/* ---- our declarations against the CUDA toolkit's headers --------------- */

/* The value after "NAME =" (or "NAME=", or "#define NAME") in text, as a
 * whole word; -1 if absent. */
static long header_value(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
    if (p > text && (p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'Z'))) continue;
    const char *q = p + n;
    int defined = p - text >= 8 && !strncmp(p - 8, "#define ", 8);
    if (!defined && *q != ' ' && *q != '\t' && *q != '=') continue;
    while (*q == ' ' || *q == '\t') q++;
    if (!defined && *q != '=') continue;
    if (!defined) q++;
    char *end;
    long v = strtol(q, &end, 0);
    if (end != q) return v;
  }
  return -1;
}

/* Every "#define FIELD<blank>" line of the header names SYMBOL. */
static void check_define(const char *text, const char *field, const char *sym) {
  char want[128];
  snprintf(want, sizeof want, "#define %s ", field);
  for (const char *p = strstr(text, want); p; p = strstr(p + 1, want)) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
    if (!strstr(line, sym)) fail_msg("cuda.h: '%s' does not name %s", line, sym);
  }
}

static void test_constants_match_cuda_h(void **state) {
  (void)state;
  const char *dir = getenv("CUDA_HOME") && *getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda";
  char path[2][512];
  snprintf(path[0], sizeof path[0], "%s/include/cuda.h", dir);
  snprintf(path[1], sizeof path[1], "%s/include/cublas_api.h", dir);
  if (access(path[0], R_OK) != 0) {
    print_message("skipped: no %s (the CUDA toolkit is not installed here)\n", path[0]);
    skip();
  }
  char *cuda_h = wm_read_file(path[0], NULL, NULL);
  char *cublas_h = access(path[1], R_OK) == 0 ? wm_read_file(path[1], NULL, NULL) : NULL;
  assert_non_null(cuda_h);
  int checked = 0;
#define X(name, value, header)                                                          \
  {                                                                                     \
    const char *text = !strcmp(header, "cuda.h") ? cuda_h : cublas_h;                   \
    if (text) {                                                                         \
      long v = header_value(text, #name);                                               \
      if (v != (long)(value)) fail_msg("%s: %s is %ld there, %d here", header, #name, v, (int)(value)); \
      checked++;                                                                        \
    }                                                                                   \
  }
  CUDA_CONSTANTS(X)
#undef X
  /* the versioned symbols are the ones cuda.h's macros select */
#define X(field, sym, alt, params) check_define(cuda_h, #field, sym);
  CUDA_DRIVER_FUNCS(X)
#undef X
  if (cublas_h) {
#define X(field, sym, alt, params) assert_non_null(strstr(cublas_h, sym "("));
    CUBLAS_FUNCS(X)
#undef X
  }
  assert_true(checked >= 30);
  free(cuda_h);
  free(cublas_h);
}

/* ---- parameter buffers with device pointers ---------------------------- */

static const char *params_ptx =
  ".version 7.0\n.target sm_70\n.address_size 64\n"
  ".visible .entry mixed(.param .u64 mixed_a, .param .u32 mixed_n, .param .u64 mixed_b,\n"
  "                      .param .f64 mixed_x, .param .u8 mixed_c)\n"
  "{\n  ret;\n}\n";

static void test_params_for_device(void **state) {
  (void)state;
  PtxModule *m = parse_text("params.ptx", params_ptx);
  WmErr e = {0};
  const PtxKernel *k = ptx_find_kernel(m, "mixed", &e);
  assert_non_null(k);
  LaunchSpec l = spec_from("//@ mixed grid=1 block=32 args=buf:f32:100,u32:7,buf:i32:3:iota,f64:2.5,u8:9\n");
  GlobalMem g;
  gmem_init(&g, 1 << 20);
  uint8_t params[64] = {0};
  assert_int_equal(launch_bind(k, &l, &g, params, INIT_RAND, 1, &e), 0);
  assert_int_equal(g.n, 2);
  /* a fake allocator's addresses: nothing like the emulator's */
  uint64_t fake[2] = {0x7f0000200000ull, 0x7f0000a00400ull};
  uint8_t before[64];
  memcpy(before, params, sizeof params);
  assert_int_equal(gpu_params_for_device(k, &l, &g, fake, params, &e), 0);
  uint64_t a, b;
  memcpy(&a, params + k->params[0].offset, 8);
  memcpy(&b, params + k->params[2].offset, 8);
  assert_int_equal(a, fake[0]);
  assert_int_equal(b, fake[1]);
  /* offsets from the PTX: u64 at 0, u32 at 8, u64 at 16, f64 at 24, u8 at 32 */
  assert_int_equal(k->params[2].offset, 16);
  assert_int_equal(k->params[4].offset, 32);
  /* the scalars are untouched */
  assert_memory_equal(params + 8, before + 8, 4);
  assert_memory_equal(params + 24, before + 24, 9);
  uint32_t n;
  memcpy(&n, params + 8, 4);
  assert_int_equal(n, 7);

  /* a pointer that names no buffer is an error naming the parameter */
  gmem_free(&g);
  gmem_init(&g, 1 << 20);
  assert_int_equal(launch_bind(k, &l, &g, params, INIT_RAND, 1, &e), 0); /* emulator addresses again */
  uint64_t bogus = 0x1234;
  memcpy(params + 16, &bogus, 8);
  assert_int_equal(gpu_params_for_device(k, &l, &g, fake, params, &e), -1);
  assert_non_null(strstr(e.msg, "parameter mixed_b (arg2 'buf:i32:3:iota'): address 0x1234 names no buffer"));
  gmem_free(&g);
  ptx_module_free(m);
}

/* ---- texture and surface objects (the descriptions, no driver) ------------ */

static GTex tex_of(const char *args) {
  char line[256];
  snprintf(line, sizeof line, "//@ k grid=1 block=32 args=%s\n", args);
  LaunchSpec l = spec_from(line);
  assert_int_equal(l.args[0].kind, ARG_TEX);
  return l.args[0].tex;
}

static void test_tex_descriptions(void **state) {
  (void)state;
  CudaArray3DDesc ad;
  CudaTextureDesc td;
  /* uchar4 read as normalized floats, bilinear on normalized coordinates */
  GTex t = tex_of("tex:u8x4:64x48:linear:clamp:norm:normfloat");
  assert_int_equal(gpu_tex_array_desc(&t, &ad), 0);
  assert_int_equal(ad.Width, 64);
  assert_int_equal(ad.Height, 48);
  assert_int_equal(ad.Depth, 0); /* 2D: no third extent */
  assert_int_equal(ad.Format, CU_AD_FORMAT_UNSIGNED_INT8);
  assert_int_equal(ad.NumChannels, 4);
  assert_int_equal(ad.Flags, 0);
  gpu_tex_desc(&t, &td);
  for (int i = 0; i < 3; i++) assert_int_equal(td.addressMode[i], CU_TR_ADDRESS_MODE_CLAMP);
  assert_int_equal(td.filterMode, CU_TR_FILTER_MODE_LINEAR);
  assert_int_equal(td.flags, CU_TRSF_NORMALIZED_COORDINATES);
  assert_true(td.borderColor[0] == 0.0f && td.borderColor[3] == 0.0f);
  /* integers read as elements: READ_AS_INTEGER; border; 1D */
  t = tex_of("tex:i32:40:border:iota");
  assert_int_equal(gpu_tex_array_desc(&t, &ad), 0);
  assert_int_equal(ad.Width, 40);
  assert_int_equal(ad.Height, 0);
  assert_int_equal(ad.Format, CU_AD_FORMAT_SIGNED_INT32);
  gpu_tex_desc(&t, &td);
  assert_int_equal(td.addressMode[0], CU_TR_ADDRESS_MODE_BORDER);
  assert_int_equal(td.filterMode, CU_TR_FILTER_MODE_POINT);
  assert_int_equal(td.flags, CU_TRSF_READ_AS_INTEGER);
  /* wrap and mirror keep their CUDA numbers; floats never read as integers */
  t = tex_of("tex:f16x2:8x8:wrap:norm");
  gpu_tex_desc(&t, &td);
  assert_int_equal(td.addressMode[2], CU_TR_ADDRESS_MODE_WRAP);
  assert_int_equal(td.flags, CU_TRSF_NORMALIZED_COORDINATES);
  assert_int_equal(gpu_tex_array_desc(&t, &ad), 0);
  assert_int_equal(ad.Format, CU_AD_FORMAT_HALF);
  assert_int_equal(ad.NumChannels, 2);
  /* 3D, layered 1D and 2D, and a surface */
  t = tex_of("tex:f32:32x32x16:linear:border");
  assert_int_equal(gpu_tex_array_desc(&t, &ad), 0);
  assert_true(ad.Width == 32 && ad.Height == 32 && ad.Depth == 16 && ad.Flags == 0);
  t = tex_of("tex:f32:16x4:layered");
  assert_int_equal(gpu_tex_array_desc(&t, &ad), 0);
  assert_true(ad.Width == 16 && ad.Height == 0 && ad.Depth == 4 && ad.Flags == CUDA_ARRAY3D_LAYERED);
  t = tex_of("tex:s16x4:16x8x3:layered");
  assert_int_equal(gpu_tex_array_desc(&t, &ad), 0);
  assert_true(ad.Width == 16 && ad.Height == 8 && ad.Depth == 3 && ad.Flags == CUDA_ARRAY3D_LAYERED);
  assert_int_equal(ad.Format, CU_AD_FORMAT_SIGNED_INT16);
  t = tex_of("surf:f32:128x64:iota");
  assert_int_equal(gpu_tex_array_desc(&t, &ad), 0);
  assert_int_equal(ad.Flags, CUDA_ARRAY3D_SURFACE_LDST);
  assert_int_equal(ad.Format, CU_AD_FORMAT_FLOAT);
}

/* Packing reads texel (x, y, z) from where gtex_offset puts it, row-major
 * into the dense copy, and unpacking puts it back. */
static void check_pack(const char *args) {
  GTex t = tex_of(args);
  uint64_t tiled_bytes = gtex_storage_bytes(&t);
  uint8_t *tiled = calloc(tiled_bytes, 1), *back = calloc(tiled_bytes, 1);
  uint32_t h = t.dims >= 2 ? t.h : 1, d = t.layered ? t.layers : t.dims == 3 ? t.d : 1;
  assert_int_equal(gpu_tex_dense_bytes(&t), (uint64_t)t.w * h * d * t.texel);
  uint32_t id = 1;
  for (uint32_t z = 0; z < d; z++)
    for (uint32_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < t.w; x++, id++) {
        uint64_t off = t.dims == 1 ? gtex_offset(&t, x, z, 0) : gtex_offset(&t, x, y, z);
        assert_true(off + t.texel <= tiled_bytes);
        memset(tiled + off, 0, t.texel);
        memcpy(tiled + off, &id, t.texel < 4 ? t.texel : 4);
      }
  uint8_t *dense = calloc(gpu_tex_dense_bytes(&t), 1);
  gpu_tex_pack(&t, tiled, dense, 0);
  id = 1;
  for (uint64_t i = 0; i < (uint64_t)t.w * h * d; i++, id++) {
    uint32_t got = 0;
    memcpy(&got, dense + i * t.texel, t.texel < 4 ? t.texel : 4);
    uint32_t mask = t.texel >= 4 ? 0xffffffffu : (1u << (8 * t.texel)) - 1;
    if (got != (id & mask)) fail_msg("%s: dense texel %llu is %u, want %u", args, (unsigned long long)i, got, id & mask);
  }
  gpu_tex_pack(&t, back, dense, 1);
  assert_memory_equal(back, tiled, tiled_bytes);
  free(tiled), free(back), free(dense);
}

static void test_tex_pack(void **state) {
  (void)state;
  check_pack("tex:f32:20x11");          /* rows not a whole GOB wide or tall */
  check_pack("tex:u8x2:70x9x3");        /* 3D */
  check_pack("tex:f32x4:5x6x2:layered");/* 2D layered */
  check_pack("tex:u16:33x4:layered");   /* 1D layered: the layer is gtex's y */
  check_pack("surf:i32:128x64");
}

/* A tex: argument's handle slot is not a buffer address: gpu_params_for_device
 * leaves it for gpu_tex.c and still swaps the buffers. */
static void test_params_with_texture(void **state) {
  (void)state;
  PtxModule *m = parse_text("texp.ptx", ".version 7.0\n.target sm_70\n.address_size 64\n"
                                        ".visible .entry tk(.param .u64 tk_t, .param .u64 tk_o)\n{\n  ret;\n}\n");
  WmErr e = {0};
  const PtxKernel *k = ptx_find_kernel(m, "tk", &e);
  LaunchSpec l = spec_from("//@ tk grid=1 block=32 args=tex:f32:16x16,buf:f32:256\n");
  GlobalMem g;
  gmem_init(&g, 1 << 20);
  uint8_t params[32] = {0};
  assert_int_equal(launch_bind(k, &l, &g, params, INIT_RAND, 1, &e), 0);
  uint64_t handle, out, fake[2] = {0x7f0000200000ull, 0x7f0000a00400ull};
  memcpy(&handle, params, 8);
  assert_non_null(gmem_tex(&g, handle));
  assert_int_equal(gpu_params_for_device(k, &l, &g, fake, params, &e), 0);
  uint64_t after;
  memcpy(&after, params, 8);
  memcpy(&out, params + 8, 8);
  assert_int_equal(after, handle);
  assert_int_equal(out, fake[1]); /* buffer 0 holds the texels, buffer 1 is the output */
  gmem_free(&g);
  ptx_module_free(m);
}

/* ---- statistics ---------------------------------------------------------- */

static void test_stats_median_min_noise(void **state) {
  (void)state;
  /* 1..5 ms: median 3, mean 3, sample stdev sqrt(2.5) = 1.5811 ms */
  double t[] = {5e-3, 1e-3, 4e-3, 2e-3, 3e-3};
  GpuStats s = {0};
  gpu_stats_compute(t, NULL, 5, 0.9, &s);
  assert_int_equal(s.n, 5);
  assert_int_equal(s.discarded, 0);
  assert_float_equal(s.median_s, 3e-3, 1e-15);
  assert_float_equal(s.min_s, 1e-3, 1e-15);
  assert_float_equal(s.max_s, 5e-3, 1e-15);
  assert_float_equal(s.mean_s, 3e-3, 1e-15);
  assert_float_equal(s.noise, sqrt(2.5) / 3, 1e-12);
  /* even count: the mean of the middle two; the input is not reordered */
  double u[] = {4.0, 1.0, 3.0, 2.0};
  assert_float_equal(gpu_median(u, 4), 2.5, 0);
  assert_float_equal(u[0], 4.0, 0);
  /* one sample: no noise figure */
  gpu_stats_compute(t, NULL, 1, 0.9, &s);
  assert_int_equal(s.n, 1);
  assert_float_equal(s.noise, 0, 0);
}

static void test_throttle_filter(void **state) {
  (void)state;
  /* eight samples at 1980 MHz, one at 1200 and one at 1700 (< 0.9 x 1980 =
   * 1782): those two are dropped; 1800 stays; no reading (0) stays */
  double clk[] = {1980, 1980, 1200, 1980, 1980, 1700, 1980, 1980, 1800, 1980, 1980, 0};
  double t[] = {1.0, 1.0, 9.0, 1.0, 1.0, 7.0, 1.0, 1.0, 1.1, 1.0, 1.0, 1.0};
  GpuStats s = {0};
  gpu_stats_compute(t, clk, 12, 0.9, &s);
  assert_int_equal(s.discarded, 2);
  assert_int_equal(s.n, 10);
  assert_float_equal(s.clock_mhz, 1980, 0);
  assert_float_equal(s.clock_min_mhz, 1200, 0);
  assert_float_equal(s.max_s, 1.1, 0);
  assert_float_equal(s.median_s, 1.0, 0);
  /* a stricter filter also drops 1800 */
  gpu_stats_compute(t, clk, 12, 0.95, &s);
  assert_int_equal(s.discarded, 3);
  assert_float_equal(s.max_s, 1.0, 0);
  assert_float_equal(s.noise, 0, 0);
}

static void test_stop_rule(void **state) {
  (void)state;
  GpuMeasureConfig c;
  unsetenv("WARPMEM_GPU_BUDGET");
  gpu_measure_defaults(&c);
  assert_int_equal(c.min_samples, 10);
  assert_float_equal(c.max_noise, 0.005, 0);
  assert_float_equal(c.budget_s, 0.5, 0);
  GpuStats s = {.n = 9, .noise = 0.0, .spent_s = 0.1};
  assert_int_equal(gpu_stop_rule(&c, &s, 9), GPU_STOP_CONTINUE); /* quiet but too few */
  s.n = 10;
  s.noise = 0.0049;
  assert_int_equal(gpu_stop_rule(&c, &s, 10), GPU_STOP_NOISE);
  s.noise = 0.02;
  assert_int_equal(gpu_stop_rule(&c, &s, 10), GPU_STOP_CONTINUE);
  s.spent_s = 0.5;
  assert_int_equal(gpu_stop_rule(&c, &s, 10), GPU_STOP_BUDGET);
  /* the budget waits for three kept samples, but not past four budgets */
  s = (GpuStats){.n = 2, .noise = 0.3, .spent_s = 0.9};
  assert_int_equal(gpu_stop_rule(&c, &s, 40), GPU_STOP_CONTINUE);
  s.spent_s = 2.0;
  assert_int_equal(gpu_stop_rule(&c, &s, 40), GPU_STOP_BUDGET);
  s = (GpuStats){.n = 500, .noise = 0.01, .spent_s = 0.2};
  assert_int_equal(gpu_stop_rule(&c, &s, 1000), GPU_STOP_MAX_SAMPLES);
  assert_string_equal(gpu_stop_reason_name(GPU_STOP_NOISE), "noise");
  setenv("WARPMEM_GPU_BUDGET", "2.5", 1);
  gpu_measure_defaults(&c);
  assert_float_equal(c.budget_s, 2.5, 0);
  setenv("WARPMEM_GPU_BUDGET", "fast", 1);
  gpu_measure_defaults(&c);
  assert_float_equal(c.budget_s, 0.5, 0);
  unsetenv("WARPMEM_GPU_BUDGET");
}

/* ---- comparing outputs --------------------------------------------------- */

static void test_compare_floats(void **state) {
  (void)state;
  GBuf got = make_buf(PTX_T_F32, 6, "arg0 (buf:f32:6)"), want = make_buf(PTX_T_F32, 6, "arg0 (buf:f32:6)");
  float vals[6] = {1.0f, 1000.0f, 0.0f, -3.5f, NAN, INFINITY};
  for (int i = 0; i < 6; i++) set_f32(&want, i, vals[i]), set_f32(&got, i, vals[i]);
  GpuMismatch m;
  assert_int_equal(gpu_compare_buf(&got, &want, NULL, &m), 0);
  /* within rel 1e-5: 1000 -> 1000.005 (5e-6 relative); 0 -> 5e-7 (under abs 1e-6) */
  set_f32(&got, 1, 1000.005f);
  set_f32(&got, 2, 5e-7f);
  assert_int_equal(gpu_compare_buf(&got, &want, NULL, &m), 0);
  assert_true(m.max_rel_err > 4e-6 && m.max_rel_err < 6e-6);
  /* beyond: 1 -> 1.0001 (1e-4), -inf for +inf */
  set_f32(&got, 0, 1.0001f);
  set_f32(&got, 5, -INFINITY);
  assert_int_equal(gpu_compare_buf(&got, &want, NULL, &m), 2);
  assert_int_equal(m.first, 0);
  assert_string_equal(m.got, "1.00010002");
  assert_string_equal(m.want, "1");
  /* NaN matches only NaN */
  set_f32(&got, 0, 1.0f);
  set_f32(&got, 5, INFINITY);
  set_f32(&got, 4, 0.0f);
  assert_int_equal(gpu_compare_buf(&got, &want, NULL, &m), 1);
  assert_int_equal(m.first, 4);
  assert_string_equal(m.want, "nan");
  /* a looser tolerance the caller gives */
  set_f32(&got, 4, NAN);
  set_f32(&got, 0, 1.0001f);
  GpuTolerance loose = {.rel = 1e-3, .abs = 1e-6};
  assert_int_equal(gpu_compare_buf(&got, &want, &loose, &m), 0);
  free(got.data);
  free(want.data);
}

/* Half outputs are floats too (the Triton kernels' f16 results): one ulp
 * of a sum rounded to f16 passes, a difference of 1% does not, and the
 * message prints the value, not its bits as a double. */
static void test_compare_halves(void **state) {
  (void)state;
  GBuf got = make_buf(PTX_T_F16, 3, "arg3 (buf:f16:3)"), want = make_buf(PTX_T_F16, 3, "arg3 (buf:f16:3)");
  const uint16_t w[3] = {0x3c00 /* 1 */, 0x4500 /* 5 */, 0xc248 /* -3.140625 */};
  const uint16_t g[3] = {0x3c01 /* 1 + 2^-10: an ulp */, 0x4500, 0xc248};
  memcpy(want.data, w, sizeof w);
  memcpy(got.data, g, sizeof g);
  GpuMismatch m;
  assert_int_equal(gpu_compare_buf(&got, &want, NULL, &m), 0);
  const uint16_t far[3] = {0x3c00, 0x4514 /* 5.078125: 1.6% */, 0xc248};
  memcpy(got.data, far, sizeof far);
  assert_int_equal(gpu_compare_buf(&got, &want, NULL, &m), 1);
  assert_int_equal(m.first, 1);
  assert_string_equal(m.got, "5.0781");
  assert_string_equal(m.want, "5");
  free(got.data);
  free(want.data);
}

static void test_compare_integers_and_message(void **state) {
  (void)state;
  GlobalMem gpu = {0}, emu = {0};
  GBuf bg[2] = {make_buf(PTX_T_S32, 5, "arg0 (buf:i32:5)"), make_buf(PTX_T_F32, 4, "arg1 (buf:f32:4)")};
  GBuf be[3] = {make_buf(PTX_T_S32, 5, "arg0 (buf:i32:5)"), make_buf(PTX_T_F32, 4, "arg1 (buf:f32:4)"),
                make_buf(PTX_T_U32, 1, "global g_count")};
  int32_t iv[5] = {3, -5, 7, 1 << 30, 0};
  memcpy(be[0].data, iv, sizeof iv);
  iv[1] = -6; /* off by one: integers are exact */
  iv[3] = (1 << 30) + 1;
  memcpy(bg[0].data, iv, sizeof iv);
  gpu.buf = bg, gpu.n = 2;
  emu.buf = be, emu.n = 3; /* the emulator's module .global comes after */
  LaunchSpec l = {0};
  snprintf(l.label, sizeof l.label, "madd#1");
  WmErr e = {0};
  assert_int_equal(gpu_compare_buffers(&gpu, &emu, &l, NULL, &e), -1);
  assert_string_equal(e.msg,
                      "launch madd#1: arg0 (buf:i32:5): 2 of 5 elements differ (integers: exact); "
                      "first at [1]: GPU -6, emulator -5");
  /* equal once fixed */
  memcpy(bg[0].data, be[0].data, be[0].size);
  assert_int_equal(gpu_compare_buffers(&gpu, &emu, &l, NULL, &e), 0);
  /* a float buffer out of tolerance names the tolerance and the errors */
  set_f32(&be[1], 2, 2.0f);
  set_f32(&bg[1], 2, 2.5f);
  assert_int_equal(gpu_compare_buffers(&gpu, &emu, &l, NULL, &e), -1);
  assert_non_null(strstr(e.msg, "arg1 (buf:f32:4): 1 of 4 elements differ; first at [2]: GPU 2.5, emulator 2 "
                                "(tolerance rel 1e-05 + abs 1e-06; largest error abs 0.5, rel 0.25)"));
  for (int i = 0; i < 2; i++) free(bg[i].data);
  for (int i = 0; i < 3; i++) free(be[i].data);
}

/* ---- the runner's own PTX, in the emulator ------------------------------ */

static void test_tools_ptx_in_emulator(void **state) {
  (void)state;
  PtxModule *m = parse_text("gpu_tools.ptx", gpu_tools_ptx);
  WmErr e = {0};
  assert_non_null(ptx_find_kernel(m, "wm_clock", &e));
  assert_non_null(ptx_find_kernel(m, "wm_copy4", &e));
  SimOptions o;
  sim_options_init(&o);
  o.keep_buffers = 1;
  /* 1001 16-byte words, 3 blocks of 64 threads: 5 trips of the four-word
   * loop (960 words) then the one-word tail (41 words); 4 words beyond n
   * must stay untouched */
  LaunchSpec l = spec_from("//@ wm_copy4 grid=3 block=64 args=buf:u32:4020:zero,buf:u32:4020:iota,u64:1001\n");
  SimRun run;
  if (sim_run_launch(m, &l, &o, &run, &e)) fail_msg("%s", e.msg);
  const uint32_t *dst = (const uint32_t *)run.gmem.buf[0].data, *src = (const uint32_t *)run.gmem.buf[1].data;
  for (int i = 0; i < 4004; i++) assert_int_equal(dst[i], src[i]);
  for (int i = 4004; i < 4020; i++) assert_int_equal(dst[i], 0);
  assert_int_equal(src[4019], 4019);
  sim_run_free(&run);

  /* wm_clock is only parsed: the emulator's %globaltimer is fixed for the
   * whole block, so its spin loop would never end there */
  ptx_module_free(m);
}

static void test_cublas_candidates(void **state) {
  (void)state;
  const char *names[16];
  char bufs[16][512];
  unsetenv("WARPMEM_LIBCUBLAS");
  setenv("CUDA_HOME", "/opt/cuda-x", 1);
  int n = gpu_cublas_candidates(names, 16, bufs);
  assert_int_equal(n, 9);
  assert_string_equal(names[0], "libcublas.so.13");
  assert_string_equal(names[1], "/opt/cuda-x/lib64/libcublas.so.13");
  assert_string_equal(names[2], "/usr/local/cuda/lib64/libcublas.so.13");
  assert_string_equal(names[3], "libcublas.so.12");
  assert_string_equal(names[6], "libcublas.so.11");
  setenv("WARPMEM_LIBCUBLAS", "/x/libcublas.so", 1);
  n = gpu_cublas_candidates(names, 16, bufs);
  assert_int_equal(n, 1);
  assert_string_equal(names[0], "/x/libcublas.so");
  unsetenv("WARPMEM_LIBCUBLAS");
  unsetenv("CUDA_HOME");
}

/* ---- on a GPU ------------------------------------------------------------ */

static Gpu *the_gpu;
static char no_gpu_reason[2048];

static int open_gpu(void **state) {
  (void)state;
  WmErr e = {0};
  if (gpu_open(0, &the_gpu, &e)) {
    the_gpu = NULL;
    snprintf(no_gpu_reason, sizeof no_gpu_reason, "%s", e.msg);
    if (e.code != WM_ENOGPU) fprintf(stderr, "gpu_open: %s\n", e.msg); /* a GPU that fails is not skipped */
  }
  return 0;
}

static int close_gpu(void **state) {
  (void)state;
  gpu_close(the_gpu);
  return 0;
}

#define NEED_GPU()                                                                 \
  do {                                                                             \
    if (!the_gpu) {                                                                \
      if (!strstr(no_gpu_reason, "no GPU found")) fail_msg("%s", no_gpu_reason);   \
      print_message("skipped: no GPU (%s)\n", no_gpu_reason + strlen("no GPU found: ")); \
      skip();                                                                      \
    }                                                                              \
  } while (0)

static void test_gpu_info(void **state) {
  (void)state;
  NEED_GPU();
  const GpuInfo *in = gpu_info(the_gpu);
  print_message("%s: cc %d.%d, %d SMs, %d kHz, L2 %d B\n", in->name, in->cc_major, in->cc_minor, in->sms,
                in->clock_khz, in->l2_bytes);
  assert_true(in->name[0] != '\0');
  assert_true(in->cc_major >= 7);
  assert_true(in->sms > 0);
  assert_true(in->l2_bytes >= (1 << 20));
  assert_true(in->clock_khz > 100000);
  assert_true(in->total_mem > (1ull << 30));
}

/* Runs launch `label` of seed_kernels on the GPU and in the emulator. */
static void run_and_compare(const PtxModule *m, GpuModule *gm, const LaunchSpec *l) {
  WmErr e = {0};
  const PtxKernel *k = ptx_find_kernel(m, l->name, &e);
  assert_non_null(k);
  GpuLaunch *L;
  if (gpu_launch_prepare(gm, k, l, INIT_RAND, 1, &L, &e)) fail_msg("%s", e.msg);
  if (gpu_launch_run(L, &e) || gpu_launch_download(L, &e)) fail_msg("%s", e.msg);
  SimOptions o;
  sim_options_init(&o);
  o.keep_buffers = 1;
  SimRun run;
  if (sim_run_launch(m, l, &o, &run, &e)) fail_msg("%s", e.msg);
  if (gpu_compare_buffers(gpu_launch_buffers(L), &run.gmem, l, NULL, &e)) fail_msg("%s", e.msg);
  /* and a corrupted output is caught */
  GlobalMem *host = (GlobalMem *)gpu_launch_buffers(L);
  host->buf[0].data[7] ^= 0x40; /* element 1's top byte: far out of any tolerance */
  assert_int_equal(gpu_compare_buffers(host, &run.gmem, l, NULL, &e), -1);
  assert_non_null(strstr(e.msg, "first at [1]"));
  /* in-place kernels need their inputs back: reupload gives the same bytes */
  assert_int_equal(gpu_launch_reupload(L, &e), 0);
  assert_int_equal(gpu_launch_download(L, &e), 0);
  GlobalMem fresh;
  gmem_init(&fresh, GMEM_DEFAULT_LIMIT);
  uint8_t params[256];
  assert_int_equal(launch_bind(k, l, &fresh, params, INIT_RAND, 1, &e), 0);
  for (int b = 0; b < fresh.n; b++) assert_memory_equal(host->buf[b].data, fresh.buf[b].data, fresh.buf[b].size);
  gmem_free(&fresh);
  sim_run_free(&run);
  gpu_launch_free(L);
}

static void test_gpu_launches_match_emulator(void **state) {
  (void)state;
  NEED_GPU();
  WmErr e = {0};
  PtxModule *m = ptx_load(tu_truth("ptx/seed_kernels.ptx"), arch_ptx_target(), &e);
  if (!m) fail_msg("%s", e.msg);
  GpuModule *gm;
  if (gpu_module_load(the_gpu, m, &gm, &e)) fail_msg("%s", e.msg);
  char *text = wm_read_file(tu_truth("seed_kernels.cu"), NULL, &e);
  LaunchSpec *ls;
  int n;
  assert_int_equal(launch_parse_file("seed_kernels.cu", text, &ls, &n, &e), 0);
  const char *which[] = {"copy_k", "tr_naive", "tr_smem_pad", "madd_c", "offset_copy#1", "setRowReadColDynIpad"};
  for (size_t w = 0; w < sizeof which / sizeof which[0]; w++)
    for (int i = 0; i < n; i++)
      if (!strcmp(ls[i].label, which[w])) run_and_compare(m, gm, &ls[i]);
  free(ls);
  free(text);
  gpu_module_free(gm);
  ptx_module_free(m);
}

/* Texture and surface objects: every launch of tests/corpus/tex_sampling.cu
 * (point, linear, normalized, wrap, mirror, border, 1D/2D/3D, layered,
 * uchar4 as normalized floats, a gather, surfaces written and read back)
 * on the GPU, compared with the emulator, whose fetches
 * tests/test_corpus_tex.c checks against the programming guide's formulas. */
static void test_gpu_textures_match_emulator(void **state) {
  (void)state;
  NEED_GPU();
  WmErr e = {0};
  PtxModule *m = ptx_load(tu_corpus("tex_sampling.ptx"), arch_ptx_target(), &e);
  if (!m) fail_msg("%s", e.msg);
  GpuModule *gm;
  if (gpu_module_load(the_gpu, m, &gm, &e)) fail_msg("%s", e.msg);
  char *text = wm_read_file(tu_corpus("../tex_sampling.cu"), NULL, &e);
  if (!text) fail_msg("%s", e.msg);
  LaunchSpec *ls;
  int n;
  assert_int_equal(launch_parse_file("tex_sampling.cu", text, &ls, &n, &e), 0);
  assert_true(n >= 10);
  for (int i = 0; i < n; i++) {
    const PtxKernel *k = ptx_find_kernel(m, ls[i].name, &e);
    assert_non_null(k);
    GpuLaunch *L;
    if (gpu_launch_prepare(gm, k, &ls[i], INIT_RAND, 1, &L, &e) || gpu_launch_run(L, &e) ||
        gpu_launch_download(L, &e))
      fail_msg("%s", e.msg);
    SimOptions o;
    sim_options_init(&o);
    o.keep_buffers = 1;
    SimRun run;
    if (sim_run_launch(m, &ls[i], &o, &run, &e)) fail_msg("%s", e.msg);
    if (gpu_compare_buffers(gpu_launch_buffers(L), &run.gmem, &ls[i], NULL, &e)) fail_msg("%s", e.msg);
    /* a surface's array comes back: surf_rmw's texels are no longer the
     * iota it started from (the comparison above says they are right) */
    if (!strcmp(ls[i].label, "surf_rmw")) {
      GlobalMem fresh;
      gmem_init(&fresh, GMEM_DEFAULT_LIMIT);
      uint8_t *params = calloc(k->param_size + 8, 1);
      assert_int_equal(launch_bind(k, &ls[i], &fresh, params, INIT_RAND, 1, &e), 0);
      const GBuf *got = &gpu_launch_buffers(L)->buf[0];
      assert_int_equal(got->size, fresh.buf[0].size);
      assert_true(memcmp(got->data, fresh.buf[0].data, got->size) != 0);
      free(params);
      gmem_free(&fresh);
    }
    sim_run_free(&run);
    gpu_launch_free(L);
  }
  free(ls);
  free(text);
  gpu_module_free(gm);
  ptx_module_free(m);
}

/* A .target the device cannot run: the JIT's own words come back. */
static void test_gpu_jit_error_log(void **state) {
  (void)state;
  NEED_GPU();
  PtxModule *m = parse_text("future.ptx", ".version 7.0\n.target sm_99\n.address_size 64\n"
                                          ".visible .entry k()\n{\n  ret;\n}\n");
  GpuModule *gm = NULL;
  WmErr e = {0};
  assert_int_equal(gpu_module_load(the_gpu, m, &gm, &e), -1);
  print_message("%s\n", e.msg);
  assert_int_equal(e.code, WM_EGPU);
  assert_non_null(strstr(e.msg, "cuModuleLoadDataEx failed for module future.ptx"));
  assert_non_null(strstr(e.msg, "JIT log: "));
  ptx_module_free(m);
}

static void test_gpu_measure(void **state) {
  (void)state;
  NEED_GPU();
  WmErr e = {0};
  PtxModule *m = ptx_load(tu_truth("ptx/seed_kernels.ptx"), arch_ptx_target(), &e);
  GpuModule *gm;
  if (!m || gpu_module_load(the_gpu, m, &gm, &e)) fail_msg("%s", e.msg);
  LaunchSpec l = spec_from("//@ copy_k grid=65536 block=256 args=buf:f32:16777216,buf:f32:16777216,i32:16777216\n");
  GpuLaunch *L;
  if (gpu_launch_prepare(gm, ptx_find_kernel(m, "copy_k", &e), &l, INIT_ZERO, 1, &L, &e)) fail_msg("%s", e.msg);
  GpuKernelAttrs a;
  assert_int_equal(gpu_launch_attrs(L, &a, &e), 0);
  assert_true(a.regs > 0 && a.regs < 64);
  GpuMeasureConfig c;
  gpu_measure_defaults(&c);
  c.budget_s = 0.2;
  GpuTiming t;
  double bytes = 2.0 * 16777216 * 4;
  if (gpu_launch_measure(L, &c, bytes, 0, &t, &e)) fail_msg("%s", e.msg);
  print_message("copy_k 64 MiB: cold %.4f ms (%.0f GB/s, noise %.2f%%, n %d, %d dropped, %.0f MHz), "
                "hot %.4f ms (batch %d, noise %.2f%%, n %d)\n",
                t.cold.median_s * 1e3, t.cold_gbps, 100 * t.cold.noise, t.cold.n, t.cold.discarded,
                t.cold.clock_mhz, t.hot.median_s * 1e3, t.hot.batch, 100 * t.hot.noise, t.hot.n);
  assert_true(t.cold.n >= 3 && t.hot.n >= 3);
  assert_true(t.cold.min_s > 0 && t.cold.min_s <= t.cold.median_s && t.cold.median_s <= t.cold.max_s);
  assert_true(t.hot.batch >= 1);
  /* 128 MiB moved: beyond 100 GB/s and below any HBM's 10 TB/s */
  assert_true(t.cold_gbps > 100 && t.cold_gbps < 10000);
  /* the probe reads a plausible clock, at most a little over the maximum */
  assert_true(t.cold.clock_mhz > 100 && t.cold.clock_mhz < 1.1 * t.max_clock_mhz);
  gpu_launch_free(L);
  gpu_module_free(gm);
  ptx_module_free(m);
}

static void test_gpu_copy_bandwidth(void **state) {
  (void)state;
  NEED_GPU();
  GpuMeasureConfig c;
  gpu_measure_defaults(&c);
  c.budget_s = 0.2;
  GpuBandwidth b;
  WmErr e = {0};
  if (gpu_copy_bandwidth(the_gpu, 256ull << 20, &c, &b, &e)) fail_msg("%s", e.msg);
  print_message("copy 256 MiB: d2d %.0f GB/s, float4 kernel %.0f GB/s\n", b.d2d_gbps, b.vec4_gbps);
  assert_float_equal(b.bytes, 512.0 * 1048576, 0);
  assert_true(b.d2d_gbps > 200 && b.d2d_gbps < 10000);
  assert_true(b.vec4_gbps > 200 && b.vec4_gbps < 10000);
}

static void test_gpu_cublas(void **state) {
  (void)state;
  NEED_GPU();
  GpuMeasureConfig c;
  gpu_measure_defaults(&c);
  c.budget_s = 0.2;
  GpuTiming t;
  WmErr e = {0};
  if (gpu_cublas_sgemm_time(the_gpu, 1024, &c, &t, &e)) {
    if (e.code == WM_ENOGPU) {
      print_message("skipped: %s\n", e.msg);
      skip();
    }
    fail_msg("%s", e.msg);
  }
  print_message("cuBLAS SGEMM 1024: %.4f ms hot, %.0f GFLOP/s\n", t.hot.median_s * 1e3, t.hot_gflops);
  assert_float_equal(t.flops, 2.0 * 1024 * 1024 * 1024, 0);
  assert_true(t.hot_gflops > 500);
}

/* Last: an illegal address poisons the context for the rest of the process. */
static void test_gpu_fault_reported(void **state) {
  (void)state;
  NEED_GPU();
  PtxModule *m = parse_text("fault.ptx", ".version 7.0\n.target sm_70\n.address_size 64\n"
                                         ".visible .entry wild(.param .u64 wild_p)\n{\n"
                                         "  .reg .b64 %rd<3>;\n  .reg .b32 %r<2>;\n"
                                         "  mov.u64 %rd1, 0x10;\n  mov.u32 %r1, 7;\n"
                                         "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n");
  WmErr e = {0};
  GpuModule *gm;
  if (gpu_module_load(the_gpu, m, &gm, &e)) fail_msg("%s", e.msg);
  LaunchSpec l = spec_from("//@ wild grid=1 block=32 args=buf:u32:32\n");
  GpuLaunch *L;
  if (gpu_launch_prepare(gm, ptx_find_kernel(m, "wild", &e), &l, INIT_ZERO, 1, &L, &e)) fail_msg("%s", e.msg);
  assert_int_equal(gpu_launch_run(L, &e), -1);
  print_message("%s\n", e.msg);
  assert_int_equal(e.code, WM_EGPU);
  assert_non_null(strstr(e.msg, "launch wild (fault.ptx:1)"));
  assert_non_null(strstr(e.msg, "CUDA_ERROR_ILLEGAL_ADDRESS"));
  gpu_launch_free(L);
  gpu_module_free(gm);
  ptx_module_free(m);
}

int main(void) {
  const struct CMUnitTest no_gpu[] = {
    cmocka_unit_test(test_no_driver_message),
    cmocka_unit_test(test_not_a_driver),
    cmocka_unit_test(test_cli_no_gpu),
    cmocka_unit_test(test_constants_match_cuda_h),
    cmocka_unit_test(test_params_for_device),
    cmocka_unit_test(test_tex_descriptions),
    cmocka_unit_test(test_tex_pack),
    cmocka_unit_test(test_params_with_texture),
    cmocka_unit_test(test_stats_median_min_noise),
    cmocka_unit_test(test_throttle_filter),
    cmocka_unit_test(test_stop_rule),
    cmocka_unit_test(test_compare_floats),
    cmocka_unit_test(test_compare_halves),
    cmocka_unit_test(test_compare_integers_and_message),
    cmocka_unit_test(test_tools_ptx_in_emulator),
    cmocka_unit_test(test_cublas_candidates),
  };
  const struct CMUnitTest on_gpu[] = {
    cmocka_unit_test(test_gpu_info),
    cmocka_unit_test(test_gpu_launches_match_emulator),
    cmocka_unit_test(test_gpu_textures_match_emulator),
    cmocka_unit_test(test_gpu_jit_error_log),
    cmocka_unit_test(test_gpu_measure),
    cmocka_unit_test(test_gpu_copy_bandwidth),
    cmocka_unit_test(test_gpu_cublas),
    cmocka_unit_test(test_gpu_fault_reported),
  };
  int failed = cmocka_run_group_tests_name("gpu (no GPU needed)", no_gpu, NULL, NULL);
  failed += cmocka_run_group_tests_name("gpu (on a GPU)", on_gpu, open_gpu, close_gpu);
  return failed;
}
