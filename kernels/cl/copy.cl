#include "gpux_kernels.h"
/* gpux OpenCL kernels, copy family: cast, copy_n, copy_t, fill, arange, linspace
 * (OpenCL C 1.2). Generated from the lists of gpux_kernels.h; semantics as listed there.
 *
 * Build options: -DGPUX_ELEMS_PER_ITEM=N and -DGPUX_EXACT_LAUNCH as in elementwise.cl
 * (contiguous kernels: cast _c, fill, arange, linspace; n-d ones: cast _n, copy_n). float64 kernels exist only where cl_khr_fp64 is defined; there
 * arange and linspace compute in double, elsewhere in float (RT below).
 *
 * Signatures (T the dtype; offsets and n in elements):
 *   gpux_cast_<from>_<to>_c(global TO *out, long out_off, global const FROM *in, long in_off,
 *                           long n)
 *   gpux_cast_<from>_<to>_n(global TO *out, global const FROM *in, gpux_nd_params p)
 *   gpux_copy_n_<bytes>(global E *out, global const E *in, gpux_nd_params p)
 *       E = uchar, ushort, uint, ulong; one element per work-item
 *   gpux_copy_t_<bytes>(global E *out, global const E *in, gpux_nd_params p)
 *       p with dims reordered by the host: 0 = the output's fast dim, 1 = tile_dim, 2.. batch;
 *       work-group (TILE, TILE_ROWS, 1), one per tile; global size
 *       (ceil(shape[1] / TILE) * TILE, ceil(shape[0] / TILE) * TILE_ROWS, batch)
 *   gpux_fill_<dt>(global T *out, long out_off, T value, long n)
 *   gpux_arange_<dt>(global T *out, long out_off, RT start, RT step, long n)
 *   gpux_linspace_<dt>(global T *out, long out_off, RT start, RT step, RT stop, long n)
 *       element n-1 is stop, except for n == 1 (start)
 */

/* ------------------------------------------------------------------ common prelude
 * (much the same as in elementwise.cl: each program is one self-contained source).
 * No variadic macros (OpenCL C forbids them); see elementwise.cl for GPUX_ON_<dt>. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double gpux_real;
#define GPUX_ON_f64(M, a, dt) M(a, dt)
#define GPUX_ON2_f64(M, a, dt) M(a, dt)
#else
typedef float gpux_real;
#define GPUX_ON_f64(M, a, dt)
#define GPUX_ON2_f64(M, a, dt)
#endif
#define GPUX_ON_f32(M, a, dt) M(a, dt)
#define GPUX_ON_i32(M, a, dt) M(a, dt)
#define GPUX_ON_i64(M, a, dt) M(a, dt)
#define GPUX_ON_u8(M, a, dt) M(a, dt)
#define GPUX_ON_b8(M, a, dt) M(a, dt)
/* a second set, for use inside an expansion of the first (casts: from, then to) */
#define GPUX_ON2_f32(M, a, dt) M(a, dt)
#define GPUX_ON2_i32(M, a, dt) M(a, dt)
#define GPUX_ON2_i64(M, a, dt) M(a, dt)
#define GPUX_ON2_u8(M, a, dt) M(a, dt)
#define GPUX_ON2_b8(M, a, dt) M(a, dt)

#ifndef GPUX_ELEMS_PER_ITEM
#define GPUX_ELEMS_PER_ITEM 1
#endif
#define GPUX_EPI GPUX_ELEMS_PER_ITEM
/* -DGPUX_EXACT_LAUNCH (CPU devices, with 1 element per work-item): the host launches
 * exactly n work-items (a tail launch covers the remainder of the work-group size), so
 * kernels need no bounds test; pocl vectorizes an unguarded body about 3x better. */
#ifdef GPUX_EXACT_LAUNCH
#if GPUX_EPI != 1
#error "GPUX_EXACT_LAUNCH needs GPUX_ELEMS_PER_ITEM 1"
#endif
#define GPUX_IN_RANGE(i, n) 1
#else
#define GPUX_IN_RANGE(i, n) ((i) < (n))
#endif

#define GPUX_CAT_(a, b) a##b
#define GPUX_CAT(a, b) GPUX_CAT_(a, b)
#define GPUX_CAT3_(a, b, c) a##b##c
#define GPUX_CAT3(a, b, c) GPUX_CAT3_(a, b, c)

