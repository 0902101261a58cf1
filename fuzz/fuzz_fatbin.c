/* fuzz_fatbin.c - libFuzzer harness of what `warpmem run` reads from an
 * application: an input starting with "\177ELF" is an executable for the
 * ELF reader (elf_inspect, then elf_section of the two fat-binary sections,
 * whose bytes go to the fat-binary reader); any other input is a fat
 * binary's bytes (a .nv_fatbin section) for fatbin_list, whose entries are
 * named, decompressed (fatbin_payload) and picked (fatbin_pick_ptx,
 * fatbin_ptx) as rt_module.c does.
 *
 * The ELF reader takes a path: the input is written to a memfd per input
 * and closed after.  Nothing else is global. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/elf.h"
#include "rt/fatbin.h"

#define FATBIN_MAX_INPUT (4u << 20)

int fuzz_fatbin_one(const uint8_t *data, size_t size);

static void fatbin(const uint8_t *data, size_t size) {
  WmErr e = {0};
  FatbinEntry *en = NULL;
  int n = 0;
  if (size == 0 || fatbin_list(data, size, &en, &n, &e)) return; /* len 0 would trust the headers */
  for (int i = 0; i < n; i++) {
    char name[64];
    fatbin_entry_name(&en[i], name, sizeof name);
    size_t len;
    free(fatbin_payload(&en[i], &len, &e));
  }
  int i = fatbin_pick_ptx(en, n, 90, &e);
  if (i >= 0) free(fatbin_ptx(&en[i], &e));
  free(en);
}

static void elf(const uint8_t *data, size_t size) {
  int fd = memfd_create("fuzz_elf", 0);
  if (fd < 0) return;
  if (write(fd, data, size) == (ssize_t)size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    WmErr e = {0};
    ElfInfo info;
    elf_inspect(path, &info, &e);
    static const char *const sections[] = {".nv_fatbin", "__nv_relfatbin"};
    for (int s = 0; s < 2; s++) {
      uint8_t *bytes = NULL;
      size_t len = 0;
      if (elf_section(path, sections[s], &bytes, &len, &e) == 0) fatbin(bytes, len);
      free(bytes);
    }
  }
  close(fd);
}

int fuzz_fatbin_one(const uint8_t *data, size_t size) {
  if (size > FATBIN_MAX_INPUT) return 0;
  if (size >= 4 && !memcmp(data, "\177ELF", 4)) elf(data, size);
  else fatbin(data, size);
  return 0;
}

/* The fuzzer's entry point; tests/test_fuzz_corpus.c calls fuzz_fatbin_one. */
#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_fatbin_one(data, size); }
#endif
