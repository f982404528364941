/* gpux scatter family (scatter-add / -max / -min, bincount, histogram, digitize): the
 * arithmetic both kernel sets share, written once and compiled as OpenCL C
 * (kernels/cl/scatter.cl) and CUDA C++ (kernels/cuda/scatter.cu). Include after
 * gpux_kernels.h and gpux_half.h.
 *
 * Kernel names (<dt> the value dtype of GPUX_SCAT_DT, <ix> the index dtype i32 / i64):
 *   gpux_scatter_init_<dt>    per target t: the accumulator from a[t]
 *   gpux_scatter_<dt>_<ix>    per value: its target, then an atomic update of the accumulator
 *   gpux_scatter_fin_<dt>     per target: a[t] from the accumulator
 *   gpux_bincount_<ix>        int64 counts of the values in [0, nbins), privatized
 *                             (local / shared counters where nbins <= GPUX_SC_LOCAL_BINS)
 *   gpux_search_<dt>          per x: a count of edges (digitize, histogram's bin)
 * Complex values take the kernels of their component dtype (the front end doubles the
 * inner extent: re and im are two targets).
 *
 * THE EXACT SUM (scatter-add of the float dtypes, weighted bincount and histogram). Each
 * target's sum is accumulated exactly in fixed point -- a Kulisch accumulator -- and rounded
 * once: the result is the exact sum of a[t] and every contribution, rounded to nearest even
 * to the dtype, whatever the order of the contributions (so the same bits on every device).
 *   A float32 (float16 and bfloat16 values are float32 values exactly) is m * 2^(s - 149)
 *   with m < 2^24 an integer and 0 <= s <= 253; a float64 m * 2^(s - 1074), m < 2^53,
 *   0 <= s <= 2045. The accumulator of a target is GPUX_SC_D_<class> signed 64-bit words;
 *   word d holds the digit of weight 2^(32 d + L) (L = -149 or -1074) plus carries that pile
 *   up in its upper half. A value adds sign * ((m << s) split in 32-bit pieces) to the two
 *   (float64: three) words it touches, with 64-bit atomic adds of numbers below 2^32 in
 *   magnitude (the float32 class's byte window: one, THE WINDOW): up to 2^31 contributions
 *   per target never overflow a word.
 *   NaN, +inf and -inf set flags (an atomic or on a 32-bit word per target), so does any
 *   value other than -0.0 (GPUX_SC_NNZ): a zero sum is -0.0 only when every term was -0.0,
 *   IEEE's sign for any order of additions.
 *   THE WINDOW. 2^20 targets of 11 words are 92 MB, past a GPU's L2, and each term's
 *   atomics would go to DRAM at random. So the values' terms go to a window of GPUX_SC_W
 *   words a target (32 bytes: 2^20 targets fit in 32 MB of L2) placed from the largest
 *   exponent among the values (the scan pass); a term below it (far below the largest value:
 *   a spill) adds its 32-bit pieces to the full accumulator instead, and the final pass
 *   folds the window into a private copy of the full accumulator before the carries
 *   (gpux_sc_fold). The window is a placement only: every term lands in exactly one of the
 *   two, so the sum stays exact wherever the window is; no term lies above it. float64:
 *   words [dw, dw + W) of the accumulator (gpux_sc_window_base: the largest term's top word
 *   is the window's top), a term whose pieces all fit adding them there (two or three
 *   atomics). The float32 class: a BYTE window (gpux_sc_bwindow_base): word k sums the
 *   terms whose byte index s >> 3 is bw + k, each as +-(m << (s & 7)), so word k has weight
 *   2^(8 (bw + k) + L). A 24-bit significand shifted by under 8 bits is below 2^31: ONE
 *   signed 64-bit atomic a term (the apply pass's cost is its atomics; 32-bit-spaced words
 *   need two most of the time), and 2^31 of them never overflow a word. bw puts the largest
 *   value's byte in the top word; s >> 3 < bw spills. The fold splits each word's v 2^P in
 *   32-bit pieces at its weight. a[t] goes to the full accumulator at init.
 *   The per-term flag read goes too: the init pass sets NNZ for a[t] other than -0.0, so a
 *   term's NNZ only matters for targets whose a[t] is -0.0; the init pass notes in the
 *   header whether there is one (GPUX_SC_H_NEGZ), and only then do the terms check NNZ.
 *   Layout: acc = header (GPUX_SC_HDR words, THE HEADER below) | window (nt * W words) |
 *   full accumulator (nt * (D + 1) words, the flags word last).
 *   The final pass propagates the carries (d = 0 .. D-1: v = w[d] + carry; digit = low 32
 *   bits, carry = v >> 32 arithmetic), negates a negative total, and rounds (gpux_sc_round).
 *   NaN flag, or both infinities: NaN (the canonical quiet NaN, positive); else an infinity
 *   flag: that infinity; else the rounded sum (overflow past the dtype's range: +-inf).
 *
 * MAX / MIN: atomic max / min of an order-preserving unsigned image of the value (floats:
 * bits ^ sign-fill; signed integers: the sign bit flipped). NaN maps to the image that wins
 * (max: all ones; min: zero), so a NaN anywhere gives the canonical NaN. -0.0 orders below
 * +0.0 (max(-0.0, +0.0) = +0.0, min = -0.0, in any order). Halves use the float32 image.
 *
 * Integers: scatter-add wraps modulo 2^bits (accumulated in 32 bits for dtypes of up to 4
 * bytes, in 64 bits otherwise, then added to a[t] in the dtype's width: the same bits as
 * any order of wrapping additions).
 */
