/* launch.h - launch specs: the `//@` lines of a .cu file and --arg specs.
 *
 * Grammar (the ground truth's, extended with INIT, aggregates and textures):
 *   //@ NAME[#VARIANT] [cooperative] grid=X[,Y[,Z]] block=X[,Y[,Z]] [smem=BYTES] [cluster=X[,Y[,Z]]] args=ARG,...
 *   (cooperative: launched as cudaLaunchCooperativeKernel, for grid.sync();
 *   cluster: blocks a cluster, as cudaLaunchKernelEx's cluster attribute;
 *   the word nonportable allows clusters of up to 16 blocks)
 *   ARG    := TYPE:VALUE | buf:TYPE:COUNT[:INIT] | AGG | tex:CHAN:DIMS{:OPT} | surf:CHAN:DIMS{:OPT}
 *           | tmap:MTYPE:MDIMS:box=MDIMS{:MOPT} | tmap:MTYPE:MDIMS:im2col=CxP{:MOPT}
 *   TYPE   := i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 f16 bf16
 *   INIT   := zero | iota | rand | CONSTANT       (rand, seeded, is the default)
 *   AGG    := struct[@A]{MEMBER,...}              a struct by value, C layout
 *           | TYPExN{V,...}                       a vector type: f32x2{1,2} is float2
 *           | bytes{B,...} | bytes:HEX            raw bytes
 *   MEMBER := TYPE:VALUE | buf:TYPE:COUNT[:INIT] | AGG
 *   CHAN   := CTYPE[x1|x2|x4]    CTYPE := f32 f16 i32 s32 u32 i16 s16 u16 i8 s8 u8
 *   DIMS   := W[xH[xD]]          (layered: the last one counts the layers)
 *   OPT    := point | linear | clamp | wrap | mirror | border | norm | elem | normfloat
 *           | layered | cube | INIT (textures only but layered and INIT; see launch_tex.c)
 *   MTYPE  := u8 u16 u32 i32 u64 i64 f16 bf16 f32 f64 tf32 f32ftz tf32ftz   (a tensor map's type)
 *   MDIMS  := N0xN1[x...]        (innermost first, as cuTensorMapEncodeTiled takes them)
 *   MOPT   := swz=none|32|64|128 | oob=zero|nan | l2=none|64|128|256 | interleave=none|16|32
 *           | estride=MDIMS | stride=BYTES[xBYTES...] (dimensions 1 and up) | lower=L1x.. | upper=U1x..
 *           (im2col corners, W first, signed) | over=N (argument N's buffer holds the tensor) | INIT
 *   A tensor map goes to a `const __grid_constant__ CUtensorMap` parameter (its 128 bytes) or, for
 *   a pointer parameter, into a buffer of its own (launch_tmap.c).
 * Commas inside braces do not split args=.  launch_parse_arg (one --arg)
 * also takes struct:MEMBER,... and TYPExN:V,... without braces.
 * (launch_agg.c lays aggregates out.)
 */
#ifndef WM_LAUNCH_H
#define WM_LAUNCH_H

#include <stdint.h>

#include "emu/gmem.h"
#include "ptx/ptx.h"
#include "util/diag.h"

typedef enum { ARG_SCALAR, ARG_BUF, ARG_AGG, ARG_TEX, ARG_TMAP } ArgKind; /* ARG_TEX: tex: and surf: */
typedef enum { INIT_DEFAULT, INIT_RAND, INIT_ZERO, INIT_IOTA, INIT_CONST } InitKind;

typedef struct ArgSpec {
  uint8_t kind;      /* ArgKind */
  uint8_t type;      /* PtxType of the scalar or of the buffer's elements */
  uint8_t init;      /* InitKind (buffers) */
  uint64_t count;    /* buffer elements */
  uint64_t bits;     /* scalar: the value's bytes (little-endian) in its type;
                        INIT_CONST: the constant's bits in the element type */
  uint32_t agg_size, agg_align; /* ARG_AGG: its bytes and alignment (0: raw
                        bytes, no alignment of their own); laid out again
                        from text when bound */
  GTex tex;          /* ARG_TEX: the object to create (buf and addr unset);
                        count is its channels (texels * channels) */
  char text[320];    /* the spec as written (an aggregate's whole spec) */
} ArgSpec;

