/* CPU reference of the complex reductions, scans and normals (issue 23): the exact bits of
 * THE CANONICAL ORDER / THE CANONICAL SCAN of kernels/common/gpux_kernels.h for complex64
 * and complex128, as src/api/reduce.c chains the passes.
 *
 * Elements are interleaved (re, im) of the component dtype (float32 / float64). sum and
 * mean are ref.c's canonical float sums run on each component (the complex combine is
 * componentwise); prod is the fixed complex product (ar*br - ai*bi, ar*bi + ai*br), an
 * operand equal to (1, 0) giving the other unchanged, in the canonical order implemented
 * here; var / std are ref.c's canonical float sum of |x - m|^2 = (re - mr)^2 + (im - mi)^2
 * (each rounded in the component dtype), m the canonical complex mean. This file is built
 * with -ffp-contract=off (no FMA). */
#ifndef GPUX_REF_COMPLEX_RED_H
#define GPUX_REF_COMPLEX_RED_H
#include <stdint.h>
#include "gpux.h"

/* A public op over x[0..n) (complex dtype dt): writes one value of the result dtype
 * (gpux_reduce_result_dtype: complex for sum / prod / mean, bool for any / all, int64 for
 * count_nonzero, the component dtype for var / std) to out. n == 0: sum (0, 0), prod (1, 0),
 * mean (NaN, NaN), any false, all true, count 0, var / std NaN. Returns -1 for the ops
 * complex lacks (min, max, argmin, argmax, norms). */
int refc_reduce_canon(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, int64_t ddof,
                      void *out);
/* The same over the axes with red[d] != 0 of a contiguous row-major array (each output's
 * elements in row-major order of the reduced axes, outputs in row-major order of the kept
 * axes). */
int refc_reduce_axes_canon(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                           const void *x, const int *red, int64_t ddof, void *out);
/* cumsum / cumprod of rows x len contiguous complex elements, out of dtype dt. */
void refc_scan_canon(gpux_scan_op op, gpux_dtype dt, int64_t rows, int64_t len, const void *x,
                     int exclusive, void *out);
/* The serial sum / product in long double, as (re, im) (a sanity check of the canonical
 * reference; sumabs: sum of |re| + |im|). */
void refc_precise(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, long double *re,
                  long double *im, double *sumabs);

#endif
