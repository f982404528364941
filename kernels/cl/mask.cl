#include "gpux_kernels.h"
#include "gpux_sort.h"
/* gpux OpenCL kernels, mask family (OpenCL C 1.2): stream compaction for boolean masks
 * (gpux_kernels.h "Boolean masks"; include/gpux/mask.h). By element size only: the ops move
 * bits. E = uchar, ushort, uint, ulong, ulong2 (complex128); offsets in elements.
 *
 *   gpux_mask_flags_<bytes>(global const E *x, long x_off, ulong nzbits, global ushort *bits,
 *       long bits_off, global long *cnt, long cnt_off, long n, long gbase)
 *   gpux_mask_compress_<bytes>(global const E *x, long x_off, global const ushort *bits,
 *       long bits_off, global const long *incl, long incl_off, global E *out, long out_off,
 *       long n, long gbase)
 *   gpux_mask_put_<bytes>(global E *x, long x_off, global const ushort *bits, long bits_off,
 *       global const long *incl, long incl_off, global const E *vals, long vals_off, long n,
 *       long gbase)
 *   gpux_mask_nonzero(global const ushort *bits, long bits_off, global const long *incl,
 *       long incl_off, global long *out, long out_off, long n, long sp, long sd,
 *       gpux_nd_params nd, long gbase)
 *   gpux_mask_starts_<bytes>(global const E *x, long x_off, int kcls, ulong em, ulong mm,
 *       global ushort *bits, long bits_off, global long *cnt, long cnt_off, long n,
 *       long gbase)   (bytes 1, 2, 4, 8: flags' outputs for the runs of a sorted array)
 *   gpux_mask_ids(global const ushort *bits, long bits_off, global const long *incl,
 *       long incl_off, global const long *perm, long perm_off, global long *out,
 *       long out_off, long n, long gbase)   (perm may be NULL: out[i] itself)
 *
 * flags and starts write tile c's GPUX_MASK_WORDS bits words (element i at bit i % 16 of word i / 16)
 * and its count; the others read the words. Tile c (GPUX_MASK_TILE elements from
 * c * GPUX_MASK_TILE; the last one may be short) writes from incl[c - 1] (0 for c = 0), the
 * count of the tiles before it, each selected element at that plus its rank in the tile.
 * Work-groups have the linear index gbase + group_id(0) + group_id(1) * num_groups(0), as in
 * reduce.cl and scan.cl.
 * GPU form (work-groups of GPUX_MASK_THREADS = 256, one per tile), global memory touched in
 *   coalesced rounds only (consecutive work-items on consecutive elements; the 16
 *   consecutive elements a work-item once read from global memory put each load of a warp
 *   on 16 segments): flags stages the tile's selection (mask bytes as words where aligned,
 *   x's elements tested, 1-byte ones as words too) in local memory in rounds j + 256 k, and
 *   work-item j makes word j of its 16 consecutive flags 16j .. 16j+15 there; the others
 *   read word j, the work-group scans the 256 counts (Hillis-Steele, a barrier a step) and
 *   j lists the tile indices of its selected elements at its exclusive prefix in local
 *   memory (sidx: the tile's r-th selected element); then position base + r, r = j + 256 k,
 *   is consecutive work-items' (out, vals, nonzero's coordinates: coalesced), x read
 *   (compress) or written (put) at t0 + sidx[r], addresses that rise with r inside the
 *   tile's span, as CUDA's masked rounds. At most 14 KB of local memory for every element
 *   size (elements never pass through it: 4096 of 16 bytes would not fit NVIDIA's 48 KB).
 *   The same positions as CUDA's and the CPU form.
 * CPU form (-DGPUX_CL_CPU=1): one work-item per tile, a serial loop over its elements (no
 *   barriers, nothing to vectorize across work-items on pocl); any work-group size. */

#define GPUX_MK_E_1 uchar
#define GPUX_MK_E_2 ushort
#define GPUX_MK_E_4 uint
#define GPUX_MK_E_8 ulong
#define GPUX_MK_E_16 ulong2

