/* gpux tests: assembling arrays (include/gpux/assemble.h) -- concatenate, stack, split,
 * tile, repeat, flip, roll, pad, triu / tril, diagonal / diag, eye, broadcast_to,
 * broadcast_arrays, meshgrid -- against tests/ref/ref_assemble.c, bit for bit, for every
 * dtype: random data, empty / one-element / odd shapes and one large case (several
 * work-groups, the contiguous-range copies at odd offsets), inputs as contiguous, strided
 * (steps 2 and -2) and reversed views, outputs new or _into poisoned views whose elements
 * outside the result must stay poison; and every error path, after which the context still
 * works. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_assemble.h"
#include "test_util.h"

static gpux_dtype g_dts[GPUX_DTYPE_COUNT];
static int g_ndt;

static void init_dtypes(void) {
  g_ndt = 0;
  for (int d = 0; d < GPUX_DTYPE_COUNT; d++)
    if (gt_dtype_available((gpux_dtype)d)) g_dts[g_ndt++] = (gpux_dtype)d;
}

static int64_t nelem(int nd, const int64_t *sh) { return ref_shape_size(nd, sh); }

static void *rnd(gpux_dtype dt, int64_t n, uint64_t seed) {
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt));
  gt_fill_random(p, dt, n, GT_DOM_ANY, seed);
  return p;
}

/* a (new) result against want */
static void expect_arr(const char *label, gpux_array_t a, gpux_dtype dt, int nd,
                       const int64_t *sh, const void *want) {
  gt_check_shape(a, dt, nd, sh, label);
  int64_t n = 0;
  void *got = gt_read_all(a, &n);
  assert_int_equal(n, nelem(nd, sh));
  gt_compare_bits(label, dt, got, want, n);
  free(got);
}

/* an _into output view against want (the base outside it still poison) */
static void expect_view(const char *label, const gt_view *v, const void *want) {
  void *got = gt_malloc((size_t)v->n * ref_dtype_size(v->dt));
  gt_view_read(v, got, label);
  gt_compare_bits(label, v->dt, got, want, v->n);
  free(got);
}

static gt_layout lay_of(int i) { return (gt_layout)(i % 3); }

/* the new result out and the _into view ov both against want; then out, ov and the input
 * view iv go */
static void expect_both(const char *label, gpux_array_t out, gt_view *ov, gt_view *iv,
                        gpux_dtype dt, int nd, const int64_t *sh, const void *want) {
  expect_arr(label, out, dt, nd, sh, want);
  expect_view(label, ov, want);
  gt_view_free(ov);
  gt_view_free(iv);
  gpux_array_release(out);
}

/* ------------------------------------------------------------------ concatenate, stack */

static void concat_case(gpux_dtype dt, int n, int nd, int64_t sh[][GPUX_MAX_DIMS], int axis,
                        uint64_t seed) {
  size_t es = ref_dtype_size(dt);
  gt_view iv[4];
  void *h[4];
  const void *hp[4];
  const int64_t *shp[4];
  gpux_array_t arr[4];
  int64_t osh[GPUX_MAX_DIMS], on = 0;
  int d = axis == GPUX_ALL_AXES ? -1 : (axis < 0 ? axis + nd : axis);
  for (int i = 0; i < n; i++) {
    h[i] = rnd(dt, nelem(nd, sh[i]), seed + (uint64_t)i);
    hp[i] = h[i];
    shp[i] = sh[i];
    gt_view_make(&iv[i], dt, nd, sh[i], lay_of(i + (int)seed), h[i]);
    arr[i] = iv[i].view;
    on += nelem(nd, sh[i]);
  }
  int ond = d < 0 ? 1 : nd;
  if (d < 0) {
    osh[0] = on;
  } else {
    memcpy(osh, sh[0], sizeof osh);
    osh[d] = 0;
    for (int i = 0; i < n; i++) osh[d] += sh[i][d];
  }
  void *want = gt_malloc((size_t)on * es);
  ref_asm_concat(es, n, hp, nd, shp, d, want);
  char label[96];
  snprintf(label, sizeof label, "concatenate %s axis %d", gt_dtype_str(dt), axis);
  gpux_array_t out = NULL;
  GT_OK(gpux_concatenate(&out, n, arr, axis));
  expect_arr(label, out, dt, ond, osh, want);
  gt_view ov;
  gt_view_make(&ov, dt, ond, osh, lay_of((int)seed + 1), NULL);
  GT_OK(gpux_concatenate_into(ov.view, n, arr, axis));
  expect_view(label, &ov, want);
  gt_view_free(&ov);
  /* stack (equal shapes only) */
  int same = 1;
  for (int i = 1; i < n; i++) same &= memcmp(sh[i], sh[0], (size_t)nd * sizeof sh[0][0]) == 0;
  if (same && d >= 0 && nd < GPUX_MAX_DIMS) {
    int64_t ssh[GPUX_MAX_DIMS][GPUX_MAX_DIMS], tsh[GPUX_MAX_DIMS];
    const int64_t *sp[4];
    for (int i = 0; i < n; i++) { /* each input with a 1 at d: concatenated there */
      for (int k = 0, j = 0; k <= nd; k++) ssh[i][k] = k == d ? 1 : sh[0][j++];
      sp[i] = ssh[i];
    }
    for (int k = 0, j = 0; k <= nd; k++) tsh[k] = k == d ? n : sh[0][j++];
    ref_asm_concat(es, n, hp, nd + 1, sp, d, want);
    gpux_array_t st = NULL;
    snprintf(label, sizeof label, "stack %s axis %d", gt_dtype_str(dt), d);
    GT_OK(gpux_stack(&st, n, arr, d));
    expect_arr(label, st, dt, nd + 1, tsh, want);
    gt_view sv;
    gt_view_make(&sv, dt, nd + 1, tsh, lay_of((int)seed + 2), NULL);
    GT_OK(gpux_stack_into(sv.view, n, arr, d - (nd + 1))); /* the same axis, negative */
    expect_view(label, &sv, want);
    gt_view_free(&sv);
    gpux_array_release(st);
  }
  gpux_array_release(out);
  for (int i = 0; i < n; i++) {
    gt_view_free(&iv[i]);
    free(h[i]);
  }
  free(want);
}

