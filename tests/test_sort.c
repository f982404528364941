/* gpux tests: sort, argsort and sort by key (include/gpux/sort.h) against the plain-C
 * reference (tests/ref/ref_sort.c: a stable merge sort on the keys' images), bit for bit.
 * Every key dtype (complex: lexicographic, real part first), ascending and descending; random bits (NaNs with payloads, +-inf,
 * -0.0, subnormals), many equal keys (stability), sorted and reversed input; sizes 0, 1,
 * odd, 2^k +- 1, around the local-sort limit (2048) and several radix tiles; batched short
 * and long rows, axis 0 of 2-d arrays, a 3-d middle axis, 0-d; contiguous, strided and
 * reversed views as inputs; _into outputs poisoned (strided ones checked for writes outside
 * the view); sort by key with values of several dtypes; the Onesweep passes over rows of
 * several tiles and several portions; every error path. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_sort.h"
#include "test_util.h"

#define SORT_DT(dt, w, W, cls, em, mm, nan) (gpux_dtype)GPUX_KDT_##dt,
static const gpux_dtype k_dts[] = {GPUX_SORT_DTYPES(SORT_DT) GPUX_COMPLEX64, GPUX_COMPLEX128};
#define NDT ((int)(sizeof k_dts / sizeof k_dts[0]))
static char g_names[NDT][32];

enum { D_RANDOM, D_FEW, D_SORTED, D_REVERSED, D_KINDS };

/* n keys of dt: random bits with a special value or a repeat of an earlier key now and
 * then (D_RANDOM), three distinct keys (D_FEW), or D_RANDOM's keys sorted / reversed */
static void *make_keys(gpux_dtype dt, int64_t n, int kind, uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  unsigned char *x = gt_malloc((size_t)n * es + 1);
  unsigned char sp[64 * 16];
  const int64_t nsp = gt_special_values(sp, dt, 64);
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) {
    unsigned char *p = x + (size_t)i * es;
    const unsigned k = (unsigned)(gt_rng_u64(&r) % 8);
    if (kind == D_FEW) {
      memcpy(p, sp + (size_t)(gt_rng_u64(&r) % 3 % (uint64_t)nsp) * es, es);
    } else if (k == 0 && nsp) {
      memcpy(p, sp + (size_t)(gt_rng_u64(&r) % (uint64_t)nsp) * es, es);
    } else if (k <= 2 && i > 0) {
      memcpy(p, x + (size_t)(gt_rng_u64(&r) % (uint64_t)i) * es, es);
    } else {
      for (size_t b = 0; b < es; b++) p[b] = (unsigned char)gt_rng_u64(&r);
    }
    if (dt == GPUX_BOOL) p[0] &= 1;
  }
  if ((kind == D_SORTED || kind == D_REVERSED) && n > 0) {
    unsigned char *s = gt_malloc((size_t)n * es);
    ref_sort_keys(dt, 1, n, x, kind == D_REVERSED, s);
    free(x);
    x = s;
  }
  return x;
}

static void expect_bytes(const char *label, const void *got, const void *want, size_t es,
                         int64_t n) {
  if (n && memcmp(got, want, (size_t)n * es) != 0) {
    int64_t i = 0;
    while (!memcmp((const char *)got + (size_t)i * es, (const char *)want + (size_t)i * es, es)) i++;
    GT_FAIL("%s: element %" PRId64 " of %" PRId64 " differs", label, i, n);
  }
}

/* sort and argsort of the keys x (a view of layout lay), both orders, new and _into
 * (poisoned) outputs, against the reference; what names the data */
