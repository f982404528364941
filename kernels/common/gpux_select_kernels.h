/* gpux select family: the kernels, written once for both kernel sets (kernels/cl/select.cl
 * and kernels/cuda/select.cu include this after defining the dialect below), so that both
 * run the same algorithm line by line and give the same bits (the contracts:
 * gpux_select.h; the signatures: select.cl's header). Include after gpux_kernels.h,
 * gpux_half.h, gpux_sort.h and gpux_select.h.
 *
 * The dialect each kernel set defines first:
 *   GPUX_SK              a kernel's declaration prefix (void return type included)
 *   GPUX_SG, GPUX_SL     the global pointer and the local (shared) array qualifiers
 *   GPUX_SLP             a pointer parameter's qualifier for local memory (CUDA: none)
 *   GPUX_SSYNC()         the work-group barrier
 *   GPUX_SGID(), GPUX_SGRP(), GPUX_SLID()  global id, group id (int64), local id (int)
 *   GPUX_SATOM(p, v)     atomic add of an unsigned to *p (local or global); its old value
 *   GPUX_SFN             a device function's declaration prefix
 *   GPUX_SI64            int64; GPUX_SNAN_F32 / _F64: the canonical quiet NaNs, from bits
 *   GPUX_SEL_HE          keys a work-item of hist (1 in OpenCL's CPU form, else 16)
 *   GPUX_SEL_SERIAL      1: cnt and emit run a work-item per tile, a serial loop over its
 *                        keys (OpenCL's CPU form: nothing to vectorize across, no barriers);
 *                        0: a work-group of GPUX_SEL_THREADS per tile, scanned in local
 *                        memory (the GPU forms). The same counts and places either way.
 *   GPUX_SEL_C_<dt>, GPUX_SEL_VAL_<dt>(bits)  qfin's compute type and a key's value
 *   GPUX_SEL_QFIN_ON_<dt>(M, dt)  M(dt) where qfin exists for dt */
#ifndef GPUX_SELECT_KERNELS_H
#define GPUX_SELECT_KERNELS_H

#if GPUX_SEL_SERIAL
#define GPUX_SEL_WI 1 /* work-items of a tile */
#define GPUX_SEL_TL   /* the tile's shared counters: private */
#define GPUX_SEL_TSYNC()
#define GPUX_SEL_TADD(p, v) (*(p) += (v))
#define GPUX_SEL_TID() GPUX_SGID()
#define GPUX_SEL_TLID() 0
#else
#define GPUX_SEL_WI GPUX_SEL_THREADS
#define GPUX_SEL_TL GPUX_SL
#define GPUX_SEL_TSYNC() GPUX_SSYNC()
#define GPUX_SEL_TADD(p, v) GPUX_SATOM(p, v)
#define GPUX_SEL_TID() GPUX_SGRP()
#define GPUX_SEL_TLID() GPUX_SLID()
#endif
#define GPUX_SEL_PER (GPUX_SEL_TILE / GPUX_SEL_WI) /* keys a work-item of cnt / emit */
#define GPUX_SEL_U_8 GPUX_SO_U8
#define GPUX_SEL_U_16 GPUX_SO_U16
#define GPUX_SEL_U_32 GPUX_SO_U32
#define GPUX_SEL_U_64 GPUX_SO_U64
#define GPUX_SEL_U2_(w) GPUX_SEL_U_##w
#define GPUX_SEL_U_(w) GPUX_SEL_U2_(w)
#define GPUX_SEL_UT(dt) GPUX_SEL_U_(GPUX_SEL_W_##dt)
#define GPUX_SEL_ALL(w) ((w) == 64 ? ~GPUX_SO_C64(0) : ((GPUX_SO_C64(1) << (w)) - GPUX_SO_C64(1)))
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
/* qfin's NaN: the canonical quiet NaN of its compute type, from bits (a NaN from arithmetic
 * carries the device's own bits: NVIDIA's 0x7fffffff, x86's payloads) */
#define GPUX_SEL_QNAN_f32 GPUX_SNAN_F32
#define GPUX_SEL_QNAN_f16 GPUX_SNAN_F32
#define GPUX_SEL_QNAN_bf16 GPUX_SNAN_F32
#define GPUX_SEL_QNAN_f64 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_i8 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_i16 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_i32 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_i64 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_u8 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_b8 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_u16 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_u32 GPUX_SNAN_F64
#define GPUX_SEL_QNAN_u64 GPUX_SNAN_F64
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

/* kv[e] = xr[i0 + e * step] for e < cnt, the keys at or past i1 zero: the loads of a
 * whole run first and unconditional, so that all of them are in flight before the first
 * use (behind a test's branch each, they went one at a time) */
#define GPUX_SEL_LOADN(kv, cnt, xr, i0, step, i1)                                            \
  if ((i0) + (GPUX_SI64)((cnt) - 1) * (step) < (i1)) {                                       \
    for (int e_ = 0; e_ < (cnt); e_++) kv[e_] = xr[(i0) + (GPUX_SI64)e_ * (step)];           \
  } else {                                                                                   \
    for (int e_ = 0; e_ < (cnt); e_++) {                                                     \
      const GPUX_SI64 i_ = (i0) + (GPUX_SI64)e_ * (step);                                    \
      kv[e_] = i_ < (i1) ? xr[i_] : 0;                                                       \
    }                                                                                        \
  }

/* the bin of rank r in histogram h of bins 0 .. last (the last bin takes what is left): 16
 * bins a step, their loads in flight together (one at a time, pick12's walk over the empty
 * bins before the target's took 80 us on an H100), then the bin inside the step; *below:
 * the count of the bins before it */
GPUX_SFN unsigned gpux_sel_walk(GPUX_SG const unsigned *h, unsigned last, GPUX_SO_U64 r,
                                GPUX_SO_U64 *below) {
  GPUX_SO_U64 c = 0;
  unsigned d = 0;
  for (; d + 16u <= last; d += 16u) {
    GPUX_SO_U64 sum = 0;
    for (unsigned e = 0; e < 16u; e++) sum += h[d + e];
    if (r < c + sum) break;
    c += sum;
  }
  for (; d < last; d++) {
    const GPUX_SO_U64 hc = h[d];
    if (r < c + hc) break;
    c += hc;
  }
  *below = c;
  return d;
}

