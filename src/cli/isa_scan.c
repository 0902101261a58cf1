/* isa_scan.c - `warpmem isa --scan FILE...`: which kernels of a set of
 * files warpmem would refuse, found without running any.
 *
 * Each file is loaded as `warpmem sim` loads it (a .cu through nvcc) and
 * every kernel goes through the two gates a launch passes: the parser's
 * per-kernel refusal (ptx_find_kernel) and the decoding for the emulator
 * (emu_check).  The first refusal of a kernel is its reason; reasons are
 * grouped under a short key (the mnemonic and what about it is missing) so
 * that a census of many files says which features matter most. */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "emu/emu.h"
#include "ptx/ptx.h"
#include "util/sys.h"

typedef struct ScanKernel {
  char *name, *plain;  /* PTX (mangled) and C++ names */
  char *key;           /* NULL: ok; else the grouping key of the reason */
  char *where;         /* PTX file:line:col of the refusal */
  char *cuda;          /* CUDA file:line from the nearest .loc, or "" */
  char *message;       /* the located message, first line */
} ScanKernel;

typedef struct ScanFile {
  const char *path;
  char *error;         /* the file could not be loaded (first line) */
  char *error_key;     /* ... for a reason of its own (a refusal), else NULL */
  ScanKernel *k;
  int nk, refused;
} ScanFile;

typedef struct Reason {
  const char *key;
  int count;
} Reason;

/* ------------------------------------------------------------ reasons */

/* The first line of a (possibly multi-line located) message, owned. */
static char *first_line(const char *msg) {
  const char *nl = strchr(msg, '\n');
  return nl ? wm_xstrndup(msg, (size_t)(nl - msg)) : wm_xstrdup(msg);
}

/* Splits "PATH:LINE:COL: TEXT" at the location: *text after it, the
 * location's length returned (0 if the line has none). */
static size_t split_location(const char *line, const char **text) {
  for (const char *p = line; (p = strchr(p, ':')) != NULL; p++) {
    const char *q = p + 1;
    if (!isdigit((unsigned char)*q)) continue;
    while (isdigit((unsigned char)*q)) q++;
    if (*q != ':' || !isdigit((unsigned char)q[1])) continue;
    q++;
    while (isdigit((unsigned char)*q)) q++;
    if (q[0] != ':' || q[1] != ' ') continue;
    *text = q + 2;
    return (size_t)(q - line);
  }
  *text = line;
  return 0;
}

/* The PTX line number of a location "PATH:LINE:COL", 0 if none. */
static int location_line(const char *where) {
  const char *colon = strrchr(where, ':');
  if (!colon) return 0;
  const char *p = colon;
  while (p > where && isdigit((unsigned char)p[-1])) p--;
  return p > where && p[-1] == ':' ? atoi(p) : 0;
}

/* s[0..n) into buf as a key word: quotes dropped, digits at the end of a
 * %register name dropped (%envreg3 and %envreg5 are one reason). */
static void key_word(char *buf, size_t cap, const char *s, size_t n) {
  if (n >= cap) n = cap - 1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  if (buf[0] == '%')
    while (n > 1 && isdigit((unsigned char)buf[n - 1])) buf[--n] = '\0';
}

/* The quoted word after `after` in text, into buf; 0 if there is none. */
static int quoted_after(const char *text, const char *after, char *buf, size_t cap) {
  const char *p = strstr(text, after);
  if (!p) return 0;
  p = strchr(p + strlen(after), '\'');
  const char *q = p ? strchr(p + 1, '\'') : NULL;
  if (!q) return 0;
  key_word(buf, cap, p + 1, (size_t)(q - p - 1));
  return 1;
}

/* What a refused call calls: the CUDA runtime's device functions by name
 * (they need support of their own: the heap, assert's trap), the rest by
 * kind. */
