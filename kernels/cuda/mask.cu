/* gpux CUDA kernels, mask family: stream compaction for boolean masks (gpux_kernels.h
 * "Boolean masks"; include/gpux/mask.h), by element size only (the ops move bits).
 *
 *   gpux_mask_compress_<bytes>(const U *x, const unsigned char *mask, const long long *incl,
 *                              U *out, long long n, long long ntiles)
 *   gpux_mask_put_<bytes>(U *x, const unsigned char *mask, const long long *incl,
 *                         const U *vals, long long n, long long ntiles)
 *   gpux_mask_nonzero_<bytes>(const U *x, unsigned long long nzbits, const long long *incl,
 *                             long long *out, long long n, long long ntiles, long long sp,
 *                             long long sd, gpux_nd_params nd)
 * U: the unsigned type of the size (16 bytes: ulonglong2). Pointers already offset.
 *
 * Blocks of GPUX_MASK_THREADS = 256 threads, one tile of GPUX_MASK_TILE = 4096 elements at a
 * time (blocks loop over tiles with a stride of gridDim.x: any grid). Thread j of warp w
 * handles the elements j + 256 k (k = 0..15) of the tile, so every load and every store of
 * a warp covers consecutive elements: round k of warp w holds elements 256 k + 32 w + lane.
 * A warp's ballot of round k gives each lane its rank in the round (the set bits below it);
 * the 128 (round, warp) counts, scanned in that order (the elements' order), give each
 * round's offset in the tile; tile c starts at incl[c - 1]. The positions are the same exact
 * integers as the OpenCL kernels' (which rank each work-item's 16 consecutive flags in local
 * memory instead): the k-th selected element in row-major order goes to position k. A tile reads
 * all its mask bytes before its first write, so put may write x where it read the mask. */
#include "gpux_kernels.h"

namespace gpux_mk {

typedef unsigned long long u64;
typedef long long i64;
constexpr unsigned T = GPUX_MASK_THREADS;
constexpr unsigned ITEMS = GPUX_MASK_TILE / GPUX_MASK_THREADS;
constexpr unsigned NW = GPUX_MASK_THREADS / 32;
constexpr unsigned FULL = 0xffffffffu;
static_assert(ITEMS * NW == 128, "four (round, warp) counts per lane of warp 0");
enum { K_COMPRESS = 0, K_PUT = 1, K_NONZERO = 2 };

template <int B> struct ut;
template <> struct ut<1> { typedef unsigned char type; };
template <> struct ut<2> { typedef unsigned short type; };
template <> struct ut<4> { typedef unsigned int type; };
template <> struct ut<8> { typedef u64 type; };
template <> struct ut<16> { typedef ulonglong2 type; };

/* nonzero's predicate on the bits */
template <class U> __device__ __forceinline__ bool nz(const U &v, u64 bits) {
  return ((u64)v & bits) != 0;
}
template <> __device__ __forceinline__ bool nz<ulonglong2>(const ulonglong2 &v, u64 bits) {
  return ((v.x | v.y) & bits) != 0;
}

template <int KIND, class U> struct margs {
  U *x;                        /* compress, nonzero: read; put: written */
  const unsigned char *mask;   /* compress, put */
  const i64 *incl;
  U *out;                      /* compress */
  const U *vals;               /* put */
  i64 *iout;                   /* nonzero */
  u64 n, ntiles, nzbits;
  i64 sp, sd;
  const gpux_nd_params *nd;
};

/* the coordinates of flat index i at row k of out */
__device__ __forceinline__ void coords(i64 *out, i64 k, i64 sp, i64 sd, u64 i,
                                       const gpux_nd_params &nd) {
  i64 *o = out + k * sp;
  const int last = (int)nd.ndim - 1;
  for (int d = last; d > 0; --d) {
    const u64 s = (u64)nd.shape[d], q = i / s;
    o[d * sd] = (i64)(i - q * s);
    i = q;
  }
  o[0] = (i64)i;
}

template <int KIND, class U> __device__ __forceinline__ void run(const margs<KIND, U> &p) {
  __shared__ int wc[ITEMS * NW]; /* counts, then offsets, of (round k, warp w) at k * NW + w */
  __shared__ i64 base_s;
  const unsigned j = threadIdx.x, q = j & 31, w = j >> 5;
  const unsigned below = (1u << q) - 1u;
#pragma unroll 1
  for (u64 c = blockIdx.x; c < p.ntiles; c += gridDim.x) {
    const u64 t0 = c * GPUX_MASK_TILE;
    const unsigned rem = p.n - t0 < GPUX_MASK_TILE ? (unsigned)(p.n - t0) : GPUX_MASK_TILE;
    bool sel[ITEMS];
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) { /* all loads first */
      const unsigned e = j + T * k;
      sel[k] = false;
      if (e < rem) {
        if constexpr (KIND == K_NONZERO) sel[k] = nz<U>(p.x[t0 + e], p.nzbits);
        else sel[k] = p.mask[t0 + e] != 0;
      }
    }
    unsigned bal[ITEMS];
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) bal[k] = __ballot_sync(FULL, sel[k]);
    if (q == 0) {
#pragma unroll
      for (unsigned k = 0; k < ITEMS; ++k) wc[k * NW + w] = __popc(bal[k]);
    }
    __syncthreads();
    if (w == 0) { /* exclusive scan of the 128 counts: lane q holds 4q .. 4q + 3 */
      const int a0 = wc[4 * q], a1 = wc[4 * q + 1], a2 = wc[4 * q + 2], a3 = wc[4 * q + 3];
      const int own = a0 + a1 + a2 + a3;
      int incl_q = own;
#pragma unroll
      for (unsigned off = 1; off < 32; off <<= 1) {
        const int y = __shfl_up_sync(FULL, incl_q, off);
        if (q >= off) incl_q += y;
      }
      const int ex = incl_q - own;
      wc[4 * q] = ex;
      wc[4 * q + 1] = ex + a0;
      wc[4 * q + 2] = ex + a0 + a1;
      wc[4 * q + 3] = ex + a0 + a1 + a2;
      if (q == 0) base_s = c > 0 ? p.incl[c - 1] : 0;
    }
    __syncthreads();
    const i64 base = base_s;
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k)
      if (sel[k]) {
        const u64 i = t0 + j + T * k;
        const i64 pos = base + wc[k * NW + w] + __popc(bal[k] & below);
        if constexpr (KIND == K_COMPRESS) p.out[pos] = p.x[i];
        else if constexpr (KIND == K_PUT) p.x[i] = p.vals[pos];
        else coords(p.iout, pos, p.sp, p.sd, i, *p.nd);
      }
    __syncthreads(); /* wc and base_s are rewritten by the next tile */
  }
}

}  // namespace gpux_mk

