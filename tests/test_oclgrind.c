/* gpux tests: every built-in OpenCL kernel family at small sizes, for oclgrind (an OpenCL
 * interpreter with memory, race and uninitialized-value checks, thousands of times slower
 * than a device). .ci/run runs this binary under `oclgrind --data-races --check-api` in the
 * launch shapes the OpenCL backend gives a GPU-type device (tests/oclgrind.sh); it runs as
 * an ordinary test on any backend too (ctest -L opencl / -L cuda).
 *
 * Each case checks its results against the CPU reference (tests/ref): reductions, scans,
 * casts, copies and random numbers bit for bit, the rest with the tolerance table. Sizes
 * cover a vector chunk and a tail (37), several work-groups of the copy tiles, and more than
 * one chunk of the reductions and tiles of the scans (4096 elements). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_complex_gemm.h"
#include "ref_complex_red.h"
#include "ref_count.h"
#include "ref_index.h"
#include "ref_mask.h"
#include "ref_select.h"
#include "ref_sort.h"
#include "test_util.h"

#define N_SMALL 37
#define N_CHUNKS (2 * 4096 + 5) /* passes and tiles of the reductions and scans */

static const gpux_dtype k_compute[GT_COMPUTE_DTYPES] = GT_COMPUTE_DTYPE_INIT;
static const gpux_dtype k_storage[GT_STORAGE_DTYPES] = GT_STORAGE_DTYPE_INIT;
static int g_kernels; /* cases run: each is at least one kernel launch */

static void *host_random(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed) {
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt));
  gt_fill_random(p, dt, n, dom, seed);
  return p;
}

static gpux_array_t upload(gpux_dtype dt, int nd, const int64_t *shape, const void *data) {
  gpux_array_t a = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, nd, shape, data));
  return a;
}

/* reads a (any layout) and releases it */
static void *take(gpux_array_t a) {
  int64_t n = 0;
  void *p = gt_read_all(a, &n);
  gpux_array_release(a);
  return p;
}

/* ------------------------------------------------------------------ elementwise */
static void test_binary(void **state) {
  (void)state;
  const int64_t s2[2] = {4, 9}, s1[1] = {9}, sn[1] = {N_SMALL};
  for (int op = 0; op < GT_BINARY_OPS; op++)
    for (int d = 0; d < GT_STORAGE_DTYPES; d++) { /* the half dtypes' ops too */
      gpux_dtype dt = k_storage[d];
      if (!ref_binary_supported((gpux_binary_op)op, dt) || !gt_dtype_available(dt)) continue;
      gpux_dtype rdt = ref_binary_result((gpux_binary_op)op, dt);
      gt_tol tol = gt_tolerance(rdt, gt_binary_class((gpux_binary_op)op, dt));
      char label[128];
      void *ha = host_random(dt, N_SMALL, gt_binary_domain((gpux_binary_op)op, dt, 0), 11u + op);
      void *hb = host_random(dt, N_SMALL, gt_binary_domain((gpux_binary_op)op, dt, 1), 29u + op);
      ref_value *want = gt_malloc(N_SMALL * sizeof *want);
      gpux_array_t a = upload(dt, 1, sn, ha), b = upload(dt, 1, sn, hb), o = NULL;
      /* layout c */
      snprintf(label, sizeof label, "%s %s c", gt_binary_str(op), gt_dtype_str(dt));
      GT_OK(gpux_binary(&o, (gpux_binary_op)op, a, b));
      void *got = take(o);
      ref_binary((gpux_binary_op)op, dt, N_SMALL, ha, hb, want);
      gt_compare(label, rdt, got, want, N_SMALL, tol, dt, ha, hb);
      free(got);
      /* layout s, both operand orders */
      double sc = dt == GPUX_BOOL ? 1.0 : 3.0;
      for (int first = 0; first < 2; first++) {
        snprintf(label, sizeof label, "%s %s s%d", gt_binary_str(op), gt_dtype_str(dt), first);
        if (first) GT_OK(gpux_scalar_binary(&o, (gpux_binary_op)op, sc, a));
        else GT_OK(gpux_binary_scalar(&o, (gpux_binary_op)op, a, sc));
        got = take(o);
        ref_binary_scalar((gpux_binary_op)op, dt, N_SMALL, ha, sc, first, want);
        gt_compare(label, rdt, got, want, N_SMALL, tol, dt, ha, NULL);
        free(got);
      }
      gpux_array_release(a);
      gpux_array_release(b);
      /* layout n: (4, 9) x (9) broadcast */
      a = upload(dt, 2, s2, ha);
      b = upload(dt, 1, s1, hb);
      snprintf(label, sizeof label, "%s %s n", gt_binary_str(op), gt_dtype_str(dt));
      GT_OK(gpux_binary(&o, (gpux_binary_op)op, a, b));
      got = take(o);
      void *fb = gt_malloc(36 * ref_dtype_size(dt));
      ref_broadcast(fb, hb, ref_dtype_size(dt), 2, s2, 1, s1);
      ref_binary((gpux_binary_op)op, dt, 36, ha, fb, want);
      gt_compare(label, rdt, got, want, 36, tol, dt, ha, fb);
      GT_RELEASE(a, b);
      GT_FREE(got, fb, want, ha, hb);
      g_kernels += 4;
    }
}

static void test_unary_where(void **state) {
  (void)state;
  const int64_t sn[1] = {N_SMALL}, s2[2] = {5, 7};
  for (int op = 0; op < GT_UNARY_OPS; op++)
    for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
      gpux_dtype dt = k_storage[d];
      if (!ref_unary_supported((gpux_unary_op)op, dt) || !gt_dtype_available(dt)) continue;
      gpux_dtype rdt = ref_unary_result((gpux_unary_op)op, dt);
      gt_tol tol = gt_tolerance(rdt, gt_unary_class((gpux_unary_op)op, dt));
      char label[128];
      void *ha = host_random(dt, N_SMALL, gt_unary_domain((gpux_unary_op)op, dt), 41u + op);
      ref_value *want = gt_malloc(N_SMALL * sizeof *want);
      gpux_array_t a = upload(dt, 1, sn, ha), o = NULL;
      snprintf(label, sizeof label, "%s %s c", gt_unary_str(op), gt_dtype_str(dt));
      GT_OK(gpux_unary(&o, (gpux_unary_op)op, a));
      void *got = take(o);
      ref_unary((gpux_unary_op)op, dt, N_SMALL, ha, want);
      gt_compare(label, rdt, got, want, N_SMALL, tol, dt, ha, NULL);
      gpux_array_release(a);
      free(got);
      /* layout n: a strided view in */
      gt_view v;
      gt_view_make(&v, dt, 2, s2, GT_STRIDED, ha);
      snprintf(label, sizeof label, "%s %s n", gt_unary_str(op), gt_dtype_str(dt));
      GT_OK(gpux_unary(&o, (gpux_unary_op)op, v.view));
      got = take(o);
      ref_unary((gpux_unary_op)op, dt, 35, ha, want);
      gt_compare(label, rdt, got, want, 35, tol, dt, ha, NULL);
      gt_view_free(&v);
      GT_FREE(got, want, ha);
      g_kernels += 2;
    }
  for (int d = 0; d < GT_STORAGE_DTYPES; d++) {
    gpux_dtype dt = k_storage[d];
    if (!gt_dtype_available(dt)) continue;
    void *hc = host_random(GPUX_BOOL, N_SMALL, GT_DOM_ANY, 3);
    void *ha = host_random(dt, N_SMALL, GT_DOM_ANY, 5), *hb = host_random(dt, N_SMALL, GT_DOM_ANY, 7);
    ref_value *want = gt_malloc(N_SMALL * sizeof *want);
    ref_where(dt, N_SMALL, hc, ha, hb, want);
    gpux_array_t c = upload(GPUX_BOOL, 1, sn, hc), a = upload(dt, 1, sn, ha),
                 b = upload(dt, 1, sn, hb), o = NULL;
    GT_OK(gpux_where(&o, c, a, b));
    void *got = take(o);
    gt_compare("where c", dt, got, want, N_SMALL, gt_tolerance(dt, GT_OPC_EXACT), dt, ha, hb);
    free(got);
    GT_RELEASE(c, a, b);
    gt_view vc, va, vb;
    gt_view_make(&vc, GPUX_BOOL, 2, s2, GT_REVERSED, hc);
    gt_view_make(&va, dt, 2, s2, GT_STRIDED, ha);
    gt_view_make(&vb, dt, 2, s2, GT_CONTIG, hb);
    GT_OK(gpux_where(&o, vc.view, va.view, vb.view));
    got = take(o);
    ref_where(dt, 35, hc, ha, hb, want);
    gt_compare("where n", dt, got, want, 35, gt_tolerance(dt, GT_OPC_EXACT), dt, ha, hb);
    gt_view_free(&vc);
    gt_view_free(&va);
    gt_view_free(&vb);
    GT_FREE(got, want, ha, hb, hc);
    g_kernels += 2;
  }
}

