/* rt_select.c - which launches get the full model, as Nsight Compute
 * chooses which to profile: --kernel-name (a name, or a POSIX ERE, matched
 * against the base name, the mangled name and the demangled one),
 * --launch-skip N of the matching launches first, then --launch-count N;
 * --profile-once: of those, only each kernel's first.
 * The others run functionally (outputs only), as ncu replays only what it
 * profiles. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_int.h"

/* The C++ runtime's demangler, if the application loaded it (a C++
 * application has): no libstdc++ of our own. */
typedef char *(*DemangleFn)(const char *, char *, size_t *, int *);

char *rtx_demangle(const char *mangled) {
  if (!mangled || strncmp(mangled, "_Z", 2)) return NULL;
  DemangleFn fn = (DemangleFn)(uintptr_t)dlsym(RTLD_DEFAULT, "__cxa_demangle");
  if (!fn) return NULL;
  int status = -1;
  char *out = fn(mangled, NULL, NULL, &status);
  if (status != 0) {
    free(out);
    return NULL;
  }
  return out;
}

/* The function's own name in a demangled one, as ncu's base names are:
 * "void ns::Kernel<A, B>(int*)" -> "Kernel"; NULL if none is found. */
char *rtx_base_name(const char *demangled) {
  if (!demangled) return NULL;
  const char *end = NULL;
  int depth = 0;
  for (const char *p = demangled; *p && !end; p++) {
    if (*p == '<') depth++;
    else if (*p == '>') depth--;
    else if (*p == '(' && depth == 0) end = p;
  }
  if (!end) end = demangled + strlen(demangled);
  while (end > demangled && end[-1] == '>') { /* its template arguments */
    int d = 0;
    const char *p = end;
    do {
      p--;
      d += *p == '>' ? 1 : *p == '<' ? -1 : 0;
    } while (p > demangled && d > 0);
    end = p;
  }
  const char *start = end;
  while (start > demangled && (isalnum((unsigned char)start[-1]) || start[-1] == '_' || start[-1] == '~')) start--;
  return start < end ? wm_xstrndup(start, (size_t)(end - start)) : NULL;
}

/* Whether s is the filter's name or matches its expression. */
static int matches(const char *s) {
  if (!s) return 0;
  if (rtx.cfg.kernel_regex) return regexec(&rtx.cfg.re, s, 0, NULL, 0) == 0;
  return strcmp(s, rtx.cfg.kernel) == 0;
}

static int filter_matches(const RtFunction *f) {
  if (!rtx.cfg.kernel) return 1;
  return matches(f->base) || matches(f->name) || matches(f->demangled);
}

int rtx_select(RtFunction *f) {
  if (!filter_matches(f)) return 0;
  uint64_t nth = rtx.matched++;
  if (nth < rtx.cfg.skip) return 0;
  if (rtx.cfg.count && rtx.profiled >= rtx.cfg.count) return 0;
  /* --profile-once: a kernel's repeats are the same work on the same
   * shapes in a benchmark loop; its first launch stands for them */
  if (rtx.cfg.once && f->profiled) return 0;
  f->profiled = 1;
  rtx.profiled++;
  return 1;
}
