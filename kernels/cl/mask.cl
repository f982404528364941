#include "gpux_kernels.h"
/* gpux OpenCL kernels, mask family (OpenCL C 1.2): stream compaction for boolean masks
 * (gpux_kernels.h "Boolean masks"; include/gpux/mask.h). By element size only: the ops move
 * bits. E = uchar, ushort, uint, ulong, ulong2 (complex128); offsets in elements.
 *
 *   gpux_mask_compress_<bytes>(global const E *x, long x_off, global const uchar *mask,
 *       long mask_off, global const long *incl, long incl_off, global E *out, long out_off,
 *       long n, long gbase)
 *   gpux_mask_put_<bytes>(global E *x, long x_off, global const uchar *mask, long mask_off,
 *       global const long *incl, long incl_off, global const E *vals, long vals_off, long n,
 *       long gbase)
 *   gpux_mask_nonzero_<bytes>(global const E *x, long x_off, ulong nzbits,
 *       global const long *incl, long incl_off, global long *out, long out_off, long n,
 *       long sp, long sd, gpux_nd_params nd, long gbase)
 *
 * Tile c (GPUX_MASK_TILE elements from c * GPUX_MASK_TILE; the last one may be short) writes
 * from incl[c - 1] (0 for c = 0), the count of the tiles before it, each selected element at
 * that plus its rank in the tile. Work-groups have the linear index gbase + group_id(0) +
 * group_id(1) * num_groups(0), as in reduce.cl and scan.cl.
 * GPU form (work-groups of GPUX_MASK_THREADS = 256, one per tile), global memory touched in
 *   coalesced rounds only (consecutive work-items on consecutive elements: e = j + 256 k in
 *   round k): compress's values are loaded first, then the tile's flags (mask bytes, as
 *   words where aligned; nonzero: x's elements tested) go to local memory; work-item j
 *   counts its 16 consecutive flags 16j .. 16j+15 there and the work-group scans the 256
 *   counts, which give every selected element its rank r in the tile (its position: base +
 *   r). compress writes its values into a local stage at their ranks and the tile's run goes
 *   out in rounds (consecutive work-items on consecutive positions); put reads vals' run into
 *   the stage and writes x in the loads' rounds; nonzero lists the selected elements' tile
 *   indices in rank order and writes their coordinates in rounds. The stage is 16 KB (4096
 *   elements up to 4 bytes; 8- and 16-byte elements take rounds of 2048 or 1024 ranks, to
 *   fit NVIDIA's 48 KB of local memory). The same positions as CUDA's kernels and the CPU
 *   form. A tile reads all its mask bytes before its first write, so put may write x where
 *   it read the mask.
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
/* whether element i is selected: the bool mask, or nonzero's predicate on x by size */
#define GPUX_MK_SEL_MASK(i) (mask[mask_off + (i)] != 0)
#define GPUX_MK_SEL_NZ_1(i) GPUX_MK_NZ_1(x[x_off + (i)])
#define GPUX_MK_SEL_NZ_2(i) GPUX_MK_NZ_2(x[x_off + (i)])
#define GPUX_MK_SEL_NZ_4(i) GPUX_MK_NZ_4(x[x_off + (i)])
#define GPUX_MK_SEL_NZ_8(i) GPUX_MK_NZ_8(x[x_off + (i)])
#define GPUX_MK_SEL_NZ_16(i) GPUX_MK_NZ_16(x[x_off + (i)])

#define GPUX_MK_ITEMS (GPUX_MASK_TILE / GPUX_MASK_THREADS) /* 16 */

#ifndef GPUX_CL_CPU
/* ---------------------------------------------------------------- GPU form */
/* Flags of the tile's elements (0 or 1 a byte) into fl8, read from global memory in
 * coalesced rounds: element e = j + 256 k in round k. A bool mask: whole words (four
 * elements each, j + 256 k the word) when the tile is whole and its first byte is
 * word-aligned (the buffer is; mask_off may not be), bytes otherwise; each byte made 0 or 1
 * (bit 7 of (b & 0x7f) + 0x7f, or b, is set iff b != 0: no carry leaves the byte). */
#define GPUX_MK_STAGE_MASK(NZ_)                                                               \
  if (rem == GPUX_MASK_TILE && (mask_off & 3) == 0) {                                         \
    __global const uint *mw_ = (__global const uint *)(mask + mask_off + t0);                 \
    for (int k = 0; k < GPUX_MASK_TILE / 4 / GPUX_MASK_THREADS; k++) {                        \
      const uint w_ = mw_[j + GPUX_MASK_THREADS * k];                                         \
      fl32[j + GPUX_MASK_THREADS * k] =                                                       \
          ((((w_ & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w_) >> 7) & 0x01010101u;                     \
    }                                                                                         \
  } else {                                                                                    \
    for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                 \
      const int e_ = j + GPUX_MASK_THREADS * k;                                               \
      fl8[e_] = (uchar)(e_ < rem && mask[mask_off + t0 + e_] != 0);                           \
    }                                                                                         \
  }
/* nonzero: the predicate on x's elements, read in the same rounds */
#define GPUX_MK_STAGE_NZ(NZ)                                                                  \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int e_ = j + GPUX_MASK_THREADS * k;                                                 \
    fl8[e_] = (uchar)(e_ < rem && NZ(x[x_off + t0 + e_]));                                    \
  }
