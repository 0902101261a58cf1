/* emu_tmap.h - tensor maps (CUtensorMap): what a TMA copy reads from its
 * 128-byte descriptor, warpmem's own encoding of it, and the CUDA
 * driver's rules for making one (cuTensorMapEncodeTiled and
 * cuTensorMapEncodeIm2col, as cuda.h 13.0 documents them).
 *
 * The object is opaque to applications, so warpmem's stand-in driver
 * (src/rt/api_driver_tmap.c), the launch specs (tmap:, src/launch) and the
 * GPU runner (which encodes the same map with NVIDIA's driver) all describe
 * a map as a Tmap, check it with tmap_check() and write it with
 * tmap_pack(); the emulator reads it back with tmap_unpack(), which refuses
 * 128 bytes nobody packed (a magic word, a version and a checksum).
 *
 * Enumerations keep cuda.h's numbering (CUtensorMapDataType,
 * CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
 * CUtensorMapFloatOOBfill), so the values pass between the layers as they
 * are. */
#ifndef WM_EMU_TMAP_H
#define WM_EMU_TMAP_H

#include <stddef.h>
#include <stdint.h>

#define TMAP_BYTES 128   /* sizeof(CUtensorMap) */
#define TMAP_MAX_RANK 5

/* X(ENUM, spec name, bits per element in global memory, kind): kind 'i'
 * integer, 'f' floating point, 'p' packed sub-byte values (16 per group) */
#define TMAP_DTYPES(X)                     \
  X(UINT8, "u8", 8, 'i')                   \
  X(UINT16, "u16", 16, 'i')                \
  X(UINT32, "u32", 32, 'i')                \
  X(INT32, "i32", 32, 'i')                 \
  X(UINT64, "u64", 64, 'i')                \
  X(INT64, "i64", 64, 'i')                 \
  X(FLOAT16, "f16", 16, 'f')               \
  X(FLOAT32, "f32", 32, 'f')               \
  X(FLOAT64, "f64", 64, 'f')               \
  X(BFLOAT16, "bf16", 16, 'f')             \
  X(FLOAT32_FTZ, "f32ftz", 32, 'f')        \
  X(TFLOAT32, "tf32", 32, 'f')             \
  X(TFLOAT32_FTZ, "tf32ftz", 32, 'f')      \
  X(16U4_ALIGN8B, "u4x16", 4, 'p')         \
  X(16U4_ALIGN16B, "u4x16p64", 4, 'p')     \
  X(16U6_ALIGN16B, "u6x16p32", 6, 'p')

typedef enum {
#define X(e, name, bits, kind) TMAP_T_##e,
  TMAP_DTYPES(X)
#undef X
  TMAP_T_COUNT
} TmapType;

enum { TMAP_INTERLEAVE_NONE, TMAP_INTERLEAVE_16B, TMAP_INTERLEAVE_32B, TMAP_INTERLEAVE_COUNT };
enum {
  TMAP_SWIZZLE_NONE, TMAP_SWIZZLE_32B, TMAP_SWIZZLE_64B, TMAP_SWIZZLE_128B,
  TMAP_SWIZZLE_128B_ATOM_32B, TMAP_SWIZZLE_128B_ATOM_32B_FLIP_8B, TMAP_SWIZZLE_128B_ATOM_64B,
  TMAP_SWIZZLE_COUNT
};
enum { TMAP_L2_NONE, TMAP_L2_64B, TMAP_L2_128B, TMAP_L2_256B, TMAP_L2_COUNT };
enum { TMAP_OOB_ZERO, TMAP_OOB_NAN, TMAP_OOB_COUNT }; /* ..._NONE, ..._NAN_REQUEST_ZERO_FMA */

/* A tensor map, decoded.  Dimension 0 is the innermost (contiguous) one. */
typedef struct Tmap {
  uint8_t im2col;      /* 0: tiled (cuTensorMapEncodeTiled), 1: im2col */
  uint8_t dtype;       /* TmapType */
  uint8_t rank;        /* 1..5 (im2col: 3..5) */
  uint8_t interleave, swizzle, l2promo, oobfill;
  uint64_t addr;       /* globalAddress */
  uint64_t dim[TMAP_MAX_RANK];    /* globalDim: elements, 1..2^32 */
  uint64_t stride[TMAP_MAX_RANK]; /* bytes from one element of dimension i
                          to the next: stride[0] unused (the element),
                          stride[i] = globalStrides[i - 1] */
  uint32_t box[TMAP_MAX_RANK];    /* tiled: boxDim, 1..256 */
  uint32_t estride[TMAP_MAX_RANK];/* elementStrides, 1..8 */
  int32_t lower[3], upper[3];     /* im2col: pixelBoxLower/UpperCorner, in
                          dimension order (W, H, D: index i is dimension
                          i + 1) */
  uint32_t channels, pixels;      /* im2col: channelsPerPixel, pixelsPerColumn */
} Tmap;

/* Checks t against the driver's rules for an encode call (cuda.h's
 * cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col requirements; `map` is
 * where the object goes, which must be 64-byte aligned; NULL: not checked).
 * Returns 0, or -1 with the reason, naming the field, in why[n] (what the
 * stand-in returns CUDA_ERROR_INVALID_VALUE for). */
int tmap_check(const Tmap *t, const void *map, char *why, size_t n);
/* Writes t (checked) as the 128-byte object at map. */
void tmap_pack(const Tmap *t, void *map);
/* Reads the 128 bytes at map: 0, or -1 with the reason in why[n] when they
 * are not a map tmap_pack wrote (or were changed since). */
int tmap_unpack(const void *map, Tmap *t, char *why, size_t n);
/* The same without the driver's rules: what tensormap.replace edits, a
 * field at a time (its fields may be invalid in between). */
int tmap_decode(const void *map, Tmap *t, char *why, size_t n);
/* tmap_decode for tensormap.replace: 128 zero bytes too, the map built on
 * the device from zeros (Triton's and CUTLASS's device-made descriptors),
 * as its fields read (rank 1, u8, every size 1).  A copy that uses zeros
 * as a map is still refused (tmap_unpack). */
int tmap_decode_edit(const void *map, Tmap *t, char *why, size_t n);
/* cuTensorMapReplaceAddress: the map at `map` with a new global address
 * (the same alignment rules).  0, or -1 with the reason. */
int tmap_replace_address(void *map, uint64_t addr, char *why, size_t n);

/* Properties of the types and modes. */
const char *tmap_type_name(unsigned dtype); /* "bf16"; NULL if none */
int tmap_type_of(const char *name, size_t n); /* TmapType, or -1 */
unsigned tmap_type_bits(unsigned dtype);    /* bits of one element */
int tmap_type_is_float(unsigned dtype);
int tmap_type_is_packed(unsigned dtype);
unsigned tmap_swizzle_span(unsigned swizzle); /* 32, 64, 128; 0 for none */
/* Elements a copy moves along dimension i: tiled ceil(box / estride)
 * (dimension 0 of a non-interleaved map: box[0], whose element stride the
 * TMA ignores); im2col: channels along 0, pixels along 1, 1 beyond. */
uint32_t tmap_box_elems(const Tmap *t, unsigned i);
/* Bytes a copy writes in shared memory (or reads there, for a store). */
uint64_t tmap_box_bytes(const Tmap *t);
/* "a 64x128 bf16 box (128-byte rows, 128B swizzle)" for explanations. */
void tmap_describe(const Tmap *t, char *buf, size_t n);

#endif
