/* run_libs.c - `warpmem run`: the functions of cuBLAS, cuBLASLt and cuRAND
 * an application imports that warpmem's stand-ins (build/rt/libcublas.so.13,
 * libcublasLt.so.13, libcurand.so.10) do not define, named before it runs.
 * The loader binds functions lazily, so such an application runs until it
 * first calls one and then stops with the loader's "symbol lookup error:
 * undefined symbol"; this says which beforehand, and what to do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_cmd.h"
#include "util/elf.h"

/* The dynamic symbols of path: calls visit(ctx, name, defined). 0, or -1
 * (no .dynsym: nothing visited). */
static int dynsyms(const char *path, void (*visit)(void *, const char *, int), void *ctx) {
  uint8_t *sym = NULL, *str = NULL;
  size_t nsym = 0, nstr = 0;
  WmErr e = {0};
  if (elf_section(path, ".dynsym", &sym, &nsym, &e) || elf_section(path, ".dynstr", &str, &nstr, &e)) {
    free(sym);
    return -1;
  }
  for (size_t off = 24; off + 24 <= nsym; off += 24) { /* Elf64_Sym; entry 0 is the null symbol */
    uint32_t name;
    uint16_t shndx;
    memcpy(&name, sym + off, 4);
    memcpy(&shndx, sym + off + 6, 2);
    if (name < nstr && memchr(str + name, 0, nstr - name)) visit(ctx, (const char *)str + name, shndx != 0);
  }
  free(sym), free(str);
  return 0;
}

typedef struct {
  const char *prefix, *lib; /* the functions of lib: names starting with prefix */
  char **defined;
  int ndefined;
} LibSyms;

static void add_defined(void *ctx, const char *name, int defined) {
  LibSyms *l = ctx;
  if (!defined || strncmp(name, l->prefix, strlen(l->prefix))) return;
  l->defined = realloc(l->defined, sizeof *l->defined * (size_t)(l->ndefined + 1));
  if (!l->defined) abort();
  l->defined[l->ndefined++] = strdup(name);
}

typedef struct {
  LibSyms *libs;
  int nlibs;
  char missing[3][2048];
  int nmissing[3];
} AppSyms;

/* Which library an imported name belongs to (cublasLt before cublas). */
static void check_import(void *ctx, const char *name, int defined) {
  AppSyms *a = ctx;
  if (defined) return;
  for (int i = 0; i < a->nlibs; i++) {
    LibSyms *l = &a->libs[i];
    if (strncmp(name, l->prefix, strlen(l->prefix))) continue;
    if (i == 1 && !strncmp(name, "cublasLt", 8)) continue; /* cuBLASLt's, checked as such */
    for (int k = 0; k < l->ndefined; k++)
      if (!strcmp(l->defined[k], name)) return;
    size_t len = strlen(a->missing[i]);
    if (len + strlen(name) + 3 < sizeof a->missing[i])
      snprintf(a->missing[i] + len, sizeof a->missing[i] - len, "%s%s", len ? ", " : "", name);
    a->nmissing[i]++;
    return;
  }
}

void run_check_lib_symbols(const RunPlan *p) {
  if (!p->elf.needs_cudalibs) return;
  LibSyms libs[3] = {{"cublasLt", "libcublasLt.so.13", NULL, 0}, {"cublas", "libcublas.so.13", NULL, 0},
                     {"curand", "libcurand.so.10", NULL, 0}};
  for (int i = 0; i < 3; i++) {
    char path[sizeof p->rt_dir + 64];
    snprintf(path, sizeof path, "%s/%s", p->rt_dir, libs[i].lib);
    dynsyms(path, add_defined, &libs[i]);
  }
  AppSyms a = {.libs = libs, .nlibs = 3};
  if (!dynsyms(p->app_path, check_import, &a))
    for (int i = 0; i < 3; i++)
      if (a.nmissing[i])
        fprintf(stderr, "warpmem: %s calls %d function%s of %s that warpmem's stand-in does not implement: %s. It "
                        "runs until it calls one, then stops with 'symbol lookup error: undefined symbol' (docs/run.md "
                        "lists what the stand-ins implement)\n", p->app_path, a.nmissing[i],
                a.nmissing[i] == 1 ? "" : "s", libs[i].lib, a.missing[i]);
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < libs[i].ndefined; k++) free(libs[i].defined[k]);
    free(libs[i].defined);
  }
}
