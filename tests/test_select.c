/* gpux tests: searchsorted, top-k, partition / argpartition, median, quantile, percentile
 * (include/gpux/select.h) against the CPU reference (tests/ref/ref_select.c: a stable sort
 * of the key images), bit for bit: every real dtype and bool, sizes 1 / odd / several
 * work-groups and tiles, batched rows along either axis, many ties, NaN / inf / -0.0,
 * strided and negative-step inputs, poisoned outputs, k = 0 / 1 / n, errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ref_select.h"
#include "ref_sort.h"
#include "test_util.h"

static const gpux_dtype k_dts[] = GT_STORAGE_DTYPE_INIT;
#define NDTS (sizeof k_dts / sizeof k_dts[0])

/* random data: ties (kind 1: small integers), specials sprinkled (NaN, inf, +-0, ...) */
/* kind 0: random with specials; 1: small integers (ties); 2: kind 0 sorted ascending (a
 * top-k's results all at one end) */
static void *mk_data(gpux_dtype dt, int64_t n, uint64_t seed, int kind) {
  void *x = gt_random_with_specials(dt, n, kind == 1 ? GT_DOM_SMALLINT : GT_DOM_ANY, seed,
                                    seed ^ 0x5e1ec7, 10);
  if (kind == 2 && n > 0) {
    const size_t es = gpux_dtype_size(dt);
    void *s = gt_malloc((size_t)n * es);
    int64_t *si = gt_malloc((size_t)n * 8);
    ref_topk(dt, x, 1, n, n, 1, 1, s, si);
    memcpy(x, s, (size_t)n * es);
    GT_FREE(s, si);
  }
  return x;
}

/* dst[c * R + r] = src[r * C + c] (element size es) */
static void *transpose(const void *src, int64_t R, int64_t C, size_t es) {
  unsigned char *d = gt_malloc((size_t)(R * C > 0 ? R * C : 1) * es);
  for (int64_t r = 0; r < R; r++)
    for (int64_t c = 0; c < C; c++)
      memcpy(d + (c * R + r) * es, (const unsigned char *)src + (r * C + c) * es, es);
  return d;
}

static gpux_array_t upload(gt_view *v, gpux_dtype dt, int nd, const int64_t *shape,
                           const void *data, gt_layout lay) {
  gt_view_make(v, dt, nd, shape, lay, data);
  return v->view;
}

static void check_same(const char *label, const void *got, const void *want, size_t bytes,
                       gpux_dtype dt) {
  if (memcmp(got, want, bytes) == 0) return;
  const size_t es = gpux_dtype_size(dt);
  for (size_t i = 0; i < bytes / es; i++)
    if (memcmp((const char *)got + i * es, (const char *)want + i * es, es)) {
      uint64_t a = 0, b = 0;
      memcpy(&a, (const char *)got + i * es, es);
      memcpy(&b, (const char *)want + i * es, es);
      GT_FAIL("%s: element %zu: got bits 0x%llx, want 0x%llx", label, i,
              (unsigned long long)a, (unsigned long long)b);
    }
}

/* ---- searchsorted */

