/* gpux: reductions (sum, prod, min, max, argmin, argmax, any, all, count_nonzero, mean,
 * var, std, norms) and scans (cumsum, cumprod), with NumPy's semantics.
 *
 * Axes: `axes` lists naxes axes to reduce (negative values count from the end; no repeats);
 * naxes == GPUX_ALL_AXES (axes may be NULL) reduces over every axis; naxes == 0 reduces over
 * none (each element alone). keepdims keeps the reduced axes with length 1. A 0-d array has
 * no axes: an axis (0 or -1 included) is GPUX_ERROR_INVALID_AXIS, as NumPy's AxisError.
 * argmin/argmax take one axis or GPUX_ALL_AXES (then the index is the flat row-major index).
 *
 * Result dtypes (gpux_reduce_result_dtype): sum and prod of integers accumulate in and
 * return int64 (unsigned ones narrower than 64 bits too, as PyTorch; NumPy gives uint64),
 * uint64's return uint64 (both wrap modulo 2^64); min, max: the input dtype; argmin, argmax, count_nonzero: int64;
 * any, all: bool; mean, var, std, norms: the input dtype for floats, float64 for integers
 * (converted to float64 first). float16 and bfloat16 inputs are widened to float32 and
 * reduced in float32 (accumulators, partial results, the mean of var/std), and the float32
 * result is rounded once to the input dtype, as PyTorch does. Supported inputs: the float
 * and integer dtypes; any, all and count_nonzero also take bool (GPUX_ERROR_UNSUPPORTED_DTYPE
 * otherwise).
 *
 * Complex (complex64, complex128): sum, prod and mean return the input dtype (sum adds each
 * part; prod is (ar*br - ai*bi, ar*bi + ai*br), each product and sum rounded, an operand
 * equal to 1 + 0i leaving the other unchanged; mean divides each part as the component
 * dtype's mean does); any, all and count_nonzero test re != 0 || im != 0 (NaN is nonzero);
 * var and std return the component dtype (NumPy): the mean of |x - mean|^2 =
 * (re - mr)^2 + (im - mi)^2. min, max, argmin, argmax and the norms reject complex
 * (GPUX_ERROR_UNSUPPORTED_DTYPE: complex numbers have no order; take the real part, the
 * imaginary part or the magnitude first). Empty: sum 0, prod 1, mean NaN in both parts.
 * The canonical order holds with these combine ops, so complex results are bit-identical
 * across backends too. gpux_reduce_scalar refuses complex results: use
 * gpux_reduce_scalar_complex.
 *
 * Determinism: every result is computed in one documented order that depends only on the
 * shape (docs/reductions.md), so the same input gives the same bits on every run, on every
 * backend and device, CUDA, OpenCL on a GPU and pocl alike. float32 sums are tree sums:
 * the error of a sum of 2^28 values stays near float32 rounding.
 *
 * NaN and empty cases follow NumPy: sum, mean, min and max propagate NaN; argmin/argmax
 * return the first NaN. Reducing nothing gives 0 (sum, count_nonzero, norms L1/L2), 1 (prod),
 * false (any), true (all), NaN (mean, var, std); min, max, argmin, argmax and the max norm
 * of nothing fail with GPUX_ERROR_INVALID_ARGUMENT ("... has no identity").
 * var/std divide by max(n - ddof, 0) as NumPy does (n - ddof <= 0 gives inf or NaN).
 *
 * Like elementwise ops, every call queues its work and returns at once; the _into forms
 * write into an existing array of the result shape and dtype (which may be a strided view
 * and must not overlap the input). The _scalar forms reduce everything and return the value
 * to the host in one call (they wait for the result). */
#ifndef GPUX_REDUCE_H
#define GPUX_REDUCE_H
#include "array.h"

