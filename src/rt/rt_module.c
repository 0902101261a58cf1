/* rt_module.c - device code: the PTX of an application's fat binaries (or
 * of cuModuleLoadData) parsed as `warpmem sim` parses a .ptx; the kernels
 * and variables the host registers by their host shadows; each module's
 * .global segment one unified buffer and its constant bank one host array,
 * both made and relocated once, kept across launches. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt/fatbin.h"
#include "rt/rt_int.h"

/* The application's file name, for module names in messages. */
static const char *app_name(void) {
  static char name[64];
  if (name[0]) return name;
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  path[n > 0 ? n : 0] = '\0';
  const char *base = strrchr(path, '/');
  snprintf(name, sizeof name, "%.60s", n > 0 ? (base ? base + 1 : path) : "app");
  return name;
}

static RtModule *module_new(const char *name) {
  RtModule *m = wm_xcalloc(1, sizeof *m);
  m->id = ++rtx.nmodules;
  if (name) snprintf(m->name, sizeof m->name, "%s", name);
  else snprintf(m->name, sizeof m->name, "%s.%d.ptx", app_name(), m->id);
  m->loaded = 1;
  rtx.live_modules++;
  RtModule **p = &rtx.modules; /* in order of loading */
  while (*p) p = &(*p)->next;
  *p = m;
  return m;
}

/* The module's .global segment (a unified buffer) and constant bank, from
 * their initializers, relocated once (gmem_module_segment). */
static int module_segments(RtModule *m, WmErr *e) {
  PtxModule *mod = m->mod;
  m->const_mem = wm_xcalloc(mod->const_size + 1, 1);
  if (mod->const_init) memcpy(m->const_mem, mod->const_init, mod->const_size);
  return gmem_module_segment(&rtx.g, mod, NULL, m->const_mem, &m->gbase, e);
}

/* Parses text (taken) into m; on failure m keeps the reason. */
static RtError module_parse(RtModule *m, char *text) {
  WmErr e = {0};
  m->mod = ptx_parse(m->name, text, &e);
  if (m->mod && module_segments(m, &e) == 0) return RT_SUCCESS;
  m->error = wm_xstrdup(e.msg);
  m->error_code = m->mod ? RT_ERR_MEMORY_ALLOCATION : RT_ERR_INVALID_PTX;
  rtx_say("%s: %s", m->name, e.msg);
  return m->error_code;
}

char *rtx_fatbin_ptx(const void *fb, size_t len, WmErr *e) {
  FatbinEntry *en = NULL;
  int n = 0;
  if (fatbin_list(fb, len, &en, &n, e)) return NULL;
  int i = fatbin_pick_ptx(en, n, (uint32_t)rt_arch()->cc, e);
  char *text = i < 0 ? NULL : fatbin_ptx(&en[i], e);
  free(en);
  return text;
}

char *rtx_device_ptx(const void *image, int wrapper, size_t len, const char *what, WmErr *e) {
  const void *fb = wrapper ? fatbin_unwrap(image, e) : image;
  char *text = fb ? rtx_fatbin_ptx(fb, wrapper ? 0 : len, e) : NULL;
  if (!text && wrapper) { /* -rdc=true: the linked SASS, but the units' PTX behind it */
    WmErr le = {0};
    text = rtx_rdc_text(image, what, &le);
    if (le.code) *e = le;
  }
  return text;
}

RtModule *rt_module_register_fatbin(const void *wrapper) {
  if (rtx_enter(0)) return NULL;
  RtModule *m = module_new(NULL);
  WmErr e = {0};
  char *text = rtx_device_ptx(wrapper, 1, 0, m->name, &e);
  if (text) {
    module_parse(m, text);
  } else {
    m->error = wm_xstrdup(e.msg);
    m->error_code = RT_ERR_NO_KERNEL_IMAGE;
    rtx_say("%s: no device code warpmem can run: %s", m->name, e.msg);
  }
  rtx_leave(RT_SUCCESS);
  return m;
}

