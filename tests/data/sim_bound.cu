// sim_bound.cu - fixtures of test_sim_bound.c: launches that share their
// memory, as warpmem run's do (sim_run_bound on one GlobalMem).

// A module variable with an initializer, and two pointers to it that the
// loader relocates once: one in the .global segment, one in the constant
// bank.  Relocated twice, they would point past it and the loads fault.
__device__ unsigned counter = 5;
__device__ unsigned *counter_ptr = &counter;
__constant__ unsigned *const_ptr = &counter;

extern "C" __global__ void fill(unsigned *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * i + 1;
}

extern "C" __global__ void twice(const unsigned *in, unsigned *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}

// One thread: counter += 1, then what both pointers read.
extern "C" __global__ void bump(unsigned *seen) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    atomicAdd(&counter, 1u);
    seen[0] = *counter_ptr;
    seen[1] = *const_ptr;
  }
}

// Thread 0 mallocs 100 bytes and never frees them: the heap keeps them
// across launches, so the next launch's allocation lies after.
extern "C" __global__ void keep(unsigned long long *where) {
  if (threadIdx.x == 0) {
    char *p = static_cast<char *>(malloc(100));
    if (p) p[99] = 1;
    where[0] = reinterpret_cast<unsigned long long>(p);
  }
}
