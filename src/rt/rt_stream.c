/* rt_stream.c - streams and events.  Every launch and copy runs to the end
 * when called, so streams are in order trivially; an event records the
 * device clock (predicted kernel times and copies), so that the time
 * between two events is what the GPU would have taken. */
#include <stdlib.h>
#include <string.h>

#include "rt/rt_int.h"

/* CUDA's special streams: 0, cudaStreamLegacy (1), cudaStreamPerThread (2). */
static int special_stream(const RtStream *s) { return (uintptr_t)s <= 2; }

static int valid_stream(const RtStream *s) {
  if (special_stream(s)) return 1;
  for (const RtStream *t = rtx.streams; t; t = t->next)
    if (t == s) return 1;
  return 0;
}

static int valid_event(const RtEvent *ev) {
  for (const RtEvent *t = rtx.events; t && ev; t = t->next)
    if (t == ev) return 1;
  return 0;
}

RtError rt_stream_create(RtStream **out) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!out) return rtx_leave(RT_ERR_INVALID_VALUE);
  RtStream *s = wm_xcalloc(1, sizeof *s);
  s->magic = RT_STREAM_MAGIC;
  s->next = rtx.streams;
  rtx.streams = s;
  *out = s;
  return rtx_leave(RT_SUCCESS);
}

RtError rt_stream_destroy(RtStream *s) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (special_stream(s)) return rtx_leave(RT_ERR_INVALID_HANDLE);
  for (RtStream **p = &rtx.streams; *p; p = &(*p)->next)
    if (*p == s) {
      *p = s->next;
      free(s);
      return rtx_leave(RT_SUCCESS);
    }
  return rtx_leave(RT_ERR_INVALID_HANDLE);
}

RtError rt_stream_check(RtStream *s) {
  RtError r = rtx_enter(0);
  if (r) return r;
  return rtx_leave(valid_stream(s) ? RT_SUCCESS : RT_ERR_INVALID_HANDLE);
}

/* The default stream's attributes (NULL has no RtStream). */
static uint8_t default_attr[RT_STREAM_ATTRS][RT_STREAM_ATTR_BYTES];

static RtError stream_attr(RtStream *s, unsigned attr, size_t n, uint8_t **slot) {
  if (!valid_stream(s)) return RT_ERR_INVALID_HANDLE;
  if (attr >= RT_STREAM_ATTRS || n > RT_STREAM_ATTR_BYTES) return RT_ERR_INVALID_VALUE;
  *slot = s ? s->attr[attr] : default_attr[attr];
  return RT_SUCCESS;
}

RtError rt_stream_set_attr(RtStream *s, unsigned attr, const void *value, size_t n) {
  RtError r = rtx_enter(0);
  if (r) return r;
  uint8_t *slot;
  if (!value) return rtx_leave(RT_ERR_INVALID_VALUE);
  if ((r = stream_attr(s, attr, n, &slot))) return rtx_leave(r);
  memcpy(slot, value, n);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_stream_get_attr(RtStream *s, unsigned attr, void *value, size_t n) {
  RtError r = rtx_enter(0);
  if (r) return r;
  uint8_t *slot;
  if (!value) return rtx_leave(RT_ERR_INVALID_VALUE);
  if ((r = stream_attr(s, attr, n, &slot))) return rtx_leave(r);
  memcpy(value, slot, n);
  return rtx_leave(RT_SUCCESS);
}

RtError rt_stream_sync(RtStream *s) {
  RtError r = rtx_enter(1);
  if (r) return r;
  fflush(stdout);
  return rtx_leave(valid_stream(s) ? RT_SUCCESS : RT_ERR_INVALID_HANDLE);
}

RtError rt_event_create(RtEvent **out, int timing) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!out) return rtx_leave(RT_ERR_INVALID_VALUE);
  RtEvent *ev = wm_xcalloc(1, sizeof *ev);
  ev->magic = RT_EVENT_MAGIC;
  ev->timing = timing;
  ev->next = rtx.events;
  rtx.events = ev;
  *out = ev;
  return rtx_leave(RT_SUCCESS);
}

RtError rt_event_destroy(RtEvent *ev) {
  RtError r = rtx_enter(1);
  if (r) return r;
  for (RtEvent **p = &rtx.events; *p && ev; p = &(*p)->next)
    if (*p == ev) {
      *p = ev->next;
      free(ev);
      return rtx_leave(RT_SUCCESS);
    }
  return rtx_leave(RT_ERR_INVALID_HANDLE);
}

RtError rt_event_record(RtEvent *ev, RtStream *s) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!valid_event(ev) || !valid_stream(s)) return rtx_leave(RT_ERR_INVALID_HANDLE);
  ev->recorded = 1;
  ev->t_ns = rtx.clock_ns;
  return rtx_leave(RT_SUCCESS);
}

RtError rt_event_sync(RtEvent *ev) {
  RtError r = rtx_enter(1);
  if (r) return r;
  fflush(stdout);
  return rtx_leave(valid_event(ev) ? RT_SUCCESS : RT_ERR_INVALID_HANDLE);
}

RtError rt_event_elapsed(RtEvent *start, RtEvent *end, float *ms) {
  RtError r = rtx_enter(1);
  if (r) return r;
  if (!ms) return rtx_leave(RT_ERR_INVALID_VALUE);
  if (!valid_event(start) || !valid_event(end) || !start->timing || !end->timing || !start->recorded ||
      !end->recorded)
    return rtx_leave(RT_ERR_INVALID_HANDLE);
  *ms = (float)((end->t_ns - start->t_ns) / 1e6);
  return rtx_leave(RT_SUCCESS);
}

void rtx_streams_free(void) {
  while (rtx.streams) {
    RtStream *s = rtx.streams;
    rtx.streams = s->next;
    free(s);
  }
  while (rtx.events) {
    RtEvent *ev = rtx.events;
    rtx.events = ev->next;
    free(ev);
  }
}
