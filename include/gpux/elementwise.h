/* gpux: elementwise operations with NumPy broadcasting.
 *
 * Binary operands must have the same dtype (cast first: gpux never promotes silently).
 * Arithmetic ops give that dtype; comparisons and logical ops give GPUX_BOOL.
 * Each op has a form that creates its output (out is a gpux_array_t *) and an _into form
 * that writes into an existing array of exactly the broadcast shape and the result dtype,
 * so a loop allocates nothing. An output may be one of the inputs (in place) but must not
 * partially overlap one. Work is queued and the call returns at once.
 *
 * Undefined and edge cases are defined (kernels/common/gpux_kernels.h has the full list):
 * integer overflow wraps; integer div is floor division and x / 0 == 0; integer mod has the
 * sign of the divisor and x % 0 == 0; integer pow with a negative exponent is 0 unless the
 * base is 1 or -1; minimum/maximum propagate NaN; round is half to even; shifts by a count
 * outside [0, width) give 0 (right_shift of a negative value: -1).
 *
 * Complex arrays (complex64, complex128; docs/semantics.md "Complex elementwise ops") take
 * add, sub, mul, div, pow, eq, ne, the logical ops (x != 0: re != 0 || im != 0), where, and
 * the unary ops neg, conj, exp, log, sqrt, sin, cos, logical_not (complex results), abs,
 * angle, real, imag (results in the component dtype: complex64 -> float32, complex128 ->
 * float64). Their formulas are fixed (NumPy's mul, Smith's division, npy_cpow, FreeBSD's
 * csqrt ...; kernels/common/gpux_kernels.h lists them): add, sub, mul, div, neg, conj, real,
 * imag, eq, ne, where and pow with a small integer exponent give the same bits on every
 * backend; the others are within a few ulp of the result. lt, le, gt, ge, minimum, maximum,
 * mod, the bitwise ops and the other unary ops reject complex (GPUX_ERROR_UNSUPPORTED_DTYPE). */
#ifndef GPUX_ELEMENTWISE_H
#define GPUX_ELEMENTWISE_H
#include "array.h"

typedef enum gpux_binary_op {
  GPUX_ADD = 0, GPUX_SUB = 1, GPUX_MUL = 2, GPUX_DIV = 3, GPUX_POW = 4,
  GPUX_MINIMUM = 5, GPUX_MAXIMUM = 6, GPUX_MOD = 7,
  GPUX_EQ = 8, GPUX_NE = 9, GPUX_LT = 10, GPUX_LE = 11, GPUX_GT = 12, GPUX_GE = 13,
  GPUX_LOGICAL_AND = 14, GPUX_LOGICAL_OR = 15, GPUX_LOGICAL_XOR = 16,
  /* integers and bool (on bool: the logical ops) */
  GPUX_BITWISE_AND = 17, GPUX_BITWISE_OR = 18, GPUX_BITWISE_XOR = 19,
  /* integers: a << b, a >> b (arithmetic for signed types); a count b < 0 or >= the width
   * gives 0, and for right_shift of a negative value -1, as NumPy does */
  GPUX_LEFT_SHIFT = 20, GPUX_RIGHT_SHIFT = 21
} gpux_binary_op;

typedef enum gpux_unary_op {
  GPUX_NEG = 0, GPUX_ABS = 1, GPUX_SIGN = 2, GPUX_RELU = 3,
  GPUX_EXP = 4, GPUX_LOG = 5, GPUX_LOG1P = 6, GPUX_EXPM1 = 7, GPUX_SQRT = 8, GPUX_RSQRT = 9,
  GPUX_SIN = 10, GPUX_COS = 11, GPUX_TAN = 12, GPUX_TANH = 13, GPUX_SIGMOID = 14,
  GPUX_FLOOR = 15, GPUX_CEIL = 16, GPUX_ROUND = 17,
  GPUX_LOGICAL_NOT = 18,
  /* integers: ~x; the number of set bits of x's two's complement, in x's dtype */
  GPUX_BITWISE_NOT = 19, GPUX_POPCOUNT = 20,
  /* complex: re - im i; re; im; atan2(im, re) (real, imag, angle: the component dtype).
   * On real arrays, as NumPy: conj and real give a copy, imag zeros of the dtype, angle (the
   * float dtypes) atan2(+0, x): 0, or pi for x < 0 and -0.0, NaN for NaN. */
  GPUX_CONJ = 21, GPUX_REAL = 22, GPUX_IMAG = 23, GPUX_ANGLE = 24
} gpux_unary_op;

