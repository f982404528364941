/* gpux CUDA kernels, sort family (gpux_kernels.h "Sort", the steps in src/api/gpux_backend.h
 * gpux__sort_pass, THE ORDER and the images in gpux_sort.h, the look-back words
 * GPUX_SO_LB_*). The algorithm of kernels/cl/sort.cl's GPU form, step for step (a stable sort
 * has one right answer, so the two sets agree whatever they run; keeping them alike keeps
 * them easy to check):
 *
 *   gpux_sort_img_<dt>(const K *keys, I *img, unsigned *pos, unsigned *bits, i64 n,
 *                      i64 len, unsigned flags)
 *   gpux_sort_imgh_<dt>(const K *keys, I *img, unsigned *bits, unsigned *counts, i64 len,
 *                       i64 hk, i64 gpr, i64 ngroups, i64 pkeys, int nportions,
 *                       unsigned flags)
 *   gpux_sort_out_<dt>(const I *img, K *keys, i64 n, unsigned flags)
 *   gpux_sort_onesweep_<W>(const I *img, const unsigned *pos, I *img_out,
 *                          unsigned *pos_out, unsigned *counts, unsigned *lb,
 *                          i64 rows, i64 len, i64 p0, i64 plen, i64 tpp, int pass,
 *                          int npass, int portion, int nportions, const void *kin,
 *                          void *kout, i64 *pos64, int kw, int kcls, unsigned kflags,
 *                          u64 em, u64 mm, u64 nan)
 *     (kin / kout / pos64: gpux__sort_pass's fused ends, NULL when unused; kw ... nan: the
 *     key dtype's row of GPUX_SORT_DTYPES and the sort's flags, for gpux_so_img / unimg)
 *   gpux_sort_local_<W>(const I *img, const unsigned *pos, I *img_out, unsigned *pos_out,
 *                       i64 len, i64 ngroups)
 *   gpux_sort_widen(const unsigned *pos, i64 *out, i64 n, i64 len)
 * Keys-only sorts carry no positions: pos and pos_out are NULL then (equal images are equal
 * bits there, so nothing needs a tie-break); onesweep with pos NULL and pos_out set makes the
 * positions (the first pass), widen with pos NULL writes i % len.
 * K: the key's unsigned type of w bits; I: unsigned (W 32) or unsigned long long (W 64);
 * pointers already offset. Blocks of GPUX_SORT_THREADS (256); the elementwise kernels loop
 * with a stride of the grid, imgh and local over their ngroups groups with a stride of
 * gridDim.x, onesweep over tile ids taken from the counter lb[rows * tpp * RADIX].
 *
 * onesweep's tile: TILE = GPUX_SORT_TILE(W) keys, warp w holding keys w * 32 * IPT .. of it,
 * lane l its keys w * 32 * IPT + e * 32 + l (e < IPT; coalesced), keys past the row's
 * portion the all-ones image (digit 255, last in the tile's stable order, never written).
 * Early counts (CUB's): each warp counts its keys' digits first; thread d makes digit d's
 * counts exclusive over the warps, publishes the tile's count of d (A, or P for a portion's
 * first tile) and, after one scan over the digits, holds each warp's first place of d in the
 * tile sorted by digit. Rank: for e in order, a key's place is its warp's next place of its
 * digit plus its peers of lower lane (eight ballots), and the key is staged there in shared
 * memory; thread d then looks back over the earlier tiles of its row's portion until a P
 * word and publishes P; the keys leave in staged order, runs of a digit to consecutive
 * places. */
#include "gpux_kernels.h"
#include "gpux_sort.h"

/* the ranking's peers by shared ORs (1) or eight ballots (0). 1 needs more than the 48 KB of
 * static shared memory with the 32-bit tile (the words: 8 KB more): dynamic shared memory
 * first; NVIDIA's OpenCL, where it builds, gained 4 to 6% (sort.cl) */
#ifndef GPUX_SK_MATCH_OR
#define GPUX_SK_MATCH_OR 0
#endif

