#include "gpux_kernels.h"
#include "gpux_sort.h"
/* gpux OpenCL kernels, sort family (OpenCL C 1.2; gpux_kernels.h "Sort", the steps in
 * src/api/gpux_backend.h gpux__sort_pass, THE ORDER and the images in gpux_sort.h). Two
 * forms of imgh, onesweep and local, chosen with the context as reduce.cl's: the GPU form
 * (work-groups of GPUX_SORT_THREADS, described below; what NVIDIA's OpenCL runs; the same
 * data layout as kernels/cuda/sort.cu) and the CPU form (-DGPUX_CL_CPU=1: a work-item per
 * group, tile or row, serial loops; see there). img, out and widen are the same in both.
 *
 *   gpux_sort_img_<dt>(global const K *keys, global I *img, global uint *pos,
 *       global uint *bits, long n, long len, uint flags)
 *   gpux_sort_imgh_<dt>(global const K *keys, global I *img (NULL: none), global uint *bits,
 *       global uint *counts, long len, long hk, long gpr, long ngroups, int nportions,
 *       long pkeys, uint flags)
 *   gpux_sort_out_<dt>(global const I *img, global K *keys, long n, uint flags)
 *   gpux_sort_onesweep_<W>(global const I *img, global const uint *pos, global I *img_out,
 *       global uint *pos_out, global const uint *counts, global uint *lb, long len,
 *       long rows, long p0, long plen, long tpp, int pass, int npass, int portion,
 *       int nportions, global const uchar *kin, global uchar *kout, global long *pos64,
 *       int kw, int kcls, uint kflags, ulong em, ulong mm, ulong knan)
 *     (kin / kout / pos64: gpux__sort_pass's fused ends, NULL when unused, their offsets in
 *     elements of the key dtype / long; kw ... nan: the key dtype's row of GPUX_SORT_DTYPES
 *     and the sort's flags, for gpux_so_img / unimg)
 *   gpux_sort_local_<W>(global const I *img, global const uint *pos, global I *img_out,
 *       global uint *pos_out, long len, long ngroups)
 *   gpux_sort_widen(global const uint *pos, global long *out, long n, long len)
 * Keys-only sorts carry no positions: pos and pos_out are NULL then (the kernels test them;
 * equal images are equal bits there, so nothing needs a tie-break); onesweep's pos NULL with
 * pos_out given makes the positions (the first pass), widen's pos NULL writes i % len.
 * K: the key's unsigned type of w bits; I: uint (W 32) or ulong (W 64). Every buffer
 * argument is followed by its offset in elements (long; left out above), which the kernel
 * adds first.
 *
 * Elementwise kernels (img, out, widen) loop with a stride of the global size. imgh and local
 * loop over their ngroups groups with a stride of the number of work-groups; onesweep's
 * work-groups take tile ids from the counter lb[rows * tpp * RADIX] until none is left (ids
 * are handed out in launch order, so every earlier tile of a row has started: the look-back
 * waits only on running work).
 *
 * onesweep's tile (GPU form): TILE = GPUX_SORT_TILE(W) keys, "warp-striped": work-item j is
 * lane l = j % 32 of warp w = j / 32, and its key e (0 .. IPT - 1) is key w * 32 * IPT +
 * e * 32 + l of the tile (coalesced loads); keys past the portion's end are the all-ones
 * image (digit 255, last in the tile's order, never written, and left out of the counts it
 * publishes). Each warp counts its keys' digits first (early counts); the tile's counts are
 * published to the look-back words (gpux_sort.h GPUX_SO_LB_*) at once, and the warps' counts
 * scanned give each warp its first place of each digit (wh[w][d]) in the tile sorted by
 * digit. Each warp then ranks its keys stably, element by element (GPUX_SK_RANK: the next
 * place of the key's digit plus the lanes below it of the same digit), staging each key at
 * its place in local memory; each digit's count in the earlier tiles of its row's portion is
 * read back and the keys are written where the counts place them (runs of a digit are
 * contiguous). */

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

/* a work-group's OR / AND of its images (o, a: each work-item's) into bits, through lb (4
 * words of local memory set to 0, 0, ~0, ~0 before a barrier); every work-item calls it */
