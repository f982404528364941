/* gpux tests: reductions (include/gpux/reduce.h) against the two references of tests/ref:
 * the canonical order of kernels/common/gpux_kernels.h (bit for bit: this is what makes
 * every backend give the same bits) and the precise long double reference (within the
 * tolerance table of test_util.c).
 * One cmocka test per (op, dtype): a 3-d array reduced over everything, each axis, two axes,
 * no axis, with keepdims on and off and negative axes; strided and reversed input views;
 * 1-d sizes 1, 2, odd and prime (one, two and three chunks); a reduced axis of length 1 and
 * of length 100,000 (row and column forms); 0-d arrays; _into forms into poisoned outputs
 * (0x7f bytes, NaN, strided views); NaN inputs; empty reductions; var/std with several ddof;
 * the scalar forms. Unsupported dtypes fail with GPUX_ERROR_UNSUPPORTED_DTYPE.
 * Plus: names and result dtypes, error cases (the context stays usable), special values
 * (+-0, inf, NaN, ties), determinism, and a few ops on 2^22 + 3 elements. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define NOPS GPUX_REDUCE_OP_COUNT
#define ALL GPUX_ALL_AXES

static const gpux_dtype k_dtypes[GT_STORAGE_DTYPES] = GT_STORAGE_DTYPE_INIT;
static const char *const k_op_names[NOPS] = {
    "sum",  "prod", "min", "max", "argmin", "argmax",  "any",    "all",
    "count_nonzero", "mean", "var", "std", "norm_l1", "norm_l2", "norm_max"};

typedef struct red_case {
  gpux_reduce_op op;
  gpux_dtype dt;
} red_case;

static uint64_t mkseed(int op, gpux_dtype dt, int k) {
  return (uint64_t)op * 104729u + (uint64_t)dt * 1299709u + (uint64_t)k * 15485863u + 31u;
}

static int is_arg(gpux_reduce_op op) { return op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX; }
static int is_moment(gpux_reduce_op op) { return op == GPUX_REDUCE_VAR || op == GPUX_REDUCE_STD; }

/* ------------------------------------------------------------------ inputs */

/* Inputs that suit the op: products near +-1 (no overflow over 100,000 factors), many ties
 * for argmin/argmax, zeros mixed with nonzeros for any/all/count_nonzero (density chosen
 * by the seed), mixed magnitudes and signs otherwise. Never only zeros. */
static void fill_input(gpux_reduce_op op, gpux_dtype dt, void *buf, int64_t n, uint64_t seed) {
  gt_rng r;
  gt_rng_seed(&r, seed);
  if (op == GPUX_REDUCE_PROD) {
    for (int64_t i = 0; i < n; i++) {
      ref_value v;
      int neg = (gt_rng_u64(&r) & 1) != 0;
      if (ref_dtype_is_float(dt)) {
        v.f = gt_rng_uniform(&r, 0.99, 1.01) * (neg ? -1 : 1);
      } else {
        unsigned k = (unsigned)(gt_rng_u64(&r) % 16);
        /* small factors, a few odd values with random bits (the product wraps, stays odd) */
        if (k < 10) v.i = 1;
        else if (k < 13) v.i = 2;
        else if (k < 15) v.i = 3;
        else v.i = (int64_t)(gt_rng_u64(&r) | 1);
        v.i = ref_wrap(dt, (uint64_t)(neg && ref_int_min(dt) < 0 ? -v.i : v.i));
      }
      ref_store(dt, buf, i, v);
    }
    return;
  }
  if (op == GPUX_REDUCE_ANY || op == GPUX_REDUCE_ALL || op == GPUX_REDUCE_COUNT_NONZERO) {
    static const double density[3] = {0.02, 0.5, 0.98}; /* probability of a zero */
    double pz = density[seed % 3];
    gt_fill_random(buf, dt, n, GT_DOM_ANY, seed);
    for (int64_t i = 0; i < n; i++) {
      ref_value v = ref_load(dt, buf, i);
      int zero = gt_rng_unit(&r) < pz;
      if (ref_dtype_is_float(dt)) {
        if (zero) v.f = (i & 1) ? -0.0 : 0.0;
        else if (v.f == 0.0) v.f = 0.25;
      } else {
        if (zero) v.i = 0;
        else if (v.i == 0) v.i = 1;
      }
      ref_store(dt, buf, i, v);
    }
    return;
  }
  gt_fill_random(buf, dt, n, is_arg(op) ? GT_DOM_SMALLINT : GT_DOM_ANY, seed);
}

/* ------------------------------------------------------------------ one reduction */

enum { OUT_NEW = 0, OUT_INTO = 1, OUT_INTO_NAN = 2, OUT_INTO_STRIDED = 3 };
static const char *const k_out_str[4] = {"new", "into 0x7f-poisoned", "into NaN-filled",
                                         "into strided view"};

typedef struct rspec {
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  gt_layout layout; /* of the input view */
  int naxes;        /* ALL, 0, or the count in axes */
  int axes[GPUX_MAX_DIMS];
  int keepdims;
  int64_t ddof; /* var/std */
  int var_fn;   /* var/std through gpux_var/gpux_std (else gpux_reduce, ddof 0) */
  int out_mode;
} rspec;

/* The reduced axes and the result shape, worked out here independently of the library. */
static void plan(const rspec *s, int *red, int *ondim, int64_t *oshape) {
  memset(red, 0, sizeof(int) * GPUX_MAX_DIMS);
  if (s->naxes == ALL) {
    for (int d = 0; d < s->ndim; d++) red[d] = 1;
  } else {
    for (int k = 0; k < s->naxes; k++) {
      int ax = s->axes[k];
      if (s->ndim == 0) continue;
      red[ax < 0 ? ax + s->ndim : ax] = 1;
    }
  }
  *ondim = 0;
  for (int d = 0; d < s->ndim; d++) {
    if (!red[d]) oshape[(*ondim)++] = s->shape[d];
    else if (s->keepdims) oshape[(*ondim)++] = 1;
  }
}