static void test_searchsorted(void **state) {
  (void)state;
  const int64_t nes[] = {0, 1, 7, 1000};
  for (size_t di = 0; di < NDTS; di++) {
    const gpux_dtype dt = k_dts[di];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    for (size_t ni = 0; ni < sizeof nes / sizeof nes[0]; ni++) {
      const int64_t ne = nes[ni];
      unsigned char *raw = mk_data(dt, ne, 11 + ni, (int)(ni & 1));
      /* sort it: the reference's stable sort through top-k's smallest, sorted */
      unsigned char *s = gt_malloc((size_t)(ne ? ne : 1) * es);
      int64_t *si = gt_malloc((size_t)(ne ? ne : 1) * 8);
      if (ne) ref_topk(dt, raw, 1, ne, ne, 1, 1, s, si);
      /* queries: random, the entries themselves, specials; shape (3, 37) */
      const int64_t qs[2] = {3, 37}, nq = 3 * 37;
      unsigned char *q = mk_data(dt, nq, 97 + ni, (int)(ni & 1));
      for (int64_t i = 0; i < nq && ne; i += 3) memcpy(q + i * es, s + (i % ne) * es, es);
      for (int side = 0; side < 2; side++)
        for (int lay = 0; lay < 2; lay++) {
          gt_view vs, vq;
          gpux_array_t sa = upload(&vs, dt, 1, &ne, s, lay ? GT_REVERSED : GT_CONTIG);
          if (lay) { /* a reversed view of the reversed data is sorted again */
            gt_view_free(&vs);
            unsigned char *rs = gt_malloc((size_t)(ne ? ne : 1) * es);
            for (int64_t i = 0; i < ne; i++) memcpy(rs + i * es, s + (ne - 1 - i) * es, es);
            gpux_array_t base = NULL;
            GT_OK(gpux_array_from_host(&base, gt_ctx, dt, 1, &ne, rs));
            GT_OK(gpux_array_slice_axis(&sa, base, 0, -1, INT64_MIN, -1));
            gpux_array_release(base);
            free(rs);
          }
          gpux_array_t qa = upload(&vq, dt, 2, qs, q, lay ? GT_STRIDED : GT_CONTIG);
          int64_t want[3 * 37], got[3 * 37];
          ref_searchsorted(dt, s, ne, q, nq, side, want);
          gpux_array_t o = NULL;
          GT_OK(gpux_searchsorted(&o, sa, qa, side ? GPUX_SIDE_RIGHT : GPUX_SIDE_LEFT));
          gt_check_shape(o, GPUX_INT64, 2, qs, "searchsorted");
          GT_OK(gpux_array_read(o, got, sizeof got));
          char label[128];
          snprintf(label, sizeof label, "searchsorted %s ne %lld side %d layout %d",
                   gt_dtype_str(dt), (long long)ne, side, lay);
          check_same(label, got, want, sizeof got, GPUX_INT64);
          gpux_array_t po = gt_poisoned(GPUX_INT64, 2, qs);
          GT_OK(gpux_searchsorted_into(po, sa, qa, side ? GPUX_SIDE_RIGHT : GPUX_SIDE_LEFT));
          GT_OK(gpux_array_read(po, got, sizeof got));
          check_same(label, got, want, sizeof got, GPUX_INT64);
          GT_RELEASE(o, po);
          if (lay) gpux_array_release(sa);
          else gt_view_free(&vs);
          gt_view_free(&vq);
        }
      GT_FREE(raw, s, si, q);
    }
  }
}

/* reads values va (dt) and positions ia, (R, m) along axis 0 of a 2-d x when t0 (else rows
 * x m already), and compares them with the reference's rows x m wv / wi */
static void check_rows(const char *label, gpux_array_t va, gpux_array_t ia, gpux_dtype dt,
                       int t0, int64_t m, int64_t C, const void *wv, const int64_t *wi,
                       int64_t rows) {
  const size_t es = gpux_dtype_size(dt);
  int64_t got = 0;
  unsigned char *gv = gt_read_all(va, &got);
  int64_t *gi = gt_read_all(ia, &got);
  if (t0 && got) { /* (m, C) -> rows x m */
    void *t1 = transpose(gv, m, C, es), *t2 = transpose(gi, m, C, 8);
    free(gv);
    free(gi);
    gv = t1;
    gi = t2;
  }
  check_same(label, gv, wv, (size_t)(rows * m) * es, dt);
  check_same(label, gi, wi, (size_t)(rows * m) * 8, GPUX_INT64);
  GT_FREE(gv, gi);
}

/* ---- top-k and partition: x of shape (R, C) (R == 0: 1-d of C) along axis */

/* a case: x (host, row-major), its device view, and the reference's rows x len layout */
typedef struct rcase {
  int nd, ax;
  int64_t shape[2], n, len, rows;
  unsigned char *x;
  void *xr; /* x as rows x len when the axis is 0 of 2, else NULL (x is) */
  gt_view v;
} rcase;
static void rcase_make(rcase *c, gpux_dtype dt, int64_t R, int64_t C, int axis, gt_layout lay,
                       uint64_t seed, int kind) {
  c->nd = R ? 2 : 1;
  c->shape[0] = R ? R : C;
  c->shape[1] = C;
  c->n = (R ? R : 1) * C;
  c->x = mk_data(dt, c->n, seed, kind);
  c->ax = axis < 0 ? axis + c->nd : axis;
  c->len = c->nd == 1 ? C : c->ax == 0 ? R : C;
  c->rows = c->n / c->len;
  c->xr = c->nd == 2 && c->ax == 0 ? transpose(c->x, R, C, gpux_dtype_size(dt)) : NULL;
  upload(&c->v, dt, c->nd, c->shape, c->x, lay);
}
static const void *rcase_rows(const rcase *c) { return c->xr ? c->xr : c->x; }
static void rcase_free(rcase *c) {
  gt_view_free(&c->v);
  GT_FREE(c->x, c->xr);
}

