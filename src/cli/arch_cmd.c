/* arch_cmd.c - `warpmem arch` (the presets) and `warpmem occupancy` (the
 * occupancy calculator on the command line). */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "arch/occupancy.h"
#include "cli/cli.h"
#include "report/report.h"

static const char *usage_arch =
  "usage: warpmem arch [NAME] [--format text|json]\n"
  "\n"
  "Without NAME: one line per GPU preset (name, GPU, compute capability, SMs,\n"
  "L1/shared per SM, L2, DRAM, peak bandwidth).  With NAME (a preset or an\n"
  "alias such as sm_80, 7.0, v100, h100): every fact of that preset and what it\n"
  "means.  The source of each number is in src/arch/arch.c.\n";

static const char *usage_occ =
  "usage: warpmem occupancy --block N[,Y[,Z]] --regs R [--smem BYTES] [--arch NAME]\n"
  "                         [--carveout PCT|max-l1|max-shared] [--format text|json]\n"
  "\n"
  "Blocks per SM, active warps and occupancy of a kernel whose blocks have N\n"
  "threads, R registers per thread (ptxas -v: 'Used R registers') and BYTES of\n"
  "shared memory (static + dynamic), computed as the CUDA occupancy calculator\n"
  "does, with the blocks each resource alone allows and the limiting one.\n"
  "--arch defaults to h200; --carveout is the preferred shared-memory carveout\n"
  "in percent (cudaFuncAttributePreferredSharedMemoryCarveout).\n";

/* ---- the fields of a preset ---------------------------------------------- */

typedef enum { F_STR, F_INT, F_DBL, F_BYTES, F_CC, F_COAL, F_BOOL, F_CARVE } FieldType;

/* X(member, type, meaning): every fact `warpmem arch NAME` shows, in the
 * order of arch.h. */
