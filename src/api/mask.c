/* Boolean masks (include/gpux/mask.h): validation, the count, and the compaction pass.
 *
 * Every data-dependent op runs the same three steps on n elements in tiles of
 * GPUX_MASK_TILE (gpux_kernels.h "Boolean masks"):
 *   1. flags: the backend's mask pass of kind flags reads the mask (or nonzero's x: x != 0
 *      on the bits, any dtype) once and writes the selection as bits (n / 8 bytes, whole
 *      tiles) and each tile's count -> ntiles int64;
 *   2. the inclusive cumsum of those counts (the scan family: on CUDA the single-pass
 *      decoupled look-back), incl[c]; its last value, the total, comes back to the host in
 *      one 8-byte read (the only wait);
 *   3. the backend's mask pass: tile c writes its selected elements from incl[c - 1] on,
 *      reading the bits (not the mask or x's predicate again).
 * Step 1 reads the mask; step 3 reads x (compress, put: the values) and the bits once and
 * writes the result once. */
#include <stdint.h>
#include <string.h>
#include "internal.h"

#define NEED(x, what) \
  if (!(x)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what)
#define OPND(a) gpux__operand_on(gpux__stream_cur((a)->ctx), (a))

#define MK_ID(k, id) MK_##k = id,
enum { GPUX_MASK_KINDS(MK_ID) MK_END_ };
#undef MK_ID
_Static_assert(GPUX_MASK_WORDS * 16 == GPUX_MASK_TILE, "a bits word holds 16 elements");

/* ---- checks */

static gpux_status same_ctx(const struct gpux_array *a, const struct gpux_array *b,
                            const char *fn) {
  if (a->ctx != b->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
  return GPUX_SUCCESS;
}

/* mask: bool, of x's shape (NumPy's IndexError names the first axis that differs) */
static gpux_status check_mask(const struct gpux_array *x, const struct gpux_array *mask,
                              const char *fn) {
  GPUX__CHECK(same_ctx(x, mask, fn));
  if (mask->dtype != GPUX_BOOL)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: the mask is %s, it must be bool", fn,
                           gpux_dtype_name(mask->dtype));
  if (!gpux__same_shape(x, mask)) {
    char a[256], b[256];
    int d = 0;
    while (d < x->ndim && d < mask->ndim && x->shape[d] == mask->shape[d]) d++;
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "%s: the mask's shape %s is not the array's %s (first difference "
                           "at axis %d)",
                           fn, gpux__shape_str(a, sizeof a, mask->ndim, mask->shape),
                           gpux__shape_str(b, sizeof b, x->ndim, x->shape), d);
  }
  return GPUX_SUCCESS;
}

/* ---- temporaries */

/* ---- steps 1 and 2: the selection's bits, the tiles' inclusive counts and the total */

typedef struct counted {
  struct gpux_array *incl; /* ntiles int64 */
  struct gpux_array *bits; /* ntiles * GPUX_MASK_WORDS uint16 */
  int64_t ntiles, total;
} counted;

static void counted_release(counted *c) {
  gpux_array_release(c->incl);
  gpux_array_release(c->bits);
  c->incl = c->bits = NULL;
}

/* m: contiguous, m->size >= 1; kind MK_flags: element i selected when it has a bit of
 * nzbits set (a bool mask: all ones); MK_starts (m sorted, a real dtype or bool): when it
 * starts a run of equal keys */
