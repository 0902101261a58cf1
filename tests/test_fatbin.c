/* test_fatbin.c - rt/fatbin and util/elf: the device code of applications.
 *
 * The fixtures of tests/data/fatbin are what nvcc 13 made of add.cu, scale.cu
 * and app.cu there (tools/make_fatbin_fixtures.sh, NVCC_VERSION), with the
 * PTX that `nvcc -ptx` gives for the same code: the golden text.  A fat
 * binary's PTX is nvcc's without comments and indentation (docs/fatbin.md),
 * so texts are compared with comments dropped and blanks collapsed.
 *
 * Hostile input: every truncation and every flipped byte of the fixtures
 * must give an error or entries within the image, never a crash (this test
 * runs under ASan and UBSan; images are copied into buffers of exactly
 * their length so that a read past the end is caught). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/elf.h"
#include "rt/fatbin.h"
#include "util/diag.h"
#include "util/sys.h"

/* The bytes of tests/data/fatbin/NAME (malloc'd, exactly *len bytes). */
static uint8_t *fixture(const char *name, size_t *len) {
  char rel[256];
  snprintf(rel, sizeof rel, "fatbin/%s", name);
  WmErr e = {0};
  char *text = wm_read_file(tu_data(rel), len, &e);
  if (!text) fail_msg("%s", e.msg);
  uint8_t *exact = wm_xmalloc(*len ? *len : 1);
  memcpy(exact, text, *len);
  free(text);
  return exact;
}

/* PTX with // comments dropped, lines trimmed, blanks collapsed to one
 * space and empty lines dropped (malloc'd). */
static char *normalize_ptx(const char *s) {
  char *out = wm_xmalloc(strlen(s) + 1), *o = out;
  int blank = 0, line_start = 1;
  for (const char *p = s; *p; p++) {
    if (p[0] == '/' && p[1] == '/') {
      while (p[1] && p[1] != '\n') p++;
      continue;
    }
    if (*p == '\n') {
      if (!line_start) *o++ = '\n';
      line_start = 1;
      blank = 0;
    } else if (*p == ' ' || *p == '\t' || *p == '\r') {
      blank = 1;
    } else {
      if (blank && !line_start) *o++ = ' ';
      *o++ = *p;
      blank = 0;
      line_start = 0;
    }
  }
  *o = 0;
  return out;
}

/* The normalized text of tests/data/fatbin/NAME. */
static char *golden_ptx(const char *name) {
  size_t len;
  uint8_t *raw = fixture(name, &len);
  char *text = wm_xstrndup((const char *)raw, len);
  char *norm = normalize_ptx(text);
  free(raw);
  free(text);
  return norm;
}

/* Lists a fixture's entries (fails the test on an error). */
static FatbinEntry *list_fixture(const char *name, uint8_t **buf, int *n) {
  size_t len;
  *buf = fixture(name, &len);
  FatbinEntry *en;
  WmErr e = {0};
  if (fatbin_list(*buf, len, &en, n, &e)) fail_msg("%s: %s", name, e.msg);
  return en;
}

/* Entry i's PTX, normalized (fails the test on an error). */
static char *entry_ptx(const FatbinEntry *en, int i) {
  WmErr e = {0};
  char *text = fatbin_ptx(&en[i], &e);
  if (!text) fail_msg("entry %d: %s", i, e.msg);
  char *norm = normalize_ptx(text);
  free(text);
  return norm;
}

static void expect_entry(const FatbinEntry *en, const char *name, const char *codec) {
  char got[48];
  fatbin_entry_name(en, got, sizeof got);
  assert_string_equal(got, name);
  assert_string_equal(en->codec, codec);
}

/* add_none: a 16-byte fat binary header, the sm_90 ELF (a 64-byte entry
 * header, 0xf00 bytes) at 16, the compute_90 PTX (an 80-byte header) at
 * 16 + 64 + 0xf00 = 0xf50; PTX ISA 9.0 is what nvcc 13's .version says. */
