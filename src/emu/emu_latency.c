/* emu_latency.c - how long a warp waits for each instruction's result.
 *
 * A warp alone issues an instruction only when its operands are ready, so
 * a latency-bound kernel's time is the sum of its instructions' dependent
 * latencies, not their count: a shuffle reduction waits some 26 clocks a
 * step, an integer `%` by a run-time value about 70 (ptxas makes it a
 * subroutine of some twenty instructions), an FMA 4.  Each instruction is
 * charged its class's clocks (EmuInstr.clocks) and the warp sums them as
 * it runs; the time model divides the sum by the clock (model.c).  Loads
 * from global or local memory are charged an issue only: their wait is a
 * round trip, counted by round (emu_rounds.c).
 *
 * The clocks were measured on an H200 (the same GH100 die as the H100):
 * groundtruth/latency_kernels.cu runs one warp through a chain of 512
 * dependent instructions of a kind, docs/results/h200-2026-11-26-latency.
 * Each value is the chain's clocks an instruction less the 0.7 the loop
 * adds (and less a helper instruction's 4, where the chain needs one).
 */
#include "emu/emu_int.h"

#include <stdlib.h>

/* X(class, clocks, what was measured) */
#define EMU_LATENCIES(X)                                                                                 \
  X(LAT_ALU, WM_ALU_CLOCKS, "fma.rn.f32 4.7, mad.lo.s32 4.8, lop3 4.8 a step")                           \
  X(LAT_MULHI, 9, "mul.hi.u32 9.5")                                                                      \
  X(LAT_F64, 8, "fma.rn.f64 8.5")                                                                        \
  X(LAT_POPC, 16, "popc.b32 17.2")                                                                       \
  X(LAT_CVT, 11, "cvt.rn.f32.s32 then cvt.rzi.s32.f32: 23.2 the pair")                                    \
  X(LAT_IDIV, 69, "rem.s32 74.4, div.s32 73.7 (with an add.s32)")                                        \
  X(LAT_UDIV, 59, "rem.u32 63.9 (with an add.s32)")                                                      \
  X(LAT_FDIV, 44, "div.rn.f32 44.9, sqrt.rn.f32 43.1")                                                   \
  X(LAT_RCP, 64, "rcp.rn.f32 64.6")                                                                      \
  X(LAT_MUFU, 17, "ex2.approx.ftz.f32 17.2, tanh.approx.f32 17.2")                                       \
  X(LAT_MUFU_FIX, 39, "rsqrt, lg2, sqrt.approx.f32 39.6 (a subnormal fix-up around the MUFU; "            \
                      "ex2 without .ftz assumed alike)")                                                 \
  X(LAT_HALF, 8, "fma.rn.f16x2 8.6 (add and mul assumed alike)")                                         \
  X(LAT_CVT_F, 5, "cvt.rn.f16.f32 then cvt.f32.f16: 10.6 the pair")                                       \
  X(LAT_FDIV_APPROX, 8, "div.approx.f32 8.8")                                                            \
  X(LAT_TRIG, 22, "sin.approx.f32 23.0")                                                                 \
  X(LAT_F64DIV, 110, "div.rn.f64 110.9")                                                                 \
  X(LAT_SHFL, 26, "shfl.sync.bfly 52.0 two a step; shfl.sync.idx 32.0 (with an and)")                   \
  X(LAT_VOTE, 13, "vote.sync.ballot 17.7 (with a setp)")                                                 \
  X(LAT_REDUX, 40, "redux.sync.add.u32 44.4 (with a move)")                                              \
  X(LAT_MATCH, 27, "match.any.sync.b32 28.2")                                                            \
  X(LAT_SHARED, 22, "ld.shared.u32 23.2 (a chase)")                                                      \
  X(LAT_SATOM, 25, "atom.shared.add.u32 26.1")                                                           \
  X(LAT_DSM, 31, "ld.shared::cluster.u32 of the block's own memory: dsm_chain#own (hopper_kernels.cu), "   \
                 "1024 loads in 22.3 us with a mad.lo to the next address")                              \
  X(LAT_DSM_PEER, 178, "ld.shared::cluster.u32 of a peer block's: dsm_chain#peer, 1024 in 98.0 us")      \
  X(LAT_WINDOW, 55, "S2R SR_SWINHI, the shared window's base that ptxas reads to make a shared::cluster "     \
                    "address generic: dsm_atom#*_red (groundtruth/dsm_atom_kernels.cu) 59-66 clocks an "        \
                    "instruction more than the generic atomicAdd of the same pattern, less its MOV's 4 (a fit "    \
                    "of one probe set; the SASS read with cuobjdump)")                                            \
  X(LAT_MMA, 24, "mma.sync m16n8k16 f32.f16 24.8")                                                       \
  X(LAT_BAR, 10, "bar.sync of one warp 14.9 (with an add)")                                              \
  X(LAT_CALL, 56, "a call of a __noinline__ function and its return 61.0 (with an add)")

