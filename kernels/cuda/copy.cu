/* gpux CUDA kernels, copy family: casts (layouts c, n), n-d copies by element size, the
 * tiled transposing copy, fill, arange and linspace. Generated from gpux_kernels.h lists.
 *
 * Signatures (F, T = the dtypes' types):
 *   gpux_cast_<from>_<to>_c(T *out, const F *a, long long n)
 *   gpux_cast_<from>_<to>_n(T *out, const F *a, gpux_nd_params p)
 *   gpux_copy_n_<bytes>(void *out, const void *in, gpux_nd_params p)
 *   gpux_copy_t_<bytes>(void *out, const void *in, gpux_nd_params p)
 *   gpux_fill_<dt>(T *out, T value, long long n)         (GPUX_DT_CAST: complex too)
 *   gpux_arange_<dt>(T *out, double start, double step, long long n)
 *   gpux_linspace_<dt>(T *out, double start, double step, double stop, long long n)
 *                                                         (arange, linspace: GPUX_DT_STORAGE)
 * Layout c pointers are already offset; n-d pointers are bases and p.offset[k] applies
 * (operand 0 out, 1 in). fill/arange/linspace: out already offset, contiguous. */
#include "gpux_cuda.cuh"
#include "gpux_half.h" /* gpux_f32_to_f16, ...: the conversions */

