/* gpux tests: boolean masks (include/gpux/mask.h) against the plain-C reference
 * (tests/ref/ref_mask.c), bit for bit: compress (new, _into a poisoned buffer of larger
 * capacity, along every axis), nonzero / argwhere (of bool masks and of every dtype, with
 * zeros, -0.0 and NaN), masked assignment (values and scalars). Every dtype; masks all
 * false, all true, random half, sparse, one true at the first or the last element; sizes 0,
 * 1, odd, and across tile edges (4095, 4096, 4097, several tiles); strided and reversed
 * views of x and the mask; every error path. One cmocka test per dtype, plus errors. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_mask.h"
#include "test_util.h"

#define ALL_DT(a, dt) (gpux_dtype)GPUX_KDT_##dt,
static const gpux_dtype k_dts[] = {GPUX_DT_CAST(ALL_DT, _)};
#define NDT ((int)(sizeof k_dts / sizeof k_dts[0]))
static char g_names[NDT][32];

enum { M_FALSE, M_TRUE, M_HALF, M_SPARSE, M_FIRST, M_LAST, M_KINDS };
static const char *const k_mask_str[M_KINDS] = {"all false", "all true", "half", "sparse",
                                                "first only", "last only"};

static uint8_t *make_mask(int kind, int64_t n, uint64_t seed) {
  uint8_t *m = gt_malloc((size_t)n + 1);
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) {
    switch (kind) {
      case M_FALSE: m[i] = 0; break;
      case M_TRUE: m[i] = 1; break;
      case M_HALF: m[i] = (uint8_t)(gt_rng_u64(&r) & 1); break;
      case M_SPARSE: m[i] = gt_rng_u64(&r) % 97 == 0; break;
      case M_FIRST: m[i] = i == 0; break;
      default: m[i] = i == n - 1; break;
    }
  }
  return m;
}

/* random bits (bool: 0 or 1), with zeros, and for floats and complex -0.0 (the sign bits
 * alone) and a NaN here and there: nonzero's cases */
static void *make_x(gpux_dtype dt, int64_t n, uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  unsigned char *x = gt_malloc((size_t)n * es + 1);
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) {
    unsigned char *p = x + (size_t)i * es;
    for (size_t b = 0; b < es; b++) p[b] = (unsigned char)gt_rng_u64(&r);
    const unsigned k = (unsigned)(gt_rng_u64(&r) % 8);
    if (dt == GPUX_BOOL) p[0] &= 1;
    else if (k < 3) memset(p, 0, es);
    else if (k == 3 && (ref_dtype_is_float(dt) || dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128)) { /* -0.0 in every component */
      memset(p, 0, es);
      const size_t cs = dt == GPUX_COMPLEX64 ? 4 : dt == GPUX_COMPLEX128 ? 8 : es;
      for (size_t c = cs; c <= es; c += cs) p[c - 1] = 0x80; /* little endian: top byte */
    }
  }
  return x;
}

static gpux_array_t upload(gt_view *v, gpux_dtype dt, int nd, const int64_t *shape, gt_layout lay,
                           const void *data) {
  gt_view_make(v, dt, nd, shape, lay, data);
  return v->view;
}

static void expect_bytes(const char *label, gpux_array_t a, gpux_dtype dt, int nd,
                         const int64_t *shape, const void *want) {
  gt_check_shape(a, dt, nd, shape, label);
  int64_t n = 0;
  void *got = gt_read_all(a, &n);
  const size_t bytes = (size_t)n * ref_dtype_size(dt);
  if (bytes && memcmp(got, want, bytes) != 0) {
    size_t i = 0;
    while (((const unsigned char *)got)[i] == ((const unsigned char *)want)[i]) i++;
    GT_FAIL("%s: byte %zu (element %zu) differs", label, i, i / ref_dtype_size(dt));
  }
  free(got);
}

/* x[mask] (n elements of x and the mask, host copies xh and mh) against the reference; *want
 * gets the reference (free it), the count is returned */
