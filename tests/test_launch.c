/* test_launch.c - launch specs: //@ lines, --arg specs, binding, dumps. */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch/launch.h"

static const LaunchSpec *find(const LaunchSpec *v, int n, const char *label) {
  for (int i = 0; i < n; i++)
    if (strcmp(v[i].label, label) == 0) return &v[i];
  return NULL;
}

static void test_seed_file(void **state) {
  (void)state;
  WmErr e = {0};
  const char *path = tu_truth("seed_kernels.cu");
  char *text = wm_read_file(path, NULL, &e);
  assert_non_null(text);
  LaunchSpec *v;
  int n;
  assert_int_equal(launch_parse_file(path, text, &v, &n, &e), 0);
  assert_int_equal(n, 38);

  const LaunchSpec *l = find(v, n, "inc_case#2");
  assert_non_null(l);
  assert_string_equal(l->name, "inc_case");
  assert_int_equal(l->line, 9);
  assert_int_equal(l->grid[0], 12288);
  assert_int_equal(l->grid[1], 1);
  assert_int_equal(l->grid[2], 1);
  assert_int_equal(l->block[0], 256);
  assert_int_equal(l->block[1], 1);
  assert_int_equal(l->smem, 0);
  assert_int_equal(l->nargs, 2);
  assert_int_equal(l->args[0].kind, ARG_BUF);
  assert_int_equal(l->args[0].type, PTX_T_F32);
  assert_int_equal(l->args[0].count, 3145728);
  assert_int_equal(l->args[0].init, INIT_DEFAULT);
  assert_string_equal(l->args[0].text, "buf:f32:3145728");
  assert_int_equal(l->args[1].kind, ARG_SCALAR);
  assert_int_equal(l->args[1].type, PTX_T_S32);
  assert_int_equal(l->args[1].bits, 2);
  assert_string_equal(l->args[1].text, "i32:2");

  l = find(v, n, "tr_naive");
  assert_non_null(l);
  assert_string_equal(l->name, "tr_naive");
  assert_int_equal(l->grid[0], 64);
  assert_int_equal(l->grid[1], 64);
  assert_int_equal(l->block[0], 32);
  assert_int_equal(l->block[1], 32);
  assert_int_equal(l->block[2], 1);
  assert_int_equal(l->nargs, 4);

  l = find(v, n, "setRowReadColDyn");
  assert_non_null(l);
  assert_int_equal(l->smem, 4096);
  assert_int_equal(find(v, n, "setRowReadColDynIpad")->smem, 4224);

  l = find(v, n, "stride_copy#32");
  assert_non_null(l);
  assert_string_equal(l->name, "stride_copy");
  assert_int_equal(l->args[0].count, 134217728);
  assert_int_equal(l->args[1].count, 134217728);
  assert_int_equal(l->args[2].bits, 32);

  l = find(v, n, "inc1#32");
  assert_non_null(l);
  assert_int_equal(l->grid[0], 2097152);
  assert_int_equal(l->args[1].type, PTX_T_U64);
  assert_int_equal(l->args[1].bits, 67108864);

  assert_string_equal(v[0].label, "inc_case#0");
  assert_string_equal(v[n - 1].label, "local_heap");
  free(v);
  free(text);
}

static void test_large_file(void **state) {
  (void)state;
  WmErr e = {0};
  const char *path = tu_truth("seed_launches_large.cu");
  char *text = wm_read_file(path, NULL, &e);
  assert_non_null(text);
  LaunchSpec *v;
  int n;
  int rc = launch_parse_file(path, text, &v, &n, &e);
  if (rc) fail_msg("%s", e.msg);
  assert_true(n > 20);
  assert_string_equal(v[0].label, "inc_case#0");
  assert_int_equal(v[0].args[0].count, 67108864);
  free(v);
  free(text);
}

static void test_no_launches(void **state) {
  (void)state;
  WmErr e = {0};
  LaunchSpec *v = (LaunchSpec *)1;
  int n = -1;
  assert_int_equal(launch_parse_file("x.cu", "// nothing\nint x; // not //@ here\n", &v, &n, &e), 0);
  assert_int_equal(n, 0);
  free(v);
  assert_int_equal(launch_parse_file("x.cu", "", &v, &n, &e), 0);
  assert_int_equal(n, 0);
  free(v);
}

