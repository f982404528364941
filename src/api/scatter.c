/* gpux front end: scatter with a combining op (include/gpux/index.h), bincount, histogram
 * and digitize (include/gpux/count.h). Every kernel is the backend's scatter family
 * (kernels/common/gpux_scatter.h); this file validates, makes the operands contiguous, and
 * plans the INIT / APPLY / FIN steps of a scatter on a pooled accumulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../../kernels/common/gpux_half.h"

#define OPND(a) gpux__operand_on(gpux__stream_cur((a)->ctx), (a))

static int is_real_numeric(gpux_dtype dt) {
  return (unsigned)dt < GPUX_DTYPE_COUNT && dt != GPUX_BOOL && !gpux__dt_is_complex(dt);
}

/* element pos of a contiguous array, read to the host (waits) */
static gpux_status read_elem(const struct gpux_array *a, int64_t pos, void *dst) {
  const size_t es = gpux_dtype_size(a->dtype);
  return a->ctx->be->mem_download(gpux__q(a->ctx), a->st->blk.buf,
                                  (size_t)(a->offset + pos) * es, dst, es);
}

/* GPUX_ERROR_INDEX_OUT_OF_RANGE naming `what`, the bad position pos of the contiguous
 * integer array idx, its value (read: a wait) and the range [lo, top) */
static gpux_status bad_index(struct gpux_array *idx, int64_t pos, int64_t lo, int64_t top,
                             const char *what) {
  unsigned char raw[8] = {0};
  GPUX__CHECK(read_elem(idx, pos, raw));
  const uint64_t bits = gpux__int_load(raw, idx->dtype);
  char val[32];
  if (gpux__dt_info[idx->dtype].kind != 'i') snprintf(val, sizeof val, "%llu", (unsigned long long)bits);
  else snprintf(val, sizeof val, "%lld", (long long)(int64_t)bits);
  return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                         "%s: index %s at position %lld is outside [%lld, %lld)", what, val,
                         (long long)pos, (long long)lo, (long long)top);
}

/* the unsigned dtype of a signed integer dtype's width (others: themselves) */
static gpux_dtype unsigned_of(gpux_dtype dt) {
  switch (dt) {
    case GPUX_INT8: return GPUX_UINT8;
    case GPUX_INT16: return GPUX_UINT16;
    case GPUX_INT32: return GPUX_UINT32;
    case GPUX_INT64: return GPUX_UINT64;
    default: return dt;
  }
}

/* bincount's check of its values: every element of the contiguous integer (or bool) array
 * idx in [0, top), else the error above with the first bad position in row-major order.
 * One reduction, a wait: the maximum of the elements' bits read unsigned (a negative value
 * reads as 2^(bits - 1) or more); *mx gets the largest value (INT64_MAX when it does not
 * fit). The position is searched only on failure. */
static gpux_status check_values(struct gpux_array *idx, int64_t top, const char *what,
                               int64_t *mx) {
  *mx = -1;
  if (idx->size == 0) return GPUX_SUCCESS;
  const int sgn = gpux__dt_info[idx->dtype].kind == 'i';
  struct gpux_array *u = NULL;
  GPUX__CHECK(gpux__array_view(&u, idx));
  u->dtype = unsigned_of(idx->dtype); /* the same bytes */
  uint64_t umx = 0;
  gpux_status s = gpux_reduce_scalar_u64(&umx, GPUX_REDUCE_MAX, u);
  gpux_array_release(u);
  GPUX__CHECK(s);
  const int neg = sgn && (umx >> (8 * gpux__dt_info[idx->dtype].bytes - 1)) != 0;
  *mx = umx >= (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)umx;
  if (!neg && *mx < top) return GPUX_SUCCESS;
  /* the first bad one: argmax of (idx < 0) | (idx >= top) as uint8 */
  gpux_array_t m1 = NULL, m2 = NULL, m = NULL, mu = NULL;
  int64_t pos = -1;
  s = GPUX_SUCCESS;
  if (top < INT64_MAX) s = gpux_binary_scalar(&m2, GPUX_GE, idx, (double)top);
  if (s == GPUX_SUCCESS && neg) s = gpux_binary_scalar(&m1, GPUX_LT, idx, 0.0);
  if (s == GPUX_SUCCESS) {
    if (m1 && m2) s = gpux_binary(&m, GPUX_LOGICAL_OR, m1, m2);
    else s = gpux__array_view(&m, m1 ? m1 : m2);
  }
  if (s == GPUX_SUCCESS) s = gpux_array_cast(&mu, m, GPUX_UINT8);
  if (s == GPUX_SUCCESS) s = gpux_reduce_scalar_i64(&pos, GPUX_REDUCE_ARGMAX, mu);
  gpux_array_release(m1);
  gpux_array_release(m2);
  gpux_array_release(m);
  gpux_array_release(mu);
  if (s != GPUX_SUCCESS) return s;
  return bad_index(idx, pos, 0, top, what);
}