#define GPUX_T_f32 float
#define GPUX_T_f64 double
#define GPUX_T_i32 int
#define GPUX_T_i64 long
#define GPUX_T_u8 uchar
#define GPUX_T_b8 uchar
#define GPUX_U_f32 uint
#define GPUX_U_f64 ulong
#define GPUX_U_i32 uint
#define GPUX_U_i64 ulong
#define GPUX_U_u8 uchar
#define GPUX_U_b8 uchar
#define GPUX_CLS_f32 F
#define GPUX_CLS_f64 F
#define GPUX_CLS_i32 S
#define GPUX_CLS_i64 S
#define GPUX_CLS_u8 U
#define GPUX_CLS_b8 B
#define GPUX_ASS_i32(x) as_int(x)
#define GPUX_ASS_i64(x) as_long(x)
#define GPUX_ASS_u8(x) ((uchar)(x))

/* Offsets of an n-d launch: GPUX_ND_BEGIN(p, i, NOPS) starts them for work-item i, then
 * GPUX_ND_OFF(p, k) is the element offset of operand k < NOPS; p is the parameter block
 * (the kernel argument), read in place with constant indices only.
 * 1-d launches (GPUs): work-item i is element i; the dimension loop runs over
 * GPUX_KMAX_DIMS so that it unrolls; 32-bit division when the index fits.
 * 3-d launches (GPUX_EXACT_LAUNCH, CPUs): the host passes p with its last three dims
 * reversed into dims 0, 1, 2 (missing ones of stride 0) and launches once per index of
 * any dims before those; NDRange dim j runs over dim j, so the kernel has no loop and no
 * division (pocl runs a loop or a dynamically indexed argument in the work-item body many
 * times slower). */
#ifdef GPUX_EXACT_LAUNCH
#define GPUX_ND_BEGIN(p, i, NOPS)                                               \
  const long i0_ = (long)get_global_id(0), i1_ = (long)get_global_id(1),       \
             i2_ = (long)get_global_id(2);
#define GPUX_ND_OFF(p, k)                                                       \
  ((p).offset[k] + i0_ * (p).stride[k][0] + i1_ * (p).stride[k][1] + i2_ * (p).stride[k][2])
#else
#define GPUX_ND_STEP(p, NOPS, x, d)                                                \
  o0_ += (x) * (p).stride[0][d];                                                   \
  o1_ += (x) * (p).stride[1][d];                                                   \
  if ((NOPS) > 2) o2_ += (x) * (p).stride[2][d];                                   \
  if ((NOPS) > 3) o3_ += (x) * (p).stride[3][d];
#define GPUX_ND_BEGIN(p, i, NOPS)                                                  \
  long o0_ = (p).offset[0], o1_ = (p).offset[1], o2_ = 0, o3_ = 0;                 \
  if ((NOPS) > 2) o2_ = (p).offset[2];                                             \
  if ((NOPS) > 3) o3_ = (p).offset[3];                                             \
  if ((p).n <= (long)0xffffffff) {                                                 \
    uint rem_ = (uint)(i);                                                         \
    for (int d_ = GPUX_KMAX_DIMS - 1; d_ >= 0; --d_)                               \
      if (d_ < (p).ndim) {                                                         \
        uint sh_ = (uint)(p).shape[d_], q_ = rem_ / sh_;                           \
        long x_ = (long)(rem_ - q_ * sh_);                                         \
        rem_ = q_;                                                                 \
        GPUX_ND_STEP(p, NOPS, x_, d_)                                              \
      }                                                                            \
  } else {                                                                         \
    long rem_ = (i);                                                               \
    for (int d_ = GPUX_KMAX_DIMS - 1; d_ >= 0; --d_)                               \
      if (d_ < (p).ndim) {                                                         \
        long sh_ = (p).shape[d_], q_ = rem_ / sh_, x_ = rem_ - q_ * sh_;           \
        rem_ = q_;                                                                 \
        GPUX_ND_STEP(p, NOPS, x_, d_)                                              \
      }                                                                            \
  }
#define GPUX_ND_OFF(p, k) o##k##_
#endif

/* Contiguous bodies: out[o0 + j] = EXPR for this work-item's elements j, where EXPR may
 * read j (long) and x1 = in1[o1 + j]. */
#if GPUX_EPI == 1
#define GPUX_MAP_C0(OT, OV, out, o0, n, EXPR) \
  {                                       \
    long j = (long)get_global_id(0);      \
    if (GPUX_IN_RANGE(j, n)) (out)[(o0) + j] = (EXPR); \
  }
