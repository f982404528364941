/* gpux front end: assembling arrays (include/gpux/assemble.h, docs/assembly.md).
 *
 * Everything here is views and strided copies: a result is written as a few
 * gpux__copy_strided calls from views of the inputs into views of the output (headers on the
 * stack, no allocation), which run as the copy kernels or, for a contiguous range, the
 * driver's copy. triu / tril build a mask from two ramps and run gpux_where. Every argument
 * is checked before anything is allocated or queued. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* ---------------------------------------------------------------- helpers */

/* axis in -ndim..ndim-1 -> 0..ndim-1, or -1 */
static int norm_ax(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) return -1;
  return axis < 0 ? axis + ndim : axis;
}

static gpux_status bad_axis(const char *what, int axis, int ndim) {
  return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s %d is out of range for %d dimensions",
                         what, axis, ndim);
}

static void fix_size(struct gpux_array *v) {
  v->size = 1;
  for (int d = 0; d < v->ndim; d++) v->size *= v->shape[d];
}

/* v's axis d restricted to [b, b + n) (a header on the caller's stack) */
static struct gpux_array sub_axis(const struct gpux_array *a, int d, int64_t b, int64_t n) {
  struct gpux_array v = *a;
  if (n > 0) v.offset += b * a->strides[d];
  v.shape[d] = n;
  fix_size(&v);
  return v;
}

/* a without axis d, at index i of it */
static struct gpux_array drop_axis(const struct gpux_array *a, int d, int64_t i) {
  struct gpux_array v = *a;
  v.offset += i * a->strides[d];
  for (int k = d; k + 1 < a->ndim; k++) {
    v.shape[k] = a->shape[k + 1];
    v.strides[k] = a->strides[k + 1];
  }
  v.ndim--;
  fix_size(&v);
  return v;
}

/* a with a new axis of length n and stride `stride` at position d */
static struct gpux_array add_axis(const struct gpux_array *a, int d, int64_t n, int64_t stride) {
  struct gpux_array v = *a;
  for (int k = a->ndim; k > d; k--) {
    v.shape[k] = a->shape[k - 1];
    v.strides[k] = a->strides[k - 1];
  }
  v.shape[d] = n;
  v.strides[d] = stride;
  v.ndim++;
  fix_size(&v);
  return v;
}

/* The row-major positions of a contiguous run of a 1-d view `flat` (of a's size) seen with
 * a's shape: element p of a lands at flat[p]. */
static struct gpux_array flat_as(const struct gpux_array *flat, const struct gpux_array *a) {
  struct gpux_array v = *flat;
  v.ndim = a->ndim;
  int64_t s = flat->ndim ? flat->strides[0] : 1;
  for (int d = a->ndim - 1; d >= 0; d--) {
    v.shape[d] = a->shape[d];
    v.strides[d] = s;
    s *= a->shape[d] ? a->shape[d] : 1;
  }
  fix_size(&v);
  return v;
}

static int add_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }
static int mul_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }

static gpux_status overflow(const char *what) {
  return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "%s overflows int64", what);
}

/* n >= min_n arrays, none NULL, one context; same_dtype: one dtype */
static gpux_status check_list(int n, const gpux_array_t *arrays, const char *what, int same_dtype) {
  if (!arrays) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s is NULL", what);
  if (n < 1) return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "n = %d (at least one array)", n);
  for (int i = 0; i < n; i++) {
    if (!arrays[i]) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s[%d] is NULL", what, i);
    if (arrays[i]->ctx != arrays[0]->ctx)
      return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH,
                             "%s[%d] belongs to another context than %s[0]", what, i, what);
    if (same_dtype && arrays[i]->dtype != arrays[0]->dtype)
      return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s[%d] is %s, %s[0] is %s", what, i,
                             gpux_dtype_name(arrays[i]->dtype), what,
                             gpux_dtype_name(arrays[0]->dtype));
  }
  return GPUX_SUCCESS;
}

/* out of an _into form: the result's dtype, context and shape, and no memory shared with
 * the inputs */
static gpux_status check_into(const struct gpux_array *out, struct gpux_context *ctx,
                              gpux_dtype dt, int nd, const int64_t *shape, int nin,
                              const struct gpux_array *const *ins) {
  GPUX__CHECK(gpux__check_array(out, "out"));
  if (out->ctx != ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "out belongs to another context than the input");
  if (out->dtype != dt)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "out is %s, the result is %s",
                           gpux_dtype_name(out->dtype), gpux_dtype_name(dt));
  int same = out->ndim == nd;
  for (int d = 0; same && d < nd; d++) same = out->shape[d] == shape[d];
  if (!same) {
    char a[256], b[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "out has shape %s, the result's is %s",
                           gpux__shape_str(a, sizeof a, out->ndim, out->shape),
                           gpux__shape_str(b, sizeof b, nd, shape));
  }
  for (int i = 0; i < nin; i++)
    if (ins[i] && gpux__overlaps(out, ins[i]))
      return gpux__set_error(GPUX_ERROR_OVERLAP, "out shares memory with an input");
  return GPUX_SUCCESS;
}

/* *out = o when s succeeded, else o released */
static gpux_status finish(gpux_array_t *out, struct gpux_array *o, gpux_status s) {
  if (s != GPUX_SUCCESS) {
    gpux_array_release(o);
    o = NULL;
  }
  *out = o;
  return s;
}

/* *o = into (checked against the result) or a new array of the result */
static gpux_status make_out(struct gpux_array **o, struct gpux_array *into,
                            struct gpux_context *ctx, gpux_dtype dt, int nd, const int64_t *shape,
                            int nin, const struct gpux_array *const *ins) {
  if (!into) return gpux__array_new(o, ctx, dt, nd, shape);
  GPUX__CHECK(check_into(into, ctx, dt, nd, shape, nin, ins));
  *o = into;
  return GPUX_SUCCESS;
}

/* the end of an op that wrote o with status s: a new o goes to *outp (released on failure) */
static gpux_status done(gpux_array_t *outp, struct gpux_array *into, struct gpux_array *o,
                        gpux_status s) {
  return into ? s : finish(outp, o, s);
}

/* The public pair of an op: X(&out, ...) makes a new array, X_into(out, ...) writes into out;
 * both run X_any(outp, into, ...) */
#define NEW_FORM(any, ...)        \
  GPUX__API_FN();                 \
  GPUX__CHECK(check_out(outp));   \
  return any(outp, NULL, __VA_ARGS__)
#define INTO_FORM(any, ...)                        \
  GPUX__API_FN();                                  \
  GPUX__CHECK(gpux__check_array(out, "out"));      \
  return any(NULL, out, __VA_ARGS__)

static gpux_status check_out(gpux_array_t *out) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  return GPUX_SUCCESS;
}

