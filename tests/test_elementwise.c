/* gpux tests: elementwise operations (binary, unary, where) against the CPU reference.
 * One cmocka test per (op, dtype): contiguous same shape at sizes 0, 1, 1001, 4099 (and
 * 2^22 + 3 in float32 and int32), array-scalar and scalar-array, broadcasting (incl. 8-d,
 * size-1 and 0-d operands), strided / reversed views as inputs and as outputs, in-place
 * _into forms, and NaN/inf/wrap-around special values. Unsupported dtypes must fail with
 * GPUX_ERROR_UNSUPPORTED_DTYPE. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

typedef enum { K_BINARY, K_UNARY, K_WHERE } case_kind;
typedef struct ew_case {
  case_kind kind;
  int op;
  gpux_dtype dt;
} ew_case;

/* every dtype: the half dtypes compute in float32 (their ops) or are refused (the rest) */
static const gpux_dtype k_dtypes[GT_STORAGE_DTYPES] = GT_STORAGE_DTYPE_INIT;

static uint64_t mkseed(int kind, int op, gpux_dtype dt, int k) {
  return (uint64_t)kind * 7919u + (uint64_t)op * 104729u + (uint64_t)dt * 1299709u +
         (uint64_t)k * 15485863u + 17u;
}

static int big_dtype(gpux_dtype dt) { return dt == GPUX_FLOAT32 || dt == GPUX_INT32; }

/* Host inputs: fresh for small sizes, cached for big ones. */
static void *input_buf(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed, int *owned) {
  if (n >= GT_BIG) {
    *owned = 0;
    return (void *)gt_random_cached(dt, n, dom, seed & 1);
  }
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt));
  gt_fill_random(p, dt, n, dom, seed);
  *owned = 1;
  return p;
}

/* Expands a contiguous input of shape (nd, sh) to the output shape; returns src itself
 * when no expansion is needed. */
static const void *expand(const void *src, gpux_dtype dt, int nd, const int64_t *sh, int ndo,
                          const int64_t *sho, void **tmp) {
  *tmp = NULL;
  int same = nd == ndo;
  for (int d = 0; same && d < nd; d++) same = sh[d] == sho[d];
  if (same) return src;
  int64_t n = ref_shape_size(ndo, sho);
  *tmp = gt_malloc((size_t)n * ref_dtype_size(dt));
  ref_broadcast(*tmp, src, ref_dtype_size(dt), ndo, sho, nd, sh);
  return *tmp;
}

/* ------------------------------------------------------------------ binary */

/* Output modes: into a poisoned view of the given layout, or a new array from gpux_binary. */
#define OUT_NEW (-1)

static void bin_run(gpux_binary_op op, gpux_dtype dt, int nda, const int64_t *sa, gt_layout la,
                    const void *ha, int ndb, const int64_t *sb, gt_layout lb, const void *hb,
                    int out_mode, const char *what) {
  char label[512], s1[128], s2[128];
  int ndo;
  int64_t so[GPUX_MAX_DIMS];
  GT_ASSERT(ref_broadcast_shape(nda, sa, ndb, sb, &ndo, so), "test bug: shapes do not broadcast");
  snprintf(label, sizeof label, "%s %s: %s %s x %s %s -> %s (%s)", gt_binary_str(op),
           gt_dtype_str(dt), gt_shape_str(s1, sizeof s1, nda, sa), gt_layout_str(la),
           gt_shape_str(s2, sizeof s2, ndb, sb), gt_layout_str(lb),
           out_mode == OUT_NEW ? "new" : gt_layout_str((gt_layout)out_mode), what);
  gpux_dtype rdt = ref_binary_result(op, dt);
  int64_t n = ref_shape_size(ndo, so);
  gt_view va, vb, vo;
  gt_view_make(&va, dt, nda, sa, la, ha);
  gt_view_make(&vb, dt, ndb, sb, lb, hb);
  void *got = gt_malloc((size_t)n * ref_dtype_size(rdt));
  if (out_mode == OUT_NEW) {
    gpux_array_t o = NULL;
    GT_OK(gpux_binary(&o, op, va.view, vb.view));
    gt_check_shape(o, rdt, ndo, so, label);
    int contig = 0;
    GT_OK(gpux_array_is_contiguous(&contig, o));
    GT_ASSERT(contig, "%s: result is not contiguous", label);
    GT_OK(gpux_array_read(o, got, (size_t)n * ref_dtype_size(rdt)));
    gpux_array_release(o);
  } else {
    gt_view_make(&vo, rdt, ndo, so, (gt_layout)out_mode, NULL);
    GT_OK(gpux_binary_into(vo.view, op, va.view, vb.view));
    gt_view_read(&vo, got, label);
    gt_view_free(&vo);
  }
  void *ta, *tb;
  const void *fa = expand(ha, dt, nda, sa, ndo, so, &ta);
  const void *fb = expand(hb, dt, ndb, sb, ndo, so, &tb);
  ref_value *want = gt_malloc((size_t)n * sizeof(ref_value));
  ref_binary(op, dt, n, fa, fb, want);
  gt_compare(label, rdt, got, want, n, gt_tolerance(rdt, gt_binary_class(op, dt)), dt, fa, fb);
  free(want);
  free(ta);
  free(tb);
  free(got);
  gt_view_free(&va);
  gt_view_free(&vb);
}

static void bin_case(gpux_binary_op op, gpux_dtype dt, int nda, const int64_t *sa, gt_layout la,
                     int ndb, const int64_t *sb, gt_layout lb, int out_mode, uint64_t seed,
                     const char *what) {
  int oa, ob;
  int64_t na = ref_shape_size(nda, sa), nb = ref_shape_size(ndb, sb);
  void *ha = input_buf(dt, na, gt_binary_domain(op, dt, 0), seed, &oa);
  void *hb = input_buf(dt, nb, gt_binary_domain(op, dt, 1), seed + 1, &ob);
  bin_run(op, dt, nda, sa, la, ha, ndb, sb, lb, hb, out_mode, what);
  if (oa) free(ha);
  if (ob) free(hb);
}

