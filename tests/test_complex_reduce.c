/* gpux tests: complex64 / complex128 reductions (sum, prod, mean, any, all, count_nonzero,
 * var, std), scans (cumsum, cumprod) and complex normals, against
 * tests/ref/ref_complex_red.c (THE CANONICAL ORDER / SCAN of gpux_kernels.h): the bits must
 * match, except that a NaN matches any NaN (a NaN made by arithmetic, e.g. inf * 0 in a
 * product, has the payload of the device that made it). Outputs are poisoned first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ref_complex_red.h"
#include "test_util.h"

static const gpux_dtype k_cplx[] = {GPUX_COMPLEX64, GPUX_COMPLEX128};
static int is_c64(gpux_dtype dt) { return dt == GPUX_COMPLEX64; }
static gpux_dtype comp_of(gpux_dtype dt) { return is_c64(dt) ? GPUX_FLOAT32 : GPUX_FLOAT64; }

/* Inputs. kind 0: sums (mixed magnitudes 1e-3..1e3, both signs, in each part); kind 1:
 * products (|z| in [0.99, 1.01] at a random angle, so long products stay finite); kind 2:
 * truth tests (a third of the elements zero, parts -0.0 / +0.0 / NaN mixed). edges: the
 * first elements take inf, NaN, -0.0 and huge parts. */
static void *make_input(gpux_dtype dt, int64_t n, int kind, int edges, uint64_t seed) {
  const size_t es = gpux_dtype_size(dt);
  void *p = gt_malloc((size_t)n * es + 1);
  gt_rng r;
  gt_rng_seed(&r, seed);
  static const double ev[][2] = {{INFINITY, 1.0},  {-0.0, -0.0},     {NAN, 2.0},
                                 {1e300, -1e300},  {3e38, 3e38},     {-INFINITY, -0.0},
                                 {0.0, INFINITY},  {-0.0, 0.0},      {2.5, NAN}};
  const int nev = (int)(sizeof ev / sizeof ev[0]);
  for (int64_t i = 0; i < n; i++) {
    double re, im;
    if (edges && i % 97 < nev && i < 97 * 4) {
      re = ev[i % 97][0];
      im = ev[i % 97][1];
    } else if (kind == 1) {
      const double m = gt_rng_uniform(&r, 0.99, 1.01), a = gt_rng_uniform(&r, -3.14159, 3.14159);
      re = m * cos(a);
      im = m * sin(a);
    } else if (kind == 2) {
      const int64_t k = gt_rng_int(&r, 0, 8);
      re = k == 0 ? -0.0 : k == 1 ? 0.0 : k == 2 ? NAN : k < 5 ? 0.0 : gt_rng_uniform(&r, -2, 2);
      im = k == 3 ? -0.0 : k == 4 ? 1.5 : k == 5 ? NAN : k == 6 ? 0.0 : gt_rng_uniform(&r, -2, 2);
      if (k == 0 || k == 1) im = k == 0 ? 0.0 : -0.0; /* zero */
    } else {
      const double e1 = gt_rng_uniform(&r, -3, 3), e2 = gt_rng_uniform(&r, -3, 3);
      re = (gt_rng_unit(&r) < 0.5 ? -1 : 1) * pow(10.0, e1);
      im = (gt_rng_unit(&r) < 0.5 ? -1 : 1) * pow(10.0, e2);
    }
    if (is_c64(dt)) {
      float *f = (float *)p + 2 * i;
      f[0] = (float)re;
      f[1] = (float)im;
    } else {
      double *d = (double *)p + 2 * i;
      d[0] = re;
      d[1] = im;
    }
  }
  return p;
}

/* bits equal, or both NaN, per float of the component dtype (cdt) */
static int same_float(gpux_dtype cdt, const void *a, const void *b) {
  if (cdt == GPUX_FLOAT32) {
    float x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return memcmp(a, b, 4) == 0 || (isnan(x) && isnan(y));
  }
  double x, y;
  memcpy(&x, a, 8);
  memcpy(&y, b, 8);
  return memcmp(a, b, 8) == 0 || (isnan(x) && isnan(y));
}

/* n results of dtype rdt: complex / float ones by same_float per part, others by bytes */
static void compare(const char *label, gpux_dtype rdt, const void *got, const void *want,
                    int64_t n) {
  const size_t es = gpux_dtype_size(rdt);
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    const char *g = (const char *)got + (size_t)i * es, *w = (const char *)want + (size_t)i * es;
    int ok;
    if (rdt == GPUX_COMPLEX64 || rdt == GPUX_COMPLEX128) {
      const gpux_dtype c = comp_of(rdt);
      ok = same_float(c, g, w) && same_float(c, g + es / 2, w + es / 2);
    } else if (rdt == GPUX_FLOAT32 || rdt == GPUX_FLOAT64) {
      ok = same_float(rdt, g, w);
    } else {
      ok = memcmp(g, w, es) == 0;
    }
    if (!ok && bad++ < 6) {
      if (rdt == GPUX_COMPLEX64)
        fprintf(stderr, "  %s [%lld]: got (%a, %a) want (%a, %a)\n", label, (long long)i,
                ((const float *)g)[0], ((const float *)g)[1], ((const float *)w)[0],
                ((const float *)w)[1]);
      else if (rdt == GPUX_COMPLEX128)
        fprintf(stderr, "  %s [%lld]: got (%a, %a) want (%a, %a)\n", label, (long long)i,
                ((const double *)g)[0], ((const double *)g)[1], ((const double *)w)[0],
                ((const double *)w)[1]);
      else
        fprintf(stderr, "  %s [%lld]: bytes differ\n", label, (long long)i);
    }
  }
  GT_ASSERT(bad == 0, "%s: %d of %lld results differ from the canonical reference", label, bad,
            (long long)n);
}