static const char *axes_str(char *buf, size_t cap, const rspec *s) {
  if (s->naxes == ALL) {
    snprintf(buf, cap, "all axes");
    return buf;
  }
  size_t len = (size_t)snprintf(buf, cap, "axes [");
  for (int k = 0; k < s->naxes && len < cap; k++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%d", k ? ", " : "", s->axes[k]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

static gpux_status call_reduce(gpux_array_t *out, gpux_array_t into, gpux_reduce_op op,
                               gpux_array_t a, const rspec *s) {
  const int *axes = s->naxes == ALL ? NULL : s->axes;
  if (is_moment(op) && s->var_fn) {
    if (op == GPUX_REDUCE_VAR)
      return out ? gpux_var(out, a, axes, s->naxes, s->ddof, s->keepdims)
                 : gpux_var_into(into, a, axes, s->naxes, s->ddof, s->keepdims);
    return out ? gpux_std(out, a, axes, s->naxes, s->ddof, s->keepdims)
               : gpux_std_into(into, a, axes, s->naxes, s->ddof, s->keepdims);
  }
  return out ? gpux_reduce(out, op, a, axes, s->naxes, s->keepdims)
             : gpux_reduce_into(into, op, a, axes, s->naxes, s->keepdims);
}

/* Runs op on host data (contiguous, row-major, s->shape) given as a view of s->layout;
 * checks shape, dtype, the bits of the canonical reference and the precise reference.
 * got_out (optional): receives the result bytes (caller frees). */
/* 0 while inputs hold inf or huge values: the precise reference does not model the
 * overflow of intermediate results (squares of 1e30 in float32), the bits still apply */
static int g_check_precise = 1;

static void red_run(gpux_reduce_op op, gpux_dtype dt, const rspec *s, const void *host,
                    const char *what, void **got_out) {
  char label[512], sh[128], ax[96];
  gpux_dtype rdt;
  GT_ASSERT(ref_reduce_result(op, dt, &rdt), "test bug: %s on %s", k_op_names[op], gt_dtype_str(dt));
  int64_t ddof = is_moment(op) && s->var_fn ? s->ddof : 0;
  char dd[32] = "";
  if (is_moment(op)) snprintf(dd, sizeof dd, ", ddof %" PRId64, ddof);
  snprintf(label, sizeof label, "%s %s: %s %s, %s, keepdims %d%s, %s%s%s", k_op_names[op],
           gt_dtype_str(dt), gt_shape_str(sh, sizeof sh, s->ndim, s->shape),
           gt_layout_str(s->layout), axes_str(ax, sizeof ax, s), s->keepdims, dd,
           k_out_str[s->out_mode], what ? ", " : "", what ? what : "");
  int red[GPUX_MAX_DIMS], ondim;
  int64_t oshape[GPUX_MAX_DIMS];
  plan(s, red, &ondim, oshape);
  int64_t n_out = ref_shape_size(ondim, oshape), n_red = 1;
  for (int d = 0; d < s->ndim; d++)
    if (red[d]) n_red *= s->shape[d];
  size_t rs = ref_dtype_size(rdt);

  void *canon = gt_malloc((size_t)n_out * rs);
  int rc = ref_reduce_axes_canon(op, dt, s->ndim, s->shape, host, red, ddof, canon);

  gt_view va, vo;
  gt_view_make(&va, dt, s->ndim, s->shape, s->layout, host);
  gpux_array_t o = NULL;
  int mode = s->out_mode;
  if (mode == OUT_INTO_STRIDED && ondim == 0) mode = OUT_INTO;
  if (mode == OUT_INTO_NAN && !ref_dtype_is_float(rdt)) mode = OUT_INTO;
  gpux_status st;
  if (mode == OUT_NEW) {
    st = call_reduce(&o, NULL, op, va.view, s);
  } else if (mode == OUT_INTO_STRIDED) {
    gt_view_make(&vo, rdt, ondim, oshape, GT_STRIDED, NULL);
    st = call_reduce(NULL, vo.view, op, va.view, s);
  } else {
    if (mode == OUT_INTO) o = gt_filled_bytes(rdt, ondim, oshape, 0x7f);
    else GT_OK(gpux_array_full(&o, gt_ctx, rdt, ondim, oshape, NAN));
    st = call_reduce(NULL, o, op, va.view, s);
  }
  if (rc < 0) {
    /* min/max/argmin/argmax/norm_max of nothing */
    gt_check_status(GPUX_ERROR_INVALID_ARGUMENT, st, label, __FILE__, __LINE__);
    GT_ASSERT(strstr(gpux_last_error_message(), "identity") != NULL,
              "%s: the message does not say that the op has no identity: \"%s\"", label,
              gpux_last_error_message());
    if (mode == OUT_NEW) GT_ASSERT(o == NULL, "%s: *out is not NULL after an error", label);
  } else {
    gt_check_ok(st, label, __FILE__, __LINE__);
    void *got = gt_malloc((size_t)n_out * rs);
    if (mode == OUT_INTO_STRIDED) {
      gt_view_read(&vo, got, label);
    } else {
      gt_check_shape(o, rdt, ondim, oshape, label);
      if (n_out) GT_OK(gpux_array_read(o, got, (size_t)n_out * rs));
    }
    gt_compare_bits(label, rdt, got, canon, n_out);
    if (g_check_precise) {
      ref_value *val = gt_malloc((size_t)n_out * sizeof *val);
      double *sa = gt_malloc((size_t)n_out * sizeof *sa), *tol = gt_malloc((size_t)n_out * sizeof *tol);
      GT_ASSERT(ref_reduce_axes_precise(op, dt, s->ndim, s->shape, host, red, ddof, val, sa) == 0,
                "%s: the precise reference failed", label);
      for (int64_t i = 0; i < n_out; i++)
        tol[i] = gt_reduce_tol(op, dt, rdt, n_red, val[i].f, sa[i]);
      gt_compare_tol(label, rdt, got, val, tol, n_out);
      free(val);
      free(sa);
      free(tol);
    }
    if (got_out) *got_out = got;
    else free(got);
  }
  if (mode == OUT_INTO_STRIDED) gt_view_free(&vo);
  gpux_array_release(o);
  gt_view_free(&va);
  free(canon);
}

static rspec spec(int ndim, const int64_t *shape, int naxes, const int *axes, int keepdims) {
  rspec s;
  memset(&s, 0, sizeof s);
  s.ndim = ndim;
  for (int d = 0; d < ndim; d++) s.shape[d] = shape[d];
  s.naxes = naxes;
  for (int k = 0; naxes != ALL && k < naxes; k++) s.axes[k] = axes[k];
  s.keepdims = keepdims;
  s.layout = GT_CONTIG;
  s.out_mode = OUT_NEW;
  return s;
}

/* Random input for shape s, run, free. */
static void red_case_run(gpux_reduce_op op, gpux_dtype dt, const rspec *s, uint64_t seed,
                         const char *what) {
  int64_t n = ref_shape_size(s->ndim, s->shape);
  void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
  fill_input(op, dt, h, n, seed);
  red_run(op, dt, s, h, what, NULL);
  free(h);
}

/* ------------------------------------------------------------------ per (op, dtype) */

static void unsupported(gpux_reduce_op op, gpux_dtype dt) {
  int64_t shape[2] = {3, 4};
  gpux_array_t a = NULL, o = NULL;
  gpux_dtype rdt;
  double v;
  int64_t iv;
  int ax = 1;
  GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 2, shape));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_result_dtype(&rdt, op, dt));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce(&o, op, a, NULL, ALL, 0));
  GT_ASSERT(o == NULL, "%s %s: *out set after an error", k_op_names[op], gt_dtype_str(dt));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce(&o, op, a, &ax, 1, 1));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar(&v, op, a));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_i64(&iv, op, a));
  if (is_moment(op)) {
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_var(&o, a, NULL, ALL, 1, 0));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_std(&o, a, &ax, 1, 0, 0));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_var_scalar(&v, a, 0));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_std_scalar(&v, a, 1));
  }
  gpux_array_release(a);
  gt_smoke(gt_ctx);
}

static const int64_t k_s3[3] = {5, 6, 7};

