/* xbar.h - the crossbar's merging of reads: several SMs that miss the same
 * sector at about the same time get it from one L2 read when they sit at
 * the same place of different GPCs.
 *
 * Measured (H200 and H100, docs/results/h200-2026-11-26-share and
 * *-2026-11-26-place): K one-warp blocks, each alone on its SM, reading one
 * 64 KB array count each sector at the L2 once for 2-4 SMs, 10 times for 32,
 * 34.4 for 132, cold or warm L2, while every SM receives all its sectors
 * (l1tex__m_xbar2l1tex_read_sectors).  The SMs whose reads merge are SM i
 * of four GPCs (0, 16, 32, 48), about 34 groups on 132 SMs.
 *
 * The model: reads merge when their SMs are in one group, their blocks are
 * the same-numbered block of their SMs in the launch's first wave, and
 * the same warp of each is in the same round of loads (CacheLastStore.round;
 * different warps are not in step: the lab's random gathers merged reads
 * of other warps, predicted 0.67 of the H200's time, 1.2 without): the
 * blocks of a wave start together and older blocks' warps issue first, so
 * such blocks run in step.  On the GPU's own placement this leaves 64.6% of
 * mm_s's reads, as it measured (64.5%; tools/accuracy/place_merge.py).
 * Later waves' blocks start as earlier ones end: not merged.  Where the
 * preset deals blocks as the GPU does (place.h), the groups are by the
 * GPU's SM numbers, TPC pairs at 64 warps an SM, and a long queue of
 * loads on an SM lets fewer reads meet (XBAR_TPC_WARPS, XBAR_QUEUE). */
#ifndef WM_XBAR_H
#define WM_XBAR_H

#include <stddef.h>
#include <stdint.h>

#include "arch/deal.h"

/* Loads an SM's warps may have queued and still meet other SMs' reads at
 * the crossbar; with Q queued, a share (XBAR_QUEUE / Q)^2 meets (xbar_meets,
 * cache.c).  Measured (race_kernels.cu, three runs on the H200 and on the
 * H100): mm_g's loop unrolled 1, 4 and 16 times (mmu), eight blocks of 8
 * warps an SM, so 128, 512 and 2048 loads queued, has the crossbar merge
 * 45%, 33% and 12% of the L1 misses; race_all#w8b4, 1024 queued, merges all
 * its group's reads (74%).  From about 1100 to 1230, mmu_u16#1024 stays
 * within 5% of both GPUs' median L2 reads and mm_g of both GPUs' seed
 * counters (the H100's 1.76 M L2 sectors there lie above its three later
 * runs, 1.69-1.70 M); 1170 is the middle (mm_g 1.01 and 0.96 of the H200's
 * and the H100's, mmu_u16 1.03 and 1.04, race_all#w8b4 0.99). */
#define XBAR_QUEUE 1170.0

/* Where the four-GPC groups give way to TPC pairs (xbar_dealt_groups):
 * above the 32 warps an SM of race_all#w8b4 (4 blocks of 8 warps, every
 * warp reading the same sectors: 74% of its L1 misses merge, as the groups
 * leave), at the 64 of mm_s and mmx (8 blocks of 8); no launch between
 * was measured. */
#define XBAR_TPC_WARPS 64

#define XBAR_BITS 19            /* the table's entries: about a wave's reads of a group (mm_s: 2.1 M) */
#define XBAR_NEWREQ 0x80000000u /* tag bit: the read starts an L2 request */

/* The serial L2 stage's side: a direct-mapped table of (sector, group) keys
 * with the slot and round of their last read, and what merged. */
typedef struct Xbar {
  uint64_t *key;
  uint32_t *when;
  uint64_t merged;     /* reads merged: not counted at the L2 */
  uint64_t merged_req; /* L2 requests all of whose reads merged */
  int open, all;       /* the request being read: open, all merged so far */
} Xbar;

/* Each SM's group + 1 ([sms], NULL when reads are not merged: per_group < 2
 * or more groups than a tag holds).  `paired`: blocks are dealt to both SMs
 * of a TPC in turn (grids of more blocks than TPCs). */
uint8_t *xbar_groups(int sms, int per_group, int paired);
/* The same for blocks placed as the GPU deals them (place.h): SMs at the
 * same place of the GPCs of one path (arch_xbar_group), or, where an SM
 * holds XBAR_TPC_WARPS warps or more, the two SMs of a TPC.  Measured
 * (groundtruth/place_race.cu, each block's SM recorded, H200): with eight
 * blocks of 8 warps an SM, the reads of a warp's own rows (`mmx` A only)
 * merge as if only the two SMs of a TPC did (0.97-1.01 of the reads), where
 * the four-GPC groups would leave 0.54-0.57; `mm_s` on the H200's own
 * placement reads 1.02 of what TPC pairs leave, 0.85 with the four-GPC
 * groups.  With 16 warps an SM or fewer the four-GPC groups hold (share_read#264,
 * 2 one-warp blocks an SM; hierarchy st_loop_reg#256 and public conv3d#256,
 * 2 blocks of 8 warps; conv_rows#1024, 4 of 2). */
uint8_t *xbar_dealt_groups(const ArchLayout *L, int sms, int per_group, int sm_warps);
void xbar_init(Xbar *x);
void xbar_free(Xbar *x);

/* A read's tag: the SM's group + 1 (7 bits, 0: no merging), the block's
 * slot on its SM (6 bits), the warp within the block (5) and its round
 * (13), each modulo its width; xbar_tag is a block's, xbar_at_round a
 * read's.  Keys of the table: the sector, group, slot and warp. */
static inline uint32_t xbar_tag(unsigned group1, uint64_t slot) {
  return group1 ? (uint32_t)group1 << 24 | (uint32_t)(slot & 0x3f) << 18 : 0;
}

static inline uint32_t xbar_at_round(uint32_t block_tag, unsigned warp, uint32_t round) {
  return block_tag ? block_tag | (uint32_t)(warp & 0x1f) << 13 | (round & 0x1fff) : 0;
}

static inline uint64_t xbar_key(uint64_t sector, uint32_t tag) { return sector << 18 | (tag >> 13 & 0x3ffff); }
static inline size_t xbar_slot(uint64_t key) {
  key ^= key >> 31;
  key *= 0x7fb5d329728ea185ull;
  key ^= key >> 27;
  key *= 0x81dadef4bc2dd44dull;
  key ^= key >> 33;
  return (size_t)(key >> (64 - XBAR_BITS));
}

static inline void xbar_prefetch(const Xbar *x, uint64_t sector, uint32_t tag) {
  __builtin_prefetch(&x->key[xbar_slot(xbar_key(sector, tag))]);
}

/* Whether the read of `sector` tagged `tag` merges with its group's read of
 * the sector in the same slot and round (then the L2 does not see it).  A
 * request whose reads all merged is not counted either; xbar_end closes the
 * last one of a batch. */
static inline int xbar_merges(Xbar *x, uint64_t sector, uint32_t tag) {
  if (tag & XBAR_NEWREQ) {
    x->merged_req += (uint64_t)(x->open && x->all);
    x->open = x->all = 1;
  }
  uint64_t key = xbar_key(sector, tag);
  uint32_t when = tag & 0x1fff;
  size_t i = xbar_slot(key);
  if (x->key[i] == key && x->when[i] == when) {
    x->merged++;
    return 1;
  }
  x->key[i] = key;
  x->when[i] = when;
  x->all = 0;
  return 0;
}

static inline void xbar_end(Xbar *x) {
  x->merged_req += (uint64_t)(x->open && x->all);
  x->open = 0;
}

#endif
