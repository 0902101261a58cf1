/* csv.c - one CSV record in, one CSV field out (RFC 4180). */
#include "util/csv.h"

#include <string.h>

/* One field at p, unquoted into w (w <= p: the text only shrinks); returns
 * where the field ends (at its ',', line end or '\0'). */
static char *field(char *p, char **wp) {
  char *w = *wp;
  if (*p == '"') {
    for (p++; *p; p++) {
      if (*p == '"' && p[1] != '"') {
        p++;
        break;
      }
      if (*p == '"') p++; /* "" is one quote */
      *w++ = *p;
    }
  }
  /* unquoted text, or what follows a closing quote (not RFC 4180; kept) */
  while (*p && *p != ',' && *p != '\n' && !(*p == '\r' && p[1] == '\n')) *w++ = *p++;
  *wp = w;
  return p;
}

int wm_csv_read(char **pos, char **f, int max) {
  char *p = *pos;
  if (!*p) return 0;
  int n = 0;
  for (;;) {
    char *w = p;
    if (n < max) f[n] = w;
    n++;
    p = field(p, &w);
    char end = *p;
    if (end == ',') p++;
    else if (end == '\r') p += 2;
    else if (end == '\n') p++;
    *w = '\0'; /* after reading `end`: w may be where it was */
    if (end != ',') break;
  }
  *pos = p;
  return n;
}

void wm_csv_write(FILE *out, const char *s) {
  size_t n = strlen(s);
  if (!s[strcspn(s, ",\"\r\n")] && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}