/* four 0/1 bytes of a word as four bits (byte b's flag at bit b) */
#define GPUX_MK_NIB(w) (((w) | ((w) >> 7) | ((w) >> 14) | ((w) >> 21)) & 0xfu)
#define GPUX_MK_STEP(off, from, to)                                                           \
  to[j] = j >= (off) ? from[j - (off)] + from[j] : from[j];                                   \
  barrier(CLK_LOCAL_MEM_FENCE);
/* 0. before the flags, compress's values: element e = j + 256 k in round k (coalesced) */
#define GPUX_MK_PRE_compress(E)                                                               \
  E v_[GPUX_MK_ITEMS];                                                                        \
  for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                   \
    const int e_ = j + GPUX_MASK_THREADS * k;                                                 \
    if (e_ < rem) v_[k] = x[x_off + t0 + e_];                                                 \
  }
#define GPUX_MK_PRE_put(E)
#define GPUX_MK_PRE_nonzero(E)
/* the rank in the tile of selected element e: the inclusive count of its 16-element group g
 * less the group's selected elements from e on */
#define GPUX_MK_RANK(e) (wa[(e) >> 4] - (int)popcount((uint)fb[(e) >> 4] >> ((e) & 15)))
#define GPUX_MK_SELECTED(e) ((e) < rem && ((uint)fb[(e) >> 4] >> ((e) & 15) & 1u))
/* 4. the moves through the stage st, in rounds of GPUX_MK_CAP(E) ranks (one round up to 4
 *    bytes): compress writes each selected value at its rank, then the round's run out
 *    (consecutive work-items on consecutive positions base + r); put reads vals' run into
 *    the stage, then each work-item writes its selected elements of round k (e = j + 256 k,
 *    coalesced as the loads were) */
#define GPUX_MK_MOVE_compress(E)                                                              \
  for (int r0 = 0; r0 < tc; r0 += GPUX_MK_CAP(E)) {                                           \
    const int r1 = r0 + GPUX_MK_CAP(E) < tc ? r0 + GPUX_MK_CAP(E) : tc;                       \
    for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                 \
      const int e_ = j + GPUX_MASK_THREADS * k;                                               \
      if (GPUX_MK_SELECTED(e_)) {                                                             \
        const int r_ = GPUX_MK_RANK(e_);                                                      \
        if (r_ >= r0 && r_ < r1) st[r_ - r0] = v_[k];                                         \
      }                                                                                       \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (int s_ = r0 + j; s_ < r1; s_ += GPUX_MASK_THREADS)                                   \
      out[out_off + base + s_] = st[s_ - r0];                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
  }
