/* gpux CUDA kernels, elementwise family: binary (layouts c, s, n), unary (c, n), where (c, n).
 * Every kernel is generated from the X-macro lists in gpux_kernels.h; the semantics below
 * are the ones that header lists (integer wrap, floor division, x / 0 == 0, NaN rules).
 *
 * Signatures (T = the dtype's type, R = T or unsigned char for bool results):
 *   gpux_binary_<op>_<dt>_c(R *out, const T *a, const T *b, long long n)
 *   gpux_binary_<op>_<dt>_s(R *out, const T *a, T s, int scalar_first, long long n)
 *   gpux_binary_<op>_<dt>_n(R *out, const T *a, const T *b, gpux_nd_params p)
 *   gpux_unary_<op>_<dt>_c(R *out, const T *a, long long n)
 *   gpux_unary_<op>_<dt>_n(R *out, const T *a, gpux_nd_params p)
 *   gpux_where_<dt>_c(T *out, const unsigned char *cond, const T *a, const T *b, long long n)
 *   gpux_where_<dt>_n(T *out, const unsigned char *cond, const T *a, const T *b,
 *                     gpux_nd_params p)
 * Layout c/s pointers are already offset; layout n pointers are bases and p.offset[k]
 * applies (operand 0 out, 1 a / cond, 2 b / a, 3 b). */
#include "gpux_cuda.cuh"

