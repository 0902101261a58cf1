/* fatbin.c - the fat binaries nvcc embeds in applications, read as nvcc 13
 * writes them (the layout was worked out from its output: docs/fatbin.md).
 *
 * A fat binary is a 16-byte header and the entries after it:
 *   +0 u32 magic 0xBA55ED50  +4 u16 version (1)  +6 u16 header size (16)
 *   +8 u64 bytes of entries that follow the header
 * Each entry is a header of at least 64 bytes and its payload:
 *   +0  u16 kind (1 PTX, 2 ELF)      +2  u16 version (0x0101)
 *   +4  u32 header size (64..)       +8  u64 payload bytes (padded to 8)
 *   +16 u32 compressed bytes (0 when stored plain)
 *   +20 u32 offset of the ptxas options (in the header)
 *   +24 u16 minor, +26 u16 major: the PTX ISA version (PTX entries)
 *   +28 u32 arch (90)   +32/+36 u32 offset/length of the source name (-G)
 *   +40 u64 flags (FATBIN_F_*)  +48 u64 0  +56 u64 bytes once decompressed
 * A section holds several fat binaries one after another (one per
 * translation unit), maybe with zero padding between them.
 *
 * Every size is checked against the bytes there are before it is used. */
#include "rt/fatbin.h"

#include <limits.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define HDR_BYTES 16u    /* a fat binary's header */
#define ENTRY_MIN 64u    /* the entry header fields we read */
#define MAX_IMAGE (1ull << 30) /* a fat binary in memory, trusted: a sanity bound */

typedef struct FatbinWrapper { /* __fatBinC_Wrapper_t of CUDA's fatbinary.h */
  int magic;
  int version;
  const unsigned long long *data;
  const void *filename_or_fatbins;
} FatbinWrapper;

