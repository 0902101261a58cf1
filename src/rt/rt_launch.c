/* rt_launch.c - a kernel launch of the application: its configuration
 * checked as CUDA checks it, its parameter buffer built from the PTX
 * kernel's .param list, then sim_run_bound on the context's memory,
 * profiled or functional (rt_select.c); a fault becomes CUDA's sticky
 * error.  Also what the application may ask of a kernel: its attributes
 * and its occupancy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check.h"
#include "rt/rt_int.h"

static const Arch *ctx_arch(void) { return rtx.cfg.o.cfg.arch ? rtx.cfg.o.cfg.arch : arch_default(); }

static uint64_t dim_product(const uint32_t d[3]) { return (uint64_t)d[0] * d[1] * d[2]; }

/* Whether a block of `threads` fits one SM with its registers (ptxas's
 * count; unknown: not checked), as the occupancy calculator says. */
static int block_fits(const RtFunction *f, uint64_t threads, uint32_t smem) {
  if (f->k->regs <= 0) return 1;
  OccInput in = {.threads = (int)threads, .regs = f->k->regs, .smem = smem, .carveout_pct = f->carveout};
  OccResult res;
  WmErr e = {0};
  return occ_compute(ctx_arch(), &in, &res, &e) == 0 && res.blocks_sm > 0;
}

/* cudaErrorLaunchOutOfResources for a block whose registers exceed the
 * SM's, as CUDA refuses it. */
static RtError check_registers(RtFunction *f, uint64_t threads, uint32_t smem, char *why, size_t n) {
  rtx_module_regs(f->m);
  if (block_fits(f, threads, smem)) return RT_SUCCESS;
  snprintf(why, n, "too many resources requested for launch: %llu threads of %d registers (ptxas) do not fit "
           "one SM of %s (%d registers per block)", (unsigned long long)threads, f->k->regs, ctx_arch()->name,
           ctx_arch()->regs_block);
  return RT_ERR_LAUNCH_OUT_OF_RESOURCES;
}

/* CUDA's checks of a launch configuration before anything runs: zero or
 * too large dimensions are cudaErrorInvalidConfiguration, shared memory
 * beyond the 48 KiB default (without the function's opt-in attribute) or
 * the opt-in maximum cudaErrorInvalidValue. */
static RtError check_config(RtFunction *f, const RtLaunchConfig *c, char *why, size_t n) {
  const Arch *a = ctx_arch();
  ArchLimits L = arch_limits(a);
  uint64_t threads = dim_product(c->block);
  if (!dim_product(c->grid) || !threads) {
    snprintf(why, n, "invalid configuration: a grid or block dimension is 0");
    return RT_ERR_INVALID_CONFIGURATION;
  }
  if (threads > L.block_threads || c->block[0] > L.block_xy || c->block[1] > L.block_xy || c->block[2] > L.block_z) {
    snprintf(why, n, "invalid configuration: block (%u,%u,%u) is over %s's limits (%u threads, %u x %u x %u)",
             c->block[0], c->block[1], c->block[2], a->name, L.block_threads, L.block_xy, L.block_xy, L.block_z);
    return RT_ERR_INVALID_CONFIGURATION;
  }
  if (c->grid[0] > L.grid_x || c->grid[1] > L.grid_yz || c->grid[2] > L.grid_yz) {
    snprintf(why, n, "invalid configuration: grid (%u,%u,%u) is over %s's limits (%u x %u x %u)", c->grid[0],
             c->grid[1], c->grid[2], a->name, L.grid_x, L.grid_yz, L.grid_yz);
    return RT_ERR_INVALID_CONFIGURATION;
  }
  uint64_t smem = (uint64_t)f->k->shared_static + c->smem;
  uint64_t allowed = c->smem <= (uint32_t)f->max_dyn_smem ? L.smem_block : (uint64_t)a->smem_block;
  if (smem > allowed) {
    snprintf(why, n,
             "%llu bytes of shared memory per block (%u static, %u dynamic) are over the %llu allowed%s",
             (unsigned long long)smem, f->k->shared_static, c->smem, (unsigned long long)allowed,
             allowed < L.smem_block ? ": beyond 48 KiB, set cudaFuncAttributeMaxDynamicSharedMemorySize" : "");
    return RT_ERR_INVALID_VALUE;
  }
  return check_registers(f, threads, (uint32_t)smem, why, n);
}

