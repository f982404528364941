/* Reductions and scans: validation, axes, layout choice and the chain of passes; backends
 * execute single passes (gpux_backend.h: gpux__reduce_pass, gpux__scan_pass) in the
 * canonical order of kernels/common/gpux_kernels.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../../kernels/common/gpux_half.h" /* float16 / bfloat16 scalar results */

/* ---- kernel-level tables, from the lists of gpux_kernels.h */
#define DT_BIT(unused, dt) | (1u << GPUX_KDT_##dt)
#define KSUP(k, id, list, acc) [id] = 0 list(DT_BIT, _),
#define KACC(k, id, list, acc) [id] = acc,
#define KID(k, id, list, acc) RK_##k = id,
static const unsigned kind_support[GPUX_REDUCE_KIND_COUNT] = {GPUX_REDUCE_KINDS(KSUP)};
static const unsigned char kind_acc[GPUX_REDUCE_KIND_COUNT] = {GPUX_REDUCE_KINDS(KACC)};
static const unsigned scan_support[GPUX_SCAN_KIND_COUNT] = {GPUX_SCAN_KINDS(KSUP)};
enum { GPUX_REDUCE_KINDS(KID) RK_END_ };
#undef DT_BIT
#undef KSUP
#undef KACC
#undef KID

_Static_assert(GPUX_REDUCE_NORM_MAX + 1 == GPUX_REDUCE_OP_COUNT, "reduce op ids");

/* What a public op runs: the first pass's kind, the post op of the last pass, whether it
 * computes in floating point (integer inputs are converted to float64 first), and the value
 * of an empty reduction (has_identity 0: an error). */
typedef struct op_info {
  const char *name;
  int kind, post, float_math, has_identity;
  double empty;
} op_info;

static const op_info op_table[GPUX_REDUCE_OP_COUNT] = {
    [GPUX_REDUCE_SUM] = {"sum", RK_sum, GPUX_POST_NONE, 0, 1, 0.0},
    [GPUX_REDUCE_PROD] = {"prod", RK_prod, GPUX_POST_NONE, 0, 1, 1.0},
    [GPUX_REDUCE_MIN] = {"min", RK_min, GPUX_POST_NONE, 0, 0, 0.0},
    [GPUX_REDUCE_MAX] = {"max", RK_max, GPUX_POST_NONE, 0, 0, 0.0},
    [GPUX_REDUCE_ARGMIN] = {"argmin", RK_argmin, GPUX_POST_NONE, 0, 0, 0.0},
    [GPUX_REDUCE_ARGMAX] = {"argmax", RK_argmax, GPUX_POST_NONE, 0, 0, 0.0},
    [GPUX_REDUCE_ANY] = {"any", RK_any, GPUX_POST_NONE, 0, 1, 0.0},
    [GPUX_REDUCE_ALL] = {"all", RK_all, GPUX_POST_NONE, 0, 1, 1.0},
    [GPUX_REDUCE_COUNT_NONZERO] = {"count_nonzero", RK_cnt, GPUX_POST_NONE, 0, 1, 0.0},
    [GPUX_REDUCE_MEAN] = {"mean", RK_sum, GPUX_POST_DIV, 1, 1, NAN},
    [GPUX_REDUCE_VAR] = {"var", RK_ssd, GPUX_POST_DIV, 1, 1, NAN},
    [GPUX_REDUCE_STD] = {"std", RK_ssd, GPUX_POST_DIV_SQRT, 1, 1, NAN},
    [GPUX_REDUCE_NORM_L1] = {"norm_l1", RK_asum, GPUX_POST_NONE, 1, 1, 0.0},
    [GPUX_REDUCE_NORM_L2] = {"norm_l2", RK_ssq, GPUX_POST_SQRT, 1, 1, 0.0},
    [GPUX_REDUCE_NORM_MAX] = {"norm_max", RK_amax, GPUX_POST_NONE, 1, 0, 0.0},
};

/* Column layout only when a block's 16 columns are mostly real ones; narrower column
 * reductions go through a transposing copy and the row layout. */
#define COL_MIN_INNER 8

static int is_half(gpux_dtype dt) { return dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16; }
static int is_float(gpux_dtype dt) { return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64 || is_half(dt); }
static int is_complex(gpux_dtype dt) { return gpux__dt_is_complex(dt); }
/* the component dtype of a complex dtype */
static gpux_dtype real_dtype(gpux_dtype c) {
  return c == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
}

/* The dtype an input computes in: float16 and bfloat16 in float32 (gpux_kernels.h). */
static gpux_dtype comp_dtype(gpux_dtype in) { return is_half(in) ? GPUX_FLOAT32 : in; }

/* Sums and products: floats in their own dtype, integers and bool in int64, uint64 in
 * uint64 (gpux_kernels.h, GPUX_RACC_WIDE). */
static gpux_dtype wide_dtype(gpux_dtype c) {
  return is_float(c) || is_complex(c) ? c : c == GPUX_UINT64 ? GPUX_UINT64 : GPUX_INT64;
}

