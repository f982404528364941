/* gpux tests: complex matrix products (issue 23): gpux_gemm / gpux_gemm_complex, gpux_matmul
 * (and _into), gpux_gemv / gpux_gemv_complex, gpux_dot, gpux_vdot, gpux_dot_scalar_complex on
 * complex64 and complex128, against the long double reference of tests/ref/ref_complex_gemm.c.
 *
 * Every product test runs once per path: vendor (cuBLAS cgemm/zgemm, CLBlast C/Zgemm; skipped
 * where the backend has no vendor library) and native (gpux's kernels; on OpenCL the form the
 * device gets, and the GPU form under the ctest variant test_complex_gemm.opencl_gpu_form);
 * auto is checked once (it resolves to one of them).
 *   gemm     shapes 1x1x1, 1x7x1, 7x1x1, 1x1x9, 67x33x129, 33x65x17, 130x70x20 (several tiles,
 *            edges), k == 0 (C = beta C), empty C (0x5x3, 4x0x6); the nine (N, T, C) x
 *            (N, T, C) transposes on 37x29x41; complex alpha and beta; beta == 0 with a
 *            NaN-poisoned C that must not leak; random data of mixed magnitudes and data of
 *            small integers (every product and sum exact: compared with tolerance 0, so an
 *            indexing or conjugation slip shows).
 *   views    operands as views: rows step 2 (in place with a leading dimension), columns step
 *            2 and reversed rows (copied first), a 1 x n output with columns step 2 (the front
 *            end then computes C^T = op(B)^T op(A)^T, and a conjugate-transposed B becomes a
 *            conjugated, untransposed operand: the native kernels' conj-without-transpose).
 *   matmul   (2,1,m,k) @ (3,k,n) broadcast batches, 1-d @ 2-d, 2-d @ 1-d, matmul_into a
 *            poisoned output.
 *   gemv     N, T, C; complex alpha/beta; NaN-poisoned y with beta 0; x with step 2; a
 *            2048 x 2051 (about GT_BIG elements) complex64 matrix once.
 *   dot      dot, vdot (conjugates x), dot_scalar_complex at lengths 1, 7, 1000 and GT_BIG;
 *            dot_scalar of complex is GPUX_ERROR_UNSUPPORTED_DTYPE.
 *   edge     NaN in a row of A gives NaN in that row of C only; +-inf; -0.0 inputs; products
 *            past the component's range overflow to inf (the naive formulas, as BLAS).
 *   errors   dtype mismatches, imaginary alpha on real operands, a bad transpose value,
 *            NULL outputs; GPUX_CONJ_TRANS on real dtypes is GPUX_TRANS.
 *
 * THE TOLERANCE (per component, |got - want| <= tol, want the long double reference before
 * rounding, S = |alpha| sum_l |op(A)_il| |op(B)_lj| + |beta| |C_ij| with |z| = |re| + |im|,
 * u the component's unit roundoff: 2^-24 complex64, 2^-53 complex128, tiny its smallest
 * normal):
 *   random data        (2k + 8) u S + (k + 2) tiny   each complex product is two real
 *                                                    products and a sum, any summation order
 *                                                    (blocked, FMA or not), then alpha, beta
 *                                                    and the final rounding
 *   small integers     0                             every value is an exact integer
 *   NaN / inf          NaN where the reference is NaN, the same inf
 * Complex products are not bit-identical across paths, backends or devices (as float GEMM). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ref_complex_gemm.h"
#include "test_util.h"

static const int k_paths[2] = {GPUX_GEMM_VENDOR, GPUX_GEMM_NATIVE};
static const char *const k_path_names[3] = {"auto", "vendor", "native"};
static int g_vendor_state = -1; /* -1 unknown, 0 missing, 1 present */

typedef struct pcase {
  gpux_dtype dt;
  int path;
} pcase;

static double unit_of(gpux_dtype dt) { return dt == GPUX_COMPLEX64 ? 0x1p-24 : 0x1p-53; }
static double tiny_of(gpux_dtype dt) { return dt == GPUX_COMPLEX64 ? FLT_MIN : DBL_MIN; }

/* Sets the path for the running test; skips when the vendor path is forced and the backend
 * has no vendor library (GPUX_ERROR_UNSUPPORTED). */
static void use_path(int path) {
  GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, path));
  if (path != GPUX_GEMM_VENDOR) return;
  if (g_vendor_state < 0) {
    const int64_t s1[2] = {1, 1};
    float one[2] = {1.0f, 0.5f}, got[2] = {0, 0};
    gpux_array_t a = NULL, c = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_COMPLEX64, 2, s1, one));
    GT_OK(gpux_array_from_host(&c, gt_ctx, GPUX_COMPLEX64, 2, s1, one));
    gpux_status st = gpux_gemm(c, GPUX_NO_TRANS, GPUX_NO_TRANS, 2.0, a, a, 0.0);
    if (st == GPUX_ERROR_UNSUPPORTED) {
      print_message("the vendor path is not available on this backend: %s\n",
                    gpux_last_error_message());
      g_vendor_state = 0;
    } else {
      GT_OK(st);
      GT_OK(gpux_array_read(c, got, sizeof got));
      /* 2 (1 + 0.5i)^2 = 1.5 + 2i */
      GT_ASSERT(got[0] == 1.5f && got[1] == 2.0f, "vendor probe: %g%+gi", got[0], got[1]);
      g_vendor_state = 1;
    }
    gpux_array_release(a);
    gpux_array_release(c);
  }
  if (!g_vendor_state) skip();
}

