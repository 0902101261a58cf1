/* fake_libcudart.c - a stand-in for warpmem's own libcudart.so.13 that the
 * tests of `warpmem run` (test_run_cli.c) use before and besides the real
 * one: at the app's exit it writes, to the report file warpmem run named
 * (rt/rt_env.h), who it is (FAKE_WHO: "warpmem", or "nvidia" for the copy
 * an RPATH points to) and every variable warpmem run set, one per line, so
 * that a test sees what reached the runtime. */
#include <stdio.h>
#include <stdlib.h>

#include "rt/rt_env.h"

int fake_cudart_hello(void);
int fake_cudart_hello(void) { return 13; }

static void put(FILE *f, const char *name) {
  const char *v = getenv(name);
  fprintf(f, "%s=%s\n", name, v ? v : "(unset)");
}

__attribute__((destructor)) static void write_report(void) {
  const char *path = getenv(RT_ENV_REPORT);
  FILE *f = path ? fopen(path, "w") : stdout;
  if (!f) return;
  fprintf(f, "fake runtime: %s\n", FAKE_WHO);
  const char *const names[] = {RT_ENV_FORMAT, RT_ENV_LINES, RT_ENV_ARCH, RT_ENV_KERNEL, RT_ENV_SKIP,
                               RT_ENV_COUNT, RT_ENV_CACHES, RT_ENV_LOADS, RT_ENV_PROGRESS, RT_ENV_MEMLIMIT,
                               RT_ENV_STACK, RT_ENV_HEAP, RT_ENV_MAXINSTR, RT_ENV_TIMEOUT};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) put(f, names[i]);
  if (f != stdout) fclose(f);
}
