/* ptx_parse_base.c - what every part of the PTX parser uses: errors that
 * leave by longjmp, tokens, numbers, type/space/special-register names,
 * symbols and registers (ptx_parse_int.h). */
#include "ptx/ptx_parse_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/bits.h"

/* ---------------------------------------------------------------- tables */

static uint32_t hash(const char *s, uint32_t len) {
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static MapEnt *map_slot(const Map *m, const char *key, uint32_t len) {
  uint32_t i = hash(key, len) & (m->cap - 1);
  for (;;) {
    MapEnt *e = &m->e[i];
    if (!e->key || (e->len == len && memcmp(e->key, key, len) == 0)) return e;
    i = (i + 1) & (m->cap - 1);
  }
}

intptr_t pp_map_get(const Map *m, const char *key, uint32_t len) {
  if (!m->cap) return 0;
  return map_slot(m, key, len)->val;
}

void pp_map_put(Map *m, const char *key, uint32_t len, intptr_t val) {
  if (2 * (m->n + 1) > m->cap) {
    Map big = {wm_xcalloc(m->cap ? 2 * m->cap : 64, sizeof(MapEnt)), m->cap ? 2 * m->cap : 64, 0};
    for (uint32_t i = 0; i < m->cap; i++)
      if (m->e[i].key) {
        *map_slot(&big, m->e[i].key, m->e[i].len) = m->e[i];
        big.n++;
      }
    free(m->e);
    *m = big;
  }
  MapEnt *e = map_slot(m, key, len);
  if (!e->key) {
    e->key = key;
    e->len = len;
    m->n++;
  }
  e->val = val;
}

void pp_map_free(Map *m) {
  free(m->e);
  m->e = NULL;
  m->cap = m->n = 0;
}
uint64_t pp_loc_key(uint64_t file, uint64_t line, uint64_t col) {
  if (line > 0xffffffffu) line = 0xffffffffu;
  if (col > 0x7fff) col = 0x7fff;
  return file << 48 | line << 16 | col | 0x8000; /* never 0 */
}

static LocEnt *loc_slot(const LocMap *m, uint64_t key) {
  uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (m->cap - 1);
  while (m->e[i].key && m->e[i].key != key) i = (i + 1) & (m->cap - 1);
  return &m->e[i];
}

const LocEnt *pp_loc_get(const LocMap *m, uint64_t key) {
  if (!m->cap) return NULL;
  const LocEnt *e = loc_slot(m, key);
  return e->key ? e : NULL;
}

void pp_loc_put(LocMap *m, uint64_t key, uint16_t file, uint32_t line) {
  if (2 * (m->n + 1) > m->cap) {
    LocMap big = {wm_xcalloc(m->cap ? 2 * m->cap : 64, sizeof(LocEnt)), m->cap ? 2 * m->cap : 64, m->n};
    for (uint32_t i = 0; i < m->cap; i++)
      if (m->e[i].key) *loc_slot(&big, m->e[i].key) = m->e[i];
    free(m->e);
    *m = big;
  }
  LocEnt *e = loc_slot(m, key);
  if (!e->key) m->n++;
  *e = (LocEnt){key, file, line};
}
/* ---------------------------------------------------------------- errors */

/* Records the located message as the kernel's reason not to run, unless it
 * already has one (the first wins). */
void pp_mark_unsupported(Parser *P, const PtxTok *t, const char *msg) {
  if (P->k->unsupported) return;
  WmErr e;
  wm_err_at(&e, WM_EUNSUP, P->path, P->src, (int)t->line, (int)t->col, "%s", msg);
  P->k->unsupported = wm_xstrdup(e.msg);
}

static _Noreturn void vfail(Parser *P, const PtxTok *t, int code, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (code == WM_EUNSUP && P->defer && P->k) {
    pp_mark_unsupported(P, t, msg);
    longjmp(P->ijb, 1);
  }
  wm_err_at(P->e, code, P->path, P->src, (int)t->line, (int)t->col, "%s", msg);
  longjmp(P->jb, 1);
}

_Noreturn __attribute__((format(printf, 3, 4)))
void pp_fail(Parser *P, const PtxTok *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(P, t, WM_EPARSE, fmt, ap);
}

_Noreturn __attribute__((format(printf, 3, 4)))
void pp_unsup(Parser *P, const PtxTok *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(P, t, WM_EUNSUP, fmt, ap);
}

/* ---------------------------------------------------------------- tokens */

const PtxTok *pp_peek2(Parser *P) {
  return P->toks[P->pos].kind == TK_EOF ? &P->toks[P->pos] : &P->toks[P->pos + 1];
}

const PtxTok *pp_next(Parser *P) {
  const PtxTok *t = &P->toks[P->pos];
  if (t->kind != TK_EOF) P->pos++;
  return t;
}


int pp_accept(Parser *P, const char *s) {
  if (!pp_is(pp_peek(P), s)) return 0;
  pp_next(P);
  return 1;
}

/* Shows the token as written, for messages. */
const char *pp_tok_str(const PtxTok *t, char *buf, size_t n) {
  if (t->kind == TK_EOF) return "end of file";
  size_t l = t->len < n - 1 ? t->len : n - 1;
  memcpy(buf, t->p, l);
  buf[l] = '\0';
  return buf;
}

/* A missing token at the end of a line is reported just after the previous
 * token (where it belongs), anything else at the offending token. */
_Noreturn void pp_fail_expected(Parser *P, const char *what) {
  const PtxTok *t = pp_peek(P);
  char buf[64];
  if (P->pos > 0) {
    const PtxTok *prev = &P->toks[P->pos - 1];
    if (t->kind == TK_EOF || t->line != prev->line) {
      PtxTok at = *prev;
      at.col = prev->col + prev->len;
      pp_fail(P, &at, "expected %s", what);
    }
  }
  pp_fail(P, t, "expected %s before '%s'", what, pp_tok_str(t, buf, sizeof buf));
}

const PtxTok *pp_expect(Parser *P, char c) {
  if (!pp_is_punct(pp_peek(P), c)) {
    char what[8] = {'\'', c, '\'', 0};
    pp_fail_expected(P, what);
  }
  return pp_next(P);
}

const PtxTok *pp_expect_word(Parser *P, const char *what) {
  if (pp_peek(P)->kind != TK_WORD) pp_fail_expected(P, what);
  return pp_next(P);
}

/* Skips to the ';' that ends the statement (for directives we ignore). */
void pp_skip_statement(Parser *P) {
  while (pp_peek(P)->kind != TK_EOF && !pp_is_punct(pp_peek(P), ';')) pp_next(P);
  pp_expect(P, ';');
}
/* ---------------------------------------------------------------- numbers */


static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* number := 0[fF]h{8} | 0[dD]h{16} | 0[xX]h+ U? | 0[bB][01]+ U? | 0[0-7]* U? | [1-9][0-9]* U? | decimal float */
Num pp_number_tok(Parser *P, const PtxTok *t) {
  Num n = {0};
  const char *p = t->p, *end = t->p + t->len;
  char buf[64];
  if (t->kind != TK_NUM) pp_fail(P, t, "expected a number, found '%s'", pp_tok_str(t, buf, sizeof buf));
  if (end > p && (end[-1] == 'U' || end[-1] == 'u')) end--;
  int base = 10, digits = -1;
  if (t->len >= 2 && p[0] == '0' && (p[1] == 'f' || p[1] == 'F')) {
    n.kind = NUM_F32, base = 16, digits = 8, p += 2;
    end = t->p + t->len;
  } else if (t->len >= 2 && p[0] == '0' && (p[1] == 'd' || p[1] == 'D')) {
    n.kind = NUM_F64, base = 16, digits = 16, p += 2;
    end = t->p + t->len;
  } else if (t->len >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16, p += 2;
  } else if (t->len >= 2 && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
    base = 2, p += 2;
  } else if (memchr(t->p, '.', t->len) || memchr(t->p, 'e', t->len) || memchr(t->p, 'E', t->len)) {
    char fb[64];
    if (t->len >= sizeof fb) pp_fail(P, t, "malformed number '%s'", pp_tok_str(t, buf, sizeof buf));
    memcpy(fb, t->p, t->len);
    fb[t->len] = '\0';
    char *q;
    n.kind = NUM_DEC;
    n.dec = strtod(fb, &q);
    if (*q) pp_fail(P, t, "malformed number '%s'", pp_tok_str(t, buf, sizeof buf));
    return n;
  } else if (t->len >= 2 && p[0] == '0') {
    base = 8;
  }
  if (p == end || (digits >= 0 && end - p != digits))
    pp_fail(P, t, "malformed number '%s'", pp_tok_str(t, buf, sizeof buf));
  uint64_t v = 0;
  for (; p < end; p++) {
    int d = hexval((unsigned char)*p);
    if (d < 0 || d >= base) pp_fail(P, t, "malformed number '%s'", pp_tok_str(t, buf, sizeof buf));
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
      pp_fail(P, t, "integer constant '%s' is too large", pp_tok_str(t, buf, sizeof buf));
    v = v * (uint64_t)base + (uint64_t)d;
  }
  n.bits = v;
  return n;
}

/* signed-number := ['-'] number */
Num pp_signed_number(Parser *P) {
  int neg = 0;
  if (pp_is_punct(pp_peek(P), '-')) {
    pp_next(P);
    neg = 1;
  }
  Num n = pp_number_tok(P, pp_next(P));
  n.neg = neg;
  return n;
}

/* An integer (for sizes, counts, .loc): no sign, no float. */
uint64_t pp_int_number(Parser *P, const char *what) {
  const PtxTok *t = pp_peek(P);
  if (t->kind != TK_NUM) pp_fail_expected(P, what);
  pp_next(P);
  Num n = pp_number_tok(P, t);
  if (n.kind != NUM_INT) pp_fail(P, t, "expected %s", what);
  return n.bits;
}

static uint32_t f32_bits(double d) {
  /* out of float's range: infinity, without the undefined conversion */
  if (isfinite(d) && fabs(d) > FLT_MAX) return (uint32_t)wm_f32_bits(d > 0 ? INFINITY : -INFINITY);
  return (uint32_t)wm_f32_bits((float)d);
}

/* The value of n as an operand of type ty: an integer (sign applied) or the
 * IEEE bits of a float of that type. */
uint64_t pp_num_value(Parser *P, const PtxTok *t, Num n, PtxType ty) {
  if (ty == PTX_T_F32 || ty == PTX_T_F64) {
    double d;
    switch (n.kind) {
    case NUM_F32:
      if (ty == PTX_T_F32) return n.neg ? n.bits ^ 0x80000000u : n.bits;
      d = (double)wm_f32(n.bits);
      break;
    case NUM_F64:
      if (ty == PTX_T_F64) return n.neg ? n.bits ^ 0x8000000000000000ull : n.bits;
      d = wm_f64(n.bits);
      break;
    case NUM_DEC: d = n.dec; break;
    default: d = (double)n.bits; break;
    }
    if (n.neg) d = -d;
    return ty == PTX_T_F32 ? f32_bits(d) : wm_f64_bits(d);
  }
  if (n.kind == NUM_DEC) {
    if (ptx_type_is_float(ty))
      pp_unsup(P, t, "decimal float constants are not supported for .%s", ptx_type_name(ty));
    pp_fail(P, t, "float constant where .%s integer expected", ptx_type_name(ty));
  }
  if ((n.kind == NUM_F32 || n.kind == NUM_F64) && ptx_type_is_float(ty))
    pp_unsup(P, t, "float constants are not supported for .%s (write the bits as 0x...)", ptx_type_name(ty));
  uint64_t v = n.bits;
  return n.neg ? 0 - v : v;
}
/* ---------------------------------------------------------------- names */

int pp_type_of(const char *s, uint32_t len) {
  for (int t = PTX_T_PRED; t < PTX_T_COUNT; t++) {
    const char *nm = ptx_type_name((PtxType)t);
    if (strlen(nm) == len && memcmp(nm, s, len) == 0) return t;
  }
  return -1;
}

/* A directive token (".u32") as a type, or -1. */
int pp_dir_type(const PtxTok *t) {
  if (t->kind != TK_WORD || t->len < 2 || t->p[0] != '.') return -1;
  return pp_type_of(t->p + 1, t->len - 1);
}

int pp_space_of(const char *s, uint32_t len) {
#define S(str, sp) if (len == sizeof(str) - 1 && memcmp(s, str, len) == 0) return sp
  S("global", PTX_S_GLOBAL);
  S("shared", PTX_S_SHARED);
  S("shared::cta", PTX_S_SHARED);
  S("local", PTX_S_LOCAL);
  S("const", PTX_S_CONST);
  S("param", PTX_S_PARAM);
  S("param::entry", PTX_S_PARAM);
#undef S
  return -1;
}

int pp_sreg_of(const PtxTok *t) {
  if (t->len < 2 || t->p[0] != '%') return -1;
  for (int i = 0; i < PTX_SR_COUNT; i++)
    if (strlen(ptx_sreg_name[i]) == t->len - 1 && memcmp(ptx_sreg_name[i], t->p + 1, t->len - 1) == 0)
      return i;
  return -1;
}

/* A predefined identifier or special register with a known value
 * (ptx_sreg_alias): 1 with *sreg (or -1 and *imm), else 0. */
int pp_sreg_alias(const PtxTok *t, int *sreg, uint64_t *imm) {
  for (int i = 0; i < ptx_nsreg_alias; i++)
    if (strlen(ptx_sreg_alias[i].name) == t->len && memcmp(ptx_sreg_alias[i].name, t->p, t->len) == 0) {
      *sreg = ptx_sreg_alias[i].sreg;
      *imm = ptx_sreg_alias[i].value;
      return 1;
    }
  return 0;
}

char *pp_tok_dup(const PtxTok *t) { return wm_xstrndup(t->p, t->len); }

uint64_t pp_align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }
/* ---------------------------------------------------------------- symbols */