#define ARCH_FIELDS(X)                                                                        \
  X(name, F_STR, "preset name (--arch)")                                                      \
  X(gpu, F_STR, "the GPU whose published numbers these are")                                  \
  X(generation, F_STR, "architecture generation")                                             \
  X(cc, F_CC, "compute capability")                                                           \
  X(sms, F_INT, "streaming multiprocessors")                                                  \
  X(warp_size, F_INT, "threads per warp")                                                     \
  X(clock_ghz, F_DBL, "SM clock, GHz (boost)")                                                \
  X(max_threads_block, F_INT, "most threads per block")                                       \
  X(max_threads_sm, F_INT, "most resident threads per SM")                                    \
  X(max_warps_sm, F_INT, "most resident warps per SM")                                        \
  X(max_blocks_sm, F_INT, "most resident blocks per SM")                                      \
  X(regs_sm, F_INT, "32-bit registers per SM")                                                \
  X(regs_block, F_INT, "most registers per block")                                            \
  X(regs_thread, F_INT, "most registers per thread")                                          \
  X(reg_unit, F_INT, "register allocation unit (registers)")                                  \
  X(reg_per_warp, F_BOOL, "registers allocated per warp (else per block)")                    \
  X(warp_alloc_unit, F_INT, "warps allocated in units of")                                    \
  X(reg_partitions, F_INT, "register file sub-partitions (a warp's registers lie in one)")    \
  X(smem_sm, F_BYTES, "most shared memory per SM")                                            \
  X(smem_block, F_BYTES, "most shared memory per block without opt-in")                       \
  X(smem_block_optin, F_BYTES, "most shared memory per block with opt-in")                    \
  X(smem_unit, F_BYTES, "shared memory allocation unit")                                      \
  X(smem_reserved, F_BYTES, "shared memory the driver reserves per block")                    \
  X(banks, F_INT, "shared memory banks")                                                      \
  X(bank_bytes, F_INT, "bank width, bytes (default mode)")                                    \
  X(coalesce, F_COAL, "how a warp's global accesses become transactions")                     \
  X(l1_bytes, F_BYTES, "L1 data cache per SM in the default configuration")                   \
  X(l1_smem_bytes, F_BYTES, "unified L1 + shared memory array per SM (0: separate/fixed)")    \
  X(carveouts, F_CARVE, "shared memory sizes the unified array can give, KiB")                \
  X(l1_caches_loads, F_BOOL, "global loads cached in L1 by default")                          \
  X(l1_line, F_BYTES, "L1 line")                                                              \
  X(l1_sector, F_BYTES, "L1 sector")                                                          \
  X(l2_bytes, F_BYTES, "L2 cache")                                                            \
  X(l2_line, F_BYTES, "L2 line")                                                              \
  X(l2_sector, F_BYTES, "L2 sector")                                                          \
  X(l2_ways, F_INT, "L2 associativity (assumed: not published)")                              \
  X(dram, F_STR, "DRAM type")                                                                 \
  X(bus_bits, F_INT, "DRAM bus width, bits")                                                  \
  X(dram_gbs, F_DBL, "peak DRAM bandwidth, GB/s (1e9 bytes/s)")                               \
  X(channels, F_INT, "independent DRAM channels (HBM: pseudo-channels)")                      \
  X(dram_banks, F_INT, "banks per channel")                                                   \
  X(row_bytes, F_BYTES, "DRAM row (page) per bank")                                           \
  X(burst_bytes, F_BYTES, "bytes per DRAM burst")                                             \
  X(fetch_bytes, F_BYTES, "smallest L2 fill from DRAM")                                       \
  X(dram_interleave, F_BYTES, "bytes mapped to one DRAM channel before the next")                \
  X(l1_ways, F_INT, "L1 associativity (cache model)")                                          \
  X(l2_model_pct, F_INT, "share of the L2 an LRU model of it holds, % (cache model)")          \
  X(l2_parts, F_INT, "L2 partitions; 2: a far line kept in both (cache model)")                 \
  X(block_group, F_INT, "consecutive blocks placed on one SM together (cache model)")          \
  X(xbar_sms, F_INT, "SMs whose same-round reads of a sector reach L2 as one (0: none)")      \
  X(merge_sectors, F_INT, "L1 store merging window, sectors (cache model; 0: none)")           \
  X(merge_lines, F_INT, "store merging: requests of at most this many lines (cache model)")    \
  X(partial_bytes, F_BYTES, "partly written L2 sectors kept before filling from DRAM (cache model)") \
  X(dram_latency_ns, F_DBL, "DRAM latency, ns (time model)")                                  \
  X(launch_ns, F_DBL, "kernel launch overhead, ns (time model)")                              \
  X(block_ns, F_DBL, "per-SM cost of launching a block, ns (time model)")                     \
  X(dram_eff, F_DBL, "fraction of peak DRAM bandwidth a streaming kernel sustains")           \
  X(schedulers, F_INT, "warp instructions an SM issues per clock (time model)")               \
  X(hot_write_ns, F_DBL, "time between two writes to one L2 sector, ns (time model)")

typedef struct Field {
  const char *key;
  FieldType type;
  size_t off;
  const char *meaning;
} Field;

