/* gpux CUDA backend: the ops prelude of elementwise expressions (program build flag
 * GPUX__PROG_OPS, docs/kernels.md): the built-in elementwise ops as functions
 * gpux_<op>(...) overloaded for float, double, int, long long and unsigned char (uint8
 * semantics: wraps modulo 256), float-only ops for float and double. Each is the built-in
 * kernels' own definition (gpux_cuda_ops.cuh, spliced in when this file is embedded), so
 * a fused expression gives the bits of the chain of built-in ops. Plain overloads, not
 * templates, as the OpenCL prelude has them (__attribute__((overloadable))): a call with
 * mixed operand types is ambiguous on both backends alike. */
#include "gpux_cuda_ops.cuh"

#define GPUX__EW_BIN(op, T) \
  __device__ __forceinline__ T gpux_##op(T a, T b) { return gpux_cu::k_##op<T>(a, b); }
#define GPUX__EW_UN(op, T) \
  __device__ __forceinline__ T gpux_##op(T a) { return gpux_cu::k_##op<T>(a); }
#define GPUX__EW_ALL(X, op) \
  X(op, float) X(op, double) X(op, int) X(op, long long) X(op, unsigned char)
#define GPUX__EW_FP(X, op) X(op, float) X(op, double)

GPUX__EW_ALL(GPUX__EW_BIN, add)
GPUX__EW_ALL(GPUX__EW_BIN, sub)
GPUX__EW_ALL(GPUX__EW_BIN, mul)
GPUX__EW_ALL(GPUX__EW_BIN, div)
GPUX__EW_ALL(GPUX__EW_BIN, pow)
GPUX__EW_ALL(GPUX__EW_BIN, minimum)
GPUX__EW_ALL(GPUX__EW_BIN, maximum)
GPUX__EW_ALL(GPUX__EW_BIN, mod)
GPUX__EW_ALL(GPUX__EW_UN, neg)
GPUX__EW_ALL(GPUX__EW_UN, abs)
GPUX__EW_ALL(GPUX__EW_UN, sign)
GPUX__EW_ALL(GPUX__EW_UN, relu)
GPUX__EW_FP(GPUX__EW_UN, exp)
GPUX__EW_FP(GPUX__EW_UN, log)
GPUX__EW_FP(GPUX__EW_UN, log1p)
GPUX__EW_FP(GPUX__EW_UN, expm1)
GPUX__EW_FP(GPUX__EW_UN, sqrt)
GPUX__EW_FP(GPUX__EW_UN, rsqrt)
GPUX__EW_FP(GPUX__EW_UN, sin)
GPUX__EW_FP(GPUX__EW_UN, cos)
GPUX__EW_FP(GPUX__EW_UN, tan)
GPUX__EW_FP(GPUX__EW_UN, tanh)
GPUX__EW_FP(GPUX__EW_UN, sigmoid)
GPUX__EW_FP(GPUX__EW_UN, floor)
GPUX__EW_FP(GPUX__EW_UN, ceil)
GPUX__EW_FP(GPUX__EW_UN, round)

#undef GPUX__EW_BIN
#undef GPUX__EW_UN
#undef GPUX__EW_ALL
#undef GPUX__EW_FP
