/* rt_image.h - device code handed to the driver API (cuModuleLoadData,
 * cuModuleLoadDataEx, cuModuleLoadFatBinary, cuModuleLoad's file): PTX
 * text, a fat binary (its PTX entry for the preset, as
 * __cudaRegisterFatBinary picks it) or a fat binary wrapper; a cubin (ELF)
 * is refused with a message saying that warpmem needs PTX. */
#ifndef WM_RT_IMAGE_H
#define WM_RT_IMAGE_H

#include <stddef.h>

#include "rt/rt.h"

/* What an image is, from its first bytes. */
typedef enum { RT_IMAGE_PTX, RT_IMAGE_FATBIN, RT_IMAGE_WRAPPER, RT_IMAGE_ELF } RtImageKind;
RtImageKind rt_image_kind(const void *image);

/* A module from image (len bytes; 0: trust the image's own sizes, a PTX
 * text NUL-terminated), named `name` in messages (NULL: the context's
 * default "app.N.ptx").  RT_ERR_INVALID_KERNEL_IMAGE for a cubin,
 * RT_ERR_NO_KERNEL_IMAGE for a fat binary without PTX,
 * RT_ERR_INVALID_PTX for PTX that does not parse; each with a message on
 * stderr. */
RtError rt_module_load_image(const void *image, size_t len, const char *name, RtModule **out);

#endif