static void run_topk(gpux_dtype dt, int64_t R, int64_t C, int axis, int64_t k, unsigned flags,
                     gt_layout lay, uint64_t seed, int kind) {
  const size_t es = gpux_dtype_size(dt);
  rcase c;
  rcase_make(&c, dt, R, C, axis, lay, seed, kind);
  const int nd = c.nd, ax = c.ax;
  const int64_t rows = c.rows;
  gpux_array_t xa = c.v.view;
  unsigned char *wv = gt_malloc((size_t)(rows * k + 1) * es);
  int64_t *wi = gt_malloc((size_t)(rows * k + 1) * 8);
  ref_topk(dt, rcase_rows(&c), rows, c.len, k, (flags & GPUX_TOPK_SMALLEST) != 0,
           (flags & GPUX_TOPK_SORTED) != 0, wv, wi);
  int64_t rs[2] = {c.shape[0], c.shape[1]};
  rs[nd == 1 ? 0 : ax] = k;
  gpux_array_t va = NULL, ia = NULL;
  char label[160];
  snprintf(label, sizeof label, "topk %s shape (%lld, %lld) axis %d k %lld flags %u layout %s",
           gt_dtype_str(dt), (long long)R, (long long)C, axis, (long long)k, flags,
           gt_layout_str(lay));
  for (int into = 0; into < 2; into++) {
    if (into) {
      va = gt_poisoned(dt, nd, rs);
      ia = gt_poisoned(GPUX_INT64, nd, rs);
      GT_OK(gpux_topk_into(va, ia, xa, k, axis, flags));
    } else {
      GT_OK(gpux_topk(&va, &ia, xa, k, axis, flags));
    }
    gt_check_shape(va, dt, nd, rs, label);
    gt_check_shape(ia, GPUX_INT64, nd, rs, label);
    check_rows(label, va, ia, dt, c.xr != NULL, k, C, wv, wi, rows);
    GT_RELEASE(va, ia);
  }
  rcase_free(&c);
  GT_FREE(wv, wi);
}

static void test_topk(void **state) {
  (void)state;
  for (size_t di = 0; di < NDTS; di++) {
    const gpux_dtype dt = k_dts[di];
    if (!gt_dtype_available(dt)) continue;
    const unsigned fl[4] = {0, GPUX_TOPK_SMALLEST, GPUX_TOPK_SORTED,
                            GPUX_TOPK_SORTED | GPUX_TOPK_SMALLEST};
    for (int f = 0; f < 4; f++) {
      run_topk(dt, 0, 1, 0, 1, fl[f], GT_CONTIG, 1, 0);
      run_topk(dt, 0, 7, -1, 3, fl[f], GT_REVERSED, 2, f & 1);
      run_topk(dt, 0, 1000, 0, 1000, fl[f], GT_CONTIG, 3, 1);
      run_topk(dt, 0, 9001, 0, 100, fl[f], f == 2 ? GT_STRIDED : GT_CONTIG, 4, f & 1);
      run_topk(dt, 5, 333, 1, 17, fl[f], GT_CONTIG, 5, 1);
      run_topk(dt, 300, 6, 0, 33, fl[f], GT_STRIDED, 6, 0);
    }
    run_topk(dt, 3, 10, 1, 0, 0, GT_CONTIG, 7, 0); /* k = 0: empty results */
  }
  /* one long row: several histogram work-groups in both forms, every dtype width */
  run_topk(GPUX_FLOAT32, 0, 300001, 0, 100, 0, GT_CONTIG, 8, 0);
  run_topk(GPUX_FLOAT64, 0, 100001, 0, 2000, GPUX_TOPK_SORTED, GT_CONTIG, 9, 1);
  run_topk(GPUX_INT16, 0, 100001, 0, 50000, 0, GT_CONTIG, 10, 1);
  run_topk(GPUX_UINT8, 0, 100001, 0, 7, GPUX_TOPK_SMALLEST, GT_CONTIG, 11, 0);
  /* more tiles (of 4096 keys, GPUX_SEL_TILE) than a work-group has work-items: the GPU
   * form's scan of the tile counts takes runs of 3 */
  run_topk(GPUX_FLOAT32, 0, 516 * 4096 - 777, 0, 100, 0, GT_CONTIG, 12, 0);
}

/* top-k's paths (docs/selection.md "one read", "two reads"): the radix select of x
 * ("old"), the candidates of the target's top 12 bits ("cand") and those under a sample's
 * bound ("samp"), forced with the test knob GPUX_SELECT_TOPK_PATH, and the rules' own choice
 * (unset: rows of 2^16 keys and more take the candidates when they are few): one reference,
 * so the same bits on every path. Ties at
 * the threshold (kind 1: small integers, so the k-th key has many equals on both sides of
 * it), NaN / inf / -0.0 (kind 0), k = 1 and k = len, both orders, sorted or not, batched
 * rows (up to 8 take the candidates, 9 do not), every 32- and 64-bit dtype. */
