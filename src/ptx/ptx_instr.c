/* ptx_instr.c - one PTX instruction: its guard, its mnemonic and
 * modifiers (what each opcode accepts and needs is its row in ptx_ops.h),
 * its operands; their form is checked in ptx_shape.c. */
#include "ptx/ptx_parse_int.h"

#include <stdio.h>
#include <stdlib.h>

static int find_word(Comp c, const char *const *list, int n) {
  for (int i = 0; i < n; i++)
    if (strlen(list[i]) == c.len && memcmp(list[i], c.p, c.len) == 0) return i;
  return -1;
}

static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                        "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const rnd_names[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const atom_names[] = {"add", "min", "max", "inc", "dec", "exch", "cas", "and", "or", "xor"};
static const char *const testp_names[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
static const char *const cache_names[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc"};
static const char *const geom_names[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
static const char *const txq_names[] = {"width", "height", "depth", "channel_data_type", "channel_order",
                                        "normalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1",
                                        "addr_mode_2", "array_size", "num_mipmap_levels", "num_samples"};
static const uint16_t cache_flags[] = {PTX_IF_CA, PTX_IF_CG, PTX_IF_CS, PTX_IF_LU,
                                       PTX_IF_CV, PTX_IF_WB, PTX_IF_WT, PTX_IF_NC};


static _Noreturn void bad_mod(Parser *P, const InstrCtx *x, Comp c) {
  char buf[128];
  pp_unsup(P, x->mn, "unsupported instruction '%s' (%s %s): unknown or unsupported modifier '.%.*s'",
        pp_tok_str(x->mn, buf, sizeof buf), pp_owner(P), P->k->name, (int)c.len, c.p);
}

/* A modifier of tex, tld4, txq, suld or sust (PtxInstr.sub and .aux);
 * anything else is a bad modifier. */
static void texture_modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  uint64_t mods = ptx_op[in->op].mods;
  int i;
  char buf[128];
  if ((mods & M_TEXGEOM) && (i = find_word(c, geom_names, 7)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_TEX_1D + i);
  } else if ((mods & M_TEXGEOM) && (IS(c, "2dms") || IS(c, "a2dms"))) {
    pp_unsup(P, x->mn, "unsupported instruction '%s' (%s %s): .%.*s textures are not supported (1d, 2d, 3d, "
             "a1d, a2d, cube and acube are)", pp_tok_str(x->mn, buf, sizeof buf), pp_owner(P), P->k->name, (int)c.len, c.p);
  } else if ((mods & M_TEXMIP) && (IS(c, "level") || IS(c, "grad"))) {
    if (in->aux) bad_mod(P, x, c);
    in->aux = IS(c, "level") ? PTX_TEX_LEVEL : PTX_TEX_GRAD;
  } else if ((mods & M_TLD4) && c.len == 1 && strchr("rgba", c.p[0]) && !x->tld4) {
    x->tld4 = 1;
    in->aux = (uint8_t)(strchr("rgba", c.p[0]) - "rgba");
  } else if ((mods & M_SUCLAMP) && (IS(c, "trap") || IS(c, "clamp") || IS(c, "zero"))) {
    if (x->suclamp) bad_mod(P, x, c);
    x->suclamp = 1;
    in->aux |= IS(c, "trap") ? PTX_SU_TRAP : IS(c, "clamp") ? PTX_SU_CLAMP : PTX_SU_ZERO;
  } else if ((mods & M_SUFMT) && (IS(c, "b") || IS(c, "p"))) {
    if (x->sufmt) bad_mod(P, x, c);
    x->sufmt = c.p[0];
    if (IS(c, "p")) in->aux |= PTX_SU_P;
  } else if ((mods & M_TXQ) && (i = find_word(c, txq_names, 13)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_TXQ_WIDTH + i);
  } else {
    bad_mod(P, x, c);
  }
}

/* The bulk copies and reductions: cp{.reduce}.async.bulk{.tensor}. */
static int is_bulk(int op) {
  return op == PTX_OP_CPASYNC_BULK || op == PTX_OP_CPASYNC_BULK_TENSOR || op == PTX_OP_CPREDUCE_BULK ||
         op == PTX_OP_CPREDUCE_BULK_TENSOR;
}

/* A bulk copy's state spaces, destination then source (async_rules()
 * checks the direction): 1 if c is one. */
static int bulk_space(Parser *P, InstrCtx *x, Comp c) {
  uint8_t s = IS(c, "global") ? 'g' : IS(c, "shared") || IS(c, "shared::cta") ? 'c' : IS(c, "shared::cluster") ? 'k' : 0;
  if (!s) return 0;
  if (x->bulk_src) bad_mod(P, x, c);
  if (x->bulk_dst) x->bulk_src = s;
  else x->bulk_dst = s;
  return 1;
}

/* The words of the TMA instructions (M_TMA): dimensions, load modes,
 * multicast, reduction operations; 1 if c is one.  The sm_100 modes are
 * refused by name. */
static int tma_modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  static const char *const redops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  static const uint8_t redsub[] = {PTX_SUB_AADD, PTX_SUB_AMIN, PTX_SUB_AMAX, PTX_SUB_AINC,
                                   PTX_SUB_ADEC, PTX_SUB_AAND, PTX_SUB_AOR, PTX_SUB_AXOR};
  int op = in->op, red = op == PTX_OP_CPREDUCE_BULK || op == PTX_OP_CPREDUCE_BULK_TENSOR;
  char buf[128];
  if (c.len == 2 && c.p[0] >= '1' && c.p[0] <= '5' && c.p[1] == 'd' && op != PTX_OP_CPREDUCE_BULK) {
    if (PTX_TMA_DIMS(in->aux)) bad_mod(P, x, c);
    in->aux |= (uint8_t)(c.p[0] - '0');
  } else if ((IS(c, "tile") || IS(c, "im2col") || IS(c, "im2col_no_offs")) && op != PTX_OP_CPREDUCE_BULK) {
    if (x->tma_mode) bad_mod(P, x, c);
    x->tma_mode = 1;
    in->aux |= IS(c, "im2col") ? PTX_TMA_IM2COL : IS(c, "im2col_no_offs") ? PTX_TMA_IM2COL_NO_OFFS : 0;
  } else if ((IS(c, "multicast::cluster") || IS(c, "multicast::cluster::16b")) &&
             (op == PTX_OP_CPASYNC_BULK || op == PTX_OP_CPASYNC_BULK_TENSOR)) {
    in->aux |= PTX_TMA_MULTICAST;
  } else if (c.len > 6 && (!memcmp(c.p, "tile::", 6) || !memcmp(c.p, "im2col", 6) || !memcmp(c.p, "cta_group", 9) ||
                           !memcmp(c.p, "multicast::cluster::32b", 23) || !memcmp(c.p, "override", 8) ||
                           !memcmp(c.p, "mbarrier::report", 16))) {
    pp_unsup(P, x->mn, "unsupported instruction '%s' (%s %s): '.%.*s' is an sm_100 (Blackwell) form; warpmem runs "
             "the sm_90 TMA modes (.tile, .im2col, .im2col_no_offs, .multicast::cluster)",
             pp_tok_str(x->mn, buf, sizeof buf), pp_owner(P), P->k->name, (int)c.len, c.p);
  } else if (red && !in->sub && find_word(c, redops, 8) >= 0) {
    in->sub = redsub[find_word(c, redops, 8)];
  } else if (red && IS(c, "noftz")) {
    /* f16/bf16/f32 adds keep subnormals: the emulator never flushes them */
  } else if (IS(c, "relaxed") || IS(c, "weak") || IS(c, "cta") || IS(c, "cluster") || IS(c, "gpu") || IS(c, "sys")) {
    /* .sem.scope (PTX 9.3): a sequential emulator is coherent at all */
  } else {
    return 0;
  }
  return 1;
}

/* The words of tensormap.replace and tensormap.cp_fenceproxy (M_TMAP): 1
 * if c is one.  x->tma_mode: bit 0 .tile, bit 1 .b1024. */
static int tmap_modifier(PtxInstr *in, InstrCtx *x, Comp c) {
  static const char *const fields[] = {
#define X(e, name) name,
    PTX_TMAP_FIELDS(X)
#undef X
  };
  int f = find_word(c, fields, (int)(sizeof fields / sizeof *fields));
  if (f >= 0 && in->op == PTX_OP_TENSORMAP_REPLACE && !in->aux) in->aux = (uint8_t)(PTX_TMAP_GLOBAL_ADDRESS + f);
  else if (IS(c, "tile") && !(x->tma_mode & 1)) x->tma_mode |= 1;
  else if (IS(c, "b1024") && !(x->tma_mode & 2)) x->tma_mode |= 2;
  else if (IS(c, "global") && !x->bulk_dst) x->bulk_dst = 'g';
  else if ((IS(c, "shared::cta") || IS(c, "shared")) && !x->bulk_src) x->bulk_src = 'c';
  else if (in->op == PTX_OP_TENSORMAP_CP && (IS(c, "tensormap::generic") || IS(c, "release") || IS(c, "sync") ||
                                             IS(c, "aligned") || IS(c, "cta") || IS(c, "cluster") || IS(c, "gpu") ||
                                             IS(c, "sys")))
    return 1;
  else return 0;
  return 1;
}

/* The modifiers of cp.async, cp.async.bulk, cp.async.mbarrier.arrive and
 * mbarrier.*: returns 1 if c is one of theirs (see PTX_MODS). */
static int async_modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  int op = in->op, wait = op == PTX_OP_MBAR_TEST_WAIT || op == PTX_OP_MBAR_TRY_WAIT;
  int arrive = op == PTX_OP_MBAR_ARRIVE || op == PTX_OP_MBAR_ARRIVE_DROP;
  if (is_bulk(op) && bulk_space(P, x, c)) return 1;
  if ((ptx_op[op].mods & M_TMA) && tma_modifier(P, in, x, c)) return 1;
  if (IS(c, "shared") || IS(c, "shared::cta") || IS(c, "shared::cluster")) {
    /* a cluster of one CTA: its shared::cluster window is the CTA's own */
    if (in->space != PTX_S_NONE) bad_mod(P, x, c);
    in->space = PTX_S_SHARED;
  } else if (ptx_op[op].mods & M_ASYNC) {
    int prefetch = op == PTX_OP_CPASYNC_BULK_PREFETCH || op == PTX_OP_CPASYNC_BULK_PREFETCH_TENSOR;
    if (IS(c, "global") && !x->async_global) x->async_global = 1;
    else if (op == PTX_OP_CPASYNC_BULK_WAIT && IS(c, "read") && !x->async_mbar) x->async_mbar = 1;
    else if (prefetch && IS(c, "L2")) return 1;
    else if (is_bulk(op) && IS(c, "bulk_group") && !x->async_mbar) x->async_mbar = 2;
    else if (op == PTX_OP_CPASYNC && (IS(c, "ca") || IS(c, "cg")) && !(in->flags & (PTX_IF_CA | PTX_IF_CG)))
      in->flags |= IS(c, "ca") ? PTX_IF_CA : PTX_IF_CG;
    else if (IS(c, "L2::cache_hint")) x->async_hint = 1;
    else if (IS(c, "L2::64B") || IS(c, "L2::128B") || IS(c, "L2::256B")) return 1; /* prefetch: no effect here */
    else if (is_bulk(op) && IS(c, "mbarrier::complete_tx::bytes") && !x->async_mbar) x->async_mbar = 1;
    else return 0;
  } else if (IS(c, "noinc") && op == PTX_OP_CPASYNC_MBAR && !in->sub) {
    in->sub = PTX_SUB_MB_NOINC;
  } else if ((IS(c, "expect_tx") || IS(c, "noComplete")) && arrive && !in->sub) {
    in->sub = IS(c, "expect_tx") ? PTX_SUB_MB_EXPECT_TX : PTX_SUB_MB_NOCOMPLETE;
  } else if (IS(c, "parity") && wait && !in->sub) {
    in->sub = PTX_SUB_MB_PARITY;
  } else if (IS(c, "cluster") && arrive) {
    in->aux |= PTX_MB_CLUSTER; /* coherent here; its cost is the clock's */
  } else if (IS(c, "acquire") || IS(c, "release") || IS(c, "relaxed") || IS(c, "cta") || IS(c, "cluster")) {
    /* orderings and scopes: a sequential emulator is coherent at all */
  } else {
    return 0;
  }
  return 1;
}

