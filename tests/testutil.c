#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 >= cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  buf[n] = '\0';
  return buf;
}

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
  if (out) *out = slurp(outp);
  if (err) *err = slurp(errp);
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