static void test_op(void **state) {
  const red_case *c = *state;
  gpux_reduce_op op = c->op;
  gpux_dtype dt = c->dt, rdt;
  if (!ref_reduce_result(op, dt, &rdt)) {
    unsupported(op, dt);
    return;
  }
  if (!gt_dtype_available(dt) || !gt_dtype_available(rdt)) {
    print_message("float64 not available on this device\n");
    skip();
  }
  int arg = is_arg(op), k = 0;
  gpux_dtype got_rdt;
  GT_OK(gpux_reduce_result_dtype(&got_rdt, op, dt));
  GT_ASSERT(got_rdt == rdt, "%s %s: result dtype %s, expected %s", k_op_names[op],
            gt_dtype_str(dt), gt_dtype_str(got_rdt), gt_dtype_str(rdt));

  /* (a) a 3-d array (5, 6, 7): every axis configuration, keepdims off and on */
  {
    int64_t n = ref_shape_size(3, k_s3);
    void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
    fill_input(op, dt, h, n, mkseed(op, dt, k++));
    static const struct {
      int naxes;
      int axes[3];
    } cfg[] = {{ALL, {0}},  {1, {0}},     {1, {1}},      {1, {2}},     {1, {-1}},
               {1, {-3}},   {2, {0, 2}},  {2, {2, 0}},   {2, {-1, -2}}, {2, {0, 1}},
               {3, {2, 0, 1}}, {0, {0}}};
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
      if (arg && cfg[i].naxes != 1 && cfg[i].naxes != ALL) continue;
      for (int kd = 0; kd < 2; kd++) {
        rspec s = spec(3, k_s3, cfg[i].naxes, cfg[i].axes, kd);
        red_run(op, dt, &s, h, NULL, NULL);
      }
    }
    /* _into: poisoned contiguous outputs, NaN-filled, strided views (with keepdims too) */
    const int a1[1] = {1}, a02[2] = {0, 2};
    for (int m = OUT_INTO; m <= OUT_INTO_STRIDED; m++) {
      rspec s = spec(3, k_s3, 1, a1, 0);
      s.out_mode = m;
      red_run(op, dt, &s, h, NULL, NULL);
      s.keepdims = 1;
      red_run(op, dt, &s, h, NULL, NULL);
      s = spec(3, k_s3, ALL, NULL, m == OUT_INTO_STRIDED);
      s.out_mode = m;
      red_run(op, dt, &s, h, NULL, NULL);
      if (!arg) {
        s = spec(3, k_s3, 2, a02, 0);
        s.out_mode = m;
        red_run(op, dt, &s, h, NULL, NULL);
      }
    }
    /* input views: strided (steps 2 and -2) and reversed */
    for (int lay = GT_STRIDED; lay <= GT_REVERSED; lay++) {
      rspec s = spec(3, k_s3, 1, a1, 0);
      s.layout = (gt_layout)lay;
      red_run(op, dt, &s, h, NULL, NULL);
      s = spec(3, k_s3, ALL, NULL, 0);
      s.layout = (gt_layout)lay;
      red_run(op, dt, &s, h, NULL, NULL);
      if (!arg) {
        s = spec(3, k_s3, 2, a02, 1);
        s.layout = (gt_layout)lay;
        s.out_mode = OUT_INTO_STRIDED;
        red_run(op, dt, &s, h, NULL, NULL);
      }
    }
    /* the scalar forms over everything */
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 3, k_s3, h));
    char canon[8];
    int red_all[3] = {1, 1, 1};
    GT_ASSERT(ref_reduce_axes_canon(op, dt, 3, k_s3, h, red_all, 0, canon) == 0, "ref failed");
    ref_value want = ref_load(rdt, canon, 0);
    double v = -12345.0;
    GT_OK(gpux_reduce_scalar(&v, op, a));
    if (ref_dtype_is_float(rdt)) {
      GT_ASSERT(v == want.f || (isnan(v) && isnan(want.f)), "%s %s: gpux_reduce_scalar = %.17g, canonical %.17g",
                k_op_names[op], gt_dtype_str(dt), v, want.f);
    } else {
      GT_ASSERT(v == ref_int_to_double(rdt, want.i), "%s %s: gpux_reduce_scalar = %.17g, expected %" PRId64,
                k_op_names[op], gt_dtype_str(dt), v, want.i);
    }
    int64_t iv = -12345;
    if (ref_dtype_is_float(rdt)) {
      GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_i64(&iv, op, a));
    } else if (rdt == GPUX_UINT64 && want.i < 0) { /* beyond int64: the _u64 form only */
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_reduce_scalar_i64(&iv, op, a));
      uint64_t uv = 0;
      GT_OK(gpux_reduce_scalar_u64(&uv, op, a));
      GT_ASSERT(uv == (uint64_t)want.i, "%s %s: gpux_reduce_scalar_u64 = %" PRIu64 ", expected %" PRIu64,
                k_op_names[op], gt_dtype_str(dt), uv, (uint64_t)want.i);
    } else {
      GT_OK(gpux_reduce_scalar_i64(&iv, op, a));
      GT_ASSERT(iv == want.i, "%s %s: gpux_reduce_scalar_i64 = %" PRId64 ", expected %" PRId64,
                k_op_names[op], gt_dtype_str(dt), iv, want.i);
      uint64_t uv = 0;
      if (want.i < 0) { /* a negative value: not for the _u64 form */
        GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_reduce_scalar_u64(&uv, op, a));
      } else {
        GT_OK(gpux_reduce_scalar_u64(&uv, op, a));
        GT_ASSERT(uv == (uint64_t)want.i, "%s %s: gpux_reduce_scalar_u64 = %" PRIu64,
                  k_op_names[op], gt_dtype_str(dt), uv);
      }
    }
    if (is_moment(op)) {
      for (int64_t ddof = 0; ddof <= 2; ddof++) {
        GT_ASSERT(ref_reduce_axes_canon(op, dt, 3, k_s3, h, red_all, ddof, canon) == 0, "ref");
        want = ref_load(rdt, canon, 0);
        v = -1;
        if (op == GPUX_REDUCE_VAR) GT_OK(gpux_var_scalar(&v, a, ddof));
        else GT_OK(gpux_std_scalar(&v, a, ddof));
        GT_ASSERT(v == want.f, "%s %s: scalar with ddof %" PRId64 " = %.17g, canonical %.17g",
                  k_op_names[op], gt_dtype_str(dt), ddof, v, want.f);
      }
    }
    gpux_array_release(a);
    free(h);
  }

  /* (b) 1-d: sizes 1, 2, odd, prime: one chunk, two chunks (4099), three chunks (12289) */
  {
    static const int64_t sizes[] = {1, 2, 17, 257, 4096, 4099, 12289};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      rspec s = spec(1, &sizes[i], ALL, NULL, 0);
      red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    }
    /* axis 0 of a 1-d array, keepdims, into */
    int64_t n = 4099;
    const int a0[1] = {0};
    rspec s = spec(1, &n, 1, a0, 1);
    s.out_mode = OUT_INTO;
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
  }

  /* (c) a reduced axis of length 1; a 1-element array; 0-d arrays */
  {
    const int64_t s1[3] = {4, 1, 6}, one[3] = {1, 1, 1};
    const int a1[1] = {1}, am2[1] = {-2}, a0[1] = {0}, am1[1] = {-1};
    rspec s = spec(3, s1, 1, a1, 0);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    s = spec(3, s1, 1, am2, 1);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    s = spec(3, one, ALL, NULL, 1);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    s = spec(0, NULL, ALL, NULL, 0);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), "0-d");
    /* a 0-d array has no axis 0 (NumPy's AxisError) */
    gpux_array_t z = NULL, o = NULL;
    GT_OK(gpux_array_ones(&z, gt_ctx, dt, 0, NULL));
    GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, op, z, a0, 1, 0));
    GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, op, z, am1, 1, 1));
    GT_ASSERT(o == NULL, "%s %s: *out set after an error", k_op_names[op], gt_dtype_str(dt));
    gpux_array_release(z);
    k += 2; /* the later cases keep their seeds */
  }

  /* (d) a reduced axis of 100,000: rows (layout r) and columns (layout c, and narrow
   * columns that the front end transposes) */
  {
    const int64_t rows[2] = {2, 100000}, cols[2] = {100000, 9}, narrow[2] = {100000, 2};
    const int a0[1] = {0}, a1[1] = {1};
    rspec s = spec(2, rows, 1, a1, 0);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    s = spec(2, cols, 1, a0, 0);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    s = spec(2, narrow, 1, a0, 1);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    /* the middle axis of a 3-d array (outer x len x inner) */
    const int64_t mid[3] = {3, 5000, 8};
    s = spec(3, mid, 1, a1, 0);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    /* wide columns: several column blocks per row, a partial last block, two chunks */
    const int64_t wide[2] = {4500, 70}, wmid[3] = {2, 4097, 33};
    s = spec(2, wide, 1, a0, 0);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    s = spec(3, wmid, 1, a1, 0);
    red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
  }

  /* (e) NaN inputs: sum/mean/min/max/prod/var/std/norms give NaN; argmin/argmax the first
   * NaN; any/all/count_nonzero count NaN as nonzero */
  if (ref_dtype_is_float(dt)) {
    const int64_t shape[2] = {4, 9};
    int64_t n = 36;
    void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
    fill_input(op, dt, h, n, mkseed(op, dt, k++));
    static const int64_t nan_at[] = {12, 16, 18, 35}; /* rows 1 (twice), 2 and 3 */
    for (size_t i = 0; i < sizeof nan_at / sizeof nan_at[0]; i++) {
      ref_value v;
      v.f = NAN;
      ref_store(dt, h, nan_at[i], v);
    }
    const int a0[1] = {0}, a1[1] = {1};
    rspec s = spec(2, shape, 1, a1, 0);
    red_run(op, dt, &s, h, "NaN", NULL);
    s = spec(2, shape, 1, a0, 0);
    red_run(op, dt, &s, h, "NaN", NULL);
    s = spec(2, shape, ALL, NULL, 0);
    void *got = NULL;
    red_run(op, dt, &s, h, "NaN", &got);
    if (arg) GT_ASSERT(*(int64_t *)got == 12, "%s %s of an array with NaN at 12, 16, 18, 35: %" PRId64
                       ", expected the first NaN (12)", k_op_names[op], gt_dtype_str(dt), *(int64_t *)got);
    else if (op != GPUX_REDUCE_ANY && op != GPUX_REDUCE_ALL && op != GPUX_REDUCE_COUNT_NONZERO)
      GT_ASSERT(isnan(ref_load(rdt, got, 0).f), "%s %s of an array with NaN is not NaN", k_op_names[op],
                gt_dtype_str(dt));
    free(got);
    free(h);
  }

  /* (f) empty: a zero-length reduced axis (identity or an error), an empty output */
  {
    const int64_t e3[3] = {3, 0, 4}, e1[1] = {0};
    const int a0[1] = {0}, a1[1] = {1};
    rspec s = spec(3, e3, 1, a1, 0);
    red_case_run(op, dt, &s, 1, "empty");
    s.out_mode = OUT_INTO;
    red_case_run(op, dt, &s, 1, "empty");
    s = spec(3, e3, 1, a0, 0); /* output (0, 4): nothing to do, for every op */
    red_case_run(op, dt, &s, 1, "empty");
    s = spec(3, e3, ALL, NULL, 1);
    red_case_run(op, dt, &s, 1, "empty");
    s = spec(1, e1, ALL, NULL, 0);
    red_case_run(op, dt, &s, 1, "empty");
    if (!arg) {
      const int a02[2] = {0, 2};
      s = spec(3, e3, 2, a02, 0); /* output (0,) */
      red_case_run(op, dt, &s, 1, "empty");
    }
    double v;
    gpux_array_t a = NULL;
    GT_OK(gpux_array_empty(&a, gt_ctx, dt, 1, e1));
    gpux_status st = gpux_reduce_scalar(&v, op, a);
    char canon[8];
    if (ref_reduce_canon(op, dt, 0, NULL, 0, canon) < 0) {
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, st);
    } else {
      GT_OK(st);
      const double w = ref_load_f64(rdt, canon, 0);
      GT_ASSERT(v == w || (isnan(v) && isnan(w)), "%s %s of nothing (scalar): %.17g, expected %.17g",
                k_op_names[op], gt_dtype_str(dt), v, w);
    }
    gpux_array_release(a);
  }

  /* (g) var/std: ddof 0, 1, n - 1, n, n + 1 (n - ddof <= 0 gives inf or NaN) */
  if (is_moment(op)) {
    int64_t n = ref_shape_size(3, k_s3);
    void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
    fill_input(op, dt, h, n, mkseed(op, dt, k++));
    const int a1[1] = {1};
    static const int64_t ddofs[] = {0, 1, 5, 6, 7, 100};
    for (size_t i = 0; i < sizeof ddofs / sizeof ddofs[0]; i++) {
      rspec s = spec(3, k_s3, 1, a1, 0);
      s.var_fn = 1;
      s.ddof = ddofs[i];
      red_run(op, dt, &s, h, NULL, NULL);
      s.out_mode = OUT_INTO_STRIDED;
      red_run(op, dt, &s, h, NULL, NULL);
      s = spec(3, k_s3, ALL, NULL, 1);
      s.var_fn = 1;
      s.ddof = ddofs[i] * 35;
      red_run(op, dt, &s, h, NULL, NULL);
    }
    /* n == 1: ddof 0 gives 0, ddof 1 gives NaN (0 / 0) */
    const int64_t s1[3] = {4, 1, 6};
    for (int64_t ddof = 0; ddof <= 2; ddof++) {
      rspec s = spec(3, s1, 1, a1, 0);
      s.var_fn = 1;
      s.ddof = ddof;
      red_case_run(op, dt, &s, mkseed(op, dt, k++), NULL);
    }
    free(h);
  }
  gt_smoke(gt_ctx);
}

