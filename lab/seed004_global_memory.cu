// Seed 004 (NVIDIA webinar "Global Memory Usage and Strategy", Fermi): launch
// configuration (threads per block, blocks per SM, elements per thread, word
// size), the access patterns of the caching and non-caching load slides,
// AoS vs SoA, and the L1/shared split; plus the best known copy.
// Format: docs/lab.md.

//! group: blocksize
//! seed: 004
//! title: increment of 64M floats, one element per thread: threads per block 32 to 1024

//! exp: threads_per_block
//! title: 64M floats (512 MB moved); simulated at 1M
//! seed-says: "Typically, you'd like 512+ threads per SM; threads per block should be a multiple of warp size (32); SM can concurrently execute up to 8 threadblocks: really small threadblocks prevent achieving good occupancy; I generally use 128-256 threads/block"
//! bytes: 536870912
//! peak: copy
//! why: Hopper runs at most 32 blocks per SM, so 32-thread blocks use half its threads, and 64-thread blocks, though they fill an SM, still run at half the speed of 128 (blocks are launched at a limited rate); 128-256 threads per block remains the seed's sweet spot.
//@ inc1#32 grid=32768 block=32 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=2097152 block=32 args=buf:f32:67108864:rand,u64:67108864
//! speedup: 1
//@ inc1#64 grid=16384 block=64 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=1048576 block=64 args=buf:f32:67108864:rand,u64:67108864
//@ inc1#128 grid=8192 block=128 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=524288 block=128 args=buf:f32:67108864:rand,u64:67108864
//@ inc1#256 grid=4096 block=256 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=262144 block=256 args=buf:f32:67108864:rand,u64:67108864
//@ inc1#512 grid=2048 block=512 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=131072 block=512 args=buf:f32:67108864:rand,u64:67108864
//@ inc1#1024 grid=1024 block=1024 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=65536 block=1024 args=buf:f32:67108864:rand,u64:67108864
extern "C" __global__ void inc1(float *a, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.f;
}

//! group: occupancy
//! seed: 004
//! title: blocks per SM and elements per thread: "need enough memory transactions in flight to saturate the bus"

//! exp: blocks_per_sm
//! title: grid-stride increment of 64M floats by 132 x k blocks of 256 threads (k blocks per SM on a 132-SM H100/H200); simulated at 1M floats
//! seed-says: "Need enough total threads to keep GPU busy: typically 512+ threads per SM; latency is hidden by switching warps (GMEM latency 400-800 cycles)"
//! scale: 64
//! bytes: 536870912
//! peak: copy
//! why: The seed's Fermi needed ~512 threads per SM to cover its latency at 144 GB/s; Hopper moves ~20x the bytes at a similar latency, so one block of 256 threads per SM reaches ~20% of the copy bandwidth and it takes 8 (2048 threads) to reach ~75%.
//@ inc_gs#1 grid=132 block=256 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=132 block=256 args=buf:f32:67108864:rand,u64:67108864
//! speedup: 1
//@ inc_gs#2 grid=264 block=256 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=264 block=256 args=buf:f32:67108864:rand,u64:67108864
//@ inc_gs#4 grid=528 block=256 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=528 block=256 args=buf:f32:67108864:rand,u64:67108864
//@ inc_gs#8 grid=1056 block=256 args=buf:f32:1048576:rand,u64:1048576
//! gpu: grid=1056 block=256 args=buf:f32:67108864:rand,u64:67108864

//! exp: elems_per_thread
//! title: increment of 64M floats, 256 threads per block, k independent elements per thread (loads first, then stores); simulated at 1M
//! seed-says: "Process several elements per thread: multiple loads get pipelined"; "several independent smaller accesses have the same effect as one larger one"
//! bytes: 536870912
//! peak: copy
//! why: Two to four independent elements per thread put more bytes in flight than one thread per element can, lifting the increment from ~80% to ~99% of the copy bandwidth, as the seed advises.
//@ inc_ept1 grid=4096 block=256 args=buf:f32:1048576:rand
//! gpu: grid=262144 block=256 args=buf:f32:67108864:rand
//! speedup: 1
//@ inc_ept2 grid=2048 block=256 args=buf:f32:1048576:rand
//! gpu: grid=131072 block=256 args=buf:f32:67108864:rand
//@ inc_ept4 grid=1024 block=256 args=buf:f32:1048576:rand
//! gpu: grid=65536 block=256 args=buf:f32:67108864:rand
//@ inc_ept8 grid=512 block=256 args=buf:f32:1048576:rand
//! gpu: grid=32768 block=256 args=buf:f32:67108864:rand
extern "C" __global__ void inc_gs(float *a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] += 1.f;
}
// Block b owns elements [b*K*256, (b+1)*K*256); thread t takes t, t+256, ...
// so that each of its K accesses is coalesced across the warp.
#define INC_EPT(NAME, K)                                                  \
  extern "C" __global__ void NAME(float *a) {                             \
    float *p = a + (size_t)blockIdx.x * K * blockDim.x + threadIdx.x;    \
    float v[K];                                                           \
    _Pragma("unroll") for (int k = 0; k < K; k++) v[k] = p[k * blockDim.x]; \
    _Pragma("unroll") for (int k = 0; k < K; k++) p[k * blockDim.x] = v[k] + 1.f; \
  }