static const gpux_reduce_op k_ops[] = {GPUX_REDUCE_SUM, GPUX_REDUCE_PROD, GPUX_REDUCE_MEAN,
                                       GPUX_REDUCE_ANY, GPUX_REDUCE_ALL,
                                       GPUX_REDUCE_COUNT_NONZERO, GPUX_REDUCE_VAR,
                                       GPUX_REDUCE_STD};
#define N_OPS ((int)(sizeof k_ops / sizeof k_ops[0]))
static int input_kind(gpux_reduce_op op) {
  return op == GPUX_REDUCE_PROD ? 1
         : op == GPUX_REDUCE_ANY || op == GPUX_REDUCE_ALL || op == GPUX_REDUCE_COUNT_NONZERO ? 2
                                                                                             : 0;
}

/* One reduction of a (shape, axes) input against the reference; outputs poisoned. */
static void check_reduce(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                         const int *red, int edges, uint64_t seed) {
  const int64_t n = ref_shape_size(ndim, shape);
  void *x = make_input(dt, n, input_kind(op), edges, seed);
  gpux_dtype rdt;
  GT_OK(gpux_reduce_result_dtype(&rdt, op, dt));
  int axes[GPUX_MAX_DIMS], naxes = 0;
  int64_t oshape[GPUX_MAX_DIMS], n_out = 1;
  int ond = 0;
  for (int d = 0; d < ndim; d++) {
    if (red[d])
      axes[naxes++] = d;
    else {
      oshape[ond++] = shape[d];
      n_out *= shape[d];
    }
  }
  const size_t rs = gpux_dtype_size(rdt);
  void *want = gt_malloc((size_t)n_out * rs), *got = gt_malloc((size_t)n_out * rs);
  GT_ASSERT(refc_reduce_axes_canon(op, dt, ndim, shape, x, red, 0, want) == 0, "reference");
  gpux_array_t a = NULL, o = gt_poisoned(rdt, ond, oshape);
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, ndim, shape, x));
  if (op == GPUX_REDUCE_VAR)
    GT_OK(gpux_var_into(o, a, axes, naxes, 0, 0));
  else if (op == GPUX_REDUCE_STD)
    GT_OK(gpux_std_into(o, a, axes, naxes, 0, 0));
  else
    GT_OK(gpux_reduce_into(o, op, a, axes, naxes, 0));
  GT_OK(gpux_array_read(o, got, (size_t)n_out * rs));
  char label[160], sh[64];
  snprintf(label, sizeof label, "%s %s %s axes", gpux_reduce_op_name(op), gt_dtype_str(dt),
           gt_shape_str(sh, sizeof sh, ndim, shape));
  for (int k = 0; k < naxes; k++)
    snprintf(label + strlen(label), sizeof label - strlen(label), " %d", axes[k]);
  compare(label, rdt, got, want, n_out);
  GT_RELEASE(a, o);
  GT_FREE(x, want, got);
}

static void test_cplx_result_dtypes(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    for (int op = 0; op < GPUX_REDUCE_OP_COUNT; op++) {
      gpux_dtype r = GPUX_INT8;
      gpux_status s = gpux_reduce_result_dtype(&r, (gpux_reduce_op)op, dt);
      switch (op) {
        case GPUX_REDUCE_SUM: case GPUX_REDUCE_PROD: case GPUX_REDUCE_MEAN:
          GT_ASSERT(s == GPUX_SUCCESS && r == dt, "%s", gpux_reduce_op_name(op)); break;
        case GPUX_REDUCE_ANY: case GPUX_REDUCE_ALL:
          GT_ASSERT(s == GPUX_SUCCESS && r == GPUX_BOOL, "%s", gpux_reduce_op_name(op)); break;
        case GPUX_REDUCE_COUNT_NONZERO:
          GT_ASSERT(s == GPUX_SUCCESS && r == GPUX_INT64, "count_nonzero"); break;
        case GPUX_REDUCE_VAR: case GPUX_REDUCE_STD:
          GT_ASSERT(s == GPUX_SUCCESS && r == comp_of(dt), "%s", gpux_reduce_op_name(op)); break;
        default: /* no order on complex numbers; the norms are left out */
          GT_ASSERT(s == GPUX_ERROR_UNSUPPORTED_DTYPE, "%s of %s", gpux_reduce_op_name(op),
                    gt_dtype_str(dt));
          if (gt_dtype_available(dt)) {
            gpux_array_t a = NULL, o = NULL;
            const int64_t n = 3;
            GT_OK(gpux_array_ones(&a, gt_ctx, dt, 1, &n));
            GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE,
                      gpux_reduce(&o, (gpux_reduce_op)op, a, NULL, GPUX_ALL_AXES, 0));
            assert_null(o);
            gpux_array_release(a);
          }
      }
    }
  }
}

/* every op over whole sequences of lengths 1, odd, 4097 (two chunks), with edge values */
static void test_cplx_reduce_full(void **state) {
  (void)state;
  static const int64_t lens[] = {1, 7, 255, 4097};
  for (int c = 0; c < 2; c++) {
    if (!gt_dtype_available(k_cplx[c])) continue;
    for (int o = 0; o < N_OPS; o++)
      for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        const int red[1] = {1};
        check_reduce(k_ops[o], k_cplx[c], 1, &lens[l], red, 0, 100 + l);
        if (lens[l] > 400) check_reduce(k_ops[o], k_cplx[c], 1, &lens[l], red, 1, 200 + l);
      }
  }
}

