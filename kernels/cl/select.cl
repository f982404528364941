#include "gpux_kernels.h"
#include "gpux_cl_prelude.h"
#include "gpux_half.h"
#include "gpux_sort.h"
#include "gpux_select.h"
/* gpux OpenCL kernels, select family (OpenCL C 1.2): searchsorted and the radix select of
 * top-k, partition, median and quantile (the algorithm and every kernel's contract:
 * kernels/common/gpux_select.h; kernels/cuda/select.cu is the same algorithm line by line).
 * Keys are read as unsigned words of their width (U), offsets in elements.
 *
 *   gpux_select_ss_<dt>(global const U *s, long s_off, long ne, global const U *q,
 *       long q_off, long n, int right, global long *out, long o_off)
 *   gpux_select_hist_<dt>(global const U *x, long x_off, long len, long gpr, int nt,
 *       int shift, uint flags, global const ulong *st, global uint *hist)
 *   gpux_select_pick(global ulong *st, global uint *hist, global const long *rk, long n,
 *       int nt, int shift, int first)
 *   gpux_select_cnt_<dt>(global const U *x, long x_off, long len, long tpr, uint flags,
 *       global const ulong *st, global long *cnt)
 *   gpux_select_scan(global long *cnt, global ulong *st, long rows, long tpr)
 *   gpux_select_emit_<dt>(global const U *x, long x_off, long len, long tpr, uint flags,
 *       global const ulong *st, global const long *cnt, int mode, long k,
 *       global U *vals, long v_off, global long *idx, long i_off, int has_v, int has_i)
 *   gpux_select_rank_<dt>(global const U *tv, global const long *ti, long rows, long k,
 *       uint flags, global U *vals, long v_off, global long *idx, long i_off)
 *   gpux_select_qfin_<dt>(global const ulong *st, global const long *rk,
 *       global const double *gam, long rows, int nq, int mode, global C *out, long o_off,
 *       long ostride)   out[o_off + q * ostride + row]
 * hist: work-groups of GPUX_SEL_THREADS, gpr groups a row (GPUX_SEL_HE keys a work-item:
 * 16 in the GPU form, 1 in the CPU form, where pocl vectorizes across work-items); cnt and
 * emit: a work-group of GPUX_SEL_THREADS per tile of GPUX_SEL_TILE keys; ss, pick, scan,
 * rank, qfin: a work-item each. */
#pragma OPENCL FP_CONTRACT OFF

#if defined(GPUX_CL_CPU) && GPUX_CL_CPU
#define GPUX_SEL_HE 1
#else
#define GPUX_SEL_HE 16
#endif
#define GPUX_SEL_MAXT 16 /* targets a hist launch takes (the front end batches) */
#define GPUX_SEL_PER (GPUX_SEL_TILE / GPUX_SEL_THREADS)

#define GPUX_SEL_U_8 uchar
#define GPUX_SEL_U_16 ushort
#define GPUX_SEL_U_32 uint
#define GPUX_SEL_U_64 ulong
#define GPUX_SEL_U2_(w) GPUX_SEL_U_##w
#define GPUX_SEL_U_(w) GPUX_SEL_U2_(w)
#define GPUX_SEL_UT(dt) GPUX_SEL_U_(GPUX_SEL_W_##dt)
#define GPUX_SEL_ALL(w) ((w) == 64 ? ~0UL : ((1UL << (w)) - 1UL))