#ifdef __cplusplus
extern "C" {
#endif

GPUX_API const char *gpux_binary_op_name(gpux_binary_op op); /* "add", ...; NULL if unknown */
GPUX_API const char *gpux_unary_op_name(gpux_unary_op op);
/* 1 if op is defined for dtype dt (arithmetic: numeric dtypes; comparisons and logical ops:
 * every dtype; transcendental unary ops: float32 and float64; bitwise and / or / xor:
 * integers and bool; shifts, bitwise_not, popcount: integers; complex: the ops listed at
 * the top of this header). */
GPUX_API int gpux_binary_op_supports(gpux_binary_op op, gpux_dtype dt);
GPUX_API int gpux_unary_op_supports(gpux_unary_op op, gpux_dtype dt);

GPUX_API gpux_status gpux_binary(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                 gpux_array_t b);
GPUX_API gpux_status gpux_binary_into(gpux_array_t out, gpux_binary_op op, gpux_array_t a,
                                      gpux_array_t b);
/* a op s; s is converted to a's dtype as gpux_array_full converts (exact for integers
 * up to 2^53). */
GPUX_API gpux_status gpux_binary_scalar(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                        double s);
GPUX_API gpux_status gpux_binary_scalar_into(gpux_array_t out, gpux_binary_op op,
                                             gpux_array_t a, double s);
/* s op a */
GPUX_API gpux_status gpux_scalar_binary(gpux_array_t *out, gpux_binary_op op, double s,
                                        gpux_array_t a);
GPUX_API gpux_status gpux_scalar_binary_into(gpux_array_t out, gpux_binary_op op, double s,
                                             gpux_array_t a);
/* On a complex array the double-scalar forms above take s + 0i. The forms below take a
 * complex scalar: a complex64 array gets each part rounded to float32 (as a cast from
 * complex128 rounds), a complex128 array s as it is; a real array only a scalar with a zero
 * imaginary part (its real part then as above; otherwise GPUX_ERROR_INVALID_ARGUMENT: the
 * _promote forms below cast the array to complex first). a op s, then s op a. */
GPUX_API gpux_status gpux_binary_scalar_complex(gpux_array_t *out, gpux_binary_op op,
                                                gpux_array_t a, gpux_complex128 s);
GPUX_API gpux_status gpux_binary_scalar_complex_into(gpux_array_t out, gpux_binary_op op,
                                                     gpux_array_t a, gpux_complex128 s);
GPUX_API gpux_status gpux_scalar_complex_binary(gpux_array_t *out, gpux_binary_op op,
                                                gpux_complex128 s, gpux_array_t a);
GPUX_API gpux_status gpux_scalar_complex_binary_into(gpux_array_t out, gpux_binary_op op,
                                                     gpux_complex128 s, gpux_array_t a);
/* The promoting forms (include/gpux/array.h: gpux_result_type): a and b are cast to their
 * result type (temporaries, freed before return) and the op runs on those; the op must be
 * defined for that dtype (bitwise ops on a float result are an error, before any cast).
 * The ops keep gpux's semantics (integer div is floor division, as in the strict forms).
 * _into: out has the op's result dtype for the promoted inputs. */
GPUX_API gpux_status gpux_binary_promote(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                         gpux_array_t b);
GPUX_API gpux_status gpux_binary_promote_into(gpux_array_t out, gpux_binary_op op,
                                              gpux_array_t a, gpux_array_t b);
/* a op s and s op a with s a weak scalar of kind `kind` (gpux_result_type_scalar) */
GPUX_API gpux_status gpux_binary_scalar_promote(gpux_array_t *out, gpux_binary_op op,
                                                gpux_array_t a, gpux_scalar_kind kind,
                                                double s);
GPUX_API gpux_status gpux_scalar_binary_promote(gpux_array_t *out, gpux_binary_op op,
                                                gpux_scalar_kind kind, double s,
                                                gpux_array_t a);
/* a op s and s op a with s a weak complex scalar: a is cast to
 * gpux_result_type_scalar(a's dtype, GPUX_SCALAR_COMPLEX) (a complex dtype stays; float16,
 * bfloat16, float32 give complex64; float64, bool and the integers complex128), then as
 * gpux_binary_scalar_complex. */
GPUX_API gpux_status gpux_binary_scalar_complex_promote(gpux_array_t *out, gpux_binary_op op,
                                                        gpux_array_t a, gpux_complex128 s);
GPUX_API gpux_status gpux_scalar_complex_binary_promote(gpux_array_t *out, gpux_binary_op op,
                                                        gpux_complex128 s, gpux_array_t a);
GPUX_API gpux_status gpux_unary(gpux_array_t *out, gpux_unary_op op, gpux_array_t a);
GPUX_API gpux_status gpux_unary_into(gpux_array_t out, gpux_unary_op op, gpux_array_t a);
/* out = cond ? a : b, broadcasting all three; cond is GPUX_BOOL, a and b share a dtype. */
GPUX_API gpux_status gpux_where(gpux_array_t *out, gpux_array_t cond, gpux_array_t a,
                                gpux_array_t b);
GPUX_API gpux_status gpux_where_into(gpux_array_t out, gpux_array_t cond, gpux_array_t a,
                                     gpux_array_t b);

/* Named shorthands. */
#define GPUX__BIN(name, OP)                                                                  \
  static inline gpux_status gpux_##name(gpux_array_t *out, gpux_array_t a, gpux_array_t b) { \
    return gpux_binary(out, OP, a, b);                                                       \
  }
GPUX__BIN(add, GPUX_ADD) GPUX__BIN(sub, GPUX_SUB) GPUX__BIN(mul, GPUX_MUL)
GPUX__BIN(div, GPUX_DIV) GPUX__BIN(pow, GPUX_POW) GPUX__BIN(minimum, GPUX_MINIMUM)
GPUX__BIN(maximum, GPUX_MAXIMUM) GPUX__BIN(mod, GPUX_MOD)
#undef GPUX__BIN
#define GPUX__UN(name, OP)                                                                   \
  static inline gpux_status gpux_##name(gpux_array_t *out, gpux_array_t a) {                 \
    return gpux_unary(out, OP, a);                                                           \
  }
GPUX__UN(neg, GPUX_NEG) GPUX__UN(abs, GPUX_ABS) GPUX__UN(exp, GPUX_EXP)
GPUX__UN(log, GPUX_LOG) GPUX__UN(sqrt, GPUX_SQRT) GPUX__UN(tanh, GPUX_TANH)
GPUX__UN(sigmoid, GPUX_SIGMOID) GPUX__UN(relu, GPUX_RELU)
#undef GPUX__UN

#ifdef __cplusplus
}
#endif
#endif