static void test_spec_forms(void **state) {
  (void)state;
  WmErr e = {0};
  LaunchSpec *v;
  int n;
  const char *text =
    "  //@   k#a.b-1   args=buf:u8:16:iota,f64:2.5 smem=0x100 block=4,2,2 grid=3,2,1  \n"
    "\t//@ noargs grid=1 block=1 args=\r\n";
  int rc = launch_parse_file("t.cu", text, &v, &n, &e);
  if (rc) fail_msg("%s", e.msg);
  assert_int_equal(n, 2);
  assert_string_equal(v[0].label, "k#a.b-1");
  assert_string_equal(v[0].name, "k");
  assert_int_equal(v[0].smem, 256);
  assert_int_equal(v[0].block[2], 2);
  assert_int_equal(v[0].grid[1], 2);
  assert_int_equal(v[0].args[0].init, INIT_IOTA);
  assert_int_equal(v[0].args[0].type, PTX_T_U8);
  assert_int_equal(v[0].args[1].bits, 0x4004000000000000ull);
  assert_int_equal(v[1].nargs, 0);
  assert_int_equal(v[1].line, 2);
  free(v);
}

/* Each bad //@ line and where its error points. */
static void test_spec_errors(void **state) {
  (void)state;
  static const struct {
    const char *line;
    const char *loc;   /* "file:line:col:" */
    const char *words; /* part of the message */
  } cases[] = {
    {"//@ k grid=1 block=1 foo=3 args=i32:0", "e.cu:2:22:", "unexpected 'foo=3'"},
    {"//@ k grid=1 block=1", "e.cu:2:21:", "no args="},
    {"//@ k block=1 args=i32:0", "e.cu:2:25:", "no grid="},
    {"//@ k grid=1 args=i32:0", "e.cu:2:24:", "no block="},
    {"//@ k grid=0 block=1 args=", "e.cu:2:12:", "not in 1..2147483647"},
    {"//@ k grid=1,0 block=1 args=", "e.cu:2:14:", "not in 1..2147483647"},
    {"//@ k grid=-4 block=1 args=", "e.cu:2:12:", "positive integers"},
    {"//@ k grid=1,2,3,4 block=1 args=", "e.cu:2:18:", "at most 3"},
    {"//@ k grid=1,,2 block=1 args=", "e.cu:2:14:", "positive integers"},
    {"//@ k grid=4294967296 block=1 args=", "e.cu:2:12:", "not in 1..2147483647"},
    {"//@ k grid= block=1 args=", "e.cu:2:12:", "missing dimensions"},
    {"//@ k grid=1,70000 block=1 args=", "e.cu:2:12:", "grid y and z"},
    {"//@ k grid=1 block=2048 args=", "e.cu:2:20:", "block x and y"},
    {"//@ k grid=1 block=1,1,65 args=", "e.cu:2:20:", "z at most 64"},
    {"//@ k grid=1 block=32,32,2 args=", "e.cu:2:20:", "at most 1024 threads, not 2048"},
    {"//@ k grid=1 block=1 args=buf:f32:0", "e.cu:2:35:", "at least 1 element"},
    {"//@ k grid=1 block=1 args=buf:f32:99999999999999999", "e.cu:2:35:", "too large"},
    {"//@ k grid=1 block=1 args=buf:f32:99999999999999999999999", "e.cu:2:35:", "too large"},
    {"//@ k grid=1 block=1 args=buf:f32:-5", "e.cu:2:35:", "not a positive integer"},
    {"//@ k grid=1 block=1 args=i32:0,buf:f33:10", "e.cu:2:37:", "unknown type 'f33'"},
    {"//@ k grid=1 block=1 args=i32:0,float:1", "e.cu:2:33:", "unknown type 'float'"},
    {"//@ k grid=1 block=1 args=i32:3000000000", "e.cu:2:31:", "out of range for i32"},
    {"//@ k grid=1 block=1 args=i32:0,", "e.cu:2:33:", "empty argument"},
    {"//@ k grid=1 block=1 args=i32", "e.cu:2:30:", "expected TYPE:VALUE"},
    {"//@ k grid=1 block=1 args=buf:f32:8:bogus", "e.cu:2:37:", "bad INIT 'bogus'"},
    {"//@ k grid=1 block=1 args=i32:0,,i32:1", "e.cu:2:33:", "empty argument"},
    {"//@ k grid=1 block=1 args=i32:0 extra", "e.cu:2:33:", "unexpected 'extra'"},
    {"//@ k grid=1 block=1 args=i32:0, i32:1", "e.cu:2:33:", "no spaces"},
    {"//@ k grid=1 block=1 grid=2 args=", "e.cu:2:22:", "grid= given twice"},
    {"//@ k grid=1 block=1 smem=-1 args=", "e.cu:2:27:", "smem=-1"},
    {"//@ k grid=1 block=1 smem=4294967296 args=", "e.cu:2:27:", "byte count"},
    {"//@", "e.cu:2:4:", "empty launch spec"},
    {"//@ 9k grid=1 block=1 args=", "e.cu:2:5:", "expected a kernel name"},
    {"//@ k-x grid=1 block=1 args=", "e.cu:2:6:", "bad character '-'"},
    {"//@ k# grid=1 block=1 args=", "e.cu:2:7:", "missing variant"},
    {"//@ k#1#2 grid=1 block=1 args=", "e.cu:2:8:", "bad character '#'"},
    {"//@ dup grid=1 block=1 args=", "e.cu:2:5:", "already defined on line 1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char text[512];
    snprintf(text, sizeof text, "//@ dup grid=1 block=1 args=\n%s\n//@ after grid=1 block=1 args=\n",
             cases[i].line);
    WmErr e = {0};
    LaunchSpec *v = (LaunchSpec *)1;
    int n = 7;
    int rc = launch_parse_file("e.cu", text, &v, &n, &e);
    if (rc != -1) fail_msg("case %zu (%s) parsed", i, cases[i].line);
    assert_int_equal(e.code, WM_EUSAGE);
    assert_null(v);
    assert_int_equal(n, 0);
    if (strncmp(e.msg, cases[i].loc, strlen(cases[i].loc)) != 0 || !strstr(e.msg, cases[i].words))
      fail_msg("case %zu: want %s ... %s, got:\n%s", i, cases[i].loc, cases[i].words, e.msg);
    /* the caret line is there */
    assert_non_null(strstr(e.msg, "^"));
  }
}

static void test_parse_dim(void **state) {
  (void)state;
  WmErr e = {0};
  uint32_t d[3];
  assert_int_equal(launch_parse_dim("64,64", d, &e), 0);
  assert_int_equal(d[0], 64);
  assert_int_equal(d[1], 64);
  assert_int_equal(d[2], 1);
  assert_int_equal(launch_parse_dim("7", d, &e), 0);
  assert_int_equal(d[0], 7);
  assert_int_equal(d[1], 1);
  assert_int_equal(launch_parse_dim("2147483647,3,2", d, &e), 0);
  assert_int_equal(d[0], 2147483647u);
  assert_int_equal(d[2], 2);
  static const char *const bad[] = {"", "0", "2147483648", "1,,2", "a", "1,2,3,4", "1,", ",1",
                                    "-1", "1.5", "1 2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    d[0] = 99;
    e.code = 0;
    if (launch_parse_dim(bad[i], d, &e) != -1) fail_msg("'%s' accepted", bad[i]);
    assert_int_equal(e.code, WM_EUSAGE);
    assert_int_equal(d[0], 99);
  }
}

static void arg_ok(const char *s, int kind, int type, uint64_t bits) {
  WmErr e = {0};
  ArgSpec a;
  if (launch_parse_arg(s, &a, &e)) fail_msg("'%s': %s", s, e.msg);
  assert_int_equal(a.kind, kind);
  assert_int_equal(a.type, type);
  assert_int_equal(a.bits, bits);
  assert_string_equal(a.text, s);
}

static void arg_bad(const char *s, const char *words) {
  WmErr e = {0};
  ArgSpec a;
  if (launch_parse_arg(s, &a, &e) != -1) fail_msg("'%s' accepted", s);
  assert_int_equal(e.code, WM_EUSAGE);
  if (!strstr(e.msg, words)) fail_msg("'%s': want '%s' in: %s", s, words, e.msg);
}

static void test_parse_scalars(void **state) {
  (void)state;
  arg_ok("i8:-128", ARG_SCALAR, PTX_T_S8, 0x80);
  arg_ok("i8:127", ARG_SCALAR, PTX_T_S8, 0x7f);
  arg_ok("u8:255", ARG_SCALAR, PTX_T_U8, 0xff);
  arg_ok("i16:-1", ARG_SCALAR, PTX_T_S16, 0xffff);
  arg_ok("u16:0xBEEF", ARG_SCALAR, PTX_T_U16, 0xbeef);
  arg_ok("i32:-2147483648", ARG_SCALAR, PTX_T_S32, 0x80000000u);
  arg_ok("i32:0xffffffff", ARG_SCALAR, PTX_T_S32, 0xffffffffu);
  arg_ok("i32:+5", ARG_SCALAR, PTX_T_S32, 5);
  arg_ok("u32:4294967295", ARG_SCALAR, PTX_T_U32, 0xffffffffu);
  arg_ok("i64:-9223372036854775808", ARG_SCALAR, PTX_T_S64, 0x8000000000000000ull);
  arg_ok("i64:9223372036854775807", ARG_SCALAR, PTX_T_S64, 0x7fffffffffffffffull);
  arg_ok("u64:18446744073709551615", ARG_SCALAR, PTX_T_U64, UINT64_MAX);
  arg_ok("u64:0xffffffffffffffff", ARG_SCALAR, PTX_T_U64, UINT64_MAX);
  arg_ok("f32:1.5", ARG_SCALAR, PTX_T_F32, 0x3fc00000u);
  arg_ok("f32:-2", ARG_SCALAR, PTX_T_F32, 0xc0000000u);
  arg_ok("f32:0f3F800000", ARG_SCALAR, PTX_T_F32, 0x3f800000u);
  arg_ok("f32:inf", ARG_SCALAR, PTX_T_F32, 0x7f800000u);
  arg_ok("f64:0.5", ARG_SCALAR, PTX_T_F64, 0x3fe0000000000000ull);
  arg_ok("f64:0d3FF0000000000000", ARG_SCALAR, PTX_T_F64, 0x3ff0000000000000ull);
  arg_ok("f64:1e308", ARG_SCALAR, PTX_T_F64, 0x7fe1ccf385ebc8a0ull);

  /* halves round to nearest even: 1 + 2^-11 is a tie, to 1.0 (0x3c00) */
  arg_ok("f16:1.5", ARG_SCALAR, PTX_T_F16, 0x3e00);
  arg_ok("f16:1.00048828125", ARG_SCALAR, PTX_T_F16, 0x3c00);
  arg_ok("f16:65504", ARG_SCALAR, PTX_T_F16, 0x7bff);
  arg_ok("bf16:-2", ARG_SCALAR, PTX_T_BF16, 0xc000);
  arg_ok("bf16:1e38", ARG_SCALAR, PTX_T_BF16, 0x7e96); /* 2^126 * 1.1755: mantissa 0.1755 * 128 = 22.46 -> 22 */
  arg_bad("f16:65520", "out of range for f16");
  arg_bad("bf16:1e39", "out of range for bf16");
  arg_bad("f16:0f3F800000", "not a f16 number");

  arg_bad("i8:-129", "out of range for i8 (-128..127)");
  arg_bad("i8:128", "out of range for i8");
  arg_bad("u8:256", "out of range for u8 (0..255)");
  arg_bad("u32:-1", "out of range for u32");
  arg_bad("i32:2147483648", "out of range for i32");
  arg_bad("i32:0x100000000", "out of range for i32");
  arg_bad("u64:18446744073709551616", "out of range for u64");
  arg_bad("i64:-9223372036854775809", "out of range for i64");
  arg_bad("i32:1.5", "not an integer");
  arg_bad("i32:", "missing i32 value");
  arg_bad("i32:12abc", "not an integer");
  arg_bad("f32:1e39", "out of range for f32");
  arg_bad("f64:1e999", "out of range for f64");
  arg_bad("f32:abc", "not a f32 number");
  arg_bad("f32:1.0x", "not a f32 number");
  arg_bad("f32: 1", "not a f32 number");
  arg_bad("float:1", "unknown type 'float'");
  arg_bad("s32:1", "unknown type 's32'");
  arg_bad("i32", "expected TYPE:VALUE");
  arg_bad("i32:1:2", "expected TYPE:VALUE");
  arg_bad("", "empty argument");
}

static void test_parse_buffers(void **state) {
  (void)state;
  WmErr e = {0};
  ArgSpec a;
  assert_int_equal(launch_parse_arg("buf:f32:1024", &a, &e), 0);
  assert_int_equal(a.kind, ARG_BUF);
  assert_int_equal(a.type, PTX_T_F32);
  assert_int_equal(a.count, 1024);
  assert_int_equal(a.init, INIT_DEFAULT);
  assert_int_equal(launch_parse_arg("buf:i8:0x10:zero", &a, &e), 0);
  assert_int_equal(a.count, 16);
  assert_int_equal(a.init, INIT_ZERO);
  assert_int_equal(launch_parse_arg("buf:u16:3:iota", &a, &e), 0);
  assert_int_equal(a.init, INIT_IOTA);
  assert_int_equal(launch_parse_arg("buf:f64:3:rand", &a, &e), 0);
  assert_int_equal(a.init, INIT_RAND);
  assert_int_equal(launch_parse_arg("buf:i32:3:-7", &a, &e), 0);
  assert_int_equal(a.init, INIT_CONST);
  assert_int_equal(a.bits, 0xfffffff9u);
  assert_int_equal(launch_parse_arg("buf:f32:3:-1.5", &a, &e), 0);
  assert_int_equal(a.init, INIT_CONST);
  assert_int_equal(a.bits, 0xbfc00000u);
  assert_int_equal(launch_parse_arg("buf:f32:3:nan", &a, &e), 0);
  assert_int_equal(a.init, INIT_CONST);
  assert_int_equal(launch_parse_arg("buf:u8:274877906944", &a, &e), 0); /* 2^38: 256 GiB */
  assert_int_equal(launch_parse_arg("buf:u8:1099511627776", &a, &e), 0); /* 1 TiB exactly */

  arg_bad("buf:f32:0", "at least 1 element");
  arg_bad("buf:f32:99999999999999999", "too large");
  arg_bad("buf:f64:274877906944", "too large");
  arg_bad("buf:f32:", "not a positive integer");
  arg_bad("buf:f32:1e6", "not a positive integer");
  arg_bad("buf:f32", "expected buf:TYPE:COUNT[:INIT]");
  arg_bad("buf", "expected buf:TYPE:COUNT[:INIT]");
  arg_bad("buf:x:4", "unknown type 'x'");
  arg_bad("buf:i8:4:300", "bad INIT '300'");
  arg_bad("buf:u32:4:-1", "out of range for u32");
  arg_bad("buf:f32:4:", "bad INIT ''");
  arg_bad("buf:f32:4:zero:1", "too many ':' fields");

  /* the spec text is kept (truncated) for messages */
  char longs[500] = "buf:f32:1:";
  memset(longs + 10, '0', 400);
  longs[410] = '\0';
  assert_int_equal(launch_parse_arg(longs, &a, &e), 0);
  assert_int_equal(strlen(a.text), sizeof a.text - 1);
}

/* ---- binding ---- */

static PtxParam tparams[4] = {
  {"k_param_0", PTX_T_U64, 8, 8, 0, 1},
  {"k_param_1", PTX_T_U64, 8, 8, 8, 1},
  {"k_param_2", PTX_T_U32, 4, 4, 16, 0},
  {"k_param_3", PTX_T_U32, 4, 4, 20, 0},
};
static PtxKernel tkernel = {.name = "k", .plain_name = "k", .params = tparams, .nparams = 4,
                            .param_size = 24};

static LaunchSpec spec_of(const char *const *args, int n) {
  LaunchSpec l;
  memset(&l, 0, sizeof l);
  strcpy(l.name, "k");
  strcpy(l.label, "k#t");
  l.grid[0] = l.grid[1] = l.grid[2] = 1;
  l.block[0] = l.block[1] = l.block[2] = 1;
  WmErr e = {0};
  for (int i = 0; i < n; i++)
    if (launch_parse_arg(args[i], &l.args[i], &e)) fail_msg("%s", e.msg);
  l.nargs = n;
  return l;
}

static uint64_t le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static void test_bind_params(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:8:iota", "buf:i32:5:7", "i32:-2", "u32:5"};
  LaunchSpec l = spec_of(args, 4);
  GlobalMem g;
  gmem_init(&g, 0);
  uint8_t params[24];
  memset(params, 0xaa, sizeof params);
  WmErr e = {0};
  if (launch_bind(&tkernel, &l, &g, params, INIT_RAND, 1, &e)) fail_msg("%s", e.msg);
  assert_int_equal(g.n, 2);
  assert_int_equal(le(params, 8), g.buf[0].addr);
  assert_int_equal(le(params + 8, 8), g.buf[1].addr);
  assert_int_equal(le(params + 16, 4), 0xfffffffeu);
  assert_int_equal(le(params + 20, 4), 5);
  assert_int_equal(g.buf[0].size, 32);
  assert_int_equal(g.buf[0].count, 8);
  assert_int_equal(g.buf[0].type, PTX_T_F32);
  assert_string_equal(g.buf[0].name, "arg0 (buf:f32:8:iota)");
  const float *f = (const float *)g.buf[0].data;
  for (int i = 0; i < 8; i++) assert_true(f[i] == (float)i);
  const int32_t *x = (const int32_t *)g.buf[1].data;
  for (int i = 0; i < 5; i++) assert_int_equal(x[i], 7);
  gmem_free(&g);
}

static void test_bind_inits(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:1000", "buf:u8:300", "buf:i64:3:iota",
                                     "buf:f64:4:-0.25", "buf:i8:1000:rand", "buf:u16:70000:iota",
                                     "buf:f64:1000", "buf:i32:1000:zero"};
  PtxParam p8[8];
  for (int i = 0; i < 8; i++)
    p8[i] = (PtxParam){"p", PTX_T_U64, 8, 8, (uint32_t)(8 * i), 1};
  PtxKernel k = {.name = "k8", .plain_name = "k8", .params = p8, .nparams = 8, .param_size = 64};
  LaunchSpec l = spec_of(args, 8);
  uint8_t params[64];
  WmErr e = {0};

  GlobalMem g1, g2, g3;
  gmem_init(&g1, 0);
  gmem_init(&g2, 0);
  gmem_init(&g3, 0);
  assert_int_equal(launch_bind(&k, &l, &g1, params, INIT_RAND, 42, &e), 0);
  assert_int_equal(launch_bind(&k, &l, &g2, params, INIT_RAND, 42, &e), 0);
  assert_int_equal(launch_bind(&k, &l, &g3, params, INIT_RAND, 43, &e), 0);
  /* reproducible for one seed, different for another */
  for (int i = 0; i < 8; i++)
    assert_memory_equal(g1.buf[i].data, g2.buf[i].data, g1.buf[i].size);
  assert_memory_not_equal(g1.buf[0].data, g3.buf[0].data, g1.buf[0].size);
  /* rand floats in [0,1), not all equal; different arguments differ */
  const float *f = (const float *)g1.buf[0].data;
  double sum = 0;
  for (int i = 0; i < 1000; i++) {
    assert_true(f[i] >= 0.0f && f[i] < 1.0f);
    sum += f[i];
  }
  assert_true(sum > 400 && sum < 600);
  const double *d = (const double *)g1.buf[6].data;
  for (int i = 0; i < 1000; i++) assert_true(d[i] >= 0.0 && d[i] < 1.0);
  assert_true((float)d[0] != f[0]);
  /* rand integers: u8 in [0,256) (all values possible), i8 in [0,128) */
  int maxu8 = 0;
  for (int i = 0; i < 300; i++)
    if (g1.buf[1].data[i] > maxu8) maxu8 = g1.buf[1].data[i];
  assert_true(maxu8 > 200);
  for (int i = 0; i < 1000; i++) assert_true((int8_t)g1.buf[4].data[i] >= 0);
  /* iota, const, zero */
  const int64_t *q = (const int64_t *)g1.buf[2].data;
  assert_int_equal(q[0], 0);
  assert_int_equal(q[2], 2);
  const double *c = (const double *)g1.buf[3].data;
  for (int i = 0; i < 4; i++) assert_true(c[i] == -0.25);
  const uint16_t *u = (const uint16_t *)g1.buf[5].data;
  assert_int_equal(u[65535], 65535);
  assert_int_equal(u[65536], 0); /* wraps */
  assert_int_equal(u[69999], 69999 - 65536);
  for (int i = 0; i < 1000; i++) assert_int_equal(((const int32_t *)g1.buf[7].data)[i], 0);
  gmem_free(&g1);
  gmem_free(&g2);
  gmem_free(&g3);

  /* rand i32 buffers are in [0,1024) */
  static const char *const a2[] = {"buf:i32:4096", "buf:u64:4096", "i32:0", "i32:0"};
  LaunchSpec l2 = spec_of(a2, 4);
  GlobalMem g;
  gmem_init(&g, 0);
  assert_int_equal(launch_bind(&tkernel, &l2, &g, params, INIT_RAND, 7, &e), 0);
  int32_t mx = 0;
  for (int i = 0; i < 4096; i++) {
    int32_t v = ((const int32_t *)g.buf[0].data)[i];
    assert_true(v >= 0 && v < 1024);
    if (v > mx) mx = v;
  }
  assert_true(mx > 1000);
  for (int i = 0; i < 4096; i++) assert_true(((const uint64_t *)g.buf[1].data)[i] < 1024);
  gmem_free(&g);
}