static void test_layout_plain(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("add_none.fatbin", &buf, &n);
  assert_int_equal(n, 2);
  expect_entry(&en[0], "sm_90", "none");
  assert_int_equal(en[0].kind, FATBIN_ELF);
  assert_int_equal(en[0].offset, 16);
  assert_int_equal(en[0].size, 0xf00);
  assert_memory_equal(en[0].payload, "\x7f" "ELF", 4);
  assert_ptr_equal(en[0].payload, buf + 16 + 64);
  expect_entry(&en[1], "compute_90", "none");
  assert_int_equal(en[1].offset, 16 + 64 + 0xf00);
  assert_ptr_equal(en[1].payload, buf + 0xf50 + 80);
  assert_int_equal(en[1].ptx_major, 9);
  assert_int_equal(en[1].ptx_minor, 0);
  assert_int_equal(en[1].flags & (FATBIN_F_64BIT | FATBIN_F_LINUX), FATBIN_F_64BIT | FATBIN_F_LINUX);
  char *want = golden_ptx("add_sm90.ptx"), *got = entry_ptx(en, 1);
  assert_string_equal(got, want);
  assert_non_null(strstr(got, ".visible .entry _Z3addPfPKfi("));
  free(want);
  free(got);
  free(en);
  free(buf);
}

/* nvcc's compression modes: none, speed (LZ4: flag 0x2000), default and
 * balance (zstd: 0x8000), size (zstd, the ELF too): one PTX text. */
static void test_codecs_agree(void **state) {
  (void)state;
  static const char *const files[] = {"add_none.fatbin", "add_lz4.fatbin", "add_zstd.fatbin", "add_size.fatbin"};
  static const char *const codec[] = {"none", "lz4", "zstd", "zstd"};
  char *want = golden_ptx("add_sm90.ptx");
  uint8_t *plain_buf;
  int plain_n;
  FatbinEntry *plain = list_fixture(files[0], &plain_buf, &plain_n);
  for (int f = 0; f < 4; f++) {
    uint8_t *buf;
    int n;
    FatbinEntry *en = list_fixture(files[f], &buf, &n);
    assert_int_equal(n, 2);
    expect_entry(&en[1], "compute_90", codec[f]);
    assert_int_equal((en[1].raw_size + 7) & ~7ull, plain[1].size); /* the text and its NUL, padded to 8 */
    char *got = entry_ptx(en, 1);
    assert_string_equal(got, want);
    free(got);
    /* the SASS too, decompressed, is the same ELF */
    size_t len;
    WmErr e = {0};
    uint8_t *elf = fatbin_payload(&en[0], &len, &e);
    if (!elf) fail_msg("%s: %s", files[f], e.msg);
    assert_int_equal(len, plain[0].size);
    assert_memory_equal(elf, plain[0].payload, len);
    free(elf);
    free(en);
    free(buf);
  }
  free(want);
  free(plain);
  free(plain_buf);
}

/* -gencode for 80 (SASS+PTX), 90 (SASS) and 100 (SASS+PTX): the entries in
 * that order, and the PTX picked for each GPU. */
static void test_multi_arch(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("add_multi.fatbin", &buf, &n);
  static const char *const names[] = {"sm_80", "compute_80", "sm_90", "sm_100", "compute_100"};
  assert_int_equal(n, 5);
  for (int i = 0; i < 5; i++) expect_entry(&en[i], names[i], "zstd");
  WmErr e = {0};
  assert_int_equal(fatbin_pick_ptx(en, n, 90, &e), 1);  /* highest not above */
  assert_int_equal(fatbin_pick_ptx(en, n, 100, &e), 4);
  assert_int_equal(fatbin_pick_ptx(en, n, 120, &e), 4);
  assert_int_equal(fatbin_pick_ptx(en, n, 75, &e), 1);  /* none fits: the lowest */
  char *want80 = golden_ptx("add_sm80.ptx"), *want100 = golden_ptx("add_sm100.ptx");
  char *got80 = entry_ptx(en, 1), *got100 = entry_ptx(en, 4);
  assert_string_equal(got80, want80);
  assert_string_equal(got100, want100);
  assert_non_null(strstr(got100, ".target sm_100"));
  free(want80);
  free(want100);
  free(got80);
  free(got100);
  free(en);
  free(buf);
}

