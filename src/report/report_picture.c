/* report_picture.c - pictures of one warp's access (report_picture.h). */
#include "report/report_picture.h"

void report_picture_svg(FILE *out, const MemModel *mm, int instr)
{
  (void)out, (void)mm, (void)instr; /* drawn by the pictures' branch */
}
