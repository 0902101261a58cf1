/* emu_warp.c - instructions whose lanes see each other: shfl, vote,
 * match, redux, activemask, elect.  The lanes of a path run in lockstep here, so
 * .sync waits for nobody: each lane's member mask selects the lanes its
 * result is over, and a mask naming a live lane that does not execute the
 * instruction is a located fault. */
#include <string.h>

#include "emu/emu_exec.h"

/* Lanes of a warp may name different member masks in one instruction: the
 * tiles of a cg::thread_block_tile<16> (0x0000ffff and 0xffff0000), the
 * groups of a labeled_partition.  Each lane's result is over its own. */
static uint32_t members_of(const uint64_t *m, uint32_t mask, int l) { return mask & (uint32_t)m[l]; }

/* The lanes a .sync instruction's member masks name must execute it with
 * them: a named lane that is live but on another path, or guarded off, is
 * undefined behaviour on the GPU (which waits for it at a .sync
 * instruction), and the emulator, which runs a warp's paths one after the
 * other, could only return something else: a fault, not a wrong value. */
static int check_members(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *mm) {
  const Warp *w = &b->warps[warp];
  uint32_t named = 0;
  for (uint32_t m = mask; m; m &= m - 1) named |= (uint32_t)mm[__builtin_ctz(m)];
  uint32_t missing = named & w->exists & ~w->exited & ~mask;
  if (!missing) return 0;
  return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EFAULT,
                   "%s.sync: the member mask 0x%08x names lanes 0x%08x that do not execute it (they are on "
                   "another path or guarded off): undefined on the GPU, which waits for them",
                   ptx_op_name[x->op], named, missing);
}

int emu_exec_shfl(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *bb = SRC(1), *c = SRC(2);
  if (x->ns > 3 && x->s[3] != EMU_NOSLOT && check_members(b, x, warp, mask, SRC(3))) return -1;
  uint64_t *d = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *p = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  uint64_t src[32];
  memcpy(src, a, sizeof src);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t bval = (uint32_t)bb[l] & 31, cval = (uint32_t)c[l] & 31, seg = ((uint32_t)c[l] >> 8) & 31;
    uint32_t maxl = ((uint32_t)l & seg) | (cval & ~seg), minl = (uint32_t)l & seg;
    int j, ok;
    switch (x->sub) {
    case PTX_SUB_UP: j = l - (int)bval; ok = j >= (int)maxl; break;
    case PTX_SUB_DOWN: j = l + (int)bval; ok = j <= (int)maxl; break;
    case PTX_SUB_BFLY: j = l ^ (int)bval; ok = j <= (int)maxl; break;
    default: j = (int)(minl | (bval & ~seg)); ok = j <= (int)maxl; break;
    }
    if (!ok) j = l;
    if (d) d[l] = (uint32_t)src[j];
    if (p) p[l] = (uint64_t)ok;
  }
  return 0;
}

int emu_exec_vote(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0);
  const uint64_t *mm = x->s[1] != EMU_NOSLOT ? SRC(1) : NULL;
  if (mm && check_members(b, x, warp, mask, mm)) return -1;
  uint32_t ballot = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (((a[l] & 1) ^ x->s_neg[0]) != 0) ballot |= 1u << l;
  }
  uint64_t *d = DST(0);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t members = mm ? members_of(mm, mask, l) : mask, mine = ballot & members;
    switch (x->sub) {
    case PTX_SUB_ALL: d[l] = mine == members; break;
    case PTX_SUB_ANY: d[l] = mine != 0; break;
    case PTX_SUB_UNI: d[l] = mine == 0 || mine == members; break;
    default: d[l] = mine; break;
    }
  }
  return 0;
}

int emu_exec_match(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *mm = SRC(1);
  if (check_members(b, x, warp, mask, mm)) return -1;
  unsigned size = ptx_type_size((PtxType)x->type);
  uint64_t *d = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *p = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t members = members_of(mm, mask, l), same = 0;
    for (uint32_t k = members; k; k &= k - 1)
      if (zext(a[__builtin_ctz(k)], size) == zext(a[l], size)) same |= 1u << __builtin_ctz(k);
    int all = same == members;
    if (d) d[l] = x->sub == PTX_SUB_ALL ? (all ? members : 0) : same;
    if (p) p[l] = (uint64_t)all;
  }
  return 0;
}

static uint32_t redux_of(const EmuInstr *x, const uint64_t *a, uint32_t members) {
  int sign = ptx_type_is_signed((PtxType)x->type);
  uint32_t acc = (uint32_t)a[__builtin_ctz(members)];
  for (uint32_t m = members & (members - 1); m; m &= m - 1) {
    uint32_t v = (uint32_t)a[__builtin_ctz(m)];
    switch (x->sub) {
    case PTX_SUB_AADD: acc += v; break;
    case PTX_SUB_AMIN: acc = sign ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
    case PTX_SUB_AMAX: acc = sign ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
    case PTX_SUB_AAND: acc &= v; break;
    case PTX_SUB_AOR: acc |= v; break;
    default: acc ^= v; break;
    }
  }
  return acc;
}

int emu_exec_redux(EMU_EXEC_ARGS) {
  const uint64_t *a = SRC(0), *mm = SRC(1);
  if (check_members(b, x, warp, mask, mm)) return -1;
  uint64_t *d = DST(0);
  uint32_t done = 0; /* lanes whose group is reduced */
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (done >> l & 1) continue;
    uint32_t members = members_of(mm, mask, l);
    if (!(members >> l & 1)) members |= 1u << l; /* a lane outside its own mask: itself */
    uint32_t v = redux_of(x, a, members);
    /* the lanes of this group that name the same mask get the same result */
    for (uint32_t k = members; k; k &= k - 1) {
      int j = __builtin_ctz(k);
      if ((uint32_t)mm[j] == (uint32_t)mm[l]) {
        d[j] = v;
        done |= 1u << j;
      }
    }
  }
  return 0;
}
/* the lanes on the warp's current path, guarded off or not */
int emu_exec_activemask(EMU_EXEC_ARGS) {
  const Warp *w = &b->warps[warp];
  uint32_t active = w->stack[w->sp - 1].mask;
  uint64_t *d = DST(0);
  LANES(mask, d[l] = active);
  return 0;
}

/* elect.sync d|p, mask: the leader is the lowest lane of the member mask
 * that executes it; every lane gets its lane id, p says who it is. */
int emu_exec_elect(EMU_EXEC_ARGS) {
  const uint64_t *mm = SRC(0);
  if (check_members(b, x, warp, mask, mm)) return -1;
  uint64_t *d = x->d[0] != EMU_NOSLOT ? DST(0) : NULL, *p = x->d[1] != EMU_NOSLOT ? DST(1) : NULL;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t members = members_of(mm, mask, l);
    int leader = members ? __builtin_ctz(members) : 0;
    if (d) d[l] = (uint32_t)leader;
    if (p) p[l] = members && leader == l;
  }
  return 0;
}