/* ------------------------------------------------------------------ names, errors */

static void test_names_and_dtypes(void **state) {
  (void)state;
  for (int op = 0; op < NOPS; op++) {
    const char *nm = gpux_reduce_op_name((gpux_reduce_op)op);
    GT_ASSERT(nm && strcmp(nm, k_op_names[op]) == 0, "gpux_reduce_op_name(%d) = \"%s\", expected \"%s\"",
              op, nm ? nm : "(null)", k_op_names[op]);
    for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
      gpux_dtype want, got = (gpux_dtype)-1;
      int ok = ref_reduce_result((gpux_reduce_op)op, k_dtypes[d], &want);
      gpux_status st = gpux_reduce_result_dtype(&got, (gpux_reduce_op)op, k_dtypes[d]);
      if (ok) {
        GT_OK(st);
        GT_ASSERT(got == want, "result dtype of %s on %s: %s, expected %s", k_op_names[op],
                  gt_dtype_str(k_dtypes[d]), gt_dtype_str(got), gt_dtype_str(want));
      } else {
        GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, st);
      }
    }
  }
  GT_ASSERT(gpux_reduce_op_name((gpux_reduce_op)NOPS) == NULL, "name of op %d is not NULL", NOPS);
  GT_ASSERT(gpux_reduce_op_name((gpux_reduce_op)-1) == NULL, "name of op -1 is not NULL");
  gpux_dtype d;
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_reduce_result_dtype(&d, (gpux_reduce_op)NOPS, GPUX_FLOAT32));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_reduce_result_dtype(&d, (gpux_reduce_op)-1, GPUX_FLOAT32));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_reduce_result_dtype(&d, GPUX_REDUCE_SUM, (gpux_dtype)GPUX_DTYPE_COUNT));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_result_dtype(NULL, GPUX_REDUCE_SUM, GPUX_FLOAT32));
}

/* A small reduction on gt_ctx still works. */
static void usable(const char *after) {
  const int64_t shape[2] = {3, 5};
  float h[15], got[3];
  for (int i = 0; i < 15; i++) h[i] = (float)(i + 1);
  gpux_array_t a = NULL, o = NULL;
  int ax = 1;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, shape, h));
  GT_OK(gpux_reduce(&o, GPUX_REDUCE_SUM, a, &ax, 1, 0));
  GT_OK(gpux_array_read(o, got, sizeof got));
  GT_ASSERT(got[0] == 15.0f && got[1] == 40.0f && got[2] == 65.0f,
            "after %s: sum of rows = %g %g %g, expected 15 40 65", after, got[0], got[1], got[2]);
  gpux_array_release(o);
  gpux_array_release(a);
}

