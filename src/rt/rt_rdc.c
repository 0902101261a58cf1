/* rt_rdc.c - device code built with -rdc=true (separate compilation).
 * __cudaRegisterFatBinary then gets nvcc's device-link module: SASS only,
 * linked by nvlink.  Its wrapper lists the translation units' own fat
 * binaries (fatbin_prelinked), whose PTX was compiled --compile-only:
 * relocatable, with .extern declarations of what the other units define.
 * ptx_merge links those texts into one, which is parsed as one module, so
 * that an extern __device__ variable is one object for every unit.
 *
 * CUDA's device runtime (libcudadevrt's cuda_device_runtime.cu, whose
 * static names nvcc prefixes with that file's name) is a unit too when a
 * kernel launches kernels: it is left out, so that such a kernel is
 * refused as dynamic parallelism (ptx_link) and the others run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_merge.h"
#include "rt/fatbin.h"
#include "rt/rt_int.h"

#define RDC_MAX_UNITS 4096

/* The PTX of one translation unit's fat binary for the preset's arch, if
 * nvcc compiled it relocatable (--compile-only, *reloc = 1); NULL, *reloc
 * 0 and no error for other PTX (a device-link module's units without
 * -rdc=true, which register themselves), so it is not decompressed. */
static char *unit_text(const void *fb, int *reloc, WmErr *e) {
  FatbinEntry *en = NULL;
  int n = 0;
  *reloc = 0;
  if (fatbin_list(fb, 0, &en, &n, e)) return NULL;
  int i = fatbin_pick_ptx(en, n, (uint32_t)rt_arch()->cc, e);
  char *text = NULL;
  if (i >= 0) {
    char opts[256];
    snprintf(opts, sizeof opts, "%.*s", (int)(en[i].opts ? en[i].opts_len : 0), en[i].opts ? en[i].opts : "");
    *reloc = strstr(opts, "compile-only") != NULL;
    if (*reloc) text = fatbin_ptx(&en[i], e);
  }
  free(en);
  return text;
}

static void free_texts(char **texts, char **names, int n) {
  for (int i = 0; i < n; i++) {
    free(texts[i]);
    free(names[i]);
  }
  free(texts);
  free(names);
}

char *rtx_rdc_text(const void *wrapper, const char *module, WmErr *e) {
  const void **fb = wm_xmalloc(RDC_MAX_UNITS * sizeof *fb);
  int n = fatbin_prelinked(wrapper, fb, RDC_MAX_UNITS), kept = 0;
  char **texts = wm_xcalloc((size_t)n + 1, sizeof *texts), **names = wm_xcalloc((size_t)n + 1, sizeof *names);
  char *out = NULL;
  for (int i = 0; i < n; i++) {
    int r = 0;
    WmErr ue = {0};
    names[kept] = wm_xmalloc(strlen(module) + 48);
    sprintf(names[kept], "%s (translation unit %d of %d)", module, i + 1, n);
    texts[kept] = unit_text(fb[i], &r, &ue);
    if (!texts[kept]) {
      if (ue.code) wm_err(e, ue.code, "%s: %s", names[kept], ue.msg);
      kept++;
      goto done;
    }
    if (strstr(texts[kept], "_cuda_device_runtime_cu_")) { /* libcudadevrt: left out */
      free(texts[kept]);
      free(names[kept]);
      continue;
    }
    kept++;
  }
  if (kept) out = ptx_merge((const char *const *)texts, (const char *const *)names, kept, e);
done:
  free_texts(texts, names, kept);
  free(fb);
  return out;
}
