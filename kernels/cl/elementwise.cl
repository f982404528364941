#include "gpux_kernels.h"
/* gpux OpenCL kernels, elementwise family: binary, unary and where (OpenCL C 1.2).
 *
 * Every kernel is generated from the X-macro lists of gpux_kernels.h, so the set cannot
 * drift from the CUDA one; the semantics are those listed in that header.
 *
 * Build options (chosen by the host per device):
 *   -DGPUX_ELEMS_PER_ITEM=N   elements per work-item on the contiguous layouts (1, 2, 4, 8
 *                             or 16). 1 on CPU devices (pocl vectorizes across work-items
 *                             and loses that with loops); > 1 on GPUs, where an aligned
 *                             chunk is read and written with one vector access per operand.
 *   -DGPUX_EXACT_LAUNCH       CPU devices: exact launches, no bounds tests, n-d kernels on
 *                             a 3-d NDRange (see GPUX_ND_BEGIN).
 * float64 kernels exist only where the compiler defines cl_khr_fp64.
 *
 * Signatures (T the dtype, R the result: T, or uchar for comparisons and logical ops;
 * offsets and n in elements; work-item i covers elements [i*N, i*N+N) of [0, n), with the
 * global work offset applied, so the host may split a launch):
 *   gpux_binary_<op>_<dt>_c(global R *out, long out_off, global const T *a, long a_off,
 *                           global const T *b, long b_off, long n)
 *   gpux_binary_<op>_<dt>_s(global R *out, long out_off, global const T *a, long a_off,
 *                           T s, int scalar_first, long n)      out = a op s, or s op a
 *   gpux_binary_<op>_<dt>_n(global R *out, global const T *a, global const T *b,
 *                           gpux_nd_params p)      one element per work-item (GPUX_ND_BEGIN)
 *   gpux_unary_<op>_<dt>_c(global R *out, long out_off, global const T *a, long a_off, long n)
 *   gpux_unary_<op>_<dt>_n(global R *out, global const T *a, gpux_nd_params p)
 *   gpux_where_<dt>_c(global T *out, long out_off, global const uchar *cond, long cond_off,
 *                     global const T *a, long a_off, global const T *b, long b_off, long n)
 *   gpux_where_<dt>_n(global T *out, global const uchar *cond, global const T *a,
 *                     global const T *b, gpux_nd_params p)
 */

#include "gpux_cl_prelude.h"

/* the ops (gpux_binary_<op>_<dt>_fn, ...), shared with the ops prelude of expressions */
#include "gpux_cl_ops.h"

/* comparisons and logical ops, every dtype; results are 0 or 1 */
#define GPUX_DEF_BOOL_OPS(a_, dt)                                         \
  GPUX_BFN(eq, dt, uchar) { return a == b; }                              \
  GPUX_BFN(ne, dt, uchar) { return a != b; }                              \
  GPUX_BFN(lt, dt, uchar) { return a < b; }                               \
  GPUX_BFN(le, dt, uchar) { return a <= b; }                              \
  GPUX_BFN(gt, dt, uchar) { return a > b; }                               \
  GPUX_BFN(ge, dt, uchar) { return a >= b; }                              \
  GPUX_BFN(logical_and, dt, uchar) { return a != 0 && b != 0; }           \
  GPUX_BFN(logical_or, dt, uchar) { return a != 0 || b != 0; }            \
  GPUX_BFN(logical_xor, dt, uchar) { return (a != 0) != (b != 0); }       \
  GPUX_UFN(logical_not, dt, uchar) { return x == 0; }
#define GPUX_DEF_BOOL_OPS_DT(a_, dt) GPUX_ON_##dt(GPUX_DEF_BOOL_OPS, a_, dt)
GPUX_DT_ALL(GPUX_DEF_BOOL_OPS_DT, _)

/* complex64 / complex128: the formulas of gpux_complex.h (with FP_CONTRACT OFF), shared
 * with the CUDA set. Their result types have no vector typedef (float2 has no vector of
 * GPUX_EPI): the kernels below map complex inputs one element at a time (GPUX_MAP_C*S). */
#include "gpux_complex.h"
#define GPUX_CX_BFN(op, dt, RT)            \
  typedef RT gpux_binary_##op##_##dt##_rt; \
  static inline RT gpux_binary_##op##_##dt##_fn(GPUX_T_##dt a, GPUX_T_##dt b)
