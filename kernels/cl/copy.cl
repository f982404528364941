#pragma OPENCL FP_CONTRACT OFF
#include "gpux_kernels.h"
/* gpux OpenCL kernels, copy family: cast, copy_n, copy_t, fill, arange, linspace
 * (OpenCL C 1.2). Generated from the lists of gpux_kernels.h; semantics as listed there.
 *
 * float16 / bfloat16 (GPUX_DT_HALF) are ushort bit patterns; their conversions are integer
 * bit operations (below), so no cl_khr_fp16 is needed.
 *
 * arange / linspace round start + j * step per operation (FP_CONTRACT OFF above: no fma), as
 * the CUDA kernels (__dadd_rn / __dmul_rn) and the CPU reference do.
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
 *       E = uchar, ushort, uint, ulong, ulong2; one element per work-item
 *   gpux_copy_t_<bytes>(global E *out, global const E *in, gpux_nd_params p)
 *       p with dims reordered by the host: 0 = the output's fast dim, 1 = tile_dim, 2.. batch;
 *       work-group (TILE, TILE_ROWS, 1), one per tile; global size
 *       (ceil(shape[1] / TILE) * TILE, ceil(shape[0] / TILE) * TILE_ROWS, batch)
 *   gpux_fill_<dt>(global T *out, long out_off, T value, long n)
 *   gpux_arange_<dt>(global T *out, long out_off, RT start, RT step, long n)
 *   gpux_linspace_<dt>(global T *out, long out_off, RT start, RT step, RT stop, long n)
 *       element n-1 is stop, except for n == 1 (start)
 */

#include "gpux_cl_prelude.h"


/* ------------------------------------------------------------------ conversions
 * GPUX_CVT(from, to, x) by class pair (GPUX_CLS_<dt>: F float, H float16 / bfloat16, S / U
 * signed / unsigned integer, B bool), the rules of gpux_kernels.h: to bool x != 0; from bool
 * 0 or 1; float -> int truncates and saturates (convert_*_sat_rtz: the bounds are the
 * target's range itself, 2^63 and 2^64 included, not a float rounding of its limits), NaN
 * -> 0; int -> int wraps (the low bits: GPUX_ASS); int -> float rounds to nearest even (C's
 * conversion in OpenCL's default rounding mode). NaN is tested explicitly: NVIDIA's OpenCL
 * gives INT64_MIN for convert_long_sat_rtz(NaN), and not 0 for every pair. */
