/* deal.h - the order in which a GPU's block scheduler hands a launch's
 * first blocks to its SMs, and which SMs' reads the crossbar merges
 * (deal.c).
 *
 * Measured on an H200 and an H100 (groundtruth/place_probe.cu: every block
 * records its %smid; docs/results/h200-2026-11-26-place and
 * h100-2026-11-26-place, the same order on both): a grid of more blocks
 * than SMs, several an SM, is dealt a TPC (both its SMs) at a time.  The
 * TPCs are visited in turns: turn k deals TPC k of each GPC (the 14-SM
 * GPCs one turn later), and a GPC of four single TPCs (SMs 124-131) gets
 * all four at once every hundred or so blocks.  So an SM's blocks are 124,
 * 132 or 140 apart, not a fixed stride: what decides which blocks share
 * its L1 (mm_g: with the H200's own placement 0.89 of its tile reads miss
 * an SM's L1, 1.0 on a fixed stride of 132). */
#ifndef WM_DEAL_H
#define WM_DEAL_H

#include <stddef.h>
#include <stdint.h>

#define ARCH_BURST 0xff /* ArchGpc.turn: dealt with the others of its kind, all at once */

/* A GPC as the scheduler deals to it: SMs first_sm .. first_sm + 2 *
 * tpcs - 1, its TPC j dealt at turn `turn` + j; `path`: GPCs of one path
 * whose SMs at the same place within them share a crossbar port. */
typedef struct ArchGpc {
  uint8_t first_sm, tpcs, turn, path;
} ArchGpc;

typedef struct ArchLayout {
  const ArchGpc *gpc;
  int ngpc;
  int burst_every; /* blocks of the turns between two bursts */
} ArchLayout;

/* The SMs the layout has (both SMs of each TPC). */
int arch_layout_sms(const ArchLayout *L);

/* Deals the first wave, at most per_sm blocks an SM: sm_of[i] is the SM of
 * the wave's i-th block.  The first sms * even blocks go at most `even` an
 * SM (a grid of fewer blocks than a wave spreads them evenly: `even` its
 * blocks an SM, rounded up).  Returns the blocks dealt (the layout's SMs
 * times per_sm), at most cap. */
size_t arch_deal(const ArchLayout *L, int even, int per_sm, uint16_t *sm_of, size_t cap);

/* SM sm's crossbar group: the SMs at the same place of the GPCs of one
 * path (share_kernels.cu: SM i of the GPCs at 0, 16, 32, 48 share one,
 * 34 groups on 132 SMs); -1 if the layout has no such SM. */
int arch_xbar_group(const ArchLayout *L, int sm);

/* The GPCs a thread block cluster must fit in (all its blocks resident on
 * one GPC's SMs, CUDA Programming Guide, thread block clusters): sms[g]
 * gets GPC g's SMs, at most max of them; returns how many.  From the
 * layout: its GPCs of two TPCs or more, each single TPC joined to the
 * smallest (GH100's 132 SMs: 18, 18 and six GPCs of 16, the 8 GPCs of 8 or
 * 9 TPCs of the H100 SXM; which GPC a single TPC joins is assumed:
 * tools/gpu/cluster_probe.cu measures it).  Without a layout (L NULL),
 * GPCs of 16 of the total_sms (assumed). */
int arch_cluster_gpcs(const ArchLayout *L, int total_sms, int *sms, int max);
/* The same GPCs as gpc_of[s] for each SM s < total_sms; returns how many
 * (at most max_gpcs of them numbered). */
#define ARCH_GPCS_MAX 64
int arch_cluster_gpc_of(const ArchLayout *L, int total_sms, uint16_t *gpc_of, int max_gpcs);

/* The layout of GH100 with 132 SMs (H100 SXM, H200). */
extern const ArchLayout arch_gh100_132;

#endif
