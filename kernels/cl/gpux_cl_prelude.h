/* gpux OpenCL kernels: the prelude every program shares (OpenCL C 1.2), spliced in after
 * gpux_kernels.h when the sources are embedded (cmake/embed.cmake).
 * No variadic macros: OpenCL C forbids them (NVIDIA's compiler enforces it). Per-dtype
 * generation goes through GPUX_ON_<dt>(M, a, dt), which expands to M(a, dt), or to nothing
 * for float64 on a device without cl_khr_fp64; GPUX_ON2_<dt> is a second set for use inside
 * an expansion of the first (casts: from, then to). */
#ifndef GPUX_CL_PRELUDE_H
#define GPUX_CL_PRELUDE_H
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define GPUX_HAVE_FP64 1
typedef double gpux_real;
#define GPUX_ON_f64(M, a, dt) M(a, dt)
#define GPUX_ON2_f64(M, a, dt) M(a, dt)
#define GPUX_ON_c128(M, a, dt) M(a, dt) /* complex128's components are float64 */
#define GPUX_ON2_c128(M, a, dt) M(a, dt)
#else
typedef float gpux_real;
#define GPUX_ON_f64(M, a, dt)
#define GPUX_ON2_f64(M, a, dt)
#define GPUX_ON_c128(M, a, dt)
#define GPUX_ON2_c128(M, a, dt)
#endif
#define GPUX_ON_f32(M, a, dt) M(a, dt)
#define GPUX_ON_i32(M, a, dt) M(a, dt)
#define GPUX_ON_i64(M, a, dt) M(a, dt)
#define GPUX_ON_u8(M, a, dt) M(a, dt)
#define GPUX_ON_b8(M, a, dt) M(a, dt)
#define GPUX_ON_f16(M, a, dt) M(a, dt)
#define GPUX_ON_bf16(M, a, dt) M(a, dt)
#define GPUX_ON_i8(M, a, dt) M(a, dt)
#define GPUX_ON_i16(M, a, dt) M(a, dt)
#define GPUX_ON_u16(M, a, dt) M(a, dt)
#define GPUX_ON_u32(M, a, dt) M(a, dt)
#define GPUX_ON_u64(M, a, dt) M(a, dt)
#define GPUX_ON_c64(M, a, dt) M(a, dt)
/* Kernel generation goes through GPUX_KON_<dt>: GPUX_ON_<dt> when the program is built
 * whole or as dtype dt's part (GPUX_PART, gpux_kernels.h), else nothing. Helpers (types,
 * functions) keep GPUX_ON_<dt>: another part's kernels may use them. */
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_f32
#define GPUX_KON_f32(M, a, dt) GPUX_ON_f32(M, a, dt)
#else
#define GPUX_KON_f32(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_f64
#define GPUX_KON_f64(M, a, dt) GPUX_ON_f64(M, a, dt)
#else
#define GPUX_KON_f64(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_i32
#define GPUX_KON_i32(M, a, dt) GPUX_ON_i32(M, a, dt)
#else
#define GPUX_KON_i32(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_i64
#define GPUX_KON_i64(M, a, dt) GPUX_ON_i64(M, a, dt)
#else
#define GPUX_KON_i64(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_u8
#define GPUX_KON_u8(M, a, dt) GPUX_ON_u8(M, a, dt)
#else
#define GPUX_KON_u8(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_b8
#define GPUX_KON_b8(M, a, dt) GPUX_ON_b8(M, a, dt)
#else
#define GPUX_KON_b8(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_f16
#define GPUX_KON_f16(M, a, dt) GPUX_ON_f16(M, a, dt)
#else
#define GPUX_KON_f16(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_bf16
#define GPUX_KON_bf16(M, a, dt) GPUX_ON_bf16(M, a, dt)
#else
#define GPUX_KON_bf16(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_i8
#define GPUX_KON_i8(M, a, dt) GPUX_ON_i8(M, a, dt)
#else
#define GPUX_KON_i8(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_i16
#define GPUX_KON_i16(M, a, dt) GPUX_ON_i16(M, a, dt)
#else
#define GPUX_KON_i16(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_u16
#define GPUX_KON_u16(M, a, dt) GPUX_ON_u16(M, a, dt)
#else
#define GPUX_KON_u16(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_u32
#define GPUX_KON_u32(M, a, dt) GPUX_ON_u32(M, a, dt)
#else
#define GPUX_KON_u32(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_u64
#define GPUX_KON_u64(M, a, dt) GPUX_ON_u64(M, a, dt)
#else
#define GPUX_KON_u64(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_c64
#define GPUX_KON_c64(M, a, dt) GPUX_ON_c64(M, a, dt)
#else
#define GPUX_KON_c64(M, a, dt)
#endif
#if !defined(GPUX_PART) || GPUX_PART == GPUX_KDT_c128
#define GPUX_KON_c128(M, a, dt) GPUX_ON_c128(M, a, dt)
#else
#define GPUX_KON_c128(M, a, dt)
#endif
/* the kernels of no dtype (GPUX_PART_NONE) */
#if !defined(GPUX_PART) || GPUX_PART == GPUX_PART_NONE
#define GPUX_PART_HAS_NONE 1
#endif
/* a second set, for use inside an expansion of the first (casts: from, then to) */
#define GPUX_ON2_f32(M, a, dt) M(a, dt)
#define GPUX_ON2_i32(M, a, dt) M(a, dt)
#define GPUX_ON2_i64(M, a, dt) M(a, dt)
#define GPUX_ON2_u8(M, a, dt) M(a, dt)
#define GPUX_ON2_b8(M, a, dt) M(a, dt)
#define GPUX_ON2_f16(M, a, dt) M(a, dt)
#define GPUX_ON2_bf16(M, a, dt) M(a, dt)
#define GPUX_ON2_i8(M, a, dt) M(a, dt)
#define GPUX_ON2_i16(M, a, dt) M(a, dt)
#define GPUX_ON2_u16(M, a, dt) M(a, dt)
#define GPUX_ON2_u32(M, a, dt) M(a, dt)
#define GPUX_ON2_u64(M, a, dt) M(a, dt)
#define GPUX_ON2_c64(M, a, dt) M(a, dt)

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

