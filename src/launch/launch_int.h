/* launch_int.h - what launch.c and launch_agg.c share (folder-private). */
#ifndef WM_LAUNCH_INT_H
#define WM_LAUNCH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "launch/launch.h"

/* launch.c: a spec TYPE word ("f32") to its PtxType; -1 if unknown. */
int la_lookup_type(const char *s, size_t n, uint8_t *t);
/* launch.c: bytes of a spec type (0 if it has none). */
unsigned la_type_bytes(uint8_t t);
/* launch.c: a VALUE of type t (range-checked) into *bits; message in e. */
int la_parse_value(const char *s, size_t n, uint8_t t, uint64_t *bits, WmErr *e);
/* launch.c: one ARG of s[0..n) (any form); *bad: offset of the bad part. */
int la_arg_parse(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e);

/* launch_agg.c --------------------------------------------------------- */

#define LA_AGG_MAX_BYTES 4096 /* CUDA's classic limit on a kernel's parameters */
#define LA_AGG_MAX_BUFS 16

/* An aggregate laid out: its bytes (buffer members' slots zero) and its
 * buffer members with the offsets of their addresses. */
typedef struct AggLayout {
  uint32_t size, align;        /* align 0: raw bytes, no alignment of its own */
  uint8_t bytes[LA_AGG_MAX_BYTES];
  int nbufs;
  uint32_t buf_at[LA_AGG_MAX_BUFS];
  ArgSpec buf[LA_AGG_MAX_BUFS];
} AggLayout;

/* Whether s[0..n) is written as an aggregate (struct, vector, bytes). */
int la_is_agg(const char *s, size_t n);
/* Lays out the aggregate s[0..n) into *L (caller-owned).  Errors: message
 * in e, *bad the offset of the bad part. */
int la_agg_layout(const char *s, size_t n, AggLayout *L, size_t *bad, WmErr *e);

#endif
