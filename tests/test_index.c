/* gpux tests: gather and put (include/gpux/index.h) -- take, take_along_axis, put,
 * put_along_axis -- against tests/ref/ref_index.c, bit for bit, for every dtype and index
 * mode: random data, negative, repeated and out-of-range indices, 0-d and empty idx, empty
 * axes, one large case (several work-groups, the fast path), inputs as contiguous, strided
 * (steps 2 and -2) and reversed views, int32 and int64 indices, outputs new or _into
 * poisoned views; the checked mode's deferred error (at the next wait and not before, the
 * first bad position, the context usable after it, on created streams); every error path. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_index.h"
#include "test_util.h"

#define GT_STATUS(want, call) gt_check_status((want), (call), #call, __FILE__, __LINE__)

static gpux_dtype g_dts[GPUX_DTYPE_COUNT];
static int g_ndt;

static int64_t nel(int nd, const int64_t *sh) { return ref_shape_size(nd, sh); }

static void *rnd(gpux_dtype dt, int64_t n, uint64_t seed) {
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt) + 1);
  gt_fill_random(p, dt, n, GT_DOM_ANY, seed);
  return p;
}

/* n indices in [lo, hi] */
static int64_t *rnd_idx(int64_t n, int64_t lo, int64_t hi, uint64_t seed) {
  int64_t *p = gt_malloc((size_t)n * sizeof *p + 8);
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) p[i] = gt_rng_int(&r, lo, hi);
  return p;
}

/* an index view (int32 when i32) holding v */
static void idx_view(gt_view *iv, const int64_t *v, int nd, const int64_t *sh, int i32,
                     gt_layout lay) {
  const int64_t n = nel(nd, sh);
  if (!i32) {
    gt_view_make(iv, GPUX_INT64, nd, sh, lay, v);
    return;
  }
  int32_t *t = gt_malloc((size_t)n * 4 + 4);
  for (int64_t i = 0; i < n; i++) t[i] = (int32_t)v[i];
  gt_view_make(iv, GPUX_INT32, nd, sh, lay, t);
  free(t);
}

static void expect_arr(const char *label, gpux_array_t a, gpux_dtype dt, int nd,
                       const int64_t *sh, const void *want) {
  gt_check_shape(a, dt, nd, sh, label);
  int64_t n = 0;
  void *got = gt_read_all(a, &n);
  assert_int_equal(n, nel(nd, sh));
  gt_compare_bits(label, dt, got, want, n);
  free(got);
}

static void expect_view(const char *label, const gt_view *v, const void *want) {
  void *got = gt_malloc((size_t)v->n * ref_dtype_size(v->dt) + 1);
  gt_view_read(v, got, label);
  gt_compare_bits(label, v->dt, got, want, v->n);
  free(got);
}

/* ------------------------------------------------------------------ take */

/* take of a (shape ash, layout lay) by idx values (shape ish) along axis, new and _into */
static void take_case(gpux_dtype dt, int nd, const int64_t *ash, int ind, const int64_t *ish,
                      int axis, int mode, int64_t lo, int64_t hi, gt_layout lay, int i32,
                      uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  const int64_t an = nel(nd, ash), in = nel(ind, ish);
  void *ha = rnd(dt, an, seed);
  int64_t *hi_ = rnd_idx(in, lo, hi, seed + 1);
  const int d = axis == GPUX_ALL_AXES ? -1 : axis < 0 ? axis + nd : axis;
  int64_t osh[GPUX_MAX_DIMS];
  int ond = 0;
  for (int k = 0; k < d; k++) osh[ond++] = ash[k];
  for (int k = 0; k < ind; k++) osh[ond++] = ish[k];
  for (int k = d + 1; d >= 0 && k < nd; k++) osh[ond++] = ash[k];
  const int64_t on = nel(ond, osh);
  void *want = gt_malloc((size_t)on * es + 1);
  ref_take(want, ha, es, nd, ash, hi_, in, d, mode);
  gt_view av, iv, ov;
  gt_view_make(&av, dt, nd, ash, lay, ha);
  idx_view(&iv, hi_, ind, ish, i32, (gt_layout)((lay + 1) % 3));
  gt_view_make(&ov, dt, ond, osh, (gt_layout)((lay + 2) % 3), NULL);
  char label[160];
  snprintf(label, sizeof label, "take %s axis %d mode %d %s idx %s", gt_dtype_str(dt), axis,
           mode, gt_layout_str(lay), i32 ? "int32" : "int64");
  gpux_array_t out = NULL;
  GT_OK(gpux_take(&out, av.view, iv.view, axis, (gpux_index_mode)mode));
  expect_arr(label, out, dt, ond, osh, want);
  GT_OK(gpux_take_into(ov.view, av.view, iv.view, axis, (gpux_index_mode)mode));
  expect_view(label, &ov, want);
  gpux_array_release(out);
  gt_view_free(&ov);
  gt_view_free(&iv);
  gt_view_free(&av);
  GT_FREE(ha, hi_, want);
}

