/* gpux CUDA kernels, index family: gather (take, take_along_axis) and put (put,
 * put_along_axis) by element size and index dtype. Names, parameters and the deferred error
 * word: "Gather and put" in kernels/common/gpux_kernels.h; kernels/cl/index.cl is the same
 * algorithm (the results are the same bits: these kernels only move elements).
 *
 * Launches (src/backend_cuda/cuda_index.c): blocks of GPUX_CU_IX_THREADS; one element per
 * thread, except take: GPUX_IX_TAKE_ITEMS elements per thread, strided by the block size
 * (coalesced; the index loads, then the gathers, are all in flight together). */
#include "gpux_kernels.h"

#define GPUX_CU_IX_THREADS 256
typedef long long i64;
typedef unsigned long long u64;

namespace gpux_ix {
template <int SZ> struct elem;
template <> struct elem<1> { typedef unsigned char T; };
template <> struct elem<2> { typedef unsigned short T; };
template <> struct elem<4> { typedef unsigned int T; };
template <> struct elem<8> { typedef unsigned long long T; };
template <> struct elem<16> { typedef ulonglong2 T; };

template <class T> __device__ __forceinline__ T zero() { return T(0); }
template <> __device__ __forceinline__ ulonglong2 zero<ulonglong2>() {
  return make_ulonglong2(0ULL, 0ULL);
}

__device__ __forceinline__ i64 resolve(i64 v, const gpux_ix_params &x) {
  const i64 n = x.len;
  return GPUX_IX_RESOLVE(v, n, x.mode);
}

/* a bad index at idx position pos: the key into err[0] when smaller (read first) */
__device__ __forceinline__ void record(i64 *err, const gpux_ix_params &x, i64 pos) {
  const i64 k = x.key | pos;
  if (*(volatile i64 *)err > k) atomicMin(err, k);
}

/* offsets of iteration i (row-major over p's shape) in the four stride sets */
template <class I>
__device__ __forceinline__ void nd_off(const gpux_nd_params &p, I i, i64 (&o)[4]) {
#pragma unroll
  for (int k = 0; k < 4; ++k) o[k] = p.offset[k];
#pragma unroll 1
  for (int d = (int)p.ndim - 1; d >= 0; --d) {
    const I s = (I)p.shape[d];
    const I q = i / s;
    const i64 c = (i64)(i - q * s);
    i = q;
#pragma unroll
    for (int k = 0; k < 4; ++k) o[k] += c * p.stride[k][d];
  }
}
__device__ __forceinline__ void nd_offsets(const gpux_nd_params &p, i64 i, i64 (&o)[4]) {
  if (p.n <= 0xffffffffLL) nd_off<unsigned>(p, (unsigned)i, o);
  else nd_off<i64>(p, i, o);
}

__device__ __forceinline__ i64 tid() {
  return (i64)blockIdx.x * GPUX_CU_IX_THREADS + threadIdx.x;
}

template <int SZ, class I>
__device__ __forceinline__ void gather(typename elem<SZ>::T *out, const typename elem<SZ>::T *src,
                                       const I *idx, i64 *err, const gpux_ix_params &x,
                                       const gpux_nd_params &p) {
  typedef typename elem<SZ>::T E;
  const i64 i = tid();
  if (i >= x.n) return;
  i64 o[4];
  nd_offsets(p, i, o);
  const i64 w = resolve((i64)idx[o[2]], x);
  E r = zero<E>();
  if (w >= 0) r = src[o[1] + w * x.astride];
  else record(err, x, o[3]);
  out[o[0]] = r;
}

template <int SZ, class I>
__device__ __forceinline__ void take(typename elem<SZ>::T *out, const typename elem<SZ>::T *src,
                                     const I *idx, i64 *err, const gpux_ix_params &x) {
  typedef typename elem<SZ>::T E;
  const i64 j0 = (i64)blockIdx.x * (GPUX_CU_IX_THREADS * GPUX_IX_TAKE_ITEMS) + threadIdx.x;
  /* every load of a kind issued before any result is used, none behind a test of the one
   * before (a load behind a branch on the previous one's value waits for it): the indices
   * (whole runs without bounds), then the gathers, a bad index's at the source's element 0
   * (len >= 1) and discarded */
  I v[GPUX_IX_TAKE_ITEMS];
  if (j0 + (i64)(GPUX_IX_TAKE_ITEMS - 1) * GPUX_CU_IX_THREADS < x.n) {
#pragma unroll
    for (int k = 0; k < GPUX_IX_TAKE_ITEMS; ++k)
      v[k] = __ldg(idx + x.off2 + j0 + (i64)k * GPUX_CU_IX_THREADS);
  } else {
#pragma unroll
    for (int k = 0; k < GPUX_IX_TAKE_ITEMS; ++k) {
      const i64 j = j0 + (i64)k * GPUX_CU_IX_THREADS;
      v[k] = j < x.n ? __ldg(idx + x.off2 + j) : (I)0;
    }
  }
  i64 w[GPUX_IX_TAKE_ITEMS];
#pragma unroll
  for (int k = 0; k < GPUX_IX_TAKE_ITEMS; ++k) w[k] = resolve((i64)v[k], x);
  E r[GPUX_IX_TAKE_ITEMS];
#pragma unroll
  for (int k = 0; k < GPUX_IX_TAKE_ITEMS; ++k)
    r[k] = __ldg(src + x.off1 + (w[k] >= 0 ? w[k] : 0) * x.astride);
#pragma unroll
  for (int k = 0; k < GPUX_IX_TAKE_ITEMS; ++k) {
    const i64 j = j0 + (i64)k * GPUX_CU_IX_THREADS;
    if (j < x.n) {
      if (w[k] < 0) {
        record(err, x, j);
        r[k] = zero<E>();
      }
      out[x.off0 + j] = r[k];
    }
  }
}

__device__ __forceinline__ void atomic_max_w(int *p, i64 v) { atomicMax(p, (int)v); }
__device__ __forceinline__ void atomic_max_w(i64 *p, i64 v) { atomicMax(p, v); }

template <class I, class W>
__device__ __forceinline__ void mark(W *win, const I *idx, i64 *err, const gpux_ix_params &x,
                                     const gpux_nd_params &p) {
  const i64 i = tid();
  if (i >= x.n) return;
  i64 o[4];
  nd_offsets(p, i, o);
  const i64 w = resolve((i64)idx[o[2]], x);
  if (w >= 0) atomic_max_w(win + (o[0] + w * x.astride - x.woff), i);
  else record(err, x, o[3]);
}

template <int SZ, class I, class W>
__device__ __forceinline__ void put(typename elem<SZ>::T *dst, const typename elem<SZ>::T *vals,
                                    const I *idx, const W *win, const gpux_ix_params &x,
                                    const gpux_nd_params &p) {
  const i64 i = tid();
  if (i >= x.n) return;
  i64 o[4];
  nd_offsets(p, i, o);
  const i64 w = resolve((i64)idx[o[2]], x);
  if (w < 0) return;
  const i64 d = o[0] + w * x.astride;
  if (win[d - x.woff] == (W)i) dst[d] = vals[x.vmod ? x.off1 + i % x.vmod : o[1]];
}

template <class I>
__device__ __forceinline__ void badval(const I *idx, i64 *err, i64 key, const gpux_nd_params &q) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const i64 e = err[0];
  if (e == GPUX_IX_NO_KEY || (e >> GPUX_IX_POS_BITS) != (key >> GPUX_IX_POS_BITS)) return;
  i64 pos = e & (((i64)1 << GPUX_IX_POS_BITS) - 1), off = q.offset[0];
  for (int d = (int)q.ndim - 1; d >= 0; --d) {
    const i64 sh = q.shape[d];
    off += (pos % sh) * q.stride[0][d];
    pos /= sh;
  }
  err[1] = (i64)idx[off];
}
}  // namespace gpux_ix