/* Per dtype: GPUX_T_<dt> its type, GPUX_U_<dt> the unsigned type of its width, GPUX_CLS_<dt>
 * its class (F float, H float16 / bfloat16, S signed, U unsigned integer, B bool). A fact
 * that follows from the class is written once per class, GPUX_BYCLS(prefix, dt) picking
 * prefix<class>. */
#define GPUX_T_f32 float
#define GPUX_T_f64 double
#define GPUX_T_i32 int
#define GPUX_T_i64 long
#define GPUX_T_u8 uchar
#define GPUX_T_b8 uchar
/* float16 / bfloat16: ushort bit patterns (kernels/common/gpux_half.h converts: a source
 * that uses GPUX_HF_ / GPUX_FH_ includes it): GPUX_HF_<dt>(x) is the exact float value of
 * x, GPUX_FH_<dt>(f) the float f rounded once to the dtype */
#define GPUX_T_f16 ushort
#define GPUX_T_bf16 ushort
#define GPUX_T_i8 char
#define GPUX_T_i16 short
#define GPUX_T_u16 ushort
#define GPUX_T_u32 uint
#define GPUX_T_u64 ulong
/* complex: (re, im) as .x, .y of float2 / double2 (the layout of C99 complex, cuComplex and
 * NumPy); GPUX_CT_<dt> the component type, GPUX_CDT_<dt> the component dtype */
