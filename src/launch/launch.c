/* launch.c - launch specs (`//@` lines, --arg), binding them to a kernel's
 * .param list, and dumping the buffers after a run.
 *
 * Notes:
 * - Scalars are range-checked for their type (launch_value.c); aggregates
 *   are laid out by launch_agg.c.
 * - A buffer holds 1 element at least and 1 TiB at most; the run's real
 *   limit (GlobalMem.limit, --mem-limit) is gmem_alloc's to enforce.
 * - rand is reproducible: splitmix64 seeded by (seed, argument number), so
 *   the same seed gives the same data and different arguments get different
 *   data.  Floats are uniform in [0, 1) (f16 and bf16 on their 11- and 8-bit
 *   grids, so exactly); integers uniform in [0, 1024) (in
 *   [0, 128) for i8 and [0, 256) for u8) so that kernels which use the data
 *   as indices or trip counts stay in bounds and finish quickly.
 * - iota stores element i converted to the type (wrapping for narrow
 *   integer types, rounded for floats beyond 2^24 / 2^53).
 * - Grid and block sizes on `//@` lines are checked against CUDA's limits
 *   (emu.h) so the error points at the line; the emulator checks again for
 *   launches built elsewhere.
 */
#include "launch/launch.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "emu/emu.h"
#include "launch/launch_int.h"
#include "util/half.h"
#include "util/sys.h"

#define MAX_BUF_BYTES (1ull << 40) /* sanity bound on one buffer */


/* ---- dimensions and arguments ------------------------------------------ */

/* Grammar: DIM := N[,N[,N]], each 1..2^31-1.  *bad: offset of the bad part. */
static int dim_parse(const char *s, size_t n, uint32_t d[3], size_t *bad, WmErr *e) {
  uint32_t v[3] = {1, 1, 1};
  size_t i = 0;
  int k = 0;
  *bad = 0;
  if (n == 0) return wm_err(e, WM_EUSAGE, "missing dimensions: expected X[,Y[,Z]]");
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != ',') j++;
    *bad = i;
    if (k == 3) return wm_err(e, WM_EUSAGE, "'%.*s': at most 3 dimensions", (int)n, s);
    uint64_t x;
    int hex;
    int rc = la_parse_uint(s + i, j - i, &x, &hex);
    if (rc == -1)
      return wm_err(e, WM_EUSAGE, "'%.*s': expected X[,Y[,Z]] of positive integers", (int)n, s);
    if (rc == -2 || x == 0 || x > 0x7fffffffu)
      return wm_err(e, WM_EUSAGE, "'%.*s': dimension %.*s is not in 1..2147483647", (int)n, s,
                    (int)(j - i), s + i);
    v[k++] = (uint32_t)x;
    if (j == n) break;
    i = j + 1;
  }
  memcpy(d, v, sizeof v);
  return 0;
}