static void test_topk_paths(void **state) {
  (void)state;
  /* samp1: the one read, its fallback an error (a broken sample's bound would only cost
   * time): every case here has at least k keys under its sample's bound */
  const char *paths[4] = {"old", "cand", "samp1", NULL};
  const unsigned fl[4] = {0, GPUX_TOPK_SMALLEST, GPUX_TOPK_SORTED,
                          GPUX_TOPK_SORTED | GPUX_TOPK_SMALLEST};
  const gpux_dtype wide[] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_INT32,
                             GPUX_INT64,   GPUX_UINT32,  GPUX_UINT64};
  for (int pi = 0; pi < 4; pi++) {
    if (paths[pi]) setenv("GPUX_SELECT_TOPK_PATH", paths[pi], 1);
    else unsetenv("GPUX_SELECT_TOPK_PATH");
    for (int f = 0; f < 4; f++) {
      /* one row above the rule's 2^16, a partial last tile: specials, then ties */
      run_topk(GPUX_FLOAT32, 0, 70001, 0, 100, fl[f], GT_CONTIG, 70 + f, 0);
      run_topk(GPUX_FLOAT32, 0, 70001, 0, 777, fl[f], GT_CONTIG, 74 + f, 1);
      run_topk(GPUX_FLOAT64, 0, 66000, 0, 1, fl[f], GT_REVERSED, 78 + f, f & 1);
      /* batched rows along either axis: 3 and 8 rows take the candidates, 9 never */
      run_topk(GPUX_FLOAT32, 3, 20000, 1, 50, fl[f], GT_CONTIG, 82 + f, f & 1);
      run_topk(GPUX_INT32, 9000, 8, 0, 40, fl[f], GT_STRIDED, 86 + f, 1);
      run_topk(GPUX_FLOAT32, 9, 5000, 1, 30, fl[f], GT_CONTIG, 90 + f, 0);
    }
    for (size_t di = 0; di < sizeof wide / sizeof wide[0]; di++) {
      const gpux_dtype dt = wide[di];
      run_topk(dt, 0, 1, 0, 1, 0, GT_CONTIG, 100 + di, 0);
      run_topk(dt, 0, 3000, 0, 3000, GPUX_TOPK_SORTED, GT_CONTIG, 110 + di, (int)(di & 1));
      run_topk(dt, 0, 9001, 0, 9000, GPUX_TOPK_SMALLEST, GT_CONTIG, 120 + di, 1);
      run_topk(dt, 2, 40000, 1, 5000, GPUX_TOPK_SORTED, GT_CONTIG, 130 + di, 1); /* sort core */
      run_topk(dt, 0, 65536 + 4096, 0, 64, 0, GT_CONTIG, 140 + di, (int)(di & 1));
    }
  }
  /* the candidates' gather with h12 groups of several tiles (a partial last one) */
  setenv("GPUX_SELECT_TOPK_PATH", "cand", 1);
  setenv("GPUX_SELECT_H12_GROUPS", "3", 1);
  for (int f = 0; f < 4; f++) {
    run_topk(GPUX_FLOAT32, 0, 70001, 0, 100, fl[f], GT_CONTIG, 150 + f, f & 1);
    run_topk(GPUX_INT64, 3, 20000, 1, 50, fl[f], GT_CONTIG, 154 + f, 1);
    /* k near the candidates' count: a candidate lost or misplaced is among the results */
    run_topk(GPUX_FLOAT32, 0, 70001, 0, 4000, fl[f], GT_CONTIG, 158 + f, 0);
  }
  unsetenv("GPUX_SELECT_H12_GROUPS");
  /* the one read: filt's lists full (every group, then some, read its keys again; a group of
   * several tiles; sorted rows, whose candidates are all in the last or first groups) */
  setenv("GPUX_SELECT_TOPK_PATH", "samp1", 1);
  const char *capg[4] = {"0", "1", "40", NULL};
  for (int ci = 0; ci < 4; ci++) {
    if (capg[ci]) setenv("GPUX_SELECT_CAPG", capg[ci], 1);
    else unsetenv("GPUX_SELECT_CAPG");
    if (ci == 2) setenv("GPUX_SELECT_H12_GROUPS", "3", 1);
    for (int f = 0; f < 4; f++) {
      run_topk(GPUX_FLOAT32, 0, 70001, 0, 100, fl[f], GT_CONTIG, 170 + f, 2);
      run_topk(GPUX_FLOAT64, 2, 30001, 1, 300, fl[f], GT_REVERSED, 174 + f, 2);
      run_topk(GPUX_INT32, 0, 70001, 0, 1000, fl[f], GT_CONTIG, 178 + f, f & 1);
      run_topk(GPUX_UINT64, 3, 20000, 1, 50, fl[f], GT_STRIDED, 182 + f, 0);
    }
    unsetenv("GPUX_SELECT_H12_GROUPS");
  }
  unsetenv("GPUX_SELECT_CAPG");
  /* the sample's bound at its rank 0: short of the k-th for k far above a stride's 16 keys
   * (the two reads take over), and on sorted rows with k = 16 just short or just past it,
   * by where the hash put the sample's first key */
  setenv("GPUX_SELECT_SAMPLE_RANK", "0", 1);
  setenv("GPUX_SELECT_TOPK_PATH", "samp", 1);
  for (int f = 0; f < 4; f++) {
    run_topk(GPUX_FLOAT32, 0, 70001, 0, 500, fl[f], GT_CONTIG, 190 + f, f & 1);
    run_topk(GPUX_INT64, 0, 70001, 0, 16, fl[f], GT_CONTIG, 194 + f, 2);
  }
  unsetenv("GPUX_SELECT_SAMPLE_RANK");
  unsetenv("GPUX_SELECT_TOPK_PATH");
}

