/* lab_catalogue.c - reads the lab's catalogue (see lab_catalogue.h and
 * docs/lab.md for the format).
 *
 * Notes:
 * - The `//@` lines are parsed by launch.c (one grammar for sim and lab);
 *   this file only attaches the `//!` metadata to them by line order.
 * - A `//! gpu:` spec is parsed by the same code, from a synthetic
 *   `//@ LABEL SPEC` line placed at the same line number, so its errors
 *   name the right file and line.
 * - Names must be unique across the whole catalogue: groups and experiments
 *   among themselves, launch labels among themselves (--only selects by
 *   any of them, and results.json is keyed by them).
 */
#include "lab/lab_catalogue.h"
#include "util/sys.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scopes a key may appear in. */
enum { S_GROUP = 1, S_EXP = 2, S_LAUNCH = 4, S_ANY = 7 };

/* X(ENUM, "key", scopes, "what it gives") -- the one table of keys. */
#define LAB_KEYS(X)                                                                          \
  X(GROUP, "group", S_ANY, "starts a group: one table")                                      \
  X(EXP, "exp", S_ANY, "starts an experiment in the group")                                  \
  X(TITLE, "title", S_GROUP | S_EXP, "one line saying what it is")                           \
  X(SEED, "seed", S_GROUP, "the seed document's number")                                     \
  X(SEED_SAYS, "seed-says", S_EXP, "the seed's own words and numbers")                       \
  X(PEAK, "peak", S_EXP, "copy | cublas N | none: what % of peak compares with")             \
  X(BYTES, "bytes", S_EXP | S_LAUNCH, "bytes read + written at the GPU size")                \
  X(FLOPS, "flops", S_EXP | S_LAUNCH, "floating-point operations at the GPU size")           \
  X(WHY, "why", S_EXP | S_LAUNCH, "why the seed's speedup and ours differ")                  \
  X(SCALE, "scale", S_EXP | S_LAUNCH, "work at the GPU size / work simulated (default: ratio of threads)") \
  X(GPU, "gpu", S_LAUNCH, "the launch at the GPU size: grid=.. block=.. [smem=..] args=..")  \
  X(SPEEDUP, "speedup", S_LAUNCH, "the seed's speedup over the baseline")                    \
  X(REPORTED, "reported", S_LAUNCH, "the seed's number or words for this launch")            \
  X(TOLERATE, "tolerate", S_LAUNCH, "output elements a race may change")                     \
  X(CARVEOUT, "carveout", S_LAUNCH, "preferred shared-memory carveout, percent")              \
  X(NVCC, "nvcc", S_ANY, "the file's own nvcc flags (tools/build_ptx.py's; the lab reads PTX)")

typedef enum {
#define X(e, key, scopes, what) K_##e,
  LAB_KEYS(X)
#undef X
  K_COUNT
} LabKey;

static const struct {
  const char *key;
  int scopes;
} keys[K_COUNT] = {
#define X(e, key, scopes, what) {key, scopes},
  LAB_KEYS(X)
#undef X
};

static const char *scope_name(int s) {
  return s == S_GROUP ? "a group (after '//! group:')"
         : s == S_EXP ? "an experiment (after '//! exp:')"
                      : "a launch (after a //@ line)";
}

static const char *allowed_scopes(int scopes) {
  switch (scopes) {
  case S_GROUP: return "a group";
  case S_EXP: return "an experiment";
  case S_LAUNCH: return "a launch";
  case S_GROUP | S_EXP: return "a group or an experiment";
  case S_EXP | S_LAUNCH: return "an experiment or a launch";
  default: return "anywhere";
  }
}

const char *lab_peak_name(LabPeak p) {
  return p == LAB_PEAK_COPY ? "copy" : p == LAB_PEAK_CUBLAS ? "cublas" : "none";
}

/* ---- the parser's state -------------------------------------------------- */

typedef struct Parser {
  LabCatalogue *c;
  WmErr *e;
  const char *path, *text;
  int file;
  int scope;              /* S_GROUP, S_EXP, S_LAUNCH, or 0 before the first group */
  LaunchSpec *specs;      /* the file's //@ lines, in order */
  int nspecs, next_spec;
  int first_launch;       /* the file's first launch in c->launches */
  unsigned char *bytes_set, *flops_set; /* per launch of this file: given on it */
} Parser;

/* One line of the file: its number, start, and the text after `//!`. */
typedef struct Line {
  int no;
  const char *start, *end;
} Line;

