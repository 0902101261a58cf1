/* wm_api_int.h - what the C API's files share (src/api): a request's
 * arguments bound to a launch and copied in and out of its buffers. */
#ifndef WM_API_INT_H
#define WM_API_INT_H

#include <jansson.h>

#include "launch/launch.h"
#include "ptx/ptx.h"

/* A buffer argument of the request: the caller's host memory. */
typedef struct ApiBuf {
  uint8_t *host;
  uint64_t bytes;
  uint64_t offset;   /* the kernel's pointer is this far into the buffer
                        (a strided view of a larger array: its whole span) */
  int out;           /* copied back after the launch */
} ApiBuf;

typedef struct ApiArgs {
  ApiBuf buf[LAUNCH_MAX_ARGS]; /* in argument order, buffers only */
  int nbuf;
} ApiArgs;

/* The request's "args" as ls->args (checked against k's parameters: count,
 * each scalar typed from its .param) and the buffers' host memory in a.
 * 0, or -1 with a message naming the argument and the parameter. */
int api_args_parse(const json_t *args, const PtxKernel *k, LaunchSpec *ls, ApiArgs *a, WmErr *e);

/* After launch_bind: copies each buffer's host bytes into its device
 * buffer in g and moves its pointer in params (the bound parameter
 * buffer) by its offset. */
int api_args_copy_in(const PtxKernel *k, const LaunchSpec *ls, uint8_t *params, GlobalMem *g, const ApiArgs *a,
                     WmErr *e);
/* After the launch: the "out" buffers back to the caller's memory. */
void api_args_copy_out(const PtxKernel *k, const LaunchSpec *ls, const uint8_t *params, GlobalMem *g,
                       const ApiArgs *a);

#endif
