/* gpux CUDA kernels, mask family: stream compaction for boolean masks (gpux_kernels.h
 * "Boolean masks"; include/gpux/mask.h), by element size only (the ops move bits).
 *
 *   gpux_mask_flags_<bytes>(const U *x, unsigned long long nzbits, unsigned short *bits,
 *                           long long *cnt, long long n, long long ntiles)
 *   gpux_mask_compress_<bytes>(const U *x, const unsigned short *bits,
 *                              const long long *incl, U *out, long long n, long long ntiles)
 *   gpux_mask_put_<bytes>(U *x, const unsigned short *bits, const long long *incl,
 *                         const U *vals, long long n, long long ntiles)
 *   gpux_mask_nonzero(const unsigned short *bits, const long long *incl, long long *out,
 *                     long long n, long long ntiles, long long sp, long long sd,
 *                     gpux_nd_params nd)
 *   gpux_mask_ids(const unsigned short *bits, const long long *incl, const long long *perm,
 *                 long long *out, long long n, long long ntiles)   (perm may be NULL)
 * U: the unsigned type of the size (16 bytes: ulonglong2). Pointers already offset.
 *
 * Blocks of GPUX_MASK_THREADS = 256 threads, one tile of GPUX_MASK_TILE = 4096 elements at a
 * time (blocks loop over tiles with a stride of gridDim.x: any grid). Thread j owns the 16
 * consecutive elements 16 j .. 16 j + 15 of the tile: bits word 256 c + j. flags loads,
 * before anything else, their 16 elements (a bool mask's 16 bytes, or nonzero's x) as
 * 16-byte vectors where the tile is whole and the buffer aligned, tests them into the word
 * and sums the tile's count. The others load the word (and compress its 16 values the same
 * way); a warp scan of the words' counts and the eight warps' totals give each selected
 * element its rank r in the tile; the k-th selected element in row-major order goes to
 * position incl[c - 1] + r, the same exact integers as the OpenCL kernels' and the CPU
 * form's. The moves go through shared memory so that global memory sees consecutive threads
 * on consecutive positions: compress stages the values at their ranks and writes the
 * tile's run out; put stages vals' run and each thread writes its selected elements;
 * nonzero stages the selected elements' tile indices and writes their coordinates. The
 * stage holds 16 KB (4096 elements up to 4 bytes; 8- and 16-byte elements take two or four
 * rounds of ranks). */
#include "gpux_kernels.h"
#include "gpux_sort.h"

namespace gpux_mk {

typedef unsigned long long u64;
typedef long long i64;
constexpr unsigned T = GPUX_MASK_THREADS;
constexpr unsigned ITEMS = GPUX_MASK_TILE / GPUX_MASK_THREADS;
constexpr unsigned NW = GPUX_MASK_THREADS / 32;
constexpr unsigned FULL = 0xffffffffu;
static_assert(ITEMS * NW == 128, "four (round, warp) counts per lane of warp 0");
enum { K_COMPRESS = 0, K_PUT = 1, K_NONZERO = 2, K_FLAGS = 3, K_STARTS = 4, K_IDS = 5 };

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
  U *x;                        /* flags, compress: read; put: written */
  unsigned short *bits;        /* flags: written; the others: read */
  const i64 *incl;
  U *out;                      /* compress */
  const U *vals;               /* put */
  i64 *iout;                   /* nonzero's coordinates, flags' and starts' counts */
  u64 n, ntiles, nzbits;
  int kcls;                    /* starts: the keys' image class and masks */
  u64 em, mm;
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

/* starts' key image (THE ORDER, -0.0 == +0.0, NaNs equal): 1- to 8-byte keys */
template <int KIND, class U> struct margs;
template <int KIND, class U>
__device__ __forceinline__ u64 img(const U &v, const margs<KIND, U> &p) {
  return gpux_so_img((u64)v, 8 * (int)sizeof(U), p.kcls, GPUX_SO_EQZ, p.em, p.mm);
}

/* the 16 elements from src: as sizeof(U) 16-byte vectors (vec: all 16 there, src aligned),
 * else one at a time up to have (the rest zero) */
template <class U>
__device__ __forceinline__ void load16(U (&v)[ITEMS], const U *src, bool vec, unsigned have) {
  if (vec) {
    uint4 r[sizeof(U)];
#pragma unroll
    for (unsigned i = 0; i < sizeof(U); ++i) r[i] = reinterpret_cast<const uint4 *>(src)[i];
    memcpy(v, r, sizeof r);
  } else {
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) v[k] = k < have ? src[k] : U{};
  }
}

/* four bytes as four bits, bit b set iff byte b is nonzero (bit 7 of (b & 0x7f) + 0x7f, or
 * of b, is set iff b != 0: no carry leaves the byte) */
