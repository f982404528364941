/* gpux tests: the complex elementwise ops (issue 23): binary add, sub, mul, div, pow, eq, ne
 * and the logical ops; unary neg, conj, real, imag, abs, angle, exp, log, sqrt, sin, cos,
 * logical_not; where; the complex scalar forms; conj / real / imag / angle of real arrays;
 * the rejections. Each case against tests/ref/ref_complex_ew.c, outputs poisoned first.
 *
 * Exactness and tolerances (kernels/common/gpux_kernels.h lists the formulas):
 *   add, sub, mul, div, neg, conj, real, imag, eq, ne, logical ops, where, and pow with a
 *   zero operand or an integral real exponent |n| < 100: the bits of the reference's same
 *   formula in the component type (NaN matches any NaN: payloads differ across devices);
 *   abs: 4 ulp; angle: 6 ulp; sqrt: 8 ulp; exp, log, sin, cos: 16 ulp; pow otherwise:
 *   32 + 4 |b| (|log|a|| + pi) ulp (exp(b log a) carries log's error times |b log a|;
 *   elements where that exceeds 2^20 ulp are not compared: no digit of them is right):
 *   ulps of the component dtype, relative to the magnitude of the reference result (the
 *   hypot of its finite parts), component by component; a NaN part must be NaN, an inf part
 *   the same inf; signs of zero results are compared only for the exact ops (the comparison:
 *   gt_cx_check in tests/common/test_util.c, which fuzz_api shares). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#include "ref_complex_ew.h"

#define CX_PI 3.14159265358979323846
#define CX_SQRT2 1.41421356237309504880

static const gpux_dtype k_cplx[] = {GPUX_COMPLEX64, GPUX_COMPLEX128};
static gpux_dtype comp_of(gpux_dtype dt) { return dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64; }

/* ------------------------------------------------------------------ inputs */

/* extra edge pairs: overflow-prone magnitudes, tiny ones, the branch cut, signed zeros */
static void edge_pairs(double *v, int *nv, gpux_dtype dt) {
  const double big = dt == GPUX_COMPLEX64 ? 2e38 : 1e300, tiny = dt == GPUX_COMPLEX64 ? 1e-40 : 1e-300;
  const double p[][2] = {{big, big},   {-big, big},  {big, -big},  {tiny, tiny},   {-tiny, tiny},
                         {-4.0, 0.0},  {-4.0, -0.0}, {-1.0, 0.0},  {-1.0, -0.0},   {0.0, -0.0},
                         {-0.0, 0.0},  {1.0, 1e-7},  {0.6, 0.8},   {1.0 - 1e-7, 1e-4}, {big, 1.0},
                         {1.0, big},   {tiny, 1.0},  {3.0, -4.0},  {-2.5, 1.5},    {1e-20, -3.0}};
  *nv = 0;
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
    v[(*nv)++] = p[i][0];
    v[(*nv)++] = p[i][1];
  }
}

/* n elements of dt: specials (the component's specials paired two ways, then the edge pairs)
 * when with_special, then values of domain dom */
static void *make_cx(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed, int with_special) {
  const size_t es = gpux_dtype_size(dt), cs = es / 2;
  unsigned char *p = gt_malloc((size_t)n * es + 1);
  gt_fill_random(p, dt, n, dom, seed);
  if (!with_special) return p;
  unsigned char sv[64 * 16];
  int64_t ns = gt_special_values(sv, dt, 64);
  if (ns > n) ns = n;
  memcpy(p, sv, (size_t)ns * es);
  double e[64];
  int ne;
  edge_pairs(e, &ne, dt);
  for (int k = 0; k < ne && ns + k / 2 < n; k++)
    ref_cast_bits(GPUX_FLOAT64, comp_of(dt), 1, &e[k], p + (size_t)ns * es + (size_t)k * cs);
  return p;
}

/* ------------------------------------------------------------------ binary */

static const gpux_binary_op k_bops[] = {GPUX_ADD, GPUX_SUB, GPUX_MUL, GPUX_DIV, GPUX_POW,
                                        GPUX_EQ,  GPUX_NE,  GPUX_LOGICAL_AND, GPUX_LOGICAL_OR,
                                        GPUX_LOGICAL_XOR};
#define N_BOPS ((int)(sizeof k_bops / sizeof k_bops[0]))