Sym *pp_new_sym(Parser *P, const PtxTok *name, int space) {
  Sym *s = wm_xcalloc(1, sizeof *s);
  GROW(P->syms, P->nsyms, P->capsyms);
  P->syms[P->nsyms++] = s;
  s->name = name->p;
  s->len = name->len;
  s->space = (uint8_t)space;
  return s;
}

Sym *pp_find_sym(Parser *P, const PtxTok *t) {
  Sym *s = (Sym *)pp_map_get(&P->ksyms, t->p, t->len);
  if (!s) s = (Sym *)pp_map_get(&P->msyms, t->p, t->len);
  return s;
}

/* A variable of a kernel's nested block shadows one of an outer block (or
 * a module variable) until the block ends; two of one block clash. */
void pp_declare_sym(Parser *P, const PtxTok *name, Sym *s) {
  Map *m = P->k ? &P->ksyms : &P->msyms;
  char buf[128];
  Sym *prev = (Sym *)pp_map_get(m, name->p, name->len);
  if (prev && (!P->k || prev->depth == P->depth))
    pp_fail(P, name, "'%s' is already declared", pp_tok_str(name, buf, sizeof buf));
  if (P->k) {
    s->depth = P->depth;
    s->prev = prev;
    if (P->depth > 0) {
      GROW(P->shadows, P->nshadows, P->capshadows);
      P->shadows[P->nshadows++] = s;
    }
  }
  pp_map_put(m, name->p, name->len, (intptr_t)s);
}

