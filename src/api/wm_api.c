/* wm_api.c - the C API of wm_api.h: a JSON request becomes the launch the
 * `sim` command would build from --kernel/--grid/--block/--arg, run by
 * sim_run_bound on buffers that hold the caller's data, and reported by
 * the command's own writers (report_write's JSON, report_html_write).
 *
 * The buffers are bound by launch_bind as the command binds them, so a
 * launch here and the same launch from the command line see the same
 * addresses and report the same counters (tests/python checks it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/wm_api.h"
#include "api/wm_api_int.h"
#include "cli/cli.h"
#include "report/report_html.h"

const char *wm_api_version(void) { return "1.0"; }

void wm_api_free(char *result) { free(result); }

static const char *code_name(int code) {
  static const char *const names[] = {"ok", "usage", "io", "parse", "unsupported", "args", "limit",
                                      "fault", "arith", "deadlock", "tool", "gpu", "nogpu", "watchdog"};
  return code >= 0 && code < (int)(sizeof names / sizeof names[0]) ? names[code] : "error";
}

/* Takes r (a new reference) and returns its text; a result the caller frees. */
static char *result_text(json_t *r) {
  char *s = r ? json_dumps(r, JSON_COMPACT) : NULL;
  json_decref(r);
  return s ? s : wm_xstrdup("{\"ok\": false, \"code\": \"limit\", \"status\": \"error\", \"error\": \"out of memory\"}");
}

/* {"ok": false, ...} of e; ran: the launch was attempted (failed or
 * refused), else the request or its source was at fault. */
static char *error_result(const WmErr *e, int ran) {
  const char *status = ran ? report_status_name[report_status_of(e->code)] : "error";
  return result_text(json_pack("{s:b, s:s, s:s, s:s}", "ok", 0, "error", e->msg, "code", code_name(e->code),
                               "status", status));
}

/* "grid": [X, Y, Z] or X into d (missing dimensions 1). */
static int dims(const json_t *req, const char *key, uint32_t d[3], int need, WmErr *e) {
  json_t *v = json_object_get(req, key);
  d[0] = d[1] = d[2] = need ? 0 : 1;
  if (!v && !need) return 0;
  if (json_is_integer(v)) v = json_pack("[O]", v);
  else json_incref(v);
  size_t n = json_array_size(v);
  int bad = !json_is_array(v) || n < 1 || n > 3;
  for (size_t i = 0; i < n && !bad; i++) {
    json_int_t x = json_integer_value(json_array_get(v, i));
    bad = !json_is_integer(json_array_get(v, i)) || x < 1 || x > 0x7fffffff;
    d[i] = (uint32_t)x;
  }
  for (size_t i = n; i < 3; i++) d[i] = 1;
  json_decref(v);
  if (bad) return wm_err(e, WM_EUSAGE, "request: \"%s\" must be 1 to 3 integers from 1 to 2^31-1", key);
  return 0;
}

/* The module the request names: "source" (a .cu or .ptx file) or "ptx"
 * text (shown as "name" in messages). */
static PtxModule *load_module(const json_t *req, WmErr *e) {
  const char *src = json_string_value(json_object_get(req, "source"));
  const char *text = json_string_value(json_object_get(req, "ptx"));
  if (!src == !text) return wm_err(e, WM_EUSAGE, "request: give one of \"source\" (a .cu or .ptx) and \"ptx\" (text)"), NULL;
  if (text) {
    const char *name = json_string_value(json_object_get(req, "name"));
    return ptx_parse(name ? name : "<ptx>", wm_xstrdup(text), e);
  }
  json_t *fl = json_object_get(req, "nvcc_flags");
  size_t nf = json_array_size(fl);
  const char **flags = wm_xcalloc(nf + 1, sizeof *flags);
  for (size_t i = 0; i < nf; i++) flags[i] = json_string_value(json_array_get(fl, i));
  for (size_t i = 0; i < nf; i++)
    if (!flags[i]) {
      free(flags);
      return wm_err(e, WM_EUSAGE, "request: \"nvcc_flags\" must be strings"), NULL;
    }
  PtxModule *m = ptx_load_with(src, arch_ptx_target(), flags, (int)nf, e);
  free(flags);
  return m;
}