/* dst (any layout) = value converted as gpux_array_full converts it */
static gpux_status fill_value(struct gpux_array *dst, double value) {
  if (dst->size == 0) return GPUX_SUCCESS;
  gpux_array_t s0 = NULL;
  GPUX__CHECK(gpux_array_full(&s0, dst->ctx, dst->dtype, 0, NULL, value));
  gpux_status s = gpux__copy_strided(dst, s0);
  gpux_array_release(s0);
  return s;
}

/* ---------------------------------------------------------------- concatenate, stack */

/* The result's shape; *d the axis (-1: flattened) */
static gpux_status concat_shape(int n, const gpux_array_t *arrays, int axis, int *nd,
                                int64_t *shape, int *d) {
  GPUX__CHECK(check_list(n, arrays, "arrays", 1));
  const struct gpux_array *a0 = arrays[0];
  if (axis == GPUX_ALL_AXES) {
    int64_t total = 0;
    for (int i = 0; i < n; i++)
      if (!add_ok(total, arrays[i]->size, &total)) return overflow("the total size");
    *nd = 1;
    shape[0] = total;
    *d = -1;
    return GPUX_SUCCESS;
  }
  if (a0->ndim == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS,
                           "0-d arrays have no axis %d (GPUX_ALL_AXES joins them flattened)", axis);
  *d = norm_ax(axis, a0->ndim);
  if (*d < 0) return bad_axis("axis", axis, a0->ndim);
  *nd = a0->ndim;
  memcpy(shape, a0->shape, sizeof a0->shape);
  shape[*d] = 0;
  for (int i = 0; i < n; i++) {
    const struct gpux_array *a = arrays[i];
    int same = a->ndim == a0->ndim;
    for (int k = 0; same && k < a0->ndim; k++) same = k == *d || a->shape[k] == a0->shape[k];
    if (!same) {
      char b0[256], b1[256];
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                             "arrays[%d] has shape %s, arrays[0] %s: they must be equal except "
                             "along axis %d",
                             i, gpux__shape_str(b1, sizeof b1, a->ndim, a->shape),
                             gpux__shape_str(b0, sizeof b0, a0->ndim, a0->shape), axis);
    }
    if (!add_ok(shape[*d], a->shape[*d], &shape[*d])) return overflow("the joined axis's length");
  }
  return GPUX_SUCCESS;
}

static gpux_status concat_run(struct gpux_array *out, int n, const gpux_array_t *arrays, int d) {
  int64_t off = 0;
  for (int i = 0; i < n; i++) {
    const struct gpux_array *a = arrays[i];
    if (d < 0) {
      struct gpux_array part = sub_axis(out, 0, off, a->size);
      struct gpux_array dst = flat_as(&part, a);
      GPUX__CHECK(gpux__copy_strided(&dst, a));
      off += a->size;
    } else {
      struct gpux_array dst = sub_axis(out, d, off, a->shape[d]);
      GPUX__CHECK(gpux__copy_strided(&dst, a));
      off += a->shape[d];
    }
  }
  return GPUX_SUCCESS;
}

static gpux_status stack_shape(int n, const gpux_array_t *arrays, int axis, int *nd,
                               int64_t *shape, int *d) {
  GPUX__CHECK(check_list(n, arrays, "arrays", 1));
  const struct gpux_array *a0 = arrays[0];
  if (a0->ndim + 1 > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE,
                           "stacking %d-d arrays gives more than %d dimensions", a0->ndim,
                           GPUX_MAX_DIMS);
  *d = norm_ax(axis, a0->ndim + 1);
  if (*d < 0) return bad_axis("axis", axis, a0->ndim + 1);
  for (int i = 1; i < n; i++)
    if (!gpux__same_shape(arrays[i], a0)) {
      char b0[256], b1[256];
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                             "arrays[%d] has shape %s, arrays[0] %s: stacked arrays have one shape", i,
                             gpux__shape_str(b1, sizeof b1, arrays[i]->ndim, arrays[i]->shape),
                             gpux__shape_str(b0, sizeof b0, a0->ndim, a0->shape));
    }
  *nd = a0->ndim + 1;
  for (int k = 0, j = 0; k < *nd; k++) shape[k] = k == *d ? n : a0->shape[j++];
  return GPUX_SUCCESS;
}

static gpux_status stack_run(struct gpux_array *out, int n, const gpux_array_t *arrays, int d) {
  for (int i = 0; i < n; i++) {
    struct gpux_array dst = drop_axis(out, d, i);
    GPUX__CHECK(gpux__copy_strided(&dst, arrays[i]));
  }
  return GPUX_SUCCESS;
}

/* concatenate (stack 0) or stack */
static gpux_status join_any(gpux_array_t *outp, struct gpux_array *into, int n,
                            const gpux_array_t *arrays, int axis, int stack) {
  int nd = 0, d = 0;
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(stack ? stack_shape(n, arrays, axis, &nd, shape, &d)
                    : concat_shape(n, arrays, axis, &nd, shape, &d));
  struct gpux_array *o = NULL;
  GPUX__CHECK(make_out(&o, into, arrays[0]->ctx, arrays[0]->dtype, nd, shape, n,
                       (const struct gpux_array *const *)arrays));
  return done(outp, into, o, stack ? stack_run(o, n, arrays, d) : concat_run(o, n, arrays, d));
}

GPUX_API gpux_status gpux_concatenate(gpux_array_t *outp, int n, const gpux_array_t *arrays,
                                      int axis) {
  NEW_FORM(join_any, n, arrays, axis, 0);
}
GPUX_API gpux_status gpux_concatenate_into(gpux_array_t out, int n, const gpux_array_t *arrays,
                                           int axis) {
  INTO_FORM(join_any, n, arrays, axis, 0);
}
GPUX_API gpux_status gpux_stack(gpux_array_t *outp, int n, const gpux_array_t *arrays, int axis) {
  NEW_FORM(join_any, n, arrays, axis, 1);
}
GPUX_API gpux_status gpux_stack_into(gpux_array_t out, int n, const gpux_array_t *arrays,
                                     int axis) {
  INTO_FORM(join_any, n, arrays, axis, 1);
}

/* ---------------------------------------------------------------- split */

/* outs[0 .. nparts) = views of a along d from bounds[i] to bounds[i + 1] */
static gpux_status make_parts(gpux_array_t *outs, const struct gpux_array *a, int d, int nparts,
                              const int64_t *lo, const int64_t *hi) {
  for (int i = 0; i < nparts; i++) {
    struct gpux_array v = sub_axis(a, d, lo[i], hi[i] > lo[i] ? hi[i] - lo[i] : 0);
    gpux_status s = gpux__array_view(&outs[i], &v);
    if (s != GPUX_SUCCESS) {
      for (int j = 0; j < i; j++) {
        gpux_array_release(outs[j]);
        outs[j] = NULL;
      }
      outs[i] = NULL;
      return s;
    }
  }
  return GPUX_SUCCESS;
}

