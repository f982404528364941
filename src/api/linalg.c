/* Matrix products: validation, NumPy's matmul shapes, batch planning and the path choice;
 * backends execute gpux__gemm (a strided batch of row-major products). */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* One operand, op(X) as a stack of matrices read from an array: the axes giving its rows and
 * columns (-1: a dimension of 1 that matmul adds to a 1-d operand), and per batch dimension
 * of the problem the array's axis (-1: absent, i.e. broadcast). Built from axes rather than
 * strides so that the same recipe reads a contiguous copy of the array. */
typedef struct mat {
  const struct gpux_array *arr;
  int row_axis, col_axis;
  int conj; /* complex: the matrix's values are conjugated as they are read (GPUX_CONJ_TRANS) */
  int batch_axis[GPUX_MAX_DIMS];
} mat;

/* A scalar of a product: (re, im); im is 0 for real dtypes. */
typedef struct cscal {
  double re, im;
} cscal;
static cscal cs(double re, double im) {
  cscal v = {re, im};
  return v;
}

/* C = alpha * A @ B + beta * C over bshape; A is m x k, B k x n, C m x n (per batch). */
typedef struct problem {
  int nb;
  int64_t bshape[GPUX_MAX_DIMS];
  int64_t m, n, k;
  mat a, b, c;
} problem;

static int64_t dim_of(const mat *x, int axis) { return axis < 0 ? 1 : x->arr->shape[axis]; }
static int64_t stride_of(const mat *x, int axis) { return axis < 0 ? 0 : x->arr->strides[axis]; }
static int64_t bstride(const mat *x, int d) {
  const int ax = x->batch_axis[d];
  return ax < 0 || x->arr->shape[ax] == 1 ? 0 : x->arr->strides[ax];
}
static void mat_transpose(mat *x) {
  const int t = x->row_axis;
  x->row_axis = x->col_axis;
  x->col_axis = t;
}

/* How the backend can read one matrix of x: unit column stride and ld >= cols (trans 0), or
 * unit row stride and ld >= rows (trans 1). Strides of dimensions of size 0 or 1 are free.
 * Returns 0 when neither fits: the caller reads a contiguous copy instead. */
static int storage_of(const mat *x, int *trans, int64_t *ld) {
  const int64_t r = dim_of(x, x->row_axis), c = dim_of(x, x->col_axis);
  const int64_t sr = stride_of(x, x->row_axis), sc = stride_of(x, x->col_axis);
  const int64_t r1 = r > 1 ? r : 1, c1 = c > 1 ? c : 1;
  if ((c <= 1 || sc == 1) && (r <= 1 || sr >= c1)) {
    *trans = 0;
    *ld = r <= 1 ? c1 : sr;
    return 1;
  }
  if ((r <= 1 || sr == 1) && (c <= 1 || sc >= r1)) {
    *trans = 1;
    *ld = c <= 1 ? r1 : sc;
    return 1;
  }
  return 0;
}

/* the dtypes some backend multiplies (gpux_kernels.h's GEMM lists) */
#define GEMM_DT_ID(unused, dt) GPUX_KDT_##dt,
static const int gemm_dtypes[] = {GPUX_GEMM_DT(GEMM_DT_ID, _) GPUX_GEMM_DT_HALF(GEMM_DT_ID, _)
                                      GPUX_GEMM_DT_COMPLEX(GEMM_DT_ID, _)};
#undef GEMM_DT_ID
#define N_GEMM_DTYPES ((int)(sizeof gemm_dtypes / sizeof gemm_dtypes[0]))

/* 1 when ctx multiplies dt on some path (the native one first: asking for the vendor path
 * may load its library) */
static int gemm_dtype_ok(const struct gpux_context *ctx, int dt) {
  char why[512];
  for (int path = GPUX_GEMM_NATIVE; path >= GPUX_GEMM_VENDOR; path--) {
    const gpux__query q = {GPUX__Q_GEMM, path, dt, -1};
    if (gpux__can(ctx, &q, why, sizeof why) == GPUX_SUCCESS) return 1;
  }
  return 0;
}

/* alpha and beta in the compute type (gpux_backend.h); complex: each part rounded to the
 * component type (the imaginary part of a real dtype's scalar is 0: the entry points check) */
