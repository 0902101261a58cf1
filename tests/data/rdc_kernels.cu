//! nvcc: -rdc=true
/* rdc_kernels.cu - one half of a separately compiled program (-rdc=true):
 * the kernel, calling functions and updating a variable that rdc_funcs.cu
 * defines (test_ptx_merge.c links the two PTX texts).  `hits` is static
 * here and in rdc_funcs.cu: two objects of one name. */
extern __device__ int counter;
extern __device__ float scale(float x);
extern __device__ int peekCounter();
extern __device__ int peekHits();
static __device__ int hits;

__global__ void linked(float *out, int *cnt) {
  int i = threadIdx.x;
  atomicAdd(&counter, 1);
  atomicAdd(&hits, 2);
  out[i] = scale((float)i);
  __syncthreads();
  if (i == 0) {
    cnt[0] = peekCounter(); /* the other unit reads the same counter */
    cnt[1] = peekHits();    /* its own hits */
    cnt[2] = hits;
  }
}