#define GPUX_T_c64 float2
#define GPUX_T_c128 double2
#define GPUX_CT_c64 float
#define GPUX_CT_c128 double
#define GPUX_HF_f16(x) as_float(gpux_f16_to_f32(x))
#define GPUX_HF_bf16(x) as_float(gpux_bf16_to_f32(x))
#define GPUX_FH_f16(x) gpux_f32_to_f16(as_uint(x))
#define GPUX_FH_bf16(x) gpux_f32_to_bf16(as_uint(x))
#define GPUX_U_f32 uint
#define GPUX_U_f64 ulong
#define GPUX_U_i32 uint
#define GPUX_U_i64 ulong
#define GPUX_U_u8 uchar
#define GPUX_U_b8 uchar
#define GPUX_U_i8 uchar
#define GPUX_U_i16 ushort
#define GPUX_U_u16 ushort
#define GPUX_U_u32 uint
#define GPUX_U_u64 ulong
#define GPUX_CLS_f32 F
#define GPUX_CLS_f64 F
#define GPUX_CLS_i32 S
#define GPUX_CLS_i64 S
#define GPUX_CLS_u8 U
#define GPUX_CLS_b8 B
#define GPUX_CLS_f16 H
#define GPUX_CLS_bf16 H
#define GPUX_CLS_i8 S
#define GPUX_CLS_i16 S
#define GPUX_CLS_u16 U
#define GPUX_CLS_u32 U
#define GPUX_CLS_u64 U
#define GPUX_CLS_c64 C
#define GPUX_CLS_c128 C
#define GPUX_BYCLS(prefix, dt) GPUX_CAT(prefix, GPUX_CLS_##dt)
/* the integers' ranges */
#define GPUX_MIN_i32 INT_MIN
#define GPUX_MAX_i32 INT_MAX
#define GPUX_MIN_i64 LONG_MIN
#define GPUX_MAX_i64 LONG_MAX
#define GPUX_MIN_u8 0
#define GPUX_MAX_u8 UCHAR_MAX
#define GPUX_MIN_i8 CHAR_MIN
#define GPUX_MAX_i8 CHAR_MAX
#define GPUX_MIN_i16 SHRT_MIN
#define GPUX_MAX_i16 SHRT_MAX
#define GPUX_MIN_u16 0
#define GPUX_MAX_u16 USHRT_MAX
#define GPUX_MIN_u32 0
#define GPUX_MAX_u32 UINT_MAX
#define GPUX_MIN_u64 0
#define GPUX_MAX_u64 ULONG_MAX
/* GPUX_ASS(dt, x): the dt value whose bits are the low bits of the integer x, with no
 * signed overflow: floats and signed integers reinterpret them as GPUX_U_<dt> (as_<type>),
 * unsigned integers and bool convert (C wraps those) */
#define GPUX_ASS(dt, x) GPUX_BYCLS(GPUX_ASS_, dt)(dt, x)
#define GPUX_ASS_F(dt, x) GPUX_CAT(as_, GPUX_T_##dt)((GPUX_U_##dt)(x))
#define GPUX_ASS_S GPUX_ASS_F
#define GPUX_ASS_U(dt, x) ((GPUX_T_##dt)(x))
#define GPUX_ASS_B GPUX_ASS_U

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
/* the 1-d form's loop, also for kernels that launch 1-d on every device (index.cl) */
#define GPUX_ND_STEP(p, NOPS, x, d)                                                \
  o0_ += (x) * (p).stride[0][d];                                                   \
  o1_ += (x) * (p).stride[1][d];                                                   \
  if ((NOPS) > 2) o2_ += (x) * (p).stride[2][d];                                   \
  if ((NOPS) > 3) o3_ += (x) * (p).stride[3][d];
#define GPUX_ND_LOOP_BEGIN(p, i, NOPS)                                             \
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
#ifdef GPUX_EXACT_LAUNCH
#define GPUX_ND_BEGIN(p, i, NOPS)                                               \
  const long i0_ = (long)get_global_id(0), i1_ = (long)get_global_id(1),       \
             i2_ = (long)get_global_id(2);
#define GPUX_ND_OFF(p, k)                                                       \
  ((p).offset[k] + i0_ * (p).stride[k][0] + i1_ * (p).stride[k][1] + i2_ * (p).stride[k][2])