#define E(want, call)        \
  do {                       \
    GT_EXPECT(want, call);   \
    usable(#call);           \
  } while (0)

static void test_errors(void **state) {
  (void)state;
  const int64_t s3[3] = {2, 3, 4}, s34[2] = {2, 4}, s4[1] = {4}, s44[2] = {4, 4};
  gpux_array_t a = NULL, o = NULL, b = NULL, i32 = NULL, bo = NULL;
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 3, s3));
  GT_OK(gpux_array_ones(&i32, gt_ctx, GPUX_INT32, 3, s3));
  GT_OK(gpux_array_ones(&bo, gt_ctx, GPUX_BOOL, 3, s3));
  GT_OK(gpux_array_empty(&b, gt_ctx, GPUX_FLOAT32, 2, s34));
  double v;
  int64_t iv;
  int ax1[1] = {1}, ax3[1] = {3}, axm4[1] = {-4}, ax00[2] = {0, 0}, ax1m2[2] = {1, -2},
      ax02[2] = {0, 2};
  /* NULL handles and pointers */
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce(NULL, GPUX_REDUCE_SUM, a, NULL, ALL, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce(&o, GPUX_REDUCE_SUM, NULL, NULL, ALL, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce(&o, GPUX_REDUCE_SUM, a, NULL, 1, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce_into(NULL, GPUX_REDUCE_SUM, a, ax1, 1, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce_into(b, GPUX_REDUCE_SUM, NULL, ax1, 1, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_var(NULL, a, NULL, ALL, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_var(&o, NULL, NULL, ALL, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_var_into(NULL, a, ax1, 1, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_std(NULL, a, NULL, ALL, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_std_into(b, NULL, ax1, 1, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce_scalar(NULL, GPUX_REDUCE_SUM, a));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce_scalar(&v, GPUX_REDUCE_SUM, NULL));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce_scalar_i64(NULL, GPUX_REDUCE_SUM, i32));
  E(GPUX_ERROR_NULL_POINTER, gpux_reduce_scalar_i64(&iv, GPUX_REDUCE_SUM, NULL));
  E(GPUX_ERROR_NULL_POINTER, gpux_var_scalar(NULL, a, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_var_scalar(&v, NULL, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_std_scalar(NULL, a, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_std_scalar(&v, NULL, 0));
  /* bad op */
  E(GPUX_ERROR_INVALID_OP, gpux_reduce(&o, (gpux_reduce_op)NOPS, a, NULL, ALL, 0));
  E(GPUX_ERROR_INVALID_OP, gpux_reduce(&o, (gpux_reduce_op)-1, a, NULL, ALL, 0));
  E(GPUX_ERROR_INVALID_OP, gpux_reduce_into(b, (gpux_reduce_op)99, a, ax1, 1, 0));
  E(GPUX_ERROR_INVALID_OP, gpux_reduce_scalar(&v, (gpux_reduce_op)NOPS, a));
  E(GPUX_ERROR_INVALID_OP, gpux_reduce_scalar_i64(&iv, (gpux_reduce_op)-7, i32));
  /* bad axes */
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_SUM, a, ax3, 1, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_SUM, a, axm4, 1, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_SUM, a, ax1, -2, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_SUM, a, ax1, GPUX_MAX_DIMS + 1, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_var(&o, a, ax3, 1, 0, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_MAX, a, ax00, 2, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_MEAN, a, ax1m2, 2, 1));
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_ARGMIN, a, ax02, 2, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, GPUX_REDUCE_ARGMAX, a, ax02, 0, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_argmax(&o, a, 3, 0));
  GT_ASSERT(o == NULL, "*out is not NULL after failed calls");
  /* unsupported dtypes */
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce(&o, GPUX_REDUCE_SUM, bo, NULL, ALL, 0));
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce(&o, GPUX_REDUCE_MAX, bo, ax1, 1, 0));
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce(&o, GPUX_REDUCE_ARGMIN, bo, ax1, 1, 0));
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce(&o, GPUX_REDUCE_MEAN, bo, NULL, ALL, 0));
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_std(&o, bo, NULL, ALL, 1, 0));
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce(&o, GPUX_REDUCE_NORM_L2, bo, NULL, ALL, 0));
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_i64(&iv, GPUX_REDUCE_MEAN, i32));
  E(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_i64(&iv, GPUX_REDUCE_SUM, a));
  /* negative ddof */
  E(GPUX_ERROR_INVALID_ARGUMENT, gpux_var(&o, a, NULL, ALL, -1, 0));
  E(GPUX_ERROR_INVALID_ARGUMENT, gpux_std_scalar(&v, a, -3));
  /* _into: wrong shape (incl. keepdims), wrong dtype */
  gpux_array_t w4 = NULL, wk = NULL, wi = NULL, w0 = NULL;
  const int64_t sk[3] = {2, 1, 4};
  GT_OK(gpux_array_empty(&w4, gt_ctx, GPUX_FLOAT32, 1, s4));
  GT_OK(gpux_array_empty(&wk, gt_ctx, GPUX_FLOAT32, 3, sk));
  GT_OK(gpux_array_empty(&wi, gt_ctx, GPUX_INT32, 2, s34));
  GT_OK(gpux_array_empty(&w0, gt_ctx, GPUX_FLOAT32, 0, NULL));
  E(GPUX_ERROR_SHAPE_MISMATCH, gpux_reduce_into(w4, GPUX_REDUCE_SUM, a, ax1, 1, 0));
  E(GPUX_ERROR_SHAPE_MISMATCH, gpux_reduce_into(b, GPUX_REDUCE_SUM, a, ax1, 1, 1));
  E(GPUX_ERROR_SHAPE_MISMATCH, gpux_reduce_into(wk, GPUX_REDUCE_SUM, a, ax1, 1, 0));
  E(GPUX_ERROR_SHAPE_MISMATCH, gpux_reduce_into(b, GPUX_REDUCE_SUM, a, NULL, ALL, 0));
  E(GPUX_ERROR_SHAPE_MISMATCH, gpux_var_into(w0, a, ax1, 1, 0, 0));
  E(GPUX_ERROR_DTYPE_MISMATCH, gpux_reduce_into(wi, GPUX_REDUCE_SUM, i32, ax1, 1, 0));
  E(GPUX_ERROR_DTYPE_MISMATCH, gpux_reduce_into(b, GPUX_REDUCE_ARGMAX, a, ax1, 1, 0));
  E(GPUX_ERROR_DTYPE_MISMATCH, gpux_reduce_into(b, GPUX_REDUCE_ANY, a, ax1, 1, 0));
  E(GPUX_ERROR_DTYPE_MISMATCH, gpux_std_into(b, i32, ax1, 1, 0, 0));
  /* overlap: the output is a view of the input */
  gpux_array_t sq = NULL, row = NULL, col = NULL;
  GT_OK(gpux_array_ones(&sq, gt_ctx, GPUX_FLOAT32, 2, s44));
  const int64_t st0[2] = {0, 0}, sp0[2] = {1, 4}, one[2] = {1, 1}, sp1[2] = {4, 1};
  GT_OK(gpux_array_slice(&row, sq, st0, sp0, one)); /* (1, 4) */
  GT_OK(gpux_array_slice(&col, sq, st0, sp1, one)); /* (4, 1), stride 4 */
  int ax0[1] = {0};
  E(GPUX_ERROR_OVERLAP, gpux_reduce_into(row, GPUX_REDUCE_SUM, sq, ax0, 1, 1));
  E(GPUX_ERROR_OVERLAP, gpux_reduce_into(col, GPUX_REDUCE_MAX, sq, ax1, 1, 1));
  E(GPUX_ERROR_OVERLAP, gpux_var_into(col, sq, ax1, 1, 1, 1));
  E(GPUX_ERROR_OVERLAP, gpux_reduce_into(sq, GPUX_REDUCE_SUM, sq, NULL, 0, 0)); /* the same memory */
  /* arrays of two contexts */
  gpux_context_t c2 = gt_context_new();
  gpux_array_t other = NULL;
  GT_OK(gpux_array_empty(&other, c2, GPUX_FLOAT32, 2, s34));
  E(GPUX_ERROR_CONTEXT_MISMATCH, gpux_reduce_into(other, GPUX_REDUCE_SUM, a, ax1, 1, 0));
  gpux_array_release(other);
  gpux_context_release(c2);
  /* min of nothing has no identity */
  gpux_array_t e0 = NULL;
  const int64_t ez[1] = {0};
  GT_OK(gpux_array_empty(&e0, gt_ctx, GPUX_FLOAT32, 1, ez));
  E(GPUX_ERROR_INVALID_ARGUMENT, gpux_reduce(&o, GPUX_REDUCE_MIN, e0, NULL, ALL, 0));
  E(GPUX_ERROR_INVALID_ARGUMENT, gpux_reduce_scalar(&v, GPUX_REDUCE_ARGMAX, e0));
  E(GPUX_ERROR_INVALID_ARGUMENT, gpux_reduce_scalar(&v, GPUX_REDUCE_NORM_MAX, e0));
  GT_ASSERT(o == NULL, "*out is not NULL after failed calls");
  gpux_array_release(e0);
  gpux_array_release(row);
  gpux_array_release(col);
  gpux_array_release(sq);
  gpux_array_release(w4);
  gpux_array_release(wk);
  gpux_array_release(wi);
  gpux_array_release(w0);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(i32);
  gpux_array_release(bo);
  gt_smoke(gt_ctx);
}

