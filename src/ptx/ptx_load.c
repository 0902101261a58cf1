/* ptx_load.c - a .ptx file, or a .cu compiled to PTX with nvcc. */
#include "ptx/ptx.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int is_exec(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Finds nvcc: on PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin.
 * Writes its path into buf; returns 0, or -1 if there is none. */
static int find_nvcc(char *buf, size_t n) {
  const char *path = getenv("PATH");
  if (path) {
    const char *p = path;
    for (;;) {
      size_t len = strcspn(p, ":");
      if (len > 0 && (size_t)snprintf(buf, n, "%.*s/nvcc", (int)len, p) < n && is_exec(buf)) return 0;
      if (!p[len]) break;
      p += len + 1;
    }
  }
  const char *home = getenv("CUDA_HOME");
  if (home && *home && (size_t)snprintf(buf, n, "%s/bin/nvcc", home) < n && is_exec(buf)) return 0;
  if ((size_t)snprintf(buf, n, "/usr/local/cuda/bin/nvcc") < n && is_exec(buf)) return 0;
  return -1;
}

static int ends_with(const char *s, const char *suffix) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Runs nvcc on `cu`, writing PTX into `out`; nvcc's stdout and stderr go to
 * `log`.  Returns 0 or -1 with WM_ETOOL in e. */
static int run_nvcc(const char *nvcc, const char *cu, const char *arch, const char *out,
                    const char *log, WmErr *e) {
  char archopt[64];
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  char *argv[] = {(char *)nvcc, "-ptx", archopt, "-O3", "-lineinfo", (char *)cu, "-o", (char *)out, NULL};

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawn(&pid, nvcc, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return wm_err(e, WM_ETOOL, "cannot run %s: %s", nvcc, strerror(rc));
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return wm_err(e, WM_ETOOL, "waiting for nvcc: %s", strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;

  /* show what nvcc said (its last ~1500 bytes) */
  char said[1536] = "";
  FILE *f = fopen(log, "rb");
  if (f) {
    if (fseek(f, 0, SEEK_END) == 0) {
      long size = ftell(f);
      long from = size > (long)sizeof said - 1 ? size - (long)sizeof said + 1 : 0;
      fseek(f, from, SEEK_SET);
      size_t got = fread(said, 1, sizeof said - 1, f);
      said[got] = '\0';
    }
    fclose(f);
  }
  size_t l = strlen(said);
  while (l > 0 && (said[l - 1] == '\n' || said[l - 1] == '\r')) said[--l] = '\0';
  if (WIFEXITED(status))
    return wm_err(e, WM_ETOOL, "nvcc failed on %s (exit status %d):\n%s", cu, WEXITSTATUS(status), said);
  return wm_err(e, WM_ETOOL, "nvcc was killed by signal %d while compiling %s", WTERMSIG(status), cu);
}

PtxModule *ptx_load(const char *path, const char *arch, WmErr *e) {
  if (!ends_with(path, ".cu")) {
    char *text = wm_read_file(path, NULL, e);
    if (!text) return NULL;
    return ptx_parse(path, text, e);
  }
  if (!arch || !*arch) arch = "sm_90";
  if (access(path, R_OK) != 0) {
    wm_err(e, WM_EIO, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  char nvcc[4096];
  if (find_nvcc(nvcc, sizeof nvcc) < 0) {
    wm_err(e, WM_ETOOL,
           "%s: nvcc not found (looked on PATH, in $CUDA_HOME/bin and /usr/local/cuda/bin): "
           "install the CUDA toolkit, or pass a .ptx file (nvcc -ptx -arch=%s -lineinfo %s)",
           path, arch, path);
    return NULL;
  }
  const char *tmp = getenv("TMPDIR");
  char dir[4000];
  if ((size_t)snprintf(dir, sizeof dir, "%s/warpmem-XXXXXX", tmp && *tmp ? tmp : "/tmp") >= sizeof dir ||
      !mkdtemp(dir)) {
    wm_err(e, WM_EIO, "cannot create a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp", strerror(errno));
    return NULL;
  }
  PtxModule *m = NULL;
  char out[4200], log[4200];
  snprintf(out, sizeof out, "%s/out.ptx", dir);
  snprintf(log, sizeof log, "%s/nvcc.log", dir);
  if (run_nvcc(nvcc, path, arch, out, log, e) == 0) {
    char *text = wm_read_file(out, NULL, e);
    if (text) {
      /* parse errors name the PTX nvcc made from the .cu (line numbers are
       * PTX lines); the module itself is named after the .cu */
      char shown[4200];
      snprintf(shown, sizeof shown, "%s.ptx", path);
      m = ptx_parse(shown, text, e);
      if (m) {
        free(m->path);
        m->path = wm_xstrdup(path);
      }
    }
  }
  unlink(out);
  unlink(log);
  rmdir(dir);
  return m;
}