/* per (row, target): the digit of rank r; the state moves to the next digit */
GPUX_SK gpux_select_pick(GPUX_SG GPUX_SO_U64 *st, GPUX_SG unsigned *hist,
                         GPUX_SG const GPUX_SI64 *rk, GPUX_SI64 n, int nt, int shift, int first) {
  const GPUX_SI64 i = GPUX_SGID();
  if (i >= n) return;
  GPUX_SG GPUX_SO_U64 *s = st + i * GPUX_SEL_ST;
  GPUX_SG unsigned *h = hist + i * GPUX_SEL_BINS;
  const GPUX_SO_U64 r = first ? (GPUX_SO_U64)rk[i % nt] : s[1];
  const GPUX_SO_U64 prefix = first ? GPUX_SO_C64(0) : s[0];
  if (first) s[2] = h[256];
  GPUX_SO_U64 c;
  const unsigned d = gpux_sel_walk(h, 255u, r, &c);
  for (int j = 0; j < GPUX_SEL_BINS; j++) h[j] = 0u;
  s[0] = prefix | ((GPUX_SO_U64)d << shift);
  s[1] = r - c;
}

/* per row: exclusive prefix sums of the tiles' (less, equal) counts; the totals to st.
 * Serial form: a work-item per row. Else a work-group per row: each work-item sums a run
 * of tiles, one scans the work-group's sums, each rewrites its run (a row of 2^28 keys has
 * 2^16 tiles: one work-item alone took 9.4 ms of an H100's 13.4 ms top-100). */
#if GPUX_SEL_SERIAL
GPUX_SK gpux_select_scan(GPUX_SG GPUX_SI64 *cnt, GPUX_SG GPUX_SO_U64 *st, GPUX_SI64 rows,
                         GPUX_SI64 tpr) {
  const GPUX_SI64 row = GPUX_SGID();
  if (row >= rows) return;
  GPUX_SG GPUX_SI64 *c = cnt + row * tpr * 2;
  GPUX_SI64 l = 0, e = 0;
  for (GPUX_SI64 t = 0; t < tpr; t++) {
    const GPUX_SI64 a = c[2 * t], b = c[2 * t + 1];
    c[2 * t] = l;
    c[2 * t + 1] = e;
    l += a;
    e += b;
  }
  st[row * GPUX_SEL_ST + 2] = (GPUX_SO_U64)l;
  st[row * GPUX_SEL_ST + 3] = (GPUX_SO_U64)e;
}
#else
GPUX_SK gpux_select_scan(GPUX_SG GPUX_SI64 *cnt, GPUX_SG GPUX_SO_U64 *st, GPUX_SI64 rows,
                         GPUX_SI64 tpr) {
  GPUX_SL GPUX_SI64 sl[GPUX_SEL_THREADS], se[GPUX_SEL_THREADS];
  const GPUX_SI64 row = GPUX_SGRP();
  const int lid = GPUX_SLID();
  if (row >= rows) return; /* the whole work-group */
  GPUX_SG GPUX_SI64 *c = cnt + row * tpr * 2;
  const GPUX_SI64 per = (tpr + GPUX_SEL_THREADS - 1) / GPUX_SEL_THREADS;
  const GPUX_SI64 t0 = lid * per, t1 = t0 + per < tpr ? t0 + per : tpr;
  GPUX_SI64 l = 0, e = 0;
  for (GPUX_SI64 t = t0; t < t1; t++) {
    l += c[2 * t];
    e += c[2 * t + 1];
  }
  sl[lid] = l;
  se[lid] = e;
  GPUX_SSYNC();
  if (lid == 0) {
    GPUX_SI64 a = 0, b = 0;
    for (int i = 0; i < GPUX_SEL_THREADS; i++) {
      const GPUX_SI64 x = sl[i], y = se[i];
      sl[i] = a;
      se[i] = b;
      a += x;
      b += y;
    }
    st[row * GPUX_SEL_ST + 2] = (GPUX_SO_U64)a;
    st[row * GPUX_SEL_ST + 3] = (GPUX_SO_U64)b;
  }
  GPUX_SSYNC();
  l = sl[lid];
  e = se[lid];
  for (GPUX_SI64 t = t0; t < t1; t++) {
    const GPUX_SI64 a = c[2 * t], b = c[2 * t + 1];
    c[2 * t] = l;
    c[2 * t + 1] = e;
    l += a;
    e += b;
  }
}
#endif

/* ---- the candidate path of top-k (gpux_select.h "TWO READS") */

/* per row: the 12-bit prefix P of rank r (the digit where the running count of hist12's
 * bins passes r) and c, the keys whose prefix is <= P, to pc[row] = {P, c} */
GPUX_SK gpux_select_pick12(GPUX_SG const unsigned *hist, GPUX_SI64 r, GPUX_SG GPUX_SO_U64 *pc,
                           GPUX_SI64 rows) {
  const GPUX_SI64 i = GPUX_SGID();
  if (i >= rows) return;
  GPUX_SG const unsigned *h = hist + i * GPUX_SEL_B12;
  GPUX_SO_U64 c;
  const unsigned d = gpux_sel_walk(h, 4095u, (GPUX_SO_U64)r, &c);
  pc[2 * i] = d;
  pc[2 * i + 1] = c + h[d];
}

/* idx[i] (a position in a row's candidates) -> cpos[idx[i]] (its position in x) */
GPUX_SK gpux_select_map(GPUX_SG GPUX_SI64 *idx, GPUX_SI64 i_off, GPUX_SG const GPUX_SI64 *cpos,
                        GPUX_SI64 c_off, GPUX_SI64 n) {
  const GPUX_SI64 i = GPUX_SGID();
  if (i >= n) return;
  idx[i_off + i] = cpos[c_off + idx[i_off + i]];
}

/* per h12 group g (row g / gpr): gc[g] = its keys whose 12-bit prefix is <= the row's P,
 * from its histogram hb[g] (h12's): the candidates it holds. GPU forms: a work-group per
 * group, a tree sum in local memory; CPU form: a work-item per group. */
GPUX_SK gpux_select_gcnt(GPUX_SG const unsigned *hb, GPUX_SG const GPUX_SO_U64 *pc,
                         GPUX_SG unsigned *gc, GPUX_SI64 gpr, GPUX_SI64 rows) {
#if GPUX_SEL_SERIAL
  const GPUX_SI64 g = GPUX_SGID();
  if (g >= rows * gpr) return;
  const unsigned P = (unsigned)pc[2 * (g / gpr)];
  GPUX_SG const unsigned *h = hb + g * GPUX_SEL_B12;
  unsigned c = 0u;
  for (unsigned d = 0; d <= P; d++) c += h[d];
  gc[g] = c;
#else
  GPUX_SL unsigned red[GPUX_SEL_THREADS];
  const GPUX_SI64 g = GPUX_SGRP();
  const int lid = GPUX_SLID();
  const unsigned P = (unsigned)pc[2 * (g / gpr)];
  GPUX_SG const unsigned *h = hb + g * GPUX_SEL_B12;
  unsigned c = 0u;
  for (unsigned d = (unsigned)lid; d <= P; d += GPUX_SEL_THREADS) c += h[d];
  red[lid] = c;
  GPUX_SSYNC();
  for (int off = GPUX_SEL_THREADS / 2; off > 0; off >>= 1) {
    if (lid < off) red[lid] += red[lid + off];
    GPUX_SSYNC();
  }
  if (lid == 0) gc[g] = red[0];
#endif
}