#ifndef GPUX_SCATTER_H
#define GPUX_SCATTER_H

#if defined(__OPENCL_VERSION__)
#define GPUX_SC_FN static inline
#define GPUX_SC_U32 uint
#define GPUX_SC_U64 ulong
#define GPUX_SC_I64 long
#define GPUX_SC_C64(c) c##UL
#elif defined(__CUDACC__)
#define GPUX_SC_FN static __device__ __forceinline__
#define GPUX_SC_U32 unsigned
#define GPUX_SC_U64 unsigned long long
#define GPUX_SC_I64 long long
#define GPUX_SC_C64(c) c##ULL
#else
#include <stdint.h>
#define GPUX_SC_FN static inline
#define GPUX_SC_U32 uint32_t
#define GPUX_SC_U64 uint64_t
#define GPUX_SC_I64 int64_t
#define GPUX_SC_C64(c) c##ULL
#endif

/* the dtype lists GPUX_SCAT_DT and GPUX_SCAT_IX, and the kernel names: gpux_kernels.h */

/* ops (enum gpux_scatter_op in include/gpux/index.h) */
#define GPUX_SC_ADD 0
#define GPUX_SC_MAX 1
#define GPUX_SC_MIN 2
/* index modes: gpux_index_mode's three, and SKIP (internal: an index outside [0, n) is
 * ignored, negative ones too) */
#define GPUX_SC_CHECKED 0
#define GPUX_SC_WRAP 1
#define GPUX_SC_CLIP 2
#define GPUX_SC_SKIP 3

/* accumulator words per target of the exact sums: float32 class (float32, float16,
 * bfloat16) and float64; the weight of word 0's lowest bit */
#define GPUX_SC_D_F32 10
#define GPUX_SC_D_F64 67
#define GPUX_SC_L_F32 (-149)
#define GPUX_SC_L_F64 (-1074)
/* the window: words a target. THE HEADER: every accumulator buffer starts with GPUX_SC_HDR
 * 64-bit words, zeroed by the front end before init, the accumulators after it: the
 * largest biased exponent among the values (exact sums; the float32 format for the float32
 * class), 1 when some a[t] is -0.0 (exact sums), and the checked mode's error: ~j for the
 * smallest position j of idx holding a bad index (the maximum of ~j; 0: none). The final
 * pass writes nothing when it is set, so a stays as it was. */
#define GPUX_SC_W 4
#define GPUX_SC_HDR 8
#define GPUX_SC_H_EXP 0
#define GPUX_SC_H_NEGZ 1
#define GPUX_SC_H_ERR 2
/* flags word bits */
#define GPUX_SC_NAN 1u
#define GPUX_SC_PINF 2u
#define GPUX_SC_NINF 4u
#define GPUX_SC_NNZ 8u /* a term other than -0.0 */