static gpux_status split_common(gpux_array_t *outs, gpux_array_t a, int nsections, int axis,
                                int even) {
  if (!outs) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "outs is NULL");
  for (int i = 0; i < nsections; i++) outs[i] = NULL;
  GPUX__CHECK(gpux__check_array(a, "a"));
  if (nsections < 1)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "nsections = %d (at least 1)", nsections);
  int d = norm_ax(axis, a->ndim);
  if (d < 0) return bad_axis("axis", axis, a->ndim);
  const int64_t len = a->shape[d];
  if (even && len % nsections)
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "axis %d of length %lld does not divide into %d equal sections "
                           "(gpux_array_split allows unequal ones)",
                           axis, (long long)len, nsections);
  int64_t *lo = malloc(2 * (size_t)nsections * sizeof *lo);
  if (!lo) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  int64_t *hi = lo + nsections, each = len / nsections, extra = len % nsections, b = 0;
  for (int i = 0; i < nsections; i++) {
    lo[i] = b;
    b += each + (i < extra);
    hi[i] = b;
  }
  gpux_status s = make_parts(outs, a, d, nsections, lo, hi);
  free(lo);
  return s;
}

GPUX_API gpux_status gpux_split(gpux_array_t *outs, gpux_array_t a, int nsections, int axis) {
  GPUX__API_FN();
  return split_common(outs, a, nsections, axis, 1);
}

GPUX_API gpux_status gpux_array_split(gpux_array_t *outs, gpux_array_t a, int nsections,
                                      int axis) {
  GPUX__API_FN();
  return split_common(outs, a, nsections, axis, 0);
}

GPUX_API gpux_status gpux_split_at(gpux_array_t *outs, gpux_array_t a, int nidx,
                                   const int64_t *idx, int axis) {
  GPUX__API_FN();
  if (!outs) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "outs is NULL");
  for (int i = 0; i <= nidx; i++) outs[i] = NULL;
  GPUX__CHECK(gpux__check_array(a, "a"));
  if (nidx < 0) return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "nidx = %d is negative", nidx);
  if (nidx > 0 && !idx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "idx is NULL");
  int d = norm_ax(axis, a->ndim);
  if (d < 0) return bad_axis("axis", axis, a->ndim);
  const int64_t len = a->shape[d];
  int64_t *lo = malloc(2 * ((size_t)nidx + 1) * sizeof *lo);
  if (!lo) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  int64_t *hi = lo + nidx + 1;
  for (int i = 0; i <= nidx; i++) { /* Python's a[lo:hi], each clipped to 0..len */
    int64_t l = i ? idx[i - 1] : 0, h = i < nidx ? idx[i] : len;
    if (l < 0) l = l < -len ? 0 : l + len;
    if (h < 0) h = h < -len ? 0 : h + len;
    lo[i] = l > len ? len : l;
    hi[i] = h > len ? len : h;
  }
  gpux_status s = make_parts(outs, a, d, nidx + 1, lo, hi);
  free(lo);
  return s;
}

/* ---------------------------------------------------------------- tile */

static gpux_status tile_shape(const struct gpux_array *a, int nreps, const int64_t *reps, int *nd,
                              int64_t *shape, int64_t *r, int64_t *sh) {
  GPUX__CHECK(gpux__check_array(a, "a"));
  if (nreps < 0 || nreps > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "nreps = %d is outside 0..%d", nreps,
                           GPUX_MAX_DIMS);
  if (nreps > 0 && !reps) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "reps is NULL");
  *nd = a->ndim > nreps ? a->ndim : nreps;
  for (int d = 0; d < *nd; d++) {
    int ia = d - (*nd - a->ndim), ir = d - (*nd - nreps);
    sh[d] = ia >= 0 ? a->shape[ia] : 1;
    r[d] = ir >= 0 ? reps[ir] : 1;
    if (r[d] < 0)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "reps[%d] = %lld is negative", ir,
                             (long long)r[d]);
    if (!mul_ok(sh[d], r[d], &shape[d])) return overflow("the tiled shape");
  }
  int64_t size = 0;
  return gpux__check_shape(*nd, shape, &size, a->dtype);
}

/* dst (shape r[d] * sh[d]) = src (shape sh, broadcast r times along each axis): one copy
 * through the split view when it fits GPUX_MAX_DIMS, else one level per repetition of the
 * first repeated axis. */
static gpux_status tile_copy(const struct gpux_array *dst, const struct gpux_array *src,
                             const int64_t *r, const int64_t *sh) {
  int nd = dst->ndim, splits = 0, first = -1;
  for (int d = 0; d < nd; d++)
    if (r[d] > 1 && sh[d] > 1) {
      splits++;
      if (first < 0) first = d;
    }
  if (nd + splits <= GPUX_MAX_DIMS) {
    struct gpux_array dv = *dst, sv = *src;
    dv.ndim = sv.ndim = 0;
    for (int d = 0; d < nd; d++) {
      if (r[d] > 1 && sh[d] > 1) { /* (r, sh): rep stride sh * s, element stride s */
        dv.shape[dv.ndim] = r[d];
        dv.strides[dv.ndim++] = dst->strides[d] * sh[d];
        sv.shape[sv.ndim] = r[d];
        sv.strides[sv.ndim++] = 0;
      }
      dv.shape[dv.ndim] = dst->shape[d] / (r[d] > 1 && sh[d] > 1 ? r[d] : 1);
      dv.strides[dv.ndim++] = dst->strides[d];
      sv.shape[sv.ndim] = dv.shape[dv.ndim - 1];
      sv.strides[sv.ndim++] = sh[d] == 1 ? 0 : src->strides[d];
    }
    fix_size(&dv);
    fix_size(&sv);
    return gpux__copy_strided(&dv, &sv);
  }
  int64_t r2[GPUX_MAX_DIMS];
  memcpy(r2, r, (size_t)nd * sizeof *r);
  r2[first] = 1;
  for (int64_t j = 0; j < r[first]; j++) {
    struct gpux_array part = sub_axis(dst, first, j * sh[first], sh[first]);
    GPUX__CHECK(tile_copy(&part, src, r2, sh));
  }
  return GPUX_SUCCESS;
}

static gpux_status tile_run(struct gpux_array *out, const struct gpux_array *a, const int64_t *r,
                            const int64_t *sh) {
  if (out->size == 0) return GPUX_SUCCESS;
  struct gpux_array src = *a; /* a with leading axes of length 1 */
  src.ndim = out->ndim;
  for (int d = 0; d < out->ndim; d++) {
    int ia = d - (out->ndim - a->ndim);
    src.shape[d] = sh[d];
    src.strides[d] = ia >= 0 ? a->strides[ia] : 0;
  }
  fix_size(&src);
  return tile_copy(out, &src, r, sh);
}

