/* gpux: the complex elementwise formulas (gpux_kernels.h: "complex elementwise ops"), one
 * source for both kernel sets: kernels/cuda/gpux_cuda_complex.cuh wraps them for the CUDA
 * kernels, kernels/cl/elementwise.cl for the OpenCL ones (it is spliced into the OpenCL
 * sources after gpux_cl_prelude.h). Plain C in the subset CUDA C++ and OpenCL C share: one
 * function per op and type, gpux_cx_<op>_<dt>(...), dt c64 (float2) or c128 (double2),
 * computing in the component type one IEEE operation at a time. No FMA contraction: CUDA
 * compiles elementwise.cu with -fmad=false, OpenCL gets FP_CONTRACT OFF below. The CPU
 * reference (tests/ref/ref_complex_ew.c) writes the same rules in long double. */
#ifndef GPUX_COMPLEX_H
#define GPUX_COMPLEX_H

#if defined(__OPENCL_VERSION__)
#pragma OPENCL FP_CONTRACT OFF
#define GPUX_CX_FN static inline
#define GPUX_CX_MK_c64(x, y) ((float2)((x), (y)))
#define GPUX_CX_MK_c128(x, y) ((double2)((x), (y)))
#define GPUX_CX_F_c64(name) name
#define GPUX_CX_F_c128(name) name
#define GPUX_CX_INF_c64 as_float(0x7f800000u)
#define GPUX_CX_INF_c128 as_double(0x7ff0000000000000ul)
#else /* CUDA C++ */
#define GPUX_CX_FN static __device__ __forceinline__
#define GPUX_CX_MK_c64(x, y) make_float2((x), (y))
#define GPUX_CX_MK_c128(x, y) make_double2((x), (y))
#define GPUX_CX_F_c64(name) name##f
#define GPUX_CX_F_c128(name) name
#define GPUX_CX_INF_c64 __int_as_float(0x7f800000)
#define GPUX_CX_INF_c128 __longlong_as_double(0x7ff0000000000000ll)
#endif
/* sqrt's scalings: arguments at or above BIG (about MAX / (1 + sqrt 2)) are scaled by 1/4,
 * both below TINY by UP (exact powers of two; the result then by 2 or DOWN = UP^-1/2) */
/* exp: above EXPMAX (just below log(max)), exp(x) is taken as exp(x/2)^2 */
#define GPUX_CX_EXPMAX_c64 88.0f
#define GPUX_CX_EXPMAX_c128 709.0
#define GPUX_CX_BIG_c64 1.4e38f
#define GPUX_CX_BIG_c128 7.4e307
#define GPUX_CX_TINY_c64 7.52316384526264005e-37f    /* 2^-120 */
#define GPUX_CX_UP_c64 1125899906842624.0f           /* 2^50 */
#define GPUX_CX_DOWN_c64 2.98023223876953125e-08f    /* 2^-25 */
#define GPUX_CX_TINY_c128 9.3326361850321888e-302    /* 2^-1000 */
#define GPUX_CX_UP_c128 1.2676506002282294e+30       /* 2^100 */
#define GPUX_CX_DOWN_c128 8.8817841970012523e-16     /* 2^-50 */