/* One scatter on contiguous operands: a (nt targets, shaped (pre, n, post)), idx (m
 * indices, int32 / int64), v (a's dtype, (pre, m, post)). */
static gpux_status run_scatter(int op, struct gpux_array *a, struct gpux_array *idx,
                               struct gpux_array *v, int64_t m, int64_t post, int64_t n,
                               int mode, const char *what) {
  struct gpux_context *ctx = a->ctx;
  if (v->size == 0 || a->size == 0) return GPUX_SUCCESS;
  int dt = (int)a->dtype;
  int64_t scale = 1;
  if (dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128) {
    dt = dt == GPUX_COMPLEX64 ? GPUX_KDT_f32 : GPUX_KDT_f64; /* re, im: two targets */
    scale = 2;
  }
  gpux__scatter s;
  memset(&s, 0, sizeof s);
  s.op = op;
  s.dtype = dt;
  s.idx_dtype = (int)idx->dtype;
  s.mode = mode;
  s.nt = a->size * scale;
  s.nv = v->size * scale;
  s.m = m;
  s.post = post * scale;
  s.n = n;
  s.a = OPND(a);
  s.v = OPND(v);
  s.idx = OPND(idx);
  s.a.offset *= scale;
  s.v.offset *= scale;
  s.a.dtype = s.v.dtype = dt;
  const size_t bytes = gpux__scatter_acc_bytes(op, dt, s.nt);
  if (!bytes)
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "the accumulator of %lld targets overflows",
                           (long long)s.nt);
  const int exact = gpux__scatter_exact(op, dt);
  struct gpux_stream *st = gpux__stream_cur(ctx);
  gpux__block blk;
  GPUX__CHECK(gpux__pool_alloc(ctx, st, bytes, &blk));
  s.acc = blk.buf;
  gpux__bq *q = st->q;
  gpux_status r;
  { /* THE HEADER (gpux_scatter.h) starts at 0 */
    gpux__launch l;
    memset(&l, 0, sizeof l);
    l.layout = GPUX_LAYOUT_C;
    l.n = GPUX_SC_HDR;
    l.opnd[0] = (gpux__operand){blk.buf, 0, GPUX_KDT_u64};
    l.scalar = gpux__scalar_from_parts(0.0, 0.0, GPUX_UINT64);
    r = ctx->be->fill(q, &l);
  }
  if (r == GPUX_SUCCESS) {
    s.stage = GPUX__SC_INIT;
    r = ctx->be->scatter(q, &s);
  }
  if (r == GPUX_SUCCESS && exact) {
    s.stage = GPUX__SC_SCAN;
    r = ctx->be->scatter(q, &s);
  }
  if (r == GPUX_SUCCESS) {
    s.stage = GPUX__SC_APPLY;
    r = ctx->be->scatter(q, &s);
  }
  if (r == GPUX_SUCCESS) {
    s.stage = GPUX__SC_FIN;
    r = ctx->be->scatter(q, &s);
  }
  /* checked: the apply pass noted ~(the first bad position of idx) (a wait) */
  uint64_t err = 0;
  if (r == GPUX_SUCCESS && mode == GPUX_SC_CHECKED)
    r = ctx->be->mem_download(q, blk.buf, 8u * GPUX_SC_H_ERR, &err, sizeof err);
  gpux__pool_free(ctx, blk, blk.home, 0);
  if (r == GPUX_SUCCESS && err) r = bad_index(idx, (int64_t)~err, -n, n, what);
  return r;
}

/* values broadcast to (ndim, shape), contiguous, in *out (a reference) */
static gpux_status values_as(struct gpux_array **out, struct gpux_array *values, int ndim,
                             const int64_t *shape) {
  if (values->ndim == ndim && !memcmp(values->shape, shape, sizeof *shape * (size_t)ndim))
    return gpux__contiguous_ref(out, values);
  GPUX__CHECK(gpux__array_new(out, values->ctx, values->dtype, ndim, shape));
  if (!gpux__broadcasts_to(values, *out)) {
    char b1[160], b2[160];
    gpux_array_release(*out);
    *out = NULL;
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "values of shape %s do not broadcast to %s",
                           gpux__shape_str(b1, sizeof b1, values->ndim, values->shape),
                           gpux__shape_str(b2, sizeof b2, ndim, shape));
  }
  gpux_status s = gpux__copy_strided(*out, values);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

