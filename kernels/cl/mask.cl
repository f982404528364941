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
 * GPU form (work-groups of GPUX_MASK_THREADS = 256, one per tile): work-item j tests its 16
 *   consecutive elements 16j .. 16j+15 into a bit set, the work-group scans the 256 counts in
 *   local memory (Hillis-Steele, a barrier a step), and j writes its selected elements from
 *   its exclusive prefix on, in order.
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

#define GPUX_MK_GROUP() \
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

#ifndef GPUX_CL_CPU
/* ---------------------------------------------------------------- GPU form */
#define GPUX_MK_STEP(off, from, to)                                                           \
  to[j] = j >= (off) ? from[j - (off)] + from[j] : from[j];                                   \
  barrier(CLK_LOCAL_MEM_FENCE);
#define GPUX_MK_BODY(K, SEL)                                                                       \
  __local int wa[GPUX_MASK_THREADS], wb[GPUX_MASK_THREADS];                                   \
  const int j = (int)get_local_id(0);                                                         \
  const long c = GPUX_MK_GROUP(), t0 = c * GPUX_MASK_TILE;                                    \
  const int rem = (int)(n - t0 < GPUX_MASK_TILE ? n - t0 : GPUX_MASK_TILE);                   \
  uint f = 0;                                                                                 \
  for (int k = 0; k < 16; k++) {                                                              \
    const int idx = 16 * j + k;                                                               \
    if (idx < rem && SEL(t0 + idx)) f |= 1u << k;                                 \
  }                                                                                           \
  const int cnt = (int)popcount(f);                                                           \
  wa[j] = cnt;                                                                                \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  GPUX_MK_STEP(1, wa, wb)                                                                     \
  GPUX_MK_STEP(2, wb, wa)                                                                     \
  GPUX_MK_STEP(4, wa, wb)                                                                     \
  GPUX_MK_STEP(8, wb, wa)                                                                     \
  GPUX_MK_STEP(16, wa, wb)                                                                    \
  GPUX_MK_STEP(32, wb, wa)                                                                    \
  GPUX_MK_STEP(64, wa, wb)                                                                    \
  GPUX_MK_STEP(128, wb, wa)                                                                   \
  long pos = (c > 0 ? incl[incl_off + c - 1] : 0) + (long)(wa[j] - cnt);                      \
  for (int k = 0; k < 16 && f; k++, f >>= 1)                                                  \
    if (f & 1u) {                                                                             \
      const long i_ = t0 + 16 * j + k;                                                        \
      GPUX_MK_ACT_##K(i_, pos)                                                                \
      pos++;                                                                                  \
    }
#else
/* ---------------------------------------------------------------- CPU form */
#define GPUX_MK_BODY(K, SEL)                                                                       \
  const long c = GPUX_MK_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);           \
  const long t0 = c * GPUX_MASK_TILE;                                                         \
  if (t0 < n) {                                                                               \
    const int rem = (int)(n - t0 < GPUX_MASK_TILE ? n - t0 : GPUX_MASK_TILE);                 \
    long pos = c > 0 ? incl[incl_off + c - 1] : 0;                                            \
    for (int k = 0; k < rem; k++)                                                             \
      if (SEL(t0 + k)) {                                                          \
        GPUX_MK_ACT_##K(t0 + k, pos)                                                          \
        pos++;                                                                                \
      }                                                                                       \
  }
#endif

#define GPUX_MK_KERNELS(sz) GPUX_MK_KERNELS_(sz, GPUX_MK_E_##sz, GPUX_MK_SEL_NZ_##sz)
#define GPUX_MK_KERNELS_(sz, E, SELNZ)                                                         \
  __kernel void gpux_mask_compress_##sz(__global const E *x, long x_off,                      \
                                        __global const uchar *mask, long mask_off,            \
                                        __global const long *incl, long incl_off,             \
                                        __global E *out, long out_off, long n, long gbase) {  \
    GPUX_MK_BODY(compress, GPUX_MK_SEL_MASK)                                                                    \
  }                                                                                           \
  __kernel void gpux_mask_put_##sz(__global E *x, long x_off, __global const uchar *mask,     \
                                   long mask_off, __global const long *incl, long incl_off,   \
                                   __global const E *vals, long vals_off, long n,             \
                                   long gbase) {                                              \
    GPUX_MK_BODY(put, GPUX_MK_SEL_MASK)                                                                         \
  }                                                                                           \
  __kernel void gpux_mask_nonzero_##sz(__global const E *x, long x_off, ulong nzbits,         \
                                       __global const long *incl, long incl_off,              \
                                       __global long *out, long out_off, long n, long sp,     \
                                       long sd, gpux_nd_params nd, long gbase) {              \
    GPUX_MK_BODY(nonzero, SELNZ)                                                                     \
  }
GPUX_ELEM_SIZES(GPUX_MK_KERNELS)
