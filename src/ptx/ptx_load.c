/* ptx_load.c - a .ptx file, or a .cu compiled to PTX with nvcc. */
#include "ptx/ptx.h"
#include "ptx/ptx_load_int.h"
#include "arch/arch.h"
#include "util/elf.h"
#include "util/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int pl_find_tool(const char *tool, char *buf, size_t n) {
  if (wm_find_program(tool, buf, n) == 0) return 0;
  const char *home = getenv("CUDA_HOME");
  if (home && *home && (size_t)snprintf(buf, n, "%s/bin/%s", home, tool) < n && access(buf, X_OK) == 0) return 0;
  if ((size_t)snprintf(buf, n, "/usr/local/cuda/bin/%s", tool) < n && access(buf, X_OK) == 0) return 0;
  return -1;
}

/* The time limit of a tool: $var in seconds (above 0, at most a day), or
 * def when it is unset.  -1 with a message for a value that is not one. */
static double tool_limit(const char *var, double def, WmErr *e) {
  const char *v = getenv(var);
  if (!v || !*v) return def;
  char *end;
  double t = strtod(v, &end);
  if (end == v || *end || !(t > 0) || t > 86400)
    return wm_err(e, WM_EUSAGE, "%s=%s: expected seconds, above 0 and at most 86400", var, v);
  return t;
}

/* Waits for pid up to `limit` seconds; past it, kills its process group
 * (the tool and what it started: nvcc's cicc and ptxas).  0 with its wait
 * status, 1 if it was killed, -1 if waiting failed. */
static int wait_limited(pid_t pid, double limit, int *status) {
  double end = wm_now() + limit;
  long nap = 1000000; /* ns: 1 ms, doubling to 50 ms */
  for (;;) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return 0;
    if (r < 0 && errno != EINTR) return -1;
    if (wm_now() > end) break;
    struct timespec ts = {0, nap};
    nanosleep(&ts, NULL);
    if (nap < 50000000) nap *= 2;
  }
  kill(-pid, SIGKILL);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
  return 1;
}

int pl_spawn_logged(char *const argv[], const char *log, const char *what, const char *file,
                        const char *limit_var, double limit_def, int *status, WmErr *e) {
  double limit = tool_limit(limit_var, limit_def, e);
  if (limit < 0) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&at, 0);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (rc != 0) return wm_err(e, WM_ETOOL, "cannot run %s: %s", argv[0], strerror(rc));
  rc = wait_limited(pid, limit, status);
  if (rc < 0) return wm_err(e, WM_ETOOL, "waiting for %s: %s", argv[0], strerror(errno));
  if (rc > 0)
    return wm_err(e, WM_ETOOL, "%s did not finish within %g s on %s and was stopped (its time limit: %s, "
                  "default %g s)", what, limit, file, limit_var, limit_def);
  return 0;
}

void pl_read_tail(const char *log, char *buf, size_t n) {
  buf[0] = '\0';
  FILE *f = fopen(log, "rb");
  if (f) {
    if (fseek(f, 0, SEEK_END) == 0) {
      long size = ftell(f);
      long from = size > (long)n - 1 ? size - (long)n + 1 : 0;
      fseek(f, from, SEEK_SET);
      size_t got = fread(buf, 1, n - 1, f);
      buf[got] = '\0';
    }
    fclose(f);
  }
  size_t l = strlen(buf);
  while (l > 0 && (buf[l - 1] == '\n' || buf[l - 1] == '\r')) buf[--l] = '\0';
}

/* The command line argv as a shell would take it back (words with blanks
 * or quotes in single quotes), into buf: for messages. */
static void command_text(char *const argv[], char *buf, size_t n) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; argv[i] && o + 1 < n; i++) {
    int quote = strpbrk(argv[i], " \t'\"$\\") != NULL || !argv[i][0];
    int w = snprintf(buf + o, n - o, quote ? "%s'%s'" : "%s%s", i ? " " : "", argv[i]);
    if (w < 0) break;
    o += (size_t)w;
  }
}

/* Runs nvcc on `cu` with the extra flags (before the file), writing PTX
 * into `out`; nvcc's stdout and stderr go to `log`.  Returns 0 or -1 with
 * WM_ETOOL in e: nvcc's message and the command run. */
