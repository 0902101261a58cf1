/* emu_printf.c - device printf: nvcc turns printf(fmt, ...) into
 * vprintf(fmt, args), args a local buffer holding each argument aligned to
 * its size (char and short promoted to int, float to double, as C's
 * variadic calls promote them).  Each conversion is formatted with the
 * host's snprintf on a value read from that buffer.
 *
 * Notes:
 *  - The text goes to the block's buffer (Block.out); emu_run writes the
 *    blocks' text in block order at the end of the launch.  A block's text
 *    is in the GPU's order: warp by warp as they run, lanes in order.
 *  - CUDA's FIFO (1 MiB by default) keeps records: here one lane's text is a
 *    record, the limit is on the text, and from the first record that does
 *    not fit on everything is dropped (and counted).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"

/* Appends to the record being written (committed by end_record). */
static void out_bytes(Block *b, const char *s, size_t n) {
  if (!n) return;
  if (b->nout + b->nrec + n > b->capout) {
    b->capout = (b->nout + b->nrec + n) * 2;
    b->out = wm_xrealloc(b->out, b->capout);
  }
  memcpy(b->out + b->nout + b->nrec, s, n);
  b->nrec += n;
}

/* Keeps the record, unless it does not fit in the FIFO: then it and every
 * later one are dropped (a record at a time, as the GPU drops them). */
static void end_record(Block *b) {
  size_t n = b->nrec;
  b->nrec = 0;
  if (b->dropped || b->nout + n > EMU_PRINTF_FIFO) {
    b->dropped += n;
    return;
  }
  if (b->nchunks == b->capchunks) {
    b->capchunks = b->capchunks ? 2 * b->capchunks : 64;
    b->chunks = wm_xrealloc(b->chunks, b->capchunks * sizeof *b->chunks);
  }
  b->chunks[b->nchunks++] = (PrintChunk){b->order, b->nout, n};
  b->nout += n;
}

/* One conversion as parsed: "%-08.3lld" has flags "-0", width 8,
 * precision 3, length "ll", conversion 'd'. */
typedef struct Spec {
  char flags[8];
  int width, prec;   /* -1: not given */
  char len[3];
  char conv;
} Spec;

typedef struct Args {
  const uint8_t *p;
  size_t avail, pos;
  int n;
} Args;

/* The next argument of `size` bytes, aligned to its size; 0 if past the
 * buffer. */
static int next_arg(Args *a, unsigned size, uint64_t *v) {
  size_t at = (a->pos + size - 1) / size * size;
  if (!a->p || at + size > a->avail) return 0;
  *v = 0;
  memcpy(v, a->p + at, size);
  a->pos = at + size;
  a->n++;
  return 1;
}

/* Parses the conversion after '%' at f; returns the characters used. */
static size_t parse_spec(const char *f, size_t n, Spec *s) {
  size_t i = 0, nf = 0;
  memset(s, 0, sizeof *s);
  s->width = s->prec = -1;
  while (i < n && strchr("-+ #0", f[i]) && nf < sizeof s->flags - 1) s->flags[nf++] = f[i++];
  if (i < n && f[i] == '*') s->width = -2, i++;
  else
    for (; i < n && f[i] >= '0' && f[i] <= '9'; i++) s->width = (s->width < 0 ? 0 : s->width * 10) + (f[i] - '0') % 10000;
  if (i < n && f[i] == '.') {
    i++;
    s->prec = 0;
    if (i < n && f[i] == '*') s->prec = -2, i++;
    else
      for (; i < n && f[i] >= '0' && f[i] <= '9'; i++) s->prec = (s->prec * 10 + (f[i] - '0')) % 10000;
  }
  size_t nl = 0;
  while (i < n && strchr("hlLzjt", f[i]) && nl < 2) s->len[nl++] = f[i++];
  s->conv = i < n ? f[i++] : '\0';
  return i;
}

