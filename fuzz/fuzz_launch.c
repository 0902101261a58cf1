/* fuzz_launch.c - libFuzzer harness of the launch specs (src/launch): the
 * input is a .cu file's text for launch_parse_file (its `//@` lines), and
 * each of its lines is also given alone to the parsers of the command line:
 * --arg (launch_parse_arg), grid= and block= (launch_parse_dim), and
 * --const (launch_set_const, against a small module with __constant__ and
 * __device__ variables, into fresh segments per input).  A parsed launch
 * whose name is a kernel of that module (k1, k3, kagg, k2) is bound to it
 * (launch_bind: aggregate layout, buffer and texture allocation, their
 * initial values) in a fresh GlobalMem limited to BIND_LIMIT bytes.
 *
 * The module is parsed once and never written; nothing else is global. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/gmem.h"
#include "launch/launch.h"
#include "ptx/ptx.h"

#define LAUNCH_MAX_INPUT (256u << 10)
#define LAUNCH_MAX_LINE 4096
#define BIND_LIMIT (4u << 20) /* bytes of buffers a bound launch may allocate */

int fuzz_launch_one(const uint8_t *data, size_t size);

static const char module_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".const .align 4 .b8 c_tab[64];\n"
    ".const .align 8 .f64 c_one;\n"
    ".const .align 2 .b8 c_odd[3];\n"
    ".global .align 4 .u32 g_count;\n"
    ".global .align 16 .b8 g_vec[48];\n"
    ".visible .entry k1(.param .u64 p)\n{\n\tret;\n}\n"
    ".visible .entry k3(.param .u64 a, .param .u32 b, .param .f32 c)\n{\n\tret;\n}\n"
    ".visible .entry kagg(.param .align 8 .b8 s[24], .param .u16 h)\n{\n\tret;\n}\n"
    ".visible .entry k2(.param .u64 a, .param .u64 b)\n{\n\tret;\n}\n";
static PtxModule *module;

/* Parses the module once (the first input); fuzz_launch_done frees it. */
static void launch_init(void) {
  if (module) return;
  WmErr e = {0};
  module = ptx_parse("const.ptx", strdup(module_ptx), &e);
  if (!module) abort(); /* the harness's own module must parse */
}

void fuzz_launch_done(void);
void fuzz_launch_done(void) {
  ptx_module_free(module);
  module = NULL;
}

/* One line through every command-line parser. */
static void one_line(const char *s) {
  WmErr e = {0};
  ArgSpec a;
  launch_parse_arg(s, &a, &e);
  uint32_t d[3];
  launch_parse_dim(s, d, &e);
  uint8_t *cmem = calloc(1, module->const_size + 1);
  uint8_t *gmem = calloc(1, module->global_size + 1);
  launch_set_const(s, module, cmem, NULL, &e);
  launch_set_const(s, module, cmem, gmem, &e);
  free(cmem);
  free(gmem);
}

/* Binds launch l to the module's kernel of its name, if there is one. */
static void bind(const LaunchSpec *l) {
  for (int i = 0; i < module->nkernels; i++) {
    const PtxKernel *k = &module->kernels[i];
    if (strcmp(k->name, l->name)) continue;
    GlobalMem g;
    gmem_init(&g, BIND_LIMIT);
    uint8_t *params = calloc(1, k->param_size + 1);
    WmErr e = {0};
    if (launch_bind(k, l, &g, params, INIT_RAND, 1, &e) && getenv("FUZZ_VERBOSE"))
      fprintf(stderr, "%s: %s\n", l->label, e.msg);
    uint32_t slots[LAUNCH_MAX_ARGS];
    launch_pointer_slots(k, l, slots, LAUNCH_MAX_ARGS);
    free(params);
    gmem_free(&g);
  }
}

int fuzz_launch_one(const uint8_t *data, size_t size) {
  if (size > LAUNCH_MAX_INPUT) return 0;
  launch_init();
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  WmErr e = {0};
  LaunchSpec *specs = NULL;
  int n = 0;
  launch_parse_file("fuzz.cu", text, &specs, &n, &e);
  for (int i = 0; i < n; i++) bind(&specs[i]);
  free(specs); /* NULL after an error */
  char line[LAUNCH_MAX_LINE];
  for (const char *p = text; *p;) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len < sizeof line) {
      memcpy(line, p, len);
      line[len] = 0;
      one_line(line);
    }
    if (!end) break;
    p = end + 1;
  }
  free(text);
  return 0;
}

/* The fuzzer's entry point; tests/test_fuzz_corpus.c calls fuzz_launch_one. */
#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_launch_one(data, size); }
#endif
