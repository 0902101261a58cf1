/* test_rt_driver.c - warpmem run's driver API (build/rt/libcuda.so.1)
 * loaded as an application loads it, without an application: the device,
 * a module from PTX, launches with kernelParams and with a packed `extra`
 * buffer, CUresult error mapping (cudaError_t numbers differ for some),
 * stubs, arrays and a texture object read by a kernel.  Skipped when the
 * library was not built (no CUDA toolkit headers). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/cuda_api.h"
#include "rt/rt_env.h"
#include "util/diag.h"
#include "testutil.h"

/* scale2: out[i] = 2 * in[i] for i < n; oob: a store 1 MiB past its pointer. */
static const char *ptx =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry scale2(.param .u64 pin, .param .u64 pout, .param .u32 pn)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .f32 %f<3>;\n  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n  ld.param.u32 %r1, [pn];\n"
  "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
  "  mad.lo.s32 %r5, %r2, %r3, %r4;\n  setp.ge.s32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
  "  mul.wide.s32 %rd3, %r5, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.f32 %f1, [%rd4];\n"
  "  add.f32 %f2, %f1, %f1;\n  add.s64 %rd5, %rd2, %rd3;\n  st.global.f32 [%rd5], %f2;\nDONE:\n  ret;\n}\n"
  ".visible .entry oob(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 7;\n  st.global.u32 [%rd1+1048576], %r1;\n  ret;\n}\n";

static void *lib;
static char report_path[64];

/* The function NAME of the library, typed as PROTO. */
#define SYM(type, name) ((type)sym(name))
static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  if (!p) fail_msg("libcuda.so.1 has no %s", name);
  return p;
}