static gpux__scalar compute_scalar(cscal v, gpux_dtype dt) {
  if (gpux__dt_is_int(dt)) return gpux__scalar_from_double(v.re, dt); /* zeroed past the dtype */
  if (dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128)
    return gpux__scalar_from_parts(v.re, v.im, dt);
  gpux__scalar s;
  memset(&s, 0, sizeof s);
  switch ((int)dt) {
    case GPUX_KDT_f64: s.f64 = v.re; break;
    default: s.f32 = (float)v.re; break; /* f32, f16, bf16 */
  }
  return s;
}

/* The path of products of dtype dt: the context's choice, auto resolved by asking the
 * backend: on GPUs the vendor path where it has the dtype (and its library), else the native
 * one; integers go native at once, and so does everything on CPU devices (pocl), where our
 * kernels run 2.5 to 5 times faster than CLBlast's. */
static gpux_status choose_path(struct gpux_context *ctx, int dt, int *path) {
  gpux__query q = {GPUX__Q_GEMM, GPUX_GEMM_VENDOR, dt, -1};
  char why[512];
  *path = ctx->gemm_path;
  if (*path == GPUX_GEMM_AUTO) {
    const int vendor = !gpux__dt_is_int((gpux_dtype)dt) && ctx->info.is_gpu &&
                       gpux__can(ctx, &q, why, sizeof why) == GPUX_SUCCESS;
    *path = vendor ? GPUX_GEMM_VENDOR : GPUX_GEMM_NATIVE;
  }
  q.op = *path;
  return gpux__need(ctx, &q);
}

/* Issues the backend calls for a problem whose three operands are all readable in place, g
 * holding their transposes and leading dimensions. Batch dimensions that are contiguous for
 * all three merge; the innermost remaining one becomes the backend's batch (when its strides
 * are not negative), the others are looped. */
static gpux_status issue(struct gpux_context *ctx, const problem *p, gpux__gemm g, cscal alpha,
                         cscal beta) {
  g.dtype = (int)p->c.arr->dtype;
  GPUX__CHECK(choose_path(ctx, g.dtype, &g.path));
  g.tf32 = ctx->tf32;
  g.m = p->m;
  g.n = p->n;
  g.k = p->k;
  g.alpha = compute_scalar(alpha, p->c.arr->dtype);
  g.beta = compute_scalar(beta, p->c.arr->dtype);
  struct gpux_stream *q = gpux__stream_cur(ctx);
  g.a = gpux__operand_on(q, p->a.arr);
  g.b = gpux__operand_on(q, p->b.arr);
  g.c = gpux__operand_on(q, p->c.arr);

  /* batch dimensions of size > 1, merged where all three are contiguous across them */
  int nd = 0;
  int64_t size[GPUX_MAX_DIMS], sa[GPUX_MAX_DIMS], sb[GPUX_MAX_DIMS], scc[GPUX_MAX_DIMS];
  for (int d = 0; d < p->nb; d++) {
    if (p->bshape[d] == 1) continue;
    const int64_t x = bstride(&p->a, d), y = bstride(&p->b, d), z = bstride(&p->c, d);
    if (nd > 0 && sa[nd - 1] == x * p->bshape[d] && sb[nd - 1] == y * p->bshape[d] &&
        scc[nd - 1] == z * p->bshape[d]) {
      size[nd - 1] *= p->bshape[d];
      sa[nd - 1] = x;
      sb[nd - 1] = y;
      scc[nd - 1] = z;
      continue;
    }
    size[nd] = p->bshape[d];
    sa[nd] = x;
    sb[nd] = y;
    scc[nd] = z;
    nd++;
  }
  int outer = nd; /* dimensions looped here */
  g.batch = 1;
  if (nd > 0 && sa[nd - 1] >= 0 && sb[nd - 1] >= 0 && scc[nd - 1] > 0) {
    outer = nd - 1;
    g.batch = size[nd - 1];
    g.stride_a = sa[nd - 1];
    g.stride_b = sb[nd - 1];
    g.stride_c = scc[nd - 1];
  }
  const int64_t oa = g.a.offset, ob = g.b.offset, oc = g.c.offset;
  int64_t idx[GPUX_MAX_DIMS] = {0};
  for (;;) {
    g.a.offset = oa;
    g.b.offset = ob;
    g.c.offset = oc;
    for (int d = 0; d < outer; d++) {
      g.a.offset += idx[d] * sa[d];
      g.b.offset += idx[d] * sb[d];
      g.c.offset += idx[d] * scc[d];
    }
    GPUX__CHECK(ctx->be->gemm(q->q, &g));
    int d = outer - 1;
    while (d >= 0 && ++idx[d] == size[d]) idx[d--] = 0;
    if (d < 0) return GPUX_SUCCESS;
  }
}