static void test_take(void **state) {
  (void)state;
  const int64_t ash[3] = {5, 7, 3}, ish[2] = {4, 3};
  for (int i = 0; i < g_ndt; i++) {
    gpux_dtype dt = g_dts[i];
    gt_layout lay = (gt_layout)(i % 3);
    /* checked: in range, negatives count from the end */
    take_case(dt, 3, ash, 2, ish, 1, GPUX_INDEX_CHECKED, -7, 6, lay, i & 1, 10 + i);
    take_case(dt, 3, ash, 2, ish, 0, GPUX_INDEX_CHECKED, -5, 4, lay, !(i & 1), 20 + i);
    take_case(dt, 3, ash, 1, ish, -1, GPUX_INDEX_WRAP, -20, 20, lay, i & 1, 30 + i);
    take_case(dt, 3, ash, 2, ish, GPUX_ALL_AXES, GPUX_INDEX_CLIP, -200, 200, lay, i & 1, 40 + i);
  }
  /* 0-d and empty idx, 1-d a, one-element a */
  const int64_t a1[1] = {9}, e1[1] = {0}, one[1] = {1};
  take_case(GPUX_FLOAT32, 1, a1, 0, NULL, 0, GPUX_INDEX_CHECKED, -9, 8, GT_STRIDED, 0, 50);
  take_case(GPUX_INT16, 1, a1, 1, e1, 0, GPUX_INDEX_CHECKED, 0, 8, GT_CONTIG, 1, 51);
  take_case(GPUX_UINT8, 1, one, 2, ish, 0, GPUX_INDEX_WRAP, -3, 3, GT_REVERSED, 1, 52);
  take_case(GPUX_COMPLEX64, 3, ash, 0, NULL, 2, GPUX_INDEX_CLIP, -5, 5, GT_STRIDED, 0, 53);
  /* an empty axis of a with an empty idx, an empty output */
  const int64_t ae[3] = {2, 0, 3};
  take_case(GPUX_FLOAT64, 3, ae, 1, e1, 1, GPUX_INDEX_CHECKED, 0, 0, GT_CONTIG, 0, 54);
  take_case(GPUX_FLOAT64, 3, ae, 2, ish, 0, GPUX_INDEX_CHECKED, 0, 1, GT_CONTIG, 0, 55);
}

static void test_take_large(void **state) {
  (void)state;
  /* the fast path (1-d source, contiguous idx) and the n-d one, several work-groups */
  const int64_t big[1] = {GT_BIG}, rows[2] = {GT_BIG / 64, 64}, ib[1] = {GT_BIG / 2 + 1};
  take_case(GPUX_FLOAT32, 1, big, 1, ib, 0, GPUX_INDEX_CHECKED, -GT_BIG, GT_BIG - 1, GT_CONTIG, 0, 60);
  take_case(GPUX_INT64, 1, big, 1, ib, 0, GPUX_INDEX_WRAP, -3 * GT_BIG, 3 * GT_BIG, GT_REVERSED, 1, 61);
  const int64_t ir[1] = {GT_BIG / 128 + 3};
  take_case(GPUX_UINT16, 2, rows, 1, ir, 0, GPUX_INDEX_CLIP, -5, GT_BIG, GT_CONTIG, 1, 62);
}

/* ------------------------------------------------------------------ take_along_axis */

