/* gpux tests: issue 24's data movement and issue 25's order give the same bits on CUDA, OpenCL
 * (a GPU when there is one) and, where the machine has one, a second OpenCL device that is a
 * CPU (pocl): in one process every context runs the same calls on the same host data -- take,
 * put with repeated indices (the last write wins), compress and nonzero, scatter-add (exact
 * sums rounded once), scatter-max / -min with NaN and signed zeros, weighted bincount and
 * histogram; sort, argsort and sort by key (short and long rows, both orders, ties, NaN and
 * signed zeros), top-k, partition, median, quantile, searchsorted, unique with its index /
 * inverse / counts, reduce_by_key -- over float32, float64, float16, complex64 and int32
 * (int64 and bool too for the order), with many values per target, and the device bytes are
 * compared with memcmp. Exits 77 (skip) unless CUDA and OpenCL both have a device.
 * Not a cmocka binary: plain checks, a summary, exit 1 on any difference. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpux.h"
#include "gpux/count.h"
#include "gpux/group.h"
#include "gpux/index.h"
#include "gpux/mask.h"
#include "gpux/select.h"
#include "gpux/sort.h"
#include "test_util.h"
#include "xbackend_util.h"

#define MAXCTX 3
static int g_fail = 0, g_checks = 0;
static gpux_context_t g_ctx[MAXCTX];
static const char *g_name[MAXCTX] = {"CUDA", "OpenCL", "OpenCL CPU"};
static int g_nctx = 0, g_fp64 = 1;

static uint64_t g_seed = 0x9e3779b97f4a7c15ull;
static uint64_t next64(void) {
  g_seed ^= g_seed << 13;
  g_seed ^= g_seed >> 7;
  g_seed ^= g_seed << 17;
  return g_seed;
}

/* An array on context k from host bytes. */
static gpux_array_t up(int k, gpux_dtype dt, int ndim, const int64_t *shape, const void *h) {
  gpux_array_t a = NULL;
  CHECK(gpux_array_from_host(&a, g_ctx[k], dt, ndim, shape, h));
  return a;
}
/* Reads a whole array into a fresh host buffer, *bytes its size; releases it. */
static void *down(gpux_array_t a, size_t *bytes) {
  int64_t n = 0;
  gpux_dtype dt;
  CHECK(gpux_array_size(&n, a));
  CHECK(gpux_array_dtype(&dt, a));
  *bytes = (size_t)n * gpux_dtype_size(dt);
  void *h = xmalloc(*bytes);
  if (*bytes) CHECK(gpux_array_read(a, h, *bytes));
  gpux_array_release(a);
  return h;
}

/* Compares the results of every context with the first one's. */
static void same(const char *what, gpux_dtype dt, void **res, const size_t *bytes) {
  for (int k = 1; k < g_nctx; k++) {
    g_checks++;
    if (bytes[k] != bytes[0] || memcmp(res[0], res[k], bytes[0])) {
      size_t es = gpux_dtype_size(dt), first = 0;
      while (first < bytes[0] && first < bytes[k] &&
             !memcmp((char *)res[0] + first, (char *)res[k] + first, es))
        first += es;
      printf("DIFFER  %s %s: %s vs %s (%zu vs %zu bytes; first at element %zu", what,
             gpux_dtype_name(dt), g_name[0], g_name[k], bytes[0], bytes[k], first / es);
      /* the two elements' bytes, most significant first (little-endian hosts) */
      if (first + es <= bytes[0] && first + es <= bytes[k])
        for (int side = 0; side < 2; side++) {
          const unsigned char *p = (const unsigned char *)res[side ? k : 0] + first;
          printf(side ? " vs 0x" : ": 0x");
          for (size_t b = es; b-- > 0;) printf("%02x", p[b]);
        }
      printf(")\n");
      g_fail++;
    }
  }
  for (int k = 0; k < g_nctx; k++) free(res[k]);
}