/* sorted top-k across GPUX_TOPK_MAX_SORTED (the rank kernel below, the sort core above):
 * the same reference, so the same tie rule and bits on both paths */
static void test_topk_sorted_large(void **state) {
  (void)state;
  const int64_t km = GPUX_TOPK_MAX_SORTED;
  const unsigned fs[2] = {GPUX_TOPK_SORTED, GPUX_TOPK_SORTED | GPUX_TOPK_SMALLEST};
  const gpux_dtype cls[] = {GPUX_FLOAT32, GPUX_INT32, GPUX_FLOAT16, GPUX_BOOL};
  for (int f = 0; f < 2; f++) {
    for (size_t di = 0; di < NDTS; di++) { /* every dtype just above the threshold */
      const gpux_dtype dt = k_dts[di];
      if (!gt_dtype_available(dt)) continue;
      run_topk(dt, 0, km + 9, 0, km + 1, fs[f], GT_CONTIG, 20 + di, (int)(di & 1));
    }
    for (size_t ci = 0; ci < sizeof cls / sizeof cls[0]; ci++) {
      const gpux_dtype dt = cls[ci];
      run_topk(dt, 0, 30000, 0, km, fs[f], GT_CONTIG, 40 + ci, 1);          /* rank kernel */
      run_topk(dt, 0, 30000, 0, km + 1, fs[f], GT_REVERSED, 41 + ci, 1);    /* sort core */
      run_topk(dt, 0, 30000, 0, 10000, fs[f], GT_STRIDED, 42 + ci, 0);      /* specials */
      run_topk(dt, 0, 12345, -1, 12345, fs[f], GT_CONTIG, 43 + ci, (int)ci & 1); /* k = n */
      run_topk(dt, 3, 5000, 1, 4500, fs[f], GT_CONTIG, 44 + ci, 1);         /* batched rows */
      run_topk(dt, 4500, 3, 0, 4200, fs[f], GT_STRIDED, 45 + ci, 0);        /* along axis 0 */
    }
  }
  run_topk(GPUX_FLOAT64, 0, 20000, 0, 9000, GPUX_TOPK_SORTED, GT_CONTIG, 60, 0);
}

static void run_part(gpux_dtype dt, int64_t R, int64_t C, int axis, int64_t kth, gt_layout lay,
                     uint64_t seed, int kind) {
  rcase c;
  rcase_make(&c, dt, R, C, axis, lay, seed, kind);
  const int nd = c.nd;
  const int64_t len = c.len;
  const int64_t *shape = c.shape;
  gpux_array_t xa = c.v.view;
  unsigned char *wv = gt_malloc((size_t)c.n * gpux_dtype_size(dt));
  int64_t *wi = gt_malloc((size_t)c.n * 8);
  ref_partition(dt, rcase_rows(&c), c.rows, len, kth < 0 ? kth + len : kth, wv, wi);
  char label[160];
  snprintf(label, sizeof label, "partition %s shape (%lld, %lld) axis %d kth %lld layout %s",
           gt_dtype_str(dt), (long long)R, (long long)C, axis, (long long)kth,
           gt_layout_str(lay));
  for (int into = 0; into < 2; into++) {
    gpux_array_t pa = NULL, aa = NULL;
    if (into) {
      pa = gt_poisoned(dt, nd, shape);
      aa = gt_poisoned(GPUX_INT64, nd, shape);
      GT_OK(gpux_partition_into(pa, xa, kth, axis));
      GT_OK(gpux_argpartition_into(aa, xa, kth, axis));
    } else {
      GT_OK(gpux_partition(&pa, xa, kth, axis));
      GT_OK(gpux_argpartition(&aa, xa, kth, axis));
    }
    check_rows(label, pa, aa, dt, c.xr != NULL, len, C, wv, wi, c.rows);
    GT_RELEASE(pa, aa);
  }
  rcase_free(&c);
  GT_FREE(wv, wi);
}