static void bin_scalar_case(gpux_binary_op op, gpux_dtype dt, int nd, const int64_t *sh,
                            gt_layout la, double s, int scalar_first, int out_mode,
                            uint64_t seed) {
  char label[512], s1[128];
  snprintf(label, sizeof label, "%s %s: %s%s %s %s%.17g (%s)", gt_binary_str(op),
           gt_dtype_str(dt), scalar_first ? "scalar op " : "", gt_shape_str(s1, sizeof s1, nd, sh),
           gt_layout_str(la), scalar_first ? "" : "op scalar ", s,
           out_mode == OUT_NEW ? "new" : gt_layout_str((gt_layout)out_mode));
  gpux_dtype rdt = ref_binary_result(op, dt);
  int64_t n = ref_shape_size(nd, sh);
  int owned;
  void *ha = input_buf(dt, n, gt_binary_domain(op, dt, scalar_first ? 1 : 0), seed, &owned);
  gt_view va, vo;
  gt_view_make(&va, dt, nd, sh, la, ha);
  void *got = gt_malloc((size_t)n * ref_dtype_size(rdt));
  if (out_mode == OUT_NEW) {
    gpux_array_t o = NULL;
    if (scalar_first) GT_OK(gpux_scalar_binary(&o, op, s, va.view));
    else GT_OK(gpux_binary_scalar(&o, op, va.view, s));
    gt_check_shape(o, rdt, nd, sh, label);
    GT_OK(gpux_array_read(o, got, (size_t)n * ref_dtype_size(rdt)));
    gpux_array_release(o);
  } else {
    gt_view_make(&vo, rdt, nd, sh, (gt_layout)out_mode, NULL);
    if (scalar_first) GT_OK(gpux_scalar_binary_into(vo.view, op, s, va.view));
    else GT_OK(gpux_binary_scalar_into(vo.view, op, va.view, s));
    gt_view_read(&vo, got, label);
    gt_view_free(&vo);
  }
  ref_value *want = gt_malloc((size_t)n * sizeof(ref_value));
  ref_binary_scalar(op, dt, n, ha, s, scalar_first, want);
  gt_compare(label, rdt, got, want, n, gt_tolerance(rdt, gt_binary_class(op, dt)), dt, ha, NULL);
  free(want);
  free(got);
  gt_view_free(&va);
  if (owned) free(ha);
}

/* Scalars that exercise each dtype: ints include 0 (x / 0), -1 (MIN / -1) and values that
 * saturate when converted to uint8. */
static int scalars_for(gpux_binary_op op, gpux_dtype dt, int scalar_first, double *s) {
  int n = 0;
  if (dt == GPUX_BOOL) {
    s[n++] = 0;
    s[n++] = 1;
    return n;
  }
  if (op == GPUX_POW) {
    if (ref_dtype_is_float(dt)) {
      if (scalar_first) { s[n++] = 2.0; s[n++] = 0.5; s[n++] = 1.5; }
      else { s[n++] = 2.0; s[n++] = 0.5; s[n++] = -1.5; s[n++] = 3.0; }
    } else if (ref_int_min(dt) == 0) { /* unsigned */
      s[n++] = 0; s[n++] = 1; s[n++] = 2; s[n++] = 3; s[n++] = 13;
    } else {
      if (scalar_first) { s[n++] = 2; s[n++] = -1; s[n++] = 3; s[n++] = 1; }
      else { s[n++] = 0; s[n++] = 1; s[n++] = 2; s[n++] = 3; s[n++] = 13; s[n++] = -1; }
    }
    return n;
  }
  if (ref_dtype_is_float(dt)) {
    s[n++] = 2.5; s[n++] = -0.75; s[n++] = 3.0; s[n++] = 0.1;
  } else if (ref_int_min(dt) == 0) { /* unsigned: small values and the largest (2^53 - 1
                                        * for uint64: a double holds it exactly) */
    s[n++] = 3; s[n++] = 0; s[n++] = 200;
    s[n++] = dt == GPUX_UINT64 ? 9007199254740991.0 : (double)ref_int_max(dt);
  } else {
    s[n++] = 3; s[n++] = -1; s[n++] = 0; s[n++] = 7; s[n++] = -7;
    if (dt == GPUX_INT64) s[n++] = 9007199254740991.0; /* 2^53 - 1: exact */
    else { s[n++] = (double)ref_int_max(dt); s[n++] = (double)ref_int_min(dt); }
  }
  return n;
}

static void bin_special(gpux_binary_op op, gpux_dtype dt) {
  size_t es = ref_dtype_size(dt);
  char sv[32 * 8];
  int64_t ns = gt_special_values(sv, dt, 32);
  int64_t n = ns * ns;
  char *a = gt_malloc((size_t)n * es), *b = gt_malloc((size_t)n * es);
  for (int64_t i = 0; i < ns; i++)
    for (int64_t j = 0; j < ns; j++) {
      memcpy(a + (size_t)(i * ns + j) * es, sv + (size_t)i * es, es);
      memcpy(b + (size_t)(i * ns + j) * es, sv + (size_t)j * es, es);
    }
  int64_t sh[1] = {n};
  bin_run(op, dt, 1, sh, GT_CONTIG, a, 1, sh, GT_CONTIG, b, GT_CONTIG, "special values");
  free(a);
  free(b);
  /* special scalars */
  int64_t shs[1] = {ns};
  for (int64_t j = 0; j < ns; j += 3) {
    const double s = ref_load_f64(dt, sv, j);
    if (!ref_dtype_is_float(dt) && fabs(s) > 0x1p53) continue; /* a double cannot spell it */
    for (int first = 0; first < 2; first++) {
      char lab[64];
      snprintf(lab, sizeof lab, "special scalar %d", (int)j);
      char label[512], s1[64];
      gpux_dtype rdt = ref_binary_result(op, dt);
      gpux_array_t x = NULL, o = gt_poisoned(rdt, 1, shs);
      GT_OK(gpux_array_from_host(&x, gt_ctx, dt, 1, shs, sv));
      if (first) GT_OK(gpux_scalar_binary_into(o, op, s, x));
      else GT_OK(gpux_binary_scalar_into(o, op, x, s));
      void *got = gt_read_all(o, NULL);
      ref_value want[32];
      ref_binary_scalar(op, dt, ns, sv, s, first, want);
      snprintf(label, sizeof label, "%s %s: %s %s %.17g (%s)", gt_binary_str(op), gt_dtype_str(dt),
               first ? "scalar-array" : "array-scalar", gt_shape_str(s1, sizeof s1, 1, shs), s, lab);
      gt_compare(label, rdt, got, want, ns, gt_tolerance(rdt, gt_binary_class(op, dt)), dt, sv,
                 NULL);
      free(got);
      gpux_array_release(x);
      gpux_array_release(o);
    }
  }
}

