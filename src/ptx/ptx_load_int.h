/* ptx_load_int.h - what ptx_load.c (nvcc, ptxas -v) shares with ptx_sass.c
 * (ptxas and nvdisasm on the module's code): finding and running CUDA's
 * tools. */
#ifndef WM_PTX_LOAD_INT_H
#define WM_PTX_LOAD_INT_H

#include <stddef.h>

#include "ptx/ptx.h"
#include "util/diag.h"

/* A CUDA tool (nvcc, ptxas, nvdisasm): on PATH, then $CUDA_HOME/bin, then
 * /usr/local/cuda/bin.  Its path into buf; 0, or -1 if there is none. */
int pl_find_tool(const char *tool, char *buf, size_t n);

/* Runs argv[0] (the tool `what` working on `file`) in a process group of its
 * own, stdin from /dev/null, stdout and stderr into `log`, for at most
 * $limit_var seconds (else limit_def); *status gets its wait status.
 * Returns 0, or -1 with WM_ETOOL in e (WM_EUSAGE for a bad $limit_var). */
int pl_spawn_logged(char *const argv[], const char *log, const char *what, const char *file, const char *limit_var,
                    double limit_def, int *status, WmErr *e);

/* The last n-1 bytes of file `log`, without trailing newlines, into buf. */
void pl_read_tail(const char *log, char *buf, size_t n);

/* A fresh temporary directory under $TMPDIR or /tmp into dir.  0 or -1. */
int pl_make_temp_dir(char *dir, size_t n, WmErr *e);

/* The ptxas architecture for sm_<target>: the module's own target when it
 * is that GPU's arch-specific one (sm_90a), else sm_<target>. */
void pl_ptxas_arch(const PtxModule *m, int target, char *buf, size_t n);

#endif