/* contiguous, same shape: new output (n odd) or into a poisoned one */
static void bin_contig(gpux_binary_op op, gpux_dtype dt, int64_t n, int special, int into,
                       uint64_t seed) {
  char label[160];
  snprintf(label, sizeof label, "%s %s c n=%lld%s", gt_binary_str(op), gt_dtype_str(dt),
           (long long)n, into ? " into" : "");
  const gpux_dtype rdt = ref_binary_result(op, dt);
  void *ha = make_cx(dt, n, gt_cx_binary_domain(op, 0), seed, special);
  void *hb = make_cx(dt, n, gt_cx_binary_domain(op, 1), seed + 1, 0);
  for (int64_t i = 0; i < n; i += 5) /* equal operands now and then (eq, ne, sub) */
    memcpy((char *)hb + i * gpux_dtype_size(dt), (char *)ha + i * gpux_dtype_size(dt), gpux_dtype_size(dt));
  if (special && n > 200) /* the specials against each other: a[i] op a[perm(i)] */
    for (int64_t i = 0; i < 200; i++)
      memcpy((char *)hb + i * gpux_dtype_size(dt), (char *)ha + ((i * 37) % 200) * gpux_dtype_size(dt),
             gpux_dtype_size(dt));
  gpux_array_t a = NULL, b = NULL, o = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, ha));
  GT_OK(gpux_array_from_host(&b, gt_ctx, dt, 1, &n, hb));
  if (into) {
    o = gt_poisoned(rdt, 1, &n);
    GT_OK(gpux_binary_into(o, op, a, b));
  } else {
    GT_OK(gpux_binary(&o, op, a, b));
    gt_check_shape(o, rdt, 1, &n, label);
  }
  void *got = gt_read_all(o, NULL);
  gt_cx_check_binary(label, op, dt, got, ha, hb, n);
  free(got);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(o);
  free(ha);
  free(hb);
}

/* the scalar forms: a op s and s op a with a complex scalar (and the double form: s + 0i) */
static void bin_scalar(gpux_binary_op op, gpux_dtype dt, int64_t n, uint64_t seed) {
  const gpux_dtype rdt = ref_binary_result(op, dt);
  const size_t es = gpux_dtype_size(dt);
  void *ha = make_cx(dt, n, gt_cx_binary_domain(op, 0), seed, 1);
  gpux_array_t a = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, ha));
  /* 1/3 - 2.5i (rounded per part for complex64); real integers (pow's exact cases: n = 2,
   * the powering loop, a negative exponent); 0.5 + 0.25i */
  const gpux_complex128 svals[] = {gpux_complex128_make(1.0 / 3.0, -2.5),
                                   gpux_complex128_make(2.0, 0.0), gpux_complex128_make(5.0, 0.0),
                                   gpux_complex128_make(-3.0, 0.0),
                                   gpux_complex128_make(0.5, 0.25)};
  for (int k = 0; k < 5; k++) {
    const gpux_complex128 s = svals[k];
    unsigned char sb[16];
    const double parts[2] = {s.re, s.im};
    ref_cast_bits(GPUX_FLOAT64, comp_of(dt), 2, parts, sb); /* the scalar as the array's dtype */
    void *sbuf = gt_malloc((size_t)n * es + 1);
    for (int64_t i = 0; i < n; i++) memcpy((char *)sbuf + i * es, sb, es);
    for (int first = 0; first < 2; first++) {
      char label[160];
      snprintf(label, sizeof label, "%s %s s n=%lld s=%g%+gi%s", gt_binary_str(op),
               gt_dtype_str(dt), (long long)n, s.re, s.im, first ? " first" : "");
      gpux_array_t o = gt_poisoned(rdt, 1, &n), o2 = NULL;
      if (first) {
        GT_OK(gpux_scalar_complex_binary_into(o, op, s, a));
        if (s.im == 0) GT_OK(gpux_scalar_binary(&o2, op, s.re, a));
      } else {
        GT_OK(gpux_binary_scalar_complex_into(o, op, a, s));
        if (s.im == 0) GT_OK(gpux_binary_scalar(&o2, op, a, s.re));
      }
      void *got = gt_read_all(o, NULL);
      void *want = gt_malloc((size_t)n * ref_dtype_size(rdt) + 1);
      ref_cx_binary_scalar(op, dt, n, ha, sb, first, want);
      gt_cx_check(label, rdt, dt, got, want, n, op == GPUX_POW, 1, 0, first ? sbuf : ha,
                  first ? ha : sbuf);
      free(got);
      if (o2) {
        got = gt_read_all(o2, NULL);
        gt_cx_check(label, rdt, dt, got, want, n, op == GPUX_POW, 1, 0, first ? sbuf : ha,
                    first ? ha : sbuf);
        free(got);
      }
      free(want);
      gpux_array_release(o);
      gpux_array_release(o2);
    }
    free(sbuf);
  }
  gpux_array_release(a);
  free(ha);
}

