/* check_cmd.c - `warpmem check FILE`: sim's launches, each run under the
 * four checks of emu_check.h (docs/check.md), and their findings as text or
 * JSON; the exit status says whether anything was found. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "emu/emu_check.h"
#include "report/report_check.h"

static const char *usage_check =
  "usage: warpmem check FILE [--tool memcheck,racecheck,synccheck,initcheck]\n"
  "                     [--format text|json] [the launch options of warpmem sim]\n"
  "\n"
  "Runs the '//@' launches of FILE (or the one --kernel/--grid/--block/--arg\n"
  "build, as warpmem sim does) and checks every thread, as compute-sanitizer's\n"
  "tools do on a GPU (default: all four):\n"
  "  memcheck   out-of-bounds and misaligned global, local and shared accesses,\n"
  "             and the other faults that stop a launch; the others still run\n"
  "  racecheck  shared-memory hazards (read-after-write, write-after-read,\n"
  "             write-after-write) between threads of a block with no barrier\n"
  "             between them (__syncwarp() for threads of one warp), and the\n"
  "             same races on global memory within a block\n"
  "  synccheck  __syncthreads() in divergent code, threads of a block at\n"
  "             different barriers, mismatched barrier thread counts, and\n"
  "             __syncwarp/shfl/vote/match masks naming lanes that do not\n"
  "             execute them (exited, on another path, outside the block)\n"
  "  initcheck  reads of shared memory no thread of the block wrote, and of\n"
  "             buffers whose spec names no init (buf:TYPE:N, without --init)\n"
  "             where no thread wrote\n"
  "Each finding is reported once per launch and pair of source lines, with a\n"
  "thread and block, the address and how often it occurred.  See docs/check.md.\n"
  "\n"
  "exit status: 0 nothing found; 5 something found; 4 nothing found but some\n"
  "launches were refused (an instruction warpmem does not run, arguments that do\n"
  "not bind); 1 an error; 2 a usage error.\n";

/* --- JSON --- */

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') printf("\\%c", ch);
    else if (ch == '\n') fputs("\\n", stdout);
    else if (ch < 0x20) printf("\\u%04x", ch);
    else putchar(ch);
  }
  putchar('"');
}

static void json_site(const char *key, const EmuChkSite *s) {
  printf(", \"%s\": {\"source\": ", key);
  json_str(s->src);
  printf(", \"ptx_line\": %u, \"access\": ", s->ptx_line);
  json_str(s->op);
  printf(", \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u]}", s->block[0], s->block[1], s->block[2],
         s->thread[0], s->thread[1], s->thread[2]);
}

static void json_finding(const EmuFinding *f, int first) {
  printf("%s\n      {\"tool\": \"%s\", \"kind\": ", first ? "" : ",", emu_chk_tool_name[f->tool]);
  json_str(f->kind);
  printf(", \"kernel\": ");
  json_str(f->kernel);
  printf(", \"space\": ");
  json_str(f->space);
  if (f->addr != UINT64_MAX) printf(", \"address\": %" PRIu64, f->addr);
  printf(", \"count\": %" PRIu64, f->count);
  if (f->at.pc != UINT32_MAX) json_site("at", &f->at);
  if (f->other.pc != UINT32_MAX) json_site("other", &f->other);
  printf(", \"detail\": ");
  json_str(f->detail);
  putchar('}');
}

/* --- the launches --- */

/* One launch's findings from index `from` and its summary line; adds them
 * to per[] (a count per tool).  Returns how many. */
static size_t launch_report(const EmuCheck *c, size_t from, const LaunchSpec *ls, const char *refused, int json,
                            int first, uint64_t per[CHK_NTOOLS]) {
  size_t n = emu_check_count(c) - from;
  uint64_t mine[CHK_NTOOLS] = {0};
  for (size_t i = from; i < emu_check_count(c); i++) mine[emu_check_get(c, i)->tool]++;
  for (int t = 0; t < CHK_NTOOLS; t++) per[t] += mine[t];
  const char *limits = emu_check_limits(c);
  if (json) {
    printf("%s\n    {\"launch\": ", first ? "" : ",");
    json_str(ls->label);
    printf(", \"kernel\": ");
    json_str(ls->name);
    printf(", \"status\": \"%s\"", refused ? "refused" : n ? "errors" : "ok");
    if (refused) printf(", \"error\": "), json_str(refused);
    if (limits[0]) printf(", \"limits\": "), json_str(limits);
    printf(", \"findings\": [");
    for (size_t i = from; i < emu_check_count(c); i++) json_finding(emu_check_get(c, i), i == from);
    printf("%s]}", n ? "\n    " : "");
    return n;
  }
  printf("== launch %s", ls->label);
  if (ls->line) printf(" (line %d)", ls->line);
  printf(": grid (%u,%u,%u) block (%u,%u,%u)\n", ls->grid[0], ls->grid[1], ls->grid[2], ls->block[0], ls->block[1],
         ls->block[2]);
  if (refused) printf("  REFUSED: %s\n", refused);
  for (size_t i = from; i < emu_check_count(c); i++) report_check_finding(stdout, emu_check_get(c, i));
  if (limits[0]) printf("  note: %s\n", limits);
  printf("  %s: %zu error%s (memcheck %" PRIu64 ", racecheck %" PRIu64 ", synccheck %" PRIu64
         ", initcheck %" PRIu64 ")\n", ls->label, n, n == 1 ? "" : "s", mine[0], mine[1], mine[2], mine[3]);
  return n;
}

