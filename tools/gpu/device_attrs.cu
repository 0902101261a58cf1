/* device_attrs.cu - every device attribute the driver answers for device 0
 * (cuDeviceGetAttribute over ids 1..MAX), one line each: "id value rc", and
 * cudaDeviceProp's fields that have no attribute.  Run on the lent GPU by
 * tools/gpu/session_runs.sh; tools/gpu/attr_names.py names the ids from
 * cuda.h.  Built with nvcc's defaults (the static runtime) and -lcuda. */
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

int main() {
  if (cuInit(0) != CUDA_SUCCESS) return 3;
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  char name[256];
  cuDeviceGetName(name, sizeof name, dev);
  int drv = 0;
  cuDriverGetVersion(&drv);
  std::printf("# %s, driver %d\n", name, drv);
  for (int id = 1; id < CU_DEVICE_ATTRIBUTE_MAX; id++) {
    int v = 0;
    CUresult rc = cuDeviceGetAttribute(&v, (CUdevice_attribute)id, dev);
    std::printf("%d %d %d\n", id, v, (int)rc);
  }
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) == cudaSuccess)
    std::printf("# prop totalGlobalMem %zu sharedMemPerBlock %zu regsPerBlock %d memPitch %zu "
                "accessPolicyMaxWindowSize %d persistingL2CacheMaxSize %d luidDeviceNodeMask %u\n",
                p.totalGlobalMem, p.sharedMemPerBlock, p.regsPerBlock, p.memPitch, p.accessPolicyMaxWindowSize,
                p.persistingL2CacheMaxSize, p.luidDeviceNodeMask);
  return 0;
}
