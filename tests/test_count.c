/* gpux tests: scatter-add / -max / -min (include/gpux/index.h), bincount, histogram,
 * digitize (include/gpux/count.h) against CPU references: float sums bit for bit against
 * the exact sum rounded once (tests/ref/ref_count.c), integers wrapping, max / min with the
 * documented NaN and zero rules; every real dtype and complex, repeated and out-of-range
 * indices in every mode, strided and negative-step views, poisoned outputs, errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ref_count.h"
#include "test_util.h"

static const gpux_dtype k_dts[] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_BFLOAT16,
                                   GPUX_INT8,    GPUX_INT16,   GPUX_INT32,   GPUX_INT64,
                                   GPUX_UINT8,   GPUX_UINT16,  GPUX_UINT32,  GPUX_UINT64};
#define NDTS (sizeof k_dts / sizeof k_dts[0])

static int is_float(gpux_dtype dt) {
  return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64 || dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16;
}
static int is_signed(gpux_dtype dt) {
  return dt == GPUX_INT8 || dt == GPUX_INT16 || dt == GPUX_INT32 || dt == GPUX_INT64;
}

/* integer element bits, sign-extended */
static uint64_t get_u(gpux_dtype dt, const void *buf, int64_t i) {
  const size_t es = gpux_dtype_size(dt);
  uint64_t u = 0;
  memcpy(&u, (const unsigned char *)buf + (size_t)i * es, es);
  if (is_signed(dt) && es < 8 && (u >> (8 * es - 1)) & 1) u |= ~(uint64_t)0 << (8 * es);
  return u;
}
static void put_u(gpux_dtype dt, void *buf, int64_t i, uint64_t u) {
  const size_t es = gpux_dtype_size(dt);
  memcpy((unsigned char *)buf + (size_t)i * es, &u, es);
}
static void put_d(gpux_dtype dt, void *buf, int64_t i, double x) {
  unsigned char *p = (unsigned char *)buf + (size_t)i * gpux_dtype_size(dt);
  switch (dt) {
    case GPUX_FLOAT32: { float f = (float)x; memcpy(p, &f, 4); return; }
    case GPUX_FLOAT64: memcpy(p, &x, 8); return;
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: { uint16_t h = ref_half_from_f64(dt, x); memcpy(p, &h, 2); return; }
    default: put_u(dt, buf, i, (uint64_t)(int64_t)x); return;
  }
}

/* How fill_values draws floats: FILL_SPAN over a few dozen binades; FILL_WIDE over nearly
 * the dtype's whole range, subnormals included (the exact sums' terms far below the
 * largest spill out of the window, kernels/common/gpux_scatter.h); FILL_ZEROS mostly -0.0,
 * some +0.0 and small integers (a[t] = -0.0 makes the terms' NNZ flag count; sums that
 * cancel to +0.0). */
enum { FILL_SPAN, FILL_WIDE, FILL_ZEROS };
static int g_fill = FILL_SPAN;

/* random values of dt: floats over many binades (exactness), both signs; integers the
 * whole range */
static void fill_values(gpux_dtype dt, void *buf, int64_t n, gt_rng *r) {
  for (int64_t i = 0; i < n; i++) {
    if (is_float(dt) && g_fill == FILL_ZEROS) {
      const int64_t c = gt_rng_int(r, 0, 9);
      put_d(dt, buf, i, c < 8 ? -0.0 : c == 8 ? 0.0 : (double)gt_rng_int(r, -2, 2));
    } else if (is_float(dt)) {
      int lo, hi; /* binades */
      if (g_fill == FILL_WIDE) {
        lo = dt == GPUX_FLOAT16 ? -25 : dt == GPUX_FLOAT64 ? -1076 : -151;
        hi = dt == GPUX_FLOAT16 ? 15 : dt == GPUX_FLOAT64 ? 1023 : 127;
      } else {
        const int span = dt == GPUX_FLOAT16 ? 10 : dt == GPUX_FLOAT32 ? 60 : 120;
        lo = -span / 2;
        hi = span / 2;
      }
      double x = ldexp(gt_rng_uniform(r, 0.5, 1.0), (int)gt_rng_int(r, lo, hi));
      if (gt_rng_u64(r) & 1) x = -x;
      if (gt_rng_int(r, 0, 19) == 0) x = (double)gt_rng_int(r, -3, 3); /* small integers */
      put_d(dt, buf, i, x);
    } else {
      put_u(dt, buf, i, gt_rng_u64(r));
    }
  }
}

/* one target's combine, in the reference: add (float: xsum; ints: wrap), max, min */
typedef struct tacc {
  ref_xsum xs;
  uint64_t u;
  double d;
  int nan;
} tacc;
static void acc_init(tacc *t, int op, gpux_dtype dt, const void *a, int64_t i) {
  memset(t, 0, sizeof *t);
  if (is_float(dt)) {
    const double x = ref_load_f64(dt, a, i);
    if (op == GPUX_SCATTER_ADD) ref_xsum_init(&t->xs), ref_xsum_add(&t->xs, x);
    t->d = x;
    t->nan = isnan(x);
  } else {
    t->u = get_u(dt, a, i);
  }
}
static int int_less(gpux_dtype dt, uint64_t a, uint64_t b) {
  return is_signed(dt) ? (int64_t)a < (int64_t)b : a < b;
}
/* -0.0 below +0.0 */
static int f_less(double a, double b) {
  if (a == b) return signbit(a) && !signbit(b);
  return a < b;
}
static void acc_add(tacc *t, int op, gpux_dtype dt, const void *v, int64_t j) {
  if (is_float(dt)) {
    const double x = ref_load_f64(dt, v, j);
    if (op == GPUX_SCATTER_ADD) ref_xsum_add(&t->xs, x);
    else if (isnan(x)) t->nan = 1;
    else if (op == GPUX_SCATTER_MAX ? f_less(t->d, x) : f_less(x, t->d)) t->d = x;
  } else {
    const uint64_t x = get_u(dt, v, j);
    if (op == GPUX_SCATTER_ADD) t->u += x;
    else if (op == GPUX_SCATTER_MAX ? int_less(dt, t->u, x) : int_less(dt, x, t->u)) t->u = x;
  }
}
static void acc_store(tacc *t, int op, gpux_dtype dt, void *out, int64_t i) {
  if (!is_float(dt)) return put_u(dt, out, i, t->u);
  if (op == GPUX_SCATTER_ADD) return put_d(dt, out, i, ref_xsum_result(&t->xs, dt, NULL));
  put_d(dt, out, i, t->nan ? NAN : t->d);
}