INC_EPT(inc_ept1, 1)
INC_EPT(inc_ept2, 2)
INC_EPT(inc_ept4, 4)
INC_EPT(inc_ept8, 8)

//! group: words
//! seed: 004
//! title: word size: 32-bit vs 64-bit vs 128-bit accesses ("float2 is twice the transactions of float"); copies up to the best known

//! exp: inc_words
//! title: increment of 64M floats as float, float2 or float4, 256 threads per block; simulated at 1M
//! seed-says: "Larger word sizes (float2 is twice the transactions of float, for example); four 32-bit ~= one 128-bit"
//! bytes: 536870912
//! peak: copy
//! why: A float4 per thread puts 4x the bytes in flight per load instruction, lifting the increment from ~80% to ~99% of the copy bandwidth: the seed's 'four 32-bit ~= one 128-bit' holds.
//@ inc_f1 grid=4096 block=256 args=buf:f32:1048576:rand
//! gpu: grid=262144 block=256 args=buf:f32:67108864:rand
//! speedup: 1
//@ inc_f2 grid=2048 block=256 args=buf:f32:1048576:rand
//! gpu: grid=131072 block=256 args=buf:f32:67108864:rand
//@ inc_f4 grid=1024 block=256 args=buf:f32:1048576:rand
//! gpu: grid=65536 block=256 args=buf:f32:67108864:rand

//! exp: copy
//! title: copy of 128M floats (1 GiB moved: 512 MB read, 512 MB written): one float per thread, float4 per thread, grid-stride float4 with 4 vectors in flight; simulated at 1M floats
//! seed-says: "Have enough concurrent accesses to saturate the bus: process several elements per thread, larger word sizes"
//! bytes: 1073741824
//! peak: copy
//! why: The seed gives no copy number; a float per thread leaves ~20% of the bandwidth unused, and float4 per thread matches the device-to-device copy.
//@ copy_f1 grid=4096 block=256 args=buf:f32:1048576:zero,buf:f32:1048576:rand
//! gpu: grid=524288 block=256 args=buf:f32:134217728:zero,buf:f32:134217728:rand
//! speedup: 1
//@ copy_f4 grid=1024 block=256 args=buf:f32:1048576:zero,buf:f32:1048576:rand
//! gpu: grid=131072 block=256 args=buf:f32:134217728:zero,buf:f32:134217728:rand
//! reported: best known (target: the device-to-device copy)
//@ copy_f4x4 grid=256 block=256 args=buf:f32:1048576:zero,buf:f32:1048576:rand,u64:262144
//! gpu: grid=8448 block=256 args=buf:f32:134217728:zero,buf:f32:134217728:rand,u64:33554432
//! scale: 128
//! reported: grid-stride, 4 vectors in flight per thread
extern "C" __global__ void inc_f1(float *a) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  a[i] += 1.f;
}
extern "C" __global__ void inc_f2(float2 *a) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  float2 v = a[i];
  v.x += 1.f; v.y += 1.f;
  a[i] = v;
}
extern "C" __global__ void inc_f4(float4 *a) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  float4 v = a[i];
  v.x += 1.f; v.y += 1.f; v.z += 1.f; v.w += 1.f;
  a[i] = v;
}
extern "C" __global__ void copy_f1(float *o, const float *in) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  o[i] = in[i];
}
extern "C" __global__ void copy_f4(float4 *o, const float4 *in) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  o[i] = in[i];
}
// Best known: a grid-stride loop over n4 float4s, four independent 16-byte
// loads in flight per thread before the stores (n4 a multiple of
// 4 * gridDim.x * blockDim.x is not needed: the tail is guarded).
extern "C" __global__ void copy_f4x4(float4 *__restrict__ o, const float4 *__restrict__ in, size_t n4) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    float4 v0 = in[i], v1 = in[i + stride], v2 = in[i + 2 * stride], v3 = in[i + 3 * stride];
    o[i] = v0; o[i + stride] = v1; o[i + 2 * stride] = v2; o[i + 3 * stride] = v3;
  }
  for (; i < n4; i += stride) o[i] = in[i];
}

