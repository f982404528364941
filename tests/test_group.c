/* gpux tests: unique and reduce_by_key (include/gpux/group.h) against a CPU reference (a
 * stable merge sort of THE ORDER's images, tests/ref/ref_sort.c; exact sums through
 * tests/ref/ref_count.c), bit for bit: every real dtype and bool as keys, many duplicates,
 * NaN / -0.0 / +0.0 / inf, sizes 0, 1, odd and several tiles, strided n-d inputs, every
 * combination of unique's optional outputs, every op on every value dtype, errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpux_sort.h"
#include "ref_count.h"
#include "ref_sort.h"
#include "test_util.h"

static const gpux_dtype k_dts[] = GT_STORAGE_DTYPE_INIT;
#define NDTS (sizeof k_dts / sizeof k_dts[0])
static const int64_t k_sizes[] = {0, 1, 2, 7, 1001, 70001};
#define NSIZES (sizeof k_sizes / sizeof k_sizes[0])

static int is_cx(gpux_dtype dt) { return dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128; }
static int is_fl(gpux_dtype dt) {
  return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64 || dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16;
}

/* many duplicates (small integers), specials sprinkled (NaN, inf, +-0, ...) */
static void *mk_data(gpux_dtype dt, int64_t n, uint64_t seed) {
  return gt_random_with_specials(dt, n, GT_DOM_SMALLINT, seed, seed ^ 0x9a0c, 8);
}

/* the reference groups of x (n elements): perm, group id of each sorted position */
typedef struct rgroups {
  int64_t n, nu;
  int64_t *perm, *start, *inv, *cnt; /* start, cnt: nu; inv: n (x's positions) */
} rgroups;

static void rg_make(rgroups *g, gpux_dtype dt, int64_t n, const void *x) {
  g->n = n;
  g->perm = gt_malloc((size_t)(n + 1) * 8);
  g->start = gt_malloc((size_t)(n + 1) * 8);
  g->inv = gt_malloc((size_t)(n + 1) * 8);
  g->cnt = gt_malloc((size_t)(n + 1) * 8);
  if (n) ref_sort_perm(dt, 1, n, x, 0, 1, g->perm);
  g->nu = 0;
  /* equality: the images (EQZ) equal; complex: both parts' images equal */
  const int cx = is_cx(dt);
  const gpux_dtype pdt = dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
  uint64_t prev = 0, prev2 = 0;
  for (int64_t j = 0; j < n; j++) {
    const int64_t p = g->perm[j];
    const uint64_t im = cx ? ref_sort_img(pdt, x, 2 * p, GPUX_SO_EQZ)
                           : ref_sort_img(dt, x, p, GPUX_SO_EQZ);
    const uint64_t im2 = cx ? ref_sort_img(pdt, x, 2 * p + 1, GPUX_SO_EQZ) : 0;
    if (j == 0 || im != prev || im2 != prev2) {
      g->start[g->nu] = j;
      g->cnt[g->nu++] = 0;
    }
    prev = im;
    prev2 = im2;
    g->cnt[g->nu - 1]++;
    g->inv[g->perm[j]] = g->nu - 1;
  }
}

static void rg_free(rgroups *g) { GT_FREE(g->perm, g->start, g->inv, g->cnt); }

static void check_bytes(const char *label, const void *got, const void *want, int64_t n,
                        size_t es) {
  for (int64_t i = 0; i < n; i++)
    if (memcmp((const char *)got + i * es, (const char *)want + i * es, es)) {
      uint64_t a = 0, b = 0;
      memcpy(&a, (const char *)got + i * es, es);
      memcpy(&b, (const char *)want + i * es, es);
      GT_FAIL("%s: element %lld: got bits 0x%llx, want 0x%llx", label, (long long)i,
              (unsigned long long)a, (unsigned long long)b);
    }
}

static void read_check(const char *label, gpux_array_t a, gpux_dtype dt, int nd,
                       const int64_t *shape, const void *want) {
  gt_check_shape(a, dt, nd, shape, label);
  int64_t n = 0;
  void *got = gt_read_all(a, &n);
  check_bytes(label, got, want, n, gpux_dtype_size(dt));
  free(got);
}