/* How the backend reads x (storage_of); when it cannot read x in place, x's array is
 * replaced by a contiguous copy (kept in *tmp for the caller to release). */
static gpux_status plan_operand(mat *x, struct gpux_array **tmp, int *trans, int64_t *ld) {
  if (storage_of(x, trans, ld)) return GPUX_SUCCESS;
  GPUX__CHECK(gpux_array_contiguous(tmp, (gpux_array_t)x->arr));
  x->arr = *tmp;
  if (!storage_of(x, trans, ld))
    return gpux__set_error(GPUX_ERROR_INTERNAL, "matmul: a contiguous operand is not readable");
  return GPUX_SUCCESS;
}

/* Runs a checked problem: operands the backend cannot read in place are copied; a C it
 * cannot write in place is computed transposed (C^T = B^T A^T) or in a temporary. */
static gpux_status solve(problem p, cscal alpha, cscal beta) {
  struct gpux_context *ctx = p.c.arr->ctx;
  if (p.m == 0 || p.n == 0) return GPUX_SUCCESS;
  for (int d = 0; d < p.nb; d++)
    if (p.bshape[d] == 0) return GPUX_SUCCESS;
  int t;
  int64_t ld;
  struct gpux_array *ta = NULL, *tb = NULL, *tc = NULL;
  struct gpux_array *const c_user = (struct gpux_array *)p.c.arr;
  gpux_status s = GPUX_SUCCESS;
  if (!storage_of(&p.c, &t, &ld)) {
    /* neither layout: a contiguous temporary, holding C's values when beta reads them */
    s = beta.re == 0 && beta.im == 0
            ? gpux__array_new(&tc, ctx, c_user->dtype, c_user->ndim, c_user->shape)
            : gpux_array_contiguous(&tc, c_user);
    if (s != GPUX_SUCCESS) goto done;
    p.c.arr = tc;
  } else if (t) {
    const mat a = p.a;
    p.a = p.b;
    p.b = a;
    mat_transpose(&p.a);
    mat_transpose(&p.b);
    mat_transpose(&p.c);
    const int64_t m = p.m;
    p.m = p.n;
    p.n = m;
  }
  gpux__gemm g;
  memset(&g, 0, sizeof g);
  g.lda = g.ldb = 1; /* k == 0: A and B are never read */
  if (p.k > 0 && ((s = plan_operand(&p.a, &ta, &g.trans_a, &g.lda)) != GPUX_SUCCESS ||
                  (s = plan_operand(&p.b, &tb, &g.trans_b, &g.ldb)) != GPUX_SUCCESS))
    goto done;
  if (!storage_of(&p.c, &t, &g.ldc) || t) {
    s = gpux__set_error(GPUX_ERROR_INTERNAL, "matmul: the output layout is not planned");
    goto done;
  }
  /* conjugation belongs to the values, whatever layout reads them: it follows the operands
   * through the swaps and copies above */
  g.conj_a = p.k > 0 && p.a.conj;
  g.conj_b = p.k > 0 && p.b.conj;
  s = issue(ctx, &p, g, alpha, beta);
  if (s == GPUX_SUCCESS && tc) s = gpux__copy_strided(c_user, tc);
done:
  gpux_array_release(ta);
  gpux_array_release(tb);
  gpux_array_release(tc);
  return s;
}

/* The shapes of up to three arrays (NULL: ""), for error messages. */
typedef struct shapes3 {
  char s[3][160];
} shapes3;
static shapes3 shapes_of(const struct gpux_array *a, const struct gpux_array *b,
                         const struct gpux_array *c) {
  shapes3 t;
  const struct gpux_array *v[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    t.s[i][0] = '\0';
    if (v[i]) gpux__shape_str(t.s[i], sizeof t.s[i], v[i]->ndim, v[i]->shape);
  }
  return t;
}