/* The named shorthands are the ops. */
static void test_shorthands(void **state) {
  (void)state;
  const int64_t shape[2] = {3, 7};
  float h[21];
  gt_fill_random(h, GPUX_FLOAT32, 21, GT_DOM_SMALLINT, 77);
  gpux_array_t a = NULL, x = NULL, y = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, shape, h));
  int ax = -1;
  typedef gpux_status (*red_fn)(gpux_array_t *, gpux_array_t, const int *, int, int);
  typedef gpux_status (*sc_fn)(double *, gpux_array_t);
  static const struct {
    gpux_reduce_op op;
    red_fn f;
    sc_fn s;
  } named[] = {{GPUX_REDUCE_SUM, gpux_sum, gpux_sum_scalar},     {GPUX_REDUCE_PROD, gpux_prod, gpux_prod_scalar},
               {GPUX_REDUCE_MIN, gpux_min, gpux_min_scalar},     {GPUX_REDUCE_MAX, gpux_max, gpux_max_scalar},
               {GPUX_REDUCE_MEAN, gpux_mean, gpux_mean_scalar},  {GPUX_REDUCE_ANY, gpux_any, gpux_any_scalar},
               {GPUX_REDUCE_ALL, gpux_all, gpux_all_scalar},
               {GPUX_REDUCE_COUNT_NONZERO, gpux_count_nonzero, gpux_count_nonzero_scalar}};
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
    GT_OK(named[i].f(&x, a, &ax, 1, 1));
    GT_OK(gpux_reduce(&y, named[i].op, a, &ax, 1, 1));
    int64_t nx, ny;
    void *hx = gt_read_all(x, &nx), *hy = gt_read_all(y, &ny);
    gpux_dtype dt;
    GT_OK(gpux_array_dtype(&dt, x));
    GT_ASSERT(nx == ny && memcmp(hx, hy, (size_t)nx * ref_dtype_size(dt)) == 0,
              "shorthand of %s differs from gpux_reduce", k_op_names[named[i].op]);
    double v1, v2;
    GT_OK(named[i].s(&v1, a));
    GT_OK(gpux_reduce_scalar(&v2, named[i].op, a));
    GT_ASSERT(v1 == v2, "scalar shorthand of %s: %g vs %g", k_op_names[named[i].op], v1, v2);
    free(hx);
    free(hy);
    gpux_array_release(x);
    gpux_array_release(y);
  }
  for (int which = 0; which < 2; which++) {
    gpux_reduce_op op = which ? GPUX_REDUCE_ARGMAX : GPUX_REDUCE_ARGMIN;
    for (int axis = -2; axis <= 2; axis++) {
      int a2 = axis == 2 ? ALL : axis;
      GT_OK(which ? gpux_argmax(&x, a, a2, 0) : gpux_argmin(&x, a, a2, 0));
      GT_OK(gpux_reduce(&y, op, a, &a2, a2 == ALL ? ALL : 1, 0));
      int64_t nx, ny;
      int64_t *hx = gt_read_all(x, &nx), *hy = gt_read_all(y, &ny);
      GT_ASSERT(nx == ny && memcmp(hx, hy, (size_t)nx * 8) == 0, "gpux_%s shorthand differs",
                k_op_names[op]);
      free(hx);
      free(hy);
      gpux_array_release(x);
      gpux_array_release(y);
    }
  }
  /* gpux_var(ddof 0) is GPUX_REDUCE_VAR; gpux_std likewise */
  for (int which = 0; which < 2; which++) {
    GT_OK(which ? gpux_std(&x, a, &ax, 1, 0, 0) : gpux_var(&x, a, &ax, 1, 0, 0));
    GT_OK(gpux_reduce(&y, which ? GPUX_REDUCE_STD : GPUX_REDUCE_VAR, a, &ax, 1, 0));
    int64_t nx, ny;
    float *hx = gt_read_all(x, &nx), *hy = gt_read_all(y, &ny);
    GT_ASSERT(nx == ny && memcmp(hx, hy, (size_t)nx * 4) == 0, "gpux_%s(ddof 0) differs from the op",
              which ? "std" : "var");
    free(hx);
    free(hy);
    gpux_array_release(x);
    gpux_array_release(y);
  }
  gpux_array_release(a);
}

/* ------------------------------------------------------------------ special values */

/* +-0, +-inf, NaN, ties, huge values: bits against the canonical order (operand order
 * matters for min/max of +0 and -0), and the NumPy rules against the precise reference. */
static void test_specials(void **state) {
  gpux_dtype dt = *(const gpux_dtype *)*state;
  if (!gt_dtype_available(dt)) skip();
  char sv[32 * 8];
  int64_t ns = gt_special_values(sv, dt, 32);
  const int64_t shape[2] = {6, 300};
  int64_t n = shape[0] * shape[1];
  size_t es = ref_dtype_size(dt);
  char *h = gt_malloc((size_t)n * es);
  gt_rng r;
  gt_rng_seed(&r, 4242);
  for (int row = 0; row < 6; row++)
    for (int64_t j = 0; j < shape[1]; j++) {
      int64_t pick;
      switch (row) {
        case 0: pick = 3 + (gt_rng_u64(&r) & 1); break;            /* +0 and -0 only */
        case 1: pick = 1 + gt_rng_int(&r, 0, 4); break;             /* inf, -inf, zeros, 1 */
        case 2: pick = gt_rng_int(&r, 0, ns - 1); break;            /* everything, NaN too */
        case 3: pick = j == 150 ? 0 : 5 + gt_rng_int(&r, 0, 1); break; /* one NaN among ties */
        case 4: pick = gt_rng_int(&r, 3, ns - 1); break;            /* no NaN, no inf */
        default: pick = 3 + (j % 2); break;                         /* alternating +0 -0 */
      }
      memcpy(h + (size_t)(row * shape[1] + j) * es, sv + (size_t)pick * es, es);
    }
  const int a1[1] = {1};
  for (int op = 0; op < NOPS; op++) {
    rspec s = spec(2, shape, 1, a1, 0);
    gpux_dtype rdt;
    ref_reduce_result((gpux_reduce_op)op, dt, &rdt);
    /* products and squares of 1e30 overflow float32 midway, which the precise reference
     * does not model: those ops are held to the canonical bits only; so are bfloat16's
     * sums, whose float32 partials of values near its (float32's) largest overflow */
    int sums = op == GPUX_REDUCE_SUM || op == GPUX_REDUCE_MEAN || op == GPUX_REDUCE_NORM_L1;
    g_check_precise = op != GPUX_REDUCE_PROD && op != GPUX_REDUCE_VAR &&
                      op != GPUX_REDUCE_STD && op != GPUX_REDUCE_NORM_L2 &&
                      !(dt == GPUX_BFLOAT16 && sums);
    red_run((gpux_reduce_op)op, dt, &s, h, "special values", NULL);
    s = spec(2, shape, ALL, NULL, 0);
    red_run((gpux_reduce_op)op, dt, &s, h, "special values", NULL);
    g_check_precise = 1;
  }
  free(h);
}

/* ------------------------------------------------------------------ determinism, big */

