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

/* ------------------------------------------------------------------ common prelude
 * (much the same in copy.cl: each program is one self-contained source).
 * No variadic macros: OpenCL C forbids them (NVIDIA's compiler enforces it). Per-dtype
 * generation goes through GPUX_ON_<dt>(M, a, dt), which expands to M(a, dt), or to nothing
 * for float64 on a device without cl_khr_fp64. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define GPUX_HAVE_FP64 1
#define GPUX_ON_f64(M, a, dt) M(a, dt)
#else
#define GPUX_ON_f64(M, a, dt)
#endif
#define GPUX_ON_f32(M, a, dt) M(a, dt)
#define GPUX_ON_i32(M, a, dt) M(a, dt)
#define GPUX_ON_i64(M, a, dt) M(a, dt)
#define GPUX_ON_u8(M, a, dt) M(a, dt)
#define GPUX_ON_b8(M, a, dt) M(a, dt)

#ifndef GPUX_ELEMS_PER_ITEM
#define GPUX_ELEMS_PER_ITEM 1
#endif
#define GPUX_EPI GPUX_ELEMS_PER_ITEM
/* -DGPUX_EXACT_LAUNCH (CPU devices, with 1 element per work-item): the host launches
 * exactly n work-items (a tail launch covers the remainder of the work-group size), so
 * kernels need no bounds test; pocl vectorizes an unguarded body about 3x better. */
#ifdef GPUX_EXACT_LAUNCH
#if GPUX_EPI != 1
#error "GPUX_EXACT_LAUNCH needs GPUX_ELEMS_PER_ITEM 1"
#endif
#define GPUX_IN_RANGE(i, n) 1
#else
#define GPUX_IN_RANGE(i, n) ((i) < (n))
#endif

#define GPUX_CAT_(a, b) a##b
#define GPUX_CAT(a, b) GPUX_CAT_(a, b)

/* per dtype: element type; reinterpretation of the same-width unsigned type as it */
#define GPUX_T_f32 float
#define GPUX_T_f64 double
#define GPUX_T_i32 int
#define GPUX_T_i64 long
#define GPUX_T_u8 uchar
#define GPUX_T_b8 uchar
#define GPUX_ASS_i32(x) as_int(x)
#define GPUX_ASS_i64(x) as_long(x)

/* Offsets of an n-d launch: GPUX_ND_BEGIN(p, i, NOPS) starts them for work-item i, then
 * GPUX_ND_OFF(p, k) is the element offset of operand k < NOPS; p is the parameter block
 * (the kernel argument), read in place with constant indices only.
 * 1-d launches (GPUs): work-item i is element i; the dimension loop runs over
 * GPUX_KMAX_DIMS so that it unrolls; 32-bit division when the index fits.
 * 3-d launches (GPUX_EXACT_LAUNCH, CPUs): the host passes p with its last three dims
 * reversed into dims 0, 1, 2 (missing ones of stride 0) and launches once per index of
 * any dims before those; NDRange dim j runs over dim j, so the kernel has no loop and no
 * division (pocl runs a loop or a dynamically indexed argument in the work-item body many
 * times slower). */
#ifdef GPUX_EXACT_LAUNCH
#define GPUX_ND_BEGIN(p, i, NOPS)                                               \
  const long i0_ = (long)get_global_id(0), i1_ = (long)get_global_id(1),       \
             i2_ = (long)get_global_id(2);
#define GPUX_ND_OFF(p, k)                                                       \
  ((p).offset[k] + i0_ * (p).stride[k][0] + i1_ * (p).stride[k][1] + i2_ * (p).stride[k][2])
#else
#define GPUX_ND_STEP(p, NOPS, x, d)                                                \
  o0_ += (x) * (p).stride[0][d];                                                   \
  o1_ += (x) * (p).stride[1][d];                                                   \
  if ((NOPS) > 2) o2_ += (x) * (p).stride[2][d];                                   \
  if ((NOPS) > 3) o3_ += (x) * (p).stride[3][d];
