/* gpux CUDA kernels, scatter family: the same kernels, arguments (pointers already offset)
 * and arithmetic as kernels/cl/scatter.cl (kernels/common/gpux_scatter.h): scatter init /
 * apply / fin per value dtype, bincount with shared-memory counters, the bin search.
 *   gpux_scatter_init_<dt>(T *a, u64 *acc, i64 nt, int op)
 *   gpux_scatter_<dt>_<ix>(const T *v, const IX *idx, u64 *acc, i64 nv, i64 m, i64 post,
 *                          i64 n, i64 nt, int mode, int op)
 *   gpux_scatter_scan_<dt>(const T *v, i64 nv, u64 *acc)   (float dtypes: exact sums)
 *   gpux_scatter_fin_<dt>(T *a, u64 *acc, i64 nt, int op)
 *   gpux_bincount_<ix>(const IX *x, i64 n, i64 chunk, u64 *cnt, i64 nbins, u64 *err,
 *                      int priv)
 *       dynamic shared memory: nbins 32-bit counters when priv
 *   gpux_search_<dt>(const T *x, i64 n, const T *e, i64 ne, int mode, i64 *out)
 * One thread per element (init, apply, fin, search: grid-stride over the range). */
#include "gpux_cuda.cuh"
#include "gpux_scatter.h"

namespace gpux_cu {

/* classes: 0 float32 class, 1 float64, 2 integer in 32 bits, 3 integer in 64 bits */
template <class D> struct sc;
#define GPUX_SC_CU(dt, CLS, P, EB, SG)                                                     \
  template <> struct sc<d_##dt> {                                                          \
    static constexpr int cls = CLS, p = P, eb = EB, sg = SG;                               \
  };
GPUX_SC_CU(f32, 0, 24, 8, 1)
GPUX_SC_CU(f16, 0, 11, 5, 1)
GPUX_SC_CU(bf16, 0, 8, 8, 1)
GPUX_SC_CU(f64, 1, 53, 11, 1)
GPUX_SC_CU(i8, 2, 0, 0, 1)
GPUX_SC_CU(i16, 2, 0, 0, 1)
GPUX_SC_CU(i32, 2, 0, 0, 1)
GPUX_SC_CU(u8, 2, 0, 0, 0)
GPUX_SC_CU(u16, 2, 0, 0, 0)
GPUX_SC_CU(u32, 2, 0, 0, 0)
GPUX_SC_CU(i64, 3, 0, 0, 1)
GPUX_SC_CU(u64, 3, 0, 0, 0)
#undef GPUX_SC_CU

/* float32 bits of a float32-class value, and back */
template <class D> __device__ __forceinline__ unsigned to32(typename D::T x);
template <> __device__ __forceinline__ unsigned to32<d_f32>(float x) { return __float_as_uint(x); }
template <> __device__ __forceinline__ unsigned to32<d_f16>(unsigned short x) { return gpux_f16_to_f32(x); }
template <> __device__ __forceinline__ unsigned to32<d_bf16>(unsigned short x) { return gpux_bf16_to_f32(x); }
template <class D> __device__ __forceinline__ typename D::T from32(unsigned b);
template <> __device__ __forceinline__ float from32<d_f32>(unsigned b) { return __uint_as_float(b); }
template <> __device__ __forceinline__ unsigned short from32<d_f16>(unsigned b) { return gpux_f32_to_f16(b); }
template <> __device__ __forceinline__ unsigned short from32<d_bf16>(unsigned b) { return gpux_f32_to_bf16(b); }
template <class D> __device__ __forceinline__ typename D::T fromb(u64 b);
template <> __device__ __forceinline__ float fromb<d_f32>(u64 b) { return __uint_as_float((unsigned)b); }
template <> __device__ __forceinline__ unsigned short fromb<d_f16>(u64 b) { return (unsigned short)b; }
template <> __device__ __forceinline__ unsigned short fromb<d_bf16>(u64 b) { return (unsigned short)b; }