typedef CUresult (*fn_i)(unsigned);
typedef CUresult (*fn_pi)(int *);
typedef CUresult (*fn_dev_get)(CUdevice *, int);
typedef CUresult (*fn_attr)(int *, int, CUdevice);
typedef CUresult (*fn_name)(char *, int, CUdevice);
typedef CUresult (*fn_retain)(CUcontext *, CUdevice);
typedef CUresult (*fn_ctx)(CUcontext);
typedef CUresult (*fn_void)(void);
typedef CUresult (*fn_load)(CUmodule *, const void *);
typedef CUresult (*fn_getf)(CUfunction *, CUmodule, const char *);
typedef CUresult (*fn_alloc)(CUdeviceptr *, size_t);
typedef CUresult (*fn_free)(CUdeviceptr);
typedef CUresult (*fn_htod)(CUdeviceptr, const void *, size_t);
typedef CUresult (*fn_dtoh)(void *, CUdeviceptr, size_t);
typedef CUresult (*fn_launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
typedef CUresult (*fn_errstr)(CUresult, const char **);
typedef CUresult (*fn_arr3d)(CUarray *, const CudaArray3DDesc *);
typedef CUresult (*fn_cp3d)(const CudaMemcpy3D *);
typedef CUresult (*fn_texobj)(CUtexObject *, const CudaResourceDesc *, const CudaTextureDesc *, const void *);
typedef CUresult (*fn_graph)(void **, unsigned);

static int setup_all(void **state) {
#ifdef WM_LIBCUDA
  snprintf(report_path, sizeof report_path, "/tmp/wm_test_rt_driver_%d.txt", (int)getpid());
  setenv(RT_ENV_REPORT, report_path, 1);
  setenv(RT_ENV_PROGRESS, "0", 1);
  lib = dlopen(WM_LIBCUDA, RTLD_NOW | RTLD_LOCAL);
  if (!lib) fprintf(stderr, "test_rt_driver: %s\n", dlerror());
#endif
  return 0;
}

static int teardown_all(void **state) {
  unlink(report_path);
  return 0; /* the library stays loaded: its destructor writes the reports at exit */
}

#define NEED_LIB()                                                                      \
  do {                                                                                  \
    if (!lib) {                                                                         \
      fprintf(stderr, "skipped: build/rt/libcuda.so.1 was not built (no CUDA headers)\n"); \
      skip();                                                                           \
    }                                                                                   \
  } while (0)

/* The device as the preset: one, cc 9.0 for the default h200. */
static void test_device(void **state) {
  NEED_LIB();
  assert_int_equal(SYM(fn_i, "cuInit")(0), CUDA_SUCCESS);
  int n = 0, v = 0;
  assert_int_equal(SYM(fn_pi, "cuDeviceGetCount")(&n), CUDA_SUCCESS);
  assert_int_equal(n, 1);
  assert_int_equal(SYM(fn_pi, "cuDriverGetVersion")(&v), CUDA_SUCCESS);
  assert_true(v >= 12000);
  CUdevice d = -1;
  assert_int_equal(SYM(fn_dev_get, "cuDeviceGet")(&d, 0), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_dev_get, "cuDeviceGet")(&d, 1), 101); /* CUDA_ERROR_INVALID_DEVICE */
  assert_int_equal(SYM(fn_attr, "cuDeviceGetAttribute")(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0),
                   CUDA_SUCCESS);
  assert_int_equal(v, 9);
  assert_int_equal(SYM(fn_attr, "cuDeviceGetAttribute")(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0), 0);
  assert_int_equal(v, 132); /* H200 SXM */
  /* what the lent H200 answered (docs/results/h200-2026-12-03-apps/device-attrs.txt),
   * but for capabilities warpmem run lacks */
  static const struct { int id, want; } h200[] = {
    {108, 39321600},  /* MAX_PERSISTING_L2_CACHE_SIZE */
    {109, 134217728}, /* MAX_ACCESS_POLICY_WINDOW_SIZE */
    {21, 131072},     /* MAXIMUM_TEXTURE1D_WIDTH */
    {54, 2046},       /* MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS */
    {40, 3},          /* ASYNC_ENGINE_COUNT */
    {37, 6016},       /* GLOBAL_MEMORY_BUS_WIDTH */
    {115, 1},         /* MEMORY_POOLS_SUPPORTED: cudaMallocAsync runs */
    {127, 1},         /* TENSOR_MAP_ACCESS_SUPPORTED */
    {102, 0},         /* VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED: 1 on the H200, not stood in for */
    {107, 0},         /* GENERIC_COMPRESSION_SUPPORTED: the same */
    {9999, 0},        /* none: 0 */
  };
  for (size_t i = 0; i < sizeof h200 / sizeof h200[0]; i++) {
    assert_int_equal(SYM(fn_attr, "cuDeviceGetAttribute")(&v, h200[i].id, 0), 0);
    if (v != h200[i].want) fail_msg("attribute %d: %d, not %d", h200[i].id, v, h200[i].want);
  }
  char name[128];
  assert_int_equal(SYM(fn_name, "cuDeviceGetName")(name, sizeof name, 0), CUDA_SUCCESS);
  assert_non_null(strstr(name, "warpmem"));
  CUcontext c = NULL, cur = NULL;
  assert_int_equal(SYM(fn_retain, "cuDevicePrimaryCtxRetain")(&c, 0), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_ctx, "cuCtxSetCurrent")(c), CUDA_SUCCESS);
  assert_int_equal(((CUresult(*)(CUcontext *))sym("cuCtxGetCurrent"))(&cur), CUDA_SUCCESS);
  assert_ptr_equal(cur, c);
}

/* scale2 on 1000 floats, once with kernelParams and once with a packed
 * buffer whose C struct ends in 4 bytes of padding. */