#define GPUX_MK_MOVE_put(E)                                                                   \
  for (int r0 = 0; r0 < tc; r0 += GPUX_MK_CAP(E)) {                                           \
    const int r1 = r0 + GPUX_MK_CAP(E) < tc ? r0 + GPUX_MK_CAP(E) : tc;                       \
    for (int s_ = r0 + j; s_ < r1; s_ += GPUX_MASK_THREADS)                                   \
      st[s_ - r0] = vals[vals_off + base + s_];                                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (int k = 0; k < GPUX_MK_ITEMS; k++) {                                                 \
      const int e_ = j + GPUX_MASK_THREADS * k;                                               \
      if (GPUX_MK_SELECTED(e_)) {                                                             \
        const int r_ = GPUX_MK_RANK(e_);                                                      \
        if (r_ >= r0 && r_ < r1) x[x_off + t0 + e_] = st[r_ - r0];                            \
      }                                                                                       \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
  }
#define GPUX_MK_MOVE_nonzero(E)                                                               \
  {                                                                                           \
    int q_ = wa[j] - cnt;                                                                     \
    for (uint f_ = f, k = 0; f_; k++, f_ >>= 1)                                               \
      if (f_ & 1u) st[q_++] = (ushort)(GPUX_MK_ITEMS * j + k);                                \
  }                                                                                           \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  for (int r = j; r < tc; r += GPUX_MASK_THREADS) {                                           \
    GPUX_MK_ACT_nonzero(t0 + st[r], base + r)                                                 \
  }
/* 0. compress: the values, in coalesced rounds (PRE); 1. the flags into local memory (STAGE,
 *    coalesced); 2. work-item j counts its 16 consecutive elements 16j .. 16j+15 there (fb[j]:
 *    their flags as bits), the work-group scans the 256 counts (Hillis-Steele, a barrier a
 *    step; wa: inclusive); 3. the moves (MOVE): compress and put through a stage of
 *    elements at their ranks (16 KB at most: 4096 elements up to 4 bytes, rounds of 2048 or
 *    1024 for 8 and 16 bytes), nonzero through the list of the selected elements' tile
 *    indices (st[r]: the tile's r-th). Every global access is a coalesced round. */
#define GPUX_MK_CAP(E) (16384 / (int)sizeof(E) < GPUX_MASK_TILE ? 16384 / (int)sizeof(E) : GPUX_MASK_TILE)
#define GPUX_MK_STAGE_compress(E) __local E st[GPUX_MK_CAP(E)];
#define GPUX_MK_STAGE_put(E) __local E st[GPUX_MK_CAP(E)];
#define GPUX_MK_STAGE_nonzero(E) __local ushort st[GPUX_MASK_TILE];
#define GPUX_MK_BODY(K, E, SEL, STAGE, NZ)                                                    \
  __local uint4 fl[GPUX_MASK_THREADS];                                                        \
  __local int wa[GPUX_MASK_THREADS], wb[GPUX_MASK_THREADS];                                   \
  __local ushort fb[GPUX_MASK_THREADS];                                                       \
  GPUX_MK_STAGE_##K(E)                                                                        \
  __local uint *fl32 = (__local uint *)fl;                                                    \
  __local uchar *fl8 = (__local uchar *)fl;                                                   \
  const int j = (int)get_local_id(0);                                                         \
  const long c = GPUX_MK_GROUP(), t0 = c * GPUX_MASK_TILE;                                    \
  const int rem = (int)(n - t0 < GPUX_MASK_TILE ? n - t0 : GPUX_MASK_TILE);                   \
  GPUX_MK_PRE_##K(E)                                                                          \
  STAGE(NZ)                                                                                   \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  const uint4 w4_ = fl[j];                                                                    \
  const uint f = GPUX_MK_NIB(w4_.x) | GPUX_MK_NIB(w4_.y) << 4 | GPUX_MK_NIB(w4_.z) << 8 |     \
                 GPUX_MK_NIB(w4_.w) << 12;                                                    \
  const int cnt = (int)popcount(f);                                                           \
  wa[j] = cnt;                                                                                \
  fb[j] = (ushort)f;                                                                          \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  GPUX_MK_STEP(1, wa, wb)                                                                     \
  GPUX_MK_STEP(2, wb, wa)                                                                     \
  GPUX_MK_STEP(4, wa, wb)                                                                     \
  GPUX_MK_STEP(8, wb, wa)                                                                     \
  GPUX_MK_STEP(16, wa, wb)                                                                    \
  GPUX_MK_STEP(32, wb, wa)                                                                    \
  GPUX_MK_STEP(64, wa, wb)                                                                    \
  GPUX_MK_STEP(128, wb, wa)                                                                   \
  const int tc = wa[GPUX_MASK_THREADS - 1];                                                   \
  const long base = c > 0 ? incl[incl_off + c - 1] : 0;                                       \
  GPUX_MK_MOVE_##K(E)
#else
/* ---------------------------------------------------------------- CPU form */
#define GPUX_MK_BODY(K, E, SEL, STAGE, NZ)                                                    \
  const long c = GPUX_MK_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);           \
  const long t0 = c * GPUX_MASK_TILE;                                                         \
  if (t0 < n) {                                                                               \
    const int rem = (int)(n - t0 < GPUX_MASK_TILE ? n - t0 : GPUX_MASK_TILE);                 \
    long pos = c > 0 ? incl[incl_off + c - 1] : 0;                                            \
    for (int k = 0; k < rem; k++)                                                             \
      if (SEL(t0 + k)) {                                                                      \
        GPUX_MK_ACT_##K(t0 + k, pos)                                                          \
        pos++;                                                                                \
      }                                                                                       \
  }
#endif

#define GPUX_MK_KERNELS(sz)                                                                   \
  GPUX_MK_KERNELS_(sz, GPUX_MK_E_##sz, GPUX_MK_SEL_NZ_##sz, GPUX_MK_NZ_##sz)
#define GPUX_MK_KERNELS_(sz, E, SELNZ, NZ)                                                    \
  __kernel void gpux_mask_compress_##sz(__global const E *x, long x_off,                      \
                                        __global const uchar *mask, long mask_off,            \
                                        __global const long *incl, long incl_off,             \
                                        __global E *out, long out_off, long n, long gbase) {  \
    GPUX_MK_BODY(compress, E, GPUX_MK_SEL_MASK, GPUX_MK_STAGE_MASK, _)                        \
  }                                                                                           \
  __kernel void gpux_mask_put_##sz(__global E *x, long x_off, __global const uchar *mask,     \
                                   long mask_off, __global const long *incl, long incl_off,   \
                                   __global const E *vals, long vals_off, long n,             \
                                   long gbase) {                                              \
    GPUX_MK_BODY(put, E, GPUX_MK_SEL_MASK, GPUX_MK_STAGE_MASK, _)                             \
  }                                                                                           \
  __kernel void gpux_mask_nonzero_##sz(__global const E *x, long x_off, ulong nzbits,         \
                                       __global const long *incl, long incl_off,              \
                                       __global long *out, long out_off, long n, long sp,     \
                                       long sd, gpux_nd_params nd, long gbase) {              \
    GPUX_MK_BODY(nonzero, E, SELNZ, GPUX_MK_STAGE_NZ, NZ)                                     \
  }
GPUX_ELEM_SIZES(GPUX_MK_KERNELS)
