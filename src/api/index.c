/* gpux front end: gather and put (include/gpux/index.h, docs/indexing.md).
 *
 * Every op is one plan over an iteration shape with four stride sets (gpux_nd_params,
 * "Gather and put" in kernels/common/gpux_kernels.h): 0 the output (gather) or the
 * destination without its indexed axis (put), 1 the source without the axis (gather) or the
 * values (put), 2 idx, 3 the row-major position in idx (what a checked error reports). Dims
 * of length 1 are dropped and dims that are contiguous in all four are merged. A take whose
 * output and idx are contiguous and whose source is one strided line runs the fast kernel.
 * put runs two kernels: mark (an atomic max of the iteration number per destination, in a
 * scratch of a.size int32 or int64 filled with -1), then put (only the winner writes): the
 * last write in iteration order wins on every backend. put needs a contiguous destination
 * and values (a strided one goes through a contiguous copy). Checked mode arms the stream's
 * deferred error (deferred.c). Everything is checked before anything is queued. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define NS 4 /* stride sets */

typedef struct ix_plan {
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  int64_t stride[NS][GPUX_MAX_DIMS];
  int64_t offset[NS];
} ix_plan;

/* p's dims of length 1 dropped, neighbours contiguous in every set merged, into nd */
static void plan_finish(const ix_plan *p, gpux_nd_params *nd) {
  memset(nd, 0, sizeof *nd);
  nd->tile_dim = -1;
  int m = 0;
  nd->n = 1;
  for (int d = 0; d < p->ndim; d++) {
    nd->n *= p->shape[d];
    if (p->shape[d] == 1) continue;
    int merge = m > 0;
    for (int k = 0; k < NS && merge; k++)
      merge = nd->stride[k][m - 1] == p->stride[k][d] * p->shape[d];
    if (merge) {
      nd->shape[m - 1] *= p->shape[d];
      for (int k = 0; k < NS; k++) nd->stride[k][m - 1] = p->stride[k][d];
      continue;
    }
    nd->shape[m] = p->shape[d];
    for (int k = 0; k < NS; k++) nd->stride[k][m] = p->stride[k][d];
    m++;
  }
  if (m == 0) nd->shape[m++] = 1;
  nd->ndim = m;
  for (int k = 0; k < NS; k++) nd->offset[k] = p->offset[k];
}

/* row-major strides of a shape */
static void rowmajor(int nd, const int64_t *shape, int64_t *st) {
  int64_t s = 1;
  for (int d = nd - 1; d >= 0; d--) {
    st[d] = s;
    s *= shape[d];
  }
}

static int norm_ax(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) return -1;
  return axis < 0 ? axis + ndim : axis;
}

static gpux_status check_common(const struct gpux_array *a, const struct gpux_array *idx,
                                gpux_index_mode mode) {
  GPUX__CHECK(gpux__check_array(a, "a"));
  GPUX__CHECK(gpux__check_array(idx, "idx"));
  if (idx->ctx != a->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "idx belongs to another context than a");
  if (idx->dtype != GPUX_INT32 && idx->dtype != GPUX_INT64)
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "idx is %s; indices are int32 or int64",
                           gpux_dtype_name(idx->dtype));
  if ((unsigned)mode > GPUX_INDEX_CLIP)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "mode %d is not a gpux_index_mode",
                           (int)mode);
  if (idx->size >= ((int64_t)1 << GPUX_IX_POS_BITS))
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "idx has %lld elements (at most 2^%d)",
                           (long long)idx->size, GPUX_IX_POS_BITS);
  return GPUX_SUCCESS;
}

static gpux_status bad_axis(int axis, int ndim) {
  return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "axis %d is out of range for %d dimensions",
                         axis, ndim);
}

/* a non-empty idx into an axis of length 0: nothing is in range, whatever the mode */
static gpux_status empty_axis(const struct gpux_array *idx, int axis) {
  return gpux__set_error(GPUX_ERROR_INDEX_OUT_OF_RANGE,
                         "axis %d has length 0: none of the %lld indices of idx is in range",
                         axis, (long long)idx->size);
}

