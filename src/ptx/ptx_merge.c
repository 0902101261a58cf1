/* ptx_merge.c - relocatable PTX texts linked into one (ptx_merge.h says
 * the rules).  Each text is lexed, cut into its module-scope statements
 * (header, .file, .section, and entry/func/variable declarations with their
 * linkage), the names with external linkage resolved across the units, and
 * the statements copied out verbatim but for renamed names and file
 * numbers. */
#include "ptx/ptx_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_lex.h"
#include "ptx/ptx_parse_int.h" /* Map */

enum { ST_HDR, ST_FILE, ST_FUNC, ST_ENTRY, ST_VAR, ST_OTHER };
enum { L_VISIBLE = 1, L_EXTERN = 2, L_WEAK = 4, L_COMMON = 8 };
enum { A_EMIT, A_SKIP, A_DEF, A_PROTO }; /* A_DEF: the winning definition; A_PROTO: a losing
                                          function definition's prototype, for its unit's calls */

typedef struct Stmt {
  int first, last; /* tokens */
  int kind, link, name, def, shared; /* name: token index or -1 */
  int action, sym;
} Stmt;

typedef struct Unit {
  const char *name, *text;
  PtxTok *tok;
  Stmt *st;
  int nst, vmaj, vmin, file_base, max_file;
  char **ren; /* internal names renamed in this unit */
  int nren;
} Unit;

typedef struct LinkSym {
  char *name;
  int unit, stmt, strong, emitted; /* unit/stmt: the winning definition, -1: none */
} LinkSym;

typedef struct Merge {
  Unit *u;
  int n;
  LinkSym *sym;
  int nsym;
  Map syms;  /* name -> index in sym + 1 */
  Map units; /* every statement's name -> its unit + 1, -1 if in several */
  char *out;
  size_t len, cap;
  WmErr *e;
} Merge;

static int tok_eq(const PtxTok *t, const char *s) { return t->kind != TK_EOF && ptx_tok_is(t, s); }
static int punct(const PtxTok *t, char c) { return t->kind == TK_PUNCT && t->p[0] == c; }

static char *tok_str(const PtxTok *t) {
  char *s = wm_xmalloc(t->len + 1);
  memcpy(s, t->p, t->len);
  s[t->len] = '\0';
  return s;
}

static int fail_at(Merge *M, const Unit *u, const PtxTok *t, const char *fmt, const char *name) {
  return wm_err_at(M->e, WM_EPARSE, u->name, u->text, (int)t->line, (int)t->col, fmt, name);
}

/* The index of the token closing the group opened at tok[i]. */
static int close_of(const PtxTok *tok, int i, char open, char close) {
  int depth = 0;
  for (; tok[i].kind != TK_EOF; i++) {
    if (punct(&tok[i], open)) depth++;
    if (punct(&tok[i], close) && --depth == 0) return i;
  }
  return -1;
}

/* The name token of a declaration whose directive (.func/.entry/space) is tok[d]. */
static int decl_name(const PtxTok *tok, int d, int kind) {
  int i = d + 1;
  if (kind == ST_FUNC) {
    while (i > 0 && tok[i].kind == TK_WORD && tok[i].p[0] == '.') /* i 0: an unclosed '(' */
      i = punct(&tok[i + 1], '(') ? close_of(tok, i + 1, '(', ')') + 1 : i + 1;
    if (i > 0 && punct(&tok[i], '(')) i = close_of(tok, i, '(', ')') + 1;
    return i > 0 && tok[i].kind == TK_WORD ? i : -1;
  }
  while (i > 0 && ((tok[i].kind == TK_WORD && tok[i].p[0] == '.') || tok[i].kind == TK_NUM))
    i = punct(&tok[i + 1], '(') ? close_of(tok, i + 1, '(', ')') + 1 : i + 1; /* .align N, .attribute(...) */
  return i > 0 && tok[i].kind == TK_WORD ? i : -1;
}

/* The last token of the statement starting at tok[i] (a declaration whose
 * directive is tok[d]): its ';', or a body's '}'. */
static int decl_end(const PtxTok *tok, int d, int kind) {
  int depth = 0;
  for (int i = d; tok[i].kind != TK_EOF; i++) {
    if (punct(&tok[i], '{')) depth++;
    if (punct(&tok[i], '}') && --depth == 0 && kind != ST_VAR) return i;
    if (punct(&tok[i], ';') && depth == 0) return i;
  }
  return -1;
}