/* bits of floats (NaN == any NaN, zeros by sign) or integers */
static void expect_same(const char *label, gpux_dtype dt, const void *got, const void *want,
                        int64_t n) {
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 8; i++) {
    int ok;
    if (is_float(dt)) {
      const double g = ref_load_f64(dt, got, i), w = ref_load_f64(dt, want, i);
      ok = (isnan(g) && isnan(w)) || (g == w && signbit(g) == signbit(w));
      if (!ok) print_error("%s: [%lld] got %.17g want %.17g\n", label, (long long)i, g, w);
    } else {
      ok = get_u(dt, got, i) == get_u(dt, want, i);
      if (!ok)
        print_error("%s: [%lld] got %llu want %llu\n", label, (long long)i,
                    (unsigned long long)get_u(dt, got, i), (unsigned long long)get_u(dt, want, i));
    }
    bad += !ok;
  }
  if (bad) GT_FAIL("%s: %d or more elements differ", label, bad);
}

static int64_t norm_idx(int64_t k, int64_t n, gpux_index_mode mode) {
  if (mode == GPUX_INDEX_WRAP) return ((k % n) + n) % n;
  if (mode == GPUX_INDEX_CLIP) return k < 0 ? 0 : k >= n ? n - 1 : k;
  return k < 0 ? k + n : k;
}

/* One scatter case: a of shape ashape (layout alay), idx (int64 or int32, m), values
 * (layout vlay) along axis (or GPUX_ALL_AXES: idx of shape (m,), values (m,)). */
static void scatter_case(gpux_dtype dt, int op, int ndim, const int64_t *ashape, int axis,
                         int64_t m, gpux_index_mode mode, gpux_dtype idt, gt_layout alay,
                         gt_layout vlay, uint64_t seed) {
  gt_rng r;
  gt_rng_seed(&r, seed);
  const size_t es = gpux_dtype_size(dt);
  int64_t na = 1;
  for (int d = 0; d < ndim; d++) na *= ashape[d];
  int64_t vshape[GPUX_MAX_DIMS], vnd, pre = 1, post = 1, n;
  if (axis == GPUX_ALL_AXES) {
    vnd = 1;
    vshape[0] = m;
    n = na;
  } else {
    vnd = ndim;
    memcpy(vshape, ashape, sizeof *vshape * (size_t)ndim);
    vshape[axis] = m;
    for (int d = 0; d < axis; d++) pre *= ashape[d];
    for (int d = axis + 1; d < ndim; d++) post *= ashape[d];
    n = ashape[axis];
  }
  const int64_t nv = pre * m * post;
  void *ah = gt_malloc((size_t)na * es), *vh = gt_malloc((size_t)nv * es);
  void *want = gt_malloc((size_t)na * es), *got = gt_malloc((size_t)na * es);
  int64_t *ih = gt_malloc(sizeof *ih * (size_t)(m ? m : 1));
  fill_values(dt, ah, na, &r);
  fill_values(dt, vh, nv, &r);
  /* repeated indices: few distinct targets; wrap / clip: outside the range too */
  for (int64_t j = 0; j < m; j++)
    ih[j] = mode == GPUX_INDEX_CHECKED ? gt_rng_int(&r, -n, n - 1) : gt_rng_int(&r, -3 * n, 3 * n);
  tacc *t = gt_malloc(sizeof *t * (size_t)na);
  for (int64_t i = 0; i < na; i++) acc_init(&t[i], op, dt, ah, i);
  for (int64_t p = 0; p < pre; p++)
    for (int64_t j = 0; j < m; j++)
      for (int64_t q = 0; q < post; q++) {
        const int64_t k = norm_idx(ih[j], n, mode);
        acc_add(&t[(p * n + k) * post + q], op, dt, vh, (p * m + j) * post + q);
      }
  for (int64_t i = 0; i < na; i++) acc_store(&t[i], op, dt, want, i);
  gt_view av, vv;
  gt_view_make(&av, dt, ndim, ashape, alay, ah);
  gt_view_make(&vv, dt, (int)vnd, vshape, vlay, vh);
  gpux_array_t idx = NULL;
  int64_t mm = m;
  if (idt == GPUX_INT64) {
    GT_OK(gpux_array_from_host(&idx, gt_ctx, GPUX_INT64, 1, &mm, ih));
  } else {
    int32_t *i32 = gt_malloc(sizeof *i32 * (size_t)(m ? m : 1));
    for (int64_t j = 0; j < m; j++) i32[j] = (int32_t)ih[j];
    GT_OK(gpux_array_from_host(&idx, gt_ctx, GPUX_INT32, 1, &mm, i32));
    free(i32);
  }
  GT_OK(gpux_scatter(av.view, (gpux_scatter_op)op, idx, vv.view, axis, mode));
  char label[160];
  snprintf(label, sizeof label, "scatter op %d %s axis %d m %lld mode %d %s/%s", op,
           gt_dtype_str(dt), axis, (long long)m, (int)mode, gt_layout_str(alay), gt_layout_str(vlay));
  gt_view_read(&av, got, label);
  expect_same(label, dt, got, want, na);
  gt_view_free(&av);
  gt_view_free(&vv);
  GT_RELEASE(idx);
  GT_FREE(ah, vh, want, got, ih, t);
}

static void test_scatter_flat(void **state) {
  (void)state;
  const int64_t sh[1] = {37}, big[1] = {1000};
  for (size_t i = 0; i < NDTS; i++) {
    const gpux_dtype dt = k_dts[i];
    if (!gt_dtype_available(dt)) continue;
    for (int op = 0; op < 3; op++) {
      scatter_case(dt, op, 1, sh, GPUX_ALL_AXES, 301, GPUX_INDEX_CHECKED, GPUX_INT64, GT_CONTIG,
                   GT_CONTIG, 11 + i * 3 + (uint64_t)op);
      scatter_case(dt, op, 1, sh, GPUX_ALL_AXES, 1, GPUX_INDEX_WRAP, GPUX_INT32, GT_REVERSED,
                   GT_CONTIG, 21 + i);
      scatter_case(dt, op, 1, big, GPUX_ALL_AXES, 5001, GPUX_INDEX_CLIP, GPUX_INT32, GT_STRIDED,
                   GT_REVERSED, 31 + i);
    }
  }
}

static void test_scatter_axis(void **state) {
  (void)state;
  const int64_t sh[3] = {5, 7, 3};
  for (size_t i = 0; i < NDTS; i++) {
    const gpux_dtype dt = k_dts[i];
    if (!gt_dtype_available(dt)) continue;
    for (int op = 0; op < 3; op++)
      for (int axis = 0; axis < 3; axis++)
        scatter_case(dt, op, 3, sh, axis, 11, axis == 1 ? GPUX_INDEX_WRAP : GPUX_INDEX_CHECKED,
                     axis == 2 ? GPUX_INT32 : GPUX_INT64, axis == 0 ? GT_STRIDED : GT_CONTIG,
                     axis == 2 ? GT_REVERSED : GT_CONTIG, 100 + i * 9 + (uint64_t)(op * 3 + axis));
  }
  /* large: several work-groups, many values per target */
  const int64_t big[1] = {1 << 12};
  scatter_case(GPUX_FLOAT32, GPUX_SCATTER_ADD, 1, big, GPUX_ALL_AXES, (1 << 20) + 3,
               GPUX_INDEX_CHECKED, GPUX_INT64, GT_CONTIG, GT_CONTIG, 7);
  if (gt_dtype_available(GPUX_FLOAT64))
    scatter_case(GPUX_FLOAT64, GPUX_SCATTER_ADD, 1, big, GPUX_ALL_AXES, (1 << 18) + 1,
                 GPUX_INDEX_WRAP, GPUX_INT32, GT_CONTIG, GT_CONTIG, 8);
}

