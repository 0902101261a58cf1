/* elf.c - an application's ELF headers, read with pread: the section
 * table and its names, and the NEEDED libraries of the dynamic section
 * (their names are offsets into the string table that DT_STRTAB gives as
 * an address, mapped to the file through the PT_LOAD segments).
 *
 * The file may be anything: every offset and size is checked against the
 * file's length, and counts are bounded before anything is allocated. */
#include "util/elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TABLE (64u << 20)  /* string tables, dynamic section: a sanity bound */
#define MAX_SECTION (2ull << 30)

typedef struct ElfFile {
  const char *path;
  int fd;
  uint64_t size;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh; /* shnum section headers */
  uint32_t shnum;
  char *shstr;    /* the section names' table, NUL-terminated */
  uint64_t shstr_len;
} ElfFile;

/* 0 if the file has len bytes at off, else -1 with a message naming what. */
static int fits(const ElfFile *f, uint64_t off, uint64_t len, const char *what, WmErr *e) {
  if (off > f->size || len > f->size - off)
    return wm_err(e, WM_EPARSE, "%s: truncated ELF: %s at offset %llu (%llu bytes) is past the end (%llu bytes)",
                  f->path, what, (unsigned long long)off, (unsigned long long)len, (unsigned long long)f->size);
  return 0;
}

/* Reads len bytes at off into buf (fits() first). */
static int rd(ElfFile *f, uint64_t off, void *buf, uint64_t len, const char *what, WmErr *e) {
  if (fits(f, off, len, what, e)) return -1;
  uint8_t *p = buf;
  for (uint64_t done = 0; done < len;) {
    ssize_t got = pread(f->fd, p + done, (size_t)(len - done), (off_t)(off + done));
    if (got <= 0) return wm_err(e, WM_EIO, "%s: cannot read %s: %s", f->path, what, got ? strerror(errno) : "end of file");
    done += (uint64_t)got;
  }
  return 0;
}

/* A malloc'd, NUL-terminated copy of len bytes at off (len bounded). */
static char *rd_table(ElfFile *f, uint64_t off, uint64_t len, const char *what, WmErr *e) {
  if (len > MAX_TABLE) {
    wm_err(e, WM_EPARSE, "%s: %s of %llu bytes (over %u MiB): corrupt ELF", f->path, what,
           (unsigned long long)len, MAX_TABLE >> 20);
    return NULL;
  }
  if (fits(f, off, len, what, e)) return NULL;
  char *t = wm_xmalloc((size_t)len + 1);
  if (rd(f, off, t, len, what, e)) {
    free(t);
    return NULL;
  }
  t[len] = 0;
  return t;
}

