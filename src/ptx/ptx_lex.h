/* ptx_lex.h - PTX text to tokens.
 *
 * The lexer turns the whole text into one token array up front (PTX files are
 * at most a few MB, and the parser wants cheap lookahead).  Tokens point into
 * the text, which must outlive them; nothing is copied.
 */
#ifndef WM_PTX_LEX_H
#define WM_PTX_LEX_H

#include <stdint.h>

#include "util/diag.h"

typedef enum {
  TK_EOF,
  TK_WORD,  /* directive, mnemonic, register, identifier: [A-Za-z_$%.][A-Za-z0-9_$.]*
               (with "::" inside, as in ld.shared::cta) */
  TK_NUM,   /* integer or float literal, sign not included */
  TK_STR,   /* "..." including the quotes */
  TK_PUNCT  /* one character: , ; : [ ] { } ( ) < > + - @ ! | = */
} PtxTokKind;

typedef struct PtxTok {
  const char *p;  /* first character in the text */
  uint32_t len;
  uint32_t line;  /* 1-based */
  uint32_t col;   /* 1-based, in bytes */
  uint8_t kind;   /* PtxTokKind */
} PtxTok;

/* Tokenizes `src` (NUL-terminated; a NUL byte ends the text).  Returns a
 * malloc'd array ending with a TK_EOF token (caller frees) and its length in
 * *n, or NULL with a located WM_EPARSE error in e (`path` names the file). */
PtxTok *ptx_lex(const char *path, const char *src, int *n, WmErr *e);

/* Does token t spell exactly s? */
int ptx_tok_is(const PtxTok *t, const char *s);

#endif
