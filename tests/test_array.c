/* gpux tests: arrays -- creation, host transfers, copies, views (reshape, slice), permute /
 * transpose, contiguous copies, casts between all 36 dtype pairs, queries. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const gpux_dtype k_dtypes[GT_COMPUTE_DTYPES] = GT_COMPUTE_DTYPE_INIT;

/* Fills a host buffer with random values of dt (bool 0/1). */
static void *rand_host(gpux_dtype dt, int64_t n, uint64_t seed) {
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt));
  gt_fill_random(p, dt, n, GT_DOM_ANY, seed);
  return p;
}

static void expect_bytes_equal(const char *label, gpux_dtype dt, const void *got,
                               const void *want, int64_t n) {
  ref_value *w = gt_malloc((size_t)(n ? n : 1) * sizeof(ref_value));
  for (int64_t i = 0; i < n; i++) w[i] = ref_load(dt, want, i);
  gt_compare(label, dt, got, w, n, gt_tolerance(dt, GT_OPC_EXACT), dt, NULL, NULL);
  free(w);
}

/* ------------------------------------------------------------------ queries, creation */

static void test_dtype_queries(void **state) {
  (void)state;
  static const char *names[] = {"float32", "float64", "int32",  "int64",  "uint8",
                                "bool",    "float16", "bfloat16", "int8", "int16",
                                "uint16",  "uint32",  "uint64", "complex64", "complex128"};
  static const size_t sizes[] = {4, 8, 4, 8, 1, 1, 2, 2, 1, 2, 2, 4, 8, 8, 16};
  assert_int_equal(GPUX_DTYPE_COUNT, sizeof sizes / sizeof sizes[0]);
  for (int d = 0; d < GPUX_DTYPE_COUNT; d++) {
    assert_non_null(gpux_dtype_name((gpux_dtype)d));
    assert_string_equal(gpux_dtype_name((gpux_dtype)d), names[d]);
    assert_int_equal(gpux_dtype_size((gpux_dtype)d), sizes[d]);
  }
  assert_null(gpux_dtype_name((gpux_dtype)GPUX_DTYPE_COUNT));
  assert_null(gpux_dtype_name((gpux_dtype)-1));
  assert_int_equal(gpux_dtype_size((gpux_dtype)GPUX_DTYPE_COUNT), 0);
  assert_int_equal(gpux_dtype_size((gpux_dtype)-1), 0);
}

static void check_queries(gpux_array_t a, gpux_dtype dt, int nd, const int64_t *sh) {
  gt_check_shape(a, dt, nd, sh, "queries");
  int64_t str[GPUX_MAX_DIMS], want[GPUX_MAX_DIMS], size = -1;
  size_t nbytes = 1;
  int contig = -1;
  gpux_context_t c = NULL;
  GT_OK(gpux_array_strides(str, a));
  ref_row_major_strides(nd, sh, want);
  /* strides matter only for dims longer than 1 of arrays that hold elements */
  for (int d = 0; d < nd && ref_shape_size(nd, sh) > 0; d++)
    if (sh[d] > 1) GT_ASSERT(str[d] == want[d], "stride[%d] = %" PRId64 ", expected %" PRId64, d, str[d], want[d]);
  GT_OK(gpux_array_size(&size, a));
  assert_int_equal(size, ref_shape_size(nd, sh));
  GT_OK(gpux_array_nbytes(&nbytes, a));
  assert_int_equal(nbytes, (size_t)ref_shape_size(nd, sh) * ref_dtype_size(dt));
  GT_OK(gpux_array_is_contiguous(&contig, a));
  char b[96];
  GT_ASSERT(contig == 1, "gpux_array_is_contiguous = %d for a new %s array of shape %s", contig,
            gt_dtype_str(dt), gt_shape_str(b, sizeof b, nd, sh));
  GT_OK(gpux_array_context(&c, a));
  assert_ptr_equal(c, gt_ctx);
}

static void test_create_queries(void **state) {
  (void)state;
  const int64_t s0[1] = {0}, s1[3] = {3, 0, 2}, s2[3] = {2, 3, 4}, s3[8] = {2, 1, 3, 1, 2, 2, 1, 3};
  struct { int nd; const int64_t *sh; } shapes[] = {{0, NULL}, {1, s0}, {3, s1}, {3, s2}, {8, s3}};
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
      gpux_array_t a = NULL;
      GT_OK(gpux_array_empty(&a, gt_ctx, dt, shapes[k].nd, shapes[k].sh));
      check_queries(a, dt, shapes[k].nd, shapes[k].sh);
      gpux_array_release(a);
    }
  }
  /* a 0-d array holds one element */
  gpux_array_t z = NULL;
  double v = 42.5, got = 0;
  GT_OK(gpux_array_from_host(&z, gt_ctx, GPUX_FLOAT64, 0, NULL, &v));
  int64_t size = 0;
  GT_OK(gpux_array_size(&size, z));
  assert_int_equal(size, 1);
  if (gt_info.fp64) {
    GT_OK(gpux_array_read(z, &got, sizeof got));
    assert_true(got == 42.5);
  }
  gpux_array_release(z);
}

static void check_fill(gpux_dtype dt, int nd, const int64_t *sh, int kind, double value) {
  gpux_array_t a = NULL;
  char label[160], s1[64];
  int64_t n = ref_shape_size(nd, sh);
  if (kind == 0) GT_OK(gpux_array_zeros(&a, gt_ctx, dt, nd, sh));
  else if (kind == 1) GT_OK(gpux_array_ones(&a, gt_ctx, dt, nd, sh));
  else GT_OK(gpux_array_full(&a, gt_ctx, dt, nd, sh, value));
  double v = kind == 0 ? 0.0 : kind == 1 ? 1.0 : value;
  snprintf(label, sizeof label, "%s %s %s value %.17g", kind == 0 ? "zeros" : kind == 1 ? "ones" : "full",
           gt_dtype_str(dt), gt_shape_str(s1, sizeof s1, nd, sh), v);
  gt_check_shape(a, dt, nd, sh, label);
  void *got = gt_read_all(a, NULL);
  ref_value *want = gt_malloc((size_t)(n ? n : 1) * sizeof(ref_value));
  ref_value w = ref_from_double(dt, v);
  for (int64_t i = 0; i < n; i++) want[i] = w;
  gt_compare(label, dt, got, want, n, gt_tolerance(dt, GT_OPC_EXACT), dt, NULL, NULL);
  free(want);
  free(got);
  gpux_array_release(a);
}

static void test_zeros_ones_full(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 1, 1001, 4099};
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    for (int i = 0; i < 4; i++) {
      int64_t sh[1] = {sizes[i]};
      check_fill(dt, 1, sh, 0, 0);
      check_fill(dt, 1, sh, 1, 0);
      check_fill(dt, 1, sh, 2, -3.75);
      check_fill(dt, 1, sh, 2, 7.0);
    }
    const int64_t s8[8] = {2, 1, 3, 1, 2, 2, 1, 3};
    check_fill(dt, 8, s8, 2, 5.0);
    check_fill(dt, 0, NULL, 2, 9.0);
    /* conversions of the fill value (as casts convert a float64) */
    const double specials[] = {NAN, INFINITY, -INFINITY, 1e10, -1e10, 300.0, -5.5, 255.9, 0.25,
                               -0.0, 2147483648.0, -2147483649.0, 1e19, -1e19, 1e300, 16777217.0,
                               9007199254740991.0, -9007199254740992.0};
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
      int64_t sh[1] = {5};
      check_fill(dt, 1, sh, 2, specials[k]);
    }
  }
  int64_t big[1] = {GT_BIG};
  check_fill(GPUX_FLOAT32, 1, big, 2, 1.5);
  check_fill(GPUX_INT32, 1, big, 2, -123456789.0);
  check_fill(GPUX_UINT8, 1, big, 1, 0);
}

