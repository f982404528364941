/* Arrays: creation, transfers, views, copies, casts and queries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../../kernels/common/gpux_half.h"

/* from the dtype record (kernels/common/gpux_kernels.h); the ids are checked against enum
 * gpux_dtype in elementwise.c */
static const char *const dtype_names[GPUX_DTYPE_COUNT] = {GPUX_DTYPES(GPUX_KDT_NAME_INIT)};
static const size_t dtype_sizes[GPUX_DTYPE_COUNT] = {GPUX_DTYPES(GPUX_KDT_SIZE_INIT)};

GPUX_API const char *gpux_dtype_name(gpux_dtype dt) {
  return (unsigned)dt < GPUX_DTYPE_COUNT ? dtype_names[dt] : NULL;
}
GPUX_API size_t gpux_dtype_size(gpux_dtype dt) {
  return (unsigned)dt < GPUX_DTYPE_COUNT ? dtype_sizes[dt] : 0;
}

gpux_status gpux__check_dtype(gpux_dtype dt, const char *what) {
  if ((unsigned)dt >= GPUX_DTYPE_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_DTYPE, "%s: unknown dtype %d", what, (int)dt);
  return GPUX_SUCCESS;
}

gpux_status gpux__check_array(const struct gpux_array *a, const char *what) {
  if (!a) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s is NULL", what);
  return GPUX_SUCCESS;
}

gpux_status gpux__check_shape(int ndim, const int64_t *shape, int64_t *size, gpux_dtype dt) {
  if (ndim < 0 || ndim > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "ndim %d is outside 0..%d", ndim, GPUX_MAX_DIMS);
  if (ndim > 0 && !shape) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "shape is NULL");
  int64_t n = 1;
  int overflow = 0;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] < 0)
      return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "dimension %d has negative size %lld", d,
                             (long long)shape[d]);
    if (shape[d] == 0) {
      n = 0;
      overflow = 0;
      break;
    }
    if (!overflow && n > INT64_MAX / shape[d]) overflow = 1;
    if (!overflow) n *= shape[d];
  }
  size_t es = gpux_dtype_size(dt);
  if (overflow || (uint64_t)n > (uint64_t)(INT64_MAX / (int64_t)(es ? es : 1)) ||
      (uint64_t)n * es > SIZE_MAX) {
    char sh[256];
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "shape %s of %s: the byte count overflows",
                           gpux__shape_str(sh, sizeof sh, ndim, shape), gpux_dtype_name(dt));
  }
  *size = n;
  return GPUX_SUCCESS;
}

static void set_contiguous_strides(struct gpux_array *a) {
  int64_t s = 1;
  for (int d = a->ndim - 1; d >= 0; d--) {
    a->strides[d] = s;
    s *= a->shape[d] ? a->shape[d] : 1;
  }
}

int gpux__is_contiguous(const struct gpux_array *a) {
  if (a->size == 0) return 1;
  int64_t s = 1;
  for (int d = a->ndim - 1; d >= 0; d--) {
    if (a->shape[d] != 1 && a->strides[d] != s) return 0;
    s *= a->shape[d];
  }
  return 1;
}

gpux_status gpux__array_new(struct gpux_array **out, struct gpux_context *ctx, gpux_dtype dt,
                            int ndim, const int64_t *shape) {
  int64_t size = 0;
  *out = NULL;
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "context is NULL");
  GPUX__CHECK(gpux__check_dtype(dt, "dtype"));
  GPUX__CHECK(gpux__check_shape(ndim, shape, &size, dt));
  struct gpux_array *a = calloc(1, sizeof *a);
  if (!a) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  a->ctx = ctx;
  a->dtype = dt;
  a->ndim = ndim;
  a->size = size;
  if (ndim) memcpy(a->shape, shape, (size_t)ndim * sizeof *shape);
  set_contiguous_strides(a);
  if (size > 0) {
    a->st = calloc(1, sizeof *a->st);
    if (!a->st) {
      free(a);
      return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    struct gpux_stream *home = gpux__stream_cur(ctx);
    gpux_status s = gpux__pool_alloc(ctx, home, (size_t)size * gpux_dtype_size(dt), &a->st->blk);
    if (s != GPUX_SUCCESS) {
      if (s == GPUX_ERROR_OUT_OF_MEMORY) {
        char sh[256], msg[1024];
        snprintf(msg, sizeof msg, "%s", gpux__error_body());
        gpux__set_error(s, "array %s of %s (%llu bytes): %s",
                        gpux__shape_str(sh, sizeof sh, ndim, shape), gpux_dtype_name(dt),
                        (unsigned long long)size * gpux_dtype_size(dt), msg);
      }
      free(a->st);
      free(a);
      return s;
    }
    a->st->refs = 1;
    a->st->home = home;
    gpux__stream_retain(home);
  }
  gpux__context_retain(ctx);
  *out = a;
  return GPUX_SUCCESS;
}