static void test_bind_default_init(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:16", "buf:i32:16:rand", "i32:0", "i32:0"};
  LaunchSpec l = spec_of(args, 4);
  uint8_t params[24];
  WmErr e = {0};
  GlobalMem g;
  gmem_init(&g, 0);
  assert_int_equal(launch_bind(&tkernel, &l, &g, params, INIT_ZERO, 1, &e), 0);
  for (int i = 0; i < 64; i++) assert_int_equal(g.buf[0].data[i], 0);
  int nonzero = 0;
  for (int i = 0; i < 64; i++) nonzero += g.buf[1].data[i] != 0;
  assert_true(nonzero > 0); /* explicit rand wins over the default */
  gmem_free(&g);
  gmem_init(&g, 0);
  assert_int_equal(launch_bind(&tkernel, &l, &g, params, INIT_IOTA, 1, &e), 0);
  assert_true(((const float *)g.buf[0].data)[15] == 15.0f);
  gmem_free(&g);
  gmem_init(&g, 0);
  assert_int_equal(launch_bind(&tkernel, &l, &g, params, INIT_DEFAULT, 1, &e), 0); /* = rand */
  nonzero = 0;
  for (int i = 0; i < 64; i++) nonzero += g.buf[0].data[i] != 0;
  assert_true(nonzero > 0);
  gmem_free(&g);
}