/* -arch=sm_90a: compute_90 PTX, sm_90a SASS, compute_90a PTX (flag
 * 0x100000); a GPU of 90 gets the portable PTX. */
static void test_arch_specific(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("add_sm90a.fatbin", &buf, &n);
  assert_int_equal(n, 3);
  expect_entry(&en[0], "compute_90", "zstd");
  expect_entry(&en[1], "sm_90a", "zstd");
  expect_entry(&en[2], "compute_90a", "zstd");
  assert_true(en[2].flags & FATBIN_F_ARCH_A);
  WmErr e = {0};
  assert_int_equal(fatbin_pick_ptx(en, n, 90, &e), 0);
  char *a = entry_ptx(en, 2);
  assert_non_null(strstr(a, ".target sm_90a"));
  free(a);
  free(en);
  free(buf);
}

/* code=sm_90 only: SASS, no PTX; the message lists it and says how to
 * rebuild. */
static void test_sass_only(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("add_sass.fatbin", &buf, &n);
  assert_int_equal(n, 1);
  WmErr e = {0};
  assert_int_equal(fatbin_pick_ptx(en, n, 90, &e), -1);
  assert_non_null(strstr(e.msg, "sm_90 (SASS)"));
  assert_non_null(strstr(e.msg, "code=[sm_90,compute_90]"));
  assert_non_null(strstr(e.msg, "-arch=sm_90"));
  assert_null(fatbin_ptx(&en[0], &e));
  assert_non_null(strstr(e.msg, "not PTX"));
  assert_int_equal(fatbin_pick_ptx(en, 0, 90, &e), -1);
  free(en);
  free(buf);
}

/* -dlto: one entry of kind 8 (NVVM IR), which warpmem cannot run either. */
static void test_lto_only(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("add_lto.fatbin", &buf, &n);
  assert_int_equal(n, 1);
  assert_int_equal(en[0].kind, FATBIN_LTO);
  WmErr e = {0};
  assert_int_equal(fatbin_pick_ptx(en, n, 90, &e), -1);
  assert_non_null(strstr(e.msg, "lto_90 (LTO IR)"));
  assert_non_null(strstr(e.msg, "compute_90"));
  free(en);
  free(buf);
}

/* -maxrregcount=32 -Xptxas -O2: the options nvcc recorded for ptxas, which
 * the registers of the kernel depend on; plain -arch=sm_90 records none. */
static void test_ptxas_options(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("add_opts.fatbin", &buf, &n);
  assert_int_equal(n, 2);
  assert_non_null(en[1].opts);
  char *opts = wm_xstrndup(en[1].opts, en[1].opts_len);
  assert_non_null(strstr(opts, "-maxrregcount=32"));
  assert_non_null(strstr(opts, "-O2"));
  assert_null(en[0].opts); /* the SASS: none */
  free(opts);
  free(en);
  free(buf);
  en = list_fixture("add_zstd.fatbin", &buf, &n);
  assert_null(en[1].opts);
  assert_int_equal(en[1].opts_len, 0);
  free(en);
  free(buf);
}

/* An application's .nv_fatbin: nvcc's device-link module (SASS only), then
 * app.cu (no kernels), add.cu and scale.cu, one fat binary each. */
static void test_section(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("app_section.bin", &buf, &n);
  static const char *const names[] = {"sm_90", "sm_90", "compute_90", "sm_90", "compute_90", "sm_90", "compute_90"};
  assert_int_equal(n, 7);
  for (int i = 0; i < n; i++) expect_entry(&en[i], names[i], "zstd");
  char *empty = entry_ptx(en, 2), *add = entry_ptx(en, 4), *scale = entry_ptx(en, 6);
  char *want_add = golden_ptx("add_sm90.ptx"), *want_scale = golden_ptx("scale_sm90.ptx");
  assert_null(strstr(empty, ".entry"));
  assert_non_null(strstr(empty, ".target sm_90"));
  assert_string_equal(add, want_add);
  assert_string_equal(scale, want_scale);
  free(empty);
  free(add);
  free(scale);
  free(want_add);
  free(want_scale);
  free(en);
  free(buf);
}

/* Two fat binaries with zero padding between and after them: all entries;
 * a non-zero byte between them is an error at its offset. */