namespace gpux_cu {

template <class T> struct tr {
  static constexpr bool fp = is_fp<T>::value;
  static constexpr bool sgn = (T)(-1) < (T)0;
};

template <class T> __device__ __forceinline__ T wrap_neg(T a) {
  typedef typename uns<T>::type U;
  return (T)(U)((U)0 - (U)a);
}

/* ---- binary --------------------------------------------------------------------------- */
template <class T> __device__ __forceinline__ T k_add(T a, T b) {
  if constexpr (tr<T>::fp) return a + b;
  else { typedef typename uns<T>::type U; return (T)(U)((U)a + (U)b); }
}
template <class T> __device__ __forceinline__ T k_sub(T a, T b) {
  if constexpr (tr<T>::fp) return a - b;
  else { typedef typename uns<T>::type U; return (T)(U)((U)a - (U)b); }
}
template <class T> __device__ __forceinline__ T k_mul(T a, T b) {
  if constexpr (tr<T>::fp) return a * b;
  else { typedef typename uns<T>::type U; return (T)(U)((U)a * (U)b); }
}
/* floor division; x / 0 = 0; MIN / -1 = MIN */
template <class T> __device__ __forceinline__ T k_div(T a, T b) {
  if constexpr (tr<T>::fp) {
    return a / b;
  } else if constexpr (!tr<T>::sgn) {
    return b == 0 ? (T)0 : (T)(a / b);
  } else {
    if (b == 0) return (T)0;
    if (b == (T)-1) return wrap_neg(a);
    T q = a / b;
    const T r = a - q * b; /* |q * b| <= |a|: no overflow */
    if (r != 0 && ((r < 0) != (b < 0))) --q;
    return q;
  }
}
/* NumPy remainder: sign of the divisor; x % 0 = 0; MIN % -1 = 0; float: fmod + fix, x % 0 NaN */
template <class T> __device__ __forceinline__ T k_mod(T a, T b) {
  if constexpr (tr<T>::fp) {
    T r;
    if constexpr (sizeof(T) == 4) r = fmodf(a, b);
    else r = fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  } else if constexpr (!tr<T>::sgn) {
    return b == 0 ? (T)0 : (T)(a % b);
  } else {
    if (b == 0 || b == (T)-1) return (T)0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b; /* opposite signs: no overflow */
    return r;
  }
}
/* int: exponent >= 0 by squaring (wraps); < 0: 1 for base 1, +-1 for base -1, else 0 */
template <class T> __device__ __forceinline__ T k_pow(T a, T b) {
  if constexpr (tr<T>::fp) {
    if constexpr (sizeof(T) == 4) return powf(a, b);
    else return pow(a, b);
  } else {
    typedef typename uns<T>::type U;
    if constexpr (tr<T>::sgn) {
      if (b < 0) {
        if (a == 1) return (T)1;
        if (a == (T)-1) return (b & 1) ? (T)-1 : (T)1;
        return (T)0;
      }
    }
    U r = 1, x = (U)a;
    unsigned long long e = (unsigned long long)b;
    while (e) {
      if (e & 1) r *= x;
      x *= x;
      e >>= 1;
    }
    return (T)r;
  }
}
/* NaN in either operand gives NaN (NumPy's minimum/maximum) */
template <class T> __device__ __forceinline__ T k_minimum(T a, T b) {
  if constexpr (tr<T>::fp) return (a <= b || a != a) ? a : b;
  else return a <= b ? a : b;
}
template <class T> __device__ __forceinline__ T k_maximum(T a, T b) {
  if constexpr (tr<T>::fp) return (a >= b || a != a) ? a : b;
  else return a >= b ? a : b;
}
template <class T> __device__ __forceinline__ unsigned char k_eq(T a, T b) { return a == b; }
template <class T> __device__ __forceinline__ unsigned char k_ne(T a, T b) { return a != b; }
template <class T> __device__ __forceinline__ unsigned char k_lt(T a, T b) { return a < b; }
template <class T> __device__ __forceinline__ unsigned char k_le(T a, T b) { return a <= b; }
template <class T> __device__ __forceinline__ unsigned char k_gt(T a, T b) { return a > b; }
template <class T> __device__ __forceinline__ unsigned char k_ge(T a, T b) { return a >= b; }
template <class T> __device__ __forceinline__ unsigned char k_logical_and(T a, T b) {
  return (a != 0) & (b != 0);
}
template <class T> __device__ __forceinline__ unsigned char k_logical_or(T a, T b) {
  return (a != 0) | (b != 0);
}
template <class T> __device__ __forceinline__ unsigned char k_logical_xor(T a, T b) {
  return (a != 0) ^ (b != 0);
}

/* ---- unary ---------------------------------------------------------------------------- */
template <class T> __device__ __forceinline__ T k_neg(T a) {
  if constexpr (tr<T>::fp) return -a;
  else return wrap_neg(a);
}
template <class T> __device__ __forceinline__ T k_abs(T a) {
  if constexpr (tr<T>::fp) {
    if constexpr (sizeof(T) == 4) return fabsf(a);
    else return fabs(a);
  } else if constexpr (!tr<T>::sgn) {
    return a;
  } else {
    return a < 0 ? wrap_neg(a) : a; /* abs(MIN) = MIN */
  }
}
template <class T> __device__ __forceinline__ T k_sign(T a) {
  if constexpr (tr<T>::fp) return a != a ? a : (a > 0 ? (T)1 : (a < 0 ? (T)-1 : (T)0));
  else if constexpr (!tr<T>::sgn) return a > 0 ? (T)1 : (T)0;
  else return a > 0 ? (T)1 : (a < 0 ? (T)-1 : (T)0);
}
template <class T> __device__ __forceinline__ T k_relu(T a) {
  if constexpr (!tr<T>::sgn) return a;
  else return a < 0 ? (T)0 : a; /* NaN < 0 is false: NaN stays */
}
template <class T> __device__ __forceinline__ unsigned char k_logical_not(T a) {
  return a == 0;
}

/* float-only ops: full-precision library calls (no fast-math intrinsics) */
#define GPUX_CU_FMATH(name, e32, e64)                                                   \
  template <class T> __device__ __forceinline__ T k_##name(T x) {                       \
    static_assert(tr<T>::fp, #name " is defined for float dtypes only");                \
    if constexpr (sizeof(T) == 4) return e32;                                           \
    else return e64;                                                                    \
  }
GPUX_CU_FMATH(exp, expf(x), exp(x))
GPUX_CU_FMATH(log, logf(x), log(x))
GPUX_CU_FMATH(log1p, log1pf(x), log1p(x))
GPUX_CU_FMATH(expm1, expm1f(x), expm1(x))
GPUX_CU_FMATH(sqrt, sqrtf(x), sqrt(x))
GPUX_CU_FMATH(rsqrt, 1.0f / sqrtf(x), 1.0 / sqrt(x))
GPUX_CU_FMATH(sin, sinf(x), sin(x))
GPUX_CU_FMATH(cos, cosf(x), cos(x))
GPUX_CU_FMATH(tan, tanf(x), tan(x))
GPUX_CU_FMATH(tanh, tanhf(x), tanh(x))
GPUX_CU_FMATH(sigmoid, 1.0f / (1.0f + expf(-x)), 1.0 / (1.0 + exp(-x)))
GPUX_CU_FMATH(floor, floorf(x), floor(x))
GPUX_CU_FMATH(ceil, ceilf(x), ceil(x))
GPUX_CU_FMATH(round, rintf(x), rint(x))
#undef GPUX_CU_FMATH

/* ---- op structs and functors ---------------------------------------------------------- */
#define GPUX_CU_BOP(op, id, dts, res)                                                   \
  struct bop_##op {                                                                     \
    static constexpr int rk = res;                                                      \
    template <class T>                                                                  \
    static __device__ __forceinline__ typename res_t<res, T>::type apply(T a, T b) {    \
      return (typename res_t<res, T>::type)k_##op(a, b);                                \
    }                                                                                   \
  };