uint64_t launch_threads(const LaunchSpec *l) {
  return (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
}

int launch_parse_dim(const char *s, uint32_t d[3], WmErr *e) {
  size_t bad;
  return dim_parse(s, strlen(s), d, &bad, e);
}

static int field_is(const char *s, size_t n, const char *word) {
  return strlen(word) == n && memcmp(s, word, n) == 0;
}

static int agg_parse(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e);

/* Grammar: ARG := TYPE:VALUE | buf:TYPE:COUNT[:INIT] | AGG.
 * Errors: message in e (naming the argument), *bad = offset of the bad field. */
static int arg_parse(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e) {
  memset(a, 0, sizeof *a);
  *bad = 0;
  size_t tn = n < sizeof a->text - 1 ? n : sizeof a->text - 1;
  memcpy(a->text, s, tn);
  a->text[tn] = '\0';
  if (n == 0) return wm_err(e, WM_EUSAGE, "empty argument: expected TYPE:VALUE or buf:TYPE:COUNT[:INIT]");
  if ((n >= 4 && !memcmp(s, "tex:", 4)) || (n >= 5 && !memcmp(s, "surf:", 5)))
    return lc_parse_tex(s, n, a, bad, e);
  if (n >= 5 && !memcmp(s, "tmap:", 5)) {
    if (n >= sizeof a->text) return wm_err(e, WM_EUSAGE, "argument '%.40s...': a tmap: spec has at most %zu "
                                           "characters", s, sizeof a->text - 1);
    return lc_parse_tmap(s, n, a, bad, e);
  }
  if (la_is_agg(s, n)) return agg_parse(s, n, a, bad, e);

  /* split into at most 4 fields at ':' (a float constant has none) */
  size_t fs[5], fe[5];
  int nf = 0;
  size_t i = 0;
  for (;;) {
    size_t j = i;
    while (j < n && s[j] != ':') j++;
    if (nf == 4) {
      *bad = i - 1;
      return wm_err(e, WM_EUSAGE, "argument '%.*s': too many ':' fields", (int)n, s);
    }
    fs[nf] = i, fe[nf] = j, nf++;
    if (j == n) break;
    i = j + 1;
  }
#define F(k) (s + fs[k]), (fe[k] - fs[k])
  WmErr sub = {0};
  if (field_is(F(0), "buf")) {
    a->kind = ARG_BUF;
    if (nf < 3) {
      *bad = n;
      return wm_err(e, WM_EUSAGE, "argument '%.*s': expected buf:TYPE:COUNT[:INIT]", (int)n, s);
    }
    if (la_lookup_type(F(1), &a->type)) {
      *bad = fs[1];
      return wm_err(e, WM_EUSAGE, "argument '%.*s': unknown type '%.*s' (types: " TYPE_LIST ")",
                    (int)n, s, (int)(fe[1] - fs[1]), s + fs[1]);
    }
    uint64_t count;
    int hex;
    int rc = la_parse_uint(F(2), &count, &hex);
    *bad = fs[2];
    if (rc == -1)
      return wm_err(e, WM_EUSAGE, "argument '%.*s': buffer length '%.*s' is not a positive integer",
                    (int)n, s, (int)(fe[2] - fs[2]), s + fs[2]);
    if (rc == 0 && count == 0)
      return wm_err(e, WM_EUSAGE, "argument '%.*s': a buffer needs at least 1 element", (int)n, s);
    unsigned es = la_type_bytes(a->type);
    if (rc == -2 || count > MAX_BUF_BYTES / es)
      return wm_err(e, WM_EUSAGE,
                    "argument '%.*s': buffer of %.*s %s elements is too large (at most 1 TiB)",
                    (int)n, s, (int)(fe[2] - fs[2]), s + fs[2], la_type_spec_name(a->type));
    a->count = count;
    a->init = INIT_DEFAULT;
    if (nf == 4) {
      *bad = fs[3];
      if (field_is(F(3), "zero")) a->init = INIT_ZERO;
      else if (field_is(F(3), "iota")) a->init = INIT_IOTA;
      else if (field_is(F(3), "rand")) a->init = INIT_RAND;
      else if (la_parse_value(F(3), a->type, &a->bits, &sub) == 0) a->init = INIT_CONST;
      else
        return wm_err(e, WM_EUSAGE,
                      "argument '%.*s': bad INIT '%.*s' (zero, iota, rand or a %s constant: %s)",
                      (int)n, s, (int)(fe[3] - fs[3]), s + fs[3], la_type_spec_name(a->type), sub.msg);
    }
    return 0;
  }
  a->kind = ARG_SCALAR;
  if (la_lookup_type(F(0), &a->type)) {
    *bad = 0;
    return wm_err(e, WM_EUSAGE,
                  "argument '%.*s': unknown type '%.*s' (expected TYPE:VALUE or "
                  "buf:TYPE:COUNT[:INIT]; types: " TYPE_LIST ")",
                  (int)n, s, (int)(fe[0] - fs[0]), s + fs[0]);
  }
  if (nf != 2) {
    *bad = nf < 2 ? n : fe[1];
    return wm_err(e, WM_EUSAGE, "argument '%.*s': expected TYPE:VALUE", (int)n, s);
  }
  *bad = fs[1];
  if (la_parse_value(F(1), a->type, &a->bits, &sub))
    return wm_err(e, WM_EUSAGE, "argument '%.*s': %s", (int)n, s, sub.msg);
#undef F
  return 0;
}

/* An aggregate (launch_agg.c): laid out now to check it, its buffer
 * members read as arguments; ArgSpec keeps its text, laid out again when
 * bound. */
static int agg_parse(const char *s, size_t n, ArgSpec *a, size_t *bad, WmErr *e) {
  if (n >= sizeof a->text)
    return wm_err(e, WM_EUSAGE, "argument '%.40s...': an aggregate spec has at most %zu characters (bytes:HEX "
                  "is the shortest form)", s, sizeof a->text - 1);
  AggLayout *L = wm_xmalloc(sizeof *L);
  int rc = la_agg_layout(s, n, L, bad, e);
  for (int b = 0; b < L->nbufs && rc == 0; b++) {
    ArgSpec m;
    size_t mbad;
    rc = arg_parse(s + L->buf_from[b], L->buf_len[b], &m, &mbad, e);
    if (rc) *bad = L->buf_from[b] + mbad;
  }
  if (rc == 0) {
    a->kind = ARG_AGG;
    a->agg_size = L->size;
    a->agg_align = L->align;
  } else {
    char msg[sizeof e->msg];
    memcpy(msg, e->msg, sizeof msg);
    wm_err(e, WM_EUSAGE, "argument '%.*s': %s", (int)n, s, msg);
  }
  free(L);
  return rc;
}

int launch_parse_arg(const char *s, ArgSpec *a, WmErr *e) {
  size_t bad;
  /* one --arg holds one spec: struct:M,M,... and f32x2:1,2 need no braces */
  const char *colon = strchr(s, ':');
  if (colon && la_is_agg(s, (size_t)(colon - s) + 1) && strncmp(s, "bytes:", 6) && !strchr(s, '{')) {
    char *braced = wm_xmalloc(strlen(s) + 2);
    sprintf(braced, "%.*s{%s}", (int)(colon - s), s, colon + 1);
    int rc = arg_parse(braced, strlen(braced), a, &bad, e);
    free(braced);
    return rc;
  }
  return arg_parse(s, strlen(s), a, &bad, e);
}

/* ---- //@ lines --------------------------------------------------------- */

typedef struct Line {
  const char *path, *src;
  int line;
  const char *start; /* first byte of the line */
} Line;

static int col_of(const Line *L, const char *p) { return (int)(p - L->start) + 1; }

/* wm_err_at with the message already formatted in e (moved to a buffer). */
static int relocate(WmErr *e, const Line *L, const char *p) {
  if (!e) return -1;
  char msg[sizeof e->msg];
  memcpy(msg, e->msg, sizeof msg);
  return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, p), "%s", msg);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int is_ident(char c, int first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
         (!first && c >= '0' && c <= '9');
}

