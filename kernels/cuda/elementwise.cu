/* gpux CUDA kernels, elementwise family: binary (layouts c, s, n), unary (c, n), where (c, n).
 * Every kernel is generated from the X-macro lists in gpux_kernels.h; the semantics below
 * are the ones that header lists (integer wrap, floor division, x / 0 == 0, NaN rules).
 *
 * Signatures (T = the dtype's type, R = T or unsigned char for bool results):
 *   gpux_binary_<op>_<dt>_c(R *out, const T *a, const T *b, long long n)
 *   gpux_binary_<op>_<dt>_s(R *out, const T *a, T s, int scalar_first, long long n)
 *   gpux_binary_<op>_<dt>_n(R *out, const T *a, const T *b, gpux_nd_params p)
 *   gpux_unary_<op>_<dt>_c(R *out, const T *a, long long n)
 *   gpux_unary_<op>_<dt>_n(R *out, const T *a, gpux_nd_params p)
 *   gpux_where_<dt>_c(T *out, const unsigned char *cond, const T *a, const T *b, long long n)
 *   gpux_where_<dt>_n(T *out, const unsigned char *cond, const T *a, const T *b,
 *                     gpux_nd_params p)
 * Layout c/s pointers are already offset; layout n pointers are bases and p.offset[k]
 * applies (operand 0 out, 1 a / cond, 2 b / a, 3 b). */
#include "gpux_cuda.cuh"
#include "gpux_cuda_ops.cuh" /* the ops themselves (k_add, ...), shared with expressions */
#include "gpux_cuda_complex.cuh" /* their complex64 / complex128 overloads */

namespace gpux_cu {

/* ---- op structs and functors ---------------------------------------------------------- */
#define GPUX_CU_BOP(op, id, dts, res)                                                   \
  struct bop_##op {                                                                     \
    static constexpr int rk = res;                                                      \
    template <class T>                                                                  \
    static __device__ __forceinline__ typename res_t<res, T>::type apply(T a, T b) {    \
      return (typename res_t<res, T>::type)k_##op(a, b);                                \
    }                                                                                   \
  };
GPUX_BINARY_OPS(GPUX_CU_BOP)
#undef GPUX_CU_BOP

#define GPUX_CU_UOP(op, id, dts, res)                                                   \
  struct uop_##op {                                                                     \
    static constexpr int rk = res;                                                      \
    template <class T>                                                                  \
    static __device__ __forceinline__ typename res_t<res, T>::type apply(T a) {         \
      return (typename res_t<res, T>::type)k_##op(a);                                   \
    }                                                                                   \
  };
GPUX_UNARY_OPS(GPUX_CU_UOP)
#undef GPUX_CU_UOP

/* Ops whose body is long run one vector group per thread (see cshape in gpux_cuda.cuh). */
template <class OP, class T> struct heavy { static constexpr bool value = false; };
#define GPUX_CU_HEAVY(opstruct)                                                         \
  template <class T> struct heavy<opstruct, T> { static constexpr bool value = true; };
GPUX_CU_HEAVY(bop_div)
GPUX_CU_HEAVY(bop_mod)
GPUX_CU_HEAVY(bop_pow)
GPUX_CU_HEAVY(uop_log)
GPUX_CU_HEAVY(uop_log1p)
GPUX_CU_HEAVY(uop_expm1)
GPUX_CU_HEAVY(uop_sin)
GPUX_CU_HEAVY(uop_cos)
GPUX_CU_HEAVY(uop_tan)
GPUX_CU_HEAVY(uop_tanh)
GPUX_CU_HEAVY(uop_sigmoid)
#undef GPUX_CU_HEAVY
template <> struct heavy<uop_exp, double> { static constexpr bool value = true; };

/* float16 / bfloat16: the float32 op on the operands' exact float32 values, its result
 * rounded once to the dtype (bool results as they are; gpux_kernels.h) */
template <class OP, class D>
__device__ __forceinline__ typename res_t<OP::rk, typename D::T>::type ew_b(typename D::T a,
                                                                            typename D::T b) {
  if constexpr (is_half<D>::value) {
    const auto r = OP::apply(comp<D>::of(a), comp<D>::of(b));
    if constexpr (OP::rk == GPUX_RES_BOOL) return r;
    else return comp<D>::back(r);
  } else {
    return OP::apply(a, b);
  }
}
template <class OP, class D>
__device__ __forceinline__ typename res_t<OP::rk, typename D::T>::type ew_u(typename D::T a) {
  if constexpr (is_half<D>::value) {
    const auto r = OP::apply(comp<D>::of(a));
    if constexpr (OP::rk == GPUX_RES_BOOL) return r;
    else return comp<D>::back(r);
  } else {
    return OP::apply(a);
  }
}

template <class OP, class D> struct bin_f {
  typedef typename D::T T;
  typedef typename res_t<OP::rk, T>::type R;
  __device__ __forceinline__ R operator()(T a, T b, u64) const { return ew_b<OP, D>(a, b); }
};
/* a op s, or s op a when first: selects, so the op body exists once */
template <class OP, class D> struct bin_s_f {
  typedef typename D::T T;
  typedef typename res_t<OP::rk, T>::type R;
  T s;
  int first;
  __device__ __forceinline__ R operator()(T a, u64) const {
    const T x = first ? s : a;
    const T y = first ? a : s;
    return ew_b<OP, D>(x, y);
  }
};
template <class OP, class D> struct un_f {
  typedef typename D::T T;
  typedef typename res_t<OP::rk, T>::type R;
  __device__ __forceinline__ R operator()(T a, u64) const { return ew_u<OP, D>(a); }
};
template <class D> struct where_f {
  typedef typename D::T T;
  __device__ __forceinline__ T operator()(unsigned char c, T a, T b, u64) const {
    const T v = c != 0 ? a : b;
    if constexpr (D::kind == K_BOOL) return (T)(v != 0); /* bool outputs are 0 or 1 */
    else return v;
  }
};

}  // namespace gpux_cu

