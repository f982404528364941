/* gpux tests: plain-C reference, computed in double precision for floats and bit-exactly
 * for integers, following the semantics listed in kernels/common/gpux_kernels.h.
 *
 * Values travel as ref_value: .f for float32/float64 (the exact double-precision result,
 * not rounded to float32: the comparison rounds), .i for int32/int64/uint8/bool (the exact
 * value of the result type: int32 sign-extended, uint8 0..255, bool 0 or 1).
 * The interface depends only on the public enums of include/gpux; ref.c also reads the
 * chunk and tile sizes and kind ids of kernels/common/gpux_kernels.h (checked at compile
 * time). */
#ifndef GPUX_TEST_REF_H
#define GPUX_TEST_REF_H
#include <stddef.h>
#include <stdint.h>
#include "gpux/array.h"
#include "gpux/elementwise.h"
#include "gpux/reduce.h"

typedef union ref_value {
  double f;
  int64_t i;
} ref_value;

int ref_dtype_is_float(gpux_dtype dt); /* float32, float64, float16, bfloat16 */
int ref_dtype_is_int(gpux_dtype dt);   /* the integer dtypes (not bool) */
/* Integers are held in ref_value.i as int64; uint64 as its bits (values beyond INT64_MAX
 * negative): ref_int_lt compares two values of dt, ref_int_to_double converts one. */
int ref_int_lt(gpux_dtype dt, int64_t a, int64_t b);
double ref_int_to_double(gpux_dtype dt, int64_t x);
int ref_dtype_is_half(gpux_dtype dt);  /* float16, bfloat16 */
size_t ref_dtype_size(gpux_dtype dt);
/* Element i of a host buffer of dtype dt (bool: the raw byte). */
ref_value ref_load(gpux_dtype dt, const void *p, int64_t i);
/* The same element as a double (p need not be aligned): floats exact, integers as
 * ref_int_to_double gives them, bool the raw byte. */
double ref_load_f64(gpux_dtype dt, const void *p, int64_t i);
/* Stores v (already a value of dt) into element i; floats are rounded to dt. */
void ref_store(gpux_dtype dt, void *p, int64_t i, ref_value v);
/* Reduces an integer computed modulo 2^64 to dt (two's complement wrap; bool: != 0). */
int64_t ref_wrap(gpux_dtype dt, uint64_t u);
int64_t ref_int_min(gpux_dtype dt);
int64_t ref_int_max(gpux_dtype dt);

/* Which ops exist for which dtype (the lists of gpux_kernels.h) and the result dtype. */
int ref_binary_supported(gpux_binary_op op, gpux_dtype dt);
int ref_unary_supported(gpux_unary_op op, gpux_dtype dt); /* with GPUX_UNARY_FRONT_OPS */
int ref_unary_has_kernel(gpux_unary_op op, gpux_dtype dt);  /* the kernel lists alone */
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

/* ---- float16 / bfloat16 (hdt: GPUX_FLOAT16 or GPUX_BFLOAT16; values are uint16_t bit
 * patterns). ref_load gives their exact value in .f, ref_store rounds .f to them.
 * To a half: the exact value rounded once to nearest even (subnormals kept, overflow ->
 * +-inf, -0.0 kept); NaN -> sign | all-ones exponent | quiet bit | the leading payload bits.
 * From a half: exact; NaN -> a quiet NaN with the payload shifted up (float32:
 * sign | 0x7fc00000 | m << (23 - mb); float64: the float32 NaN widened the same way). */
uint16_t ref_half_from_f64(gpux_dtype hdt, double x);
uint16_t ref_half_from_f32(gpux_dtype hdt, float x);
uint16_t ref_half_from_i64(gpux_dtype hdt, int64_t x);
uint16_t ref_half_from_u64(gpux_dtype hdt, uint64_t x);
float ref_half_to_f32(gpux_dtype hdt, uint16_t h);
double ref_half_to_f64(gpux_dtype hdt, uint16_t h);
/* The bytes gpux_array_cast writes for n elements (any pair of dtypes; for pairs that
 * involve a half dtype every bit, NaN payloads included, is specified): halves -> integers
 * through float32, halves -> bool (bits & 0x7fff) != 0, half -> half through float32. */
void ref_cast_bits(gpux_dtype from, gpux_dtype to, int64_t n, const void *src, void *dst);

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

/* ---- reductions and scans
 * Two references:
 *  - canonical (ref_reduce_canon*, ref_scan_canon): the exact bits of THE CANONICAL ORDER and
 *    THE CANONICAL SCAN of kernels/common/gpux_kernels.h, in the accumulator dtype (float32
 *    math in float, never contracted into an FMA: ref.c is compiled with -ffp-contract=off),
 *    with the passes chained as src/api/reduce.c chains them (pass 1 over len, then passes
 *    over the ceil(len / 4096) partials with the next kind, the post op in the last pass).
 *    Results must equal these bit for bit on every backend.
 *  - precise (ref_reduce_precise*, ref_scan_precise): serial, in long double with
 *    compensated (Neumaier) sums, for the tolerance checks; integer results exact. */
/* Kernel kinds: the ids of GPUX_REDUCE_KINDS (checked against the header in ref.c). */
typedef enum ref_rkind {
  REF_RK_SUM = 0,
  REF_RK_PROD = 1,
  REF_RK_MIN = 2,
  REF_RK_MAX = 3,
  REF_RK_ARGMIN = 4,
  REF_RK_ARGMAX = 5,
  REF_RK_ARGMIN_P = 6,
  REF_RK_ARGMAX_P = 7,
  REF_RK_ANY = 8,
  REF_RK_ALL = 9,
  REF_RK_CNT = 10,
  REF_RK_ASUM = 11,
  REF_RK_SSQ = 12,
  REF_RK_SSD = 13,
  REF_RK_AMAX = 14
} ref_rkind;
/* post ops (GPUX_POST_*) */
#define REF_POST_NONE 0
#define REF_POST_DIV 1
#define REF_POST_SQRT 2
#define REF_POST_DIV_SQRT 3

