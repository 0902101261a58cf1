/* rt_life.c - the context's end: cudaDeviceReset, the reports when the
 * process exits (the library's destructor runs after the application's
 * atexit handlers and static destructors), and rt_shutdown for tests. */
#include <stdio.h>

#include "rt/rt_int.h"
#include "sim/sim_mpi.h"

#pragma weak sim_mpi_stop /* as sim_mpi_start in rt_ctx.c */
#include "rt/rt_tex.h"

RtError rt_device_reset(void) {
  RtError r = rtx_enter(0);
  if (r) return r;
  fflush(stdout);
  rtx_mem_free_all();
  rtx_streams_free();
  rtx.sticky = RT_SUCCESS;
  rt_set_last_error(RT_SUCCESS);
  return rtx_leave(RT_SUCCESS);
}

void rt_shutdown(void) {
  rt_init();
  rtx_lock();
  if (!rtx.init_error) {
    rtx_launches_free();
    rtx_streams_free();
    rtx_modules_free();
  }
  rtx_tex_free();
  rtx_ctx_free();
  rtx_unlock();
}

/* The reports at exit, if no module's unregistration wrote them first;
 * nothing is freed (the process is going, and the application may still
 * touch its memory from other destructors). */
__attribute__((destructor)) static void rt_at_exit(void) {
  if (rtx.inited && !rtx.init_error) rt_report_flush();
  if (rtx.inited && !rtx.init_error && rtx.check) rtx_check_flush();
  if (rtx.inited && sim_mpi_stop) sim_mpi_stop(0); /* under mpirun: every rank ends together */
}
