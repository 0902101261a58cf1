/* rt_env.c - the environment of rt_env.h, read once into an RtConfig: a
 * value that does not parse is an error naming the variable, never a
 * silent default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_env.h"
#include "rt/rt_int.h"

/* "1234", "64K", "8M", "2G"; -1 if not. */
static int parse_size(const char *s, uint64_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  uint64_t mul = 1;
  if (end == s || s[0] == '-') return -1;
  if (*end == 'K' || *end == 'k') mul = 1ull << 10, end++;
  else if (*end == 'M' || *end == 'm') mul = 1ull << 20, end++;
  else if (*end == 'G' || *end == 'g') mul = 1ull << 30, end++;
  if (*end || (mul > 1 && v > UINT64_MAX / mul)) return -1;
  *out = v * mul;
  return 0;
}

/* A numeric variable within [lo, hi]; unset leaves *out.  -1 with a message. */
static int env_size(const char *var, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t n) {
  const char *v = getenv(var);
  if (!v || !*v) return 0;
  uint64_t x;
  if (parse_size(v, &x) || x < lo || x > hi) {
    snprintf(err, n, "%s='%s': expected a number from %llu to %llu (K, M, G suffixes allowed)", var, v,
             (unsigned long long)lo, (unsigned long long)hi);
    return -1;
  }
  *out = x;
  return 0;
}

/* One of words[] (index into *out); unset leaves *out. */
static int env_choice(const char *var, const char *const *words, int nw, int *out, char *err, size_t n) {
  const char *v = getenv(var);
  if (!v || !*v) return 0;
  for (int i = 0; i < nw; i++)
    if (words[i] && !strcmp(v, words[i])) {
      *out = i;
      return 0;
    }
  size_t used = (size_t)snprintf(err, n, "%s='%s': expected one of", var, v);
  for (int i = 0; i < nw && used < n; i++)
    if (words[i]) used += (size_t)snprintf(err + used, n - used, " %s", words[i]);
  return -1;
}

/* The report's format (RT_ENV_FORMAT), one `warpmem run --format` takes. */
static int env_format(int *out, char *err, size_t n) {
  const char *v = getenv(RT_ENV_FORMAT);
  ReportFormat f;
  char names[96];
  if (!v || !*v) return 0;
  if (report_format_parse(v, REPORT_RUN_FORMATS, &f, names, sizeof names)) {
    snprintf(err, n, "%s='%s': expected %s", RT_ENV_FORMAT, v, names);
    return -1;
  }
  *out = (int)f;
  return 0;
}

/* WARPMEM_RUN_ARCH and WARPMEM_RUN_LOADS into the memory configuration. */
static int env_arch(RtConfig *c, char *err, size_t n) {
  const char *v = getenv(RT_ENV_ARCH);
  if (v && *v) {
    const Arch *a = arch_find(v);
    if (!a) {
      char names[256];
      arch_names(names, sizeof names);
      snprintf(err, n, "%s='%s': the presets are %s", RT_ENV_ARCH, v, names);
      return -1;
    }
    c->o.cfg.arch = a;
    c->o.cfg.sm = a->cc;
  }
  static const char *const loads[] = {[MEM_LOADS_CA] = "ca", [MEM_LOADS_CG] = "cg"};
  int l = -1;
  if (env_choice(RT_ENV_LOADS, loads, (int)(sizeof loads / sizeof *loads), &l, err, n)) return -1;
  if (l >= 0) c->o.cfg.loads = (uint8_t)l;
  return 0;
}

/* WARPMEM_RUN_KERNEL: a name, or regex:EXPR compiled as a POSIX ERE. */
static int env_kernel(RtConfig *c, char *err, size_t n) {
  const char *v = getenv(RT_ENV_KERNEL);
  if (!v || !*v) return 0;
  if (strncmp(v, "regex:", 6)) {
    c->kernel = wm_xstrdup(v);
    return 0;
  }
  int rc = regcomp(&c->re, v + 6, REG_EXTENDED | REG_NOSUB);
  if (rc) {
    char why[160];
    regerror(rc, &c->re, why, sizeof why);
    snprintf(err, n, "%s='%s': not a regular expression (POSIX ERE): %s", RT_ENV_KERNEL, v, why);
    return -1;
  }
  c->kernel = wm_xstrdup(v + 6);
  c->kernel_regex = 1;
  return 0;
}

/* WARPMEM_RUN_TIMEOUT: seconds, above 0 and at most a week (sim --timeout). */
static int env_timeout(RtConfig *c, char *err, size_t n) {
  const char *v = getenv(RT_ENV_TIMEOUT);
  if (!v || !*v) return 0;
  char *end;
  double t = strtod(v, &end);
  if (end == v || *end || !(t > 0) || t > 7 * 86400.0) {
    snprintf(err, n, "%s='%s': expected seconds, above 0 and at most 604800", RT_ENV_TIMEOUT, v);
    return -1;
  }
  c->o.timeout = t;
  return 0;
}

int rtx_env_read(RtConfig *c, char *err, size_t n) {
  memset(c, 0, sizeof *c);
  sim_options_init(&c->o);
  c->o.printf_out = stdout;
  c->progress = 1;
  const char *rep = getenv(RT_ENV_REPORT);
  if (rep && *rep) c->report_path = wm_xstrdup(rep);
  const char *chk = getenv(RT_ENV_CHECK);
  if (chk && *chk) c->check_path = wm_xstrdup(chk);
  static const char *const flag[] = {"0", "1"}, *const line_modes[] = {"0", "1", "2"};
  int fmt = REPORT_TEXT, lines = 0, caches = 1, progress = 1, once = 0;
  uint64_t stack = 0, heap = 0;
  if (env_format(&fmt, err, n) ||
      env_choice(RT_ENV_LINES, line_modes, 3, &lines, err, n) ||
      env_choice(RT_ENV_CACHES, flag, 2, &caches, err, n) ||
      env_choice(RT_ENV_PROGRESS, flag, 2, &progress, err, n) || env_choice(RT_ENV_ONCE, flag, 2, &once, err, n) ||
      env_arch(c, err, n) ||
      env_size(RT_ENV_SKIP, 0, UINT64_MAX, &c->skip, err, n) ||
      env_size(RT_ENV_COUNT, 0, UINT64_MAX, &c->count, err, n) ||
      env_size(RT_ENV_MEMLIMIT, 1, UINT64_MAX, &c->o.mem_limit, err, n) ||
      env_size(RT_ENV_STACK, 16, 1u << 20, &stack, err, n) ||
      env_size(RT_ENV_HEAP, 16, 64ull << 30, &heap, err, n) ||
      env_size(RT_ENV_MAXINSTR, 1, 1ull << 50, &c->o.max_instrs, err, n) || env_timeout(c, err, n) ||
      env_kernel(c, err, n)) {
    rtx_env_free(c);
    return -1;
  }
  c->format = (ReportFormat)fmt;
  c->once = once;
  c->lines = lines;
  c->o.cfg.caches = caches;
  c->progress = progress;
  c->o.stack_size = (uint32_t)stack;
  c->o.heap_size = heap;
  return 0;
}

void rtx_env_free(RtConfig *c) {
  if (c->kernel_regex) regfree(&c->re);
  free(c->kernel);
  free(c->report_path);
  free(c->check_path);
  c->check_path = NULL;
  c->kernel = c->report_path = NULL;
  c->kernel_regex = 0;
}