static void check_keys(gpux_dtype dt, int nd, const int64_t *shape, int axis, gt_layout lay,
                       const void *x, const char *what) {
  const size_t es = ref_dtype_size(dt);
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  void *wk = gt_malloc((size_t)n * es + 1), *gk = gt_malloc((size_t)n * es + 1);
  int64_t *wp = gt_malloc((size_t)n * 8 + 8), *gp = gt_malloc((size_t)n * 8 + 8);
  char label[160], sh[64];
  gt_view v;
  gt_view_make(&v, dt, nd, shape, lay, (void *)x);
  for (int desc = 0; desc < 2; desc++) {
    const unsigned fl = desc ? GPUX_SORT_DESCENDING : 0u;
    snprintf(label, sizeof label, "%s %s axis %d %s %s %s", gt_dtype_str(dt),
             gt_shape_str(sh, sizeof sh, nd, shape), axis, gt_layout_str(lay), what,
             desc ? "descending" : "ascending");
    ref_sort_along(dt, nd, shape, axis, x, desc, wk, wp);
    /* new results */
    gpux_array_t o = NULL, a = NULL;
    GT_OK(gpux_sort(&o, v.view, axis, fl));
    gt_check_shape(o, dt, nd, shape, label);
    int64_t cnt = 0;
    void *got = gt_read_all(o, &cnt);
    expect_bytes(label, got, wk, es, n);
    free(got);
    GT_OK(gpux_argsort(&a, v.view, axis, fl));
    gt_check_shape(a, GPUX_INT64, nd, shape, label);
    got = gt_read_all(a, &cnt);
    expect_bytes(label, got, wp, 8, n);
    free(got);
    GT_RELEASE(o, a);
    /* _into poisoned outputs of the same layout */
    gt_view ok, op;
    gt_view_make(&ok, dt, nd, shape, lay, NULL);
    gt_view_make(&op, GPUX_INT64, nd, shape, lay, NULL);
    GT_OK(gpux_sort_into(ok.view, v.view, axis, fl));
    GT_OK(gpux_argsort_into(op.view, v.view, axis, fl));
    gt_view_read(&ok, gk, label);
    expect_bytes(label, gk, wk, es, n);
    gt_view_read(&op, gp, label);
    expect_bytes(label, gp, wp, 8, n);
    gt_view_free(&ok);
    gt_view_free(&op);
  }
  gt_view_free(&v);
  free(wk);
  free(gk);
  free(wp);
  free(gp);
}

static void run_case(gpux_dtype dt, int nd, const int64_t *shape, int axis, gt_layout lay,
                     int kind, uint64_t seed) {
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  void *x = make_keys(dt, n, kind, seed);
  char what[64];
  const char *pt = getenv("GPUX_SORT_PORTION_TILES");
  snprintf(what, sizeof what, "data %d%s%s", kind, pt ? ", portions of tiles: " : "",
           pt ? pt : "");
  check_keys(dt, nd, shape, axis, lay, x, what);
  free(x);
}

static void test_dtype(void **state) {
  const gpux_dtype dt = *(const gpux_dtype *)state[0];
  if (!gt_dtype_available(dt)) return;
  static const int64_t lens[] = {0, 1, 2, 7, 33, 255, 257, 1000, 2047, 2048, 2049, 3 * 1024 + 5};
  uint64_t seed = 1000 * (uint64_t)dt;
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
    run_case(dt, 1, &lens[i], 0, (gt_layout)(i % 3), (int)(i % D_KINDS), ++seed);
  const int64_t s_short[2] = {37, 50}, s_long[2] = {3, 2500}, s_col[2] = {2500, 2},
                s3[3] = {4, 5, 6};
  run_case(dt, 2, s_short, 1, GT_CONTIG, D_RANDOM, ++seed);
  run_case(dt, 2, s_short, 0, GT_STRIDED, D_FEW, ++seed);
  run_case(dt, 2, s_long, -1, GT_REVERSED, D_RANDOM, ++seed);
  run_case(dt, 2, s_col, 0, GT_CONTIG, D_RANDOM, ++seed);
  run_case(dt, 3, s3, 1, GT_STRIDED, D_RANDOM, ++seed);
  run_case(dt, 0, NULL, 0, GT_CONTIG, D_RANDOM, ++seed);
  run_case(dt, 0, NULL, -1, GT_CONTIG, D_RANDOM, ++seed);
}