static void test_module_and_launch(void **state) {
  NEED_LIB();
  CUmodule m = NULL;
  CUfunction f = NULL;
  assert_int_equal(SYM(fn_load, "cuModuleLoadData")(&m, ptx), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_getf, "cuModuleGetFunction")(&f, m, "scale2"), CUDA_SUCCESS);
  enum { N = 1000 };
  static float in[N], out[N];
  for (int i = 0; i < N; i++) in[i] = (float)i;
  CUdeviceptr din = 0, dout = 0;
  assert_int_equal(SYM(fn_alloc, "cuMemAlloc_v2")(&din, sizeof in), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_alloc, "cuMemAlloc_v2")(&dout, sizeof out), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_htod, "cuMemcpyHtoD_v2")(din, in, sizeof in), CUDA_SUCCESS);
  unsigned n = N;
  void *params[] = {&din, &dout, &n};
  fn_launch launch = SYM(fn_launch, "cuLaunchKernel");
  assert_int_equal(launch(f, 4, 1, 1, 256, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_dtoh, "cuMemcpyDtoH_v2")(out, dout, sizeof out), CUDA_SUCCESS);
  for (int i = 0; i < N; i++) assert_true(out[i] == 2.0f * (float)i);
  struct {
    CUdeviceptr a, b;
    unsigned n;
  } packed = {dout, din, N}; /* now in = 2 * out */
  size_t size = sizeof packed;
  void *extra[] = {(void *)1, &packed, (void *)2, &size, (void *)0}; /* BUFFER_POINTER, BUFFER_SIZE, END */
  assert_int_equal(launch(f, 4, 1, 1, 256, 1, 1, 0, NULL, NULL, extra), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_void, "cuCtxSynchronize")(), CUDA_SUCCESS);
  float *back = (float *)(uintptr_t)din; /* unified: a device pointer is a host pointer */
  for (int i = 0; i < N; i++) assert_true(back[i] == 4.0f * (float)i);
  assert_int_equal(SYM(fn_free, "cuMemFree_v2")(din), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_free, "cuMemFree_v2")(din), CUDA_ERROR_INVALID_VALUE); /* twice */
}