static inline void gpux_sk_bits_flush(__local uint *lb, __global uint *bits, ulong o, ulong a,
                                      int j) {
  atomic_or(&lb[0], (uint)o);
  atomic_or(&lb[1], (uint)(o >> 32));
  atomic_and(&lb[2], (uint)a);
  atomic_and(&lb[3], (uint)(a >> 32));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (j == 0) {
    atomic_or(&bits[0], lb[0]);
    atomic_or(&bits[1], lb[1]);
    atomic_and(&bits[2], lb[2]);
    atomic_and(&bits[3], lb[3]);
  }
}

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
    gpux_sk_bits_flush(lb, bits, o, a, j);                                                \
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
                              long n, long len) {
  pos += pos_off;
  for (long i = (long)get_global_id(0); i < n; i += (long)get_global_size(0))
    out[out_off + i] = pos ? (long)pos[i] : (long)GPUX_SK_POS(i, n, len);
}

/* ---- onesweep's pieces, both forms */
/* a look-back word read with an atomic (any work-group may be writing it) */
#define GPUX_SK_LOAD(p) atomic_or((p), 0u)

/* The count of digit d in the tiles before tile g (its index t in its row's portion) of
 * the portion, read back over lb; then tile g's word made P | that + c (c: its own count).
 * The caller has published A | c already when t > 0. Only earlier tiles are waited on, and
 * tile 0 of the row always publishes P, so the walk ends. */
static inline uint gpux_sk_lookback(__global uint *lb, long g, long t, int d, uint c) {
  if (t == 0) return 0u;
  uint excl = 0u;
  for (long k = g - 1;;) {
    const uint v = GPUX_SK_LOAD(lb + k * GPUX_SORT_RADIX + d);
    if (!v) continue; /* not published yet */
    excl += v & GPUX_SO_LB_N;
    if (v & GPUX_SO_LB_P) break;
    k--;
  }
  atomic_xchg(lb + g * GPUX_SORT_RADIX + d, GPUX_SO_LB_P | (excl + c));
  return excl;
}

/* digit d of row r in this pass (counts: see gpux__sort_pass): the row's keys of the digit
 * (slot 0, imgh's; returned) and those in the portions before `portion` of this pass's input
 * (*before: slot `portion`, written by the previous portion's launch; none for portion 0) */
static inline uint gpux_sk_row_count(__global const uint *counts, long r, int pass, int npass,
                                     int portion, int nportions, int d, uint *before) {
  __global const uint *c = counts + (r * nportions * npass + pass) * GPUX_SORT_RADIX + d;
  *before = portion ? c[(long)portion * npass * GPUX_SORT_RADIX] : 0u;
  return c[0];
}
/* the last tile of a row's portion: the keys of digit d in the portions up to this one (inc:
 * this portion's), for the next portion's launch */
static inline void gpux_sk_carry(__global uint *counts, long r, int pass, int npass,
                                 int portion, int nportions, int d, uint before, uint inc) {
  if (portion + 1 < nportions)
    counts[((r * nportions + portion + 1) * npass + pass) * GPUX_SORT_RADIX + d] = before + inc;
}

/* onesweep's fused ends: a key of w bits read at i (the first pass, in place of its image)
 * and written back (the last pass) */
