// racecheck.cu - a shared-memory race, a global-memory race within a
// block, and their corrected twins (tests/test_check.c asserts the lines).
//@ smem_race grid=2 block=64 args=buf:f32:128:zero,buf:f32:128:iota
//@ smem_fixed grid=2 block=64 args=buf:f32:128:zero,buf:f32:128:iota
//@ global_race grid=2 block=64 args=buf:i32:2:zero
//@ global_fixed grid=2 block=64 args=buf:i32:2:zero

// Reverses a block's 64 values through shared memory, without the barrier
// between the writes and the reads: thread t reads what thread 63 - t of
// the other warp writes.
extern "C" __global__ void smem_race(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  out[blockIdx.x * 64 + t] = s[63 - t];
}

extern "C" __global__ void smem_fixed(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  out[blockIdx.x * 64 + t] = s[63 - t];
}

// Counts a block's threads with a plain increment: a read-modify-write of
// one global word by every thread.
extern "C" __global__ void global_race(int *count) {
  count[blockIdx.x] += 1;
}

extern "C" __global__ void global_fixed(int *count) {
  atomicAdd(&count[blockIdx.x], 1);
}