/* In-place _into forms: out == a, out == b, out == a == b, out == a as a strided view. */
static void bin_inplace(gpux_binary_op op, gpux_dtype dt, uint64_t seed) {
  if (ref_binary_result(op, dt) != dt) return;
  const int64_t n = 1001;
  int64_t sh[1] = {n};
  size_t es = ref_dtype_size(dt);
  char *ha = gt_malloc((size_t)n * es), *hb = gt_malloc((size_t)n * es);
  gt_fill_random(ha, dt, n, gt_binary_domain(op, dt, 0), seed);
  gt_fill_random(hb, dt, n, gt_binary_domain(op, dt, 1), seed + 1);
  ref_value *want = gt_malloc((size_t)n * sizeof(ref_value));
  gt_tol tol = gt_tolerance(dt, gt_binary_class(op, dt));
  char label[256];
  for (int which = 0; which < 4; which++) {
    gpux_array_t a = NULL, b = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, sh, ha));
    GT_OK(gpux_array_from_host(&b, gt_ctx, dt, 1, sh, hb));
    gpux_array_t out = which == 1 ? b : a;
    const char *name[] = {"out == a", "out == b", "out == a == b", "out == a, scalar"};
    snprintf(label, sizeof label, "%s %s in place (%s)", gt_binary_str(op), gt_dtype_str(dt),
             name[which]);
    if (which == 2) {
      GT_OK(gpux_binary_into(a, op, a, a));
      ref_binary(op, dt, n, ha, ha, want);
    } else if (which == 3) {
      const double s = dt == GPUX_BOOL ? 1.0 : 3.0; /* a value the dtype holds */
      GT_OK(gpux_binary_scalar_into(a, op, a, s));
      ref_binary_scalar(op, dt, n, ha, s, 0, want);
    } else {
      GT_OK(gpux_binary_into(out, op, a, b));
      ref_binary(op, dt, n, ha, hb, want);
    }
    void *got = gt_read_all(out, NULL);
    gt_compare(label, dt, got, want, n, tol, dt, ha, which == 2 ? ha : hb);
    free(got);
    gpux_array_release(a);
    gpux_array_release(b);
  }
  /* out == a where a is a strided view (the rest of its base must stay untouched) */
  {
    int64_t sh2[2] = {13, 21};
    int64_t n2 = 13 * 21;
    char *a2 = gt_malloc((size_t)n2 * es), *b2 = gt_malloc((size_t)n2 * es);
    gt_fill_random(a2, dt, n2, gt_binary_domain(op, dt, 0), seed + 7);
    gt_fill_random(b2, dt, n2, gt_binary_domain(op, dt, 1), seed + 8);
    gt_view va, vb;
    gt_view_make(&va, dt, 2, sh2, GT_STRIDED, a2);
    gt_view_make(&vb, dt, 2, sh2, GT_REVERSED, b2);
    GT_OK(gpux_binary_into(va.view, op, va.view, vb.view));
    char *got = gt_malloc((size_t)n2 * es);
    snprintf(label, sizeof label, "%s %s in place (out == a, strided view)", gt_binary_str(op),
             gt_dtype_str(dt));
    gt_view_read(&va, got, label);
    ref_value *w2 = gt_malloc((size_t)n2 * sizeof(ref_value));
    ref_binary(op, dt, n2, a2, b2, w2);
    gt_compare(label, dt, got, w2, n2, tol, dt, a2, b2);
    free(w2);
    free(got);
    gt_view_free(&va);
    gt_view_free(&vb);
    free(a2);
    free(b2);
  }
  free(want);
  free(ha);
  free(hb);
}

static void bin_unsupported(gpux_binary_op op, gpux_dtype dt) {
  int64_t sh[1] = {7};
  gpux_array_t a = NULL, b = NULL, o = NULL, out = NULL;
  assert_int_equal(gpux_binary_op_supports(op, dt), 0);
  GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 1, sh));
  GT_OK(gpux_array_zeros(&b, gt_ctx, dt, 1, sh));
  GT_OK(gpux_array_zeros(&out, gt_ctx, dt, 1, sh));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary(&o, op, a, b));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary_into(out, op, a, b));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary_scalar(&o, op, a, 1.0));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_scalar_binary(&o, op, 1.0, a));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary_scalar_into(out, op, a, 1.0));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_scalar_binary_into(out, op, 1.0, a));
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(out);
}