/* the flags a value sets (NaN, inf; NNZ for any value other than -0.0) */
__device__ __forceinline__ u64 term_flags(int cls, int neg) {
  return cls == 3 ? (u64)(GPUX_SC_NAN | GPUX_SC_NNZ)
         : cls == 2 ? (u64)((neg ? GPUX_SC_NINF : GPUX_SC_PINF) | GPUX_SC_NNZ)
         : (cls == 1 || !neg) ? (u64)GPUX_SC_NNZ : (u64)0;
}
/* two's complement: adding the negation as u64 is the signed addition */
__device__ __forceinline__ u64 sgn(u64 x, int neg) { return neg ? (u64)0 - x : x; }

/* init: a[t] into the zeroed words w[0..D) and flags w[D] (gpux_sc_dep0 of scatter.cl) */
__device__ __forceinline__ void dep0(u64 *w, u64 bits, int p, int eb, int L, int D) {
  int neg, s;
  u64 m;
  const int cls = gpux_sc_decompose(bits, p, eb, L, &neg, &m, &s);
  w[D] |= term_flags(cls, neg);
  if (cls != 1) return;
  u64 p0, p1, p2;
  gpux_sc_split(m, s & 31, &p0, &p1, &p2);
  const int d = s >> 5;
  w[d] += sgn(p0, neg);
  w[d + 1] += sgn(p1, neg);
  if (p2) w[d + 2] += sgn(p2, neg);
}

template <class D> __device__ __forceinline__ unsigned wimg(typename D::T x) {
  return sc<D>::sg ? (unsigned)(int)x ^ 0x80000000u : (unsigned)x;
}
template <class D> __device__ __forceinline__ u64 qimg(typename D::T x) {
  return sc<D>::sg ? (u64)x ^ 0x8000000000000000ull : (u64)x;
}

/* the exact sums' classes (0 float32, 1 float64): words, weight, format */
template <int C> struct xf;
template <> struct xf<0> {
  static constexpr int D = GPUX_SC_D_F32, L = GPUX_SC_L_F32, p = 24, eb = 8;
};
template <> struct xf<1> {
  static constexpr int D = GPUX_SC_D_F64, L = GPUX_SC_L_F64, p = 53, eb = 11;
};
/* a target's exact sum as the apply pass sees it: its window at wb (the float32 class's
 * byte window at bw, float64's words [dw, dw + W): gpux_scatter.h, THE WINDOW), its full
 * accumulator w (flags w[D]); negz: some a[t] is -0.0, so the terms set NNZ */
struct xs {
  u64 *win, *w;
  int wb;
  bool negz;
};
/* apply: a value's term into the window or (a spill) the full accumulator, atomically
 * (gpux_sc_dep_term of scatter.cl); the float32 class (C 0): one atomic in the byte window */
template <int C> __device__ __forceinline__ void dep_term(const xs &x, u64 bits) {
  typedef xf<C> X;
  int neg, s;
  u64 m;
  const int cls = gpux_sc_decompose(bits, X::p, X::eb, X::L, &neg, &m, &s);
  const u64 f = cls == 1 && !x.negz ? (u64)0 : term_flags(cls, neg);
  /* a racy read first: the bits only ever get set */
  if (f && (*(volatile u64 *)(x.w + X::D) & f) != f) atomicOr(x.w + X::D, f);
  if (cls != 1) return;
  if constexpr (C == 0) {
    u64 v;
    const int k = gpux_sc_bslot(m, s, neg, x.wb, &v);
    if (k >= 0) {
      atomicAdd(x.win + k, v);
      return;
    }
  }
  u64 p0, p1, p2;
  gpux_sc_split(m, s & 31, &p0, &p1, &p2);
  const int d = s >> 5;
  u64 *t = C != 0 && gpux_sc_in_window(d, p1, p2, x.wb) ? x.win + (d - x.wb) : x.w + d;
  if (p0) atomicAdd(t, sgn(p0, neg));
  if (p1) atomicAdd(t + 1, sgn(p1, neg));
  if (p2) atomicAdd(t + 2, sgn(p2, neg));
}

