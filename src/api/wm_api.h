/* wm_api.h - warpmem's C API (libwarpmem_api.so): one launch, JSON in,
 * the report `warpmem sim --format json` writes out.
 *
 * The stable surface of the Python package (python/warpmem) and of any
 * other binding: four functions, plain C types, no warpmem header needed.
 * Requests and results are UTF-8 JSON texts; a result is never NULL and is
 * freed with wm_api_free.  Nothing here prints, exits or aborts on bad
 * input: every error comes back as {"ok": false, ...} with warpmem's
 * located message.
 *
 * A request (wm_api_sim), every key but the source optional:
 *   {"source": "k.cu" | "k.ptx"            a file (a .cu goes through nvcc)
 *    | "ptx": "TEXT", "name": "k.ptx",     or PTX text, named in messages
 *    "kernel": "NAME",                     PTX or plain C++ name; may be left
 *                                          out when the module has one kernel
 *    "grid": [X, Y, Z] | X, "block": [...], "smem": BYTES (dynamic),
 *    "cluster": [X, Y, Z], "cooperative": false,
 *    "arch": "h200", "loads": "ca"|"cg", "caches": true, "regs": N,
 *    "lines": "ptx" | "source" | false,    the per-line tables of the report
 *    "html": false, "title": "TEXT",       also the HTML page (report_html)
 *    "nvcc_flags": ["-I", "inc"],          for a .cu
 *    "max_instructions": N, "timeout": SECONDS, "seed": N,
 *    "args": [ARG, ...]}                   one a kernel parameter, in order
 * ARG:
 *   {"ptr": ADDRESS, "bytes": N[, "offset": O][, "type": "f32"][, "out": true]}
 *        a buffer: N bytes at the caller's host ADDRESS are copied into a
 *        fresh device buffer before the launch and, if "out" (the
 *        default), back after it ran (not after a failure); its device
 *        address plus O (0: a strided view's first element inside its
 *        whole span) goes to an 8-byte parameter; "type" names its
 *        elements in messages
 *   {"value": NUMBER | "DIGITS" | true|false[, "type": "u32"]}
 *        a scalar, of the parameter's own PTX type unless "type" says
 *   {"hex": "0a0b..."}  raw bytes of an aggregate passed by value
 * A result:
 *   {"ok": true, "report": [LAUNCH], "html": "<!doctype ..."}   (html if asked)
 *   {"ok": false, "error": "MESSAGE", "code": "fault", "status": "failed"}
 *   code: usage io parse unsupported args limit fault arith deadlock tool gpu
 *   nogpu watchdog; status: failed (the kernel ran and stopped: a fault, a
 *   division by zero, a deadlock, the watchdog), refused (it did not run:
 *   arguments, an instruction warpmem does not run, a limit) or error (the
 *   request itself, the source).
 *
 * wm_api_kernels takes the same request (only its source keys are read)
 * and answers {"ok": true, "target": "sm_90", "version": "9.0",
 * "kernels": [{"name", "plain_name", "params": [{"name", "type", "size",
 * "align"}], "unsupported": null | "MESSAGE"}]}.
 */
#ifndef WM_API_H
#define WM_API_H

#ifdef __cplusplus
extern "C" {
#endif

/* The API's version, "MAJOR.MINOR": a new key is a minor step. */
const char *wm_api_version(void);
/* Runs one launch; the result is malloc'd (wm_api_free). */
char *wm_api_sim(const char *request);
/* The kernels of a source and their parameters; malloc'd (wm_api_free). */
char *wm_api_kernels(const char *request);
void wm_api_free(char *result);

#ifdef __cplusplus
}
#endif

#endif
