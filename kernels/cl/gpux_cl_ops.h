/* gpux OpenCL kernels: the arithmetic and math ops of the elementwise family, one function
 * per op and dtype (OpenCL C 1.2). Included by elementwise.cl (the built-in kernels) and by
 * gpux_ew_ops.h (the ops prelude of elementwise expressions: gpux_relu, ...), so both compute
 * with the same definitions. Needs gpux_cl_prelude.h first (GPUX_T_*, GPUX_ASS_*,
 * GPUX_VTYPEDEF, GPUX_HAVE_FP64). */
#ifndef GPUX_CL_OPS_H
#define GPUX_CL_OPS_H

/* ------------------------------------------------------------------ ops
 * Each op of each dtype is a function gpux_binary_<op>_<dt>_fn(a, b) (gpux_unary_..._fn(x))
 * with its result type gpux_binary_<op>_<dt>_rt, so a kernel name prefix is all a kernel
 * macro needs. Op names are only ever pasted, never passed on alone: names such as pow,
 * exp or abs are macros in some OpenCL headers (pocl's). */
#define GPUX_BFN(op, dt, RT)                  \
  typedef RT gpux_binary_##op##_##dt##_rt;    \
  GPUX_VTYPEDEF(RT, gpux_binary_##op##_##dt##_rtv) \
  static inline RT gpux_binary_##op##_##dt##_fn(GPUX_T_##dt a, GPUX_T_##dt b)
#define GPUX_UFN(op, dt, RT)                  \
  typedef RT gpux_unary_##op##_##dt##_rt;     \
  GPUX_VTYPEDEF(RT, gpux_unary_##op##_##dt##_rtv) \
  static inline RT gpux_unary_##op##_##dt##_fn(GPUX_T_##dt x)

/* signed integers: wrap through the unsigned type; division and remainder never divide by
 * 0 or MIN by -1 (pocl traps on both): the divisor is made safe first and the special
 * results are selected after. abs is OpenCL's abs (unsigned |x|, so MIN wraps to MIN): a
 * hand-written select is folded by LLVM into llvm.abs, which oclgrind cannot run; the
 * built-in gives the same bits and the same code on pocl. */
#define GPUX_DEF_BINARY_S(dt, T, U, MIN)                                     \
  GPUX_BFN(add, dt, T) { return GPUX_ASS_##dt((U)a + (U)b); }                \
  GPUX_BFN(sub, dt, T) { return GPUX_ASS_##dt((U)a - (U)b); }                \
  GPUX_BFN(mul, dt, T) { return GPUX_ASS_##dt((U)a * (U)b); }                \
  GPUX_BFN(div, dt, T) {                                                     \
    T d = (b == 0 || (a == MIN && b == -1)) ? (T)1 : b;                      \
    T q = a / d;                                                             \
    T r = a - q * d;                                                         \
    q -= (T)(r != 0 && ((r < 0) != (d < 0)));                                \
    return b == 0 ? (T)0 : q; /* MIN / -1: MIN / 1 */                        \
  }                                                                          \
  GPUX_BFN(mod, dt, T) {                                                     \
    T d = (b == 0 || (a == MIN && b == -1)) ? (T)1 : b;                      \
    T r = a % d;                                                             \
    r = (r != 0 && ((r < 0) != (d < 0))) ? r + d : r;                        \
    return b == 0 ? (T)0 : r; /* MIN % -1: MIN % 1 = 0 */                    \
  }                                                                          \
  GPUX_BFN(pow, dt, T) {                                                     \
    if (b < 0) return a == 1 ? (T)1 : a == -1 ? ((b & 1) ? a : (T)1) : (T)0; \
    U r = 1, x = (U)a, e = (U)b;                                             \
    while (e) {                                                              \
      if (e & 1) r *= x;                                                     \
      x *= x;                                                                \
      e >>= 1;                                                               \
    }                                                                        \
    return GPUX_ASS_##dt(r);                                                 \
  }                                                                          \
  GPUX_BFN(minimum, dt, T) { return a < b ? a : b; }                         \
  GPUX_BFN(maximum, dt, T) { return a > b ? a : b; }                         \
  GPUX_UFN(neg, dt, T) { return GPUX_ASS_##dt((U)0 - (U)x); }                \
  GPUX_UFN(abs, dt, T) { return GPUX_ASS_##dt(abs(x)); }                   \
  GPUX_UFN(sign, dt, T) { return (T)((x > 0) - (x < 0)); }                   \
  GPUX_UFN(relu, dt, T) { return x < 0 ? (T)0 : x; }

GPUX_DEF_BINARY_S(i32, int, uint, INT_MIN)
GPUX_DEF_BINARY_S(i64, long, ulong, LONG_MIN)

/* bits of signed integers (W: the width). Shifts as NumPy defines them: a count outside
 * [0, W) gives 0, and -1 for a negative value shifted right; a left shift wraps through the
 * unsigned type; a right shift is arithmetic, spelled out (C leaves a negative value's
 * right shift to the implementation). */
#define GPUX_DEF_BITS_S(dt, T, U, W)                                                    \
  GPUX_BFN(bitwise_and, dt, T) { return a & b; }                                       \
  GPUX_BFN(bitwise_or, dt, T) { return a | b; }                                        \
  GPUX_BFN(bitwise_xor, dt, T) { return a ^ b; }                                       \
  GPUX_BFN(left_shift, dt, T) {                                                        \
    return (b < 0 || b >= W) ? (T)0 : GPUX_ASS_##dt((U)a << b);                        \
  }                                                                                    \
  GPUX_BFN(right_shift, dt, T) {                                                       \
    if (b < 0 || b >= W) return a < 0 ? (T)-1 : (T)0;                                  \
    return a < 0 ? ~(~a >> b) : a >> b;                                                \
  }                                                                                    \
  GPUX_UFN(bitwise_not, dt, T) { return ~x; }                                          \
  GPUX_UFN(popcount, dt, T) { return popcount(x); }

GPUX_DEF_BITS_S(i32, int, uint, 32)
GPUX_DEF_BITS_S(i64, long, ulong, 64)

/* uint8: wrap by truncation */
GPUX_BFN(add, u8, uchar) { return (uchar)(a + b); }
GPUX_BFN(sub, u8, uchar) { return (uchar)(a - b); }
GPUX_BFN(mul, u8, uchar) { return (uchar)((uint)a * (uint)b); }
GPUX_BFN(div, u8, uchar) {
  uchar d = b == 0 ? (uchar)1 : b;
  return b == 0 ? (uchar)0 : (uchar)(a / d);
}
GPUX_BFN(mod, u8, uchar) {
  uchar d = b == 0 ? (uchar)1 : b;
  return b == 0 ? (uchar)0 : (uchar)(a % d);
}
GPUX_BFN(pow, u8, uchar) {
  uint r = 1, x = a, e = b;
  while (e) {
    if (e & 1) r = (r * x) & 0xffu;
    x = (x * x) & 0xffu;
    e >>= 1;
  }
  return (uchar)r;
}
GPUX_BFN(minimum, u8, uchar) { return a < b ? a : b; }
GPUX_BFN(maximum, u8, uchar) { return a > b ? a : b; }
GPUX_UFN(neg, u8, uchar) { return (uchar)(0u - x); }
GPUX_UFN(abs, u8, uchar) { return x; }
GPUX_UFN(sign, u8, uchar) { return x != 0; }
GPUX_UFN(relu, u8, uchar) { return x; }
GPUX_BFN(bitwise_and, u8, uchar) { return a & b; }
GPUX_BFN(bitwise_or, u8, uchar) { return a | b; }
GPUX_BFN(bitwise_xor, u8, uchar) { return a ^ b; }
GPUX_BFN(left_shift, u8, uchar) { return b >= 8 ? (uchar)0 : (uchar)((uint)a << b); }
GPUX_BFN(right_shift, u8, uchar) { return b >= 8 ? (uchar)0 : (uchar)(a >> b); }
GPUX_UFN(bitwise_not, u8, uchar) { return (uchar)~x; }
GPUX_UFN(popcount, u8, uchar) { return popcount(x); }

/* bool: and, or and xor of 0 / 1 stay 0 / 1 (the logical ops) */
GPUX_BFN(bitwise_and, b8, uchar) { return a & b; }
GPUX_BFN(bitwise_or, b8, uchar) { return a | b; }
GPUX_BFN(bitwise_xor, b8, uchar) { return a ^ b; }

/* floats; ONE is 1 of the type */
#define GPUX_DEF_FLOAT(dt, T, ONE)                                                     \
  GPUX_BFN(add, dt, T) { return a + b; }                                               \
  GPUX_BFN(sub, dt, T) { return a - b; }                                               \
  GPUX_BFN(mul, dt, T) { return a * b; }                                               \
  GPUX_BFN(div, dt, T) { return a / b; }                                               \
  GPUX_BFN(pow, dt, T) { return pow(a, b); }                                           \
  GPUX_BFN(minimum, dt, T) { return (isnan(a) || isnan(b)) ? a + b : (a < b ? a : b); } \
  GPUX_BFN(maximum, dt, T) { return (isnan(a) || isnan(b)) ? a + b : (a > b ? a : b); } \
  GPUX_BFN(mod, dt, T) {                                                               \
    T r = fmod(a, b);                                                                  \
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;                               \
  }                                                                                    \
  GPUX_UFN(neg, dt, T) { return -x; }                                                  \
  GPUX_UFN(abs, dt, T) { return fabs(x); }                                             \
  GPUX_UFN(sign, dt, T) { return isnan(x) ? x : x > 0 ? ONE : x < 0 ? -ONE : (T)0; }   \
  GPUX_UFN(relu, dt, T) { return x < 0 ? (T)0 : x; }                                   \
  GPUX_UFN(exp, dt, T) { return exp(x); }                                              \
  GPUX_UFN(log, dt, T) { return log(x); }                                              \
  GPUX_UFN(log1p, dt, T) { return log1p(x); }                                          \
  GPUX_UFN(expm1, dt, T) { return expm1(x); }                                          \
  GPUX_UFN(sqrt, dt, T) { return sqrt(x); }                                            \
  GPUX_UFN(rsqrt, dt, T) { return ONE / sqrt(x); }                                     \
  GPUX_UFN(sin, dt, T) { return sin(x); }                                              \
  GPUX_UFN(cos, dt, T) { return cos(x); }                                              \
  GPUX_UFN(tan, dt, T) { return tan(x); }                                              \
  GPUX_UFN(tanh, dt, T) { return tanh(x); }                                            \
  GPUX_UFN(sigmoid, dt, T) { return ONE / (ONE + exp(-x)); }                           \
  GPUX_UFN(floor, dt, T) { return floor(x); }                                          \
  GPUX_UFN(ceil, dt, T) { return ceil(x); }                                            \
  GPUX_UFN(round, dt, T) { return rint(x); }

GPUX_DEF_FLOAT(f32, float, 1.0f)
#ifdef GPUX_HAVE_FP64
GPUX_DEF_FLOAT(f64, double, 1.0)
#endif

#endif
