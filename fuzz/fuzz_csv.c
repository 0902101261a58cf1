/* fuzz_csv.c - libFuzzer harness of the CSV reader (wm_csv_read) that the
 * lab's ground-truth tables and Nsight Compute's --csv pages go through:
 * every record of the input, into a few field slots (so that records with
 * more fields than slots are exercised too).  Nothing is global. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"

#define CSV_MAX_INPUT (1u << 20)
#define FIELDS 8

int fuzz_csv_one(const uint8_t *data, size_t size);

int fuzz_csv_one(const uint8_t *data, size_t size) {
  if (size > CSV_MAX_INPUT) return 0;
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  char *pos = text, *f[FIELDS];
  size_t total = 0;
  int n;
  while ((n = wm_csv_read(&pos, f, FIELDS)) > 0) {
    for (int i = 0; i < n && i < FIELDS; i++) total += strlen(f[i]); /* each field a string in text */
    if (pos < text || pos > text + size) abort(); /* the reader stays inside the text */
  }
  free(text);
  (void)total;
  return 0;
}

/* The fuzzer's entry point; tests/test_fuzz_corpus.c calls fuzz_csv_one. */
#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_csv_one(data, size); }
#endif