/* FIN: the full accumulator w (flags w[D]) and the window win at wb copied to private
 * words (gpux_sc_fold and gpux_sc_finish take private arrays), the window folded in,
 * rounded to the float (p, eb): its bits */
template <int C>
__device__ __forceinline__ u64 finish(const u64 *w, const u64 *win, int wb, int p, int eb) {
  typedef xf<C> X;
  i64 w_[X::D], win_[GPUX_SC_W];
  unsigned dig[X::D];
  for (int d = 0; d < X::D; d++) w_[d] = (i64)w[d];
  for (int k = 0; k < GPUX_SC_W; k++) win_[k] = (i64)win[k];
  gpux_sc_fold(w_, win_, wb, C == 0);
  return gpux_sc_finish(w_, dig, X::D, w[X::D], X::L, p, eb);
}

/* a value's bits (the float32 class: as float32) */
template <class D> __device__ __forceinline__ u64 xbits(typename D::T x) {
  if constexpr (sc<D>::cls == 0) return to32<D>(x);
  else return (u64)__double_as_longlong(x);
}
/* the layout after the header (gpux_scatter.h, THE WINDOW): nt windows, nt full
 * accumulators */
template <int C> __device__ __forceinline__ xs xs_at(u64 *body, i64 nt, i64 t, int wb, bool negz) {
  return xs{body + t * GPUX_SC_W, body + nt * GPUX_SC_W + t * (xf<C>::D + 1), wb, negz};
}
/* what every thread of apply / fin reads from the header once: the window's place and
 * whether the terms check NNZ */
struct xq {
  i64 nt;
  int wb;
  bool negz;
};
template <class D> __device__ __forceinline__ xq xq_of(const u64 *hdr, i64 nt, int op) {
  xq q{nt, 0, false};
  if constexpr (sc<D>::cls <= 1) {
    typedef xf<sc<D>::cls> X;
    if (op == GPUX_SC_ADD) {
      const u64 be = hdr[GPUX_SC_H_EXP];
      if constexpr (sc<D>::cls == 0) q.wb = gpux_sc_bwindow_base(be, X::p, X::eb, X::L);
      else q.wb = gpux_sc_window_base(be, X::p, X::eb, X::L, X::D);
      q.negz = hdr[GPUX_SC_H_NEGZ] != 0;
    }
  }
  return q;
}

/* acc: the accumulators after the header hdr */
template <class D>
__device__ __forceinline__ void init1(typename D::T *a, u64 *hdr, u64 *acc, i64 nt, i64 t, int op) {
  constexpr int C = sc<D>::cls;
  if constexpr (C <= 1) {
    if (op == GPUX_SC_ADD) {
      typedef xf<C> X;
      const xs x = xs_at<C>(acc, nt, t, 0, false);
      for (int d = 0; d <= X::D; d++) x.w[d] = 0;
      for (int d = 0; d < GPUX_SC_W; d++) x.win[d] = 0;
      const u64 b = xbits<D>(a[t]);
      dep0(x.w, b, X::p, X::eb, X::L, X::D);
      /* a[t] = -0.0: the terms must tell whether one of them is not -0.0 */
      if (b == (u64)1 << (X::p + X::eb - 1) && !*(volatile u64 *)(hdr + GPUX_SC_H_NEGZ))
        atomicOr(hdr + GPUX_SC_H_NEGZ, (u64)1);
    } else if constexpr (C == 0) {
      ((unsigned *)acc)[t] = gpux_sc_img_f32(to32<D>(a[t]), op);
    } else {
      acc[t] = gpux_sc_img_f64((u64)__double_as_longlong(a[t]), op);
    }
  } else if constexpr (C == 2) {
    ((unsigned *)acc)[t] = op == GPUX_SC_ADD ? (unsigned)(int)a[t] : wimg<D>(a[t]);
  } else {
    acc[t] = op == GPUX_SC_ADD ? (u64)a[t] : qimg<D>(a[t]);
  }
}

