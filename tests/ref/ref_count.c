/* gpux tests: CPU reference of scatter-add's exact sums (ref_count.h). An independent
 * implementation: a two's complement big integer of 32-bit digits with its lowest bit at
 * 2^-1100, carried on every addition; terms taken apart with frexp; the sum rounded once
 * through long double (64 significant bits, the lowest one sticky). */
#include "ref_count.h"
#include <math.h>
#include <string.h>

#define RX_LSB (-1100)

void ref_xsum_init(ref_xsum *s) { memset(s, 0, sizeof *s); }

/* adds sign * v << pos (v < 2^53) to the digits, with carries */
static void add_shifted(ref_xsum *s, uint64_t v, int pos, int neg) {
  uint32_t part[4] = {0, 0, 0, 0};
  const int w = pos / 32, sh = pos % 32;
  unsigned __int128 x = (unsigned __int128)v << sh;
  for (int i = 0; i < 4; i++) part[i] = (uint32_t)(x >> (32 * i));
  if (!neg) {
    uint64_t c = 0;
    for (int i = w; i < REF_XSUM_DIGITS; i++) {
      const uint64_t t = (uint64_t)s->d[i] + (i - w < 4 ? part[i - w] : 0) + c;
      s->d[i] = (uint32_t)t;
      c = t >> 32;
      if (i - w >= 3 && !c) break;
    }
  } else {
    int64_t b = 0;
    for (int i = w; i < REF_XSUM_DIGITS; i++) {
      const int64_t t = (int64_t)s->d[i] - (i - w < 4 ? part[i - w] : 0) + b;
      s->d[i] = (uint32_t)t;
      b = t < 0 ? -1 : 0;
      if (i - w >= 3 && !b) break;
    }
  }
}

void ref_xsum_add(ref_xsum *s, double x) {
  if (isnan(x)) {
    s->nan = 1;
    return;
  }
  if (isinf(x)) {
    if (x > 0) s->pinf = 1;
    else s->ninf = 1;
    return;
  }
  if (!(x == 0 && signbit(x))) s->nonneg_zero = 1;
  if (x == 0) return;
  int e;
  const double m = frexp(fabs(x), &e); /* |x| = m 2^e, m in [0.5, 1) */
  uint64_t mi = (uint64_t)ldexp(m, 53);
  int pos = e - 53 - RX_LSB;
  if (pos < 0) { /* a subnormal: mi's low bits (below 2^-1074) are zeros */
    mi >>= -pos;
    pos = 0;
  }
  add_shifted(s, mi, pos, x < 0);
}

static long double round_exact(const ref_xsum *s0, int *neg) {
  ref_xsum s = *s0;
  *neg = (s.d[REF_XSUM_DIGITS - 1] >> 31) & 1;
  if (*neg) { /* negate */
    uint64_t c = 1;
    for (int i = 0; i < REF_XSUM_DIGITS; i++) {
      const uint64_t t = (uint64_t)(uint32_t)~s.d[i] + c;
      s.d[i] = (uint32_t)t;
      c = t >> 32;
    }
  }
  int top = -1;
  for (int i = REF_XSUM_DIGITS * 32 - 1; i >= 0; i--)
    if ((s.d[i / 32] >> (i % 32)) & 1) {
      top = i;
      break;
    }
  if (top < 0) return 0.0L;
  uint64_t v = 0;
  int sticky = 0;
  for (int i = top; i >= 0; i--) {
    const int bit = (s.d[i / 32] >> (i % 32)) & 1;
    if (top - i < 64) v = (v << 1) | (uint64_t)bit;
    else sticky |= bit;
  }
  int low = top < 63 ? 0 : top - 63; /* the weight of v's lowest bit, in digit positions */
  if (sticky) v |= 1;
  return ldexpl((long double)v, low + RX_LSB);
}

double ref_xsum_result(const ref_xsum *s, gpux_dtype dt, uint16_t *half_bits) {
  double r;
  int neg = 0;
  if (s->nan || (s->pinf && s->ninf)) r = NAN;
  else if (s->pinf) r = INFINITY;
  else if (s->ninf) r = -INFINITY;
  else {
    long double v = round_exact(s, &neg);
    if (dt == GPUX_FLOAT32) r = (double)(float)v;
    else if (dt == GPUX_FLOAT64) r = (double)v;
    else { /* a half: p significand bits, emin; rounded once with rintl */
      const int p = dt == GPUX_FLOAT16 ? 11 : 8, emin = dt == GPUX_FLOAT16 ? -14 : -126;
      const double maxv = dt == GPUX_FLOAT16 ? 65504.0 : 3.3895313892515355e38;
      if (v == 0) r = 0;
      else {
        int e = ilogbl(v);
        if (e < emin) e = emin;
        const long double q = rintl(ldexpl(v, p - 1 - e));
        r = (double)ldexpl(q, e - (p - 1));
        if (r > maxv) r = INFINITY;
      }
    }
    if (neg) r = -r;
    if (r == 0 && !s->nonneg_zero) r = -0.0;
  }
  if (half_bits && (dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16))
    *half_bits = ref_half_from_f64(dt, r);
  return r;
}