/* The dtype a kernel of `kind` writes for input dtype `in`. */
static gpux_dtype acc_dtype(int kind, gpux_dtype in) {
  gpux_dtype c = comp_dtype(in);
  switch (kind_acc[kind]) {
    case GPUX_RACC_WIDE: return wide_dtype(c);
    case GPUX_RACC_BOOL: return GPUX_BOOL;
    case GPUX_RACC_I64: return GPUX_INT64;
    /* the only complex kind of this class is ssd: a real sum of |x - m|^2 */
    default: return is_complex(c) ? real_dtype(c) : c;
  }
}

/* The public result of `kind` on `in`: the kernel's, rounded back to a half input's dtype. */
static gpux_dtype public_dtype(int kind, gpux_dtype in) {
  gpux_dtype k = acc_dtype(kind, in);
  return is_half(in) && k == GPUX_FLOAT32 ? in : k;
}

/* The kind that combines the partial results of a pass of `kind`. */
static int next_kind(int kind) {
  switch (kind) {
    case RK_argmin: return RK_argmin_p;
    case RK_argmax: return RK_argmax_p;
    case RK_cnt: case RK_asum: case RK_ssq: case RK_ssd: return RK_sum;
    case RK_amax: return RK_max;
    default: return kind;
  }
}

static int is_arg(int kind) {
  return kind == RK_argmin || kind == RK_argmax || kind == RK_argmin_p || kind == RK_argmax_p;
}

GPUX_API const char *gpux_reduce_op_name(gpux_reduce_op op) {
  return (unsigned)op < GPUX_REDUCE_OP_COUNT ? op_table[op].name : NULL;
}

static gpux_status result_dtype(gpux_dtype *out, gpux_reduce_op op, gpux_dtype dt) {
  if ((unsigned)op >= GPUX_REDUCE_OP_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_OP, "unknown reduction op %d", (int)op);
  GPUX__CHECK(gpux__check_dtype(dt, "dtype"));
  const op_info *oi = &op_table[op];
  if (is_complex(dt)) {
    /* complex numbers have no order (min, max, argmin, argmax, norm_max), and the norms
     * are left out; sum, prod, mean keep the dtype, var / std are real (NumPy) */
    if (!(kind_support[oi->kind] >> dt & 1u) || op == GPUX_REDUCE_NORM_L1 ||
        op == GPUX_REDUCE_NORM_L2)
      return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                             "%s is not defined for %s (%s; take the real part, the imaginary "
                             "part or the magnitude first)", oi->name, gpux_dtype_name(dt),
                             oi->float_math ? "the norms take real inputs"
                                            : "complex numbers have no order");
    *out = oi->kind == RK_ssd ? real_dtype(dt) : public_dtype(oi->kind, dt);
    return GPUX_SUCCESS;
  }
  if (oi->float_math) {
    if (dt == GPUX_BOOL)
      return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s is not defined for bool (cast first)",
                             oi->name);
    /* integers compute in float64; float16 / bfloat16 in float32, rounded back */
    *out = is_float(dt) ? dt : GPUX_FLOAT64;
    return GPUX_SUCCESS;
  }
  if (!(kind_support[oi->kind] >> dt & 1u))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "%s is not defined for %s (use count_nonzero, any or all, or cast first)",
                           oi->name, gpux_dtype_name(dt));
  *out = (op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX) ? GPUX_INT64 : public_dtype(oi->kind, dt);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_reduce_result_dtype(gpux_dtype *out, gpux_reduce_op op, gpux_dtype dt) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_reduce_result_dtype: out is NULL");
  return result_dtype(out, op, dt);
}

/* ---- axes and shapes */

typedef struct red_plan {
  int red[GPUX_MAX_DIMS]; /* 1 for each reduced axis of a */
  int out_ndim;
  int64_t out_shape[GPUX_MAX_DIMS];
  int64_t n_red, n_out;
} red_plan;

static gpux_status plan_axes(red_plan *p, const struct gpux_array *a, gpux_reduce_op op,
                             const int *axes, int naxes, int keepdims, const char *fn) {
  memset(p, 0, sizeof *p);
  int arg = op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX;
  if (naxes == GPUX_ALL_AXES) {
    for (int d = 0; d < a->ndim; d++) p->red[d] = 1;
  } else {
    if (naxes < 0 || naxes > GPUX_MAX_DIMS)
      return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: naxes = %d (0..%d, or GPUX_ALL_AXES)", fn,
                             naxes, GPUX_MAX_DIMS);
    if (naxes > 0 && !axes) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: axes is NULL", fn);
    if (arg && naxes != 1)
      return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: %s takes one axis or GPUX_ALL_AXES, not %d axes",
                             fn, op_table[op].name, naxes);
    for (int k = 0; k < naxes; k++) {
      int ax = axes[k];
      /* as NumPy's reductions: a 0-d array has no axis 0 (GPUX_ALL_AXES or no axes reduce it) */
      if (ax < -a->ndim || ax >= a->ndim)
        return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: axis %d is out of range for %d dimensions",
                               fn, ax, a->ndim);
      if (ax < 0) ax += a->ndim;
      if (p->red[ax])
        return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: axis %d is repeated", fn, axes[k]);
      p->red[ax] = 1;
    }
  }
  p->n_red = 1;
  p->n_out = 1;
  for (int d = 0; d < a->ndim; d++) {
    if (p->red[d]) {
      p->n_red *= a->shape[d];
      if (keepdims) p->out_shape[p->out_ndim++] = 1;
    } else {
      p->n_out *= a->shape[d];
      p->out_shape[p->out_ndim++] = a->shape[d];
    }
  }
  return GPUX_SUCCESS;
}