static void test_concatenate(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    uint64_t seed = 100 + (uint64_t)t * 10;
    int64_t a[3][GPUX_MAX_DIMS] = {{3, 2, 5}, {3, 0, 5}, {3, 7, 5}};
    concat_case(dt, 3, 3, a, 1, seed);
    concat_case(dt, 3, 3, a, -2, seed + 1);
    concat_case(dt, 3, 3, a, GPUX_ALL_AXES, seed + 2);
    int64_t b[3][GPUX_MAX_DIMS] = {{4, 3}, {4, 3}, {4, 3}};
    concat_case(dt, 3, 2, b, 0, seed + 3);
    concat_case(dt, 3, 2, b, 1, seed + 4);
    int64_t c[2][GPUX_MAX_DIMS] = {{1}, {1}};
    concat_case(dt, 2, 1, c, 0, seed + 5);
    int64_t z[2][GPUX_MAX_DIMS] = {{0}, {0}};
    concat_case(dt, 2, 1, z, 0, seed + 6);
    int64_t s0[1][GPUX_MAX_DIMS] = {{0}};
    concat_case(dt, 1, 0, s0, GPUX_ALL_AXES, seed + 7); /* 0-d, flattened */
  }
  /* large, contiguous, axis 0: the ranges at odd element offsets (1-byte and 4-byte) */
  const int64_t big = GT_BIG;
  int64_t l1[2][GPUX_MAX_DIMS] = {{1}, {big - 1}};
  int64_t l2[2][GPUX_MAX_DIMS] = {{big / 2 + 1}, {big / 2}};
  gpux_dtype bigdt[2] = {GPUX_UINT8, GPUX_FLOAT32};
  for (int t = 0; t < 2; t++) {
    size_t es = ref_dtype_size(bigdt[t]);
    void *h0 = rnd(bigdt[t], l1[0][0], 1), *h1 = rnd(bigdt[t], l1[1][0], 2);
    gpux_array_t a0 = NULL, a1 = NULL, out = NULL;
    GT_OK(gpux_array_from_host(&a0, gt_ctx, bigdt[t], 1, l1[0], h0));
    GT_OK(gpux_array_from_host(&a1, gt_ctx, bigdt[t], 1, l1[1], h1));
    gpux_array_t arr[2] = {a0, a1};
    GT_OK(gpux_concatenate(&out, 2, arr, 0));
    void *want = gt_malloc((size_t)(big + 1) * es); /* the second join has big + 1 */
    const void *hp[2] = {h0, h1};
    const int64_t *sp[2] = {l1[0], l1[1]};
    ref_asm_concat(es, 2, hp, 1, sp, 0, want);
    int64_t osh[1] = {big};
    expect_arr("concatenate large (1 + rest)", out, bigdt[t], 1, osh, want);
    gpux_array_release(out);
    out = NULL;
    /* the halves the other way round, as a concatenation of views of one array */
    gpux_array_t v0 = NULL, v1 = NULL;
    GT_OK(gpux_array_slice_axis(&v0, a1, 0, 0, l2[0][0], 1));
    GT_OK(gpux_array_slice_axis(&v1, a1, 0, l2[0][0] - 1, INT64_MAX, 1));
    gpux_array_t arr2[3] = {v1, a0, v0};
    GT_OK(gpux_concatenate(&out, 3, arr2, 0));
    int64_t n1 = l1[1][0] - (l2[0][0] - 1);
    char *w = want;
    memcpy(w, (char *)h1 + (size_t)(l2[0][0] - 1) * es, (size_t)n1 * es);
    memcpy(w + (size_t)n1 * es, h0, es);
    memcpy(w + (size_t)(n1 + 1) * es, h1, (size_t)l2[0][0] * es);
    osh[0] = n1 + 1 + l2[0][0];
    expect_arr("concatenate large (views)", out, bigdt[t], 1, osh, want);
    GT_RELEASE(out, v0, v1, a0, a1);
    GT_FREE(h0, h1, want);
  }
}

/* ------------------------------------------------------------------ split */

static void test_split(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    size_t es = ref_dtype_size(dt);
    const int64_t sh[2] = {7, 10};
    void *h = rnd(dt, 70, 300 + (uint64_t)t);
    gt_view iv;
    gt_view_make(&iv, dt, 2, sh, lay_of(t), h);
    void *want = gt_malloc(70 * es);
    gpux_array_t parts[8];
    /* array_split: 10 -> 4, 3, 3 along axis 1; 7 -> 3 x 2 + 1 (3 parts: 3, 2, 2) along 0 */
    for (int axis = 0; axis < 2; axis++) {
      GT_OK(gpux_array_split(parts, iv.view, 3, axis - 2 * (axis == 1)));
      int64_t len = sh[axis], lo = 0;
      for (int i = 0; i < 3; i++) {
        int64_t m = len / 3 + (i < len % 3), psh[2] = {sh[0], sh[1]};
        psh[axis] = m;
        ref_asm_slice(es, 2, sh, h, axis, lo, lo + m, want);
        expect_arr("array_split", parts[i], dt, 2, psh, want);
        lo += m;
        gpux_array_release(parts[i]);
      }
    }
    GT_OK(gpux_split(parts, iv.view, 5, 1));
    for (int i = 0; i < 5; i++) {
      int64_t psh[2] = {7, 2};
      ref_asm_slice(es, 2, sh, h, 1, 2 * i, 2 * i + 2, want);
      expect_arr("split", parts[i], dt, 2, psh, want);
      gpux_array_release(parts[i]);
    }
    GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_split(parts, iv.view, 3, 1));
    for (int i = 0; i < 3; i++) assert_null(parts[i]);
    /* split_at: [3, -2, 100, 1] along axis 1 -> [0:3], [3:8], [8:10], [10:10], [1:10]
     * (Python slices: 100 clips to 10; [100:1] is empty) */
    const int64_t idx[4] = {3, -2, 100, 1};
    const int64_t lo[5] = {0, 3, 8, 10, 1}, hi[5] = {3, 8, 10, 10, 10};
    GT_OK(gpux_split_at(parts, iv.view, 4, idx, 1));
    for (int i = 0; i < 5; i++) {
      int64_t psh[2] = {7, hi[i] - lo[i]};
      ref_asm_slice(es, 2, sh, h, 1, lo[i], hi[i], want);
      expect_arr("split_at", parts[i], dt, 2, psh, want);
      gpux_array_release(parts[i]);
    }
    gt_view_free(&iv);
    GT_FREE(h, want);
  }
}

