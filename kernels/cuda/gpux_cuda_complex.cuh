/* gpux CUDA kernels: the complex elementwise ops (complex64 = float2, complex128 = double2)
 * as overloads k_<op>(float2 ...) beside the templates of gpux_cuda_ops.cuh, so that the
 * op structs of elementwise.cu pick them by overload resolution (a non-template overload
 * wins over the template). The formulas are kernels/common/gpux_complex.h's, which the
 * OpenCL set uses too; elementwise.cu is compiled with -fmad=false, so no product is fused.
 * Not part of the expressions' ops prelude (expressions take no complex operands). */
#ifndef GPUX_CUDA_COMPLEX_CUH
#define GPUX_CUDA_COMPLEX_CUH

#include "gpux_complex.h"

namespace gpux_cu {

#define GPUX_CU_CX(S, R, C)                                                                  \
  __device__ __forceinline__ C k_add(C a, C b) { return gpux_cx_add_##S(a, b); }             \
  __device__ __forceinline__ C k_sub(C a, C b) { return gpux_cx_sub_##S(a, b); }             \
  __device__ __forceinline__ C k_mul(C a, C b) { return gpux_cx_mul_##S(a, b); }             \
  __device__ __forceinline__ C k_div(C a, C b) { return gpux_cx_div_##S(a, b); }             \
  __device__ __forceinline__ C k_pow(C a, C b) { return gpux_cx_pow_##S(a, b); }             \
  __device__ __forceinline__ unsigned char k_eq(C a, C b) { return gpux_cx_eq_##S(a, b); }   \
  __device__ __forceinline__ unsigned char k_ne(C a, C b) { return !gpux_cx_eq_##S(a, b); }  \
  __device__ __forceinline__ unsigned char k_logical_and(C a, C b) {                         \
    return gpux_cx_nz_##S(a) && gpux_cx_nz_##S(b);                                           \
  }                                                                                          \
  __device__ __forceinline__ unsigned char k_logical_or(C a, C b) {                          \
    return gpux_cx_nz_##S(a) || gpux_cx_nz_##S(b);                                           \
  }                                                                                          \
  __device__ __forceinline__ unsigned char k_logical_xor(C a, C b) {                         \
    return gpux_cx_nz_##S(a) != gpux_cx_nz_##S(b);                                           \
  }                                                                                          \
  __device__ __forceinline__ unsigned char k_logical_not(C a) { return !gpux_cx_nz_##S(a); } \
  __device__ __forceinline__ C k_neg(C a) { return gpux_cx_neg_##S(a); }                     \
  __device__ __forceinline__ C k_conj(C a) { return gpux_cx_conj_##S(a); }                   \
  __device__ __forceinline__ C k_exp(C a) { return gpux_cx_exp_##S(a); }                     \
  __device__ __forceinline__ C k_log(C a) { return gpux_cx_log_##S(a); }                     \
  __device__ __forceinline__ C k_sqrt(C a) { return gpux_cx_sqrt_##S(a); }                   \
  __device__ __forceinline__ C k_sin(C a) { return gpux_cx_sin_##S(a); }                     \
  __device__ __forceinline__ C k_cos(C a) { return gpux_cx_cos_##S(a); }                     \
  __device__ __forceinline__ R k_abs(C a) { return gpux_cx_abs_##S(a); }                     \
  __device__ __forceinline__ R k_angle(C a) { return gpux_cx_angle_##S(a); }                 \
  __device__ __forceinline__ R k_real(C a) { return a.x; }                                   \
  __device__ __forceinline__ R k_imag(C a) { return a.y; }
GPUX_CU_CX(c64, float, float2)
GPUX_CU_CX(c128, double, double2)
#undef GPUX_CU_CX

}  // namespace gpux_cu

#endif
