/* Contexts: backend and device resolution, synchronization, events, pool access. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"

/* GPUX_BACKEND (unset or empty = auto). */
static gpux_status backend_from_env(gpux_backend_kind *out) {
  const char *env = getenv("GPUX_BACKEND");
  if (!env || !*env) {
    *out = GPUX_BACKEND_AUTO;
    return GPUX_SUCCESS;
  }
  gpux_status s = gpux_backend_from_name(out, env);
  if (s != GPUX_SUCCESS)
    return gpux__set_error(s, "GPUX_BACKEND='%s' is not a backend (expected cuda, opencl or auto)", env);
  if (*out == GPUX_BACKEND_DEFAULT) *out = GPUX_BACKEND_AUTO;
  return GPUX_SUCCESS;
}

/* GPUX_DEVICE (unset or empty = 0). */
static gpux_status device_from_env(int *out) {
  const char *env = getenv("GPUX_DEVICE");
  *out = 0;
  if (!env || !*env) return GPUX_SUCCESS;
  char *end;
  errno = 0;
  long v = strtol(env, &end, 10);
  if (errno || *end || v < 0 || v > 1 << 20)
    return gpux__set_error(GPUX_ERROR_INVALID_DEVICE, "GPUX_DEVICE='%s' is not a device index", env);
  *out = (int)v;
  return GPUX_SUCCESS;
}

/* GPUX_GEMM (unset or empty = auto). */
static gpux_status gemm_path_from_env(int *out) {
  const char *env = getenv("GPUX_GEMM");
  *out = GPUX_GEMM_AUTO;
  if (!env || !*env || !strcasecmp(env, "auto")) return GPUX_SUCCESS;
  if (!strcasecmp(env, "vendor")) *out = GPUX_GEMM_VENDOR;
  else if (!strcasecmp(env, "native")) *out = GPUX_GEMM_NATIVE;
  else
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "GPUX_GEMM='%s' is not a GEMM path (expected vendor, native or auto)", env);
  return GPUX_SUCCESS;
}

/* Opens device `index` of one backend. */
static gpux_status open_on(struct gpux_context *ctx, gpux_backend_kind kind, int index) {
  const gpux__backend_iface *be;
  int n = 0;
  GPUX__CHECK(gpux__backend_get(&be, kind));
  GPUX__CHECK(be->device_count(&n));
  if (n == 0) return gpux__set_error(GPUX_ERROR_NO_DEVICE, "%s backend: no device", be->name);
  if (index >= n)
    return gpux__set_error(GPUX_ERROR_INVALID_DEVICE, "device %d requested but %s has %d device(s)",
                           index, be->name, n);
  memset(&ctx->info, 0, sizeof ctx->info);
  GPUX__CHECK(be->device_info(index, &ctx->info));
  ctx->info.backend = kind;
  ctx->info.index = index;
  GPUX__CHECK(be->context_create(index, &ctx->b));
  ctx->be = be;
  ctx->kind = kind;
  ctx->device = index;
  gpux__context_init_common(ctx);
  return GPUX_SUCCESS;
}

void gpux__context_init_common(struct gpux_context *ctx) {
  pthread_mutex_init(&ctx->lock, NULL);
  pthread_mutex_init(&ctx->prog_lock, NULL);
  ctx->s0 = (struct gpux_stream){.ctx = ctx, .q = ctx->be->queue_default(ctx->b), .refs = 1,
                                 .is_default = 1};
  ctx->slots_used = 1;
}

