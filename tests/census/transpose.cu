// transpose.cu - the matrix transpose variants: a plain copy for the
// bandwidth ceiling, naive, coalesced through shared memory, padded against
// bank conflicts, and diagonal block order against partition camping.
#include "census_common.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void copy(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * width + x] = idata[(y + j) * width + x];
}

__global__ void transposeNaive(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeNoBankConflicts(float *odata, const float *__restrict__ idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = __ldg(&idata[(y + j) * width + x]);
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeDiagonal(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int bx, by;
  if (width == height) {
    by = blockIdx.x;
    bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  } else {
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    by = bid % gridDim.y;
    bx = ((bid / gridDim.y) + by) % gridDim.x;
  }
  int x = bx * TILE_DIM + threadIdx.x, y = by * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = by * TILE_DIM + threadIdx.x;
  y = bx * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// A templated element type and any matrix shape (bounds checked).
template <typename T>
__global__ void transpose_generic(T *__restrict__ out, const T *__restrict__ in, int rows, int cols) {
  __shared__ T tile[TILE_DIM][TILE_DIM + 1];
  int c = blockIdx.x * TILE_DIM + threadIdx.x, r0 = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (c < cols && r0 + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r0 + j) * cols + c];
  __syncthreads();
  int oc = blockIdx.y * TILE_DIM + threadIdx.x, or0 = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (oc < rows && or0 + j < cols) out[(size_t)(or0 + j) * rows + oc] = tile[threadIdx.x][threadIdx.y + j];
}

template __global__ void transpose_generic<double>(double *, const double *, int, int);
template __global__ void transpose_generic<unsigned char>(unsigned char *, const unsigned char *, int, int);
template __global__ void transpose_generic<short>(short *, const short *, int, int);
