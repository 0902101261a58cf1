// printf from device code: several conversions, widths, precisions and
// length modifiers, divergent lanes printing different formats, and string
// arguments (a table of names in __device__ memory), as debugging output
// is written.
//! group: printf
//! title: printf from device code
//! exp: printf_formats
//! title: conversions, widths, divergent lanes, strings
//@ printf_kernel grid=2 block=40 args=buf:f32:80:iota,i32:20
#include <cstdio>

__device__ const char *names[3] = {"red", "green", "blue"};

__global__ void printf_kernel(const float *x, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[t] * 0.37f;
  if (threadIdx.x == 0) printf("block %d of %d: %u threads\n", blockIdx.x, gridDim.x, blockDim.x);
  if (t % 3 == 0)
    printf("t=%-3d v=%8.3f e=%.2e hex=%#06x s=%s|%5.2s|\n", t, v, v * 1000.0f, t * 17, names[(t / 3) % 3],
           names[2]);
  else if (t < n)
    printf("%5d|%-4u|%g|%c|%lld|%hd|%o|%X|%p|%%\n", t, (unsigned)t, v, 'a' + t % 26, (long long)t << 40,
           (short)(-t), t, 0xBEEF + t, (void *)(size_t)(t * 4096));
}