static gpux_status count_tiles(const struct gpux_array *m, int kind, uint64_t nzbits,
                               counted *c) {
  struct gpux_context *ctx = m->ctx;
  const int64_t n = m->size, ntiles = (n + GPUX_MASK_TILE - 1) / GPUX_MASK_TILE;
  const int64_t nwords = ntiles * GPUX_MASK_WORDS;
  memset(c, 0, sizeof *c);
  c->ntiles = ntiles;
  GPUX__NEED(ctx, GPUX__Q_MASK, kind, -1, -1);
  if (ntiles > 1) GPUX__NEED(ctx, GPUX__Q_SCAN, GPUX_SCAN_SUM, GPUX_INT64, -1);
  struct gpux_array *counts = NULL;
  GPUX__CHECK(gpux__array_new(&counts, ctx, GPUX_INT64, 1, &ntiles));
  gpux_status s = gpux__array_new(&c->bits, ctx, GPUX_UINT16, 1, &nwords);
  if (s == GPUX_SUCCESS) {
    gpux__mask_pass p;
    memset(&p, 0, sizeof p);
    p.kind = kind;
    p.elem_size = gpux__dt_info[m->dtype].bytes;
    if (kind == MK_starts) {
      const gpux__sort_keycv cv = gpux__sort_keycv_of((int)m->dtype);
      p.kcls = cv.cls;
      p.em = cv.em;
      p.mm = cv.mm;
    }
    p.n = n;
    p.ntiles = ntiles;
    p.x = OPND(m);
    p.bits = OPND(c->bits);
    p.out = OPND(counts);
    p.nzbits = nzbits;
    s = ctx->be->mask(gpux__q(ctx), &p);
  }
  if (s == GPUX_SUCCESS && ntiles > 1) {
    struct gpux_array *incl = NULL;
    s = gpux__array_new(&incl, ctx, GPUX_INT64, 1, &ntiles);
    if (s == GPUX_SUCCESS) {
      gpux__scan_pass sp;
      memset(&sp, 0, sizeof sp);
      sp.kind = GPUX_SCAN_SUM;
      sp.dtype = GPUX_INT64;
      sp.rows = 1;
      sp.len = ntiles;
      sp.in = OPND(counts);
      sp.out = OPND(incl);
      s = ctx->be->scan(gpux__q(ctx), &sp);
    }
    gpux_array_release(counts);
    counts = incl;
  }
  if (s == GPUX_SUCCESS) { /* the one wait: 8 bytes */
    int64_t total = 0;
    s = ctx->be->mem_download(gpux__q(ctx), counts->st->blk.buf,
                              (size_t)(counts->offset + ntiles - 1) * sizeof total, &total,
                              sizeof total);
    c->total = total;
  }
  c->incl = counts;
  if (s != GPUX_SUCCESS) counted_release(c);
  return s;
}

/* ---- step 3 */

static gpux_status mask_pass(int kind, const struct gpux_array *x, const struct gpux_array *vals,
                             const struct gpux_array *out, const counted *c, int64_t sp,
                             int64_t sd) {
  struct gpux_context *ctx = x->ctx;
  GPUX__NEED(ctx, GPUX__Q_MASK, kind, -1, -1);
  gpux__mask_pass p;
  memset(&p, 0, sizeof p);
  p.kind = kind;
  p.elem_size = gpux__dt_info[x->dtype].bytes;
  p.n = x->size;
  p.ntiles = c->ntiles;
  p.x = OPND(x);
  p.bits = OPND(c->bits);
  if (vals) p.vals = OPND(vals);
  p.incl = OPND(c->incl);
  if (out) p.out = OPND(out);
  p.sp = sp;
  p.sd = sd;
  p.nd.ndim = x->ndim;
  for (int d = 0; d < x->ndim; d++) p.nd.shape[d] = x->shape[d];
  return ctx->be->mask(gpux__q(ctx), &p);
}

/* ids of x's n elements at out[perm[i]] (perm NULL: out[i]) */
static gpux_status ids_pass(const struct gpux_array *x, const struct gpux_array *perm,
                            const struct gpux_array *out, const counted *c) {
  struct gpux_context *ctx = x->ctx;
  GPUX__NEED(ctx, GPUX__Q_MASK, MK_ids, -1, -1);
  gpux__mask_pass p;
  memset(&p, 0, sizeof p);
  p.kind = MK_ids;
  p.elem_size = 8;
  p.n = x->size;
  p.ntiles = c->ntiles;
  if (perm) p.x = OPND(perm);
  p.bits = OPND(c->bits);
  p.incl = OPND(c->incl);
  p.out = OPND(out);
  return ctx->be->mask(gpux__q(ctx), &p);
}

/* ---- results */

/* Where an _into form writes its total rows: *res = out[0 .. total) when out is contiguous;
 * else a new contiguous array, and *back = out[0 .. total), to copy it to */
static gpux_status first_rows(struct gpux_array *out, int64_t total, struct gpux_array **res,
                              struct gpux_array **back) {
  *res = *back = NULL;
  if (gpux__is_contiguous(out)) return gpux_array_slice_axis(res, out, 0, 0, total, 1);
  int64_t shape[GPUX_MAX_DIMS];
  memcpy(shape, out->shape, sizeof shape);
  shape[0] = total;
  GPUX__CHECK(gpux__array_new(res, out->ctx, out->dtype, out->ndim, shape));
  return gpux_array_slice_axis(back, out, 0, 0, total, 1);
}