/* layout n: a [R, 1] against b [1, C] (broadcast), and a transposed view against a
 * contiguous array, into a strided output */
static void bin_nd(gpux_binary_op op, gpux_dtype dt, uint64_t seed) {
  const gpux_dtype rdt = ref_binary_result(op, dt);
  const size_t es = gpux_dtype_size(dt), rs = ref_dtype_size(rdt);
  const int64_t R = 37, C = 29, sa[2] = {R, 1}, sb[2] = {1, C}, so[2] = {R, C};
  unsigned char *ha = make_cx(dt, R, gt_cx_binary_domain(op, 0), seed, 1),
                *hb = make_cx(dt, C, gt_cx_binary_domain(op, 1), seed + 1, 1);
  gpux_array_t a = NULL, b = NULL, o = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 2, sa, ha));
  GT_OK(gpux_array_from_host(&b, gt_ctx, dt, 2, sb, hb));
  GT_OK(gpux_binary(&o, op, a, b));
  gt_check_shape(o, rdt, 2, so, "bin_nd");
  unsigned char *fa = gt_malloc((size_t)(R * C) * es), *fb = gt_malloc((size_t)(R * C) * es);
  for (int64_t i = 0; i < R; i++)
    for (int64_t j = 0; j < C; j++) {
      memcpy(fa + (size_t)(i * C + j) * es, ha + (size_t)i * es, es);
      memcpy(fb + (size_t)(i * C + j) * es, hb + (size_t)j * es, es);
    }
  char label[160];
  snprintf(label, sizeof label, "%s %s n broadcast", gt_binary_str(op), gt_dtype_str(dt));
  void *got = gt_read_all(o, NULL);
  gt_cx_check_binary(label, op, dt, got, fa, fb, R * C);
  free(got);
  gpux_array_release(o);
  /* transposed: t = (a2 [C, R])^T against contiguous c [R, C], into a reversed view */
  const int64_t st[2] = {C, R};
  void *h2 = make_cx(dt, R * C, gt_cx_binary_domain(op, 0), seed + 2, 1);
  void *h3 = make_cx(dt, R * C, gt_cx_binary_domain(op, 1), seed + 3, 0);
  gpux_array_t a2 = NULL, t = NULL, c3 = NULL;
  GT_OK(gpux_array_from_host(&a2, gt_ctx, dt, 2, st, h2));
  GT_OK(gpux_array_transpose(&t, a2));
  GT_OK(gpux_array_from_host(&c3, gt_ctx, dt, 2, so, h3));
  gt_view vo;
  gt_view_make(&vo, rdt, 2, so, GT_REVERSED, NULL);
  GT_OK(gpux_binary_into(vo.view, op, t, c3));
  void *gotv = gt_malloc((size_t)(R * C) * rs + 1);
  snprintf(label, sizeof label, "%s %s n transposed", gt_binary_str(op), gt_dtype_str(dt));
  gt_view_read(&vo, gotv, label);
  unsigned char *ta = gt_malloc((size_t)(R * C) * es);
  for (int64_t i = 0; i < R; i++)
    for (int64_t j = 0; j < C; j++)
      memcpy(ta + (size_t)(i * C + j) * es, (unsigned char *)h2 + (size_t)(j * R + i) * es, es);
  gt_cx_check_binary(label, op, dt, gotv, ta, h3, R * C);
  gt_view_free(&vo);
  GT_RELEASE(a, b, a2, t, c3);
  GT_FREE(ha, hb, fa, fb, h2, h3, gotv, ta);
}

typedef struct cx_case {
  int op;
  gpux_dtype dt;
} cx_case;