static const Field fields[] = {
#define X(m, t, what) {#m, t, offsetof(Arch, m), what},
  ARCH_FIELDS(X)
#undef X
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

static const void *field_ptr(const Arch *a, const Field *f) { return (const char *)a + f->off; }

/* "60 MiB", "48 KiB", "128 B" */
static void bytes_text(long long b, char *buf, size_t n) {
  if (b == 0) snprintf(buf, n, "0");
  else if (b >= (1 << 20) && b % (1 << 20) == 0) snprintf(buf, n, "%lld MiB", b >> 20);
  else if (b >= 1024 && b % 1024 == 0) snprintf(buf, n, "%lld KiB", b >> 10);
  else snprintf(buf, n, "%lld B", b);
}

static void carveouts_text(const Arch *a, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  if (!a->carveouts) {
    snprintf(buf, n, "fixed");
    return;
  }
  if (a->cc >= 70) used += (size_t)snprintf(buf, n, "0");
  for (const int *c = a->carveouts; *c && used < n; c++)
    used += (size_t)snprintf(buf + used, n - used, "%s%d", used ? "," : "", *c);
}

static void field_text(const Arch *a, const Field *f, char *buf, size_t n) {
  const void *p = field_ptr(a, f);
  switch (f->type) {
  case F_STR: snprintf(buf, n, "%s", *(const char *const *)p); break;
  case F_INT: snprintf(buf, n, "%d", *(const int *)p); break;
  case F_DBL: snprintf(buf, n, "%g", *(const double *)p); break;
  case F_BYTES: bytes_text(*(const int *)p, buf, n); break;
  case F_CC: snprintf(buf, n, "%d.%d", a->cc / 10, a->cc % 10); break;
  case F_COAL: snprintf(buf, n, "%s", arch_coalesce_name(a->coalesce)); break;
  case F_BOOL: snprintf(buf, n, "%s", *(const int *)p ? "yes" : "no"); break;
  case F_CARVE: carveouts_text(a, buf, n); break;
  }
}

static json_t *field_json(const Arch *a, const Field *f) {
  const void *p = field_ptr(a, f);
  switch (f->type) {
  case F_STR: return json_string(*(const char *const *)p);
  case F_INT: case F_BYTES: return json_integer(*(const int *)p);
  case F_DBL: return json_real(*(const double *)p);
  case F_CC: {
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", a->cc / 10, a->cc % 10);
    return json_string(cc);
  }
  case F_COAL: return json_string(arch_coalesce_name(a->coalesce));
  case F_BOOL: return json_boolean(*(const int *)p);
  case F_CARVE: {
    json_t *arr = json_array();
    if (a->carveouts && a->cc >= 70) json_array_append_new(arr, json_integer(0));
    for (const int *c = a->carveouts; c && *c; c++) json_array_append_new(arr, json_integer(*c));
    return arr;
  }
  }
  return json_null();
}

static json_t *arch_json(const Arch *a) {
  json_t *o = json_object();
  for (int i = 0; i < NFIELDS; i++) json_object_set_new(o, fields[i].key, field_json(a, &fields[i]));
  return o;
}

static int dump_json(json_t *root) {
  int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
  json_decref(root);
  if (rc == 0 && fputc('\n', stdout) == EOF) rc = -1;
  return rc;
}

static void list_text(void) {
  printf("%-7s  %-24s  %-4s  %4s  %-22s  %-7s  %-15s  %7s\n", "name", "GPU", "cc", "SMs", "L1/shared per SM", "L2",
         "DRAM", "GB/s");
  for (int i = 0; i < arch_count(); i++) {
    const Arch *a = arch_preset(i);
    char l1[40], l2[16], dram[32], kib[16];
    if (a->l1_smem_bytes) {
      bytes_text(a->l1_smem_bytes, kib, sizeof kib);
      snprintf(l1, sizeof l1, "%s unified", kib);
    } else {
      bytes_text(a->smem_sm, kib, sizeof kib);
      snprintf(l1, sizeof l1, "%s shared, no L1", kib);
    }
    if (a->l2_bytes) bytes_text(a->l2_bytes, l2, sizeof l2);
    else snprintf(l2, sizeof l2, "-");
    snprintf(dram, sizeof dram, "%s %d-bit", a->dram, a->bus_bits);
    printf("%-7s  %-24s  %d.%d   %4d  %-22s  %-7s  %-15s  %7.1f\n", a->name, a->gpu, a->cc / 10, a->cc % 10, a->sms,
           l1, l2, dram, a->dram_gbs);
  }
  printf("\n'warpmem arch NAME' shows every fact of one preset; sources are in src/arch/arch.c.\n");
}

static void show_text(const Arch *a) {
  printf("%s: %s, %s, compute capability %d.%d\n\n", a->name, a->gpu, a->generation, a->cc / 10, a->cc % 10);
  printf("  %-18s  %-34s  %s\n", "field", "value", "meaning");
  for (int i = 0; i < NFIELDS; i++) {
    char v[96];
    field_text(a, &fields[i], v, sizeof v);
    printf("  %-18s  %-34s  %s\n", fields[i].key, v, fields[i].meaning);
  }
}

static int unknown_arch(const char *name) {
  char names[256];
  arch_names(names, sizeof names);
  fprintf(stderr, "warpmem: unknown GPU preset '%s': the presets are %s (or an alias such as sm_80, 7.0, h100)\n",
          name, names);
  return 2;
}

static int parse_fmt(const char *v, int *json) {
  if (v && !strcmp(v, "json")) *json = 1;
  else if (v && !strcmp(v, "text")) *json = 0;
  else return cli_usage_error("--format takes text or json, not '%s'", v ? v : "");
  return 0;
}

int cli_arch_cmd(int argc, char **argv) {
  const char *name = NULL;
  int json = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_arch, stdout);
      return 0;
    }
    if (!strcmp(a, "--format")) {
      if (parse_fmt(i + 1 < argc ? argv[++i] : NULL, &json)) return 2;
      continue;
    }
    if (a[0] == '-' && a[1]) return cli_usage_error("unknown option '%s' (see warpmem arch --help)", a);
    if (name) return cli_usage_error("one preset NAME only ('%s' is a second)", a);
    name = a;
  }
  if (name) {
    const Arch *a = arch_find(name);
    if (!a) return unknown_arch(name);
    if (json) return dump_json(arch_json(a)) ? 1 : 0;
    show_text(a);
    return 0;
  }
  if (json) {
    json_t *arr = json_array();
    for (int i = 0; i < arch_count(); i++) json_array_append_new(arr, arch_json(arch_preset(i)));
    return dump_json(arr) ? 1 : 0;
  }
  list_text();
  return 0;
}