gpux__operand gpux__operand_of(const struct gpux_array *a) {
  gpux__operand o = {a->st ? a->st->blk.buf : NULL, a->offset, (int)a->dtype};
  return o;
}

/* A new array header sharing a's memory (for views). */
static gpux_status view_of(struct gpux_array **out, const struct gpux_array *a) {
  struct gpux_array *v = malloc(sizeof *v);
  if (!v) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  *v = *a;
  if (v->st) __atomic_add_fetch(&v->st->refs, 1, __ATOMIC_RELAXED);
  gpux__context_retain(a->ctx);
  *out = v;
  return GPUX_SUCCESS;
}

gpux_status gpux__array_view(struct gpux_array **out, const struct gpux_array *a) {
  return view_of(out, a);
}

gpux_status gpux__contiguous_copy(struct gpux_array **out, const struct gpux_array *a) {
  GPUX__CHECK(gpux__array_new(out, a->ctx, a->dtype, a->ndim, a->shape));
  gpux_status s = gpux__copy_strided(*out, a);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

gpux_status gpux__contiguous_ref(struct gpux_array **out, const struct gpux_array *a) {
  if (gpux__is_contiguous(a)) return view_of(out, a);
  return gpux__contiguous_copy(out, a);
}

GPUX_API void gpux_array_release(gpux_array_t a) {
  if (!a) return;
  struct gpux_context *ctx = a->ctx;
  if (a->st && __atomic_sub_fetch(&a->st->refs, 1, __ATOMIC_ACQ_REL) == 0) {
    if (a->st->wrapped) {
      /* the application's memory: gpux's queued work on it first (on any stream), then
       * it goes back */
      (void)gpux__sync_all(ctx);
      ctx->be->mem_unwrap(ctx->b, a->st->blk.buf);
      if (a->st->deleter) a->st->deleter(a->st->user);
    } else {
      gpux__pool_free(ctx, a->st->blk, a->st->home,
                      __atomic_load_n(&a->st->used, __ATOMIC_ACQUIRE));
      gpux__stream_unref(a->st->home);
    }
    free(a->st);
  }
  free(a);
  gpux__context_unref(ctx);
}

/* float64 -> float16 / bfloat16, rounded once to nearest even: the cast kernels' own
 * conversion (kernels/common/gpux_half.h) */
static uint64_t f64_bits(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

gpux__scalar gpux__scalar_from_double(double v, gpux_dtype dt) {
  return gpux__scalar_from_parts(v, 0.0, dt);
}

gpux__scalar gpux__scalar_from_parts(double v, double im, gpux_dtype dt) {
  gpux__scalar s;
  memset(&s, 0, sizeof s);
  if (gpux__dt_is_int(dt)) { /* the float -> int cast: truncate, saturate, NaN -> 0 */
    const int digits = gpux__dt_info[dt].digits, is_signed = gpux__dt_info[dt].kind == 'i';
    const uint64_t max = digits == 64 ? UINT64_MAX : ((uint64_t)1 << digits) - 1,
                   min = is_signed ? (uint64_t)0 - ((uint64_t)1 << digits) : 0;
    double lo, top;
    gpux__int_bounds(dt, &lo, &top);
    gpux__int_store(&s, dt,
                    isnan(v)    ? 0
                    : v >= top  ? max
                    : v <= lo   ? min
                    : is_signed ? (uint64_t)(int64_t)v
                                : (uint64_t)v);
    return s;
  }
  switch (dt) {
    case GPUX_FLOAT32: s.f32 = (float)v; break;
    case GPUX_FLOAT64: s.f64 = v; break;
    case GPUX_BOOL: s.b8 = v != 0.0; break;
    case GPUX_FLOAT16: s.f16 = gpux_f64_to_f16(f64_bits(v)); break;
    case GPUX_BFLOAT16: s.bf16 = gpux_f64_to_bf16(f64_bits(v)); break;
    case GPUX_COMPLEX64: s.c64[0] = (float)v; s.c64[1] = (float)im; break;
    case GPUX_COMPLEX128: s.c128[0] = v; s.c128[1] = im; break;
    default: break;
  }
  return s;
}

gpux_status gpux__scalar_exact(gpux__scalar *out, double v, gpux_dtype dt) {
  double lo = 0, top = -1; /* float dtypes: any value, rounded as casts round */
  if (gpux__dt_is_int(dt)) gpux__int_bounds(dt, &lo, &top);
  if (dt == GPUX_BOOL) top = 2;
  if (lo <= top && !(v >= lo && v < top && v == floor(v)))
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "the scalar %.17g is not a %s value (a %s array takes integers in "
                           "[%.17g, %.17g); cast the array to a float dtype for other values)",
                           v, gpux_dtype_name(dt), gpux_dtype_name(dt), lo, top);
  *out = gpux__scalar_from_double(v, dt);
  return GPUX_SUCCESS;
}

/* ---- creation */

GPUX_API gpux_status gpux_array_empty(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                      int ndim, const int64_t *shape) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  return gpux__array_new(out, ctx, dt, ndim, shape);
}