/* nonzero's predicate on the bits: any bit of nzbits set (in either word of a 16-byte
 * element) */
#define GPUX_MK_NZ_1(v) (((ulong)(v) & nzbits) != 0)
#define GPUX_MK_NZ_2(v) (((ulong)(v) & nzbits) != 0)
#define GPUX_MK_NZ_4(v) (((ulong)(v) & nzbits) != 0)
#define GPUX_MK_NZ_8(v) (((v) & nzbits) != 0)
#define GPUX_MK_NZ_16(v) ((((v).x | (v).y) & nzbits) != 0)

#define GPUX_MK_GROUP()                                                                       \
  (gbase + (long)get_group_id(0) + (long)get_group_id(1) * (long)get_num_groups(0))

/* What a selected element i does at position k, by kind */
#define GPUX_MK_ACT_compress(i, k) out[out_off + (k)] = x[x_off + (i)];
#define GPUX_MK_ACT_put(i, k) x[x_off + (i)] = vals[vals_off + (k)];
/* coordinates of i in nd.shape, the last dimension fastest */
#define GPUX_MK_ACT_nonzero(i, k)                                                             \
  {                                                                                           \
    long r_ = (i);                                                                            \
    __global long *o_ = out + out_off + (k) * sp;                                             \
    for (int d_ = (int)nd.ndim - 1; d_ > 0; d_--) {                                           \
      const long s_ = nd.shape[d_], q_ = r_ / s_;                                             \
      o_[d_ * sd] = r_ - q_ * s_;                                                             \
      r_ = q_;                                                                                \
    }                                                                                         \
    o_[0] = r_;                                                                               \
  }
/* flags' predicate on element i of x, by size; starts': i begins a run of equal keys (its
 * image, THE ORDER's with -0.0 == +0.0 and NaNs equal, differs from element i - 1's) */
#define GPUX_MK_NZI_1(i) GPUX_MK_NZ_1(x[x_off + (i)])
#define GPUX_MK_NZI_2(i) GPUX_MK_NZ_2(x[x_off + (i)])
#define GPUX_MK_NZI_4(i) GPUX_MK_NZ_4(x[x_off + (i)])
#define GPUX_MK_NZI_8(i) GPUX_MK_NZ_8(x[x_off + (i)])
#define GPUX_MK_NZI_16(i) GPUX_MK_NZ_16(x[x_off + (i)])
#define GPUX_MK_IMG(v) gpux_so_img((ulong)(v), kw_, kcls, GPUX_SO_EQZ, em, mm)
#define GPUX_MK_STI(i)                                                                        \
  ((i) == 0 || GPUX_MK_IMG(x[x_off + (i)]) != GPUX_MK_IMG(x[x_off + (i) - 1]))
#define GPUX_MK_ITEMS (GPUX_MASK_TILE / GPUX_MASK_THREADS) /* 16 */

#ifndef GPUX_CL_CPU
/* ---------------------------------------------------------------- GPU form */
/* flags: the tile's flags (0 or 1 a byte) into fl8, read from global memory in coalesced
 * rounds: element e = j + 256 k in round k. x's elements tested by NZ; 1-byte elements whose
 * every bit counts (a bool mask, the 8-bit integers) as whole words (four elements each,
 * j + 256 k the word) when the tile is whole and its first byte is word-aligned (the buffer
 * is; x_off may not be), each byte made 0 or 1 (bit 7 of (b & 0x7f) + 0x7f, or b, is set iff
 * b != 0: no carry leaves the byte). */