/* layouts: rows (last axis), columns (first axis: the column kernels, one and two chunks),
 * a middle axis, several axes, and a strided (transposed) input */
static void test_cplx_reduce_axes(void **state) {
  (void)state;
  static const struct {
    int nd;
    int64_t shape[3];
    int red[3];
  } cases[] = {{2, {33, 65}, {0, 1}},   {2, {33, 65}, {1, 0}},  {2, {5000, 9}, {1, 0}},
               {3, {4, 33, 10}, {0, 1, 0}}, {3, {3, 5, 7}, {1, 0, 1}}, {2, {300, 2}, {1, 0}},
               {3, {2, 4100, 3}, {0, 1, 0}}};
  for (int c = 0; c < 2; c++) {
    if (!gt_dtype_available(k_cplx[c])) continue;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
      for (int o = 0; o < N_OPS; o++)
        check_reduce(k_ops[o], k_cplx[c], cases[k].nd, cases[k].shape, cases[k].red, 0,
                     300 + k);
  }
  /* a transposed view goes through the front end's copy */
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const int64_t shape[2] = {40, 17}, tshape[2] = {17, 40};
    void *x = make_input(dt, 40 * 17, 0, 0, 7);
    const size_t es = gpux_dtype_size(dt);
    char *xt = gt_malloc(40 * 17 * es);
    for (int i = 0; i < 40; i++)
      for (int j = 0; j < 17; j++) memcpy(xt + (size_t)(j * 40 + i) * es, (char *)x + (size_t)(i * 17 + j) * es, es);
    const int red[2] = {0, 1}, perm[2] = {1, 0}, ax = 1;
    void *want = gt_malloc(17 * es), *got = gt_malloc(17 * es);
    GT_ASSERT(refc_reduce_axes_canon(GPUX_REDUCE_SUM, dt, 2, tshape, xt, red, 0, want) == 0, "ref");
    gpux_array_t a = NULL, t = NULL, o = gt_poisoned(dt, 1, &tshape[0]);
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 2, shape, x));
    GT_OK(gpux_array_permute(&t, a, perm));
    GT_OK(gpux_reduce_into(o, GPUX_REDUCE_SUM, t, &ax, 1, 0));
    GT_OK(gpux_array_read(o, got, 17 * es));
    compare("sum of a transposed view", dt, got, want, 17);
    GT_RELEASE(a, t, o);
    GT_FREE(x, xt, want, got);
  }
}

/* GT_BIG once per family: sum and prod of complex64 (several passes) */
static void test_cplx_reduce_big(void **state) {
  (void)state;
  const int64_t n = GT_BIG;
  const int red[1] = {1};
  check_reduce(GPUX_REDUCE_SUM, GPUX_COMPLEX64, 1, &n, red, 1, 11);
  check_reduce(GPUX_REDUCE_PROD, GPUX_COMPLEX64, 1, &n, red, 0, 12);
}

/* the edge values of the truth tests and of sums, by hand */
static void test_cplx_reduce_edges(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    /* (-0, -0) + (-0, -0) = (-0, -0); (-0, +0) is zero; (0, NaN) and (NaN, 0) are not */
    const double parts[][2] = {{-0.0, -0.0}, {-0.0, 0.0}, {0.0, NAN}, {NAN, 0.0}, {0.0, -0.0}};
    const int64_t n = 5;
    void *x = gt_malloc(5 * 16);
    for (int i = 0; i < 5; i++) {
      if (is_c64(dt)) {
        ((float *)x)[2 * i] = (float)parts[i][0];
        ((float *)x)[2 * i + 1] = (float)parts[i][1];
      } else {
        ((double *)x)[2 * i] = parts[i][0];
        ((double *)x)[2 * i + 1] = parts[i][1];
      }
    }
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, x));
    int64_t cnt = -1;
    GT_OK(gpux_reduce_scalar_i64(&cnt, GPUX_REDUCE_COUNT_NONZERO, a));
    assert_int_equal(cnt, 2);
    int64_t any = -1, all = -1;
    GT_OK(gpux_reduce_scalar_i64(&any, GPUX_REDUCE_ANY, a));
    GT_OK(gpux_reduce_scalar_i64(&all, GPUX_REDUCE_ALL, a));
    assert_int_equal(any, 1);
    assert_int_equal(all, 0);
    gpux_array_t first = NULL;
    const int64_t st = 0, sp = 1, one = 1;
    GT_OK(gpux_array_slice(&first, a, &st, &sp, &one));
    gpux_complex128 z;
    GT_OK(gpux_reduce_scalar_complex(&z, GPUX_REDUCE_SUM, first));
    GT_ASSERT(z.re == 0 && signbit(z.re) && z.im == 0 && signbit(z.im), "sum of (-0, -0)");
    GT_OK(gpux_reduce_scalar_complex(&z, GPUX_REDUCE_SUM, a));
    GT_ASSERT(isnan(z.re) && isnan(z.im), "NaN propagates in each part");
    GT_RELEASE(a, first);
    GT_FREE(x);
  }
}

/* empty reductions: sum (0, 0), prod (1, 0), mean (NaN, NaN), any false, all true, count 0,
 * var NaN (the real dtypes' values, in each part) */
static void test_cplx_reduce_empty(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const int64_t shape[2] = {3, 0};
    const int red[2] = {0, 1};
    for (int o = 0; o < N_OPS; o++) check_reduce(k_ops[o], dt, 2, shape, red, 0, 1);
    gpux_array_t a = NULL;
    GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 2, shape));
    gpux_complex128 z;
    GT_OK(gpux_reduce_scalar_complex(&z, GPUX_REDUCE_PROD, a));
    GT_ASSERT(z.re == 1 && z.im == 0, "prod of nothing");
    GT_OK(gpux_reduce_scalar_complex(&z, GPUX_REDUCE_MEAN, a));
    GT_ASSERT(isnan(z.re) && isnan(z.im), "mean of nothing");
    gpux_array_release(a);
  }
}