#define GPUX_CVT(from, to, x) GPUX_CAT3(GPUX_CVT_, GPUX_CLS_##from, GPUX_CLS_##to)(from, to, x)
#define GPUX_CVT_FF(from, to, x) ((GPUX_T_##to)(x))
#define GPUX_CVT_SF(from, to, x) ((GPUX_T_##to)(x))
#define GPUX_CVT_UF(from, to, x) ((GPUX_T_##to)(x))
#define GPUX_CVT_BF(from, to, x) ((GPUX_T_##to)((x) != 0))
#define GPUX_CVT_FS(from, to, x)                                                              \
  (isnan(x) ? (GPUX_T_##to)0 : GPUX_CAT3(convert_, GPUX_T_##to, _sat_rtz)(x))
#define GPUX_CVT_FU GPUX_CVT_FS
#define GPUX_CVT_SS(from, to, x) GPUX_ASS(to, x)
#define GPUX_CVT_SU(from, to, x) GPUX_ASS(to, x)
#define GPUX_CVT_US(from, to, x) GPUX_ASS(to, x)
#define GPUX_CVT_UU(from, to, x) GPUX_ASS(to, x)
#define GPUX_CVT_BS(from, to, x) ((GPUX_T_##to)((x) != 0))
#define GPUX_CVT_BU(from, to, x) ((GPUX_T_##to)((x) != 0))
#define GPUX_CVT_FB(from, to, x) ((uchar)((x) != 0))
#define GPUX_CVT_SB(from, to, x) ((uchar)((x) != 0))
#define GPUX_CVT_UB(from, to, x) ((uchar)((x) != 0))
#define GPUX_CVT_BB(from, to, x) ((uchar)((x) != 0))

/* ------------------------------------------------------------------ float16 / bfloat16
 * Stored as ushort bit patterns; every conversion is integer bit work (no cl_khr_fp16, no
 * dependence on the device's rounding or denormal modes) in kernels/common/gpux_half.h,
 * the text kernels/cuda/copy.cu and the core compile too (rules in gpux_kernels.h). */
/* (their types and generation switches: gpux_cl_prelude.h) */

#include "gpux_half.h" /* gpux_f32_to_f16, ...: the conversions, spliced in */
#define GPUX_H2F_f16(x) gpux_f16_to_f32(x)
#define GPUX_H2F_bf16(x) gpux_bf16_to_f32(x)
/* to a half dtype: the exact value rounded once. Integers to float16 through float32: its
 * rounding is exact below 2^24, and from 2^24 on both it and float16's are inf (from 65520
 * on); to bfloat16 from the 64-bit magnitude (through float32 would round twice) */
#define GPUX_CVT_FH(from, to, x) GPUX_TOH_##to##_##from(x)
#define GPUX_CVT_SH(from, to, x) GPUX_TOH_##to##_S(x)
#define GPUX_CVT_UH(from, to, x) GPUX_TOH_##to##_U(x)
#define GPUX_CVT_BH(from, to, x) GPUX_TOH_##to##_B(x)
#define GPUX_TOH_f16_f32(x) gpux_f32_to_f16(as_uint(x))
#define GPUX_TOH_f16_f64(x) gpux_f64_to_f16(as_ulong(x))
#define GPUX_TOH_f16_S(x) gpux_f32_to_f16(as_uint((float)(x)))
#define GPUX_TOH_f16_U(x) gpux_f32_to_f16(as_uint((float)(x)))
#define GPUX_TOH_f16_B(x) ((ushort)((x) != 0 ? 0x3c00u : 0u))
#define GPUX_TOH_bf16_f32(x) gpux_f32_to_bf16(as_uint(x))
#define GPUX_TOH_bf16_f64(x) gpux_f64_to_bf16(as_ulong(x))
#define GPUX_TOH_bf16_S(x) gpux_i64_to_bf16((long)(x))
#define GPUX_TOH_bf16_U(x) gpux_u64_to_bf16((ulong)(x))
#define GPUX_TOH_bf16_B(x) ((ushort)((x) != 0 ? 0x3f80u : 0u))
/* from a half dtype: to floats exactly, to integers through float32 (exact) then the float
 * -> int rule, to bool by the bits (-0.0 is false, NaN true), to the other half through
 * float32 (one rounding) */
#define GPUX_CVT_HF(from, to, x) GPUX_FROMH_##to(from, x)
#define GPUX_CVT_HS(from, to, x) GPUX_CVT_FS(f32, to, as_float(GPUX_H2F_##from(x)))
#define GPUX_CVT_HU GPUX_CVT_HS
#define GPUX_CVT_HB(from, to, x) ((uchar)(((x) & 0x7fffu) != 0))
#define GPUX_CVT_HH(from, to, x) GPUX_H2H_##to##_##from(x)
#define GPUX_FROMH_f32(h, x) as_float(GPUX_H2F_##h(x))
#define GPUX_FROMH_f64(h, x) as_double(gpux_f32b_to_f64b(GPUX_H2F_##h(x)))
#define GPUX_H2H_f16_f16(x) (x)
#define GPUX_H2H_f16_bf16(x) gpux_f32_to_f16(gpux_bf16_to_f32(x))
#define GPUX_H2H_bf16_bf16(x) (x)
#define GPUX_H2H_bf16_f16(x) gpux_f32_to_bf16(gpux_f16_to_f32(x))

/* ------------------------------------------------------------------ complex64 / complex128
 * float2 / double2, (re, im) in .s0, .s1. From a real dtype: (the cast to the component dtype,
 * +0.0); to bool: re != 0 || im != 0; to another real dtype: the real part, cast from the
 * component dtype; between the complex dtypes: component by component (rules in
 * gpux_kernels.h). The component casts are the class pair's own macros (GPUX_CVT itself
 * cannot expand inside its own expansion). */
#define GPUX_MKC(to, re) ((GPUX_T_##to)((re), (GPUX_CT_##to)0))
#define GPUX_CVT_FC(from, to, x) GPUX_MKC(to, (GPUX_CT_##to)(x))
#define GPUX_CVT_SC GPUX_CVT_FC
#define GPUX_CVT_UC GPUX_CVT_FC
#define GPUX_CVT_BC(from, to, x) GPUX_MKC(to, (GPUX_CT_##to)((x) != 0))
#define GPUX_CVT_HC(from, to, x) GPUX_MKC(to, GPUX_FROMH_C_##to(from, x))
#define GPUX_FROMH_C_c64(h, x) GPUX_FROMH_f32(h, x)
#define GPUX_FROMH_C_c128(h, x) GPUX_FROMH_f64(h, x)
#define GPUX_CVT_CF(from, to, x) GPUX_CVT_FF(from, to, (x).s0)
#define GPUX_CVT_CS(from, to, x) GPUX_CVT_FS(from, to, (x).s0)
#define GPUX_CVT_CU GPUX_CVT_CS
#define GPUX_CVT_CB(from, to, x) ((uchar)((x).s0 != 0 || (x).s1 != 0))
#define GPUX_CVT_CH(from, to, x) GPUX_TOH_##to##_##from((x).s0)
#define GPUX_TOH_f16_c64(x) GPUX_TOH_f16_f32(x)
#define GPUX_TOH_f16_c128(x) GPUX_TOH_f16_f64(x)
#define GPUX_TOH_bf16_c64(x) GPUX_TOH_bf16_f32(x)
#define GPUX_TOH_bf16_c128(x) GPUX_TOH_bf16_f64(x)
#define GPUX_CVT_CC(from, to, x) \
  ((GPUX_T_##to)((GPUX_CT_##to)(x).s0, (GPUX_CT_##to)(x).s1))
/* arange / linspace: from gpux_real (double with fp64, else float) */
#ifdef GPUX_HAVE_FP64
#define GPUX_REAL_DT f64
#else
#define GPUX_REAL_DT f32
#endif
#define GPUX_CVT_REAL(to, x) GPUX_CVT_REAL_(GPUX_REAL_DT, to, x)
#define GPUX_CVT_REAL_(from, to, x) GPUX_CVT(from, to, x)

/* ------------------------------------------------------------------ cast */
#define GPUX_CAST_KERNELS(from, to) \
  GPUX_CAST_KERNELS_(gpux_cast_##from##_##to, GPUX_T_##from, GPUX_T_##to, from, to)
#define GPUX_CAST_KERNELS_(k, F, T, from, to)                                                 \
  __kernel void k##_c(__global T *out, long out_off, __global const F *in, long in_off,       \
                      long n) {                                                               \
    GPUX_CAT3(GPUX_MAP_C1, GPUX_VK_##from, GPUX_VK_##to)(T, GPUX_VEC(T), out, out_off, F, in, \
                                                        in_off, n, GPUX_CVT(from, to, x1))    \
  }                                                                                           \
  __kernel void k##_n(__global T *out, __global const F *in, gpux_nd_params p) {              \
    long i = (long)get_global_id(0);                                                          \
    if (GPUX_IN_RANGE(i, p.n)) {                                                                            \
      GPUX_ND_BEGIN(p, i, 2)                                                       \
      out[GPUX_ND_OFF(p, 0)] = GPUX_CVT(from, to, in[GPUX_ND_OFF(p, 1)]);                     \
    }                                                                                         \
  }
/* the contiguous body: vectors of GPUX_EPI unless an operand is complex (GPUX_MAP_C1S) */
#define GPUX_VK_f32
#define GPUX_VK_f64
#define GPUX_VK_i32
#define GPUX_VK_i64
#define GPUX_VK_u8
#define GPUX_VK_b8
#define GPUX_VK_f16
#define GPUX_VK_bf16
#define GPUX_VK_i8
#define GPUX_VK_i16
#define GPUX_VK_u16
#define GPUX_VK_u32
#define GPUX_VK_u64
#define GPUX_VK_c64 S
#define GPUX_VK_c128 S
#define GPUX_MAP_C1SS GPUX_MAP_C1S
/* Every (from, to) pair of GPUX_DT_CAST. A macro cannot expand inside its own
 * expansion, so the inner list is deferred: GPUX_CAST_FROM leaves
 * "GPUX_DT_STORAGE_INDIRECT () (...)" behind, which the rescan of GPUX_EXPAND turns into the
 * inner list (the usual C99 idiom). */
#define GPUX_EXPAND(x) x
#define GPUX_EMPTY()
#define GPUX_DT_CAST_INDIRECT() GPUX_DT_CAST
#define GPUX_CAST_TO(from, to) GPUX_ON2_##to(GPUX_CAST_KERNELS, from, to)
#define GPUX_CAST_FROM_(a_, from) GPUX_DT_CAST_INDIRECT GPUX_EMPTY()()(GPUX_CAST_TO, from)
#define GPUX_CAST_FROM(a_, from) GPUX_KON_##from(GPUX_CAST_FROM_, a_, from)
GPUX_EXPAND(GPUX_DT_CAST(GPUX_CAST_FROM, _))

/* ------------------------------------------------------------------ copy_n, copy_t */
#define GPUX_ELEM_1 uchar
#define GPUX_ELEM_2 ushort
#define GPUX_ELEM_4 uint
#define GPUX_ELEM_8 ulong
#define GPUX_ELEM_16 ulong2 /* complex128 */

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
#ifdef GPUX_PART_HAS_NONE /* the part of no dtype (gpux_kernels.h) */
GPUX_ELEM_SIZES(GPUX_COPY_KERNELS)
#endif

/* ------------------------------------------------------------------ fill, arange, linspace */
#define GPUX_FILL_KERNEL(a_, dt) GPUX_FILL_KERNEL_(dt, GPUX_T_##dt)
#define GPUX_FILL_KERNEL_(dt, T)                                                            \
  __kernel void gpux_fill_##dt(__global T *out, long out_off, T value, long n) {            \
    GPUX_CAT(GPUX_MAP_C0, GPUX_VK_##dt)(T, GPUX_VEC(T), out, out_off, n, value)             \
  }
#define GPUX_FILL_DT(a_, dt) GPUX_KON_##dt(GPUX_FILL_KERNEL, a_, dt)
GPUX_DT_CAST(GPUX_FILL_DT, _)
#define GPUX_RAMP_KERNELS(a_, dt) GPUX_RAMP_KERNELS_(dt, GPUX_T_##dt)
#define GPUX_RAMP_KERNELS_(dt, T)                                                           \
  __kernel void gpux_arange_##dt(__global T *out, long out_off, gpux_real start,            \
                                 gpux_real step, long n) {                                  \
    GPUX_MAP_C0(T, GPUX_VEC(T), out, out_off, n, GPUX_CVT_REAL(dt, start + (gpux_real)j * step))         \
  }                                                                                         \
  __kernel void gpux_linspace_##dt(__global T *out, long out_off, gpux_real start,          \
                                   gpux_real step, gpux_real stop, long n) {                \
    GPUX_MAP_C0(T, GPUX_VEC(T), out, out_off, n,                                                         \
                GPUX_CVT_REAL(dt, (j == n - 1 && j > 0) ? stop : start + (gpux_real)j * step))         \
  }
#define GPUX_RAMP_DT(a_, dt) GPUX_KON_##dt(GPUX_RAMP_KERNELS, a_, dt)
GPUX_DT_STORAGE(GPUX_RAMP_DT, _)
