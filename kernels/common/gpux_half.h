/* gpux float16 / bfloat16 conversions, written once and compiled three ways: OpenCL C
 * (kernels/cl/copy.cl, elementwise.cl), CUDA C++ (kernels/cuda/copy.cu, elementwise.cu, the
 * expressions' prelude) and C11 (the core's scalar conversion, src/api/array.c). Halves are
 * stored as 16-bit patterns; every conversion is integer bit work (CUDA: float16's
 * instruction where IEEE fixes the bits, below), so the bits never depend on a device's
 * conversion instructions, rounding or denormal modes (the rules are in gpux_kernels.h;
 * tests/ref checks them with an independent long double implementation). */
#ifndef GPUX_HALF_H
#define GPUX_HALF_H

/* ---- portability: types, 64-bit constants, count of leading zeros --------------------- */
#if defined(__OPENCL_VERSION__)
#define GPUX_HFN static inline
#define GPUX_H_U16 ushort
#define GPUX_H_U32 uint
#define GPUX_H_U64 ulong
#define GPUX_H_I64 long
#define GPUX_H_C64(c) c##UL
#define GPUX_H_CLZ32(x) clz(x)
#define GPUX_H_CLZ64(x) clz(x)
/* |x| of an int64 as uint64, exact for the minimum; OpenCL's abs: a select would become
 * llvm.abs, which oclgrind cannot run */
#define GPUX_H_UABS64(x) abs(x)
#elif defined(__CUDACC__)
#define GPUX_HFN static __device__ __forceinline__
#define GPUX_H_U16 unsigned short
#define GPUX_H_U32 unsigned
#define GPUX_H_U64 unsigned long long
#define GPUX_H_I64 long long
#define GPUX_H_C64(c) c##ULL
#define GPUX_H_CLZ32(x) (unsigned)__clz((int)(x))
#define GPUX_H_CLZ64(x) __clzll((long long)(x))
#define GPUX_H_UABS64(x) ((x) < 0 ? (GPUX_H_U64)0 - (GPUX_H_U64)(x) : (GPUX_H_U64)(x))
#else /* C11 host */
#include <stdint.h>
#define GPUX_HFN static inline
#define GPUX_H_U16 uint16_t
#define GPUX_H_U32 uint32_t
#define GPUX_H_U64 uint64_t
#define GPUX_H_I64 int64_t
#define GPUX_H_C64(c) c##ULL
/* the callers never pass 0 */
#define GPUX_H_CLZ32(x) (unsigned)__builtin_clz(x)
#define GPUX_H_CLZ64(x) __builtin_clzll(x)
#define GPUX_H_UABS64(x) ((x) < 0 ? (GPUX_H_U64)0 - (GPUX_H_U64)(x) : (GPUX_H_U64)(x))
#endif

/* CUDA devices of compute capability 5.3 and later convert between float32 and float16 with
 * one instruction (cvt), whose results IEEE defines for every value but NaN: the same bits
 * as the integer work below, which still gives NaNs their payload rule (gpux_kernels.h). A
 * compile for the host or an older device takes the integer work throughout. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
#define GPUX_H_CVT_F16 1
#endif

/* float32 bits -> float16 bits, round to nearest even. NaN: quiet, with the sign and the
 * leading payload bits (a select after cvt, not a branch: a branch to the integer work made
 * the compiler predicate all of it into every conversion) */
