/* gpux tests: scans (gpux_scan, gpux_scan_into: cumsum, cumprod, inclusive and exclusive)
 * against the canonical scan of kernels/common/gpux_kernels.h (bit for bit) and the precise
 * long double reference (tolerance table of test_util.c).
 * One cmocka test per (op, dtype): every axis of a 3-d array (negative too), inclusive and
 * exclusive; _into poisoned outputs (0x7f bytes, NaN, strided views) and in place; strided
 * and reversed input views; rows of length 1, 4095, 4096, 4097 and 100,000 (several tiles),
 * columns; 0-d and empty arrays; NaN. Integers and bool scan in int64 (wrapping). Plus errors, the
 * shorthands and 2^22 + 3 elements (1025 tiles). */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const gpux_dtype k_dtypes[GT_STORAGE_DTYPES] = GT_STORAGE_DTYPE_INIT;
static const char *const k_scan_names[2] = {"cumsum", "cumprod"};

typedef struct scan_case {
  gpux_scan_op op;
  gpux_dtype dt;
} scan_case;

static uint64_t mkseed(int op, gpux_dtype dt, int k) {
  return (uint64_t)op * 7919u + (uint64_t)dt * 1299709u + (uint64_t)k * 15485863u + 101u;
}

/* every dtype scans (bool as NumPy: int64 out); the test keeps its branch for a dtype
 * that would not */
static int scan_supported(gpux_dtype dt) { return dt != GPUX_DTYPE_COUNT; }

/* cumsum: mixed magnitudes and signs (integers wrap); cumprod: factors near +-1 (floats) or
 * small factors and odd random values (integers: the product wraps and stays nonzero). */
static void fill_input(gpux_scan_op op, gpux_dtype dt, void *buf, int64_t n, uint64_t seed) {
  if (op == GPUX_SCAN_SUM) {
    gt_fill_random(buf, dt, n, GT_DOM_ANY, seed);
    return;
  }
  gt_rng r;
  gt_rng_seed(&r, seed);
  if (dt == GPUX_BOOL) { /* cumprod of bool: mostly true, so that rows do not end at once */
    for (int64_t i = 0; i < n; i++) ((uint8_t *)buf)[i] = (gt_rng_u64(&r) % 4096) != 0;
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    ref_value v;
    int neg = (gt_rng_u64(&r) & 1) != 0;
    if (ref_dtype_is_float(dt)) {
      v.f = gt_rng_uniform(&r, 0.99, 1.01) * (neg ? -1 : 1);
    } else {
      unsigned k = (unsigned)(gt_rng_u64(&r) % 16);
      if (k < 10) v.i = 1;
      else if (k < 13) v.i = 2;
      else if (k < 15) v.i = 3;
      else v.i = (int64_t)(gt_rng_u64(&r) | 1);
      if (dt == GPUX_UINT8) v.i &= 0xff;
      else v.i = ref_wrap(dt, (uint64_t)(neg ? -v.i : v.i));
    }
    ref_store(dt, buf, i, v);
  }
}

/* ------------------------------------------------------------------ one scan */

enum { OUT_NEW = 0, OUT_INTO = 1, OUT_INTO_NAN = 2, OUT_INTO_STRIDED = 3, OUT_IN_PLACE = 4 };
static const char *const k_out_str[5] = {"new", "into 0x7f-poisoned", "into NaN-filled",
                                         "into strided view", "in place"};

/* The canonical and precise references for a scan along `axis` of a row-major array: the
 * axis moved last (rows x len), scanned, moved back. */