/* unique of x (shape nd/shape, layout lay) with the outputs `want` asks for (bits 0..2:
 * index, inverse, counts) */
static void run_unique(gpux_dtype dt, int nd, const int64_t *shape, gt_layout lay, uint64_t seed,
                       unsigned want) {
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  const size_t es = gpux_dtype_size(dt);
  void *x = mk_data(dt, n, seed);
  rgroups g;
  rg_make(&g, dt, n, x);
  gt_view v;
  gt_view_make(&v, dt, nd, shape, lay, x);
  gpux_array_t vals = NULL, idx = NULL, inv = NULL, cnt = NULL;
  GT_OK(gpux_unique(&vals, want & 1 ? &idx : NULL, want & 2 ? &inv : NULL,
                    want & 4 ? &cnt : NULL, v.view));
  char label[160];
  snprintf(label, sizeof label, "unique %s n=%lld %s want=%u", gt_dtype_str(dt), (long long)n,
           gt_layout_str(lay), want);
  unsigned char *wv = gt_malloc((size_t)(g.nu + 1) * es);
  int64_t *wi = gt_malloc((size_t)(g.nu + 1) * 8);
  for (int64_t u = 0; u < g.nu; u++) {
    wi[u] = g.perm[g.start[u]];
    memcpy(wv + u * es, (const unsigned char *)x + wi[u] * es, es);
  }
  read_check(label, vals, dt, 1, &g.nu, wv);
  if (want & 1) read_check(label, idx, GPUX_INT64, 1, &g.nu, wi);
  else GT_ASSERT(idx == NULL, "%s: index written", label);
  if (want & 2) read_check(label, inv, GPUX_INT64, nd, shape, g.inv);
  if (want & 4) read_check(label, cnt, GPUX_INT64, 1, &g.nu, g.cnt);
  GT_RELEASE(vals, idx, inv, cnt);
  gt_view_free(&v);
  GT_FREE(x, wv, wi);
  rg_free(&g);
}

static void test_unique(void **state) {
  (void)state;
  for (size_t d = 0; d < NDTS; d++) {
    const gpux_dtype dt = k_dts[d];
    if (!gt_dtype_available(dt)) continue;
    for (size_t s = 0; s < NSIZES; s++) {
      run_unique(dt, 1, &k_sizes[s], GT_CONTIG, 100 + s * 31 + d, 7u);
      /* without the inverse: the runs found in one pass over the sorted keys */
      run_unique(dt, 1, &k_sizes[s], GT_CONTIG, 900 + s * 31 + d, 5u);
    }
  }
}

/* complex: lexicographic groups, each part with -0.0 == +0.0 and NaN == NaN; every
 * combination of the outputs, n-d strided / reversed views, and a hand-made case */