static void along_case(gpux_dtype dt, int nd, const int64_t *ash, const int64_t *ish, int axis,
                       int mode, int64_t lo, int64_t hi, gt_layout lay, int i32, uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  void *ha = rnd(dt, nel(nd, ash), seed);
  int64_t *hi_ = rnd_idx(nel(nd, ish), lo, hi, seed + 1);
  int64_t osh[GPUX_MAX_DIMS];
  for (int k = 0; k < nd; k++) osh[k] = k == axis ? ish[k] : ash[k] == 1 ? ish[k] : ash[k];
  const int64_t on = nel(nd, osh);
  void *want = gt_malloc((size_t)on * es + 1);
  ref_take_along(want, ha, es, nd, ash, hi_, ish, axis, mode);
  gt_view av, iv, ov;
  gt_view_make(&av, dt, nd, ash, lay, ha);
  idx_view(&iv, hi_, nd, ish, i32, (gt_layout)((lay + 1) % 3));
  gt_view_make(&ov, dt, nd, osh, (gt_layout)((lay + 2) % 3), NULL);
  char label[160];
  snprintf(label, sizeof label, "take_along_axis %s axis %d mode %d %s", gt_dtype_str(dt), axis,
           mode, gt_layout_str(lay));
  gpux_array_t out = NULL;
  GT_OK(gpux_take_along_axis(&out, av.view, iv.view, axis, (gpux_index_mode)mode));
  expect_arr(label, out, dt, nd, osh, want);
  GT_OK(gpux_take_along_axis_into(ov.view, av.view, iv.view, axis, (gpux_index_mode)mode));
  expect_view(label, &ov, want);
  gpux_array_release(out);
  gt_view_free(&ov);
  gt_view_free(&iv);
  gt_view_free(&av);
  GT_FREE(ha, hi_, want);
}

static void test_take_along(void **state) {
  (void)state;
  const int64_t ash[3] = {4, 6, 5}, ish[3] = {4, 3, 5}, ibc[3] = {1, 8, 5}, abc[3] = {4, 1, 5};
  for (int i = 0; i < g_ndt; i++) {
    gpux_dtype dt = g_dts[i];
    gt_layout lay = (gt_layout)(i % 3);
    along_case(dt, 3, ash, ish, 1, GPUX_INDEX_CHECKED, -6, 5, lay, i & 1, 100 + i);
    along_case(dt, 3, ash, ibc, 1, GPUX_INDEX_WRAP, -30, 30, lay, !(i & 1), 110 + i);
    along_case(dt, 3, abc, ish, 2, GPUX_INDEX_CLIP, -3, 3, lay, i & 1, 120 + i);
  }
}

/* ------------------------------------------------------------------ put */

static void put_case(gpux_dtype dt, int64_t an, int ind, const int64_t *ish, int64_t nv,
                     int mode, int64_t lo, int64_t hi, gt_layout lay, int i32, uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  void *ha = rnd(dt, an, seed), *hv = rnd(dt, nv, seed + 2);
  const int64_t in = nel(ind, ish);
  int64_t *hi_ = rnd_idx(in, lo, hi, seed + 1);
  void *want = gt_malloc((size_t)an * es + 1);
  memcpy(want, ha, (size_t)an * es);
  ref_put(want, es, an, hi_, in, hv, nv, mode);
  gt_view av, iv, vv;
  const int64_t ash[1] = {an}, vsh[1] = {nv};
  gt_view_make(&av, dt, 1, ash, lay, ha);
  idx_view(&iv, hi_, ind, ish, i32, (gt_layout)((lay + 1) % 3));
  gt_view_make(&vv, dt, 1, vsh, (gt_layout)((lay + 2) % 3), hv);
  char label[160];
  snprintf(label, sizeof label, "put %s n %lld idx %lld values %lld mode %d %s", gt_dtype_str(dt),
           (long long)an, (long long)in, (long long)nv, mode, gt_layout_str(lay));
  GT_OK(gpux_put(av.view, iv.view, vv.view, (gpux_index_mode)mode));
  expect_view(label, &av, want);
  gt_view_free(&vv);
  gt_view_free(&iv);
  gt_view_free(&av);
  GT_FREE(ha, hv, hi_, want);
}

static void along_put_case(gpux_dtype dt, int nd, const int64_t *ash, const int64_t *ish,
                           int axis, int mode, int64_t lo, int64_t hi, gt_layout lay, int i32,
                           uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  int64_t sh[GPUX_MAX_DIMS];
  for (int k = 0; k < nd; k++) sh[k] = k == axis ? ish[k] : ash[k] == 1 ? ish[k] : ash[k];
  const int64_t an = nel(nd, ash), n = nel(nd, sh);
  void *ha = rnd(dt, an, seed), *hv = rnd(dt, n, seed + 2);
  int64_t *hi_ = rnd_idx(nel(nd, ish), lo, hi, seed + 1);
  void *want = gt_malloc((size_t)an * es + 1);
  memcpy(want, ha, (size_t)an * es);
  ref_put_along(want, es, nd, ash, hi_, ish, hv, axis, mode);
  gt_view av, iv, vv;
  gt_view_make(&av, dt, nd, ash, lay, ha);
  idx_view(&iv, hi_, nd, ish, i32, (gt_layout)((lay + 1) % 3));
  gt_view_make(&vv, dt, nd, sh, (gt_layout)((lay + 2) % 3), hv);
  char label[160];
  snprintf(label, sizeof label, "put_along_axis %s axis %d mode %d %s", gt_dtype_str(dt), axis,
           mode, gt_layout_str(lay));
  GT_OK(gpux_put_along_axis(av.view, iv.view, vv.view, axis, (gpux_index_mode)mode));
  expect_view(label, &av, want);
  gt_view_free(&vv);
  gt_view_free(&iv);
  gt_view_free(&av);
  GT_FREE(ha, hv, hi_, want);
}