/* ---- checks shared by the entry points */
static gpux_status check_operands(const char *fn, const struct gpux_array *c,
                                  const struct gpux_array *a, const struct gpux_array *b) {
  if (a->ctx != b->ctx || (c && c->ctx != a->ctx))
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
  if (a->dtype != b->dtype || (c && c->dtype != a->dtype))
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: operands are %s and %s%s%s", fn,
                           gpux_dtype_name(a->dtype), gpux_dtype_name(b->dtype),
                           c ? ", the output " : "", c ? gpux_dtype_name(c->dtype) : "");
  if (!gemm_dtype_ok(a->ctx, (int)a->dtype)) { /* name the dtypes this context has */
    char list[128] = "";
    size_t len = 0;
    for (int i = 0; i < N_GEMM_DTYPES; i++)
      if (gemm_dtype_ok(a->ctx, gemm_dtypes[i]) && len < sizeof list)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
                                gpux_dtype_name((gpux_dtype)gemm_dtypes[i]));
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "%s: %s products are not supported on %s (%s are)", fn,
                           gpux_dtype_name(a->dtype), a->ctx->info.name, list);
  }
  if (c && (gpux__overlaps(c, a) || gpux__overlaps(c, b)))
    return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: the output overlaps an input", fn);
  return GPUX_SUCCESS;
}

static int is_complex(gpux_dtype dt) { return dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128; }

/* op(x) for a transpose flag: GPUX_CONJ_TRANS conjugates complex values (real ones: a plain
 * transpose) */
static mat mat2d(const struct gpux_array *x, gpux_transpose t) {
  mat m;
  memset(&m, 0, sizeof m);
  m.arr = x;
  m.row_axis = t != GPUX_NO_TRANS ? 1 : 0;
  m.col_axis = t != GPUX_NO_TRANS ? 0 : 1;
  m.conj = t == GPUX_CONJ_TRANS && is_complex(x->dtype);
  return m;
}

static const char *trans_suffix(gpux_transpose t) {
  return t == GPUX_TRANS ? "^T" : t == GPUX_CONJ_TRANS ? "^H" : "";
}

static gpux_status check_trans(const char *fn, gpux_transpose t, const char *what) {
  if (t != GPUX_NO_TRANS && t != GPUX_TRANS && t != GPUX_CONJ_TRANS)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "%s: %s is %d, not GPUX_NO_TRANS, GPUX_TRANS or GPUX_CONJ_TRANS", fn,
                           what, (int)t);
  return GPUX_SUCCESS;
}

/* a complex alpha or beta for a real dtype: its imaginary part must be 0 */
static gpux_status check_scalars(const char *fn, gpux_dtype dt, cscal alpha, cscal beta) {
  if (is_complex(dt) || (alpha.im == 0 && beta.im == 0)) return GPUX_SUCCESS;
  return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                         "%s: alpha (%g%+gi) and beta (%g%+gi) must be real for %s operands", fn,
                         alpha.re, alpha.im, beta.re, beta.im, gpux_dtype_name(dt));
}

static gpux_status gemm_run(const char *fn, gpux_array_t c, gpux_transpose ta,
                            gpux_transpose tb, cscal alpha, gpux_array_t a, gpux_array_t b,
                            cscal beta) {
  char what[64];
  snprintf(what, sizeof what, "%s: C", fn);
  GPUX__CHECK(gpux__check_array(c, what));
  snprintf(what, sizeof what, "%s: A", fn);
  GPUX__CHECK(gpux__check_array(a, what));
  snprintf(what, sizeof what, "%s: B", fn);
  GPUX__CHECK(gpux__check_array(b, what));
  GPUX__CHECK(check_trans(fn, ta, "ta"));
  GPUX__CHECK(check_trans(fn, tb, "tb"));
  const shapes3 t = shapes_of(a, b, c);
  if (a->ndim != 2 || b->ndim != 2 || c->ndim != 2)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s: A %s, B %s and C %s must all be 2-d",
                           fn, t.s[0], t.s[1], t.s[2]);
  GPUX__CHECK(check_operands(fn, c, a, b));
  GPUX__CHECK(check_scalars(fn, a->dtype, alpha, beta));
  problem p;
  memset(&p, 0, sizeof p);
  p.a = mat2d(a, ta);
  p.b = mat2d(b, tb);
  p.c = mat2d(c, GPUX_NO_TRANS);
  p.m = dim_of(&p.a, p.a.row_axis);
  p.k = dim_of(&p.a, p.a.col_axis);
  p.n = dim_of(&p.b, p.b.col_axis);
  if (dim_of(&p.b, p.b.row_axis) != p.k || c->shape[0] != p.m || c->shape[1] != p.n)
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "%s: op(A) %s%s @ op(B) %s%s does not give C %s", fn, t.s[0],
                           trans_suffix(ta), t.s[1], trans_suffix(tb), t.s[2]);
  return solve(p, alpha, beta);
}