/* ------------------------------------------------------------------ tile, repeat */

static void tile_case(gpux_dtype dt, int nd, const int64_t *sh, int nreps, const int64_t *reps,
                      uint64_t seed) {
  size_t es = ref_dtype_size(dt);
  int ond = nd > nreps ? nd : nreps;
  int64_t osh[GPUX_MAX_DIMS];
  for (int d = 0; d < ond; d++) {
    int ia = d - (ond - nd), ir = d - (ond - nreps);
    osh[d] = (ia >= 0 ? sh[ia] : 1) * (ir >= 0 ? reps[ir] : 1);
  }
  void *h = rnd(dt, nelem(nd, sh), seed), *want = gt_malloc((size_t)nelem(ond, osh) * es);
  ref_asm_tile(es, nd, sh, h, nreps, reps, want);
  gt_view iv, ov;
  gt_view_make(&iv, dt, nd, sh, lay_of((int)seed), h);
  gpux_array_t out = NULL;
  gt_view_make(&ov, dt, ond, osh, lay_of((int)seed + 1), NULL);
  GT_OK(gpux_tile(&out, iv.view, nreps, reps));
  GT_OK(gpux_tile_into(ov.view, iv.view, nreps, reps));
  expect_both("tile", out, &ov, &iv, dt, ond, osh, want);
  GT_FREE(h, want);
}

static void test_tile(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    uint64_t s = 400 + (uint64_t)t * 8;
    const int64_t a[2] = {2, 3}, r3[3] = {2, 1, 3}, r2[2] = {0, 2}, one[1] = {3}, r1[1] = {3};
    tile_case(dt, 2, a, 3, r3, s);
    tile_case(dt, 2, a, 2, r2, s + 1);
    tile_case(dt, 1, one, 1, r1, s + 2);
    tile_case(dt, 2, a, 0, NULL, s + 3);
    const int64_t a1[3] = {1, 3, 1}, rr[3] = {2, 2, 4};
    tile_case(dt, 3, a1, 3, rr, s + 4);
    /* 5 axes, 4 of them repeated: 9 > GPUX_MAX_DIMS, the per-repetition path */
    const int64_t a5[5] = {2, 3, 2, 3, 2}, r5[5] = {2, 2, 2, 2, 1};
    tile_case(dt, 5, a5, 5, r5, s + 5);
    tile_case(dt, 0, NULL, 2, r2, s + 6); /* 0-d: (0, 2) */
  }
}

static void repeat_case(gpux_dtype dt, int nd, const int64_t *sh, int64_t ncounts,
                        const int64_t *counts, int axis, int layout, uint64_t seed) {
  size_t es = ref_dtype_size(dt);
  const int flat = axis == GPUX_ALL_AXES;
  int rnd_ = flat ? 1 : nd, d = flat ? 0 : (axis < 0 ? axis + nd : axis);
  int64_t rsh[GPUX_MAX_DIMS], n = nelem(nd, sh);
  if (flat)
    rsh[0] = n;
  else if (nd)
    memcpy(rsh, sh, (size_t)nd * sizeof *sh);
  int64_t len = rsh[d], *cnt = gt_malloc((size_t)(len ? len : 1) * sizeof *cnt);
  for (int64_t i = 0; i < len; i++) cnt[i] = ncounts <= 1 ? counts[0] : counts[i]; /* -1: scalar */
  int64_t osh[GPUX_MAX_DIMS];
  memcpy(osh, rsh, sizeof osh);
  osh[d] = 0;
  for (int64_t i = 0; i < len; i++) osh[d] += cnt[i];
  void *h = rnd(dt, n, seed), *want = gt_malloc((size_t)nelem(rnd_, osh) * es);
  ref_asm_repeat(es, rnd_, rsh, h, cnt, d, want);
  gt_view iv, ov;
  gt_view_make(&iv, dt, nd, sh, (gt_layout)layout, h);
  gpux_array_t out = NULL;
  char label[96];
  snprintf(label, sizeof label, "repeat %s axis %d (%s counts, input %s)", gt_dtype_str(dt), axis,
           ncounts < 0 ? "scalar" : "per-element", gt_layout_str((gt_layout)layout));
  gt_view_make(&ov, dt, rnd_, osh, lay_of((int)seed + 1), NULL);
  if (ncounts < 0) {
    GT_OK(gpux_repeat(&out, iv.view, counts[0], axis));
    GT_OK(gpux_repeat_into(ov.view, iv.view, counts[0], axis));
  } else {
    GT_OK(gpux_repeat_counts(&out, iv.view, ncounts, counts, axis));
    GT_OK(gpux_repeat_counts_into(ov.view, iv.view, ncounts, counts, axis));
  }
  expect_both(label, out, &ov, &iv, dt, rnd_, osh, want);
  GT_FREE(h, want, cnt);
}