/* ---------------------------------------------------------------- registers */

/* The declaration of register `t` and the index in it, or NULL.  "%r17" is
 * looked up as itself, then as "%r1" index 7 and "%r" index 17. */
RegDecl *pp_find_reg(Parser *P, const PtxTok *t, uint32_t *idx) {
  RegDecl *d = (RegDecl *)pp_map_get(&P->regs, t->p, t->len);
  if (d && d->count == 0) {
    *idx = 0;
    return d;
  }
  for (uint32_t k = t->len; k > 1 && t->p[k - 1] >= '0' && t->p[k - 1] <= '9'; k--) {
    uint32_t split = k - 1; /* digits are p[split..len) */
    if (t->p[split] == '0' && split + 1 < t->len) continue; /* no leading zeros */
    if (t->len - split > 9) continue;
    d = (RegDecl *)pp_map_get(&P->regs, t->p, split);
    if (!d || d->count == 0) continue;
    uint32_t v = 0;
    for (uint32_t i = split; i < t->len; i++) v = v * 10 + (uint32_t)(t->p[i] - '0');
    if (v < d->count) {
      *idx = v;
      return d;
    }
  }
  return NULL;
}

/* The slot of a register use (numbered on first use). */
uint32_t pp_reg_slot(Parser *P, const PtxTok *t, uint8_t *type) {
  uint32_t idx;
  RegDecl *d = pp_find_reg(P, t, &idx);
  char buf[128];
  if (!d) {
    const char *dot = memchr(t->p, '.', t->len);
    PtxTok base = *t;
    base.len = dot ? (uint32_t)(dot - t->p) : t->len;
    if (dot && pp_find_reg(P, &base, &idx)) /* %r1.b0, %r2.h10: video instructions' selectors */
      pp_unsup(P, t, "operand selector '%s' is not supported (the video instructions run with their default "
               "selectors)", pp_tok_str(t, buf, sizeof buf));
    if (t->p[0] == '%' && dot)
      pp_unsup(P, t, "unsupported special register '%s'", pp_tok_str(t, buf, sizeof buf));
    pp_fail(P, t, "undeclared register '%s'", pp_tok_str(t, buf, sizeof buf));
  }
  *type = d->type;
  if (d->slots[idx] == PTX_NOREG) {
    PtxKernel *k = P->k;
    GROW(k->reg_names, (int)k->nregs, P->capnames);
    k->reg_names[k->nregs] = pp_tok_dup(t);
    d->slots[idx] = k->nregs++;
  }
  return d->slots[idx];
}