static void reference(gpux_scan_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                      const void *host, int axis, int exclusive, void *canon, ref_value *val,
                      double *tol) {
  gpux_dtype rdt = ref_scan_result(dt);
  size_t es = ref_dtype_size(dt), rs = ref_dtype_size(rdt);
  int64_t n = ref_shape_size(ndim, shape);
  int perm[GPUX_MAX_DIMS], inv[GPUX_MAX_DIMS], k = 0;
  int64_t pshape[GPUX_MAX_DIMS];
  for (int d = 0; d < ndim; d++)
    if (d != axis) perm[k++] = d;
  if (ndim) perm[k++] = axis;
  for (int d = 0; d < ndim; d++) {
    inv[perm[d]] = d;
    pshape[d] = shape[perm[d]];
  }
  int64_t len = ndim ? shape[axis] : 1, rows = len ? n / len : 0;
  void *px = gt_malloc((size_t)n * es), *pc = gt_malloc((size_t)n * rs);
  ref_value *pv = gt_malloc((size_t)n * sizeof *pv), *tv = gt_malloc((size_t)n * sizeof *tv);
  double *ps = gt_malloc((size_t)n * sizeof *ps), *ts = gt_malloc((size_t)n * sizeof *ts);
  if (ndim) ref_permute(px, host, es, ndim, shape, perm);
  else memcpy(px, host, es);
  if (n) {
    ref_scan_canon(op, dt, rows, len, px, exclusive, pc);
    ref_scan_precise(op, dt, rows, len, px, exclusive, pv, ps);
  }
  /* the tolerance of each element, from its position along the row */
  for (int64_t i = 0; i < n; i++)
    ps[i] = gt_scan_tol(op, rdt, len ? i % len : 0, pv[i].f, ps[i]);
  if (ndim) {
    ref_permute(canon, pc, rs, ndim, pshape, inv);
    ref_permute(tv, pv, sizeof *pv, ndim, pshape, inv);
    ref_permute(ts, ps, sizeof *ps, ndim, pshape, inv);
  } else {
    memcpy(canon, pc, rs);
    tv[0] = pv[0];
    ts[0] = ps[0];
  }
  memcpy(val, tv, (size_t)n * sizeof *val);
  memcpy(tol, ts, (size_t)n * sizeof *tol);
  free(px);
  free(pc);
  free(pv);
  free(tv);
  free(ps);
  free(ts);
}

/* Runs the scan on host data given as a view of `lay`, checks shape, dtype, the canonical
 * bits and the precise reference. got_out (optional) receives the result bytes. */
static void scan_run(gpux_scan_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                     gt_layout lay, const void *host, int axis, int exclusive, int mode,
                     const char *what, void **got_out) {
  char label[512], sh[128];
  gpux_dtype rdt = ref_scan_result(dt);
  snprintf(label, sizeof label, "%s %s: %s %s, axis %d, %s, %s%s%s", k_scan_names[op],
           gt_dtype_str(dt), gt_shape_str(sh, sizeof sh, ndim, shape), gt_layout_str(lay), axis,
           exclusive ? "exclusive" : "inclusive", k_out_str[mode], what ? ", " : "",
           what ? what : "");
  int nd = ndim ? ndim : 1, ax = axis < 0 ? axis + nd : axis;
  if (ndim == 0) ax = 0;
  int64_t n = ref_shape_size(ndim, shape);
  size_t rs = ref_dtype_size(rdt);
  void *canon = gt_malloc((size_t)n * rs);
  ref_value *val = gt_malloc((size_t)n * sizeof *val);
  double *tol = gt_malloc((size_t)n * sizeof *tol);
  reference(op, dt, ndim, shape, host, ax, exclusive, canon, val, tol);

  gt_view va, vo;
  gt_view_make(&va, dt, ndim, shape, lay, host);
  gpux_array_t o = NULL;
  if (mode == OUT_INTO_STRIDED && ndim == 0) mode = OUT_INTO;
  if (mode == OUT_INTO_NAN && !ref_dtype_is_float(rdt)) mode = OUT_INTO;
  gpux_status st;
  switch (mode) {
    case OUT_NEW: st = gpux_scan(&o, op, va.view, axis, exclusive); break;
    case OUT_INTO_STRIDED:
      gt_view_make(&vo, rdt, ndim, shape, GT_STRIDED, NULL);
      st = gpux_scan_into(vo.view, op, va.view, axis, exclusive);
      break;
    case OUT_IN_PLACE:
      GT_ASSERT(rdt == dt, "test bug: in place needs the result dtype");
      st = gpux_scan_into(va.view, op, va.view, axis, exclusive);
      break;
    default:
      if (mode == OUT_INTO) o = gt_filled_bytes(rdt, ndim, shape, 0x7f);
      else GT_OK(gpux_array_full(&o, gt_ctx, rdt, ndim, shape, NAN));
      st = gpux_scan_into(o, op, va.view, axis, exclusive);
  }
  gt_check_ok(st, label, __FILE__, __LINE__);
  void *got = gt_malloc((size_t)n * rs);
  if (mode == OUT_INTO_STRIDED) {
    gt_view_read(&vo, got, label);
  } else if (mode == OUT_IN_PLACE) {
    gt_check_shape(va.view, rdt, ndim, shape, label);
    gt_view_read(&va, got, label);
  } else {
    gt_check_shape(o, rdt, ndim, shape, label);
    if (n) GT_OK(gpux_array_read(o, got, (size_t)n * rs));
  }
  gt_compare_bits(label, rdt, got, canon, n);
  gt_compare_tol(label, rdt, got, val, tol, n);
  if (got_out) *got_out = got;
  else free(got);
  if (mode == OUT_INTO_STRIDED) gt_view_free(&vo);
  gpux_array_release(o);
  gt_view_free(&va);
  free(canon);
  free(val);
  free(tol);
}

