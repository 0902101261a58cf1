/* fuzz_ptx.c - libFuzzer harness of the PTX front end: the lexer and the
 * parser (ptx_parse, which links the module's calls), then, for every
 * kernel the parser accepts, the emulator's decoding of it (emu_check:
 * emu_prepare, where decoded operands are trusted).
 *
 * An input with NUL bytes is several translation units of -rdc=true PTX:
 * they go through ptx_merge first, as `warpmem run` links them, and the
 * merged text is parsed.  Nothing is global: each input's module is freed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "ptx/ptx.h"
#include "ptx/ptx_merge.h"

#define PTX_MAX_INPUT (1u << 20) /* PTX of a megabyte covers every construct */
#define PTX_MAX_UNITS 8

int fuzz_ptx_one(const uint8_t *data, size_t size);

/* The units of data (split at NULs), merged; NULL if ptx_merge refuses them. */
static char *merged(const uint8_t *data, size_t size) {
  char *copy = malloc(size + 1);
  memcpy(copy, data, size);
  copy[size] = 0;
  const char *texts[PTX_MAX_UNITS], *names[PTX_MAX_UNITS];
  static const char *const unit_names[PTX_MAX_UNITS] = {"u0.ptx", "u1.ptx", "u2.ptx", "u3.ptx",
                                                    "u4.ptx", "u5.ptx", "u6.ptx", "u7.ptx"};
  int n = 0;
  size_t at = 0;
  while (at <= size && n < PTX_MAX_UNITS) {
    texts[n] = copy + at;
    names[n] = unit_names[n];
    n++;
    at += strlen(copy + at) + 1;
  }
  WmErr e = {0};
  char *text = ptx_merge(texts, names, n, &e);
  free(copy);
  return text;
}

int fuzz_ptx_one(const uint8_t *data, size_t size) {
  if (size > PTX_MAX_INPUT) return 0;
  char *text;
  if (memchr(data, 0, size)) {
    text = merged(data, size);
    if (!text) return 0;
  } else {
    text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
  }
  WmErr e = {0};
  PtxModule *m = ptx_parse("fuzz.ptx", text, &e); /* owns text */
  if (!m) return 0;
  for (int i = 0; i < m->nkernels; i++) {
    const PtxKernel *k = &m->kernels[i];
    ptx_find_kernel(m, k->name, &e); /* the look-up by PTX or C++ name */
    if (!k->unsupported) emu_check(m, k, &e);
  }
  ptx_module_free(m);
  return 0;
}

/* The fuzzer's entry point; tests/test_fuzz_corpus.c calls fuzz_ptx_one. */
#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_ptx_one(data, size); }
#endif
