/* gpux kernel dialect, OpenCL ops prelude (program flag GPUX__PROG_OPS: elementwise
 * expressions, docs/kernels.md): the built-in elementwise ops as overloaded functions
 * gpux_<op>(...) for float, double (where the device has fp64) and the integer types (char,
 * short, int, long, uchar, ushort, uint, ulong: int8 .. uint64's semantics). Each one calls
 * the built-in kernels' own definition (gpux_cl_ops.h), so a fused expression computes
 * exactly what the chain of ops does.
 * Overloads use __attribute__((overloadable)): NVIDIA's OpenCL compiler and pocl accept
 * it, and reject C11 _Generic. Put after gpux_dialect.h; both headers are spliced in when
 * embedded (cmake/embed.cmake). */
#ifndef GPUX_EW_OPS_H
#define GPUX_EW_OPS_H
#include "gpux_kernels.h"
#include "gpux_cl_prelude.h"
#include "gpux_cl_ops.h"
#include "gpux_half.h"

/* float16 / bfloat16 arrays and scalars: stored as gpux__hbits, seen by the expression as
 * float (their exact values), stored back rounded once to the dtype (gpux_half.h) */
typedef ushort gpux__hbits;
static inline float gpux__h2f_f16(ushort h) { return as_float(gpux_f16_to_f32(h)); }
static inline float gpux__h2f_bf16(ushort h) { return as_float(gpux_bf16_to_f32(h)); }
static inline ushort gpux__f2h_f16(float x) { return gpux_f32_to_f16(as_uint(x)); }
static inline ushort gpux__f2h_bf16(float x) { return gpux_f32_to_bf16(as_uint(x)); }

/* One overload per op of GPUX_BINARY_OPS / GPUX_UNARY_OPS whose result is the input dtype,
 * for each dtype of the op's list (float64 where the device has it: GPUX_ON_f64). The
 * comparisons and logical ops are the expressions' own operators. An op travels through the
 * macros below as _<op>, pasted at once: pow, exp or abs alone may be macros in OpenCL
 * headers (pocl's), which would expand on the way. */
#define GPUX__EW_B(op_, dt)                                                              \
  static inline __attribute__((overloadable)) gpux_binary##op_##_##dt##_rt gpux##op_(     \
      GPUX_T_##dt a, GPUX_T_##dt b) {                                                    \
    return gpux_binary##op_##_##dt##_fn(a, b);                                           \
  }
#define GPUX__EW_U(op_, dt)                                                              \
  static inline __attribute__((overloadable)) gpux_unary##op_##_##dt##_rt gpux##op_(      \
      GPUX_T_##dt x) {                                                                   \
    return gpux_unary##op_##_##dt##_fn(x);                                               \
  }
/* each dtype with a type of its own (GPUX_OWN_TYPE_*: not bool) that the device has */
#define GPUX__EW_BON(op_, dt) GPUX_ON_##dt(GPUX__EW_B, op_, dt)
#define GPUX__EW_UON(op_, dt) GPUX_ON_##dt(GPUX__EW_U, op_, dt)
#define GPUX__EW_BDT(op_, dt) GPUX_OWN_TYPE_##dt(GPUX__EW_BON, op_, dt)
#define GPUX__EW_UDT(op_, dt) GPUX_OWN_TYPE_##dt(GPUX__EW_UON, op_, dt)
/* res is GPUX_RES_SAME (0) or GPUX_RES_BOOL (1), expanded before the paste */
#define GPUX__EW_PICK(res, M, dts, op_) GPUX__EW_RES_##res(M, dts, op_)
#define GPUX__EW_RES_0(M, dts, op_) dts(M, op_)
#define GPUX__EW_RES_1(M, dts, op_)
#define GPUX__EW_RES_2(M, dts, op_) dts(M, op_) /* GPUX_RES_REAL: on real dtypes, SAME */
#define GPUX__EW_BOP(op, id, dts, res) GPUX__EW_PICK(res, GPUX__EW_BDT, dts, _##op)
#define GPUX__EW_UOP(op, id, dts, res) GPUX__EW_PICK(res, GPUX__EW_UDT, dts, _##op)
GPUX_BINARY_OPS(GPUX__EW_BOP)
GPUX_UNARY_OPS(GPUX__EW_UOP)
#undef GPUX__EW_UOP
#undef GPUX__EW_BOP
#undef GPUX__EW_RES_2
#undef GPUX__EW_RES_1
#undef GPUX__EW_RES_0
#undef GPUX__EW_PICK
#undef GPUX__EW_UDT
#undef GPUX__EW_BDT
#undef GPUX__EW_UON
#undef GPUX__EW_BON
#undef GPUX__EW_U
#undef GPUX__EW_B
#endif