static void test_repeat(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    uint64_t s = 500 + (uint64_t)t * 16;
    const int64_t a[2] = {5, 3}, c3[1] = {3}, c0[1] = {0}, c1[1] = {1};
    repeat_case(dt, 2, a, -1, c3, 0, GT_CONTIG, s);
    repeat_case(dt, 2, a, -1, c3, -1, GT_STRIDED, s + 1);
    repeat_case(dt, 2, a, -1, c3, GPUX_ALL_AXES, GT_REVERSED, s + 2); /* through a copy */
    repeat_case(dt, 2, a, -1, c3, GPUX_ALL_AXES, GT_CONTIG, s + 3);
    repeat_case(dt, 2, a, -1, c0, 1, GT_CONTIG, s + 4);
    const int64_t per[5] = {0, 2, 2, 1, 3}, per3[3] = {1, 1, 4};
    repeat_case(dt, 2, a, 5, per, 0, GT_STRIDED, s + 5);
    repeat_case(dt, 2, a, 3, per3, 1, GT_REVERSED, s + 6);
    repeat_case(dt, 2, a, 1, c3, 1, GT_CONTIG, s + 7);
    const int64_t flatc[15] = {1, 0, 2, 2, 2, 1, 1, 0, 0, 3, 1, 1, 1, 2, 1};
    repeat_case(dt, 2, a, 15, flatc, GPUX_ALL_AXES, GT_STRIDED, s + 8);
    const int64_t a8[8] = {2, 1, 2, 1, 2, 1, 1, 3};
    repeat_case(dt, 8, a8, -1, c3, 7, GT_STRIDED, s + 9); /* 9 axes: a copy per repetition */
    const int64_t e[1] = {0};
    repeat_case(dt, 1, e, -1, c3, 0, GT_CONTIG, s + 10);
    repeat_case(dt, 0, NULL, -1, c3, GPUX_ALL_AXES, GT_CONTIG, s + 11);
    repeat_case(dt, 1, c1, -1, c1, 0, GT_CONTIG, s + 12);
    /* long axes: the blocked form (blocks of 256 with the count outside), and its tail */
    const int64_t lg[2] = {3, 1203}, l1[1] = {2 * 1203};
    repeat_case(dt, 2, lg, -1, c3, 1, GT_STRIDED, s + 13);
    int64_t runs[2 * 1203];
    for (int i = 0; i < 2 * 1203; i++) runs[i] = i / 700 == 1 ? 2 : i / 700 == 2 ? 0 : 3;
    repeat_case(dt, 1, l1, 2 * 1203, runs, 0, GT_REVERSED, s + 14);
  }
}

/* ------------------------------------------------------------------ flip, roll */

static void test_flip(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    size_t es = ref_dtype_size(dt);
    const int64_t sh[3] = {3, 4, 5};
    void *h = rnd(dt, 60, 600 + (uint64_t)t), *want = gt_malloc(60 * es);
    for (int lay = 0; lay < 3; lay++) {
      gt_view iv;
      gt_view_make(&iv, dt, 3, sh, (gt_layout)lay, h);
      const int ax[2] = {0, -1};
      int which[3] = {1, 0, 1}, all[3] = {1, 1, 1};
      gpux_array_t f = NULL, g = NULL;
      GT_OK(gpux_flip(&f, iv.view, 2, ax));
      ref_asm_flip(es, 3, sh, h, which, want);
      expect_arr("flip axes 0, -1", f, dt, 3, sh, want);
      GT_OK(gpux_flip(&g, f, GPUX_ALL_AXES, NULL)); /* a flip of a flip */
      int only1[3] = {0, 1, 0};
      ref_asm_flip(es, 3, sh, h, only1, want);
      expect_arr("flip of a flip", g, dt, 3, sh, want);
      gpux_array_release(g);
      GT_OK(gpux_flip(&g, iv.view, GPUX_ALL_AXES, NULL));
      ref_asm_flip(es, 3, sh, h, all, want);
      expect_arr("flip all", g, dt, 3, sh, want);
      GT_RELEASE(f, g);
      gt_view_free(&iv);
    }
    GT_FREE(h, want);
  }
}

static void roll_case(gpux_dtype dt, int nd, const int64_t *sh, int naxes, const int64_t *shifts,
                      const int *axes, uint64_t seed) {
  size_t es = ref_dtype_size(dt);
  int64_t n = nelem(nd, sh), per[GPUX_MAX_DIMS] = {0};
  void *h = rnd(dt, n, seed), *want = gt_malloc((size_t)n * es);
  if (naxes == GPUX_ALL_AXES) {
    const int64_t fsh[1] = {n};
    ref_asm_roll(es, 1, fsh, h, shifts, want);
  } else {
    for (int k = 0; k < naxes; k++) { /* a repeated axis adds its shifts */
      int d = axes[k] < 0 ? axes[k] + nd : axes[k];
      per[d] += shifts[k] % (sh[d] ? sh[d] : 1);
    }
    ref_asm_roll(es, nd, sh, h, per, want);
  }
  gt_view iv, ov;
  gt_view_make(&iv, dt, nd, sh, lay_of((int)seed), h);
  gpux_array_t out = NULL;
  gt_view_make(&ov, dt, nd, sh, lay_of((int)seed + 1), NULL);
  GT_OK(gpux_roll(&out, iv.view, naxes, shifts, axes));
  GT_OK(gpux_roll_into(ov.view, iv.view, naxes, shifts, axes));
  expect_both("roll", out, &ov, &iv, dt, nd, sh, want);
  GT_FREE(h, want);
}

static void test_roll(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    uint64_t s = 700 + (uint64_t)t * 8;
    const int64_t sh[3] = {4, 5, 6};
    const int64_t sf[2] = {1, -7}, sr[2] = {2, 3}, s7[1] = {7}, big[1] = {INT64_MIN + 1};
    const int af[2] = {0, 2}, ar[2] = {1, 1};
    roll_case(dt, 3, sh, 2, sf, af, s);
    roll_case(dt, 3, sh, 2, sr, ar, s + 1);
    roll_case(dt, 3, sh, GPUX_ALL_AXES, s7, NULL, s + 2);
    roll_case(dt, 3, sh, GPUX_ALL_AXES, big, NULL, s + 3);
    roll_case(dt, 3, sh, 0, NULL, NULL, s + 4);
    const int64_t e[2] = {0, 3};
    const int a1[1] = {1};
    roll_case(dt, 2, e, 1, s7, a1, s + 5);
  }
  /* large: several work-groups, 1-d roll (two contiguous ranges) */
  const int64_t n[1] = {GT_BIG}, sh1[1] = {12345};
  const int a0[1] = {0};
  roll_case(GPUX_FLOAT32, 1, n, 1, sh1, a0, 9);
}