/* The dimensions no preset allows, refused as the spec is read; emu_run
 * checks the chosen preset's own limits. */
static int check_dims(const LaunchSpec *ls, const Line *L, const char *gridp, const char *blockp,
                      WmErr *e) {
  const uint32_t *g = ls->grid, *b = ls->block;
  ArchLimits lim = arch_limits(NULL);
  if (g[1] > lim.grid_yz || g[2] > lim.grid_yz)
    return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, gridp),
                     "grid y and z are at most %u", lim.grid_yz);
  if (b[0] > lim.block_xy || b[1] > lim.block_xy || b[2] > lim.block_z)
    return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, blockp),
                     "block x and y are at most %u, z at most %u", lim.block_xy, lim.block_z);
  uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
  if (threads > lim.block_threads)
    return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, blockp),
                     "a block has at most %u threads, not %llu", lim.block_threads, (unsigned long long)threads);
  return 0;
}

/* args=ARG,ARG,... (v[0..vn)) into ls->args. */
static int parse_args(const Line *L, const char *v, size_t vn, LaunchSpec *ls, WmErr *e) {
  size_t i = 0, bad;
  while (vn > 0) { /* "args=" alone: a kernel without parameters */
    size_t j = i;
    for (int depth = 0; j < vn && (v[j] != ',' || depth > 0); j++) /* commas in {...} are a member's */
      depth += v[j] == '{' ? 1 : v[j] == '}' ? -1 : 0;
    if (ls->nargs == LAUNCH_MAX_ARGS)
      return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, v + i), "more than %d arguments",
                       LAUNCH_MAX_ARGS);
    if (j == i)
      return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, v + i),
                       "empty argument in args= (ARG,ARG,... with no spaces)");
    if (arg_parse(v + i, j - i, &ls->args[ls->nargs], &bad, e)) return relocate(e, L, v + i + bad);
    ls->nargs++;
    if (j == vn) break;
    i = j + 1;
  }
  return 0;
}

/* Grammar: //@ NAME[#VARIANT] [cooperative] grid=DIM block=DIM [smem=BYTES] [cluster=DIM] args=ARG,...
 * p points just past "//@", end at the line's end. */
static int parse_spec(const Line *L, const char *p, const char *end, LaunchSpec *ls, WmErr *e) {
  memset(ls, 0, sizeof *ls);
  ls->line = L->line;
  ls->grid[0] = ls->grid[1] = ls->grid[2] = 1;
  ls->block[0] = ls->block[1] = ls->block[2] = 1;
  while (p < end && is_blank(*p)) p++;
  if (p == end)
    return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, p),
                     "empty launch spec: expected NAME[#VARIANT] grid=X[,Y[,Z]] "
                     "block=X[,Y[,Z]] [smem=BYTES] args=ARG,...");
  /* NAME[#VARIANT] */
  const char *tok = p;
  while (p < end && !is_blank(*p)) p++;
  const char *hash = memchr(tok, '#', (size_t)(p - tok));
  const char *nend = hash ? hash : p;
  if (nend == tok || !is_ident(*tok, 1))
    return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, tok),
                     "expected a kernel name");
  for (const char *q = tok; q < nend; q++)
    if (!is_ident(*q, 0))
      return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, q),
                       "bad character '%c' in kernel name", *q);
  if (hash) {
    if (hash + 1 == p)
      return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, hash + 1),
                       "missing variant after '#'");
    for (const char *q = hash + 1; q < p; q++)
      if (*q == '#' || *q == '=' || *q == '/' || (unsigned char)*q < 0x21 ||
          (unsigned char)*q > 0x7e)
        return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, q),
                         "bad character '%c' in variant", *q);
  }
  if ((size_t)(nend - tok) >= sizeof ls->name || (size_t)(p - tok) >= sizeof ls->label)
    return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, tok),
                     "launch name too long (at most %zu characters)", sizeof ls->label - 1);
  memcpy(ls->name, tok, (size_t)(nend - tok));
  memcpy(ls->label, tok, (size_t)(p - tok));

  const char *seen[5] = {NULL, NULL, NULL, NULL, NULL}; /* grid block smem args cluster */
  static const char *const keys[5] = {"grid", "block", "smem", "args", "cluster"};
  for (;;) {
    while (p < end && is_blank(*p)) p++;
    if (p == end) break;
    tok = p;
    while (p < end && !is_blank(*p)) p++;
    if (field_is(tok, (size_t)(p - tok), "cooperative")) {
      ls->cooperative = 1; /* cudaLaunchCooperativeKernel */
      continue;
    }
    if (field_is(tok, (size_t)(p - tok), "nonportable")) {
      ls->cluster_nonportable = 1; /* cudaFuncAttributeNonPortableClusterSizeAllowed */
      continue;
    }
    const char *eq = memchr(tok, '=', (size_t)(p - tok));
    int k = -1;
    for (int i = 0; eq && i < 5; i++)
      if (field_is(tok, (size_t)(eq - tok), keys[i])) k = i;
    if (k < 0)
      return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, tok),
                       "unexpected '%.*s': expected grid=, block=, smem=, args=, cluster=, cooperative or nonportable "
                       "(no spaces inside a value)",
                       (int)(p - tok), tok);
    if (seen[k])
      return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, tok),
                       "%s= given twice", keys[k]);
    seen[k] = tok;
    const char *v = eq + 1;
    size_t vn = (size_t)(p - v), bad;
    if (k == 0 || k == 1 || k == 4) { /* cluster=X[,Y[,Z]]: blocks a cluster (cudaLaunchAttributeClusterDimension) */
      if (dim_parse(v, vn, k == 0 ? ls->grid : k == 1 ? ls->block : ls->cluster, &bad, e))
        return relocate(e, L, v + bad);
    } else if (k == 2) {
      uint64_t x;
      int hex;
      int rc = la_parse_uint(v, vn, &x, &hex);
      if (rc || x > UINT32_MAX)
        return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, v),
                         "smem=%.*s: expected a byte count (0..4294967295)", (int)vn, v);
      ls->smem = (uint32_t)x;
    } else if (parse_args(L, v, vn, ls, e)) {
      return -1;
    }
  }
  for (int k = 0; k < 4; k++)
    if (!seen[k] && k != 2)
      return wm_err_at(e, WM_EUSAGE, L->path, L->src, L->line, col_of(L, end),
                       "launch '%s' has no %s=", ls->label, keys[k]);
  return check_dims(ls, L, seen[0] + 5, seen[1] + 6, e);
}

