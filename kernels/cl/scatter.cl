#include "gpux_kernels.h"
#include "gpux_cl_prelude.h"
#include "gpux_half.h"
/* gpux OpenCL kernels, scatter family (OpenCL C 1.2 with cl_khr_int64_base_atomics and
 * cl_khr_int64_extended_atomics): scatter-add / -max / -min, bincount, the bin search of
 * histogram and digitize. The arithmetic is kernels/common/gpux_scatter.h's (THE EXACT SUM,
 * the max / min images), which kernels/cuda/scatter.cu runs too: the same bits.
 *
 * Signatures (T the value dtype, IX int / long; offsets in elements):
 *   gpux_scatter_init_<dt>(global T *a, long a_off, global ulong *acc, long nt, int op)
 *   gpux_scatter_<dt>_<ix>(global const T *v, long v_off, global const IX *idx, long i_off,
 *                          global ulong *acc, long nv, long m, long post, long n, long nt,
 *                          int mode, int op)
 *       value e = (p * m + j) * post + q goes to target (p * n + k) * post + q, k = idx[j]
 *       normalized by mode (gpux_sc_norm; -1: skipped)
 *   gpux_scatter_fin_<dt>(global T *a, long a_off, global const ulong *acc, long nt, int op)
 *   gpux_scatter_scan_<dt>(global const T *v, long v_off, long nv, global ulong *acc,
 *                          long chunk, local ulong *h)   (float dtypes: the exact sums)
 *   gpux_bincount_<ix>(global const IX *x, long x_off, long n, long chunk, global ulong *cnt,
 *                      long c_off, long nbins, global ulong *err, long err_off, local uint *h,
 *                      int priv)
 *       work-group g counts x[g * chunk .. (g + 1) * chunk); priv: in h (nbins counters),
 *       then one atomic add per nonzero bin; else global atomics; err (or NULL): the maximum
 *       of ~i over the positions i of values outside [0, nbins)
 *   gpux_search_<dt>(global const T *x, long x_off, long n, global const T *e, long e_off,
 *                    long ne, int mode, global long *out, long o_off)
 * The accumulator acc of target t: exact sums, gpux_scatter.h's layout (THE WINDOW); integers and max / min, one 32-bit (dtypes of up to 4 bytes, and the float32
 * image of the halves) or 64-bit word. */
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#include "gpux_scatter.h"

/* classes: F float32 class (exact sum of float32 values), D float64, W integer in a 32-bit
 * word, Q integer in a 64-bit word */