static void test_padding(void **state) {
  (void)state;
  size_t la, lb;
  uint8_t *a = fixture("add_zstd.fatbin", &la), *b = fixture("add_lz4.fatbin", &lb);
  size_t len = la + 24 + lb + 8;
  uint8_t *img = wm_xcalloc(len, 1);
  memcpy(img, a, la);
  memcpy(img + la + 24, b, lb);
  FatbinEntry *en;
  int n;
  WmErr e = {0};
  if (fatbin_list(img, len, &en, &n, &e)) fail_msg("%s", e.msg);
  assert_int_equal(n, 4);
  assert_int_equal(en[2].offset, la + 24 + 16);
  assert_string_equal(en[3].codec, "lz4");
  char *x = entry_ptx(en, 1), *y = entry_ptx(en, 3);
  assert_string_equal(x, y);
  free(x);
  free(y);
  free(en);
  img[la + 5] = 0x42;
  assert_int_equal(fatbin_list(img, len, &en, &n, &e), -1);
  char want[64];
  snprintf(want, sizeof want, "offset 0x%zx", la + 5);
  assert_non_null(strstr(e.msg, want));
  assert_null(en);
  assert_int_equal(n, 0);
  /* zeros only, or nothing */
  memset(img, 0, len);
  assert_int_equal(fatbin_list(img, len, &en, &n, &e), -1);
  assert_non_null(strstr(e.msg, "no entries"));
  free(img);
  free(a);
  free(b);
}

/* A __fatBinC_Wrapper_t as nvcc's host code writes it (CUDA's fatbinary.h). */
typedef struct {
  int magic, version;
  const unsigned long long *data;
  const void *filename_or_fatbins;
} Wrapper;

static void test_unwrap(void **state) {
  (void)state;
  size_t len;
  uint8_t *raw = fixture("add_zstd.fatbin", &len);
  unsigned long long *img = wm_xmalloc(len); /* aligned, as the section is */
  memcpy(img, raw, len);
  Wrapper w = {(int)FATBIN_WRAPPER_MAGIC, 1, img, NULL};
  WmErr e = {0};
  const void *fb = fatbin_unwrap(&w, &e);
  assert_ptr_equal(fb, img);
  FatbinEntry *en;
  int n;
  if (fatbin_list(fb, 0, &en, &n, &e)) fail_msg("%s", e.msg); /* len 0: the header's size */
  assert_int_equal(n, 2);
  assert_int_equal(fatbin_pick_ptx(en, n, 90, &e), 1);
  free(en);
  w.version = 2; /* nvcc's device-link module */
  assert_ptr_equal(fatbin_unwrap(&w, &e), img);
  w.version = 3;
  assert_null(fatbin_unwrap(&w, &e));
  assert_non_null(strstr(e.msg, "version 3"));
  w.version = 1;
  w.magic = 0x1234;
  assert_null(fatbin_unwrap(&w, &e));
  assert_non_null(strstr(e.msg, "magic 0x00001234"));
  w.magic = (int)FATBIN_WRAPPER_MAGIC;
  w.data = NULL;
  assert_null(fatbin_unwrap(&w, &e));
  assert_null(fatbin_unwrap(NULL, &e));
  unsigned long long junk[4] = {0};
  w.data = junk;
  assert_null(fatbin_unwrap(&w, &e));
  assert_non_null(strstr(e.msg, "0xba55ed50"));
  free(img);
  free(raw);
}

/* Lists img (len bytes, copied into a buffer of exactly that size) and
 * reads every entry; returns whether the listing succeeded. */
static int probe(const uint8_t *img, size_t len) {
  uint8_t *exact = wm_xmalloc(len ? len : 1);
  memcpy(exact, img, len);
  FatbinEntry *en;
  int n;
  WmErr e = {0};
  int ok = fatbin_list(exact, len, &en, &n, &e) == 0;
  if (!ok) {
    assert_non_null(strstr(e.msg, "fat binary"));
    assert_null(en);
  }
  for (int i = 0; ok && i < n; i++) {
    assert_true(en[i].payload >= exact && en[i].payload + en[i].size <= exact + len);
    size_t got;
    uint8_t *p = fatbin_payload(&en[i], &got, &e);
    if (p) assert_int_equal(got, en[i].raw_size);
    free(p);
    free(en[i].kind == FATBIN_PTX ? fatbin_ptx(&en[i], &e) : NULL);
  }
  if (ok) {
    fatbin_pick_ptx(en, n, 90, &e);
    free(en);
  }
  free(exact);
  return ok;
}

