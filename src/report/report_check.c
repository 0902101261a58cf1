/* report_check.c - a finding of `warpmem check` (emu/emu_check.h) as text,
 * for the check command and for warpmem run --check's report at exit. */
#include <inttypes.h>
#include <string.h>

#include "report/report_check.h"

static void site(FILE *f, const EmuChkSite *s) {
  fprintf(f, "    %-6s at %s%s(PTX line %u) by thread (%u,%u,%u) of block (%u,%u,%u)\n", s->op, s->src,
          s->src[0] ? " " : "", s->ptx_line, s->thread[0], s->thread[1], s->thread[2], s->block[0], s->block[1],
          s->block[2]);
}

void report_check_finding(FILE *f, const EmuFinding *x) {
  fprintf(f, "  %s: %s", emu_chk_tool_name[x->tool], x->kind);
  if (x->space[0]) fprintf(f, " on %s memory", x->space);
  if (x->addr != UINT64_MAX) fprintf(f, " at %s0x%" PRIx64, !strcmp(x->space, "shared") ? "offset " : "", x->addr);
  if (x->kernel[0]) fprintf(f, " in kernel %s", x->kernel);
  fprintf(f, " (%" PRIu64 " time%s)\n", x->count, x->count == 1 ? "" : "s");
  if (x->at.pc != UINT32_MAX) site(f, &x->at);
  if (x->other.pc != UINT32_MAX) site(f, &x->other);
  for (const char *p = x->detail; *p;) { /* indented, line by line */
    const char *nl = strchr(p, '\n');
    int len = nl ? (int)(nl - p) : (int)strlen(p);
    fprintf(f, "    %.*s\n", len, p);
    p += len + (nl ? 1 : 0);
  }
}