#define GPUX_ND_BEGIN(p, i, NOPS)                                                  \
  long o0_ = (p).offset[0], o1_ = (p).offset[1], o2_ = 0, o3_ = 0;                 \
  if ((NOPS) > 2) o2_ = (p).offset[2];                                             \
  if ((NOPS) > 3) o3_ = (p).offset[3];                                             \
  if ((p).n <= (long)0xffffffff) {                                                 \
    uint rem_ = (uint)(i);                                                         \
    for (int d_ = GPUX_KMAX_DIMS - 1; d_ >= 0; --d_)                               \
      if (d_ < (p).ndim) {                                                         \
        uint sh_ = (uint)(p).shape[d_], q_ = rem_ / sh_;                           \
        long x_ = (long)(rem_ - q_ * sh_);                                         \
        rem_ = q_;                                                                 \
        GPUX_ND_STEP(p, NOPS, x_, d_)                                              \
      }                                                                            \
  } else {                                                                         \
    long rem_ = (i);                                                               \
    for (int d_ = GPUX_KMAX_DIMS - 1; d_ >= 0; --d_)                               \
      if (d_ < (p).ndim) {                                                         \
        long sh_ = (p).shape[d_], q_ = rem_ / sh_, x_ = rem_ - q_ * sh_;           \
        rem_ = q_;                                                                 \
        GPUX_ND_STEP(p, NOPS, x_, d_)                                              \
      }                                                                            \
  }
#define GPUX_ND_OFF(p, k) o##k##_
#endif

/* Contiguous map bodies: statements that write out[o0 + j] = EXPR for every element j of
 * this work-item, where EXPR reads x1 (= in1[o1 + j]), x2, x3. */
#if GPUX_EPI == 1
#define GPUX_VTYPEDEF(T, name)
#define GPUX_MAP_C1(OT, OV, out, o0, T1, in1, o1, n, EXPR) \
  {                                                  \
    long j_ = (long)get_global_id(0);                \
    if (GPUX_IN_RANGE(j_, n)) {                                  \
      T1 x1 = (in1)[(o1) + j_];                      \
      (out)[(o0) + j_] = (EXPR);                     \
    }                                                \
  }
#define GPUX_MAP_C2(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, n, EXPR) \
  {                                                               \
    long j_ = (long)get_global_id(0);                             \
    if (GPUX_IN_RANGE(j_, n)) {                                               \
      T1 x1 = (in1)[(o1) + j_];                                   \
      T2 x2 = (in2)[(o2) + j_];                                   \
      (out)[(o0) + j_] = (EXPR);                                  \
    }                                                             \
  }
#define GPUX_MAP_C3(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, T3, in3, o3, n, EXPR) \
  {                                                                            \
    long j_ = (long)get_global_id(0);                                          \
    if (GPUX_IN_RANGE(j_, n)) {                                                            \
      T1 x1 = (in1)[(o1) + j_];                                                \
      T2 x2 = (in2)[(o2) + j_];                                                \
      T3 x3 = (in3)[(o3) + j_];                                                \
      (out)[(o0) + j_] = (EXPR);                                               \
    }                                                                          \
  }
#else
/* N consecutive elements; one vector load/store per operand when the chunk is whole and
 * every offset is a multiple of N (buffers are allocated at least 128-byte aligned). */
#define GPUX_VEC(T) GPUX_CAT(T, GPUX_EPI)
#define GPUX_VTYPEDEF(T, name) typedef GPUX_VEC(T) name;
#define GPUX_MAP_C1(OT, OV, out, o0, T1, in1, o1, n, EXPR)                                  \
  {                                                                                   \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                      \
    __global OT *po_ = (out) + (o0) + b_;                                             \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                       \
    if (b_ + GPUX_EPI <= (n) && (((o0) | (o1)) & (GPUX_EPI - 1)) == 0) {              \
      union { GPUX_VEC(T1) v; T1 s[GPUX_EPI]; } u1_;                                  \
      union { OV v; OT s[GPUX_EPI]; } u0_;                                  \
      u1_.v = *(__global const GPUX_VEC(T1) *)p1_;                                    \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                       \
        T1 x1 = u1_.s[k_];                                                            \
        u0_.s[k_] = (EXPR);                                                           \
      }                                                                               \
      *(__global OV *)po_ = u0_.v;                                          \
    } else if (b_ < (n)) {                                                            \
      int m_ = (int)min((long)GPUX_EPI, (n) - b_);                                    \
      for (int k_ = 0; k_ < m_; ++k_) {                                               \
        T1 x1 = p1_[k_];                                                              \
        po_[k_] = (EXPR);                                                             \
      }                                                                               \
    }                                                                                 \
  }
