/* api_driver_link.c - the driver API's JIT linker (cuLinkCreate,
 * cuLinkAddData, cuLinkAddFile, cuLinkComplete, cuLinkDestroy) over
 * rt_link.h: PTX and fat binaries in, the linked PTX out as the image
 * cuModuleLoadData then loads. */
#include <stdio.h>
#include <stdlib.h>

#include "rt/api_driver.h"
#include "rt/rt_link.h"

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut) {
  drv_jit_logs(numOptions, options, optionValues);
  if (!stateOut) return drv_fail(RT_ERR_INVALID_VALUE);
  RtError r = rt_init();
  if (r) return drv_result(r);
  *stateOut = (CUlinkState)rt_link_new();
  return CUDA_SUCCESS;
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                          unsigned int numOptions, CUjit_option *options, void **optionValues) {
  drv_jit_logs(numOptions, options, optionValues);
  if (!state || !data) return drv_fail(RT_ERR_INVALID_VALUE);
  return drv_result(rt_link_add((RtLink *)state, (int)type, data, size, name));
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                          CUjit_option *options, void **optionValues) {
  drv_jit_logs(numOptions, options, optionValues);
  if (!state || !path) return drv_fail(RT_ERR_INVALID_VALUE);
  size_t len = 0;
  char *buf = drv_read_file(path, &len);
  if (!buf) {
    fprintf(stderr, "==WARPMEM== cuLinkAddFile: cannot read %s\n", path);
    return drv_fail(RT_ERR_NOT_FOUND);
  }
  RtError r = rt_link_add((RtLink *)state, (int)type, buf, len, path);
  free(buf);
  return drv_result(r);
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut) {
  if (!state || !cubinOut) return drv_fail(RT_ERR_INVALID_VALUE);
  const void *image = NULL;
  RtError r = rt_link_complete((RtLink *)state, &image, sizeOut);
  *cubinOut = (void *)image;
  return drv_result(r);
}

CUresult cuLinkDestroy(CUlinkState state) {
  rt_link_free((RtLink *)state);
  return CUDA_SUCCESS;
}