static void test_binary(void **state) {
  const ew_case *c = *state;
  gpux_binary_op op = (gpux_binary_op)c->op;
  gpux_dtype dt = c->dt;
  if (!ref_binary_supported(op, dt)) {
    bin_unsupported(op, dt);
    return;
  }
  if (!gt_dtype_available(dt)) {
    print_message("float64 not supported by this device\n");
    skip();
  }
  assert_int_equal(gpux_binary_op_supports(op, dt), 1);
  int k = 0;
  /* 1. contiguous, same shape */
  const int64_t sizes[] = {0, 1, 1001, 4099, GT_BIG};
  for (int i = 0; i < 5; i++) {
    if (sizes[i] == GT_BIG && !big_dtype(dt)) continue;
    int64_t sh[1] = {sizes[i]};
    bin_case(op, dt, 1, sh, GT_CONTIG, 1, sh, GT_CONTIG, i % 2 ? OUT_NEW : GT_CONTIG,
             mkseed(K_BINARY, op, dt, k++), "contiguous");
  }
  /* 2. array-scalar and scalar-array */
  double sc[8];
  for (int first = 0; first < 2; first++) {
    int ns = scalars_for(op, dt, first, sc);
    for (int j = 0; j < ns; j++) {
      int64_t sh[1] = {j == 0 ? 4099 : (j == 1 ? 1 : 1001)};
      bin_scalar_case(op, dt, 1, sh, GT_CONTIG, sc[j], first, j % 2 ? OUT_NEW : GT_CONTIG,
                      mkseed(K_BINARY, op, dt, k++));
    }
    int64_t sh0[1] = {0};
    bin_scalar_case(op, dt, 1, sh0, GT_CONTIG, sc[0], first, GT_CONTIG, mkseed(K_BINARY, op, dt, k++));
    int64_t sh2[2] = {17, 9};
    bin_scalar_case(op, dt, 2, sh2, GT_STRIDED, sc[0], first, GT_REVERSED,
                    mkseed(K_BINARY, op, dt, k++));
    bin_scalar_case(op, dt, 0, NULL, GT_CONTIG, sc[1], first, OUT_NEW, mkseed(K_BINARY, op, dt, k++));
    if (big_dtype(dt) && (op == GPUX_ADD || op == GPUX_MUL || op == GPUX_LT)) {
      int64_t shb[1] = {GT_BIG};
      bin_scalar_case(op, dt, 1, shb, GT_CONTIG, sc[0], first, GT_CONTIG, mkseed(K_BINARY, op, dt, k++));
    }
  }
  /* 3. broadcasting */
  {
    const int64_t a1[3] = {5, 1, 7}, b1[2] = {3, 1};
    bin_case(op, dt, 3, a1, GT_CONTIG, 2, b1, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "broadcast");
    bin_case(op, dt, 2, b1, GT_CONTIG, 3, a1, GT_CONTIG, OUT_NEW, mkseed(K_BINARY, op, dt, k++), "broadcast");
    const int64_t a2[1] = {4099}, b2[1] = {1};
    bin_case(op, dt, 1, a2, GT_CONTIG, 1, b2, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "broadcast");
    bin_case(op, dt, 1, b2, GT_CONTIG, 1, a2, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "broadcast");
    const int64_t a3[2] = {4, 1}, b3[2] = {1, 5};
    bin_case(op, dt, 2, a3, GT_CONTIG, 2, b3, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "outer");
    const int64_t a4[8] = {2, 1, 3, 1, 2, 3, 1, 2}, b4[8] = {1, 2, 1, 3, 2, 1, 2, 1};
    bin_case(op, dt, 8, a4, GT_CONTIG, 8, b4, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "8-d broadcast");
    const int64_t a5[2] = {3, 4};
    bin_case(op, dt, 0, NULL, GT_CONTIG, 2, a5, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "0-d x 2-d");
    bin_case(op, dt, 2, a5, GT_CONTIG, 0, NULL, GT_CONTIG, OUT_NEW, mkseed(K_BINARY, op, dt, k++), "2-d x 0-d");
    bin_case(op, dt, 0, NULL, GT_CONTIG, 0, NULL, GT_CONTIG, OUT_NEW, mkseed(K_BINARY, op, dt, k++), "0-d x 0-d");
    bin_case(op, dt, 0, NULL, GT_CONTIG, 0, NULL, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "0-d x 0-d");
    const int64_t a6[2] = {0, 3}, b6[2] = {1, 3};
    bin_case(op, dt, 2, a6, GT_CONTIG, 2, b6, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "empty broadcast");
    const int64_t a7[4] = {6, 1, 1, 5}, b7[1] = {5};
    bin_case(op, dt, 4, a7, GT_CONTIG, 1, b7, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "size-1 dims");
    /* broadcast with strided operands and outputs */
    bin_case(op, dt, 3, a1, GT_STRIDED, 2, b1, GT_REVERSED, GT_REVERSED, mkseed(K_BINARY, op, dt, k++), "broadcast, views");
    bin_case(op, dt, 2, a3, GT_REVERSED, 2, b3, GT_STRIDED, GT_STRIDED, mkseed(K_BINARY, op, dt, k++), "outer, views");
  }
  /* 4. strided views */
  {
    const int64_t s1[2] = {33, 17};
    bin_case(op, dt, 2, s1, GT_STRIDED, 2, s1, GT_STRIDED, OUT_NEW, mkseed(K_BINARY, op, dt, k++), "strided");
    bin_case(op, dt, 2, s1, GT_REVERSED, 2, s1, GT_CONTIG, GT_STRIDED, mkseed(K_BINARY, op, dt, k++), "strided");
    bin_case(op, dt, 2, s1, GT_CONTIG, 2, s1, GT_CONTIG, GT_REVERSED, mkseed(K_BINARY, op, dt, k++), "strided out");
    const int64_t s2[1] = {1001};
    bin_case(op, dt, 1, s2, GT_STRIDED, 1, s2, GT_CONTIG, GT_REVERSED, mkseed(K_BINARY, op, dt, k++), "strided 1-d");
    const int64_t s3[8] = {2, 1, 3, 1, 2, 3, 1, 2};
    bin_case(op, dt, 8, s3, GT_STRIDED, 8, s3, GT_REVERSED, GT_STRIDED, mkseed(K_BINARY, op, dt, k++), "8-d views");
    const int64_t s4[8] = {2, 3, 1, 5, 2, 1, 3, 2};
    bin_case(op, dt, 8, s4, GT_CONTIG, 8, s4, GT_CONTIG, GT_CONTIG, mkseed(K_BINARY, op, dt, k++), "8-d contiguous");
    const int64_t s5[3] = {1, 1, 1};
    bin_case(op, dt, 3, s5, GT_STRIDED, 0, NULL, GT_CONTIG, GT_REVERSED, mkseed(K_BINARY, op, dt, k++), "size-1 views");
  }
  /* 5. in place */
  bin_inplace(op, dt, mkseed(K_BINARY, op, dt, k++));
  /* 6. special values */
  bin_special(op, dt);
}

/* ------------------------------------------------------------------ unary */

static void un_run(gpux_unary_op op, gpux_dtype dt, int nd, const int64_t *sh, gt_layout la,
                   const void *ha, int out_mode, const char *what) {
  char label[512], s1[128];
  snprintf(label, sizeof label, "%s %s: %s %s -> %s (%s)", gt_unary_str(op), gt_dtype_str(dt),
           gt_shape_str(s1, sizeof s1, nd, sh), gt_layout_str(la),
           out_mode == OUT_NEW ? "new" : gt_layout_str((gt_layout)out_mode), what);
  gpux_dtype rdt = ref_unary_result(op, dt);
  int64_t n = ref_shape_size(nd, sh);
  gt_view va, vo;
  gt_view_make(&va, dt, nd, sh, la, ha);
  void *got = gt_malloc((size_t)n * ref_dtype_size(rdt));
  if (out_mode == OUT_NEW) {
    gpux_array_t o = NULL;
    GT_OK(gpux_unary(&o, op, va.view));
    gt_check_shape(o, rdt, nd, sh, label);
    GT_OK(gpux_array_read(o, got, (size_t)n * ref_dtype_size(rdt)));
    gpux_array_release(o);
  } else {
    gt_view_make(&vo, rdt, nd, sh, (gt_layout)out_mode, NULL);
    GT_OK(gpux_unary_into(vo.view, op, va.view));
    gt_view_read(&vo, got, label);
    gt_view_free(&vo);
  }
  ref_value *want = gt_malloc((size_t)n * sizeof(ref_value));
  ref_unary(op, dt, n, ha, want);
  gt_compare(label, rdt, got, want, n, gt_tolerance(rdt, gt_unary_class(op, dt)), dt, ha, NULL);
  free(want);
  free(got);
  gt_view_free(&va);
}

static void un_case(gpux_unary_op op, gpux_dtype dt, int nd, const int64_t *sh, gt_layout la,
                    int out_mode, uint64_t seed, const char *what) {
  int owned;
  void *ha = input_buf(dt, ref_shape_size(nd, sh), gt_unary_domain(op, dt), seed, &owned);
  un_run(op, dt, nd, sh, la, ha, out_mode, what);
  if (owned) free(ha);
}