/* The host format for spec s with the length modifier `len`. */
static void host_format(const Spec *s, const char *len, char *buf, size_t n) {
  char w[16] = "", p[16] = "";
  if (s->width >= 0) snprintf(w, sizeof w, "%d", s->width);
  if (s->prec >= 0) snprintf(p, sizeof p, ".%d", s->prec);
  snprintf(buf, n, "%%%s%s%s%s%c", s->flags, w, p, len, s->conv);
}

/* A %s argument: the string at device address a, at most prec bytes. */
static int string_arg(Block *b, const EmuInstr *x, int warp, int lane, uint64_t a, const Spec *s, char *out,
                      size_t n) {
  if (a == 0) {
    snprintf(out, n, "(null)");
    return 0;
  }
  size_t avail = 0;
  const uint8_t *p = emu_device_ptr(b, warp, lane, a, 1, &avail);
  if (!p)
    return emu_fault(b, x, warp, lane, WM_EFAULT, "printf's %%s argument 0x%" PRIx64 " is not a valid address", a);
  size_t len = 0, max = s->prec >= 0 ? (size_t)s->prec : SIZE_MAX;
  while (len < avail && len < max && p[len]) len++;
  if (len == avail && len < max)
    return emu_fault(b, x, warp, lane, WM_EFAULT, "printf's %%s argument at 0x%" PRIx64 " runs off its buffer", a);
  char fmt[64];
  Spec t = *s;
  t.prec = -1;
  host_format(&t, "", fmt, sizeof fmt);
  char str[4096];
  size_t cut = len < sizeof str - 1 ? len : sizeof str - 1;
  memcpy(str, p, cut);
  str[cut] = '\0';
  snprintf(out, n, fmt, str);
  return 0;
}

/* Formats one conversion into out (n bytes); -1 after a fault. */
static int convert(Block *b, const EmuInstr *x, int warp, int lane, Spec *s, Args *a, char *out, size_t n) {
  uint64_t v = 0;
  char fmt[64];
  int wide = s->len[0] == 'l' || s->len[0] == 'z' || s->len[0] == 'j' || s->len[0] == 't';
  if (s->width == -2 || s->prec == -2) {
    uint64_t star;
    if (s->width == -2 && next_arg(a, 4, &star)) s->width = (int32_t)star < 0 ? 0 : (int32_t)star % 10000;
    if (s->prec == -2 && next_arg(a, 4, &star)) s->prec = (int32_t)star < 0 ? -1 : (int32_t)star % 10000;
    if (s->width == -2) s->width = -1;
    if (s->prec == -2) s->prec = -1;
  }
  switch (s->conv) {
  case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
    if (!next_arg(a, wide && s->conv != 'c' ? 8 : 4, &v)) break;
    host_format(s, s->conv == 'c' ? "" : "ll", fmt, sizeof fmt);
    if (s->conv == 'c') snprintf(out, n, fmt, (int)(unsigned char)v);
    else if (s->conv == 'd' || s->conv == 'i') {
      long long sv = wide ? (long long)(int64_t)v : (long long)(int32_t)v;
      if (!strcmp(s->len, "h")) sv = (short)sv;
      if (!strcmp(s->len, "hh")) sv = (signed char)sv;
      snprintf(out, n, fmt, sv);
    } else {
      unsigned long long uv = wide ? v : (uint32_t)v;
      if (!strcmp(s->len, "h")) uv = (unsigned short)uv;
      if (!strcmp(s->len, "hh")) uv = (unsigned char)uv;
      snprintf(out, n, fmt, uv);
    }
    return 0;
  case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
    if (!next_arg(a, 8, &v)) break;
    host_format(s, "", fmt, sizeof fmt);
    snprintf(out, n, fmt, F64(v));
    return 0;
  case 'p':
    if (!next_arg(a, 8, &v)) break;
    s->conv = 'x';
    host_format(s, "ll", fmt, sizeof fmt);
    out[0] = '0', out[1] = 'x';
    snprintf(out + 2, n - 2, fmt, (unsigned long long)v);
    return 0;
  case 's':
    if (!next_arg(a, 8, &v)) break;
    return string_arg(b, x, warp, lane, v, s, out, n);
  default: /* %n and unknown conversions print nothing */
    out[0] = '\0';
    return 0;
  }
  return emu_fault(b, x, warp, lane, WM_EFAULT, "printf's argument %d lies outside its argument buffer", a->n + 1);
}