/* ---- host data: n complex values as 2n doubles, exact in dt */
static double *cdata(gpux_dtype dt, int64_t n, uint64_t seed, int smallint) {
  double *v = gt_malloc((size_t)(2 * n + 1) * sizeof(double));
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < 2 * n; i++) {
    double x;
    if (smallint) {
      x = (double)gt_rng_int(&r, -8, 8);
    } else { /* mixed magnitudes 2^-6 .. 2^6, both signs */
      x = gt_rng_uniform(&r, 0.5, 1.0) * ldexp(1.0, (int)gt_rng_int(&r, -6, 6));
      if (gt_rng_u64(&r) & 1) x = -x;
    }
    v[i] = dt == GPUX_COMPLEX64 ? (double)(float)x : x;
  }
  return v;
}

/* device bytes of 2n doubles (complex64: each part as float) */
static void *to_dev_bytes(gpux_dtype dt, int64_t n, const double *v) {
  if (dt == GPUX_COMPLEX128) {
    void *p = gt_malloc((size_t)(2 * n + 1) * sizeof(double));
    memcpy(p, v, (size_t)(2 * n) * sizeof(double));
    return p;
  }
  float *p = gt_malloc((size_t)(2 * n + 1) * sizeof(float));
  for (int64_t i = 0; i < 2 * n; i++) p[i] = (float)v[i];
  return p;
}

static gpux_array_t upload(gpux_dtype dt, int ndim, const int64_t *shape, const double *v) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  void *p = to_dev_bytes(dt, n, v);
  gpux_array_t a = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, ndim, shape, p));
  free(p);
  return a;
}

/* a NaN-poisoned array (every part NaN) */
static gpux_array_t nan_array(gpux_dtype dt, int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  double *v = gt_malloc((size_t)(2 * n + 1) * sizeof(double));
  for (int64_t i = 0; i < 2 * n; i++) v[i] = NAN;
  gpux_array_t a = upload(dt, ndim, shape, v);
  free(v);
  return a;
}

/* the n elements of x (row-major) as 2n doubles */
static double *download(gpux_array_t x, gpux_dtype dt, int64_t n) {
  const size_t es = gpux_dtype_size(dt);
  void *p = gt_malloc((size_t)n * es + 1);
  GT_OK(gpux_array_read(x, p, (size_t)n * es));
  double *v = gt_malloc((size_t)(2 * n + 1) * sizeof(double));
  for (int64_t i = 0; i < 2 * n; i++)
    v[i] = dt == GPUX_COMPLEX64 ? (double)((float *)p)[i] : ((double *)p)[i];
  free(p);
  return v;
}

/* Compares n complex results with the reference; exact: tolerance 0. Prints up to 6
 * mismatches and fails the test when any. */
static void check(const char *label, gpux_dtype dt, int64_t n, const double *got,
                  const double *want, const double *bound, int64_t k, int exact) {
  int bad = 0;
  const double u = unit_of(dt), tiny = tiny_of(dt);
  for (int64_t i = 0; i < n; i++)
    for (int p = 0; p < 2; p++) {
      const double g = got[2 * i + p], w = want[2 * i + p];
      int ok;
      if (isnan(w)) {
        ok = isnan(g);
      } else if (isinf(w)) {
        ok = g == w;
      } else {
        const double tol =
            exact ? 0.0 : (2.0 * (double)k + 8.0) * u * bound[i] + (double)(k + 2) * tiny;
        ok = fabs(g - w) <= tol;
      }
      if (!ok && bad++ < 6)
        print_message("%s: element %lld %s: got %.17g, want %.17g (bound %.3g)\n", label,
                      (long long)i, p ? "im" : "re", g, w, bound ? bound[i] : 0.0);
    }
  GT_ASSERT(!bad, "%s (%s): %d mismatching components", label, gt_dtype_str(dt), bad);
}

static gpux_complex128 cx(double re, double im) { return gpux_complex128_make(re, im); }

/* One gemm case: C (m x n) = alpha op(A) op(B) + beta C with fresh data; beta == 0 gives a
 * NaN-poisoned C. */