/* ------------------------------------------------------------------ casts, copies, fills */
static void test_cast(void **state) {
  (void)state;
  const int64_t sn[1] = {N_SMALL}, s2[2] = {5, 7};
  for (int f = 0; f < 8; f++)
    for (int t = 0; t < 8; t++) {
      gpux_dtype from = k_storage[f], to = k_storage[t];
      if (!gt_dtype_available(from) || !gt_dtype_available(to)) continue;
      char label[96];
      void *h = host_random(from, N_SMALL, GT_DOM_ANY, 100u + (uint64_t)(8 * f + t));
      /* special values first: NaN, inf, limits, halves */
      gt_special_values(h, from, 16);
      void *want = gt_malloc(N_SMALL * ref_dtype_size(to));
      ref_cast_bits(from, to, N_SMALL, h, want);
      gpux_array_t a = upload(from, 1, sn, h), o = NULL;
      GT_OK(gpux_array_cast(&o, a, to));
      void *got = take(o);
      snprintf(label, sizeof label, "cast %s -> %s c", gt_dtype_str(from), gt_dtype_str(to));
      gt_compare_bits(label, to, got, want, N_SMALL);
      gpux_array_release(a);
      free(got);
      gt_view v;
      gt_view_make(&v, from, 2, s2, GT_REVERSED, h);
      GT_OK(gpux_array_cast(&o, v.view, to));
      got = take(o);
      snprintf(label, sizeof label, "cast %s -> %s n", gt_dtype_str(from), gt_dtype_str(to));
      gt_compare_bits(label, to, got, want, 35);
      gt_view_free(&v);
      GT_FREE(got, want, h);
      g_kernels += 2;
    }
}

/* gathers a 2-d (rows x cols) view's elements row-major from the base through the view's map */
static void test_copy(void **state) {
  (void)state;
  const gpux_dtype sizes[4] = {GPUX_UINT8, GPUX_FLOAT16, GPUX_FLOAT32, GPUX_FLOAT64};
  const int64_t s3[3] = {3, 5, 6}, sm[2] = {40, 36};
  for (int k = 0; k < 4; k++) {
    gpux_dtype dt = sizes[k];
    if (!gt_dtype_available(dt)) continue;
    size_t es = ref_dtype_size(dt);
    char label[96];
    /* copy_n: a strided 3-d view made contiguous */
    void *h = host_random(dt, 90, GT_DOM_ANY, 7u + (uint64_t)k);
    gt_view v;
    gt_view_make(&v, dt, 3, s3, GT_STRIDED, h);
    gpux_array_t o = NULL;
    GT_OK(gpux_array_contiguous(&o, v.view));
    void *got = take(o);
    snprintf(label, sizeof label, "copy_n %zu bytes", es);
    gt_compare_bits(label, dt, got, h, 90);
    gt_view_free(&v);
    GT_FREE(got, h);
    /* copy_t: transposes (tiled kernels on GPUs), a 2-d matrix and a 3-d permutation */
    h = host_random(dt, 40 * 36, GT_DOM_ANY, 17u + (uint64_t)k);
    void *want = gt_malloc(40 * 36 * es);
    gpux_array_t a = upload(dt, 2, sm, h);
    GT_OK(gpux_array_transpose(&o, a));
    got = take(o);
    const int ax2[2] = {1, 0};
    ref_permute(want, h, es, 2, sm, ax2);
    snprintf(label, sizeof label, "transpose %zu bytes", es);
    gt_compare_bits(label, dt, got, want, 40 * 36);
    gpux_array_release(a);
    free(got);
    const int ax3[3] = {2, 0, 1};
    a = upload(dt, 3, s3, h);
    GT_OK(gpux_array_permute(&o, a, ax3));
    got = take(o);
    ref_permute(want, h, es, 3, s3, ax3);
    snprintf(label, sizeof label, "permute %zu bytes", es);
    gt_compare_bits(label, dt, got, want, 90);
    gpux_array_release(a);
    GT_FREE(got, want, h);
    g_kernels += 3;
  }
}

static void test_fill(void **state) {
  (void)state;
  const int64_t sn[1] = {N_SMALL};
  for (int d = 0; d < 8; d++) {
    gpux_dtype dt = k_storage[d];
    if (!gt_dtype_available(dt)) continue;
    size_t es = ref_dtype_size(dt);
    char label[96];
    void *want = gt_malloc(N_SMALL * es);
    ref_value *rv = gt_malloc(N_SMALL * sizeof *rv);
    gpux_array_t o = NULL;
    /* fill */
    GT_OK(gpux_array_full(&o, gt_ctx, dt, 1, sn, 2.5));
    void *got = take(o);
    for (int64_t i = 0; i < N_SMALL; i++) ref_store(dt, want, i, ref_from_double(dt, 2.5));
    snprintf(label, sizeof label, "fill %s", gt_dtype_str(dt));
    gt_compare_bits(label, dt, got, want, N_SMALL);
    free(got);
    /* arange and linspace: against the reference values in float64, rounded to dt */
    GT_OK(gpux_array_arange(&o, gt_ctx, dt, -3.0, -3.0 + 0.5 * N_SMALL, 0.5));
    got = take(o);
    ref_arange(dt, -3.0, 0.5, N_SMALL, rv);
    for (int64_t i = 0; i < N_SMALL; i++) ref_store(dt, want, i, rv[i]);
    snprintf(label, sizeof label, "arange %s", gt_dtype_str(dt));
    gt_compare_bits(label, dt, got, want, N_SMALL);
    free(got);
    GT_OK(gpux_array_linspace(&o, gt_ctx, dt, -1.0, 7.0, N_SMALL));
    got = take(o);
    ref_linspace(dt, -1.0, 7.0, N_SMALL, rv);
    if (ref_dtype_is_half(dt) || !ref_dtype_is_float(dt)) {
      for (int64_t i = 0; i < N_SMALL; i++) ref_store(dt, want, i, rv[i]);
      snprintf(label, sizeof label, "linspace %s", gt_dtype_str(dt));
      gt_compare_bits(label, dt, got, want, N_SMALL);
    } else {
      gt_compare("linspace", dt, got, rv, N_SMALL, gt_tolerance(dt, GT_OPC_RANGE), dt, NULL, NULL);
    }
    GT_FREE(got, want, rv);
    g_kernels += 3;
  }
}

/* ------------------------------------------------------------------ reductions, scans */
static void reduce_check(gpux_reduce_op op, gpux_dtype dt, int nd, const int64_t *shape,
                         const int *red, const void *h, const char *what) {
  gpux_dtype rdt;
  if (!ref_reduce_result(op, dt, &rdt)) return;
  int axes[4], naxes = 0;
  int64_t nout = 1;
  for (int d = 0; d < nd; d++) {
    if (red[d]) axes[naxes++] = d;
    else nout *= shape[d];
  }
  void *want = gt_malloc((size_t)nout * ref_dtype_size(rdt));
  if (ref_reduce_axes_canon(op, dt, nd, shape, h, red, op == GPUX_REDUCE_VAR ? 1 : 0, want) < 0) {
    free(want);
    return;
  }
  gpux_array_t a = upload(dt, nd, shape, h), o = NULL;
  if (op == GPUX_REDUCE_VAR) GT_OK(gpux_var(&o, a, axes, naxes, 1, 0));
  else GT_OK(gpux_reduce(&o, op, a, axes, naxes, 0));
  void *got = take(o);
  char label[128];
  snprintf(label, sizeof label, "reduce %s %s %s", gpux_reduce_op_name(op), gt_dtype_str(dt), what);
  gt_compare_bits(label, rdt, got, want, nout);
  gpux_array_release(a);
  GT_FREE(got, want);
  g_kernels++;
}

static void test_reduce(void **state) {
  (void)state;
  /* columns: 5 go through a transposing copy and the row layout, 12 (>= 8) take the column
   * layout (a multiple of 4: the GPU form's vector columns where the kind has them) */
  const int64_t rows[2] = {3, 41}, cols[2] = {41, 5}, wide[2] = {41, 12}, big[1] = {N_CHUNKS},
                bigcols[2] = {4097, 12};
  const int red_row[2] = {0, 1}, red_col[2] = {1, 0}, red_all[1] = {1};
  for (int op = 0; op < GPUX_REDUCE_OP_COUNT; op++)
    for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
      gpux_dtype dt = k_compute[d];
      if (!gt_dtype_available(dt)) continue;
      gt_domain dom = op == GPUX_REDUCE_PROD ? GT_DOM_SMALLINT : GT_DOM_ANY;
      void *h = host_random(dt, N_CHUNKS, dom, 300u + (uint64_t)(op * 8 + d));
      reduce_check((gpux_reduce_op)op, dt, 2, rows, red_row, h, "rows");
      reduce_check((gpux_reduce_op)op, dt, 2, cols, red_col, h, "columns via copy");
      reduce_check((gpux_reduce_op)op, dt, 2, wide, red_col, h, "columns");
      /* more than one chunk: a second pass (argmin_p / argmax_p for the arg kinds) */
      if (dt == GPUX_FLOAT32 || dt == GPUX_INT64 || op == GPUX_REDUCE_VAR ||
          op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX)
        reduce_check((gpux_reduce_op)op, dt, 1, big, red_all, h, "2 passes");
      free(h);
      /* the arg kinds' second pass over columns (argmin_p / argmax_p, column layout) */
      if (op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX) {
        h = host_random(dt, 4097 * 12, dom, 700u + (uint64_t)(op * 8 + d));
        reduce_check((gpux_reduce_op)op, dt, 2, bigcols, red_col, h, "columns, 2 passes");
        free(h);
      }
    }
}

