/* deal.c - the block scheduler's order over TPCs, and the crossbar's
 * groups of SMs (deal.h). */
#include "arch/deal.h"

/* GH100, 132 SMs: four GPCs of 8 TPCs (SMs 0-63), four of 7 (64-119),
 * whose TPC j is dealt a turn after the others' TPC j, two single TPCs
 * (120, 122) dealt after turns 6 and 7, and SMs 124-131 dealt four TPCs
 * at once, at the end of the first turn 84 or more blocks after the last
 * burst.  Both place_probe.cu runs (H200, H100); bursts start 80 to 108
 * blocks apart there (mm_s, mm_g), 96 to 108 in this order.  84 is the
 * measured gaps' fit: 76 or 92 move mm_g's L1 misses by 6% (a fixed
 * stride of 132 by 12%). */
static const ArchGpc gh100_132[] = {
    {0, 8, 0, 0},   {16, 8, 0, 0},  {32, 8, 0, 0},  {48, 8, 0, 0},
    {64, 7, 1, 1},  {78, 7, 1, 1},  {92, 7, 1, 1},  {106, 7, 1, 1},
    {120, 1, 6, 2}, {122, 1, 7, 2},
    {124, 1, ARCH_BURST, 3}, {126, 1, ARCH_BURST, 3}, {128, 1, ARCH_BURST, 3}, {130, 1, ARCH_BURST, 3},
};
const ArchLayout arch_gh100_132 = {gh100_132, (int)(sizeof gh100_132 / sizeof *gh100_132), 84};

#define DEAL_SMS 256 /* most SMs a layout may have */

int arch_layout_sms(const ArchLayout *L) {
  int n = 0;
  for (int g = 0; g < L->ngpc; g++) n += 2 * L->gpc[g].tpcs;
  return n;
}

/* The turns: how many the cycle has (one past the last TPC's). */
static int turns(const ArchLayout *L) {
  int n = 0;
  for (int g = 0; g < L->ngpc; g++)
    if (L->gpc[g].turn != ARCH_BURST && L->gpc[g].turn + L->gpc[g].tpcs > n) n = L->gpc[g].turn + L->gpc[g].tpcs;
  return n;
}

/* Gives both SMs of the TPC at `sm` a block each, while they have room. */
static void deal_tpc(int sm, int per_sm, uint16_t *held, uint16_t *sm_of, size_t *n, size_t cap) {
  for (int s = sm; s < sm + 2 && *n < cap; s++)
    if (held[s] < per_sm) sm_of[(*n)++] = (uint16_t)s, held[s]++;
}

/* Deals blocks n .. cap - 1 of sm_of, at most per_sm an SM (held[]: what
 * each SM has); returns the count dealt in all. */
static size_t deal_from(const ArchLayout *L, int per_sm, uint16_t *held, uint16_t *sm_of, size_t n, size_t cap) {
  int nturn = turns(L), since = L->burst_every; /* a burst first */
  for (int k = 0, idle = 0; n < cap && idle <= 2 * nturn; k = (k + 1) % nturn) {
    size_t before = n;
    if (since >= L->burst_every) { /* the burst GPCs' TPCs, all at once, between turns */
      since = 0;
      for (int g = 0; g < L->ngpc; g++)
        for (int t = 0; L->gpc[g].turn == ARCH_BURST && t < L->gpc[g].tpcs; t++)
          deal_tpc(L->gpc[g].first_sm + 2 * t, per_sm, held, sm_of, &n, cap);
    }
    for (int g = 0; g < L->ngpc && n < cap; g++) { /* turn k: TPC k - turn of each GPC */
      const ArchGpc *x = &L->gpc[g];
      if (x->turn == ARCH_BURST || k < x->turn || k >= x->turn + x->tpcs) continue;
      deal_tpc(x->first_sm + 2 * (k - x->turn), per_sm, held, sm_of, &n, cap);
      since += 2;
    }
    idle = n == before ? idle + 1 : 0; /* guards a layout with SMs in no turn */
  }
  return n;
}

size_t arch_deal(const ArchLayout *L, int even, int per_sm, uint16_t *sm_of, size_t cap) {
  int sms = arch_layout_sms(L);
  if (sms > DEAL_SMS || per_sm < 1 || turns(L) < 1) return 0;
  if (even < 1 || even > per_sm) even = per_sm;
  size_t want = (size_t)sms * (size_t)per_sm;
  if (want < cap) cap = want;
  uint16_t held[DEAL_SMS] = {0};
  size_t n = deal_from(L, even, held, sm_of, 0, cap < (size_t)sms * (size_t)even ? cap : (size_t)sms * (size_t)even);
  return deal_from(L, per_sm, held, sm_of, n, cap);
}

int arch_xbar_group(const ArchLayout *L, int sm) {
  for (int g = 0; g < L->ngpc; g++) {
    const ArchGpc *x = &L->gpc[g];
    if (sm >= x->first_sm && sm < x->first_sm + 2 * x->tpcs) return x->path * 16 + (sm - x->first_sm);
  }
  return -1;
}

int arch_cluster_gpc_of(const ArchLayout *L, int total_sms, uint16_t *gpc_of, int max_gpcs) {
  int n = 0, tpcs[ARCH_GPCS_MAX];
  if (!L) { /* GPCs of 16 SMs (assumed) */
    for (int s = 0; s < total_sms; s++) gpc_of[s] = (uint16_t)(s / 16);
    return (total_sms + 15) / 16;
  }
  for (int g = 0; g < L->ngpc && n < max_gpcs && n < ARCH_GPCS_MAX; g++)
    if (L->gpc[g].tpcs >= 2) {
      for (int s = 0; s < 2 * L->gpc[g].tpcs && L->gpc[g].first_sm + s < total_sms; s++)
        gpc_of[L->gpc[g].first_sm + s] = (uint16_t)n;
      tpcs[n++] = L->gpc[g].tpcs;
    }
  for (int g = 0; g < L->ngpc && n > 0; g++) { /* single TPCs join the smallest GPC, the first of ties */
    if (L->gpc[g].tpcs >= 2) continue;
    int best = 0;
    for (int i = 1; i < n; i++)
      if (tpcs[i] < tpcs[best]) best = i;
    tpcs[best] += L->gpc[g].tpcs;
    for (int s = 0; s < 2 * L->gpc[g].tpcs && L->gpc[g].first_sm + s < total_sms; s++)
      gpc_of[L->gpc[g].first_sm + s] = (uint16_t)best;
  }
  return n;
}

int arch_cluster_gpcs(const ArchLayout *L, int total_sms, int *sms, int max) {
  uint16_t gpc_of[DEAL_SMS];
  if (total_sms > DEAL_SMS) total_sms = DEAL_SMS;
  int n = arch_cluster_gpc_of(L, total_sms, gpc_of, max);
  if (n > max) n = max;
  for (int g = 0; g < n; g++) sms[g] = 0;
  for (int s = 0; s < total_sms; s++)
    if (gpc_of[s] < n) sms[gpc_of[s]]++;
  return n;
}