static void scan_case_run(gpux_scan_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                          gt_layout lay, int axis, int exclusive, int mode, uint64_t seed,
                          const char *what) {
  int64_t n = ref_shape_size(ndim, shape);
  void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
  fill_input(op, dt, h, n, seed);
  scan_run(op, dt, ndim, shape, lay, h, axis, exclusive, mode, what, NULL);
  free(h);
}

/* ------------------------------------------------------------------ per (op, dtype) */

static void test_op(void **state) {
  const scan_case *c = *state;
  gpux_scan_op op = c->op;
  gpux_dtype dt = c->dt;
  int k = 0;
  if (!scan_supported(dt)) {
    const int64_t shape[2] = {3, 4};
    gpux_array_t a = NULL, o = NULL, out = NULL;
    GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_zeros(&out, gt_ctx, GPUX_INT64, 2, shape));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_scan(&o, op, a, 1, 0));
    GT_ASSERT(o == NULL, "*out set after an error");
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_scan_into(out, op, a, 0, 1));
    gpux_array_release(a);
    gpux_array_release(out);
    gt_smoke(gt_ctx);
    return;
  }
  if (!gt_dtype_available(dt)) skip();
  gpux_dtype rdt = ref_scan_result(dt);

  /* (a) 3-d (5, 6, 7): every axis, inclusive and exclusive; outputs and input views */
  {
    const int64_t s3[3] = {5, 6, 7};
    int64_t n = ref_shape_size(3, s3);
    void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
    fill_input(op, dt, h, n, mkseed(op, dt, k++));
    for (int axis = -3; axis <= 2; axis++)
      for (int ex = 0; ex < 2; ex++) scan_run(op, dt, 3, s3, GT_CONTIG, h, axis, ex, OUT_NEW, NULL, NULL);
    for (int m = OUT_INTO; m <= OUT_IN_PLACE; m++) {
      if (m == OUT_IN_PLACE && rdt != dt) continue;
      for (int ex = 0; ex < 2; ex++) {
        scan_run(op, dt, 3, s3, GT_CONTIG, h, 1, ex, m, NULL, NULL);
        scan_run(op, dt, 3, s3, GT_CONTIG, h, -1, ex, m, NULL, NULL);
      }
    }
    for (int lay = GT_STRIDED; lay <= GT_REVERSED; lay++)
      for (int axis = 0; axis <= 2; axis += 2) {
        scan_run(op, dt, 3, s3, (gt_layout)lay, h, axis, axis == 2, OUT_NEW, NULL, NULL);
        scan_run(op, dt, 3, s3, (gt_layout)lay, h, axis, axis == 0, OUT_INTO_STRIDED, NULL, NULL);
      }
    if (rdt == dt) scan_run(op, dt, 3, s3, GT_STRIDED, h, 1, 0, OUT_IN_PLACE, NULL, NULL);
    free(h);
  }

  /* (b) rows of length 1, 4095, 4096, 4097 (tile edges), 100,000 (25 tiles) */
  {
    const int64_t r1[2] = {7, 1}, c1[2] = {1, 7};
    scan_case_run(op, dt, 2, r1, GT_CONTIG, 1, 0, OUT_NEW, mkseed(op, dt, k++), NULL);
    scan_case_run(op, dt, 2, r1, GT_CONTIG, -1, 1, OUT_NEW, mkseed(op, dt, k++), NULL);
    scan_case_run(op, dt, 2, c1, GT_CONTIG, 0, 0, OUT_INTO, mkseed(op, dt, k++), NULL);
    static const int64_t lens[] = {4095, 4096, 4097};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
      const int64_t s[2] = {3, lens[i]};
      scan_case_run(op, dt, 2, s, GT_CONTIG, 1, 0, OUT_NEW, mkseed(op, dt, k++), NULL);
      scan_case_run(op, dt, 2, s, GT_CONTIG, -1, 1, OUT_INTO, mkseed(op, dt, k++), NULL);
    }
    const int64_t big[2] = {2, 100000}, col[2] = {100000, 2}, cols3[3] = {2, 4097, 9};
    scan_case_run(op, dt, 2, big, GT_CONTIG, 1, 0, OUT_NEW, mkseed(op, dt, k++), NULL);
    scan_case_run(op, dt, 2, big, GT_CONTIG, -1, 1, OUT_NEW, mkseed(op, dt, k++), NULL);
    scan_case_run(op, dt, 2, col, GT_CONTIG, 0, 0, OUT_NEW, mkseed(op, dt, k++), "columns");
    scan_case_run(op, dt, 3, cols3, GT_CONTIG, 1, 1, OUT_INTO, mkseed(op, dt, k++), "middle axis");
  }

  /* (c) 1-d sizes, 0-d, empty */
  {
    static const int64_t sizes[] = {1, 2, 17, 12289};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      scan_case_run(op, dt, 1, &sizes[i], GT_CONTIG, 0, 0, OUT_NEW, mkseed(op, dt, k++), NULL);
      scan_case_run(op, dt, 1, &sizes[i], GT_CONTIG, -1, 1, OUT_NEW, mkseed(op, dt, k++), NULL);
    }
    scan_case_run(op, dt, 0, NULL, GT_CONTIG, 0, 0, OUT_NEW, mkseed(op, dt, k++), "0-d");
    scan_case_run(op, dt, 0, NULL, GT_CONTIG, -1, 1, OUT_INTO, mkseed(op, dt, k++), "0-d");
    const int64_t e1[2] = {0, 5}, e2[2] = {3, 0};
    scan_case_run(op, dt, 2, e1, GT_CONTIG, 1, 0, OUT_NEW, 1, "empty");
    scan_case_run(op, dt, 2, e2, GT_CONTIG, 1, 1, OUT_NEW, 1, "empty");
    scan_case_run(op, dt, 2, e2, GT_CONTIG, 0, 0, OUT_INTO, 1, "empty");
  }

  /* (d) NaN: from the NaN on, every inclusive result is NaN */
  if (ref_dtype_is_float(dt)) {
    const int64_t s[2] = {3, 5000};
    int64_t n = s[0] * s[1];
    void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
    fill_input(op, dt, h, n, mkseed(op, dt, k++));
    ref_value v;
    v.f = NAN;
    ref_store(dt, h, 5000 + 4500, v); /* row 1, second tile */
    ref_store(dt, h, 10000 + 17, v);  /* row 2, first tile */
    void *got = NULL;
    scan_run(op, dt, 2, s, GT_CONTIG, h, 1, 0, OUT_NEW, "NaN", &got);
    for (int64_t i = 0; i < s[1]; i++) {
      double g = ref_load(dt, got, 5000 + i).f;
      GT_ASSERT(i < 4500 ? !isnan(g) : isnan(g), "%s %s with NaN at [1, 4500]: [1, %" PRId64 "] = %g",
                k_scan_names[op], gt_dtype_str(dt), i, g);
    }
    free(got);
    scan_run(op, dt, 2, s, GT_CONTIG, h, 1, 1, OUT_NEW, "NaN", NULL);
    scan_run(op, dt, 2, s, GT_CONTIG, h, 0, 0, OUT_NEW, "NaN", NULL);
    free(h);
  }
  gt_smoke(gt_ctx);
}

