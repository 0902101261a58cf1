/* driverTextures - CUDA arrays, texture and surface objects through the
 * driver API, as applications that load their own PTX use them: a 2D float
 * array filled by cuMemcpy2D and read by tex2D (texread), a 2D layered int
 * surface written by surf2DLayeredwrite (surfwrite) and read back by
 * cuMemcpy3D; every value checked on the host.  Linked with -lcuda.  The
 * PTX is what nvcc -ptx -arch=sm_90 makes of
 *   extern "C" __global__ void texread(cudaTextureObject_t t, float *out, int w, int h)
 *   { int x = threadIdx.x, y = blockIdx.x;
 *     if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f); }
 *   extern "C" __global__ void surfwrite(cudaSurfaceObject_t s, int w, int h)
 *   { int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
 *     if (x < w && y < h) surf2DLayeredwrite<int>(l * 10000 + y * 100 + x, s, x * 4, y, l); }
 * with its comments removed and its .version lowered to 8.0 (CUDA 12.0). */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "app_driver.h"


static const char *ptx = R"PTX(
.version 8.0
.target sm_90
.address_size 64
	// .globl	texread
.visible .entry texread(
	.param .u64 texread_param_0,
	.param .u64 texread_param_1,
	.param .u32 texread_param_2,
	.param .u32 texread_param_3
)
{
	.reg .pred 	%p<4>;
	.reg .f32 	%f<9>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [texread_param_0];
	ld.param.u64 	%rd2, [texread_param_1];
	ld.param.u32 	%r3, [texread_param_2];
	ld.param.u32 	%r4, [texread_param_3];
	mov.u32 	%r1, %tid.x;
	setp.ge.s32 	%p1, %r1, %r3;
	mov.u32 	%r2, %ctaid.x;
	setp.ge.s32 	%p2, %r2, %r4;
	or.pred  	%p3, %p1, %p2;
	@%p3 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd3, %rd2;
	cvt.rn.f32.s32 	%f1, %r1;
	add.f32 	%f2, %f1, 0f3F000000;
	cvt.rn.f32.s32 	%f3, %r2;
	add.f32 	%f4, %f3, 0f3F000000;
	tex.2d.v4.f32.f32 	{%f5, %f6, %f7, %f8}, [%rd1, {%f2, %f4}];
	mad.lo.s32 	%r5, %r2, %r3, %r1;
	mul.wide.s32 	%rd4, %r5, 4;
	add.s64 	%rd5, %rd3, %rd4;
	st.global.f32 	[%rd5], %f5;
$L__BB0_2:
	ret;
}
	// .globl	surfwrite
.visible .entry surfwrite(
	.param .u64 surfwrite_param_0,
	.param .u32 surfwrite_param_1,
	.param .u32 surfwrite_param_2
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [surfwrite_param_0];
	ld.param.u32 	%r3, [surfwrite_param_1];
	ld.param.u32 	%r4, [surfwrite_param_2];
	mov.u32 	%r1, %tid.x;
	setp.ge.s32 	%p1, %r1, %r3;
	mov.u32 	%r2, %ctaid.x;
	setp.ge.s32 	%p2, %r2, %r4;
	or.pred  	%p3, %p1, %p2;
	@%p3 bra 	$L__BB1_2;
	mov.u32 	%r5, %ctaid.y;
	mad.lo.s32 	%r6, %r2, 100, %r1;
	mad.lo.s32 	%r7, %r5, 10000, %r6;
	shl.b32 	%r8, %r1, 2;
	sust.b.a2d.b32.trap 	[%rd1, {%r5, %r8, %r2, %r2}], {%r7};
$L__BB1_2:
	ret;
}
)PTX";

