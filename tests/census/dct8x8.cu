// dct8x8.cu - 8x8 block DCT of an image: the forward transform as two
// matrix products with the cosine table in __constant__ memory, the
// quantization step, and a row/column butterfly version in shared memory.
#include "census_common.h"

#define BLOCK_SIZE 8
#define BLOCK_SIZE2 64

__constant__ float DCTv8matrix[BLOCK_SIZE2];
__constant__ short Q[BLOCK_SIZE2] = {32, 33, 51, 81, 66, 39, 34, 17, 33, 36, 48, 47, 28, 23, 12, 12,
                                     51, 48, 47, 28, 23, 12, 12, 12, 81, 47, 28, 23, 12, 12, 12, 12,
                                     66, 28, 23, 12, 12, 12, 12, 12, 39, 23, 12, 12, 12, 12, 12, 12,
                                     34, 12, 12, 12, 12, 12, 12, 12, 17, 12, 12, 12, 12, 12, 12, 12};

__global__ void CUDAkernel1DCT(float *Dst, int ImgWidth, const float *Src) {
  __shared__ float CurBlockLocal1[BLOCK_SIZE2];
  __shared__ float CurBlockLocal2[BLOCK_SIZE2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * BLOCK_SIZE + tx, y = blockIdx.y * BLOCK_SIZE + ty;
  CurBlockLocal1[ty * BLOCK_SIZE + tx] = Src[y * ImgWidth + x];
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int i = 0; i < BLOCK_SIZE; i++) acc += DCTv8matrix[ty * BLOCK_SIZE + i] * CurBlockLocal1[i * BLOCK_SIZE + tx];
  CurBlockLocal2[ty * BLOCK_SIZE + tx] = acc;
  __syncthreads();
  acc = 0.0f;
#pragma unroll
  for (int i = 0; i < BLOCK_SIZE; i++) acc += CurBlockLocal2[ty * BLOCK_SIZE + i] * DCTv8matrix[tx * BLOCK_SIZE + i];
  Dst[y * ImgWidth + x] = acc;
}

__global__ void CUDAkernelQuantization(float *SrcDst, int Stride) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * BLOCK_SIZE + tx, y = blockIdx.y * BLOCK_SIZE + ty;
  float v = SrcDst[y * Stride + x];
  float q = (float)Q[ty * BLOCK_SIZE + tx];
  SrcDst[y * Stride + x] = rintf(v / q) * q;
}

// Short-integer quantization, as the integer pipelines do it.
__global__ void CUDAkernelShortQuantization(short *SrcDst, int Stride) {
  int x = blockIdx.x * BLOCK_SIZE + threadIdx.x, y = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  short q = Q[threadIdx.y * BLOCK_SIZE + threadIdx.x];
  int v = SrcDst[y * Stride + x];
  int sign = v < 0 ? -1 : 1;
  v = (abs(v) + (q >> 1)) / q * q;
  SrcDst[y * Stride + x] = (short)(v * sign);
}

#define C_a 1.387039845322148f
#define C_b 1.306562964876377f
#define C_c 1.175875602419359f
#define C_d 0.785694958387102f
#define C_e 0.541196100146197f
#define C_f 0.275899379282943f
#define C_norm 0.3535533905932737f

__device__ void dct_vector(float *v, int stride) {
  float X07P = v[0] + v[7 * stride], X16P = v[stride] + v[6 * stride];
  float X25P = v[2 * stride] + v[5 * stride], X34P = v[3 * stride] + v[4 * stride];
  float X07M = v[0] - v[7 * stride], X61M = v[6 * stride] - v[stride];
  float X25M = v[2 * stride] - v[5 * stride], X43M = v[4 * stride] - v[3 * stride];
  float X07P34PP = X07P + X34P, X07P34PM = X07P - X34P, X16P25PP = X16P + X25P, X16P25PM = X16P - X25P;
  v[0] = C_norm * (X07P34PP + X16P25PP);
  v[2 * stride] = C_norm * (C_b * X07P34PM + C_e * X16P25PM);
  v[4 * stride] = C_norm * (X07P34PP - X16P25PP);
  v[6 * stride] = C_norm * (C_e * X07P34PM - C_b * X16P25PM);
  v[stride] = C_norm * (C_a * X07M - C_c * X61M + C_d * X25M - C_f * X43M);
  v[3 * stride] = C_norm * (C_c * X07M + C_f * X61M - C_a * X25M + C_d * X43M);
  v[5 * stride] = C_norm * (C_d * X07M + C_a * X61M + C_f * X25M - C_c * X43M);
  v[7 * stride] = C_norm * (C_f * X07M + C_d * X61M + C_c * X25M + C_a * X43M);
}

// one thread per row, then per column, of 8x8 blocks in shared memory
__global__ void CUDAkernel2DCT(float *dst, const float *src, int stride) {
  __shared__ float block[4 * BLOCK_SIZE][4 * BLOCK_SIZE + 1];
  int bx = blockIdx.x * 4 * BLOCK_SIZE, by = blockIdx.y * 4 * BLOCK_SIZE;
  for (int r = threadIdx.y; r < 4 * BLOCK_SIZE; r += blockDim.y)
    block[r][threadIdx.x] = src[(by + r) * stride + bx + threadIdx.x];
  __syncthreads();
  int row = threadIdx.y * BLOCK_SIZE + threadIdx.x / BLOCK_SIZE;
  if (threadIdx.y < 4) dct_vector(&block[row][(threadIdx.x % 4) * BLOCK_SIZE], 1);
  __syncthreads();
  if (threadIdx.y < 4) dct_vector(&block[(threadIdx.x % 4) * BLOCK_SIZE][row], 4 * BLOCK_SIZE + 1);
  __syncthreads();
  for (int r = threadIdx.y; r < 4 * BLOCK_SIZE; r += blockDim.y)
    dst[(by + r) * stride + bx + threadIdx.x] = block[r][threadIdx.x];
}