/* ---- kernels -------------------------------------------------------------------------- */
#define GPUX_CU_KERNEL extern "C" __global__ void __launch_bounds__(GPUX_CU_BLOCK)
#define GPUX_CU_NULL ((const char *)0)

#define GPUX_CU_BIN_R(op, dt) gpux_cu::res_t<gpux_cu::bop_##op::rk, GPUX_CU_T(dt)>::type
#define GPUX_CU_BIN_H(op, dt) gpux_cu::heavy<gpux_cu::bop_##op, GPUX_CU_T(dt)>::value
#define GPUX_CU_BINARY_KERNELS(op, dt)                                                  \
  GPUX_CU_KERNEL gpux_binary_##op##_##dt##_c(GPUX_CU_BIN_R(op, dt) *out,                \
                                             const GPUX_CU_T(dt) *a,                    \
                                             const GPUX_CU_T(dt) *b, long long n) {     \
    gpux_cu::map_c<2, GPUX_CU_BIN_H(op, dt)>(                                           \
        gpux_cu::bin_f<gpux_cu::bop_##op, GPUX_CU_D(dt)>(), out, a, b, GPUX_CU_NULL, n); \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_binary_##op##_##dt##_s(GPUX_CU_BIN_R(op, dt) *out,                \
                                             const GPUX_CU_T(dt) *a, GPUX_CU_T(dt) s,   \
                                             int scalar_first, long long n) {           \
    gpux_cu::map_c<1, GPUX_CU_BIN_H(op, dt)>(                                           \
        gpux_cu::bin_s_f<gpux_cu::bop_##op, GPUX_CU_D(dt)>{s, scalar_first}, out, a,    \
        GPUX_CU_NULL, GPUX_CU_NULL, n);                                                 \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_binary_##op##_##dt##_n(GPUX_CU_BIN_R(op, dt) *out,                \
                                             const GPUX_CU_T(dt) *a,                    \
                                             const GPUX_CU_T(dt) *b,                    \
                                             const __grid_constant__ gpux_nd_params p) { \
    gpux_cu::map_n<2>(gpux_cu::bin_f<gpux_cu::bop_##op, GPUX_CU_D(dt)>(), out, a, b,    \
                      GPUX_CU_NULL, p);                                                 \
  }
#define GPUX_CU_BINARY_OP(op, id, dts, res) dts(GPUX_CU_BINARY_KERNELS, op)
GPUX_BINARY_OPS(GPUX_CU_BINARY_OP)

#define GPUX_CU_UN_R(op, dt) gpux_cu::res_t<gpux_cu::uop_##op::rk, GPUX_CU_T(dt)>::type
#define GPUX_CU_UN_H(op, dt) gpux_cu::heavy<gpux_cu::uop_##op, GPUX_CU_T(dt)>::value
#define GPUX_CU_UNARY_KERNELS(op, dt)                                                   \
  GPUX_CU_KERNEL gpux_unary_##op##_##dt##_c(GPUX_CU_UN_R(op, dt) *out,                  \
                                            const GPUX_CU_T(dt) *a, long long n) {      \
    gpux_cu::map_c<1, GPUX_CU_UN_H(op, dt)>(gpux_cu::un_f<gpux_cu::uop_##op,            \
                                                          GPUX_CU_D(dt)>(),             \
                                            out, a, GPUX_CU_NULL, GPUX_CU_NULL, n);     \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_unary_##op##_##dt##_n(GPUX_CU_UN_R(op, dt) *out,                  \
                                            const GPUX_CU_T(dt) *a,                     \
                                            const __grid_constant__ gpux_nd_params p) { \
    gpux_cu::map_n<1>(gpux_cu::un_f<gpux_cu::uop_##op, GPUX_CU_D(dt)>(), out, a,        \
                      GPUX_CU_NULL, GPUX_CU_NULL, p);                                   \
  }
#define GPUX_CU_UNARY_OP(op, id, dts, res) dts(GPUX_CU_UNARY_KERNELS, op)
GPUX_UNARY_OPS(GPUX_CU_UNARY_OP)

#define GPUX_CU_WHERE_KERNELS(unused, dt)                                               \
  GPUX_CU_KERNEL gpux_where_##dt##_c(GPUX_CU_T(dt) *out, const unsigned char *cond,     \
                                     const GPUX_CU_T(dt) *a, const GPUX_CU_T(dt) *b,    \
                                     long long n) {                                     \
    gpux_cu::map_c<3, false>(gpux_cu::where_f<GPUX_CU_D(dt)>(), out, cond, a, b, n);           \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_where_##dt##_n(GPUX_CU_T(dt) *out, const unsigned char *cond,     \
                                     const GPUX_CU_T(dt) *a, const GPUX_CU_T(dt) *b,    \
                                     const __grid_constant__ gpux_nd_params p) {        \
    gpux_cu::map_n<3>(gpux_cu::where_f<GPUX_CU_D(dt)>(), out, cond, a, b, p);           \
  }
GPUX_DT_WHERE(GPUX_CU_WHERE_KERNELS, _)