#define GPUX_MAP_C2(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, n, EXPR)                     \
  {                                                                                   \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                      \
    __global OT *po_ = (out) + (o0) + b_;                                             \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                       \
    __global const T2 *p2_ = (in2) + (o2) + b_;                                       \
    if (b_ + GPUX_EPI <= (n) && (((o0) | (o1) | (o2)) & (GPUX_EPI - 1)) == 0) {       \
      union { GPUX_VEC(T1) v; T1 s[GPUX_EPI]; } u1_;                                  \
      union { GPUX_VEC(T2) v; T2 s[GPUX_EPI]; } u2_;                                  \
      union { OV v; OT s[GPUX_EPI]; } u0_;                                  \
      u1_.v = *(__global const GPUX_VEC(T1) *)p1_;                                    \
      u2_.v = *(__global const GPUX_VEC(T2) *)p2_;                                    \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                       \
        T1 x1 = u1_.s[k_];                                                            \
        T2 x2 = u2_.s[k_];                                                            \
        u0_.s[k_] = (EXPR);                                                           \
      }                                                                               \
      *(__global OV *)po_ = u0_.v;                                          \
    } else if (b_ < (n)) {                                                            \
      int m_ = (int)min((long)GPUX_EPI, (n) - b_);                                    \
      for (int k_ = 0; k_ < m_; ++k_) {                                               \
        T1 x1 = p1_[k_];                                                              \
        T2 x2 = p2_[k_];                                                              \
        po_[k_] = (EXPR);                                                             \
      }                                                                               \
    }                                                                                 \
  }
#define GPUX_MAP_C3(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, T3, in3, o3, n, EXPR)       \
  {                                                                                   \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                      \
    __global OT *po_ = (out) + (o0) + b_;                                             \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                       \
    __global const T2 *p2_ = (in2) + (o2) + b_;                                       \
    __global const T3 *p3_ = (in3) + (o3) + b_;                                       \
    if (b_ + GPUX_EPI <= (n) && (((o0) | (o1) | (o2) | (o3)) & (GPUX_EPI - 1)) == 0) { \
      union { GPUX_VEC(T1) v; T1 s[GPUX_EPI]; } u1_;                                  \
      union { GPUX_VEC(T2) v; T2 s[GPUX_EPI]; } u2_;                                  \
      union { GPUX_VEC(T3) v; T3 s[GPUX_EPI]; } u3_;                                  \
      union { OV v; OT s[GPUX_EPI]; } u0_;                                  \
      u1_.v = *(__global const GPUX_VEC(T1) *)p1_;                                    \
      u2_.v = *(__global const GPUX_VEC(T2) *)p2_;                                    \
      u3_.v = *(__global const GPUX_VEC(T3) *)p3_;                                    \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                       \
        T1 x1 = u1_.s[k_];                                                            \
        T2 x2 = u2_.s[k_];                                                            \
        T3 x3 = u3_.s[k_];                                                            \
        u0_.s[k_] = (EXPR);                                                           \
      }                                                                               \
      *(__global OV *)po_ = u0_.v;                                          \
    } else if (b_ < (n)) {                                                            \
      int m_ = (int)min((long)GPUX_EPI, (n) - b_);                                    \
      for (int k_ = 0; k_ < m_; ++k_) {                                               \
        T1 x1 = p1_[k_];                                                              \
        T2 x2 = p2_[k_];                                                              \
        T3 x3 = p3_[k_];                                                              \
        po_[k_] = (EXPR);                                                             \
      }                                                                               \
    }                                                                                 \
  }
#endif

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
