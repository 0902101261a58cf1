/* emu_fault.c - a fault in an emulated kernel, located: the kernel, the
 * CUDA source line, the PTX line and instruction, the block and thread. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "util/sys.h"

/* "PTX file.ptx:LINE", or "PTX line LINE" for PTX that nvcc made from a .cu
 * (there is no file to open). */
void emu_ptx_where(const PtxModule *m, uint32_t line, char *buf, size_t n) {
  if (wm_ends_with(m->path, ".cu")) snprintf(buf, n, "PTX line %u", line);
  else snprintf(buf, n, "PTX %s:%u", m->path, line);
}

void emu_cu_where(const PtxModule *m, const PtxInstr *in, char *buf, size_t n) {
  const char *cu = ptx_cu_file(m, in), *base = strrchr(cu, '/');
  if (in->cu_line) snprintf(buf, n, "%s:%u", base ? base + 1 : cu, in->cu_line);
  else if (n) buf[0] = '\0';
}

int emu_fault(Block *b, const EmuInstr *x, int warp, int lane, int code, const char *fmt, ...) {
  if (b->failed) return -1;
  b->failed = 1;
  char what[1024], text[256], where[512] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  int pc = (int)(x - b->p->code);
  const PtxInstr *in = pc < b->p->ncode ? &b->p->k->code[pc] : NULL;
  uint32_t t[3];
  thread_of(b, warp, lane, t);
  if (in) {
    ptx_instr_text(b->m, in, text, sizeof text);
    char cu[400];
    emu_cu_where(b->m, in, cu, sizeof cu);
    if (cu[0]) snprintf(where, sizeof where, "%s, ", cu);
    char ptxw[512];
    emu_ptx_where(b->m, in->ptx_line, ptxw, sizeof ptxw);
    wm_err(b->e, code,
           "%s\n  kernel %s, %s%s: %s\n  block (%u,%u,%u), thread (%u,%u,%u) (warp %d, lane %d)",
           what, b->p->k->name, where, ptxw, text, b->ctaid[0], b->ctaid[1],
           b->ctaid[2], t[0], t[1], t[2], warp, lane);
  } else {
    wm_err(b->e, code, "%s\n  kernel %s, block (%u,%u,%u), thread (%u,%u,%u)", what,
           b->p->k->name, b->ctaid[0], b->ctaid[1], b->ctaid[2], t[0], t[1], t[2]);
  }
  return -1;
}

void emu_warn_once(Block *b, const EmuInstr *x, int warp, int lane, int *once, const char *fmt, ...) {
  if (__atomic_exchange_n(once, 1, __ATOMIC_RELAXED)) return;
  char what[1024], text[256] = "", cu[400] = "", ptxw[512] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  int pc = (int)(x - b->p->code);
  uint32_t t[3];
  thread_of(b, warp, lane, t);
  if (pc < b->p->ncode) {
    const PtxInstr *in = &b->p->k->code[pc];
    ptx_instr_text(b->m, in, text, sizeof text);
    emu_cu_where(b->m, in, cu, sizeof cu);
    emu_ptx_where(b->m, in->ptx_line, ptxw, sizeof ptxw);
  }
  fprintf(stderr, "warpmem: warning: %s\n  kernel %s, %s%s%s: %s\n  block (%u,%u,%u), thread (%u,%u,%u) (warp %d, lane %d)\n",
          what, b->p->k->name, cu, cu[0] ? ", " : "", ptxw, text, b->ctaid[0], b->ctaid[1], b->ctaid[2], t[0], t[1],
          t[2], warp, lane);
}

int emu_unsupported_type(Block *b, const EmuInstr *x, int warp, uint32_t mask) {
  return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP, "%s.%s is not supported by the emulator",
                   ptx_op_name[x->op], ptx_type_name((PtxType)x->type));
}
