/* gpux tests: random numbers (include/gpux/random.h) on the backend GPUX_BACKEND picks,
 * against the independent reference of tests/ref/ref_random.c (written from the documented
 * algorithm, not from kernels/common/gpux_random.h) and against gpux_random_*_host.
 *
 *   kat          Random123's three known-answer vectors of Philox4x32-10, through
 *                gpux_philox4x32_10 and through the reference's Philox; the GPU loops'
 *                form for blocks of one high counter word (gpux_r_block_hk) against the
 *                reference's words.
 *   draws        every (distribution, dtype) with several parameter sets (uniform [0, 1) and
 *                [-3.5, 7.25), [0.1, 0.7), [1e6, 1e6 + 1) (fma rounds up to high: the value
 *                below high instead); normal standard and (mean, std), std 0; integers
 *                [0, 1), [0, 3), [-7, 1000003), [INT32_MIN, 2^31), ranges that do not divide
 *                2^32, [-2^62, 2^62 + 12345), [INT64_MIN, INT64_MAX); the other integer
 *                dtypes over their whole range and a part of it; bernoulli p = 0, 0.3, 1)
 *                at sizes 0, 1, 2, 3, 5, 1001, 4099 and positions 0, 1, 2, 3, 5, 2^32 - 1,
 *                2^40 - 3, 2^40 + 2 (draws that start mid-block), several seeds and streams
 *                (up to 2^63 - 1), into outputs poisoned with NaN / 0x7f bytes:
 *                  device bytes == gpux_random_*_host bytes, and
 *                  uniform, integers, bernoulli: == the reference, bit for bit;
 *                  normal: the standard normal of _host within RR_NORMAL_TOL of the exact
 *                  long double value of the same words (float32: the ziggurat, skipping the
 *                  rare values whose accept test is too close to call; float64:
 *                  Box-Muller; ref_random.h states the bound), and normal(mean, std) ==
 *                  fma(z, std, mean) of _host's standard normal, bit for bit;
 *                the position advances by gpux_random_words == the documented rule; _host
 *                with first > 0 gives the tail of the same values.
 *   big          2^22 + 3 values of every (distribution, dtype) from position 2^32 - 1.
 *   views        outputs as strided views (step 2 / -2), reversed views, 1-d slices with
 *                offset 1 and 4 (contiguous, written in place: unaligned and aligned vector
 *                stores), a 2-d sub-block, a 3-d step-3 view: values in row-major order of the
 *                view, the rest of the base still poison. (A transposed view cannot be made
 *                through the public API: gpux_array_transpose copies.)
 *   split_draws  two draws of n == one draw of 2n (n even for float64 normals, odd too
 *                otherwise).
 *   zig_paths    the float32 normals of `big` include values of the ziggurat's wedges and
 *                tail (counted from the reference's words and thresholds).
 *   zig_queue    float32 normals (2^20 + 3 aligned, 2^18 + 1 mid-block, 4099 from position 1)
 *                in new contexts with other GPUX_RANDOM_ZIG settings of the GPU kernels'
 *                queue of slow values: flushed at every check with capacity 1 (nearly all
 *                resolved inline), one check at the end with small capacity (overflows),
 *                frequent small flushes, "inline", the default;
 *                device == _host bit for bit (CPU devices ignore the settings; CI runs the
 *                GPU form on pocl with GPUX_OPENCL_ELEMS_PER_ITEM=4).
 *   retry        an int32 value whose first Lemire candidate is rejected (a position found by
 *                a search: probability ~2^-32 per value), so the retry chain is exercised; an
 *                int64 rejection (probability < 2^-64) cannot be found and is not tested.
 *   create       gpux_rand / randn / randint with 3-d, 0-d and empty shapes.
 *   generator    create, get/set state, stream >= 2^63 rejected, split (children's streams
 *                as documented, reproducible, parent advanced 2n words), release(NULL).
 *   permutation  n = 0, 1, 2, 1000: a permutation, equal to a host Fisher-Yates built from
 *                the reference's int64 integers (the draw rule of src/api/random.c).
 *   statistics   fixed seeds, 2^22 values each (see the thresholds below).
 *   accuracy     float32: gpux's ln over every input (< 1 ulp), exp(-q) on [0, 10) (< 2 ulp),
 *                the ziggurat's thresholds against layers rebuilt in long double, its fast
 *                path's fma form == +-m w_i bit for bit (+0 for m = 0); float64:
 *                the Box-Muller radius and cos/sin over 2^20 random words, against long
 *                double libm: the bounds the normal tolerance assumes (radius < 1.7 ulp,
 *                cos/sin < 1.4 2^-53).
 *   errors       NULL generator / array / dst, wrong dtypes, bad parameters, int32 ranges
 *                outside int32, a draw past word 2^64, word counts past 2^64: the status, a
 *                message naming the problem, the generator unchanged, nothing leaked, the
 *                context usable; errors_f32_params: normal float32 with a mean or std beyond
 *                float32 (1e39).
 *
 * STATISTICS (N = 2^22 values, fixed seeds; thresholds are deliberately loose so a correct
 * generator fails with probability ~1e-6 at most per check, while a biased mapping fails):
 *   mean, variance of uniform [0, 1) and normal(0, 1): |estimate - exact| <= 6 standard
 *     errors (uniform: SE(mean) = sqrt(1/12 / N), SE(var) = sqrt((1/80 - 1/144) / N);
 *     normal: SE(mean) = 1 / sqrt(N), SE(var) = sqrt(2 / N));
 *   chi-square, equiprobable bins: uniform 100 bins, normal 100 bins of the normal CDF,
 *     integers [0, 10) 10 bins: statistic <= the p = 1e-6 critical value (df 99: 180.79,
 *     df 9: 44.81; computed with mpmath);
 *   bernoulli p = 0.3: |frequency - 0.3| <= 6 sqrt(p (1 - p) / N); p = 0 all 0, p = 1 all 1.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "test_util.h"
#include "gpux/random.h"
#include "ref_random.h"
/* the accuracy test measures gpux's own log / sqrt / sin / cos directly */
#include "../kernels/common/gpux_random.h"

#define U GPUX_RANDOM_UNIFORM
#define NRM GPUX_RANDOM_NORMAL
#define INTS GPUX_RANDOM_INTEGERS
#define BERN GPUX_RANDOM_BERNOULLI
#define P32 ((int64_t)1 << 32)
#define P31 ((int64_t)1 << 31)
#define P62 ((int64_t)1 << 62)

#define CHI2_99 180.79 /* chi-square df 99, upper tail 1e-6 */
#define CHI2_9 44.81   /* df 9 */

/* ------------------------------------------------------------------ cases */

typedef struct rcase {
  int kind;
  gpux_dtype dt;
  double fa, fb;  /* uniform low/high, normal mean/std, bernoulli p */
  int64_t ia, ib; /* integers low/high */
  int closed;     /* integers: gpux_random_integers_u64 over [(uint64)ia, (uint64)ib] */
} rcase;
#define U64C(lo, hi) {INTS, GPUX_UINT64, 0, 0, (int64_t)(uint64_t)(lo), (int64_t)(uint64_t)(hi), 1}