/* ------------------------------------------------------------------ errors, shorthands */

static void usable(const char *after) {
  float h[5] = {1, 2, 3, 4, 5}, got[5];
  const int64_t n = 5;
  gpux_array_t a = NULL, o = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, &n, h));
  GT_OK(gpux_scan(&o, GPUX_SCAN_SUM, a, 0, 0));
  GT_OK(gpux_array_read(o, got, sizeof got));
  GT_ASSERT(got[0] == 1 && got[1] == 3 && got[2] == 6 && got[3] == 10 && got[4] == 15,
            "after %s: cumsum(1..5) = %g %g %g %g %g", after, got[0], got[1], got[2], got[3], got[4]);
  gpux_array_release(o);
  gpux_array_release(a);
}

#define E(want, call)      \
  do {                     \
    GT_EXPECT(want, call); \
    usable(#call);         \
  } while (0)

static void test_errors(void **state) {
  (void)state;
  const int64_t s3[3] = {2, 3, 4};
  gpux_array_t a = NULL, o = NULL, i32 = NULL, w = NULL, wi = NULL, base = NULL, lo = NULL,
               hi = NULL;
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 3, s3));
  GT_OK(gpux_array_ones(&i32, gt_ctx, GPUX_INT32, 3, s3));
  const int64_t s24[2] = {2, 12};
  GT_OK(gpux_array_empty(&w, gt_ctx, GPUX_FLOAT32, 2, s24));
  GT_OK(gpux_array_empty(&wi, gt_ctx, GPUX_INT32, 3, s3));
  E(GPUX_ERROR_NULL_POINTER, gpux_scan(NULL, GPUX_SCAN_SUM, a, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_scan(&o, GPUX_SCAN_SUM, NULL, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_scan_into(NULL, GPUX_SCAN_SUM, a, 0, 0));
  E(GPUX_ERROR_NULL_POINTER, gpux_scan_into(a, GPUX_SCAN_PROD, NULL, 0, 0));
  E(GPUX_ERROR_INVALID_OP, gpux_scan(&o, (gpux_scan_op)2, a, 0, 0));
  E(GPUX_ERROR_INVALID_OP, gpux_scan(&o, (gpux_scan_op)-1, a, 0, 0));
  E(GPUX_ERROR_INVALID_OP, gpux_scan_into(a, (gpux_scan_op)5, a, 0, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_scan(&o, GPUX_SCAN_SUM, a, 3, 0));
  E(GPUX_ERROR_INVALID_AXIS, gpux_scan(&o, GPUX_SCAN_SUM, a, -4, 1));
  E(GPUX_ERROR_INVALID_AXIS, gpux_cumprod(&o, a, 7));
  GT_ASSERT(o == NULL, "*out is not NULL after failed calls");
  E(GPUX_ERROR_SHAPE_MISMATCH, gpux_scan_into(w, GPUX_SCAN_SUM, a, 0, 0));
  E(GPUX_ERROR_DTYPE_MISMATCH, gpux_scan_into(wi, GPUX_SCAN_SUM, i32, 0, 0)); /* int64 result */
  E(GPUX_ERROR_DTYPE_MISMATCH, gpux_scan_into(i32, GPUX_SCAN_SUM, a, 0, 0));
  /* partial overlap: out = base[1:9], input = base[0:8] */
  GT_OK(gpux_array_arange(&base, gt_ctx, GPUX_FLOAT32, 0, 9, 1));
  const int64_t z[1] = {0}, one[1] = {1}, e8[1] = {8}, e9[1] = {9};
  GT_OK(gpux_array_slice(&lo, base, z, e8, one));
  GT_OK(gpux_array_slice(&hi, base, one, e9, one));
  E(GPUX_ERROR_OVERLAP, gpux_scan_into(hi, GPUX_SCAN_SUM, lo, 0, 0));
  E(GPUX_ERROR_OVERLAP, gpux_scan_into(lo, GPUX_SCAN_PROD, hi, 0, 1));
  /* two contexts */
  gpux_context_t c2 = gt_context_new();
  gpux_array_t other = NULL;
  GT_OK(gpux_array_empty(&other, c2, GPUX_FLOAT32, 3, s3));
  E(GPUX_ERROR_CONTEXT_MISMATCH, gpux_scan_into(other, GPUX_SCAN_SUM, a, 1, 0));
  gpux_array_release(other);
  gpux_context_release(c2);
  gpux_array_release(lo);
  gpux_array_release(hi);
  gpux_array_release(base);
  gpux_array_release(a);
  gpux_array_release(i32);
  gpux_array_release(w);
  gpux_array_release(wi);
  gt_smoke(gt_ctx);
}

static void test_shorthands(void **state) {
  (void)state;
  const int64_t shape[2] = {4, 33};
  float h[132];
  fill_input(GPUX_SCAN_PROD, GPUX_FLOAT32, h, 132, 5);
  gpux_array_t a = NULL, x = NULL, y = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, shape, h));
  for (int op = 0; op < 2; op++)
    for (int axis = -2; axis <= 1; axis++) {
      GT_OK(op ? gpux_cumprod(&x, a, axis) : gpux_cumsum(&x, a, axis));
      GT_OK(gpux_scan(&y, (gpux_scan_op)op, a, axis, 0));
      int64_t nx, ny;
      float *hx = gt_read_all(x, &nx), *hy = gt_read_all(y, &ny);
      GT_ASSERT(nx == ny && memcmp(hx, hy, (size_t)nx * 4) == 0, "gpux_%s(axis %d) differs from gpux_scan",
                k_scan_names[op], axis);
      free(hx);
      free(hy);
      gpux_array_release(x);
      gpux_array_release(y);
    }
  gpux_array_release(a);
}

