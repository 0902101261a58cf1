/* test_generations.c - global coalescing and shared-memory banks on every
 * GPU generation, against the seeds' tables and first principles.
 *
 * Two ways in: the model's functions (mem_transactions, mem_smem_cost_gen)
 * fed with the lanes' addresses, and the command line
 * (`warpmem sim --arch NAME [--loads ca|cg] [--bank-mode 4|8] --format json`)
 * on tests/data/gen_patterns.cu (the seeds' patterns) and the seed 002
 * layout kernels of groundtruth/seed_kernels.cu.
 *
 * Sources of the expected numbers, quoted where they are used:
 *   seed 004  J. Luitjens, "Global Memory Usage and Strategy", NVIDIA GPU
 *             Computing Webinar, 2011 (Fermi's caching and non-caching
 *             loads, "Prior to Fermi, memory issues were per half-warp");
 *   seed 000  EECS 471 Applied GPU Programming, "Lecture 5: DRAM, Shared
 *             Mem, Coalescing" (the GTX 680 bank examples);
 *   seed 002  CUDA Freshman 5.2, "Data Layout in Shared Memory" (the
 *             shared-memory layouts);
 *   [PG]      CUDA C Programming Guide 4.2, Appendix F (F.3: 1.x, F.4: 2.x,
 *             F.5: 3.0), the rules each generation's model implements.
 * Where a seed's generic sentence does not hold on a generation, the test
 * says so and which rule decides.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "arch/arch.h"
#include "mem/mem.h"
#include "ptx/ptx.h"

#define ALL 0xffffffffu

/* ---- helpers: the functions ------------------------------------------- */

/* The rules of preset `name` with --bank-mode `bank_bytes` (0: preset's)
 * and --loads `loads`. */
static MemGen gen(const char *name, unsigned bank_bytes, unsigned loads)
{
  const Arch *a = arch_find(name);
  if (!a)
    fail_msg("no preset %s", name);
  MemConfig c = {.sm = a->cc, .arch = a, .bank_bytes = (uint8_t)bank_bytes, .loads = (uint8_t)loads};
  MemGen g;
  char why[200];
  if (mem_gen(&c, &g, why, sizeof why))
    fail_msg("%s: %s", name, why);
  return g;
}

static MemTrans global(const MemGen *g, unsigned op, unsigned size, uint32_t mask,
                       const uint64_t *a, unsigned cache)
{
  MemReq r = {.space = PTX_S_GLOBAL, .op = (uint8_t)op, .size = (uint8_t)size,
              .elem = (uint8_t)size, .mask = mask, .addr = a, .cache = (uint8_t)cache};
  MemTrans t;
  mem_transactions(g, &r, &t);
  return t;
}

/* Lane l at base + l * stride. */
static void strided(uint64_t *a, uint64_t base, int64_t stride)
{
  for (int l = 0; l < 32; l++)
    a[l] = base + (uint64_t)((int64_t)l * stride);
}

/* Bytes the lanes asked for (distinct addresses x size), as mem.c counts
 * warpmem__global_bytes_requested. */
static unsigned used_bytes(const uint64_t *a, uint32_t mask, unsigned size)
{
  unsigned d;
  mem_coalesce(a, mask, size, &d);
  return d * size;
}

/* Distinct `unit`-byte blocks the active lanes touch: "Addresses fall
 * within N cache-lines" (seed 004), counted the obvious way. */
static unsigned blocks_touched(const uint64_t *a, uint32_t mask, unsigned unit)
{
  uint64_t seen[32];
  unsigned n = 0;
  for (int l = 0; l < 32; l++) {
    if (!(mask >> l & 1))
      continue;
    int dup = 0;
    for (unsigned i = 0; i < n; i++)
      dup |= seen[i] == a[l] / unit;
    if (!dup)
      seen[n++] = a[l] / unit;
  }
  return n;
}

/* The percentage, to 0.001%, for comparing utilizations. */
static long pct1000(unsigned used, unsigned moved)
{
  return (long)((100000.0 * used) / moved + 0.5);
}

static unsigned smem(const MemGen *g, unsigned op, unsigned size, uint32_t mask,
                     const uint64_t *a, unsigned *ideal)
{
  return mem_smem_cost_gen(g, a, mask, size, op, ideal);
}

/* ---- helpers: the command line ---------------------------------------- */

/* Runs `warpmem sim ARGS --format json` and returns the parsed array of
 * launches (caller json_decref's). */
static json_t *sim_json(const char *fmt, ...)
{
  char args[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  char full[2200];
  snprintf(full, sizeof full, "sim %s --format json", args);
  char *out = NULL, *err = NULL;
  int rc = tu_run_cli(full, &out, &err);
  if (rc != 0)
    fail_msg("warpmem %s exited %d:\n%s", full, rc, err ? err : "");
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root || !json_is_array(root))
    fail_msg("warpmem %s: not a JSON array (%s)", full, je.text);
  free(out);
  free(err);
  return root;
}

static json_t *launch(json_t *root, const char *label)
{
  for (size_t i = 0; i < json_array_size(root); i++) {
    json_t *l = json_array_get(root, i);
    const char *s = json_string_value(json_object_get(l, "launch"));
    if (s && !strcmp(s, label))
      return l;
  }
  fail_msg("no launch %s", label);
  return NULL;
}

static long long metric(json_t *l, const char *name)
{
  json_t *v = json_object_get(json_object_get(l, "metrics"), name);
  if (!json_is_integer(v))
    fail_msg("no integer metric %s", name);
  return json_integer_value(v);
}

#define TRANS "warpmem__global_transactions"
#define MOVED "warpmem__global_bytes_moved"
#define USED "warpmem__global_bytes_requested"
#define SLD_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define SST_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define SLD_INST "smsp__inst_executed_op_shared_ld.sum"
#define SST_INST "smsp__inst_executed_op_shared_st.sum"

/* The launch's global transactions, bytes moved and bytes requested. */
static void assert_global(json_t *root, const char *label, long long trans, long long moved,
                          long long used)
{
  json_t *l = launch(root, label);
  if (metric(l, TRANS) != trans || metric(l, MOVED) != moved || metric(l, USED) != used)
    fail_msg("%s: %lld transactions, %lld bytes moved, %lld requested; want %lld, %lld, %lld",
             label, metric(l, TRANS), metric(l, MOVED), metric(l, USED), trans, moved, used);
}

/* ---- seed 004: Fermi's caching and non-caching loads (the functions) --- */