enum {
#define X(name, clocks, why) name = clocks,
  EMU_LATENCIES(X)
#undef X
};

static int is_f64(const EmuInstr *x) { return x->type == PTX_T_F64; }

/* The special function unit: what ptxas adds around it without .ftz. */
static int mufu_clocks(const EmuInstr *x) {
  if (is_f64(x)) return LAT_F64DIV;
  if (x->op == PTX_OP_TANH || (x->flags & PTX_IF_FTZ)) return LAT_MUFU;
  return LAT_MUFU_FIX;
}

/* div, rem, sqrt and rcp: subroutines unless approximate. */
static int divide_clocks(const EmuInstr *x) {
  int approx = x->rnd == PTX_RND_APPROX || x->rnd == PTX_RND_FULL;
  if (!ptx_type_is_float((PtxType)x->type)) return ptx_type_is_signed((PtxType)x->type) ? LAT_IDIV : LAT_UDIV;
  if (is_f64(x)) return LAT_F64DIV;
  if (approx) return x->op == PTX_OP_DIV ? LAT_FDIV_APPROX : mufu_clocks(x);
  return x->op == PTX_OP_RCP ? LAT_RCP : LAT_FDIV;
}

/* cvt between an integer and a float type, or between float widths. */
static int convert_clocks(const EmuInstr *x) {
  int f1 = ptx_type_is_float((PtxType)x->type), f2 = ptx_type_is_float((PtxType)x->type2);
  if (f1 && f2) return x->type != x->type2 ? LAT_CVT_F : LAT_ALU;
  return f1 || f2 ? LAT_CVT : LAT_ALU;
}

static int is_half(const EmuInstr *x) {
  return x->type == PTX_T_F16 || x->type == PTX_T_F16X2 || x->type == PTX_T_BF16 || x->type == PTX_T_BF16X2;
}

static int shared_space(const EmuInstr *x) { return x->space == PTX_S_SHARED; }

/* The clocks a dependent instruction waits for x's result. */
static int clocks_of(const EmuInstr *x) {
  switch (x->op) {
  case PTX_OP_DIV:
  case PTX_OP_REM:
  case PTX_OP_SQRT:
  case PTX_OP_RCP:
    return divide_clocks(x);
  case PTX_OP_RSQRT:
  case PTX_OP_EX2:
  case PTX_OP_LG2:
  case PTX_OP_TANH:
    return mufu_clocks(x);
  case PTX_OP_SIN:
  case PTX_OP_COS:
    return LAT_TRIG;
  case PTX_OP_CVT:
    return convert_clocks(x);
  case PTX_OP_MUL:
  case PTX_OP_MAD:
    if (is_f64(x) || is_half(x)) return is_f64(x) ? LAT_F64 : LAT_HALF;
    return x->sub == PTX_SUB_HI ? LAT_MULHI : LAT_ALU;
  case PTX_OP_ADD:
  case PTX_OP_SUB:
  case PTX_OP_FMA:
    if (is_half(x)) return LAT_HALF;
    return is_f64(x) ? LAT_F64 : LAT_ALU;
  case PTX_OP_MIN:
  case PTX_OP_MAX:
  case PTX_OP_ABS:
  case PTX_OP_NEG:
    return is_f64(x) ? LAT_F64 : LAT_ALU;
  case PTX_OP_POPC:
    return LAT_POPC;
  case PTX_OP_SHFL:
    return LAT_SHFL;
  case PTX_OP_VOTE:
    return LAT_VOTE;
  case PTX_OP_REDUX:
    return LAT_REDUX;
  case PTX_OP_MATCH:
    return LAT_MATCH;
  case PTX_OP_LD:
  case PTX_OP_LDMATRIX:
  case PTX_OP_WMMA_LOAD:
    return shared_space(x) ? LAT_SHARED : x->space == PTX_S_CLUSTER ? LAT_DSM : LAT_ALU;
  case PTX_OP_ATOM:
    return shared_space(x) ? LAT_SATOM : x->space == PTX_S_CLUSTER ? LAT_DSM : LAT_ALU;
  case PTX_OP_MMA:
  case PTX_OP_WMMA_MMA:
    return LAT_MMA;
  case PTX_OP_BAR:
  case PTX_OP_BARRIER:
    return LAT_BAR;
  case PTX_OP_CALL:
    return LAT_CALL;
  default:
    return LAT_ALU;
  }
}

