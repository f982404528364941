#include "gpux_kernels.h"
#include "gpux_sort.h"
/* gpux OpenCL kernels, sort family (OpenCL C 1.2; gpux_kernels.h "Sort", the steps in
 * src/api/gpux_backend.h gpux__sort_pass, THE ORDER and the images in gpux_sort.h). Two
 * forms of hist, scatter and local, chosen with the context as reduce.cl's: the GPU form
 * (work-groups of GPUX_SORT_THREADS, described below; what NVIDIA's OpenCL runs) and the
 * CPU form (-DGPUX_CL_CPU=1: a work-item per tile or row, serial loops; see there). img, out
 * and widen are the same in both.
 *
 *   gpux_sort_img_<dt>(global const K *keys, global I *img, global uint *pos,
 *       global uint *bits, long n, long len, uint flags)
 *   gpux_sort_out_<dt>(global const I *img, global K *keys, long n, uint flags)
 *   gpux_sort_hist_<W>(global const I *img, global int *counts, long len, long ntiles,
 *       int shift, long ngroups)
 *   gpux_sort_scatter_<W>(global const I *img, global const uint *pos,
 *       global const long *offs, global I *img_out, global uint *pos_out, long len,
 *       long ntiles, int shift, long ngroups)
 *   gpux_sort_local_<W>(global const I *img, global const uint *pos, global I *img_out,
 *       global uint *pos_out, long len, long ngroups)
 *   gpux_sort_widen(global const uint *pos, global long *out, long n)
 * Keys-only sorts carry no positions: pos and pos_out are NULL then (the kernels test them;
 * equal images are equal bits there, so nothing needs a tie-break).
 * K: the key's unsigned type of w bits; I: uint (W 32) or ulong (W 64). Every buffer
 * argument is followed by its offset in elements (long; left out above), which the kernel
 * adds first.
 *
 * Elementwise kernels (img, out, widen) loop with a stride of the global size. The tiled
 * kernels loop over their ngroups groups g (rows * ntiles: row g / ntiles, tile g % ntiles;
 * local: rows, row g) with a stride of the number of work-groups.
 *
 * scatter's stable ranking: the tile (GPUX_SORT_TILE keys, work-item j holding keys 4j ..
 * 4j+3; keys past the row's end padded with the all-ones digit, so they stay last) is
 * sorted by its digit in local memory by GPUX_SORT_BITS stable one-bit splits (a
 * work-group scan of the ones per split); the first key of each digit in the sorted tile
 * gives the digit's start, and each key goes to offs[r][d][t] + (its index - start[d]). */

#define GPUX_SK_T GPUX_SORT_THREADS
#define GPUX_SK_IT (GPUX_SORT_TILE / GPUX_SORT_THREADS)
#define GPUX_SK_MASK (GPUX_SORT_RADIX - 1)
/* the tiled kernels' loop over their ngroups groups (any 1-d grid of GPUX_SORT_THREADS) */
#define GPUX_SK_GROUPS \
  for (long g = (long)get_group_id(0); g < ngroups; g += (long)get_num_groups(0))
/* a buffer argument and its offset in elements */
#define GPUX_SK_P(T, x) __global T *x, long x##_off
#define GPUX_SK_I_32 uint
#define GPUX_SK_I_64 ulong
#define GPUX_SK_ONES_32 0xffffffffu
#define GPUX_SK_ONES_64 0xffffffffffffffffUL

/* the position of key i within its row: no division for one row, a 32-bit one below 2^32 */
#define GPUX_SK_POS(i, n, len)                                                                 \
  ((len) == (n) ? (uint)(i) : (n) <= 0xffffffffL ? (uint)(i) % (uint)(len) : (uint)((i) % (len)))

