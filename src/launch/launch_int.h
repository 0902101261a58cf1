/* launch_int.h - what launch.c shares with launch_tex.c (textures and
 * surfaces as arguments). */
#ifndef WM_LAUNCH_INT_H
#define WM_LAUNCH_INT_H

#include "launch/launch.h"

/* launch.c's literals: an unsigned decimal or 0x-hex number filling
 * s[0..n) (0, -1 not a number, -2 too large); a value of spec type t. */
int lc_parse_uint(const char *s, size_t n, uint64_t *v);
int lc_parse_value(const char *s, size_t n, uint8_t t, uint64_t *bits, WmErr *e);

/* The bits iota and rand give element i / the next draw in type t (spec
 * types), and the random state of argument argno. */
uint64_t lc_iota_bits(uint8_t t, uint64_t i);
uint64_t lc_rand_bits(uint8_t t, uint64_t *state);
uint64_t lc_rand_seed(uint64_t seed, int argno);

/* tex:... and surf:... (launch_tex.c): parses s[0..n) into a (ARG_TEX);
 * errors as arg_parse's, *bad the offset of the bad field. */
int lc_parse_tex(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e);

/* Allocates and fills the texels of a's object in g, named `name`, and
 * adds the object: its handle in *handle. */
int lc_create_tex(GlobalMem *g, const ArgSpec *a, const char *name, int argno, InitKind dflt, uint64_t seed,
                  uint64_t *handle, WmErr *e);

#endif