int launch_parse_file(const char *path, const char *text, LaunchSpec **out, int *n, WmErr *e) {
  LaunchSpec *v = NULL;
  int cnt = 0, cap = 0;
  *out = NULL;
  *n = 0;
  const char *p = text;
  for (int line = 1; *p; line++) {
    const char *end = strchr(p, '\n');
    if (!end) end = p + strlen(p);
    const char *q = p;
    while (q < end && is_blank(*q)) q++;
    if (end - q >= 3 && memcmp(q, "//@", 3) == 0) {
      Line L = {path, text, line, p};
      if (cnt == LAUNCH_MAX_LAUNCHES) {
        free(v);
        return wm_err_at(e, WM_ELIMIT, path, text, line, 1, "more than %d '//@' launches in one file, warpmem's "
                         "limit (docs/limits.md): split the file", LAUNCH_MAX_LAUNCHES);
      }
      if (cnt == cap) {
        cap = cap ? cap * 2 : 16;
        v = wm_xrealloc(v, (size_t)cap * sizeof *v);
      }
      const char *e_end = end;
      while (e_end > q && is_blank(e_end[-1])) e_end--;
      if (parse_spec(&L, q + 3, e_end, &v[cnt], e)) {
        free(v);
        return -1;
      }
      for (int i = 0; i < cnt; i++)
        if (strcmp(v[i].label, v[cnt].label) == 0) {
          const char *at = q + 3;
          while (at < e_end && is_blank(*at)) at++;
          wm_err_at(e, WM_EUSAGE, path, text, line, col_of(&L, at),
                    "launch '%s' already defined on line %d (add a #VARIANT)", v[cnt].label,
                    v[i].line);
          free(v);
          return -1;
        }
      cnt++;
    }
    p = *end ? end + 1 : end;
  }
  *out = v;
  *n = cnt;
  return 0;
}

int launch_cu_of_ptx(const char *ptx, char *cu, size_t cap) {
  size_t n = strlen(ptx);
  if (!wm_ends_with(ptx, ".ptx")) return -1;
  const char *slash = strrchr(ptx, '/');
  const char *base = slash ? slash + 1 : ptx;
  int stem = (int)(n - 4 - (size_t)(base - ptx)), dir = (int)(base - ptx);
  if ((size_t)snprintf(cu, cap, "%.*s%.*s.cu", dir, ptx, stem, base) < cap && access(cu, R_OK) == 0) return 0;
  /* the folder above, named without "..": lab/ptx/ -> lab/, ptx/ -> "" */
  int up = dir - 1; /* the slash ending dir, if any */
  while (up > 0 && ptx[up - 1] != '/') up--;
  const char *last = ptx + (up < 0 ? 0 : up);
  int plain = dir > 0 && !(up == 0 && ptx[0] == '/') && strncmp(last, "./", 2) && strncmp(last, "../", 3);
  if ((size_t)snprintf(cu, cap, plain ? "%.*s%.*s.cu" : "%.*s../%.*s.cu", plain ? up : dir, ptx, stem, base) < cap &&
      access(cu, R_OK) == 0)
    return 0;
  return -1;
}