static void test_unary(void **state) {
  const ew_case *c = *state;
  gpux_unary_op op = (gpux_unary_op)c->op;
  gpux_dtype dt = c->dt;
  int64_t sh7[1] = {7};
  if (!ref_unary_supported(op, dt)) {
    gpux_array_t a = NULL, o = NULL, out = NULL;
    assert_int_equal(gpux_unary_op_supports(op, dt), 0);
    GT_OK(gpux_array_ones(&a, gt_ctx, dt, 1, sh7));
    GT_OK(gpux_array_ones(&out, gt_ctx, dt, 1, sh7));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_unary(&o, op, a));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_unary_into(out, op, a));
    gpux_array_release(a);
    gpux_array_release(out);
    return;
  }
  if (!gt_dtype_available(dt)) skip();
  assert_int_equal(gpux_unary_op_supports(op, dt), 1);
  int k = 0;
  const int64_t sizes[] = {0, 1, 1001, 4099, GT_BIG};
  for (int i = 0; i < 5; i++) {
    if (sizes[i] == GT_BIG && !big_dtype(dt)) continue;
    int64_t sh[1] = {sizes[i]};
    un_case(op, dt, 1, sh, GT_CONTIG, i % 2 ? OUT_NEW : GT_CONTIG, mkseed(K_UNARY, op, dt, k++),
            "contiguous");
  }
  const int64_t s1[2] = {33, 17};
  un_case(op, dt, 2, s1, GT_STRIDED, OUT_NEW, mkseed(K_UNARY, op, dt, k++), "strided");
  un_case(op, dt, 2, s1, GT_REVERSED, GT_STRIDED, mkseed(K_UNARY, op, dt, k++), "strided");
  un_case(op, dt, 2, s1, GT_CONTIG, GT_REVERSED, mkseed(K_UNARY, op, dt, k++), "strided out");
  const int64_t s2[1] = {4099};
  un_case(op, dt, 1, s2, GT_REVERSED, GT_CONTIG, mkseed(K_UNARY, op, dt, k++), "reversed 1-d");
  const int64_t s3[8] = {2, 1, 3, 1, 2, 3, 1, 2};
  un_case(op, dt, 8, s3, GT_STRIDED, GT_REVERSED, mkseed(K_UNARY, op, dt, k++), "8-d views");
  un_case(op, dt, 8, s3, GT_CONTIG, GT_CONTIG, mkseed(K_UNARY, op, dt, k++), "8-d contiguous");
  un_case(op, dt, 0, NULL, GT_CONTIG, OUT_NEW, mkseed(K_UNARY, op, dt, k++), "0-d");
  un_case(op, dt, 0, NULL, GT_CONTIG, GT_CONTIG, mkseed(K_UNARY, op, dt, k++), "0-d");
  const int64_t s4[2] = {0, 5};
  un_case(op, dt, 2, s4, GT_STRIDED, GT_STRIDED, mkseed(K_UNARY, op, dt, k++), "empty view");
  if ((dt == GPUX_FLOAT32 && (op == GPUX_EXP || op == GPUX_NEG)) || (dt == GPUX_INT32 && op == GPUX_ABS)) {
    int64_t shb[2] = {2048, 2049}; /* > 2^22 elements through the n-d path */
    un_case(op, dt, 2, shb, GT_REVERSED, GT_CONTIG, mkseed(K_UNARY, op, dt, k++), "big reversed");
  }
  /* in place: out == a, contiguous and strided */
  if (ref_unary_result(op, dt) == dt) {
    const int64_t n = 1001;
    int64_t sh[1] = {n};
    size_t es = ref_dtype_size(dt);
    char *ha = gt_malloc((size_t)n * es);
    gt_fill_random(ha, dt, n, gt_unary_domain(op, dt), mkseed(K_UNARY, op, dt, k++));
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, sh, ha));
    GT_OK(gpux_unary_into(a, op, a));
    void *got = gt_read_all(a, NULL);
    ref_value *want = gt_malloc((size_t)n * sizeof(ref_value));
    ref_unary(op, dt, n, ha, want);
    char label[128];
    snprintf(label, sizeof label, "%s %s in place (out == a)", gt_unary_str(op), gt_dtype_str(dt));
    gt_compare(label, dt, got, want, n, gt_tolerance(dt, gt_unary_class(op, dt)), dt, ha, NULL);
    free(got);
    gpux_array_release(a);
    int64_t sh2[2] = {11, 13};
    gt_view va;
    gt_view_make(&va, dt, 2, sh2, GT_STRIDED, ha);
    GT_OK(gpux_unary_into(va.view, op, va.view));
    got = gt_malloc(143 * es);
    snprintf(label, sizeof label, "%s %s in place (out == a, strided)", gt_unary_str(op),
             gt_dtype_str(dt));
    gt_view_read(&va, got, label);
    gt_compare(label, dt, got, want, 143, gt_tolerance(dt, gt_unary_class(op, dt)), dt, ha, NULL);
    free(got);
    gt_view_free(&va);
    free(want);
    free(ha);
  }
  /* special values */
  {
    size_t es = ref_dtype_size(dt);
    char sv[32 * 8], keep[32 * 8];
    int64_t ns = gt_special_values(sv, dt, 32), nk = 0;
    for (int64_t i = 0; i < ns; i++) {
      if ((op == GPUX_SIN || op == GPUX_COS || op == GPUX_TAN) && ref_dtype_is_float(dt)) {
        double x = ref_load(dt, sv, i).f;
        if (isfinite(x) && fabs(x) > 1000) continue; /* no huge-argument reduction check */
      }
      memcpy(keep + (size_t)nk * es, sv + (size_t)i * es, es);
      nk++;
    }
    int64_t sh[1] = {nk};
    un_run(op, dt, 1, sh, GT_CONTIG, keep, GT_CONTIG, "special values");
  }
}

/* ------------------------------------------------------------------ where */

