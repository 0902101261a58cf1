/* merge.c - adding up statistics gathered by several emulator threads. */
#include <string.h>

#include "mem/mem.h"

void mem_merge(MemModel *dst, const MemModel *src) {
  for (int m = 0; m < WM_M_COUNT; m++) dst->metric[m] += src->metric[m];
  int n = dst->nline < src->nline ? dst->nline : src->nline;
  for (int i = 0; i < n; i++) {
    LineStat *d = &dst->line[i];
    const LineStat *s = &src->line[i];
    d->execs += s->execs;
    d->far_execs += s->far_execs;
    d->requests += s->requests;
    d->units += s->units;
    d->ideal += s->ideal;
    if (s->unit_kind) d->unit_kind = s->unit_kind;
    /* the worst request, and on a tie the earliest block's: what one
     * thread running the blocks in order would have kept, whichever
     * thread ran them */
    if (s->worst > d->worst || (d->why[0] == '\0' && s->why[0]) ||
        (s->worst == d->worst && s->why[0] && s->worst_block < d->worst_block)) {
      d->worst = s->worst;
      d->worst_block = s->worst_block;
      memcpy(d->why, s->why, sizeof d->why);
      d->pic = s->pic; /* the request `why` explains */
    }
  }
}
