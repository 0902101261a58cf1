/* rt_link.c - JIT linking (rt_link.h): each input's PTX kept, merged at
 * completion by ptx_merge, as -rdc=true's units are (rt_rdc.c). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_merge.h"
#include "rt/fatbin.h"
#include "rt/rt_image.h"
#include "rt/rt_int.h"
#include "rt/rt_link.h"

struct RtLink {
  char **texts, **names;
  int n, cap;
  char *out;
};

RtLink *rt_link_new(void) { return wm_xcalloc(1, sizeof(RtLink)); }

static void keep(RtLink *k, char *text, const char *name) {
  if (k->n == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 4;
    k->texts = wm_xrealloc(k->texts, (size_t)k->cap * sizeof *k->texts);
    k->names = wm_xrealloc(k->names, (size_t)k->cap * sizeof *k->names);
  }
  k->texts[k->n] = text;
  k->names[k->n++] = wm_xstrdup(name && *name ? name : "cuLinkAddData");
}

/* The PTX of a fat binary input, or NULL with a message. */
static char *fatbin_input(const void *data, size_t size, const char *name) {
  WmErr e = {0};
  char *text = rtx_device_ptx(data, rt_image_kind(data) == RT_IMAGE_WRAPPER, size, name, &e);
  if (!text) rtx_say("cuLinkAddData: %s: no PTX to link: %s", name, e.msg);
  return text;
}

RtError rt_link_add(RtLink *k, int kind, const void *data, size_t size, const char *name) {
  RtError r = rtx_enter(0);
  if (r) return r;
  if (!k || !data || k->out) return rtx_leave(RT_ERR_INVALID_VALUE);
  const char *what = name && *name ? name : "(unnamed)";
  char *text = NULL;
  switch (kind) {
  case RT_LINK_PTX:
    text = wm_xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0'; /* size may or may not count the NUL */
    break;
  case RT_LINK_FATBIN:
    if (!(text = fatbin_input(data, size, what))) return rtx_leave(RT_ERR_NO_KERNEL_IMAGE);
    break;
  case RT_LINK_CUBIN:
    rtx_say("cuLinkAddData: %s is a cubin (compiled GPU code): warpmem links PTX; add the .ptx (nvcc -ptx -rdc=true) "
            "or a fat binary that holds it", what);
    return rtx_leave(RT_ERR_INVALID_KERNEL_IMAGE);
  default:
    rtx_say("cuLinkAddData: %s is a host object or library (CUjitInputType %d): warpmem links PTX and fat binaries "
            "only; add the units' .ptx", what, kind);
    return rtx_leave(RT_ERR_NOT_SUPPORTED);
  }
  keep(k, text, what);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_link_complete(RtLink *k, const void **image, size_t *size) {
  RtError r = rtx_enter(0);
  if (r) return r;
  if (!k || !image) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (!k->n) {
    rtx_say("cuLinkComplete: nothing was added to link");
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  if (!k->out) {
    WmErr e = {0};
    /* one unit is linked as it is; several as -rdc=true's units */
    k->out = k->n == 1 ? wm_xstrdup(k->texts[0])
                       : ptx_merge((const char *const *)k->texts, (const char *const *)k->names, k->n, &e);
    if (!k->out) {
      rtx_say("cuLinkComplete: %s", e.msg);
      return rtx_leave(RT_ERR_INVALID_PTX);
    }
  }
  *image = k->out;
  if (size) *size = strlen(k->out) + 1;
  return rtx_leave(RT_SUCCESS);
}

void rt_link_free(RtLink *k) {
  if (!k) return;
  for (int i = 0; i < k->n; i++) free(k->texts[i]), free(k->names[i]);
  free(k->texts);
  free(k->names);
  free(k->out);
  free(k);
}