/* the host forms: gpux_reduce_scalar_complex against the reference; gpux_reduce_scalar and
 * the integer forms refuse complex results */
static void test_cplx_reduce_scalar(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const int64_t n = 5001;
    void *x = make_input(dt, n, 0, 0, 77);
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, x));
    const gpux_reduce_op ops[] = {GPUX_REDUCE_SUM, GPUX_REDUCE_MEAN, GPUX_REDUCE_VAR,
                                  GPUX_REDUCE_COUNT_NONZERO};
    for (int k = 0; k < 4; k++) {
      unsigned char want[16];
      GT_ASSERT(refc_reduce_canon(ops[k], dt, n, x, 0, want) == 0, "ref");
      gpux_complex128 z, w;
      GT_OK(gpux_reduce_scalar_complex(&z, ops[k], a));
      if (ops[k] == GPUX_REDUCE_VAR) {
        w.re = is_c64(dt) ? (double)*(float *)want : *(double *)want;
        w.im = 0;
      } else if (ops[k] == GPUX_REDUCE_COUNT_NONZERO) {
        int64_t v;
        memcpy(&v, want, 8);
        w.re = (double)v;
        w.im = 0;
      } else {
        w.re = is_c64(dt) ? ((float *)want)[0] : ((double *)want)[0];
        w.im = is_c64(dt) ? ((float *)want)[1] : ((double *)want)[1];
      }
      GT_ASSERT(memcmp(&z.re, &w.re, 8) == 0 && memcmp(&z.im, &w.im, 8) == 0,
                "%s: (%a, %a) want (%a, %a)", gpux_reduce_op_name(ops[k]), z.re, z.im, w.re, w.im);
      if (ops[k] == GPUX_REDUCE_VAR) {
        double v = 0;
        GT_OK(gpux_var_scalar(&v, a, 0));
        GT_ASSERT(v == w.re, "gpux_var_scalar");
      }
    }
    /* the sum against a long double serial sum: the canonical reference itself is sane */
    {
      long double re, im;
      double sa;
      gpux_complex128 z;
      GT_OK(gpux_reduce_scalar_complex(&z, GPUX_REDUCE_SUM, a));
      refc_precise(GPUX_REDUCE_SUM, dt, n, x, &re, &im, &sa);
      const double tol = (is_c64(dt) ? 1e-6 : 1e-14) * sa; /* ~depth 21 x eps, stated */
      GT_ASSERT(fabs(z.re - (double)re) <= tol && fabs(z.im - (double)im) <= tol,
                "sum near the long double sum");
    }
    double d;
    int64_t i;
    uint64_t u;
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar(&d, GPUX_REDUCE_SUM, a));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar(&d, GPUX_REDUCE_MEAN, a));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_i64(&i, GPUX_REDUCE_SUM, a));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_u64(&u, GPUX_REDUCE_PROD, a));
    GT_OK(gpux_reduce_scalar(&d, GPUX_REDUCE_COUNT_NONZERO, a));
    /* a real input through the complex form: (value, 0) */
    gpux_array_t f = NULL;
    const int64_t three = 3;
    GT_OK(gpux_array_full(&f, gt_ctx, GPUX_FLOAT32, 1, &three, 1.5));
    gpux_complex128 z;
    GT_OK(gpux_reduce_scalar_complex(&z, GPUX_REDUCE_SUM, f));
    GT_ASSERT(z.re == 4.5 && z.im == 0, "float32 sum as complex");
    GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_scalar_complex(NULL, GPUX_REDUCE_SUM, a));
    GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_scalar_complex(&z, GPUX_REDUCE_SUM, NULL));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_complex(&z, GPUX_REDUCE_MAX, a));
    GT_RELEASE(a, f);
    GT_FREE(x);
  }
}

/* ---- scans: cumsum and cumprod of complex64 and complex128 (kernels of their own: THE
 * CANONICAL SCAN with the complex sum and product) */
enum { OUT_NEW, OUT_INTO, OUT_STRIDED, OUT_IN_PLACE };
static const char *const k_out_str[] = {"new", "into a poisoned array", "into a strided view",
                                        "in place"};

/* The canonical reference of the scan of x (contiguous, shape) along axis: rows (the axis
 * moved last), scanned, moved back. A 0-d array is one row of one element. */
static void scan_reference(gpux_scan_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                           const void *x, int axis, int exclusive, void *want) {
  const int64_t n = ref_shape_size(ndim, shape);
  if (n == 0) return;
  const size_t es = gpux_dtype_size(dt);
  int64_t len = ndim ? shape[axis] : 1, rows = n / len, inner = 1;
  for (int d = axis + 1; d < ndim; d++) inner *= shape[d];
  char *xr = gt_malloc((size_t)n * es), *wr = gt_malloc((size_t)n * es);
  for (int64_t r = 0; r < rows; r++) /* row r = (outer o, inner i) */
    for (int64_t k = 0; k < len; k++) {
      const int64_t o = r / inner, i = r % inner;
      memcpy(xr + (size_t)(r * len + k) * es,
             (const char *)x + (size_t)((o * len + k) * inner + i) * es, es);
    }
  refc_scan_canon(op, dt, rows, len, xr, exclusive, wr);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t k = 0; k < len; k++) {
      const int64_t o = r / inner, i = r % inner;
      memcpy((char *)want + (size_t)((o * len + k) * inner + i) * es,
             wr + (size_t)(r * len + k) * es, es);
    }
  GT_FREE(xr, wr);
}