/* One modifier (the part between dots) of the mnemonic.  fence.* takes
 * any (no effect on a sequential emulator); cp.async's and mbarrier's own
 * words are async_modifier()'s.  Long because it is one flat chain over the
 * words of every other modifier group. */
static void modifier(Parser *P, PtxInstr *in, InstrCtx *x, Comp c) {
  uint64_t mods = ptx_op[in->op].mods;
  int t = pp_type_of(c.p, c.len), i;
  if (in->op == PTX_OP_SETMAXNREG && (IS(c, "inc") || IS(c, "dec"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "inc") ? PTX_SUB_NREG_INC : PTX_SUB_NREG_DEC;
    return;
  }
  if ((in->op == PTX_OP_MAPA || in->op == PTX_OP_GETCTARANK) && IS(c, "shared::cluster")) {
    in->space = PTX_S_CLUSTER; /* a 32-bit shared::cluster address, not a generic one */
    return;
  }
  if ((mods & M_ANY) && (t < 0 || (mods & M_NOTYPE))) return; /* mapa and getctarank keep their type */
  if ((mods & (M_ASYNC | M_MBAR)) && async_modifier(P, in, x, c)) return;
  if ((mods & M_TMAP) && tmap_modifier(in, x, c)) return;
  if (t >= 0) {
    if (x->ntypes == 0) in->type = (uint8_t)t;
    else if (x->ntypes == 1 && (mods & M_TYPE2)) in->type2 = (uint8_t)t;
    else if (x->ntypes == 2 && (mods & M_VIDEO)) in->aux = (uint8_t)t; /* vadd4.dtype.atype.btype */
    else bad_mod(P, x, c);
    x->ntypes++;
  } else if ((mods & M_VEC) && (IS(c, "v2") || IS(c, "v4"))) {
    in->vec = (uint8_t)(c.p[1] - '0');
  } else if ((mods & M_SPACE) && IS(c, "shared::cluster") &&
             (in->op == PTX_OP_LD || in->op == PTX_OP_ST || in->op == PTX_OP_ATOM || in->op == PTX_OP_RED ||
              in->op == PTX_OP_CVTA)) {
    if (in->space != PTX_S_NONE) bad_mod(P, x, c);
    in->space = PTX_S_CLUSTER; /* distributed shared memory: any block of the cluster */
  } else if ((mods & M_SPACE) && (i = pp_space_of(c.p, c.len)) >= 0) {
    if (in->space != PTX_S_NONE) bad_mod(P, x, c);
    in->space = (uint8_t)i;
  } else if ((mods & M_CACHE) && (i = find_word(c, cache_names, 8)) >= 0) {
    if (i == 7 && in->op != PTX_OP_LD) bad_mod(P, x, c);
    in->flags |= cache_flags[i];
  } else if ((mods & M_CACHE) && c.len >= 2 && (c.p[0] == 'L') && (c.p[1] == '1' || c.p[1] == '2')) {
    /* L1::evict_last, L2::128B, prefetch.L2: hints without effect here */
    if (IS(c, "L2::cache_hint")) bad_mod(P, x, c);
  } else if ((mods & M_SEM) && (IS(c, "volatile") || IS(c, "relaxed") || IS(c, "acquire") ||
                                IS(c, "release") || IS(c, "acq_rel") || IS(c, "mmio"))) {
    if (in->op == PTX_OP_LD || in->op == PTX_OP_ST) in->flags |= PTX_IF_VOLATILE;
  } else if ((mods & M_SEM) && (IS(c, "weak") || IS(c, "cta") || IS(c, "gpu") || IS(c, "sys") ||
                                IS(c, "cluster"))) {
    /* scopes: a sequential emulator is coherent at every scope; the memory
     * model needs only whether a strong access stays within the SM */
    if (IS(c, "cta") && (in->op == PTX_OP_LD || in->op == PTX_OP_ST)) in->flags |= PTX_IF_CTA;
  } else if ((mods & M_RND) && (i = find_word(c, rnd_names, 8)) >= 0) {
    if (i >= 4 && !(mods & M_IRND)) bad_mod(P, x, c);
    if (in->rnd != PTX_RND_NONE) bad_mod(P, x, c);
    in->rnd = (uint8_t)(PTX_RND_RN + i);
  } else if ((mods & M_APPROX) && IS(c, "approx")) {
    in->rnd = PTX_RND_APPROX;
  } else if ((mods & M_APPROX) && IS(c, "full")) {
    in->rnd = PTX_RND_FULL;
  } else if ((mods & M_RELU) && IS(c, "relu")) {
    in->fmod |= PTX_FM_RELU;
  } else if ((mods & M_NANMODE) && (IS(c, "NaN") || IS(c, "xorsign") || IS(c, "abs"))) {
    in->fmod |= IS(c, "NaN") ? PTX_FM_NAN : IS(c, "xorsign") ? PTX_FM_XORSIGN : PTX_FM_ABS;
  } else if ((mods & M_OOB) && IS(c, "oob")) {
    in->fmod |= PTX_FM_OOB;
  } else if ((mods & M_SATFINITE) && IS(c, "satfinite")) {
    in->fmod |= PTX_FM_SATFINITE;
  } else if ((mods & M_SATFINITE) && IS(c, "rna")) {
    if (in->rnd != PTX_RND_NONE) bad_mod(P, x, c);
    in->rnd = PTX_RND_RNA;
  } else if ((mods & M_FTZ) && IS(c, "ftz")) {
    in->flags |= PTX_IF_FTZ;
  } else if ((mods & M_SAT) && IS(c, "sat")) {
    in->flags |= PTX_IF_SAT;
  } else if ((mods & M_VIDEO) && IS(c, "add") && !in->sub) {
    in->sub = PTX_SUB_AADD; /* the secondary accumulate */
  } else if ((mods & M_CC) && IS(c, "cc")) {
    in->flags |= PTX_IF_CC;
  } else if ((mods & M_MULMODE) && (IS(c, "lo") || IS(c, "hi") || IS(c, "wide"))) {
    if (in->sub) bad_mod(P, x, c);
    if (IS(c, "wide") && (in->op == PTX_OP_MUL24 || in->op == PTX_OP_MAD24 || in->op == PTX_OP_DP2A ||
                          in->op == PTX_OP_MADC))
      bad_mod(P, x, c);
    in->sub = IS(c, "lo") ? PTX_SUB_LO : IS(c, "hi") ? PTX_SUB_HI : PTX_SUB_WIDE;
  } else if ((mods & M_CMP) && (i = find_word(c, cmp_names, 18)) >= 0) {
    if (in->cmp) bad_mod(P, x, c);
    in->cmp = (uint8_t)(PTX_CMP_EQ + i);
  } else if ((mods & M_CMP) && (IS(c, "and") || IS(c, "or") || IS(c, "xor"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "and") ? PTX_SUB_BAND : IS(c, "or") ? PTX_SUB_BOR : PTX_SUB_BXOR;
  } else if ((mods & M_SHFL) && (IS(c, "up") || IS(c, "down") || IS(c, "bfly") || IS(c, "idx"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "up") ? PTX_SUB_UP : IS(c, "down") ? PTX_SUB_DOWN : IS(c, "bfly") ? PTX_SUB_BFLY : PTX_SUB_IDX;
  } else if ((mods & M_SYNC) && IS(c, "sync")) {
    x->has_sync = 1;
  } else if ((mods & M_VOTE) && (IS(c, "all") || IS(c, "any") || IS(c, "uni") || IS(c, "ballot"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "all") ? PTX_SUB_ALL : IS(c, "any") ? PTX_SUB_ANY : IS(c, "uni") ? PTX_SUB_UNI : PTX_SUB_BALLOT;
  } else if ((mods & M_MATCH) && (IS(c, "all") || IS(c, "any"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "all") ? PTX_SUB_ALL : PTX_SUB_ANY;
  } else if ((mods & M_ATOMOP) && (i = find_word(c, atom_names, 10)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    if (in->op == PTX_OP_REDUX && (i == 3 || i == 4 || i == 5 || i == 6)) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_AADD + i);
  } else if ((mods & M_ATOMOP) && IS(c, "noftz") && in->op != PTX_OP_REDUX) {
    /* f16/f32 atomic add without flushing: we never flush in atomics */
  } else if ((mods & M_TESTP) && (i = find_word(c, testp_names, 6)) >= 0) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = (uint8_t)(PTX_SUB_FINITE + i);
  } else if ((mods & M_BAR) && (IS(c, "sync") || IS(c, "arrive"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "sync") ? PTX_SUB_SYNC : PTX_SUB_ARRIVE;
  } else if ((mods & M_BAR) && IS(c, "red")) {
    if (x->has_red) bad_mod(P, x, c);
    x->has_red = 1;
  } else if ((mods & M_BAR) && x->has_red && (IS(c, "popc") || IS(c, "and") || IS(c, "or"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "popc") ? PTX_SUB_RED_POPC : IS(c, "and") ? PTX_SUB_RED_AND : PTX_SUB_RED_OR;
  } else if ((mods & M_SHF) && (IS(c, "l") || IS(c, "r"))) {
    if (x->shf_dir) bad_mod(P, x, c);
    x->shf_dir = c.p[0];
  } else if ((mods & M_SHF) && (IS(c, "wrap") || IS(c, "clamp"))) {
    if (x->shf_mode) bad_mod(P, x, c);
    x->shf_mode = c.p[0];
  } else if ((mods & M_SHIFTAMT) && IS(c, "shiftamt")) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = PTX_SUB_SHIFTAMT;
  } else if ((mods & M_BAR) && (IS(c, "aligned") || IS(c, "cta"))) {
    /* all threads of the block reach it together: a promise, not a variant */
  } else if ((mods & M_CLUSTER) && (IS(c, "arrive") || IS(c, "wait"))) {
    if (in->sub) bad_mod(P, x, c);
    in->sub = IS(c, "wait") ? PTX_SUB_SYNC : PTX_SUB_ARRIVE;
  } else if ((mods & M_CLUSTER) && (IS(c, "aligned") || IS(c, "relaxed") || IS(c, "release") || IS(c, "acquire"))) {
    /* ordering of the arrival: the emulator's memory is sequential, but a
     * release costs the warp its memory barrier (emu_clock.c) */
    if (IS(c, "relaxed")) in->aux |= PTX_BC_RELAXED;
  } else if ((mods & M_UNI) && IS(c, "uni")) {
    in->flags |= PTX_IF_UNI;
  } else if ((mods & M_TO) && IS(c, "to")) {
    in->sub = PTX_SUB_TO;
  } else if ((mods & M_LEVEL) && (IS(c, "cta") || IS(c, "gl") || IS(c, "sys"))) {
    /* membar level: no effect */
  } else if (in->op == PTX_OP_PREFETCH && IS(c, "tensormap")) {
    /* prefetch{.param,.const,.global}.tensormap [a]: a tensor map's 128 bytes */
    in->sub = PTX_SUB_TENSORMAP;
  } else {
    texture_modifier(P, in, x, c); /* or bad_mod() */
  }
}


/* The register named by t as a REG operand. */
static void reg_operand(Parser *P, const PtxTok *t, Opd *o) {
  o->o.kind = PTX_O_REG;
  o->o.reg[0] = pp_reg_slot(P, t, &o->rtype);
}

static void vector(Parser *P, PtxOperand *o, int frag, int any);

/* address := '[' (reg [',' vector] (textures and surfaces; tensor maps: tex 2) | reg [('+'|'-') ['-'] number] | symbol [('+'|'-') ['-'] number] | number) ']' */
static void address(Parser *P, Opd *o, int tex) {
  pp_next(P); /* [ */
  const PtxTok *t = pp_peek(P);
  char buf[128];
  o->o.kind = PTX_O_ADDR;
  o->o.reg[0] = PTX_NOREG;
  uint64_t base = 0;
  if (t->kind == TK_NUM) {
    Num n = pp_number_tok(P, pp_next(P));
    if (n.kind != NUM_INT) pp_fail(P, t, "bad address");
    base = n.bits;
  } else if (t->kind == TK_WORD) {
    pp_next(P);
    uint32_t idx;
    if (t->p[0] == '%' || pp_find_reg(P, t, &idx)) {
      if (pp_sreg_of(t) >= 0) pp_fail(P, t, "a special register cannot be an address");
      uint8_t type;
      o->o.reg[0] = pp_reg_slot(P, t, &type);
      if (type == PTX_T_PRED) pp_fail(P, t, "predicate register '%s' used as an address", pp_tok_str(t, buf, sizeof buf));
      if (ptx_type_is_float((PtxType)type))
        pp_fail(P, t, "floating-point register '%s' used as an address", pp_tok_str(t, buf, sizeof buf));
    } else {
      const Sym *s = pp_find_sym(P, t);
      if (!s && tex != 1) pp_fail(P, t, "undeclared identifier '%s'", pp_tok_str(t, buf, sizeof buf));
      o->ref = t; /* textures: texture_address() refuses a name */
      o->sym = s;
      o->o.space = s ? s->space : PTX_S_NONE;
      base = s ? s->offset : 0;
      if (s && s->frame && P->k->is_func) o->o.reg[0] = P->k->fp_slot; /* in this call's frame */
    }
  } else {
    pp_fail(P, t, "bad address");
  }
  if (pp_is_punct(pp_peek(P), '+') || pp_is_punct(pp_peek(P), '-')) {
    int neg = pp_is_punct(pp_next(P), '-');
    const PtxTok *nt = pp_peek(P);
    Num n = pp_signed_number(P);
    if (n.kind != NUM_INT) pp_fail(P, nt, "bad address offset");
    uint64_t off = n.neg ? 0 - n.bits : n.bits;
    base = neg ? base - off : base + off;
  }
  o->o.imm = (int64_t)base;
  if (tex && pp_is_punct(pp_peek(P), ',')) {
    pp_next(P);
    if (!pp_is_punct(pp_peek(P), '{')) pp_fail_expected(P, "a vector of coordinates {...}");
    vector(P, &o->coord, tex == 2 ? 8 : 0, tex == 2 ? 2 : 1); /* a tensor's: up to 5 (those past 4 in
                                                                  PtxKernel.vregs), constants allowed */
  }
  pp_expect(P, ']');
}

/* vector := '{' (reg | '_' | integer) {',' (reg | '_' | integer)} '}' (of
 * 2 or 4; the integers of one vector all equal: they share PtxOperand.imm).
 * Texture and surface operands (`any`) also take 1 and 3; a tensor-core
 * fragment has 1 to `frag` registers (8; wgmma's D 128), those of more
 * than 4 in the kernel's vregs (PtxOperand.imm: where). */
static void vector(Parser *P, PtxOperand *o, int frag, int any) {
  const PtxTok *lb = pp_next(P);
  o->kind = PTX_O_VEC;
  int n = 0, max = frag ? frag : 4;
  uint32_t regs[128];
  do {
    const PtxTok *t = pp_peek(P);
    if (n == max) pp_fail(P, t, "vector operand with more than %d elements", max);
    if (pp_is(t, "_")) {
      pp_next(P);
      regs[n++] = PTX_NOREG;
      continue;
    }
    if (t->kind == TK_NUM || pp_is_punct(t, '-')) {
      Num v = pp_signed_number(P);
      if (v.kind != NUM_INT) pp_unsup(P, t, "a float constant in a vector operand is not supported");
      int64_t iv = (int64_t)(v.neg ? 0 - v.bits : v.bits);
      if (any == 2) { /* a tensor's coordinate: its own constant */
        PtxKernel *k = P->k;
        if (k->nvconsts == k->capvconsts) {
          k->capvconsts = k->capvconsts ? 2 * k->capvconsts : 16;
          k->vconsts = wm_xrealloc(k->vconsts, k->capvconsts * sizeof *k->vconsts);
        }
        k->vconsts[k->nvconsts] = iv;
        regs[n++] = PTX_VCONST + k->nvconsts++;
        continue;
      }
      if (o->vimm && iv != o->imm) pp_unsup(P, t, "different constants in one vector operand are not supported");
      if (frag || any) pp_unsup(P, t, "a constant in a fragment or texture vector is not supported");
      o->vimm |= (uint8_t)(1u << n);
      o->imm = iv;
      regs[n++] = PTX_NOREG;
      continue;
    }
    if (t->kind != TK_WORD) pp_fail_expected(P, "a register");
    pp_next(P);
    char buf[128];
    if (pp_sreg_of(t) >= 0) pp_fail(P, t, "special register in a vector operand");
    uint8_t type;
    regs[n++] = pp_reg_slot(P, t, &type);
    if (type == PTX_T_PRED) pp_fail(P, t, "predicate register '%s' in a vector operand", pp_tok_str(t, buf, sizeof buf));
  } while (pp_accept(P, ","));
  pp_expect(P, '}');
  if (!frag && !any && n != 2 && n != 4) pp_fail(P, lb, "vector operand with %d elements (2 or 4 expected)", n);
  o->n = (uint8_t)n;
  for (int i = 0; i < n && i < 4; i++) o->reg[i] = regs[i];
  if (n > 4) {
    PtxKernel *k = P->k;
    while (k->nvregs + (uint32_t)n > k->capvregs) {
      k->capvregs = k->capvregs ? 2 * k->capvregs : 64;
      k->vregs = wm_xrealloc(k->vregs, k->capvregs * sizeof *k->vregs);
    }
    o->imm = k->nvregs;
    memcpy(k->vregs + k->nvregs, regs, (size_t)n * sizeof *regs);
    k->nvregs += (uint32_t)n;
  }
}

/* operand := ['!'] reg | sreg | ['-'] number | address | vector | symbol [('+'|'-') number]
 *            | '_' (where sink is set: mbarrier.arrive's state, elect's d) */
static void operand(Parser *P, Opd *o, const PtxInstr *in, int is_bra, int tex, int sink) {
  const PtxTok *t = pp_peek(P);
  char buf[128];
  memset(o, 0, sizeof *o);
  o->tok = t;
  if (pp_is_punct(t, '[')) {
    address(P, o, tex);
    return;
  }
  int frag = ptx_op[in->op].mods & M_WGMMA ? 128 : ptx_op[in->op].mods & M_MMA_MISC ? 8 : 0;
  if (pp_is_punct(t, '{') && !frag && !tex && P->toks[P->pos + 1].kind == TK_WORD &&
      pp_is_punct(&P->toks[P->pos + 2], '}')) { /* { %r1 }: a vector of one is its register (Triton writes them) */
    pp_next(P);
    operand(P, o, in, is_bra, tex, sink);
    pp_expect(P, '}');
    return;
  }
  if (pp_is_punct(t, '{')) {
    vector(P, &o->o, frag, tex);
    return;
  }
  if (pp_is_punct(t, '!')) {
    pp_next(P);
    const PtxTok *r = pp_peek(P);
    if (r->kind != TK_WORD) pp_fail_expected(P, "a predicate register after '!'");
    pp_next(P);
    reg_operand(P, r, o);
    o->o.neg = 1;
    return;
  }
  if (pp_is_punct(t, '-') || t->kind == TK_NUM) {
    o->o.kind = PTX_O_IMM;
    o->num = pp_signed_number(P);
    return;
  }
  if (t->kind != TK_WORD || t->p[0] == '.') pp_fail_expected(P, "an operand");
  pp_next(P);
  if (is_bra) {
    o->o.kind = PTX_O_LABEL;
    return;
  }
  int sr = pp_sreg_of(t);
  uint64_t value;
  if (sr < 0 && pp_sreg_alias(t, &sr, &value) && sr < 0) {
    o->o.kind = PTX_O_IMM; /* a special register whose value is known */
    o->num.kind = NUM_INT;
    o->num.bits = value;
    return;
  }
  if (sr >= 0) {
    o->o.kind = PTX_O_SREG;
    o->o.sreg = (uint8_t)sr;
    return;
  }
  if (pp_is(t, "_") && sink) {
    o->o.kind = PTX_O_NONE;
    return;
  }
  if (pp_is(t, "_")) pp_fail(P, t, "'_' is only allowed inside a vector operand");
  uint32_t idx;
  if (t->p[0] == '%' || pp_find_reg(P, t, &idx)) {
    reg_operand(P, t, o);
    return;
  }
  const Sym *s = pp_find_sym(P, t);
  int fi = s ? -1 : pp_func_index(P, t, 0);
  if (fi >= 0) { /* a function's address: a function pointer */
    P->m->funcs[fi].addr_taken = 1;
    o->o.kind = PTX_O_IMM;
    o->num.kind = NUM_INT;
    o->num.bits = PTX_FUNC_ADDR_BASE + (uint64_t)fi * PTX_FUNC_ADDR_STEP;
    return;
  }
  if (!s) {
    if (pp_map_get(&P->labels, t->p, t->len) || (t->p[0] == '$' && t->len > 2 && t->p[1] == 'L'))
      pp_unsup(P, t, "labels as values are not supported ('%s')", pp_tok_str(t, buf, sizeof buf));
    int kernel = pp_map_get(&P->entry_decls, t->p, t->len) != 0;
    for (int i = 0; i < P->m->nkernels && !kernel; i++) kernel = pp_is(t, P->m->kernels[i].name);
    if (kernel)
      pp_unsup(P, t, "unsupported dynamic parallelism: the address of kernel '%s', for a launch from the device "
                 "(<<<>>> in a kernel); warpmem runs launches from the host only", pp_tok_str(t, buf, sizeof buf));
    pp_fail(P, t, "undeclared identifier '%s'", pp_tok_str(t, buf, sizeof buf));
  }
  o->o.kind = PTX_O_SYM;
  o->o.space = s->space;
  o->sym = s;
  uint64_t v = s->offset;
  if (pp_is_punct(pp_peek(P), '+')) {
    pp_next(P);
    const PtxTok *nt = pp_peek(P);
    Num n = pp_signed_number(P);
    if (n.kind != NUM_INT) pp_fail(P, nt, "bad offset");
    v += n.neg ? 0 - n.bits : n.bits;
  }
  o->o.imm = (int64_t)v;
}

/* The opcode named by the mnemonic's components: the longest name of the
 * table that its first components spell ("bar.warp", "cp.async.wait_group"
 * before "cp.async"); *used gets how many components it takes. */
static int find_op(Comp *c, int nc, int *used) {
  int best = -1;
  *used = 1;
  for (int op = 0; op < PTX_OP_COUNT; op++) {
    const char *name = ptx_op_name[op];
    int k = 0;
    size_t at = 0, len = strlen(name);
    while (k < nc && at + c[k].len <= len && memcmp(name + at, c[k].p, c[k].len) == 0) {
      at += c[k].len;
      k++;
      if (at == len || name[at] != '.') break;
      at++;
    }
    if (at == len && (best < 0 || k > *used)) best = op, *used = k;
  }
  return best;
}

/* guard := '@' ['!'] pred */
static void guard(Parser *P, PtxInstr *in) {
  char buf[128];
  pp_next(P);
  if (pp_accept(P, "!")) in->guard_neg = 1;
  const PtxTok *g = pp_peek(P);
  if (g->kind != TK_WORD) pp_fail_expected(P, "a predicate register after '@'");
  pp_next(P);
  uint8_t type;
  in->guard = pp_reg_slot(P, g, &type);
  if (type != PTX_T_PRED) pp_fail(P, g, "guard '%s' is not a predicate register", pp_tok_str(g, buf, sizeof buf));
}

/* mnemonic := opcode {'.' modifier}: sets in->op and what the modifiers say. */
static void mnemonic(Parser *P, PtxInstr *in, InstrCtx *x) {
  const PtxTok *mn = x->mn;
  char buf[128];
  Comp c[16];
  int nc = 0;
  for (uint32_t i = 0, s = 0; i <= mn->len; i++) {
    if (i == mn->len || mn->p[i] == '.') {
      if (nc == 16 || i == s) pp_fail(P, mn, "malformed instruction '%s'", pp_tok_str(mn, buf, sizeof buf));
      c[nc].p = mn->p + s;
      c[nc++].len = i - s;
      s = i + 1;
    }
  }
  int used, op = find_op(c, nc, &used);
  if (op < 0) pp_unsup(P, mn, "unsupported instruction '%s' (%s %s)", pp_tok_str(mn, buf, sizeof buf), pp_owner(P),
                       P->k->name);
  in->op = (uint16_t)op;
  for (int i = used; i < nc; i++) {
    int taken = ptx_op[op].mods & M_MMA_MISC ? pp_mma_modifier(P, in, x, c[i]) /* tensor cores' words */
                : ptx_op[op].mods & M_WGMMA  ? pp_wgmma_modifier(P, in, x, c[i])
                                             : -1;
    if (taken == 0) bad_mod(P, x, c[i]);
    if (taken < 0) modifier(P, in, x, c[i]);
  }
}

/* Fails with "'MNEMONIC'" and what is wrong with it (" needs ...", ": ..."). */
static _Noreturn void bad_form(Parser *P, const PtxTok *mn, const char *what) {
  char buf[128];
  pp_fail(P, mn, "'%s'%s", pp_tok_str(mn, buf, sizeof buf), what);
}

/* What the opcode's row says it must have: a type (or two), a comparison,
 * its operation, .sync, a state space. */
static void required_modifiers(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  uint64_t mods = ptx_op[in->op].mods;
  if (!(mods & M_NOTYPE) && x->ntypes == 0) bad_form(P, mn, " needs a type (.u32, .f32, ...)");
  if ((mods & M_VIDEO) && x->ntypes != 3) bad_form(P, mn, " needs three types (d, a, b)");
  else if ((mods & M_TYPE2) && !(mods & M_VIDEO) && x->ntypes != 2) bad_form(P, mn, " needs two types");
  if ((mods & M_CMP) && !in->cmp) bad_form(P, mn, " needs a comparison (.eq, .lt, ...)");
  if ((mods & M_NEED_SUB) && !in->sub) bad_form(P, mn, " needs an operation modifier");
  if ((mods & M_NEED_SYNC) && !x->has_sync) bad_form(P, mn, " needs .sync");
  if ((mods & M_NEED_SPACE) && in->space == PTX_S_NONE) bad_form(P, mn, " needs a state space");
  if ((mods & M_SPACE) && in->space == PTX_S_NONE) in->space = PTX_S_GENERIC;
  if (in->type == PTX_T_PRED && !(ptx_op[in->op].flags & OPF_PRED) && !x->has_red)
    bad_form(P, mn, ": .pred is not a valid type here");
}

/* The forms of tex, tld4, suld, sust and txq (PTX ISA, "Texture
 * instructions" and "Surface instructions"). */
static void texture_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  int op = in->op, t = in->type, t2 = in->type2;
  int geom = in->sub >= PTX_SUB_TEX_1D && in->sub <= PTX_SUB_TEX_ACUBE;
  int cube = in->sub == PTX_SUB_TEX_CUBE || in->sub == PTX_SUB_TEX_ACUBE;
  if (op == PTX_OP_TXQ) {
    if (t != PTX_T_B32) bad_form(P, mn, ": txq is .b32");
    return;
  }
  if (!geom) bad_form(P, mn, " needs a geometry (.1d, .2d, .3d, .a1d or .a2d)");
  if (cube && op != PTX_OP_TEX) bad_form(P, mn, ": .cube and .acube are for tex only");
  if (cube && t2 != PTX_T_F32) bad_form(P, mn, ": a cubemap's coordinates are a .f32 direction");
  if (op == PTX_OP_TEX || op == PTX_OP_TLD4) {
    if (in->vec != 4) bad_form(P, mn, " needs .v4");
    if (t != PTX_T_F32 && t != PTX_T_S32 && t != PTX_T_U32)
      bad_form(P, mn, ": the result is .f32, .s32 or .u32 (.f16 results are not supported)");
    if (t2 != PTX_T_F32 && t2 != PTX_T_S32) bad_form(P, mn, ": the coordinates are .f32 or .s32");
    if (op == PTX_OP_TLD4 && ((in->sub != PTX_SUB_TEX_2D && in->sub != PTX_SUB_TEX_A2D) || t2 != PTX_T_F32))
      bad_form(P, mn, ": tld4 is .2d or .a2d with .f32 coordinates");
    if (op == PTX_OP_TLD4 && !x->tld4) bad_form(P, mn, " needs its channel (.r, .g, .b or .a)");
    if (op == PTX_OP_TEX && in->aux && t2 != PTX_T_F32) bad_form(P, mn, ": .level and .grad take .f32 coordinates");
    return;
  }
  if (!x->sufmt) bad_form(P, mn, " needs .b (or .p for sust)");
  if (op == PTX_OP_SULD && x->sufmt == 'p') bad_form(P, mn, ": suld.p is not a PTX instruction (suld.b is)");
  if (in->aux & PTX_SU_P) {
    if (t != PTX_T_B32 && t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_F32)
      bad_form(P, mn, ": sust.p stores .b32, .u32, .s32 or .f32");
  } else if (t != PTX_T_B8 && t != PTX_T_B16 && t != PTX_T_B32 && t != PTX_T_B64) {
    bad_form(P, mn, ": surface data is .b8, .b16, .b32 or .b64");
  }
}

/* The element types cp.reduce.async.bulk takes for each operation (the
 * PTX ISA's table; `global`: to global memory, else to shared::cluster). */
static int reduce_type_ok(unsigned sub, unsigned t, int global) {
  switch (sub) {
  case PTX_SUB_AADD:
    return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64 ||
           (global && (t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_BF16));
  case PTX_SUB_AMIN:
  case PTX_SUB_AMAX:
    return t == PTX_T_U32 || t == PTX_T_S32 || (global && (t == PTX_T_U64 || t == PTX_T_S64 || t == PTX_T_F16 ||
                                                            t == PTX_T_BF16));
  case PTX_SUB_AINC:
  case PTX_SUB_ADEC: return t == PTX_T_U32;
  default: return t == PTX_T_B32 || (global && t == PTX_T_B64); /* and, or, xor */
  }
}

/* The TMA instructions' dimensions and load mode. */
static void tma_rules(Parser *P, PtxInstr *in, const InstrCtx *x, int load) {
  const PtxTok *mn = x->mn;
  unsigned dims = PTX_TMA_DIMS(in->aux);
  if (!dims) bad_form(P, mn, " needs its dimensions (.1d to .5d)");
  if ((in->aux & PTX_TMA_IM2COL_NO_OFFS) && load) bad_form(P, mn, ": .im2col_no_offs is for stores and reductions");
  if ((in->aux & PTX_TMA_IM2COL) && !load) /* the ISA's own example writes .im2col on a reduction */
    in->aux = (uint8_t)((in->aux & ~PTX_TMA_IM2COL) | PTX_TMA_IM2COL_NO_OFFS);
  if ((in->aux & (PTX_TMA_IM2COL | PTX_TMA_IM2COL_NO_OFFS)) && dims < 3)
    bad_form(P, mn, ": the im2col modes need 3 to 5 dimensions");
}

/* cp{.reduce}.async.bulk{.tensor}: the direction its spaces say (one of
 * the PTX ISA's), its completion mechanism, and what it sets: space
 * SHARED (into shared memory) with sub BULK_STORE (to global) or BULK_DSM
 * (to a peer's shared memory) for the copies; space GLOBAL or SHARED (the
 * destination) for cp.reduce.async.bulk. */
static void bulk_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  int op = in->op, red = op == PTX_OP_CPREDUCE_BULK || op == PTX_OP_CPREDUCE_BULK_TENSOR;
  int tensor = op == PTX_OP_CPASYNC_BULK_TENSOR || op == PTX_OP_CPREDUCE_BULK_TENSOR;
  char d = (char)x->bulk_dst, s = (char)x->bulk_src;
  int load = (d == 'c' || d == 'k') && s == 'g', store = d == 'g' && s == 'c', dsm = d == 'k' && s == 'c';
  if (red ? !(store || (dsm && !tensor)) : !(load || store || (dsm && !tensor)))
    bad_form(P, mn, red ? (tensor ? " needs .global.shared::cta" : " needs .global.shared::cta or .shared::cluster.shared::cta")
                        : tensor ? " needs .shared::cluster.global (or .shared::cta.global) or .global.shared::cta"
                                 : " needs .shared::cluster.global, .shared::cluster.shared::cta or .global.shared::cta");
  if (x->async_mbar != (store ? 2 : 1)) bad_form(P, mn, store ? " needs .bulk_group" : " needs .mbarrier::complete_tx::bytes");
  if ((in->aux & PTX_TMA_MULTICAST) && !(load && d == 'k')) bad_form(P, mn, ": .multicast::cluster copies global to .shared::cluster");
  if (red && !in->sub) bad_form(P, mn, " needs its operation (.add, .min, .max, .inc, .dec, .and, .or, .xor)");
  if (op == PTX_OP_CPREDUCE_BULK && (x->ntypes != 1 || !reduce_type_ok(in->sub, in->type, store)))
    bad_form(P, mn, ": not an operation and type the PTX ISA lists for cp.reduce.async.bulk in that direction");
  if (tensor) tma_rules(P, in, x, load);
  in->space = op == PTX_OP_CPREDUCE_BULK && store ? PTX_S_GLOBAL : PTX_S_SHARED;
  if (!red && store) in->sub = PTX_SUB_BULK_STORE;
  if (!red && dsm) in->sub = PTX_SUB_BULK_DSM;
}

/* cp.async copies global to shared; mbarriers are .b64 (generic
 * addresses without a space). */
static void async_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  int op = in->op;
  if (op == PTX_OP_CPASYNC_BULK_WAIT) return;
  if (op == PTX_OP_CPASYNC_BULK_PREFETCH || op == PTX_OP_CPASYNC_BULK_PREFETCH_TENSOR) {
    if (!x->async_global) bad_form(P, mn, " needs .L2 and .global");
    if (op == PTX_OP_CPASYNC_BULK_PREFETCH_TENSOR) tma_rules(P, in, x, 1);
    in->space = PTX_S_GLOBAL;
    return;
  }
  if (is_bulk(op)) {
    bulk_rules(P, in, x);
    return;
  }
  if (ptx_op[op].mods & M_ASYNC) {
    if (in->space != PTX_S_SHARED || !x->async_global)
      bad_form(P, mn, " needs .shared and .global (global to shared)");
    if (op == PTX_OP_CPASYNC && !(in->flags & (PTX_IF_CA | PTX_IF_CG))) bad_form(P, mn, " needs .ca or .cg");
    return;
  }
  if (in->space == PTX_S_NONE) in->space = PTX_S_GENERIC;
  if (op != PTX_OP_CPASYNC_MBAR && in->type != PTX_T_B64) bad_form(P, mn, ": mbarrier objects are .b64");
  if (op == PTX_OP_CPASYNC_MBAR && in->type != PTX_T_B64) bad_form(P, mn, " needs .b64");
}

/* tensormap.replace: .tile, its field, .b1024, .b64 for the address and
 * strides (.b32 else), the map in .global, .shared::cta or generic memory;
 * tensormap.cp_fenceproxy: global from shared::cta. */
static void tmap_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  if (in->op == PTX_OP_TENSORMAP_CP) {
    if (x->bulk_dst != 'g' || x->bulk_src != 'c') bad_form(P, mn, " needs .global.shared::cta");
    in->space = PTX_S_GLOBAL;
    return;
  }
  if (x->tma_mode != 3 || !in->aux) bad_form(P, mn, " needs .tile, its field and .b1024");
  int wide = in->aux == PTX_TMAP_GLOBAL_ADDRESS || in->aux == PTX_TMAP_GLOBAL_STRIDE;
  if (in->type != (wide ? PTX_T_B64 : PTX_T_B32) || x->ntypes != 1)
    bad_form(P, mn, wide ? ": the address and strides are .b64" : ": this field is .b32");
  if (x->bulk_dst && x->bulk_src) bad_form(P, mn, ": the map is in .global or .shared::cta");
  in->space = x->bulk_dst ? PTX_S_GLOBAL : x->bulk_src ? PTX_S_SHARED : PTX_S_GENERIC;
}

/* The rules of single opcodes that no column of the table expresses. */
static void opcode_rules(Parser *P, PtxInstr *in, const InstrCtx *x) {
  const PtxTok *mn = x->mn;
  int op = in->op;
  if (op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_SULD || op == PTX_OP_SUST || op == PTX_OP_TXQ)
    texture_rules(P, in, x);
  if (op == PTX_OP_SHF) {
    if (!x->shf_dir || !x->shf_mode) bad_form(P, mn, " needs .l or .r and .wrap or .clamp");
    in->sub = x->shf_dir == 'l' ? (x->shf_mode == 'w' ? PTX_SUB_SHF_L_WRAP : PTX_SUB_SHF_L_CLAMP)
                                : (x->shf_mode == 'w' ? PTX_SUB_SHF_R_WRAP : PTX_SUB_SHF_R_CLAMP);
    if (in->type != PTX_T_B32) bad_form(P, mn, ": shf is .b32");
  }
  if (op == PTX_OP_BMSK || op == PTX_OP_SZEXT) { /* CUB's radix sort (sm_70+) */
    if (x->shf_dir || !x->shf_mode) bad_form(P, mn, " needs .wrap or .clamp");
    in->sub = x->shf_mode == 'w' ? PTX_SUB_WRAP : PTX_SUB_CLAMP;
    if (op == PTX_OP_BMSK && in->type != PTX_T_B32) bad_form(P, mn, ": bmsk is .b32");
    if (op == PTX_OP_SZEXT && in->type != PTX_T_U32 && in->type != PTX_T_S32) bad_form(P, mn, ": szext is .u32 or .s32");
  }
  if (op == PTX_OP_BFIND && in->type != PTX_T_U32 && in->type != PTX_T_U64 && in->type != PTX_T_S32 &&
      in->type != PTX_T_S64)
    bad_form(P, mn, ": bfind is .u32, .u64, .s32 or .s64");
  if (x->has_red) {
    if (!pp_is_bar_red(in)) bad_form(P, mn, " needs .popc, .and or .or");
    if (in->type != (in->sub == PTX_SUB_RED_POPC ? PTX_T_U32 : PTX_T_PRED) || x->ntypes != 1)
      bad_form(P, mn, ": bar.red.popc is .u32, bar.red.and/.or are .pred");
  }
  if ((op == PTX_OP_ATOM || op == PTX_OP_RED) && in->space != PTX_S_GENERIC && in->space != PTX_S_GLOBAL &&
      in->space != PTX_S_SHARED && in->space != PTX_S_CLUSTER)
    bad_form(P, mn, ": atomics work on .global, .shared or .shared::cluster");
  if ((op == PTX_OP_MUL || op == PTX_OP_MAD) && !ptx_type_is_float((PtxType)in->type) && !in->sub)
    in->sub = PTX_SUB_LO;
  if ((op == PTX_OP_MUL || op == PTX_OP_MAD) && ptx_type_is_float((PtxType)in->type) && in->sub)
    bad_form(P, mn, ": .lo/.hi/.wide are for integer types");
  if (in->sub == PTX_SUB_WIDE) in->type2 = in->type;
  unsigned xa = in->fmod & (PTX_FM_XORSIGN | PTX_FM_ABS);
  if (xa && xa != (PTX_FM_XORSIGN | PTX_FM_ABS))
    bad_form(P, mn, ": .xorsign and .abs go together (.xorsign.abs)");
  if (op == PTX_OP_VOTE && in->type != (in->sub == PTX_SUB_BALLOT ? PTX_T_B32 : PTX_T_PRED))
    bad_form(P, mn, ": vote.ballot is .b32, vote.all/any/uni are .pred");
  if (ptx_op[op].mods & M_MMA_MISC) pp_mma_rules(P, in, x);
  if (ptx_op[op].mods & M_WGMMA) pp_wgmma_rules(P, in, x);
  if (ptx_op[op].mods & (M_ASYNC | M_MBAR)) async_rules(P, in, x);
  if (ptx_op[op].mods & M_TMAP) tmap_rules(P, in, x);
}

/* operands := [operand ['|' operand] {',' operand}] ';' -- as written, into
 * raw[]; returns how many. */
static int operands(Parser *P, const PtxInstr *in, Opd *raw) {
  int n = 0;
  int tex = in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 || in->op == PTX_OP_SULD || in->op == PTX_OP_SUST ||
            in->op == PTX_OP_TXQ;
  if (ptx_op[in->op].shape == PTX_SH_TMA) tex = 2; /* [tensorMap, {coordinates}] */
  if (!pp_is_punct(pp_peek(P), ';')) {
    for (;;) {
      if (n == 8) pp_fail(P, pp_peek(P), "too many operands");
      int sink = n == 0 && (in->op == PTX_OP_MBAR_ARRIVE || in->op == PTX_OP_MBAR_ARRIVE_DROP || in->op == PTX_OP_ELECT);
      operand(P, &raw[n], in, in->op == PTX_OP_BRA, tex, sink);
      n++;
      if (n == 1 && pp_is_punct(pp_peek(P), '|')) {
        pp_next(P);
        operand(P, &raw[n], in, 0, tex, 0);
        raw[n++].pipe = 1;
      }
      if (!pp_accept(P, ",")) break;
    }
  }
  if (!pp_is_punct(pp_peek(P), ';')) pp_fail_expected(P, "';'");
  pp_next(P);
  return n;
}

/* Appends the checked instruction to the kernel: immediates converted to
 * the type of their position, labels noted for fixing up at the kernel's
 * end, shared memory for the layout (ptx_link.c). */
static void append(Parser *P, PtxInstr *in, Opd *fin, int nf) {
  PtxKernel *k = P->k;
  for (int i = 0; i < nf; i++) { /* may fail: before anything refers to idx */
    Opd *o = &fin[i];
    if (o->o.kind == PTX_O_IMM) o->o.imm = (int64_t)pp_num_value(P, o->tok, o->num, pp_opd_type(in, i));
    if (o->o.kind == PTX_O_REG && (o->o.reg[0] == PTX_NOREG)) pp_fail(P, o->tok, "bad register");
  }
  if (k->ncode >= PTX_MAX_INSTRS)
    pp_fail(P, pp_peek(P), "%s has more than %d instructions, warpmem's limit (docs/limits.md)", k->name,
            PTX_MAX_INSTRS);
  GROW(k->code, k->ncode, P->capcode);
  int idx = k->ncode;
  for (int i = 0; i < nf; i++) {
    Opd *o = &fin[i];
    if (o->o.kind == PTX_O_LABEL) {
      GROW(P->luses, P->nluses, P->capluses);
      P->luses[P->nluses++] = (LabelUse){idx, o->tok};
    }
    if (o->sym && o->sym->frame == SYM_ARG) {
      GROW(P->afix, P->nafix + 1, P->capafix);
      P->afix[P->nafix++] = idx;
      P->afix[P->nafix++] = i;
    }
    if (o->sym && o->sym->ext && o->sym->align > P->extern_align) P->extern_align = o->sym->align;
    if (o->sym && o->sym->space == PTX_S_SHARED && (o->sym->ext || o->sym->svar)) {
      GROW(k->sfix, k->nsfix, k->capsfix);
      k->sfix[k->nsfix++] = (PtxSharedFix){(uint32_t)idx, (uint8_t)i, o->sym->ext ? -1 : o->sym->svar - 1};
    }
    in->opd[i] = o->o;
  }
  in->nopd = (uint8_t)nf;
  k->code[k->ncode++] = *in;
}

/* In a device function, the address of a frame variable is its frame
 * register plus its offset: mov %rd, __local_depot3 becomes
 * add.u64 %rd, %frame, offset (see ptx_call.c). */
static int frame_address(Parser *P, PtxInstr *in, Opd *fin, int nf) {
  char buf[128];
  if (!P->k->is_func) return nf;
  for (int i = 0; i < nf; i++) {
    if (fin[i].o.kind != PTX_O_SYM || !fin[i].sym || !fin[i].sym->frame) continue;
    if (in->op != PTX_OP_MOV || i != 1 || nf != 2)
      pp_unsup(P, fin[i].tok, "the address of '%s' (a variable in a device function's frame) is only "
               "supported in mov", pp_tok_str(fin[i].tok, buf, sizeof buf));
    in->op = PTX_OP_ADD;
    in->type = PTX_T_U64;
    fin[2] = fin[1];
    fin[2].o.kind = PTX_O_IMM;
    fin[2].num.kind = NUM_INT;
    fin[2].num.neg = 0;
    fin[2].num.bits = (uint64_t)fin[1].o.imm;
    fin[1].o.kind = PTX_O_REG;
    fin[1].o.reg[0] = P->k->fp_slot;
    fin[1].rtype = PTX_T_B64;
    fin[1].sym = NULL;
    return 3;
  }
  return nf;
}

/* instruction := [guard] mnemonic operands */
static void instruction_body(Parser *P) {
  const PtxTok *start = pp_peek(P);
  char buf[128];
  PtxInstr in;
  memset(&in, 0, sizeof in);
  in.guard = PTX_NOREG;
  in.vec = 1;
  if (pp_is_punct(start, '@')) guard(P, &in);
  const PtxTok *mn = pp_peek(P);
  if (mn->kind != TK_WORD || mn->p[0] == '.' || mn->p[0] == '%')
    pp_fail(P, mn, "expected an instruction, found '%s'", pp_tok_str(mn, buf, sizeof buf));
  pp_next(P);
  InstrCtx x = {.mn = mn};
  mnemonic(P, &in, &x);
  required_modifiers(P, &in, &x);
  opcode_rules(P, &in, &x);

  in.flags |= P->next_flags;
  P->next_flags = 0;
  in.ptx_line = start->line;
  in.ptx_col = (uint16_t)(start->col > 0xffff ? 0xffff : start->col);
  in.cu_file = P->cur_file;
  in.cu_line = P->cur_line;
  in.cu_file_inner = P->cur_file_inner;
  in.cu_line_inner = P->cur_line_inner;
  in.text = (uint32_t)(start->p - P->src);

  Opd raw[8], fin[PTX_MAX_OPD];
  memset(fin, 0, sizeof fin);
  int nf;
  if (in.op == PTX_OP_CALL) {
    nf = pp_call_operands(P, &in, fin);
  } else {
    int n = operands(P, &in, raw);
    nf = pp_shape(P, &in, &x, raw, n, fin);
  }
  nf = frame_address(P, &in, fin, nf);
  append(P, &in, fin, nf);
}

/* An instruction; one that warpmem does not run (an unknown opcode or
 * modifier, call, a special register we lack, ...) marks the kernel with its
 * located message, and parsing goes on after its ';'.  Malformed input still
 * fails the module: the instruction must at least end with a ';'. */
void pp_instruction(Parser *P) {
  int end = P->pos, depth = 0; /* the ';', or where one is missing */
  for (; P->toks[end].kind != TK_EOF; end++) {
    const PtxTok *t = &P->toks[end];
    if (t->kind != TK_PUNCT) continue;
    if (t->p[0] == ';') break;
    if (t->p[0] == '(' || t->p[0] == '[' || t->p[0] == '{') depth++;
    if ((t->p[0] == ')' || t->p[0] == ']' || t->p[0] == '}') && depth-- == 0) break;
  }
  P->instr_end = end;
  if (setjmp(P->ijb)) {
    P->defer = 0;
    P->pos = P->instr_end;
    if (!pp_is_punct(pp_peek(P), ';')) pp_fail_expected(P, "';'");
    pp_next(P);
    return;
  }
  P->defer = 1;
  instruction_body(P);
  P->defer = 0;
}
