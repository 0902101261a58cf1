/* emu_watch.c - the watchdog: a launch that runs more warp instructions
 * than its budget (--max-instructions) or longer than its wall-clock limit
 * (--timeout) is stopped with a located error, instead of running forever.
 *
 * Notes:
 *  - The spin watch (emu_sched.c) stops a kernel whose warps all wait for
 *    memory nobody changes; a loop whose registers change (a counter beside
 *    the flag it polls, for (;;) i++) is not a spin, and only this budget
 *    ends it.
 *  - Cost: emu_run_pass adds what a pass ran to the block's pending count
 *    and calls emu_watch_look only when `every` instructions have gathered
 *    (an atomic add and a clock read per 64 Ki warp instructions); the
 *    per-instruction loop is untouched.  Under a small budget the warps'
 *    slice shrinks to it, so that one slice cannot overshoot it by much; a
 *    launch that finishes within its budget never meets a shorter slice, so
 *    its counters do not change.
 *  - Every host thread that runs blocks looks at the shared state, so a
 *    stop reaches all of them within `every` instructions; each stops its
 *    block where it is (emu_block_run returns -1 with b->stopped set), and
 *    the launch's error lists those blocks' warps.
 */
#include <stdio.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "util/sys.h"

#define EMU_WATCH_EVERY (1u << 16)
#define EMU_WATCH_SHOWN 4 /* warps whose place the message gives */

void emu_watch_init(EmuWatch *w, const EmuLaunch *l) {
  memset(w, 0, sizeof *w);
  w->limit = l->max_instrs ? l->max_instrs : EMU_MAX_INSTRS_DEFAULT;
  w->every = w->limit / 16 < EMU_WATCH_EVERY ? w->limit / 16 + 1 : EMU_WATCH_EVERY;
  w->timeout = l->timeout > 0 ? l->timeout : 0;
  w->start = wm_now();
}

void emu_watch_attach(EmuWatch *w, Block *b) {
  b->watch = w;
  b->slice = w->limit < EMU_SLICE ? (uint32_t)w->limit + 1 : EMU_SLICE;
}

int emu_watch_look(Block *b) {
  EmuWatch *w = b->watch;
  uint64_t used = __atomic_add_fetch(&w->used, b->watch_pending, __ATOMIC_RELAXED);
  b->watch_pending = 0;
  int why = used > w->limit ? EMU_WATCH_INSTRS : w->timeout && wm_now() - w->start > w->timeout ? EMU_WATCH_TIME : 0;
  if (why) {
    int none = 0;
    __atomic_compare_exchange_n(&w->stop, &none, why, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  }
  if (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) return 0;
  b->stopped = 1;
  return 1;
}

/* Where warp wi of b is: "block (x,y,z) warp W (thread (x,y,z)): FILE.cu:LINE,
 * PTX FILE:LINE: INSTRUCTION", and what it does there. */
static void warp_place(const Block *b, uint32_t wi, char *buf, size_t n) {
  const Warp *w = &b->warps[wi];
  uint32_t pc = w->state == W_WAIT ? w->bar_pc : w->sp > 0 ? w->stack[w->sp - 1].pc : (uint32_t)b->p->ncode;
  uint32_t mask = w->sp > 0 ? w->stack[w->sp - 1].mask : w->exists;
  uint32_t t[3];
  thread_of(b, (int)wi, mask ? __builtin_ctz(mask) : 0, t);
  int len = snprintf(buf, n, "\n  block (%u,%u,%u) warp %u (thread (%u,%u,%u))", b->ctaid[0], b->ctaid[1],
                     b->ctaid[2], wi, t[0], t[1], t[2]);
  if (len < 0 || (size_t)len >= n || pc >= (uint32_t)b->p->ncode) return;
  const PtxInstr *in = &b->p->k->code[pc];
  char cu[300], ptxw[512], text[200];
  emu_cu_where(b->m, in, cu, sizeof cu);
  emu_ptx_where(b->m, in->ptx_line, ptxw, sizeof ptxw);
  ptx_instr_text(b->m, in, text, sizeof text);
  snprintf(buf + len, n - (size_t)len, "%s: %s%s%s: %s", w->state == W_WAIT ? " waits at a barrier" : " is at",
           cu, cu[0] ? ", " : "", ptxw, text);
}

/* Whether a warp of b before wi is still running. */
static int warps_before_block(const Block *b, uint32_t wi) {
  for (uint32_t v = 0; v < wi; v++)
    if (b->warps[v].state != W_DONE) return 1;
  return 0;
}

int emu_watch_error(const EmuWatch *w, const EmuLaunch *l, Block *const *bs, size_t n, WmErr *e) {
  uint64_t warps = 0, blocks = 0;
  char where[1400] = "";
  size_t used = 0;
  int shown = 0;
  for (size_t i = 0; i < n; i++) {
    const Block *b = bs[i];
    if (!b->stopped) continue;
    for (uint32_t wi = 0; wi < b->nwarps; wi++) {
      if (b->warps[wi].state == W_DONE) continue;
      blocks += !warps_before_block(b, wi);
      warps++;
      if (shown++ >= EMU_WATCH_SHOWN || used >= sizeof where - 1) continue;
      warp_place(b, wi, where + used, sizeof where - used);
      used += strlen(where + used);
    }
  }
  char what[256];
  uint64_t ran = __atomic_load_n(&w->used, __ATOMIC_RELAXED);
  if (w->stop == EMU_WATCH_TIME)
    snprintf(what, sizeof what, "still running after %.1f s (--timeout %g; %llu warp instructions ran)",
             wm_now() - w->start, w->timeout, (unsigned long long)ran);
  else
    snprintf(what, sizeof what,
             "ran more than %llu warp instructions (--max-instructions %llu) without finishing: an endless loop, "
             "or a kernel longer than the budget",
             (unsigned long long)w->limit, (unsigned long long)w->limit);
  if (!warps) /* the budget ran out in the pass that ended the last warps */
    return wm_err(e, WM_EWATCHDOG, "watchdog: kernel %s %s, as its last warps finished", l->kernel->name, what);
  return wm_err(e, WM_EWATCHDOG,
                "watchdog: kernel %s %s; %llu warps of %llu blocks in progress were stopped; %s:%s",
                l->kernel->name, what, (unsigned long long)warps, (unsigned long long)blocks,
                warps > EMU_WATCH_SHOWN ? "where the first of them are" : "where they are", where);
}
