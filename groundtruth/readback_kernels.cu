// Read-back probes (issue 13): a warp loads a word, stores it back plus
// one, and loads again at once from the same sector, the same word, or
// another sector of the same line.  Measured because the seed's
// local_heap, the variant set's local_heap#2048 and #b256 and the lab's
// row_per_thread and ten_nn read 1.4-2.5x the L2 sectors the model reads:
// loads of sectors the warp has just stored to miss L1 on the GPUs now
// and then.  Each //@ line is one launch (the grammar of seed_kernels.cu);
// buffers zero-filled when measured, so z = 0 at run time.
//
// rb(A, step, z, n, k): thread t walks words of its own 128-byte line
// (lane_words 32) or its warp's line (lane_words 1), n iterations of
//   v = A[i]; A[i] = v + 1; i = base + (i - base + step) % span + v*z (k ALU
//   steps of delay on v*z first)
// so the next address depends on the loaded value (ptxas cannot hoist the
// load above the store) and on k dependent integer steps.
// step 0: the same word; 1: the next word of the sector (span 8);
// 8: the next sector of the line (span 32).  rb_ro: the same walk with no
// store (the L1's own misses).
//@ rb#own_same_k0 grid=132 block=32 args=buf:i32:135168,i32:0,i32:0,i32:64,i32:0,i32:32
//@ rb#own_word_k0 grid=132 block=32 args=buf:i32:135168,i32:1,i32:0,i32:64,i32:0,i32:32
//@ rb#own_sect_k0 grid=132 block=32 args=buf:i32:135168,i32:8,i32:0,i32:64,i32:0,i32:32
//@ rb#own_word_k16 grid=132 block=32 args=buf:i32:135168,i32:1,i32:0,i32:64,i32:16,i32:32
//@ rb#own_word_k128 grid=132 block=32 args=buf:i32:135168,i32:1,i32:0,i32:64,i32:128,i32:32
//@ rb#own_word_k0w8 grid=132 block=256 args=buf:i32:1081344,i32:1,i32:0,i32:64,i32:0,i32:32
//@ rb#warp_same_k0 grid=132 block=32 args=buf:i32:4224,i32:0,i32:0,i32:64,i32:0,i32:1
//@ rb#warp_same_k16 grid=132 block=32 args=buf:i32:4224,i32:0,i32:0,i32:64,i32:16,i32:1
//@ rb#warp_same_k0w8 grid=132 block=256 args=buf:i32:33792,i32:0,i32:0,i32:64,i32:0,i32:1
extern "C" __global__ void rb(int *A, int step, int z, int n, int k, int lane_words) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int span = step == 8 ? 32 : 8;
  long base = lane_words == 1 ? (long)(t >> 5) * 32 + (t & 31) : (long)t * 32;
  int off = 0;
  for (int j = 0; j < n; j++) {
    int v = A[base + off];
    A[base + off] = v + 1;
    int d = v * z;
    for (int s = 0; s < k; s++) d = d * 3 + z;
    off = lane_words == 1 ? d : (off + step) % span + d;
  }
}
//@ rb_ro#own_word_k0 grid=132 block=32 args=buf:i32:135168,i32:1,i32:0,i32:64,i32:0,i32:32
//@ rb_ro#warp_same_k0 grid=132 block=32 args=buf:i32:4224,i32:0,i32:0,i32:64,i32:0,i32:1
extern "C" __global__ void rb_ro(int *A, int step, int z, int n, int k, int lane_words) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int span = step == 8 ? 32 : 8;
  long base = lane_words == 1 ? (long)(t >> 5) * 32 + (t & 31) : (long)t * 32;
  int off = 0, acc = 0;
  for (int j = 0; j < n; j++) {
    int v = A[base + off];
    acc += v;
    int d = v * z;
    for (int s = 0; s < k; s++) d = d * 3 + z;
    off = lane_words == 1 ? d : (off + step) % span + d;
  }
  if (acc == 12345) A[base] = 0; /* never with zeroed buffers: keeps the loads */
}
