/* report_check.h - `warpmem check`'s findings as text (report_check.c). */
#ifndef WM_REPORT_CHECK_H
#define WM_REPORT_CHECK_H

#include <stdio.h>

#include "emu/emu_check.h"

/* The finding: its tool, kind, space, address, kernel and count, the two
 * sites (instruction, source and PTX line, thread, block), the detail. */
void report_check_finding(FILE *f, const EmuFinding *x);

#endif