#define GPUX_SC_CLS_f32 F
#define GPUX_SC_CLS_f16 F
#define GPUX_SC_CLS_bf16 F
#define GPUX_SC_CLS_f64 D
#define GPUX_SC_CLS_i8 W
#define GPUX_SC_CLS_i16 W
#define GPUX_SC_CLS_i32 W
#define GPUX_SC_CLS_u8 W
#define GPUX_SC_CLS_u16 W
#define GPUX_SC_CLS_u32 W
#define GPUX_SC_CLS_i64 Q
#define GPUX_SC_CLS_u64 Q
/* float32 bits of a value of the float32 class, and back (max / min: exact) */
#define GPUX_SC_TO32_f32(x) as_uint(x)
#define GPUX_SC_TO32_f16(x) gpux_f16_to_f32(x)
#define GPUX_SC_TO32_bf16(x) gpux_bf16_to_f32(x)
#define GPUX_SC_FROM32_f32(b) as_float(b)
#define GPUX_SC_FROM32_f16(b) gpux_f32_to_f16(b)
#define GPUX_SC_FROM32_bf16(b) gpux_f32_to_bf16(b)
/* a float of the class from the rounding's bits (its own format) */
#define GPUX_SC_FROMB_f32(b) as_float((uint)(b))
#define GPUX_SC_FROMB_f16(b) ((ushort)(b))
#define GPUX_SC_FROMB_bf16(b) ((ushort)(b))
/* significand bits, exponent bits */
#define GPUX_SC_P_f32 24
#define GPUX_SC_E_f32 8
#define GPUX_SC_P_f16 11
#define GPUX_SC_E_f16 5
#define GPUX_SC_P_bf16 8
#define GPUX_SC_E_bf16 8
/* integers: signed? */
#define GPUX_SC_SG_i8 1
#define GPUX_SC_SG_i16 1
#define GPUX_SC_SG_i32 1
#define GPUX_SC_SG_i64 1
#define GPUX_SC_SG_u8 0
#define GPUX_SC_SG_u16 0
#define GPUX_SC_SG_u32 0
#define GPUX_SC_SG_u64 0
/* search keys: the halves compare as float32 */
#define GPUX_SC_KT_f16 float
#define GPUX_SC_KT_bf16 float
#define GPUX_SC_KEY_f16(x) GPUX_HF_f16(x)
#define GPUX_SC_KEY_bf16(x) GPUX_HF_bf16(x)
#define GPUX_SC_KT_f32 float
#define GPUX_SC_KT_f64 double
#define GPUX_SC_KT_i8 char
#define GPUX_SC_KT_i16 short
#define GPUX_SC_KT_i32 int
#define GPUX_SC_KT_i64 long
#define GPUX_SC_KT_u8 uchar
#define GPUX_SC_KT_u16 ushort
#define GPUX_SC_KT_u32 uint
#define GPUX_SC_KT_u64 ulong
#define GPUX_SC_KEY_f32(x) (x)
#define GPUX_SC_KEY_f64(x) (x)
#define GPUX_SC_KEY_i8(x) (x)
#define GPUX_SC_KEY_i16(x) (x)
#define GPUX_SC_KEY_i32(x) (x)
#define GPUX_SC_KEY_i64(x) (x)
#define GPUX_SC_KEY_u8(x) (x)
#define GPUX_SC_KEY_u16(x) (x)
#define GPUX_SC_KEY_u32(x) (x)
#define GPUX_SC_KEY_u64(x) (x)

/* ---- the exact sum (gpux_scatter.h): the flags a value sets (NaN, inf; NNZ for any value
 * other than -0.0) */
static inline ulong gpux_sc_flags(int cls, int neg) {
  return cls == 3   ? (ulong)(GPUX_SC_NAN | GPUX_SC_NNZ)
         : cls == 2 ? (ulong)((neg ? GPUX_SC_NINF : GPUX_SC_PINF) | GPUX_SC_NNZ)
         : (cls == 1 || !neg) ? (ulong)GPUX_SC_NNZ
                              : (ulong)0;
}
/* init: a[t] into the zeroed words w[0..D) and flags w[D] */
static inline void gpux_sc_dep0(__global long *w, ulong bits, int p, int eb, int L, int D) {
  int neg, s;
  ulong m;
  const int cls = gpux_sc_decompose(bits, p, eb, L, &neg, &m, &s);
  w[D] |= (long)gpux_sc_flags(cls, neg);
  if (cls != 1) return;
  ulong p0, p1, p2;
  gpux_sc_split(m, s & 31, &p0, &p1, &p2);
  const int d = s >> 5;
  w[d] += neg ? -(long)p0 : (long)p0;
  w[d + 1] += neg ? -(long)p1 : (long)p1;
  if (p2) w[d + 2] += neg ? -(long)p2 : (long)p2;
}
/* apply: a value's term into the target's window win at wb or (a spill) its full
 * accumulator w (flags w[D]), atomically (gpux_scatter.h, THE WINDOW); bytes: the float32
 * class's byte window at bw = wb (one atomic a term), else float64's words [dw, dw + W),
 * dw = wb; negz: some a[t] is -0.0, so the terms set NNZ */