static void test_unique_complex(void **state) {
  (void)state;
  const int64_t sh[3] = {5, 7, 9};
  const gpux_dtype cdt[2] = {GPUX_COMPLEX64, GPUX_COMPLEX128};
  for (int d = 0; d < 2; d++) {
    if (!gt_dtype_available(cdt[d])) continue;
    for (unsigned want = 0; want < 8; want++)
      run_unique(cdt[d], 1, &k_sizes[3 + want % 3], GT_CONTIG, 300 + want + 8 * d, want);
    run_unique(cdt[d], 3, sh, GT_STRIDED, 320 + d, 7u);
    run_unique(cdt[d], 3, sh, GT_REVERSED, 322 + d, 7u);
  }
  /* (re, im): -0+0j first (kept), +0-0j and 0+0j join it; 1+nanj twice (payloads differ);
   * nan+1j and -nan+1j one group; nan+nanj; 1+1j; 1-0j / 1+0j one group */
  const uint32_t qn = 0x7fc00000u, pn = 0x7fc00123u, nn = 0xffc00000u;
  float v[11][2] = {{-0.0f, 0.0f}, {1, 1}, {0.0f, -0.0f}, {1, 0}, {0, 0}, {1, -0.0f},
                    {1, 0}, {0, 1}, {0, 1}, {0, 0}, {0, 0}};
  memcpy(&v[2][0], &(float){0.0f}, 4);
  memcpy(&v[3][1], &qn, 4); /* 1 + nan j */
  memcpy(&v[6][1], &pn, 4); /* 1 + nan' j */
  memcpy(&v[7][0], &qn, 4); /* nan + 1j */
  memcpy(&v[8][0], &nn, 4); /* -nan + 1j */
  memcpy(&v[9][0], &qn, 4); /* nan + nan j */
  memcpy(&v[9][1], &pn, 4);
  v[10][0] = 1;             /* 1 + 0j */
  const int64_t n = 11;
  gpux_array_t x = NULL, vals = NULL, idx = NULL, inv = NULL, cnt = NULL;
  GT_OK(gpux_array_from_host(&x, gt_ctx, GPUX_COMPLEX64, 1, &n, v));
  GT_OK(gpux_unique(&vals, &idx, &inv, &cnt, x));
  int64_t nu = 0;
  GT_OK(gpux_array_size(&nu, vals));
  GT_ASSERT(nu == 6, "complex unique: %lld values, want 6", (long long)nu);
  /* order: 0 (idx 0), 1+0j (5: 1-0j first), 1+1j (1), 1+nanj (3), nan+1j (7), nan+nanj (9) */
  const int64_t wi[6] = {0, 5, 1, 3, 7, 9}, wc[6] = {3, 2, 1, 2, 2, 1};
  const int64_t winv[11] = {0, 2, 0, 3, 0, 1, 3, 4, 4, 5, 1};
  int64_t gi[6], gc[6], ginv[11];
  float gv[6][2];
  GT_OK(gpux_array_read(idx, gi, sizeof gi));
  GT_OK(gpux_array_read(cnt, gc, sizeof gc));
  GT_OK(gpux_array_read(inv, ginv, sizeof ginv));
  GT_OK(gpux_array_read(vals, gv, sizeof gv));
  GT_ASSERT(memcmp(gi, wi, sizeof wi) == 0, "complex unique: first indices");
  GT_ASSERT(memcmp(gc, wc, sizeof wc) == 0, "complex unique: counts");
  GT_ASSERT(memcmp(ginv, winv, sizeof winv) == 0, "complex unique: inverse");
  for (int u = 0; u < 6; u++)
    GT_ASSERT(memcmp(gv[u], v[wi[u]], 8) == 0, "complex unique: value %d: not x[%lld]'s bits",
              u, (long long)wi[u]);
  GT_RELEASE(x, vals, idx, inv, cnt);
}

/* every combination of the optional outputs; n-d, strided, reversed and 0-d inputs */
static void test_unique_forms(void **state) {
  (void)state;
  const int64_t sh[3] = {5, 7, 9}, e[2] = {3, 0};
  for (unsigned want = 0; want < 8; want++)
    run_unique(GPUX_FLOAT32, 1, &k_sizes[4], GT_CONTIG, 7 + want, want);
  run_unique(GPUX_FLOAT32, 3, sh, GT_STRIDED, 11, 7u);
  run_unique(GPUX_INT16, 3, sh, GT_REVERSED, 12, 7u);
  run_unique(GPUX_INT32, 0, NULL, GT_CONTIG, 13, 7u);
  run_unique(GPUX_UINT8, 2, e, GT_CONTIG, 14, 7u);
  /* -0.0 before +0.0 in x: the value kept is -0.0's bits; NaNs of several payloads: one */
  const float xs[8] = {0.0f, -0.0f, NAN, 1.0f, -0.0f, -NAN, INFINITY, 0.0f};
  const uint32_t nan2 = 0x7fc00123u;
  float xx[8];
  memcpy(xx, xs, sizeof xs);
  memcpy(&xx[5], &nan2, 4);
  memcpy(&xx[0], &(float){-0.0f}, 4); /* first zero is -0.0 */
  const int64_t n8 = 8;
  gpux_array_t x = NULL, vals = NULL, cnt = NULL;
  GT_OK(gpux_array_from_host(&x, gt_ctx, GPUX_FLOAT32, 1, &n8, xx));
  GT_OK(gpux_unique(&vals, NULL, NULL, &cnt, x));
  float got[8];
  int64_t c[8], nu = 0;
  GT_OK(gpux_array_size(&nu, vals));
  GT_ASSERT(nu == 4, "unique of zeros, 1, inf, NaNs: %lld values, want 4", (long long)nu);
  GT_OK(gpux_array_read(vals, got, 16));
  GT_OK(gpux_array_read(cnt, c, 32));
  GT_ASSERT(got[0] == 0.0f && signbit(got[0]), "zeros: want the first occurrence's -0.0");
  GT_ASSERT(got[1] == 1.0f && got[2] == INFINITY && isnan(got[3]), "values 1, inf, NaN");
  GT_ASSERT(c[0] == 4 && c[1] == 1 && c[2] == 1 && c[3] == 2, "counts 4 1 1 2");
  GT_RELEASE(x, vals, cnt);
}