template <class D>
__device__ __forceinline__ void apply1(typename D::T x, u64 *acc, const xq &q, i64 t, int op) {
  constexpr int C = sc<D>::cls;
  if constexpr (C <= 1) {
    typedef xf<C> X;
    const u64 b = xbits<D>(x);
    if (op == GPUX_SC_ADD) dep_term<C>(xs_at<C>(acc, q.nt, t, q.wb, q.negz), b);
    else if constexpr (C == 0) {
      if (op == GPUX_SC_MAX) atomicMax((unsigned *)acc + t, gpux_sc_img_f32((unsigned)b, op));
      else atomicMin((unsigned *)acc + t, gpux_sc_img_f32((unsigned)b, op));
    } else {
      if (op == GPUX_SC_MAX) atomicMax(acc + t, gpux_sc_img_f64(b, op));
      else atomicMin(acc + t, gpux_sc_img_f64(b, op));
    }
  } else if constexpr (C == 2) {
    if (op == GPUX_SC_ADD) atomicAdd((unsigned *)acc + t, (unsigned)(int)x);
    else if (op == GPUX_SC_MAX) atomicMax((unsigned *)acc + t, wimg<D>(x));
    else atomicMin((unsigned *)acc + t, wimg<D>(x));
  } else {
    if (op == GPUX_SC_ADD) atomicAdd(acc + t, (u64)x);
    else if (op == GPUX_SC_MAX) atomicMax(acc + t, qimg<D>(x));
    else atomicMin(acc + t, qimg<D>(x));
  }
}

template <class D>
__device__ __forceinline__ void fin1(typename D::T *a, u64 *acc, const xq &q, i64 t, int op) {
  typedef typename D::T T;
  constexpr int C = sc<D>::cls;
  if constexpr (C <= 1) {
    if (op == GPUX_SC_ADD) {
      const xs x = xs_at<C>(acc, q.nt, t, q.wb, false);
      const u64 r = finish<C>(x.w, x.win, q.wb, sc<D>::p, sc<D>::eb);
      if constexpr (C == 0) a[t] = fromb<D>(r);
      else a[t] = __longlong_as_double((i64)r);
    } else if constexpr (C == 0) {
      a[t] = from32<D>(gpux_sc_unimg_f32(((const unsigned *)acc)[t]));
    } else {
      a[t] = __longlong_as_double((i64)gpux_sc_unimg_f64(acc[t]));
    }
  } else if constexpr (C == 2) {
    unsigned k = ((const unsigned *)acc)[t];
    if (op != GPUX_SC_ADD && sc<D>::sg) k ^= 0x80000000u;
    a[t] = (T)k; /* the low bits (C++20 modular conversion; nvcc wraps) */
  } else {
    u64 k = acc[t];
    if (op != GPUX_SC_ADD && sc<D>::sg) k ^= 0x8000000000000000ull;
    a[t] = (T)k;
  }
}

/* search keys: halves as float32 */
template <class D> __device__ __forceinline__ auto key(typename D::T x) {
  if constexpr (D::kind == K_F16 || D::kind == K_BF16) return __uint_as_float(to32<D>(x));
  else return x;
}

}  // namespace gpux_cu