static const char *const all_fixtures[] = {"add_none.fatbin", "add_lz4.fatbin",   "add_zstd.fatbin",
                                           "add_size.fatbin", "add_multi.fatbin", "add_sass.fatbin",
                                           "add_sm90a.fatbin", "add_lto.fatbin",  "add_opts.fatbin",
                                           "app_section.bin"};
#define N_FIXTURES (int)(sizeof all_fixtures / sizeof *all_fixtures)

/* Every proper non-empty prefix of a one-fat-binary image is an error (its header's
 * size is more than there is); of a section, only those ending where one
 * of its fat binaries ends list. */
static void test_truncated(void **state) {
  (void)state;
  for (int f = 0; f < N_FIXTURES; f++) {
    size_t len;
    uint8_t *img = fixture(all_fixtures[f], &len);
    int listed = 0;
    for (size_t cut = 1; cut < len; cut++) listed += probe(img, cut); /* (len 0: trust the header) */
    /* the section: after 1, 2, 3 of its 4 fat binaries */
    assert_int_equal(listed, strcmp(all_fixtures[f], "app_section.bin") ? 0 : 3);
    assert_true(probe(img, len));
    free(img);
  }
}

/* Every byte flipped: errors or entries, no crash; a flipped magic or size
 * word of the first header is always an error. */
static void test_flipped(void **state) {
  (void)state;
  for (int f = 0; f < N_FIXTURES; f++) {
    size_t len;
    uint8_t *img = fixture(all_fixtures[f], &len);
    for (size_t i = 0; i < len; i++) {
      img[i] ^= 0xff;
      int ok = probe(img, len);
      if (i < 4 || (i >= 8 && i < 16)) assert_false(ok);
      img[i] ^= 0xff;
    }
    free(img);
  }
}

/* Compressed entries whose sizes lie: errors that name the entry's offset. */
static void test_lying_sizes(void **state) {
  (void)state;
  static const char *const files[] = {"add_lz4.fatbin", "add_zstd.fatbin"};
  for (int f = 0; f < 2; f++) {
    uint8_t *buf;
    int n;
    FatbinEntry *en = list_fixture(files[f], &buf, &n);
    FatbinEntry ptx = en[1];
    WmErr e = {0};
    static const int64_t raw_delta[] = {-1, 1, -100};
    for (int k = 0; k < 3; k++) {
      FatbinEntry bad = ptx;
      bad.raw_size = (uint64_t)((int64_t)ptx.raw_size + raw_delta[k]);
      assert_null(fatbin_ptx(&bad, &e));
      assert_non_null(strstr(e.msg, "offset 0xf50"));
    }
    FatbinEntry cut = ptx;
    cut.size = ptx.size / 2;
    assert_null(fatbin_ptx(&cut, &e));
    FatbinEntry huge = ptx;
    huge.raw_size = 1ull << 40;
    assert_null(fatbin_ptx(&huge, &e));
    assert_non_null(strstr(e.msg, "256 MiB"));
    free(en);
    free(buf);
  }
}

/* ---- ELF ---------------------------------------------------------------- */

/* This test's own executable: dynamic, no CUDA. */
static void test_elf_self(void **state) {
  (void)state;
  ElfInfo info;
  WmErr e = {0};
  if (elf_inspect("/proc/self/exe", &info, &e)) fail_msg("%s", e.msg);
  assert_int_equal(info.is_elf64, 1);
  assert_int_equal(info.dynamic, 1);
  assert_int_equal(info.cudart_major, 0);
  assert_int_equal(info.needs_libcuda, 0);
  assert_int_equal(info.has_fatbin, 0);
  assert_int_equal(info.static_cudart, 0);
  uint8_t *data;
  size_t len;
  if (elf_section("/proc/self/exe", ".interp", &data, &len, &e)) fail_msg("%s", e.msg);
  assert_true(len > 4 && data[len - 1] == 0 && strstr((char *)data, "ld-linux"));
  free(data);
  assert_int_equal(elf_section("/proc/self/exe", ".nv_fatbin", &data, &len, &e), -1);
  assert_non_null(strstr(e.msg, "no section .nv_fatbin"));
  assert_null(data);
}