static int64_t expect_compress(const char *label, gpux_array_t x, gpux_array_t m, gpux_dtype dt,
                               int64_t n, const void *xh, const uint8_t *mh, void **want) {
  *want = gt_malloc((size_t)n * ref_dtype_size(dt) + 1);
  const int64_t cnt = ref_mask_compress(ref_dtype_size(dt), n, xh, mh, *want);
  gpux_array_t o = NULL;
  GT_OK(gpux_compress(&o, x, m));
  expect_bytes(label, o, dt, 1, &cnt, *want);
  gpux_array_release(o);
  return cnt;
}

/* ---- one case: x (dt, shape, layout lx), a mask (kind mk, layout lm) */
static void run_case(gpux_dtype dt, int nd, const int64_t *shape, gt_layout lx, gt_layout lm,
                     int mk, uint64_t seed) {
  const int64_t n = ref_shape_size(nd, shape);
  const size_t es = ref_dtype_size(dt);
  char label[256], sh[96];
  snprintf(label, sizeof label, "%s %s x %s, mask %s %s", gt_dtype_str(dt),
           gt_shape_str(sh, sizeof sh, nd, shape), gt_layout_str(lx), k_mask_str[mk],
           gt_layout_str(lm));
  void *xh = make_x(dt, n, seed);
  uint8_t *mh = make_mask(mk, n, seed + 1);
  gt_view xv, mv;
  gpux_array_t x = upload(&xv, dt, nd, shape, lx, xh);
  gpux_array_t m = upload(&mv, GPUX_BOOL, nd, shape, lm, mh);
  /* x[mask] */
  void *want = NULL;
  const int64_t cnt = expect_compress(label, x, m, dt, n, xh, mh, &want);
  /* into a poisoned buffer of capacity cnt + 3: the tail stays poisoned */
  {
    const int64_t cap = cnt + 3;
    gpux_array_t buf = gt_poisoned(dt, 1, &cap);
    int64_t got = -1;
    GT_OK(gpux_compress_into(buf, &got, x, m));
    GT_ASSERT(got == cnt, "%s: compress_into count %" PRId64 ", want %" PRId64, label, got, cnt);
    unsigned char *w2 = gt_malloc((size_t)cap * es);
    memcpy(w2, want, (size_t)cnt * es);
    gt_poison_host(w2 + (size_t)cnt * es, 3 * es);
    expect_bytes(label, buf, dt, 1, &cap, w2);
    free(w2);
    gpux_array_release(buf);
  }

  /* argwhere / nonzero of the mask (bool) and of x (its dtype) */
  for (int of_x = 0; of_x < 2; of_x++) {
    uint8_t *sel = gt_malloc((size_t)n + 1);
    for (int64_t i = 0; i < n; i++) sel[i] = of_x ? (uint8_t)ref_mask_nonzero(dt, xh, i) : mh[i];
    int64_t *coords = gt_malloc(((size_t)n * (size_t)(nd ? nd : 1) + 1) * sizeof(int64_t));
    const int64_t k = ref_mask_argwhere(nd, shape, sel, coords);
    gpux_array_t src = of_x ? x : m;
    char l2[300];
    snprintf(l2, sizeof l2, "%s: argwhere of %s", label, of_x ? "x" : "the mask");
    gpux_array_t aw = NULL;
    GT_OK(gpux_argwhere(&aw, src));
    const int64_t as[2] = {k, nd};
    expect_bytes(l2, aw, GPUX_INT64, 2, as, coords);
    gpux_array_release(aw);
    if (nd >= 1) {
      gpux_array_t nz[GPUX_MAX_DIMS];
      GT_OK(gpux_nonzero(nz, src));
      int64_t *col = gt_malloc(((size_t)k + 1) * sizeof(int64_t));
      for (int d = 0; d < nd; d++) {
        for (int64_t r = 0; r < k; r++) col[r] = coords[r * nd + d];
        snprintf(l2, sizeof l2, "%s: nonzero[%d] of %s", label, d, of_x ? "x" : "the mask");
        expect_bytes(l2, nz[d], GPUX_INT64, 1, &k, col);
        gpux_array_release(nz[d]);
      }
      free(col);
      /* argwhere_into a poisoned (k + 2, nd) buffer */
      const int64_t cs[2] = {k + 2, nd};
      gpux_array_t buf = gt_poisoned(GPUX_INT64, 2, cs);
      int64_t got = -1;
      GT_OK(gpux_argwhere_into(buf, &got, src));
      GT_ASSERT(got == k, "%s: argwhere_into count %" PRId64 ", want %" PRId64, l2, got, k);
      int64_t *w2 = gt_malloc((size_t)(k + 2) * (size_t)nd * sizeof(int64_t));
      memcpy(w2, coords, (size_t)k * (size_t)nd * sizeof(int64_t));
      gt_poison_host(w2 + k * nd, 2 * (size_t)nd * sizeof(int64_t));
      snprintf(l2, sizeof l2, "%s: argwhere_into", label);
      expect_bytes(l2, buf, GPUX_INT64, 2, cs, w2);
      free(w2);
      gpux_array_release(buf);
    }
    free(coords);
    free(sel);
  }

  /* x[mask] = values (values: random bits of the count), on a copy of x in x's layout */
  {
    void *vh = make_x(dt, cnt, seed + 7);
    gt_view yv, vv;
    gpux_array_t y = upload(&yv, dt, nd, shape, lx, xh);
    gpux_array_t v = upload(&vv, dt, 1, &cnt, cnt > 2 ? GT_REVERSED : GT_CONTIG, vh);
    GT_OK(gpux_mask_put(y, m, v));
    void *yw = gt_malloc((size_t)n * es + 1);
    memcpy(yw, xh, (size_t)n * es);
    ref_mask_put(es, n, yw, mh, vh);
    char l2[300];
    snprintf(l2, sizeof l2, "%s: mask_put", label);
    void *got = gt_malloc((size_t)n * es + 1);
    gt_view_read(&yv, got, l2);
    GT_ASSERT(n == 0 || memcmp(got, yw, (size_t)n * es) == 0, "%s: wrong elements", l2);
    /* x[mask] = 1 (every dtype holds 1 exactly) */
    GT_OK(gpux_mask_fill(y, m, 1.0));
    gpux_array_t one = NULL;
    GT_OK(gpux_array_ones(&one, gt_ctx, dt, 0, NULL));
    int64_t n1 = 0;
    void *oneh = gt_read_all(one, &n1);
    for (int64_t i = 0; i < n; i++)
      if (mh[i]) memcpy((char *)yw + (size_t)i * es, oneh, es);
    snprintf(l2, sizeof l2, "%s: mask_fill", label);
    gt_view_read(&yv, got, l2);
    GT_ASSERT(n == 0 || memcmp(got, yw, (size_t)n * es) == 0, "%s: wrong elements", l2);
    gpux_array_release(one);
    GT_FREE(oneh, got, yw, vh);
    gt_view_free(&vv);
    gt_view_free(&yv);
  }
  gt_view_free(&mv);
  gt_view_free(&xv);
  GT_FREE(want, mh, xh);
}