static gpux_status check_out_shape(const struct gpux_array *out, const struct gpux_array *a,
                                   const struct gpux_array *idx, int nd, const int64_t *shape) {
  GPUX__CHECK(gpux__check_array(out, "out"));
  if (out->ctx != a->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "out belongs to another context than a");
  if (out->dtype != a->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "out is %s, a is %s",
                           gpux_dtype_name(out->dtype), gpux_dtype_name(a->dtype));
  int same = out->ndim == nd;
  for (int d = 0; same && d < nd; d++) same = out->shape[d] == shape[d];
  if (!same) {
    char x[256], y[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "out has shape %s, the result's is %s",
                           gpux__shape_str(x, sizeof x, out->ndim, out->shape),
                           gpux__shape_str(y, sizeof y, nd, shape));
  }
  if (gpux__overlaps(out, a) || gpux__overlaps(out, idx))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "out shares memory with %s",
                           gpux__overlaps(out, a) ? "a" : "idx");
  return GPUX_SUCCESS;
}

static int kdt_idx(const struct gpux_array *idx) {
  return idx->dtype == GPUX_INT32 ? GPUX_KDT_i32 : GPUX_KDT_i64;
}

/* Queues the launches of p (its kind, sizes and plan set) on the current stream, armed for
 * the deferred error under checked mode (fn names the op). */
static gpux_status queue_ix(gpux__index *p, int nlaunch, const struct gpux_array *idx,
                            gpux_index_mode mode, const char *fn) {
  struct gpux_context *ctx = idx->ctx;
  struct gpux_stream *s = gpux__stream_cur(ctx);
  gpux__deferred_slot slot = {NULL, 0};
  if (mode == GPUX_INDEX_CHECKED) GPUX__CHECK(gpux__deferred_arm(s, fn, p->x.len, &slot));
  p->err = (gpux__operand){slot.buf, 0, GPUX_KDT_i64};
  p->x.key = slot.key;
  p->x.mode = mode;
  p->idx_dtype = kdt_idx(idx);
  for (int i = 0; i < nlaunch; i++) {
    p[i].err = p->err;
    p[i].x.key = p->x.key;
    p[i].x.mode = mode;
    p[i].idx_dtype = p->idx_dtype;
    GPUX__CHECK(ctx->be->index(s->q, &p[i]));
  }
  if (mode == GPUX_INDEX_CHECKED) GPUX__CHECK(gpux__deferred_after(s, &slot, idx));
  return GPUX_SUCCESS;
}

/* ---------------------------------------------------------------- gather */

/* out = gather from src along one line of the source: src's offset, the axis's length and
 * stride given; ps: the plan's sets 0 (out), 1 (src without the axis), 2 (idx), 3 (idx
 * position) */
static gpux_status gather_run(struct gpux_array *out, const struct gpux_array *a,
                              const struct gpux_array *idx, int64_t len, int64_t astride,
                              const ix_plan *pl, int fast, gpux_index_mode mode,
                              const char *fn) {
  struct gpux_stream *s = gpux__stream_cur(a->ctx);
  gpux__index p;
  memset(&p, 0, sizeof p);
  p.elem_size = (int)gpux_dtype_size(a->dtype);
  p.win_dtype = GPUX_KDT_i32;
  p.x.n = out->size;
  p.x.len = len;
  p.x.astride = astride;
  p.out = gpux__operand_on(s, out);
  p.src = gpux__operand_on(s, a);
  p.idx = gpux__operand_on(s, idx);
  if (fast) {
    p.kind = GPUX__IX_TAKE;
    p.x.off0 = out->offset;
    p.x.off1 = pl->offset[1];
    p.x.off2 = idx->offset;
  } else {
    p.kind = GPUX__IX_GATHER;
    plan_finish(pl, &p.nd);
  }
  return queue_ix(&p, 1, idx, mode, fn);
}