#else
#define GPUX_ND_BEGIN(p, i, NOPS) GPUX_ND_LOOP_BEGIN(p, i, NOPS)
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
#define GPUX_VTYPEDEF(T, name)
#define GPUX_MAP_C1(OT, OV, out, o0, T1, in1, o1, n, EXPR) \
  {                                                  \
    long j_ = (long)get_global_id(0);                \
    if (GPUX_IN_RANGE(j_, n)) {                                  \
      T1 x1 = (in1)[(o1) + j_];                      \
      (out)[(o0) + j_] = (EXPR);                     \
    }                                                \
  }
#define GPUX_MAP_C2(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, n, EXPR) \
  {                                                               \
    long j_ = (long)get_global_id(0);                             \
    if (GPUX_IN_RANGE(j_, n)) {                                               \
      T1 x1 = (in1)[(o1) + j_];                                   \
      T2 x2 = (in2)[(o2) + j_];                                   \
      (out)[(o0) + j_] = (EXPR);                                  \
    }                                                             \
  }
#define GPUX_MAP_C3(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, T3, in3, o3, n, EXPR) \
  {                                                                            \
    long j_ = (long)get_global_id(0);                                          \
    if (GPUX_IN_RANGE(j_, n)) {                                                            \
      T1 x1 = (in1)[(o1) + j_];                                                \
      T2 x2 = (in2)[(o2) + j_];                                                \
      T3 x3 = (in3)[(o3) + j_];                                                \
      (out)[(o0) + j_] = (EXPR);                                               \
    }                                                                          \
  }
/* the same, for types with no vector of GPUX_EPI (complex: float2, double2) */
#define GPUX_MAP_C0S GPUX_MAP_C0
#define GPUX_MAP_C1S GPUX_MAP_C1
#define GPUX_MAP_C2S GPUX_MAP_C2
#define GPUX_MAP_C3S GPUX_MAP_C3
#else
/* the last m_ <= GPUX_EPI elements from b_, one at a time (po_ and the p<i>_ set) */
#define GPUX_MAP_REST0(po_, n, EXPR)                                                         \
  {                                                                                        \
    int m_ = (int)min((long)GPUX_EPI, (n) - b_);                                           \
    for (int k_ = 0; k_ < m_; ++k_) {                                                      \
      long j = b_ + k_;                                                                    \
      po_[k_] = (EXPR);                                                                    \
    }                                                                                      \
  }
#define GPUX_MAP_REST1(po_, T1, p1_, n, EXPR)                                                \
  {                                                                                        \
    int m_ = (int)min((long)GPUX_EPI, (n) - b_);                                           \
    for (int k_ = 0; k_ < m_; ++k_) {                                                      \
      T1 x1 = p1_[k_];                                                                     \
      po_[k_] = (EXPR);                                                                    \
    }                                                                                      \
  }
#define GPUX_MAP_REST2(po_, T1, p1_, T2, p2_, n, EXPR)                                      \
  {                                                                                        \
    int m_ = (int)min((long)GPUX_EPI, (n) - b_);                                           \
    for (int k_ = 0; k_ < m_; ++k_) {                                                      \
      T1 x1 = p1_[k_];                                                                     \
      T2 x2 = p2_[k_];                                                                     \
      po_[k_] = (EXPR);                                                                    \
    }                                                                                      \
  }
#define GPUX_MAP_REST3(po_, T1, p1_, T2, p2_, T3, p3_, n, EXPR)                            \
  {                                                                                        \
    int m_ = (int)min((long)GPUX_EPI, (n) - b_);                                           \
    for (int k_ = 0; k_ < m_; ++k_) {                                                      \
      T1 x1 = p1_[k_];                                                                     \
      T2 x2 = p2_[k_];                                                                     \
      T3 x3 = p3_[k_];                                                                     \
      po_[k_] = (EXPR);                                                                    \
    }                                                                                      \
  }
/* the types with no vector of GPUX_EPI (complex: float2, double2): GPUX_EPI elements per
 * work-item, one at a time */