static const char *callee_kind(const char *text) {
  static const char *const runtime[][2] = {
      {"vprintf", "vprintf (printf)"},  {"'__assertfail'", "__assertfail (assert)"},
      {"'malloc'", "malloc (device heap)"}, {"'free'", "free (device heap)"},
      {"cudaGetParameterBuffer", "dynamic parallelism"}, {"cudaLaunchDevice", "dynamic parallelism"},
  };
  for (size_t i = 0; i < sizeof runtime / sizeof runtime[0]; i++)
    if (strstr(text, runtime[i][0])) return runtime[i][1];
  if (strstr(text, "indirect")) return "indirect (function pointer)";
  if (strstr(text, "device function")) return "a device function";
  return "other";
}

/* The key of an unsupported instruction: "add .f16" for a modifier it does
 * not take, "call: vprintf (printf)" and the like for calls, else its
 * mnemonic's first two words ("cp.async", "wmma.load"). */
static char *instruction_key(const char *text, const char *mn) {
  char key[256], mod[64];
  size_t base = strcspn(mn, ".");
  if (quoted_after(text, "modifier", mod, sizeof mod)) {
    snprintf(key, sizeof key, "%.*s %s", (int)base, mn, mod);
  } else if (!strncmp(mn, "call", 4)) {
    snprintf(key, sizeof key, "call: %s", callee_kind(text));
  } else {
    size_t two = base + (mn[base] == '.' ? 1 + strcspn(mn + base + 1, ".") : 0);
    snprintf(key, sizeof key, "%.*s", (int)two, mn);
  }
  return wm_xstrdup(key);
}

/* The grouping key of a refusal's message text (after its location). */
static char *reason_key(const char *text) {
  char mn[128], key[512];
  if (quoted_after(text, "instruction", mn, sizeof mn)) return instruction_key(text, mn);
  /* "unsupported directive '.pragma'", "... special register '%envreg3'" */
  const char *q = strchr(text, '\'');
  const char *end = q ? strchr(q + 1, '\'') : NULL;
  if (end) {
    char word[128];
    key_word(word, sizeof word, q + 1, (size_t)(end - q - 1));
    snprintf(key, sizeof key, "%.*s%s", (int)(q - text), text, word);
  } else {
    size_t n = strcspn(text, ":;(");
    snprintf(key, sizeof key, "%.*s", (int)n, text);
  }
  size_t n = strlen(key);
  while (n && key[n - 1] == ' ') key[--n] = '\0';
  return wm_xstrdup(key);
}

/* ---------------------------------------------------- CUDA source line */

/* A header of the CUDA toolkit (cooperative_groups/details/driver_abi.h,
 * cuda_fp16.hpp, ...): a refusal inside one is shown at the user's line
 * that led there. */
static int toolkit_file(const PtxModule *m, int f) {
  if (f <= 0 || f >= m->nfiles || !m->files[f]) return 1;
  return strstr(m->files[f], "/cuda") && strstr(m->files[f], "/include/");
}

/* The user's file and line of a ".loc F L C[, function_name .., inlined_at
 * F2 L2 C2]" directive: F L if that is not a toolkit header, else the
 * call site F2 L2 if that is not.  0 if not a .loc or neither is. */
static int user_loc(const PtxModule *m, const char *line, int *file, int *ln) {
  while (*line == ' ' || *line == '\t') line++;
  if (strncmp(line, ".loc", 4) || (line[4] != ' ' && line[4] != '\t')) return 0;
  int f, l;
  if (sscanf(line + 4, "%d %d", &f, &l) == 2 && !toolkit_file(m, f)) return *file = f, *ln = l, 1;
  const char *at = strstr(line, "inlined_at");
  if (at && sscanf(at + 10, "%d %d", &f, &l) == 2 && !toolkit_file(m, f)) return *file = f, *ln = l, 1;
  return 0;
}

/* "file.cu:LINE": the user's line of the nearest .loc above PTX line
 * `ptx_line` inside the kernel starting at `entry_line` (nvcc writes the
 * kernel's line before the .loc lines of what it inlines there), or "". */
