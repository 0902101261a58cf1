/* gpu.h - the GPU runner: launches the PTX the simulator reads on a real GPU
 * and times it the way nvbench does.
 *
 * The CUDA driver (libcuda.so.1) and cuBLAS are loaded at run time with
 * dlopen, so warpmem builds and runs on machines without either; every entry
 * point then fails with WM_ENOGPU and a one-line reason ("no GPU found:
 * libcuda.so.1: cannot open shared object file ...").  Other CUDA failures
 * are WM_EGPU and name the driver call, the error's name and string, and the
 * kernel or launch involved.
 *
 * Typical use (the lab):
 *   Gpu *g;  gpu_open(0, &g, &e);                   // driver, device, primary context
 *   GpuModule *gm;  gpu_module_load(g, mod, &gm, &e);   // the same PtxModule the emulator runs
 *   GpuLaunch *L;  gpu_launch_prepare(gm, kernel, spec, INIT_RAND, 1, &L, &e);
 *   gpu_launch_run(L, &e);  gpu_launch_download(L, &e);  // one launch, outputs back
 *   gpu_compare_buffers(gpu_launch_buffers(L), &emu_gmem, spec, NULL, &e);
 *   gpu_launch_measure(L, &cfg, bytes, flops, &timing, &e); // cold and hot samples
 *   gpu_launch_free(L); gpu_module_free(gm); gpu_close(g);
 *
 * Measurement (gpu_measure.c): warm-up launches; COLD samples, each after the
 * L2 is flushed by a cuMemsetD8 of twice its size, each timed alone with
 * events; HOT samples, back-to-back launches timed as one batch and divided
 * by the batch size.  Around each sample a small PTX kernel reads %clock64
 * against %globaltimer for the SM clock; samples taken below
 * throttle_frac x the median clock are discarded (and counted).  Sampling
 * stops when the relative noise (stdev/mean) of the kept samples is at most
 * max_noise after min_samples, when budget_s seconds are spent, or at
 * max_samples.  Units: seconds, bytes, 1 GB = 1e9 bytes.
 *
 * Ownership: every gpu_*_free/close frees what the matching open/load/
 * prepare made; the objects must be freed child first (launch, module, gpu).
 */
#ifndef WM_GPU_H
#define WM_GPU_H

#include <stdint.h>

#include "launch/launch.h"
#include "emu/gmem.h"
#include "ptx/ptx.h"
#include "util/diag.h"

/* ---- the library names, overridable for tests and odd installs --------- */

/* $WARPMEM_LIBCUDA, else "libcuda.so.1". */
const char *gpu_libcuda_name(void);
/* cuBLAS: $WARPMEM_LIBCUBLAS (one name or path), else libcublas.so.13, .12,
 * .11 in that order, each also under $CUDA_HOME/lib64 and /usr/local/cuda/lib64. */

/* ---- the device -------------------------------------------------------- */

typedef struct GpuInfo {
  char name[256];           /* "NVIDIA H200" */
  int ordinal;
  int driver_version;       /* cuDriverGetVersion: 13000 for CUDA 13.0 */
  int cc_major, cc_minor;   /* compute capability */
  int sms;                  /* multiprocessors */
  int clock_khz;            /* CLOCK_RATE: the maximum (boost) SM clock */
  int mem_clock_khz;        /* MEMORY_CLOCK_RATE */
  int bus_width_bits;       /* GLOBAL_MEMORY_BUS_WIDTH */
  int l2_bytes;             /* L2_CACHE_SIZE */
  int smem_per_block_optin; /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
  int smem_per_sm;          /* MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
  int regs_per_sm;          /* MAX_REGISTERS_PER_MULTIPROCESSOR */
  int max_threads_per_sm;   /* MAX_THREADS_PER_MULTIPROCESSOR */
  int cooperative;          /* COOPERATIVE_LAUNCH: cuLaunchCooperativeKernel works */
  uint64_t total_mem;       /* cuDeviceTotalMem */
} GpuInfo;

typedef struct Gpu Gpu;     /* the loaded driver, the device, its primary
                               context, the L2-flush buffer, the clock kernel */

/* Loads the driver, takes device `ordinal` and makes its primary context
 * (the one cuBLAS and the CUDA runtime use) current on this thread.
 * Returns 0, or -1 with e->code WM_ENOGPU (no driver, no device: a one-line
 * reason) or WM_EGPU.  Free with gpu_close(). */
int gpu_open(int ordinal, Gpu **out, WmErr *e);
void gpu_close(Gpu *g);
const GpuInfo *gpu_info(const Gpu *g);

/* Whether a GPU can be opened, without keeping it: 1, or 0 with the reason
 * in e (for "skipped: no GPU (...)" messages). */
int gpu_available(WmErr *e);

/* ---- modules and launches --------------------------------------------- */