/* ---- passes */

typedef struct tmp_block {
  gpux__block blk;
  int live;
} tmp_block;

/* scratch of the current stream's passes: only that stream uses it */
static gpux_status tmp_alloc(struct gpux_context *ctx, tmp_block *t, int64_t n, gpux_dtype dt) {
  GPUX__CHECK(gpux__pool_alloc(ctx, gpux__stream_cur(ctx), (size_t)n * gpux_dtype_size(dt),
                               &t->blk));
  t->live = 1;
  return GPUX_SUCCESS;
}

static void tmp_free(struct gpux_context *ctx, tmp_block *t) {
  if (t->live) gpux__pool_free(ctx, t->blk, t->blk.home, 0);
  t->live = 0;
}

/* an array operand of work queued on the calling thread's current stream */
#define OPND(a) gpux__operand_on(gpux__stream_cur((a)->ctx), (a))

static gpux__operand opnd(void *buf, int64_t offset, gpux_dtype dt) {
  gpux__operand o = {buf, offset, (int)dt};
  return o;
}

/* Reduces in ([outer][len][inner], dtype dt) with `kind` in passes until one value per output
 * remains in out (and out_idx for argmin/argmax), applying post in the last pass. */
static gpux_status run_passes(struct gpux_context *ctx, int kind, gpux_dtype dt, int layout,
                              int64_t outer, int64_t len, int64_t inner, gpux__operand in,
                              gpux__operand aux, int post, double post_div, gpux__operand out,
                              gpux__operand out_idx) {
  tmp_block prev[2] = {{{0}, 0}, {{0}, 0}}, cur[2] = {{{0}, 0}, {{0}, 0}};
  gpux__operand in_idx = opnd(NULL, 0, GPUX_INT64);
  gpux_status s = GPUX_SUCCESS;
  for (;;) {
    int64_t nparts = (len + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK;
    gpux__reduce_pass p;
    memset(&p, 0, sizeof p);
    p.kind = kind;
    p.dtype = (int)dt;
    p.layout = layout;
    p.outer = outer;
    p.len = len;
    p.inner = inner;
    p.in = in;
    p.in_idx = in_idx;
    p.aux = aux;
    gpux_dtype acc = acc_dtype(kind, dt);
    if (nparts == 1) {
      p.post = post;
      p.post_div = post_div;
      p.out = out;
      p.out_idx = out_idx;
    } else {
      int64_t n = outer * nparts * inner;
      s = tmp_alloc(ctx, &cur[0], n, acc);
      if (s == GPUX_SUCCESS && is_arg(kind)) s = tmp_alloc(ctx, &cur[1], n, GPUX_INT64);
      if (s != GPUX_SUCCESS) break;
      p.out = opnd(cur[0].blk.buf, 0, acc);
      p.out_idx = opnd(cur[1].live ? cur[1].blk.buf : NULL, 0, GPUX_INT64);
    }
    s = ctx->be->reduce(gpux__q(ctx), &p);
    /* the queue is in order: a block freed here is reused only by later work */
    tmp_free(ctx, &prev[0]);
    tmp_free(ctx, &prev[1]);
    if (s != GPUX_SUCCESS || nparts == 1) break;
    in = p.out;
    in_idx = p.out_idx;
    prev[0] = cur[0];
    prev[1] = cur[1];
    cur[0].live = cur[1].live = 0;
    kind = next_kind(kind);
    dt = acc;
    len = nparts;
    aux = opnd(NULL, 0, dt);
  }
  tmp_free(ctx, &prev[0]);
  tmp_free(ctx, &prev[1]);
  tmp_free(ctx, &cur[0]);
  tmp_free(ctx, &cur[1]);
  return s;
}

/* The input as [outer][len][inner] (layout COL) or [outer][len] (ROW): size-1 dims dropped,
 * neighbours of the same role merged when memory allows. When no such view exists, a
 * contiguous copy with the kept axes first is made (*copy, released by the caller). */
typedef struct red_shape {
  int layout;
  int64_t outer, len, inner;
  gpux__operand in;
} red_shape;

static gpux_status shape_input(red_shape *rs, struct gpux_array **copy, const struct gpux_array *a,
                               const int *red) {
  int n = 0, role[GPUX_MAX_DIMS];
  int64_t size[GPUX_MAX_DIMS], stride[GPUX_MAX_DIMS];
  *copy = NULL;
  for (int d = 0; d < a->ndim; d++) {
    if (a->shape[d] == 1) continue;
    if (n && role[n - 1] == red[d] && stride[n - 1] == a->strides[d] * a->shape[d]) {
      size[n - 1] *= a->shape[d];
      stride[n - 1] = a->strides[d];
      continue;
    }
    role[n] = red[d];
    size[n] = a->shape[d];
    stride[n] = a->strides[d];
    n++;
  }
  /* contiguous after merging: every stride is the product of the sizes after it */
  int contiguous = 1;
  int64_t want = 1;
  for (int d = n - 1; d >= 0; d--) {
    contiguous &= stride[d] == want;
    want *= size[d];
  }
  rs->in = OPND(a);
  rs->outer = rs->len = rs->inner = 1;
  rs->layout = GPUX_RL_ROW;
  if (contiguous) {
    if (n == 0) return GPUX_SUCCESS;
    if (n == 1) {
      *(role[0] ? &rs->len : &rs->outer) = size[0];
      return GPUX_SUCCESS;
    }
    if (n == 2 && !role[0] && role[1]) {
      rs->outer = size[0];
      rs->len = size[1];
      return GPUX_SUCCESS;
    }
    int col3 = n == 3 && !role[0] && role[1] && !role[2];
    int col2 = n == 2 && role[0] && !role[1];
    if ((col2 || col3) && size[n - 1] >= COL_MIN_INNER) {
      rs->layout = GPUX_RL_COL;
      rs->outer = col3 ? size[0] : 1;
      rs->len = size[n - 2];
      rs->inner = size[n - 1];
      return GPUX_SUCCESS;
    }
  }
  /* a copy with the kept dims first, then the reduced ones, each group in axis order */
  struct gpux_array v = *a;
  int k = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int d = 0; d < n; d++)
      if (role[d] == pass) {
        v.shape[k] = size[d];
        v.strides[k] = stride[d];
        k++;
      }
  v.ndim = k;
  GPUX__CHECK(gpux__contiguous_copy(copy, &v));
  rs->in = OPND(*copy);
  for (int d = 0; d < n; d++) *(role[d] ? &rs->len : &rs->outer) *= size[d];
  return GPUX_SUCCESS;
}