/* The scan of the rows of a (2-d, uploaded from h) with op against the canonical reference
 * (ref_scan_canon, or refc_scan_canon for complex), bit for bit; want has room for it. */
typedef void (*scan_ref_fn)(gpux_scan_op, gpux_dtype, int64_t, int64_t, const void *, int, void *);
static void scan_rows_check(gpux_scan_op op, gpux_dtype dt, gpux_dtype rdt, const int64_t *sh,
                            gpux_array_t a, const void *h, int ex, const char *what,
                            scan_ref_fn ref, void *want) {
  gpux_array_t o = NULL;
  GT_OK(gpux_scan(&o, op, a, 1, ex));
  void *got = take(o);
  ref(op, dt, sh[0], sh[1], h, ex, want);
  char label[96];
  snprintf(label, sizeof label, "scan %s %s %s%s", op ? "prod" : "sum", gt_dtype_str(dt), what,
           ex ? " exclusive" : "");
  gt_compare_bits(label, rdt, got, want, sh[0] * sh[1]);
  free(got);
  g_kernels++;
}

/* complex64 / complex128: the complex kinds (sum, prod, any, all, cnt, ssd) in rows,
 * columns and two passes, and cumsum and cumprod (complex128's GPU form reads its tiles
 * from global memory), against tests/ref/ref_complex_red.c */
static void test_reduce_complex(void **state) {
  (void)state;
  const gpux_dtype cdt[2] = {GPUX_COMPLEX64, GPUX_COMPLEX128};
  const gpux_reduce_op ops[] = {GPUX_REDUCE_SUM, GPUX_REDUCE_PROD, GPUX_REDUCE_MEAN,
                                GPUX_REDUCE_ANY, GPUX_REDUCE_ALL, GPUX_REDUCE_COUNT_NONZERO,
                                GPUX_REDUCE_VAR};
  const int64_t rows[2] = {3, 41}, wide[2] = {41, 12}, big[1] = {N_CHUNKS};
  const int red_row[2] = {0, 1}, red_col[2] = {1, 0}, red_all[1] = {1};
  for (int d = 0; d < 2; d++) {
    const gpux_dtype dt = cdt[d];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    /* parts of modulus near 1 (products stay finite), some exact zeros for the truth tests */
    char *h = gt_malloc((size_t)N_CHUNKS * es);
    gt_rng r;
    gt_rng_seed(&r, 900u + (uint64_t)d);
    for (int64_t i = 0; i < N_CHUNKS; i++) {
      const double a = gt_rng_uniform(&r, -3.1, 3.1), m = i % 7 == 3 ? 0 : gt_rng_uniform(&r, 0.98, 1.02);
      if (dt == GPUX_COMPLEX64) {
        ((float *)h)[2 * i] = (float)(m * cos(a));
        ((float *)h)[2 * i + 1] = (float)(m * sin(a));
      } else {
        ((double *)h)[2 * i] = m * cos(a);
        ((double *)h)[2 * i + 1] = m * sin(a);
      }
    }
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
      const gpux_reduce_op op = ops[o];
      const struct { int nd; const int64_t *shape; const int *red; const char *what; } cs[3] = {
          {2, rows, red_row, "rows"}, {2, wide, red_col, "columns"}, {1, big, red_all, "2 passes"}};
      for (int c = 0; c < 3; c++) {
        gpux_dtype rdt;
        GT_OK(gpux_reduce_result_dtype(&rdt, op, dt));
        int64_t nout = 1;
        int axes[2], naxes = 0;
        for (int k = 0; k < cs[c].nd; k++) {
          if (cs[c].red[k]) axes[naxes++] = k;
          else nout *= cs[c].shape[k];
        }
        void *want = gt_malloc((size_t)nout * gpux_dtype_size(rdt));
        GT_ASSERT(refc_reduce_axes_canon(op, dt, cs[c].nd, cs[c].shape, h, cs[c].red, 0, want) == 0, "ref");
        gpux_array_t a = upload(dt, cs[c].nd, cs[c].shape, h), out = NULL;
        if (op == GPUX_REDUCE_VAR) GT_OK(gpux_var(&out, a, axes, naxes, 0, 0));
        else GT_OK(gpux_reduce(&out, op, a, axes, naxes, 0));
        void *got = take(out);
        char label[128];
        snprintf(label, sizeof label, "reduce %s %s %s", gpux_reduce_op_name(op), gt_dtype_str(dt), cs[c].what);
        gt_compare_bits(label, rdt, got, want, nout);
        gpux_array_release(a);
        GT_FREE(got, want);
        g_kernels++;
      }
    }
    { /* cumsum and cumprod: two rows of two tiles (phases 1 to 3), inclusive / exclusive */
      const int64_t sh[2] = {2, N_CHUNKS / 2};
      const int64_t n = sh[0] * sh[1];
      void *want = gt_malloc((size_t)n * es);
      gpux_array_t a = upload(dt, 2, sh, h);
      for (int op = 0; op < 2; op++)
        for (int ex = 0; ex < 2; ex++)
          scan_rows_check((gpux_scan_op)op, dt, dt, sh, a, h, ex, "tiles", refc_scan_canon, want);
      gpux_array_release(a);
      free(want);
    }
    free(h);
  }
}

static void test_scan(void **state) {
  (void)state;
  const int64_t small[2] = {3, N_SMALL}, big[2] = {2, N_CHUNKS};
  for (int op = 0; op < 2; op++)
    for (int d = 0; d < GT_COMPUTE_DTYPES; d++) {
      gpux_dtype dt = k_compute[d];
      if (dt == GPUX_BOOL || !gt_dtype_available(dt)) continue;
      gpux_dtype rdt = ref_scan_result(dt);
      for (int sz = 0; sz < 2; sz++) {
        if (sz && dt != GPUX_FLOAT32 && dt != GPUX_INT32) continue;
        const int64_t *sh = sz ? big : small;
        int64_t n = sh[0] * sh[1];
        void *h = host_random(dt, n, op ? GT_DOM_SMALLINT : GT_DOM_ANY, 500u + (uint64_t)d);
        void *want = gt_malloc((size_t)n * ref_dtype_size(rdt));
        gpux_array_t a = upload(dt, 2, sh, h);
        for (int ex = 0; ex < 2; ex++)
          scan_rows_check((gpux_scan_op)op, dt, rdt, sh, a, h, ex, sz ? "tiles" : "small",
                          ref_scan_canon, want);
        gpux_array_release(a);
        GT_FREE(want, h);
      }
    }
}

/* ------------------------------------------------------------------ gemm (native kernels) */
static void test_gemm(void **state) {
  (void)state;
  const gpux_dtype dts[4] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_INT32, GPUX_INT64};
  const int64_t dims[2][3] = {{5, 3, 7}, {33, 35, 37}}; /* m, n, k: one tile, several */
  for (int d = 0; d < 4; d++)
    for (int z = 0; z < 2; z++)
      for (int t = 0; t < 4; t++) {
        gpux_dtype dt = dts[d];
        if (!gt_dtype_available(dt)) continue;
        if (z == 1 && t != 0 && t != 3) continue;
        int ta = t & 1, tb = t >> 1;
        int64_t m = dims[z][0], n = dims[z][1], k = dims[z][2];
        int64_t sa[2] = {ta ? k : m, ta ? m : k}, sb[2] = {tb ? n : k, tb ? k : n}, sc[2] = {m, n};
        gt_domain dom = ref_dtype_is_float(dt) ? GT_DOM_ANY : GT_DOM_SMALLINT;
        void *ha = host_random(dt, m * k, dom, 61u + (uint64_t)t);
        void *hb = host_random(dt, k * n, dom, 67u + (uint64_t)t);
        void *hc = host_random(dt, m * n, dom, 71u + (uint64_t)t);
        ref_value *want = gt_malloc((size_t)(m * n) * sizeof *want);
        double *sumabs = gt_malloc((size_t)(m * n) * sizeof *sumabs);
        ref_gemm(dt, ta, tb, m, n, k, 1.5, ha, sa[1], hb, sb[1], 0.5, hc, n, want, sumabs);
        gpux_array_t a = upload(dt, 2, sa, ha), b = upload(dt, 2, sb, hb), c = upload(dt, 2, sc, hc);
        GT_OK(gpux_gemm(c, ta ? GPUX_TRANS : GPUX_NO_TRANS, tb ? GPUX_TRANS : GPUX_NO_TRANS, 1.5,
                        a, b, 0.5));
        void *got = take(c);
        char label[96];
        snprintf(label, sizeof label, "gemm %s %" PRId64 "x%" PRId64 "x%" PRId64 " t%d%d",
                 gt_dtype_str(dt), m, n, k, ta, tb);
        if (ref_dtype_is_float(dt)) {
          const double eps = dt == GPUX_FLOAT32 ? 0x1p-24 : 0x1p-53;
          for (int64_t i = 0; i < m * n; i++) sumabs[i] *= 2.0 * (double)(k + 2) * eps;
          gt_compare_tol(label, dt, got, want, sumabs, m * n);
        } else {
          gt_compare_tol(label, dt, got, want, NULL, m * n);
        }
        GT_RELEASE(a, b);
        GT_FREE(got, ha, hb, hc, want, sumabs);
        g_kernels++;
      }
}