typedef struct GpuModule GpuModule;

/* JIT-compiles m->text (the PTX the emulator runs) for the device; a
 * failure carries the JIT's error log.  Free with gpu_module_free(). */
int gpu_module_load(Gpu *g, const PtxModule *m, GpuModule **out, WmErr *e);
void gpu_module_free(GpuModule *gm);

/* Writes `size` bytes into the module's __constant__ or .global variable
 * `name` (as the emulator's --const does). */
int gpu_module_set_global(GpuModule *gm, const char *name, const void *data, uint64_t size, WmErr *e);

/* What the driver says about a compiled kernel. */
typedef struct GpuKernelAttrs {
  int regs;              /* NUM_REGS: registers per thread */
  int static_smem;       /* SHARED_SIZE_BYTES */
  int local_bytes;       /* LOCAL_SIZE_BYTES per thread (spills, arrays) */
  int max_threads;       /* MAX_THREADS_PER_BLOCK for this kernel */
  int ptx_version, binary_version; /* 90 = 9.0 */
} GpuKernelAttrs;

typedef struct GpuLaunch GpuLaunch;

/* Binds one launch: allocates a device buffer per buffer argument, fills
 * the host copies exactly as the emulator does (launch_bind with `dflt` and
 * `seed`), uploads them, and builds the parameter buffer with the device
 * pointers.  Asks the driver for l->smem bytes of dynamic shared memory when
 * over 48 KiB.  Errors name the launch (label and //@ line).  Free with
 * gpu_launch_free(). */
int gpu_launch_prepare(GpuModule *gm, const PtxKernel *k, const LaunchSpec *l, InitKind dflt,
                       uint64_t seed, GpuLaunch **out, WmErr *e);
void gpu_launch_free(GpuLaunch *L);

/* The kernel's attributes (registers, spills, ...). */
int gpu_launch_attrs(const GpuLaunch *L, GpuKernelAttrs *a, WmErr *e);

/* cuFuncSetAttribute(PREFERRED_SHARED_MEMORY_CARVEOUT): percent of the
 * unified L1/shared storage to prefer as shared memory, 0..100, or -1 for
 * the driver's default.  A hint: the driver rounds it to a supported split. */
int gpu_launch_set_carveout(GpuLaunch *L, int percent, WmErr *e);

/* Launches once and waits.  An illegal address or other fault is reported
 * with the launch's label and line. */
int gpu_launch_run(GpuLaunch *L, WmErr *e);

/* Copies every device buffer back into the host copies. */
int gpu_launch_download(GpuLaunch *L, WmErr *e);

/* Copies the host copies' initial contents (as prepared) to the device
 * again, for kernels that update their buffers in place. */
int gpu_launch_reupload(GpuLaunch *L, WmErr *e);

/* The host copies: the initial data after prepare, the GPU's results after
 * gpu_launch_download.  Buffer i is argument buffer i in order, named as
 * the emulator's ("arg1 (buf:f32:4096)"). */
const GlobalMem *gpu_launch_buffers(const GpuLaunch *L);

/* ---- measurement ------------------------------------------------------- */

typedef struct GpuMeasureConfig {
  int warmup;            /* launches before sampling (default 3) */
  int min_samples;       /* samples before the noise rule may stop (10) */
  int max_samples;       /* hard stop (1000) */
  double max_noise;      /* stop at stdev/mean <= this (0.005) */
  double budget_s;       /* seconds of wall time per series, cold or hot (0.5) */
  double throttle_frac;  /* discard samples below this x the median SM clock (0.90) */
  double hot_batch_s;    /* a hot sample batches launches to last about this long (1e-3) */
  int cold, hot;         /* which series to take (both 1) */
  int check_clock;       /* measure the SM clock around samples (1) */
} GpuMeasureConfig;

/* The defaults above; $WARPMEM_GPU_BUDGET (seconds) overrides budget_s. */
void gpu_measure_defaults(GpuMeasureConfig *c);

typedef enum {
  GPU_STOP_CONTINUE,     /* take another sample */
  GPU_STOP_NOISE,        /* noise <= max_noise after min_samples */
  GPU_STOP_BUDGET,       /* budget_s spent (with at least 3 kept samples) */
  GPU_STOP_MAX_SAMPLES   /* max_samples taken */
} GpuStopReason;
const char *gpu_stop_reason_name(GpuStopReason r); /* "noise", "budget", ... */

typedef struct GpuStats {
  int n;                 /* samples kept */
  int discarded;         /* samples dropped as throttled */
  double median_s, min_s, max_s, mean_s;
  double noise;          /* stdev/mean of the kept samples (0 if n < 2) */
  double clock_mhz;      /* median SM clock over all samples (0: not measured) */
  double clock_min_mhz;  /* lowest SM clock seen */
  double spent_s;        /* wall time the series took */
  int batch;             /* launches per sample (1 for cold) */
  GpuStopReason stop;
} GpuStats;

