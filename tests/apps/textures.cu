/* textures - CUDA arrays, texture and surface objects through the runtime
 * API, in the style of the CUDA samples (simpleTexture, simpleSurfaceWrite,
 * simpleLayeredTexture, simpleCubemapTexture): every result checked on the
 * host against values computed here.
 *   1. a 2D float image in an array (cudaMemcpy2DToArray), copied through
 *      tex2D with point sampling, then sampled halfway between texels with
 *      bilinear filtering and normalized coordinates (clamped at the edge);
 *   2. a 2D layered int surface written by surf2DLayeredwrite, read back by
 *      cudaMemcpy3D;
 *   3. tex1Dfetch on linear memory, 0 out of range;
 *   4. tex3D on a 3D array filled by cudaMemcpy3D, border addressing;
 *   5. tex2D on pitched memory (cudaMallocPitch);
 *   6. uchar4 texels read as normalized floats;
 *   7. a cubemap: the centre of each face. */
#include <cmath>

#include "app_util.h"

__global__ void copyTex(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void halfwayTex(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, (x + 1.0f) / w, (y + 0.5f) / h);
}

__global__ void writeSurf(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
  if (x < w && y < h) surf2DLayeredwrite<int>(l * 10000 + y * 100 + x, s, x * 4, y, l);
}

__global__ void fetchLinear(cudaTextureObject_t t, int *out, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i - shift);
}

__global__ void volume(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w) out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void rgba(cudaTextureObject_t t, float4 *out, int w) {
  int x = threadIdx.x;
  if (x < w) out[x] = tex1D<float4>(t, x + 0.5f);
}

__global__ void faces(cudaTextureObject_t t, float *out) {
  const float d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  int f = threadIdx.x;
  if (f < 6) out[f] = texCubemap<float>(t, d[f][0], d[f][1], d[f][2]);
}

static cudaTextureObject_t texture(const cudaResourceDesc &rd, cudaTextureAddressMode mode, bool linear, bool norm,
                                   bool normalizedRead = false) {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = normalizedRead ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = norm;
  cudaTextureObject_t t;
  CHECK_CUDA(cudaCreateTextureObject(&t, &rd, &td, NULL));
  return t;
}

static cudaResourceDesc of_array(cudaArray_t a) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  return rd;
}

static const int W = 70, H = 33;