/* complex products (gpux_gemm_c64 / _c128): transposes and conjugate transposes, one tile and
 * several (64 x 64 in the GPU form), data of small integers: exact against ref_cgemm */
static void test_cgemm(void **state) {
  (void)state;
  const int64_t dims[2][3] = {{5, 3, 7}, {70, 35, 37}};
  const int ops[3][2] = {{0, 0}, {2, 1}, {1, 2}};
  for (int d = 0; d < 2; d++)
    for (int z = 0; z < 2; z++)
      for (int o = 0; o < 3; o++) {
        const gpux_dtype dt = d ? GPUX_COMPLEX128 : GPUX_COMPLEX64;
        if (!gt_dtype_available(dt)) continue;
        const int ta = ops[o][0], tb = ops[o][1];
        const int64_t m = dims[z][0], n = dims[z][1], k = dims[z][2];
        const int64_t sa[2] = {ta ? k : m, ta ? m : k}, sb[2] = {tb ? n : k, tb ? k : n};
        const int64_t sc[2] = {m, n}, cnt[3] = {m * k, k * n, m * n};
        double *h[3], *dev[3];
        for (int x = 0; x < 3; x++) {
          h[x] = gt_malloc((size_t)(2 * cnt[x]) * sizeof(double));
          dev[x] = gt_malloc((size_t)(2 * cnt[x]) * sizeof(double));
          for (int64_t i = 0; i < 2 * cnt[x]; i++) {
            h[x][i] = (double)((i * 7 + x * 3 + o) % 9) - 4.0;
            if (dt == GPUX_COMPLEX64) ((float *)dev[x])[i] = (float)h[x][i];
            else dev[x][i] = h[x][i];
          }
        }
        const double al[2] = {1.5, -1.0}, be[2] = {0.5, 2.0};
        double *want = gt_malloc((size_t)(2 * m * n) * sizeof(double));
        ref_cgemm(ta, tb, m, n, k, al, h[0], sa[1], h[1], sb[1], be, h[2], n, want, NULL);
        gpux_array_t a = upload(dt, 2, sa, dev[0]), b = upload(dt, 2, sb, dev[1]);
        gpux_array_t c = upload(dt, 2, sc, dev[2]);
        GT_OK(gpux_gemm_complex(c, (gpux_transpose)ta, (gpux_transpose)tb,
                                gpux_complex128_make(al[0], al[1]), a, b,
                                gpux_complex128_make(be[0], be[1])));
        void *got = take(c);
        for (int64_t i = 0; i < 2 * m * n; i++) {
          const double g = dt == GPUX_COMPLEX64 ? (double)((float *)got)[i] : ((double *)got)[i];
          GT_ASSERT(g == want[i], "cgemm %s %lldx%lldx%lld ops %d%d: part %lld is %g, want %g",
                    gt_dtype_str(dt), (long long)m, (long long)n, (long long)k, ta, tb,
                    (long long)i, g, want[i]);
        }
        GT_RELEASE(a, b); /* take released c */
        GT_FREE(got, h[0], h[1], h[2], dev[0], dev[1], dev[2], want);
        g_kernels++;
      }
}

/* ------------------------------------------------------------------ random numbers */
static void test_random(void **state) {
  (void)state;
  const gpux_dtype fdt[2] = {GPUX_FLOAT32, GPUX_FLOAT64};
  const gpux_dtype idt[2] = {GPUX_INT32, GPUX_INT64};
  const int64_t sizes[2] = {N_SMALL, 3000}; /* 3000: several blocks and work-groups */
  gpux_generator_t g = NULL;
  GT_OK(gpux_generator_create(&g, 20261202));
  for (int z = 0; z < 2; z++) {
    int64_t n = sizes[z];
    for (int kind = 0; kind < 4; kind++) {
      int ndt = kind == GPUX_RANDOM_BERNOULLI ? 1 : 2;
      for (int d = 0; d < ndt; d++) {
        gpux_dtype dt = kind == GPUX_RANDOM_INTEGERS    ? idt[d]
                        : kind == GPUX_RANDOM_BERNOULLI ? GPUX_BOOL
                                                        : fdt[d];
        if (!gt_dtype_available(dt)) continue;
        size_t bytes = (size_t)n * ref_dtype_size(dt);
        gpux_array_t o = NULL;
        GT_OK(gpux_array_empty(&o, gt_ctx, dt, 1, &n));
        gpux_rng_state st;
        GT_OK(gpux_generator_get_state(&st, g));
        void *want = gt_malloc(bytes);
        switch (kind) {
          case GPUX_RANDOM_UNIFORM:
            GT_OK(gpux_random_uniform(o, g, -2.0, 3.0));
            GT_OK(gpux_random_uniform_host(want, dt, 0, n, &st, -2.0, 3.0));
            break;
          case GPUX_RANDOM_NORMAL: /* z == 0: the standard normal's own kernels */
            GT_OK(gpux_random_normal(o, g, z ? 1.0 : 0.0, z ? 2.0 : 1.0));
            GT_OK(gpux_random_normal_host(want, dt, 0, n, &st, z ? 1.0 : 0.0, z ? 2.0 : 1.0));
            break;
          case GPUX_RANDOM_INTEGERS:
            GT_OK(gpux_random_integers(o, g, -5, 100));
            GT_OK(gpux_random_integers_host(want, dt, 0, n, &st, -5, 100));
            break;
          default:
            GT_OK(gpux_random_bernoulli(o, g, 0.3));
            GT_OK(gpux_random_bernoulli_host(want, 0, n, &st, 0.3));
        }
        void *got = take(o);
        char label[96];
        snprintf(label, sizeof label, "random kind %d %s n %" PRId64, kind, gt_dtype_str(dt), n);
        gt_compare_bits(label, dt, got, want, n);
        GT_FREE(got, want);
        g_kernels++;
      }
    }
  }
  gpux_generator_release(g);
}

/* ------------------------------------------------------------------ user kernels */
/* a work-group sum in local memory (barriers), a global atomic, and the dialect's math */
static const char k_dialect_src[] =
    "GPUX_KERNEL block_sum(GPUX_GLOBAL const gpux_i32 *x, GPUX_GLOBAL gpux_i32 *sums,\n"
    "                      GPUX_GLOBAL gpux_i32 *total, GPUX_LOCAL_PTR(gpux_i32) tmp,\n"
    "                      gpux_i64 n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0), l = GPUX_LOCAL_ID(0);\n"
    "  tmp[l] = i < n ? x[i] : 0;\n"
    "  GPUX_BARRIER();\n"
    "  for (gpux_i64 s = GPUX_LOCAL_SIZE(0) / 2; s > 0; s /= 2) {\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "    GPUX_BARRIER();\n"
    "  }\n"
    "  if (l == 0) {\n"
    "    sums[GPUX_GROUP_ID(0)] = tmp[0];\n"
    "    GPUX_ATOMIC_ADD_I32(total, tmp[0]);\n"
    "  }\n"
    "}\n";

/* v rounded to dt, as the kernel rounds each op of a fused expression */
static ref_value rounded(gpux_dtype dt, ref_value v) {
  double tmp;
  ref_store(dt, &tmp, 0, v);
  return ref_load(dt, &tmp, 0);
}