//! group: patterns
//! seed: 004
//! title: a warp's 32 loads of 4-byte words, caching (ld.global.ca, __ldca) and non-caching (ld.global.cg, __ldcg): aligned, permuted, misaligned, one word, scattered

//! exp: load_patterns
//! title: 64M threads each load one word and store it (out[i] = in[f(i)]); simulated with 256K threads
//! seed-says: "Fermi, caching / non-caching bus utilization: aligned 100% / 100%; permuted 100% / 100%; misaligned 50% / at least 80%; same word 3.125% / 12.5%; scattered 128/(N*128) / 128/(N*32)"
//! bytes: 536870912
//! peak: copy
//! why: Fermi's caching loads moved whole 128-byte lines; since Kepler/Maxwell both kinds of load move 32-byte sectors, so caching and non-caching cost the same, misaligned costs ~4% (5 sectors for 4), one word is cheapest, and only scattered words (32 sectors per request) cost ~10x.
//@ pat_ca#aligned grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:0,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:0,u32:6
//! speedup: 1
//! reported: caching 100%
//@ pat_cg#aligned grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:0,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:0,u32:6
//! reported: non-caching 100%
//@ pat_ca#permuted grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:1,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:1,u32:6
//! reported: caching 100%
//@ pat_cg#permuted grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:1,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:1,u32:6
//! reported: non-caching 100%
//@ pat_ca#misaligned grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:2,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:2,u32:6
//! reported: caching 50%
//@ pat_cg#misaligned grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:2,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:2,u32:6
//! reported: non-caching >= 80%
//@ pat_ca#oneword grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:3,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:3,u32:6
//! reported: caching 3.125%
//@ pat_cg#oneword grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:3,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:3,u32:6
//! reported: non-caching 12.5%
//@ pat_ca#scattered grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:4,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:4,u32:6
//! reported: caching 128/(N*128)
//@ pat_cg#scattered grid=1024 block=256 args=buf:f32:262144:zero,buf:f32:262176:rand,i32:4,u32:14
//! gpu: grid=262144 block=256 args=buf:f32:67108864:zero,buf:f32:67108896:rand,i32:4,u32:6
//! reported: non-caching 128/(N*32)
// The word thread i reads: 0 aligned, 1 permuted within the warp's 128
// bytes (lane l reads word 7l+3 mod 32), 2 misaligned by one word, 3 the
// warp's first word for every lane, 4 scattered (a multiplicative hash whose
// top 32-shift bits pick a word).
__device__ __forceinline__ size_t pat_index(size_t i, int mode, unsigned shift) {
  switch (mode) {
  case 0: return i;
  case 1: return (i & ~(size_t)31) | ((i * 7 + 3) & 31);
  case 2: return i + 1;
  case 3: return i & ~(size_t)31;
  default: return ((unsigned)i * 2654435761u) >> shift;
  }
}
extern "C" __global__ void pat_ca(float *out, const float *in, int mode, unsigned shift) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  out[i] = __ldca(in + pat_index(i, mode, shift));
}
extern "C" __global__ void pat_cg(float *out, const float *in, int mode, unsigned shift) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  out[i] = __ldcg(in + pat_index(i, mode, shift));
}

//! group: aos_soa
//! seed: 004
//! title: array of structures vs structure of arrays; one thread per row vs one thread per column of a float[N][32]

//! exp: aos
//! title: x += 1 for 16M points {double x, y, z, w}: A[i].x (AoS, 32-byte stride) vs x[i] (SoA); simulated with 256K
//! seed-says: "An array of structures behaves like row major accesses; a structure of arrays behaves like column major"; "Data structure, Data structure, Data structure"
//! bytes: 268435456
//! peak: copy
//! why: The seed gives no number; each AoS request touches 32 sectors for 8-byte words 32 bytes apart, 4x the sectors of SoA, and DRAM moves them all: ~3.8x.
//@ aos_inc grid=1024 block=256 args=buf:f64:1048576:rand
//! gpu: grid=65536 block=256 args=buf:f64:67108864:rand
//! speedup: 1
//@ soa_inc grid=1024 block=256 args=buf:f64:262144:rand
//! gpu: grid=65536 block=256 args=buf:f64:16777216:rand