GPUX_API gpux_status gpux_context_create(gpux_context_t *out, gpux_backend_kind backend,
                                         int device) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_context_create: out is NULL");
  *out = NULL;
  if (backend == GPUX_BACKEND_DEFAULT)
    GPUX__CHECK(backend_from_env(&backend));
  else if (backend != GPUX_BACKEND_AUTO && !gpux__backend_known(backend))
    return gpux__set_error(GPUX_ERROR_BACKEND_UNKNOWN, "unknown backend id %d", (int)backend);
  if (device < -1)
    return gpux__set_error(GPUX_ERROR_INVALID_DEVICE, "device index %d is negative", device);
  if (device == -1) GPUX__CHECK(device_from_env(&device));
  int gemm_path;
  GPUX__CHECK(gemm_path_from_env(&gemm_path));

  struct gpux_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ctx->refs = 1;
  ctx->pool.limit = UINT64_MAX;
  ctx->gemm_path = gemm_path;
  gpux_status s;
  if (backend == GPUX_BACKEND_AUTO) {
    /* each backend in the registry's order (the OpenCL backend lists GPUs before other
     * devices); the reasons of those that fail make the message when none is left */
    char why[2048] = "", *saved = gpux__error_save();
    size_t len = 0;
    s = GPUX_ERROR_NO_DEVICE;
    for (int i = 0; i < gpux__backend_count() && s != GPUX_SUCCESS; i++) {
      gpux_status si = open_on(ctx, gpux__backend_kind_at(i), device);
      if (si == GPUX_SUCCESS) s = si;
      else {
        if (si == GPUX_ERROR_INVALID_DEVICE) s = si;
        if (len < sizeof why)
          len += (size_t)snprintf(why + len, sizeof why - len, "; %s", gpux__error_body());
      }
    }
    if (s == GPUX_SUCCESS) {
      gpux__error_restore(saved);
    } else {
      free(saved);
      s = gpux__set_error(s, "auto: no usable backend%s", why);
    }
  } else {
    s = open_on(ctx, backend, device);
  }
  if (s != GPUX_SUCCESS) {
    free(ctx);
    return s;
  }
  *out = ctx;
  return GPUX_SUCCESS;
}

gpux_status gpux__context_adopt(struct gpux_context **out, gpux_backend_kind kind,
                                const gpux__native *n) {
  const gpux__backend_iface *be;
  int gemm_path, index = 0;
  GPUX__CHECK(gemm_path_from_env(&gemm_path));
  GPUX__CHECK(gpux__backend_get(&be, kind));
  if (!be->context_adopt)
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED, "the %s backend takes no native handles",
                           be->name);
  struct gpux_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ctx->refs = 1;
  ctx->pool.limit = UINT64_MAX;
  ctx->gemm_path = gemm_path;
  gpux_status s = be->context_adopt(n, &ctx->b, &index);
  if (s == GPUX_SUCCESS) s = be->device_info(index, &ctx->info);
  if (s != GPUX_SUCCESS) {
    if (ctx->b) be->context_destroy(ctx->b);
    free(ctx);
    return s;
  }
  ctx->info.backend = kind;
  ctx->info.index = index;
  ctx->be = be;
  ctx->kind = kind;
  ctx->device = index;
  gpux__context_init_common(ctx);
  *out = ctx;
  return GPUX_SUCCESS;
}

void gpux__context_retain(struct gpux_context *ctx) {
  __atomic_add_fetch(&ctx->refs, 1, __ATOMIC_RELAXED);
}

