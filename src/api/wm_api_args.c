/* wm_api_args.c - a request's arguments as launch specs (launch_parse_arg
 * reads each, launch_bind binds them as the command's --arg), and the
 * caller's buffers copied into the bound device buffers and back.
 *
 * A scalar takes the type of its .param, so that a binding passes Python's
 * numbers as they are: the spec is the parameter's own type and the value's
 * text, and launch_parse_arg checks the range as for --arg. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "api/wm_api_int.h"

/* The --arg TYPE of a scalar parameter of PTX type t, or NULL (a .b8
 * array: an aggregate, given as "hex"). neg: the value is negative, so a
 * .u32 or .b32 takes it as i32 (the same bits). */
static const char *scalar_type(const PtxParam *p, int neg) {
  static const char *const ints[2][4] = {{"u8", "u16", "u32", "u64"}, {"i8", "i16", "i32", "i64"}};
  PtxType t = (PtxType)p->type;
  if (t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64) return ptx_type_name(t);
  if (t == PTX_T_PRED || (t == PTX_T_B8 && p->size != 1)) return NULL;
  int log = p->size == 1 ? 0 : p->size == 2 ? 1 : p->size == 4 ? 2 : p->size == 8 ? 3 : -1;
  if (log < 0) return NULL;
  return ints[neg || ptx_type_is_signed(t)][log];
}

/* The spec of scalar argument i ({"value": V[, "type": T]}) into text. */
static int scalar_spec(const json_t *v, const char *type, const PtxKernel *k, int i, char *text, size_t n,
                       WmErr *e) {
  const PtxParam *p = &k->params[i];
  int neg = (json_is_integer(v) && json_integer_value(v) < 0) || (json_is_string(v) && json_string_value(v)[0] == '-');
  const char *t = type ? type : scalar_type(p, neg);
  if (!t)
    return wm_err(e, WM_EARGS, "argument %d of kernel %s: parameter %s is %u bytes, an aggregate: pass its bytes "
                  "({\"hex\": ...}), not a number", i, k->name, p->name, p->size);
  int is_float = !strcmp(t, "f16") || !strcmp(t, "bf16") || !strcmp(t, "f32") || !strcmp(t, "f64");
  if (json_is_integer(v)) snprintf(text, n, "%s:%" JSON_INTEGER_FORMAT, t, json_integer_value(v));
  else if (json_is_boolean(v)) snprintf(text, n, "%s:%d", t, json_is_true(v));
  else if (json_is_string(v)) snprintf(text, n, "%s:%s", t, json_string_value(v));
  else if (json_is_real(v) && is_float) snprintf(text, n, "%s:%.17g", t, json_real_value(v));
  else if (json_is_real(v))
    return wm_err(e, WM_EARGS, "argument %d of kernel %s: parameter %s is .%s, an integer, given %g", i, k->name,
                  p->name, ptx_type_name((PtxType)p->type), json_real_value(v));
  else
    return wm_err(e, WM_EARGS, "argument %d of kernel %s: \"value\" must be a number, a string of digits or a "
                  "boolean", i, k->name);
  return 0;
}

/* Buffer argument i ({"ptr", "bytes"[, "type"][, "out"]}) into text and a. */
static int buffer_spec(const json_t *arg, const PtxKernel *k, int i, char *text, size_t n, ApiArgs *a, WmErr *e) {
  json_t *ptr = json_object_get(arg, "ptr"), *bytes = json_object_get(arg, "bytes");
  const char *type = json_string_value(json_object_get(arg, "type"));
  json_t *out = json_object_get(arg, "out"), *off = json_object_get(arg, "offset");
  if (!json_is_integer(ptr) || !json_is_integer(bytes) || json_integer_value(bytes) < 0)
    return wm_err(e, WM_EARGS, "argument %d of kernel %s: a buffer needs an integer \"ptr\" and \"bytes\" >= 0", i,
                  k->name);
  uint64_t nb = (uint64_t)json_integer_value(bytes);
  if (off && (!json_is_integer(off) || json_integer_value(off) < 0 || (uint64_t)json_integer_value(off) > nb))
    return wm_err(e, WM_EARGS, "argument %d of kernel %s: \"offset\" must lie in the buffer's %" PRIu64 " bytes", i,
                  k->name, nb);
  if (nb && !json_integer_value(ptr))
    return wm_err(e, WM_EARGS, "argument %d of kernel %s: a buffer of %" PRIu64 " bytes at address 0", i, k->name, nb);
  unsigned es = 1;
  if (type) {
    ArgSpec probe;
    char t[64];
    snprintf(t, sizeof t, "%s:0", type);
    WmErr pe = {0};
    es = launch_parse_arg(t, &probe, &pe) ? 0 : ptx_type_size((PtxType)probe.type);
  }
  if (!type || !es || nb % es) type = "u8", es = 1; /* bytes that are no whole elements: counted as bytes */
  /* a buffer of no bytes still gets an address (as cudaMalloc(0) may), one element long */
  snprintf(text, n, "buf:%s:%" PRIu64 ":zero", type, nb ? nb / es : 1);
  ApiBuf *b = &a->buf[a->nbuf++];
  b->host = (uint8_t *)(uintptr_t)json_integer_value(ptr);
  b->bytes = nb;
  b->offset = off ? (uint64_t)json_integer_value(off) : 0;
  b->out = !out || json_is_true(out);
  return 0;
}