/* The exact sums' window (kernels/common/gpux_scatter.h): values over the dtype's whole
 * range (terms spill to the full accumulator, overflow to inf), then mostly signed zeros
 * over a[t] = -0.0 (the terms' NNZ flag); few and many values a target. */
static void test_scatter_window(void **state) {
  (void)state;
  const gpux_dtype fdts[4] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_BFLOAT16};
  const int64_t sh[1] = {37}, big[1] = {1000};
  for (int f = FILL_WIDE; f <= FILL_ZEROS; f++) {
    g_fill = f;
    for (int i = 0; i < 4; i++) {
      const gpux_dtype dt = fdts[i];
      if (!gt_dtype_available(dt)) continue;
      scatter_case(dt, GPUX_SCATTER_ADD, 1, sh, GPUX_ALL_AXES, 301, GPUX_INDEX_CHECKED,
                   GPUX_INT64, GT_CONTIG, GT_CONTIG, 500 + (uint64_t)(f * 8 + i));
      scatter_case(dt, GPUX_SCATTER_ADD, 1, big, GPUX_ALL_AXES, 20001, GPUX_INDEX_WRAP,
                   GPUX_INT32, GT_STRIDED, GT_CONTIG, 600 + (uint64_t)(f * 8 + i));
      const int64_t sh3[3] = {3, 5, 4};
      scatter_case(dt, GPUX_SCATTER_ADD, 3, sh3, 1, 9, GPUX_INDEX_CHECKED, GPUX_INT64,
                   GT_CONTIG, GT_REVERSED, 700 + (uint64_t)(f * 8 + i));
    }
  }
  g_fill = FILL_SPAN;
}

/* One flat scatter-add into na targets (a0: their values) of nv values v at indices ix,
 * stored in dt (put_d rounds), against the exact sum of the stored values rounded once */
static void xsum_case(const char *label, gpux_dtype dt, int64_t na, const double *a0,
                      int64_t nv, const double *v, const int64_t *ix) {
  const size_t es = gpux_dtype_size(dt);
  void *ah = gt_malloc((size_t)na * es), *vh = gt_malloc((size_t)nv * es);
  void *want = gt_malloc((size_t)na * es), *got = gt_malloc((size_t)na * es);
  ref_xsum *xs = gt_malloc(sizeof *xs * (size_t)na);
  for (int64_t t = 0; t < na; t++) {
    put_d(dt, ah, t, a0[t]);
    ref_xsum_init(&xs[t]);
    ref_xsum_add(&xs[t], ref_load_f64(dt, ah, t));
  }
  for (int64_t j = 0; j < nv; j++) {
    put_d(dt, vh, j, v[j]);
    ref_xsum_add(&xs[ix[j]], ref_load_f64(dt, vh, j));
  }
  for (int64_t t = 0; t < na; t++) put_d(dt, want, t, ref_xsum_result(&xs[t], dt, NULL));
  gpux_array_t a = NULL, idx = NULL, vals = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &na, ah));
  GT_OK(gpux_array_from_host(&idx, gt_ctx, GPUX_INT64, 1, &nv, ix));
  GT_OK(gpux_array_from_host(&vals, gt_ctx, dt, 1, &nv, vh));
  GT_OK(gpux_scatter_add(a, idx, vals, GPUX_ALL_AXES, GPUX_INDEX_CHECKED));
  GT_OK(gpux_array_read(a, got, (size_t)na * es));
  char l[160];
  snprintf(l, sizeof l, "%s %s", label, gt_dtype_str(dt));
  expect_same(l, dt, got, want, na);
  GT_RELEASE(a, idx, vals);
  GT_FREE(ah, vh, want, got, xs);
}

/* a float dtype's fraction bits */
static int frac_bits(gpux_dtype dt) {
  return dt == GPUX_FLOAT16 ? 10 : dt == GPUX_BFLOAT16 ? 7 : dt == GPUX_FLOAT64 ? 52 : 23;
}
/* 2^e (1 + a random fraction of dt's significand bits), random sign when sg */
static double ladder_val(gpux_dtype dt, int e, int sg, gt_rng *r) {
  const int fb = frac_bits(dt);
  const double x = ldexp(1.0 + ldexp((double)gt_rng_int(r, 0, ((int64_t)1 << fb) - 1), -fb), e);
  return sg && (gt_rng_u64(r) & 1) ? -x : x;
}

/* The float32 class's byte window (kernels/common/gpux_scatter.h, THE WINDOW; float64's
 * word window rides along): its place comes from the largest value of the whole call, so
 * each call sets it. Calls with the largest value 2^E for 8 E in a row (every s_max & 7)
 * and, below it, values 2^(E - j) (1 + f) for j = 0 .. J: terms in each byte slot of the
 * window at each bit offset s & 7, and spills (J past 40); targets: that ladder with random
 * signs, +-pairs that cancel to 0 exactly, to a remainder below the window and to one in
 * it, -0.0 only, NaN, +inf, +inf and -inf, one far below the rest (spills only). Then the
 * window at bw = 0 (every value tiny: subnormals; float32 and bfloat16, float16 has no
 * values that small), and 2^16 or more terms a target: words far past 2^32 of both signs. */