int fatbin_prelinked(const void *wrapper, const void **out, int max) {
  FatbinWrapper w;
  if (!wrapper) return 0;
  memcpy(&w, wrapper, sizeof w);
  if ((uint32_t)w.magic != FATBIN_WRAPPER_MAGIC || w.version != 2 || !w.filename_or_fatbins) return 0;
  const void *const *fb = w.filename_or_fatbins;
  int n = 0;
  while (n < max && fb[n]) {
    out[n] = fb[n];
    n++;
  }
  return n;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

const void *fatbin_unwrap(const void *wrapper, WmErr *e) {
  if (!wrapper) {
    wm_err(e, WM_EPARSE, "fat binary wrapper: NULL pointer");
    return NULL;
  }
  FatbinWrapper w;
  memcpy(&w, wrapper, sizeof w);
  if ((uint32_t)w.magic != FATBIN_WRAPPER_MAGIC) {
    wm_err(e, WM_EPARSE, "fat binary wrapper: magic 0x%08x, want 0x%08x", (unsigned)w.magic,
           FATBIN_WRAPPER_MAGIC);
    return NULL;
  }
  /* version 1: one translation unit's code; 2: nvcc's device-link module */
  if (w.version != 1 && w.version != 2) {
    wm_err(e, WM_EUNSUP, "fat binary wrapper: version %d (warpmem reads versions 1 and 2)", w.version);
    return NULL;
  }
  if (!w.data) {
    wm_err(e, WM_EPARSE, "fat binary wrapper: no fat binary (data is NULL)");
    return NULL;
  }
  if (rd32((const uint8_t *)w.data) != FATBIN_MAGIC) {
    wm_err(e, WM_EPARSE, "fat binary at %p: magic 0x%08x, want 0x%08x", (const void *)w.data,
           rd32((const uint8_t *)w.data), FATBIN_MAGIC);
    return NULL;
  }
  return w.data;
}

/* The ptxas options of PTX entry header h (hsize bytes): +20 gives where
 * in the header a (u32 offset, u32 length) pair is.  ELF entries use the
 * pair for other data.  Out of bounds: none (they are a hint). */
static void entry_opts(const uint8_t *h, uint32_t hsize, FatbinEntry *en) {
  uint32_t pair = rd32(h + 20);
  if (en->kind != FATBIN_PTX || pair < ENTRY_MIN || pair > hsize - 8) return;
  uint32_t off = rd32(h + pair), len = rd32(h + pair + 4);
  if (len == 0 || off > hsize || len > hsize - off) return;
  en->opts = (const char *)h + off;
  en->opts_len = len;
}

/* The entry header at img+at, ending at most at img+end (the end of its fat
 * binary).  Returns the offset after the entry, or 0 with a message. */
static uint64_t parse_entry(const uint8_t *img, uint64_t at, uint64_t end, FatbinEntry *en, WmErr *e) {
  uint64_t room = end - at;
  if (room < 16) {
    wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: header truncated (%llu bytes left)",
           (unsigned long long)at, (unsigned long long)room);
    return 0;
  }
  const uint8_t *h = img + at;
  uint32_t hsize = rd32(h + 4);
  uint64_t psize = rd64(h + 8);
  if (hsize < ENTRY_MIN || hsize > room) {
    wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: header size %u (want 64..%llu)",
           (unsigned long long)at, hsize, (unsigned long long)room);
    return 0;
  }
  if (psize > room - hsize) {
    wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: payload of %llu bytes, only %llu left",
           (unsigned long long)at, (unsigned long long)psize, (unsigned long long)(room - hsize));
    return 0;
  }
  memset(en, 0, sizeof *en);
  en->kind = rd16(h);
  en->ptx_minor = rd16(h + 24);
  en->ptx_major = rd16(h + 26);
  en->arch = rd32(h + 28);
  en->flags = rd64(h + 40);
  en->suffix = (en->flags & FATBIN_F_ARCH_A) ? 'a' : (en->flags & FATBIN_F_ARCH_F) ? 'f' : 0;
  en->payload = h + hsize;
  en->offset = at;
  en->size = en->raw_size = psize;
  en->codec = "none";
  entry_opts(h, hsize, en);
  uint64_t codec = en->flags & (FATBIN_F_LZ4 | FATBIN_F_ZSTD);
  if (codec == (FATBIN_F_LZ4 | FATBIN_F_ZSTD)) {
    wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: flags 0x%llx say both LZ4 and zstd",
           (unsigned long long)at, (unsigned long long)en->flags);
    return 0;
  }
  if (codec) {
    en->codec = codec == FATBIN_F_LZ4 ? "lz4" : "zstd";
    en->size = rd32(h + 16);
    en->raw_size = rd64(h + 56);
    if (en->size == 0 || en->size > psize) {
      wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: %llu compressed bytes in a payload of %llu",
             (unsigned long long)at, (unsigned long long)en->size, (unsigned long long)psize);
      return 0;
    }
  }
  return at + hsize + psize;
}

/* Appends en to the growing list. */
static void push(FatbinEntry **list, int *n, int *cap, const FatbinEntry *en) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    *list = wm_xrealloc(*list, (size_t)*cap * sizeof **list);
  }
  (*list)[(*n)++] = *en;
}

/* The fat binary at img+off (len bytes in all).  Returns the offset after
 * it, or 0 with a message. */