static int fail_at(Parser *P, const Line *L, const char *at, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

static int fail_at(Parser *P, const Line *L, const char *at, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int col = at ? (int)(at - L->start) + 1 : 0;
  return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, L->no, col, "%s", msg);
}

static LabGroup *cur_group(Parser *P) { return &P->c->groups[P->c->ngroups - 1]; }
static LabExp *cur_exp(Parser *P) { return &P->c->exps[P->c->nexps - 1]; }
static LabLaunch *cur_launch(Parser *P) { return &P->c->launches[P->c->nlaunches - 1]; }

/* ---- values ---------------------------------------------------------------- */

/* A name: letters, digits, '_', '-', '.'. */
static int valid_name(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
          *s == '-' || *s == '.'))
      return 0;
  return 1;
}

static int parse_number(const char *s, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || !isfinite(v) || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

/* peak: copy | none | cublas N */
static int parse_peak(const char *v, LabExp *x) {
  if (!strcmp(v, "copy")) x->peak = LAB_PEAK_COPY;
  else if (!strcmp(v, "none")) x->peak = LAB_PEAK_NONE;
  else if (!strncmp(v, "cublas ", 7)) {
    double n;
    if (parse_number(v + 7, 1, 65536, &n) || n != floor(n)) return -1;
    x->peak = LAB_PEAK_CUBLAS;
    x->peak_n = (int)n;
  } else {
    return -1;
  }
  return 0;
}

/* Parses `spec` as the //@ line of launch `label` at line L->no. */
static int parse_gpu_spec(Parser *P, const Line *L, const char *label, const char *spec, LaunchSpec *out) {
  size_t n = (size_t)L->no + strlen(label) + strlen(spec) + 16;
  char *text = wm_xmalloc(n);
  size_t k = 0;
  for (int i = 1; i < L->no; i++) text[k++] = '\n';
  snprintf(text + k, n - k, "//@ %s %s\n", label, spec);
  LaunchSpec *ls = NULL;
  int cnt = 0;
  int rc = launch_parse_file(P->path, text, &ls, &cnt, P->e);
  if (rc == 0 && cnt == 1) *out = ls[0];
  free(ls);
  free(text);
  return rc;
}

/* ---- structure ------------------------------------------------------------- */

static void start_group(Parser *P, const char *name, int line) {
  LabCatalogue *c = P->c;
  c->groups = wm_xrealloc(c->groups, sizeof *c->groups * (size_t)(c->ngroups + 1));
  c->groups[c->ngroups++] = (LabGroup){.name = wm_xstrdup(name), .seed = -1, .first = c->nexps,
                                       .file = P->file, .line = line};
  P->scope = S_GROUP;
}

static void start_exp(Parser *P, const char *name, int line) {
  LabCatalogue *c = P->c;
  c->exps = wm_xrealloc(c->exps, sizeof *c->exps * (size_t)(c->nexps + 1));
  c->exps[c->nexps++] = (LabExp){.name = wm_xstrdup(name), .group = c->ngroups - 1,
                                 .first = c->nlaunches, .line = line};
  cur_group(P)->n++;
  P->scope = S_EXP;
}

/* The //@ line `spec` becomes the next launch of the current experiment. */
static int start_launch(Parser *P, const Line *L, const LaunchSpec *spec) {
  LabCatalogue *c = P->c;
  if (P->scope == 0 || c->nexps == 0 || c->exps[c->nexps - 1].group != c->ngroups - 1)
    return fail_at(P, L, L->start, "launch '%s' is outside an experiment: put '//! exp: NAME' above it",
                   spec->label);
  c->launches = wm_xrealloc(c->launches, sizeof *c->launches * (size_t)(c->nlaunches + 1));
  LabLaunch *l = &c->launches[c->nlaunches++];
  memset(l, 0, sizeof *l);
  l->sim = *spec;
  l->gpu = *spec;
  l->carveout = -1;
  l->exp = c->nexps - 1;
  l->file = P->file;
  cur_exp(P)->n++;
  int i = c->nlaunches - 1 - P->first_launch;
  P->bytes_set = wm_xrealloc(P->bytes_set, (size_t)i + 1);
  P->flops_set = wm_xrealloc(P->flops_set, (size_t)i + 1);
  P->bytes_set[i] = P->flops_set[i] = 0;
  P->scope = S_LAUNCH;
  return 0;
}

/* ---- one `//! key: value` line -------------------------------------------- */

static int key_line(Parser *P, const Line *L, const char *p) {
  while (p < L->end && (*p == ' ' || *p == '\t')) p++;
  const char *end = L->end;
  while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
  if (p == end) return 0; /* a bare //! spaces the file */
  const char *colon = memchr(p, ':', (size_t)(end - p));
  LabKey k = K_COUNT;
  for (int i = 0; colon && i < K_COUNT; i++)
    if ((size_t)(colon - p) == strlen(keys[i].key) && !memcmp(p, keys[i].key, (size_t)(colon - p))) k = (LabKey)i;
  if (k == K_COUNT)
    return fail_at(P, L, p,
                   "expected 'KEY: VALUE' with KEY one of group, exp, title, seed, seed-says, peak, bytes, "
                   "flops, why, scale, gpu, speedup, reported, tolerate, carveout, nvcc");
  const char *v0 = colon + 1;
  while (v0 < end && (*v0 == ' ' || *v0 == '\t')) v0++;
  if (v0 == end) return fail_at(P, L, v0, "'%s:' needs a value", keys[k].key);
  char *v = wm_xstrndup(v0, (size_t)(end - v0));
  int rc = 0;
  if (k == K_NVCC) {
    /* anywhere, even above the first group: only the PTX build reads it */
  } else if (k != K_GROUP && P->scope == 0) {
    rc = fail_at(P, L, p, "'%s:' before the first '//! group:'", keys[k].key);
  } else if (!(keys[k].scopes & P->scope) && k != K_GROUP) {
    rc = fail_at(P, L, p, "'%s:' belongs to %s, not to %s", keys[k].key, allowed_scopes(keys[k].scopes),
                 scope_name(P->scope));
  } else {
    double x;
    switch (k) {
    case K_GROUP:
      if (!valid_name(v)) rc = fail_at(P, L, v0, "a group name is letters, digits, '_', '-' and '.'");
      else start_group(P, v, L->no);
      break;
    case K_EXP:
      if (!valid_name(v)) rc = fail_at(P, L, v0, "an experiment name is letters, digits, '_', '-' and '.'");
      else start_exp(P, v, L->no);
      break;
    case K_TITLE:
      if (P->scope == S_GROUP) free(cur_group(P)->title), cur_group(P)->title = v, v = NULL;
      else free(cur_exp(P)->title), cur_exp(P)->title = v, v = NULL;
      break;
    case K_SEED:
      if (parse_number(v, 0, 999, &x) || x != floor(x)) rc = fail_at(P, L, v0, "seed: a number such as 003");
      else cur_group(P)->seed = (int)x;
      break;
    case K_SEED_SAYS: free(cur_exp(P)->seed_says), cur_exp(P)->seed_says = v, v = NULL; break;
    case K_PEAK:
      if (parse_peak(v, cur_exp(P))) rc = fail_at(P, L, v0, "peak: copy, none or 'cublas N' (N the SGEMM size)");
      break;
    case K_BYTES:
    case K_FLOPS:
      if (parse_number(v, 1, 1e18, &x)) {
        rc = fail_at(P, L, v0, "%s: a positive number", keys[k].key);
      } else if (P->scope == S_EXP) {
        *(k == K_BYTES ? &cur_exp(P)->bytes : &cur_exp(P)->flops) = x;
      } else {
        *(k == K_BYTES ? &cur_launch(P)->bytes : &cur_launch(P)->flops) = x;
        int i = P->c->nlaunches - 1 - P->first_launch;
        (k == K_BYTES ? P->bytes_set : P->flops_set)[i] = 1;
      }
      break;
    case K_SCALE:
      if (parse_number(v, 1e-9, 1e12, &x)) rc = fail_at(P, L, v0, "scale: a positive number (4096 for 16x the size of a matrix multiply)");
      else if (P->scope == S_EXP) cur_exp(P)->scale = x;
      else cur_launch(P)->scale = x;
      break;
    case K_WHY:
      if (P->scope == S_EXP) free(cur_exp(P)->why), cur_exp(P)->why = v, v = NULL;
      else free(cur_launch(P)->why), cur_launch(P)->why = v, v = NULL;
      break;
    case K_GPU: {
      LabLaunch *l = cur_launch(P);
      if (l->has_gpu_spec) {
        rc = fail_at(P, L, p, "launch '%s' has two gpu: lines", l->sim.label);
      } else if (parse_gpu_spec(P, L, l->sim.label, v, &l->gpu) == 0) {
        l->has_gpu_spec = 1;
        if (strcmp(l->gpu.name, l->sim.name)) rc = fail_at(P, L, v0, "gpu: runs a different kernel");
      } else {
        rc = -1;
      }
      break;
    }
    case K_SPEEDUP:
      if (parse_number(v, 1e-6, 1e6, &x)) rc = fail_at(P, L, v0, "speedup: a positive number (2.6 for 2.6x)");
      else cur_launch(P)->seed_speedup = x;
      break;
    case K_REPORTED: free(cur_launch(P)->reported), cur_launch(P)->reported = v, v = NULL; break;
    case K_TOLERATE:
      if (parse_number(v, 0, 1e15, &x) || x != floor(x)) rc = fail_at(P, L, v0, "tolerate: a count of elements");
      else cur_launch(P)->tolerate = (uint64_t)x;
      break;
    case K_CARVEOUT:
      if (parse_number(v, 0, 100, &x) || x != floor(x)) rc = fail_at(P, L, v0, "carveout: a percent, 0 to 100");
      else cur_launch(P)->carveout = (int)x;
      break;
    case K_NVCC: case K_COUNT: break; /* nvcc: tools/build_ptx.py's */
    }
  }
  free(v);
  return rc;
}

/* ---- after a file: defaults and checks -------------------------------------- */

static int finish_file(Parser *P, int first_group, int first_exp) {
  LabCatalogue *c = P->c;
  for (int g = first_group; g < c->ngroups; g++)
    if (c->groups[g].n == 0)
      return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, c->groups[g].line, 0,
                       "group '%s' has no experiment ('//! exp: NAME' and //@ lines)", c->groups[g].name);
  for (int x = first_exp; x < c->nexps; x++) {
    LabExp *ex = &c->exps[x];
    if (ex->n == 0)
      return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, ex->line, 0, "experiment '%s' has no //@ launch",
                       ex->name);
    for (int i = ex->first; i < ex->first + ex->n; i++) {
      LabLaunch *l = &c->launches[i];
      int j = i - P->first_launch;
      if (!P->bytes_set[j]) l->bytes = ex->bytes;
      if (!P->flops_set[j]) l->flops = ex->flops;
      if (l->scale == 0) l->scale = ex->scale > 0 ? ex->scale : (double)launch_threads(&l->gpu) / (double)launch_threads(&l->sim);
      if ((ex->peak == LAB_PEAK_COPY && l->bytes <= 0) || (ex->peak == LAB_PEAK_CUBLAS && l->flops <= 0))
        return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, l->sim.line, 0,
                         "launch '%s': experiment '%s' compares with %s, so it needs %s: (on it or on the "
                         "experiment)",
                         l->sim.label, ex->name, lab_peak_name(ex->peak), ex->peak == LAB_PEAK_COPY ? "bytes" : "flops");
    }
  }
  return 0;
}