static const rcase k_cases[] = {
    {U, GPUX_FLOAT32, 0.0, 1.0, 0, 0, 0},
    {U, GPUX_FLOAT32, -3.5, 7.25, 0, 0, 0},
    {U, GPUX_FLOAT32, 0.1, 0.7, 0, 0, 0}, /* constants rounded to float32 */
    {U, GPUX_FLOAT64, 0.0, 1.0, 0, 0, 0},
    {U, GPUX_FLOAT64, -3.5, 7.25, 0, 0, 0},
    {U, GPUX_FLOAT64, 1e-3, 1e6 / 3, 0, 0, 0},
    {U, GPUX_FLOAT32, 1e6, 1e6 + 1, 0, 0, 0}, /* fma rounds up to high: replaced by the value below */
    {U, GPUX_FLOAT64, 1e15, 1e15 + 1, 0, 0, 0},
    {NRM, GPUX_FLOAT32, 0.0, 1.0, 0, 0, 0},
    {NRM, GPUX_FLOAT32, 2.5, 0.75, 0, 0, 0},
    {NRM, GPUX_FLOAT32, -1.5, 0.0, 0, 0, 0}, /* std 0: every value is the mean */
    {NRM, GPUX_FLOAT64, 0.0, 1.0, 0, 0, 0},
    {NRM, GPUX_FLOAT64, -1e3, 3.25, 0, 0, 0},
    {INTS, GPUX_INT32, 0, 0, 0, 1, 0},
    {INTS, GPUX_INT32, 0, 0, 0, 3, 0},
    {INTS, GPUX_INT32, 0, 0, -7, 1000003, 0},
    {INTS, GPUX_INT32, 0, 0, INT32_MIN, P31, 0},
    {INTS, GPUX_INT32, 0, 0, INT32_MIN + 5, INT32_MIN + 5 + 3000000019LL, 0}, /* range 3e9 + 19 */
    {INTS, GPUX_INT32, 0, 0, INT32_MIN, 2147418113, 0},       /* range 2^32 - 65535 */
    {INTS, GPUX_INT64, 0, 0, 0, 1, 0},
    {INTS, GPUX_INT64, 0, 0, 0, 3, 0},
    {INTS, GPUX_INT64, 0, 0, -7, 1000003, 0},
    {INTS, GPUX_INT64, 0, 0, INT32_MIN, P31, 0},
    {INTS, GPUX_INT64, 0, 0, -P62, P62 + 12345, 0},
    {INTS, GPUX_INT64, 0, 0, INT64_MIN, INT64_MAX, 0},
    {INTS, GPUX_INT64, 0, 0, -5, 3 * (P62 / 2) + 7, 0}, /* range 3 2^61 + 12 */
    {INTS, GPUX_INT8, 0, 0, -128, 128, 0},
    {INTS, GPUX_INT8, 0, 0, -3, 7, 0},
    {INTS, GPUX_UINT8, 0, 0, 0, 256, 0},
    {INTS, GPUX_INT16, 0, 0, -32768, 32768, 0},
    {INTS, GPUX_INT16, 0, 0, -7, 1003, 0},
    {INTS, GPUX_UINT16, 0, 0, 0, 65536, 0},
    {INTS, GPUX_UINT32, 0, 0, 0, 2 * P31, 0},
    {INTS, GPUX_UINT32, 0, 0, 5, 5 + 3000000019LL, 0},
    {INTS, GPUX_UINT64, 0, 0, 0, INT64_MAX, 0},
    {INTS, GPUX_UINT64, 0, 0, 3, 3 * (P62 / 2) + 7, 0},
    U64C(0, UINT64_MAX), /* the whole range: range 2^64 */
    U64C(UINT64_C(1) << 63, UINT64_MAX),
    U64C(UINT64_MAX - 5, UINT64_MAX),
    U64C(3, 3 * (P62 / 2) + 6), /* = [3, 3 2^61 + 7) above */
    U64C(12345, 12345),
    {BERN, GPUX_BOOL, 0.0, 0, 0, 0, 0},
    {BERN, GPUX_BOOL, 0.3, 0, 0, 0, 0},
    {BERN, GPUX_BOOL, 1.0, 0, 0, 0, 0},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

static const char *kind_str(int kind) {
  static const char *n[] = {"uniform", "normal", "integers", "bernoulli"};
  return kind >= 0 && kind < 4 ? n[kind] : "?";
}

static const char *case_str(char *buf, size_t cap, const rcase *c) {
  if (c->closed)
    snprintf(buf, cap, "integers_u64 [%" PRIu64 ", %" PRIu64 "]", (uint64_t)c->ia,
             (uint64_t)c->ib);
  else if (c->kind == INTS)
    snprintf(buf, cap, "%s %s [%" PRId64 ", %" PRId64 ")", kind_str(c->kind), gt_dtype_str(c->dt),
             c->ia, c->ib);
  else if (c->kind == BERN)
    snprintf(buf, cap, "bernoulli p=%g", c->fa);
  else
    snprintf(buf, cap, "%s %s (%g, %g)", kind_str(c->kind), gt_dtype_str(c->dt), c->fa, c->fb);
  return buf;
}

static size_t esz(gpux_dtype dt) { return ref_dtype_size(dt); }

static rr_state to_rr(const gpux_rng_state *s) {
  rr_state r = {s->seed, s->stream, s->position};
  return r;
}

static gpux_generator_t make_gen(uint64_t seed, uint64_t stream, uint64_t pos) {
  gpux_generator_t g = NULL;
  GT_OK(gpux_generator_create(&g, seed));
  gpux_rng_state st = {seed, stream, pos};
  GT_OK(gpux_generator_set_state(g, &st));
  return g;
}

static gpux_rng_state get_state(gpux_generator_t g) {
  gpux_rng_state s;
  GT_OK(gpux_generator_get_state(&s, g));
  return s;
}

/* the device draw of c into out */
static gpux_status dev_draw(const rcase *c, gpux_array_t out, gpux_generator_t g) {
  switch (c->kind) {
    case U: return gpux_random_uniform(out, g, c->fa, c->fb);
    case NRM: return gpux_random_normal(out, g, c->fa, c->fb);
    case INTS:
      return c->closed ? gpux_random_integers_u64(out, g, (uint64_t)c->ia, (uint64_t)c->ib)
                       : gpux_random_integers(out, g, c->ia, c->ib);
    default: return gpux_random_bernoulli(out, g, c->fa);
  }
}

/* gpux_random_*_host */
static gpux_status host_draw(const rcase *c, void *dst, int64_t first, int64_t n,
                             const gpux_rng_state *st) {
  switch (c->kind) {
    case U: return gpux_random_uniform_host(dst, c->dt, first, n, st, c->fa, c->fb);
    case NRM: return gpux_random_normal_host(dst, c->dt, first, n, st, c->fa, c->fb);
    case INTS:
      return c->closed ? gpux_random_integers_u64_host(dst, first, n, st, (uint64_t)c->ia,
                                                       (uint64_t)c->ib)
                       : gpux_random_integers_host(dst, c->dt, first, n, st, c->ia, c->ib);
    default: return gpux_random_bernoulli_host(dst, first, n, st, c->fa);
  }
}

static void fmt_val(char *b, size_t cap, gpux_dtype dt, const void *p, int64_t i) {
  if (dt == GPUX_UINT64) snprintf(b, cap, "%" PRIu64, ((const uint64_t *)p)[i]);
  else if (ref_dtype_is_int(dt)) snprintf(b, cap, "%" PRId64, ref_load(dt, p, i).i);
  else if (dt == GPUX_FLOAT32) snprintf(b, cap, "%.9g (0x%08x)", ((const float *)p)[i],
                                        ((const uint32_t *)p)[i]);
  else snprintf(b, cap, "%.17g", ref_load_f64(dt, p, i));
}

/* bytes equal; on a difference, fails naming the first and the count */
static void expect_same(const char *label, const char *what, gpux_dtype dt, const void *got,
                        const void *want, int64_t n) {
  size_t es = esz(dt);
  if (n <= 0 || memcmp(got, want, (size_t)n * es) == 0) return;
  int64_t first = -1, bad = 0;
  for (int64_t i = 0; i < n; i++)
    if (memcmp((const char *)got + i * es, (const char *)want + i * es, es)) {
      if (first < 0) first = i;
      bad++;
    }
  char a[64], b[64];
  fmt_val(a, sizeof a, dt, got, first);
  fmt_val(b, sizeof b, dt, want, first);
  GT_FAIL("%s: %s: %" PRId64 " of %" PRId64 " values differ; first [%" PRId64 "]: %s, expected %s",
          label, what, bad, n, first, a, b);
}

/* the independent reference of values first .. first + n - 1 (not normals) */
static void ref_draw(const rcase *c, void *dst, int64_t first, int64_t n, const gpux_rng_state *st) {
  rr_state s = to_rr(st);
  if (c->kind == U) rr_uniform(dst, c->dt, first, n, s, c->fa, c->fb);
  else if (c->closed) rr_integers_u64(dst, first, n, s, (uint64_t)c->ia, (uint64_t)c->ib);
  else if (c->kind == INTS) rr_integers(dst, c->dt, first, n, s, c->ia, c->ib);
  else rr_bernoulli(dst, first, n, s, c->fa);
}

/* Normals: _host's values (host, first .. first + n - 1) against the exact values
 * within RR_NORMAL_TOL, and for (mean, std) != (0, 1) equal to fma(z, std, mean) of _host's
 * standard normals. Returns the largest error in units of the tolerance. */
static double check_normals(const char *label, const rcase *c, const void *host, int64_t first,
                            int64_t n, const gpux_rng_state *st) {
  if (n <= 0) return 0;
  size_t es = esz(c->dt);
  void *z = gt_malloc((size_t)n * es);
  GT_OK(gpux_random_normal_host(z, c->dt, first, n, st, 0.0, 1.0));
  if (!(c->fa == 0.0 && c->fb == 1.0)) {
    void *want = gt_malloc((size_t)n * es);
    for (int64_t i = 0; i < n; i++) {
      if (c->dt == GPUX_FLOAT32)
        ((float *)want)[i] = fmaf(((float *)z)[i], (float)c->fb, (float)c->fa);
      else
        ((double *)want)[i] = fma(((double *)z)[i], c->fb, c->fa);
    }
    expect_same(label, "normal(mean, std) vs fma(standard normal, std, mean)", c->dt, host, want, n);
    free(want);
  }
  long double *ze = gt_malloc((size_t)n * sizeof *ze), *re = gt_malloc((size_t)n * sizeof *re);
  unsigned char *amb = gt_malloc((size_t)n);
  rr_normal_exact2(ze, re, amb, c->dt, first, n, to_rr(st));
  double worst = 0;
  int64_t bad = 0, firstbad = -1, namb = 0;
  for (int64_t i = 0; i < n; i++) {
    double got = ref_load_f64(c->dt, z, i);
    if (amb[i]) { /* the float32 ziggurat's accept test too close to call: skipped, counted */
      namb++;
      continue;
    }
    double tol = rr_normal_tol(c->dt, ze[i], re[i]);
    double err = fabs((double)((long double)got - ze[i]));
    if (!(err <= tol)) {
      if (firstbad < 0) firstbad = i;
      bad++;
    }
    if (err / tol > worst) worst = err / tol;
  }
  if (bad) {
    int64_t i = firstbad;
    double got = ref_load_f64(c->dt, z, i);
    free(z);
    GT_FAIL("%s: %" PRId64 " of %" PRId64 " standard normals outside the tolerance; first [%" PRId64
            "]: %.17g, exact %.21Lg (radius %.10Lg), tolerance %.3g",
            label, bad, n, first + i, got, ze[i], re[i], rr_normal_tol(c->dt, ze[i], re[i]));
  }
  /* ambiguous tests are rare (about 2^-16 of the 0.12% of words that reach them) */
  GT_ASSERT(namb * 10000 <= n + 10000, "%s: %" PRId64 " of %" PRId64 " normals ambiguous", label,
            namb, n);
  free(z);
  free(ze);
  free(re);
  free(amb);
  return worst;
}

/* An output poisoned with NaN bytes (floats) or 0x7f bytes (integers, bool). */
static gpux_array_t poisoned_out(gpux_dtype dt, int ndim, const int64_t *shape) {
  unsigned char byte = (dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64) ? 0xff : 0x7f;
  return gt_filled_bytes(dt, ndim, shape, byte);
}

static uint64_t doc_words(const rcase *c, int64_t n) { return rr_words(c->kind, c->dt, n); }

/* The full check of one draw: poisoned output of shape {n}, device draw, advance, device ==
 * host == reference; host with first > 0. */
static void check_one(const rcase *c, int64_t n, uint64_t seed, uint64_t stream, uint64_t pos) {
  char cs[96], label[256];
  case_str(cs, sizeof cs, c);
  snprintf(label, sizeof label, "%s n=%" PRId64 " seed=%#" PRIx64 " stream=%#" PRIx64
                                " pos=%#" PRIx64, cs, n, seed, stream, pos);
  gpux_generator_t g = make_gen(seed, stream, pos);
  gpux_rng_state st0 = get_state(g);
  const int64_t shape[1] = {n};
  gpux_array_t out = poisoned_out(c->dt, 1, shape);
  GT_OK(dev_draw(c, out, g));
  gpux_rng_state st1 = get_state(g);
  uint64_t w = 0;
  GT_OK(gpux_random_words(&w, (gpux_random_kind)c->kind, c->dt, n));
  GT_ASSERT(w == doc_words(c, n), "%s: gpux_random_words = %" PRIu64 ", documented %" PRIu64,
            label, w, doc_words(c, n));
  GT_ASSERT(st1.seed == st0.seed && st1.stream == st0.stream && st1.position == st0.position + w,
            "%s: state after the draw (%#" PRIx64 ", %#" PRIx64 ", %#" PRIx64 "), expected position %#" PRIx64,
            label, st1.seed, st1.stream, st1.position, st0.position + w);
  size_t es = esz(c->dt);
  void *dev = gt_malloc((size_t)n * es), *host = gt_malloc((size_t)n * es);
  if (n > 0) GT_OK(gpux_array_read(out, dev, (size_t)n * es));
  memset(host, 0x5a, (size_t)n * es);
  GT_OK(host_draw(c, host, 0, n, &st0));
  expect_same(label, "device vs gpux_random_*_host", c->dt, dev, host, n);
  /* every value in its range */
  for (int64_t i = 0; i < n; i++) {
    double v = ref_load_f64(c->dt, dev, i);
    if (c->kind == U) {
      double lo = c->dt == GPUX_FLOAT32 ? (double)(float)c->fa : c->fa;
      double hi = c->dt == GPUX_FLOAT32 ? (double)(float)c->fb : c->fb;
      GT_ASSERT(v >= lo && v < hi, "%s: [%" PRId64 "] = %.17g outside [low, high)", label, i, v);
    } else if (c->closed) {
      const uint64_t x = ((const uint64_t *)dev)[i];
      GT_ASSERT(x >= (uint64_t)c->ia && x <= (uint64_t)c->ib,
                "%s: [%" PRId64 "] = %" PRIu64 " outside [low, high]", label, i, x);
    } else if (c->kind == INTS) {
      int64_t x = ref_load(c->dt, dev, i).i; /* uint64: ranges below 2^63 */
      GT_ASSERT(x >= c->ia && x < c->ib, "%s: [%" PRId64 "] = %" PRId64 " outside [low, high)",
                label, i, x);
    } else if (c->kind == BERN) {
      GT_ASSERT(v == (c->fa == 0 ? 0 : c->fa == 1 ? 1 : v) && (v == 0 || v == 1),
                "%s: [%" PRId64 "] = %g (p = %g)", label, i, v, c->fa);
    }
  }
  if (c->kind == NRM) {
    double worst = check_normals(label, c, host, 0, n, &st0);
    if (n == GT_2P22_PLUS_3) print_message("%s: largest error %.3f of the tolerance\n", label, worst);
    if (c->fb == 0.0)
      for (int64_t i = 0; i < n; i++)
        GT_ASSERT(ref_load_f64(c->dt, dev, i) == (c->dt == GPUX_FLOAT32 ? (double)(float)c->fa : c->fa),
                  "%s: std 0: [%" PRId64 "] = %.17g, not the mean", label, i, ref_load_f64(c->dt, dev, i));
  } else {
    void *ref = gt_malloc((size_t)n * es);
    ref_draw(c, ref, 0, n, &st0);
    expect_same(label, "device vs the independent reference", c->dt, dev, ref, n);
    free(ref);
  }
  /* values first .. n - 1 from _host with first > 0 */
  if (n >= 2) {
    int64_t f = n / 3 + 1, m = n - f;
    void *tail = gt_malloc((size_t)m * es);
    GT_OK(host_draw(c, tail, f, m, &st0));
    expect_same(label, "_host with first > 0 vs the same values of a draw from 0", c->dt, tail,
                (char *)host + (size_t)f * es, m);
    free(tail);
  }
  free(dev);
  free(host);
  gpux_array_release(out);
  gpux_generator_release(g);
}

/* ------------------------------------------------------------------ integers_u64 */

/* gpux_random_integers_u64 against gpux_random_integers where both can ask for the range,
 * and the whole range's high half about as often as the low one. (The draws themselves:
 * the U64C cases of k_cases, device == host == reference.) */
static void test_integers_u64(void **state) {
  (void)state;
  enum { N = 4099 };
  const int64_t shape[1] = {N};
  const struct { int64_t lo, hi; } r[] = {{0, 1}, {3, 1000003}, {0, INT64_MAX}, {5, P62 + 99}};
  uint64_t *a = gt_malloc(N * sizeof *a), *b = gt_malloc(N * sizeof *b);
  for (size_t k = 0; k < sizeof r / sizeof r[0]; k++) {
    gpux_generator_t g = make_gen(77 + k, 5, 3 * k);
    gpux_rng_state st = get_state(g);
    gpux_array_t out = poisoned_out(GPUX_UINT64, 1, shape);
    GT_OK(gpux_random_integers_u64(out, g, (uint64_t)r[k].lo, (uint64_t)r[k].hi - 1u));
    GT_OK(gpux_array_read(out, a, N * sizeof *a));
    GT_OK(gpux_random_integers_host(b, GPUX_UINT64, 0, N, &st, r[k].lo, r[k].hi));
    char label[96];
    snprintf(label, sizeof label, "integers_u64 [%" PRId64 ", %" PRId64 " - 1]", r[k].lo, r[k].hi);
    expect_same(label, "vs gpux_random_integers [low, high)", GPUX_UINT64, a, b, N);
    gpux_array_release(out);
    gpux_generator_release(g);
  }
  /* the whole range: P(value >= 2^63) = 1/2; 6 standard deviations (sqrt(N) / 2 each) */
  {
    gpux_generator_t g = make_gen(2026, 1, 0);
    gpux_array_t out = poisoned_out(GPUX_UINT64, 1, shape);
    GT_OK(gpux_random_integers_u64(out, g, 0, UINT64_MAX));
    GT_OK(gpux_array_read(out, a, N * sizeof *a));
    int64_t hi = 0, odd = 0;
    for (int i = 0; i < N; i++) {
      hi += (int64_t)(a[i] >> 63);
      odd += (int64_t)(a[i] & 1u);
    }
    GT_ASSERT(llabs(2 * hi - N) <= 6 * 64 && llabs(2 * odd - N) <= 6 * 64,
              "integers_u64 [0, 2^64 - 1]: %" PRId64 " of %d values >= 2^63, %" PRId64 " odd", hi,
              N, odd);
    gpux_array_release(out);
    gpux_generator_release(g);
  }
  free(a);
  free(b);
}

/* ------------------------------------------------------------------ kat */

static void test_kat(void **state) {
  (void)state;
  static const uint32_t ctr[3][4] = {{0, 0, 0, 0},
                                     {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                                     {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  static const uint32_t key[3][2] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
  static const uint32_t want[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                      {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                      {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  for (int v = 0; v < 3; v++) {
    uint32_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    GT_OK(gpux_philox4x32_10(a, ctr[v], key[v]));
    rr_philox(b, ctr[v], key[v]);
    for (int k = 0; k < 4; k++) {
      GT_ASSERT(a[k] == want[v][k], "KAT %d: gpux_philox4x32_10 word %d = %08x, expected %08x", v,
                k, a[k], want[v][k]);
      GT_ASSERT(b[k] == want[v][k], "KAT %d: reference Philox word %d = %08x, expected %08x", v, k,
                b[k], want[v][k]);
    }
  }
  /* the stream: word g of (seed, stream) is word g % 4 of the block g / 4 (the API's engine
   * with the documented counter and key, against the reference's rr_word) */
  const uint64_t seed = 0x0123456789abcdefull, stream = 0x7edcba9876543210ull;
  const uint64_t gs[] = {0, 1, 2, 3, 4, 5, 0xfffffffdull, 0xffffffffull, 0x100000000ull,
                         ((uint64_t)1 << 40) + 7, UINT64_MAX};
  for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
    uint64_t g = gs[i], B = g / 4;
    uint32_t c4[4] = {(uint32_t)B, (uint32_t)(B >> 32), (uint32_t)stream, (uint32_t)(stream >> 32)};
    uint32_t k2[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)}, o[4];
    GT_OK(gpux_philox4x32_10(o, c4, k2));
    GT_ASSERT(o[g % 4] == rr_word(seed, stream, g), "word %#" PRIx64 ": %08x vs reference %08x", g,
              o[g % 4], rr_word(seed, stream, g));
  }
  /* The GPU loops' Philox for blocks of one high counter word (gpux_r_hk, gpux_r_block_hk:
   * two rounds' work shared) against the reference's words, at high words 0, 1 and 2^30 - 1
   * (the last whose blocks' words are all below 2^64) and low words around 0 and 2^32 - 1,
   * with several seeds and streams */
  {
    const uint64_t seeds[] = {seed, 0, UINT64_MAX}, streams[] = {stream, 0, 0x7fffffffffffffffull};
    const uint32_t his[] = {0, 1, 0x3fffffffu};
    const uint32_t los[] = {0, 1, 0x9e3779b9u, 0xfffffffeu, 0xffffffffu};
    for (int si = 0; si < 3; si++)
      for (int hi = 0; hi < 3; hi++) {
        const gpux_rkeys ks = gpux_r_keys(seeds[si]);
        const gpux_rhk h = gpux_r_hk(his[hi], GPUX_R_PRE(streams[si]), streams[si], &ks);
        for (int li = 0; li < 5; li++) {
          const uint64_t B = (uint64_t)his[hi] << 32 | los[li];
          const gpux_r4 w = gpux_r_block_hk(los[li], &h, &ks);
          const uint32_t o[4] = {w.x, w.y, w.z, w.w};
          for (int k = 0; k < 4; k++)
            GT_ASSERT(o[k] == rr_word(seeds[si], streams[si], 4 * B + (uint64_t)k),
                      "gpux_r_block_hk block %#" PRIx64 " word %d = %08x, reference %08x", B, k,
                      o[k], rr_word(seeds[si], streams[si], 4 * B + (uint64_t)k));
        }
      }
  }
  /* the float32 [0, 1) mapping from the words themselves: (a >> 8) 2^-24 */
  gpux_rng_state st = {seed, stream, 6};
  float h[8];
  GT_OK(gpux_random_uniform_host(h, GPUX_FLOAT32, 0, 8, &st, 0.0, 1.0));
  for (int i = 0; i < 8; i++)
    GT_ASSERT(h[i] == (float)(rr_word(seed, stream, 6 + (uint64_t)i) >> 8) * 0x1p-24f,
              "uniform float32 value %d = %.9g is not (word >> 8) 2^-24", i, h[i]);
  /* (a >> 8) 2^-24 can be 0, never 1 */
  GT_ASSERT(rr_wpv(U, GPUX_FLOAT32) == 1 && rr_words(NRM, GPUX_FLOAT64, 3) == 8 &&
                rr_words(INTS, GPUX_INT64, 5) == 20 && rr_words(NRM, GPUX_FLOAT32, 0) == 0,
            "reference word counts");
}

/* ------------------------------------------------------------------ draws */

static void test_draws(void **state) {
  const rcase *c = (const rcase *)*state;
  static const int64_t sizes[] = {0, 1, 2, 3, 5, 1001, 4099};
  static const uint64_t positions[] = {0, 1, 2, 3, 5, 0xffffffffull, ((uint64_t)1 << 40) - 3,
                                       ((uint64_t)1 << 40) + 2};
  const size_t ns = sizeof sizes / sizeof sizes[0], np = sizeof positions / sizeof positions[0];
  for (size_t si = 0; si < ns; si++)
    for (size_t pi = 0; pi < np; pi++) {
      uint64_t seed = 0x9e3779b97f4a7c15ull * (si * np + pi + 1);
      uint64_t stream = (pi % 3 == 0) ? 0 : (pi % 3 == 1) ? 0x123456789ull : (UINT64_C(1) << 63) - 1;
      check_one(c, sizes[si], seed, stream, positions[pi]);
    }
  /* near the end of the word space: the last words below 2^64 */
  check_one(c, 1, 42, 7, UINT64_MAX - 8);
}

static void test_big(void **state) {
  const rcase *c = (const rcase *)*state;
  check_one(c, GT_2P22_PLUS_3, 20261130, 3, 0xffffffffull);
}

/* ------------------------------------------------------------------ ziggurat */

/* The words of test_big's float32 normal draw reach every path of the ziggurat: fast
 * accepts, wedges (layers 1..4095) and the tail (layer 0), each classified here from the
 * reference's words and thresholds; test_big compares all of them bit for bit. */
static void test_zig_paths(void **state) {
  (void)state;
  const uint64_t seed = 20261130, stream = 3, pos = 0xffffffffull;
  int64_t slow = 0, tail = 0, wedge = 0, rounds = 0, slow_rounds = 0;
  int in_round = 0;
  for (int64_t i = 0; i < GT_2P22_PLUS_3; i++) {
    uint32_t a = rr_word(seed, stream, pos + (uint64_t)i);
    const int layer = (int)(a & (GPUX_R_ZIG_N - 1u));
    if (i % 128 == 0) { /* a warp round of the CUDA kernel: 32 threads, 4 values each */
      rounds++;
      in_round = 0;
    }
    if ((a >> GPUX_R_ZIG_MSHIFT) < rr_zig_k(layer)) continue;
    slow++;
    slow_rounds += !in_round;
    in_round = 1;
    if (layer == 0) tail++;
    else wedge++;
  }
  print_message("float32 normals, %" PRId64 " values: %" PRId64 " by the slow path (%.3f%%): %" PRId64
                " wedge, %" PRId64 " tail; %.1f%% of %" PRId64 " rounds of 128 values meet one\n",
                (int64_t)GT_2P22_PLUS_3, slow, 100.0 * (double)slow / GT_2P22_PLUS_3, wedge, tail,
                100.0 * (double)slow_rounds / (double)rounds, rounds);
  /* expected (gpux_ziggurat.h): 0.12% slow, 1 - k_0 / 2^19 = 4.7% of layer 0 (48) in the tail */
  GT_ASSERT(tail > 20 && wedge > 4000, "the big draw has %" PRId64 " tail and %" PRId64 " wedge values",
            tail, wedge);
}

/* The GPU kernels' queue of blocks with a slow value under other settings (GPUX_RANDOM_ZIG,
 * read by a new context): resolved at every check, with a capacity of 1 (nearly every such
 * block fixed inline), checked only at the end with a capacity of 48 (a work-group of 256
 * meets about 1.2 such blocks a round: the queue overflows), frequent small flushes that
 * sometimes overflow, no queue, a more frequent check and the default. The same bits as
 * _host each time; CPU devices ignore the settings. */
static void test_zig_queue(void **state) {
  (void)state;
  static const char *const settings[] = {"1,1,1",  "255,40,48",  "3,4,6",
                                         "inline", "8,192,256", "32,192,256"};
  const rcase *c = NULL, *std = NULL; /* normal(2.5, 0.75) and normal(0, 1), float32 */
  for (size_t ci = 0; ci < NCASES; ci++)
    if (k_cases[ci].kind == NRM && k_cases[ci].dt == GPUX_FLOAT32) {
      if (k_cases[ci].fa == 0.0) std = &k_cases[ci];
      else if (k_cases[ci].fb != 0.0) c = &k_cases[ci];
    }
  gpux_context_t saved = gt_ctx;
  const char *env = getenv("GPUX_RANDOM_ZIG");
  char old[64] = "";
  if (env) snprintf(old, sizeof old, "%s", env);
  for (size_t si = 0; si < sizeof settings / sizeof settings[0]; si++) {
    setenv("GPUX_RANDOM_ZIG", settings[si], 1);
    gt_ctx = gt_context_new();
    print_message("GPUX_RANDOM_ZIG=%s\n", settings[si]);
    check_one(std, ((int64_t)1 << 20) + 3, 77 + si, 5, 0);          /* aligned */
    check_one(c, ((int64_t)1 << 18) + 1, 99 + si, 1, ((uint64_t)1 << 40) + 2); /* mid-block */
    check_one(std, 4099, 5 + si, 0, 1);
    gpux_context_release(gt_ctx);
    gt_ctx = saved;
  }
  if (env) setenv("GPUX_RANDOM_ZIG", old, 1);
  else unsetenv("GPUX_RANDOM_ZIG");
}

/* ------------------------------------------------------------------ views */

/* a view of a poisoned base by gpux_array_slice with positive steps; map: logical -> base */
typedef struct pview {
  gpux_array_t base, view;
  int64_t n, base_n, *map;
  gpux_dtype dt;
} pview;

static void pview_make(pview *v, gpux_dtype dt, int nd, const int64_t *bshape, const int64_t *start,
                       const int64_t *shape, const int64_t *step) {
  memset(v, 0, sizeof *v);
  v->dt = dt;
  v->base = poisoned_out(dt, nd, bshape);
  int64_t stop[GPUX_MAX_DIMS], bstr[GPUX_MAX_DIMS], idx[GPUX_MAX_DIMS] = {0};
  for (int d = 0; d < nd; d++) stop[d] = start[d] + (shape[d] - 1) * step[d] + 1;
  GT_OK(gpux_array_slice(&v->view, v->base, start, stop, step));
  gt_check_shape(v->view, dt, nd, shape, "pview");
  ref_row_major_strides(nd, bshape, bstr);
  v->n = ref_shape_size(nd, shape);
  v->base_n = ref_shape_size(nd, bshape);
  v->map = gt_malloc((size_t)v->n * sizeof(int64_t));
  for (int64_t i = 0; i < v->n; i++) {
    int64_t p = 0;
    for (int d = 0; d < nd; d++) p += (start[d] + idx[d] * step[d]) * bstr[d];
    v->map[i] = p;
    for (int d = nd - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

/* reads the view's values in row-major order; fails if the base outside the view changed */
static void *pview_read(const pview *v, const char *label) {
  size_t es = esz(v->dt);
  unsigned char poison = (v->dt == GPUX_FLOAT32 || v->dt == GPUX_FLOAT64) ? 0xff : 0x7f;
  unsigned char *b = gt_malloc((size_t)v->base_n * es), *out = gt_malloc((size_t)v->n * es);
  char *in = gt_malloc((size_t)v->base_n);
  GT_OK(gpux_array_read(v->base, b, (size_t)v->base_n * es));
  memset(in, 0, (size_t)v->base_n);
  for (int64_t i = 0; i < v->n; i++) {
    in[v->map[i]] = 1;
    memcpy(out + (size_t)i * es, b + (size_t)v->map[i] * es, es);
  }
  for (int64_t j = 0; j < v->base_n; j++)
    if (!in[j])
      for (size_t k = 0; k < es; k++)
        GT_ASSERT(b[(size_t)j * es + k] == poison,
                  "%s: base element %" PRId64 " outside the view was written", label, j);
  free(b);
  free(in);
  return out;
}

static void pview_free(pview *v) {
  gpux_array_release(v->view);
  gpux_array_release(v->base);
  free(v->map);
}

static void check_view_values(const rcase *c, const char *label, const void *got, int64_t n,
                              const gpux_rng_state *st0, gpux_generator_t g) {
  size_t es = esz(c->dt);
  void *host = gt_malloc((size_t)n * es);
  GT_OK(host_draw(c, host, 0, n, st0));
  expect_same(label, "view output vs gpux_random_*_host", c->dt, got, host, n);
  if (c->kind != NRM) {
    ref_draw(c, host, 0, n, st0);
    expect_same(label, "view output vs the reference", c->dt, got, host, n);
  }
  gpux_rng_state st1 = get_state(g);
  GT_ASSERT(st1.position == st0->position + doc_words(c, n), "%s: advanced %" PRIu64 " words, expected %" PRIu64,
            label, st1.position - st0->position, doc_words(c, n));
  free(host);
}

static void test_views(void **state) {
  const rcase *c = (const rcase *)*state;
  char cs[96], label[192];
  case_str(cs, sizeof cs, c);
  /* gt_view layouts: step 2 / -2 and reversed (negative strides) */
  static const int64_t shapes[2][2] = {{7, 143}, {13, 77}};
  for (int l = 1; l <= 2; l++) {
    gt_view v;
    gt_view_make(&v, c->dt, 2, shapes[l - 1], (gt_layout)l, NULL);
    gpux_generator_t g = make_gen(77 + (uint64_t)l, 5, 5);
    gpux_rng_state st0 = get_state(g);
    GT_OK(dev_draw(c, v.view, g));
    void *got = gt_malloc((size_t)v.n * esz(c->dt));
    snprintf(label, sizeof label, "%s into a %s view", cs, gt_layout_str((gt_layout)l));
    gt_view_read(&v, got, label);
    check_view_values(c, label, got, v.n, &st0, g);
    free(got);
    gt_view_free(&v);
    gpux_generator_release(g);
  }
  /* a 1-d slice with offset 1 (contiguous, not at the start of its allocation) and a 2-d
   * sub-block (rows of 15 in rows of 20), a 3-d step-3 view */
  {
    const int64_t b1[1] = {4101}, s1[1] = {1}, n1[1] = {4099}, t1[1] = {1};
    const int64_t b4[1] = {4107}, s4[1] = {4}; /* offset 4: aligned for the vector stores */
    const int64_t b2[2] = {9, 20}, s2[2] = {1, 3}, n2[2] = {7, 15}, t2[2] = {1, 1};
    const int64_t b3[3] = {4, 10, 11}, s3[3] = {1, 0, 2}, n3[3] = {3, 4, 3}, t3[3] = {1, 3, 3};
    struct {
      int nd;
      const int64_t *b, *s, *n, *t;
      const char *what;
    } vs[4] = {{1, b1, s1, n1, t1, "offset-1 slice"},
               {1, b4, s4, n1, t1, "offset-4 slice"},
               {2, b2, s2, n2, t2, "2-d sub-block"},
               {3, b3, s3, n3, t3, "3-d step-3 view"}};
    for (int k = 0; k < 4; k++) {
      pview v;
      pview_make(&v, c->dt, vs[k].nd, vs[k].b, vs[k].s, vs[k].n, vs[k].t);
      gpux_generator_t g = make_gen(99 + (uint64_t)k, 0, 3);
      gpux_rng_state st0 = get_state(g);
      GT_OK(dev_draw(c, v.view, g));
      snprintf(label, sizeof label, "%s into a %s", cs, vs[k].what);
      void *got = pview_read(&v, label);
      check_view_values(c, label, got, v.n, &st0, g);
      free(got);
      pview_free(&v);
      gpux_generator_release(g);
    }
  }
}

/* ------------------------------------------------------------------ two draws == one */

static void test_split_draws(void **state) {
  const rcase *c = (const rcase *)*state;
  char cs[96];
  case_str(cs, sizeof cs, c);
  size_t es = esz(c->dt);
  const int64_t ns[2] = {1000, 333};
  for (int k = 0; k < (c->kind == NRM ? 1 : 2); k++) {
    int64_t n = ns[k], two[1] = {2 * n}, one[1] = {n};
    gpux_generator_t g = make_gen(31337, 11, 3);
    gpux_rng_state st0 = get_state(g);
    gpux_array_t a = poisoned_out(c->dt, 1, one), b = poisoned_out(c->dt, 1, one),
                 ab = poisoned_out(c->dt, 1, two);
    GT_OK(dev_draw(c, a, g));
    GT_OK(dev_draw(c, b, g));
    gpux_rng_state st2 = get_state(g);
    GT_OK(gpux_generator_set_state(g, &st0));
    GT_OK(dev_draw(c, ab, g));
    gpux_rng_state st3 = get_state(g);
    GT_ASSERT(st2.position == st3.position,
              "%s: two draws of %" PRId64 " end at %" PRIu64 ", one of %" PRId64 " at %" PRIu64, cs,
              n, st2.position, 2 * n, st3.position);
    char *x = gt_malloc(2 * (size_t)n * es), *y = gt_malloc(2 * (size_t)n * es);
    GT_OK(gpux_array_read(a, x, (size_t)n * es));
    GT_OK(gpux_array_read(b, x + (size_t)n * es, (size_t)n * es));
    GT_OK(gpux_array_read(ab, y, 2 * (size_t)n * es));
    char label[160];
    snprintf(label, sizeof label, "%s, n = %" PRId64, cs, n);
    expect_same(label, "two draws of n vs one draw of 2n", c->dt, x, y, 2 * n);
    free(x);
    free(y);
    gpux_array_release(a);
    gpux_array_release(b);
    gpux_array_release(ab);
    gpux_generator_release(g);
  }
}

/* ------------------------------------------------------------------ retry chain */

/* Found by a search with the reference (seed 0x5EED5EED, stream 0): the int32 candidate of
 * range 2^32 - 65535 (2^64 mod range = 65535^2, rejection probability ~2^-32) made from words
 * RETRY_G, RETRY_G + 1 is rejected. */
#define RETRY_SEED 0x5EED5EEDull
#define RETRY_G UINT64_C(26361576495) /* word 3 of block 6590394123 and word 0 of the next */
static void test_retry(void **state) {
  (void)state;
  const rcase c = {INTS, GPUX_INT32, 0, 0, INT32_MIN, 2147418113, 0};
  const uint64_t g0 = RETRY_G;
  /* the rejected value is value 3 of a draw from g0 - 6, and value 0 of one from g0 */
  const uint64_t starts[2] = {g0 - 6, g0};
  for (int k = 0; k < 2; k++) {
    gpux_rng_state st = {RETRY_SEED, 0, starts[k]};
    int64_t iv = (int64_t)(g0 - starts[k]) / 2;
    GT_ASSERT(rr_integers_rejected(GPUX_INT32, iv, to_rr(&st), c.ia, c.ib),
              "the search's position %#" PRIx64 " is not rejected by the reference", g0);
    check_one(&c, 7, RETRY_SEED, 0, starts[k]);
    /* also as int64 with the same range: 4 words per value, another (accepted) candidate */
    const rcase c64 = {INTS, GPUX_INT64, 0, 0, INT32_MIN, 2147418113, 0};
    check_one(&c64, 7, RETRY_SEED, 0, starts[k]);
  }
}

/* ------------------------------------------------------------------ gpux_rand & co */

static void test_create(void **state) {
  (void)state;
  static const int64_t s3[3] = {3, 5, 7}, s0[3] = {4, 0, 2};
  const gpux_dtype fdts[2] = {GPUX_FLOAT32, GPUX_FLOAT64}, idts[2] = {GPUX_INT32, GPUX_INT64};
  for (int which = 0; which < 3; which++)
    for (int d = 0; d < 2; d++) {
      gpux_dtype dt = which == 2 ? idts[d] : fdts[d];
      if (!gt_dtype_available(dt)) continue;
      rcase c = {which == 0 ? U : which == 1 ? NRM : INTS, dt, 0.0, 1.0, -50, 51, 0};
      for (int shp = 0; shp < 3; shp++) {
        int nd = shp == 1 ? 0 : 3;
        const int64_t *shape = shp == 0 ? s3 : shp == 1 ? NULL : s0;
        int64_t n = shp == 0 ? 105 : shp == 1 ? 1 : 0;
        gpux_generator_t g = make_gen(5, 6, 7);
        gpux_rng_state st0 = get_state(g);
        gpux_array_t a = NULL;
        if (which == 0) GT_OK(gpux_rand(&a, gt_ctx, g, dt, nd, shape));
        else if (which == 1) GT_OK(gpux_randn(&a, gt_ctx, g, dt, nd, shape));
        else GT_OK(gpux_randint(&a, gt_ctx, g, dt, nd, shape, -50, 51));
        char label[96];
        snprintf(label, sizeof label, "gpux_%s %s ndim %d", which == 0 ? "rand" : which == 1 ? "randn" : "randint",
                 gt_dtype_str(dt), nd);
        gt_check_shape(a, dt, nd, shape, label);
        int64_t got_n = 0;
        void *v = gt_read_all(a, &got_n);
        GT_ASSERT(got_n == n, "%s: %" PRId64 " values", label, got_n);
        check_view_values(&c, label, v, n, &st0, g);
        free(v);
        gpux_array_release(a);
        gpux_generator_release(g);
      }
    }
}

/* ------------------------------------------------------------------ generator */

static void same_state(const gpux_rng_state *a, const gpux_rng_state *b, const char *what) {
  GT_ASSERT(a->seed == b->seed && a->stream == b->stream && a->position == b->position,
            "%s: state (%#" PRIx64 ", %#" PRIx64 ", %#" PRIx64 "), expected (%#" PRIx64 ", %#" PRIx64
            ", %#" PRIx64 ")",
            what, a->seed, a->stream, a->position, b->seed, b->stream, b->position);
}

static void test_generator(void **state) {
  (void)state;
  gpux_generator_t g = NULL;
  GT_OK(gpux_generator_create(&g, 0xfeedfacecafebeefull));
  gpux_rng_state s = get_state(g), want = {0xfeedfacecafebeefull, 0, 0};
  same_state(&s, &want, "a new generator");
  gpux_rng_state set = {1, (UINT64_C(1) << 63) - 1, UINT64_MAX - 3};
  GT_OK(gpux_generator_set_state(g, &set));
  s = get_state(g);
  same_state(&s, &set, "after set_state");
  gpux_rng_state bad = {2, UINT64_C(1) << 63, 0};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_generator_set_state(g, &bad));
  bad.stream = UINT64_MAX;
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_generator_set_state(g, &bad));
  s = get_state(g);
  same_state(&s, &set, "after a rejected set_state");

  /* split: children's streams are words pos + 2i, pos + 2i + 1 of the parent, masked to 63
   * bits; seed kept, position 0; the parent advances 2n words */
  gpux_rng_state ps = {0xabcdef, 0x42, 0xfffffffdull};
  GT_OK(gpux_generator_set_state(g, &ps));
  enum { NC = 5 };
  gpux_generator_t ch[NC] = {0}, ch2[NC] = {0};
  GT_OK(gpux_generator_split(ch, NC, g));
  gpux_rng_state after = get_state(g);
  GT_ASSERT(after.position == ps.position + 2 * NC && after.seed == ps.seed && after.stream == ps.stream,
            "split: parent position %#" PRIx64 ", expected %#" PRIx64, after.position,
            ps.position + 2 * NC);
  uint64_t streams[NC];
  for (int i = 0; i < NC; i++) {
    gpux_rng_state cs = get_state(ch[i]);
    uint64_t at = ps.position + 2 * (uint64_t)i;
    uint64_t w = ((uint64_t)rr_word(ps.seed, ps.stream, at) |
                  ((uint64_t)rr_word(ps.seed, ps.stream, at + 1) << 32)) &
                 ((UINT64_C(1) << 63) - 1);
    gpux_rng_state cw = {ps.seed, w, 0};
    same_state(&cs, &cw, "split child");
    GT_ASSERT(cs.stream != ps.stream, "split child %d has the parent's stream", i);
    for (int j = 0; j < i; j++) GT_ASSERT(streams[j] != cs.stream, "children %d and %d share a stream", j, i);
    streams[i] = cs.stream;
  }
  /* reproducible from the parent's state */
  GT_OK(gpux_generator_set_state(g, &ps));
  GT_OK(gpux_generator_split(ch2, NC, g));
  for (int i = 0; i < NC; i++) {
    gpux_rng_state a = get_state(ch[i]), b = get_state(ch2[i]);
    same_state(&b, &a, "split again from the same parent state");
  }
  /* children's values differ from the parent's and from each other */
  {
    const int64_t n1[1] = {64};
    float vals[NC + 1][64];
    for (int i = 0; i <= NC; i++) {
      gpux_array_t a = NULL;
      GT_OK(gpux_rand(&a, gt_ctx, i < NC ? ch[i] : g, GPUX_FLOAT32, 1, n1));
      GT_OK(gpux_array_read(a, vals[i], sizeof vals[i]));
      gpux_array_release(a);
    }
    for (int i = 0; i <= NC; i++)
      for (int j = 0; j < i; j++)
        GT_ASSERT(memcmp(vals[i], vals[j], sizeof vals[i]) != 0,
                  "generators %d and %d (%d: the parent) give the same values", j, i, NC);
  }
  /* a failed split creates nothing and leaves the parent alone */
  gpux_rng_state before = get_state(g);
  gpux_generator_t none[2] = {NULL, NULL};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_generator_split(none, 0, g));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_generator_split(none, -3, g));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_generator_split(NULL, 2, g));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_generator_split(none, 2, NULL));
  gpux_rng_state endst = {3, 4, UINT64_MAX - 2};
  GT_OK(gpux_generator_set_state(g, &endst));
  gpux_status st = gpux_generator_split(none, 2, g); /* 4 words from 2^64 - 3 */
  GT_ASSERT(st != GPUX_SUCCESS, "split of 2 at position 2^64 - 3 succeeded");
  GT_ASSERT(none[0] == NULL && none[1] == NULL, "a failed split wrote children");
  s = get_state(g);
  same_state(&s, &endst, "after a failed split");
  GT_OK(gpux_generator_set_state(g, &before));
  for (int i = 0; i < NC; i++) {
    gpux_generator_release(ch[i]);
    gpux_generator_release(ch2[i]);
  }
  gpux_generator_release(g);
  gpux_generator_release(NULL);
}

/* ------------------------------------------------------------------ permutation */

static void test_permutation(void **state) {
  (void)state;
  static const int64_t ns[] = {0, 1, 2, 3, 1000};
  for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
    int64_t n = ns[t];
    gpux_generator_t g = make_gen(271828, 9, 2);
    gpux_rng_state st0 = get_state(g);
    gpux_array_t a = NULL;
    GT_OK(gpux_random_permutation(&a, gt_ctx, g, n));
    gt_check_shape(a, GPUX_INT64, 1, &n, "permutation");
    int64_t got_n = 0;
    int64_t *p = gt_read_all(a, &got_n);
    GT_ASSERT(got_n == n, "permutation of %" PRId64 ": %" PRId64 " values", n, got_n);
    char *seen = gt_malloc((size_t)n + 1);
    memset(seen, 0, (size_t)n + 1);
    for (int64_t i = 0; i < n; i++) {
      GT_ASSERT(p[i] >= 0 && p[i] < n && !seen[p[i]], "permutation of %" PRId64 ": [%" PRId64 "] = %" PRId64
                " repeats or is out of range", n, i, p[i]);
      seen[p[i]] = 1;
    }
    /* Fisher-Yates: for k = 0 .. n - 2 swap n - 1 - k with j_k, j_k value k of an int64
     * draw over [0, n - k) from the generator's position */
    int64_t *want = gt_malloc((size_t)(n + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) want[i] = i;
    for (int64_t k = 0; k + 1 < n; k++) {
      int64_t j;
      rr_integers(&j, GPUX_INT64, k, 1, to_rr(&st0), 0, n - k);
      int64_t tmp = want[n - 1 - k];
      want[n - 1 - k] = want[j];
      want[j] = tmp;
    }
    char label[64];
    snprintf(label, sizeof label, "permutation of %" PRId64, n);
    expect_same(label, "device vs host Fisher-Yates", GPUX_INT64, p, want, n);
    gpux_rng_state st1 = get_state(g);
    uint64_t w = n > 1 ? 4 * (uint64_t)(n - 1) : 0;
    GT_ASSERT(st1.position == st0.position + w, "%s: advanced %" PRIu64 " words, expected %" PRIu64,
              label, st1.position - st0.position, w);
    if (n == 1000) {
      int64_t fixed = 0;
      for (int64_t i = 0; i < n; i++) fixed += p[i] == i;
      GT_ASSERT(fixed < 12, "permutation of 1000 has %" PRId64 " fixed points", fixed);
    }
    free(p);
    free(want);
    free(seen);
    gpux_array_release(a);
    gpux_generator_release(g);
  }
}

/* ------------------------------------------------------------------ statistics */

static double *big_values(const rcase *c, int64_t n, uint64_t seed) {
  gpux_generator_t g = make_gen(seed, 0, 0);
  const int64_t shape[1] = {n};
  gpux_array_t a = poisoned_out(c->dt, 1, shape);
  GT_OK(dev_draw(c, a, g));
  void *raw = gt_read_all(a, NULL);
  double *v = gt_malloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; i++) v[i] = ref_load_f64(c->dt, raw, i);
  free(raw);
  gpux_array_release(a);
  gpux_generator_release(g);
  return v;
}

static void moments(const double *v, int64_t n, double *mean, double *var) {
  long double s = 0, s2 = 0;
  for (int64_t i = 0; i < n; i++) s += v[i];
  long double m = s / n;
  for (int64_t i = 0; i < n; i++) s2 += (v[i] - m) * (v[i] - m);
  *mean = (double)m;
  *var = (double)(s2 / n);
}

static double chi2(const int64_t *count, int bins, int64_t n) {
  double e = (double)n / bins, x = 0;
  for (int b = 0; b < bins; b++) x += (count[b] - e) * (count[b] - e) / e;
  return x;
}

static void test_statistics(void **state) {
  (void)state;
  const int64_t N = (int64_t)1 << 22;
  const double dn = (double)N;
  for (int d = 0; d < 2; d++) {
    gpux_dtype dt = d ? GPUX_FLOAT64 : GPUX_FLOAT32;
    if (!gt_dtype_available(dt)) continue;
    /* uniform [0, 1) */
    rcase cu = {U, dt, 0.0, 1.0, 0, 0, 0};
    double *v = big_values(&cu, N, 1001 + (uint64_t)d), m, var;
    moments(v, N, &m, &var);
    double sem = sqrt(1.0 / 12 / dn), sev = sqrt((1.0 / 80 - 1.0 / 144) / dn);
    print_message("uniform %s: mean %.6f (%.2f SE), var %.6f (%.2f SE)\n", gt_dtype_str(dt), m,
                  (m - 0.5) / sem, var, (var - 1.0 / 12) / sev);
    GT_ASSERT(fabs(m - 0.5) <= 6 * sem, "uniform %s mean %.7f, expected 0.5 +- %.2g", gt_dtype_str(dt), m, 6 * sem);
    GT_ASSERT(fabs(var - 1.0 / 12) <= 6 * sev, "uniform %s var %.7f, expected 1/12 +- %.2g",
              gt_dtype_str(dt), var, 6 * sev);
    int64_t cnt[100] = {0};
    for (int64_t i = 0; i < N; i++) {
      GT_ASSERT(v[i] >= 0.0 && v[i] < 1.0, "uniform %s value %.17g outside [0, 1)", gt_dtype_str(dt), v[i]);
      cnt[(int)(v[i] * 100)]++;
    }
    double x = chi2(cnt, 100, N);
    print_message("uniform %s: chi-square %.1f (100 bins, critical %.2f)\n", gt_dtype_str(dt), x, CHI2_99);
    GT_ASSERT(x <= CHI2_99, "uniform %s chi-square %.1f > %.2f", gt_dtype_str(dt), x, CHI2_99);
    free(v);
    /* normal(0, 1) */
    rcase cn = {NRM, dt, 0.0, 1.0, 0, 0, 0};
    v = big_values(&cn, N, 2002 + (uint64_t)d);
    moments(v, N, &m, &var);
    sem = sqrt(1.0 / dn);
    sev = sqrt(2.0 / dn);
    print_message("normal %s: mean %.6f (%.2f SE), var %.6f (%.2f SE)\n", gt_dtype_str(dt), m,
                  m / sem, var, (var - 1.0) / sev);
    GT_ASSERT(fabs(m) <= 6 * sem, "normal %s mean %.7f, expected 0 +- %.2g", gt_dtype_str(dt), m, 6 * sem);
    GT_ASSERT(fabs(var - 1.0) <= 6 * sev, "normal %s var %.7f, expected 1 +- %.2g", gt_dtype_str(dt), var, 6 * sev);
    memset(cnt, 0, sizeof cnt);
    for (int64_t i = 0; i < N; i++) {
      GT_ASSERT(isfinite(v[i]), "normal %s value %g", gt_dtype_str(dt), v[i]);
      int b = (int)(0.5 * erfc(-v[i] / sqrt(2.0)) * 100);
      cnt[b < 0 ? 0 : b > 99 ? 99 : b]++;
    }
    x = chi2(cnt, 100, N);
    print_message("normal %s: chi-square %.1f (100 bins of the normal CDF, critical %.2f)\n",
                  gt_dtype_str(dt), x, CHI2_99);
    GT_ASSERT(x <= CHI2_99, "normal %s chi-square %.1f > %.2f", gt_dtype_str(dt), x, CHI2_99);
    free(v);
  }
  /* integers [0, 10) and a range that does not divide 2^32 */
  for (int d = 0; d < 2; d++) {
    gpux_dtype dt = d ? GPUX_INT64 : GPUX_INT32;
    rcase ci = {INTS, dt, 0, 0, 0, 10, 0};
    double *v = big_values(&ci, N, 3003 + (uint64_t)d);
    int64_t cnt[10] = {0};
    for (int64_t i = 0; i < N; i++) {
      GT_ASSERT(v[i] >= 0 && v[i] < 10, "integers %s [0, 10): %g", gt_dtype_str(dt), v[i]);
      cnt[(int)v[i]]++;
    }
    double x = chi2(cnt, 10, N);
    print_message("integers %s [0, 10): chi-square %.2f (critical %.2f)\n", gt_dtype_str(dt), x, CHI2_9);
    GT_ASSERT(x <= CHI2_9, "integers %s [0, 10): chi-square %.2f > %.2f", gt_dtype_str(dt), x, CHI2_9);
    free(v);
    /* [-7, 1000003): mean 499998, var (range^2 - 1) / 12 */
    rcase cw = {INTS, dt, 0, 0, -7, 1000003, 0};
    v = big_values(&cw, N, 4004 + (uint64_t)d);
    double m, var, R = 1000010.0, mu = -7 + (R - 1) / 2, sd = sqrt((R * R - 1) / 12);
    moments(v, N, &m, &var);
    GT_ASSERT(fabs(m - mu) <= 6 * sd / sqrt(dn), "integers %s [-7, 1000003): mean %.3f, expected %.3f",
              gt_dtype_str(dt), m, mu);
    free(v);
  }
  /* bernoulli */
  {
    const double ps[3] = {0.0, 0.3, 1.0};
    for (int k = 0; k < 3; k++) {
      rcase cb = {BERN, GPUX_BOOL, ps[k], 0, 0, 0, 0};
      double *v = big_values(&cb, N, 5005 + (uint64_t)k);
      int64_t ones = 0;
      for (int64_t i = 0; i < N; i++) {
        GT_ASSERT(v[i] == 0 || v[i] == 1, "bernoulli byte %g", v[i]);
        ones += v[i] == 1;
      }
      double f = (double)ones / dn;
      print_message("bernoulli p=%g: frequency %.6f\n", ps[k], f);
      if (k == 1)
        GT_ASSERT(fabs(f - 0.3) <= 6 * sqrt(0.21 / dn), "bernoulli 0.3: frequency %.6f", f);
      else
        GT_ASSERT(f == ps[k], "bernoulli %g: frequency %.6f", ps[k], f);
      free(v);
    }
  }
}

/* ------------------------------------------------------------------ accuracy */

static double ulp_f(long double x) {
  float f = (float)x;
  int e;
  frexpf(f == 0 ? FLT_MIN : f, &e);
  return ldexp(1.0, e - 24);
}
static double ulp_d(long double x) {
  double f = (double)x;
  int e;
  frexp(f == 0 ? DBL_MIN : f, &e);
  return ldexp(1.0, e - 53);
}

static void test_accuracy(void **state) {
  (void)state;
  double wr = 0, wc = 0, ws = 0;
  uint32_t at_r = 0;
  long double r, x0, x1;
  /* float32: gpux's ln over every input ((a >> 8) | 1 covers the 2^23 odd numbers), its
   * exp(-q) over q in [0, 10) (every 2^-12; the wedges need q <= r^2 / 2 = 9.6), and the
   * ziggurat's layers: the thresholds of gpux_ziggurat.h against the layers rebuilt in long
   * double */
  for (uint32_t v = 0; v < (1u << 24); v += 2) {
    float fl = gpux_r_ln24(v << 8);
    long double ex = logl((long double)(v | 1u) * 0x1p-24L);
    double e = fabs((double)((long double)fl - ex)) / ulp_f(ex);
    if (e > wr) {
      wr = e;
      at_r = v;
    }
  }
  for (int q = 0; q < 10 * 4096; q++) {
    long double ex = expl(-(long double)q / 4096);
    double e = fabs((double)((long double)gpux_r_expneg((float)q / 4096) - ex)) / ulp_f(ex);
    if (e > wc) wc = e;
  }
  int kbad = 0;
  for (int i = 0; i < GPUX_R_ZIG_N; i++) {
    long double k = ceill(ldexpl(rr_zig_x(i + 1) / rr_zig_x(i), 31 - GPUX_R_ZIG_BITS));
    if (fabsl(k - (long double)rr_zig_k(i)) > 1) kbad++;
  }
  print_message("float32 ln over every input: %.3f ulp (at %u); exp(-q), q in [0, 10): %.3f ulp; "
                "ziggurat thresholds off by more than 1: %d of %d\n", wr, at_r, wc, kbad, GPUX_R_ZIG_N);
  GT_ASSERT(wr < 1.0, "float32 ln: %.3f ulp at v = %u (bound 1 ulp)", wr, at_r);
  GT_ASSERT(wc < 2.0, "float32 exp(-q): %.3f ulp (bound 2 ulp)", wc);
  GT_ASSERT(kbad == 0, "%d ziggurat thresholds differ from the layers rebuilt here", kbad);
  /* the fast path's fma form (gpux_r_zig_fast: fma(1 + m 2^-23, +-w 2^23, -+w 2^23)) is the
   * float product +-m * w_i bit for bit, and +0 for m = 0; its accept test is m < k_i: every
   * layer with both signs and m = 0, 1, k_i - 1, k_i, 2^19 - 1, then 2^20 random words */
  {
    gt_rng zr;
    gt_rng_seed(&zr, 32);
    int fbad = 0;
    for (int t = 0; t < GPUX_R_ZIG_N * 10 + (1 << 20); t++) {
      uint32_t a;
      if (t < GPUX_R_ZIG_N * 10) {
        const uint32_t i = (uint32_t)t / 10, kk = rr_zig_k((int)i);
        const uint32_t ms[5] = {0, 1, kk ? kk - 1 : 0, kk, (1u << 19) - 1};
        a = ms[t % 5] << GPUX_R_ZIG_MSHIFT | (uint32_t)(t % 10 >= 5) << GPUX_R_ZIG_BITS | i;
      } else {
        a = (uint32_t)gt_rng_u64(&zr);
      }
      const gpux_u64 e = gpux_r_zig_tab[GPUX_R_ZIG_LAYER(a)];
      const uint32_t m = a >> GPUX_R_ZIG_MSHIFT;
      float z, want = (float)m * gpux_r_u2f_host((uint32_t)(e >> 32));
      if (m != 0 && GPUX_R_ZIG_SIGN(a)) want = -want;
      const int acc = gpux_r_zig_fast(a, (uint32_t)e, GPUX_R_ZIG_SW(a, e), &z);
      uint32_t zb, wb;
      memcpy(&zb, &z, 4);
      memcpy(&wb, &want, 4);
      if (acc != (m < (uint32_t)e) || zb != wb) fbad++;
    }
    GT_ASSERT(fbad == 0, "%d words: the ziggurat's fast path differs from +-m w_i or m < k_i", fbad);
  }
  wr = wc = ws = 0;
  /* float64: 2^20 random words, plus the ends (u1 near 0 and 1; y = 0 and near 1/2) */
  gt_rng rng;
  gt_rng_seed(&rng, 64);
  wr = wc = ws = 0;
  for (int i = 0; i < (1 << 20) + 4; i++) {
    uint64_t xa = gt_rng_u64(&rng), xb = gt_rng_u64(&rng);
    if (i == 0) xa = 0, xb = 0;
    if (i == 1) xa = UINT64_MAX, xb = (uint64_t)1 << 62;
    if (i == 2) xa = 1ull << 11, xb = (uint64_t)3 << 62 | 0x1fffffffffffffffull;
    if (i == 3) xa = UINT64_MAX - (1ull << 11), xb = UINT64_MAX;
    if (i > 3 && (i & 1)) xa >>= (i % 50); /* small u1: large radii */
    double dr = gpux_r_bm_radius_f64((uint32_t)xa, (uint32_t)(xa >> 32));
    rr_bm_f64(xa, xb, &r, &x0, &x1);
    double e = fabs((double)((long double)dr - r)) / ulp_d(r);
    if (e > wr) wr = e;
    gpux_rd2 cs = gpux_r_cossin_f64((uint32_t)xb, (uint32_t)(xb >> 32));
    double ec = fabs((double)((long double)cs.x - x0)), es = fabs((double)((long double)cs.y - x1));
    if (ec > wc) wc = ec;
    if (es > ws) ws = es;
  }
  print_message("float64 over 2^20 inputs: radius %.3f ulp, cos %.3f 2^-53, sin %.3f 2^-53\n", wr,
                wc * 0x1p53, ws * 0x1p53);
  GT_ASSERT(wr < 1.7, "float64 Box-Muller radius: %.3f ulp (bound 1.7)", wr);
  GT_ASSERT(wc < 1.4 * 0x1p-53 && ws < 1.4 * 0x1p-53, "float64 cos/sin: %.3f / %.3f 2^-53 (bound 1.4)",
            wc * 0x1p53, ws * 0x1p53);
}

/* ------------------------------------------------------------------ errors */

/* w appears in msg as a word of its own (case-insensitive) */
static int is_wc(char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
static int has_word(const char *msg, const char *w) {
  if (!msg || !w) return 0;
  size_t lw = strlen(w);
  for (const char *p = msg; *p; p++)
    if (strncasecmp(p, w, lw) == 0 && (p == msg || !is_wc(p[-1])) && !is_wc(p[lw])) return 1;
  return 0;
}

static gpux_generator_t g_err = NULL;
static gpux_rng_state g_err_state;

/* call fails with want, its message has word, g_err's state is unchanged */
static void expect_err(gpux_status want, gpux_status got, const char *expr, const char *word,
                       int line) {
  gt_check_status(want, got, expr, __FILE__, line);
  const char *m = gpux_last_error_message();
  if (word) GT_ASSERT(has_word(m, word), "line %d: %s: the message \"%s\" does not mention \"%s\"", line, expr, m, word);
  gpux_rng_state now = get_state(g_err);
  GT_ASSERT(now.seed == g_err_state.seed && now.stream == g_err_state.stream &&
                now.position == g_err_state.position,
            "line %d: %s changed the generator (position %#" PRIx64 " -> %#" PRIx64 ")", line, expr,
            g_err_state.position, now.position);
}
#define EXPECT_ERR(want, call, word) expect_err((want), (call), #call, (word), __LINE__)

static void test_errors(void **state) {
  (void)state;
  gt_smoke(gt_ctx);
  GT_OK(gpux_context_synchronize(gt_ctx));
  gpux_pool_stats before, after;
  GT_OK(gpux_pool_get_stats(&before, gt_ctx));
  g_err = make_gen(123, 456, 789);
  g_err_state = get_state(g_err);
  gpux_generator_t g = g_err;
  const int64_t s5[1] = {5}, s5b[1] = {5};
  gpux_array_t f32 = NULL, f64 = NULL, i32 = NULL, i64 = NULL, b8 = NULL, u8 = NULL, h16 = NULL,
               bf16 = NULL, o = NULL;
  GT_OK(gpux_array_zeros(&f32, gt_ctx, GPUX_FLOAT32, 1, s5));
  if (gt_info.fp64) GT_OK(gpux_array_zeros(&f64, gt_ctx, GPUX_FLOAT64, 1, s5));
  GT_OK(gpux_array_zeros(&i32, gt_ctx, GPUX_INT32, 1, s5));
  GT_OK(gpux_array_zeros(&i64, gt_ctx, GPUX_INT64, 1, s5));
  GT_OK(gpux_array_zeros(&b8, gt_ctx, GPUX_BOOL, 1, s5));
  GT_OK(gpux_array_zeros(&u8, gt_ctx, GPUX_UINT8, 1, s5b));
  GT_OK(gpux_array_zeros(&h16, gt_ctx, GPUX_FLOAT16, 1, s5));
  GT_OK(gpux_array_zeros(&bf16, gt_ctx, GPUX_BFLOAT16, 1, s5));
  const double nan = NAN, inf = INFINITY;

  /* NULL */
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_uniform(NULL, g, 0, 1), "NULL");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_uniform(f32, NULL, 0, 1), "generator");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_normal(NULL, g, 0, 1), "NULL");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_normal(f32, NULL, 0, 1), "generator");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_integers(NULL, g, 0, 1), "NULL");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_integers(i32, NULL, 0, 1), "generator");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_bernoulli(NULL, g, 0.5), "NULL");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_bernoulli(b8, NULL, 0.5), "generator");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_rand(NULL, gt_ctx, g, GPUX_FLOAT32, 1, s5), "NULL");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_rand(&o, gt_ctx, NULL, GPUX_FLOAT32, 1, s5), "generator");
  GT_ASSERT(o == NULL, "gpux_rand wrote *out on an error");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_randn(&o, gt_ctx, NULL, GPUX_FLOAT32, 1, s5), "generator");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_randint(&o, gt_ctx, NULL, GPUX_INT32, 1, s5, 0, 3), "generator");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_permutation(NULL, gt_ctx, g, 5), "NULL");
  EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_permutation(&o, gt_ctx, NULL, 5), "generator");
  /* gpux_random_integers_u64: uint64 outputs only, low <= high */
  {
    gpux_array_t u64 = NULL;
    uint64_t hv[5];
    GT_OK(gpux_array_zeros(&u64, gt_ctx, GPUX_UINT64, 1, s5));
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_integers_u64(NULL, g, 0, 1), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_integers_u64(u64, NULL, 0, 1), "generator");
    EXPECT_ERR(GPUX_ERROR_DTYPE_MISMATCH, gpux_random_integers_u64(i64, g, 0, 1), "uint64");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers_u64(u64, g, 5, 4), "empty");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers_u64(u64, g, UINT64_MAX, 0), "empty");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_integers_u64_host(NULL, 0, 4, &g_err_state, 0, 1), "NULL");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers_u64_host(hv, 0, 4, &g_err_state, 2, 1), "empty");
    gpux_array_release(u64);
  }
  {
    gpux_status s = gpux_rand(&o, NULL, g, GPUX_FLOAT32, 1, s5);
    GT_ASSERT(s != GPUX_SUCCESS && o == NULL, "gpux_rand with a NULL context: %s", gpux_status_name(s));
    expect_err(s, s, "gpux_rand(NULL context)", NULL, __LINE__);
  }
  {
    gpux_rng_state st;
    uint32_t w4[4], k2[2] = {0, 0}, c4[4] = {0, 0, 0, 0};
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_generator_get_state(NULL, g), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_generator_get_state(&st, NULL), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_generator_set_state(g, NULL), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_generator_set_state(NULL, &g_err_state), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_generator_create(NULL, 1), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_philox4x32_10(NULL, c4, k2), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_philox4x32_10(w4, NULL, k2), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_philox4x32_10(w4, c4, NULL), "NULL");
    uint64_t w;
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_words(NULL, U, GPUX_FLOAT32, 3), "NULL");
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_words(&w, U, GPUX_INT32, 3), "int32");
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_words(&w, BERN, GPUX_FLOAT32, 3), "float32");
    /* word counts past 2^64 */
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_words(&w, INTS, GPUX_INT64, (int64_t)1 << 62), "2^64");
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_words(&w, NRM, GPUX_FLOAT64, INT64_MAX), "2^64");
    GT_OK(gpux_random_words(&w, INTS, GPUX_INT64, ((int64_t)1 << 62) - 1));
    GT_ASSERT(w == UINT64_MAX - 3, "words of 2^62 - 1 int64 values: %" PRIu64, w);
    GT_OK(gpux_random_words(&w, NRM, GPUX_FLOAT32, INT64_MAX)); /* one word each, no pairs */
    GT_ASSERT(w == (uint64_t)INT64_MAX, "words of INT64_MAX float32 normals: %" PRIu64, w);
    gpux_status s = gpux_random_words(&w, U, GPUX_FLOAT32, -1);
    GT_ASSERT(s != GPUX_SUCCESS, "gpux_random_words with n = -1 succeeded");
    s = gpux_random_words(&w, (gpux_random_kind)7, GPUX_FLOAT32, 1);
    GT_ASSERT(s != GPUX_SUCCESS, "gpux_random_words with kind 7 succeeded");
  }
  /* host draws */
  {
    float h[4];
    gpux_rng_state badst = {1, UINT64_C(1) << 63, 0};
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_uniform_host(NULL, GPUX_FLOAT32, 0, 4, &g_err_state, 0, 1), "NULL");
    EXPECT_ERR(GPUX_ERROR_NULL_POINTER, gpux_random_uniform_host(h, GPUX_FLOAT32, 0, 4, NULL, 0, 1), "NULL");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform_host(h, GPUX_FLOAT32, 0, 4, &badst, 0, 1), "2^63");
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_uniform_host(h, GPUX_INT32, 0, 4, &g_err_state, 0, 1), "int32");
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_normal_host(h, GPUX_BOOL, 0, 4, &g_err_state, 0, 1), "bool");
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_integers_host(h, GPUX_FLOAT32, 0, 4, &g_err_state, 0, 3), "float32");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers_host(h, GPUX_INT32, 0, 4, &g_err_state, 3, 3), "low");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal_host(h, GPUX_FLOAT32, 0, 4, &g_err_state, 0, -1), "std");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_bernoulli_host((uint8_t *)h, 0, 4, &g_err_state, 2), "p");
    gpux_status s = gpux_random_uniform_host(h, GPUX_FLOAT32, -1, 2, &g_err_state, 0, 1);
    GT_ASSERT(s != GPUX_SUCCESS, "_host with first = -1 succeeded");
    s = gpux_random_uniform_host(h, GPUX_FLOAT32, 0, -2, &g_err_state, 0, 1);
    GT_ASSERT(s != GPUX_SUCCESS, "_host with n = -2 succeeded");
    gpux_rng_state endst = {1, 2, UINT64_MAX - 3};
    s = gpux_random_uniform_host(h, GPUX_FLOAT32, 0, 4, &endst, 0, 1);
    GT_ASSERT(s != GPUX_SUCCESS, "_host values past word 2^64 succeeded");
    GT_OK(gpux_random_uniform_host(h, GPUX_FLOAT32, 0, 3, &endst, 0, 1));
    GT_OK(gpux_random_uniform_host(NULL, GPUX_FLOAT32, 0, 0, &g_err_state, 0, 1));
  }
  /* dtypes */
  gpux_array_t not_float[6] = {i32, i64, b8, u8, h16, bf16};
  for (int k = 0; k < 6; k++) {
    gpux_dtype dt;
    GT_OK(gpux_array_dtype(&dt, not_float[k]));
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_uniform(not_float[k], g, 0, 1), gt_dtype_str(dt));
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_normal(not_float[k], g, 0, 1), gt_dtype_str(dt));
  }
  gpux_array_t not_int[5] = {f32, f64, b8, h16, bf16};
  for (int k = 0; k < 5; k++) {
    if (!not_int[k]) continue;
    gpux_dtype dt;
    GT_OK(gpux_array_dtype(&dt, not_int[k]));
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_integers(not_int[k], g, 0, 3), gt_dtype_str(dt));
  }
  gpux_array_t not_bool[7] = {f32, f64, i32, i64, u8, h16, bf16};
  for (int k = 0; k < 7; k++) {
    if (!not_bool[k]) continue;
    gpux_dtype dt;
    GT_OK(gpux_array_dtype(&dt, not_bool[k]));
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_bernoulli(not_bool[k], g, 0.5), gt_dtype_str(dt));
  }
  EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_rand(&o, gt_ctx, g, GPUX_INT32, 1, s5), "int32");
  EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_rand(&o, gt_ctx, g, GPUX_FLOAT16, 1, s5), "float16");
  EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_randn(&o, gt_ctx, g, GPUX_BFLOAT16, 1, s5), "bfloat16");
  EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_randint(&o, gt_ctx, g, GPUX_FLOAT32, 1, s5, 0, 3), "float32");
  EXPECT_ERR(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_randint(&o, gt_ctx, g, GPUX_BOOL, 1, s5, 0, 2), "bool");
  /* integer dtypes: [low, high) within the dtype */
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_randint(&o, gt_ctx, g, GPUX_UINT8, 1, s5, 0, 257), "uint8");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_randint(&o, gt_ctx, g, GPUX_INT8, 1, s5, -129, 0), "int8");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_randint(&o, gt_ctx, g, GPUX_UINT64, 1, s5, -1, 5), "uint64");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_randint(&o, gt_ctx, g, GPUX_UINT32, 1, s5, 0, 2 * P31 + 1), "uint32");
  GT_ASSERT(o == NULL, "a failed gpux_rand/randn/randint left *out set");

  /* parameters */
  gpux_array_t fl[2] = {f32, f64};
  for (int k = 0; k < 2; k++) {
    gpux_array_t a = fl[k];
    if (!a) continue;
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(a, g, 1, 1), "low");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(a, g, 2, 1), "low");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(a, g, nan, 1), NULL);
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(a, g, 0, nan), NULL);
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(a, g, -inf, 0), NULL);
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(a, g, 0, inf), NULL);
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(a, g, -DBL_MAX, DBL_MAX), NULL);
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(a, g, 0, -1), "std");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(a, g, 0, nan), "std");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(a, g, 0, inf), "std");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(a, g, nan, 1), "mean");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(a, g, -inf, 1), "mean");
  }
  /* float32 only: a range or a mean beyond float32 */
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(f32, g, -3e38, 3e38), NULL);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(f32, g, 0, 1e39), NULL);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(f32, g, 1.0, 1.0 + 1e-12), NULL);
  /* normal float32 with a mean / std beyond float32: test_errors_f32_params */
  gpux_array_t in[2] = {i32, i64};
  for (int k = 0; k < 2; k++) {
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers(in[k], g, 3, 3), "low");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers(in[k], g, 3, -3), "low");
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers(in[k], g, INT64_MAX, INT64_MIN), "low");
  }
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers(i32, g, (int64_t)INT32_MIN - 1, 0), "int32");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers(i32, g, 0, P31 + 1), "int32");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_integers(i32, g, -P32, P32), "int32");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_randint(&o, gt_ctx, g, GPUX_INT32, 1, s5, 0, P31 + 1), "int32");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_randint(&o, gt_ctx, g, GPUX_INT64, 1, s5, 9, 9), "low");
  GT_ASSERT(o == NULL, "a failed gpux_randint left *out set");
  const double badp[5] = {-0.1, 1.1, nan, inf, -inf};
  for (int k = 0; k < 5; k++)
    EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_bernoulli(b8, g, badp[k]), "p");
  /* shapes */
  {
    const int64_t neg[2] = {3, -1};
    gpux_status s = gpux_rand(&o, gt_ctx, g, GPUX_FLOAT32, 2, neg);
    GT_ASSERT(s != GPUX_SUCCESS && o == NULL, "gpux_rand with shape (3, -1): %s", gpux_status_name(s));
    expect_err(s, s, "gpux_rand shape (3, -1)", NULL, __LINE__);
    s = gpux_random_permutation(&o, gt_ctx, g, -1);
    GT_ASSERT(s != GPUX_SUCCESS && o == NULL, "permutation of -1: %s", gpux_status_name(s));
    expect_err(s, s, "gpux_random_permutation(-1)", NULL, __LINE__);
  }
  /* past word 2^64: position 2^64 - 4 leaves 3 words (draws that end at 2^64 exactly are not
   * tested: the header says only "would pass 2^64") */
  {
    gpux_rng_state endst = {123, 456, UINT64_MAX - 3};
    GT_OK(gpux_generator_set_state(g, &endst));
    g_err_state = endst;
    const int64_t s2[1] = {2}, s9[1] = {9};
    gpux_array_t f2 = NULL, f9 = NULL, i2 = NULL, b9 = NULL;
    GT_OK(gpux_array_empty(&f9, gt_ctx, GPUX_FLOAT32, 1, s9));
    GT_OK(gpux_array_empty(&b9, gt_ctx, GPUX_BOOL, 1, s9));
    GT_OK(gpux_array_empty(&i2, gt_ctx, GPUX_INT64, 1, s2));
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_uniform(f9, g, 0, 1), "2^64");
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_normal(f9, g, 0, 1), "2^64");
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_bernoulli(b9, g, 0.5), "2^64");
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_integers(i2, g, 0, 5), "2^64");
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_permutation(&o, gt_ctx, g, 3), "2^64");
    EXPECT_ERR(GPUX_ERROR_SIZE_OVERFLOW, gpux_rand(&o, gt_ctx, g, GPUX_FLOAT32, 1, s9), "2^64");
    GT_ASSERT(o == NULL, "a failed draw left *out set");
    /* 3 words are still fine, and they are the right ones */
    GT_OK(gpux_array_empty(&f2, gt_ctx, GPUX_FLOAT32, 1, s2));
    GT_OK(gpux_random_uniform(f2, g, 0, 1));
    float got[2], want[2];
    GT_OK(gpux_array_read(f2, got, sizeof got));
    rr_uniform(want, GPUX_FLOAT32, 0, 2, to_rr(&endst), 0, 1);
    expect_same("2 float32 at position 2^64 - 4", "device vs reference", GPUX_FLOAT32, got, want, 2);
    gpux_array_release(f2);
    gpux_array_release(f9);
    gpux_array_release(b9);
    gpux_array_release(i2);
  }
  gpux_array_release(f32);
  gpux_array_release(f64);
  gpux_array_release(i32);
  gpux_array_release(i64);
  gpux_array_release(b8);
  gpux_array_release(u8);
  gpux_array_release(h16);
  gpux_array_release(bf16);
  gpux_generator_release(g);
  g_err = NULL;
  /* nothing leaked, the context works */
  GT_OK(gpux_context_synchronize(gt_ctx));
  GT_OK(gpux_pool_get_stats(&after, gt_ctx));
  GT_ASSERT(after.bytes_in_use == before.bytes_in_use,
            "bytes_in_use %" PRIu64 " after the error tests, %" PRIu64 " before", after.bytes_in_use,
            before.bytes_in_use);
  gt_smoke(gt_ctx);
}