static uint64_t parse_fatbin(const uint8_t *img, uint64_t off, uint64_t len, FatbinEntry **list, int *n,
                             int *cap, WmErr *e) {
  if (len - off < HDR_BYTES) {
    wm_err(e, WM_EPARSE, "fat binary at offset 0x%llx: header truncated (%llu of 16 bytes)",
           (unsigned long long)off, (unsigned long long)(len - off));
    return 0;
  }
  const uint8_t *h = img + off;
  if (rd32(h) != FATBIN_MAGIC) {
    wm_err(e, WM_EPARSE, "fat binary at offset 0x%llx: magic 0x%08x, want 0x%08x", (unsigned long long)off,
           rd32(h), FATBIN_MAGIC);
    return 0;
  }
  uint16_t hsize = rd16(h + 6);
  uint64_t size = rd64(h + 8);
  if (hsize < HDR_BYTES || hsize > len - off || size > len - off - hsize) {
    wm_err(e, WM_EPARSE,
           "fat binary at offset 0x%llx: header of %u bytes and %llu bytes of entries, only %llu bytes there",
           (unsigned long long)off, hsize, (unsigned long long)size, (unsigned long long)(len - off));
    return 0;
  }
  uint64_t end = off + hsize + size;
  for (uint64_t at = off + hsize; at < end;) {
    FatbinEntry en;
    at = parse_entry(img, at, end, &en, e);
    if (!at) return 0;
    push(list, n, cap, &en);
  }
  return end;
}

int fatbin_list(const void *image, size_t len, FatbinEntry **out, int *n, WmErr *e) {
  const uint8_t *img = image;
  *out = NULL;
  *n = 0;
  if (!img) return wm_err(e, WM_EPARSE, "fat binary: NULL image");
  if (len == 0) { /* in memory, from fatbin_unwrap: one fat binary, its header trusted */
    if (rd32(img) != FATBIN_MAGIC)
      return wm_err(e, WM_EPARSE, "fat binary: magic 0x%08x, want 0x%08x", rd32(img), FATBIN_MAGIC);
    uint64_t whole = (uint64_t)rd16(img + 6) + rd64(img + 8);
    if (whole > MAX_IMAGE)
      return wm_err(e, WM_EPARSE, "fat binary: its header claims %llu bytes (over 1 GiB)",
                    (unsigned long long)whole);
    len = (size_t)whole;
  }
  int cap = 0;
  uint64_t off = 0;
  while (off < len) {
    if (img[off] == 0) { /* padding between fat binaries */
      off++;
      continue;
    }
    off = parse_fatbin(img, off, len, out, n, &cap, e);
    if (!off) {
      free(*out);
      *out = NULL;
      *n = 0;
      return -1;
    }
  }
  if (*n == 0) return wm_err(e, WM_EPARSE, "fat binary: no entries in %zu bytes", len);
  return 0;
}

void fatbin_entry_name(const FatbinEntry *en, char *buf, size_t n) {
  char sfx[2] = {en->suffix, 0};
  if (en->kind == FATBIN_PTX)
    snprintf(buf, n, "compute_%u%s", en->arch, sfx);
  else if (en->kind == FATBIN_ELF)
    snprintf(buf, n, "sm_%u%s", en->arch, sfx);
  else if (en->kind == FATBIN_LTO)
    snprintf(buf, n, "lto_%u%s", en->arch, sfx);
  else
    snprintf(buf, n, "kind %d for arch %u", en->kind, en->arch);
}

/* Decompresses en into out (en->raw_size bytes).  Returns 0 or -1. */
static int inflate(const FatbinEntry *en, uint8_t *out, WmErr *e) {
  unsigned long long at = (unsigned long long)en->offset;
  if (en->codec[0] == 'l') {
    if (en->size > INT_MAX) return wm_err(e, WM_ELIMIT, "fat binary: entry at offset 0x%llx: LZ4 block too large", at);
    int got = LZ4_decompress_safe((const char *)en->payload, (char *)out, (int)en->size, (int)en->raw_size);
    if (got < 0) return wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: corrupt LZ4 data", at);
    if ((uint64_t)got != en->raw_size)
      return wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: LZ4 data gave %d bytes, the header says %llu",
                    at, got, (unsigned long long)en->raw_size);
    return 0;
  }
  size_t got = ZSTD_decompress(out, (size_t)en->raw_size, en->payload, (size_t)en->size);
  if (ZSTD_isError(got))
    return wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: corrupt zstd data (%s)", at,
                  ZSTD_getErrorName(got));
  if (got != en->raw_size)
    return wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: zstd data gave %zu bytes, the header says %llu",
                  at, got, (unsigned long long)en->raw_size);
  return 0;
}