/* 1: point copy and bilinear halfway samples of a W x H image. */
static long image(float *dev, long *total) {
  static float h[W * H], o[W * H];
  for (int i = 0; i < W * H; i++) h[i] = (float)(i % 97);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK_CUDA(cudaMallocArray(&arr, &cd, W, H));
  CHECK_CUDA(cudaMemcpy2DToArray(arr, 0, 0, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  cudaTextureObject_t point = texture(of_array(arr), cudaAddressModeClamp, false, false);
  cudaTextureObject_t bilinear = texture(of_array(arr), cudaAddressModeClamp, true, true);
  dim3 b(16, 16), g((W + 15) / 16, (H + 15) / 16);
  long wrong = 0;
  copyTex<<<g, b>>>(point, dev, W, H);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(o, dev, sizeof o, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) wrong += o[i] != h[i];
  halfwayTex<<<g, b>>>(bilinear, dev, W, H);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(o, dev, sizeof o, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      float want = 0.5f * (h[y * W + x] + h[y * W + (x + 1 < W ? x + 1 : W - 1)]);
      wrong += std::fabs(o[y * W + x] - want) > 1e-3f;
    }
  CHECK_CUDA(cudaDestroyTextureObject(point));
  CHECK_CUDA(cudaDestroyTextureObject(bilinear));
  CHECK_CUDA(cudaFreeArray(arr));
  *total += 2 * W * H;
  return wrong;
}

/* 2: a layered surface of 40 x 20 ints, 3 layers. */
static long surface(long *total) {
  static int back[3][20][40];
  cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
  cudaArray_t sa;
  CHECK_CUDA(cudaMalloc3DArray(&sa, &ci, make_cudaExtent(40, 20, 3), cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaResourceDesc sd = of_array(sa);
  cudaSurfaceObject_t s;
  CHECK_CUDA(cudaCreateSurfaceObject(&s, &sd));
  writeSurf<<<dim3(20, 3), 64>>>(s, 40, 20);
  CHECK_LAUNCH();
  cudaMemcpy3DParms p = {};
  p.srcArray = sa;
  p.dstPtr = make_cudaPitchedPtr(back, 40 * sizeof(int), 40, 20);
  p.extent = make_cudaExtent(40, 20, 3);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&p));
  long wrong = 0;
  for (int l = 0; l < 3; l++)
    for (int y = 0; y < 20; y++)
      for (int x = 0; x < 40; x++) wrong += back[l][y][x] != l * 10000 + y * 100 + x;
  CHECK_CUDA(cudaDestroySurfaceObject(s));
  CHECK_CUDA(cudaFreeArray(sa));
  *total += 3 * 20 * 40;
  return wrong;
}

/* 3: tex1Dfetch of 50 ints, 3 before and 3 past the end reading 0. */
static long linear(long *total) {
  int hl[50], ho[56], *lin, *out;
  for (int i = 0; i < 50; i++) hl[i] = i * 3;
  CHECK_CUDA(cudaMalloc(&lin, sizeof hl));
  CHECK_CUDA(cudaMalloc(&out, sizeof ho));
  CHECK_CUDA(cudaMemcpy(lin, hl, sizeof hl, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = lin;
  rd.res.linear.desc = cudaCreateChannelDesc<int>();
  rd.res.linear.sizeInBytes = sizeof hl;
  cudaTextureObject_t t = texture(rd, cudaAddressModeWrap, false, false);
  fetchLinear<<<1, 64>>>(t, out, 56, 3);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int i = 0; i < 56; i++) wrong += ho[i] != (i >= 3 && i - 3 < 50 ? (i - 3) * 3 : 0);
  CHECK_CUDA(cudaDestroyTextureObject(t));
  CHECK_CUDA(cudaFree(lin));
  CHECK_CUDA(cudaFree(out));
  *total += 56;
  return wrong;
}

/* 4 and 5: a 12 x 7 x 5 volume through tex3D, its first slice through a
 * pitched 2D texture. */
static long volume_and_pitched(float *dev, long *total) {
  const int X = 12, Y = 7, Z = 5;
  static float hv[Z][Y][X], o[Z][Y][X];
  for (int i = 0; i < X * Y * Z; i++) (&hv[0][0][0])[i] = i * 0.5f;
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t a3;
  CHECK_CUDA(cudaMalloc3DArray(&a3, &cf, make_cudaExtent(X, Y, Z)));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(hv, X * sizeof(float), X, Y);
  p.dstArray = a3;
  p.extent = make_cudaExtent(X, Y, Z);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));
  cudaTextureObject_t t3 = texture(of_array(a3), cudaAddressModeBorder, false, false);
  volume<<<dim3(Y, Z), 32>>>(t3, dev, X, Y);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(o, dev, sizeof o, cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int i = 0; i < X * Y * Z; i++) wrong += (&o[0][0][0])[i] != (&hv[0][0][0])[i];
  size_t pitch;
  float *pm;
  CHECK_CUDA(cudaMallocPitch((void **)&pm, &pitch, X * sizeof(float), Y));
  CHECK_CUDA(cudaMemcpy2D(pm, pitch, hv[0], X * sizeof(float), X * sizeof(float), Y, cudaMemcpyHostToDevice));
  cudaResourceDesc pd = {};
  pd.resType = cudaResourceTypePitch2D;
  pd.res.pitch2D.devPtr = pm;
  pd.res.pitch2D.desc = cf;
  pd.res.pitch2D.width = X;
  pd.res.pitch2D.height = Y;
  pd.res.pitch2D.pitchInBytes = pitch;
  cudaTextureObject_t tp = texture(pd, cudaAddressModeClamp, false, false);
  copyTex<<<dim3(1, 1), dim3(16, 16)>>>(tp, dev, X, Y);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(o, dev, X * Y * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < X * Y; i++) wrong += (&o[0][0][0])[i] != (&hv[0][0][0])[i];
  CHECK_CUDA(cudaDestroyTextureObject(t3));
  CHECK_CUDA(cudaDestroyTextureObject(tp));
  CHECK_CUDA(cudaFreeArray(a3));
  CHECK_CUDA(cudaFree(pm));
  *total += X * Y * Z + X * Y;
  return wrong;
}

/* 6 and 7: uchar4 read as normalized floats; a 4 x 4 cubemap whose face f
 * holds f + 1. */
static long rgba_and_cube(float *dev, long *total) {
  uchar4 px[16];
  for (int i = 0; i < 16; i++) px[i] = make_uchar4(i, 255 - i, 128, 255);
  cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a1;
  CHECK_CUDA(cudaMallocArray(&a1, &c4, 16, 0));
  CHECK_CUDA(cudaMemcpy2DToArray(a1, 0, 0, px, sizeof px, sizeof px, 1, cudaMemcpyHostToDevice));
  cudaTextureObject_t t1 = texture(of_array(a1), cudaAddressModeClamp, false, false, true);
  float4 o4[16];
  rgba<<<1, 32>>>(t1, (float4 *)dev, 16);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(o4, dev, sizeof o4, cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int i = 0; i < 16; i++)
    wrong += std::fabs(o4[i].x - i / 255.0f) > 1e-6f || std::fabs(o4[i].y - (255 - i) / 255.0f) > 1e-6f ||
             o4[i].w != 1.0f;
  static float cube[6][4][4];
  for (int f = 0; f < 6; f++)
    for (int i = 0; i < 16; i++) cube[f][i / 4][i % 4] = (float)(f + 1);
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t ac;
  CHECK_CUDA(cudaMalloc3DArray(&ac, &cf, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(cube, 4 * sizeof(float), 4, 4);
  p.dstArray = ac;
  p.extent = make_cudaExtent(4, 4, 6);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));
  cudaTextureObject_t tc = texture(of_array(ac), cudaAddressModeClamp, false, true);
  faces<<<1, 32>>>(tc, dev);
  CHECK_LAUNCH();
  float oc[6];
  CHECK_CUDA(cudaMemcpy(oc, dev, sizeof oc, cudaMemcpyDeviceToHost));
  for (int f = 0; f < 6; f++) wrong += oc[f] != (float)(f + 1);
  CHECK_CUDA(cudaDestroyTextureObject(t1));
  CHECK_CUDA(cudaDestroyTextureObject(tc));
  CHECK_CUDA(cudaFreeArray(a1));
  CHECK_CUDA(cudaFreeArray(ac));
  *total += 16 + 6;
  return wrong;
}

int main() {
  float *dev;
  CHECK_CUDA(cudaMalloc(&dev, 4 * W * H * sizeof(float)));
  long total = 0, wrong = image(dev, &total);
  wrong += surface(&total);
  wrong += linear(&total);
  wrong += volume_and_pitched(dev, &total);
  wrong += rgba_and_cube(dev, &total);
  CHECK_CUDA(cudaFree(dev));
  return app_verdict("textures", wrong, total);
}
