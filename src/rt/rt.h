/* rt.h - the stand-in CUDA runtime's one device context (warpmem run): the
 * API that both CUDA front ends call, the runtime API (api_runtime.c,
 * libcudart.so.N) and the driver API (api_driver.c, libcuda.so.1).  It lives
 * in libwarpmem_rt.so, which exports these rt_* functions only, so that the
 * two front ends share one context: one GlobalMem made with
 * gmem_init_unified() (a device pointer is a valid host pointer), the
 * modules, the launches and their reports.
 *
 * Every function is thread-safe (one lock) and initializes the context on
 * first use (rt_init).  Errors are RtError values, numerically CUDA's
 * cudaError_t (the driver front end maps them to CUresult); every failing
 * call also sets the calling thread's last error (rt_get_last_error).  A
 * fault in a kernel is sticky, as in CUDA: every later call returns it.
 * Messages for the user (a located fault, an unsupported call) go to
 * stderr, prefixed "==WARPMEM==". */
#ifndef WM_RT_H
#define WM_RT_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

/* cudaError_t's values, those the context returns. */
typedef enum RtError {
  RT_SUCCESS = 0,
  RT_ERR_INVALID_VALUE = 1,
  RT_ERR_MEMORY_ALLOCATION = 2,
  RT_ERR_INITIALIZATION = 3,
  RT_ERR_INVALID_CONFIGURATION = 9,
  RT_ERR_INVALID_PITCH = 12,
  RT_ERR_INVALID_SYMBOL = 13,
  RT_ERR_INVALID_DEVICE_POINTER = 17,
  RT_ERR_INVALID_MEMCPY_DIRECTION = 21,
  RT_ERR_INVALID_DEVICE_FUNCTION = 98,
  RT_ERR_INVALID_DEVICE = 101,
  RT_ERR_INVALID_KERNEL_IMAGE = 200,
  RT_ERR_NO_KERNEL_IMAGE = 209,
  RT_ERR_UNSUPPORTED_LIMIT = 215,
  RT_ERR_INVALID_PTX = 218,
  RT_ERR_INVALID_HANDLE = 400,
  RT_ERR_NOT_FOUND = 500,
  RT_ERR_NOT_READY = 600,
  RT_ERR_ILLEGAL_ADDRESS = 700,
  RT_ERR_ASSERT = 710,          /* a device-side assert failed (sticky) */
  RT_ERR_HOST_MEMORY_ALREADY_REGISTERED = 712,
  RT_ERR_HOST_MEMORY_NOT_REGISTERED = 713,
  RT_ERR_LAUNCH_OUT_OF_RESOURCES = 701,
  RT_ERR_LAUNCH_FAILURE = 719,
  RT_ERR_LAUNCH_TIMEOUT = 702,  /* the watchdog stopped it (--max-instructions, --timeout) */
  RT_ERR_COOPERATIVE_TOO_LARGE = 720,
  RT_ERR_NOT_PERMITTED = 800,
  RT_ERR_NOT_SUPPORTED = 801,
  RT_ERR_INVALID_CLUSTER_SIZE = 912,
  RT_ERR_UNKNOWN = 999
} RtError;

/* Tensor maps (rt_tmap.c; emu/emu_tmap.h's Tmap, cuda.h's numbering):
 * cuTensorMapEncodeTiled/Im2col's work: t checked as the driver checks it
 * (a refusal says which field, on stderr, and is RT_ERR_INVALID_VALUE),
 * then written at map (`caller`: the API's name, for the message; t NULL:
 * refused for a NULL array argument). */
struct Tmap;
RtError rt_tensor_map_encode(const struct Tmap *t, void *map, const char *caller);
/* cuTensorMapReplaceAddress: the map at `map` (one rt_tensor_map_encode
 * wrote) over global address addr. */
RtError rt_tensor_map_replace_address(void *map, void *addr);

/* cudaGetErrorName's and cudaGetErrorString's text of e ("cudaErrorIllegalAddress",
 * "an illegal memory access was encountered"); unknown values get a generic
 * text, never NULL. */
const char *rt_error_name(RtError e);
const char *rt_error_string(RtError e);

/* ---- the context ---- */

/* Reads the environment of rt_env.h once (a bad value: a message on stderr
 * and RT_ERR_INITIALIZATION from then on) and makes the context.  Called by
 * every other function; calling it again returns the first result. */
RtError rt_init(void);

/* The preset the context models (WARPMEM_RUN_ARCH, default h200). */
const Arch *rt_arch(void);
/* What a launch may ask of it (arch_limits of the preset). */
ArchLimits rt_arch_limits(void);
/* Device attribute `id` (CUdevice_attribute's numbers, which
 * cudaDeviceAttr shares) of the one device: rt_attrs.c's table (0 for an
 * id it does not know). */
