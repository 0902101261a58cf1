/* csv.h - comma-separated values as RFC 4180 has them: fields separated by
 * commas, records by line ends (LF or CRLF); a field may be quoted, and
 * inside quotes a comma or a line end is text and "" is one quote.  What
 * warpmem reads (Nsight Compute's --csv pages, the ground-truth tables) and
 * what it writes (reports, the lab's table) go through these two functions.
 */
#ifndef WM_CSV_H
#define WM_CSV_H

#include <stdio.h>

/* Reads the record at *pos, in place: the text (NUL-terminated, the
 * caller's) is rewritten so that each field is unquoted and ends with a
 * '\0', and f[0..max) point at the first fields.  *pos moves past the
 * record and its line end.  Returns the number of fields in the record,
 * which is more than max when some did not fit (they are read but not
 * stored), or 0 at the end of the text.  An empty line is one empty field. */
int wm_csv_read(char **pos, char **f, int max);

/* Writes s as one field: as it is, or quoted (quotes doubled) when it holds
 * a comma, a quote or a line end, or starts or ends with a blank (which
 * some readers would trim). */
void wm_csv_write(FILE *out, const char *s);

#endif