#define GPUX_MAP_C1(OT, OV, out, o0, T1, in1, o1, n, EXPR) \
  {                                                  \
    long j_ = (long)get_global_id(0);                \
    if (GPUX_IN_RANGE(j_, n)) {                                  \
      T1 x1 = (in1)[(o1) + j_];                      \
      (out)[(o0) + j_] = (EXPR);                     \
    }                                                \
  }
#else
#define GPUX_VEC(T) GPUX_CAT(T, GPUX_EPI)
#define GPUX_MAP_C0(OT, OV, out, o0, n, EXPR)                                     \
  {                                                                         \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                            \
    __global OT *po_ = (out) + (o0) + b_;                                   \
    if (b_ + GPUX_EPI <= (n) && ((o0) & (GPUX_EPI - 1)) == 0) {             \
      union { OV v; OT s[GPUX_EPI]; } u0_;                        \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                               \
        long j = b_ + k_;                                                   \
        u0_.s[k_] = (EXPR);                                                 \
      }                                                                     \
      *(__global OV *)po_ = u0_.v;                                \
    } else if (b_ < (n)) {                                                  \
      int m_ = (int)min((long)GPUX_EPI, (n) - b_);                          \
      for (int k_ = 0; k_ < m_; ++k_) {                                     \
        long j = b_ + k_;                                                   \
        po_[k_] = (EXPR);                                                   \
      }                                                                     \
    }                                                                       \
  }
#define GPUX_MAP_C1(OT, OV, out, o0, T1, in1, o1, n, EXPR)                        \
  {                                                                         \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                            \
    __global OT *po_ = (out) + (o0) + b_;                                   \
    __global const T1 *p1_ = (in1) + (o1) + b_;                             \
    if (b_ + GPUX_EPI <= (n) && (((o0) | (o1)) & (GPUX_EPI - 1)) == 0) {    \
      union { GPUX_VEC(T1) v; T1 s[GPUX_EPI]; } u1_;                        \
      union { OV v; OT s[GPUX_EPI]; } u0_;                        \
      u1_.v = *(__global const GPUX_VEC(T1) *)p1_;                          \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                               \
        T1 x1 = u1_.s[k_];                                                  \
        u0_.s[k_] = (EXPR);                                                 \
      }                                                                     \
      *(__global OV *)po_ = u0_.v;                                \
    } else if (b_ < (n)) {                                                  \
      int m_ = (int)min((long)GPUX_EPI, (n) - b_);                          \
      for (int k_ = 0; k_ < m_; ++k_) {                                     \
        T1 x1 = p1_[k_];                                                    \
        po_[k_] = (EXPR);                                                   \
      }                                                                     \
    }                                                                       \
  }
#endif

/* ------------------------------------------------------------------ conversions
 * GPUX_CVT(from, to, x) by class pair: to bool x != 0; from bool 0 or 1; float -> int
 * truncates and saturates (convert_*_sat_rtz), NaN -> 0; int -> int wraps (through the
 * unsigned type of the target width); to float rounds to nearest. NaN is tested explicitly:
 * NVIDIA's OpenCL gives INT64_MIN for convert_long_sat_rtz(NaN), and not 0 for every pair. */
#define GPUX_CVT(from, to, x) GPUX_CAT3(GPUX_CVT_, GPUX_CLS_##from, GPUX_CLS_##to)(to, x)
#define GPUX_CVT_FF(to, x) ((GPUX_T_##to)(x))
#define GPUX_CVT_SF(to, x) ((GPUX_T_##to)(x))
#define GPUX_CVT_UF(to, x) ((GPUX_T_##to)(x))
#define GPUX_CVT_BF(to, x) ((GPUX_T_##to)((x) != 0))
#define GPUX_CVT_FS(to, x) (isnan(x) ? (GPUX_T_##to)0 : GPUX_CAT3(convert_, GPUX_T_##to, _sat_rtz)(x))
#define GPUX_CVT_FU(to, x) (isnan(x) ? (GPUX_T_##to)0 : GPUX_CAT3(convert_, GPUX_T_##to, _sat_rtz)(x))
#define GPUX_CVT_SS(to, x) GPUX_ASS_##to((GPUX_U_##to)(x))
#define GPUX_CVT_SU(to, x) GPUX_ASS_##to((GPUX_U_##to)(x))
#define GPUX_CVT_US(to, x) GPUX_ASS_##to((GPUX_U_##to)(x))
#define GPUX_CVT_UU(to, x) GPUX_ASS_##to((GPUX_U_##to)(x))
#define GPUX_CVT_BS(to, x) ((GPUX_T_##to)((x) != 0))
#define GPUX_CVT_BU(to, x) ((GPUX_T_##to)((x) != 0))
#define GPUX_CVT_FB(to, x) ((uchar)((x) != 0))
#define GPUX_CVT_SB(to, x) ((uchar)((x) != 0))
#define GPUX_CVT_UB(to, x) ((uchar)((x) != 0))
#define GPUX_CVT_BB(to, x) ((uchar)((x) != 0))
/* from the real type of arange / linspace (a float class) */
#define GPUX_CVT_REAL(to, x) GPUX_CAT(GPUX_CVT_F, GPUX_CLS_##to)(to, x)