long long rt_device_attribute(int id);

/* The calling thread's last error, cleared (rt_get_last_error) or kept
 * (rt_peek_last_error); a sticky error is never cleared. */
RtError rt_get_last_error(void);
RtError rt_peek_last_error(void);
/* Sets the calling thread's last error (for the front ends' own checks);
 * returns e. */
RtError rt_set_last_error(RtError e);
/* The sticky error (RT_SUCCESS if none), as synchronizing calls return it. */
RtError rt_sticky_error(void);

/* Prints "==WARPMEM== NAME is not supported by warpmem run" on stderr the
 * first time NAME comes, and returns RT_ERR_NOT_SUPPORTED (as last error). */
RtError rt_unsupported(const char *name);

/* cudaDeviceSynchronize: nothing runs in the background; the sticky error. */
RtError rt_device_sync(void);
/* cudaDeviceReset: frees every allocation, stream and event, clears the
 * sticky error; modules and the launches recorded for the reports stay. */
RtError rt_device_reset(void);

/* cudaDeviceSetLimit / GetLimit. */
/* cudaLimit's and CUlimit's numbers.  The stack and the heap act; the
 * others are kept and read back with no effect (no device launches, no
 * persisting L2 lines in the model). */
typedef enum {
  RT_LIMIT_STACK, RT_LIMIT_PRINTF_FIFO, RT_LIMIT_HEAP, RT_LIMIT_SYNC_DEPTH, RT_LIMIT_PENDING_LAUNCHES,
  RT_LIMIT_L2_FETCH, RT_LIMIT_PERSISTING_L2, RT_LIMIT_COUNT
} RtLimit;
RtError rt_set_limit(RtLimit which, uint64_t value);
RtError rt_get_limit(RtLimit which, uint64_t *value);

/* ---- modules ---- */

typedef struct RtModule RtModule;
typedef struct RtFunction RtFunction;

/* __cudaRegisterFatBinary: the PTX of the wrapper's fat binary (the entry
 * fatbin_pick_ptx chooses for the preset), parsed as `warpmem sim` parses a
 * .ptx.  A fat binary without usable PTX still gives a module (its launches
 * fail with RT_ERR_NO_KERNEL_IMAGE and the reason, said once on stderr), so
 * that registration never fails. */
RtModule *rt_module_register_fatbin(const void *wrapper);
/* cuModuleLoadData: a module from PTX text (copied); `name` names it in
 * messages.  RT_ERR_INVALID_PTX (message on stderr) if it does not parse. */
RtError rt_module_load_ptx(const char *text, const char *name, RtModule **out);
/* __cudaUnregisterFatBinary / cuModuleUnload.  Its functions stay valid for
 * the reports; when the last module goes, the reports are written (the
 * application is exiting). */
void rt_module_unload(RtModule *m);

/* __cudaRegisterFunction: host_fun (the host stub) launches the kernel
 * `device_name` (the PTX entry name) of m. */
void rt_module_register_function(RtModule *m, const void *host_fun, const char *device_name);
/* __cudaRegisterVar (managed_ptr NULL) and __cudaRegisterManagedVar: the host
 * shadow host_var names the module variable `device_name` (in .global or
 * .const); for a __managed__ one, *managed_ptr is set to the variable's
 * address in the module's unified .global buffer. */
void rt_module_register_var(RtModule *m, const void *host_var, const char *device_name, uint64_t size,
                            void **managed_ptr);

/* The kernel a host stub launches; RT_ERR_INVALID_DEVICE_FUNCTION if none. */
RtError rt_function_by_host(const void *host_fun, RtFunction **out);
/* cuModuleGetFunction: the kernel of m by its PTX entry name (mangled);
 * RT_ERR_NOT_FOUND if none. */
RtError rt_module_function(RtModule *m, const char *name, RtFunction **out);
/* cuModuleGetGlobal: a .global variable's device address and size, or a
 * .const one's host array address; RT_ERR_NOT_FOUND if none. */
RtError rt_module_global(RtModule *m, const char *name, void **addr, size_t *size);

