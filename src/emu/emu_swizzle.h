/* emu_swizzle.h - the shared-memory swizzle of Hopper's TMA and wgmma.
 *
 * A swizzled layout of span S bytes (32, 64 or 128) keeps rows of S bytes
 * and moves each 16-byte chunk of a row: the chunk bits of the address
 * (bits 4.. 4+log2(S/16)-1) are XORed with the same number of bits from
 * bit 7 up, i.e. with the row's index within the pattern of 8 rows of 128
 * bytes that repeats every S * 8 bytes (1024, 512 or 256).  This is CuTe's
 * Swizzle<3,4,3>, <2,4,3> and <1,4,3> on byte addresses, the PTX ISA's
 * "Shared Memory Matrix Layout" (swizzle atoms of 8 rows of S bytes, whose
 * pattern starts on a 1024/512/256-byte boundary: "Matrix Descriptor
 * Format") and the TMA's CU_TENSOR_MAP_SWIZZLE_32B/64B/128B.  The function
 * is of the absolute shared address: a tile must start on its pattern's
 * boundary for its rows to be swizzled as the pattern's rows 0..7.
 *
 * One definition, shared by the TMA (emu_async*.c) and wgmma
 * (emu_wgmma.c), so that what a TMA copy writes is what a wgmma reads.
 */
#ifndef WM_EMU_SWIZZLE_H
#define WM_EMU_SWIZZLE_H

#include <stdint.h>

static inline uint32_t emu_swizzle(uint32_t smem_addr, unsigned span_bytes) {
  switch (span_bytes) {
  case 32: return smem_addr ^ ((smem_addr >> 3) & 0x10u);
  case 64: return smem_addr ^ ((smem_addr >> 3) & 0x30u);
  case 128: return smem_addr ^ ((smem_addr >> 3) & 0x70u);
  default: return smem_addr;
  }
}

#endif