#define GPUX_MK_STAGE_WORDS(p)                                                                \
  {                                                                                           \
    __global const uint *mw_ = (__global const uint *)(p);                                    \
    for (int k = 0; k < GPUX_MASK_TILE / 4 / GPUX_MASK_THREADS; k++) {                        \
      const uint w_ = mw_[j + GPUX_MASK_THREADS * k];                                         \
      fl32[j + GPUX_MASK_THREADS * k] =                                                       \
          ((((w_ & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w_) >> 7) & 0x01010101u;                     \
    }                                                                                         \
  }
#define GPUX_MK_STAGE_NZ(NZ)                                                                  \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int e_ = j + GPUX_MASK_THREADS * k;                                                 \
    fl8[e_] = (uchar)(e_ < rem && NZ(x[x_off + t0 + e_]));                                    \
  }
#define GPUX_MK_STAGE_NZ1(NZ)                                                                 \
  if (rem == GPUX_MASK_TILE && (x_off & 3) == 0 && (nzbits & 0xffu) == 0xffu) {               \
    GPUX_MK_STAGE_WORDS(x + x_off + t0)                                                       \
  } else                                                                                      \
    GPUX_MK_STAGE_NZ(NZ)
/* starts: each element against its predecessor (read twice, the second time from cache) */
#define GPUX_MK_STAGE_STARTS(NZ_)                                                             \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int e_ = j + GPUX_MASK_THREADS * k;                                                 \
    fl8[e_] = (uchar)(e_ < rem && GPUX_MK_STI(t0 + e_));                                      \
  }
#define GPUX_MK_STAGE_NZ_1 GPUX_MK_STAGE_NZ1
#define GPUX_MK_STAGE_NZ_2 GPUX_MK_STAGE_NZ
#define GPUX_MK_STAGE_NZ_4 GPUX_MK_STAGE_NZ
#define GPUX_MK_STAGE_NZ_8 GPUX_MK_STAGE_NZ
#define GPUX_MK_STAGE_NZ_16 GPUX_MK_STAGE_NZ
/* four 0/1 bytes of a word as four bits (byte b's flag at bit b) */
#define GPUX_MK_NIB(w) (((w) | ((w) >> 7) | ((w) >> 14) | ((w) >> 21)) & 0xfu)
/* 1. the flags into local memory (STAGE, coalesced); 2. work-item j makes word j of its 16
 *    consecutive elements 16j .. 16j+15 from there; 3. the tile's count, summed in local
 *    memory (integers: any order gives the same). Local memory: 4 KB. */
#define GPUX_MK_FLAGS_BODY(STAGE, NZ, SELI)                                                   \
  __local uint4 fl[GPUX_MASK_THREADS];                                                        \
  __local uint *fl32 = (__local uint *)fl;                                                    \
  __local uchar *fl8 = (__local uchar *)fl;                                                   \
  __local int tot;                                                                            \
  const int j = (int)get_local_id(0);                                                         \
  const long c = GPUX_MK_GROUP(), t0 = c * GPUX_MASK_TILE;                                    \
  const int rem = (int)(n - t0 < GPUX_MASK_TILE ? n - t0 : GPUX_MASK_TILE);                   \
  if (j == 0) tot = 0;                                                                        \
  STAGE(NZ)                                                                                   \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  const uint4 w4_ = fl[j];                                                                    \
  const uint f = GPUX_MK_NIB(w4_.x) | GPUX_MK_NIB(w4_.y) << 4 | GPUX_MK_NIB(w4_.z) << 8 |     \
                 GPUX_MK_NIB(w4_.w) << 12;                                                    \
  bits[bits_off + c * GPUX_MASK_WORDS + j] = (ushort)f;                                       \
  if (f) atomic_add(&tot, (int)popcount(f));                                                  \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  if (j == 0) cnt[cnt_off + c] = tot;
#define GPUX_MK_STEP(off, from, to)                                                           \
  to[j] = j >= (off) ? from[j - (off)] + from[j] : from[j];                                   \
  barrier(CLK_LOCAL_MEM_FENCE);