/* cudaFuncGetAttributes / cuFuncGetAttribute. */
typedef struct RtFuncInfo {
  const char *name;        /* PTX entry name (mangled) */
  uint32_t shared_static;  /* bytes */
  uint32_t local_size;     /* bytes per thread */
  uint32_t const_size;     /* bytes of the module's constant bank */
  uint32_t param_size;     /* bytes of the parameter buffer */
  int regs;                /* per thread (ptxas -v; 32 assumed without it) */
  int max_threads;         /* per block: the preset's, .maxntid's, or fewer as its registers allow */
  int max_dynamic_smem;    /* the cudaFuncAttributeMaxDynamicSharedMemorySize set */
  int carveout_pct;        /* cudaFuncAttributePreferredSharedMemoryCarveout, -1: default */
  int ptx_version;         /* the PTX's .target: 90 for sm_90 */
  int binary_version;      /* the preset's cc */
  uint32_t cluster[3];     /* the required cluster: __cluster_dims__ or set
                              (cudaFuncAttributeRequiredClusterWidth...), 0s: none */
  int cluster_must;        /* .explicitcluster (cudaFuncAttributeClusterDimMustBeSet) */
  int nonportable;         /* cudaFuncAttributeNonPortableClusterSizeAllowed */
  int cluster_policy;      /* cudaFuncAttributeClusterSchedulingPolicyPreference, accepted */
} RtFuncInfo;
RtError rt_function_info(RtFunction *f, RtFuncInfo *out);
typedef enum {
  RT_FATTR_MAX_DYNAMIC_SMEM, RT_FATTR_CARVEOUT,
  RT_FATTR_CLUSTER_X, RT_FATTR_CLUSTER_Y, RT_FATTR_CLUSTER_Z, /* RT_ERR_NOT_PERMITTED over __cluster_dims__ */
  RT_FATTR_NONPORTABLE, RT_FATTR_CLUSTER_POLICY
} RtFuncAttr;
RtError rt_function_set_attribute(RtFunction *f, RtFuncAttr which, int value);
/* cudaOccupancyMaxActiveBlocksPerMultiprocessor, from warpmem's calculator. */
RtError rt_occupancy(RtFunction *f, int block_threads, size_t dynamic_smem, int *blocks_per_sm);

/* ---- memory: one unified GlobalMem ---- */

typedef enum { RT_MEM_DEVICE, RT_MEM_MANAGED, RT_MEM_HOST } RtMemKind;

/* cudaMalloc / cudaMallocManaged / cudaMallocHost (cudaHostAlloc): zeroed
 * bytes at an address valid on both sides.  Size 0 gives NULL. */
RtError rt_malloc(size_t size, RtMemKind kind, void **out);
/* cudaFree / cudaFreeHost (NULL is fine); RT_ERR_INVALID_DEVICE_POINTER
 * (RT_ERR_INVALID_VALUE for kind RT_MEM_HOST) where no allocation of that
 * kind starts. */
RtError rt_free(void *p, RtMemKind kind);
/* cudaHostRegister / cudaHostUnregister: the application's own memory
 * becomes reachable from kernels at its own address (unified addressing:
 * every registration is mapped).  RT_ERR_INVALID_VALUE (message on stderr)
 * if it overlaps an allocation or a registration; unregistering memory
 * that is not registered is RT_ERR_INVALID_VALUE too (CUDA's
 * cudaErrorHostMemoryNotRegistered, 713, where CUDA has it: see api). */
RtError rt_host_register(void *p, size_t size);
RtError rt_host_unregister(void *p);

/* What p points into: its kind and allocation (base, size); kind -1 (and
 * RT_SUCCESS) for a pointer outside every allocation (the application's
 * host memory). */
RtError rt_pointer_info(const void *p, int *kind, void **base, size_t *size);
/* cudaMemGetInfo: bytes of device memory (the mem limit) and free. */
RtError rt_mem_info(size_t *free_bytes, size_t *total);

/* Checked copies: a range in device memory must lie inside one allocation
 * (RT_ERR_INVALID_VALUE with a message naming the nearest one); host ranges
 * are the application's.  Each advances the device clock by the bytes at
 * the preset's DRAM bandwidth. */
RtError rt_memcpy(void *dst, const void *src, size_t n);
RtError rt_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height);
RtError rt_memset(void *dst, int value, size_t n);
RtError rt_memset_2d(void *dst, size_t pitch, int value, size_t width, size_t height);

/* Symbols: the variable registered for host shadow host_var: its address
 * (a .global variable's device address; a .const variable's address in the
 * module's constant bank, a host array) and size.  RT_ERR_INVALID_SYMBOL if
 * none. */
RtError rt_symbol(const void *host_var, void **addr, size_t *size);
/* cudaMemcpyToSymbol / FromSymbol: count bytes at offset, checked against
 * the variable's size. */
RtError rt_symbol_copy(const void *host_var, size_t offset, void *buf, size_t count, int to_device);