/* a key's value from its bits, in the compute type of qfin */
#define GPUX_SEL_C_f32 float
#define GPUX_SEL_C_f16 float
#define GPUX_SEL_C_bf16 float
#define GPUX_SEL_C_f64 double
#define GPUX_SEL_C_i8 double
#define GPUX_SEL_C_i16 double
#define GPUX_SEL_C_i32 double
#define GPUX_SEL_C_i64 double
#define GPUX_SEL_C_u8 double
#define GPUX_SEL_C_b8 double
#define GPUX_SEL_C_u16 double
#define GPUX_SEL_C_u32 double
#define GPUX_SEL_C_u64 double
#define GPUX_SEL_VAL_f32(b) as_float((uint)(b))
#define GPUX_SEL_VAL_f16(b) as_float(gpux_f16_to_f32((ushort)(b)))
#define GPUX_SEL_VAL_bf16(b) as_float(gpux_bf16_to_f32((ushort)(b)))
#define GPUX_SEL_VAL_f64(b) as_double(b)
#define GPUX_SEL_VAL_i8(b) (double)(char)(b)
#define GPUX_SEL_VAL_i16(b) (double)(short)(b)
#define GPUX_SEL_VAL_i32(b) (double)(int)(b)
#define GPUX_SEL_VAL_i64(b) (double)(long)(b)
#define GPUX_SEL_VAL_u8(b) (double)(uint)(b)
#define GPUX_SEL_VAL_b8(b) (double)(uint)(b)
#define GPUX_SEL_VAL_u16(b) (double)(uint)(b)
#define GPUX_SEL_VAL_u32(b) (double)(uint)(b)
#define GPUX_SEL_VAL_u64(b) (double)(b)
#define GPUX_SEL_CLS_f32 GPUX_SO_FLOAT
#define GPUX_SEL_CLS_f64 GPUX_SO_FLOAT
#define GPUX_SEL_CLS_f16 GPUX_SO_FLOAT
#define GPUX_SEL_CLS_bf16 GPUX_SO_FLOAT
#define GPUX_SEL_CLS_i8 GPUX_SO_SIGNED
#define GPUX_SEL_CLS_i16 GPUX_SO_SIGNED
#define GPUX_SEL_CLS_i32 GPUX_SO_SIGNED
#define GPUX_SEL_CLS_i64 GPUX_SO_SIGNED
#define GPUX_SEL_CLS_u8 GPUX_SO_UNSIGNED
#define GPUX_SEL_CLS_b8 GPUX_SO_UNSIGNED
#define GPUX_SEL_CLS_u16 GPUX_SO_UNSIGNED
#define GPUX_SEL_CLS_u32 GPUX_SO_UNSIGNED
#define GPUX_SEL_CLS_u64 GPUX_SO_UNSIGNED

/* per (row, target): the digit of rank r; the state moves to the next digit */
__kernel void gpux_select_pick(__global ulong *st, __global uint *hist, __global const long *rk,
                               long n, int nt, int shift, int first) {
  const long i = get_global_id(0);
  if (i >= n) return;
  __global ulong *s = st + i * GPUX_SEL_ST;
  __global uint *h = hist + i * GPUX_SEL_BINS;
  const ulong r = first ? (ulong)rk[i % nt] : s[1];
  const ulong prefix = first ? 0UL : s[0];
  if (first) s[2] = h[256];
  ulong c = 0;
  uint d = 0;
  for (; d < 255u; d++) {
    const ulong hc = h[d];
    if (r < c + hc) break;
    c += hc;
  }
  for (int j = 0; j < GPUX_SEL_BINS; j++) h[j] = 0u;
  s[0] = prefix | ((ulong)d << shift);
  s[1] = r - c;
}

/* per row: exclusive prefix sums of the tiles' (less, equal) counts; the totals to st */
__kernel void gpux_select_scan(__global long *cnt, __global ulong *st, long rows, long tpr) {
  const long row = get_global_id(0);
  if (row >= rows) return;
  __global long *c = cnt + row * tpr * 2;
  long l = 0, e = 0;
  for (long t = 0; t < tpr; t++) {
    const long a = c[2 * t], b = c[2 * t + 1];
    c[2 * t] = l;
    c[2 * t + 1] = e;
    l += a;
    e += b;
  }
  st[row * GPUX_SEL_ST + 2] = (ulong)l;
  st[row * GPUX_SEL_ST + 3] = (ulong)e;
}