/* Values are stable ABI. */
typedef enum gpux_reduce_op {
  GPUX_REDUCE_SUM = 0,
  GPUX_REDUCE_PROD = 1,
  GPUX_REDUCE_MIN = 2,
  GPUX_REDUCE_MAX = 3,
  GPUX_REDUCE_ARGMIN = 4,
  GPUX_REDUCE_ARGMAX = 5,
  GPUX_REDUCE_ANY = 6,
  GPUX_REDUCE_ALL = 7,
  GPUX_REDUCE_COUNT_NONZERO = 8,
  GPUX_REDUCE_MEAN = 9,
  GPUX_REDUCE_VAR = 10, /* ddof 0; gpux_var for others */
  GPUX_REDUCE_STD = 11,
  GPUX_REDUCE_NORM_L1 = 12,  /* sum |x| */
  GPUX_REDUCE_NORM_L2 = 13,  /* sqrt(sum x^2), not rescaled (as numpy.linalg.norm) */
  GPUX_REDUCE_NORM_MAX = 14  /* max |x| */
} gpux_reduce_op;
#define GPUX_REDUCE_OP_COUNT 15

typedef enum gpux_scan_op { GPUX_SCAN_SUM = 0, GPUX_SCAN_PROD = 1 } gpux_scan_op;

#ifdef __cplusplus
extern "C" {
#endif

GPUX_API const char *gpux_reduce_op_name(gpux_reduce_op op); /* "sum", ...; NULL if unknown */
/* The result dtype of op on dt; GPUX_ERROR_UNSUPPORTED_DTYPE if op does not take dt. */
GPUX_API gpux_status gpux_reduce_result_dtype(gpux_dtype *out, gpux_reduce_op op, gpux_dtype dt);

GPUX_API gpux_status gpux_reduce(gpux_array_t *out, gpux_reduce_op op, gpux_array_t a,
                                 const int *axes, int naxes, int keepdims);
GPUX_API gpux_status gpux_reduce_into(gpux_array_t out, gpux_reduce_op op, gpux_array_t a,
                                      const int *axes, int naxes, int keepdims);
/* Variance and standard deviation with NumPy's ddof (delta degrees of freedom, >= 0). */
GPUX_API gpux_status gpux_var(gpux_array_t *out, gpux_array_t a, const int *axes, int naxes,
                              int64_t ddof, int keepdims);
GPUX_API gpux_status gpux_var_into(gpux_array_t out, gpux_array_t a, const int *axes,
                                   int naxes, int64_t ddof, int keepdims);
GPUX_API gpux_status gpux_std(gpux_array_t *out, gpux_array_t a, const int *axes, int naxes,
                              int64_t ddof, int keepdims);
GPUX_API gpux_status gpux_std_into(gpux_array_t out, gpux_array_t a, const int *axes,
                                   int naxes, int64_t ddof, int keepdims);

/* Over every element, the value returned to the host. *value is the result converted to
 * double (exact for float results; integers beyond 2^53 round: use the _i64 form). */
GPUX_API gpux_status gpux_reduce_scalar(double *value, gpux_reduce_op op, gpux_array_t a);
/* For ops with an integer or bool result (sum/prod of integers, min/max of integers, argmin,
 * argmax, any, all, count_nonzero); others fail with GPUX_ERROR_UNSUPPORTED_DTYPE. A value
 * the form's type cannot hold (a uint64 result beyond INT64_MAX for _i64, a negative one for
 * _u64) fails with GPUX_ERROR_INVALID_ARGUMENT. */
GPUX_API gpux_status gpux_reduce_scalar_i64(int64_t *value, gpux_reduce_op op, gpux_array_t a);
GPUX_API gpux_status gpux_reduce_scalar_u64(uint64_t *value, gpux_reduce_op op, gpux_array_t a);
/* Any op; the form for complex results (sum, prod, mean of complex64 / complex128, which
 * gpux_reduce_scalar refuses with GPUX_ERROR_UNSUPPORTED_DTYPE): a complex64 result is
 * widened exactly; a real result r comes back as (r, 0), converted as gpux_reduce_scalar
 * converts it. */
GPUX_API gpux_status gpux_reduce_scalar_complex(gpux_complex128 *value, gpux_reduce_op op,
                                                gpux_array_t a);
GPUX_API gpux_status gpux_var_scalar(double *value, gpux_array_t a, int64_t ddof);
GPUX_API gpux_status gpux_std_scalar(double *value, gpux_array_t a, int64_t ddof);

/* Cumulative sum / product along axis (negative counts from the end), inclusive (NumPy's
 * cumsum) or exclusive (element i combines elements 0..i-1; the first is the identity: 1
 * for products, 0 for integer sums, -0.0 for float sums). The result has a's shape; its
 * dtype is a's for floats, int64 for integers (uint64 for uint64). Inputs: the float dtypes
 * (float16 and bfloat16 accumulated in float32, each output rounded once to the dtype) and
 * the integer dtypes; complex64 and complex128 (the complex dtype out; cumsum: each part
 * gets the bits of the component dtype's cumsum of it; cumprod: the complex product of the
 * reductions; an exclusive scan starts with -0.0 - 0.0i or 1 + 0i); bool (int64 out, as
 * NumPy's cumsum and cumprod of bool: the running count of true elements, and 1 until the
 * first false; bool's 0 and 1 scan as uint8's, no kernel of their own; NumPy's
 * np.maximum.accumulate / np.minimum.accumulate of bool (cummax / cummin, bool out) have
 * no gpux op: cumprod of bool holds cummin's values as int64, cumsum > 0 cummax's). The
 * output may be a
 * itself when the dtypes agree. Deterministic as reductions are (docs/reductions.md). */
GPUX_API gpux_status gpux_scan(gpux_array_t *out, gpux_scan_op op, gpux_array_t a, int axis,
                               int exclusive);
GPUX_API gpux_status gpux_scan_into(gpux_array_t out, gpux_scan_op op, gpux_array_t a,
                                    int axis, int exclusive);

/* Named shorthands. */
#define GPUX__RED(name, OP)                                                                  \
  static inline gpux_status gpux_##name(gpux_array_t *out, gpux_array_t a, const int *axes,  \
                                        int naxes, int keepdims) {                           \
    return gpux_reduce(out, OP, a, axes, naxes, keepdims);                                   \
  }                                                                                          \
  static inline gpux_status gpux_##name##_scalar(double *value, gpux_array_t a) {            \
    return gpux_reduce_scalar(value, OP, a);                                                 \
  }