static void test_user_kernels(void **state) {
  (void)state;
  enum { WG = 16, GROUPS = 5, NX = WG * GROUPS - 3 };
  int32_t hx[NX], sums[GROUPS] = {0}, total = 0;
  for (int i = 0; i < NX; i++) hx[i] = (i * 7919) % 23 - 11;
  for (int i = 0; i < NX; i++) {
    sums[i / WG] += hx[i];
    total += hx[i];
  }
  int64_t nx = NX, ng = GROUPS, one = 1;
  gpux_array_t x = upload(GPUX_INT32, 1, &nx, hx), s = NULL, t = NULL;
  GT_OK(gpux_array_zeros(&s, gt_ctx, GPUX_INT32, 1, &ng));
  GT_OK(gpux_array_zeros(&t, gt_ctx, GPUX_INT32, 1, &one));
  gpux_program_t p = NULL;
  gpux_kernel_t k = NULL;
  GT_OK(gpux_program_create(&p, gt_ctx, GPUX_SOURCE_DIALECT, k_dialect_src, NULL));
  GT_OK(gpux_kernel_create(&k, p, "block_sum"));
  const uint64_t grid[1] = {GROUPS};
  const uint32_t block[1] = {WG};
  const gpux_arg args[5] = {gpux_arg_array(x), gpux_arg_array(s), gpux_arg_array(t),
                            gpux_arg_local(WG * sizeof(int32_t)), gpux_arg_i64(NX)};
  GT_OK(gpux_kernel_call(k, 1, grid, block, 5, args));
  int32_t gs[GROUPS], gt1;
  GT_OK(gpux_array_read(s, gs, sizeof gs));
  GT_OK(gpux_array_read(t, &gt1, sizeof gt1));
  GT_ASSERT(memcmp(gs, sums, sizeof gs) == 0, "block_sum: the work-group sums differ");
  GT_ASSERT(gt1 == total, "block_sum: total %d, expected %d", gt1, total);
  gpux_kernel_release(k);
  gpux_program_release(p);
  GT_RELEASE(x, s, t);
  g_kernels++;

  /* an elementwise expression with the ops prelude, contiguous and broadcast */
  gpux_elementwise_t ew = NULL;
  GT_OK(gpux_elementwise_create(&ew, gt_ctx, "T x, T y, T a", "T z",
                                "z = gpux_maximum(a * x, y) + gpux_relu(x - y)", "fused", NULL));
  const int64_t s2[2] = {4, 9}, s1[1] = {9};
  for (int d = 0; d < 4; d++) {
    gpux_dtype dt = k_compute[d];
    if (!gt_dtype_available(dt)) continue;
    for (int bc = 0; bc < 2; bc++) {
      void *hxv = host_random(dt, 36, GT_DOM_SMALLINT, 81u + (uint64_t)d);
      void *hy = host_random(dt, 36, GT_DOM_SMALLINT, 83u + (uint64_t)d);
      gpux_array_t ax = upload(dt, 2, s2, hxv), ay = upload(dt, bc ? 1 : 2, bc ? s1 : s2, hy),
                   az = NULL;
      GT_OK(gpux_array_empty(&az, gt_ctx, dt, 2, s2));
      const gpux_arg eargs[4] = {gpux_arg_array(ax), gpux_arg_array(ay), gpux_arg_f64(2.0),
                                 gpux_arg_array(az)};
      GT_OK(gpux_elementwise_call(ew, 4, eargs));
      void *got = take(az);
      ref_value *want = gt_malloc(36 * sizeof *want);
      void *fy = gt_malloc(36 * ref_dtype_size(dt));
      if (bc) ref_broadcast(fy, hy, ref_dtype_size(dt), 2, s2, 1, s1);
      else memcpy(fy, hy, 36 * ref_dtype_size(dt));
      for (int64_t i = 0; i < 36; i++) {
        ref_value xv = ref_load(dt, hxv, i), yv = ref_load(dt, fy, i);
        ref_value ax2 = rounded(dt, ref_binary1(GPUX_MUL, dt, ref_from_double(dt, 2.0), xv));
        ref_value mx = ref_binary1(GPUX_MAXIMUM, dt, ax2, yv);
        ref_value rl = ref_unary1(GPUX_RELU, dt, rounded(dt, ref_binary1(GPUX_SUB, dt, xv, yv)));
        want[i] = ref_binary1(GPUX_ADD, dt, mx, rl);
      }
      char label[96];
      snprintf(label, sizeof label, "elementwise expression %s%s", gt_dtype_str(dt),
               bc ? " broadcast" : "");
      gt_compare(label, dt, got, want, 36, gt_tolerance(dt, GT_OPC_EXACT), dt, hxv, fy);
      GT_RELEASE(ax, ay);
      GT_FREE(got, want, fy, hxv, hy);
      g_kernels++;
    }
  }
  gpux_elementwise_release(ew);
}

/* GPUX_OCLGRIND_CANARY=1: a kernel with an out-of-bounds write and a write-write race, which
 * tests/oclgrind.sh runs to check that oclgrind's reports are seen (a blind check would pass
 * anything). Blocks of the pool are whole multiples of 512 bytes: 128 int32 fill one. */
static const char k_canary_src[] =
    "GPUX_KERNEL canary(GPUX_GLOBAL gpux_i32 *x, gpux_i64 n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  x[n + i] = 1;\n"
    "  x[0] = (gpux_i32)i;\n"
    "}\n";

static int run_canary(void) {
  int64_t n = 128;
  gpux_array_t x = NULL;
  gpux_program_t p = NULL;
  gpux_kernel_t k = NULL;
  const uint64_t grid[1] = {1};
  const uint32_t block[1] = {2};
  gpux_status s = gpux_array_zeros(&x, gt_ctx, GPUX_INT32, 1, &n);
  if (s == GPUX_SUCCESS) s = gpux_program_create(&p, gt_ctx, GPUX_SOURCE_DIALECT, k_canary_src, NULL);
  if (s == GPUX_SUCCESS) s = gpux_kernel_create(&k, p, "canary");
  const gpux_arg args[2] = {gpux_arg_array(x), gpux_arg_i64(n)};
  if (s == GPUX_SUCCESS) s = gpux_kernel_call(k, 1, grid, block, 2, args);
  if (s == GPUX_SUCCESS) s = gpux_context_synchronize(gt_ctx);
  printf("test_oclgrind: canary launched: %s\n", gpux_status_name(s));
  gpux_kernel_release(k);
  gpux_program_release(p);
  gpux_array_release(x);
  gt_shutdown();
  return 0;
}

/* top-k's three paths (the radix select, the two reads, the one read: the select family's
 * kernels, issue 25) on one row of 4 tiles and a partial one (4 x 4096 + 37 float32 keys)
 * in one h12 group (filt's three tile-count words each reused); the one read with filt's
 * lists (samp1: its fallback an error) and without them (capg 0: the group reads its keys
 * again) */
static void test_topk(void **state) {
  (void)state;
  const int64_t n = 4 * 4096 + N_SMALL, k = 50;
  void *h = host_random(GPUX_FLOAT32, n, GT_DOM_ANY, 4242);
  float wv[50];
  int64_t wi[50];
  ref_topk(GPUX_FLOAT32, h, 1, n, k, 0, 0, wv, wi);
  gpux_array_t x = upload(GPUX_FLOAT32, 1, &n, h);
  const char *path[4] = {"old", "cand", "samp1", "samp1"};
  setenv("GPUX_SELECT_H12_GROUPS", "1", 1);
  for (int p = 0; p < 4; p++) {
    setenv("GPUX_SELECT_TOPK_PATH", path[p], 1);
    if (p == 3) setenv("GPUX_SELECT_CAPG", "0", 1);
    gpux_array_t v = NULL, i = NULL;
    GT_OK(gpux_topk(&v, &i, x, k, 0, 0));
    float *gv = take(v);
    int64_t *gi = take(i);
    if (memcmp(gv, wv, sizeof wv) || memcmp(gi, wi, sizeof wi))
      GT_FAIL("topk of %" PRId64 " float32, k %" PRId64 ", path %s%s: not the reference's",
              n, k, path[p], p == 3 ? " (capg 0)" : "");
    GT_FREE(gv, gi);
    g_kernels++;
  }
  unsetenv("GPUX_SELECT_CAPG");
  unsetenv("GPUX_SELECT_TOPK_PATH");
  unsetenv("GPUX_SELECT_H12_GROUPS");
  gpux_array_release(x);
  free(h);
}

/* ------------------------------------------------------------------ sort */
/* n bytes of got against want (es-byte elements), naming the first element that differs */
static void expect_elems(const char *label, const void *got, const void *want, size_t es,
                         int64_t n) {
  if (n == 0 || !memcmp(got, want, (size_t)n * es)) return;
  int64_t i = 0;
  while (!memcmp((const char *)got + (size_t)i * es, (const char *)want + (size_t)i * es, es)) i++;
  GT_FAIL("%s: element %" PRId64 " of %" PRId64 " differs", label, i, n);
}

/* n keys of dt drawn from a pool of 24: 5 special values (floats: NaN, +-inf, +-0.0) and 19
 * random ones: hundreds of equal keys, so the order of equal keys (stability) decides the
 * positions and the sort by key's values. thin (64-bit keys of the Onesweep rows): every
 * pool key's bits ANDed with a mask that leaves 3 of the 8 digits of the images varying
 * (bytes 0, 3 and 7): the first pass (it reads the keys), one in the middle and the last
 * (it writes the outputs) run, the passes of constant digits are skipped, and oclgrind
 * interprets 3 passes, not 8. (32-bit float keys of both signs vary in all 4 digits.) */