/* Result dtype of a public op on dt as include/gpux/reduce.h documents it; 0 when the op
 * does not take dt. */
int ref_reduce_result(gpux_reduce_op op, gpux_dtype dt, gpux_dtype *rdt);
/* The accumulator (= output) dtype of a kernel kind on input dtype dt, and the kind that
 * combines its partials (sum -> sum, cnt/asum/ssq/ssd -> sum, amax -> max, argmin ->
 * argmin_p, ...). */
gpux_dtype ref_rkind_acc(ref_rkind kind, gpux_dtype dt);
ref_rkind ref_rkind_next(ref_rkind kind);

/* One kernel pass over one output's sequence x[0..len) (dtype dt; argmin_p/argmax_p also
 * read idx_in), len >= 1: writes nparts = ceil(len / 4096) values (accumulator dtype) to out
 * and, for the arg kinds, their indices to idx_out; the post op applies when nparts == 1.
 * aux: the mean (ssd only; a value of dt). Returns nparts. */
int64_t ref_reduce_pass(ref_rkind kind, gpux_dtype dt, int64_t len, const void *x,
                        const int64_t *idx_in, double aux, int post, double post_div,
                        void *out, int64_t *idx_out);
/* Passes chained until one value remains: *out (one value of the accumulator dtype) and
 * *idx (arg kinds; may be NULL otherwise). len >= 1. */
void ref_reduce_chain(ref_rkind kind, gpux_dtype dt, int64_t len, const void *x, double aux,
                      int post, double post_div, void *out, int64_t *idx);

/* A public op over the sequence x[0..n) (dtype dt) as the front end runs it: integers
 * converted to float64 for mean/var/std/norms; mean = sum with DIV n; var/std: the mean,
 * then ssd with DIV (DIV_SQRT) max(n - ddof, 0); L2 = ssq with SQRT; argmin/argmax give the
 * int64 position. Writes one value of the result dtype to out (n == 0: the empty value:
 * 0, 1, false, true, NaN). Returns 0, or -1 when n == 0 and the op has no identity (min, max,
 * argmin, argmax, norm_max) or op/dt is unsupported. */
int ref_reduce_canon(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, int64_t ddof,
                     void *out);
/* The same in double/long double serially (see above): *val in result-dtype terms (.f: the
 * value before rounding to the result dtype; .i: exact), *sumabs = sum |x| of the elements
 * as the op sees them (after conversion to float64 for integer inputs). */
int ref_reduce_precise(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, int64_t ddof,
                       ref_value *val, double *sumabs);

/* A reduction of a contiguous row-major array x (ndim, shape) over the axes with red[d] != 0:
 * each output (kept axes, row-major) reduces its elements in row-major order of the reduced
 * axes. out: n_out values of the result dtype; val/sumabs: n_out entries (either may be
 * NULL). Return -1 as the one-sequence forms (n_red == 0 with n_out > 0 and no identity). */
int ref_reduce_axes_canon(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                          const void *x, const int *red, int64_t ddof, void *out);
int ref_reduce_axes_precise(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                            const void *x, const int *red, int64_t ddof, ref_value *val,
                            double *sumabs);

/* Scans of rows x len contiguous elements (dtype dt), out in the accumulator dtype (float32,
 * float64, int64 for integer inputs), inclusive or exclusive. */
gpux_dtype ref_scan_result(gpux_dtype dt);
void ref_scan_canon(gpux_scan_op op, gpux_dtype dt, int64_t rows, int64_t len, const void *x,
                    int exclusive, void *out);
/* Serial long double (sum: compensated; integers exact, wrapping); sumabs: the sum of |x|
 * over the elements each result combines (cumsum) or 0 (may be NULL). */
void ref_scan_precise(gpux_scan_op op, gpux_dtype dt, int64_t rows, int64_t len, const void *x,
                      int exclusive, ref_value *val, double *sumabs);

/* Number of rounded operations on the longest path from an element to the result of the
 * canonical reduction of len elements (the tree depth that bounds the rounding error). */
int ref_reduce_depth(int64_t len);

/* ---- matrix products (issue 4; tests/test_gemm.c)
 * One GEMM, row-major as BLAS on row-major data: out[i * n + j] (dense, m x n) =
 * alpha * sum_l op(A)[i, l] * op(B)[l, j] + beta * C[i, j], where op(A)[i, l] is
 * a[i * lda + l] (ta == 0) or a[l * lda + i] (ta != 0), op(B)[l, j] is b[l * ldb + j] (tb == 0)
 * or b[j * ldb + l], C[i, j] is c[i * ldc + j]. dt: float32, float64, int32 or int64 (the
 * dtype of a, b and c).
 *  - floats: long double sums, the exact value in .f (not rounded to dt); alpha and beta are
 *    taken in dt's precision (float32: rounded to float, the compute type); beta == 0: c is
 *    not read (may be NULL). sumabs (optional, m * n): |alpha| sum_l |op(A)[i,l] op(B)[l,j]|
 *    + |beta C[i, j]|, the scale of the rounding errors.
 *  - integers: alpha and beta converted as casts convert (ref_from_double), everything wraps
 *    (two's complement, modulo 2^bits), exact; beta converted to 0: c is not read. sumabs,
 *    when given, is set to 0. */
void ref_gemm(gpux_dtype dt, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
              const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
              const void *c, int64_t ldc, ref_value *out, double *sumabs);

#endif