static void test_scatter_bytewin(void **state) {
  (void)state;
  const gpux_dtype fdts[4] = {GPUX_FLOAT32, GPUX_FLOAT16, GPUX_BFLOAT16, GPUX_FLOAT64};
  gt_rng r;
  gt_rng_seed(&r, 4040);
  enum { NA = 10, MAXV = 1 << 12 };
  double *v = gt_malloc(sizeof *v * (1 << 19));
  int64_t *ix = gt_malloc(sizeof *ix * (1 << 19));
  for (int i = 0; i < 4; i++) {
    const gpux_dtype dt = fdts[i];
    if (!gt_dtype_available(dt)) continue;
    const int f16 = dt == GPUX_FLOAT16;
    const int e0 = f16 ? 7 : 0, J = f16 ? 30 : 48; /* float16: down to 2^-23 */
    for (int rr = 0; rr < 8; rr++) {
      const int E = e0 + rr;
      double a0[NA] = {ldexp(3, E - 20), 0, 0, 0, -0.0, 1, 1, 1, 0, -2};
      int64_t nv = 0;
#define PUT(t, x) (v[nv] = (x), ix[nv++] = (t))
      PUT(0, ldexp(2 - ldexp(1, -frac_bits(dt)), E)); /* the largest: 2^E (2 - ulp) */
      for (int j = 0; j <= J; j++)
        for (int c = 0; c < 3; c++) {
          PUT(0, ladder_val(dt, E - j, 1, &r));
          const double x = ladder_val(dt, E - j, 1, &r);
          PUT(1, x); /* cancels */
          PUT(1, -x);
          PUT(2, -x);
          PUT(2, x);
          PUT(3, x);
          PUT(3, -x);
        }
      PUT(2, ldexp(1, f16 ? -24 : E - J - 7));   /* remainder below the window */
      PUT(3, ladder_val(dt, E - 9, 1, &r));       /* remainder in it */
      for (int c = 0; c < 5; c++) PUT(4, -0.0); /* -0.0 only, a[4] = -0.0 */
      PUT(5, ladder_val(dt, E - 3, 1, &r));
      PUT(5, NAN);
      PUT(5, ladder_val(dt, E - 30, 1, &r));
      PUT(6, INFINITY);
      PUT(6, ladder_val(dt, E, 1, &r));
      PUT(7, INFINITY);
      PUT(7, -INFINITY);
      for (int c = 0; c < 40; c++) PUT(8, ladder_val(dt, f16 ? -14 - c % 10 : E - 41 - c, 1, &r));
      PUT(9, ladder_val(dt, E - 2, 1, &r)); /* a[9] = -2 */
      PUT(9, ldexp(1, E - 1));
      GT_ASSERT(nv <= MAXV, "bytewin: %lld values", (long long)nv);
      /* shuffled: the order of the terms never matters */
      for (int64_t j = nv - 1; j > 0; j--) {
        const int64_t k = gt_rng_int(&r, 0, j);
        const double tv = v[j];
        const int64_t ti = ix[j];
        v[j] = v[k], ix[j] = ix[k];
        v[k] = tv, ix[k] = ti;
      }
      char label[64];
      snprintf(label, sizeof label, "bytewin E %d", E);
      xsum_case(label, dt, NA, a0, nv, v, ix);
#undef PUT
    }
    /* bw = 0: the largest value 2^-100 (s_max >> 3 = W - 1) or 2^-120 (the clamp) */
    if (dt != GPUX_FLOAT16)
      for (int top = -100; top >= -120; top -= 20) {
        const double a0[4] = {0, ldexp(1, -149), -0.0, 0};
        int64_t nv = 0;
        for (int e = -149; e <= top; e++)
          for (int c = 0; c < 4; c++) {
            const double x = ladder_val(dt, e, 1, &r);
            v[nv] = x, ix[nv++] = 0;
            v[nv] = x, ix[nv++] = 1;
            v[nv] = -x, ix[nv++] = 1; /* a[1] left over */
            v[nv] = ladder_val(dt, e, 0, &r), ix[nv++] = 2;
            v[nv] = -ladder_val(dt, e, 0, &r), ix[nv++] = 3;
          }
        v[nv] = ldexp(1, top), ix[nv++] = 0;
        char label[64];
        snprintf(label, sizeof label, "bytewin bw 0 top 2^%d", top);
        xsum_case(label, dt, 4, a0, nv, v, ix);
      }
    /* 2^16 and more terms a target: target 0 mostly the largest magnitude, negative (its
     * top word far below -2^32), target 1 positive ones in every byte slot, target 2 both
     * signs over the ladder and spills */
    { /* float16: sums below its largest finite value, terms down to 2^-24 */
      const int E = f16 ? -4 : 5, span = f16 ? 20 : 60;
      const int n0 = 1 << 17, n1 = 1 << 16, n2 = (1 << 16) + 7;
      const double a0[3] = {1, -1, 0};
      int64_t nv = 0;
      for (int c = 0; c < n0; c++) {
        v[nv] = c % 16 ? -ladder_val(dt, E, 0, &r) : ladder_val(dt, E - c % span, 1, &r);
        ix[nv++] = 0;
      }
      for (int c = 0; c < n1; c++) {
        v[nv] = ladder_val(dt, E - c % (f16 ? 20 : 29), 0, &r);
        ix[nv++] = 1;
      }
      for (int c = 0; c < n2; c++) {
        v[nv] = ladder_val(dt, E - (int)gt_rng_int(&r, 0, span), 1, &r);
        ix[nv++] = 2;
      }
      xsum_case("bytewin many terms", dt, 3, a0, nv, v, ix);
    }
  }
  GT_FREE(v, ix);
}

/* Checked mode's error from the scatter's own pass: the first of several bad indices (both
 * sides of the range) among many values, flat and along an axis, for the exact sums, the
 * integers and max; a unchanged, bit for bit. */
static void checked_case(gpux_dtype dt, int op, int ndim, const int64_t *ash, int axis, int64_t m,
                         const int64_t *badpos, int nbad) {
  gt_rng r;
  gt_rng_seed(&r, 77 + (uint64_t)m);
  int64_t na = 1, vsh[3], nv = 1;
  for (int d = 0; d < ndim; d++) na *= ash[d];
  const int64_t n = axis == GPUX_ALL_AXES ? na : ash[axis];
  for (int d = 0; d < ndim; d++) vsh[d] = d == axis ? m : ash[d];
  if (axis == GPUX_ALL_AXES) vsh[0] = m;
  const int vnd = axis == GPUX_ALL_AXES ? 1 : ndim;
  for (int d = 0; d < vnd; d++) nv *= vsh[d];
  const size_t es = gpux_dtype_size(dt);
  void *ah = gt_malloc((size_t)na * es), *vh = gt_malloc((size_t)nv * es), *got = gt_malloc((size_t)na * es);
  int64_t *ih = gt_malloc(sizeof *ih * (size_t)m);
  fill_values(dt, ah, na, &r);
  fill_values(dt, vh, nv, &r);
  for (int64_t j = 0; j < m; j++) ih[j] = gt_rng_int(&r, -n, n - 1);
  for (int b = 0; b < nbad; b++) ih[badpos[b]] = b & 1 ? -n - 1 - b : n + b;
  gpux_array_t a = NULL, idx = NULL, v = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, ndim, ash, ah));
  GT_OK(gpux_array_from_host(&idx, gt_ctx, GPUX_INT64, 1, &m, ih));
  GT_OK(gpux_array_from_host(&v, gt_ctx, dt, vnd, vsh, vh));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_scatter(a, (gpux_scatter_op)op, idx, v, axis, GPUX_INDEX_CHECKED));
  char want[64];
  snprintf(want, sizeof want, "position %lld ", (long long)badpos[0]);
  const char *msg = gpux_last_error_message();
  GT_ASSERT(strstr(msg, want), "%s op %d: message %s, expected %s", gt_dtype_str(dt), op, msg, want);
  GT_OK(gpux_array_read(a, got, (size_t)na * es));
  GT_ASSERT(!memcmp(got, ah, (size_t)na * es), "%s op %d: a changed after the error", gt_dtype_str(dt), op);
  GT_RELEASE(a, idx, v);
  GT_FREE(ah, vh, got, ih);
}

