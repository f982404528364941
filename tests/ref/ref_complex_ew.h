/* gpux tests: the CPU reference of the complex elementwise ops (gpux_kernels.h "complex
 * elementwise ops"). Inputs and outputs are arrays of the dtypes' bits (complex64: pairs of
 * float, complex128: pairs of double; results of abs, angle, real, imag in the component
 * dtype; comparisons and logical ops bool bytes).
 * The exact ops (add, sub, mul, div, neg, conj, real, imag, eq, ne, the logical ops and pow
 * with bi == 0 and an integral |br| < 100, or a zero operand) are computed with the same
 * formula in the component type, one rounded IEEE operation at a time (this file is
 * compiled with -ffp-contract=off): their bits are the kernels' bits. The others (exp, log,
 * sqrt, sin, cos, abs, angle, pow's general case) follow the same special-value rules with
 * long double arithmetic, the result rounded once to the component type. */
#ifndef GPUX_REF_COMPLEX_EW_H
#define GPUX_REF_COMPLEX_EW_H
#include <stdint.h>
#include "gpux.h"

/* out[i] = a[i] op b[i] */
void ref_cx_binary(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a, const void *b,
                   void *out);
/* out[i] = a[i] op s (or s op a[i]); s is one element of dt (bits) */
void ref_cx_binary_scalar(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a,
                          const void *s, int scalar_first, void *out);
void ref_cx_unary(gpux_unary_op op, gpux_dtype dt, int64_t n, const void *a, void *out);
/* 1 when element (a, b) of op is one of the exact cases above (pow: by its operands) */
int ref_cx_binary_exact(gpux_binary_op op, gpux_dtype dt, const void *a, const void *b);
int ref_cx_unary_exact(gpux_unary_op op);
#endif
