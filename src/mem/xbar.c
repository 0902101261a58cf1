/* xbar.c - the crossbar's groups and its table of recent reads (xbar.h). */
#include "mem/xbar.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

/* The group of dealing position q (our SM index).  Blocks go to both SMs
 * of a TPC (2k, 2k+1) in runs of 2 x per_group, the even ones in one group
 * and the odd in another (place_probe.cu: SMs 0 1 16 17 32 33 48 49, of
 * which 0, 16, 32, 48 share a path); in grids of fewer blocks than TPCs,
 * one SM a TPC, per_group consecutive in one group (64 blocks: 17 groups
 * on the H200, 16 in the model). */
static unsigned group_of(int per_group, int paired, int q) {
  unsigned x = (unsigned)per_group, u = (unsigned)q;
  return paired ? u / (2 * x) * 2 + u % 2 : u / x;
}

uint8_t *xbar_groups(int sms, int per_group, int paired) {
  if (per_group < 2 || sms < 1 || group_of(per_group, paired, sms - 1) + 1 > 0x7f) return NULL;
  uint8_t *g = wm_xmalloc((size_t)sms);
  for (int s = 0; s < sms; s++) g[s] = (uint8_t)(group_of(per_group, paired, s) + 1);
  return g;
}

uint8_t *xbar_dealt_groups(const ArchLayout *L, int sms, int per_group, int sm_warps) {
  if (per_group < 2 || sms < 1) return NULL;
  uint8_t *g = wm_xmalloc((size_t)sms);
  for (int s = 0; s < sms; s++) {
    int k = sm_warps >= XBAR_TPC_WARPS ? s / 2 : arch_xbar_group(L, s);
    if (k < 0 || k + 1 > 0x7f) {
      free(g);
      return NULL;
    }
    g[s] = (uint8_t)(k + 1);
  }
  return g;
}

void xbar_init(Xbar *x) {
  memset(x, 0, sizeof *x);
  x->key = wm_xcalloc((size_t)1 << XBAR_BITS, sizeof *x->key);
  x->when = wm_xcalloc((size_t)1 << XBAR_BITS, sizeof *x->when);
}

void xbar_free(Xbar *x) {
  free(x->key);
  free(x->when);
  memset(x, 0, sizeof *x);
}