/* ------------------------------------------------------------------ pad */

static void pad_case(gpux_dtype dt, int nd, const int64_t *sh, const int64_t *w, gpux_pad_mode mode,
                     double value, uint64_t seed) {
  size_t es = ref_dtype_size(dt);
  int64_t osh[GPUX_MAX_DIMS];
  for (int d = 0; d < nd; d++) osh[d] = sh[d] + w[2 * d] + w[2 * d + 1];
  void *h = rnd(dt, nelem(nd, sh), seed), *want = gt_malloc((size_t)nelem(nd, osh) * es);
  /* the constant's bits: gpux_array_full's conversion (tested in test_array) */
  unsigned char val[16];
  gpux_array_t v0 = NULL;
  GT_OK(gpux_array_full(&v0, gt_ctx, dt, 0, NULL, value));
  GT_OK(gpux_array_read(v0, val, es));
  gpux_array_release(v0);
  ref_asm_pad(es, nd, sh, h, w, mode == GPUX_PAD_EDGE, val, want);
  gt_view iv, ov;
  gt_view_make(&iv, dt, nd, sh, lay_of((int)seed), h);
  gpux_array_t out = NULL;
  char label[96];
  snprintf(label, sizeof label, "pad %s %s", gt_dtype_str(dt), mode ? "edge" : "constant");
  gt_view_make(&ov, dt, nd, osh, lay_of((int)seed + 1), NULL);
  GT_OK(gpux_pad(&out, iv.view, w, mode, value));
  GT_OK(gpux_pad_into(ov.view, iv.view, w, mode, value));
  expect_both(label, out, &ov, &iv, dt, nd, osh, want);
  GT_FREE(h, want);
}

static void test_pad(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    uint64_t s = 800 + (uint64_t)t * 8;
    const int64_t a[2] = {3, 4}, w[4] = {1, 2, 0, 3};
    pad_case(dt, 2, a, w, GPUX_PAD_CONSTANT, 7.0, s);
    pad_case(dt, 2, a, w, GPUX_PAD_EDGE, 0.0, s + 1);
    const int64_t b[3] = {2, 3, 5}, wb[6] = {2, 1, 1, 1, 0, 2};
    pad_case(dt, 3, b, wb, GPUX_PAD_EDGE, 0.0, s + 2);
    pad_case(dt, 3, b, wb, GPUX_PAD_CONSTANT, -1.0, s + 3);
    const int64_t e[2] = {0, 3}, we[4] = {1, 1, 2, 0};
    pad_case(dt, 2, e, we, GPUX_PAD_CONSTANT, 1.0, s + 4);
    const int64_t z[4] = {0, 0, 0, 0};
    pad_case(dt, 2, a, z, GPUX_PAD_EDGE, 0.0, s + 5);
    pad_case(dt, 0, NULL, NULL, GPUX_PAD_CONSTANT, 3.0, s + 6);
  }
  const int64_t n[1] = {GT_BIG}, w1[2] = {1000, 3};
  pad_case(GPUX_FLOAT32, 1, n, w1, GPUX_PAD_EDGE, 0.0, 3);
}

/* ------------------------------------------------------------------ triu / tril */

static void test_tri(void **state) {
  (void)state;
  const int64_t ks[6] = {0, -2, 3, 1, INT64_MIN, INT64_MAX};
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    size_t es = ref_dtype_size(dt);
    const int64_t s2[2] = {5, 7}, s3[3] = {2, 4, 3}, s1[1] = {4};
    struct { int nd; const int64_t *sh; } cs[3] = {{2, s2}, {3, s3}, {1, s1}};
    for (int c = 0; c < 3; c++) {
      int nd = cs[c].nd, ond = nd == 1 ? 2 : nd;
      int64_t osh[3] = {cs[c].sh[0], nd == 1 ? cs[c].sh[0] : cs[c].sh[1], nd == 3 ? cs[c].sh[2] : 0};
      void *h = rnd(dt, nelem(nd, cs[c].sh), 900 + (uint64_t)(t * 3 + c));
      void *want = gt_malloc((size_t)nelem(ond, osh) * es);
      gt_view iv;
      gt_view_make(&iv, dt, nd, cs[c].sh, lay_of(t + c), h);
      for (int ki = 0; ki < 6; ki++)
        for (int up = 0; up < 2; up++) {
          char label[96];
          snprintf(label, sizeof label, "%s %s %dd k=%" PRId64, up ? "triu" : "tril",
                   gt_dtype_str(dt), nd, ks[ki]);
          ref_asm_tri(es, nd, cs[c].sh, h, ks[ki], up, want);
          gpux_array_t out = NULL;
          GT_OK(up ? gpux_triu(&out, iv.view, ks[ki]) : gpux_tril(&out, iv.view, ks[ki]));
          expect_arr(label, out, dt, ond, osh, want);
          gpux_array_release(out);
          if (ki < 2) {
            gt_view ov;
            gt_view_make(&ov, dt, ond, osh, lay_of(ki + up), NULL);
            GT_OK(up ? gpux_triu_into(ov.view, iv.view, ks[ki]) : gpux_tril_into(ov.view, iv.view, ks[ki]));
            expect_view(label, &ov, want);
            gt_view_free(&ov);
          }
        }
      gt_view_free(&iv);
      GT_FREE(h, want);
    }
  }
}

/* ------------------------------------------------------------------ diagonal, diag, eye */