/* Rewrites path with len bytes of data. */
static void rewrite(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  fclose(f);
}

/* Writes len bytes of data to a fresh temporary file; returns its path
 * (malloc'd). */
static char *temp_bytes(const void *data, size_t len) {
  char *path = tu_temp_file(".bin", "");
  assert_non_null(path);
  rewrite(path, data, len);
  return path;
}

/* Expects elf_inspect(path) to fail with `want` in its message. */
static void expect_elf_error(const char *path, const char *want) {
  ElfInfo info;
  WmErr e = {0};
  assert_int_equal(elf_inspect(path, &info, &e), -1);
  if (!strstr(e.msg, want)) fail_msg("want '%s' in: %s", want, e.msg);
  assert_non_null(strstr(e.msg, path));
  assert_int_equal(info.is_elf64, 0);
}

/* Not files, not ELF, 32-bit, truncated, corrupt headers. */
static void test_elf_bad(void **state) {
  (void)state;
  expect_elf_error("/nonexistent/app", "cannot open");
  expect_elf_error("/tmp", "not a regular file");
  char *text = tu_temp_file(".sh", "#!/bin/sh\necho hi\n");
  expect_elf_error(text, "not an ELF file");
  unlink(text);
  free(text);
  size_t len;
  WmErr e = {0};
  char *self = wm_read_file("/proc/self/exe", &len, &e);
  assert_non_null(self);
  uint8_t elf32[64] = {0x7f, 'E', 'L', 'F', 1, 1, 1};
  char *p = temp_bytes(elf32, sizeof elf32);
  expect_elf_error(p, "32-bit");
  unlink(p);
  free(p);
  /* the section table is at the end: every cut short of it loses some */
  for (size_t cut = 0; cut < len; cut += cut < 256 ? 1 : len / 47) {
    p = temp_bytes(self, cut);
    expect_elf_error(p, cut < 16 ? "not an ELF" : "");
    unlink(p);
    free(p);
  }
  /* e_shentsize (offset 58) wrong; e_shoff (40) past the end */
  uint8_t *copy = wm_xmalloc(len);
  memcpy(copy, self, len);
  copy[58] = 10;
  p = temp_bytes(copy, len);
  expect_elf_error(p, "section header size 10");
  unlink(p);
  free(p);
  memcpy(copy, self, len);
  memset(copy + 40, 0x7f, 6);
  p = temp_bytes(copy, len);
  expect_elf_error(p, "truncated ELF");
  unlink(p);
  free(p);
  free(copy);
  free(self);
}

/* The sm_90 cubin inside add_none.fatbin is a small ELF64 file (no dynamic
 * section, no fat binary): read as it is, then with every byte flipped
 * (errors or answers, no crash; a flipped magic is always an error). */
static void test_elf_flipped(void **state) {
  (void)state;
  uint8_t *buf;
  int n;
  FatbinEntry *en = list_fixture("add_none.fatbin", &buf, &n);
  size_t len = (size_t)en[0].size;
  uint8_t *cubin = wm_xmalloc(len);
  memcpy(cubin, en[0].payload, len);
  char *path = temp_bytes(cubin, len);
  ElfInfo info;
  WmErr e = {0};
  if (elf_inspect(path, &info, &e)) fail_msg("%s", e.msg);
  assert_true(info.is_elf64 && !info.dynamic && !info.has_fatbin && !info.static_cudart);
  uint8_t *text;
  size_t tlen;
  if (elf_section(path, ".text._Z3addPfPKfi", &text, &tlen, &e)) fail_msg("%s", e.msg);
  assert_true(tlen > 0 && tlen % 16 == 0); /* SASS: 16-byte instructions */
  free(text);
  for (size_t i = 0; i < len; i++) {
    cubin[i] ^= 0xff;
    rewrite(path, cubin, len);
    int rc = elf_inspect(path, &info, &e);
    if (i < 4) assert_int_equal(rc, -1);
    if (elf_section(path, ".text._Z3addPfPKfi", &text, &tlen, &e) == 0) free(text);
    cubin[i] ^= 0xff;
  }
  unlink(path);
  free(path);
  free(cubin);
  free(en);
  free(buf);
}

