// A load of local memory right after the stores that wrote it (issue 13,
// local_heap: the H200 misses 5.3-6.5 K local-load sectors where warpmem
// misses none; docs/results/h200-2026-11-26-spread).  Each thread keeps
// an array heap[10] in local memory (a dynamic index keeps it there),
// writes it whole, then reads word j of it (every lane the same word: one
// 128-byte line, 4 sectors a warp), g dependent FMAs after the stores (the
// load's index waits for them).  local_heap's first load follows its stores
// directly, each lane reading word (i + q) % 10: lt_mixed.  Measured with
// Nsight Compute (tools/gpu/hierarchy_ncu.sh stload); buffers zero-filled.
// Local stores allocate their sectors in L1 (local_heap's 81,920 store
// misses are the first of each warp's 40 sectors), so with no miss in
// flight every load here hits: local-load misses 0, L2 reads 8,192 (the
// global load of `in`).
//@ lt_after#j0g0 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:0,i32:0
//@ lt_after#j5g0 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:5,i32:0
//@ lt_after#j8g0 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:8,i32:0
//@ lt_after#j9g0 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:9,i32:0
//@ lt_after#j9g8 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:9,i32:8
//@ lt_after#j9g64 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:9,i32:64
extern "C" __global__ void lt_after(float *out, const float *in, int j, int g) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float heap[10];
  float x = in[t];
  for (int k = 0; k < 10; k++) heap[k] = x + (float)k;
  for (int q = 0; q < g; q++) x = x * 1.0001f + 0.5f;
  out[t] = heap[j + (int)(x * 0.0f)];
}

// lt_mixed#gG: the same stores, then lane l reads word (t + q) % 10 for
// q = 0..9 (local_heap's loop, without its stores).
//@ lt_mixed#g0 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:0,i32:0
//@ lt_mixed#g64 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:0,i32:64
extern "C" __global__ void lt_mixed(float *out, const float *in, int j, int g) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float heap[10];
  float x = in[t];
  for (int k = 0; k < 10; k++) heap[k] = x + (float)k;
  for (int q = 0; q < g; q++) x = x * 1.0001f + 0.5f;
  float s = 0.0f;
  int b = j + (int)(x * 0.0f);
  for (int q = 0; q < 10; q++) s += heap[(t + b + q) % 10];
  out[t] = s;
}

// lt_const#jJ: stores of a constant (issued at once, as local_heap's are,
// not after a global load), then the load of word j; lt_const#m: lane l
// reads word (t + q) % 10 for q = 0..9.
//@ lt_const#j0 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:0,i32:0
//@ lt_const#j9 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:9,i32:0
//@ lt_const#m grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:0,i32:1
extern "C" __global__ void lt_const(float *out, const float *in, int j, int mixed) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float heap[10];
  for (int k = 0; k < 10; k++) heap[k] = 1e30f;
  float s = in[t];
  if (mixed)
    for (int q = 0; q < 10; q++) s += heap[(t + j + q) % 10];
  else
    s += heap[j];
  out[t] = s;
}

// lh#qQbB: seed_kernels.cu's local_heap as it is (p = ps[i] = 0, so each
// lane stores in the first 10 iterations, one slot each), nq = Q
// iterations, B blocks of 4 warps: are its local-load misses per
// iteration, per warp, or per SM's load?
//@ lh#q10b512 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:10
//@ lh#q16b512 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:16
//@ lh#q64b512 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:64
//@ lh#q256b512 grid=512 block=128 args=buf:f32:65536,buf:f32:65536,i32:256
//@ lh#q64b132 grid=132 block=128 args=buf:f32:65536,buf:f32:65536,i32:64
//@ lh#q64b264 grid=264 block=128 args=buf:f32:65536,buf:f32:65536,i32:64
extern "C" __global__ void lh(float* result, const float* ps, int nq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; float heap[10];
  for (int k = 0; k < 10; k++) heap[k] = 1e30f;
  float p = ps[i];
  for (int q = 0; q < nq; q++) { float d = fabsf(p - q); int slot = (i + q) % 10; if (d < heap[slot]) heap[slot] = d; }
  float s = 0; for (int k = 0; k < 10; k++) s += heap[k]; result[i] = s;
}