/* compress along each axis of a (4, 5, 6) array (and a table of rows) */
static void run_axis(gpux_dtype dt, gt_layout lx, uint64_t seed) {
  const int64_t shape[3] = {4, 5, 6};
  const int64_t n = ref_shape_size(3, shape);
  const size_t es = ref_dtype_size(dt);
  void *xh = make_x(dt, n, seed);
  gt_view xv;
  gpux_array_t x = upload(&xv, dt, 3, shape, lx, xh);
  for (int axis = -3; axis < 3; axis++) {
    const int a = axis < 0 ? axis + 3 : axis;
    for (int mk = 0; mk < M_KINDS; mk++) {
      uint8_t *m1 = make_mask(mk, shape[a], seed + (uint64_t)(7 * mk + a));
      /* the reference: the broadcast mask over x */
      uint8_t *full = gt_malloc((size_t)n);
      int64_t keep = 0, idx[3];
      for (int64_t i = 0; i < shape[a]; i++) keep += m1[i];
      for (int64_t i = 0; i < n; i++) {
        idx[2] = i % shape[2];
        idx[1] = i / shape[2] % shape[1];
        idx[0] = i / (shape[1] * shape[2]);
        full[i] = m1[idx[a]];
      }
      void *want = gt_malloc((size_t)n * es + 1);
      ref_mask_compress(es, n, xh, full, want);
      gt_view mv;
      gpux_array_t m = upload(&mv, GPUX_BOOL, 1, &shape[a], lx, m1);
      gpux_array_t o = NULL;
      GT_OK(gpux_compress_axis(&o, x, m, axis));
      int64_t os[3] = {shape[0], shape[1], shape[2]};
      os[a] = keep;
      char label[160];
      snprintf(label, sizeof label, "%s compress_axis %d, mask %s, x %s", gt_dtype_str(dt), axis,
               k_mask_str[mk], gt_layout_str(lx));
      expect_bytes(label, o, dt, 3, os, want);
      gpux_array_release(o);
      gt_view_free(&mv);
      GT_FREE(want, full, m1);
    }
  }
  gt_view_free(&xv);
  free(xh);
}