/* A header or .file statement at tok[i]: its last token (never the EOF:
 * a text may end inside it, and ptx_parse says where). */
static int simple_end(const PtxTok *tok, int i, int args) {
  for (int k = 0; k < args && tok[i + 1].kind != TK_EOF; k++) i++;
  while (punct(&tok[i + 1], ',') && tok[i + 2].kind != TK_EOF) i += 2;
  return i;
}

static void version_of(Unit *u, const PtxTok *v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.*s", (int)v->len, v->p);
  char *dot;
  u->vmaj = (int)strtol(buf, &dot, 10);
  u->vmin = *dot == '.' ? (int)strtol(dot + 1, NULL, 10) : 0;
}

/* One module-scope statement starting at tok[i] into s; -1 if unterminated,
 * -2 for a .file number over 0xffff. */
static int scan_stmt(Unit *u, int i, Stmt *s) {
  const PtxTok *tok = u->tok;
  memset(s, 0, sizeof *s);
  s->first = i;
  s->name = -1;
  s->kind = ST_OTHER;
  if (tok_eq(&tok[i], ".version") || tok_eq(&tok[i], ".address_size") || tok_eq(&tok[i], ".target")) {
    s->kind = ST_HDR;
    if (tok_eq(&tok[i], ".version")) version_of(u, &tok[i + 1]);
    s->last = simple_end(tok, i, 1);
    return 0;
  }
  if (tok_eq(&tok[i], ".file")) {
    s->kind = ST_FILE;
    long f = tok[i + 1].kind == TK_NUM ? strtol(tok[i + 1].p, NULL, 10) : 0;
    if (f > 0xffff) return -2; /* as ptx_parse; the units' numbers add up */
    if (f > u->max_file) u->max_file = (int)f;
    s->last = simple_end(tok, i, 2);
    return 0;
  }
  if (tok_eq(&tok[i], ".section")) {
    s->last = close_of(tok, i, '{', '}');
    return s->last < 0 ? -1 : 0;
  }
  int d = i;
  for (;; d++) {
    if (tok_eq(&tok[d], ".visible")) s->link |= L_VISIBLE;
    else if (tok_eq(&tok[d], ".extern")) s->link |= L_EXTERN;
    else if (tok_eq(&tok[d], ".weak")) s->link |= L_WEAK;
    else if (tok_eq(&tok[d], ".common")) s->link |= L_COMMON;
    else break;
  }
  if (tok_eq(&tok[d], ".func")) s->kind = ST_FUNC;
  else if (tok_eq(&tok[d], ".entry")) s->kind = ST_ENTRY;
  else if (tok_eq(&tok[d], ".global") || tok_eq(&tok[d], ".const") || tok_eq(&tok[d], ".shared")) s->kind = ST_VAR;
  s->shared = tok_eq(&tok[d], ".shared");
  s->last = decl_end(tok, d, s->kind);
  if (s->last < 0) return -1;
  if (s->kind != ST_OTHER) s->name = decl_name(tok, d, s->kind);
  if (s->kind == ST_FUNC || s->kind == ST_ENTRY)
    for (int j = d; j <= s->last && !s->def; j++) s->def = punct(&tok[j], '{');
  else s->def = s->kind == ST_VAR && !(s->link & L_EXTERN);
  return 0;
}

static int scan_unit(Merge *M, Unit *u) {
  int ntok, cap = 0;
  u->tok = ptx_lex(u->name, u->text, &ntok, M->e);
  if (!u->tok) return -1;
  for (int i = 0; u->tok[i].kind != TK_EOF;) {
    if (u->nst == cap) {
      cap = cap ? 2 * cap : 64;
      u->st = wm_xrealloc(u->st, (size_t)cap * sizeof *u->st);
    }
    Stmt *s = &u->st[u->nst];
    int rc = scan_stmt(u, i, s);
    if (rc == -2) return fail_at(M, u, &u->tok[i + 1], "file number too large%s", "");
    if (rc) return fail_at(M, u, &u->tok[i], "unterminated statement%s", "");
    u->nst++;
    i = s->last + 1;
  }
  return 0;
}