static void check_arange(gpux_dtype dt, double start, double stop, double step) {
  gpux_array_t a = NULL;
  char label[160];
  snprintf(label, sizeof label, "arange %s (%g, %g, %g)", gt_dtype_str(dt), start, stop, step);
  GT_OK(gpux_array_arange(&a, gt_ctx, dt, start, stop, step));
  int64_t n = ref_arange_length(start, stop, step);
  gt_check_shape(a, dt, 1, &n, label);
  void *got = gt_read_all(a, NULL);
  ref_value *want = gt_malloc((size_t)(n ? n : 1) * sizeof(ref_value));
  ref_arange(dt, start, step, n, want);
  gt_tol tol = gt_tolerance(dt, GT_OPC_RANGE);
  tol.abs = tol.rel * fmax(fabs(start), fabs(stop));
  gt_compare(label, dt, got, want, n, tol, dt, NULL, NULL);
  free(want);
  free(got);
  gpux_array_release(a);
}

static void check_linspace(gpux_dtype dt, double start, double stop, int64_t n) {
  gpux_array_t a = NULL;
  char label[160];
  snprintf(label, sizeof label, "linspace %s (%g, %g, %" PRId64 ")", gt_dtype_str(dt), start, stop, n);
  GT_OK(gpux_array_linspace(&a, gt_ctx, dt, start, stop, n));
  gt_check_shape(a, dt, 1, &n, label);
  void *got = gt_read_all(a, NULL);
  ref_value *want = gt_malloc((size_t)(n ? n : 1) * sizeof(ref_value));
  ref_linspace(dt, start, stop, n, want);
  gt_tol tol = gt_tolerance(dt, GT_OPC_RANGE);
  tol.abs = tol.rel * fmax(fabs(start), fabs(stop));
  gt_compare(label, dt, got, want, n, tol, dt, NULL, NULL);
  if (n > 0 && ref_dtype_is_float(dt)) {
    /* the ends are exact */
    ref_value first = ref_load(dt, got, 0), last = ref_load(dt, got, n - 1);
    assert_true(first.f == ref_from_double(dt, start).f);
    if (n > 1) assert_true(last.f == ref_from_double(dt, stop).f);
  }
  free(want);
  free(got);
  gpux_array_release(a);
}

static void test_arange(void **state) {
  (void)state;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    check_arange(dt, 0, 10, 1);
    check_arange(dt, -5, 5, 1);
    check_arange(dt, 0.5, -3, -0.25);
    check_arange(dt, 3, 1001.5, 2);
    check_arange(dt, 0, 300, 1); /* uint8 saturates at 255 */
    check_arange(dt, 5, 0, 1);   /* empty */
    check_arange(dt, 1, 1, 1);   /* empty */
    check_arange(dt, 7, 8, 10);  /* one element */
  }
  check_arange(GPUX_FLOAT32, 0, (double)GT_BIG, 1);
  check_arange(GPUX_INT32, -2000000, -2000000 + (double)GT_BIG, 1);
  if (gt_dtype_available(GPUX_FLOAT64)) check_arange(GPUX_FLOAT64, -1, 1, 0.001);
  check_arange(GPUX_FLOAT32, 0.1, 100.3, 0.1);
}

static void test_linspace(void **state) {
  (void)state;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    check_linspace(dt, 0, 100, 101);
    check_linspace(dt, 10, -10, 21);
    check_linspace(dt, 5, 5, 3);
    check_linspace(dt, 3, 9, 2);
    check_linspace(dt, 3, 9, 0);
  }
  check_linspace(GPUX_FLOAT32, -1, 1, 4099);
  if (gt_dtype_available(GPUX_FLOAT64)) check_linspace(GPUX_FLOAT64, 0, 1, 11);
  check_linspace(GPUX_FLOAT32, 0, 1, GT_BIG);
  check_linspace(GPUX_INT64, -4099, 4099, 8199);
}

/* n == 1 gives start (array.h) */
static void test_linspace_one(void **state) {
  (void)state;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++)
    if (gt_dtype_available(k_dtypes[d])) check_linspace(k_dtypes[d], 3, 9, 1);
}

/* ------------------------------------------------------------------ host transfers */

static void test_host_transfers(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 1, 1001, 4099};
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    size_t es = ref_dtype_size(dt);
    for (int i = 0; i < 4; i++) {
      int64_t n = sizes[i], sh[1] = {n};
      char label[96];
      snprintf(label, sizeof label, "from_host/read %s n=%" PRId64, gt_dtype_str(dt), n);
      void *h = rand_host(dt, n, 10 + (uint64_t)d * 7 + (uint64_t)i);
      gpux_array_t a = NULL;
      GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, sh, h));
      void *got = gt_malloc((size_t)n * es);
      gt_poison_host(got, (size_t)n * es);
      GT_OK(gpux_array_read(a, got, (size_t)n * es));
      expect_bytes_equal(label, dt, got, h, n);
      /* download */
      void *dl = NULL;
      size_t bytes = 12345;
      GT_OK(gpux_array_download(&dl, &bytes, a));
      assert_int_equal(bytes, (size_t)n * es);
      if (n) {
        assert_non_null(dl);
        expect_bytes_equal("download", dt, dl, h, n);
      }
      gpux_host_free(dl);
      /* write replaces the contents */
      void *h2 = rand_host(dt, n, 99 + (uint64_t)d);
      GT_OK(gpux_array_write(a, h2, (size_t)n * es));
      GT_OK(gpux_array_read(a, got, (size_t)n * es));
      expect_bytes_equal("write", dt, got, h2, n);
      free(h2);
      free(got);
      free(h);
      gpux_array_release(a);
    }
  }
  /* the big sizes */
  int64_t shb[1] = {GT_BIG};
  const void *hb = gt_random_cached(GPUX_FLOAT32, GT_BIG, GT_DOM_ANY, 1);
  gpux_array_t b = NULL;
  GT_OK(gpux_array_from_host(&b, gt_ctx, GPUX_FLOAT32, 1, shb, hb));
  void *got = gt_read_all(b, NULL);
  assert_memory_equal(got, hb, (size_t)GT_BIG * 4);
  free(got);
  gpux_array_release(b);
}

/* write into / read from strided views (row-major logical order) */
static void test_view_transfers(void **state) {
  (void)state;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    size_t es = ref_dtype_size(dt);
    const int64_t sh[3] = {5, 7, 3};
    int64_t n = 105;
    for (int lay = GT_STRIDED; lay <= GT_REVERSED; lay++) {
      void *h = rand_host(dt, n, 200 + (uint64_t)d);
      gt_view v;
      gt_view_make(&v, dt, 3, sh, (gt_layout)lay, h);
      void *got = gt_malloc((size_t)n * es);
      GT_OK(gpux_array_read(v.view, got, (size_t)n * es));
      expect_bytes_equal("read of a view", dt, got, h, n);
      void *h2 = rand_host(dt, n, 300 + (uint64_t)d);
      GT_OK(gpux_array_write(v.view, h2, (size_t)n * es));
      gt_view_read(&v, got, "write into a view");
      expect_bytes_equal("write into a view", dt, got, h2, n);
      free(h2);
      free(got);
      free(h);
      gt_view_free(&v);
    }
  }
}

/* ------------------------------------------------------------------ copies */

static void test_copy(void **state) {
  (void)state;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    size_t es = ref_dtype_size(dt);
    const int64_t sh[2] = {37, 29};
    int64_t n = 37 * 29;
    void *h = rand_host(dt, n, 400 + (uint64_t)d);
    for (int lay = 0; lay < 3; lay++) {
      gt_view v;
      gt_view_make(&v, dt, 2, sh, (gt_layout)lay, h);
      gpux_array_t c = NULL;
      GT_OK(gpux_array_copy(&c, v.view));
      assert_true(c != v.view);
      gt_check_shape(c, dt, 2, sh, "copy");
      int contig = 0;
      GT_OK(gpux_array_is_contiguous(&contig, c));
      assert_int_equal(contig, 1);
      void *got = gt_read_all(c, NULL);
      expect_bytes_equal("copy", dt, got, h, n);
      /* the copy is independent: overwrite it, the source keeps its values */
      void *z = gt_malloc((size_t)n * es);
      memset(z, 0, (size_t)n * es);
      GT_OK(gpux_array_write(c, z, (size_t)n * es));
      gt_view_read(&v, got, "copy source after writing the copy");
      expect_bytes_equal("copy source after writing the copy", dt, got, h, n);
      free(z);
      free(got);
      gpux_array_release(c);
      gt_view_free(&v);
    }
    free(h);
  }
}

