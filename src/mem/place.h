/* place.h - which SM a block of a wave runs on, and its slot there (the
 * k-th block the SM received), when the preset knows the order its GPU
 * deals blocks in (arch/deal.h).  Without one, replay.c deals them in
 * turn: block b of a wave on SM b % sms.
 *
 * A wave is sms * per_sm blocks; block b is the (b % wave)-th of its wave
 * and runs where that one of the first wave ran, as a later block takes
 * the place of the one that ended (the replay assumes the blocks of a
 * wave take as long). */
#ifndef WM_PLACE_H
#define WM_PLACE_H

#include <stdint.h>

#include "arch/deal.h"

typedef struct Place {
  uint16_t *sm;   /* [wave] the SM of the wave's i-th block; NULL: in turn */
  uint16_t *slot; /* [wave] its slot on the SM */
  uint32_t *at;   /* [wave] at[slot * sms + sm]: the wave's block in that slot */
} Place;

/* Deals a wave of sms * per_sm blocks by layout L, the first `even` an SM
 * evenly (arch_deal).  Leaves p empty (in turn) when L is NULL or its SMs
 * are not `sms`. */
void place_init(Place *p, const ArchLayout *L, int sms, int per_sm, int even);
/* A cluster launch's wave (clusters of `cluster` consecutive blocks): each
 * cluster's blocks on the SMs of one GPC (arch_cluster_gpc_of), the GPCs
 * taken in turn, within a GPC the SMs with the most free slots first (the
 * driver's default spreads a cluster's blocks); places no whole cluster
 * fits go to the SMs left over, so every SM still holds per_sm.  Leaves p
 * empty when L is NULL or its SMs are not `sms`. */
void place_init_clusters(Place *p, const ArchLayout *L, int sms, int per_sm, int cluster);
void place_free(Place *p);

#endif