__device__ __forceinline__ unsigned nib(unsigned w) {
  const unsigned t = ((((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) >> 7) & 0x01010101u;
  return (t | t >> 7 | t >> 14 | t >> 21) & 0xfu;
}

/* the stage: 16 KB of elements, or nonzero's 4096 tile indices */
template <int KIND, class U> struct stage_of {
  static constexpr unsigned CAP = 16384 / sizeof(U) < GPUX_MASK_TILE ? 16384 / sizeof(U)
                                                                     : GPUX_MASK_TILE;
  typedef U type;
};
template <class U> struct stage_of<K_NONZERO, U> {
  static constexpr unsigned CAP = GPUX_MASK_TILE;
  typedef unsigned short type;
};

/* flags and starts: thread j's word of the tile at t0, its elements e0 .. e0 + 15 (have of
 * them in the array; vec: all 16 there and 16-byte aligned) */
template <int KIND, class U>
__device__ __forceinline__ unsigned word_of(const margs<KIND, U> &p, u64 t0, unsigned e0,
                                            unsigned have, bool vec) {
  unsigned f = 0;
  U v[ITEMS];
  if constexpr (KIND == K_STARTS) {
    /* a run starts where the image differs from the previous element's (the one before the
     * thread's first: one more load, from the neighbour's cache line) */
    load16<U>(v, p.x + t0 + e0, vec, have);
    const u64 i0 = t0 + e0;
    u64 prev = i0 > 0 && have > 0 ? img(p.x[i0 - 1], p) : 0;
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) {
      const u64 cur = img(v[k], p);
      f |= (unsigned)(k < have && (i0 + k == 0 || cur != prev)) << k;
      prev = cur;
    }
  } else if (sizeof(U) == 1 && (p.nzbits & 0xffu) == 0xffu && vec) {
    /* bytes whose every bit counts (a bool mask): 16 at once */
    const uint4 m = *reinterpret_cast<const uint4 *>(p.x + t0 + e0);
    f = nib(m.x) | nib(m.y) << 4 | nib(m.z) << 8 | nib(m.w) << 12;
  } else {
    load16<U>(v, p.x + t0 + e0, vec, have);
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) f |= (unsigned)nz<U>(v[k], p.nzbits) << k;
  }
  return f;
}

/* the selected elements of the tile's words before thread j's (f: its word) and, in *tc,
 * the tile's: a warp scan and the eight warps' totals through wsum (the caller's barrier
 * before wsum's next use) */
__device__ __forceinline__ int words_before(unsigned f, int *wsum, int *tc) {
  const unsigned j = threadIdx.x, q = j & 31, w = j >> 5;
  const int cnt = __popc(f);
  int in = cnt;
#pragma unroll
  for (unsigned off = 1; off < 32; off <<= 1) {
    const int y = __shfl_up_sync(FULL, in, off);
    if (q >= off) in += y;
  }
  if (q == 31) wsum[w] = in;
  __syncthreads();
  int ex = in - cnt, t = 0;
#pragma unroll
  for (unsigned u = 0; u < NW; ++u) {
    const int s = wsum[u];
    ex += u < w ? s : 0;
    t += s;
  }
  *tc = t;
  return ex;
}

/* the elements of tile t0 (the last one may be short) */
__device__ __forceinline__ unsigned tile_len(u64 n, u64 t0) {
  return n - t0 < GPUX_MASK_TILE ? (unsigned)(n - t0) : GPUX_MASK_TILE;
}

/* flags and starts: every tile's words, and its count into p.iout[c] */
template <int KIND, class U> __device__ __forceinline__ void mark(const margs<KIND, U> &p) {
  __shared__ int wsum[NW];
  const unsigned j = threadIdx.x;
  const bool xa = ((u64)p.x & 15) == 0;
#pragma unroll 1
  for (u64 c = blockIdx.x; c < p.ntiles; c += gridDim.x) {
    const u64 t0 = c * GPUX_MASK_TILE;
    const unsigned rem = tile_len(p.n, t0);
    const unsigned e0 = ITEMS * j, have = rem > e0 ? rem - e0 : 0;
    const unsigned f = word_of(p, t0, e0, have, xa && rem == GPUX_MASK_TILE);
    p.bits[c * GPUX_MASK_WORDS + j] = (unsigned short)f;
    int tc;
    (void)words_before(f, wsum, &tc);
    if (j == 0) p.iout[c] = tc;
    __syncthreads(); /* wsum is rewritten by the next tile */
  }
}

