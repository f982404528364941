/* gpux CUDA backend: the ops prelude of elementwise expressions (program build flag
 * GPUX__PROG_OPS, docs/kernels.md): the built-in elementwise ops as functions
 * gpux_<op>(...) overloaded for float, double and the integer types of the dialect
 * (gpux_dialect.cuh: signed char, short, int, long long and their unsigned types, each with
 * its dtype's wrap-around), float-only ops for float and double. Each is the built-in
 * kernels' own definition (gpux_cuda_ops.cuh, spliced in when this file is embedded), so
 * a fused expression gives the bits of the chain of built-in ops. Plain overloads, not
 * templates, as the OpenCL prelude has them (__attribute__((overloadable))): a call with
 * mixed operand types is ambiguous on both backends alike. */
#include "gpux_kernels.h"
#include "gpux_cuda_ops.cuh"
/* (the conversions an expression does not use are not worth a warning in its build log) */
#pragma nv_diag_suppress 177
#include "gpux_half.h"
#pragma nv_diag_default 177

/* float16 / bfloat16 arrays and scalars: stored as gpux__hbits, seen by the expression as
 * float (their exact values), stored back rounded once to the dtype (gpux_half.h) */
typedef unsigned short gpux__hbits;
__device__ __forceinline__ float gpux__h2f_f16(unsigned short h) { return __uint_as_float(gpux_f16_to_f32(h)); }
__device__ __forceinline__ float gpux__h2f_bf16(unsigned short h) { return __uint_as_float(gpux_bf16_to_f32(h)); }
__device__ __forceinline__ unsigned short gpux__f2h_f16(float x) { return gpux_f32_to_f16(__float_as_uint(x)); }
__device__ __forceinline__ unsigned short gpux__f2h_bf16(float x) { return gpux_f32_to_bf16(__float_as_uint(x)); }

/* One overload per op of GPUX_BINARY_OPS / GPUX_UNARY_OPS whose result is the input dtype,
 * for each dtype of the op's list; the comparisons and logical ops are the expressions' own
 * operators. */
#define GPUX__EW_T_f32 float
#define GPUX__EW_T_f64 double
#define GPUX__EW_T_i32 int
#define GPUX__EW_T_i64 long long
#define GPUX__EW_T_u8 unsigned char
#define GPUX__EW_T_i8 signed char
#define GPUX__EW_T_i16 short
#define GPUX__EW_T_u16 unsigned short
#define GPUX__EW_T_u32 unsigned int
#define GPUX__EW_T_u64 unsigned long long
#define GPUX__EW_BIN1(op, dt)                                                     \
  __device__ __forceinline__ GPUX__EW_T_##dt gpux_##op(GPUX__EW_T_##dt a,         \
                                                       GPUX__EW_T_##dt b) {       \
    return gpux_cu::k_##op<GPUX__EW_T_##dt>(a, b);                                \
  }
#define GPUX__EW_UN1(op, dt)                                                      \
  __device__ __forceinline__ GPUX__EW_T_##dt gpux_##op(GPUX__EW_T_##dt a) {       \
    return gpux_cu::k_##op<GPUX__EW_T_##dt>(a);                                   \
  }
/* each dtype with a type of its own (GPUX_OWN_TYPE_*: not bool) */
#define GPUX__EW_BIN(op, dt) GPUX_OWN_TYPE_##dt(GPUX__EW_BIN1, op, dt)
#define GPUX__EW_UN(op, dt) GPUX_OWN_TYPE_##dt(GPUX__EW_UN1, op, dt)
/* res is GPUX_RES_SAME (0) or GPUX_RES_BOOL (1), expanded before the paste */
#define GPUX__EW_PICK(res, M, dts, op) GPUX__EW_RES_##res(M, dts, op)
#define GPUX__EW_RES_0(M, dts, op) dts(M, op)
#define GPUX__EW_RES_1(M, dts, op)
#define GPUX__EW_RES_2(M, dts, op) dts(M, op) /* GPUX_RES_REAL: on real dtypes, SAME */
#define GPUX__EW_BOP(op, id, dts, res) GPUX__EW_PICK(res, GPUX__EW_BIN, dts, op)
#define GPUX__EW_UOP(op, id, dts, res) GPUX__EW_PICK(res, GPUX__EW_UN, dts, op)
GPUX_BINARY_OPS(GPUX__EW_BOP)
GPUX_UNARY_OPS(GPUX__EW_UOP)

#undef GPUX__EW_UOP
#undef GPUX__EW_BOP
#undef GPUX__EW_RES_2
#undef GPUX__EW_RES_1
#undef GPUX__EW_RES_0
#undef GPUX__EW_PICK
#undef GPUX__EW_UN
#undef GPUX__EW_BIN
#undef GPUX__EW_UN1
#undef GPUX__EW_BIN1
#undef GPUX__EW_T_u64
#undef GPUX__EW_T_u32
#undef GPUX__EW_T_u16
#undef GPUX__EW_T_i16
#undef GPUX__EW_T_i8
#undef GPUX__EW_T_u8
#undef GPUX__EW_T_i64
#undef GPUX__EW_T_i32
#undef GPUX__EW_T_f64
#undef GPUX__EW_T_f32
