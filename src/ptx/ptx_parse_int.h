/* ptx_parse_int.h - the PTX parser's insides, shared by its files:
 *   ptx_parse_base.c  errors, tokens, numbers, names, symbols and
 *                registers: what the other parts use
 *   ptx_parse.c  ptx_parse(): the module, its directives and declarations,
 *                kernels, parameters, variables, .loc
 *   ptx_instr.c  one instruction: guard, mnemonic and modifiers (from the
 *                table in ptx_ops.h), operands
 *   ptx_shape.c  each operand form's rule (PtxShape), and the conventions
 *                of PtxInstr.opd the emulator relies on
 *   ptx_mma.c    the tensor-core instructions' modifiers and fragments
 *   ptx_wgmma.c  the warpgroup MMA instructions' (sm_90a)
 * Functions shared between them carry the pp_ prefix.  Errors leave the
 * parser by longjmp (pp_fail, pp_unsup); see ptx_parse.c.
 */
#ifndef WM_PTX_PARSE_INT_H
#define WM_PTX_PARSE_INT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/ptx_lex.h"

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


/* A declared variable or parameter. */
typedef struct Sym {
  const char *name;
  uint32_t len;
  uint8_t space;     /* PtxSpace */
  uint8_t ext;       /* .extern .shared x[]: dynamic shared */
  uint8_t frame;     /* 0: offset is absolute; SYM_FRAME: a device function's
                        parameter or .local variable, offset in its frame;
                        SYM_ARG: a call sequence's .param, offset in the
                        caller's argument area (placed at the body's end) */
  uint32_t align;
  uint64_t offset;   /* in its space (ext: 0, fixed up per kernel) */
  int32_t svar;      /* static .shared: 1 + its index in PtxModule.svars */
  uint32_t size;     /* bytes (call arguments) */
  int depth;         /* a kernel's: the block nesting level it was declared at */
  struct Sym *prev;  /* the declaration of the same name it shadows there */
} Sym;

enum { SYM_FRAME = 1, SYM_ARG = 2 };

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

/* A label definition.  Labels are scoped to the { } block that defines
 * them, as registers are (inline asm copied into many places of a kernel
 * defines the same label in each copy): Parser.labels maps a name to the
 * innermost definition in scope, whose `prev` is the one it shadows. */
typedef struct LabelDef {
  const PtxTok *tok;
  int instr;         /* the instruction it labels */
  int depth;         /* the block nesting level of its definition */
  int prev;          /* index in Parser.ldefs + 1 of the shadowed one, 0: none */
} LabelDef;