static void *sort_keys(gpux_dtype dt, int64_t n, int thin, uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  unsigned char *pool = host_random(dt, 24, GT_DOM_ANY, seed);
  gt_special_values(pool, dt, 5);
  for (int k = 0; thin && k < 24; k++) {
    uint64_t b = 0;
    memcpy(&b, pool + (size_t)k * es, 8);
    b &= 0xff000000ff0000ffull;
    memcpy(pool + (size_t)k * es, &b, 8);
  }
  unsigned char *x = gt_malloc((size_t)n * es);
  gt_rng r;
  gt_rng_seed(&r, seed + 1);
  for (int64_t i = 0; i < n; i++)
    memcpy(x + (size_t)i * es, pool + (size_t)(gt_rng_u64(&r) % 24) * es, es);
  free(pool);
  return x;
}

/* gpux_sort_into, gpux_argsort and gpux_sort_by_key (int32 values) of keys of dt in shape
 * (rows of its last axis, the sorted one), ascending and descending, against tests/ref's
 * stable merge sort (ref_sort_along: keys-only keys, positions with -0.0 == +0.0; sort by
 * key: the keys' and the values' own bits gathered by those positions) */
static void sort_check(gpux_dtype dt, int nd, const int64_t *shape, uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  const int64_t n = ref_shape_size(nd, shape), len = shape[nd - 1], rows = n / len;
  unsigned char *x = sort_keys(dt, n, es == 8 && len > GPUX_SORT_LOCAL_MAX, seed);
  int32_t *v = gt_malloc((size_t)n * 4), *wv = gt_malloc((size_t)n * 4);
  for (int64_t i = 0; i < n; i++) v[i] = (int32_t)(i * 7919 + 3);
  unsigned char *wk = gt_malloc((size_t)n * es), *wbk = gt_malloc((size_t)n * es);
  int64_t *wp = gt_malloc((size_t)n * 8);
  gpux_array_t a = upload(dt, nd, shape, x), va = upload(GPUX_INT32, nd, shape, v);
  char label[160], sh[64];
  for (int desc = 0; desc < 2; desc++) {
    const unsigned fl = desc ? GPUX_SORT_DESCENDING : 0u;
    ref_sort_along(dt, nd, shape, -1, x, desc, wk, wp);
    for (int64_t r = 0; r < rows; r++)
      for (int64_t j = 0; j < len; j++) {
        const int64_t o = r * len + j, from = r * len + wp[o];
        memcpy(wbk + (size_t)o * es, x + (size_t)from * es, es);
        wv[o] = v[from];
      }
    const char *ord = desc ? "descending" : "ascending";
    const char *shs = gt_shape_str(sh, sizeof sh, nd, shape);
    gpux_array_t o = NULL;
    GT_OK(gpux_array_empty(&o, gt_ctx, dt, nd, shape));
    GT_OK(gpux_sort_into(o, a, -1, fl));
    void *got = take(o);
    snprintf(label, sizeof label, "sort_into %s %s %s", gt_dtype_str(dt), shs, ord);
    expect_elems(label, got, wk, es, n);
    free(got);
    GT_OK(gpux_argsort(&o, a, -1, fl));
    got = take(o);
    snprintf(label, sizeof label, "argsort %s %s %s", gt_dtype_str(dt), shs, ord);
    expect_elems(label, got, wp, 8, n);
    free(got);
    gpux_array_t ko = NULL, vo[1] = {NULL};
    const gpux_array_t vin[1] = {va};
    GT_OK(gpux_sort_by_key(&ko, vo, a, vin, 1, -1, fl));
    got = take(ko);
    snprintf(label, sizeof label, "sort_by_key %s %s %s: keys", gt_dtype_str(dt), shs, ord);
    expect_elems(label, got, wbk, es, n);
    free(got);
    got = take(vo[0]);
    snprintf(label, sizeof label, "sort_by_key %s %s %s: int32 values", gt_dtype_str(dt), shs,
             ord);
    expect_elems(label, got, wv, 4, n);
    free(got);
    g_kernels += 3;
  }
  GT_RELEASE(a, va);
  GT_FREE(x, v, wv, wk, wbk, wp);
}

/* The sort family (kernels/cl/sort.cl; its GPU form in the gpu1 shape of tests/oclgrind.sh,
 * the CPU form in gpu4, whose 32 KB of local memory the GPU form's 40 KB exceed): float32
 * (32-bit images) and int64 (64-bit images; float64 too where the device has it). One row
 * of 2 Onesweep tiles and a partial one (GPUX_SORT_TILE: 4096 keys for 32-bit images, 2048
 * for 64-bit ones): imgh, then gpux_sort_onesweep_32 / _64 per varying digit (float32: 4;
 * int64: 3 of 8, sort_keys) with the fused ends (the first pass reads the keys, the last
 * writes them back and the int64 positions); int64 keys with one int32 value array take the
 * payload path (the values ride the passes). 3 rows of 37 keys: img, gpux_sort_local_32 /
 * _64 (a work-group a row), out and widen, and the sort by key's gather (take_along_axis). */
static void test_sort(void **state) {
  (void)state;
  const gpux_dtype dts[3] = {GPUX_FLOAT32, GPUX_INT64, GPUX_FLOAT64};
  for (int d = 0; d < 3; d++) {
    const gpux_dtype dt = dts[d];
    if (!gt_dtype_available(dt)) continue;
    const int64_t tile = ref_dtype_size(dt) == 8 ? GPUX_SORT_TILE(64) : GPUX_SORT_TILE(32);
    const int64_t lng[1] = {2 * tile + N_SMALL}, shrt[2] = {3, N_SMALL};
    GT_ASSERT(lng[0] > GPUX_SORT_LOCAL_MAX && shrt[1] <= GPUX_SORT_LOCAL_MAX, "sort sizes");
    if (dt != GPUX_FLOAT64) sort_check(dt, 1, lng, 1300u + (uint64_t)d);
    sort_check(dt, 2, shrt, 1400u + (uint64_t)d);
  }
}

/* ------------------------------------------------------------------ masks */
/* n elements of dt: random bits, about 3 in 8 zeros, 1 in 8 -0.0 for floats (zero for
 * nonzero's predicate, on the bits) */
static void *mask_data(gpux_dtype dt, int64_t n, uint64_t seed) {
  const size_t es = ref_dtype_size(dt);
  unsigned char *x = gt_malloc((size_t)n * es);
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) {
    unsigned char *p = x + (size_t)i * es;
    for (size_t b = 0; b < es; b++) p[b] = (unsigned char)gt_rng_u64(&r);
    const unsigned k = (unsigned)(gt_rng_u64(&r) % 8);
    if (k < 3 || (k == 3 && ref_dtype_is_float(dt))) memset(p, 0, es);
    if (k == 3 && ref_dtype_is_float(dt)) p[es - 1] = 0x80; /* little endian: the sign */
  }
  return x;
}