/* CUresult numbers where cudaError_t's differ, and the texts. */
static void test_errors(void **state) {
  NEED_LIB();
  CUmodule m = NULL;
  CUfunction f = NULL;
  fn_load load = SYM(fn_load, "cuModuleLoadData");
  assert_int_equal(load(&m, ptx), CUDA_SUCCESS);
  /* cudaErrorSymbolNotFound is 500 too; cudaErrorInvalidDeviceFunction (98) is INVALID_HANDLE (400) */
  assert_int_equal(SYM(fn_getf, "cuModuleGetFunction")(&f, m, "nope"), CUDA_ERROR_NOT_FOUND);
  CUmodule bad = NULL;
  static const char cubin[64] = "\177ELF\2\1\1";
  assert_int_equal(load(&bad, cubin), 200);                       /* CUDA_ERROR_INVALID_IMAGE */
  assert_int_equal(load(&bad, ".version 8.0\nnot ptx"), CUDA_ERROR_INVALID_PTX);
  CUdeviceptr p = 0;
  assert_int_equal(SYM(fn_alloc, "cuMemAlloc_v2")(&p, (size_t)1 << 50), CUDA_ERROR_OUT_OF_MEMORY);
  assert_int_equal(SYM(fn_getf, "cuModuleGetFunction")(&f, m, "scale2"), CUDA_SUCCESS);
  void *params[] = {&p, &p, &p};
  /* cudaErrorInvalidConfiguration (9) is CUDA_ERROR_INVALID_VALUE for the driver */
  assert_int_equal(SYM(fn_launch, "cuLaunchKernel")(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL),
                   CUDA_ERROR_INVALID_VALUE);
  void *g = NULL; /* a stub: not supported, said once on stderr */
  assert_int_equal(SYM(fn_graph, "cuGraphCreate")(&g, 0), 801);
  const char *s = NULL;
  fn_errstr name = SYM(fn_errstr, "cuGetErrorName"), text = SYM(fn_errstr, "cuGetErrorString");
  assert_int_equal(name(CUDA_ERROR_ILLEGAL_ADDRESS, &s), CUDA_SUCCESS);
  assert_string_equal(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
  assert_int_equal(text(CUDA_ERROR_OUT_OF_MEMORY, &s), CUDA_SUCCESS);
  assert_string_equal(s, "out of memory");
  assert_int_equal(name(12345, &s), CUDA_ERROR_INVALID_VALUE);
}

/* fetch_layered of tex_sampling.cu on a 16x8 float array of 3 layers
 * filled with iota by cuMemcpy3D: out[i] == i. */
static void test_texture(void **state) {
  NEED_LIB();
  WmErr e = {0};
  size_t len;
  char *text = wm_read_file(tu_corpus("tex_sampling.ptx"), &len, &e);
  assert_non_null(text);
  CUmodule m = NULL;
  CUfunction f = NULL;
  assert_int_equal(SYM(fn_load, "cuModuleLoadData")(&m, text), CUDA_SUCCESS);
  free(text);
  assert_int_equal(SYM(fn_getf, "cuModuleGetFunction")(&f, m, "_Z13fetch_layeredyPf"), CUDA_SUCCESS);
  CudaArray3DDesc ad = {.Width = 16, .Height = 8, .Depth = 3, .Format = CU_AD_FORMAT_FLOAT, .NumChannels = 1,
                        .Flags = CUDA_ARRAY3D_LAYERED};
  CUarray a = NULL;
  assert_int_equal(SYM(fn_arr3d, "cuArray3DCreate_v2")(&a, &ad), CUDA_SUCCESS);
  static float iota[384];
  for (int i = 0; i < 384; i++) iota[i] = (float)i;
  CudaMemcpy3D c = {.srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = iota, .srcPitch = 64, .srcHeight = 8,
                    .dstMemoryType = CU_MEMORYTYPE_ARRAY, .dstArray = a, .WidthInBytes = 64, .Height = 8, .Depth = 3};
  assert_int_equal(SYM(fn_cp3d, "cuMemcpy3D_v2")(&c), CUDA_SUCCESS);
  CudaResourceDesc rd = {.resType = CU_RESOURCE_TYPE_ARRAY};
  rd.res.array.hArray = a;
  CudaTextureDesc td = {.addressMode = {CU_TR_ADDRESS_MODE_CLAMP, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_ADDRESS_MODE_CLAMP},
                        .filterMode = CU_TR_FILTER_MODE_POINT};
  CUtexObject tex = 0;
  assert_int_equal(SYM(fn_texobj, "cuTexObjectCreate")(&tex, &rd, &td, NULL), CUDA_SUCCESS);
  CUdeviceptr out = 0;
  assert_int_equal(SYM(fn_alloc, "cuMemAlloc_v2")(&out, 384 * 4), CUDA_SUCCESS);
  void *params[] = {&tex, &out};
  assert_int_equal(SYM(fn_launch, "cuLaunchKernel")(f, 1, 1, 3, 16, 8, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
  const float *o = (const float *)(uintptr_t)out;
  for (int i = 0; i < 384; i++) assert_true(o[i] == (float)i);
}

/* CUDA 12's libraries and kernels: scale2 found through cuLibraryGetKernel
 * and launched as a CUfunction; a host function runs in stream order. */
static int host_calls;
static void on_host(void *data) { host_calls += *(int *)data; }

static void test_library_and_host_func(void **state) {
  NEED_LIB();
  typedef CUresult (*fn_libload)(void **, const void *, void *, void **, unsigned, void *, void **, unsigned);
  typedef CUresult (*fn_libkernel)(void **, void *, const char *);
  typedef CUresult (*fn_kfunc)(CUfunction *, void *);
  typedef CUresult (*fn_hostfn)(CUstream, void (*)(void *), void *);
  void *library = NULL, *kernel = NULL;
  CUfunction f = NULL;
  assert_int_equal(SYM(fn_libload, "cuLibraryLoadData")(&library, ptx, NULL, NULL, 0, NULL, NULL, 0), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_libkernel, "cuLibraryGetKernel")(&kernel, library, "scale2"), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_kfunc, "cuKernelGetFunction")(&f, kernel), CUDA_SUCCESS);
  CUdeviceptr p = 0;
  assert_int_equal(SYM(fn_alloc, "cuMemAlloc_v2")(&p, 64 * 4), CUDA_SUCCESS);
  float *h = (float *)(uintptr_t)p;
  for (int i = 0; i < 64; i++) h[i] = (float)i;
  unsigned n = 64;
  void *params[] = {&p, &p, &n};
  assert_int_equal(SYM(fn_launch, "cuLaunchKernel")((CUfunction)kernel, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL),
                   CUDA_SUCCESS);
  for (int i = 0; i < 64; i++) assert_true(h[i] == 2.0f * (float)i);
  int add = 5;
  host_calls = 0;
  assert_int_equal(SYM(fn_hostfn, "cuLaunchHostFunc")(NULL, on_host, &add), CUDA_SUCCESS);
  assert_int_equal(host_calls, 5);
}

/* A fault: CUDA_ERROR_ILLEGAL_ADDRESS (700, as cudaErrorIllegalAddress),
 * sticky: cuCtxSynchronize returns it too.  Last: the context stays faulted. */
static void test_fault_sticky(void **state) {
  NEED_LIB();
  CUmodule m = NULL;
  CUfunction f = NULL;
  assert_int_equal(SYM(fn_load, "cuModuleLoadData")(&m, ptx), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_getf, "cuModuleGetFunction")(&f, m, "oob"), CUDA_SUCCESS);
  CUdeviceptr p = 0;
  assert_int_equal(SYM(fn_alloc, "cuMemAlloc_v2")(&p, 256), CUDA_SUCCESS);
  void *params[] = {&p};
  assert_int_equal(SYM(fn_launch, "cuLaunchKernel")(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL),
                   CUDA_ERROR_ILLEGAL_ADDRESS);
  assert_int_equal(SYM(fn_void, "cuCtxSynchronize")(), CUDA_ERROR_ILLEGAL_ADDRESS);
}

