/* fatbin.h - the device code inside a CUDA application: the fat binaries
 * nvcc embeds (section .nv_fatbin, handed to __cudaRegisterFatBinary through
 * a wrapper in .nvFatBinSegment), their entries, and the PTX among them,
 * decompressed (nvcc compresses it by default) with liblz4 or libzstd.
 *
 * Input may be hostile (a corrupt or truncated binary): every size is
 * checked against the bytes there are, and errors say what is wrong and at
 * which offset. */
#ifndef WM_FATBIN_H
#define WM_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

typedef enum { FATBIN_PTX = 1, FATBIN_ELF = 2 } FatbinKind;

typedef struct FatbinEntry {
  int kind;                /* FatbinKind (other kinds are listed, not used) */
  uint32_t arch;           /* 90 for compute_90 / sm_90 */
  uint32_t ptx_major, ptx_minor; /* the PTX ISA version (PTX entries) */
  const char *codec;       /* "none", "lz4" or "zstd" */
  const uint8_t *payload;  /* the entry's bytes as stored (in the image) */
  uint64_t size;           /* bytes stored */
  uint64_t raw_size;       /* bytes once decompressed */
  uint64_t offset;         /* of the entry's header, from the image's start */
} FatbinEntry;

#define FATBIN_MAGIC 0xBA55ED50u         /* a fat binary's header */
#define FATBIN_WRAPPER_MAGIC 0x466243B1u /* __fatBinC_Wrapper_t */

/* The fat binary that the wrapper handed to __cudaRegisterFatBinary points
 * to, or NULL with a message. */
const void *fatbin_unwrap(const void *wrapper, WmErr *e);

/* The entries of the fat binaries at `image`, one after another (a section
 * may hold several), reading at most `len` bytes; len 0 trusts the headers'
 * sizes (an image in memory, from fatbin_unwrap: one fat binary).  *out is
 * malloc'd (caller frees), its payloads point into image. */
int fatbin_list(const void *image, size_t len, FatbinEntry **out, int *n, WmErr *e);

/* The PTX text of a PTX entry, decompressed and NUL-terminated (malloc'd),
 * or NULL with a message. */
char *fatbin_ptx(const FatbinEntry *en, WmErr *e);

/* Which entry to run: the PTX entry of the highest arch not above max_arch,
 * else the lowest above it.  -1 with a message when there is no PTX (only
 * SASS, which warpmem cannot run: the message lists the entries and says to
 * rebuild with PTX, e.g. -gencode arch=compute_90,code=[sm_90,compute_90]). */
int fatbin_pick_ptx(const FatbinEntry *en, int n, uint32_t max_arch, WmErr *e);

#endif