/* Checks out against the result of op on a over the plan; NULL out skips the checks. */
static gpux_status check_into(const struct gpux_array *out, const struct gpux_array *a,
                              const red_plan *p, gpux_dtype want, const char *fn) {
  if (out->ctx != a->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
  if (out->dtype != want)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: output is %s, the result is %s", fn,
                           gpux_dtype_name(out->dtype), gpux_dtype_name(want));
  if (out->ndim != p->out_ndim ||
      memcmp(out->shape, p->out_shape, (size_t)p->out_ndim * sizeof p->out_shape[0]) != 0) {
    char x[256], y[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: output shape %s, the result's shape is %s", fn,
                           gpux__shape_str(x, sizeof x, out->ndim, out->shape),
                           gpux__shape_str(y, sizeof y, p->out_ndim, p->out_shape));
  }
  if (gpux__overlaps(out, a))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: the output overlaps the input", fn);
  return GPUX_SUCCESS;
}

static gpux_status fill_value(struct gpux_array *out, double v) {
  struct gpux_context *ctx = out->ctx;
  struct gpux_array *t;
  GPUX__CHECK(gpux__array_new(&t, ctx, out->dtype, 0, NULL));
  gpux__launch l;
  memset(&l, 0, sizeof l);
  l.layout = GPUX_LAYOUT_C;
  l.n = 1;
  l.opnd[0] = OPND(t);
  /* complex: (v, 0); a mean of nothing is NaN in both parts (NumPy: 0j / 0) */
  l.scalar = gpux__scalar_from_parts(v, isnan(v) ? v : 0.0, out->dtype);
  gpux_status s = ctx->be->fill(gpux__q(ctx), &l);
  if (s == GPUX_SUCCESS) s = gpux__copy_strided(out, t); /* broadcasts */
  gpux_array_release(t);
  return s;
}

