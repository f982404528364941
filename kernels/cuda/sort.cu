/* gpux CUDA kernels, sort family (gpux_kernels.h "Sort", the steps in src/api/gpux_backend.h
 * gpux__sort_pass, THE ORDER and the images in gpux_sort.h). The algorithm of
 * kernels/cl/sort.cl, step for step (a stable sort has one right answer, so the two sets
 * agree whatever they run; keeping them alike keeps them easy to check):
 *
 *   gpux_sort_img_<dt>(const K *keys, I *img, unsigned *pos, unsigned *bits, i64 n,
 *                      i64 len, unsigned flags)
 *   gpux_sort_out_<dt>(const I *img, K *keys, i64 n, unsigned flags)
 *   gpux_sort_hist_<W>(const I *img, int *counts, i64 len, i64 ntiles, int shift,
 *                      i64 ngroups)
 *   gpux_sort_scatter_<W>(const I *img, const unsigned *pos, const i64 *offs, I *img_out,
 *                         unsigned *pos_out, i64 len, i64 ntiles, int shift, i64 ngroups)
 *   gpux_sort_local_<W>(const I *img, const unsigned *pos, I *img_out, unsigned *pos_out,
 *                       i64 len, i64 ngroups)
 *   gpux_sort_widen(const unsigned *pos, i64 *out, i64 n)
 * Keys-only sorts carry no positions: pos and pos_out are NULL then (equal images are equal
 * bits there, so nothing needs a tie-break).
 * K: the key's unsigned type of w bits; I: unsigned (W 32) or unsigned long long (W 64);
 * pointers already offset. Blocks of GPUX_SORT_THREADS (256); the elementwise kernels loop
 * with a stride of the grid, the tiled ones over their ngroups groups (row g / ntiles, tile
 * g % ntiles; local: row g) with a stride of gridDim.x.
 *
 * scatter's stable ranking: thread j holds keys 4j .. 4j+3 of the tile (padded past the
 * row's end with the all-ones image, which stays last); GPUX_SORT_BITS stable one-bit splits
 * in shared memory (a block scan of the ones: warp shuffles, then the 8 warp totals) sort the
 * tile by its digit; the first key of each digit gives the digit's start, and each key goes
 * to offs[r][d][t] + (its index - start[d]). */
#include "gpux_kernels.h"
#include "gpux_sort.h"

namespace gpux_sk {

typedef long long i64;
typedef unsigned long long u64;
constexpr int T = GPUX_SORT_THREADS;
constexpr int IT = GPUX_SORT_TILE / GPUX_SORT_THREADS;
constexpr int NW = GPUX_SORT_THREADS / 32;
constexpr unsigned MASK = GPUX_SORT_RADIX - 1;
constexpr unsigned FULL = 0xffffffffu;
static_assert(IT * T == GPUX_SORT_TILE, "whole keys a thread");
static_assert(NW <= 32, "one warp scans the warp totals");

template <int W> struct img_t;
template <> struct img_t<32> { typedef unsigned type; };
template <> struct img_t<64> { typedef u64 type; };

/* exclusive scan of v over the block; *total: the sum. ws: NW ints of shared memory. */
__device__ __forceinline__ int block_scan(int v, int *ws, int *total) {
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const int y = __shfl_up_sync(FULL, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) ws[w] = x;
  __syncthreads();
  if (w == 0) {
    int t = lane < NW ? ws[lane] : 0;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const int y = __shfl_up_sync(FULL, t, o);
      if (lane >= o) t += y;
    }
    if (lane < NW) ws[lane] = t; /* inclusive warp prefixes */
  }
  __syncthreads();
  const int before = (w ? ws[w - 1] : 0) + x - v;
  *total = ws[NW - 1];
  __syncthreads();
  return before;
}

/* the position of key i within its row: no division for one row, a 32-bit one below 2^32 */
__device__ __forceinline__ unsigned row_pos(i64 i, i64 n, i64 len) {
  if (len == n) return (unsigned)i;
  if (n <= 0xffffffffll) return (unsigned)i % (unsigned)len;
  return (unsigned)(i % len);
}

template <class K, int w, int W, int cls>
__device__ __forceinline__ void img(const K *keys, typename img_t<W>::type *im, unsigned *pos,
                                    unsigned *bits, i64 n, i64 len, unsigned flags, u64 em,
                                    u64 mm) {
  __shared__ unsigned lb[4];
  if (threadIdx.x == 0) {
    lb[0] = 0u;
    lb[1] = 0u;
    lb[2] = FULL;
    lb[3] = FULL;
  }
  __syncthreads();
  u64 o = 0, a = ~0ull;
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const u64 k = gpux_so_img((u64)keys[i], w, cls, flags, em, mm);
    im[i] = (typename img_t<W>::type)k;
    if (pos) pos[i] = row_pos(i, n, len);
    o |= k;
    a &= k;
  }
