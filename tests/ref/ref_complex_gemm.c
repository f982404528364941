/* gpux tests: the complex GEMM reference (ref_complex_gemm.h). */
#include "ref_complex_gemm.h"

#include <math.h>

typedef struct lc {
  long double re, im;
} lc;

static lc lc_mul(lc x, lc y) {
  lc r = {x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
  return r;
}

/* element (r, s) of op(X): X[r ld + s] without a transpose */
static lc op_at(const double *x, int op, int64_t ld, int64_t r, int64_t s) {
  const int64_t idx = op == 0 ? r * ld + s : s * ld + r;
  lc v = {x[2 * idx], x[2 * idx + 1]};
  if (op == 2) v.im = -v.im;
  return v;
}

static long double lc_abs1(lc v) { return fabsl(v.re) + fabsl(v.im); }

void ref_cgemm(int ta, int tb, int64_t m, int64_t n, int64_t k, const double alpha[2],
               const double *a, int64_t lda, const double *b, int64_t ldb,
               const double beta[2], const double *c, int64_t ldc, double *out, double *bound) {
  const lc al = {alpha[0], alpha[1]}, be = {beta[0], beta[1]};
  const int read_c = beta[0] != 0 || beta[1] != 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      lc s = {0, 0};
      long double sa = 0;
      for (int64_t l = 0; l < k; l++) {
        const lc x = op_at(a, ta, lda, i, l), y = op_at(b, tb, ldb, l, j);
        const lc p = lc_mul(x, y);
        s.re += p.re;
        s.im += p.im;
        sa += lc_abs1(x) * lc_abs1(y);
      }
      /* k == 0: alpha * 0 (alpha unused, as BLAS: C = beta C) */
      lc r = k > 0 ? lc_mul(al, s) : (lc){0, 0};
      long double bnd = lc_abs1(al) * sa;
      if (read_c) {
        const lc cv = {c[2 * (i * ldc + j)], c[2 * (i * ldc + j) + 1]};
        const lc bc = lc_mul(be, cv);
        r.re += bc.re;
        r.im += bc.im;
        bnd += lc_abs1(be) * lc_abs1(cv);
      }
      out[2 * (i * n + j)] = (double)r.re;
      out[2 * (i * n + j) + 1] = (double)r.im;
      if (bound) bound[i * n + j] = (double)bnd;
    }
}
