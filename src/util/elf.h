/* elf.h - what warpmem reads from ELF files: an application's, before
 * `warpmem run` runs it (which CUDA libraries it loads, whether it carries
 * device code: a fat binary, and that section's bytes), and a cubin's
 * sections (the size of each kernel's code, which a launch reads from
 * DRAM). */
#ifndef WM_ELF_H
#define WM_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

typedef struct ElfInfo {
  int is_elf64;            /* a 64-bit little-endian ELF executable or library */
  int dynamic;             /* has a dynamic section */
  int cudart_major;        /* NEEDED libcudart.so.N: N (0: none) */
  int needs_libcuda;       /* NEEDED libcuda.so.1 (the driver API) */
  int needs_cudalibs;      /* NEEDED libcublas.so.N, libcublasLt.so.N or libcurand.so.N */
  int has_fatbin;          /* has a .nv_fatbin section (device code) */
  int has_relfatbin;       /* has __nv_relfatbin: device code built with
                              -rdc=true, one fat binary per translation unit
                              (.nv_fatbin then holds the linked SASS only) */
  int static_cudart;       /* device code but no libcudart NEEDED: linked
                              with nvcc's default -cudart static */
} ElfInfo;

/* Reads path's headers.  Errors (not a file, not ELF, not 64-bit
 * little-endian, truncated) name the file; out is zeroed on an error. */
int elf_inspect(const char *path, ElfInfo *out, WmErr *e);

/* The bytes of section `name` of path (malloc'd, caller frees); -1 with a
 * message if it has none. */
int elf_section(const char *path, const char *name, uint8_t **data, size_t *len, WmErr *e);

/* Calls visit(ctx, name, size) for each section of path that has a name.
 * 0, or -1 with a message naming the file. */
int elf_sections(const char *path, void (*visit)(void *ctx, const char *name, uint64_t size), void *ctx, WmErr *e);

#endif