static inline void gpux_sc_dep_term(volatile __global long *win, volatile __global long *w,
                                    int wb, int bytes, int negz, ulong bits, int p, int eb,
                                    int L, int D) {
  int neg, s;
  ulong m;
  const int cls = gpux_sc_decompose(bits, p, eb, L, &neg, &m, &s);
  const ulong f = cls == 1 && !negz ? (ulong)0 : gpux_sc_flags(cls, neg);
  if (f && ((ulong)w[D] & f) != f) /* a racy read: the bits only ever get set */
    atom_or(w + D, (long)f);
  if (cls != 1) return;
  if (bytes) {
    ulong v;
    const int k = gpux_sc_bslot(m, s, neg, wb, &v);
    if (k >= 0) {
      atom_add(win + k, (long)v);
      return;
    }
  }
  ulong p0, p1, p2;
  gpux_sc_split(m, s & 31, &p0, &p1, &p2);
  const int d = s >> 5;
  volatile __global long *t =
      !bytes && gpux_sc_in_window(d, p1, p2, wb) ? win + (d - wb) : w + d;
  if (p0) atom_add(t, neg ? -(long)p0 : (long)p0);
  if (p1) atom_add(t + 1, neg ? -(long)p1 : (long)p1);
  if (p2) atom_add(t + 2, neg ? -(long)p2 : (long)p2);
}
/* the layout after the header (gpux_scatter.h, THE WINDOW): nt windows, nt full
 * accumulators of D + 1 words */
#define GPUX_SC_WIN(acc, t) ((__global long *)(acc) + (t) * GPUX_SC_W)
#define GPUX_SC_FULL(acc, nt, t, D) ((__global long *)(acc) + (nt) * GPUX_SC_W + (t) * ((D) + 1))
/* init of an exact sum: zeroed words, a[t] (bits b) in; a[t] = -0.0 noted in the header */
#define GPUX_SC_XINIT(b, p, eb, L, D)                                                       \
  {                                                                                         \
    __global long *w = GPUX_SC_FULL(acc, nt, t, D), *win = GPUX_SC_WIN(acc, t);             \
    for (int d = 0; d <= (D); d++) w[d] = 0;                                                \
    for (int d = 0; d < GPUX_SC_W; d++) win[d] = 0;                                         \
    gpux_sc_dep0(w, b, p, eb, L, D);                                                        \
    if ((b) == (ulong)1 << ((p) + (eb) - 1) &&                                              \
        !((volatile __global ulong *)hdr)[GPUX_SC_H_NEGZ])                                  \
      atom_or((volatile __global ulong *)hdr + GPUX_SC_H_NEGZ, (ulong)1);                   \
  }
/* what apply / fin read from the header: the window's place wb (the float32 class's bw,
 * float64's dw: base, an expression of the largest biased exponent be), negz */
#define GPUX_SC_XQ(base)                                                                    \
  const ulong be = hdr[GPUX_SC_H_EXP];                                                      \
  const int wb = op == GPUX_SC_ADD ? (base) : 0;                                            \
  const int negz = op == GPUX_SC_ADD && hdr[GPUX_SC_H_NEGZ] != 0;

/* FIN: the full accumulator w (flags w[D]) and the window win at wb copied to private
 * words (gpux_sc_fold and gpux_sc_finish take private arrays), the window folded in
 * (bytes: the float32 class's byte window), rounded to the float (p, eb): out, its bits */
#define GPUX_SC_FINISH(w, win, wb, bytes, D, L, p, eb, out)                                 \
  do {                                                                                      \
    long w_[D], win_[GPUX_SC_W];                                                            \
    uint dig_[D];                                                                           \
    for (int d_ = 0; d_ < (D); d_++) w_[d_] = (w)[d_];                                      \
    for (int k_ = 0; k_ < GPUX_SC_W; k_++) win_[k_] = (win)[k_];                            \
    gpux_sc_fold(w_, win_, wb, bytes);                                                      \
    out = gpux_sc_finish(w_, dig_, D, (ulong)(w)[D], L, p, eb);                             \
  } while (0)