RtError rt_module_load_ptx(const char *text, const char *name, RtModule **out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!text || !out) return rtx_leave(RT_ERR_INVALID_VALUE);
  RtModule *m = module_new(name);
  r = module_parse(m, wm_xstrdup(text));
  *out = m;
  return rtx_leave(r);
}

void rt_module_unload(RtModule *m) {
  if (rtx_enter(0)) return;
  int last = 0;
  if (m && m->loaded) {
    m->loaded = 0;
    last = --rtx.live_modules == 0;
  }
  rtx_leave(RT_SUCCESS);
  if (last) rt_report_flush(); /* the application is exiting */
}

/* The kernel named name (PTX name) of m, or NULL. */
static const PtxKernel *kernel_named(const RtModule *m, const char *name) {
  for (int i = 0; m->mod && i < m->mod->nkernels; i++)
    if (!strcmp(m->mod->kernels[i].name, name)) return &m->mod->kernels[i];
  return NULL;
}

static RtFunction *function_new(RtModule *m, const void *host, const char *name) {
  RtFunction *f = wm_xcalloc(1, sizeof *f);
  f->magic = RT_FUNC_MAGIC;
  f->m = m;
  f->host = host;
  f->name = wm_xstrdup(name);
  f->k = kernel_named(m, name);
  f->demangled = rtx_demangle(name);
  f->base = rtx_base_name(f->demangled);
  if (!f->base) f->base = wm_xstrdup(f->k && f->k->plain_name ? f->k->plain_name : name);
  f->carveout = OCC_CARVEOUT_DEFAULT;
  f->next = rtx.funcs;
  rtx.funcs = f;
  return f;
}

void rt_module_register_function(RtModule *m, const void *host_fun, const char *device_name) {
  if (rtx_enter(0)) return;
  if (m && device_name) function_new(m, host_fun, device_name);
  rtx_leave(RT_SUCCESS);
}

/* The module variable `name` of m, or NULL. */
static const PtxVar *var_named(const RtModule *m, const char *name) {
  for (int i = 0; m->mod && i < m->mod->nvars; i++)
    if (!strcmp(m->mod->vars[i].name, name)) return &m->mod->vars[i];
  return NULL;
}

/* Where variable v of m lives on this side. */
static uint8_t *var_addr(const RtModule *m, const PtxVar *v) {
  if (v->space == PTX_S_CONST) return m->const_mem + v->offset;
  return (uint8_t *)(uintptr_t)(m->gbase + v->offset);
}

void rt_module_register_var(RtModule *m, const void *host_var, const char *device_name, uint64_t size,
                            void **managed_ptr) {
  if (rtx_enter(0)) return;
  if (!m || !device_name) {
    rtx_leave(RT_SUCCESS);
    return;
  }
  if (rtx.nvars == rtx.capvars) {
    rtx.capvars = rtx.capvars ? 2 * rtx.capvars : 16;
    rtx.vars = wm_xrealloc(rtx.vars, (size_t)rtx.capvars * sizeof *rtx.vars);
  }
  RtVar *v = &rtx.vars[rtx.nvars++];
  memset(v, 0, sizeof *v);
  v->host = host_var;
  v->m = m;
  v->name = wm_xstrdup(device_name);
  v->v = var_named(m, device_name);
  v->size = size;
  if (v->v) {
    v->addr = var_addr(m, v->v);
    if (v->v->size < size || !size) v->size = v->v->size;
  }
  if (managed_ptr) *managed_ptr = v->addr;
  rtx_leave(RT_SUCCESS);
}

RtFunction *rtx_function(RtFunction *f) { return f && f->magic == RT_FUNC_MAGIC ? f : NULL; }

RtError rt_function_by_host(const void *host_fun, RtFunction **out) {
  RtError r = rtx_enter(0);
  if (r) return r;
  if (!out) return rtx_leave(RT_ERR_INVALID_VALUE);
  for (RtFunction *f = rtx.funcs; f && host_fun; f = f->next)
    if (f->host == host_fun) {
      *out = f;
      return rtx_leave(RT_SUCCESS);
    }
  *out = NULL;
  return rtx_leave(RT_ERR_INVALID_DEVICE_FUNCTION);
}