/* cuGetExportTable, as nvcc's static runtime asks it (the app_*_static
 * tests run that runtime): each table starts with its size, the runtime's
 * interface loads a fat binary's module and gives the primary context,
 * context-local storage keeps values by key, the integrity check answers
 * the fixed values of versions ending in 0 or 1, and an unknown table is
 * refused. */
typedef struct { unsigned char bytes[16]; } Uuid;
typedef CUresult (*fn_export)(const void **, const Uuid *);
enum { ERR_INVALID_HANDLE = 400, ERR_NOT_SUPPORTED = 801 }; /* cuda.h's CUresult numbers */
static void test_export_tables(void **state) {
  NEED_LIB();
  fn_export get = SYM(fn_export, "cuGetExportTable");
  static const Uuid cudart = {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd,
                                 0x9d, 0xf9}},
                      cls = {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8,
                              0x95, 0x93}},
                      integrity = {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c,
                                    0x66, 0xe1, 0xf2}},
                      unknown = {{1, 2, 3}};
  void *const *t = NULL;
  assert_int_equal(get((const void **)&t, &cudart), CUDA_SUCCESS);
  assert_true((uintptr_t)t[0] >= 13 * sizeof(void *));
  CUcontext ctx = NULL;
  assert_int_equal(((CUresult(*)(CUcontext *, CUdevice))t[2])(&ctx, 0), CUDA_SUCCESS);
  assert_non_null(ctx);
  /* a fat binary wrapper (magic, version, the fat binary) holding PTX */
  size_t len = 0;
  WmErr e = {0};
  char *fb = wm_read_file(tu_data("fatbin/add_none.fatbin"), &len, &e);
  assert_non_null(fb);
  struct { uint32_t magic, version; const void *data, *unused; } wrapper = {0x466243b1, 1, fb, NULL};
  CUmodule m = NULL;
  assert_int_equal(((CUresult(*)(CUmodule *, const void *))t[1])(&m, &wrapper), CUDA_SUCCESS);
  assert_non_null(m);
  free(fb);

  void *const *c = NULL;
  assert_int_equal(get((const void **)&c, &cls), CUDA_SUCCESS);
  typedef CUresult (*put_fn)(CUcontext, void *, void *, void *);
  typedef CUresult (*get_fn)(void **, CUcontext, void *);
  int key1, key2, v1, v2;
  void *got = NULL;
  assert_int_equal(((get_fn)c[2])(&got, ctx, &key1), ERR_INVALID_HANDLE);
  assert_int_equal(((put_fn)c[0])(ctx, &key1, &v1, NULL), CUDA_SUCCESS);
  assert_int_equal(((put_fn)c[0])(ctx, &key2, &v2, NULL), CUDA_SUCCESS);
  assert_int_equal(((get_fn)c[2])(&got, ctx, &key1), CUDA_SUCCESS);
  assert_ptr_equal(got, &v1);
  assert_int_equal(((CUresult(*)(CUcontext, void *))c[1])(ctx, &key1), CUDA_SUCCESS);
  assert_int_equal(((get_fn)c[2])(&got, ctx, &key1), ERR_INVALID_HANDLE);
  assert_int_equal(((get_fn)c[2])(&got, ctx, &key2), CUDA_SUCCESS);
  assert_ptr_equal(got, &v2);

  void *const *ic = NULL;
  assert_int_equal(get((const void **)&ic, &integrity), CUDA_SUCCESS);
  typedef CUresult (*check_fn)(uint32_t, uint64_t, uint64_t *);
  uint64_t h[2] = {0}, h2[2] = {0};
  assert_int_equal(((check_fn)ic[1])(10, 1700000000, h), CUDA_SUCCESS);
  assert_true(h[0] == 0x3341181C03CB675Cull && h[1] == 0x8ED383AA1F4CD1E8ull);
  /* otherwise a keyed digest of the time among the rest: another time, another answer */
  assert_int_equal(((check_fn)ic[1])(12, 1700000000, h), CUDA_SUCCESS);
  assert_int_equal(((check_fn)ic[1])(12, 1700000001, h2), CUDA_SUCCESS);
  assert_true(h[0] != h2[0] || h[1] != h2[1]);

  const void *none = &none;
  assert_int_equal(get(&none, &unknown), ERR_NOT_SUPPORTED);
  assert_null(none);
}