static gpux_status check_idx_dtype(const struct gpux_array *idx, const char *what) {
  if (idx->dtype != GPUX_INT32 && idx->dtype != GPUX_INT64)
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s must be int32 or int64, not %s",
                           what, gpux_dtype_name(idx->dtype));
  return GPUX_SUCCESS;
}

static const char *const op_names[3] = {"scatter-add", "scatter-max", "scatter-min"};

GPUX_API gpux_status gpux_scatter(gpux_array_t a, gpux_scatter_op op, gpux_array_t idx,
                                  gpux_array_t values, int axis, gpux_index_mode mode) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(a, "a"));
  GPUX__CHECK(gpux__check_array(idx, "idx"));
  GPUX__CHECK(gpux__check_array(values, "values"));
  if (a->ctx != idx->ctx || a->ctx != values->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "a, idx and values belong to different contexts");
  if ((unsigned)op > GPUX_SCATTER_MIN)
    return gpux__set_error(GPUX_ERROR_INVALID_OP, "op %d is not a gpux_scatter_op", (int)op);
  if ((unsigned)mode > GPUX_INDEX_CLIP)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "mode %d is not a gpux_index_mode", (int)mode);
  GPUX__CHECK(check_idx_dtype(idx, "idx"));
  if (values->dtype != a->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "values are %s, a is %s",
                           gpux_dtype_name(values->dtype), gpux_dtype_name(a->dtype));
  const gpux_dtype dt = a->dtype;
  if (!(is_real_numeric(dt) || (op == GPUX_SCATTER_ADD && gpux__dt_is_complex(dt))))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s does not take %s%s", op_names[op],
                           gpux_dtype_name(dt),
                           gpux__dt_is_complex(dt) ? " (complex has no order)" : "");
  if (gpux__overlaps(a, idx) || gpux__overlaps(a, values))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "a shares memory with idx or values");
  struct gpux_context *ctx = a->ctx;
  int64_t n, m, post = 1, pre = 1;
  int vndim;
  int64_t vshape[GPUX_MAX_DIMS];
  if (axis == GPUX_ALL_AXES) {
    n = a->size;
    m = idx->size;
    vndim = idx->ndim;
    memcpy(vshape, idx->shape, sizeof vshape);
  } else {
    if (axis < -a->ndim || axis >= a->ndim)
      return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "axis %d is outside [%d, %d) for a of %d dims",
                             axis, -a->ndim, a->ndim, a->ndim);
    if (axis < 0) axis += a->ndim;
    if (idx->ndim != 1)
      return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "idx must be 1-d along an axis (it has %d dims)",
                             idx->ndim);
    n = a->shape[axis];
    m = idx->size;
    vndim = a->ndim;
    memcpy(vshape, a->shape, sizeof vshape);
    vshape[axis] = m;
    for (int d = 0; d < axis; d++) pre *= a->shape[d];
    for (int d = axis + 1; d < a->ndim; d++) post *= a->shape[d];
  }
  /* values must broadcast even when nothing happens */
  if (values->ndim > vndim) {
    char b1[160], b2[160];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "values of shape %s do not broadcast to %s",
                           gpux__shape_str(b1, sizeof b1, values->ndim, values->shape),
                           gpux__shape_str(b2, sizeof b2, vndim, vshape));
  }
  if (m == 0 || pre * post == 0) return GPUX_SUCCESS;
  if (n == 0)
    return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                           "%s: %lld indices into an axis of length 0", op_names[op], (long long)m);
  GPUX__NEED(ctx, GPUX__Q_SCATTER, op, dt, -1);
  struct gpux_array *ic = NULL, *vc = NULL, *ac = NULL;
  gpux_status s = gpux__contiguous_ref(&ic, idx);
  if (s == GPUX_SUCCESS) s = values_as(&vc, values, vndim, vshape);
  if (s == GPUX_SUCCESS) s = gpux__contiguous_ref(&ac, a);
  if (s == GPUX_SUCCESS) s = run_scatter((int)op, ac, ic, vc, m, post, n, (int)mode, op_names[op]);
  if (s == GPUX_SUCCESS && ac->st != a->st) s = gpux__copy_strided(a, ac);
  gpux_array_release(ic);
  gpux_array_release(vc);
  gpux_array_release(ac);
  return s;
}

