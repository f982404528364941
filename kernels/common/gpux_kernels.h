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
 *                                    (fill: GPUX_DT_CAST; arange, linspace: GPUX_DT_STORAGE)
 *   gpux_copy_n_<bytes>              n-d strided copy by element size (1, 2, 4, 8, 16)
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
 *   cast float -> int: truncate toward zero, saturate to the target's range, NaN -> 0;
 *     int -> int: wrap (the low bits, two's complement); int -> float: round to nearest even;
 *     x -> bool: x != 0; bool -> x: 0 or 1.
 *   float16 / bfloat16 elementwise ops: the float32 op on the operands' exact float32
 *     values, its result rounded to nearest even to the dtype (comparisons, logical ops:
 *     the float32 result itself); for add, sub and mul that is the correctly rounded
 *     result (float32 has twice the digits plus two, so the double rounding is harmless),
 *     the same bits on every device; div and sqrt too where the device's float32 ones are
 *     correctly rounded (CUDA, pocl);
 *   float16 / bfloat16 (bit-exact on every backend, done with integer bit operations):
 *     x -> f16/bf16: the exact value of x (a float or any integer) rounded once to nearest
 *       even, subnormals kept (never flushed), overflow -> +-inf (f16: |x| >= 65520;
 *       bf16: |x| >= 2^128 - 2^119), -0.0 kept; NaN -> a quiet NaN with the sign and the
 *       leading payload bits of x (f32 -> bf16: (bits >> 16) | 0x0040;
 *       f32 -> f16: sign | 0x7e00 | (mantissa >> 13); f64 likewise with its mantissa);
 *     f16/bf16 -> f32/f64: exact (subnormals included); NaN -> quiet NaN with the payload
 *       shifted up (f16 -> f32: sign | 0x7fc00000 | (mantissa << 13));
 *     f16/bf16 -> integers: through float32 (exact), then the float -> int rule above;
 *     f16/bf16 -> bool: x != 0 (tested on the bits: -0.0 is false, NaN true);
 *     f16 <-> bf16: through float32 (one rounding); same dtype: a bit copy.
 *   complex64 / complex128 (components float32 / float64):
 *     real -> complex: (x converted as the cast to the component dtype converts it, +0.0);
 *     complex -> bool: re != 0 || im != 0 (NaN is true, -0.0 false);
 *     complex -> any other real dtype: the real part, converted as the cast from the
 *       component dtype converts it (NumPy does this with a ComplexWarning);
 *     complex64 <-> complex128: each component as float32 <-> float64; same dtype: a copy.
 *   complex matrix products (GPUX_GEMM_DT_COMPLEX, below): accumulated in the component type
 *     with BLAS's naive formulas (re += ar br - ai bi, im += ar bi + ai br; FMA allowed, so no
 *     bit identity), C = alpha acc + beta C in complex arithmetic; beta == 0 + 0i never
 *     reads C; k == 0 gives beta C; operands conjugated on load where asked (BLAS 'C', and
 *     the conjugated-untransposed operand the front end's C^T rewrite makes).
 *   complex elementwise ops (issue 23; z = x + iy, a = ar + i ai, b = br + i bi; every
 *     formula is computed in the component type, one IEEE operation at a time, never
 *     contracted into an FMA (CUDA -fmad=false, OpenCL FP_CONTRACT OFF); kernels/common/
 *     gpux_complex.h is the one source of these formulas for both kernel sets):
 *     add, sub, neg, conj: componentwise (bit-exact everywhere);
 *     mul: (ar*br - ai*bi, ar*bi + ai*br), NumPy's formula (bit-exact everywhere; inf*finite
 *       may give NaN components, as in NumPy);
 *     div: Smith's division, NumPy's branches: |br| >= |bi|: br == bi == 0 gives
 *       (ar/|br|, ai/|br|), else r = bi/br, d = br + bi*r, ((ar + ai*r)/d, (ai - ar*r)/d);
 *       |br| < |bi| (or NaN): r = br/bi, d = bi + br*r, ((ar*r + ai)/d, (ai*r - ar)/d)
 *       (NumPy multiplies by 1/d instead: a few ulp apart, and 1/d is subnormal near the
 *       type's max). No intermediate overflows for finite operands ((1e300+1e300i) /
 *       (1e300+1e300i) = 1, complex64's (1e38+1e38i) / (1e38+1e38i) too);
 *       bit-exact where float division is correctly rounded (CUDA, pocl; the OpenCL backend
 *       asks NVIDIA's compiler for it);
 *     pow: NumPy's npy_cpow: b == 0 -> 1+0i; a == 0 -> 0+0i when bi == 0 and br > 0, else
 *       NaN+NaNi; bi == 0 and br an integer n, |n| < 100: n = 1: a; 2: a*a; 3: a*(a*a);
 *       else binary powering from 1+0i (r = r*p on set bits, p = p*p), then 1/r for n < 0
 *       (all with mul / div above: bit-exact); otherwise exp(b * log(a));
 *     eq: ar == br && ai == bi; ne: its negation (NaN unequal); lt, le, gt, ge, minimum,
 *       maximum, mod and the bitwise ops are not defined for complex (as in PyTorch and the
 *       array API standard; NumPy orders complex values lexicographically);
 *     logical ops, logical_not: x != 0 is re != 0 || im != 0 (NaN is true);
 *     abs: hypot(re, im) (no overflow; inf when either is inf, even with a NaN);
 *     angle: atan2(im, re); real, imag: the component;
 *     exp: exp(x) * (cos y, sin y) (x above 88 / 709: (h cos y) h, (h sin y) h with
 *       h = exp(x/2), so no part overflows early); y == 0: (exp x, y); x == +inf and y inf or NaN:
 *       (+inf, NaN); x == -inf and y inf or NaN: (+0, +0);
 *     log: (log|z|, atan2(y, x)); log|z| is log1p((m-1)*(m+1) + n*n)/2 for m = max(|x|,|y|)
 *       in [0.5, 2] (accurate near |z| = 1), log(m) + log1p((n/m)^2)/2 otherwise (no
 *       overflow), n = min(|x|,|y|); z == 0: -inf; x or y inf: +inf;
 *     sqrt: FreeBSD / NumPy csqrt: z == 0: (+0, y); y inf: (+inf, y); x NaN: (NaN, NaN);
 *       x == +inf: (+inf, y NaN ? NaN : +-0); x == -inf: (y NaN ? NaN : 0, +-inf);
 *       else t = sqrt((|x| + hypot(x, y)) / 2); x >= 0: (t, y / 2t); x < 0: (|y| / 2t,
 *       +-t with y's sign); arguments near the type's max are scaled by 1/4 first, tiny
 *       ones (both below 2^-1000 / 2^-120) by 2^100 / 2^50 (exact), so nothing overflows or
 *       loses digits; branch cut on the negative real axis, im's sign kept (-0.0 too);
 *     sin: (sin x cosh y, cos x sinh y); cos: (cos x cosh y, -(sin x sinh y)); zero
 *       components as C99: sin: x == 0: (x, sinh y); y == 0: (sin x, cos x * y), y for
 *       x inf/NaN; cos: x == 0: (cosh y, -x * (sinh y, or 1 when y is not finite));
 *       y == 0: (cos x, -(sin x * y)), -y for x inf/NaN;
 *     exp, log, sqrt, sin, cos, abs, angle and pow's general case use the device's libm
 *     (CUDA's, the OpenCL builtins): a few ulp of the result's magnitude, not bit-identical
 *     across devices (tests/test_complex_ew.c states the tolerances). sin's and cos's
 *     intermediate cosh, sinh may overflow to inf where the exact product is finite.
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
/* half-precision dtypes: IEEE binary16 and bfloat16, 2 bytes each. Casts, copies,
 * fill/arange/linspace, GEMM inputs, the elementwise ops, reductions and scans (computed in
 * float32, rounded once to the dtype: GPUX_DT_EW_*). */
#define GPUX_KDT_f16 6
#define GPUX_KDT_bf16 7
/* the other integer widths (issue 23): everything int32 / uint8 have, with the same rules */
#define GPUX_KDT_i8 8
#define GPUX_KDT_i16 9
#define GPUX_KDT_u16 10
#define GPUX_KDT_u32 11
#define GPUX_KDT_u64 12
/* complex dtypes (issue 23, first part): interleaved (re, im) of float32 / float64, 8 and 16
 * bytes. They take casts (every pair), copies, views and fill (GPUX_DT_CAST) and matrix
 * products (GPUX_GEMM_DT_COMPLEX). */
#define GPUX_KDT_c64 13
#define GPUX_KDT_c128 14
#define GPUX_KDT_COUNT 15
/* Program parts: an OpenCL family whose kernels each belong to one dtype is built per part,
 * on the first use of that part, with -DGPUX_PART=<id> (a dtype id, or GPUX_PART_NONE for
 * kernels of no dtype: the copies by element size), so that a program using float32 only
 * never compiles the kernels of the other dtypes. Built without GPUX_PART, a source has
 * every part (kernels/cl/gpux_cl_prelude.h: GPUX_KON_<dt>). */
#define GPUX_PART_NONE GPUX_KDT_COUNT
#define GPUX_PART_COUNT (GPUX_KDT_COUNT + 1)
/* The facts of each dtype, written once: X(dt, element bytes, public name, kind, digits,
 * exponent bits), in id order. kind is NumPy's: 'b' bool, 'u' unsigned, 'i' signed, 'f'
 * float, 'c' complex; digits the bits of value it holds exactly (integers: the width, less
 * the sign bit; floats: the significand's, with the implicit bit; complex: those of its
 * component float); exponent bits 0 for integers. Every
 * size or name table of the core, the backends and the tests expands it, e.g.
 *   static const size_t size[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_SIZE_INIT)};
 * and type promotion (src/api/promote.c) reads kind, digits and exponent bits. */
#define GPUX_DTYPES(X)                                                                       \
  X(f32, 4, "float32", 'f', 24, 8)                                                           \
  X(f64, 8, "float64", 'f', 53, 11)                                                          \
  X(i32, 4, "int32", 'i', 31, 0)                                                             \
  X(i64, 8, "int64", 'i', 63, 0)                                                             \
  X(u8, 1, "uint8", 'u', 8, 0)                                                               \
  X(b8, 1, "bool", 'b', 1, 0)                                                                \
  X(f16, 2, "float16", 'f', 11, 5)                                                           \
  X(bf16, 2, "bfloat16", 'f', 8, 8)                                                          \
  X(i8, 1, "int8", 'i', 7, 0)                                                                \
  X(i16, 2, "int16", 'i', 15, 0)                                                             \
  X(u16, 2, "uint16", 'u', 16, 0)                                                            \
  X(u32, 4, "uint32", 'u', 32, 0)                                                            \
  X(u64, 8, "uint64", 'u', 64, 0)                                                            \
  X(c64, 8, "complex64", 'c', 24, 8)                                                         \
  X(c128, 16, "complex128", 'c', 53, 11)
#define GPUX_KDT_SIZE_INIT(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = bytes,
#define GPUX_KDT_NAME_INIT(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = name,

/* dtype lists: M(arg, dt) for each dt */
/* every real array dtype, in id order: arange and linspace exist for these, and the ops
 * that take every real dtype (where, eq ... ge, the logical ops, any / all / cnt) */
#define GPUX_DT_STORAGE(M, a)                                                                \
  M(a, f32) M(a, f64) M(a, i32) M(a, i64) M(a, u8) M(a, b8) M(a, f16) M(a, bf16) M(a, i8)    \
  M(a, i16) M(a, u16) M(a, u32) M(a, u64)
/* the complex dtypes. They are not in GPUX_DT_STORAGE: the ops that take them list them
 * apart (GPUX_DT_CAST, GPUX_DT_WHERE, GPUX_DT_EW_ARITH ...): lt / le / gt / ge, arange and
 * linspace reject complex. */
#define GPUX_DT_COMPLEX(M, a) M(a, c64) M(a, c128)
/* the elementwise lists with complex (the complex elementwise ops, issue 23): arithmetic
 * (add, sub, mul, div, pow), math (neg, exp, log, sqrt, sin, cos, abs), and every dtype
 * (where, eq, ne, the logical ops) */
#define GPUX_DT_EW_ARITH(M, a) GPUX_DT_EW_NUMERIC(M, a) GPUX_DT_COMPLEX(M, a)
#define GPUX_DT_EW_FLOAT_CPLX(M, a) GPUX_DT_EW_FLOAT(M, a) GPUX_DT_COMPLEX(M, a)
/* every array dtype, in id order: casts (every (from, to) pair, layouts c and n) and fill
 * exist for these */
#define GPUX_DT_CAST(M, a) GPUX_DT_STORAGE(M, a) GPUX_DT_COMPLEX(M, a)
/* the half-precision storage dtypes */
#define GPUX_DT_HALF(M, a) M(a, f16) M(a, bf16)
#define GPUX_DT_FLOAT(M, a) M(a, f32) M(a, f64)
/* the integer dtypes (shifts, popcount, bitwise_not), and those with bool (bitwise and, or,
 * xor: on bool they are the logical ops) */
#define GPUX_DT_INTEGER(M, a)                                                                \
  M(a, i32) M(a, i64) M(a, u8) M(a, i8) M(a, i16) M(a, u16) M(a, u32) M(a, u64)
#define GPUX_DT_BITS(M, a) GPUX_DT_INTEGER(M, a) M(a, b8)
#define GPUX_DT_NUMERIC(M, a) GPUX_DT_FLOAT(M, a) GPUX_DT_INTEGER(M, a)
/* the dtypes that compute in their own type (every op takes them) */
#define GPUX_DT_ALL(M, a) GPUX_DT_NUMERIC(M, a) M(a, b8)
/* the lists of the compute ops that take the half dtypes (elementwise ops, reductions and
 * scans): those above, and the halves, whose ops are float32's on the operands' exact
 * float32 values, the result rounded once to the dtype (reductions: accumulated in float32) */
#define GPUX_DT_EW_NUMERIC(M, a) GPUX_DT_NUMERIC(M, a) GPUX_DT_HALF(M, a)
#define GPUX_DT_EW_FLOAT(M, a) GPUX_DT_FLOAT(M, a) GPUX_DT_HALF(M, a)
/* the dtypes of where: every dtype */
#define GPUX_DT_WHERE(M, a) GPUX_DT_STORAGE(M, a) GPUX_DT_COMPLEX(M, a)
/* Whether a compute dtype has a kernel type of its own: bool's is uint8's (uchar / unsigned
 * char), so a set of overloads by type (the expressions' ops preludes) leaves bool out and
 * uint8's overload serves it (the same result on 0 / 1: bitwise and, or, xor).
 * GPUX_OWN_TYPE_<dt>(M, a, dt) is M(a, dt), or nothing for bool. */
#define GPUX_OWN_TYPE_f32(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_f64(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_i32(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_i64(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_u8(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_b8(M, a, dt)
/* the half dtypes' storage type (ushort) is not a number type of theirs: the expression
 * preludes have no half overloads (expressions take the compute dtypes) */
#define GPUX_OWN_TYPE_f16(M, a, dt)
#define GPUX_OWN_TYPE_bf16(M, a, dt)
#define GPUX_OWN_TYPE_i8(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_i16(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_u16(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_u32(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_u64(M, a, dt) M(a, dt)
#define GPUX_OWN_TYPE_c64(M, a, dt)
#define GPUX_OWN_TYPE_c128(M, a, dt)
/* element sizes the copy kernels exist for (16: complex128), and the index of a size in
 * that list */
#define GPUX_ELEM_SIZES(M) M(1) M(2) M(4) M(8) M(16)
#define GPUX_ELEM_SIZE_COUNT 5
#define GPUX_ELEM_SIZE_INDEX(sz) \
  ((sz) == 1 ? 0 : (sz) == 2 ? 1 : (sz) == 4 ? 2 : (sz) == 8 ? 3 : 4)

/* Kernel names, spelled once for the host code of both backends and the coverage test (the
 * kernel sets paste the same pieces, and tests/test_kernel_coverage.c compares). Each takes
 * string literals: the record's names (#op, #dt) give a name, "%s" / "%d" a printf format,
 * e.g. GPUX_KN_LAYOUT(GPUX_KN_BINARY("%s", "%s"), "%c"). */
#define GPUX_KN_BINARY(op, dt) "gpux_binary_" op "_" dt
#define GPUX_KN_UNARY(op, dt) "gpux_unary_" op "_" dt
#define GPUX_KN_WHERE(dt) "gpux_where_" dt
#define GPUX_KN_CAST(from, to) "gpux_cast_" from "_" to
#define GPUX_KN_COPY_N(bytes) "gpux_copy_n_" bytes
#define GPUX_KN_COPY_T(bytes) "gpux_copy_t_" bytes
#define GPUX_KN_FILL(dt) "gpux_fill_" dt
#define GPUX_KN_ARANGE(dt) "gpux_arange_" dt
#define GPUX_KN_LINSPACE(dt) "gpux_linspace_" dt
#define GPUX_KN_REDUCE(kind, dt) "gpux_reduce_" kind "_" dt
#define GPUX_KN_SCAN(kind, dt) "gpux_scan_" kind "_" dt
#define GPUX_KN_GEMM(dt) "gpux_gemm_" dt
#define GPUX_KN_RANDOM(kind, dt) "gpux_random_" kind "_" dt
/* the GPU kernels' standard float32 normal (no fma): CUDA and the OpenCL GPU form */
#define GPUX_KN_RANDOM_NORMAL_STD GPUX_KN_RANDOM("normal", "f32") "_std"
/* a name with its layout: "c", "s", "n" (elementwise); "r", "c" (reductions); "cv" (the
 * OpenCL GPU form's vector column reductions) */
#define GPUX_KN_LAYOUT(name, lay) name "_" lay
/* The kernel names of the families that list them whole (every name in both kernel sets,
 * float64 ones absent where the device lacks fp64): X(LIST), where LIST(N) calls N(name)
 * with a string literal for each. tests/test_kernel_coverage.c expects them with no edit of
 * its own; a new family adds its list here (the families above predate it and are listed
 * in the test). */
#define GPUX_KN_FAMILY_LISTS(X) X(GPUX_KN_INDEX_LIST) X(GPUX_KN_MASK_LIST) X(GPUX_KN_SCATTER_LIST) \
  X(GPUX_KN_SORT_LIST) X(GPUX_KN_SELECT_LIST)
/* the scatter family (kernels/common/gpux_scatter.h): value dtypes (every real numeric
 * dtype; complex takes its component's kernels) and index dtypes */
#define GPUX_SCAT_DT(M, a) GPUX_DT_EW_NUMERIC(M, a)
#define GPUX_SCAT_IX(M, a) M(a, i32) M(a, i64)
#define GPUX_KN_SC_APPLY_(dt, ix) "gpux_scatter_" #dt "_" #ix
#define GPUX_KN_SC_DT_(N, dt)                                                                \
  N("gpux_scatter_init_" #dt) N("gpux_scatter_fin_" #dt) N("gpux_search_" #dt)               \
  N(GPUX_KN_SC_APPLY_(dt, i32)) N(GPUX_KN_SC_APPLY_(dt, i64))
#define GPUX_KN_SC_BC_(N, ix) N("gpux_bincount_" #ix)
/* the exact sums' scan of the values (the window's place: gpux_scatter.h) */
#define GPUX_SCAT_FDT(M, a) GPUX_DT_EW_FLOAT(M, a)
#define GPUX_KN_SC_SCAN_(N, dt) N("gpux_scatter_scan_" #dt)
#define GPUX_KN_SCATTER_LIST(N) GPUX_SCAT_DT(GPUX_KN_SC_DT_, N) GPUX_SCAT_IX(GPUX_KN_SC_BC_, N) \
  GPUX_SCAT_FDT(GPUX_KN_SC_SCAN_, N)

/* Result kinds: SAME (the input dtype), BOOL, or REAL: the component dtype of a complex
 * input (complex64 -> float32, complex128 -> float64), the input dtype otherwise (abs). */
#define GPUX_RES_SAME 0
#define GPUX_RES_BOOL 1
#define GPUX_RES_REAL 2

/* X(op, id, dtype list, result kind). ids equal enum gpux_binary_op / gpux_unary_op. */
#define GPUX_BINARY_OPS(X)                                                                   \
  X(add, 0, GPUX_DT_EW_ARITH, GPUX_RES_SAME)                                                \
  X(sub, 1, GPUX_DT_EW_ARITH, GPUX_RES_SAME)                                                \
  X(mul, 2, GPUX_DT_EW_ARITH, GPUX_RES_SAME)                                                \
  X(div, 3, GPUX_DT_EW_ARITH, GPUX_RES_SAME)                                                \
  X(pow, 4, GPUX_DT_EW_ARITH, GPUX_RES_SAME)                                                \
  X(minimum, 5, GPUX_DT_EW_NUMERIC, GPUX_RES_SAME)                                              \
  X(maximum, 6, GPUX_DT_EW_NUMERIC, GPUX_RES_SAME)                                              \
  X(mod, 7, GPUX_DT_EW_NUMERIC, GPUX_RES_SAME)                                                  \
  X(eq, 8, GPUX_DT_CAST, GPUX_RES_BOOL)                                                      \
  X(ne, 9, GPUX_DT_CAST, GPUX_RES_BOOL)                                                      \
  X(lt, 10, GPUX_DT_STORAGE, GPUX_RES_BOOL)                                                      \
  X(le, 11, GPUX_DT_STORAGE, GPUX_RES_BOOL)                                                      \
  X(gt, 12, GPUX_DT_STORAGE, GPUX_RES_BOOL)                                                      \
  X(ge, 13, GPUX_DT_STORAGE, GPUX_RES_BOOL)                                                      \
  X(logical_and, 14, GPUX_DT_CAST, GPUX_RES_BOOL)                                            \
  X(logical_or, 15, GPUX_DT_CAST, GPUX_RES_BOOL)                                             \
  X(logical_xor, 16, GPUX_DT_CAST, GPUX_RES_BOOL)                                            \
  X(bitwise_and, 17, GPUX_DT_BITS, GPUX_RES_SAME)                                            \
  X(bitwise_or, 18, GPUX_DT_BITS, GPUX_RES_SAME)                                             \
  X(bitwise_xor, 19, GPUX_DT_BITS, GPUX_RES_SAME)                                            \
  X(left_shift, 20, GPUX_DT_INTEGER, GPUX_RES_SAME)                                          \
  X(right_shift, 21, GPUX_DT_INTEGER, GPUX_RES_SAME)
#define GPUX_BINARY_OP_COUNT 22

#define GPUX_UNARY_OPS(X)                                                                    \
  X(neg, 0, GPUX_DT_EW_ARITH, GPUX_RES_SAME)                                                \
  X(abs, 1, GPUX_DT_EW_ARITH, GPUX_RES_REAL)                                                \
  X(sign, 2, GPUX_DT_EW_NUMERIC, GPUX_RES_SAME)                                                 \
  X(relu, 3, GPUX_DT_EW_NUMERIC, GPUX_RES_SAME)                                                 \
  X(exp, 4, GPUX_DT_EW_FLOAT_CPLX, GPUX_RES_SAME)                                                    \
  X(log, 5, GPUX_DT_EW_FLOAT_CPLX, GPUX_RES_SAME)                                                    \
  X(log1p, 6, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                  \
  X(expm1, 7, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                  \
  X(sqrt, 8, GPUX_DT_EW_FLOAT_CPLX, GPUX_RES_SAME)                                                   \
  X(rsqrt, 9, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                  \
  X(sin, 10, GPUX_DT_EW_FLOAT_CPLX, GPUX_RES_SAME)                                                   \
  X(cos, 11, GPUX_DT_EW_FLOAT_CPLX, GPUX_RES_SAME)                                                   \
  X(tan, 12, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                   \
  X(tanh, 13, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                  \
  X(sigmoid, 14, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                               \
  X(floor, 15, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                 \
  X(ceil, 16, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                  \
  X(round, 17, GPUX_DT_EW_FLOAT, GPUX_RES_SAME)                                                 \
  X(logical_not, 18, GPUX_DT_CAST, GPUX_RES_BOOL)                                            \
  X(bitwise_not, 19, GPUX_DT_INTEGER, GPUX_RES_SAME)                                         \
  X(popcount, 20, GPUX_DT_INTEGER, GPUX_RES_SAME)                                          \
  X(conj, 21, GPUX_DT_COMPLEX, GPUX_RES_SAME)                                                \
  X(real, 22, GPUX_DT_COMPLEX, GPUX_RES_REAL)                                                \
  X(imag, 23, GPUX_DT_COMPLEX, GPUX_RES_REAL)                                                \
  X(angle, 24, GPUX_DT_COMPLEX, GPUX_RES_REAL)
#define GPUX_UNARY_OP_COUNT 25
/* The unary ops the front end also serves on real dtypes, with no kernel of their own
 * (NumPy's behaviour): X(op, id, dtype list). conj and real: a copy; imag: zeros of the
 * dtype; angle: atan2(+0, x) (0, pi for x < 0 or -0.0, NaN for NaN) through a cast to
 * complex and the complex angle kernel (float32 / float16 / bfloat16 via complex64, the
 * result rounded to the dtype; float64 via complex128). */
#define GPUX_UNARY_FRONT_OPS(X)                                                              \
  X(conj, 21, GPUX_DT_STORAGE) X(real, 22, GPUX_DT_STORAGE) X(imag, 23, GPUX_DT_STORAGE)     \
  X(angle, 24, GPUX_DT_EW_FLOAT)

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

/* ======================================================================================
 * Reductions and scans (kernels/cuda/{reduce,scan}.cu, kernels/cl/{reduce,scan}.cl).
 *
 * Kernel names:
 *   gpux_reduce_<kind>_<dt>_<layout>   layout r: input [outer][len] contiguous
 *                                      layout c: input [outer][len][inner] contiguous
 *   gpux_scan_<kind>_<dt>              input and output [rows][len] contiguous
 * <dt> is the input dtype; the accumulator (= output) dtype follows GPUX_RACC_* below.
 * float16 / bfloat16 inputs are widened to float32 (exactly) as they are loaded and every
 * kind but any, all and cnt runs in float32: its accumulator and output are float32 (min,
 * max, amax and the argmin/argmax values too; ssd's mean is float32), later passes are
 * float32's, and the front end rounds the final float32 result once to the half dtype.
 * Scans of halves accumulate in float32 and round each output once to the dtype.
 *
 * THE CANONICAL ORDER. Every reduction is computed in one order that depends only on the
 * length of the reduced sequence, so float results are bit-identical on every backend,
 * device and launch shape (tests/ref implements it; the tests compare bits):
 *   A sequence x[0..len) (the reduced elements in row-major order of the reduced axes) is
 *   cut into chunks of GPUX_RED_CHUNK = 4096 elements (past len: the identity e).
 *   Lane l (0..255) of chunk c folds, in order k = 0..15:
 *       a_l = e;  a_l = a_l (+) x[4096c + l + 256k]
 *   then a tree over the lanes: for s = 128, 64, 32, 16, 8, 4, 2, 1:
 *       a_l = a_l (+) a_{l+s}   for l < s      (the lower lane is the left operand)
 *   and the chunk's value is a_0. If len <= 4096 that is the result; otherwise the
 *   ceil(len / 4096) chunk values form a new sequence, reduced by the same rule.
 * Identities are exact (e (+) x == x bit for bit): sum -0.0 (0 for integers), prod 1,
 * min +inf (the type's max for integers), max -inf (the type's min), any 0, all 1, cnt 0.
 * A pass is one application of the chunk rule (len -> ceil(len / 4096) values per output);
 * the front end chains passes, and only the last pass applies a post op.
 *
 * Combine ops (+), a the left operand; inputs are converted to the accumulator dtype first:
 *   sum, asum (|x|), ssq (x*x), ssd ((x - m)*(x - m), m = aux[output]): a + b
 *     (products are never fused into an FMA: CUDA __fmul_rn, OpenCL FP_CONTRACT OFF);
 *   prod: a * b (integers wrap: computed unsigned);
 *   min: a is NaN ? a : b is NaN ? b : (b < a ? b : a);   max likewise with b > a;
 *   amax: max of |x| (NaN propagates);
 *   argmin/argmax on (value, index) pairs: a NaN value beats a non-NaN one; between two NaNs
 *     or two equal values the smaller index wins; otherwise the smaller (larger) value.
 *     This is associative and commutative. Identity: (+inf / -inf or the integer limit,
 *     index INT64_MAX);
 *   any: a | (x != 0), all: a & (x != 0) (NaN counts as nonzero); cnt: a + (x != 0).
 * Complex (complex64 / complex128; the accumulator is the input dtype, its components the
 * float32 / float64 arithmetic above, each operation rounded, never fused):
 *   sum: componentwise, (ar + br, ai + bi), identity (-0.0, -0.0): so a complex sum is
 *     exactly the canonical float sums of its two components;
 *   prod: (ar*br - ai*bi, ar*bi + ai*br), except that an operand equal to the identity
 *     (1, 0) (either zero's sign) gives the other operand unchanged (the formula would turn
 *     (1, 0) * (x, inf) into (NaN, inf) and could flip a zero's sign: the identity must be
 *     exact for the kernels that skip identities). Complex products are not associative,
 *     so the canonical order fixes the bits;
 *   any / all / cnt: x != 0 is re != 0 || im != 0 (NaN counts as nonzero, -0.0 as zero);
 *   ssd (var / std): (re - mr)*(re - mr) + (im - mi)*(im - mi) summed in the component
 *     dtype, which is the accumulator and output (m: the complex mean, aux, of the input
 *     dtype); its later passes are the component dtype's sums;
 *   mean: sum with the component dtype's DIV post op on each component;
 *   min, max, argmin, argmax, asum, ssq, amax have no complex kernels (no order; the norms
 *     are left out).
 * Complex scans (cumsum, cumprod of complex64 and complex128): THE CANONICAL SCAN below with
 * the complex sum and product above, a complex element at a time. cumsum's parts never meet,
 * so each part is exactly the canonical float scan of that part (exclusive: (-0.0, -0.0)
 * first).
 * Post ops (last pass only; the accumulator dtype is then float):
 *   DIV: v / d;  SQRT: sqrt(v);  DIV_SQRT: sqrt(v / d), with v / d rounded to the dtype first.
 *   float64 uses IEEE division and sqrt; float32 computes (float)((double)v / d) and
 *   (float)sqrt((double)v), exact functions of their inputs on every device.
 * Argmin/argmax indices are int64 positions in the reduced sequence (first pass) or carried
 * from the previous pass (kinds argmin_p / argmax_p read a value and an index input).
 *
 * THE CANONICAL SCAN (cumsum, cumprod along rows of length len). Tiles of GPUX_SCAN_TILE =
 * 4096 elements; in tile c, thread j (0..255) owns elements 16j .. 16j+15 of the tile
 * (missing elements are the identity):
 *   s_{j,-1} = e;  s_{j,k} = s_{j,k-1} (+) x_{16j+k}             (k = 0..15)
 *   t_j = s_{j,15}; warp w = j / 32, lane q = j % 32; inclusive scan inside each warp:
 *     W_j = t_j; for off = 1, 2, 4, 8, 16: W_j = q >= off ? W_{j-off} (+) W_j : W_j
 *     (each step reads the values of the previous step)
 *   warp totals T_w = W_{32w+31}; X_0 = e, X_w = X_{w-1} (+) T_{w-1}  (w = 1..7)
 *   tile aggregate A_c = X_7 (+) T_7
 *   thread prefix E_j = q == 0 ? X_w : X_w (+) W_{j-1}
 *   tile prefix P_0 = e, P_c = P_{c-1} (+) A_{c-1}   (a serial chain across tiles)
 *   base_j = P_c (+) E_j
 *   inclusive: out_{16j+k} = base_j (+) s_{j,k};  exclusive: out_{16j+k} = base_j (+) s_{j,k-1}
 * A single-pass kernel that looks back over earlier tiles reproduces P_c exactly: it finds
 * the nearest earlier tile whose inclusive prefix P (+) A is published, then adds the
 * aggregates of the tiles after that one, one by one, in increasing tile order.
 * ====================================================================================== */
#define GPUX_RED_LANES 256
#define GPUX_RED_ROWS 16
#define GPUX_RED_CHUNK 4096
#define GPUX_SCAN_THREADS 256
#define GPUX_SCAN_ITEMS 16
#define GPUX_SCAN_TILE 4096

/* reduction layouts */
#define GPUX_RL_ROW 0
#define GPUX_RL_COL 1

/* post ops */
#define GPUX_POST_NONE 0
#define GPUX_POST_DIV 1
#define GPUX_POST_SQRT 2
#define GPUX_POST_DIV_SQRT 3

/* accumulator (= output) dtype of a kind */
#define GPUX_RACC_SAME 0 /* the input dtype (halves: f32) */
#define GPUX_RACC_WIDE 1 /* floats: the input dtype (halves: f32); integers: i64 (u64: u64) */
#define GPUX_RACC_BOOL 2 /* b8 */
#define GPUX_RACC_I64 3  /* i64 */

/* X(kind, id, dtype list, accumulator). argmin/argmax also write an i64 index output;
 * argmin_p/argmax_p read (value, index) pairs written by an earlier pass. */
/* sum / prod (reductions and scans) take the arithmetic dtypes (complex: componentwise
 * sum, the fixed complex product, see "Complex" above), any / all / cnt every dtype, ssd the
 * floats and complex (complex: a real result, see above) */
#define GPUX_REDUCE_KINDS(X)                                                                 \
  X(sum, 0, GPUX_DT_EW_ARITH, GPUX_RACC_WIDE)                                                \
  X(prod, 1, GPUX_DT_EW_ARITH, GPUX_RACC_WIDE)                                               \
  X(min, 2, GPUX_DT_EW_NUMERIC, GPUX_RACC_SAME)                                              \
  X(max, 3, GPUX_DT_EW_NUMERIC, GPUX_RACC_SAME)                                              \
  X(argmin, 4, GPUX_DT_EW_NUMERIC, GPUX_RACC_SAME)                                           \
  X(argmax, 5, GPUX_DT_EW_NUMERIC, GPUX_RACC_SAME)                                           \
  X(argmin_p, 6, GPUX_DT_NUMERIC, GPUX_RACC_SAME)                                            \
  X(argmax_p, 7, GPUX_DT_NUMERIC, GPUX_RACC_SAME)                                            \
  X(any, 8, GPUX_DT_CAST, GPUX_RACC_BOOL)                                                    \
  X(all, 9, GPUX_DT_CAST, GPUX_RACC_BOOL)                                                    \
  X(cnt, 10, GPUX_DT_CAST, GPUX_RACC_I64)                                                    \
  X(asum, 11, GPUX_DT_EW_FLOAT, GPUX_RACC_SAME)                                              \
  X(ssq, 12, GPUX_DT_EW_FLOAT, GPUX_RACC_SAME)                                               \
  X(ssd, 13, GPUX_DT_EW_FLOAT_CPLX, GPUX_RACC_SAME)                                          \
  X(amax, 14, GPUX_DT_EW_FLOAT, GPUX_RACC_SAME)
#define GPUX_REDUCE_KIND_COUNT 15
/* The kinds and dtypes with vector-column kernels (two 4-byte columns per thread: CUDA's
 * RV_CVEC variant, cvec_ok in kernels/cuda/reduce.cu; the OpenCL GPU form's
 * gpux_reduce_<kind>_<dt>_cv, GPUX_RD_CVK_* in kernels/cl/reduce.cl): X(kind), M(a, dt). */
#define GPUX_REDUCE_CV_KINDS(X) X(sum) X(prod) X(argmin) X(argmax) X(asum) X(ssq) X(ssd)
#define GPUX_REDUCE_CV_DT(M, a) M(a, f32) M(a, i32)

/* Scans take the dtypes of sum and prod, complex64 and complex128 included (kernels of
 * their own: "Complex scans" above). Complex128's 16-byte accumulators make a 64 KiB tile,
 * which the kernels do not stage in shared / local memory (kernels/cuda/scan.cu,
 * kernels/cl/scan.cl): each thread reads its 16 items where they lie, in the same order. */
#define GPUX_SCAN_KINDS(X)                                                                   \
  X(sum, 0, GPUX_DT_EW_ARITH, GPUX_RACC_WIDE)                                                \
  X(prod, 1, GPUX_DT_EW_ARITH, GPUX_RACC_WIDE)
#define GPUX_SCAN_KIND_COUNT 2

/* ======================================================================================
 * Boolean masks (include/gpux/mask.h; kernels/cuda/mask.cu, kernels/cl/mask.cl): stream
 * compaction in tiles of GPUX_MASK_TILE elements. Kernels:
 *   gpux_mask_flags_<bytes>     the selection of tile c as bits and its count: element i (of a
 *                               bool mask, or nonzero's x; bytes: its size) is selected when
 *                               it has a bit of nzbits set (below); bits[i / 16] (uint16
 *                               words) holds it at bit i % 16, words past n zero (a tile's
 *                               256 words are written whole: ntiles * 256 of them), and
 *                               cnt[c] (int64) = the tile's selected elements
 *   gpux_mask_compress_<bytes>  out[k] = x[i] for the k-th selected element i
 *   gpux_mask_put_<bytes>       x[i] = vals[k] for the k-th selected element i
 *   gpux_mask_nonzero           the k-th selected element i writes its coordinates:
 *                               out[k * sp + d * sd] = coordinate d of i
 *   gpux_mask_starts_<bytes>    flags' bits and counts for the runs of a sorted array of a
 *                               real dtype or bool (bytes 1, 2, 4, 8): element i is selected
 *                               when it starts a run of equal keys, i = 0 or its key differs
 *                               from element i - 1's by THE ORDER (gpux_sort.h: images made
 *                               with EQZ, so -0.0 == +0.0 and all NaNs are equal)
 *   gpux_mask_ids               every element i (selected or not) writes the count of
 *                               selected elements up to and including it, minus 1, at
 *                               out[perm[i]] (out[i] without perm): a sorted array's group
 *                               ids from its starts' bits, at the unsorted positions
 * (by element size only, the ops move bits: GPUX_ELEM_SIZES). The front end runs flags, then
 * the inclusive scan of cnt: incl[c] = the selected elements of tiles 0..c, so tile c starts
 * writing at incl[c - 1] (0 for c = 0) and the position of an element is that plus its rank
 * among the tile's selected elements in row-major order: exact integers, the same on every
 * backend whatever the launch shape. The moving kernels read the bits, not the mask or x's
 * predicate again (1 bit an element against 1 byte or more: the mask is read once).
 * x, the mask and vals are contiguous (the front end copies views), offsets in elements.
 * The predicate is on the bits, no cast: element (as 8-byte words, zero-extended below 8
 * bytes) & nzbits != 0 in any word, with nzbits all ones for bool masks, integers and bool,
 * and the sign bits cleared for floats and complex (-0.0 is zero, NaN nonzero; complex:
 * either part). */
#define GPUX_MASK_TILE 4096
#define GPUX_MASK_THREADS 256 /* 16 elements a work-item in the GPU forms: one bits word */
#define GPUX_MASK_WORDS (GPUX_MASK_TILE / 16) /* a tile's uint16 bits words */
#define GPUX_MASK_KINDS(X) X(compress, 0) X(put, 1) X(nonzero, 2) X(flags, 3) X(starts, 4) X(ids, 5)
#define GPUX_MASK_KIND_COUNT 6
#define GPUX_KN_MASK(kind, bytes) "gpux_mask_" kind "_" bytes
#define GPUX_KN_MASK_NONZERO "gpux_mask_nonzero"
#define GPUX_KN_MASK_IDS "gpux_mask_ids"
#define GPUX_KN_MASK_SIZES_(N, kind)                                                         \
  N(GPUX_KN_MASK(kind, "1")) N(GPUX_KN_MASK(kind, "2")) N(GPUX_KN_MASK(kind, "4"))           \
  N(GPUX_KN_MASK(kind, "8")) N(GPUX_KN_MASK(kind, "16"))
#define GPUX_KN_MASK_LIST(N)                                                                 \
  GPUX_KN_MASK_SIZES_(N, "compress") GPUX_KN_MASK_SIZES_(N, "put")                           \
  GPUX_KN_MASK_SIZES_(N, "flags") N(GPUX_KN_MASK_NONZERO) N(GPUX_KN_MASK("starts", "1"))     \
  N(GPUX_KN_MASK("starts", "2")) N(GPUX_KN_MASK("starts", "4")) N(GPUX_KN_MASK("starts", "8"))  \
  N(GPUX_KN_MASK_IDS)

/* GEMM (include/gpux/linalg.h, gpux__gemm in src/api/gpux_backend.h). Native kernels are
 * named gpux_gemm_<dt>, one per dtype, with the transposes as arguments:
 * GPUX_GEMM_DT in both kernel sets, GPUX_GEMM_DT_HALF in the CUDA set only (float32
 * accumulation). Integers wrap: the ones up to 4 bytes multiply in unsigned 32-bit, the
 * 8-byte ones in unsigned 64-bit, and store the low bits (the same bits as wrapping in the
 * dtype's own width, which divides the computing one). */
#define GPUX_GEMM_DT(M, a)                                                                   \
  M(a, f32) M(a, f64) M(a, i32) M(a, i64) M(a, i8) M(a, u8) M(a, i16) M(a, u16) M(a, u32)    \
  M(a, u64)
#define GPUX_GEMM_DT_HALF(M, a) M(a, f16) M(a, bf16)
/* Complex products (issue 23): gpux_gemm_c64 / gpux_gemm_c128 in both kernel sets, kernels
 * of their own (interleaved (re, im) operands; the products accumulate in the component
 * type, re += ar br - ai bi, im += ar bi + ai br, FMA contraction allowed: no bit identity
 * across paths, backends or devices, as for float GEMM). Each operand may be conjugated on
 * its way in (BLAS 'C' = conjugate transpose; conjugation without transposition happens
 * where the front end reads a conjugate-transposed operand from transposed storage), alpha
 * and beta are complex (the component type's (re, im)); beta == 0 (both parts) never reads
 * C. */
#define GPUX_GEMM_DT_COMPLEX(M, a) M(a, c64) M(a, c128)

/* ======================================================================================
 * Gather and put (include/gpux/index.h; kernels/cuda/index.cu, kernels/cl/index.cl).
 * The kernels only move bits: they are typed by element size (GPUX_ELEM_SIZES) and index
 * dtype (int32, int64), and put's winner scratch by its dtype (int32 while the iteration
 * count fits, else int64).
 *
 * Kernel names (<sz> an element size, <it> the index dtype, <wt> the scratch dtype):
 *   gpux_index_gather_<sz>_<it>   n-d: for iteration i (row-major over nd's shape), with
 *       the offsets o0 (out), o1 (source, the axis left out), o2 (idx), o3 (the element's
 *       row-major position in idx): w = resolve(idx[o2]); out[o0] = src[o1 + w * astride]
 *       (a bad index under checked mode: the key is recorded and out[o0] = 0 bits)
 *   gpux_index_take_<sz>_<it>     out[off0 + i] = src[off1 + w * astride], w from
 *       idx[off2 + i] (contiguous out and idx: the fast path); position i
 *   gpux_index_mark_<it>_<wt>     put, pass 1, n-d (o0: the destination's offset without the
 *       axis, o2, o3 as above): win[o0 + w * astride - woff] = max(.., i) (atomic)
 *   gpux_index_put_<sz>_<it>_<wt> put, pass 2: the iteration that won writes
 *       dst[o0 + w * astride] = values[vmod ? off1 + i % vmod : o1]: the last write in
 *       iteration order wins, whatever the threads' timing
 *   gpux_index_badval_<it>        one work-item: when the recorded key is the launch's, the
 *       index value at its position (idx's own layout in stride[0] / offset[0], unmerged)
 *       goes to err[1]
 *
 * resolve (GPUX_IX_RESOLVE): checked: v in [-n, n) -> v (+ n when negative), else bad (-1);
 * wrap: v mod n in [0, n); clip: min(max(v, 0), n - 1) (NumPy's clip: negatives become 0).
 *
 * THE DEFERRED ERROR WORD (src/api/deferred.c). Two int64 words per stream: err[0] the key,
 * err[1] the bad value. A checked op gets a tag t (0, 1, ... in queue order since the
 * stream's last check); each bad element at idx position p does err[0] = min(err[0],
 * t << GPUX_IX_POS_BITS | p) (atomic), so the key names the first op with a bad index and
 * its first bad position in row-major order; then the op's badval launch copies that
 * element's value to err[1]. GPUX_IX_NO_KEY means none. */
#define GPUX_IX_CHECKED 0 /* = GPUX_INDEX_CHECKED ... (include/gpux/index.h) */
#define GPUX_IX_WRAP 1
#define GPUX_IX_CLIP 2
#define GPUX_IX_POS_BITS 40
#define GPUX_IX_MAX_TAGS (1 << 22)
#define GPUX_IX_NO_KEY 0x7fffffffffffffff
#define GPUX_IX_RESOLVE(v, n, mode)                                                          \
  ((mode) == GPUX_IX_WRAP   ? ((v) % (n) < 0 ? (v) % (n) + (n) : (v) % (n))                 \
   : (mode) == GPUX_IX_CLIP ? ((v) < 0 ? 0 : (v) >= (n) ? (n) - 1 : (v))                    \
   : ((v) < -(n) || (v) >= (n)) ? -1                                                         \
   : (v) < 0                ? (v) + (n)                                                      \
                            : (v))
/* work per thread of the CUDA take kernel and the OpenCL GPU form's (elements) */
#define GPUX_IX_TAKE_ITEMS 4
/* The launch parameters (by value; 64-bit fields only). */
typedef struct gpux_ix_params {
  GPUX_KI64 n;       /* iterations (>= 1) */
  GPUX_KI64 len;     /* the axis length N (>= 1) */
  GPUX_KI64 astride; /* the axis's stride in the source (gather) or destination (put) */
  GPUX_KI64 mode;    /* GPUX_IX_* */
  GPUX_KI64 key;     /* checked mode: tag << GPUX_IX_POS_BITS */
  GPUX_KI64 vmod;    /* put: > 0: values cycle, contiguous from off1; 0: values at o1 */
  GPUX_KI64 woff;    /* put: the destination's offset (win index = offset - woff) */
  GPUX_KI64 off0, off1, off2; /* take, put (vmod): offsets of out / values, src, idx */
} gpux_ix_params;
#define GPUX_IX_IT(M, a) M(a, i32) M(a, i64)
#define GPUX_KN_INDEX_GATHER(sz, it) "gpux_index_gather_" sz "_" it
#define GPUX_KN_INDEX_TAKE(sz, it) "gpux_index_take_" sz "_" it
#define GPUX_KN_INDEX_MARK(it, wt) "gpux_index_mark_" it "_" wt
#define GPUX_KN_INDEX_PUT(sz, it, wt) "gpux_index_put_" sz "_" it "_" wt
#define GPUX_KN_INDEX_BADVAL(it) "gpux_index_badval_" it
/* every name (46), for the coverage test: N(name) each */
#define GPUX_KN_INDEX_SZ_(N, sz, it)                                                         \
  N(GPUX_KN_INDEX_GATHER(#sz, it)) N(GPUX_KN_INDEX_TAKE(#sz, it))                            \
  N(GPUX_KN_INDEX_PUT(#sz, it, "i32")) N(GPUX_KN_INDEX_PUT(#sz, it, "i64"))
#define GPUX_KN_INDEX_IT_(N, it)                                                             \
  GPUX_KN_INDEX_SZ_(N, 1, it) GPUX_KN_INDEX_SZ_(N, 2, it) GPUX_KN_INDEX_SZ_(N, 4, it)        \
  GPUX_KN_INDEX_SZ_(N, 8, it) GPUX_KN_INDEX_SZ_(N, 16, it)                                   \
  N(GPUX_KN_INDEX_MARK(it, "i32")) N(GPUX_KN_INDEX_MARK(it, "i64")) N(GPUX_KN_INDEX_BADVAL(it))
#define GPUX_KN_INDEX_LIST(N) GPUX_KN_INDEX_IT_(N, "i32") GPUX_KN_INDEX_IT_(N, "i64")


/* Sort (include/gpux/sort.h; THE ORDER and the key images: gpux_sort.h). An LSD radix sort
 * of GPUX_SORT_BITS-bit digits over images of 32 bits (keys of 8, 16 and 32 bits: the image
 * of the key's width, zero-extended; its constant high digits are skipped) or 64 bits, with
 * uint32 positions within each row (argsort, sort by key). Rows of up to
 * GPUX_SORT_LOCAL_MAX keys are sorted by one work-group each in local memory (a bitonic sort
 * of (image, position)); longer rows by Onesweep passes (Adinets and Merrill 2022): one
 * count of every pass's digits with the images, then per digit one pass over tiles of
 * GPUX_SORT_TILE(W) keys (GPUX_SORT_IPT(W) a work-item) that never straddle rows, each
 * ranking its keys stably in local memory and finding its place by a decoupled look-back
 * over the earlier tiles of its row. A pass takes at most GPUX_SORT_PORTION_TILES tiles of
 * each row at a time (a portion: its counts stay below 2^30, the look-back word's count;
 * longer rows take several launches). The dtypes: X(dt, w, W, cls, exp_mask, man_mask,
 * canonical_nan): the key's width w, the image's W, the class and masks of gpux_so_img. */
#define GPUX_SORT_BITS 8
#define GPUX_SORT_RADIX 256
#define GPUX_SORT_THREADS 256
#define GPUX_SORT_IPT(W) ((W) == 64 ? 8 : 16)
#define GPUX_SORT_TILE(W) (GPUX_SORT_THREADS * GPUX_SORT_IPT(W)) /* 4096 / 2048 keys */
#define GPUX_SORT_HIST_TILES 16         /* IMGH: tiles a work-group counts */
#define GPUX_SORT_PORTION_TILES 65536   /* 2^28 / 2^27 keys */
#define GPUX_SORT_ELEMS 1024            /* elementwise steps: keys a work-group (launch size) */
#define GPUX_SORT_LOCAL_MAX 2048
#define GPUX_SORT_DTYPES(X)                                                                  \
  X(b8, 8, 32, GPUX_SO_UNSIGNED, 0, 0, 0)                                                    \
  X(u8, 8, 32, GPUX_SO_UNSIGNED, 0, 0, 0)                                                    \
  X(i8, 8, 32, GPUX_SO_SIGNED, 0, 0, 0)                                                      \
  X(u16, 16, 32, GPUX_SO_UNSIGNED, 0, 0, 0)                                                  \
  X(i16, 16, 32, GPUX_SO_SIGNED, 0, 0, 0)                                                    \
  X(f16, 16, 32, GPUX_SO_FLOAT, GPUX_SO_F16_EXP, GPUX_SO_F16_MAN, GPUX_SO_F16_NAN)           \
  X(bf16, 16, 32, GPUX_SO_FLOAT, GPUX_SO_BF16_EXP, GPUX_SO_BF16_MAN, GPUX_SO_BF16_NAN)       \
  X(u32, 32, 32, GPUX_SO_UNSIGNED, 0, 0, 0)                                                  \
  X(i32, 32, 32, GPUX_SO_SIGNED, 0, 0, 0)                                                    \
  X(f32, 32, 32, GPUX_SO_FLOAT, GPUX_SO_F32_EXP, GPUX_SO_F32_MAN, GPUX_SO_F32_NAN)            \
  X(u64, 64, 64, GPUX_SO_UNSIGNED, 0, 0, 0)                                                  \
  X(i64, 64, 64, GPUX_SO_SIGNED, 0, 0, 0)                                                    \
  X(f64, 64, 64, GPUX_SO_FLOAT, GPUX_SO_F64_EXP, GPUX_SO_F64_MAN, GPUX_SO_F64_NAN)
#define GPUX_KN_SORT_IMG(dt) "gpux_sort_img_" dt
#define GPUX_KN_SORT_OUT(dt) "gpux_sort_out_" dt
#define GPUX_KN_SORT_IMGH(dt) "gpux_sort_imgh_" dt
#define GPUX_KN_SORT_ONESWEEP(W) "gpux_sort_onesweep_" W
#define GPUX_KN_SORT_LOCAL(W) "gpux_sort_local_" W
#define GPUX_KN_SORT_WIDEN "gpux_sort_widen"
#define GPUX_KN_SORT_DT_(N, dt)                                                              \
  N(GPUX_KN_SORT_IMG(dt)) N(GPUX_KN_SORT_IMGH(dt)) N(GPUX_KN_SORT_OUT(dt))
#define GPUX_KN_SORT_W_(N, W)                                                                \
  N(GPUX_KN_SORT_ONESWEEP(W)) N(GPUX_KN_SORT_LOCAL(W))
/* every name (44), for the coverage test */
#define GPUX_KN_SORT_LIST(N)                                                                 \
  GPUX_KN_SORT_DT_(N, "b8") GPUX_KN_SORT_DT_(N, "u8") GPUX_KN_SORT_DT_(N, "i8")              \
  GPUX_KN_SORT_DT_(N, "u16") GPUX_KN_SORT_DT_(N, "i16") GPUX_KN_SORT_DT_(N, "f16")           \
  GPUX_KN_SORT_DT_(N, "bf16") GPUX_KN_SORT_DT_(N, "u32") GPUX_KN_SORT_DT_(N, "i32")          \
  GPUX_KN_SORT_DT_(N, "f32") GPUX_KN_SORT_DT_(N, "u64") GPUX_KN_SORT_DT_(N, "i64")           \
  GPUX_KN_SORT_DT_(N, "f64") GPUX_KN_SORT_W_(N, "32") GPUX_KN_SORT_W_(N, "64")               \
  N(GPUX_KN_SORT_WIDEN)

#endif