static void test_diagonal(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    size_t es = ref_dtype_size(dt);
    const int64_t s2[2] = {4, 6}, s3[3] = {3, 4, 5};
    void *h = rnd(dt, 60, 1000 + (uint64_t)t), *want = gt_malloc(60 * es);
    const int64_t offs[5] = {0, 2, -1, 10, INT64_MIN};
    for (int lay = 0; lay < 3; lay++) {
      gt_view v2, v3;
      gt_view_make(&v2, dt, 2, s2, (gt_layout)lay, h);
      gt_view_make(&v3, dt, 3, s3, (gt_layout)lay, h);
      for (int o = 0; o < 5; o++) {
        int64_t len = 0;
        gpux_array_t d = NULL;
        ref_asm_diagonal(es, 2, s2, h, offs[o], 0, 1, &len, want);
        GT_OK(gpux_diagonal(&d, v2.view, offs[o], 0, 1));
        expect_arr("diagonal 2-d", d, dt, 1, &len, want);
        gpux_array_release(d);
        ref_asm_diagonal(es, 2, s2, h, offs[o], 1, 0, &len, want);
        GT_OK(gpux_diagonal(&d, v2.view, offs[o], -1, 0));
        expect_arr("diagonal 2-d, axes swapped", d, dt, 1, &len, want);
        gpux_array_release(d);
        const int pairs[3][2] = {{0, 2}, {2, 0}, {1, 2}};
        for (int p = 0; p < 3; p++) {
          ref_asm_diagonal(es, 3, s3, h, offs[o], pairs[p][0], pairs[p][1], &len, want);
          int64_t rsh[2] = {s3[3 - pairs[p][0] - pairs[p][1]], len};
          GT_OK(gpux_diagonal(&d, v3.view, offs[o], pairs[p][0], pairs[p][1]));
          expect_arr("diagonal 3-d", d, dt, 2, rsh, want);
          gpux_array_release(d);
        }
      }
      gt_view_free(&v2);
      gt_view_free(&v3);
    }
    /* diag: 1-d -> 2-d and 2-d -> 1-d (a copy) */
    const int64_t n5[1] = {5}, ks[3] = {0, 2, -3};
    for (int ki = 0; ki < 3; ki++) {
      int64_t m = 5 + (ks[ki] < 0 ? -ks[ki] : ks[ki]), osh[2] = {m, m};
      char *w = want;
      size_t bytes = (size_t)(m * m) * es;
      char *w2 = gt_malloc(bytes);
      memset(w2, 0, bytes);
      for (int64_t i = 0; i < 5; i++) {
        int64_t r = ks[ki] >= 0 ? i : i - ks[ki], c = ks[ki] >= 0 ? i + ks[ki] : i;
        memcpy(w2 + (size_t)(r * m + c) * es, (char *)h + (size_t)i * es, es);
      }
      (void)w;
      gt_view iv, ov;
      gt_view_make(&iv, dt, 1, n5, lay_of(ki + t), h);
      gpux_array_t d = NULL;
      GT_OK(gpux_diag(&d, iv.view, ks[ki]));
      expect_arr("diag 1-d", d, dt, 2, osh, w2);
      gt_view_make(&ov, dt, 2, osh, lay_of(ki + t + 1), NULL);
      GT_OK(gpux_diag_into(ov.view, iv.view, ks[ki]));
      expect_view("diag_into 1-d", &ov, w2);
      gpux_array_t back = NULL;
      GT_OK(gpux_diag(&back, d, ks[ki])); /* and back */
      expect_arr("diag 2-d", back, dt, 1, n5, h);
      GT_RELEASE(d, back);
      gt_view_free(&iv);
      gt_view_free(&ov);
      free(w2);
    }
    GT_FREE(h, want);
  }
}

static void test_eye(void **state) {
  (void)state;
  const int64_t cases[5][3] = {{4, -1, 0}, {3, 5, 1}, {5, 3, -2}, {0, -1, 0}, {3, 3, 7}};
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    size_t es = ref_dtype_size(dt);
    unsigned char one[16];
    gpux_array_t o1 = NULL;
    GT_OK(gpux_array_ones(&o1, gt_ctx, dt, 0, NULL));
    GT_OK(gpux_array_read(o1, one, es));
    gpux_array_release(o1);
    for (int c = 0; c < 5; c++) {
      int64_t n = cases[c][0], m = cases[c][1] < 0 ? n : cases[c][1], k = cases[c][2];
      int64_t sh[2] = {n, m};
      char *w = gt_malloc((size_t)(n * m) * es);
      memset(w, 0, (size_t)(n * m) * es);
      for (int64_t i = 0; i < n; i++)
        if (i + k >= 0 && i + k < m) memcpy(w + (size_t)(i * m + i + k) * es, one, es);
      gpux_array_t e = NULL;
      GT_OK(gpux_eye(&e, gt_ctx, dt, n, cases[c][1], k));
      expect_arr("eye", e, dt, 2, sh, w);
      gt_view ov;
      gt_view_make(&ov, dt, 2, sh, lay_of(c + t), NULL);
      GT_OK(gpux_eye_into(ov.view, k));
      expect_view("eye_into", &ov, w);
      gt_view_free(&ov);
      gpux_array_release(e);
      free(w);
    }
  }
}

/* ------------------------------------------------------------------ broadcasting */