/* ---- reduce_by_key */

static uint64_t as_u64(gpux_dtype dt, const void *b, int64_t i) {
  switch (dt) {
    case GPUX_INT8: return (uint64_t)(int64_t)((const int8_t *)b)[i];
    case GPUX_INT16: return (uint64_t)(int64_t)((const int16_t *)b)[i];
    case GPUX_INT32: return (uint64_t)(int64_t)((const int32_t *)b)[i];
    case GPUX_INT64: return (uint64_t)((const int64_t *)b)[i];
    case GPUX_UINT8:
    case GPUX_BOOL: return ((const uint8_t *)b)[i];
    case GPUX_UINT16: return ((const uint16_t *)b)[i];
    case GPUX_UINT32: return ((const uint32_t *)b)[i];
    case GPUX_UINT64: return ((const uint64_t *)b)[i];
    default: return 0;
  }
}

/* the reference of op on v (dtype vdt) grouped by g, into out (result dtype rdt) */
static void ref_agg(gpux_group_op op, gpux_dtype vdt, gpux_dtype rdt, const void *v,
                    const rgroups *g, void *out) {
  const size_t ves = gpux_dtype_size(vdt), res = gpux_dtype_size(rdt);
  for (int64_t u = 0; u < g->nu; u++) {
    const int64_t *pos = g->perm + g->start[u], c = g->cnt[u];
    unsigned char *o = (unsigned char *)out + u * res;
    if (op == GPUX_GROUP_COUNT) {
      memcpy(o, &c, 8);
    } else if (op == GPUX_GROUP_MIN || op == GPUX_GROUP_MAX) {
      int64_t best = pos[0], nan = -1;
      for (int64_t j = 0; j < c; j++) {
        if (is_fl(vdt) && isnan(ref_load_f64(vdt, v, pos[j]))) nan = pos[j];
        const uint64_t a = ref_sort_img(vdt, v, pos[j], 0), b = ref_sort_img(vdt, v, best, 0);
        if (op == GPUX_GROUP_MAX ? a > b : a < b) best = pos[j];
      }
      memcpy(o, (const unsigned char *)v + best * ves, ves);
      if (nan >= 0) memcpy(o, (const unsigned char *)v + nan * ves, ves); /* any NaN */
    } else if (!is_fl(rdt)) { /* integer sums: int64 / uint64, wrapping */
      uint64_t sum = 0;
      for (int64_t j = 0; j < c; j++) sum += as_u64(vdt, v, pos[j]);
      memcpy(o, &sum, 8);
    } else {
      const gpux_dtype wdt = op == GPUX_GROUP_MEAN && ref_dtype_is_half(rdt) ? GPUX_FLOAT32 : rdt;
      ref_xsum xs;
      ref_xsum_init(&xs);
      ref_xsum_add(&xs, -0.0);
      for (int64_t j = 0; j < c; j++) {
        ref_xsum_add(&xs, ref_load_f64(vdt, v, pos[j])); /* integers -> float64 */
      }
      uint16_t hb = 0;
      const double sum = ref_xsum_result(&xs, wdt, ref_dtype_is_half(wdt) ? &hb : NULL);
      if (op == GPUX_GROUP_SUM) {
        if (rdt == GPUX_FLOAT32) memcpy(o, &(float){(float)sum}, 4);
        else if (rdt == GPUX_FLOAT64) memcpy(o, &sum, 8);
        else memcpy(o, &hb, 2);
      } else if (wdt == GPUX_FLOAT64) {
        const double m = sum / (double)c;
        memcpy(o, &m, 8);
      } else {
        const float m = (float)sum / (float)c;
        if (rdt == GPUX_FLOAT32) memcpy(o, &m, 4);
        else memcpy(o, &(uint16_t){ref_half_from_f32(rdt, m)}, 2);
      }
    }
  }
}