static void test_put(void **state) {
  (void)state;
  const int64_t ish[2] = {6, 5}, i1[1] = {1}, e1[1] = {0};
  const int64_t ash[3] = {4, 6, 5}, pish[3] = {4, 9, 5}, abc[3] = {4, 1, 5};
  for (int i = 0; i < g_ndt; i++) {
    gpux_dtype dt = g_dts[i];
    gt_layout lay = (gt_layout)(i % 3);
    /* repeated indices (30 into 11): the last write wins; values cycle (7 of them) */
    put_case(dt, 11, 2, ish, 7, GPUX_INDEX_CHECKED, -11, 10, lay, i & 1, 200 + i);
    put_case(dt, 11, 2, ish, 30, GPUX_INDEX_WRAP, -40, 40, lay, !(i & 1), 210 + i);
    put_case(dt, 11, 2, ish, 1, GPUX_INDEX_CLIP, -40, 40, lay, i & 1, 220 + i);
    along_put_case(dt, 3, ash, pish, 1, GPUX_INDEX_CHECKED, -6, 5, lay, i & 1, 230 + i);
    along_put_case(dt, 3, abc, pish, 1, GPUX_INDEX_WRAP, -9, 9, lay, i & 1, 240 + i);
  }
  put_case(GPUX_FLOAT32, 5, 0, NULL, 1, GPUX_INDEX_CHECKED, -5, 4, GT_CONTIG, 0, 250);
  put_case(GPUX_FLOAT32, 5, 1, i1, 3, GPUX_INDEX_CHECKED, -5, 4, GT_STRIDED, 1, 251);
  put_case(GPUX_FLOAT32, 5, 1, e1, 3, GPUX_INDEX_CHECKED, -5, 4, GT_STRIDED, 1, 252);
  /* many writers per element, several work-groups: the last one in order wins */
  const int64_t ib[1] = {GT_BIG / 4};
  put_case(GPUX_INT32, 1000, 1, ib, GT_BIG / 4, GPUX_INDEX_CHECKED, -1000, 999, GT_CONTIG, 0, 253);
  put_case(GPUX_COMPLEX128, 777, 1, ib, 1001, GPUX_INDEX_WRAP, -5000, 5000, GT_REVERSED, 1, 254);
}

/* ------------------------------------------------------------------ the deferred error */

static gpux_array_t mk_i64(int64_t n, const int64_t *v) {
  gpux_array_t a = NULL;
  const int64_t sh[1] = {n};
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_INT64, 1, sh, v));
  return a;
}

