/* gpu_int.h - what the gpu_*.c files share: the open device, the loaded
 * libraries, error formatting and the measurement engine. */
#ifndef WM_GPU_INT_H
#define WM_GPU_INT_H

#include "gpu/cuda_api.h"
#include "gpu/gpu.h"

/* The SM-clock probe spins this long: %globaltimer ticks every microsecond
 * on recent GPUs, so 100 us reads the clock to about 1%. */
#define GPU_CLOCK_SPIN_NS 100000ull

struct Gpu {
  CudaDriver cu;
  CUdevice dev;
  CUcontext ctx;
  GpuInfo info;
  /* set up on first use */
  CUdeviceptr flush;        /* 2 x L2 bytes, rewritten before each cold sample */
  size_t flush_bytes;
  unsigned flush_value;
  CUmodule tools;           /* gpu_kernels.c's PTX: clock probe, float4 copy */
  CUfunction clock_fn, copy4_fn;
  CUdeviceptr clock_buf;    /* two probes' (cycles, ns) */
  CUevent ev[2];
  int have_events;
  CublasApi blas;
  cublasHandle_t blas_handle;
  int have_blas;
};

struct GpuModule {
  Gpu *g;
  CUmodule mod;
  const PtxModule *m;
};

typedef struct GpuTexObj GpuTexObj; /* gpu_tex.c */

struct GpuLaunch {
  GpuModule *gm;
  const PtxKernel *k;
  LaunchSpec spec;
  char where[320];          /* "launch tr_naive (groundtruth/seed_kernels.cu:36)" */
  CUfunction fn;
  GlobalMem host;           /* host copies (launch_bind's) */
  uint64_t *dptr;           /* [host.n] device addresses (CUdeviceptr) */
  uint8_t *params;          /* k->param_size bytes, device pointers in */
  void **kparams;           /* [k->nparams] pointers into params */
  InitKind dflt;
  uint64_t seed;
  GpuTexObj *tex;           /* [ntex] texture and surface objects (gpu_tex.c) */
  int ntex;
  struct GpuTmap *tmap;     /* [ntmap] tensor maps the driver encoded (gpu_tmap.c) */
  int ntmap;
};

/* "CALL failed[ for WHAT]: NAME (STRING)" as WM_EGPU; returns -1.  r must
 * not be CUDA_SUCCESS. */