GPUX_API gpux_status gpux_gemm(gpux_array_t c, gpux_transpose ta, gpux_transpose tb,
                               double alpha, gpux_array_t a, gpux_array_t b, double beta) {
  GPUX__API_FN();
  return gemm_run("gpux_gemm", c, ta, tb, cs(alpha, 0), a, b, cs(beta, 0));
}

GPUX_API gpux_status gpux_gemm_complex(gpux_array_t c, gpux_transpose ta, gpux_transpose tb,
                                       gpux_complex128 alpha, gpux_array_t a, gpux_array_t b,
                                       gpux_complex128 beta) {
  GPUX__API_FN();
  return gemm_run("gpux_gemm_complex", c, ta, tb, cs(alpha.re, alpha.im), a, b,
                  cs(beta.re, beta.im));
}

/* ---- matmul */

/* Plans a @ b: the problem (without C) and the result's shape. */
static gpux_status plan_matmul(problem *p, int *ndim, int64_t *shape, const struct gpux_array *a,
                               const struct gpux_array *b, const char *fn) {
  const shapes3 t = shapes_of(a, b, NULL);
  memset(p, 0, sizeof *p);
  if (a->ndim == 0 || b->ndim == 0)
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "%s: operands must have at least one dimension, got a %s @ b %s", fn,
                           t.s[0], t.s[1]);
  p->a.arr = a;
  p->b.arr = b;
  /* a 1-d a is a row (1 x k), a 1-d b a column (k x 1) */
  p->a.row_axis = a->ndim >= 2 ? a->ndim - 2 : -1;
  p->a.col_axis = a->ndim - 1;
  p->b.row_axis = b->ndim >= 2 ? b->ndim - 2 : 0;
  p->b.col_axis = b->ndim >= 2 ? b->ndim - 1 : -1;
  p->m = dim_of(&p->a, p->a.row_axis);
  p->k = dim_of(&p->a, p->a.col_axis);
  p->n = dim_of(&p->b, p->b.col_axis);
  if (dim_of(&p->b, p->b.row_axis) != p->k)
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                           "%s: inner dimensions differ: a %s @ b %s (%lld != %lld)", fn,
                           t.s[0], t.s[1], (long long)p->k,
                           (long long)dim_of(&p->b, p->b.row_axis));
  /* batch axes, right-aligned, broadcast */
  const int na = a->ndim > 2 ? a->ndim - 2 : 0, nb = b->ndim > 2 ? b->ndim - 2 : 0;
  p->nb = na > nb ? na : nb;
  for (int d = 0; d < p->nb; d++) {
    const int da = d - (p->nb - na), db = d - (p->nb - nb);
    const int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
    if (sa != sb && sa != 1 && sb != 1)
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                             "%s: batch dimensions do not broadcast: a %s @ b %s", fn,
                             t.s[0], t.s[1]);
    p->bshape[d] = sa > sb ? sa : sb;
    p->a.batch_axis[d] = da >= 0 ? da : -1;
    p->b.batch_axis[d] = db >= 0 ? db : -1;
  }
  int nd = 0;
  for (int d = 0; d < p->nb; d++) shape[nd++] = p->bshape[d];
  if (a->ndim >= 2) shape[nd++] = p->m;
  if (b->ndim >= 2) shape[nd++] = p->n;
  *ndim = nd;
  return GPUX_SUCCESS;
}