#define GPUX_MK_KERNELS(bytes)                                                              \
  extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_compress_##bytes( \
      const gpux_mk::ut<bytes>::type *__restrict__ x, const unsigned char *__restrict__ mask, \
      const long long *__restrict__ incl, gpux_mk::ut<bytes>::type *__restrict__ out,      \
      long long n, long long ntiles) {                                                      \
    gpux_mk::margs<gpux_mk::K_COMPRESS, gpux_mk::ut<bytes>::type> p = {};                   \
    p.x = const_cast<gpux_mk::ut<bytes>::type *>(x);                                        \
    p.mask = mask;                                                                          \
    p.incl = incl;                                                                          \
    p.out = out;                                                                            \
    p.n = (gpux_mk::u64)n;                                                                  \
    p.ntiles = (gpux_mk::u64)ntiles;                                                        \
    gpux_mk::run(p);                                                                        \
  }                                                                                         \
  extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_put_##bytes(    \
      gpux_mk::ut<bytes>::type *x, const unsigned char *mask,                               \
      const long long *__restrict__ incl, const gpux_mk::ut<bytes>::type *__restrict__ vals, \
      long long n, long long ntiles) {                                                      \
    gpux_mk::margs<gpux_mk::K_PUT, gpux_mk::ut<bytes>::type> p = {};                        \
    p.x = x;                                                                                \
    p.mask = mask;                                                                          \
    p.incl = incl;                                                                          \
    p.vals = vals;                                                                          \
    p.n = (gpux_mk::u64)n;                                                                  \
    p.ntiles = (gpux_mk::u64)ntiles;                                                        \
    gpux_mk::run(p);                                                                        \
  }                                                                                         \
  extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_nonzero_##bytes( \
      const gpux_mk::ut<bytes>::type *__restrict__ x, unsigned long long nzbits,            \
      const long long *__restrict__ incl, long long *__restrict__ out, long long n,         \
      long long ntiles, long long sp, long long sd, const __grid_constant__ gpux_nd_params nd) { \
    gpux_mk::margs<gpux_mk::K_NONZERO, gpux_mk::ut<bytes>::type> p = {};                    \
    p.x = const_cast<gpux_mk::ut<bytes>::type *>(x);                                        \
    p.incl = incl;                                                                          \
    p.iout = out;                                                                           \
    p.n = (gpux_mk::u64)n;                                                                  \
    p.ntiles = (gpux_mk::u64)ntiles;                                                        \
    p.nzbits = nzbits;                                                                      \
    p.sp = sp;                                                                              \
    p.sd = sd;                                                                              \
    p.nd = &nd;                                                                             \
    gpux_mk::run(p);                                                                        \
  }
GPUX_ELEM_SIZES(GPUX_MK_KERNELS)
