#pragma OPENCL FP_CONTRACT OFF
#include "gpux_kernels.h"
/* gpux OpenCL kernels, reduce family (OpenCL C 1.2): one pass of a reduction in THE
 * CANONICAL ORDER of gpux_kernels.h. Every kernel, in either form below and for any launch
 * shape, produces exactly the bits of that order (tests/ref implements it); products are
 * never contracted into an FMA (FP_CONTRACT OFF above), operands keep their order.
 *
 * Kernels: gpux_reduce_<kind>_<dt>_r (input [outer][len]) and _c ([outer][len][inner]), one
 * per (kind, dtype) of GPUX_REDUCE_KINDS; float64 ones only where cl_khr_fp64 is defined.
 * Every kernel has the same arguments (T the input dtype, C its compute type (float for
 * float16 / bfloat16, else T), O the output dtype of the kind;
 * offsets in elements; unused buffers may be NULL):
 *   (global const T *in, long in_off, global const long *in_idx, long in_idx_off,
 *    global O *out, long out_off, global long *out_idx, long out_idx_off,
 *    global const C *aux, long aux_off, long outer, long len, long inner, long nparts,
 *    int mode, int post, real post_div, long gbase)
 * nparts = ceil(len / GPUX_RED_CHUNK); out[o][p][i] for p < nparts; post is applied when
 * the host passes it (only when nparts == 1); real is double, or float without fp64.
 * Launches are 2-d NDRanges of work-groups whose linear index is
 *   gbase + group_id(0) + group_id(1) * num_groups(0),
 * so that the host can cover any number of groups within NDRange limits.
 *
 * GPU form (default): work-groups of GPUX_RED_LANES (256) work-items.
 *   _r, mode 0: one group per (row o, chunk p), group = o * nparts + p; work-item l is lane
 *     l: loads x[4096p + l + 256k], k = 0..15 (all loads first), folds them in k order;
 *     tree levels 128, 64, 32 in local memory (a barrier each), then work-item 0 takes lanes
 *     0..31 into registers for levels 16 .. 1 (portable: no warp-synchronous assumption).
 *   _c, mode 0: one group per (block of 16 columns, chunk, row), the column block fastest;
 *     work-item (i = l % 16, g = l / 16) owns lanes g + 16m (m = 0..15) of column i, folds
 *     each over k, combines them in registers for tree levels s >= 16; after one barrier,
 *     work-item i (g = 0) does levels 8, 4, 2, 1 of its column from local memory.
 *   _cv, vector columns (GPU form only; the 4-byte dtypes of GPUX_REDUCE_CV_DT and the
 *     kinds of GPUX_REDUCE_CV_KINDS; mode ignored): run in place of _c's mode 0 where
 *     inner and in_off are multiples of 4 (the host checks): one group per (block of 32
 *     columns, chunk, row), 4 adjacent columns per work-item read as one 16-byte vector per
 *     row (GPUX_RD_CV_BODY). _c serves every other case.
 *   _r and _c, mode 1 (len <= 32): one work-item per output (o, i), output q = o * inner + i
 *     = group * 256 + l: lanes 0..31 in registers, tree levels 16..1. Levels 128, 64 and 32
 *     combine only identities (lanes >= len hold e) and are left out: a (+) e == a.
 * CPU form (-DGPUX_CL_CPU=1; pocl vectorizes loops inside a work-item only when their body
 *   is contiguous, so each work-item does a whole chunk with contiguous inner loops; no local
 *   memory, no barriers; any work-group size, mode ignored):
 *   _r: one work-item per (row, chunk) (index o * nparts + p): a private array of the 256
 *     lanes folded row by row (for k: for l: a[l] = a[l] (+) x[256k + l]), then the tree.
 *   _c: one work-item per (block of GPUX_RD_CW columns, chunk, row), the block fastest: lanes
 *     x columns in a private array, folded row by row with a contiguous loop over columns.
 *   Both skip tree levels s >= the chunk's length (they combine a lane with identities only).
 */

#include "gpux_cl_prelude.h"
#include "gpux_half.h" /* float16 / bfloat16 inputs: GPUX_RDX_<dt> */

/* ------------------------------------------------------------------ post ops
 * float32: (float)((double)v / d), (float)sqrt((double)v); DIV_SQRT rounds the quotient to
 * float first. These are exact functions of their inputs where double division and sqrt
 * are correctly rounded (OpenCL requires it for double). */
static inline float gpux_rd_post_f32(float v, int post, gpux_real d) {
#ifdef GPUX_HAVE_FP64
  if (post == GPUX_POST_DIV || post == GPUX_POST_DIV_SQRT) v = (float)((double)v / d);
  if (post == GPUX_POST_SQRT || post == GPUX_POST_DIV_SQRT) v = (float)sqrt((double)v);
#else
  /* no fp64 on this device: float math (correctly rounded only where the device offers
   * -cl-fp32-correctly-rounded-divide-sqrt); results may then differ from other devices in
   * the last bit */
  if (post == GPUX_POST_DIV || post == GPUX_POST_DIV_SQRT) v = v / d;
  if (post == GPUX_POST_SQRT || post == GPUX_POST_DIV_SQRT) v = sqrt(v);
#endif
  return v;
}
#ifdef GPUX_HAVE_FP64
static inline double gpux_rd_post_f64(double v, int post, double d) {
  if (post == GPUX_POST_DIV || post == GPUX_POST_DIV_SQRT) v = v / d;
  if (post == GPUX_POST_SQRT || post == GPUX_POST_DIV_SQRT) v = sqrt(v);
  return v;
}
#endif
/* complex (mean): the component dtype's post op on each component */
static inline float2 gpux_rd_post_c64(float2 v, int post, gpux_real d) {
  return (float2)(gpux_rd_post_f32(v.x, post, d), gpux_rd_post_f32(v.y, post, d));
}
#ifdef GPUX_HAVE_FP64
static inline double2 gpux_rd_post_c128(double2 v, int post, double d) {
  return (double2)(gpux_rd_post_f64(v.x, post, d), gpux_rd_post_f64(v.y, post, d));
}
#endif
/* complex var / std: the real result, the component dtype's post op */
#define gpux_rd_post_c64_re gpux_rd_post_f32
#define gpux_rd_post_c128_re gpux_rd_post_f64
/* the stored value of a float accumulator (post op) or of an integer one, by class */
#define GPUX_RD_FOUT(dt, v) GPUX_BYCLS(GPUX_RD_FOUT_, dt)(dt, v)
#define GPUX_RD_FOUT_F(dt, v) gpux_rd_post_##dt(v, post, d)
#define GPUX_RD_FOUT_H(dt, v) gpux_rd_post_f32(v, post, d)
#define GPUX_RD_FOUT_S(dt, v) (v)
#define GPUX_RD_FOUT_U(dt, v) (v)
#define GPUX_RD_FOUT_B(dt, v) (v)
/* sum and prod: float accumulators get the post op, integer ones store their 64 bits */
#define GPUX_RD_WOUT(dt, v) GPUX_BYCLS(GPUX_RD_WOUT_, dt)(dt, v)
#define GPUX_RD_WOUT_F GPUX_RD_FOUT_F
#define GPUX_RD_WOUT_H GPUX_RD_FOUT_H
#define GPUX_RD_WOUT_S(dt, v) GPUX_RDW_OUT(dt, v)
#define GPUX_RD_WOUT_U(dt, v) GPUX_RDW_OUT(dt, v)
#define GPUX_RD_WOUT_C(dt, v) gpux_rd_post_##dt(v, post, d)