/* re + im i (im is 0 for real dtypes: the caller checked) */
static gpux_status fill_contiguous(struct gpux_array *a, double re, double im) {
  if (a->size == 0) return GPUX_SUCCESS;
  GPUX__NEED(a->ctx, GPUX__Q_FILL, 0, a->dtype, -1);
  gpux__launch l;
  l.layout = GPUX_LAYOUT_C;
  l.n = a->size;
  struct gpux_stream *q = gpux__stream_cur(a->ctx);
  l.opnd[0] = gpux__operand_on(q, a);
  l.scalar = gpux__scalar_from_parts(re, im, a->dtype);
  return a->ctx->be->fill(q->q, &l);
}

static gpux_status full(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt, int ndim,
                        const int64_t *shape, double re, double im) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__array_new(out, ctx, dt, ndim, shape));
  gpux_status s = fill_contiguous(*out, re, im);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

GPUX_API gpux_status gpux_array_full(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                     int ndim, const int64_t *shape, double value) {
  GPUX__API_FN();
  return full(out, ctx, dt, ndim, shape, value, 0.0);
}

GPUX_API gpux_status gpux_array_full_complex(gpux_array_t *out, gpux_context_t ctx,
                                             gpux_dtype dt, int ndim, const int64_t *shape,
                                             double re, double im) {
  GPUX__API_FN();
  if (out) *out = NULL;
  if ((unsigned)dt < GPUX_DTYPE_COUNT && !gpux__dt_is_complex(dt) && im != 0.0) /* NaN too */
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "gpux_array_full_complex: the value %g%+gi has an imaginary part, "
                           "which a %s array cannot hold (cast from a complex array to drop it)",
                           re, im, gpux_dtype_name(dt));
  return full(out, ctx, dt, ndim, shape, re, im);
}

GPUX_API gpux_status gpux_array_zeros(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                      int ndim, const int64_t *shape) {
  GPUX__API_FN();
  return gpux_array_full(out, ctx, dt, ndim, shape, 0.0);
}

GPUX_API gpux_status gpux_array_ones(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                     int ndim, const int64_t *shape) {
  GPUX__API_FN();
  return gpux_array_full(out, ctx, dt, ndim, shape, 1.0);
}

static gpux_status ramp(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt, int64_t n,
                        double start, double step, double stop, int is_linspace) {
  GPUX__CHECK(gpux__check_dtype(dt, "dtype"));
  if (gpux__dt_is_complex(dt)) /* no complex ramps (GPUX_DT_STORAGE) */
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "%s: %s is not supported (cast a real ramp to it)",
                           is_linspace ? "gpux_array_linspace" : "gpux_array_arange",
                           gpux_dtype_name(dt));
  GPUX__CHECK(gpux__array_new(out, ctx, dt, 1, &n));
  if (n == 0) return GPUX_SUCCESS;
  gpux_status s = gpux__need(ctx, &(const gpux__query){GPUX__Q_FILL, 0, dt, -1});
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
    return s;
  }
  gpux__launch l;
  l.layout = GPUX_LAYOUT_C;
  l.n = n;
  struct gpux_stream *q = gpux__stream_cur(ctx);
  l.opnd[0] = gpux__operand_on(q, *out);
  s = is_linspace ? ctx->be->linspace(q->q, &l, start, step, stop)
                  : ctx->be->arange(q->q, &l, start, step);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

GPUX_API gpux_status gpux_array_arange(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                       double start, double stop, double step) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!isfinite(start) || !isfinite(stop) || !isfinite(step) || step == 0.0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "arange(%g, %g, %g): start, stop and step must be finite, step non-zero",
                           start, stop, step);
  double len = ceil((stop - start) / step);
  if (!(len < 9.2e18))
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "arange(%g, %g, %g) is too long", start, stop, step);
  int64_t n = len > 0 ? (int64_t)len : 0;
  return ramp(out, ctx, dt, n, start, step, 0.0, 0);
}