static void copy_into_case(gpux_dtype dt, int nds, const int64_t *ss, gt_layout ls, int ndd,
                           const int64_t *sd, gt_layout ld, uint64_t seed) {
  char label[256], a[64], b[64];
  snprintf(label, sizeof label, "copy_into %s: %s %s -> %s %s", gt_dtype_str(dt),
           gt_shape_str(a, sizeof a, nds, ss), gt_layout_str(ls), gt_shape_str(b, sizeof b, ndd, sd),
           gt_layout_str(ld));
  int64_t ns = ref_shape_size(nds, ss), nd = ref_shape_size(ndd, sd);
  size_t es = ref_dtype_size(dt);
  void *h = rand_host(dt, ns, seed);
  gt_view vs, vd;
  gt_view_make(&vs, dt, nds, ss, ls, h);
  gt_view_make(&vd, dt, ndd, sd, ld, NULL);
  GT_OK(gpux_array_copy_into(vd.view, vs.view));
  void *got = gt_malloc((size_t)nd * es), *want = gt_malloc((size_t)nd * es);
  gt_view_read(&vd, got, label);
  ref_broadcast(want, h, es, ndd, sd, nds, ss);
  expect_bytes_equal(label, dt, got, want, nd);
  free(got);
  free(want);
  free(h);
  gt_view_free(&vs);
  gt_view_free(&vd);
}

static void test_copy_into(void **state) {
  (void)state;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    uint64_t s = 500 + (uint64_t)d * 10;
    const int64_t d45[2] = {4, 5}, s5[1] = {5}, s41[2] = {4, 1}, s1[1] = {1};
    copy_into_case(dt, 2, d45, GT_CONTIG, 2, d45, GT_CONTIG, s++);
    copy_into_case(dt, 1, s5, GT_CONTIG, 2, d45, GT_CONTIG, s++);
    copy_into_case(dt, 2, s41, GT_CONTIG, 2, d45, GT_CONTIG, s++);
    copy_into_case(dt, 0, NULL, GT_CONTIG, 2, d45, GT_CONTIG, s++);
    copy_into_case(dt, 1, s1, GT_CONTIG, 2, d45, GT_STRIDED, s++);
    copy_into_case(dt, 1, s5, GT_REVERSED, 2, d45, GT_STRIDED, s++);
    copy_into_case(dt, 2, d45, GT_STRIDED, 2, d45, GT_REVERSED, s++);
    const int64_t a3[3] = {5, 1, 7}, d3[3] = {5, 3, 7};
    copy_into_case(dt, 3, a3, GT_STRIDED, 3, d3, GT_CONTIG, s++);
    const int64_t e8[8] = {2, 1, 3, 1, 2, 1, 1, 2}, d8[8] = {2, 3, 3, 2, 2, 1, 2, 2};
    copy_into_case(dt, 8, e8, GT_REVERSED, 8, d8, GT_STRIDED, s++);
    const int64_t z[2] = {0, 5};
    copy_into_case(dt, 1, s5, GT_CONTIG, 2, z, GT_CONTIG, s++);
    const int64_t big[2] = {1031, 4099};
    if (dt == GPUX_FLOAT32) {
      const int64_t row[1] = {4099};
      copy_into_case(dt, 1, row, GT_CONTIG, 2, big, GT_CONTIG, s++);
    }
  }
}

/* Copies between 2-d blocks whose rows are contiguous run as wider elements where the
 * rows, strides and offsets allow it (gpux__nd_widen): every parity of the block's column
 * offset, width and row pitch, in both directions, and nothing outside the block written. */
static void test_copy_widened(void **state) {
  (void)state;
  const int64_t widths[] = {1, 2, 6, 8, 16, 33, 64}, c0s[] = {0, 1, 2, 4}, pitches[] = {64, 66, 67};
  uint64_t seed = 9100;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    const gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    for (size_t ip = 0; ip < sizeof pitches / sizeof *pitches; ip++)
      for (size_t iw = 0; iw < sizeof widths / sizeof *widths; iw++)
        for (size_t ic = 0; ic < sizeof c0s / sizeof *c0s; ic++)
          for (int dir = 0; dir < 2; dir++) {
            const int64_t R = 5, C = pitches[ip], w = widths[iw], c0 = c0s[ic], r0 = 1, h = 3;
            if (c0 + w > C) continue;
            const int64_t big[2] = {R, C}, blk[2] = {h, w};
            unsigned char *hb = malloc((size_t)(R * C) * es), *hs = malloc((size_t)(h * w) * es);
            unsigned char *want = malloc((size_t)(R * C) * es), *got = malloc((size_t)(R * C) * es);
            assert_non_null(hb && hs && want && got);
            gt_fill_random(hb, dt, R * C, GT_DOM_ANY, seed++);
            gt_fill_random(hs, dt, h * w, GT_DOM_ANY, seed++);
            gpux_array_t B = NULL, S = NULL, V = NULL;
            GT_OK(gpux_array_from_host(&B, gt_ctx, dt, 2, big, hb));
            GT_OK(gpux_array_from_host(&S, gt_ctx, dt, 2, blk, hs));
            const int64_t st[2] = {r0, c0}, sp[2] = {r0 + h, c0 + w};
            GT_OK(gpux_array_slice(&V, B, st, sp, NULL));
            if (dir == 0) { /* contiguous block -> rows of the big array */
              GT_OK(gpux_array_copy_into(V, S));
              memcpy(want, hb, (size_t)(R * C) * es);
              for (int64_t i = 0; i < h; i++)
                memcpy(want + (size_t)((r0 + i) * C + c0) * es, hs + (size_t)(i * w) * es,
                       (size_t)w * es);
              GT_OK(gpux_array_read(B, got, (size_t)(R * C) * es));
              assert_memory_equal(got, want, (size_t)(R * C) * es);
            } else { /* rows of the big array -> a contiguous block */
              GT_OK(gpux_array_copy_into(S, V));
              for (int64_t i = 0; i < h; i++)
                memcpy(want + (size_t)(i * w) * es, hb + (size_t)((r0 + i) * C + c0) * es,
                       (size_t)w * es);
              GT_OK(gpux_array_read(S, got, (size_t)(h * w) * es));
              assert_memory_equal(got, want, (size_t)(h * w) * es);
            }
            gpux_array_release(V);
            gpux_array_release(S);
            gpux_array_release(B);
            free(hb);
            free(hs);
            free(want);
            free(got);
          }
  }
}

/* ------------------------------------------------------------------ reshape */