/* The whole of a reduction into out (already checked). */
static gpux_status reduce_into(struct gpux_array *out, gpux_reduce_op op, const struct gpux_array *a,
                               const red_plan *p, int64_t ddof) {
  struct gpux_context *ctx = a->ctx;
  const op_info *oi = &op_table[op];
  /* nothing to reduce and no identity fails even when there is no output, as in NumPy */
  if (p->n_red == 0 && !oi->has_identity)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "%s of an empty sequence: %s has no identity (zero-size reduction)",
                           oi->name, oi->name);
  if (p->n_out == 0) return GPUX_SUCCESS;
  if (p->n_red == 0) return fill_value(out, oi->empty);
  GPUX__NEED(ctx, GPUX__Q_REDUCE, op, a->dtype, -1);

  gpux_status s = GPUX_SUCCESS;
  struct gpux_array *conv = NULL, *copy = NULL, *res = NULL, *mean = NULL;
  tmp_block vals = {{0}, 0};
  const struct gpux_array *src = a;
  if (oi->float_math && !is_float(a->dtype) && !is_complex(a->dtype)) {
    s = gpux_array_cast(&conv, (gpux_array_t)a, GPUX_FLOAT64);
    if (s != GPUX_SUCCESS) goto done;
    src = conv;
  }
  red_shape rs;
  s = shape_input(&rs, &copy, src, p->red);
  if (s != GPUX_SUCCESS) goto done;

  /* The final pass writes into out when it is contiguous and of the kernel's dtype, else
   * into res, copied after (or cast: a float32 result of a half input is rounded once). */
  int arg = is_arg(oi->kind);
  gpux_dtype kdt = arg ? GPUX_INT64 : acc_dtype(oi->kind, src->dtype);
  gpux_dtype cdt = comp_dtype(src->dtype); /* of the argmin/argmax values and the means */
  struct gpux_array *dst = out;
  if (!gpux__is_contiguous(out) || out->dtype != kdt) {
    s = gpux__array_new(&res, ctx, kdt, out->ndim, out->shape);
    if (s != GPUX_SUCCESS) goto done;
    dst = res;
  }
  gpux__operand o_val = OPND(dst), o_idx = opnd(NULL, 0, GPUX_INT64);
  if (arg) {
    /* argmin/argmax: the values of the last pass are dropped */
    o_idx = o_val;
    s = tmp_alloc(ctx, &vals, p->n_out, cdt);
    if (s != GPUX_SUCCESS) goto done;
    o_val = opnd(vals.blk.buf, 0, cdt);
  }
  gpux__operand aux = opnd(NULL, 0, cdt);
  double n = (double)p->n_red;
  if (oi->kind == RK_ssd) {
    /* two passes over the data, as NumPy: the mean, then the squared deviations */
    s = gpux__array_new(&mean, ctx, cdt, 1, &p->n_out);
    if (s != GPUX_SUCCESS) goto done;
    aux = OPND(mean);
    s = run_passes(ctx, RK_sum, src->dtype, rs.layout, rs.outer, rs.len, rs.inner, rs.in,
                   opnd(NULL, 0, cdt), GPUX_POST_DIV, n, aux, opnd(NULL, 0, GPUX_INT64));
    if (s != GPUX_SUCCESS) goto done;
    n = (double)p->n_red - (double)ddof;
    if (n < 0) n = 0;
  }
  s = run_passes(ctx, oi->kind, src->dtype, rs.layout, rs.outer, rs.len, rs.inner, rs.in, aux,
                 oi->post, n, o_val, o_idx);
  if (s == GPUX_SUCCESS && res)
    s = res->dtype == out->dtype ? gpux__copy_strided(out, res) : gpux_array_cast_into(out, res);
done:
  tmp_free(ctx, &vals);
  gpux_array_release(mean);
  gpux_array_release(res);
  gpux_array_release(copy);
  gpux_array_release(conv);
  return s;
}

#define NEED(x, what) \
  if (!(x)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what)