/* One scan of x (n elements of shape, row-major) along axis (axis < 0 counts from the end),
 * the input uploaded as an in_lay view, the output as `out` says (poisoned first, except
 * new and in place), against the canonical reference: the same bits (a NaN matches any
 * NaN). Returns the results (the caller frees them) when keep is set. */
static void *scan_run(gpux_scan_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                      const void *x, int axis, int exclusive, gt_layout in_lay, int out,
                      const char *what, int keep) {
  const int64_t n = ref_shape_size(ndim, shape);
  const size_t es = gpux_dtype_size(dt);
  const int ax = axis < 0 ? axis + (ndim ? ndim : 1) : axis;
  char *want = gt_malloc((size_t)n * es + 1), *got = gt_malloc((size_t)n * es + 1);
  scan_reference(op, dt, ndim, shape, x, ax, exclusive, want);
  char label[192], sh[64];
  snprintf(label, sizeof label, "%s %s %s axis %d%s, %s input, %s%s%s",
           op == GPUX_SCAN_SUM ? "cumsum" : "cumprod", gt_dtype_str(dt),
           gt_shape_str(sh, sizeof sh, ndim, shape), axis, exclusive ? " exclusive" : "",
           gt_layout_str(in_lay), k_out_str[out], what ? ", " : "", what ? what : "");
  gt_view vi;
  gt_view_make(&vi, dt, ndim, shape, in_lay, x);
  if (out == OUT_STRIDED) {
    gt_view vo;
    gt_view_make(&vo, dt, ndim, shape, GT_STRIDED, NULL);
    GT_OK(gpux_scan_into(vo.view, op, vi.view, axis, exclusive));
    gt_view_read(&vo, got, label); /* also: nothing outside the view was written */
    gt_view_free(&vo);
  } else if (out == OUT_IN_PLACE) {
    GT_OK(gpux_scan_into(vi.view, op, vi.view, axis, exclusive));
    gt_view_read(&vi, got, label);
  } else {
    gpux_array_t o = NULL;
    if (out == OUT_INTO) {
      o = gt_poisoned(dt, ndim, shape);
      GT_OK(gpux_scan_into(o, op, vi.view, axis, exclusive));
    } else {
      GT_OK(gpux_scan(&o, op, vi.view, axis, exclusive));
    }
    gt_check_shape(o, dt, ndim, shape, label);
    GT_OK(gpux_array_read(o, got, (size_t)n * es));
    gpux_array_release(o);
  }
  gt_view_free(&vi);
  compare(label, dt, got, want, n);
  free(want);
  if (keep) return got;
  free(got);
  return NULL;
}

/* sums: mixed magnitudes; products: factors of modulus near 1. No special values here. */
static void *scan_input(gpux_scan_op op, gpux_dtype dt, int64_t n, uint64_t seed) {
  return make_input(dt, n, op == GPUX_SCAN_PROD ? 1 : 0, 0, seed);
}

/* element i of x (complex dtype dt) set to (re, im) */
static void put_c(gpux_dtype dt, void *x, int64_t i, double re, double im) {
  if (is_c64(dt)) {
    ((float *)x)[2 * i] = (float)re;
    ((float *)x)[2 * i + 1] = (float)im;
  } else {
    ((double *)x)[2 * i] = re;
    ((double *)x)[2 * i + 1] = im;
  }
}
static double part(gpux_dtype dt, const void *x, int64_t i, int k) {
  return is_c64(dt) ? (double)((const float *)x)[2 * i + k] : ((const double *)x)[2 * i + k];
}

/* Every length the variants and tiles turn on: one thread's 16 elements, a warp's 512, a
 * tile's 4096, several tiles (8193, 12289: more than two, a partial last one); odd ones. */
static void test_cplx_scan_lengths(void **state) {
  (void)state;
  static const int64_t lens[] = {1, 2, 7, 16, 17, 511, 512, 513, 4095, 4096, 4097, 8193, 12289};
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    for (int op = 0; op < 2; op++)
      for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        void *x = scan_input((gpux_scan_op)op, dt, lens[l], 40 + 10 * op + l);
        for (int ex = 0; ex < 2; ex++)
          scan_run((gpux_scan_op)op, dt, 1, &lens[l], x, ex ? -1 : 0, ex, GT_CONTIG,
                   ex ? OUT_INTO : OUT_NEW, NULL, 0);
        free(x);
      }
  }
}

/* Axes of 2-d and 3-d arrays (first, middle, last; the middle one several tiles long),
 * strided and reversed input views, outputs into poisoned arrays, strided views and in
 * place. */
