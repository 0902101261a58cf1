/* launch_int.h - what launch.c calls in launch_tex.c (textures and
 * surfaces as arguments). */
#ifndef WM_LAUNCH_INT_H
#define WM_LAUNCH_INT_H

#include "launch/launch.h"

/* tex:... and surf:... (launch_tex.c): parses s[0..n) into a (ARG_TEX);
 * errors as arg_parse's, *bad the offset of the bad field. */
int lc_parse_tex(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e);

/* Allocates and fills the texels of a's object in g, named `name`, and
 * adds the object: its handle in *handle. */
int lc_create_tex(GlobalMem *g, const ArgSpec *a, const char *name, int argno, InitKind dflt, uint64_t seed,
                  uint64_t *handle, WmErr *e);

#endif