int launch_read_file(const char *path, LaunchSpec **out, int *n, WmErr *e) {
  *out = NULL;
  *n = 0;
  char *text = wm_read_file(path, NULL, e);
  if (!text) return -1;
  int rc = launch_parse_file(path, text, out, n, e);
  free(text);
  if (rc) return -1;
  char cu[4096];
  if (*n > 0 || launch_cu_of_ptx(path, cu, sizeof cu)) return 0;
  text = wm_read_file(cu, NULL, e);
  if (!text) return -1;
  free(*out);
  *out = NULL;
  rc = launch_parse_file(cu, text, out, n, e);
  free(text);
  return rc;
}

/* ---- binding ----------------------------------------------------------- */

static void store_le(uint8_t *p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15ull

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += SPLITMIX_GAMMA);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The bits of integer i (iota) or of a random draw in type t. */
static uint64_t iota_bits(uint8_t t, uint64_t i) {
  if (t == PTX_T_F16) return wm_f16_from((double)i, WM_RND_NEAREST);
  if (t == PTX_T_BF16) return wm_bf16_from((double)i, WM_RND_NEAREST);
  if (t == PTX_T_F32) {
    float f = (float)i;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  if (t == PTX_T_F64) {
    double d = (double)i;
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  return i & la_width_mask(la_type_bytes(t));
}

static uint64_t rand_bits(uint8_t t, uint64_t *state) {
  uint64_t x = splitmix64(state);
  /* [0, 1) in steps every value of which the format holds exactly */
  if (t == PTX_T_F16) return wm_f16_from((double)(x >> 53) / 2048.0, WM_RND_NEAREST);
  if (t == PTX_T_BF16) return wm_bf16_from((double)(x >> 56) / 256.0, WM_RND_NEAREST);
  if (t == PTX_T_F32) {
    float f = (float)(x >> 40) * (1.0f / 16777216.0f); /* 24 bits: [0, 1) exactly */
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  if (t == PTX_T_F64) {
    double d = (double)(x >> 11) * (1.0 / 9007199254740992.0);
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  uint64_t range = t == PTX_T_S8 ? 128 : t == PTX_T_U8 ? 256 : 1024;
  return (x >> 32) % range;
}

/* store_le for one element; memcpy on little-endian hosts (the fill loops
 * run over up to billions of elements). */
static inline void store_elem(uint8_t *p, uint64_t v, unsigned es) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint8_t b1 = (uint8_t)v;
  uint16_t b2 = (uint16_t)v;
  uint32_t b4 = (uint32_t)v;
  switch (es) {
  case 1: memcpy(p, &b1, 1); break;
  case 2: memcpy(p, &b2, 2); break;
  case 4: memcpy(p, &b4, 4); break;
  default: memcpy(p, &v, 8); break;
  }
#else
  store_le(p, v, es);
#endif
}

typedef struct Fill {
  uint8_t *d;
  const ArgSpec *a;
  unsigned es;
  uint8_t init;
  uint64_t st0; /* rand: the generator's state before element 0 */
} Fill;

/* Elements [lo, hi) of a fill.  Element i's draw is the generator's
 * (i+1)-th from st0, so the bytes do not depend on how a fill is split. */
static void fill_range(void *ctx, uint64_t lo, uint64_t hi) {
  const Fill *f = ctx;
  uint8_t *d = f->d;
  unsigned es = f->es;
  uint8_t t = f->a->type;
  switch (f->init) {
  case INIT_IOTA:
    for (uint64_t i = lo; i < hi; i++) store_elem(d + i * es, iota_bits(t, i), es);
    break;
  case INIT_CONST:
    for (uint64_t i = lo; i < hi; i++) store_elem(d + i * es, f->a->bits, es);
    break;
  default: { /* INIT_RAND */
    uint64_t st = f->st0 + lo * SPLITMIX_GAMMA;
    for (uint64_t i = lo; i < hi; i++) store_elem(d + i * es, rand_bits(t, &st), es);
    break;
  }
  }
}

#define FILL_GRAIN (UINT64_C(1) << 21) /* elements: a smaller buffer is filled by one thread */

static void fill(GBuf *b, const ArgSpec *a, uint8_t init, uint64_t seed, int argno) {
  if (init == INIT_ZERO) return; /* gmem_alloc zeroes */
  Fill f = {b->data, a, la_type_bytes(a->type), init, seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(argno + 1))};
  wm_split(a->count, FILL_GRAIN, 1, fill_range, &f);
}

/* "(.u64, .u64, .u32, .u32)" */
static void param_list(const PtxKernel *k, char *buf, size_t n) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < k->nparams && o + 1 < n; i++) {
    const PtxParam *p = &k->params[i];
    int w;
    if (p->type == PTX_T_B8 && p->size != 1)
      w = snprintf(buf + o, n - o, "%s.align %u .b8[%u]", i ? ", " : "", p->align, p->size);
    else
      w = snprintf(buf + o, n - o, "%s.%s", i ? ", " : "", la_param_type_name(p->type));
    if (w < 0) break;
    o += (size_t)w;
  }
}

/* Allocates and fills the buffer of spec a (argument argno, or a member of
 * it) named `name`, and writes its address at slot. */
