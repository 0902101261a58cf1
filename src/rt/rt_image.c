/* rt_image.c - the device code of the driver API's modules (rt_image.h):
 * PTX as it is, the PTX entry of a fat binary, never a cubin. */
#include <stdlib.h>
#include <string.h>

#include "rt/fatbin.h"
#include "rt/rt_image.h"
#include "rt/rt_int.h"

/* The first four bytes of image, read no further than a NUL (PTX text may
 * be shorter), little-endian. */
static uint32_t magic_of(const void *image, unsigned char b[4]) {
  const unsigned char *p = image;
  int i = 0;
  for (; i < 4 && (i == 0 || p[i - 1]); i++) b[i] = p[i];
  for (; i < 4; i++) b[i] = 0;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

RtImageKind rt_image_kind(const void *image) {
  unsigned char b[4];
  uint32_t magic = magic_of(image, b);
  if (magic == FATBIN_MAGIC) return RT_IMAGE_FATBIN;
  if (magic == FATBIN_WRAPPER_MAGIC) return RT_IMAGE_WRAPPER;
  if (!memcmp(b, "\177ELF", 4)) return RT_IMAGE_ELF;
  return RT_IMAGE_PTX;
}

RtError rt_module_load_image(const void *image, size_t len, const char *name, RtModule **out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!image || !out) return rtx_leave(RT_ERR_INVALID_VALUE);
  RtImageKind k = rt_image_kind(image);
  const char *what = name ? name : "cuModuleLoadData";
  if (k == RT_IMAGE_ELF) {
    rtx_say("%s: a cubin (compiled GPU code) cannot run in warpmem, which needs PTX: load the .ptx (nvcc -ptx), "
            "or a fat binary with PTX (nvcc -fatbin -gencode arch=compute_90,code=compute_90)", what);
    return rtx_leave(RT_ERR_INVALID_KERNEL_IMAGE);
  }
  if (k == RT_IMAGE_PTX) {
    r = rt_module_load_ptx((const char *)image, name, out);
    return rtx_leave(r);
  }
  WmErr e = {0}; /* a wrapper may be -rdc=true's (the static runtime hands the driver its wrapper) */
  char *text = rtx_device_ptx(image, k == RT_IMAGE_WRAPPER, len, what, &e);
  if (!text) {
    rtx_say("%s: no device code warpmem can run: %s", what, e.msg);
    return rtx_leave(RT_ERR_NO_KERNEL_IMAGE);
  }
  r = rt_module_load_ptx(text, name, out);
  free(text);
  return rtx_leave(r);
}