static void gemm_case(gpux_dtype dt, int ta, int tb, int64_t m, int64_t n, int64_t k,
                      gpux_complex128 alpha, gpux_complex128 beta, int smallint, uint64_t seed) {
  const int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  const int64_t sa[2] = {ar, ac}, sb[2] = {br, bc}, sc[2] = {m, n};
  double *a = cdata(dt, ar * ac, seed, smallint), *b = cdata(dt, br * bc, seed + 1, smallint);
  double *c = cdata(dt, m * n, seed + 2, smallint);
  const int beta0 = beta.re == 0 && beta.im == 0;
  gpux_array_t A = upload(dt, 2, sa, a), B = upload(dt, 2, sb, b);
  gpux_array_t C = beta0 ? nan_array(dt, 2, sc) : upload(dt, 2, sc, c);
  /* complex64: alpha and beta rounded per part to float32, as the library does */
  double al[2] = {alpha.re, alpha.im}, be[2] = {beta.re, beta.im};
  if (dt == GPUX_COMPLEX64)
    for (int i = 0; i < 2; i++) {
      al[i] = (float)al[i];
      be[i] = (float)be[i];
    }
  if (alpha.im == 0 && beta.im == 0)
    GT_OK(gpux_gemm(C, (gpux_transpose)ta, (gpux_transpose)tb, alpha.re, A, B, beta.re));
  else
    GT_OK(gpux_gemm_complex(C, (gpux_transpose)ta, (gpux_transpose)tb, alpha, A, B, beta));
  double *want = gt_malloc((size_t)(2 * m * n + 1) * sizeof(double));
  double *bound = gt_malloc((size_t)(m * n + 1) * sizeof(double));
  ref_cgemm(ta, tb, m, n, k, al, a, ac, b, bc, be, beta0 ? NULL : c, n, want, bound);
  double *got = download(C, dt, m * n);
  char label[160];
  static const char ops[] = "NTC";
  snprintf(label, sizeof label, "gemm %c%c %lldx%lldx%lld alpha %g%+gi beta %g%+gi%s", ops[ta],
           ops[tb], (long long)m, (long long)n, (long long)k, alpha.re, alpha.im, beta.re,
           beta.im, smallint ? " (small integers)" : "");
  check(label, dt, m * n, got, want, bound, k, smallint);
  free(a);
  free(b);
  free(c);
  free(want);
  free(bound);
  free(got);
  gpux_array_release(A);
  gpux_array_release(B);
  gpux_array_release(C);
}

static void test_gemm_shapes(void **state) {
  const pcase *pc = *state;
  use_path(pc->path);
  static const int64_t shapes[][3] = {{1, 1, 1},    {1, 7, 1},    {7, 1, 1},  {1, 1, 9},
                                      {67, 33, 129}, {33, 65, 17}, {130, 70, 20}, {3, 5, 0},
                                      {0, 5, 3},    {4, 0, 6}};
  const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
  uint64_t seed = 100;
  for (int s = 0; s < nshapes; s++) {
    const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
    gemm_case(pc->dt, 0, 0, m, n, k, cx(0.5, -1.25), cx(-0.75, 0.5), 0, seed++);
    gemm_case(pc->dt, 2, 1, m, n, k, cx(1.0, 0.0), cx(0.0, 0.0), 0, seed++);
    gemm_case(pc->dt, 1, 2, m, n, k, cx(2.0, -1.0), cx(0.5, 0.0), 1, seed++);
  }
}

static void test_gemm_transposes(void **state) {
  const pcase *pc = *state;
  use_path(pc->path);
  uint64_t seed = 300;
  for (int ta = 0; ta < 3; ta++)
    for (int tb = 0; tb < 3; tb++) {
      gemm_case(pc->dt, ta, tb, 37, 29, 41, cx(-1.5, 0.25), cx(0.0, 1.0), 0, seed++);
      gemm_case(pc->dt, ta, tb, 37, 29, 41, cx(1.0, 1.0), cx(0.0, 0.0), 1, seed++);
    }
}

/* host copy of a view of base (rows x cols, row-major): rows r0 + i*rs, columns c0 + j*cs */
static double *host_view(const double *base, int64_t cols, int64_t r0, int64_t rs, int64_t c0,
                         int64_t cs, int64_t vr, int64_t vc) {
  double *v = gt_malloc((size_t)(2 * vr * vc + 1) * sizeof(double));
  for (int64_t i = 0; i < vr; i++)
    for (int64_t j = 0; j < vc; j++) {
      const int64_t src = (r0 + i * rs) * cols + (c0 + j * cs);
      v[2 * (i * vc + j)] = base[2 * src];
      v[2 * (i * vc + j) + 1] = base[2 * src + 1];
    }
  return v;
}