static void bind_bad(const PtxKernel *k, const char *const *args, int n, int code,
                     const char *const *words) {
  LaunchSpec l = spec_of(args, n);
  uint8_t params[64];
  WmErr e = {0};
  GlobalMem g;
  gmem_init(&g, 1 << 20);
  int rc = launch_bind(k, &l, &g, params, INIT_RAND, 1, &e);
  if (rc != -1) fail_msg("bound %s", args[0]);
  assert_int_equal(e.code, code);
  for (; *words; words++)
    if (!strstr(e.msg, *words)) fail_msg("want '%s' in: %s", *words, e.msg);
  gmem_free(&g);
}

static void test_bind_errors(void **state) {
  (void)state;
  static const char *const three[] = {"buf:f32:4", "buf:f32:4", "i32:1"};
  bind_bad(&tkernel, three, 3, WM_EARGS,
           (const char *const[]){"kernel k takes 4 arguments", ".u64, .u64, .u32, .u32",
                                 "3 given", NULL});
  static const char *const wide[] = {"buf:f32:4", "buf:f32:4", "i64:1", "i32:1"};
  bind_bad(&tkernel, wide, 4, WM_EARGS,
           (const char *const[]){"arg2", "'i64:1'", "k_param_2", "8 bytes", "4 bytes", NULL});
  static const char *const narrow[] = {"buf:f32:4", "buf:f32:4", "i32:1", "u16:1"};
  bind_bad(&tkernel, narrow, 4, WM_EARGS,
           (const char *const[]){"arg3", "k_param_3", "2 bytes", "4 bytes", NULL});
  static const char *const bufint[] = {"buf:f32:4", "buf:f32:4", "buf:i32:4", "i32:1"};
  bind_bad(&tkernel, bufint, 4, WM_EARGS,
           (const char *const[]){"arg2", "buffer", "8-byte address", "k_param_2", "4 bytes",
                                 NULL});
  static const char *const ptrint[] = {"i32:4", "buf:f32:4", "i32:1", "i32:1"};
  bind_bad(&tkernel, ptrint, 4, WM_EARGS,
           (const char *const[]){"arg0", "k_param_0", "4 bytes", "8 bytes", NULL});
  /* over the memory limit (1 MiB here) */
  static const char *const big[] = {"buf:f32:300000", "buf:f32:4", "i32:1", "i32:1"};
  bind_bad(&tkernel, big, 4, WM_ELIMIT, (const char *const[]){"arg0", "limit", NULL});
  PtxKernel none = {.name = "_Z4noopv", .plain_name = "noop", .nparams = 0};
  bind_bad(&none, three, 1, WM_EARGS,
           (const char *const[]){"kernel noop takes 0 arguments", "1 given", NULL});
}

