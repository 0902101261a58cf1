/* launch_agg.c - kernel arguments passed by value as aggregates: structs,
 * CUDA's vector types and raw bytes, laid out as the C compiler lays them
 * out in the parameter's bytes (`.param .align A .b8 name[N]`).
 *
 * Grammar (launch.h):
 *   AGG    := struct[@A]{MEMBER,...} | TYPExN{V,...} | bytes{B,...} | bytes:HEX
 *   MEMBER := TYPE:VALUE | buf:TYPE:COUNT[:INIT] | AGG
 *
 * Notes:
 * - C's rules: each member at the next multiple of its alignment, the
 *   struct aligned to its largest member's alignment (or to A, as
 *   __align__(A) raises it) and its size rounded up to that; an empty
 *   struct (a functor without state) is one byte, as in C++.
 * - Vector types align as CUDA's vector_types.h declares them: a 2-vector
 *   to twice its element (float2: 8), a 4-vector to four times it, at most
 *   16 (float4 and double4: 16), 1- and 3-vectors to the element (int3: 4,
 *   12 bytes).
 * - A buffer member is its 8-byte device address (align 8), filled in at
 *   binding like a buffer argument.
 * - Raw bytes have no alignment of their own: a top-level bytes spec is
 *   checked against the parameter's size only.
 * - Braces nest, and commas inside them do not split an args= list.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "launch/launch_int.h"

typedef struct Cur {
  const char *s;   /* the whole aggregate spec */
  AggLayout *L;
  WmErr *e;
  size_t *bad;
} Cur;

