/* api_runtime.h - between the files of the CUDA runtime API (api_runtime*.c):
 * stream capture (api_runtime_graph.c).  While a stream captures, the
 * launches, copies, sets, host functions and event records made on it are
 * recorded into its graph instead of run; cudaGraphLaunch runs them. */
#ifndef WM_API_RUNTIME_H
#define WM_API_RUNTIME_H

#include <cuda_runtime_api.h>

#include "rt/rt.h"

/* Whether stream s is capturing. */
int api_capturing(cudaStream_t s);
cudaError_t api_capture_kernel(cudaStream_t s, RtFunction *f, const RtLaunchConfig *c, void **args);
cudaError_t api_capture_copy(cudaStream_t s, void *dst, const void *src, size_t n);
cudaError_t api_capture_set(cudaStream_t s, void *dst, int value, size_t n);
cudaError_t api_capture_host(cudaStream_t s, cudaHostFn_t fn, void *data);
cudaError_t api_capture_event(cudaStream_t s, cudaEvent_t ev);

#endif
