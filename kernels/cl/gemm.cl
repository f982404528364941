#include "gpux_kernels.h"
/* gpux OpenCL kernels, gemm family (OpenCL C 1.2): C_b = alpha * op(A_b) @ op(B_b) + beta * C_b
 * on row-major matrices, batched (gpux__gemm in src/api/gpux_backend.h).
 *
 * Kernels: gpux_gemm_<dt> for dt in GPUX_GEMM_DT (f32 f64 and the integers) and
 * GPUX_GEMM_DT_COMPLEX (c64 c128: kernels of their own, at the end of this file); float64
 * and complex128 only where cl_khr_fp64 is defined. Signature (T the dtype; offsets, leading dimensions and strides
 * in elements):
 *   gpux_gemm_<dt>(global const T *A, long a_off, long lda, long stride_a,
 *                  global const T *B, long b_off, long ldb, long stride_b,
 *                  global T *C, long c_off, long ldc, long stride_c,
 *                  long m, long n, long k, T alpha, T beta, int flags,
 *                  long batch0, long tile0)
 *   flags: GPUX_GEMM_F_* below (transposes, alignment of the operands for vector access,
 *   beta == 0: C is never read). k == 0 gives C = beta * C (alpha unused).
 *   GPU form: work-group tile BM x BN of C (one per group), batch index batch0 + group_id(2),
 *   tile row tile0 + group_id(1), tile column group_id(0); NT work-items per group (1-d
 *   local size), each owning RM x RN elements of the tile; global size
 *   (ntiles_n * NT, mtiles, batches), the host splitting dims 1 and 2 (NVIDIA: 65535).
 * Integers wrap: 8-byte ones are computed in ulong, the others in uint (1- and 2-byte ones
 * converted on load, their low bits stored: the same bits as wrapping in their width); the
 * integers up to 4 bytes use the 4-byte configuration (W4).
 *
 * The tile loop: A and B advance BK along k per step through local memory (double
 * buffered: the next step's global loads are issued before this step's products, one
 * barrier per step). Each work-item loads 4 consecutive elements of each operand per step
 * (one vector load when the tile is whole and the operand aligned, else guarded scalar
 * loads with zeros outside), which fixes BM * BK = BN * BK = 4 * NT. Both tiles sit k-major
 * in local memory (As[k][i], Bs[k][j]); the transposes only change the load code (a uniform
 * branch). A work-item's RM rows are two runs of RM/2 at ty * RM/2 and BM/2 + ty * RM/2
 * (likewise its columns), read from local memory as vectors without bank conflicts.
 *
 * Forms (build options chosen by the host per device):
 *   default (GPUs): 4-byte types 128x128 tiles, BK 8, 256 work-items of 8x8;
 *                   8-byte types 64x64 tiles, BK 16, 256 work-items of 4x4.
 *   -DGPUX_CL_CPU=1 (pocl): work-groups of 1, no barriers (pocl vectorizes across work-items
 *                   only in loop-free code, so here each work-item is a CPU thread with
 *                   explicit vector types): a work-item computes MB = 32 rows x NB columns
 *                   (4 vectors of NV: NV = 16 for 4-byte, 8 for 8-byte types, 64 bytes
 *                   each), k in chunks of KC packed into its local memory (each operand
 *                   read along its contiguous direction), then micro-tiles of 8 rows x one
 *                   vector (8 accumulators). NDRange (ceil(m / MB), ceil(n / NB), batches),
 *                   tile0 the base of the dim-1 index, local size (1, 1, 1). Edge blocks
 *                   clamp their loads to the matrix and store only what is inside.
 */

#include "gpux_cl_prelude.h"

#define GPUX_GEMM_F_TA 1    /* op(A) = A^T */
#define GPUX_GEMM_F_TB 2    /* op(B) = B^T */
#define GPUX_GEMM_F_VA 4    /* a_off, lda, stride_a multiples of 4: vector loads of A */
#define GPUX_GEMM_F_VB 8    /* likewise B */
#define GPUX_GEMM_F_VC 16   /* likewise C (vector loads and stores of RM/2 elements) */
#define GPUX_GEMM_F_BETA0 32 /* beta == 0: C is written without being read */

/* per dtype, both forms: width class, compute type U, T <-> U (integers: reinterpretation,
 * so that products wrap) */
#define GPUX_GEMM_W_f32 W4
#define GPUX_GEMM_W_i32 W4
#define GPUX_GEMM_W_f64 W8
#define GPUX_GEMM_W_i64 W8
#define GPUX_GEMM_U_f32 float
#define GPUX_GEMM_U_f64 double
#define GPUX_GEMM_U_i32 uint
#define GPUX_GEMM_U_i64 ulong
#define GPUX_GEMM_TU_f32(x) (x)
#define GPUX_GEMM_TU_f64(x) (x)
#define GPUX_GEMM_TU_i32(x) as_uint(x)
#define GPUX_GEMM_TU_i64(x) as_ulong(x)
#define GPUX_GEMM_UT_f32(x) (x)
#define GPUX_GEMM_UT_f64(x) (x)
#define GPUX_GEMM_UT_i32(x) as_int(x)
#define GPUX_GEMM_UT_i64(x) as_long(x)
#define GPUX_GEMM_W_i8 W4
#define GPUX_GEMM_W_u8 W4
#define GPUX_GEMM_W_i16 W4
#define GPUX_GEMM_W_u16 W4
#define GPUX_GEMM_W_u32 W4
#define GPUX_GEMM_W_u64 W8
#define GPUX_GEMM_U_i8 uint
#define GPUX_GEMM_U_u8 uint
#define GPUX_GEMM_U_i16 uint
#define GPUX_GEMM_U_u16 uint
#define GPUX_GEMM_U_u32 uint
#define GPUX_GEMM_U_u64 ulong
/* widening: C's conversion to an unsigned type (modulo 2^32: sign- or zero-extends);
 * narrowing: the low bits */
#define GPUX_GEMM_TU_i8(x) ((uint)(x))
#define GPUX_GEMM_TU_u8(x) ((uint)(x))
#define GPUX_GEMM_TU_i16(x) ((uint)(x))
#define GPUX_GEMM_TU_u16(x) ((uint)(x))
#define GPUX_GEMM_TU_u32(x) (x)
#define GPUX_GEMM_TU_u64(x) (x)
#define GPUX_GEMM_UT_i8(x) as_char((uchar)(x))
#define GPUX_GEMM_UT_u8(x) ((uchar)(x))
#define GPUX_GEMM_UT_i16(x) as_short((ushort)(x))
#define GPUX_GEMM_UT_u16(x) ((ushort)(x))
#define GPUX_GEMM_UT_u32(x) (x)
#define GPUX_GEMM_UT_u64(x) (x)
/* the same for vectors of VN4 elements (the form's RM/2- or NV-vectors of W4 types);
 * convert_* without _sat follows C's conversions, modulo 2^n to unsigned types */