GPUX_BINARY_OPS(GPUX_CU_BOP)
#undef GPUX_CU_BOP

#define GPUX_CU_UOP(op, id, dts, res)                                                   \
  struct uop_##op {                                                                     \
    static constexpr int rk = res;                                                      \
    template <class T>                                                                  \
    static __device__ __forceinline__ typename res_t<res, T>::type apply(T a) {         \
      return (typename res_t<res, T>::type)k_##op(a);                                   \
    }                                                                                   \
  };
GPUX_UNARY_OPS(GPUX_CU_UOP)
#undef GPUX_CU_UOP

/* Ops whose body is long run one vector group per thread (see cshape in gpux_cuda.cuh). */
template <class OP, class T> struct heavy { static constexpr bool value = false; };
#define GPUX_CU_HEAVY(opstruct)                                                         \
  template <class T> struct heavy<opstruct, T> { static constexpr bool value = true; };
GPUX_CU_HEAVY(bop_div)
GPUX_CU_HEAVY(bop_mod)
GPUX_CU_HEAVY(bop_pow)
GPUX_CU_HEAVY(uop_log)
GPUX_CU_HEAVY(uop_log1p)
GPUX_CU_HEAVY(uop_expm1)
GPUX_CU_HEAVY(uop_sin)
GPUX_CU_HEAVY(uop_cos)
GPUX_CU_HEAVY(uop_tan)
GPUX_CU_HEAVY(uop_tanh)
GPUX_CU_HEAVY(uop_sigmoid)
#undef GPUX_CU_HEAVY
template <> struct heavy<uop_exp, double> { static constexpr bool value = true; };

template <class OP, class T> struct bin_f {
  typedef typename res_t<OP::rk, T>::type R;
  __device__ __forceinline__ R operator()(T a, T b, u64) const { return OP::apply(a, b); }
};
/* a op s, or s op a when first: selects, so the op body exists once */
template <class OP, class T> struct bin_s_f {
  typedef typename res_t<OP::rk, T>::type R;
  T s;
  int first;
  __device__ __forceinline__ R operator()(T a, u64) const {
    const T x = first ? s : a;
    const T y = first ? a : s;
    return OP::apply(x, y);
  }
};
template <class OP, class T> struct un_f {
  typedef typename res_t<OP::rk, T>::type R;
  __device__ __forceinline__ R operator()(T a, u64) const { return OP::apply(a); }
};
template <class D> struct where_f {
  typedef typename D::T T;
  __device__ __forceinline__ T operator()(unsigned char c, T a, T b, u64) const {
    const T v = c != 0 ? a : b;
    if constexpr (D::kind == K_BOOL) return (T)(v != 0); /* bool outputs are 0 or 1 */
    else return v;
  }
};

}  // namespace gpux_cu

/* ---- kernels -------------------------------------------------------------------------- */
#define GPUX_CU_KERNEL extern "C" __global__ void __launch_bounds__(GPUX_CU_BLOCK)
#define GPUX_CU_NULL ((const char *)0)

