/* texture.c - what L1TEX's texture pipe does with a warp's texture fetch or
 * surface access: requests, sectors and the sectors the caches see.
 *
 * Notes:
 * - A warp instruction is one request; its sectors are the distinct 32-byte
 *   sectors of every texel a lane's filter reads (1 for point sampling, 4
 *   bilinear, 8 trilinear), in the object's tiled storage (emu_tex.c), so a
 *   warp reading a 2D-local footprint touches few sectors.
 * - Texture sectors go to the L1/L2 model as loads (TR_TEX, counted under
 *   the texture pipe's hits and misses too), surface loads as loads too
 *   (TR_SULD), surface stores as global stores (written through to L2).
 * - l1tex__texin_requests is not reported: an H100 counts the same 1056 of
 *   them for kernels with and without textures, so it is not the texture
 *   requests (docs/results/h100-2026-11-23-corpus).
 */
#include <stdio.h>
#include <string.h>

#include "mem/mem.h"
#include "ptx/ptx.h"

/* The distinct sectors of r's addresses and the bytes written in each;
 * returns how many (at most r->n). */
static unsigned distinct_sectors(const MemTexReq *r, uint64_t *sec, uint32_t *bytes) {
  unsigned n = 0;
  uint32_t span = r->size >= 32 ? 0xffffffffu : (1u << r->size) - 1;
  for (uint32_t i = 0; i < r->n; i++) {
    uint64_t s = r->addr[i] >> 5;
    uint32_t b = span << (r->addr[i] & 31);
    unsigned k = 0;
    if (n && sec[n - 1] == s) k = n - 1; /* neighbours usually share one */
    else
      while (k < n && sec[k] != s) k++;
    if (k == n) sec[n] = s, bytes[n++] = 0;
    bytes[k] |= b;
  }
  return n;
}

/* The texture pipe's requests and sectors, as an H100 counts them
 * (docs/results/h100-2026-11-23-corpus): one request per group of lanes
 * with an active lane -- quads (4 lanes) for texture fetches, 8 lanes for
 * surface accesses -- and, per request, the distinct sectors of its lanes'
 * texels (a sector two groups read counts twice).  Exceptions measured on
 * an H100 with applications (docs/results/h100-2026-11-25-apps), which the
 * caller sets in r->group: tex1Dfetch on linear memory goes by 8 lanes,
 * layered surfaces by quads. */
static void group_cost(const MemTexReq *r, unsigned *nreq, unsigned *nsec) {
  unsigned width = r->group ? r->group : r->op == MEM_TEX_FETCH ? 4 : 8, groups = 32 / width;
  uint32_t gmask = width == 4 ? 0xfu : 0xffu;
  *nreq = *nsec = 0;
  for (unsigned g = 0; g < groups; g++)
    if (r->lanes >> (g * width) & gmask) ++*nreq;
  uint64_t seen[64];
  unsigned nseen = 0, cur = ~0u;
  for (uint32_t i = 0; i < r->n; i++) { /* addresses come lane by lane */
    unsigned g = r->lane[i] / width;
    if (g != cur) cur = g, nseen = 0;
    uint64_t s = r->addr[i] >> 5;
    unsigned k = 0;
    while (k < nseen && seen[k] != s) k++;
    if (k == nseen) {
      if (nseen < 64) seen[nseen++] = s;
      ++*nsec;
    }
  }
}

/* Keeps the request a line's `why` explains for the HTML report's picture
 * (mem.h MemPicture.tex): its first MEM_PIC_TEX_SECTORS distinct sectors
 * and the lanes that read each.  Called only when the worst grows. */
static void keep_picture(MemPicture *p, const MemTexReq *r, const uint64_t *sec, unsigned ns) {
  unsigned k = ns < MEM_PIC_TEX_SECTORS ? ns : MEM_PIC_TEX_SECTORS;
  memset(p, 0, sizeof *p);
  p->mask = r->lanes;
  p->size = r->size;
  p->space = PTX_S_GLOBAL;
  p->op = r->op == MEM_SURF_ST ? MEM_ST : MEM_LD;
  p->texop = (uint8_t)(r->op + 1);
  p->warp = r->warp;
  memcpy(p->tex.sector, sec, k * sizeof *sec);
  p->tex.nsector = (uint8_t)k;
  p->tex.more = (uint8_t)(ns - k);
  p->tex.texels = (uint16_t)r->n;
  for (uint32_t i = 0; i < r->n; i++)
    for (unsigned j = 0; j < k; j++)
      if (p->tex.sector[j] == r->addr[i] >> 5 && r->lane[i] < 32) p->tex.lanes[j] |= 1u << r->lane[i];
}

void mem_texture(MemModel *mm, const MemTexReq *r) {
  static const uint16_t inst[] = {WM_M_TEX_INST, WM_M_SULD_INST, WM_M_SUST_INST};
  static const uint16_t req[] = {WM_M_TEX_REQ, WM_M_SULD_REQ, WM_M_SUST_REQ};
  static const uint16_t secm[] = {WM_M_TEX_SEC, WM_M_SULD_SEC, WM_M_SUST_SEC};
  static const uint8_t trace[] = {TR_TEX, TR_SULD, TR_ST};
  uint64_t sec[256];
  uint32_t bytes[256];
  if (r->op > MEM_SURF_ST || r->n > 256) return;
  unsigned ns = distinct_sectors(r, sec, bytes);
  unsigned nreq, nsec;
  group_cost(r, &nreq, &nsec);
  mm->metric[inst[r->op]]++;
  mm->metric[req[r->op]] += nreq;
  mm->metric[secm[r->op]] += nsec;
  if (mm->trace)
    for (unsigned i = 0; i < ns; i++) trace_push(mm->trace, sec[i], bytes[i], r->warp, trace[r->op], i == 0);
  LineStat *ls = (unsigned)r->instr < (unsigned)mm->nline ? &mm->line[r->instr] : NULL;
  if (!ls) return;
  unsigned ideal = (r->n * r->size + 31) / 32;
  if (ideal > ns) ideal = ns; /* texels shared between lanes are fetched once */
  unsigned lanes = 0;
  for (uint32_t m = r->lanes; m; m &= m - 1) lanes++;
  ls->execs++;
  ls->far_execs++;
  ls->requests++;
  ls->units += ns;  /* --lines: the warp's distinct sectors */
  ls->ideal += ideal;
  ls->unit_kind = MEM_UNIT_SECTORS;
  if (ns > ls->worst) {
    ls->worst = ns;
    ls->worst_block = mm->block;
    snprintf(ls->why, sizeof ls->why, "%u lanes %s %u texels of %u bytes in %u sectors of the tiled storage",
             lanes, r->op == MEM_SURF_ST ? "write" : "read", r->n, r->size, ns);
    keep_picture(&ls->pic, r, sec, ns);
  }
}
