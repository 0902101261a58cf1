/* test_csv.c - util/csv: one record read in place (RFC 4180 quoting), one
 * field written, and the two agreeing. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"

/* Reads one record of at most 8 fields; checks the count and each field. */
static void expect_record(char **pos, int n, const char *const *want) {
  char *f[8];
  int got = wm_csv_read(pos, f, 8);
  assert_int_equal(got, n);
  for (int i = 0; i < n; i++) assert_string_equal(f[i], want[i]);
}

static void test_plain(void **state) {
  (void)state;
  char text[] = "launch,kernel,sectors\ncopy#1,copy_k,524288";
  char *p = text;
  expect_record(&p, 3, (const char *[]){"launch", "kernel", "sectors"});
  assert_ptr_equal(p, text + strlen("launch,kernel,sectors\n"));
  expect_record(&p, 3, (const char *[]){"copy#1", "copy_k", "524288"});
  assert_int_equal(*p, '\0');
  char *f[8];
  assert_int_equal(wm_csv_read(&p, f, 8), 0);
  assert_int_equal(wm_csv_read(&p, f, 8), 0);
}

static void test_quoted(void **state) {
  (void)state;
  /* ncu's raw page quotes every field and writes numbers with commas */
  char text[] = "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\r\n"
                "\"0\",\"tr_naive(float *, const float *)\",\"1,048,576\"\r\n"
                "\"say \"\"hi\"\"\",\"\"\"\",\"\",x\n";
  char *p = text;
  expect_record(&p, 3, (const char *[]){"ID", "Kernel Name", "dram__bytes_read.sum"});
  expect_record(&p, 3, (const char *[]){"0", "tr_naive(float *, const float *)", "1,048,576"});
  expect_record(&p, 4, (const char *[]){"say \"hi\"", "\"", "", "x"});
  assert_int_equal(*p, '\0');
}

/* Inside quotes a line end is text: the record goes on. */
static void test_line_end_in_quotes(void **state) {
  (void)state;
  char text[] = "\"two\nlines\",b\r\nnext\n";
  char *p = text;
  expect_record(&p, 2, (const char *[]){"two\nlines", "b"});
  expect_record(&p, 1, (const char *[]){"next"});
  char *f[1];
  assert_int_equal(wm_csv_read(&p, f, 1), 0);
}

static void test_empty_fields(void **state) {
  (void)state;
  char text[] = ",,\n\na,\n\"\"";
  char *p = text;
  expect_record(&p, 3, (const char *[]){"", "", ""});
  expect_record(&p, 1, (const char *[]){""}); /* an empty line */
  expect_record(&p, 2, (const char *[]){"a", ""});
  expect_record(&p, 1, (const char *[]){""});
}

/* More fields than room: counted, the first stored, nothing written past. */
static void test_more_than_max(void **state) {
  (void)state;
  char text[] = "a,\"b,c\",d,e\nf";
  char *p = text, *f[3] = {NULL, NULL, (char *)"untouched"};
  assert_int_equal(wm_csv_read(&p, f, 2), 4);
  assert_string_equal(f[0], "a");
  assert_string_equal(f[1], "b,c");
  assert_string_equal(f[2], "untouched");
  expect_record(&p, 1, (const char *[]){"f"});
}

static char *written(const char *s) {
  char *buf = NULL;
  size_t n = 0;
  FILE *out = open_memstream(&buf, &n);
  assert_non_null(out);
  wm_csv_write(out, s);
  fclose(out);
  return buf;
}

static void test_write(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
    {"tr_naive", "tr_naive"},
    {"", ""},
    {"odd,name", "\"odd,name\""},
    {"say \"hi\"", "\"say \"\"hi\"\"\""},
    {"two\nlines", "\"two\nlines\""},
    {"cr\r", "\"cr\r\""},
    {" lead", "\" lead\""},
    {"trail ", "\"trail \""},
    {"in side", "in side"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *s = written(cases[i].in);
    assert_string_equal(s, cases[i].out);
    free(s);
  }
}

/* What wm_csv_write writes, wm_csv_read reads back as it was. */
static void test_round_trip(void **state) {
  (void)state;
  const char *fields[] = {"ld.global.f32 %f9, [%rd2]", "32 lanes, \"one\" sector each", "", "a\r\nb", " x "};
  enum { N = sizeof fields / sizeof *fields };
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  assert_non_null(out);
  for (int i = 0; i < N; i++) {
    if (i) fputc(',', out);
    wm_csv_write(out, fields[i]);
  }
  fputs("\r\n", out);
  fclose(out);
  char *p = buf;
  expect_record(&p, N, fields);
  assert_int_equal(*p, '\0');
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_plain),         cmocka_unit_test(test_quoted),
    cmocka_unit_test(test_line_end_in_quotes), cmocka_unit_test(test_empty_fields),
    cmocka_unit_test(test_more_than_max), cmocka_unit_test(test_write),
    cmocka_unit_test(test_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