#define LAUNCH_MAX_ARGS 64
#define LAUNCH_MAX_LAUNCHES 4096 /* '//@' lines of one file (a LaunchSpec is ~30 KB) */

typedef struct LaunchSpec {
  char name[4096];   /* kernel name (mangled template names run long: CUB's pass 600 characters) */
  char label[160];   /* NAME#VARIANT as written (NAME if no variant) */
  uint32_t grid[3], block[3];
  uint32_t smem;     /* dynamic shared memory bytes */
  int cooperative;   /* cudaLaunchCooperativeKernel: all blocks resident */
  uint32_t cluster[3]; /* cluster=X[,Y[,Z]]: blocks a cluster (0: the
                        kernel's __cluster_dims__, else none) */
  int cluster_nonportable; /* the word nonportable: up to 16 blocks a cluster
                        (cudaFuncAttributeNonPortableClusterSizeAllowed) */
  ArgSpec args[LAUNCH_MAX_ARGS];
  int nargs;
  int line;          /* line of the //@ in its file, 0 for the command line */
} LaunchSpec;

/* Threads the launch runs: grid x block, all three dimensions. */
uint64_t launch_threads(const LaunchSpec *l);

/* "X[,Y[,Z]]" with each 1..2^31-1; missing dimensions are 1. */
int launch_parse_dim(const char *s, uint32_t d[3], WmErr *e);

/* One ARG (see grammar). */
int launch_parse_arg(const char *s, ArgSpec *a, WmErr *e);

/* Every //@ line of `text` (the file `path`), in order.  *out is malloc'd
 * (caller frees); *n may be 0.  Errors are located (file:line:col). */
int launch_parse_file(const char *path, const char *text, LaunchSpec **out, int *n, WmErr *e);

/* The .cu that X.ptx was compiled from, for its //@ lines (nvcc drops
 * comments): X.cu beside it, else X.cu in the folder above, where committed
 * PTX lives in a ptx/ folder of its own (lab/ptx/X.ptx -> lab/X.cu).  Writes
 * the path into cu (cap bytes) and returns 0 when one is readable, -1 when
 * neither is (or `ptx` does not end in .ptx). */
int launch_cu_of_ptx(const char *ptx, char *cu, size_t cap);

/* The //@ launches of `path`, or, for a .ptx that has none (nvcc drops
 * comments), of its .cu (launch_cu_of_ptx).  *out is malloc'd (caller
 * frees); *n may be 0. */
int launch_read_file(const char *path, LaunchSpec **out, int *n, WmErr *e);

/* Checks the args against the kernel's .param list (count, sizes and an
 * aggregate's alignment),
 * allocates and initializes the buffers in g (default init `dflt` where an
 * ARG names none; rand uses `seed`) and writes the parameter buffer
 * (k->param_size bytes) into params.  Errors name the kernel, the argument
 * number and both sizes. */
int launch_bind(const PtxKernel *k, const LaunchSpec *l, GlobalMem *g, uint8_t *params,
                InitKind dflt, uint64_t seed, WmErr *e);

/* The offsets in the parameter buffer of every buffer address launch_bind
 * writes (buffer arguments and buffer members of aggregates), in the order
 * it allocates the buffers (GlobalMem order).  Returns how many (at most
 * max are written); -1 if the spec does not lay out. */
int launch_pointer_slots(const PtxKernel *k, const LaunchSpec *l, uint32_t *slots, int max);

/* --const NAME=TYPE:VALUE[,VALUE...]: writes the values, from its start,
 * into the module's __constant__ variable NAME in const_mem (the module's
 * const segment, m->const_size bytes) or, if global_mem is not NULL, its
 * __device__ or __managed__ variable NAME there (the .global segment,
 * m->global_size bytes), as the host sets them before a launch.  Errors
 * name the variable and, when it is missing, the ones the module has. */
int launch_set_const(const char *spec, const PtxModule *m, uint8_t *const_mem, uint8_t *global_mem, WmErr *e);

/* Writes each buffer of g to DIR/LABEL.argN.TYPE.bin (raw little-endian)
 * plus DIR/LABEL.json describing them; creates DIR. */
int launch_dump(const char *dir, const LaunchSpec *l, const GlobalMem *g, WmErr *e);

#endif
