/* sim_diff.c - the bytes a launch changed in global memory (sim_diff.h).
 *
 * Notes:
 *  - The snapshot is a copy of every buffer: simple and exact, at the price
 *    of twice the memory (docs/mpi.md: a copy on first write, with page
 *    protection, would copy only what is written).  Pages that are all
 *    zeros are not copied: the copy is calloc'd, so they cost nothing.
 *  - Pages (4 KiB) are compared with memcmp; a page that differs is walked
 *    by 8-byte words, and a word that differs only in some of its bytes
 *    byte by byte, so a run holds exactly the changed bytes.  Where the
 *    runs would take more room than the page with a bit per byte (a += 1.0f
 *    changes two bytes of each float), the page goes whole with that mask.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_diff.h"
#include "util/diag.h"

#define DIFF_PAGE 4096u
#define DIFF_MASKED (1ull << 63) /* in a record's length: a page with its mask */

static const uint8_t zero_page[DIFF_PAGE];

void sim_snap_take(const GlobalMem *g, SimSnap *s) {
  s->n = g->n;
  s->addr = wm_xcalloc((size_t)g->n + 1, sizeof *s->addr);
  s->size = wm_xcalloc((size_t)g->n + 1, sizeof *s->size);
  s->data = wm_xcalloc((size_t)g->n + 1, sizeof *s->data);
  for (int i = 0; i < g->n; i++) {
    s->addr[i] = g->buf[i].addr;
    s->size[i] = g->buf[i].size;
    s->data[i] = wm_xcalloc(g->buf[i].size + 1, 1);
    for (uint64_t off = 0; off < g->buf[i].size; off += DIFF_PAGE) {
      size_t len = g->buf[i].size - off < DIFF_PAGE ? (size_t)(g->buf[i].size - off) : DIFF_PAGE;
      if (memcmp(g->buf[i].data + off, zero_page, len)) memcpy(s->data[i] + off, g->buf[i].data + off, len);
    }
  }
}

void sim_snap_free(SimSnap *s) {
  for (int i = 0; i < s->n; i++) free(s->data[i]);
  free(s->addr);
  free(s->size);
  free(s->data);
  memset(s, 0, sizeof *s);
}

typedef struct Out {
  uint8_t *p;
  size_t n, cap;
} Out;

static void out_run(Out *o, uint64_t addr, const uint8_t *bytes, uint64_t len) {
  size_t need = 16 + (len + 7) / 8 * 8;
  if (o->n + need > o->cap) {
    o->cap = (o->n + need) * 2;
    o->p = wm_xrealloc(o->p, o->cap);
  }
  memcpy(o->p + o->n, &addr, 8);
  memcpy(o->p + o->n + 8, &len, 8);
  memcpy(o->p + o->n + 16, bytes, len);
  memset(o->p + o->n + 16 + len, 0, need - 16 - len);
  o->n += need;
}

/* Bit k set where byte k of x is not zero. */
static uint8_t nonzero_bytes(uint64_t x) {
  uint64_t t = x | x >> 4; /* bit 0 of each byte: the OR of its bits */
  t |= t >> 2;
  t |= t >> 1;
  return (uint8_t)((t & 0x0101010101010101ull) * 0x0102040810204080ull >> 56);
}

/* Byte k all ones where bit k of m is set. */
static uint64_t byte_mask(uint8_t m) {
  uint64_t e = m * 0x0101010101010101ull & 0x8040201008040201ull;
  uint64_t nz = (e | ((e & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full)) & 0x8080808080808080ull;
  return (nz >> 7) * 0xff;
}

/* Whether any byte of the 8-byte word x is zero. */
static int has_zero_byte(uint64_t x) { return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) != 0; }

/* The runs of changed bytes of one page: cur against base (NULL: zeros). */
static void diff_page(Out *o, uint64_t addr, const uint8_t *cur, const uint8_t *base, size_t len, size_t budget) {
  size_t i = 0, start = 0, before = o->n;
  int open = 0;
  while (i < len && o->n - before <= budget) {
    uint64_t a = 0, b = 0;
    size_t step = len - i >= 8 ? 8 : 1;
    memcpy(&a, cur + i, step);
    if (base) memcpy(&b, base + i, step);
    uint64_t x = a ^ b;
    if (step == 8 && (x == 0 || !has_zero_byte(x))) { /* all 8 bytes equal, or all 8 changed */
      if (x && !open) start = i, open = 1;
      if (!x && open) out_run(o, addr + start, cur + start, i - start), open = 0;
      i += 8;
      continue;
    }
    for (size_t k = i; k < i + step; k++) { /* some bytes of the word changed */
      int changed = cur[k] != (base ? base[k] : 0);
      if (changed && !open) start = k, open = 1;
      if (!changed && open) out_run(o, addr + start, cur + start, k - start), open = 0;
    }
    i += step;
  }
  if (open && i >= len) out_run(o, addr + start, cur + start, len - start);
}