/* the work-group's inclusive scan of one count a work-item (v, work-item lid of
 * GPUX_SEL_THREADS), Hillis-Steele in sc (2 x GPUX_SEL_THREADS words, a barrier a step);
 * *tot: the work-group's sum. The caller's next barrier protects sc. */
GPUX_SFN unsigned gpux_sel_wscan(GPUX_SLP unsigned *sc, int lid, unsigned v, unsigned *tot) {
  int cur = 0;
  sc[lid] = v;
  GPUX_SSYNC();
  for (int off = 1; off < GPUX_SEL_THREADS; off <<= 1) {
    GPUX_SLP unsigned *a = sc + cur * GPUX_SEL_THREADS, *b = sc + (cur ^ 1) * GPUX_SEL_THREADS;
    b[lid] = a[lid] + (lid >= off ? a[lid - off] : 0u);
    cur ^= 1;
    GPUX_SSYNC();
  }
  *tot = sc[cur * GPUX_SEL_THREADS + GPUX_SEL_THREADS - 1];
  return sc[cur * GPUX_SEL_THREADS + lid];
}

/* gather, per dtype: the two forms (gpux_select.h's contract). A key is a candidate when its
 * image >> s12 (the top 12 bits after h12, the whole image after filt) is <= its row's P.
 * Group g of a row (h12's: keys [b hk, (b + 1) hk), b = g % gpr) writes its candidates in
 * order from the candidates of the row's earlier groups (the sum of their gc): no group
 * waits for another. Nothing is written past a row's cstride places (the counts and gather
 * agree; the bound keeps a broken count from writing over other buffers). */
#define GPUX_SEL_CAND_(dt, k, s12, P) ((GPUX_SEL_IMG_##dt((GPUX_SO_U64)(k), flags) >> (s12)) <= (P))
/* h12's shift: the top 12 bits of an image (the front end passes gather the same) */
#define GPUX_SEL_S12(dt) (GPUX_SEL_W_##dt > 12 ? GPUX_SEL_W_##dt - 12 : 0)
#define GPUX_SEL_GATHER_ARGS(dt)                                                             \
  GPUX_SG const GPUX_SEL_UT(dt) * x, GPUX_SI64 x_off, GPUX_SI64 len, GPUX_SI64 gpr,          \
      GPUX_SI64 hk, unsigned flags, GPUX_SG const GPUX_SO_U64 *pc, GPUX_SI64 pcs, int s12,   \
      GPUX_SG const unsigned *gc, GPUX_SG const unsigned *cb, GPUX_SI64 capg,                \
      GPUX_SG GPUX_SEL_UT(dt) * cand, GPUX_SG GPUX_SI64 *cpos, GPUX_SI64 cstride,            \
      GPUX_SI64 rows
#if GPUX_SEL_SERIAL
/* CPU form: a work-item per group: its start, then its candidates in order (filt's list, or
 * its keys) */
#define GPUX_SEL_GATHER(dt)                                                                  \
  GPUX_SK gpux_select_gather_##dt(GPUX_SEL_GATHER_ARGS(dt)) {                                \
    const GPUX_SI64 g = GPUX_SGID();                                                         \
    if (g >= rows * gpr) return;                                                             \
    const GPUX_SI64 row = g / gpr, b = g - row * gpr;                                        \
    const GPUX_SO_U64 P = pc[pcs * row];                                                     \
    GPUX_SI64 o = 0;                                                                         \
    for (GPUX_SI64 e = row * gpr; e < g; e++) o += gc[e];                                    \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    if (capg && (GPUX_SI64)gc[g] <= capg) {                                                  \
      for (GPUX_SI64 j = 0; j < (GPUX_SI64)gc[g] && o < cstride; j++) {                      \
        const GPUX_SI64 i = (GPUX_SI64)cb[g * capg + j];                                     \
        cand[row * cstride + o] = xr[i];                                                     \
        cpos[row * cstride + o++] = i;                                                       \
      }                                                                                      \
      return;                                                                                \
    }                                                                                        \
    const GPUX_SI64 i1 = len - b * hk < hk ? len : (b + 1) * hk;                             \
    for (GPUX_SI64 i = b * hk; i < i1 && o < cstride; i++) {                                 \
      const GPUX_SEL_UT(dt) k = xr[i];                                                       \
      if (GPUX_SEL_CAND_(dt, k, s12, P)) {                                                   \
        cand[row * cstride + o] = k;                                                         \
        cpos[row * cstride + o++] = i;                                                       \
      }                                                                                      \
    }                                                                                        \
  }
#else
/* gather's and filt's ranking of a tile's flags fl (0 / 1 a key, written before a barrier):
 * work-item lid counts its run of PER keys (lid PER ..), the work-group scans the runs'
 * counts (gpux_sel_wscan); returns the flags before lid's run, *tot the tile's. */
GPUX_SFN unsigned gpux_sel_runs(GPUX_SLP const unsigned char *fl, GPUX_SLP unsigned *sc, int lid,
                                unsigned *tot) {
  unsigned own = 0u;
  for (int j = 0; j < GPUX_SEL_PER; j++) own += fl[lid * GPUX_SEL_PER + j];
  return gpux_sel_wscan(sc, lid, own, tot) - own;
}
/* GPU form: a work-group per group. Its start: the earlier groups' gc, summed by the
 * work-items in a tree. Then its tiles of GPUX_SEL_TILE keys in order: work-item j reads
 * keys e * THREADS + j (coalesced) and flags the candidates in local memory; it counts the
 * flags of keys j * PER .. + PER (a run in position order), the work-group scans the runs'
 * counts, and j lists its run's candidates (their tile indices) at its run's start in
 * sidx; then the tile's candidates go out with consecutive work-items on consecutive places
 * (key reread: the tile is in cache), and the next tile starts after them. */
