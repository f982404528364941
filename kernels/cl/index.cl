#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#include "gpux_kernels.h"
/* gpux OpenCL kernels, index family: gather (take, take_along_axis) and put
 * (put, put_along_axis) by element size and index dtype (OpenCL C 1.2 with
 * cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics: the deferred error key and
 * int64 winner scratch take 64-bit atomic min / max). Names, parameters and the deferred
 * error word: "Gather and put" in gpux_kernels.h; kernels/cuda/index.cu is the same
 * algorithm.
 *
 * Built per part: -DGPUX_PART=<GPUX_KDT_i32 or GPUX_KDT_i64>, the index dtype.
 * Every launch is 1-d (src/backend_opencl/cl_index.c): one element per work-item, except
 * take's GPU form (GPUX_IX_TAKE_ITEMS elements, strided by the work-group size, so that
 * the loads of a group stay coalesced and each work-item has several gathers in flight).
 * The n-d kernels find their offsets with a loop over the dims (no 3-d exact launches:
 * put's winner is the row-major iteration number, which is the work-item's global id). */
#include "gpux_cl_prelude.h"

#define IX_E_1 uchar
#define IX_E_2 ushort
#define IX_E_4 uint
#define IX_E_8 ulong
#define IX_E_16 ulong2
#define IX_I_i32 int
#define IX_I_i64 long

/* the offsets o0_ .. o3_ of iteration i: GPUX_ND_LOOP_BEGIN (gpux_cl_prelude.h), whose
 * 1-d loop these kernels take in every form */
#define IX_ND(p, i) GPUX_ND_LOOP_BEGIN(p, i, 4)

/* a bad index at idx position pos under checked mode: the key goes into err[0] when smaller
 * (read first: a launch full of bad indices does not queue on one word) */
#define IX_RECORD(err, x, pos)                                                               \
  {                                                                                          \
    const long k_ = (x).key | (pos);                                                         \
    if (*(volatile __global long *)(err) > k_) atom_min((volatile __global long *)(err), k_);\
  }

#define IX_ATOMIC_MAX_i32(p, v) atomic_max((volatile __global int *)(p), (int)(v))
#define IX_ATOMIC_MAX_i64(p, v) atom_max((volatile __global long *)(p), (long)(v))

#define IX_SZ_KERNELS(sz, it) IX_SZ_KERNELS_(sz, it, IX_E_##sz, IX_I_##it)
#define IX_SZ_KERNELS_(sz, it, E, I)                                                        \
  __kernel void gpux_index_gather_##sz##_##it(__global E *out, __global const E *src,       \
                                              __global const I *idx, __global long *err,    \
                                              gpux_ix_params x, gpux_nd_params p) {         \
    const long i = (long)get_global_id(0);                                                  \
    if (GPUX_IN_RANGE(i, x.n)) {                                                            \
      IX_ND(p, i)                                                                           \
      const long v = (long)idx[o2_];                                                        \
      const long w = GPUX_IX_RESOLVE(v, x.len, x.mode);                                     \
      E r = (E)0;                                                                           \
      if (w >= 0) r = src[o1_ + w * x.astride];                                             \
      else IX_RECORD(err, x, o3_)                                                           \
      out[o0_] = r;                                                                         \
    }                                                                                       \
  }                                                                                         \
  __kernel void gpux_index_take_##sz##_##it(__global E *out, __global const E *src,         \
                                            __global const I *idx, __global long *err,      \
                                            gpux_ix_params x) {                             \
    IX_TAKE_BODY(E)                                                                         \
  }                                                                                         \
  IX_PUT_KERNEL(sz, it, i32, E, I, int)                                                     \
  IX_PUT_KERNEL(sz, it, i64, E, I, long)
#define IX_PUT_KERNEL(sz, it, wt, E, I, W)                                                  \
  __kernel void gpux_index_put_##sz##_##it##_##wt(__global E *dst, __global const E *vals,  \
                                                  __global const I *idx,                    \
                                                  __global const W *win, gpux_ix_params x,  \
                                                  gpux_nd_params p) {                       \
    const long i = (long)get_global_id(0);                                                  \
    if (GPUX_IN_RANGE(i, x.n)) {                                                            \
      IX_ND(p, i)                                                                           \
      const long v = (long)idx[o2_];                                                        \
      const long w = GPUX_IX_RESOLVE(v, x.len, x.mode);                                     \
      if (w >= 0) {                                                                         \
        const long d = o0_ + w * x.astride;                                                 \
        if (win[d - x.woff] == (W)i) dst[d] = vals[x.vmod ? x.off1 + i % x.vmod : o1_];     \
      }                                                                                     \
    }                                                                                       \
  }

/* take: out[off0 + j] = src[off1 + w * astride] for j in this work-item's elements */
#define IX_TAKE_ONE(E, j, w)                                                                 \
  {                                                                                          \
    E r_ = (E)0;                                                                             \
    if ((w) >= 0) r_ = src[x.off1 + (w) * x.astride];                                        \
    else IX_RECORD(err, x, (j))                                                              \
    out[x.off0 + (j)] = r_;                                                                  \
  }