/* ---- occupancy ----------------------------------------------------------- */

/* Why each resource allows the blocks it allows, one line each. */
static void limit_why(const Arch *a, const OccInput *in, const OccResult *r, OccLimit l, char *buf, size_t n) {
  int warps_alloc = (r->warps_block + a->warp_alloc_unit - 1) / a->warp_alloc_unit * a->warp_alloc_unit;
  char kib[16];
  switch (l) {
  case OCC_LIMIT_WARPS:
    snprintf(buf, n, "%d warps per SM / %d warps per block%s", a->max_warps_sm, warps_alloc,
             warps_alloc != r->warps_block ? " (allocated in pairs)" : "");
    break;
  case OCC_LIMIT_REGS:
    if (r->limit[l] == OCC_UNLIMITED) snprintf(buf, n, "no registers");
    else if (!a->reg_per_warp)
      snprintf(buf, n, "%d registers per block (%d x %d threads, units of %d) of %d", r->regs_block, in->regs,
               warps_alloc * a->warp_size, a->reg_unit, a->regs_sm);
    else
      snprintf(buf, n, "%d registers per warp (%d x %d rounded up): %d warps fit in each of %d sub-partitions of %d",
               r->regs_warp, in->regs, a->warp_size, a->regs_sm / a->reg_partitions / r->regs_warp,
               a->reg_partitions, a->regs_sm / a->reg_partitions);
    break;
  case OCC_LIMIT_SMEM:
    bytes_text(r->smem_sm, kib, sizeof kib);
    if (r->limit[l] == OCC_UNLIMITED) snprintf(buf, n, "no shared memory");
    else if (a->smem_reserved)
      snprintf(buf, n, "%u bytes per block (%u + %d reserved, units of %d) of %s", r->smem_block, in->smem,
               a->smem_reserved, a->smem_unit, kib);
    else
      snprintf(buf, n, "%u bytes per block (%u in units of %d) of %s", r->smem_block, in->smem, a->smem_unit, kib);
    break;
  case OCC_LIMIT_BLOCKS:
    snprintf(buf, n, "at most %d blocks per SM", a->max_blocks_sm);
    break;
  default:
    buf[0] = '\0';
  }
}