static void test_cx_binary(void **state) {
  const cx_case *c = *state;
  const gpux_binary_op op = (gpux_binary_op)c->op;
  const gpux_dtype dt = c->dt;
  if (!gt_dtype_available(dt)) skip();
  assert_int_equal(gpux_binary_op_supports(op, dt), 1);
  const uint64_t seed = 1000u * (uint64_t)op + (uint64_t)dt;
  bin_contig(op, dt, 1, 0, 0, seed);
  bin_contig(op, dt, 7, 0, 1, seed + 10);
  bin_contig(op, dt, 1001, 1, 1, seed + 20);
  if ((op == GPUX_MUL && dt == GPUX_COMPLEX64) || (op == GPUX_DIV && dt == GPUX_COMPLEX128))
    bin_contig(op, dt, GT_BIG, 1, 0, seed + 30);
  /* empty: both forms */
  const int64_t z = 0, ze[2] = {0, 3};
  gpux_array_t a = NULL, o = NULL;
  GT_OK(gpux_array_empty(&a, gt_ctx, dt, 2, ze));
  GT_OK(gpux_binary(&o, op, a, a));
  gt_check_shape(o, ref_binary_result(op, dt), 2, ze, "empty");
  GT_OK(gpux_binary_into(o, op, a, a));
  gpux_array_release(o);
  GT_OK(gpux_binary_scalar_complex(&o, op, a, gpux_complex128_make(1, 1)));
  gpux_array_release(o);
  gpux_array_release(a);
  (void)z;
  bin_scalar(op, dt, 1, seed + 40);
  bin_scalar(op, dt, 333, seed + 50);
  bin_nd(op, dt, seed + 60);
}

/* ------------------------------------------------------------------ unary */

static const gpux_unary_op k_uops[] = {GPUX_NEG, GPUX_CONJ, GPUX_REAL, GPUX_IMAG,
                                       GPUX_ABS, GPUX_ANGLE, GPUX_EXP, GPUX_LOG,
                                       GPUX_SQRT, GPUX_SIN, GPUX_COS, GPUX_LOGICAL_NOT};
#define N_UOPS ((int)(sizeof k_uops / sizeof k_uops[0]))

static void un_contig(gpux_unary_op op, gpux_dtype dt, int64_t n, int special, int into,
                      uint64_t seed) {
  char label[160];
  snprintf(label, sizeof label, "%s %s c n=%lld%s", gt_unary_str(op), gt_dtype_str(dt),
           (long long)n, into ? " into" : "");
  const gpux_dtype rdt = ref_unary_result(op, dt);
  void *ha = make_cx(dt, n, gt_cx_unary_domain(op), seed, special);
  gpux_array_t a = NULL, o = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, ha));
  if (into) {
    o = gt_poisoned(rdt, 1, &n);
    GT_OK(gpux_unary_into(o, op, a));
  } else {
    GT_OK(gpux_unary(&o, op, a));
    gt_check_shape(o, rdt, 1, &n, label);
  }
  void *got = gt_read_all(o, NULL);
  gt_cx_check_unary(label, op, dt, got, ha, n);
  free(got);
  gpux_array_release(a);
  gpux_array_release(o);
  free(ha);
}

static void test_cx_unary(void **state) {
  const cx_case *c = *state;
  const gpux_unary_op op = (gpux_unary_op)c->op;
  const gpux_dtype dt = c->dt;
  if (!gt_dtype_available(dt)) skip();
  assert_int_equal(gpux_unary_op_supports(op, dt), 1);
  const uint64_t seed = 5000u + 100u * (uint64_t)op + (uint64_t)dt;
  un_contig(op, dt, 1, 0, 1, seed);
  un_contig(op, dt, 7, 0, 0, seed + 1);
  un_contig(op, dt, 1001, 1, 1, seed + 2);
  if ((op == GPUX_ABS && dt == GPUX_COMPLEX128) || (op == GPUX_EXP && dt == GPUX_COMPLEX64))
    un_contig(op, dt, GT_BIG, 1, 0, seed + 3);
  /* empty */
  const int64_t ze[2] = {3, 0};
  gpux_array_t a = NULL, o = NULL;
  GT_OK(gpux_array_empty(&a, gt_ctx, dt, 2, ze));
  GT_OK(gpux_unary(&o, op, a));
  gt_check_shape(o, ref_unary_result(op, dt), 2, ze, "empty");
  gpux_array_release(o);
  gpux_array_release(a);
  /* layout n: a transposed view into a strided output */
  const int64_t R = 23, C = 41, st[2] = {C, R}, so[2] = {R, C};
  const gpux_dtype rdt = ref_unary_result(op, dt);
  const size_t es = gpux_dtype_size(dt);
  unsigned char *h = make_cx(dt, R * C, gt_cx_unary_domain(op), seed + 4, 1);
  gpux_array_t b = NULL, t = NULL;
  GT_OK(gpux_array_from_host(&b, gt_ctx, dt, 2, st, h));
  GT_OK(gpux_array_transpose(&t, b));
  gt_view vo;
  gt_view_make(&vo, rdt, 2, so, GT_STRIDED, NULL);
  GT_OK(gpux_unary_into(vo.view, op, t));
  void *got = gt_malloc((size_t)(R * C) * ref_dtype_size(rdt) + 1);
  char label[160];
  snprintf(label, sizeof label, "%s %s n transposed", gt_unary_str(op), gt_dtype_str(dt));
  gt_view_read(&vo, got, label);
  unsigned char *ta = gt_malloc((size_t)(R * C) * es);
  for (int64_t i = 0; i < R; i++)
    for (int64_t j = 0; j < C; j++)
      memcpy(ta + (size_t)(i * C + j) * es, h + (size_t)(j * R + i) * es, es);
  gt_cx_check_unary(label, op, dt, got, ta, R * C);
  gt_view_free(&vo);
  GT_RELEASE(b, t);
  GT_FREE(h, got, ta);
  /* in place where the result is complex */
  if (rdt == dt) {
    const int64_t n = 101;
    void *hi = make_cx(dt, n, gt_cx_unary_domain(op), seed + 5, 1);
    gpux_array_t x = NULL;
    GT_OK(gpux_array_from_host(&x, gt_ctx, dt, 1, &n, hi));
    GT_OK(gpux_unary_into(x, op, x));
    void *g = gt_read_all(x, NULL);
    snprintf(label, sizeof label, "%s %s in place", gt_unary_str(op), gt_dtype_str(dt));
    gt_cx_check_unary(label, op, dt, g, hi, n);
    gpux_array_release(x);
    GT_FREE(hi, g);
  }
}

