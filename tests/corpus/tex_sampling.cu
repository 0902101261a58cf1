// Textures and surfaces as real CUDA code uses them: texture objects
// (cudaTextureObject_t) sampled with tex1D/tex2D/tex3D, a gather, and a
// surface read-modify-write.  Checked by tests/test_corpus_tex.c against
// the CUDA programming guide's texture-fetching formulas.
#include <cuda_runtime.h>

// 5-point stencil: point sampling, clamp to the edge (unnormalized
// coordinates: texel centres are at +0.5).
//! group: tex_sampling
//! title: texture and surface objects
//! exp: stencil5
//! title: a 5-point stencil through tex2D, point sampling
//@ stencil5 grid=8,16 block=32,8 args=tex:f32:256x128:point:clamp,buf:f32:32768:zero,i32:256,i32:128
__global__ void stencil5(cudaTextureObject_t img, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float fx = x + 0.5f, fy = y + 0.5f;
  float c = tex2D<float>(img, fx, fy);
  float n = tex2D<float>(img, fx, fy - 1.0f) + tex2D<float>(img, fx, fy + 1.0f) +
            tex2D<float>(img, fx - 1.0f, fy) + tex2D<float>(img, fx + 1.0f, fy);
  out[y * w + x] = 0.5f * c + 0.125f * n;
}

// Bilinear resize: linear filtering, normalized coordinates.  T is float
// for one channel, float4 for RGBA8 read as normalized floats.
template <typename T>
__global__ void resize(cudaTextureObject_t src, T *dst, int ow, int oh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < ow && y < oh) dst[y * ow + x] = tex2D<T>(src, (x + 0.5f) / ow, (y + 0.5f) / oh);
}
template __global__ void resize<float>(cudaTextureObject_t, float *, int, int);
template __global__ void resize<float4>(cudaTextureObject_t, float4 *, int, int);
//! exp: resize
//! title: bilinear resize: float, and uchar4 read as normalized floats
//@ _Z6resizeIfEvyPT_ii grid=4,3 block=32,32 args=tex:f32:64x48:linear:clamp:norm,buf:f32:7500:zero,i32:100,i32:75
//@ _Z6resizeI6float4EvyPT_ii grid=4,3 block=32,32 args=tex:u8x4:64x48:linear:clamp:norm:normfloat,buf:f32:30000:zero,i32:100,i32:75

// Lookup table with wrap: a 1D texture indexed by normalized coordinates
// that leave [0, 1), linearly interpolated.
//! exp: lut1d
//! title: a wrapping 1D lookup table, linear
//@ lut1d grid=16 block=256 args=tex:f32:256:linear:wrap:norm,buf:f32:4096:rand,buf:f32:4096:zero,i32:4096
__global__ void lut1d(cudaTextureObject_t lut, const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(lut, 3.0f * in[i] - 1.0f);
}

// Volume fetch: trilinear filtering with a zero border around the volume.
//! exp: volume3d
//! title: trilinear fetches with a zero border
//@ volume3d grid=1,8,16 block=32,4 args=tex:f32:32x32x16:linear:border,buf:f32:16384:zero
__global__ void volume3d(cudaTextureObject_t vol, float *out) {
  int x = threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  float v = tex3D<float>(vol, x + 0.25f, y + 0.75f, z * 1.1f - 0.3f);
  out[(z * 32 + y) * 32 + x] = v;
}

// Gather: the green channel of the 2x2 footprint of each sample (tld4.g).
//! exp: gather
//! title: tex2Dgather of the green channel
//@ gather_g grid=2,8 block=32,4 args=tex:f32x2:64x32:point:clamp,buf:f32:8192:zero
__global__ void gather_g(cudaTextureObject_t t, float4 *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 64 + x] = tex2Dgather<float4>(t, x + 0.3f, y + 0.8f, 1);
}

// Surface read-modify-write: x is in bytes for surf2Dread/surf2Dwrite.
//! exp: surf_rmw
//! title: a surface read-modify-write
//@ surf_rmw grid=4,16 block=32,4 args=surf:f32:128x64:iota,f32:2,f32:1
__global__ void surf_rmw(cudaSurfaceObject_t s, float a, float b) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  float v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(a * v + b, s, x * 4, y);
}