static int fail(Cur *c, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(Cur *c, size_t at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  *c->bad = at;
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return wm_err(c->e, WM_EUSAGE, "%s", msg);
}

static uint32_t round_up(uint32_t x, uint32_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

/* The end of the field that starts at i: the next ',' at brace depth 0, or
 * end.  -1 (as SIZE_MAX) if a brace is unbalanced. */
static size_t field_end(const char *s, size_t i, size_t end) {
  int depth = 0;
  for (; i < end; i++) {
    if (s[i] == '{') depth++;
    else if (s[i] == '}' && --depth < 0) return (size_t)-1;
    else if (s[i] == ',' && depth == 0) return i;
  }
  return depth ? (size_t)-1 : end;
}

static int starts(const char *s, size_t n, const char *w) { return n >= strlen(w) && !memcmp(s, w, strlen(w)); }

/* TYPExN: the element type and N (1..4) of a vector word s[0..n), or -1. */
static int vector_word(const char *s, size_t n, uint8_t *t, unsigned *count) {
  const char *x = memchr(s, 'x', n);
  if (!x || x == s || (size_t)(x - s) + 2 != n || x[1] < '1' || x[1] > '4') return -1;
  *count = (unsigned)(x[1] - '0');
  return la_lookup_type(s, (size_t)(x - s), t);
}

/* vector_types.h's alignment of an N-vector of `es`-byte elements. */
static uint32_t vector_align(unsigned es, unsigned count) {
  if (count == 2) return 2 * es;
  if (count == 4) return 4 * es < 16 ? 4 * es : 16;
  return es;
}

/* The word before a '{' or ':' (struct, bytes, f32x2, buf, i32) and where
 * it stops. */
static size_t word_end(const char *s, size_t i, size_t end) {
  while (i < end && s[i] != '{' && s[i] != ':' && s[i] != '@') i++;
  return i;
}

static int place(Cur *c, size_t i, size_t end, uint32_t at, uint32_t *size, uint32_t *align);

/* Whether the braces of s[i..end) balance (none closes more than opened). */
static int balanced(const char *s, size_t i, size_t end) {
  int depth = 0;
  for (; i < end && depth >= 0; i++) depth += s[i] == '{' ? 1 : s[i] == '}' ? -1 : 0;
  return depth == 0;
}

/* s[i..end) is "{...}" with balanced braces inside, so that every field
 * of it ends inside it. */
static int check_braces(Cur *c, size_t i, size_t end, const char *what) {
  if (i >= end || c->s[i] != '{' || c->s[end - 1] != '}' || !balanced(c->s, i + 1, end - 1))
    return fail(c, i, "%s: expected {...} with balanced braces", what);
  return 0;
}

/* Grammar: struct[@A]{MEMBER,...}; i just past "struct". */
static int place_struct(Cur *c, size_t i, size_t end, uint32_t at, uint32_t *size, uint32_t *align) {
  uint32_t al = 1;
  if (i < end && c->s[i] == ':')
    return fail(c, i, "write struct{MEMBER,...}: in args= the members' commas would split the list "
                      "(--arg also takes struct:MEMBER,...)");
  if (i < end && c->s[i] == '@') {
    size_t j = i + 1;
    uint32_t a = 0;
    while (j < end && c->s[j] >= '0' && c->s[j] <= '9' && a < 4096) a = a * 10 + (uint32_t)(c->s[j++] - '0');
    if (j == i + 1 || a == 0 || a > 256 || (a & (a - 1)))
      return fail(c, i + 1, "struct@A: A is a power of two, 1 to 256 (__align__(A))");
    al = a;
    i = j;
  }
  if (check_braces(c, i, end, "struct")) return -1;
  uint32_t off = 0;
  for (size_t m = i + 1; m < end - 1;) {
    size_t me = field_end(c->s, m, end - 1);
    if (me == m) return fail(c, m, "empty member in struct{...}");
    uint32_t ms, ma;
    /* a member's alignment is known once it is read: measure, then place
     * (each level measures its members once, so nesting costs O(n*depth)) */
    if (place(c, m, me, UINT32_MAX, &ms, &ma)) return -1;
    off = round_up(off, ma);
    if (at != UINT32_MAX && place(c, m, me, at + off, &ms, &ma)) return -1;
    off += ms;
    if (ma > al) al = ma;
    m = me < end - 1 ? me + 1 : me;
    if (me < end - 1 && m == end - 1) return fail(c, m, "empty member in struct{...}");
  }
  *size = off ? round_up(off, al) : 1; /* C++: an empty struct is one byte */
  *align = al;
  return 0;
}

/* Grammar: TYPExN{V,...} with exactly N values; i at the '{'. */
static int place_vector(Cur *c, size_t w, size_t i, size_t end, uint8_t t, unsigned count, uint32_t at,
                        uint32_t *size, uint32_t *align) {
  if (i < end && c->s[i] == ':')
    return fail(c, i, "write %.*s{V,...}: in args= the values' commas would split the list (--arg also takes "
                      "%.*s:V,...)", (int)(i - w), c->s + w, (int)(i - w), c->s + w);
  if (check_braces(c, i, end, "vector")) return -1;
  unsigned es = la_type_bytes(t), k = 0;
  for (size_t v = i + 1;;) {
    size_t ve = field_end(c->s, v, end - 1);
    if (k == count)
      return fail(c, v, "%.*s takes %u values, more are given", (int)(i - w), c->s + w, count);
    uint64_t bits;
    WmErr sub = {0};
    if (la_parse_value(c->s + v, ve - v, t, &bits, &sub)) return fail(c, v, "%s", sub.msg);
    if (at != UINT32_MAX)
      for (unsigned b = 0; b < es; b++) c->L->bytes[at + k * es + b] = (uint8_t)(bits >> (8 * b));
    k++;
    if (ve == end - 1) break;
    v = ve + 1;
  }
  if (k != count)
    return fail(c, i, "%.*s takes %u values, %u given", (int)(i - w), c->s + w, count, k);
  *align = vector_align(es, count);
  *size = round_up(es * count, *align);
  return 0;
}

static int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* Grammar: bytes{B,...} (each 0..255, decimal or 0x) | bytes:HEX (an even
 * number of hex digits, first byte first); i just past "bytes". */
static int place_bytes(Cur *c, size_t i, size_t end, uint32_t at, uint32_t *size, uint32_t *align) {
  uint32_t n = 0;
  *align = 1;
  if (i < end && c->s[i] == ':') {
    size_t h = i + 1;
    if (h < end - 1 && c->s[h] == '0' && (c->s[h + 1] == 'x' || c->s[h + 1] == 'X')) h += 2;
    if (h == end || (end - h) % 2) return fail(c, h, "bytes:HEX takes an even number of hex digits");
    for (size_t j = h; j < end; j += 2) {
      int hi = hex_digit(c->s[j]), lo = hex_digit(c->s[j + 1]);
      if (hi < 0 || lo < 0) return fail(c, hi < 0 ? j : j + 1, "'%c' is not a hex digit", c->s[hi < 0 ? j : j + 1]);
      if (at != UINT32_MAX && at + n < LA_AGG_MAX_BYTES) c->L->bytes[at + n] = (uint8_t)(hi << 4 | lo);
      n++;
    }
    *size = n;
    return 0;
  }
  if (check_braces(c, i, end, "bytes")) return -1;
  for (size_t v = i + 1;;) {
    size_t ve = field_end(c->s, v, end - 1);
    uint64_t bits;
    WmErr sub = {0};
    if (la_parse_value(c->s + v, ve - v, PTX_T_U8, &bits, &sub)) return fail(c, v, "%s", sub.msg);
    if (at != UINT32_MAX && at + n < LA_AGG_MAX_BYTES) c->L->bytes[at + n] = (uint8_t)bits;
    n++;
    if (ve == end - 1) break;
    v = ve + 1;
  }
  *size = n;
  return 0;
}

/* A scalar TYPE:VALUE, or a buffer buf:TYPE:COUNT[:INIT] member: its
 * address's slot and its spec's place in the text (launch.c reads the spec
 * with arg_parse and checks it as the aggregate is read). */
static int place_leaf(Cur *c, size_t i, size_t end, uint32_t at, uint32_t *size, uint32_t *align) {
  const char *s = c->s + i, *colon = memchr(s, ':', end - i);
  size_t wn = colon ? (size_t)(colon - s) : end - i;
  if (wn == 3 && !memcmp(s, "buf", 3)) {
    *size = *align = 8;
    if (at != UINT32_MAX) {
      if (c->L->nbufs == LA_AGG_MAX_BUFS) return fail(c, i, "more than %d buffers in one aggregate", LA_AGG_MAX_BUFS);
      c->L->buf_at[c->L->nbufs] = at;
      c->L->buf_from[c->L->nbufs] = (uint16_t)i;
      c->L->buf_len[c->L->nbufs++] = (uint16_t)(end - i);
    }
    return 0;
  }
  uint8_t t;
  if (la_lookup_type(s, wn, &t))
    return fail(c, i, "unknown type '%.*s' (a member is TYPE:VALUE, buf:TYPE:COUNT[:INIT] or an aggregate; types: "
                      TYPE_LIST ")", (int)wn, s);
  if (!colon) return fail(c, end, "expected %.*s:VALUE", (int)wn, s);
  uint64_t bits;
  WmErr sub = {0};
  if (la_parse_value(colon + 1, (size_t)(c->s + end - colon - 1), t, &bits, &sub))
    return fail(c, (size_t)(colon + 1 - c->s), "%s", sub.msg);
  *size = *align = la_type_bytes(t);
  if (at != UINT32_MAX)
    for (unsigned k = 0; k < *size; k++) c->L->bytes[at + k] = (uint8_t)(bits >> (8 * k));
  return 0;
}

/* Lays out the member s[i..end) at offset `at` of the aggregate (at is
 * UINT32_MAX: only measure it), giving its size and alignment. */
static int place(Cur *c, size_t i, size_t end, uint32_t at, uint32_t *size, uint32_t *align) {
  if (at != UINT32_MAX) { /* room for it before a byte is written */
    if (place(c, i, end, UINT32_MAX, size, align)) return -1;
    if ((uint64_t)at + *size > LA_AGG_MAX_BYTES)
      return fail(c, i, "the aggregate is over %d bytes (CUDA's limit on a kernel's parameters)", LA_AGG_MAX_BYTES);
  }
  size_t w = word_end(c->s, i, end);
  const char *s = c->s + i;
  size_t wn = w - i;
  uint8_t t;
  unsigned count;
  int rc;
  if (wn == 6 && starts(s, wn, "struct")) rc = place_struct(c, w, end, at, size, align);
  else if (wn == 5 && starts(s, wn, "bytes")) rc = place_bytes(c, w, end, at, size, align);
  else if (vector_word(s, wn, &t, &count) == 0) rc = place_vector(c, i, w, end, t, count, at, size, align);
  else rc = place_leaf(c, i, end, at, size, align);
  if (rc) return -1;
  if (*size > LA_AGG_MAX_BYTES)
    return fail(c, i, "the aggregate is over %d bytes (CUDA's limit on a kernel's parameters)", LA_AGG_MAX_BYTES);
  return 0;
}

int la_is_agg(const char *s, size_t n) {
  size_t w = word_end(s, 0, n);
  uint8_t t;
  unsigned count;
  if (w == n) return 0;
  return (w == 6 && starts(s, w, "struct")) || (w == 5 && starts(s, w, "bytes")) ||
         vector_word(s, w, &t, &count) == 0;
}

int la_agg_layout(const char *s, size_t n, AggLayout *L, size_t *bad, WmErr *e) {
  memset(L, 0, sizeof *L);
  *bad = 0;
  Cur c = {s, L, e, bad};
  uint32_t size, align;
  if (field_end(s, 0, n) != n) {
    size_t j = field_end(s, 0, n);
    return fail(&c, j == (size_t)-1 ? 0 : j, "unbalanced braces or a ',' outside them in '%.*s'", (int)n, s);
  }
  if (place(&c, 0, n, 0, &size, &align)) return -1;
  L->size = size;
  L->align = starts(s, n, "bytes") ? 0 : align;
  return 0;
}

/* ---- binding ------------------------------------------------------------ */

/* The aggregate of argument i laid out again (it parsed when read, so it
 * lays out now); NULL on an error.  Caller frees. */
AggLayout *la_agg_of(const ArgSpec *a, WmErr *e) {
  AggLayout *L = wm_xmalloc(sizeof *L);
  size_t bad;
  if (la_agg_layout(a->text, strlen(a->text), L, &bad, e) == 0) return L;
  free(L);
  return NULL;
}

/* An aggregate against its parameter: the same size, and, unless it is raw
 * bytes, the same alignment (a struct's layout depends on it). */
int la_check_agg(const PtxKernel *k, int i, const ArgSpec *a, const PtxParam *p, WmErr *e) {
  const char *kn = k->plain_name ? k->plain_name : k->name;
  char decl[64];
  if (p->type == PTX_T_B8 && p->size != 1) snprintf(decl, sizeof decl, ".align %u .b8 %s[%u]", p->align,
                                                    p->name ? p->name : "?", p->size);
  else snprintf(decl, sizeof decl, ".%s %s", la_param_type_name(p->type), p->name ? p->name : "?");
  if (a->agg_size != p->size)
    return wm_err(e, WM_EARGS,
                  "kernel %s, arg%d '%s': the aggregate lays out in %u bytes (alignment %u), but parameter "
                  "%s is %u bytes (.param %s)\n  (C layout: each member at a multiple of its alignment, the "
                  "size rounded up to the largest; f32x2 is float2, struct@16{...} an __align__(16) struct)",
                  kn, i, a->text, a->agg_size, a->agg_align ? a->agg_align : 1, p->name ? p->name : "?", p->size,
                  decl);
  if (a->agg_align && p->align && a->agg_align != p->align)
    return wm_err(e, WM_EARGS,
                  "kernel %s, arg%d '%s': the aggregate is aligned to %u bytes, but parameter %s is aligned "
                  "to %u (.param %s)\n  (struct@%u{...} raises a struct's alignment, as __align__(%u) does)",
                  kn, i, a->text, a->agg_align, p->name ? p->name : "?", p->align, decl, p->align, p->align);
  return 0;
}

int launch_pointer_slots(const PtxKernel *k, const LaunchSpec *l, uint32_t *slots, int max) {
  int n = 0;
  for (int i = 0; i < l->nargs && i < k->nparams; i++) {
    const ArgSpec *a = &l->args[i];
    if (a->kind == ARG_BUF || (a->kind == ARG_TMAP && k->params[i].size == 8)) { /* a tensor map's own buffer */
      if (n < max) slots[n] = k->params[i].offset;
      n++;
    } else if (a->kind == ARG_AGG) {
      WmErr e = {0};
      AggLayout *L = la_agg_of(a, &e);
      if (!L) return -1;
      for (int b = 0; b < L->nbufs; b++, n++)
        if (n < max) slots[n] = k->params[i].offset + L->buf_at[b];
      free(L);
    }
  }
  return n;
}