static void test_reshape(void **state) {
  (void)state;
  int32_t h[24], h2[24], got[24];
  for (int i = 0; i < 24; i++) {
    h[i] = i * 3 - 7;
    h2[i] = 1000 + i;
  }
  const int64_t s46[2] = {4, 6};
  gpux_array_t base = NULL, v = NULL;
  GT_OK(gpux_array_from_host(&base, gt_ctx, GPUX_INT32, 2, s46, h));
  /* -1 inference, a view */
  const int64_t r1[3] = {2, -1, 3}, r1w[3] = {2, 4, 3};
  GT_OK(gpux_array_reshape(&v, base, 3, r1));
  gt_check_shape(v, GPUX_INT32, 3, r1w, "reshape (2, -1, 3)");
  GT_OK(gpux_array_read(v, got, sizeof got));
  assert_memory_equal(got, h, sizeof h);
  /* the view shares memory: write through the view, read the base ... */
  GT_OK(gpux_array_write(v, h2, sizeof h2));
  GT_OK(gpux_array_read(base, got, sizeof got));
  assert_memory_equal(got, h2, sizeof h2);
  /* ... and compute into the base, read the view */
  GT_OK(gpux_binary_scalar_into(base, GPUX_MUL, base, 2.0));
  GT_OK(gpux_array_read(v, got, sizeof got));
  for (int i = 0; i < 24; i++) assert_int_equal(got[i], 2 * h2[i]);
  /* releasing the base keeps the memory alive for the view */
  gpux_array_release(base);
  GT_OK(gpux_array_read(v, got, sizeof got));
  for (int i = 0; i < 24; i++) assert_int_equal(got[i], 2 * h2[i]);
  /* views of views */
  gpux_array_t v2 = NULL, v3 = NULL;
  const int64_t r2[1] = {-1}, r2w[1] = {24};
  GT_OK(gpux_array_reshape(&v2, v, 1, r2));
  gt_check_shape(v2, GPUX_INT32, 1, r2w, "reshape (-1)");
  const int64_t r3[8] = {1, 2, 1, 2, 1, 3, 2, 1};
  GT_OK(gpux_array_reshape(&v3, v2, 8, r3));
  gt_check_shape(v3, GPUX_INT32, 8, r3, "reshape 8-d");
  GT_OK(gpux_binary_scalar_into(v3, GPUX_ADD, v3, 1.0));
  GT_OK(gpux_array_read(v, got, sizeof got));
  for (int i = 0; i < 24; i++) assert_int_equal(got[i], 2 * h2[i] + 1);
  gpux_array_release(v3);
  gpux_array_release(v2);
  gpux_array_release(v);

  /* a contiguous slice (rows 1..2) reshapes to a view too */
  GT_OK(gpux_array_from_host(&base, gt_ctx, GPUX_INT32, 2, s46, h));
  gpux_array_t rows = NULL, rv = NULL;
  const int64_t st[2] = {1, 0}, sp[2] = {3, 6}, stp[2] = {1, 1};
  GT_OK(gpux_array_slice(&rows, base, st, sp, stp));
  int contig = 0;
  GT_OK(gpux_array_is_contiguous(&contig, rows));
  assert_int_equal(contig, 1);
  const int64_t r4[2] = {3, 4};
  GT_OK(gpux_array_reshape(&rv, rows, 2, r4));
  GT_OK(gpux_array_read(rv, got, 12 * sizeof(int32_t)));
  assert_memory_equal(got, h + 6, 12 * sizeof(int32_t));
  GT_OK(gpux_binary_scalar_into(rv, GPUX_SUB, rv, 5.0));
  GT_OK(gpux_array_read(base, got, sizeof got));
  for (int i = 0; i < 24; i++) assert_int_equal(got[i], (i >= 6 && i < 18) ? h[i] - 5 : h[i]);
  gpux_array_release(rv);
  gpux_array_release(rows);

  /* a strided view reshapes to a copy: writing the copy leaves the base alone */
  gpux_array_t sv = NULL, cp = NULL;
  const int64_t a0[2] = {0, 5}, a1[2] = {4, -7}, a2[2] = {1, -2};
  GT_OK(gpux_array_slice(&sv, base, a0, a1, a2));
  const int64_t svs[2] = {4, 3};
  gt_check_shape(sv, GPUX_INT32, 2, svs, "slice [:, 5::-2]");
  const int64_t r5[1] = {-1}, r5w[1] = {12};
  GT_OK(gpux_array_reshape(&cp, sv, 1, r5));
  gt_check_shape(cp, GPUX_INT32, 1, r5w, "reshape of a strided view");
  int32_t want[12];
  GT_OK(gpux_array_read(base, got, sizeof got));
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 3; c++) want[r * 3 + c] = got[r * 6 + 5 - 2 * c];
  int32_t g12[12];
  GT_OK(gpux_array_read(cp, g12, sizeof g12));
  assert_memory_equal(g12, want, sizeof want);
  GT_OK(gpux_binary_scalar_into(cp, GPUX_ADD, cp, 100.0));
  int32_t after[24];
  GT_OK(gpux_array_read(base, after, sizeof after));
  assert_memory_equal(after, got, sizeof got);
  gpux_array_release(cp);
  gpux_array_release(sv);

  /* size-1 <-> 0-d */
  gpux_array_t one = NULL, zd = NULL, back = NULL;
  const int64_t s11[2] = {1, 1};
  GT_OK(gpux_array_full(&one, gt_ctx, GPUX_INT32, 2, s11, 17));
  GT_OK(gpux_array_reshape(&zd, one, 0, NULL));
  int nd = -1;
  GT_OK(gpux_array_ndim(&nd, zd));
  assert_int_equal(nd, 0);
  const int64_t s1[1] = {-1};
  GT_OK(gpux_array_reshape(&back, zd, 1, s1));
  int32_t x = 0;
  GT_OK(gpux_array_read(back, &x, sizeof x));
  assert_int_equal(x, 17);
  gpux_array_release(back);
  gpux_array_release(zd);
  gpux_array_release(one);

  /* errors: two -1, a size that does not match */
  gpux_array_t bad = NULL;
  const int64_t e1[2] = {-1, -1}, e2[2] = {5, 5};
  gpux_status s = gpux_array_reshape(&bad, base, 2, e1);
  GT_ASSERT(s == GPUX_ERROR_INVALID_SHAPE, "reshape (-1, -1): %s", gpux_status_name(s));
  s = gpux_array_reshape(&bad, base, 2, e2);
  GT_ASSERT(s == GPUX_ERROR_SHAPE_MISMATCH || s == GPUX_ERROR_INVALID_SHAPE,
            "reshape 24 elements to (5, 5): %s", gpux_status_name(s));
  gpux_array_release(base);
}

/* ------------------------------------------------------------------ slices */

static void check_slice(gpux_dtype dt, int nd, const int64_t *sh, const int64_t *start,
                        const int64_t *stop, const int64_t *step, uint64_t seed) {
  char label[256], s1[64];
  size_t es = ref_dtype_size(dt);
  int64_t n = ref_shape_size(nd, sh);
  void *h = rand_host(dt, n, seed);
  int64_t bstr[GPUX_MAX_DIMS], vsh[GPUX_MAX_DIMS], vstr[GPUX_MAX_DIMS], off = 0;
  ref_row_major_strides(nd, sh, bstr);
  int len = snprintf(label, sizeof label, "slice %s %s [", gt_dtype_str(dt), gt_shape_str(s1, sizeof s1, nd, sh));
  for (int d = 0; d < nd; d++) {
    int64_t st = start ? start[d] : 0, sp = stop ? stop[d] : sh[d], stp = step ? step[d] : 1, first;
    vsh[d] = ref_slice_dim(sh[d], st, sp, stp, &first);
    vstr[d] = bstr[d] * stp;
    if (vsh[d] > 0) off += first * bstr[d];
    len += snprintf(label + len, sizeof label - (size_t)len, "%s%" PRId64 ":%" PRId64 ":%" PRId64,
                    d ? ", " : "", st, sp, stp);
  }
  snprintf(label + len, sizeof label - (size_t)len, "]");
  int64_t vn = ref_shape_size(nd, vsh);
  void *want = gt_malloc((size_t)vn * es);
  ref_gather(want, h, es, nd, vsh, vstr, off);
  gpux_array_t a = NULL, v = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, nd, sh, h));
  GT_OK(gpux_array_slice(&v, a, start, stop, step));
  gt_check_shape(v, dt, nd, vsh, label);
  int64_t gstr[GPUX_MAX_DIMS];
  GT_OK(gpux_array_strides(gstr, v));
  for (int d = 0; d < nd; d++)
    if (vsh[d] > 1 && vn > 0)
      GT_ASSERT(gstr[d] == vstr[d], "%s: stride[%d] = %" PRId64 ", expected %" PRId64, label, d,
                gstr[d], vstr[d]);
  void *got = gt_malloc((size_t)vn * es);
  GT_OK(gpux_array_read(v, got, (size_t)vn * es));
  expect_bytes_equal(label, dt, got, want, vn);
  /* contiguous copy of the view */
  gpux_array_t c = NULL;
  GT_OK(gpux_array_contiguous(&c, v));
  int contig = 0;
  GT_OK(gpux_array_is_contiguous(&contig, c));
  assert_int_equal(contig, 1);
  gt_check_shape(c, dt, nd, vsh, label);
  gt_poison_host(got, (size_t)vn * es);
  GT_OK(gpux_array_read(c, got, (size_t)vn * es));
  expect_bytes_equal(label, dt, got, want, vn);
  gpux_array_release(c);
  gpux_array_release(v);
  gpux_array_release(a);
  free(got);
  free(want);
  free(h);
}