/* ------------------------------------------------------------------ where */

static void test_cx_where(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_cplx[k];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    const int64_t sizes[] = {1, 7, 4099};
    for (int s = 0; s < 3; s++) {
      const int64_t n = sizes[s];
      /* ha feeds a of n elements and a2 of 3: at least 3 elements, so n = 1 reads none past
       * the buffer */
      unsigned char *ha = make_cx(dt, n < 3 ? 3 : n, GT_DOM_ANY, 77 + s, 1),
                    *hb = make_cx(dt, n, GT_DOM_ANY, 88 + s, 0);
      unsigned char *hc = gt_malloc((size_t)n);
      for (int64_t i = 0; i < n; i++) hc[i] = (unsigned char)((i * 7 + s) % 3 == 0);
      gpux_array_t c = NULL, a = NULL, b = NULL, o;
      GT_OK(gpux_array_from_host(&c, gt_ctx, GPUX_BOOL, 1, &n, hc));
      GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, ha));
      GT_OK(gpux_array_from_host(&b, gt_ctx, dt, 1, &n, hb));
      o = gt_poisoned(dt, 1, &n);
      GT_OK(gpux_where_into(o, c, a, b));
      unsigned char *got = gt_read_all(o, NULL);
      for (int64_t i = 0; i < n; i++)
        if (memcmp(got + i * es, (hc[i] ? ha : hb) + i * es, es) != 0)
          fail_msg("where %s c n=%lld: element %lld is not the chosen one's bits", gt_dtype_str(dt),
                   (long long)n, (long long)i);
      free(got);
      gpux_array_release(o);
      /* layout n: cond [n, 1] against a [1, 3] and b [n, 3] */
      const int64_t sc[2] = {n, 1}, sa[2] = {1, 3}, sb[2] = {n, 3};
      gpux_array_t c2 = NULL, a2 = NULL, b2 = NULL;
      unsigned char *hb2 = make_cx(dt, 3 * n, GT_DOM_ANY, 99 + s, 1);
      GT_OK(gpux_array_from_host(&c2, gt_ctx, GPUX_BOOL, 2, sc, hc));
      GT_OK(gpux_array_from_host(&a2, gt_ctx, dt, 2, sa, ha));
      GT_OK(gpux_array_from_host(&b2, gt_ctx, dt, 2, sb, hb2));
      o = NULL;
      GT_OK(gpux_where(&o, c2, a2, b2));
      got = gt_read_all(o, NULL);
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < 3; j++)
          if (memcmp(got + (size_t)(i * 3 + j) * es, hc[i] ? ha + j * es : hb2 + (size_t)(i * 3 + j) * es, es) != 0)
            fail_msg("where %s n (%lld, %lld): not the chosen element's bits", gt_dtype_str(dt),
                     (long long)i, (long long)j);
      free(got);
      GT_RELEASE(o, c, a, b, c2, a2, b2);
      GT_FREE(ha, hb, hc, hb2);
    }
  }
}

/* ------------------------------------------------------------------ named cases */