/* A new launch record (in rtx.launches, valid until the next). */
static RtLaunchRec *new_record(RtFunction *f, const RtLaunchConfig *c) {
  if (rtx.nlaunches == rtx.caplaunches) {
    rtx.caplaunches = rtx.caplaunches ? 2 * rtx.caplaunches : 64;
    rtx.launches = wm_xrealloc(rtx.launches, (size_t)rtx.caplaunches * sizeof *rtx.launches);
  }
  RtLaunchRec *r = &rtx.launches[rtx.nlaunches++];
  memset(r, 0, sizeof *r);
  r->f = f;
  snprintf(r->label, sizeof r->label, "%.140s#%d", f->base, rtx.nlaunches);
  memcpy(r->grid, c->grid, sizeof r->grid);
  memcpy(r->block, c->block, sizeof r->block);
  r->smem = c->smem;
  return r;
}

/* The cluster a launch of f with c runs: c's, else f's set one (0s: the
 * kernel's __cluster_dims__, or none). */
static const uint32_t *launch_cluster(const RtFunction *f, const RtLaunchConfig *c) {
  return c->cluster[0] ? c->cluster : f->cluster;
}

/* CUDA's error for a launch that failed in the emulator; sticky for faults.
 * A refused cluster launch (emu_cluster_resolve, sim's check_cluster) is
 * cudaErrorInvalidClusterSize. */
static RtError launch_error(const WmErr *e, const RtLaunchConfig *c, const RtFunction *f) {
  int cluster = launch_cluster(f, c)[0] || (f->k && f->k->cluster_dims[0]) || (f->k && f->k->explicit_cluster);
  if (e->code == WM_ELIMIT && cluster && strstr(e->msg, "cluster")) return RT_ERR_INVALID_CLUSTER_SIZE;
  switch (e->code) {
  case WM_EFAULT: rtx_set_sticky(RT_ERR_ILLEGAL_ADDRESS); return RT_ERR_ILLEGAL_ADDRESS;
  case WM_EASSERT: rtx_set_sticky(RT_ERR_ASSERT); return RT_ERR_ASSERT; /* as CUDA: the context is lost */
  case WM_EARITH:
  case WM_EDEADLOCK: rtx_set_sticky(RT_ERR_LAUNCH_FAILURE); return RT_ERR_LAUNCH_FAILURE;
  case WM_EWATCHDOG: rtx_set_sticky(RT_ERR_LAUNCH_TIMEOUT); return RT_ERR_LAUNCH_TIMEOUT;
  case WM_ELIMIT: return c->cooperative ? RT_ERR_COOPERATIVE_TOO_LARGE : RT_ERR_LAUNCH_OUT_OF_RESOURCES;
  case WM_EUNSUP: return RT_ERR_NOT_SUPPORTED;
  case WM_EARGS: return RT_ERR_INVALID_VALUE;
  default: return RT_ERR_UNKNOWN;
  }
}

/* A profiled launch's time, kept for its repeats. */
static void remember_time(RtFunction *f, const RtLaunchConfig *c, double ns) {
  memcpy(f->timed_grid, c->grid, sizeof f->timed_grid);
  memcpy(f->timed_block, c->block, sizeof f->timed_block);
  f->timed_smem = c->smem;
  f->timed_ns = ns;
}

/* What a functional launch adds to the device clock: the time of the
 * launch of f it repeats (the same grid, block and shared memory), or the
 * launch overhead alone. */
static double repeat_ns(const RtFunction *f, const RtLaunchConfig *c) {
  int same = f->timed_ns > 0 && !memcmp(f->timed_grid, c->grid, sizeof f->timed_grid) &&
             !memcmp(f->timed_block, c->block, sizeof f->timed_block) && f->timed_smem == c->smem;
  return same ? f->timed_ns : ctx_arch()->launch_ns;
}