static void test_slice(void **state) {
  (void)state;
  const int64_t s10[1] = {10};
  const int64_t cases1[][3] = {{2, 8, 1},    {8, 2, -1},    {-1, -11, -1}, {0, 10, 3},
                               {-3, 100, 1}, {5, 5, 1},     {100, 200, 1}, {-100, 3, 1},
                               {9, -100, -2}, {-2, 0, -3},  {0, 10, 11},   {3, 4, -1},
                               {1000, -1000, -4}};
  for (size_t k = 0; k < sizeof cases1 / sizeof cases1[0]; k++)
    for (int d = 0; d < GT_COMPUTE_DTYPES; d++)
      if (gt_dtype_available(k_dtypes[d]))
        check_slice(k_dtypes[d], 1, s10, &cases1[k][0], &cases1[k][1], &cases1[k][2], 600 + k);
  const int64_t s79[2] = {7, 9};
  const int64_t st2[2] = {1, 8}, sp2[2] = {6, 0}, stp2[2] = {2, -3};
  check_slice(GPUX_FLOAT32, 2, s79, st2, sp2, stp2, 700);
  check_slice(GPUX_FLOAT32, 2, s79, NULL, NULL, NULL, 701);
  const int64_t s3[3] = {6, 5, 7};
  const int64_t st3[3] = {-1, 4, -2}, sp3[3] = {-7, -6, -8}, stp3[3] = {-2, -1, -3};
  check_slice(GPUX_INT64, 3, s3, st3, sp3, stp3, 702);
  const int64_t s8[8] = {3, 2, 3, 2, 3, 2, 3, 2};
  const int64_t st8[8] = {2, 0, 0, 1, -1, 0, 1, 1}, sp8[8] = {-4, 2, 3, -3, -4, 2, 3, 2},
                stp8[8] = {-1, 1, 2, -1, -2, 1, 1, 1};
  check_slice(GPUX_UINT8, 8, s8, st8, sp8, stp8, 703);
  /* a big strided slice */
  const int64_t sb[2] = {2049, 4099};
  const int64_t stb[2] = {-1, 1}, spb[2] = {-2050, 4099}, stpb[2] = {-1, 2};
  check_slice(GPUX_FLOAT32, 2, sb, stb, spb, stpb, 704);

  /* slice of a slice, checked element by element */
  int32_t h[40];
  for (int i = 0; i < 40; i++) h[i] = i;
  const int64_t s40[1] = {40};
  gpux_array_t a = NULL, v1 = NULL, v2 = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_INT32, 1, s40, h));
  const int64_t b1[1] = {1}, e1[1] = {39}, p1[1] = {3};  /* 1, 4, ..., 37: 13 elements */
  const int64_t b2[1] = {-2}, e2[1] = {-14}, p2[1] = {-2}; /* 11, 9, ..., 1 -> values 34 ... 4 */
  GT_OK(gpux_array_slice(&v1, a, b1, e1, p1));
  GT_OK(gpux_array_slice(&v2, v1, b2, e2, p2));
  int64_t n2 = 0;
  GT_OK(gpux_array_size(&n2, v2));
  assert_int_equal(n2, 6);
  int32_t got[6];
  GT_OK(gpux_array_read(v2, got, sizeof got));
  for (int i = 0; i < 6; i++) assert_int_equal(got[i], 1 + 3 * (11 - 2 * i));
  /* compute through the nested view */
  GT_OK(gpux_binary_scalar_into(v2, GPUX_MUL, v2, -1.0));
  int32_t all[40];
  GT_OK(gpux_array_read(a, all, sizeof all));
  for (int i = 0; i < 40; i++) {
    int in = 0;
    for (int j = 0; j < 6; j++) in |= i == 1 + 3 * (11 - 2 * j);
    assert_int_equal(all[i], in ? -i : i);
  }
  /* contiguity of slices */
  int contig = -1;
  GT_OK(gpux_array_is_contiguous(&contig, v1));
  assert_int_equal(contig, 0);
  gpux_array_t full = NULL;
  GT_OK(gpux_array_slice(&full, a, NULL, NULL, NULL));
  GT_OK(gpux_array_is_contiguous(&contig, full));
  assert_int_equal(contig, 1);
  gpux_array_release(full);
  gpux_array_release(v2);
  gpux_array_release(v1);
  gpux_array_release(a);
}


/* Python's slice of a length-len axis (PySlice_AdjustIndices), in 128-bit arithmetic: the
 * count and the first index. */
static int64_t py_slice(int64_t len, int64_t start, int64_t stop, int64_t step, int64_t *first) {
  __int128 b = start, e = stop, st = step, l = len;
  if (b < 0) { b += l; if (b < 0) b = st < 0 ? -1 : 0; }
  else if (b >= l) b = st < 0 ? l - 1 : l;
  if (e < 0) { e += l; if (e < 0) e = st < 0 ? -1 : 0; }
  else if (e >= l) e = st < 0 ? l - 1 : l;
  __int128 n = st < 0 ? (e < b ? (b - e - 1) / -st + 1 : 0) : (b < e ? (e - b - 1) / st + 1 : 0);
  *first = (int64_t)b;
  return (int64_t)n;
}

/* Every start, stop and step at the ends of int64 (and near the axis's ends), on 1-d arrays of
 * length 0, 1 and 7 and on the middle axis of a 3-d one, against Python's rules; no
 * arithmetic overflows (UBSan in CI). */