static gpux_status tile_any(gpux_array_t *outp, struct gpux_array *into, gpux_array_t a,
                            int nreps, const int64_t *reps) {
  int nd = 0;
  int64_t shape[GPUX_MAX_DIMS], r[GPUX_MAX_DIMS], sh[GPUX_MAX_DIMS];
  GPUX__CHECK(tile_shape(a, nreps, reps, &nd, shape, r, sh));
  struct gpux_array *o = NULL;
  const struct gpux_array *ins[1] = {a};
  GPUX__CHECK(make_out(&o, into, a->ctx, a->dtype, nd, shape, 1, ins));
  return done(outp, into, o, tile_run(o, a, r, sh));
}

GPUX_API gpux_status gpux_tile(gpux_array_t *outp, gpux_array_t a, int nreps, const int64_t *reps) {
  NEW_FORM(tile_any, a, nreps, reps);
}
GPUX_API gpux_status gpux_tile_into(gpux_array_t out, gpux_array_t a, int nreps,
                                    const int64_t *reps) {
  INTO_FORM(tile_any, a, nreps, reps);
}

/* ---------------------------------------------------------------- repeat */

/* dst (axis d of length count * src's) = each element of src along d repeated count times:
 * one copy through the view (..., n, count, ...), or count copies where that has too many
 * axes */
#define REPEAT_BLOCK 256 /* elements: a work-group of the CPU copies */
static gpux_status repeat_block(const struct gpux_array *dst, const struct gpux_array *src, int d,
                                int64_t count) {
  if (dst->size == 0) return GPUX_SUCCESS;
  if (src->ndim < GPUX_MAX_DIMS) {
    /* the copies run their innermost axes as work-groups on CPU devices: a short count axis
     * innermost (repeat along the last axis) makes tiny groups (2^24 float32 twice: 0.8
     * GB/s on pocl), so the count axis goes outside the elements' there */
    int64_t inner = 1;
    for (int k = d + 1; k < src->ndim; k++) inner *= src->shape[k];
    const int outer = inner < 64 && count < src->shape[d];
    const int64_t B = REPEAT_BLOCK, len = src->shape[d];
    if (outer && src->ndim + 2 <= GPUX_MAX_DIMS && len >= 2 * B) {
      /* and in blocks of B elements, (blocks, count, B), so that the count passes over a
       * block's output while it is in cache; the tail as below */
      const int64_t nb = len / B, m = nb * B, sd = dst->strides[d], ss = src->strides[d];
      struct gpux_array dm = sub_axis(dst, d, 0, m * count), sm = sub_axis(src, d, 0, m);
      struct gpux_array dv = add_axis(&dm, d + 1, count, sd), sv = add_axis(&sm, d + 1, count, 0);
      dv = add_axis(&dv, d + 2, B, count * sd);
      sv = add_axis(&sv, d + 2, B, ss);
      dv.shape[d] = sv.shape[d] = nb;
      dv.strides[d] = B * count * sd;
      sv.strides[d] = B * ss;
      fix_size(&dv);
      fix_size(&sv);
      GPUX__CHECK(gpux__copy_strided(&dv, &sv));
      struct gpux_array dt = sub_axis(dst, d, m * count, (len - m) * count);
      struct gpux_array st = sub_axis(src, d, m, len - m);
      return repeat_block(&dt, &st, d, count);
    }
    const int dc = outer ? d : d + 1, de = outer ? d + 1 : d;
    struct gpux_array dv = add_axis(dst, dc, count, dst->strides[d]);
    dv.shape[de] = src->shape[d];
    dv.strides[de] = dst->strides[d] * count;
    fix_size(&dv);
    struct gpux_array sv = add_axis(src, dc, count, 0);
    return gpux__copy_strided(&dv, &sv);
  }
  for (int64_t c = 0; c < count; c++) {
    struct gpux_array dv = *dst;
    dv.offset += c * dst->strides[d];
    dv.shape[d] = src->shape[d];
    dv.strides[d] = dst->strides[d] * count;
    fix_size(&dv);
    GPUX__CHECK(gpux__copy_strided(&dv, src));
  }
  return GPUX_SUCCESS;
}

/* The arguments of repeat and repeat_counts: *src = a, or for GPUX_ALL_AXES a 1-d view of a
 * (of a contiguous copy in *tmp when a is not contiguous); *d the axis of src. */
static gpux_status repeat_src(const struct gpux_array *a, int axis, struct gpux_array *src,
                              struct gpux_array **tmp, int *d) {
  *tmp = NULL;
  GPUX__CHECK(gpux__check_array(a, "a"));
  if (axis != GPUX_ALL_AXES) {
    *d = norm_ax(axis, a->ndim);
    if (*d < 0) return bad_axis("axis", axis, a->ndim);
    *src = *a;
    return GPUX_SUCCESS;
  }
  *d = 0;
  *src = *a;
  src->ndim = 1;
  src->shape[0] = a->size;
  src->strides[0] = 1;
  return GPUX_SUCCESS;
}

/* a's flattened elements for src (made after every check passed) */
static gpux_status repeat_flat(const struct gpux_array *a, int axis, struct gpux_array *src,
                               struct gpux_array **tmp) {
  if (axis != GPUX_ALL_AXES || gpux__is_contiguous(a)) return GPUX_SUCCESS;
  GPUX__CHECK(gpux__contiguous_copy(tmp, a));
  src->st = (*tmp)->st;
  src->offset = 0;
  return GPUX_SUCCESS;
}

