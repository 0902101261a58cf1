/* test_fuzz_corpus.c - the fuzz harnesses' corpora (fuzz/corpus/NAME, with
 * every input a fuzzer found a fault with) replayed through the harnesses'
 * own code (fuzz/fuzz_NAME.c, built here without libFuzzer): the PTX parser
 * and emu_prepare, the launch-spec parsers, the fat-binary and ELF readers,
 * the CSV reader.  Under make test-sanitize this is the regression test of
 * every fault the fuzzers found (docs/fuzzing.md); here it checks that each
 * input is handled and each corpus is there. */
#define _GNU_SOURCE /* memfd_create (fuzz_fatbin.c) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define FUZZ_NO_MAIN
#include "../fuzz/fuzz_csv.c"
#include "../fuzz/fuzz_fatbin.c"
#include "../fuzz/fuzz_launch.c"
#include "../fuzz/fuzz_ptx.c"

/* Runs every file of fuzz/corpus/name through one; returns how many. */
static int replay(const char *name, int (*one)(const uint8_t *, size_t)) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/fuzz/corpus/%s", WM_SOURCE_DIR, name);
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    size_t len = 0;
    WmErr e = {0};
    char *data = wm_read_file(path, &len, &e);
    if (!data) fail_msg("%s", e.msg);
    assert_int_equal(one((const uint8_t *)data, len), 0);
    free(data);
    n++;
  }
  closedir(d);
  return n;
}

/* The seeds alone are this many (docs/fuzzing.md says where they come from). */
static void test_ptx(void **state) { assert_true(replay("ptx", fuzz_ptx_one) >= 40); }
static void test_launch(void **state) {
  assert_true(replay("launch", fuzz_launch_one) >= 30);
  fuzz_launch_done();
}
static void test_fatbin(void **state) { assert_true(replay("fatbin", fuzz_fatbin_one) >= 12); }
static void test_csv(void **state) { assert_true(replay("csv", fuzz_csv_one) >= 3); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ptx),
      cmocka_unit_test(test_launch),
      cmocka_unit_test(test_fatbin),
      cmocka_unit_test(test_csv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