/* label ':' -- a label is the next instruction's; one name is defined once
 * per block (an inner block's shadows an outer one's). */
void pp_define_label(Parser *P, const PtxTok *t, int instr) {
  char buf[128];
  intptr_t v = pp_map_get(&P->labels, t->p, t->len);
  if (v && P->ldefs[v - 1].depth == P->depth) pp_fail(P, t, "label '%s' defined twice", pp_tok_str(t, buf, sizeof buf));
  GROW(P->ldefs, P->nldefs, P->capldefs);
  P->ldefs[P->nldefs++] = (LabelDef){t, instr, P->depth, (int)v};
  pp_map_put(&P->labels, t->p, t->len, P->nldefs);
}

/* The block of depth P->depth ends: the branches made inside it (the
 * uses from luse_at[depth] on) that name one of its labels get their
 * target; the others are left for the enclosing block (at depth 0, the
 * kernel's, none may be left). */
void pp_resolve_labels(Parser *P) {
  int from = P->depth > 0 ? P->luse_at[P->depth] : 0, keep = from;
  for (int i = from; i < P->nluses; i++) {
    LabelUse u = P->luses[i];
    intptr_t v = pp_map_get(&P->labels, u.tok->p, u.tok->len);
    if (v && P->ldefs[v - 1].depth == P->depth) P->k->code[u.instr].opd[0].imm = P->ldefs[v - 1].instr;
    else P->luses[keep++] = u;
  }
  P->nluses = keep;
  if (P->depth == 0 && P->nluses) {
    char buf[128];
    pp_fail(P, P->luses[0].tok, "unknown label '%s'", pp_tok_str(P->luses[0].tok, buf, sizeof buf));
  }
}