/* repeat (ncounts 1: counts[0] for every element) and repeat_counts */
static gpux_status repeat_any(gpux_array_t *outp, struct gpux_array *into, gpux_array_t a,
                              int64_t ncounts, const int64_t *counts, int axis) {
  struct gpux_array src = {0}, *tmp = NULL, *o = NULL;
  int d = 0;
  int64_t shape[GPUX_MAX_DIMS], size = 0;
  GPUX__CHECK(repeat_src(a, axis, &src, &tmp, &d));
  const int64_t len = src.shape[d];
  if (!counts) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "counts is NULL");
  if (ncounts != len && ncounts != 1)
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "ncounts = %lld: one count per element of the axis (%lld) or a single one",
                           (long long)ncounts, (long long)len);
  memcpy(shape, src.shape, sizeof src.shape);
  shape[d] = 0;
  for (int64_t i = 0; i < ncounts; i++) {
    if (counts[i] < 0 && ncounts == 1)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "count = %lld is negative",
                             (long long)counts[0]);
    if (counts[i] < 0)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "counts[%lld] = %lld is negative",
                             (long long)i, (long long)counts[i]);
    if (ncounts == 1 ? !mul_ok(len, counts[0], &shape[d])
                     : !add_ok(shape[d], counts[i], &shape[d]))
      return overflow("the repeated axis's length");
  }
  GPUX__CHECK(gpux__check_shape(src.ndim, shape, &size, src.dtype));
  const struct gpux_array *ins[1] = {a};
  GPUX__CHECK(make_out(&o, into, a->ctx, a->dtype, src.ndim, shape, 1, ins));
  gpux_status s = repeat_flat(a, axis, &src, &tmp);
  /* one copy per run of equal counts */
  for (int64_t i = 0, off = 0; s == GPUX_SUCCESS && i < len;) {
    const int64_t c = counts[ncounts == 1 ? 0 : i];
    int64_t j = ncounts == 1 ? len : i + 1;
    while (j < len && counts[j] == c) j++;
    if (c > 0) {
      struct gpux_array dv = sub_axis(o, d, off, (j - i) * c);
      struct gpux_array sv = sub_axis(&src, d, i, j - i);
      s = repeat_block(&dv, &sv, d, c);
      off += (j - i) * c;
    }
    i = j;
  }
  gpux_array_release(tmp);
  return done(outp, into, o, s);
}

GPUX_API gpux_status gpux_repeat(gpux_array_t *outp, gpux_array_t a, int64_t count, int axis) {
  NEW_FORM(repeat_any, a, 1, &count, axis);
}
GPUX_API gpux_status gpux_repeat_into(gpux_array_t out, gpux_array_t a, int64_t count, int axis) {
  INTO_FORM(repeat_any, a, 1, &count, axis);
}
GPUX_API gpux_status gpux_repeat_counts(gpux_array_t *outp, gpux_array_t a, int64_t ncounts,
                                        const int64_t *counts, int axis) {
  NEW_FORM(repeat_any, a, ncounts, counts, axis);
}
GPUX_API gpux_status gpux_repeat_counts_into(gpux_array_t out, gpux_array_t a, int64_t ncounts,
                                             const int64_t *counts, int axis) {
  INTO_FORM(repeat_any, a, ncounts, counts, axis);
}

/* ---------------------------------------------------------------- flip, roll */

/* axes[k], an axis of a, as 0..ndim-1 into *d */
static gpux_status listed_axis(const struct gpux_array *a, const int *axes, int k, int *d) {
  *d = norm_ax(axes[k], a->ndim);
  if (*d >= 0) return GPUX_SUCCESS;
  char what[32];
  snprintf(what, sizeof what, "axes[%d]", k);
  return bad_axis(what, axes[k], a->ndim);
}

/* which[d] = 1 for each listed axis (GPUX_ALL_AXES: every one); none repeated */
static gpux_status axis_set(const struct gpux_array *a, int naxes, const int *axes, int *which) {
  memset(which, 0, GPUX_MAX_DIMS * sizeof *which);
  if (naxes == GPUX_ALL_AXES) {
    for (int d = 0; d < a->ndim; d++) which[d] = 1;
    return GPUX_SUCCESS;
  }
  if (naxes < 0 || naxes > a->ndim)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "naxes = %d (0..%d, or GPUX_ALL_AXES)", naxes,
                           a->ndim);
  if (naxes > 0 && !axes) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "axes is NULL");
  for (int k = 0; k < naxes; k++) {
    int d = 0;
    GPUX__CHECK(listed_axis(a, axes, k, &d));
    if (which[d])
      return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "axis %d is repeated", axes[k]);
    which[d] = 1;
  }
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_flip(gpux_array_t *out, gpux_array_t a, int naxes, const int *axes) {
  GPUX__API_FN();
  GPUX__CHECK(check_out(out));
  GPUX__CHECK(gpux__check_array(a, "a"));
  int which[GPUX_MAX_DIMS];
  GPUX__CHECK(axis_set(a, naxes, axes, which));
  struct gpux_array v = *a;
  for (int d = 0; d < a->ndim; d++)
    if (which[d] && a->shape[d] > 1) {
      v.offset += (a->shape[d] - 1) * a->strides[d];
      v.strides[d] = -a->strides[d];
    }
  return gpux__array_view(out, &v);
}

/* The shift of each axis (0..len-1); *flat: along the flattened array */
static gpux_status roll_args(const struct gpux_array *a, int naxes, const int64_t *shifts,
                             const int *axes, int64_t *sh, int *flat) {
  GPUX__CHECK(gpux__check_array(a, "a"));
  memset(sh, 0, GPUX_MAX_DIMS * sizeof *sh);
  *flat = naxes == GPUX_ALL_AXES;
  if (*flat) {
    if (!shifts) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "shifts is NULL");
    sh[0] = a->size ? ((shifts[0] % a->size) + a->size) % a->size : 0;
    return GPUX_SUCCESS;
  }
  if (naxes < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "naxes = %d (>= 0, or GPUX_ALL_AXES)", naxes);
  if (naxes > 0 && (!shifts || !axes))
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s is NULL", shifts ? "axes" : "shifts");
  for (int k = 0; k < naxes; k++) {
    int d = 0;
    GPUX__CHECK(listed_axis(a, axes, k, &d));
    int64_t n = a->shape[d];
    if (n) sh[d] = (sh[d] + ((shifts[k] % n) + n) % n) % n;
  }
  return GPUX_SUCCESS;
}

/* out = a rolled by sh[d] along each axis: 2^(rolled axes) block copies */
static gpux_status roll_blocks(const struct gpux_array *out, const struct gpux_array *a,
                               const int64_t *sh) {
  int ax[GPUX_MAX_DIMS], m = 0;
  for (int d = 0; d < a->ndim; d++)
    if (sh[d]) ax[m++] = d;
  for (unsigned mask = 0; mask < (1u << m); mask++) {
    struct gpux_array dv = *out, sv = *a;
    for (int k = 0; k < m; k++) {
      int d = ax[k];
      int64_t n = a->shape[d], s = sh[d];
      if (mask & (1u << k)) { /* the tail of a wraps to the front */
        dv = sub_axis(&dv, d, 0, s);
        sv = sub_axis(&sv, d, n - s, s);
      } else {
        dv = sub_axis(&dv, d, s, n - s);
        sv = sub_axis(&sv, d, 0, n - s);
      }
    }
    GPUX__CHECK(gpux__copy_strided(&dv, &sv));
  }
  return GPUX_SUCCESS;
}