/* ------------------------------------------------------------------ kinds
 * Each (kind, dtype) defines, with kd = gpux_rd_<kind>_<dt>:
 *   kd_t, kd_c, kd_a, kd_o: input, compute (GPUX_RDC_<dt>: float for float16 / bfloat16,
 *     whose elements GPUX_RDX_<dt> widens), accumulator and output types;
 *   kd_e(): the identity; kd_op(a, b): a (+) b, a the lower lane / earlier element;
 *   kd_ai(): 1 where (+) is associative and commutative (argmin/argmax: any order of
 *     combines gives the same bits, so loads may be combined as a tree), 0 otherwise;
 *   kd_ld(x, m, r, ix, ipos): element x converted to the accumulator (m: the ssd mean;
 *     r: its position in the sequence; ix[ipos]: its carried index, argmin_p/argmax_p);
 *   kd_aux(aux, pos): the ssd mean of an output, a kd_c (0 for other kinds, aux is not read);
 *   kd_st(out, oi, opos, ipos, v, post, d): stores the result (and its index). */
#define GPUX_RD_TYPES(kd, dt, A, O)                                                           \
  typedef GPUX_T_##dt kd##_t;                                                                 \
  typedef GPUX_RDC(dt) kd##_c;                                                                \
  typedef A kd##_a;                                                                           \
  typedef O kd##_o;

#define GPUX_RD_VALUE(kd, dt, A, O, E, LDX, OPX, OUTX, AUXX)                                  \
  GPUX_RD_TYPES(kd, dt, A, O)                                                                 \
  static inline A kd##_e(void) { return (E); }                                                \
  static inline A kd##_ld(GPUX_T_##dt x, GPUX_RDC(dt) m, long r, __global const long *ix,     \
                          long ipos) {                                                        \
    return (LDX);                                                                             \
  }                                                                                           \
  static inline A kd##_op(A a, A b) { return (OPX); }                                         \
  static inline int kd##_ai(void) { return 0; }                                               \
  static inline GPUX_RDC(dt) kd##_aux(__global const GPUX_RDC(dt) *aux, long pos) {           \
    return (AUXX);                                                                            \
  }                                                                                           \
  static inline void kd##_st(__global O *out, __global long *oi, long opos, long ipos, A v,   \
                             int post, gpux_real d) {                                         \
    out[opos] = (OUTX);                                                                       \
  }

/* min and max: NaN in a wins, then NaN in b, then the smaller (larger) one, a on ties */
#define GPUX_RD_MIN(dt, a, b)                                                                 \
  (GPUX_RD_ISNAN(dt, a) ? (a) : GPUX_RD_ISNAN(dt, b) ? (b) : ((b) < (a) ? (b) : (a)))
#define GPUX_RD_MAX(dt, a, b)                                                                 \
  (GPUX_RD_ISNAN(dt, a) ? (a) : GPUX_RD_ISNAN(dt, b) ? (b) : ((b) > (a) ? (b) : (a)))