static int check_launches(const PtxModule *mod, const LaunchSpec *ls, int n, SimOptions *o, unsigned tools, int json,
                          const char *file) {
  if (sim_nranks() > 1) {
    fprintf(stderr, "warpmem: check runs as one process, not under mpirun (its shadow state is one process's)\n");
    return 2;
  }
  EmuCheck *c = emu_check_new(tools);
  o->check = c;
  o->functional = 1; /* outputs only: no memory model, caches or time */
  size_t total = 0;
  int with = 0, refused = 0, status = 0;
  uint64_t per[CHK_NTOOLS] = {0};
  if (json) printf("{\"file\": "), json_str(file), printf(", \"launches\": [");
  else printf("warpmem check %s\n", file);
  for (int i = 0; i < n; i++) {
    WmErr e = {0};
    SimRun run;
    size_t from = emu_check_count(c);
    emu_check_launch(c);
    const char *why = NULL;
    if (sim_run_launch(mod, &ls[i], o, &run, &e) == 0) {
      sim_run_free(&run);
    } else if (!cli_launch_error(&e)) {
      status = wm_err_print(&e); /* the options', not this launch's */
      break;
    } else if (wm_kernel_fault(e.code)) {
      const PtxKernel *k = cli_named_kernel(mod, ls[i].name);
      emu_check_fault(c, k ? k->name : ls[i].name, &e);
    } else {
      why = e.msg;
      refused++;
    }
    size_t found = launch_report(c, from, &ls[i], why, json, i == 0, per);
    total += found;
    with += found > 0;
  }
  if (json)
    printf("\n  ], \"errors\": %zu, \"launches_with_errors\": %d, \"refused\": %d, \"by_tool\": {\"memcheck\": %" PRIu64
           ", \"racecheck\": %" PRIu64 ", \"synccheck\": %" PRIu64 ", \"initcheck\": %" PRIu64 "}}\n",
           total, with, refused, per[0], per[1], per[2], per[3]);
  else
    printf("check: %zu error%s in %d of %d launch%s (memcheck %" PRIu64 ", racecheck %" PRIu64 ", synccheck %" PRIu64
           ", initcheck %" PRIu64 ")%s\n",
           total, total == 1 ? "" : "s", with, n, n == 1 ? "" : "es", per[0], per[1], per[2], per[3],
           refused ? "; some launches were refused" : "");
  if (emu_check_dropped(c)) fprintf(stderr, "warpmem: more than %d findings in a launch: %" PRIu64 " not shown\n",
                                    EMU_CHK_MAX_FINDINGS, emu_check_dropped(c));
  emu_check_free(c);
  o->check = NULL;
  if (status) return status;
  return total ? CLI_EXIT_CHECK_FOUND : refused ? CLI_EXIT_SOME_NOT_RUN : 0;
}

int cli_check_cmd(int argc, char **argv) {
  unsigned tools = 0;
  char **args = wm_xcalloc((size_t)argc + 1, sizeof *args);
  int n = 0;
  for (int i = 0; i < argc; i++) {
    if (i >= 2 && (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
      free(args);
      fputs(usage_check, stdout);
      return 0;
    }
    if (i < 2 || strcmp(argv[i], "--tool")) {
      args[n++] = argv[i];
      continue;
    }
    if (i + 1 >= argc) {
      free(args);
      return cli_usage_error("%s needs a value", "--tool");
    }
    char list[256];
    snprintf(list, sizeof list, "%s", argv[++i]);
    for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
      int k = cli_choice(s, emu_chk_tool_name, CHK_NTOOLS);
      if (k < 0) {
        free(args);
        return cli_usage_error("--tool takes memcheck, racecheck, synccheck or initcheck, not '%s'", s);
      }
      tools |= 1u << k;
    }
  }
  int st = cli_sim_check(n, args, tools ? tools : (1u << CHK_NTOOLS) - 1, check_launches);
  free(args);
  return st;
}