uint8_t *fatbin_payload(const FatbinEntry *en, size_t *len, WmErr *e) {
  if (en->raw_size > FATBIN_MAX_RAW) {
    wm_err(e, WM_ELIMIT, "fat binary: entry at offset 0x%llx: %llu bytes decompressed, over warpmem's limit of %llu MiB",
           (unsigned long long)en->offset, (unsigned long long)en->raw_size, FATBIN_MAX_RAW >> 20);
    return NULL;
  }
  uint8_t *out = wm_xmalloc((size_t)en->raw_size + 1);
  if (strcmp(en->codec, "none") == 0) {
    memcpy(out, en->payload, (size_t)en->size);
  } else if (inflate(en, out, e)) {
    free(out);
    return NULL;
  }
  out[en->raw_size] = 0;
  *len = (size_t)en->raw_size;
  return out;
}

char *fatbin_ptx(const FatbinEntry *en, WmErr *e) {
  if (en->kind != FATBIN_PTX) {
    char name[48];
    fatbin_entry_name(en, name, sizeof name);
    wm_err(e, WM_EUSAGE, "fat binary: entry at offset 0x%llx is %s, not PTX", (unsigned long long)en->offset, name);
    return NULL;
  }
  size_t len;
  char *text = (char *)fatbin_payload(en, &len, e);
  if (!text) return NULL;
  /* the text ends at its NUL; the payload is padded with more */
  if (strlen(text) == 0) {
    free(text);
    wm_err(e, WM_EPARSE, "fat binary: entry at offset 0x%llx: empty PTX", (unsigned long long)en->offset);
    return NULL;
  }
  return text;
}

/* Whether a is a better PTX entry than b for a GPU of max_arch: the highest
 * arch not above it, else the lowest; between equals the portable one (no
 * a/f suffix), which uses no arch-specific features. */
static int better(const FatbinEntry *a, const FatbinEntry *b, uint32_t max_arch) {
  int a_fits = a->arch <= max_arch, b_fits = b->arch <= max_arch;
  if (a_fits != b_fits) return a_fits;
  if (a->arch != b->arch) return a_fits ? a->arch > b->arch : a->arch < b->arch;
  return a->suffix == 0 && b->suffix != 0;
}

int fatbin_pick_ptx(const FatbinEntry *en, int n, uint32_t max_arch, WmErr *e) {
  int best = -1;
  uint32_t sass = 0;
  for (int i = 0; i < n; i++) {
    if ((en[i].kind == FATBIN_ELF || en[i].kind == FATBIN_LTO) && en[i].arch > sass) sass = en[i].arch;
    if (en[i].kind == FATBIN_PTX && (best < 0 || better(&en[i], &en[best], max_arch))) best = i;
  }
  if (best >= 0) return best;
  char list[1024] = "";
  size_t used = 0;
  for (int i = 0; i < n && used < sizeof list - 64; i++) {
    char name[48];
    fatbin_entry_name(&en[i], name, sizeof name);
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s (%s)", i ? ", " : "", name,
                             en[i].kind == FATBIN_ELF ? "SASS" : en[i].kind == FATBIN_LTO ? "LTO IR" : "other");
  }
  if (!sass) sass = max_arch;
  return wm_err(e, WM_EUNSUP,
                "the application's device code has no PTX, which warpmem runs: it holds %s%s\n"
                "rebuild with PTX: -gencode arch=compute_%u,code=[sm_%u,compute_%u] (or -arch=sm_%u, "
                "which embeds compute_%u PTX)",
                n ? list : "no entries", used >= sizeof list - 64 ? ", ..." : "", sass, sass, sass, sass, sass);
}