static gpux_status matmul_run(struct gpux_array *out, problem *p, const struct gpux_array *a,
                              const struct gpux_array *b) {
  /* out's axes: the batch axes, then m (when a is not 1-d), then n (when b is not 1-d) */
  p->c.arr = out;
  for (int d = 0; d < p->nb; d++) p->c.batch_axis[d] = d;
  p->c.row_axis = a->ndim >= 2 ? p->nb : -1;
  p->c.col_axis = b->ndim >= 2 ? out->ndim - 1 : -1;
  return solve(*p, cs(1.0, 0.0), cs(0.0, 0.0));
}

/* a @ b into a new array of the planned shape (*out stays NULL on failure) */
static gpux_status matmul_new(struct gpux_array **out, problem *p, int ndim, const int64_t *shape,
                              const struct gpux_array *a, const struct gpux_array *b) {
  struct gpux_array *r;
  GPUX__CHECK(gpux__array_new(&r, a->ctx, a->dtype, ndim, shape));
  gpux_status s = matmul_run(r, p, a, b);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(r);
    return s;
  }
  *out = r;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_matmul(gpux_array_t *out, gpux_array_t a, gpux_array_t b) {
  GPUX__API_FN();
  const char *fn = "gpux_matmul";
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_matmul: out is NULL");
  *out = NULL;
  GPUX__CHECK(gpux__check_array(a, "gpux_matmul: a"));
  GPUX__CHECK(gpux__check_array(b, "gpux_matmul: b"));
  GPUX__CHECK(check_operands(fn, NULL, a, b));
  problem p;
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(plan_matmul(&p, &ndim, shape, a, b, fn));
  return matmul_new(out, &p, ndim, shape, a, b);
}

GPUX_API gpux_status gpux_matmul_into(gpux_array_t out, gpux_array_t a, gpux_array_t b) {
  GPUX__API_FN();
  const char *fn = "gpux_matmul_into";
  GPUX__CHECK(gpux__check_array(out, "gpux_matmul_into: out"));
  GPUX__CHECK(gpux__check_array(a, "gpux_matmul_into: a"));
  GPUX__CHECK(gpux__check_array(b, "gpux_matmul_into: b"));
  GPUX__CHECK(check_operands(fn, out, a, b));
  problem p;
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(plan_matmul(&p, &ndim, shape, a, b, fn));
  if (out->ndim != ndim || memcmp(out->shape, shape, (size_t)ndim * sizeof shape[0]) != 0) {
    char x[256], y[256];
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: output shape %s, the result's shape is %s",
                           fn, gpux__shape_str(x, sizeof x, out->ndim, out->shape),
                           gpux__shape_str(y, sizeof y, ndim, shape));
  }
  return matmul_run(out, &p, a, b);
}

/* ---- gemv and dot */

static gpux_status gemv_run(const char *fn, gpux_array_t y, gpux_transpose ta, cscal alpha,
                            gpux_array_t a, gpux_array_t x, cscal beta) {
  char what[64];
  snprintf(what, sizeof what, "%s: y", fn);
  GPUX__CHECK(gpux__check_array(y, what));
  snprintf(what, sizeof what, "%s: A", fn);
  GPUX__CHECK(gpux__check_array(a, what));
  snprintf(what, sizeof what, "%s: x", fn);
  GPUX__CHECK(gpux__check_array(x, what));
  GPUX__CHECK(check_trans(fn, ta, "ta"));
  const shapes3 t = shapes_of(a, x, y);
  if (a->ndim != 2 || x->ndim != 1 || y->ndim != 1)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s: A %s must be 2-d, x %s and y %s 1-d",
                           fn, t.s[0], t.s[1], t.s[2]);
  GPUX__CHECK(check_operands(fn, y, a, x));
  GPUX__CHECK(check_scalars(fn, a->dtype, alpha, beta));
  problem p;
  memset(&p, 0, sizeof p);
  p.a = mat2d(a, ta);
  p.b.arr = x; /* k x 1 */
  p.b.row_axis = 0;
  p.b.col_axis = -1;
  p.c.arr = y; /* m x 1 */
  p.c.row_axis = 0;
  p.c.col_axis = -1;
  p.m = dim_of(&p.a, p.a.row_axis);
  p.k = dim_of(&p.a, p.a.col_axis);
  p.n = 1;
  if (x->shape[0] != p.k || y->shape[0] != p.m)
    return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: op(A) %s%s @ x %s does not give y %s",
                           fn, t.s[0], trans_suffix(ta), t.s[1], t.s[2]);
  return solve(p, alpha, beta);
}

