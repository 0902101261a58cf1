// guard_kernels.cu - kernels that never end, for the watchdog's tests
// (tests/test_guard.c).  Each endless kernel has a twin that ends.
//
// A good launch before and after the endless ones: their reports must survive.
// The //! lines make the folder a catalogue for warpmem lab --dir.
//! group: guard
//! title: kernels that never end, between two that do
//! exp: endless
//! title: the watchdog's kernels
//@ scale grid=4 block=64 args=buf:f32:256:iota,f32:2
//@ count_forever grid=2 block=64 args=buf:u32:1:zero,buf:u32:128:zero
//@ poll_forever grid=1 block=32 args=buf:u32:1:zero,buf:u32:32:zero
//@ wait_for_all grid=8 block=32 args=buf:u32:1:zero
//@ count_to grid=2 block=64 args=i32:1000,buf:u32:128:zero
//@ scale#after grid=4 block=64 args=buf:f32:256:iota,f32:3

__global__ void scale(float *x, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] *= a;
}

// for (;;) i++ with a store each time: its registers change, so the spin
// watch cannot call it a spin; only the watchdog ends it.
__global__ void count_forever(unsigned *out, volatile unsigned *last) {
  unsigned i = 0;
  for (;;) {
    last[blockIdx.x * blockDim.x + threadIdx.x] = i++;
    if (i == 0) break; // never before 2^32 iterations
  }
  *out = i;
}

// while (flag != 12345) on memory nothing writes, with a counter beside it.
__global__ void poll_forever(volatile unsigned *flag, unsigned *polls) {
  unsigned n = 0;
  while (*flag != 12345u) n++;
  polls[threadIdx.x] = n;
}

// A grid barrier made by hand in a plain launch: every block waits until all
// have arrived, which needs every block resident (a cooperative launch).
__global__ void wait_for_all(unsigned *arrived) {
  if (threadIdx.x == 0) atomicAdd(arrived, 1u);
  while (*(volatile unsigned *)arrived < gridDim.x) {
  }
}

// count_forever's twin that ends: n iterations.
__global__ void count_to(int n, unsigned *last) {
  unsigned i = 0;
  for (int k = 0; k < n; k++) last[blockIdx.x * blockDim.x + threadIdx.x] = i++;
}
