/* gpux tests: the CPU reference of the complex matrix products (tests/test_complex_gemm.c).
 * Complex numbers are (re, im) pairs of double (the device's complex64 values are exact in
 * double); sums run in long double. */
#ifndef GPUX_TEST_REF_COMPLEX_GEMM_H
#define GPUX_TEST_REF_COMPLEX_GEMM_H
#include <stdint.h>

/* op codes of ref_cgemm: as gpux_transpose */
#define REF_OP_N 0
#define REF_OP_T 1
#define REF_OP_C 2 /* conjugate transpose */

/* One complex GEMM, row-major: out[2 (i n + j) + {0, 1}] =
 *   alpha * sum_l op(A)[i, l] op(B)[l, j] + beta * C[i, j]
 * where op(A)[i, l] is A[i lda + l] (N), A[l lda + i] (T) or conj(A[l lda + i]) (C), element
 * x of a complex array p being (p[2x], p[2x + 1]); B likewise with ldb; C[i, j] = c[i ldc + j].
 * The sum is exact to long double precision (products and sums in long double), then
 * alpha * sum + beta * C in long double, rounded once to double. beta == 0 (both parts): c is
 * not read (may be NULL). bound (optional, m x n): |alpha| sum_l |op(A)[i,l]| |op(B)[l,j]| +
 * |beta| |C[i, j]| with |z| = |re| + |im| (>= the modulus): the scale of the rounding errors
 * of any summation order. */
void ref_cgemm(int ta, int tb, int64_t m, int64_t n, int64_t k, const double alpha[2],
               const double *a, int64_t lda, const double *b, int64_t ldb,
               const double beta[2], const double *c, int64_t ldc, double *out, double *bound);

#endif