/* JIT linking as the CUDA samples' ptxjit does it: one PTX unit, and two
 * relocatable units (a kernel calling another unit's function) linked into
 * one image that cuModuleLoadData loads; a cubin is refused with a reason. */
typedef void *LinkState;
typedef CUresult (*fn_lcreate)(unsigned, int *, void **, LinkState *);
typedef CUresult (*fn_ladd)(LinkState, int, void *, size_t, const char *, unsigned, int *, void **);
typedef CUresult (*fn_ldone)(LinkState, void **, size_t *);
typedef CUresult (*fn_ldestroy)(LinkState);
static const char *unit_kernel =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
  ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 21;\n"
  "  { .param .b32 a; st.param.b32 [a], %r1; .param .b32 r;\n"
  "    call.uni (r), twice, (a); ld.param.b32 %r2, [r]; }\n"
  "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";
static const char *unit_func =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n  .reg .b32 %r<3>;\n"
  "  ld.param.b32 %r1, [x];\n  add.s32 %r2, %r1, %r1;\n  st.param.b32 [r], %r2;\n  ret;\n}\n";
static void test_jit_link(void **state) {
  NEED_LIB();
  fn_lcreate create = SYM(fn_lcreate, "cuLinkCreate_v2");
  fn_ladd add = SYM(fn_ladd, "cuLinkAddData_v2");
  fn_ldone done = SYM(fn_ldone, "cuLinkComplete");
  fn_ldestroy destroy = SYM(fn_ldestroy, "cuLinkDestroy");
  LinkState ls = NULL;
  void *image = NULL;
  size_t size = 0;
  CUmodule m = NULL;
  CUfunction f = NULL;
  /* one unit: scale2, linked and run */
  assert_int_equal(create(0, NULL, NULL, &ls), CUDA_SUCCESS);
  assert_int_equal(add(ls, 1 /* PTX */, (void *)ptx, strlen(ptx) + 1, "scale2.ptx", 0, NULL, NULL), CUDA_SUCCESS);
  assert_int_equal(done(ls, &image, &size), CUDA_SUCCESS);
  assert_true(size > 100);
  assert_int_equal(SYM(fn_load, "cuModuleLoadData")(&m, image), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_getf, "cuModuleGetFunction")(&f, m, "scale2"), CUDA_SUCCESS);
  assert_int_equal(destroy(ls), CUDA_SUCCESS);
  /* two units: k calls twice() of the other */
  assert_int_equal(create(0, NULL, NULL, &ls), CUDA_SUCCESS);
  assert_int_equal(add(ls, 1, (void *)unit_kernel, strlen(unit_kernel), "k.ptx", 0, NULL, NULL), CUDA_SUCCESS);
  assert_int_equal(add(ls, 1, (void *)unit_func, strlen(unit_func), "twice.ptx", 0, NULL, NULL), CUDA_SUCCESS);
  assert_int_equal(done(ls, &image, &size), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_load, "cuModuleLoadData")(&m, image), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_getf, "cuModuleGetFunction")(&f, m, "k"), CUDA_SUCCESS);
  CUdeviceptr out = 0;
  assert_int_equal(SYM(fn_alloc, "cuMemAlloc_v2")(&out, 4), CUDA_SUCCESS);
  void *params[] = {&out};
  assert_int_equal(SYM(fn_launch, "cuLaunchKernel")(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_void, "cuCtxSynchronize")(), CUDA_SUCCESS);
  assert_int_equal(*(uint32_t *)(uintptr_t)out, 42);
  assert_int_equal(destroy(ls), CUDA_SUCCESS);
  /* a cubin has no PTX to link */
  assert_int_equal(create(0, NULL, NULL, &ls), CUDA_SUCCESS);
  static const char elf[] = "\177ELF....";
  assert_int_equal(add(ls, 0 /* CUBIN */, (void *)elf, sizeof elf, "a.cubin", 0, NULL, NULL), 200 /* INVALID_IMAGE */);
  assert_int_equal(done(ls, &image, &size), CUDA_ERROR_INVALID_VALUE); /* nothing added */
  assert_int_equal(destroy(ls), CUDA_SUCCESS);
}