#if GPUX_EPI == 1 /* CPU form: one element per work-item */
#define IX_TAKE_BODY(E)                                                                      \
  const long j = (long)get_global_id(0);                                                     \
  if (GPUX_IN_RANGE(j, x.n)) {                                                               \
    const long v = (long)idx[x.off2 + j];                                                    \
    const long w = GPUX_IX_RESOLVE(v, x.len, x.mode);                                        \
    IX_TAKE_ONE(E, j, w)                                                                     \
  }
#else /* GPU form: GPUX_IX_TAKE_ITEMS elements, the group's block strided by its size; every
       * load of a kind issued before any result is used (as index.cu's take): the indices
       * (whole runs without bounds), then the gathers (a bad index's at the source's element
       * 0, len >= 1, discarded), then the stores (a store between two gathers would keep the
       * second waiting on the first: OpenCL 1.2 cannot say that out and src do not alias) */
#define IX_TAKE_BODY(E)                                                                      \
  const long ls = (long)get_local_size(0);                                                   \
  const long j0 = ((long)get_global_id(0) - (long)get_local_id(0)) * GPUX_IX_TAKE_ITEMS +    \
                  (long)get_local_id(0);                                                     \
  long w[GPUX_IX_TAKE_ITEMS];                                                                \
  if (j0 + (GPUX_IX_TAKE_ITEMS - 1) * ls < x.n) {                                            \
    for (int k = 0; k < GPUX_IX_TAKE_ITEMS; k++) w[k] = (long)idx[x.off2 + j0 + k * ls];     \
  } else {                                                                                   \
    for (int k = 0; k < GPUX_IX_TAKE_ITEMS; k++)                                             \
      w[k] = j0 + k * ls < x.n ? (long)idx[x.off2 + j0 + k * ls] : 0;                        \
  }                                                                                          \
  for (int k = 0; k < GPUX_IX_TAKE_ITEMS; k++) w[k] = GPUX_IX_RESOLVE(w[k], x.len, x.mode);  \
  E r[GPUX_IX_TAKE_ITEMS];                                                                   \
  for (int k = 0; k < GPUX_IX_TAKE_ITEMS; k++)                                               \
    r[k] = src[x.off1 + (w[k] >= 0 ? w[k] : 0) * x.astride];                                 \
  for (int k = 0; k < GPUX_IX_TAKE_ITEMS; k++) {                                             \
    const long j = j0 + k * ls;                                                              \
    if (j < x.n) {                                                                           \
      if (w[k] < 0) {                                                                        \
        r[k] = (E)0;                                                                         \
        IX_RECORD(err, x, j)                                                                 \
      }                                                                                      \
      out[x.off0 + j] = r[k];                                                                \
    }                                                                                        \
  }
#endif

#define IX_IT_KERNELS(it) IX_IT_KERNELS_(it, IX_I_##it)
#define IX_IT_KERNELS_(it, I)                                                               \
  IX_SZ_KERNELS(1, it)                                                                      \
  IX_SZ_KERNELS(2, it)                                                                      \
  IX_SZ_KERNELS(4, it)                                                                      \
  IX_SZ_KERNELS(8, it)                                                                      \
  IX_SZ_KERNELS(16, it)                                                                     \
  IX_MARK_KERNEL(it, i32, I, int)                                                           \
  IX_MARK_KERNEL(it, i64, I, long)                                                          \
  __kernel void gpux_index_badval_##it(__global const I *idx, __global long *err, long key, \
                                       gpux_nd_params q) {                                  \
    if (get_global_id(0) != 0) return;                                                      \
    const long e = err[0];                                                                  \
    if (e == GPUX_IX_NO_KEY || (e >> GPUX_IX_POS_BITS) != (key >> GPUX_IX_POS_BITS)) return;\
    long pos = e & (((long)1 << GPUX_IX_POS_BITS) - 1), off = q.offset[0];                  \
    for (int d = GPUX_KMAX_DIMS - 1; d >= 0; --d)                                           \
      if (d < q.ndim) {                                                                     \
        const long sh = q.shape[d];                                                         \
        off += (pos % sh) * q.stride[0][d];                                                 \
        pos /= sh;                                                                          \
      }                                                                                     \
    err[1] = (long)idx[off];                                                                \
  }
#define IX_MARK_KERNEL(it, wt, I, W)                                                        \
  __kernel void gpux_index_mark_##it##_##wt(__global W *win, __global const I *idx,         \
                                            __global long *err, gpux_ix_params x,           \
                                            gpux_nd_params p) {                             \
    const long i = (long)get_global_id(0);                                                  \
    if (GPUX_IN_RANGE(i, x.n)) {                                                            \
      IX_ND(p, i)                                                                           \
      const long v = (long)idx[o2_];                                                        \
      const long w = GPUX_IX_RESOLVE(v, x.len, x.mode);                                     \
      if (w >= 0) IX_ATOMIC_MAX_##wt(win + (o0_ + w * x.astride - x.woff), i);              \
      else IX_RECORD(err, x, o3_)                                                           \
    }                                                                                       \
  }

#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_i32
IX_IT_KERNELS(i32)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_i64
IX_IT_KERNELS(i64)
#endif
