/* gpux kernel dialect, OpenCL ops prelude (program flag GPUX__PROG_OPS: elementwise
 * expressions, docs/kernels.md): the built-in elementwise ops as overloaded functions
 * gpux_<op>(...) for float, double (where the device has fp64), int, long and uchar
 * (uint8 semantics). Each one calls the built-in kernels' own definition
 * (gpux_cl_ops.h), so a fused expression computes exactly what the chain of ops does.
 * Overloads use __attribute__((overloadable)): NVIDIA's OpenCL compiler and pocl accept
 * it, and reject C11 _Generic. Put after gpux_dialect.h; both headers are spliced in when
 * embedded (cmake/embed.cmake). */
#ifndef GPUX_EW_OPS_H
#define GPUX_EW_OPS_H
#include "gpux_cl_prelude.h"
#include "gpux_cl_ops.h"

/* op names are only pasted (pow, exp, abs may be macros in OpenCL headers) */
#define GPUX__EW_B(op, dt)                                                               \
  static inline __attribute__((overloadable)) gpux_binary_##op##_##dt##_rt gpux_##op(     \
      GPUX_T_##dt a, GPUX_T_##dt b) {                                                    \
    return gpux_binary_##op##_##dt##_fn(a, b);                                           \
  }
#define GPUX__EW_U(op, dt)                                                               \
  static inline __attribute__((overloadable)) gpux_unary_##op##_##dt##_rt gpux_##op(      \
      GPUX_T_##dt x) {                                                                   \
    return gpux_unary_##op##_##dt##_fn(x);                                               \
  }
/* every numeric dtype */
#define GPUX__EW_NUMERIC(dt)                                                             \
  GPUX__EW_B(add, dt) GPUX__EW_B(sub, dt) GPUX__EW_B(mul, dt) GPUX__EW_B(div, dt)        \
  GPUX__EW_B(pow, dt) GPUX__EW_B(minimum, dt) GPUX__EW_B(maximum, dt)                    \
  GPUX__EW_B(mod, dt) GPUX__EW_U(neg, dt) GPUX__EW_U(abs, dt) GPUX__EW_U(sign, dt)       \
  GPUX__EW_U(relu, dt)
/* floats only */
#define GPUX__EW_FLOAT(dt)                                                               \
  GPUX__EW_NUMERIC(dt)                                                                   \
  GPUX__EW_U(exp, dt) GPUX__EW_U(log, dt) GPUX__EW_U(log1p, dt) GPUX__EW_U(expm1, dt)    \
  GPUX__EW_U(sqrt, dt) GPUX__EW_U(rsqrt, dt) GPUX__EW_U(sin, dt) GPUX__EW_U(cos, dt)     \
  GPUX__EW_U(tan, dt) GPUX__EW_U(tanh, dt) GPUX__EW_U(sigmoid, dt) GPUX__EW_U(floor, dt) \
  GPUX__EW_U(ceil, dt) GPUX__EW_U(round, dt)

GPUX__EW_FLOAT(f32)
#ifdef GPUX_HAVE_FP64
GPUX__EW_FLOAT(f64)
#endif
GPUX__EW_NUMERIC(i32)
GPUX__EW_NUMERIC(i64)
GPUX__EW_NUMERIC(u8)
#undef GPUX__EW_FLOAT
#undef GPUX__EW_NUMERIC
#undef GPUX__EW_U
#undef GPUX__EW_B
#endif