static void test_scatter_checked(void **state) {
  (void)state;
  const int64_t flat[1] = {4096}, sh3[3] = {3, 5, 4};
  const int64_t bad_flat[3] = {40000, 50001, 65000}, bad_axis[2] = {6, 8};
  const gpux_dtype dts[3] = {GPUX_FLOAT32, GPUX_INT32, GPUX_FLOAT64};
  for (int i = 0; i < 3; i++) {
    if (!gt_dtype_available(dts[i])) continue;
    for (int op = 0; op < 2; op++) {
      checked_case(dts[i], op, 1, flat, GPUX_ALL_AXES, (1 << 16) + 1, bad_flat, 3);
      checked_case(dts[i], op, 3, sh3, 1, 9, bad_axis, 2);
    }
  }
}

/* a[0] + the values at index 0, read back as doubles */
static double add_one(gpux_dtype dt, double a0, const double *v, int64_t nv) {
  void *vh = gt_malloc((size_t)nv * gpux_dtype_size(dt));
  int64_t *ih = gt_malloc(sizeof *ih * (size_t)nv);
  for (int64_t j = 0; j < nv; j++) put_d(dt, vh, j, v[j]), ih[j] = 0;
  unsigned char ah[8];
  put_d(dt, ah, 0, a0);
  gpux_array_t a = NULL, idx = NULL, vals = NULL;
  const int64_t one = 1;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &one, ah));
  GT_OK(gpux_array_from_host(&idx, gt_ctx, GPUX_INT64, 1, &nv, ih));
  GT_OK(gpux_array_from_host(&vals, gt_ctx, dt, 1, &nv, vh));
  GT_OK(gpux_scatter_add(a, idx, vals, GPUX_ALL_AXES, GPUX_INDEX_CHECKED));
  GT_OK(gpux_array_read(a, ah, gpux_dtype_size(dt)));
  GT_RELEASE(a, idx, vals);
  GT_FREE(vh, ih);
  return ref_load_f64(dt, ah, 0);
}

static void test_scatter_special(void **state) {
  (void)state;
  const gpux_dtype fdts[4] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_BFLOAT16};
  for (int i = 0; i < 4; i++) {
    const gpux_dtype dt = fdts[i];
    if (!gt_dtype_available(dt)) continue;
    const double big = dt == GPUX_FLOAT16 ? 32768.0 : 1e30;
    const double c1[3] = {1, -big, 0};
    double r = add_one(dt, big, c1, 2); /* big + 1 - big: exactly 1 */
    GT_ASSERT(r == 1.0, "%s: big + 1 - big = %g", gt_dtype_str(dt), r);
    const double c2[2] = {NAN, 1};
    GT_ASSERT(isnan(add_one(dt, 1, c2, 2)), "NaN");
    const double c3[2] = {INFINITY, 1};
    GT_ASSERT(add_one(dt, 1, c3, 2) == INFINITY, "+inf");
    const double c4[2] = {INFINITY, -INFINITY};
    GT_ASSERT(isnan(add_one(dt, 1, c4, 2)), "+inf and -inf: NaN");
    const double c5[2] = {-0.0, -0.0};
    r = add_one(dt, -0.0, c5, 2);
    GT_ASSERT(r == 0 && signbit(r), "-0.0 + -0.0 = -0.0");
    const double c6[2] = {-0.0, 0.0};
    r = add_one(dt, -0.0, c6, 2);
    GT_ASSERT(r == 0 && !signbit(r), "-0.0 + 0.0 = +0.0");
    const double c7[2] = {-1.0, 0.0};
    r = add_one(dt, 1.0, c7, 2);
    GT_ASSERT(r == 0 && !signbit(r), "1 - 1 = +0.0");
    /* overflow to inf; the smallest subnormal kept */
    const double mx = dt == GPUX_FLOAT16 ? 65504.0 : dt == GPUX_FLOAT32 ? 3.4028234663852886e38
                      : dt == GPUX_BFLOAT16 ? 3.3895313892515355e38 : 1.7976931348623157e308;
    const double c8[1] = {mx};
    GT_ASSERT(add_one(dt, mx, c8, 1) == INFINITY, "overflow");
    const double tiny = dt == GPUX_FLOAT16 ? ldexp(1, -24) : dt == GPUX_FLOAT64 ? ldexp(1, -1074)
                        : ldexp(1, -133 - (dt == GPUX_FLOAT32 ? 16 : 0));
    const double c9[2] = {tiny, -tiny};
    r = add_one(dt, tiny, c9, 2);
    GT_ASSERT(r == tiny, "%s: tiny + tiny - tiny = %g", gt_dtype_str(dt), r);
  }
  /* many terms: 2^20 copies of 0.1f into float32 (the exact sum rounded once) */
  gt_smoke(gt_ctx);
}

static void test_scatter_complex(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = c ? GPUX_COMPLEX128 : GPUX_COMPLEX64, rdt = c ? GPUX_FLOAT64 : GPUX_FLOAT32;
    if (!gt_dtype_available(dt)) continue;
    gt_rng r;
    gt_rng_seed(&r, 5 + (uint64_t)c);
    const int64_t n = 13, m = 517;
    void *ah = gt_malloc(2 * (size_t)n * gpux_dtype_size(rdt)), *vh = gt_malloc(2 * (size_t)m * gpux_dtype_size(rdt));
    void *want = gt_malloc(2 * (size_t)n * gpux_dtype_size(rdt)), *got = gt_malloc(2 * (size_t)n * gpux_dtype_size(rdt));
    int64_t *ih = gt_malloc(sizeof *ih * (size_t)m);
    fill_values(rdt, ah, 2 * n, &r);
    fill_values(rdt, vh, 2 * m, &r);
    for (int64_t j = 0; j < m; j++) ih[j] = gt_rng_int(&r, -n, n - 1);
    for (int64_t k = 0; k < 2 * n; k++) {
      ref_xsum s;
      ref_xsum_init(&s);
      ref_xsum_add(&s, ref_load_f64(rdt, ah, k));
      for (int64_t j = 0; j < m; j++)
        if (norm_idx(ih[j], n, GPUX_INDEX_CHECKED) == k / 2) ref_xsum_add(&s, ref_load_f64(rdt, vh, 2 * j + k % 2));
      put_d(rdt, want, k, ref_xsum_result(&s, rdt, NULL));
    }
    gpux_array_t a = NULL, idx = NULL, v = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, ah));
    GT_OK(gpux_array_from_host(&v, gt_ctx, dt, 1, &m, vh));
    GT_OK(gpux_array_from_host(&idx, gt_ctx, GPUX_INT64, 1, &m, ih));
    GT_OK(gpux_scatter_add(a, idx, v, 0, GPUX_INDEX_CHECKED));
    GT_OK(gpux_array_read(a, got, 2 * (size_t)n * gpux_dtype_size(rdt)));
    expect_same(gt_dtype_str(dt), rdt, got, want, 2 * n);
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_scatter_max(a, idx, v, 0, GPUX_INDEX_CHECKED));
    GT_RELEASE(a, idx, v);
    GT_FREE(ah, vh, want, got, ih);
  }
}