/* bincount: local / shared counters per work-group up to this many bins */
#define GPUX_SC_LOCAL_BINS 4096
/* threads per block / work-group of the GPU kernels */
#define GPUX_SC_THREADS 256
/* values a thread loads before its first atomic (bincount; CUDA's scatter apply): loads in
 * flight, not one load-then-atomic chain per value */
#define GPUX_SC_UNROLL 8

/* search modes (gpux_search_<dt>): with edges e[0..ne), the count written is
 *   DIG_L: #(e <= x) (increasing edges, digitize right=False; NaN x: ne)
 *   DIG_R: #(e < x)  (increasing, right=True; NaN x: ne)
 *   DIG_DL: #(e > x) (decreasing, right=False; NaN x: 0)
 *   DIG_DR: #(e >= x) (decreasing, right=True; NaN x: 0)
 *   HIST: the bin c - 1 with c = #(e <= x), the last bin closed (x == e[ne-1]: ne - 2), -1
 *         outside [e[0], e[ne-1]] and for NaN */
#define GPUX_SC_DIG_L 0
#define GPUX_SC_DIG_R 1
#define GPUX_SC_DIG_DL 2
#define GPUX_SC_DIG_DR 3
#define GPUX_SC_HIST 4

/* k normalized to [0, n), or -1: not applied */
GPUX_SC_FN GPUX_SC_I64 gpux_sc_norm(GPUX_SC_I64 k, GPUX_SC_I64 n, int mode) {
  if (mode == GPUX_SC_WRAP) {
    k %= n;
    return k < 0 ? k + n : k;
  }
  if (mode == GPUX_SC_CLIP) return k < 0 ? 0 : k >= n ? n - 1 : k;
  if (mode == GPUX_SC_CHECKED && k < 0) k += n;
  return k >= 0 && k < n ? k : -1;
}

/* A float of p significand bits (implicit one included) and ebits exponent bits, as bits:
 * *cls 0 zero, 1 finite nonzero, 2 inf, 3 NaN; *neg the sign; m, s as in THE EXACT SUM with
 * lowest weight 2^L (L = GPUX_SC_L_F32 for the float32 class, GPUX_SC_L_F64). */
GPUX_SC_FN int gpux_sc_decompose(GPUX_SC_U64 bits, int p, int ebits, int L, int *neg,
                                 GPUX_SC_U64 *m, int *s) {
  const GPUX_SC_U64 fmask = (GPUX_SC_C64(1) << (p - 1)) - 1;
  const int emax = (1 << ebits) - 1, bias = (1 << (ebits - 1)) - 1;
  const int be = (int)((bits >> (p - 1)) & (GPUX_SC_U64)emax);
  *neg = (int)((bits >> (p - 1 + ebits)) & 1);
  GPUX_SC_U64 f = bits & fmask;
  *m = 0;
  *s = 0;
  if (be == emax) return f ? 3 : 2;
  if (be == 0 && f == 0) return 0;
  *m = be ? f | (fmask + 1) : f;
  *s = (be ? be : 1) - bias - (p - 1) - L;
  return 1;
}

/* s (THE EXACT SUM) of the values of biased exponent be (subnormals: 1's) */
GPUX_SC_FN int gpux_sc_s_of_bexp(GPUX_SC_U64 be, int p, int ebits, int L) {
  const int bias = (1 << (ebits - 1)) - 1;
  return (be > 1 ? (int)be : 1) - bias - (p - 1) - L;
}
/* float64's window (THE WINDOW): the first word dw for the largest biased exponent be among
 * the values: the largest term's top word (its lowest bit has weight 2^(s + L), s as in
 * decompose; its top bit p - 1 above) is the window's top word; dw within [0, D - W]. */