/* normal float32 with a mean or std that is finite in float64 but not in float32 (the
 * header: "std >= 0 and finite, mean finite"; the front end rounds them to float32) */
static void test_errors_f32_params(void **state) {
  (void)state;
  const int64_t s5[1] = {5};
  gpux_array_t f32 = poisoned_out(GPUX_FLOAT32, 1, s5), o = NULL;
  g_err = make_gen(1, 2, 3);
  g_err_state = get_state(g_err);
  float h[2];
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal_host(h, GPUX_FLOAT32, 0, 2, &g_err_state, 1e39, 1), "mean");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal_host(h, GPUX_FLOAT32, 0, 2, &g_err_state, 0, 1e39), "std");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(f32, g_err, 1e39, 1), "mean");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(f32, g_err, -1e39, 1), "mean");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(f32, g_err, 0, 1e39), "std");
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(f32, g_err, 0, DBL_MAX), "std");
  /* the largest float32 values are fine */
  GT_OK(gpux_random_normal_host(h, GPUX_FLOAT32, 0, 2, &g_err_state, -FLT_MAX, 0));
  GT_ASSERT(h[0] == -FLT_MAX && h[1] == -FLT_MAX, "normal(-FLT_MAX, 0): %g %g", h[0], h[1]);
  gpux_array_release(f32);
  gpux_array_release(o);
  gpux_generator_release(g_err);
  g_err = NULL;
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_random");
  enum { MAXT = 160 };
  static struct CMUnitTest tests[MAXT];
  static char names[MAXT][96];
  size_t n = 0;
  tests[n++] = (struct CMUnitTest){"kat", test_kat, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"generator", test_generator, NULL, NULL, NULL};
  static const struct {
    const char *what;
    void (*fn)(void **);
    int all; /* every parameter set, or the first of each (kind, dtype) */
  } groups[] = {{"draws", test_draws, 1},
                {"big", test_big, 0},
                {"views", test_views, 1},
                {"split_draws", test_split_draws, 0}};
  for (size_t gi = 0; gi < sizeof groups / sizeof groups[0]; gi++)
    for (size_t ci = 0; ci < NCASES; ci++) {
      const rcase *c = &k_cases[ci];
      if (!gt_dtype_available(c->dt)) continue;
      if (!groups[gi].all && ci > 0 && k_cases[ci - 1].kind == c->kind && k_cases[ci - 1].dt == c->dt &&
          k_cases[ci - 1].closed == c->closed &&
          !(c->kind == INTS && c->ia == INT64_MIN && !c->closed)) /* big: also the full
                                                                      * int64 range */
        continue;
      char cs[80];
      case_str(cs, sizeof cs, c);
      snprintf(names[n], sizeof names[n], "%s %s", groups[gi].what, cs);
      tests[n] = (struct CMUnitTest){names[n], groups[gi].fn, NULL, NULL, (void *)c};
      n++;
    }
  tests[n++] = (struct CMUnitTest){"zig_paths", test_zig_paths, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"zig_queue", test_zig_queue, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"retry", test_retry, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"integers_u64", test_integers_u64, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"create", test_create, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"permutation", test_permutation, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"statistics", test_statistics, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"accuracy", test_accuracy, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"errors", test_errors, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"errors_f32_params", test_errors_f32_params, NULL, NULL, NULL};
  int failed = gt_run("random", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