namespace gpux_sk {

typedef long long i64;
typedef unsigned long long u64;
constexpr int T = GPUX_SORT_THREADS;
constexpr int NW = GPUX_SORT_THREADS / 32;
constexpr unsigned MASK = GPUX_SORT_RADIX - 1;
constexpr unsigned FULL = 0xffffffffu;
static_assert(NW <= 32, "one warp scans the warp totals");

template <int W> struct img_t;
template <> struct img_t<32> { typedef unsigned type; };
template <> struct img_t<64> { typedef u64 type; };

/* the position of key i within its row: no division for one row, a 32-bit one below 2^32 */
__device__ __forceinline__ unsigned row_pos(i64 i, i64 n, i64 len) {
  if (len == n) return (unsigned)i;
  if (n <= 0xffffffffll) return (unsigned)i % (unsigned)len;
  return (unsigned)(i % len);
}

/* the OR / AND of every image (bits: see gpux__sort_pass IMG): lb, 4 words of shared
 * memory, set up by bits_init (a barrier), the block's o / a folded in and added to bits by
 * bits_flush (every thread, after its last key) */
__device__ __forceinline__ void bits_init(unsigned *lb) {
  if (threadIdx.x == 0) {
    lb[0] = 0u;
    lb[1] = 0u;
    lb[2] = FULL;
    lb[3] = FULL;
  }
  __syncthreads();
}
__device__ __forceinline__ void bits_flush(unsigned *lb, unsigned *bits, u64 o, u64 a) {
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
__device__ __forceinline__ void img(const K *keys, typename img_t<W>::type *im, unsigned *pos,
                                    unsigned *bits, i64 n, i64 len, unsigned flags, u64 em,
                                    u64 mm) {
  __shared__ unsigned lb[4];
  bits_init(lb);
  u64 o = 0, a = ~0ull;
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const u64 k = gpux_so_img((u64)keys[i], w, cls, flags, em, mm);
    im[i] = (typename img_t<W>::type)k;
    if (pos) pos[i] = row_pos(i, n, len);
    o |= k;
    a &= k;
  }
  bits_flush(lb, bits, o, a);
}

template <class K, int w, int W, int cls>
__device__ __forceinline__ void out(const typename img_t<W>::type *im, K *keys, i64 n,
                                    unsigned flags, u64 nan) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    keys[i] = (K)gpux_so_unimg((u64)im[i], w, cls, flags, nan);
}

/* exclusive scan of v over the block, two 32-bit sums in one (low halves that never carry
 * into the high ones); no barrier after it: the caller's next one protects ws. ws: NW
 * words. */
__device__ __forceinline__ u64 block_scan2(u64 v, u64 *ws) {
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  u64 x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const u64 y = __shfl_up_sync(FULL, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) ws[w] = x;
  __syncthreads();
  if (w == 0) {
    u64 t = lane < NW ? ws[lane] : 0ull;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const u64 y = __shfl_up_sync(FULL, t, o);
      if (lane >= o) t += y;
    }
    if (lane < NW) ws[lane] = t;
  }
  __syncthreads();
  return (w ? ws[w - 1] : 0ull) + x - v;
}

/* images and the digit counts of every pass (IMGH) */
template <class K, int w, int W, int cls>
__device__ __forceinline__ void imgh(const K *keys, typename img_t<W>::type *im, unsigned *bits,
                                     unsigned *counts, i64 len, i64 hk, i64 gpr, i64 ngroups,
                                     i64 pkeys, int nportions, unsigned flags, u64 em, u64 mm) {
  constexpr int NP = W / 8;
  __shared__ unsigned h[NP * GPUX_SORT_RADIX];
  __shared__ unsigned lb[4];
  const int j = threadIdx.x;
  bits_init(lb);
  u64 o = 0, a = ~0ull;
  for (i64 g = blockIdx.x; g < ngroups; g += gridDim.x) {
    for (int i = j; i < NP * GPUX_SORT_RADIX; i += T) h[i] = 0u;
    __syncthreads();
    const i64 r = g / gpr, k0 = (g - r * gpr) * hk;
    const int cnt = (int)(len - k0 < hk ? len - k0 : hk);
    const K *src = keys + r * len + k0;
    typename img_t<W>::type *dst = im ? im + r * len + k0 : nullptr;
    for (int i = j; i < cnt; i += T) {
      const u64 k = gpux_so_img((u64)src[i], w, cls, flags, em, mm);
      if (dst) dst[i] = (typename img_t<W>::type)k; /* none: the first pass images the keys */
      o |= k;
      a &= k;
#pragma unroll
      for (int p = 0; p < NP; p++) atomicAdd(&h[p * GPUX_SORT_RADIX + (int)((k >> (8 * p)) & MASK)], 1u);
    }
    __syncthreads();
    unsigned *c = counts + (i64)r * nportions * NP * GPUX_SORT_RADIX; /* slot 0: the row's */
    for (int i = j; i < NP * GPUX_SORT_RADIX; i += T)
      if (h[i]) atomicAdd(&c[i], h[i]);
    __syncthreads();
  }
  bits_flush(lb, bits, o, a);
}

