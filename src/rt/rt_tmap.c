/* rt_tmap.c - tensor maps of warpmem run: the driver's encode calls over
 * the context (api_driver_tmap.c makes the Tmap from their arguments).
 * The map is warpmem's own encoding (emu/emu_tmap.h), which the emulator
 * reads when a TMA instruction names it; the driver's validation is
 * tmap_check's, and a refused call says why on stderr, as NVIDIA's driver
 * does not (it returns CUDA_ERROR_INVALID_VALUE alone).  A refusal is not
 * the runtime's last error: NVIDIA's cudaGetLastError does not see driver
 * calls, and CUTLASS checks it after a launch that follows a failed
 * encode it handled. */
#include "emu/emu_tmap.h"
#include "rt/rt_int.h"

RtError rt_tensor_map_encode(const Tmap *t, void *map, const char *caller) {
  RtError r = rtx_enter(0);
  if (r) return r;
  char why[300];
  if (!t || !map || tmap_check(t, map, why, sizeof why)) {
    rtx_say("%s: %s: returns CUDA_ERROR_INVALID_VALUE", caller,
            !t ? "an array argument (globalDim, globalStrides, boxDim, elementStrides, the corners) is NULL"
               : map ? why : "tensorMap is NULL");
    rtx_leave(RT_SUCCESS);
    return RT_ERR_INVALID_VALUE;
  }
  tmap_pack(t, map);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_tensor_map_replace_address(void *map, void *addr) {
  RtError r = rtx_enter(0);
  if (r) return r;
  char why[300];
  if (!map || tmap_replace_address(map, (uint64_t)(uintptr_t)addr, why, sizeof why)) {
    rtx_say("cuTensorMapReplaceAddress: %s: returns CUDA_ERROR_INVALID_VALUE", map ? why : "tensorMap is NULL");
    rtx_leave(RT_SUCCESS);
    return RT_ERR_INVALID_VALUE;
  }
  return rtx_leave(RT_SUCCESS);
}