/* gpux_take: out = a.shape[:d] + idx.shape + a.shape[d+1:] (flattened a: idx.shape) */
static gpux_status take_any(gpux_array_t *outp, struct gpux_array *out, struct gpux_array *a,
                            struct gpux_array *idx, int axis, gpux_index_mode mode) {
  GPUX__CHECK(check_common(a, idx, mode));
  const int flat = axis == GPUX_ALL_AXES;
  int d = 0;
  if (!flat && (d = norm_ax(axis, a->ndim)) < 0) return bad_axis(axis, a->ndim);
  int nd = 0;
  int64_t shape[GPUX_MAX_DIMS];
  const int pre = flat ? 0 : d, post = flat ? 0 : a->ndim - d - 1;
  if (pre + idx->ndim + post > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE,
                           "the result would have %d dimensions (at most %d)",
                           pre + idx->ndim + post, GPUX_MAX_DIMS);
  for (int k = 0; k < pre; k++) shape[nd++] = a->shape[k];
  for (int k = 0; k < idx->ndim; k++) shape[nd++] = idx->shape[k];
  for (int k = 0; k < post; k++) shape[nd++] = a->shape[d + 1 + k];
  if (outp) {
    int64_t size;
    GPUX__CHECK(gpux__check_shape(nd, shape, &size, a->dtype));
  } else {
    GPUX__CHECK(check_out_shape(out, a, idx, nd, shape));
  }
  GPUX__NEED(a->ctx, GPUX__Q_INDEX, 0, -1, -1);
  const int64_t len = flat ? a->size : a->shape[d];
  if (len == 0 && idx->size > 0) return empty_axis(idx, flat ? 0 : d);
  /* the source as one line (flattened a: a copy unless it is one already) */
  struct gpux_array *src = a, *tmp = NULL;
  int64_t astride = flat ? 1 : a->strides[d];
  if (flat && a->ndim == 1) astride = a->strides[0];
  else if (flat && !gpux__is_contiguous(a) && a->size > 0) {
    GPUX__CHECK(gpux__contiguous_copy(&tmp, a));
    src = tmp;
  }
  if (outp) {
    gpux_status s = gpux__array_new(outp, a->ctx, a->dtype, nd, shape);
    if (s != GPUX_SUCCESS) {
      gpux_array_release(tmp);
      return s;
    }
    out = *outp;
  }
  gpux_status s = GPUX_SUCCESS;
  if (out->size > 0) {
    ix_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.ndim = nd;
    for (int k = 0; k < nd; k++) {
      pl.shape[k] = shape[k];
      pl.stride[0][k] = out->strides[k];
    }
    int64_t ipos[GPUX_MAX_DIMS];
    rowmajor(idx->ndim, idx->shape, ipos);
    for (int k = 0; k < idx->ndim; k++) {
      pl.stride[2][pre + k] = idx->strides[k];
      pl.stride[3][pre + k] = ipos[k];
    }
    int64_t others = 1; /* elements of the source outside the axis */
    for (int k = 0; k < pre; k++) pl.stride[1][k] = src->strides[k], others *= shape[k];
    for (int k = 0; k < post; k++)
      pl.stride[1][pre + idx->ndim + k] = src->strides[d + 1 + k], others *= a->shape[d + 1 + k];
    pl.offset[0] = out->offset;
    pl.offset[1] = src->offset;
    pl.offset[2] = idx->offset;
    const int fast = others == 1 && gpux__is_contiguous(out) && gpux__is_contiguous(idx);
    s = gather_run(out, src, idx, len, astride, &pl, fast, mode, "gpux_take");
  }
  gpux_array_release(tmp);
  if (s != GPUX_SUCCESS && outp) {
    gpux_array_release(*outp);
    *outp = NULL;
  }
  return s;
}

/* the shape two arrays of the same ndim make along every axis but d (equal, or one of
 * them 1), axis d taken from idx; what names the op's arrays in the message */
static gpux_status along_shape(const struct gpux_array *a, const struct gpux_array *idx, int d,
                               int64_t *shape, const char *other) {
  for (int k = 0; k < a->ndim; k++) {
    if (k == d) {
      shape[k] = idx->shape[k];
      continue;
    }
    const int64_t x = a->shape[k], y = idx->shape[k];
    if (x != y && x != 1 && y != 1) {
      char s1[256], s2[256];
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                             "a %s and idx %s do not match along axis %d (%s)",
                             gpux__shape_str(s1, sizeof s1, a->ndim, a->shape),
                             gpux__shape_str(s2, sizeof s2, idx->ndim, idx->shape), k, other);
    }
    shape[k] = x == 1 ? y : x;
  }
  return GPUX_SUCCESS;
}

