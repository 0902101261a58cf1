/* rt_select.c - which launches get the full model, as Nsight Compute
 * chooses which to profile: --kernel-name (a name, or a POSIX ERE, matched
 * against the base name, the mangled name and the demangled one),
 * --launch-skip N of the matching launches first, then --launch-count N.
 * The others run functionally (outputs only), as ncu replays only what it
 * profiles. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
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

/* Whether s is the filter's name or matches its expression. */
static int matches(const char *s) {
  if (!s) return 0;
  if (rtx.cfg.kernel_regex) return regexec(&rtx.cfg.re, s, 0, NULL, 0) == 0;
  return strcmp(s, rtx.cfg.kernel) == 0;
}

static int filter_matches(const RtFunction *f) {
  if (!rtx.cfg.kernel) return 1;
  const char *base = f->k && f->k->plain_name ? f->k->plain_name : f->name;
  return matches(base) || matches(f->name) || matches(f->demangled);
}

int rtx_select(RtFunction *f) {
  if (!filter_matches(f)) return 0;
  uint64_t nth = rtx.matched++;
  if (nth < rtx.cfg.skip) return 0;
  if (rtx.cfg.count && rtx.profiled >= rtx.cfg.count) return 0;
  rtx.profiled++;
  return 1;
}