static void test_gemm_views(void **state) {
  const pcase *pc = *state;
  const gpux_dtype dt = pc->dt;
  use_path(pc->path);
  const int64_t m = 19, n = 23, k = 21;
  const double al[2] = {0.75, -0.5}, be[2] = {1.0, 0.25};
  for (int kind = 0; kind < 3; kind++) {
    /* A (m x k): 0 rows step 2 of (2m, k); 1 columns step 2 of (m, 2k); 2 rows reversed */
    const int64_t abr = kind == 0 ? 2 * m : m, abc = kind == 1 ? 2 * k : k;
    const int64_t sab[2] = {abr, abc};
    double *abase = cdata(dt, abr * abc, 500 + kind, 0);
    gpux_array_t Abase = upload(dt, 2, sab, abase), A = NULL;
    double *a;
    if (kind == 0) {
      GT_OK(gpux_array_slice_axis(&A, Abase, 0, 0, INT64_MAX, 2));
      a = host_view(abase, abc, 0, 2, 0, 1, m, k);
    } else if (kind == 1) {
      GT_OK(gpux_array_slice_axis(&A, Abase, 1, 1, INT64_MAX, 2));
      a = host_view(abase, abc, 0, 1, 1, 2, m, k);
    } else {
      GT_OK(gpux_array_slice_axis(&A, Abase, 0, -1, INT64_MIN, -1));
      a = host_view(abase, abc, m - 1, -1, 0, 1, m, k);
    }
    /* B given as its conjugate transpose: stored n x k */
    const int64_t sb[2] = {n, k}, sc[2] = {m, n};
    double *b = cdata(dt, n * k, 510 + kind, 0), *c = cdata(dt, m * n, 520 + kind, 0);
    gpux_array_t B = upload(dt, 2, sb, b), C = upload(dt, 2, sc, c);
    GT_OK(gpux_gemm_complex(C, GPUX_NO_TRANS, GPUX_CONJ_TRANS, cx(al[0], al[1]), A, B,
                            cx(be[0], be[1])));
    double *want = gt_malloc((size_t)(2 * m * n) * sizeof(double));
    double *bound = gt_malloc((size_t)(m * n) * sizeof(double));
    ref_cgemm(0, 2, m, n, k, al, a, k, b, k, be, c, n, want, bound);
    double *got = download(C, dt, m * n);
    static const char *const what[] = {"A rows step 2", "A columns step 2", "A rows reversed"};
    check(what[kind], dt, m * n, got, want, bound, k, 0);
    free(abase);
    free(a);
    free(b);
    free(c);
    free(want);
    free(bound);
    free(got);
    gpux_array_release(Abase);
    gpux_array_release(A);
    gpux_array_release(B);
    gpux_array_release(C);
  }
  /* C 1 x n with columns step 2: computed as C^T = op(B)^T op(A)^T, where op(B) = B^H turns
   * into conj(B) read without a transpose (the native kernels on every path) */
  for (int beta0 = 0; beta0 < 2; beta0++) {
    /* A stored k x 1, so that op(A) = A^H is 1 x k */
    const int64_t sa[2] = {k, 1}, sb[2] = {n, k}, scb[2] = {1, 2 * n};
    double *a = cdata(dt, k, 530, 0), *b = cdata(dt, n * k, 531, 0);
    double *cb = cdata(dt, 2 * n, 532, 0);
    gpux_array_t A = upload(dt, 2, sa, a), B = upload(dt, 2, sb, b);
    gpux_array_t Cbase = upload(dt, 2, scb, cb), C = NULL;
    GT_OK(gpux_array_slice_axis(&C, Cbase, 1, 0, INT64_MAX, 2));
    double *c = host_view(cb, 2 * n, 0, 1, 0, 2, 1, n);
    const double be2[2] = {beta0 ? 0.0 : -0.5, beta0 ? 0.0 : 2.0};
    GT_OK(gpux_gemm_complex(C, GPUX_CONJ_TRANS, GPUX_CONJ_TRANS, cx(al[0], al[1]), A, B,
                            cx(be2[0], be2[1])));
    double *want = gt_malloc((size_t)(2 * n) * sizeof(double));
    double *bound = gt_malloc((size_t)n * sizeof(double));
    ref_cgemm(2, 2, 1, n, k, al, a, 1, b, k, be2, c, n, want, bound);
    double *gb = download(Cbase, dt, 2 * n);
    double *got = host_view(gb, 2 * n, 0, 1, 0, 2, 1, n);
    check(beta0 ? "C 1 x n step 2, B^H, beta 0" : "C 1 x n step 2, B^H", dt, n, got, want,
          bound, k, 0);
    /* the other columns of C's base are untouched */
    for (int64_t j = 0; j < n; j++)
      GT_ASSERT(gb[2 * (2 * j + 1)] == cb[2 * (2 * j + 1)] &&
                    gb[2 * (2 * j + 1) + 1] == cb[2 * (2 * j + 1) + 1],
                "C's base column %lld was written", (long long)(2 * j + 1));
    free(a);
    free(b);
    free(cb);
    free(c);
    free(want);
    free(bound);
    free(gb);
    free(got);
    gpux_array_release(A);
    gpux_array_release(B);
    gpux_array_release(Cbase);
    gpux_array_release(C);
  }
}

