/* gpux CUDA kernel set: what reduce.cu and scan.cu share -- the reduction kinds of
 * gpux_kernels.h ("Reductions and scans") as policy types, warp shuffles of accumulators and
 * the relaxed loads/stores the single-pass scan publishes its tile states with, and the
 * asynchronous copies (cp.async) column sums and the scan stream their inputs with.
 *
 * A kind policy K (rk_<kind><D>, D the input dtype tag) gives:
 *   T, A        input and accumulator types (integer sum/prod/cnt accumulate in unsigned
 *               64-bit: wrap-around without UB);
 *   C, val(x)   the type the input computes in and an element's value there (comp<D>:
 *               float for float16 / bfloat16, else T);
 *   Out         the output element type (A; integer sum/prod: int64, uint64 for uint64
 *               inputs, and cnt: int64; C for argmin/max);
 *   id()        the identity (exact: id() (+) x == x and x (+) id() == x bit for bit);
 *   conv(x, r, xi, m)  one input element as an accumulator: r its position in the reduced
 *               sequence (argmin/argmax), xi the carried index (argmin_p/argmax_p), m the
 *               mean (ssd, a C); each kind ignores what it does not use;
 *   comb(a, b)  a (+) b, a the left operand (lower lane / earlier element).
 * Float math is rounded per operation (__fadd_rn, __fmul_rn, ...): a product never fuses
 * into an FMA with the sum it feeds, so results match the canonical order bit for bit
 * (the files are also compiled with -fmad=false). */
#ifndef GPUX_REDUCE_CUH
#define GPUX_REDUCE_CUH

#include "gpux_cuda.cuh"