/* Runs the same reduction twice and compares the bits; and a second context. */
static void test_determinism(void **state) {
  (void)state;
  const int64_t shape[2] = {3, 100003};
  int64_t n = shape[0] * shape[1];
  static const gpux_reduce_op ops[] = {GPUX_REDUCE_SUM, GPUX_REDUCE_MEAN, GPUX_REDUCE_VAR,
                                       GPUX_REDUCE_STD, GPUX_REDUCE_NORM_L2, GPUX_REDUCE_ARGMAX};
  gpux_context_t c2 = gt_context_new();
  for (int d = 0; d < 2; d++) {
    gpux_dtype dt = d ? GPUX_FLOAT64 : GPUX_FLOAT32;
    if (!gt_dtype_available(dt)) continue;
    const void *h = gt_random_cached(dt, n, GT_DOM_ANY, 5);
    gpux_array_t a = NULL, a2 = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 2, shape, h));
    GT_OK(gpux_array_from_host(&a2, c2, dt, 2, shape, h));
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
      for (int ax = -1; ax <= 0; ax++) {
        gpux_array_t x = NULL, y = NULL, z = NULL;
        GT_OK(gpux_reduce(&x, ops[i], a, &ax, 1, 0));
        GT_OK(gpux_reduce(&y, ops[i], a, &ax, 1, 0));
        GT_OK(gpux_reduce(&z, ops[i], a2, &ax, 1, 0));
        int64_t nx, ny, nz;
        void *hx = gt_read_all(x, &nx), *hy = gt_read_all(y, &ny), *hz = gt_read_all(z, &nz);
        gpux_dtype rdt;
        GT_OK(gpux_array_dtype(&rdt, x));
        size_t bytes = (size_t)nx * ref_dtype_size(rdt);
        GT_ASSERT(nx == ny && memcmp(hx, hy, bytes) == 0, "%s %s axis %d: two runs differ in bits",
                  k_op_names[ops[i]], gt_dtype_str(dt), ax);
        GT_ASSERT(nx == nz && memcmp(hx, hz, bytes) == 0,
                  "%s %s axis %d: a second context gives other bits", k_op_names[ops[i]],
                  gt_dtype_str(dt), ax);
        free(hx);
        free(hy);
        free(hz);
        gpux_array_release(x);
        gpux_array_release(y);
        gpux_array_release(z);
      }
    gpux_array_release(a);
    gpux_array_release(a2);
  }
  gpux_context_release(c2);
}

/* 2^22 + 3 elements: two passes (1025 partials). The float32 sum is also held to the tree
 * bound (37 u sum|x|), which a serial sum (error growing with n) would not meet. */
static void test_big(void **state) {
  (void)state;
  int64_t n = GT_2P22_PLUS_3;
  static const struct {
    gpux_reduce_op op;
    gpux_dtype dt;
    gt_domain dom;
  } cases[] = {{GPUX_REDUCE_SUM, GPUX_FLOAT32, GT_DOM_ANY},
               {GPUX_REDUCE_SUM, GPUX_FLOAT32, GT_DOM_POS},
               {GPUX_REDUCE_SUM, GPUX_FLOAT64, GT_DOM_ANY},
               {GPUX_REDUCE_MEAN, GPUX_FLOAT32, GT_DOM_POS},
               {GPUX_REDUCE_STD, GPUX_FLOAT32, GT_DOM_ANY},
               {GPUX_REDUCE_NORM_L2, GPUX_FLOAT32, GT_DOM_ANY},
               {GPUX_REDUCE_ARGMAX, GPUX_FLOAT32, GT_DOM_ANY},
               {GPUX_REDUCE_MIN, GPUX_FLOAT64, GT_DOM_ANY},
               {GPUX_REDUCE_SUM, GPUX_INT32, GT_DOM_ANY},
               {GPUX_REDUCE_COUNT_NONZERO, GPUX_UINT8, GT_DOM_ANY}};
  GT_ASSERT(ref_reduce_depth(n) == 37, "test bug: depth of 2^22 + 3 is %d", ref_reduce_depth(n));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gpux_dtype dt = cases[i].dt;
    if (!gt_dtype_available(dt)) continue;
    const void *h = gt_random_cached(dt, n, cases[i].dom, 3);
    rspec s = spec(1, &n, ALL, NULL, 0);
    void *got = NULL;
    red_run(cases[i].op, dt, &s, h, cases[i].dom == GT_DOM_POS ? "2^22 + 3, positive" : "2^22 + 3",
            &got);
    if (cases[i].op == GPUX_REDUCE_SUM && dt == GPUX_FLOAT32) {
      /* run again: the same bits */
      gpux_array_t a = NULL, o = NULL;
      GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, h));
      GT_OK(gpux_reduce(&o, GPUX_REDUCE_SUM, a, NULL, ALL, 0));
      float again;
      GT_OK(gpux_array_read(o, &again, 4));
      GT_ASSERT(memcmp(&again, got, 4) == 0, "float32 sum of 2^22 + 3: two runs differ");
      /* the serial float32 sum for comparison (printed only) */
      ref_value val;
      double sa;
      ref_reduce_precise(GPUX_REDUCE_SUM, dt, n, h, 0, &val, &sa);
      float serial = 0.0f;
      for (int64_t j = 0; j < n; j++) serial += ((const float *)h)[j];
      double err = fabs((double)*(float *)got - val.f), bound = 37 * 0x1p-24 * sa;
      print_message("float32 sum of 2^22 + 3 %s values: error %.3g (bound %.3g = 37 u sum|x|); "
                    "a serial float sum errs by %.3g\n",
                    cases[i].dom == GT_DOM_POS ? "positive" : "mixed-sign", err, bound,
                    fabs((double)serial - val.f));
      /* with positive values the serial sum's error grows with n, past the tree's bound
       * (which red_run enforced): the test tells a tree sum from a serial one */
      if (cases[i].dom == GT_DOM_POS)
        GT_ASSERT(fabs((double)serial - val.f) > bound,
                  "test bug: the bound does not tell a serial sum (error %.3g) from a tree sum",
                  fabs((double)serial - val.f));
      gpux_array_release(o);
      gpux_array_release(a);
    }
    free(got);
  }
  /* two axes over a larger 3-d array: (16, 257, 257) over axes (1, 2): 66049 per output */
  const int64_t s3[3] = {16, 257, 257};
  int64_t n3 = ref_shape_size(3, s3);
  const int a12[2] = {1, 2};
  rspec s = spec(3, s3, 2, a12, 0);
  red_run(GPUX_REDUCE_SUM, GPUX_FLOAT32, &s, gt_random_cached(GPUX_FLOAT32, n3, GT_DOM_ANY, 9), NULL, NULL);
}

/* The reference itself (no device): the canonical order's float32 sum is within the tree
 * bound; a few hand-checked values. */
static void test_ref_selfcheck(void **state) {
  (void)state;
  GT_ASSERT(ref_reduce_depth(1) == 1 && ref_reduce_depth(256) == 9 && ref_reduce_depth(4096) == 24,
            "ref_reduce_depth: %d %d %d", ref_reduce_depth(1), ref_reduce_depth(256), ref_reduce_depth(4096));
  /* -0.0 summed alone stays -0.0; +0 and -0: +0 */
  float z[2] = {-0.0f, 0.0f}, r;
  ref_reduce_canon(GPUX_REDUCE_SUM, GPUX_FLOAT32, 1, z, 0, &r);
  GT_ASSERT(signbit(r), "sum of (-0.0) is not -0.0");
  ref_reduce_canon(GPUX_REDUCE_SUM, GPUX_FLOAT32, 2, z, 0, &r);
  GT_ASSERT(r == 0 && !signbit(r), "sum of (-0.0, +0.0) is not +0.0");
  /* min(+0, -0) keeps the left operand: the first lane's value */
  ref_reduce_canon(GPUX_REDUCE_MIN, GPUX_FLOAT32, 2, z, 0, &r);
  GT_ASSERT(signbit(r), "min(-0, +0): the canonical rule keeps -0 (the left operand)");
  /* argmax of ties: the first */
  int32_t t[5] = {1, 7, 3, 7, 7};
  int64_t ix;
  ref_reduce_canon(GPUX_REDUCE_ARGMAX, GPUX_INT32, 5, t, 0, &ix);
  GT_ASSERT(ix == 1, "argmax of ties: %" PRId64, ix);
  /* sums of 1..n: exact */
  for (int64_t n = 1; n <= 20000; n = n * 3 + 1) {
    float *h = gt_malloc((size_t)n * 4);
    for (int64_t i = 0; i < n; i++) h[i] = (float)(i + 1);
    ref_reduce_canon(GPUX_REDUCE_SUM, GPUX_FLOAT32, n, h, 0, &r);
    double want = (double)n * (double)(n + 1) / 2;
    if (want < 16777216.0) GT_ASSERT(r == (float)want, "sum 1..%" PRId64 " = %.9g", n, r);
    free(h);
  }
  /* random float32 sums of several sizes: the canonical result within the tree bound */
  for (int64_t n = 1; n < (1 << 21); n = n * 5 + 3) {
    const void *h = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, n);
    ref_value val;
    double sa;
    ref_reduce_canon(GPUX_REDUCE_SUM, GPUX_FLOAT32, n, h, 0, &r);
    ref_reduce_precise(GPUX_REDUCE_SUM, GPUX_FLOAT32, n, h, 0, &val, &sa);
    double tol = gt_reduce_tol(GPUX_REDUCE_SUM, GPUX_FLOAT32, GPUX_FLOAT32, n, val.f, sa);
    GT_ASSERT(fabs((double)r - val.f) <= tol, "canonical float32 sum of %" PRId64 ": %.9g, precise %.17g",
              n, r, val.f);
  }
  /* a pass and the chain agree: pass 1 of 10000 elements then pass 2 by hand */
  {
    int64_t n = 10000;
    const float *h = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, 11);
    float parts[3], p2, whole;
    GT_ASSERT(ref_reduce_pass(REF_RK_SUM, GPUX_FLOAT32, n, h, NULL, 0, 0, 0, parts, NULL) == 3, "nparts");
    GT_ASSERT(ref_reduce_pass(REF_RK_SUM, GPUX_FLOAT32, 3, parts, NULL, 0, 0, 0, &p2, NULL) == 1, "nparts");
    ref_reduce_chain(REF_RK_SUM, GPUX_FLOAT32, n, h, 0, 0, 0, &whole, NULL);
    GT_ASSERT(memcmp(&p2, &whole, 4) == 0, "pass by pass %.9g, chain %.9g", p2, whole);
  }
}