namespace gpux_cu {

/* ---- float16 / bfloat16 ----------------------------------------------------------------
 * Stored as unsigned short bit patterns. Every conversion is integer bit work
 * (kernels/common/gpux_half.h, shared with kernels/cl/copy.cl and the core), so the results
 * are the same bits as OpenCL and tests/ref (rules in gpux_kernels.h), whatever the
 * hardware's conversion instructions do with NaN payloads. */
/* (their dtype tags, d_f16 and d_bf16, and their vectors: gpux_cuda.cuh) */

template <class D> __device__ __forceinline__ unsigned h_to_f32(unsigned short h) {
  if constexpr (D::kind == K_F16) return gpux_f16_to_f32(h);
  else return gpux_bf16_to_f32(h);
}
/* a value of a compute dtype -> half dtype DT */
template <class DF, class DT> __device__ __forceinline__ unsigned short to_half(typename DF::T x) {
  constexpr bool F16 = DT::kind == K_F16;
  if constexpr (DF::kind == K_BOOL) {
    return (unsigned short)(x != 0 ? (F16 ? 0x3c00u : 0x3f80u) : 0u);
  } else if constexpr (is_fp<typename DF::T>::value && sizeof(typename DF::T) == 8) {
    if constexpr (F16) return gpux_f64_to_f16((u64)__double_as_longlong(x));
    else return gpux_f64_to_bf16((u64)__double_as_longlong(x));
  } else if constexpr (is_fp<typename DF::T>::value) {
    if constexpr (F16) return gpux_f32_to_f16(__float_as_uint(x));
    else return gpux_f32_to_bf16(__float_as_uint(x));
  } else if constexpr (F16 || sizeof(typename DF::T) <= 2) {
    /* integers -> f16: exact in float up to 2^24, and anything larger is inf in f16;
     * 8- and 16-bit integers -> bf16: exact in float */
    const float f = (float)x; /* round to nearest */
    if constexpr (F16) return gpux_f32_to_f16(__float_as_uint(f));
    else return gpux_f32_to_bf16(__float_as_uint(f));
  } else if constexpr (DF::kind == K_UINT && sizeof(typename DF::T) == 8) {
    return gpux_u64_to_bf16(x); /* one rounding, as below */
  } else {
    return gpux_i64_to_bf16((long long)x); /* int32, uint32, int64: exact in int64 */
  }
}

template <class D> __device__ __forceinline__ typename D::T make_cplx(typename D::comp::T re,
                                                                     typename D::comp::T im) {
  typename D::T c;
  c.x = re;
  c.y = im;
  return c;
}

/* every cast: the rules of gpux_kernels.h */
template <class DF, class DT> __device__ __forceinline__ typename DT::T xcast(typename DF::T x) {
  if constexpr (is_cplx<DF>::value && is_cplx<DT>::value) { /* component by component */
    typedef typename DF::comp CF;
    typedef typename DT::comp CT;
    return make_cplx<DT>(xcast<CF, CT>(x.x), xcast<CF, CT>(x.y));
  } else if constexpr (is_cplx<DT>::value) { /* (the cast to the component dtype, +0.0) */
    return make_cplx<DT>(xcast<DF, typename DT::comp>(x), (typename DT::comp::T)0);
  } else if constexpr (is_cplx<DF>::value) {
    if constexpr (DT::kind == K_BOOL) /* NaN counts, -0.0 does not */
      return (typename DT::T)(x.x != 0 || x.y != 0);
    else return xcast<typename DF::comp, DT>(x.x); /* the real part */
  } else if constexpr (is_half<DF>::value && is_half<DT>::value) {
    if constexpr (DF::kind == DT::kind) return x;
    else if constexpr (DT::kind == K_F16) return gpux_f32_to_f16(gpux_bf16_to_f32(x));
    else return gpux_f32_to_bf16(gpux_f16_to_f32(x));
  } else if constexpr (is_half<DT>::value) {
    return to_half<DF, DT>(x);
  } else if constexpr (is_half<DF>::value) {
    if constexpr (DT::kind == K_BOOL) {
      return (typename DT::T)((x & 0x7fffu) != 0);
    } else if constexpr (is_fp<typename DT::T>::value && sizeof(typename DT::T) == 8) {
      return __longlong_as_double((long long)gpux_f32b_to_f64b(h_to_f32<DF>(x)));
    } else {
      return cast<d_f32, DT>(__uint_as_float(h_to_f32<DF>(x)));
    }
  } else {
    return cast<DF, DT>(x);
  }
}

template <class DF, class DT> struct cast_f {
  __device__ __forceinline__ typename DT::T operator()(typename DF::T x, u64) const {
    return xcast<DF, DT>(x);
  }
};
template <class T> struct id_f {
  __device__ __forceinline__ T operator()(T x, u64) const { return x; }
};
template <class T> struct fill_f {
  T v;
  __device__ __forceinline__ T operator()(u64) const { return v; }
};
/* start + i * step in float64, rounded per operation (no contraction into an fma, so the
 * CPU reference matches), then converted as casts convert */
template <class D> struct arange_f {
  double start, step;
  __device__ __forceinline__ typename D::T operator()(u64 e) const {
    return xcast<d_f64, D>(__dadd_rn(start, __dmul_rn((double)e, step)));
  }
};
/* element n - 1 is stop exactly; n == 1 gives start (last = ~0: never) */
template <class D> struct linspace_f {
  double start, step, stop;
  u64 last;
  __device__ __forceinline__ typename D::T operator()(u64 e) const {
    const double v = e == last ? stop : __dadd_rn(start, __dmul_rn((double)e, step));
    return xcast<d_f64, D>(v);
  }
};

template <int B> struct utype;
template <> struct utype<1> { typedef unsigned char type; };
template <> struct utype<2> { typedef unsigned short type; };
template <> struct utype<4> { typedef unsigned int type; };
template <> struct utype<8> { typedef unsigned long long type; };
template <> struct utype<16> { typedef ulonglong2 type; }; /* complex128 */

/* Tiled copy for transposing layouts. Dim td = p.tile_dim has stride 1 in the input
 * (operand 1); dim L = ndim - 1 is the output's last dim. A block (TILE x TILE_ROWS
 * threads) moves TILE x TILE tiles of the (td, L) plane: it reads with threadIdx.x along
 * td (coalesced input), writes with threadIdx.x along L (coalesced output), through padded
 * shared tiles. Each pass takes GPUX_CU_COPY_T_TILES consecutive tiles (tile index =
 * row-major over (td tile, L tile)), all their loads issued before the first barrier.
 * Every other dim is a batch dim: batch index = blockIdx.y + gridDim.y * blockIdx.z,
 * decomposed row-major over those dims. Tiles and batches loop with the grid's strides,
 * so any grid is correct (the host launches ceil(tiles / GPUX_CU_COPY_T_TILES) x batch
 * blocks); ragged edges are guarded. */
#ifndef GPUX_CU_COPY_T_TILES
#define GPUX_CU_COPY_T_TILES 2
#endif
template <class T> __device__ __forceinline__ void copy_t(T *out, const T *in,
                                                          const gpux_nd_params &p) {
  constexpr int TILE = GPUX_COPY_TILE, ROWS = GPUX_COPY_TILE_ROWS, K = GPUX_CU_COPY_T_TILES;
  __shared__ T tile[K][TILE][TILE + 1];
  const int nd = (int)p.ndim;
  const int td = (int)p.tile_dim;
  const int L = nd - 1;
  const i64 st = p.shape[td], sl = p.shape[L];
  const i64 si_t = p.stride[1][td], si_l = p.stride[1][L];
  const i64 so_t = p.stride[0][td], so_l = p.stride[0][L];
  u64 nb = 1; /* batch count */
#pragma unroll 1
  for (int d = 0; d < nd; ++d)
    if (d != td && d != L) nb *= (u64)p.shape[d];
  const u64 tiles_l = ((u64)sl + TILE - 1) / TILE;
  const u64 ntiles = tiles_l * (((u64)st + TILE - 1) / TILE);
  const bool small = ntiles <= 0xffffffffULL; /* uniform: 32-bit tile arithmetic */
  const int tx = threadIdx.x, ty = threadIdx.y;

  for (u64 b = blockIdx.y + (u64)gridDim.y * blockIdx.z; b < nb;
       b += (u64)gridDim.y * gridDim.z) {
    /* batch offsets: walk the batch dims innermost first */
    i64 bi = p.offset[1], bo = p.offset[0];
    u64 r = b;
#pragma unroll 1
    for (int d = nd - 1; d >= 0; --d) {
      if (d != td && d != L) {
        const u64 s = (u64)p.shape[d];
        const u64 q = r / s;
        const i64 c = (i64)(r - q * s);
        r = q;
        bi += c * p.stride[1][d];
        bo += c * p.stride[0][d];
      }
    }
    for (u64 t0 = (u64)blockIdx.x * K; t0 < ntiles; t0 += (u64)gridDim.x * K) {
      i64 l0[K], d0[K];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const u64 t = t0 + k;
        u64 tt;
        if (small) tt = (unsigned)t / (unsigned)tiles_l;
        else tt = t / tiles_l;
        l0[k] = (i64)(t - tt * tiles_l) * TILE;
        d0[k] = (i64)tt * TILE;
        if (t < ntiles) {
          const i64 it = d0[k] + tx;
#pragma unroll
          for (int j = 0; j < TILE; j += ROWS) {
            const i64 il = l0[k] + ty + j;
            if (it < st && il < sl) tile[k][ty + j][tx] = in[bi + it * si_t + il * si_l];
          }
        }
      }
      __syncthreads();
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (t0 + k < ntiles) {
          const i64 il = l0[k] + tx;
#pragma unroll
          for (int j = 0; j < TILE; j += ROWS) {
            const i64 it = d0[k] + ty + j;
            if (it < st && il < sl) out[bo + it * so_t + il * so_l] = tile[k][tx][ty + j];
          }
        }
      }
      __syncthreads(); /* the tiles are reused by the next pass */
    }
  }
}

}  // namespace gpux_cu

