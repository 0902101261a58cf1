/* isa_cmd.c - `warpmem isa`: the PTX instructions warpmem runs, printed
 * from the one table of them (ptx_ops.h).  docs/ptx-instructions.md is
 * `warpmem isa --format markdown`; a test keeps the two equal. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ptx/ptx.h"

static const char *usage_isa =
  "usage: warpmem isa [OPCODE] [--format text|markdown]\n"
  "\n"
  "The PTX instructions warpmem parses and runs: for each, its operands, the\n"
  "modifiers it takes, what it does, and how the memory model sees it.  With\n"
  "OPCODE (ld, mad, shfl, ...): that instruction only.  Anything else in a\n"
  "kernel is refused with its file:line:column.\n";

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
  printf(".\n\nKnown to the parser (a launch is a cluster of one block; performance counters and reserved "
         "shared memory read 0):\n\n| name | reads as |\n|---|---|\n");
  for (int i = 0; i < ptx_nsreg_alias; i++) {
    const PtxSregAlias *a = &ptx_sreg_alias[i];
    if (a->sreg >= 0) printf("| `%s` | `%%%s` |\n", a->name, ptx_sreg_name[a->sreg]);
    else printf("| `%s` | %llu |\n", a->name, (unsigned long long)a->value);
  }
  printf("\n## Directives\n\n`.version` `.target` `.address_size` `.file` `.loc` `.section` (debug information, "
         "skipped) `.pragma` `.entry` `.func` (device functions, `call`) `.callprototype` `.alias` `.extern` "
         "`.visible` `.weak` `.common` `.global` `.const` `.shared` `.local` `.param` `.reg` `.maxntid` `.reqntid` "
         "(checked against the launch) `.minnctapersm` `.maxnctapersm` `.maxnreg` `.maxclusterrank` "
         "`.reqnctapercluster` `.explicitcluster` `.noreturn` (accepted, no effect).\n");
}

int cli_isa_cmd(int argc, char **argv) {
  int md = 0;
  const char *only = NULL;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_isa, stdout);
      return 0;
    }
    if (!strcmp(a, "--format")) {
      const char *v = i + 1 < argc ? argv[++i] : "";
      if (strcmp(v, "text") && strcmp(v, "markdown"))
        return cli_usage_error("isa --format takes text or markdown, not '%s'", v);
      md = !strcmp(v, "markdown");
    } else if (a[0] == '-') {
      return cli_usage_error("unknown option '%s'", a);
    } else {
      only = a;
    }
  }
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
