/* run_exec.c - `warpmem run`: finding the app and warpmem's runtime,
 * the runtime's environment, and running the app as a child process.
 *
 * The stand-in libraries (libcudart.so.13/.12, libcuda.so.1) are found by
 * the app's dynamic loader through LD_LIBRARY_PATH.  An RPATH (not RUNPATH)
 * in the app, or in a library it loads, is searched before LD_LIBRARY_PATH:
 * the loader is asked first (LD_TRACE_LOADED_OBJECTS, as ldd does) and
 * where it would pick NVIDIA's library, warpmem's is preloaded instead (a
 * preloaded library's SONAME satisfies the app's NEEDED entry). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/run_cmd.h"
#include "rt/rt_env.h"
#include "util/sys.h"

int run_resolve_app(const char *app, char *path, size_t n, WmErr *e) {
  if (!strchr(app, '/')) {
    if (wm_find_program(app, path, n))
      return wm_err(e, WM_EIO, "%s: no such program in PATH (for a file in this folder, write ./%s)", app, app);
    return 0;
  }
  struct stat st;
  if (snprintf(path, n, "%s", app) >= (int)n) return wm_err(e, WM_EIO, "%s: path too long", app);
  if (stat(path, &st)) return wm_err(e, WM_EIO, "%s: %s", app, strerror(errno));
  if (S_ISDIR(st.st_mode)) return wm_err(e, WM_EIO, "%s is a folder, not an application", app);
  if (!S_ISREG(st.st_mode) || access(path, X_OK))
    return wm_err(e, WM_EIO, "%s is not an executable file (chmod +x?)", app);
  return 0;
}

/* The folder of the running warpmem executable + "/rt". */
static int default_rt_dir(char *dir, size_t n, WmErr *e) {
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return wm_err(e, WM_EIO, "cannot find the warpmem executable (/proc/self/exe): set WARPMEM_RT_DIR");
  exe[len] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash) *slash = '\0';
  snprintf(dir, n, "%s/rt", exe);
  return 0;
}

/* dir/lib must exist: else say how to get it. */
static int need_lib(const char *dir, const char *lib, const char *what, WmErr *e) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", dir, lib);
  if (access(path, R_OK) == 0) return 0;
  return wm_err(e, WM_EIO, "warpmem's %s is not built: %s is missing.\nBuild it with `make build` in warpmem's "
                "source tree (cmake builds build/rt/), or set WARPMEM_RT_DIR to the folder that holds it",
                what, path);
}

int run_find_rt(const ElfInfo *elf, char *dir, size_t n, WmErr *e) {
  const char *env = getenv("WARPMEM_RT_DIR");
  if (env && *env) snprintf(dir, n, "%s", env);
  else if (default_rt_dir(dir, n, e)) return -1;
  struct stat st;
  if (stat(dir, &st) || !S_ISDIR(st.st_mode))
    return wm_err(e, WM_EIO, "warpmem's CUDA runtime is not built: no folder %s.\nBuild it with `make build` "
                  "in warpmem's source tree, or set WARPMEM_RT_DIR to the folder of its libcudart.so.13", dir);
  char abs[PATH_MAX];
  if (realpath(dir, abs)) snprintf(dir, n, "%s", abs); /* LD_LIBRARY_PATH must not depend on the app's cwd */
  int major = elf->cudart_major;
  if (major && major != 12 && major != 13)
    return wm_err(e, WM_EUNSUP, "the application needs libcudart.so.%d (CUDA %d); warpmem's runtime stands in "
                  "for CUDA 12 and 13 (libcudart.so.12, libcudart.so.13): rebuild it with a CUDA 12 or 13 nvcc",
                  major, major);
  char lib[32];
  snprintf(lib, sizeof lib, "libcudart.so.%d", major);
  if (major && need_lib(dir, lib, "CUDA runtime", e)) return -1;
  if ((elf->needs_libcuda || elf->static_cudart) && need_lib(dir, "libcuda.so.1", "CUDA driver API", e)) return -1;
  return 0;
}

/* Sets name to v, or unsets it for NULL (the runtime's default). */
static void set_or_unset(const char *name, const char *v) {
  if (v) setenv(name, v, 1);
  else unsetenv(name);
}

static void set_bytes(const char *name, uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  set_or_unset(name, v ? buf : NULL);
}