#define GPUX_GEMM_TUV_i8(x) GPUX_CAT(convert_uint, GPUX_GEMM_VN4)(x)
#define GPUX_GEMM_TUV_u8(x) GPUX_CAT(convert_uint, GPUX_GEMM_VN4)(x)
#define GPUX_GEMM_TUV_i16(x) GPUX_CAT(convert_uint, GPUX_GEMM_VN4)(x)
#define GPUX_GEMM_TUV_u16(x) GPUX_CAT(convert_uint, GPUX_GEMM_VN4)(x)
#define GPUX_GEMM_TUV_u32(x) (x)
#define GPUX_GEMM_TUV_u64(x) (x)
#define GPUX_GEMM_UTV_i8(x) \
  GPUX_CAT(as_char, GPUX_GEMM_VN4)(GPUX_CAT(convert_uchar, GPUX_GEMM_VN4)(x))
#define GPUX_GEMM_UTV_u8(x) GPUX_CAT(convert_uchar, GPUX_GEMM_VN4)(x)
#define GPUX_GEMM_UTV_i16(x) \
  GPUX_CAT(as_short, GPUX_GEMM_VN4)(GPUX_CAT(convert_ushort, GPUX_GEMM_VN4)(x))
#define GPUX_GEMM_UTV_u16(x) GPUX_CAT(convert_ushort, GPUX_GEMM_VN4)(x)
#define GPUX_GEMM_UTV_u32(x) (x)
#define GPUX_GEMM_UTV_u64(x) (x)

/* ------------------------------------------------------------------ configurations
 * W4: 4-byte types, W8: 8-byte types. RM: rows (and columns) per work-item, HM = RM / 2,
 * TX: work-items along each tile side (NT = TX * TX), BM = TX * RM, BK: k per step,
 * PAD: local row padding (keeps rows 16-byte aligned, spreads transposed stores over banks).
 * Constraint: BM * BK == 4 * NT. */
#if !(defined(GPUX_CL_CPU) && GPUX_CL_CPU)
#define GPUX_GEMM_RM_W4 8
#define GPUX_GEMM_HM_W4 4
#define GPUX_GEMM_TX_W4 16
#define GPUX_GEMM_BM_W4 128
#define GPUX_GEMM_BK_W4 8
#define GPUX_GEMM_RM_W8 4
#define GPUX_GEMM_HM_W8 2
#define GPUX_GEMM_TX_W8 16
#define GPUX_GEMM_BM_W8 64
#define GPUX_GEMM_BK_W8 16
#define GPUX_GEMM_PAD 4
#define GPUX_GEMM_REP_W4 GPUX_REP8
#define GPUX_GEMM_REP_W8 GPUX_REP4
#define GPUX_GEMM_KSTEPS_W4(M, W) GPUX_GEMM_K8(M, W, 0)
#define GPUX_GEMM_KSTEPS_W8(M, W) GPUX_GEMM_K16(M, W, 0)
#define GPUX_GEMM_ASU_W4 as_uint4
#define GPUX_GEMM_AST_W4 as_int4
/* reinterpretation of RM/2-vectors of 8-byte integers (RM is 4 in both forms) */
#define GPUX_GEMM_ASU_W8 as_ulong2
#define GPUX_GEMM_AST_W8 as_long2
#define GPUX_GEMM_NT_W4 (GPUX_GEMM_TX_W4 * GPUX_GEMM_TX_W4)
#define GPUX_GEMM_NT_W8 (GPUX_GEMM_TX_W8 * GPUX_GEMM_TX_W8)

/* per dtype: T <-> U for 4-vectors and RM/2-vectors */
#define GPUX_GEMM_TU4_f32(x) (x)
#define GPUX_GEMM_TU4_f64(x) (x)
#define GPUX_GEMM_TU4_i32(x) as_uint4(x)
#define GPUX_GEMM_TU4_i64(x) as_ulong4(x)
#define GPUX_GEMM_TU4_i8(x) convert_uint4(x)
#define GPUX_GEMM_TU4_u8(x) convert_uint4(x)
#define GPUX_GEMM_TU4_i16(x) convert_uint4(x)
#define GPUX_GEMM_TU4_u16(x) convert_uint4(x)
#define GPUX_GEMM_TU4_u32(x) (x)
#define GPUX_GEMM_TU4_u64(x) (x)
#define GPUX_GEMM_VN4 GPUX_GEMM_HM_W4
#define GPUX_GEMM_TUV_f32(x) (x)
#define GPUX_GEMM_TUV_f64(x) (x)
#define GPUX_GEMM_TUV_i32(x) GPUX_GEMM_ASU_W4(x)
#define GPUX_GEMM_TUV_i64(x) GPUX_GEMM_ASU_W8(x)
#define GPUX_GEMM_UTV_f32(x) (x)
#define GPUX_GEMM_UTV_f64(x) (x)
#define GPUX_GEMM_UTV_i32(x) GPUX_GEMM_AST_W4(x)
#define GPUX_GEMM_UTV_i64(x) GPUX_GEMM_AST_W8(x)

/* 4 consecutive elements at p: one vector load (fast), else each where idx + q < lim and
 * ok, zero elsewhere (as compute type U). */
#define GPUX_GEMM_LD4(dt, out, p, fast, ok, idx, lim)                             \
  if (fast) {                                                                      \
    out = GPUX_GEMM_TU4_##dt(*(__global const gpux_gemm_t4 *)(p));                \
  } else {                                                                         \
    out = (gpux_gemm_u4)(0);                                                       \
    if (ok) {                                                                      \
      if ((idx) < (lim)) out.s0 = GPUX_GEMM_TU_##dt((p)[0]);                      \
      if ((idx) + 1 < (lim)) out.s1 = GPUX_GEMM_TU_##dt((p)[1]);                  \
      if ((idx) + 2 < (lim)) out.s2 = GPUX_GEMM_TU_##dt((p)[2]);                  \
      if ((idx) + 3 < (lim)) out.s3 = GPUX_GEMM_TU_##dt((p)[3]);                  \
    }                                                                              \
  }