/* ---- matmul: batched with broadcasting, vectors, _into a poisoned output */
static void test_matmul(void **state) {
  const pcase *pc = *state;
  const gpux_dtype dt = pc->dt;
  use_path(pc->path);
  const int64_t m = 9, k = 13, n = 11;
  const double one[2] = {1, 0}, zero[2] = {0, 0};
  { /* (2,1,m,k) @ (3,k,n) -> (2,3,m,n) */
    const int64_t sa[4] = {2, 1, m, k}, sb[3] = {3, k, n};
    double *a = cdata(dt, 2 * m * k, 600, 0), *b = cdata(dt, 3 * k * n, 601, 0);
    gpux_array_t A = upload(dt, 4, sa, a), B = upload(dt, 3, sb, b), O = NULL;
    GT_OK(gpux_matmul(&O, A, B));
    int nd = 0;
    int64_t shape[4];
    GT_OK(gpux_array_ndim(&nd, O));
    GT_OK(gpux_array_shape(shape, O));
    assert_int_equal(nd, 4);
    assert_true(shape[0] == 2 && shape[1] == 3 && shape[2] == m && shape[3] == n);
    double *got = download(O, dt, 6 * m * n);
    double *want = gt_malloc((size_t)(2 * m * n) * sizeof(double));
    double *bound = gt_malloc((size_t)(m * n) * sizeof(double));
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++) {
        ref_cgemm(0, 0, m, n, k, one, a + 2 * i * m * k, k, b + 2 * j * k * n, n, zero, NULL, n,
                  want, bound);
        char label[64];
        snprintf(label, sizeof label, "matmul batch (%d, %d)", i, j);
        check(label, dt, m * n, got + 2 * (i * 3 + j) * m * n, want, bound, k, 0);
      }
    free(a);
    free(b);
    free(got);
    free(want);
    free(bound);
    gpux_array_release(A);
    gpux_array_release(B);
    gpux_array_release(O);
  }
  { /* 1-d @ 2-d, 2-d @ 1-d, and _into a NaN-poisoned output */
    const int64_t sv[1] = {k}, sb[2] = {k, n}, sa[2] = {m, k};
    double *v = cdata(dt, k, 610, 0), *b = cdata(dt, k * n, 611, 0), *a = cdata(dt, m * k, 612, 0);
    gpux_array_t V = upload(dt, 1, sv, v), B = upload(dt, 2, sb, b), A = upload(dt, 2, sa, a);
    gpux_array_t O = NULL;
    double *want = gt_malloc((size_t)(2 * (m > n ? m : n)) * sizeof(double));
    double *bound = gt_malloc((size_t)(m > n ? m : n) * sizeof(double));
    GT_OK(gpux_matmul(&O, V, B));
    double *got = download(O, dt, n);
    ref_cgemm(0, 0, 1, n, k, one, v, k, b, n, zero, NULL, n, want, bound);
    check("matmul (k) @ (k, n)", dt, n, got, want, bound, k, 0);
    free(got);
    gpux_array_release(O);
    const int64_t so[1] = {m};
    O = nan_array(dt, 1, so);
    GT_OK(gpux_matmul_into(O, A, V));
    got = download(O, dt, m);
    ref_cgemm(0, 0, m, 1, k, one, a, k, v, 1, zero, NULL, 1, want, bound);
    check("matmul_into (m, k) @ (k) over NaN", dt, m, got, want, bound, k, 0);
    free(got);
    gpux_array_release(O);
    free(v);
    free(b);
    free(a);
    free(want);
    free(bound);
    gpux_array_release(V);
    gpux_array_release(B);
    gpux_array_release(A);
  }
}

/* ---- gemv */
static void gemv_case(gpux_dtype dt, int ta, int64_t rows, int64_t cols, int xstep,
                      const double al[2], const double be[2], uint64_t seed) {
  const int64_t m = ta ? cols : rows, k = ta ? rows : cols;
  const int64_t sa[2] = {rows, cols}, sxb[1] = {k * xstep}, sy[1] = {m};
  double *a = cdata(dt, rows * cols, seed, 0), *xb = cdata(dt, k * xstep, seed + 1, 0);
  double *y = cdata(dt, m, seed + 2, 0);
  const int beta0 = be[0] == 0 && be[1] == 0;
  gpux_array_t A = upload(dt, 2, sa, a), Xb = upload(dt, 1, sxb, xb), X = NULL;
  GT_OK(gpux_array_slice_axis(&X, Xb, 0, 0, INT64_MAX, xstep));
  gpux_array_t Y = beta0 ? nan_array(dt, 1, sy) : upload(dt, 1, sy, y);
  GT_OK(gpux_gemv_complex(Y, (gpux_transpose)ta, cx(al[0], al[1]), A, X, cx(be[0], be[1])));
  double *x = host_view(xb, k * xstep, 0, 1, 0, xstep, 1, k);
  double *want = gt_malloc((size_t)(2 * m) * sizeof(double));
  double *bound = gt_malloc((size_t)m * sizeof(double));
  ref_cgemm(ta, 0, m, 1, k, al, a, cols, x, 1, be, beta0 ? NULL : y, 1, want, bound);
  double *got = download(Y, dt, m);
  char label[128];
  snprintf(label, sizeof label, "gemv %c %lldx%lld x step %d%s", "NTC"[ta], (long long)rows,
           (long long)cols, xstep, beta0 ? " beta 0 (y NaN)" : "");
  check(label, dt, m, got, want, bound, k, 0);
  free(a);
  free(xb);
  free(y);
  free(x);
  free(want);
  free(bound);
  free(got);
  gpux_array_release(A);
  gpux_array_release(Xb);
  gpux_array_release(X);
  gpux_array_release(Y);
}

static void test_gemv(void **state) {
  const pcase *pc = *state;
  use_path(pc->path);
  const double al[2] = {-0.5, 1.5}, be[2] = {0.25, -1.0}, z[2] = {0, 0};
  for (int ta = 0; ta < 3; ta++) {
    gemv_case(pc->dt, ta, 45, 31, 1, al, be, 700 + (uint64_t)ta * 10);
    gemv_case(pc->dt, ta, 1, 17, 2, al, z, 730 + (uint64_t)ta * 10);
    gemv_case(pc->dt, ta, 33, 1, 2, al, be, 760 + (uint64_t)ta * 10);
  }
  /* about GT_BIG elements once (complex64, native: the vendor path's gemv-shaped GEMM on a
   * CPU device is slow and adds nothing the smaller cases miss) */
  if (pc->dt == GPUX_COMPLEX64 && pc->path == GPUX_GEMM_NATIVE) {
    const int64_t cols = 2051, rows = (GT_BIG + cols - 1) / cols;
    gemv_case(pc->dt, 2, rows, cols, 1, al, be, 800);
  }
}