/* ------------------------------------------------------------------ 4-byte columns */

/* Column reductions (the second-to-last axis) of a contiguous view that starts `off`
 * elements into its allocation, against the canonical reference bit for bit. The OpenCL
 * backend's GPU form reads 4-byte columns in fours as 16-byte vectors where inner and the
 * offset are multiples of 4, and runs its 16-column kernel where either is not: both are
 * run here. */
static void col_offset_run(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                           int64_t off, const void *host) {
  char label[256], sh[96];
  snprintf(label, sizeof label, "%s %s: %s contiguous view at element offset %" PRId64 ", axis %d",
           k_op_names[op], gt_dtype_str(dt), gt_shape_str(sh, sizeof sh, ndim, shape), off,
           ndim - 2);
  gpux_dtype rdt;
  GT_ASSERT(ref_reduce_result(op, dt, &rdt), "test bug: %s on %s", k_op_names[op],
            gt_dtype_str(dt));
  const size_t es = ref_dtype_size(dt), rs = ref_dtype_size(rdt);
  const int64_t n = ref_shape_size(ndim, shape), np = n + off;
  char *pad = gt_malloc((size_t)np * es);
  gt_poison_host(pad, (size_t)off * es);
  memcpy(pad + (size_t)off * es, host, (size_t)n * es);
  gpux_array_t base = NULL, sl = NULL, v = NULL, o = NULL;
  GT_OK(gpux_array_from_host(&base, gt_ctx, dt, 1, &np, pad));
  const int64_t start = off, stop = np;
  GT_OK(gpux_array_slice(&sl, base, &start, &stop, NULL));
  GT_OK(gpux_array_reshape(&v, sl, ndim, shape)); /* a view: sl is contiguous */
  int red[GPUX_MAX_DIMS] = {0}, axis = ndim - 2;
  red[axis] = 1;
  int64_t n_out = n / shape[axis];
  void *canon = gt_malloc((size_t)n_out * rs), *got = gt_malloc((size_t)n_out * rs);
  GT_ASSERT(ref_reduce_axes_canon(op, dt, ndim, shape, host, red, 0, canon) == 0,
            "%s: the reference failed", label);
  gt_check_ok(gpux_reduce(&o, op, v, &axis, 1, 0), label, __FILE__, __LINE__);
  GT_OK(gpux_array_read(o, got, (size_t)n_out * rs));
  gt_compare_bits(label, rdt, got, canon, n_out);
  free(got);
  free(canon);
  gpux_array_release(o);
  gpux_array_release(v);
  gpux_array_release(sl);
  gpux_array_release(base);
  free(pad);
}

/* The kinds with the OpenCL backend's vector column kernels (sum, prod, argmin, argmax, L1,
 * L2, var) on float32 and int32: inner 8, 36 and 68 (vectors; partial 32-column blocks), 34
 * and 70 (not multiples of 4: the 16-column kernel), lengths 33 (one partial k), 260, 300
 * and 4097 (a chunk boundary, two passes), offsets 0 to 4 (0 and 4 vectors); argmin/argmax
 * on inputs full of ties, with NaNs (several per column) in float32. */
static void test_col4(void **state) {
  (void)state;
  static const gpux_reduce_op ops[] = {GPUX_REDUCE_SUM,     GPUX_REDUCE_PROD,
                                       GPUX_REDUCE_ARGMIN,  GPUX_REDUCE_ARGMAX,
                                       GPUX_REDUCE_NORM_L1, GPUX_REDUCE_NORM_L2,
                                       GPUX_REDUCE_VAR};
  static const gpux_dtype dts[] = {GPUX_FLOAT32, GPUX_INT32};
  static const int64_t shapes[][3] = {{33, 34, 0}, {300, 70, 0}, {4097, 8, 0}, {2, 300, 68},
                                      {260, 36, 0}};
  static const int nd[] = {2, 2, 2, 3, 2};
  int k = 0;
  for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++)
    for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
      gpux_dtype rdt;
      if (!ref_reduce_result(ops[oi], dts[di], &rdt)) continue;
      for (size_t si = 0; si < sizeof nd / sizeof nd[0]; si++) {
        const int64_t n = ref_shape_size(nd[si], shapes[si]);
        void *h = gt_malloc((size_t)n * ref_dtype_size(dts[di]));
        fill_input(ops[oi], dts[di], h, n, mkseed(ops[oi], dts[di], 1000 + k++));
        if (is_arg(ops[oi]) && dts[di] == GPUX_FLOAT32)
          for (int64_t i = 5; i < n; i += 97) ((float *)h)[i] = NAN;
        for (int64_t off = 0; off <= 4; off++)
          if (off != 3 || si == 0) col_offset_run(ops[oi], dts[di], nd[si], shapes[si], off, h);
        free(h);
      }
    }
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_reduce");
  enum { MAXT = NOPS * GT_STORAGE_DTYPES + 32 };
  static struct CMUnitTest tests[MAXT];
  static red_case cases[MAXT];
  static char names[MAXT][64];
  static const gpux_dtype fdt[4] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_BFLOAT16};
  size_t n = 0;
  tests[n++] = (struct CMUnitTest){"ref_selfcheck", test_ref_selfcheck, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"names_and_dtypes", test_names_and_dtypes, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"errors", test_errors, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"shorthands", test_shorthands, NULL, NULL, NULL};
  for (int op = 0; op < NOPS; op++)
    for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
      cases[n] = (red_case){(gpux_reduce_op)op, k_dtypes[d]};
      snprintf(names[n], sizeof names[n], "%s_%s", k_op_names[op], gt_dtype_str(k_dtypes[d]));
      tests[n] = (struct CMUnitTest){names[n], test_op, NULL, NULL, &cases[n]};
      n++;
    }
  tests[n++] = (struct CMUnitTest){"specials_float32", test_specials, NULL, NULL, (void *)&fdt[0]};
  tests[n++] = (struct CMUnitTest){"specials_float64", test_specials, NULL, NULL, (void *)&fdt[1]};
  tests[n++] = (struct CMUnitTest){"specials_float16", test_specials, NULL, NULL, (void *)&fdt[2]};
  tests[n++] = (struct CMUnitTest){"specials_bfloat16", test_specials, NULL, NULL, (void *)&fdt[3]};
  tests[n++] = (struct CMUnitTest){"determinism", test_determinism, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"big_2p22_plus_3", test_big, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"columns_4byte_offsets", test_col4, NULL, NULL, NULL};
  int failed = gt_run("reduce", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