int gpu_cu_fail(const Gpu *g, WmErr *e, CUresult r, const char *call, const char *what);
#define GPU_TRY(g, e, what, call, args)                                        \
  do {                                                                         \
    CUresult gpu_try_r_ = (g)->cu.call args;                                   \
    if (gpu_try_r_ != CUDA_SUCCESS) return gpu_cu_fail((g), (e), gpu_try_r_, #call, (what)); \
  } while (0)

/* gpu_tex.c: the launch's tex: and surf: arguments as CUDA arrays and
 * objects.  create_all makes them after launch_bind and writes their
 * handles over the emulator's in L->params; reupload copies the texels of
 * `fresh` (a second launch_bind) in again; download copies surfaces back
 * into the host buffers, in the emulator's layout; free_all releases them. */
int gpu_tex_create_all(GpuLaunch *L, WmErr *e);
int gpu_tex_reupload(GpuLaunch *L, const GlobalMem *fresh, WmErr *e);
int gpu_tex_download(GpuLaunch *L, WmErr *e);
void gpu_tex_free_all(GpuLaunch *L);
/* Pure, for tests: the array and texture descriptions of t (array_desc: -1
 * for a channel format CUDA has no array format for), the bytes of the
 * dense copy (rows of W texels, then rows, then slices or layers), and the
 * conversion between the emulator's tiled buffer and that copy (unpack:
 * dense -> tiled). */
int gpu_tex_array_desc(const GTex *t, CudaArray3DDesc *d);
void gpu_tex_desc(const GTex *t, CudaTextureDesc *d);
uint64_t gpu_tex_dense_bytes(const GTex *t);
void gpu_tex_pack(const GTex *t, const uint8_t *tiled, uint8_t *dense, int unpack);

/* gpu_tmap.c: the launch's tmap: arguments encoded by the driver over the
 * device buffers.  create_all (after the device addresses are in
 * L->params) reads each map launch_bind wrote (warpmem's encoding, over
 * the host copies' addresses) and has cuTensorMapEncodeTiled/Im2col make
 * the same map over the device buffer: into the 128-byte parameter, or
 * into the map's own device buffer for a pointer parameter; reupload puts
 * those back after the buffers are uploaded again; is_map says buffer b
 * holds a map (download leaves its host copy, the emulator's encoding,
 * alone); free_all releases the list. */
int gpu_tmap_create_all(GpuLaunch *L, WmErr *e);
int gpu_tmap_reupload(GpuLaunch *L, WmErr *e);
int gpu_tmap_is_map(const GpuLaunch *L, int b);
void gpu_tmap_free_all(GpuLaunch *L);

/* Loads the library `name` and resolves every CUDA_DRIVER_FUNCS symbol.
 * 0, or -1 with WM_ENOGPU and "no GPU found: <dlerror>". */
int gpu_driver_load(const char *name, CudaDriver *cu, WmErr *e);

/* Resolves the cuBLAS entry points in g->blas and creates the handle, once;
 * the libraries tried are listed in the error (WM_ENOGPU). */
int gpu_cublas_open(Gpu *g, WmErr *e);
/* The candidates in order, for tests: names[0..n) (static strings or a
 * buffer of the caller's). */
int gpu_cublas_candidates(const char **names, int max, char (*bufs)[512]);

/* gpu_kernels.c: the runner's own PTX (also parsed by the tests).  It only
 * enqueues; gpu_measure.c and gpu_bandwidth.c time. */
extern const char gpu_tools_ptx[];
/* Loads the tools module, the events and the clock buffer (once). */
int gpu_tools_init(Gpu *g, WmErr *e);
/* Enqueues the clock probe writing (cycles, ns) to clock_buf slot 0 or 1. */
int gpu_clock_probe(Gpu *g, int slot, WmErr *e);
/* Reads both probes back: the lower clock in MHz, 0 if unreadable. */
int gpu_clock_read(Gpu *g, double *mhz, WmErr *e);
/* Enqueues the L2 flush (cuMemsetD8 of 2 x L2 bytes). */
int gpu_l2_flush(Gpu *g, WmErr *e);
/* Enqueues the float4 copy of n16 16-byte words. */
int gpu_copy4_enqueue(Gpu *g, CUdeviceptr dst, CUdeviceptr src, unsigned long long n16, WmErr *e);

/* The measurement engine: work to time, enqueued on the default stream. */
typedef struct GpuWork {
  int (*enqueue)(void *ctx, WmErr *e);
  void *ctx;
} GpuWork;

/* One series of samples (cold: L2 flushed before each, batch 1; hot:
 * `batch` back-to-back runs per sample, 0 = sized from hot_batch_s).
 * Warm-up is the caller's (gpu_measure_warmup). */
int gpu_measure_series(Gpu *g, const GpuWork *w, const GpuMeasureConfig *c, int cold, int batch,
                       GpuStats *s, WmErr *e);
/* Runs the work c->warmup times (at least once) and returns the time of
 * the last run in *last_s. */
int gpu_measure_warmup(Gpu *g, const GpuWork *w, const GpuMeasureConfig *c, double *last_s, WmErr *e);
/* Warm-up, then the cold and hot series the config asks for, and the
 * rates for bytes and flops. */
int gpu_measure_work(Gpu *g, const GpuWork *w, const GpuMeasureConfig *c, double bytes, double flops,
                     GpuTiming *t, WmErr *e);

double gpu_now(void);

#endif