/* values the formulas must get right where naive ones fail */
static void test_cx_edges(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_cplx[k];
    if (!gt_dtype_available(dt)) continue;
    const int f32 = dt == GPUX_COMPLEX64;
    const double big = f32 ? 1e38 : 1e300;
    const int64_t n = 1;
    gpux_array_t a = NULL, o = NULL;
    double got[4] = {0, 0, 0, 0};
    float gf[4];
#define GET2(arr)                                                                    \
  do {                                                                               \
    if (f32) {                                                                       \
      GT_OK(gpux_array_read(arr, gf, 8));                                            \
      got[0] = gf[0];                                                                \
      got[1] = gf[1];                                                                \
    } else {                                                                         \
      GT_OK(gpux_array_read(arr, got, 16));                                          \
    }                                                                                \
  } while (0)
    /* (big + big i) / (big + big i) == 1 */
    GT_OK(gpux_array_full_complex(&a, gt_ctx, dt, 1, &n, big, big));
    GT_OK(gpux_binary(&o, GPUX_DIV, a, a));
    GET2(o);
    GT_ASSERT(got[0] == 1.0 && got[1] == 0.0, "%s: (big+big i)/(big+big i) = %g%+gi", gt_dtype_str(dt), got[0], got[1]);
    gpux_array_release(o);
    /* |big + big i| is finite (sqrt 2 big) */
    GT_OK(gpux_unary(&o, GPUX_ABS, a));
    double r = 0;
    if (f32) {
      GT_OK(gpux_array_read(o, gf, 4));
      r = gf[0];
    } else {
      GT_OK(gpux_array_read(o, &r, 8));
    }
    GT_ASSERT(fabs(r / (big * CX_SQRT2) - 1) < 1e-6, "%s: |big + big i| = %g", gt_dtype_str(dt), r);
    gpux_array_release(o);
    /* sqrt(big + big i) finite */
    GT_OK(gpux_unary(&o, GPUX_SQRT, a));
    GET2(o);
    GT_ASSERT(isfinite(got[0]) && isfinite(got[1]), "%s: sqrt(big + big i) = %g%+gi", gt_dtype_str(dt), got[0], got[1]);
    GT_RELEASE(o, a);
    /* sqrt on the branch cut: sqrt(-4 + 0i) = 2i, sqrt(-4 - 0i) = -2i */
    for (int sg = 0; sg < 2; sg++) {
      GT_OK(gpux_array_full_complex(&a, gt_ctx, dt, 1, &n, -4.0, sg ? -0.0 : 0.0));
      GT_OK(gpux_unary(&o, GPUX_SQRT, a));
      GET2(o);
      GT_ASSERT(got[0] == 0.0 && got[1] == (sg ? -2.0 : 2.0), "%s: sqrt(-4%s0i) = %g%+gi", gt_dtype_str(dt),
                sg ? "-" : "+", got[0], got[1]);
      gpux_array_release(o);
      GT_OK(gpux_unary(&o, GPUX_LOG, a));
      GET2(o);
      const double pi = f32 ? (double)(float)CX_PI : CX_PI;
      GT_ASSERT(fabs(got[0] - log(4.0)) < 1e-6 && got[1] == (sg ? -pi : pi), "%s: log(-4%s0i) = %g%+gi",
                gt_dtype_str(dt), sg ? "-" : "+", got[0], got[1]);
      GT_RELEASE(o, a);
    }
    /* 0 ** 0 = 1; 0 ** 2 = 0; 0 ** -1 = NaN */
    GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 1, &n));
    const double ex[3] = {0.0, 2.0, -1.0};
    for (int e = 0; e < 3; e++) {
      GT_OK(gpux_binary_scalar(&o, GPUX_POW, a, ex[e]));
      GET2(o);
      if (e == 0) GT_ASSERT(got[0] == 1.0 && got[1] == 0.0, "0**0 = %g%+gi", got[0], got[1]);
      if (e == 1) GT_ASSERT(got[0] == 0.0 && got[1] == 0.0, "0**2 = %g%+gi", got[0], got[1]);
      if (e == 2) GT_ASSERT(isnan(got[0]) && isnan(got[1]), "0**-1 = %g%+gi", got[0], got[1]);
      gpux_array_release(o);
    }
    gpux_array_release(a);
  }
#undef GET2
}

