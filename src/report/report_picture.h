/* report_picture.h - pictures of one warp's access, as the seeds draw them:
 * lanes against 32-byte sectors and 128-byte lines for global and local
 * memory, lanes against banks with the wavefronts numbered for shared. */
#ifndef WM_REPORT_PICTURE_H
#define WM_REPORT_PICTURE_H

#include <stdio.h>

#include "mem/mem.h"

/* Writes an inline <svg> of instruction `instr`'s kept access
 * (mm->line[instr].pic), under the generation's rules (mm->gen); nothing if
 * none was kept.  The SVG carries its data as attributes (data-lane,
 * data-sector, data-bank, data-wavefront) so tests read it, not pixels. */
void report_picture_svg(FILE *out, const MemModel *mm, int instr);

#endif