#ifdef GPUX_H_CVT_F16
GPUX_HFN GPUX_H_U16 gpux_f32_to_f16(GPUX_H_U32 b) {
  const GPUX_H_U32 a = b & 0x7fffffffu;
  unsigned short r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(__uint_as_float(b)));
  return a > 0x7f800000u ? (GPUX_H_U16)(((b >> 16) & 0x8000u) | 0x7e00u | ((a >> 13) & 0x3ffu))
                         : r;
}
#else
GPUX_HFN GPUX_H_U16 gpux_f32_to_f16(GPUX_H_U32 b) {
  const GPUX_H_U32 sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
  if (a > 0x7f800000u) return (GPUX_H_U16)(sign | 0x7e00u | ((a >> 13) & 0x3ffu)); /* NaN */
  const int e = (int)(a >> 23) - 127;
  if (e > 15) return (GPUX_H_U16)(sign | 0x7c00u);
  const GPUX_H_U32 m = a & 0x7fffffu;
  GPUX_H_U32 h, rem, tie;
  if (e >= -14) { /* normal; a carry may reach inf */
    h = ((GPUX_H_U32)(e + 15) << 10) | (m >> 13);
    rem = m & 0x1fffu;
    tie = 0x1000u;
  } else { /* subnormal or zero */
    if (e < -25) return (GPUX_H_U16)sign;
    const int sh = -1 - e; /* 14..24 */
    const GPUX_H_U32 sig = m | 0x800000u;
    h = sig >> sh;
    rem = sig & ((1u << sh) - 1u);
    tie = 1u << (sh - 1);
  }
  if (rem > tie || (rem == tie && (h & 1u))) h++;
  return (GPUX_H_U16)(sign | h);
}
#endif
/* float32 bits -> bfloat16 bits, round to nearest even (a carry may reach inf) */
GPUX_HFN GPUX_H_U16 gpux_f32_to_bf16(GPUX_H_U32 b) {
  if ((b & 0x7fffffffu) > 0x7f800000u) return (GPUX_H_U16)((b >> 16) | 0x0040u); /* NaN */
  return (GPUX_H_U16)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
/* float64 bits -> float16 (MB 10, BIAS 15: gpux_f64_to_f16) or bfloat16 (MB 7, BIAS 127:
 * gpux_f64_to_bf16) bits; one body, with the format's constants spelled in */
#define GPUX_H_DEF_F64_TO_H(name, MB, BIAS)                                                  \
  GPUX_HFN GPUX_H_U16 name(GPUX_H_U64 b) {                                                   \
    const GPUX_H_U32 sign = (GPUX_H_U32)(b >> 48) & 0x8000u;                                 \
    const GPUX_H_U64 a = b & GPUX_H_C64(0x7fffffffffffffff);                                 \
    const GPUX_H_U32 expmask = ((1u << (15 - MB)) - 1u) << MB;                               \
    if (a > GPUX_H_C64(0x7ff0000000000000)) /* NaN: quiet, sign, leading payload bits */     \
      return (GPUX_H_U16)(sign | expmask | (1u << (MB - 1)) |                                \
                          (GPUX_H_U32)((a >> (52 - MB)) & ((1u << MB) - 1u)));               \
    const int e = (int)(a >> 52) - 1023;                                                     \
    if (e > BIAS) return (GPUX_H_U16)(sign | expmask); /* inf, or beyond the range */       \
    const GPUX_H_U64 m = a & GPUX_H_C64(0xfffffffffffff);                                    \
    GPUX_H_U64 rem, tie;                                                                     \
    GPUX_H_U32 h;                                                                            \
    if (e >= 1 - BIAS) { /* normal */                                                        \
      const int sh = 52 - MB;                                                                \
      h = ((GPUX_H_U32)(e + BIAS) << MB) | (GPUX_H_U32)(m >> sh);                            \
      rem = m & ((GPUX_H_C64(1) << sh) - GPUX_H_C64(1));                                     \
      tie = GPUX_H_C64(1) << (sh - 1);                                                       \
    } else { /* subnormal or zero */                                                         \
      if (e < 1 - BIAS - MB - 1) return (GPUX_H_U16)sign; /* below half the least one */    \
      const int sh = 52 + (1 - BIAS) - MB - e;             /* 43..53 */                      \
      const GPUX_H_U64 sig = m | (GPUX_H_C64(1) << 52);                                      \
      h = (GPUX_H_U32)(sig >> sh);                                                           \
      rem = sig & ((GPUX_H_C64(1) << sh) - GPUX_H_C64(1));                                   \
      tie = GPUX_H_C64(1) << (sh - 1);                                                       \
    }                                                                                        \
    if (rem > tie || (rem == tie && (h & 1u))) h++;                                          \
    return (GPUX_H_U16)(sign | h);                                                           \
  }
GPUX_H_DEF_F64_TO_H(gpux_f64_to_f16, 10, 15)
GPUX_H_DEF_F64_TO_H(gpux_f64_to_bf16, 7, 127)
/* An integer -> bfloat16, rounded once (a detour through float would round twice): the
 * magnitude m with the sign bit `sign` (0 or 0x8000). */
GPUX_HFN GPUX_H_U16 gpux_mag_to_bf16(GPUX_H_U32 sign, GPUX_H_U64 m) {
  if (m == 0) return (GPUX_H_U16)0;
  const int p = 63 - (int)GPUX_H_CLZ64(m); /* the leading bit */
  if (p <= 7)
    return (GPUX_H_U16)(sign | ((GPUX_H_U32)(p + 127) << 7) |
                        ((GPUX_H_U32)(m << (7 - p)) & 0x7fu));
  const int sh = p - 7;
  GPUX_H_U32 h = ((GPUX_H_U32)(p + 127) << 7) | ((GPUX_H_U32)(m >> sh) & 0x7fu);
  const GPUX_H_U64 rem = m & ((GPUX_H_C64(1) << sh) - GPUX_H_C64(1)),
                   tie = GPUX_H_C64(1) << (sh - 1);
  if (rem > tie || (rem == tie && (h & 1u))) h++;
  return (GPUX_H_U16)(sign | h);
}
GPUX_HFN GPUX_H_U16 gpux_i64_to_bf16(GPUX_H_I64 x) {
  return gpux_mag_to_bf16(x < 0 ? 0x8000u : 0u, GPUX_H_UABS64(x));
}
GPUX_HFN GPUX_H_U16 gpux_u64_to_bf16(GPUX_H_U64 x) { return gpux_mag_to_bf16(0u, x); }
/* float16 bits -> float32 bits (exact; NaN quiet). The exponent's cases are ranges of |h|:
 * tests of the 5-bit field for equality become a switch on an i5 value, which oclgrind
 * 21.10 reads with the sign bit still in it. */
GPUX_HFN GPUX_H_U32 gpux_f16_to_f32(GPUX_H_U16 hv) {
  const GPUX_H_U32 h = hv, sign = (h & 0x8000u) << 16, a = h & 0x7fffu, m = h & 0x3ffu;
#ifdef GPUX_H_CVT_F16
  float f; /* exact, inf included; NaN by the payload rule, selected */
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(hv));
  return a > 0x7c00u ? (sign | 0x7fc00000u | (m << 13)) : __float_as_uint(f);
#else
  if (a >= 0x7c00u) return m ? (sign | 0x7fc00000u | (m << 13)) : (sign | 0x7f800000u);
  if (a < 0x400u) {
    if (!m) return sign;
    const GPUX_H_U32 p = 31u - GPUX_H_CLZ32(m); /* subnormal m * 2^-24: leading bit p (0..9) */
    return sign | ((p + 103u) << 23) | ((m << (23u - p)) & 0x7fffffu);
  }
  return sign | (((a >> 10) + 112u) << 23) | (m << 13);
#endif
}
/* bfloat16 bits -> float32 bits (exact; NaN quiet) */
GPUX_HFN GPUX_H_U32 gpux_bf16_to_f32(GPUX_H_U16 hv) {
  const GPUX_H_U32 b = (GPUX_H_U32)hv << 16;
  return (b & 0x7fffffffu) > 0x7f800000u ? (b | 0x00400000u) : b;
}
/* float32 bits -> float64 bits (exact, subnormals included; NaN quiet) */
GPUX_HFN GPUX_H_U64 gpux_f32b_to_f64b(GPUX_H_U32 b) {
  const GPUX_H_U64 sign = (GPUX_H_U64)(b >> 31) << 63;
  const GPUX_H_U32 e = (b >> 23) & 0xffu, m = b & 0x7fffffu;
  if (e == 0xffu)
    return m ? (sign | GPUX_H_C64(0x7ff8000000000000) | ((GPUX_H_U64)m << 29))
             : (sign | GPUX_H_C64(0x7ff0000000000000));
  if (e == 0) {
    if (!m) return sign;
    const GPUX_H_U32 p = 31u - GPUX_H_CLZ32(m); /* m * 2^-149: leading bit p (0..22) */
    return sign | ((GPUX_H_U64)(p + 874u) << 52) |
           (((GPUX_H_U64)m << (52u - p)) & GPUX_H_C64(0xfffffffffffff));
  }
  return sign | ((GPUX_H_U64)(e + 896u) << 52) | ((GPUX_H_U64)m << 29);
}

#endif