GPUX_API gpux_status gpux_array_linspace(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                         double start, double stop, int64_t n) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (n < 0) return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "linspace: n = %lld is negative", (long long)n);
  if (!isfinite(start) || !isfinite(stop))
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "linspace: start and stop must be finite");
  double step = n > 1 ? (stop - start) / (double)(n - 1) : 0.0;
  return ramp(out, ctx, dt, n, start, step, stop, 1);
}

/* ---- transfers */

gpux_status gpux__check_bytes(const struct gpux_array *a, const void *data, size_t bytes,
                              const char *fn) {
  size_t want = (size_t)a->size * gpux_dtype_size(a->dtype);
  if (bytes != want)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: %zu bytes given, the array holds %zu",
                           fn, bytes, want);
  if (!data && bytes) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: data is NULL", fn);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_array_from_host(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                          int ndim, const int64_t *shape, const void *data) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  GPUX__CHECK(gpux__array_new(out, ctx, dt, ndim, shape));
  gpux_status s = gpux_array_write(*out, data, (size_t)(*out)->size * gpux_dtype_size(dt));
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

/* host -> device on stream q: pageable memory through the bounce buffers when they apply
 * (both forms: a copy from pageable memory cannot return before the host's part is done) */
static gpux_status put(struct gpux_stream *q, int async, void *buf, size_t off,
                       const void *data, size_t bytes) {
  struct gpux_context *ctx = q->ctx;
  if (gpux__staging_applies(ctx, data, bytes))
    return gpux__staged_upload(q, buf, off, data, bytes);
  return (async ? ctx->be->mem_upload_async : ctx->be->mem_upload)(q->q, buf, off, data, bytes);
}

/* device -> host likewise */
static gpux_status get(struct gpux_stream *q, int async, void *buf, size_t off, void *data,
                       size_t bytes) {
  struct gpux_context *ctx = q->ctx;
  if (gpux__staging_applies(ctx, data, bytes))
    return gpux__staged_download(q, buf, off, data, bytes);
  return (async ? ctx->be->mem_download_async : ctx->be->mem_download)(q->q, buf, off, data,
                                                                      bytes);
}

gpux_status gpux__array_write(struct gpux_array *dst, const void *data, size_t bytes,
                              int async, const char *fn) {
  GPUX__CHECK(gpux__check_array(dst, "dst"));
  GPUX__CHECK(gpux__check_bytes(dst, data, bytes, fn));
  struct gpux_context *ctx = dst->ctx;
  if (async) GPUX__NEED(ctx, GPUX__Q_ASYNC_COPY, 0, -1, -1);
  if (bytes == 0) return GPUX_SUCCESS;
  size_t es = gpux_dtype_size(dst->dtype);
  struct gpux_stream *q = gpux__stream_cur(ctx);
  if (gpux__is_contiguous(dst)) {
    gpux__stream_use(q, dst);
    return put(q, async, dst->st->blk.buf, (size_t)dst->offset * es, data, bytes);
  }
  /* strided destination: upload contiguous, then scatter on the device (both queued: the
   * temporary's memory goes back to the pool, whose later users queue after both) */
  struct gpux_array *tmp;
  GPUX__CHECK(gpux__array_new(&tmp, ctx, dst->dtype, dst->ndim, dst->shape));
  gpux_status s = put(q, async, tmp->st->blk.buf, 0, data, bytes);
  if (s == GPUX_SUCCESS) s = gpux__copy_strided(dst, tmp);
  gpux_array_release(tmp);
  return s;
}

gpux_status gpux__array_read(struct gpux_array *src, void *data, size_t bytes, int async,
                             const char *fn) {
  GPUX__CHECK(gpux__check_array(src, "src"));
  GPUX__CHECK(gpux__check_bytes(src, data, bytes, fn));
  struct gpux_context *ctx = src->ctx;
  if (async) GPUX__NEED(ctx, GPUX__Q_ASYNC_COPY, 0, -1, -1);
  struct gpux_stream *q = gpux__stream_cur(ctx);
  if (bytes == 0) {
    if (async) return GPUX_SUCCESS;
    GPUX__CHECK(ctx->be->synchronize(q->q));
    return gpux__deferred_check(q); /* a bad index of a checked op queued on q */
  }
  size_t es = gpux_dtype_size(src->dtype);
  gpux_status s;
  if (gpux__is_contiguous(src)) {
    gpux__stream_use(q, src);
    s = get(q, async, src->st->blk.buf, (size_t)src->offset * es, data, bytes);
  } else {
    struct gpux_array *tmp;
    GPUX__CHECK(gpux__array_new(&tmp, ctx, src->dtype, src->ndim, src->shape));
    s = gpux__copy_strided(tmp, src);
    if (s == GPUX_SUCCESS) s = get(q, async, tmp->st->blk.buf, 0, data, bytes);
    gpux_array_release(tmp);
  }
  /* a blocking read waited for q: a bad index of a checked op queued on q shows here */
  if (s == GPUX_SUCCESS && !async) s = gpux__deferred_check(q);
  return s;
}