/* Host values of dt: mixed magnitudes and signs, a few NaN / -0.0 for floats when specials. */
static void *values(gpux_dtype dt, int64_t n, int specials) {
  void *h = xmalloc((size_t)n * gpux_dtype_size(dt));
  gt_fill_random(h, dt, n, GT_DOM_ANY, next64());
  if (specials && (dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64))
    for (int64_t i = 0; i < n; i += 997) {
      const int kind = (int)(next64() % 3);
      if (dt == GPUX_FLOAT32) ((float *)h)[i] = kind == 0 ? NAN : kind == 1 ? -0.0f : 0.0f;
      else ((double *)h)[i] = kind == 0 ? NAN : kind == 1 ? -0.0 : 0.0;
    }
  return h;
}
static int64_t *indices(int64_t n, int64_t range, int negative) {
  int64_t *h = xmalloc((size_t)n * sizeof *h);
  for (int64_t i = 0; i < n; i++) {
    h[i] = (int64_t)(next64() % (uint64_t)range);
    if (negative && (next64() & 1)) h[i] -= range; /* the same element, counted from the end */
  }
  return h;
}

static void scatter_case(gpux_scatter_op op, gpux_dtype dt, int64_t n, int64_t targets, int axis) {
  const int64_t shape2[2] = {targets, 3};
  const int64_t m = axis == GPUX_ALL_AXES ? n : n / 3;
  void *init = values(dt, targets * 3, op != GPUX_SCATTER_ADD);
  void *vals = values(dt, axis == GPUX_ALL_AXES ? n : m * 3, op != GPUX_SCATTER_ADD);
  int64_t *idx = indices(m, axis == GPUX_ALL_AXES ? targets * 3 : targets, 1);
  void *res[MAXCTX];
  size_t bytes[MAXCTX];
  for (int k = 0; k < g_nctx; k++) {
    gpux_array_t a = up(k, dt, 2, shape2, init), iv, vv;
    const int64_t vshape[2] = {m, 3};
    iv = up(k, GPUX_INT64, 1, &m, idx);
    vv = axis == GPUX_ALL_AXES ? up(k, dt, 1, &m, vals) : up(k, dt, 2, vshape, vals);
    CHECK(gpux_scatter(a, op, iv, vv, axis, GPUX_INDEX_CHECKED));
    gpux_array_release(iv);
    gpux_array_release(vv);
    res[k] = down(a, &bytes[k]);
  }
  char what[96];
  snprintf(what, sizeof what, "scatter op %d, %" PRId64 " values into %" PRId64 " rows, axis %d",
           (int)op, n, targets, axis);
  same(what, dt, res, bytes);
  free(init);
  free(vals);
  free(idx);
}

static void bincount_case(gpux_dtype wdt, int64_t n, int64_t bins) {
  int64_t *x = indices(n, bins, 0);
  void *w = values(wdt, n, 0);
  void *res[MAXCTX], *cnt[MAXCTX];
  size_t bytes[MAXCTX], cbytes[MAXCTX];
  for (int k = 0; k < g_nctx; k++) {
    gpux_array_t xv = up(k, GPUX_INT64, 1, &n, x), wv = up(k, wdt, 1, &n, w), o = NULL, c = NULL;
    CHECK(gpux_bincount(&o, xv, wv, bins));
    CHECK(gpux_bincount(&c, xv, NULL, 0));
    res[k] = down(o, &bytes[k]);
    cnt[k] = down(c, &cbytes[k]);
    gpux_array_release(xv);
    gpux_array_release(wv);
  }
  same("bincount, weights", wdt, res, bytes);
  same("bincount, counts", GPUX_INT64, cnt, cbytes);
  free(x);
  free(w);
}

static void histogram_case(gpux_dtype dt, int64_t n) {
  void *x = values(dt, n, 0), *w = values(dt, n, 0);
  void *res[MAXCTX];
  size_t bytes[MAXCTX];
  for (int k = 0; k < g_nctx; k++) {
    gpux_array_t xv = up(k, dt, 1, &n, x), wv = up(k, dt, 1, &n, w), o = NULL;
    CHECK(gpux_histogram(&o, xv, 257, -500.0, 700.0, wv));
    res[k] = down(o, &bytes[k]);
    gpux_array_release(xv);
    gpux_array_release(wv);
  }
  same("histogram, 257 bins, weights", dt, res, bytes);
  free(x);
  free(w);
}

