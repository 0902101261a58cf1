//! nvcc: -rdc=true
/* rdc_funcs.cu - the other half of rdc_kernels.cu: the definitions of its
 * extern variable and functions, and a static `hits` of its own. */
__device__ int counter;
__device__ float factor = 3.0f;
static __device__ int hits = 7;

__device__ float scale(float x) { return x * factor + 1.0f; }
__device__ int peekCounter() { return counter; }
__device__ int peekHits() { return hits; }
