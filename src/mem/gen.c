/* gen.c - which generation's rules the memory model follows.
 *
 * Notes:
 * - The preset (MemConfig.arch) decides; without one, the compute
 *   capability MemConfig.sm does, with the same boundaries the presets use:
 *   1.2/1.3 (gt200), 2.x (fermi), 3.x (kepler), 5.0 and later (sm_70 rules,
 *   checked on sm_90).  Compute capability 1.0/1.1 coalesces differently
 *   (16 separate transactions unless the half-warp reads its words in
 *   order; CUDA C Programming Guide 4.2, F.3.2.1) and is not modelled.
 * - --bank-mode 8 exists only on Kepler (cudaDeviceSetSharedMemConfig does
 *   nothing on devices with a fixed bank size), and --loads only where
 *   global loads can be cached in L1 (2.x and later): asking for either
 *   elsewhere is an error rather than silently ignored.
 */
#include <stdio.h>

#include "arch/arch.h"
#include "mem/mem.h"

static int refuse(char *why, size_t n, const char *fmt, const char *name, int cc)
{
  if (why && n)
    snprintf(why, n, fmt, name, cc / 10, cc % 10);
  return -1;
}

int mem_gen(const MemConfig *cfg, MemGen *g, char *why, size_t nwhy)
{
  const Arch *a = cfg->arch;
  int cc = a ? a->cc : cfg->sm;
  char name[32];
  snprintf(name, sizeof name, "%s", a ? a->name : "sm");
  if (!a)
    snprintf(name, sizeof name, "sm_%d", cc);

  if (cc < 12)
    return refuse(why, nwhy, "%s (compute capability %d.%d): the memory model covers 1.2 and later "
                  "(gt200, fermi, kepler, volta, ampere, hopper)", name, cc);
  g->coal = a ? (uint8_t)a->coalesce
              : (uint8_t)(cc < 20 ? COAL_CC12 : cc < 30 ? COAL_FERMI : COAL_SECTOR);
  if ((a && a->banks == 16) || cc < 20)
    g->banks = MEM_BANKS_CC1;
  else
    g->banks = cc < 30 ? MEM_BANKS_FERMI : cc < 50 ? MEM_BANKS_KEPLER : MEM_BANKS_SM70;

  unsigned bb = cfg->bank_bytes ? cfg->bank_bytes : a && a->bank_bytes ? (unsigned)a->bank_bytes : 4;
  if (bb != 4 && bb != 8)
    return refuse(why, nwhy, "%s (compute capability %d.%d): --bank-mode takes 4 or 8", name, cc);
  if (bb == 8 && g->banks != MEM_BANKS_KEPLER)
    return refuse(why, nwhy, "%s (compute capability %d.%d) has 4-byte shared-memory banks: "
                  "--bank-mode 8 exists only on Kepler (3.x, e.g. --arch kepler)", name, cc);
  g->bank_bytes = (uint8_t)bb;

  if (cfg->loads != MEM_LOADS_DEFAULT && g->coal == COAL_CC12)
    return refuse(why, nwhy, "%s (compute capability %d.%d) caches no global loads in L1: "
                  "--loads ca|cg needs 2.0 or later (e.g. --arch fermi)", name, cc);
  /* Without --loads, the preset says whether global loads allocate in L1:
   * Fermi's do (-dlcm=ca; seed 004: "Caching - Default mode"), Kepler's
   * GK104 keeps L1 for local memory, sm_70+ cache them again. */
  int caches = a ? a->l1_caches_loads : cc < 30 || cc >= 70;
  if (cfg->loads != MEM_LOADS_DEFAULT)
    g->loads = cfg->loads;
  else
    g->loads = caches ? MEM_LOADS_CA : MEM_LOADS_CG;
  return 0;
}