/* The clocks x holds the warp's issue: WM_ALU_CLOCKS, the time model's
 * assumption since the H100 probes.  A lone warp issues independent FMAs
 * a clock apart and integer mads 2 (latency_kernels.cu's fma_x8, mad_x8 on
 * the H100, docs/results/h100-2026-11-26-share), but a PTX line is shorter
 * than its SASS (64-bit address arithmetic, the loop's own instructions):
 * slots of 1 or 2 put the hierarchy probes at 25 and 26 of 38 within 25%,
 * 4 at 29.  ptxas's division subroutines take a slot per WM_ALU_CLOCKS of
 * their latency; a call or a barrier its whole latency. */
static int issue_slots(const EmuInstr *x, int lat) {
  switch (x->op) {
  case PTX_OP_DIV:
  case PTX_OP_REM:
  case PTX_OP_SQRT:
  case PTX_OP_RCP:
    return lat >= LAT_FDIV ? lat / WM_ALU_CLOCKS : 1;
  case PTX_OP_CALL:
  case PTX_OP_BAR:
  case PTX_OP_BARRIER:
    return lat;
  default:
    return WM_ALU_CLOCKS;
  }
}

/* When each register slot's value is ready, in clocks from the start of
 * the straight line being scheduled; stamp[s] != line: ready at 0. */
typedef struct Ready {
  int32_t *at;
  uint32_t *stamp, line;
  uint32_t nslots;
} Ready;

static int32_t ready_at(const Ready *r, uint32_t s) {
  return s < r->nslots && r->stamp[s] == r->line ? r->at[s] : 0;
}

static void set_ready(Ready *r, uint32_t s, int32_t t) {
  if (s >= r->nslots) return;
  r->stamp[s] = r->line;
  r->at[s] = t;
}

/* The slots x reads, into out[] (at most 40); returns how many. */
static int sources_of(const EmuProgram *p, const EmuInstr *x, uint32_t *out) {
  int n = 0;
  for (int i = 0; i < x->ns && i < 6; i++) out[n++] = x->s[i];
  out[n++] = x->abase;
  out[n++] = x->guard;
  if ((ptx_op[x->op].mods & M_MMA_MISC) && x->target < p->ntensor) {
    const EmuTensor *t = &p->tensor[x->target];
    for (int f = 1; f < 4; f++) /* mma: a, b and c; a store's data is r[0] */
      for (int j = 0; j < t->n[f]; j++) out[n++] = t->r[f][j];
    if (ptx_op[x->op].flags & OPF_NODST)
      for (int j = 0; j < t->n[0]; j++) out[n++] = t->r[0][j];
  }
  return n;
}

/* The slots x writes, into out[] (at most 8). */
static int dests_of(const EmuProgram *p, const EmuInstr *x, uint32_t *out) {
  int n = 0;
  for (int i = 0; i < x->nd && i < 4; i++) out[n++] = x->d[i];
  if ((ptx_op[x->op].mods & M_MMA_MISC) && x->target < p->ntensor && !(ptx_op[x->op].flags & OPF_NODST)) {
    const EmuTensor *t = &p->tensor[x->target];
    for (int j = 0; j < t->n[0]; j++) out[n++] = t->r[0][j];
  }
  return n;
}

/* Whether the straight line code[a..b] branches back to its own start. */
static int is_self_loop(const EmuProgram *p, int a, int b) {
  return p->code[b].op == PTX_OP_BRA && p->code[b].target == (uint32_t)a;
}

/* ptxas makes a shared::cluster address generic for the LD, ST or ATOM it
 * becomes, with the shared window's base read by an S2R (LAT_WINDOW).  In
 * a loop that is one straight line the read is off the warp's path:
 * hoisted out of the loop where the address stays the same (cluster_dsm.cu's
 * probes), issued under the previous load's trip where it changes
 * (dsm_chain, an S2R after each LD).  Elsewhere (a loop with branches
 * around its accesses: dsm_atom_kernels.cu) the access waits for it. */
static int reads_window(const EmuProgram *p, int a, int b, const EmuInstr *x) {
  return x->space == PTX_S_CLUSTER && (ptx_op[x->op].flags & OPF_MEM) && !is_self_loop(p, a, b);
}

/* The clocks the straight line code[a..b] takes a warp alone: each
 * instruction as soon as its operands are ready (ptxas orders a line so),
 * but no sooner than the line's issue slots allow.  `at` is when the line
 * starts, relative to the values already in r. */