/* ======================================================================== counting */

/* x flattened, contiguous, as an int32 / int64 index array */
static gpux_status as_index(struct gpux_array **out, struct gpux_array *x) {
  struct gpux_array *c = NULL;
  if (x->dtype == GPUX_INT32 || x->dtype == GPUX_INT64) GPUX__CHECK(gpux__contiguous_ref(&c, x));
  else GPUX__CHECK(gpux_array_cast(&c, x, GPUX_INT64));
  gpux_status s = gpux_array_reshape(out, c, 1, &c->size);
  gpux_array_release(c);
  return s;
}

/* counts (contiguous int64, nbins) = bincount of the index array ix. x NULL: values outside
 * [0, nbins) skipped; else they are errors, found by the count pass itself (one 8-byte
 * wait, no reduction before it) and reported with x's value at the first one (x: the
 * values ix was made from, same positions). */
static gpux_status count_into(struct gpux_array *counts, struct gpux_array *ix,
                              struct gpux_array *x) {
  struct gpux_context *ctx = counts->ctx;
  if (ix->size == 0) return GPUX_SUCCESS;
  gpux__bincount c;
  memset(&c, 0, sizeof c);
  c.idx_dtype = (int)ix->dtype;
  c.n = ix->size;
  c.nbins = counts->size;
  c.x = OPND(ix);
  c.counts = OPND(counts);
  struct gpux_array *err = NULL;
  if (x) {
    const int64_t one = 1;
    GPUX__CHECK(gpux_array_zeros(&err, ctx, GPUX_UINT64, 1, &one));
    c.err = OPND(err);
  }
  gpux_status s = ctx->be->bincount(gpux__q(ctx), &c);
  uint64_t e = 0;
  if (s == GPUX_SUCCESS && err)
    s = ctx->be->mem_download(gpux__q(ctx), err->st->blk.buf, (size_t)err->offset * 8u, &e,
                              sizeof e);
  gpux_array_release(err);
  if (s == GPUX_SUCCESS && e) s = bad_index(x, (int64_t)~e, 0, c.nbins, "bincount");
  return s;
}

/* out (any 1-d view, dtype int64 or the weights') = the per-bin counts / sums of the index
 * array ix (values outside [0, len(out)) skipped, or errors that leave out unchanged where
 * checked: x is then the values ix was made from; see count_into), weights (NULL or ix's
 * size) */
static gpux_status bin_sums(struct gpux_array *out, struct gpux_array *ix,
                            struct gpux_array *weights, struct gpux_array *checked) {
  struct gpux_context *ctx = out->ctx;
  struct gpux_array *res = NULL, *w = NULL;
  const int64_t nb = out->size;
  gpux_status s = gpux_array_zeros(&res, ctx, out->dtype, 1, &nb);
  if (s == GPUX_SUCCESS && nb > 0 && ix->size > 0) {
    if (!weights) {
      s = count_into(res, ix, checked);
    } else {
      struct gpux_array *wc = NULL;
      s = gpux__contiguous_ref(&wc, weights);
      if (s == GPUX_SUCCESS) s = gpux_array_reshape(&w, wc, 1, &wc->size);
      gpux_array_release(wc);
      if (s == GPUX_SUCCESS)
        s = run_scatter(GPUX_SC_ADD, res, ix, w, ix->size, 1, nb, GPUX_SC_SKIP, "bincount");
    }
  }
  if (s == GPUX_SUCCESS) s = gpux__copy_strided(out, res);
  gpux_array_release(res);
  gpux_array_release(w);
  return s;
}

static gpux_status check_weights(const struct gpux_array *x, const struct gpux_array *w) {
  if (!w) return GPUX_SUCCESS;
  if (w->ctx != x->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "x and weights belong to different contexts");
  if (w->size != x->size) {
    char b1[160], b2[160];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "weights of shape %s for x of shape %s",
                           gpux__shape_str(b1, sizeof b1, w->ndim, w->shape),
                           gpux__shape_str(b2, sizeof b2, x->ndim, x->shape));
  }
  if (w->dtype == GPUX_BOOL)
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "weights of dtype bool (cast them first)");
  return GPUX_SUCCESS;
}