/* ---- x[mask] */

/* x[mask] into a new array (*outp) or into out (capacity out->size); *count the total */
static gpux_status compress_common(gpux_array_t *outp, gpux_array_t out, int64_t *count,
                                   const struct gpux_array *x, const struct gpux_array *mask,
                                   const char *fn) {
  struct gpux_context *ctx = x->ctx;
  struct gpux_array *xt = NULL, *mt = NULL, *res = NULL, *tmp = NULL;
  counted c = {0};
  gpux_status s = GPUX_SUCCESS;
  if (x->size > 0) {
    s = gpux__contiguous_ref(&mt, mask);
    if (s == GPUX_SUCCESS) s = count_tiles(mt, MK_flags, ~0ull, &c);
  }
  if (s != GPUX_SUCCESS) goto done;
  if (count) *count = c.total;
  if (outp) {
    s = gpux__array_new(&res, ctx, x->dtype, 1, &c.total);
  } else if (c.total > out->size) {
    s = gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                        "%s: the mask selects %lld elements, out holds %lld", fn,
                        (long long)c.total, (long long)out->size);
  } else if (c.total > 0) {
    s = first_rows(out, c.total, &res, &tmp);
  }
  if (s != GPUX_SUCCESS || c.total == 0) goto done;
  s = gpux__contiguous_ref(&xt, x);
  if (s == GPUX_SUCCESS) s = mask_pass(MK_compress, xt, NULL, res, &c, 0, 0);
  if (s == GPUX_SUCCESS && tmp) s = gpux__copy_strided(tmp, res);
done:
  if (outp && s == GPUX_SUCCESS) {
    *outp = res;
    res = NULL;
  }
  gpux_array_release(res);
  gpux_array_release(tmp);
  counted_release(&c);
  gpux_array_release(xt);
  gpux_array_release(mt);
  return s;
}

GPUX_API gpux_status gpux_compress(gpux_array_t *out, gpux_array_t x, gpux_array_t mask) {
  GPUX__API_FN();
  const char *fn = "gpux_compress";
  NEED(out, "out");
  *out = NULL;
  NEED(x, "x");
  NEED(mask, "mask");
  GPUX__CHECK(check_mask(x, mask, fn));
  return compress_common(out, NULL, NULL, x, mask, fn);
}

GPUX_API gpux_status gpux_compress_into(gpux_array_t out, int64_t *count, gpux_array_t x,
                                        gpux_array_t mask) {
  GPUX__API_FN();
  const char *fn = "gpux_compress_into";
  NEED(out, "out");
  NEED(count, "count");
  NEED(x, "x");
  NEED(mask, "mask");
  GPUX__CHECK(check_mask(x, mask, fn));
  GPUX__CHECK(same_ctx(x, out, fn));
  if (out->dtype != x->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: out is %s, x is %s", fn,
                           gpux_dtype_name(out->dtype), gpux_dtype_name(x->dtype));
  if (out->ndim != 1) {
    char a[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: out must be 1-d, its shape is %s", fn,
                           gpux__shape_str(a, sizeof a, out->ndim, out->shape));
  }
  if (gpux__overlaps(out, x) || gpux__overlaps(out, mask))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: out overlaps x or the mask", fn);
  return compress_common(NULL, out, count, x, mask, fn);
}