/* Unique names across the catalogue so far (the new file's against all). */
static int check_unique(Parser *P, int first_group, int first_exp) {
  LabCatalogue *c = P->c;
  for (int g = first_group; g < c->ngroups; g++) {
    for (int h = 0; h < g; h++)
      if (!strcmp(c->groups[g].name, c->groups[h].name))
        return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, c->groups[g].line, 0, "group '%s' is defined twice",
                         c->groups[g].name);
    for (int x = 0; x < c->nexps; x++)
      if (!strcmp(c->groups[g].name, c->exps[x].name))
        return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, c->groups[g].line, 0,
                         "group '%s' has the name of an experiment", c->groups[g].name);
  }
  for (int x = first_exp; x < c->nexps; x++)
    for (int y = 0; y < x; y++)
      if (!strcmp(c->exps[x].name, c->exps[y].name))
        return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, c->exps[x].line, 0, "experiment '%s' is defined twice",
                         c->exps[x].name);
  for (int i = P->first_launch; i < c->nlaunches; i++)
    for (int j = 0; j < P->first_launch; j++)
      if (!strcmp(c->launches[i].sim.label, c->launches[j].sim.label))
        return wm_err_at(P->e, WM_EUSAGE, P->path, P->text, c->launches[i].sim.line, 0,
                         "launch '%s' is also in %s (labels are unique across the catalogue)",
                         c->launches[i].sim.label, c->files[c->launches[j].file].cu);
  return 0;
}