static int cmp_i32(const void *a, const void *b) {
  const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* gpux_compress, gpux_nonzero and gpux_mask_put (kernels/cl/mask.cl: the count of each
 * tile, their scan, then the compaction kernel) on 2 tiles of GPUX_MASK_TILE and a tail, for
 * 4- and 8-byte elements (float32: -0.0 is zero; int64), against tests/ref's ref_mask_*,
 * bit for bit. nonzero on a 2-d x (3 rows): two coordinates per element. unique with its
 * inverse (the starts and ids kernels) against qsort and a binary search. */
static void test_mask(void **state) {
  (void)state;
  const gpux_dtype dts[2] = {GPUX_FLOAT32, GPUX_INT64};
  const int64_t n = 2 * GPUX_MASK_TILE + N_SMALL, s2[2] = {3, n / 3};
  GT_ASSERT(s2[0] * s2[1] == n, "mask sizes");
  for (int d = 0; d < 2; d++) {
    const gpux_dtype dt = dts[d];
    const size_t es = ref_dtype_size(dt);
    char label[96];
    unsigned char *xh = mask_data(dt, n, 1500u + (uint64_t)d);
    uint8_t *mh = gt_malloc((size_t)n);
    gt_rng r;
    gt_rng_seed(&r, 1510u + (uint64_t)d);
    for (int64_t i = 0; i < n; i++) mh[i] = (uint8_t)(gt_rng_u64(&r) & 1);
    gpux_array_t x = upload(dt, 1, &n, xh), m = upload(GPUX_BOOL, 1, &n, mh), o = NULL;
    /* x[mask] */
    void *want = gt_malloc((size_t)n * es);
    const int64_t cnt = ref_mask_compress(es, n, xh, mh, want);
    GT_OK(gpux_compress(&o, x, m));
    snprintf(label, sizeof label, "compress %s n %" PRId64, gt_dtype_str(dt), n);
    gt_check_shape(o, dt, 1, &cnt, label);
    void *got = take(o);
    expect_elems(label, got, want, es, cnt);
    free(got);
    g_kernels++;
    /* nonzero of a (3, n / 3) x */
    uint8_t *sel = gt_malloc((size_t)n);
    for (int64_t i = 0; i < n; i++) sel[i] = (uint8_t)ref_mask_nonzero(dt, xh, i);
    int64_t *coords = gt_malloc((size_t)n * 2 * sizeof(int64_t));
    const int64_t k = ref_mask_argwhere(2, s2, sel, coords);
    int64_t *col = gt_malloc((size_t)(k + 1) * sizeof(int64_t));
    gpux_array_t x2 = upload(dt, 2, s2, xh), nz[2] = {NULL, NULL};
    GT_OK(gpux_nonzero(nz, x2));
    for (int c = 0; c < 2; c++) {
      for (int64_t i = 0; i < k; i++) col[i] = coords[2 * i + c];
      snprintf(label, sizeof label, "nonzero %s (3, %" PRId64 ") coordinate %d", gt_dtype_str(dt),
               s2[1], c);
      gt_check_shape(nz[c], GPUX_INT64, 1, &k, label);
      got = take(nz[c]);
      expect_elems(label, got, col, 8, k);
      free(got);
    }
    gpux_array_release(x2);
    g_kernels++;
    /* x[mask] = values */
    unsigned char *vh = mask_data(dt, cnt, 1520u + (uint64_t)d);
    gpux_array_t vals = upload(dt, 1, &cnt, vh);
    GT_OK(gpux_mask_put(x, m, vals));
    unsigned char *yw = gt_malloc((size_t)n * es);
    memcpy(yw, xh, (size_t)n * es);
    ref_mask_put(es, n, yw, mh, vh);
    got = take(x);
    snprintf(label, sizeof label, "mask_put %s n %" PRId64, gt_dtype_str(dt), n);
    expect_elems(label, got, yw, es, n);
    g_kernels++;
    GT_RELEASE(m, vals);
    GT_FREE(got, yw, vh, want, sel, coords, col, mh, xh);
  }
  /* unique of int32 keys with 37 values (runs across the tile boundaries) with its inverse:
   * the mask family's starts and ids kernels after the sort */
  int32_t *kh = gt_malloc((size_t)n * sizeof *kh), *dv = gt_malloc((size_t)n * sizeof *dv);
  int64_t *iw = gt_malloc((size_t)n * sizeof *iw), nu = 0;
  gt_rng r;
  gt_rng_seed(&r, 1530u);
  for (int64_t i = 0; i < n; i++) kh[i] = (int32_t)(gt_rng_u64(&r) % 37) - 18;
  memcpy(dv, kh, (size_t)n * sizeof *dv);
  qsort(dv, (size_t)n, sizeof *dv, cmp_i32);
  for (int64_t i = 0; i < n; i++)
    if (i == 0 || dv[i] != dv[nu - 1]) dv[nu++] = dv[i];
  for (int64_t i = 0; i < n; i++) {
    int64_t lo = 0, hi = nu - 1; /* dv[lo] <= kh[i] <= dv[hi] */
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      if (dv[mid] < kh[i]) lo = mid + 1;
      else hi = mid;
    }
    iw[i] = lo;
  }
  gpux_array_t kx = upload(GPUX_INT32, 1, &n, kh), uv = NULL, ui = NULL;
  GT_OK(gpux_unique(&uv, NULL, &ui, NULL, kx));
  gt_check_shape(uv, GPUX_INT32, 1, &nu, "unique int32 values");
  void *got = take(uv);
  expect_elems("unique int32 values", got, dv, 4, nu);
  free(got);
  gt_check_shape(ui, GPUX_INT64, 1, &n, "unique int32 inverse");
  got = take(ui);
  expect_elems("unique int32 inverse", got, iw, 8, n);
  g_kernels += 2;
  GT_RELEASE(kx);
  GT_FREE(got, iw, dv, kh);
}

/* ------------------------------------------------------------------ gather, put, scatter */
/* n indices in [lo, hi] (many repeated when the range is small) */
static int64_t *index_values(int64_t n, int64_t lo, int64_t hi, uint64_t seed) {
  int64_t *p = gt_malloc((size_t)n * sizeof *p);
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) p[i] = gt_rng_int(&r, lo, hi);
  return p;
}

/* an index array (int32 or int64) of shape (n,) holding v */
static gpux_array_t index_array(const int64_t *v, int64_t n, gpux_dtype it) {
  if (it == GPUX_INT64) return upload(GPUX_INT64, 1, &n, v);
  int32_t *t = gt_malloc((size_t)n * 4);
  for (int64_t i = 0; i < n; i++) t[i] = (int32_t)v[i];
  gpux_array_t a = upload(GPUX_INT32, 1, &n, t);
  free(t);
  return a;
}

/* gpux_take (kernels/cl/index.cl: the fast gpux_index_take_<bytes>_<it> of a 1-d source,
 * gpux_index_gather_ along an axis of a 2-d one and of a flattened one) in the checked,
 * wrap and clip modes, int32 and int64 indices, 4- and 8-byte elements, with repeated
 * indices; a checked take with a bad index and its deferred error (gpux_index_badval_);
 * gpux_put (gpux_index_mark_ then gpux_index_put_: the last write wins) with repeated
 * indices and cycled values; against tests/ref's ref_take / ref_put, bit for bit. */
static void test_index(void **state) {
  (void)state;
  const gpux_dtype dts[2] = {GPUX_FLOAT32, GPUX_INT64};
  const int64_t a2[2] = {6, N_SMALL}, ni = 50;
  for (int d = 0; d < 2; d++) {
    const gpux_dtype dt = dts[d];
    const size_t es = ref_dtype_size(dt);
    void *ha = host_random(dt, 6 * N_SMALL, GT_DOM_ANY, 1600u + (uint64_t)d);
    void *want = gt_malloc((size_t)(N_SMALL * ni) * es); /* the largest: axis 0 */
    char label[128];
    /* (source dims, axis): 1-d (the fast kernel), axis 1 and axis 0 of (6, 37), flattened */
    const struct { int nd, axis; } cs[4] = {{1, 0}, {2, 1}, {2, 0}, {2, GPUX_ALL_AXES}};
    for (int c = 0; c < 4; c++)
      for (int mode = 0; mode < 3; mode++) {
        const int nd = cs[c].nd, axis = cs[c].axis;
        const int64_t *ash = nd == 1 ? &a2[1] : a2;
        const int64_t len = axis == GPUX_ALL_AXES ? 6 * N_SMALL : nd == 1 ? N_SMALL : a2[axis];
        const gpux_dtype it = (c + mode) % 2 ? GPUX_INT32 : GPUX_INT64;
        const uint64_t seed = 1610u + (uint64_t)(12 * d + 3 * c + mode);
        int64_t *iv = mode == GPUX_INDEX_CHECKED ? index_values(ni, -len, len - 1, seed)
                                                 : index_values(ni, -3 * len, 3 * len, seed);
        const int rd = axis == GPUX_ALL_AXES ? -1 : axis;
        GT_ASSERT(ref_take(want, ha, es, nd, ash, iv, ni, rd, mode) < 0, "take: a bad index");
        gpux_array_t a = upload(dt, nd, ash, ha), idx = index_array(iv, ni, it), o = NULL;
        GT_OK(gpux_take(&o, a, idx, axis, (gpux_index_mode)mode));
        int64_t on = 0;
        void *got = gt_read_all(o, &on);
        snprintf(label, sizeof label, "take %s %dd axis %d mode %d %s idx", gt_dtype_str(dt), nd,
                 axis, mode, gt_dtype_str(it));
        GT_ASSERT(on == ni * (nd == 2 && axis != GPUX_ALL_AXES ? a2[1 - axis] : 1),
                  "%s: %" PRId64 " elements", label, on);
        expect_elems(label, got, want, es, on);
        GT_RELEASE(o, a, idx);
        GT_FREE(got, iv);
        g_kernels++;
      }
    { /* checked, index 37 of 37 at position 5: the next wait reports it */
      int64_t iv[8] = {0, 3, -37, 36, 2, N_SMALL, 1, -1};
      gpux_array_t a = upload(dt, 1, &a2[1], ha), idx = index_array(iv, 8, GPUX_INT64), o = NULL;
      GT_OK(gpux_take(&o, a, idx, 0, GPUX_INDEX_CHECKED));
      GT_ASSERT(gpux_context_synchronize(gt_ctx) == GPUX_ERROR_INDEX_OUT_OF_RANGE,
                "take checked: the bad index was not reported");
      const char *msg = gpux_last_error_message();
      GT_ASSERT(strstr(msg, "position 5 of idx (value 37, axis length 37)"), "take checked: %s",
                msg);
      GT_OK(gpux_context_synchronize(gt_ctx));
      GT_RELEASE(o, a, idx);
      g_kernels++;
    }
    /* put: 60 indices into 37 (repeated: the last write wins), 7 values cycled */
    for (int mode = 0; mode < 3; mode++) {
      const int64_t np = 60, nv = 7;
      const gpux_dtype it = mode % 2 ? GPUX_INT32 : GPUX_INT64;
      const uint64_t seed = 1650u + (uint64_t)(3 * d + mode);
      int64_t *iv = mode == GPUX_INDEX_CHECKED ? index_values(np, -N_SMALL, N_SMALL - 1, seed)
                                               : index_values(np, -90, 90, seed);
      void *hv = host_random(dt, nv, GT_DOM_ANY, seed + 100);
      memcpy(want, ha, (size_t)N_SMALL * es);
      GT_ASSERT(ref_put(want, es, N_SMALL, iv, np, hv, nv, mode) < 0, "put: a bad index");
      gpux_array_t a = upload(dt, 1, &a2[1], ha), idx = index_array(iv, np, it),
                   vals = upload(dt, 1, &nv, hv);
      GT_OK(gpux_put(a, idx, vals, (gpux_index_mode)mode));
      void *got = take(a);
      snprintf(label, sizeof label, "put %s mode %d %s idx", gt_dtype_str(dt), mode,
               gt_dtype_str(it));
      expect_elems(label, got, want, es, N_SMALL);
      GT_RELEASE(idx, vals);
      GT_FREE(got, iv, hv);
      g_kernels++;
    }
    GT_FREE(ha, want);
  }
}

