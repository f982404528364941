/* gpux: what the host code and both kernel sets (kernels/cuda, kernels/cl) share:
 * dtype ids, the op lists with the dtypes each op supports, kernel naming, the n-d launch
 * parameter block and tile sizes. Plain preprocessor C so that C11, CUDA C++ and OpenCL C
 * all read it. Every kernel set expands these lists, so the sets cannot drift apart;
 * tests/test_kernel_coverage.c checks the compiled sets against them.
 *
 * Kernel names:
 *   gpux_binary_<op>_<dt>_<layout>   layout c: out, a, b contiguous, same shape
 *                                    layout s: out, a contiguous; b a scalar argument
 *                                              (with a flag that swaps the operands)
 *                                    layout n: n-d strided/broadcast (gpux_nd_params)
 *   gpux_unary_<op>_<dt>_<layout>    layouts c, n
 *   gpux_where_<dt>_<layout>         layouts c, n; cond is bool
 *   gpux_cast_<from>_<to>_<layout>   layouts c, n
 *   gpux_fill_<dt>, gpux_arange_<dt>, gpux_linspace_<dt>   contiguous output
 *   gpux_copy_n_<bytes>              n-d strided copy by element size (1, 2, 4, 8)
 *   gpux_copy_t_<bytes>              tiled copy for transposing layouts (tile_dim >= 0)
 *
 * Semantics every kernel set and the CPU reference (tests/ref) follow bit for bit where
 * integer results are concerned:
 *   integer add, sub, mul, neg, abs: wrap modulo 2^bits (computed unsigned, no UB);
 *   integer div: floor division (NumPy //); x / 0 = 0; MIN / -1 = MIN (wraps);
 *   integer mod: NumPy remainder, sign of the divisor; x % 0 = 0; MIN % -1 = 0;
 *   integer pow: exponent >= 0 by squaring with wrap-around; exponent < 0 gives 1 for
 *     base 1, +-1 for base -1 and 0 otherwise;
 *   float mod: r = fmod(a, b), then r += b when r != 0 and r, b differ in sign; x mod 0 = NaN;
 *   minimum / maximum: NaN in either operand gives NaN;
 *   comparisons follow IEEE (NaN compares unequal to everything); results are bool;
 *   logical ops take x != 0 as true (NaN is true); results are bool;
 *   sign: -1, 0 or 1 (NaN -> NaN); relu(x) = x < 0 ? 0 : x (NaN stays NaN);
 *   round: half to even (rint); sigmoid(x) = 1 / (1 + exp(-x)); rsqrt(x) = 1 / sqrt(x);
 *   cast float -> int: truncate toward zero, saturate, NaN -> 0; int -> int: wrap;
 *     x -> bool: x != 0; bool -> x: 0 or 1.
 */
#ifndef GPUX_KERNELS_H
#define GPUX_KERNELS_H

/* dtype ids (equal to enum gpux_dtype in include/gpux/array.h) */
#define GPUX_KDT_f32 0
#define GPUX_KDT_f64 1
#define GPUX_KDT_i32 2
#define GPUX_KDT_i64 3
#define GPUX_KDT_u8 4
#define GPUX_KDT_b8 5
#define GPUX_KDT_COUNT 6

/* dtype lists: M(arg, dt) for each dt */
#define GPUX_DT_ALL(M, a) M(a, f32) M(a, f64) M(a, i32) M(a, i64) M(a, u8) M(a, b8)
#define GPUX_DT_NUMERIC(M, a) M(a, f32) M(a, f64) M(a, i32) M(a, i64) M(a, u8)
#define GPUX_DT_FLOAT(M, a) M(a, f32) M(a, f64)
/* element sizes the copy kernels exist for */
#define GPUX_ELEM_SIZES(M) M(1) M(2) M(4) M(8)

/* Result kinds: SAME (the input dtype) or BOOL. */
#define GPUX_RES_SAME 0
#define GPUX_RES_BOOL 1