#define GPUX_CU_KERNEL extern "C" __global__ void __launch_bounds__(GPUX_CU_BLOCK)
#define GPUX_CU_NULL ((const char *)0)

/* ---- casts: every (from, to) pair of GPUX_DT_CAST ------------------------------------ */
#define GPUX_CU_CAST_KERNELS(from, to)                                                  \
  GPUX_CU_KERNEL gpux_cast_##from##_##to##_c(GPUX_CU_T(to) *out,                        \
                                             const GPUX_CU_T(from) *a, long long n) {   \
    gpux_cu::map_c<1, false>(gpux_cu::cast_f<GPUX_CU_D(from), GPUX_CU_D(to)>(), out, a, \
                             GPUX_CU_NULL, GPUX_CU_NULL, n);                            \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_cast_##from##_##to##_n(GPUX_CU_T(to) *out,                        \
                                             const GPUX_CU_T(from) *a,                  \
                                             const __grid_constant__ gpux_nd_params p) { \
    gpux_cu::map_n<1>(gpux_cu::cast_f<GPUX_CU_D(from), GPUX_CU_D(to)>(), out, a,        \
                      GPUX_CU_NULL, GPUX_CU_NULL, p);                                   \
  }
/* The inner list is reached through a deferred name, so it expands after the outer one
 * has finished (a macro cannot expand inside its own expansion). */