GPUX_API gpux_status gpux_array_write(gpux_array_t dst, const void *data, size_t bytes) {
  GPUX__API_FN();
  return gpux__array_write(dst, data, bytes, 0, "gpux_array_write");
}

GPUX_API gpux_status gpux_array_read(gpux_array_t src, void *data, size_t bytes) {
  GPUX__API_FN();
  return gpux__array_read(src, data, bytes, 0, "gpux_array_read");
}

GPUX_API gpux_status gpux_array_download(void **data, size_t *bytes, gpux_array_t src) {
  GPUX__API_FN();
  if (!data || !bytes) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_download: data or bytes is NULL");
  *data = NULL;
  *bytes = 0;
  GPUX__CHECK(gpux__check_array(src, "gpux_array_download: src"));
  size_t n = (size_t)src->size * gpux_dtype_size(src->dtype);
  void *p = malloc(n ? n : 1);
  if (!p) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "cannot allocate %zu host bytes", n);
  gpux_status s = gpux_array_read(src, p, n);
  if (s != GPUX_SUCCESS) {
    free(p);
    return s;
  }
  *data = p;
  *bytes = n;
  return GPUX_SUCCESS;
}

GPUX_API void gpux_host_free(void *p) { free(p); }

/* ---- device copies */

gpux_status gpux__copy_strided(struct gpux_array *dst, const struct gpux_array *src) {
  /* a view copied onto itself is a no-op, as in NumPy (drivers reject overlapping copies) */
  if (dst->size == 0 || gpux__same_view(dst, src)) return GPUX_SUCCESS;
  struct gpux_context *ctx = dst->ctx;
  struct gpux_stream *q = gpux__stream_cur(ctx);
  size_t es = gpux_dtype_size(dst->dtype);
  gpux__stream_use(q, dst);
  gpux__stream_use(q, src);
  if (gpux__same_shape(dst, src) && gpux__is_contiguous(dst) && gpux__is_contiguous(src))
    return ctx->be->mem_copy(q->q, dst->st->blk.buf, (size_t)dst->offset * es, src->st->blk.buf,
                             (size_t)src->offset * es, (size_t)dst->size * es);
  gpux__launch l;
  const struct gpux_array *ops[2] = {dst, src};
  l.layout = GPUX_LAYOUT_N;
  l.opnd[0] = gpux__operand_of(dst);
  l.opnd[1] = gpux__operand_of(src);
  gpux__plan_nd(&l.nd, 2, ops, dst->ndim, dst->shape);
  l.n = l.nd.n;
  return ctx->be->copy(q->q, (int)es, &l);
}

static gpux_status same_ctx(const struct gpux_array *a, const struct gpux_array *b, const char *fn) {
  if (a->ctx != b->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
  return GPUX_SUCCESS;
}

/* dst's shape must be what src broadcasts to. */
static gpux_status check_broadcast_into(const struct gpux_array *dst, const struct gpux_array *src,
                                        const char *fn) {
  if (!gpux__broadcasts_to(src, dst)) {
    char a[256], b[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: source %s does not broadcast to destination %s",
                           fn, gpux__shape_str(a, sizeof a, src->ndim, src->shape),
                           gpux__shape_str(b, sizeof b, dst->ndim, dst->shape));
  }
  if (gpux__partial_overlap(dst, src))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: destination partially overlaps the source", fn);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_array_copy_into(gpux_array_t dst, gpux_array_t src) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(dst, "gpux_array_copy_into: dst"));
  GPUX__CHECK(gpux__check_array(src, "gpux_array_copy_into: src"));
  GPUX__CHECK(same_ctx(dst, src, "gpux_array_copy_into"));
  if (dst->dtype != src->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "gpux_array_copy_into: dst is %s, src is %s (use gpux_array_cast_into)",
                           gpux_dtype_name(dst->dtype), gpux_dtype_name(src->dtype));
  GPUX__CHECK(check_broadcast_into(dst, src, "gpux_array_copy_into"));
  return gpux__copy_strided(dst, src);
}

GPUX_API gpux_status gpux_array_contiguous(gpux_array_t *out, gpux_array_t src) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "src"));
  return gpux__contiguous_copy(out, src);
}

GPUX_API gpux_status gpux_array_copy(gpux_array_t *out, gpux_array_t src) {
  GPUX__API_FN();
  return gpux_array_contiguous(out, src);
}