/* "Warp requests 32 aligned, consecutive 4-byte words": caching "Bus
 * utilization: 100%, Transactions: 1"; non-caching "Addresses fall within
 * 4 segments ... Bus utilization: 100%, Transactions: 4". */
static void test_fermi_aligned(void **state)
{
  (void)state;
  MemGen ca = gen("fermi", 0, MEM_LOADS_CA), cg = gen("fermi", 0, MEM_LOADS_CG);
  uint64_t a[32];
  strided(a, 0x10000, 4);
  MemTrans t = global(&ca, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 1);
  assert_int_equal(t.moved, 128);
  assert_int_equal(used_bytes(a, ALL, 4), 128);
  t = global(&cg, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 4);
  assert_int_equal(t.moved, 128);
  /* Fermi caches by default ("Caching - Default mode"): no --loads is ca */
  MemGen dflt = gen("fermi", 0, MEM_LOADS_DEFAULT);
  assert_int_equal(global(&dflt, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT).n, 1);
}

/* "Warp requests 32 aligned, permuted 4-byte words": the same 1 and 4. */
static void test_fermi_permuted(void **state)
{
  (void)state;
  MemGen ca = gen("fermi", 0, MEM_LOADS_CA), cg = gen("fermi", 0, MEM_LOADS_CG);
  uint64_t a[32];
  for (int l = 0; l < 32; l++)
    a[l] = 0x10000 + 4u * ((l * 7 + 3) & 31); /* 7 is odd: a permutation */
  assert_int_equal(used_bytes(a, ALL, 4), 128);
  MemTrans t = global(&ca, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 1);
  assert_int_equal(t.moved, 128);
  t = global(&cg, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 4);
  assert_int_equal(t.moved, 128);
}

/* "Warp requests 32 misaligned, consecutive 4-byte words": caching "Addresses
 * fall within 2 cache-lines ... 256 bytes move across the bus on misses, Bus
 * utilization: 50%, Transactions: 2"; non-caching "Addresses fall within at
 * most 5 segments ... At most 160 bytes ... Bus utilization: at least 80%;
 * Some misaligned patterns will fall within 4 segments, so 100%". */
