/* cli.h - pieces of the command line shared by its subcommands.  The
 * commands parse options, call the layers below (sim, lab, gpu, arch) and
 * print; only this layer prints errors and chooses exit statuses. */
#ifndef WM_CLI_H
#define WM_CLI_H

#include <stdint.h>

#include "sim/sim.h"

/* Simulation options shared by sim and lab (--arch, --loads, --init, ...);
 * returns 1 if argv[*i] was one, 0 if not, or an exit status + 2 (so >= 2)
 * on a bad value. */
int cli_common_option(int argc, char **argv, int *i, SimOptions *o);
int cli_parse_size(const char *s, uint64_t *out);
/* The index of s in words[0..n-1] (an option's value; NULL words are
 * skipped), or -1. */
int cli_choice(const char *s, const char *const *words, int n);
/* --arch NAME: a preset name or alias (arch_find); sets cfg->arch and
 * cfg->sm.  Unknown: WM_EUSAGE listing the presets. */
int cli_parse_arch(const char *s, MemConfig *cfg, WmErr *e);
/* --carveout: 0-100 (percent of the most shared memory), max-l1 (0),
 * max-shared (100), default (OCC_CARVEOUT_DEFAULT).  -1 if malformed. */
int cli_parse_carveout(const char *s, int *pct);
/* Prints "warpmem: " fmt (with one %s) and a hint; returns 2. */
int cli_usage_error(const char *fmt, const char *arg);

/* warpmem sim (sim_cmd.c) */
int cli_sim_cmd(int argc, char **argv);
/* warpmem arch, warpmem occupancy (arch_cmd.c) */
int cli_arch_cmd(int argc, char **argv);
int cli_occupancy_cmd(int argc, char **argv);
/* warpmem isa (isa_cmd.c) */
int cli_isa_cmd(int argc, char **argv);
/* warpmem isa --scan (isa_scan.c): loads each file (a .cu with nvcc for
 * `arch`, NULL: the default target), prints every kernel as ok or refused
 * with its reason, and the refusals grouped by reason; text or JSON.
 * Returns 0, ISA_SCAN_REFUSED if a kernel was refused, 1 if a file could
 * not be loaded. */
#define ISA_SCAN_REFUSED 3
int cli_isa_scan(const char *const *paths, int n, const char *arch, int json);
/* warpmem lab (lab_cmd.c) */
int cli_lab_cmd(int argc, char **argv);

#endif