static inline ulong gpux_sk_kld(__global const uchar *p, long i, int w) {
  switch (w) {
  case 8: return p[i];
  case 16: return ((__global const ushort *)p)[i];
  case 32: return ((__global const uint *)p)[i];
  default: return ((__global const ulong *)p)[i];
  }
}
static inline void gpux_sk_kst(__global uchar *p, long i, int w, ulong v) {
  switch (w) {
  case 8: p[i] = (uchar)v; break;
  case 16: ((__global ushort *)p)[i] = (ushort)v; break;
  case 32: ((__global uint *)p)[i] = (uint)v; break;
  default: ((__global ulong *)p)[i] = v;
  }
}
/* key i of the tile at row offset kb: from the keys (kin) or the images (row) */
#define GPUX_SK_LDK(W, i)                                                                     \
  (kin ? (GPUX_SK_I_##W)gpux_so_img(gpux_sk_kld(kin, kb + (i), kw), kw, kcls, kflags, em, mm) \
       : row[i])
/* key x (an image) to place dst of the row at rl: the keys, or the images; position v */
#define GPUX_SK_STK(x, dst, v)                                                                \
  do {                                                                                        \
    if (kout)                                                                                 \
      gpux_sk_kst(kout, (dst), kw, gpux_so_unimg((ulong)(x), kw, kcls, kflags, knan));          \
    else if (img_out)                                                                         \
      img_out[dst] = (x);                                                                     \
    if (pos64)                                                                                \
      pos64[dst] = (long)(v);                                                                 \
    else if (pos_out)                                                                         \
      pos_out[dst] = (v);                                                                     \
  } while (0)

#define GPUX_SK_OS_ARGS(W)                                                                    \
  GPUX_SK_P(const GPUX_SK_I_##W, img), GPUX_SK_P(const uint, pos),                            \
      GPUX_SK_P(GPUX_SK_I_##W, img_out), GPUX_SK_P(uint, pos_out),                            \
      GPUX_SK_P(uint, counts), GPUX_SK_P(uint, lb), long len, long rows, long p0,       \
      long plen, long tpp, int pass, int npass, int portion, int nportions,                 \
      GPUX_SK_P(const uchar, kin), GPUX_SK_P(uchar, kout), GPUX_SK_P(long, pos64), int kw,   \
      int kcls, uint kflags, ulong em, ulong mm, ulong knan
#define GPUX_SK_OS_OFFS()                                                                     \
  img += img_off;                                                                             \
  pos += pos_off;                                                                             \
  img_out += img_out_off;                                                                     \
  pos_out += pos_out_off;                                                                     \
  counts += counts_off;                                                                       \
  lb += lb_off;                                                                               \
  kin += kin_off * (kw / 8);                                                                  \
  kout += kout_off * (kw / 8);                                                                \
  pos64 += pos64_off;
#define GPUX_SK_IMGH_ARGS(w, W)                                                               \
  __global const GPUX_SO_U##w *keys, long keys_off, GPUX_SK_P(GPUX_SK_I_##W, img),            \
      GPUX_SK_P(uint, bits), GPUX_SK_P(uint, counts), long len, long hk, long gpr,            \
      long ngroups, int nportions, long pkeys, uint flags
/* imgh counts the passes of the key's own bits only: the higher digits of a zero-extended
 * image are all 0, never vary, and so are never sorted by (their counts stay 0) */
#define GPUX_SK_NPASS(w) (((w) + 7) / 8)
/* imgh's key i of row r: k, its image, stored, and into the OR / AND (o, a) */
#define GPUX_SK_IMGH_KEY(w, W, cls, em, mm)                                                   \
  const ulong k =                                                                             \
      gpux_so_img((ulong)keys[r * len + i], w, cls, flags, (ulong)(em), (ulong)(mm));        \
  if (img) img[r * len + i] = (GPUX_SK_I_##W)k; /* none: the first pass images the keys */ \
  o |= k;                                                                                     \
  a &= k;
/* the count of pass ps's digit of image k (counts[r][0][ps][digit]) */
#define GPUX_SK_IMGH_BIN(k, ps) ((ps) * GPUX_SORT_RADIX + (int)(((k) >> (8 * (ps))) & GPUX_SK_MASK))

#ifndef GPUX_CL_CPU
/* ---------------------------------------------------------------- GPU form */
/* NVIDIA's warp votes: the peers by local ORs (1) or eight ballots (0). Session 44, H100,
 * 2^28: sort float32 keys 11.28 -> 10.63 ms, int32 pairs 15.51 -> 14.96, unique int64 13.29
 * -> 12.87, every result checked by gpux-bench */
#ifndef GPUX_CL_NV_MATCH_OR
#define GPUX_CL_NV_MATCH_OR 1
#endif
/* exclusive scan of v over the work-group (Hillis-Steele in sa / sb; NVIDIA's OpenCL: warp
 * shuffles, below); returns the prefix of j. onesweep scans two 32-bit sums at once (the low
 * halves never carry; the high ones wrap): one scan's barriers for both. */
#ifndef GPUX_CL_NV_WARP
static inline ulong gpux_sk_scan(ulong v, __local ulong *sa, __local ulong *sb) {
  const int j = (int)get_local_id(0);
  sa[j] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local ulong *from = sa, *to = sb;
  for (int off = 1; off < GPUX_SK_T; off <<= 1) {
    to[j] = j >= off ? from[j - off] + from[j] : from[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local ulong *t = from;
    from = to;
    to = t;
  }
  const ulong r = from[j] - v;
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
#endif

/* the 32-bit mask of the lanes of warp w (its 32 digit bytes in db, four a word, lane 4q + b
 * in byte b of word q: little-endian devices) whose digit is d: an exact zero-byte test of
 * each word ^ d's bytes (no borrow crosses bytes), each byte's flag moved to bit 4q + b */
static inline uint gpux_sk_match(__local const uint *db, int w, uint d) {
  const uint dd = d * 0x01010101u;
  uint m = 0u;
  for (int q = 0; q < 8; q++) {
    const uint y = db[w * 8 + q] ^ dd;
    uint z = ~(((y & 0x7f7f7f7fu) + 0x7f7f7f7fu) | y) & 0x80808080u; /* 0x80: a zero byte */
    z >>= 7;
    z = (z | (z >> 7) | (z >> 14) | (z >> 21)) & 15u;
    m |= z << (4 * q);
  }
  return m;
}

/* One element of a warp's stable ranking (the onesweep below): pl, the place of the key of
 * digit d held by lane l of warp w, is the warp's next place of d (wh[w][d]) plus the lanes
 * below l of the same digit; the highest lane of d moves wh[w][d] on by their number.
 * NVIDIA's OpenCL (-DGPUX_CL_NV_WARP=1, where cl_sort.c's probe builds): the lanes of the
 * same digit from eight warp votes in inline PTX, as sort.cu finds them, with no barrier;
 * elsewhere (OpenCL 1.2 has no warp primitives): the warp's 32 digit bytes in local memory,
 * two barriers an element. */
#ifdef GPUX_CL_NV_WARP
static inline uint gpux_sk_ballot(uint p) {
  uint r;
  __asm__ __volatile__("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\t"
                       "vote.sync.ballot.b32 %0, q, 0xffffffff;\n\t}"
                       : "=r"(r)
                       : "r"(p));
  return r;
}
static inline uint gpux_sk_shfl(uint v, uint src) {
  uint r;
  __asm__ __volatile__("shfl.sync.idx.b32 %0, %1, %2, 31, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src));
  return r;
}
static inline uint gpux_sk_rank(__local uint *whw, uint d, int l) {
  uint peers = 0xffffffffu;
  for (int bit = 0; bit < GPUX_SORT_BITS; bit++) {
    const uint b = gpux_sk_ballot((d >> bit) & 1u);
    peers &= ((d >> bit) & 1u) ? b : ~b;
  }
  const int leader = 31 - (int)clz(peers);
  uint b = 0u;
  if (l == leader) b = atomic_add(&whw[d], popcount(peers));
  b = gpux_sk_shfl(b, (uint)leader);
  return b + popcount(peers & ((1u << l) - 1u));
}
#if GPUX_CL_NV_MATCH_OR
/* the peers by one local OR a key (sort.cu's GPUX_SK_MATCH_OR): the lanes set their bits in
 * the warp's word of their digit (mt, zero between keys), read it back after a warp
 * barrier; the highest peer clears it once every lane has passed the shuffle */
static inline void gpux_sk_warpsync(void) { __asm__ __volatile__("bar.warp.sync -1;" ::: "memory"); }
static inline uint gpux_sk_rank_or(__local uint *whw, __local uint *mtw, uint d, int l) {
  atomic_or(&mtw[d], 1u << l);
  gpux_sk_warpsync();
  const uint peers = mtw[d];
  const int leader = 31 - (int)clz(peers);
  uint b = 0u;
  if (l == leader) b = atomic_add(&whw[d], popcount(peers));
  b = gpux_sk_shfl(b, (uint)leader);
  __asm__ __volatile__("" ::: "memory"); /* the clear stays after the shuffle */
  if (l == leader) mtw[d] = 0u;
  gpux_sk_warpsync();
  return b + popcount(peers & ((1u << l) - 1u));
}
#define GPUX_SK_RANK(pl, d) const uint pl = gpux_sk_rank_or(wh[w], mt[w], (d), l)
#define GPUX_SK_MT                                                                            \
  __local uint mt[GPUX_SK_T / 32][GPUX_SORT_RADIX];                                           \
  for (int i = l; i < GPUX_SORT_RADIX; i += 32) mt[w][i] = 0u;
#else
#define GPUX_SK_RANK(pl, d) const uint pl = gpux_sk_rank(wh[w], (d), l)
#endif
static inline uint gpux_sk_shfl_up(uint v, uint delta) {
  uint r;
  __asm__ __volatile__("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
  return r;
}
/* the scan above as sort.cu's block_scan2: each warp by shuffles (the two halves of the
 * 64-bit sum apart), the eight warps' totals through sa (sb unused); two barriers, not ten */
static inline ulong gpux_sk_scan(ulong v, __local ulong *sa, __local ulong *sb) {
  (void)sb;
  const int j = (int)get_local_id(0), l = j & 31, w = j >> 5;
  ulong x = v;
  for (uint o = 1; o < 32; o <<= 1) {
    const uint lo = gpux_sk_shfl_up((uint)x, o), hi = gpux_sk_shfl_up((uint)(x >> 32), o);
    if (l >= (int)o) x += ((ulong)hi << 32) | lo;
  }
  if (l == 31) sa[w] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong before = 0;
  for (int u = 0; u < w; u++) before += sa[u];
  barrier(CLK_LOCAL_MEM_FENCE); /* sa is written by the next scan */
  return before + x - v;
}
#else
#define GPUX_SK_RANK(pl, d)                                                                   \
  ((__local uchar *)db)[j] = (uchar)(d);                                                      \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  const uint m_##pl = gpux_sk_match(db, w, (d));                                              \
  const uint pl = wh[w][d] + popcount(m_##pl & ((1u << l) - 1u));                             \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  if (31 - (int)clz(m_##pl) == l) wh[w][d] += popcount(m_##pl)
#endif

#ifndef GPUX_SK_MT
#define GPUX_SK_MT /* the local ORs' words: none */
#endif

#define GPUX_SK_IMGH(dt, w, W, cls, em, mm, nan)                                              \
  __kernel void gpux_sort_imgh_##dt(GPUX_SK_IMGH_ARGS(w, W)) {                                \
    keys += keys_off;                                                                         \
    img += img_off;                                                                           \
    bits += bits_off;                                                                         \
    counts += counts_off;                                                                     \
    __local uint lc[GPUX_SK_NPASS(w) * GPUX_SORT_RADIX], lo[4];                               \
    const int j = (int)get_local_id(0);                                                       \
    if (j == 0) {                                                                             \
      lo[0] = 0u;                                                                             \
      lo[1] = 0u;                                                                             \
      lo[2] = 0xffffffffu;                                                                    \
      lo[3] = 0xffffffffu;                                                                    \
    }                                                                                         \
    ulong o = 0, a = ~0UL;                                                                    \
    GPUX_SK_GROUPS {                                                                          \
      for (int i = j; i < GPUX_SK_NPASS(w) * GPUX_SORT_RADIX; i += GPUX_SK_T) lc[i] = 0u;     \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      const long r = g / gpr, k0 = (g - r * gpr) * hk;                                        \
      const long k1 = len - k0 < hk ? len : k0 + hk;                                          \
      for (long i = k0 + j; i < k1; i += GPUX_SK_T) {                                         \
        GPUX_SK_IMGH_KEY(w, W, cls, em, mm)                                                   \
        for (int ps = 0; ps < GPUX_SK_NPASS(w); ps++)                                         \
          atomic_inc(&lc[GPUX_SK_IMGH_BIN(k, ps)]);                                           \
      }                                                                                       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      __global uint *cr = counts + r * nportions * (W / 8) * GPUX_SORT_RADIX;                  \
      for (int i = j; i < GPUX_SK_NPASS(w) * GPUX_SORT_RADIX; i += GPUX_SK_T)                 \
        if (lc[i]) atomic_add(&cr[i], lc[i]);                                                 \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    }                                                                                         \
    gpux_sk_bits_flush(lo, bits, o, a, j);                                                \
  }
GPUX_SORT_DTYPES(GPUX_SK_IMGH)

#define GPUX_SK_W(W)                                                                           \
  __kernel void gpux_sort_onesweep_##W(GPUX_SK_OS_ARGS(W)) {                                  \
    GPUX_SK_OS_OFFS()                                                                         \
    __local GPUX_SK_I_##W kx[GPUX_SORT_TILE(W)];                                              \
    __local uint px[GPUX_SORT_TILE(W)];                                                       \
    __local uint wh[GPUX_SK_T / 32][GPUX_SORT_RADIX];                                         \
    __local uint db[GPUX_SK_T / 4];                                                           \
    __local ulong sa[GPUX_SK_T], sb[GPUX_SK_T];                                               \
    __local uint gb[GPUX_SORT_RADIX];                                                         \
    __local long tile;                                                                        \
    const int j = (int)get_local_id(0), w = j >> 5, l = j & 31;                               \
    const int shift = 8 * pass;                                                               \
    const long ntile = rows * tpp;                                                            \
    GPUX_SK_MT                                                                                \
    for (;;) {                                                                                \
      if (j == 0) tile = (long)atomic_inc(&lb[ntile * GPUX_SORT_RADIX]);                      \
      for (int i = j; i < (GPUX_SK_T / 32) * GPUX_SORT_RADIX; i += GPUX_SK_T)                 \
        wh[i / GPUX_SORT_RADIX][i % GPUX_SORT_RADIX] = 0u;                                    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      const long g = tile;                                                                    \
      if (g >= ntile) break; /* the same for the whole work-group */                          \
      const long r = g / tpp, t = g - r * tpp, t0 = p0 + t * GPUX_SORT_TILE(W);               \
      const int rem = (int)(plen - t * GPUX_SORT_TILE(W) < GPUX_SORT_TILE(W)                  \
                                ? plen - t * GPUX_SORT_TILE(W)                                \
                                : GPUX_SORT_TILE(W));                                         \
      __global const GPUX_SK_I_##W *row = img + r * len + t0;                                 \
      const long kb = r * len + t0;                                                           \
      /* the row's counts of digit j, loaded now and used by the scan */                    \
      uint before;                                                                            \
      const uint tot = gpux_sk_row_count(counts, r, pass, npass, portion, nportions, j,       \
                                         &before);                                            \
      GPUX_SK_I_##W k[GPUX_SORT_IPT(W)];                                                      \
      if (kin) /* the first pass: the keys, imaged here (the test outside the loops) */        \
        for (int e = 0; e < GPUX_SORT_IPT(W); e++) {                                          \
          const int idx = w * 32 * GPUX_SORT_IPT(W) + e * 32 + l;                             \
          k[e] = idx < rem ? GPUX_SK_LDK(W, idx) : GPUX_SK_ONES_##W;                          \
        }                                                                                     \
      else                                                                                    \
        for (int e = 0; e < GPUX_SORT_IPT(W); e++) {                                          \
          const int idx = w * 32 * GPUX_SORT_IPT(W) + e * 32 + l;                             \
          k[e] = idx < rem ? row[idx] : GPUX_SK_ONES_##W;                                     \
        }                                                                                     \
      /* the tile's digit counts first (early counts, as sort.cu): each warp counts its keys  \
       * in its row of wh, and the tile publishes them before its ranking */                  \
      for (int e = 0; e < GPUX_SORT_IPT(W); e++)                                              \
        atomic_inc(&wh[w][(int)((k[e] >> shift) & GPUX_SK_MASK)]);                            \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      /* digit j: the warps' exclusive scan, the tile's count and place */                    \
      uint c = 0u;                                                                            \
      for (int v = 0; v < GPUX_SK_T / 32; v++) {                                              \
        const uint x = wh[v][j];                                                              \
        wh[v][j] = c;                                                                         \
        c += x;                                                                               \
      }                                                                                       \
      const uint cpad = c;                                                                    \
      if (j == GPUX_SK_MASK) c -= (uint)(GPUX_SORT_TILE(W) - rem); /* the padding */          \
      atomic_xchg(lb + g * GPUX_SORT_RADIX + j, (t == 0 ? GPUX_SO_LB_P : GPUX_SO_LB_A) | c);  \
      /* the tile's keys of smaller digits (low half) and the row's (high half) */            \
      const ulong sc = gpux_sk_scan(((ulong)tot << 32) | cpad, sa, sb);                       \
      const uint soff = (uint)sc, rb = (uint)(sc >> 32);                                      \
      for (int v = 0; v < GPUX_SK_T / 32; v++) wh[v][j] += soff; /* warp v's first place */   \
      /* before any warp ranks: the warp votes' form takes places without a barrier */        \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      /* rank and stage, element by element (GPUX_SK_RANK) */                                \
      __global const uint *prow = pos + r * len + t0;                                         \
      for (int e = 0; e < GPUX_SORT_IPT(W); e++) {                                            \
        const int idx = w * 32 * GPUX_SORT_IPT(W) + e * 32 + l;                               \
        const uint d = (uint)((k[e] >> shift) & GPUX_SK_MASK);                                \
        GPUX_SK_RANK(pl, d);                                                                  \
        kx[pl] = k[e];                                                                        \
        if (pos_out || pos64) px[pl] = pos ? (idx < rem ? prow[idx] : 0u) : (uint)(t0 + idx); \
      }                                                                                       \
      const uint excl = gpux_sk_lookback(lb, g, t, j, c);                                     \
      if (t == tpp - 1)                                                                       \
        gpux_sk_carry(counts, r, pass, npass, portion, nportions, j, before, excl + c);       \
      gb[j] = rb + before + excl - soff;                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      if (kout || pos64) /* the last pass's conversions */                                   \
        for (int i = j; i < rem; i += GPUX_SK_T) {                                            \
          const GPUX_SK_I_##W x = kx[i];                                                      \
          const long dst = r * len + (long)(gb[(int)((x >> shift) & GPUX_SK_MASK)] + (uint)i); \
          GPUX_SK_STK(x, dst, px[i]);                                                         \
        }                                                                                     \
      else                                                                                    \
        for (int i = j; i < rem; i += GPUX_SK_T) {                                            \
          const GPUX_SK_I_##W x = kx[i];                                                      \
          const long dst = r * len + (long)(gb[(int)((x >> shift) & GPUX_SK_MASK)] + (uint)i); \
          if (img_out) img_out[dst] = x;                                                      \
          if (pos_out) pos_out[dst] = px[i];                                                  \
        }                                                                                     \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
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
 * (-DGPUX_CL_CPU=1: pocl) one work-item per group (imgh) or per row (local), and onesweep's
 * work-items each take tiles from the counter in work-groups of ONE work-item (cl_sort.c):
 * nothing vectorizes its look-back's spin across work-items that wait on each other. Serial
 * loops over the keys, no barriers; work-items past ngroups idle. */
#define GPUX_SK_CPU_G()                                                                        \
  const long g = (long)get_global_id(0);                                                      \
  if (g >= ngroups) return;
#define GPUX_SK_IMGH(dt, w, W, cls, em, mm, nan)                                              \
  __kernel void gpux_sort_imgh_##dt(GPUX_SK_IMGH_ARGS(w, W)) {                                \
    GPUX_SK_CPU_G()                                                                           \
    keys += keys_off;                                                                         \
    img += img_off;                                                                           \
    bits += bits_off;                                                                         \
    counts += counts_off;                                                                     \
    uint c[GPUX_SK_NPASS(w) * GPUX_SORT_RADIX];                                               \
    for (int i = 0; i < GPUX_SK_NPASS(w) * GPUX_SORT_RADIX; i++) c[i] = 0u;                   \
    const long r = g / gpr, k0 = (g - r * gpr) * hk;                                          \
    const long k1 = len - k0 < hk ? len : k0 + hk;                                            \
    ulong o = 0, a = ~0UL;                                                                    \
    for (long i = k0; i < k1; i++) {                                                          \
      GPUX_SK_IMGH_KEY(w, W, cls, em, mm)                                                     \
      for (int ps = 0; ps < GPUX_SK_NPASS(w); ps++) c[GPUX_SK_IMGH_BIN(k, ps)]++;             \
    }                                                                                         \
    __global uint *cr = counts + r * nportions * (W / 8) * GPUX_SORT_RADIX;                    \
    for (int i = 0; i < GPUX_SK_NPASS(w) * GPUX_SORT_RADIX; i++)                              \
      if (c[i]) atomic_add(&cr[i], c[i]);                                                     \
    atomic_or(&bits[0], (uint)o);                                                             \
    atomic_or(&bits[1], (uint)(o >> 32));                                                     \
    atomic_and(&bits[2], (uint)a);                                                            \
    atomic_and(&bits[3], (uint)(a >> 32));                                                    \
  }
GPUX_SORT_DTYPES(GPUX_SK_IMGH)

#define GPUX_SK_W(W)                                                                           \
  /* a tile at a time: its counts published, each digit's look-back, then its keys placed   \
     in input order with a cursor per digit (stable by construction) */                       \
  __kernel void gpux_sort_onesweep_##W(GPUX_SK_OS_ARGS(W)) {                                  \
    GPUX_SK_OS_OFFS()                                                                         \
    const int shift = 8 * pass;                                                               \
    const long ntile = rows * tpp;                                                            \
    uint c[GPUX_SORT_RADIX], cur[GPUX_SORT_RADIX];                                            \
    for (;;) {                                                                                \
      const long g = (long)atomic_inc(&lb[ntile * GPUX_SORT_RADIX]);                          \
      if (g >= ntile) return;                                                                 \
      const long r = g / tpp, t = g - r * tpp, t0 = p0 + t * GPUX_SORT_TILE(W);               \
      const int rem = (int)(plen - t * GPUX_SORT_TILE(W) < GPUX_SORT_TILE(W)                  \
                                ? plen - t * GPUX_SORT_TILE(W)                                \
                                : GPUX_SORT_TILE(W));                                         \
      __global const GPUX_SK_I_##W *row = img + r * len + t0;                                 \
      const long kb = r * len + t0;                                                           \
      __global const uint *prow = pos + r * len + t0;                                         \
      for (int d = 0; d < GPUX_SORT_RADIX; d++) c[d] = 0u;                                    \
      for (int i = 0; i < rem; i++) c[(int)((GPUX_SK_LDK(W, i) >> shift) & GPUX_SK_MASK)]++;   \
      for (int d = 0; d < GPUX_SORT_RADIX; d++)                                               \
        atomic_xchg(lb + g * GPUX_SORT_RADIX + d,                                             \
                    (t == 0 ? GPUX_SO_LB_P : GPUX_SO_LB_A) | c[d]);                           \
      uint run = 0u;                                                                          \
      for (int d = 0; d < GPUX_SORT_RADIX; d++) {                                             \
        const uint excl = gpux_sk_lookback(lb, g, t, d, c[d]);                                \
        uint before;                                                                          \
        const uint tot =                                                                      \
            gpux_sk_row_count(counts, r, pass, npass, portion, nportions, d, &before);        \
        if (t == tpp - 1)                                                                     \
          gpux_sk_carry(counts, r, pass, npass, portion, nportions, d, before, excl + c[d]);  \
        cur[d] = run + before + excl;                                                         \
        run += tot;                                                                           \
      }                                                                                       \
      for (int i = 0; i < rem; i++) {                                                         \
        const GPUX_SK_I_##W x = GPUX_SK_LDK(W, i);                                            \
        const long dst = r * len + (long)cur[(int)((x >> shift) & GPUX_SK_MASK)]++;           \
        GPUX_SK_STK(x, dst, pos ? prow[i] : (uint)(t0 + i));                                  \
      }                                                                                       \
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