static int open_elf(ElfFile *f, const char *path, WmErr *e) {
  memset(f, 0, sizeof *f);
  f->path = path;
  f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block: refused below */
  if (f->fd < 0) return wm_err(e, WM_EIO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  if (fstat(f->fd, &st) || !S_ISREG(st.st_mode)) return wm_err(e, WM_EIO, "%s: not a regular file", path);
  f->size = (uint64_t)st.st_size;
  unsigned char id[EI_NIDENT];
  if (f->size < EI_NIDENT || rd(f, 0, id, EI_NIDENT, "identification", e) || memcmp(id, ELFMAG, SELFMAG))
    return wm_err(e, WM_EPARSE, "%s: not an ELF file (an application built by nvcc is)", path);
  if (id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB)
    return wm_err(e, WM_EUNSUP, "%s: a %s ELF file; warpmem runs 64-bit little-endian applications", path,
                  id[EI_CLASS] == ELFCLASS32 ? "32-bit" : "big-endian or unusual");
  return rd(f, 0, &f->eh, sizeof f->eh, "ELF header", e);
}

/* The section table and the names' table (none is fine: a stripped file). */
static int read_sections(ElfFile *f, WmErr *e) {
  Elf64_Ehdr *h = &f->eh;
  if (h->e_shoff == 0) return 0;
  if (h->e_shentsize != sizeof(Elf64_Shdr))
    return wm_err(e, WM_EPARSE, "%s: section header size %u, want %zu", f->path, h->e_shentsize, sizeof(Elf64_Shdr));
  uint64_t n = h->e_shnum;
  if (n == 0) { /* over 0xff00 sections: the count is in section 0 */
    Elf64_Shdr s0;
    if (rd(f, h->e_shoff, &s0, sizeof s0, "section header 0", e)) return -1;
    n = s0.sh_size;
  }
  if (n > f->size / sizeof(Elf64_Shdr))
    return wm_err(e, WM_EPARSE, "%s: truncated ELF: %llu section headers do not fit in %llu bytes", f->path,
                  (unsigned long long)n, (unsigned long long)f->size);
  f->shnum = (uint32_t)n;
  f->sh = wm_xcalloc(n ? n : 1, sizeof *f->sh);
  if (rd(f, h->e_shoff, f->sh, n * sizeof *f->sh, "section headers", e)) return -1;
  uint32_t idx = h->e_shstrndx == SHN_XINDEX && n ? f->sh[0].sh_link : h->e_shstrndx;
  if (idx == SHN_UNDEF || idx >= n) return 0;
  f->shstr_len = f->sh[idx].sh_size;
  f->shstr = rd_table(f, f->sh[idx].sh_offset, f->shstr_len, "section names", e);
  return f->shstr ? 0 : -1;
}

/* Section `name`'s header, or NULL. */
static const Elf64_Shdr *find_section(const ElfFile *f, const char *name) {
  if (!f->shstr) return NULL;
  for (uint32_t i = 0; i < f->shnum; i++)
    if (f->sh[i].sh_name < f->shstr_len && strcmp(f->shstr + f->sh[i].sh_name, name) == 0) return &f->sh[i];
  return NULL;
}

static void close_elf(ElfFile *f) {
  if (f->fd >= 0) close(f->fd);
  free(f->sh);
  free(f->shstr);
}

/* The file offset of virtual address addr (in a PT_LOAD segment's file
 * bytes), or -1 with a message. */
static int vaddr_to_off(ElfFile *f, uint64_t addr, uint64_t *off, WmErr *e) {
  Elf64_Ehdr *h = &f->eh;
  if (h->e_phoff && h->e_phentsize != sizeof(Elf64_Phdr))
    return wm_err(e, WM_EPARSE, "%s: program header size %u, want %zu", f->path, h->e_phentsize, sizeof(Elf64_Phdr));
  for (uint32_t i = 0; h->e_phoff && i < h->e_phnum; i++) {
    Elf64_Phdr p;
    if (rd(f, h->e_phoff + (uint64_t)i * sizeof p, &p, sizeof p, "program header", e)) return -1;
    if (p.p_type == PT_LOAD && addr >= p.p_vaddr && addr - p.p_vaddr < p.p_filesz) {
      *off = p.p_offset + (addr - p.p_vaddr);
      return 0;
    }
  }
  const Elf64_Shdr *s = find_section(f, ".dynstr"); /* no segment maps it: trust the section */
  if (s && s->sh_addr == addr) {
    *off = s->sh_offset;
    return 0;
  }
  return wm_err(e, WM_EPARSE, "%s: the dynamic string table's address 0x%llx is in no loaded segment", f->path,
                (unsigned long long)addr);
}

/* Notes what one NEEDED library means for a CUDA application. */
static void note_needed(const char *lib, ElfInfo *out) {
  static const char cudart[] = "libcudart.so.";
  if (strncmp(lib, cudart, sizeof cudart - 1) == 0) {
    int major = atoi(lib + sizeof cudart - 1);
    if (major > 0) out->cudart_major = major;
  }
  if (strcmp(lib, "libcuda.so.1") == 0 || strcmp(lib, "libcuda.so") == 0) out->needs_libcuda = 1;
  if (!strncmp(lib, "libcublas.so.", 13) || !strncmp(lib, "libcublasLt.so.", 15) || !strncmp(lib, "libcurand.so.", 13))
    out->needs_cudalibs = 1;
}

/* The dynamic section's NEEDED entries. */
static int read_dynamic(ElfFile *f, ElfInfo *out, WmErr *e) {
  const Elf64_Shdr *dyn = NULL;
  for (uint32_t i = 0; i < f->shnum && !dyn; i++)
    if (f->sh[i].sh_type == SHT_DYNAMIC) dyn = &f->sh[i];
  if (!dyn) return 0;
  out->dynamic = 1;
  if (dyn->sh_size > MAX_TABLE)
    return wm_err(e, WM_EPARSE, "%s: dynamic section of %llu bytes: corrupt ELF", f->path, (unsigned long long)dyn->sh_size);
  uint64_t n = dyn->sh_size / sizeof(Elf64_Dyn);
  Elf64_Dyn *d = wm_xcalloc(n ? n : 1, sizeof *d);
  int rc = rd(f, dyn->sh_offset, d, n * sizeof *d, "dynamic section", e);
  uint64_t straddr = 0, strsz = 0, off = 0;
  for (uint64_t i = 0; !rc && i < n && d[i].d_tag != DT_NULL; i++) {
    if (d[i].d_tag == DT_STRTAB) straddr = d[i].d_un.d_ptr;
    if (d[i].d_tag == DT_STRSZ) strsz = d[i].d_un.d_val;
  }
  char *str = NULL;
  if (!rc && straddr && !(rc = vaddr_to_off(f, straddr, &off, e))) {
    str = rd_table(f, off, strsz, "dynamic string table", e);
    rc = str ? 0 : -1;
  }
  for (uint64_t i = 0; !rc && str && i < n && d[i].d_tag != DT_NULL; i++) {
    if (d[i].d_tag != DT_NEEDED) continue;
    if (d[i].d_un.d_val >= strsz) {
      rc = wm_err(e, WM_EPARSE, "%s: a NEEDED entry's name at %llu is past the string table (%llu bytes)", f->path,
                  (unsigned long long)d[i].d_un.d_val, (unsigned long long)strsz);
      break;
    }
    note_needed(str + d[i].d_un.d_val, out);
  }
  free(str);
  free(d);
  return rc;
}

int elf_inspect(const char *path, ElfInfo *out, WmErr *e) {
  memset(out, 0, sizeof *out);
  ElfFile f;
  int rc = open_elf(&f, path, e);
  if (!rc) rc = read_sections(&f, e);
  if (!rc) rc = read_dynamic(&f, out, e);
  if (!rc) {
    out->is_elf64 = 1;
    out->has_fatbin = find_section(&f, ".nv_fatbin") != NULL;
    out->has_relfatbin = find_section(&f, "__nv_relfatbin") != NULL;
    out->static_cudart = (out->has_fatbin || out->has_relfatbin) && out->cudart_major == 0;
  }
  close_elf(&f);
  if (rc) memset(out, 0, sizeof *out);
  return rc;
}

int elf_section(const char *path, const char *name, uint8_t **data, size_t *len, WmErr *e) {
  *data = NULL;
  *len = 0;
  ElfFile f;
  int rc = open_elf(&f, path, e);
  if (!rc) rc = read_sections(&f, e);
  const Elf64_Shdr *s = rc ? NULL : find_section(&f, name);
  if (!rc && !s) rc = wm_err(e, WM_EUSAGE, "%s: no section %s", path, name);
  if (!rc && s->sh_type == SHT_NOBITS) rc = wm_err(e, WM_EUSAGE, "%s: section %s has no bytes in the file", path, name);
  if (!rc && s->sh_size > MAX_SECTION)
    rc = wm_err(e, WM_EPARSE, "%s: section %s of %llu bytes (over 2 GiB): corrupt ELF", path, name,
                (unsigned long long)s->sh_size);
  if (!rc) rc = fits(&f, s->sh_offset, s->sh_size, name, e);
  if (!rc) {
    uint8_t *buf = wm_xmalloc(s->sh_size ? (size_t)s->sh_size : 1);
    if (rd(&f, s->sh_offset, buf, s->sh_size, name, e)) {
      free(buf);
      rc = -1;
    } else {
      *data = buf;
      *len = (size_t)s->sh_size;
    }
  }
  close_elf(&f);
  return rc;
}

int elf_sections(const char *path, void (*visit)(void *ctx, const char *name, uint64_t size), void *ctx, WmErr *e) {
  ElfFile f;
  int rc = open_elf(&f, path, e);
  if (!rc) rc = read_sections(&f, e);
  for (uint32_t i = 0; !rc && f.shstr && i < f.shnum; i++)
    if (f.sh[i].sh_name < f.shstr_len && f.shstr[f.sh[i].sh_name]) visit(ctx, f.shstr + f.sh[i].sh_name, f.sh[i].sh_size);
  close_elf(&f);
  return rc;
}