static int run_nvcc(const char *nvcc, const char *cu, const char *arch, const char *const *flags, int nflags,
                    const char *out, const char *log, WmErr *e) {
  char archopt[64];
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  char *fixed[] = {(char *)nvcc, "-ptx", "-O3", "-lineinfo", archopt};
  int nfixed = (int)(sizeof fixed / sizeof *fixed), k = 0;
  for (int i = 0; i < nflags; i++) /* the project's own target (-arch=sm_90a, -gencode) replaces ours */
    if (!strncmp(flags[i], "-arch", 5) || !strncmp(flags[i], "--gpu-architecture", 18) ||
        !strncmp(flags[i], "-gencode", 8) || !strncmp(flags[i], "--generate-code", 15))
      nfixed = 4;
  char **argv = wm_xcalloc((size_t)(nfixed + nflags + 4), sizeof *argv);
  for (int i = 0; i < nfixed; i++) argv[k++] = fixed[i];
  for (int i = 0; i < nflags; i++) argv[k++] = (char *)flags[i];
  argv[k++] = (char *)cu;
  argv[k++] = "-o";
  argv[k++] = (char *)out;
  int status, rc = 0;
  if (pl_spawn_logged(argv, log, "nvcc", cu, "WARPMEM_NVCC_TIMEOUT", PTX_NVCC_TIMEOUT, &status, e)) rc = -1;
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char said[1536], cmd[1024]; /* what nvcc said (its last ~1500 bytes), and to what */
    pl_read_tail(log, said, sizeof said);
    argv[k - 2] = NULL; /* the temporary output is not the user's concern */
    command_text(argv, cmd, sizeof cmd);
    if (WIFEXITED(status))
      rc = wm_err(e, WM_ETOOL, "nvcc failed on %s (exit status %d):\n%s\n  command: %s", cu, WEXITSTATUS(status),
                  said, cmd);
    else
      rc = wm_err(e, WM_ETOOL, "nvcc was killed by signal %d while compiling %s\n  command: %s", WTERMSIG(status), cu,
                  cmd);
  }
  free(argv);
  return rc;
}

int pl_make_temp_dir(char *dir, size_t n, WmErr *e) {
  const char *tmp = getenv("TMPDIR");
  if ((size_t)snprintf(dir, n, "%s/warpmem-XXXXXX", tmp && *tmp ? tmp : "/tmp") >= n || !mkdtemp(dir))
    return wm_err(e, WM_EIO, "cannot create a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
                  strerror(errno));
  return 0;
}

PtxModule *ptx_load(const char *path, const char *arch, WmErr *e) { return ptx_load_with(path, arch, NULL, 0, e); }

