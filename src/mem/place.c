/* place.c - a wave's blocks on the SMs, by the preset's dealing order
 * (place.h). */
#include "mem/place.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

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
  p->slot = wm_xmalloc(wave * sizeof *p->slot);
  p->at = wm_xmalloc(wave * sizeof *p->at);
  uint16_t *held = wm_xcalloc((size_t)sms, sizeof *held);
  for (size_t i = 0; i < wave; i++) {
    p->slot[i] = held[p->sm[i]]++;
    p->at[(size_t)p->slot[i] * (size_t)sms + p->sm[i]] = (uint32_t)i;
  }
  free(held);
}

void place_free(Place *p) {
  free(p->sm);
  free(p->slot);
  free(p->at);
  memset(p, 0, sizeof *p);
}