static int bind_buffer(const ArgSpec *a, const char *name, int argno, GlobalMem *g, uint8_t *slot, InitKind dflt,
                       uint64_t seed, WmErr *e) {
  uint8_t init = a->init == INIT_DEFAULT ? (uint8_t)dflt : a->init;
  if (init == INIT_DEFAULT) init = INIT_RAND;
  uint64_t bytes = a->count * la_type_bytes(a->type);
  int bi = init == INIT_ZERO ? gmem_alloc(g, bytes, name, a->type, a->count, e)
                             : gmem_alloc_filled(g, bytes, name, a->type, a->count, e);
  if (bi < 0) return -1;
  fill(&g->buf[bi], a, init, seed, argno);
  store_le(slot, g->buf[bi].addr, 8);
  return 0;
}

/* Writes aggregate argument argno at dst (its parameter's bytes), with a
 * fresh buffer for each buffer member ("argN.M (spec)": M counts them;
 * their rand streams are those of arguments 64*(M+1)+N). */
static int bind_agg(const ArgSpec *a, int argno, GlobalMem *g, uint8_t *dst, InitKind dflt, uint64_t seed,
                    WmErr *e) {
  AggLayout *L = la_agg_of(a, e);
  if (!L) return -1;
  memcpy(dst, L->bytes, L->size);
  int rc = 0;
  for (int b = 0; b < L->nbufs && rc == 0; b++) {
    ArgSpec m;
    size_t bad;
    char name[sizeof a->text + 48]; /* "argN.M (" and ")" around the spec */
    rc = arg_parse(a->text + L->buf_from[b], L->buf_len[b], &m, &bad, e);
    snprintf(name, sizeof name, "arg%d.%d (%s)", argno, b, m.text);
    if (rc == 0) rc = bind_buffer(&m, name, LAUNCH_MAX_ARGS * (b + 1) + argno, g, dst + L->buf_at[b], dflt, seed, e);
  }
  free(L);
  return rc;
}

/* Tensor map argument i: its tensor's buffer (its own, filled as buf:
 * fills, or that of argument `over`, bufs[over]), then the map, encoded
 * over it, into the 128-byte parameter or a buffer of its own whose
 * address the pointer parameter gets.  bufs[i] gets its tensor's buffer. */
static int bind_tmap(const PtxKernel *k, const LaunchSpec *l, int i, GlobalMem *g, uint8_t *params, int *bufs,
                     InitKind dflt, uint64_t seed, WmErr *e) {
  const ArgSpec *a = &l->args[i];
  const PtxParam *p = &k->params[i];
  Tmap t;
  int over;
  char name[sizeof a->text + 48], why[300];
  if (lc_tmap_of(a, &t, &over, e)) return -1;
  if (over >= 0) {
    if (over >= i || bufs[over] < 0)
      return wm_err(e, WM_EARGS, "kernel %s, arg%d '%s': over=%d names no earlier buf: or tmap: argument", k->name, i,
                    a->text, over);
    bufs[i] = bufs[over];
  } else {
    ArgSpec b = *a;
    uint8_t slot[8];
    b.kind = ARG_BUF;
    snprintf(name, sizeof name, "arg%d (%s)", i, a->text);
    if (bind_buffer(&b, name, i, g, slot, dflt, seed, e)) return -1;
    bufs[i] = g->n - 1;
  }
  const GBuf *data = &g->buf[bufs[i]];
  if (lc_tmap_extent(&t) > data->size)
    return wm_err(e, WM_EARGS, "kernel %s, arg%d '%s': the tensor spans %llu bytes, argument %d's buffer has %llu",
                  k->name, i, a->text, (unsigned long long)lc_tmap_extent(&t), over,
                  (unsigned long long)data->size);
  t.addr = data->addr;
  if (tmap_check(&t, NULL, why, sizeof why))
    return wm_err(e, WM_EARGS, "kernel %s, arg%d '%s': %s", k->name, i, a->text, why);
  if (p->size == TMAP_BYTES) { /* const __grid_constant__ CUtensorMap */
    tmap_pack(&t, params + p->offset);
    return 0;
  }
  snprintf(name, sizeof name, "arg%d.0 (the tensor map of %s)", i, a->text);
  int mb = gmem_alloc(g, TMAP_BYTES, name, PTX_T_B8, TMAP_BYTES, e);
  if (mb < 0) return -1;
  tmap_pack(&t, g->buf[mb].data);
  store_le(params + p->offset, g->buf[mb].addr, 8);
  return 0;
}