static void test_checked_error(void **state) {
  (void)state;
  const int64_t n = 10;
  gpux_array_t a = NULL, out = NULL, out2 = NULL;
  const int64_t sh[1] = {n};
  GT_OK(gpux_array_arange(&a, gt_ctx, GPUX_FLOAT32, 0, (double)n, 1));
  (void)sh;
  /* bad at positions 7 and 3 (and many more later): position 3, value -11, is reported */
  int64_t v[9] = {1, 2, -10, -11, 4, 9, 5, 99, 0};
  gpux_array_t idx = mk_i64(9, v);
  gpux_array_t ok = mk_i64(2, v);
  GT_OK(gpux_take(&out2, a, ok, 0, GPUX_INDEX_CHECKED)); /* a clean op first */
  GT_OK(gpux_take(&out, a, idx, 0, GPUX_INDEX_CHECKED)); /* queued: no error yet */
  gpux_array_release(out);
  out = NULL;
  GT_OK(gpux_take(&out, a, ok, 0, GPUX_INDEX_CHECKED)); /* a clean one after it */
  GT_STATUS(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_context_synchronize(gt_ctx));
  const char *msg = gpux_last_error_message();
  if (!strstr(msg, "gpux_take: index out of range at position 3 of idx (value -11, axis length 10)"))
    fail_msg("message: %s", msg);
  /* reported once; the context works */
  GT_OK(gpux_context_synchronize(gt_ctx));
  float got[2];
  GT_OK(gpux_array_read(out, got, sizeof got));
  assert_true(got[0] == 1.0f && got[1] == 2.0f);
  /* a blocking read reports it, too; the wrap mode does not arm */
  gpux_array_release(out);
  out = NULL;
  GT_OK(gpux_take(&out, a, idx, 0, GPUX_INDEX_WRAP));
  float w9[9];
  GT_OK(gpux_array_read(out, w9, sizeof w9));
  assert_true(w9[7] == 9.0f && w9[3] == 9.0f);
  gpux_array_release(out);
  out = NULL;
  /* many bad indices, large: the first in row-major order */
  const int64_t big = GT_BIG;
  int64_t *bv = rnd_idx(big, 10, 1000, 77);
  for (int64_t i = 0; i < big / 3; i++) bv[i] = i % 10;
  gpux_array_t bidx = mk_i64(big, bv);
  GT_OK(gpux_take(&out, a, bidx, 0, GPUX_INDEX_CHECKED));
  float *buf = gt_malloc((size_t)big * 4);
  GT_STATUS(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_array_read(out, buf, (size_t)big * 4));
  char want[160];
  snprintf(want, sizeof want, "at position %lld of idx (value %lld, axis length 10)",
           (long long)(big / 3), (long long)bv[big / 3]);
  if (!strstr(gpux_last_error_message(), want)) fail_msg("message: %s", gpux_last_error_message());
  gpux_array_release(out);
  out = NULL;
  /* put: bad in mark; a sum to the host reports it */
  gpux_array_t vals = NULL;
  GT_OK(gpux_array_full(&vals, gt_ctx, GPUX_FLOAT32, 1, sh, 5.0));
  GT_OK(gpux_put(a, idx, vals, GPUX_INDEX_CHECKED));
  double sum = 0;
  GT_STATUS(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_sum_scalar(&sum, a));
  if (!strstr(gpux_last_error_message(), "gpux_put: index out of range at position 3"))
    fail_msg("message: %s", gpux_last_error_message());
  /* a created stream: its own words, reported by its synchronize */
  gpux_stream_t s = NULL;
  if (gpux_stream_create(&s, gt_ctx) == GPUX_SUCCESS) {
    GT_OK(gpux_stream_set_current(gt_ctx, s));
    int64_t iv2[3] = {0, -1, 10};
    gpux_array_t idx2 = mk_i64(3, iv2);
    GT_OK(gpux_take_along_axis(&out, a, idx2, 0, GPUX_INDEX_CHECKED));
    GT_STATUS(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_stream_synchronize(s));
    if (!strstr(gpux_last_error_message(), "position 2 of idx (value 10, axis length 10)"))
      fail_msg("message: %s", gpux_last_error_message());
    /* armed again, then the stream goes: the error is dropped, nothing leaks */
    gpux_array_release(out);
    out = NULL;
    GT_OK(gpux_take(&out, a, idx2, 0, GPUX_INDEX_CHECKED));
    GT_OK(gpux_stream_set_current(gt_ctx, NULL));
    gpux_array_release(out);
    out = NULL;
    gpux_array_release(idx2);
    gpux_stream_release(s);
    GT_OK(gpux_context_synchronize(gt_ctx));
  }
  /* a context released with an armed error */
  gpux_context_t c2 = gt_context_new();
  gpux_array_t a2 = NULL, i2 = NULL, o2 = NULL;
  GT_OK(gpux_array_zeros(&a2, c2, GPUX_INT8, 1, sh));
  GT_OK(gpux_array_from_host(&i2, c2, GPUX_INT64, 1, (int64_t[]){9}, v));
  GT_OK(gpux_take(&o2, a2, i2, 0, GPUX_INDEX_CHECKED));
  GT_RELEASE(o2, i2, a2);
  gpux_context_release(c2);
  GT_RELEASE(vals, bidx, out2, ok, idx, a);
  GT_FREE(bv, buf);
}

/* ------------------------------------------------------------------ errors */