#define GPUX_CX_UFN(op, dt, RT)           \
  typedef RT gpux_unary_##op##_##dt##_rt; \
  static inline RT gpux_unary_##op##_##dt##_fn(GPUX_T_##dt x)
#define GPUX_DEF_CPLX(a_, dt) GPUX_DEF_CPLX_(dt, GPUX_T_##dt, GPUX_CT_##dt)
#define GPUX_DEF_CPLX_(dt, T, R)                                                        \
  GPUX_CX_BFN(add, dt, T) { return gpux_cx_add_##dt(a, b); }                            \
  GPUX_CX_BFN(sub, dt, T) { return gpux_cx_sub_##dt(a, b); }                            \
  GPUX_CX_BFN(mul, dt, T) { return gpux_cx_mul_##dt(a, b); }                            \
  GPUX_CX_BFN(div, dt, T) { return gpux_cx_div_##dt(a, b); }                            \
  GPUX_CX_BFN(pow, dt, T) { return gpux_cx_pow_##dt(a, b); }                            \
  GPUX_CX_BFN(eq, dt, uchar) { return (uchar)gpux_cx_eq_##dt(a, b); }                   \
  GPUX_CX_BFN(ne, dt, uchar) { return (uchar)!gpux_cx_eq_##dt(a, b); }                  \
  GPUX_CX_BFN(logical_and, dt, uchar) { return gpux_cx_nz_##dt(a) && gpux_cx_nz_##dt(b); } \
  GPUX_CX_BFN(logical_or, dt, uchar) { return gpux_cx_nz_##dt(a) || gpux_cx_nz_##dt(b); }  \
  GPUX_CX_BFN(logical_xor, dt, uchar) { return gpux_cx_nz_##dt(a) != gpux_cx_nz_##dt(b); } \
  GPUX_CX_UFN(logical_not, dt, uchar) { return (uchar)!gpux_cx_nz_##dt(x); }            \
  GPUX_CX_UFN(neg, dt, T) { return gpux_cx_neg_##dt(x); }                               \
  GPUX_CX_UFN(conj, dt, T) { return gpux_cx_conj_##dt(x); }                             \
  GPUX_CX_UFN(exp, dt, T) { return gpux_cx_exp_##dt(x); }                               \
  GPUX_CX_UFN(log, dt, T) { return gpux_cx_log_##dt(x); }                               \
  GPUX_CX_UFN(sqrt, dt, T) { return gpux_cx_sqrt_##dt(x); }                             \
  GPUX_CX_UFN(sin, dt, T) { return gpux_cx_sin_##dt(x); }                               \
  GPUX_CX_UFN(cos, dt, T) { return gpux_cx_cos_##dt(x); }                               \
  GPUX_CX_UFN(abs, dt, R) { return gpux_cx_abs_##dt(x); }                               \
  GPUX_CX_UFN(angle, dt, R) { return gpux_cx_angle_##dt(x); }                           \
  GPUX_CX_UFN(real, dt, R) { return x.x; }                                              \
  GPUX_CX_UFN(imag, dt, R) { return x.y; }
#define GPUX_DEF_CPLX_DT(a_, dt) GPUX_ON_##dt(GPUX_DEF_CPLX, a_, dt)
GPUX_DT_COMPLEX(GPUX_DEF_CPLX_DT, _)

/* the contiguous map of an input dtype: one element at a time for complex */
#define GPUX_MAPC1_F GPUX_MAP_C1
#define GPUX_MAPC1_H GPUX_MAP_C1
#define GPUX_MAPC1_S GPUX_MAP_C1
#define GPUX_MAPC1_U GPUX_MAP_C1
#define GPUX_MAPC1_B GPUX_MAP_C1
#define GPUX_MAPC1_C GPUX_MAP_C1S
#define GPUX_MAPC2_F GPUX_MAP_C2
#define GPUX_MAPC2_H GPUX_MAP_C2
#define GPUX_MAPC2_S GPUX_MAP_C2
#define GPUX_MAPC2_U GPUX_MAP_C2
#define GPUX_MAPC2_B GPUX_MAP_C2
#define GPUX_MAPC2_C GPUX_MAP_C2S
#define GPUX_MAPC3_F GPUX_MAP_C3
#define GPUX_MAPC3_H GPUX_MAP_C3
#define GPUX_MAPC3_S GPUX_MAP_C3
#define GPUX_MAPC3_U GPUX_MAP_C3
#define GPUX_MAPC3_B GPUX_MAP_C3
#define GPUX_MAPC3_C GPUX_MAP_C3S

/* float16 / bfloat16: each op is float32's on the operands' exact float32 values, its
 * result rounded once to the dtype (bool results as they are); generated for the ops whose
 * list has the half dtypes (gpux_kernels.h) */
#include "gpux_half.h"
/* GPUX_HALF_ONLY(M, a, dt): M(a, dt) for the half dtypes (class H), else nothing */
#define GPUX_HALF_ONLY(M, a, dt) GPUX_BYCLS(GPUX_HALF_ONLY_, dt)(M, a, dt)
#define GPUX_HALF_ONLY_H(M, a, dt) M(a, dt)
#define GPUX_HALF_ONLY_F(M, a, dt)
#define GPUX_HALF_ONLY_S(M, a, dt)
#define GPUX_HALF_ONLY_U(M, a, dt)
#define GPUX_HALF_ONLY_B(M, a, dt)
#define GPUX_HALF_ONLY_C(M, a, dt)
/* kn: gpux_binary_<op> or gpux_unary_<op> (op names are only pasted, as in gpux_cl_ops.h);
 * result kind 0 (GPUX_RES_SAME): rounded to dt; 1 (GPUX_RES_BOOL): the uchar as it is */
#define GPUX_EW_HFN(kn, dt, RT)       \
  typedef RT kn##_##dt##_rt;       \
  GPUX_VTYPEDEF(RT, kn##_##dt##_rtv) \
  static inline RT kn##_##dt##_fn
#define GPUX_HB_0(kn, dt) \
  GPUX_EW_HFN(kn, dt, ushort)(ushort a, ushort b) { return GPUX_FH_##dt(kn##_f32_fn(GPUX_HF_##dt(a), GPUX_HF_##dt(b))); }
#define GPUX_HB_1(kn, dt) \
  GPUX_EW_HFN(kn, dt, uchar)(ushort a, ushort b) { return kn##_f32_fn(GPUX_HF_##dt(a), GPUX_HF_##dt(b)); }
#define GPUX_HU_0(kn, dt) \
  GPUX_EW_HFN(kn, dt, ushort)(ushort x) { return GPUX_FH_##dt(kn##_f32_fn(GPUX_HF_##dt(x))); }
#define GPUX_HU_1(kn, dt) GPUX_EW_HFN(kn, dt, uchar)(ushort x) { return kn##_f32_fn(GPUX_HF_##dt(x)); }
#define GPUX_HB_SAME(kn, dt) GPUX_HALF_ONLY(GPUX_HB_0, kn, dt)
#define GPUX_HB_BOOL(kn, dt) GPUX_HALF_ONLY(GPUX_HB_1, kn, dt)
#define GPUX_HU_SAME(kn, dt) GPUX_HALF_ONLY(GPUX_HU_0, kn, dt)
#define GPUX_HU_BOOL(kn, dt) GPUX_HALF_ONLY(GPUX_HU_1, kn, dt)
#define GPUX_HB_RES_0 GPUX_HB_SAME
#define GPUX_HB_RES_1 GPUX_HB_BOOL
#define GPUX_HU_RES_0 GPUX_HU_SAME
#define GPUX_HU_RES_1 GPUX_HU_BOOL
#define GPUX_HB_RES_2 GPUX_HB_SAME /* GPUX_RES_REAL: a real dtype's own */
#define GPUX_HU_RES_2 GPUX_HU_SAME
#define GPUX_HALF_BOP(op, id, DTLIST, RES) DTLIST(GPUX_CAT(GPUX_HB_RES_, RES), gpux_binary_##op)
#define GPUX_HALF_UOP(op, id, DTLIST, RES) DTLIST(GPUX_CAT(GPUX_HU_RES_, RES), gpux_unary_##op)
GPUX_BINARY_OPS(GPUX_HALF_BOP)
GPUX_UNARY_OPS(GPUX_HALF_UOP)

/* ------------------------------------------------------------------ kernels
 * X(op, id, DTLIST, RES) -> DTLIST(GPUX_*_DT, gpux_<family>_<op>) -> one set per dtype */
#define GPUX_BINARY_KERNELS(kn, dt)                                                    \
  GPUX_BINARY_KERNELS_(kn##_##dt, kn##_##dt##_fn, kn##_##dt##_rt, GPUX_T_##dt,         \
                       GPUX_BYCLS(GPUX_MAPC1_, dt), GPUX_BYCLS(GPUX_MAPC2_, dt))
#define GPUX_BINARY_KERNELS_(k, fn, R, T, MAP1, MAP2)                                          \
  __kernel void k##_c(__global R *out, long out_off, __global const T *a, long a_off,          \
                      __global const T *b, long b_off, long n) {                               \
    MAP2(R, R##v, out, out_off, T, a, a_off, T, b, b_off, n, fn(x1, x2))                      \
  }                                                                                            \
  __kernel void k##_s(__global R *out, long out_off, __global const T *a, long a_off, T s,     \
                      int scalar_first, long n) {                                              \
    if (scalar_first)                                                                          \
      MAP1(R, R##v, out, out_off, T, a, a_off, n, fn(s, x1))                                  \
    else                                                                                       \
      MAP1(R, R##v, out, out_off, T, a, a_off, n, fn(x1, s))                                  \
  }                                                                                            \
  __kernel void k##_n(__global R *out, __global const T *a, __global const T *b,               \
                      gpux_nd_params p) {                                                      \
    long i = (long)get_global_id(0);                                                           \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                             \
      GPUX_ND_BEGIN(p, i, 3)                                                          \
      out[GPUX_ND_OFF(p, 0)] = fn(a[GPUX_ND_OFF(p, 1)], b[GPUX_ND_OFF(p, 2)]);                                                  \
    }                                                                                          \
  }
#define GPUX_BINARY_DT(kn, dt) GPUX_KON_##dt(GPUX_BINARY_KERNELS, kn, dt)
#define GPUX_BINARY_OP(op, id, DTLIST, RES) DTLIST(GPUX_BINARY_DT, gpux_binary_##op)
GPUX_BINARY_OPS(GPUX_BINARY_OP)

#define GPUX_UNARY_KERNELS(kn, dt)                                                     \
  GPUX_UNARY_KERNELS_(kn##_##dt, kn##_##dt##_fn, kn##_##dt##_rt, GPUX_T_##dt,          \
                      GPUX_BYCLS(GPUX_MAPC1_, dt))
#define GPUX_UNARY_KERNELS_(k, fn, R, T, MAP1)                                                 \
  __kernel void k##_c(__global R *out, long out_off, __global const T *a, long a_off, long n) { \
    MAP1(R, R##v, out, out_off, T, a, a_off, n, fn(x1))                                       \
  }                                                                                            \
  __kernel void k##_n(__global R *out, __global const T *a, gpux_nd_params p) {                \
    long i = (long)get_global_id(0);                                                           \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                             \
      GPUX_ND_BEGIN(p, i, 2)                                                          \
      out[GPUX_ND_OFF(p, 0)] = fn(a[GPUX_ND_OFF(p, 1)]);                                                             \
    }                                                                                          \
  }
#define GPUX_UNARY_DT(kn, dt) GPUX_KON_##dt(GPUX_UNARY_KERNELS, kn, dt)
#define GPUX_UNARY_OP(op, id, DTLIST, RES) DTLIST(GPUX_UNARY_DT, gpux_unary_##op)
GPUX_UNARY_OPS(GPUX_UNARY_OP)

#define GPUX_WHERE_KERNELS(a_, dt) \
  GPUX_WHERE_KERNELS_(gpux_where_##dt, GPUX_T_##dt, GPUX_BYCLS(GPUX_MAPC3_, dt))
#define GPUX_WHERE_KERNELS_(k, T, MAP3)                                                        \
  __kernel void k##_c(__global T *out, long out_off, __global const uchar *cond,               \
                      long cond_off, __global const T *a, long a_off, __global const T *b,     \
                      long b_off, long n) {                                                    \
    MAP3(T, GPUX_VEC(T), out, out_off, uchar, cond, cond_off, T, a, a_off, T, b, b_off, n,           \
                x1 ? x2 : x3)                                                                  \
  }                                                                                            \
  __kernel void k##_n(__global T *out, __global const uchar *cond, __global const T *a,        \
                      __global const T *b, gpux_nd_params p) {                                 \
    long i = (long)get_global_id(0);                                                           \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                             \
      GPUX_ND_BEGIN(p, i, 4)                                                          \
      out[GPUX_ND_OFF(p, 0)] = cond[GPUX_ND_OFF(p, 1)] ? a[GPUX_ND_OFF(p, 2)] : b[GPUX_ND_OFF(p, 3)];                                      \
    }                                                                                          \
  }
#define GPUX_WHERE_DT(a_, dt) GPUX_KON_##dt(GPUX_WHERE_KERNELS, a_, dt)
GPUX_DT_WHERE(GPUX_WHERE_DT, _)