/* the inclusive scan of the 256 words' counts in wa (Hillis-Steele through wb) */
#define GPUX_MK_SCAN                                                                          \
  GPUX_MK_STEP(1, wa, wb)                                                                     \
  GPUX_MK_STEP(2, wb, wa)                                                                     \
  GPUX_MK_STEP(4, wa, wb)                                                                     \
  GPUX_MK_STEP(8, wb, wa)                                                                     \
  GPUX_MK_STEP(16, wa, wb)                                                                    \
  GPUX_MK_STEP(32, wb, wa)                                                                    \
  GPUX_MK_STEP(64, wa, wb)                                                                    \
  GPUX_MK_STEP(128, wb, wa)
/* 4. the tile's selected run, at positions base + r for r = j + 256 k: all loads first, then
 *    the stores (a store between them would keep the next load waiting: OpenCL 1.2 cannot
 *    tell the compiler that out and x do not alias) */
#define GPUX_MK_MOVE_compress(E)                                                              \
  E v_[GPUX_MK_ITEMS];                                                                        \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int r = j + GPUX_MASK_THREADS * k;                                                  \
    if (r < tc) v_[k] = x[x_off + t0 + sidx[r]];                                              \
  }                                                                                           \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int r = j + GPUX_MASK_THREADS * k;                                                  \
    if (r < tc) out[out_off + base + r] = v_[k];                                              \
  }
#define GPUX_MK_MOVE_put(E)                                                                   \
  E v_[GPUX_MK_ITEMS];                                                                        \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int r = j + GPUX_MASK_THREADS * k;                                                  \
    if (r < tc) v_[k] = vals[vals_off + base + r];                                            \
  }                                                                                           \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int r = j + GPUX_MASK_THREADS * k;                                                  \
    if (r < tc) x[x_off + t0 + sidx[r]] = v_[k];                                              \
  }
#define GPUX_MK_MOVE_nonzero(E)                                                               \
  for (int r = j; r < tc; r += GPUX_MASK_THREADS) {                                           \
    GPUX_MK_ACT_nonzero(t0 + sidx[r], base + r)                                               \
  }
/* 1. work-item j reads word j (its 16 consecutive elements 16j .. 16j+15); 2. a
 *    Hillis-Steele scan of the 256 counts, a barrier a step; 3. it writes the tile indices of
 *    its selected elements in order into sidx at its exclusive prefix: sidx[r] is the tile's
 *    r-th selected element; 4. the selected run: r = j + 256 k, consecutive work-items on
 *    consecutive positions base + r (out and vals coalesced; x read or written at
 *    t0 + sidx[r], increasing with r inside the tile's span). Local memory: 8 + 2 KB,
 *    whatever the element size (the elements themselves never go through it). */
#define GPUX_MK_BODY(K, E)                                                                    \
  __local ushort sidx[GPUX_MASK_TILE];                                                        \
  __local int wa[GPUX_MASK_THREADS], wb[GPUX_MASK_THREADS];                                   \
  const int j = (int)get_local_id(0);                                                         \
  const long c = GPUX_MK_GROUP(), t0 = c * GPUX_MASK_TILE;                                    \
  uint f = bits[bits_off + c * GPUX_MASK_WORDS + j];                                          \
  const int cnt = (int)popcount(f);                                                           \
  wa[j] = cnt;                                                                                \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  GPUX_MK_SCAN                                                                                \
  int q_ = wa[j] - cnt;                                                                       \
  for (int k = 0; k < GPUX_MK_ITEMS && f; k++, f >>= 1)                                       \
    if (f & 1u) sidx[q_++] = (ushort)(GPUX_MK_ITEMS * j + k);                                 \
  const int tc = wa[GPUX_MASK_THREADS - 1];                                                   \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  const long base = c > 0 ? incl[incl_off + c - 1] : 0;                                       \
  GPUX_MK_MOVE_##K(E)
/* ids: element e = j + 256 k of the tile (every one, selected or not) gets base + the
 * selected elements of its word's predecessors (sx, the scan) + those of its word up to e,
 * minus 1, at out[perm[t0 + e]]: perm's run loaded first (coalesced), then the stores */
