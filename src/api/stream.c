/* Streams: more queues of one context, the calling thread's current stream, and events on
 * streams (include/gpux/context.h, docs/semantics.md "Streams and threads").
 *
 * Which stream an op runs on is the calling thread's current stream of the op's context,
 * as in PyTorch and CuPy: ops take no stream argument, and the lookup costs one relaxed
 * load until some thread sets a stream (ctx->current_set), then a walk of the thread's own
 * short table. The table holds a reference on each stream it names (and so on the
 * context); a thread's table is dropped when the thread ends. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* ---- the calling thread's current streams */
typedef struct cur_entry {
  struct gpux_context *ctx;
  struct gpux_stream *s;
} cur_entry;
typedef struct cur_table {
  int n, cap;
  cur_entry *e;
} cur_table;

static _Thread_local cur_table *t_cur;
static pthread_key_t g_cur_key;
static pthread_once_t g_cur_once = PTHREAD_ONCE_INIT;

/* thread exit: drop the references the table holds */
static void cur_table_free(void *p) {
  cur_table *t = p;
  for (int i = 0; i < t->n; i++) gpux__stream_unref(t->e[i].s);
  free(t->e);
  free(t);
}
static void cur_key_make(void) { (void)pthread_key_create(&g_cur_key, cur_table_free); }

struct gpux_stream *gpux__stream_current_slow(struct gpux_context *ctx) {
  const cur_table *t = t_cur;
  if (t)
    for (int i = 0; i < t->n; i++)
      if (t->e[i].ctx == ctx) return t->e[i].s;
  return &ctx->s0;
}

/* ---- references */
void gpux__stream_retain(struct gpux_stream *s) {
  if (!s->is_default) __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
}

/* s's queue (after its work) and bounce buffers */
static void stream_free_queue(struct gpux_context *ctx, struct gpux_stream *s) {
  ctx->be->queue_destroy(s->q); /* waits for its work */
  gpux__staging_free(ctx, s->staging);
  gpux__deferred_free(ctx, s);
}

void gpux__stream_unref(struct gpux_stream *s) {
  if (s->is_default || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
  struct gpux_context *ctx = s->ctx;
  stream_free_queue(ctx, s);
  pthread_mutex_lock(&ctx->lock);
  gpux__pool_forget_stream(ctx, s);
  struct gpux_stream **pp = &ctx->streams;
  while (*pp != s) pp = &(*pp)->next;
  *pp = s->next;
  /* the shared last slot stays taken while another stream has it */
  int shared = 0;
  for (struct gpux_stream *o = ctx->streams; o; o = o->next) shared |= o->slot == s->slot;
  if (!shared) ctx->slots_used &= ~((uint64_t)1 << s->slot);
  pthread_mutex_unlock(&ctx->lock);
  free(s);
  gpux__context_unref(ctx);
}

gpux_status gpux__sync_all(struct gpux_context *ctx) {
  gpux_status s = ctx->be->synchronize(ctx->s0.q);
  /* the list may change under another thread: hold references while waiting */
  pthread_mutex_lock(&ctx->lock);
  int n = 0;
  for (struct gpux_stream *x = ctx->streams; x; x = x->next) n++;
  struct gpux_stream **v = n ? malloc((size_t)n * sizeof *v) : NULL;
  int k = 0;
  if (v)
    for (struct gpux_stream *x = ctx->streams; x; x = x->next) {
      gpux__stream_retain(x);
      v[k++] = x;
    }
  pthread_mutex_unlock(&ctx->lock);
  if (n && !v) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  for (int i = 0; i < k; i++) {
    gpux_status si = ctx->be->synchronize(v[i]->q);
    if (s == GPUX_SUCCESS) s = si;
    gpux__stream_unref(v[i]);
  }
  free(v);
  return s;
}

void gpux__streams_destroy(struct gpux_context *ctx) {
  while (ctx->streams) {
    struct gpux_stream *s = ctx->streams;
    ctx->streams = s->next;
    stream_free_queue(ctx, s);
    free(s);
  }
}

/* ---- public */
#define CHECK_STREAM(s)                                                                \
  do {                                                                                 \
    if (!(s)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "stream is NULL");       \
  } while (0)

GPUX_API gpux_status gpux_stream_create(gpux_stream_t *out, gpux_context_t ctx) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "context is NULL");
  GPUX__NEED(ctx, GPUX__Q_STREAMS, 0, -1, -1);
  struct gpux_stream *s = calloc(1, sizeof *s);
  if (!s) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  gpux_status st = ctx->be->queue_create(ctx->b, &s->q);
  if (st != GPUX_SUCCESS) {
    free(s);
    return st;
  }
  s->ctx = ctx;
  s->refs = 1;
  pthread_mutex_lock(&ctx->lock);
  s->slot = GPUX__STREAM_SLOTS - 1;
  for (int i = 1; i < GPUX__STREAM_SLOTS - 1; i++)
    if (!(ctx->slots_used & ((uint64_t)1 << i))) {
      s->slot = i;
      break;
    }
  ctx->slots_used |= (uint64_t)1 << s->slot;
  s->next = ctx->streams;
  ctx->streams = s;
  pthread_mutex_unlock(&ctx->lock);
  gpux__context_retain(ctx);
  *out = s;
  return GPUX_SUCCESS;
}