static gpux_status reduce_common(gpux_array_t *outp, gpux_array_t out, gpux_reduce_op op,
                                 gpux_array_t a, const int *axes, int naxes, int keepdims,
                                 int64_t ddof, const char *fn) {
  if (outp)
    *outp = NULL;
  else
    NEED(out, "out");
  NEED(a, "a");
  gpux_dtype rdt = GPUX_FLOAT64;
  GPUX__CHECK(result_dtype(&rdt, op, a->dtype));
  if (ddof < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: ddof = %lld is negative", fn, (long long)ddof);
  red_plan p;
  GPUX__CHECK(plan_axes(&p, a, op, axes, naxes, keepdims, fn));
  if (outp) {
    GPUX__CHECK(gpux__array_new(&out, a->ctx, rdt, p.out_ndim, p.out_shape));
  } else {
    GPUX__CHECK(check_into(out, a, &p, rdt, fn));
  }
  gpux_status s = reduce_into(out, op, a, &p, ddof);
  if (outp) {
    if (s == GPUX_SUCCESS)
      *outp = out;
    else
      gpux_array_release(out);
  }
  return s;
}

GPUX_API gpux_status gpux_reduce(gpux_array_t *out, gpux_reduce_op op, gpux_array_t a,
                                 const int *axes, int naxes, int keepdims) {
  GPUX__API_FN();
  const char *fn = "gpux_reduce";
  NEED(out, "out");
  return reduce_common(out, NULL, op, a, axes, naxes, keepdims, 0, fn);
}

GPUX_API gpux_status gpux_reduce_into(gpux_array_t out, gpux_reduce_op op, gpux_array_t a,
                                      const int *axes, int naxes, int keepdims) {
  GPUX__API_FN();
  return reduce_common(NULL, out, op, a, axes, naxes, keepdims, 0, "gpux_reduce_into");
}

GPUX_API gpux_status gpux_var(gpux_array_t *out, gpux_array_t a, const int *axes, int naxes,
                              int64_t ddof, int keepdims) {
  GPUX__API_FN();
  const char *fn = "gpux_var";
  NEED(out, "out");
  return reduce_common(out, NULL, GPUX_REDUCE_VAR, a, axes, naxes, keepdims, ddof, fn);
}

GPUX_API gpux_status gpux_var_into(gpux_array_t out, gpux_array_t a, const int *axes,
                                   int naxes, int64_t ddof, int keepdims) {
  GPUX__API_FN();
  return reduce_common(NULL, out, GPUX_REDUCE_VAR, a, axes, naxes, keepdims, ddof, "gpux_var_into");
}

GPUX_API gpux_status gpux_std(gpux_array_t *out, gpux_array_t a, const int *axes, int naxes,
                              int64_t ddof, int keepdims) {
  GPUX__API_FN();
  const char *fn = "gpux_std";
  NEED(out, "out");
  return reduce_common(out, NULL, GPUX_REDUCE_STD, a, axes, naxes, keepdims, ddof, fn);
}

GPUX_API gpux_status gpux_std_into(gpux_array_t out, gpux_array_t a, const int *axes,
                                   int naxes, int64_t ddof, int keepdims) {
  GPUX__API_FN();
  return reduce_common(NULL, out, GPUX_REDUCE_STD, a, axes, naxes, keepdims, ddof, "gpux_std_into");
}

/* ---- results on the host */

/* integer and bool results (min/max keep the input dtype): gpux__int_load */
typedef union host_value {
  float f32;
  double f64;
  uint16_t u16; /* float16, bfloat16 */
  gpux_complex64 c64;
  gpux_complex128 c128;
} host_value;

/* A float result as double. */
static double host_float(const host_value *v, gpux_dtype dt) {
  if (dt == GPUX_FLOAT64) return v->f64;
  float f = v->f32;
  if (is_half(dt)) {
    uint32_t b = dt == GPUX_FLOAT16 ? gpux_f16_to_f32(v->u16) : gpux_bf16_to_f32(v->u16);
    memcpy(&f, &b, sizeof f);
  }
  return f;
}

static int is_signed(gpux_dtype dt) { return gpux__dt_info[dt].kind == 'i'; }

static gpux_status scalar_of(host_value *v, gpux_dtype *dt, gpux_reduce_op op, gpux_array_t a,
                             int64_t ddof, const char *fn) {
  NEED(a, "a");
  struct gpux_context *ctx = a->ctx;
  void *buf = NULL, *host = NULL;
  if (ctx->be->host_result && a->size > 0 && ddof >= 0) {
    GPUX__CHECK(result_dtype(dt, op, a->dtype));
    if (ctx->be->host_result(gpux__q(ctx), sizeof *v, &buf, &host) != GPUX_SUCCESS) {
      gpux_clear_error(); /* no mapped memory: download instead */
      buf = NULL;
    }
  }
  if (buf) {
    /* the last pass writes into host memory the device maps: no copy back */
    red_plan p;
    GPUX__CHECK(plan_axes(&p, a, op, NULL, GPUX_ALL_AXES, 0, fn));
    gpux__storage st = {.blk = {buf, sizeof *v}, .refs = 1};
    struct gpux_array out;
    memset(&out, 0, sizeof out);
    out.ctx = ctx;
    out.st = &st;
    /* a half result: its float32 value, rounded here as the cast kernel rounds */
    out.dtype = is_half(*dt) ? GPUX_FLOAT32 : *dt;
    out.size = 1;
    GPUX__CHECK(reduce_into(&out, op, a, &p, ddof));
    GPUX__CHECK(ctx->be->synchronize(gpux__q(ctx)));
    GPUX__CHECK(gpux__deferred_check(gpux__stream_cur(ctx))); /* checked indexing's error */
    memcpy(v, host, gpux_dtype_size(out.dtype));
    if (is_half(*dt)) {
      uint32_t b;
      memcpy(&b, &v->f32, sizeof b);
      v->u16 = *dt == GPUX_FLOAT16 ? gpux_f32_to_f16(b) : gpux_f32_to_bf16(b);
    }
    return GPUX_SUCCESS;
  }
  struct gpux_array *r = NULL;
  GPUX__CHECK(reduce_common(&r, NULL, op, a, NULL, GPUX_ALL_AXES, 0, ddof, fn));
  *dt = r->dtype;
  gpux_status s = gpux_array_read(r, v, gpux_dtype_size(r->dtype));
  gpux_array_release(r);
  return s;
}

GPUX_API gpux_status gpux_reduce_scalar(double *value, gpux_reduce_op op, gpux_array_t a) {
  GPUX__API_FN();
  const char *fn = "gpux_reduce_scalar";
  NEED(value, "value");
  host_value v;
  gpux_dtype dt = GPUX_FLOAT64;
  if (a && is_complex(a->dtype) &&
      (op == GPUX_REDUCE_SUM || op == GPUX_REDUCE_PROD || op == GPUX_REDUCE_MEAN))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "%s: %s of %s is complex (use gpux_reduce_scalar_complex)", fn,
                           op_table[op].name, gpux_dtype_name(a->dtype));
  GPUX__CHECK(scalar_of(&v, &dt, op, a, 0, fn));
  const uint64_t b = is_float(dt) ? 0 : gpux__int_load(&v, dt);
  *value = is_float(dt) ? host_float(&v, dt) : is_signed(dt) ? (double)(int64_t)b : (double)b;
  return GPUX_SUCCESS;
}