GPUX_SC_FN int gpux_sc_window_base(GPUX_SC_U64 be, int p, int ebits, int L, int D) {
  const int s = gpux_sc_s_of_bexp(be, p, ebits, L);
  int dw = ((s + p - 1) >> 5) - (GPUX_SC_W - 1);
  if (dw > D - GPUX_SC_W) dw = D - GPUX_SC_W;
  return dw < 0 ? 0 : dw;
}
/* The float32 class's byte window (THE WINDOW): the first byte index bw for the largest
 * biased exponent be (float32 format) among the values, whose s is s_max. No term lies
 * above the window: s grows with the biased exponent, so a value's byte s >> 3 is at most
 * s_max >> 3, which is bw + W - 1 when bw > 0 and at most W - 1 = bw + W - 1 when the clamp
 * made bw 0. s_max <= 253 (THE EXACT SUM): bw <= 31 - (W - 1) = 28. */
GPUX_SC_FN int gpux_sc_bwindow_base(GPUX_SC_U64 be, int p, int ebits, int L) {
  const int bw = (gpux_sc_s_of_bexp(be, p, ebits, L) >> 3) - (GPUX_SC_W - 1);
  return bw < 0 ? 0 : bw;
}
/* the biased exponent of a finite value's bits (0 for inf / NaN: they never enter the
 * words) */
GPUX_SC_FN GPUX_SC_U64 gpux_sc_bexp(GPUX_SC_U64 bits, int p, int ebits) {
  const GPUX_SC_U64 emax = (GPUX_SC_C64(1) << ebits) - 1, be = (bits >> (p - 1)) & emax;
  return be == emax ? 0 : be;
}

/* the pieces of m << off (off < 32, m < 2^53) in 32-bit digits */
GPUX_SC_FN void gpux_sc_split(GPUX_SC_U64 m, int off, GPUX_SC_U64 *p0, GPUX_SC_U64 *p1,
                              GPUX_SC_U64 *p2) {
  const GPUX_SC_U64 M = GPUX_SC_C64(0xffffffff);
  if (off == 0) {
    *p0 = m & M;
    *p1 = (m >> 32) & M;
    *p2 = 0;
  } else {
    *p0 = (m << off) & M;
    *p1 = (m >> (32 - off)) & M;
    *p2 = m >> (64 - off);
  }
}

/* 1 when a term whose lowest word is d (pieces p1, p2 above it: gpux_sc_split) lies in the
 * window [dw, dw + W) */
GPUX_SC_FN int gpux_sc_in_window(int d, GPUX_SC_U64 p1, GPUX_SC_U64 p2, int dw) {
  const int hi = p2 ? d + 2 : p1 ? d + 1 : d;
  return d >= dw && hi < dw + GPUX_SC_W;
}

/* The float32 class's term m 2^(s + L) (m < 2^24, sign neg) in the byte window at bw:
 * returns its word k = (s >> 3) - bw (at most W - 1: gpux_sc_bwindow_base; negative: a
 * spill, its gpux_sc_split pieces go to the full accumulator) and *v = +-(m << (s & 7)) as
 * two's complement (|v| < 2^31), the addend of its one atomic. */
GPUX_SC_FN int gpux_sc_bslot(GPUX_SC_U64 m, int s, int neg, int bw, GPUX_SC_U64 *v) {
  const GPUX_SC_U64 x = m << (s & 7);
  *v = neg ? (GPUX_SC_U64)0 - x : x;
  return (s >> 3) - bw;
}

/* FIN: the window win[0..W) at base (dw or bw) folded into w[0..D), a private copy of the
 * full accumulator, before the carries. bytes 0 (float64): word k adds to word dw + k.
 * bytes 1 (the float32 class): word k (v, |v| < 2^62: 2^31 terms below 2^31) has weight 2^P,
 * P = 8 (bw + k); with d = P >> 5, sh = P & 31 (0, 8, 16 or 24) and v = hi 2^32 + lo (lo
 * the low 32 bits unsigned, hi = v >> 32 arithmetic), v 2^P = lo 2^sh 2^(32 d) + hi 2^sh
 * 2^(32 (d + 1)): a = lo << sh (< 2^56) gives its low 32 bits to word d and the rest to
 * d + 1; h = hi 2^sh (|h| < 2^54; a product: no left shift of a negative) its low 32 bits,
 * unsigned, to d + 1 and h >> 32 (arithmetic) to d + 2. Every piece is below 2^32 in
 * magnitude, as a spill's are, and a word gets eight at most (the W words span two d): a
 * few contributions more. d + 2 < D: bw <= 28 (gpux_sc_bwindow_base), so P <= 248,
 * d <= 7 and d + 2 <= 9 < GPUX_SC_D_F32. */