/* ---- views and layout changes */

GPUX_API gpux_status gpux_array_reshape(gpux_array_t *out, gpux_array_t src, int ndim,
                                        const int64_t *shape) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "src"));
  if (ndim < 0 || ndim > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "reshape: ndim %d is outside 0..%d", ndim, GPUX_MAX_DIMS);
  if (ndim > 0 && !shape) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "reshape: shape is NULL");
  int64_t sh[GPUX_MAX_DIMS];
  int infer = -1;
  int64_t known = 1;
  for (int d = 0; d < ndim; d++) {
    sh[d] = shape[d];
    if (shape[d] == -1) {
      if (infer >= 0) return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "reshape: more than one -1");
      infer = d;
      continue;
    }
    if (shape[d] < 0)
      return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "reshape: dimension %d is %lld", d, (long long)shape[d]);
    if (shape[d] && known > INT64_MAX / shape[d])
      return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "reshape: size overflows");
    known *= shape[d];
  }
  if (infer >= 0) {
    if (known == 0 || src->size % known)
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "reshape: cannot infer -1 for %lld elements",
                             (long long)src->size);
    sh[infer] = src->size / known;
    known *= sh[infer];
  }
  if (known != src->size) {
    char a[256], b[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "reshape: %s (%lld elements) cannot become %s",
                           gpux__shape_str(a, sizeof a, src->ndim, src->shape), (long long)src->size,
                           gpux__shape_str(b, sizeof b, ndim, sh));
  }
  struct gpux_array *v = NULL;
  if (gpux__is_contiguous(src))
    GPUX__CHECK(view_of(&v, src));
  else
    GPUX__CHECK(gpux_array_contiguous(&v, src));
  v->ndim = ndim;
  if (ndim) memcpy(v->shape, sh, (size_t)ndim * sizeof sh[0]);
  set_contiguous_strides(v);
  *out = v;
  return GPUX_SUCCESS;
}

/* One axis of a slice, clipped as Python does: first index *b and count *n. Any step but 0;
 * the arithmetic stays in range for every int64 start, stop and step. */
static void slice_axis(int64_t len, int64_t start, int64_t stop, int64_t step, int64_t *b,
                       int64_t *n) {
  int64_t e;
  uint64_t span, ast;
  if (step > 0) {
    *b = start < 0 ? (start < -len ? 0 : start + len) : start > len ? len : start;
    e = stop < 0 ? (stop < -len ? 0 : stop + len) : stop > len ? len : stop;
    span = e > *b ? (uint64_t)(e - *b) : 0;
    ast = (uint64_t)step;
  } else {
    *b = start < 0 ? (start < -len ? -1 : start + len) : start > len - 1 ? len - 1 : start;
    e = stop < 0 ? (stop < -len ? -1 : stop + len) : stop > len - 1 ? len - 1 : stop;
    span = *b > e ? (uint64_t)(*b - e) : 0;
    ast = 0 - (uint64_t)step; /* |INT64_MIN| fits in uint64 */
  }
  *n = span ? (int64_t)((span - 1) / ast + 1) : 0;
}

/* v's axis d as `n` elements from index b by step; the stride of an axis of at most one
 * element is left as it was (so a huge step cannot overflow it). */
static void set_axis(struct gpux_array *v, const struct gpux_array *src, int d, int64_t b,
                     int64_t n, int64_t step) {
  if (n > 0) v->offset += b * src->strides[d];
  v->shape[d] = n;
  v->strides[d] = n > 1 ? src->strides[d] * step : src->strides[d];
}

static void count_size(struct gpux_array *v) {
  v->size = 1;
  for (int d = 0; d < v->ndim; d++) v->size *= v->shape[d];
}

GPUX_API gpux_status gpux_array_slice(gpux_array_t *out, gpux_array_t src, const int64_t *start,
                                      const int64_t *stop, const int64_t *step) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_slice: out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "gpux_array_slice: src"));
  struct gpux_array v = *src;
  for (int d = 0; d < src->ndim; d++) {
    int64_t st = step ? step[d] : 1, b, n;
    if (st == 0)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "gpux_array_slice: step of dimension %d is 0", d);
    slice_axis(src->shape[d], start ? start[d] : st > 0 ? 0 : INT64_MAX,
               stop ? stop[d] : st > 0 ? INT64_MAX : INT64_MIN, st, &b, &n);
    set_axis(&v, src, d, b, n, st);
  }
  count_size(&v);
  return view_of(out, &v);
}

/* axis in -ndim..ndim-1 -> 0..ndim-1, or -1 */
static int norm_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) return -1;
  return axis < 0 ? axis + ndim : axis;
}

