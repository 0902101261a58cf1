/* isa_cmd.c - `warpmem isa`: the PTX instructions warpmem runs, printed
 * from the one table of them (ptx_ops.h).  docs/ptx-instructions.md is
 * `warpmem isa --format markdown`; a test keeps the two equal. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ptx/ptx.h"

static const char *usage_isa =
  "usage: warpmem isa [OPCODE] [--format text|markdown]\n"
  "       warpmem isa --scan FILE... [--arch sm_XX] [--format text|json]\n"
  "\n"
  "The PTX instructions warpmem parses and runs: for each, its operands, the\n"
  "modifiers it takes, what it does, and how the memory model sees it.  With\n"
  "OPCODE (ld, mad, shfl, ...): that instruction only.  Anything else in a\n"
  "kernel is refused with its file:line:column.\n"
  "\n"
  "--scan FILE...  load each .ptx or .cu (compiled with nvcc as `warpmem sim`\n"
  "                does) and prepare every kernel for the emulator without\n"
  "                running it: one line per kernel, `ok` or `refused` with the\n"
  "                reason's key in [brackets], the CUDA line (from .loc) and the\n"
  "                PTX file:line:col of the first construct warpmem does not run;\n"
  "                then the refusals per file and overall, grouped by reason,\n"
  "                most common first.  tools/census.py runs it on tests/census.\n"
  "--arch sm_XX    the target a .cu is compiled for (default: the preset's)\n"
  "--format json   the same as one JSON object (files, kernels, by_reason)\n"
  "\n"
  "exit status of --scan: 0 every kernel can run, 3 some kernel (or a whole\n"
  "file) is refused, 1 a file could not be loaded (nvcc failed, bad PTX),\n"
  "2 usage.\n";

/* The modifier words of an opcode's groups, "; "-separated. */
static void modifier_words(uint64_t mods, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < ptx_nmods; i++) {
    if (!(mods & ptx_mods[i].bit)) continue;
    int w = snprintf(buf + used, n - used, "%s%s", used ? "; " : "", ptx_mods[i].words);
    if (w < 0 || (size_t)w >= n - used) break;
    used += (size_t)w;
  }
}

/* How the rest of warpmem treats it, from the flags. */
static const char *role(unsigned flags) {
  if (flags & OPF_MEM) return "memory access (counted)";
  if (flags & OPF_BARRIER) return "block barrier";
  if (flags & OPF_BRANCH) return "branch";
  if (flags & OPF_EXIT) return "ends the thread";
  if (flags & OPF_WARP) return "warp-wide";
  return "";
}

/* A markdown table cell: '|' escaped. */
static void md_cell(const char *s) {
  fputs("| ", stdout);
  if (!*s) s = "-";
  for (; *s; s++) {
    if (*s == '|') putchar('\\');
    putchar(*s);
  }
  putchar(' ');
}

static void print_op(int op, int md) {
  const PtxOpInfo *o = &ptx_op[op];
  char mods[1024];
  modifier_words(o->mods, mods, sizeof mods);
  const char *form = ptx_shape_form[o->shape];
  if (md) {
    printf("| `%s` ", o->name);
    md_cell(form);
    md_cell(mods);
    md_cell(o->sem);
    md_cell(role(o->flags));
    puts("|");
  } else
    printf("%-11s %-26s %s\n%-11s %-26s modifiers: %s\n", o->name, form, o->sem, "", "", mods[0] ? mods : "none");
}