/* floats over 60 binades, both signs, some small integers: exact sums need the window */
static void scatter_values(gpux_dtype dt, void *buf, int64_t n, uint64_t seed) {
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) {
    double x = ldexp(gt_rng_uniform(&r, 0.5, 1.0), (int)gt_rng_int(&r, -30, 30));
    if (gt_rng_u64(&r) & 1) x = -x;
    if (gt_rng_int(&r, 0, 9) == 0) x = (double)gt_rng_int(&r, -3, 3);
    if (dt == GPUX_FLOAT32) ((float *)buf)[i] = (float)x;
    else ((double *)buf)[i] = x;
  }
}

/* Scatter (kernels/cl/scatter.cl): the deterministic float scatter-add (gpux_scatter_init_,
 * _scan_, the apply gpux_scatter_<dt>_<it>, _fin_) of float32 and float64, flattened (300
 * values into 37 targets) and along axis 1 of (5, 37) (11 indices), repeated indices, the
 * three modes, int32 and int64 indices, against tests/ref's exact sum rounded once
 * (ref_xsum), bit for bit; and the other applies: int32 add (wrapping) and float32 max.
 * oclgrind 21.10 cannot create gpux_scatter_fin_f32 / _f64 from an optimized build (LLVM
 * folds gpux_sc_round's clamp of the lowest kept bit, kernels/common/gpux_scatter.h, into
 * llvm.usub.sat.i32, which it does not implement): tests/oclgrind.sh runs this case apart,
 * built with -cl-opt-disable. */
static void test_scatter(void **state) {
  (void)state;
  const gpux_dtype dts[3] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_INT32};
  for (int d = 0; d < 3; d++) {
    const gpux_dtype dt = dts[d];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = ref_dtype_size(dt);
    for (int c = 0; c < 3; c++) {
      const int flat = c < 2, ints = dt == GPUX_INT32;
      if (ints && c) continue; /* int32: add, flat, checked */
      /* float32 flat wrap: max (no NaN, no -0.0 in the data: max is the larger) */
      const int op = dt == GPUX_FLOAT32 && c == 1 ? GPUX_SCATTER_MAX : GPUX_SCATTER_ADD;
      const int mode = c; /* flat: checked, wrap; axis 1: clip */
      const gpux_dtype it = (c + d) % 2 ? GPUX_INT32 : GPUX_INT64;
      const int64_t ash[2] = {5, N_SMALL}, m = flat ? 300 : 11;
      const int64_t na = flat ? N_SMALL : 5 * N_SMALL, n = N_SMALL;
      const int64_t rows = flat ? 1 : 5, nv = rows * m;
      const uint64_t seed = 1700u + (uint64_t)(3 * d + c);
      void *ah = gt_malloc((size_t)na * es), *vh = gt_malloc((size_t)nv * es);
      void *want = gt_malloc((size_t)na * es);
      if (ints) {
        gt_fill_random(ah, dt, na, GT_DOM_ANY, seed);
        gt_fill_random(vh, dt, nv, GT_DOM_ANY, seed + 1);
      } else {
        scatter_values(dt, ah, na, seed);
        scatter_values(dt, vh, nv, seed + 1);
      }
      int64_t *iv = mode == GPUX_INDEX_CHECKED ? index_values(m, -n, n - 1, seed + 2)
                                               : index_values(m, -3 * n, 3 * n, seed + 2);
      ref_xsum *xs = gt_malloc((size_t)na * sizeof *xs);
      double *mx = gt_malloc((size_t)na * sizeof *mx);
      uint32_t *sum = gt_malloc((size_t)na * sizeof *sum);
      for (int64_t t = 0; t < na; t++) {
        ref_xsum_init(&xs[t]);
        if (ints) {
          sum[t] = (uint32_t)((int32_t *)ah)[t];
        } else {
          mx[t] = ref_load_f64(dt, ah, t);
          ref_xsum_add(&xs[t], mx[t]);
        }
      }
      for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < m; j++) {
          const int64_t k = ref_ix_resolve(iv[j], n, mode), t = r * n + k, src = r * m + j;
          GT_ASSERT(k >= 0, "scatter: a bad index");
          if (ints) {
            sum[t] += (uint32_t)((int32_t *)vh)[src];
          } else {
            const double x = ref_load_f64(dt, vh, src);
            ref_xsum_add(&xs[t], x);
            if (x > mx[t]) mx[t] = x;
          }
        }
      for (int64_t t = 0; t < na; t++) {
        if (ints) {
          ((uint32_t *)want)[t] = sum[t];
          continue;
        }
        const double w = op == GPUX_SCATTER_MAX ? mx[t] : ref_xsum_result(&xs[t], dt, NULL);
        if (dt == GPUX_FLOAT32) ((float *)want)[t] = (float)w;
        else ((double *)want)[t] = w;
      }
      const int64_t vsh[2] = {5, m};
      gpux_array_t a = upload(dt, flat ? 1 : 2, flat ? &na : ash, ah),
                   v = upload(dt, flat ? 1 : 2, flat ? &m : vsh, vh),
                   idx = index_array(iv, m, it);
      GT_OK(gpux_scatter(a, (gpux_scatter_op)op, idx, v, flat ? GPUX_ALL_AXES : 1,
                         (gpux_index_mode)mode));
      void *got = take(a);
      char label[128];
      snprintf(label, sizeof label, "scatter %s %s %s m %" PRId64 " mode %d %s idx",
               op == GPUX_SCATTER_MAX ? "max" : "add", gt_dtype_str(dt), flat ? "flat" : "axis 1",
               m, mode, gt_dtype_str(it));
      gt_compare_bits(label, dt, got, want, na);
      GT_RELEASE(v, idx);
      GT_FREE(got, ah, vh, want, iv, xs, mx, sum);
      g_kernels++;
    }
  }
}

int main(void) {
  gt_init("test_oclgrind");
  const char *canary = getenv("GPUX_OCLGRIND_CANARY");
  if (canary && !strcmp(canary, "1")) return run_canary();
  /* GPUX_OCLGRIND_SCATTER=apart: test_scatter left out (tests/oclgrind.sh runs it on its own,
   * built with -cl-opt-disable: see test_scatter) */
  const char *sc = getenv("GPUX_OCLGRIND_SCATTER");
  const int scatter_apart = sc && !strcmp(sc, "apart");
  if (scatter_apart)
    printf("test_oclgrind: test_scatter left out here (GPUX_OCLGRIND_SCATTER=apart)\n");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_binary),  cmocka_unit_test(test_unary_where),
      cmocka_unit_test(test_cast),    cmocka_unit_test(test_copy),
      cmocka_unit_test(test_fill),    cmocka_unit_test(test_reduce),
      cmocka_unit_test(test_reduce_complex),
      cmocka_unit_test(test_scan),    cmocka_unit_test(test_gemm),
      cmocka_unit_test(test_cgemm),
      cmocka_unit_test(test_random),  cmocka_unit_test(test_user_kernels),
      cmocka_unit_test(test_topk),
      cmocka_unit_test(test_sort),    cmocka_unit_test(test_mask),
      cmocka_unit_test(test_index),   cmocka_unit_test(test_scatter), /* last: see above */
  };
  const size_t ntests = sizeof tests / sizeof tests[0] - (scatter_apart ? 1 : 0);
  int failed = gt_run("oclgrind", tests, ntests);
  printf("test_oclgrind: %d cases (kernel launches or more) run\n", g_kernels);
  gt_shutdown();
  return failed ? 1 : 0;
}