/* the 4 loaded elements into local tile S (k-major, row length LD): along k (rc: the
 * operand's rows are contiguous along k) as 4 scalar stores, else one vector store */
#define GPUX_GEMM_ST4(S, LD, v, rc, r, c)                                        \
  if (rc) {                                                                        \
    (S)[((c) + 0) * (LD) + (r)] = (v).s0;                                          \
    (S)[((c) + 1) * (LD) + (r)] = (v).s1;                                          \
    (S)[((c) + 2) * (LD) + (r)] = (v).s2;                                          \
    (S)[((c) + 3) * (LD) + (r)] = (v).s3;                                          \
  } else {                                                                         \
    *(__local gpux_gemm_u4 *)((S) + (r) * (LD) + (c)) = (v);                     \
  }

#define GPUX_GEMM_ZERO(a, i)                                                         \
  acc0[i] = (gpux_gemm_uv)(0);                                                     \
  acc1[i] = (gpux_gemm_uv)(0);

/* one k of the micro-tile: row i of the work-item's RM rows times its two column runs */
#define GPUX_GEMM_FMA(a, i)                                                          \
  {                                                                                \
    const gpux_gemm_u a_ = (i) < HM ? ua0.s[(i) < HM ? (i) : 0] : ua1.s[(i) >= HM ? (i) - HM : 0]; \
    acc0[i] += a_ * ub0.v;                                                          \
    acc1[i] += a_ * ub1.v;                                                          \
  }

/* one k of the tile step (kk a constant: the BK steps are written out, so that every
 * private index is a constant and nothing relies on the compiler unrolling a loop) */
#define GPUX_GEMM_KSTEP(W, kk)                                                       \
  {                                                                                \
    union { gpux_gemm_uv v; gpux_gemm_u s[HM]; } ua0, ua1, ub0, ub1;               \
    ua0.v = *(__local const gpux_gemm_uv *)(as_ + (kk) * LD + ty * HM);            \
    ua1.v = *(__local const gpux_gemm_uv *)(as_ + (kk) * LD + BM / 2 + ty * HM);   \
    ub0.v = *(__local const gpux_gemm_uv *)(bs_ + (kk) * LD + tx * HM);            \
    ub1.v = *(__local const gpux_gemm_uv *)(bs_ + (kk) * LD + BM / 2 + tx * HM);   \
    GPUX_GEMM_REP_##W(GPUX_GEMM_FMA, _, 0)                                         \
  }
#define GPUX_GEMM_K2(M, a, o) M(a, (o)) M(a, (o) + 1)
#define GPUX_GEMM_K4(M, a, o) GPUX_GEMM_K2(M, a, (o)) GPUX_GEMM_K2(M, a, (o) + 2)
#define GPUX_GEMM_K8(M, a, o) GPUX_GEMM_K4(M, a, (o)) GPUX_GEMM_K4(M, a, (o) + 4)
#define GPUX_GEMM_K16(M, a, o) GPUX_GEMM_K8(M, a, (o)) GPUX_GEMM_K8(M, a, (o) + 8)

/* the result of row i: alpha * acc + beta * C (beta == 0: C unread; k == 0: beta * C) */
#define GPUX_GEMM_OUT_VEC(dt, acc, cp)                                              \
  {                                                                                \
    gpux_gemm_uv r_ = noab ? (gpux_gemm_uv)(0) : ualpha * (acc);                    \
    if (!beta0) r_ += ubeta * GPUX_GEMM_TUV_##dt(*(__global const gpux_gemm_tv *)(cp)); \
    *(__global gpux_gemm_tv *)(cp) = GPUX_GEMM_UTV_##dt(r_);                        \
  }
#define GPUX_GEMM_OUT_ONE(dt, accs, cp)                                             \
  {                                                                                \
    gpux_gemm_u r_ = noab ? (gpux_gemm_u)0 : ualpha * (accs);                       \
    if (!beta0) r_ += ubeta * GPUX_GEMM_TU_##dt(*(cp));                            \
    *(cp) = GPUX_GEMM_UT_##dt(r_);                                                  \
  }
#define GPUX_GEMM_STORE_ROW(dt, i)                                                   \
  {                                                                                \
    const long gi_ = m0 + ((i) < HM ? ty * HM + (i) : BM / 2 + ty * HM + ((i) - HM)); \
    __global gpux_gemm_t *cr_ = Cb + gi_ * ldc;                                     \
    if (cfast) {                                                                   \
      GPUX_GEMM_OUT_VEC(dt, acc0[i], cr_ + jl)                                      \
      GPUX_GEMM_OUT_VEC(dt, acc1[i], cr_ + jh)                                      \
    } else if (gi_ < m) {                                                          \
      union { gpux_gemm_uv v; gpux_gemm_u s[HM]; } u0_, u1_;                       \
      u0_.v = acc0[i];                                                             \
      u1_.v = acc1[i];                                                             \
      for (int q_ = 0; q_ < HM; ++q_) {                                            \
        if (jl + q_ < n) GPUX_GEMM_OUT_ONE(dt, u0_.s[q_], cr_ + jl + q_)            \
        if (jh + q_ < n) GPUX_GEMM_OUT_ONE(dt, u1_.s[q_], cr_ + jh + q_)            \
      }                                                                            \
    }                                                                              \
  }
#define GPUX_GEMM_ROW_ARG(dt, i) GPUX_GEMM_STORE_ROW(dt, i)