/* Leaves the block of depth P->depth (after pp_resolve_labels, unless
 * unwinding after an error): its registers, variables and labels go out
 * of scope. */
void pp_leave_scope(Parser *P) {
  while (P->ndecls > 0 && P->decls[P->ndecls - 1]->depth == P->depth) {
    RegDecl *d = P->decls[--P->ndecls];
    pp_map_put(&P->regs, d->name, d->len, (intptr_t)d->prev);
    free(d->slots);
    free(d);
  }
  while (P->nshadows > 0 && P->shadows[P->nshadows - 1]->depth == P->depth) {
    Sym *v = P->shadows[--P->nshadows]; /* the Sym itself is P's (P->syms) */
    pp_map_put(&P->ksyms, v->name, v->len, (intptr_t)v->prev);
  }
  while (P->nldefs > 0 && P->ldefs[P->nldefs - 1].depth == P->depth) {
    LabelDef *d = &P->ldefs[--P->nldefs];
    pp_map_put(&P->labels, d->tok->p, d->tok->len, d->prev);
  }
  P->depth--;
}

/* reg-decl := (.reg [.vN] type | .reg.type) name ['<' count '>'] {',' name ['<' count '>']} ';'
 * (.reg.b16 in one word: the inline asm of <cuda_fp16.h> writes it so) */
