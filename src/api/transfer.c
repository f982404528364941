/* Page-locked host memory and asynchronous transfers (include/gpux/array.h).
 *
 * gpux_pinned_free takes only the pointer, so each allocation is recorded (pointer, its
 * context, the backend's handle) in one process-wide list under a lock; allocations are few
 * and large, so a list is enough. Each holds a reference to its context. */
#include <pthread.h>
#include <stdlib.h>

#include "gpux.h"
#include "internal.h"

typedef struct pinned {
  void *ptr, *handle;
  size_t bytes;
  struct gpux_context *ctx;
  struct pinned *next;
} pinned;

static pthread_mutex_t g_pinned_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned *g_pinned;

int gpux__pinned_contains(const void *p, size_t bytes) {
  const char *c = p;
  int in = 0;
  pthread_mutex_lock(&g_pinned_lock);
  for (const pinned *x = g_pinned; x && !in; x = x->next)
    in = c >= (const char *)x->ptr && bytes <= x->bytes &&
         (size_t)(c - (const char *)x->ptr) <= x->bytes - bytes;
  pthread_mutex_unlock(&g_pinned_lock);
  return in;
}

GPUX_API gpux_status gpux_pinned_alloc(void **out, gpux_context_t ctx, size_t bytes) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "context is NULL");
  if (bytes == 0) return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "0 bytes requested");
  GPUX__NEED(ctx, GPUX__Q_ASYNC_COPY, 0, -1, -1);
  pinned *p = calloc(1, sizeof *p);
  if (!p) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  gpux_status s = ctx->be->host_alloc(ctx->b, bytes, &p->ptr, &p->handle);
  if (s != GPUX_SUCCESS) {
    free(p);
    return s;
  }
  p->bytes = bytes;
  p->ctx = ctx;
  gpux__context_retain(ctx);
  pthread_mutex_lock(&g_pinned_lock);
  p->next = g_pinned;
  g_pinned = p;
  pthread_mutex_unlock(&g_pinned_lock);
  *out = p->ptr;
  return GPUX_SUCCESS;
}

GPUX_API void gpux_pinned_free(void *ptr) {
  if (!ptr) return;
  pinned *p = NULL;
  pthread_mutex_lock(&g_pinned_lock);
  for (pinned **at = &g_pinned; *at; at = &(*at)->next)
    if ((*at)->ptr == ptr) {
      p = *at;
      *at = p->next;
      break;
    }
  pthread_mutex_unlock(&g_pinned_lock);
  if (!p) return; /* not gpux's: nothing to free (a void call cannot report it) */
  struct gpux_context *ctx = p->ctx;
  /* queued copies (on any stream) may still use it */
  (void)gpux__sync_all(ctx);
  ctx->be->host_free(ctx->b, p->ptr, p->handle);
  free(p);
  gpux__context_unref(ctx);
}

GPUX_API gpux_status gpux_array_write_async(gpux_array_t dst, const void *data, size_t bytes) {
  GPUX__API_FN();
  return gpux__array_write(dst, data, bytes, 1, "gpux_array_write_async");
}

GPUX_API gpux_status gpux_array_read_async(gpux_array_t src, void *data, size_t bytes) {
  GPUX__API_FN();
  return gpux__array_read(src, data, bytes, 1, "gpux_array_read_async");
}