static char *cuda_line(const PtxModule *m, int entry_line, int ptx_line) {
  int file = 0, ln = 0, at = 1;
  for (const char *p = m->text; p && *p && at < ptx_line; at++) {
    if (at >= entry_line) user_loc(m, p, &file, &ln);
    p = strchr(p, '\n');
    if (p) p++;
  }
  if (!ln) return wm_xstrdup("");
  const char *name = strrchr(m->files[file], '/');
  name = name ? name + 1 : m->files[file];
  char buf[512];
  snprintf(buf, sizeof buf, "%s:%d", name, ln);
  return wm_xstrdup(buf);
}

/* ---------------------------------------------------------- scanning */

/* Fills sk->key and the rest from the refusal e of kernel k. */
static void note_refusal(const PtxModule *m, const PtxKernel *k, const WmErr *e, ScanKernel *sk) {
  sk->message = first_line(e->msg);
  const char *text;
  size_t loc = split_location(sk->message, &text);
  sk->where = wm_xstrndup(sk->message, loc);
  sk->key = reason_key(text);
  sk->cuda = cuda_line(m, (int)k->line, location_line(sk->where));
}

static void scan_kernel(const PtxModule *m, const PtxKernel *k, ScanKernel *sk) {
  sk->name = wm_xstrdup(k->name);
  sk->plain = wm_xstrdup(k->plain_name ? k->plain_name : k->name);
  WmErr e = {0};
  if (ptx_find_kernel(m, k->name, &e) && emu_check(m, k, &e) == 0) return;
  if (!e.msg[0]) wm_err(&e, WM_EUNSUP, "refused for no stated reason");
  note_refusal(m, k, &e, sk);
}

/* The C++ name of a mangled entry, enough to show it: _Z7reduce0IfEvPKT_
 * -> reduce0 (a nested name shows its first part). */
static char *shown_name(const char *name, size_t n) {
  if (n > 2 && !strncmp(name, "_Z", 2)) {
    const char *p = name + 2 + (name[2] == 'N');
    char *end;
    long len = strtol(p, &end, 10);
    if (len > 0 && end > p && len <= (long)(name + n - end)) return wm_xstrndup(end, (size_t)len);
  }
  return wm_xstrndup(name, n);
}

/* A file whose module is refused as a whole (it does not parse: an
 * identifier, directive or state space warpmem does not know): when it is
 * PTX, every .entry in it is listed as refused for that reason. */
static void refuse_whole_file(ScanFile *f, const WmErr *e) {
  const char *text;
  size_t loc = split_location(f->error, &text);
  f->error_key = reason_key(text);
  char *ptx = wm_ends_with(f->path, ".cu") ? NULL : wm_read_file(f->path, NULL, &(WmErr){0});
  int cap = 0;
  for (const char *p = ptx; p && (p = strstr(p, ".entry")) != NULL; p += 6) cap++;
  f->k = wm_xcalloc((size_t)cap + 1, sizeof *f->k);
  for (const char *p = ptx; p && (p = strstr(p, ".entry")) != NULL; p += 6) {
    const char *name = p + 6;
    while (*name == ' ' || *name == '\t') name++;
    size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$");
    if (!n || (p > ptx && p[-1] != ' ' && p[-1] != '\n' && p[-1] != '\t')) continue;
    ScanKernel *k = &f->k[f->nk++];
    k->name = wm_xstrndup(name, n);
    k->plain = shown_name(name, n);
    k->key = wm_xstrdup(f->error_key);
    k->where = wm_xstrndup(f->error, loc);
    k->cuda = wm_xstrdup("");
    k->message = first_line(e->msg);
  }
  f->refused = f->nk;
  free(ptx);
}

/* Loads one file and scans its kernels.  A file that cannot be read or
 * compiled is an error; one whose PTX warpmem does not parse is refused as
 * a whole (nvcc's PTX is valid: what fails is warpmem's support). */
