/* launch_int.h - what the files of src/launch share (folder-private):
 * launch_arg.c (one scalar or buffer spec) < launch_agg.c (aggregates) <
 * launch.c (whole specs, //@ lines, binding). */
#ifndef WM_LAUNCH_INT_H
#define WM_LAUNCH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "launch/launch.h"

/* launch_arg.c ---------------------------------------------------------- */

/* A spec TYPE word ("f32") to its PtxType; -1 if unknown. */
int la_lookup_type(const char *s, size_t n, uint8_t *t);
/* Bytes of a spec type (0 if it has none), and its spec name ("i32"; NULL
 * for a type a spec cannot name). */
unsigned la_type_bytes(uint8_t t);
const char *la_type_spec_name(uint8_t t);
/* The PTX spelling of a .param type, for messages ("u64", "b8"). */
const char *la_param_type_name(uint8_t t);
/* An unsigned decimal or 0x-hex literal filling s[0..n): 0, -1 (not a
 * number) or -2 (over 2^64-1); *hex says it was hex. */
int la_parse_uint(const char *s, size_t n, uint64_t *v, int *hex);
/* A VALUE of type t (range-checked) into *bits; message in e. */
int la_parse_value(const char *s, size_t n, uint8_t t, uint64_t *bits, WmErr *e);
/* s[0..n) is exactly `word`. */
int la_field_is(const char *s, size_t n, const char *word);
/* TYPE:VALUE or buf:TYPE:COUNT[:INIT] of s[0..n) into *a (text kept);
 * message in e naming the argument, *bad the offset of the bad field. */
int la_leaf_parse(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e);
/* v's low `bytes` bytes at p, little-endian. */
void la_store_le(uint8_t *p, uint64_t v, unsigned bytes);
/* Allocates and fills the buffer of spec a (argument argno, or a member of
 * it) named `name`, and writes its address at slot. */
int la_bind_buffer(const ArgSpec *a, const char *name, int argno, GlobalMem *g, uint8_t *slot, InitKind dflt,
                   uint64_t seed, WmErr *e);

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
/* Aggregate argument i against its parameter p: the same size and, unless
 * it is raw bytes, the same alignment; the message names the parameter. */
int la_check_agg(const PtxKernel *k, int i, const ArgSpec *a, const PtxParam *p, WmErr *e);
/* Writes aggregate argument argno at dst (its parameter's bytes), with a
 * fresh buffer for each buffer member ("argN.M (spec)"). */
int la_bind_agg(const ArgSpec *a, int argno, GlobalMem *g, uint8_t *dst, InitKind dflt, uint64_t seed, WmErr *e);

#endif
