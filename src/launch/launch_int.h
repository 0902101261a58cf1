/* launch_int.h - what the files of src/launch share (folder-private):
 * launch_value.c (the types and literals of specs) < launch_agg.c
 * (aggregates passed by value) < launch.c (whole specs, //@ lines,
 * binding, dumps); launch_tex.c (textures and surfaces as arguments). */
#ifndef WM_LAUNCH_INT_H
#define WM_LAUNCH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "emu/emu_tmap.h"
#include "launch/launch.h"

#define TYPE_LIST "i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 f16 bf16"

/* launch_value.c ---------------------------------------------------------- */

/* A spec TYPE word ("f32") to its PtxType; -1 if unknown. */
int la_lookup_type(const char *s, size_t n, uint8_t *t);
/* Bytes of a spec type (0 if it has none), and its spec name ("i32"; NULL
 * for a type a spec cannot name). */
unsigned la_type_bytes(uint8_t t);
const char *la_type_spec_name(uint8_t t);
/* The PTX spelling of a .param type, for messages ("u64", "b8"). */
const char *la_param_type_name(uint8_t t);
/* All ones in the low `bytes` bytes. */
uint64_t la_width_mask(unsigned bytes);
/* An unsigned decimal or 0x-hex literal filling s[0..n): 0, -1 (not a
 * number) or -2 (over 2^64-1); *hex says it was hex. */
int la_parse_uint(const char *s, size_t n, uint64_t *v, int *hex);
/* A VALUE of type t (range-checked) into *bits, the little-endian value
 * of the type's width; a message (without location) in e. */
int la_parse_value(const char *s, size_t n, uint8_t t, uint64_t *bits, WmErr *e);

/* launch_agg.c ------------------------------------------------------------ */

#define LA_AGG_MAX_BYTES 4096 /* CUDA's classic limit on a kernel's parameters */
#define LA_AGG_MAX_BUFS 16

/* An aggregate laid out: its bytes (buffer members' slots zero), and its
 * buffer members: where their addresses go and where their buf:... spec
 * lies in the aggregate's text (launch.c parses and binds them). */
typedef struct AggLayout {
  uint32_t size, align;        /* align 0: raw bytes, no alignment of their own */
  uint8_t bytes[LA_AGG_MAX_BYTES];
  int nbufs;
  uint32_t buf_at[LA_AGG_MAX_BUFS];
  uint16_t buf_from[LA_AGG_MAX_BUFS], buf_len[LA_AGG_MAX_BUFS];
} AggLayout;

/* Whether s[0..n) is written as an aggregate (struct, vector, bytes). */
int la_is_agg(const char *s, size_t n);
/* Lays out the aggregate s[0..n) into *L (caller-owned).  Errors: message
 * in e, *bad the offset of the bad part. */
int la_agg_layout(const char *s, size_t n, AggLayout *L, size_t *bad, WmErr *e);
/* The layout of aggregate spec a (it parsed when read, so it lays out);
 * malloc'd, caller frees; NULL with e on an error. */
AggLayout *la_agg_of(const ArgSpec *a, WmErr *e);
/* Aggregate argument i against its parameter p: the same size and, unless
 * it is raw bytes, the same alignment; the message names the parameter. */
int la_check_agg(const PtxKernel *k, int i, const ArgSpec *a, const PtxParam *p, WmErr *e);

/* launch_tex.c ------------------------------------------------------------ */

/* tex:... and surf:... (launch_tex.c): parses s[0..n) into a (ARG_TEX);
 * errors as arg_parse's, *bad the offset of the bad field. */
int lc_parse_tex(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e);

/* Allocates and fills the texels of a's object in g, named `name`, and
 * adds the object: its handle in *handle. */
int lc_create_tex(GlobalMem *g, const ArgSpec *a, const char *name, int argno, InitKind dflt, uint64_t seed,
                  uint64_t *handle, WmErr *e);

/* launch_tmap.c ----------------------------------------------------------- */

/* tmap:... (launch_tmap.c): parses s[0..n) into a (ARG_TMAP: the type and
 * count of its own buffer, 0 elements with over=N; its contents); errors as
 * arg_parse's. */
int lc_parse_tmap(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e);
/* The map a tmap: spec describes (address 0; it parsed when read) and the
 * argument whose buffer holds its tensor (over=N), -1 for its own. */
int lc_tmap_of(const ArgSpec *a, Tmap *t, int *over, WmErr *e);
/* Bytes from a tensor's first element to its last one's end. */
uint64_t lc_tmap_extent(const Tmap *t);

#endif