GPUX_API gpux_status gpux_gemv(gpux_array_t y, gpux_transpose ta, double alpha, gpux_array_t a,
                               gpux_array_t x, double beta) {
  GPUX__API_FN();
  return gemv_run("gpux_gemv", y, ta, cs(alpha, 0), a, x, cs(beta, 0));
}

GPUX_API gpux_status gpux_gemv_complex(gpux_array_t y, gpux_transpose ta, gpux_complex128 alpha,
                                       gpux_array_t a, gpux_array_t x, gpux_complex128 beta) {
  GPUX__API_FN();
  return gemv_run("gpux_gemv_complex", y, ta, cs(alpha.re, alpha.im), a, x,
                  cs(beta.re, beta.im));
}

/* sum x_i y_i (conj_x: sum conj(x_i) y_i) as a 0-d array: matmul of two 1-d arrays */
static gpux_status dot_run(const char *fn, gpux_array_t *out, gpux_array_t x, gpux_array_t y,
                           int conj_x) {
  char what[64];
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  snprintf(what, sizeof what, "%s: x", fn);
  GPUX__CHECK(gpux__check_array(x, what));
  snprintf(what, sizeof what, "%s: y", fn);
  GPUX__CHECK(gpux__check_array(y, what));
  GPUX__CHECK(check_operands(fn, NULL, x, y));
  if (x->ndim != 1 || y->ndim != 1 || x->shape[0] != y->shape[0]) {
    const shapes3 t = shapes_of(x, y, NULL);
    return gpux__set_error(x->ndim != 1 || y->ndim != 1 ? GPUX_ERROR_INVALID_SHAPE
                                                         : GPUX_ERROR_SHAPE_MISMATCH,
                           "%s: x %s and y %s must be 1-d of one length", fn, t.s[0], t.s[1]);
  }
  problem p;
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  GPUX__CHECK(plan_matmul(&p, &ndim, shape, x, y, fn));
  p.a.conj = conj_x && is_complex(x->dtype);
  return matmul_new(out, &p, ndim, shape, x, y);
}

GPUX_API gpux_status gpux_dot(gpux_array_t *out, gpux_array_t x, gpux_array_t y) {
  GPUX__API_FN();
  return dot_run("gpux_dot", out, x, y, 0);
}

GPUX_API gpux_status gpux_vdot(gpux_array_t *out, gpux_array_t x, gpux_array_t y) {
  GPUX__API_FN();
  return dot_run("gpux_vdot", out, x, y, 1);
}

GPUX_API gpux_status gpux_dot_scalar(double *out, gpux_array_t x, gpux_array_t y) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_dot_scalar: out is NULL");
  GPUX__CHECK(gpux__check_array(x, "gpux_dot_scalar: x"));
  GPUX__CHECK(gpux__check_array(y, "gpux_dot_scalar: y"));
  if (is_complex(x->dtype) || is_complex(y->dtype))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "gpux_dot_scalar: a %s dot product does not fit a double "
                           "(gpux_dot_scalar_complex returns it)",
                           gpux_dtype_name(is_complex(x->dtype) ? x->dtype : y->dtype));
  struct gpux_array *r = NULL, *r64 = NULL;
  GPUX__CHECK(gpux_dot(&r, x, y));
  gpux_status s = gpux_array_cast(&r64, r, GPUX_FLOAT64); /* every real dtype reads as a double */
  if (s == GPUX_SUCCESS) s = gpux_array_read(r64, out, sizeof *out);
  gpux_array_release(r64);
  gpux_array_release(r);
  return s;
}

GPUX_API gpux_status gpux_dot_scalar_complex(gpux_complex128 *out, gpux_array_t x,
                                             gpux_array_t y) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_dot_scalar_complex: out is NULL");
  struct gpux_array *r = NULL, *r128 = NULL;
  GPUX__CHECK(dot_run("gpux_dot_scalar_complex", &r, x, y, 0));
  /* every dtype reads as a complex128 (real ones: (x, 0)) */
  gpux_status s = gpux_array_cast(&r128, r, GPUX_COMPLEX128);
  if (s == GPUX_SUCCESS) s = gpux_array_read(r128, out, sizeof *out);
  gpux_array_release(r128);
  gpux_array_release(r);
  return s;
}