/* The request's simulation options into o (sim_options_init's defaults). */
static int options(const json_t *req, SimOptions *o, WmErr *e) {
  sim_options_init(o);
  const char *arch = json_string_value(json_object_get(req, "arch"));
  if (arch && cli_parse_arch(arch, &o->cfg, e)) return -1;
  const char *loads = json_string_value(json_object_get(req, "loads"));
  if (loads && strcmp(loads, "ca") && strcmp(loads, "cg"))
    return wm_err(e, WM_EUSAGE, "request: \"loads\" is ca or cg, not '%s'", loads);
  if (loads) o->cfg.loads = !strcmp(loads, "ca") ? MEM_LOADS_CA : MEM_LOADS_CG;
  if (json_is_false(json_object_get(req, "caches"))) o->cfg.caches = 0;
  o->regs = (int)json_integer_value(json_object_get(req, "regs"));
  o->max_instrs = (uint64_t)json_integer_value(json_object_get(req, "max_instructions"));
  o->timeout = json_number_value(json_object_get(req, "timeout"));
  if (json_is_integer(json_object_get(req, "seed"))) o->seed = (uint64_t)json_integer_value(json_object_get(req, "seed"));
  if (o->regs < 0 || o->regs > 255) return wm_err(e, WM_EUSAGE, "request: \"regs\" is 1 to 255");
  if (json_integer_value(json_object_get(req, "max_instructions")) < 0 || o->timeout < 0)
    return wm_err(e, WM_EUSAGE, "request: \"max_instructions\" and \"timeout\" are not negative");
  return 0;
}

/* The kernel the request names, or the module's only one. */
static const PtxKernel *pick_kernel(const json_t *req, const PtxModule *m, WmErr *e) {
  const char *name = json_string_value(json_object_get(req, "kernel"));
  if (name) return ptx_find_kernel(m, name, e);
  if (m->nkernels == 1) return ptx_find_kernel(m, m->kernels[0].name, e);
  return ptx_find_kernel(m, "", e); /* its message lists the kernels */
}

/* The launch of the request: its kernel, dimensions and arguments. */
static int launch_spec(const json_t *req, const PtxKernel *k, LaunchSpec *ls, ApiArgs *a, WmErr *e) {
  snprintf(ls->name, sizeof ls->name, "%s", k->name);
  const char *label = json_string_value(json_object_get(req, "label"));
  snprintf(ls->label, sizeof ls->label, "%s", label ? label : k->plain_name ? k->plain_name : k->name);
  if (dims(req, "grid", ls->grid, 1, e) || dims(req, "block", ls->block, 1, e)) return -1;
  if (json_object_get(req, "cluster") && dims(req, "cluster", ls->cluster, 1, e)) return -1;
  json_int_t smem = json_integer_value(json_object_get(req, "smem"));
  if (smem < 0 || smem > 0xffffffff) return wm_err(e, WM_EUSAGE, "request: \"smem\" is a byte count");
  ls->smem = (uint32_t)smem;
  ls->cooperative = json_is_true(json_object_get(req, "cooperative"));
  return api_args_parse(json_object_get(req, "args"), k, ls, a, e);
}

/* What one launch holds while it runs. */
typedef struct ApiRun {
  GlobalMem g;
  uint8_t *params, *cmem;
  SimRun run;
  int ran;           /* sim_run_bound was called */
} ApiRun;

/* Binds the launch as the command does, copies the caller's buffers in,
 * runs it and copies them back. */
static int run_launch(const PtxModule *m, const PtxKernel *k, const LaunchSpec *ls, const ApiArgs *a,
                      const SimOptions *o, ApiRun *r, WmErr *e) {
  gmem_init(&r->g, o->mem_limit);
  r->params = wm_xcalloc(k->param_size + 8, 1);
  r->cmem = wm_xcalloc(m->const_size + 1, 1);
  if (m->const_init) memcpy(r->cmem, m->const_init, m->const_size);
  if (launch_bind(k, ls, &r->g, r->params, INIT_ZERO, o->seed, e)) return -1;
  if (api_args_copy_in(k, ls, r->params, &r->g, a, e)) return -1;
  uint64_t gbase = 0;
  if (gmem_module_segment(&r->g, m, NULL, r->cmem, &gbase, e)) return -1;
  SimBound b = {.gmem = &r->g, .params = r->params, .const_mem = r->cmem, .global_base = gbase};
  r->ran = 1;
  if (sim_run_bound(m, ls, &b, o, &r->run, e)) return -1;
  api_args_copy_out(k, ls, r->params, &r->g, a);
  return 0;
}

/* A writer's output as a string (open_memstream): 0 and *s malloc'd. */
static int write_string(const ReportRun *row, int html, int lines, const char *title, char **s) {
  size_t n = 0;
  *s = NULL;
  FILE *f = open_memstream(s, &n);
  if (!f) return -1;
  int rc = html ? report_html_write(f, row, 1, title, lines) : report_write(f, row, 1, REPORT_JSON, lines);
  if (fclose(f)) rc = -1;
  return rc;
}