static void test_cplx_scan_axes(void **state) {
  (void)state;
  static const struct {
    int nd;
    int64_t shape[3];
  } shapes[] = {{3, {5, 6, 7}}, {2, {3, 9000}}, {2, {600, 5}}, {3, {2, 4097, 3}}, {2, {33, 130}}};
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    for (int op = 0; op < 2; op++)
      for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const int nd = shapes[k].nd;
        const int64_t *sh = shapes[k].shape;
        void *x = scan_input((gpux_scan_op)op, dt, ref_shape_size(nd, sh), 60 + 10 * op + k);
        for (int axis = -1; axis < nd; axis++)
          for (int ex = 0; ex < 2; ex++)
            scan_run((gpux_scan_op)op, dt, nd, sh, x, axis, ex, GT_CONTIG,
                     axis < 0 ? OUT_NEW : OUT_INTO, NULL, 0);
        if (k == 0) { /* views of (5, 6, 7) */
          for (int lay = GT_STRIDED; lay <= GT_REVERSED; lay++)
            for (int axis = 0; axis < 3; axis++) {
              scan_run((gpux_scan_op)op, dt, nd, sh, x, axis, axis == 1, (gt_layout)lay,
                       OUT_NEW, NULL, 0);
              scan_run((gpux_scan_op)op, dt, nd, sh, x, axis, axis != 1, (gt_layout)lay,
                       OUT_STRIDED, NULL, 0);
            }
          for (int ex = 0; ex < 2; ex++) {
            scan_run((gpux_scan_op)op, dt, nd, sh, x, 2, ex, GT_CONTIG, OUT_IN_PLACE, NULL, 0);
            scan_run((gpux_scan_op)op, dt, nd, sh, x, 0, ex, GT_STRIDED, OUT_IN_PLACE, NULL, 0);
          }
        }
        if (k == 1) /* rows of 3 tiles, reversed, into a strided view */
          scan_run((gpux_scan_op)op, dt, nd, sh, x, 1, 1, GT_REVERSED, OUT_STRIDED, NULL, 0);
        free(x);
      }
  }
}

/* inf, NaN and -0.0 in a few elements, and rows of identities: from a NaN on, a part stays
 * NaN, so the special values sit in the second tile of a row (its first tile, and the
 * other rows, stay finite). Row 1 holds only signed zeros (sums: -0.0 + -0.0 stays -0.0)
 * or the identity (1, 0) (products: an identity operand leaves the other one's bits, so
 * (1, 0) * (inf, 0) is (inf, 0), not (inf, NaN)). */
static void test_cplx_scan_special(void **state) {
  (void)state;
  const int64_t sh[2] = {3, 5000};
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    for (int op = 0; op < 2; op++) {
      const int prod = op == GPUX_SCAN_PROD;
      void *x = scan_input((gpux_scan_op)op, dt, sh[0] * sh[1], 90 + op);
      /* row 0: -0.0 parts, then inf, then NaN, late in the row */
      put_c(dt, x, 4200, -0.0, prod ? 1.0 : -0.0);
      put_c(dt, x, 4400, INFINITY, -0.0);
      put_c(dt, x, 4700, 0.5, NAN);
      /* row 1: -0.0 (sums) or identities (products), with an inf and a -0.0 among them */
      for (int64_t i = 0; i < sh[1]; i++)
        put_c(dt, x, sh[1] + i, prod ? 1.0 : -0.0, prod ? (i % 3 ? 0.0 : -0.0) : -0.0);
      put_c(dt, x, sh[1] + 100, prod ? INFINITY : -0.0, prod ? 0.0 : -0.0);
      put_c(dt, x, sh[1] + 4321, -0.0, prod ? 2.0 : -0.0);
      /* row 2: -inf early (sums: -inf from there on in re; products: NaN parts follow) */
      put_c(dt, x, 2 * sh[1] + 3000, -INFINITY, 1.0);
      for (int ex = 0; ex < 2; ex++) {
        char *got = scan_run((gpux_scan_op)op, dt, 2, sh, x, 1, ex, GT_CONTIG, OUT_INTO,
                             "special values", 1);
        /* the exclusive first element is the identity: sums (-0.0, -0.0), products (1, 0) */
        if (ex)
          for (int64_t r = 0; r < sh[0]; r++) {
            const double re = part(dt, got, r * sh[1], 0), im = part(dt, got, r * sh[1], 1);
            GT_ASSERT(prod ? re == 1 && im == 0 && !signbit(im)
                           : re == 0 && im == 0 && signbit(re) && signbit(im),
                      "%s exclusive, row %lld: first element (%g, %g)", prod ? "cumprod" : "cumsum",
                      (long long)r, re, im);
          }
        /* row 0 is finite before its special values */
        for (int64_t i = 0; i < 4200; i++)
          GT_ASSERT(isfinite(part(dt, got, i, 0)) && isfinite(part(dt, got, i, 1)),
                    "row 0, element %lld is not finite", (long long)i);
        if (!prod && !ex) /* row 1: -0.0 + -0.0 ... stays -0.0 in both parts */
          for (int64_t i = 0; i < sh[1]; i++)
            GT_ASSERT(signbit(part(dt, got, sh[1] + i, 0)) && signbit(part(dt, got, sh[1] + i, 1)),
                      "row 1 of -0.0, element %lld lost its sign", (long long)i);
        if (prod && !ex) /* row 1: (inf, 0) times identities stays (inf, 0) until 4321 */
          for (int64_t i = 100; i < 4321; i++)
            GT_ASSERT(part(dt, got, sh[1] + i, 0) == INFINITY && part(dt, got, sh[1] + i, 1) == 0,
                      "row 1: (inf, 0) times (1, 0) at %lld is (%g, %g)", (long long)i,
                      part(dt, got, sh[1] + i, 0), part(dt, got, sh[1] + i, 1));
        free(got);
      }
      scan_run((gpux_scan_op)op, dt, 2, sh, x, 0, 0, GT_CONTIG, OUT_NEW, "special values", 0);
      free(x);
    }
  }
}

/* Exact inputs, so that any order gives the same values: cumsum of small integers in each
 * part, cumprod of the units 1, i, -1, -i and a few (1 + i) factors (|z| stays below 2^20,
 * the parts integers), checked by value (zero signs aside: those are the canonical
 * reference's to check) against a serial long double scan; rows of three tiles and the 0-d
 * and empty cases. */