/* onesweep's fused ends (gpux__sort_pass kin / kout / pos64): a key of w bits read at i
 * (the first pass, in place of its image) and written back (the last pass) */
__device__ __forceinline__ u64 key_ld(const void *p, i64 i, int w) {
  switch (w) {
    case 8: return ((const unsigned char *)p)[i];
    case 16: return ((const unsigned short *)p)[i];
    case 32: return ((const unsigned *)p)[i];
    default: return ((const u64 *)p)[i];
  }
}
__device__ __forceinline__ void key_st(void *p, i64 i, int w, u64 v) {
  switch (w) {
    case 8: ((unsigned char *)p)[i] = (unsigned char)v; break;
    case 16: ((unsigned short *)p)[i] = (unsigned short)v; break;
    case 32: ((unsigned *)p)[i] = (unsigned)v; break;
    default: ((u64 *)p)[i] = v;
  }
}
/* the key dtype's constants of gpux_so_img / unimg, for the fused ends */
struct key_cv {
  int w, cls;
  unsigned flags;
  u64 em, mm, nan;
};

/* One Onesweep pass over one portion of every row (the top of this file). */
template <int W>
__device__ __forceinline__ void onesweep(const typename img_t<W>::type *im, const unsigned *pos,
                                         typename img_t<W>::type *im_out, unsigned *pos_out,
                                         unsigned *counts, unsigned *lb, i64 rows,
                                         i64 len, i64 p0, i64 plen, i64 tpp, int pass,
                                         int npass, int portion, int nportions,
                                         const void *kin, void *kout, i64 *pos64, key_cv cv) {
  typedef typename img_t<W>::type I;
  constexpr int IPT = GPUX_SORT_IPT(W), TILE = GPUX_SORT_TILE(W), R = GPUX_SORT_RADIX;
  static_assert(T == R, "a thread a digit");
  static_assert(32 * IPT <= 0xffff, "ranks fit 16 bits");
  __shared__ I sk[TILE];
  __shared__ unsigned sp[TILE];
  __shared__ unsigned wh[NW][R];
#if GPUX_SK_MATCH_OR
  __shared__ unsigned mt[NW][R]; /* the lanes of each digit, per warp; zero between keys */
#endif
  __shared__ unsigned s_gb[R];
  __shared__ u64 ws[NW];
  __shared__ unsigned long long s_tile;
  const int j = threadIdx.x, lane = j & 31, w = j >> 5, shift = 8 * pass;
  const unsigned lt = (1u << lane) - 1u;
  const u64 ntot = (u64)(rows * tpp);
  unsigned *ctr = lb + ntot * R;
#if GPUX_SK_MATCH_OR
  for (int d = lane; d < R; d += 32) mt[w][d] = 0u;
#endif
  for (;;) {
    if (j == 0) s_tile = atomicAdd(ctr, 1u);
    /* the warp's running digit counts: only the warp touches its row until the ranking's
     * barrier */
    for (int d = lane; d < R; d += 32) wh[w][d] = 0u;
    __syncthreads();
    const u64 g = s_tile;
    if (g >= ntot) return;
    const i64 r = (i64)(g / (u64)tpp), t = (i64)g - r * tpp;
    /* the row's count of digit j (slot 0, imgh's), and those of digit j in the earlier
     * portions of this pass's input (slot `portion`, written by the launch before; none for
     * portion 0): loaded now, used by the scan */
    unsigned *cr = counts + ((i64)r * nportions * npass + pass) * R + j;
    const unsigned crow = cr[0];
    const unsigned before = portion ? cr[(i64)portion * npass * R] : 0u;
    const i64 k0 = p0 + t * TILE; /* the tile's first key in its row */
    const int rem = (int)(plen - t * TILE < TILE ? plen - t * TILE : TILE);
    const I *src = im + r * len + k0;
    const i64 kbase = r * len + k0;
    const int base = w * 32 * IPT + lane;
    I k[IPT];
    if (kin) { /* the first pass: the keys, imaged here */
#pragma unroll
      for (int e = 0; e < IPT; e++) {
        const int i = base + 32 * e;
        k[e] = i < rem ? (I)gpux_so_img(key_ld(kin, kbase + i, cv.w), cv.w, cv.cls, cv.flags,
                                        cv.em, cv.mm)
                       : (I)~(I)0;
      }
    } else if (rem == TILE) { /* a whole tile: no bounds (the loads alone) */
#pragma unroll
      for (int e = 0; e < IPT; e++) k[e] = src[base + 32 * e];
    } else {
#pragma unroll
      for (int e = 0; e < IPT; e++) {
        const int i = base + 32 * e;
        k[e] = i < rem ? src[i] : (I)~(I)0;
      }
    }
    /* the tile's digit counts first (CUB's early counts): each warp counts its keys in its
     * row of wh, so the tile publishes them before its ranking, and a later tile's look-back
     * waits on this one's counting only */
#pragma unroll
    for (int e = 0; e < IPT; e++) atomicAdd(&wh[w][(unsigned)(k[e] >> shift) & MASK], 1u);
    __syncthreads();
    /* thread j is digit j from here to the look-back: the warps' counts made exclusive */
    unsigned c = 0;
#pragma unroll
    for (int v = 0; v < NW; v++) {
      const unsigned y = wh[v][j];
      wh[v][j] = c;
      c += y;
    }
    const unsigned creal = j == (int)MASK ? c - (unsigned)(TILE - rem) : c;
    unsigned *mine = lb + g * R + j;
    atomicExch(mine, (t == 0 ? GPUX_SO_LB_P : GPUX_SO_LB_A) | creal);
    /* one scan: the tile's keys of smaller digits (low half: at most TILE, no carry) and
     * the row's (high half, wrapping) */
    const u64 both = block_scan2(((u64)crow << 32) | c, ws);
    const unsigned off = (unsigned)both;
    /* the row's start of digit j in this portion */
    const unsigned rowbase = (unsigned)(both >> 32) + before;
#pragma unroll
    for (int v = 0; v < NW; v++) wh[v][j] += off; /* warp v's first place of digit j */
    __syncthreads();
    /* rank and stage: for e in order, a key's place is its warp's next place of its digit
     * plus its peers of lower lane (eight ballots: cheaper than __match_any_sync, which went
     * through the MIO pipe that the shared-memory traffic already fills); the highest peer
     * moves the warp's place on */
#pragma unroll
    for (int e = 0; e < IPT; e++) {
      const unsigned d = (unsigned)(k[e] >> shift) & MASK;
#if GPUX_SK_MATCH_OR
      /* the peers by one shared OR a key (CUB's WARP_MATCH_ATOMIC_OR): each lane sets its
       * bit in the warp's word of its digit and reads the word back; the highest peer moves
       * the warp's place on and, once every lane has its word (each passed the shuffle
       * with a leader computed from it), clears the word for the next key */
      atomicOr(&mt[w][d], 1u << lane);
      __syncwarp();
      const unsigned peers = mt[w][d];
      const int leader = 31 - __clz(peers);
      unsigned b = 0;
      if (lane == leader) b = atomicAdd(&wh[w][d], (unsigned)__popc(peers));
      b = __shfl_sync(FULL, b, leader);
      if (lane == leader) mt[w][d] = 0u;
      __syncwarp();
#else
      unsigned peers = FULL;
#pragma unroll
      for (int bit = 0; bit < GPUX_SORT_BITS; bit++) {
        const unsigned b = __ballot_sync(FULL, (d >> bit) & 1u);
        peers &= (d >> bit) & 1u ? b : ~b;
      }
      const int leader = 31 - __clz(peers);
      unsigned b = 0;
      if (lane == leader) b = atomicAdd(&wh[w][d], (unsigned)__popc(peers));
      b = __shfl_sync(FULL, b, leader);
#endif
      const unsigned li = b + __popc(peers & lt);
      sk[li] = k[e];
      if (pos_out || pos64) {
        const int i = base + 32 * e;
        sp[li] = pos ? (i < rem ? pos[kbase + i] : 0u) : (unsigned)(k0 + i);
      }
    }
    /* look back over the earlier tiles of the row's portion */
    unsigned excl = 0;
    if (t > 0) {
      const volatile unsigned *prev = lb + (g - 1) * R + j;
      for (;;) {
        unsigned v;
        do {
          v = *prev;
        } while (v == 0u);
        excl += v & GPUX_SO_LB_N;
        if (v & GPUX_SO_LB_P) break;
        prev -= R;
      }
      atomicExch(mine, GPUX_SO_LB_P | (excl + creal));
    }
    /* the last tile of a row's portion: digit j's keys up to here, for the next portion */
    if (t == tpp - 1 && portion + 1 < nportions) cr[(i64)(portion + 1) * npass * R] = before + excl + creal;
    s_gb[j] = rowbase + excl - off;
    __syncthreads();
    /* the last pass: keys back from their images (OUT's) and int64 positions (WIDEN's)
     * straight to the outputs; images only where a later pass reads them */
    const i64 rl = r * len;
    I *dk = im_out ? im_out + rl : nullptr;
    unsigned *dp = pos_out ? pos_out + rl : nullptr;
    if (kout || pos64) { /* the last pass's conversions: a loop not unrolled (registers) */
#pragma unroll 1
      for (int i = j; i < rem; i += T) {
        const I key = sk[i];
        const unsigned dst = s_gb[(int)((key >> shift) & MASK)] + (unsigned)i;
        if (kout)
          key_st(kout, rl + dst, cv.w, gpux_so_unimg((u64)key, cv.w, cv.cls, cv.flags, cv.nan));
        else if (dk)
          dk[dst] = key;
        if (pos64)
          pos64[rl + dst] = (i64)sp[i];
        else if (dp)
          dp[dst] = sp[i];
      }
    } else {
      /* one loop for each set of outputs (the tests of the pointers out of the loop) */
#define GPUX_SK_SCATTER(STORE)                                                     \
  _Pragma("unroll") for (int e = 0; e < IPT; e++) {                                \
    const int i = j + e * T;                                                       \
    if (i < rem) {                                                                 \
      const I key = sk[i];                                                         \
      const unsigned dst = s_gb[(int)((key >> shift) & MASK)] + (unsigned)i;       \
      STORE;                                                                       \
    }                                                                              \
  }
      if (dk && dp) {
        GPUX_SK_SCATTER(dk[dst] = key; dp[dst] = sp[i])
      } else if (dk) {
        GPUX_SK_SCATTER(dk[dst] = key)
      } else if (dp) {
        GPUX_SK_SCATTER(dp[dst] = sp[i])
      }
#undef GPUX_SK_SCATTER
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
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS) gpux_sort_imgh_##dt(       \
      const GPUX_SO_U##w *keys, gpux_sk::img_t<W>::type *img, unsigned *bits, unsigned *counts, \
      long long len, long long hk, long long gpr, long long ngroups, long long pkeys,          \
      int nportions, unsigned flags) {                                                       \
    gpux_sk::imgh<GPUX_SO_U##w, w, W, cls>(keys, img, bits, counts, len, hk, gpr, ngroups,    \
                                           pkeys, nportions, flags,                          \
                                           (unsigned long long)(em),                         \
                                           (unsigned long long)(mm));                        \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS) gpux_sort_out_##dt(        \
      const gpux_sk::img_t<W>::type *img, GPUX_SO_U##w *keys, long long n, unsigned flags) { \
    gpux_sk::out<GPUX_SO_U##w, w, W, cls>(img, keys, n, flags, (unsigned long long)(nan));   \
  }