/* ------------------------------------------------------------------ 2^22 + 3 */

static void test_big(void **state) {
  (void)state;
  int64_t n = GT_BIG;
  static const struct {
    gpux_scan_op op;
    gpux_dtype dt;
    int exclusive;
  } cases[] = {{GPUX_SCAN_SUM, GPUX_FLOAT32, 0},
               {GPUX_SCAN_SUM, GPUX_FLOAT64, 1},
               {GPUX_SCAN_SUM, GPUX_INT32, 0},
               {GPUX_SCAN_PROD, GPUX_FLOAT64, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gpux_dtype dt = cases[i].dt;
    if (!gt_dtype_available(dt)) continue;
    void *h = gt_malloc((size_t)n * ref_dtype_size(dt));
    fill_input(cases[i].op, dt, h, n, 3);
    void *got = NULL;
    scan_run(cases[i].op, dt, 1, &n, GT_CONTIG, h, 0, cases[i].exclusive, OUT_NEW, "2^22 + 3", &got);
    if (i == 0) {
      /* the same bits again */
      gpux_array_t a = NULL, o = NULL;
      GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, h));
      GT_OK(gpux_cumsum(&o, a, 0));
      void *again = gt_read_all(o, NULL);
      GT_ASSERT(memcmp(again, got, (size_t)n * 4) == 0, "float32 cumsum of 2^22 + 3: two runs differ");
      free(again);
      gpux_array_release(o);
      gpux_array_release(a);
    }
    free(got);
    free(h);
  }
}