GPUX_API gpux_status gpux_compress_axis(gpux_array_t *out, gpux_array_t x, gpux_array_t mask,
                                        int axis) {
  GPUX__API_FN();
  const char *fn = "gpux_compress_axis";
  NEED(out, "out");
  *out = NULL;
  NEED(x, "x");
  NEED(mask, "mask");
  GPUX__CHECK(same_ctx(x, mask, fn));
  if (x->ndim == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: axis %d is out of range for a 0-d array",
                           fn, axis);
  if (axis < -x->ndim || axis >= x->ndim)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: axis %d is out of range for %d dimensions",
                           fn, axis, x->ndim);
  if (axis < 0) axis += x->ndim;
  if (mask->dtype != GPUX_BOOL)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: the mask is %s, it must be bool", fn,
                           gpux_dtype_name(mask->dtype));
  if (mask->ndim != 1 || mask->shape[0] != x->shape[axis]) {
    char a[256], b[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "%s: the mask's shape %s is not (%lld,), the length of axis %d of %s",
                           fn, gpux__shape_str(a, sizeof a, mask->ndim, mask->shape),
                           (long long)x->shape[axis], axis,
                           gpux__shape_str(b, sizeof b, x->ndim, x->shape));
  }
  struct gpux_context *ctx = x->ctx;
  int64_t shape[GPUX_MAX_DIMS];
  memcpy(shape, x->shape, sizeof shape);
  gpux_status s = GPUX_SUCCESS;
  if (x->size == 0) { /* nothing to move: the mask's count alone */
    int64_t k = 0;
    if (mask->size > 0) s = gpux_reduce_scalar_i64(&k, GPUX_REDUCE_COUNT_NONZERO, mask);
    shape[axis] = k;
    if (s == GPUX_SUCCESS) s = gpux__array_new(out, ctx, x->dtype, x->ndim, shape);
    return s;
  }
  /* the mask broadcast along the other axes (a view with stride 0 there), made real */
  struct gpux_array bview = *mask, *full = NULL, *flat = NULL;
  bview.ndim = x->ndim;
  for (int d = 0; d < x->ndim; d++) {
    bview.shape[d] = x->shape[d];
    bview.strides[d] = d == axis ? mask->strides[0] : 0;
  }
  bview.size = x->size;
  s = gpux__array_new(&full, ctx, GPUX_BOOL, x->ndim, x->shape);
  if (s == GPUX_SUCCESS) s = gpux__copy_strided(full, &bview);
  if (s == GPUX_SUCCESS) s = compress_common(&flat, NULL, NULL, x, full, fn);
  if (s == GPUX_SUCCESS) {
    shape[axis] = flat->size / (x->size / x->shape[axis]);
    s = gpux_array_reshape(out, flat, x->ndim, shape);
  }
  gpux_array_release(flat);
  gpux_array_release(full);
  return s;
}

/* ---- nonzero, argwhere */

/* the value bits of dtype dt's 8-byte words: the sign bits cleared for floats and complex
 * (-0.0 is zero), all of them otherwise */
static uint64_t nz_bits(gpux_dtype dt) {
  const gpux__dtinfo *d = &gpux__dt_info[dt];
  if (d->kind == 'f') return d->bytes == 8 ? 0x7fffffffffffffffull
                             : d->bytes == 4 ? 0x7fffffffull : 0x7fffull;
  if (d->kind == 'c') return d->bytes == 8 ? 0x7fffffff7fffffffull : 0x7fffffffffffffffull;
  return ~0ull;
}

/* the coordinates of x's nonzero elements into a new int64 array: layout 0 (count, ndim)
 * (argwhere), 1 (ndim, count) (nonzero); or into out (argwhere_into; capacity its rows) */
static gpux_status where_nonzero(struct gpux_array **outp, struct gpux_array *out,
                                 int64_t *count, const struct gpux_array *x, int layout,
                                 const char *fn) {
  struct gpux_context *ctx = x->ctx;
  struct gpux_array *xt = NULL, *res = NULL, *tmp = NULL;
  counted c = {0};
  gpux_status s = GPUX_SUCCESS;
  if (x->size > 0) {
    s = gpux__contiguous_ref(&xt, x);
    if (s == GPUX_SUCCESS) s = count_tiles(xt, MK_flags, nz_bits(x->dtype), &c);
  }
  if (s != GPUX_SUCCESS) goto done;
  if (count) *count = c.total;
  const int64_t nd = x->ndim;
  if (outp) {
    const int64_t shape[2] = {layout ? nd : c.total, layout ? c.total : nd};
    s = gpux__array_new(&res, ctx, GPUX_INT64, 2, shape);
  } else if (c.total > out->shape[0]) {
    s = gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                        "%s: x has %lld nonzero elements, out holds %lld rows", fn,
                        (long long)c.total, (long long)out->shape[0]);
  } else if (c.total > 0) {
    s = first_rows(out, c.total, &res, &tmp);
  }
  if (s != GPUX_SUCCESS || c.total == 0 || nd == 0) goto done;
  s = mask_pass(MK_nonzero, xt, NULL, res, &c, layout ? 1 : nd, layout ? c.total : 1);
  if (s == GPUX_SUCCESS && tmp) s = gpux__copy_strided(tmp, res);