#define GPUX_GEMM_KERNEL(a, dt) GPUX_GEMM_KERNEL_W(dt, GPUX_GEMM_W_##dt)
#define GPUX_GEMM_KERNEL_W(dt, W) GPUX_GEMM_KERNEL_(dt, W)
#define GPUX_GEMM_KERNEL_(dt, W)                                                     \
  __kernel __attribute__((reqd_work_group_size(GPUX_GEMM_NT_##W, 1, 1))) void       \
  gpux_gemm_##dt(__global const GPUX_T_##dt *A, long a_off, long lda, long stride_a, \
                 __global const GPUX_T_##dt *B, long b_off, long ldb, long stride_b, \
                 __global GPUX_T_##dt *C, long c_off, long ldc, long stride_c, long m,  \
                 long n, long k, GPUX_T_##dt alpha, GPUX_T_##dt beta, int flags,     \
                 long batch0, long tile0) {                                         \
    typedef GPUX_T_##dt gpux_gemm_t;                                                 \
    typedef GPUX_GEMM_U_##dt gpux_gemm_u;                                            \
    typedef GPUX_CAT(GPUX_GEMM_U_##dt, 4) gpux_gemm_u4;                              \
    typedef GPUX_CAT(GPUX_T_##dt, 4) gpux_gemm_t4;                                   \
    typedef GPUX_CAT(GPUX_GEMM_U_##dt, GPUX_GEMM_HM_##W) gpux_gemm_uv;               \
    typedef GPUX_CAT(GPUX_T_##dt, GPUX_GEMM_HM_##W) gpux_gemm_tv;                    \
    enum {                                                                           \
      RM = GPUX_GEMM_RM_##W, HM = GPUX_GEMM_HM_##W, TX = GPUX_GEMM_TX_##W,           \
      BM = GPUX_GEMM_BM_##W, BK = GPUX_GEMM_BK_##W, LD = GPUX_GEMM_BM_##W + GPUX_GEMM_PAD \
    };                                                                               \
    __local gpux_gemm_u4 lds_[2 * 2 * GPUX_GEMM_BK_##W *                             \
                              (GPUX_GEMM_BM_##W + GPUX_GEMM_PAD) / 4];               \
    __local gpux_gemm_u *const As = (__local gpux_gemm_u *)lds_;                     \
    __local gpux_gemm_u *const Bs = As + 2 * BK * LD;                               \
    const int lid = (int)get_local_id(0), tx = lid % TX, ty = lid / TX;              \
    const long bz = batch0 + (long)get_group_id(2);                                  \
    const long m0 = (tile0 + (long)get_group_id(1)) * BM;                           \
    const long n0 = (long)get_group_id(0) * BM;                                      \
    const int ta = (flags & GPUX_GEMM_F_TA) != 0, tb = (flags & GPUX_GEMM_F_TB) != 0; \
    const int fullm = m0 + BM <= m, fulln = n0 + BM <= n;                            \
    const int va = (flags & GPUX_GEMM_F_VA) && fullm, vb = (flags & GPUX_GEMM_F_VB) && fulln; \
    __global const gpux_gemm_t *const Ab = A + a_off + bz * stride_a;                \
    __global const gpux_gemm_t *const Bb = B + b_off + bz * stride_b;                \
    __global gpux_gemm_t *const Cb = C + c_off + bz * stride_c;                      \
    /* this work-item's 4 elements of each operand per step: along k (rc) at row r,     \
       column c of the tile, else at k row r, column c; the pointer advances by step */ \
    const int ar = ta ? lid / (BM / 4) : lid / (BK / 4);                             \
    const int ac = ta ? (lid % (BM / 4)) * 4 : (lid % (BK / 4)) * 4;                 \
    const int br = tb ? lid / (BK / 4) : lid / (BM / 4);                             \
    const int bc = tb ? (lid % (BK / 4)) * 4 : (lid % (BM / 4)) * 4;                 \
    __global const gpux_gemm_t *pa, *pb;                                             \
    long astep, bstep;                                                               \
    int aok, bok;                                                                    \
    long aidx, alim, bidx, blim;                                                     \
    if (ta) { /* A[l * lda + i]: k row ar, columns m0 + ac .. */                     \
      pa = Ab + (long)ar * lda + (m0 + ac);                                          \
      astep = BK * lda;                                                              \
      aok = ar < k;                                                                  \
      aidx = m0 + ac;                                                                \
      alim = m;                                                                      \
    } else { /* A[i * lda + l]: row m0 + ar, k columns ac .. */                      \
      pa = Ab + min(m0 + ar, m - 1) * lda + ac;                                      \
      astep = BK;                                                                    \
      aok = m0 + ar < m;                                                             \
      aidx = ac;                                                                     \
      alim = k;                                                                      \
    }                                                                                \
    if (tb) { /* B[j * ldb + l]: row n0 + br, k columns bc .. */                     \
      pb = Bb + min(n0 + br, n - 1) * ldb + bc;                                      \
      bstep = BK;                                                                    \
      bok = n0 + br < n;                                                             \
      bidx = bc;                                                                     \
      blim = k;                                                                      \
    } else { /* B[l * ldb + j]: k row br, columns n0 + bc .. */                      \
      pb = Bb + (long)br * ldb + (n0 + bc);                                          \
      bstep = BK * ldb;                                                              \
      bok = br < k;                                                                  \
      bidx = n0 + bc;                                                                \
      blim = n;                                                                      \
    }                                                                                \
    gpux_gemm_uv acc0[RM], acc1[RM]; /* constant indices only: registers */          \
    GPUX_GEMM_REP_##W(GPUX_GEMM_ZERO, _, 0)                                          \
    const long nkt = (k + BK - 1) / BK;                                              \
    gpux_gemm_u4 ra, rb;                                                             \
    if (nkt > 0) {                                                                   \
      const int fk = BK <= k;                                                        \
      GPUX_GEMM_LD4(dt, ra, pa, va && fk, aok, aidx, alim) \
      GPUX_GEMM_LD4(dt, rb, pb, vb && fk, bok, bidx, blim) \
      GPUX_GEMM_ST4(As, LD, ra, !ta, ar, ac)                            \
      GPUX_GEMM_ST4(Bs, LD, rb, tb, br, bc)                             \
      barrier(CLK_LOCAL_MEM_FENCE);                                                  \
    }                                                                                \
    for (long t = 0; t < nkt; ++t) {                                                 \
      const int cur = (int)(t & 1);                                                  \
      const int more = t + 1 < nkt;                                                  \
      if (more) { /* the next step's loads, in flight during this step's products */ \
        const long k1 = (t + 1) * BK;                                                \
        const int fk = k1 + BK <= k;                                                 \
        pa += astep;                                                                 \
        pb += bstep;                                                                 \
        if (ta) aok = k1 + ar < k; else aidx += BK;                                  \
        if (tb) bidx += BK; else bok = k1 + br < k;                                  \
        GPUX_GEMM_LD4(dt, ra, pa, va && fk, aok, aidx, alim) \
        GPUX_GEMM_LD4(dt, rb, pb, vb && fk, bok, bidx, blim) \
      }                                                                              \
      __local const gpux_gemm_u *as_ = As + cur * BK * LD;                           \
      __local const gpux_gemm_u *bs_ = Bs + cur * BK * LD;                           \
      GPUX_GEMM_KSTEPS_##W(GPUX_GEMM_KSTEP, W)                                       \
      if (more) {                                                                    \
        __local gpux_gemm_u *an_ = As + (cur ^ 1) * BK * LD;                         \
        __local gpux_gemm_u *bn_ = Bs + (cur ^ 1) * BK * LD;                         \
        GPUX_GEMM_ST4(an_, LD, ra, !ta, ar, ac)                         \
        GPUX_GEMM_ST4(bn_, LD, rb, tb, br, bc)                          \
      }                                                                              \
      barrier(CLK_LOCAL_MEM_FENCE);                                                  \
    }                                                                                \
    const int noab = k == 0, beta0 = (flags & GPUX_GEMM_F_BETA0) != 0;               \
    const gpux_gemm_u ualpha = GPUX_GEMM_TU_##dt(alpha), ubeta = GPUX_GEMM_TU_##dt(beta); \
    const long jl = n0 + tx * HM, jh = n0 + BM / 2 + tx * HM;                        \
    const int cfast = (flags & GPUX_GEMM_F_VC) && fullm && fulln;                    \
    GPUX_GEMM_REP_##W(GPUX_GEMM_ROW_ARG, dt, 0)                   \
  }

#else /* ------------------------------------------------------------------ CPU form */
#define GPUX_GEMM_MR 8
#define GPUX_GEMM_NV_W4 16
#define GPUX_GEMM_NV_W8 8
#define GPUX_GEMM_VN4 GPUX_GEMM_NV_W4
#define GPUX_GEMM_TUV_f32(x) (x)
#define GPUX_GEMM_TUV_f64(x) (x)
#define GPUX_GEMM_TUV_i32(x) as_uint16(x)
#define GPUX_GEMM_TUV_i64(x) as_ulong8(x)
#define GPUX_GEMM_UTV_f32(x) (x)
#define GPUX_GEMM_UTV_f64(x) (x)
#define GPUX_GEMM_UTV_i32(x) as_int16(x)
#define GPUX_GEMM_UTV_i64(x) as_long8(x)

/* a work-item: MB x NB of C, NB = NBV vectors of NV; k in chunks of KC packed into local
 * memory (its own: work-groups of 1), then micro-tiles of MR x NV (8 accumulator vectors) */
#define GPUX_GEMM_MB 32
#define GPUX_GEMM_NBV 4
#define GPUX_GEMM_KC_W4 64
#define GPUX_GEMM_KC_W8 32

#define GPUX_GEMM_KERNEL(a, dt) GPUX_GEMM_KERNEL_W(dt, GPUX_GEMM_W_##dt)
#define GPUX_GEMM_KERNEL_W(dt, W) GPUX_GEMM_KERNEL_(dt, W)
#define GPUX_GEMM_KERNEL_(dt, W)                                                     \
  __kernel __attribute__((reqd_work_group_size(1, 1, 1))) void gpux_gemm_##dt(      \
      __global const GPUX_T_##dt *A, long a_off, long lda, long stride_a,            \
      __global const GPUX_T_##dt *B, long b_off, long ldb, long stride_b,            \
      __global GPUX_T_##dt *C, long c_off, long ldc, long stride_c, long m, long n,  \
      long k, GPUX_T_##dt alpha, GPUX_T_##dt beta, int flags, long batch0, long tile0) { \
    typedef GPUX_T_##dt gpux_gemm_t;                                                 \
    typedef GPUX_GEMM_U_##dt gpux_gemm_u;                                            \
    typedef GPUX_CAT(GPUX_GEMM_U_##dt, GPUX_GEMM_NV_##W) gpux_gemm_uv;               \
    enum {                                                                           \
      MR = GPUX_GEMM_MR, NV = GPUX_GEMM_NV_##W, MB = GPUX_GEMM_MB,                   \
      NBV = GPUX_GEMM_NBV, NB = GPUX_GEMM_NBV * GPUX_GEMM_NV_##W, KC = GPUX_GEMM_KC_##W \
    };                                                                               \
    __local gpux_gemm_u ap[GPUX_GEMM_KC_##W * GPUX_GEMM_MB];                         \
    __local gpux_gemm_uv bp[GPUX_GEMM_KC_##W * GPUX_GEMM_NBV];                       \
    const long bz = batch0 + (long)get_global_id(2);                                 \
    const long i0 = (long)get_global_id(0) * MB;                                     \
    const long j0 = (tile0 + (long)get_global_id(1)) * NB;                           \
    const int ta = (flags & GPUX_GEMM_F_TA) != 0, tb = (flags & GPUX_GEMM_F_TB) != 0; \
    const int fullj = j0 + NB <= n;                                                  \
    __global const gpux_gemm_t *const Ab = A + a_off + bz * stride_a;                \
    __global const gpux_gemm_t *const Bb = B + b_off + bz * stride_b;                \
    __global gpux_gemm_t *const Cb = C + c_off + bz * stride_c;                      \
    /* row i of op(A) starts at Ab + i * sar, column j of op(B) at Bb + j * sbj; rows \
       and columns past the edge are clamped (computed, never stored) */             \
    const long sar = ta ? 1 : lda, sbj = tb ? ldb : 1;                               \
    long aoff[MB], boff[NB];                                                         \
    for (int r = 0; r < MB; ++r) aoff[r] = min(i0 + r, m - 1) * sar;                 \
    for (int q = 0; q < NB; ++q) boff[q] = min(j0 + q, n - 1) * sbj;                 \
    gpux_gemm_uv cacc[GPUX_GEMM_MB * GPUX_GEMM_NBV];                                 \
    for (int x = 0; x < MB * NBV; ++x) cacc[x] = (gpux_gemm_uv)(0);                  \
    for (long k0 = 0; k0 < k; k0 += KC) {                                            \
      const int kc = (int)min((long)KC, k - k0);                                     \
      /* pack: ap[l][r] = op(A)(i0 + r, k0 + l), bp[l][v] = op(B)(k0 + l, j0 + v NV ..), \
         each operand read along its contiguous direction */                         \
      if (ta) {                                                                      \
        for (int l = 0; l < kc; ++l)                                                 \
          for (int r = 0; r < MB; ++r)                                               \
            ap[l * MB + r] = GPUX_GEMM_TU_##dt(Ab[aoff[r] + (k0 + l) * lda]);        \
      } else {                                                                       \
        for (int r = 0; r < MB; ++r)                                                 \
          for (int l = 0; l < kc; ++l)                                               \
            ap[l * MB + r] = GPUX_GEMM_TU_##dt(Ab[aoff[r] + k0 + l]);                \
      }                                                                              \
      if (!tb && fullj) {                                                            \
        for (int l = 0; l < kc; ++l)                                                 \
          for (int v = 0; v < NBV; ++v)                                              \
            bp[l * NBV + v] = GPUX_GEMM_TUV_##dt(                                    \
                GPUX_CAT(vload, GPUX_GEMM_NV_##W)(v, Bb + (k0 + l) * ldb + j0));     \
      } else {                                                                       \
        __local gpux_gemm_u *const bs = (__local gpux_gemm_u *)bp;                  \
        if (tb) {                                                                    \
          for (int q = 0; q < NB; ++q)                                               \
            for (int l = 0; l < kc; ++l)                                             \
              bs[l * NB + q] = GPUX_GEMM_TU_##dt(Bb[boff[q] + k0 + l]);              \
        } else {                                                                     \
          for (int l = 0; l < kc; ++l)                                               \
            for (int q = 0; q < NB; ++q)                                             \
              bs[l * NB + q] = GPUX_GEMM_TU_##dt(Bb[(k0 + l) * ldb + boff[q]]);      \
        }                                                                            \
      }                                                                              \
      /* micro-tiles: MR rows x one vector, MR accumulators in registers */          \
      for (int rb = 0; rb < MB; rb += MR)                                            \
        for (int v = 0; v < NBV; ++v) {                                              \
          gpux_gemm_uv acc[MR];                                                      \
          for (int r = 0; r < MR; ++r) acc[r] = cacc[(rb + r) * NBV + v];            \
          for (int l = 0; l < kc; ++l) {                                             \
            const gpux_gemm_uv bv = bp[l * NBV + v];                                 \
            for (int r = 0; r < MR; ++r) acc[r] += ap[l * MB + rb + r] * bv;         \
          }                                                                          \
          for (int r = 0; r < MR; ++r) cacc[(rb + r) * NBV + v] = acc[r];            \
        }                                                                            \
    }                                                                                \
    const int noab = k == 0, beta0 = (flags & GPUX_GEMM_F_BETA0) != 0;               \
    const gpux_gemm_u ualpha = GPUX_GEMM_TU_##dt(alpha), ubeta = GPUX_GEMM_TU_##dt(beta); \
    for (int r = 0; r < MB; ++r) {                                                   \
      if (i0 + r >= m) break;                                                        \
      for (int v = 0; v < NBV; ++v) {                                                \
        const long jv = j0 + v * NV;                                                 \
        if (jv >= n) break;                                                          \
        __global gpux_gemm_t *const cr = Cb + (i0 + r) * ldc + jv;                   \
        gpux_gemm_uv x = noab ? (gpux_gemm_uv)(0) : ualpha * cacc[r * NBV + v];      \
        if (jv + NV <= n) {                                                          \
          if (!beta0)                                                                \
            x += ubeta * GPUX_GEMM_TUV_##dt(GPUX_CAT(vload, GPUX_GEMM_NV_##W)(0, cr)); \
          GPUX_CAT(vstore, GPUX_GEMM_NV_##W)(GPUX_GEMM_UTV_##dt(x), 0, cr);         \
        } else {                                                                     \
          union { gpux_gemm_uv v; gpux_gemm_u s[NV]; } u;                            \
          u.v = x;                                                                   \
          for (int q = 0; q < NV && jv + q < n; ++q) {                               \
            gpux_gemm_u y = u.s[q];                                                  \
            if (!beta0) y += ubeta * GPUX_GEMM_TU_##dt(cr[q]);                       \
            cr[q] = GPUX_GEMM_UT_##dt(y);                                            \
          }                                                                          \
        }                                                                            \
      }                                                                              \
    }                                                                                \
  }
#endif

#define GPUX_GEMM_DEFINE(a, dt) GPUX_KON_##dt(GPUX_GEMM_KERNEL, a, dt)
GPUX_GEMM_DT(GPUX_GEMM_DEFINE, _)

/* ====================================================================== complex products
 * gpux_gemm_c64 / gpux_gemm_c128 (GPUX_GEMM_DT_COMPLEX), the signature above with T the
 * complex type (float2 / double2 as (re, im)) and two more flags: GPUX_GEMM_F_CA / _CB
 * conjugate A's / B's elements as they are read (the front end's conj_a / conj_b). They
 * accumulate in the component type: re += ar br - ai bi, im += ar bi + ai br, then
 * C = alpha acc + beta C in complex arithmetic (beta == 0: C unread; k == 0: beta C).
 * Forms (the host's launch geometry, src/backend_opencl/cl_gemm.c, matches):
 *   GPU: 256 work-items (16 x 16) per 64 x 64 tile of C, 4 x 4 outputs each (rows ty + 16 i,
 *        columns tx + 16 j), k in steps of 8 through local memory (each operand's 64 x 8
 *        slice loaded along its contiguous direction, two elements per work-item);
 *        NDRange (tiles along n * 256, tiles along m, batches).
 *   CPU: work-groups of 1; a work-item computes 32 rows x NB columns (2 vectors of NV:
 *        NV = 16 for complex64, 8 for complex128), k in chunks of KC packed into its local
 *        memory with the real and imaginary parts apart (so the inner loop is plain vector
 *        arithmetic on split parts), micro-tiles of 4 rows x one vector (8 accumulators);
 *        NDRange (blocks along m, blocks along n, batches). */
#define GPUX_GEMM_F_CA 64  /* conjugate A's elements */
#define GPUX_GEMM_F_CB 128 /* conjugate B's elements */
/* What the two forms share: the parameters; batch bz's operands (the batch is dimension 2
 * of the NDRange in both forms, one work-group deep), the transposes and the conjugations
 * (the sign of the imaginary parts as they are read); and the store of one element,
 * C = alpha (re + i im) + beta C in complex arithmetic (k == 0: beta C; beta == 0: C unread). */
#define GPUX_GEMMC_PARAMS(dt)                                                            \
  __global const GPUX_T_##dt *A, long a_off, long lda, long stride_a,                    \
      __global const GPUX_T_##dt *B, long b_off, long ldb, long stride_b,               \
      __global GPUX_T_##dt *C, long c_off, long ldc, long stride_c, long m, long n,     \
      long k, GPUX_T_##dt alpha, GPUX_T_##dt beta, int flags, long batch0, long tile0
#define GPUX_GEMMC_PROLOGUE(dt)                                                          \
  typedef GPUX_T_##dt T2;                                                                \
  typedef GPUX_CT_##dt R;                                                                \
  const long bz = batch0 + (long)get_group_id(2);                                        \
  const int ta = (flags & GPUX_GEMM_F_TA) != 0, tb = (flags & GPUX_GEMM_F_TB) != 0;      \
  const R sa = (flags & GPUX_GEMM_F_CA) ? (R)-1 : (R)1;                                  \
  const R sb = (flags & GPUX_GEMM_F_CB) ? (R)-1 : (R)1;                                  \
  __global const T2 *const Ab = A + a_off + bz * stride_a;                               \
  __global const T2 *const Bb = B + b_off + bz * stride_b;                               \
  __global T2 *const Cb = C + c_off + bz * stride_c
/* uses alpha, beta, noab (k == 0) and beta0 of the kernel */
#define GPUX_GEMMC_STORE(cp, re, im)                                                     \
  do {                                                                                   \
    __global T2 *const cp_ = (cp);                                                       \
    const R x_ = (re), y_ = (im);                                                        \
    T2 o_ = noab ? (T2)(0) : (T2)(alpha.x * x_ - alpha.y * y_, alpha.x * y_ + alpha.y * x_); \
    if (!beta0) {                                                                        \
      const T2 c_ = *cp_;                                                                \
      o_.x += beta.x * c_.x - beta.y * c_.y;                                             \
      o_.y += beta.x * c_.y + beta.y * c_.x;                                             \
    }                                                                                    \
    *cp_ = o_;                                                                           \
  } while (0)

#if !(defined(GPUX_CL_CPU) && GPUX_CL_CPU)
#define GPUX_GEMMC_TS 64
#define GPUX_GEMMC_BK 8
#define GPUX_GEMMC_TX 16
#define GPUX_GEMMC_R 4
#define GPUX_GEMMC_KERNEL(a, dt)                                                          \
  __kernel __attribute__((reqd_work_group_size(256, 1, 1))) void gpux_gemm_##dt(         \
      GPUX_GEMMC_PARAMS(dt)) {                                                           \
    GPUX_GEMMC_PROLOGUE(dt);                                                             \
    enum { TS = GPUX_GEMMC_TS, BK = GPUX_GEMMC_BK, TX = GPUX_GEMMC_TX, RR = GPUX_GEMMC_R }; \
    __local T2 As[GPUX_GEMMC_BK * GPUX_GEMMC_TS];                                        \
    __local T2 Bs[GPUX_GEMMC_BK * GPUX_GEMMC_TS];                                        \
    const int lid = (int)get_local_id(0), tx = lid % TX, ty = lid / TX;                  \
    const long m0 = (tile0 + (long)get_group_id(1)) * TS;                               \
    const long n0 = (long)get_group_id(0) * TS;                                          \
    T2 acc[GPUX_GEMMC_R * GPUX_GEMMC_R];                                                 \
    for (int x = 0; x < RR * RR; ++x) acc[x] = (T2)(0);                                  \
    for (long k0 = 0; k0 < k; k0 += BK) {                                                \
      for (int q = 0; q < (BK * TS) / 256; ++q) {                                        \
        const int e = lid + 256 * q;                                                     \
        /* consecutive work-items along the operand's contiguous direction */           \
        const int ai = ta ? e % TS : e / BK, al = ta ? e / TS : e % BK;                  \
        const long gi = m0 + ai, gla = k0 + al;                                          \
        T2 v = (T2)(0);                                                                  \
        if (gi < m && gla < k) v = Ab[ta ? gla * lda + gi : gi * lda + gla];             \
        v.y *= sa;                                                                       \
        As[al * TS + ai] = v;                                                            \
        const int bj = tb ? e / BK : e % TS, bl = tb ? e % BK : e / TS;                  \
        const long gj = n0 + bj, glb = k0 + bl;                                          \
        T2 w = (T2)(0);                                                                  \
        if (gj < n && glb < k) w = Bb[tb ? gj * ldb + glb : glb * ldb + gj];             \
        w.y *= sb;                                                                       \
        Bs[bl * TS + bj] = w;                                                            \
      }                                                                                  \
      barrier(CLK_LOCAL_MEM_FENCE);                                                      \
      for (int l = 0; l < BK; ++l) {                                                     \
        T2 av[GPUX_GEMMC_R], bv[GPUX_GEMMC_R];                                           \
        for (int i = 0; i < RR; ++i) av[i] = As[l * TS + ty + TX * i];                   \
        for (int j = 0; j < RR; ++j) bv[j] = Bs[l * TS + tx + TX * j];                   \
        for (int i = 0; i < RR; ++i)                                                     \
          for (int j = 0; j < RR; ++j) {                                                 \
            acc[i * RR + j].x += av[i].x * bv[j].x - av[i].y * bv[j].y;                  \
            acc[i * RR + j].y += av[i].x * bv[j].y + av[i].y * bv[j].x;                  \
          }                                                                              \
      }                                                                                  \
      barrier(CLK_LOCAL_MEM_FENCE);                                                      \
    }                                                                                    \
    const int noab = k == 0, beta0 = (flags & GPUX_GEMM_F_BETA0) != 0;                   \
    for (int i = 0; i < RR; ++i) {                                                       \
      const long gi = m0 + ty + TX * i;                                                  \
      if (gi >= m) break;                                                                \
      for (int j = 0; j < RR; ++j) {                                                     \
        const long gj = n0 + tx + TX * j;                                                \
        if (gj >= n) break;                                                              \
        GPUX_GEMMC_STORE(Cb + gi * ldc + gj, acc[i * RR + j].x, acc[i * RR + j].y);      \
      }                                                                                  \
    }                                                                                    \
  }
#else
#define GPUX_GEMMC_MB 32
#define GPUX_GEMMC_MR 4
#define GPUX_GEMMC_NBV 2
#define GPUX_GEMMC_NV_c64 16
#define GPUX_GEMMC_NV_c128 8
#define GPUX_GEMMC_KC_c64 64
#define GPUX_GEMMC_KC_c128 32
#define GPUX_GEMMC_KERNEL(a, dt)                                                          \
  __kernel __attribute__((reqd_work_group_size(1, 1, 1))) void gpux_gemm_##dt(           \
      GPUX_GEMMC_PARAMS(dt)) {                                                           \
    GPUX_GEMMC_PROLOGUE(dt);                                                             \
    typedef GPUX_CAT(GPUX_CT_##dt, GPUX_GEMMC_NV_##dt) RV;                               \
    enum {                                                                               \
      MB = GPUX_GEMMC_MB, MR = GPUX_GEMMC_MR, NBV = GPUX_GEMMC_NBV,                      \
      NV = GPUX_GEMMC_NV_##dt, NB = GPUX_GEMMC_NBV * GPUX_GEMMC_NV_##dt,                 \
      KC = GPUX_GEMMC_KC_##dt                                                            \
    };                                                                                   \
    /* packed operands, real and imaginary parts apart */                                \
    __local R apr[GPUX_GEMMC_KC_##dt * GPUX_GEMMC_MB];                                   \
    __local R api[GPUX_GEMMC_KC_##dt * GPUX_GEMMC_MB];                                   \
    __local RV bpr[GPUX_GEMMC_KC_##dt * GPUX_GEMMC_NBV];                                 \
    __local RV bpi[GPUX_GEMMC_KC_##dt * GPUX_GEMMC_NBV];                                 \
    const long i0 = (long)get_global_id(0) * MB;                                         \
    const long j0 = (tile0 + (long)get_global_id(1)) * NB;                               \
    /* row i of op(A) starts at Ab + i * sar, column j of op(B) at Bb + j * sbj; rows     \
       and columns past the edge are clamped (computed, never stored) */                 \
    const long sar = ta ? 1 : lda, sbj = tb ? ldb : 1;                                   \
    long aoff[GPUX_GEMMC_MB], boff[GPUX_GEMMC_NBV * GPUX_GEMMC_NV_##dt];                 \
    for (int r = 0; r < MB; ++r) aoff[r] = min(i0 + r, m - 1) * sar;                     \
    for (int q = 0; q < NB; ++q) boff[q] = min(j0 + q, n - 1) * sbj;                     \
    RV cre[GPUX_GEMMC_MB * GPUX_GEMMC_NBV], cim[GPUX_GEMMC_MB * GPUX_GEMMC_NBV];         \
    for (int x = 0; x < MB * NBV; ++x) {                                                 \
      cre[x] = (RV)(0);                                                                  \
      cim[x] = (RV)(0);                                                                  \
    }                                                                                    \
    __local R *const bsr = (__local R *)bpr;                                             \
    __local R *const bsi = (__local R *)bpi;                                             \
    for (long k0 = 0; k0 < k; k0 += KC) {                                                \
      const int kc = (int)min((long)KC, k - k0);                                         \
      /* pack, each operand read along its contiguous direction */                       \
      if (ta) {                                                                          \
        for (int l = 0; l < kc; ++l)                                                     \
          for (int r = 0; r < MB; ++r) {                                                 \
            const T2 v = Ab[aoff[r] + (k0 + l) * lda];                                   \
            apr[l * MB + r] = v.x;                                                       \
            api[l * MB + r] = sa * v.y;                                                  \
          }                                                                              \
      } else {                                                                           \
        for (int r = 0; r < MB; ++r)                                                     \
          for (int l = 0; l < kc; ++l) {                                                 \
            const T2 v = Ab[aoff[r] + k0 + l];                                           \
            apr[l * MB + r] = v.x;                                                       \
            api[l * MB + r] = sa * v.y;                                                  \
          }                                                                              \
      }                                                                                  \
      if (tb) {                                                                          \
        for (int q = 0; q < NB; ++q)                                                     \
          for (int l = 0; l < kc; ++l) {                                                 \
            const T2 v = Bb[boff[q] + k0 + l];                                           \
            bsr[l * NB + q] = v.x;                                                       \
            bsi[l * NB + q] = sb * v.y;                                                  \
          }                                                                              \
      } else {                                                                           \
        for (int l = 0; l < kc; ++l)                                                     \
          for (int q = 0; q < NB; ++q) {                                                 \
            const T2 v = Bb[(k0 + l) * ldb + boff[q]];                                   \
            bsr[l * NB + q] = v.x;                                                       \
            bsi[l * NB + q] = sb * v.y;                                                  \
          }                                                                              \
      }                                                                                  \
      for (int rb = 0; rb < MB; rb += MR)                                                \
        for (int v = 0; v < NBV; ++v) {                                                  \
          RV xr[GPUX_GEMMC_MR], xi[GPUX_GEMMC_MR];                                       \
          for (int r = 0; r < MR; ++r) {                                                 \
            xr[r] = cre[(rb + r) * NBV + v];                                             \
            xi[r] = cim[(rb + r) * NBV + v];                                             \
          }                                                                              \
          for (int l = 0; l < kc; ++l) {                                                 \
            const RV br = bpr[l * NBV + v], bi = bpi[l * NBV + v];                       \
            for (int r = 0; r < MR; ++r) {                                               \
              const R ar = apr[l * MB + rb + r], ai = api[l * MB + rb + r];              \
              xr[r] += ar * br - ai * bi;                                                \
              xi[r] += ar * bi + ai * br;                                                \
            }                                                                            \
          }                                                                              \
          for (int r = 0; r < MR; ++r) {                                                 \
            cre[(rb + r) * NBV + v] = xr[r];                                             \
            cim[(rb + r) * NBV + v] = xi[r];                                             \
          }                                                                              \
        }                                                                                \
    }                                                                                    \
    const int noab = k == 0, beta0 = (flags & GPUX_GEMM_F_BETA0) != 0;                   \
    for (int r = 0; r < MB; ++r) {                                                       \
      if (i0 + r >= m) break;                                                            \
      for (int v = 0; v < NBV; ++v) {                                                    \
        const long jv = j0 + v * NV;                                                     \
        if (jv >= n) break;                                                              \
        union { RV v; R s[GPUX_GEMMC_NV_##dt]; } ur, ui;                                 \
        ur.v = cre[r * NBV + v];                                                         \
        ui.v = cim[r * NBV + v];                                                         \
        __global T2 *const cr = Cb + (i0 + r) * ldc + jv;                                \
        for (int q = 0; q < NV && jv + q < n; ++q) {                                     \
          GPUX_GEMMC_STORE(cr + q, ur.s[q], ui.s[q]);                                    \
        }                                                                                \
      }                                                                                  \
    }                                                                                    \
  }
#endif

#define GPUX_GEMMC_DEFINE(a, dt) GPUX_KON_##dt(GPUX_GEMMC_KERNEL, a, dt)
GPUX_GEMM_DT_COMPLEX(GPUX_GEMMC_DEFINE, _)