static void test_broadcast(void **state) {
  (void)state;
  for (int t = 0; t < g_ndt; t++) {
    gpux_dtype dt = g_dts[t];
    size_t es = ref_dtype_size(dt);
    const int64_t sa[2] = {3, 1}, sb[1] = {4}, to[3] = {2, 3, 4};
    void *ha = rnd(dt, 3, 1100 + (uint64_t)t), *hb = rnd(dt, 4, 1200 + (uint64_t)t);
    void *want = gt_malloc(24 * es);
    gt_view va, vb;
    gt_view_make(&va, dt, 2, sa, lay_of(t), ha);
    gt_view_make(&vb, dt, 1, sb, lay_of(t + 1), hb);
    gpux_array_t b = NULL;
    GT_OK(gpux_broadcast_to(&b, va.view, 3, to));
    ref_asm_broadcast(es, 2, sa, ha, 3, to, want);
    expect_arr("broadcast_to", b, dt, 3, to, want);
    gpux_array_release(b);
    gpux_array_t ins[2] = {va.view, vb.view}, outs[2];
    GT_OK(gpux_broadcast_arrays(outs, 2, ins));
    const int64_t bs[2] = {3, 4};
    ref_asm_broadcast(es, 2, sa, ha, 2, bs, want);
    expect_arr("broadcast_arrays 0", outs[0], dt, 2, bs, want);
    ref_asm_broadcast(es, 1, sb, hb, 2, bs, want);
    expect_arr("broadcast_arrays 1", outs[1], dt, 2, bs, want);
    GT_RELEASE(outs[0], outs[1]);
    /* meshgrid of x (vb: 4) and y (3 elements): xy gives (3, 4), ij (4, 3) */
    gpux_array_t y = NULL, g[2];
    GT_OK(gpux_array_from_host(&y, gt_ctx, dt, 1, (const int64_t[]){3}, ha));
    gpux_array_t xs[2] = {vb.view, y};
    for (int ij = 0; ij < 2; ij++) {
      GT_OK(gpux_meshgrid(g, 2, xs, ij ? GPUX_MESHGRID_IJ : GPUX_MESHGRID_XY));
      const int64_t gs[2] = {ij ? 4 : 3, ij ? 3 : 4};
      /* x varies along axis 1 (xy) or 0 (ij); y the other */
      const int64_t xsh[2] = {ij ? 4 : 1, ij ? 1 : 4}, ysh[2] = {ij ? 1 : 3, ij ? 3 : 1};
      ref_asm_broadcast(es, 2, xsh, hb, 2, gs, want);
      expect_arr("meshgrid x", g[0], dt, 2, gs, want);
      ref_asm_broadcast(es, 2, ysh, ha, 2, gs, want);
      expect_arr("meshgrid y", g[1], dt, 2, gs, want);
      GT_RELEASE(g[0], g[1]);
    }
    GT_OK(gpux_meshgrid(g, 1, xs, GPUX_MESHGRID_XY)); /* one array: itself */
    expect_arr("meshgrid of one", g[0], dt, 1, sb, hb);
    gpux_array_release(g[0]);
    gpux_array_release(y);
    gt_view_free(&va);
    gt_view_free(&vb);
    GT_FREE(ha, hb, want);
  }
}

/* ------------------------------------------------------------------ errors */

static void still_works(void) { gt_smoke(gt_ctx); }