void pp_reg_decl(Parser *P) {
  const PtxTok *rt = pp_next(P); /* .reg */
  int type;
  if (rt->len > 5) {
    type = pp_type_of(rt->p + 5, rt->len - 5);
    if (type < 0) pp_fail(P, rt, "expected a register type after '.reg.'");
  } else {
    const PtxTok *tt = pp_peek(P);
    if (pp_is(tt, ".v2") || pp_is(tt, ".v4")) pp_unsup(P, tt, "vector registers (.reg .v2/.v4) are not supported");
    type = pp_dir_type(tt);
    if (type < 0) pp_fail_expected(P, "a register type");
    pp_next(P);
  }
  do {
    const PtxTok *name = pp_expect_word(P, "a register name");
    char buf[128];
    if (name->p[0] == '.' || pp_sreg_of(name) >= 0) pp_fail(P, name, "bad register name '%s'", pp_tok_str(name, buf, sizeof buf));
    uint32_t count = 0;
    if (pp_is_punct(pp_peek(P), '<')) {
      pp_next(P);
      const PtxTok *nt = pp_peek(P);
      uint64_t c = pp_int_number(P, "a register count");
      if (c > (1u << 20)) pp_fail(P, nt, "register count %llu is too large", (unsigned long long)c);
      count = (uint32_t)c;
      pp_expect(P, '>');
      if (count == 0) continue;
    }
    P->declared_regs += count ? count : 1;
    if (P->declared_regs > (1u << 22)) pp_fail(P, name, "too many registers declared in kernel %s", P->k->name);
    RegDecl *prev = (RegDecl *)pp_map_get(&P->regs, name->p, name->len);
    if (prev && prev->depth == P->depth) pp_fail(P, name, "register '%s' is already declared", pp_tok_str(name, buf, sizeof buf));
    RegDecl *d = wm_xcalloc(1, sizeof *d);
    d->name = name->p;
    d->len = name->len;
    d->count = count;
    d->type = (uint8_t)type;
    d->depth = P->depth;
    d->prev = prev;
    uint32_t n = count ? count : 1;
    d->slots = wm_xmalloc(n * sizeof *d->slots);
    for (uint32_t i = 0; i < n; i++) d->slots[i] = PTX_NOREG;
    GROW(P->decls, P->ndecls, P->capdecls);
    P->decls[P->ndecls++] = d;
    pp_map_put(&P->regs, name->p, name->len, (intptr_t)d);
  } while (pp_accept(P, ","));
  pp_expect(P, ';');
}

/* The C++ name of an Itanium-mangled function: _Z9transposePfPKfii ->
 * "transpose", _ZN2ns6kernelEPf -> "kernel".  NULL if not mangled. */
char *pp_demangle(const char *s) {
  if (strncmp(s, "_Z", 2) != 0) return NULL;
  const char *p = s + 2;
  if (*p == 'L') p++;
  int nested = 0;
  if (*p == 'N') {
    nested = 1;
    p++;
    while (*p == 'r' || *p == 'V' || *p == 'K') p++;
  }
  const char *last = NULL;
  size_t lastlen = 0;
  for (;;) {
    if (*p >= '1' && *p <= '9') {
      size_t len = 0;
      while (*p >= '0' && *p <= '9') {
        len = len * 10 + (size_t)(*p++ - '0');
        if (len > 4096) return NULL;
      }
      if (strnlen(p, len) < len) return NULL;
      last = p, lastlen = len;
      p += len;
      if (!nested) break;
    } else if (nested && *p == 'I') { /* template arguments: skip to the matching E */
      int depth = 0;
      do {
        if (*p == 'I') depth++;
        else if (*p == 'E') depth--;
        else if (!*p) return NULL;
        p++;
      } while (depth > 0);
    } else if (nested && (*p == 'E' || !*p)) {
      break;
    } else if (nested && *p == 'S' && p[1] == 't') { /* std:: */
      p += 2;
    } else {
      return NULL;
    }
  }
  return last ? wm_xstrndup(last, lastlen) : NULL;
}