#define GPUX_SEL_GATHER(dt)                                                                  \
  GPUX_SK gpux_select_gather_##dt(GPUX_SEL_GATHER_ARGS(dt)) {                                \
    GPUX_SL unsigned char fl[GPUX_SEL_TILE];                                                 \
    GPUX_SL unsigned short sidx[GPUX_SEL_TILE];                                              \
    GPUX_SL unsigned sc[2][GPUX_SEL_THREADS];                                                \
    const int lid = GPUX_SLID();                                                             \
    const GPUX_SI64 g = GPUX_SGRP(), row = g / gpr, b = g - row * gpr;                       \
    const GPUX_SO_U64 P = pc[pcs * row];                                                     \
    unsigned st = 0u;                                                                        \
    for (GPUX_SI64 e = row * gpr + lid; e < g; e += GPUX_SEL_THREADS) st += gc[e];           \
    sc[0][lid] = st;                                                                         \
    GPUX_SSYNC();                                                                            \
    for (int off = GPUX_SEL_THREADS / 2; off > 0; off >>= 1) {                               \
      if (lid < off) sc[0][lid] += sc[0][lid + off];                                         \
      GPUX_SSYNC();                                                                          \
    }                                                                                        \
    GPUX_SI64 o = (GPUX_SI64)sc[0][0];                                                       \
    GPUX_SSYNC();                                                                            \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    const GPUX_SI64 gn = (GPUX_SI64)gc[g];                                                   \
    if (capg && gn <= capg) { /* filt's list: the keys are not read again */                 \
      for (GPUX_SI64 r = lid; r < gn && o + r < cstride; r += GPUX_SEL_THREADS) {            \
        const GPUX_SI64 i = (GPUX_SI64)cb[g * capg + r];                                     \
        cand[row * cstride + o + r] = xr[i];                                                 \
        cpos[row * cstride + o + r] = i;                                                     \
      }                                                                                      \
      return;                                                                                \
    }                                                                                        \
    const GPUX_SI64 i1 = len - b * hk < hk ? len : (b + 1) * hk;                             \
    for (GPUX_SI64 i0 = b * hk; i0 < i1; i0 += GPUX_SEL_TILE) {                              \
      const GPUX_SI64 n = i1 - i0 < GPUX_SEL_TILE ? i1 - i0 : GPUX_SEL_TILE;                 \
      for (int e = 0; e < GPUX_SEL_PER; e++) {                                               \
        const int li = e * GPUX_SEL_THREADS + lid;                                           \
        fl[li] = (unsigned char)(li < n && GPUX_SEL_CAND_(dt, xr[i0 + li], s12, P));         \
      }                                                                                      \
      GPUX_SSYNC();                                                                          \
      unsigned tcu;                                                                          \
      unsigned q = gpux_sel_runs(fl, &sc[0][0], lid, &tcu);                                  \
      for (int j = 0; j < GPUX_SEL_PER; j++)                                                 \
        if (fl[lid * GPUX_SEL_PER + j]) sidx[q++] = (unsigned short)(lid * GPUX_SEL_PER + j); \
      const int tc = (int)tcu;                                                               \
      GPUX_SSYNC();                                                                          \
      for (int r = lid; r < tc && o + r < cstride; r += GPUX_SEL_THREADS) {                  \
        const GPUX_SI64 i = i0 + sidx[r];                                                    \
        cand[row * cstride + o + r] = xr[i];                                                 \
        cpos[row * cstride + o + r] = i;                                                     \
      }                                                                                      \
      o += tc;                                                                               \
      GPUX_SSYNC();                                                                          \
    }                                                                                        \
  }
#endif

/* ---- ONE READ (gpux_select.h): the sample's bound and the filter */

/* ssel: a work-group per row takes its sample (key j at j * s + (a hash of j) mod s, s =
 * len / ns; the hash, 32-bit multiplies, the same on every backend, keeps the places off any
 * period of the data) as images in local memory (32-bit words for keys of up to 32 bits, ns
 * <= GPUX_SEL_SNS(dt), GPUX_SEL_SNS(dt) / GPUX_SEL_THREADS a work-item, loaded together)
 * and selects the image of rank r there (r >= ns: all ones, no bound): a pass an 8-bit
 * digit from the top, a local histogram of the keys that share the prefix found so far,
 * scanned by the work-group (work-item d holds digit d), the digit whose run holds r taken.
 * T -> st[row * GPUX_SEL_ST]. */
#define GPUX_SEL_IW_8 32
#define GPUX_SEL_IW_16 32
#define GPUX_SEL_IW_32 32
#define GPUX_SEL_IW_64 64
#define GPUX_SEL_IW2_(w) GPUX_SEL_IW_##w
#define GPUX_SEL_IW_(w) GPUX_SEL_IW2_(w)
#define GPUX_SEL_IT(dt) GPUX_SEL_U_(GPUX_SEL_IW_(GPUX_SEL_W_##dt)) /* the sample's word */
#define GPUX_SEL_SSEL(dt)                                                                    \
  GPUX_SK gpux_select_ssel_##dt(GPUX_SG const GPUX_SEL_UT(dt) * x, GPUX_SI64 x_off,          \
                                GPUX_SI64 len, GPUX_SI64 ns, GPUX_SI64 r, unsigned flags,    \
                                GPUX_SG GPUX_SO_U64 *st, GPUX_SI64 rows) {                   \
    GPUX_SL GPUX_SEL_IT(dt) im[GPUX_SEL_SNS(dt)];                                            \
    GPUX_SL unsigned h[2][GPUX_SEL_THREADS];                                                 \
    GPUX_SL GPUX_SO_U64 pr[2];                                                               \
    const GPUX_SI64 row = GPUX_SGRP();                                                       \
    const int lid = GPUX_SLID(), w = GPUX_SEL_W_##dt;                                        \
    if (row >= rows) return; /* the whole work-group */                                      \
    if (r >= ns) { /* past the sample: no bound */                                           \
      if (lid == 0) st[row * GPUX_SEL_ST] = ~GPUX_SO_C64(0);                                 \
      return;                                                                                \
    }                                                                                        \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    const GPUX_SI64 s = len / ns;                                                            \
    GPUX_SEL_UT(dt) kv[GPUX_SEL_SNS(dt) / GPUX_SEL_THREADS];                                 \
    for (int e = 0; e < GPUX_SEL_SNS(dt) / GPUX_SEL_THREADS; e++) {                          \
      const GPUX_SI64 j = e * GPUX_SEL_THREADS + lid;                                        \
      unsigned hh = (unsigned)j * 0x9e3779b9u;                                               \
      hh ^= hh >> 16;                                                                        \
      hh *= 0x85ebca6bu;                                                                     \
      hh ^= hh >> 13;                                                                        \
      kv[e] = j < ns ? xr[j * s + (GPUX_SI64)((GPUX_SO_U64)hh % (GPUX_SO_U64)s)]             \
                     : (GPUX_SEL_UT(dt))0;                                                   \
    }                                                                                        \
    for (int e = 0; e < GPUX_SEL_SNS(dt) / GPUX_SEL_THREADS; e++)                            \
      im[e * GPUX_SEL_THREADS + lid] =                                                       \
          (GPUX_SEL_IT(dt))GPUX_SEL_IMG_##dt((GPUX_SO_U64)kv[e], flags);                     \
    GPUX_SO_U64 prefix = 0, rr = (GPUX_SO_U64)r;                                             \
    for (int sh = w - 8; sh >= 0; sh -= 8) {                                                 \
      h[0][lid] = 0u;                                                                        \
      GPUX_SSYNC();                                                                          \
      for (GPUX_SI64 j = lid; j < ns; j += GPUX_SEL_THREADS) {                               \
        const GPUX_SO_U64 v = (GPUX_SO_U64)im[j];                                            \
        if (sh + 8 == w || (v >> (sh + 8)) == (prefix >> (sh + 8)))                          \
          GPUX_SATOM(&h[0][(int)((v >> sh) & 255u)], 1u);                                    \
      }                                                                                      \
      GPUX_SSYNC();                                                                          \
      const unsigned cnt = h[0][lid];                                                        \
      unsigned all;                                                                          \
      const GPUX_SO_U64 incl = gpux_sel_wscan(&h[0][0], lid, cnt, &all), excl = incl - cnt;  \
      if (rr >= excl && rr < incl) { /* one digit's run holds rank rr */                     \
        pr[0] = prefix | ((GPUX_SO_U64)lid << sh);                                           \
        pr[1] = rr - excl;                                                                   \
      }                                                                                      \
      GPUX_SSYNC();                                                                          \
      prefix = pr[0];                                                                        \
      rr = pr[1];                                                                            \
      GPUX_SSYNC(); /* pr and h reused by the next pass */                                   \
    }                                                                                        \
    if (lid == 0) st[row * GPUX_SEL_ST] = prefix;                                            \
  }

