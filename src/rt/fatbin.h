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

typedef enum { FATBIN_PTX = 1, FATBIN_ELF = 2, FATBIN_LTO = 8 } FatbinKind; /* LTO: -dlto's NVVM IR */

typedef struct FatbinEntry {
  int kind;                /* FatbinKind (other kinds are listed, not used) */
  uint32_t arch;           /* 90 for compute_90 / sm_90 */
  char suffix;             /* 'a' (sm_90a), 'f' (sm_100f) or 0 (portable) */
  uint32_t ptx_major, ptx_minor; /* the PTX ISA version (PTX entries) */
  uint64_t flags;          /* the entry's flags word (docs/fatbin.md) */
  const char *codec;       /* "none", "lz4" or "zstd" */
  const uint8_t *payload;  /* the entry's bytes as stored (in the image) */
  uint64_t size;           /* bytes stored */
  uint64_t raw_size;       /* bytes once decompressed */
  uint64_t offset;         /* of the entry's header, from the image's start */
  const char *opts;        /* PTX entries: the ptxas options nvcc recorded
                              (" -O1 -maxrregcount=32 "), not NUL-terminated,
                              in the image; NULL when none */
  uint32_t opts_len;
} FatbinEntry;

#define FATBIN_MAGIC 0xBA55ED50u         /* a fat binary's header */
#define FATBIN_WRAPPER_MAGIC 0x466243B1u /* __fatBinC_Wrapper_t */
/* Bits of an entry's flags word (nvcc 13; docs/fatbin.md says how found) */
#define FATBIN_F_64BIT 0x1ull       /* 64-bit addresses */
#define FATBIN_F_DEBUG 0x2ull       /* nvcc -G */
#define FATBIN_F_LINUX 0x10ull      /* host is Linux */
#define FATBIN_F_LZ4 0x2000ull      /* payload is one LZ4 block */
#define FATBIN_F_ZSTD 0x8000ull     /* payload is one zstd frame */
#define FATBIN_F_ARCH_A 0x100000ull /* sm_90a: arch-specific */
#define FATBIN_F_ARCH_F 0x200000ull /* sm_100f: family-specific */
/* The most bytes an entry may decompress to (a bound on what hostile
 * headers can make us allocate). */
#define FATBIN_MAX_RAW (256ull << 20)

/* The fat binary that the wrapper handed to __cudaRegisterFatBinary points
 * to, or NULL with a message. */
const void *fatbin_unwrap(const void *wrapper, WmErr *e);

/* -rdc=true: the translation units' fat binaries (their PTX relocatable,
 * in section __nv_relfatbin) that nvcc's device-link module was linked
 * from: a version-2 wrapper's last field points to them, a NULL-terminated
 * array (CUDA's crt/link.stub, __cudaPrelinkedFatbins).  Their number, at
 * most max put in out; 0 for a version-1 wrapper or no array. */
int fatbin_prelinked(const void *wrapper, const void **out, int max);

/* The entries of the fat binaries at `image`, one after another (a section
 * may hold several), reading at most `len` bytes; len 0 trusts the headers'
 * sizes (an image in memory, from fatbin_unwrap: one fat binary), so a
 * caller with a buffer (a section) checks that it is not empty first.
 * *out is malloc'd (caller frees), its payloads point into image. */
int fatbin_list(const void *image, size_t len, FatbinEntry **out, int *n, WmErr *e);

/* The PTX text of a PTX entry, decompressed and NUL-terminated (malloc'd),
 * or NULL with a message. */
char *fatbin_ptx(const FatbinEntry *en, WmErr *e);

/* Any entry's bytes, decompressed (malloc'd, caller frees; *len bytes plus
 * a NUL not counted), or NULL with a message. */
uint8_t *fatbin_payload(const FatbinEntry *en, size_t *len, WmErr *e);

/* The entry's target as nvcc spells it ("compute_90", "sm_90a") into buf. */
void fatbin_entry_name(const FatbinEntry *en, char *buf, size_t n);

/* Which entry to run: the PTX entry of the highest arch not above max_arch,
 * else the lowest above it.  -1 with a message when there is no PTX (only
 * SASS, which warpmem cannot run: the message lists the entries and says to
 * rebuild with PTX, e.g. -gencode arch=compute_90,code=[sm_90,compute_90]). */
int fatbin_pick_ptx(const FatbinEntry *en, int n, uint32_t max_arch, WmErr *e);

#endif