static void scan_file(const char *path, const char *arch, ScanFile *f) {
  memset(f, 0, sizeof *f);
  f->path = path;
  WmErr e = {0};
  PtxModule *m = ptx_load(path, arch, &e);
  if (!m) {
    f->error = first_line(e.msg);
    if (e.code == WM_EUNSUP || e.code == WM_EPARSE) refuse_whole_file(f, &e);
    return;
  }
  f->k = wm_xcalloc((size_t)m->nkernels + 1, sizeof *f->k);
  f->nk = m->nkernels;
  for (int i = 0; i < m->nkernels; i++) {
    scan_kernel(m, &m->kernels[i], &f->k[i]);
    f->refused += f->k[i].key != NULL;
  }
  ptx_module_free(m);
}

static void scan_file_free(ScanFile *f) {
  for (int i = 0; i < f->nk; i++) {
    ScanKernel *k = &f->k[i];
    free(k->name), free(k->plain), free(k->key), free(k->where), free(k->cuda), free(k->message);
  }
  free(f->k);
  free(f->error);
  free(f->error_key);
}

/* ------------------------------------------------------------ summary */

static void count_reason(Reason *r, int *n, const char *key) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(r[i].key, key)) {
      r[i].count++;
      return;
    }
  r[(*n)++] = (Reason){key, 1};
}

static int by_count(const void *a, const void *b) {
  const Reason *x = a, *y = b;
  if (x->count != y->count) return y->count - x->count;
  return strcmp(x->key, y->key);
}

/* The reasons of files[0..n) with their counts, most common first; *nr
 * set.  The caller frees the array (the keys belong to the files). */
static Reason *group_reasons(const ScanFile *files, int n, int *nr) {
  int cap = 1;
  for (int i = 0; i < n; i++) cap += files[i].nk + 1;
  Reason *r = wm_xcalloc((size_t)cap, sizeof *r);
  *nr = 0;
  for (int i = 0; i < n; i++) {
    if (files[i].error_key && !files[i].nk) count_reason(r, nr, files[i].error_key);
    for (int j = 0; j < files[i].nk; j++)
      if (files[i].k[j].key) count_reason(r, nr, files[i].k[j].key);
  }
  qsort(r, (size_t)*nr, sizeof *r, by_count);
  return r;
}

/* ------------------------------------------------------------- output */

static void print_reasons(const char *indent, const ScanFile *files, int n) {
  int nr;
  Reason *r = group_reasons(files, n, &nr);
  for (int i = 0; i < nr; i++) printf("%s%5d  %s\n", indent, r[i].count, r[i].key);
  free(r);
}

/* Kernel i's C++ name, with its PTX name beside it when another kernel
 * of the file has the same C++ name (template instances, overloads). */
static void shown_kernel(const ScanFile *f, int i, char *buf, size_t n) {
  const ScanKernel *k = &f->k[i];
  int twin = 0;
  for (int j = 0; j < f->nk && !twin; j++) twin = j != i && !strcmp(f->k[j].plain, k->plain);
  if (twin) snprintf(buf, n, "%s (%s)", k->plain, k->name);
  else snprintf(buf, n, "%s", k->plain);
}

static void print_file_text(const ScanFile *f) {
  if (f->error && !f->error_key) {
    printf("%s: error: %s\n", f->path, f->error);
    return;
  }
  if (f->error_key)
    printf("%s: refused as a whole (%d kernel%s): %s\n", f->path, f->nk, f->nk == 1 ? "" : "s", f->error);
  else
    printf("%s: %d kernel%s, %d refused\n", f->path, f->nk, f->nk == 1 ? "" : "s", f->refused);
  for (int i = 0; i < f->nk; i++) {
    const ScanKernel *k = &f->k[i];
    char name[1024];
    shown_kernel(f, i, name, sizeof name);
    if (!k->key) {
      printf("  ok       %s\n", name);
      continue;
    }
    printf("  refused  %s  [%s]  at %s%s%s: %s\n", name, k->key, k->cuda[0] ? k->cuda : "",
           k->cuda[0] ? ", PTX " : "", k->where, k->message + strlen(k->where) + (k->where[0] ? 2 : 0));
  }
  if (f->refused && !f->error_key) print_reasons("    ", f, 1);
}