/* The reference itself (no device): short rows equal the serial scan (no rounding with
 * small integers), the exclusive scan is the inclusive one shifted. */
static void test_ref_selfcheck(void **state) {
  (void)state;
  int64_t len = 9000;
  float *x = gt_malloc((size_t)len * 4), *inc = gt_malloc((size_t)len * 4),
        *exc = gt_malloc((size_t)len * 4);
  for (int64_t i = 0; i < len; i++) x[i] = (float)((i % 7) - 3);
  ref_scan_canon(GPUX_SCAN_SUM, GPUX_FLOAT32, 1, len, x, 0, inc);
  ref_scan_canon(GPUX_SCAN_SUM, GPUX_FLOAT32, 1, len, x, 1, exc);
  float s = 0;
  for (int64_t i = 0; i < len; i++) {
    GT_ASSERT(exc[i] == s, "exclusive [%" PRId64 "] = %g, expected %g", i, exc[i], s);
    s += x[i];
    GT_ASSERT(inc[i] == s, "inclusive [%" PRId64 "] = %g, expected %g", i, inc[i], s);
  }
  int64_t xi[5] = {INT64_MAX, 1, 2, -3, 4}, out[5];
  ref_scan_canon(GPUX_SCAN_SUM, GPUX_INT64, 1, 5, xi, 0, out);
  GT_ASSERT(out[1] == INT64_MIN && out[4] == INT64_MIN + 3, "int64 cumsum does not wrap");
  free(x);
  free(inc);
  free(exc);
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_scan");
  enum { MAXT = 2 * GT_STORAGE_DTYPES + 8 };
  static struct CMUnitTest tests[MAXT];
  static scan_case cases[MAXT];
  static char names[MAXT][64];
  size_t n = 0;
  tests[n++] = (struct CMUnitTest){"ref_selfcheck", test_ref_selfcheck, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"errors", test_errors, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"shorthands", test_shorthands, NULL, NULL, NULL};
  for (int op = 0; op < 2; op++)
    for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
      cases[n] = (scan_case){(gpux_scan_op)op, k_dtypes[d]};
      snprintf(names[n], sizeof names[n], "%s_%s", k_scan_names[op], gt_dtype_str(k_dtypes[d]));
      tests[n] = (struct CMUnitTest){names[n], test_op, NULL, NULL, &cases[n]};
      n++;
    }
  tests[n++] = (struct CMUnitTest){"big_2p22_plus_3", test_big, NULL, NULL, NULL};
  int failed = gt_run("scan", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