static void test_cplx_scan_exact(void **state) {
  (void)state;
  const int64_t len = 9000;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    for (int op = 0; op < 2; op++) {
      const int prod = op == GPUX_SCAN_PROD;
      void *x = gt_malloc((size_t)len * es);
      gt_rng r;
      gt_rng_seed(&r, 123 + (uint64_t)(2 * c + op));
      for (int64_t i = 0; i < len; i++) {
        if (!prod) {
          put_c(dt, x, i, (double)gt_rng_int(&r, -100, 100), (double)gt_rng_int(&r, -100, 100));
        } else if (i % 211 == 5 && i < 211 * 40) {
          put_c(dt, x, i, 1.0, 1.0);
        } else {
          static const double u[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
          const int64_t k = gt_rng_int(&r, 0, 3);
          put_c(dt, x, i, u[k][0], u[k][1]);
        }
      }
      for (int ex = 0; ex < 2; ex++) {
        char *got = scan_run((gpux_scan_op)op, dt, 1, &len, x, 0, ex, GT_CONTIG, OUT_NEW,
                             "exact values", 1);
        long double re = prod ? 1 : 0, im = 0;
        for (int64_t i = 0; i < len; i++) {
          const long double xr = part(dt, x, i, 0), xi = part(dt, x, i, 1);
          long double nr, ni;
          if (prod) {
            nr = re * xr - im * xi;
            ni = re * xi + im * xr;
          } else {
            nr = re + xr;
            ni = im + xi;
          }
          const long double wr = ex ? re : nr, wi = ex ? im : ni;
          re = nr;
          im = ni;
          const double gr = part(dt, got, i, 0), gi = part(dt, got, i, 1);
          GT_ASSERT((long double)gr == wr && (long double)gi == wi,
                    "%s %s%s [%lld]: got (%g, %g), serial (%Lg, %Lg)", prod ? "cumprod" : "cumsum",
                    gt_dtype_str(dt), ex ? " exclusive" : "", (long long)i, gr, gi, wr, wi);
        }
        free(got);
      }
      free(x);
      /* 0-d: the element itself (exclusive: the identity); empty: an empty result */
      gpux_array_t a = NULL, o = NULL;
      GT_OK(gpux_array_full_complex(&a, gt_ctx, dt, 0, NULL, 1.5, -2.0));
      for (int ex = 0; ex < 2; ex++) {
        GT_OK(gpux_scan(&o, (gpux_scan_op)op, a, 0, ex));
        gpux_complex128 z;
        GT_OK(gpux_reduce_scalar_complex(&z, GPUX_REDUCE_SUM, o));
        const double wre = !ex ? 1.5 : prod ? 1.0 : 0.0, wim = !ex ? -2.0 : 0.0;
        GT_ASSERT(z.re == wre && z.im == wim, "0-d %s%s: (%g, %g)", prod ? "cumprod" : "cumsum",
                  ex ? " exclusive" : "", z.re, z.im);
        gpux_array_release(o);
        o = NULL;
      }
      gpux_array_release(a);
      const int64_t zero = 0, e2[2] = {3, 0};
      GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 1, &zero));
      GT_OK(gpux_scan(&o, (gpux_scan_op)op, a, 0, 0));
      gt_check_shape(o, dt, 1, &zero, "empty scan");
      GT_RELEASE(a, o);
      a = o = NULL;
      GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 2, e2));
      o = gt_poisoned(dt, 2, e2);
      GT_OK(gpux_scan_into(o, (gpux_scan_op)op, a, 0, 1));
      GT_RELEASE(a, o);
    }
  }
}

/* GT_BIG elements in one row (2^22 + 3: 1025 tiles), each dtype and op once */
static void test_cplx_scan_big(void **state) {
  (void)state;
  const int64_t big = GT_BIG;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    for (int op = 0; op < 2; op++) {
      void *x = scan_input((gpux_scan_op)op, dt, big, 99 + 2 * c + op);
      scan_run((gpux_scan_op)op, dt, 1, &big, x, 0, (c + op) & 1, GT_CONTIG, OUT_NEW, NULL, 0);
      free(x);
    }
  }
}