static void test_scatter_errors(void **state) {
  (void)state;
  const int64_t sh[2] = {4, 5}, m = 3;
  gpux_array_t a = NULL, idx = NULL, v = NULL, vb = NULL, f = NULL, b = NULL, bad = NULL;
  const int64_t ih[3] = {0, 3, 4}, vsh[2] = {3, 5};
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_FLOAT32, 2, sh));
  GT_OK(gpux_array_from_host(&idx, gt_ctx, GPUX_INT64, 1, &m, ih));
  GT_OK(gpux_array_ones(&v, gt_ctx, GPUX_FLOAT32, 2, vsh));
  GT_OK(gpux_array_ones(&vb, gt_ctx, GPUX_FLOAT64, 2, vsh));
  GT_OK(gpux_array_zeros(&f, gt_ctx, GPUX_FLOAT32, 1, &m));
  GT_OK(gpux_array_zeros(&b, gt_ctx, GPUX_BOOL, 2, sh));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_scatter_add(NULL, idx, v, 0, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_scatter_add(a, NULL, v, 0, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_scatter_add(a, idx, NULL, 0, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_scatter_add(a, idx, vb, 0, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_scatter_add(a, f, v, 0, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_scatter_add(b, idx, b, GPUX_ALL_AXES, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_scatter_add(a, idx, v, 2, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_scatter_add(a, idx, v, 1, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_scatter(a, (gpux_scatter_op)7, idx, v, 0, GPUX_INDEX_CHECKED));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_scatter(a, GPUX_SCATTER_ADD, idx, v, 0, (gpux_index_mode)9));
  /* checked: index 4 at position 2 of an axis of 4; a unchanged */
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_scatter_add(a, idx, v, 0, GPUX_INDEX_CHECKED));
  const char *msg = gpux_last_error_message();
  GT_ASSERT(strstr(msg, "position 2") && strstr(msg, "index 4"), "message: %s", msg);
  float ah[20];
  GT_OK(gpux_array_read(a, ah, sizeof ah));
  for (int i = 0; i < 20; i++) GT_ASSERT(ah[i] == 0, "a changed after the error");
  const int64_t neg[3] = {0, -5, 1};
  GT_OK(gpux_array_from_host(&bad, gt_ctx, GPUX_INT64, 1, &m, neg));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_scatter_max(a, bad, v, 0, GPUX_INDEX_CHECKED));
  GT_OK(gpux_scatter_max(a, bad, v, 0, GPUX_INDEX_WRAP)); /* -5 wraps to 3 */
  /* empty idx: nothing; an axis of length 0 with indices: an error */
  gpux_array_t e = NULL, z = NULL, zv = NULL;
  const int64_t zero = 0, zsh[2] = {0, 5};
  GT_OK(gpux_array_zeros(&e, gt_ctx, GPUX_INT64, 1, &zero));
  GT_OK(gpux_array_zeros(&zv, gt_ctx, GPUX_FLOAT32, 2, (int64_t[]){0, 5}));
  GT_OK(gpux_scatter_add(a, e, zv, 0, GPUX_INDEX_CHECKED));
  GT_OK(gpux_array_zeros(&z, gt_ctx, GPUX_FLOAT32, 2, zsh));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_scatter_add(z, idx, v, 0, GPUX_INDEX_WRAP));
  GT_RELEASE(a, idx, v, vb, f, b, bad, e, z, zv);
  gt_smoke(gt_ctx);
}

/* ---------------------------------------------------------------- counting */

/* bincount_into checks its values in the count pass itself: random values over every bin
 * give the reference counts; with several bad values (too large on both kinds of bins, and
 * negative, or >= 2^63 as uint64) the error names the first one's position and value and out
 * keeps its poison */
static void bincount_into_checked(void) {
  const gpux_dtype dts[3] = {GPUX_INT64, GPUX_INT32, GPUX_UINT64};
  const int64_t nbs[2] = {1024, 20000}, n = (1 << 18) + 3;
  for (int di = 0; di < 3; di++)
    for (int bi = 0; bi < 2; bi++) {
      const gpux_dtype dt = dts[di];
      const int64_t nb = nbs[bi];
      gt_rng r;
      gt_rng_seed(&r, 4242 + (uint64_t)(di * 2 + bi));
      void *xh = gt_malloc((size_t)n * gpux_dtype_size(dt));
      int64_t *want = calloc((size_t)nb, sizeof *want);
      for (int64_t i = 0; i < n; i++) {
        const int64_t v = gt_rng_int(&r, 0, nb - 1);
        put_u(dt, xh, i, (uint64_t)v);
        want[v]++;
      }
      gpux_array_t x = NULL, out = gt_poisoned(GPUX_INT64, 1, &nb);
      GT_OK(gpux_array_from_host(&x, gt_ctx, dt, 1, &n, xh));
      GT_OK(gpux_bincount_into(out, x, NULL));
      int64_t *got = gt_read_all(out, NULL);
      for (int64_t k = 0; k < nb; k++)
        GT_ASSERT(got[k] == want[k], "bincount_into %s nb %lld bin %lld: %lld, want %lld",
                  gt_dtype_str(dt), (long long)nb, (long long)k, (long long)got[k],
                  (long long)want[k]);
      GT_RELEASE(x, out);
      free(got);
      /* bad values: the first at p (from the end, the middle, the start), more after it */
      const int64_t firsts[3] = {n - 2, n / 2 + 1, 0};
      for (int fi = 0; fi < 3; fi++) {
        const int64_t p = firsts[fi];
        const uint64_t big = dt == GPUX_UINT64 ? ((uint64_t)1 << 63) + 5 : (uint64_t)(nb + fi);
        const uint64_t neg = dt == GPUX_UINT64 ? (uint64_t)nb : (uint64_t)(int64_t)-1 - fi;
        uint64_t keep[3];
        const int64_t at[3] = {p, p + 1, n - 1};
        for (int k = 0; k < 3; k++) keep[k] = get_u(dt, xh, at[k]);
        put_u(dt, xh, at[0], fi == 1 ? neg : big);
        put_u(dt, xh, at[1], fi == 1 ? big : neg);
        put_u(dt, xh, at[2], big);
        out = gt_poisoned(GPUX_INT64, 1, &nb);
        GT_OK(gpux_array_from_host(&x, gt_ctx, dt, 1, &n, xh));
        GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_bincount_into(out, x, NULL));
        char pos[64];
        snprintf(pos, sizeof pos, "at position %lld ", (long long)p);
        GT_ASSERT(strstr(gpux_last_error_message(), pos), "%s: %s (want %s)", gt_dtype_str(dt),
                  gpux_last_error_message(), pos);
        unsigned char *after = gt_read_all(out, NULL), *poison = gt_malloc((size_t)nb * 8);
        gt_poison_host(poison, (size_t)nb * 8);
        GT_ASSERT(!memcmp(after, poison, (size_t)nb * 8), "%s: out changed by a failed call",
                  gt_dtype_str(dt));
        GT_RELEASE(x, out);
        GT_FREE(after, poison);
        for (int k = 2; k >= 0; k--) put_u(dt, xh, at[k], keep[k]);
      }
      GT_FREE(xh, want);
    }
}

static void test_bincount(void **state) {
  (void)state;
  const gpux_dtype xdts[4] = {GPUX_INT64, GPUX_INT32, GPUX_UINT8, GPUX_INT16};
  const int64_t sizes[4] = {0, 1, 1001, (1 << 20) + 7};
  const int64_t nbins_max[3] = {7, 1024, 20000};
  for (int xi = 0; xi < 4; xi++)
    for (int si = 0; si < 4; si++)
      for (int bi = 0; bi < 3; bi++) {
        const gpux_dtype xdt = xdts[xi];
        const int64_t n = sizes[si];
        int64_t top = nbins_max[bi];
        if (xdt == GPUX_UINT8 && top > 256) top = 256;
        if (si == 3 && xi > 1) continue;
        gt_rng r;
        gt_rng_seed(&r, 77 + (uint64_t)(xi * 16 + si * 4 + bi));
        void *xh = gt_malloc((size_t)(n ? n : 1) * gpux_dtype_size(xdt));
        float *wh = gt_malloc(sizeof *wh * (size_t)(n ? n : 1));
        int64_t mx = -1;
        for (int64_t i = 0; i < n; i++) {
          const int64_t v = gt_rng_int(&r, 0, top - 1);
          put_u(xdt, xh, i, (uint64_t)v);
          if (v > mx) mx = v;
          wh[i] = (float)ldexp(gt_rng_uniform(&r, -1, 1), (int)gt_rng_int(&r, -20, 20));
        }
        const int64_t minlength = bi == 0 ? 10 : 0, len = mx + 1 > minlength ? mx + 1 : minlength;
        int64_t *cw = calloc((size_t)(len ? len : 1), sizeof *cw);
        ref_xsum *ws = calloc((size_t)(len ? len : 1), sizeof *ws);
        for (int64_t k = 0; k < len; k++) ref_xsum_add(&ws[k], 0.0); /* the zeros it starts from */
        for (int64_t i = 0; i < n; i++) {
          const int64_t v = (int64_t)get_u(xdt, xh, i);
          cw[v]++;
          ref_xsum_add(&ws[v], wh[i]);
        }
        gpux_array_t x = NULL, w = NULL, c = NULL, s = NULL;
        GT_OK(gpux_array_from_host(&x, gt_ctx, xdt, 1, &n, xh));
        GT_OK(gpux_array_from_host(&w, gt_ctx, GPUX_FLOAT32, 1, &n, wh));
        GT_OK(gpux_bincount(&c, x, NULL, minlength));
        gt_check_shape(c, GPUX_INT64, 1, &len, "bincount");
        int64_t *cg = gt_read_all(c, NULL);
        for (int64_t k = 0; k < len; k++)
          GT_ASSERT(cg[k] == cw[k], "bincount %s n %lld bin %lld: %lld, want %lld", gt_dtype_str(xdt),
                    (long long)n, (long long)k, (long long)cg[k], (long long)cw[k]);
        if (si < 3 || bi == 1) {
          GT_OK(gpux_bincount(&s, x, w, minlength));
          float *sg = gt_read_all(s, NULL);
          float *sw = gt_malloc(sizeof *sw * (size_t)(len ? len : 1));
          for (int64_t k = 0; k < len; k++) sw[k] = (float)ref_xsum_result(&ws[k], GPUX_FLOAT32, NULL);
          expect_same("weighted bincount", GPUX_FLOAT32, sg, sw, len);
          GT_FREE(sg, sw);
        }
        GT_RELEASE(x, w, c, s);
        GT_FREE(xh, wh, cw, ws, cg);
      }
  /* _into: poisoned strided output; out-of-range and negative values are errors */
  const int64_t xs[5] = {3, 0, 3, 1, 3}, five = 5, six = 6;
  gpux_array_t x = NULL, o = NULL, ov = NULL, small = NULL, nx = NULL;
  GT_OK(gpux_array_from_host(&x, gt_ctx, GPUX_INT64, 1, &five, xs));
  gt_view v;
  gt_view_make(&v, GPUX_INT64, 1, &six, GT_REVERSED, NULL);
  GT_OK(gpux_bincount_into(v.view, x, NULL));
  int64_t got[6];
  gt_view_read(&v, got, "bincount_into");
  const int64_t want[6] = {1, 1, 0, 3, 0, 0};
  for (int k = 0; k < 6; k++) GT_ASSERT(got[k] == want[k], "bincount_into [%d] %lld", k, (long long)got[k]);
  gt_view_free(&v);
  const int64_t three = 3;
  GT_OK(gpux_array_zeros(&small, gt_ctx, GPUX_INT64, 1, &three));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_bincount_into(small, x, NULL));
  const int64_t xneg[5] = {3, 0, -2, 1, 3};
  GT_OK(gpux_array_from_host(&nx, gt_ctx, GPUX_INT64, 1, &five, xneg));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_bincount(&o, nx, NULL, 0));
  GT_ASSERT(strstr(gpux_last_error_message(), "position 2"), "%s", gpux_last_error_message());
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_bincount(&o, x, NULL, -1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_bincount(&o, NULL, NULL, 0));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_bincount(&o, x, small, 0));
  gpux_array_t fx = NULL;
  GT_OK(gpux_array_zeros(&fx, gt_ctx, GPUX_FLOAT32, 1, &five));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_bincount(&o, fx, NULL, 0));
  GT_RELEASE(x, o, ov, small, nx, fx);
  bincount_into_checked();
  gt_smoke(gt_ctx);
}