namespace gpux_cu {

constexpr unsigned FULL_MASK = 0xffffffffu;

/* ---- arithmetic, rounded per operation ------------------------------------------------ */
__device__ __forceinline__ float f_add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double f_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float f_sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double f_sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float f_mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double f_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float f_abs(float a) { return fabsf(a); }
__device__ __forceinline__ double f_abs(double a) { return fabs(a); }

/* the identities of min and max: the type's range (integers), +-inf (floats) */
template <class T> struct lim {
  static __device__ __forceinline__ T hi() {
    if constexpr ((T)-1 < (T)0) return (T)(~0ULL >> (65 - 8 * (int)sizeof(T)));
    else return (T)~0ULL;
  }
  static __device__ __forceinline__ T lo() {
    if constexpr ((T)-1 < (T)0) return (T)(-hi() - 1);
    else return (T)0;
  }
};
template <> struct lim<float> {
  static __device__ __forceinline__ float hi() { return __int_as_float(0x7f800000); }
  static __device__ __forceinline__ float lo() { return __int_as_float((int)0xff800000u); }
};
template <> struct lim<double> {
  static __device__ __forceinline__ double hi() {
    return __longlong_as_double(0x7ff0000000000000LL);
  }
  static __device__ __forceinline__ double lo() {
    return __longlong_as_double((long long)0xfff0000000000000ULL);
  }
};

template <class T> __device__ __forceinline__ bool isnan_(T x) {
  if constexpr (is_fp<T>::value) return x != x;
  else return false;
}

/* (value, index) of argmin/argmax; a plain aggregate so it may live in __shared__ */
template <class T> struct vpair {
  T v;
  long long i;
};

/* ---- the kinds ------------------------------------------------------------------------ */
template <bool B, class X, class Y> struct sel { typedef X type; };
template <class X, class Y> struct sel<false, X, Y> { typedef Y type; };

/* sum/prod accumulate floats in their compute type, integers in unsigned 64-bit; integer
 * results are stored as int64, as uint64 for uint64 inputs (GPUX_RACC_WIDE; the same bits) */
template <class D> struct wide {
  typedef typename comp<D>::C C;
  static constexpr bool FP = is_fp<C>::value;
  static constexpr bool U64 = D::kind == K_UINT && sizeof(typename D::T) == 8;
  typedef typename sel<FP, C, u64>::type A;
  typedef typename sel<FP, C, typename sel<U64, u64, long long>::type>::type Out;
};

template <class D, class A_, class Out_> struct rk_base {
  typedef D Dt;
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  typedef A_ A;
  typedef Out_ Out;
  static __device__ __forceinline__ C val(T x) { return comp<D>::of(x); }
  /* Whether the bits depend on the order of combination: float arithmetic and float
   * min/max (+-0, NaN payloads). The other kinds (integers, bool, argmin/argmax: a unique
   * minimum of a total order) are exactly associative and commutative, so kernels may fold
   * them into fewer accumulators with the same result. */
  static constexpr bool ORDERED = is_fp<A_>::value;
  static constexpr bool ARG = false;    /* writes (value, index) */
  static constexpr bool IDX_IN = false; /* reads carried indices */
  static constexpr bool AUX = false;    /* reads the mean (ssd) */
  static constexpr bool ISUM = false;   /* an integer sum (exact in any order) */
};

template <class D>
struct rk_sum : rk_base<D, typename wide<D>::A, typename wide<D>::Out> {
  typedef typename D::T T;
  typedef typename wide<D>::A A;
  static constexpr bool ISUM = !is_fp<A>::value;
  static __device__ __forceinline__ A id() {
    if constexpr (is_fp<A>::value) return (A)-0.0;
    else return 0;
  }
  static __device__ __forceinline__ A conv(T x, long long, long long, typename comp<D>::C) {
    if constexpr (is_fp<A>::value) return comp<D>::of_arith(x);
    else return (A)x; /* modulo 2^64: sign- or zero-extends */
  }
  static __device__ __forceinline__ A comb(A a, A b) {
    if constexpr (is_fp<A>::value) return f_add(a, b);
    else return a + b;
  }
};

template <class D>
struct rk_prod : rk_base<D, typename wide<D>::A, typename wide<D>::Out> {
  typedef typename D::T T;
  typedef typename wide<D>::A A;
  static __device__ __forceinline__ A id() { return (A)1; }
  static __device__ __forceinline__ A conv(T x, long long, long long, typename comp<D>::C) {
    if constexpr (is_fp<A>::value) return comp<D>::of_arith(x);
    else return (A)x;
  }
  static __device__ __forceinline__ A comb(A a, A b) {
    if constexpr (is_fp<A>::value) return f_mul(a, b);
    else return a * b;
  }
};

/* min: a is NaN ? a : b is NaN ? b : (b < a ? b : a); max likewise with b > a */
template <class A> __device__ __forceinline__ A comb_min(A a, A b) {
  if constexpr (is_fp<A>::value) return isnan_(a) ? a : (isnan_(b) ? b : (b < a ? b : a));
  else return b < a ? b : a;
}
template <class A> __device__ __forceinline__ A comb_max(A a, A b) {
  if constexpr (is_fp<A>::value) return isnan_(a) ? a : (isnan_(b) ? b : (b > a ? b : a));
  else return b > a ? b : a;
}

template <class D> struct rk_min : rk_base<D, typename comp<D>::C, typename comp<D>::C> {
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  static __device__ __forceinline__ C id() { return lim<C>::hi(); }
  static __device__ __forceinline__ C conv(T x, long long, long long, C) { return comp<D>::of(x); }
  static __device__ __forceinline__ C comb(C a, C b) { return comb_min(a, b); }
};
template <class D> struct rk_max : rk_base<D, typename comp<D>::C, typename comp<D>::C> {
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  static __device__ __forceinline__ C id() { return lim<C>::lo(); }
  static __device__ __forceinline__ C conv(T x, long long, long long, C) { return comp<D>::of(x); }
  static __device__ __forceinline__ C comb(C a, C b) { return comb_max(a, b); }
};

/* argmin/argmax: a NaN value beats a non-NaN one; two NaNs or two equal values: the smaller
 * index; otherwise the smaller (MAX: larger) value. Identity (+inf / -inf or the integer
 * limit, INT64_MAX). */
template <class D, bool MAX, bool CARRY>
struct rk_arg : rk_base<D, vpair<typename comp<D>::C>, typename comp<D>::C> {
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  typedef vpair<C> A;
  static constexpr bool ARG = true;
  static constexpr bool IDX_IN = CARRY;
  static __device__ __forceinline__ A id() {
    A a;
    a.v = MAX ? lim<C>::lo() : lim<C>::hi();
    a.i = 0x7fffffffffffffffLL;
    return a;
  }
  static __device__ __forceinline__ A conv(T x, long long r, long long xi, C) {
    A a;
    a.v = comp<D>::of(x);
    a.i = CARRY ? xi : r;
    return a;
  }
  /* whether a (+) b is b (the same rule as comb), branch-free. I is the index type: a
   * kernel may compare 32-bit offsets whose order is the order of the full indices. */
  template <class I>
  static __device__ __forceinline__ bool take_b(C av, I ai, C bv, I bi) {
    const bool an = isnan_(av), bn = isnan_(bv), lt = bi < ai;
    const bool better = MAX ? bv > av : bv < av;
    /* b NaN, a not: b; both NaN or equal: the smaller index; neither NaN: the better */
    return (bn & !an) | ((an & bn) & lt) | (!(an | bn) & (better | ((bv == av) & lt)));
  }
  static __device__ __forceinline__ A comb(A a, A b) {
    const bool an = isnan_(a.v), bn = isnan_(b.v);
    if (an | bn) {
      if (an & bn) return b.i < a.i ? b : a;
      return an ? a : b;
    }
    if (b.v == a.v) return b.i < a.i ? b : a;
    if constexpr (MAX) return b.v > a.v ? b : a;
    else return b.v < a.v ? b : a;
  }
};
template <class D> struct rk_argmin : rk_arg<D, false, false> {};
template <class D> struct rk_argmax : rk_arg<D, true, false> {};
template <class D> struct rk_argmin_p : rk_arg<D, false, true> {};
template <class D> struct rk_argmax_p : rk_arg<D, true, true> {};

/* x != 0 of an input element, by value (halves: -0.0 is zero; NaN is nonzero); complex:
 * re != 0 || im != 0 */
template <class D> __device__ __forceinline__ bool nz(typename D::T x) {
  if constexpr (is_cplx<D>::value) return x.x != 0 || x.y != 0;
  else return comp<D>::of(x) != 0;
}

/* any/all: b8 accumulators; NaN counts as nonzero */
template <class D> struct rk_any : rk_base<D, unsigned char, unsigned char> {
  typedef typename D::T T;
  static __device__ __forceinline__ unsigned char id() { return 0; }
  static __device__ __forceinline__ unsigned char conv(T x, long long, long long,
                                                       typename comp<D>::C) {
    return nz<D>(x) ? 1 : 0; /* halves by value: -0.0 is zero */
  }
  static __device__ __forceinline__ unsigned char comb(unsigned char a, unsigned char b) {
    return a | b;
  }
};
template <class D> struct rk_all : rk_base<D, unsigned char, unsigned char> {
  typedef typename D::T T;
  static __device__ __forceinline__ unsigned char id() { return 1; }
  static __device__ __forceinline__ unsigned char conv(T x, long long, long long,
                                                       typename comp<D>::C) {
    return nz<D>(x) ? 1 : 0; /* halves by value: -0.0 is zero */
  }
  static __device__ __forceinline__ unsigned char comb(unsigned char a, unsigned char b) {
    return a & b;
  }
};
template <class D> struct rk_cnt : rk_base<D, u64, long long> {
  typedef typename D::T T;
  static __device__ __forceinline__ u64 id() { return 0; }
  static __device__ __forceinline__ u64 conv(T x, long long, long long, typename comp<D>::C) {
    return nz<D>(x) ? 1 : 0;
  }
  static __device__ __forceinline__ u64 comb(u64 a, u64 b) { return a + b; }
};

/* float-only kinds: asum (|x|), ssq (x*x), ssd ((x-m)*(x-m)), all summed; amax (max |x|) */
template <class D> struct rk_asum : rk_base<D, typename comp<D>::C, typename comp<D>::C> {
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  static __device__ __forceinline__ C id() { return (C)-0.0; }
  static __device__ __forceinline__ C conv(T x, long long, long long, C) {
    return f_abs(comp<D>::of(x));
  }
  static __device__ __forceinline__ C comb(C a, C b) { return f_add(a, b); }
};
template <class D> struct rk_ssq : rk_base<D, typename comp<D>::C, typename comp<D>::C> {
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  static __device__ __forceinline__ C id() { return (C)-0.0; }
  static __device__ __forceinline__ C conv(T x, long long, long long, C) {
    const C v = comp<D>::of(x);
    return f_mul(v, v);
  }
  static __device__ __forceinline__ C comb(C a, C b) { return f_add(a, b); }
};
template <class D> struct rk_ssd : rk_base<D, typename comp<D>::C, typename comp<D>::C> {
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  static constexpr bool AUX = true;
  static __device__ __forceinline__ C id() { return (C)-0.0; }
  static __device__ __forceinline__ C conv(T x, long long, long long, C m) {
    const C d = f_sub(comp<D>::of(x), m);
    return f_mul(d, d);
  }
  static __device__ __forceinline__ C comb(C a, C b) { return f_add(a, b); }
};
template <class D> struct rk_amax : rk_base<D, typename comp<D>::C, typename comp<D>::C> {
  typedef typename D::T T;
  typedef typename comp<D>::C C;
  static __device__ __forceinline__ C id() { return lim<C>::lo(); }
  static __device__ __forceinline__ C conv(T x, long long, long long, C) {
    return f_abs(comp<D>::of(x));
  }
  static __device__ __forceinline__ C comb(C a, C b) { return comb_max(a, b); }
};

/* ---- complex (complex64 / complex128: float2 / double2, .x the real part) --------------
 * Kinds of their own, reached by explicit specialization of rk_sum, rk_prod and rk_ssd for
 * d_c64 / d_c128, so the real dtypes' kinds (and kernels) are untouched. sum adds
 * componentwise; prod is the fixed formula (ar*br - ai*bi, ar*bi + ai*br), each product and
 * sum rounded on its own (no FMA), with an operand equal to (1, 0) (either zero) giving the
 * other operand unchanged; both are exact functions of the canonical order, so the bits
 * match every backend. ssd (var / std): |x - m|^2 = (re - mr)^2 + (im - mi)^2 summed
 * in the component's real type (the output), m the complex mean. */
__device__ __forceinline__ float2 c_add(float2 a, float2 b) {
  return make_float2(__fadd_rn(a.x, b.x), __fadd_rn(a.y, b.y));
}
__device__ __forceinline__ double2 c_add(double2 a, double2 b) {
  return make_double2(__dadd_rn(a.x, b.x), __dadd_rn(a.y, b.y));
}
/* the identity (1, 0) is exactly neutral (a formula product by it could turn an infinite
 * part into NaN, or flip a zero's sign), so variants that skip identities keep the bits */
__device__ __forceinline__ float2 c_mul(float2 a, float2 b) {
  if (b.x == 1.0f && b.y == 0.0f) return a;
  if (a.x == 1.0f && a.y == 0.0f) return b;
  return make_float2(__fsub_rn(__fmul_rn(a.x, b.x), __fmul_rn(a.y, b.y)),
                     __fadd_rn(__fmul_rn(a.x, b.y), __fmul_rn(a.y, b.x)));
}
__device__ __forceinline__ double2 c_mul(double2 a, double2 b) {
  if (b.x == 1.0 && b.y == 0.0) return a;
  if (a.x == 1.0 && a.y == 0.0) return b;
  return make_double2(__dsub_rn(__dmul_rn(a.x, b.x), __dmul_rn(a.y, b.y)),
                      __dadd_rn(__dmul_rn(a.x, b.y), __dmul_rn(a.y, b.x)));
}
/* whether an accumulator type is complex64's float2 (scan tile states pack it) */
template <class A> struct is_cplx_acc { static constexpr bool value = false; };
template <> struct is_cplx_acc<float2> { static constexpr bool value = true; };
static_assert(sizeof(float2) == 8, "complex64 accumulators are 8 bytes");
template <class D> struct rk_cbase {
  typedef D Dt;
  typedef typename D::T T;
  typedef typename D::T C; /* the mean of ssd */
  typedef typename D::T A;
  typedef typename D::T Out;
  static __device__ __forceinline__ C val(T x) { return x; }
  static constexpr bool ORDERED = true;
  static constexpr bool ARG = false, IDX_IN = false, AUX = false, ISUM = false;
};
template <class D> struct rk_csum : rk_cbase<D> {
  typedef typename D::T T;
  typedef typename comp<typename D::comp>::C R;
  static __device__ __forceinline__ T id() { T a; a.x = (R)-0.0; a.y = (R)-0.0; return a; }
  static __device__ __forceinline__ T conv(T x, long long, long long, T) { return x; }
  static __device__ __forceinline__ T comb(T a, T b) { return c_add(a, b); }
};
template <class D> struct rk_cprod : rk_cbase<D> {
  typedef typename D::T T;
  typedef typename comp<typename D::comp>::C R;
  static __device__ __forceinline__ T id() { T a; a.x = (R)1; a.y = (R)0; return a; }
  static __device__ __forceinline__ T conv(T x, long long, long long, T) { return x; }
  static __device__ __forceinline__ T comb(T a, T b) { return c_mul(a, b); }
};
template <class D> struct rk_cssd : rk_cbase<D> {
  typedef typename D::T T;
  typedef typename comp<typename D::comp>::C R;
  typedef R A;
  typedef R Out;
  static constexpr bool AUX = true;
  static __device__ __forceinline__ R id() { return (R)-0.0; }
  static __device__ __forceinline__ R conv(T x, long long, long long, T m) {
    const R dr = f_sub(x.x, m.x), di = f_sub(x.y, m.y);
    return f_add(f_mul(dr, dr), f_mul(di, di));
  }
  static __device__ __forceinline__ R comb(R a, R b) { return f_add(a, b); }
};
template <> struct rk_sum<d_c64> : rk_csum<d_c64> {};
template <> struct rk_sum<d_c128> : rk_csum<d_c128> {};
template <> struct rk_prod<d_c64> : rk_cprod<d_c64> {};
template <> struct rk_prod<d_c128> : rk_cprod<d_c128> {};
template <> struct rk_ssd<d_c64> : rk_cssd<d_c64> {};
template <> struct rk_ssd<d_c128> : rk_cssd<d_c128> {};

/* ---- warp shuffles of accumulators ---------------------------------------------------- */
template <class A> __device__ __forceinline__ A shfl_down(A v, unsigned s) {
  if constexpr (sizeof(A) < 4) return (A)__shfl_down_sync(FULL_MASK, (int)v, s);
  else return __shfl_down_sync(FULL_MASK, v, s);
}
template <class T> __device__ __forceinline__ vpair<T> shfl_down(vpair<T> a, unsigned s) {
  vpair<T> r;
  r.v = shfl_down(a.v, s);
  r.i = __shfl_down_sync(FULL_MASK, a.i, s);
  return r;
}
/* complex accumulators: a shuffle per component */
__device__ __forceinline__ float2 shfl_down(float2 a, unsigned s) {
  return make_float2(__shfl_down_sync(FULL_MASK, a.x, s), __shfl_down_sync(FULL_MASK, a.y, s));
}
__device__ __forceinline__ double2 shfl_down(double2 a, unsigned s) {
  return make_double2(__shfl_down_sync(FULL_MASK, a.x, s), __shfl_down_sync(FULL_MASK, a.y, s));
}
__device__ __forceinline__ float2 shfl_up(float2 a, unsigned s) {
  return make_float2(__shfl_up_sync(FULL_MASK, a.x, s), __shfl_up_sync(FULL_MASK, a.y, s));
}
__device__ __forceinline__ double2 shfl_up(double2 a, unsigned s) {
  return make_double2(__shfl_up_sync(FULL_MASK, a.x, s), __shfl_up_sync(FULL_MASK, a.y, s));
}
__device__ __forceinline__ float2 shfl_idx(float2 a, int lane) {
  return make_float2(__shfl_sync(FULL_MASK, a.x, lane), __shfl_sync(FULL_MASK, a.y, lane));
}
__device__ __forceinline__ double2 shfl_idx(double2 a, int lane) {
  return make_double2(__shfl_sync(FULL_MASK, a.x, lane), __shfl_sync(FULL_MASK, a.y, lane));
}
template <class A> __device__ __forceinline__ A shfl_up(A v, unsigned s) {
  if constexpr (sizeof(A) < 4) return (A)__shfl_up_sync(FULL_MASK, (int)v, s);
  else return __shfl_up_sync(FULL_MASK, v, s);
}
template <class A> __device__ __forceinline__ A shfl_idx(A v, int lane) {
  if constexpr (sizeof(A) < 4) return (A)__shfl_sync(FULL_MASK, (int)v, lane);
  else return __shfl_sync(FULL_MASK, v, lane);
}

/* ---- relaxed device-scope loads and stores (scan tile states) ------------------------- */
__device__ __forceinline__ u64 ld_relaxed(const u64 *p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ unsigned ld_relaxed(const unsigned *p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed(u64 *p, u64 v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void st_relaxed(unsigned *p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

/* ---- copies global -> shared in the background (sm_80+) ------------------------------- */
/* cp.async: the copy completes while the thread goes on; cp_async_wait_all() waits for this
 * thread's copies, a barrier after it shows them to the block. 16 bytes need 16-byte
 * aligned addresses on both sides; 4 bytes, 4-byte aligned ones. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ __forceinline__ void cp_async16(void *dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                   (unsigned)__cvta_generic_to_shared(dst)),
               "l"(src)
               : "memory");
}
__device__ __forceinline__ void cp_async4(void *dst, const void *src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(
                   (unsigned)__cvta_generic_to_shared(dst)),
               "l"(src)
               : "memory");
}
__device__ __forceinline__ void cp_async_wait_all() {
  asm volatile("cp.async.wait_all;" ::: "memory");
}
#endif

}  // namespace gpux_cu

#endif