static void test_partition(void **state) {
  (void)state;
  for (size_t di = 0; di < NDTS; di++) {
    const gpux_dtype dt = k_dts[di];
    if (!gt_dtype_available(dt)) continue;
    run_part(dt, 0, 1, 0, 0, GT_CONTIG, 1, 0);
    run_part(dt, 0, 9, 0, -1, GT_REVERSED, 2, 1);
    run_part(dt, 0, 5001, 0, 2500, GT_CONTIG, 3, (int)(di & 1));
    run_part(dt, 4, 777, -1, 0, GT_STRIDED, 4, 1);
    run_part(dt, 129, 5, 0, 64, GT_CONTIG, 5, 0);
  }
}

/* partition_multi / argpartition_multi of x (R, C) along axis around kth[0..nkth): with one
 * distinct kth gpux_partition's reference, else the stable sort's */
static void run_pmulti(gpux_dtype dt, int64_t R, int64_t C, int axis, const int64_t *kth,
                       size_t nkth, gt_layout lay, uint64_t seed, int kind) {
  rcase c;
  rcase_make(&c, dt, R, C, axis, lay, seed, kind);
  const int nd = c.nd;
  const int64_t len = c.len, rows = c.rows;
  const size_t es = gpux_dtype_size(dt);
  unsigned char *wv = gt_malloc((size_t)(c.n + 1) * es);
  int64_t *wi = gt_malloc((size_t)(c.n + 1) * 8);
  int one = 1;
  for (size_t i = 1; i < nkth; i++)
    one &= (kth[i] < 0 ? kth[i] + len : kth[i]) == (kth[0] < 0 ? kth[0] + len : kth[0]);
  const unsigned char *xr = rcase_rows(&c);
  if (one) {
    ref_partition(dt, xr, rows, len, kth[0] < 0 ? kth[0] + len : kth[0], wv, wi);
  } else {
    ref_sort_perm(dt, rows, len, xr, 0, 1, wi);
    for (int64_t r = 0; r < rows; r++)
      for (int64_t j = 0; j < len; j++)
        memcpy(wv + (r * len + j) * es, xr + (r * len + wi[r * len + j]) * es, es);
  }
  char label[160];
  snprintf(label, sizeof label,
           "partition_multi %s shape (%lld, %lld) axis %d kth[0] %lld nkth %zu layout %s",
           gt_dtype_str(dt), (long long)R, (long long)C, axis, (long long)kth[0], nkth,
           gt_layout_str(lay));
  for (int into = 0; into < 2; into++) {
    gpux_array_t pa = NULL, aa = NULL;
    if (into) {
      pa = gt_poisoned(dt, nd, c.shape);
      aa = gt_poisoned(GPUX_INT64, nd, c.shape);
      GT_OK(gpux_partition_multi_into(pa, c.v.view, kth, nkth, axis));
      GT_OK(gpux_argpartition_multi_into(aa, c.v.view, kth, nkth, axis));
    } else {
      GT_OK(gpux_partition_multi(&pa, c.v.view, kth, nkth, axis));
      GT_OK(gpux_argpartition_multi(&aa, c.v.view, kth, nkth, axis));
    }
    gt_check_shape(pa, dt, nd, c.shape, label);
    gt_check_shape(aa, GPUX_INT64, nd, c.shape, label);
    check_rows(label, pa, aa, dt, c.xr != NULL, len, C, wv, wi, rows);
    GT_RELEASE(pa, aa);
  }
  rcase_free(&c);
  GT_FREE(wv, wi);
}

static void test_partition_multi(void **state) {
  (void)state;
  const int64_t k1[1] = {3}, kn[1] = {-2}, krep[3] = {5, -4, 5}, k3[3] = {400, 7, -1},
                k2[2] = {0, 1}, kall[4] = {8, 0, 4, 2};
  for (size_t di = 0; di < NDTS; di++) {
    const gpux_dtype dt = k_dts[di];
    if (!gt_dtype_available(dt)) continue;
    run_pmulti(dt, 0, 1, 0, k2, 1, GT_CONTIG, 1, 0);          /* n = 1 */
    run_pmulti(dt, 0, 9, 0, k1, 1, GT_REVERSED, 2, 1);        /* one kth: partition's */
    run_pmulti(dt, 0, 9, 0, krep, 3, GT_CONTIG, 3, 0);        /* -4 == 5: still one */
    run_pmulti(dt, 0, 9, -1, kall, 4, GT_STRIDED, 4, 1);      /* several: sorted */
    run_pmulti(dt, 0, 5001, 0, k3, 3, GT_CONTIG, 5, (int)(di & 1));
    run_pmulti(dt, 4, 777, -1, kn, 1, GT_STRIDED, 6, 1);
    run_pmulti(dt, 4, 777, 1, k3, 3, GT_REVERSED, 7, 1);
    run_pmulti(dt, 129, 5, 0, k2, 2, GT_CONTIG, 8, 0);        /* batched short rows */
  }
}