int emu_vprintf(Block *b, const EmuInstr *x, int warp, int lane, uint64_t fmt, uint64_t args) {
  size_t avail = 0, aavail = 0;
  const uint8_t *f = emu_device_ptr(b, warp, lane, fmt, 1, &avail);
  if (!f) return emu_fault(b, x, warp, lane, WM_EFAULT, "printf's format 0x%" PRIx64 " is not a valid address", fmt);
  size_t n = 0;
  while (n < avail && f[n]) n++;
  Args a = {args ? emu_device_ptr(b, warp, lane, args, 1, &aavail) : NULL, 0, 0, 0};
  a.avail = aavail;
  const char *s = (const char *)f;
  char buf[4200];
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && s[j] != '%') j++;
    out_bytes(b, s + i, j - i);
    if (j >= n) break;
    if (j + 1 < n && s[j + 1] == '%') {
      out_bytes(b, "%", 1);
      i = j + 2;
      continue;
    }
    Spec sp;
    i = j + 1 + parse_spec(s + j + 1, n - j - 1, &sp);
    if (convert(b, x, warp, lane, &sp, &a, buf, sizeof buf)) {
      b->nrec = 0;
      return -1;
    }
    out_bytes(b, buf, strlen(buf));
  }
  end_record(b);
  return a.n;
}

/* A record of printf text and the buffer it is in. */
typedef struct Record {
  const PrintChunk *c;
  const char *text;
} Record;

/* Block order, then the order a block's records were written (one worker
 * runs a block, so its records' offsets grow). */
static int record_order(const void *a, const void *b) {
  const PrintChunk *x = ((const Record *)a)->c, *y = ((const Record *)b)->c;
  if (x->block != y->block) return x->block < y->block ? -1 : 1;
  return x->off < y->off ? -1 : x->off > y->off;
}

/* Writes the blocks' printf text in block order (up to the block that
 * faulted, if one did), at most CUDA's FIFO of it: from the first record
 * that does not fit on, nothing (so the text does not depend on how the
 * blocks were shared among workers, each of which kept at most a FIFO). */
void emu_printf_flush(EmuLaunch *l, Block *const *bs, size_t nb, uint64_t last) {
  size_t n = 0, k = 0;
  l->printf_bytes = l->printf_dropped = 0;
  for (size_t t = 0; t < nb; t++) n += bs[t]->nchunks, l->printf_dropped += bs[t]->dropped;
  if (!n && !l->printf_dropped) return;
  Record *all = wm_xmalloc((n + 1) * sizeof *all);
  for (size_t t = 0; t < nb; t++)
    for (size_t i = 0; i < bs[t]->nchunks; i++) all[k++] = (Record){&bs[t]->chunks[i], bs[t]->out};
  qsort(all, n, sizeof *all, record_order);
  FILE *out = l->printf_out ? l->printf_out : stdout;
  int full = 0;
  for (size_t i = 0; i < n && all[i].c->block <= last; i++) {
    size_t len = all[i].c->len;
    if (full || l->printf_bytes + len > EMU_PRINTF_FIFO) {
      l->printf_dropped += len;
      full = 1;
      continue;
    }
    if (len) fwrite(all[i].text + all[i].c->off, 1, len, out); /* printf(""): no text at all */
    l->printf_bytes += len;
  }
  if (l->printf_dropped)
    fprintf(out, "warpmem: the printf buffer (%u bytes, cudaLimitPrintfFifoSize) is full: %" PRIu64
            " bytes of later output dropped\n", EMU_PRINTF_FIFO, l->printf_dropped);
  fflush(out);
  free(all);
}
