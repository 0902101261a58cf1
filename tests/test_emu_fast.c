/* test_emu_fast.c - every fast form of an instruction (src/emu/emu_fast.c)
 * writes exactly what the row's general function writes: every register
 * bit, for full and partial warps, on random registers (their upper bits
 * too) and on the values where forms differ (NaN, infinities, subnormals,
 * -0, the integer extremes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "testutil.h"

#define NSLOT 9      /* d0 d1 a b c, three spare, one constant */
#define CONST_SLOT 8

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

/* A register value: random bits, or a value at an edge, with random upper
 * bits where the edge is 32 bits wide; no NaN of 32 or 64 bits unless
 * nan (a float form leaves a warp with a NaN to the general function). */
static uint64_t any_value(void);
static uint64_t value(int nan) {
  for (;;) {
    uint64_t v = any_value();
    int n32 = ((uint32_t)v & 0x7fffffffu) > 0x7f800000u, n64 = (v & ~(1ull << 63)) > 0x7ff0000000000000ull;
    if (nan || (!n32 && !n64)) return v;
  }
}
static uint64_t any_value(void) {
  static const uint32_t f32[] = {0x7fc00000u, 0x7f800001u, 0xff800000u, 0x7f800000u, 0x80000000u, 0x00000001u,
                                 0x007fffffu, 0x3f800000u, 0x4f000000u, 0xcf000000u, 0x80000000u, 0x7fffffffu};
  static const uint64_t f64[] = {0x7ff8000000000000ull, 0xfff0000000000000ull, 0x8000000000000000ull,
                                 0x0000000000000001ull, 0x3ff0000000000000ull, 0x7fffffffffffffffull};
  uint64_t r = next();
  switch (r % 6) {
  case 0: return (next() & 0xffffffff00000000ull) | f32[next() % (sizeof f32 / sizeof *f32)];
  case 1: return f64[next() % (sizeof f64 / sizeof *f64)];
  case 2: return next() % 7 - 3; /* small, and negative in 64 bits */
  case 3: return (uint64_t)(int64_t)(int32_t)next();
  case 4: return (next() << 32) | (uint32_t)(next() % 64);
  default: return next();
  }
}

/* Runs x by its fast form and by the general function on the same random
 * registers, full warp and a partial one, and compares every bit. */
static int compare_forms(const EmuProgram *p, EmuInstr *x, const char *what) {
  EmuExecFn *fast = emu_fast_fn(x, p);
  if (!fast) return 0;
  Block b;
  memset(&b, 0, sizeof b);
  b.p = p;
  static uint64_t r1[NSLOT * 32], r2[NSLOT * 32];
  for (int trial = 0; trial < 40; trial++) {
    for (int i = 0; i < NSLOT * 32; i++) r1[i] = value(trial % 4 >= 2);
    for (int l = 0; l < 32; l++) r1[CONST_SLOT * 32 + l] = p->consts[0];
    memcpy(r2, r1, sizeof r1);
    uint32_t mask = trial % 2 ? FULL : (uint32_t)next() | 1u;
    int rc1 = emu_row_fn(x)(&b, x, 0, mask, r1), rc2 = fast(&b, x, 0, mask, r2);
    if (rc1 != rc2 || memcmp(r1, r2, sizeof r1)) {
      for (int i = 0; i < NSLOT * 32; i++)
        if (r1[i] != r2[i])
          fail_msg("%s: slot %d lane %d: general 0x%llx, fast 0x%llx (mask 0x%x; a 0x%llx b 0x%llx c 0x%llx)", what,
                   i / 32, i % 32, (unsigned long long)r1[i], (unsigned long long)r2[i], mask,
                   (unsigned long long)r1[2 * 32 + i % 32], (unsigned long long)r1[3 * 32 + i % 32],
                   (unsigned long long)r1[4 * 32 + i % 32]);
      fail_msg("%s: return %d against %d", what, rc1, rc2);
    }
  }
  return 1;
}

static const uint8_t types[] = {PTX_T_U32, PTX_T_S32, PTX_T_B32, PTX_T_U64, PTX_T_S64, PTX_T_B64,
                                PTX_T_F32, PTX_T_F64, PTX_T_PRED, PTX_T_U16, PTX_T_S16};
#define NTYPES (sizeof types / sizeof *types)