#pragma unroll
  for (int s = 16; s > 0; s >>= 1) {
    o |= __shfl_xor_sync(FULL, o, s);
    a &= __shfl_xor_sync(FULL, a, s);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicOr(&lb[0], (unsigned)o);
    atomicOr(&lb[1], (unsigned)(o >> 32));
    atomicAnd(&lb[2], (unsigned)a);
    atomicAnd(&lb[3], (unsigned)(a >> 32));
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicOr(&bits[0], lb[0]);
    atomicOr(&bits[1], lb[1]);
    atomicAnd(&bits[2], lb[2]);
    atomicAnd(&bits[3], lb[3]);
  }
}

template <class K, int w, int W, int cls>
__device__ __forceinline__ void out(const typename img_t<W>::type *im, K *keys, i64 n,
                                    unsigned flags, u64 nan) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    keys[i] = (K)gpux_so_unimg((u64)im[i], w, cls, flags, nan);
}

template <int W>
__device__ __forceinline__ void hist(const typename img_t<W>::type *im, int *counts, i64 len,
                                     i64 ntiles, int shift, i64 ngroups) {
  __shared__ int h[GPUX_SORT_RADIX];
  const int j = threadIdx.x;
  for (i64 g = blockIdx.x; g < ngroups; g += gridDim.x) {
    const i64 r = g / ntiles, t = g - r * ntiles;
    for (int d = j; d < GPUX_SORT_RADIX; d += T) h[d] = 0;
    __syncthreads();
    const i64 t0 = t * GPUX_SORT_TILE;
    const int rem = (int)(len - t0 < GPUX_SORT_TILE ? len - t0 : GPUX_SORT_TILE);
    const typename img_t<W>::type *row = im + r * len + t0;
    for (int i = j; i < rem; i += T) atomicAdd(&h[(int)((row[i] >> shift) & MASK)], 1);
    __syncthreads();
    for (int d = j; d < GPUX_SORT_RADIX; d += T)
      counts[(r * GPUX_SORT_RADIX + d) * ntiles + t] = h[d];
    __syncthreads();
  }
}

template <int W>
__device__ __forceinline__ void scatter(const typename img_t<W>::type *im, const unsigned *pos,
                                        const i64 *offs, typename img_t<W>::type *im_out,
                                        unsigned *pos_out, i64 len, i64 ntiles, int shift,
                                        i64 ngroups) {
  typedef typename img_t<W>::type I;
  __shared__ I ki[2][GPUX_SORT_TILE];
  __shared__ unsigned pi[2][GPUX_SORT_TILE];
  __shared__ int ws[NW], start[GPUX_SORT_RADIX];
  const int j = threadIdx.x;
  for (i64 g = blockIdx.x; g < ngroups; g += gridDim.x) {
    const i64 r = g / ntiles, t = g - r * ntiles;
    const i64 t0 = t * GPUX_SORT_TILE;
    const int rem = (int)(len - t0 < GPUX_SORT_TILE ? len - t0 : GPUX_SORT_TILE);
    const I *row = im + r * len + t0;
    const unsigned *prow = pos ? pos + r * len + t0 : nullptr;
    for (int i = j; i < GPUX_SORT_TILE; i += T) {
      ki[0][i] = i < rem ? row[i] : (I)~(I)0;
      pi[0][i] = i < rem && pos ? prow[i] : 0u;
    }
    __syncthreads();
    int cur = 0;
    for (int b = 0; b < GPUX_SORT_BITS; b++, cur ^= 1) {
      I k[IT];
      unsigned p[IT];
      int ones = 0;
#pragma unroll
      for (int e = 0; e < IT; e++) {
        k[e] = ki[cur][IT * j + e];
        p[e] = pi[cur][IT * j + e];
        ones += (int)((k[e] >> (shift + b)) & 1u);
      }
      int total;
      int before = block_scan(ones, ws, &total);
      const int zeros = GPUX_SORT_TILE - total;
#pragma unroll
      for (int e = 0; e < IT; e++) {
        const int i = IT * j + e;
        int dst;
        if ((k[e] >> (shift + b)) & 1u) {
          dst = zeros + before;
          before++;
        } else {
          dst = i - before;
        }
        ki[cur ^ 1][dst] = k[e];
        pi[cur ^ 1][dst] = p[e];
      }
      __syncthreads();
    }
    for (int i = j; i < rem; i += T) {
      const int d = (int)((ki[cur][i] >> shift) & MASK);
      if (i == 0 || d != (int)((ki[cur][i - 1] >> shift) & MASK)) start[d] = i;
    }
    __syncthreads();
    const i64 *orow = offs + r * GPUX_SORT_RADIX * ntiles + t;
    for (int i = j; i < rem; i += T) {
      const I k = ki[cur][i];
      const int d = (int)((k >> shift) & MASK);
      const i64 dst = r * len + orow[(i64)d * ntiles] + (i - start[d]);
      im_out[dst] = k;
      if (pos_out) pos_out[dst] = pi[cur][i];
    }
    __syncthreads();
  }
}