/* Prepends dir to the list variable name (':'-separated). */
static void prepend_path(const char *name, const char *dir) {
  const char *old = getenv(name);
  size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
  char *v = wm_xmalloc(n);
  snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
  setenv(name, v, 1);
  free(v);
}

void run_set_env(const RunCmd *c, const RunPlan *p) {
  setenv(RT_ENV_REPORT, p->report, 1);
  setenv(RT_ENV_FORMAT, c->format, 1);
  set_or_unset(RT_ENV_LINES, c->lines == 2 ? "2" : c->lines ? "1" : NULL);
  set_or_unset(RT_ENV_ARCH, c->arch);
  set_or_unset(RT_ENV_KERNEL, c->kernel);
  set_or_unset(RT_ENV_SKIP, c->skip);
  set_or_unset(RT_ENV_COUNT, c->count);
  set_or_unset(RT_ENV_ONCE, c->once ? "1" : NULL);
  set_or_unset(RT_ENV_CACHES, c->no_caches ? "0" : NULL);
  set_or_unset(RT_ENV_LOADS, c->loads);
  set_or_unset(RT_ENV_PROGRESS, c->quiet ? "0" : NULL);
  set_bytes(RT_ENV_MEMLIMIT, c->mem_limit);
  set_bytes(RT_ENV_STACK, c->stack_size);
  set_bytes(RT_ENV_HEAP, c->heap_size);
  set_or_unset(RT_ENV_CHECK, c->check ? p->check : NULL);
  set_or_unset(RT_ENV_MAXINSTR, c->max_instrs);
  set_or_unset(RT_ENV_TIMEOUT, c->timeout);
  prepend_path("LD_LIBRARY_PATH", p->rt_dir);
}

/* Runs `path` with LD_TRACE_LOADED_OBJECTS=1 (the loader lists the
 * libraries it would load and exits); its output in buf.  -1 if that
 * cannot be done. */