static void where_run(gpux_dtype dt, int ndc, const int64_t *sc, gt_layout lc, int nda,
                      const int64_t *sa, gt_layout la, int ndb, const int64_t *sb, gt_layout lb,
                      int out_mode, uint64_t seed, const char *what) {
  char label[512], s1[64], s2[64], s3[64];
  int ndt, ndo;
  int64_t st[GPUX_MAX_DIMS], so[GPUX_MAX_DIMS];
  GT_ASSERT(ref_broadcast_shape(ndc, sc, nda, sa, &ndt, st), "test bug");
  GT_ASSERT(ref_broadcast_shape(ndt, st, ndb, sb, &ndo, so), "test bug");
  snprintf(label, sizeof label, "where %s: cond %s %s, a %s %s, b %s %s -> %s (%s)",
           gt_dtype_str(dt), gt_shape_str(s1, sizeof s1, ndc, sc), gt_layout_str(lc),
           gt_shape_str(s2, sizeof s2, nda, sa), gt_layout_str(la),
           gt_shape_str(s3, sizeof s3, ndb, sb), gt_layout_str(lb),
           out_mode == OUT_NEW ? "new" : gt_layout_str((gt_layout)out_mode), what);
  int64_t nc = ref_shape_size(ndc, sc), na = ref_shape_size(nda, sa), nb = ref_shape_size(ndb, sb);
  int64_t n = ref_shape_size(ndo, so);
  int oc, oa, ob;
  void *hc = input_buf(GPUX_BOOL, nc, GT_DOM_ANY, seed, &oc);
  void *ha = input_buf(dt, na, GT_DOM_ANY, seed + 1, &oa);
  void *hb = input_buf(dt, nb, GT_DOM_ANY, seed + 2, &ob);
  gt_view vc, va, vb, vo;
  gt_view_make(&vc, GPUX_BOOL, ndc, sc, lc, hc);
  gt_view_make(&va, dt, nda, sa, la, ha);
  gt_view_make(&vb, dt, ndb, sb, lb, hb);
  void *got = gt_malloc((size_t)n * ref_dtype_size(dt));
  if (out_mode == OUT_NEW) {
    gpux_array_t o = NULL;
    GT_OK(gpux_where(&o, vc.view, va.view, vb.view));
    gt_check_shape(o, dt, ndo, so, label);
    GT_OK(gpux_array_read(o, got, (size_t)n * ref_dtype_size(dt)));
    gpux_array_release(o);
  } else {
    gt_view_make(&vo, dt, ndo, so, (gt_layout)out_mode, NULL);
    GT_OK(gpux_where_into(vo.view, vc.view, va.view, vb.view));
    gt_view_read(&vo, got, label);
    gt_view_free(&vo);
  }
  void *tc, *ta, *tb;
  const void *fc = expand(hc, GPUX_BOOL, ndc, sc, ndo, so, &tc);
  const void *fa = expand(ha, dt, nda, sa, ndo, so, &ta);
  const void *fb = expand(hb, dt, ndb, sb, ndo, so, &tb);
  ref_value *want = gt_malloc((size_t)n * sizeof(ref_value));
  ref_where(dt, n, fc, fa, fb, want);
  gt_compare(label, dt, got, want, n, gt_tolerance(dt, GT_OPC_EXACT), dt, fa, fb);
  free(want);
  free(tc);
  free(ta);
  free(tb);
  free(got);
  gt_view_free(&vc);
  gt_view_free(&va);
  gt_view_free(&vb);
  if (oc) free(hc);
  if (oa) free(ha);
  if (ob) free(hb);
}

static void test_where(void **state) {
  const ew_case *c = *state;
  gpux_dtype dt = c->dt;
  if (!gt_dtype_available(dt)) skip();
  int k = 0;
  const int64_t sizes[] = {0, 1, 1001, 4099, GT_BIG};
  for (int i = 0; i < 5; i++) {
    if (sizes[i] == GT_BIG && !big_dtype(dt)) continue;
    int64_t sh[1] = {sizes[i]};
    where_run(dt, 1, sh, GT_CONTIG, 1, sh, GT_CONTIG, 1, sh, GT_CONTIG,
              i % 2 ? OUT_NEW : GT_CONTIG, mkseed(K_WHERE, 0, dt, k++), "contiguous");
  }
  const int64_t c1[3] = {5, 1, 7}, a1[2] = {3, 1};
  where_run(dt, 3, c1, GT_CONTIG, 2, a1, GT_CONTIG, 0, NULL, GT_CONTIG, GT_CONTIG,
            mkseed(K_WHERE, 0, dt, k++), "broadcast");
  where_run(dt, 0, NULL, GT_CONTIG, 3, c1, GT_CONTIG, 2, a1, GT_CONTIG, OUT_NEW,
            mkseed(K_WHERE, 0, dt, k++), "broadcast 0-d cond");
  const int64_t c2[2] = {4, 1}, a2[2] = {1, 5}, b2[2] = {4, 5};
  where_run(dt, 2, c2, GT_REVERSED, 2, a2, GT_STRIDED, 2, b2, GT_STRIDED, GT_STRIDED,
            mkseed(K_WHERE, 0, dt, k++), "broadcast views");
  const int64_t s3[2] = {33, 17};
  where_run(dt, 2, s3, GT_STRIDED, 2, s3, GT_REVERSED, 2, s3, GT_CONTIG, GT_REVERSED,
            mkseed(K_WHERE, 0, dt, k++), "strided");
  const int64_t s4[8] = {2, 1, 3, 1, 2, 3, 1, 2}, s5[8] = {1, 2, 1, 3, 2, 1, 2, 1};
  where_run(dt, 8, s4, GT_CONTIG, 8, s5, GT_CONTIG, 8, s4, GT_STRIDED, GT_CONTIG,
            mkseed(K_WHERE, 0, dt, k++), "8-d");
  where_run(dt, 0, NULL, GT_CONTIG, 0, NULL, GT_CONTIG, 0, NULL, GT_CONTIG, OUT_NEW,
            mkseed(K_WHERE, 0, dt, k++), "0-d");
  /* in place: out == a */
  {
    const int64_t n = 1001;
    int64_t sh[1] = {n};
    size_t es = ref_dtype_size(dt);
    uint8_t *hc = gt_malloc((size_t)n);
    char *ha = gt_malloc((size_t)n * es), *hb = gt_malloc((size_t)n * es);
    gt_fill_random(hc, GPUX_BOOL, n, GT_DOM_ANY, 5);
    gt_fill_random(ha, dt, n, GT_DOM_ANY, 6);
    gt_fill_random(hb, dt, n, GT_DOM_ANY, 7);
    gpux_array_t dc = NULL, da = NULL, db = NULL;
    GT_OK(gpux_array_from_host(&dc, gt_ctx, GPUX_BOOL, 1, sh, hc));
    GT_OK(gpux_array_from_host(&da, gt_ctx, dt, 1, sh, ha));
    GT_OK(gpux_array_from_host(&db, gt_ctx, dt, 1, sh, hb));
    GT_OK(gpux_where_into(da, dc, da, db));
    void *got = gt_read_all(da, NULL);
    ref_value *want = gt_malloc((size_t)n * sizeof(ref_value));
    ref_where(dt, n, hc, ha, hb, want);
    gt_compare("where in place (out == a)", dt, got, want, n, gt_tolerance(dt, GT_OPC_EXACT), dt,
               ha, hb);
    free(got);
    free(want);
    gpux_array_release(dc);
    gpux_array_release(da);
    gpux_array_release(db);
    free(hc);
    free(ha);
    free(hb);
  }
}