static void gather_case(gpux_dtype dt, int64_t n) {
  void *src = values(dt, n, 0), *vals = values(dt, n / 2, 0);
  int64_t *idx = indices(n, n, 1), *pidx = indices(n / 2, n / 7 + 1, 1);
  uint8_t *mask = xmalloc((size_t)n);
  for (int64_t i = 0; i < n; i++) mask[i] = (uint8_t)(next64() % 3 == 0);
  void *tk[MAXCTX], *pt[MAXCTX], *cp[MAXCTX], *nz[MAXCTX];
  size_t btk[MAXCTX], bpt[MAXCTX], bcp[MAXCTX], bnz[MAXCTX];
  const int64_t half = n / 2;
  for (int k = 0; k < g_nctx; k++) {
    gpux_array_t s = up(k, dt, 1, &n, src), iv = up(k, GPUX_INT64, 1, &n, idx), o = NULL;
    gpux_array_t mv = up(k, GPUX_BOOL, 1, &n, mask), pv = up(k, GPUX_INT64, 1, &half, pidx);
    gpux_array_t vv = up(k, dt, 1, &half, vals), c = NULL, z[1] = {NULL};
    CHECK(gpux_take(&o, s, iv, GPUX_ALL_AXES, GPUX_INDEX_CHECKED));
    tk[k] = down(o, &btk[k]);
    CHECK(gpux_compress(&c, s, mv));
    cp[k] = down(c, &bcp[k]);
    CHECK(gpux_nonzero(z, mv));
    nz[k] = down(z[0], &bnz[k]);
    CHECK(gpux_put(s, pv, vv, GPUX_INDEX_CHECKED)); /* many repeats: the last write wins */
    pt[k] = down(s, &bpt[k]);
    gpux_array_release(iv);
    gpux_array_release(mv);
    gpux_array_release(pv);
    gpux_array_release(vv);
  }
  same("take, random indices", dt, tk, btk);
  same("compress", dt, cp, bcp);
  same("nonzero", GPUX_INT64, nz, bnz);
  same("put, repeated indices", dt, pt, bpt);
  free(src);
  free(vals);
  free(idx);
  free(pidx);
  free(mask);
}

/* Keys of dt with ties (every fourth element repeats an earlier one) and, for floats, NaN and
 * signed zeros. */
static void *order_keys(gpux_dtype dt, int64_t n) {
  char *h = values(dt, n, 1);
  const size_t es = gpux_dtype_size(dt);
  for (int64_t i = 3; i < n; i += 4) memcpy(h + (size_t)i * es, h + (size_t)(i / 3) * es, es);
  return h;
}