/* out's dtype and shape for counts (1-d, nb) */
static gpux_status check_counts_out(const struct gpux_array *out, const struct gpux_array *x,
                                    const struct gpux_array *w, int64_t nb, const char *what) {
  const gpux_dtype want = w ? w->dtype : GPUX_INT64;
  if (out->ctx != x->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s and x belong to different contexts", what);
  if (out->dtype != want)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s is %s, the result is %s", what,
                           gpux_dtype_name(out->dtype), gpux_dtype_name(want));
  if (out->ndim != 1 || (nb >= 0 && out->size != nb)) {
    char b1[160];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s of shape %s, the result is (%lld,)", what,
                           gpux__shape_str(b1, sizeof b1, out->ndim, out->shape),
                           (long long)(nb >= 0 ? nb : out->size));
  }
  if (gpux__overlaps(out, x) || (w && gpux__overlaps(out, w)))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s shares memory with an input", what);
  return GPUX_SUCCESS;
}

static gpux_status bincount_any(struct gpux_array **outp, struct gpux_array *out,
                                struct gpux_array *x, struct gpux_array *weights,
                                int64_t minlength) {
  GPUX__CHECK(gpux__check_array(x, "x"));
  if (!gpux__dt_is_int(x->dtype) && x->dtype != GPUX_BOOL)
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "x must be of an integer dtype, not %s",
                           gpux_dtype_name(x->dtype));
  GPUX__CHECK(check_weights(x, weights));
  if (minlength < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "minlength %lld is negative", (long long)minlength);
  struct gpux_context *ctx = x->ctx;
  if (out) GPUX__CHECK(check_counts_out(out, x, weights, -1, "out"));
  const gpux_dtype rdt = weights ? weights->dtype : GPUX_INT64;
  if (x->size) GPUX__NEED(ctx, GPUX__Q_SCATTER, GPUX_SC_ADD, weights ? rdt : GPUX_INT64, -1);
  struct gpux_array *xc = NULL, *ix = NULL;
  gpux_status s = x->size ? gpux__contiguous_ref(&xc, x) : GPUX_SUCCESS;
  int64_t nb = out ? out->size : minlength;
  /* the values' check: for counts into out, by the count pass itself; else one reduction
   * (its maximum sizes the result; a scatter's modes know no "negative is an error") */
  const int checked = out && !weights;
  if (s == GPUX_SUCCESS && x->size && !checked) {
    int64_t mx = -1;
    s = check_values(xc, out ? nb : INT64_MAX, "bincount", &mx);
    if (s == GPUX_SUCCESS && !out && mx == INT64_MAX)
      s = gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "bincount: a value of %lld or more gives too many bins",
                          (long long)INT64_MAX);
    if (s == GPUX_SUCCESS && !out && mx + 1 > nb) nb = mx + 1;
  }
  if (s == GPUX_SUCCESS && x->size) s = as_index(&ix, xc);
  struct gpux_array *res = out;
  if (s == GPUX_SUCCESS && !out) s = gpux__array_new(&res, ctx, rdt, 1, &nb);
  if (s == GPUX_SUCCESS) {
    if (ix) s = bin_sums(res, ix, weights, checked ? xc : NULL);
    else if (res->size) {
      struct gpux_array *z = NULL;
      s = gpux_array_zeros(&z, ctx, rdt, 1, &nb);
      if (s == GPUX_SUCCESS) s = gpux__copy_strided(res, z);
      gpux_array_release(z);
    }
  }
  gpux_array_release(xc);
  gpux_array_release(ix);
  if (!out) {
    if (s == GPUX_SUCCESS) *outp = res;
    else gpux_array_release(res);
  }
  return s;
}

GPUX_API gpux_status gpux_bincount(gpux_array_t *out, gpux_array_t x, gpux_array_t weights,
                                   int64_t minlength) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  return bincount_any(out, NULL, x, weights, minlength);
}

GPUX_API gpux_status gpux_bincount_into(gpux_array_t out, gpux_array_t x, gpux_array_t weights) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(out, "out"));
  return bincount_any(NULL, out, x, weights, 0);
}