#define GPUX_MAP_C0S(OT, OV, out, o0, n, EXPR)                                               \
  {                                                                                        \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                           \
    __global OT *po_ = (out) + (o0) + b_;                                                  \
    if (b_ < (n)) GPUX_MAP_REST0(po_, n, EXPR)                                             \
  }
#define GPUX_MAP_C1S(OT, OV, out, o0, T1, in1, o1, n, EXPR)                                  \
  {                                                                                        \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                           \
    __global OT *po_ = (out) + (o0) + b_;                                                  \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                            \
    if (b_ < (n)) GPUX_MAP_REST1(po_, T1, p1_, n, EXPR)                                    \
  }
#define GPUX_MAP_C2S(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, n, EXPR)                     \
  {                                                                                        \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                           \
    __global OT *po_ = (out) + (o0) + b_;                                                  \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                            \
    __global const T2 *p2_ = (in2) + (o2) + b_;                                            \
    if (b_ < (n)) GPUX_MAP_REST2(po_, T1, p1_, T2, p2_, n, EXPR)                           \
  }
#define GPUX_MAP_C3S(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, T3, in3, o3, n, EXPR)       \
  {                                                                                        \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                           \
    __global OT *po_ = (out) + (o0) + b_;                                                  \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                            \
    __global const T2 *p2_ = (in2) + (o2) + b_;                                            \
    __global const T3 *p3_ = (in3) + (o3) + b_;                                            \
    if (b_ < (n)) GPUX_MAP_REST3(po_, T1, p1_, T2, p2_, T3, p3_, n, EXPR)                  \
  }
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
    } else if (b_ < (n)) GPUX_MAP_REST0(po_, n, EXPR)                       \
  }
/* N consecutive elements; one vector load/store per operand when the chunk is whole and
 * every offset is a multiple of N (buffers are allocated at least 128-byte aligned). */
#define GPUX_VEC(T) GPUX_CAT(T, GPUX_EPI)
#define GPUX_VTYPEDEF(T, name) typedef GPUX_VEC(T) name;
#define GPUX_MAP_C1(OT, OV, out, o0, T1, in1, o1, n, EXPR)                                  \
  {                                                                                   \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                      \
    __global OT *po_ = (out) + (o0) + b_;                                             \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                       \
    if (b_ + GPUX_EPI <= (n) && (((o0) | (o1)) & (GPUX_EPI - 1)) == 0) {              \
      union { GPUX_VEC(T1) v; T1 s[GPUX_EPI]; } u1_;                                  \
      union { OV v; OT s[GPUX_EPI]; } u0_;                                  \
      u1_.v = *(__global const GPUX_VEC(T1) *)p1_;                                    \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                       \
        T1 x1 = u1_.s[k_];                                                            \
        u0_.s[k_] = (EXPR);                                                           \
      }                                                                               \
      *(__global OV *)po_ = u0_.v;                                          \
    } else if (b_ < (n)) GPUX_MAP_REST1(po_, T1, p1_, n, EXPR)                        \
  }
#define GPUX_MAP_C2(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, n, EXPR)                     \
  {                                                                                   \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                      \
    __global OT *po_ = (out) + (o0) + b_;                                             \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                       \
    __global const T2 *p2_ = (in2) + (o2) + b_;                                       \
    if (b_ + GPUX_EPI <= (n) && (((o0) | (o1) | (o2)) & (GPUX_EPI - 1)) == 0) {       \
      union { GPUX_VEC(T1) v; T1 s[GPUX_EPI]; } u1_;                                  \
      union { GPUX_VEC(T2) v; T2 s[GPUX_EPI]; } u2_;                                  \
      union { OV v; OT s[GPUX_EPI]; } u0_;                                  \
      u1_.v = *(__global const GPUX_VEC(T1) *)p1_;                                    \
      u2_.v = *(__global const GPUX_VEC(T2) *)p2_;                                    \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                       \
        T1 x1 = u1_.s[k_];                                                            \
        T2 x2 = u2_.s[k_];                                                            \
        u0_.s[k_] = (EXPR);                                                           \
      }                                                                               \
      *(__global OV *)po_ = u0_.v;                                          \
    } else if (b_ < (n)) GPUX_MAP_REST2(po_, T1, p1_, T2, p2_, n, EXPR)               \
  }