/* sort by key: keys float32 with ties, -0.0 and NaNs; values int32, complex128, float16 */
static void test_by_key(void **state) {
  (void)state;
  static const gpux_dtype vdt[3] = {GPUX_INT32, GPUX_COMPLEX128, GPUX_FLOAT16};
  const int64_t shapes[3][2] = {{40, 30}, {3, 3000}, {1, 1}};
  const int axes[3] = {1, -1, 0};
  for (int c = 0; c < 3; c++)
    for (int desc = 0; desc < 2; desc++) {
      const int64_t *shape = shapes[c];
      const int64_t n = shape[0] * shape[1];
      const int axis = axes[c] < 0 ? 1 : axes[c];
      void *x = make_keys(GPUX_FLOAT32, n, c == 0 ? D_FEW : D_RANDOM, 77 + (uint64_t)c);
      void *vals[3];
      gt_view vv[3], kv, ko, vo[3];
      gt_view_make(&kv, GPUX_FLOAT32, 2, shape, (gt_layout)c, x);
      gpux_array_t vin[3], vout_new[3] = {0}, vout_into[3];
      for (int i = 0; i < 3; i++) {
        vals[i] = gt_malloc((size_t)n * ref_dtype_size(vdt[i]) + 1);
        gt_fill_random(vals[i], vdt[i], n, 0, 5 + (uint64_t)i);
        gt_view_make(&vv[i], vdt[i], 2, shape, (gt_layout)((c + i) % 3), vals[i]);
        vin[i] = vv[i].view;
        gt_view_make(&vo[i], vdt[i], 2, shape, (gt_layout)i, NULL);
        vout_into[i] = vo[i].view;
      }
      gt_view_make(&ko, GPUX_FLOAT32, 2, shape, GT_STRIDED, NULL);
      int64_t *perm = gt_malloc((size_t)n * 8), *mp = gt_malloc((size_t)n * 8);
      void *mk = gt_malloc((size_t)n * 4);
      ref_sort_along(GPUX_FLOAT32, 2, shape, axis, x, desc, mk, perm);
      const unsigned fl = desc ? GPUX_SORT_DESCENDING : 0u;
      gpux_array_t kn = NULL;
      GT_OK(gpux_sort_by_key(&kn, vout_new, kv.view, vin, 3, axes[c], fl));
      GT_OK(gpux_sort_by_key_into(ko.view, vout_into, kv.view, vin, 3, axes[c], fl));
      char label[96];
      /* want: the arrays gathered by perm along the axis */
      for (int i = -1; i < 3; i++) {
        const gpux_dtype dt = i < 0 ? GPUX_FLOAT32 : vdt[i];
        const size_t es = ref_dtype_size(dt);
        const unsigned char *src = i < 0 ? x : vals[i];
        unsigned char *want = gt_malloc((size_t)n * es), *got = gt_malloc((size_t)n * es);
        for (int64_t r = 0; r < shape[0]; r++)
          for (int64_t j = 0; j < shape[1]; j++) {
            const int64_t o = r * shape[1] + j, p = perm[o];
            const int64_t from = axis == 1 ? r * shape[1] + p : p * shape[1] + j;
            memcpy(want + (size_t)o * es, src + (size_t)from * es, es);
          }
        snprintf(label, sizeof label, "by_key case %d %s array %d", c, desc ? "desc" : "asc", i);
        int64_t cnt = 0;
        void *g2 = gt_read_all(i < 0 ? kn : vout_new[i], &cnt);
        expect_bytes(label, g2, want, es, n);
        free(g2);
        gt_view_read(i < 0 ? &ko : &vo[i], got, label);
        expect_bytes(label, got, want, es, n);
        free(want);
        free(got);
      }
      /* keys_out not wanted */
      gpux_array_t only[1] = {NULL};
      GT_OK(gpux_sort_by_key(NULL, only, kv.view, vin, 1, axes[c], fl));
      gpux_array_release(only[0]);
      GT_RELEASE(kn, vout_new[0], vout_new[1], vout_new[2]);
      for (int i = 0; i < 3; i++) {
        gt_view_free(&vv[i]);
        gt_view_free(&vo[i]);
        free(vals[i]);
      }
      gt_view_free(&kv);
      gt_view_free(&ko);
      free(x);
      free(perm);
      free(mp);
      free(mk);
    }
}

/* sort by key of 1-d arrays (the gather is a take there): float64 keys, int8 and complex64
 * values, both orders, a strided keys view */