/* ---- median, quantile */

static void run_q(gpux_dtype dt, int64_t R, int64_t C, int axis, const double *q, int nq,
                  int pct, gt_layout lay, uint64_t seed, int kind) {
  const size_t es = gpux_dtype_size(dt);
  const gpux_dtype rdt =
      dt == GPUX_FLOAT32 || dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16 ? GPUX_FLOAT32 : GPUX_FLOAT64;
  const size_t rs = gpux_dtype_size(rdt);
  const int nd = R ? 2 : 1;
  const int64_t shape[2] = {R ? R : C, C}, n = (R ? R : 1) * C;
  unsigned char *x = mk_data(dt, n, seed, kind);
  const int ax = axis == GPUX_ALL_AXES ? -1 : axis < 0 ? axis + nd : axis;
  const int64_t len = ax < 0 || nd == 1 ? n : ax == 0 ? R : C, rows = n / len;
  void *xr = nd == 2 && ax == 0 ? transpose(x, R, C, es) : NULL;
  const int mode = q ? 1 : 0, m = q ? nq : 1;
  double qq[16], pp[16];
  for (int i = 0; i < m && q; i++) {
    qq[i] = q[i];
    pp[i] = q[i] * 100.0;
    if (pct) qq[i] = pp[i] / 100.0; /* what percentile computes */
  }
  unsigned char *want = gt_malloc((size_t)(m * rows) * rs);
  ref_quantile(dt, xr ? xr : x, rows, len, qq, m, mode, want);
  gt_view v;
  gpux_array_t xa = upload(&v, dt, nd, shape, x, lay);
  gpux_array_t o = NULL;
  char label[160];
  snprintf(label, sizeof label, "%s %s shape (%lld, %lld) axis %d layout %s",
           q ? (pct ? "percentile" : "quantile") : "median", gt_dtype_str(dt), (long long)R,
           (long long)C, axis, gt_layout_str(lay));
  if (!q) GT_OK(gpux_median(&o, xa, axis));
  else if (pct) GT_OK(gpux_percentile(&o, xa, pp, nq, axis));
  else GT_OK(gpux_quantile(&o, xa, qq, nq, axis));
  int64_t got_n = 0;
  unsigned char *got = gt_read_all(o, &got_n);
  GT_ASSERT(got_n == m * rows, "%s: %lld results, want %lld", label, (long long)got_n,
            (long long)(m * rows));
  gt_compare_bits(label, rdt, got, want, m * rows);
  /* _into into a poisoned output of the same shape */
  int64_t os[GPUX_MAX_DIMS + 1];
  int ond = 0;
  GT_OK(gpux_array_ndim(&ond, o));
  GT_OK(gpux_array_shape(os, o));
  gpux_array_t po = gt_poisoned(rdt, ond, os);
  if (!q) GT_OK(gpux_median_into(po, xa, axis));
  else GT_OK(gpux_quantile_into(po, xa, qq, nq, axis));
  free(got);
  got = gt_read_all(po, &got_n);
  gt_compare_bits(label, rdt, got, want, m * rows);
  GT_RELEASE(o, po);
  gt_view_free(&v);
  GT_FREE(x, xr, want, got);
}

static void test_median_quantile(void **state) {
  (void)state;
  const double q[] = {0, 0.1, 0.25, 0.5, 0.77, 0.999, 1, 0.3, 0.6, 0.05};
  for (size_t di = 0; di < NDTS; di++) {
    const gpux_dtype dt = k_dts[di];
    if (!gt_dtype_available(dt)) continue;
    run_q(dt, 0, 1, 0, NULL, 1, 0, GT_CONTIG, 1, 0);
    run_q(dt, 0, 8, 0, NULL, 1, 0, GT_REVERSED, 2, 1);
    run_q(dt, 0, 1001, 0, NULL, 1, 0, GT_CONTIG, 3, 0);
    run_q(dt, 6, 50, 1, NULL, 1, 0, GT_STRIDED, 4, 1);
    run_q(dt, 40, 3, 0, NULL, 1, 0, GT_CONTIG, 5, 0);
    run_q(dt, 4, 33, GPUX_ALL_AXES, NULL, 1, 0, GT_STRIDED, 6, 1);
    run_q(dt, 0, 1000, 0, q, 10, 0, GT_CONTIG, 7, (int)(di & 1));
    run_q(dt, 5, 64, -1, q, 3, 1, GT_REVERSED, 8, 0);
  }
}

/* ---- errors */

