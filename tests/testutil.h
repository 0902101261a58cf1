/* testutil.h - helpers shared by the tests (cmocka). */
#ifndef WM_TESTUTIL_H
#define WM_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Runs the warpmem binary with `args` (a shell-quoted string) and captures
 * stdout and stderr (each malloc'd, caller frees; either may be NULL to
 * discard).  Returns the exit status. */
int tu_run_cli(const char *args, char **out, char **err);

/* Path of a file under tests/data (static buffer, valid until next call). */
const char *tu_data(const char *name);

/* Path of a file under groundtruth/ (the H200 measurements and the kernels
 * measured: groundtruth/README.md), or of the folder itself for "" (static
 * buffer, valid until the next call). */
const char *tu_truth(const char *name);

/* Path of a file under lab/ (the catalogue), or of the folder for "" (static
 * buffer, valid until the next call). */
const char *tu_lab(const char *name);

/* Writes text to a fresh temporary file with the given suffix (".ptx");
 * returns its path (malloc'd; caller frees and unlinks). */
char *tu_temp_file(const char *suffix, const char *text);

/* Reads exactly `bytes` bytes of DIR/FILE (a --dump output) into buf; fails
 * the test if the file is missing or shorter. */
void tu_read_dump(const char *dir, const char *file, void *buf, size_t bytes);

/* In a CSV table (a header of column names, then rows named by their first
 * field): the number in column `col` of row `row`, or -1 when the table has
 * no such row or column. */
double tu_csv_value(const char *text, const char *row, const char *col);

#endif