#define GPUX_MAP_C3(OT, OV, out, o0, T1, in1, o1, T2, in2, o2, T3, in3, o3, n, EXPR)       \
  {                                                                                   \
    long b_ = (long)get_global_id(0) * GPUX_EPI;                                      \
    __global OT *po_ = (out) + (o0) + b_;                                             \
    __global const T1 *p1_ = (in1) + (o1) + b_;                                       \
    __global const T2 *p2_ = (in2) + (o2) + b_;                                       \
    __global const T3 *p3_ = (in3) + (o3) + b_;                                       \
    if (b_ + GPUX_EPI <= (n) && (((o0) | (o1) | (o2) | (o3)) & (GPUX_EPI - 1)) == 0) { \
      union { GPUX_VEC(T1) v; T1 s[GPUX_EPI]; } u1_;                                  \
      union { GPUX_VEC(T2) v; T2 s[GPUX_EPI]; } u2_;                                  \
      union { GPUX_VEC(T3) v; T3 s[GPUX_EPI]; } u3_;                                  \
      union { OV v; OT s[GPUX_EPI]; } u0_;                                  \
      u1_.v = *(__global const GPUX_VEC(T1) *)p1_;                                    \
      u2_.v = *(__global const GPUX_VEC(T2) *)p2_;                                    \
      u3_.v = *(__global const GPUX_VEC(T3) *)p3_;                                    \
      for (int k_ = 0; k_ < GPUX_EPI; ++k_) {                       \
        T1 x1 = u1_.s[k_];                                                            \
        T2 x2 = u2_.s[k_];                                                            \
        T3 x3 = u3_.s[k_];                                                            \
        u0_.s[k_] = (EXPR);                                                           \
      }                                                                               \
      *(__global OV *)po_ = u0_.v;                                          \
    } else if (b_ < (n)) GPUX_MAP_REST3(po_, T1, p1_, T2, p2_, T3, p3_, n, EXPR)      \
  }
#endif

/* ---------------------------------------------------------------- reductions and scans
 * Shared by reduce.cl and scan.cl (macros only; see "THE CANONICAL ORDER" in
 * gpux_kernels.h). -DGPUX_CL_CPU=1 selects the CPU form of their kernels (pocl: serial code
 * per work-item with contiguous inner loops that LLVM vectorizes, no local memory, no
 * barriers); without it, the GPU form (work-groups of GPUX_RED_LANES work-items).
 * By class (GPUX_BYCLS): GPUX_RDC(dt) is the type an input element computes in, GPUX_RDX(dt,
 * x) its value there: float16 / bfloat16 compute in float (exact), the other dtypes in their
 * own type; the half dtypes' kinds are float32's.
 * GPUX_RDW_*: accumulator and output of sum and prod. Integers wrap: unsigned 64-bit, stored
 * bit for bit as int64 (uint64 inputs, whose output dtype is uint64: the same bits).
 * Identities are exact: e (+) x == x. */