//! exp: rows
//! title: += 1 on every element of 2M rows of 32 floats (256 MB): thread per row A[t][j] vs thread per column A[j][t]; simulated with 8192 rows
//! seed-says: "A[threadIdx.x][0]...: uncoalesced, the most natural access pattern for a port of C/C++ code; A[0][threadIdx.x]...: coalesced, minimizes transactions and total bytes transferred"
//! bytes: 536870912
//! peak: copy
//! why: Each row-per-thread request touches 32 sectors, but the next 7 requests of the thread find them in L1, so DRAM traffic is equal and the 32 sectors per request cost L1 throughput: ~5x, far less than the 32x the transaction count suggests.
//@ row_per_thread grid=32 block=256 args=buf:f32:262144:rand,i32:8192
//! gpu: grid=8192 block=256 args=buf:f32:67108864:rand,i32:2097152
//! speedup: 1
//@ col_per_thread grid=32 block=256 args=buf:f32:262144:rand,i32:8192
//! gpu: grid=8192 block=256 args=buf:f32:67108864:rand,i32:2097152
struct Point { double x, y, z, w; };
extern "C" __global__ void aos_inc(Point *A) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  A[i].x += 1.0;
}
extern "C" __global__ void soa_inc(double *x) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  x[i] += 1.0;
}
// A is float[n][32] (row per thread) or float[32][n] (column per thread).
extern "C" __global__ void row_per_thread(float *A, int n) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (int j = 0; j < 32; j++) A[t * 32 + j] += 1.f;
}
extern "C" __global__ void col_per_thread(float *A, int n) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (int j = 0; j < 32; j++) A[(size_t)j * n + t] += 1.f;
}

//! group: carveout
//! seed: 004
//! title: the 2x2 experiment matrix {caching, non-caching loads} x {prefer L1, prefer shared memory}: random reads of a 128 KB table

//! exp: l1_vs_smem
//! title: 16M threads, 8 hashed reads each from a 128 KB table (fits a 256 KB L1, not a 28 KB one); simulated with 64K threads
//! seed-says: "Try L1 and caching configurations to see which one works best: just try a 2x2 experiment matrix {CA,CG} x {48-L1, 16-L1}; cudaFuncSetCacheConfig(MyKernel, cudaFuncCachePreferShared / PreferL1)"
//! bytes: 603979776
//! why: As the seed says for Fermi, caching loads with a large L1 win: the 128 KB table stays in the 256 KB L1 with the L1 preference and ~7x faster than from L2, which the non-caching loads and the 28 KB L1 of the shared-memory preference read it from.
//@ gather_ca#L1 grid=256 block=256 args=buf:f32:65536:zero,buf:f32:32768:rand,u32:32767
//! gpu: grid=65536 block=256 args=buf:f32:16777216:zero,buf:f32:32768:rand,u32:32767
//! carveout: 0
//! speedup: 1
//@ gather_ca#smem grid=256 block=256 args=buf:f32:65536:zero,buf:f32:32768:rand,u32:32767
//! gpu: grid=65536 block=256 args=buf:f32:16777216:zero,buf:f32:32768:rand,u32:32767
//! carveout: 100
//@ gather_cg#L1 grid=256 block=256 args=buf:f32:65536:zero,buf:f32:32768:rand,u32:32767
//! gpu: grid=65536 block=256 args=buf:f32:16777216:zero,buf:f32:32768:rand,u32:32767
//! carveout: 0
//@ gather_cg#smem grid=256 block=256 args=buf:f32:65536:zero,buf:f32:32768:rand,u32:32767
//! gpu: grid=65536 block=256 args=buf:f32:16777216:zero,buf:f32:32768:rand,u32:32767
//! carveout: 100
// Eight reads per thread at hashed positions of the table (mask = entries -
// 1, a power of two minus one).  The kernel declares 1 KB of shared memory so
// that the carveout preference has something to apply to.
#define GATHER(NAME, LOAD)                                                        \
  extern "C" __global__ void NAME(float *out, const float *table, unsigned mask) { \
    __shared__ float sum[256];                                                    \
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;                     \
    unsigned h = (unsigned)i * 2654435761u;                                       \
    float s = 0.f;                                                                \
    _Pragma("unroll") for (int k = 0; k < 8; k++) {                               \
      h = h * 1664525u + 1013904223u;                                             \
      s += LOAD(table + ((h >> 8) & mask));                                       \
    }                                                                             \
    sum[threadIdx.x] = s;                                                         \
    __syncwarp();                                                                 \
    out[i] = sum[threadIdx.x];                                                    \
  }
GATHER(gather_ca, __ldca)
GATHER(gather_cg, __ldcg)