/* ------------------------------------------------------------------ misc */

static void test_supports(void **state) {
  (void)state;
  for (int op = 0; op < GT_BINARY_OPS; op++) {
    assert_non_null(gpux_binary_op_name((gpux_binary_op)op));
    assert_string_equal(gpux_binary_op_name((gpux_binary_op)op), gt_binary_str((gpux_binary_op)op));
    for (int d = 0; d < GPUX_DTYPE_COUNT; d++)
      GT_ASSERT(gpux_binary_op_supports((gpux_binary_op)op, (gpux_dtype)d) ==
                    ref_binary_supported((gpux_binary_op)op, (gpux_dtype)d),
                "gpux_binary_op_supports(%s, %s) = %d", gt_binary_str((gpux_binary_op)op),
                gt_dtype_str((gpux_dtype)d), gpux_binary_op_supports((gpux_binary_op)op, (gpux_dtype)d));
    assert_int_equal(gpux_binary_op_supports((gpux_binary_op)op, (gpux_dtype)GPUX_DTYPE_COUNT), 0);
    assert_int_equal(gpux_binary_op_supports((gpux_binary_op)op, (gpux_dtype)-1), 0);
  }
  for (int op = 0; op < GT_UNARY_OPS; op++) {
    assert_non_null(gpux_unary_op_name((gpux_unary_op)op));
    assert_string_equal(gpux_unary_op_name((gpux_unary_op)op), gt_unary_str((gpux_unary_op)op));
    for (int d = 0; d < GPUX_DTYPE_COUNT; d++)
      GT_ASSERT(gpux_unary_op_supports((gpux_unary_op)op, (gpux_dtype)d) ==
                    ref_unary_supported((gpux_unary_op)op, (gpux_dtype)d),
                "gpux_unary_op_supports(%s, %s) = %d", gt_unary_str((gpux_unary_op)op),
                gt_dtype_str((gpux_dtype)d), gpux_unary_op_supports((gpux_unary_op)op, (gpux_dtype)d));
  }
  assert_null(gpux_binary_op_name((gpux_binary_op)GT_BINARY_OPS));
  assert_null(gpux_unary_op_name((gpux_unary_op)GT_UNARY_OPS));
  assert_int_equal(gpux_binary_op_supports((gpux_binary_op)GT_BINARY_OPS, GPUX_FLOAT32), 0);
  assert_int_equal(gpux_unary_op_supports((gpux_unary_op)GT_UNARY_OPS, GPUX_FLOAT32), 0);
  assert_int_equal(gpux_binary_op_supports((gpux_binary_op)-1, GPUX_FLOAT32), 0);
  /* an unknown op on the compute path */
  int64_t sh[1] = {3};
  gpux_array_t a = NULL, o = NULL;
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 1, sh));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_binary(&o, (gpux_binary_op)99, a, a));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_unary(&o, (gpux_unary_op)99, a));
  gpux_array_release(a);
}

/* Named shorthands of elementwise.h. */
static void test_shorthands(void **state) {
  (void)state;
  const int64_t n = 257;
  int64_t sh[1] = {n};
  float ha[257], hb[257];
  gt_fill_random(ha, GPUX_FLOAT32, n, GT_DOM_POS, 1);
  gt_fill_random(hb, GPUX_FLOAT32, n, GT_DOM_POS, 2);
  gpux_array_t a = NULL, b = NULL, o = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, sh, ha));
  GT_OK(gpux_array_from_host(&b, gt_ctx, GPUX_FLOAT32, 1, sh, hb));
  ref_value want[257];
  struct { gpux_status (*f)(gpux_array_t *, gpux_array_t, gpux_array_t); gpux_binary_op op; } bins[] = {
      {gpux_add, GPUX_ADD}, {gpux_sub, GPUX_SUB}, {gpux_mul, GPUX_MUL}, {gpux_div, GPUX_DIV},
      {gpux_pow, GPUX_POW}, {gpux_minimum, GPUX_MINIMUM}, {gpux_maximum, GPUX_MAXIMUM},
      {gpux_mod, GPUX_MOD}};
  for (size_t i = 0; i < sizeof bins / sizeof bins[0]; i++) {
    GT_OK(bins[i].f(&o, a, b));
    void *got = gt_read_all(o, NULL);
    ref_binary(bins[i].op, GPUX_FLOAT32, n, ha, hb, want);
    gt_compare(gt_binary_str(bins[i].op), GPUX_FLOAT32, got, want, n,
               gt_tolerance(GPUX_FLOAT32, gt_binary_class(bins[i].op, GPUX_FLOAT32)), GPUX_FLOAT32, ha, hb);
    free(got);
    gpux_array_release(o);
  }
  struct { gpux_status (*f)(gpux_array_t *, gpux_array_t); gpux_unary_op op; } uns[] = {
      {gpux_neg, GPUX_NEG}, {gpux_abs, GPUX_ABS}, {gpux_exp, GPUX_EXP}, {gpux_log, GPUX_LOG},
      {gpux_sqrt, GPUX_SQRT}, {gpux_tanh, GPUX_TANH}, {gpux_sigmoid, GPUX_SIGMOID},
      {gpux_relu, GPUX_RELU}};
  for (size_t i = 0; i < sizeof uns / sizeof uns[0]; i++) {
    GT_OK(uns[i].f(&o, a));
    void *got = gt_read_all(o, NULL);
    ref_unary(uns[i].op, GPUX_FLOAT32, n, ha, want);
    gt_compare(gt_unary_str(uns[i].op), GPUX_FLOAT32, got, want, n,
               gt_tolerance(GPUX_FLOAT32, gt_unary_class(uns[i].op, GPUX_FLOAT32)), GPUX_FLOAT32, ha, NULL);
    free(got);
    gpux_array_release(o);
  }
  gpux_array_release(a);
  gpux_array_release(b);
}

/* One array above 2^31 elements: uint8 a + b with 2^31 + 17 elements (needs a GPU with
 * at least 12 GiB). */
static uint8_t big_a(uint64_t i) { return (uint8_t)(i * 7u + (i >> 13)); }
static uint8_t big_b(uint64_t i) { return (uint8_t)((i >> 5) ^ (i * 3u)); }