/* complex scalars on real arrays: im == 0 works, im != 0 is an error; the promoting form */
static void test_cx_scalar_forms(void **state) {
  (void)state;
  const int64_t n = 5;
  const int32_t hi[5] = {-2, -1, 0, 3, 7};
  gpux_array_t a = NULL, o = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_INT32, 1, &n, hi));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_binary_scalar_complex(&o, GPUX_ADD, a, gpux_complex128_make(1, 2)));
  assert_null(o);
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_scalar_complex_binary(&o, GPUX_ADD, gpux_complex128_make(1, NAN), a));
  assert_null(o);
  GT_OK(gpux_binary_scalar_complex(&o, GPUX_ADD, a, gpux_complex128_make(4, 0)));
  int32_t g32[5];
  GT_OK(gpux_array_read(o, g32, sizeof g32));
  for (int i = 0; i < 5; i++) assert_int_equal(g32[i], hi[i] + 4);
  gpux_array_release(o);
  if (gt_dtype_available(GPUX_COMPLEX128)) {
    /* int32 with a complex scalar: complex128; s - a */
    GT_OK(gpux_scalar_complex_binary_promote(&o, GPUX_SUB, gpux_complex128_make(0.5, -1), a));
    gt_check_shape(o, GPUX_COMPLEX128, 1, &n, "promote");
    gpux_complex128 g[5];
    GT_OK(gpux_array_read(o, g, sizeof g));
    for (int i = 0; i < 5; i++)
      GT_ASSERT(g[i].re == 0.5 - hi[i] && g[i].im == -1.0, "0.5-1i - %d = %g%+gi", hi[i], g[i].re, g[i].im);
    gpux_array_release(o);
  }
  /* float32 with a complex scalar: complex64 (1e40 rounds to inf in float32) */
  gpux_array_t f = NULL;
  const float hf[2] = {1.5f, -2.0f};
  const int64_t n2 = 2;
  GT_OK(gpux_array_from_host(&f, gt_ctx, GPUX_FLOAT32, 1, &n2, hf));
  GT_OK(gpux_binary_scalar_complex_promote(&o, GPUX_MUL, f, gpux_complex128_make(2, 1e40)));
  gt_check_shape(o, GPUX_COMPLEX64, 1, &n2, "promote f32");
  gpux_complex64 gc[2];
  GT_OK(gpux_array_read(o, gc, sizeof gc));
  /* (x + 0i)(2 + inf i) = (2x - 0*inf, x*inf + 0*2) = (NaN, +-inf) */
  for (int i = 0; i < 2; i++)
    GT_ASSERT(isnan(gc[i].re) && isinf(gc[i].im) && (gc[i].im > 0) == (hf[i] > 0),
              "%g * (2 + 1e40i) = %g%+gi", hf[i], gc[i].re, gc[i].im);
  GT_RELEASE(o, f, a);
}

/* conj, real, imag, angle of real arrays (NumPy's answers) */
static void test_cx_real_inputs(void **state) {
  (void)state;
  const gpux_dtype dts[] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_INT32, GPUX_BOOL};
  const double v[] = {1.5, -2.0, 0.0, -0.0, INFINITY, -INFINITY, NAN, 3.0};
  const int64_t n = 8;
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    const gpux_dtype dt = dts[d];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    unsigned char h[8 * 8];
    ref_cast_bits(GPUX_FLOAT64, dt, n, v, h);
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, h));
    const gpux_unary_op ops[] = {GPUX_CONJ, GPUX_REAL, GPUX_IMAG, GPUX_ANGLE};
    for (int k = 0; k < 4; k++) {
      const gpux_unary_op op = ops[k];
      const int isf = ref_dtype_is_float(dt);
      if (op == GPUX_ANGLE && !isf) {
        assert_int_equal(gpux_unary_op_supports(op, dt), 0);
        gpux_array_t o = NULL;
        GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_unary(&o, op, a));
        continue;
      }
      assert_int_equal(gpux_unary_op_supports(op, dt), 1);
      gpux_array_t o = gt_poisoned(dt, 1, &n);
      GT_OK(gpux_unary_into(o, op, a));
      unsigned char *got = gt_read_all(o, NULL);
      unsigned char want[8 * 8];
      double w[8];
      for (int i = 0; i < 8; i++) {
        double x;
        ref_cast_bits(dt, GPUX_FLOAT64, 1, h + i * es, &x);
        w[i] = op == GPUX_IMAG ? 0.0 : op == GPUX_ANGLE ? atan2(0.0, x) : x;
      }
      if (op == GPUX_ANGLE && dt == GPUX_FLOAT32) /* float32's pi, not float64's rounded */
        for (int i = 0; i < 8; i++) w[i] = (double)(float)w[i];
      ref_cast_bits(GPUX_FLOAT64, dt, n, w, want);
      for (int i = 0; i < 8; i++) {
        double g, ww;
        ref_cast_bits(dt, GPUX_FLOAT64, 1, got + i * es, &g);
        ref_cast_bits(dt, GPUX_FLOAT64, 1, want + i * es, &ww);
        GT_ASSERT((isnan(g) && isnan(ww)) || !memcmp(got + i * es, want + i * es, es),
                  "%s of %s %g: got %g want %g", gt_unary_str(op), gt_dtype_str(dt), v[i], g, ww);
      }
      free(got);
      gpux_array_release(o);
    }
    gpux_array_release(a);
  }
}

