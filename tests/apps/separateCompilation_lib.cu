/* separateCompilation_lib - the other file of separateCompilation.cu: the
 * device functions and the counter it uses, and a kernel reading it. */
__device__ unsigned calls;

__device__ float transform(float x) { return 2.0f * x + 1.0f; }
__device__ float negate(float x) { return -x; }

__global__ void readCalls(unsigned *out) { *out = calls; }