/* ---- init / apply / fin by class */
/* F: float32 class */
#define GPUX_SC_INIT_F(dt)                                                                  \
  if (op == GPUX_SC_ADD) {                                                                  \
    const ulong b = GPUX_SC_TO32_##dt(a[a_off + t]);                                        \
    GPUX_SC_XINIT(b, 24, 8, GPUX_SC_L_F32, GPUX_SC_D_F32)                                    \
  } else                                                                                    \
    ((__global uint *)acc)[t] = gpux_sc_img_f32(GPUX_SC_TO32_##dt(a[a_off + t]), op);
#define GPUX_SC_XQ_F(dt) GPUX_SC_XQ(gpux_sc_bwindow_base(be, 24, 8, GPUX_SC_L_F32))
#define GPUX_SC_APPLY_F(dt)                                                                 \
  if (op == GPUX_SC_ADD)                                                                    \
    gpux_sc_dep_term(GPUX_SC_WIN(acc, t), GPUX_SC_FULL(acc, nt, t, GPUX_SC_D_F32), wb, 1,   \
                     negz, GPUX_SC_TO32_##dt(x), 24, 8, GPUX_SC_L_F32, GPUX_SC_D_F32);      \
  else if (op == GPUX_SC_MAX)                                                               \
    atomic_max((volatile __global uint *)acc + t, gpux_sc_img_f32(GPUX_SC_TO32_##dt(x), op)); \
  else                                                                                      \
    atomic_min((volatile __global uint *)acc + t, gpux_sc_img_f32(GPUX_SC_TO32_##dt(x), op));
#define GPUX_SC_FIN_F(dt)                                                                   \
  if (op == GPUX_SC_ADD) {                                                                  \
    ulong bits;                                                                             \
    GPUX_SC_FINISH(GPUX_SC_FULL(acc, nt, t, GPUX_SC_D_F32), GPUX_SC_WIN(acc, t), wb, 1,     \
                   GPUX_SC_D_F32, GPUX_SC_L_F32, GPUX_SC_P_##dt, GPUX_SC_E_##dt, bits);     \
    a[a_off + t] = GPUX_SC_FROMB_##dt(bits);                                                \
  } else                                                                                    \
    a[a_off + t] = GPUX_SC_FROM32_##dt(gpux_sc_unimg_f32(((__global const uint *)acc)[t]));
/* D: float64 */
#define GPUX_SC_INIT_D(dt)                                                                  \
  if (op == GPUX_SC_ADD) {                                                                  \
    const ulong b = as_ulong(a[a_off + t]);                                                 \
    GPUX_SC_XINIT(b, 53, 11, GPUX_SC_L_F64, GPUX_SC_D_F64)                                   \
  } else                                                                                    \
    acc[t] = gpux_sc_img_f64(as_ulong(a[a_off + t]), op);
#define GPUX_SC_XQ_D(dt) GPUX_SC_XQ(gpux_sc_window_base(be, 53, 11, GPUX_SC_L_F64, GPUX_SC_D_F64))
#define GPUX_SC_APPLY_D(dt)                                                                 \
  if (op == GPUX_SC_ADD)                                                                    \
    gpux_sc_dep_term(GPUX_SC_WIN(acc, t), GPUX_SC_FULL(acc, nt, t, GPUX_SC_D_F64), wb, 0,   \
                     negz, as_ulong(x), 53, 11, GPUX_SC_L_F64, GPUX_SC_D_F64);              \
  else if (op == GPUX_SC_MAX)                                                               \
    atom_max((volatile __global ulong *)acc + t, gpux_sc_img_f64(as_ulong(x), op));         \
  else                                                                                      \
    atom_min((volatile __global ulong *)acc + t, gpux_sc_img_f64(as_ulong(x), op));
#define GPUX_SC_FIN_D(dt)                                                                   \
  if (op == GPUX_SC_ADD) {                                                                  \
    ulong bits;                                                                             \
    GPUX_SC_FINISH(GPUX_SC_FULL(acc, nt, t, GPUX_SC_D_F64), GPUX_SC_WIN(acc, t), wb, 0,     \
                   GPUX_SC_D_F64, GPUX_SC_L_F64, 53, 11, bits);                             \
    a[a_off + t] = as_double(bits);                                                         \
  } else                                                                                    \
    a[a_off + t] = as_double(gpux_sc_unimg_f64(acc[t]));
/* integers: no header */
#define GPUX_SC_XQ_W(dt)
#define GPUX_SC_XQ_Q(dt)
/* W: integers in a 32-bit word; signed ones' images flip the sign bit */
#define GPUX_SC_WIMG(dt, x) (GPUX_SC_SG_##dt ? (uint)(int)(x) ^ 0x80000000u : (uint)(x))
#define GPUX_SC_INIT_W(dt)                                                                  \
  ((__global uint *)acc)[t] =                                                               \
      op == GPUX_SC_ADD ? (uint)(int)a[a_off + t] : GPUX_SC_WIMG(dt, a[a_off + t]);
#define GPUX_SC_APPLY_W(dt)                                                                 \
  if (op == GPUX_SC_ADD)                                                                    \
    atomic_add((volatile __global uint *)acc + t, (uint)(int)x);                            \
  else if (op == GPUX_SC_MAX)                                                               \
    atomic_max((volatile __global uint *)acc + t, GPUX_SC_WIMG(dt, x));                     \
  else                                                                                      \
    atomic_min((volatile __global uint *)acc + t, GPUX_SC_WIMG(dt, x));
#define GPUX_SC_FIN_W(dt)                                                                   \
  {                                                                                         \
    uint k = ((__global const uint *)acc)[t];                                               \
    if (op != GPUX_SC_ADD && GPUX_SC_SG_##dt) k ^= 0x80000000u;                             \
    a[a_off + t] = GPUX_ASS(dt, k);                                                         \
  }
/* Q: 64-bit integers */
#define GPUX_SC_QIMG(dt, x) (GPUX_SC_SG_##dt ? (ulong)(x) ^ 0x8000000000000000UL : (ulong)(x))
#define GPUX_SC_INIT_Q(dt) acc[t] = op == GPUX_SC_ADD ? (ulong)a[a_off + t] : GPUX_SC_QIMG(dt, a[a_off + t]);
#define GPUX_SC_APPLY_Q(dt)                                                                 \
  if (op == GPUX_SC_ADD)                                                                    \
    atom_add((volatile __global ulong *)acc + t, (ulong)x);                                 \
  else if (op == GPUX_SC_MAX)                                                               \
    atom_max((volatile __global ulong *)acc + t, GPUX_SC_QIMG(dt, x));                      \
  else                                                                                      \
    atom_min((volatile __global ulong *)acc + t, GPUX_SC_QIMG(dt, x));
#define GPUX_SC_FIN_Q(dt)                                                                   \
  {                                                                                         \
    ulong k = acc[t];                                                                       \
    if (op != GPUX_SC_ADD && GPUX_SC_SG_##dt) k ^= 0x8000000000000000UL;                    \
    a[a_off + t] = GPUX_ASS(dt, k);                                                         \
  }

#define GPUX_SC_BY(what, dt) GPUX_CAT3(GPUX_SC_, what, GPUX_CAT(_, GPUX_SC_CLS_##dt))(dt)

#define GPUX_SC_KERNELS(a_, dt)                                                             \
  __kernel void gpux_scatter_init_##dt(__global GPUX_T_##dt *a, long a_off,                 \
                                       __global ulong *acc, long nt, int op) {              \
    const long t = get_global_id(0);                                                        \
    if (t >= nt) return;                                                                    \
    __global ulong *const hdr = acc; /* THE HEADER, then the accumulators */                \
    acc += GPUX_SC_HDR;                                                                     \
    GPUX_SC_BY(INIT, dt)                                                                    \
  }                                                                                         \
  __kernel void gpux_scatter_fin_##dt(__global GPUX_T_##dt *a, long a_off,                  \
                                      __global const ulong *acc, long nt, int op) {         \
    const long t = get_global_id(0);                                                        \
    if (t >= nt || acc[GPUX_SC_H_ERR]) return; /* a bad index: a stays as it was */         \
    __global const ulong *const hdr = acc;                                                  \
    acc += GPUX_SC_HDR;                                                                     \
    GPUX_SC_BY(XQ, dt)                                                                      \
    GPUX_SC_BY(FIN, dt)                                                                     \
  }                                                                                         \
  GPUX_SCAT_IX(GPUX_SC_APPLY_KERNEL, dt)                                                      \
  GPUX_SC_SEARCH_KERNEL(dt)

#define GPUX_SC_APPLY_KERNEL(dt, ix)                                                        \
  __kernel void gpux_scatter_##dt##_##ix(                                                   \
      __global const GPUX_T_##dt *v, long v_off, __global const GPUX_T_##ix *idx,           \
      long i_off, __global ulong *acc, long nv, long m, long post, long n, long nt,         \
      int mode, int op) {                                                                   \
    const long e = get_global_id(0);                                                        \
    if (e >= nv) return;                                                                    \
    __global ulong *const hdr = acc;                                                        \
    acc += GPUX_SC_HDR;                                                                     \
    GPUX_SC_BY(XQ, dt)                                                                      \
    long j, t;                                                                              \
    if (post == 1 && m == nv) {                                                             \
      j = e;                                                                                \
      t = 0;                                                                                \
    } else {                                                                                \
      const long q = e % post, r = e / post;                                                \
      j = r % m;                                                                            \
      t = (r / m) * n * post + q;                                                           \
    }                                                                                       \
    const long k = gpux_sc_norm((long)idx[i_off + j], n, mode);                             \
    if (k < 0) { /* checked: the first bad position of idx, ~j's maximum */                 \
      if (mode == GPUX_SC_CHECKED)                                                          \
        atom_max((volatile __global ulong *)hdr + GPUX_SC_H_ERR, ~(ulong)j);                \
      return;                                                                               \
    }                                                                                       \
    t += k * post;                                                                          \
    const GPUX_T_##dt x = v[v_off + e];                                                     \
    GPUX_SC_BY(APPLY, dt)                                                                   \
  }

/* the count of edges e[0..ne) before x by the mode's predicate (a prefix of the edges) */
#define GPUX_SC_SEARCH_KERNEL(dt)                                                           \
  __kernel void gpux_search_##dt(__global const GPUX_T_##dt *x, long x_off, long n,         \
                                 __global const GPUX_T_##dt *e, long e_off, long ne,        \
                                 int mode, __global long *out, long o_off) {                \
    const long i = get_global_id(0);                                                        \
    if (i >= n) return;                                                                     \
    const GPUX_SC_KT_##dt v = GPUX_SC_KEY_##dt(x[x_off + i]);                               \
    long r;                                                                                 \
    if (v != v) /* NaN sorts last */                                                        \
      r = mode == GPUX_SC_HIST ? -1 : mode <= GPUX_SC_DIG_R ? ne : 0;                       \
    else {                                                                                  \
      long lo = 0, hi = ne;                                                                 \
      while (lo < hi) {                                                                     \
        const long mid = (lo + hi) >> 1;                                                    \
        const GPUX_SC_KT_##dt em = GPUX_SC_KEY_##dt(e[e_off + mid]);                        \
        const int in = mode == GPUX_SC_DIG_R    ? em < v                                    \
                       : mode == GPUX_SC_DIG_DL ? em > v                                    \
                       : mode == GPUX_SC_DIG_DR ? em >= v                                   \
                                                : em <= v;                                  \
        if (in) lo = mid + 1;                                                               \
        else hi = mid;                                                                      \
      }                                                                                     \
      r = lo;                                                                               \
      if (mode == GPUX_SC_HIST) {                                                           \
        if (r == 0) r = -1;                                                                 \
        else if (r == ne) r = v == GPUX_SC_KEY_##dt(e[e_off + ne - 1]) ? ne - 2 : -1;       \
        else r -= 1;                                                                        \
      }                                                                                     \
    }                                                                                       \
    out[o_off + i] = r;                                                                     \
  }

#define GPUX_SC_GEN(a_, dt) GPUX_KON_##dt(GPUX_SC_KERNELS, a_, dt)
GPUX_SCAT_DT(GPUX_SC_GEN, _)

/* The exact sums' scan (float dtypes): the largest biased exponent among the values into
 * the header (gpux_scatter.h, THE WINDOW). Work-group g reads values [g * ls * chunk, +ls *
 * chunk), item li every ls-th from li; a maximum in local memory (ls a power of two), one
 * atomic per work-group at most. */
#define GPUX_SC_SCAN_F(dt) gpux_sc_bexp(GPUX_SC_TO32_##dt(x), 24, 8)
#define GPUX_SC_SCAN_D(dt) gpux_sc_bexp(as_ulong(x), 53, 11)
#define GPUX_SC_SCAN_KERNEL(a_, dt)                                                          \
  __kernel void gpux_scatter_scan_##dt(__global const GPUX_T_##dt *v, long v_off, long nv,  \
                                       __global ulong *acc, long chunk, __local ulong *h) { \
    const long li = get_local_id(0), ls = get_local_size(0);                                \
    const long lo = get_group_id(0) * ls * chunk;                                           \
    ulong mx = 0;                                                                           \
    for (long k = 0; k < chunk; k++) {                                                      \
      const long e = lo + k * ls + li;                                                      \
      if (e >= nv) break;                                                                   \
      const GPUX_T_##dt x = v[v_off + e];                                                   \
      const ulong be = GPUX_SC_BY(SCAN, dt);                                                \
      mx = be > mx ? be : mx;                                                               \
    }                                                                                       \
    h[li] = mx;                                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    for (long o = ls >> 1; o > 0; o >>= 1) {                                                \
      if (li < o && h[li + o] > h[li]) h[li] = h[li + o];                                   \
      barrier(CLK_LOCAL_MEM_FENCE);                                                         \
    }                                                                                       \
    if (li == 0 && h[0] > ((volatile __global ulong *)acc)[GPUX_SC_H_EXP])                  \
      atom_max((volatile __global ulong *)acc + GPUX_SC_H_EXP, h[0]);                       \
  }
#define GPUX_SC_SCAN_GEN(a_, dt) GPUX_KON_##dt(GPUX_SC_SCAN_KERNEL, a_, dt)
GPUX_SCAT_FDT(GPUX_SC_SCAN_GEN, _)

/* bincount: part i32 / i64 (the index dtype's) */
#define GPUX_SC_BINCOUNT(a_, ix)                                                            \
  __kernel void gpux_bincount_##ix(__global const GPUX_T_##ix *x, long x_off, long n,       \
                                   long chunk, __global ulong *cnt, long c_off, long nbins, \
                                   __global ulong *err, long err_off, __local uint *h,      \
                                   int priv) {                                              \
    const long g = get_group_id(0), li = get_local_id(0), ls = get_local_size(0);           \
    const long lo = g * chunk, hi = lo + chunk < n ? lo + chunk : n;                        \
    if (priv) {                                                                             \
      for (long b = li; b < nbins; b += ls) h[b] = 0;                                       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                         \
    }                                                                                       \
    for (long i0 = lo + li; i0 < hi; i0 += ls * GPUX_SC_UNROLL) {                           \
      long k[GPUX_SC_UNROLL];                                                               \
      if (i0 + (GPUX_SC_UNROLL - 1) * ls < hi) { /* a whole run's loads without bounds */  \
        for (int u = 0; u < GPUX_SC_UNROLL; ++u) k[u] = (long)x[x_off + i0 + u * ls];       \
      } else {                                                                              \
        for (int u = 0; u < GPUX_SC_UNROLL; ++u) {                                          \
          const long i = i0 + u * ls;                                                       \
          k[u] = i < hi ? (long)x[x_off + i] : -1;                                          \
        }                                                                                   \
      }                                                                                     \
      for (int u = 0; u < GPUX_SC_UNROLL; ++u) {                                            \
        if (k[u] < 0 || k[u] >= nbins) {                                                    \
          const long i = i0 + u * ls; /* -1 pads past hi */                                 \
          if (err && i < hi) atom_max((volatile __global ulong *)err + err_off, ~(ulong)i); \
          continue;                                                                         \
        }                                                                                   \
        if (priv) atomic_inc((volatile __local uint *)h + k[u]);                            \
        else atom_inc((volatile __global ulong *)cnt + c_off + k[u]);                       \
      }                                                                                     \
    }                                                                                       \
    if (priv) {                                                                             \
      barrier(CLK_LOCAL_MEM_FENCE);                                                         \
      for (long b = li; b < nbins; b += ls) {                                               \
        const uint c = h[b];                                                                \
        if (c) atom_add((volatile __global ulong *)cnt + c_off + b, (ulong)c);              \
      }                                                                                     \
    }                                                                                       \
  }
#define GPUX_SC_BC_GEN(a_, ix) GPUX_KON_##ix(GPUX_SC_BINCOUNT, a_, ix)
GPUX_SCAT_IX(GPUX_SC_BC_GEN, _)