#define GPUX_SC_GRID_LOOP(i, n) \
  for (gpux_cu::i64 i = (gpux_cu::i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (gpux_cu::i64)gridDim.x * blockDim.x)

/* GPUX_SC_UNROLL values a thread: their indices and values are loaded before the first
 * atomic (grid-stride over groups of blockDim.x * GPUX_SC_UNROLL values) */
#define GPUX_SC_APPLY_CU(dt, ix)                                                               \
  extern "C" __global__ void gpux_scatter_##dt##_##ix(                                         \
      const GPUX_CU_T(dt) *v, const GPUX_CU_T(ix) *idx, gpux_cu::u64 *acc, gpux_cu::i64 nv,    \
      gpux_cu::i64 m, gpux_cu::i64 post, gpux_cu::i64 n, gpux_cu::i64 nt, int mode, int op) {  \
    const gpux_cu::i64 step = (gpux_cu::i64)gridDim.x * blockDim.x * GPUX_SC_UNROLL;            \
    gpux_cu::u64 *const hdr = acc;                                                             \
    acc += GPUX_SC_HDR;                                                                        \
    const gpux_cu::xq xq = gpux_cu::xq_of<GPUX_CU_D(dt)>(hdr, nt, op);                         \
    const bool flat = post == 1 && m == nv;                                                    \
    for (gpux_cu::i64 e0 = (gpux_cu::i64)blockIdx.x * blockDim.x * GPUX_SC_UNROLL + threadIdx.x; \
         e0 < nv; e0 += step) {                                                                \
      gpux_cu::i64 t[GPUX_SC_UNROLL], k[GPUX_SC_UNROLL];                                       \
      GPUX_CU_T(dt) x[GPUX_SC_UNROLL] = {};                                                    \
      if (flat && e0 + (gpux_cu::i64)(GPUX_SC_UNROLL - 1) * blockDim.x < nv) {                 \
        /* a whole flat run: every load issued before any is used (each behind its own       \
         * test, they went one at a time) */                                                   \
        _Pragma("unroll") for (int u = 0; u < GPUX_SC_UNROLL; ++u) {                           \
          const gpux_cu::i64 e = e0 + (gpux_cu::i64)u * blockDim.x;                            \
          t[u] = 0;                                                                            \
          k[u] = (gpux_cu::i64)idx[e];                                                         \
          x[u] = v[e];                                                                         \
        }                                                                                      \
      } else {                                                                                 \
        _Pragma("unroll") for (int u = 0; u < GPUX_SC_UNROLL; ++u) {                           \
          const gpux_cu::i64 e = e0 + (gpux_cu::i64)u * blockDim.x;                            \
          k[u] = -1;                                                                           \
          t[u] = 0;                                                                            \
          if (e >= nv) continue;                                                               \
          gpux_cu::i64 j = e;                                                                  \
          if (!flat) {                                                                         \
            const gpux_cu::i64 q = e % post, r = e / post;                                     \
            j = r % m;                                                                         \
            t[u] = (r / m) * n * post + q;                                                     \
          }                                                                                    \
          k[u] = (gpux_cu::i64)idx[j];                                                         \
          x[u] = v[e];                                                                         \
        }                                                                                      \
      }                                                                                        \
      _Pragma("unroll") for (int u = 0; u < GPUX_SC_UNROLL; ++u) {                             \
        if (e0 + (gpux_cu::i64)u * blockDim.x >= nv) continue;                                 \
        const gpux_cu::i64 kk = gpux_sc_norm(k[u], n, mode);                                   \
        if (kk < 0) { /* checked: the first bad position of idx, ~j's maximum */               \
          const gpux_cu::i64 e = e0 + (gpux_cu::i64)u * blockDim.x;                            \
          if (mode == GPUX_SC_CHECKED)                                                         \
            atomicMax(hdr + GPUX_SC_H_ERR, ~(gpux_cu::u64)(flat ? e : (e / post) % m));        \
          continue;                                                                            \
        }                                                                                      \
        gpux_cu::apply1<GPUX_CU_D(dt)>(x[u], acc, xq, t[u] + kk * post, op);                   \
      }                                                                                        \
    }                                                                                          \
  }