/* ---- arrays, texture and surface objects: rt/rt_tex.h ---- */

/* ---- launches ---- */

typedef struct RtStream RtStream;   /* NULL: the default stream */
typedef struct RtEvent RtEvent;

typedef struct RtLaunchConfig {
  uint32_t grid[3], block[3];
  uint32_t smem;          /* dynamic shared memory, bytes */
  RtStream *stream;
  int cooperative;        /* cudaLaunchCooperativeKernel */
  uint32_t cluster[3];    /* cudaLaunchAttributeClusterDimension, 0s: none
                             (the kernel's required cluster) */
} RtLaunchConfig;

/* cudaOccupancyMaxActiveClusters: the clusters (c->cluster, else the
 * kernel's) of c's blocks that can be resident at once, from the occupancy
 * calculator and the preset's GPCs (occ_active_clusters); an invalid
 * cluster is RT_ERR_INVALID_CLUSTER_SIZE.  With potential set,
 * cudaOccupancyMaxPotentialClusterSize instead: the most blocks a cluster
 * of c's blocks may have (8, or 16 if non-portable sizes are allowed) of
 * which one can be resident. */
RtError rt_cluster_occupancy(RtFunction *f, const RtLaunchConfig *c, int potential, int *out);
/* Runs kernel f to completion: the parameter buffer is built from args
 * (args[i] points to parameter i's value, its size from the PTX .param
 * list), then sim_run_bound on the context's memory, profiled (the full
 * model, reported at exit) or functional as the kernel filter, skip and
 * count choose.  A bad configuration returns RT_ERR_INVALID_CONFIGURATION
 * (not sticky), a block whose registers (ptxas) exceed the SM's
 * RT_ERR_LAUNCH_OUT_OF_RESOURCES; a fault prints its located error and returns the sticky
 * RT_ERR_ILLEGAL_ADDRESS (out of bounds) or RT_ERR_LAUNCH_FAILURE.  Device
 * printf goes to stdout. */
RtError rt_launch(RtFunction *f, const RtLaunchConfig *c, void **args);
/* The parameter buffer rt_launch would build from args, into buf (size:
 * RtFuncInfo.param_size bytes), for a launch later (a captured graph). */
RtError rt_function_pack(RtFunction *f, void **args, void *buf, size_t size);
/* The same with the parameter buffer given whole (cuLaunchKernel's
 * CU_LAUNCH_PARAM_BUFFER_POINTER): size must be the kernel's. */
RtError rt_launch_packed(RtFunction *f, const RtLaunchConfig *c, const void *params, size_t size);

/* ---- streams and events, on the device clock ---- */

/* Nanoseconds of device time so far: the predicted times of the launches
 * (functional ones count the preset's launch overhead) and copies. */
double rt_clock_ns(void);

RtError rt_stream_create(RtStream **out);
RtError rt_stream_destroy(RtStream *s);
RtError rt_stream_check(RtStream *s);  /* valid (NULL is) */
RtError rt_stream_sync(RtStream *s);   /* the sticky error */
/* A stream's attributes (cudaStreamSetAttribute, cuStreamSetAttribute: an
 * L2 access-policy window, a priority, ...), kept and read back as set,
 * with no effect on the model; attr below RT_STREAM_ATTRS, value at most
 * RT_STREAM_ATTR_BYTES (cudaLaunchAttributeValue's size).  Unset: zeros. */
#define RT_STREAM_ATTRS 32
#define RT_STREAM_ATTR_BYTES 64
RtError rt_stream_set_attr(RtStream *s, unsigned attr, const void *value, size_t n);
RtError rt_stream_get_attr(RtStream *s, unsigned attr, void *value, size_t n);

RtError rt_event_create(RtEvent **out, int timing);
RtError rt_event_destroy(RtEvent *ev);
RtError rt_event_record(RtEvent *ev, RtStream *s);
RtError rt_event_sync(RtEvent *ev);    /* the sticky error */
/* Milliseconds between two recorded events; RT_ERR_INVALID_HANDLE if one is
 * not recorded or was made without timing. */
RtError rt_event_elapsed(RtEvent *start, RtEvent *end, float *ms);

/* ---- reports ---- */

/* Launches so far, and how many were profiled. */
int rt_launch_count(int *profiled);
/* Writes the reports now (once): every profiled launch through report_write
 * in the chosen format to WARPMEM_RUN_REPORT's file (else stdout), then, in
 * text, the summary table of all launches.  Runs by itself at exit. */
void rt_report_flush(void);
/* Frees the whole context without writing reports; the next call starts a
 * new one, reading the environment again (tests). */
void rt_shutdown(void);

#endif