typedef struct GpuTiming {
  GpuStats cold, hot;
  double bytes, flops;   /* as given by the caller (0: not reported) */
  double cold_gbps, hot_gbps;     /* bytes / median, 1 GB = 1e9 B */
  double cold_gflops, hot_gflops; /* flops / median */
  double max_clock_mhz;  /* the device's CLOCK_RATE */
} GpuTiming;

/* Times the launch (see the header comment).  `bytes` is what the kernel
 * reads plus writes and `flops` its floating-point operations, both as the
 * caller counts them (0 if not relevant).  The buffers hold garbage after. */
int gpu_launch_measure(GpuLaunch *L, const GpuMeasureConfig *c, double bytes, double flops,
                       GpuTiming *t, WmErr *e);

/* The statistics, pure functions (tested on synthetic samples).
 * gpu_stats_compute: times[i] in seconds, clock_mhz[i] the SM clock during
 * sample i (NULL or 0 entries: not measured, never discarded).  A sample is
 * discarded when its clock is below throttle_frac x the median clock. */
void gpu_stats_compute(const double *times, const double *clock_mhz, int n, double throttle_frac,
                       GpuStats *s);
/* The stop rule, given the statistics of the samples so far and the number
 * taken (kept plus discarded). */
GpuStopReason gpu_stop_rule(const GpuMeasureConfig *c, const GpuStats *s, int taken);
/* Median of n values (n >= 1); does not modify v. */
double gpu_median(const double *v, int n);

/* ---- reference points -------------------------------------------------- */

typedef struct GpuBandwidth {
  double bytes;            /* bytes moved per copy: 2 x size (read + write) */
  GpuStats d2d;            /* cuMemcpyDtoD of size bytes */
  GpuStats vec4;           /* a grid-stride float4 copy kernel */
  double d2d_gbps, vec4_gbps; /* bytes / median */
} GpuBandwidth;

/* The device's own peak: copies of `size` bytes (0: 1 GiB), each timed with
 * events (the working set is far beyond the L2, so no flush is needed). */
int gpu_copy_bandwidth(Gpu *g, uint64_t size, const GpuMeasureConfig *c, GpuBandwidth *out, WmErr *e);

/* cuBLAS SGEMM reference: C = A x B, column-major, n x n x n, random data
 * in [0,1); t->flops = 2 n^3; GFLOP/s in t->hot_gflops / cold_gflops.
 * WM_ENOGPU when cuBLAS cannot be loaded (the message names the libraries
 * tried). */
int gpu_cublas_sgemm_time(Gpu *g, int n, const GpuMeasureConfig *c, GpuTiming *t, WmErr *e);

/* ---- checking outputs against the emulator ---------------------------- */

typedef struct GpuTolerance {
  double rel, abs;       /* floats: |got - want| <= abs + rel x |want| */
} GpuTolerance;

/* f32: rel 1e-5, abs 1e-6; f64: rel 1e-12, abs 1e-14 (see gpu_compare.c
 * for why); integers are always exact. */
GpuTolerance gpu_default_tolerance(PtxType t);

typedef struct GpuMismatch {
  uint64_t count;        /* elements out of tolerance */
  uint64_t first;        /* index of the first one */
  char got[48], want[48];/* their values, printed in the element type */
  double max_abs_err, max_rel_err; /* floats: the largest errors seen */
} GpuMismatch;

/* Compares one buffer element by element in its type (got: the GPU's,
 * want: the emulator's); tol NULL = the default for the type.  Returns
 * m->count (0: equal within tolerance). */
uint64_t gpu_compare_buf(const GBuf *got, const GBuf *want, const GpuTolerance *tol, GpuMismatch *m);

/* Compares every argument buffer of the launch (gpu: gpu_launch_buffers;
 * emu: the emulator's GlobalMem after the run, which may hold extra module
 * .global buffers after them).  Returns 0, or -1 (WM_EGPU) with a message
 * naming the launch, the buffer, the count of mismatches, the first index
 * and both values. */
int gpu_compare_buffers(const GlobalMem *gpu, const GlobalMem *emu, const LaunchSpec *l,
                        const GpuTolerance *tol, WmErr *e);

/* ---- parameter buffers (pure; exposed for tests) ----------------------- */

/* Rewrites a parameter buffer written by launch_bind (emulator addresses)
 * for the device: every buffer argument's 8 bytes at its parameter offset
 * become dptr[b], b the index in `host` of the buffer it named.  Errors
 * name the kernel and parameter. */
int gpu_params_for_device(const PtxKernel *k, const LaunchSpec *l, const GlobalMem *host,
                          const uint64_t *dptr, uint8_t *params, WmErr *e);

#endif