int main() {
  CHECK_CU(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CHECK_CU(cuDeviceGet(&dev, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CUfunction texread, surfwrite;
  CHECK_CU(cuModuleLoadData(&mod, ptx));
  CHECK_CU(cuModuleGetFunction(&texread, mod, "texread"));
  CHECK_CU(cuModuleGetFunction(&surfwrite, mod, "surfwrite"));
  long wrong = 0, total = 0;

  /* a 20 x 9 float image through a texture object */
  const int W = 20, H = 9;
  static float img[H][W], back[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y][x] = y * 100.0f + x;
  CUDA_ARRAY_DESCRIPTOR ad = {};
  ad.Width = W, ad.Height = H, ad.Format = CU_AD_FORMAT_FLOAT, ad.NumChannels = 1;
  CUarray arr;
  CHECK_CU(cuArrayCreate(&arr, &ad));
  CUDA_MEMCPY2D c = {};
  c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = img, c.srcPitch = sizeof img[0];
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = arr;
  c.WidthInBytes = sizeof img[0], c.Height = H;
  CHECK_CU(cuMemcpy2D(&c));
  CUDA_RESOURCE_DESC rd = {};
  rd.resType = CU_RESOURCE_TYPE_ARRAY, rd.res.array.hArray = arr;
  CUDA_TEXTURE_DESC td = {};
  td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP, td.filterMode = CU_TR_FILTER_MODE_POINT;
  CUtexObject tex;
  CHECK_CU(cuTexObjectCreate(&tex, &rd, &td, NULL));
  CUdeviceptr out;
  CHECK_CU(cuMemAlloc(&out, sizeof back));
  int w = W, h = H;
  void *targs[] = {&tex, &out, &w, &h};
  CHECK_CU(cuLaunchKernel(texread, H, 1, 1, 32, 1, 1, 0, NULL, targs, NULL));
  CHECK_CU(cuMemcpyDtoH(back, out, sizeof back));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) wrong += back[y][x] != img[y][x];
  total += W * H;

  /* a 40 x 20 x 3 layered int surface */
  static int sback[3][20][40];
  CUDA_ARRAY3D_DESCRIPTOR sd = {};
  sd.Width = 40, sd.Height = 20, sd.Depth = 3, sd.Format = CU_AD_FORMAT_SIGNED_INT32, sd.NumChannels = 1;
  sd.Flags = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST;
  CUarray sarr;
  CHECK_CU(cuArray3DCreate(&sarr, &sd));
  CUDA_RESOURCE_DESC srd = {};
  srd.resType = CU_RESOURCE_TYPE_ARRAY, srd.res.array.hArray = sarr;
  CUsurfObject surf;
  CHECK_CU(cuSurfObjectCreate(&surf, &srd));
  int sw = 40, sh = 20;
  void *sargs[] = {&surf, &sw, &sh};
  CHECK_CU(cuLaunchKernel(surfwrite, 20, 3, 1, 64, 1, 1, 0, NULL, sargs, NULL));
  CUDA_MEMCPY3D c3 = {};
  c3.srcMemoryType = CU_MEMORYTYPE_ARRAY, c3.srcArray = sarr;
  c3.dstMemoryType = CU_MEMORYTYPE_HOST, c3.dstHost = sback, c3.dstPitch = 40 * sizeof(int), c3.dstHeight = 20;
  c3.WidthInBytes = 40 * sizeof(int), c3.Height = 20, c3.Depth = 3;
  CHECK_CU(cuMemcpy3D(&c3));
  for (int l = 0; l < 3; l++)
    for (int y = 0; y < 20; y++)
      for (int x = 0; x < 40; x++) wrong += sback[l][y][x] != l * 10000 + y * 100 + x;
  total += 3 * 20 * 40;

  CHECK_CU(cuTexObjectDestroy(tex));
  CHECK_CU(cuSurfObjectDestroy(surf));
  CHECK_CU(cuArrayDestroy(arr));
  CHECK_CU(cuArrayDestroy(sarr));
  CHECK_CU(cuMemFree(out));
  CHECK_CU(cuModuleUnload(mod));
  CHECK_CU(cuDevicePrimaryCtxRelease(dev));
  if (wrong) {
    std::printf("driverTextures: FAILED (%ld of %ld values wrong)\n", wrong, total);
    return 1;
  }
  std::printf("driverTextures: PASSED\n");
  return 0;
}