done:
  if (outp && s == GPUX_SUCCESS) {
    *outp = res;
    res = NULL;
  }
  gpux_array_release(res);
  gpux_array_release(tmp);
  counted_release(&c);
  gpux_array_release(xt);
  return s;
}

GPUX_API gpux_status gpux_nonzero(gpux_array_t *out, gpux_array_t x) {
  GPUX__API_FN();
  const char *fn = "gpux_nonzero";
  NEED(out, "out");
  NEED(x, "x");
  for (int d = 0; d < x->ndim; d++) out[d] = NULL;
  if (x->ndim == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "%s: x is 0-d (NumPy 2 refuses it too): reshape it to (1,) first", fn);
  struct gpux_array *all = NULL;
  GPUX__CHECK(where_nonzero(&all, NULL, NULL, x, 1, fn));
  gpux_status s = GPUX_SUCCESS;
  for (int d = 0; d < x->ndim && s == GPUX_SUCCESS; d++)
    s = gpux_array_select(&out[d], all, 0, d);
  gpux_array_release(all);
  if (s != GPUX_SUCCESS)
    for (int d = 0; d < x->ndim; d++) {
      gpux_array_release(out[d]);
      out[d] = NULL;
    }
  return s;
}

GPUX_API gpux_status gpux_argwhere(gpux_array_t *out, gpux_array_t x) {
  GPUX__API_FN();
  const char *fn = "gpux_argwhere";
  NEED(out, "out");
  *out = NULL;
  NEED(x, "x");
  return where_nonzero(out, NULL, NULL, x, 0, fn);
}

GPUX_API gpux_status gpux_argwhere_into(gpux_array_t out, int64_t *count, gpux_array_t x) {
  GPUX__API_FN();
  const char *fn = "gpux_argwhere_into";
  NEED(out, "out");
  NEED(count, "count");
  NEED(x, "x");
  GPUX__CHECK(same_ctx(x, out, fn));
  if (x->ndim == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: x is 0-d (use gpux_argwhere)", fn);
  if (out->dtype != GPUX_INT64)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: out is %s, it must be int64", fn,
                           gpux_dtype_name(out->dtype));
  if (out->ndim != 2 || out->shape[1] != x->ndim) {
    char a[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "%s: out's shape %s is not (capacity, %d), x having %d dimensions",
                           fn, gpux__shape_str(a, sizeof a, out->ndim, out->shape), x->ndim,
                           x->ndim);
  }
  if (gpux__overlaps(out, x))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: out overlaps x", fn);
  return where_nonzero(NULL, out, count, x, 0, fn);
}

/* ---- the runs of a sorted array (group.c) */

gpux_status gpux__run_starts(struct gpux_array **out, struct gpux_array **ids,
                             const struct gpux_array *x, const struct gpux_array *perm) {
  *out = NULL;
  if (ids) *ids = NULL;
  struct gpux_array *xt = NULL, *res = NULL, *id = NULL;
  counted c = {0};
  gpux_status s = gpux__contiguous_ref(&xt, x);
  if (s == GPUX_SUCCESS) s = count_tiles(xt, MK_starts, 0, &c);
  if (s == GPUX_SUCCESS) s = gpux__array_new(&res, x->ctx, GPUX_INT64, 1, &c.total);
  /* coordinate 0 of each start in a 1-d shape of x's size: its position */
  if (s == GPUX_SUCCESS) s = mask_pass(MK_nonzero, xt, NULL, res, &c, 1, 0);
  if (s == GPUX_SUCCESS && ids) {
    s = gpux__array_new(&id, x->ctx, GPUX_INT64, 1, &x->size);
    /* perm in x's place (the ids kind reads no x) */
    if (s == GPUX_SUCCESS) s = ids_pass(xt, perm, id, &c);
  }
  if (s == GPUX_SUCCESS) {
    *out = res;
    res = NULL;
    if (ids) *ids = id, id = NULL;
  }
  gpux_array_release(res);
  gpux_array_release(id);
  counted_release(&c);
  gpux_array_release(xt);
  return s;
}

/* ---- masked assignment */

/* x = where(mask, value, x), value a 0-d array (checked already) */
static gpux_status fill_common(gpux_array_t x, gpux_array_t mask, gpux_array_t value) {
  return gpux_where_into(x, mask, value, x);
}