/* the ops complex does not take: GPUX_ERROR_UNSUPPORTED_DTYPE naming the dtype */
static void test_cx_rejects(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k_cplx[k];
    if (!gt_dtype_available(dt)) continue;
    const int64_t sh[1] = {4};
    gpux_array_t a = NULL, o = NULL;
    GT_OK(gpux_array_ones(&a, gt_ctx, dt, 1, sh));
    for (int op = 0; op < GPUX_BINARY_OP_COUNT; op++) {
      int listed = 0;
      for (int j = 0; j < N_BOPS; j++) listed |= (int)k_bops[j] == op;
      assert_int_equal(gpux_binary_op_supports((gpux_binary_op)op, dt), listed);
      if (listed) continue;
      GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary(&o, (gpux_binary_op)op, a, a));
      GT_ASSERT(strstr(gpux_last_error_message(), gpux_dtype_name(dt)) != NULL, "message: %s",
                gpux_last_error_message());
      assert_null(o);
      GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE,
                gpux_binary_scalar_complex(&o, (gpux_binary_op)op, a, gpux_complex128_make(1, 1)));
      GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary_promote(&o, (gpux_binary_op)op, a, a));
    }
    for (int op = 0; op < GPUX_UNARY_OP_COUNT; op++) {
      int listed = 0;
      for (int j = 0; j < N_UOPS; j++) listed |= (int)k_uops[j] == op;
      assert_int_equal(gpux_unary_op_supports((gpux_unary_op)op, dt), listed);
      if (listed) continue;
      GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_unary(&o, (gpux_unary_op)op, a));
      GT_ASSERT(strstr(gpux_last_error_message(), gpux_dtype_name(dt)) != NULL, "message: %s",
                gpux_last_error_message());
    }
    /* a real output for a complex result, and the reverse */
    gpux_array_t f = gt_poisoned(comp_of(dt), 1, sh);
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_unary_into(f, GPUX_EXP, a));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_unary_into(a, GPUX_ABS, a));
    GT_OK(gpux_unary_into(f, GPUX_ABS, a));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary_into(f, GPUX_ADD, a, a));
    GT_RELEASE(f, a);
  }
}

int main(void) {
  gt_init("test_complex_ew");
  static cx_case cases[2 * (N_BOPS + N_UOPS)];
  static char names[2 * (N_BOPS + N_UOPS)][64];
  struct CMUnitTest tests[8 + 2 * (N_BOPS + N_UOPS)];
  size_t n = 0;
  int c = 0;
#define ADD(f) tests[n++] = (struct CMUnitTest){#f, f, NULL, NULL, NULL}
  ADD(test_cx_edges);
  ADD(test_cx_scalar_forms);
  ADD(test_cx_real_inputs);
  ADD(test_cx_rejects);
  ADD(test_cx_where);
#undef ADD
  for (int k = 0; k < 2; k++) {
    for (int j = 0; j < N_BOPS; j++, c++) {
      cases[c] = (cx_case){k_bops[j], k_cplx[k]};
      snprintf(names[c], sizeof names[c], "cx_binary_%s_%s", gt_binary_str(k_bops[j]), gt_dtype_str(k_cplx[k]));
      tests[n++] = (struct CMUnitTest){names[c], test_cx_binary, NULL, NULL, &cases[c]};
    }
    for (int j = 0; j < N_UOPS; j++, c++) {
      cases[c] = (cx_case){k_uops[j], k_cplx[k]};
      snprintf(names[c], sizeof names[c], "cx_unary_%s_%s", gt_unary_str(k_uops[j]), gt_dtype_str(k_cplx[k]));
      tests[n++] = (struct CMUnitTest){names[c], test_cx_unary, NULL, NULL, &cases[c]};
    }
  }
  const int rc = gt_run("complex_ew", tests, n);
  gt_shutdown();
  return rc;
}