/* The order family on rows x len keys: each call's result from every context, compared. */
static void order_case(gpux_dtype dt, int64_t rows, int64_t len) {
  const int64_t shape[2] = {rows, len}, n = rows * len;
  const int cplx = dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128;
  void *keys = order_keys(dt, n);
  int32_t *pay = xmalloc((size_t)n * sizeof *pay);
  for (int64_t i = 0; i < n; i++) pay[i] = (int32_t)(next64() >> 33);
  enum { SORT, ARGD, BYKEY, UVAL, UIDX, UINV, UCNT, TOPK, TOPI, PART, MED, QUANT, SSORT, TOPB,
         PMUL, NR };
  static const char *const what[NR] = {"sort", "argsort descending", "sort by key (values)",
                                       "unique", "unique index", "unique inverse",
                                       "unique counts", "topk 37 sorted (values)",
                                       "topk 37 (indices)", "argpartition kth len/3", "median",
                                       "quantile 0.1 0.5 0.93", "searchsorted right",
                                       "topk len/2 smallest sorted (indices)",
                                       "argpartition kth [len/3, 1, -1]"};
  gpux_dtype rdt[NR]; /* each result's dtype (median / quantile: their own) */
  void *res[NR][MAXCTX];
  size_t bytes[NR][MAXCTX];
  const double q[3] = {0.1, 0.5, 0.93};
  const int nr = cplx ? UCNT + 1 : NR; /* complex: the sorts and unique only */
  for (int k = 0; k < g_nctx; k++) {
    gpux_array_t x = up(k, dt, 2, shape, keys), p = up(k, GPUX_INT32, 2, shape, pay);
    gpux_array_t o[NR] = {NULL}, flat = NULL, srow = NULL;
    CHECK(gpux_sort(&o[SORT], x, -1, 0));
    CHECK(gpux_argsort(&o[ARGD], x, -1, GPUX_SORT_DESCENDING));
    CHECK(gpux_sort_by_key(NULL, &o[BYKEY], x, &p, 1, -1, 0));
    CHECK(gpux_unique(&o[UVAL], &o[UIDX], &o[UINV], &o[UCNT], x));
    if (!cplx) {
      const int64_t kk = len < 37 ? len : 37;
      gpux_array_t tv = NULL, ti = NULL;
      CHECK(gpux_topk(&o[TOPK], &ti, x, kk, -1, GPUX_TOPK_SORTED));
      CHECK(gpux_topk(&tv, &o[TOPI], x, kk, -1, 0)); /* position order */
      gpux_array_release(ti);
      gpux_array_release(tv);
      tv = NULL;
      CHECK(gpux_argpartition(&o[PART], x, len / 3, -1));
      CHECK(gpux_median(&o[MED], x, -1));
      CHECK(gpux_quantile(&o[QUANT], x, q, 3, -1));
      CHECK(gpux_array_reshape(&flat, x, 1, &n));
      CHECK(gpux_sort(&srow, flat, -1, 0));
      CHECK(gpux_searchsorted(&o[SSORT], srow, x, GPUX_SIDE_RIGHT));
      CHECK(gpux_topk(&tv, &o[TOPB], x, len / 2, -1, GPUX_TOPK_SORTED | GPUX_TOPK_SMALLEST));
      gpux_array_release(tv);
      const int64_t kth[3] = {len / 3, 1 % len, -1};
      CHECK(gpux_argpartition_multi(&o[PMUL], x, kth, 3, -1));
    }
    for (int r = 0; r < nr; r++) {
      CHECK(gpux_array_dtype(&rdt[r], o[r]));
      res[r][k] = down(o[r], &bytes[r][k]);
    }
    gpux_array_release(x);
    gpux_array_release(p);
    gpux_array_release(flat);
    gpux_array_release(srow);
  }
  for (int r = 0; r < nr; r++) {
    char w[128];
    snprintf(w, sizeof w, "%s, %" PRId64 " x %" PRId64, what[r], rows, len);
    same(w, rdt[r], res[r], bytes[r]);
  }
  free(keys);
  free(pay);
}

/* reduce_by_key of int32 keys (in no order) over a float32 column with NaN and signed zeros:
 * sum, mean, min, max, count, and the sorted keys. */