int launch_bind(const PtxKernel *k, const LaunchSpec *l, GlobalMem *g, uint8_t *params,
                InitKind dflt, uint64_t seed, WmErr *e) {
  if (l->nargs != k->nparams) {
    char plist[512];
    param_list(k, plist, sizeof plist);
    return wm_err(e, WM_EARGS,
                  "kernel %s takes %d argument%s (.param %s), %d given\n"
                  "  (a pointer takes buf:TYPE:COUNT[:INIT], a scalar TYPE:VALUE of the same size, a struct\n"
                  "  or vector by value struct{MEMBER,...}, f32x2{V,V} or bytes:HEX)",
                  k->plain_name ? k->plain_name : k->name, k->nparams,
                  k->nparams == 1 ? "" : "s", k->nparams ? plist : "none", l->nargs);
  }
  /* check everything before allocating anything */
  for (int i = 0; i < l->nargs; i++) {
    const ArgSpec *a = &l->args[i];
    const PtxParam *p = &k->params[i];
    unsigned need = a->kind == ARG_BUF || a->kind == ARG_TEX ? 8 : la_type_bytes(a->type);
    if (p->offset > k->param_size || p->size > k->param_size - p->offset)
      return wm_err(e, WM_EARGS, "kernel %s: parameter %s lies outside the parameter buffer",
                    k->name, p->name ? p->name : "?");
    if (a->kind == ARG_AGG) {
      if (la_check_agg(k, i, a, p, e)) return -1;
      continue;
    }
    if (a->kind == ARG_TMAP && p->size != TMAP_BYTES && p->size != 8)
      return wm_err(e, WM_EARGS, "kernel %s, arg%d '%s': a tensor map is a 128-byte .param (const __grid_constant__ "
                    "CUtensorMap) or a pointer to one, but parameter %s is %u bytes", k->plain_name ? k->plain_name : k->name,
                    i, a->text, p->name ? p->name : "?", p->size);
    if (a->kind == ARG_TMAP) continue;
    if (p->size != need) {
      if (a->kind != ARG_SCALAR)
        return wm_err(e, WM_EARGS,
                      "kernel %s, arg%d '%s': a buffer is passed as an 8-byte address (a texture as an 8-byte handle), but "
                      "parameter %s is .%s (%u bytes)",
                      k->plain_name ? k->plain_name : k->name, i, a->text,
                      p->name ? p->name : "?", la_param_type_name(p->type), p->size);
      return wm_err(e, WM_EARGS,
                    "kernel %s, arg%d '%s': %s is %u bytes, but parameter %s is .%s (%u bytes)",
                    k->plain_name ? k->plain_name : k->name, i, a->text, la_type_spec_name(a->type),
                    need, p->name ? p->name : "?", la_param_type_name(p->type), p->size);
    }
  }
  memset(params, 0, k->param_size);
  int bufs[LAUNCH_MAX_ARGS]; /* each buf: and tmap: argument's buffer (for over=N) */
  for (int i = 0; i < l->nargs; i++) {
    const ArgSpec *a = &l->args[i];
    const PtxParam *p = &k->params[i];
    bufs[i] = -1;
    if (a->kind == ARG_TMAP) {
      if (bind_tmap(k, l, i, g, params, bufs, dflt, seed, e)) return -1;
      continue;
    }
    if (a->kind == ARG_SCALAR) {
      store_le(params + p->offset, a->bits, p->size);
      continue;
    }
    if (a->kind == ARG_AGG) {
      if (bind_agg(a, i, g, params + p->offset, dflt, seed, e)) return -1;
      continue;
    }
    char name[sizeof a->text + 32];
    snprintf(name, sizeof name, "arg%d (%s)", i, a->text);
    if (a->kind == ARG_TEX) {
      uint64_t handle;
      if (lc_create_tex(g, a, name, i, dflt, seed, &handle, e)) return -1;
      store_le(params + p->offset, handle, 8);
      continue;
    }
    if (bind_buffer(a, name, i, g, params + p->offset, dflt, seed, e)) return -1;
    bufs[i] = g->n - 1;
  }
  return 0;
}

/* ---- dumps ------------------------------------------------------------- */

static int mkdir_p(const char *dir, WmErr *e) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
    return wm_err(e, WM_EIO, "%s: path too long", dir);
  for (char *q = path + 1;; q++) {
    if (*q != '/' && *q) continue;
    char c = *q;
    *q = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
      return wm_err(e, WM_EIO, "%s: cannot create directory: %s", path, strerror(errno));
    *q = c;
    if (!c) break;
  }
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return wm_err(e, WM_EIO, "%s: not a directory", dir);
  return 0;
}

/* A file-name-safe copy: '#', '/' (and blanks) become '_'. */
static void sanitize(const char *s, char *buf, size_t n) {
  size_t i = 0;
  for (; s[i] && i + 1 < n; i++) {
    char c = s[i];
    buf[i] = (c == '#' || c == '/' || c == ' ' || c == '\t' || c == '\\') ? '_' : c;
  }
  buf[i] = '\0';
}

static int write_file(const char *path, const void *data, size_t n, WmErr *e) {
  FILE *f = fopen(path, "wb");
  if (!f) return wm_err(e, WM_EIO, "%s: cannot create: %s", path, strerror(errno));
  size_t w = n ? fwrite(data, 1, n, f) : 0;
  int bad = w != n || ferror(f);
  if (fclose(f) != 0) bad = 1;
  if (bad) return wm_err(e, WM_EIO, "%s: write error", path);
  return 0;
}