#define GPUX_MK_IDS_BODY                                                                      \
  __local int wa[GPUX_MASK_THREADS], wb[GPUX_MASK_THREADS];                                   \
  __local ushort sf[GPUX_MASK_THREADS];                                                       \
  const int j = (int)get_local_id(0);                                                         \
  const long c = GPUX_MK_GROUP(), t0 = c * GPUX_MASK_TILE;                                    \
  const int rem = (int)(n - t0 < GPUX_MASK_TILE ? n - t0 : GPUX_MASK_TILE);                   \
  long d_[GPUX_MK_ITEMS];                                                                     \
  if (perm && rem == GPUX_MASK_TILE)                                                          \
    for (int k = 0; k < GPUX_MK_ITEMS; k++) d_[k] = perm[t0 + j + GPUX_MASK_THREADS * k];     \
  else                                                                                        \
    for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                 \
      const int e = j + GPUX_MASK_THREADS * k;                                                \
      d_[k] = perm ? (e < rem ? perm[t0 + e] : 0) : t0 + e;                                   \
    }                                                                                         \
  const uint f = bits[bits_off + c * GPUX_MASK_WORDS + j];                                    \
  const int cnt = (int)popcount(f);                                                           \
  wa[j] = cnt;                                                                                \
  sf[j] = (ushort)f;                                                                          \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  GPUX_MK_SCAN                                                                                \
  const long base = c > 0 ? incl[incl_off + c - 1] : 0;                                       \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int e = j + GPUX_MASK_THREADS * k, wd = e >> 4;                                     \
    if (e < rem)                                                                              \
      out[d_[k]] = base + (wa[wd] - (int)popcount((uint)sf[wd])) +                            \
                   (int)popcount((uint)sf[wd] & ((2u << (e & 15)) - 1u)) - 1;                 \
  }
#else
/* ---------------------------------------------------------------- CPU form */
#define GPUX_MK_CPU_TILE()                                                                    \
  const long c = GPUX_MK_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);           \
  const long t0 = c * GPUX_MASK_TILE;                                                         \
  const int rem = (int)(n - t0 < GPUX_MASK_TILE ? n - t0 : GPUX_MASK_TILE);
/* the tile's words, 16 elements each (0 past n), and its count; whole words in a loop of a
 * fixed 16 (one the compiler can unroll and vectorize) */
#define GPUX_MK_FLAGS_BODY(STAGE, NZ, SELI)                                                   \
  GPUX_MK_CPU_TILE()                                                                          \
  if (t0 < n) {                                                                               \
    long tc = 0;                                                                              \
    for (int q = 0; q < GPUX_MASK_WORDS; q++) {                                               \
      const long i0 = t0 + 16 * q;                                                            \
      uint f = 0u;                                                                            \
      if (16 * q + 16 <= rem) {                                                               \
        for (int k = 0; k < 16; k++) f |= (uint)SELI(i0 + k) << k;                            \
      } else {                                                                                \
        for (int k = 0; k < 16 && 16 * q + k < rem; k++) f |= (uint)SELI(i0 + k) << k;        \
      }                                                                                       \
      bits[bits_off + c * GPUX_MASK_WORDS + q] = (ushort)f;                                   \
      tc += popcount(f);                                                                      \
    }                                                                                         \
    cnt[cnt_off + c] = tc;                                                                    \
  }
/* the selected elements word by word, each set bit in turn (its index: the count of the
 * zeros below it; OpenCL 1.2 has no ctz) */
#define GPUX_MK_BODY(K, E)                                                                    \
  GPUX_MK_CPU_TILE()                                                                          \
  if (t0 < n) {                                                                               \
    long pos = c > 0 ? incl[incl_off + c - 1] : 0;                                            \
    for (int q = 0; q < GPUX_MASK_WORDS; q++)                                                 \
      for (uint f = bits[bits_off + c * GPUX_MASK_WORDS + q]; f; f &= f - 1u) {               \
        const long i_ = t0 + 16 * q + (long)popcount((f & (0u - f)) - 1u);                    \
        GPUX_MK_ACT_##K(i_, pos)                                                              \
        pos++;                                                                                \
      }                                                                                       \
  }