/* ---- edges on the host: element i of a host copy as a double (ordering checks only) */
static double host_key(const unsigned char *p, gpux_dtype dt, int64_t i) {
  const size_t es = gpux_dtype_size(dt);
  p += (size_t)i * es;
  switch (dt) {
    case GPUX_FLOAT32: { float f; memcpy(&f, p, 4); return f; }
    case GPUX_FLOAT64: { double d; memcpy(&d, p, 8); return d; }
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: {
      uint16_t h;
      memcpy(&h, p, 2);
      uint32_t b = dt == GPUX_FLOAT16 ? gpux_f16_to_f32(h) : gpux_bf16_to_f32(h);
      float f;
      memcpy(&f, &b, 4);
      return f;
    }
    default: break;
  }
  const uint64_t u = gpux__int_load(p, dt);
  return gpux__dt_info[dt].kind == 'i' ? (double)(int64_t)u : (double)u;
}
/* exact comparison of two host elements: -1, 0, 1 (NaN: 2) */
static int host_cmp(const unsigned char *p, gpux_dtype dt, int64_t i, int64_t j) {
  if (gpux__dt_is_int(dt)) {
    const size_t es = gpux_dtype_size(dt);
    const uint64_t a = gpux__int_load(p + (size_t)i * es, dt), b = gpux__int_load(p + (size_t)j * es, dt);
    if (gpux__dt_info[dt].kind == 'i') return (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
    return a < b ? -1 : a > b;
  }
  const double a = host_key(p, dt, i), b = host_key(p, dt, j);
  if (a != a || b != b) return 2;
  return a < b ? -1 : a > b;
}

/* The edges' direction: 1 non-decreasing, -1 non-increasing (not constant), 0 neither or
 * NaN. Reads them (a wait). */
static gpux_status edges_monotonic(struct gpux_array *e, int *dir) {
  void *h = NULL;
  size_t bytes = 0;
  struct gpux_array *ec = NULL;
  GPUX__CHECK(gpux__contiguous_ref(&ec, e));
  gpux_status s = gpux_array_download(&h, &bytes, ec);
  gpux_array_release(ec);
  if (s != GPUX_SUCCESS) return s;
  int inc = 1, dec = 1;
  for (int64_t i = 0; i + 1 < e->size; i++) {
    const int c = host_cmp(h, e->dtype, i, i + 1);
    if (c == 2) inc = dec = 0;
    if (c > 0) inc = 0;
    if (c < 0) dec = 0;
  }
  if (e->size == 1 && host_cmp(h, e->dtype, 0, 0) == 2) inc = dec = 0;
  gpux_host_free(h);
  *dir = inc ? 1 : dec ? -1 : 0;
  return GPUX_SUCCESS;
}

/* out (int64, x's size, contiguous) = the search of x (contiguous) among edges (contiguous,
 * x's dtype) */
static gpux_status run_search(struct gpux_array *out, struct gpux_array *x,
                              struct gpux_array *edges, int mode) {
  if (x->size == 0) return GPUX_SUCCESS;
  gpux__search q;
  memset(&q, 0, sizeof q);
  q.dtype = (int)x->dtype;
  q.mode = mode;
  q.n = x->size;
  q.ne = edges->size;
  q.x = OPND(x);
  q.edges = OPND(edges);
  q.out = OPND(out);
  return x->ctx->be->search(gpux__q(x->ctx), &q);
}

static gpux_status check_search_in(const struct gpux_array *x, const struct gpux_array *e,
                                   const char *ename) {
  GPUX__CHECK(gpux__check_array(x, "x"));
  GPUX__CHECK(gpux__check_array(e, ename));
  if (x->ctx != e->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "x and %s belong to different contexts", ename);
  if (!is_real_numeric(x->dtype))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "x of dtype %s (real numeric dtypes only)",
                           gpux_dtype_name(x->dtype));
  if (e->dtype != x->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s is %s, x is %s", ename,
                           gpux_dtype_name(e->dtype), gpux_dtype_name(x->dtype));
  if (e->ndim != 1)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s must be 1-d (it has %d dims)", ename, e->ndim);
  return GPUX_SUCCESS;
}