/* ------------------------------------------------------------------ cast */
#define GPUX_CAST_KERNELS(from, to) \
  GPUX_CAST_KERNELS_(gpux_cast_##from##_##to, GPUX_T_##from, GPUX_T_##to, from, to)
#define GPUX_CAST_KERNELS_(k, F, T, from, to)                                                 \
  __kernel void k##_c(__global T *out, long out_off, __global const F *in, long in_off,       \
                      long n) {                                                               \
    GPUX_MAP_C1(T, GPUX_VEC(T), out, out_off, F, in, in_off, n, GPUX_CVT(from, to, x1))                    \
  }                                                                                           \
  __kernel void k##_n(__global T *out, __global const F *in, gpux_nd_params p) {              \
    long i = (long)get_global_id(0);                                                          \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                            \
      GPUX_ND_BEGIN(p, i, 2)                                                       \
      out[GPUX_ND_OFF(p, 0)] = GPUX_CVT(from, to, in[GPUX_ND_OFF(p, 1)]);                                           \
    }                                                                                         \
  }
/* Every (from, to) pair. A macro cannot expand inside its own expansion, so the inner
 * GPUX_DT_ALL is deferred: GPUX_CAST_FROM leaves "GPUX_DT_ALL_INDIRECT () (...)" behind,
 * which the rescan of GPUX_EXPAND turns into the inner list (the usual C99 idiom). */
#define GPUX_EXPAND(x) x
#define GPUX_EMPTY()
#define GPUX_DT_ALL_INDIRECT() GPUX_DT_ALL
#define GPUX_CAST_TO(from, to) GPUX_ON2_##to(GPUX_CAST_KERNELS, from, to)
#define GPUX_CAST_FROM_(a_, from) GPUX_DT_ALL_INDIRECT GPUX_EMPTY()()(GPUX_CAST_TO, from)
#define GPUX_CAST_FROM(a_, from) GPUX_ON_##from(GPUX_CAST_FROM_, a_, from)
GPUX_EXPAND(GPUX_DT_ALL(GPUX_CAST_FROM, _))

/* ------------------------------------------------------------------ copy_n, copy_t */
#define GPUX_ELEM_1 uchar
#define GPUX_ELEM_2 ushort
#define GPUX_ELEM_4 uint
#define GPUX_ELEM_8 ulong

/* copy_t: one TILE x TILE tile per work-group of TILE x TILE_ROWS work-items; a 3-d
 * NDRange (tiles along D * TILE, tiles along L * TILE_ROWS, batch). The host reorders the
 * dims of p for this kernel: dim 0 is L (the output's fast dim), dim 1 is D (stride 1 in
 * the input), dims 2.. the batch dims. Reads run along D, writes along L, through the
 * padded local tile. Work-groups are uniform: a group either returns as a whole or reaches
 * the barrier as a whole. */