/* S: the dtype suffix; R: the component type; C: the complex type */
#define GPUX_CX_DEFINE(S, R, C)                                                              \
  GPUX_CX_FN C gpux_cx_add_##S(C a, C b) { return GPUX_CX_MK_##S(a.x + b.x, a.y + b.y); }    \
  GPUX_CX_FN C gpux_cx_sub_##S(C a, C b) { return GPUX_CX_MK_##S(a.x - b.x, a.y - b.y); }    \
  GPUX_CX_FN C gpux_cx_mul_##S(C a, C b) {                                                   \
    return GPUX_CX_MK_##S(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);                     \
  }                                                                                          \
  /* Smith's division (NumPy's branches; dividing by d rather than multiplying by 1 / d,     \
   * which is subnormal for |b| near the type's max and would cost the quotient its digits) */ \
  GPUX_CX_FN C gpux_cx_div_##S(C a, C b) {                                                   \
    const R abr = GPUX_CX_F_##S(fabs)(b.x), abi = GPUX_CX_F_##S(fabs)(b.y);                  \
    if (abr >= abi) {                                                                        \
      if (abr == (R)0 && abi == (R)0) return GPUX_CX_MK_##S(a.x / abr, a.y / abr);           \
      const R rat = b.y / b.x, d = b.x + b.y * rat;                                          \
      return GPUX_CX_MK_##S((a.x + a.y * rat) / d, (a.y - a.x * rat) / d);                   \
    }                                                                                        \
    const R rat = b.x / b.y, d = b.y + b.x * rat;                                            \
    return GPUX_CX_MK_##S((a.x * rat + a.y) / d, (a.y * rat - a.x) / d);                     \
  }                                                                                          \
  GPUX_CX_FN int gpux_cx_eq_##S(C a, C b) { return a.x == b.x && a.y == b.y; }               \
  GPUX_CX_FN int gpux_cx_nz_##S(C a) { return a.x != (R)0 || a.y != (R)0; }                  \
  GPUX_CX_FN C gpux_cx_neg_##S(C a) { return GPUX_CX_MK_##S(-a.x, -a.y); }                   \
  GPUX_CX_FN C gpux_cx_conj_##S(C a) { return GPUX_CX_MK_##S(a.x, -a.y); }                   \
  GPUX_CX_FN R gpux_cx_abs_##S(C a) { /* C99's hypot: inf with an inf part, NaN or not */    \
    const R inf = GPUX_CX_INF_##S;                                                           \
    if (GPUX_CX_F_##S(fabs)(a.x) == inf || GPUX_CX_F_##S(fabs)(a.y) == inf) return inf;      \
    return GPUX_CX_F_##S(hypot)(a.x, a.y);                                                   \
  }                                                                                          \
  GPUX_CX_FN R gpux_cx_angle_##S(C a) { return GPUX_CX_F_##S(atan2)(a.y, a.x); }             \
  GPUX_CX_FN C gpux_cx_exp_##S(C z) {                                                        \
    const R x = z.x, y = z.y, inf = GPUX_CX_INF_##S;                                         \
    if (y == (R)0) return GPUX_CX_MK_##S(GPUX_CX_F_##S(exp)(x), y);                          \
    if (GPUX_CX_F_##S(fabs)(x) == inf && !(GPUX_CX_F_##S(fabs)(y) < inf)) /* y inf, NaN */   \
      return x > (R)0 ? GPUX_CX_MK_##S(x, y - y) : GPUX_CX_MK_##S((R)0, (R)0);               \
    if (x > GPUX_CX_EXPMAX_##S) { /* exp(x) overflows where exp(x) cos(y) may not */         \
      const R h = GPUX_CX_F_##S(exp)(x * (R)0.5);                                            \
      return GPUX_CX_MK_##S(h * GPUX_CX_F_##S(cos)(y) * h, h * GPUX_CX_F_##S(sin)(y) * h);   \
    }                                                                                        \
    const R e = GPUX_CX_F_##S(exp)(x);                                                       \
    return GPUX_CX_MK_##S(e * GPUX_CX_F_##S(cos)(y), e * GPUX_CX_F_##S(sin)(y));             \
  }                                                                                          \
  GPUX_CX_FN C gpux_cx_log_##S(C z) {                                                        \
    const R ax = GPUX_CX_F_##S(fabs)(z.x), ay = GPUX_CX_F_##S(fabs)(z.y);                    \
    const R inf = GPUX_CX_INF_##S, m = ax > ay ? ax : ay, n = ax > ay ? ay : ax;             \
    R re;                                                                                    \
    if (ax == inf || ay == inf) re = inf;                                                    \
    else if (m != m || n != n) re = m + n; /* NaN */                                         \
    else if (m == (R)0) re = -inf;                                                           \
    else if (m >= (R)0.5 && m <= (R)2) /* near |z| = 1: m - 1 is exact */                    \
      re = (R)0.5 * GPUX_CX_F_##S(log1p)((m - (R)1) * (m + (R)1) + n * n);                   \
    else {                                                                                   \
      const R q = n / m;                                                                     \
      re = GPUX_CX_F_##S(log)(m) + (R)0.5 * GPUX_CX_F_##S(log1p)(q * q);                     \
    }                                                                                        \
    return GPUX_CX_MK_##S(re, GPUX_CX_F_##S(atan2)(z.y, z.x));                               \
  }                                                                                          \
  /* FreeBSD's (and NumPy's) csqrt, with the tiny arguments scaled too */                    \
  GPUX_CX_FN C gpux_cx_sqrt_##S(C z) {                                                       \
    R a = z.x, b = z.y;                                                                      \
    const R inf = GPUX_CX_INF_##S;                                                           \
    if (a == (R)0 && b == (R)0) return GPUX_CX_MK_##S((R)0, b);                              \
    if (GPUX_CX_F_##S(fabs)(b) == inf) return GPUX_CX_MK_##S(inf, b);                        \
    if (a != a) return GPUX_CX_MK_##S(a, a);                                                 \
    if (GPUX_CX_F_##S(fabs)(a) == inf)                                                       \
      return a < (R)0 ? GPUX_CX_MK_##S(GPUX_CX_F_##S(fabs)(b - b), GPUX_CX_F_##S(copysign)(a, b)) \
                      : GPUX_CX_MK_##S(a, GPUX_CX_F_##S(copysign)(b - b, b));                \
    R k = (R)1;                                                                              \
    if (GPUX_CX_F_##S(fabs)(a) >= GPUX_CX_BIG_##S || GPUX_CX_F_##S(fabs)(b) >= GPUX_CX_BIG_##S) { \
      a *= (R)0.25;                                                                          \
      b *= (R)0.25;                                                                          \
      k = (R)2;                                                                              \
    } else if (GPUX_CX_F_##S(fabs)(a) < GPUX_CX_TINY_##S &&                                  \
               GPUX_CX_F_##S(fabs)(b) < GPUX_CX_TINY_##S) {                                  \
      a *= GPUX_CX_UP_##S;                                                                   \
      b *= GPUX_CX_UP_##S;                                                                   \
      k = GPUX_CX_DOWN_##S;                                                                  \
    }                                                                                        \
    const R h = GPUX_CX_F_##S(hypot)(a, b);                                                  \
    if (a >= (R)0) {                                                                         \
      const R t = GPUX_CX_F_##S(sqrt)((a + h) * (R)0.5);                                     \
      return GPUX_CX_MK_##S(t * k, b / ((R)2 * t) * k);                                      \
    }                                                                                        \
    const R t = GPUX_CX_F_##S(sqrt)((-a + h) * (R)0.5);                                      \
    return GPUX_CX_MK_##S(GPUX_CX_F_##S(fabs)(b) / ((R)2 * t) * k,                           \
                          GPUX_CX_F_##S(copysign)(t, b) * k);                                \
  }                                                                                          \
  GPUX_CX_FN C gpux_cx_sin_##S(C z) {                                                        \
    const R x = z.x, y = z.y, inf = GPUX_CX_INF_##S;                                         \
    if (x == (R)0) return GPUX_CX_MK_##S(x, GPUX_CX_F_##S(sinh)(y));                         \
    if (y == (R)0)                                                                           \
      return GPUX_CX_MK_##S(GPUX_CX_F_##S(sin)(x),                                           \
                            GPUX_CX_F_##S(fabs)(x) < inf ? GPUX_CX_F_##S(cos)(x) * y : y);   \
    return GPUX_CX_MK_##S(GPUX_CX_F_##S(sin)(x) * GPUX_CX_F_##S(cosh)(y),                    \
                          GPUX_CX_F_##S(cos)(x) * GPUX_CX_F_##S(sinh)(y));                   \
  }                                                                                          \
  GPUX_CX_FN C gpux_cx_cos_##S(C z) {                                                        \
    const R x = z.x, y = z.y, inf = GPUX_CX_INF_##S;                                         \
    if (x == (R)0)                                                                           \
      return GPUX_CX_MK_##S(GPUX_CX_F_##S(cosh)(y),                                          \
                            -x * (GPUX_CX_F_##S(fabs)(y) < inf ? GPUX_CX_F_##S(sinh)(y) : (R)1)); \
    if (y == (R)0)                                                                           \
      return GPUX_CX_MK_##S(GPUX_CX_F_##S(cos)(x),                                           \
                            GPUX_CX_F_##S(fabs)(x) < inf ? -(GPUX_CX_F_##S(sin)(x) * y) : -y); \
    return GPUX_CX_MK_##S(GPUX_CX_F_##S(cos)(x) * GPUX_CX_F_##S(cosh)(y),                    \
                          -(GPUX_CX_F_##S(sin)(x) * GPUX_CX_F_##S(sinh)(y)));                \
  }                                                                                          \
  /* NumPy's npy_cpow */                                                                     \
  GPUX_CX_FN C gpux_cx_pow_##S(C a, C b) {                                                   \
    const R inf = GPUX_CX_INF_##S;                                                           \
    if (b.x == (R)0 && b.y == (R)0) return GPUX_CX_MK_##S((R)1, (R)0);                       \
    if (a.x == (R)0 && a.y == (R)0) {                                                        \
      const R nan = inf - inf;                                                               \
      return b.x > (R)0 && b.y == (R)0 ? GPUX_CX_MK_##S((R)0, (R)0) : GPUX_CX_MK_##S(nan, nan); \
    }                                                                                        \
    if (b.y == (R)0 && GPUX_CX_F_##S(fabs)(b.x) < (R)100 && b.x == (R)(int)b.x) {            \
      const int n = (int)b.x;                                                                \
      if (n == 1) return a;                                                                  \
      if (n == 2) return gpux_cx_mul_##S(a, a);                                              \
      if (n == 3) return gpux_cx_mul_##S(a, gpux_cx_mul_##S(a, a));                          \
      const int m = n < 0 ? -n : n;                                                          \
      C r = GPUX_CX_MK_##S((R)1, (R)0), p = a;                                               \
      for (int mask = 1;; mask <<= 1) {                                                      \
        if (m & mask) r = gpux_cx_mul_##S(r, p);                                             \
        if (m < (mask << 1)) break;                                                          \
        p = gpux_cx_mul_##S(p, p);                                                           \
      }                                                                                      \
      return n < 0 ? gpux_cx_div_##S(GPUX_CX_MK_##S((R)1, (R)0), r) : r;                    \
    }                                                                                        \
    return gpux_cx_exp_##S(gpux_cx_mul_##S(b, gpux_cx_log_##S(a)));                          \
  }

GPUX_CX_DEFINE(c64, float, float2)
#if !defined(__OPENCL_VERSION__) || defined(GPUX_HAVE_FP64)
GPUX_CX_DEFINE(c128, double, double2)
#endif

#endif