#define GPUX_CU_IX_KERNEL extern "C" __global__ void __launch_bounds__(GPUX_CU_IX_THREADS)
#define GPUX_CU_IX_I_i32 int
#define GPUX_CU_IX_I_i64 long long
#define GPUX_CU_IX_PUT(sz, it, wt)                                                          \
  GPUX_CU_IX_KERNEL gpux_index_put_##sz##_##it##_##wt(                                      \
      void *dst, const void *vals, const GPUX_CU_IX_I_##it *idx,                            \
      const GPUX_CU_IX_I_##wt *win, const gpux_ix_params x,                                 \
      const __grid_constant__ gpux_nd_params p) {                                           \
    typedef gpux_ix::elem<sz>::T E;                                                         \
    gpux_ix::put<sz>((E *)dst, (const E *)vals, idx, win, x, p);                            \
  }
#define GPUX_CU_IX_SZ(sz, it)                                                               \
  GPUX_CU_IX_KERNEL gpux_index_gather_##sz##_##it(void *out, const void *src,               \
                                                  const GPUX_CU_IX_I_##it *idx,             \
                                                  long long *err, const gpux_ix_params x,   \
                                                  const __grid_constant__ gpux_nd_params p) { \
    typedef gpux_ix::elem<sz>::T E;                                                         \
    gpux_ix::gather<sz>((E *)out, (const E *)src, idx, err, x, p);                          \
  }                                                                                         \
  GPUX_CU_IX_KERNEL gpux_index_take_##sz##_##it(void *out, const void *src,                 \
                                                const GPUX_CU_IX_I_##it *idx,               \
                                                long long *err, const gpux_ix_params x) {   \
    typedef gpux_ix::elem<sz>::T E;                                                         \
    gpux_ix::take<sz>((E *)out, (const E *)src, idx, err, x);                               \
  }                                                                                         \
  GPUX_CU_IX_PUT(sz, it, i32)                                                               \
  GPUX_CU_IX_PUT(sz, it, i64)
#define GPUX_CU_IX_MARK(it, wt)                                                             \
  GPUX_CU_IX_KERNEL gpux_index_mark_##it##_##wt(GPUX_CU_IX_I_##wt *win,                     \
                                                const GPUX_CU_IX_I_##it *idx,               \
                                                long long *err, const gpux_ix_params x,     \
                                                const __grid_constant__ gpux_nd_params p) { \
    gpux_ix::mark(win, idx, err, x, p);                                                     \
  }
#define GPUX_CU_IX_IT(it)                                                                   \
  GPUX_CU_IX_SZ(1, it)                                                                      \
  GPUX_CU_IX_SZ(2, it)                                                                      \
  GPUX_CU_IX_SZ(4, it)                                                                      \
  GPUX_CU_IX_SZ(8, it)                                                                      \
  GPUX_CU_IX_SZ(16, it)                                                                     \
  GPUX_CU_IX_MARK(it, i32)                                                                  \
  GPUX_CU_IX_MARK(it, i64)                                                                  \
  GPUX_CU_IX_KERNEL gpux_index_badval_##it(const GPUX_CU_IX_I_##it *idx, long long *err,    \
                                           long long key,                                   \
                                           const __grid_constant__ gpux_nd_params q) {      \
    gpux_ix::badval(idx, err, key, q);                                                      \
  }
GPUX_CU_IX_IT(i32)
GPUX_CU_IX_IT(i64)