/* histogram of x (validated) over edges (x's dtype, validated, increasing) into counts */
static gpux_status hist_run(struct gpux_array *counts, struct gpux_array *x,
                            struct gpux_array *edges, struct gpux_array *weights) {
  struct gpux_context *ctx = x->ctx;
  if (x->size) GPUX__NEED(ctx, GPUX__Q_SCATTER, GPUX_SC_ADD, x->dtype, -1);
  struct gpux_array *xc = NULL, *ec = NULL, *bin = NULL;
  int64_t n = x->size;
  gpux_status s = n ? gpux__contiguous_ref(&xc, x) : GPUX_SUCCESS;
  if (s == GPUX_SUCCESS && n) s = gpux__contiguous_ref(&ec, edges);
  if (s == GPUX_SUCCESS && n) s = gpux__array_new(&bin, ctx, GPUX_INT64, 1, &n);
  if (s == GPUX_SUCCESS && n) s = run_search(bin, xc, ec, GPUX_SC_HIST);
  if (s == GPUX_SUCCESS) {
    if (n) s = bin_sums(counts, bin, weights, NULL);
    else {
      struct gpux_array *z = NULL;
      s = gpux_array_zeros(&z, ctx, counts->dtype, 1, &counts->size);
      if (s == GPUX_SUCCESS) s = gpux__copy_strided(counts, z);
      gpux_array_release(z);
    }
  }
  gpux_array_release(xc);
  gpux_array_release(ec);
  gpux_array_release(bin);
  return s;
}

static gpux_status hist_edges_any(struct gpux_array **outp, struct gpux_array *out,
                                  struct gpux_array *x, struct gpux_array *edges,
                                  struct gpux_array *weights) {
  GPUX__CHECK(check_search_in(x, edges, "edges"));
  GPUX__CHECK(check_weights(x, weights));
  if (edges->size < 2)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "edges must have 2 or more elements (it has %lld)",
                           (long long)edges->size);
  const int64_t nb = edges->size - 1;
  if (out) GPUX__CHECK(check_counts_out(out, x, weights, nb, "counts"));
  int dir = 0;
  GPUX__CHECK(edges_monotonic(edges, &dir));
  if (dir != 1)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "edges must increase monotonically and hold no NaN");
  struct gpux_array *res = out;
  if (!out)
    GPUX__CHECK(gpux__array_new(&res, x->ctx, weights ? weights->dtype : GPUX_INT64, 1, &nb));
  gpux_status s = hist_run(res, x, edges, weights);
  if (!out) {
    if (s == GPUX_SUCCESS) *outp = res;
    else gpux_array_release(res);
  }
  return s;
}

GPUX_API gpux_status gpux_histogram_edges(gpux_array_t *counts, gpux_array_t x,
                                          gpux_array_t edges, gpux_array_t weights) {
  GPUX__API_FN();
  if (!counts) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "counts is NULL");
  *counts = NULL;
  return hist_edges_any(counts, NULL, x, edges, weights);
}

GPUX_API gpux_status gpux_histogram_edges_into(gpux_array_t counts, gpux_array_t x,
                                               gpux_array_t edges, gpux_array_t weights) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(counts, "counts"));
  return hist_edges_any(NULL, counts, x, edges, weights);
}

/* uniform bins: NumPy's linspace(lo, hi, bins + 1) edges in float64 (k * step + lo, the
 * last hi), x as float64 */
static gpux_status hist_uniform_any(struct gpux_array **outp, struct gpux_array *out,
                                    struct gpux_array *x, int64_t bins, double lo, double hi,
                                    struct gpux_array *weights) {
  GPUX__CHECK(gpux__check_array(x, "x"));
  if (!is_real_numeric(x->dtype))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "x of dtype %s (real numeric dtypes only)",
                           gpux_dtype_name(x->dtype));
  GPUX__CHECK(check_weights(x, weights));
  if (out) bins = out->size;
  if (bins < 1 || bins > ((int64_t)1 << 40))
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "bins %lld is outside [1, 2^40]", (long long)bins);
  if (!(lo < hi) || !isfinite(lo) || !isfinite(hi))
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "the range [%g, %g] must be finite with lo < hi", lo, hi);
  if (out) GPUX__CHECK(check_counts_out(out, x, weights, bins, "counts"));
  struct gpux_context *ctx = x->ctx;
  const int64_t ne = bins + 1;
  double *e = malloc(sizeof *e * (size_t)ne);
  if (!e) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "%lld edges", (long long)ne);
  const double step = (hi - lo) / (double)bins;
  for (int64_t k = 0; k < bins; k++) {
    const volatile double t = (double)k * step; /* two roundings, as NumPy's y * step + start */
    e[k] = t + lo;
  }
  e[bins] = hi;
  struct gpux_array *edges = NULL, *xd = NULL, *res = out;
  gpux_status s = gpux_array_from_host(&edges, ctx, GPUX_FLOAT64, 1, &ne, e);
  free(e);
  if (s == GPUX_SUCCESS) {
    if (x->dtype == GPUX_FLOAT64) s = gpux__array_view(&xd, x);
    else s = gpux_array_cast(&xd, x, GPUX_FLOAT64);
  }
  if (s == GPUX_SUCCESS && !out)
    s = gpux__array_new(&res, ctx, weights ? weights->dtype : GPUX_INT64, 1, &bins);
  if (s == GPUX_SUCCESS) s = hist_run(res, xd, edges, weights);
  gpux_array_release(edges);
  gpux_array_release(xd);
  if (!out) {
    if (s == GPUX_SUCCESS) *outp = res;
    else gpux_array_release(res);
  }
  return s;
}