/* ---- dot, vdot, dot_scalar_complex */
static void test_dot(void **state) {
  const pcase *pc = *state;
  const gpux_dtype dt = pc->dt;
  use_path(pc->path);
  const int big = pc->path == GPUX_GEMM_NATIVE; /* GT_BIG once per dtype */
  const int64_t lens[4] = {1, 7, 1000, GT_BIG};
  const double one[2] = {1, 0}, zero[2] = {0, 0};
  for (int li = 0; li < (big ? 4 : 3); li++) {
    const int64_t len = lens[li], sv[1] = {len};
    double *x = cdata(dt, len, 900 + (uint64_t)li, 0), *y = cdata(dt, len, 910 + (uint64_t)li, 0);
    gpux_array_t X = upload(dt, 1, sv, x), Y = upload(dt, 1, sv, y), O = NULL;
    double want[2], bound[1];
    for (int conj = 0; conj < 2; conj++) {
      GT_OK(conj ? gpux_vdot(&O, X, Y) : gpux_dot(&O, X, Y));
      int nd = -1;
      GT_OK(gpux_array_ndim(&nd, O));
      assert_int_equal(nd, 0);
      double *got = download(O, dt, 1);
      /* x as a 1 x len row (conj: its conjugate transpose, stored len x 1) */
      ref_cgemm(conj ? 2 : 0, 0, 1, 1, len, one, x, conj ? 1 : len, y, 1, zero, NULL, 1, want,
                bound);
      char label[64];
      snprintf(label, sizeof label, "%s length %lld", conj ? "vdot" : "dot", (long long)len);
      check(label, dt, 1, got, want, bound, len, 0);
      free(got);
      gpux_array_release(O);
      O = NULL;
    }
    gpux_complex128 r = cx(NAN, NAN);
    GT_OK(gpux_dot_scalar_complex(&r, X, Y));
    ref_cgemm(0, 0, 1, 1, len, one, x, len, y, 1, zero, NULL, 1, want, bound);
    const double got2[2] = {r.re, r.im};
    check("dot_scalar_complex", dt, 1, got2, want, bound, len, 0);
    double d = 0;
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_dot_scalar(&d, X, Y));
    GT_ASSERT(strstr(gpux_last_error_message(), gpux_dtype_name(dt)) != NULL,
              "dot_scalar: the message does not name %s: \"%s\"", gpux_dtype_name(dt),
              gpux_last_error_message());
    free(x);
    free(y);
    gpux_array_release(X);
    gpux_array_release(Y);
  }
}