static void occ_text(const Arch *a, const OccInput *in, const OccResult *r) {
  char lim[96], kib[16], l1[16], arr[16];
  occ_limiters_text(r->limiters, lim, sizeof lim);
  printf("occupancy on %s (%s, compute capability %d.%d)\n", a->name, a->gpu, a->cc / 10, a->cc % 10);
  printf("  block of %d threads (%d warps), %d registers per thread, %u bytes of shared memory\n\n", in->threads,
         r->warps_block, in->regs, in->smem);
  printf("  blocks per SM   %d\n", r->blocks_sm);
  printf("  warps per SM    %d of %d\n", r->warps_sm, r->max_warps_sm);
  printf("  occupancy       %.1f%%\n", r->occupancy_pct);
  printf("  limited by      %s\n\n", lim);
  printf("  %-14s  %6s  %s\n", "limit", "blocks", "why");
  for (int l = 0; l < OCC_LIMIT_COUNT; l++) {
    char why[200], blocks[16];
    limit_why(a, in, r, (OccLimit)l, why, sizeof why);
    if (r->limit[l] == OCC_UNLIMITED) snprintf(blocks, sizeof blocks, "-");
    else snprintf(blocks, sizeof blocks, "%d", r->limit[l]);
    printf("  %-14s  %6s  %s\n", occ_limit_name((OccLimit)l), blocks, why);
  }
  bytes_text(r->carveout, kib, sizeof kib);
  bytes_text(r->l1_bytes, l1, sizeof l1);
  if (a->l1_smem_bytes) {
    bytes_text(a->l1_smem_bytes, arr, sizeof arr);
    printf("\n  shared memory carveout %s of the %s L1/shared array: %s left for the L1 cache\n", kib, arr, l1);
  } else {
    printf("\n  shared memory %s per SM, fixed; no L1 cache for global memory\n", kib);
  }
  if (r->optin)
    printf("  more than %d bytes of shared memory per block: the kernel must opt in "
           "(cudaFuncAttributeMaxDynamicSharedMemorySize)\n", a->smem_block);
}

int cli_occupancy_cmd(int argc, char **argv) {
  const Arch *a = arch_default();
  OccInput in = {.threads = 0, .regs = -1, .smem = 0, .carveout_pct = OCC_CARVEOUT_DEFAULT};
  int json = 0;
  WmErr e = {0};
  for (int i = 2; i < argc; i++) {
    const char *o = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
      fputs(usage_occ, stdout);
      return 0;
    }
    if (o[0] != '-' || !o[1]) return cli_usage_error("occupancy takes options only, not '%s'", o);
    if (!strcmp(o, "--arch") || !strcmp(o, "--block") || !strcmp(o, "--regs") || !strcmp(o, "--smem") ||
        !strcmp(o, "--carveout") || !strcmp(o, "--format")) {
      if (!v) return cli_usage_error("%s needs a value", o);
      i++;
    } else {
      return cli_usage_error("unknown option '%s' (see warpmem occupancy --help)", o);
    }
    uint64_t n;
    if (!strcmp(o, "--arch")) {
      if (!(a = arch_find(v))) return unknown_arch(v);
    } else if (!strcmp(o, "--block")) {
      uint32_t d[3];
      if (launch_parse_dim(v, d, &e)) return wm_err_print(&e);
      uint64_t t = (uint64_t)d[0] * d[1]; /* < 2^62; saturate before the third */
      if (t <= 0x7fffffff) t *= d[2];
      in.threads = t > 0x7fffffff ? 0x7fffffff : (int)t;
    } else if (!strcmp(o, "--regs")) {
      if (cli_parse_size(v, &n) || n > 100000) return cli_usage_error("--regs takes registers per thread, not '%s'", v);
      in.regs = (int)n;
    } else if (!strcmp(o, "--smem")) {
      if (cli_parse_size(v, &n) || n > 0xffffffffu) return cli_usage_error("--smem takes a byte count, not '%s'", v);
      in.smem = (uint32_t)n;
    } else if (!strcmp(o, "--carveout")) {
      if (cli_parse_carveout(v, &in.carveout_pct))
        return cli_usage_error("--carveout takes a percentage (0-100), max-l1 or max-shared, not '%s'", v);
    } else if (parse_fmt(v, &json)) {
      return 2;
    }
  }
  if (in.threads == 0) return cli_usage_error("%s", "occupancy needs --block N (threads per block)");
  if (in.regs < 0) return cli_usage_error("%s", "occupancy needs --regs R (ptxas -v: 'Used R registers')");
  OccResult r;
  if (occ_compute(a, &in, &r, &e)) return wm_err_print(&e);
  if (json) {
    json_t *o = report_occupancy_json(a, &r, in.regs, "--regs");
    json_object_set_new(o, "threads", json_integer(in.threads));
    json_object_set_new(o, "smem", json_integer(in.smem));
    return dump_json(o) ? 1 : 0;
  }
  occ_text(a, &in, &r);
  return 0;
}