GPUX_API gpux_status gpux_histogram(gpux_array_t *counts, gpux_array_t x, int64_t bins,
                                    double lo, double hi, gpux_array_t weights) {
  GPUX__API_FN();
  if (!counts) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "counts is NULL");
  *counts = NULL;
  return hist_uniform_any(counts, NULL, x, bins, lo, hi, weights);
}

GPUX_API gpux_status gpux_histogram_into(gpux_array_t counts, gpux_array_t x, double lo,
                                         double hi, gpux_array_t weights) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(counts, "counts"));
  return hist_uniform_any(NULL, counts, x, 0, lo, hi, weights);
}

static gpux_status digitize_any(struct gpux_array **outp, struct gpux_array *out,
                                struct gpux_array *x, struct gpux_array *bins, int right) {
  GPUX__CHECK(check_search_in(x, bins, "bins"));
  struct gpux_context *ctx = x->ctx;
  if (out) {
    if (out->ctx != ctx)
      return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "out and x belong to different contexts");
    if (out->dtype != GPUX_INT64)
      return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "out is %s, the result is int64",
                             gpux_dtype_name(out->dtype));
    if (!gpux__same_shape(out, x)) {
      char b1[160], b2[160];
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "out of shape %s for x of shape %s",
                             gpux__shape_str(b1, sizeof b1, out->ndim, out->shape),
                             gpux__shape_str(b2, sizeof b2, x->ndim, x->shape));
    }
    if (gpux__overlaps(out, x) || gpux__overlaps(out, bins))
      return gpux__set_error(GPUX_ERROR_OVERLAP, "out shares memory with an input");
  }
  int dir = 1;
  if (bins->size) GPUX__CHECK(edges_monotonic(bins, &dir));
  if (dir == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "bins must be monotonically increasing or decreasing, with no NaN");
  if (x->size && bins->size) GPUX__NEED(ctx, GPUX__Q_SCATTER, GPUX_SC_ADD, x->dtype, -1);
  const int mode = dir > 0 ? (right ? GPUX_SC_DIG_R : GPUX_SC_DIG_L)
                           : (right ? GPUX_SC_DIG_DR : GPUX_SC_DIG_DL);
  struct gpux_array *res = NULL, *xc = NULL, *bc = NULL;
  gpux_status s = GPUX_SUCCESS;
  if (out && gpux__is_contiguous(out)) s = gpux__array_view(&res, out);
  else s = gpux__array_new(&res, ctx, GPUX_INT64, x->ndim, x->shape);
  if (s == GPUX_SUCCESS && x->size) {
    if (!bins->size) {
      struct gpux_array *z = NULL;
      s = gpux_array_zeros(&z, ctx, GPUX_INT64, x->ndim, x->shape);
      if (s == GPUX_SUCCESS) s = gpux__copy_strided(res, z);
      gpux_array_release(z);
    } else {
      s = gpux__contiguous_ref(&xc, x);
      if (s == GPUX_SUCCESS) s = gpux__contiguous_ref(&bc, bins);
      if (s == GPUX_SUCCESS) s = run_search(res, xc, bc, mode);
    }
  }
  if (s == GPUX_SUCCESS && out && res->st != out->st) s = gpux__copy_strided(out, res);
  gpux_array_release(xc);
  gpux_array_release(bc);
  if (!out && s == GPUX_SUCCESS) *outp = res;
  else gpux_array_release(res);
  return s;
}

GPUX_API gpux_status gpux_digitize(gpux_array_t *out, gpux_array_t x, gpux_array_t bins,
                                   int right) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  return digitize_any(out, NULL, x, bins, right);
}

GPUX_API gpux_status gpux_digitize_into(gpux_array_t out, gpux_array_t x, gpux_array_t bins,
                                        int right) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(out, "out"));
  return digitize_any(NULL, out, x, bins, right);
}
