/* emu_segment.c - the module's segments for one launch: its .global
 * variables (a buffer of the GlobalMem) and its constant bank, relocated
 * to where the segment lies.
 *
 * Two owners: emu_run makes the .global buffer itself on each launch (the
 * `sim` command, whose GlobalMem lives for one launch), or the caller made
 * it once (gmem_module_segment), initialized and relocated it with the
 * constant bank, and hands its address in EmuLaunch.global_base (warpmem
 * run: __device__ variables keep their values across launches, as in a
 * CUDA context). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"

int emu_segments(EmuLaunch *l, uint64_t *gbase, uint8_t **const_owned, WmErr *e) {
  const PtxModule *m = l->mod;
  *gbase = 0;
  *const_owned = NULL;
  if (l->global_base && m->global_size && !gmem_find(l->gmem, l->global_base, m->global_size))
    return wm_err(e, WM_EUSAGE, "kernel %s: the module's __device__ variables (%" PRIu64 " bytes) are not in a "
                  "buffer at 0x%" PRIx64, l->kernel->name, (uint64_t)m->global_size, l->global_base);
  if (!l->const_mem) {
    *const_owned = wm_xcalloc(m->const_size + 1, 1);
    if (m->const_init) memcpy(*const_owned, m->const_init, m->const_size);
    l->const_mem = *const_owned;
  }
  if (!l->global_base) {
    if (gmem_module_segment(l->gmem, m, l->global_init, l->const_mem, gbase, e) == 0) return 0;
    if (*const_owned) l->const_mem = NULL;
    free(*const_owned);
    *const_owned = NULL;
    return -1;
  }
  /* the caller's segment and bank are relocated already: only a bank made
   * here from the initializers still needs it */
  *gbase = l->global_base;
  if (*const_owned) gmem_relocate(NULL, m, l->const_mem, *gbase);
  return 0;
}