/* The kernel's parameter list, for a message of the wrong count. */
static void param_list(const PtxKernel *k, char *s, size_t n) {
  size_t at = 0;
  s[0] = '\0';
  for (int i = 0; i < k->nparams && at + 1 < n; i++) {
    int w = snprintf(s + at, n - at, "%s.%s %s", i ? ", " : "", ptx_type_name((PtxType)k->params[i].type),
                     k->params[i].name);
    if (w < 0) break;
    at += (size_t)w;
  }
}

int api_args_parse(const json_t *args, const PtxKernel *k, LaunchSpec *ls, ApiArgs *a, WmErr *e) {
  size_t n = args ? json_array_size(args) : 0;
  if (args && !json_is_array(args)) return wm_err(e, WM_EUSAGE, "request: \"args\" must be an array");
  if ((int)n != k->nparams) {
    char list[1024];
    param_list(k, list, sizeof list);
    return wm_err(e, WM_EARGS, "kernel %s takes %d arguments (%s), given %zu", k->name, k->nparams, list, n);
  }
  if (n > LAUNCH_MAX_ARGS) return wm_err(e, WM_ELIMIT, "kernel %s: %zu arguments, over %d", k->name, n, LAUNCH_MAX_ARGS);
  for (size_t i = 0; i < n; i++) {
    const json_t *arg = json_array_get(args, i);
    char text[sizeof ls->args[0].text];
    int rc;
    if (!json_is_object(arg)) rc = wm_err(e, WM_EARGS, "argument %zu of kernel %s: not an object", i, k->name);
    else if (json_object_get(arg, "ptr")) rc = buffer_spec(arg, k, (int)i, text, sizeof text, a, e);
    else if (json_is_string(json_object_get(arg, "hex")))
      rc = snprintf(text, sizeof text, "bytes:%s", json_string_value(json_object_get(arg, "hex"))) >= (int)sizeof text
             ? wm_err(e, WM_ELIMIT, "argument %zu of kernel %s: over %zu hex digits", i, k->name, sizeof text - 7) : 0;
    else if (json_object_get(arg, "value"))
      rc = scalar_spec(json_object_get(arg, "value"), json_string_value(json_object_get(arg, "type")), k, (int)i,
                       text, sizeof text, e);
    else rc = wm_err(e, WM_EARGS, "argument %zu of kernel %s: give \"ptr\" and \"bytes\", \"value\" or \"hex\"", i,
                     k->name);
    if (rc) return -1;
    if (launch_parse_arg(text, &ls->args[ls->nargs], e)) {
      char msg[sizeof e->msg];
      snprintf(msg, sizeof msg, "%s", e->msg);
      return wm_err(e, WM_EARGS, "argument %zu of kernel %s (parameter %s): %s", i, k->name, k->params[i].name, msg);
    }
    ls->nargs++;
  }
  return 0;
}

/* The device buffer of the j-th buffer argument: its address, as
 * launch_bind wrote it into params (launch_pointer_slots: in the order it
 * allocates, the argument order), less `moved` (its offset, once added). */
static GBuf *device_buffer(const uint32_t *slots, int j, const uint8_t *params, GlobalMem *g, const ApiBuf *b,
                           uint64_t moved) {
  uint64_t addr;
  memcpy(&addr, params + slots[j], sizeof addr);
  return gmem_find(g, addr - moved, b->bytes ? b->bytes : 1);
}

int api_args_copy_in(const PtxKernel *k, const LaunchSpec *ls, uint8_t *params, GlobalMem *g, const ApiArgs *a,
                     WmErr *e) {
  uint32_t slots[LAUNCH_MAX_ARGS];
  if (launch_pointer_slots(k, ls, slots, LAUNCH_MAX_ARGS) != a->nbuf)
    return wm_err(e, WM_EARGS, "kernel %s: the buffers do not lay out as the parameters", k->name);
  for (int j = 0; j < a->nbuf; j++) {
    const ApiBuf *ab = &a->buf[j];
    GBuf *b = device_buffer(slots, j, params, g, ab, 0);
    if (!b) return wm_err(e, WM_EARGS, "kernel %s: buffer %d was not bound", k->name, j);
    if (ab->bytes) memcpy(b->data, ab->host, ab->bytes);
    uint64_t addr = b->addr + ab->offset; /* the kernel's pointer: into the span, where the view starts */
    memcpy(params + slots[j], &addr, sizeof addr);
  }
  return 0;
}

void api_args_copy_out(const PtxKernel *k, const LaunchSpec *ls, const uint8_t *params, GlobalMem *g,
                       const ApiArgs *a) {
  uint32_t slots[LAUNCH_MAX_ARGS];
  if (launch_pointer_slots(k, ls, slots, LAUNCH_MAX_ARGS) != a->nbuf) return;
  for (int j = 0; j < a->nbuf; j++) {
    const ApiBuf *ab = &a->buf[j];
    GBuf *b = device_buffer(slots, j, params, g, ab, ab->offset);
    if (b && ab->out && ab->bytes) memcpy(ab->host, b->data, ab->bytes);
  }
}
