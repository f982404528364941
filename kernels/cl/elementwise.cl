#include "gpux_kernels.h"
/* gpux OpenCL kernels, elementwise family: binary, unary and where (OpenCL C 1.2).
 *
 * Every kernel is generated from the X-macro lists of gpux_kernels.h, so the set cannot
 * drift from the CUDA one; the semantics are those listed in that header.
 *
 * Build options (chosen by the host per device):
 *   -DGPUX_ELEMS_PER_ITEM=N   elements per work-item on the contiguous layouts (1, 2, 4, 8
 *                             or 16). 1 on CPU devices (pocl vectorizes across work-items
 *                             and loses that with loops); > 1 on GPUs, where an aligned
 *                             chunk is read and written with one vector access per operand.
 *   -DGPUX_EXACT_LAUNCH       CPU devices: exact launches, no bounds tests, n-d kernels on
 *                             a 3-d NDRange (see GPUX_ND_BEGIN).
 * float64 kernels exist only where the compiler defines cl_khr_fp64.
 *
 * Signatures (T the dtype, R the result: T, or uchar for comparisons and logical ops;
 * offsets and n in elements; work-item i covers elements [i*N, i*N+N) of [0, n), with the
 * global work offset applied, so the host may split a launch):
 *   gpux_binary_<op>_<dt>_c(global R *out, long out_off, global const T *a, long a_off,
 *                           global const T *b, long b_off, long n)
 *   gpux_binary_<op>_<dt>_s(global R *out, long out_off, global const T *a, long a_off,
 *                           T s, int scalar_first, long n)      out = a op s, or s op a
 *   gpux_binary_<op>_<dt>_n(global R *out, global const T *a, global const T *b,
 *                           gpux_nd_params p)      one element per work-item (GPUX_ND_BEGIN)
 *   gpux_unary_<op>_<dt>_c(global R *out, long out_off, global const T *a, long a_off, long n)
 *   gpux_unary_<op>_<dt>_n(global R *out, global const T *a, gpux_nd_params p)
 *   gpux_where_<dt>_c(global T *out, long out_off, global const uchar *cond, long cond_off,
 *                     global const T *a, long a_off, global const T *b, long b_off, long n)
 *   gpux_where_<dt>_n(global T *out, global const uchar *cond, global const T *a,
 *                     global const T *b, gpux_nd_params p)
 */

