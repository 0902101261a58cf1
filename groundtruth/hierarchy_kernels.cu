// Hierarchy probes (issue 13): kernels that isolate what the levels beyond
// L1 do, one class each, in sizes that make each effect large.  Measured with
// Nsight Compute on an H100 and an H200 (tools/gpu/hierarchy_ncu.sh; results
// under docs/results/).  Each //@ line is one launch, in the grammar of
// seed_kernels.cu; buffers are zero-filled when measured.

// ---- A. Store merging: which stores does L1 merge before L2? ------------
// Lane 0 of each of a block's 8 warps writes one float: the 8 floats of a
// block are one 32-byte sector, written by 8 different warps.
//@ st_warps grid=1056 block=256 args=buf:f32:8448
extern "C" __global__ void st_warps(float *out) {
  if ((threadIdx.x & 31) == 0) out[blockIdx.x * 8 + (threadIdx.x >> 5)] = 1.0f;
}
// Thread 0 of each block writes one float: 8 consecutive blocks share a
// sector (blocks are spread over SMs).
//@ st_blocks grid=8448 block=64 args=buf:f32:8448
extern "C" __global__ void st_blocks(float *out) {
  if (threadIdx.x == 0) out[blockIdx.x] = 1.0f;
}
// A global element updated inside a loop through pointers the compiler
// cannot prove distinct (c[i] += a[k] * b[k]): a load and a store of the
// same address every iteration, one warp's 32 lanes on one line.
//@ st_loop#16 grid=264 block=256 args=buf:f32:67584,buf:f32:16,buf:f32:16,i32:16
//@ st_loop#256 grid=264 block=256 args=buf:f32:67584,buf:f32:256,buf:f32:256,i32:256
extern "C" __global__ void st_loop(float *c, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; k++) c[i] += a[k] * b[k];
}
// The same with a private accumulator (the fix): one store per thread.
//@ st_loop_reg#256 grid=264 block=256 args=buf:f32:67584,buf:f32:256,buf:f32:256,i32:256
extern "C" __global__ void st_loop_reg(float *c, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = c[i];
  for (int k = 0; k < n; k++) s += a[k] * b[k];
  c[i] = s;
}

// ---- B. Set indexing: rows a power of two apart ---------------------------
// Each block (one warp) reads a 128-byte strip of `rows` rows `pitch` floats
// apart, twice; the second pass hits in L1 only if the rows do not all fall
// in a few sets.  Blocks read neighbouring strips of the same rows.
//@ colsum#p1024 grid=132 block=32 args=buf:f32:4194304,buf:f32:4224,i32:1024,i32:256
//@ colsum#p4096 grid=132 block=32 args=buf:f32:4194304,buf:f32:4224,i32:4096,i32:256
//@ colsum#p16384 grid=132 block=32 args=buf:f32:4194304,buf:f32:4224,i32:16384,i32:256
//@ colsum#p16416 grid=132 block=32 args=buf:f32:4202496,buf:f32:4224,i32:16416,i32:256
//@ colsum#p65536 grid=132 block=32 args=buf:f32:16777216,buf:f32:4224,i32:65536,i32:256
extern "C" __global__ void colsum(const float *a, float *out, int pitch, int rows) {
  int col = blockIdx.x * 32 + threadIdx.x;
  float s = 0.0f;
  for (int pass = 0; pass < 2; pass++)
    for (int r = 0; r < rows; r++) s += a[(size_t)r * pitch + col];
  out[col] = s;
}
// The L2 alone: every block reads the same rows, 4 passes, a footprint
// (rows x 128 B x 132 strips) of 4.2 MB that fits the L2 unless the rows
// fall in few of its sets.
//@ colsum_l2#p1024 grid=132 block=32 args=buf:f32:4194304,buf:f32:4224,i32:1024,i32:256
//@ colsum_l2#p16384 grid=132 block=32 args=buf:f32:16777216,buf:f32:4224,i32:16384,i32:1024
//@ colsum_l2#p16416 grid=132 block=32 args=buf:f32:16809984,buf:f32:4224,i32:16416,i32:1024
extern "C" __global__ void colsum_l2(const float *a, float *out, int pitch, int rows) {
  int col = blockIdx.x * 32 + threadIdx.x;
  float s = 0.0f;
  for (int pass = 0; pass < 4; pass++)
    for (int r = 0; r < rows; r++) s += __ldcg(&a[(size_t)r * pitch + col]);
  out[col] = s;
}

