/* gpux tests: the independent random-number reference (see ref_random.h). Built with
 * -ffp-contract=off: the uniform mapping's fma is written out as fma(), nothing else may be
 * contracted. */
#include "ref_random.h"
#include "ref.h"
#include "gpux_ziggurat.h"

#include <math.h>
#include <string.h>

#if !defined(__SIZEOF_INT128__)
#error "ref_random.c uses unsigned __int128"
#endif
typedef unsigned __int128 u128;

/* ------------------------------------------------------------------ Philox4x32-10 */

void rr_philox(uint32_t out[4], const uint32_t ctr[4], const uint32_t key[2]) {
  uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  uint32_t k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; r++) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint64_t p0 = (uint64_t)0xD2511F53u * c0; /* M0 * c0 */
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c2; /* M1 * c2 */
    uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
    uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    uint32_t n0 = hi1 ^ c1 ^ k0, n1 = lo1, n2 = hi0 ^ c3 ^ k1, n3 = lo0;
    c0 = n0;
    c1 = n1;
    c2 = n2;
    c3 = n3;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* a one-block cache: draws read words in order */
typedef struct wcache {
  uint64_t seed, stream, B;
  int valid;
  uint32_t w[4];
} wcache;

static uint32_t word_c(wcache *c, uint64_t seed, uint64_t stream, uint64_t g) {
  uint64_t B = g >> 2;
  if (!c->valid || c->B != B || c->seed != seed || c->stream != stream) {
    uint32_t ctr[4] = {(uint32_t)B, (uint32_t)(B >> 32), (uint32_t)stream,
                       (uint32_t)(stream >> 32)};
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    rr_philox(c->w, ctr, key);
    c->seed = seed;
    c->stream = stream;
    c->B = B;
    c->valid = 1;
  }
  return c->w[g & 3];
}

uint32_t rr_word(uint64_t seed, uint64_t stream, uint64_t g) {
  wcache c;
  c.valid = 0;
  return word_c(&c, seed, stream, g);
}

/* ------------------------------------------------------------------ words */

int rr_wpv(int kind, gpux_dtype dt) {
  switch (kind) {
    case 0: /* uniform */
    case 1: /* normal */
      return dt == GPUX_FLOAT32 ? 1 : dt == GPUX_FLOAT64 ? 2 : 0;
    case 2: return !ref_dtype_is_int(dt) ? 0 : ref_dtype_size(dt) == 8 ? 4 : 2;
    case 3: return dt == GPUX_BOOL ? 1 : 0;
  }
  return 0;
}

uint64_t rr_words(int kind, gpux_dtype dt, int64_t n) {
  if (n <= 0) return 0;
  uint64_t w = (uint64_t)rr_wpv(kind, dt);
  if (kind == 1 && dt == GPUX_FLOAT64) return ((uint64_t)n + 1) / 2 * 2 * w; /* pairs */
  return (uint64_t)n * w;
}

/* ------------------------------------------------------------------ uniform */

void rr_uniform(void *dst, gpux_dtype dt, int64_t first, int64_t n, rr_state s, double low,
                double high) {
  wcache c;
  c.valid = 0;
  if (dt == GPUX_FLOAT32) {
    /* the constants in the dtype: high - low is the difference of the rounded bounds,
     * rounded in float32 ("fma(u, high - low, low) in the dtype") */
    const float lo = (float)low, hi = (float)high, d = hi - lo, below = nextafterf(hi, -INFINITY);
    float *o = dst;
    for (int64_t i = 0; i < n; i++) {
      uint64_t g = s.pos + (uint64_t)(first + i);
      uint32_t a = word_c(&c, s.seed, s.stream, g);
      float u = (float)(a >> 8) * 0x1p-24f;
      float v = fmaf(u, d, lo);
      o[i] = v < hi ? v : below;
    }
  } else {
    const double lo = low, d = high - low, hi = high, below = nextafter(hi, -INFINITY);
    double *o = dst;
    for (int64_t i = 0; i < n; i++) {
      uint64_t g = s.pos + 2 * (uint64_t)(first + i);
      uint64_t x = (uint64_t)word_c(&c, s.seed, s.stream, g) |
                   ((uint64_t)word_c(&c, s.seed, s.stream, g + 1) << 32);
      double u = (double)(x >> 11) * 0x1p-53;
      double v = fma(u, d, lo);
      o[i] = v < hi ? v : below;
    }
  }
}

/* ------------------------------------------------------------------ integers */