PtxModule *ptx_load_with(const char *path, const char *arch, const char *const *nvcc_flags, int nflags, WmErr *e) {
  if (!wm_ends_with(path, ".cu")) {
    char *text = wm_read_file(path, NULL, e);
    if (!text) return NULL;
    return ptx_parse(path, text, e);
  }
  if (!arch || !*arch) arch = arch_ptx_target();
  int fd = wm_open_regular(path, WM_READ_MAX, e); /* not a FIFO nvcc would wait on */
  if (fd < 0) return NULL;
  close(fd);
  char nvcc[4096];
  if (pl_find_tool("nvcc", nvcc, sizeof nvcc) < 0) {
    wm_err(e, WM_ETOOL,
           "%s: nvcc not found (looked on PATH, in $CUDA_HOME/bin and /usr/local/cuda/bin): "
           "install the CUDA toolkit, or pass a .ptx file (nvcc -ptx -arch=%s -lineinfo %s)",
           path, arch, path);
    return NULL;
  }
  char dir[4000];
  if (pl_make_temp_dir(dir, sizeof dir, e)) return NULL;
  PtxModule *m = NULL;
  char out[4200], log[4200];
  snprintf(out, sizeof out, "%s/out.ptx", dir);
  snprintf(log, sizeof log, "%s/nvcc.log", dir);
  if (run_nvcc(nvcc, path, arch, nvcc_flags, nflags, out, log, e) == 0) {
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

/* ---------------------------------------------------------- registers */

/* CUDA 13's ptxas compiles for sm_75 and later only. */
#define PTXAS_OLDEST_SM 75

/* Where the sm_XX token of the .target directive starts in text, and its
 * length; NULL if the PTX has none. */
static const char *target_token(const char *text, size_t *len) {
  for (const char *p = text; (p = strstr(p, ".target")) != NULL; p += 7) {
    if (p != text && p[-1] != '\n') continue; /* a directive starts its line */
    const char *eol = strchr(p, '\n');
    const char *sm = strstr(p, "sm_");
    if (!sm || (eol && sm > eol)) return NULL;
    size_t n = 3;
    while (sm[n] >= '0' && sm[n] <= '9') n++;
    while (sm[n] >= 'a' && sm[n] <= 'z') n++; /* sm_90a */
    *len = n;
    return sm;
  }
  return NULL;
}

/* Writes the module's PTX to `path` with its .target set to sm_<target>
 * when target is not 0.  Returns 0 or -1. */
static int write_ptx(const PtxModule *m, const char *path, int target) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t len = 0;
  const char *tok = target ? target_token(m->text, &len) : NULL;
  int ok;
  if (tok) {
    ok = fwrite(m->text, 1, (size_t)(tok - m->text), f) == (size_t)(tok - m->text) &&
         fprintf(f, "sm_%d", target) > 0 && fputs(tok + len, f) >= 0;
  } else {
    ok = fputs(m->text, f) >= 0;
  }
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* The first `needle` in the n bytes at p, or NULL (memmem is a GNU extension). */
static const char *find_in(const char *p, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (!memcmp(p + i, needle, k)) return p + i;
  return NULL;
}

/* Reads ptxas -v's log: "Compiling entry function 'NAME' for 'sm_90'" then
 * "Used N registers" for each entry.  Returns how many kernels got regs. */
static int parse_ptxas_log(PtxModule *m, const char *log) {
  int found = 0;
  PtxKernel *cur = NULL;
  for (const char *p = log; p && *p;) {
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    const char *entry = find_in(p, n, "entry function '");
    const char *used = find_in(p, n, "Used ");
    if (entry) {
      const char *name = entry + 16, *q = memchr(name, '\'', n - (size_t)(name - p));
      cur = NULL;
      for (int i = 0; q && i < m->nkernels; i++)
        if (strlen(m->kernels[i].name) == (size_t)(q - name) && !memcmp(m->kernels[i].name, name, (size_t)(q - name)))
          cur = &m->kernels[i];
    } else if (used && cur) {
      int regs = atoi(used + 5);
      if (regs > 0) {
        cur->regs = regs;
        found++;
      }
      cur = NULL;
    }
    p = eol ? eol + 1 : NULL;
  }
  return found;
}

/* A cubin section: .text.NAME holds kernel NAME's code. */
static void note_code_size(void *ctx, const char *name, uint64_t size) {
  PtxModule *m = ctx;
  if (strncmp(name, ".text.", 6) != 0) return;
  for (int i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, name + 6) == 0) m->kernels[i].code_bytes = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
}

/* (.target sm_90a: ptxas -arch=sm_90 refuses its wgmma and setmaxnreg) */
void pl_ptxas_arch(const PtxModule *m, int target, char *buf, size_t n) {
  int own = strncmp(m->target, "sm_", 3) == 0 ? atoi(m->target + 3) : 0;
  size_t digits = strspn(m->target + 3, "0123456789");
  if (own == target && m->target[3 + digits]) snprintf(buf, n, "%s", m->target);
  else snprintf(buf, n, "sm_%d", target);
}

/* Runs ptxas for sm_<target> on the PTX in dir/in.ptx; 0 when it succeeded
 * and reported registers, else -1 with its last words in why. */
static int run_ptxas(PtxModule *m, const char *ptxas, const char *dir, int target, int rewrite,
                     const char *const *entries, int nentries, char *why, size_t whyn) {
  char in[4200], log[4200], archopt[48], arch[32];
  snprintf(in, sizeof in, "%s/in.ptx", dir);
  snprintf(log, sizeof log, "%s/ptxas.log", dir);
  pl_ptxas_arch(m, target, arch, sizeof arch);
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  int rc = -1;
  if (write_ptx(m, in, rewrite ? target : 0)) {
    snprintf(why, whyn, "cannot write the PTX for ptxas in %.100s", dir);
    unlink(in);
    return -1;
  }
  char **argv = wm_xcalloc((size_t)(2 * nentries + 8), sizeof *argv);
  int c = 0;
  argv[c++] = (char *)ptxas;
  argv[c++] = archopt;
  argv[c++] = "-v";
  for (int i = 0; i < nentries; i++) {
    argv[c++] = "-e";
    argv[c++] = (char *)entries[i];
  }
  char cubin[4200];
  snprintf(cubin, sizeof cubin, "%s/out.cubin", dir);
  argv[c++] = in;
  argv[c++] = "-o";
  argv[c++] = cubin;
  WmErr e = {0};
  int status = 0;
  if (pl_spawn_logged(argv, log, "ptxas -v (the registers per thread)", m->path, "WARPMEM_PTXAS_TIMEOUT",
                   PTX_PTXAS_TIMEOUT, &status, &e)) {
    snprintf(why, whyn, "%.*s", (int)whyn - 1, e.msg);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char said[120];
    pl_read_tail(log, said, sizeof said);
    snprintf(why, whyn, "ptxas %s failed: %.100s", archopt, said);
  } else {
    char *text = wm_read_file(log, NULL, NULL);
    if (text && parse_ptxas_log(m, text) > 0) rc = 0;
    else snprintf(why, whyn, "ptxas %s reported no registers", archopt);
    free(text);
    WmErr ignored = {0}; /* the code size is a refinement: none is fine */
    if (rc == 0) elf_sections(cubin, note_code_size, m, &ignored);
  }
  free(argv);
  unlink(in);
  unlink(log);
  unlink(cubin);
  return rc;
}

int ptx_registers(PtxModule *m, int cc, const char *const *entries, int nentries) {
  m->regs_from[0] = m->regs_note[0] = '\0';
  for (int i = 0; i < m->nkernels; i++) m->kernels[i].regs = 0, m->kernels[i].code_bytes = 0;
  char ptxas[4096];
  if (pl_find_tool("ptxas", ptxas, sizeof ptxas) < 0) {
    snprintf(m->regs_note, sizeof m->regs_note,
             "ptxas not found on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin");
    return -1;
  }
  char dir[4000];
  WmErr e = {0};
  if (pl_make_temp_dir(dir, sizeof dir, &e)) {
    snprintf(m->regs_note, sizeof m->regs_note, "%.180s", e.msg);
    return -1;
  }
  int own = strncmp(m->target, "sm_", 3) == 0 ? atoi(m->target + 3) : 0;
  int target = cc < PTXAS_OLDEST_SM ? PTXAS_OLDEST_SM : cc;
  char why[sizeof m->regs_note] = "";
  /* ptxas compiles PTX for its .target and newer: lower the .target to
   * count registers for an older GPU */
  int rc = run_ptxas(m, ptxas, dir, target, own > target, entries, nentries, why, sizeof why);
  if (rc == 0) {
    char arch[32];
    pl_ptxas_arch(m, target, arch, sizeof arch);
    snprintf(m->regs_from, sizeof m->regs_from, "ptxas -arch=%s", arch);
    if (target != cc)
      snprintf(m->regs_note, sizeof m->regs_note,
               "registers for sm_%d: CUDA's ptxas no longer compiles for sm_%d", target, cc);
  } else if (own > target && own >= PTXAS_OLDEST_SM) {
    /* the PTX needs its own target's features: count for that one */
    rc = run_ptxas(m, ptxas, dir, own, 0, entries, nentries, why, sizeof why);
    if (rc == 0) {
      char arch[32];
      pl_ptxas_arch(m, own, arch, sizeof arch);
      snprintf(m->regs_from, sizeof m->regs_from, "ptxas -arch=%s", arch);
      snprintf(m->regs_note, sizeof m->regs_note, "registers for sm_%d: the PTX does not compile for sm_%d", own,
               target);
    }
  }
  if (rc) snprintf(m->regs_note, sizeof m->regs_note, "%s", why);
  rmdir(dir);
  return rc;
}