GPUX__RED(sum, GPUX_REDUCE_SUM) GPUX__RED(prod, GPUX_REDUCE_PROD)
GPUX__RED(min, GPUX_REDUCE_MIN) GPUX__RED(max, GPUX_REDUCE_MAX)
GPUX__RED(mean, GPUX_REDUCE_MEAN) GPUX__RED(any, GPUX_REDUCE_ANY)
GPUX__RED(all, GPUX_REDUCE_ALL) GPUX__RED(count_nonzero, GPUX_REDUCE_COUNT_NONZERO)
#undef GPUX__RED
/* axis: one axis or GPUX_ALL_AXES */
static inline gpux_status gpux_argmin(gpux_array_t *out, gpux_array_t a, int axis,
                                      int keepdims) {
  return gpux_reduce(out, GPUX_REDUCE_ARGMIN, a, &axis, axis == GPUX_ALL_AXES ? GPUX_ALL_AXES : 1,
                     keepdims);
}
static inline gpux_status gpux_argmax(gpux_array_t *out, gpux_array_t a, int axis,
                                      int keepdims) {
  return gpux_reduce(out, GPUX_REDUCE_ARGMAX, a, &axis, axis == GPUX_ALL_AXES ? GPUX_ALL_AXES : 1,
                     keepdims);
}
static inline gpux_status gpux_cumsum(gpux_array_t *out, gpux_array_t a, int axis) {
  return gpux_scan(out, GPUX_SCAN_SUM, a, axis, 0);
}
static inline gpux_status gpux_cumprod(gpux_array_t *out, gpux_array_t a, int axis) {
  return gpux_scan(out, GPUX_SCAN_PROD, a, axis, 0);
}

#ifdef __cplusplus
}
#endif
#endif