/* ---- edge values: NaN, inf and -0.0 inputs */
static void test_edge(void **state) {
  const pcase *pc = *state;
  const gpux_dtype dt = pc->dt;
  use_path(pc->path);
  const int64_t m = 6, n = 5, k = 7, sa[2] = {m, k}, sb[2] = {k, n}, sc[2] = {m, n};
  double *a = cdata(dt, m * k, 1000, 1), *b = cdata(dt, k * n, 1001, 1);
  a[2 * (1 * k + 3)] = NAN;       /* row 1 of A: NaN real part */
  a[2 * (4 * k + 0) + 1] = -0.0;  /* signed zeros */
  a[2 * (4 * k + 1)] = -0.0;
  b[2 * (2 * n + 0)] = INFINITY;  /* column 0 of B: +inf real part, row 2 */
  for (int64_t l = 0; l < k; l++) { /* row 3 of A: all zero but l = 2 (real 1): C[3][0] = inf */
    a[2 * (3 * k + l)] = l == 2 ? 1.0 : 0.0;
    a[2 * (3 * k + l) + 1] = 0.0;
  }
  gpux_array_t A = upload(dt, 2, sa, a), B = upload(dt, 2, sb, b), C = nan_array(dt, 2, sc);
  const double one[2] = {1, 0}, zero[2] = {0, 0};
  GT_OK(gpux_gemm(C, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, A, B, 0.0));
  double *want = gt_malloc((size_t)(2 * m * n) * sizeof(double));
  double *bound = gt_malloc((size_t)(m * n) * sizeof(double));
  ref_cgemm(0, 0, m, n, k, one, a, k, b, n, zero, NULL, n, want, bound);
  double *got = download(C, dt, m * n);
  /* Away from row 1 (the NaN) and column 0 (the inf) everything is exact (small integers,
   * -0.0 among them). Row 1: NaN in both parts (NaN times anything). Column 0: not finite in
   * some part (inf, or NaN from inf * 0 in a cross term; a vendor library may skip the
   * multiplication by alpha = 1, so the exact NaN / inf pattern is not compared). */
  int bad = 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      const double *g = got + 2 * (i * n + j), *w = want + 2 * (i * n + j);
      int ok;
      if (i == 1) ok = isnan(g[0]) && isnan(g[1]);
      else if (j == 0) ok = !isfinite(g[0]) || !isfinite(g[1]);
      else ok = g[0] == w[0] && g[1] == w[1];
      if (!ok && bad++ < 6)
        print_message("C[%lld][%lld] = %g%+gi, reference %g%+gi\n", (long long)i, (long long)j,
                      g[0], g[1], w[0], w[1]);
    }
  GT_ASSERT(!bad, "NaN / inf / -0.0 inputs: %d wrong entries", bad);
  /* C[3][0]: the row of A is the real unit e_2, the product (inf, NaN) (1 inf - 0 b_im,
   * 1 b_im + 0 inf), and alpha (1, 0) times it NaN in both parts: naive complex arithmetic,
   * as BLAS; the reference agrees */
  GT_ASSERT(isnan(want[2 * (3 * n)]), "reference C[3][0] = %g", want[2 * (3 * n)]);
  free(a);
  free(b);
  free(want);
  free(bound);
  free(got);
  gpux_array_release(A);
  gpux_array_release(B);
  gpux_array_release(C);
  /* products past the component's range overflow (no scaling, as cgemm / zgemm): (3e19)^2 =
   * 9e38 > FLT_MAX, 1e160^2 in complex128. The native kernels' naive formulas give +inf in
   * the real part; a vendor library only a part that is not finite (cuBLAS's cgemm on the
   * H100 gives NaN + NaN i: its internal order meets an inf * 0) */
  const double big = dt == GPUX_COMPLEX64 ? 3e19 : 1e160;
  const double hb[2] = {big, 0.0};
  const int64_t s11[2] = {1, 1};
  gpux_array_t X = upload(dt, 2, s11, hb), Y = nan_array(dt, 2, s11);
  GT_OK(gpux_gemm(Y, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, X, X, 0.0));
  double *gy = download(Y, dt, 1);
  if (pc->path == GPUX_GEMM_VENDOR)
    GT_ASSERT(!isfinite(gy[0]), "(%g)^2 in %s: %g%+gi, want a real part that is not finite",
              big, gt_dtype_str(dt), gy[0], gy[1]);
  else
    GT_ASSERT(gy[0] == INFINITY, "(%g)^2 in %s: %g%+gi, want +inf real part", big,
              gt_dtype_str(dt), gy[0], gy[1]);
  free(gy);
  gpux_array_release(X);
  gpux_array_release(Y);
}

/* ---- auto path: whatever it resolves to, the result is right */
static void test_auto(void **state) {
  const pcase *pc = *state;
  use_path(GPUX_GEMM_AUTO);
  gemm_case(pc->dt, 2, 0, 40, 36, 50, cx(0.5, 0.5), cx(1.0, -1.0), 0, 1100);
  gemm_case(pc->dt, 0, 2, 40, 36, 50, cx(1.0, 0.0), cx(0.0, 0.0), 1, 1101);
}