/* An integer or bool result for the _i64 / _u64 forms: an error for float results and for
 * values outside the form's type (never a silent change of value). */
static gpux_status int_scalar(uint64_t *bits, int want_signed, gpux_reduce_op op, gpux_array_t a,
                              const char *fn) {
  NEED(a, "a");
  gpux_dtype rdt = GPUX_FLOAT64;
  GPUX__CHECK(result_dtype(&rdt, op, a->dtype));
  if (is_float(rdt) || is_complex(rdt))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s: %s of %s gives %s (use gpux_reduce_scalar%s)",
                           fn, op_table[op].name, gpux_dtype_name(a->dtype), gpux_dtype_name(rdt),
                           is_complex(rdt) ? "_complex" : "");
  host_value v;
  gpux_dtype dt = GPUX_FLOAT64;
  GPUX__CHECK(scalar_of(&v, &dt, op, a, 0, fn));
  *bits = gpux__int_load(&v, dt);
  if (want_signed && !is_signed(dt) && *bits > (uint64_t)INT64_MAX)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: the %s result %llu is beyond int64 "
                           "(use gpux_reduce_scalar_u64)", fn, gpux_dtype_name(dt),
                           (unsigned long long)*bits);
  if (!want_signed && is_signed(dt) && (int64_t)*bits < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: the %s result %lld is negative "
                           "(use gpux_reduce_scalar_i64)", fn, gpux_dtype_name(dt),
                           (long long)(int64_t)*bits);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_reduce_scalar_i64(int64_t *value, gpux_reduce_op op, gpux_array_t a) {
  GPUX__API_FN();
  const char *fn = "gpux_reduce_scalar_i64";
  NEED(value, "value");
  uint64_t b = 0;
  GPUX__CHECK(int_scalar(&b, 1, op, a, fn));
  *value = (int64_t)b;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_reduce_scalar_u64(uint64_t *value, gpux_reduce_op op, gpux_array_t a) {
  GPUX__API_FN();
  const char *fn = "gpux_reduce_scalar_u64";
  NEED(value, "value");
  uint64_t b = 0;
  GPUX__CHECK(int_scalar(&b, 0, op, a, fn));
  *value = b;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_reduce_scalar_complex(gpux_complex128 *value, gpux_reduce_op op,
                                                gpux_array_t a) {
  GPUX__API_FN();
  const char *fn = "gpux_reduce_scalar_complex";
  NEED(value, "value");
  host_value v;
  gpux_dtype dt = GPUX_FLOAT64;
  GPUX__CHECK(scalar_of(&v, &dt, op, a, 0, fn));
  if (dt == GPUX_COMPLEX64) {
    *value = gpux_complex128_make(v.c64.re, v.c64.im);
  } else if (dt == GPUX_COMPLEX128) {
    *value = v.c128;
  } else { /* a real result: (value, 0), as gpux_reduce_scalar gives it */
    const uint64_t b = is_float(dt) ? 0 : gpux__int_load(&v, dt);
    const double d = is_float(dt) ? host_float(&v, dt) : is_signed(dt) ? (double)(int64_t)b : (double)b;
    *value = gpux_complex128_make(d, 0.0);
  }
  return GPUX_SUCCESS;
}

static gpux_status moment_scalar(double *value, gpux_reduce_op op, gpux_array_t a, int64_t ddof,
                                 const char *fn) {
  NEED(value, "value");
  host_value v;
  gpux_dtype dt = GPUX_FLOAT64;
  GPUX__CHECK(scalar_of(&v, &dt, op, a, ddof, fn));
  *value = host_float(&v, dt);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_var_scalar(double *value, gpux_array_t a, int64_t ddof) {
  GPUX__API_FN();
  return moment_scalar(value, GPUX_REDUCE_VAR, a, ddof, "gpux_var_scalar");
}

GPUX_API gpux_status gpux_std_scalar(double *value, gpux_array_t a, int64_t ddof) {
  GPUX__API_FN();
  return moment_scalar(value, GPUX_REDUCE_STD, a, ddof, "gpux_std_scalar");
}

/* ---- scans */

/* The dtype a scan's kernel reads: bool arrays hold 0 or 1 in one byte, so their scans are
 * uint8's (no kernel of their own) */
static gpux_dtype scan_kdt(gpux_dtype dt) { return dt == GPUX_BOOL ? GPUX_UINT8 : dt; }

static gpux_status scan_check(gpux_scan_op op, const struct gpux_array *a, int *axis,
                              gpux_dtype *rdt, const char *fn) {
  if ((unsigned)op >= GPUX_SCAN_KIND_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_OP, "%s: unknown scan op %d", fn, (int)op);
  /* bool scans as uint8: the same bytes (0 or 1), and int64 out, as NumPy's cumsum and
   * cumprod of bool */
  if (!(scan_support[op] >> scan_kdt(a->dtype) & 1u))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s: %s is not defined for %s (cast it first)", fn,
                           op == GPUX_SCAN_SUM ? "cumsum" : "cumprod", gpux_dtype_name(a->dtype));
  int nd = a->ndim ? a->ndim : 1;
  if (*axis < -nd || *axis >= nd)
    return gpux__set_error(GPUX_ERROR_INVALID_AXIS, "%s: axis %d is out of range for %d dimensions", fn,
                           *axis, a->ndim);
  if (*axis < 0) *axis += nd;
  *rdt = wide_dtype(a->dtype);
  return GPUX_SUCCESS;
}

static gpux_status scan_into(struct gpux_array *out, gpux_scan_op op, const struct gpux_array *a,
                             int axis, int exclusive) {
  struct gpux_context *ctx = a->ctx;
  if (a->size == 0) return GPUX_SUCCESS;
  GPUX__NEED(ctx, GPUX__Q_SCAN, op, scan_kdt(a->dtype), -1);
  int64_t len = a->ndim ? a->shape[axis] : 1;
  struct gpux_array av = gpux__axis_last_view(a, axis), ov = gpux__axis_last_view(out, axis);
  struct gpux_array *in_copy = NULL, *res = NULL;
  gpux_status s = GPUX_SUCCESS;
  const struct gpux_array *src = &av;
  if (!gpux__is_contiguous(&av)) {
    s = gpux__array_new(&in_copy, ctx, a->dtype, av.ndim, av.shape);
    if (s == GPUX_SUCCESS) s = gpux__copy_strided(in_copy, &av);
    if (s != GPUX_SUCCESS) goto done;
    src = in_copy;
  }
  struct gpux_array *dst = &ov;
  if (!gpux__is_contiguous(&ov) || gpux__overlaps(out, a)) {
    s = gpux__array_new(&res, ctx, out->dtype, ov.ndim, ov.shape);
    if (s != GPUX_SUCCESS) goto done;
    dst = res;
  }
  gpux__scan_pass p;
  memset(&p, 0, sizeof p);
  p.kind = (int)op;
  p.dtype = (int)scan_kdt(a->dtype);
  p.exclusive = exclusive != 0;
  p.rows = a->size / len;
  p.len = len;
  p.in = OPND(src);
  p.out = OPND(dst);
  s = ctx->be->scan(gpux__q(ctx), &p);
  if (s == GPUX_SUCCESS && dst != &ov) s = gpux__copy_strided(&ov, dst);
done:
  gpux_array_release(res);
  gpux_array_release(in_copy);
  return s;
}

GPUX_API gpux_status gpux_scan_into(gpux_array_t out, gpux_scan_op op, gpux_array_t a, int axis,
                                    int exclusive) {
  GPUX__API_FN();
  const char *fn = "gpux_scan_into";
  NEED(out, "out");
  NEED(a, "a");
  gpux_dtype rdt = GPUX_FLOAT64;
  GPUX__CHECK(scan_check(op, a, &axis, &rdt, fn));
  if (out->ctx != a->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
  if (out->dtype != rdt)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: output is %s, the result is %s", fn,
                           gpux_dtype_name(out->dtype), gpux_dtype_name(rdt));
  if (out->ndim != a->ndim || memcmp(out->shape, a->shape, (size_t)a->ndim * sizeof a->shape[0]) != 0) {
    char x[256], y[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: output shape %s, the input's shape is %s", fn,
                           gpux__shape_str(x, sizeof x, out->ndim, out->shape),
                           gpux__shape_str(y, sizeof y, a->ndim, a->shape));
  }
  if (gpux__partial_overlap(out, a))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: the output partially overlaps the input", fn);
  return scan_into(out, op, a, axis, exclusive);
}

GPUX_API gpux_status gpux_scan(gpux_array_t *out, gpux_scan_op op, gpux_array_t a, int axis,
                               int exclusive) {
  GPUX__API_FN();
  const char *fn = "gpux_scan";
  NEED(out, "out");
  *out = NULL;
  NEED(a, "a");
  gpux_dtype rdt = GPUX_FLOAT64;
  GPUX__CHECK(scan_check(op, a, &axis, &rdt, fn));
  GPUX__CHECK(gpux__array_new(out, a->ctx, rdt, a->ndim, a->shape));
  gpux_status s = scan_into(*out, op, a, axis, exclusive);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}