static int sym_get(Merge *M, const PtxTok *t) {
  intptr_t v = pp_map_get(&M->syms, t->p, t->len);
  if (v) return (int)v - 1;
  M->sym = wm_xrealloc(M->sym, (size_t)(M->nsym + 1) * sizeof *M->sym);
  M->sym[M->nsym] = (LinkSym){tok_str(t), -1, -1, 0, 0};
  pp_map_put(&M->syms, t->p, t->len, M->nsym + 1);
  return M->nsym++;
}

static void lose(Stmt *s) { s->action = s->kind == ST_FUNC ? A_PROTO : A_SKIP; }

/* Records definition (unit ui, statement si) of its symbol: the winner by
 * linkage, the loser skipped; two strong ones are an error. */
static int define(Merge *M, int ui, int si) {
  Unit *u = &M->u[ui];
  Stmt *s = &u->st[si];
  LinkSym *y = &M->sym[s->sym];
  int strong = !(s->link & (L_WEAK | L_COMMON));
  if (y->unit < 0 || (strong && !y->strong)) {
    if (y->unit >= 0) lose(&M->u[y->unit].st[y->stmt]);
    y->unit = ui, y->stmt = si, y->strong = strong;
    return 0;
  }
  if (strong && y->strong) {
    char msg[512];
    snprintf(msg, sizeof msg, "'%%s' is defined here and in %.200s (two .visible definitions)", M->u[y->unit].name);
    return fail_at(M, u, &u->tok[s->name], msg, y->name);
  }
  lose(s);
  return 0;
}

/* The symbols with external linkage, each with its winning definition. */
static int resolve(Merge *M) {
  for (int ui = 0; ui < M->n; ui++)
    for (int si = 0; si < M->u[ui].nst; si++) {
      Stmt *s = &M->u[ui].st[si];
      s->sym = -1;
      if (s->name < 0 || !s->link) continue;
      s->sym = sym_get(M, &M->u[ui].tok[s->name]);
      if (s->def && define(M, ui, si)) return -1;
    }
  for (int ui = 0; ui < M->n; ui++)
    for (int si = 0; si < M->u[ui].nst; si++) {
      Unit *u = &M->u[ui];
      Stmt *s = &u->st[si];
      if (s->kind != ST_VAR || s->sym < 0 || s->action == A_SKIP) continue;
      LinkSym *y = &M->sym[s->sym];
      if (y->unit < 0 && !s->shared)
        return fail_at(M, u, &u->tok[s->name],
                       "undefined external variable '%s': declared .extern here, defined in none of the "
                       "translation units' PTX (a variable of a device library or of LTO-IR code is not there)",
                       y->name);
      s->action = y->emitted ? A_SKIP : y->unit >= 0 ? A_DEF : A_EMIT;
      y->emitted = 1;
    }
  return 0;
}

/* Which units name what: M->units. */
static void map_units(Merge *M) {
  for (int ui = 0; ui < M->n; ui++)
    for (int si = 0; si < M->u[ui].nst; si++) {
      const Stmt *s = &M->u[ui].st[si];
      if (s->name < 0) continue;
      const PtxTok *t = &M->u[ui].tok[s->name];
      intptr_t v = pp_map_get(&M->units, t->p, t->len);
      if (!v) pp_map_put(&M->units, t->p, t->len, ui + 1);
      else if (v != ui + 1) pp_map_put(&M->units, t->p, t->len, -1);
    }
}

/* Does a name of unit ui also appear in another unit? */
static int collides(const Merge *M, int ui, const PtxTok *t) { return pp_map_get(&M->units, t->p, t->len) != ui + 1; }

static void find_renames(Merge *M) {
  map_units(M);
  for (int ui = 0; ui < M->n; ui++) {
    Unit *u = &M->u[ui];
    for (int si = 0; si < u->nst; si++) {
      const Stmt *s = &u->st[si];
      if (s->name < 0 || s->link || !collides(M, ui, &u->tok[s->name])) continue;
      u->ren = wm_xrealloc(u->ren, (size_t)(u->nren + 1) * sizeof *u->ren);
      u->ren[u->nren++] = tok_str(&u->tok[s->name]);
    }
  }
}

static void put(Merge *M, const char *p, size_t n) {
  if (M->len + n + 1 > M->cap) {
    M->cap = (M->len + n + 1) * 2;
    M->out = wm_xrealloc(M->out, M->cap);
  }
  memcpy(M->out + M->len, p, n);
  M->len += n;
  M->out[M->len] = '\0';
}

