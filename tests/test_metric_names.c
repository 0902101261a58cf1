/* test_metric_names.c - every counter warpmem reports under an Nsight
 * Compute name is one Nsight Compute has for the H100/H200
 * (tests/data/ncu-gh100-metrics.txt, read from `ncu --query-metrics --chip
 * gh100` on the lent H200); counters Nsight Compute has no name for are
 * warpmem__ ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/metrics.h"
#include "testutil.h"

/* The file's names, one per line ('#' lines are comments), as one
 * newline-framed string for strstr. */
static char *names(void) {
  FILE *f = fopen(tu_data("ncu-gh100-metrics.txt"), "r");
  assert_non_null(f);
  size_t cap = 1 << 20, n = 1;
  char *all = malloc(cap), line[512];
  all[0] = '\n';
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    size_t k = strlen(line);
    while (n + k + 2 > cap) all = realloc(all, cap *= 2);
    memcpy(all + n, line, k);
    n += k;
  }
  all[n] = '\0';
  fclose(f);
  return all;
}

static void test_names_are_ncus(void **state) {
  (void)state;
  char *all = names();
  int checked = 0;
  for (int i = 0; i < WM_M_COUNT; i++) {
    const char *m = wm_metric_name[i];
    if (!strncmp(m, "warpmem__", 9)) continue;
    char base[256];
    snprintf(base, sizeof base, "\n%s", m);
    char *dot = strchr(base, '.'); /* .sum, .avg, .max, .pct_of_peak...: the name's suffix */
    if (dot) *dot = '\0';
    strcat(base, "\n");
    if (!strstr(all, base)) fail_msg("%s is not an Nsight Compute metric of gh100 (name it warpmem__...)", m);
    checked++;
  }
  assert_true(checked > 50);
  free(all);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_names_are_ncus)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