/* Runs rec's launch in the emulator (the lock held). */
static RtError run_bound(RtFunction *f, const RtLaunchConfig *c, const uint8_t *params, RtLaunchRec *rec) {
  LaunchSpec *ls = wm_xcalloc(1, sizeof *ls);
  snprintf(ls->name, sizeof ls->name, "%s", f->name);
  snprintf(ls->label, sizeof ls->label, "%s", rec->label);
  memcpy(ls->grid, c->grid, sizeof ls->grid);
  memcpy(ls->block, c->block, sizeof ls->block);
  ls->smem = c->smem;
  ls->cooperative = c->cooperative;
  memcpy(ls->cluster, launch_cluster(f, c), sizeof ls->cluster);
  ls->cluster_nonportable = f->nonportable;
  SimBound b = {.gmem = &rtx.g, .params = params, .const_mem = f->m->const_mem, .global_base = f->m->gbase,
                .functional = !rec->profiled};
  SimOptions o = rtx.cfg.o;
  o.carveout_pct = f->carveout;
  WmErr e = {0};
  fflush(stdout); /* device printf follows the host's output */
  if (rtx.check) emu_check_launch(rtx.check);
  int rc = sim_run_bound(f->m->mod, ls, &b, &o, &rec->run, &e);
  fflush(stdout);
  free(ls);
  if (rc && rtx.check && wm_kernel_fault(e.code))
    emu_check_fault(rtx.check, f->name, &e);
  if (rc) {
    rec->status = report_status_of(e.code);
    rec->error = wm_xstrdup(e.msg);
    sim_run_free(&rec->run);
    return launch_error(&e, c, f);
  }
  rec->ns = rec->profiled && rec->run.have_time ? rec->run.time.ns : repeat_ns(f, c);
  if (rec->profiled && rec->run.have_time) remember_time(f, c, rec->ns);
  rtx.clock_ns += rec->ns;
  if (!rec->profiled) sim_run_free(&rec->run);
  return RT_SUCCESS;
}

/* Checks, selects and runs a launch of f with its parameter buffer. */
static RtError launch_params(RtFunction *f, const RtLaunchConfig *c, const uint8_t *params) {
  RtLaunchRec *rec = new_record(f, c);
  int n = rtx.nlaunches;
  char why[512] = "";
  RtError r = RT_SUCCESS;
  if (!f->m->mod) {
    r = f->m->error_code;
    snprintf(why, sizeof why, "%s", f->m->error);
  } else if (!f->k) {
    r = RT_ERR_INVALID_DEVICE_FUNCTION;
    snprintf(why, sizeof why, "%s has no kernel %s", f->m->name, f->name);
  } else {
    r = check_config(f, c, why, sizeof why);
  }
  if (r) {
    rec->status = REPORT_REFUSED;
    rec->error = wm_xstrdup(why);
    rtx_progress(rec, n);
    return r;
  }
  rec->profiled = rtx_select(f);
  rtx_module_fused(f->m); /* every launch computes as ptxas's code does */
  if (rec->profiled || c->cooperative) rtx_module_regs(f->m); /* occupancy: the report, the grid's limit */
  r = run_bound(f, c, params, rec);
  rtx_progress(rec, n);
  return r;
}

/* The function f if valid and its stream, else an error. */
static RtError launch_args_ok(RtFunction *f, const RtLaunchConfig *c) {
  if (!rtx_function(f)) return RT_ERR_INVALID_DEVICE_FUNCTION;
  if (!c) return RT_ERR_INVALID_VALUE;
  if (rt_stream_check(c->stream)) return RT_ERR_INVALID_HANDLE;
  return RT_SUCCESS;
}

/* f's parameter buffer from args (args[i] points to parameter i's value). */
static RtError pack(RtFunction *f, void **args, uint8_t *params) {
  const PtxKernel *k = f->k;
  for (int i = 0; k && i < k->nparams; i++) {
    if (!args || !args[i]) {
      rtx_say("launch of %s: no value for parameter %d (%s)", f->name, i, k->params[i].name);
      return RT_ERR_INVALID_VALUE;
    }
    memcpy(params + k->params[i].offset, args[i], k->params[i].size);
  }
  return RT_SUCCESS;
}