#define GPUX_COPY_KERNELS(sz) GPUX_COPY_KERNELS_(sz, GPUX_ELEM_##sz)
#define GPUX_COPY_KERNELS_(sz, E)                                                            \
  __kernel void gpux_copy_n_##sz(__global E *out, __global const E *in, gpux_nd_params p) { \
    long i = (long)get_global_id(0);                                                         \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                           \
      GPUX_ND_BEGIN(p, i, 2)                                                      \
      out[GPUX_ND_OFF(p, 0)] = in[GPUX_ND_OFF(p, 1)];                                                              \
    }                                                                                        \
  }                                                                                          \
  __kernel __attribute__((reqd_work_group_size(GPUX_COPY_TILE, GPUX_COPY_TILE_ROWS, 1)))     \
  void gpux_copy_t_##sz(__global E *out, __global const E *in, gpux_nd_params p) {           \
    __local E tile[GPUX_COPY_TILE][GPUX_COPY_TILE + 1];                                       \
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);                           \
    const long nL = p.shape[0], nD = p.shape[1];                                              \
    const long d0 = (long)(get_global_id(0) / GPUX_COPY_TILE) * GPUX_COPY_TILE;               \
    const long l0 = (long)(get_global_id(1) / GPUX_COPY_TILE_ROWS) * GPUX_COPY_TILE;          \
    long o0 = p.offset[0], o1 = p.offset[1];                                                  \
    if (p.ndim > 2) { /* batch index: get_global_id(2) over dims 2.. */                       \
      long bi = (long)get_global_id(2);                                                       \
      for (int d = GPUX_KMAX_DIMS - 1; d >= 2; --d)                                           \
        if (d < p.ndim) {                                                                     \
          long sh = p.shape[d], q = bi / sh, x = bi - q * sh;                                 \
          bi = q;                                                                             \
          o0 += x * p.stride[0][d];                                                           \
          o1 += x * p.stride[1][d];                                                           \
        }                                                                                     \
    }                                                                                         \
    __global const E *src = in + o1 + d0 * p.stride[1][1] + l0 * p.stride[1][0];              \
    __global E *dst = out + o0 + d0 * p.stride[0][1] + l0 * p.stride[0][0];                   \
    const int rD = (int)min((long)GPUX_COPY_TILE, nD - d0);                                   \
    const int rL = (int)min((long)GPUX_COPY_TILE, nL - l0);                                   \
    if (rD == GPUX_COPY_TILE && rL == GPUX_COPY_TILE) { /* whole tile: no tests */            \
      __global const E *s = src + tx * p.stride[1][1] + ty * p.stride[1][0];                  \
      for (int r = 0; r < GPUX_COPY_TILE; r += GPUX_COPY_TILE_ROWS)                           \
        tile[ty + r][tx] = s[r * p.stride[1][0]];                                             \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      __global E *t = dst + ty * p.stride[0][1] + tx * p.stride[0][0];                        \
      for (int r = 0; r < GPUX_COPY_TILE; r += GPUX_COPY_TILE_ROWS)                           \
        t[r * p.stride[0][1]] = tile[tx][ty + r];                                             \
    } else { /* ragged edge */                                                                \
      if (tx < rD)                                                                            \
        for (int r = ty; r < rL; r += GPUX_COPY_TILE_ROWS)                                    \
          tile[r][tx] = src[tx * p.stride[1][1] + r * p.stride[1][0]];                        \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      if (tx < rL)                                                                            \
        for (int r = ty; r < rD; r += GPUX_COPY_TILE_ROWS)                                    \
          dst[r * p.stride[0][1] + tx * p.stride[0][0]] = tile[tx][r];                        \
    }                                                                                         \
  }
GPUX_ELEM_SIZES(GPUX_COPY_KERNELS)

/* ------------------------------------------------------------------ fill, arange, linspace */
#define GPUX_FILL_KERNELS(a_, dt) GPUX_FILL_KERNELS_(dt, GPUX_T_##dt)
#define GPUX_FILL_KERNELS_(dt, T)                                                           \
  __kernel void gpux_fill_##dt(__global T *out, long out_off, T value, long n) {            \
    GPUX_MAP_C0(T, GPUX_VEC(T), out, out_off, n, value)                                                  \
  }                                                                                         \
  __kernel void gpux_arange_##dt(__global T *out, long out_off, gpux_real start,            \
                                 gpux_real step, long n) {                                  \
    GPUX_MAP_C0(T, GPUX_VEC(T), out, out_off, n, GPUX_CVT_REAL(dt, start + (gpux_real)j * step))         \
  }                                                                                         \
  __kernel void gpux_linspace_##dt(__global T *out, long out_off, gpux_real start,          \
                                   gpux_real step, gpux_real stop, long n) {                \
    GPUX_MAP_C0(T, GPUX_VEC(T), out, out_off, n,                                                         \
                GPUX_CVT_REAL(dt, (j == n - 1 && j > 0) ? stop : start + (gpux_real)j * step))         \
  }
#define GPUX_FILL_DT(a_, dt) GPUX_ON_##dt(GPUX_FILL_KERNELS, a_, dt)
GPUX_DT_ALL(GPUX_FILL_DT, _)