void gpux__context_unref(struct gpux_context *ctx) {
  if (__atomic_sub_fetch(&ctx->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
  /* every created stream holds a reference: none is left */
  gpux__streams_destroy(ctx);
  (void)ctx->be->synchronize(ctx->s0.q);
  gpux__staging_free(ctx, ctx->s0.staging);
  gpux__deferred_free(ctx, &ctx->s0); /* an armed error goes unreported */
  gpux__program_cache_clear(ctx); /* no program or kernel handle is left: only the cache's */
  gpux__pool_destroy(ctx);
  ctx->be->context_destroy(ctx->b);
  pthread_mutex_destroy(&ctx->lock);
  pthread_mutex_destroy(&ctx->prog_lock);
  free(ctx);
}

GPUX_API void gpux_context_release(gpux_context_t ctx) {
  if (ctx) gpux__context_unref(ctx);
}

/* Whether the backend has the interface entries family q runs on (GPUX__QUERY_FAMILIES) */
static int has_entry(const gpux__backend_iface *be, int family) {
  switch (family) {
#define GPUX__Q_HAS(id, what, has) \
  case GPUX__Q_##id: return (has);
    GPUX__QUERY_FAMILIES(GPUX__Q_HAS)
#undef GPUX__Q_HAS
    default: return 0;
  }
}

gpux_status gpux__can(const struct gpux_context *ctx, const gpux__query *q, char *why,
                      size_t len) {
#define GPUX__Q_NAME(id, what, has) [GPUX__Q_##id] = what,
  static const char *const family_names[GPUX__Q_COUNT] = {GPUX__QUERY_FAMILIES(GPUX__Q_NAME)};
#undef GPUX__Q_NAME
  if (!has_entry(ctx->be, q->family)) {
    snprintf(why, len, "the %s backend has no %s", ctx->be->name,
             q->family >= 0 && q->family < GPUX__Q_COUNT ? family_names[q->family]
                                                         : "such op family");
    return GPUX_ERROR_UNSUPPORTED;
  }
  return ctx->be->supports ? ctx->be->supports(ctx->b, q, why, len) : GPUX_SUCCESS;
}

gpux_status gpux__need(const struct gpux_context *ctx, const gpux__query *q) {
  char why[512];
  gpux_status s = gpux__can(ctx, q, why, sizeof why);
  if (s == GPUX_SUCCESS) return s;
  const char *dt = q->dtype >= 0 ? gpux_dtype_name((gpux_dtype)q->dtype) : NULL;
  return gpux__set_error(s, "%s (%s%s%s backend, %s)", why, dt ? dt : "", dt ? "; " : "",
                         ctx->be->name, ctx->info.name);
}

#define CHECK_CTX(ctx)                                                         \
  do {                                                                         \
    if (!(ctx)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: context is NULL", __func__); \
  } while (0)

GPUX_API gpux_status gpux_context_synchronize(gpux_context_t ctx) {
  GPUX__API_FN();
  CHECK_CTX(ctx);
  GPUX__CHECK(gpux__sync_all(ctx));
  gpux__pool_all_idle(ctx); /* no queue uses a cached block any more */
  return gpux__deferred_check_all(ctx); /* bad indices of checked ops */
}

GPUX_API gpux_status gpux_context_backend(gpux_backend_kind *out, gpux_context_t ctx) {
  GPUX__API_FN();
  CHECK_CTX(ctx);
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_context_backend: out is NULL");
  *out = ctx->kind;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_context_device_info(gpux_device_info *out, gpux_context_t ctx) {
  GPUX__API_FN();
  CHECK_CTX(ctx);
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_context_device_info: out is NULL");
  *out = ctx->info;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_context_set_option(gpux_context_t ctx, gpux_context_option opt,
                                             int64_t value) {
  GPUX__API_FN();
  CHECK_CTX(ctx);
  switch (opt) {
    case GPUX_OPTION_POOL_LIMIT_BYTES:
      if (value < 0)
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "pool limit %lld is negative",
                               (long long)value);
      pthread_mutex_lock(&ctx->lock);
      ctx->pool.limit = (uint64_t)value;
      gpux__pool_trim_to_limit(ctx);
      pthread_mutex_unlock(&ctx->lock);
      return GPUX_SUCCESS;
    case GPUX_OPTION_GEMM_PATH:
      if (value != GPUX_GEMM_AUTO && value != GPUX_GEMM_VENDOR && value != GPUX_GEMM_NATIVE)
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                               "GEMM path %lld is not GPUX_GEMM_AUTO, _VENDOR or _NATIVE",
                               (long long)value);
      ctx->gemm_path = (int)value;
      return GPUX_SUCCESS;
    case GPUX_OPTION_TF32:
      if (value != 0 && value != 1)
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "TF32 option %lld is not 0 or 1",
                               (long long)value);
      ctx->tf32 = (int)value;
      return GPUX_SUCCESS;
  }
  return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "unknown context option %d", (int)opt);
}

GPUX_API gpux_status gpux_pool_get_stats(gpux_pool_stats *out, gpux_context_t ctx) {
  GPUX__API_FN();
  CHECK_CTX(ctx);
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_pool_get_stats: out is NULL");
  pthread_mutex_lock(&ctx->lock);
  *out = ctx->pool.stats;
  pthread_mutex_unlock(&ctx->lock);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_pool_trim(gpux_context_t ctx) {
  GPUX__API_FN();
  CHECK_CTX(ctx);
  GPUX__CHECK(gpux__sync_all(ctx));
  gpux__pool_all_idle(ctx);
  pthread_mutex_lock(&ctx->lock);
  gpux__pool_trim(ctx);
  pthread_mutex_unlock(&ctx->lock);
  return gpux__deferred_check_all(ctx); /* bad indices of checked ops */
}

/* ---- events */
struct gpux_event {
  struct gpux_context *ctx;
  void *ev;
  int recorded; /* atomic: an event may be recorded on one thread and waited on another */
  int timing;
};

GPUX_API gpux_status gpux_event_create_with_flags(gpux_event_t *out, gpux_context_t ctx,
                                                  unsigned flags) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  CHECK_CTX(ctx);
  if (flags & ~(unsigned)GPUX_EVENT_DISABLE_TIMING)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "unknown event flags 0x%x", flags);
  const int timing = !(flags & GPUX_EVENT_DISABLE_TIMING);
  if (timing)
    GPUX__NEED(ctx, GPUX__Q_EVENTS, 0, -1, -1);
  else
    GPUX__NEED(ctx, GPUX__Q_STREAMS, 0, -1, -1);
  struct gpux_event *e = calloc(1, sizeof *e);
  if (!e) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  e->ctx = ctx;
  e->timing = timing;
  gpux_status s = ctx->be->event_create(ctx->b, timing, &e->ev);
  if (s != GPUX_SUCCESS) {
    free(e);
    return s;
  }
  gpux__context_retain(ctx);
  *out = e;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_event_create(gpux_event_t *out, gpux_context_t ctx) {
  GPUX__API_FN();
  return gpux_event_create_with_flags(out, ctx, GPUX_EVENT_DEFAULT);
}

GPUX_API void gpux_event_release(gpux_event_t e) {
  if (!e) return;
  struct gpux_context *ctx = e->ctx;
  ctx->be->event_destroy(ctx->b, e->ev);
  free(e);
  gpux__context_unref(ctx);
}

/* an event and a stream of one context */
static gpux_status check_event_stream(const struct gpux_event *e, const struct gpux_stream *s) {
  if (!e) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "event is NULL");
  if (!s) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "stream is NULL");
  if (s->ctx != e->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH,
                           "the event and the stream belong to different contexts");
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_event_record_on(gpux_event_t e, gpux_stream_t s) {
  GPUX__API_FN();
  GPUX__CHECK(check_event_stream(e, s));
  GPUX__CHECK(e->ctx->be->event_record(s->q, e->ev));
  __atomic_store_n(&e->recorded, 1, __ATOMIC_RELEASE);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_event_record(gpux_event_t e) {
  GPUX__API_FN();
  if (!e) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "event is NULL");
  return gpux_event_record_on(e, gpux__stream_cur(e->ctx));
}

GPUX_API gpux_status gpux_event_synchronize(gpux_event_t e) {
  GPUX__API_FN();
  if (!e) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "event is NULL");
  if (!__atomic_load_n(&e->recorded, __ATOMIC_ACQUIRE)) return GPUX_SUCCESS;
  return e->ctx->be->event_synchronize(e->ctx->b, e->ev);
}

