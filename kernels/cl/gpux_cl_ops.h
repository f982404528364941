/* gpux OpenCL kernels: the arithmetic and math ops of the elementwise family, one function
 * per op and dtype (OpenCL C 1.2). Included by elementwise.cl (the built-in kernels) and by
 * gpux_ew_ops.h (the ops prelude of elementwise expressions: gpux_relu, ...), so both compute
 * with the same definitions. Needs gpux_cl_prelude.h first (GPUX_T_*, GPUX_ASS, GPUX_MIN_*,
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

/* Integers: U is the unsigned type they compute in: GPUX_U_<dt>, or uint for 8- and 16-bit
 * ones (C promotes those to int, where a product could overflow); results keep the low
 * bits (GPUX_ASS). W is the width in bits. */
#define GPUX_WIDTH(dt) (8 * (int)sizeof(GPUX_T_##dt))

/* signed integers: wrap through the unsigned type; division and remainder never divide by
 * 0 or MIN by -1 (pocl traps on both): the divisor is made safe first and the special
 * results are selected after. abs is OpenCL's abs (unsigned |x|, so MIN wraps to MIN): a
 * hand-written select is folded by LLVM into llvm.abs, which oclgrind cannot run; the
 * built-in gives the same bits and the same code on pocl. */
#define GPUX_DEF_BINARY_S(dt, U) GPUX_DEF_BINARY_S_(dt, GPUX_T_##dt, U, GPUX_MIN_##dt)
#define GPUX_DEF_BINARY_S_(dt, T, U, MIN)                                    \
  GPUX_BFN(add, dt, T) { return GPUX_ASS(dt, (U)a + (U)b); }                 \
  GPUX_BFN(sub, dt, T) { return GPUX_ASS(dt, (U)a - (U)b); }                 \
  GPUX_BFN(mul, dt, T) { return GPUX_ASS(dt, (U)a * (U)b); }                 \
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
    return GPUX_ASS(dt, r);                                                  \
  }                                                                          \
  GPUX_BFN(minimum, dt, T) { return a < b ? a : b; }                         \
  GPUX_BFN(maximum, dt, T) { return a > b ? a : b; }                         \
  GPUX_UFN(neg, dt, T) { return GPUX_ASS(dt, (U)0 - (U)x); }                 \
  GPUX_UFN(abs, dt, T) { return GPUX_ASS(dt, abs(x)); }                      \
  GPUX_UFN(sign, dt, T) { return (T)((x > 0) - (x < 0)); }                   \
  GPUX_UFN(relu, dt, T) { return x < 0 ? (T)0 : x; }

/* bits of signed integers. Shifts as NumPy defines them: a count outside [0, W) gives 0,
 * and -1 for a negative value shifted right; a left shift wraps through the unsigned type;
 * a right shift is arithmetic, spelled out (C leaves a negative value's right shift to the
 * implementation); narrow types shift their value promoted to int, which has the same low
 * bits and sign. popcount counts the bits of the dtype's width (OpenCL's is by type). */
#define GPUX_DEF_BITS_S(dt, U) GPUX_DEF_BITS_S_(dt, GPUX_T_##dt, U, GPUX_WIDTH(dt))
#define GPUX_DEF_BITS_S_(dt, T, U, W)                                                   \
  GPUX_BFN(bitwise_and, dt, T) { return a & b; }                                       \
  GPUX_BFN(bitwise_or, dt, T) { return a | b; }                                        \
  GPUX_BFN(bitwise_xor, dt, T) { return a ^ b; }                                       \
  GPUX_BFN(left_shift, dt, T) {                                                        \
    return (b < 0 || b >= W) ? (T)0 : GPUX_ASS(dt, (U)a << b);                         \
  }                                                                                    \
  GPUX_BFN(right_shift, dt, T) {                                                       \
    if (b < 0 || b >= W) return a < 0 ? (T)-1 : (T)0;                                  \
    return a < 0 ? ~(~a >> b) : a >> b;                                                \
  }                                                                                    \
  GPUX_UFN(bitwise_not, dt, T) { return ~x; }                                          \
  GPUX_UFN(popcount, dt, T) { return popcount(x); }

#define GPUX_DEF_INT_S(dt, U) GPUX_DEF_BINARY_S(dt, U) GPUX_DEF_BITS_S(dt, U)
GPUX_DEF_INT_S(i32, uint)
GPUX_DEF_INT_S(i64, ulong)
GPUX_DEF_INT_S(i8, uint)
GPUX_DEF_INT_S(i16, uint)

/* unsigned integers: wrap by truncation; x / 0 and x % 0 are 0 (the divisor made safe
 * first, as above); abs and relu are the identity, sign is 0 or 1; a shift count of W or
 * more gives 0 */
#define GPUX_DEF_INT_U(dt, U) GPUX_DEF_INT_U_(dt, GPUX_T_##dt, U, GPUX_WIDTH(dt))
#define GPUX_DEF_INT_U_(dt, T, U, W)                                                   \
  GPUX_BFN(add, dt, T) { return (T)((U)a + (U)b); }                                    \
  GPUX_BFN(sub, dt, T) { return (T)((U)a - (U)b); }                                    \
  GPUX_BFN(mul, dt, T) { return (T)((U)a * (U)b); }                                    \
  GPUX_BFN(div, dt, T) {                                                               \
    T d = b == 0 ? (T)1 : b;                                                           \
    return b == 0 ? (T)0 : (T)(a / d);                                                 \
  }                                                                                    \
  GPUX_BFN(mod, dt, T) {                                                               \
    T d = b == 0 ? (T)1 : b;                                                           \
    return b == 0 ? (T)0 : (T)(a % d);                                                 \
  }                                                                                    \
  GPUX_BFN(pow, dt, T) {                                                               \
    U r = 1, x = a, e = b;                                                             \
    while (e) {                                                                        \
      if (e & 1) r *= x;                                                               \
      x *= x;                                                                          \
      e >>= 1;                                                                         \
    }                                                                                  \
    return (T)r;                                                                       \
  }                                                                                    \
  GPUX_BFN(minimum, dt, T) { return a < b ? a : b; }                                   \
  GPUX_BFN(maximum, dt, T) { return a > b ? a : b; }                                   \
  GPUX_UFN(neg, dt, T) { return (T)((U)0 - (U)x); }                                    \
  GPUX_UFN(abs, dt, T) { return x; }                                                   \
  GPUX_UFN(sign, dt, T) { return (T)(x != 0); }                                        \
  GPUX_UFN(relu, dt, T) { return x; }                                                  \
  GPUX_BFN(bitwise_and, dt, T) { return a & b; }                                       \
  GPUX_BFN(bitwise_or, dt, T) { return a | b; }                                        \
  GPUX_BFN(bitwise_xor, dt, T) { return a ^ b; }                                       \
  GPUX_BFN(left_shift, dt, T) { return b >= W ? (T)0 : (T)((U)a << b); }               \
  GPUX_BFN(right_shift, dt, T) { return b >= W ? (T)0 : (T)(a >> b); }                 \
  GPUX_UFN(bitwise_not, dt, T) { return (T)~x; }                                       \
  GPUX_UFN(popcount, dt, T) { return popcount(x); }

GPUX_DEF_INT_U(u8, uint)
GPUX_DEF_INT_U(u16, uint)
GPUX_DEF_INT_U(u32, uint)
GPUX_DEF_INT_U(u64, ulong)

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