static void test_slice_extremes(void **state) {
  (void)state;
  const int64_t lens[3] = {0, 1, 7};
  int32_t h[7];
  for (int i = 0; i < 7; i++) h[i] = 100 + i;
  for (int li = 0; li < 3; li++) {
    const int64_t L = lens[li];
    const int64_t vals[] = {INT64_MIN, INT64_MIN + 1, -L - 1, -L, -1, 0, 1, L - 1, L, L + 1,
                            INT64_MAX - 1, INT64_MAX};
    const int64_t steps[] = {INT64_MIN, INT64_MIN + 1, -3, -1, 1, 2, INT64_MAX - 1, INT64_MAX};
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_INT32, 1, &L, h));
    for (size_t si = 0; si < sizeof steps / sizeof steps[0]; si++)
      for (size_t bi = 0; bi < sizeof vals / sizeof vals[0]; bi++)
        for (size_t ei = 0; ei < sizeof vals / sizeof vals[0]; ei++) {
          const int64_t b = vals[bi], e = vals[ei], st = steps[si];
          int64_t first = 0, n = py_slice(L, b, e, st, &first), got_n = -1;
          gpux_array_t v = NULL, w = NULL;
          GT_OK(gpux_array_slice(&v, a, &b, &e, &st));
          GT_OK(gpux_array_slice_axis(&w, a, 0, b, e, st));
          GT_OK(gpux_array_size(&got_n, v));
          GT_ASSERT(got_n == n, "len %lld [%lld:%lld:%lld]: %lld elements, Python gives %lld",
                    (long long)L, (long long)b, (long long)e, (long long)st, (long long)got_n,
                    (long long)n);
          GT_OK(gpux_array_size(&got_n, w));
          GT_ASSERT(got_n == n, "slice_axis: %lld elements, Python gives %lld", (long long)got_n,
                    (long long)n);
          int32_t got[7], got2[7];
          GT_OK(gpux_array_read(v, got, (size_t)n * sizeof got[0]));
          GT_OK(gpux_array_read(w, got2, (size_t)n * sizeof got2[0]));
          for (int64_t i = 0; i < n; i++) {
            const int32_t want = h[(int64_t)((__int128)first + (__int128)i * st)];
            GT_ASSERT(got[i] == want && got2[i] == want,
                      "len %lld [%lld:%lld:%lld] element %lld: %d / %d, expected %d",
                      (long long)L, (long long)b, (long long)e, (long long)st, (long long)i,
                      got[i], got2[i], want);
          }
          gpux_array_release(v);
          gpux_array_release(w);
        }
    const int64_t zero = 0;
    gpux_array_t v = NULL;
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_slice(&v, a, NULL, NULL, &zero));
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_slice_axis(&v, a, 0, 0, 1, 0));
    GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_slice_axis(&v, a, 1, 0, 1, 1));
    GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_slice_axis(&v, a, -2, 0, 1, 1));
    assert_null(v);
    gpux_array_release(a);
  }
  /* one axis of a 3-d array: x[:, ::-2, :] by slice_axis equals the full slice */
  const int64_t sh[3] = {3, 5, 4};
  float hx[60];
  for (int i = 0; i < 60; i++) hx[i] = (float)i * 0.5f - 3.0f;
  gpux_array_t x = NULL, v = NULL, w = NULL;
  GT_OK(gpux_array_from_host(&x, gt_ctx, GPUX_FLOAT32, 3, sh, hx));
  const int64_t st[3] = {0, -1, 0}, sp[3] = {3, INT64_MIN, 4}, stp[3] = {1, -2, 1};
  GT_OK(gpux_array_slice(&v, x, st, sp, stp));
  GT_OK(gpux_array_slice_axis(&w, x, -2, -1, INT64_MIN, -2));
  int64_t vs[3], ws[3];
  GT_OK(gpux_array_shape(vs, v));
  GT_OK(gpux_array_shape(ws, w));
  assert_memory_equal(vs, ws, sizeof vs);
  assert_int_equal(vs[1], 3);
  float gv[36], gw[36];
  GT_OK(gpux_array_read(v, gv, sizeof gv));
  GT_OK(gpux_array_read(w, gw, sizeof gw));
  assert_memory_equal(gv, gw, sizeof gv);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++)
        assert_true(gv[(i * 3 + j) * 4 + k] == hx[(i * 5 + (4 - 2 * j)) * 4 + k]);
  gpux_array_release(v);
  gpux_array_release(w);
  gpux_array_release(x);
}

/* select (integer indexing), squeeze and expand_dims: views with NumPy's shapes and values;
 * writes through them reach the base. */
static void test_index_views(void **state) {
  (void)state;
  const int64_t sh[3] = {2, 1, 3};
  int64_t h[6] = {-5, 7, 11, 13, -17, 19}, got[6], s[GPUX_MAX_DIMS];
  int nd = -1;
  gpux_array_t a = NULL, v = NULL, w = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_INT64, 3, sh, h));
  /* a[1] -> (1, 3); a[:, :, -1] -> (2, 1) */
  GT_OK(gpux_array_select(&v, a, 0, 1));
  GT_OK(gpux_array_ndim(&nd, v));
  GT_OK(gpux_array_shape(s, v));
  assert_int_equal(nd, 2);
  assert_true(s[0] == 1 && s[1] == 3);
  GT_OK(gpux_array_read(v, got, 3 * sizeof got[0]));
  assert_true(got[0] == 13 && got[1] == -17 && got[2] == 19);
  gpux_array_release(v);
  GT_OK(gpux_array_select(&v, a, -1, -1));
  GT_OK(gpux_array_shape(s, v));
  assert_true(s[0] == 2 && s[1] == 1);
  GT_OK(gpux_array_read(v, got, 2 * sizeof got[0]));
  assert_true(got[0] == 11 && got[1] == 19);
  /* select down to 0-d, then write through it */
  GT_OK(gpux_array_select(&w, v, 0, 1));
  gpux_array_release(v);
  GT_OK(gpux_array_select(&v, w, 0, 0));
  GT_OK(gpux_array_ndim(&nd, v));
  assert_int_equal(nd, 0);
  GT_OK(gpux_binary_scalar_into(v, GPUX_ADD, v, 100));
  GT_OK(gpux_array_read(a, got, sizeof got));
  assert_true(got[5] == 119 && got[0] == -5 && got[2] == 11);
  gpux_array_release(v);
  gpux_array_release(w);
  /* errors */
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_array_select(&v, a, 0, 2));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_array_select(&v, a, 0, -3));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_array_select(&v, a, 2, INT64_MIN));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_select(&v, a, 3, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_select(&v, a, -4, 0));
  assert_null(v);

  /* squeeze: every length-1 axis, or the ones named */
  GT_OK(gpux_array_squeeze(&v, a, GPUX_ALL_AXES, NULL));
  GT_OK(gpux_array_shape(s, v));
  GT_OK(gpux_array_ndim(&nd, v));
  assert_true(nd == 2 && s[0] == 2 && s[1] == 3);
  GT_OK(gpux_array_read(v, got, sizeof got));
  assert_true(got[0] == -5 && got[5] == 119);
  gpux_array_release(v);
  const int ax1[1] = {-2}, ax0[1] = {0}, rep[2] = {1, -2};
  GT_OK(gpux_array_squeeze(&v, a, 1, ax1));
  GT_OK(gpux_array_ndim(&nd, v));
  assert_int_equal(nd, 2);
  gpux_array_release(v);
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_squeeze(&v, a, 1, ax0)); /* length 2 */
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_squeeze(&v, a, 2, rep));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_array_squeeze(&v, a, 1, NULL));
  assert_null(v);

  /* expand_dims: positions in the result */
  const int e2[2] = {0, -1}, e1[1] = {2}, bad[1] = {5}, dup[2] = {1, 1};
  GT_OK(gpux_array_expand_dims(&v, a, 2, e2));
  GT_OK(gpux_array_ndim(&nd, v));
  GT_OK(gpux_array_shape(s, v));
  assert_true(nd == 5 && s[0] == 1 && s[1] == 2 && s[2] == 1 && s[3] == 3 && s[4] == 1);
  int contig = 0;
  GT_OK(gpux_array_is_contiguous(&contig, v));
  assert_int_equal(contig, 1);
  GT_OK(gpux_array_read(v, got, sizeof got));
  assert_true(got[1] == 7 && got[5] == 119);
  gpux_array_release(v);
  GT_OK(gpux_array_expand_dims(&v, a, 1, e1));
  GT_OK(gpux_array_shape(s, v));
  assert_true(s[0] == 2 && s[1] == 1 && s[2] == 1 && s[3] == 3);
  gpux_array_release(v);
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_expand_dims(&v, a, 1, bad));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_expand_dims(&v, a, 2, dup));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_expand_dims(&v, a, GPUX_MAX_DIMS, NULL));
  assert_null(v);
  /* a broadcast through an expanded view: (2, 3) + (2, 1, 3)[..] */
  gpux_array_release(a);
}

/* Copying or casting a view onto itself is a no-op that succeeds (NumPy's np.copyto(a, a)). */
static void test_copy_onto_itself(void **state) {
  (void)state;
  const int64_t sh[2] = {4, 6};
  float h[24], got[24];
  for (int i = 0; i < 24; i++) h[i] = (float)i * 1.25f - 9.0f;
  gpux_array_t a = NULL, v = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, sh, h));
  GT_OK(gpux_array_copy_into(a, a));
  GT_OK(gpux_array_cast_into(a, a));
  const int64_t st[2] = {3, 5}, sp[2] = {INT64_MIN, INT64_MIN}, stp[2] = {-2, -3};
  GT_OK(gpux_array_slice(&v, a, st, sp, stp));
  GT_OK(gpux_array_copy_into(v, v));
  GT_OK(gpux_array_cast_into(v, v));
  GT_OK(gpux_array_read(a, got, sizeof got));
  assert_memory_equal(got, h, sizeof h);
  gpux_array_release(v);
  gpux_array_release(a);
}

