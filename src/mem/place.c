/* place.c - a wave's blocks on the SMs, by the preset's dealing order
 * (place.h). */
#include "mem/place.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

/* Slots and the block at each, once p->sm is dealt. */
static void place_slots(Place *p, int sms, size_t wave) {
  p->slot = wm_xmalloc(wave * sizeof *p->slot);
  p->at = wm_xmalloc(wave * sizeof *p->at);
  uint16_t *held = wm_xcalloc((size_t)sms, sizeof *held);
  for (size_t i = 0; i < wave; i++) {
    p->slot[i] = held[p->sm[i]]++;
    p->at[(size_t)p->slot[i] * (size_t)sms + p->sm[i]] = (uint32_t)i;
  }
  free(held);
}

void place_init(Place *p, const ArchLayout *L, int sms, int per_sm, int even) {
  memset(p, 0, sizeof *p);
  if (!L || sms < 1 || per_sm < 1 || arch_layout_sms(L) != sms) return;
  size_t wave = (size_t)sms * (size_t)per_sm;
  p->sm = wm_xmalloc(wave * sizeof *p->sm);
  int ok = arch_deal(L, even, per_sm, p->sm, wave) == wave; /* not if the layout leaves SMs out */
  for (size_t i = 0; ok && i < wave; i++) ok = p->sm[i] < sms;
  if (!ok) {
    place_free(p);
    return;
  }
  place_slots(p, sms, wave);
}

/* The SM of GPC g (or of any GPC, g < 0) with the most free slots, the
 * lowest on ties; -1 if none has one. */
static int roomiest(const uint16_t *gpc_of, const uint16_t *held, int sms, int per_sm, int g) {
  int best = -1;
  for (int s = 0; s < sms; s++)
    if ((g < 0 || gpc_of[s] == g) && held[s] < per_sm && (best < 0 || held[s] < held[best])) best = s;
  return best;
}

void place_init_clusters(Place *p, const ArchLayout *L, int sms, int per_sm, int cluster) {
  memset(p, 0, sizeof *p);
  if (!L || sms < 1 || per_sm < 1 || cluster < 1 || arch_layout_sms(L) != sms) return;
  size_t wave = (size_t)sms * (size_t)per_sm, i = 0;
  uint16_t *gpc_of = wm_xmalloc((size_t)sms * sizeof *gpc_of), *held = wm_xcalloc((size_t)sms, sizeof *held);
  int ngpc = arch_cluster_gpc_of(L, sms, gpc_of, ARCH_GPCS_MAX), *room = wm_xcalloc((size_t)ngpc + 1, sizeof *room);
  for (int s = 0; s < sms; s++) room[gpc_of[s]] += per_sm;
  p->sm = wm_xmalloc(wave * sizeof *p->sm);
  for (int g = 0, tried = 0; i + (size_t)cluster <= wave && tried < ngpc; g = (g + 1) % ngpc) {
    if (room[g] < cluster) { /* no whole cluster fits here any more */
      tried++;
      continue;
    }
    tried = 0;
    for (int b = 0; b < cluster; b++) {
      int s = roomiest(gpc_of, held, sms, per_sm, g);
      p->sm[i++] = (uint16_t)s, held[s]++;
    }
    room[g] -= cluster;
  }
  for (; i < wave; i++) { /* the rest: wherever a slot is left */
    int s = roomiest(gpc_of, held, sms, per_sm, -1);
    p->sm[i] = (uint16_t)s, held[s]++;
  }
  free(gpc_of);
  free(held);
  free(room);
  place_slots(p, sms, wave);
}

void place_free(Place *p) {
  free(p->sm);
  free(p->slot);
  free(p->at);
  memset(p, 0, sizeof *p);
}