RtError rt_launch(RtFunction *f, const RtLaunchConfig *c, void **args) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if ((r = launch_args_ok(f, c))) return rtx_leave(r);
  uint8_t *params = wm_xcalloc(f->k ? f->k->param_size + 8 : 8, 1);
  if (!(r = pack(f, args, params))) r = launch_params(f, c, params);
  free(params);
  return rtx_leave(r);
}

RtError rt_function_pack(RtFunction *f, void **args, void *buf, size_t size) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!rtx_function(f) || !f->k) return rtx_leave(RT_ERR_INVALID_DEVICE_FUNCTION);
  if (!buf || size != f->k->param_size) return rtx_leave(RT_ERR_INVALID_VALUE);
  return rtx_leave(pack(f, args, buf));
}

RtError rt_launch_packed(RtFunction *f, const RtLaunchConfig *c, const void *params, size_t size) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if ((r = launch_args_ok(f, c))) return rtx_leave(r);
  if (f->k && (size != f->k->param_size || (size && !params))) {
    rtx_say("launch of %s: a parameter buffer of %zu bytes, the kernel's has %u", f->name, size, f->k->param_size);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  uint8_t *buf = wm_xcalloc(size + 8, 1);
  if (size) memcpy(buf, params, size);
  r = launch_params(f, c, buf);
  free(buf);
  return rtx_leave(r);
}

/* Registers per thread of f: ptxas's count, else an assumed 32. */
static int function_regs(RtFunction *f) {
  rtx_module_regs(f->m);
  return f->k->regs > 0 ? f->k->regs : 32;
}

RtError rt_function_info(RtFunction *f, RtFuncInfo *out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!rtx_function(f) || !f->k) return rtx_leave(RT_ERR_INVALID_DEVICE_FUNCTION);
  if (!out) return rtx_leave(RT_ERR_INVALID_VALUE);
  const Arch *a = ctx_arch();
  const PtxKernel *k = f->k;
  memset(out, 0, sizeof *out);
  out->name = f->name;
  out->shared_static = k->shared_static;
  out->local_size = k->local_size;
  out->const_size = f->m->mod->const_size;
  out->param_size = k->param_size;
  out->regs = function_regs(f);
  out->max_threads = a->max_threads_block;
  while (out->max_threads > a->warp_size && !block_fits(f, (uint64_t)out->max_threads, k->shared_static))
    out->max_threads -= a->warp_size; /* what its registers allow */
  uint64_t ntid = k->maxntid[0] ? dim_product(k->maxntid) : k->reqntid[0] ? dim_product(k->reqntid) : 0;
  if (ntid && ntid < (uint64_t)out->max_threads) out->max_threads = (int)ntid;
  out->max_dynamic_smem = f->max_dyn_smem;
  out->carveout_pct = f->carveout;
  memcpy(out->cluster, k->cluster_dims[0] ? k->cluster_dims : f->cluster, sizeof out->cluster);
  out->cluster_must = k->explicit_cluster;
  out->nonportable = f->nonportable;
  out->cluster_policy = f->cluster_policy;
  /* the virtual architecture it was compiled for, as CUDA gives it: 90 for
   * compute_90 (CUB reads its PTX version from here) */
  const char *tg = f->m->mod->target;
  out->ptx_version = !strncmp(tg, "sm_", 3) ? atoi(tg + 3) : a->cc;
  out->binary_version = a->cc;
  return rtx_leave(RT_SUCCESS);
}