/* ------------------------------------------------------------------ permute / transpose */

static void check_permute(gpux_dtype dt, int nd, const int64_t *sh, const int *axes, gt_layout lay,
                          int transpose, uint64_t seed) {
  char label[256], s1[64];
  int len = snprintf(label, sizeof label, "%s %s %s %s axes (", transpose ? "transpose" : "permute",
                     gt_dtype_str(dt), gt_shape_str(s1, sizeof s1, nd, sh), gt_layout_str(lay));
  for (int d = 0; d < nd; d++) len += snprintf(label + len, sizeof label - (size_t)len, "%s%d", d ? "," : "", axes[d]);
  snprintf(label + len, sizeof label - (size_t)len, ")");
  size_t es = ref_dtype_size(dt);
  int64_t n = ref_shape_size(nd, sh);
  void *h = n >= GT_BIG / 2 ? (void *)gt_random_cached(dt, n, GT_DOM_ANY, seed) : rand_host(dt, n, seed);
  gt_view v;
  gt_view_make(&v, dt, nd, sh, lay, h);
  gpux_array_t p = NULL;
  if (transpose) GT_OK(gpux_array_transpose(&p, v.view));
  else GT_OK(gpux_array_permute(&p, v.view, axes));
  int64_t osh[GPUX_MAX_DIMS];
  for (int d = 0; d < nd; d++) osh[d] = sh[axes[d]];
  gt_check_shape(p, dt, nd, osh, label);
  int contig = 0;
  GT_OK(gpux_array_is_contiguous(&contig, p));
  GT_ASSERT(contig, "%s: result not contiguous", label);
  void *got = gt_read_all(p, NULL);
  void *want = gt_malloc((size_t)n * es);
  ref_permute(want, h, es, nd, sh, axes);
  expect_bytes_equal(label, dt, got, want, n);
  free(want);
  free(got);
  gpux_array_release(p);
  gt_view_free(&v);
  if (n < GT_BIG / 2) free(h);
}

static void test_permute_2d(void **state) {
  (void)state;
  const int64_t shapes[][2] = {{1, 1}, {1, 7}, {7, 1}, {33, 65}, {31, 32}, {64, 96}, {257, 129}, {3, 1000}};
  const int t2[2] = {1, 0};
  const gpux_dtype dts[] = {GPUX_FLOAT32, GPUX_UINT8, GPUX_FLOAT64, GPUX_INT64, GPUX_BOOL, GPUX_INT32};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
    for (size_t j = 0; j < sizeof dts / sizeof dts[0]; j++)
      if (gt_dtype_available(dts[j])) {
        check_permute(dts[j], 2, shapes[k], t2, GT_CONTIG, (int)(k % 2), 800 + k);
        if (k >= 3) check_permute(dts[j], 2, shapes[k], t2, GT_REVERSED, 0, 810 + k);
      }
  const int64_t large[2] = {2049, 1023}, large2[2] = {1023, 2049}, big[2] = {2051, 2047};
  check_permute(GPUX_FLOAT32, 2, big, t2, GT_CONTIG, 1, 824); /* >= 2^22 elements */
  check_permute(GPUX_INT32, 2, big, t2, GT_CONTIG, 0, 825);
  check_permute(GPUX_FLOAT32, 2, large, t2, GT_CONTIG, 1, 820);
  check_permute(GPUX_FLOAT32, 2, large2, t2, GT_CONTIG, 0, 821);
  check_permute(GPUX_UINT8, 2, large, t2, GT_CONTIG, 0, 822);
  if (gt_dtype_available(GPUX_FLOAT64)) check_permute(GPUX_FLOAT64, 2, large2, t2, GT_STRIDED, 0, 823);
}

static void test_permute_nd(void **state) {
  (void)state;
  const int64_t b3[3] = {3, 129, 67};
  const int p021[3] = {0, 2, 1}, p201[3] = {2, 0, 1}, p120[3] = {1, 2, 0}, p012[3] = {0, 1, 2},
            p210[3] = {2, 1, 0};
  const gpux_dtype dts[] = {GPUX_FLOAT32, GPUX_UINT8, GPUX_FLOAT64, GPUX_INT32};
  for (size_t j = 0; j < sizeof dts / sizeof dts[0]; j++) {
    if (!gt_dtype_available(dts[j])) continue;
    check_permute(dts[j], 3, b3, p021, GT_CONTIG, 0, 900);
    check_permute(dts[j], 3, b3, p201, GT_CONTIG, 0, 901);
    check_permute(dts[j], 3, b3, p120, GT_STRIDED, 0, 902);
    check_permute(dts[j], 3, b3, p012, GT_REVERSED, 0, 903);
    check_permute(dts[j], 3, b3, p210, GT_CONTIG, 1, 904);
  }
  const int64_t batched[3] = {16, 255, 257};
  check_permute(GPUX_FLOAT32, 3, batched, p021, GT_CONTIG, 0, 905);
  const int64_t s8[8] = {2, 3, 1, 5, 2, 3, 1, 2};
  const int a8[8] = {7, 0, 3, 1, 6, 2, 5, 4}, r8[8] = {7, 6, 5, 4, 3, 2, 1, 0};
  check_permute(GPUX_FLOAT32, 8, s8, a8, GT_CONTIG, 0, 906);
  check_permute(GPUX_INT64, 8, s8, a8, GT_STRIDED, 0, 907);
  check_permute(GPUX_UINT8, 8, s8, r8, GT_CONTIG, 1, 908);
  const int64_t s4[4] = {5, 7, 9, 11};
  const int a4[4] = {3, 1, 0, 2};
  check_permute(GPUX_INT32, 4, s4, a4, GT_REVERSED, 0, 909);
  /* 1-d and 0-d */
  const int64_t s1[1] = {1001};
  const int a1[1] = {0};
  check_permute(GPUX_FLOAT32, 1, s1, a1, GT_CONTIG, 1, 910);
  check_permute(GPUX_FLOAT32, 1, s1, a1, GT_REVERSED, 0, 911);
  check_permute(GPUX_FLOAT32, 0, NULL, NULL, GT_CONTIG, 1, 912);
}

/* permute of an array without elements: a new (contiguous) empty array */
static void test_permute_empty(void **state) {
  (void)state;
  const int64_t e3[3] = {4, 0, 3};
  const int p201[3] = {2, 0, 1}, p210[3] = {2, 1, 0};
  check_permute(GPUX_FLOAT32, 3, e3, p201, GT_CONTIG, 0, 913);
  check_permute(GPUX_INT32, 3, e3, p210, GT_CONTIG, 1, 914);
}

/* ------------------------------------------------------------------ contiguous */

static void test_contiguous(void **state) {
  (void)state;
  for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
    gpux_dtype dt = k_dtypes[d];
    if (!gt_dtype_available(dt)) continue;
    size_t es = ref_dtype_size(dt);
    const int64_t sh[3] = {9, 1, 13};
    int64_t n = 117;
    void *h = rand_host(dt, n, 1000 + (uint64_t)d);
    for (int lay = 0; lay < 3; lay++) {
      gt_view v;
      gt_view_make(&v, dt, 3, sh, (gt_layout)lay, h);
      int contig = -1;
      GT_OK(gpux_array_is_contiguous(&contig, v.view));
      assert_int_equal(contig, lay == GT_CONTIG);
      gpux_array_t c = NULL;
      GT_OK(gpux_array_contiguous(&c, v.view));
      assert_true(c != v.view);
      GT_OK(gpux_array_is_contiguous(&contig, c));
      assert_int_equal(contig, 1);
      gt_check_shape(c, dt, 3, sh, "contiguous");
      void *got = gt_read_all(c, NULL);
      expect_bytes_equal("contiguous", dt, got, h, n);
      /* a new array even for contiguous input: writing it leaves the source alone */
      void *z = gt_malloc((size_t)n * es);
      memset(z, 0, (size_t)n * es);
      GT_OK(gpux_array_write(c, z, (size_t)n * es));
      gt_view_read(&v, got, "contiguous source");
      expect_bytes_equal("contiguous source unchanged", dt, got, h, n);
      free(z);
      free(got);
      gpux_array_release(c);
      gt_view_free(&v);
    }
    free(h);
  }
  /* a big one */
  const int64_t sb[2] = {2048, 2049};
  const void *hb = gt_random_cached(GPUX_FLOAT32, 2048 * 2049, GT_DOM_ANY, 3);
  gt_view v;
  gt_view_make(&v, GPUX_FLOAT32, 2, sb, GT_REVERSED, hb);
  gpux_array_t c = NULL;
  GT_OK(gpux_array_contiguous(&c, v.view));
  void *got = gt_read_all(c, NULL);
  assert_memory_equal(got, hb, (size_t)2048 * 2049 * 4);
  free(got);
  gpux_array_release(c);
  gt_view_free(&v);
}