#define GPUX_RDC(dt) GPUX_BYCLS(GPUX_RDC_, dt)(dt)
#define GPUX_RDC_F(dt) GPUX_T_##dt
#define GPUX_RDC_H(dt) float
#define GPUX_RDC_S(dt) GPUX_T_##dt
#define GPUX_RDC_U(dt) GPUX_T_##dt
#define GPUX_RDC_B(dt) GPUX_T_##dt
#define GPUX_RDC_C(dt) GPUX_T_##dt /* complex: float2 / double2 */
#define GPUX_RDX(dt, x) GPUX_BYCLS(GPUX_RDX_, dt)(dt, x)
#define GPUX_RDX_F(dt, x) (x)
#define GPUX_RDX_H(dt, x) GPUX_HF_##dt(x)
#define GPUX_RDX_S(dt, x) (x)
#define GPUX_RDX_U(dt, x) (x)
#define GPUX_RDX_B(dt, x) (x)
#define GPUX_RDX_C(dt, x) (x)
#define GPUX_RDW_A(dt) GPUX_BYCLS(GPUX_RDW_A_, dt)(dt)
#define GPUX_RDW_A_F(dt) GPUX_T_##dt
#define GPUX_RDW_A_H(dt) float
#define GPUX_RDW_A_S(dt) ulong
#define GPUX_RDW_A_U(dt) ulong
#define GPUX_RDW_A_C(dt) GPUX_T_##dt
#define GPUX_RDW_O(dt) GPUX_BYCLS(GPUX_RDW_O_, dt)(dt)
#define GPUX_RDW_O_F(dt) GPUX_T_##dt
#define GPUX_RDW_O_H(dt) float
#define GPUX_RDW_O_S(dt) long
#define GPUX_RDW_O_U(dt) long
#define GPUX_RDW_O_C(dt) GPUX_T_##dt
/* the accumulator stored as the output type */
#define GPUX_RDW_OUT(dt, v) GPUX_BYCLS(GPUX_RDW_OUT_, dt)(v)
#define GPUX_RDW_OUT_F(v) (v)
#define GPUX_RDW_OUT_H(v) (v)
#define GPUX_RDW_OUT_S(v) as_long(v)
#define GPUX_RDW_OUT_U(v) as_long(v)
#define GPUX_RDW_OUT_C(v) (v)
/* identity of sum: -0.0 for floats (-0.0 + x == x for every x, +0.0 too) */
#define GPUX_RD_ZERO(dt) GPUX_BYCLS(GPUX_RD_ZERO_, dt)(dt)
#define GPUX_RD_ZERO_F(dt) ((GPUX_T_##dt)-0.0f)
#define GPUX_RD_ZERO_H(dt) (-0.0f)
#define GPUX_RD_ZERO_S(dt) ((ulong)0)
#define GPUX_RD_ZERO_U(dt) ((ulong)0)
#define GPUX_RD_ZERO_C(dt) ((GPUX_T_##dt)((GPUX_CT_##dt)-0.0f, (GPUX_CT_##dt)-0.0f))
#define GPUX_RD_ONE(dt) GPUX_BYCLS(GPUX_RD_ONE_, dt)(dt)
#define GPUX_RD_ONE_F(dt) ((GPUX_T_##dt)1.0f)
#define GPUX_RD_ONE_H(dt) (1.0f)
#define GPUX_RD_ONE_S(dt) ((ulong)1)
#define GPUX_RD_ONE_U(dt) ((ulong)1)
#define GPUX_RD_ONE_C(dt) ((GPUX_T_##dt)((GPUX_CT_##dt)1.0f, (GPUX_CT_##dt)0.0f))
/* a (*) b of prod and cumprod: complex by the fixed formula (ar*br - ai*bi, ar*bi + ai*br),
 * except that an operand equal to the identity (1, 0) gives the other one unchanged (the
 * formula could turn an infinite part into NaN: the identity must be exact), each product
 * rounded (reduce.cl and scan.cl set FP_CONTRACT OFF); a and b are read more than
 * once: pass plain names */
#define GPUX_RD_MUL(dt, a, b) GPUX_BYCLS(GPUX_RD_MUL_, dt)(dt, a, b)
#define GPUX_RD_MUL_F(dt, a, b) ((a) * (b))
#define GPUX_RD_MUL_H(dt, a, b) ((a) * (b))
#define GPUX_RD_MUL_S(dt, a, b) ((a) * (b))
#define GPUX_RD_MUL_U(dt, a, b) ((a) * (b))
#define GPUX_RD_MUL_C(dt, a, b)                                                               \
  (((b).x == 1 && (b).y == 0)   ? (a)                                                       \
   : ((a).x == 1 && (a).y == 0) ? (b)                                                       \
                                : (GPUX_T_##dt)((a).x * (b).x - (a).y * (b).y,               \
                                                (a).x * (b).y + (a).y * (b).x))