/* One candidate x (64 bits for int32, 128 for int64) against range: 1 and *off when
 * accepted. Lemire: m = x * range; the value is m >> bits, rejected when (m mod 2^bits) <
 * 2^bits mod range. */
static int cand32(uint64_t x, uint64_t range, uint64_t *off) {
  u128 m = (u128)x * range;
  uint64_t thr = (0 - range) % range; /* 2^64 mod range */
  *off = (uint64_t)(m >> 64);
  return (uint64_t)m >= thr;
}
static int cand64(u128 x, uint64_t range, uint64_t *off) {
  /* x * range < 2^192: split x = xh 2^64 + xl */
  uint64_t xl = (uint64_t)x, xh = (uint64_t)(x >> 64);
  if (range == 0) { /* 2^64: floor(x 2^64 / 2^128), and 2^128 mod 2^64 = 0 rejects nothing */
    *off = xh;
    return 1;
  }
  u128 pl = (u128)xl * range, ph = (u128)xh * range;
  /* m = ph 2^64 + pl; low 128 bits and the part above */
  u128 low128 = pl + (ph << 64);
  u128 top = (ph >> 64) + ((pl >> 64) + (u128)(uint64_t)ph >= ((u128)1 << 64) ? 1 : 0);
  /* thr = 2^128 mod range = ((2^128 - 1) mod range + 1) mod range */
  u128 all = ~(u128)0;
  u128 thr = ((all % range) + 1) % range;
  *off = (uint64_t)top;
  return low128 >= thr;
}

/* value i's offset (and whether its first candidate was rejected) */
static uint64_t int_offset(wcache *c, gpux_dtype dt, int64_t i, rr_state s, uint64_t range,
                           int *rejected) {
  const int w = ref_dtype_size(dt) == 8 ? 4 : 2; /* 64-bit dtypes: 4 words, others 2 */
  const uint64_t g = s.pos + (uint64_t)w * (uint64_t)i;
  uint32_t wd[4];
  for (int k = 0; k < w; k++) wd[k] = word_c(c, s.seed, s.stream, g + (uint64_t)k);
  uint64_t off = 0;
  int ok;
  if (w == 2) {
    ok = cand32((uint64_t)wd[0] | ((uint64_t)wd[1] << 32), range, &off);
  } else {
    u128 x = (u128)((uint64_t)wd[0] | ((uint64_t)wd[1] << 32)) |
             ((u128)((uint64_t)wd[2] | ((uint64_t)wd[3] << 32)) << 64);
    ok = cand64(x, range, &off);
  }
  if (rejected) *rejected = !ok;
  if (ok) return off;
  /* the retry chain: counter {g lo, g hi, stream lo, stream hi | 2^31}; each next block's
   * counter is the last output with bit 31 of word 3 set; candidates in order */
  uint32_t ctr[4] = {(uint32_t)g, (uint32_t)(g >> 32), (uint32_t)s.stream,
                     (uint32_t)(s.stream >> 32) | 0x80000000u};
  uint32_t key[2] = {(uint32_t)s.seed, (uint32_t)(s.seed >> 32)};
  for (;;) { /* ends with probability 1 (each candidate fails with p < 2^-32) */
    uint32_t o[4];
    rr_philox(o, ctr, key);
    if (w == 2) {
      if (cand32((uint64_t)o[0] | ((uint64_t)o[1] << 32), range, &off)) return off;
      if (cand32((uint64_t)o[2] | ((uint64_t)o[3] << 32), range, &off)) return off;
    } else {
      u128 x = (u128)((uint64_t)o[0] | ((uint64_t)o[1] << 32)) |
               ((u128)((uint64_t)o[2] | ((uint64_t)o[3] << 32)) << 64);
      if (cand64(x, range, &off)) return off;
    }
    memcpy(ctr, o, sizeof ctr);
    ctr[3] |= 0x80000000u;
  }
}

void rr_integers(void *dst, gpux_dtype dt, int64_t first, int64_t n, rr_state s, int64_t low,
                 int64_t high) {
  wcache c;
  c.valid = 0;
  const uint64_t range = (uint64_t)high - (uint64_t)low;
  for (int64_t i = 0; i < n; i++) {
    uint64_t off = int_offset(&c, dt, first + i, s, range, NULL);
    ref_value v;
    v.i = (int64_t)((uint64_t)low + off);
    ref_store(dt, dst, i, v); /* the low bits */
  }
}

