// The L1's replacement policy (issue 13's "local memory larger than L1",
// and what interleaving an SM's blocks does to it): a warp reads the same
// K lines over and over.  Under LRU every pass after the first hits while
// the K lines fit and misses whole once they do not (a cycle one line
// longer than the cache evicts each line just before it is read again);
// other policies keep part of a cycle that is too long.  Measured with
// Nsight Compute (tools/gpu/hierarchy_ncu.sh policy; docs/results/);
// buffers zero-filled.  Each //@ line is one launch, in the grammar of
// seed_kernels.cu.

// ---- one warp an SM, K lines of its own, 4 passes ---------------------------
// Block b reads lines [b*K, b*K + K) of a (32 lanes x 4 bytes: one 128-byte
// line a request), in order, 4 times; 132 blocks, one an SM, so each L1
// sees one warp.  K from 32 KB to 512 KB; the H200's L1 is at most 256 KB
// (the shared memory carveout takes its part).
//@ cycle#256 grid=132 block=32 args=buf:f32:4325376,buf:f32:132,i32:256,i32:4
//@ cycle#1024 grid=132 block=32 args=buf:f32:4325376,buf:f32:132,i32:1024,i32:4
//@ cycle#1536 grid=132 block=32 args=buf:f32:6488064,buf:f32:132,i32:1536,i32:4
//@ cycle#1792 grid=132 block=32 args=buf:f32:7569408,buf:f32:132,i32:1792,i32:4
//@ cycle#1920 grid=132 block=32 args=buf:f32:8110080,buf:f32:132,i32:1920,i32:4
//@ cycle#2048 grid=132 block=32 args=buf:f32:8650752,buf:f32:132,i32:2048,i32:4
//@ cycle#2304 grid=132 block=32 args=buf:f32:9732096,buf:f32:132,i32:2304,i32:4
//@ cycle#3072 grid=132 block=32 args=buf:f32:12976128,buf:f32:132,i32:3072,i32:4
//@ cycle#4096 grid=132 block=32 args=buf:f32:17301504,buf:f32:132,i32:4096,i32:4
extern "C" __global__ void cycle(const float *a, float *out, int lines, int passes) {
  const float *p = a + (size_t)blockIdx.x * lines * 32 + threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < passes; r++)
    for (int i = 0; i < lines; i++) s += p[(size_t)i * 32];
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// ---- the same with 8 warps a block, or two blocks an SM --------------------
// cycle8: 8 warps of one block share the block's K lines (warp w reads line
// i + w of each step of 8: the lines of a step come from all 8 warps);
// grid 132 or 264 (two blocks an SM, K lines each, as local_arr#128's two
// blocks of 128 KB of local memory).
//@ cycle8#1024x132 grid=132 block=256 args=buf:f32:8650752,buf:f32:2112,i32:1024,i32:4
//@ cycle8#2048x132 grid=132 block=256 args=buf:f32:8650752,buf:f32:2112,i32:2048,i32:4
//@ cycle8#3072x132 grid=132 block=256 args=buf:f32:12976128,buf:f32:2112,i32:3072,i32:4
//@ cycle8#1024x264 grid=264 block=256 args=buf:f32:8650752,buf:f32:2112,i32:1024,i32:4
//@ cycle8#1536x264 grid=264 block=256 args=buf:f32:12976128,buf:f32:2112,i32:1536,i32:4
extern "C" __global__ void cycle8(const float *a, float *out, int lines, int passes) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  const float *p = a + (size_t)blockIdx.x * lines * 32 + l;
  float s = 0.0f;
  for (int r = 0; r < passes; r++)
    for (int i = w; i < lines; i += 8) s += p[(size_t)i * 32];
  if (l == 0) out[blockIdx.x * 8 + w] = s;
}
