/* metrics.c - names and descriptions of the counters, from the X-macro. */
#include "mem/metrics.h"

const char *const wm_metric_name[WM_M_COUNT] = {
#define X(e, name, desc) name,
  WM_METRICS(X)
#undef X
};

const char *const wm_metric_desc[WM_M_COUNT] = {
#define X(e, name, desc) desc,
  WM_METRICS(X)
#undef X
};