/* filt: groups as h12's (gpr a row, hk keys each); T = st[row * GPUX_SEL_ST] (the sample's
 * image); capg: cb's words a group (0: none listed). */
#define GPUX_SEL_FILT_ARGS(dt)                                                               \
  GPUX_SG const GPUX_SEL_UT(dt) * x, GPUX_SI64 x_off, GPUX_SI64 len, GPUX_SI64 gpr,          \
      GPUX_SI64 hk, unsigned flags, GPUX_SG const GPUX_SO_U64 *st, GPUX_SG unsigned *cb,     \
      GPUX_SI64 capg, GPUX_SG unsigned *gc, GPUX_SG unsigned *tot, GPUX_SI64 rows
#if GPUX_SEL_SERIAL
/* CPU form: a work-item per group, a serial loop */
#define GPUX_SEL_FILT(dt)                                                                    \
  GPUX_SK gpux_select_filt_##dt(GPUX_SEL_FILT_ARGS(dt)) {                                    \
    const GPUX_SI64 g = GPUX_SGID();                                                         \
    if (g >= rows * gpr) return;                                                             \
    const GPUX_SI64 row = g / gpr, b = g - row * gpr;                                        \
    const GPUX_SO_U64 T = st[row * GPUX_SEL_ST];                                             \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    const GPUX_SI64 i1 = len - b * hk < hk ? len : (b + 1) * hk;                             \
    GPUX_SI64 o = 0;                                                                         \
    for (GPUX_SI64 i = b * hk; i < i1; i++)                                                  \
      if (GPUX_SEL_CAND_(dt, xr[i], 0, T)) { /* gather's test, the whole image */            \
        if (o < capg) cb[g * capg + o] = (unsigned)i;                                        \
        o++;                                                                                 \
      }                                                                                      \
    gc[g] = (unsigned)o;                                                                     \
    if (o) GPUX_SATOM(&tot[row], (unsigned)o);                                               \
  }
#else
/* GPU form: a work-group per group, its tiles of GPUX_SEL_TILE keys in order; work-item j
 * reads keys e * THREADS + j (coalesced) and keeps their flags as bits of m. A tile's count:
 * local atomics into one of three words (tn[t mod 3]; the word of tile t + 2 is zeroed
 * after tile t's barrier, when every work-item has read it in tile t - 1): one barrier a
 * tile. Only while fewer than capg are listed, a tile with candidates ranks them as gather
 * does (gpux_sel_runs) and lists their positions. */
#define GPUX_SEL_FILT(dt)                                                                    \
  GPUX_SK gpux_select_filt_##dt(GPUX_SEL_FILT_ARGS(dt)) {                                    \
    GPUX_SL unsigned char fl[GPUX_SEL_TILE];                                                 \
    GPUX_SL unsigned sc[2][GPUX_SEL_THREADS];                                                \
    GPUX_SL unsigned tn[3];                                                                  \
    const int lid = GPUX_SLID();                                                             \
    const GPUX_SI64 g = GPUX_SGRP(), row = g / gpr, b = g - row * gpr;                       \
    const GPUX_SO_U64 T = st[row * GPUX_SEL_ST];                                             \
    if (lid < 3) tn[lid] = 0u;                                                               \
    GPUX_SSYNC();                                                                            \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                               \
    GPUX_SG unsigned *cg = cb + g * capg;                                                    \
    const GPUX_SI64 i1 = len - b * hk < hk ? len : (b + 1) * hk;                             \
    GPUX_SI64 o = 0;                                                                         \
    int t3 = 0;                                                                              \
    for (GPUX_SI64 i0 = b * hk; i0 < i1; i0 += GPUX_SEL_TILE) {                              \
      const GPUX_SI64 n = i1 - i0 < GPUX_SEL_TILE ? i1 - i0 : GPUX_SEL_TILE;                 \
      /* every load in flight before the first test (a test's branch between loads kept      \
       * them one at a time: 1.7 TB/s on an H200) */                                         \
      GPUX_SEL_UT(dt) kv[GPUX_SEL_PER];                                                      \
      GPUX_SEL_LOADN(kv, GPUX_SEL_PER, xr, i0 + lid, GPUX_SEL_THREADS, i1)                   \
      unsigned m = 0u, own = 0u;                                                             \
      for (int e = 0; e < GPUX_SEL_PER; e++) {                                               \
        const unsigned f =                                                                   \
            (unsigned)(e * GPUX_SEL_THREADS + lid < n && GPUX_SEL_CAND_(dt, kv[e], 0, T));   \
        m |= f << e;                                                                         \
        own += f;                                                                            \
      }                                                                                      \
      if (own) GPUX_SATOM(&tn[t3], own);                                                     \
      GPUX_SSYNC();                                                                          \
      const unsigned tc = tn[t3];                                                            \
      if (lid == 0) tn[t3 == 0 ? 2 : t3 - 1] = 0u;                                           \
      if (tc && o < capg) {                                                                  \
        for (int e = 0; e < GPUX_SEL_PER; e++)                                               \
          fl[e * GPUX_SEL_THREADS + lid] = (unsigned char)((m >> e) & 1u);                   \
        GPUX_SSYNC();                                                                        \
        unsigned all;                                                                        \
        GPUX_SI64 q = o + (GPUX_SI64)gpux_sel_runs(fl, &sc[0][0], lid, &all);                \
        for (int j = 0; j < GPUX_SEL_PER; j++)                                               \
          if (fl[lid * GPUX_SEL_PER + j]) {                                                  \
            if (q < capg) cg[q] = (unsigned)(i0 + lid * GPUX_SEL_PER + j);                   \
            q++;                                                                             \
          }                                                                                  \
        GPUX_SSYNC();                                                                        \
      }                                                                                      \
      o += tc;                                                                               \
      t3 = t3 == 2 ? 0 : t3 + 1;                                                             \
    }                                                                                        \
    if (lid == 0) {                                                                          \
      gc[g] = (unsigned)o;                                                                   \
      if (o) GPUX_SATOM(&tot[row], (unsigned)o);                                             \
    }                                                                                        \
  }