static void test_by_key_1d(void **state) {
  (void)state;
  const int64_t n = 5000;
  void *x = make_keys(GPUX_FLOAT64, n, D_RANDOM, 91);
  unsigned char *v8 = gt_malloc((size_t)n), *vc = gt_malloc((size_t)n * 8);
  gt_fill_random(v8, GPUX_INT8, n, 0, 92);
  gt_fill_random(vc, GPUX_COMPLEX64, n, 0, 93);
  gt_view kv;
  gt_view_make(&kv, GPUX_FLOAT64, 1, &n, GT_STRIDED, x);
  gpux_array_t vin[2] = {NULL, NULL};
  GT_OK(gpux_array_from_host(&vin[0], gt_ctx, GPUX_INT8, 1, &n, v8));
  GT_OK(gpux_array_from_host(&vin[1], gt_ctx, GPUX_COMPLEX64, 1, &n, vc));
  int64_t *perm = gt_malloc((size_t)n * 8);
  for (int desc = 0; desc < 2; desc++) {
    ref_sort_along(GPUX_FLOAT64, 1, &n, 0, x, desc, NULL, perm);
    gpux_array_t k = NULL, vo[2] = {NULL, NULL};
    GT_OK(gpux_sort_by_key(&k, vo, kv.view, vin, 2, -1, desc ? GPUX_SORT_DESCENDING : 0u));
    const void *src[3] = {x, v8, vc};
    const gpux_array_t res[3] = {k, vo[0], vo[1]};
    const size_t es[3] = {8, 1, 8};
    for (int a = 0; a < 3; a++) {
      unsigned char *want = gt_malloc((size_t)n * es[a]);
      for (int64_t i = 0; i < n; i++)
        memcpy(want + (size_t)i * es[a], (const unsigned char *)src[a] + (size_t)perm[i] * es[a], es[a]);
      int64_t cnt = 0;
      void *got = gt_read_all(res[a], &cnt);
      expect_bytes(desc ? "by_key 1-d descending" : "by_key 1-d", got, want, es[a], n);
      free(got);
      free(want);
    }
    GT_RELEASE(k, vo[0], vo[1]);
  }
  GT_RELEASE(vin[0], vin[1]);
  gt_view_free(&kv);
  free(perm);
  free(x);
  free(v8);
  free(vc);
}

/* Sort by key with one value array of 4-byte elements under integer or bool keys on the
 * radix path: the values ride the passes in the positions' place (src/api/sort.c). Keys kdt
 * (kind: make_keys'), values vdt (random bits, NaN payloads included for float32), shape
 * (2-d), along axis, keys and values as views of layouts klay / (klay + 1) % 3; new and
 * _into (strided, poisoned) outputs, keys_out left out too; against the reference. */
static void payload_case(gpux_dtype kdt, gpux_dtype vdt, const int64_t *shape, int axis,
                         gt_layout klay, int kind, uint64_t seed) {
  const int64_t n = shape[0] * shape[1];
  const int ax = axis < 0 ? 1 : axis;
  const size_t ks = ref_dtype_size(kdt);
  void *x = make_keys(kdt, n, kind, seed);
  uint32_t *v = gt_malloc((size_t)n * 4);
  gt_rng r;
  gt_rng_seed(&r, seed + 1);
  for (int64_t i = 0; i < n; i++) v[i] = (uint32_t)gt_rng_u64(&r); /* any bits: NaNs too */
  gt_view kv, vv, ko, vo;
  gt_view_make(&kv, kdt, 2, shape, klay, x);
  gt_view_make(&vv, vdt, 2, shape, (gt_layout)((klay + 1) % 3), v);
  int64_t *perm = gt_malloc((size_t)n * 8);
  unsigned char *wk = gt_malloc((size_t)n * ks + 1);
  uint32_t *wv = gt_malloc((size_t)n * 4);
  for (int desc = 0; desc < 2; desc++) {
    ref_sort_along(kdt, 2, shape, ax, x, desc, NULL, perm);
    for (int64_t i = 0; i < shape[0]; i++)
      for (int64_t j = 0; j < shape[1]; j++) {
        const int64_t o = i * shape[1] + j, p = perm[o];
        const int64_t from = ax == 1 ? i * shape[1] + p : p * shape[1] + j;
        memcpy(wk + (size_t)o * ks, (const unsigned char *)x + (size_t)from * ks, ks);
        wv[o] = v[from];
      }
    const unsigned fl = desc ? GPUX_SORT_DESCENDING : 0u;
    char label[96];
    snprintf(label, sizeof label, "payload %s keys, %s values, axis %d%s", gt_dtype_str(kdt),
             gt_dtype_str(vdt), axis, desc ? ", descending" : "");
    gpux_array_t kn = NULL, vn[1] = {NULL}, vonly[1] = {NULL};
    const gpux_array_t vin[1] = {vv.view};
    GT_OK(gpux_sort_by_key(&kn, vn, kv.view, vin, 1, axis, fl));
    void *g = gt_read_all(kn, NULL);
    expect_bytes(label, g, wk, ks, n);
    free(g);
    g = gt_read_all(vn[0], NULL);
    expect_bytes(label, g, wv, 4, n);
    free(g);
    GT_OK(gpux_sort_by_key(NULL, vonly, kv.view, vin, 1, axis, fl));
    g = gt_read_all(vonly[0], NULL);
    expect_bytes(label, g, wv, 4, n);
    free(g);
    gt_view_make(&ko, kdt, 2, shape, GT_STRIDED, NULL);
    gt_view_make(&vo, vdt, 2, shape, GT_REVERSED, NULL);
    const gpux_array_t vout[1] = {vo.view};
    GT_OK(gpux_sort_by_key_into(ko.view, vout, kv.view, vin, 1, axis, fl));
    unsigned char *got = gt_malloc((size_t)n * (ks > 4 ? ks : 4));
    gt_view_read(&ko, got, label);
    expect_bytes(label, got, wk, ks, n);
    gt_view_read(&vo, got, label);
    expect_bytes(label, got, wv, 4, n);
    free(got);
    gt_view_free(&ko);
    gt_view_free(&vo);
    GT_RELEASE(kn, vn[0], vonly[0]);
  }
  gt_view_free(&kv);
  gt_view_free(&vv);
  GT_FREE(x, v, perm, wk, wv);
}

