// wide_int.cu - integer code beyond 64 bits and below 32: __int128
// multiply-accumulate (nvcc's carry chains: mul.lo/mul.hi, add.cc, addc,
// madc), a 128-bit signed difference (sub.cc, subc), an int8 dot product
// with __dp4a (the quantized-inference inner loop) and a block-matching sum
// of absolute differences with __vsadu4 (vabsdiff4 with .add).
// tests/test_corpus_intops.c checks every output against a CPU reference.

// out = a * b + c modulo 2^128, grid-stride over n values.
//! group: wide_int
//! title: integers beyond 64 bits and below 32
//! exp: int128
//! title: __int128 multiply-accumulate and difference (carry chains)
//@ wide_mac grid=2 block=128 args=buf:u64:1024:rand,buf:u64:1024:rand,buf:u64:1024:rand,buf:u64:1024:zero,i32:512
__global__ void wide_mac(const unsigned __int128 *__restrict__ a, const unsigned __int128 *__restrict__ b,
                         const unsigned __int128 *__restrict__ c, unsigned __int128 *__restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = a[i] * b[i] + c[i];
}

// A signed 128-bit difference and whether it is negative, from 64-bit
// halves as a bignum library stores them.
struct Int128Parts {
  unsigned long long lo;
  long long hi;
};
//@ wide_diff grid=1 block=256 args=buf:u64:512:rand,buf:u64:512:rand,buf:u64:512:zero,buf:i32:256:zero,i32:256
__global__ void wide_diff(const Int128Parts *__restrict__ x, const Int128Parts *__restrict__ y,
                          Int128Parts *__restrict__ d, int *__restrict__ negative, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __int128 a = ((__int128)x[i].hi << 64) | x[i].lo, b = ((__int128)y[i].hi << 64) | y[i].lo;
  __int128 r = a - b;
  d[i].lo = (unsigned long long)r;
  d[i].hi = (long long)(r >> 64);
  negative[i] = r < 0;
}

// y[row] = sum over k of A[row][k] * x[k], int8 values packed four to an
// int, 32-bit accumulators: one warp per row, a shuffle reduction.
//! exp: int8_simd
//! title: __dp4a dot product and __vsadu4 sum of absolute differences
//@ dot_int8 grid=8 block=128 args=buf:i32:2048:rand,buf:i32:64:rand,buf:i32:32:zero,i32:32,i32:64
__global__ void dot_int8(const int *__restrict__ A, const int *__restrict__ x, int *__restrict__ y, int rows,
                         int k4) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;
  int acc = 0;
  for (int k = lane; k < k4; k += 32) acc = __dp4a(A[warp * k4 + k], x[k], acc);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[warp] = acc;
}

// Sum of absolute differences of a 16x16-byte block against 8 candidate
// positions of a reference row (motion estimation), 4 pixels per word.
//@ block_sad grid=1 block=64 args=buf:u32:1024:rand,buf:u32:1024:rand,buf:u32:64:zero
__global__ void block_sad(const unsigned *__restrict__ cur, const unsigned *__restrict__ ref,
                          unsigned *__restrict__ sad) {
  int cand = threadIdx.x; // candidate offset in words
  unsigned s = 0;
  for (int r = 0; r < 16; r++)
#pragma unroll
    for (int w = 0; w < 4; w++) s += __vsadu4(cur[r * 4 + w], ref[r * 4 + w + cand]);
  sad[cand] = s;
}