static void test_large_2g(void **state) {
  (void)state;
  const uint64_t gib = 1024ull * 1024ull * 1024ull;
  /* GPUX_TEST_LARGE_DRY_RUN=1 runs the same code with 2^24 + 17 elements on any device (to
   * check the test itself) */
  const char *dry = getenv("GPUX_TEST_LARGE_DRY_RUN");
  const int dry_run = dry && *dry == '1';
  if (!dry_run && (!gt_info.is_gpu || gt_info.global_mem_bytes < 12 * gib)) {
    print_message("skipped: needs a GPU with >= 12 GiB (this device: %s, %.1f GiB, gpu %d)\n",
                  gt_info.name, (double)gt_info.global_mem_bytes / (double)gib, gt_info.is_gpu);
    skip();
  }
  const int64_t n = ((int64_t)1 << (dry_run ? 24 : 31)) + 17;
  int64_t sh[1] = {n};
  uint8_t *h = malloc((size_t)n);
  if (!h) {
    print_message("skipped: cannot allocate %" PRId64 " host bytes\n", n);
    skip();
  }
  gpux_array_t a = NULL, b = NULL, c = NULL;
  for (int64_t i = 0; i < n; i++) h[i] = big_a((uint64_t)i);
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_UINT8, 1, sh, h));
  for (int64_t i = 0; i < n; i++) h[i] = big_b((uint64_t)i);
  GT_OK(gpux_array_from_host(&b, gt_ctx, GPUX_UINT8, 1, sh, h));
  c = gt_poisoned(GPUX_UINT8, 1, sh);
  GT_OK(gpux_binary_into(c, GPUX_ADD, a, b));
  GT_OK(gpux_array_read(c, h, (size_t)n));
  /* sampled positions: the head, around 2^31, the tail and a random sample */
  int64_t bad = 0, checked = 0;
  gt_rng r;
  gt_rng_seed(&r, 2024);
  for (int part = 0; part < 4; part++) {
    int64_t lo = 0, cnt = 0;
    if (part == 0) { lo = 0; cnt = 1 << 20; }
    if (part == 1) { lo = (n - 17) - (1 << 20); cnt = 2 << 20; }
    if (part == 2) { lo = n - (1 << 20); cnt = 1 << 20; }
    if (part == 3) { cnt = 1 << 22; }
    for (int64_t j = 0; j < cnt; j++) {
      int64_t i = part == 3 ? gt_rng_int(&r, 0, n - 1) : lo + j;
      if (i >= n) break;
      uint8_t want = (uint8_t)(big_a((uint64_t)i) + big_b((uint64_t)i));
      checked++;
      if (h[i] != want) {
        if (bad < 8) print_error("uint8 add 2^31+17: [%" PRId64 "] got %u expected %u\n", i, h[i], want);
        bad++;
      }
    }
  }
  /* every element near the end, where 32-bit indexing would wrap */
  for (int64_t i = (n - 17) - 64; i < n; i++)
    if (h[i] != (uint8_t)(big_a((uint64_t)i) + big_b((uint64_t)i))) bad++;
  /* the n-d path with 64-bit offsets: c = a[::-1] + b */
  gpux_array_t rev = NULL;
  const int64_t st[1] = {-1}, sp[1] = {-(n + 1)}, stp[1] = {-1};
  GT_OK(gpux_array_slice(&rev, a, st, sp, stp));
  GT_OK(gpux_binary_into(c, GPUX_ADD, rev, b));
  GT_OK(gpux_array_read(c, h, (size_t)n));
  int64_t bad_rev = 0;
  gt_rng_seed(&r, 2025);
  for (int64_t j = 0; j < (1 << 22) + 4096; j++) {
    int64_t i = j < (1 << 22) ? gt_rng_int(&r, 0, n - 1) : (j < (1 << 22) + 2048 ? j - (1 << 22) : n - 1 - (j - (1 << 22) - 2048));
    uint8_t want = (uint8_t)(big_a((uint64_t)(n - 1 - i)) + big_b((uint64_t)i));
    if (h[i] != want) {
      if (bad_rev < 8) print_error("uint8 a[::-1] + b 2^31+17: [%" PRId64 "] got %u expected %u\n", i, h[i], want);
      bad_rev++;
    }
  }
  gpux_array_release(rev);
  GT_ASSERT(bad_rev == 0, "uint8 a[::-1] + b with 2^31 + 17 elements: %" PRId64 " sampled elements wrong", bad_rev);
  free(h);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
  GT_ASSERT(bad == 0, "uint8 add with 2^31 + 17 elements: %" PRId64 " of %" PRId64
            " sampled elements wrong", bad, checked);
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_elementwise");
  enum { MAXT = (GT_BINARY_OPS + GT_UNARY_OPS + 1) * GT_STORAGE_DTYPES + 16 };
  static struct CMUnitTest tests[MAXT];
  static ew_case cases[MAXT];
  static char names[MAXT][64];
  size_t n = 0;
  tests[n++] = (struct CMUnitTest){"supports_and_names", test_supports, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"shorthands", test_shorthands, NULL, NULL, NULL};
  for (int op = 0; op < GT_BINARY_OPS; op++)
    for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
      cases[n] = (ew_case){K_BINARY, op, k_dtypes[d]};
      snprintf(names[n], sizeof names[n], "binary_%s_%s", gt_binary_str((gpux_binary_op)op),
               gt_dtype_str(k_dtypes[d]));
      tests[n] = (struct CMUnitTest){names[n], test_binary, NULL, NULL, &cases[n]};
      n++;
    }
  for (int op = 0; op < GT_UNARY_OPS; op++)
    for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
      cases[n] = (ew_case){K_UNARY, op, k_dtypes[d]};
      snprintf(names[n], sizeof names[n], "unary_%s_%s", gt_unary_str((gpux_unary_op)op),
               gt_dtype_str(k_dtypes[d]));
      tests[n] = (struct CMUnitTest){names[n], test_unary, NULL, NULL, &cases[n]};
      n++;
    }
  for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
    cases[n] = (ew_case){K_WHERE, 0, k_dtypes[d]};
    snprintf(names[n], sizeof names[n], "where_%s", gt_dtype_str(k_dtypes[d]));
    tests[n] = (struct CMUnitTest){names[n], test_where, NULL, NULL, &cases[n]};
    n++;
  }
  tests[n++] = (struct CMUnitTest){"large_uint8_add_2p31_plus_17", test_large_2g, NULL, NULL, NULL};
  int failed = gt_run("elementwise", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