// Probes for the tests: one fetch per thread at coordinates that step by
// (dx, dy) from (x0, y0), so a test can sweep the filter's weights and the
// address modes.
//! exp: fetch_probes
//! title: filter and address-mode probes: 1D, 2D mirror, tex1Dfetch, layered
//@ fetch1d grid=16 block=256 args=tex:f32:2:linear:clamp:iota,buf:f32:4096:zero,f32:0.5,f32:0.000244140625
__global__ void fetch1d(cudaTextureObject_t t, float *out, float x0, float dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1D<float>(t, x0 + dx * i);
}

//@ fetch2d grid=2,8 block=32,4 args=tex:f32x4:16x8:linear:mirror:norm,buf:f32:8192:zero,f32:-1.3,f32:0.05,f32:-0.7,f32:0.06
__global__ void fetch2d(cudaTextureObject_t t, float4 *out, float x0, float dx, float y0, float dy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * gridDim.x * blockDim.x + x] = tex2D<float4>(t, x0 + dx * x, y0 + dy * y);
}

// tex1Dfetch on linear memory (cudaResourceTypeLinear): integer
// coordinates, no filtering, 0 out of range.
//@ fetch1d_int grid=1 block=64 args=tex:i32:40:mem:iota,buf:i32:64:zero,i32:-8
__global__ void fetch1d_int(cudaTextureObject_t t, int *out, int x0) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch<int>(t, x0 + i);
}

// A layered 2D texture: one layer per block in z.
//@ fetch_layered grid=1,1,3 block=16,8 args=tex:f32:16x8x3:point:layered:iota,buf:f32:384:zero
__global__ void fetch_layered(cudaTextureObject_t t, float *out) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.z;
  out[(l * 8 + y) * 16 + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

// Surfaces out of range: .zero reads 0 and drops the store, .trap faults.
//! exp: surf_zero
//! title: surface accesses out of range (.zero)
//@ surf_zero grid=1 block=64 args=surf:u32:48:iota
__global__ void surf_zero(cudaSurfaceObject_t s) {
  int i = threadIdx.x;
  unsigned v = surf1Dread<unsigned>(s, i * 4, cudaBoundaryModeZero);
  surf1Dwrite(v + 1000u, s, i * 4, cudaBoundaryModeZero);
}
// (no //@ line: it faults on purpose; tests/test_corpus_tex.c runs it)
__global__ void surf_trap(cudaSurfaceObject_t s) {
  int i = threadIdx.x;
  unsigned v;
  surf1Dread(&v, s, i * 4);
  surf1Dwrite(v + 1u, s, i * 4);
}

// Cubemaps: each thread looks at the centre of texel (x, y) of face f from
// the cube's centre (the inverse of the programming guide's "Cubemap
// Fetch" table), so with iota texels out[i] == i.  The layered form reads
// cubemap l of several.
//! exp: cube_faces
//! title: a cubemap read back through texCubemap, one block row per face
//@ cube_faces grid=16,6 block=16 args=tex:f32:16x16:cube:iota,buf:f32:1536:zero,i32:16
__global__ void cube_faces(cudaTextureObject_t t, float *out, int w) {
  int x = threadIdx.x, y = blockIdx.x, f = blockIdx.y;
  float u = (x + 0.5f) / w * 2 - 1, v = (y + 0.5f) / w * 2 - 1;
  float3 d = f == 0   ? make_float3(1, -v, -u)
             : f == 1 ? make_float3(-1, -v, u)
             : f == 2 ? make_float3(u, 1, v)
             : f == 3 ? make_float3(u, -1, -v)
             : f == 4 ? make_float3(u, -v, 1)
                      : make_float3(-u, -v, -1);
  out[(f * w + y) * w + x] = texCubemap<float>(t, d.x, d.y, d.z);
}

//@ cube_layered grid=1 block=32 args=tex:f32:8x8x3:cube:layered:iota,buf:f32:32:zero,f32:0.3,i32:2
__global__ void cube_layered(cudaTextureObject_t t, float *out, float a, int l) {
  int i = threadIdx.x;
  float s = (i - 16) / 17.0f;  // sweeps across the +y face: |s| < 1 = y, the largest component
  out[i] = texCubemapLayered<float>(t, s, 1.0f, a, l);
}
