/* rt_ctx.c - the process's one device context: made on first use from the
 * environment, guarded by one recursive lock (a front end may call one
 * rt_* function from another), with CUDA's two kinds of error state: the
 * last error of each thread, and the sticky error of a faulted kernel. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_check.h"
#include "rt/rt_int.h"
#include "sim/sim_mpi.h"

/* sim_mpi.c is linked into libwarpmem_rt.so (and the warpmem command), not
 * into the core library the unit tests link: absent there. */
#pragma weak sim_mpi_start

RtCtx rtx;

static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock;
static _Thread_local RtError last_error;

static void lock_init(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&lock, &a);
  pthread_mutexattr_destroy(&a);
}

void rtx_say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout); /* the application's output first, as it printed it */
  fputs("==WARPMEM== ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Makes the context (the lock held). */
static void ctx_make(void) {
  char err[512] = "";
  memset(&rtx, 0, sizeof rtx);
  rtx.inited = 1;
  rtx.printf_fifo = 1u << 20;
  if (rtx_env_read(&rtx.cfg, err, sizeof err)) {
    rtx_say("error: %s; every CUDA call fails with cudaErrorInitializationError", err);
    rtx.init_error = RT_ERR_INITIALIZATION;
    return;
  }
  gmem_init_unified(&rtx.g, rtx.cfg.o.mem_limit);
  if (rtx.cfg.check_path) rtx.cfg.o.check = rtx.check = emu_check_new(0);
  rtx.pid = (long)getpid();
  WmErr e = {0}; /* under mpirun, the ranks shard each launch (docs/mpi.md) */
  if (sim_mpi_start && sim_mpi_start(&e) < 0) {
    rtx_say("error: %s; every CUDA call fails with cudaErrorInitializationError", e.msg);
    rtx.init_error = RT_ERR_INITIALIZATION;
  }
}

RtError rt_init(void) {
  pthread_once(&lock_once, lock_init);
  pthread_mutex_lock(&lock);
  if (!rtx.inited) ctx_make();
  RtError r = rtx.init_error;
  pthread_mutex_unlock(&lock);
  return r;
}

RtError rtx_enter(int sticky) {
  RtError r = rt_init();
  if (r) return last_error = r;
  pthread_mutex_lock(&lock);
  if (sticky && rtx.sticky) {
    r = last_error = rtx.sticky;
    pthread_mutex_unlock(&lock);
  }
  return r;
}

void rtx_lock(void) {
  pthread_once(&lock_once, lock_init);
  pthread_mutex_lock(&lock);
}

void rtx_unlock(void) { pthread_mutex_unlock(&lock); }

RtError rtx_leave(RtError r) {
  if (r) last_error = r;
  pthread_mutex_unlock(&lock);
  return r;
}

const Arch *rt_arch(void) {
  rt_init();
  return rtx.cfg.o.cfg.arch ? rtx.cfg.o.cfg.arch : arch_default();
}

ArchLimits rt_arch_limits(void) { return arch_limits(rt_arch()); }

RtError rt_get_last_error(void) {
  if (rt_init()) return RT_ERR_INITIALIZATION;
  RtError r = last_error;
  last_error = rtx.sticky;
  return r ? r : rtx.sticky;
}

RtError rt_peek_last_error(void) {
  if (rt_init()) return RT_ERR_INITIALIZATION;
  return last_error ? last_error : rtx.sticky;
}

RtError rt_set_last_error(RtError e) { return last_error = e; }

RtError rt_sticky_error(void) {
  if (rt_init()) return RT_ERR_INITIALIZATION;
  return rtx.sticky;
}

void rtx_set_sticky(RtError e) {
  if (!rtx.sticky) rtx.sticky = e;
  last_error = rtx.sticky;
}

/* The names said already, so that each is said once. */
#define RT_MAX_UNSUPPORTED 256
static const char *said[RT_MAX_UNSUPPORTED];
static int nsaid;

RtError rt_unsupported(const char *name) {
  rt_init();
  pthread_mutex_lock(&lock);
  int seen = 0;
  for (int i = 0; i < nsaid && !seen; i++) seen = !strcmp(said[i], name);
  if (!seen) {
    if (nsaid < RT_MAX_UNSUPPORTED) said[nsaid++] = name;
    rtx_say("%s is not supported by warpmem run: it returns cudaErrorNotSupported", name);
  }
  return rtx_leave(RT_ERR_NOT_SUPPORTED);
}

RtError rt_device_sync(void) {
  RtError r = rtx_enter(1);
  if (r) return r;
  fflush(stdout);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_set_limit(RtLimit which, uint64_t value) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (which == RT_LIMIT_STACK) {
    if (value < 16 || value > (1u << 20)) r = RT_ERR_INVALID_VALUE;
    else rtx.cfg.o.stack_size = (uint32_t)value;
  } else if (which == RT_LIMIT_HEAP) {
    /* the heap is made by the first launch that uses it, then fixed */
    if (rtx.g.heap.size) r = RT_ERR_INVALID_VALUE;
    else if (value < 16) r = RT_ERR_INVALID_VALUE;
    else rtx.cfg.o.heap_size = value;
  } else if (which == RT_LIMIT_PRINTF_FIFO) {
    rtx.printf_fifo = value;
  } else if ((unsigned)which < RT_LIMIT_COUNT) {
    rtx.limit[which] = value; /* kept as set: no granularity to round to here */
  } else {
    r = RT_ERR_UNSUPPORTED_LIMIT;
  }
  return rtx_leave(r);
}

/* The defaults of the limits without effect: CUDA's documented ones (sync
 * depth 2, 2048 pending launches), none persisting; the L2 fetch
 * granularity assumed 64 bytes. */
static uint64_t limit_default(RtLimit which) {
  switch (which) {
  case RT_LIMIT_SYNC_DEPTH: return 2;
  case RT_LIMIT_PENDING_LAUNCHES: return 2048;
  case RT_LIMIT_L2_FETCH: return 64;
  default: return 0;
  }
}

RtError rt_get_limit(RtLimit which, uint64_t *value) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!value) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (which == RT_LIMIT_STACK) *value = rtx.cfg.o.stack_size ? rtx.cfg.o.stack_size : 1024;
  else if (which == RT_LIMIT_HEAP) *value = rtx.g.heap.size ? rtx.g.heap.size
                                           : rtx.cfg.o.heap_size ? rtx.cfg.o.heap_size : GHEAP_DEFAULT_SIZE;
  else if (which == RT_LIMIT_PRINTF_FIFO) *value = rtx.printf_fifo;
  else if ((unsigned)which < RT_LIMIT_COUNT) *value = rtx.limit[which] ? rtx.limit[which] : limit_default(which);
  else r = RT_ERR_UNSUPPORTED_LIMIT;
  return rtx_leave(r);
}

double rt_clock_ns(void) {
  if (rtx_enter(0)) return 0;
  double t = rtx.clock_ns;
  rtx_leave(RT_SUCCESS);
  return t;
}

void rtx_ctx_free(void) {
  if (rtx.inited && !rtx.init_error) gmem_free(&rtx.g);
  rtx_env_free(&rtx.cfg);
  emu_check_free(rtx.check);
  memset(&rtx, 0, sizeof rtx);
  last_error = RT_SUCCESS;
  nsaid = 0;
}