int launch_dump(const char *dir, const LaunchSpec *l, const GlobalMem *g, WmErr *e) {
  if (mkdir_p(dir, e)) return -1;
  char label[sizeof l->label];
  sanitize(l->label, label, sizeof label);
  json_t *root = json_object(), *bufs = json_array();
  json_object_set_new(root, "launch", json_string(l->label));
  json_object_set_new(root, "kernel", json_string(l->name));
  json_object_set_new(root, "grid", json_pack("[III]", (json_int_t)l->grid[0],
                                              (json_int_t)l->grid[1], (json_int_t)l->grid[2]));
  json_object_set_new(root, "block", json_pack("[III]", (json_int_t)l->block[0],
                                               (json_int_t)l->block[1], (json_int_t)l->block[2]));
  json_object_set_new(root, "smem", json_integer(l->smem));
  int rc = 0;
  for (int i = 0; i < g->n && rc == 0; i++) {
    const GBuf *b = &g->buf[i];
    const char *tn = la_type_spec_name(b->type);
    if (!tn) tn = b->type == PTX_T_NONE ? "raw" : la_param_type_name(b->type);
    char stem[96], file[512], path[4096 + 512];
    int argno = -1;
    int member = -1;
    if (sscanf(b->name, "arg%d.%d (", &argno, &member) == 2 && argno >= 0 && argno < LAUNCH_MAX_ARGS) {
      snprintf(stem, sizeof stem, "arg%d.%d", argno, member);
    } else if (sscanf(b->name, "arg%d", &argno) == 1 && argno >= 0 && argno < LAUNCH_MAX_ARGS) {
      snprintf(stem, sizeof stem, "arg%d", argno);
    } else {
      argno = -1;
      sanitize(b->name, stem, sizeof stem);
    }
    snprintf(file, sizeof file, "%s.%s.%s.bin", label, stem, tn);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    rc = write_file(path, b->data, (size_t)b->size, e);
    char addr[32];
    snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)b->addr);
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(file));
    json_object_set_new(o, "name", json_string(b->name));
    json_object_set_new(o, "arg", argno >= 0 ? json_integer(argno) : json_null());
    json_object_set_new(o, "type", json_string(tn));
    json_object_set_new(o, "count", json_integer((json_int_t)b->count));
    json_object_set_new(o, "bytes", json_integer((json_int_t)b->size));
    json_object_set_new(o, "address", json_string(addr));
    json_array_append_new(bufs, o);
  }
  json_object_set_new(root, "buffers", bufs);
  if (rc == 0) {
    char path[4096 + 200];
    snprintf(path, sizeof path, "%s/%s.json", dir, label);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    size_t sl = strlen(s);
    s = wm_xrealloc(s, sl + 2); /* jansson allocates with malloc by default */
    s[sl] = '\n', s[sl + 1] = '\0';
    rc = write_file(path, s, sl + 1, e);
    free(s);
  }
  json_decref(root);
  return rc;
}

/* ---- __constant__, __device__ and __managed__ values -------------------- */

/* Whether --const can set v: a __constant__ variable, or a __device__ or
 * __managed__ one when the caller gave their segment. */
static int settable(const PtxVar *v, const uint8_t *global_mem) {
  return v->space == PTX_S_CONST || (v->space == PTX_S_GLOBAL && global_mem);
}

int launch_set_const(const char *spec, const PtxModule *m, uint8_t *const_mem, uint8_t *global_mem, WmErr *e) {
  const char *eq = strchr(spec, '='), *colon = eq ? strchr(eq + 1, ':') : NULL;
  if (!eq || !colon || eq == spec)
    return wm_err(e, WM_EUSAGE, "--const '%s': write NAME=TYPE:VALUE[,VALUE...]", spec);
  const PtxVar *v = NULL;
  for (int i = 0; i < m->nvars; i++)
    if (settable(&m->vars[i], global_mem) && strlen(m->vars[i].name) == (size_t)(eq - spec) &&
        !strncmp(m->vars[i].name, spec, (size_t)(eq - spec)))
      v = &m->vars[i];
  if (!v) {
    char names[512] = "";
    size_t n = 0;
    for (int i = 0; i < m->nvars && n < sizeof names - 80; i++)
      if (settable(&m->vars[i], global_mem))
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", m->vars[i].name);
    return wm_err(e, WM_EUSAGE, "--const '%s': %s has no %s variable %.*s (it has: %s)", spec, m->path,
                  global_mem ? "__constant__, __device__ or __managed__" : "__constant__", (int)(eq - spec), spec,
                  n ? names : "none");
  }
  uint8_t *seg = v->space == PTX_S_CONST ? const_mem : global_mem;
  uint8_t t;
  if (la_lookup_type(eq + 1, (size_t)(colon - eq - 1), &t))
    return wm_err(e, WM_EUSAGE, "--const '%s': unknown type '%.*s' (" TYPE_LIST ")",
                  spec, (int)(colon - eq - 1), eq + 1);
  unsigned es = la_type_bytes(t);
  uint64_t at = v->offset;
  for (const char *p = colon + 1;;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    uint64_t bits;
    if (la_parse_value(p, len, t, &bits, e)) {
      char msg[sizeof e->msg];
      memcpy(msg, e->msg, sizeof msg);
      return wm_err(e, WM_EUSAGE, "--const '%s': %s", spec, msg);
    }
    if (at + es > v->offset + v->size)
      return wm_err(e, WM_EUSAGE, "--const '%s': %s holds %u bytes, the values need more", spec, v->name,
                    v->size);
    store_le(seg + at, bits, es);
    at += es;
    if (!end) break;
    p = end + 1;
  }
  return 0;
}
