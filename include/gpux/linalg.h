/* gpux: matrix products (gemm, matmul, gemv, dot) on row-major arrays.
 *
 * Paths. Every product runs on one of two paths:
 *   vendor: the vendor BLAS (cuBLAS on CUDA, bound to the context's stream; CLBlast on
 *     OpenCL), for float32, float64, complex64, complex128 (cgemm / zgemm), and on CUDA
 *     float16 and bfloat16;
 *   native: gpux's own tiled kernels (kernels/cuda/gemm.cu, kernels/cl/gemm.cl), for every
 *     dtype below, including the integers, which no vendor library has.
 * GPUX_OPTION_GEMM_PATH (or the environment variable GPUX_GEMM=auto|vendor|native, read when
 * the context is created) picks one: auto (the default) takes the vendor path where it
 * has the dtype and the native path otherwise; vendor or native forces that path, and a
 * dtype the forced path lacks is GPUX_ERROR_UNSUPPORTED_DTYPE naming the path.
 *
 * dtypes: A, B and C share one dtype. float32, float64, complex64, complex128 on both
 * backends; every integer
 * dtype (int8 .. uint64; native path; products and sums wrap in the dtype's width, as in
 * NumPy, so int8 products give int8; alpha and beta are converted to the integer type as
 * casts convert); bool has none; float16 and bfloat16 on CUDA, accumulated in float32
 * and rounded once to the output dtype. The OpenCL backend has no float16/bfloat16
 * products: GPUX_ERROR_UNSUPPORTED_DTYPE says so.
 * complex64 and complex128 (both backends, both paths): the products accumulate in the
 * component type (float32 / float64), as cgemm / zgemm do; alpha and beta are complex
 * (gpux_gemm_complex, gpux_gemv_complex; the double forms give (alpha, 0) and (beta, 0));
 * for complex64 each part is rounded to float32. GPUX_CONJ_TRANS takes the conjugate
 * transpose (BLAS 'C'); on real dtypes it is GPUX_TRANS. A conjugated operand whose storage
 * is itself transposed (conjugation without transposition, which BLAS lacks) runs on the
 * native kernels whatever the path. Accuracy: each entry within a few units of the component
 * type's roundoff times k times sum_l |a_il| |b_lj| (docs/semantics.md); like float
 * products, results are not bit-identical across paths, backends or devices.
 * float32 products are float32-accurate unless GPUX_OPTION_TF32 is set to 1 (CUDA vendor
 * path only: tensor cores with TF32 inputs, about 10 mantissa bits; off by default;
 * complex64 products never use TF32).
 *
 * beta == 0 (complex: 0 + 0i) means C is not read: NaN or garbage in C never reaches the
 * result (BLAS rule).
 *
 * Operands may be strided views: a 2-d operand whose last or second-to-last axis has unit
 * stride is used in place (a transposed view becomes a transposed operand); others are
 * copied to a contiguous buffer first. Outputs may be strided views too (written through a
 * copy when their rows are not unit-stride).
 *
 * Like every gpux op, products are queued on the context's stream and return at once. */
#ifndef GPUX_LINALG_H
#define GPUX_LINALG_H
#include "array.h"

/* op(X): X, X^T, or the conjugate transpose X^H (complex dtypes; X^T for real ones) */
typedef enum gpux_transpose {
  GPUX_NO_TRANS = 0,
  GPUX_TRANS = 1,
  GPUX_CONJ_TRANS = 2
} gpux_transpose;

/* Values of GPUX_OPTION_GEMM_PATH */
typedef enum gpux_gemm_path {
  GPUX_GEMM_AUTO = 0,
  GPUX_GEMM_VENDOR = 1,
  GPUX_GEMM_NATIVE = 2
} gpux_gemm_path;

#ifdef __cplusplus
extern "C" {
#endif

/* C = alpha * op(A) @ op(B) + beta * C, BLAS's GEMM on row-major 2-d arrays:
 * op(A) is m x k, op(B) k x n, C m x n (op = transpose when ta / tb is GPUX_TRANS, conjugate
 * transpose when GPUX_CONJ_TRANS). C is updated in place. Shapes that do not fit are
 * GPUX_ERROR_SHAPE_MISMATCH naming all three shapes. k == 0 gives C = beta * C.
 * On complex arrays alpha and beta are (alpha, 0) and (beta, 0). */
GPUX_API gpux_status gpux_gemm(gpux_array_t c, gpux_transpose ta, gpux_transpose tb,
                               double alpha, gpux_array_t a, gpux_array_t b, double beta);
/* gpux_gemm with complex alpha and beta (complex64 arrays: each part rounded to float32).
 * On real dtypes the imaginary parts must be 0 (else GPUX_ERROR_INVALID_ARGUMENT). */
GPUX_API gpux_status gpux_gemm_complex(gpux_array_t c, gpux_transpose ta, gpux_transpose tb,
                                       gpux_complex128 alpha, gpux_array_t a, gpux_array_t b,
                                       gpux_complex128 beta);

/* NumPy's matmul (a @ b): 1-d operands are promoted (a: 1 x k, b: k x 1) and the added axis
 * removed from the result; operands of more than two axes are stacks of matrices whose
 * leading (batch) axes broadcast. Inner sizes that differ, or batch shapes that do not
 * broadcast, are GPUX_ERROR_SHAPE_MISMATCH naming both shapes. The result has a's dtype
 * (a and b must share it). _into writes into out, of exactly the result shape and dtype,
 * which must not overlap a or b. */
GPUX_API gpux_status gpux_matmul(gpux_array_t *out, gpux_array_t a, gpux_array_t b);
GPUX_API gpux_status gpux_matmul_into(gpux_array_t out, gpux_array_t a, gpux_array_t b);

/* y = alpha * op(A) @ x + beta * y: A 2-d, x and y 1-d (BLAS's GEMV). _complex: complex
 * alpha and beta, as gpux_gemm_complex. */
GPUX_API gpux_status gpux_gemv(gpux_array_t y, gpux_transpose ta, double alpha, gpux_array_t a,
                               gpux_array_t x, double beta);
GPUX_API gpux_status gpux_gemv_complex(gpux_array_t y, gpux_transpose ta, gpux_complex128 alpha,
                                       gpux_array_t a, gpux_array_t x, gpux_complex128 beta);

/* The inner product sum x_i y_i of two 1-d arrays of one length and dtype (no conjugation,
 * as NumPy's dot), as a 0-d array (dot) or straight to the host (the _scalar forms, which
 * wait for the result): dot_scalar as a double (complex operands:
 * GPUX_ERROR_UNSUPPORTED_DTYPE), dot_scalar_complex as a complex128 (any dtype; real ones
 * give (x, 0)). vdot conjugates x first: sum conj(x_i) y_i (NumPy's vdot; real dtypes: dot). */
GPUX_API gpux_status gpux_dot(gpux_array_t *out, gpux_array_t x, gpux_array_t y);
GPUX_API gpux_status gpux_vdot(gpux_array_t *out, gpux_array_t x, gpux_array_t y);
GPUX_API gpux_status gpux_dot_scalar(double *out, gpux_array_t x, gpux_array_t y);
GPUX_API gpux_status gpux_dot_scalar_complex(gpux_complex128 *out, gpux_array_t x,
                                             gpux_array_t y);

#ifdef __cplusplus
}
#endif
#endif