/* ids: the tile's elements in order, a running count of the selected ones */
#define GPUX_MK_IDS_BODY                                                                      \
  GPUX_MK_CPU_TILE()                                                                          \
  if (t0 < n) {                                                                               \
    long id = (c > 0 ? incl[incl_off + c - 1] : 0) - 1;                                       \
    for (int q = 0; q < GPUX_MASK_WORDS && 16 * q < rem; q++) {                               \
      const uint f = bits[bits_off + c * GPUX_MASK_WORDS + q];                                \
      const int m = rem - 16 * q < 16 ? rem - 16 * q : 16;                                    \
      for (int k = 0; k < m; k++) {                                                           \
        const long i_ = t0 + 16 * q + k;                                                      \
        id += (long)((f >> k) & 1u);                                                          \
        out[perm ? perm[i_] : i_] = id;                                                       \
      }                                                                                       \
    }                                                                                         \
  }
#endif

#define GPUX_MK_KERNELS(sz)                                                                   \
  GPUX_MK_KERNELS_(sz, GPUX_MK_E_##sz, GPUX_MK_NZ_##sz, GPUX_MK_STAGE_NZ_##sz, GPUX_MK_NZI_##sz)
#define GPUX_MK_KERNELS_(sz, E, NZ, STNZ, NZI)                                                \
  __kernel void gpux_mask_flags_##sz(__global const E *x, long x_off, ulong nzbits,           \
                                     __global ushort *bits, long bits_off,                    \
                                     __global long *cnt, long cnt_off, long n, long gbase) {  \
    GPUX_MK_FLAGS_BODY(STNZ, NZ, NZI)                                                         \
  }                                                                                           \
  __kernel void gpux_mask_compress_##sz(__global const E *x, long x_off,                      \
                                        __global const ushort *bits, long bits_off,           \
                                        __global const long *incl, long incl_off,             \
                                        __global E *out, long out_off, long n, long gbase) {  \
    GPUX_MK_BODY(compress, E)                                                                 \
  }                                                                                           \
  __kernel void gpux_mask_put_##sz(__global E *x, long x_off, __global const ushort *bits,    \
                                   long bits_off, __global const long *incl, long incl_off,   \
                                   __global const E *vals, long vals_off, long n,             \
                                   long gbase) {                                              \
    GPUX_MK_BODY(put, E)                                                                      \
  }
GPUX_ELEM_SIZES(GPUX_MK_KERNELS)

#define GPUX_MK_STARTS(sz)                                                                    \
  __kernel void gpux_mask_starts_##sz(__global const GPUX_MK_E_##sz *x, long x_off, int kcls,  \
                                      ulong em, ulong mm, __global ushort *bits,              \
                                      long bits_off, __global long *cnt, long cnt_off,        \
                                      long n, long gbase) {                                   \
    const int kw_ = 8 * sz;                                                                   \
    GPUX_MK_FLAGS_BODY(GPUX_MK_STAGE_STARTS, _, GPUX_MK_STI)                                  \
  }
GPUX_MK_STARTS(1)
GPUX_MK_STARTS(2)
GPUX_MK_STARTS(4)
GPUX_MK_STARTS(8)

__kernel void gpux_mask_nonzero(__global const ushort *bits, long bits_off,
                                __global const long *incl, long incl_off, __global long *out,
                                long out_off, long n, long sp, long sd, gpux_nd_params nd,
                                long gbase) {
  GPUX_MK_BODY(nonzero, long)
}

__kernel void gpux_mask_ids(__global const ushort *bits, long bits_off,
                            __global const long *incl, long incl_off, __global const long *perm,
                            long perm_off, __global long *out, long out_off, long n,
                            long gbase) {
  if (perm) perm += perm_off;
  out += out_off;
  GPUX_MK_IDS_BODY
}
