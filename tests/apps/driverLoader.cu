/* driverLoader - the driver API path: loads a PTX module itself (the one
 * embedded below, or the file argv[1]), finds its kernel saxpy and runs
 * y = a*x + y with cuLaunchKernel, as applications that JIT their own PTX
 * do.  No runtime API call; linked with -lcuda (the stubs at build time).
 * The PTX is what nvcc -ptx -arch=sm_90 makes of
 *   extern "C" __global__ void saxpy(float *y, const float *x, float a, int n)
 *   { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }
 * with its .version lowered to 8.0 (CUDA 12.0) for older drivers. */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app_driver.h"


static const char *saxpy_ptx = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.visible .entry saxpy(
	.param .u64 saxpy_param_0,
	.param .u64 saxpy_param_1,
	.param .f32 saxpy_param_2,
	.param .u32 saxpy_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<5>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [saxpy_param_0];
	ld.param.u64 	%rd2, [saxpy_param_1];
	ld.param.f32 	%f1, [saxpy_param_2];
	ld.param.u32 	%r2, [saxpy_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.f32 	%f2, [%rd6];
	add.s64 	%rd7, %rd3, %rd5;
	ld.global.f32 	%f3, [%rd7];
	fma.rn.f32 	%f4, %f2, %f1, %f3;
	st.global.f32 	[%rd7], %f4;

$L__BB0_2:
	ret;
}
)PTX";

/* The PTX text: the file named on the command line, or the embedded one. */
static std::string load_ptx(int argc, char **argv) {
  if (argc < 2) return saxpy_ptx;
  std::ifstream f(argv[1]);
  if (!f) {
    std::fprintf(stderr, "driverLoader: cannot read %s\n", argv[1]);
    std::exit(1);
  }
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

int main(int argc, char **argv) {
  const int n = 4096;
  const float a = 2.5f;
  std::string ptx = load_ptx(argc, argv);
  CHECK_CU(cuInit(0));
  int count = 0;
  CHECK_CU(cuDeviceGetCount(&count));
  CUdevice dev;
  CHECK_CU(cuDeviceGet(&dev, 0));
  char name[256];
  CHECK_CU(cuDeviceGetName(name, sizeof name, dev));
  std::printf("driverLoader: %d device(s), using %s\n", count, name);
  CUcontext ctx;
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CHECK_CU(cuModuleLoadData(&mod, ptx.c_str()));
  CUfunction fn;
  CHECK_CU(cuModuleGetFunction(&fn, mod, "saxpy"));

  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; i++) {
    x[i] = (float)i;
    y[i] = (float)(n - i);
  }
  CUdeviceptr dx, dy;
  CHECK_CU(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK_CU(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  int nn = n;
  float aa = a;
  void *params[] = {&dy, &dx, &aa, &nn};
  CHECK_CU(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
  long wrong = 0;
  for (int i = 0; i < n; i++)
    if (std::fabs(out[i] - (a * x[i] + y[i])) > 1e-3f) wrong++;
  CHECK_CU(cuMemFree(dx));
  CHECK_CU(cuMemFree(dy));
  CHECK_CU(cuModuleUnload(mod));
  CHECK_CU(cuDevicePrimaryCtxRelease(dev));
  if (wrong) {
    std::printf("driverLoader: FAILED (%ld of %d values wrong)\n", wrong, n);
    return 1;
  }
  std::printf("driverLoader: PASSED\n");
  return 0;
}
