// Recursive device functions, as a user writes them: a naive Fibonacci
// (each lane recurses to a different depth, so the warp diverges inside the
// recursion) and a depth-first reduction over an implicit binary tree whose
// frames keep a scratch array indexed at run time, so it lives in the
// thread's local memory (the call stack).
//! group: calls_recursive
//! title: recursive device functions
//! exp: fib
//! title: divergent recursion depth per lane
//@ fib_kernel grid=2 block=64 args=buf:i32:128,i32:13
//! exp: tree
//! title: a tree walk with a scratch array in local memory
//@ tree_kernel grid=3 block=64 args=buf:i32:1024:rand,buf:i32:192
#include <cstdint>

__device__ __noinline__ int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

__global__ void fib_kernel(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = fib(t % n);
}

// The depth is the same for all lanes of a warp (it depends on the block),
// the values differ: every lane walks the same tree shape.
__device__ __noinline__ int tree_reduce(const int *v, int node, int depth, int sel) {
  int scratch[8];
#pragma unroll
  for (int k = 0; k < 8; k++) scratch[k] = v[(node + k) & 1023] ^ k;
  int mine = scratch[sel & 7];
  if (depth == 0) return mine;
  int l = tree_reduce(v, 2 * node + 1, depth - 1, sel + 1);
  int r = tree_reduce(v, 2 * node + 2, depth - 1, sel + 3);
  return mine + l - (r >> 1);
}

__global__ void tree_kernel(const int *v, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int depth = 2 + blockIdx.x;
  out[t] = tree_reduce(v, threadIdx.x & 15, depth, threadIdx.x);
}