/* Builds the fixture application with nvcc and `cudart` (shared or
 * static) into dir/app_CUDART; returns 0, or -1 when nvcc failed. */
static int build_app(const char *nvcc, const char *dir, const char *cudart) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && '%s' -cudart %s -arch=sm_90 app.cu add.cu scale.cu -o '%s/app_%s' >'%s/log_%s' 2>&1", tu_data("fatbin"),
           nvcc, cudart, dir, cudart, dir, cudart);
  return system(cmd) == 0 ? 0 : -1;
}

/* A shared-cudart and a static-cudart build of app.cu + add.cu + scale.cu
 * (nvcc at run time; skipped without it): what elf_inspect says of each,
 * and the PTX of the shared one's .nv_fatbin. */
static void test_elf_apps(void **state) {
  (void)state;
  char nvcc[4096];
  if (wm_find_program("nvcc", nvcc, sizeof nvcc)) {
    if (access("/usr/local/cuda/bin/nvcc", X_OK)) {
      print_message("skipped: no nvcc on PATH or in /usr/local/cuda/bin (needed to build the test applications)\n");
      skip();
    }
    snprintf(nvcc, sizeof nvcc, "/usr/local/cuda/bin/nvcc");
  }
  char dir[] = "/tmp/wmfatbinXXXXXX", path[4200];
  assert_non_null(mkdtemp(dir));
  if (build_app(nvcc, dir, "shared") || build_app(nvcc, dir, "static")) fail_msg("nvcc failed: see %s/log_*", dir);
  ElfInfo info;
  WmErr e = {0};
  snprintf(path, sizeof path, "%s/app_shared", dir);
  if (elf_inspect(path, &info, &e)) fail_msg("%s", e.msg);
  assert_true(info.cudart_major >= 12); /* libcudart.so.12 or .13 */
  assert_true(info.has_fatbin && info.dynamic && !info.static_cudart && !info.has_relfatbin);
  uint8_t *sec;
  size_t len;
  if (elf_section(path, ".nv_fatbin", &sec, &len, &e)) fail_msg("%s", e.msg);
  FatbinEntry *en;
  int n, kernels = 0;
  if (fatbin_list(sec, len, &en, &n, &e)) fail_msg("%s", e.msg);
  for (int i = 0; i < n; i++) {
    if (en[i].kind != FATBIN_PTX) continue;
    char *ptx = entry_ptx(en, i);
    kernels += strstr(ptx, ".entry _Z3addPfPKfi(") != NULL;
    kernels += strstr(ptx, ".entry _Z5scalePddi(") != NULL;
    free(ptx);
  }
  assert_int_equal(kernels, 2);
  free(en);
  free(sec);
  snprintf(path, sizeof path, "%s/app_static", dir);
  if (elf_inspect(path, &info, &e)) fail_msg("%s", e.msg);
  assert_int_equal(info.cudart_major, 0);
  assert_true(info.has_fatbin && info.static_cudart);
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_layout_plain), cmocka_unit_test(test_codecs_agree),
    cmocka_unit_test(test_multi_arch),   cmocka_unit_test(test_arch_specific),
    cmocka_unit_test(test_sass_only),    cmocka_unit_test(test_lto_only),
    cmocka_unit_test(test_ptxas_options), cmocka_unit_test(test_section),
    cmocka_unit_test(test_padding),      cmocka_unit_test(test_unwrap),
    cmocka_unit_test(test_truncated),    cmocka_unit_test(test_flipped),
    cmocka_unit_test(test_lying_sizes),  cmocka_unit_test(test_elf_self),
    cmocka_unit_test(test_elf_bad),      cmocka_unit_test(test_elf_flipped),
    cmocka_unit_test(test_elf_apps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