static gpux_status roll_run(struct gpux_array *out, const struct gpux_array *a, const int64_t *sh,
                            int flat) {
  if (out->size == 0) return GPUX_SUCCESS;
  if (!flat) return roll_blocks(out, a, sh);
  /* flattened: contiguous 1-d views of both (through contiguous temporaries if needed) */
  struct gpux_array *ta = NULL, *to = NULL;
  gpux_status s = GPUX_SUCCESS;
  if (!gpux__is_contiguous(a)) {
    s = gpux__array_new(&ta, a->ctx, a->dtype, a->ndim, a->shape);
    if (s == GPUX_SUCCESS) s = gpux__copy_strided(ta, a);
  }
  if (s == GPUX_SUCCESS && !gpux__is_contiguous(out))
    s = gpux__array_new(&to, out->ctx, out->dtype, out->ndim, out->shape);
  if (s == GPUX_SUCCESS) {
    struct gpux_array fa = ta ? *ta : *a, fo = to ? *to : *out;
    fa.ndim = fo.ndim = 1;
    fa.shape[0] = fo.shape[0] = a->size;
    fa.strides[0] = fo.strides[0] = 1;
    s = roll_blocks(&fo, &fa, sh);
  }
  if (s == GPUX_SUCCESS && to) s = gpux__copy_strided(out, to);
  gpux_array_release(ta);
  gpux_array_release(to);
  return s;
}

static gpux_status roll_any(gpux_array_t *outp, struct gpux_array *into, gpux_array_t a,
                            int naxes, const int64_t *shifts, const int *axes) {
  int64_t sh[GPUX_MAX_DIMS];
  int flat = 0;
  GPUX__CHECK(roll_args(a, naxes, shifts, axes, sh, &flat));
  struct gpux_array *o = NULL;
  const struct gpux_array *ins[1] = {a};
  GPUX__CHECK(make_out(&o, into, a->ctx, a->dtype, a->ndim, a->shape, 1, ins));
  return done(outp, into, o, roll_run(o, a, sh, flat));
}

GPUX_API gpux_status gpux_roll(gpux_array_t *outp, gpux_array_t a, int naxes,
                               const int64_t *shifts, const int *axes) {
  NEW_FORM(roll_any, a, naxes, shifts, axes);
}
GPUX_API gpux_status gpux_roll_into(gpux_array_t out, gpux_array_t a, int naxes,
                                    const int64_t *shifts, const int *axes) {
  INTO_FORM(roll_any, a, naxes, shifts, axes);
}

/* ---------------------------------------------------------------- pad */

static gpux_status pad_shape(const struct gpux_array *a, const int64_t *widths, gpux_pad_mode mode,
                             int64_t *shape) {
  GPUX__CHECK(gpux__check_array(a, "a"));
  if (a->ndim > 0 && !widths) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "widths is NULL");
  if (mode != GPUX_PAD_CONSTANT && mode != GPUX_PAD_EDGE)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "mode %d is not a gpux_pad_mode", (int)mode);
  for (int d = 0; d < a->ndim; d++) {
    for (int k = 0; k < 2; k++)
      if (widths[2 * d + k] < 0)
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "widths[%d] = %lld (axis %d, %s) is negative",
                               2 * d + k, (long long)widths[2 * d + k], d, k ? "after" : "before");
    if (mode == GPUX_PAD_EDGE && a->shape[d] == 0 && (widths[2 * d] || widths[2 * d + 1]))
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "edge mode cannot extend axis %d, which is empty", d);
    if (!add_ok(a->shape[d], widths[2 * d], &shape[d]) ||
        !add_ok(shape[d], widths[2 * d + 1], &shape[d]))
      return overflow("the padded shape");
  }
  int64_t size = 0;
  return gpux__check_shape(a->ndim, shape, &size, a->dtype);
}

static gpux_status pad_run(struct gpux_array *out, const struct gpux_array *a, const int64_t *w,
                           gpux_pad_mode mode, double value) {
  if (out->size == 0) return GPUX_SUCCESS;
  const int nd = a->ndim;
  struct gpux_array inner = *out;
  for (int d = 0; d < nd; d++) inner = sub_axis(&inner, d, w[2 * d], a->shape[d]);
  GPUX__CHECK(gpux__copy_strided(&inner, a));
  gpux_array_t s0 = NULL;
  if (mode == GPUX_PAD_CONSTANT) {
    int any = 0;
    for (int d = 0; d < 2 * nd; d++) any |= w[d] != 0;
    if (!any) return GPUX_SUCCESS;
    GPUX__CHECK(gpux_array_full(&s0, out->ctx, out->dtype, 0, NULL, value));
  }
  gpux_status s = GPUX_SUCCESS;
  /* axis by axis: the padded axes before d whole, those after d their interior */
  for (int d = 0; d < nd && s == GPUX_SUCCESS; d++) {
    const int64_t b = w[2 * d], e = w[2 * d + 1], n = a->shape[d];
    if (!b && !e) continue;
    struct gpux_array r = *out;
    for (int k = d + 1; k < nd; k++) r = sub_axis(&r, k, w[2 * k], a->shape[k]);
    struct gpux_array before = sub_axis(&r, d, 0, b), after = sub_axis(&r, d, b + n, e);
    struct gpux_array first = sub_axis(&r, d, b, 1), last = sub_axis(&r, d, b + n - 1, 1);
    s = gpux__copy_strided(&before, s0 ? s0 : &first);
    if (s == GPUX_SUCCESS) s = gpux__copy_strided(&after, s0 ? s0 : &last);
  }
  gpux_array_release(s0);
  return s;
}

static gpux_status pad_any(gpux_array_t *outp, struct gpux_array *into, gpux_array_t a,
                           const int64_t *widths, gpux_pad_mode mode, double value) {
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(pad_shape(a, widths, mode, shape));
  struct gpux_array *o = NULL;
  const struct gpux_array *ins[1] = {a};
  GPUX__CHECK(make_out(&o, into, a->ctx, a->dtype, a->ndim, shape, 1, ins));
  return done(outp, into, o, pad_run(o, a, widths, mode, value));
}

GPUX_API gpux_status gpux_pad(gpux_array_t *outp, gpux_array_t a, const int64_t *widths,
                              gpux_pad_mode mode, double value) {
  NEW_FORM(pad_any, a, widths, mode, value);
}
GPUX_API gpux_status gpux_pad_into(gpux_array_t out, gpux_array_t a, const int64_t *widths,
                                   gpux_pad_mode mode, double value) {
  INTO_FORM(pad_any, a, widths, mode, value);
}

/* ---------------------------------------------------------------- triu, tril */

static gpux_status tri_shape(const struct gpux_array *a, int *nd, int64_t *shape) {
  GPUX__CHECK(gpux__check_array(a, "a"));
  if (a->ndim == 0)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "a is 0-d (triu / tril take 1-d or more)");
  *nd = a->ndim == 1 ? 2 : a->ndim;
  memcpy(shape, a->shape, sizeof a->shape);
  if (a->ndim == 1) shape[1] = a->shape[0];
  int64_t size = 0;
  return gpux__check_shape(*nd, shape, &size, a->dtype);
}