static void run_rbk(gpux_dtype kdt, int64_t n, uint64_t seed) {
  static const gpux_dtype vdts[] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_BFLOAT16,
                                    GPUX_INT32,   GPUX_INT64,   GPUX_UINT64,  GPUX_INT8,
                                    GPUX_UINT16,  GPUX_BOOL};
  enum { NV = sizeof vdts / sizeof vdts[0], NO = GPUX_GROUP_OP_COUNT };
  void *k = mk_data(kdt, n, seed);
  rgroups g;
  rg_make(&g, kdt, n, k);
  gpux_array_t keys = NULL, vals[NV * NO], res[NV * NO], kout = NULL;
  gpux_group_op ops[NV * NO];
  void *host[NV];
  int nc = 0;
  GT_OK(gpux_array_from_host(&keys, gt_ctx, kdt, 1, &n, k));
  for (int i = 0; i < NV; i++) {
    host[i] = NULL;
    if (!gt_dtype_available(vdts[i])) continue;
    host[i] = mk_data(vdts[i], n, seed * 7 + (uint64_t)i);
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, vdts[i], 1, &n, host[i]));
    for (int o = 0; o < NO; o++) {
      gpux_dtype rdt;
      if (gpux_group_result_dtype(&rdt, (gpux_group_op)o, vdts[i]) != GPUX_SUCCESS) continue;
      vals[nc] = a;
      ops[nc++] = (gpux_group_op)o;
    }
    if (nc == 0 || vals[nc - 1] != a) gpux_array_release(a);
  }
  for (int c = 0; c < nc; c++) res[c] = NULL;
  GT_OK(gpux_reduce_by_key(&kout, res, keys, vals, ops, nc));
  const size_t kes = gpux_dtype_size(kdt);
  unsigned char *wk = gt_malloc((size_t)(g.nu + 1) * kes);
  for (int64_t u = 0; u < g.nu; u++)
    memcpy(wk + u * kes, (const unsigned char *)k + g.perm[g.start[u]] * kes, kes);
  char label[160];
  snprintf(label, sizeof label, "reduce_by_key keys %s n=%lld", gt_dtype_str(kdt), (long long)n);
  read_check(label, kout, kdt, 1, &g.nu, wk);
  for (int c = 0; c < nc; c++) {
    gpux_dtype vdt, rdt;
    GT_OK(gpux_array_dtype(&vdt, vals[c]));
    GT_OK(gpux_group_result_dtype(&rdt, ops[c], vdt));
    int hi = 0;
    while (vdts[hi] != vdt) hi++;
    void *want = gt_malloc((size_t)(g.nu + 1) * 8);
    ref_agg(ops[c], vdt, rdt, host[hi], &g, want);
    char l2[220];
    snprintf(l2, sizeof l2, "%s: %s of %s", label, gpux_group_op_name(ops[c]), gt_dtype_str(vdt));
    gt_check_shape(res[c], rdt, 1, &g.nu, l2);
    int64_t m = 0;
    void *got = gt_read_all(res[c], &m);
    if (is_fl(rdt) && ops[c] != GPUX_GROUP_SUM)
      gt_compare_bits(l2, rdt, got, want, m); /* any NaN for any NaN */
    else
      check_bytes(l2, got, want, m, gpux_dtype_size(rdt));
    GT_FREE(got, want);
  }
  for (int c = 0; c < nc; c++) {
    gpux_array_release(res[c]);
    if (c + 1 == nc || vals[c + 1] != vals[c]) gpux_array_release(vals[c]);
  }
  for (int i = 0; i < NV; i++) free(host[i]);
  GT_RELEASE(keys, kout);
  free(wk);
  free(k);
  rg_free(&g);
}

static void test_reduce_by_key(void **state) {
  (void)state;
  static const gpux_dtype kdts[] = {GPUX_INT32, GPUX_INT64, GPUX_UINT8, GPUX_INT16,
                                    GPUX_FLOAT32, GPUX_FLOAT64, GPUX_BOOL, GPUX_UINT64};
  for (size_t d = 0; d < sizeof kdts / sizeof kdts[0]; d++)
    for (size_t s = 0; s < NSIZES; s++)
      if (gt_dtype_available(kdts[d]) && (k_sizes[s] < 70001 || d < 2))
        run_rbk(kdts[d], k_sizes[s], 500 + d * 17 + s);
}

