// deviceGlobals.cu - state at module scope: __device__ counters and arrays
// (initialised and not), __managed__ variables shared with the host,
// __constant__ tables and structs, and static shared arrays of structs.
#include "census_common.h"

__device__ unsigned d_counter;
__device__ int d_lookup[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
__device__ float d_scale = 2.5f;
__managed__ int m_flags[64];
__managed__ double m_total;

struct Coeffs {
  float a, b, c;
  int order;
};
__constant__ Coeffs c_poly = {1.0f, -0.5f, 0.25f, 2};
__constant__ float c_weights[256];
__constant__ double c_table[8] = {1, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125};
__constant__ int2 c_offsets[4] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};

__global__ void popcount_nibbles(const unsigned *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i], c = 0;
#pragma unroll
  for (int k = 0; k < 8; k++) c += d_lookup[(v >> (4 * k)) & 15];
  out[i] = c;
  if (c > 16) atomicAdd(&d_counter, 1u);
}

__global__ void poly_eval(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], r = c_poly.a + v * (c_poly.b + v * c_poly.c);
  y[i] = c_poly.order > 1 ? r * d_scale * c_weights[i & 255] : r;
}

__global__ void managed_update(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 64) m_flags[i] = i * 2;
  if (i < n) atomicAdd(&m_total, c_table[i & 7]);
}

struct Cell {
  float density;
  short type;
  char flags[2];
};

__global__ void neighbours(const Cell *grid, float *out, int w, int h) {
  __shared__ Cell tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = grid[y * w + x];
  __syncthreads();
  float s = 0;
#pragma unroll
  for (int k = 0; k < 4; k++) {
    int tx = threadIdx.x + c_offsets[k].x, ty = threadIdx.y + c_offsets[k].y;
    if (tx >= 0 && tx < 16 && ty >= 0 && ty < 16 && tile[ty][tx].type) s += tile[ty][tx].density;
  }
  out[y * w + x] = s;
}
