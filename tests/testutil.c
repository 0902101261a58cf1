/* testutil.c - running the CLI, test data paths, temporary files, dumps, CSV lookups. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/arch.h"
#include "launch/launch.h"
#include "ptx/ptx.h"
#include "sim/sim.h"
#include "util/csv.h"
#include "util/diag.h"

int tu_run_cli(const char *args, char **out, char **err) {
  char outp[] = "/tmp/wmtest-outXXXXXX", errp[] = "/tmp/wmtest-errXXXXXX";
  int fo = mkstemp(outp), fe = mkstemp(errp);
  if (fo < 0 || fe < 0) return -1;
  close(fo);
  close(fe);
  size_t n = strlen(args) + strlen(WM_BINARY) + 2 * sizeof outp + 32;
  char *cmd = malloc(n);
  snprintf(cmd, n, "'%s' %s >%s 2>%s </dev/null", WM_BINARY, args, outp, errp);
  int st = system(cmd);
  free(cmd);
  WmErr e;
  if (out) *out = wm_read_file(outp, NULL, &e);
  if (err) *err = wm_read_file(errp, NULL, &e);
  unlink(outp);
  unlink(errp);
  if (st == -1 || !WIFEXITED(st)) return -1;
  return WEXITSTATUS(st);
}

const char *tu_data(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", WM_TEST_DATA, name);
  return path;
}

const char *tu_truth(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s%s%s", WM_GROUNDTRUTH, *name ? "/" : "", name);
  return path;
}

const char *tu_lab(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s%s%s", WM_LAB, *name ? "/" : "", name);
  return path;
}

const char *tu_corpus(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/tests/corpus/ptx/%s", WM_SOURCE_DIR, name);
  return path;
}

PtxModule *tu_load(const char *path) {
  WmErr e = {0};
  PtxModule *m = ptx_load(path, arch_ptx_target(), &e);
  if (!m) fail_msg("%s: %s", path, e.msg);
  return m;
}

/* Runs the launch of kernel `name` in clusters of `cluster` blocks (0:
 * the kernel's own). */
static void launch_in(SimRun *run, const PtxModule *m, const char *name, const char *grid, const char *block,
                      uint32_t smem, uint32_t cluster, va_list ap) {
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  WmErr e = {0};
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  if (launch_parse_dim(grid, ls->grid, &e) || launch_parse_dim(block, ls->block, &e))
    fail_msg("%s: %s", name, e.msg);
  ls->smem = smem;
  if (cluster) ls->cluster[0] = cluster, ls->cluster[1] = ls->cluster[2] = 1;
  for (const char *s; (s = va_arg(ap, const char *)) != NULL;) {
    assert_true(ls->nargs < LAUNCH_MAX_ARGS);
    if (launch_parse_arg(s, &ls->args[ls->nargs++], &e)) fail_msg("%s: %s", name, e.msg);
  }
  SimOptions o;
  sim_options_init(&o);
  o.keep_buffers = 1;
  o.init = INIT_RAND;
  o.seed = 12345;
  if (sim_run_launch(m, ls, &o, run, &e)) fail_msg("%s: %s", name, e.msg);
  assert_int_equal(run->have_gmem, 1);
  free(ls);
}

void tu_launchv(SimRun *run, const PtxModule *m, const char *name, const char *grid, const char *block,
                uint32_t smem, va_list ap) {
  launch_in(run, m, name, grid, block, smem, 0, ap);
}

void tu_launch(SimRun *run, const PtxModule *m, const char *name, const char *grid, const char *block,
               uint32_t smem, ...) {
  va_list ap;
  va_start(ap, smem);
  tu_launchv(run, m, name, grid, block, smem, ap);
  va_end(ap);
}

void tu_launch_cluster(SimRun *run, const PtxModule *m, const char *name, const char *grid, const char *block,
                       uint32_t cluster, ...) {
  va_list ap;
  va_start(ap, cluster);
  launch_in(run, m, name, grid, block, 0, cluster, ap);
  va_end(ap);
}

void *tu_arg_buf(SimRun *run, int argno, size_t elem, size_t count) {
  char prefix[32];
  snprintf(prefix, sizeof prefix, "arg%d (", argno);
  for (int i = 0; i < run->gmem.n; i++) {
    GBuf *b = &run->gmem.buf[i];
    if (!strncmp(b->name, prefix, strlen(prefix))) {
      assert_true(b->size >= elem * count);
      return b->data;
    }
  }
  fail_msg("no buffer for argument %d", argno);
  return NULL;
}

int tu_run_warp(const char *head, const char *body, uint64_t out[32][TU_NSLOT], char **err) {
  size_t n = strlen(head) + strlen(body) + 32;
  char *text = malloc(n);
  snprintf(text, n, "%s%s DONE:\n ret;\n}\n", head, body);
  char *path = tu_temp_file(".ptx", text);
  char dir[] = "/tmp/wmwarpXXXXXX", args[1024], *e = NULL;
  assert_non_null(mkdtemp(dir));
  snprintf(args, sizeof args, "sim %s --kernel k --grid 1 --block 32 --arg buf:u64:%d:zero --dump %s", path,
           32 * TU_NSLOT, dir);
  int rc = tu_run_cli(args, NULL, &e);
  if (rc != 0 && !err) fail_msg("warpmem exited %d:\n%s\n%s", rc, e ? e : "", text);
  if (rc == 0) tu_read_dump(dir, "k.arg0.u64.bin", out, sizeof(uint64_t) * 32 * TU_NSLOT);
  if (err) *err = e;
  else free(e);
  snprintf(args, sizeof args, "rm -rf '%s' '%s'", dir, path);
  assert_int_equal(system(args), 0);
  free(path);
  free(text);
  return rc;
}

void tu_check_warp(const char *name, const char *head, const char *body, const uint64_t *want, int n) {
  static uint64_t out[32][TU_NSLOT];
  tu_run_warp(head, body, out, NULL);
  int bad = 0;
  for (int l = 0; l < 32; l++)
    for (int i = 0; i < n; i++)
      if (out[l][i] != want[i]) {
        if (bad++ < 8)
          print_error("%s: lane %d slot %d: got 0x%llx, want 0x%llx\n", name, l, i, (unsigned long long)out[l][i],
                      (unsigned long long)want[i]);
      }
  if (bad) fail_msg("%s: %d wrong values", name, bad);
}

char *tu_temp_file(const char *suffix, const char *text) {
  char tmpl[64];
  snprintf(tmpl, sizeof tmpl, "/tmp/wmtestXXXXXX%s", suffix);
  int fd = mkstemps(tmpl, (int)strlen(suffix));
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  return strdup(tmpl);
}

void tu_read_dump(const char *dir, const char *file, void *buf, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("no %s", path);
  size_t got = fread(buf, 1, bytes, f);
  fclose(f);
  if (got != bytes) fail_msg("%s: %zu bytes, want %zu", path, got, bytes);
}

double tu_csv_value(const char *text, const char *row, const char *col) {
  enum { MAX = 256 };
  char *copy = strdup(text), *p = copy, *f[MAX];
  int n = wm_csv_read(&p, f, MAX), ci = -1;
  for (int i = 0; i < n && i < MAX; i++)
    if (!strcmp(f[i], col)) ci = i;
  double v = -1;
  while (ci >= 0 && (n = wm_csv_read(&p, f, MAX)) > 0)
    if (!strcmp(f[0], row)) {
      if (ci < n && ci < MAX) v = strtod(f[ci], NULL);
      break;
    }
  free(copy);
  return v;
}
