/* The deferred error of checked indexing (include/gpux/index.h, GPUX_INDEX_CHECKED; "THE
 * DEFERRED ERROR WORD" in kernels/common/gpux_kernels.h).
 *
 * Each stream that ran a checked op owns two int64 device words: err[0] holds the smallest
 * key (tag << GPUX_IX_POS_BITS | position) of a bad index, GPUX_IX_NO_KEY when none, and
 * err[1] the value at that position. Ops get tags 0, 1, ... in queue order since the
 * stream's last check, so the smallest key names the first op (in queue order) that met a
 * bad index and its first bad position in row-major order; the op's name and axis length
 * are kept here by tag. A wait on the stream reads the words once (16 bytes) when an op is
 * armed, nothing otherwise; they are reset only after an error. */
#include <stdlib.h>
#include "internal.h"

typedef struct deferred_op {
  const char *fn;
  int64_t len;
} deferred_op;

struct gpux__deferred {
  void *buf; /* two int64 words on the stream's device */
  int n, cap; /* ops armed since the last check (their tags are 0 .. n-1) */
  deferred_op *ops;
};

static const int64_t k_reset[2] = {GPUX_IX_NO_KEY, 0};

gpux_status gpux__deferred_arm(struct gpux_stream *s, const char *fn, int64_t len,
                               gpux__deferred_slot *slot) {
  struct gpux_context *ctx = s->ctx;
  struct gpux__deferred *d = s->deferred;
  if (!d) {
    d = calloc(1, sizeof *d);
    if (!d) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    gpux_status st = ctx->be->mem_alloc(ctx->b, sizeof k_reset, &d->buf);
    if (st == GPUX_SUCCESS) st = ctx->be->mem_upload(s->q, d->buf, 0, k_reset, sizeof k_reset);
    if (st != GPUX_SUCCESS) {
      if (d->buf) ctx->be->mem_free(ctx->b, d->buf);
      free(d);
      return st;
    }
    s->deferred = d;
  }
  if (d->n == GPUX_IX_MAX_TAGS) {
    /* the tags are used up (that many checked ops with no wait): wait here, once */
    GPUX__CHECK(ctx->be->synchronize(s->q));
    GPUX__CHECK(gpux__deferred_check(s));
  }
  if (d->n == d->cap) {
    int cap = d->cap ? 2 * d->cap : 16;
    deferred_op *ops = realloc(d->ops, (size_t)cap * sizeof *ops);
    if (!ops) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    d->ops = ops;
    d->cap = cap;
  }
  d->ops[d->n] = (deferred_op){fn, len};
  slot->buf = d->buf;
  slot->key = (int64_t)d->n << GPUX_IX_POS_BITS;
  d->n++;
  return GPUX_SUCCESS;
}

gpux_status gpux__deferred_after(struct gpux_stream *s, const gpux__deferred_slot *slot,
                                 const struct gpux_array *idx) {
  struct gpux_context *ctx = s->ctx;
  gpux__index p;
  memset(&p, 0, sizeof p);
  p.kind = GPUX__IX_BADVAL;
  p.idx_dtype = idx->dtype == GPUX_INT32 ? GPUX_KDT_i32 : GPUX_KDT_i64;
  p.win_dtype = GPUX_KDT_i32;
  p.x.n = 1;
  p.x.len = 1;
  p.x.key = slot->key;
  p.nd.n = idx->size;
  p.nd.ndim = idx->ndim ? idx->ndim : 1;
  p.nd.tile_dim = -1;
  p.nd.shape[0] = 1;
  for (int k = 0; k < idx->ndim; k++) {
    p.nd.shape[k] = idx->shape[k];
    p.nd.stride[0][k] = idx->strides[k];
  }
  p.nd.offset[0] = idx->offset;
  p.idx = gpux__operand_on(s, idx);
  p.err = (gpux__operand){slot->buf, 0, GPUX_KDT_i64};
  return ctx->be->index(s->q, &p);
}

gpux_status gpux__deferred_check(struct gpux_stream *s) {
  struct gpux__deferred *d = s->deferred;
  if (!d || d->n == 0) return GPUX_SUCCESS;
  struct gpux_context *ctx = s->ctx;
  int64_t w[2];
  GPUX__CHECK(ctx->be->mem_download(s->q, d->buf, 0, w, sizeof w));
  const int n = d->n;
  d->n = 0;
  if (w[0] == GPUX_IX_NO_KEY) return GPUX_SUCCESS;
  const int64_t tag = w[0] >> GPUX_IX_POS_BITS;
  const int64_t pos = w[0] & (((int64_t)1 << GPUX_IX_POS_BITS) - 1);
  const deferred_op op = tag < n ? d->ops[tag] : (deferred_op){"an indexing op", -1};
  GPUX__CHECK(ctx->be->mem_upload(s->q, d->buf, 0, k_reset, sizeof k_reset));
  return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                         "%s: index out of range at position %lld of idx (value %lld, axis "
                         "length %lld)",
                         op.fn, (long long)pos, (long long)w[1], (long long)op.len);
}

gpux_status gpux__deferred_check_all(struct gpux_context *ctx) {
  gpux_status s = gpux__deferred_check(&ctx->s0);
  /* as gpux__sync_all: references on the streams while reading */
  pthread_mutex_lock(&ctx->lock);
  int n = 0;
  for (struct gpux_stream *x = ctx->streams; x; x = x->next) n += x->deferred != NULL;
  struct gpux_stream **v = n ? malloc((size_t)n * sizeof *v) : NULL;
  int k = 0;
  if (v)
    for (struct gpux_stream *x = ctx->streams; x; x = x->next)
      if (x->deferred) {
        gpux__stream_retain(x);
        v[k++] = x;
      }
  pthread_mutex_unlock(&ctx->lock);
  if (n && !v) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  for (int i = 0; i < k; i++) {
    if (s == GPUX_SUCCESS) s = gpux__deferred_check(v[i]);
    gpux__stream_unref(v[i]);
  }
  free(v);
  return s;
}

void gpux__deferred_free(struct gpux_context *ctx, struct gpux_stream *s) {
  struct gpux__deferred *d = s->deferred;
  if (!d) return;
  ctx->be->mem_free(ctx->b, d->buf);
  free(d->ops);
  free(d);
  s->deferred = NULL;
}