template <int KIND, class U> __device__ __forceinline__ void run(const margs<KIND, U> &p) {
  typedef stage_of<KIND, U> S;
  __shared__ typename S::type st[S::CAP];
  __shared__ int wsum[NW];
  const unsigned j = threadIdx.x;
  /* 16-byte vectors need an aligned tile start: a tile is 4096 elements, so the buffer's
   * alignment decides */
  const bool xa = ((u64)p.x & 15) == 0;
#pragma unroll 1
  for (u64 c = blockIdx.x; c < p.ntiles; c += gridDim.x) {
    const u64 t0 = c * GPUX_MASK_TILE;
    const unsigned rem = tile_len(p.n, t0);
    const unsigned e0 = ITEMS * j, have = rem > e0 ? rem - e0 : 0;
    /* 1. loads: the bits word of elements e0 .. e0 + 15 (and compress's values) */
    U v[ITEMS];
    if (KIND == K_COMPRESS) load16<U>(v, p.x + t0 + e0, xa && rem == GPUX_MASK_TILE, have);
    const unsigned f = p.bits[c * GPUX_MASK_WORDS + j];
    const i64 base = c > 0 ? p.incl[c - 1] : 0;
    /* 2. ranks: the thread's first selected element at ex; the tile's count tc */
    int tc;
    const int ex = words_before(f, wsum, &tc);
    /* 3. the moves, through the stage in rounds of S::CAP ranks (one round up to 4 bytes) */
    if constexpr (KIND == K_NONZERO) {
      int r = ex;
#pragma unroll
      for (unsigned k = 0; k < ITEMS; ++k)
        if (f >> k & 1u) st[r++] = (unsigned short)(e0 + k);
      __syncthreads();
      for (int s = (int)j; s < tc; s += (int)T) coords(p.iout, base + s, p.sp, p.sd, t0 + st[s], *p.nd);
    } else {
#pragma unroll 1
      for (int r0 = 0; r0 < tc; r0 += (int)S::CAP) {
        const int r1 = r0 + (int)S::CAP < tc ? r0 + (int)S::CAP : tc;
        if constexpr (KIND == K_PUT) {
          for (int s = r0 + (int)j; s < r1; s += (int)T) st[s - r0] = p.vals[base + s];
          __syncthreads();
        }
        int r = ex;
#pragma unroll
        for (unsigned k = 0; k < ITEMS; ++k)
          if (f >> k & 1u) {
            if (r >= r0 && r < r1) {
              if constexpr (KIND == K_COMPRESS) st[r - r0] = v[k];
              else p.x[t0 + e0 + k] = st[r - r0];
            }
            ++r;
          }
        if constexpr (KIND == K_COMPRESS) {
          __syncthreads();
          for (int s = r0 + (int)j; s < r1; s += (int)T) p.out[base + s] = st[s - r0];
        }
        __syncthreads(); /* the stage is rewritten by the next round */
      }
    }
    __syncthreads(); /* wsum and the stage are rewritten by the next tile */
  }
}

/* ids: every element i of tile c (not only the selected ones) gets the count of selected
 * elements up to and including it, minus 1, from incl[c - 1] on, written at out[perm[i]]
 * (out[i] without perm): a sorted array's group ids from its starts, scattered to the
 * unsorted positions. perm's run is loaded first (element j + 256 k: coalesced), the
 * words' exclusive counts and the words go through shared memory. */
__device__ __forceinline__ void ids(const unsigned short *bits, const i64 *incl, const i64 *perm,
                                    i64 *out, u64 n, u64 ntiles) {
  __shared__ int sx[T];
  __shared__ unsigned short sf[T];
  __shared__ int wsum[NW];
  const unsigned j = threadIdx.x;
#pragma unroll 1
  for (u64 c = blockIdx.x; c < ntiles; c += gridDim.x) {
    const u64 t0 = c * GPUX_MASK_TILE;
    const unsigned rem = tile_len(n, t0);
    i64 d[ITEMS];
    if (perm && rem == GPUX_MASK_TILE) {
#pragma unroll
      for (unsigned k = 0; k < ITEMS; ++k) d[k] = perm[t0 + j + T * k];
    } else {
#pragma unroll
      for (unsigned k = 0; k < ITEMS; ++k) {
        const unsigned e = j + T * k;
        d[k] = perm ? (e < rem ? perm[t0 + e] : 0) : (i64)(t0 + e);
      }
    }
    const unsigned f = bits[c * GPUX_MASK_WORDS + j];
    const i64 base = c > 0 ? incl[c - 1] : 0;
    int tc;
    sx[j] = words_before(f, wsum, &tc);
    sf[j] = (unsigned short)f;
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) {
      const unsigned e = j + T * k, wd = e >> 4;
      if (e < rem)
        out[d[k]] = base + sx[wd] + __popc((unsigned)sf[wd] & ((2u << (e & 15u)) - 1u)) - 1;
    }
    __syncthreads(); /* wsum, sx and sf are rewritten by the next tile */
  }
}

}  // namespace gpux_mk