// ---- C. Local memory larger than the L1 -----------------------------------
// A per-thread array indexed at run time lives in local memory: written,
// then read back in another order.  n floats a thread, 2048 threads an SM:
// 256 KB an SM at n=32, 4 MB at n=512.
//@ local_arr#8 grid=264 block=256 args=buf:f32:67584,i32:8
//@ local_arr#32 grid=264 block=256 args=buf:f32:67584,i32:32
//@ local_arr#128 grid=264 block=256 args=buf:f32:67584,i32:128
//@ local_arr#512 grid=264 block=256 args=buf:f32:67584,i32:512
extern "C" __global__ void local_arr(float *out, int n) {
  float loc[512];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; k++) loc[k] = out[i] + (float)k;
  float s = 0.0f;
  for (int k = 0; k < n; k++) s += loc[(k * 7 + i) % n];
  out[i] = s;
}

// ---- D. Contended atomics --------------------------------------------------
// Every thread adds 1 to one of `k` counters (k=1: one address), 16 times.
//@ atom_hot#1x1 grid=1 block=256 args=buf:i32:4096,i32:1
//@ atom_hot#132x1 grid=132 block=256 args=buf:i32:4096,i32:1
//@ atom_hot#528x1 grid=528 block=256 args=buf:i32:4096,i32:1
//@ atom_hot#528x32 grid=528 block=256 args=buf:i32:4096,i32:32
//@ atom_hot#528x4096 grid=528 block=256 args=buf:i32:4096,i32:4096
extern "C" __global__ void atom_hot(int *x, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < 16; r++) atomicAdd(&x[(i + r) % k], 1);
}

// ---- E. What every launch reads ---------------------------------------------
//@ empty grid=1 block=32 args=buf:f32:32
extern "C" __global__ void empty(float *out) {
  if (out == nullptr) out[threadIdx.x] = 0.0f; /* never: the kernel does nothing */
}
//@ one_store grid=1 block=32 args=buf:f32:32
extern "C" __global__ void one_store(float *out) { out[threadIdx.x] = 1.0f; }

// ---- F. Dependent latency through memory ------------------------------------
// A chain of dependent loads by one warp (the address needs the previous
// value) over a footprint of n floats, `steps` steps: latency per level.
//@ chase#l1 grid=1 block=32 args=buf:f32:4096,buf:f32:32,i32:4096,i32:4096
//@ chase#l2 grid=1 block=32 args=buf:f32:1048576,buf:f32:32,i32:1048576,i32:4096
//@ chase#dram grid=1 block=32 args=buf:f32:67108864,buf:f32:32,i32:67108864,i32:4096
extern "C" __global__ void chase(const float *a, float *out, int n, int steps) {
  unsigned idx = threadIdx.x;
  for (int s = 0; s < steps; s++) idx = ((unsigned)a[idx] + idx * 2654435761u + 1u) % (unsigned)n;
  out[threadIdx.x] = (float)idx;
}
// y += A x with y updated in place through a pointer that may alias A and
// x: each iteration loads the y[i] the previous one stored.  One thread a
// row; rows row-major (lanes n floats apart).
//@ matvec_alias#1024 grid=4 block=256 args=buf:f32:1048576,buf:f32:1024,buf:f32:1024,i32:1024
//@ matvec_alias#4096 grid=16 block=256 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void matvec_alias(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) y[i] += A[(size_t)i * n + j] * x[j];
}
// The same access with a register accumulator: no chain through memory.
//@ matvec_reg#4096 grid=16 block=256 args=buf:f32:16777216,buf:f32:4096,buf:f32:4096,i32:4096
extern "C" __global__ void matvec_reg(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = y[i];
  for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
  y[i] = s;
}
// A store then a load of another address (off != 0) or the same (off 0):
// the code is the same; only the hardware sees the dependence.
//@ chain#same grid=132 block=256 args=buf:f32:70000,i32:0,i32:256
//@ chain#other grid=132 block=256 args=buf:f32:70000,i32:1,i32:256
extern "C" __global__ void chain(float *buf, int off, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = buf + (size_t)i * 2 / 2, *q = buf + i + off;
  for (int k = 0; k < n; k++) q[0] = p[0] + 1.0f;
}

// ---- G. Grids that leave SMs idle --------------------------------------------
// A grid-stride copy of 16 M floats by G blocks of 256 threads.
//@ copy_grid#1 grid=1 block=256 args=buf:f32:16777216,buf:f32:16777216,i32:16777216
//@ copy_grid#16 grid=16 block=256 args=buf:f32:16777216,buf:f32:16777216,i32:16777216
//@ copy_grid#66 grid=66 block=256 args=buf:f32:16777216,buf:f32:16777216,i32:16777216
//@ copy_grid#132 grid=132 block=256 args=buf:f32:16777216,buf:f32:16777216,i32:16777216
//@ copy_grid#528 grid=528 block=256 args=buf:f32:16777216,buf:f32:16777216,i32:16777216
//@ copy_grid#4224 grid=4224 block=256 args=buf:f32:16777216,buf:f32:16777216,i32:16777216
extern "C" __global__ void copy_grid(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}