GPUX_SORT_DTYPES(GPUX_SK_DT)

/* onesweep: four blocks an SM where shared memory allows (sm_80 and later: 4 x 42 KB; the
 * 64-register cap spills a few words). Measured on an H100 (session 44, 2^28 float32): keys
 * 8.84 ms against 9.91 with three blocks (80 registers, no spills), argsort the same, pairs
 * 2% slower */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define GPUX_SK_MINB 4
#else
#define GPUX_SK_MINB 1
#endif
#define GPUX_SK_W(W)                                                                          \
  extern "C" __global__ void __launch_bounds__(GPUX_SORT_THREADS, GPUX_SK_MINB) gpux_sort_onesweep_##W( \
      const gpux_sk::img_t<W>::type *img, const unsigned *pos,                               \
      gpux_sk::img_t<W>::type *img_out, unsigned *pos_out, unsigned *counts,                 \
      unsigned *lb, long long rows, long long len, long long p0, long long plen,             \
      long long tpp, int pass, int npass, int portion, int nportions, const void *kin,       \
      void *kout, long long *pos64, int kw, int kcls, unsigned kflags, unsigned long long em, \
      unsigned long long mm, unsigned long long knan) {                                      \
    gpux_sk::onesweep<W>(img, pos, img_out, pos_out, counts, lb, rows, len, p0, plen, tpp,    \
                         pass, npass, portion, nportions, kin, kout, pos64,                  \
                         gpux_sk::key_cv{kw, kcls, kflags, em, mm, knan});                    \
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
    gpux_sort_widen(const unsigned *pos, long long *out, long long n, long long len) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = pos ? (long long)pos[i] : (long long)gpux_sk::row_pos(i, n, len);
}
