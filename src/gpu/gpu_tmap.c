/* gpu_tmap.c - tensor maps of the GPU runner: the map a tmap: argument
 * describes, encoded by NVIDIA's driver (cuTensorMapEncodeTiled and
 * cuTensorMapEncodeIm2col, dlsym'd with the others) over the device
 * buffer that holds the tensor, in place of the emulator's encoding that
 * launch_bind wrote (gpu_int.h). */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_tmap.h"
#include "gpu/gpu_int.h"

struct GpuTmap {
  int arg;                  /* the argument */
  int buf;                  /* the map's own buffer (a pointer parameter), or -1 */
  uint8_t map[TMAP_BYTES];  /* the driver's map */
};

static uint64_t load_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* The buffer of L's host copies that holds address a. */
static int buffer_holding(const GlobalMem *g, uint64_t a) {
  for (int b = 0; b < g->n; b++)
    if (a >= g->buf[b].addr && a - g->buf[b].addr < g->buf[b].size) return b;
  return -1;
}

/* Encodes t (over the host copies) with the driver over the device
 * buffers into out. */
static int encode(GpuLaunch *L, const Tmap *t, uint8_t *out, WmErr *e) {
  int b = buffer_holding(&L->host, t->addr);
  if (b < 0) return wm_err(e, WM_EARGS, "%s: a tensor map over 0x%llx, which no buffer holds", L->where,
                           (unsigned long long)t->addr);
  unsigned long long dim[TMAP_MAX_RANK], strides[TMAP_MAX_RANK];
  unsigned box[TMAP_MAX_RANK], estr[TMAP_MAX_RANK];
  for (unsigned i = 0; i < t->rank; i++) {
    dim[i] = t->dim[i], box[i] = t->box[i], estr[i] = t->estride[i];
    if (i) strides[i - 1] = t->stride[i];
  }
  void *addr = (void *)(uintptr_t)(L->dptr[b] + (t->addr - L->host.buf[b].addr));
  Gpu *g = L->gm->g;
  if (!t->im2col) {
    GPU_TRY(g, e, L->where, cuTensorMapEncodeTiled, (out, t->dtype, t->rank, addr, dim, strides, box, estr,
                                                     t->interleave, t->swizzle, t->l2promo, t->oobfill));
    return 0;
  }
  int lower[3], upper[3];
  for (int i = 0; i < 3; i++) lower[i] = t->lower[i], upper[i] = t->upper[i];
  GPU_TRY(g, e, L->where, cuTensorMapEncodeIm2col, (out, t->dtype, t->rank, addr, dim, strides, lower, upper,
                                                    t->channels, t->pixels, estr, t->interleave, t->swizzle,
                                                    t->l2promo, t->oobfill));
  return 0;
}

int gpu_tmap_create_all(GpuLaunch *L, WmErr *e) {
  const PtxKernel *k = L->k;
  for (int i = 0; i < L->spec.nargs && i < k->nparams; i++)
    if (L->spec.args[i].kind == ARG_TMAP) L->ntmap++;
  if (!L->ntmap) return 0;
  L->tmap = wm_xcalloc((size_t)L->ntmap, sizeof *L->tmap);
  int n = 0;
  for (int i = 0; i < L->spec.nargs && i < k->nparams; i++) {
    if (L->spec.args[i].kind != ARG_TMAP) continue;
    struct GpuTmap *m = &L->tmap[n++];
    m->arg = i;
    m->buf = -1;
    uint8_t *slot = L->params + k->params[i].offset, *bytes = slot;
    if (k->params[i].size != TMAP_BYTES) { /* a pointer (the device's now) to the map's own buffer */
      for (int b = 0; b < L->host.n; b++)
        if (L->dptr[b] == load_le64(slot)) m->buf = b;
      if (m->buf < 0) return wm_err(e, WM_EARGS, "%s, arg%d: no tensor map behind the pointer", L->where, i);
      bytes = L->host.buf[m->buf].data;
    }
    Tmap t;
    char why[300];
    if (tmap_unpack(bytes, &t, why, sizeof why))
      return wm_err(e, WM_EARGS, "%s, arg%d '%s': %s", L->where, i, L->spec.args[i].text, why);
    if (encode(L, &t, m->map, e)) return -1;
    if (m->buf < 0) memcpy(slot, m->map, TMAP_BYTES);
  }
  return gpu_tmap_reupload(L, e);
}

int gpu_tmap_reupload(GpuLaunch *L, WmErr *e) {
  for (int i = 0; i < L->ntmap; i++)
    if (L->tmap[i].buf >= 0)
      GPU_TRY(L->gm->g, e, L->where, cuMemcpyHtoD, (L->dptr[L->tmap[i].buf], L->tmap[i].map, TMAP_BYTES));
  return 0;
}

int gpu_tmap_is_map(const GpuLaunch *L, int b) {
  for (int i = 0; i < L->ntmap; i++)
    if (L->tmap[i].buf == b) return 1;
  return 0;
}

void gpu_tmap_free_all(GpuLaunch *L) {
  free(L->tmap);
  L->tmap = NULL;
  L->ntmap = 0;
}