#define GPUX_SEL_KERNELS(a, dt)                                                               \
  __kernel void gpux_select_ss_##dt(__global const GPUX_SEL_UT(dt) *s, long s_off, long ne,   \
                                    __global const GPUX_SEL_UT(dt) *q, long q_off, long n,    \
                                    int right, __global long *out, long o_off) {              \
    const long i = get_global_id(0);                                                          \
    if (i >= n) return;                                                                       \
    const ulong v = GPUX_SEL_IMG_##dt((ulong)q[q_off + i], GPUX_SO_EQZ);                      \
    long lo = 0, hi = ne;                                                                     \
    while (lo < hi) {                                                                         \
      const long mid = (lo + hi) >> 1;                                                        \
      const ulong e = GPUX_SEL_IMG_##dt((ulong)s[s_off + mid], GPUX_SO_EQZ);                  \
      if (right ? e <= v : e < v) lo = mid + 1;                                               \
      else hi = mid;                                                                          \
    }                                                                                         \
    out[o_off + i] = lo;                                                                      \
  }                                                                                           \
  __kernel void gpux_select_hist_##dt(__global const GPUX_SEL_UT(dt) *x, long x_off, long len,\
                                      long gpr, int nt, int shift, uint flags,                \
                                      __global const ulong *st, __global uint *hist) {        \
    __local uint h[GPUX_SEL_MAXT * GPUX_SEL_BINS];                                            \
    __local ulong pf[GPUX_SEL_MAXT];                                                          \
    const long g = get_group_id(0);                                                           \
    const int lid = (int)get_local_id(0);                                                     \
    const long row = g / gpr, blk = g - row * gpr;                                            \
    const int w = GPUX_SEL_W_##dt, first = shift == w - 8, hs = shift + 8;                    \
    const int nanbin = GPUX_SEL_NAN_##dt && first && !(flags & GPUX_SO_DESC);                 \
    for (int i = lid; i < nt * GPUX_SEL_BINS; i += GPUX_SEL_THREADS) h[i] = 0u;               \
    if (lid < nt) pf[lid] = first ? 0UL : st[(row * nt + lid) * GPUX_SEL_ST];                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    __global const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    const long base = blk * (long)(GPUX_SEL_THREADS * GPUX_SEL_HE);                           \
    for (int e = 0; e < GPUX_SEL_HE; e++) {                                                   \
      const long i = base + e * GPUX_SEL_THREADS + lid;                                       \
      if (i < len) {                                                                          \
        const ulong k = GPUX_SEL_IMG_##dt((ulong)xr[i], flags);                               \
        const uint d = (uint)(k >> shift) & 255u;                                             \
        const int isnan = nanbin && k == GPUX_SEL_ALL(w);                                     \
        for (int t = 0; t < nt; t++) {                                                        \
          if (first || (k >> hs) == (pf[t] >> hs)) atomic_inc(&h[t * GPUX_SEL_BINS + d]);     \
          if (isnan) atomic_inc(&h[t * GPUX_SEL_BINS + 256]);                                 \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    __global uint *hr = hist + row * nt * GPUX_SEL_BINS;                                      \
    for (int i = lid; i < nt * GPUX_SEL_BINS; i += GPUX_SEL_THREADS)                          \
      if (h[i]) atomic_add(&hr[i], h[i]);                                                     \
  }                                                                                           \
  __kernel void gpux_select_cnt_##dt(__global const GPUX_SEL_UT(dt) *x, long x_off, long len, \
                                     long tpr, uint flags, __global const ulong *st,          \
                                     __global long *cnt) {                                    \
    __local uint lc[2];                                                                       \
    const long g = get_group_id(0);                                                           \
    const int lid = (int)get_local_id(0);                                                     \
    const long row = g / tpr, tile = g - row * tpr;                                           \
    if (lid == 0) lc[0] = lc[1] = 0u;                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    const ulong T = st[row * GPUX_SEL_ST];                                                    \
    __global const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    const long base = tile * GPUX_SEL_TILE + lid * GPUX_SEL_PER;                              \
    uint l = 0, e = 0;                                                                        \
    for (int j = 0; j < GPUX_SEL_PER; j++) {                                                  \
      const long i = base + j;                                                                \
      if (i < len) {                                                                          \
        const ulong k = GPUX_SEL_IMG_##dt((ulong)xr[i], flags);                               \
        l += k < T;                                                                           \
        e += k == T;                                                                          \
      }                                                                                       \
    }                                                                                         \
    if (l) atomic_add(&lc[0], l);                                                             \
    if (e) atomic_add(&lc[1], e);                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    if (lid == 0) {                                                                           \
      cnt[(row * tpr + tile) * 2] = lc[0];                                                    \
      cnt[(row * tpr + tile) * 2 + 1] = lc[1];                                                \
    }                                                                                         \
  }                                                                                           \
  __kernel void gpux_select_emit_##dt(                                                        \
      __global const GPUX_SEL_UT(dt) *x, long x_off, long len, long tpr, uint flags,          \
      __global const ulong *st, __global const long *cnt, int mode, long k,                   \
      __global GPUX_SEL_UT(dt) *vals, long v_off, __global long *idx, long i_off, int has_v,  \
      int has_i) {                                                                            \
    __local ulong sc[2][GPUX_SEL_THREADS];                                                    \
    const long g = get_group_id(0);                                                           \
    const int lid = (int)get_local_id(0);                                                     \
    const long row = g / tpr, tile = g - row * tpr;                                           \
    const ulong T = st[row * GPUX_SEL_ST];                                                    \
    const long L = (long)st[row * GPUX_SEL_ST + 2], E = (long)st[row * GPUX_SEL_ST + 3];      \
    __global const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    const long base = tile * GPUX_SEL_TILE + lid * GPUX_SEL_PER;                              \
    ulong own = 0; /* less << 32 | equal among this work-item's keys */                       \
    for (int j = 0; j < GPUX_SEL_PER; j++) {                                                  \
      const long i = base + j;                                                                \
      if (i < len) {                                                                          \
        const ulong kk = GPUX_SEL_IMG_##dt((ulong)xr[i], flags);                              \
        own += kk < T ? (1UL << 32) : kk == T ? 1UL : 0UL;                                    \
      }                                                                                       \
    }                                                                                         \
    int cur = 0;                                                                              \
    sc[0][lid] = own;                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (int off = 1; off < GPUX_SEL_THREADS; off <<= 1) {                                    \
      const ulong v = sc[cur][lid] + (lid >= off ? sc[cur][lid - off] : 0UL);                 \
      sc[cur ^ 1][lid] = v;                                                                   \
      cur ^= 1;                                                                               \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    }                                                                                         \
    const ulong ex = sc[cur][lid] - own;                                                      \
    long lb = cnt[(row * tpr + tile) * 2] + (long)(ex >> 32);                                 \
    long eb = cnt[(row * tpr + tile) * 2 + 1] + (long)(ex & 0xffffffffUL);                    \
    const long need = k - L, ostride = mode == GPUX_SEL_TOPK ? k : len;                       \
    for (int j = 0; j < GPUX_SEL_PER; j++) {                                                  \
      const long i = base + j;                                                                \
      if (i >= len) break;                                                                    \
      const GPUX_SEL_UT(dt) b = xr[i];                                                        \
      const ulong kk = GPUX_SEL_IMG_##dt((ulong)b, flags);                                    \
      long dst = -1;                                                                          \
      if (kk < T) {                                                                           \
        dst = mode == GPUX_SEL_TOPK ? lb + (eb < need ? eb : need) : lb;                      \
        lb++;                                                                                 \
      } else if (kk == T) {                                                                   \
        dst = mode == GPUX_SEL_TOPK ? (eb < need ? lb + eb : -1) : L + eb;                    \
        eb++;                                                                                 \
      } else if (mode != GPUX_SEL_TOPK) {                                                     \
        dst = L + E + (i - lb - eb);                                                          \
      }                                                                                       \
      if (dst >= 0) {                                                                         \
        if (has_v) vals[v_off + row * ostride + dst] = b;                                     \
        if (has_i) idx[i_off + row * ostride + dst] = i;                                      \
      }                                                                                       \
    }                                                                                         \
  }                                                                                           \
  __kernel void gpux_select_rank_##dt(__global const GPUX_SEL_UT(dt) *tv,                     \
                                      __global const long *ti, long rows, long k, uint flags, \
                                      __global GPUX_SEL_UT(dt) *vals, long v_off,             \
                                      __global long *idx, long i_off) {                       \
    const long g = get_global_id(0);                                                          \
    if (g >= rows * k) return;                                                                \
    const long row = g / k, j = g - row * k;                                                  \
    __global const GPUX_SEL_UT(dt) *r = tv + row * k;                                         \
    const ulong kj = GPUX_SEL_IMG_##dt((ulong)r[j], flags);                                   \
    long rank = 0;                                                                            \
    for (long i = 0; i < k; i++) {                                                            \
      const ulong ki = GPUX_SEL_IMG_##dt((ulong)r[i], flags);                                 \
      rank += ki < kj || (ki == kj && i < j);                                                 \
    }                                                                                         \
    vals[v_off + row * k + rank] = r[j];                                                      \
    idx[i_off + row * k + rank] = ti[row * k + j];                                            \
  }                                                                                           \
  GPUX_SEL_QFIN_ON_##dt(GPUX_SEL_QFIN, dt)