/* The Onesweep passes (rows longer than GPUX_SORT_LOCAL_MAX): rows of several tiles with a
 * partial last one (tiles of 4096 keys for 32-bit images, 2048 for 64-bit ones), 3 rows;
 * three distinct keys (stability across tiles); a digit that varies in some rows only; and
 * portions of 1 and 2 tiles (GPUX_SORT_PORTION_TILES, a test knob of src/api/sort.c), so
 * that the counts of earlier portions place the keys. */
static void onesweep_cases(uint64_t seed) {
  const int64_t l32 = 3 * 4096 + 17, l64 = 2 * 2048 + 5;
  const int64_t s32[2] = {3, l32}, s64[2] = {3, l64};
  run_case(GPUX_FLOAT32, 2, s32, 1, GT_CONTIG, D_RANDOM, seed + 1);
  run_case(GPUX_INT32, 2, s32, -1, GT_STRIDED, D_FEW, seed + 2);
  run_case(GPUX_UINT16, 2, s32, 1, GT_CONTIG, D_FEW, seed + 3);
  run_case(GPUX_FLOAT64, 2, s64, 1, GT_REVERSED, D_RANDOM, seed + 4);
  run_case(GPUX_INT64, 2, s64, 1, GT_CONTIG, D_FEW, seed + 5);
  /* uint32: row 0 varies in byte 0 only, row 1 in byte 2 only, row 2 in every byte */
  uint32_t *x = gt_malloc((size_t)(3 * l32) * 4);
  gt_rng r;
  gt_rng_seed(&r, seed + 6);
  for (int64_t i = 0; i < l32; i++) {
    const uint32_t v = (uint32_t)gt_rng_u64(&r);
    x[i] = 0x12345600u | (v & 0xffu);
    x[l32 + i] = 0x12005678u | (v & 0xff0000u);
    x[2 * l32 + i] = v % 5 ? v : 7u;
  }
  check_keys(GPUX_UINT32, 2, s32, 1, GT_CONTIG, x, "digits of some rows");
  free(x);
  /* sort by key, int32 values carried */
  const int64_t n = 3 * l32;
  void *k = make_keys(GPUX_FLOAT32, n, D_FEW, seed + 7);
  int32_t *v = gt_malloc((size_t)n * 4), *want = gt_malloc((size_t)n * 4);
  for (int64_t i = 0; i < n; i++) v[i] = (int32_t)(i * 7919);
  int64_t *perm = gt_malloc((size_t)n * 8);
  gpux_array_t ka = NULL, va = NULL, ko = NULL, vo[1] = {NULL};
  GT_OK(gpux_array_from_host(&ka, gt_ctx, GPUX_FLOAT32, 2, s32, k));
  GT_OK(gpux_array_from_host(&va, gt_ctx, GPUX_INT32, 2, s32, v));
  for (int desc = 0; desc < 2; desc++) {
    ref_sort_along(GPUX_FLOAT32, 2, s32, 1, k, desc, NULL, perm);
    for (int64_t i = 0; i < n; i++) want[i] = v[(i / l32) * l32 + perm[i]];
    const gpux_array_t vin[1] = {va};
    GT_OK(gpux_sort_by_key(&ko, vo, ka, vin, 1, -1, desc ? GPUX_SORT_DESCENDING : 0u));
    int64_t cnt = 0;
    void *got = gt_read_all(vo[0], &cnt);
    expect_bytes(desc ? "onesweep by_key descending" : "onesweep by_key", got, want, 4, n);
    free(got);
    GT_RELEASE(ko, vo[0]);
  }
  GT_RELEASE(ka, va);
  free(k);
  free(v);
  free(want);
  free(perm);
  /* one 4-byte value array under integer keys: carried by the passes themselves */
  const int64_t t32[2] = {l32, 3}, one[2] = {1, l32};
  payload_case(GPUX_INT32, GPUX_FLOAT32, s32, -1, GT_CONTIG, D_RANDOM, seed + 8);
  payload_case(GPUX_INT32, GPUX_UINT32, t32, 0, GT_STRIDED, D_FEW, seed + 9);
  payload_case(GPUX_INT64, GPUX_INT32, s64, 1, GT_REVERSED, D_RANDOM, seed + 10);
  payload_case(GPUX_UINT8, GPUX_FLOAT32, s32, -1, GT_CONTIG, D_FEW, seed + 11);
  payload_case(GPUX_BOOL, GPUX_INT32, one, -1, GT_CONTIG, D_RANDOM, seed + 12);
  { /* integer keys under two value arrays: the sort that makes the positions writes the
     * keys too (the last pass both: kout and pos64), the values gathered */
    const int64_t m = 3 * l64;
    void *kx = make_keys(GPUX_INT64, m, D_FEW, seed + 13);
    int32_t *v0 = gt_malloc((size_t)m * 4), *v1 = gt_malloc((size_t)m * 4);
    int32_t *w0 = gt_malloc((size_t)m * 4), *w1 = gt_malloc((size_t)m * 4);
    int64_t *wk = gt_malloc((size_t)m * 8), *pk = gt_malloc((size_t)m * 8);
    for (int64_t i = 0; i < m; i++) v0[i] = (int32_t)(i * 7919), v1[i] = (int32_t)-i;
    gpux_array_t kb = NULL, vb[2] = {NULL, NULL}, kq = NULL, vq[2] = {NULL, NULL};
    GT_OK(gpux_array_from_host(&kb, gt_ctx, GPUX_INT64, 2, s64, kx));
    GT_OK(gpux_array_from_host(&vb[0], gt_ctx, GPUX_INT32, 2, s64, v0));
    GT_OK(gpux_array_from_host(&vb[1], gt_ctx, GPUX_INT32, 2, s64, v1));
    for (int desc = 0; desc < 2; desc++) {
      ref_sort_along(GPUX_INT64, 2, s64, 1, kx, desc, NULL, pk);
      for (int64_t i = 0; i < m; i++) {
        const int64_t from = (i / l64) * l64 + pk[i];
        wk[i] = ((const int64_t *)kx)[from];
        w0[i] = v0[from];
        w1[i] = v1[from];
      }
      GT_OK(gpux_sort_by_key(&kq, vq, kb, vb, 2, -1, desc ? GPUX_SORT_DESCENDING : 0u));
      const char *label = desc ? "int64 keys, two value arrays, descending"
                               : "int64 keys, two value arrays";
      void *g = gt_read_all(kq, NULL);
      expect_bytes(label, g, wk, 8, m);
      free(g);
      g = gt_read_all(vq[0], NULL);
      expect_bytes(label, g, w0, 4, m);
      free(g);
      g = gt_read_all(vq[1], NULL);
      expect_bytes(label, g, w1, 4, m);
      free(g);
      GT_RELEASE(kq, vq[0], vq[1]);
    }
    GT_RELEASE(kb, vb[0], vb[1]);
    GT_FREE(kx, v0, v1, w0, w1, wk, pk);
  }
  { /* every key equal: no pass runs, the values come back as they were */
    int32_t *z = gt_malloc((size_t)l32 * 4), *zv = gt_malloc((size_t)l32 * 4);
    for (int64_t i = 0; i < l32; i++) {
      z[i] = -5;
      zv[i] = (int32_t)(i * 2654435761u);
    }
    gpux_array_t za = NULL, zva = NULL, zo = NULL, zvo[1] = {NULL};
    GT_OK(gpux_array_from_host(&za, gt_ctx, GPUX_INT32, 1, &l32, z));
    GT_OK(gpux_array_from_host(&zva, gt_ctx, GPUX_INT32, 1, &l32, zv));
    const gpux_array_t zin[1] = {zva};
    GT_OK(gpux_sort_by_key(&zo, zvo, za, zin, 1, -1, GPUX_SORT_DESCENDING));
    void *g = gt_read_all(zvo[0], NULL);
    expect_bytes("payload, one key", g, zv, 4, l32);
    free(g);
    g = gt_read_all(zo, NULL);
    expect_bytes("payload, one key (keys)", g, z, 4, l32);
    free(g);
    GT_RELEASE(za, zva, zo, zvo[0]);
    GT_FREE(z, zv);
  }
  { /* keys-only: every key equal (no pass: IMG makes the images that OUT reads) */
    float *c = gt_malloc((size_t)l32 * 4);
    for (int64_t i = 0; i < l32; i++) c[i] = 2.5f;
    check_keys(GPUX_FLOAT32, 1, &l32, 0, GT_CONTIG, c, "every key equal");
    free(c);
  }
  /* in place: one pass (it would read keys it has overwritten, were they not imaged
   * first) and four */
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k ? GPUX_FLOAT32 : GPUX_UINT8;
    const size_t es = ref_dtype_size(dt);
    void *x = make_keys(dt, n, D_RANDOM, seed + 13 + (uint64_t)k), *w = gt_malloc((size_t)n * es);
    ref_sort_along(dt, 2, s32, 1, x, 1, w, NULL);
    gpux_array_t a = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 2, s32, x));
    GT_OK(gpux_sort_into(a, a, -1, GPUX_SORT_DESCENDING));
    void *g = gt_read_all(a, NULL);
    expect_bytes(k ? "in place, four passes" : "in place, one pass", g, w, es, n);
    GT_RELEASE(a);
    GT_FREE(g, x, w);
  }
}

