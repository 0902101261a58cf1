/* fuzz_launch.c - libFuzzer harness of the launch specs (src/launch): the
 * input is a .cu file's text for launch_parse_file (its `//@` lines), and
 * each of its lines is also given alone to the parsers of the command line:
 * --arg (launch_parse_arg), grid= and block= (launch_parse_dim), and
 * --const (launch_set_const, against a small module with __constant__ and
 * __device__ variables, into fresh segments per input).
 *
 * The module is parsed once and never written; nothing else is global. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "ptx/ptx.h"

#define LAUNCH_MAX_INPUT (256u << 10)
#define LAUNCH_MAX_LINE 4096

int fuzz_launch_one(const uint8_t *data, size_t size);

static const char module_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".const .align 4 .b8 c_tab[64];\n"
    ".const .align 8 .f64 c_one;\n"
    ".const .align 2 .b8 c_odd[3];\n"
    ".global .align 4 .u32 g_count;\n"
    ".global .align 16 .b8 g_vec[48];\n"
    ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n";
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