static gpux_status check_along(const struct gpux_array *a, const struct gpux_array *idx,
                               int axis, int *d) {
  if (axis == GPUX_ALL_AXES) {
    if (idx->ndim != 1)
      return gpux__set_error(GPUX_ERROR_INVALID_SHAPE,
                             "idx has %d dimensions; with GPUX_ALL_AXES (a flattened) it must "
                             "have 1", idx->ndim);
    *d = -1;
    return GPUX_SUCCESS;
  }
  if (idx->ndim != a->ndim)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE,
                           "idx has %d dimensions and a %d; they must have the same number",
                           idx->ndim, a->ndim);
  if ((*d = norm_ax(axis, a->ndim)) < 0) return bad_axis(axis, a->ndim);
  return GPUX_SUCCESS;
}

static gpux_status take_along_any(gpux_array_t *outp, struct gpux_array *out,
                                  struct gpux_array *a, struct gpux_array *idx, int axis,
                                  gpux_index_mode mode) {
  GPUX__CHECK(check_common(a, idx, mode));
  int d = -1;
  GPUX__CHECK(check_along(a, idx, axis, &d));
  if (d < 0) return take_any(outp, out, a, idx, GPUX_ALL_AXES, mode); /* the same op */
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(along_shape(a, idx, d, shape, "take_along_axis broadcasts them"));
  const int nd = a->ndim;
  if (outp) {
    int64_t size;
    GPUX__CHECK(gpux__check_shape(nd, shape, &size, a->dtype));
  } else {
    GPUX__CHECK(check_out_shape(out, a, idx, nd, shape));
  }
  GPUX__NEED(a->ctx, GPUX__Q_INDEX, 0, -1, -1);
  int64_t osize = 1;
  for (int k = 0; k < nd; k++) osize *= shape[k];
  if (a->shape[d] == 0 && osize > 0) return empty_axis(idx, d);
  if (outp) {
    GPUX__CHECK(gpux__array_new(outp, a->ctx, a->dtype, nd, shape));
    out = *outp;
  }
  if (out->size == 0) return GPUX_SUCCESS;
  ix_plan pl;
  memset(&pl, 0, sizeof pl);
  pl.ndim = nd;
  int64_t ipos[GPUX_MAX_DIMS];
  rowmajor(idx->ndim, idx->shape, ipos);
  for (int k = 0; k < nd; k++) {
    pl.shape[k] = shape[k];
    pl.stride[0][k] = out->strides[k];
    pl.stride[1][k] = k == d || a->shape[k] == 1 ? 0 : a->strides[k];
    pl.stride[2][k] = idx->shape[k] == 1 ? 0 : idx->strides[k];
    pl.stride[3][k] = idx->shape[k] == 1 ? 0 : ipos[k];
  }
  pl.offset[0] = out->offset;
  pl.offset[1] = a->offset;
  pl.offset[2] = idx->offset;
  gpux_status s = gather_run(out, a, idx, a->shape[d], a->strides[d], &pl, 0, mode,
                             "gpux_take_along_axis");
  if (s != GPUX_SUCCESS && outp) {
    gpux_array_release(*outp);
    *outp = NULL;
  }
  return s;
}

/* ---------------------------------------------------------------- put */

/* a (contiguous, or through a contiguous copy) [dest] = values by the plan pl over n
 * iterations (sets 0: a's offsets without the axis, 1: values (vmod 0), 2: idx, 3: idx
 * position); vmod > 0: values contiguous, cycled */