#include "gpux_cl_prelude.h"


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
 * results are selected after */
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
  GPUX_UFN(abs, dt, T) { return x < 0 ? GPUX_ASS_##dt((U)0 - (U)x) : x; }    \
  GPUX_UFN(sign, dt, T) { return (T)((x > 0) - (x < 0)); }                   \
  GPUX_UFN(relu, dt, T) { return x < 0 ? (T)0 : x; }

GPUX_DEF_BINARY_S(i32, int, uint, INT_MIN)
GPUX_DEF_BINARY_S(i64, long, ulong, LONG_MIN)

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

/* comparisons and logical ops, every dtype; results are 0 or 1 */
#define GPUX_DEF_BOOL_OPS(a_, dt)                                         \
  GPUX_BFN(eq, dt, uchar) { return a == b; }                              \
  GPUX_BFN(ne, dt, uchar) { return a != b; }                              \
  GPUX_BFN(lt, dt, uchar) { return a < b; }                               \
  GPUX_BFN(le, dt, uchar) { return a <= b; }                              \
  GPUX_BFN(gt, dt, uchar) { return a > b; }                               \
  GPUX_BFN(ge, dt, uchar) { return a >= b; }                              \
  GPUX_BFN(logical_and, dt, uchar) { return a != 0 && b != 0; }           \
  GPUX_BFN(logical_or, dt, uchar) { return a != 0 || b != 0; }            \
  GPUX_BFN(logical_xor, dt, uchar) { return (a != 0) != (b != 0); }       \
  GPUX_UFN(logical_not, dt, uchar) { return x == 0; }
#define GPUX_DEF_BOOL_OPS_DT(a_, dt) GPUX_ON_##dt(GPUX_DEF_BOOL_OPS, a_, dt)
GPUX_DT_ALL(GPUX_DEF_BOOL_OPS_DT, _)

/* ------------------------------------------------------------------ kernels
 * X(op, id, DTLIST, RES) -> DTLIST(GPUX_*_DT, gpux_<family>_<op>) -> one set per dtype */
#define GPUX_BINARY_KERNELS(kn, dt) \
  GPUX_BINARY_KERNELS_(kn##_##dt, kn##_##dt##_fn, kn##_##dt##_rt, GPUX_T_##dt)
#define GPUX_BINARY_KERNELS_(k, fn, R, T)                                                      \
  __kernel void k##_c(__global R *out, long out_off, __global const T *a, long a_off,          \
                      __global const T *b, long b_off, long n) {                               \
    GPUX_MAP_C2(R, R##v, out, out_off, T, a, a_off, T, b, b_off, n, fn(x1, x2))                      \
  }                                                                                            \
  __kernel void k##_s(__global R *out, long out_off, __global const T *a, long a_off, T s,     \
                      int scalar_first, long n) {                                              \
    if (scalar_first)                                                                          \
      GPUX_MAP_C1(R, R##v, out, out_off, T, a, a_off, n, fn(s, x1))                                  \
    else                                                                                       \
      GPUX_MAP_C1(R, R##v, out, out_off, T, a, a_off, n, fn(x1, s))                                  \
  }                                                                                            \
  __kernel void k##_n(__global R *out, __global const T *a, __global const T *b,               \
                      gpux_nd_params p) {                                                      \
    long i = (long)get_global_id(0);                                                           \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                             \
      GPUX_ND_BEGIN(p, i, 3)                                                          \
      out[GPUX_ND_OFF(p, 0)] = fn(a[GPUX_ND_OFF(p, 1)], b[GPUX_ND_OFF(p, 2)]);                                                  \
    }                                                                                          \
  }
#define GPUX_BINARY_DT(kn, dt) GPUX_ON_##dt(GPUX_BINARY_KERNELS, kn, dt)
#define GPUX_BINARY_OP(op, id, DTLIST, RES) DTLIST(GPUX_BINARY_DT, gpux_binary_##op)
GPUX_BINARY_OPS(GPUX_BINARY_OP)

#define GPUX_UNARY_KERNELS(kn, dt) \
  GPUX_UNARY_KERNELS_(kn##_##dt, kn##_##dt##_fn, kn##_##dt##_rt, GPUX_T_##dt)
#define GPUX_UNARY_KERNELS_(k, fn, R, T)                                                       \
  __kernel void k##_c(__global R *out, long out_off, __global const T *a, long a_off, long n) { \
    GPUX_MAP_C1(R, R##v, out, out_off, T, a, a_off, n, fn(x1))                                       \
  }                                                                                            \
  __kernel void k##_n(__global R *out, __global const T *a, gpux_nd_params p) {                \
    long i = (long)get_global_id(0);                                                           \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                             \
      GPUX_ND_BEGIN(p, i, 2)                                                          \
      out[GPUX_ND_OFF(p, 0)] = fn(a[GPUX_ND_OFF(p, 1)]);                                                             \
    }                                                                                          \
  }
#define GPUX_UNARY_DT(kn, dt) GPUX_ON_##dt(GPUX_UNARY_KERNELS, kn, dt)
#define GPUX_UNARY_OP(op, id, DTLIST, RES) DTLIST(GPUX_UNARY_DT, gpux_unary_##op)
GPUX_UNARY_OPS(GPUX_UNARY_OP)

#define GPUX_WHERE_KERNELS(a_, dt) GPUX_WHERE_KERNELS_(gpux_where_##dt, GPUX_T_##dt)
#define GPUX_WHERE_KERNELS_(k, T)                                                              \
  __kernel void k##_c(__global T *out, long out_off, __global const uchar *cond,               \
                      long cond_off, __global const T *a, long a_off, __global const T *b,     \
                      long b_off, long n) {                                                    \
    GPUX_MAP_C3(T, GPUX_VEC(T), out, out_off, uchar, cond, cond_off, T, a, a_off, T, b, b_off, n,           \
                x1 ? x2 : x3)                                                                  \
  }                                                                                            \
  __kernel void k##_n(__global T *out, __global const uchar *cond, __global const T *a,        \
                      __global const T *b, gpux_nd_params p) {                                 \
    long i = (long)get_global_id(0);                                                           \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                             \
      GPUX_ND_BEGIN(p, i, 4)                                                          \
      out[GPUX_ND_OFF(p, 0)] = cond[GPUX_ND_OFF(p, 1)] ? a[GPUX_ND_OFF(p, 2)] : b[GPUX_ND_OFF(p, 3)];                                      \
    }                                                                                          \
  }
#define GPUX_WHERE_DT(a_, dt) GPUX_ON_##dt(GPUX_WHERE_KERNELS, a_, dt)
GPUX_DT_ALL(GPUX_WHERE_DT, _)