/* "lines": "ptx" (or true), "source", or none. */
static int lines_of(const json_t *req) {
  json_t *v = json_object_get(req, "lines");
  const char *s = json_string_value(v);
  if (s) return !strcmp(s, "source") ? REPORT_LINES_SOURCE : !strcmp(s, "ptx") ? REPORT_LINES_PTX : REPORT_LINES_NONE;
  return json_is_true(v) ? REPORT_LINES_PTX : REPORT_LINES_NONE;
}

/* {"ok": true, "report": [...], "html": ...} of a launch that ran. */
static char *report_result(const json_t *req, const PtxModule *m, const LaunchSpec *ls, const SimRun *run,
                           const SimOptions *o, WmErr *e) {
  ReportRun row = cli_report_row(m, ls, run, o);
  int lines = lines_of(req);
  char *json = NULL, *html = NULL;
  const char *title = json_string_value(json_object_get(req, "title"));
  int rc = write_string(&row, 0, lines, NULL, &json);
  if (rc == 0 && json_is_true(json_object_get(req, "html"))) rc = write_string(&row, 1, lines, title, &html);
  json_t *rep = rc == 0 ? json_loads(json, 0, NULL) : NULL;
  free(json);
  if (!rep) {
    free(html);
    wm_err(e, WM_EIO, "the report could not be written");
    return error_result(e, 0);
  }
  json_t *r = json_pack("{s:b, s:o}", "ok", 1, "report", rep);
  if (html) json_object_set_new(r, "html", json_string(html));
  free(html);
  return result_text(r);
}

/* Registers per thread from ptxas, for the occupancy (as the command
 * finds them), and the mul-add pairs ptxas fuses (ptx_contractions); a
 * failure leaves them unknown, never the launch. */
static void find_registers(PtxModule *m, const PtxKernel *k, const SimOptions *o) {
  const char *names[1] = {k->name};
  if (o->regs == 0) ptx_registers(m, sim_arch(o)->cc, names, 1);
  ptx_contractions(m, sim_arch(o)->cc); /* outputs as the GPU's: the fmas ptxas makes */
}

char *wm_api_sim(const char *request) {
  WmErr e = {0};
  json_error_t jerr;
  json_t *req = request ? json_loads(request, 0, &jerr) : NULL;
  if (!json_is_object(req)) {
    json_decref(req);
    wm_err(&e, WM_EUSAGE, "request: not a JSON object%s%s", request ? ": " : "", request ? jerr.text : "");
    return error_result(&e, 0);
  }
  SimOptions o;
  PtxModule *m = options(req, &o, &e) ? NULL : load_module(req, &e);
  const PtxKernel *k = m ? pick_kernel(req, m, &e) : NULL;
  LaunchSpec *ls = wm_xcalloc(1, sizeof *ls);
  ApiArgs a = {0};
  ApiRun r = {0};
  char *out;
  if (!k || launch_spec(req, k, ls, &a, &e)) {
    out = error_result(&e, k != NULL);
  } else {
    find_registers(m, k, &o);
    out = run_launch(m, k, ls, &a, &o, &r, &e) ? error_result(&e, 1) : report_result(req, m, ls, &r.run, &o, &e);
    sim_run_free(&r.run);
    gmem_free(&r.g);
  }
  free(r.params);
  free(r.cmem);
  free(ls);
  if (m) ptx_module_free(m);
  json_decref(req);
  return out;
}

/* One kernel's entry of wm_api_kernels. */
static json_t *kernel_json(const PtxKernel *k) {
  json_t *ps = json_array();
  for (int i = 0; i < k->nparams; i++)
    json_array_append_new(ps, json_pack("{s:s, s:s, s:i, s:i}", "name", k->params[i].name, "type",
                                        ptx_type_name((PtxType)k->params[i].type), "size", (int)k->params[i].size,
                                        "align", (int)k->params[i].align));
  return json_pack("{s:s, s:s, s:o, s:s?}", "name", k->name, "plain_name", k->plain_name ? k->plain_name : k->name,
                   "params", ps, "unsupported", k->unsupported);
}

char *wm_api_kernels(const char *request) {
  WmErr e = {0};
  json_t *req = request ? json_loads(request, 0, NULL) : NULL;
  PtxModule *m = json_is_object(req) ? load_module(req, &e) : NULL;
  if (!json_is_object(req)) wm_err(&e, WM_EUSAGE, "request: not a JSON object");
  json_decref(req);
  if (!m) return error_result(&e, 0);
  json_t *ks = json_array();
  for (int i = 0; i < m->nkernels; i++) json_array_append_new(ks, kernel_json(&m->kernels[i]));
  char version[32];
  snprintf(version, sizeof version, "%d.%d", m->version_major, m->version_minor);
  json_t *r = json_pack("{s:b, s:s, s:s, s:o}", "ok", 1, "target", m->target, "version", version, "kernels", ks);
  ptx_module_free(m);
  return result_text(r);
}
