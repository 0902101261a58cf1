/* rt_md2.h - the MD2 message digest (RFC 1319), for the CUDA runtime's
 * integrity check of its driver (api_driver_export.c). */
#ifndef WM_RT_MD2_H
#define WM_RT_MD2_H

#include <stddef.h>
#include <stdint.h>

typedef struct RtMd2 {
  uint8_t x[48], c[16], buf[16];
  unsigned n;
} RtMd2;

void rt_md2_init(RtMd2 *m);
void rt_md2_add(RtMd2 *m, const void *p, size_t n);
/* The 16-byte digest of what was added (m is used up). */
void rt_md2_end(RtMd2 *m, uint8_t out[16]);
/* The digest of p[0..n). */
void rt_md2(const void *p, size_t n, uint8_t out[16]);

#endif
