/* ptx_parse.c - PTX text to PtxModule: a recursive-descent parser over the
 * token array from ptx_lex.c.
 *
 * OPERAND CONVENTIONS (the emulator relies on these exactly -- keep them):
 *   opd[] holds the operands in the order written, destinations first, except:
 *   setp    opd[0]=p, opd[1]=q (NONE if absent), opd[2]=a, opd[3]=b,
 *           opd[4]=c (NONE if absent; written !c -> opd[4].neg=1 and
 *           PTX_IF_NEG_C); sub = BAND/BOR/BXOR with a combination; nopd = 5.
 *   set     opd[0]=d, opd[1]=a, opd[2]=b[, opd[3]=c (neg as for setp)];
 *           type = destination type, type2 = source type.
 *   shfl    opd[0]=d, opd[1]=p (NONE if absent), opd[2]=a, opd[3]=b,
 *           opd[4]=c, opd[5]=membermask (NONE for the non-.sync form);
 *           sub = UP/DOWN/BFLY/IDX; nopd = 6.
 *   vote    opd[0]=d, opd[1]=a (pred, .neg if !a), opd[2]=membermask (NONE for
 *           the non-.sync form); sub = ALL/ANY/UNI/BALLOT; nopd = 3.
 *   match   opd[0]=d, opd[1]=p (NONE if absent), opd[2]=a, opd[3]=membermask;
 *           sub = ANY/ALL; nopd = 4.
 *   redux   opd[0]=d, opd[1]=a, opd[2]=membermask; sub = AADD..AXOR.
 *   st/red  opd[0]=ADDR, opd[1]=value.
 *   atom    opd[0]=d, opd[1]=ADDR, opd[2]=b, opd[3]=c (cas only).
 *   bar/barrier  opd[0]=barrier id (IMM or REG), opd[1]=thread count (NONE if
 *           absent); sub = SYNC or ARRIVE; nopd = 2.
 *   bar.red / barrier.red (.popc.u32 d or .and/.or.pred p, a[, b], [!]c)
 *           opd[0]=d, opd[1]=a (barrier id), opd[2]=b (thread count, NONE if
 *           absent), opd[3]=c (predicate REG or IMM; written !c -> opd[3].neg=1
 *           and PTX_IF_NEG_C); sub = RED_POPC/RED_AND/RED_OR; type = U32 for
 *           popc, PRED for and/or; nopd = 4.  ptx_op_flags keeps OPF_NODST for
 *           BAR/BARRIER: with a RED_* sub opd[0] is a destination all the same.
 *   shf     shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: opd[0]=d, opd[1]=a (low
 *           word), opd[2]=b (high word), opd[3]=c (shift amount; an IMM is
 *           read as u32); sub = SHF_L_WRAP/SHF_L_CLAMP/SHF_R_WRAP/SHF_R_CLAMP;
 *           type = B32.
 *   bfind   opd[0]=d (32-bit), opd[1]=a; type = u32/u64/s32/s64 (that of a);
 *           sub = SHIFTAMT for .shiftamt, else NONE.
 *   bar.warp.sync  opd[0]=membermask.
 *   bra     opd[0]=LABEL, imm = index of the target instruction.
 *   cvta    cvta.to.global.u64 d,a: space=GLOBAL, sub=PTX_SUB_TO;
 *           cvta.shared.u64 d,a: space=SHARED, sub=NONE.
 *   ld/st/ldu/atom/red/prefetch without a space: space=GENERIC.
 *   ld/st   type = element type, vec = 1/2/4; a vector operand has n == vec.
 *   cvt     type = destination, type2 = source, rnd = rounding.
 *   slct    type = type of d, a, b; type2 = type of c.
 *   mul/mad/mul24/mad24  sub = LO/HI/WIDE; an integer mul/mad written without
 *           a mode gets LO; .wide sets type2 = type (the source type).
 *   IMM     integers: the value as written, sign-extended to int64 (0xffffffff
 *           stays 4294967295, -1 is -1).  Float types: the IEEE bits in the
 *           operand's type (0f.. converted to double for .f64 operands, 0d..
 *           to float for .f32, decimal floats and integers converted by value).
 *           The operand's type is the instruction type, except: cvt source
 *           -> type2, set sources -> type2, slct c -> type2, shift amounts
 *           (shl/shr b, shf c) and bfe/bfi positions -> u32, bar.red c -> pred.
 *   SYM     mov.u32 %r, var / mov.u64 %rd, __local_depot0: space = the var's
 *           space, imm = its offset in that space (shared: in the block's
 *           shared memory, local: in the thread's local memory, global/const:
 *           in the module's segment, param: in the parameter buffer).
 *   ADDR    [reg+imm] with reg = the base register; [sym+off] has
 *           reg = PTX_NOREG, space = the symbol's space and imm = its offset
 *           plus off; [1024] has reg = PTX_NOREG, space = NONE.
 *   Dynamic shared (.extern .shared x[]) lives at shared_static rounded up to
 *   shared_extern_align; that offset is already folded into every SYM/ADDR.
 *   Registers are slots 0..nregs-1 numbered in order of first use (predicates
 *   included); reg_names[slot] is the name.  '_' in a vector is PTX_NOREG.
 *   ptx_col is the column of the guard if there is one, else of the mnemonic;
 *   text is the byte offset of the same place in module->text.
 *   A kernel whose code can run past its last instruction (no final
 *   unguarded ret/exit/trap/bra, or a label just before the closing '}') gets
 *   an implicit ret located at that '}', so every LABEL target and every
 *   fall-through pc is < ncode.
 *
 *   .loc    cu_file/cu_line = the outermost call site of inlined code (the
 *           kernel's line, following chains of inlined_at), cu_file_inner/
 *           cu_line_inner = the .loc's own position (see loc()).  A position
 *           whose file number has no .file is dropped (cu_line = 0).
 *
 * Errors: malformed input -> WM_EPARSE, valid PTX that warpmem does not run
 * -> WM_EUNSUP, both located with file:line:col, the line and a caret.  The
 * module fails for malformed input anywhere and for unsupported constructs
 * outside instructions (.reg .v2, .extern .global, ...).  An unsupported
 * instruction (call, tex, wmma, cp.async, brx.idx, an unknown opcode or
 * modifier, an unknown special register, a function's address) or body
 * directive (.callprototype, .branchtargets, the .param of a call sequence)
 * only marks its kernel: PtxKernel.unsupported holds the first such located
 * message, parsing resumes after the ';' and ptx_find_kernel refuses that
 * kernel.  .func bodies are skipped (a kernel that calls one is marked).  Errors
 * leave the parser by longjmp; every allocation is owned by the Parser or the
 * module when it can happen.
 */
#include "ptx/ptx.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_lex.h"
#include "util/bits.h"

/* ---------------------------------------------------------------- tables */

/* A string -> intptr_t hash table (open addressing).  Keys point into the
 * PTX text or into a RegDecl; 0 is "absent". */
typedef struct MapEnt {
  const char *key;
  uint32_t len;
  intptr_t val;
} MapEnt;

typedef struct Map {
  MapEnt *e;
  uint32_t cap, n;
} Map;

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

static intptr_t map_get(const Map *m, const char *key, uint32_t len) {
  if (!m->cap) return 0;
  return map_slot(m, key, len)->val;
}

static void map_put(Map *m, const char *key, uint32_t len, intptr_t val) {
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

static void map_free(Map *m) {
  free(m->e);
  m->e = NULL;
  m->cap = m->n = 0;
}

/* .loc positions (file, line, column) -> the outermost call site they were
 * inlined at (file, line): open addressing on a packed key, 0 is "absent". */
typedef struct LocEnt {
  uint64_t key;
  uint16_t file;
  uint32_t line;
} LocEnt;

typedef struct LocMap {
  LocEnt *e;
  uint32_t cap, n;
} LocMap;

static uint64_t loc_key(uint64_t file, uint64_t line, uint64_t col) {
  if (line > 0xffffffffu) line = 0xffffffffu;
  if (col > 0x7fff) col = 0x7fff;
  return file << 48 | line << 16 | col | 0x8000; /* never 0 */
}

static LocEnt *loc_slot(const LocMap *m, uint64_t key) {
  uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (m->cap - 1);
  while (m->e[i].key && m->e[i].key != key) i = (i + 1) & (m->cap - 1);
  return &m->e[i];
}

static const LocEnt *loc_get(const LocMap *m, uint64_t key) {
  if (!m->cap) return NULL;
  const LocEnt *e = loc_slot(m, key);
  return e->key ? e : NULL;
}

static void loc_put(LocMap *m, uint64_t key, uint16_t file, uint32_t line) {
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

/* A declared variable or parameter. */
typedef struct Sym {
  const char *name;
  uint32_t len;
  uint8_t space;     /* PtxSpace */
  uint8_t ext;       /* .extern .shared x[]: dynamic shared */
  uint32_t align;
  uint64_t offset;   /* in its space (ext: 0, fixed up per kernel) */
} Sym;

/* A .reg declaration: one name (count 0) or name<count>. */
typedef struct RegDecl {
  const char *name;
  uint32_t len;
  uint32_t count;
  uint8_t type;
  int depth;               /* block nesting level of the declaration */
  uint32_t *slots;         /* [count or 1], PTX_NOREG until first use */
  struct RegDecl *prev;    /* the declaration it shadows */
} RegDecl;

typedef struct LabelUse {
  int instr;
  const PtxTok *tok;
} LabelUse;

typedef struct Parser {
  const char *path, *src;
  WmErr *e;
  jmp_buf jb;
  PtxTok *toks;
  int ntoks, pos;
  PtxModule *m;
  Map msyms;                /* module variables -> Sym* */
  Map funcs;                /* .func names -> 1 */
  Sym **syms;               /* every Sym, for freeing */
  int nsyms, capsyms;
  uint32_t mshared;         /* bytes of module-scope static shared */
  uint64_t gcap, ccap;      /* capacity of global_init, const_init */
  int capvars, capkernels;

  /* the kernel being parsed */
  PtxKernel *k;
  int capcode, capnames, capparams;
  Map ksyms;                /* params and entry variables -> Sym* */
  Map regs;                 /* register names -> RegDecl* */
  Map labels;               /* label -> instruction index + 1 */
  RegDecl **decls;          /* declarations in order, for scope exit */
  int ndecls, capdecls, depth;
  LabelUse *luses;
  int nluses, capluses;
  int *xfix;                /* (instr, opd) pairs that name dynamic shared */
  int nxfix, capxfix;
  uint32_t extern_align, shared_cur, local_cur;
  uint64_t declared_regs;   /* register names declared in this kernel */
  uint16_t cur_file, cur_file_inner; /* the last .loc: outermost call site */
  uint32_t cur_line, cur_line_inner; /* and its own position */
  LocMap locs;              /* .loc position -> its outermost call site */

  /* While an instruction is parsed, an unsupported construct marks the
   * kernel and longjmps here instead of failing the module. */
  const PtxTok *call_param; /* the kernel's first .param in its body */
  int defer;
  int instr_end;            /* token index of the instruction's ';' */
  jmp_buf ijb;
} Parser;

#define GROW(P_ptr, n, cap)                                                       \
  do {                                                                            \
    if ((n) >= (cap)) {                                                           \
      (cap) = (cap) ? 2 * (cap) : 16;                                             \
      (P_ptr) = wm_xrealloc((P_ptr), (size_t)(cap) * sizeof *(P_ptr));            \
    }                                                                             \
  } while (0)

/* ---------------------------------------------------------------- errors */

/* Records the located message as the kernel's reason not to run, unless it
 * already has one (the first wins). */
static void mark_unsupported(Parser *P, const PtxTok *t, const char *msg) {
  if (P->k->unsupported) return;
  WmErr e;
  wm_err_at(&e, WM_EUNSUP, P->path, P->src, (int)t->line, (int)t->col, "%s", msg);
  P->k->unsupported = wm_xstrdup(e.msg);
}

static _Noreturn void vfail(Parser *P, const PtxTok *t, int code, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (code == WM_EUNSUP && P->defer && P->k) {
    mark_unsupported(P, t, msg);
    longjmp(P->ijb, 1);
  }
  wm_err_at(P->e, code, P->path, P->src, (int)t->line, (int)t->col, "%s", msg);
  longjmp(P->jb, 1);
}

static _Noreturn __attribute__((format(printf, 3, 4)))
void fail(Parser *P, const PtxTok *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(P, t, WM_EPARSE, fmt, ap);
}

static _Noreturn __attribute__((format(printf, 3, 4)))
void unsup(Parser *P, const PtxTok *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(P, t, WM_EUNSUP, fmt, ap);
}

/* ---------------------------------------------------------------- tokens */

static const PtxTok *peek(Parser *P) { return &P->toks[P->pos]; }
static const PtxTok *peek2(Parser *P) {
  return P->toks[P->pos].kind == TK_EOF ? &P->toks[P->pos] : &P->toks[P->pos + 1];
}

static const PtxTok *next(Parser *P) {
  const PtxTok *t = &P->toks[P->pos];
  if (t->kind != TK_EOF) P->pos++;
  return t;
}

static int is(const PtxTok *t, const char *s) { return t->kind != TK_EOF && ptx_tok_is(t, s); }
static int is_punct(const PtxTok *t, char c) { return t->kind == TK_PUNCT && t->p[0] == c; }

static int accept(Parser *P, const char *s) {
  if (!is(peek(P), s)) return 0;
  next(P);
  return 1;
}

/* Shows the token as written, for messages. */
static const char *tok_str(const PtxTok *t, char *buf, size_t n) {
  if (t->kind == TK_EOF) return "end of file";
  size_t l = t->len < n - 1 ? t->len : n - 1;
  memcpy(buf, t->p, l);
  buf[l] = '\0';
  return buf;
}

/* A missing token at the end of a line is reported just after the previous
 * token (where it belongs), anything else at the offending token. */
static _Noreturn void fail_expected(Parser *P, const char *what) {
  const PtxTok *t = peek(P);
  char buf[64];
  if (P->pos > 0) {
    const PtxTok *prev = &P->toks[P->pos - 1];
    if (t->kind == TK_EOF || t->line != prev->line) {
      PtxTok at = *prev;
      at.col = prev->col + prev->len;
      fail(P, &at, "expected %s", what);
    }
  }
  fail(P, t, "expected %s before '%s'", what, tok_str(t, buf, sizeof buf));
}

static const PtxTok *expect(Parser *P, char c) {
  if (!is_punct(peek(P), c)) {
    char what[8] = {'\'', c, '\'', 0};
    fail_expected(P, what);
  }
  return next(P);
}

static const PtxTok *expect_word(Parser *P, const char *what) {
  if (peek(P)->kind != TK_WORD) fail_expected(P, what);
  return next(P);
}

/* Skips to the ';' that ends the statement (for directives we ignore). */
static void skip_statement(Parser *P) {
  while (peek(P)->kind != TK_EOF && !is_punct(peek(P), ';')) next(P);
  expect(P, ';');
}

/* ---------------------------------------------------------------- numbers */

enum { NUM_INT, NUM_F32, NUM_F64, NUM_DEC };

typedef struct Num {
  int kind;       /* NUM_* */
  int neg;        /* written with a leading '-' */
  uint64_t bits;  /* INT: value; F32/F64: IEEE bits as written */
  double dec;     /* DEC: the value */
} Num;

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* number := 0[fF]h{8} | 0[dD]h{16} | 0[xX]h+ U? | 0[bB][01]+ U? | 0[0-7]* U? | [1-9][0-9]* U? | decimal float */
static Num number_tok(Parser *P, const PtxTok *t) {
  Num n = {0};
  const char *p = t->p, *end = t->p + t->len;
  char buf[64];
  if (t->kind != TK_NUM) fail(P, t, "expected a number, found '%s'", tok_str(t, buf, sizeof buf));
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
    if (t->len >= sizeof fb) fail(P, t, "malformed number '%s'", tok_str(t, buf, sizeof buf));
    memcpy(fb, t->p, t->len);
    fb[t->len] = '\0';
    char *q;
    n.kind = NUM_DEC;
    n.dec = strtod(fb, &q);
    if (*q) fail(P, t, "malformed number '%s'", tok_str(t, buf, sizeof buf));
    return n;
  } else if (t->len >= 2 && p[0] == '0') {
    base = 8;
  }
  if (p == end || (digits >= 0 && end - p != digits))
    fail(P, t, "malformed number '%s'", tok_str(t, buf, sizeof buf));
  uint64_t v = 0;
  for (; p < end; p++) {
    int d = hexval((unsigned char)*p);
    if (d < 0 || d >= base) fail(P, t, "malformed number '%s'", tok_str(t, buf, sizeof buf));
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
      fail(P, t, "integer constant '%s' is too large", tok_str(t, buf, sizeof buf));
    v = v * (uint64_t)base + (uint64_t)d;
  }
  n.bits = v;
  return n;
}

/* signed-number := ['-'] number */
static Num signed_number(Parser *P) {
  int neg = 0;
  if (is_punct(peek(P), '-')) {
    next(P);
    neg = 1;
  }
  Num n = number_tok(P, next(P));
  n.neg = neg;
  return n;
}

/* An integer (for sizes, counts, .loc): no sign, no float. */
static uint64_t int_number(Parser *P, const char *what) {
  const PtxTok *t = peek(P);
  if (t->kind != TK_NUM) fail_expected(P, what);
  next(P);
  Num n = number_tok(P, t);
  if (n.kind != NUM_INT) fail(P, t, "expected %s", what);
  return n.bits;
}

static uint32_t f32_bits(double d) {
  /* out of float's range: infinity, without the undefined conversion */
  if (isfinite(d) && fabs(d) > FLT_MAX) return (uint32_t)wm_f32_bits(d > 0 ? INFINITY : -INFINITY);
  return (uint32_t)wm_f32_bits((float)d);
}

/* The value of n as an operand of type ty: an integer (sign applied) or the
 * IEEE bits of a float of that type. */
static uint64_t num_value(Parser *P, const PtxTok *t, Num n, PtxType ty) {
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
      unsup(P, t, "decimal float constants are not supported for .%s", ptx_type_name(ty));
    fail(P, t, "float constant where .%s integer expected", ptx_type_name(ty));
  }
  if ((n.kind == NUM_F32 || n.kind == NUM_F64) && ptx_type_is_float(ty))
    unsup(P, t, "float constants are not supported for .%s (write the bits as 0x...)", ptx_type_name(ty));
  uint64_t v = n.bits;
  return n.neg ? 0 - v : v;
}