template <int W>
__device__ __forceinline__ void local_sort(const typename img_t<W>::type *im,
                                           const unsigned *pos, typename img_t<W>::type *im_out,
                                           unsigned *pos_out, i64 len, i64 ngroups) {
  typedef typename img_t<W>::type I;
  __shared__ I ki[GPUX_SORT_LOCAL_MAX];
  __shared__ unsigned pi[GPUX_SORT_LOCAL_MAX];
  const int j = threadIdx.x, n = (int)len;
  int np = 1;
  while (np < n) np <<= 1;
  for (i64 r = blockIdx.x; r < ngroups; r += gridDim.x) {
    for (int i = j; i < np; i += T) {
      ki[i] = i < n ? im[r * len + i] : (I)~(I)0;
      pi[i] = i < n && pos ? pos[r * len + i] : FULL;
    }
    __syncthreads();
    for (int kk = 2; kk <= np; kk <<= 1)
      for (int jj = kk >> 1; jj > 0; jj >>= 1) {
        for (int i = j; i < (np >> 1); i += T) {
          const int lo = 2 * jj * (i / jj) + (i % jj), hi = lo + jj;
          const bool up = (lo & kk) == 0;
          const I a = ki[lo], c = ki[hi];
          const unsigned pa = pi[lo], pc = pi[hi];
          const bool gt = a > c || (a == c && pa > pc);
          if (gt == up) {
            ki[lo] = c;
            ki[hi] = a;
            pi[lo] = pc;
            pi[hi] = pa;
          }
        }
        __syncthreads();
      }
    for (int i = j; i < n; i += T) {
      im_out[r * len + i] = ki[i];
      if (pos_out) pos_out[r * len + i] = pi[i];
    }
    __syncthreads();
  }
}

}  // namespace gpux_sk

#define GPUX_SK_DT(dt, w, W, cls, em, mm, nan)                                                \
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS) gpux_sort_img_##dt(        \
      const GPUX_SO_U##w *keys, gpux_sk::img_t<W>::type *img, unsigned *pos, unsigned *bits, \
      long long n, long long len, unsigned flags) {                                          \
    gpux_sk::img<GPUX_SO_U##w, w, W, cls>(keys, img, pos, bits, n, len, flags,                \
                                          (unsigned long long)(em),                          \
                                          (unsigned long long)(mm));                         \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS) gpux_sort_out_##dt(        \
      const gpux_sk::img_t<W>::type *img, GPUX_SO_U##w *keys, long long n, unsigned flags) { \
    gpux_sk::out<GPUX_SO_U##w, w, W, cls>(img, keys, n, flags, (unsigned long long)(nan));   \
  }
GPUX_SORT_DTYPES(GPUX_SK_DT)

#define GPUX_SK_W(W)                                                                          \
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS) gpux_sort_hist_##W(        \
      const gpux_sk::img_t<W>::type *img, int *counts, long long len, long long ntiles,      \
      int shift, long long ngroups) {                                                        \
    gpux_sk::hist<W>(img, counts, len, ntiles, shift, ngroups);                              \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS) gpux_sort_scatter_##W(     \
      const gpux_sk::img_t<W>::type *img, const unsigned *pos, const long long *offs,        \
      gpux_sk::img_t<W>::type *img_out, unsigned *pos_out, long long len, long long ntiles,  \
      int shift, long long ngroups) {                                                        \
    gpux_sk::scatter<W>(img, pos, offs, img_out, pos_out, len, ntiles, shift, ngroups);      \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS) gpux_sort_local_##W(       \
      const gpux_sk::img_t<W>::type *img, const unsigned *pos,                               \
      gpux_sk::img_t<W>::type *img_out, unsigned *pos_out, long long len,                    \
      long long ngroups) {                                                                   \
    gpux_sk::local_sort<W>(img, pos, img_out, pos_out, len, ngroups);                        \
  }
GPUX_SK_W(32)
GPUX_SK_W(64)

extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS)
    gpux_sort_widen(const unsigned *pos, long long *out, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = (long long)pos[i];
}