#define GPUX_CU_BIN_R(op, dt) gpux_cu::res_t<gpux_cu::bop_##op::rk, GPUX_CU_T(dt)>::type
#define GPUX_CU_BIN_H(op, dt) gpux_cu::heavy<gpux_cu::bop_##op, GPUX_CU_T(dt)>::value
#define GPUX_CU_BINARY_KERNELS(op, dt)                                                  \
  GPUX_CU_KERNEL gpux_binary_##op##_##dt##_c(GPUX_CU_BIN_R(op, dt) *out,                \
                                             const GPUX_CU_T(dt) *a,                    \
                                             const GPUX_CU_T(dt) *b, long long n) {     \
    gpux_cu::map_c<2, GPUX_CU_BIN_H(op, dt)>(                                           \
        gpux_cu::bin_f<gpux_cu::bop_##op, GPUX_CU_T(dt)>(), out, a, b, GPUX_CU_NULL, n); \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_binary_##op##_##dt##_s(GPUX_CU_BIN_R(op, dt) *out,                \
                                             const GPUX_CU_T(dt) *a, GPUX_CU_T(dt) s,   \
                                             int scalar_first, long long n) {           \
    gpux_cu::map_c<1, GPUX_CU_BIN_H(op, dt)>(                                           \
        gpux_cu::bin_s_f<gpux_cu::bop_##op, GPUX_CU_T(dt)>{s, scalar_first}, out, a,    \
        GPUX_CU_NULL, GPUX_CU_NULL, n);                                                 \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_binary_##op##_##dt##_n(GPUX_CU_BIN_R(op, dt) *out,                \
                                             const GPUX_CU_T(dt) *a,                    \
                                             const GPUX_CU_T(dt) *b,                    \
                                             const __grid_constant__ gpux_nd_params p) { \
    gpux_cu::map_n<2>(gpux_cu::bin_f<gpux_cu::bop_##op, GPUX_CU_T(dt)>(), out, a, b,    \
                      GPUX_CU_NULL, p);                                                 \
  }
#define GPUX_CU_BINARY_OP(op, id, dts, res) dts(GPUX_CU_BINARY_KERNELS, op)
GPUX_BINARY_OPS(GPUX_CU_BINARY_OP)

#define GPUX_CU_UN_R(op, dt) gpux_cu::res_t<gpux_cu::uop_##op::rk, GPUX_CU_T(dt)>::type
#define GPUX_CU_UN_H(op, dt) gpux_cu::heavy<gpux_cu::uop_##op, GPUX_CU_T(dt)>::value
#define GPUX_CU_UNARY_KERNELS(op, dt)                                                   \
  GPUX_CU_KERNEL gpux_unary_##op##_##dt##_c(GPUX_CU_UN_R(op, dt) *out,                  \
                                            const GPUX_CU_T(dt) *a, long long n) {      \
    gpux_cu::map_c<1, GPUX_CU_UN_H(op, dt)>(gpux_cu::un_f<gpux_cu::uop_##op,            \
                                                          GPUX_CU_T(dt)>(),             \
                                            out, a, GPUX_CU_NULL, GPUX_CU_NULL, n);     \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_unary_##op##_##dt##_n(GPUX_CU_UN_R(op, dt) *out,                  \
                                            const GPUX_CU_T(dt) *a,                     \
                                            const __grid_constant__ gpux_nd_params p) { \
    gpux_cu::map_n<1>(gpux_cu::un_f<gpux_cu::uop_##op, GPUX_CU_T(dt)>(), out, a,        \
                      GPUX_CU_NULL, GPUX_CU_NULL, p);                                   \
  }
#define GPUX_CU_UNARY_OP(op, id, dts, res) dts(GPUX_CU_UNARY_KERNELS, op)
GPUX_UNARY_OPS(GPUX_CU_UNARY_OP)

#define GPUX_CU_WHERE_KERNELS(unused, dt)                                               \
  GPUX_CU_KERNEL gpux_where_##dt##_c(GPUX_CU_T(dt) *out, const unsigned char *cond,     \
                                     const GPUX_CU_T(dt) *a, const GPUX_CU_T(dt) *b,    \
                                     long long n) {                                     \
    gpux_cu::map_c<3, false>(gpux_cu::where_f<GPUX_CU_D(dt)>(), out, cond, a, b, n);           \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_where_##dt##_n(GPUX_CU_T(dt) *out, const unsigned char *cond,     \
                                     const GPUX_CU_T(dt) *a, const GPUX_CU_T(dt) *b,    \
                                     const __grid_constant__ gpux_nd_params p) {        \
    gpux_cu::map_n<3>(gpux_cu::where_f<GPUX_CU_D(dt)>(), out, cond, a, b, p);           \
  }
GPUX_DT_ALL(GPUX_CU_WHERE_KERNELS, _)
