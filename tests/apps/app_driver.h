/* app_driver.h - what the driver-API sample applications share: a check
 * of every driver call (the call, its file and line, the driver's error
 * name and string, then exit 1). */
#ifndef APP_DRIVER_H
#define APP_DRIVER_H

#include <cstdio>
#include <cstdlib>

#include <cuda.h>

#define CHECK_CU(call)                                                                             \
  do {                                                                                             \
    CUresult r_ = (call);                                                                          \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      const char *name_ = "?", *text_ = "?";                                                       \
      cuGetErrorName(r_, &name_);                                                                  \
      cuGetErrorString(r_, &text_);                                                                \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, name_, text_); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

#endif
