/* gpux tests: plain-C reference, computed in double precision for floats and bit-exactly
 * for integers, following the semantics listed in kernels/common/gpux_kernels.h.
 *
 * Values travel as ref_value: .f for float32/float64 (the exact double-precision result,
 * not rounded to float32: the comparison rounds), .i for int32/int64/uint8/bool (the exact
 * value of the result type: int32 sign-extended, uint8 0..255, bool 0 or 1).
 * The reference depends only on the public enums of include/gpux. */
#ifndef GPUX_TEST_REF_H
#define GPUX_TEST_REF_H
#include <stddef.h>
#include <stdint.h>
#include "gpux/array.h"
#include "gpux/elementwise.h"

typedef union ref_value {
  double f;
  int64_t i;
} ref_value;

int ref_dtype_is_float(gpux_dtype dt);
size_t ref_dtype_size(gpux_dtype dt);
/* Element i of a host buffer of dtype dt (bool: the raw byte). */
ref_value ref_load(gpux_dtype dt, const void *p, int64_t i);
/* Stores v (already a value of dt) into element i; floats are rounded to dt. */
void ref_store(gpux_dtype dt, void *p, int64_t i, ref_value v);
/* Reduces an integer computed modulo 2^64 to dt (two's complement wrap; bool: != 0). */
int64_t ref_wrap(gpux_dtype dt, uint64_t u);
int64_t ref_int_min(gpux_dtype dt);
int64_t ref_int_max(gpux_dtype dt);

/* Which ops exist for which dtype (the lists of gpux_kernels.h) and the result dtype. */
int ref_binary_supported(gpux_binary_op op, gpux_dtype dt);
int ref_unary_supported(gpux_unary_op op, gpux_dtype dt);
gpux_dtype ref_binary_result(gpux_binary_op op, gpux_dtype dt);
gpux_dtype ref_unary_result(gpux_unary_op op, gpux_dtype dt);

/* One element. Inputs are values of dt (see ref_value). */
ref_value ref_binary1(gpux_binary_op op, gpux_dtype dt, ref_value a, ref_value b);
ref_value ref_unary1(gpux_unary_op op, gpux_dtype dt, ref_value a);
/* Conversion rules of gpux_array_cast: float -> int truncates toward zero, saturates,
 * NaN -> 0; int -> int wraps; x -> bool is x != 0; float64 -> float32 rounds to nearest
 * (overflow gives inf). The result is the exact value of `to`. */
ref_value ref_cast1(gpux_dtype from, gpux_dtype to, ref_value v);
/* A double converted to dt as gpux_array_full and the scalar ops convert it. */
ref_value ref_from_double(gpux_dtype dt, double x);

/* Contiguous arrays of n elements (inputs of dtype dt, same shape). */
void ref_binary(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a, const void *b,
                ref_value *out);
/* a op s (scalar_first = 0) or s op a (scalar_first = 1); s converted by ref_from_double. */
void ref_binary_scalar(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a, double s,
                       int scalar_first, ref_value *out);
void ref_unary(gpux_unary_op op, gpux_dtype dt, int64_t n, const void *a, ref_value *out);
void ref_where(gpux_dtype dt, int64_t n, const uint8_t *cond, const void *a, const void *b,
               ref_value *out);
void ref_cast(gpux_dtype from, gpux_dtype to, int64_t n, const void *src, ref_value *out);

/* Creation. Length of arange as NumPy computes it (ceil((stop - start) / step), >= 0). */
int64_t ref_arange_length(double start, double stop, double step);
void ref_arange(gpux_dtype dt, double start, double step, int64_t n, ref_value *out);
void ref_linspace(gpux_dtype dt, double start, double stop, int64_t n, ref_value *out);

/* Python slicing of one dimension of length len: normalizes start (clipping as Python
 * does) and returns the number of elements; step != 0. */
int64_t ref_slice_dim(int64_t len, int64_t start, int64_t stop, int64_t step,
                      int64_t *first);

/* Row-major strides (in elements) of a shape. */
void ref_row_major_strides(int ndim, const int64_t *shape, int64_t *strides);
int64_t ref_shape_size(int ndim, const int64_t *shape);
/* dst (contiguous, shape out_shape) = src (contiguous, src_shape) broadcast NumPy-style;
 * src_ndim <= out_ndim. */
void ref_broadcast(void *dst, const void *src, size_t elem, int out_ndim,
                   const int64_t *out_shape, int src_ndim, const int64_t *src_shape);
/* dst (contiguous) = elements of src at base offset + sum(idx[d] * strides[d]). */
void ref_gather(void *dst, const void *src, size_t elem, int ndim, const int64_t *shape,
                const int64_t *strides, int64_t offset);
/* dst.shape[i] = src.shape[axes[i]] (contiguous both). */
void ref_permute(void *dst, const void *src, size_t elem, int ndim, const int64_t *shape,
                 const int *axes);
/* Broadcast shape of two shapes; returns 0 when they do not broadcast. */
int ref_broadcast_shape(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout,
                        int64_t *sout);

#endif