/* The arguments of a view of one axis of src: *d the axis (negative counts from the end). */
static gpux_status axis_view_args(gpux_array_t *out, const struct gpux_array *src, int axis,
                                  int *d) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "src"));
  *d = norm_axis(axis, src->ndim);
  if (*d < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "axis %d is out of range for %d dimensions",
                           axis, src->ndim);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_array_slice_axis(gpux_array_t *out, gpux_array_t src, int axis,
                                           int64_t start, int64_t stop, int64_t step) {
  GPUX__API_FN();
  int d = 0;
  GPUX__CHECK(axis_view_args(out, src, axis, &d));
  if (step == 0) return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "step is 0");
  struct gpux_array v = *src;
  int64_t b, n;
  slice_axis(src->shape[d], start, stop, step, &b, &n);
  set_axis(&v, src, d, b, n, step);
  count_size(&v);
  return view_of(out, &v);
}

GPUX_API gpux_status gpux_array_select(gpux_array_t *out, gpux_array_t src, int axis,
                                       int64_t index) {
  GPUX__API_FN();
  int d = 0;
  GPUX__CHECK(axis_view_args(out, src, axis, &d));
  int64_t len = src->shape[d];
  if (index < -len || index >= len)
    return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                           "index %lld is out of range for axis %d of length %lld",
                           (long long)index, axis, (long long)len);
  struct gpux_array v = *src;
  v.offset += (index < 0 ? index + len : index) * src->strides[d];
  for (int k = d; k + 1 < src->ndim; k++) {
    v.shape[k] = src->shape[k + 1];
    v.strides[k] = src->strides[k + 1];
  }
  v.ndim--;
  count_size(&v);
  return view_of(out, &v);
}

GPUX_API gpux_status gpux_array_squeeze(gpux_array_t *out, gpux_array_t src, int naxes,
                                        const int *axes) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_squeeze: out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "gpux_array_squeeze: src"));
  int drop[GPUX_MAX_DIMS] = {0};
  if (naxes == GPUX_ALL_AXES) {
    for (int d = 0; d < src->ndim; d++) drop[d] = src->shape[d] == 1;
  } else {
    if (naxes < 0 || naxes > src->ndim)
      return gpux__set_error(GPUX_ERROR_INVALID_AXIS,
                             "gpux_array_squeeze: naxes = %d (0..%d, or GPUX_ALL_AXES)", naxes,
                             src->ndim);
    if (naxes > 0 && !axes)
      return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_squeeze: axes is NULL");
    for (int k = 0; k < naxes; k++) {
      int d = norm_axis(axes[k], src->ndim);
      if (d < 0 || drop[d])
        return gpux__set_error(GPUX_ERROR_INVALID_AXIS,
                               "gpux_array_squeeze: axis %d is %s", axes[k],
                               d < 0 ? "out of range" : "repeated");
      if (src->shape[d] != 1)
        return gpux__set_error(GPUX_ERROR_INVALID_AXIS,
                               "gpux_array_squeeze: axis %d has length %lld, not 1", axes[k],
                               (long long)src->shape[d]);
      drop[d] = 1;
    }
  }
  struct gpux_array v = *src;
  v.ndim = 0;
  for (int d = 0; d < src->ndim; d++)
    if (!drop[d]) {
      v.shape[v.ndim] = src->shape[d];
      v.strides[v.ndim++] = src->strides[d];
    }
  return view_of(out, &v);
}

GPUX_API gpux_status gpux_array_expand_dims(gpux_array_t *out, gpux_array_t src, int naxes,
                                            const int *axes) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_expand_dims: out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "gpux_array_expand_dims: src"));
  int nd = src->ndim + naxes;
  if (naxes < 0 || nd > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS,
                           "gpux_array_expand_dims: %d new axes on %d dimensions (at most %d in all)",
                           naxes, src->ndim, GPUX_MAX_DIMS);
  if (naxes > 0 && !axes)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_expand_dims: axes is NULL");
  int added[GPUX_MAX_DIMS] = {0};
  for (int k = 0; k < naxes; k++) { /* positions in the result, as NumPy counts them */
    int d = norm_axis(axes[k], nd);
    if (d < 0 || added[d])
      return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "gpux_array_expand_dims: axis %d is %s",
                             axes[k], d < 0 ? "out of range" : "repeated");
    added[d] = 1;
  }
  struct gpux_array v = *src;
  v.ndim = nd;
  for (int d = 0, k = 0; d < nd; d++) {
    v.shape[d] = added[d] ? 1 : src->shape[k];
    v.strides[d] = added[d] ? 0 : src->strides[k++];
  }
  return view_of(out, &v);
}