static void test_bind_empty(void **state) {
  (void)state;
  PtxKernel none = {.name = "noop", .plain_name = "noop", .nparams = 0};
  LaunchSpec l;
  memset(&l, 0, sizeof l);
  GlobalMem g;
  gmem_init(&g, 0);
  WmErr e = {0};
  uint8_t params[1];
  assert_int_equal(launch_bind(&none, &l, &g, params, INIT_RAND, 1, &e), 0);
  assert_int_equal(g.n, 0);
  gmem_free(&g);
}

/* ---- dumps ---- */

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void test_dump(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:10:iota", "buf:i32:3:-1", "u32:3", "u32:4"};
  LaunchSpec l = spec_of(args, 4);
  strcpy(l.label, "k#a/b");
  l.grid[0] = 5;
  l.smem = 64;
  GlobalMem g;
  gmem_init(&g, 0);
  uint8_t params[24];
  WmErr e = {0};
  assert_int_equal(launch_bind(&tkernel, &l, &g, params, INIT_RAND, 1, &e), 0);

  char tmpl[] = "/tmp/wmdumpXXXXXX";
  assert_non_null(mkdtemp(tmpl));
  char dir[256], path[512];
  snprintf(dir, sizeof dir, "%s/x/y", tmpl);
  if (launch_dump(dir, &l, &g, &e)) fail_msg("%s", e.msg);
  /* again: the directories exist already */
  if (launch_dump(dir, &l, &g, &e)) fail_msg("%s", e.msg);

  snprintf(path, sizeof path, "%s/k_a_b.arg0.f32.bin", dir);
  assert_int_equal(file_size(path), 40);
  size_t len;
  char *data = wm_read_file(path, &len, &e);
  assert_non_null(data);
  assert_int_equal(len, 40);
  float f[10];
  memcpy(f, data, sizeof f);
  assert_true(f[9] == 9.0f);
  free(data);
  unlink(path);
  snprintf(path, sizeof path, "%s/k_a_b.arg1.i32.bin", dir);
  data = wm_read_file(path, &len, &e);
  assert_non_null(data);
  assert_int_equal(len, 12);
  assert_int_equal((unsigned char)data[11], 0xff);
  free(data);
  unlink(path);

  snprintf(path, sizeof path, "%s/k_a_b.json", dir);
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
  if (!j) fail_msg("%s: %s", path, je.text);
  assert_string_equal(json_string_value(json_object_get(j, "launch")), "k#a/b");
  assert_string_equal(json_string_value(json_object_get(j, "kernel")), "k");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "grid"), 0)), 5);
  assert_int_equal(json_integer_value(json_object_get(j, "smem")), 64);
  json_t *bufs = json_object_get(j, "buffers");
  assert_int_equal(json_array_size(bufs), 2);
  json_t *b1 = json_array_get(bufs, 1);
  assert_string_equal(json_string_value(json_object_get(b1, "file")), "k_a_b.arg1.i32.bin");
  assert_string_equal(json_string_value(json_object_get(b1, "type")), "i32");
  assert_int_equal(json_integer_value(json_object_get(b1, "arg")), 1);
  assert_int_equal(json_integer_value(json_object_get(b1, "count")), 3);
  assert_int_equal(json_integer_value(json_object_get(b1, "bytes")), 12);
  char addr[32];
  snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)g.buf[1].addr);
  assert_string_equal(json_string_value(json_object_get(b1, "address")), addr);
  json_decref(j);
  unlink(path);
  rmdir(dir);
  snprintf(path, sizeof path, "%s/x", tmpl);
  rmdir(path);
  rmdir(tmpl);

  /* a file where the directory should be */
  char *tf = tu_temp_file(".txt", "x");
  assert_int_equal(launch_dump(tf, &l, &g, &e), -1);
  assert_int_equal(e.code, WM_EIO);
  unlink(tf);
  free(tf);
  gmem_free(&g);
}