#define GPUX_SC_KERNELS_CU(a_, dt)                                                             \
  extern "C" __global__ void gpux_scatter_init_##dt(GPUX_CU_T(dt) *a, gpux_cu::u64 *acc,       \
                                                   gpux_cu::i64 nt, int op) {                  \
    GPUX_SC_GRID_LOOP(t, nt) gpux_cu::init1<GPUX_CU_D(dt)>(a, acc, acc + GPUX_SC_HDR, nt, t, op); \
  }                                                                                            \
  extern "C" __global__ void gpux_scatter_fin_##dt(GPUX_CU_T(dt) *a, gpux_cu::u64 *acc,        \
                                                  gpux_cu::i64 nt, int op) {                   \
    if (acc[GPUX_SC_H_ERR]) return; /* a bad index: a stays as it was */                     \
    const gpux_cu::xq xq = gpux_cu::xq_of<GPUX_CU_D(dt)>(acc, nt, op);                         \
    GPUX_SC_GRID_LOOP(t, nt) gpux_cu::fin1<GPUX_CU_D(dt)>(a, acc + GPUX_SC_HDR, xq, t, op);    \
  }                                                                                            \
  GPUX_SC_APPLY_CU(dt, i32)                                                                    \
  GPUX_SC_APPLY_CU(dt, i64)                                                                    \
  extern "C" __global__ void gpux_search_##dt(const GPUX_CU_T(dt) *x, gpux_cu::i64 n,          \
                                             const GPUX_CU_T(dt) *e, gpux_cu::i64 ne,          \
                                             int mode, gpux_cu::i64 *out) {                    \
    GPUX_SC_GRID_LOOP(i, n) {                                                                  \
      const auto v = gpux_cu::key<GPUX_CU_D(dt)>(x[i]);                                        \
      gpux_cu::i64 r;                                                                          \
      if (v != v)                                                                              \
        r = mode == GPUX_SC_HIST ? -1 : mode <= GPUX_SC_DIG_R ? ne : 0;                        \
      else {                                                                                   \
        gpux_cu::i64 lo = 0, hi = ne;                                                          \
        while (lo < hi) {                                                                      \
          const gpux_cu::i64 mid = (lo + hi) >> 1;                                             \
          const auto em = gpux_cu::key<GPUX_CU_D(dt)>(e[mid]);                                 \
          const bool in = mode == GPUX_SC_DIG_R    ? em < v                                    \
                          : mode == GPUX_SC_DIG_DL ? em > v                                    \
                          : mode == GPUX_SC_DIG_DR ? em >= v                                   \
                                                   : em <= v;                                  \
          if (in) lo = mid + 1;                                                                \
          else hi = mid;                                                                       \
        }                                                                                      \
        r = lo;                                                                                \
        if (mode == GPUX_SC_HIST) {                                                            \
          if (r == 0) r = -1;                                                                  \
          else if (r == ne) r = v == gpux_cu::key<GPUX_CU_D(dt)>(e[ne - 1]) ? ne - 2 : -1;     \
          else r -= 1;                                                                         \
        }                                                                                      \
      }                                                                                        \
      out[i] = r;                                                                              \
    }                                                                                          \
  }
GPUX_SCAT_DT(GPUX_SC_KERNELS_CU, _)

/* the exact sums' scan: the largest biased exponent among the values into the header
 * (gpux_scatter.h, THE WINDOW): a maximum per warp, one atomic per warp at most */
#define GPUX_SC_SCAN_CU(a_, dt)                                                                \
  extern "C" __global__ void gpux_scatter_scan_##dt(const GPUX_CU_T(dt) *v, gpux_cu::i64 nv,   \
                                                   gpux_cu::u64 *acc) {                        \
    typedef gpux_cu::xf<gpux_cu::sc<GPUX_CU_D(dt)>::cls> X;                                    \
    gpux_cu::u64 mx = 0;                                                                       \
    GPUX_SC_GRID_LOOP(i, nv) {                                                                 \
      const gpux_cu::u64 be = gpux_sc_bexp(gpux_cu::xbits<GPUX_CU_D(dt)>(v[i]), X::p, X::eb);  \
      mx = be > mx ? be : mx;                                                                  \
    }                                                                                          \
    for (int o = 16; o; o >>= 1) {                                                             \
      const gpux_cu::u64 y = __shfl_xor_sync(0xffffffffu, mx, o);                              \
      mx = y > mx ? y : mx;                                                                    \
    }                                                                                          \
    if ((threadIdx.x & 31) == 0 && mx > *(volatile gpux_cu::u64 *)(acc + GPUX_SC_H_EXP))      \
      atomicMax(acc + GPUX_SC_H_EXP, mx);                                                      \
  }