/* ---- complex normals */
static void test_cplx_random_normal(void **state) {
  (void)state;
  static const int64_t sizes[] = {1, 7, 4097};
  static const double params[][2] = {{0.0, 1.0}, {1.5, 2.0}, {-3.0, 0.25}};
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int pi = 0; pi < 3; pi++) {
        const int64_t n = sizes[s];
        gpux_generator_t g = NULL;
        GT_OK(gpux_generator_create(&g, 1234 + s));
        gpux_rng_state st0, st1;
        GT_OK(gpux_generator_get_state(&st0, g));
        gpux_array_t a = gt_poisoned(dt, 1, &n);
        GT_OK(gpux_random_normal(a, g, params[pi][0], params[pi][1]));
        GT_OK(gpux_generator_get_state(&st1, g));
        uint64_t words = 0, cwords = 0;
        GT_OK(gpux_random_words(&words, GPUX_RANDOM_NORMAL, dt, n));
        GT_OK(gpux_random_words(&cwords, GPUX_RANDOM_NORMAL, comp_of(dt), 2 * n));
        assert_true(words == cwords && st1.position - st0.position == words);
        void *got = gt_malloc((size_t)n * es), *want = gt_malloc((size_t)n * es);
        GT_OK(gpux_array_read(a, got, (size_t)n * es));
        GT_OK(gpux_random_normal_host(want, dt, 0, n, &st0, params[pi][0], params[pi][1]));
        compare("complex normal vs gpux_random_normal_host", dt, got, want, n);
        /* the definition: the component draw with mean 0, std * sqrt(1/2), mean added to re */
        void *comp = gt_malloc((size_t)n * es);
        GT_OK(gpux_random_normal_host(comp, comp_of(dt), 0, 2 * n, &st0, 0.0,
                                      params[pi][1] * 0.70710678118654752440));
        for (int64_t i = 0; i < n; i++) {
          if (is_c64(dt)) {
            float re = ((float *)comp)[2 * i], im = ((float *)comp)[2 * i + 1];
            if (params[pi][0] != 0) re = re + (float)params[pi][0];
            GT_ASSERT(memcmp(&re, (float *)got + 2 * i, 4) == 0 &&
                          memcmp(&im, (float *)got + 2 * i + 1, 4) == 0, "c64 normal %lld", (long long)i);
          } else {
            double re = ((double *)comp)[2 * i], im = ((double *)comp)[2 * i + 1];
            if (params[pi][0] != 0) re = re + params[pi][0];
            GT_ASSERT(memcmp(&re, (double *)got + 2 * i, 8) == 0 &&
                          memcmp(&im, (double *)got + 2 * i + 1, 8) == 0, "c128 normal %lld", (long long)i);
          }
        }
        /* host draws from an offset agree with the whole draw */
        if (n > 3) {
          GT_OK(gpux_random_normal_host(want, dt, 3, n - 3, &st0, params[pi][0], params[pi][1]));
          compare("host draw from value 3", dt, (char *)got + 3 * es, want, n - 3);
        }
        gpux_array_release(a);
        gpux_generator_release(g);
        GT_FREE(got, want, comp);
      }
    /* moments of a larger draw: E re = mean, E im = 0, Var re = Var im = std^2 / 2 */
    {
      const int64_t n = 200001;
      gpux_generator_t g = NULL;
      GT_OK(gpux_generator_create(&g, 99));
      gpux_array_t a = NULL;
      GT_OK(gpux_randn(&a, gt_ctx, g, dt, 1, &n));
      void *v = gt_malloc((size_t)n * es);
      GT_OK(gpux_array_read(a, v, (size_t)n * es));
      double s[2] = {0, 0}, q[2] = {0, 0};
      for (int64_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
          const double x = is_c64(dt) ? ((float *)v)[2 * i + k] : ((double *)v)[2 * i + k];
          s[k] += x;
          q[k] += x * x;
        }
      for (int k = 0; k < 2; k++) {
        const double m = s[k] / n, var = q[k] / n - m * m;
        /* 6 sigma: sd(mean) = sqrt(0.5 / n), sd(var) ~ sqrt(2 * 0.25 / n) */
        GT_ASSERT(fabs(m) < 6 * sqrt(0.5 / n) && fabs(var - 0.5) < 6 * sqrt(0.5 / n),
                  "randn %s part %d: mean %g var %g", gt_dtype_str(dt), k, m, var);
      }
      GT_RELEASE(a);
      GT_FREE(v);
      gpux_generator_release(g);
    }
    /* into a strided view (every other element of a poisoned base): the same values, the
     * skipped elements untouched */
    {
      const int64_t n = 1001, nb = 2 * n;
      gpux_generator_t g = NULL;
      GT_OK(gpux_generator_create(&g, 5));
      gpux_rng_state st0;
      GT_OK(gpux_generator_get_state(&st0, g));
      gt_view v;
      gt_view_make(&v, dt, 1, &nb, GT_CONTIG, NULL);
      gpux_array_t view = NULL;
      const int64_t start = 1, stop = nb, step = 2;
      GT_OK(gpux_array_slice(&view, v.base, &start, &stop, &step));
      GT_OK(gpux_random_normal(view, g, 0.5, 3.0));
      void *got = gt_malloc((size_t)n * es), *want = gt_malloc((size_t)n * es);
      unsigned char *all = gt_malloc((size_t)nb * es);
      GT_OK(gpux_array_read(view, got, (size_t)n * es));
      GT_OK(gpux_random_normal_host(want, dt, 0, n, &st0, 0.5, 3.0));
      compare("complex normal into a strided view", dt, got, want, n);
      GT_OK(gpux_array_read(v.base, all, (size_t)nb * es));
      for (int64_t i = 0; i < nb; i += 2)
        for (size_t b = 0; b < es; b++)
          GT_ASSERT(all[(size_t)i * es + b] == GT_POISON_BYTE, "element %lld was written", (long long)i);
      gpux_array_release(view);
      gt_view_free(&v);
      gpux_generator_release(g);
      GT_FREE(got, want, all);
    }
    /* the other distributions refuse complex */
    gpux_generator_t g = NULL;
    GT_OK(gpux_generator_create(&g, 1));
    const int64_t n = 4;
    gpux_array_t a = NULL;
    GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 1, &n));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_uniform(a, g, 0.0, 1.0));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_bernoulli(a, g, 0.5));
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(a, g, 0.0, -1.0));
    if (dt == GPUX_COMPLEX64)
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(a, g, 1e39, 1.0));
    gpux_array_release(a);
    gpux_generator_release(g);
  }
}

int main(void) {
  gt_init("test_complex_reduce");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cplx_result_dtypes), cmocka_unit_test(test_cplx_reduce_full),
      cmocka_unit_test(test_cplx_reduce_axes),   cmocka_unit_test(test_cplx_reduce_big),
      cmocka_unit_test(test_cplx_reduce_edges),  cmocka_unit_test(test_cplx_reduce_empty),
      cmocka_unit_test(test_cplx_reduce_scalar), cmocka_unit_test(test_cplx_scan_lengths),
      cmocka_unit_test(test_cplx_scan_axes),     cmocka_unit_test(test_cplx_scan_special),
      cmocka_unit_test(test_cplx_scan_exact),    cmocka_unit_test(test_cplx_scan_big),
      cmocka_unit_test(test_cplx_random_normal),
  };
  int failed = gt_run("complex_reduce", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