GPUX_API gpux_status gpux_event_query(int *done, gpux_event_t e) {
  GPUX__API_FN();
  if (!done) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "done is NULL");
  *done = 0;
  if (!e) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "event is NULL");
  if (!__atomic_load_n(&e->recorded, __ATOMIC_ACQUIRE)) {
    *done = 1;
    return GPUX_SUCCESS;
  }
  return e->ctx->be->event_query(e->ctx->b, e->ev, done);
}

GPUX_API gpux_status gpux_stream_wait_event(gpux_stream_t s, gpux_event_t e) {
  GPUX__API_FN();
  GPUX__CHECK(check_event_stream(e, s));
  if (!__atomic_load_n(&e->recorded, __ATOMIC_ACQUIRE)) return GPUX_SUCCESS;
  return s->ctx->be->queue_wait_event(s->q, e->ev);
}

GPUX_API gpux_status gpux_event_elapsed_ms(double *ms, gpux_event_t start, gpux_event_t end) {
  GPUX__API_FN();
  if (!ms || !start || !end)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_event_elapsed_ms: NULL argument");
  if (start->ctx != end->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "events belong to different contexts");
  if (!start->timing || !end->timing)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "an event made with GPUX_EVENT_DISABLE_TIMING has no time");
  if (!__atomic_load_n(&start->recorded, __ATOMIC_ACQUIRE) ||
      !__atomic_load_n(&end->recorded, __ATOMIC_ACQUIRE))
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "both events must be recorded");
  return start->ctx->be->event_elapsed_ms(start->ctx->b, start->ev, end->ev, ms);
}
