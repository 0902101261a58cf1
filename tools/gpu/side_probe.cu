// Which L2 partition each SM sits near, measured: the L2 keeps a line at
// its home partition and, once an SM on the other side reads it, a copy
// near that SM (docs/accuracy.md, session 26).  For each SM in turn: one
// block writes NLINES lines (the write goes to each line's home and, if
// the model is right, drops any copy), then a block on that SM reads each
// line once, bypassing L1, and times the load.  A line homed on the SM's
// side answers from there; one homed on the other side crosses the fabric
// and takes longer.  So each SM gets a near/far pattern over the lines,
// and the SMs of one side share theirs.
//
// Build and run on a GPU (the device machine), from the repository root:
//   nvcc -O2 -arch=sm_90 -o /tmp/side_probe tools/gpu/side_probe.cu && /tmp/side_probe > side.txt
// Output: "sm S: c0 c1 ... c(NLINES-1)", the clocks of each load.
#include <cstdio>
#include <cstdlib>

#define NLINES 256
#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

__device__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Thread i writes the first word of line i (32 floats a line).
__global__ void write_lines(unsigned *buf) { buf[threadIdx.x * 32] = threadIdx.x; }

// The block that lands on SM `target` times one L1-bypassing load of each
// line; every other block leaves at once.  The add that consumes the value
// makes the clock wait for it.
__global__ void time_lines(const unsigned *buf, unsigned target, long long *out, unsigned *found) {
  if (smid() != target || threadIdx.x != 0) return;
  if (atomicAdd(found, 1u) != 0) return; /* one block an SM */
  unsigned sum = 0;
#pragma unroll 1
  for (int i = 0; i < NLINES; i++) {
    long long t0 = clock64();
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buf + i * 32) : "memory");
    asm volatile("add.u32 %0, %0, %1;" : "+r"(sum) : "r"(v) : "memory");
    long long t1 = clock64();
    out[i] = t1 - t0;
  }
  if (sum == 0xffffffffu) out[0] = -1; /* keep sum alive */
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  int sms = p.multiProcessorCount;
  unsigned *buf, *found;
  long long *out;
  CHECK(cudaMalloc(&buf, NLINES * 128));
  CHECK(cudaMalloc(&out, NLINES * sizeof(long long)));
  CHECK(cudaMalloc(&found, sizeof(unsigned)));
  long long host[NLINES];
  printf("# %s, %d SMs, %d lines\n", p.name, sms, NLINES);
  for (int s = 0; s < sms; s++) {
    write_lines<<<1, NLINES>>>(buf);
    CHECK(cudaMemset(found, 0, sizeof(unsigned)));
    CHECK(cudaMemset(out, 0, NLINES * sizeof(long long)));
    time_lines<<<4 * sms, 32>>>(buf, (unsigned)s, out, found);
    CHECK(cudaDeviceSynchronize());
    unsigned f;
    CHECK(cudaMemcpy(&f, found, sizeof f, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    printf("sm %d:", s);
    if (!f) printf(" no block");
    else
      for (int i = 0; i < NLINES; i++) printf(" %lld", host[i]);
    printf("\n");
  }
  return 0;
}
