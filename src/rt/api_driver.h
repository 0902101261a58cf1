/* api_driver.h - inside the driver API of warpmem run (libcuda.so.1:
 * api_driver.c, api_driver_mem.c, api_driver_tex.c, api_driver_link.c, ...): what the files
 * share.  Types are the toolkit's own (cuda.h), whose #defines give the
 * exported names the versions applications link (cuMemAlloc is
 * cuMemAlloc_v2).  Every call goes to the context of rt.h in
 * libwarpmem_rt.so, the one the runtime API uses too. */
#ifndef WM_API_DRIVER_H
#define WM_API_DRIVER_H

#include <cuda.h>

#include "rt/rt.h"

#pragma GCC visibility push(hidden)

/* The CUresult of a context error (cudaError_t numbering); as the driver
 * returns it, and kept as the thread's last error by the context. */
CUresult drv_result(RtError e);

/* An error of the driver front end's own checks (recorded as the last
 * error as cudaError_t e, returned as its CUresult). */
CUresult drv_fail(RtError e);

/* The JIT options' log buffers: emptied (warpmem's messages go to stderr). */
void drv_jit_logs(unsigned int n, CUjit_option *options, void **values);

/* The whole file at path (NUL-terminated, malloc'd; *len its bytes), or
 * NULL; a FIFO or a device is refused with a message. */
char *drv_read_file(const char *path, size_t *len);

#pragma GCC visibility pop

#endif