#define GPUX_CU_DT_CAST_INDIRECT() GPUX_DT_CAST
#define GPUX_CU_CAST_TO(from, to) GPUX_CU_CAST_KERNELS(from, to)
#define GPUX_CU_CAST_FROM(unused, from)                                                 \
  GPUX_CU_DT_CAST_INDIRECT GPUX_CU_EMPTY()()(GPUX_CU_CAST_TO, from)
GPUX_CU_EXPAND(GPUX_DT_CAST(GPUX_CU_CAST_FROM, _))

/* ---- copies by element size ----------------------------------------------------------- */
#define GPUX_CU_COPY_KERNELS(bytes)                                                     \
  GPUX_CU_KERNEL gpux_copy_n_##bytes(void *out, const void *in,                         \
                                     const __grid_constant__ gpux_nd_params p) {        \
    typedef gpux_cu::utype<bytes>::type U;                                              \
    gpux_cu::map_n<1>(gpux_cu::id_f<U>(), (U *)out, (const U *)in, GPUX_CU_NULL,        \
                      GPUX_CU_NULL, p);                                                 \
  }                                                                                     \
  extern "C" __global__ void __launch_bounds__(GPUX_COPY_TILE * GPUX_COPY_TILE_ROWS)    \
      gpux_copy_t_##bytes(void *out, const void *in,                                    \
                          const __grid_constant__ gpux_nd_params p) {                   \
    typedef gpux_cu::utype<bytes>::type U;                                              \
    gpux_cu::copy_t<U>((U *)out, (const U *)in, p);                                     \
  }
GPUX_ELEM_SIZES(GPUX_CU_COPY_KERNELS)

/* ---- generators ----------------------------------------------------------------------- */
namespace gpux_cu {
/* fill's value as stored (bool: 0 or 1) */
template <class D> __device__ __forceinline__ typename D::T fill_value(typename D::T v) {
  if constexpr (D::kind == K_BOOL) return (typename D::T)(v != 0);
  else return v;
}
}  // namespace gpux_cu
#define GPUX_CU_FILL_KERNEL(unused, dt)                                                 \
  GPUX_CU_KERNEL gpux_fill_##dt(GPUX_CU_T(dt) *out, GPUX_CU_T(dt) value, long long n) { \
    const GPUX_CU_T(dt) v = gpux_cu::fill_value<GPUX_CU_D(dt)>(value);                  \
    gpux_cu::map_c<0, false>(gpux_cu::fill_f<GPUX_CU_T(dt)>{v}, out, GPUX_CU_NULL,      \
                             GPUX_CU_NULL, GPUX_CU_NULL, n);                            \
  }
GPUX_DT_CAST(GPUX_CU_FILL_KERNEL, _)
#define GPUX_CU_GEN_KERNELS(unused, dt)                                                 \
  GPUX_CU_KERNEL gpux_arange_##dt(GPUX_CU_T(dt) *out, double start, double step,        \
                                  long long n) {                                        \
    gpux_cu::map_c<0, false>(gpux_cu::arange_f<GPUX_CU_D(dt)>{start, step}, out,        \
                             GPUX_CU_NULL, GPUX_CU_NULL, GPUX_CU_NULL, n);              \
  }                                                                                     \
  GPUX_CU_KERNEL gpux_linspace_##dt(GPUX_CU_T(dt) *out, double start, double step,      \
                                    double stop, long long n) {                         \
    const gpux_cu::u64 last = n > 1 ? (gpux_cu::u64)n - 1 : ~0ULL;                      \
    gpux_cu::map_c<0, false>(gpux_cu::linspace_f<GPUX_CU_D(dt)>{start, step, stop, last}, \
                             out, GPUX_CU_NULL, GPUX_CU_NULL, GPUX_CU_NULL, n);         \
  }
GPUX_DT_STORAGE(GPUX_CU_GEN_KERNELS, _)
