// Kernels that fail at run time, for tests/test_cli_errors.c.
// Regenerate the PTX with:
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo bad_kernels.cu -o bad_kernels.ptx
// The tests find the source line of each fault by the marker comment at its
// end ("// FAULT: name"), so lines may move.

// Reads in[i] for every thread: a buffer shorter than the grid is overrun.
extern "C" __global__ void oob_load(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 2.0f; // FAULT: oob_load
}

// Writes s[threadIdx.x * k]: k = 2 writes past the 64 floats of s.
extern "C" __global__ void oob_shared(float* out, int k) {
  __shared__ float s[64];
  s[threadIdx.x * k] = (float)threadIdx.x; // FAULT: oob_shared
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// A float load at in + off bytes: off = 1 is misaligned.
extern "C" __global__ void misaligned(const float* in, float* out, int off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* p = (const float*)((const char*)in + off);
  out[i] = p[i]; // FAULT: misaligned
}

// Integer division by b[i]: zero-filled b divides by zero.
extern "C" __global__ void divide(int* out, const int* a, const int* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] / b[i]; // FAULT: divide
}

// Warp 0 waits at barrier 0, the others at barrier 1: each barrier waits
// for every thread of the block, so neither ever completes (a hang on a GPU).
extern "C" __global__ void deadlock(int* out) {
  if (threadIdx.x < 32) {
    __syncthreads(); // FAULT: deadlock
  } else {
    asm volatile("bar.sync 1;"); // FAULT: deadlock1
  }
  out[threadIdx.x] = threadIdx.x;
}

// A well-behaved kernel with a 32-bit scalar parameter.
extern "C" __global__ void scale(float* a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

// __ldg is an inline function of the CUDA headers: the fault's CUDA line
// must still name this file's line (the .loc's inlined_at), not the header's.
extern "C" __global__ void oob_ldg(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __ldg(&in[i]); // FAULT: oob_ldg
}