#define GPUX_RD_DEF_sum_(kd, dt)                                                              \
  GPUX_RD_VALUE(kd, dt, GPUX_RDW_A(dt), GPUX_RDW_O(dt), GPUX_RD_ZERO(dt),                     \
                (GPUX_RDW_A(dt))GPUX_RDX(dt, x), a + b, GPUX_RD_WOUT(dt, v), (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_prod_(kd, dt)                                                             \
  GPUX_RD_VALUE(kd, dt, GPUX_RDW_A(dt), GPUX_RDW_O(dt), GPUX_RD_ONE(dt),                      \
                (GPUX_RDW_A(dt))GPUX_RDX(dt, x), GPUX_RD_MUL(dt, a, b), GPUX_RD_WOUT(dt, v),      \
                (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_min_(kd, dt)                                                              \
  GPUX_RD_VALUE(kd, dt, GPUX_RDC(dt), GPUX_RDC(dt), GPUX_RD_HI(dt), GPUX_RDX(dt, x),          \
                GPUX_RD_MIN(dt, a, b), GPUX_RD_FOUT(dt, v), (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_max_(kd, dt)                                                              \
  GPUX_RD_VALUE(kd, dt, GPUX_RDC(dt), GPUX_RDC(dt), GPUX_RD_LO(dt), GPUX_RDX(dt, x),          \
                GPUX_RD_MAX(dt, a, b), GPUX_RD_FOUT(dt, v), (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_any_(kd, dt)                                                              \
  GPUX_RD_VALUE(kd, dt, uchar, uchar, (uchar)0, (uchar)GPUX_RD_NZ(dt, x), a | b, v,            \
                (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_all_(kd, dt)                                                              \
  GPUX_RD_VALUE(kd, dt, uchar, uchar, (uchar)1, (uchar)GPUX_RD_NZ(dt, x), a & b, v,            \
                (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_cnt_(kd, dt)                                                              \
  GPUX_RD_VALUE(kd, dt, ulong, long, (ulong)0, (ulong)GPUX_RD_NZ(dt, x), a + b,                \
                as_long(v), (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_asum_(kd, dt)                                                             \
  GPUX_RD_VALUE(kd, dt, GPUX_RDC(dt), GPUX_RDC(dt), GPUX_RD_ZERO(dt), fabs(GPUX_RDX(dt, x)),  \
                a + b, GPUX_RD_FOUT(dt, v), (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_ssq_(kd, dt)                                                              \
  GPUX_RD_VALUE(kd, dt, GPUX_RDC(dt), GPUX_RDC(dt), GPUX_RD_ZERO(dt),                         \
                GPUX_RDX(dt, x) * GPUX_RDX(dt, x), a + b, GPUX_RD_FOUT(dt, v),                \
                (GPUX_RDC(dt))0)
#define GPUX_RD_DEF_ssd_(kd, dt) GPUX_BYCLS(GPUX_RD_DEF_SSD_, dt)(kd, dt)
#define GPUX_RD_DEF_SSD_H GPUX_RD_DEF_SSD_F
/* complex: |x - m|^2 = (re - mr)^2 + (im - mi)^2 in the component type (the output), m the
 * complex mean (kd_c) */
#define GPUX_RD_DEF_SSD_C(kd, dt)                                                             \
  GPUX_RD_VALUE(kd, dt, GPUX_CT_##dt, GPUX_CT_##dt, (GPUX_CT_##dt)-0.0f,                      \
                (x.x - m.x) * (x.x - m.x) + (x.y - m.y) * (x.y - m.y), a + b,                 \
                gpux_rd_post_##dt##_re(v, post, d), aux[pos])
#define GPUX_RD_DEF_SSD_F(kd, dt)                                                             \
  GPUX_RD_VALUE(kd, dt, GPUX_RDC(dt), GPUX_RDC(dt), GPUX_RD_ZERO(dt),                         \
                (GPUX_RDX(dt, x) - m) * (GPUX_RDX(dt, x) - m), a + b, GPUX_RD_FOUT(dt, v),    \
                aux[pos])
#define GPUX_RD_DEF_amax_(kd, dt)                                                             \
  GPUX_RD_VALUE(kd, dt, GPUX_RDC(dt), GPUX_RDC(dt), GPUX_RD_LO(dt), fabs(GPUX_RDX(dt, x)),    \
                GPUX_RD_MAX(dt, a, b), GPUX_RD_FOUT(dt, v), (GPUX_RDC(dt))0)

/* argmin/argmax: (value, index) pairs. A NaN value beats a non-NaN one; two NaNs or two
 * equal values: the smaller index; otherwise the smaller (larger) value. The identity's
 * index is INT64_MAX.
 * -DGPUX_CL_NO_STRUCT_RETURN (tests/oclgrind.sh passes it to oclgrind): pairs are vectors
 * and no function returns a struct. A struct return is an sret pointer, which LLVM's
 * inliner marks with llvm.experimental.noalias.scope.decl, and oclgrind 21.10 cannot run
 * that; but the vector pairs ran argmax 2 to 3 times slower on pocl, so devices get the
 * structs. Both give the same bits. */
#ifndef GPUX_CL_NO_STRUCT_RETURN
#define GPUX_RD_PAIR_TYPE(a_, dt)                                                             \
  typedef struct gpux_rdp_##dt { GPUX_RDC(dt) v; long i; } gpux_rdp_##dt;
#define GPUX_RD_PAIR_TYPE_DT(a_, dt) GPUX_ON_##dt(GPUX_RD_PAIR_TYPE, a_, dt)
GPUX_DT_EW_NUMERIC(GPUX_RD_PAIR_TYPE_DT, _)
#define GPUX_RDP_T(dt) gpux_rdp_##dt
#define GPUX_RDP_V(dt, p) (p).v
#define GPUX_RDP_I(dt, p) (p).i
#define GPUX_RDP_SET(dt, p, x, idx) \
  (p).v = (x);                      \
  (p).i = (idx);
#else /* GPUX_CL_NO_STRUCT_RETURN: a ulong2 per pair, x the value's bits (GPUX_RDP_B, read
 * back with GPUX_ASS), y the index */
#define GPUX_RDP_T(dt) ulong2
#define GPUX_RDP_V(dt, p) GPUX_BYCLS(GPUX_RDP_V_, dt)(dt, (p).x)
#define GPUX_RDP_V_F(dt, b) GPUX_ASS(dt, b)
#define GPUX_RDP_V_H(dt, b) GPUX_ASS(f32, b)
#define GPUX_RDP_V_S(dt, b) GPUX_ASS(dt, b)
#define GPUX_RDP_V_U(dt, b) GPUX_ASS(dt, b)
#define GPUX_RDP_B(dt, v) GPUX_BYCLS(GPUX_RDP_B_, dt)(dt, v)
#define GPUX_RDP_B_F(dt, v) ((ulong)GPUX_CAT(as_, GPUX_U_##dt)(v))
#define GPUX_RDP_B_H(dt, v) ((ulong)as_uint(v))
#define GPUX_RDP_B_S(dt, v) ((ulong)(v))
#define GPUX_RDP_B_U(dt, v) ((ulong)(v))
#define GPUX_RDP_I(dt, p) ((long)(p).y)
#define GPUX_RDP_SET(dt, p, x, idx) (p) = (ulong2)(GPUX_RDP_B(dt, x), (ulong)(idx));
#endif

#define GPUX_RD_PAIR(kd, dt, E, CMP, IDX)                                                     \
  GPUX_RD_TYPES(kd, dt, GPUX_RDP_T(dt), GPUX_RDC(dt))                                         \
  static inline GPUX_RDP_T(dt) kd##_e(void) {                                                 \
    GPUX_RDP_T(dt) p;                                                                         \
    GPUX_RDP_SET(dt, p, (E), LONG_MAX)                                                        \
    return p;                                                                                 \
  }                                                                                           \
  static inline GPUX_RDP_T(dt) kd##_ld(GPUX_T_##dt x, GPUX_RDC(dt) m, long r,                 \
                                       __global const long *ix, long ipos) {                  \
    GPUX_RDP_T(dt) p;                                                                         \
    GPUX_RDP_SET(dt, p, GPUX_RDX(dt, x), (IDX))                                               \
    return p;                                                                                 \
  }                                                                                           \
  static inline GPUX_RDP_T(dt) kd##_op(GPUX_RDP_T(dt) a, GPUX_RDP_T(dt) b) {                  \
    const GPUX_RDC(dt) av = GPUX_RDP_V(dt, a), bv = GPUX_RDP_V(dt, b);                        \
    int an = GPUX_RD_ISNAN(dt, av) != 0, bn = GPUX_RD_ISNAN(dt, bv) != 0;                     \
    /* the same choice without short-circuits: selects, no divergent branches */            \
    int take_b = (bn & !an) |                                                                 \
                 (((an & bn) | (av == bv)) & (GPUX_RDP_I(dt, b) < GPUX_RDP_I(dt, a))) |       \
                 (!an & !bn & (bv CMP av));                                                   \
    return take_b ? b : a;                                                                    \
  }                                                                                           \
  static inline int kd##_ai(void) { return 1; }                                               \
  static inline GPUX_RDC(dt) kd##_aux(__global const GPUX_RDC(dt) *aux, long pos) {           \
    return (GPUX_RDC(dt))0;                                                                   \
  }                                                                                           \
  static inline void kd##_st(__global GPUX_RDC(dt) *out, __global long *oi, long opos,        \
                             long ipos, GPUX_RDP_T(dt) v, int post, gpux_real d) {            \
    out[opos] = GPUX_RDP_V(dt, v);                                                            \
    oi[ipos] = GPUX_RDP_I(dt, v);                                                             \
  }
#define GPUX_RD_DEF_argmin_(kd, dt) GPUX_RD_PAIR(kd, dt, GPUX_RD_HI(dt), <, r)
#define GPUX_RD_DEF_argmax_(kd, dt) GPUX_RD_PAIR(kd, dt, GPUX_RD_LO(dt), >, r)
#define GPUX_RD_DEF_argmin_p_(kd, dt) GPUX_RD_PAIR(kd, dt, GPUX_RD_HI(dt), <, ix[ipos])
#define GPUX_RD_DEF_argmax_p_(kd, dt) GPUX_RD_PAIR(kd, dt, GPUX_RD_LO(dt), >, ix[ipos])

/* ------------------------------------------------------------------ kernel bodies */
#define GPUX_RD_ARGS(kd)                                                                      \
  __global const kd##_t *in, long in_off, __global const long *in_idx, long in_idx_off,       \
      __global kd##_o *out, long out_off, __global long *out_idx, long out_idx_off,           \
      __global const kd##_c *aux, long aux_off, long outer, long len, long inner,             \
      long nparts, int mode, int post, gpux_real post_div, long gbase
#define GPUX_RD_GROUP()                                                                       \
  (gbase + (long)get_group_id(0) + (long)get_group_id(1) * (long)get_num_groups(0))

#ifndef GPUX_CL_CPU
/* ---------------------------------------------------------------- GPU form
 * Every barrier is at the top level of the kernel, reached by all work-items in both modes,
 * and nothing private crosses a barrier (lane values go through local memory, coordinates
 * are recomputed): pocl 3.1, which runs this form in CI, gave wrong results or crashed with
 * barriers inside the mode branch and with private values carried across barriers (Oclgrind
 * found nothing wrong in those versions). */

/* register tree over a[0..2s): a[j] = a[j] (+) a[j + s] */
#define GPUX_RD_T16(kd, j) a[j] = kd##_op(a[j], a[(j) + 16]);
#define GPUX_RD_T8(kd, j) a[j] = kd##_op(a[j], a[(j) + 8]);
#define GPUX_RD_T4(kd, j) a[j] = kd##_op(a[j], a[(j) + 4]);
#define GPUX_RD_T2(kd, j) a[j] = kd##_op(a[j], a[(j) + 2]);
#define GPUX_RD_T1(kd, j) a[j] = kd##_op(a[j], a[(j) + 1]);
#define GPUX_RD_TREE32(kd)                                                                    \
  GPUX_REP16(GPUX_RD_T16, kd, 0)                                                              \
  GPUX_REP8(GPUX_RD_T8, kd, 0)                                                                \
  GPUX_REP4(GPUX_RD_T4, kd, 0)                                                                \
  GPUX_REP2(GPUX_RD_T2, kd, 0)                                                                \
  GPUX_REP1(GPUX_RD_T1, kd, 0)
#define GPUX_RD_TREE16(kd)                                                                    \
  GPUX_REP8(GPUX_RD_T8, kd, 0)                                                                \
  GPUX_REP4(GPUX_RD_T4, kd, 0)                                                                \
  GPUX_REP2(GPUX_RD_T2, kd, 0)                                                                \
  GPUX_REP1(GPUX_RD_T1, kd, 0)
#define GPUX_RD_INIT(kd, j) a[j] = kd##_e();

/* mode 1: one work-item per output; element r of output q is in[e0 + r * inner] */
#define GPUX_RD_SHORT_LD(kd, r)                                                               \
  a[r] = (r) < len ? kd##_ld(in[in_off + e0 + (long)(r) * inner], m, (r), in_idx,             \
                             in_idx_off + e0 + (long)(r) * inner)                             \
                   : kd##_e();
#define GPUX_RD_SHORT(kd)                                                                     \
  {                                                                                           \
    const long q = GPUX_RD_GROUP() * GPUX_RED_LANES + (long)get_local_id(0);                  \
    if (q < outer * inner) {                                                                  \
      const long o = inner > 1 ? q / inner : q, i = q - o * inner;                            \
      const long e0 = o * len * inner + i;                                                    \
      const kd##_c m = kd##_aux(aux, aux_off + q);                                            \
      kd##_a a[32];                                                                           \
      GPUX_REP32(GPUX_RD_SHORT_LD, kd, 0)                                                     \
      GPUX_RD_TREE32(kd)                                                                      \
      kd##_st(out, out_idx, out_off + q, out_idx_off + q, a[0], post, post_div);              \
    }                                                                                         \
  }

/* mode 0, rows: lane l of chunk p */
#define GPUX_RD_ROW_LD(kd, k) v[k] = in[in_off + b + GPUX_RED_LANES * (k)];
#define GPUX_RD_ROW_FOLD(kd, k)                                                               \
  acc = kd##_op(acc, kd##_ld(v[k], m, c0 + l + GPUX_RED_LANES * (k), in_idx,                  \
                             in_idx_off + b + GPUX_RED_LANES * (k)));
#define GPUX_RD_ROW_LDA(kd, k)                                                                \
  a[k] = kd##_ld(v[k], m, c0 + l + GPUX_RED_LANES * (k), in_idx,                              \
                 in_idx_off + b + GPUX_RED_LANES * (k));
#define GPUX_RD_ROW_FOLDG(kd, k)                                                              \
  acc = kd##_op(acc, l + GPUX_RED_LANES * (k) < rem                                           \
                         ? kd##_ld(in[in_off + b + GPUX_RED_LANES * (k)], m,                  \
                                   c0 + l + GPUX_RED_LANES * (k), in_idx,                     \
                                   in_idx_off + b + GPUX_RED_LANES * (k))                     \
                         : kd##_e());
#define GPUX_RD_RED_LD(kd, j) a[j] = red[j];
#define GPUX_RD_LVL(kd, s)                                                                    \
  if (mode == 0 && (int)get_local_id(0) < (s))                                                \
    red[get_local_id(0)] =                                                                    \
        kd##_op(red[get_local_id(0)], red[get_local_id(0) + (s)]);                            \
  barrier(CLK_LOCAL_MEM_FENCE);
#define GPUX_RD_ROW_BODY(kd)                                                                  \
  {                                                                                           \
    const int l = (int)get_local_id(0);                                                       \
    const long grp = GPUX_RD_GROUP();                                                         \
    const long o = nparts > 1 ? grp / nparts : grp, p = grp - o * nparts;                     \
    const long c0 = p * GPUX_RED_CHUNK, rem = len - c0;                                       \
    const long b = o * len + c0 + l; /* element of k = 0 */                                   \
    const kd##_c m = kd##_aux(aux, aux_off + o);                                              \
    kd##_a acc = kd##_e();                                                                    \
    if (rem >= GPUX_RED_CHUNK) {                                                              \
      kd##_t v[GPUX_RED_ROWS];                                                                \
      GPUX_REP16(GPUX_RD_ROW_LD, kd, 0)                                                       \
      if (kd##_ai()) { /* order-free: a tree of depth 4, not a chain of 16 */                 \
        kd##_a a[GPUX_RED_ROWS];                                                              \
        GPUX_REP16(GPUX_RD_ROW_LDA, kd, 0)                                                    \
        GPUX_RD_TREE16(kd)                                                                    \
        acc = a[0]; /* e (+) a[0] == a[0] */                                                  \
      } else {                                                                                \
        GPUX_REP16(GPUX_RD_ROW_FOLD, kd, 0)                                                   \
      }                                                                                       \
    } else {                                                                                  \
      GPUX_REP16(GPUX_RD_ROW_FOLDG, kd, 0)                                                    \
    }                                                                                         \
    red[l] = acc;                                                                             \
  }

/* after the fold (mode 0): levels 128, 64, 32 through local memory, then work-item 0 takes
 * lanes 0..31 into registers for levels 16 .. 1 (no warp assumptions; the 32 loads overlap
 * and the 31 operations take 5 steps). Barriers are reached by every work-item in both
 * modes (see above). */
#define GPUX_RD_ROW_TREE(kd)                                                                  \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  GPUX_RD_LVL(kd, 128)                                                                        \
  GPUX_RD_LVL(kd, 64)                                                                         \
  GPUX_RD_LVL(kd, 32)                                                                         \
  if (mode == 0 && get_local_id(0) == 0) {                                                    \
    kd##_a a[32];                                                                             \
    GPUX_REP32(GPUX_RD_RED_LD, kd, 0)                                                         \
    GPUX_RD_TREE32(kd)                                                                        \
    const long g0 = GPUX_RD_GROUP();                                                          \
    kd##_st(out, out_idx, out_off + g0, out_idx_off + g0, a[0], post, post_div);              \
  }

/* mode 0, columns (as the CUDA backend): work-item (ii = l % 16, g = l / 16) owns lanes
 * g + 16j (j = 0..15) of column ii of its block of 16: it folds rows c0 + g + 16j + 256k.
 * A warp reads 2 rows x 64 bytes; 16 accumulators (not 32) leave registers for more groups
 * per compute unit, and blocks of 16 columns give twice the groups of 32 (4096 x 4096 had
 * 128 groups, under one per NVIDIA SM). Rows past the chunk's end are identities (a 32-bit
 * compare per load: the loads dominate, and one copy of the 16 loads keeps the kernel
 * small). All 16 loads of a k go out before its 16 combines. */
#define GPUX_RD_COL_LD(kd, j)                                                                 \
  x[j] = rk + 16 * (j) < rem ? xp[(j) * s16] : (kd##_t)0;
#define GPUX_RD_COL_FOLD(kd, j)                                                               \
  a[j] = kd##_op(a[j], rk + 16 * (j) < rem                                                    \
                           ? kd##_ld(x[j], m, c0 + rk + 16 * (j), in_idx,                     \
                                     in_idx_off + ek + (j) * s16)                             \
                           : kd##_e());
/* column block (of 2^lw columns), chunk p, row o and column i of work-item column ii */
#define GPUX_RD_COL_COORDS(ii, lw)                                                            \
  const long grp = GPUX_RD_GROUP(), ncb = (inner + (1 << (lw)) - 1) >> (lw);                  \
  const long t = grp / ncb, cb = grp - t * ncb;                                               \
  const long o = nparts > 1 ? t / nparts : t, p = t - o * nparts;                             \
  const long i = (cb << (lw)) + (ii);
#define GPUX_RD_COL_BODY(kd)                                                                  \
  {                                                                                           \
    const int l = (int)get_local_id(0), ii = l & 15, g = l >> 4;                              \
    GPUX_RD_COL_COORDS(ii, 4)                                                                 \
    const long c0 = p * GPUX_RED_CHUNK;                                                       \
    const int rem = (int)(len - c0 < GPUX_RED_CHUNK ? len - c0 : GPUX_RED_CHUNK);             \
    const int ok = i < inner;                                                                 \
    const kd##_c m = ok ? kd##_aux(aux, aux_off + o * inner + i) : (kd##_c)0;                 \
    kd##_a a[16];                                                                             \
    GPUX_REP16(GPUX_RD_INIT, kd, 0)                                                           \
    if (ok) {                                                                                 \
      const long s16 = 16 * inner, e0 = (o * len + c0 + g) * inner + i;                       \
      const int kn = (rem + GPUX_RED_LANES - 1) / GPUX_RED_LANES;                             \
      /* k with no row before rem: only identities, a (+) e == a */                           \
      for (int k = 0; k < kn; k++) {                                                          \
        const long ek = e0 + (long)(GPUX_RED_LANES * k) * inner;                              \
        const int rk = g + GPUX_RED_LANES * k; /* row in the chunk of lane g, j = 0 */        \
        __global const kd##_t *xp = in + in_off + ek;                                         \
        kd##_t x[16];                                                                         \
        GPUX_REP16(GPUX_RD_COL_LD, kd, 0)                                                     \
        GPUX_REP16(GPUX_RD_COL_FOLD, kd, 0)                                                   \
      }                                                                                       \
    }                                                                                         \
    GPUX_RD_TREE16(kd) /* levels 128 .. 16: lanes g + 16j of one work-item */                 \
    red[l] = a[0];                                                                            \
  }

/* After the fold, the last log2 W tree levels of a group's W columns (W = 16 or 32, LW =
 * log2 W): red[c + W j] is partial lane j of column c; work-item c1 < W (when `run`) takes
 * the W of its column into registers, does those levels and stores the result, its
 * coordinates recomputed. */
#define GPUX_RD_COLS_RED_LD(kd, j) a[j] = red[c1 + cw * (j)];
#define GPUX_RD_COLS_TREE(kd, W, LW, run)                                                      \
  barrier(CLK_LOCAL_MEM_FENCE);                                                               \
  if ((run) && get_local_id(0) < (W)) {                                                       \
    const int c1 = (int)get_local_id(0), cw = (W);                                            \
    GPUX_RD_COL_COORDS(c1, LW)                                                                \
    if (i < inner) {                                                                          \
      kd##_a a[W];                                                                            \
      GPUX_REP##W(GPUX_RD_COLS_RED_LD, kd, 0)                                                 \
      GPUX_RD_TREE##W(kd)                                                                     \
      const long q = (o * nparts + p) * inner + i;                                            \
      kd##_st(out, out_idx, out_off + q, out_idx_off + q, a[0], post, post_div);              \
    }                                                                                         \
  }
/* _c (mode 0): levels 8, 4, 2, 1 */
#define GPUX_RD_COL_TREE(kd) GPUX_RD_COLS_TREE(kd, 16, 4, mode == 0)

/* _cv, vector columns: 4-byte inputs of the kinds of GPUX_REDUCE_CV_KINDS (the CUDA backend's
 * RV_CVEC), len > 32, inner % 4 == 0 and in_off % 4 == 0 (the host checks; buffers are
 * aligned far beyond 16 bytes): one group per (block of 32 columns, chunk, row), the block
 * fastest; work-item (tx = l % 8, g = l / 8) owns columns 4tx .. 4tx + 3 of its block,
 * lanes g + 32j of each (j = 0..7; accumulators a0[j] .. a3[j]), read as one 16-byte vector
 * per row: 8 loads of 16 bytes per k (a warp reads 4 rows x 128 bytes), in halves of 4,
 * the next half's loads issued before the current half's folds, so 4 to 8 loads stay in
 * flight across the folds (as the CUDA backend's cp.async stages keep them). Levels 128,
 * 64, 32 pair accumulators of one work-item (j with j + 4, 2, 1); red[32g + c] is then
 * lane g of column c, and work-item c < 32 does levels 16 .. 1 (GPUX_RD_CV_TREE).
 * Order-free kinds (kd_ai: argmin, argmax) fold all of a work-item's lanes of a column
 * into its accumulator 0 (any order of combines gives the same bits) to save registers. */
#define GPUX_RD_CV_J(kd, j) (kd##_ai() ? 0 : (j))
#define GPUX_RD_CV_LD(xq, rr, j)                                                              \
  x[j] = (rr) + 32 * (j) < rem ? (xq)[(j) * vs32] : (gpux_rd_cv_t)0;
#define GPUX_RD_CV_LDX(kd, j) GPUX_RD_CV_LD(xp, rk, j)
#define GPUX_RD_CV_LDN(kd, j) GPUX_RD_CV_LD(xp + vsk, rk + GPUX_RED_LANES, j)
#define GPUX_RD_CV_F(kd, A, c, m, j)                                                           \
  A[GPUX_RD_CV_J(kd, j)] =                                                                    \
      kd##_op(A[GPUX_RD_CV_J(kd, j)], kd##_ld(x[j].c, m, c0 + rk + 32 * (j), in_idx, 0));
#define GPUX_RD_CV_FOLD(kd, j)                                                                \
  if (rk + 32 * (j) < rem) {                                                                  \
    GPUX_RD_CV_F(kd, a0, s0, m0, j)                                                           \
    GPUX_RD_CV_F(kd, a1, s1, m1, j)                                                           \
    GPUX_RD_CV_F(kd, a2, s2, m2, j)                                                           \
    GPUX_RD_CV_F(kd, a3, s3, m3, j)                                                           \
  }
#define GPUX_RD_CV_INIT(kd, j) a0[j] = a1[j] = a2[j] = a3[j] = kd##_e();
#define GPUX_RD_CV_T(kd, j, s)                                                                \
  a0[j] = kd##_op(a0[j], a0[(j) + (s)]);                                                      \
  a1[j] = kd##_op(a1[j], a1[(j) + (s)]);                                                      \
  a2[j] = kd##_op(a2[j], a2[(j) + (s)]);                                                      \
  a3[j] = kd##_op(a3[j], a3[(j) + (s)]);
#define GPUX_RD_CV_T4(kd, j) GPUX_RD_CV_T(kd, j, 4)
#define GPUX_RD_CV_T2(kd, j) GPUX_RD_CV_T(kd, j, 2)
#define GPUX_RD_CV_T1(kd, j) GPUX_RD_CV_T(kd, j, 1)
#define GPUX_RD_CV_BODY(kd, V)                                                                \
  {                                                                                           \
    typedef V gpux_rd_cv_t; /* the input's 4-vector */                                       \
    const int l = (int)get_local_id(0), tx = l & 7, g = l >> 3;                               \
    GPUX_RD_COL_COORDS(4 * tx, 5)                                                             \
    const long c0 = p * GPUX_RED_CHUNK;                                                       \
    const int rem = (int)(len - c0 < GPUX_RED_CHUNK ? len - c0 : GPUX_RED_CHUNK);             \
    const int ok = i < inner; /* inner % 4 == 0: columns i .. i + 3 all or none */            \
    const long ia = aux_off + o * inner + i;                                                  \
    const kd##_c m0 = ok ? kd##_aux(aux, ia) : (kd##_c)0;                                     \
    const kd##_c m1 = ok ? kd##_aux(aux, ia + 1) : (kd##_c)0;                                 \
    const kd##_c m2 = ok ? kd##_aux(aux, ia + 2) : (kd##_c)0;                                 \
    const kd##_c m3 = ok ? kd##_aux(aux, ia + 3) : (kd##_c)0;                                 \
    kd##_a a0[8], a1[8], a2[8], a3[8];                                                        \
    GPUX_REP8(GPUX_RD_CV_INIT, kd, 0)                                                         \
    if (ok) {                                                                                 \
      /* in vectors: 32 rows, 256 rows */                                                     \
      const long vs32 = 8 * inner, vsk = (long)GPUX_RED_LANES / 4 * inner;                    \
      __global const gpux_rd_cv_t *xp =                                                       \
          (__global const gpux_rd_cv_t *)(in + in_off + (o * len + c0 + g) * inner + i);      \
      const int kn = (rem + GPUX_RED_LANES - 1) / GPUX_RED_LANES;                             \
      gpux_rd_cv_t x[8];                                                                      \
      {                                                                                       \
        const int rk = g;                                                                     \
        GPUX_REP4(GPUX_RD_CV_LDX, kd, 0)                                                      \
      }                                                                                       \
      for (int k = 0; k < kn; k++, xp += vsk) {                                               \
        const int rk = g + GPUX_RED_LANES * k;                                                \
        GPUX_REP4(GPUX_RD_CV_LDX, kd, 4)                                                      \
        GPUX_REP4(GPUX_RD_CV_FOLD, kd, 0)                                                     \
        GPUX_REP4(GPUX_RD_CV_LDN, kd, 0) /* rows past rem (k + 1 == kn): not read */          \
        GPUX_REP4(GPUX_RD_CV_FOLD, kd, 4)                                                     \
      }                                                                                       \
    }                                                                                         \
    GPUX_REP4(GPUX_RD_CV_T4, kd, 0) /* levels 128, 64, 32 */                                  \
    GPUX_REP2(GPUX_RD_CV_T2, kd, 0)                                                           \
    GPUX_REP1(GPUX_RD_CV_T1, kd, 0)                                                           \
    red[32 * g + 4 * tx] = a0[0];                                                             \
    red[32 * g + 4 * tx + 1] = a1[0];                                                         \
    red[32 * g + 4 * tx + 2] = a2[0];                                                         \
    red[32 * g + 4 * tx + 3] = a3[0];                                                         \
  }
/* _cv: levels 16 .. 1 */
#define GPUX_RD_CV_TREE(kd) GPUX_RD_COLS_TREE(kd, 32, 5, 1)

/* (kind, dtype) pairs with a _cv kernel: GPUX_RD_CVK_<kind>_(dt) is GPUX_RD_CV_YES or
 * GPUX_RD_CV_NO, called (kd, kn, dt) after the kernels _r and _c. A kernel of its own (mode
 * ignored: it only runs the vector case), so that its registers (and so its groups per
 * compute unit) are its own and _c keeps its own for the cases it serves (other inner or
 * in_off, len <= 32). The tables are GPUX_REDUCE_CV_KINDS and GPUX_REDUCE_CV_DT of
 * gpux_kernels.h (which src/backend_opencl/cl_reduce.c reads, and the kernel coverage test
 * compares with the kernels built) spelled per kind and dtype: the preprocessor cannot ask
 * whether a name is in a list. min, max, amax, any, all and cnt are left out as on CUDA. */
#define GPUX_RD_CV_KERNEL(kd, kn, V)                                                          \
  __kernel __attribute__((reqd_work_group_size(GPUX_RED_LANES, 1, 1))) void kn##_cv(          \
      GPUX_RD_ARGS(kd)) {                                                                     \
    __local kd##_a red[4 * GPUX_RED_LANES];                                                   \
    GPUX_RD_CV_BODY(kd, V)                                                                    \
    GPUX_RD_CV_TREE(kd)                                                                       \
  }
/* V: the input's 4-vector type */
#define GPUX_RD_CV_YES(kd, kn, dt) GPUX_RD_CV_KERNEL(kd, kn, GPUX_CAT(GPUX_T_##dt, 4))
#define GPUX_RD_CV_NO(kd, kn, dt)
#define GPUX_RD_CVD_f32 GPUX_RD_CV_YES
#define GPUX_RD_CVD_i32 GPUX_RD_CV_YES
#define GPUX_RD_CVD_f64 GPUX_RD_CV_NO
#define GPUX_RD_CVD_i64 GPUX_RD_CV_NO
#define GPUX_RD_CVD_u8 GPUX_RD_CV_NO
#define GPUX_RD_CVD_b8 GPUX_RD_CV_NO
#define GPUX_RD_CVD_f16 GPUX_RD_CV_NO
#define GPUX_RD_CVD_bf16 GPUX_RD_CV_NO
#define GPUX_RD_CVD_i8 GPUX_RD_CV_NO
#define GPUX_RD_CVD_i16 GPUX_RD_CV_NO
#define GPUX_RD_CVD_u16 GPUX_RD_CV_NO
#define GPUX_RD_CVD_u32 GPUX_RD_CV_NO
#define GPUX_RD_CVD_u64 GPUX_RD_CV_NO
#define GPUX_RD_CVD_c64 GPUX_RD_CV_NO
#define GPUX_RD_CVD_c128 GPUX_RD_CV_NO
#define GPUX_RD_CVK_sum_(dt) GPUX_RD_CVD_##dt
#define GPUX_RD_CVK_prod_(dt) GPUX_RD_CVD_##dt
#define GPUX_RD_CVK_argmin_(dt) GPUX_RD_CVD_##dt
#define GPUX_RD_CVK_argmax_(dt) GPUX_RD_CVD_##dt
#define GPUX_RD_CVK_asum_(dt) GPUX_RD_CVD_##dt
#define GPUX_RD_CVK_ssq_(dt) GPUX_RD_CVD_##dt
#define GPUX_RD_CVK_ssd_(dt) GPUX_RD_CVD_##dt
#define GPUX_RD_CVK_min_(dt) GPUX_RD_CV_NO
#define GPUX_RD_CVK_max_(dt) GPUX_RD_CV_NO
#define GPUX_RD_CVK_argmin_p_(dt) GPUX_RD_CV_NO
#define GPUX_RD_CVK_argmax_p_(dt) GPUX_RD_CV_NO
#define GPUX_RD_CVK_any_(dt) GPUX_RD_CV_NO
#define GPUX_RD_CVK_all_(dt) GPUX_RD_CV_NO
#define GPUX_RD_CVK_cnt_(dt) GPUX_RD_CV_NO
#define GPUX_RD_CVK_amax_(dt) GPUX_RD_CV_NO

#define GPUX_RD_KERNELS_(kd, kn, cv, dt)                                                      \
  __kernel void kn##_r(GPUX_RD_ARGS(kd)) {                                                    \
    __local kd##_a red[GPUX_RED_LANES];                                                       \
    if (mode == 1)                                                                            \
      GPUX_RD_SHORT(kd)                                                                       \
    else                                                                                      \
      GPUX_RD_ROW_BODY(kd)                                                                    \
    GPUX_RD_ROW_TREE(kd)                                                                      \
  }                                                                                           \
  __kernel void kn##_c(GPUX_RD_ARGS(kd)) {                                                    \
    __local kd##_a red[GPUX_RED_LANES];                                                       \
    if (mode == 1)                                                                            \
      GPUX_RD_SHORT(kd)                                                                       \
    else                                                                                      \
      GPUX_RD_COL_BODY(kd)                                                                    \
    GPUX_RD_COL_TREE(kd)                                                                      \
  }                                                                                           \
  cv(kd, kn, dt) /* kn_cv where the kind and dtype have it */

#else
/* ---------------------------------------------------------------- CPU form */
/* columns per work-item of _c: 512 bytes of accumulators per lane (128 KB in all), at most
 * 128 columns (src/backend_opencl/cl_reduce.c computes the same from the kind and dtype).
 * Wide blocks keep the strided row accesses long: 16 columns ran at under half the speed. */
#define GPUX_RD_CW(kd)                                                                        \
  (512 / (int)sizeof(kd##_a) < 128 ? 512 / (int)sizeof(kd##_a) : 128)

/* tree level s over lanes of W accumulators each (contiguous), skipped when the chunk has
 * at most s elements (lanes >= rem hold e, so the level would only compute a (+) e) */
#define GPUX_RD_CLVL(kd, s, W)                                                                \
  if ((s) < rem)                                                                              \
    for (int u = 0; u < (s) * (W); u++) acc[u] = kd##_op(acc[u], acc[u + (s) * (W)]);
#define GPUX_RD_CTREE(kd, W)                                                                  \
  GPUX_RD_CLVL(kd, 128, W)                                                                    \
  GPUX_RD_CLVL(kd, 64, W)                                                                     \
  GPUX_RD_CLVL(kd, 32, W)                                                                     \
  GPUX_RD_CLVL(kd, 16, W)                                                                     \
  GPUX_RD_CLVL(kd, 8, W)                                                                      \
  GPUX_RD_CLVL(kd, 4, W)                                                                      \
  GPUX_RD_CLVL(kd, 2, W)                                                                      \
  GPUX_RD_CLVL(kd, 1, W)
/* lanes the tree reads: all 256, or the power of two >= rem */
#define GPUX_RD_NLANES(n0)                                                                    \
  int n0 = GPUX_RED_LANES;                                                                    \
  if (rem < GPUX_RED_LANES) {                                                                 \
    n0 = 1;                                                                                   \
    while (n0 < rem) n0 <<= 1;                                                                \
  }

#define GPUX_RD_ROW_CPU(kd)                                                                   \
  {                                                                                           \
    const long q = GPUX_RD_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);         \
    if (q < outer * nparts) {                                                                 \
      const long o = nparts > 1 ? q / nparts : q, p = q - o * nparts;                         \
      const long c0 = p * GPUX_RED_CHUNK, b = o * len + c0;                                   \
      const int rem = (int)(len - c0 < GPUX_RED_CHUNK ? len - c0 : GPUX_RED_CHUNK);           \
      __global const kd##_t *x = in + in_off + b;                                             \
      const long ib = in_idx_off + b;                                                         \
      const kd##_c m = kd##_aux(aux, aux_off + o);                                            \
      kd##_a acc[GPUX_RED_LANES];                                                             \
      GPUX_RD_NLANES(n0)                                                                      \
      for (int l = 0; l < n0; l++) acc[l] = kd##_e();                                         \
      const int kf = rem / GPUX_RED_LANES, tail = rem - kf * GPUX_RED_LANES;                  \
      for (int k = 0; k < kf; k++) {                                                          \
        const int r0 = k * GPUX_RED_LANES;                                                    \
        for (int l = 0; l < GPUX_RED_LANES; l++)                                              \
          acc[l] = kd##_op(acc[l], kd##_ld(x[r0 + l], m, c0 + r0 + l, in_idx, ib + r0 + l));  \
      }                                                                                       \
      {                                                                                       \
        const int r0 = kf * GPUX_RED_LANES;                                                   \
        for (int l = 0; l < tail; l++)                                                        \
          acc[l] = kd##_op(acc[l], kd##_ld(x[r0 + l], m, c0 + r0 + l, in_idx, ib + r0 + l));  \
      }                                                                                       \
      GPUX_RD_CTREE(kd, 1)                                                                    \
      kd##_st(out, out_idx, out_off + q, out_idx_off + q, acc[0], post, post_div);            \
    }                                                                                         \
  }

#define GPUX_RD_COL_CPU(kd)                                                                   \
  {                                                                                           \
    const long q = GPUX_RD_GROUP() * (long)get_local_size(0) + (long)get_local_id(0);         \
    const long ncb = (inner + GPUX_RD_CW(kd) - 1) / GPUX_RD_CW(kd);                           \
    if (q < ncb * nparts * outer) {                                                           \
      const long t = q / ncb, cb = q - t * ncb;                                               \
      const long o = nparts > 1 ? t / nparts : t, p = t - o * nparts;                         \
      const long i0 = cb * GPUX_RD_CW(kd), c0 = p * GPUX_RED_CHUNK;                           \
      const int nc = (int)(inner - i0 < GPUX_RD_CW(kd) ? inner - i0 : GPUX_RD_CW(kd));        \
      const int rem = (int)(len - c0 < GPUX_RED_CHUNK ? len - c0 : GPUX_RED_CHUNK);           \
      const long e0 = (o * len + c0) * inner + i0;                                            \
      kd##_c m[GPUX_RD_CW(kd)];                                                               \
      for (int j = 0; j < GPUX_RD_CW(kd); j++)                                                \
        m[j] = j < nc ? kd##_aux(aux, aux_off + o * inner + i0 + j) : (kd##_c)0;              \
      kd##_a acc[GPUX_RED_LANES * GPUX_RD_CW(kd)];                                            \
      GPUX_RD_NLANES(n0)                                                                      \
      for (int u = 0; u < n0 * GPUX_RD_CW(kd); u++) acc[u] = kd##_e();                        \
      /* row r = 256k + l goes to lane l; rows in order, so each lane folds in k order */     \
      for (int r = 0; r < rem; r++) {                                                         \
        __global const kd##_t *x = in + in_off + e0 + (long)r * inner;                        \
        const long ib = in_idx_off + e0 + (long)r * inner;                                    \
        kd##_a *al = acc + (r % GPUX_RED_LANES) * GPUX_RD_CW(kd);                             \
        if (nc == GPUX_RD_CW(kd)) {                                                           \
          for (int j = 0; j < GPUX_RD_CW(kd); j++)                                            \
            al[j] = kd##_op(al[j], kd##_ld(x[j], m[j], c0 + r, in_idx, ib + j));              \
        } else {                                                                              \
          for (int j = 0; j < nc; j++)                                                        \
            al[j] = kd##_op(al[j], kd##_ld(x[j], m[j], c0 + r, in_idx, ib + j));              \
        }                                                                                     \
      }                                                                                       \
      GPUX_RD_CTREE(kd, GPUX_RD_CW(kd))                                                       \
      const long oq = (o * nparts + p) * inner + i0;                                          \
      for (int j = 0; j < nc; j++)                                                            \
        kd##_st(out, out_idx, out_off + oq + j, out_idx_off + oq + j, acc[j], post, post_div); \
    }                                                                                         \
  }

#define GPUX_RD_KERNELS_(kd, kn, cv, dt) /* cv: GPU form only */                              \
  __kernel void kn##_r(GPUX_RD_ARGS(kd)) {                                                    \
    GPUX_RD_ROW_CPU(kd)                                                                       \
  }                                                                                           \
  __kernel void kn##_c(GPUX_RD_ARGS(kd)) {                                                    \
    GPUX_RD_COL_CPU(kd)                                                                       \
  }
#endif

/* ------------------------------------------------------------------ kernels
 * X(kind, id, DTLIST, ACC) -> DTLIST(GPUX_RD_DT, kind_) -> functions and kernels per dtype */
/* kind names are pasted at once (K##_): pocl's headers define min, max, any and all as
 * macros, which an argument passed on unpasted would become */
#define GPUX_RD_KERNELS(Kx, dt)                                                               \
  GPUX_RD_DEF_##Kx(gpux_rd_##Kx##dt, dt)                                                      \
  GPUX_RD_KERNELS_(gpux_rd_##Kx##dt, gpux_reduce_##Kx##dt, GPUX_RD_CVK_##Kx(dt), dt)
#define GPUX_RD_DT(Kx, dt) GPUX_KON_##dt(GPUX_RD_KERNELS, Kx, dt)
#define GPUX_RD_KIND(K, id, DTLIST, ACC) DTLIST(GPUX_RD_DT, K##_)
GPUX_REDUCE_KINDS(GPUX_RD_KIND)