/* The special registers and predefined identifiers the parser knows. */
static void print_sregs(void) {
  printf("\n## Special registers and predefined identifiers\n\n"
         "Read from the launch (the block, the thread, the preset; `%%envreg0..31` from the launch's table, 0 "
         "unless a cooperative launch sets them; the clocks count warp instructions):");
  for (int i = 0; i < PTX_SR_COUNT; i++) printf("%s `%%%s`", i ? "," : "", ptx_sreg_name[i]);
  printf(".  The cluster registers are the launch's cluster's (docs/clusters.md); without a cluster launch a "
         "cluster is one block.\n\nKnown to the parser (performance counters and reserved "
         "shared memory read 0):\n\n| name | reads as |\n|---|---|\n");
  for (int i = 0; i < ptx_nsreg_alias; i++) {
    const PtxSregAlias *a = &ptx_sreg_alias[i];
    if (a->sreg >= 0) printf("| `%s` | `%%%s` |\n", a->name, ptx_sreg_name[a->sreg]);
    else printf("| `%s` | %llu |\n", a->name, (unsigned long long)a->value);
  }
  printf("\n## Directives\n\n`.version` `.target` `.address_size` `.file` `.loc` `.section` (debug information, "
         "skipped) `.pragma` `.entry` `.func` (device functions, `call`) `.callprototype` `.alias` `.extern` "
         "`.visible` `.weak` `.common` `.global` `.const` `.shared` `.local` `.param` `.reg` `.maxntid` `.reqntid` "
         "(checked against the launch) `.reqnctapercluster` (the launch's default cluster) `.maxclusterrank` "
         "`.explicitcluster` (checked against the launch's cluster) `.minnctapersm` `.maxnctapersm` `.maxnreg` "
         "`.noreturn` (accepted, no effect).\n");
  printf("\nTargets up to `.target sm_90a` (Hopper's arch-specific set) run; a module for a newer GPU loads and "
         "each of its kernels is refused at its `.target` line.  Registers, variables and labels are scoped to "
         "the `{ }` block that declares them (inline asm copied into many places of a kernel defines its labels "
         "once per copy).  A kernel or device function whose body is malformed is refused alone, with its "
         "located error; the module's other kernels run.  A kernel's static shared memory holds the "
         "module-scope `.shared` variables it or a function it calls names, then its own, as ptxas lays it out.\n");
}

/* --arch for a .cu: sm_ and a number, with an optional letter (sm_90a). */
static int valid_target(const char *s) {
  if (strncmp(s, "sm_", 3) || !isdigit((unsigned char)s[3])) return 0;
  const char *p = s + 3;
  while (isdigit((unsigned char)*p)) p++;
  if (*p >= 'a' && *p <= 'z') p++;
  return *p == '\0';
}

int cli_isa_cmd(int argc, char **argv) {
  int md = 0, json = 0, scan = 0, nfiles = 0;
  const char *only = NULL, *arch = NULL;
  const char **files = wm_xcalloc((size_t)argc + 1, sizeof *files);
  int rc = -1;
  for (int i = 2; i < argc && rc < 0; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_isa, stdout);
      rc = 0;
    } else if (!strcmp(a, "--format")) {
      const char *v = i + 1 < argc ? argv[++i] : "";
      if (strcmp(v, "text") && strcmp(v, "markdown") && strcmp(v, "json"))
        rc = cli_usage_error("isa --format takes text, markdown or json, not '%s'", v);
      md = !strcmp(v, "markdown");
      json = !strcmp(v, "json");
    } else if (!strcmp(a, "--scan")) {
      scan = 1;
    } else if (!strcmp(a, "--arch")) {
      arch = i + 1 < argc ? argv[++i] : "";
      if (!valid_target(arch)) rc = cli_usage_error("isa --arch takes an nvcc target such as sm_90, not '%s'", arch);
    } else if (a[0] == '-') {
      rc = cli_usage_error("unknown option '%s'", a);
    } else {
      files[nfiles++] = only = a;
    }
  }
  if (rc < 0 && scan) {
    if (!nfiles) rc = cli_usage_error("isa --scan needs a .cu or .ptx file%s", "");
    else if (md) rc = cli_usage_error("isa --scan prints text or json, not '%s'", "markdown");
    else rc = cli_isa_scan(files, nfiles, arch, json);
  } else if (rc < 0 && (json || arch || nfiles > 1)) {
    const char *what = json ? "--format json" : arch ? "--arch" : files[1];
    rc = cli_usage_error("'%s' goes with --scan (see warpmem isa --help)", what);
  }
  free(files);
  if (rc >= 0) return rc;
  int found = 0;
  if (md) {
    printf("# PTX instructions warpmem runs\n\n"
           "Generated from `src/ptx/ptx_ops.h` by `warpmem isa --format markdown`; "
           "`tests/test_isa.c` fails when the two differ.  Anything else in a kernel is refused "
           "with its file:line:column (the module's other kernels still run).\n\n"
           "| instruction | operands | modifiers | what it does | role |\n|---|---|---|---|---|\n");
  }
  for (int op = 0; op < PTX_OP_COUNT; op++) {
    if (only && strcmp(only, ptx_op[op].name)) continue;
    print_op(op, md);
    found++;
  }
  if (!found) return cli_usage_error("'%s' is not an instruction warpmem runs (warpmem isa lists them)", only);
  if (md && !only) print_sregs();
  return 0;
}