/* x != 0 of an input element (any, all, cnt): by value (halves: -0.0 is zero; NaN is
 * nonzero); complex: re != 0 || im != 0 */
#define GPUX_RD_NZ(dt, x) GPUX_BYCLS(GPUX_RD_NZ_, dt)(dt, x)
#define GPUX_RD_NZ_F(dt, x) (GPUX_RDX(dt, x) != 0)
#define GPUX_RD_NZ_H(dt, x) (GPUX_RDX(dt, x) != 0)
#define GPUX_RD_NZ_S(dt, x) (GPUX_RDX(dt, x) != 0)
#define GPUX_RD_NZ_U(dt, x) (GPUX_RDX(dt, x) != 0)
#define GPUX_RD_NZ_B(dt, x) (GPUX_RDX(dt, x) != 0)
/* complex: on the bits, sign dropped (a zero part has no other bit set; NaN has): one
 * integer test (oclgrind 21.10 gave 255 for the GPU form's columns of
 * (x.x != 0 || x.y != 0), whose vectorized compare it mishandles) */
#define GPUX_RD_NZ_C(dt, x)                                                                   \
  (((GPUX_CAT(as_, GPUX_RD_UC_##dt)((x).x) << 1) | (GPUX_CAT(as_, GPUX_RD_UC_##dt)((x).y) << 1)) != 0)
#define GPUX_RD_UC_c64 uint
#define GPUX_RD_UC_c128 ulong
/* identities of min (the largest value) and max (the smallest), in the compute type */
#define GPUX_RD_HI(dt) GPUX_BYCLS(GPUX_RD_HI_, dt)(dt)
#define GPUX_RD_HI_F(dt) ((GPUX_T_##dt)INFINITY)
#define GPUX_RD_HI_H(dt) (INFINITY)
#define GPUX_RD_HI_S(dt) ((GPUX_T_##dt)GPUX_MAX_##dt)
#define GPUX_RD_HI_U(dt) ((GPUX_T_##dt)GPUX_MAX_##dt)
#define GPUX_RD_LO(dt) GPUX_BYCLS(GPUX_RD_LO_, dt)(dt)
#define GPUX_RD_LO_F(dt) (-(GPUX_T_##dt)INFINITY)
#define GPUX_RD_LO_H(dt) (-INFINITY)
#define GPUX_RD_LO_S(dt) ((GPUX_T_##dt)GPUX_MIN_##dt)
#define GPUX_RD_LO_U(dt) ((GPUX_T_##dt)GPUX_MIN_##dt)
/* NaN test; integers are never NaN */
#define GPUX_RD_ISNAN(dt, x) GPUX_BYCLS(GPUX_RD_ISNAN_, dt)(x)
#define GPUX_RD_ISNAN_F(x) isnan(x)
#define GPUX_RD_ISNAN_H(x) isnan(x)
#define GPUX_RD_ISNAN_S(x) 0
#define GPUX_RD_ISNAN_U(x) 0
/* GPUX_REPn(M, a, o): M(a, o) M(a, o + 1) ... M(a, o + n - 1), straight-line code without
 * pragmas (NVIDIA's compiler keeps a private array in registers only when every index is a
 * constant; OpenCL C 1.2 has no portable unroll pragma, and none fits inside a macro). */
#define GPUX_REP1(M, a, o) M(a, (o))
#define GPUX_REP2(M, a, o) M(a, (o)) M(a, (o) + 1)
#define GPUX_REP4(M, a, o) GPUX_REP2(M, a, (o)) GPUX_REP2(M, a, (o) + 2)
#define GPUX_REP8(M, a, o) GPUX_REP4(M, a, (o)) GPUX_REP4(M, a, (o) + 4)
#define GPUX_REP16(M, a, o) GPUX_REP8(M, a, (o)) GPUX_REP8(M, a, (o) + 8)
#define GPUX_REP32(M, a, o) GPUX_REP16(M, a, (o)) GPUX_REP16(M, a, (o) + 16)

#endif