void rr_integers_u64(uint64_t *dst, int64_t first, int64_t n, rr_state s, uint64_t low,
                     uint64_t high) {
  wcache c;
  c.valid = 0;
  const uint64_t range = high - low + 1u; /* 0: 2^64 */
  for (int64_t i = 0; i < n; i++) dst[i] = low + int_offset(&c, GPUX_UINT64, first + i, s, range, NULL);
}

int rr_integers_rejected(gpux_dtype dt, int64_t i, rr_state s, int64_t low, int64_t high) {
  wcache c;
  c.valid = 0;
  int rej = 0;
  (void)int_offset(&c, dt, i, s, (uint64_t)high - (uint64_t)low, &rej);
  return rej;
}

/* ------------------------------------------------------------------ bernoulli */

void rr_bernoulli(uint8_t *dst, int64_t first, int64_t n, rr_state s, double p) {
  wcache c;
  c.valid = 0;
  const uint64_t t = (uint64_t)round(p * 4294967296.0); /* exact product; 0 .. 2^32 */
  for (int64_t i = 0; i < n; i++) {
    uint32_t a = word_c(&c, s.seed, s.stream, s.pos + (uint64_t)(first + i));
    dst[i] = (uint64_t)a < t ? 1 : 0;
  }
}

/* ------------------------------------------------------------------ normal */

/* The exact Box-Muller pair of the documented mapping: radius sqrt(-2 ln u1) for u1 = v 2^-bits
 * (v odd), the point of the octant given by the three top bits of the angle word and
 * phi = (pi / 2) y. */
static void bm_point(long double u1, long double y, uint32_t top, long double *r,
                     long double *x0, long double *x1) {
  const long double half_pi = 1.570796326794896619231321691639751442L;
  const long double c = cosl(half_pi * y), sn = sinl(half_pi * y);
  const int swap = (top >> 29) & 1;
  *r = sqrtl(-2.0L * logl(u1));
  *x0 = swap ? sn : c;
  *x1 = swap ? c : sn;
  if (top >> 31) *x0 = -*x0;
  if ((top >> 30) & 1) *x1 = -*x1;
}

void rr_bm_f64(uint64_t xa, uint64_t xb, long double *r, long double *x0, long double *x1) {
  bm_point((long double)((xa >> 11) | 1u) * 0x1p-53L,
           (long double)((xb >> 11) & 0x3ffffffffffffull) * 0x1p-51L, (uint32_t)(xb >> 32), r,
           x0, x1);
}

/* The float32 ziggurat in long double (N = 4096 layers, m of 19 bits). The layers are
 * rebuilt here from r and v (the recursion of tools/random_poly.py, which long double
 * follows closely enough: every k_i comes out the same); only the integer thresholds k_i,
 * which define which words are accepted at once, are read from gpux_ziggurat.h (and checked
 * against these layers by the test). Values accepted at once are m x_i 2^-19 exactly; values
 * of the wedge or the tail follow the same retry chain as the library. The wedges are the
 * library's by definition: heights f(X_i), f(X_{i+1}) at the float edges X_i = w_i 2^19 of
 * the table (f(X_N) = 1), the candidate m X_i 2^-19 (all exact here). A test closer to its
 * boundary than float32 can resolve is reported as ambiguous (float32 arithmetic may decide
 * it the other way, and then the value is another one): a wedge test within
 * 2^-24 (4 X_i^2 + 12) f(x) (twice its float32 error: x and q = x^2 / 2 rounded, 3 q 2^-24
 * in f(x), f(X_i) likewise, gpux's exp within 2 ulp, the fma), a tail test within 2^-16. */
#define ZN GPUX_R_ZIG_N
#define ZMB (31 - GPUX_R_ZIG_BITS) /* the bits of m */
static const uint64_t zig_tab[ZN] = GPUX_R_ZIG_TAB;
static long double zig_x[ZN + 1];
static void zig_layers(void) {
  if (zig_x[1] != 0) return;
  const long double r = GPUX_R_ZIG_R_LD, v = GPUX_R_ZIG_V_LD;
  zig_x[0] = v / expl(-r * r / 2);
  zig_x[1] = r;
  for (int i = 1; i < ZN - 1; i++)
    zig_x[i + 1] = sqrtl(-2.0L * logl(expl(-zig_x[i] * zig_x[i] / 2) + v / zig_x[i]));
  zig_x[ZN] = 0;
}
long double rr_zig_x(int i) {
  zig_layers();
  return zig_x[i];
}
uint32_t rr_zig_k(int i) { return (uint32_t)zig_tab[i]; }

