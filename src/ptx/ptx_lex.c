/* ptx_lex.c - PTX tokens.  See ptx_lex.h. */
#include "ptx/ptx_lex.h"

#include <stdlib.h>
#include <string.h>

static int is_word_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$' || c == '%' || c == '.';
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int is_word_char(int c) { return is_word_start(c) || is_digit(c); }

int ptx_tok_is(const PtxTok *t, const char *s) {
  size_t n = strlen(s);
  return t->len == n && memcmp(t->p, s, n) == 0;
}

/* number := 0[fF]hex | 0[dD]hex | 0[xX]hex U? | 0[bB]bin U? | digits ('.' digits)? ([eE][+-]?digits)? U?
 * Only the extent is found here; the parser checks digits and converts. */
static const char *scan_number(const char *p) {
  if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D' ||
                      p[1] == 'x' || p[1] == 'X' || p[1] == 'b' || p[1] == 'B')) {
    p += 2;
    while (is_word_char((unsigned char)*p) && *p != '.' && *p != '$' && *p != '%') p++;
    return p;
  }
  while (is_digit((unsigned char)*p)) p++;
  if (*p == '.' && is_digit((unsigned char)p[1])) {
    p++;
    while (is_digit((unsigned char)*p)) p++;
  }
  if ((*p == 'e' || *p == 'E') &&
      (is_digit((unsigned char)p[1]) ||
       ((p[1] == '+' || p[1] == '-') && is_digit((unsigned char)p[2])))) {
    p += 2;
    while (is_digit((unsigned char)*p)) p++;
  }
  if (*p == 'U' || *p == 'u') p++;
  /* a trailing identifier character makes the whole thing malformed: take it
   * in so the parser reports the number as written */
  while (is_word_char((unsigned char)*p) && *p != '.' && *p != '%') p++;
  return p;
}

/* The end of a word starting at p: identifier characters, and '::' joining
 * two parts (.shared::cta, .L2::evict_last). */
static const char *scan_word(const char *p) {
  const char *q = p + 1;
  for (;;) {
    if (is_word_char((unsigned char)*q)) q++;
    else if (q[0] == ':' && q[1] == ':' && is_word_char((unsigned char)q[2])) q += 2;
    else return q;
  }
}

PtxTok *ptx_lex(const char *path, const char *src, int *n, WmErr *e) {
  int cap = 1024, len = 0;
  PtxTok *toks = wm_xmalloc((size_t)cap * sizeof *toks);
  const char *p = src, *bol = src;
  uint32_t line = 1;

  for (;;) {
    unsigned char c = (unsigned char)*p;
    if (c == '\n') {
      p++;
      line++;
      bol = p;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p++;
      continue;
    }
    if (c == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
      continue;
    }
    if (c == '/' && p[1] == '*') {
      uint32_t sline = line, scol = (uint32_t)(p - bol) + 1;
      p += 2;
      while (*p && !(p[0] == '*' && p[1] == '/')) {
        if (*p == '\n') {
          line++;
          bol = p + 1;
        }
        p++;
      }
      if (!*p) {
        free(toks);
        wm_err_at(e, WM_EPARSE, path, src, (int)sline, (int)scol, "unterminated comment");
        return NULL;
      }
      p += 2;
      continue;
    }

    if (len + 1 >= cap) toks = wm_xrealloc(toks, (size_t)(cap *= 2) * sizeof *toks);
    PtxTok *t = &toks[len];
    t->p = p;
    t->line = line;
    t->col = (uint32_t)(p - bol) + 1;

    if (c == '\0') {
      t->kind = TK_EOF;
      t->len = 0;
      *n = len + 1;
      return toks;
    }
    if (is_digit(c)) {
      const char *q = scan_number(p);
      t->kind = TK_NUM;
      t->len = (uint32_t)(q - p);
      p = q;
    } else if (is_word_start(c)) {
      const char *q = scan_word(p);
      t->kind = TK_WORD;
      t->len = (uint32_t)(q - p);
      p = q;
    } else if (c == '"') {
      const char *q = p + 1;
      while (*q && *q != '"' && *q != '\n') {
        if (*q == '\\' && q[1] && q[1] != '\n') q++;
        q++;
      }
      if (*q != '"') {
        int col = (int)t->col;
        free(toks);
        wm_err_at(e, WM_EPARSE, path, src, (int)line, col, "unterminated string");
        return NULL;
      }
      t->kind = TK_STR;
      t->len = (uint32_t)(q + 1 - p);
      p = q + 1;
    } else if (strchr(",;:[]{}()<>+-@!|=", c)) {
      t->kind = TK_PUNCT;
      t->len = 1;
      p++;
    } else {
      int col = (int)t->col;
      free(toks);
      if (c >= 0x20 && c < 0x7f)
        wm_err_at(e, WM_EPARSE, path, src, (int)line, col, "unexpected character '%c'", c);
      else
        wm_err_at(e, WM_EPARSE, path, src, (int)line, col, "unexpected byte 0x%02x", c);
      return NULL;
    }
    len++;
  }
}