GPUX_SC_FN void gpux_sc_fold(GPUX_SC_I64 *w, const GPUX_SC_I64 *win, int base, int bytes) {
  const GPUX_SC_U64 M = GPUX_SC_C64(0xffffffff);
  for (int k = 0; k < GPUX_SC_W; k++) {
    const GPUX_SC_I64 v = win[k];
    if (!bytes) {
      w[base + k] += v;
      continue;
    }
    const int P = 8 * (base + k), d = P >> 5, sh = P & 31;
    const GPUX_SC_U64 a = ((GPUX_SC_U64)v & M) << sh;
    const GPUX_SC_I64 h = (v >> 32) * ((GPUX_SC_I64)1 << sh);
    w[d] += (GPUX_SC_I64)(a & M);
    w[d + 1] += (GPUX_SC_I64)(a >> 32) + (GPUX_SC_I64)((GPUX_SC_U64)h & M);
    w[d + 2] += h >> 32;
  }
}

/* bit i of the magnitude digits dig[0..nd) (0 past the end) */
GPUX_SC_FN GPUX_SC_U64 gpux_sc_bit(const GPUX_SC_U32 *dig, int nd, int i) {
  if (i < 0 || (i >> 5) >= nd) return 0;
  return (dig[i >> 5] >> (i & 31)) & 1u;
}
/* 1 when a bit below i is set */
GPUX_SC_FN int gpux_sc_any_below(const GPUX_SC_U32 *dig, int i) {
  if (i <= 0) return 0;
  const int w = i >> 5;
  for (int d = 0; d < w; d++)
    if (dig[d]) return 1;
  return (i & 31) ? (dig[w] & ((1u << (i & 31)) - 1u)) != 0 : 0;
}

/* The magnitude dig[0..nd) (weight 2^(32 d + L)) with sign neg, rounded once to nearest
 * even to the float of p significand bits and ebits exponent bits: its bits (+-inf past
 * the range; a zero magnitude gives +0.0, the caller decides -0.0). */
GPUX_SC_FN GPUX_SC_U64 gpux_sc_round(const GPUX_SC_U32 *dig, int nd, int L, int p, int ebits,
                                     int neg) {
  const GPUX_SC_U64 sign = (GPUX_SC_U64)neg << (p - 1 + ebits);
  int top = -1;
  for (int d = nd - 1; d >= 0 && top < 0; d--)
    if (dig[d]) {
      int b = 31;
      while (!((dig[d] >> b) & 1u)) b--;
      top = 32 * d + b;
    }
  if (top < 0) return 0;
  const int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
  /* the lowest kept bit: p bits from the top, or the subnormal unit */
  int lsb = top - p + 1;
  const int sub = emin - (p - 1) - L;
  if (lsb < sub) lsb = sub;
  GPUX_SC_U64 q = 0;
  for (int i = top; i >= lsb; i--) q = (q << 1) | gpux_sc_bit(dig, nd, i);
  if (lsb > 0 && gpux_sc_bit(dig, nd, lsb - 1) &&
      (gpux_sc_any_below(dig, lsb - 1) || (q & 1u)))
    q++;
  if (q >> p) { /* rounded up to 2^p */
    q >>= 1;
    lsb++;
  }
  const GPUX_SC_U64 hid = GPUX_SC_C64(1) << (p - 1);
  if (q < hid) return sign | q; /* subnormal (biased exponent 0) */
  const int be = lsb + L + (p - 1) + bias;
  if (be >= (1 << ebits) - 1) return sign | ((GPUX_SC_U64)((1 << ebits) - 1) << (p - 1));
  return sign | ((GPUX_SC_U64)be << (p - 1)) | (q - hid);
}