static void test_errors(void **state) {
  (void)state;
  const int64_t s23[2] = {2, 3}, s24[2] = {2, 4}, s33[2] = {3, 3};
  gpux_array_t a = NULL, b = NULL, c = NULL, i32 = NULL, out = (gpux_array_t)1;
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_FLOAT32, 2, s23));
  GT_OK(gpux_array_zeros(&b, gt_ctx, GPUX_FLOAT32, 2, s24));
  GT_OK(gpux_array_zeros(&c, gt_ctx, GPUX_FLOAT32, 2, s33));
  GT_OK(gpux_array_zeros(&i32, gt_ctx, GPUX_INT32, 2, s23));
  gpux_context_t other = gt_context_new();
  gpux_array_t o = NULL;
  GT_OK(gpux_array_zeros(&o, other, GPUX_FLOAT32, 2, s23));
  gpux_array_t ab[2] = {a, b}, ac[2] = {a, c}, ai[2] = {a, i32}, ao[2] = {a, o}, an[2] = {a, NULL};

  /* concatenate / stack */
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_concatenate(NULL, 2, ab, 1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_concatenate(&out, 2, NULL, 1));
  assert_null(out);
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_concatenate(&out, 2, an, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_concatenate(&out, 0, ab, 1));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_concatenate(&out, 2, ai, 0));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_concatenate(&out, 2, ao, 0));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_concatenate(&out, 2, ab, 0));
  assert_non_null(strstr(gpux_last_error_message(), "(2, 4)"));
  assert_non_null(strstr(gpux_last_error_message(), "axis 0"));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_concatenate(&out, 2, ac, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_concatenate(&out, 2, ab, 2));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_concatenate(&out, 2, ab, -3));
  assert_null(out);
  gpux_array_t s0 = NULL;
  GT_OK(gpux_array_zeros(&s0, gt_ctx, GPUX_FLOAT32, 0, NULL));
  gpux_array_t ss[2] = {s0, s0};
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_concatenate(&out, 2, ss, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_concatenate_into(NULL, 2, ab, 1));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_concatenate_into(c, 2, ab, 1));
  assert_non_null(strstr(gpux_last_error_message(), "(2, 7)"));
  gpux_array_t big = NULL, bigi = NULL;
  const int64_t s27[2] = {2, 7};
  GT_OK(gpux_array_zeros(&big, gt_ctx, GPUX_FLOAT32, 2, s27));
  GT_OK(gpux_array_zeros(&bigi, gt_ctx, GPUX_INT32, 2, s27));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_concatenate_into(bigi, 2, ab, 1));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_concatenate_into(o, 2, ab, 1));
  gpux_array_t part = NULL, ap[2] = {a, NULL};
  GT_OK(gpux_array_slice_axis(&part, big, 1, 0, 4, 1));
  ap[1] = part; /* (2, 4) view of out itself */
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_concatenate_into(big, 2, ap, 1));
  GT_OK(gpux_concatenate_into(big, 2, ab, 1));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_stack(&out, 2, ab, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_stack(&out, 2, ac, 3));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_stack(&out, 2, ai, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stack_into(NULL, 2, ab, 0));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_stack_into(a, 1, ab, 0));
  const int64_t s8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  gpux_array_t e8 = NULL;
  GT_OK(gpux_array_zeros(&e8, gt_ctx, GPUX_FLOAT32, 8, s8));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_stack(&out, 1, &e8, 0));
  assert_null(out);

  /* split */
  gpux_array_t parts[4] = {(gpux_array_t)1, (gpux_array_t)1, (gpux_array_t)1, (gpux_array_t)1};
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_split(NULL, a, 2, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_split(parts, NULL, 2, 0));
  assert_null(parts[0]);
  assert_null(parts[1]);
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_split(parts, a, 0, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_split(parts, a, 2, 2));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_split(parts, a, 2, 1));
  assert_non_null(strstr(gpux_last_error_message(), "length 3"));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_split(parts, s0, 1, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_split_at(parts, a, 2, NULL, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_split_at(parts, a, -1, NULL, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_split_at(parts, a, 0, NULL, -3));
  assert_null(parts[0]);

  /* tile, repeat */
  const int64_t rneg[2] = {1, -1}, rhuge[2] = {INT64_MAX / 2, 3};
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_tile(&out, NULL, 1, rneg));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_tile(&out, a, 2, NULL));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_tile(&out, a, 2, rneg));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_tile(&out, a, 2, rhuge));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_tile(&out, a, 9, rhuge));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_tile_into(c, a, 1, rhuge + 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_repeat(&out, a, -1, 0));
  assert_non_null(strstr(gpux_last_error_message(), "count = -1"));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_repeat(&out, a, 2, 2));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_repeat(&out, a, INT64_MAX, 1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_repeat(NULL, a, 2, 1));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_repeat_into(c, a, 2, 1));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_repeat_into(a, a, 1, 1));
  const int64_t cnt[3] = {1, -2, 1}, cnt2[2] = {1, 1}, chuge[3] = {INT64_MAX, INT64_MAX, 1};
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_repeat_counts(&out, a, 3, NULL, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_repeat_counts(&out, a, 3, cnt, 1));
  assert_non_null(strstr(gpux_last_error_message(), "counts[1]"));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_repeat_counts(&out, a, 2, cnt2, 1));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_repeat_counts(&out, a, 3, chuge, 1));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_repeat_counts_into(c, a, 2, cnt2, 0));
  assert_null(out);

  /* flip, roll */
  const int rep[2] = {1, -1}, bad[1] = {2};
  const int64_t sh2[2] = {1, 2};
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_flip(&out, a, 2, rep));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_flip(&out, a, 1, bad));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_flip(&out, a, 3, rep));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_flip(&out, a, 1, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_flip(&out, NULL, 1, bad));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_roll(&out, a, 1, sh2, bad));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_roll(&out, a, 1, NULL, rep));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_roll(&out, a, GPUX_ALL_AXES, NULL, NULL));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_roll(&out, a, -2, sh2, rep));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_roll_into(b, a, 1, sh2, rep));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_roll_into(i32, a, 1, sh2, rep));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_roll_into(a, a, 1, sh2, rep));
  assert_null(out);

  /* pad */
  const int64_t wneg[4] = {0, 1, -1, 0}, w1[4] = {1, 1, 1, 1}, whuge[4] = {INT64_MAX, 1, 0, 0};
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_pad(&out, a, NULL, GPUX_PAD_CONSTANT, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_pad(&out, a, wneg, GPUX_PAD_CONSTANT, 0));
  assert_non_null(strstr(gpux_last_error_message(), "widths[2]"));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_pad(&out, a, w1, (gpux_pad_mode)7, 0));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_pad(&out, a, whuge, GPUX_PAD_CONSTANT, 0));
  gpux_array_t e0 = NULL;
  const int64_t s03[2] = {0, 3};
  GT_OK(gpux_array_zeros(&e0, gt_ctx, GPUX_FLOAT32, 2, s03));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_pad(&out, e0, w1, GPUX_PAD_EDGE, 0));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_pad_into(c, a, w1, GPUX_PAD_EDGE, 0));
  assert_null(out);

  /* triu / tril, diagonal, diag, eye */
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_triu(&out, s0, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_tril(&out, NULL, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_triu(NULL, a, 0));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_tril_into(c, a, 0));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_triu_into(a, a, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_diagonal(&out, s0, 0, 0, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_diagonal(&out, a, 0, 1, -1));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_diagonal(&out, a, 0, 0, 2));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_diag(&out, s0, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_diag(&out, e8, 0));
  gpux_array_t v3 = NULL;
  GT_OK(gpux_array_zeros(&v3, gt_ctx, GPUX_FLOAT32, 1, (const int64_t[]){3}));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_diag(&out, v3, INT64_MIN));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_diag(&out, v3, INT64_MAX - 1));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_diag_into(a, v3, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_eye(&out, NULL, GPUX_FLOAT32, 2, 2, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_eye(&out, gt_ctx, (gpux_dtype)99, 2, 2, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_eye(&out, gt_ctx, GPUX_FLOAT32, -1, 2, 0));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_eye(&out, gt_ctx, GPUX_FLOAT32, INT64_MAX, 4, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_eye_into(v3, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_eye_into(NULL, 0));
  assert_null(out);

  /* broadcasting */
  gpux_array_t outs[3] = {(gpux_array_t)1, (gpux_array_t)1, (gpux_array_t)1};
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_broadcast_to(&out, a, 2, s24));
  assert_non_null(strstr(gpux_last_error_message(), "(2, 3)"));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_broadcast_to(&out, a, 1, s24 + 1));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_broadcast_to(&out, a, 9, s24));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_broadcast_to(&out, a, 2, NULL));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_broadcast_arrays(outs, 2, ab));
  assert_null(outs[0]);
  assert_null(outs[1]);
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_broadcast_arrays(outs, 2, ao));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_broadcast_arrays(NULL, 2, ab));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_meshgrid(outs, 2, ab, GPUX_MESHGRID_XY));
  gpux_array_t vv[2] = {v3, v3};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_meshgrid(outs, 2, vv, (gpux_meshgrid_indexing)5));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_meshgrid(outs, 0, vv, GPUX_MESHGRID_XY));
  assert_null(out);

  still_works();
  GT_RELEASE(a, b, c, i32, o, s0, big, bigi, part, e8, e0, v3);
  gpux_context_release(other);
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_assemble");
  init_dtypes();
  static const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_concatenate), cmocka_unit_test(test_split),
      cmocka_unit_test(test_tile),        cmocka_unit_test(test_repeat),
      cmocka_unit_test(test_flip),        cmocka_unit_test(test_roll),
      cmocka_unit_test(test_pad),         cmocka_unit_test(test_tri),
      cmocka_unit_test(test_diagonal),    cmocka_unit_test(test_eye),
      cmocka_unit_test(test_broadcast),   cmocka_unit_test(test_errors),
  };
  int failed = gt_run("assemble", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