static EmuInstr form(unsigned op, unsigned type) {
  EmuInstr x;
  memset(&x, 0, sizeof x);
  x.op = (uint16_t)op, x.type = (uint8_t)type, x.vec = 1;
  x.guard = x.abase = EMU_NOSLOT;
  for (int i = 0; i < 4; i++) x.d[i] = EMU_NOSLOT;
  for (int i = 0; i < 6; i++) x.s[i] = EMU_NOSLOT;
  x.d[0] = 0, x.nd = 1;
  x.s[0] = 2, x.s[1] = 3, x.s[2] = 4;
  x.ns = op == PTX_OP_MOV || op == PTX_OP_CVT || op == PTX_OP_CVTA ? 1
       : op == PTX_OP_MAD || op == PTX_OP_FMA || op == PTX_OP_SELP ? 3 : 2;
  for (int i = x.ns; i < 6; i++) x.s[i] = EMU_NOSLOT;
  return x;
}

/* The arithmetic, logic and select rows, every type, sub and flag. */
static void test_arith_forms(void **state) {
  (void)state;
  uint64_t k = 0;
  EmuProgram p = {.const_base = CONST_SLOT, .nconst = 1, .consts = &k, .nslots = NSLOT};
  static const unsigned ops[] = {PTX_OP_ADD, PTX_OP_SUB, PTX_OP_MUL, PTX_OP_MAD, PTX_OP_FMA,
                                 PTX_OP_AND, PTX_OP_OR, PTX_OP_XOR, PTX_OP_SELP, PTX_OP_MOV};
  static const unsigned subs[] = {PTX_SUB_NONE, PTX_SUB_LO, PTX_SUB_WIDE, PTX_SUB_HI};
  static const unsigned flags[] = {0, PTX_IF_FTZ, PTX_IF_SAT};
  int n = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
    for (size_t t = 0; t < NTYPES; t++)
      for (size_t s = 0; s < 4; s++)
        for (size_t f = 0; f < 3; f++) {
          EmuInstr x = form(ops[o], types[t]);
          x.sub = (uint8_t)subs[s], x.flags = (uint16_t)flags[f];
          if (ops[o] == PTX_OP_FMA) x.rnd = PTX_RND_RN;
          char what[80];
          snprintf(what, sizeof what, "%s.%s sub %u flags 0x%x", ptx_op_name[ops[o]],
                   ptx_type_name((PtxType)types[t]), subs[s], flags[f]);
          n += compare_forms(&p, &x, what);
        }
  assert_true(n >= 40); /* the forms emu_fast.c has: a change that drops them shows here */
}

/* Shifts by every kind of immediate count, including counts past the width. */
static void test_shift_forms(void **state) {
  (void)state;
  static const uint64_t counts[] = {0, 1, 5, 16, 31, 32, 33, 63, 64, 100, 0xffffffffull, 0x100000001ull};
  int n = 0;
  for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
    for (int op = 0; op < 2; op++)
      for (size_t t = 0; t < NTYPES; t++) {
        uint64_t k = counts[c];
        EmuProgram p = {.const_base = CONST_SLOT, .nconst = 1, .consts = &k, .nslots = NSLOT};
        EmuInstr x = form(op ? PTX_OP_SHR : PTX_OP_SHL, types[t]);
        x.s[1] = CONST_SLOT;
        char what[80];
        snprintf(what, sizeof what, "%s.%s by %llu", op ? "shr" : "shl", ptx_type_name((PtxType)types[t]),
                 (unsigned long long)k);
        n += compare_forms(&p, &x, what);
      }
  assert_true(n >= 12 * 6);
  /* a count in a register keeps the general function */
  uint64_t k = 0;
  EmuProgram p = {.const_base = CONST_SLOT, .nconst = 1, .consts = &k, .nslots = NSLOT};
  EmuInstr x = form(PTX_OP_SHL, PTX_T_B32);
  assert_null(emu_fast_fn(&x, &p));
}

/* setp with every comparison and type, with and without q and .ftz. */
static void test_setp_forms(void **state) {
  (void)state;
  uint64_t k = 0;
  EmuProgram p = {.const_base = CONST_SLOT, .nconst = 1, .consts = &k, .nslots = NSLOT};
  int n = 0;
  for (unsigned cmp = PTX_CMP_EQ; cmp <= PTX_CMP_NAN; cmp++)
    for (size_t t = 0; t < NTYPES; t++)
      for (int shape = 0; shape < 4; shape++) {
        EmuInstr x = form(PTX_OP_SETP, types[t]);
        x.cmp = (uint8_t)cmp, x.nd = 2, x.d[1] = shape & 1 ? 1 : EMU_NOSLOT, x.s[2] = EMU_NOSLOT;
        if (shape & 2) x.flags = PTX_IF_FTZ;
        char what[80];
        snprintf(what, sizeof what, "setp cmp %u .%s shape %d", cmp, ptx_type_name((PtxType)types[t]), shape);
        n += compare_forms(&p, &x, what);
      }
  assert_true(n >= 50);
}