/* What the CUDA samples' simpleAttributes and asyncAPI ask of the driver
 * through the static runtime: a persisting-L2 limit (kept as set), a
 * stream's access-policy window read back as set,
 * the profiler's range; an unknown limit is refused. */
static void test_limits_and_stream_attrs(void **state) {
  NEED_LIB();
  typedef CUresult (*fn_setlim)(int, size_t);
  typedef CUresult (*fn_getlim)(size_t *, int);
  size_t v = 0;
  assert_int_equal(SYM(fn_setlim, "cuCtxSetLimit")(6 /* PERSISTING_L2_CACHE_SIZE */, 1 << 20), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_getlim, "cuCtxGetLimit")(&v, 6), CUDA_SUCCESS);
  assert_int_equal(v, 1 << 20);
  assert_int_equal(SYM(fn_getlim, "cuCtxGetLimit")(&v, 3 /* DEV_RUNTIME_SYNC_DEPTH */), CUDA_SUCCESS);
  assert_int_equal(v, 2);
  assert_int_equal(SYM(fn_setlim, "cuCtxSetLimit")(99, 1), 215 /* UNSUPPORTED_LIMIT */);
  typedef CUresult (*fn_sattr)(void *, int, const void *);
  typedef CUresult (*fn_gattr)(void *, int, void *);
  uint8_t set[64] = {0}, got[64];
  memset(set, 0x5a, 40); /* an access-policy window: base, bytes, ratio, hit and miss properties */
  assert_int_equal(SYM(fn_sattr, "cuStreamSetAttribute")(NULL, 1 /* ACCESS_POLICY_WINDOW */, set), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_gattr, "cuStreamGetAttribute")(NULL, 1, got), CUDA_SUCCESS);
  assert_memory_equal(got, set, sizeof set);
  assert_int_equal(SYM(fn_gattr, "cuStreamGetAttribute")((void *)8, 1, got), ERR_INVALID_HANDLE);
  assert_int_equal(SYM(fn_void, "cuProfilerStart")(), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_void, "cuProfilerStop")(), CUDA_SUCCESS);
  /* stream-ordered allocation, as streamOrderedAllocation makes it through the static runtime */
  typedef CUresult (*fn_aasync)(CUdeviceptr *, size_t, void *);
  typedef CUresult (*fn_fasync)(CUdeviceptr, void *);
  typedef CUresult (*fn_pool)(void **, CUdevice);
  CUdeviceptr p = 0;
  void *pool = NULL;
  assert_int_equal(SYM(fn_pool, "cuDeviceGetDefaultMemPool")(&pool, 0), CUDA_SUCCESS);
  assert_non_null(pool);
  assert_int_equal(SYM(fn_aasync, "cuMemAllocAsync")(&p, 4096, NULL), CUDA_SUCCESS);
  assert_true(p != 0);
  memset((void *)(uintptr_t)p, 1, 4096); /* unified: the allocation is there at once */
  assert_int_equal(SYM(fn_fasync, "cuMemFreeAsync")(p, NULL), CUDA_SUCCESS);
  assert_int_equal(SYM(fn_fasync, "cuMemFreeAsync")(p, NULL), CUDA_ERROR_INVALID_VALUE); /* twice */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_limits_and_stream_attrs),
    cmocka_unit_test(test_jit_link),
    cmocka_unit_test(test_export_tables),
    cmocka_unit_test(test_device),
    cmocka_unit_test(test_module_and_launch),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_texture),
    cmocka_unit_test(test_library_and_host_func),
    cmocka_unit_test(test_fault_sticky),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