/* ---- errors */
static void test_errors(void **state) {
  (void)state;
  use_path(GPUX_GEMM_AUTO);
  const int64_t s2[2] = {3, 3}, s1[1] = {3};
  gpux_array_t c64 = NULL, c128 = NULL, f32 = NULL, v64 = NULL, o = NULL;
  GT_OK(gpux_array_ones(&c64, gt_ctx, GPUX_COMPLEX64, 2, s2));
  GT_OK(gpux_array_ones(&f32, gt_ctx, GPUX_FLOAT32, 2, s2));
  GT_OK(gpux_array_ones(&v64, gt_ctx, GPUX_COMPLEX64, 1, s1));
  const int have128 = gt_dtype_available(GPUX_COMPLEX128);
  if (have128) GT_OK(gpux_array_ones(&c128, gt_ctx, GPUX_COMPLEX128, 2, s2));
  /* mixed dtypes */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH,
            gpux_gemm(c64, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, c64, f32, 0));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_matmul(&o, f32, c64));
  assert_null(o);
  if (have128) {
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH,
              gpux_gemm(c64, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, c64, c128, 0));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_matmul(&o, c128, c64));
  }
  /* an imaginary alpha or beta on real operands */
  gpux_array_t fa = NULL, fb = NULL;
  GT_OK(gpux_array_ones(&fa, gt_ctx, GPUX_FLOAT32, 2, s2));
  GT_OK(gpux_array_ones(&fb, gt_ctx, GPUX_FLOAT32, 2, s2));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_gemm_complex(f32, GPUX_NO_TRANS, GPUX_NO_TRANS, cx(1, 1), fa, fb, cx(0, 0)));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_gemm_complex(f32, GPUX_NO_TRANS, GPUX_NO_TRANS, cx(1, 0), fa, fb, cx(0, -2)));
  /* ... a real one is the real product: 2 * (3x3 ones @ ones) + 0 = 6 */
  GT_OK(gpux_gemm_complex(f32, GPUX_NO_TRANS, GPUX_NO_TRANS, cx(2, 0), fa, fb, cx(0, 0)));
  float fv[9];
  GT_OK(gpux_array_read(f32, fv, sizeof fv));
  for (int i = 0; i < 9; i++) GT_ASSERT(fv[i] == 6.0f, "gemm_complex on float32: %g", fv[i]);
  /* GPUX_CONJ_TRANS on real dtypes is GPUX_TRANS */
  const int64_t s23[2] = {2, 3}, s22[2] = {2, 2};
  const float av[6] = {1, 2, 3, 4, 5, 6};
  gpux_array_t ra = NULL, rc = NULL;
  GT_OK(gpux_array_from_host(&ra, gt_ctx, GPUX_FLOAT32, 2, s23, av));
  GT_OK(gpux_array_zeros(&rc, gt_ctx, GPUX_FLOAT32, 2, s22));
  GT_OK(gpux_gemm(rc, GPUX_NO_TRANS, GPUX_CONJ_TRANS, 1.0, ra, ra, 0.0));
  float rv[4];
  GT_OK(gpux_array_read(rc, rv, sizeof rv));
  GT_ASSERT(rv[0] == 14 && rv[1] == 32 && rv[2] == 32 && rv[3] == 77,
            "A A^H of a float32 A: [[%g, %g], [%g, %g]], want [[14, 32], [32, 77]]", rv[0], rv[1],
            rv[2], rv[3]);
  /* a transpose value that is none of the three */
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_gemm(c64, (gpux_transpose)3, GPUX_NO_TRANS, 1, c64, c64, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_gemv_complex(v64, (gpux_transpose)-1, cx(1, 0), c64, v64, cx(0, 0)));
  /* shapes: the message names them (and ^H for a conjugate transpose) */
  const int64_t s32[2] = {3, 2};
  gpux_array_t c32 = NULL;
  GT_OK(gpux_array_ones(&c32, gt_ctx, GPUX_COMPLEX64, 2, s32));
  gpux_array_t b64 = NULL;
  GT_OK(gpux_array_ones(&b64, gt_ctx, GPUX_COMPLEX64, 2, s2));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH,
            gpux_gemm_complex(c64, GPUX_CONJ_TRANS, GPUX_NO_TRANS, cx(1, 0), c32, b64, cx(0, 0)));
  gpux_array_release(b64);
  GT_ASSERT(strstr(gpux_last_error_message(), "^H") != NULL, "no ^H in \"%s\"",
            gpux_last_error_message());
  /* NULL outputs */
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_dot_scalar_complex(NULL, v64, v64));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_vdot(NULL, v64, v64));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_vdot(&o, c64, c64));
  /* dot_scalar_complex of real operands: (x, 0) */
  gpux_array_t r1 = NULL;
  const float r1v[3] = {1, 2, 3};
  GT_OK(gpux_array_from_host(&r1, gt_ctx, GPUX_FLOAT32, 1, s1, r1v));
  gpux_complex128 z = cx(NAN, NAN);
  GT_OK(gpux_dot_scalar_complex(&z, r1, r1));
  GT_ASSERT(z.re == 14 && z.im == 0, "dot_scalar_complex of float32: %g%+gi", z.re, z.im);
  /* the context still works */
  gt_smoke(gt_ctx);
  gpux_array_release(c64);
  gpux_array_release(c128);
  gpux_array_release(f32);
  gpux_array_release(v64);
  gpux_array_release(fa);
  gpux_array_release(fb);
  gpux_array_release(ra);
  gpux_array_release(rc);
  gpux_array_release(c32);
  gpux_array_release(r1);
}

int main(void) {
  gt_init("test_complex_gemm");
  static const struct {
    const char *name;
    CMUnitTestFunction f;
  } fams[] = {{"gemm_shapes", test_gemm_shapes}, {"gemm_transposes", test_gemm_transposes},
              {"gemm_views", test_gemm_views},   {"matmul", test_matmul},
              {"gemv", test_gemv},               {"dot", test_dot},
              {"edge", test_edge}};
  enum { NF = sizeof fams / sizeof fams[0] };
  static pcase cases[2][3];
  static char names[2 * (NF * 2 + 1) + 1][96];
  struct CMUnitTest tests[2 * (NF * 2 + 1) + 1];
  size_t n = 0;
  for (int d = 0; d < 2; d++) {
    const gpux_dtype dt = d ? GPUX_COMPLEX128 : GPUX_COMPLEX64;
    if (!gt_dtype_available(dt)) {
      print_message("%s: no fp64 on this device, skipped\n", gt_dtype_str(dt));
      continue;
    }
    for (int p = 0; p < 2; p++) {
      cases[d][p] = (pcase){dt, k_paths[p]};
      for (int f = 0; f < NF; f++) {
        snprintf(names[n], sizeof names[n], "%s_%s_%s", fams[f].name, gt_dtype_str(dt),
                 k_path_names[k_paths[p]]);
        tests[n] = (struct CMUnitTest){names[n], fams[f].f, NULL, NULL, &cases[d][p]};
        n++;
      }
    }
    cases[d][2] = (pcase){dt, GPUX_GEMM_AUTO};
    snprintf(names[n], sizeof names[n], "auto_%s", gt_dtype_str(dt));
    tests[n] = (struct CMUnitTest){names[n], test_auto, NULL, NULL, &cases[d][2]};
    n++;
  }
  tests[n++] = (struct CMUnitTest){"errors", test_errors, NULL, NULL, NULL};
  int failed = gt_run("complex_gemm", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