#define GPUX_MK_KERNELS(bytes)                                                              \
  extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_flags_##bytes(  \
      const gpux_mk::ut<bytes>::type *__restrict__ x, unsigned long long nzbits,            \
      unsigned short *__restrict__ bits, long long *__restrict__ cnt, long long n,          \
      long long ntiles) {                                                                   \
    gpux_mk::margs<gpux_mk::K_FLAGS, gpux_mk::ut<bytes>::type> p = {};                      \
    p.x = const_cast<gpux_mk::ut<bytes>::type *>(x);                                        \
    p.bits = bits;                                                                          \
    p.iout = cnt;                                                                           \
    p.n = (gpux_mk::u64)n;                                                                  \
    p.ntiles = (gpux_mk::u64)ntiles;                                                        \
    p.nzbits = nzbits;                                                                      \
    gpux_mk::mark(p);                                                                       \
  }                                                                                         \
  extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_compress_##bytes( \
      const gpux_mk::ut<bytes>::type *__restrict__ x, const unsigned short *__restrict__ bits, \
      const long long *__restrict__ incl, gpux_mk::ut<bytes>::type *__restrict__ out,      \
      long long n, long long ntiles) {                                                      \
    gpux_mk::margs<gpux_mk::K_COMPRESS, gpux_mk::ut<bytes>::type> p = {};                   \
    p.x = const_cast<gpux_mk::ut<bytes>::type *>(x);                                        \
    p.bits = const_cast<unsigned short *>(bits);                                            \
    p.incl = incl;                                                                          \
    p.out = out;                                                                            \
    p.n = (gpux_mk::u64)n;                                                                  \
    p.ntiles = (gpux_mk::u64)ntiles;                                                        \
    gpux_mk::run(p);                                                                        \
  }                                                                                         \
  extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_put_##bytes(    \
      gpux_mk::ut<bytes>::type *x, const unsigned short *__restrict__ bits,                 \
      const long long *__restrict__ incl, const gpux_mk::ut<bytes>::type *__restrict__ vals, \
      long long n, long long ntiles) {                                                      \
    gpux_mk::margs<gpux_mk::K_PUT, gpux_mk::ut<bytes>::type> p = {};                        \
    p.x = x;                                                                                \
    p.bits = const_cast<unsigned short *>(bits);                                            \
    p.incl = incl;                                                                          \
    p.vals = vals;                                                                          \
    p.n = (gpux_mk::u64)n;                                                                  \
    p.ntiles = (gpux_mk::u64)ntiles;                                                        \
    gpux_mk::run(p);                                                                        \
  }
GPUX_ELEM_SIZES(GPUX_MK_KERNELS)

#define GPUX_MK_STARTS(bytes)                                                               \
  extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_starts_##bytes( \
      const gpux_mk::ut<bytes>::type *__restrict__ x, int kcls, unsigned long long em,      \
      unsigned long long mm, unsigned short *__restrict__ bits, long long *__restrict__ cnt, \
      long long n, long long ntiles) {                                                      \
    gpux_mk::margs<gpux_mk::K_STARTS, gpux_mk::ut<bytes>::type> p = {};                     \
    p.x = const_cast<gpux_mk::ut<bytes>::type *>(x);                                        \
    p.bits = bits;                                                                          \
    p.iout = cnt;                                                                           \
    p.n = (gpux_mk::u64)n;                                                                  \
    p.ntiles = (gpux_mk::u64)ntiles;                                                        \
    p.kcls = kcls;                                                                          \
    p.em = em;                                                                              \
    p.mm = mm;                                                                              \
    gpux_mk::mark(p);                                                                       \
  }
GPUX_MK_STARTS(1)
GPUX_MK_STARTS(2)
GPUX_MK_STARTS(4)
GPUX_MK_STARTS(8)

extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_nonzero(
    const unsigned short *__restrict__ bits, const long long *__restrict__ incl,
    long long *__restrict__ out, long long n, long long ntiles, long long sp, long long sd,
    const __grid_constant__ gpux_nd_params nd) {
  gpux_mk::margs<gpux_mk::K_NONZERO, unsigned char> p = {};
  p.bits = const_cast<unsigned short *>(bits);
  p.incl = incl;
  p.iout = out;
  p.n = (gpux_mk::u64)n;
  p.ntiles = (gpux_mk::u64)ntiles;
  p.sp = sp;
  p.sd = sd;
  p.nd = &nd;
  gpux_mk::run(p);
}

extern "C" __global__ void __launch_bounds__(GPUX_MASK_THREADS) gpux_mask_ids(
    const unsigned short *__restrict__ bits, const long long *__restrict__ incl,
    const long long *__restrict__ perm, long long *__restrict__ out, long long n,
    long long ntiles) {
  gpux_mk::ids(bits, incl, perm, out, (gpux_mk::u64)n, (gpux_mk::u64)ntiles);
}