static void test_select_errors(void **state) {
  (void)state;
  const int64_t sh[2] = {2, 3}, six = 6, three = 3;
  const float f[6] = {3, 1, 2, 5, 4, 0};
  gpux_array_t x = NULL, s = NULL, i32 = NULL, c = NULL, o = NULL, o2 = NULL, bad = NULL;
  GT_OK(gpux_array_from_host(&x, gt_ctx, GPUX_FLOAT32, 2, sh, f));
  GT_OK(gpux_array_from_host(&s, gt_ctx, GPUX_FLOAT32, 1, &six, f));
  GT_OK(gpux_array_zeros(&i32, gt_ctx, GPUX_INT32, 1, &three));
  GT_OK(gpux_array_zeros(&c, gt_ctx, GPUX_COMPLEX64, 1, &three));
  /* searchsorted */
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_searchsorted(NULL, s, s, GPUX_SIDE_LEFT));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_searchsorted(&o, NULL, s, GPUX_SIDE_LEFT));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_searchsorted(&o, s, i32, GPUX_SIDE_LEFT));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_searchsorted(&o, x, x, GPUX_SIDE_LEFT));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_searchsorted(&o, s, s, (gpux_side)7));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_searchsorted(&o, c, c, GPUX_SIDE_LEFT));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_searchsorted_into(s, s, s, GPUX_SIDE_LEFT));
  /* top-k */
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_topk(&o, &o2, x, 4, 1, 0));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_topk(&o, &o2, x, -1, 1, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_topk(&o, &o2, x, 1, 2, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_topk(&o, &o2, x, 1, -3, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_topk(&o, &o2, x, 1, 1, 8u));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_topk(&o, NULL, x, 1, 1, 0));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_topk(&o, &o2, c, 1, 0, 0));
  const int64_t r2[2] = {2, 2};
  GT_OK(gpux_array_zeros(&bad, gt_ctx, GPUX_FLOAT32, 2, r2));
  GT_OK(gpux_array_zeros(&o2, gt_ctx, GPUX_INT64, 2, r2));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_topk_into(bad, o2, x, 1, 1, 0));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_topk_into(o2, o2, x, 2, 1, 0));
  GT_RELEASE(bad, o2);
  o2 = NULL;
  /* partition */
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_partition(&o, x, 3, 1));
  GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_argpartition(&o, x, -4, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_partition(&o, x, 0, 5));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_argpartition_into(x, x, 0, 1));
  /* partition with a list of kth */
  {
    const int64_t kk[3] = {0, 2, -3}, kb[3] = {0, 3, 1}, kb2[2] = {1, -4};
    GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_partition_multi(NULL, x, kk, 3, 1));
    GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_partition_multi(&o, NULL, kk, 3, 1));
    GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_argpartition_multi(&o, x, NULL, 3, 1));
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_partition_multi(&o, x, kk, 0, 1));
    GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_partition_multi(&o, x, kb, 3, 1));
    GT_ASSERT(strstr(gpux_last_error_message(), "kth[1]") != NULL, "names kth[1]: %s",
              gpux_last_error_message());
    GT_EXPECT(GPUX_ERROR_INDEX_OUT_OF_RANGE, gpux_argpartition_multi(&o, x, kb2, 2, 1));
    GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_partition_multi(&o, x, kk, 3, 2));
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_partition_multi(&o, c, kk, 2, 0));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_argpartition_multi_into(x, x, kk, 3, 1));
    GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_partition_multi_into(s, x, kk, 3, 1));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_partition_multi_into(x, x, kk, 3, 1));
    GT_ASSERT(o == NULL, "partition_multi: out written after an error");
  }
  /* median / quantile */
  const double qb[2] = {0.5, 1.5}, qn[1] = {NAN};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_quantile(&o, x, qb, 2, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_quantile(&o, x, qn, 1, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_quantile(&o, x, qb, 0, 1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_quantile(&o, x, NULL, 1, 1));
  const double pb[2] = {50, 150};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_percentile(&o, x, pb, 2, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_median(&o, x, 2));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_median_into(i32, s, 0));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_median_into(x, s, 0));
  {
    const int64_t z[2] = {3, 0};
    gpux_array_t e = NULL;
    GT_OK(gpux_array_zeros(&e, gt_ctx, GPUX_FLOAT32, 2, z));
    GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_median(&o, e, 1));
    GT_OK(gpux_median(&o, e, 0)); /* rows of 3, none of them: an empty result */
    GT_RELEASE(o, e);
    o = NULL;
  }
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_median(&o, c, 0));
  GT_RELEASE(x, s, i32, c);
  gt_smoke(gt_ctx);
}

int main(void) {
  gt_init("test_select");
  static const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_searchsorted),    cmocka_unit_test(test_topk),
      cmocka_unit_test(test_partition),       cmocka_unit_test(test_median_quantile),
      cmocka_unit_test(test_topk_sorted_large), cmocka_unit_test(test_topk_paths),
      cmocka_unit_test(test_partition_multi), cmocka_unit_test(test_select_errors),
  };
  int failed = gt_run("select", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