#endif

#define GPUX_SEL_KERNELS(a, dt)                                                                    \
  GPUX_SK gpux_select_ss_##dt(GPUX_SG const GPUX_SEL_UT(dt) * s, GPUX_SI64 s_off, GPUX_SI64 ne,    \
                              GPUX_SG const GPUX_SEL_UT(dt) * q, GPUX_SI64 q_off, GPUX_SI64 n,     \
                              int right, GPUX_SG GPUX_SI64 *out, GPUX_SI64 o_off) {                \
    const GPUX_SI64 i = GPUX_SGID();                                                               \
    if (i >= n) return;                                                                            \
    const GPUX_SO_U64 v = GPUX_SEL_IMG_##dt((GPUX_SO_U64)q[q_off + i], GPUX_SO_EQZ);               \
    GPUX_SI64 lo = 0, hi = ne;                                                                     \
    while (lo < hi) {                                                                              \
      const GPUX_SI64 mid = (lo + hi) >> 1;                                                        \
      const GPUX_SO_U64 e = GPUX_SEL_IMG_##dt((GPUX_SO_U64)s[s_off + mid], GPUX_SO_EQZ);           \
      if (right ? e <= v : e < v)                                                                  \
        lo = mid + 1;                                                                              \
      else                                                                                         \
        hi = mid;                                                                                  \
    }                                                                                              \
    out[o_off + i] = lo;                                                                           \
  }                                                                                                \
  GPUX_SK gpux_select_hist_##dt(GPUX_SG const GPUX_SEL_UT(dt) * x, GPUX_SI64 x_off, GPUX_SI64 len, \
                                GPUX_SI64 gpr, int nt, int shift, unsigned flags,                  \
                                GPUX_SG const GPUX_SO_U64 *st, GPUX_SG unsigned *hist) {           \
    GPUX_SL unsigned h[GPUX_SEL_MAXT * GPUX_SEL_BINS];                                             \
    GPUX_SL GPUX_SO_U64 pf[GPUX_SEL_MAXT];                                                         \
    const GPUX_SI64 g = GPUX_SGRP();                                                               \
    const int lid = GPUX_SLID();                                                                   \
    const GPUX_SI64 row = g / gpr, blk = g - row * gpr;                                            \
    const int w = GPUX_SEL_W_##dt, first = shift == w - 8, hs = shift + 8;                         \
    const int nanbin = GPUX_SEL_NAN_##dt && first && !(flags & GPUX_SO_DESC);                      \
    for (int i = lid; i < nt * GPUX_SEL_BINS; i += GPUX_SEL_THREADS) h[i] = 0u;                    \
    if (lid < nt) pf[lid] = first ? GPUX_SO_C64(0) : st[(row * nt + lid) * GPUX_SEL_ST];           \
    GPUX_SSYNC();                                                                                  \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                                     \
    const GPUX_SI64 base = blk * (GPUX_SI64)(GPUX_SEL_THREADS * GPUX_SEL_HE);                      \
    GPUX_SEL_UT(dt) kv[GPUX_SEL_HE];                                                               \
    GPUX_SEL_LOADN(kv, GPUX_SEL_HE, xr, base + lid, GPUX_SEL_THREADS, len)                         \
    if (first) {                                                                                   \
      /* the top digit: the same counts for every target, into target 0's; a run of equal      \
       * digits (the top byte of real data mostly is) is one atomic, not one a key */          \
      unsigned last = 0u, run = 0u, nn = 0u;                                                       \
      for (int e = 0; e < GPUX_SEL_HE; e++) {                                                      \
        const GPUX_SI64 i = base + e * GPUX_SEL_THREADS + lid;                                     \
        if (i < len) {                                                                             \
          const GPUX_SO_U64 k = GPUX_SEL_IMG_##dt((GPUX_SO_U64)kv[e], flags);                      \
          const unsigned d = (unsigned)(k >> shift) & 255u;                                        \
          if (run && d != last) {                                                                  \
            GPUX_SATOM(&h[last], run);                                                             \
            run = 0u;                                                                              \
          }                                                                                        \
          last = d;                                                                                \
          run++;                                                                                   \
          nn += nanbin && k == GPUX_SEL_ALL(w);                                                    \
        }                                                                                          \
      }                                                                                            \
      if (run) GPUX_SATOM(&h[last], run);                                                          \
      if (nn) GPUX_SATOM(&h[256], nn);                                                             \
    } else {                                                                                       \
      for (int e = 0; e < GPUX_SEL_HE; e++) {                                                      \
        const GPUX_SI64 i = base + e * GPUX_SEL_THREADS + lid;                                     \
        if (i < len) {                                                                             \
          const GPUX_SO_U64 k = GPUX_SEL_IMG_##dt((GPUX_SO_U64)kv[e], flags);                      \
          const unsigned d = (unsigned)(k >> shift) & 255u;                                        \
          for (int t = 0; t < nt; t++)                                                             \
            if ((k >> hs) == (pf[t] >> hs)) GPUX_SATOM(&h[t * GPUX_SEL_BINS + d], 1u);             \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    GPUX_SSYNC();                                                                                  \
    GPUX_SG unsigned *hr = hist + row * nt * GPUX_SEL_BINS;                                        \
    for (int i = lid; i < nt * GPUX_SEL_BINS; i += GPUX_SEL_THREADS) {                             \
      const unsigned c = h[first ? i % GPUX_SEL_BINS : i];                                         \
      if (c) GPUX_SATOM(&hr[i], c);                                                                \
    }                                                                                              \
  }                                                                                                \
  GPUX_SK gpux_select_cnt_##dt(GPUX_SG const GPUX_SEL_UT(dt) * x, GPUX_SI64 x_off, GPUX_SI64 len,  \
                               GPUX_SI64 tpr, unsigned flags, GPUX_SG const GPUX_SO_U64 *st,       \
                               GPUX_SG GPUX_SI64 *cnt, GPUX_SI64 rows) {                           \
    GPUX_SEL_TL unsigned lc[2];                                                                    \
    const GPUX_SI64 g = GPUX_SEL_TID();                                                            \
    const int lid = GPUX_SEL_TLID();                                                               \
    if (GPUX_SEL_SERIAL && g >= rows * tpr) return;                                                \
    const GPUX_SI64 row = g / tpr, tile = g - row * tpr;                                           \
    if (lid == 0) lc[0] = lc[1] = 0u;                                                              \
    GPUX_SEL_TSYNC();                                                                              \
    const GPUX_SO_U64 T = st[row * GPUX_SEL_ST];                                                   \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                                     \
    const GPUX_SI64 base = tile * GPUX_SEL_TILE + lid * GPUX_SEL_PER;                              \
    unsigned l = 0, e = 0;                                                                         \
    for (int j = 0; j < GPUX_SEL_PER; j++) {                                                       \
      const GPUX_SI64 i = base + j;                                                                \
      if (i < len) {                                                                               \
        const GPUX_SO_U64 k = GPUX_SEL_IMG_##dt((GPUX_SO_U64)xr[i], flags);                        \
        l += k < T;                                                                                \
        e += k == T;                                                                               \
      }                                                                                            \
    }                                                                                              \
    if (l) GPUX_SEL_TADD(&lc[0], l);                                                               \
    if (e) GPUX_SEL_TADD(&lc[1], e);                                                               \
    GPUX_SEL_TSYNC();                                                                              \
    if (lid == 0) {                                                                                \
      cnt[(row * tpr + tile) * 2] = lc[0];                                                         \
      cnt[(row * tpr + tile) * 2 + 1] = lc[1];                                                     \
    }                                                                                              \
  }                                                                                                \
  GPUX_SK gpux_select_emit_##dt(                                                                   \
      GPUX_SG const GPUX_SEL_UT(dt) * x, GPUX_SI64 x_off, GPUX_SI64 len, GPUX_SI64 tpr,            \
      unsigned flags, GPUX_SG const GPUX_SO_U64 *st, GPUX_SG const GPUX_SI64 *cnt, int mode,       \
      GPUX_SI64 k, GPUX_SG GPUX_SEL_UT(dt) * vals, GPUX_SI64 v_off, GPUX_SG GPUX_SI64 * idx,       \
      GPUX_SI64 i_off, int has_v, int has_i, GPUX_SI64 rows) {                                     \
    GPUX_SEL_TL GPUX_SO_U64 sc[2][GPUX_SEL_WI];                                                    \
    const GPUX_SI64 g = GPUX_SEL_TID();                                                            \
    const int lid = GPUX_SEL_TLID();                                                               \
    if (GPUX_SEL_SERIAL && g >= rows * tpr) return;                                                \
    const GPUX_SI64 row = g / tpr, tile = g - row * tpr;                                           \
    const GPUX_SO_U64 T = st[row * GPUX_SEL_ST];                                                   \
    const GPUX_SI64 L = (GPUX_SI64)st[row * GPUX_SEL_ST + 2],                                      \
                    E = (GPUX_SI64)st[row * GPUX_SEL_ST + 3];                                      \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                                     \
    const GPUX_SI64 base = tile * GPUX_SEL_TILE + lid * GPUX_SEL_PER;                              \
    GPUX_SO_U64 own = 0; /* less << 32 | equal among this work-item's keys */                      \
    for (int j = 0; j < GPUX_SEL_PER; j++) {                                                       \
      const GPUX_SI64 i = base + j;                                                                \
      if (i < len) {                                                                               \
        const GPUX_SO_U64 kk = GPUX_SEL_IMG_##dt((GPUX_SO_U64)xr[i], flags);                       \
        own += kk < T ? (GPUX_SO_C64(1) << 32) : kk == T ? GPUX_SO_C64(1) : GPUX_SO_C64(0);        \
      }                                                                                            \
    }                                                                                              \
    int cur = 0;                                                                                   \
    sc[0][lid] = own;                                                                              \
    GPUX_SEL_TSYNC();                                                                              \
    for (int off = 1; off < GPUX_SEL_WI; off <<= 1) {                                              \
      const GPUX_SO_U64 v = sc[cur][lid] + (lid >= off ? sc[cur][lid - off] : GPUX_SO_C64(0));     \
      sc[cur ^ 1][lid] = v;                                                                        \
      cur ^= 1;                                                                                    \
      GPUX_SEL_TSYNC();                                                                            \
    }                                                                                              \
    const GPUX_SO_U64 ex = sc[cur][lid] - own;                                                     \
    GPUX_SI64 lb = cnt[(row * tpr + tile) * 2] + (GPUX_SI64)(ex >> 32);                            \
    GPUX_SI64 eb = cnt[(row * tpr + tile) * 2 + 1] + (GPUX_SI64)(ex & GPUX_SO_C64(0xffffffff));    \
    const GPUX_SI64 need = k - L, ostride = mode == GPUX_SEL_TOPK ? k : len;                       \
    for (int j = 0; j < GPUX_SEL_PER; j++) {                                                       \
      const GPUX_SI64 i = base + j;                                                                \
      if (i >= len) break;                                                                         \
      const GPUX_SEL_UT(dt) b = xr[i];                                                             \
      const GPUX_SO_U64 kk = GPUX_SEL_IMG_##dt((GPUX_SO_U64)b, flags);                             \
      GPUX_SI64 dst = -1;                                                                          \
      if (kk < T) {                                                                                \
        dst = mode == GPUX_SEL_TOPK ? lb + (eb < need ? eb : need) : lb;                           \
        lb++;                                                                                      \
      } else if (kk == T) {                                                                        \
        dst = mode == GPUX_SEL_TOPK ? (eb < need ? lb + eb : -1) : L + eb;                         \
        eb++;                                                                                      \
      } else if (mode != GPUX_SEL_TOPK) {                                                          \
        dst = L + E + (i - lb - eb);                                                               \
      }                                                                                            \
      if (dst >= 0) {                                                                              \
        if (has_v) vals[v_off + row * ostride + dst] = b;                                          \
        if (has_i) idx[i_off + row * ostride + dst] = i;                                           \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
  /* hist12: rows x gpr groups, group b of a row counts its keys [b hk, (b + 1) hk) into      \
   * hist[row] and writes its own histogram to hb[g] (gcnt's) */                              \
  GPUX_SK gpux_select_h12_##dt(GPUX_SG const GPUX_SEL_UT(dt) * x, GPUX_SI64 x_off,                 \
                               GPUX_SI64 len, GPUX_SI64 gpr, GPUX_SI64 hk, unsigned flags,         \
                               GPUX_SG unsigned *hist, GPUX_SG unsigned *hb, GPUX_SI64 rows) {     \
    GPUX_SEL_TL unsigned h[GPUX_SEL_B12];                                                          \
    const GPUX_SI64 g = GPUX_SEL_TID();                                                            \
    const int lid = GPUX_SEL_TLID(), s12 = GPUX_SEL_S12(dt);                                       \
    if (GPUX_SEL_SERIAL && g >= rows * gpr) return;                                                \
    const GPUX_SI64 row = g / gpr, b = g - row * gpr;                                              \
    const int nanbin = GPUX_SEL_NAN_##dt && !(flags & GPUX_SO_DESC);                               \
    for (int i = lid; i < GPUX_SEL_B12; i += GPUX_SEL_WI) h[i] = 0u;                               \
    GPUX_SEL_TSYNC();                                                                              \
    GPUX_SG const GPUX_SEL_UT(dt) *xr = x + x_off + row * len;                                     \
    const GPUX_SI64 i1 = len - b * hk < hk ? len : (b + 1) * hk;                                   \
    /* a run of equal prefixes is one add (data of few values: one bin's atomics would       \
     * serialize) */                                                                             \
    unsigned nn = 0u, last = 0u, run = 0u;                                                         \
    /* runs of HE keys a work-item (the same keys in the same order as one at a time) */          \
    for (GPUX_SI64 i0 = b * hk + lid; i0 < i1; i0 += GPUX_SEL_WI * GPUX_SEL_HE) {                  \
      GPUX_SEL_UT(dt) kv[GPUX_SEL_HE];                                                             \
      GPUX_SEL_LOADN(kv, GPUX_SEL_HE, xr, i0, GPUX_SEL_WI, i1)                                     \
      for (int e = 0; e < GPUX_SEL_HE && i0 + (GPUX_SI64)e * GPUX_SEL_WI < i1; e++) {              \
        const GPUX_SO_U64 k = GPUX_SEL_IMG_##dt((GPUX_SO_U64)kv[e], flags);                        \
        const unsigned d = (unsigned)(k >> s12);                                                   \
        if (run && d != last) {                                                                    \
          GPUX_SEL_TADD(&h[last], run);                                                            \
          run = 0u;                                                                                \
        }                                                                                          \
        last = d;                                                                                  \
        run++;                                                                                     \
        nn += nanbin && k == GPUX_SEL_ALL(GPUX_SEL_W_##dt);                                        \
      }                                                                                            \
    }                                                                                              \
    if (run) GPUX_SEL_TADD(&h[last], run);                                                         \
    if (nn) GPUX_SEL_TADD(&h[GPUX_SEL_B12 - 1], nn);                                               \
    GPUX_SEL_TSYNC();                                                                              \
    GPUX_SG unsigned *hr = hist + row * GPUX_SEL_B12, *hg = hb + g * GPUX_SEL_B12;                 \
    for (int i = lid; i < GPUX_SEL_B12; i += GPUX_SEL_WI) {                                        \
      const unsigned c = h[i];                                                                     \
      hg[i] = c;                                                                                   \
      if (c) GPUX_SATOM(&hr[i], c);                                                                \
    }                                                                                              \
  }                                                                                                \
  GPUX_SEL_GATHER(dt)                                                                              \
  GPUX_SEL_SSEL(dt)                                                                                \
  GPUX_SEL_FILT(dt)                                                                                \
  GPUX_SK gpux_select_rank_##dt(GPUX_SG const GPUX_SEL_UT(dt) * tv, GPUX_SG const GPUX_SI64 *ti,   \
                                GPUX_SI64 rows, GPUX_SI64 k, unsigned flags,                       \
                                GPUX_SG GPUX_SEL_UT(dt) * vals, GPUX_SI64 v_off,                   \
                                GPUX_SG GPUX_SI64 * idx, GPUX_SI64 i_off) {                        \
    const GPUX_SI64 g = GPUX_SGID();                                                               \
    if (g >= rows * k) return;                                                                     \
    const GPUX_SI64 row = g / k, j = g - row * k;                                                  \
    GPUX_SG const GPUX_SEL_UT(dt) *r = tv + row * k;                                               \
    const GPUX_SO_U64 kj = GPUX_SEL_IMG_##dt((GPUX_SO_U64)r[j], flags);                            \
    GPUX_SI64 rank = 0;                                                                            \
    for (GPUX_SI64 i = 0; i < k; i++) {                                                            \
      const GPUX_SO_U64 ki = GPUX_SEL_IMG_##dt((GPUX_SO_U64)r[i], flags);                          \
      rank += ki < kj || (ki == kj && i < j);                                                      \
    }                                                                                              \
    vals[v_off + row * k + rank] = r[j];                                                           \
    idx[i_off + row * k + rank] = ti[row * k + j];                                                 \
  }                                                                                                \
  GPUX_SEL_QFIN_ON_##dt(GPUX_SEL_QFIN, dt)

/* median / quantile from the two order statistics of each q (targets 2q, 2q + 1) */
#define GPUX_SEL_QFIN(dt)                                                                     \
  GPUX_SK gpux_select_qfin_##dt(GPUX_SG const GPUX_SO_U64 *st, GPUX_SG const GPUX_SI64 *rk,   \
                                GPUX_SG const double *gam, GPUX_SI64 rows, int nq, int mode,  \
                                GPUX_SG GPUX_SEL_C_##dt *out, GPUX_SI64 o_off,                \
                                GPUX_SI64 ostride) {                                          \
    const GPUX_SI64 g = GPUX_SGID();                                                          \
    if (g >= rows * nq) return;                                                               \
    const GPUX_SI64 row = g / nq;                                                             \
    const int q = (int)(g - row * nq), nt = 2 * nq;                                           \
    GPUX_SG const GPUX_SO_U64 *s = st + row * nt * GPUX_SEL_ST;                               \
    const int w = GPUX_SEL_W_##dt, cls = GPUX_SEL_CLS_##dt;                                   \
    const GPUX_SEL_C_##dt a =                                                                 \
        GPUX_SEL_VAL_##dt(gpux_so_unimg(s[2 * q * GPUX_SEL_ST], w, cls, 0u, GPUX_SO_C64(0))); \
    const GPUX_SEL_C_##dt b = GPUX_SEL_VAL_##dt(                                              \
        gpux_so_unimg(s[(2 * q + 1) * GPUX_SEL_ST], w, cls, 0u, GPUX_SO_C64(0)));             \
    GPUX_SEL_C_##dt res;                                                                      \
    if (s[2]) {                                                                               \
      res = GPUX_SEL_QNAN_##dt;                                                               \
    } else if (mode == GPUX_SEL_MEDIAN) {                                                     \
      res = rk[2 * q] == rk[2 * q + 1] ? a : (a + b) * (GPUX_SEL_C_##dt)0.5;                  \
    } else {                                                                                  \
      const GPUX_SEL_C_##dt t = (GPUX_SEL_C_##dt)gam[q], diff = b - a;                        \
      res = t >= (GPUX_SEL_C_##dt)0.5 ? b - diff * ((GPUX_SEL_C_##dt)1 - t) : a + diff * t;   \
    }                                                                                         \
    if (res != res) res = GPUX_SEL_QNAN_##dt; /* -inf and +inf met: (a + b), b - a */         \
    out[o_off + (GPUX_SI64)q * ostride + row] = res;                                          \
  }

GPUX_SEL_DT(GPUX_SEL_KERNELS, _)

#endif