static gpux_status put_run(struct gpux_array *a, const struct gpux_array *idx,
                           const struct gpux_array *values, ix_plan *pl, int64_t len,
                           int axis_d, int64_t vmod, gpux_index_mode mode, const char *fn) {
  struct gpux_context *ctx = a->ctx;
  struct gpux_stream *s = gpux__stream_cur(ctx);
  struct gpux_array *dst = a, *tmp = NULL, *vtmp = NULL, *win = NULL;
  gpux_status st = GPUX_SUCCESS;
  if (!gpux__is_contiguous(a)) {
    st = gpux__array_new(&tmp, ctx, a->dtype, a->ndim, a->shape);
    if (st == GPUX_SUCCESS) st = gpux__copy_strided(tmp, a);
    dst = tmp;
  }
  if (st == GPUX_SUCCESS && vmod > 0 && !gpux__is_contiguous(values)) {
    st = gpux__array_new(&vtmp, ctx, values->dtype, values->ndim, values->shape);
    if (st == GPUX_SUCCESS) st = gpux__copy_strided(vtmp, values);
    values = vtmp;
  }
  int64_t n = 1;
  for (int k = 0; k < pl->ndim; k++) n *= pl->shape[k];
  const int wide = n > INT32_MAX;
  if (st == GPUX_SUCCESS) {
    const int64_t wshape[1] = {a->size};
    st = gpux_array_full(&win, ctx, wide ? GPUX_INT64 : GPUX_INT32, 1, wshape, -1.0);
  }
  if (st == GPUX_SUCCESS) {
    /* dst's own strides in set 0 (a contiguous destination) */
    int64_t rm[GPUX_MAX_DIMS];
    rowmajor(a->ndim, a->shape, rm);
    if (axis_d >= 0)
      for (int k = 0; k < pl->ndim; k++) pl->stride[0][k] = k == axis_d || a->shape[k] == 1 ? 0 : rm[k];
    pl->offset[0] = dst->offset;
    pl->offset[1] = vmod > 0 ? 0 : values->offset;
    gpux__index p[2];
    memset(p, 0, sizeof p);
    p[0].kind = GPUX__IX_MARK;
    p[0].elem_size = (int)gpux_dtype_size(a->dtype);
    p[0].win_dtype = wide ? GPUX_KDT_i64 : GPUX_KDT_i32;
    p[0].x.n = n;
    p[0].x.len = len;
    p[0].x.astride = axis_d >= 0 ? rm[axis_d] : 1;
    p[0].x.woff = dst->offset;
    p[0].x.vmod = vmod;
    p[0].x.off1 = values->offset;
    plan_finish(pl, &p[0].nd);
    p[0].win = gpux__operand_on(s, win);
    p[0].idx = gpux__operand_on(s, idx);
    p[0].out = gpux__operand_on(s, dst);
    p[0].src = gpux__operand_on(s, values);
    p[1] = p[0];
    p[1].kind = GPUX__IX_PUT;
    st = queue_ix(p, 2, idx, mode, fn);
  }
  if (st == GPUX_SUCCESS && tmp) st = gpux__copy_strided(a, tmp);
  gpux_array_release(win);
  gpux_array_release(vtmp);
  gpux_array_release(tmp);
  return st;
}

static gpux_status check_values(const struct gpux_array *a, const struct gpux_array *idx,
                                const struct gpux_array *values) {
  GPUX__CHECK(gpux__check_array(values, "values"));
  if (values->ctx != a->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "values belongs to another context than a");
  if (values->dtype != a->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "values is %s, a is %s",
                           gpux_dtype_name(values->dtype), gpux_dtype_name(a->dtype));
  if (gpux__overlaps(a, values) || gpux__overlaps(a, idx))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "a shares memory with %s",
                           gpux__overlaps(a, values) ? "values" : "idx");
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_put(gpux_array_t a, gpux_array_t idx, gpux_array_t values,
                              gpux_index_mode mode) {
  GPUX__API_FN();
  GPUX__CHECK(check_common(a, idx, mode));
  GPUX__CHECK(check_values(a, idx, values));
  if (idx->size > 0 && values->size == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "values is empty and idx has %lld elements", (long long)idx->size);
  GPUX__NEED(a->ctx, GPUX__Q_INDEX, 0, -1, -1);
  if (idx->size == 0) return GPUX_SUCCESS;
  if (a->size == 0) return empty_axis(idx, 0);
  ix_plan pl;
  memset(&pl, 0, sizeof pl);
  pl.ndim = idx->ndim;
  int64_t ipos[GPUX_MAX_DIMS];
  rowmajor(idx->ndim, idx->shape, ipos);
  for (int k = 0; k < idx->ndim; k++) {
    pl.shape[k] = idx->shape[k];
    pl.stride[2][k] = idx->strides[k];
    pl.stride[3][k] = ipos[k];
  }
  pl.offset[2] = idx->offset;
  return put_run(a, idx, values, &pl, a->size, -1, values->size, mode, "gpux_put");
}