/* A large rand buffer is filled by several threads; its bytes are the
 * documented generator's all the same (launch.c: splitmix64 from
 * seed ^ 0xD1B54A32D192ED03 * (argno + 1), element i its (i+1)-th draw,
 * f32 = the draw's top 24 bits / 2^24), wherever the split falls. */
static void test_bind_rand_large(void **state) {
  (void)state;
  enum { N = 5000003 };
  static const char *const args[] = {"buf:f32:5000003", "buf:u8:1", "i32:0", "i32:0"};
  LaunchSpec l = spec_of(args, 4);
  uint8_t params[64];
  WmErr e = {0};
  GlobalMem g;
  gmem_init(&g, 0);
  if (launch_bind(&tkernel, &l, &g, params, INIT_RAND, 9, &e)) fail_msg("%s", e.msg);
  float *want = malloc(sizeof(float) * N);
  uint64_t st = 9 ^ 0xD1B54A32D192ED03ull;
  for (int i = 0; i < N; i++) {
    uint64_t z = (st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    want[i] = (float)(z >> 40) * (1.0f / 16777216.0f);
  }
  assert_memory_equal(g.buf[0].data, want, sizeof(float) * N);
  free(want);
  gmem_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_seed_file),    cmocka_unit_test(test_large_file),
    cmocka_unit_test(test_no_launches),  cmocka_unit_test(test_spec_forms),
    cmocka_unit_test(test_spec_errors),  cmocka_unit_test(test_parse_dim),
    cmocka_unit_test(test_parse_scalars), cmocka_unit_test(test_parse_buffers),
    cmocka_unit_test(test_bind_params),  cmocka_unit_test(test_bind_inits),
    cmocka_unit_test(test_bind_default_init), cmocka_unit_test(test_bind_errors),
    cmocka_unit_test(test_bind_empty),   cmocka_unit_test(test_dump),
    cmocka_unit_test(test_bind_rand_large),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