static void group_case(int64_t n, int64_t groups) {
  int64_t *k64 = indices(n, groups, 0);
  int32_t *keys = xmalloc((size_t)n * sizeof *keys);
  for (int64_t i = 0; i < n; i++) keys[i] = (int32_t)(k64[i] - groups / 2);
  void *v = values(GPUX_FLOAT32, n, 1);
  const gpux_group_op ops[5] = {GPUX_GROUP_SUM, GPUX_GROUP_MEAN, GPUX_GROUP_MIN, GPUX_GROUP_MAX,
                                GPUX_GROUP_COUNT};
  void *res[6][MAXCTX];
  size_t bytes[6][MAXCTX];
  gpux_dtype dts[6];
  for (int k = 0; k < g_nctx; k++) {
    gpux_array_t kv = up(k, GPUX_INT32, 1, &n, keys), c = up(k, GPUX_FLOAT32, 1, &n, v);
    gpux_array_t ko = NULL, r[5] = {NULL};
    const gpux_array_t cols[5] = {c, c, c, c, c};
    CHECK(gpux_reduce_by_key(&ko, r, kv, cols, ops, 5));
    for (int j = 0; j < 5; j++) {
      CHECK(gpux_array_dtype(&dts[j], r[j]));
      res[j][k] = down(r[j], &bytes[j][k]);
    }
    CHECK(gpux_array_dtype(&dts[5], ko));
    res[5][k] = down(ko, &bytes[5][k]);
    gpux_array_release(kv);
    gpux_array_release(c);
  }
  static const char *const nm[6] = {"reduce_by_key sum", "reduce_by_key mean",
                                    "reduce_by_key min", "reduce_by_key max",
                                    "reduce_by_key count", "reduce_by_key keys"};
  for (int j = 0; j < 6; j++) same(nm[j], dts[j], res[j], bytes[j]);
  free(k64);
  free(keys);
  free(v);
}

int main(void) {
  gpux_context_t cu = NULL, cl = NULL;
  if (open_pair("test_index_xbackend", &cu, &cl) != 0) return 77;
  g_ctx[g_nctx++] = cu;
  g_ctx[g_nctx++] = cl;
  /* a CPU OpenCL device beside the GPU one (pocl on the GPU machine), when there is one */
  int ndev = 0;
  gpux_device_info ci;
  if (gpux_device_count(&ndev, GPUX_BACKEND_OPENCL) == GPUX_SUCCESS)
    for (int i = 0; i < ndev && g_nctx < MAXCTX; i++)
      if (gpux_device_get_info(&ci, GPUX_BACKEND_OPENCL, i) == GPUX_SUCCESS && !ci.is_gpu &&
          gpux_context_create(&g_ctx[g_nctx], GPUX_BACKEND_OPENCL, i) == GPUX_SUCCESS) {
        printf("test_index_xbackend: and OpenCL device %d: %s (%s)\n", i, ci.name, ci.platform);
        g_nctx++;
      }
  for (int k = 0; k < g_nctx; k++) {
    gpux_device_info i;
    CHECK(gpux_context_device_info(&i, g_ctx[k]));
    g_fp64 &= i.fp64;
  }
  const gpux_dtype dts[] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_COMPLEX64,
                            GPUX_INT32};
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
    const gpux_dtype dt = dts[d];
    if ((dt == GPUX_FLOAT64 || dt == GPUX_COMPLEX128) && !g_fp64) continue;
    scatter_case(GPUX_SCATTER_ADD, dt, (1 << 20) + 3, 1009, GPUX_ALL_AXES);
    scatter_case(GPUX_SCATTER_ADD, dt, 3 * 30001, 7, 0);
    if (dt != GPUX_COMPLEX64) {
      scatter_case(GPUX_SCATTER_MAX, dt, 100003, 257, GPUX_ALL_AXES);
      scatter_case(GPUX_SCATTER_MIN, dt, 100003, 257, GPUX_ALL_AXES);
    }
    if (dt != GPUX_COMPLEX64 && dt != GPUX_INT32) histogram_case(dt, 200003);
    if (dt != GPUX_INT32) bincount_case(dt, (1 << 20) + 5, 1000);
    gather_case(dt, 300007);
    order_case(dt, 1, 300007); /* one long row: the radix passes */
    order_case(dt, 301, 999);  /* short rows: the work-group sort */
  }
  order_case(GPUX_INT64, 3, 70001);
  order_case(GPUX_BOOL, 7, 5003);
  group_case(400009, 1000);
  printf("test_index_xbackend: %d comparisons, %d differ\n", g_checks, g_fail);
  for (int k = g_nctx - 1; k >= 0; k--) gpux_context_release(g_ctx[k]);
  return g_fail ? 1 : 0;
}