GPUX_API gpux_status gpux_put_along_axis(gpux_array_t a, gpux_array_t idx, gpux_array_t values,
                                         int axis, gpux_index_mode mode) {
  GPUX__API_FN();
  GPUX__CHECK(check_common(a, idx, mode));
  GPUX__CHECK(check_values(a, idx, values));
  int d = -1;
  GPUX__CHECK(check_along(a, idx, axis, &d));
  const int nd = d < 0 ? 1 : a->ndim;
  int64_t shape[GPUX_MAX_DIMS];
  if (d < 0) shape[0] = idx->shape[0];
  else GPUX__CHECK(along_shape(a, idx, d, shape, "put_along_axis broadcasts them"));
  /* values broadcast to the iteration shape */
  int ok = values->ndim <= nd;
  for (int k = 0; ok && k < values->ndim; k++) {
    const int64_t v = values->shape[values->ndim - 1 - k];
    ok = v == 1 || v == shape[nd - 1 - k];
  }
  if (!ok) {
    char s1[256], s2[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "values %s does not broadcast to %s",
                           gpux__shape_str(s1, sizeof s1, values->ndim, values->shape),
                           gpux__shape_str(s2, sizeof s2, nd, shape));
  }
  GPUX__NEED(a->ctx, GPUX__Q_INDEX, 0, -1, -1);
  int64_t n = 1;
  for (int k = 0; k < nd; k++) n *= shape[k];
  if (n == 0) return GPUX_SUCCESS;
  const int64_t len = d < 0 ? a->size : a->shape[d];
  if (len == 0) return empty_axis(idx, d < 0 ? 0 : d);
  ix_plan pl;
  memset(&pl, 0, sizeof pl);
  pl.ndim = nd;
  int64_t ipos[GPUX_MAX_DIMS];
  rowmajor(idx->ndim, idx->shape, ipos);
  for (int k = 0; k < nd; k++) {
    pl.shape[k] = shape[k];
    pl.stride[2][k] = idx->shape[k] == 1 ? 0 : idx->strides[k];
    pl.stride[3][k] = idx->shape[k] == 1 ? 0 : ipos[k];
    const int kv = k - (nd - values->ndim);
    pl.stride[1][k] = kv < 0 || values->shape[kv] == 1 ? 0 : values->strides[kv];
  }
  pl.offset[2] = idx->offset;
  /* a flattened (d < 0): a contiguous line, the plan's set 0 stays 0 */
  return put_run(a, idx, values, &pl, len, d, 0, mode, "gpux_put_along_axis");
}

/* ---------------------------------------------------------------- public gather */
static gpux_status check_outp(gpux_array_t *out) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_take(gpux_array_t *out, gpux_array_t a, gpux_array_t idx, int axis,
                               gpux_index_mode mode) {
  GPUX__API_FN();
  GPUX__CHECK(check_outp(out));
  return take_any(out, NULL, a, idx, axis, mode);
}
GPUX_API gpux_status gpux_take_into(gpux_array_t out, gpux_array_t a, gpux_array_t idx,
                                    int axis, gpux_index_mode mode) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(out, "out"));
  return take_any(NULL, out, a, idx, axis, mode);
}
GPUX_API gpux_status gpux_take_along_axis(gpux_array_t *out, gpux_array_t a, gpux_array_t idx,
                                          int axis, gpux_index_mode mode) {
  GPUX__API_FN();
  GPUX__CHECK(check_outp(out));
  return take_along_any(out, NULL, a, idx, axis, mode);
}
GPUX_API gpux_status gpux_take_along_axis_into(gpux_array_t out, gpux_array_t a,
                                               gpux_array_t idx, int axis,
                                               gpux_index_mode mode) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(out, "out"));
  return take_along_any(NULL, out, a, idx, axis, mode);
}