/* numpy's histogram / digitize semantics, by a plain search */
static int64_t ref_count_le(const double *e, int64_t ne, double x, int strict) {
  int64_t c = 0;
  for (int64_t k = 0; k < ne; k++) c += strict ? e[k] < x : e[k] <= x;
  return c;
}

static void test_histogram(void **state) {
  (void)state;
  const gpux_dtype xdts[5] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_INT32, GPUX_FLOAT16, GPUX_UINT8};
  for (int xi = 0; xi < 5; xi++) {
    const gpux_dtype xdt = xdts[xi];
    if (!gt_dtype_available(xdt)) continue;
    gt_rng r;
    gt_rng_seed(&r, 900 + (uint64_t)xi);
    const int64_t n = 20011, bins = 37;
    void *xh = gt_malloc((size_t)n * gpux_dtype_size(xdt));
    float *wh = gt_malloc(sizeof *wh * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
      double v = (double)gt_rng_int(&r, -2, 60);
      if (is_float(xdt)) v = gt_rng_uniform(&r, -2, 60);
      if (i % 97 == 0) v = 50; /* the last edge */
      if (is_float(xdt) && i % 101 == 0) v = NAN;
      put_d(xdt, xh, i, v);
      wh[i] = (float)gt_rng_uniform(&r, -1, 1);
    }
    /* uniform over [0, 50]: the edges NumPy's linspace makes */
    double e[38];
    const double step = 50.0 / 37;
    for (int k = 0; k < bins; k++) {
      volatile double t = k * step;
      e[k] = t + 0.0;
    }
    e[bins] = 50;
    int64_t *cw = calloc((size_t)bins, sizeof *cw);
    ref_xsum *ws = calloc((size_t)bins, sizeof *ws);
    for (int64_t k = 0; k < bins; k++) ref_xsum_add(&ws[k], 0.0);
    for (int64_t i = 0; i < n; i++) {
      const double v = ref_load_f64(xdt, xh, i);
      if (isnan(v) || v < e[0] || v > e[bins]) continue;
      int64_t k = ref_count_le(e, bins + 1, v, 0) - 1;
      if (k == bins) k = bins - 1;
      cw[k]++;
      ref_xsum_add(&ws[k], wh[i]);
    }
    gpux_array_t x = NULL, w = NULL, c = NULL, s = NULL;
    GT_OK(gpux_array_from_host(&x, gt_ctx, xdt, 1, &n, xh));
    GT_OK(gpux_array_from_host(&w, gt_ctx, GPUX_FLOAT32, 1, &n, wh));
    GT_OK(gpux_histogram(&c, x, bins, 0.0, 50.0, NULL));
    int64_t *cg = gt_read_all(c, NULL);
    for (int64_t k = 0; k < bins; k++)
      GT_ASSERT(cg[k] == cw[k], "histogram %s bin %lld: %lld want %lld", gt_dtype_str(xdt),
                (long long)k, (long long)cg[k], (long long)cw[k]);
    GT_OK(gpux_histogram(&s, x, bins, 0.0, 50.0, w));
    float *sg = gt_read_all(s, NULL), sw[37];
    for (int k = 0; k < bins; k++) sw[k] = (float)ref_xsum_result(&ws[k], GPUX_FLOAT32, NULL);
    expect_same("weighted histogram", GPUX_FLOAT32, sg, sw, bins);
    /* given edges of x's dtype: 0, 1, 2, 4, 8, ... 32 (the last closed) */
    const int64_t ne = 7;
    double eh[7] = {0, 1, 2, 4, 8, 16, 32};
    void *ehx = gt_malloc(7 * gpux_dtype_size(xdt));
    for (int k = 0; k < 7; k++) put_d(xdt, ehx, k, eh[k]);
    gpux_array_t ed = NULL, c2 = NULL;
    GT_OK(gpux_array_from_host(&ed, gt_ctx, xdt, 1, &ne, ehx));
    gt_view cv;
    const int64_t six = 6;
    gt_view_make(&cv, GPUX_INT64, 1, &six, GT_STRIDED, NULL);
    GT_OK(gpux_histogram_edges_into(cv.view, x, ed, NULL));
    int64_t c2g[6], c2w[6] = {0};
    gt_view_read(&cv, c2g, "histogram_edges_into");
    for (int64_t i = 0; i < n; i++) {
      const double v = ref_load_f64(xdt, xh, i);
      if (isnan(v) || v < 0 || v > 32) continue;
      int64_t k = ref_count_le(eh, 7, v, 0) - 1;
      if (k == 6) k = 5;
      c2w[k]++;
    }
    for (int k = 0; k < 6; k++) GT_ASSERT(c2g[k] == c2w[k], "edges bin %d: %lld want %lld", k, (long long)c2g[k], (long long)c2w[k]);
    gt_view_free(&cv);
    /* digitize, both directions, both sides */
    for (int dec = 0; dec < 2; dec++)
      for (int right = 0; right < 2; right++) {
        void *bh = gt_malloc(7 * gpux_dtype_size(xdt));
        for (int k = 0; k < 7; k++) put_d(xdt, bh, k, dec ? eh[6 - k] : eh[k]);
        gpux_array_t bb = NULL, d = NULL;
        GT_OK(gpux_array_from_host(&bb, gt_ctx, xdt, 1, &ne, bh));
        GT_OK(gpux_digitize(&d, x, bb, right));
        int64_t *dg = gt_read_all(d, NULL);
        for (int64_t i = 0; i < n; i++) {
          const double v = ref_load_f64(xdt, xh, i);
          int64_t want;
          if (!dec) want = isnan(v) ? 7 : ref_count_le(eh, 7, v, right);
          else want = isnan(v) ? 0 : 7 - ref_count_le(eh, 7, v, right);
          if (dg[i] != want) {
            GT_FAIL("digitize %s dec %d right %d x %g: %lld want %lld", gt_dtype_str(xdt), dec, right,
                    v, (long long)dg[i], (long long)want);
          }
        }
        GT_RELEASE(bb, d);
        GT_FREE(bh, dg);
      }
    GT_RELEASE(x, w, c, s, ed, c2);
    GT_FREE(xh, wh, cw, ws, cg, sg, ehx);
  }
  /* errors */
  const int64_t three = 3;
  const float bad[3] = {0, 2, 1}, fx[3] = {0, 1, 2};
  gpux_array_t x = NULL, eb = NULL, o = NULL, ci = NULL;
  GT_OK(gpux_array_from_host(&x, gt_ctx, GPUX_FLOAT32, 1, &three, fx));
  GT_OK(gpux_array_from_host(&eb, gt_ctx, GPUX_FLOAT32, 1, &three, bad));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_histogram_edges(&o, x, eb, NULL));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_digitize(&o, x, eb, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_histogram(&o, x, 0, 0, 1, NULL));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_histogram(&o, x, 4, 1, 1, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_histogram(&o, NULL, 4, 0, 1, NULL));
  GT_OK(gpux_array_zeros(&ci, gt_ctx, GPUX_INT32, 1, &three));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_histogram_edges(&o, x, ci, NULL));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_histogram_into(ci, x, 0, 1, NULL));
  GT_RELEASE(x, eb, o, ci);
  gt_smoke(gt_ctx);
}

int main(void) {
  gt_init("test_count");
  static const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scatter_flat),    cmocka_unit_test(test_scatter_axis),
      cmocka_unit_test(test_scatter_special), cmocka_unit_test(test_scatter_window),
      cmocka_unit_test(test_scatter_bytewin), cmocka_unit_test(test_scatter_checked),
      cmocka_unit_test(test_scatter_complex),
      cmocka_unit_test(test_scatter_errors),  cmocka_unit_test(test_bincount),
      cmocka_unit_test(test_histogram),
  };
  int failed = gt_run("count", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