RtError rt_module_function(RtModule *m, const char *name, RtFunction **out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!m || !name || !out) return rtx_leave(RT_ERR_INVALID_VALUE);
  for (RtFunction *f = rtx.funcs; f; f = f->next)
    if (f->m == m && !strcmp(f->name, name)) {
      *out = f;
      return rtx_leave(RT_SUCCESS);
    }
  const PtxKernel *k = kernel_named(m, name);
  if (!k) return rtx_leave(RT_ERR_NOT_FOUND);
  *out = function_new(m, NULL, name);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_module_global(RtModule *m, const char *name, void **addr, size_t *size) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!m || !name) return rtx_leave(RT_ERR_INVALID_VALUE);
  const PtxVar *v = var_named(m, name);
  if (!v) return rtx_leave(RT_ERR_NOT_FOUND);
  if (addr) *addr = var_addr(m, v);
  if (size) *size = v->size;
  return rtx_leave(RT_SUCCESS);
}

void rtx_module_fused(RtModule *m) {
  if (m->fused_done || !m->mod) return;
  m->fused_done = 1;
  const Arch *a = rtx.cfg.o.cfg.arch ? rtx.cfg.o.cfg.arch : arch_default();
  ptx_contractions(m->mod, a->cc);
}

void rtx_module_regs(RtModule *m) {
  if (m->regs_done || !m->mod) return;
  m->regs_done = 1;
  const Arch *a = rtx.cfg.o.cfg.arch ? rtx.cfg.o.cfg.arch : arch_default();
  ptx_registers(m->mod, a->cc, NULL, 0);
}

/* The variable registered for host shadow host_var, or NULL.  A __managed__
 * variable's host code reads it through its address in unified memory, so
 * that address names it too. */
static RtVar *var_by_host(const void *host_var) {
  for (int i = 0; i < rtx.nvars && host_var; i++)
    if (rtx.vars[i].host == host_var) return &rtx.vars[i];
  for (int i = 0; i < rtx.nvars && host_var; i++)
    if (rtx.vars[i].addr == host_var) return &rtx.vars[i];
  return NULL;
}

RtError rt_symbol(const void *host_var, void **addr, size_t *size) {
  RtError r = rtx_enter(1);
  if (r) return r;
  RtVar *v = var_by_host(host_var);
  if (!v || !v->addr) return rtx_leave(RT_ERR_INVALID_SYMBOL);
  if (addr) *addr = v->addr;
  if (size) *size = (size_t)v->size;
  return rtx_leave(RT_SUCCESS);
}

RtError rt_symbol_copy(const void *host_var, size_t offset, void *buf, size_t count, int to_device) {
  RtError r = rtx_enter(1);
  if (r) return r;
  RtVar *v = var_by_host(host_var);
  if (!v || !v->addr) return rtx_leave(RT_ERR_INVALID_SYMBOL);
  if (offset > v->size || count > v->size - offset) {
    rtx_say("%s: %zu bytes at offset %zu of the variable %s, which has %llu", to_device ? "cudaMemcpyToSymbol"
            : "cudaMemcpyFromSymbol", count, offset, v->name, (unsigned long long)v->size);
    return rtx_leave(RT_ERR_INVALID_VALUE);
  }
  if (count && !buf) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (to_device) memmove(v->addr + offset, buf, count);
  else memmove(buf, v->addr + offset, count);
  rtx_clock_copy(count);
  return rtx_leave(RT_SUCCESS);
}

void rtx_modules_free(void) {
  while (rtx.funcs) {
    RtFunction *f = rtx.funcs;
    rtx.funcs = f->next;
    free(f->name);
    free(f->demangled);
    free(f->base);
    free(f);
  }
  for (int i = 0; i < rtx.nvars; i++) free(rtx.vars[i].name);
  free(rtx.vars);
  rtx.vars = NULL;
  rtx.nvars = rtx.capvars = 0;
  while (rtx.modules) {
    RtModule *m = rtx.modules;
    rtx.modules = m->next;
    if (m->mod) ptx_module_free(m->mod);
    free(m->const_mem);
    free(m->error);
    free(m);
  }
}