/* X(op, id, dtype list, result kind). ids equal enum gpux_binary_op / gpux_unary_op. */
#define GPUX_BINARY_OPS(X)                                                                   \
  X(add, 0, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(sub, 1, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(mul, 2, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(div, 3, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(pow, 4, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(minimum, 5, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                              \
  X(maximum, 6, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                              \
  X(mod, 7, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(eq, 8, GPUX_DT_ALL, GPUX_RES_BOOL)                                                       \
  X(ne, 9, GPUX_DT_ALL, GPUX_RES_BOOL)                                                       \
  X(lt, 10, GPUX_DT_ALL, GPUX_RES_BOOL)                                                      \
  X(le, 11, GPUX_DT_ALL, GPUX_RES_BOOL)                                                      \
  X(gt, 12, GPUX_DT_ALL, GPUX_RES_BOOL)                                                      \
  X(ge, 13, GPUX_DT_ALL, GPUX_RES_BOOL)                                                      \
  X(logical_and, 14, GPUX_DT_ALL, GPUX_RES_BOOL)                                             \
  X(logical_or, 15, GPUX_DT_ALL, GPUX_RES_BOOL)                                              \
  X(logical_xor, 16, GPUX_DT_ALL, GPUX_RES_BOOL)
#define GPUX_BINARY_OP_COUNT 17

#define GPUX_UNARY_OPS(X)                                                                    \
  X(neg, 0, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(abs, 1, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                  \
  X(sign, 2, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                 \
  X(relu, 3, GPUX_DT_NUMERIC, GPUX_RES_SAME)                                                 \
  X(exp, 4, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                    \
  X(log, 5, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                    \
  X(log1p, 6, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                  \
  X(expm1, 7, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                  \
  X(sqrt, 8, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                   \
  X(rsqrt, 9, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                  \
  X(sin, 10, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                   \
  X(cos, 11, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                   \
  X(tan, 12, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                   \
  X(tanh, 13, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                  \
  X(sigmoid, 14, GPUX_DT_FLOAT, GPUX_RES_SAME)                                               \
  X(floor, 15, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                 \
  X(ceil, 16, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                  \
  X(round, 17, GPUX_DT_FLOAT, GPUX_RES_SAME)                                                 \
  X(logical_not, 18, GPUX_DT_ALL, GPUX_RES_BOOL)
#define GPUX_UNARY_OP_COUNT 19

/* Layout ids, in the order the host tables use. */
#define GPUX_LAYOUT_C 0
#define GPUX_LAYOUT_S 1
#define GPUX_LAYOUT_N 2

/* n-d launch parameters, passed by value. Only 64-bit fields, so the host, CUDA and
 * OpenCL layouts agree. Dimensions are already broadcast and collapsed by the front end;
 * strides and offsets are in elements; operand 0 is the output, 1..3 the inputs. */
#define GPUX_KMAX_DIMS 8
#define GPUX_KMAX_OPERANDS 4
#if defined(__OPENCL_VERSION__)
#define GPUX_KI64 long
#elif defined(__CUDACC__)
#define GPUX_KI64 long long
#else
#include <stdint.h>
#define GPUX_KI64 int64_t
#endif
typedef struct gpux_nd_params {
  GPUX_KI64 n;        /* elements in the output */
  GPUX_KI64 ndim;     /* 1..GPUX_KMAX_DIMS */
  GPUX_KI64 tile_dim; /* copy_t only: the dim where input 1 has stride 1 (the last dim is
                         the other tile axis); -1 otherwise */
  GPUX_KI64 pad;
  GPUX_KI64 shape[GPUX_KMAX_DIMS];
  GPUX_KI64 stride[GPUX_KMAX_OPERANDS][GPUX_KMAX_DIMS];
  GPUX_KI64 offset[GPUX_KMAX_OPERANDS];
} gpux_nd_params;

/* Tiled copy: TILE x TILE tiles, each work-group/block TILE x TILE_ROWS threads. */
#define GPUX_COPY_TILE 32
#define GPUX_COPY_TILE_ROWS 8

#endif