static void test_errors(void **state) {
  (void)state;
  const int64_t sh[2] = {3, 4}, s1[1] = {4};
  gpux_array_t a = NULL, f = NULL, idx = NULL, out = NULL, e = NULL, i3 = NULL, o = NULL;
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_FLOAT32, 2, sh));
  GT_OK(gpux_array_zeros(&f, gt_ctx, GPUX_FLOAT32, 1, s1));
  GT_OK(gpux_array_zeros(&idx, gt_ctx, GPUX_INT32, 1, s1));
  GT_OK(gpux_array_zeros(&i3, gt_ctx, GPUX_INT64, 2, (int64_t[]){3, 2}));
  GT_OK(gpux_array_zeros(&e, gt_ctx, GPUX_FLOAT32, 2, (int64_t[]){3, 0}));
  GT_STATUS(GPUX_ERROR_NULL_POINTER, gpux_take(NULL, a, idx, 0, 0));
  GT_STATUS(GPUX_ERROR_NULL_POINTER, gpux_take(&out, NULL, idx, 0, 0));
  GT_STATUS(GPUX_ERROR_NULL_POINTER, gpux_take(&out, a, NULL, 0, 0));
  GT_STATUS(GPUX_ERROR_NULL_POINTER, gpux_take_into(NULL, a, idx, 0, 0));
  GT_STATUS(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_take(&out, a, f, 0, 0));
  GT_STATUS(GPUX_ERROR_INVALID_AXIS, gpux_take(&out, a, idx, 2, 0));
  GT_STATUS(GPUX_ERROR_INVALID_AXIS, gpux_take(&out, a, idx, -3, 0));
  GT_STATUS(GPUX_ERROR_INVALID_ARGUMENT, gpux_take(&out, a, idx, 0, (gpux_index_mode)3));
  GT_STATUS(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_take(&out, e, idx, 1, GPUX_INDEX_WRAP));
  if (!strstr(gpux_last_error_message(), "axis 1 has length 0")) fail_msg("%s", gpux_last_error_message());
  GT_STATUS(GPUX_ERROR_SHAPE_MISMATCH, gpux_take_into(f, a, idx, 0, 0));
  GT_OK(gpux_array_zeros(&o, gt_ctx, GPUX_INT32, 2, (int64_t[]){4, 4}));
  GT_STATUS(GPUX_ERROR_DTYPE_MISMATCH, gpux_take_into(o, a, idx, 0, 0));
  GT_STATUS(GPUX_ERROR_OVERLAP, gpux_take_into(a, a, idx, 1, 0));
  GT_STATUS(GPUX_ERROR_INVALID_SHAPE, gpux_take_along_axis(&out, a, idx, 0, 0));
  GT_STATUS(GPUX_ERROR_INVALID_SHAPE, gpux_take_along_axis(&out, a, i3, GPUX_ALL_AXES, 0));
  GT_STATUS(GPUX_ERROR_SHAPE_MISMATCH,
            gpux_take_along_axis(&out, a, i3, 0, 0)); /* 2 against 4 along axis 1 */
  GT_STATUS(GPUX_ERROR_DTYPE_MISMATCH, gpux_put(a, idx, idx, 0));
  GT_STATUS(GPUX_ERROR_OVERLAP, gpux_put(a, idx, a, 0));
  GT_STATUS(GPUX_ERROR_NULL_POINTER, gpux_put(a, idx, NULL, 0));
  GT_STATUS(GPUX_ERROR_INVALID_ARGUMENT, gpux_put(f, idx, e, 0));
  GT_STATUS(GPUX_ERROR_SHAPE_MISMATCH, gpux_put_along_axis(a, i3, f, 1, 0));
  gpux_context_t c2 = gt_context_new();
  gpux_array_t other = NULL;
  GT_OK(gpux_array_zeros(&other, c2, GPUX_INT32, 1, s1));
  GT_STATUS(GPUX_ERROR_CONTEXT_MISMATCH, gpux_take(&out, a, other, 0, 0));
  gpux_array_release(other);
  gpux_context_release(c2);
  assert_null(out);
  /* the context still works */
  GT_OK(gpux_take(&out, a, idx, 1, 0));
  GT_OK(gpux_context_synchronize(gt_ctx));
  GT_RELEASE(out, o, e, i3, idx, f, a);
}

int main(void) {
  gt_init("test_index");
  for (int d = 0; d < GPUX_DTYPE_COUNT; d++)
    if (gt_dtype_available((gpux_dtype)d)) g_dts[g_ndt++] = (gpux_dtype)d;
  static const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_take),         cmocka_unit_test(test_take_large),
      cmocka_unit_test(test_take_along),   cmocka_unit_test(test_put),
      cmocka_unit_test(test_checked_error), cmocka_unit_test(test_errors),
  };
  int failed = gt_run("index", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