typedef struct Parser {
  const char *path, *src;
  WmErr *e;
  jmp_buf jb;
  PtxTok *toks;
  int ntoks, pos;
  PtxModule *m;
  Map msyms;                /* module variables -> Sym* */
  Map funcs;                /* .func names -> index in PtxModule.funcs + 1 */
  Map entry_decls;          /* .entry names declared without a body -> 1 */
  int capfuncs;
  Sym **syms;               /* every Sym, for freeing */
  int nsyms, capsyms;
  uint32_t mshared;         /* bytes of module-scope static shared */
  uint64_t gcap, ccap;      /* capacity of global_init, const_init */
  int capvars, capkernels, caprelocs;
  const PtxTok *target_tok; /* the .target's name, for messages */
  uint8_t init_space;       /* the variable being initialized: its space */
  uint64_t init_at;         /* and offset in its segment */

  /* the kernel being parsed */
  PtxKernel *k;
  int capcode, capnames, capparams;
  Map ksyms;                /* params and entry variables -> Sym* */
  Map regs;                 /* register names -> RegDecl* */
  Map labels;               /* label -> index in ldefs + 1 of the innermost definition in scope */
  LabelDef *ldefs;          /* the definitions in scope, outermost first */
  int nldefs, capldefs;
  RegDecl **decls;          /* declarations in order, for scope exit */
  int ndecls, capdecls, depth;
  Sym **shadows;            /* a kernel's variables declared in nested blocks, for scope exit */
  int nshadows, capshadows;
  LabelUse *luses;          /* branches whose label is not resolved yet: */
  int nluses, capluses;
  int luse_at[66];          /* ... those at and after luse_at[d] were made inside the block of depth d */
  uint16_t next_flags;      /* PTX_IF_* for the next instruction (a .pragma's) */
  uint32_t extern_align, shared_cur, local_cur;
  uint64_t declared_regs;   /* register names declared in this kernel */
  uint16_t cur_file, cur_file_inner; /* the last .loc: outermost call site */
  uint32_t cur_line, cur_line_inner; /* and its own position */
  LocMap locs;              /* .loc position -> its outermost call site */

  /* While an instruction is parsed, an unsupported construct marks the
   * kernel and longjmps here instead of failing the module. */
  uint32_t arg_cur, arg_max;/* call arguments: bytes in use, most ever */
  int *afix;                /* (instr, opd) pairs that name a SYM_ARG */
  int nafix, capafix;
  int capcalls;
  uint32_t arg_at[66];      /* arg_cur when each nested block was entered */
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
enum { NUM_INT, NUM_F32, NUM_F64, NUM_DEC };

typedef struct Num {
  int kind;       /* NUM_* */
  int neg;        /* written with a leading '-' */
  uint64_t bits;  /* INT: value; F32/F64: IEEE bits as written */
  double dec;     /* DEC: the value */
} Num;

/* A component of a mnemonic: the text between two dots. */
typedef struct Comp {
  const char *p;
  uint32_t len;
} Comp;
#define IS(c, str) ((c).len == sizeof(str) - 1 && memcmp((c).p, str, (c).len) == 0)

typedef struct InstrCtx {
  const PtxTok *mn;   /* the mnemonic */
  int ntypes, has_sync;
  int has_red;        /* bar.red / barrier.red */
  char shf_dir, shf_mode; /* shf: 'l'/'r', 'w'/'c' */
  char tld4, suclamp, sufmt; /* tld4's channel, suld/sust's .trap/.clamp/.zero and .b/.p were given */
  uint8_t mtypes[4];  /* tensor-core instructions: their types in order */
  int nlayouts;       /* and how many .row/.col they named */
  uint8_t async_global;   /* cp.async: .global (the source space) seen */
  uint8_t async_hint;     /* cp.async: .L2::cache_hint (a policy operand) */
  uint8_t async_mbar;     /* cp.async.bulk: 1 .mbarrier::complete_tx::bytes, 2 .bulk_group
                             (cp.async.bulk.wait_group: 1 .read) */
  uint8_t bulk_dst, bulk_src; /* bulk copies and reductions: their spaces in
                             order (destination first), 'g' global, 'c'
                             shared::cta (or plain .shared), 'k' shared::cluster */
  uint8_t tma_mode;       /* TMA: a load mode was given */
  uint8_t wgmma;          /* wgmma.*: the WG_SEEN_* words it named (ptx_wgmma.c) */
} InstrCtx;

/* An operand as parsed, before it is checked against its position. */
typedef struct Opd {
  PtxOperand o;
  const PtxTok *tok;
  uint8_t rtype;     /* REG: the declared type */
  uint8_t pipe;      /* written after '|' */
  Num num;           /* IMM: as written */
  const Sym *sym;    /* ADDR/SYM naming a variable */
  const PtxTok *ref; /* ADDR of a texture or surface naming something
                        undeclared (a legacy .texref) */
  PtxOperand coord;  /* ADDR of a texture or surface: [h, {c...}]'s vector
                        (kind NONE when the address has none) */
} Opd;

/* tables (ptx_parse_base.c) */
intptr_t pp_map_get(const Map *m, const char *key, uint32_t len);
void pp_map_put(Map *m, const char *key, uint32_t len, intptr_t val);
void pp_map_free(Map *m);
uint64_t pp_loc_key(uint64_t file, uint64_t line, uint64_t col);
const LocEnt *pp_loc_get(const LocMap *m, uint64_t key);
void pp_loc_put(LocMap *m, uint64_t key, uint16_t file, uint32_t line);

/* errors (ptx_parse_base.c): a located message, then longjmp out.  pp_unsup is
 * for valid PTX warpmem does not run: inside an instruction it only marks
 * the kernel (PtxKernel.unsupported). */
_Noreturn __attribute__((format(printf, 3, 4))) void pp_fail(Parser *P, const PtxTok *t, const char *fmt, ...);
_Noreturn __attribute__((format(printf, 3, 4))) void pp_unsup(Parser *P, const PtxTok *t, const char *fmt, ...);
_Noreturn void pp_fail_expected(Parser *P, const char *what);
void pp_mark_unsupported(Parser *P, const PtxTok *t, const char *msg);
__attribute__((format(printf, 3, 4))) void pp_defer_statement(Parser *P, const PtxTok *t, const char *fmt, ...);

/* "kernel" or "function": what is being parsed, for messages */
static inline const char *pp_owner(const Parser *P) { return P->k && P->k->is_func ? "function" : "kernel"; }

/* tokens (ptx_parse_base.c) */
static inline const PtxTok *pp_peek(Parser *P) { return &P->toks[P->pos]; }
static inline int pp_is(const PtxTok *t, const char *s) { return t->kind != TK_EOF && ptx_tok_is(t, s); }
static inline int pp_is_punct(const PtxTok *t, char c) { return t->kind == TK_PUNCT && t->p[0] == c; }
const PtxTok *pp_peek2(Parser *P);
const PtxTok *pp_next(Parser *P);
int pp_accept(Parser *P, const char *s);
const char *pp_tok_str(const PtxTok *t, char *buf, size_t n);
const PtxTok *pp_expect(Parser *P, char c);
const PtxTok *pp_expect_word(Parser *P, const char *what);
void pp_skip_statement(Parser *P);

/* numbers and names (ptx_parse_base.c) */
Num pp_number_tok(Parser *P, const PtxTok *t);
Num pp_signed_number(Parser *P);
uint64_t pp_int_number(Parser *P, const char *what);
uint64_t pp_num_value(Parser *P, const PtxTok *t, Num n, PtxType ty);
int pp_type_of(const char *s, uint32_t len);
int pp_dir_type(const PtxTok *t);
int pp_space_of(const char *s, uint32_t len);
int pp_sreg_of(const PtxTok *t);
char *pp_tok_dup(const PtxTok *t);
uint64_t pp_align_up(uint64_t v, uint64_t a);

/* symbols and registers (ptx_parse_base.c) */
Sym *pp_new_sym(Parser *P, const PtxTok *name, int space);
Sym *pp_find_sym(Parser *P, const PtxTok *t);
void pp_declare_sym(Parser *P, const PtxTok *name, Sym *s);
RegDecl *pp_find_reg(Parser *P, const PtxTok *t, uint32_t *idx);
uint32_t pp_reg_slot(Parser *P, const PtxTok *t, uint8_t *type);
void pp_leave_scope(Parser *P);
/* A label's definition, and the branches of the block being left resolved
 * to its definitions (ptx_parse.c). */
void pp_define_label(Parser *P, const PtxTok *t, int instr);
void pp_resolve_labels(Parser *P);
void pp_reg_decl(Parser *P);
/* The plain C++ name of a mangled entry (caller frees), NULL if not mangled. */
char *pp_demangle(const char *s);

/* declarations (ptx_parse.c) */
void pp_var_decl(Parser *P, int is_extern);

void pp_module(Parser *P);

/* device functions and calls (ptx_call.c) */
int pp_call_operands(Parser *P, PtxInstr *in, struct Opd *fin);
int pp_func_index(Parser *P, const PtxTok *name, int declare);
int pp_sreg_alias(const PtxTok *t, int *sreg, uint64_t *imm);
void pp_body_param(Parser *P);
void pp_address_init(Parser *P, uint8_t *buf, uint64_t nelem, PtxType ty, uint64_t *i);

/* linking the functions each kernel reaches into its code (ptx_link.c) */
void pp_link(PtxModule *m);

/* instructions (ptx_instr.c) and their operand forms (ptx_shape.c) */
void pp_instruction(Parser *P);
int pp_is_bar_red(const PtxInstr *in);
int pp_shape(Parser *P, PtxInstr *in, const InstrCtx *x, Opd *r, int n, Opd *out);
PtxType pp_opd_type(const PtxInstr *in, int i);

/* tensor-core instructions (ptx_mma.c): one modifier word (1: taken, 0:
 * given twice, -1: not one of theirs), then the checks of the whole form */
int pp_mma_modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c);
void pp_mma_rules(Parser *P, PtxInstr *in, const InstrCtx *x);
/* wgmma.* (ptx_wgmma.c): the same two steps */
int pp_wgmma_modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c);
void pp_wgmma_rules(Parser *P, PtxInstr *in, const InstrCtx *x);

#endif