/* median / quantile from the two order statistics of each q (targets 2q, 2q + 1) */
#define GPUX_SEL_QFIN(dt)                                                                     \
  __kernel void gpux_select_qfin_##dt(__global const ulong *st, __global const long *rk,      \
                                      __global const double *gam, long rows, int nq,          \
                                      int mode, __global GPUX_SEL_C_##dt *out, long o_off,    \
                                      long ostride) {                                         \
    const long g = get_global_id(0);                                                          \
    if (g >= rows * nq) return;                                                               \
    const long row = g / nq;                                                                  \
    const int q = (int)(g - row * nq), nt = 2 * nq;                                           \
    __global const ulong *s = st + row * nt * GPUX_SEL_ST;                                    \
    const int w = GPUX_SEL_W_##dt, cls = GPUX_SEL_CLS_##dt;                                   \
    const GPUX_SEL_C_##dt a = GPUX_SEL_VAL_##dt(                                              \
        gpux_so_unimg(s[2 * q * GPUX_SEL_ST], w, cls, 0u, 0UL));                              \
    const GPUX_SEL_C_##dt b = GPUX_SEL_VAL_##dt(                                              \
        gpux_so_unimg(s[(2 * q + 1) * GPUX_SEL_ST], w, cls, 0u, 0UL));                        \
    GPUX_SEL_C_##dt res;                                                                      \
    if (s[2]) {                                                                               \
      res = (GPUX_SEL_C_##dt)NAN;                                                             \
    } else if (mode == GPUX_SEL_MEDIAN) {                                                     \
      res = rk[2 * q] == rk[2 * q + 1] ? a : (a + b) * (GPUX_SEL_C_##dt)0.5;                  \
    } else {                                                                                  \
      const GPUX_SEL_C_##dt t = (GPUX_SEL_C_##dt)gam[q], diff = b - a;                        \
      res = t >= (GPUX_SEL_C_##dt)0.5 ? b - diff * ((GPUX_SEL_C_##dt)1 - t) : a + diff * t;   \
    }                                                                                         \
    out[o_off + (long)q * ostride + row] = res;                                                       \
  }
#define GPUX_SEL_QFIN_ON_f32(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_f16(M, dt) M(dt)
#define GPUX_SEL_QFIN_ON_bf16(M, dt) M(dt)
#ifdef GPUX_HAVE_FP64
#define GPUX_SEL_QFIN_ON_D_(M, dt) M(dt)
#else
#define GPUX_SEL_QFIN_ON_D_(M, dt)
#endif
#define GPUX_SEL_QFIN_ON_f64(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i8(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i16(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i32(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_i64(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u8(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_b8(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u16(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u32(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)
#define GPUX_SEL_QFIN_ON_u64(M, dt) GPUX_SEL_QFIN_ON_D_(M, dt)

GPUX_SEL_DT(GPUX_SEL_KERNELS, _)