static void totals(const ScanFile *files, int n, int *kernels, int *refused, int *errors) {
  *kernels = *refused = *errors = 0;
  for (int i = 0; i < n; i++) {
    *kernels += files[i].nk;
    *refused += files[i].refused + (files[i].error_key && !files[i].nk);
    *errors += files[i].error && !files[i].error_key;
  }
}

static void print_text(const ScanFile *files, int n) {
  for (int i = 0; i < n; i++) print_file_text(&files[i]);
  int kernels, refused, errors;
  totals(files, n, &kernels, &refused, &errors);
  printf("\ntotal: %d file%s, %d kernels, %d refused", n, n == 1 ? "" : "s", kernels, refused);
  if (errors) printf(", %d file%s not loaded", errors, errors == 1 ? "" : "s");
  printf("\n");
  if (refused) {
    printf("refusals by reason, most common first:\n");
    print_reasons("  ", files, n);
  }
}

static json_t *json_str(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *json_kernel(const ScanKernel *k) {
  json_t *o = json_object();
  json_object_set_new(o, "name", json_string(k->name));
  json_object_set_new(o, "plain_name", json_string(k->plain));
  json_object_set_new(o, "status", json_string(k->key ? "refused" : "ok"));
  if (k->key) {
    json_object_set_new(o, "reason", json_string(k->key));
    json_object_set_new(o, "cuda_line", json_string(k->cuda));
    json_object_set_new(o, "ptx_location", json_string(k->where));
    json_object_set_new(o, "message", json_string(k->message));
  }
  return o;
}

static json_t *json_file(const ScanFile *f) {
  json_t *o = json_object(), *ks = json_array();
  json_object_set_new(o, "path", json_string(f->path));
  json_object_set_new(o, "error", json_str(f->error));
  json_object_set_new(o, "refused_whole_file", json_str(f->error_key));
  json_object_set_new(o, "kernels", json_integer(f->nk));
  json_object_set_new(o, "refused", json_integer(f->refused));
  for (int i = 0; i < f->nk; i++) json_array_append_new(ks, json_kernel(&f->k[i]));
  json_object_set_new(o, "results", ks);
  return o;
}

static void print_json(const ScanFile *files, int n, const char *arch) {
  json_t *root = json_object(), *fs = json_array(), *rs = json_array();
  int kernels, refused, errors, nr;
  totals(files, n, &kernels, &refused, &errors);
  json_object_set_new(root, "arch", json_str(arch));
  for (int i = 0; i < n; i++) json_array_append_new(fs, json_file(&files[i]));
  json_object_set_new(root, "files", fs);
  json_object_set_new(root, "kernels", json_integer(kernels));
  json_object_set_new(root, "refused", json_integer(refused));
  json_object_set_new(root, "files_not_loaded", json_integer(errors));
  Reason *r = group_reasons(files, n, &nr);
  for (int i = 0; i < nr; i++) {
    json_t *o = json_object();
    json_object_set_new(o, "reason", json_string(r[i].key));
    json_object_set_new(o, "count", json_integer(r[i].count));
    json_array_append_new(rs, o);
  }
  free(r);
  json_object_set_new(root, "by_reason", rs);
  json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  putchar('\n');
  json_decref(root);
}

int cli_isa_scan(const char *const *paths, int n, const char *arch, int json) {
  ScanFile *files = wm_xcalloc((size_t)n + 1, sizeof *files);
  for (int i = 0; i < n; i++) scan_file(paths[i], arch, &files[i]);
  if (json) print_json(files, n, arch);
  else print_text(files, n);
  fflush(stdout);
  int kernels, refused, errors;
  totals(files, n, &kernels, &refused, &errors);
  for (int i = 0; i < n; i++) scan_file_free(&files[i]);
  free(files);
  return errors ? 1 : refused ? ISA_SCAN_REFUSED : 0;
}