GPUX_SCAT_FDT(GPUX_SC_SCAN_CU, _)

/* bincount: block g counts x[g * chunk, ...) in shared counters (priv) or global ones; err
 * (or NULL): the maximum of ~i over the positions i of values outside [0, nbins) */
#define GPUX_SC_BINCOUNT_CU(a_, ix)                                                            \
  extern "C" __global__ void gpux_bincount_##ix(const GPUX_CU_T(ix) *x, gpux_cu::i64 n,        \
                                               gpux_cu::i64 chunk, gpux_cu::u64 *cnt,          \
                                               gpux_cu::i64 nbins, gpux_cu::u64 *err,          \
                                               int priv) {                                     \
    extern __shared__ unsigned gpux_sc_h[];                                                    \
    const gpux_cu::i64 lo = (gpux_cu::i64)blockIdx.x * chunk;                                  \
    const gpux_cu::i64 hi = lo + chunk < n ? lo + chunk : n;                                   \
    if (priv) {                                                                                \
      for (gpux_cu::i64 b = threadIdx.x; b < nbins; b += blockDim.x) gpux_sc_h[b] = 0;         \
      __syncthreads();                                                                         \
    }                                                                                          \
    for (gpux_cu::i64 i0 = lo + threadIdx.x; i0 < hi; i0 += (gpux_cu::i64)blockDim.x * GPUX_SC_UNROLL) { \
      gpux_cu::i64 k[GPUX_SC_UNROLL];                                                          \
      /* a whole run's loads without bounds (each behind its own test, they went one at a     \
       * time) */                                                                              \
      if (i0 + (gpux_cu::i64)(GPUX_SC_UNROLL - 1) * blockDim.x < hi) {                         \
        _Pragma("unroll") for (int u = 0; u < GPUX_SC_UNROLL; ++u)                             \
          k[u] = (gpux_cu::i64)x[i0 + (gpux_cu::i64)u * blockDim.x];                           \
      } else {                                                                                 \
        _Pragma("unroll") for (int u = 0; u < GPUX_SC_UNROLL; ++u) {                           \
          const gpux_cu::i64 i = i0 + (gpux_cu::i64)u * blockDim.x;                            \
          k[u] = i < hi ? (gpux_cu::i64)x[i] : -1;                                             \
        }                                                                                      \
      }                                                                                        \
      _Pragma("unroll") for (int u = 0; u < GPUX_SC_UNROLL; ++u) {                             \
        if (k[u] < 0 || k[u] >= nbins) {                                                       \
          const gpux_cu::i64 i = i0 + (gpux_cu::i64)u * blockDim.x; /* -1 pads past hi */     \
          if (err && i < hi) atomicMax(err, ~(gpux_cu::u64)i);                                 \
          continue;                                                                            \
        }                                                                                      \
        if (priv) atomicAdd(gpux_sc_h + k[u], 1u);                                             \
        else atomicAdd(cnt + k[u], (gpux_cu::u64)1);                                           \
      }                                                                                        \
    }                                                                                          \
    if (priv) {                                                                                \
      __syncthreads();                                                                         \
      for (gpux_cu::i64 b = threadIdx.x; b < nbins; b += blockDim.x) {                         \
        const unsigned c = gpux_sc_h[b];                                                       \
        if (c) atomicAdd(cnt + b, (gpux_cu::u64)c);                                            \
      }                                                                                        \
    }                                                                                          \
  }
GPUX_SCAT_IX(GPUX_SC_BINCOUNT_CU, _)
