// synccheck.cu - barrier and warp-mask misuse, and the corrected twins
// (tests/test_check.c asserts the lines).
//@ sync_divergent grid=1 block=64 args=buf:f32:64:zero
//@ sync_fixed grid=1 block=64 args=buf:f32:64:zero
//@ shfl_exited grid=1 block=32 args=buf:i32:32:zero
//@ shfl_fixed grid=1 block=32 args=buf:i32:32:zero
//@ count_mismatch grid=1 block=128 args=buf:i32:128:zero
//@ count_fixed grid=1 block=128 args=buf:i32:128:zero
//@ two_barriers grid=1 block=64 args=buf:f32:64:zero

// __syncthreads() reached by half of each warp.
extern "C" __global__ void sync_divergent(float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = t;
  if (t % 32 < 16) __syncthreads();
  out[t] = s[63 - t];
}

extern "C" __global__ void sync_fixed(float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[63 - t];
}

// The upper half of the warp has exited; the mask still names it.
extern "C" __global__ void shfl_exited(int *out) {
  int t = threadIdx.x;
  if (t >= 16) return;
  int v = __shfl_down_sync(0xffffffffu, t, 1);
  out[t] = v;
}

extern "C" __global__ void shfl_fixed(int *out) {
  int t = threadIdx.x;
  if (t >= 16) return;
  int v = __shfl_down_sync(0x0000ffffu, t, 1);
  out[t] = v;
}

// Named barrier 1: the first warp says 64 threads take part, the others 128.
extern "C" __global__ void count_mismatch(int *out) {
  int t = threadIdx.x;
  unsigned n = t < 32 ? 64 : 128;
  out[t] = t;
  asm volatile("bar.sync 1, %0;" ::"r"(n) : "memory");
  out[t] += 1;
}

extern "C" __global__ void count_fixed(int *out) {
  int t = threadIdx.x;
  unsigned n = 128;
  out[t] = t;
  asm volatile("bar.sync 1, %0;" ::"r"(n) : "memory");
  out[t] += 1;
}

// Warp 0 waits at one __syncthreads(), warp 1 at another: the barrier
// completes, but the block's threads took different paths to it (the fix is
// sync_fixed's single barrier).
extern "C" __global__ void two_barriers(float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t < 32) {
    s[t] = t;
    __syncthreads();
  } else {
    s[t] = -t;
    __syncthreads();
  }
  out[t] = s[63 - t];
}

// Every lane shuffles with the mask of the lower half: lanes 16-31 execute
// __shfl_sync with a mask that does not name them (undefined in PTX).
//@ shfl_outside grid=1 block=32 args=buf:i32:32:zero
extern "C" __global__ void shfl_outside(int *out) {
  int t = threadIdx.x;
  out[t] = __shfl_sync(0x0000ffffu, t, 0);
}

// Correct code: threads past the end return before the barrier (they have
// exited on the GPU; the emulator parks them where they reconverge).
//@ early_return grid=3 block=128 args=buf:f32:300:zero,buf:f32:300:iota,i32:300
extern "C" __global__ void early_return(float *out, const float *in, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  int j = threadIdx.x ^ 1;
  if (blockIdx.x * 128 + j < n) out[i] = s[j];
}