static void test_dtype(void **state) {
  const gpux_dtype dt = *(const gpux_dtype *)*state;
  if (!gt_dtype_available(dt)) skip();
  uint64_t seed = (uint64_t)dt * 1000003u + 17u;
  /* 1-d sizes across the tile edges, every mask kind */
  static const int64_t sizes[] = {0, 1, 17, 4095, 4096, 4097, 3 * 4096 + 5};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int mk = 0; mk < M_KINDS; mk++) {
      if (sizes[i] <= 1 && mk > M_TRUE) continue;
      run_case(dt, 1, &sizes[i], GT_CONTIG, GT_CONTIG, mk, seed++);
    }
  /* n-d, views */
  const int64_t s3[3] = {5, 6, 7}, s2[2] = {3, 2731}, e2[2] = {3, 0};
  run_case(dt, 3, s3, GT_CONTIG, GT_CONTIG, M_HALF, seed++);
  run_case(dt, 3, s3, GT_STRIDED, GT_REVERSED, M_HALF, seed++);
  run_case(dt, 3, s3, GT_REVERSED, GT_STRIDED, M_LAST, seed++);
  run_case(dt, 2, s2, GT_STRIDED, GT_CONTIG, M_HALF, seed++);
  run_case(dt, 2, s2, GT_CONTIG, GT_REVERSED, M_SPARSE, seed++);
  run_case(dt, 2, e2, GT_CONTIG, GT_CONTIG, M_TRUE, seed++);
  run_case(dt, 0, NULL, GT_CONTIG, GT_CONTIG, M_TRUE, seed++);
  run_case(dt, 0, NULL, GT_CONTIG, GT_CONTIG, M_FALSE, seed++);
  run_axis(dt, GT_CONTIG, seed++);
  run_axis(dt, GT_REVERSED, seed++);
  gt_smoke(gt_ctx);
}

/* several tiles of one large mask: 2^22 + 3 elements (1025 tiles), float32 and int8 */
static void test_big(void **state) {
  (void)state;
  const gpux_dtype dts[2] = {GPUX_FLOAT32, GPUX_INT8};
  for (int t = 0; t < 2; t++) {
    const int64_t n = GT_2P22_PLUS_3;
    run_case(dts[t], 1, &n, GT_CONTIG, GT_CONTIG, t ? M_SPARSE : M_HALF, 99u + (uint64_t)t);
  }
}

/* contiguous views at element offsets 1 .. 4 of their allocation, read in place (no copy):
 * whole tiles of a mask whose first byte is not word-aligned (the OpenCL GPU form reads
 * those a byte at a time, aligned ones a word at a time), x at an odd offset too; mask
 * bytes other than 1 (2, 0x80, 0xff: true, as any nonzero byte) */