static void test_onesweep(void **state) {
  (void)state;
  onesweep_cases(500);
  static const char *const pt[2] = {"1", "2"};
  for (int i = 0; i < 2; i++) {
    setenv("GPUX_SORT_PORTION_TILES", pt[i], 1);
    onesweep_cases(600 + 100 * (uint64_t)i);
    unsetenv("GPUX_SORT_PORTION_TILES");
  }
  /* the benchmark knob's path: IMGH's images, OUT and WIDEN instead of the fused ends */
  setenv("GPUX_SORT_FUSED", "0", 1);
  onesweep_cases(800);
  unsetenv("GPUX_SORT_FUSED");
}

static void usable(void) { gt_smoke(gt_ctx); }

static void test_errors(void **state) {
  (void)state;
  const int64_t s23[2] = {2, 3}, s32[2] = {3, 2};
  gpux_array_t x = NULL, o = NULL, f64 = NULL, i32 = NULL, o32 = NULL, cx = NULL, i64 = NULL,
               v = NULL;
  GT_OK(gpux_array_ones(&x, gt_ctx, GPUX_FLOAT32, 2, s23));
  GT_OK(gpux_array_ones(&f64, gt_ctx, GPUX_FLOAT64, 2, s23));
  GT_OK(gpux_array_ones(&i32, gt_ctx, GPUX_INT32, 2, s23));
  GT_OK(gpux_array_ones(&i64, gt_ctx, GPUX_INT64, 2, s23));
  GT_OK(gpux_array_ones(&o32, gt_ctx, GPUX_FLOAT32, 2, s32));
  GT_OK(gpux_array_zeros(&cx, gt_ctx, GPUX_COMPLEX64, 2, s23));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort(NULL, x, -1, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort(&o, NULL, -1, 0));
  GT_ASSERT(o == NULL, "a failed call leaves *out NULL");
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort_into(NULL, x, -1, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_argsort(NULL, x, -1, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_argsort_into(i64, NULL, -1, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_sort(&o, x, 2, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_argsort(&o, x, -3, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_sort(&o, x, -1, 2u));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_sort_into(x, cx, -1, 0));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_sort_into(f64, x, -1, 0));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_argsort_into(i32, x, -1, 0));
  GT_EXPECT_SHAPES(gpux_sort_into(o32, x, -1, 0), 2, s32, 2, s23);
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_argsort_into(i64, i64, -1, 0));
  {
    const int64_t s12 = 12, z = 0, one = 1, six = 6, three = 3;
    gpux_array_t big = NULL, lo = NULL, mid = NULL;
    GT_OK(gpux_array_ones(&big, gt_ctx, GPUX_FLOAT32, 1, &s12));
    GT_OK(gpux_array_slice(&lo, big, &z, &six, &one));
    const int64_t nine = 9;
    GT_OK(gpux_array_slice(&mid, big, &three, &nine, &one));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_sort_into(mid, lo, -1, 0));
    GT_OK(gpux_sort_into(lo, lo, -1, 0)); /* in place */
    GT_RELEASE(mid, lo, big);
  }
  /* sort by key */
  gpux_array_t vo[1] = {NULL}, vin[1] = {o32}, vnull[1] = {NULL}, ko = NULL;
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort_by_key(&ko, vo, NULL, vin, 1, -1, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort_by_key(&ko, vo, x, NULL, 1, -1, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort_by_key(&ko, vo, x, vnull, 1, -1, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort_by_key(NULL, NULL, x, NULL, 0, -1, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_sort_by_key(&ko, vo, x, vin, -1, -1, 0));
  GT_EXPECT_SHAPES(gpux_sort_by_key(&ko, vo, x, vin, 1, -1, 0), 2, s32, 2, s23);
  GT_ASSERT(ko == NULL && vo[0] == NULL, "a failed call leaves the outputs NULL");
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_sort_by_key(&ko, NULL, x, NULL, 0, 5, 0));
  {
    gpux_array_t vi[1] = {i32}, vbad[1] = {f64};
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_sort_by_key_into(NULL, vbad, x, vi, 1, -1, 0));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_sort_by_key_into(i32, NULL, x, NULL, 0, -1, 0));
    GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_sort_by_key_into(NULL, NULL, x, vi, 1, -1, 0));
    GT_OK(gpux_array_ones(&v, gt_ctx, GPUX_INT32, 2, s23));
    gpux_array_t vok[1] = {v};
    GT_OK(gpux_sort_by_key_into(NULL, vok, x, vi, 1, -1, 0));
  }
  /* contexts */
  gpux_context_t c2 = gt_context_new();
  gpux_array_t other = NULL;
  GT_OK(gpux_array_ones(&other, c2, GPUX_FLOAT32, 2, s23));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_sort_into(other, x, -1, 0));
  {
    gpux_array_t vi[1] = {other};
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_sort_by_key(&ko, vo, x, vi, 1, -1, 0));
  }
  gpux_array_release(other);
  gpux_context_release(c2);
  usable();
  GT_OK(gpux_sort(&o, x, -1, GPUX_SORT_DESCENDING));
  GT_RELEASE(o, x, f64, i32, o32, cx, i64, v);
}

int main(void) {
  gt_init("test_sort");
  struct CMUnitTest tests[NDT + 4];
  int nt = 0;
  for (int i = 0; i < NDT; i++) {
    snprintf(g_names[i], sizeof g_names[i], "sort_%s", gt_dtype_str(k_dts[i]));
    tests[nt++] = (struct CMUnitTest){g_names[i], test_dtype, NULL, NULL, (void *)&k_dts[i]};
  }
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_by_key);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_onesweep);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_by_key_1d);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_errors);
  int failed = gt_run("sort", tests, (size_t)nt);
  gt_shutdown();
  return failed ? 1 : 0;
}