/* DIR/X.cu's PTX is DIR/ptx/X.ptx: generated files kept apart from the
 * sources (tools/build_ptx.py writes them; a ctest checks them). */
static void add_file(LabCatalogue *c, const char *path) {
  c->files = wm_xrealloc(c->files, sizeof *c->files * (size_t)(c->nfiles + 1));
  LabFile *f = &c->files[c->nfiles++];
  f->cu = wm_xstrdup(path);
  size_t n = strlen(path), cap = n + 9;
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  int dir = (int)(base - path), stem = (int)(n - (size_t)dir);
  if (stem > 3 && wm_ends_with(path, ".cu")) stem -= 3;
  f->ptx = wm_xmalloc(cap);
  snprintf(f->ptx, cap, "%.*sptx/%.*s.ptx", dir, path, stem, base);
}

int lab_catalogue_parse(LabCatalogue *c, const char *path, const char *text, WmErr *e) {
  Parser P = {.c = c, .e = e, .path = path, .text = text, .first_launch = c->nlaunches};
  if (launch_parse_file(path, text, &P.specs, &P.nspecs, e)) return -1;
  add_file(c, path);
  P.file = c->nfiles - 1;
  int first_group = c->ngroups, first_exp = c->nexps, rc = 0;
  const char *p = text;
  for (int no = 1; *p && rc == 0; no++) {
    const char *end = strchr(p, '\n');
    if (!end) end = p + strlen(p);
    Line L = {no, p, end};
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (P.next_spec < P.nspecs && P.specs[P.next_spec].line == no) rc = start_launch(&P, &L, &P.specs[P.next_spec++]);
    else if (end - q >= 3 && !memcmp(q, "//!", 3)) rc = key_line(&P, &L, q + 3);
    p = *end ? end + 1 : end;
  }
  if (rc == 0) rc = finish_file(&P, first_group, first_exp);
  if (rc == 0) rc = check_unique(&P, first_group, first_exp);
  free(P.specs);
  free(P.bytes_set);
  free(P.flops_set);
  return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int lab_catalogue_load(LabCatalogue *c, const char *dir, WmErr *e) {
  memset(c, 0, sizeof *c);
  DIR *d = opendir(dir);
  if (!d) return wm_err(e, WM_EIO, "cannot read the lab catalogue %s: %s", dir, strerror(errno));
  char **names = NULL;
  int n = 0;
  for (struct dirent *de; (de = readdir(d));) {
    if (strlen(de->d_name) > 3 && wm_ends_with(de->d_name, ".cu")) {
      names = wm_xrealloc(names, sizeof *names * (size_t)(n + 1));
      names[n++] = wm_xstrdup(de->d_name);
    }
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    char *text = wm_read_file(path, NULL, e);
    if (!text) rc = -1;
    else if (strstr(text, "//! group:")) rc = lab_catalogue_parse(c, path, text, e);
    free(text);
  }
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  if (rc == 0 && c->ngroups == 0)
    rc = wm_err(e, WM_EUSAGE, "%s has no catalogue file (a .cu with '//! group:' lines; see docs/lab.md)", dir);
  if (rc) lab_catalogue_free(c);
  return rc;
}

void lab_catalogue_free(LabCatalogue *c) {
  for (int i = 0; i < c->nfiles; i++) free(c->files[i].cu), free(c->files[i].ptx);
  for (int i = 0; i < c->ngroups; i++) free(c->groups[i].name), free(c->groups[i].title);
  for (int i = 0; i < c->nexps; i++)
    free(c->exps[i].name), free(c->exps[i].title), free(c->exps[i].seed_says), free(c->exps[i].why);
  for (int i = 0; i < c->nlaunches; i++) free(c->launches[i].reported), free(c->launches[i].why);
  free(c->files);
  free(c->groups);
  free(c->exps);
  free(c->launches);
  memset(c, 0, sizeof *c);
}

int lab_catalogue_select(const LabCatalogue *c, const char *name, unsigned char *sel) {
  int hits = 0;
  for (int i = 0; i < c->nlaunches; i++) {
    const LabLaunch *l = &c->launches[i];
    const LabExp *x = &c->exps[l->exp];
    if (!strcmp(name, l->sim.label) || !strcmp(name, l->sim.name) || !strcmp(name, x->name) ||
        !strcmp(name, c->groups[x->group].name)) {
      sel[i] = 1;
      hits++;
    }
  }
  return hits;
}