static int trace_loader(const char *path, char *buf, size_t n) {
  int fd[2];
  if (pipe(fd)) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return close(fd[0]), close(fd[1]), -1;
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDWR);
    dup2(fd[1], 1);
    if (devnull >= 0) dup2(devnull, 2), dup2(devnull, 0);
    close(fd[0]);
    setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
    execl(path, path, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  size_t len = 0;
  ssize_t r;
  char drain[4096]; /* past n: read on, so that the child never blocks on a full pipe */
  while ((r = len < n - 1 ? read(fd[0], buf + len, n - 1 - len) : read(fd[0], drain, sizeof drain)) > 0 ||
         (r < 0 && errno == EINTR))
    if (r > 0 && len < n - 1) len += (size_t)r;
  buf[len] = '\0';
  close(fd[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Whether file (a library's path) lies in folder dir, both resolved. */
static int in_dir(const char *file, const char *dir) {
  char f[PATH_MAX], d[PATH_MAX];
  if (!realpath(file, f) || !realpath(dir, d)) return 0;
  char *slash = strrchr(f, '/');
  if (slash) *slash = '\0';
  return !strcmp(f, d);
}

/* Adds path to the front of the preload list pre (n bytes). */
static void add_preload(char *pre, size_t n, const char *path) {
  size_t len = strlen(pre);
  if (len + strlen(path) + 2 > n) return;
  snprintf(pre + len, n - len, "%s%s", len ? ":" : "", path);
}

/* One line of the loader's list, "\tNAME => PATH (0x...)": NAME and PATH. */
static int trace_line(const char *line, char *name, char *path) {
  return sscanf(line, " %255s => %4095s (", name, path) == 2 && path[0] == '/';
}

/* The CUDA library `name` (a SONAME) that the loader would take from
 * `path`, outside rt_dir: warpmem's own is preloaded in its place. */
static void replace_foreign(const RunPlan *p, const char *name, const char *path, char *pre, size_t n) {
  if (in_dir(path, p->rt_dir)) return;
  char ours[sizeof p->rt_dir + 300];
  snprintf(ours, sizeof ours, "%s/%s", p->rt_dir, name);
  if (access(ours, R_OK)) return; /* run_find_rt checked what the app itself needs */
  fprintf(stderr, "warpmem: %s would load %s from %s (an RPATH, searched before LD_LIBRARY_PATH); "
                  "preloading warpmem's %s in its place\n", p->app_path, name, path, ours);
  add_preload(pre, n, ours);
}

/* The CUDA libraries warpmem stands in for (SONAMEs). */
static int is_standin(const char *name) {
  return !strncmp(name, "libcudart.so.", 13) || !strcmp(name, "libcuda.so.1") || !strcmp(name, "libcublas.so.13") ||
         !strcmp(name, "libcublasLt.so.13") || !strcmp(name, "libcurand.so.10");
}

/* The loader's list of what `path` loads: ASan's runtime goes first into
 * pre, and (unless asan_only) a foreign CUDA library warpmem stands in for
 * (libcudart, libcuda, libcublas, libcublasLt, libcurand) is replaced by
 * warpmem's. */
static void scan_loader(RunPlan *p, const char *path, int asan_only, char *pre, size_t npre) {
  static char out[1 << 16];
  if (trace_loader(path, out, sizeof out)) return;
  char name[256], lib[4096];
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
    if (!trace_line(line, name, lib)) continue;
    if (!strncmp(name, "libasan.so", 10)) {
      /* the app is not instrumented but warpmem's libraries are: ASan's
       * runtime must be the first library of the process */
      add_preload(pre, npre, lib);
      p->preload_asan = 1;
    } else if (!asan_only && is_standin(name)) {
      replace_foreign(p, name, lib, pre, npre);
    }
  }
}

void run_check_loader(RunPlan *p) {
  char pre[3 * PATH_MAX] = "";
  /* only an ELF that NEEDs a library has a loader to ask: a static(-pie)
   * program would ignore the variable and run */
  if (p->elf.dynamic && (p->elf.cudart_major || p->elf.needs_libcuda || p->elf.needs_cudalibs))
    scan_loader(p, p->app_path, 0, pre, sizeof pre);
  /* the static runtime NEEDs none of warpmem's libraries (it dlopens
   * libcuda.so.1): whether they are instrumented, warpmem's own list says
   * (they are built with it) */
  else if (p->elf.dynamic && p->elf.static_cudart) scan_loader(p, "/proc/self/exe", 1, pre, sizeof pre);
  if (pre[0]) prepend_path("LD_PRELOAD", pre);
}

/* The child: default signals, ASan's options for an uninstrumented app,
 * then exec; an exec error goes to the parent through the pipe `err`. */
static void child_exec(const RunCmd *c, const RunPlan *p, int err) {
  signal(SIGINT, SIG_DFL);
  signal(SIGQUIT, SIG_DFL);
  if (p->preload_asan) {
    /* the app's own allocations are not warpmem's leaks */
    const char *old = getenv("ASAN_OPTIONS");
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%sdetect_leaks=0", old ? old : "", old && *old ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
  }
  execv(p->app_path, c->app_argv);
  int code = errno;
  ssize_t w = write(err, &code, sizeof code);
  (void)w;
  _exit(127);
}

int run_app(const RunCmd *c, const RunPlan *p, int *wstatus, WmErr *e) {
  int fd[2];
  if (pipe(fd)) return wm_err(e, WM_EIO, "cannot run %s: pipe: %s", p->app_path, strerror(errno));
  fcntl(fd[0], F_SETFD, FD_CLOEXEC);
  fcntl(fd[1], F_SETFD, FD_CLOEXEC); /* closed by a successful exec: the parent reads nothing */
  fflush(NULL);
  /* as system() does: Ctrl-C ends the app, and warpmem stays to clean up */
  struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
  sigaction(SIGINT, &ign, &old_int);
  sigaction(SIGQUIT, &ign, &old_quit);
  pid_t pid = fork();
  if (pid == 0) child_exec(c, p, fd[1]);
  close(fd[1]);
  int code = 0;
  ssize_t r = 0;
  while (pid > 0 && (r = read(fd[0], &code, sizeof code)) < 0 && errno == EINTR) {}
  close(fd[0]);
  if (pid > 0)
    while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR) {}
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGQUIT, &old_quit, NULL);
  if (pid < 0) return wm_err(e, WM_EIO, "cannot run %s: fork: %s", p->app_path, strerror(errno));
  if (r == (ssize_t)sizeof code) return wm_err(e, WM_EIO, "cannot run %s: %s", p->app_path, strerror(code));
  return 0;
}