static long double zig_u24(uint32_t w) { return (long double)((w >> 8) | 1u) * 0x1p-24L; }
/* the float edge X_i = w_i 2^19 of layer i (X_N = 0) */
static long double zig_fx(unsigned i) {
  if (i >= ZN) return 0;
  uint32_t b = (uint32_t)(zig_tab[i] >> 32);
  float w;
  memcpy(&w, &b, sizeof w);
  return ldexpl((long double)w, ZMB);
}

long double rr_zig_value(uint32_t a, uint64_t g, uint64_t seed, uint64_t stream, int *ambiguous) {
  zig_layers();
  const long double r = zig_x[1];
  uint32_t ctr[4] = {(uint32_t)g, (uint32_t)(g >> 32), (uint32_t)stream,
                     (uint32_t)(stream >> 32) | 0x80000000u};
  uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)}, c[4];
  *ambiguous = 0;
  for (int it = 0; it < 64; it++) {
    rr_philox(c, ctr, key);
    if (it > 0) a = c[0];
    unsigned i = a & (ZN - 1u), m = a >> (GPUX_R_ZIG_BITS + 1);
    long double sign = (a >> GPUX_R_ZIG_BITS) & 1u ? -1.0L : 1.0L;
    long double x = ldexpl((long double)m * zig_x[i], -ZMB);
    if (m < (uint32_t)zig_tab[i]) return sign * x;
    if (i == 0) { /* the tail */
      long double t = -logl(zig_u24(c[1])) / r, y = -logl(zig_u24(c[2]));
      if (fabsl(2 * y - t * t) < 0x1p-16L * (t * t + 1e-30L)) *ambiguous = 1;
      if (2 * y > t * t) return sign * (r + t);
    } else { /* the wedge: a height uniform in [f(X_i), f(X_{i+1})) below f(x) */
      long double X = zig_fx(i), Xn = zig_fx(i + 1);
      x = ldexpl((long double)m * X, -ZMB);
      long double fi = expl(-X * X / 2), fn = expl(-Xn * Xn / 2);
      long double h = fi + (long double)(c[1] >> 8) * 0x1p-24L * (fn - fi), fx = expl(-x * x / 2);
      if (fabsl(h - fx) < (4 * X * X + 12) * 0x1p-24L * fx) *ambiguous = 1;
      if (h < fx) return sign * x;
    }
    memcpy(ctr, c, sizeof ctr);
    ctr[3] |= 0x80000000u;
  }
  return 0;
}

void rr_normal_exact(long double *z, long double *radius, gpux_dtype dt, int64_t first,
                     int64_t n, rr_state s) {
  rr_normal_exact2(z, radius, NULL, dt, first, n, s);
}

void rr_normal_exact2(long double *z, long double *radius, unsigned char *ambiguous,
                      gpux_dtype dt, int64_t first, int64_t n, rr_state s) {
  wcache c;
  c.valid = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = first + i, m = v / 2;
    long double r, x0, x1;
    if (dt == GPUX_FLOAT32) {
      uint64_t g = s.pos + (uint64_t)v;
      int amb;
      z[i] = rr_zig_value(word_c(&c, s.seed, s.stream, g), g, s.seed, s.stream, &amb);
      if (radius) radius[i] = fabsl(z[i]);
      if (ambiguous) ambiguous[i] = (unsigned char)amb;
      continue;
    }
    uint64_t g = s.pos + 4 * (uint64_t)m;
    uint64_t xa = (uint64_t)word_c(&c, s.seed, s.stream, g) |
                  ((uint64_t)word_c(&c, s.seed, s.stream, g + 1) << 32);
    uint64_t xb = (uint64_t)word_c(&c, s.seed, s.stream, g + 2) |
                  ((uint64_t)word_c(&c, s.seed, s.stream, g + 3) << 32);
    rr_bm_f64(xa, xb, &r, &x0, &x1);
    z[i] = r * ((v & 1) ? x1 : x0);
    if (radius) radius[i] = r;
    if (ambiguous) ambiguous[i] = 0;
  }
}

double rr_normal_tol(gpux_dtype dt, long double z, long double r) {
  long double az = z < 0 ? -z : z;
  if (dt == GPUX_FLOAT32) return (double)(0x1p-24L * (4.0L * az + 2.0L * r) + 0x1p-60L);
  return (double)(0x1p-53L * (6.0L * az + 2.0L * r) + 0x1p-200L);
}
