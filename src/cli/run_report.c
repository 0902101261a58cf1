/* run_report.c - `warpmem run`: the report the runtime writes at the
 * app's exit (a file in a temporary folder of our own, so that "no file"
 * means "the runtime never wrote one"), handed on after the app's output. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_cmd.h"

int run_report_prepare(const RunCmd *c, RunPlan *p, WmErr *e) {
  const char *tmp = getenv("TMPDIR");
  snprintf(p->report_dir, sizeof p->report_dir, "%s/warpmem-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(p->report_dir))
    return wm_err(e, WM_EIO, "cannot make a temporary folder %s: %s", p->report_dir, strerror(errno));
  snprintf(p->report, sizeof p->report, "%s/report.%s", p->report_dir, c->format);
  snprintf(p->check, sizeof p->check, "%s/check.txt", p->report_dir);
  if (!c->out) return 0;
  p->out = fopen(c->out, "we"); /* close-on-exec: not the app's */
  if (!p->out) {
    int err = errno;
    rmdir(p->report_dir);
    return wm_err(e, WM_EIO, "--out %s: cannot write: %s", c->out, strerror(err));
  }
  return 0;
}

/* Copies the file at path to f.  -1 on a read or write error. */
static int copy_file(const char *path, FILE *f) {
  FILE *in = fopen(path, "rb");
  if (!in) return -1;
  char buf[1 << 16];
  size_t n;
  int bad = 0;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, f) != n) bad = 1;
  bad |= ferror(in);
  fclose(in);
  return bad || fflush(f) ? -1 : 0;
}

/* Why the runtime wrote no report, as far as the app's ELF and its end
 * tell. */
static void explain_missing(const RunPlan *p, int wstatus) {
  const ElfInfo *elf = &p->elf;
  if (!elf->cudart_major && !elf->needs_libcuda && !elf->static_cudart) {
    fprintf(stderr, "warpmem: %s did not load warpmem's CUDA runtime: it needs neither libcudart nor libcuda "
                    "(a program without CUDA%s), so nothing ran on warpmem\n",
            p->app_path, elf->has_fatbin ? "" : ", or one that loads CUDA with dlopen and did not this time");
    return;
  }
  if (WIFSIGNALED(wstatus)) {
    fprintf(stderr, "warpmem: no report: the runtime writes it when the application exits, and a signal "
                    "ended it first\n");
    return;
  }
  fprintf(stderr, "warpmem: no report: %s made no kernel launch that reached warpmem's runtime (the report is "
                  "written at exit when there were launches)%s, or it ended without running its exit handlers "
                  "(_exit, abort)\n", p->app_path, elf->has_fatbin || elf->needs_libcuda ? "" : "; it carries no device code of its own");
}

/* The report to --out (opened already) or stdout: 0, or 1 if it could not
 * be written. */
static int hand_on(const RunCmd *c, const RunPlan *p) {
  if (copy_file(p->report, p->out ? p->out : stdout) == 0) return 0;
  fprintf(stderr, "warpmem: cannot copy the report %s to %s: %s\n", p->report, c->out ? c->out : "stdout",
          strerror(errno));
  return 1;
}

int run_report_finish(const RunCmd *c, const RunPlan *p, int wstatus) {
  int status = 1;
  if (wstatus != -1 && WIFSIGNALED(wstatus)) {
    int sig = WTERMSIG(wstatus);
    fprintf(stderr, "warpmem: %s was killed by signal %d (%s)%s\n", p->app_path, sig, strsignal(sig),
            WCOREDUMP(wstatus) ? ", core dumped" : "");
    status = 128 + sig;
  } else if (wstatus != -1) {
    status = WEXITSTATUS(wstatus);
  }
  if (access(p->report, F_OK) == 0) {
    if (hand_on(c, p)) status = 1;
    unlink(p->report);
  } else if (wstatus != -1) {
    explain_missing(p, wstatus);
  }
  if (c->check && access(p->check, F_OK) == 0) { /* findings: after the report, and the exit status says so */
    printf("warpmem check of %s:\n", p->app_path);
    fflush(stdout);
    if (copy_file(p->check, stdout)) status = 1;
    else if (status == 0) status = CLI_EXIT_CHECK_FOUND;
    unlink(p->check);
  } else if (c->check && wstatus != -1 && !WIFSIGNALED(wstatus)) {
    printf("warpmem check of %s: no errors\n", p->app_path);
  }
  if (p->out && fclose(p->out)) {
    fprintf(stderr, "warpmem: --out %s: %s\n", c->out, strerror(errno));
    status = 1;
  }
  rmdir(p->report_dir);
  return status;
}
