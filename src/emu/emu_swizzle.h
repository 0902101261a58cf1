/* emu_swizzle.h - the shared-memory swizzle of TMA copies and of wgmma's
 * descriptors: where the 16-byte chunk at shared address smem_addr really
 * lies.  The PTX ISA's "Tensor swizzling modes" (5.5.7) lay 16-byte chunks
 * out so that chunk c of 128-byte line r holds chunk c ^ (r % 8) (128B),
 * c ^ (r % 4) (64B) or c ^ (r % 2) (32B), counted from a 1024-, 512- or
 * 256-byte boundary; its "swizzle base offset" ((dstMem / 128) % 8, ...)
 * says the pattern follows the address itself, so the rule is: address
 * bits [4:6] ^= bits [7:9] (128B), [4:5] ^= [7:8] (64B), bit 4 ^= bit 7
 * (32B), a permutation within each 128-byte line.  span_bytes 0: none. */
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
