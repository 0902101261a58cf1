// simpleTexture.cu - reading through the texture path with texture objects
// (bindless): a rotated 2D image sampled with linear filtering and
// normalized coordinates, 1D fetches from linear memory, a 3D volume,
// layered and gather reads; and surface writes (simpleSurfaceWrite).
#include "census_common.h"

__global__ void transformKernel(float *outputData, int width, int height, float theta, cudaTextureObject_t tex) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  float u = (float)x - (float)width / 2, v = (float)y - (float)height / 2;
  float tu = u * cosf(theta) - v * sinf(theta), tv = v * cosf(theta) + u * sinf(theta);
  tu /= (float)width;
  tv /= (float)height;
  outputData[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}

__global__ void fetch1D(float4 *out, cudaTextureObject_t linear_tex, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(linear_tex, i);
}

__global__ void sample3D(float *out, cudaTextureObject_t vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int z = 0; z < nz; z++) s += tex3D<float>(vol, x + 0.5f, y + 0.5f, z + 0.5f);
  out[y * nx + x] = s / nz;
}

__global__ void layered_and_gather(float *out, cudaTextureObject_t layered, cudaTextureObject_t img, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float a = tex2DLayered<float>(layered, x + 0.5f, y + 0.5f, 1);
  float4 g = tex2Dgather<float4>(img, x + 0.5f, y + 0.5f, 0);
  float l = tex2DLod<float>(img, x + 0.5f, y + 0.5f, 0.0f);
  out[y * w + x] = a + g.x + g.y + g.z + g.w + l;
}

// simpleSurfaceWrite: read through a texture, write through a surface
__global__ void surfaceWriteKernel(cudaSurfaceObject_t outputSurface, cudaTextureObject_t in, int width, int height,
                                   float theta) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float v = tex2D<float>(in, x + 0.5f, y + 0.5f);
  float old;
  surf2Dread(&old, outputSurface, x * sizeof(float), y);
  surf2Dwrite(v * theta + old, outputSurface, x * sizeof(float), y);
}

__global__ void surface1D(cudaSurfaceObject_t s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uchar4 px = surf1Dread<uchar4>(s, i * 4, cudaBoundaryModeClamp);
    surf1Dwrite(make_uchar4(px.z, px.y, px.x, 255), s, i * 4);
  }
}

// A simple box filter over a 2D texture, the kind used in image samples.
template <int R>
__global__ void box_filter(float *out, cudaTextureObject_t tex, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0;
#pragma unroll
  for (int dy = -R; dy <= R; dy++)
#pragma unroll
    for (int dx = -R; dx <= R; dx++) s += tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
  out[y * w + x] = s / ((2 * R + 1) * (2 * R + 1));
}

template __global__ void box_filter<2>(float *, cudaTextureObject_t, int, int);
