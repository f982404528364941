/* gpux CUDA kernels: the built-in elementwise ops (the semantics gpux_kernels.h lists:
 * integer wrap, floor division, x / 0 == 0, NaN rules), as __device__ function templates
 * k_<op><T>. elementwise.cu builds the built-in kernels on them, and the elementwise
 * expression prelude (gpux_ew_ops.cuh, embedded into the CUDA backend for run-time
 * compiles) wraps them as gpux_<op>() overloads, so a fused expression computes exactly
 * what the chain of built-in kernels computes.
 * Self-contained (no includes): the embedded prelude is compiled by NVRTC alone. */
#ifndef GPUX_CUDA_OPS_CUH
#define GPUX_CUDA_OPS_CUH

namespace gpux_cu {

/* The element types of the ops: float, double and the integers (signed char, short, int,
 * long long and their unsigned types). The traits are enumerators: NVRTC emits a static
 * constexpr data member as a device global into every program that instantiates it. */
template <class T> struct tr {
  enum { fp = (T)0.5 != (T)0, /* float and double */
         sgn = (T)(-1) < (T)0 };
};
/* the unsigned type integer arithmetic wraps in: 8-byte integers in unsigned long long, the
 * others in unsigned int (8- and 16-bit ones truncate on the way out; left to the integer
 * promotions they would multiply as int, which may overflow) */
template <class T, bool W = sizeof(T) == 8> struct wrap_type { typedef unsigned int type; };
template <class T> struct wrap_type<T, true> { typedef unsigned long long type; };

template <class T> __device__ __forceinline__ T wrap_neg(T a) {
  typedef typename wrap_type<T>::type U;
  return (T)(U)((U)0 - (U)a);
}

/* ---- binary --------------------------------------------------------------------------- */
template <class T> __device__ __forceinline__ T k_add(T a, T b) {
  if constexpr (tr<T>::fp) return a + b;
  else { typedef typename wrap_type<T>::type U; return (T)(U)((U)a + (U)b); }
}
template <class T> __device__ __forceinline__ T k_sub(T a, T b) {
  if constexpr (tr<T>::fp) return a - b;
  else { typedef typename wrap_type<T>::type U; return (T)(U)((U)a - (U)b); }
}
template <class T> __device__ __forceinline__ T k_mul(T a, T b) {
  if constexpr (tr<T>::fp) return a * b;
  else { typedef typename wrap_type<T>::type U; return (T)(U)((U)a * (U)b); }
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
    typedef typename wrap_type<T>::type U;
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
/* bits of the integer dtypes (and bool for and / or / xor: 0 / 1 stay 0 / 1). Shifts as
 * NumPy defines them: a count outside [0, width) gives 0, and -1 for a negative value
 * shifted right; left shifts wrap through the unsigned type; right shifts are arithmetic,
 * spelled out. */
template <class T> __device__ __forceinline__ T k_bitwise_and(T a, T b) { return (T)(a & b); }
template <class T> __device__ __forceinline__ T k_bitwise_or(T a, T b) { return (T)(a | b); }
template <class T> __device__ __forceinline__ T k_bitwise_xor(T a, T b) { return (T)(a ^ b); }
template <class T> __device__ __forceinline__ T k_left_shift(T a, T b) {
  static_assert(!tr<T>::fp, "shifts are defined for integer dtypes only");
  constexpr T w = (T)(8 * sizeof(T));
  typedef typename wrap_type<T>::type U;
  if constexpr (tr<T>::sgn) {
    if (b < 0) return (T)0;
  }
  return b >= w ? (T)0 : (T)((U)a << (U)b);
}
template <class T> __device__ __forceinline__ T k_right_shift(T a, T b) {
  static_assert(!tr<T>::fp, "shifts are defined for integer dtypes only");
  constexpr T w = (T)(8 * sizeof(T));
  if constexpr (tr<T>::sgn) {
    if (b < 0 || b >= w) return a < 0 ? (T)-1 : (T)0;
    return a < 0 ? (T)~(~a >> b) : (T)(a >> b);
  } else {
    return b >= w ? (T)0 : (T)(a >> b);
  }
}
template <class T> __device__ __forceinline__ T k_bitwise_not(T a) {
  static_assert(!tr<T>::fp, "bitwise_not is defined for integer dtypes only");
  return (T)~a;
}
template <class T> __device__ __forceinline__ T k_popcount(T a) {
  static_assert(!tr<T>::fp, "popcount is defined for integer dtypes only");
  if constexpr (sizeof(T) == 8) return (T)__popcll((unsigned long long)a);
  else return (T)__popc((unsigned int)a & (~0u >> (32 - 8 * sizeof(T)))); /* a's own bits */
}

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

}  // namespace gpux_cu

#endif