/* ------------------------------------------------------------------ casts */

typedef struct cast_case {
  gpux_dtype from, to;
} cast_case;

/* Source values: random values of the source dtype plus the values the rules are about. */
static void *cast_source(gpux_dtype from, int64_t n, uint64_t seed) {
  void *h = rand_host(from, n, seed);
  if (ref_dtype_is_float(from)) {
    static const double edge[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.9, -0.9, 1.5, -1.5,
                                  127.9, 128.0, -128.5, -129.5, 254.99, 255.0, 255.5, 256.0,
                                  -1.0, 2147483520.0, 2147483647.0, 2147483648.0, -2147483648.0,
                                  -2147483904.0, -2147483649.0, 4294967296.0, 1e10, -1e10,
                                  9.2233720368547748e18, 9223372036854775807.0, -9223372036854775808.0,
                                  1e19, -1e19, 3e38, -3e38, 1e300, -1e300, 1e-50, 16777217.0,
                                  0.1};
    int64_t ne = (int64_t)(sizeof edge / sizeof edge[0]);
    for (int64_t i = 0; i < n && i < ne; i++) {
      ref_value v;
      v.f = edge[i];
      ref_store(from, h, i * 7 % n, v); /* spread them out */
    }
  } else {
    char sv[32 * 8];
    int64_t ns = gt_special_values(sv, from, 32);
    size_t es = ref_dtype_size(from);
    for (int64_t i = 0; i < n && i < ns; i++)
      memcpy((char *)h + (size_t)(i * 5 % n) * es, sv + (size_t)i * es, es);
  }
  return h;
}

static void cast_check(gpux_dtype from, gpux_dtype to, int nd, const int64_t *sh, gt_layout ls,
                       int out_mode /* -1 new, else layout of cast_into's dst */, uint64_t seed) {
  char label[256], s1[64];
  snprintf(label, sizeof label, "cast %s -> %s %s %s -> %s", gt_dtype_str(from), gt_dtype_str(to),
           gt_shape_str(s1, sizeof s1, nd, sh), gt_layout_str(ls),
           out_mode < 0 ? "new" : gt_layout_str((gt_layout)out_mode));
  int64_t n = ref_shape_size(nd, sh);
  void *h = n >= GT_BIG ? (void *)gt_random_cached(from, n, GT_DOM_ANY, seed % 3) : cast_source(from, n, seed);
  gt_view vs, vd;
  gt_view_make(&vs, from, nd, sh, ls, h);
  void *got = gt_malloc((size_t)n * ref_dtype_size(to));
  if (out_mode < 0) {
    gpux_array_t c = NULL;
    GT_OK(gpux_array_cast(&c, vs.view, to));
    gt_check_shape(c, to, nd, sh, label);
    GT_OK(gpux_array_read(c, got, (size_t)n * ref_dtype_size(to)));
    gpux_array_release(c);
  } else {
    gt_view_make(&vd, to, nd, sh, (gt_layout)out_mode, NULL);
    GT_OK(gpux_array_cast_into(vd.view, vs.view));
    gt_view_read(&vd, got, label);
    gt_view_free(&vd);
  }
  ref_value *want = gt_malloc((size_t)(n ? n : 1) * sizeof(ref_value));
  ref_cast(from, to, n, h, want);
  gt_compare(label, to, got, want, n, gt_tolerance(to, GT_OPC_EXACT), from, h, NULL);
  free(want);
  free(got);
  gt_view_free(&vs);
  if (n < GT_BIG) free(h);
}

static void test_cast(void **state) {
  const cast_case *c = *state;
  if (!gt_dtype_available(c->from) || !gt_dtype_available(c->to)) skip();
  uint64_t seed = 1100 + (uint64_t)c->from * 10 + (uint64_t)c->to;
  const int64_t sizes[] = {0, 1, 1001, 4099};
  for (int i = 0; i < 4; i++) {
    int64_t sh[1] = {sizes[i]};
    cast_check(c->from, c->to, 1, sh, GT_CONTIG, i % 2 ? -1 : GT_CONTIG, seed + (uint64_t)i);
  }
  const int64_t s2[2] = {33, 17};
  cast_check(c->from, c->to, 2, s2, GT_STRIDED, -1, seed + 5);
  cast_check(c->from, c->to, 2, s2, GT_REVERSED, GT_STRIDED, seed + 6);
  cast_check(c->from, c->to, 2, s2, GT_CONTIG, GT_REVERSED, seed + 7);
  const int64_t s8[8] = {2, 1, 3, 1, 2, 3, 1, 2};
  cast_check(c->from, c->to, 8, s8, GT_STRIDED, GT_CONTIG, seed + 8);
  cast_check(c->from, c->to, 0, NULL, GT_CONTIG, -1, seed + 9);
  if ((c->from == GPUX_FLOAT32 && c->to == GPUX_INT32) ||
      (c->from == GPUX_INT32 && c->to == GPUX_FLOAT32) ||
      (c->from == GPUX_FLOAT32 && c->to == GPUX_UINT8)) {
    int64_t sb[1] = {GT_BIG};
    cast_check(c->from, c->to, 1, sb, GT_CONTIG, GT_CONTIG, seed + 10);
  }
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_array");
  static struct CMUnitTest tests[64 + GT_COMPUTE_DTYPES * GT_COMPUTE_DTYPES];
  static cast_case cc[GT_COMPUTE_DTYPES * GT_COMPUTE_DTYPES];
  static char names[GT_COMPUTE_DTYPES * GT_COMPUTE_DTYPES][48];
  size_t n = 0;
#define ADD(f) tests[n++] = (struct CMUnitTest){#f, f, NULL, NULL, NULL}
  ADD(test_dtype_queries);
  ADD(test_create_queries);
  ADD(test_zeros_ones_full);
  ADD(test_arange);
  ADD(test_linspace);
  ADD(test_linspace_one);
  ADD(test_host_transfers);
  ADD(test_view_transfers);
  ADD(test_copy);
  ADD(test_copy_into);
  ADD(test_copy_widened);
  ADD(test_reshape);
  ADD(test_slice);
  ADD(test_slice_extremes);
  ADD(test_index_views);
  ADD(test_copy_onto_itself);
  ADD(test_permute_2d);
  ADD(test_permute_nd);
  ADD(test_permute_empty);
  ADD(test_contiguous);
#undef ADD
  int k = 0;
  for (int a = 0; a < GT_COMPUTE_DTYPES; a++)
    for (int b = 0; b < GT_COMPUTE_DTYPES; b++, k++) {
      cc[k] = (cast_case){k_dtypes[a], k_dtypes[b]};
      snprintf(names[k], sizeof names[k], "cast_%s_to_%s", gt_dtype_str(k_dtypes[a]), gt_dtype_str(k_dtypes[b]));
      tests[n++] = (struct CMUnitTest){names[k], test_cast, NULL, NULL, &cc[k]};
    }
  int failed = gt_run("array", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