static int32_t line_clocks(const EmuProgram *p, int a, int b, const uint8_t *lat, Ready *r, int32_t at) {
  int32_t end = at, slots = 0;
  uint32_t src[40], dst[8];
  for (int i = a; i <= b; i++) {
    const EmuInstr *x = &p->code[i];
    int32_t start = reads_window(p, a, b, x) ? at + LAT_WINDOW : at;
    for (int k = sources_of(p, x, src); k-- > 0;)
      if (ready_at(r, src[k]) > start) start = ready_at(r, src[k]);
    int used = issue_slots(x, lat[i]);
    slots += used;
    if (start + used > end) end = start + used;
    for (int k = dests_of(p, x, dst); k-- > 0;) set_ready(r, dst[k], start + lat[i]);
  }
  return (end - at > slots ? end - at : slots);
}

/* Spreads a line's clocks over its instructions (each runs as often as
 * the line): EmuInstr.clocks sums to `total` over code[a..b]. */
static void spread(EmuProgram *p, int a, int b, int32_t total) {
  int n = b - a + 1;
  for (int i = 0; i < n; i++) {
    int64_t lo = (int64_t)total * i / n, hi = (int64_t)total * (i + 1) / n;
    p->code[a + i].clocks = (uint8_t)(hi - lo > 255 ? 255 : hi - lo);
  }
}

/* The straight line's clocks; a loop onto itself is scheduled twice, the
 * second pass waiting for the first's results (an accumulator's chain,
 * a pointer chase), and charged the second. */
static int32_t schedule_line(EmuProgram *p, int a, int b, const uint8_t *lat, Ready *r) {
  r->line++;
  int32_t first = line_clocks(p, a, b, lat, r, 0);
  if (!is_self_loop(p, a, b)) return first;
  return line_clocks(p, a, b, lat, r, first);
}

/* An instruction whose result may come from a peer block's shared
 * memory: ld or atom (its result used) in shared::cluster, or generic
 * (mapa's generic pointer: cooperative groups' map_shared_rank).  An
 * atom's round trip to a peer is taken as a load's: dsm_atom_peer
 * (cluster_dsm.cu, 16 a warp) took 200 clocks an atom on the H200, the
 * load probe dsm_ld_peer 190 (a hypothesis from one probe each). */
static int may_read_peer(const EmuInstr *x) {
  int sp = x->space == PTX_S_CLUSTER || x->space == PTX_S_GENERIC;
  if (x->op == PTX_OP_LD) return sp;
  return x->op == PTX_OP_ATOM && sp && x->nd > 0 && x->d[0] != EMU_NOSLOT;
}

/* Whether such an instruction reads the block's own memory (or global
 * memory, for a generic one) or a peer's is known only when it runs: its
 * line is scheduled both ways, and each of them that reads a peer adds
 * its share of the difference (EmuInstr.peer_clocks) to the warp's clocks
 * (emu_mem.c). */
static void mark_peer_clocks(EmuProgram *p, int a, int b, uint8_t *lat, Ready *r, int32_t own) {
  int n = 0;
  for (int i = a; i <= b; i++)
    if (may_read_peer(&p->code[i])) lat[i] = LAT_DSM_PEER, n++;
  if (!n) return;
  int32_t more = schedule_line(p, a, b, lat, r) - own, each = more > 0 ? (more + n - 1) / n : 0;
  for (int i = a; i <= b; i++)
    if (may_read_peer(&p->code[i])) {
      lat[i] = (uint8_t)clocks_of(&p->code[i]);
      p->code[i].peer_clocks = (uint8_t)(each > 255 ? 255 : each);
    }
}

void emu_mark_latencies(EmuProgram *p, int n) {
  uint8_t *lat = wm_xmalloc((size_t)n + 1), *target = emu_branch_targets(p, n);
  for (int i = 0; i < n; i++) lat[i] = (uint8_t)clocks_of(&p->code[i]);
  Ready r = {wm_xcalloc((size_t)p->nslots + 1, sizeof(int32_t)), wm_xcalloc((size_t)p->nslots + 1, sizeof(uint32_t)),
             0, p->nslots};
  for (int a = 0; a < n;) {
    int b = a;
    while (b + 1 < n && !emu_ends_line(&p->code[b]) && !target[b + 1]) b++;
    int32_t own = schedule_line(p, a, b, lat, &r);
    spread(p, a, b, own);
    mark_peer_clocks(p, a, b, lat, &r, own);
    a = b + 1;
  }
  free(r.at);
  free(r.stamp);
  free(target);
  free(lat);
}