static void test_group_errors(void **state) {
  (void)state;
  const int64_t n5 = 5, n4 = 4, sh2[2] = {2, 2};
  gpux_array_t k = NULL, v = NULL, v4 = NULL, m2 = NULL, cx = NULL, b = NULL;
  GT_OK(gpux_array_zeros(&k, gt_ctx, GPUX_INT32, 1, &n5));
  GT_OK(gpux_array_ones(&v, gt_ctx, GPUX_FLOAT32, 1, &n5));
  GT_OK(gpux_array_ones(&v4, gt_ctx, GPUX_FLOAT32, 1, &n4));
  GT_OK(gpux_array_zeros(&m2, gt_ctx, GPUX_INT32, 2, sh2));
  GT_OK(gpux_array_zeros(&cx, gt_ctx, GPUX_COMPLEX64, 1, &n5));
  GT_OK(gpux_array_zeros(&b, gt_ctx, GPUX_BOOL, 1, &n5));
  gpux_array_t o = (gpux_array_t)1, o2 = (gpux_array_t)1, r[2] = {NULL, NULL};
  /* unique */
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_unique(NULL, NULL, NULL, NULL, k));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_unique(&o, &o2, NULL, NULL, NULL));
  GT_ASSERT(o == NULL && o2 == NULL, "unique: outputs not NULL after an error");
  /* reduce_by_key */
  gpux_group_op sum = GPUX_GROUP_SUM, mean = GPUX_GROUP_MEAN, bad = (gpux_group_op)9;
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_by_key(&o, r, NULL, &v, &sum, 1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_by_key(&o, NULL, k, &v, &sum, 1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_by_key(&o, r, k, NULL, &sum, 1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_by_key(&o, r, k, &v, NULL, 1));
  gpux_array_t nullv = NULL;
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_reduce_by_key(&o, r, k, &nullv, &sum, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_reduce_by_key(&o, r, k, &v, &sum, -1));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_reduce_by_key(&o, r, k, &v4, &sum, 1));
  GT_ASSERT(strstr(gpux_last_error_message(), "values[0]") != NULL, "message: %s",
            gpux_last_error_message());
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_reduce_by_key(&o, r, m2, NULL, NULL, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_reduce_by_key(&o, r, v4, &m2, &sum, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_reduce_by_key(&o, r, k, &v, &bad, 1));
  GT_ASSERT(strstr(gpux_last_error_message(), "ops[0]") != NULL, "message: %s",
            gpux_last_error_message());
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_by_key(&o, r, cx, NULL, NULL, 0));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_by_key(&o, r, k, &cx, &sum, 1));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_by_key(&o, r, k, &b, &mean, 1));
  GT_ASSERT(strstr(gpux_last_error_message(), "values[0]") != NULL, "message: %s",
            gpux_last_error_message());
  GT_ASSERT(o == NULL && r[0] == NULL, "reduce_by_key: outputs not NULL after an error");
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_group_result_dtype(&(gpux_dtype){0}, bad, GPUX_INT32));
  GT_ASSERT(gpux_group_op_name(bad) == NULL && strcmp(gpux_group_op_name(sum), "sum") == 0,
            "op names");
  /* keys only (ncols 0): the unique keys */
  GT_OK(gpux_reduce_by_key(&o, NULL, k, NULL, NULL, 0));
  int64_t nu = 0;
  GT_OK(gpux_array_size(&nu, o));
  GT_ASSERT(nu == 1, "keys of zeros: %lld unique, want 1", (long long)nu);
  GT_RELEASE(o, k, v, v4, m2, cx, b);
  gt_smoke(gt_ctx);
}

int main(void) {
  gt_init("test_group");
  static const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unique),
      cmocka_unit_test(test_unique_forms),
      cmocka_unit_test(test_unique_complex),
      cmocka_unit_test(test_reduce_by_key),
      cmocka_unit_test(test_group_errors),
  };
  int failed = gt_run("group", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