/* out = where(j - i >= k (upper) or <= k, a, 0), the mask (M, N) from two int64 ramps */
static gpux_status tri_run(struct gpux_array *out, gpux_array_t a, int64_t k, int upper) {
  if (out->size == 0) return GPUX_SUCCESS;
  const int64_t M = out->shape[out->ndim - 2], N = out->shape[out->ndim - 1];
  /* j - i lies in [-(M - 1), N - 1]: k clamped to [-M, N] keeps the mask and the ramps exact */
  const int64_t kc = k < -M ? -M : k > N ? N : k;
  gpux_array_t cols = NULL, rows = NULL, rows2 = NULL, mask = NULL, zero = NULL;
  const int64_t rshape[2] = {M, 1};
  gpux_status s = gpux_array_arange(&cols, a->ctx, GPUX_INT64, 0.0, (double)N, 1.0);
  if (s == GPUX_SUCCESS)
    s = gpux_array_arange(&rows, a->ctx, GPUX_INT64, (double)kc, (double)(kc + M), 1.0);
  if (s == GPUX_SUCCESS) s = gpux_array_reshape(&rows2, rows, 2, rshape);
  if (s == GPUX_SUCCESS) s = gpux_binary(&mask, upper ? GPUX_GE : GPUX_LE, cols, rows2);
  if (s == GPUX_SUCCESS) s = gpux_array_zeros(&zero, a->ctx, a->dtype, 0, NULL);
  if (s == GPUX_SUCCESS) s = gpux_where_into(out, mask, a, zero);
  gpux_array_release(cols);
  gpux_array_release(rows);
  gpux_array_release(rows2);
  gpux_array_release(mask);
  gpux_array_release(zero);
  return s;
}

static gpux_status tri_any(gpux_array_t *outp, struct gpux_array *into, gpux_array_t a,
                           int64_t k, int upper) {
  int nd = 0;
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(tri_shape(a, &nd, shape));
  struct gpux_array *o = NULL;
  const struct gpux_array *ins[1] = {a};
  GPUX__CHECK(make_out(&o, into, a->ctx, a->dtype, nd, shape, 1, ins));
  return done(outp, into, o, tri_run(o, a, k, upper));
}

GPUX_API gpux_status gpux_triu(gpux_array_t *outp, gpux_array_t a, int64_t k) {
  NEW_FORM(tri_any, a, k, 1);
}
GPUX_API gpux_status gpux_triu_into(gpux_array_t out, gpux_array_t a, int64_t k) {
  INTO_FORM(tri_any, a, k, 1);
}
GPUX_API gpux_status gpux_tril(gpux_array_t *outp, gpux_array_t a, int64_t k) {
  NEW_FORM(tri_any, a, k, 0);
}
GPUX_API gpux_status gpux_tril_into(gpux_array_t out, gpux_array_t a, int64_t k) {
  INTO_FORM(tri_any, a, k, 0);
}

/* ---------------------------------------------------------------- diagonal, diag, eye */

/* The diagonal `offset` of axes d1, d2 as a header: those axes dropped, the diagonal last */
static struct gpux_array diag_view(const struct gpux_array *a, int64_t offset, int d1, int d2) {
  const int64_t n1 = a->shape[d1], n2 = a->shape[d2];
  int64_t len, i1 = 0, i2 = 0;
  if (offset >= 0) {
    len = offset >= n2 ? 0 : (n1 < n2 - offset ? n1 : n2 - offset);
    i2 = offset;
  } else {
    len = offset <= -n1 ? 0 : (n1 + offset < n2 ? n1 + offset : n2);
    i1 = len > 0 ? -offset : 0;
  }
  struct gpux_array v = *a;
  if (len > 0) v.offset += i1 * a->strides[d1] + i2 * a->strides[d2];
  v.ndim = 0;
  for (int d = 0; d < a->ndim; d++)
    if (d != d1 && d != d2) {
      v.shape[v.ndim] = a->shape[d];
      v.strides[v.ndim++] = a->strides[d];
    }
  v.shape[v.ndim] = len;
  v.strides[v.ndim++] = a->strides[d1] + a->strides[d2];
  fix_size(&v);
  return v;
}

GPUX_API gpux_status gpux_diagonal(gpux_array_t *out, gpux_array_t a, int64_t offset, int axis1,
                                   int axis2) {
  GPUX__API_FN();
  GPUX__CHECK(check_out(out));
  GPUX__CHECK(gpux__check_array(a, "a"));
  if (a->ndim < 2)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "a has %d dimensions (a diagonal needs 2 or more)",
                           a->ndim);
  int d1 = norm_ax(axis1, a->ndim), d2 = norm_ax(axis2, a->ndim);
  if (d1 < 0) return bad_axis("axis1", axis1, a->ndim);
  if (d2 < 0) return bad_axis("axis2", axis2, a->ndim);
  if (d1 == d2)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "axis1 (%d) and axis2 (%d) are the same axis",
                           axis1, axis2);
  struct gpux_array v = diag_view(a, offset, d1, d2);
  return gpux__array_view(out, &v);
}

static gpux_status diag_shape(const struct gpux_array *v, int64_t k, int *nd, int64_t *shape) {
  GPUX__CHECK(gpux__check_array(v, "v"));
  if (v->ndim == 1) {
    int64_t ak = k < 0 ? (k == INT64_MIN ? INT64_MAX : -k) : k;
    if (k == INT64_MIN || !add_ok(v->shape[0], ak, &shape[0])) return overflow("the side n + |k|");
    shape[1] = shape[0];
    *nd = 2;
    int64_t size = 0;
    return gpux__check_shape(2, shape, &size, v->dtype);
  }
  if (v->ndim == 2) {
    struct gpux_array dv = diag_view(v, k, 0, 1);
    shape[0] = dv.shape[0];
    *nd = 1;
    return GPUX_SUCCESS;
  }
  return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "v has %d dimensions (diag takes 1-d or 2-d)",
                         v->ndim);
}

static gpux_status diag_run(struct gpux_array *out, const struct gpux_array *v, int64_t k) {
  if (v->ndim == 2) {
    struct gpux_array dv = diag_view(v, k, 0, 1);
    return gpux__copy_strided(out, &dv);
  }
  GPUX__CHECK(fill_value(out, 0.0));
  struct gpux_array dv = diag_view(out, k, 0, 1);
  return gpux__copy_strided(&dv, v);
}

static gpux_status diag_any(gpux_array_t *outp, struct gpux_array *into, gpux_array_t v,
                            int64_t k) {
  int nd = 0;
  int64_t shape[2];
  GPUX__CHECK(diag_shape(v, k, &nd, shape));
  struct gpux_array *o = NULL;
  const struct gpux_array *ins[1] = {v};
  GPUX__CHECK(make_out(&o, into, v->ctx, v->dtype, nd, shape, 1, ins));
  return done(outp, into, o, diag_run(o, v, k));
}