/* The page as one record: its mask (bit i: byte i changed), then its bytes. */
static void diff_masked(Out *o, uint64_t addr, const uint8_t *cur, const uint8_t *base, size_t len) {
  uint8_t mask[DIFF_PAGE / 8 + 8] = {0};
  size_t mlen = (len + 7) / 8 / 8 * 8 + 8, need = 16 + mlen + (len + 7) / 8 * 8;
  for (size_t w = 0; w < len; w += 8) { /* a mask byte per 8-byte word */
    uint64_t a = 0, b = 0;
    size_t n = len - w < 8 ? len - w : 8;
    memcpy(&a, cur + w, n);
    if (base) memcpy(&b, base + w, n);
    mask[w / 8] = nonzero_bytes(a ^ b);
  }
  if (o->n + need > o->cap) {
    o->cap = (o->n + need) * 2;
    o->p = wm_xrealloc(o->p, o->cap);
  }
  uint64_t n = len | DIFF_MASKED;
  memcpy(o->p + o->n, &addr, 8);
  memcpy(o->p + o->n + 8, &n, 8);
  memcpy(o->p + o->n + 16, mask, mlen);
  memset(o->p + o->n + 16 + mlen, 0, need - 16 - mlen);
  memcpy(o->p + o->n + 16 + mlen, cur, len);
  o->n += need;
}

static void diff_buffer(Out *o, const GBuf *b, const uint8_t *base) {
  for (uint64_t off = 0; off < b->size; off += DIFF_PAGE) {
    size_t len = b->size - off < DIFF_PAGE ? (size_t)(b->size - off) : DIFF_PAGE;
    if (!memcmp(b->data + off, base ? base + off : zero_page, len)) continue;
    size_t before = o->n, masked = 16 + len / 8 + 8 + len;
    diff_page(o, b->addr + off, b->data + off, base ? base + off : NULL, len, masked);
    if (o->n - before > masked || o->n - before == 0) { /* fragmented: the masked page is smaller */
      o->n = before;
      diff_masked(o, b->addr + off, b->data + off, base ? base + off : NULL, len);
    }
  }
}

uint8_t *sim_diff_build(const GlobalMem *g, const SimSnap *s, size_t *len) {
  Out o = {0};
  int k = 0;
  for (int i = 0; i < g->n; i++) {
    const GBuf *b = &g->buf[i];
    while (k < s->n && s->addr[k] < b->addr) k++; /* both sorted by address */
    const uint8_t *base = k < s->n && s->addr[k] == b->addr && s->size[k] == b->size ? s->data[k] : NULL;
    diff_buffer(&o, b, base);
  }
  *len = o.n;
  return o.p;
}

static void apply_masked(uint8_t *dst, const uint8_t *mask, const uint8_t *src, size_t len) {
  for (size_t w = 0; w < len; w += 8) {
    uint64_t d = 0, s = 0, m = byte_mask(mask[w / 8]);
    size_t n = len - w < 8 ? len - w : 8;
    if (!m) continue;
    memcpy(&d, dst + w, n);
    memcpy(&s, src + w, n);
    d = (d & ~m) | (s & m);
    memcpy(dst + w, &d, n);
  }
}

uint64_t sim_diff_apply(GlobalMem *g, const uint8_t *d, size_t len) {
  uint64_t missed = 0;
  for (size_t at = 0; at + 16 <= len;) {
    uint64_t addr, n;
    memcpy(&addr, d + at, 8);
    memcpy(&n, d + at + 8, 8);
    int masked = (n & DIFF_MASKED) != 0;
    size_t mlen = masked ? (n & ~DIFF_MASKED) / 8 / 8 * 8 + 8 : 0, size = (size_t)(n & ~DIFF_MASKED);
    GBuf *b = gmem_find(g, addr, size);
    if (!b) missed++;
    else if (!masked) memcpy(b->data + (addr - b->addr), d + at + 16, size);
    else apply_masked(b->data + (addr - b->addr), d + at + 16, d + at + 16 + mlen, size);
    at += 16 + mlen + (size + 7) / 8 * 8;
  }
  return missed;
}