static void test_offset(void **state) {
  (void)state;
  static const uint8_t k_true[3] = {2, 0x80, 0xff};
  const gpux_dtype dts[3] = {GPUX_FLOAT32, GPUX_INT8, GPUX_COMPLEX128};
  const int64_t n = 2 * 4096 + 5, one = 1;
  for (int t = 0; t < 3; t++) {
    const gpux_dtype dt = dts[t];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = ref_dtype_size(dt);
    for (int64_t moff = 1; moff <= 4; moff++) {
      const int64_t xoff = moff == 4 ? 0 : 1, mn = n + moff, xn = n + xoff;
      uint8_t *mh = make_mask(M_HALF, mn, 7u * (uint64_t)moff);
      for (int64_t i = 0; i < mn; i++)
        if (mh[i] && i % 3 == 0) mh[i] = k_true[i % 9 / 3];
      for (int64_t i = 0; i < moff; i++) mh[i] = 1; /* before the view: not selected */
      unsigned char *xh = make_x(dt, xn, 11u * (uint64_t)moff);
      char label[160];
      snprintf(label, sizeof label, "%s, mask at offset %" PRId64 ", x at %" PRId64,
               gt_dtype_str(dt), moff, xoff);
      gpux_array_t mb = NULL, xb = NULL, m = NULL, x = NULL;
      GT_OK(gpux_array_from_host(&mb, gt_ctx, GPUX_BOOL, 1, &mn, mh));
      GT_OK(gpux_array_from_host(&xb, gt_ctx, dt, 1, &xn, xh));
      GT_OK(gpux_array_slice(&m, mb, &moff, &mn, &one));
      GT_OK(gpux_array_slice(&x, xb, &xoff, &xn, &one));
      const uint8_t *mv = mh + moff;
      const unsigned char *xv = xh + (size_t)xoff * es;
      /* x[mask] */
      void *want = NULL;
      const int64_t cnt = expect_compress(label, x, m, dt, n, xv, mv, &want);
      /* nonzero of the mask view (its own staging of elements, at an odd offset) */
      int64_t *coords = gt_malloc(((size_t)n + 1) * sizeof(int64_t));
      const int64_t k = ref_mask_argwhere(1, &n, mv, coords);
      gpux_array_t nz[1] = {NULL};
      GT_OK(gpux_nonzero(nz, m));
      char l2[200];
      snprintf(l2, sizeof l2, "%s: nonzero of the mask", label);
      expect_bytes(l2, nz[0], GPUX_INT64, 1, &k, coords);
      gpux_array_release(nz[0]);
      /* x[mask] = values in place: the elements before the view keep their bits */
      void *vh = make_x(dt, cnt, 13u * (uint64_t)moff);
      gpux_array_t v = NULL;
      GT_OK(gpux_array_from_host(&v, gt_ctx, dt, 1, &cnt, vh));
      GT_OK(gpux_mask_put(x, m, v));
      unsigned char *yw = gt_malloc((size_t)xn * es + 1);
      memcpy(yw, xh, (size_t)xn * es);
      ref_mask_put(es, n, yw + (size_t)xoff * es, mv, vh);
      snprintf(l2, sizeof l2, "%s: mask_put", label);
      expect_bytes(l2, xb, dt, 1, &xn, yw);
      GT_RELEASE(v, x, m, xb, mb);
      GT_FREE(yw, vh, coords, want, xh, mh);
    }
  }
}

/* ---- errors */
static void usable(void) { gt_smoke(gt_ctx); }