GPUX_API gpux_status gpux_mask_fill(gpux_array_t x, gpux_array_t mask, double value) {
  GPUX__API_FN();
  const char *fn = "gpux_mask_fill";
  NEED(x, "x");
  NEED(mask, "mask");
  GPUX__CHECK(check_mask(x, mask, fn));
  gpux__scalar exact;
  GPUX__CHECK(gpux__scalar_exact(&exact, value, x->dtype));
  gpux_array_t v = NULL;
  GPUX__CHECK(gpux_array_full(&v, x->ctx, x->dtype, 0, NULL, value));
  gpux_status s = fill_common(x, mask, v);
  gpux_array_release(v);
  return s;
}

GPUX_API gpux_status gpux_mask_fill_complex(gpux_array_t x, gpux_array_t mask,
                                            gpux_complex128 value) {
  GPUX__API_FN();
  const char *fn = "gpux_mask_fill_complex";
  NEED(x, "x");
  NEED(mask, "mask");
  GPUX__CHECK(check_mask(x, mask, fn));
  if (!gpux__dt_is_complex(x->dtype)) {
    if (value.im != 0)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "%s: x is %s, the value's imaginary part %g is not 0", fn,
                             gpux_dtype_name(x->dtype), value.im);
    gpux__scalar exact;
    GPUX__CHECK(gpux__scalar_exact(&exact, value.re, x->dtype));
  }
  gpux_array_t v = NULL;
  GPUX__CHECK(gpux_array_full_complex(&v, x->ctx, x->dtype, 0, NULL, value.re, value.im));
  gpux_status s = fill_common(x, mask, v);
  gpux_array_release(v);
  return s;
}

GPUX_API gpux_status gpux_mask_put(gpux_array_t x, gpux_array_t mask, gpux_array_t values) {
  GPUX__API_FN();
  const char *fn = "gpux_mask_put";
  NEED(x, "x");
  NEED(mask, "mask");
  NEED(values, "values");
  GPUX__CHECK(check_mask(x, mask, fn));
  GPUX__CHECK(same_ctx(x, values, fn));
  if (values->dtype != x->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: values are %s, x is %s", fn,
                           gpux_dtype_name(values->dtype), gpux_dtype_name(x->dtype));
  if (values->ndim != 1) {
    char a[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: values must be 1-d, their shape is %s",
                           fn, gpux__shape_str(a, sizeof a, values->ndim, values->shape));
  }
  if (gpux__partial_overlap(x, mask))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: x partially overlaps the mask", fn);
  struct gpux_context *ctx = x->ctx;
  struct gpux_array *mt = NULL, *xt = NULL, *vt = NULL;
  const struct gpux_array *vc = values;
  counted c = {0};
  gpux_status s = GPUX_SUCCESS;
  if (x->size > 0) {
    s = gpux__contiguous_ref(&mt, mask);
    if (s == GPUX_SUCCESS) s = count_tiles(mt, MK_flags, ~0ull, &c);
  }
  if (s != GPUX_SUCCESS) goto done;
  if (values->size != c.total) {
    s = gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                        "%s: %lld values for the %lld elements the mask selects", fn,
                        (long long)values->size, (long long)c.total);
    goto done;
  }
  if (c.total == 0) goto done;
  /* values: contiguous and apart from x */
  if (!gpux__is_contiguous(values) || gpux__overlaps(values, x)) {
    s = gpux__array_new(&vt, ctx, values->dtype, 1, values->shape);
    if (s == GPUX_SUCCESS) s = gpux__copy_strided(vt, values);
    if (s != GPUX_SUCCESS) goto done;
    vc = vt;
  }
  if (gpux__is_contiguous(x)) {
    s = mask_pass(MK_put, x, vc, NULL, &c, 0, 0);
  } else { /* through a contiguous copy, written back */
    s = gpux__contiguous_ref(&xt, x);
    if (s == GPUX_SUCCESS) s = mask_pass(MK_put, xt, vc, NULL, &c, 0, 0);
    if (s == GPUX_SUCCESS) s = gpux__copy_strided(x, xt);
  }
done:
  gpux_array_release(vt);
  gpux_array_release(xt);
  counted_release(&c);
  gpux_array_release(mt);
  return s;
}