GPUX_API gpux_status gpux_array_permute(gpux_array_t *out, gpux_array_t src, const int *axes) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "src"));
  if (!axes && src->ndim) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "permute: axes is NULL");
  struct gpux_array v = *src;
  int seen[GPUX_MAX_DIMS] = {0};
  for (int d = 0; d < src->ndim; d++) {
    int ax = axes[d];
    if (ax < 0) ax += src->ndim;
    if (ax < 0 || ax >= src->ndim || seen[ax])
      return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "permute: axes[%d] = %d is not a permutation of 0..%d",
                             d, axes[d], src->ndim - 1);
    seen[ax] = 1;
    v.shape[d] = src->shape[ax];
    v.strides[d] = src->strides[ax];
  }
  return gpux__contiguous_copy(out, &v);
}

GPUX_API gpux_status gpux_array_transpose(gpux_array_t *out, gpux_array_t src) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "src"));
  int axes[GPUX_MAX_DIMS];
  for (int d = 0; d < src->ndim; d++) axes[d] = src->ndim - 1 - d;
  return gpux_array_permute(out, src, axes);
}

/* ---- casts */

GPUX_API gpux_status gpux_array_cast_into(gpux_array_t dst, gpux_array_t src) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(dst, "gpux_array_cast_into: dst"));
  GPUX__CHECK(gpux__check_array(src, "gpux_array_cast_into: src"));
  GPUX__CHECK(same_ctx(dst, src, "gpux_array_cast_into"));
  GPUX__CHECK(check_broadcast_into(dst, src, "gpux_array_cast_into"));
  if (dst->size == 0) return GPUX_SUCCESS;
  if (dst->dtype == src->dtype) return gpux__copy_strided(dst, src);
  struct gpux_context *ctx = dst->ctx;
  GPUX__NEED(ctx, GPUX__Q_CAST, 0, src->dtype, dst->dtype);
  struct gpux_stream *q = gpux__stream_cur(ctx);
  gpux__launch l;
  l.opnd[0] = gpux__operand_on(q, dst);
  l.opnd[1] = gpux__operand_on(q, src);
  if (gpux__same_shape(dst, src) && gpux__is_contiguous(dst) && gpux__is_contiguous(src)) {
    l.layout = GPUX_LAYOUT_C;
    l.n = dst->size;
  } else {
    const struct gpux_array *ops[2] = {dst, src};
    l.layout = GPUX_LAYOUT_N;
    gpux__plan_nd(&l.nd, 2, ops, dst->ndim, dst->shape);
    l.n = l.nd.n;
  }
  return ctx->be->cast(q->q, &l);
}

GPUX_API gpux_status gpux_array_cast(gpux_array_t *out, gpux_array_t src, gpux_dtype dt) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(src, "src"));
  GPUX__CHECK(gpux__check_dtype(dt, "gpux_array_cast"));
  GPUX__CHECK(gpux__array_new(out, src->ctx, dt, src->ndim, src->shape));
  gpux_status s = gpux_array_cast_into(*out, src);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

/* ---- queries */

#define QUERY(fn, type, expr)                                                              \
  GPUX_API gpux_status fn(type *out, gpux_array_t a) {                                     \
    GPUX__API_FN();                                                                        \
    if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, #fn ": out is NULL");       \
    GPUX__CHECK(gpux__check_array(a, #fn ": array"));                                      \
    *out = (expr);                                                                         \
    return GPUX_SUCCESS;                                                                   \
  }
QUERY(gpux_array_dtype, gpux_dtype, a->dtype)
QUERY(gpux_array_ndim, int, a->ndim)
QUERY(gpux_array_size, int64_t, a->size)
QUERY(gpux_array_nbytes, size_t, (size_t)a->size * gpux_dtype_size(a->dtype))
QUERY(gpux_array_is_contiguous, int, gpux__is_contiguous(a))
QUERY(gpux_array_context, gpux_context_t, a->ctx)
#undef QUERY

GPUX_API gpux_status gpux_array_shape(int64_t *shape, gpux_array_t a) {
  GPUX__API_FN();
  if (!shape) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_shape: shape is NULL");
  GPUX__CHECK(gpux__check_array(a, "gpux_array_shape: array"));
  if (a->ndim) memcpy(shape, a->shape, (size_t)a->ndim * sizeof *shape);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_array_strides(int64_t *strides, gpux_array_t a) {
  GPUX__API_FN();
  if (!strides) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_array_strides: strides is NULL");
  GPUX__CHECK(gpux__check_array(a, "gpux_array_strides: array"));
  if (a->ndim) memcpy(strides, a->strides, (size_t)a->ndim * sizeof *strides);
  return GPUX_SUCCESS;
}