GPUX_API gpux_status gpux_diag(gpux_array_t *outp, gpux_array_t v, int64_t k) {
  NEW_FORM(diag_any, v, k);
}
GPUX_API gpux_status gpux_diag_into(gpux_array_t out, gpux_array_t v, int64_t k) {
  INTO_FORM(diag_any, v, k);
}

static gpux_status eye_run(struct gpux_array *out, int64_t k) {
  GPUX__CHECK(fill_value(out, 0.0));
  struct gpux_array dv = diag_view(out, k, 0, 1);
  return fill_value(&dv, 1.0);
}

GPUX_API gpux_status gpux_eye(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt, int64_t n,
                              int64_t m, int64_t k) {
  GPUX__API_FN();
  GPUX__CHECK(check_out(out));
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "ctx is NULL");
  GPUX__CHECK(gpux__check_dtype(dt, "dt"));
  if (n < 0) return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "n = %lld is negative", (long long)n);
  const int64_t shape[2] = {n, m < 0 ? n : m};
  struct gpux_array *o = NULL;
  GPUX__CHECK(gpux__array_new(&o, ctx, dt, 2, shape));
  return finish(out, o, eye_run(o, k));
}

GPUX_API gpux_status gpux_eye_into(gpux_array_t out, int64_t k) {
  GPUX__API_FN();
  GPUX__CHECK(gpux__check_array(out, "out"));
  if (out->ndim != 2)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "out has %d dimensions (eye is 2-d)", out->ndim);
  return eye_run(out, k);
}

/* ---------------------------------------------------------------- broadcasting */

/* a broadcast to (nd, shape) as a header; SHAPE_MISMATCH when it does not broadcast */
static gpux_status bcast_view(struct gpux_array *v, const struct gpux_array *a, int nd,
                              const int64_t *shape, const char *what) {
  struct gpux_array t = *a;
  t.ndim = nd;
  for (int d = 0; d < nd; d++) {
    int ia = d - (nd - a->ndim);
    t.shape[d] = shape[d];
    t.strides[d] = ia >= 0 && a->shape[ia] == shape[d] ? a->strides[ia] : 0;
    if (ia >= 0 && a->shape[ia] != shape[d] && a->shape[ia] != 1) {
      char b0[256], b1[256];
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s of shape %s does not broadcast to %s",
                             what, gpux__shape_str(b0, sizeof b0, a->ndim, a->shape),
                             gpux__shape_str(b1, sizeof b1, nd, shape));
    }
  }
  if (a->ndim > nd) {
    char b0[256], b1[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "%s of shape %s has more dimensions than %s", what,
                           gpux__shape_str(b0, sizeof b0, a->ndim, a->shape),
                           gpux__shape_str(b1, sizeof b1, nd, shape));
  }
  fix_size(&t);
  *v = t;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_broadcast_to(gpux_array_t *out, gpux_array_t a, int ndim,
                                       const int64_t *shape) {
  GPUX__API_FN();
  GPUX__CHECK(check_out(out));
  GPUX__CHECK(gpux__check_array(a, "a"));
  int64_t size = 0;
  GPUX__CHECK(gpux__check_shape(ndim, shape, &size, a->dtype));
  struct gpux_array v;
  GPUX__CHECK(bcast_view(&v, a, ndim, shape, "a"));
  return gpux__array_view(out, &v);
}

/* outs[i] = views of heads[i] (n of them), all made or none */
static gpux_status views_all(gpux_array_t *outs, int n, const struct gpux_array *heads) {
  for (int i = 0; i < n; i++) {
    gpux_status s = gpux__array_view(&outs[i], &heads[i]);
    if (s != GPUX_SUCCESS) {
      for (int j = 0; j <= i; j++) {
        gpux_array_release(outs[j]);
        outs[j] = NULL;
      }
      return s;
    }
  }
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_broadcast_arrays(gpux_array_t *outs, int n, const gpux_array_t *arrays) {
  GPUX__API_FN();
  if (!outs) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "outs is NULL");
  for (int i = 0; i < n; i++) outs[i] = NULL;
  GPUX__CHECK(check_list(n, arrays, "arrays", 0));
  int nd = 0;
  int64_t shape[GPUX_MAX_DIMS], size = 0;
  GPUX__CHECK(gpux__broadcast_shapes(n, (const struct gpux_array *const *)arrays, &nd, shape));
  GPUX__CHECK(gpux__check_shape(nd, shape, &size, GPUX_UINT8));
  struct gpux_array *heads = malloc((size_t)n * sizeof *heads);
  if (!heads) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  gpux_status s = GPUX_SUCCESS;
  for (int i = 0; i < n && s == GPUX_SUCCESS; i++)
    s = bcast_view(&heads[i], arrays[i], nd, shape, "an array");
  if (s == GPUX_SUCCESS) s = views_all(outs, n, heads);
  free(heads);
  return s;
}

GPUX_API gpux_status gpux_meshgrid(gpux_array_t *outs, int n, const gpux_array_t *xs,
                                   gpux_meshgrid_indexing indexing) {
  GPUX__API_FN();
  if (!outs) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "outs is NULL");
  for (int i = 0; i < n; i++) outs[i] = NULL;
  GPUX__CHECK(check_list(n, xs, "xs", 0));
  if (n > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "n = %d arrays give more than %d dimensions",
                           n, GPUX_MAX_DIMS);
  if (indexing != GPUX_MESHGRID_XY && indexing != GPUX_MESHGRID_IJ)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "indexing %d is not a gpux_meshgrid_indexing",
                           (int)indexing);
  int64_t shape[GPUX_MAX_DIMS], size = 0;
  int pos[GPUX_MAX_DIMS];
  for (int i = 0; i < n; i++) {
    if (xs[i]->ndim != 1)
      return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "xs[%d] has %d dimensions (meshgrid takes 1-d arrays)",
                             i, xs[i]->ndim);
    pos[i] = indexing == GPUX_MESHGRID_XY && n >= 2 && i < 2 ? 1 - i : i;
    shape[pos[i]] = xs[i]->shape[0];
  }
  GPUX__CHECK(gpux__check_shape(n, shape, &size, GPUX_UINT8));
  struct gpux_array heads[GPUX_MAX_DIMS];
  for (int i = 0; i < n; i++) {
    heads[i] = *xs[i];
    heads[i].ndim = n;
    for (int d = 0; d < n; d++) {
      heads[i].shape[d] = shape[d];
      heads[i].strides[d] = d == pos[i] ? xs[i]->strides[0] : 0;
    }
    fix_size(&heads[i]);
  }
  return views_all(outs, n, heads);
}