/* ---------------------------------------------------------------- names */

static int type_of(const char *s, uint32_t len) {
  for (int t = PTX_T_PRED; t < PTX_T_COUNT; t++) {
    const char *nm = ptx_type_name((PtxType)t);
    if (strlen(nm) == len && memcmp(nm, s, len) == 0) return t;
  }
  return -1;
}

/* A directive token (".u32") as a type, or -1. */
static int dir_type(const PtxTok *t) {
  if (t->kind != TK_WORD || t->len < 2 || t->p[0] != '.') return -1;
  return type_of(t->p + 1, t->len - 1);
}

static int space_of(const char *s, uint32_t len) {
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

static int sreg_of(const PtxTok *t) {
  if (t->len < 2 || t->p[0] != '%') return -1;
  for (int i = 0; i < PTX_SR_COUNT; i++)
    if (strlen(ptx_sreg_name[i]) == t->len - 1 && memcmp(ptx_sreg_name[i], t->p + 1, t->len - 1) == 0)
      return i;
  return -1;
}

static char *tok_dup(const PtxTok *t) { return wm_xstrndup(t->p, t->len); }

static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

/* ---------------------------------------------------------------- symbols */

static Sym *new_sym(Parser *P, const PtxTok *name, int space) {
  Sym *s = wm_xcalloc(1, sizeof *s);
  GROW(P->syms, P->nsyms, P->capsyms);
  P->syms[P->nsyms++] = s;
  s->name = name->p;
  s->len = name->len;
  s->space = (uint8_t)space;
  return s;
}

static Sym *find_sym(Parser *P, const PtxTok *t) {
  Sym *s = (Sym *)map_get(&P->ksyms, t->p, t->len);
  if (!s) s = (Sym *)map_get(&P->msyms, t->p, t->len);
  return s;
}

static void declare_sym(Parser *P, const PtxTok *name, Sym *s) {
  Map *m = P->k ? &P->ksyms : &P->msyms;
  char buf[128];
  if (map_get(m, name->p, name->len)) fail(P, name, "'%s' is already declared", tok_str(name, buf, sizeof buf));
  map_put(m, name->p, name->len, (intptr_t)s);
}

/* ---------------------------------------------------------------- registers */

/* The declaration of register `t` and the index in it, or NULL.  "%r17" is
 * looked up as itself, then as "%r1" index 7 and "%r" index 17. */
static RegDecl *find_reg(Parser *P, const PtxTok *t, uint32_t *idx) {
  RegDecl *d = (RegDecl *)map_get(&P->regs, t->p, t->len);
  if (d && d->count == 0) {
    *idx = 0;
    return d;
  }
  for (uint32_t k = t->len; k > 1 && t->p[k - 1] >= '0' && t->p[k - 1] <= '9'; k--) {
    uint32_t split = k - 1; /* digits are p[split..len) */
    if (t->p[split] == '0' && split + 1 < t->len) continue; /* no leading zeros */
    if (t->len - split > 9) continue;
    d = (RegDecl *)map_get(&P->regs, t->p, split);
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
static uint32_t reg_slot(Parser *P, const PtxTok *t, uint8_t *type) {
  uint32_t idx;
  RegDecl *d = find_reg(P, t, &idx);
  char buf[128];
  if (!d) {
    static const char *const unsup_sregs[] = {"%envreg", "%pm", "%cluster", "%nclusterid",
                                              "%globaltimer_", "%reserved_smem", "%aggr_smem",
                                              "%is_explicit_cluster", "%current_graph_exec"};
    if (t->p[0] == '%') {
      for (size_t i = 0; i < sizeof unsup_sregs / sizeof *unsup_sregs; i++)
        if (t->len >= strlen(unsup_sregs[i]) && memcmp(t->p, unsup_sregs[i], strlen(unsup_sregs[i])) == 0)
          unsup(P, t, "unsupported special register '%s'", tok_str(t, buf, sizeof buf));
      if (memchr(t->p, '.', t->len))
        unsup(P, t, "unsupported special register '%s'", tok_str(t, buf, sizeof buf));
    }
    fail(P, t, "undeclared register '%s'", tok_str(t, buf, sizeof buf));
  }
  *type = d->type;
  if (d->slots[idx] == PTX_NOREG) {
    PtxKernel *k = P->k;
    GROW(k->reg_names, (int)k->nregs, P->capnames);
    k->reg_names[k->nregs] = tok_dup(t);
    d->slots[idx] = k->nregs++;
  }
  return d->slots[idx];
}

static void leave_scope(Parser *P) {
  while (P->ndecls > 0 && P->decls[P->ndecls - 1]->depth == P->depth) {
    RegDecl *d = P->decls[--P->ndecls];
    map_put(&P->regs, d->name, d->len, (intptr_t)d->prev);
    free(d->slots);
    free(d);
  }
  P->depth--;
}

/* reg-decl := .reg [.vN] type name ['<' count '>'] {',' name ['<' count '>']} ';' */
static void reg_decl(Parser *P) {
  next(P); /* .reg */
  const PtxTok *tt = peek(P);
  if (is(tt, ".v2") || is(tt, ".v4")) unsup(P, tt, "vector registers (.reg .v2/.v4) are not supported");
  int type = dir_type(tt);
  if (type < 0) fail_expected(P, "a register type");
  next(P);
  do {
    const PtxTok *name = expect_word(P, "a register name");
    char buf[128];
    if (name->p[0] == '.' || sreg_of(name) >= 0) fail(P, name, "bad register name '%s'", tok_str(name, buf, sizeof buf));
    uint32_t count = 0;
    if (is_punct(peek(P), '<')) {
      next(P);
      const PtxTok *nt = peek(P);
      uint64_t c = int_number(P, "a register count");
      if (c > (1u << 20)) fail(P, nt, "register count %llu is too large", (unsigned long long)c);
      count = (uint32_t)c;
      expect(P, '>');
      if (count == 0) continue;
    }
    P->declared_regs += count ? count : 1;
    if (P->declared_regs > (1u << 22)) fail(P, name, "too many registers declared in kernel %s", P->k->name);
    RegDecl *prev = (RegDecl *)map_get(&P->regs, name->p, name->len);
    if (prev && prev->depth == P->depth) fail(P, name, "register '%s' is already declared", tok_str(name, buf, sizeof buf));
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
    map_put(&P->regs, name->p, name->len, (intptr_t)d);
  } while (accept(P, ","));
  expect(P, ';');
}

/* ---------------------------------------------------------------- variables */

/* Writes the value of n, an element of type ty, at dst (little-endian). */
static void store_elem(Parser *P, const PtxTok *t, Num n, PtxType ty, uint8_t *dst) {
  uint64_t v = num_value(P, t, n, ty);
  unsigned size = ptx_type_size(ty);
  for (unsigned i = 0; i < size && i < 8; i++) dst[i] = (uint8_t)(v >> (8 * i));
}

/* init := '{' init {',' init} '}' | signed-number */
static void initializer(Parser *P, uint8_t *buf, uint64_t nelem, PtxType ty, uint64_t *i, int depth) {
  const PtxTok *t = peek(P);
  if (is_punct(t, '{')) {
    if (depth > 8) fail(P, t, "initializer nested too deeply");
    next(P);
    do initializer(P, buf, nelem, ty, i, depth + 1);
    while (accept(P, ","));
    expect(P, '}');
    return;
  }
  if (t->kind == TK_WORD) unsup(P, t, "address initializers (generic(), symbol names) are not supported");
  Num n = signed_number(P);
  if (*i >= nelem) fail(P, t, "too many initializers");
  store_elem(P, t, n, ty, buf + *i * ptx_type_size(ty));
  (*i)++;
}

/* .align N, P at the .align: N must be a power of two up to `most` */
static uint32_t alignment(Parser *P, uint64_t most) {
  next(P);
  const PtxTok *at = peek(P);
  uint64_t a = int_number(P, "an alignment");
  if (a == 0 || a > most || (a & (a - 1))) fail(P, at, "bad alignment %llu", (unsigned long long)a);
  return (uint32_t)a;
}

/* var-decl := space {.align N | .vN | type | .ptr} name {'[' [N] ']'} ['=' init] {',' ...} ';'
 * (after any .extern/.visible/.weak; the current token is the space) */
static void var_decl(Parser *P, int is_extern) {
  const PtxTok *st = next(P);
  char buf[128];
  int space = space_of(st->p + 1, st->len - 1);
  if (space < 0) unsup(P, st, "unsupported state space '%s'", tok_str(st, buf, sizeof buf));
  uint32_t align = 0, vec = 1;
  int type = -1;
  for (;;) {
    const PtxTok *t = peek(P);
    if (is(t, ".align")) {
      align = alignment(P, 65536);
    } else if (is(t, ".v2") || is(t, ".v4")) {
      next(P);
      vec = t->p[2] - '0';
    } else if (is(t, ".ptr")) {
      next(P);
    } else if (dir_type(t) >= 0) {
      next(P);
      type = dir_type(t);
    } else if (t->kind == TK_WORD && t->p[0] == '.') {
      unsup(P, t, "unsupported variable attribute '%s'", tok_str(t, buf, sizeof buf));
    } else {
      break;
    }
  }
  if (type < 0) fail_expected(P, "a type");
  if (type == PTX_T_PRED) fail(P, st, "variables cannot have type .pred");
  uint32_t esize = ptx_type_size((PtxType)type) * vec;
  if (!align) align = esize;

  if (P->k && (space == PTX_S_GLOBAL || space == PTX_S_CONST))
    unsup(P, st, ".%s variables inside a kernel are not supported", ptx_space_name((PtxSpace)space));
  if (!P->k && space == PTX_S_LOCAL) unsup(P, st, "module-scope .local variables are not supported");
  if (space == PTX_S_PARAM) unsup(P, st, ".param variables outside a kernel's parameter list are not supported");
  if (is_extern && space != PTX_S_SHARED) unsup(P, st, ".extern .%s variables are not supported", ptx_space_name((PtxSpace)space));

  do {
    const PtxTok *name = expect_word(P, "a variable name");
    if (name->p[0] == '.' || name->p[0] == '%') fail(P, name, "bad variable name '%s'", tok_str(name, buf, sizeof buf));
    uint64_t count = 1;
    int flexible = 0;
    while (is_punct(peek(P), '[')) {
      const PtxTok *lb = next(P);
      if (is_punct(peek(P), ']')) {
        if (count != 1 || flexible || !is_extern) fail(P, lb, "array size missing");
        flexible = 1;
      } else {
        uint64_t c = int_number(P, "an array size");
        if (c > (1ull << 32)) fail(P, lb, "array too large");
        count *= c;
        if (count > (1ull << 32)) fail(P, lb, "array too large");
      }
      expect(P, ']');
    }
    if (is_extern && !flexible) unsup(P, name, ".extern .shared with a size is not supported (write name[])");
    uint64_t size = flexible ? 0 : count * esize;
    if (size > 0xffffffffull) fail(P, name, "variable too large");

    Sym *s = new_sym(P, name, space);
    s->align = align;
    s->ext = (uint8_t)flexible;
    declare_sym(P, name, s);
    PtxModule *m = P->m;
    if (space == PTX_S_SHARED && !flexible) {
      uint32_t *cur = P->k ? &P->shared_cur : &P->mshared;
      s->offset = align_up(*cur, align);
      if (s->offset + size > 0xffffffffull) fail(P, name, "too much shared memory");
      *cur = (uint32_t)(s->offset + size);
    } else if (space == PTX_S_LOCAL) {
      s->offset = align_up(P->local_cur, align);
      if (s->offset + size > 0xffffffffull) fail(P, name, "too much local memory");
      P->local_cur = (uint32_t)(s->offset + size);
    }
    uint8_t *init = NULL;
    if (space == PTX_S_GLOBAL || space == PTX_S_CONST) {
      uint64_t *segsize = space == PTX_S_GLOBAL ? &m->global_size : NULL;
      uint64_t cursize = space == PTX_S_GLOBAL ? m->global_size : m->const_size;
      s->offset = align_up(cursize, align);
      uint64_t end = s->offset + size;
      /* the initial contents are kept in memory: keep them sane.  64 KiB is
       * the hardware's constant bank. */
      if (space == PTX_S_CONST && end > 65536) {
        wm_err_at(P->e, WM_ELIMIT, P->path, P->src, (int)name->line, (int)name->col,
                  ".const variables exceed 64 KiB");
        longjmp(P->jb, 1);
      }
      if (end > (1ull << 30)) {
        wm_err_at(P->e, WM_ELIMIT, P->path, P->src, (int)name->line, (int)name->col,
                  "module .global variables exceed 1 GiB");
        longjmp(P->jb, 1);
      }
      uint8_t **bufp = space == PTX_S_GLOBAL ? &m->global_init : &m->const_init;
      uint64_t *cap = space == PTX_S_GLOBAL ? &P->gcap : &P->ccap;
      if (end > *cap) {
        uint64_t nc = *cap ? *cap : 256;
        while (nc < end) nc *= 2;
        *bufp = wm_xrealloc(*bufp, nc);
        memset(*bufp + *cap, 0, nc - *cap);
        *cap = nc;
      }
      if (segsize) *segsize = end;
      else m->const_size = (uint32_t)end;
      init = *bufp + s->offset;
      GROW(m->vars, m->nvars, P->capvars);
      PtxVar *v = &m->vars[m->nvars++];
      memset(v, 0, sizeof *v);
      v->name = tok_dup(name);
      v->space = (uint8_t)space;
      v->type = (uint8_t)type;
      v->size = (uint32_t)size;
      v->align = align;
      v->offset = s->offset;
      v->line = name->line;
    }
    if (is_punct(peek(P), '=')) {
      const PtxTok *eq = next(P);
      if (!init) fail(P, eq, ".%s variables cannot have initializers", ptx_space_name((PtxSpace)space));
      uint64_t i = 0;
      initializer(P, init, count * vec, (PtxType)type, &i, 0);
    }
  } while (accept(P, ","));
  expect(P, ';');
}

/* ---------------------------------------------------------------- instructions */

/* Modifier groups an opcode accepts. */
enum {
  M_VEC = 1 << 0, M_SPACE = 1 << 1, M_CACHE = 1 << 2, M_SEM = 1 << 3, M_RND = 1 << 4,
  M_IRND = 1 << 5, M_FTZ = 1 << 6, M_SAT = 1 << 7, M_CC = 1 << 8, M_MULMODE = 1 << 9,
  M_CMP = 1 << 10, M_SHFL = 1 << 11, M_SYNC = 1 << 12, M_VOTE = 1 << 13, M_ATOMOP = 1 << 14,
  M_TESTP = 1 << 15, M_BAR = 1 << 16, M_UNI = 1 << 17, M_TO = 1 << 18, M_LEVEL = 1 << 19,
  M_ANY = 1 << 20, M_TYPE2 = 1 << 21, M_NOTYPE = 1 << 22, M_MATCH = 1 << 23, M_APPROX = 1 << 24,
  M_SHF = 1 << 25, M_SHIFTAMT = 1 << 26,
};

#define M_FLOAT (M_RND | M_FTZ | M_APPROX)
static const uint32_t op_mods[PTX_OP_COUNT] = {
  [PTX_OP_LD] = M_VEC | M_SPACE | M_CACHE | M_SEM,
  [PTX_OP_LDU] = M_VEC | M_SPACE | M_CACHE,
  [PTX_OP_ST] = M_VEC | M_SPACE | M_CACHE | M_SEM,
  [PTX_OP_CVTA] = M_SPACE | M_TO,
  [PTX_OP_CVT] = M_RND | M_IRND | M_FTZ | M_SAT | M_TYPE2,
  [PTX_OP_ADD] = M_FLOAT | M_SAT | M_CC,
  [PTX_OP_SUB] = M_FLOAT | M_SAT | M_CC,
  [PTX_OP_MUL] = M_FLOAT | M_SAT | M_MULMODE,
  [PTX_OP_MAD] = M_FLOAT | M_SAT | M_MULMODE | M_CC,
  [PTX_OP_MUL24] = M_MULMODE,
  [PTX_OP_MAD24] = M_MULMODE | M_SAT,
  [PTX_OP_FMA] = M_FLOAT | M_SAT,
  [PTX_OP_DIV] = M_FLOAT,
  [PTX_OP_MIN] = M_FTZ,
  [PTX_OP_MAX] = M_FTZ,
  [PTX_OP_ABS] = M_FTZ,
  [PTX_OP_NEG] = M_FTZ,
  [PTX_OP_SETP] = M_CMP | M_FTZ,
  [PTX_OP_SET] = M_CMP | M_FTZ | M_TYPE2,
  [PTX_OP_SLCT] = M_FTZ | M_TYPE2,
  [PTX_OP_TESTP] = M_TESTP,
  [PTX_OP_SHF] = M_SHF,
  [PTX_OP_BFIND] = M_SHIFTAMT,
  [PTX_OP_SQRT] = M_FLOAT,
  [PTX_OP_RSQRT] = M_FLOAT,
  [PTX_OP_RCP] = M_FLOAT,
  [PTX_OP_EX2] = M_FLOAT,
  [PTX_OP_LG2] = M_FLOAT,
  [PTX_OP_SIN] = M_FLOAT,
  [PTX_OP_COS] = M_FLOAT,
  [PTX_OP_TANH] = M_FLOAT,
  [PTX_OP_BRA] = M_UNI | M_NOTYPE,
  [PTX_OP_RET] = M_UNI | M_NOTYPE,
  [PTX_OP_EXIT] = M_NOTYPE,
  [PTX_OP_TRAP] = M_NOTYPE,
  [PTX_OP_BAR] = M_BAR | M_NOTYPE,
  [PTX_OP_BARRIER] = M_BAR | M_NOTYPE,
  [PTX_OP_MEMBAR] = M_LEVEL | M_NOTYPE,
  [PTX_OP_FENCE] = M_ANY | M_NOTYPE,
  [PTX_OP_BARWARP] = M_SYNC | M_NOTYPE,
  [PTX_OP_PREFETCH] = M_SPACE | M_CACHE | M_NOTYPE,
  [PTX_OP_ATOM] = M_SPACE | M_SEM | M_ATOMOP,
  [PTX_OP_RED] = M_SPACE | M_SEM | M_ATOMOP,
  [PTX_OP_SHFL] = M_SHFL | M_SYNC,
  [PTX_OP_VOTE] = M_VOTE | M_SYNC,
  [PTX_OP_MATCH] = M_MATCH | M_SYNC,
  [PTX_OP_REDUX] = M_ATOMOP | M_SYNC,
};

typedef struct Comp {
  const char *p;
  uint32_t len;
} Comp;

#define IS(c, str) ((c).len == sizeof(str) - 1 && memcmp((c).p, str, (c).len) == 0)

static int find_word(Comp c, const char *const *list, int n) {
  for (int i = 0; i < n; i++)
    if (strlen(list[i]) == c.len && memcmp(list[i], c.p, c.len) == 0) return i;
  return -1;
}

static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                        "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const rnd_names[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const atom_names[] = {"add", "min", "max", "inc", "dec", "exch", "cas", "and", "or", "xor"};
static const char *const testp_names[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
static const char *const cache_names[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc"};
static const uint16_t cache_flags[] = {PTX_IF_CA, PTX_IF_CG, PTX_IF_CS, PTX_IF_LU,
                                       PTX_IF_CV, PTX_IF_WB, PTX_IF_WT, PTX_IF_NC};

typedef struct InstrCtx {
  const PtxTok *mn;   /* the mnemonic */
  int ntypes, has_sync;
  int has_red;        /* bar.red / barrier.red */
  char shf_dir, shf_mode; /* shf: 'l'/'r', 'w'/'c' */
} InstrCtx;

static _Noreturn void bad_mod(Parser *P, const InstrCtx *x, Comp c) {
  char buf[128];
  unsup(P, x->mn, "unsupported instruction '%s' (kernel %s): unknown or unsupported modifier '.%.*s'",
        tok_str(x->mn, buf, sizeof buf), P->k->name, (int)c.len, c.p);
}

/* One modifier (the part between dots) of the mnemonic. */
static void modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  uint32_t mods = op_mods[in->op];
  int t = type_of(c.p, c.len), i;
  if (mods & M_ANY) return; /* fence.*: no effect on a sequential emulator */
  if (t >= 0) {
    if (x->ntypes == 0) in->type = (uint8_t)t;
    else if (x->ntypes == 1 && (mods & M_TYPE2)) in->type2 = (uint8_t)t;
    else bad_mod(P, x, c);
    x->ntypes++;
  } else if ((mods & M_VEC) && (IS(c, "v2") || IS(c, "v4"))) {
    in->vec = (uint8_t)(c.p[1] - '0');
  } else if ((mods & M_SPACE) && (i = space_of(c.p, c.len)) >= 0) {
    if (in->space != PTX_S_NONE) bad_mod(P, x, c);
    in->space = (uint8_t)i;
  } else if ((mods & M_CACHE) && (i = find_word(c, cache_names, 8)) >= 0) {
    if (i == 7 && in->op != PTX_OP_LD) bad_mod(P, x, c);
    in->flags |= cache_flags[i];
  } else if ((mods & M_CACHE) && c.len >= 2 && (c.p[0] == 'L') && (c.p[1] == '1' || c.p[1] == '2')) {
    /* L1::evict_last, L2::128B, prefetch.L2: hints without effect here */
    if (IS(c, "L2::cache_hint")) bad_mod(P, x, c);
  } else if ((mods & M_SEM) && (IS(c, "volatile") || IS(c, "relaxed") || IS(c, "acquire") ||
                                IS(c, "release") || IS(c, "acq_rel") || IS(c, "mmio"))) {
    if (in->op == PTX_OP_LD || in->op == PTX_OP_ST) in->flags |= PTX_IF_VOLATILE;
  } else if ((mods & M_SEM) && (IS(c, "weak") || IS(c, "cta") || IS(c, "gpu") || IS(c, "sys") ||
                                IS(c, "cluster"))) {
    /* scopes: a sequential emulator is coherent at every scope */
  } else if ((mods & M_RND) && (i = find_word(c, rnd_names, 8)) >= 0) {
    if (i >= 4 && !(mods & M_IRND)) bad_mod(P, x, c);
    if (in->rnd != PTX_RND_NONE) bad_mod(P, x, c);
    in->rnd = (uint8_t)(PTX_RND_RN + i);
  } else if ((mods & M_APPROX) && IS(c, "approx")) {
    in->rnd = PTX_RND_APPROX;
  } else if ((mods & M_APPROX) && IS(c, "full")) {
    in->rnd = PTX_RND_FULL;
  } else if ((mods & M_FTZ) && IS(c, "ftz")) {
    in->flags |= PTX_IF_FTZ;
  } else if ((mods & M_SAT) && IS(c, "sat")) {
    in->flags |= PTX_IF_SAT;
  } else if ((mods & M_CC) && IS(c, "cc")) {
    in->flags |= PTX_IF_CC;
  } else if ((mods & M_MULMODE) && (IS(c, "lo") || IS(c, "hi") || IS(c, "wide"))) {
    if (in->sub) bad_mod(P, x, c);
    if (IS(c, "wide") && (in->op == PTX_OP_MUL24 || in->op == PTX_OP_MAD24)) bad_mod(P, x, c);
    in->sub = IS(c, "lo") ? PTX_SUB_LO : IS(c, "hi") ? PTX_SUB_HI : PTX_SUB_WIDE;
  } else if ((mods & M_CMP) && (i = find_word(c, cmp_names, 18)) >= 0) {
    if (in->cmp) bad_mod(P, x, c);
    in->cmp = (uint8_t)(PTX_CMP_EQ + i);
  } else if ((mods & M_CMP) && (IS(c, "and") || IS(c, "or") || IS(c, "xor"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "and") ? PTX_SUB_BAND : IS(c, "or") ? PTX_SUB_BOR : PTX_SUB_BXOR;
  } else if ((mods & M_SHFL) && (IS(c, "up") || IS(c, "down") || IS(c, "bfly") || IS(c, "idx"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "up") ? PTX_SUB_UP : IS(c, "down") ? PTX_SUB_DOWN : IS(c, "bfly") ? PTX_SUB_BFLY : PTX_SUB_IDX;
  } else if ((mods & M_SYNC) && IS(c, "sync")) {
    x->has_sync = 1;
  } else if ((mods & M_VOTE) && (IS(c, "all") || IS(c, "any") || IS(c, "uni") || IS(c, "ballot"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "all") ? PTX_SUB_ALL : IS(c, "any") ? PTX_SUB_ANY : IS(c, "uni") ? PTX_SUB_UNI : PTX_SUB_BALLOT;
  } else if ((mods & M_MATCH) && (IS(c, "all") || IS(c, "any"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "all") ? PTX_SUB_ALL : PTX_SUB_ANY;
  } else if ((mods & M_ATOMOP) && (i = find_word(c, atom_names, 10)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    if (in->op == PTX_OP_REDUX && (i == 3 || i == 4 || i == 5 || i == 6)) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_AADD + i);
  } else if ((mods & M_ATOMOP) && IS(c, "noftz") && in->op != PTX_OP_REDUX) {
    /* f16/f32 atomic add without flushing: we never flush in atomics */
  } else if ((mods & M_TESTP) && (i = find_word(c, testp_names, 6)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_FINITE + i);
  } else if ((mods & M_BAR) && (IS(c, "sync") || IS(c, "arrive"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "sync") ? PTX_SUB_SYNC : PTX_SUB_ARRIVE;
  } else if ((mods & M_BAR) && IS(c, "red")) {
    if (x->has_red) bad_mod(P, x, c);
    x->has_red = 1;
  } else if ((mods & M_BAR) && x->has_red && (IS(c, "popc") || IS(c, "and") || IS(c, "or"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "popc") ? PTX_SUB_RED_POPC : IS(c, "and") ? PTX_SUB_RED_AND : PTX_SUB_RED_OR;
  } else if ((mods & M_SHF) && (IS(c, "l") || IS(c, "r"))) {
    if (x->shf_dir) bad_mod(P, x, c);
    x->shf_dir = c.p[0];
  } else if ((mods & M_SHF) && (IS(c, "wrap") || IS(c, "clamp"))) {
    if (x->shf_mode) bad_mod(P, x, c);
    x->shf_mode = c.p[0];
  } else if ((mods & M_SHIFTAMT) && IS(c, "shiftamt")) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = PTX_SUB_SHIFTAMT;
  } else if ((mods & M_BAR) && (IS(c, "aligned") || IS(c, "cta"))) {
    /* all threads of the block reach it together: a promise, not a variant */
  } else if ((mods & M_UNI) && IS(c, "uni")) {
    in->flags |= PTX_IF_UNI;
  } else if ((mods & M_TO) && IS(c, "to")) {
    in->sub = PTX_SUB_TO;
  } else if ((mods & M_LEVEL) && (IS(c, "cta") || IS(c, "gl") || IS(c, "sys"))) {
    /* membar level: no effect */
  } else {
    bad_mod(P, x, c);
  }
}

/* An operand as parsed, before it is checked against its position. */
typedef struct Opd {
  PtxOperand o;
  const PtxTok *tok;
  uint8_t rtype;     /* REG: the declared type */
  uint8_t pipe;      /* written after '|' */
  Num num;           /* IMM: as written */
  const Sym *sym;    /* ADDR/SYM naming a variable */
} Opd;

/* The register named by t as a REG operand. */
static void reg_operand(Parser *P, const PtxTok *t, Opd *o) {
  o->o.kind = PTX_O_REG;
  o->o.reg[0] = reg_slot(P, t, &o->rtype);
}

/* address := '[' (reg [('+'|'-') ['-'] number] | symbol [('+'|'-') ['-'] number] | number) ']' */
static void address(Parser *P, Opd *o) {
  next(P); /* [ */
  const PtxTok *t = peek(P);
  char buf[128];
  o->o.kind = PTX_O_ADDR;
  o->o.reg[0] = PTX_NOREG;
  uint64_t base = 0;
  if (t->kind == TK_NUM) {
    Num n = number_tok(P, next(P));
    if (n.kind != NUM_INT) fail(P, t, "bad address");
    base = n.bits;
  } else if (t->kind == TK_WORD) {
    next(P);
    uint32_t idx;
    if (t->p[0] == '%' || find_reg(P, t, &idx)) {
      if (sreg_of(t) >= 0) fail(P, t, "a special register cannot be an address");
      uint8_t type;
      o->o.reg[0] = reg_slot(P, t, &type);
      if (type == PTX_T_PRED) fail(P, t, "predicate register '%s' used as an address", tok_str(t, buf, sizeof buf));
      if (ptx_type_is_float((PtxType)type))
        fail(P, t, "floating-point register '%s' used as an address", tok_str(t, buf, sizeof buf));
    } else {
      const Sym *s = find_sym(P, t);
      if (!s) fail(P, t, "undeclared identifier '%s'", tok_str(t, buf, sizeof buf));
      o->sym = s;
      o->o.space = s->space;
      base = s->offset;
    }
  } else {
    fail(P, t, "bad address");
  }
  if (is_punct(peek(P), '+') || is_punct(peek(P), '-')) {
    int neg = is_punct(next(P), '-');
    const PtxTok *nt = peek(P);
    Num n = signed_number(P);
    if (n.kind != NUM_INT) fail(P, nt, "bad address offset");
    uint64_t off = n.neg ? 0 - n.bits : n.bits;
    base = neg ? base - off : base + off;
  }
  o->o.imm = (int64_t)base;
  expect(P, ']');
}

/* vector := '{' (reg | '_') {',' (reg | '_')} '}' */
static void vector(Parser *P, Opd *o) {
  const PtxTok *lb = next(P);
  o->o.kind = PTX_O_VEC;
  int n = 0;
  do {
    const PtxTok *t = peek(P);
    if (n == 4) fail(P, t, "vector operand with more than 4 elements");
    if (is(t, "_")) {
      next(P);
      o->o.reg[n++] = PTX_NOREG;
      continue;
    }
    if (t->kind != TK_WORD) fail_expected(P, "a register");
    next(P);
    char buf[128];
    if (sreg_of(t) >= 0) fail(P, t, "special register in a vector operand");
    uint8_t type;
    o->o.reg[n++] = reg_slot(P, t, &type);
    if (type == PTX_T_PRED) fail(P, t, "predicate register '%s' in a vector operand", tok_str(t, buf, sizeof buf));
  } while (accept(P, ","));
  expect(P, '}');
  if (n != 2 && n != 4) fail(P, lb, "vector operand with %d elements (2 or 4 expected)", n);
  o->o.n = (uint8_t)n;
}

/* operand := ['!'] reg | sreg | ['-'] number | address | vector | symbol [('+'|'-') number] */
static void operand(Parser *P, Opd *o, int is_bra) {
  const PtxTok *t = peek(P);
  char buf[128];
  memset(o, 0, sizeof *o);
  o->tok = t;
  if (is_punct(t, '[')) {
    address(P, o);
    return;
  }
  if (is_punct(t, '{')) {
    vector(P, o);
    return;
  }
  if (is_punct(t, '!')) {
    next(P);
    const PtxTok *r = peek(P);
    if (r->kind != TK_WORD) fail_expected(P, "a predicate register after '!'");
    next(P);
    reg_operand(P, r, o);
    o->o.neg = 1;
    return;
  }
  if (is_punct(t, '-') || t->kind == TK_NUM) {
    o->o.kind = PTX_O_IMM;
    o->num = signed_number(P);
    return;
  }
  if (t->kind != TK_WORD || t->p[0] == '.') fail_expected(P, "an operand");
  next(P);
  if (is_bra) {
    o->o.kind = PTX_O_LABEL;
    return;
  }
  int sr = sreg_of(t);
  if (sr >= 0) {
    o->o.kind = PTX_O_SREG;
    o->o.sreg = (uint8_t)sr;
    return;
  }
  if (is(t, "_")) fail(P, t, "'_' is only allowed inside a vector operand");
  uint32_t idx;
  if (t->p[0] == '%' || find_reg(P, t, &idx)) {
    reg_operand(P, t, o);
    return;
  }
  const Sym *s = find_sym(P, t);
  if (!s) {
    if (map_get(&P->funcs, t->p, t->len))
      unsup(P, t, "the address of device function '%s' (a function pointer) is not supported",
            tok_str(t, buf, sizeof buf));
    if (map_get(&P->labels, t->p, t->len) || (t->p[0] == '$' && t->len > 2 && t->p[1] == 'L'))
      unsup(P, t, "labels as values are not supported ('%s')", tok_str(t, buf, sizeof buf));
    fail(P, t, "undeclared identifier '%s'", tok_str(t, buf, sizeof buf));
  }
  o->o.kind = PTX_O_SYM;
  o->o.space = s->space;
  o->sym = s;
  uint64_t v = s->offset;
  if (is_punct(peek(P), '+')) {
    next(P);
    const PtxTok *nt = peek(P);
    Num n = signed_number(P);
    if (n.kind != NUM_INT) fail(P, nt, "bad offset");
    v += n.neg ? 0 - n.bits : n.bits;
  }
  o->o.imm = (int64_t)v;
}

static int is_bar_red(const PtxInstr *in) {
  return (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) &&
         (in->sub == PTX_SUB_RED_POPC || in->sub == PTX_SUB_RED_AND || in->sub == PTX_SUB_RED_OR);
}

/* The type an operand at (final) position i is read as, for immediates. */
static PtxType opd_type(const PtxInstr *in, int i) {
  PtxType t = (PtxType)in->type, t2 = (PtxType)in->type2;
  switch (in->op) {
  case PTX_OP_CVT: return i == 0 ? t : t2;
  case PTX_OP_SET: return i == 0 ? t : i < 3 ? t2 : PTX_T_PRED;
  case PTX_OP_SLCT: return i == 3 ? t2 : t;
  case PTX_OP_SHL: case PTX_OP_SHR: return i == 2 ? PTX_T_U32 : t;
  case PTX_OP_SHF: return i == 3 ? PTX_T_U32 : t;
  case PTX_OP_BFE: return i >= 2 ? PTX_T_U32 : t;
  case PTX_OP_BFI: return i >= 3 ? PTX_T_U32 : t;
  case PTX_OP_SELP: return i == 3 ? PTX_T_PRED : t;
  case PTX_OP_SETP: return i == 4 ? PTX_T_PRED : t;
  case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX:
    return (i == 2 && in->op == PTX_OP_MATCH) || (i == 1 && in->op == PTX_OP_REDUX) ? t : PTX_T_B32;
  case PTX_OP_BAR: case PTX_OP_BARRIER:
    if (is_bar_red(in)) return i == 0 ? t : i == 3 ? PTX_T_PRED : PTX_T_U32;
    return PTX_T_U32;
  case PTX_OP_BARWARP: case PTX_OP_NANOSLEEP:
    return PTX_T_U32;
  default: return t;
  }
}

/* Operand kinds accepted at a position. */
enum { K_REG = 1, K_IMM = 2, K_SREG = 4, K_SYM = 8, K_VEC = 16, K_ADDR = 32, K_NONE = 64 };
#define K_VAL (K_REG | K_IMM | K_SREG)

/* Checks operand o: its kind is one of `kinds`; a register is a predicate
 * when pred == 1, not one when pred == 0 (-1: either). */
static void check(Parser *P, const Opd *o, int kinds, int pred, const char *what) {
  static const int kind_bit[] = {[PTX_O_NONE] = K_NONE, [PTX_O_REG] = K_REG, [PTX_O_IMM] = K_IMM,
                                 [PTX_O_SREG] = K_SREG, [PTX_O_ADDR] = K_ADDR, [PTX_O_VEC] = K_VEC,
                                 [PTX_O_LABEL] = 0, [PTX_O_SYM] = K_SYM};
  char buf[128];
  if (!(kind_bit[o->o.kind] & kinds)) {
    if (o->o.kind == PTX_O_LABEL) fail(P, o->tok, "expected %s, found label", what);
    fail(P, o->tok, "bad operand: expected %s", what);
  }
  if (o->o.kind == PTX_O_REG && pred >= 0 && (o->rtype == PTX_T_PRED) != pred)
    fail(P, o->tok, "register '%s' %s a predicate; expected %s", tok_str(o->tok, buf, sizeof buf),
         pred ? "is not" : "is", what);
}

static void check_count(Parser *P, const InstrCtx *x, int n, int lo, int hi) {
  char buf[128];
  if (n < lo || n > hi) {
    if (lo == hi)
      fail(P, x->mn, "'%s' takes %d operand%s, found %d", tok_str(x->mn, buf, sizeof buf), lo, lo == 1 ? "" : "s", n);
    fail(P, x->mn, "'%s' takes %d to %d operands, found %d", tok_str(x->mn, buf, sizeof buf), lo, hi, n);
  }
}

/* Checks the operands of one instruction and stores them in the
 * conventional order (see the top of this file) into out[]. */
static int shape(Parser *P, PtxInstr *in, const InstrCtx *x, Opd *r, int n, Opd *out) {
  const Opd none = {.o = {.kind = PTX_O_NONE}};
  int vp = in->type == PTX_T_PRED ? 1 : 0;
  char buf[128];
  /* '|' and '!' are only legal in a few places */
  for (int i = 0; i < n; i++) {
    if (r[i].pipe && !(i == 1 && (in->op == PTX_OP_SETP || in->op == PTX_OP_SHFL ||
                                  (in->op == PTX_OP_MATCH && in->sub == PTX_SUB_ALL))))
      fail(P, r[i].tok, "unexpected '|' operand");
    if (r[i].o.neg && !((in->op == PTX_OP_SETP || in->op == PTX_OP_SET) && i == n - 1 && in->sub) &&
        !(in->op == PTX_OP_VOTE && i == 1) && !(is_bar_red(in) && i == n - 1))
      fail(P, r[i].tok, "'!' is only allowed on the predicate operand of setp, set, vote and bar.red");
  }
  int pipe = n > 1 && r[1].pipe;
  switch (in->op) {
  case PTX_OP_LD:
  case PTX_OP_LDU:
    check_count(P, x, n, 2, 2);
    check(P, &r[0], in->vec > 1 ? K_VEC : K_REG, 0, "a destination register");
    check(P, &r[1], K_ADDR, -1, "an address [...]");
    if (in->vec > 1 && r[0].o.n != in->vec)
      fail(P, r[0].tok, "vector operand has %d elements, instruction is .v%d", r[0].o.n, in->vec);
    out[0] = r[0], out[1] = r[1];
    return 2;
  case PTX_OP_ST:
    check_count(P, x, n, 2, 2);
    check(P, &r[0], K_ADDR, -1, "an address [...]");
    check(P, &r[1], in->vec > 1 ? K_VEC : K_REG | K_IMM, 0, "a source register");
    if (in->vec > 1 && r[1].o.n != in->vec)
      fail(P, r[1].tok, "vector operand has %d elements, instruction is .v%d", r[1].o.n, in->vec);
    out[0] = r[0], out[1] = r[1];
    return 2;
  case PTX_OP_PREFETCH:
    check_count(P, x, n, 1, 1);
    check(P, &r[0], K_ADDR, -1, "an address [...]");
    out[0] = r[0];
    return 1;
  case PTX_OP_MOV:
    check_count(P, x, n, 2, 2);
    check(P, &r[0], K_REG | K_VEC, vp, "a destination register");
    check(P, &r[1], K_VAL | K_SYM | K_VEC, vp, "a source operand");
    out[0] = r[0], out[1] = r[1];
    return 2;
  case PTX_OP_CVTA:
    check_count(P, x, n, 2, 2);
    check(P, &r[0], K_REG, 0, "a destination register");
    check(P, &r[1], K_REG | K_SYM, 0, "a source register or variable");
    out[0] = r[0], out[1] = r[1];
    return 2;
  case PTX_OP_SETP:
    check_count(P, x, n - pipe, 3, 4);
    check(P, &r[0], K_REG, 1, "a destination predicate");
    out[0] = r[0];
    out[1] = pipe ? r[1] : none;
    if (pipe) check(P, &r[1], K_REG, 1, "a destination predicate");
    r += pipe, n -= pipe;
    check(P, &r[1], K_VAL, 0, "a source operand");
    check(P, &r[2], K_VAL, 0, "a source operand");
    out[2] = r[1], out[3] = r[2];
    if (n == 4) {
      if (!in->sub) fail(P, r[3].tok, "a fourth operand needs .and, .or or .xor");
      check(P, &r[3], K_REG | K_IMM, 1, "a predicate");
      out[4] = r[3];
      if (r[3].o.neg) in->flags |= PTX_IF_NEG_C;
    } else {
      if (in->sub) fail(P, x->mn, "'%s' needs a predicate operand c", tok_str(x->mn, buf, sizeof buf));
      out[4] = none;
    }
    return 5;
  case PTX_OP_SET:
    check_count(P, x, n, 3, 4);
    check(P, &r[0], K_REG, 0, "a destination register");
    check(P, &r[1], K_VAL, 0, "a source operand");
    check(P, &r[2], K_VAL, 0, "a source operand");
    if (n == 4) {
      if (!in->sub) fail(P, r[3].tok, "a fourth operand needs .and, .or or .xor");
      check(P, &r[3], K_REG | K_IMM, 1, "a predicate");
      if (r[3].o.neg) in->flags |= PTX_IF_NEG_C;
    } else if (in->sub) {
      fail(P, x->mn, "'%s' needs a predicate operand c", tok_str(x->mn, buf, sizeof buf));
    }
    for (int i = 0; i < n; i++) out[i] = r[i];
    return n;
  case PTX_OP_SELP:
    check_count(P, x, n, 4, 4);
    check(P, &r[0], K_REG, 0, "a destination register");
    check(P, &r[1], K_VAL, 0, "a source operand");
    check(P, &r[2], K_VAL, 0, "a source operand");
    check(P, &r[3], K_REG | K_IMM, 1, "a predicate");
    for (int i = 0; i < n; i++) out[i] = r[i];
    return n;
  case PTX_OP_TESTP:
    check_count(P, x, n, 2, 2);
    check(P, &r[0], K_REG, 1, "a destination predicate");
    check(P, &r[1], K_REG | K_IMM, 0, "a source operand");
    out[0] = r[0], out[1] = r[1];
    return 2;
  case PTX_OP_BRA:
    check_count(P, x, n, 1, 1);
    if (r[0].o.kind != PTX_O_LABEL) fail(P, r[0].tok, "expected a label");
    out[0] = r[0];
    return 1;
  case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    check_count(P, x, n, 0, 0);
    return 0;
  case PTX_OP_BAR:
  case PTX_OP_BARRIER:
    if (is_bar_red(in)) { /* d, a[, b], c */
      int popc = in->sub == PTX_SUB_RED_POPC;
      check_count(P, x, n, 3, 4);
      check(P, &r[0], K_REG, !popc, popc ? "a destination register" : "a destination predicate");
      check(P, &r[1], K_REG | K_IMM, 0, "a barrier number");
      if (n == 4) check(P, &r[2], K_REG | K_IMM, 0, "a thread count");
      check(P, &r[n - 1], K_REG | K_IMM, 1, "a predicate");
      if (r[n - 1].o.neg) in->flags |= PTX_IF_NEG_C;
      out[0] = r[0], out[1] = r[1];
      out[2] = n == 4 ? r[2] : none;
      out[3] = r[n - 1];
      return 4;
    }
    check_count(P, x, n, 1, 2);
    if (!in->sub) fail(P, x->mn, "'%s' needs .sync or .arrive", tok_str(x->mn, buf, sizeof buf));
    check(P, &r[0], K_REG | K_IMM, 0, "a barrier number");
    out[0] = r[0];
    out[1] = n > 1 ? r[1] : none;
    if (n > 1) check(P, &r[1], K_REG | K_IMM, 0, "a thread count");
    return 2;
  case PTX_OP_BARWARP:
  case PTX_OP_NANOSLEEP:
    check_count(P, x, n, 1, 1);
    check(P, &r[0], K_REG | K_IMM, 0, "a register or constant");
    out[0] = r[0];
    return 1;
  case PTX_OP_ATOM:
    check_count(P, x, n, in->sub == PTX_SUB_ACAS ? 4 : 3, in->sub == PTX_SUB_ACAS ? 4 : 3);
    check(P, &r[0], K_REG, 0, "a destination register");
    check(P, &r[1], K_ADDR, -1, "an address [...]");
    check(P, &r[2], K_REG | K_IMM, 0, "a source operand");
    if (n > 3) check(P, &r[3], K_REG | K_IMM, 0, "a source operand");
    for (int i = 0; i < n; i++) out[i] = r[i];
    return n;
  case PTX_OP_RED:
    check_count(P, x, n, 2, 2);
    if (in->sub == PTX_SUB_ACAS || in->sub == PTX_SUB_AEXCH) fail(P, x->mn, "red has no .cas or .exch");
    check(P, &r[0], K_ADDR, -1, "an address [...]");
    check(P, &r[1], K_REG | K_IMM, 0, "a source operand");
    out[0] = r[0], out[1] = r[1];
    return 2;
  case PTX_OP_SHFL: {
    int want = x->has_sync ? 5 : 4;
    check_count(P, x, n - pipe, want, want);
    check(P, &r[0], K_REG, 0, "a destination register");
    out[0] = r[0];
    out[1] = pipe ? r[1] : none;
    if (pipe) check(P, &r[1], K_REG, 1, "a destination predicate");
    r += pipe;
    for (int i = 1; i < want; i++) check(P, &r[i], K_REG | K_IMM, 0, "a source operand");
    out[2] = r[1], out[3] = r[2], out[4] = r[3];
    out[5] = x->has_sync ? r[4] : none;
    return 6;
  }
  case PTX_OP_VOTE: {
    int want = x->has_sync ? 3 : 2;
    check_count(P, x, n, want, want);
    check(P, &r[0], K_REG, in->sub == PTX_SUB_BALLOT ? 0 : 1,
          in->sub == PTX_SUB_BALLOT ? "a destination register" : "a destination predicate");
    check(P, &r[1], K_REG | K_IMM, 1, "a predicate");
    out[0] = r[0], out[1] = r[1];
    out[2] = x->has_sync ? r[2] : none;
    if (x->has_sync) check(P, &r[2], K_REG | K_IMM, 0, "a member mask");
    return 3;
  }
  case PTX_OP_MATCH:
    check_count(P, x, n - pipe, 3, 3);
    check(P, &r[0], K_REG, 0, "a destination register");
    out[0] = r[0];
    out[1] = pipe ? r[1] : none;
    if (pipe) check(P, &r[1], K_REG, 1, "a destination predicate");
    r += pipe;
    check(P, &r[1], K_REG | K_IMM, 0, "a source operand");
    check(P, &r[2], K_REG | K_IMM, 0, "a member mask");
    out[2] = r[1], out[3] = r[2];
    return 4;
  case PTX_OP_REDUX:
    check_count(P, x, n, 3, 3);
    check(P, &r[0], K_REG, 0, "a destination register");
    check(P, &r[1], K_REG, 0, "a source register");
    check(P, &r[2], K_REG | K_IMM, 0, "a member mask");
    for (int i = 0; i < n; i++) out[i] = r[i];
    return 3;
  case PTX_OP_ACTIVEMASK:
    check_count(P, x, n, 1, 1);
    check(P, &r[0], K_REG, 0, "a destination register");
    out[0] = r[0];
    return 1;
  default:
    break;
  }
  /* d = f(a, b, ...) */
  int nsrc;
  switch (in->op) {
  case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_POPC:
  case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFIND: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_RCP:
  case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH:
    nsrc = 1;
    break;
  case PTX_OP_CVT:
    nsrc = in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2 ? 2 : 1;
    break;
  case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_FMA: case PTX_OP_SAD: case PTX_OP_BFE:
  case PTX_OP_PRMT: case PTX_OP_FNS: case PTX_OP_SLCT: case PTX_OP_SHF:
    nsrc = 3;
    break;
  case PTX_OP_BFI: case PTX_OP_LOP3:
    nsrc = 4;
    break;
  default:
    nsrc = 2;
    break;
  }
  check_count(P, x, n, nsrc + 1, nsrc + 1);
  check(P, &r[0], K_REG, vp, "a destination register");
  for (int i = 1; i < n; i++) check(P, &r[i], K_VAL, vp, "a source operand");
  if (in->op == PTX_OP_LOP3 && r[4].o.kind != PTX_O_IMM) fail(P, r[4].tok, "lop3 needs a constant lookup table");
  for (int i = 0; i < n; i++) out[i] = r[i];
  return n;
}

/* The opcode named by the mnemonic's components (c[0] or c[0].c[1]). */
static int find_op(Comp *c, int nc, int *used) {
  *used = 1;
  if (nc > 1 && IS(c[0], "bar") && IS(c[1], "warp")) {
    *used = 2;
    return PTX_OP_BARWARP;
  }
  for (int op = 0; op < PTX_OP_COUNT; op++)
    if (op != PTX_OP_BARWARP && strlen(ptx_op_name[op]) == c[0].len &&
        memcmp(ptx_op_name[op], c[0].p, c[0].len) == 0)
      return op;
  return -1;
}

static int needs_space(int op) {
  return op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST || op == PTX_OP_ATOM ||
         op == PTX_OP_RED || op == PTX_OP_PREFETCH;
}

static char *demangle(const char *s);

/* call := call{.uni} [(ret), ] target [, (args)] [, prototype] ';' -- not run:
 * says what was called. */
static _Noreturn void call(Parser *P, const PtxTok *mn) {
  char buf[128], fn[128];
  int depth = 0;
  const PtxTok *target = NULL;
  for (int i = P->pos; P->toks[i].kind != TK_EOF && !is_punct(&P->toks[i], ';'); i++) {
    const PtxTok *t = &P->toks[i];
    if (is_punct(t, '(')) depth++;
    else if (is_punct(t, ')')) depth--;
    else if (depth == 0 && t->kind == TK_WORD) {
      target = t;
      break;
    }
  }
  tok_str(mn, buf, sizeof buf);
  if (target && is(target, "vprintf"))
    unsup(P, mn, "unsupported instruction '%s' (kernel %s): printf (a call to vprintf) is not supported",
          buf, P->k->name);
  if (!target || target->p[0] == '%')
    unsup(P, mn, "unsupported instruction '%s' (kernel %s): indirect calls (function pointers, virtual "
                 "functions) are not supported", buf, P->k->name);
  tok_str(target, fn, sizeof fn);
  char *plain = demangle(fn), shown[300];
  if (plain) snprintf(shown, sizeof shown, "'%s' (%s)", plain, fn);
  else snprintf(shown, sizeof shown, "'%s'", fn);
  free(plain);
  unsup(P, mn, "unsupported instruction '%s' (kernel %s): a call to device function %s; warpmem runs "
               "kernels whose device functions are inlined (use __forceinline__)",
        buf, P->k->name, shown);
}

/* instruction := ['@' ['!'] pred] mnemonic [operand ['|' operand] {',' operand}] ';' */
static void instruction_body(Parser *P) {
  PtxKernel *k = P->k;
  const PtxTok *start = peek(P);
  char buf[128];
  PtxInstr in;
  memset(&in, 0, sizeof in);
  in.guard = PTX_NOREG;
  in.vec = 1;
  if (is_punct(start, '@')) {
    next(P);
    if (accept(P, "!")) in.guard_neg = 1;
    const PtxTok *g = peek(P);
    if (g->kind != TK_WORD) fail_expected(P, "a predicate register after '@'");
    next(P);
    uint8_t type;
    in.guard = reg_slot(P, g, &type);
    if (type != PTX_T_PRED) fail(P, g, "guard '%s' is not a predicate register", tok_str(g, buf, sizeof buf));
  }
  const PtxTok *mn = peek(P);
  if (mn->kind != TK_WORD || mn->p[0] == '.' || mn->p[0] == '%')
    fail(P, mn, "expected an instruction, found '%s'", tok_str(mn, buf, sizeof buf));
  next(P);

  /* split the mnemonic at the dots */
  Comp c[16];
  int nc = 0;
  for (uint32_t i = 0, s = 0; i <= mn->len; i++) {
    if (i == mn->len || mn->p[i] == '.') {
      if (nc == 16 || i == s) fail(P, mn, "malformed instruction '%s'", tok_str(mn, buf, sizeof buf));
      c[nc].p = mn->p + s;
      c[nc++].len = i - s;
      s = i + 1;
    }
  }
  int used, op = find_op(c, nc, &used);
  if (op < 0 && IS(c[0], "call")) call(P, mn);
  if (op < 0) unsup(P, mn, "unsupported instruction '%s' (kernel %s)", tok_str(mn, buf, sizeof buf), k->name);
  in.op = (uint16_t)op;
  InstrCtx x = {.mn = mn};
  for (int i = used; i < nc; i++) modifier(P, &in, &x, c[i]);

  uint32_t mods = op_mods[op];
  if (!(mods & M_NOTYPE) && x.ntypes == 0 && op != PTX_OP_FENCE)
    fail(P, mn, "'%s' needs a type (.u32, .f32, ...)", tok_str(mn, buf, sizeof buf));
  if ((op == PTX_OP_CVT || op == PTX_OP_SET || op == PTX_OP_SLCT) && x.ntypes != 2)
    fail(P, mn, "'%s' needs two types", tok_str(mn, buf, sizeof buf));
  if ((op == PTX_OP_SETP || op == PTX_OP_SET) && !in.cmp)
    fail(P, mn, "'%s' needs a comparison (.eq, .lt, ...)", tok_str(mn, buf, sizeof buf));
  if ((op == PTX_OP_SHFL || op == PTX_OP_VOTE || op == PTX_OP_MATCH || op == PTX_OP_ATOM ||
       op == PTX_OP_RED || op == PTX_OP_REDUX || op == PTX_OP_TESTP) && !in.sub)
    fail(P, mn, "'%s' needs an operation modifier", tok_str(mn, buf, sizeof buf));
  if ((op == PTX_OP_MATCH || op == PTX_OP_REDUX || op == PTX_OP_BARWARP) && !x.has_sync)
    fail(P, mn, "'%s' needs .sync", tok_str(mn, buf, sizeof buf));
  if (op == PTX_OP_SHF) {
    if (!x.shf_dir || !x.shf_mode)
      fail(P, mn, "'%s' needs .l or .r and .wrap or .clamp", tok_str(mn, buf, sizeof buf));
    in.sub = x.shf_dir == 'l' ? (x.shf_mode == 'w' ? PTX_SUB_SHF_L_WRAP : PTX_SUB_SHF_L_CLAMP)
                              : (x.shf_mode == 'w' ? PTX_SUB_SHF_R_WRAP : PTX_SUB_SHF_R_CLAMP);
    if (in.type != PTX_T_B32) fail(P, mn, "'%s': shf is .b32", tok_str(mn, buf, sizeof buf));
  }
  if (op == PTX_OP_BFIND && in.type != PTX_T_U32 && in.type != PTX_T_U64 && in.type != PTX_T_S32 &&
      in.type != PTX_T_S64)
    fail(P, mn, "'%s': bfind is .u32, .u64, .s32 or .s64", tok_str(mn, buf, sizeof buf));
  if (x.has_red) {
    if (!is_bar_red(&in)) fail(P, mn, "'%s' needs .popc, .and or .or", tok_str(mn, buf, sizeof buf));
    if (in.type != (in.sub == PTX_SUB_RED_POPC ? PTX_T_U32 : PTX_T_PRED) || x.ntypes != 1)
      fail(P, mn, "'%s': bar.red.popc is .u32, bar.red.and/.or are .pred", tok_str(mn, buf, sizeof buf));
  }
  if (op == PTX_OP_CVTA && (in.space == PTX_S_NONE))
    fail(P, mn, "'%s' needs a state space", tok_str(mn, buf, sizeof buf));
  if ((op == PTX_OP_ATOM || op == PTX_OP_RED) && in.space != PTX_S_NONE && in.space != PTX_S_GLOBAL &&
      in.space != PTX_S_SHARED)
    fail(P, mn, "'%s': atomics work on .global or .shared", tok_str(mn, buf, sizeof buf));
  if (needs_space(op) && in.space == PTX_S_NONE) in.space = PTX_S_GENERIC;
  if ((op == PTX_OP_MUL || op == PTX_OP_MAD) && !ptx_type_is_float((PtxType)in.type) && !in.sub)
    in.sub = PTX_SUB_LO;
  if ((op == PTX_OP_MUL || op == PTX_OP_MAD) && ptx_type_is_float((PtxType)in.type) && in.sub)
    fail(P, mn, "'%s': .lo/.hi/.wide are for integer types", tok_str(mn, buf, sizeof buf));
  if (in.sub == PTX_SUB_WIDE) in.type2 = in.type;
  if (op == PTX_OP_VOTE && in.type != (in.sub == PTX_SUB_BALLOT ? PTX_T_B32 : PTX_T_PRED))
    fail(P, mn, "'%s': vote.ballot is .b32, vote.all/any/uni are .pred", tok_str(mn, buf, sizeof buf));
  if (in.type == PTX_T_PRED && op != PTX_OP_MOV && op != PTX_OP_AND && op != PTX_OP_OR &&
      op != PTX_OP_XOR && op != PTX_OP_NOT && op != PTX_OP_VOTE && op != PTX_OP_SELP && !x.has_red)
    fail(P, mn, "'%s': .pred is not a valid type here", tok_str(mn, buf, sizeof buf));

  in.ptx_line = start->line;
  in.ptx_col = (uint16_t)(start->col > 0xffff ? 0xffff : start->col);
  in.cu_file = P->cur_file;
  in.cu_line = P->cur_line;
  in.cu_file_inner = P->cur_file_inner;
  in.cu_line_inner = P->cur_line_inner;
  in.text = (uint32_t)(start->p - P->src);

  /* operands */
  Opd raw[8], fin[PTX_MAX_OPD];
  int n = 0;
  if (!is_punct(peek(P), ';')) {
    for (;;) {
      if (n == 8) fail(P, peek(P), "too many operands");
      operand(P, &raw[n], op == PTX_OP_BRA);
      n++;
      if (n == 1 && is_punct(peek(P), '|')) {
        next(P);
        operand(P, &raw[n], 0);
        raw[n++].pipe = 1;
      }
      if (!accept(P, ",")) break;
    }
  }
  if (!is_punct(peek(P), ';')) fail_expected(P, "';'");
  next(P);
  memset(fin, 0, sizeof fin);
  int nf = shape(P, &in, &x, raw, n, fin);

  for (int i = 0; i < nf; i++) { /* may fail: before anything refers to idx */
    Opd *o = &fin[i];
    if (o->o.kind == PTX_O_IMM) o->o.imm = (int64_t)num_value(P, o->tok, o->num, opd_type(&in, i));
    if (o->o.kind == PTX_O_REG && (o->o.reg[0] == PTX_NOREG)) fail(P, o->tok, "bad register");
  }
  GROW(k->code, k->ncode, P->capcode);
  int idx = k->ncode;
  for (int i = 0; i < nf; i++) {
    Opd *o = &fin[i];
    if (o->o.kind == PTX_O_LABEL) {
      GROW(P->luses, P->nluses, P->capluses);
      P->luses[P->nluses++] = (LabelUse){idx, o->tok};
    }
    if (o->sym && o->sym->ext) {
      if (o->sym->align > P->extern_align) P->extern_align = o->sym->align;
      GROW(P->xfix, P->nxfix + 1, P->capxfix);
      P->xfix[P->nxfix++] = idx;
      P->xfix[P->nxfix++] = i;
    }
    in.opd[i] = o->o;
  }
  in.nopd = (uint8_t)nf;
  k->code[k->ncode++] = in;
}

/* An instruction; one that warpmem does not run (an unknown opcode or
 * modifier, call, a special register we lack, ...) marks the kernel with its
 * located message, and parsing goes on after its ';'.  Malformed input still
 * fails the module: the instruction must at least end with a ';'. */
static void instruction(Parser *P) {
  int end = P->pos, depth = 0; /* the ';', or where one is missing */
  for (; P->toks[end].kind != TK_EOF; end++) {
    const PtxTok *t = &P->toks[end];
    if (t->kind != TK_PUNCT) continue;
    if (t->p[0] == ';') break;
    if (t->p[0] == '(' || t->p[0] == '[' || t->p[0] == '{') depth++;
    if ((t->p[0] == ')' || t->p[0] == ']' || t->p[0] == '}') && depth-- == 0) break;
  }
  P->instr_end = end;
  if (setjmp(P->ijb)) {
    P->defer = 0;
    P->pos = P->instr_end;
    if (!is_punct(peek(P), ';')) fail_expected(P, "';'");
    next(P);
    return;
  }
  P->defer = 1;
  instruction_body(P);
  P->defer = 0;
}

/* A statement in a kernel body that warpmem does not run: marks the kernel
 * (see instruction()) and skips to its ';'. */
static void __attribute__((format(printf, 3, 4)))
defer_statement(Parser *P, const PtxTok *t, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mark_unsupported(P, t, msg);
  skip_statement(P);
}

/* ---------------------------------------------------------------- kernels */

/* loc := .loc file line col {',' (function_name label ['+' N] | inlined_at file line col)}
 *
 * nvcc -lineinfo writes code inlined from another function as
 *   .loc 2 134 49, function_name $L__info_string6, inlined_at 1 47 3
 * (the label names the function in .debug_str, nothing more).  A chain of
 * inlining is a chain of such lines, outermost first, each inlined_at naming
 * the position of the previous one:
 *   .loc 1 51 3, function_name $L__info_string4, inlined_at 1 57 3   (kernel)
 *   .loc 1 47 3, function_name $L__info_string5, inlined_at 1 51 3
 *   .loc 2 134 49, function_name $L__info_string6, inlined_at 1 47 3
 * (nvcc 13.0, tests/data/parse_more.ptx).  So every position remembers the
 * outermost call site it was last seen under, and an inlined_at that names a
 * remembered position continues its chain; one that names none is the
 * kernel's own line.  Instructions get the outermost site as cu_file/cu_line
 * (the user's line) and the .loc's own position as cu_file_inner/_inner. */
static void loc(Parser *P) {
  const PtxTok *t = next(P);
  const PtxTok *ft = peek(P);
  uint64_t f = int_number(P, "a file number");
  uint64_t l = int_number(P, "a line number");
  uint64_t c = int_number(P, "a column number");
  if (f > 0xffff) fail(P, ft, "file number too large");
  uint64_t of = f, ol = l; /* the outermost call site */
  while (is_punct(peek(P), ',') && peek(P)->line == t->line) {
    next(P);
    const PtxTok *kw = expect_word(P, "function_name or inlined_at");
    if (is(kw, "function_name")) {
      expect_word(P, "a label");
      if (accept(P, "+")) int_number(P, "an offset");
    } else if (is(kw, "inlined_at")) {
      const PtxTok *it = peek(P);
      uint64_t fi = int_number(P, "a file number");
      uint64_t li = int_number(P, "a line number");
      uint64_t ci = int_number(P, "a column number");
      if (fi > 0xffff) fail(P, it, "file number too large");
      const LocEnt *outer = loc_get(&P->locs, loc_key(fi, li, ci));
      of = outer ? outer->file : fi;
      ol = outer ? outer->line : li;
    } else {
      break; /* an attribute we do not know: it cannot change the position */
    }
  }
  while (peek(P)->kind != TK_EOF && peek(P)->line == t->line) next(P);
  if (ol > 0xffffffffu) ol = 0xffffffffu;
  if (l > 0xffffffffu) l = 0xffffffffu;
  loc_put(&P->locs, loc_key(f, l, c), (uint16_t)of, (uint32_t)ol);
  P->cur_file = (uint16_t)of;
  P->cur_line = (uint32_t)ol;
  P->cur_file_inner = (uint16_t)f;
  P->cur_line_inner = (uint32_t)l;
}

/* The C++ name of an Itanium-mangled function: _Z9transposePfPKfii ->
 * "transpose", _ZN2ns6kernelEPf -> "kernel".  NULL if not mangled. */
static char *demangle(const char *s) {
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

/* param := .param {.align N | type | .ptr | space} name ['[' N ']'] */
static void param(Parser *P) {
  PtxKernel *k = P->k;
  const PtxTok *pt = peek(P);
  char buf[128];
  if (!is(pt, ".param")) {
    if (is(pt, ".reg")) unsup(P, pt, ".reg parameters are not supported");
    fail_expected(P, "'.param'");
  }
  next(P);
  uint32_t align = 0;
  int type = -1, is_ptr = 0;
  for (;;) {
    const PtxTok *t = peek(P);
    if (is(t, ".align")) {
      align = alignment(P, 4096);
    } else if (is(t, ".ptr")) {
      next(P);
      is_ptr = 1;
    } else if (dir_type(t) >= 0) {
      next(P);
      type = dir_type(t);
    } else if (t->kind == TK_WORD && t->p[0] == '.' && space_of(t->p + 1, t->len - 1) >= 0) {
      next(P);
    } else if (t->kind == TK_WORD && t->p[0] == '.') {
      unsup(P, t, "unsupported parameter attribute '%s'", tok_str(t, buf, sizeof buf));
    } else {
      break;
    }
  }
  if (type < 0) fail_expected(P, "a parameter type");
  if (type == PTX_T_PRED) fail(P, pt, "parameters cannot be .pred");
  const PtxTok *name = expect_word(P, "a parameter name");
  uint64_t count = 1;
  if (is_punct(peek(P), '[')) {
    const PtxTok *lb = next(P);
    count = int_number(P, "an array size");
    if (count == 0 || count > 65536) fail(P, lb, "bad parameter array size");
    expect(P, ']');
  }
  uint32_t esize = ptx_type_size((PtxType)type);
  if (!align) align = esize;
  GROW(k->params, k->nparams, P->capparams);
  PtxParam *pp = &k->params[k->nparams++];
  memset(pp, 0, sizeof *pp);
  pp->name = tok_dup(name);
  pp->type = (uint8_t)type;
  pp->size = (uint32_t)(esize * count);
  pp->align = align;
  pp->offset = (uint32_t)align_up(k->param_size, align);
  pp->is_ptr = (uint8_t)is_ptr;
  k->param_size = pp->offset + pp->size;
  Sym *s = new_sym(P, name, PTX_S_PARAM);
  s->align = align;
  s->offset = pp->offset;
  declare_sym(P, name, s);
}

/* Marks the .u64 params that the kernel uses as pointers (loaded, then
 * converted with cvta or used as an address): informational only. */
static void guess_pointers(PtxKernel *k) {
  if (!k->nregs) return;
  int *from = wm_xmalloc(k->nregs * sizeof *from);
  for (uint32_t i = 0; i < k->nregs; i++) from[i] = -1;
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    if (in->op == PTX_OP_LD && in->space == PTX_S_PARAM && ptx_type_size((PtxType)in->type) == 8 &&
        in->opd[0].kind == PTX_O_REG && in->opd[1].reg[0] == PTX_NOREG && in->opd[1].space == PTX_S_PARAM)
      for (int j = 0; j < k->nparams; j++)
        if ((int64_t)k->params[j].offset == in->opd[1].imm && k->params[j].size == 8)
          from[in->opd[0].reg[0]] = j;
  }
  for (int i = 0; i < k->ncode; i++) {
    const PtxInstr *in = &k->code[i];
    uint32_t r = PTX_NOREG;
    if (in->op == PTX_OP_CVTA && in->opd[1].kind == PTX_O_REG) r = in->opd[1].reg[0];
    for (int j = 0; j < in->nopd && r == PTX_NOREG; j++)
      if (in->opd[j].kind == PTX_O_ADDR) r = in->opd[j].reg[0];
    if (r != PTX_NOREG && from[r] >= 0) k->params[from[r]].is_ptr = 1;
  }
  free(from);
}

static int is_terminator(const PtxInstr *in) {
  return in->guard == PTX_NOREG && (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT ||
                                    in->op == PTX_OP_TRAP || in->op == PTX_OP_BRA);
}

/* Resolves labels and finishes the kernel's layout.  `close` is the '}' of
 * the body (NULL for a declaration without one). */
static void end_kernel(Parser *P, const PtxTok *close) {
  PtxKernel *k = P->k;
  char buf[128];
  int falls_off = k->ncode == 0 || !is_terminator(&k->code[k->ncode - 1]);
  for (int i = 0; i < P->nluses; i++) {
    LabelUse *u = &P->luses[i];
    intptr_t v = map_get(&P->labels, u->tok->p, u->tok->len);
    if (!v) fail(P, u->tok, "unknown label '%s'", tok_str(u->tok, buf, sizeof buf));
    k->code[u->instr].opd[0].imm = v - 1;
    if (v - 1 == k->ncode) falls_off = 1;
  }
  if (close && falls_off) {
    /* Running off the end of a kernel returns: make that an explicit ret so
     * that every pc the emulator can reach is in code[]. */
    PtxInstr in;
    memset(&in, 0, sizeof in);
    in.op = PTX_OP_RET;
    in.guard = PTX_NOREG;
    in.vec = 1;
    in.ptx_line = close->line;
    in.ptx_col = (uint16_t)(close->col > 0xffff ? 0xffff : close->col);
    in.cu_file = P->cur_file;
    in.cu_line = P->cur_line;
    in.cu_file_inner = P->cur_file_inner;
    in.cu_line_inner = P->cur_line_inner;
    in.text = (uint32_t)(close->p - P->src);
    GROW(k->code, k->ncode, P->capcode);
    k->code[k->ncode++] = in;
  }
  k->shared_static = P->shared_cur;
  if (P->extern_align) {
    uint64_t base = align_up(P->shared_cur, P->extern_align);
    for (int i = 0; i < P->nxfix; i += 2)
      k->code[P->xfix[i]].opd[P->xfix[i + 1]].imm += (int64_t)base;
    k->shared_extern_align = P->extern_align;
  }
  k->local_size = P->local_cur;
  if (P->call_param) {
    char msg[1024];
    snprintf(msg, sizeof msg, "call sequences (.param in a kernel body) are not supported (kernel %s)", k->name);
    mark_unsupported(P, P->call_param, msg);
  }
  guess_pointers(k);
  while (P->depth >= 0) leave_scope(P);
  map_free(&P->ksyms);
  map_free(&P->labels);
  P->nluses = P->nxfix = 0;
  P->k = NULL;
}

/* perf := (.maxntid | .reqntid) N [',' N [',' N]] | .minnctapersm N | .maxnreg N | ... */
static void perf_directive(Parser *P) {
  PtxKernel *k = P->k;
  const PtxTok *t = next(P);
  uint32_t *dims = is(t, ".maxntid") ? k->maxntid : is(t, ".reqntid") ? k->reqntid : NULL;
  if (dims || is(t, ".reqnctapercluster") || is(t, ".maxclusterrank") || is(t, ".minnctapersm") ||
      is(t, ".maxnreg") || is(t, ".maxnctapersm")) {
    int i = 0;
    do {
      const PtxTok *nt = peek(P);
      uint64_t v = int_number(P, "a number");
      if (i == 3) fail(P, nt, "too many dimensions");
      if (dims) dims[i] = v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
      i++;
    } while (accept(P, ","));
    if (dims)
      for (; i < 3; i++) dims[i] = 1;
  } else if (is(t, ".noreturn") || is(t, ".explicitcluster")) {
  } else if (is(t, ".pragma")) {
    skip_statement(P);
  } else {
    char buf[128];
    unsup(P, t, "unsupported kernel directive '%s'", tok_str(t, buf, sizeof buf));
  }
}

/* body-param := .param {attribute} name ['[' N ']'] ';'
 * The arguments of a call sequence (nvcc wraps each call in a block that
 * declares param0, retval0, ...).  The names are declared so that the
 * st.param/ld.param around the call still parse; the call itself marks the
 * kernel unsupported with a message naming the callee, and end_kernel()
 * marks it here should there be no call. */
static void body_param(Parser *P) {
  const PtxTok *t = next(P);
  char buf[128];
  if (!P->call_param) P->call_param = t;
  while (peek(P)->kind == TK_WORD && peek(P)->p[0] == '.') {
    next(P);
    if (peek(P)->kind == TK_NUM) next(P); /* .align N */
  }
  const PtxTok *name = expect_word(P, "a parameter name");
  if (name->p[0] == '%') fail(P, name, "bad parameter name '%s'", tok_str(name, buf, sizeof buf));
  if (!find_sym(P, name)) { /* each call's block declares its own param0 */
    Sym *s = new_sym(P, name, PTX_S_PARAM);
    s->align = 1;
    declare_sym(P, name, s);
  }
  skip_statement(P);
}

/* body := '{' {statement} '}'
 * statement := '{' {statement} '}' | reg-decl | var-decl | .loc ... | .pragma ...;
 *            | label ':' | instruction */
static const PtxTok *body(Parser *P) {
  PtxKernel *k = P->k;
  char buf[128];
  expect(P, '{');
  P->depth = 0;
  for (;;) {
    const PtxTok *t = peek(P);
    if (t->kind == TK_EOF) fail(P, t, "expected '}' at the end of kernel %s", k->name);
    if (is_punct(t, '}')) {
      next(P);
      if (P->depth == 0) return t;
      leave_scope(P);
      continue;
    }
    if (is_punct(t, '{')) {
      next(P);
      if (P->depth >= 64) fail(P, t, "blocks nested too deeply");
      P->depth++;
      continue;
    }
    if (is_punct(t, '@')) {
      instruction(P);
      continue;
    }
    if (t->kind != TK_WORD) fail(P, t, "expected a statement, found '%s'", tok_str(t, buf, sizeof buf));
    if (is(t, ".reg")) {
      reg_decl(P);
    } else if (is(t, ".shared") || is(t, ".local") || is(t, ".global") || is(t, ".const")) {
      var_decl(P, 0);
    } else if (is(t, ".extern")) {
      next(P);
      if (!is(peek(P), ".shared")) unsup(P, t, "unsupported .extern declaration in a kernel");
      var_decl(P, 1);
    } else if (is(t, ".loc")) {
      loc(P);
    } else if (is(t, ".pragma")) {
      next(P);
      skip_statement(P);
    } else if (is(t, ".param")) {
      body_param(P);
    } else if (t->p[0] == '.') {
      defer_statement(P, t, "unsupported directive '%s' (kernel %s)", tok_str(t, buf, sizeof buf), k->name);
    } else if (is_punct(peek2(P), ':')) {
      next(P);
      next(P);
      if (t->p[0] == '%') fail(P, t, "bad label name '%s'", tok_str(t, buf, sizeof buf));
      if (map_get(&P->labels, t->p, t->len)) fail(P, t, "label '%s' defined twice", tok_str(t, buf, sizeof buf));
      map_put(&P->labels, t->p, t->len, k->ncode + 1);
    } else {
      instruction(P);
    }
  }
}

/* entry := .entry name ['(' [param {',' param}] ')'] {perf} (body | ';') */
static void entry(Parser *P) {
  PtxModule *m = P->m;
  const PtxTok *et = next(P);
  const PtxTok *name = expect_word(P, "a kernel name");
  char buf[128];
  if (name->p[0] == '.' || name->p[0] == '%') fail(P, name, "bad kernel name '%s'", tok_str(name, buf, sizeof buf));
  for (int i = 0; i < m->nkernels; i++)
    if (strlen(m->kernels[i].name) == name->len && memcmp(m->kernels[i].name, name->p, name->len) == 0)
      fail(P, name, "kernel '%s' defined twice", tok_str(name, buf, sizeof buf));
  GROW(m->kernels, m->nkernels, P->capkernels);
  PtxKernel *k = &m->kernels[m->nkernels++];
  memset(k, 0, sizeof *k);
  k->name = tok_dup(name);
  k->plain_name = demangle(k->name);
  if (!k->plain_name) k->plain_name = k->name;
  k->line = et->line;
  P->k = k;
  P->capcode = P->capnames = P->capparams = 0;
  P->shared_cur = P->mshared;
  P->local_cur = 0;
  P->declared_regs = 0;
  P->extern_align = 0;
  P->call_param = NULL;
  P->cur_file = P->cur_file_inner = 0;
  P->cur_line = P->cur_line_inner = 0;
  P->depth = 0;
  if (accept(P, "(")) {
    if (!is_punct(peek(P), ')')) {
      do param(P);
      while (accept(P, ","));
    }
    expect(P, ')');
  }
  uint32_t maxalign = 1;
  for (int i = 0; i < k->nparams; i++)
    if (k->params[i].align > maxalign) maxalign = k->params[i].align;
  k->param_size = (uint32_t)align_up(k->param_size, maxalign);
  while (peek(P)->kind == TK_WORD && peek(P)->p[0] == '.') perf_directive(P);
  if (is_punct(peek(P), ';')) { /* a declaration: nothing to run */
    next(P);
    end_kernel(P, NULL);
    m->nkernels--;
    for (int i = 0; i < k->nparams; i++) free(k->params[i].name);
    free(k->params);
    if (k->plain_name != k->name) free(k->plain_name);
    free(k->name);
    return;
  }
  end_kernel(P, body(P));
}

/* func := .func ['(' params ')'] name ['(' params ')'] {attr} (';' | body)
 * Only declared and skipped. */
static void func(Parser *P) {
  const PtxTok *ft = next(P);
  char buf[128];
  const PtxTok *name = NULL;
  int depth = 0;
  for (;;) {
    const PtxTok *t = peek(P);
    if (t->kind == TK_EOF) fail(P, t, "unterminated .func declaration");
    if (is_punct(t, '(')) depth++;
    else if (is_punct(t, ')')) depth--;
    else if (depth == 0 && t->kind == TK_WORD && t->p[0] != '.' && !name) {
      name = t;
      map_put(&P->funcs, t->p, t->len, 1);
    }
    else if (depth == 0 && is_punct(t, ';')) {
      next(P);
      return; /* a declaration (e.g. vprintf): harmless until something calls it */
    } else if (depth == 0 && is_punct(t, '{')) {
      /* A device function's body: skipped, never run -- a kernel that calls
       * it is marked unsupported at the call. */
      int braces = 0;
      do {
        t = next(P);
        if (t->kind == TK_EOF)
          fail(P, ft, "unterminated .func %s", name ? tok_str(name, buf, sizeof buf) : "body");
        if (is_punct(t, '{')) braces++;
        if (is_punct(t, '}')) braces--;
      } while (braces > 0);
      return;
    }
    next(P);
  }
}

/* file := .file N "path" [',' N ',' N] */
static void file(Parser *P) {
  PtxModule *m = P->m;
  next(P);
  const PtxTok *nt = peek(P);
  uint64_t n = int_number(P, "a file number");
  if (n > 0xffff) fail(P, nt, "file number too large");
  const PtxTok *s = peek(P);
  if (s->kind != TK_STR) fail_expected(P, "a file name");
  next(P);
  while (accept(P, ",")) int_number(P, "a number");
  if ((int)n >= m->nfiles) {
    m->files = wm_xrealloc(m->files, (n + 1) * sizeof *m->files);
    for (int i = m->nfiles; i <= (int)n; i++) m->files[i] = NULL;
    m->nfiles = (int)n + 1;
  }
  char *name = wm_xmalloc(s->len);
  size_t j = 0;
  for (uint32_t i = 1; i + 1 < s->len; i++) {
    if (s->p[i] == '\\' && i + 2 < s->len) i++;
    name[j++] = s->p[i];
  }
  name[j] = '\0';
  free(m->files[n]);
  m->files[n] = name;
}

/* section := .section name '{' ... '}'  (debug information: skipped) */
static void section(Parser *P) {
  next(P);
  expect_word(P, "a section name");
  const PtxTok *lb = expect(P, '{');
  int depth = 1;
  while (depth > 0) {
    const PtxTok *t = next(P);
    if (t->kind == TK_EOF) fail(P, lb, "unterminated .section");
    if (is_punct(t, '{')) depth++;
    if (is_punct(t, '}')) depth--;
  }
}

/* module := {directive}
 * directive := .version N.N | .target name {',' name} | .address_size N | file | section
 *            | .pragma ...; | {.visible | .weak | .extern | .common} (entry | func | var-decl) */
static void module(Parser *P) {
  PtxModule *m = P->m;
  char buf[128];
  for (;;) {
    const PtxTok *t = peek(P);
    if (t->kind == TK_EOF) break;
    if (t->kind != TK_WORD || t->p[0] != '.')
      fail(P, t, "expected a directive, found '%s'", tok_str(t, buf, sizeof buf));
    if (is(t, ".version")) {
      next(P);
      const PtxTok *v = peek(P);
      if (v->kind != TK_NUM) fail_expected(P, "a version number");
      next(P);
      char vb[32];
      tok_str(v, vb, sizeof vb);
      char *dot;
      m->version_major = (int)strtol(vb, &dot, 10);
      m->version_minor = *dot == '.' ? (int)strtol(dot + 1, NULL, 10) : 0;
    } else if (is(t, ".target")) {
      next(P);
      const PtxTok *tg = expect_word(P, "a target");
      tok_str(tg, m->target, sizeof m->target);
      while (accept(P, ",")) expect_word(P, "a target option");
    } else if (is(t, ".address_size")) {
      next(P);
      const PtxTok *at = peek(P);
      uint64_t a = int_number(P, "32 or 64");
      if (a != 32 && a != 64) fail(P, at, "address size must be 32 or 64");
      m->address_size = (int)a;
    } else if (is(t, ".file")) {
      file(P);
    } else if (is(t, ".section")) {
      section(P);
    } else if (is(t, ".pragma")) {
      next(P);
      skip_statement(P);
    } else if (is(t, ".loc")) {
      loc(P);
    } else {
      int is_extern = 0;
      while (is(peek(P), ".visible") || is(peek(P), ".weak") || is(peek(P), ".extern") || is(peek(P), ".common"))
        if (is(next(P), ".extern")) is_extern = 1;
      const PtxTok *d = peek(P);
      if (is(d, ".entry")) entry(P);
      else if (is(d, ".func")) func(P);
      else if (is(d, ".global") || is(d, ".const") || is(d, ".shared") || is(d, ".local") || is(d, ".param"))
        var_decl(P, is_extern);
      else if (d->kind == TK_WORD && d->p[0] == '.')
        unsup(P, d, "unsupported directive '%s'", tok_str(d, buf, sizeof buf));
      else
        fail(P, d, "expected a directive, found '%s'", tok_str(d, buf, sizeof buf));
    }
  }
}

/* .file directives come after the code in nvcc's output, so only now can a
 * .loc that names a file number no .file defines be told apart: such a
 * position is dropped (cu_line 0) so that no message shows a line without a
 * file; an unknown call site falls back to the inner position. */
static void check_files(PtxModule *m) {
  for (int i = 0; i < m->nkernels; i++) {
    PtxKernel *k = &m->kernels[i];
    for (int j = 0; j < k->ncode; j++) {
      PtxInstr *in = &k->code[j];
      if (in->cu_file_inner == 0 || in->cu_file_inner >= m->nfiles || !m->files[in->cu_file_inner])
        in->cu_file_inner = 0, in->cu_line_inner = 0;
      if (in->cu_file == 0 || in->cu_file >= m->nfiles || !m->files[in->cu_file])
        in->cu_file = in->cu_file_inner, in->cu_line = in->cu_line_inner;
    }
  }
}

static void parser_free(Parser *P) {
  if (P->k) {
    P->depth = P->depth < 0 ? 0 : P->depth;
    while (P->depth >= 0) leave_scope(P);
  }
  while (P->ndecls > 0) { /* only after an error inside nested blocks */
    RegDecl *d = P->decls[--P->ndecls];
    free(d->slots);
    free(d);
  }
  free(P->decls);
  for (int i = 0; i < P->nsyms; i++) free(P->syms[i]);
  free(P->syms);
  map_free(&P->msyms);
  map_free(&P->funcs);
  map_free(&P->ksyms);
  map_free(&P->regs);
  map_free(&P->labels);
  free(P->luses);
  free(P->xfix);
  free(P->locs.e);
  free(P->toks);
  free(P);
}

PtxModule *ptx_parse(const char *path, char *text, WmErr *e) {
  PtxModule *m = wm_xcalloc(1, sizeof *m);
  m->text = text;
  m->path = wm_xstrdup(path);
  m->address_size = 64;
  Parser *P = wm_xcalloc(1, sizeof *P);
  P->path = path;
  P->src = text;
  P->e = e;
  P->m = m;
  P->depth = -1;
  P->toks = ptx_lex(path, text, &P->ntoks, e);
  if (!P->toks) {
    parser_free(P);
    ptx_module_free(m);
    return NULL;
  }
  if (setjmp(P->jb)) { /* an error: everything is owned by P or m */
    parser_free(P);
    ptx_module_free(m);
    return NULL;
  }
  module(P);
  check_files(m);
  parser_free(P);
  if (!m->const_init) m->const_init = wm_xcalloc(1, 1);
  if (!m->global_init) m->global_init = wm_xcalloc(1, 1);
  return m;
}