RtError rt_function_set_attribute(RtFunction *f, RtFuncAttr which, int value) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!rtx_function(f) || !f->k) return rtx_leave(RT_ERR_INVALID_DEVICE_FUNCTION);
  ArchLimits L = arch_limits(ctx_arch());
  if (which == RT_FATTR_MAX_DYNAMIC_SMEM) {
    if (value < 0 || (uint64_t)value + f->k->shared_static > L.smem_block) return rtx_leave(RT_ERR_INVALID_VALUE);
    f->max_dyn_smem = value;
  } else if (which == RT_FATTR_CARVEOUT) {
    if (value < -1 || value > 100) return rtx_leave(RT_ERR_INVALID_VALUE);
    f->carveout = value < 0 ? OCC_CARVEOUT_DEFAULT : value;
  } else if (which >= RT_FATTR_CLUSTER_X && which <= RT_FATTR_CLUSTER_Z) {
    /* "if the value is set during compile time, it cannot be set at
     * runtime" (CUDA runtime API, cudaFuncAttributeRequiredClusterWidth) */
    if (f->k->cluster_dims[0]) return rtx_leave(RT_ERR_NOT_PERMITTED);
    if (value < 0 || value > EMU_CLUSTER_MAX) return rtx_leave(RT_ERR_INVALID_VALUE);
    f->cluster[which - RT_FATTR_CLUSTER_X] = (uint32_t)value;
  } else if (which == RT_FATTR_NONPORTABLE) {
    f->nonportable = value != 0;
  } else if (which == RT_FATTR_CLUSTER_POLICY) {
    if (value < 0 || value > 2) return rtx_leave(RT_ERR_INVALID_VALUE);
    f->cluster_policy = value; /* spread or load-balance: the emulator places clusters one way */
  } else {
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  return rtx_leave(RT_SUCCESS);
}

RtError rt_occupancy(RtFunction *f, int block_threads, size_t dynamic_smem, int *blocks_per_sm) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!rtx_function(f) || !f->k) return rtx_leave(RT_ERR_INVALID_DEVICE_FUNCTION);
  if (!blocks_per_sm || block_threads <= 0 || dynamic_smem > UINT32_MAX) return rtx_leave(RT_ERR_INVALID_VALUE);
  OccInput in = {.threads = block_threads, .regs = function_regs(f),
                 .smem = f->k->shared_static + (uint32_t)dynamic_smem, .carveout_pct = f->carveout};
  OccResult res;
  WmErr e = {0};
  *blocks_per_sm = occ_compute(ctx_arch(), &in, &res, &e) == 0 ? res.blocks_sm : 0;
  return rtx_leave(RT_SUCCESS);
}

/* Long because it is one check after another, as the driver makes them. */
RtError rt_cluster_occupancy(RtFunction *f, const RtLaunchConfig *c, int potential, int *out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!rtx_function(f) || !f->k) return rtx_leave(RT_ERR_INVALID_DEVICE_FUNCTION);
  if (!c || !out) return rtx_leave(RT_ERR_INVALID_VALUE);
  const Arch *a = ctx_arch();
  uint64_t threads = dim_product(c->block);
  if (!threads || threads > (uint64_t)a->max_threads_block) return rtx_leave(RT_ERR_INVALID_VALUE);
  OccInput in = {.threads = (int)threads, .regs = function_regs(f), .smem = f->k->shared_static + c->smem,
                 .carveout_pct = f->carveout};
  OccResult res;
  WmErr e = {0};
  int bps = occ_compute(a, &in, &res, &e) == 0 ? res.blocks_sm : 0;
  int most = f->nonportable ? EMU_CLUSTER_MAX : 8;
  if (a->cc < 90) return rtx_leave(RT_ERR_NOT_SUPPORTED);
  if (potential) { /* the largest size of which one cluster fits */
    *out = 0;
    for (int n = most; n >= 1 && !*out; n--)
      if (occ_active_clusters(a, bps, n, NULL) > 0) *out = n;
    return rtx_leave(RT_SUCCESS);
  }
  const uint32_t *d = c->cluster[0] ? c->cluster : f->k->cluster_dims[0] ? f->k->cluster_dims : f->cluster;
  uint64_t n = d[0] ? dim_product(d) : 1;
  if (n > (uint64_t)most) return rtx_leave(RT_ERR_INVALID_CLUSTER_SIZE);
  *out = occ_active_clusters(a, bps, (int)n, NULL);
  return rtx_leave(RT_SUCCESS);
}