/* one step of the carry propagation: *carry in and out, returns the digit */
GPUX_SC_FN GPUX_SC_U32 gpux_sc_carry_word(GPUX_SC_I64 w, GPUX_SC_I64 *carry) {
  const GPUX_SC_I64 v = w + *carry;
  *carry = v >> 32; /* arithmetic: the kernel languages and the host compilers all shift so */
  return (GPUX_SC_U32)((GPUX_SC_U64)v & GPUX_SC_C64(0xffffffff));
}
/* dig[0..nd) and the final carry (0 or -1) as a two's complement number: negated in place
 * when negative; returns 1 when it was */
GPUX_SC_FN int gpux_sc_magnitude(GPUX_SC_U32 *dig, int nd, GPUX_SC_I64 carry) {
  if (carry >= 0) return 0;
  GPUX_SC_U64 c = 1;
  for (int d = 0; d < nd; d++) {
    const GPUX_SC_U64 v = (GPUX_SC_U64)(~dig[d] & 0xffffffffu) + c;
    dig[d] = (GPUX_SC_U32)(v & GPUX_SC_C64(0xffffffff));
    c = v >> 32;
  }
  return 1;
}

/* FIN of an exact sum: the private words w[0..D) (the window folded in: gpux_sc_fold) and
 * the flags fl rounded to the float of p significand and eb exponent bits: its bits
 * (gpux_scatter.h, THE EXACT SUM). dig[0..D): the caller's scratch, sized by its D. */
GPUX_SC_FN GPUX_SC_U64 gpux_sc_finish(const GPUX_SC_I64 *w, GPUX_SC_U32 *dig, int D,
                                      GPUX_SC_U64 fl, int L, int p, int eb) {
  GPUX_SC_I64 carry = 0;
  for (int d = 0; d < D; d++) dig[d] = gpux_sc_carry_word(w[d], &carry);
  const int neg = gpux_sc_magnitude(dig, D, carry);
  const GPUX_SC_U64 sb = (GPUX_SC_U64)1 << (p - 1 + eb);
  const GPUX_SC_U64 inf = (((GPUX_SC_U64)1 << eb) - 1) << (p - 1);
  if ((fl & GPUX_SC_NAN) || ((fl & GPUX_SC_PINF) && (fl & GPUX_SC_NINF)))
    return inf | ((GPUX_SC_U64)1 << (p - 2));
  if (fl & GPUX_SC_PINF) return inf;
  if (fl & GPUX_SC_NINF) return inf | sb;
  const GPUX_SC_U64 out = gpux_sc_round(dig, D, L, p, eb, neg);
  return out == 0 && !(fl & GPUX_SC_NNZ) ? sb : out; /* -0.0: every term was -0.0 */
}

/* order-preserving images: float32 bits (NaN: the op's winner), float64 bits */
GPUX_SC_FN GPUX_SC_U32 gpux_sc_img_f32(GPUX_SC_U32 b, int op) {
  if ((b & 0x7fffffffu) > 0x7f800000u) return op == GPUX_SC_MAX ? 0xffffffffu : 0u;
  return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}
GPUX_SC_FN GPUX_SC_U32 gpux_sc_unimg_f32(GPUX_SC_U32 k) {
  if (k > 0xff800000u || k < 0x007fffffu) return 0x7fc00000u; /* canonical NaN */
  return (k & 0x80000000u) ? k ^ 0x80000000u : ~k;
}
GPUX_SC_FN GPUX_SC_U64 gpux_sc_img_f64(GPUX_SC_U64 b, int op) {
  const GPUX_SC_U64 sg = GPUX_SC_C64(0x8000000000000000);
  if ((b & ~sg) > GPUX_SC_C64(0x7ff0000000000000)) return op == GPUX_SC_MAX ? ~(GPUX_SC_U64)0 : 0;
  return (b & sg) ? ~b : b | sg;
}
GPUX_SC_FN GPUX_SC_U64 gpux_sc_unimg_f64(GPUX_SC_U64 k) {
  if (k > GPUX_SC_C64(0xfff0000000000000) || k < GPUX_SC_C64(0x000fffffffffffff))
    return GPUX_SC_C64(0x7ff8000000000000);
  return (k & GPUX_SC_C64(0x8000000000000000)) ? k ^ GPUX_SC_C64(0x8000000000000000) : ~k;
}

#endif