static int renamed(const Unit *u, const PtxTok *t) {
  for (int i = 0; i < u->nren && t->kind == TK_WORD; i++)
    if (strlen(u->ren[i]) == t->len && !memcmp(u->ren[i], t->p, t->len)) return 1;
  return 0;
}

/* Copies statement s of unit ui, its renamed names suffixed and its file
 * numbers (.file N, .loc N, inlined_at N) moved past the earlier units'. */
static void emit(Merge *M, int ui, const Stmt *s) {
  const Unit *u = &M->u[ui];
  const char *from = u->tok[s->first].p;
  int last = s->last;
  if (s->action == A_PROTO)
    for (last = s->first; !punct(&u->tok[last + 1], '{'); last++) continue;
  for (int i = s->first; i <= last; i++) {
    const PtxTok *t = &u->tok[i];
    int file_no = t->kind == TK_NUM && i > 0 && u->file_base &&
                  (tok_eq(&u->tok[i - 1], ".file") || tok_eq(&u->tok[i - 1], ".loc") ||
                   tok_eq(&u->tok[i - 1], "inlined_at"));
    long n = file_no ? strtol(t->p, NULL, 10) : 0;
    if (n < 0 || n > 0xffff) file_no = 0; /* not a file number ptx_parse takes: left for it to refuse */
    if (!file_no && !renamed(u, t)) continue;
    put(M, from, (size_t)(t->p - from));
    char buf[64];
    if (file_no) snprintf(buf, sizeof buf, "%ld", n + u->file_base);
    else snprintf(buf, sizeof buf, "$wm%d", ui);
    if (!file_no) put(M, t->p, t->len);
    put(M, buf, strlen(buf));
    from = t->p + t->len;
  }
  const PtxTok *l = &u->tok[last];
  put(M, from, (size_t)(l->p + l->len - from));
  put(M, s->action == A_PROTO ? ";\n" : "\n", s->action == A_PROTO ? 2 : 1);
}

static void emit_all(Merge *M) {
  int best = 0;
  for (int ui = 1; ui < M->n; ui++)
    if (M->u[ui].vmaj > M->u[best].vmaj || (M->u[ui].vmaj == M->u[best].vmaj && M->u[ui].vmin > M->u[best].vmin))
      best = ui;
  for (int si = 0; si < M->u[best].nst; si++)
    if (M->u[best].st[si].kind == ST_HDR) emit(M, best, &M->u[best].st[si]);
  for (int ui = 0, base = 0; ui < M->n; ui++) {
    Unit *u = &M->u[ui];
    u->file_base = base;
    base += u->max_file;
    char note[300];
    snprintf(note, sizeof note, "\n// warpmem: translation unit %d, %.250s\n", ui + 1, u->name);
    put(M, note, strlen(note));
    for (int si = 0; si < u->nst; si++) {
      const Stmt *s = &u->st[si];
      if (s->kind == ST_HDR || s->action == A_SKIP) continue;
      if (s->action == A_DEF) {
        const LinkSym *y = &M->sym[s->sym];
        emit(M, y->unit, &M->u[y->unit].st[y->stmt]);
      } else {
        emit(M, ui, s);
      }
    }
  }
}

static void merge_free(Merge *M) {
  for (int ui = 0; ui < M->n; ui++) {
    free(M->u[ui].tok);
    free(M->u[ui].st);
    for (int i = 0; i < M->u[ui].nren; i++) free(M->u[ui].ren[i]);
    free(M->u[ui].ren);
  }
  for (int i = 0; i < M->nsym; i++) free(M->sym[i].name);
  free(M->sym);
  pp_map_free(&M->syms);
  pp_map_free(&M->units);
  free(M->u);
}

char *ptx_merge(const char *const *texts, const char *const *names, int n, WmErr *e) {
  if (n <= 0) {
    wm_err(e, WM_EPARSE, "no PTX to link");
    return NULL;
  }
  Merge M = {.u = wm_xcalloc((size_t)n, sizeof(Unit)), .n = n, .e = e};
  int rc = 0;
  for (int ui = 0; ui < n && !rc; ui++) {
    M.u[ui].name = names[ui];
    M.u[ui].text = texts[ui];
    rc = scan_unit(&M, &M.u[ui]);
  }
  if (!rc) rc = resolve(&M);
  if (!rc) {
    find_renames(&M);
    emit_all(&M);
  }
  merge_free(&M);
  if (rc) {
    free(M.out);
    return NULL;
  }
  return M.out;
}
