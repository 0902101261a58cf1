// conjugateGradient.cu - CG on a CSR matrix in one cooperative kernel: the
// whole grid synchronizes between the sparse product, the dot products and
// the vector updates (launch with cudaLaunchCooperativeKernel).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "census_common.h"

namespace cg = cooperative_groups;

__device__ double grid_dot_result;

__device__ void spmv(const int *rowPtr, const int *cols, const float *vals, const float *x, float *y, int n,
                     const cg::grid_group &grid) {
  for (int r = grid.thread_rank(); r < n; r += grid.size()) {
    float s = 0;
    for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) s += vals[k] * x[cols[k]];
    y[r] = s;
  }
}

__device__ void dot(const float *a, const float *b, double *result, int n, const cg::thread_block &cta,
                    const cg::grid_group &grid) {
  __shared__ double partial[32];
  double s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += (double)a[i] * b[i];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  s = cg::reduce(tile, s, cg::plus<double>());
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = s;
  cg::sync(cta);
  if (tile.meta_group_rank() == 0) {
    s = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0.0;
    s = cg::reduce(tile, s, cg::plus<double>());
    if (tile.thread_rank() == 0) atomicAdd(result, s);
  }
}

__global__ void gpuConjugateGradient(const int *rowPtr, const int *cols, const float *vals, float *x, float *Ax,
                                     float *p, float *r, double *dots, int n, int max_iter, float tol) {
  cg::thread_block cta = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  spmv(rowPtr, cols, vals, x, Ax, n, grid);
  for (int i = grid.thread_rank(); i < n; i += grid.size()) r[i] -= Ax[i], p[i] = r[i];
  if (grid.thread_rank() == 0) dots[0] = 0;
  grid.sync();
  dot(r, r, &dots[0], n, cta, grid);
  grid.sync();
  for (int k = 0; k < max_iter && dots[0] > tol * tol; k++) {
    spmv(rowPtr, cols, vals, p, Ax, n, grid);
    if (grid.thread_rank() == 0) dots[1] = 0;
    grid.sync();
    dot(p, Ax, &dots[1], n, cta, grid);
    grid.sync();
    float alpha = (float)(dots[0] / dots[1]);
    for (int i = grid.thread_rank(); i < n; i += grid.size()) x[i] += alpha * p[i], r[i] -= alpha * Ax[i];
    double old = dots[0];
    grid.sync();
    if (grid.thread_rank() == 0) dots[0] = 0;
    grid.sync();
    dot(r, r, &dots[0], n, cta, grid);
    grid.sync();
    float beta = (float)(dots[0] / old);
    for (int i = grid.thread_rank(); i < n; i += grid.size()) p[i] = r[i] + beta * p[i];
    grid.sync();
  }
  if (grid.thread_rank() == 0) grid_dot_result = dots[0];
}

// A smaller cooperative kernel: a grid-wide two-phase sum.
__global__ void grid_sum(const float *in, float *partial, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  float s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += in[i];
  s = cg::reduce(cg::tiled_partition<32>(cg::this_thread_block()), s, cg::plus<float>());
  if ((threadIdx.x & 31) == 0) atomicAdd(&partial[blockIdx.x], s);
  grid.sync();
  if (grid.thread_rank() == 0) {
    float t = 0;
    for (unsigned b = 0; b < gridDim.x; b++) t += partial[b];
    *out = t;
  }
}