/* ---- img and out, per dtype */
#define GPUX_SK_DT(dt, w, W, cls, em, mm, nan)                                                 \
  __kernel void gpux_sort_img_##dt(__global const GPUX_SO_U##w *keys, long keys_off,          \
                                   GPUX_SK_P(GPUX_SK_I_##W, img), GPUX_SK_P(uint, pos),       \
                                   GPUX_SK_P(uint, bits), long n, long len, uint flags) {     \
    img += img_off;                                                                           \
    pos += pos_off;                                                                           \
    bits += bits_off;                                                                         \
    __local uint lb[4];                                                                       \
    const int j = (int)get_local_id(0);                                                       \
    if (j == 0) {                                                                             \
      lb[0] = 0u;                                                                             \
      lb[1] = 0u;                                                                             \
      lb[2] = 0xffffffffu;                                                                    \
      lb[3] = 0xffffffffu;                                                                    \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    ulong o = 0, a = ~0UL;                                                                    \
    for (long i = (long)get_global_id(0); i < n; i += (long)get_global_size(0)) {             \
      const ulong k = gpux_so_img((ulong)keys[keys_off + i], w, cls, flags, (ulong)(em),      \
                                  (ulong)(mm));                                               \
      img[i] = (GPUX_SK_I_##W)k;                                                              \
      if (pos) pos[i] = GPUX_SK_POS(i, n, len);                                               \
      o |= k;                                                                                 \
      a &= k;                                                                                 \
    }                                                                                         \
    atomic_or(&lb[0], (uint)o);                                                               \
    atomic_or(&lb[1], (uint)(o >> 32));                                                       \
    atomic_and(&lb[2], (uint)a);                                                              \
    atomic_and(&lb[3], (uint)(a >> 32));                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    if (j == 0) {                                                                             \
      atomic_or(&bits[0], lb[0]);                                                             \
      atomic_or(&bits[1], lb[1]);                                                             \
      atomic_and(&bits[2], lb[2]);                                                            \
      atomic_and(&bits[3], lb[3]);                                                            \
    }                                                                                         \
  }                                                                                           \
  __kernel void gpux_sort_out_##dt(GPUX_SK_P(const GPUX_SK_I_##W, img),                      \
                                   __global GPUX_SO_U##w *keys, long keys_off, long n,       \
                                   uint flags) {                                              \
    img += img_off;                                                                           \
    for (long i = (long)get_global_id(0); i < n; i += (long)get_global_size(0))               \
      keys[keys_off + i] =                                                                    \
          (GPUX_SO_U##w)gpux_so_unimg((ulong)img[i], w, cls, flags, (ulong)(nan));            \
  }
GPUX_SORT_DTYPES(GPUX_SK_DT)

__kernel void gpux_sort_widen(GPUX_SK_P(const uint, pos), __global long *out, long out_off,
                              long n) {
  pos += pos_off;
  for (long i = (long)get_global_id(0); i < n; i += (long)get_global_size(0))
    out[out_off + i] = (long)pos[i];
}

#ifndef GPUX_CL_CPU
/* ---------------------------------------------------------------- GPU form */
/* exclusive scan of v over the work-group (Hillis-Steele in sa / sb); returns the prefix of
 * j, *total the sum */
static inline int gpux_sk_scan(int v, __local int *sa, __local int *sb, int *total) {
  const int j = (int)get_local_id(0);
  sa[j] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int *from = sa, *to = sb;
  for (int off = 1; off < GPUX_SK_T; off <<= 1) {
    to[j] = j >= off ? from[j - off] + from[j] : from[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int *t = from;
    from = to;
    to = t;
  }
  *total = from[GPUX_SK_T - 1];
  const int r = from[j] - v;
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}

#define GPUX_SK_W(W)                                                                           \
  __kernel void gpux_sort_hist_##W(GPUX_SK_P(const GPUX_SK_I_##W, img),                     \
                                   GPUX_SK_P(int, counts), long len, long ntiles, int shift,  \
                                   long ngroups) {                                              \
    img += img_off;                                                                           \
    counts += counts_off;                                                                     \
    __local int h[GPUX_SORT_RADIX];                                                           \
    const int j = (int)get_local_id(0);                                                       \
    GPUX_SK_GROUPS {                                                                          \
    const long r = g / ntiles, t = g - r * ntiles;                                            \
    for (int d = j; d < GPUX_SORT_RADIX; d += GPUX_SK_T) h[d] = 0;                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    const long t0 = t * GPUX_SORT_TILE;                                                       \
    const int rem = (int)(len - t0 < GPUX_SORT_TILE ? len - t0 : GPUX_SORT_TILE);            \
    __global const GPUX_SK_I_##W *row = img + r * len + t0;                                   \
    for (int i = j; i < rem; i += GPUX_SK_T)                                                  \
      atomic_inc(&h[(int)((row[i] >> shift) & GPUX_SK_MASK)]);                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (int d = j; d < GPUX_SORT_RADIX; d += GPUX_SK_T)                                      \
      counts[(r * GPUX_SORT_RADIX + d) * ntiles + t] = h[d];                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    }                                                                                         \
  }                                                                                           \
  __kernel void gpux_sort_scatter_##W(                                                        \
      GPUX_SK_P(const GPUX_SK_I_##W, img), GPUX_SK_P(const uint, pos),                         \
      GPUX_SK_P(const long, offs), GPUX_SK_P(GPUX_SK_I_##W, img_out), GPUX_SK_P(uint, pos_out), \
      long len, long ntiles, int shift, long ngroups) {                                         \
    img += img_off;                                                                           \
    pos += pos_off;                                                                           \
    offs += offs_off;                                                                         \
    img_out += img_out_off;                                                                   \
    pos_out += pos_out_off;                                                                   \
    __local GPUX_SK_I_##W ki[2][GPUX_SORT_TILE];                                              \
    __local uint pi[2][GPUX_SORT_TILE];                                                       \
    __local int sa[GPUX_SK_T], sb[GPUX_SK_T], start[GPUX_SORT_RADIX];                         \
    const int j = (int)get_local_id(0);                                                       \
    GPUX_SK_GROUPS {                                                                          \
    const long r = g / ntiles, t = g - r * ntiles;                                            \
    const long t0 = t * GPUX_SORT_TILE;                                                       \
    const int rem = (int)(len - t0 < GPUX_SORT_TILE ? len - t0 : GPUX_SORT_TILE);            \
    __global const GPUX_SK_I_##W *row = img + r * len + t0;                                   \
    __global const uint *prow = pos + r * len + t0;                                           \
    for (int i = j; i < GPUX_SORT_TILE; i += GPUX_SK_T) {                                     \
      ki[0][i] = i < rem ? row[i] : GPUX_SK_ONES_##W;                                         \
      pi[0][i] = i < rem && pos ? prow[i] : 0u;                                               \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    int cur = 0;                                                                              \
    for (int b = 0; b < GPUX_SORT_BITS; b++, cur ^= 1) {                                      \
      GPUX_SK_I_##W k[GPUX_SK_IT];                                                            \
      uint p[GPUX_SK_IT];                                                                     \
      int ones = 0;                                                                           \
      for (int e = 0; e < GPUX_SK_IT; e++) {                                                  \
        k[e] = ki[cur][GPUX_SK_IT * j + e];                                                   \
        p[e] = pi[cur][GPUX_SK_IT * j + e];                                                   \
        ones += (int)((k[e] >> (shift + b)) & 1);                                             \
      }                                                                                       \
      int total;                                                                              \
      int before = gpux_sk_scan(ones, sa, sb, &total);                                        \
      const int zeros = GPUX_SORT_TILE - total;                                               \
      for (int e = 0; e < GPUX_SK_IT; e++) {                                                  \
        const int i = GPUX_SK_IT * j + e;                                                     \
        int dst;                                                                              \
        if ((k[e] >> (shift + b)) & 1) {                                                      \
          dst = zeros + before;                                                               \
          before++;                                                                           \
        } else {                                                                              \
          dst = i - before;                                                                   \
        }                                                                                     \
        ki[cur ^ 1][dst] = k[e];                                                              \
        pi[cur ^ 1][dst] = p[e];                                                              \
      }                                                                                       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    }                                                                                         \
    /* the first index of each digit in the sorted tile */                                    \
    for (int i = j; i < rem; i += GPUX_SK_T) {                                                \
      const int d = (int)((ki[cur][i] >> shift) & GPUX_SK_MASK);                              \
      if (i == 0 || d != (int)((ki[cur][i - 1] >> shift) & GPUX_SK_MASK)) start[d] = i;       \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    __global const long *orow = offs + r * GPUX_SORT_RADIX * ntiles + t;                      \
    for (int i = j; i < rem; i += GPUX_SK_T) {                                                \
      const GPUX_SK_I_##W k = ki[cur][i];                                                     \
      const int d = (int)((k >> shift) & GPUX_SK_MASK);                                       \
      const long dst = r * len + orow[(long)d * ntiles] + (i - start[d]);                     \
      img_out[dst] = k;                                                                       \
      if (pos_out) pos_out[dst] = pi[cur][i];                                                 \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    }                                                                                         \
  }                                                                                           \
  __kernel void gpux_sort_local_##W(                                                          \
      GPUX_SK_P(const GPUX_SK_I_##W, img), GPUX_SK_P(const uint, pos),                         \
      GPUX_SK_P(GPUX_SK_I_##W, img_out), GPUX_SK_P(uint, pos_out), long len, long ngroups) {     \
    img += img_off;                                                                           \
    pos += pos_off;                                                                           \
    img_out += img_out_off;                                                                   \
    pos_out += pos_out_off;                                                                   \
    __local GPUX_SK_I_##W ki[GPUX_SORT_LOCAL_MAX];                                            \
    __local uint pi[GPUX_SORT_LOCAL_MAX];                                                     \
    const int j = (int)get_local_id(0);                                                       \
    const int n = (int)len;                                                                   \
    GPUX_SK_GROUPS {                                                                          \
    const long r = g;                                                                         \
    int np = 1;                                                                               \
    while (np < n) np <<= 1;                                                                  \
    for (int i = j; i < np; i += GPUX_SK_T) {                                                 \
      ki[i] = i < n ? img[r * len + i] : GPUX_SK_ONES_##W;                                    \
      pi[i] = i < n && pos ? pos[r * len + i] : 0xffffffffu;                                  \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (int kk = 2; kk <= np; kk <<= 1)                                                      \
      for (int jj = kk >> 1; jj > 0; jj >>= 1) {                                              \
        for (int i = j; i < (np >> 1); i += GPUX_SK_T) {                                      \
          const int lo = 2 * jj * (i / jj) + (i % jj), hi = lo + jj;                          \
          const int up = (lo & kk) == 0;                                                      \
          const GPUX_SK_I_##W a = ki[lo], c = ki[hi];                                         \
          const uint pa = pi[lo], pc = pi[hi];                                                \
          const int gt = a > c || (a == c && pa > pc);                                        \
          if (gt == up) {                                                                     \
            ki[lo] = c;                                                                       \
            ki[hi] = a;                                                                       \
            pi[lo] = pc;                                                                      \
            pi[hi] = pa;                                                                      \
          }                                                                                   \
        }                                                                                     \
        barrier(CLK_LOCAL_MEM_FENCE);                                                         \
      }                                                                                       \
    for (int i = j; i < n; i += GPUX_SK_T) {                                                  \
      img_out[r * len + i] = ki[i];                                                           \
      if (pos_out) pos_out[r * len + i] = pi[i];                                              \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    }                                                                                         \
  }
#else
/* ---------------------------------------------------------------- CPU form
 * (-DGPUX_CL_CPU=1: pocl) one work-item per tile (hist, scatter) or per row (local), serial
 * loops over its keys, no barriers; any work-group size, work-items past ngroups idle. */
#define GPUX_SK_CPU_G()                                                                        \
  const long g = (long)get_global_id(0);                                                      \
  if (g >= ngroups) return;
#define GPUX_SK_W(W)                                                                           \
  __kernel void gpux_sort_hist_##W(GPUX_SK_P(const GPUX_SK_I_##W, img),                     \
                                   GPUX_SK_P(int, counts), long len, long ntiles, int shift,  \
                                   long ngroups) {                                            \
    GPUX_SK_CPU_G()                                                                           \
    img += img_off;                                                                           \
    counts += counts_off;                                                                     \
    int h[GPUX_SORT_RADIX];                                                                   \
    for (int d = 0; d < GPUX_SORT_RADIX; d++) h[d] = 0;                                       \
    const long r = g / ntiles, t = g - r * ntiles, t0 = t * GPUX_SORT_TILE;                   \
    const int rem = (int)(len - t0 < GPUX_SORT_TILE ? len - t0 : GPUX_SORT_TILE);            \
    __global const GPUX_SK_I_##W *row = img + r * len + t0;                                   \
    for (int i = 0; i < rem; i++) h[(int)((row[i] >> shift) & GPUX_SK_MASK)]++;               \
    for (int d = 0; d < GPUX_SORT_RADIX; d++)                                                 \
      counts[(r * GPUX_SORT_RADIX + d) * ntiles + t] = h[d];                                  \
  }                                                                                           \
  __kernel void gpux_sort_scatter_##W(                                                        \
      GPUX_SK_P(const GPUX_SK_I_##W, img), GPUX_SK_P(const uint, pos),                         \
      GPUX_SK_P(const long, offs), GPUX_SK_P(GPUX_SK_I_##W, img_out), GPUX_SK_P(uint, pos_out), \
      long len, long ntiles, int shift, long ngroups) {                                       \
    GPUX_SK_CPU_G()                                                                           \
    img += img_off;                                                                           \
    pos += pos_off;                                                                           \
    offs += offs_off;                                                                         \
    img_out += img_out_off;                                                                   \
    pos_out += pos_out_off;                                                                   \
    long c[GPUX_SORT_RADIX];                                                                  \
    const long r = g / ntiles, t = g - r * ntiles, t0 = t * GPUX_SORT_TILE;                   \
    const int rem = (int)(len - t0 < GPUX_SORT_TILE ? len - t0 : GPUX_SORT_TILE);            \
    __global const long *orow = offs + r * GPUX_SORT_RADIX * ntiles + t;                      \
    for (int d = 0; d < GPUX_SORT_RADIX; d++) c[d] = r * len + orow[(long)d * ntiles];        \
    __global const GPUX_SK_I_##W *row = img + r * len + t0;                                   \
    __global const uint *prow = pos + r * len + t0;                                           \
    for (int i = 0; i < rem; i++) {                                                           \
      const GPUX_SK_I_##W k = row[i];                                                         \
      const long dst = c[(int)((k >> shift) & GPUX_SK_MASK)]++;                               \
      img_out[dst] = k;                                                                       \
      if (pos_out) pos_out[dst] = prow[i];                                                    \
    }                                                                                         \
  }                                                                                           \
  /* a serial LSD radix sort of the row, between img / pos (the front end's temporaries,     \
     written here) and img_out / pos_out; digits of one value are skipped */                  \
  __kernel void gpux_sort_local_##W(                                                          \
      GPUX_SK_P(GPUX_SK_I_##W, img), GPUX_SK_P(uint, pos),                                     \
      GPUX_SK_P(GPUX_SK_I_##W, img_out), GPUX_SK_P(uint, pos_out), long len, long ngroups) {   \
    GPUX_SK_CPU_G()                                                                           \
    __global GPUX_SK_I_##W *ka = img + img_off + g * len, *kb = img_out + img_out_off + g * len; \
    __global uint *pa = pos ? pos + pos_off + g * len : 0;                                    \
    __global uint *pb = pos ? pos_out + pos_out_off + g * len : 0;                            \
    const int n = (int)len;                                                                   \
    int c[GPUX_SORT_RADIX];                                                                   \
    for (int shift = 0; shift < W; shift += GPUX_SORT_BITS) {                                 \
      for (int d = 0; d < GPUX_SORT_RADIX; d++) c[d] = 0;                                     \
      for (int i = 0; i < n; i++) c[(int)((ka[i] >> shift) & GPUX_SK_MASK)]++;                \
      if (c[(int)((ka[0] >> shift) & GPUX_SK_MASK)] == n) continue;                           \
      int sum = 0;                                                                            \
      for (int d = 0; d < GPUX_SORT_RADIX; d++) {                                             \
        const int x = c[d];                                                                   \
        c[d] = sum;                                                                           \
        sum += x;                                                                             \
      }                                                                                       \
      for (int i = 0; i < n; i++) {                                                           \
        const int dst = c[(int)((ka[i] >> shift) & GPUX_SK_MASK)]++;                          \
        kb[dst] = ka[i];                                                                      \
        if (pa) pb[dst] = pa[i];                                                              \
      }                                                                                       \
      __global GPUX_SK_I_##W *kt = ka;                                                        \
      ka = kb;                                                                                \
      kb = kt;                                                                                \
      __global uint *pt = pa;                                                                 \
      pa = pb;                                                                                \
      pb = pt;                                                                                \
    }                                                                                         \
    if (ka != img_out + img_out_off + g * len)                                                \
      for (int i = 0; i < n; i++) {                                                           \
        kb[i] = ka[i];                                                                        \
        if (pa) pb[i] = pa[i];                                                                \
      }                                                                                       \
  }
#endif
GPUX_SK_W(32)
GPUX_SK_W(64)