GPUX_API void gpux_stream_release(gpux_stream_t s) {
  if (s) gpux__stream_unref(s);
}

GPUX_API gpux_status gpux_context_default_stream(gpux_stream_t *out, gpux_context_t ctx) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "context is NULL");
  *out = &ctx->s0;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_stream_set_current(gpux_context_t ctx, gpux_stream_t s) {
  GPUX__API_FN();
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "context is NULL");
  if (s && s->ctx != ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "the stream belongs to another context");
  cur_table *t = t_cur;
  int at = -1;
  if (t)
    for (int i = 0; i < t->n; i++)
      if (t->e[i].ctx == ctx) at = i;
  if (!s || s->is_default) { /* back to the default stream: drop the entry */
    if (at >= 0) {
      struct gpux_stream *old = t->e[at].s;
      t->e[at] = t->e[--t->n];
      gpux__stream_unref(old);
    }
    return GPUX_SUCCESS;
  }
  if (at < 0) {
    if (pthread_once(&g_cur_once, cur_key_make) != 0)
      return gpux__set_error(GPUX_ERROR_INTERNAL, "pthread_once failed");
    if (!t) {
      if (!(t = calloc(1, sizeof *t)))
        return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
      if (pthread_setspecific(g_cur_key, t) != 0) {
        free(t);
        return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "pthread_setspecific failed");
      }
      t_cur = t;
    }
    if (t->n == t->cap) {
      int cap = t->cap ? t->cap * 2 : 4;
      cur_entry *e = realloc(t->e, (size_t)cap * sizeof *e);
      if (!e) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
      t->e = e;
      t->cap = cap;
    }
    at = t->n++;
    t->e[at] = (cur_entry){ctx, NULL};
  }
  gpux__stream_retain(s);
  struct gpux_stream *old = t->e[at].s;
  t->e[at].s = s;
  __atomic_store_n(&ctx->current_set, 1, __ATOMIC_RELAXED);
  if (old) gpux__stream_unref(old);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_stream_get_current(gpux_stream_t *out, gpux_context_t ctx) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "context is NULL");
  *out = gpux__stream_cur(ctx);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_stream_context(gpux_context_t *out, gpux_stream_t s) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  CHECK_STREAM(s);
  *out = s->ctx;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_stream_synchronize(gpux_stream_t s) {
  GPUX__API_FN();
  CHECK_STREAM(s);
  GPUX__CHECK(s->ctx->be->synchronize(s->q));
  return gpux__deferred_check(s); /* a bad index of a checked op queued on s */
}
