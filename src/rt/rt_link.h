/* rt_link.h - JIT linking for the driver API (cuLinkCreate, cuLinkAddData,
 * cuLinkAddFile, cuLinkComplete, as the CUDA samples' ptxjit uses them):
 * the inputs' PTX, linked as the translation units of -rdc=true are
 * (ptx_merge).  What cuLinkComplete hands back as its "cubin" is that PTX
 * text, which cuModuleLoadData takes like any image. */
#ifndef WM_RT_LINK_H
#define WM_RT_LINK_H

#include <stddef.h>

#include "rt/rt.h"

typedef struct RtLink RtLink;

/* The kind of an input, as CUjitInputType numbers them. */
enum { RT_LINK_CUBIN = 0, RT_LINK_PTX = 1, RT_LINK_FATBIN = 2, RT_LINK_OBJECT = 3, RT_LINK_LIBRARY = 4 };

RtLink *rt_link_new(void);
/* Adds size bytes of data (PTX text, a fat binary with PTX) named `name`.
 * A cubin, object or library has no PTX to link: RT_ERR_INVALID_KERNEL_IMAGE
 * (or RT_ERR_NOT_SUPPORTED), with a message saying so. */
RtError rt_link_add(RtLink *k, int kind, const void *data, size_t size, const char *name);
/* The linked image, owned by k until rt_link_free. */
RtError rt_link_complete(RtLink *k, const void **image, size_t *size);
void rt_link_free(RtLink *k);

#endif