static void test_errors(void **state) {
  (void)state;
  const int64_t s23[2] = {2, 3}, s32[2] = {3, 2}, s6 = 6, s4 = 4;
  gpux_array_t x = NULL, m = NULL, m32 = NULL, mi = NULL, o = NULL, v = NULL, vi = NULL,
               o6 = NULL, x0 = NULL, aw = NULL, i8 = NULL;
  GT_OK(gpux_array_ones(&x, gt_ctx, GPUX_FLOAT32, 2, s23));
  GT_OK(gpux_array_ones(&m, gt_ctx, GPUX_BOOL, 2, s23));
  GT_OK(gpux_array_ones(&m32, gt_ctx, GPUX_BOOL, 2, s32));
  GT_OK(gpux_array_ones(&mi, gt_ctx, GPUX_INT32, 2, s23));
  GT_OK(gpux_array_ones(&v, gt_ctx, GPUX_FLOAT32, 1, &s4));
  GT_OK(gpux_array_ones(&vi, gt_ctx, GPUX_INT32, 1, &s6));
  GT_OK(gpux_array_empty(&o6, gt_ctx, GPUX_FLOAT32, 1, &s4));
  GT_OK(gpux_array_ones(&x0, gt_ctx, GPUX_FLOAT32, 0, NULL));
  GT_OK(gpux_array_ones(&i8, gt_ctx, GPUX_INT8, 2, s23));
  int64_t cnt = 0;
  /* NULLs */
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_compress(NULL, x, m));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_compress(&o, NULL, m));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_compress(&o, x, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_compress_into(o6, NULL, x, m));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_compress_into(NULL, &cnt, x, m));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_compress_axis(&o, x, NULL, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_nonzero(NULL, x));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_argwhere(&o, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_argwhere_into(NULL, &cnt, x));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_mask_fill(NULL, m, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_mask_put(x, m, NULL));
  usable();
  /* masks: dtype, shape (the message names both shapes) */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_compress(&o, x, mi));
  GT_EXPECT_SHAPES(gpux_compress(&o, x, m32), 2, s32, 2, s23);
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_mask_fill(x, m32, 0));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_mask_put(x, m32, v));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_mask_put(x, mi, v));
  GT_ASSERT(o == NULL, "*out set after an error");
  /* axes */
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_compress_axis(&o, x, v, 2));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_compress_axis(&o, x, v, -3));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_compress_axis(&o, x0, v, 0));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_compress_axis(&o, x, v, 1)); /* float mask */
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_compress_axis(&o, x, m, 1));  /* 2-d mask */
  /* values: dtype, count (6 selected, 4 given), shape */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_mask_put(x, m, vi));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_mask_put(x, m, v));
  GT_ASSERT(strstr(gpux_last_error_message(), "4 values") != NULL &&
                strstr(gpux_last_error_message(), "6 elements") != NULL,
            "count message: %s", gpux_last_error_message());
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_mask_put(x, m, x));
  /* scalars: exact for integers */
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_mask_fill(i8, m, 0.5));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_mask_fill(i8, m, 300));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_mask_fill_complex(x, m, (gpux_complex128){1.0, 2.0}));
  /* into: capacity, dtype, shape, overlap */
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_compress_into(o6, &cnt, x, m)); /* 6 > 4 */
  GT_ASSERT(cnt == 6, "count after a short buffer: %" PRId64, cnt);
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_compress_into(vi, &cnt, x, m));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_compress_into(x, &cnt, x, m)); /* 2-d out */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_argwhere_into(v, &cnt, x));
  GT_OK(gpux_array_zeros(&aw, gt_ctx, GPUX_INT64, 1, &s4));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_argwhere_into(aw, &cnt, x)); /* not (cap, 2) */
  {
    const int64_t s12 = 12, z = 0, six = 6, one = 1;
    gpux_array_t big = NULL, lo = NULL, m6 = NULL;
    GT_OK(gpux_array_ones(&big, gt_ctx, GPUX_FLOAT32, 1, &s12));
    GT_OK(gpux_array_ones(&m6, gt_ctx, GPUX_BOOL, 1, &six));
    GT_OK(gpux_array_slice(&lo, big, &z, &six, &one));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_compress_into(big, &cnt, lo, m6));
    GT_RELEASE(m6, lo, big);
  }
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_compress_into(o6, &cnt, x, m));
  /* 0-d */
  gpux_array_t nz[GPUX_MAX_DIMS] = {0};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_nonzero(nz, x0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_argwhere_into(aw, &cnt, x0));
  /* contexts */
  gpux_context_t c2 = gt_context_new();
  gpux_array_t other = NULL;
  GT_OK(gpux_array_ones(&other, c2, GPUX_BOOL, 2, s23));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_compress(&o, x, other));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_mask_put(x, other, v));
  gpux_array_release(other);
  gpux_context_release(c2);
  usable();
  GT_RELEASE(x, m, m32, mi, v, vi, o6, x0, i8, aw);
}

int main(void) {
  gt_init("test_mask");
  struct CMUnitTest tests[NDT + 3];
  int nt = 0;
  for (int i = 0; i < NDT; i++) {
    snprintf(g_names[i], sizeof g_names[i], "mask_%s", gt_dtype_str(k_dts[i]));
    tests[nt++] = (struct CMUnitTest){g_names[i], test_dtype, NULL, NULL, (void *)&k_dts[i]};
  }
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_big);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_offset);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_errors);
  int failed = gt_run("mask", tests, (size_t)nt);
  gt_shutdown();
  return failed ? 1 : 0;
}