/* cvt between every pair of the types, with each rounding. */
static void test_cvt_forms(void **state) {
  (void)state;
  uint64_t k = 0;
  EmuProgram p = {.const_base = CONST_SLOT, .nconst = 1, .consts = &k, .nslots = NSLOT};
  static const unsigned rnds[] = {PTX_RND_NONE, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RNI, PTX_RND_RZI};
  int n = 0;
  for (size_t d = 0; d < NTYPES; d++)
    for (size_t s = 0; s < NTYPES; s++)
      for (size_t r = 0; r < sizeof rnds / sizeof *rnds; r++) {
        if (types[d] == PTX_T_PRED || types[s] == PTX_T_PRED) continue;
        EmuInstr x = form(PTX_OP_CVT, types[d]);
        x.type2 = types[s], x.rnd = (uint8_t)rnds[r];
        char what[80];
        snprintf(what, sizeof what, "cvt rnd %u .%s.%s", rnds[r], ptx_type_name((PtxType)types[d]),
                 ptx_type_name((PtxType)types[s]));
        n += compare_forms(&p, &x, what);
      }
  /* cvta.to.global.u64 is a move */
  EmuInstr x = form(PTX_OP_CVTA, PTX_T_U64);
  x.space = PTX_S_GLOBAL, x.sub = PTX_SUB_TO;
  n += compare_forms(&p, &x, "cvta.to.global.u64");
  assert_true(n >= 20);
}

/* Every kernel of the ground truth and the test data: each instruction
 * given a fast form at prepare time runs it as its row's function does. */
static void test_prepared_kernels(void **state) {
  (void)state;
  static const char *const mods[] = {"ptx/seed_kernels.ptx", "emu_semantics.ptx", "gen_patterns.ptx", NULL};
  int fast = 0;
  for (int i = 0; mods[i]; i++) {
    WmErr e = {0};
    PtxModule *m = ptx_load(strchr(mods[i], '/') ? tu_truth(mods[i]) : tu_data(mods[i]), arch_ptx_target(), &e);
    if (!m) fail_msg("%s: %s", mods[i], e.msg);
    for (int k = 0; k < m->nkernels; k++) {
      EmuProgram p;
      if (m->kernels[k].unsupported || emu_prepare(&p, m, &m->kernels[k], 0x700000000000ull, &e)) continue;
      for (int j = 0; j < p.ncode; j++) {
        EmuInstr *x = &p.code[j];
        if (x->fn == emu_row_fn(x) || x->half || x->host_rnd) continue;
        fast++;
        /* slots as the test's: the operands moved to slots 0..4 */
        EmuInstr y = *x;
        uint64_t kv = 0;
        EmuProgram q = {.const_base = CONST_SLOT, .nconst = 1, .consts = &kv, .nslots = NSLOT};
        for (int s = 0; s < y.ns && s < 3; s++)
          if (y.s[s] >= p.const_base && y.s[s] < p.const_base + p.nconst) {
            kv = p.consts[y.s[s] - p.const_base];
            y.s[s] = CONST_SLOT;
          } else if (y.s[s] != EMU_NOSLOT) {
            y.s[s] = 2u + (unsigned)s;
          }
        for (int d = 0; d < y.nd && d < 2; d++)
          if (y.d[d] != EMU_NOSLOT) y.d[d] = (unsigned)d;
        char what[160];
        snprintf(what, sizeof what, "%s: %s: instruction %d (%s)", mods[i], m->kernels[k].name, j,
                 ptx_op_name[y.op]);
        assert_int_equal(compare_forms(&q, &y, what), 1);
      }
      emu_program_free(&p);
    }
    ptx_module_free(m);
  }
  assert_true(fast >= 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_arith_forms),
    cmocka_unit_test(test_shift_forms),
    cmocka_unit_test(test_setp_forms),
    cmocka_unit_test(test_cvt_forms),
    cmocka_unit_test(test_prepared_kernels),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