static void test_fermi_misaligned(void **state)
{
  (void)state;
  MemGen ca = gen("fermi", 0, MEM_LOADS_CA), cg = gen("fermi", 0, MEM_LOADS_CG);
  uint64_t a[32];
  for (unsigned off = 4; off < 128; off += 4) {
    strided(a, 0x10000 + off, 4);
    MemTrans t = global(&ca, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.moved, 256);
    assert_int_equal(pct1000(used_bytes(a, ALL, 4), t.moved), 50000);
    t = global(&cg, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
    assert_true(t.moved <= 160);
    assert_true(pct1000(used_bytes(a, ALL, 4), t.moved) >= 80000);
    /* 5 segments, or 4 when the words start on a 32-byte boundary */
    assert_int_equal(t.n, off % 32 ? 5 : 4);
  }
}

/* "All threads in a warp request the same 4-byte word": caching "128 bytes
 * move across the bus on a miss, Bus utilization: 3.125%"; non-caching "32
 * bytes ... 12.5%". */
static void test_fermi_one_word(void **state)
{
  (void)state;
  MemGen ca = gen("fermi", 0, MEM_LOADS_CA), cg = gen("fermi", 0, MEM_LOADS_CG);
  uint64_t a[32];
  strided(a, 0x10044, 0);
  assert_int_equal(used_bytes(a, ALL, 4), 4);
  MemTrans t = global(&ca, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 1);
  assert_int_equal(pct1000(4, t.moved), 3125);
  t = global(&cg, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 1);
  assert_int_equal(pct1000(4, t.moved), 12500);
}

/* "Warp requests 32 scattered 4-byte words, Addresses fall within N
 * cache-lines ... N*128 bytes ... Bus utilization: 128 / (N*128)";
 * non-caching "N segments ... 128 / (N x 32)".  N is counted from the
 * addresses. */
static void test_fermi_scattered(void **state)
{
  (void)state;
  MemGen ca = gen("fermi", 0, MEM_LOADS_CA), cg = gen("fermi", 0, MEM_LOADS_CG);
  uint64_t a[32];
  static const unsigned strides[] = {37, 32, 8, 3, 1000};
  for (unsigned i = 0; i < sizeof strides / sizeof strides[0]; i++) {
    for (int l = 0; l < 32; l++)
      a[l] = 0x40000 + 4u * (((l * 13 + 5) & 31) * strides[i] + 2);
    unsigned lines = blocks_touched(a, ALL, 128), segs = blocks_touched(a, ALL, 32);
    MemTrans t = global(&ca, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
    assert_int_equal(t.n, lines);
    assert_int_equal(t.moved, lines * 128);
    assert_int_equal(pct1000(used_bytes(a, ALL, 4), t.moved), pct1000(128, lines * 128));
    t = global(&cg, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
    assert_int_equal(t.n, segs);
    assert_int_equal(pct1000(used_bytes(a, ALL, 4), t.moved), pct1000(128, segs * 32));
  }
  /* stride 37 words: 148 bytes apart, so no two lanes share a line or a
   * segment: N = 32 either way */
  for (int l = 0; l < 32; l++)
    a[l] = 0x40000 + 4u * (((l * 13 + 5) & 31) * 37 + 2);
  assert_int_equal(global(&ca, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT).n, 32);
  assert_int_equal(global(&cg, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT).n, 32);
}

/* The cache operator of the instruction wins over --loads ([PG] F.4.2: the
 * behaviour "can be partially configured on a per-access basis using
 * modifiers to the load"); stores are not cached in L1 (seed 004:
 * "Stores: Invalidate L1, write-back for L2"), so they move 32-byte
 * segments; words wider than 4 bytes split the warp into half-warps (8) or
 * quarter-warps (16), each with its own lines ([PG] F.4.2). */
static void test_fermi_operators_stores_wide(void **state)
{
  (void)state;
  MemGen ca = gen("fermi", 0, MEM_LOADS_CA), cg = gen("fermi", 0, MEM_LOADS_CG);
  uint64_t a[32];
  strided(a, 0x10000, 4);
  assert_int_equal(global(&ca, MEM_LD, 4, ALL, a, MEM_LOADS_CG).n, 4);  /* ld.cg */
  assert_int_equal(global(&cg, MEM_LD, 4, ALL, a, MEM_LOADS_CA).n, 1);  /* ld.ca */
  assert_int_equal(global(&ca, MEM_ST, 4, ALL, a, MEM_LOADS_DEFAULT).n, 4);
  assert_int_equal(global(&ca, MEM_ST, 4, ALL, a, MEM_LOADS_DEFAULT).moved, 128);
  /* 32 consecutive doubles: 256 bytes, one line per half-warp */
  strided(a, 0x10000, 8);
  MemTrans t = global(&ca, MEM_LD, 8, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.moved, 256);
  /* every lane on one double: still one line per half-warp, 8 of 256 bytes */
  strided(a, 0x10008, 0);
  t = global(&ca, MEM_LD, 8, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(pct1000(used_bytes(a, ALL, 8), t.moved), 3125);
  /* 16-byte words, quarter-warps: 8 lanes x 16 = 128 bytes = one line each */
  strided(a, 0x10000, 16);
  assert_int_equal(global(&ca, MEM_LD, 16, ALL, a, MEM_LOADS_DEFAULT).n, 4);
}

/* ---- 1.2/1.3 (gt200): the half-warp protocol ([PG] F.3.2.2) ------------ */

/* Seed 004: "Prior to Fermi, memory issues were per half-warp".  32
 * consecutive floats: each half-warp's 64 bytes lie in one 128-byte segment
 * whose upper half is unused, so it shrinks to 64 bytes: 2 x 64. */
static void test_cc12_aligned_and_partial(void **state)
{
  (void)state;
  MemGen g = gen("gt200", 0, 0);
  uint64_t a[32];
  strided(a, 0x10000, 4);
  MemTrans t = global(&g, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.moved, 128);
  assert_int_equal(t.by_size[1], 2);
  assert_int_equal(t.ideal, 2);
  /* Seed 000's "if ((i & 0x3) != 00) a[i]++": 3 lanes of 4 take part.
   * Half-warp 0 reads bytes 4..63 (lanes 1-3, 5-7, ...), still both 32-byte
   * halves of the lower 64: one 64-byte transaction; half-warp 1 the same
   * in the upper half.  96 of 128 bytes used. */
  t = global(&g, MEM_LD, 4, 0xeeeeeeeeu, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.moved, 128);
  assert_int_equal(used_bytes(a, 0xeeeeeeeeu, 4), 96);
  /* a half-warp whose 64 bytes sit in the lower 32-byte quarter... only
   * lanes 0-7 active: 32 bytes, reduced twice to one 32-byte transaction */
  t = global(&g, MEM_LD, 4, 0xffu, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 1);
  assert_int_equal(t.moved, 32);
}

/* Misaligned by one float: half-warp 0 reads bytes 4..67 of segment 0
 * (both halves: 128 bytes) and 64..67... no: bytes 4..67 are lanes 0-15,
 * all in segment [0,128) -> one 128-byte transaction; half-warp 1 reads
 * 68..131: bytes 68..127 in the upper half of segment 0 (spanning both of
 * its 32-byte quarters: 64 bytes) and 128..131 in segment 1 (32 bytes).
 * 3 transactions, 224 bytes, 128 used.  The Best Practices Guide's figure
 * ("sequential but split across two 128-byte segments ... one 64-byte
 * transaction and one 32-byte transaction") is one half-warp at byte 80. */
static void test_cc12_misaligned(void **state)
{
  (void)state;
  MemGen g = gen("gt200", 0, 0);
  uint64_t a[32];
  strided(a, 0x10004, 4);
  MemTrans t = global(&g, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 3);
  assert_int_equal(t.moved, 224);
  assert_int_equal(t.by_size[0], 1);
  assert_int_equal(t.by_size[1], 1);
  assert_int_equal(t.by_size[2], 1);
  strided(a, 0x10050, 4);
  t = global(&g, MEM_LD, 4, 0xffffu, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.by_size[1], 1);
  assert_int_equal(t.by_size[0], 1);
}

/* Word sizes: the segment is 32 bytes for 1-byte words, 64 for 2-byte
 * words, 128 for 4-, 8- and 16-byte words ([PG] F.3.2.2). */
static void test_cc12_word_sizes(void **state)
{
  (void)state;
  MemGen g = gen("gt200", 0, 0);
  uint64_t a[32];
  strided(a, 0x10000, 1); /* 16 bytes per half-warp in a 32-byte segment */
  MemTrans t = global(&g, MEM_LD, 1, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.moved, 64);
  strided(a, 0x10000, 2); /* 32 bytes of a 64-byte segment: reduced to 32 */
  t = global(&g, MEM_LD, 2, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.moved, 64);
  strided(a, 0x10000, 8); /* 128 bytes per half-warp: one full segment */
  t = global(&g, MEM_LD, 8, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.moved, 256);
  strided(a, 0x10000, 16); /* 256 bytes per half-warp: two segments */
  t = global(&g, MEM_LD, 16, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 4);
  assert_int_equal(t.moved, 512);
  /* one word for all: one segment per half-warp, reduced to 32 bytes */
  strided(a, 0x10044, 0);
  t = global(&g, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 2);
  assert_int_equal(t.moved, 64);
  /* lanes 128 bytes apart: a segment each, each reduced to 32 bytes */
  strided(a, 0x10000, 128);
  t = global(&g, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
  assert_int_equal(t.n, 32);
  assert_int_equal(t.moved, 32 * 32);
  /* any order within the segment: "Threads can access any words in any
   * order, including the same words" */
  for (int l = 0; l < 32; l++)
    a[l] = 0x10000 + 4u * ((l & 16) | ((l * 5) & 15));
  assert_int_equal(global(&g, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT).n, 2);
}

/* From Kepler on a transaction is a 32-byte sector: seed 001 "In modern
 * GPUs, each memory transaction retrieves a 32-byte cache line ... 4 memory
 * transactions", misaligned "5 memory transactions". */
static void test_sector_generations(void **state)
{
  (void)state;
  static const char *const names[] = {"kepler", "volta", "ampere", "hopper", "h200"};
  uint64_t a[32];
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
    MemGen g = gen(names[i], 0, 0);
    strided(a, 0x10000, 4);
    MemTrans t = global(&g, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT);
    assert_int_equal(t.n, 4);
    assert_int_equal(t.moved, 128);
    strided(a, 0x10004, 4);
    assert_int_equal(global(&g, MEM_LD, 4, ALL, a, MEM_LOADS_DEFAULT).n, 5);
  }
}

/* ---- shared memory: seed 000's GTX 680 examples, and the other generations */

/* "foo = shared[baseIndex + s*threadIdx.x]: This is only bank-conflict-free
 * if s shares no common factors with the number of banks; 32 banks on
 * GTX680, so s must be odd".  That holds with 4-byte banks: on Fermi (32
 * banks, [PG] F.4.3.1: "only if d is equal to 1, i.e. s is odd") and on 1.x
 * per half-warp (16 banks).  On the GTX 680 itself banks are 8 bytes wide
 * ("Each bank has a bandwidth of 64 bits per clock cycle"), and [PG]
 * F.5.3.2 makes words i and i+32 of one 64-word segment conflict-free in
 * 4-byte mode: stride 2 is conflict-free there ([PG] F.4.3.1 on Figure F-2:
 * "the access pattern for the example in the middle [stride 2] generates
 * 2-way bank conflicts for devices of compute capability 2.x" - not 3.0);
 * stride 4 puts words 0, 32, 64, 96 on bank 0, two 64-word rows: 2 passes.
 * In 8-byte mode word w lies in 64-bit word w/2, bank (w/2) % 32: stride 2
 * and 1 are conflict-free, stride 4 is 2-way (64-bit words 0 and 32), and
 * stride 3 is 2-way too (lane 1: word 3 -> bank 1, row 0; lane 22: word 66
 * -> 64-bit word 33, bank 1, row 1). */
static void test_banks_linear_stride(void **state)
{
  (void)state;
  MemGen fermi = gen("fermi", 0, 0), k4 = gen("kepler", 4, 0), k8 = gen("kepler", 8, 0);
  MemGen gt = gen("gt200", 0, 0);
  uint64_t a[32];
  static const struct { unsigned s, fermi, k4, k8, gt; } c[] = {
    /* gt200: per half-warp of 16 banks, 2 half-warps */
    {1, 1, 1, 1, 2}, {2, 2, 1, 1, 4}, {3, 1, 1, 2, 2}, {4, 4, 2, 2, 8},
    {5, 1, 1, 2, 2}, {32, 32, 16, 16, 32}, {33, 1, 1, 1, 2},
  };
  for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
    strided(a, 0, 4 * c[i].s);
    unsigned ideal;
    if (smem(&fermi, MEM_LD, 4, ALL, a, &ideal) != c[i].fermi || ideal != 1 ||
        smem(&k4, MEM_LD, 4, ALL, a, NULL) != c[i].k4 ||
        smem(&k8, MEM_LD, 4, ALL, a, NULL) != c[i].k8 ||
        smem(&gt, MEM_LD, 4, ALL, a, NULL) != c[i].gt)
      fail_msg("stride %u: fermi %u kepler4 %u kepler8 %u gt200 %u; want %u %u %u %u", c[i].s,
               smem(&fermi, MEM_LD, 4, ALL, a, NULL), smem(&k4, MEM_LD, 4, ALL, a, NULL),
               smem(&k8, MEM_LD, 4, ALL, a, NULL), smem(&gt, MEM_LD, 4, ALL, a, NULL), c[i].fermi,
               c[i].k4, c[i].k8, c[i].gt);
  }
}

/* "struct vector3 { float x, y, z; } ... This has no bank conflicts ... 3
 * accesses per thread, contiguous banks (no common factor with 32)":
 * stride 3 words, one pass each on Fermi and in 4-byte mode; in 8-byte mode
 * 32 lanes x 12 bytes span 384 bytes, more than one 256-byte bank row, so
 * some bank serves two rows (x: 64-bit words 1 and 33 on bank 1).
 * "struct vector2 { float f; int c; } ... This has 2-way bank conflicts for
 * vector2 (2 words)": stride 2, 2-way on Fermi and per half-warp on 1.x;
 * conflict-free on the GTX 680 in both modes (see the stride test). */
static void test_banks_structs(void **state)
{
  (void)state;
  MemGen fermi = gen("fermi", 0, 0), k4 = gen("kepler", 4, 0), k8 = gen("kepler", 8, 0);
  MemGen gt = gen("gt200", 0, 0);
  uint64_t a[32];
  unsigned f = 0, w4 = 0, w8 = 0, g1 = 0;
  for (unsigned m = 0; m < 3; m++) { /* v3[tid].x, .y, .z */
    strided(a, 4 * m, 12);
    f += smem(&fermi, MEM_LD, 4, ALL, a, NULL);
    w4 += smem(&k4, MEM_LD, 4, ALL, a, NULL);
    w8 += smem(&k8, MEM_LD, 4, ALL, a, NULL);
    g1 += smem(&gt, MEM_LD, 4, ALL, a, NULL);
  }
  assert_int_equal(f, 3);
  assert_int_equal(w4, 3);
  assert_int_equal(w8, 6);
  assert_int_equal(g1, 6); /* odd stride: conflict-free, 2 half-warps each */
  f = w4 = w8 = g1 = 0;
  for (unsigned m = 0; m < 2; m++) { /* v2[tid].f, .c */
    strided(a, 4 * m, 8);
    f += smem(&fermi, MEM_LD, 4, ALL, a, NULL);
    w4 += smem(&k4, MEM_LD, 4, ALL, a, NULL);
    w8 += smem(&k8, MEM_LD, 4, ALL, a, NULL);
    g1 += smem(&gt, MEM_LD, 4, ALL, a, NULL);
  }
  assert_int_equal(f, 4);  /* 2-way, twice */
  assert_int_equal(w4, 2);
  assert_int_equal(w8, 2);
  assert_int_equal(g1, 8); /* 2-way per half-warp, twice */
}

/* "shared[2*tid] = global[2*tid]; shared[2*tid+1] = global[2*tid+1]; ...
 * 2-way-interleaved loads result in 2-way bank conflicts" versus "shared[tid]
 * = global[tid]; shared[tid + blockDim.x] = ...": stores with stride 2 cost
 * 2 passes each on Fermi, 1 on the GTX 680 (for writes too, "each sub-word
 * is written by only one of the threads" within a bank row, [PG] F.5.3). */
static void test_banks_interleaved_stores(void **state)
{
  (void)state;
  MemGen fermi = gen("fermi", 0, 0), k4 = gen("kepler", 4, 0), k8 = gen("kepler", 8, 0);
  MemGen gt = gen("gt200", 0, 0);
  uint64_t a[32];
  strided(a, 0, 8);
  assert_int_equal(smem(&fermi, MEM_ST, 4, ALL, a, NULL), 2);
  assert_int_equal(smem(&k4, MEM_ST, 4, ALL, a, NULL), 1);
  assert_int_equal(smem(&k8, MEM_ST, 4, ALL, a, NULL), 1);
  assert_int_equal(smem(&gt, MEM_ST, 4, ALL, a, NULL), 4);
  strided(a, 0, 4);
  assert_int_equal(smem(&fermi, MEM_ST, 4, ALL, a, NULL), 1);
  assert_int_equal(smem(&k4, MEM_ST, 4, ALL, a, NULL), 1);
  assert_int_equal(smem(&gt, MEM_ST, 4, ALL, a, NULL), 2);
}

/* "32x32 block, each thread processes a row ... 32-way bank conflicts: rows
 * all start at bank 0.  Solution 1. Padding: add one float to the end of
 * each row" and "Read stride = 33 elements ... Threads read from
 * consecutive banks".  32-way on Fermi; on the GTX 680 a column of 32 rows
 * of 128 bytes covers 16 bank rows of 256 bytes: 16 passes in either mode.
 * Padded (stride 33), column j: conflict-free on Fermi and in 4-byte mode;
 * in 8-byte mode lanes 2k and 2k+1 fall 33 words apart, and for an odd
 * column j the even lanes cover banks j/2 .. j/2+15 while the odd ones
 * cover j/2+17 .. j/2+32: bank j/2 twice, 2 passes (even j: 1). */
static void test_banks_column_and_padding(void **state)
{
  (void)state;
  MemGen fermi = gen("fermi", 0, 0), k4 = gen("kepler", 4, 0), k8 = gen("kepler", 8, 0);
  uint64_t a[32];
  strided(a, 0, 128);
  unsigned ideal;
  assert_int_equal(smem(&fermi, MEM_LD, 4, ALL, a, &ideal), 32);
  assert_int_equal(ideal, 1);
  assert_int_equal(smem(&k4, MEM_LD, 4, ALL, a, NULL), 16);
  assert_int_equal(smem(&k8, MEM_LD, 4, ALL, a, NULL), 16);
  for (unsigned j = 0; j < 32; j++) {
    strided(a, 4 * j, 4 * 33);
    assert_int_equal(smem(&fermi, MEM_LD, 4, ALL, a, NULL), 1);
    assert_int_equal(smem(&k4, MEM_LD, 4, ALL, a, NULL), 1);
    assert_int_equal(smem(&k8, MEM_LD, 4, ALL, a, NULL), j % 2 ? 2 : 1);
  }
}

/* "__shared__ char shared[]; foo = shared[baseIndex + threadIdx.x]: If reads
 * fall within same 32-bit word -> No conflicts, broadcast!" - from Fermi
 * on.  On 1.x only one word is broadcast per pass ([PG] F.3.3.3: "there are
 * bank conflicts ... because shared[0], shared[1], shared[2], and shared[3]
 * ... belong to the same bank"): a half-warp's 16 bytes fill 4 words of 4
 * banks, and each pass serves the broadcast word plus one lane per other
 * bank: 4 passes per half-warp.  "If all threads of a warp read an
 * identical address -> no bank conflict (broadcast)": 1, and on 1.x one
 * per half-warp ([PG] F.3.3.2: "A common conflict-free case is when all
 * threads of a half-warp read from an address within the same 32-bit
 * word"). */
static void test_banks_bytes_and_broadcast(void **state)
{
  (void)state;
  MemGen fermi = gen("fermi", 0, 0), k4 = gen("kepler", 4, 0), k8 = gen("kepler", 8, 0);
  MemGen gt = gen("gt200", 0, 0);
  uint64_t a[32];
  strided(a, 0, 1);
  assert_int_equal(smem(&fermi, MEM_LD, 1, ALL, a, NULL), 1);
  assert_int_equal(smem(&k4, MEM_LD, 1, ALL, a, NULL), 1);
  assert_int_equal(smem(&k8, MEM_LD, 1, ALL, a, NULL), 1);
  assert_int_equal(smem(&gt, MEM_LD, 1, ALL, a, NULL), 8);
  strided(a, 0, 0);
  unsigned ideal;
  assert_int_equal(smem(&gt, MEM_LD, 4, ALL, a, &ideal), 2);
  assert_int_equal(ideal, 2);
  assert_int_equal(smem(&fermi, MEM_LD, 4, ALL, a, NULL), 1);
  assert_int_equal(smem(&k8, MEM_LD, 4, ALL, a, NULL), 1);
  /* 1.x: two words in two banks, each read by 8 lanes of a half-warp: the
   * second word cannot be broadcast in the same pass ([PG] Figure F-3,
   * right: "2-way bank conflicts for devices of compute capability 1.x") */
  for (int l = 0; l < 32; l++)
    a[l] = (l & 8) ? 20 : 48;
  assert_int_equal(smem(&gt, MEM_LD, 4, ALL, a, NULL), 4);
  assert_int_equal(smem(&fermi, MEM_LD, 4, ALL, a, NULL), 1);
}

/* "__shared__ double shared[]; foo = shared[baseIndex + threadIdx.x]: 2-way
 * conflicts for larger types".  True on 1.x: "the memory request is
 * compiled into two separate 32-bit requests with a stride of two" ([PG]
 * F.3.3.4): per half-warp 2 requests x 2-way = 4, 8 per warp.  Fermi:
 * "there are no bank conflicts for arrays of doubles accessed as follows"
 * ([PG] F.4.3.2): one transaction per half-warp, 2.  GTX 680: 256 bytes,
 * one bank row, one pass in either mode ("Successive 64-bit words are
 * assigned to successive banks (8-byte-wide mode)"). */
static void test_banks_doubles(void **state)
{
  (void)state;
  MemGen fermi = gen("fermi", 0, 0), k4 = gen("kepler", 4, 0), k8 = gen("kepler", 8, 0);
  MemGen gt = gen("gt200", 0, 0);
  uint64_t a[32];
  strided(a, 0, 8);
  unsigned ideal;
  assert_int_equal(smem(&gt, MEM_LD, 8, ALL, a, &ideal), 8);
  assert_int_equal(ideal, 4);
  assert_int_equal(smem(&fermi, MEM_LD, 8, ALL, a, &ideal), 2);
  assert_int_equal(ideal, 2);
  assert_int_equal(smem(&k4, MEM_LD, 8, ALL, a, NULL), 1);
  assert_int_equal(smem(&k8, MEM_LD, 8, ALL, a, NULL), 1);
  /* float4: 512 bytes, two bank rows on the GTX 680; four quarter-warps on
   * Fermi ("the majority of 128-bit accesses will cause 2-way bank
   * conflicts", per half-warp) */
  strided(a, 0, 16);
  assert_int_equal(smem(&k4, MEM_LD, 16, ALL, a, NULL), 2);
  assert_int_equal(smem(&k8, MEM_LD, 16, ALL, a, NULL), 2);
  assert_int_equal(smem(&fermi, MEM_LD, 16, ALL, a, NULL), 4);
}

/* Atomics serialize lanes on one bank on every generation. */
static void test_banks_atomics(void **state)
{
  (void)state;
  MemGen fermi = gen("fermi", 0, 0), k8 = gen("kepler", 8, 0), gt = gen("gt200", 0, 0);
  uint64_t a[32];
  strided(a, 0, 0);
  assert_int_equal(smem(&fermi, MEM_ATOM, 4, ALL, a, NULL), 32);
  assert_int_equal(smem(&k8, MEM_ATOM, 4, ALL, a, NULL), 32);
  assert_int_equal(smem(&gt, MEM_ATOM, 4, ALL, a, NULL), 32); /* 16 per half-warp */
  strided(a, 0, 4);
  assert_int_equal(smem(&fermi, MEM_ATOM, 4, ALL, a, NULL), 1);
  assert_int_equal(smem(&gt, MEM_ATOM, 4, ALL, a, NULL), 2);
}

/* Explanations speak the generation's words. */
static void test_explain_generations(void **state)
{
  (void)state;
  char b[160];
  uint64_t a[32];
  MemGen ca = gen("fermi", 0, MEM_LOADS_CA), cg = gen("fermi", 0, MEM_LOADS_CG);
  MemGen gt = gen("gt200", 0, 0), k8 = gen("kepler", 8, 0);
  strided(a, 0x10004, 4);
  MemReq r = {.space = PTX_S_GLOBAL, .op = MEM_LD, .size = 4, .elem = 4, .mask = ALL, .addr = a};
  mem_explain(b, sizeof b, &ca, &r, 2, 1);
  assert_string_equal(b, "32 lanes read 2 lines of 128 B where 1 would do: 128 of 256 bytes used "
                         "(50%); words start 4 bytes past a 128-byte boundary");
  mem_explain(b, sizeof b, &cg, &r, 5, 4);
  assert_string_equal(b, "32 lanes read 5 segments of 32 B where 4 would do: 128 of 160 bytes used "
                         "(80%); words start 4 bytes past a 32-byte boundary");
  mem_explain(b, sizeof b, &gt, &r, 3, 2);
  assert_string_equal(b, "32 lanes read 3 segments (1x128 + 1x64 + 1x32 B) where 2 would do: "
                         "128 of 224 bytes used (57.14%); words start 4 bytes past a 128-byte "
                         "boundary");
  strided(a, 0x10044, 0);
  mem_explain(b, sizeof b, &ca, &r, 1, 1);
  assert_string_equal(b, "32 lanes read 1 line of 128 B: 4 of 128 bytes used (3.125%); all lanes "
                         "read the same word");
  strided(a, 0, 128);
  r.space = PTX_S_SHARED;
  mem_explain(b, sizeof b, &k8, &r, 16, 1);
  assert_string_equal(b, "16 transactions where 1 would do: 16-way bank conflict on bank 0 in "
                         "8-byte mode (lanes 128 B apart)");
  strided(a, 0, 8);
  mem_explain(b, sizeof b, &gt, &r, 4, 2);
  assert_string_equal(b, "4 transactions where 2 would do: 2-way bank conflict on bank 0 within a "
                         "half-warp (16 banks) (lanes 8 B apart)");
}

/* Configurations the model refuses, with the reason. */
static void test_refused_configurations(void **state)
{
  (void)state;
  char why[200];
  MemGen g;
  MemConfig c = {.arch = arch_find("fermi"), .sm = 20, .bank_bytes = 8};
  assert_int_equal(mem_gen(&c, &g, why, sizeof why), -1);
  assert_non_null(strstr(why, "--bank-mode 8 exists only on Kepler"));
  c = (MemConfig){.arch = arch_find("gt200"), .sm = 13, .loads = MEM_LOADS_CG};
  assert_int_equal(mem_gen(&c, &g, why, sizeof why), -1);
  assert_non_null(strstr(why, "--loads"));
  c = (MemConfig){.sm = 11};
  assert_int_equal(mem_gen(&c, &g, why, sizeof why), -1);
  MemModel mm;
  assert_int_equal(mem_init(&mm, &c, 4), -1);
}

/* ---- the command line: seed 004's table on fermi ----------------------- */

/* tests/data/gen_patterns.cu: 4 warps (2 blocks of 64) per launch, each
 * reading 32 floats; the store never runs (zero-filled input), so the
 * launch's global traffic is 4 x the warp's. */
static void test_cli_fermi_loads(void **state)
{
  (void)state;
  char ptx[4096];
  snprintf(ptx, sizeof ptx, "%s", tu_data("gen_patterns.ptx"));
  json_t *ca = sim_json("'%s' --arch fermi --loads ca --lines", ptx);
  json_t *cg = sim_json("'%s' --arch fermi --loads cg", ptx);
  /* aligned and permuted: 1 line / 4 segments per warp, 100% */
  assert_global(ca, "gen_ld32#aligned", 4, 512, 512);
  assert_global(cg, "gen_ld32#aligned", 16, 512, 512);
  assert_global(ca, "gen_ld32#permuted", 4, 512, 512);
  assert_global(cg, "gen_ld32#permuted", 16, 512, 512);
  /* misaligned by 4 bytes: 2 lines (50%) / 5 segments (80%); by 32 bytes: 4
   * segments (100%) */
  assert_global(ca, "gen_ld32#misaligned", 8, 1024, 512);
  assert_global(cg, "gen_ld32#misaligned", 20, 640, 512);
  assert_global(ca, "gen_ld32#misaligned32", 8, 1024, 512);
  assert_global(cg, "gen_ld32#misaligned32", 16, 512, 512);
  /* one word: 3.125% / 12.5% */
  assert_global(ca, "gen_ld32#one_word", 4, 512, 16);
  assert_global(cg, "gen_ld32#one_word", 4, 128, 16);
  /* lanes 128 bytes apart: N = 32 lines or segments per warp */
  assert_global(ca, "gen_ld32#lines", 4 * 32, 4 * 32 * 128, 512);
  assert_global(cg, "gen_ld32#lines", 4 * 32, 4 * 32 * 32, 512);
  /* scattered, 148 bytes apart: N = 32 either way (see the function test) */
  assert_global(ca, "gen_ld32#scattered", 4 * 32, 4 * 32 * 128, 512);
  assert_global(cg, "gen_ld32#scattered", 4 * 32, 4 * 32 * 32, 512);
  /* ld.global.cg is non-caching whatever --loads says */
  assert_global(ca, "gen_ld32_cg#aligned", 16, 512, 512);
  assert_global(ca, "gen_ld32_cg#one_word", 4, 128, 16);
  /* stores move 32-byte segments */
  assert_global(ca, "gen_st32#aligned", 16, 512, 512);
  assert_global(ca, "gen_st32#misaligned", 20, 640, 512);
  /* doubles: a line per half-warp */
  assert_global(ca, "gen_ld64#aligned", 8, 1024, 1024);
  assert_global(ca, "gen_ld64#one_word", 8, 1024, 32);
  /* the l1tex sector counters keep their sector meaning on every preset */
  assert_int_equal(metric(launch(ca, "gen_ld32#aligned"),
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 16);
  /* --lines: units are transactions, explained in Fermi's words */
  json_t *lines = json_object_get(launch(ca, "gen_ld32#misaligned"), "lines");
  int found = 0;
  for (size_t i = 0; i < json_array_size(lines); i++) {
    json_t *ln = json_array_get(lines, i);
    const char *ins = json_string_value(json_object_get(ln, "instruction"));
    if (!ins || strncmp(ins, "ld.global", 9))
      continue;
    found = 1;
    assert_string_equal(json_string_value(json_object_get(ln, "unit")), "transactions");
    const char *why = json_string_value(json_object_get(ln, "explanation"));
    if (!why || !strstr(why, "2 lines of 128 B") || !strstr(why, "(50%)"))
      fail_msg("why: %s", why ? why : "(none)");
  }
  assert_true(found);
  json_decref(ca);
  json_decref(cg);
}

/* The same patterns on gt200 (half-warps), kepler and h200 (sectors). */
static void test_cli_other_generations_loads(void **state)
{
  (void)state;
  char ptx[4096];
  snprintf(ptx, sizeof ptx, "%s", tu_data("gen_patterns.ptx"));
  json_t *gt = sim_json("'%s' --arch gt200", ptx);
  assert_global(gt, "gen_ld32#aligned", 8, 512, 512);        /* 2 x 64 B per warp */
  assert_global(gt, "gen_ld32#misaligned", 12, 896, 512);    /* 128 + 64 + 32 */
  assert_global(gt, "gen_ld32#one_word", 8, 256, 16);        /* 2 x 32 B */
  assert_global(gt, "gen_ld32#lines", 4 * 32, 4 * 32 * 32, 512);
  assert_global(gt, "gen_ld8#aligned", 8, 256, 128);         /* 32-byte segments */
  json_decref(gt);
  static const char *const sector[] = {"kepler", "h200"};
  for (int i = 0; i < 2; i++) {
    json_t *s = sim_json("'%s' --arch %s", ptx, sector[i]);
    assert_global(s, "gen_ld32#aligned", 16, 512, 512);
    assert_global(s, "gen_ld32#misaligned", 20, 640, 512);
    assert_global(s, "gen_ld32#one_word", 4, 128, 16);
    json_decref(s);
  }
}

/* ---- the command line: seed 000's bank examples on every generation ----- */

/* One warp, one shared load under test per launch (gen_patterns.cu); the
 * expected numbers are those of the function tests above, per generation:
 * gt200, fermi, kepler (4-byte mode), kepler --bank-mode 8, h200 (sm_70
 * rules, as on Fermi for 4-byte words; doubles in two halves of 16 lanes). */
static void test_cli_seed000_banks(void **state)
{
  (void)state;
  static const char *const cfg[5] = {"--arch gt200", "--arch fermi", "--arch kepler --bank-mode 4",
                                     "--arch kepler --bank-mode 8", "--arch h200"};
  static const struct { const char *launch, *metric; long long v[5]; } c[] = {
    {"gen_sh32#s1", SLD_WF, {2, 1, 1, 1, 1}},
    {"gen_sh32#s2", SLD_WF, {4, 2, 1, 1, 2}},
    {"gen_sh32#s3", SLD_WF, {2, 1, 1, 2, 1}},
    {"gen_sh32#s4", SLD_WF, {8, 4, 2, 2, 4}},
    {"gen_sh32#s32", SLD_WF, {32, 32, 16, 16, 32}},
    {"gen_sh32#s33", SLD_WF, {2, 1, 1, 1, 1}},
    {"gen_sh32#same", SLD_WF, {2, 1, 1, 1, 1}},
    {"gen_sh8", SLD_WF, {8, 1, 1, 1, 1}},
    {"gen_sh64", SLD_WF, {8, 2, 1, 1, 2}},
    {"gen_shv2", SLD_WF, {8, 4, 2, 2, 4}},
    {"gen_shv3", SLD_WF, {6, 3, 3, 6, 3}},
    {"gen_sh2tid#interleaved", SST_WF, {8, 4, 2, 2, 4}},
    {"gen_sh2tid#blocked", SST_WF, {4, 2, 2, 2, 2}},
  };
  char ptx[4096];
  snprintf(ptx, sizeof ptx, "%s", tu_data("gen_patterns.ptx"));
  for (int g = 0; g < 5; g++) {
    json_t *root = sim_json("'%s' %s", ptx, cfg[g]);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
      long long got = metric(launch(root, c[i].launch), c[i].metric);
      if (got != c[i].v[g])
        fail_msg("%s %s: %s = %lld, want %lld", cfg[g], c[i].launch, c[i].metric, got, c[i].v[g]);
    }
    json_decref(root);
  }
}

/* ---- the command line: seed 002's layouts on every generation ----------- */

/* One block of the seed 002 kernels (groundtruth/seed_kernels.cu): 32 warps
 * (16 for the 32x16 rectangles), each storing one row-major element and
 * loading one.  Per warp (threadIdx.y = y fixed, x = lane), from first
 * principles:
 *   row-major (word 32y + x): conflict-free everywhere; 1.x serves it in 2
 *     half-warps.  Seed 002: "row-major transactions are 1".
 *   column-major, 32x32 (word 32x + y): seed 002: "32 for column-major" and
 *     "an obvious 32-way conflict" (a 4-byte-bank device): 32 on Fermi and
 *     sm_70+, 16 + 16 on 1.x; on Kepler 16 bank rows of 256 bytes: 16.
 *   padded, stride 33 (word 33x + y): bank (x + y) % 32, conflict-free
 *     ("The conflict is gone!"); Kepler 8-byte mode: 64-bit word
 *     floor((33x + y) / 2), even lanes on banks y/2 .. y/2+15, odd lanes on
 *     16 + ceil(y/2) ..: for odd y one bank twice, 2 passes: 16 warps x 1 +
 *     16 x 2 = 48 per block.
 *   rectangle 16x32 read by column (word 32(x%16) + 2y + x/16): seed 002
 *     "16-way conflicts appear during load"; Kepler: 8 distinct bank rows
 *     (rows (32k + 2y)/64 = k/2, k < 16); 1.x: 16 distinct words on one bank
 *     per half-warp: 32.
 *   padded by 1 (33): seed 002 "two-way conflicts": lanes k (x < 16) and
 *     k-1 (x >= 16) share a bank, words 32 apart; Kepler 4-byte mode: one
 *     row iff (33k + 2y) % 64 >= 32, and for every y some k in 1..15 has it
 *     below 32, so 2; 8-byte mode: 64-bit words u and u + 32 share a bank,
 *     2; 1.x: bank (x + 2y) % 16 per half-warp, conflict-free, 2.
 *   padded by 2 (34): seed 002 "no conflicts"; Kepler: banks 2k + 2y + h
 *     (4-byte) or (17k + y) % 32 (8-byte) all distinct: 1; 1.x: bank
 *     (2x + 2y) % 16 puts x and x + 8 together: 2 per half-warp, 4.
 * Columns: gt200, fermi, kepler 4-byte, kepler 8-byte, h200; values are the
 * block's load and store transactions (wavefronts on h200); -1: the launch
 * is refused (a 32x32 block is over GT200's 512 threads per block). */
static void test_cli_seed002_layouts(void **state)
{
  (void)state;
  static const char *const cfg[5] = {"--arch gt200", "--arch fermi", "--arch kepler --bank-mode 4",
                                     "--arch kepler --bank-mode 8", "--arch h200"};
  static const struct {
    const char *kernel, *shape;
    long long ld[5], st[5];
  } c[] = {
    {"setRowReadRow", "--block 32,32", {-1, 32, 32, 32, 32}, {-1, 32, 32, 32, 32}},
    {"setColReadCol", "--block 32,32", {-1, 1024, 512, 512, 1024}, {-1, 1024, 512, 512, 1024}},
    {"setRowReadCol", "--block 32,32", {-1, 1024, 512, 512, 1024}, {-1, 32, 32, 32, 32}},
    {"setRowReadColDyn", "--block 32,32 --smem 4096", {-1, 1024, 512, 512, 1024}, {-1, 32, 32, 32, 32}},
    {"setRowReadColIpad", "--block 32,32", {-1, 32, 32, 48, 32}, {-1, 32, 32, 32, 32}},
    {"setRowReadColDynIpad", "--block 32,32 --smem 4224", {-1, 32, 32, 48, 32}, {-1, 32, 32, 32, 32}},
    {"setRowReadColRect", "--block 32,16", {512, 256, 128, 128, 256}, {32, 16, 16, 16, 16}},
    {"setRowReadColRectPad", "--block 32,16", {32, 32, 32, 32, 32}, {32, 16, 16, 16, 16}},
    {"setRowReadColRectPad2", "--block 32,16", {64, 16, 16, 16, 16}, {32, 16, 16, 16, 16}},
  };
  char ptx[4096];
  snprintf(ptx, sizeof ptx, "%s", tu_truth("ptx/seed_kernels.ptx"));
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    for (int g = 0; g < 5; g++) {
      if (c[i].ld[g] < 0) { /* a 32x32 block has 1024 threads: more than 1.x's 512 */
        char args[4200], *err = NULL;
        snprintf(args, sizeof args, "sim '%s' %s --kernel %s --grid 1 %s --arg buf:i32:1024", ptx, cfg[g],
                 c[i].kernel, c[i].shape);
        assert_int_equal(tu_run_cli(args, NULL, &err), 1);
        assert_non_null(strstr(err, "at most 512 per block on gt200"));
        free(err);
        continue;
      }
      json_t *root = sim_json("'%s' %s --kernel %s --grid 1 %s --arg buf:i32:1024", ptx, cfg[g],
                              c[i].kernel, c[i].shape);
      json_t *l = json_array_get(root, 0);
      long long warps = strstr(c[i].shape, "32,16") ? 16 : 32;
      assert_int_equal(metric(l, SLD_INST), warps);
      assert_int_equal(metric(l, SST_INST), warps);
      long long ld = metric(l, SLD_WF), st = metric(l, SST_WF);
      if (ld != c[i].ld[g] || st != c[i].st[g])
        fail_msg("%s %s: load %lld, store %lld; want %lld, %lld", c[i].kernel, cfg[g], ld, st,
                 c[i].ld[g], c[i].st[g]);
      json_decref(root);
    }
  }
}

/* Bad combinations are usage errors with the reason. */
static void test_cli_refusals(void **state)
{
  (void)state;
  char args[4200], *err = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch fermi --bank-mode 8", tu_data("gen_patterns.ptx"));
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  assert_non_null(strstr(err, "--bank-mode 8"));
  free(err);
  snprintf(args, sizeof args, "sim '%s' --arch gt200 --loads cg", tu_data("gen_patterns.ptx"));
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  assert_non_null(strstr(err, "--loads"));
  free(err);
  snprintf(args, sizeof args, "sim '%s' --arch kepler --bank-mode 16", tu_data("gen_patterns.ptx"));
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  assert_non_null(strstr(err, "--bank-mode"));
  free(err);
  snprintf(args, sizeof args, "sim '%s' --loads nc", tu_data("gen_patterns.ptx"));
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  assert_non_null(strstr(err, "--loads"));
  free(err);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fermi_aligned),
    cmocka_unit_test(test_fermi_permuted),
    cmocka_unit_test(test_fermi_misaligned),
    cmocka_unit_test(test_fermi_one_word),
    cmocka_unit_test(test_fermi_scattered),
    cmocka_unit_test(test_fermi_operators_stores_wide),
    cmocka_unit_test(test_cc12_aligned_and_partial),
    cmocka_unit_test(test_cc12_misaligned),
    cmocka_unit_test(test_cc12_word_sizes),
    cmocka_unit_test(test_sector_generations),
    cmocka_unit_test(test_banks_linear_stride),
    cmocka_unit_test(test_banks_structs),
    cmocka_unit_test(test_banks_interleaved_stores),
    cmocka_unit_test(test_banks_column_and_padding),
    cmocka_unit_test(test_banks_bytes_and_broadcast),
    cmocka_unit_test(test_banks_doubles),
    cmocka_unit_test(test_banks_atomics),
    cmocka_unit_test(test_explain_generations),
    cmocka_unit_test(test_refused_configurations),
    cmocka_unit_test(test_cli_fermi_loads),
    cmocka_unit_test(test_cli_other_generations_loads),
    cmocka_unit_test(test_cli_seed000_banks),
    cmocka_unit_test(test_cli_seed002_layouts),
    cmocka_unit_test(test_cli_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
