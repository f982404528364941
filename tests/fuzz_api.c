/* gpux tests: a bounded random driver for the public API (issue 21, section 4).
 *
 * Each case draws, from its own 64-bit seed: dtypes (every one), shapes (0-d, empty axes,
 * size-1 axes, odd sizes, up to 5 dimensions), contents (tests/common's generators, with
 * special values sprinkled in), operands built as views (slices with negative, huge and
 * clipped steps and bounds, reshapes, permutations, writes through views, views of views),
 * then one public operation on them: elementwise binary / scalar / unary / where / cast
 * with broadcasting, in place (also through another view of the same elements) or into
 * strided views; copies; reductions over random axis sets and their host forms; scans;
 * gemm / matmul / gemv / dot; full / arange / linspace; assembly (concatenate, tile, repeat,
 * roll, pad, triu / tril, flip, diagonal: tests/ref/ref_assemble.c, bit for bit); random numbers against the host
 * reproducer and the generator's advance; expression kernels against the chain of built-in
 * ops; complex64 / complex128 elementwise ops (also with complex scalars), reductions and
 * scans; a raw kernel; or bad calls (NULL handles, mismatched shapes, dtypes and contexts,
 * bad axes, overflowing sizes, out of memory, zero steps, unknown enum values, bad kernel
 * arguments and launch shapes) that must fail with an error status and a message, create
 * nothing, and leave the context usable. Results are compared with the double-precision
 * reference of tests/ref under the suite's tolerance tables (test_util.c); reductions and
 * scans bit for bit against the canonical order. Every object a case creates is released
 * at its end in a random order, sometimes before its queued work is done, so
 * LeakSanitizer and AddressSanitizer see leaks and late uses.
 *
 * Environment (besides GPUX_BACKEND and, on pocl, POCL_CACHE_DIR as for every test):
 *   GPUX_FUZZ_SECONDS  time budget (default 20); GPUX_FUZZ_ITERS  case limit (0: none)
 *   GPUX_FUZZ_SEED     the run's seed (default: from the clock; printed)
 *   GPUX_FUZZ_CASE     one case's seed: run that case alone (the replay a failure prints)
 *   GPUX_FUZZ_VERBOSE  1: print every case's seed and what it did
 * A failing case is reported with its seed and the rest of the run goes on.
 * Exit status: 0 when every case passed, 1 otherwise, 77 when the backend is absent. */
#include "kernel_sources.h"
#include "ref_complex_ew.h"
#include "ref_complex_gemm.h"
#include "ref_complex_red.h"
#include "ref_assemble.h"
#include "ref_index.h"
#include "ref_mask.h"
#include "ref_sort.h"
#include "ref_select.h"
#include "test_util.h"
#ifdef GPUX_TEST_HAVE_DLPACK
#include "gpux/dlpack.h"
#endif

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Issue 21's defects, fixed in main by 7868ac7. 1: the driver generates these cases and
 * expects the fixed behaviour; 0 (-DFUZZ_EXPECT_ISSUE21_FIXES=0): it leaves them out, for
 * a tree without those fixes.
 *  - gpux_array_copy_into(a, a) and gpux_array_cast_into(a, a) (same dtype) succeed as
 *    no-ops (before: CL_MEM_COPY_OVERLAP from the one gpux__copy_strided under both);
 *  - an explicit axis on a 0-d array is GPUX_ERROR_INVALID_AXIS for every reduction;
 *  - slice steps whose product with the stride overflows (INT64_MIN, INT64_MAX, 2^40 ..
 *    2^62, also on views of views) give NumPy's view (before: UBSan stopped in
 *    gpux_array_slice);
 *  - gpux_backend_name of an unknown value is "unknown";
 *  - a scalar that an integer or bool dtype does not hold (1.5, -0.5, 300 for uint8, 1e20,
 *    NaN, inf; 2 or 0.5 for bool) is GPUX_ERROR_INVALID_ARGUMENT, also for empty arrays. */
#ifndef FUZZ_EXPECT_ISSUE21_FIXES
#define FUZZ_EXPECT_ISSUE21_FIXES 1
#endif

/* ------------------------------------------------------------------ the run */

enum {
  A_BINARY, A_SCALAR, A_UNARY, A_WHERE, A_CAST, A_COPY, A_REDUCE, A_SCAN, A_MATMUL, A_GEMM,
  A_CREATE, A_RANDOM, A_EXPR, A_KERNEL, A_BAD, A_PROMOTE, A_ASSEMBLE, A_INDEX,
  A_SORT, A_SELECT, A_COUNT
};
static const char *const k_action[A_COUNT] = {"binary", "scalar", "unary", "where", "cast",
                                              "copy", "reduce", "scan", "matmul", "gemm",
                                              "create", "random", "expr", "kernel", "bad-args",
                                              "promote", "assemble", "index",
                                              "sort", "select"};
/* relative weights of the actions */
static const int k_weight[A_COUNT] = {14, 8, 10, 5, 7, 7, 14, 6, 6, 4, 5, 5, 3, 3, 12, 5, 6, 6,
                                      4, 3};

static gpux_context_t g_ctx2; /* a second context, for context mismatches */
static int g_is_opencl;
static uint64_t g_seed;
static double g_seconds = 20, g_t0;
static int64_t g_max_iters, g_iters, g_failed, g_per_action[A_COUNT];
static uint64_t g_case_seed;
static int g_case_action = -1, g_replay, g_verbose;
static char g_desc[1024]; /* what the current case does, printed when it fails */

static gt_rng R; /* the current case's generator */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static int64_t rnd(int64_t lo, int64_t hi) { return gt_rng_int(&R, lo, hi); }
static int chance(int percent) { return rnd(0, 99) < percent; }

static void desc_add(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void desc_add(const char *fmt, ...) {
  size_t len = strlen(g_desc);
  va_list ap;
  va_start(ap, fmt);
  if (len < sizeof g_desc - 1) vsnprintf(g_desc + len, sizeof g_desc - len, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------------------ per-case resources */

/* Everything a case creates is listed here and released at its end (or after a failure,
 * by main) in a random order. */
#define FZ_MAX 512
static gpux_array_t g_arrays[FZ_MAX];
static int g_narrays;
static void *g_bufs[FZ_MAX];
static int g_nbufs;
static gpux_generator_t g_gens[8];
static int g_ngens;
static gpux_event_t g_events[4];
static int g_nevents;
static int g_async_pending; /* an asynchronous write of this case reads one of g_bufs */
static gpux_program_t g_prog; /* one per case at the most, with its kernel */
static gpux_kernel_t g_kern;

static gpux_array_t track(gpux_array_t a) {
  if (!a) return a;
  GT_ASSERT(g_narrays < FZ_MAX, "fuzz driver: more than %d arrays in one case", FZ_MAX);
  g_arrays[g_narrays++] = a;
  return a;
}

static void *fz_alloc(size_t bytes) {
  GT_ASSERT(g_nbufs < FZ_MAX, "fuzz driver: more than %d buffers in one case", FZ_MAX);
  void *p = gt_malloc(bytes);
  g_bufs[g_nbufs++] = p;
  return p;
}

static void release_case(uint64_t order_seed) {
  gt_rng r;
  gt_rng_seed(&r, order_seed);
  for (int i = g_narrays - 1; i > 0; i--) { /* Fisher-Yates: a random release order */
    int j = (int)(gt_rng_u64(&r) % (uint64_t)(i + 1));
    gpux_array_t t = g_arrays[i];
    g_arrays[i] = g_arrays[j];
    g_arrays[j] = t;
  }
  for (int i = 0; i < g_narrays; i++) gpux_array_release(g_arrays[i]);
  if (g_async_pending) GT_OK(gpux_context_synchronize(gt_ctx)); /* before its source goes */
  g_async_pending = 0;
  for (int i = 0; i < g_nbufs; i++) free(g_bufs[i]);
  for (int i = 0; i < g_ngens; i++) gpux_generator_release(g_gens[i]);
  for (int i = 0; i < g_nevents; i++) gpux_event_release(g_events[i]);
  if (chance(50)) { /* either order: the kernel keeps what it needs */
    gpux_kernel_release(g_kern);
    gpux_program_release(g_prog);
  } else {
    gpux_program_release(g_prog);
    gpux_kernel_release(g_kern);
  }
  g_prog = NULL;
  g_kern = NULL;
  g_narrays = g_nbufs = g_ngens = g_nevents = 0;
}

/* ------------------------------------------------------------------ shapes and contents */

static const gpux_dtype k_all_dtypes[GT_STORAGE_DTYPES] = GT_STORAGE_DTYPE_INIT;

static gpux_dtype rand_dtype(void) {
  for (;;) {
    gpux_dtype dt = k_all_dtypes[rnd(0, GT_STORAGE_DTYPES - 1)];
    if (gt_dtype_available(dt)) return dt;
  }
}

/* the dtypes of casts, copies and fill (GPUX_DT_CAST): rand_dtype's, and now and then a
 * complex one (which every other op rejects: act_bad) */
static gpux_dtype rand_cast_dtype(void) {
  if (chance(15)) {
    gpux_dtype dt = chance(50) ? GPUX_COMPLEX64 : GPUX_COMPLEX128;
    if (gt_dtype_available(dt)) return dt;
  }
  return rand_dtype();
}

static gpux_dtype rand_compute_dtype(void) { /* the GPUX_DT_ALL dtypes, mostly */
  static const gpux_dtype all[GT_COMPUTE_DTYPES] = GT_COMPUTE_DTYPE_INIT;
  if (chance(8)) return rand_dtype();
  for (;;) {
    gpux_dtype dt = all[rnd(0, GT_COMPUTE_DTYPES - 1)];
    if (gt_dtype_available(dt)) return dt;
  }
}

static int64_t rand_dim(void) {
  int k = (int)rnd(0, 99);
  if (k < 4) return 0;
  if (k < 24) return 1;
  if (k < 64) return rnd(2, 7);
  if (k < 90) return rnd(8, 40);
  return rnd(41, 300);
}

/* A random shape of at most max_n elements (empty shapes allowed). */
static void rand_shape(int *ndim, int64_t *shape, int64_t max_n) {
  int k = (int)rnd(0, 99);
  int nd = k < 10 ? 0 : k < 40 ? 1 : k < 70 ? 2 : k < 90 ? 3 : k < 97 ? 4 : 5;
  for (int d = 0; d < nd; d++) shape[d] = rand_dim();
  for (;;) { /* halve the largest dimension until the size fits, empty axes counted as 1
              * (operands that broadcast to an empty shape hold elements) */
    int64_t n = 1;
    for (int d = 0; d < nd; d++) n *= shape[d] ? shape[d] : 1;
    if (n <= max_n) break;
    int big = 0;
    for (int d = 1; d < nd; d++)
      if (shape[d] > shape[big]) big = d;
    shape[big] /= 2;
  }
  *ndim = nd;
}

static int64_t rand_max_n(void) { return chance(6) ? 12000 : chance(30) ? 2000 : 300; }

/* n values of dt for an op's operand: the op's domain, sometimes with special values
 * (NaN, inf, -0, MIN, MAX, ...) at random places when the op's reference covers them. */
static void fill(void *buf, gpux_dtype dt, int64_t n, gt_domain dom, int specials) {
  gt_fill_random(buf, dt, n, dom, gt_rng_u64(&R));
  if (!specials || n == 0 || !chance(20)) return;
  char sv[32 * 16];
  int64_t ns = gt_special_values(sv, dt, 32);
  size_t es = ref_dtype_size(dt);
  for (int64_t k = rnd(1, 1 + n / 8); k > 0; k--)
    memcpy((char *)buf + (size_t)rnd(0, n - 1) * es, sv + (size_t)rnd(0, ns - 1) * es, es);
}

/* ------------------------------------------------------------------ operands as views */

/* A device array and its contents on the host (row-major, shape). */
typedef struct fz_arr {
  gpux_array_t h;
  gpux_dtype dt;
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  int64_t n;
  void *host;
} fz_arr;

typedef struct fill_spec {
  gt_domain dom;
  int specials;
} fill_spec;

static void model_init(fz_arr *x, gpux_dtype dt, int ndim, const int64_t *shape) {
  memset(x, 0, sizeof *x);
  x->dt = dt;
  x->ndim = ndim;
  if (ndim) memcpy(x->shape, shape, (size_t)ndim * sizeof *shape);
  x->n = ref_shape_size(ndim, shape);
  x->host = fz_alloc((size_t)x->n * ref_dtype_size(dt));
}

static void make_operand(fz_arr *x, gpux_dtype dt, int ndim, const int64_t *shape, fill_spec f,
                         int depth);

/* A slice of a larger array whose result has exactly `shape`: per dimension a step of
 * +-1..3 (or a huge one on length-1 axes), bounds given as positive or negative indices,
 * past the end, or clipped. */
static void make_sliced(fz_arr *x, gpux_dtype dt, int ndim, const int64_t *shape, fill_spec f,
                        int depth) {
  int64_t bshape[GPUX_MAX_DIMS], start[GPUX_MAX_DIMS], stop[GPUX_MAX_DIMS], step[GPUX_MAX_DIMS];
  int64_t los[GPUX_MAX_DIMS], his[GPUX_MAX_DIMS];
  int one = ndim && chance(25) ? (int)rnd(0, ndim - 1) : -1; /* gpux_array_slice_axis */
  for (int d = 0; d < ndim; d++) {
    int64_t L = shape[d], s = rnd(1, 3) * (chance(50) ? -1 : 1);
    if (L <= 1 && chance(20)) s = (chance(50) ? -1 : 1) * rnd(4, 1000000);
#if FUZZ_EXPECT_ISSUE21_FIXES
    /* steps whose product with the stride overflows: INT64_MIN, INT64_MAX, 2^40 .. 2^62 */
    if (L <= 1 && chance(10)) s = chance(50) ? INT64_MIN : INT64_MAX;
    else if (L <= 1 && chance(10)) s = (chance(50) ? -1 : 1) * ((int64_t)1 << rnd(40, 62));
#endif
    if (one >= 0 && d != one) s = 1;
    step[d] = s;
    los[d] = one >= 0 && d != one ? 0 : rnd(0, 2);
    his[d] = one >= 0 && d != one ? 0 : rnd(0, 2);
  }
  /* the base's size stays bounded (views of views multiply it): smaller steps and margins */
  for (int d = ndim - 1;; d--) {
    for (int e = 0; e < ndim; e++) {
      int64_t L = shape[e], as = step[e] < 0 ? (step[e] == INT64_MIN ? INT64_MAX : -step[e]) : step[e];
      bshape[e] = (L ? (L - 1) * (as > 4 ? 0 : as) + 1 : 0) + los[e] + his[e];
    }
    if (d < 0 || ref_shape_size(ndim, bshape) <= 4 * ref_shape_size(ndim, shape) + 4096) break;
    if (step[d] >= -3 && step[d] <= 3) step[d] = step[d] < 0 ? -1 : 1;
    los[d] = his[d] = 0;
  }
  for (int d = 0; d < ndim; d++) {
    int64_t L = shape[d], s = step[d], lo = los[d], hi = his[d], B = bshape[d];
    int64_t as = s < 0 ? (s == INT64_MIN ? INT64_MAX : -s) : s;
    if (one >= 0 && d != one) { /* whole */
      start[d] = 0;
      stop[d] = L;
      continue;
    }
    if (L == 0) { /* an empty slice: bounds in the wrong order for the step */
      int64_t a = rnd(0, B), b = rnd(0, B);
      if (s > 0) { start[d] = a > b ? a : b; stop[d] = a > b ? b : a; }
      else { start[d] = a < b ? a : b; stop[d] = a < b ? b : a; }
      if (start[d] < B && chance(30)) start[d] -= B; /* negative: counts from the end */
      else if (s < 0 && chance(10)) start[d] = chance(30) ? INT64_MIN : -B - 1000; /* "before 0" */
      continue;
    }
    if (s > 0) {
      int64_t first = lo, last = first + (L - 1) * (as > 4 ? 0 : as);
      int64_t e = last + 1 + rnd(0, (as > 4 ? 4 : as) - 1); /* any stop in (last, last + s] */
      if (e > B) e = B;
      start[d] = chance(40) ? first - B : first;
      stop[d] = e;
      if (e == B && chance(40)) stop[d] = chance(20) ? INT64_MAX : B + rnd(0, 1000); /* clipped */
      else if (e < B && chance(40)) stop[d] = e - B;
    } else {
      int64_t first = B - 1 - hi, last = first - (L - 1) * (as > 4 ? 0 : as);
      int64_t e = last - 1 - rnd(0, (as > 4 ? 4 : as) - 1); /* any stop in [last - |s|, last) */
      start[d] = chance(40) ? first - B : first;
      if (first == B - 1 && chance(30)) start[d] = chance(20) ? INT64_MAX : B + rnd(0, 1000);
      if (e < 0) stop[d] = chance(20) ? INT64_MIN : -B - 1 - rnd(0, 1000); /* "before 0" */
      else stop[d] = chance(40) ? e - B : e;
    }
  }
  fz_arr base;
  make_operand(&base, dt, ndim, bshape, f, depth + 1);
  gpux_array_t v = NULL;
  int nulls = ndim > 0 && chance(10);
  if (one >= 0)
    GT_OK(gpux_array_slice_axis(&v, base.h, one - (chance(30) ? ndim : 0), start[one], stop[one], step[one]));
  else
    GT_OK(gpux_array_slice(&v, base.h, start, stop, step));
  track(v);
  /* the reference: Python's slicing of each dimension, then a gather */
  int64_t bst[GPUX_MAX_DIMS], vst[GPUX_MAX_DIMS], off = 0, got_shape[GPUX_MAX_DIMS];
  ref_row_major_strides(ndim, bshape, bst);
  for (int d = 0; d < ndim; d++) {
    int64_t first = 0, st = step[d] == INT64_MIN ? -INT64_MAX : step[d];
    got_shape[d] = ref_slice_dim(bshape[d], start[d], stop[d], st, &first);
    GT_ASSERT(got_shape[d] == shape[d], "fuzz driver: slice of %" PRId64 " [%" PRId64 ":%" PRId64
              ":%" PRId64 "] has %" PRId64 " elements, wanted %" PRId64, bshape[d], start[d],
              stop[d], step[d], got_shape[d], shape[d]);
    if (shape[d] > 0) off += first * bst[d];
    vst[d] = shape[d] <= 1 ? 0 : bst[d] * step[d]; /* huge steps only on length-1 axes */
  }
  model_init(x, dt, ndim, shape);
  if (x->n) ref_gather(x->host, base.host, ref_dtype_size(dt), ndim, shape, vst, off);
  x->h = v;
  if (chance(15)) { /* new contents written through the view (upload, then scatter) */
    fill(x->host, dt, x->n, f.dom, f.specials);
    GT_OK(gpux_array_write(v, x->host, (size_t)x->n * ref_dtype_size(dt)));
    desc_add(" write");
  }
  if (nulls) { /* NULL bounds and steps: the whole view again, as a view of the view */
    gpux_array_t w = NULL;
    GT_OK(gpux_array_slice(&w, v, NULL, NULL, NULL));
    x->h = track(w);
  }
  desc_add(one >= 0 ? " slice_axis %d[" : " slice[", one);
  for (int d = 0; d < ndim; d++)
    desc_add("%s%" PRId64 ":%" PRId64 ":%" PRId64, d ? "," : "", start[d], stop[d], step[d]);
  desc_add("]");
}

/* A random shape of the same size n (n == 0: some axis 0). */
static void refactor(int64_t n, int *nd_out, int64_t *out) {
  int nd = (int)rnd(0, 4);
  if (n != 1 && nd == 0) nd = 1;
  for (int d = 0; d < nd; d++) out[d] = 1;
  if (n == 0) {
    if (nd > 1) out[rnd(0, nd - 1)] = rnd(0, 5);
    out[rnd(0, nd - 1)] = 0;
  } else {
    int64_t m = n;
    for (int64_t p = 2; p * p <= m; p++)
      while (m % p == 0) {
        out[rnd(0, nd - 1)] *= p;
        m /= p;
      }
    if (m > 1) out[rnd(0, nd - 1)] *= m;
  }
  *nd_out = nd;
}

/* Views that add or drop axes: select (an index of a longer axis), squeeze (length-1 axes
 * dropped), expand_dims (length-1 axes added). Returns 0 when shape does not allow the one
 * drawn (the caller builds the operand another way). */
static int make_axis_view(fz_arr *x, gpux_dtype dt, int ndim, const int64_t *shape, fill_spec f,
                          int depth) {
  int kind = (int)rnd(0, 2), nb = 0, axes[GPUX_MAX_DIMS], na = 0;
  int64_t bsh[GPUX_MAX_DIMS];
  fz_arr base;
  gpux_array_t v = NULL;
  if (kind == 0 && ndim < GPUX_MAX_DIMS) { /* select index i of a new axis p */
    int p = (int)rnd(0, ndim);
    int64_t len = rnd(1, 4), i = rnd(0, len - 1);
    for (int d = 0; d < ndim + 1; d++) bsh[d] = d < p ? shape[d] : d == p ? len : shape[d - 1];
    make_operand(&base, dt, ndim + 1, bsh, f, depth + 1);
    GT_OK(gpux_array_select(&v, base.h, p - (chance(30) ? ndim + 1 : 0), i - (chance(30) ? len : 0)));
    int64_t bst[GPUX_MAX_DIMS], st[GPUX_MAX_DIMS];
    ref_row_major_strides(ndim + 1, bsh, bst);
    for (int d = 0; d < ndim; d++) st[d] = bst[d < p ? d : d + 1];
    model_init(x, dt, ndim, shape);
    if (x->n) ref_gather(x->host, base.host, ref_dtype_size(dt), ndim, shape, st, i * bst[p]);
    desc_add(" select(%d, %" PRId64 ")", p, i);
  } else if (kind == 1 && ndim < GPUX_MAX_DIMS) { /* squeeze length-1 axes put in */
    int m = (int)rnd(1, GPUX_MAX_DIMS - ndim < 2 ? 1 : 2), ones = 0;
    int isnew[GPUX_MAX_DIMS] = {0};
    for (int i = 0; i < m; i++) isnew[rnd(0, ndim + m - 1)] = 1;
    for (int d = 0, j = 0; d < ndim + m; d++) {
      if (isnew[d]) {
        axes[na++] = nb;
        bsh[nb++] = 1;
      } else if (j < ndim) {
        bsh[nb++] = shape[j++];
      }
    }
    for (int i = 0; i < na; i++) axes[i] -= chance(30) ? nb : 0; /* negative: from the end */
    for (int d = 0; d < ndim; d++) ones += shape[d] == 1;
    make_operand(&base, dt, nb, bsh, f, depth + 1);
    int all = ones == 0 && chance(40);
    GT_OK(gpux_array_squeeze(&v, base.h, all ? GPUX_ALL_AXES : na, all && chance(50) ? NULL : axes));
    model_init(x, dt, ndim, shape);
    memcpy(x->host, base.host, (size_t)x->n * ref_dtype_size(dt));
    desc_add(" squeeze(%d)", all ? -1 : na);
  } else { /* expand_dims: some of shape's length-1 axes are the new ones */
    for (int d = 0; d < ndim; d++) {
      if (shape[d] == 1 && chance(60)) axes[na++] = d - (chance(30) ? ndim : 0);
      else bsh[nb++] = shape[d];
    }
    if (na == 0) return 0;
    make_operand(&base, dt, nb, bsh, f, depth + 1);
    GT_OK(gpux_array_expand_dims(&v, base.h, na, axes));
    model_init(x, dt, ndim, shape);
    memcpy(x->host, base.host, (size_t)x->n * ref_dtype_size(dt));
    desc_add(" expand_dims(%d)", na);
  }
  if (!v) return 0;
  x->h = track(v);
  return 1;
}

static void make_operand(fz_arr *x, gpux_dtype dt, int ndim, const int64_t *shape, fill_spec f,
                         int depth) {
  int k = depth >= 2 ? 0 : (int)rnd(0, 99);
  if (k >= 40 && k < 75) {
    make_sliced(x, dt, ndim, shape, f, depth);
  } else if (k >= 75 && k < 87) { /* a reshape of another shape (a view, or a copy of a view) */
    int nd2;
    int64_t sh2[GPUX_MAX_DIMS], req[GPUX_MAX_DIMS];
    refactor(ref_shape_size(ndim, shape), &nd2, sh2);
    fz_arr src;
    make_operand(&src, dt, nd2, sh2, f, depth + 1);
    memcpy(req, shape, (size_t)ndim * sizeof *shape);
    int64_t known = 1;
    for (int d = 0; d < ndim; d++) known *= shape[d];
    if (ndim && known && chance(40)) req[rnd(0, ndim - 1)] = -1;
    gpux_array_t v = NULL;
    GT_OK(gpux_array_reshape(&v, src.h, ndim, req));
    model_init(x, dt, ndim, shape);
    memcpy(x->host, src.host, (size_t)x->n * ref_dtype_size(dt));
    x->h = track(v);
    desc_add(" reshape");
  } else if (k >= 93 && make_axis_view(x, dt, ndim, shape, f, depth)) {
    /* select / squeeze / expand_dims made it */
  } else if (k >= 87 && ndim >= 1) { /* a permuted copy (transpose: the axes reversed) */
    int perm[GPUX_MAX_DIMS], axes[GPUX_MAX_DIMS], transpose = chance(30);
    int64_t sh2[GPUX_MAX_DIMS];
    for (int d = 0; d < ndim; d++) perm[d] = transpose ? ndim - 1 - d : d;
    if (!transpose)
      for (int d = ndim - 1; d > 0; d--) {
        int j = (int)rnd(0, d), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
      }
    for (int d = 0; d < ndim; d++) {
      sh2[perm[d]] = shape[d];
      axes[d] = perm[d] - (chance(30) ? ndim : 0); /* negative axes count from the end */
    }
    fz_arr src;
    make_operand(&src, dt, ndim, sh2, f, depth + 1);
    gpux_array_t v = NULL;
    if (transpose) GT_OK(gpux_array_transpose(&v, src.h));
    else GT_OK(gpux_array_permute(&v, src.h, axes));
    model_init(x, dt, ndim, shape);
    if (x->n) ref_permute(x->host, src.host, ref_dtype_size(dt), ndim, sh2, perm);
    x->h = track(v);
    desc_add(transpose ? " transpose" : " permute");
  } else { /* contiguous, from host data: uploaded, or through DLPack or an async write */
    model_init(x, dt, ndim, shape);
    fill(x->host, dt, x->n, f.dom, f.specials);
    gpux_array_t a = NULL;
    const size_t bytes = (size_t)x->n * ref_dtype_size(dt);
    const int how = (int)rnd(0, 99);
    if (how >= 92) { /* queued from a copy of the data that nothing writes until the case ends */
      void *src = fz_alloc(bytes);
      memcpy(src, x->host, bytes);
      GT_OK(gpux_array_empty(&a, gt_ctx, dt, ndim, shape));
      GT_OK(gpux_array_write_async(a, src, bytes));
      g_async_pending = 1;
      desc_add(" c-async");
#ifdef GPUX_TEST_HAVE_DLPACK
    } else if (how >= 84) { /* gpux -> DLPack -> gpux: a wrapped array on the same memory */
      gpux_array_t b = NULL;
      DLManagedTensorVersioned *t = NULL;
      DLManagedTensor *tl = NULL;
      GT_OK(gpux_array_from_host(&b, gt_ctx, dt, ndim, shape, x->host));
      const int legacy = chance(30);
      if (legacy) GT_OK(gpux_array_to_dlpack_legacy(&tl, b));
      else GT_OK(gpux_array_to_dlpack(&t, b));
      gpux_array_release(b); /* the tensor keeps the memory */
      if (legacy) GT_OK(gpux_array_from_dlpack_legacy(&a, gt_ctx, tl));
      else GT_OK(gpux_array_from_dlpack(&a, gt_ctx, t));
      desc_add(legacy ? " c-dlpack-legacy" : " c-dlpack");
    } else if (how >= 78) { /* a host DLPack tensor (row-major, strides given or not), copied */
      DLManagedTensorVersioned t;
      int64_t st[GPUX_MAX_DIMS], c = 1;
      for (int d = ndim - 1; d >= 0; d--) {
        st[d] = c;
        c *= shape[d] ? shape[d] : 1;
      }
      memset(&t, 0, sizeof t);
      t.version.major = DLPACK_MAJOR_VERSION;
      t.dl_tensor.data = x->n ? x->host : NULL;
      t.dl_tensor.device.device_type = kDLCPU;
      t.dl_tensor.ndim = ndim;
      /* DLPack's code from the dtype's kind (bfloat16 has its own), bits from its size */
      const int kind = ref_dtype_is_half(dt) ? (dt == GPUX_BFLOAT16 ? 'B' : 'f')
                       : ref_dtype_is_float(dt) ? 'f'
                       : dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128 ? 'c'
                       : dt == GPUX_BOOL ? 'b'
                       : ref_int_min(dt) < 0 ? 'i' : 'u';
      t.dl_tensor.dtype.code = kind == 'f' ? kDLFloat : kind == 'B' ? kDLBfloat
                               : kind == 'c' ? kDLComplex : kind == 'b' ? kDLBool
                               : kind == 'i' ? kDLInt : kDLUInt;
      t.dl_tensor.dtype.bits = (uint8_t)(8 * ref_dtype_size(dt));
      t.dl_tensor.dtype.lanes = 1;
      t.dl_tensor.shape = (int64_t *)shape;
      t.dl_tensor.strides = chance(50) ? st : NULL;
      GT_OK(gpux_array_from_dlpack(&a, gt_ctx, &t)); /* no deleter: it is on this stack */
      desc_add(" c-dlpack-host");
#endif
    } else {
      GT_OK(gpux_array_from_host(&a, gt_ctx, dt, ndim, shape, x->host));
      desc_add(" c");
    }
    x->h = track(a);
  }
  if (depth == 0) {
    char sh[96];
    desc_add(" %s%s;", gt_dtype_str(dt), gt_shape_str(sh, sizeof sh, ndim, shape));
    gt_check_shape(x->h, dt, ndim, shape, g_desc);
  }
}

static void operand(fz_arr *x, const char *name, gpux_dtype dt, int ndim, const int64_t *shape,
                    gt_domain dom, int specials) {
  fill_spec f = {dom, specials};
  desc_add(" %s:", name);
  make_operand(x, dt, ndim, shape, f, 0);
}

/* A shape that broadcasts to (ndim, shape): some leading axes dropped, some axes 1. */
static void broadcast_source(int ndim, const int64_t *shape, int *nd_out, int64_t *out) {
  int drop = chance(30) ? (int)rnd(0, ndim) : 0;
  int nd = ndim - drop;
  for (int d = 0; d < nd; d++) out[d] = chance(25) ? 1 : shape[d + drop];
  *nd_out = nd;
}

/* The array itself, or another view of exactly its elements (in place either way): the
 * whole range again, with step -1 on some length-1 axes. */
static gpux_array_t alias(const fz_arr *x) {
  if (x->ndim == 0 || chance(50)) return x->h;
  int64_t start[GPUX_MAX_DIMS], stop[GPUX_MAX_DIMS], step[GPUX_MAX_DIMS];
  for (int d = 0; d < x->ndim; d++) {
    int flip = x->shape[d] == 1 && chance(60);
    start[d] = 0;
    stop[d] = flip ? -2 - rnd(0, 5) : x->shape[d] + rnd(0, 3);
    step[d] = flip ? -rnd(1, 3) : 1;
  }
  gpux_array_t v = NULL;
  GT_OK(gpux_array_slice(&v, x->h, start, stop, step));
  desc_add(" (alias)");
  return track(v);
}

/* ------------------------------------------------------------------ outputs */

enum { OUT_NEW, OUT_INTO, OUT_VIEW, OUT_INPLACE };

typedef struct fz_out {
  int mode;
  gpux_array_t h; /* the array written (NULL for OUT_NEW until the call made it) */
  gt_view v;      /* OUT_VIEW: a strided or reversed view; poison outside it */
} fz_out;

static void out_make(fz_out *o, int mode, gpux_dtype dt, int ndim, const int64_t *shape) {
  memset(o, 0, sizeof *o);
  o->mode = mode;
  if (mode == OUT_INTO) {
    o->h = track(gt_poisoned(dt, ndim, shape));
  } else if (mode == OUT_VIEW) {
    gt_view_make(&o->v, dt, ndim, shape, chance(50) ? GT_STRIDED : GT_REVERSED, NULL);
    track(o->v.base);
    if (o->v.view != o->v.base) track(o->v.view);
    if (o->v.map) g_bufs[g_nbufs++] = o->v.map;
    o->h = o->v.view;
  }
  desc_add(" out %s", mode == OUT_NEW ? "new" : mode == OUT_INTO ? "into" : mode == OUT_VIEW ? "view" : "in place");
}

static int rand_out_mode(int inplace_ok) {
  int k = (int)rnd(0, 99);
  if (inplace_ok && k < 15) return OUT_INPLACE;
  return k < 50 ? OUT_NEW : k < 75 ? OUT_INTO : OUT_VIEW;
}

/* The result's contents (n elements of dt), checking its shape and dtype. */
static void *out_read(fz_out *o, gpux_dtype dt, int ndim, const int64_t *shape) {
  int64_t n = ref_shape_size(ndim, shape);
  void *got = fz_alloc((size_t)n * ref_dtype_size(dt));
  if (o->mode == OUT_VIEW) {
    gt_view_read(&o->v, got, g_desc);
  } else if (chance(20)) {
    void *p = NULL;
    size_t bytes = 0;
    GT_OK(gpux_array_download(&p, &bytes, o->h));
    GT_ASSERT(bytes == (size_t)n * ref_dtype_size(dt), "%s: download of %zu bytes", g_desc, bytes);
    memcpy(got, p, bytes);
    gpux_host_free(p);
  } else {
    gt_check_shape(o->h, dt, ndim, shape, g_desc);
    GT_OK(gpux_array_read(o->h, got, (size_t)n * ref_dtype_size(dt)));
  }
  return got;
}

/* A failed call that creates an array must leave *out NULL or untouched, never a handle. */
static void expect_fail(gpux_status want, gpux_status got, gpux_array_t out, const char *what) {
  gt_check_status(want, got, what, __FILE__, __LINE__);
  GT_ASSERT(out == NULL, "%s: failed but *out is %p", what, (void *)out);
}

/* ------------------------------------------------------------------ elementwise */

static void check_ew(const char *what, gpux_dtype rdt, const void *got, const ref_value *want,
                     int64_t n, gt_tol tol, gpux_dtype in_dt, const void *a, const void *b) {
  char label[1200];
  snprintf(label, sizeof label, "%s [%s]", what, g_desc);
  gt_compare(label, rdt, got, want, n, tol, in_dt, a, b);
}

/* Host operand x broadcast to (ndim, shape). */
static void *bcast(const fz_arr *x, int ndim, const int64_t *shape) {
  int64_t n = ref_shape_size(ndim, shape);
  void *p = fz_alloc((size_t)n * ref_dtype_size(x->dt));
  if (n) ref_broadcast(p, x->host, ref_dtype_size(x->dt), ndim, shape, x->ndim, x->shape);
  return p;
}

/* Operand shapes of a binary op with output shape (nd, S): both broadcast to it, one of them
 * S itself, so that the output shape is S. */
static void binary_shapes(int nd, const int64_t *S, int *na, int64_t *sa, int *nb, int64_t *sb) {
  broadcast_source(nd, S, na, sa);
  broadcast_source(nd, S, nb, sb);
  if (chance(50)) {
    *na = nd;
    memcpy(sa, S, (size_t)nd * sizeof *S);
  } else {
    *nb = nd;
    memcpy(sb, S, (size_t)nd * sizeof *S);
  }
}

/* gpux_binary or gpux_binary_promote: the call, its _into form, their names */
typedef struct fz_binary_call {
  gpux_status (*fn)(gpux_array_t *, gpux_binary_op, gpux_array_t, gpux_array_t);
  gpux_status (*into)(gpux_array_t, gpux_binary_op, gpux_array_t, gpux_array_t);
  const char *name, *call;
  int promote; /* operands of two dtypes, cast to the result type */
} fz_binary_call;
static const fz_binary_call k_binary = {gpux_binary, gpux_binary_into, "binary", "gpux_binary(",
                                        0},
                            k_promote = {gpux_binary_promote, gpux_binary_promote_into,
                                         "promote", "gpux_binary_promote(", 1};

/* c on operands a (da, shape sa) and b (db, shape sb), computed in dt (gpux_binary: da = db
 * = dt; gpux_binary_promote: gpux_result_type, to which the reference casts both operands
 * first), output shape S; in place only for gpux_binary, when the result has a's dtype and
 * shape. */
static void run_binary(const fz_binary_call *c, gpux_binary_op op, gpux_dtype da, gpux_dtype db,
                       gpux_dtype dt, int nd, const int64_t *S, int na, const int64_t *sa,
                       int nb, const int64_t *sb, int specials) {
  fz_arr a, b;
  operand(&a, "a", da, na, sa, gt_binary_domain(op, dt, 0), specials);
  operand(&b, "b", db, nb, sb, gt_binary_domain(op, dt, 1), specials);
  gpux_status st;
  if (!ref_binary_supported(op, dt)) {
    gpux_array_t o = NULL;
    st = c->fn(&o, op, a.h, b.h);
    expect_fail(GPUX_ERROR_UNSUPPORTED_DTYPE, st, o, c->call);
    return;
  }
  gpux_dtype rdt = ref_binary_result(op, dt);
  int inplace = !c->promote && rdt == dt && na == nd && !memcmp(sa, S, (size_t)nd * sizeof *S);
  fz_out o;
  out_make(&o, rand_out_mode(inplace), rdt, nd, S);
  int64_t n = ref_shape_size(nd, S);
  void *ha = bcast(&a, nd, S), *hb = bcast(&b, nd, S);
  if (c->promote) {
    const size_t bytes = (size_t)n * ref_dtype_size(dt);
    void *ca = fz_alloc(bytes), *cb = fz_alloc(bytes);
    ref_cast_bits(da, dt, n, ha, ca);
    ref_cast_bits(db, dt, n, hb, cb);
    ha = ca;
    hb = cb;
  }
  ref_value *want = fz_alloc((size_t)n * sizeof *want);
  ref_binary(op, dt, n, ha, hb, want);
  if (o.mode == OUT_NEW) {
    st = c->fn(&o.h, op, a.h, b.h);
    track(o.h);
  } else {
    if (o.mode == OUT_INPLACE) o.h = alias(&a);
    st = c->into(o.h, op, a.h, b.h);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  check_ew(c->name, rdt, out_read(&o, rdt, nd, S), want, n,
           gt_tolerance(rdt, gt_binary_class(op, dt)), dt, ha, hb);
}

static void act_binary(void) {
  gpux_dtype dt = rand_compute_dtype();
  gpux_binary_op op = (gpux_binary_op)rnd(0, GT_BINARY_OPS - 1);
  int nd, na, nb;
  int64_t S[GPUX_MAX_DIMS], sa[GPUX_MAX_DIMS], sb[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  binary_shapes(nd, S, &na, sa, &nb, sb);
  desc_add("binary %s %s:", gt_binary_str(op), gt_dtype_str(dt));
  run_binary(&k_binary, op, dt, dt, dt, nd, S, na, sa, nb, sb,
             gt_binary_class(op, dt) != GT_OPC_TRANSC);
}

/* gpux_binary_promote on operands of two dtypes */
static void act_promote(void) {
  gpux_dtype da = rand_compute_dtype(), db = rand_compute_dtype(), dt;
  gpux_binary_op op = (gpux_binary_op)rnd(0, GT_BINARY_OPS - 1);
  int nd, na, nb;
  int64_t S[GPUX_MAX_DIMS], sa[GPUX_MAX_DIMS], sb[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  broadcast_source(nd, S, &na, sa);
  nb = nd; /* b keeps the full shape, so the output shape is S */
  memcpy(sb, S, sizeof S);
  gt_check_ok_clean(gpux_result_type(&dt, da, db), "gpux_result_type", __FILE__, __LINE__);
  if (!gt_dtype_available(dt)) return; /* float64 on a device without it */
  desc_add("promote %s %s %s -> %s:", gt_binary_str(op), gt_dtype_str(da), gt_dtype_str(db),
           gt_dtype_str(dt));
  run_binary(&k_promote, op, da, db, dt, nd, S, na, sa, nb, sb, 1);
}

/* A scalar for dt that converts exactly (integers in range, 0 / 1 for bool). */
static double exact_scalar(gpux_dtype dt, gt_domain dom) {
  char buf[8];
  gt_fill_random(buf, dt, 1, dom, gt_rng_u64(&R));
  ref_value v = ref_load(dt, buf, 0);
  if (ref_dtype_is_float(dt)) return v.f;
  if (dt == GPUX_INT64 && (v.i > (1LL << 53) || v.i < -(1LL << 53))) return (double)(v.i >> 11);
  if (dt == GPUX_UINT64 && (uint64_t)v.i > (1ULL << 53)) return (double)((uint64_t)v.i >> 11);
  return (double)v.i;
}

static void act_scalar(void) {
  gpux_dtype dt = rand_compute_dtype();
  gpux_binary_op op = (gpux_binary_op)rnd(0, GT_BINARY_OPS - 1);
  int first = chance(40), nd;
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  double s = exact_scalar(dt, gt_binary_domain(op, dt, first ? 0 : 1));
  int inexact = 0;
#if FUZZ_EXPECT_ISSUE21_FIXES
  if (!ref_dtype_is_float(dt) && chance(20)) {
    static const double bad[] = {1.5, -0.5, 300.0, -1.0, 3e9, -3e9, 1e20, NAN, INFINITY, 2.0};
    s = bad[rnd(0, 9)];
    inexact = dt == GPUX_BOOL ? !(s == 0.0 || s == 1.0) : ref_from_double(dt, s).i != s; /* NaN: != */
  }
#endif
  desc_add("scalar %s %s s=%.17g%s:", gt_binary_str(op), gt_dtype_str(dt), s, first ? " first" : "");
  fz_arr a;
  operand(&a, "a", dt, nd, S, gt_binary_domain(op, dt, first ? 1 : 0),
          gt_binary_class(op, dt) != GT_OPC_TRANSC);
  gpux_status st;
  if (!ref_binary_supported(op, dt) || inexact) {
    gpux_array_t o = NULL;
    st = first ? gpux_scalar_binary(&o, op, s, a.h) : gpux_binary_scalar(&o, op, a.h, s);
    if (inexact && !ref_binary_supported(op, dt)) { /* either error may come first */
      GT_ASSERT(st != GPUX_SUCCESS && o == NULL, "%s: succeeded", g_desc);
      return;
    }
    expect_fail(inexact ? GPUX_ERROR_INVALID_ARGUMENT : GPUX_ERROR_UNSUPPORTED_DTYPE, st, o,
                first ? "gpux_scalar_binary(" : "gpux_binary_scalar(");
    return;
  }
  gpux_dtype rdt = ref_binary_result(op, dt);
  fz_out o;
  out_make(&o, rand_out_mode(rdt == dt), rdt, nd, S);
  int64_t n = a.n;
  ref_value *want = fz_alloc((size_t)n * sizeof *want);
  ref_binary_scalar(op, dt, n, a.host, s, first, want);
  if (o.mode == OUT_NEW) {
    st = first ? gpux_scalar_binary(&o.h, op, s, a.h) : gpux_binary_scalar(&o.h, op, a.h, s);
    track(o.h);
  } else {
    if (o.mode == OUT_INPLACE) o.h = alias(&a);
    st = first ? gpux_scalar_binary_into(o.h, op, s, a.h) : gpux_binary_scalar_into(o.h, op, a.h, s);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  check_ew("scalar", rdt, out_read(&o, rdt, nd, S), want, n, gt_tolerance(rdt, gt_binary_class(op, dt)), dt, a.host, NULL);
}

static void act_unary(void) {
  gpux_dtype dt = rand_compute_dtype();
  gpux_unary_op op = (gpux_unary_op)rnd(0, GT_UNARY_OPS - 1);
  int nd;
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  desc_add("unary %s %s:", gt_unary_str(op), gt_dtype_str(dt));
  fz_arr a;
  operand(&a, "a", dt, nd, S, gt_unary_domain(op, dt), gt_unary_class(op, dt) == GT_OPC_EXACT);
  gpux_status st;
  if (!ref_unary_supported(op, dt)) {
    gpux_array_t o = NULL;
    st = gpux_unary(&o, op, a.h);
    expect_fail(GPUX_ERROR_UNSUPPORTED_DTYPE, st, o, "gpux_unary(");
    return;
  }
  gpux_dtype rdt = ref_unary_result(op, dt);
  fz_out o;
  out_make(&o, rand_out_mode(rdt == dt), rdt, nd, S);
  ref_value *want = fz_alloc((size_t)a.n * sizeof *want);
  ref_unary(op, dt, a.n, a.host, want);
  if (o.mode == OUT_NEW) {
    st = gpux_unary(&o.h, op, a.h);
    track(o.h);
  } else {
    if (o.mode == OUT_INPLACE) o.h = alias(&a);
    st = gpux_unary_into(o.h, op, a.h);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  check_ew("unary", rdt, out_read(&o, rdt, nd, S), want, a.n, gt_tolerance(rdt, gt_unary_class(op, dt)), dt, a.host, NULL);
}

static void act_where(void) {
  gpux_dtype dt = rand_compute_dtype();
  int nd, nc, na, nb;
  int64_t S[GPUX_MAX_DIMS], sc[GPUX_MAX_DIMS], sa[GPUX_MAX_DIMS], sb[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  broadcast_source(nd, S, &nc, sc);
  broadcast_source(nd, S, &na, sa);
  broadcast_source(nd, S, &nb, sb);
  int full = (int)rnd(0, 2); /* one of the three keeps the full shape: the output's is S */
  int *nfull = full == 0 ? &nc : full == 1 ? &na : &nb;
  int64_t *sfull = full == 0 ? sc : full == 1 ? sa : sb;
  *nfull = nd;
  memcpy(sfull, S, sizeof S);
  desc_add("where %s:", gt_dtype_str(dt));
  fz_arr c, a, b;
  operand(&c, "cond", GPUX_BOOL, nc, sc, GT_DOM_ANY, 0);
  operand(&a, "a", dt, na, sa, GT_DOM_ANY, 1);
  operand(&b, "b", dt, nb, sb, GT_DOM_ANY, 1);
  gpux_status st;
  fz_out o;
  out_make(&o, rand_out_mode(0), dt, nd, S);
  int64_t n = ref_shape_size(nd, S);
  void *hc = bcast(&c, nd, S), *ha = bcast(&a, nd, S), *hb = bcast(&b, nd, S);
  ref_value *want = fz_alloc((size_t)n * sizeof *want);
  ref_where(dt, n, hc, ha, hb, want);
  if (o.mode == OUT_NEW) {
    st = gpux_where(&o.h, c.h, a.h, b.h);
    track(o.h);
  } else {
    st = gpux_where_into(o.h, c.h, a.h, b.h);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  check_ew("where", dt, out_read(&o, dt, nd, S), want, n, gt_tolerance(dt, GT_OPC_EXACT), dt, ha, hb);
}

static void act_cast(void) {
  gpux_dtype from = rand_cast_dtype(), to = rand_cast_dtype();
  int nd, ns;
  int64_t S[GPUX_MAX_DIMS], ss[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  int mode = rand_out_mode(0);
  if (mode != OUT_NEW) broadcast_source(nd, S, &ns, ss); /* cast_into broadcasts the source */
  else { ns = nd; memcpy(ss, S, sizeof S); }
  desc_add("cast %s -> %s:", gt_dtype_str(from), gt_dtype_str(to));
  fz_arr a;
  operand(&a, "src", from, ns, ss, chance(30) ? GT_DOM_ROUND : GT_DOM_ANY, 1);
  fz_out o;
  out_make(&o, mode, to, nd, S);
  gpux_status st;
  if (mode == OUT_NEW) {
    st = gpux_array_cast(&o.h, a.h, to);
    track(o.h);
  } else {
    st = gpux_array_cast_into(o.h, a.h);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  int64_t n = ref_shape_size(nd, S);
  void *want = fz_alloc((size_t)n * ref_dtype_size(to));
  ref_cast_bits(from, to, n, bcast(&a, nd, S), want);
  gt_compare_bits(g_desc, to, out_read(&o, to, nd, S), want, n);
}

/* copy, contiguous, copy_into (broadcasting into a view), reshape of a view */
static void act_copy(void) {
  gpux_dtype dt = rand_cast_dtype();
  int nd, ns, kind = (int)rnd(0, 3);
  int64_t S[GPUX_MAX_DIMS], ss[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
#if FUZZ_EXPECT_ISSUE21_FIXES
  if (chance(10)) { /* copy_into(a, a) and cast_into(a, a): no-ops that succeed */
    desc_add("copy_into / cast_into(a, a):");
    fz_arr a;
    operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
    gt_check_ok_clean(chance(50) ? gpux_array_copy_into(a.h, a.h) : gpux_array_cast_into(a.h, a.h), g_desc,
                __FILE__, __LINE__);
    fz_out o = {OUT_INPLACE, a.h, {0}};
    gt_compare_bits(g_desc, dt, out_read(&o, dt, nd, S), a.host, a.n);
    return;
  }
#endif
  if (kind == 2) broadcast_source(nd, S, &ns, ss);
  else { ns = nd; memcpy(ss, S, sizeof S); }
  desc_add("%s:", kind == 0 ? "copy" : kind == 1 ? "contiguous" : kind == 2 ? "copy_into" : "reshape");
  fz_arr a;
  operand(&a, "src", dt, ns, ss, GT_DOM_ANY, 1);
  fz_out o;
  memset(&o, 0, sizeof o);
  int64_t n = ref_shape_size(nd, S);
  const void *want = a.host;
  if (kind == 0 || kind == 1) {
    o.mode = OUT_NEW;
    gt_check_ok_clean(kind == 0 ? gpux_array_copy(&o.h, a.h) : gpux_array_contiguous(&o.h, a.h), g_desc,
                __FILE__, __LINE__);
    track(o.h);
    int c = 0;
    GT_OK(gpux_array_is_contiguous(&c, o.h));
    GT_ASSERT(c, "%s: the copy is not contiguous", g_desc);
  } else if (kind == 2) {
    out_make(&o, chance(50) ? OUT_INTO : OUT_VIEW, dt, nd, S);
    gt_check_ok_clean(gpux_array_copy_into(o.h, a.h), g_desc, __FILE__, __LINE__);
    want = bcast(&a, nd, S);
  } else { /* reshape to another factorization, then back */
    int nd2;
    int64_t sh2[GPUX_MAX_DIMS];
    refactor(n, &nd2, sh2);
    gpux_array_t r = NULL;
    gt_check_ok_clean(gpux_array_reshape(&r, a.h, nd2, sh2), g_desc, __FILE__, __LINE__);
    track(r);
    o.mode = OUT_NEW;
    gt_check_ok_clean(gpux_array_reshape(&o.h, r, nd, S), g_desc, __FILE__, __LINE__);
    track(o.h);
  }
  gt_compare_bits(g_desc, dt, out_read(&o, dt, nd, S), want, n);
}

/* ------------------------------------------------------------------ reductions, scans */

static int is_moment(gpux_reduce_op op) { return op == GPUX_REDUCE_VAR || op == GPUX_REDUCE_STD; }

/* A reduction's axis set for nd dimensions: all (GPUX_ALL_AXES), none, or some in a random
 * order, some negative (arg: argmin / argmax, all or one); red[d] = 1 for the reduced axes.
 * The kept axes (keepdims: as length 1) make the output shape. */
static void rand_axes(int nd, int arg, int *axes, int *naxes, int *red) {
  int k = (int)rnd(0, 99);
  if (k < 25 || (nd == 0 && !FUZZ_EXPECT_ISSUE21_FIXES)) {
    *naxes = arg || chance(70) ? GPUX_ALL_AXES : 0;
  } else {
    int pick[GPUX_MAX_DIMS], np = nd ? nd : 1;
    for (int d = 0; d < np; d++) pick[d] = d;
    for (int d = np - 1; d > 0; d--) {
      int j = (int)rnd(0, d), t = pick[d];
      pick[d] = pick[j];
      pick[j] = t;
    }
    *naxes = arg ? 1 : (int)rnd(0, np);
    for (int i = 0; i < *naxes; i++) axes[i] = pick[i] - (chance(30) ? np : 0);
  }
  if (*naxes == GPUX_ALL_AXES)
    for (int d = 0; d < nd; d++) red[d] = 1;
  else if (nd)
    for (int i = 0; i < *naxes; i++) red[axes[i] < 0 ? axes[i] + nd : axes[i]] = 1;
}

/* The output shape of a reduction over red (kept axes; keepdims: reduced ones as 1) and a
 * buffer for its reference values of dtype rdt. */
static void *reduce_out(int nd, const int64_t *S, const int *red, int keepdims, gpux_dtype rdt,
                        int *ond, int64_t *oshape) {
  *ond = 0;
  for (int d = 0; d < nd; d++)
    if (!red[d]) oshape[(*ond)++] = S[d];
    else if (keepdims) oshape[(*ond)++] = 1;
  const int64_t n = ref_shape_size(*ond, oshape);
  return fz_alloc((size_t)(n ? n : 1) * ref_dtype_size(rdt));
}

/* A 0-d array has no axes to name: a reduction that names some must fail (returns 1). */
static int axes_of_0d(int nd, int naxes, gpux_reduce_op op, gpux_array_t a, const int *axes,
                      int keepdims) {
  if (nd != 0 || naxes == GPUX_ALL_AXES || naxes <= 0) return 0;
  gpux_array_t o = NULL;
  expect_fail(GPUX_ERROR_INVALID_AXIS, gpux_reduce(&o, op, a, axes, naxes, keepdims), o,
              "gpux_reduce(");
  return 1;
}

/* The reduction into out (OUT_NEW: a new array, tracked): var / std through their own
 * calls, the rest through gpux_reduce[_into]. */
static gpux_status call_reduce(fz_out *out, gpux_reduce_op op, gpux_array_t a, const int *axes,
                               int naxes, int64_t ddof, int keepdims) {
  gpux_status st;
  if (is_moment(op)) {
    if (out->mode == OUT_NEW)
      st = op == GPUX_REDUCE_VAR ? gpux_var(&out->h, a, axes, naxes, ddof, keepdims)
                                 : gpux_std(&out->h, a, axes, naxes, ddof, keepdims);
    else
      st = op == GPUX_REDUCE_VAR ? gpux_var_into(out->h, a, axes, naxes, ddof, keepdims)
                                 : gpux_std_into(out->h, a, axes, naxes, ddof, keepdims);
  } else {
    const int *ax = naxes == 0 && chance(50) ? NULL : axes; /* NULL is fine with no axes */
    st = out->mode == OUT_NEW ? gpux_reduce(&out->h, op, a, ax, naxes, keepdims)
                              : gpux_reduce_into(out->h, op, a, ax, naxes, keepdims);
  }
  if (out->mode == OUT_NEW) track(out->h);
  return st;
}

static void act_reduce(void) {
  gpux_dtype dt = rand_compute_dtype();
  gpux_reduce_op op = (gpux_reduce_op)rnd(0, GPUX_REDUCE_OP_COUNT - 1);
  int arg = op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX;
  int nd, axes[GPUX_MAX_DIMS], naxes, red[GPUX_MAX_DIMS] = {0}, keepdims = chance(30);
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  int64_t ddof = is_moment(op) && chance(50) ? rnd(0, 3) : 0;
  rand_axes(nd, arg, axes, &naxes, red);
  desc_add("reduce %s %s naxes %d (", gpux_reduce_op_name(op), gt_dtype_str(dt), naxes);
  for (int i = 0; naxes != GPUX_ALL_AXES && i < naxes; i++) desc_add("%s%d", i ? "," : "", axes[i]);
  desc_add(") keepdims %d ddof %" PRId64 ":", keepdims, ddof);
  fz_arr a;
  operand(&a, "a", dt, nd, S, chance(30) ? GT_DOM_SMALLINT : GT_DOM_ANY, chance(50));
  gpux_dtype rdt;
  gpux_status st;
  gpux_array_t o = NULL;
  if (!ref_reduce_result(op, dt, &rdt)) {
    st = gpux_reduce(&o, op, a.h, axes, naxes, keepdims);
    expect_fail(GPUX_ERROR_UNSUPPORTED_DTYPE, st, o, "gpux_reduce(");
    return;
  }
  if (axes_of_0d(nd, naxes, op, a.h, axes, keepdims)) return; /* FUZZ_EXPECT_ISSUE21_FIXES */
  int ond;
  int64_t oshape[GPUX_MAX_DIMS];
  void *canon = reduce_out(nd, S, red, keepdims, rdt, &ond, oshape);
  const int64_t n_out = ref_shape_size(ond, oshape);
  int rc = ref_reduce_axes_canon(op, dt, nd, S, a.host, red, ddof, canon);
  if (chance(15)) { /* the host forms over every element */
    double v = 0;
    int64_t vi = 0;
    int want_i = !ref_dtype_is_float(rdt) && chance(50);
    int64_t nall = a.n;
    int all[GPUX_MAX_DIMS];
    for (int d = 0; d < nd; d++) all[d] = 1;
    char one[8];
    int rc1 = ref_reduce_axes_canon(op, dt, nd, S, a.host, all, ddof, one);
    if (is_moment(op)) st = op == GPUX_REDUCE_VAR ? gpux_var_scalar(&v, a.h, ddof) : gpux_std_scalar(&v, a.h, ddof);
    else if (want_i && rdt == GPUX_UINT64) st = gpux_reduce_scalar_u64((uint64_t *)&vi, op, a.h);
    else if (want_i) st = gpux_reduce_scalar_i64(&vi, op, a.h);
    else st = gpux_reduce_scalar(&v, op, a.h);
    desc_add(" scalar form (n %" PRId64 ")", nall);
    if (rc1 < 0) {
      gt_check_status(GPUX_ERROR_INVALID_ARGUMENT, st, g_desc, __FILE__, __LINE__);
      return;
    }
    gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
    ref_value w = ref_load(rdt, one, 0);
    if (want_i) GT_ASSERT(vi == w.i, "%s: %" PRId64 ", canonical %" PRId64, g_desc, vi, w.i);
    else if (ref_dtype_is_float(rdt))
      GT_ASSERT(v == w.f || (isnan(v) && isnan(w.f)), "%s: %.17g, canonical %.17g", g_desc, v, w.f);
    else GT_ASSERT(v == ref_int_to_double(rdt, w.i), "%s: %.17g, canonical %" PRId64, g_desc, v, w.i);
    return;
  }
  fz_out out;
  out_make(&out, rand_out_mode(0), rdt, ond, oshape);
  st = call_reduce(&out, op, a.h, axes, naxes, ddof, keepdims);
  if (rc < 0) { /* min/max/argmin/argmax/norm_max of nothing */
    gt_check_status(GPUX_ERROR_INVALID_ARGUMENT, st, g_desc, __FILE__, __LINE__);
    if (out.mode == OUT_NEW) GT_ASSERT(out.h == NULL, "%s: *out is not NULL after an error", g_desc);
    return;
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  gt_compare_bits(g_desc, rdt, out_read(&out, rdt, ond, oshape), canon, n_out);
}

/* The canonical scan of a along axis (result dtype rdt) by ref_fn: the axis moved last
 * (rows x len), scanned, moved back. */
typedef void (*scan_ref_fn)(gpux_scan_op, gpux_dtype, int64_t, int64_t, const void *, int, void *);
static void *scan_reference(scan_ref_fn ref_fn, gpux_scan_op op, const fz_arr *a, gpux_dtype rdt,
                            int axis, int exclusive) {
  const int nd = a->ndim;
  const size_t es = ref_dtype_size(a->dt), rs = ref_dtype_size(rdt);
  int perm[GPUX_MAX_DIMS], inv[GPUX_MAX_DIMS], k = 0;
  int64_t pshape[GPUX_MAX_DIMS];
  for (int d = 0; d < nd; d++)
    if (d != axis) perm[k++] = d;
  if (nd) perm[k++] = axis;
  for (int d = 0; d < nd; d++) {
    inv[perm[d]] = d;
    pshape[d] = a->shape[perm[d]];
  }
  const int64_t n = a->n, len = nd ? a->shape[axis] : 1;
  void *px = fz_alloc((size_t)n * es + 1), *pc = fz_alloc((size_t)n * rs + 1),
       *canon = fz_alloc((size_t)n * rs + 1);
  if (n) {
    if (nd) ref_permute(px, a->host, es, nd, a->shape, perm);
    else memcpy(px, a->host, es);
    ref_fn(op, a->dt, n / len, len, px, exclusive, pc);
    if (nd) ref_permute(canon, pc, rs, nd, pshape, inv);
    else memcpy(canon, pc, rs);
  }
  return canon;
}

/* The scan into o (OUT_NEW: a new array, tracked; OUT_INPLACE: over a itself). */
static gpux_status call_scan(fz_out *o, gpux_scan_op op, const fz_arr *a, int axis, int exclusive) {
  gpux_status st;
  if (o->mode == OUT_NEW) {
    st = gpux_scan(&o->h, op, a->h, axis, exclusive);
    track(o->h);
  } else {
    if (o->mode == OUT_INPLACE) o->h = alias(a);
    st = gpux_scan_into(o->h, op, a->h, axis, exclusive);
  }
  return st;
}

static void act_scan(void) {
  gpux_dtype dt = rand_compute_dtype();
  gpux_scan_op op = (gpux_scan_op)rnd(0, 1);
  int nd, exclusive = chance(40);
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  int np = nd ? nd : 1, axis = (int)rnd(0, np - 1);
  int arg_axis = axis - (chance(30) ? np : 0);
  desc_add("scan %s %s axis %d exclusive %d:", op ? "cumprod" : "cumsum", gt_dtype_str(dt),
           arg_axis, exclusive);
  fz_arr a;
  operand(&a, "a", dt, nd, S, op ? GT_DOM_SMALLINT : GT_DOM_ANY, chance(30));
  gpux_status st; /* bool scans as NumPy's: int64 (issue 24) */
  gpux_dtype rdt = ref_scan_result(dt);
  void *canon = scan_reference(ref_scan_canon, op, &a, rdt, axis, exclusive);
  fz_out o;
  out_make(&o, rand_out_mode(rdt == dt), rdt, nd, S);
  st = call_scan(&o, op, &a, arg_axis, exclusive);
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  gt_compare_bits(g_desc, rdt, out_read(&o, rdt, nd, S), canon, a.n);
}

/* ------------------------------------------------------------------ select */

/* top-k (random k and flags) or partition / argpartition along the last axis of a 1-d or
 * 2-d operand (any layout), against tests/ref/ref_select.c bit for bit (issue 25) */
static void act_select(void) {
  gpux_dtype dt = rand_dtype();
  const int nd = (int)rnd(1, 2);
  int64_t S[2] = {rnd(1, 40), rnd(1, chance(20) ? 9000 : 300)};
  if (nd == 1) S[0] = S[1];
  const int64_t len = S[nd - 1], rows = nd == 2 ? S[0] : 1;
  const int topk = chance(60);
  const int64_t k = rnd(topk ? 0 : -len, len - (topk ? 0 : 1));
  unsigned flags = (unsigned)rnd(0, 3);
  desc_add("select %s %s k %lld flags %u:", topk ? "topk" : "partition", gt_dtype_str(dt),
           (long long)k, flags);
  fz_arr a;
  operand(&a, "a", dt, nd, S, chance(50) ? GT_DOM_SMALLINT : GT_DOM_ANY, chance(40));
  const size_t es = gpux_dtype_size(dt);
  const int64_t m = topk ? k : len;
  void *wv = fz_alloc((size_t)(rows * m + 1) * es), *wi = fz_alloc((size_t)(rows * m + 1) * 8);
  gpux_array_t v = NULL, i = NULL;
  gpux_status st;
  if (topk) {
    ref_topk(dt, a.host, rows, len, k, (flags & GPUX_TOPK_SMALLEST) != 0,
             (flags & GPUX_TOPK_SORTED) != 0, wv, wi);
    st = gpux_topk(&v, &i, a.h, k, -1, flags);
  } else {
    ref_partition(dt, a.host, rows, len, k < 0 ? k + len : k, wv, wi);
    st = gpux_partition(&v, a.h, k, nd - 1);
    if (st == GPUX_SUCCESS) st = gpux_argpartition(&i, a.h, k, -1);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  if (st == GPUX_SUCCESS && rows * m > 0) {
    int64_t n = 0;
    void *gv = gt_read_all(v, &n), *gi = gt_read_all(i, &n);
    if (memcmp(gv, wv, (size_t)(rows * m) * es) || memcmp(gi, wi, (size_t)(rows * m) * 8))
      GT_FAIL("%s: values or positions differ from the reference", g_desc);
    free(gv);
    free(gi);
  }
  gpux_array_release(v);
  gpux_array_release(i);
}

/* ------------------------------------------------------------------ complex */

/* complex64 / complex128 (issue 23) where they compute: the elementwise ops (also with a
 * complex scalar), reductions and scans, against tests/ref/ref_complex_ew.c (test_complex_ew's
 * exactness and tolerances, gt_cx_check) and ref_complex_red.c (the canonical bits); the
 * ops complex lacks: act_bad. */
static gpux_dtype rand_cx_dtype(void) {
  return chance(50) || !gt_dtype_available(GPUX_COMPLEX128) ? GPUX_COMPLEX64 : GPUX_COMPLEX128;
}
static gpux_dtype cx_component(gpux_dtype dt) {
  return dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
}

static void act_cx_binary(void) {
  const gpux_dtype dt = rand_cx_dtype();
  gpux_binary_op op;
  do op = (gpux_binary_op)rnd(0, GT_BINARY_OPS - 1);
  while (!ref_binary_supported(op, dt));
  const gpux_dtype rdt = ref_binary_result(op, dt);
  int nd, na, nb;
  int64_t S[GPUX_MAX_DIMS], sa[GPUX_MAX_DIMS], sb[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  const int scalar = chance(25), first = scalar && chance(50);
  desc_add("complex binary %s %s%s:", gt_binary_str(op), gt_dtype_str(dt),
           scalar ? first ? " scalar first" : " scalar" : "");
  gpux_status st;
  if (scalar) {
    fz_arr a;
    operand(&a, "a", dt, nd, S, gt_cx_binary_domain(op, first ? 1 : 0), 1);
    /* the scalar: one value of the dtype (a complex64 one widens exactly) */
    const size_t es = ref_dtype_size(dt);
    unsigned char sb1[16];
    fill(sb1, dt, 1, gt_cx_binary_domain(op, first ? 0 : 1), chance(10));
    const gpux_dtype c = cx_component(dt);
    const gpux_complex128 sv = gpux_complex128_make(ref_load(c, sb1, 0).f, ref_load(c, sb1, 1).f);
    desc_add(" s=%.17g%+.17gi", sv.re, sv.im);
    fz_out o;
    out_make(&o, rand_out_mode(rdt == dt), rdt, nd, S);
    void *want = fz_alloc((size_t)a.n * ref_dtype_size(rdt) + 1), *sfull = fz_alloc((size_t)a.n * es + 1);
    for (int64_t i = 0; i < a.n; i++) memcpy((char *)sfull + (size_t)i * es, sb1, es);
    ref_cx_binary_scalar(op, dt, a.n, a.host, sb1, first, want);
    if (o.mode == OUT_NEW) {
      st = first ? gpux_scalar_complex_binary(&o.h, op, sv, a.h) : gpux_binary_scalar_complex(&o.h, op, a.h, sv);
      track(o.h);
    } else {
      if (o.mode == OUT_INPLACE) o.h = alias(&a);
      st = first ? gpux_scalar_complex_binary_into(o.h, op, sv, a.h)
                 : gpux_binary_scalar_complex_into(o.h, op, a.h, sv);
    }
    gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
    gt_cx_check(g_desc, rdt, dt, out_read(&o, rdt, nd, S), want, a.n, op == GPUX_POW, 1, 0,
                first ? sfull : a.host, first ? a.host : sfull);
    return;
  }
  binary_shapes(nd, S, &na, sa, &nb, sb);
  fz_arr a, b;
  operand(&a, "a", dt, na, sa, gt_cx_binary_domain(op, 0), 1);
  operand(&b, "b", dt, nb, sb, gt_cx_binary_domain(op, 1), 1);
  const int inplace = rdt == dt && na == nd && !memcmp(sa, S, (size_t)nd * sizeof *S);
  fz_out o;
  out_make(&o, rand_out_mode(inplace), rdt, nd, S);
  void *ha = bcast(&a, nd, S), *hb = bcast(&b, nd, S);
  if (o.mode == OUT_NEW) {
    st = gpux_binary(&o.h, op, a.h, b.h);
    track(o.h);
  } else {
    if (o.mode == OUT_INPLACE) o.h = alias(&a);
    st = gpux_binary_into(o.h, op, a.h, b.h);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  gt_cx_check_binary(g_desc, op, dt, out_read(&o, rdt, nd, S), ha, hb, ref_shape_size(nd, S));
}

static void act_cx_unary(void) {
  const gpux_dtype dt = rand_cx_dtype();
  gpux_unary_op op;
  do op = (gpux_unary_op)rnd(0, GT_UNARY_OPS - 1);
  while (!ref_unary_supported(op, dt));
  const gpux_dtype rdt = ref_unary_result(op, dt);
  int nd;
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  desc_add("complex unary %s %s:", gt_unary_str(op), gt_dtype_str(dt));
  fz_arr a;
  operand(&a, "a", dt, nd, S, gt_cx_unary_domain(op), 1);
  fz_out o;
  out_make(&o, rand_out_mode(rdt == dt), rdt, nd, S);
  void *ha = fz_alloc((size_t)a.n * ref_dtype_size(dt) + 1);
  memcpy(ha, a.host, (size_t)a.n * ref_dtype_size(dt)); /* an in-place call overwrites a */
  gpux_status st;
  if (o.mode == OUT_NEW) {
    st = gpux_unary(&o.h, op, a.h);
    track(o.h);
  } else {
    if (o.mode == OUT_INPLACE) o.h = alias(&a);
    st = gpux_unary_into(o.h, op, a.h);
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  gt_cx_check_unary(g_desc, op, dt, out_read(&o, rdt, nd, S), ha, a.n);
}

/* the result's bits: complex values as pairs of the component dtype (NaN = any NaN) */
static void cx_compare_bits(gpux_dtype rdt, const void *got, const void *canon, int64_t n) {
  const int cplx = rdt == GPUX_COMPLEX64 || rdt == GPUX_COMPLEX128;
  gt_compare_bits(g_desc, cplx ? cx_component(rdt) : rdt, got, canon, cplx ? 2 * n : n);
}

static void act_cx_reduce(void) {
  static const gpux_reduce_op ops[] = {GPUX_REDUCE_SUM, GPUX_REDUCE_PROD, GPUX_REDUCE_MEAN,
                                       GPUX_REDUCE_ANY, GPUX_REDUCE_ALL,
                                       GPUX_REDUCE_COUNT_NONZERO, GPUX_REDUCE_VAR,
                                       GPUX_REDUCE_STD};
  const gpux_dtype dt = rand_cx_dtype();
  const gpux_reduce_op op = ops[rnd(0, sizeof ops / sizeof ops[0] - 1)];
  int nd, axes[GPUX_MAX_DIMS], naxes, red[GPUX_MAX_DIMS] = {0}, keepdims = chance(30);
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  const int64_t ddof = is_moment(op) && chance(50) ? rnd(0, 3) : 0;
  rand_axes(nd, 0, axes, &naxes, red);
  desc_add("complex reduce %s %s naxes %d (", gpux_reduce_op_name(op), gt_dtype_str(dt), naxes);
  for (int i = 0; naxes != GPUX_ALL_AXES && i < naxes; i++) desc_add("%s%d", i ? "," : "", axes[i]);
  desc_add(") keepdims %d ddof %" PRId64 ":", keepdims, ddof);
  fz_arr a;
  /* products: parts in [-10, 10] (long products overflow to inf and NaN, bits the
   * reference's fixed formula gives too) */
  const gt_domain dom = op == GPUX_REDUCE_PROD ? GT_DOM_TRIG : chance(30) ? GT_DOM_SMALLINT : GT_DOM_ANY;
  operand(&a, "a", dt, nd, S, dom, chance(50));
  gpux_dtype rdt;
  GT_OK(gpux_reduce_result_dtype(&rdt, op, dt));
  gpux_status st;
  if (axes_of_0d(nd, naxes, op, a.h, axes, keepdims)) return;
  int ond;
  int64_t oshape[GPUX_MAX_DIMS];
  void *canon = reduce_out(nd, S, red, keepdims, rdt, &ond, oshape);
  const int64_t n_out = ref_shape_size(ond, oshape);
  GT_ASSERT(refc_reduce_axes_canon(op, dt, nd, S, a.host, red, ddof, canon) == 0,
            "%s: the reference has no such op", g_desc);
  if (chance(15) && (rdt == GPUX_COMPLEX64 || rdt == GPUX_COMPLEX128)) { /* the host form */
    int all[GPUX_MAX_DIMS];
    for (int d = 0; d < nd; d++) all[d] = 1;
    unsigned char one[16];
    refc_reduce_axes_canon(op, dt, nd, S, a.host, all, ddof, one);
    gpux_complex128 z = gpux_complex128_make(NAN, NAN);
    desc_add(" scalar form");
    gt_check_ok_clean(gpux_reduce_scalar_complex(&z, op, a.h), g_desc, __FILE__, __LINE__);
    const gpux_dtype c = cx_component(rdt);
    const double wr = ref_load(c, one, 0).f, wi = ref_load(c, one, 1).f;
    GT_ASSERT((z.re == wr || (isnan(z.re) && isnan(wr))) && (z.im == wi || (isnan(z.im) && isnan(wi))),
              "%s: %.17g%+.17gi, canonical %.17g%+.17gi", g_desc, z.re, z.im, wr, wi);
    return;
  }
  fz_out out;
  out_make(&out, rand_out_mode(0), rdt, ond, oshape);
  st = call_reduce(&out, op, a.h, axes, naxes, ddof, keepdims);
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  cx_compare_bits(rdt, out_read(&out, rdt, ond, oshape), canon, n_out);
}

static void act_cx_scan(void) {
  const gpux_dtype dt = rand_cx_dtype();
  const gpux_scan_op op = (gpux_scan_op)rnd(0, 1);
  int nd, exclusive = chance(40);
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  const int np = nd ? nd : 1, axis = (int)rnd(0, np - 1), arg_axis = axis - (chance(30) ? np : 0);
  desc_add("complex scan %s %s axis %d exclusive %d:", op ? "cumprod" : "cumsum", gt_dtype_str(dt),
           arg_axis, exclusive);
  fz_arr a;
  operand(&a, "a", dt, nd, S, op ? GT_DOM_TRIG : GT_DOM_ANY, chance(30));
  gpux_status st;
  void *canon = scan_reference(refc_scan_canon, op, &a, dt, axis, exclusive);
  fz_out o;
  out_make(&o, rand_out_mode(1), dt, nd, S);
  st = call_scan(&o, op, &a, arg_axis, exclusive);
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  cx_compare_bits(dt, out_read(&o, dt, nd, S), canon, a.n);
}

/* ------------------------------------------------------------------ matrix products */

static int gemm_dtype_ok(gpux_dtype dt) {
  return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64 || (!ref_dtype_is_float(dt) && dt != GPUX_BOOL);
}

static gpux_dtype rand_gemm_dtype(void) {
  gpux_dtype dt;
  do {
    dt = chance(85) ? (gpux_dtype)rnd(0, 3) : rand_dtype();
  } while (!gt_dtype_available(dt) || (!g_is_opencl && ref_dtype_is_half(dt)));
  return dt;
}

/* The tolerance of one product (test_gemm.c's table): (k + 4) u S + (k + 1) tiny. */
static void gemm_check(const void *got, const ref_value *want, const double *sabs, gpux_dtype dt,
                       int64_t count, int64_t k) {
  double *tol = fz_alloc((size_t)(count ? count : 1) * sizeof *tol);
  double u = dt == GPUX_FLOAT32 ? 0x1p-24 : 0x1p-53, tiny = dt == GPUX_FLOAT32 ? FLT_MIN : DBL_MIN;
  for (int64_t i = 0; i < count; i++)
    tol[i] = ref_dtype_is_float(dt) ? ((double)k + 4) * u * sabs[i] + ((double)k + 1) * tiny : 0;
  gt_compare_tol(g_desc, dt, got, want, tol, count);
}

static int64_t small_dim(void) { return chance(10) ? 0 : chance(70) ? rnd(1, 9) : rnd(10, 40); }

static void act_matmul(void) {
  gpux_dtype dt = rand_gemm_dtype();
  int64_t m = small_dim(), n = small_dim(), k = small_dim();
  int a1 = chance(15), b1 = chance(15); /* 1-d operands */
  int nbatch = chance(30) ? (int)rnd(1, 2) : 0;
  int64_t batch[2], sa[GPUX_MAX_DIMS], sb[GPUX_MAX_DIMS];
  for (int i = 0; i < nbatch; i++) batch[i] = rnd(1, 3);
  int na = 0, nb = 0;
  /* batch axes broadcast: each operand may drop leading ones or hold 1 */
  int da = a1 ? nbatch : (int)rnd(0, nbatch), db = b1 ? nbatch : (int)rnd(0, nbatch);
  if (!a1) {
    for (int i = da; i < nbatch; i++) sa[na++] = chance(30) ? 1 : batch[i];
    sa[na++] = m;
  }
  sa[na++] = k;
  if (!b1)
    for (int i = db; i < nbatch; i++) sb[nb++] = chance(30) ? 1 : batch[i];
  sb[nb++] = k;
  if (!b1) sb[nb++] = n;
  desc_add("matmul %s:", gt_dtype_str(dt));
  fz_arr a, b;
  operand(&a, "a", dt, na, sa, GT_DOM_SMALLINT, 0);
  operand(&b, "b", dt, nb, sb, GT_DOM_SMALLINT, 0);
  gpux_array_t o = NULL;
  gpux_status st = gpux_matmul(&o, a.h, b.h);
  track(o);
  if (!gemm_dtype_ok(dt)) { /* on OpenCL also float16 / bfloat16, empty results included */
    expect_fail(GPUX_ERROR_UNSUPPORTED_DTYPE, st, o, "gpux_matmul(");
    return;
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  /* the result: the broadcast batch shape, then m (a 2-d or more), n (b 2-d or more) */
  int nbo = 0;
  int64_t bo[2], rshape[GPUX_MAX_DIMS];
  int nba = a1 ? 0 : na - 2, nbb = b1 ? 0 : nb - 2;
  int nbmax = nba > nbb ? nba : nbb;
  for (int i = 0; i < nbmax; i++) {
    int ia = i - (nbmax - nba), ib = i - (nbmax - nbb);
    int64_t x = ia >= 0 ? sa[ia] : 1, y = ib >= 0 ? sb[ib] : 1;
    bo[nbo++] = x == 1 ? y : x;
  }
  int nr = 0;
  for (int i = 0; i < nbo; i++) rshape[nr++] = bo[i];
  if (!a1) rshape[nr++] = m;
  if (!b1) rshape[nr++] = n;
  int64_t nbat = ref_shape_size(nbo, bo), cnt = ref_shape_size(nr, rshape);
  /* operands broadcast to (batch, m, k) and (batch, k, n) */
  int64_t fa[4], fb[4];
  int nfa = 0, nfb = 0;
  for (int i = 0; i < nbo; i++) fa[nfa++] = fb[nfb++] = bo[i];
  fa[nfa++] = a1 ? 1 : m;
  fa[nfa++] = k;
  fb[nfb++] = k;
  fb[nfb++] = b1 ? 1 : n;
  int64_t mm = a1 ? 1 : m, nn = b1 ? 1 : n;
  fz_arr a2 = a, b2 = b;
  a2.ndim = a1 ? 0 : na; /* as a (1, k) / (k, 1) matrix for the broadcast */
  if (a1) { a2.ndim = 2; a2.shape[0] = 1; a2.shape[1] = k; }
  if (b1) { b2.ndim = 2; b2.shape[0] = k; b2.shape[1] = 1; }
  void *ha = bcast(&a2, nfa, fa), *hb = bcast(&b2, nfb, fb);
  ref_value *want = fz_alloc((size_t)(cnt ? cnt : 1) * sizeof *want);
  double *sabs = fz_alloc((size_t)(cnt ? cnt : 1) * sizeof *sabs);
  size_t es = ref_dtype_size(dt);
  for (int64_t t = 0; t < nbat && mm * nn > 0; t++)
    ref_gemm(dt, 0, 0, mm, nn, k, 1.0, (char *)ha + (size_t)(t * mm * k) * es, k,
             (char *)hb + (size_t)(t * k * nn) * es, nn, 0.0, NULL, 0, want + t * mm * nn,
             sabs + t * mm * nn);
  fz_out out = {OUT_NEW, o, {0}};
  gemm_check(out_read(&out, dt, nr, rshape), want, sabs, dt, cnt, k);
}

/* gemv (y = alpha op(A) x + beta y) and dot / dot_scalar */
static void act_gemv_dot(gpux_dtype dt) {
  int64_t m = small_dim(), k = small_dim();
  int ta = chance(50), dot = chance(40), isf = ref_dtype_is_float(dt);
  double alpha = isf ? gt_rng_uniform(&R, -2, 2) : (double)rnd(-3, 3);
  double beta = chance(30) ? 0.0 : isf ? gt_rng_uniform(&R, -2, 2) : (double)rnd(-3, 3);
  int64_t sa[2] = {ta ? k : m, ta ? m : k};
  fz_arr a, x, y;
  gpux_status st;
  ref_value want[64 + 1];
  double sabs[64 + 1];
  if (dot) {
    desc_add("dot %s:", gt_dtype_str(dt));
    operand(&x, "x", dt, 1, &k, GT_DOM_SMALLINT, 0);
    operand(&y, "y", dt, 1, &k, GT_DOM_SMALLINT, 0);
    double v = 0;
    gpux_array_t o = NULL;
    int scalar = chance(30);
    st = scalar ? gpux_dot_scalar(&v, x.h, y.h) : gpux_dot(&o, x.h, y.h);
    track(o);
    if (!gemm_dtype_ok(dt)) {
      gt_check_status(GPUX_ERROR_UNSUPPORTED_DTYPE, st, scalar ? "gpux_dot_scalar(" : "gpux_dot(",
                      __FILE__, __LINE__);
      return;
    }
    gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
    ref_gemm(dt, 0, 0, 1, 1, k, 1.0, x.host, k, y.host, 1, 0.0, NULL, 0, want, sabs);
    if (scalar) {
      /* the value of the result dtype, converted to double */
      double wd = isf ? want[0].f : (double)want[0].i;
      double tol = isf ? ((double)k + 4) * (dt == GPUX_FLOAT32 ? 0x1p-24 : 0x1p-53) * sabs[0] +
                             ((double)k + 1) * (dt == GPUX_FLOAT32 ? FLT_MIN : DBL_MIN)
                       : 0;
      GT_ASSERT(fabs(v - wd) <= tol || (isnan(v) && isnan(wd)), "%s: dot_scalar %.17g, reference %.17g",
                g_desc, v, wd);
      return;
    }
    fz_out out = {OUT_NEW, o, {0}};
    gemm_check(out_read(&out, dt, 0, NULL), want, sabs, dt, 1, k);
    return;
  }
  if (m > 64) m = 64;
  desc_add("gemv %s ta %d alpha %.17g beta %.17g:", gt_dtype_str(dt), ta, alpha, beta);
  operand(&a, "a", dt, 2, sa, GT_DOM_SMALLINT, 0);
  operand(&x, "x", dt, 1, &k, GT_DOM_SMALLINT, 0);
  operand(&y, "y", dt, 1, &m, GT_DOM_SMALLINT, 0);
  st = gpux_gemv(y.h, ta ? GPUX_TRANS : GPUX_NO_TRANS, alpha, a.h, x.h, beta);
  if (!gemm_dtype_ok(dt)) {
    gt_check_status(GPUX_ERROR_UNSUPPORTED_DTYPE, st, "gpux_gemv(", __FILE__, __LINE__);
    return;
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  if (m) ref_gemm(dt, ta, 0, m, 1, k, alpha, a.host, sa[1], x.host, 1, beta, y.host, 1, want, sabs);
  fz_out out = {OUT_INPLACE, y.h, {0}};
  gemm_check(out_read(&out, dt, 1, &m), want, sabs, dt, m, k);
}

/* complex products: gemm_complex of complex64 / complex128 with random transposes (N, T,
 * C), complex alpha and beta (beta 0: C NaN-poisoned, never read), data of small integers:
 * every sum is exact, so the result must equal the long double reference exactly */
static gpux_array_t cgemm_upload(gpux_dtype dt, int64_t r, int64_t c, const double *v) {
  const int64_t shape[2] = {r, c};
  gpux_array_t a = NULL;
  if (r * c == 0) {
    gt_check_ok_clean(gpux_array_empty(&a, gt_ctx, dt, 2, shape), g_desc, __FILE__, __LINE__);
    return track(a);
  }
  void *buf = fz_alloc((size_t)(r * c) * gpux_dtype_size(dt));
  for (int64_t i = 0; i < 2 * r * c; i++) {
    if (dt == GPUX_COMPLEX64) ((float *)buf)[i] = (float)v[i];
    else ((double *)buf)[i] = v[i];
  }
  gt_check_ok_clean(gpux_array_from_host(&a, gt_ctx, dt, 2, shape, buf), g_desc, __FILE__,
                    __LINE__);
  return track(a);
}

static void act_cgemm(void) {
  const gpux_dtype dt = chance(50) || !gt_dtype_available(GPUX_COMPLEX128) ? GPUX_COMPLEX64
                                                                          : GPUX_COMPLEX128;
  const int64_t m = small_dim(), n = small_dim(), k = small_dim();
  const int ta = (int)rnd(0, 2), tb = (int)rnd(0, 2), beta0 = chance(30);
  const double al[2] = {(double)rnd(-3, 3), (double)rnd(-3, 3)};
  const double be[2] = {beta0 ? 0.0 : (double)rnd(-3, 3), beta0 ? 0.0 : (double)rnd(-3, 3)};
  desc_add("gemm_complex %s %c%c %lldx%lldx%lld alpha %g%+gi beta %g%+gi:", gt_dtype_str(dt),
           "NTC"[ta], "NTC"[tb], (long long)m, (long long)n, (long long)k, al[0], al[1], be[0],
           be[1]);
  const int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  double *a = fz_alloc((size_t)(2 * ar * ac + 1) * sizeof(double));
  double *b = fz_alloc((size_t)(2 * br * bc + 1) * sizeof(double));
  double *c = fz_alloc((size_t)(2 * m * n + 1) * sizeof(double));
  for (int64_t i = 0; i < 2 * ar * ac; i++) a[i] = (double)rnd(-4, 4);
  for (int64_t i = 0; i < 2 * br * bc; i++) b[i] = (double)rnd(-4, 4);
  for (int64_t i = 0; i < 2 * m * n; i++) c[i] = beta0 ? NAN : (double)rnd(-4, 4);
  gpux_array_t A = cgemm_upload(dt, ar, ac, a), B = cgemm_upload(dt, br, bc, b);
  gpux_array_t C = cgemm_upload(dt, m, n, c);
  gpux_status st = gpux_gemm_complex(C, (gpux_transpose)ta, (gpux_transpose)tb,
                                     gpux_complex128_make(al[0], al[1]), A, B,
                                     gpux_complex128_make(be[0], be[1]));
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  if (m * n == 0) return;
  double *want = fz_alloc((size_t)(2 * m * n) * sizeof(double));
  ref_cgemm(ta, tb, m, n, k, al, a, ac, b, bc, be, beta0 ? NULL : c, n, want, NULL);
  void *got = fz_alloc((size_t)(m * n) * gpux_dtype_size(dt));
  gt_check_ok_clean(gpux_array_read(C, got, (size_t)(m * n) * gpux_dtype_size(dt)), g_desc,
                    __FILE__, __LINE__);
  for (int64_t i = 0; i < 2 * m * n; i++) {
    const double g = dt == GPUX_COMPLEX64 ? (double)((float *)got)[i] : ((double *)got)[i];
    GT_ASSERT(g == want[i], "%s: C part %lld is %.17g, reference %.17g", g_desc, (long long)i, g,
              want[i]);
  }
}

static void act_gemm(void) {
  if (chance(30)) {
    act_cgemm();
    return;
  }
  gpux_dtype dt = rand_gemm_dtype();
  if (chance(35)) {
    act_gemv_dot(dt);
    return;
  }
  int64_t m = small_dim(), n = small_dim(), k = small_dim();
  int ta = chance(50), tb = chance(50);
  int isf = ref_dtype_is_float(dt);
  double alpha = isf ? gt_rng_uniform(&R, -2, 2) : (double)rnd(-3, 3);
  double beta = chance(30) ? 0.0 : isf ? gt_rng_uniform(&R, -2, 2) : (double)rnd(-3, 3);
  int64_t sa[2] = {ta ? k : m, ta ? m : k}, sb[2] = {tb ? n : k, tb ? k : n}, sc[2] = {m, n};
  desc_add("gemm %s ta %d tb %d alpha %.17g beta %.17g:", gt_dtype_str(dt), ta, tb, alpha, beta);
  fz_arr a, b, c;
  operand(&a, "a", dt, 2, sa, GT_DOM_SMALLINT, 0);
  operand(&b, "b", dt, 2, sb, GT_DOM_SMALLINT, 0);
  operand(&c, "c", dt, 2, sc, GT_DOM_SMALLINT, 0);
  gpux_status st = gpux_gemm(c.h, ta ? GPUX_TRANS : GPUX_NO_TRANS, tb ? GPUX_TRANS : GPUX_NO_TRANS,
                             alpha, a.h, b.h, beta);
  if (!gemm_dtype_ok(dt)) { /* on OpenCL also float16 / bfloat16, empty results included */
    gt_check_status(GPUX_ERROR_UNSUPPORTED_DTYPE, st, "gpux_gemm(", __FILE__, __LINE__);
    return;
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  int64_t cnt = m * n;
  ref_value *want = fz_alloc((size_t)(cnt ? cnt : 1) * sizeof *want);
  double *sabs = fz_alloc((size_t)(cnt ? cnt : 1) * sizeof *sabs);
  if (cnt)
    ref_gemm(dt, ta, tb, m, n, k, alpha, a.host, sa[1], b.host, sb[1], beta, c.host, n, want, sabs);
  fz_out out = {OUT_INPLACE, c.h, {0}};
  gemm_check(out_read(&out, dt, 2, sc), want, sabs, dt, cnt, k);
}

/* ------------------------------------------------------------------ creation, random */

static void act_create(void) {
  gpux_dtype dt = rand_dtype();
  int kind = (int)rnd(0, 2), nd;
  int64_t S[GPUX_MAX_DIMS];
  gpux_array_t o = NULL;
  if (kind == 0) { /* full / zeros / ones: the value converted as casts convert */
    rand_shape(&nd, S, rand_max_n());
    int which = (int)rnd(0, 3);
    static const double special[] = {NAN, INFINITY, -INFINITY, 1e30, -1e30, 0.5, -0.5, 2.5, 65504, 65520};
    double v = which == 1   ? 0.0
               : which == 2 ? 1.0
               : chance(15) ? special[rnd(0, 9)]
               : chance(50) ? exact_scalar(dt, GT_DOM_ANY)
                            : gt_rng_uniform(&R, -300, 300);
    desc_add("full %s value %.17g:", gt_dtype_str(dt), v);
    gpux_status st = which == 1 ? gpux_array_zeros(&o, gt_ctx, dt, nd, S)
                     : which == 2 ? gpux_array_ones(&o, gt_ctx, dt, nd, S)
                                  : gpux_array_full(&o, gt_ctx, dt, nd, S, v);
    track(o);
    gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
    int64_t n = ref_shape_size(nd, S);
    size_t es = ref_dtype_size(dt);
    char *want = fz_alloc((size_t)n * es), one[8];
    if (ref_dtype_is_half(dt)) {
      uint16_t h = ref_half_from_f64(dt, v);
      memcpy(one, &h, 2);
    } else {
      ref_store(dt, one, 0, ref_from_double(dt, v));
    }
    for (int64_t i = 0; i < n; i++) memcpy(want + (size_t)i * es, one, es);
    fz_out out = {OUT_NEW, o, {0}};
    gt_compare_bits(g_desc, dt, out_read(&out, dt, nd, S), want, n);
    return;
  }
  /* arange / linspace; the half dtypes with integer values only (exact in float64) */
  int ints = !ref_dtype_is_float(dt) || ref_dtype_is_half(dt) || chance(30);
  double start = ints ? (double)rnd(-50, 50) : gt_rng_uniform(&R, -50, 50), step, stop;
  int64_t n;
  if (kind == 1) {
    step = ints ? (double)(rnd(1, 5) * (chance(30) ? -1 : 1)) : gt_rng_uniform(&R, 0.01, 3) * (chance(30) ? -1 : 1);
    stop = start + step * (double)rnd(-2, 2000) + (ints ? 0 : gt_rng_uniform(&R, -1, 1) * step);
    n = ref_arange_length(start, stop, step);
    desc_add("arange %s %.17g %.17g %.17g:", gt_dtype_str(dt), start, stop, step);
    gt_check_ok_clean(gpux_array_arange(&o, gt_ctx, dt, start, stop, step), g_desc, __FILE__, __LINE__);
  } else {
    n = rnd(0, 2000);
    stop = ints ? start + (double)(n > 1 ? (n - 1) * rnd(-3, 3) : 0) : gt_rng_uniform(&R, -50, 50);
    desc_add("linspace %s %.17g %.17g %" PRId64 ":", gt_dtype_str(dt), start, stop, n);
    gt_check_ok_clean(gpux_array_linspace(&o, gt_ctx, dt, start, stop, n), g_desc, __FILE__, __LINE__);
  }
  track(o);
  int64_t shape1[1] = {n};
  fz_out out = {OUT_NEW, o, {0}};
  void *got = out_read(&out, dt, 1, shape1);
  ref_value *want = fz_alloc((size_t)(n ? n : 1) * sizeof *want);
  if (kind == 1) ref_arange(dt, start, step, n, want);
  else ref_linspace(dt, start, stop, n, want);
  if (ref_dtype_is_half(dt)) { /* integer values: exact, rounded once to the half dtype */
    uint16_t *w = fz_alloc((size_t)(n ? n : 1) * 2);
    for (int64_t i = 0; i < n; i++) w[i] = ref_half_from_f64(dt, want[i].f);
    gt_compare_bits(g_desc, dt, got, w, n);
    return;
  }
  gt_tol tol = gt_tolerance(dt, GT_OPC_RANGE);
  tol.abs = tol.rel * fmax(fabs(start), fabs(stop));
  check_ew("range", dt, got, want, n, tol, dt, NULL, NULL);
}

/* an integer dtype (random integers take them all: GPUX_DT_RINT) */
static gpux_dtype rand_int_dtype(void) {
  static const gpux_dtype d[] = {GPUX_DT_INTEGER(GT__DT, _)};
  return d[rnd(0, (int64_t)(sizeof d / sizeof d[0]) - 1)];
}

static void act_random(void) {
  gpux_random_kind kind = (gpux_random_kind)rnd(0, 3);
  gpux_dtype dt = kind == GPUX_RANDOM_BERNOULLI ? GPUX_BOOL
                  : kind == GPUX_RANDOM_INTEGERS ? rand_int_dtype()
                  : (chance(50) || !gt_dtype_available(GPUX_FLOAT64) ? GPUX_FLOAT32 : GPUX_FLOAT64);
  int nd;
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, rand_max_n());
  gpux_generator_t g = NULL;
  GT_OK(gpux_generator_create(&g, gt_rng_u64(&R)));
  g_gens[g_ngens++] = g;
  gpux_rng_state st0 = {gt_rng_u64(&R), gt_rng_u64(&R) >> 1, chance(50) ? 0 : gt_rng_u64(&R) >> 8};
  GT_OK(gpux_generator_set_state(g, &st0));
  double fa = 0, fb = 1;
  int64_t ia = 0, ib = 1;
  /* uint64: also gpux_random_integers_u64 over [ua, ub], anywhere in the dtype */
  const int closed = kind == GPUX_RANDOM_INTEGERS && dt == GPUX_UINT64 && chance(50);
  uint64_t ua = gt_rng_u64(&R), ub = chance(20) ? UINT64_MAX : gt_rng_u64(&R);
  if (chance(20)) ua = 0;
  if (ua > ub) {
    const uint64_t t = ua;
    ua = ub;
    ub = t;
  }
  switch (kind) {
    case GPUX_RANDOM_UNIFORM: fa = gt_rng_uniform(&R, -10, 10); fb = fa + gt_rng_uniform(&R, 1e-3, 100); break;
    case GPUX_RANDOM_NORMAL: fa = gt_rng_uniform(&R, -10, 10); fb = gt_rng_uniform(&R, 0, 5); break;
    case GPUX_RANDOM_INTEGERS:
    {
      /* [lo, top]: the dtype's values the int64 bounds can spell (uint64: below 2^63) */
      const int64_t lo = ref_int_min(dt), top = dt == GPUX_UINT64 ? INT64_MAX : ref_int_max(dt);
      ia = dt == GPUX_INT64 ? (int64_t)gt_rng_u64(&R) : rnd(lo, top - 1);
      if (ia == INT64_MAX) ia--;
      ib = chance(50) && ia < top - 100 ? ia + rnd(1, 100) : rnd(ia + 1, top);
      if (dt != GPUX_INT64 && dt != GPUX_UINT64 && chance(20)) ib = top + 1; /* the end */
    }
      break;
    default: fa = chance(20) ? (double)rnd(0, 1) : gt_rng_unit(&R); break;
  }
  desc_add("random kind %d %s [%.17g %.17g | %" PRId64 " %" PRId64 ") state %" PRIu64 "/%" PRIu64 "/%" PRIu64 ":",
           (int)kind, gt_dtype_str(dt), fa, fb, ia, ib, st0.seed, st0.stream, st0.position);
  if (closed) desc_add(" integers_u64 [%" PRIu64 ", %" PRIu64 "]:", ua, ub);
  fz_arr a;
  operand(&a, "out", dt, nd, S, GT_DOM_ANY, 0); /* the array drawn into (maybe a view) */
  gpux_status s;
  switch (kind) {
    case GPUX_RANDOM_UNIFORM: s = gpux_random_uniform(a.h, g, fa, fb); break;
    case GPUX_RANDOM_NORMAL: s = gpux_random_normal(a.h, g, fa, fb); break;
    case GPUX_RANDOM_INTEGERS:
      s = closed ? gpux_random_integers_u64(a.h, g, ua, ub) : gpux_random_integers(a.h, g, ia, ib);
      break;
    default: s = gpux_random_bernoulli(a.h, g, fa); break;
  }
  gt_check_ok_clean(s, g_desc, __FILE__, __LINE__);
  size_t es = ref_dtype_size(dt);
  void *want = fz_alloc((size_t)(a.n ? a.n : 1) * es);
  switch (kind) {
    case GPUX_RANDOM_UNIFORM: s = gpux_random_uniform_host(want, dt, 0, a.n, &st0, fa, fb); break;
    case GPUX_RANDOM_NORMAL: s = gpux_random_normal_host(want, dt, 0, a.n, &st0, fa, fb); break;
    case GPUX_RANDOM_INTEGERS:
      s = closed ? gpux_random_integers_u64_host(want, 0, a.n, &st0, ua, ub)
                 : gpux_random_integers_host(want, dt, 0, a.n, &st0, ia, ib);
      break;
    default: s = gpux_random_bernoulli_host(want, 0, a.n, &st0, fa); break;
  }
  gt_check_ok_clean(s, g_desc, __FILE__, __LINE__);
  fz_out out = {OUT_INPLACE, a.h, {0}};
  gt_compare_bits(g_desc, dt, out_read(&out, dt, nd, S), want, a.n);
  gpux_rng_state st1;
  uint64_t words = 0;
  GT_OK(gpux_generator_get_state(&st1, g));
  GT_OK(gpux_random_words(&words, kind, dt, a.n));
  GT_ASSERT(st1.seed == st0.seed && st1.stream == st0.stream && st1.position == st0.position + words,
            "%s: the generator is at %" PRIu64 ", expected %" PRIu64 " + %" PRIu64, g_desc,
            st1.position, st0.position, words);
}

/* ------------------------------------------------------------------ expression kernels */

/* An elementwise kernel from an expression gives the bits of the same chain of built-in
 * ops (include/gpux/kernel.h), on broadcast views. */
static void act_expr(void) {
  static const gpux_dtype dts[4] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_INT32, GPUX_INT64};
  static const char *const bodies[3] = {"z = a * x + y", "z = gpux_maximum(x, y) - x",
                                        "z = x > y ? x : y * y"};
  gpux_dtype dt = dts[rnd(0, 3)];
  int e = (int)rnd(0, 2), nd, nx, ny;
  int64_t S[GPUX_MAX_DIMS], sx[GPUX_MAX_DIMS], sy[GPUX_MAX_DIMS];
  if (!gt_dtype_available(dt)) dt = GPUX_FLOAT32;
  rand_shape(&nd, S, rand_max_n());
  broadcast_source(nd, S, &nx, sx);
  nx = nd;
  memcpy(sx, S, sizeof S);
  broadcast_source(nd, S, &ny, sy);
  double av = exact_scalar(dt, GT_DOM_SMALLINT);
  desc_add("expr \"%s\" %s a=%.17g:", bodies[e], gt_dtype_str(dt), av);
  fz_arr x, y;
  operand(&x, "x", dt, nx, sx, GT_DOM_SMALLINT, 0);
  operand(&y, "y", dt, ny, sy, GT_DOM_ANY, 0);
  gpux_elementwise_t ew = NULL;
  GT_OK(gpux_elementwise_create(&ew, gt_ctx, "T x, T y, T a", "T z", bodies[e], "fuzz_expr", NULL));
  fz_out o;
  out_make(&o, rand_out_mode(1), dt, nd, S);
  if (o.mode == OUT_NEW) o.mode = OUT_INTO, o.h = track(gt_poisoned(dt, nd, S));
  gpux_array_t x_in = x.h; /* the chain below runs on a copy when z is x itself */
  if (o.mode == OUT_INPLACE) {
    GT_OK(gpux_array_copy(&x_in, x.h));
    track(x_in);
    o.h = alias(&x);
  }
  gpux_arg args[4] = {gpux_arg_array(x.h), gpux_arg_array(y.h), gpux_arg_f64(av), gpux_arg_array(o.h)};
  gpux_status st = gpux_elementwise_call(ew, 4, args);
  gpux_elementwise_release(ew); /* the queued work keeps what it needs */
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  gpux_array_t t = NULL, c = NULL, w = NULL;
  if (e == 0) {
    GT_OK(gpux_binary_scalar(&t, GPUX_MUL, x_in, av));
    GT_OK(gpux_binary(&w, GPUX_ADD, track(t), y.h));
  } else if (e == 1) {
    GT_OK(gpux_binary(&t, GPUX_MAXIMUM, x_in, y.h));
    GT_OK(gpux_binary(&w, GPUX_SUB, track(t), x_in));
  } else {
    GT_OK(gpux_binary(&c, GPUX_GT, x_in, y.h));
    GT_OK(gpux_binary(&t, GPUX_MUL, y.h, y.h));
    GT_OK(gpux_where(&w, track(c), x_in, track(t)));
  }
  track(w);
  fz_out chain = {OUT_NEW, w, {0}};
  gt_compare_bits(g_desc, dt, out_read(&o, dt, nd, S), out_read(&chain, dt, nd, S), ref_shape_size(nd, S));
}

/* ------------------------------------------------------------------ raw kernels */

/* A bad call must return an error with a message; calls that create an array must leave
 * *out NULL. The context must stay usable (checked after the case). */
/* The call's text is the label: gt_check_status also checks that the message starts with
 * the public function's name. */
#define BAD(want, call)                                                          \
  do {                                                                           \
    desc_add(" %s", #call);                                                      \
    gt_check_status((want), (call), #call, __FILE__, __LINE__);                  \
  } while (0)
#define BAD_OUT(want, o, call)                                                   \
  do {                                                                           \
    o = NULL;                                                                    \
    desc_add(" %s", #call);                                                      \
    gpux_status s_ = (call);                                                     \
    track(o);                                                                    \
    expect_fail((want), s_, o, #call);                                           \
  } while (0)
/* any error status (the exact one is not documented) */
#define BAD_ANY(call)                                                                        \
  do {                                                                                       \
    desc_add(" %s", #call);                                                                  \
    gpux_status s_ = (call);                                                                 \
    GT_ASSERT(s_ != GPUX_SUCCESS, "%s: succeeded", g_desc);                                  \
    gt_check_status(s_, s_, #call, __FILE__, __LINE__); /* a message naming the function */ \
  } while (0)


/* tests/common's vadd (c = a + b for i < n) on contiguous float32 arrays: a launch of random
 * block size, then arguments and launch shapes that kernel.h says must fail. The release
 * order of the program and the kernel is random (release_case). */
static void act_kernel(void) {
  int64_t n = chance(10) ? 0 : rnd(1, 3000);
  uint32_t block = (uint32_t)(chance(30) ? rnd(1, 100) : 1 << rnd(0, 8));
  desc_add("kernel vadd n %" PRId64 " block %u:", n, block);
  fz_arr a, b, c;
  make_operand(&a, GPUX_FLOAT32, 1, &n, (fill_spec){GT_DOM_ANY, 1}, 2); /* depth 2: contiguous */
  make_operand(&b, GPUX_FLOAT32, 1, &n, (fill_spec){GT_DOM_ANY, 1}, 2);
  make_operand(&c, GPUX_FLOAT32, 1, &n, (fill_spec){GT_DOM_ANY, 0}, 2);
  GT_OK(gpux_program_create(&g_prog, gt_ctx, GPUX_SOURCE_DIALECT, KSRC_VADD, NULL));
  GT_OK(gpux_kernel_create(&g_kern, g_prog, "vadd"));
  uint32_t maxb = 0;
  GT_OK(gpux_kernel_max_block_size(&maxb, g_kern));
  if (block > maxb) block = maxb;
  gpux_arg args[4] = {gpux_arg_array(a.h), gpux_arg_array(b.h), gpux_arg_array(c.h), gpux_arg_i64(n)};
  gpux_arg f32 = gpux_arg_f32(1.0f), arr = gpux_arg_array(a.h);
  gpux_array_t d64 = NULL;
  GT_OK(gpux_array_zeros(&d64, gt_ctx, GPUX_FLOAT64, 1, &n));
  track(d64);
  gpux_arg wrong = gpux_arg_array(d64);
  uint64_t grid = (uint64_t)((n + block - 1) / block), huge = UINT64_MAX / 2;
  uint32_t big = maxb + 1 + (uint32_t)rnd(0, 100), b4 = 4;
  switch ((int)rnd(0, 7)) { /* one bad call first; a good launch must still work after it */
    case 0: BAD(GPUX_ERROR_DTYPE_MISMATCH, gpux_kernel_set_arg(g_kern, 3, &f32)); break;
    case 1: BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(g_kern, 3, &arr)); break;
    case 2: BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(g_kern, (int)rnd(0, 2), &args[3])); break;
    case 3: BAD(GPUX_ERROR_DTYPE_MISMATCH, gpux_kernel_set_arg(g_kern, (int)rnd(0, 2), &wrong)); break;
    case 4: BAD_ANY(gpux_kernel_set_arg(g_kern, chance(50) ? 4 : -1, &args[0])); break;
    case 5: BAD_ANY(gpux_kernel_call(g_kern, 1, &grid, &block, (int)rnd(0, 3), args)); break;
    case 6: BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_call(g_kern, 1, &grid, &big, 4, args)); break;
    default:
      BAD(GPUX_ERROR_SIZE_OVERFLOW, gpux_kernel_call(g_kern, 1, &huge, &b4, 4, args));
      BAD_ANY(gpux_kernel_call(g_kern, chance(50) ? 0 : 4, &grid, &block, 4, args));
      break;
  }
  gpux_clear_error();
  gt_check_ok_clean(gpux_kernel_call(g_kern, 1, &grid, &block, 4, args), g_desc, __FILE__, __LINE__);
  ref_value *want = fz_alloc((size_t)(n ? n : 1) * sizeof *want);
  ref_binary(GPUX_ADD, GPUX_FLOAT32, n, a.host, b.host, want);
  fz_out out = {OUT_INPLACE, c.h, {0}};
  check_ew("vadd", GPUX_FLOAT32, out_read(&out, GPUX_FLOAT32, 1, &n), want, n,
           gt_tolerance(GPUX_FLOAT32, GT_OPC_ARITH), GPUX_FLOAT32, a.host, b.host);
}

/* ------------------------------------------------------------------ bad arguments */

static void act_bad(void) {
  gpux_dtype dt = rand_compute_dtype();
  if (dt == GPUX_BOOL || ref_dtype_is_half(dt)) dt = GPUX_FLOAT32;
  int nd;
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, 300);
  if (nd == 0) { nd = 1; S[0] = 3; }
  for (int d = 0; d < nd; d++)
    if (S[d] < 3) S[d] = 3; /* every axis of length >= 3: mismatches and overlaps are real */
  desc_add("bad:");
  fz_arr a;
  operand(&a, "a", dt, nd, S, GT_DOM_ANY, 0);
  gpux_array_t o = NULL, x = a.h;
  int ax[GPUX_MAX_DIMS + 1] = {0};
  int64_t big[2] = {(int64_t)1 << 40, (int64_t)1 << 40}, neg[2] = {3, -1}, sh2[2] = {S[0] + 1, 3};
  int64_t st0[GPUX_MAX_DIMS] = {0};
  gpux_dtype other = dt == GPUX_FLOAT32 ? GPUX_INT32 : GPUX_FLOAT32;
  fz_arr b;
  switch ((int)rnd(0, 35)) {
    case 0: BAD(GPUX_ERROR_NULL_POINTER, gpux_array_empty(NULL, gt_ctx, dt, nd, S)); break;
    case 1: BAD_OUT(GPUX_ERROR_NULL_POINTER, o, gpux_array_empty(&o, NULL, dt, nd, S)); break;
    case 2: BAD_OUT(GPUX_ERROR_INVALID_DTYPE, o, gpux_array_zeros(&o, gt_ctx, (gpux_dtype)(chance(50) ? GPUX_DTYPE_COUNT : -1), nd, S)); break;
    case 3: BAD_OUT(GPUX_ERROR_INVALID_SHAPE, o, gpux_array_ones(&o, gt_ctx, dt, chance(50) ? GPUX_MAX_DIMS + 1 : -1, S)); break;
    case 4: BAD_OUT(GPUX_ERROR_INVALID_SHAPE, o, gpux_array_full(&o, gt_ctx, dt, 2, neg, 1.0)); break;
    case 5: {
      /* more than the device holds: out of memory, and the context stays usable */
      int64_t huge[2] = {rnd(2, 8), (int64_t)(gt_info.global_mem_bytes / ref_dtype_size(dt))};
      BAD_OUT(GPUX_ERROR_SIZE_OVERFLOW, o, gpux_array_empty(&o, gt_ctx, dt, 2, big));
      BAD_OUT(GPUX_ERROR_OUT_OF_MEMORY, o, gpux_array_full(&o, gt_ctx, dt, 2, huge, 1.0));
      break;
    }
    case 6: BAD_OUT(GPUX_ERROR_NULL_POINTER, o, gpux_array_from_host(&o, gt_ctx, dt, nd, S, NULL)); break;
    case 7: {
      void *buf = fz_alloc((size_t)a.n * ref_dtype_size(dt) + 8);
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_read(x, buf, (size_t)a.n * ref_dtype_size(dt) + (chance(50) ? 1 : -1)));
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_write(x, buf, (size_t)a.n * ref_dtype_size(dt) - 1));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_read(x, NULL, (size_t)a.n * ref_dtype_size(dt)));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_read(NULL, buf, 4));
      break;
    }
    case 8:
      BAD_OUT(GPUX_ERROR_NULL_POINTER, o, gpux_binary(&o, GPUX_ADD, x, NULL));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_binary(NULL, GPUX_ADD, x, x));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_binary_into(NULL, GPUX_ADD, x, x));
      BAD_OUT(GPUX_ERROR_NULL_POINTER, o, gpux_unary(&o, GPUX_NEG, NULL));
      break;
    case 9: BAD_OUT(GPUX_ERROR_INVALID_OP, o, gpux_binary(&o, (gpux_binary_op)(chance(50) ? GT_BINARY_OPS : -1), x, x)); break;
    case 10:
      operand(&b, "b", other, nd, S, GT_DOM_ANY, 0);
      BAD_OUT(GPUX_ERROR_DTYPE_MISMATCH, o, gpux_binary(&o, GPUX_ADD, x, b.h));
      BAD_OUT(GPUX_ERROR_DTYPE_MISMATCH, o, gpux_where(&o, x, b.h, b.h)); /* cond not bool */
      break;
    case 11: { /* shapes that do not broadcast: the message names both */
      int64_t sb[GPUX_MAX_DIMS];
      memcpy(sb, S, sizeof sb);
      sb[nd - 1] = S[nd - 1] + 1;
      operand(&b, "b", dt, nd, sb, GT_DOM_ANY, 0);
      desc_add(" binary(non-broadcasting)");
      o = NULL;
      GT_EXPECT_SHAPES(gpux_binary(&o, GPUX_MUL, x, b.h), nd, S, nd, sb);
      GT_ASSERT(o == NULL, "%s: *out set after an error", g_desc);
      break;
    }
    case 12: {
      int64_t so[GPUX_MAX_DIMS];
      memcpy(so, S, sizeof so);
      so[0] = S[0] + 1;
      gpux_array_t w = track(gt_poisoned(dt, nd, so)), wd = track(gt_poisoned(other, nd, S));
      BAD(GPUX_ERROR_SHAPE_MISMATCH, gpux_binary_into(w, GPUX_ADD, x, x));
      BAD(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary_into(wd, GPUX_ADD, x, x));
      if (ref_unary_supported(GPUX_ABS, dt)) BAD(GPUX_ERROR_SHAPE_MISMATCH, gpux_unary_into(w, GPUX_ABS, x));
      BAD(GPUX_ERROR_SHAPE_MISMATCH, gpux_array_copy_into(x, w));
      BAD(GPUX_ERROR_DTYPE_MISMATCH, gpux_array_copy_into(wd, x));
      break;
    }
    case 13: { /* partial overlap: out = x[1:], input x[:-1] along axis 0 */
      int64_t lo[GPUX_MAX_DIMS] = {0}, hi[GPUX_MAX_DIMS], one[GPUX_MAX_DIMS];
      for (int d = 0; d < nd; d++) { hi[d] = S[d]; one[d] = 1; }
      gpux_array_t p = NULL, q = NULL;
      lo[0] = 1;
      GT_OK(gpux_array_slice(&p, x, lo, NULL, one));
      track(p);
      lo[0] = 0;
      hi[0] = S[0] - 1;
      GT_OK(gpux_array_slice(&q, x, lo, hi, one));
      track(q);
      BAD(GPUX_ERROR_OVERLAP, gpux_binary_into(p, GPUX_ADD, q, q));
      BAD(GPUX_ERROR_OVERLAP, gpux_array_copy_into(p, q));
      break;
    }
    case 14:
      BAD_OUT(GPUX_ERROR_INVALID_OP, o, gpux_unary(&o, (gpux_unary_op)(chance(50) ? GT_UNARY_OPS : -7), x));
      BAD_OUT(GPUX_ERROR_INVALID_OP, o, gpux_binary_scalar(&o, (gpux_binary_op)1000, x, 1.0));
      break;
    case 15:
      BAD_OUT(GPUX_ERROR_INVALID_OP, o, gpux_reduce(&o, (gpux_reduce_op)(chance(50) ? GPUX_REDUCE_OP_COUNT : -1), x, NULL, GPUX_ALL_AXES, 0));
      ax[0] = chance(50) ? nd : -nd - 1;
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_reduce(&o, GPUX_REDUCE_SUM, x, ax, 1, 0));
      break;
    case 16:
      ax[0] = 0;
      ax[1] = chance(50) ? 0 : -nd;
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_reduce(&o, GPUX_REDUCE_MAX, x, ax, 2, 0));
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_reduce(&o, GPUX_REDUCE_SUM, x, ax, chance(50) ? GPUX_MAX_DIMS + 1 : -2, 0));
      break;
    case 17:
      ax[0] = 0;
      ax[1] = nd > 1 ? 1 : 0;
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_reduce(&o, GPUX_REDUCE_ARGMAX, x, ax, 2, 0));
      BAD_OUT(GPUX_ERROR_NULL_POINTER, o, gpux_reduce(&o, GPUX_REDUCE_SUM, x, NULL, 1, 0));
      BAD_OUT(GPUX_ERROR_INVALID_ARGUMENT, o, gpux_var(&o, x, NULL, GPUX_ALL_AXES, -1, 0));
      break;
    case 18: {
      gpux_array_t w = track(gt_poisoned(dt, 1, sh2));
      BAD(GPUX_ERROR_SHAPE_MISMATCH, gpux_reduce_into(w, GPUX_REDUCE_MAX, x, NULL, GPUX_ALL_AXES, 0));
      int64_t vi = 0;
      if (ref_dtype_is_float(dt)) BAD(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_reduce_scalar_i64(&vi, GPUX_REDUCE_SUM, x));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_reduce_scalar(NULL, GPUX_REDUCE_SUM, x));
      break;
    }
    case 19:
      BAD_OUT(GPUX_ERROR_INVALID_OP, o, gpux_scan(&o, (gpux_scan_op)2, x, 0, 0));
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_scan(&o, GPUX_SCAN_SUM, x, chance(50) ? nd : -nd - 1, 0));
      break;
    case 20: {
      int64_t stp[GPUX_MAX_DIMS];
      for (int d = 0; d < nd; d++) stp[d] = 1;
      stp[rnd(0, nd - 1)] = 0;
      BAD_OUT(GPUX_ERROR_INVALID_ARGUMENT, o, gpux_array_slice(&o, x, NULL, NULL, stp));
      BAD_OUT(GPUX_ERROR_NULL_POINTER, o, gpux_array_slice(&o, NULL, st0, NULL, NULL));
      break;
    }
    case 21: {
      int64_t r1[2] = {a.n + 1, 1}, r2[2] = {-1, -1}, r3[2] = {-2, a.n};
      BAD_OUT(GPUX_ERROR_SHAPE_MISMATCH, o, gpux_array_reshape(&o, x, 2, r1));
      BAD_OUT(GPUX_ERROR_INVALID_SHAPE, o, gpux_array_reshape(&o, x, 2, r2));
      BAD_OUT(GPUX_ERROR_INVALID_SHAPE, o, gpux_array_reshape(&o, x, 2, r3));
      BAD_OUT(GPUX_ERROR_INVALID_SHAPE, o, gpux_array_reshape(&o, x, GPUX_MAX_DIMS + 1, S));
      break;
    }
    case 22:
      for (int d = 0; d < nd; d++) ax[d] = d;
      if (nd > 1 && chance(50)) ax[1] = ax[0] - (chance(50) ? nd : 0); /* repeated */
      else ax[rnd(0, nd - 1)] = chance(50) ? nd : -nd - 1;          /* out of range */
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_array_permute(&o, x, ax));
      BAD_OUT(GPUX_ERROR_NULL_POINTER, o, gpux_array_permute(&o, x, NULL));
      break;
    case 23:
      BAD_OUT(GPUX_ERROR_INVALID_DTYPE, o, gpux_array_cast(&o, x, (gpux_dtype)(chance(50) ? 99 : -3)));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_cast_into(x, NULL));
      break;
    case 24: { /* arrays of two contexts */
      gpux_array_t y = NULL;
      GT_OK(gpux_array_from_host(&y, g_ctx2, dt, nd, S, a.host));
      track(y);
      BAD_OUT(GPUX_ERROR_CONTEXT_MISMATCH, o, gpux_binary(&o, GPUX_ADD, x, y));
      BAD(GPUX_ERROR_CONTEXT_MISMATCH, gpux_array_copy_into(x, y));
      BAD(GPUX_ERROR_CONTEXT_MISMATCH, gpux_binary_into(x, GPUX_SUB, y, y));
      if (gemm_dtype_ok(dt) && nd == 2) BAD_OUT(GPUX_ERROR_CONTEXT_MISMATCH, o, gpux_matmul(&o, x, y));
      break;
    }
    case 25: { /* matrix products of the wrong shapes or enums */
      int64_t sm[2] = {S[0], S[0] + 1}, sn[2] = {S[0] + 2, 3};
      fz_arr c;
      if (!gemm_dtype_ok(dt)) dt = GPUX_FLOAT32;
      operand(&b, "b", dt, 2, sm, GT_DOM_SMALLINT, 0);
      operand(&c, "c", dt, 2, sn, GT_DOM_SMALLINT, 0);
      BAD_OUT(GPUX_ERROR_SHAPE_MISMATCH, o, gpux_matmul(&o, b.h, c.h));
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_gemm(c.h, (gpux_transpose)7, GPUX_NO_TRANS, 1.0, b.h, b.h, 0.0));
      BAD(GPUX_ERROR_SHAPE_MISMATCH, gpux_gemm(c.h, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, b.h, b.h, 0.0));
      BAD_ANY(gpux_dot(&o, b.h, b.h)); /* 2-d operands */
      track(o);
      break;
    }
    case 26:
      BAD_OUT(GPUX_ERROR_INVALID_ARGUMENT, o, gpux_array_arange(&o, gt_ctx, dt, 0, 10, chance(50) ? 0.0 : NAN));
      BAD_OUT(GPUX_ERROR_INVALID_SHAPE, o, gpux_array_linspace(&o, gt_ctx, dt, 0, 1, -rnd(1, 100)));
      BAD_OUT(GPUX_ERROR_SIZE_OVERFLOW, o, gpux_array_arange(&o, gt_ctx, dt, 0, 1e300, 1e-300));
      break;
    case 27: { /* random numbers with bad parameters */
      gpux_generator_t g = NULL;
      GT_OK(gpux_generator_create(&g, 1));
      g_gens[g_ngens++] = g;
      gpux_array_t f = track(gt_poisoned(GPUX_FLOAT32, nd, S));
      gpux_rng_state rs = {1, (uint64_t)1 << 63, 0};
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_uniform(f, g, 1.0, chance(50) ? 1.0 : 0.5));
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_normal(f, g, 0.0, -1.0));
      gpux_array_t bo = track(gt_poisoned(GPUX_BOOL, nd, S));
      BAD(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_random_bernoulli(f, g, 0.5));
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_random_bernoulli(bo, g, chance(50) ? 1.5 : -0.1));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_random_uniform(f, NULL, 0.0, 1.0));
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_generator_set_state(g, &rs));
      gpux_generator_t kids[2] = {NULL, NULL};
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_generator_split(kids, 0, g));
      /* a draw that would pass word 2^64 fails and leaves the generator where it was */
      gpux_rng_state late = {7, 3, UINT64_MAX - (uint64_t)rnd(0, 1)}, now; /* >= 3 values */
      GT_OK(gpux_generator_set_state(g, &late));
      BAD(GPUX_ERROR_SIZE_OVERFLOW, gpux_random_uniform(f, g, 0.0, 1.0));
      GT_OK(gpux_generator_get_state(&now, g));
      GT_ASSERT(now.seed == late.seed && now.stream == late.stream && now.position == late.position,
                "%s: the generator moved to %" PRIu64 " after a failed draw", g_desc, now.position);
      break;
    }
    case 28: {
      gpux_context_t c = NULL;
      BAD_ANY(gpux_context_set_option(gt_ctx, (gpux_context_option)99, 1));
      BAD_ANY(gpux_context_create(&c, (gpux_backend_kind)42, 0));
      gpux_context_release(c);
      BAD(GPUX_ERROR_NULL_POINTER, gpux_context_synchronize(NULL));
      GT_ASSERT(gpux_dtype_name((gpux_dtype)99) == NULL && gpux_dtype_size((gpux_dtype)-1) == 0,
                "%s: names of unknown dtypes", g_desc);
      GT_ASSERT(gpux_status_string((gpux_status)12345) != NULL && gpux_status_name((gpux_status)-1) != NULL,
                "%s: texts of unknown statuses", g_desc);
#if FUZZ_EXPECT_ISSUE21_FIXES
      {
        const char *bn = gpux_backend_name((gpux_backend_kind)(chance(50) ? 99 : -1));
        GT_ASSERT(bn && !strcmp(bn, "unknown"), "%s: gpux_backend_name of an unknown value: %s", g_desc,
                  bn ? bn : "NULL");
      }
#endif
      break;
    }
    case 29: {
      int64_t shp[GPUX_MAX_DIMS];
      int nd0 = 0, c = 0;
      gpux_dtype d0;
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_shape(NULL, x));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_shape(shp, NULL));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_ndim(&nd0, NULL));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_dtype(&d0, NULL));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_is_contiguous(&c, NULL));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_strides(NULL, x));
      break;
    }
    case 30: {
      void *p = NULL;
      size_t nb = 0;
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_download(&p, NULL, x));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_array_download(&p, &nb, NULL));
      GT_ASSERT(p == NULL, "%s: download left a buffer after an error", g_desc);
      BAD(GPUX_ERROR_NULL_POINTER, gpux_event_record(NULL));
      break;
    }
    case 31: { /* matrix products of 0-d and 1-d operands where 2-d ones are needed */
      gpux_array_t z = NULL, v = NULL;
      int64_t n3 = 3;
      GT_OK(gpux_array_full(&z, gt_ctx, GPUX_FLOAT32, 0, NULL, 2.0));
      GT_OK(gpux_array_full(&v, gt_ctx, GPUX_FLOAT32, 1, &n3, 2.0));
      track(z);
      track(v);
      BAD_OUT(GPUX_ERROR_SHAPE_MISMATCH, o, gpux_matmul(&o, z, v));
      BAD(GPUX_ERROR_INVALID_SHAPE, gpux_gemm(v, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, v, v, 0.0));
      BAD(GPUX_ERROR_INVALID_SHAPE, gpux_gemv(v, GPUX_NO_TRANS, 1.0, v, v, 0.0));
      BAD_ANY(gpux_dot(&o, z, v));
      track(o);
      break;
    }
    case 32: { /* events: elapsed time needs two recorded events of one context */
      gpux_event_t e0 = NULL, e1 = NULL;
      double ms = -1;
      GT_OK(gpux_event_create(&e0, gt_ctx));
      g_events[g_nevents++] = e0;
      GT_OK(gpux_event_create(&e1, gt_ctx));
      g_events[g_nevents++] = e1;
      BAD(GPUX_ERROR_INVALID_ARGUMENT, gpux_event_elapsed_ms(&ms, e0, e1));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_event_elapsed_ms(NULL, e0, e1));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_event_create(NULL, gt_ctx));
      GT_OK(gpux_event_record(e0));
      GT_OK(gpux_event_record(e1));
      GT_OK(gpux_event_elapsed_ms(&ms, e0, e1));
      GT_ASSERT(ms >= 0, "%s: elapsed %g ms", g_desc, ms);
      break;
    }
    case 33: { /* devices, programs and kernels */
      gpux_device_info info;
      int cnt = -1;
      gpux_program_t prog = NULL;
      gpux_kernel_t kern = NULL;
      BAD(GPUX_ERROR_INVALID_DEVICE, gpux_device_get_info(&info, gt_info.backend, chance(50) ? -1 : 1000));
      BAD_ANY(gpux_device_count(&cnt, (gpux_backend_kind)77));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_device_count(NULL, gt_info.backend));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_program_create(&prog, gt_ctx, GPUX_SOURCE_DIALECT, NULL, NULL));
      BAD(GPUX_ERROR_NULL_POINTER, gpux_program_create(NULL, gt_ctx, GPUX_SOURCE_DIALECT, "x", NULL));
      BAD_ANY(gpux_program_create(&prog, gt_ctx, (gpux_source_lang)9, "x", NULL));
      GT_ASSERT(prog == NULL, "%s: a program after an error", g_desc);
      BAD(GPUX_ERROR_NULL_POINTER, gpux_kernel_create(&kern, NULL, "k"));
      GT_ASSERT(kern == NULL, "%s: a kernel after an error", g_desc);
      break;
    }
    case 34: { /* the new views: select, squeeze, expand_dims, slice_axis */
      int one = 0, two[2] = {0, 0}, ax9[GPUX_MAX_DIMS] = {0};
      int64_t len = S[nd - 1];
      BAD_OUT(GPUX_ERROR_INDEX_OUT_OF_RANGE, o, gpux_array_select(&o, x, nd - 1, chance(50) ? len : -len - 1));
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_array_select(&o, x, chance(50) ? nd : -nd - 1, 0));
      one = (int)rnd(0, nd - 1); /* every axis has length >= 3 */
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_array_squeeze(&o, x, 1, &one));
      two[0] = two[1] = 0;
      BAD_ANY(gpux_array_squeeze(&o, x, 2, two));
      track(o);
      for (int d = 0; d < GPUX_MAX_DIMS; d++) ax9[d] = d;
      BAD_ANY(gpux_array_expand_dims(&o, x, GPUX_MAX_DIMS - nd + 1, ax9)); /* past 8 axes */
      track(o);
      one = nd + 1 + (int)rnd(0, 3);
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_array_expand_dims(&o, x, 1, &one));
      BAD_OUT(GPUX_ERROR_INVALID_ARGUMENT, o, gpux_array_slice_axis(&o, x, 0, 0, 1, 0));
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_array_slice_axis(&o, x, chance(50) ? nd : -nd - 1, 0, 1, 1));
      gpux_array_t z = NULL;
      GT_OK(gpux_array_full(&z, gt_ctx, dt, 0, NULL, 1.0));
      track(z);
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_array_select(&o, z, 0, 0));
      BAD_OUT(GPUX_ERROR_INVALID_AXIS, o, gpux_array_slice_axis(&o, z, 0, 0, 1, 1));
      break;
    }
    default: { /* unsupported dtypes */
      gpux_array_t i = track(gt_poisoned(GPUX_INT32, nd, S)), h = track(gt_poisoned(GPUX_FLOAT16, nd, S));
      gpux_array_t b = track(gt_poisoned(GPUX_BOOL, nd, S));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_unary(&o, GPUX_EXP, i));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_binary(&o, GPUX_BITWISE_AND, h, h));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_reduce(&o, GPUX_REDUCE_SUM, b, NULL, GPUX_ALL_AXES, 0));
      /* (scans over bool are supported since issue 24: int64 results, test_scan) */
      /* complex: casts, copies, views, fill, the elementwise ops of test_complex_ew.c and
       * the reductions, scans and normals of tests/test_complex_reduce.c; the rest rejects
       * it */
      const gpux_dtype cd = chance(50) || !gt_dtype_available(GPUX_COMPLEX128) ? GPUX_COMPLEX64
                                                                           : GPUX_COMPLEX128;
      gpux_array_t c = track(gt_poisoned(cd, nd, S));
      gpux_binary_op bop = (gpux_binary_op)rnd(0, GPUX_BINARY_OP_COUNT - 1);
      gpux_unary_op uop = (gpux_unary_op)rnd(0, GPUX_UNARY_OP_COUNT - 1);
      while (ref_binary_supported(bop, cd)) bop = (gpux_binary_op)rnd(0, GPUX_BINARY_OP_COUNT - 1);
      while (ref_unary_supported(uop, cd)) uop = (gpux_unary_op)rnd(0, GPUX_UNARY_OP_COUNT - 1);
      static const gpux_reduce_op no_cplx[] = {GPUX_REDUCE_MIN, GPUX_REDUCE_MAX,
                                               GPUX_REDUCE_ARGMIN, GPUX_REDUCE_ARGMAX,
                                               GPUX_REDUCE_NORM_L1, GPUX_REDUCE_NORM_L2,
                                               GPUX_REDUCE_NORM_MAX};
      static const gpux_reduce_op cplx_ok[] = {GPUX_REDUCE_SUM, GPUX_REDUCE_PROD, GPUX_REDUCE_MEAN,
                                               GPUX_REDUCE_ANY, GPUX_REDUCE_ALL,
                                               GPUX_REDUCE_COUNT_NONZERO, GPUX_REDUCE_VAR,
                                               GPUX_REDUCE_STD};
      const gpux_reduce_op rop = no_cplx[rnd(0, 6)], rok = cplx_ok[rnd(0, 7)];
      desc_add(" complex %s %s %s:", gpux_binary_op_name(bop), gpux_unary_op_name(uop),
               gpux_reduce_op_name(rop));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_binary(&o, bop, c, c));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_binary_scalar(&o, bop, c, 2.0));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_unary(&o, uop, c));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_reduce(&o, rop, c, NULL, GPUX_ALL_AXES, 0));
      { /* the reductions and scans complex has run (their values: test_complex_reduce) */
        gpux_array_t r = NULL;
        const gpux_scan_op sop = chance(50) ? GPUX_SCAN_SUM : GPUX_SCAN_PROD;
        desc_add(" %s, %s:", gpux_reduce_op_name(rok), sop == GPUX_SCAN_SUM ? "cumsum" : "cumprod");
        gt_check_ok(gpux_reduce(&r, rok, c, NULL, GPUX_ALL_AXES, 0), "gpux_reduce(complex)",
                    __FILE__, __LINE__);
        gpux_array_release(r);
        r = NULL;
        const int snd = nd ? nd : 1; /* a 0-d array scans as one element */
        gt_check_ok(gpux_scan(&r, sop, c, (int)rnd(-snd, snd - 1), chance(50)),
                    "gpux_scan(complex)", __FILE__, __LINE__);
        gpux_array_release(r);
      }
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_array_arange(&o, gt_ctx, cd, 0.0, 3.0, 1.0));
      BAD_OUT(GPUX_ERROR_UNSUPPORTED_DTYPE, o, gpux_array_linspace(&o, gt_ctx, cd, 0.0, 1.0, 3));
      BAD_OUT(GPUX_ERROR_INVALID_ARGUMENT, o, gpux_array_full_complex(&o, gt_ctx, dt, nd, S, 1.0, 1.0));
      break;
    }
  }
  gpux_clear_error();
  gt_smoke(gt_ctx); /* the context is still usable */
}

/* ------------------------------------------------------------------ cases */

/* Cases run on the default stream or on one of two others, switching now and then: the
 * next case's stream waits for an event of the last one's (as a program that hands work
 * from stream to stream must), and arrays are released on whichever stream is current, so
 * the pool's per-stream blocks and pending releases get random traffic. */
static gpux_stream_t g_streams[2];
static gpux_event_t g_switch_ev;
static int g_on; /* 0: the default stream; k: g_streams[k - 1] */

static void pick_stream(void) {
  if (!g_streams[0] || !chance(40)) return;
  const int to = (int)rnd(0, 2);
  desc_add("[stream %d] ", to);
  if (to == g_on) return;
  GT_OK(gpux_event_record(g_switch_ev)); /* on the stream being left */
  GT_OK(gpux_stream_set_current(gt_ctx, to ? g_streams[to - 1] : NULL));
  gpux_stream_t cur = NULL;
  GT_OK(gpux_stream_get_current(&cur, gt_ctx));
  GT_OK(gpux_stream_wait_event(cur, g_switch_ev));
  g_on = to;
}

/* ------------------------------------------------------------------ assembly */

/* One assembly op on a random operand (a view), into a new, _into or strided output, against
 * tests/ref/ref_assemble.c bit for bit. */
static void act_assemble(void) {
  const gpux_dtype dt = rand_cast_dtype();
  const size_t es = ref_dtype_size(dt);
  int nd;
  int64_t S[GPUX_MAX_DIMS], O[GPUX_MAX_DIMS];
  rand_shape(&nd, S, 2000);
  const int kind = (int)rnd(0, 7), mode = rand_out_mode(0);
  int ond = nd;
  memcpy(O, S, sizeof S);
  fz_arr a, b;
  fz_out o;
  memset(&o, 0, sizeof o);
  o.mode = mode;
  void *want = NULL;
  gpux_status st = GPUX_SUCCESS;
#define FZ_OUT_SHAPE() \
  do { if (mode != OUT_NEW) out_make(&o, mode, dt, ond, O); } while (0)
#define FZ_CALL(newcall, intocall) \
  st = mode == OUT_NEW ? (newcall) : (intocall); \
  if (mode == OUT_NEW && o.h) track(o.h)
  switch (kind) {
    case 0: { /* concatenate two arrays along a random axis (0-d: flattened) */
      const int axis = nd ? (int)rnd(-nd, nd - 1) : GPUX_ALL_AXES, d = nd ? (axis + nd) % nd : -1;
      int64_t S2[GPUX_MAX_DIMS];
      memcpy(S2, S, sizeof S);
      if (d >= 0) S2[d] = rnd(0, 4);
      desc_add("concatenate axis %d:", axis);
      operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
      operand(&b, "b", dt, nd, S2, GT_DOM_ANY, 1);
      const void *hp[2] = {a.host, b.host};
      const int64_t *sp[2] = {S, S2};
      if (d < 0) { ond = 1; O[0] = a.n + b.n; } else O[d] = S[d] + S2[d];
      want = fz_alloc((size_t)ref_shape_size(ond, O) * es);
      ref_asm_concat(es, 2, hp, nd, sp, d, want);
      gpux_array_t ab[2] = {a.h, b.h};
      FZ_OUT_SHAPE();
      FZ_CALL(gpux_concatenate(&o.h, 2, ab, axis), gpux_concatenate_into(o.h, 2, ab, axis));
      break;
    }
    case 1: { /* tile with up to 3 reps of 0..2 */
      const int nreps = (int)rnd(0, 3);
      int64_t reps[3];
      for (int k = 0; k < nreps; k++) reps[k] = rnd(0, 2);
      desc_add("tile %d reps:", nreps);
      operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
      ond = nd > nreps ? nd : nreps;
      for (int k = 0; k < ond; k++) {
        int ia = k - (ond - nd), ir = k - (ond - nreps);
        O[k] = (ia >= 0 ? S[ia] : 1) * (ir >= 0 ? reps[ir] : 1);
      }
      want = fz_alloc((size_t)ref_shape_size(ond, O) * es);
      ref_asm_tile(es, nd, S, a.host, nreps, reps, want);
      FZ_OUT_SHAPE();
      FZ_CALL(gpux_tile(&o.h, a.h, nreps, reps), gpux_tile_into(o.h, a.h, nreps, reps));
      break;
    }
    case 2: { /* repeat: a scalar count or one per element, along an axis or flattened */
      const int flat = nd == 0 || chance(25), axis = flat ? GPUX_ALL_AXES : (int)rnd(0, nd - 1);
      operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
      int64_t R[GPUX_MAX_DIMS];
      int rn = flat ? 1 : nd, d = flat ? 0 : axis;
      if (flat) R[0] = a.n; else memcpy(R, S, sizeof S);
      const int scalar = chance(40);
      int64_t *cnt = fz_alloc((size_t)(R[d] ? R[d] : 1) * sizeof *cnt), c0 = rnd(0, 3);
      for (int64_t i = 0; i < R[d]; i++) cnt[i] = scalar ? c0 : rnd(0, 3);
      desc_add(" repeat axis %d %s", axis, scalar ? "scalar" : "counts");
      ond = rn;
      memcpy(O, R, sizeof R);
      O[d] = 0;
      for (int64_t i = 0; i < R[d]; i++) O[d] += cnt[i];
      want = fz_alloc((size_t)ref_shape_size(ond, O) * es);
      ref_asm_repeat(es, rn, R, a.host, cnt, d, want);
      FZ_OUT_SHAPE();
      if (scalar) {
        FZ_CALL(gpux_repeat(&o.h, a.h, c0, axis), gpux_repeat_into(o.h, a.h, c0, axis));
      } else {
        FZ_CALL(gpux_repeat_counts(&o.h, a.h, R[d], cnt, axis),
                gpux_repeat_counts_into(o.h, a.h, R[d], cnt, axis));
      }
      break;
    }
    case 3: { /* roll along random axes (repeats allowed) or flattened */
      int naxes = nd && chance(75) ? (int)rnd(0, nd + 1) : GPUX_ALL_AXES, axes[GPUX_MAX_DIMS + 1];
      int64_t shifts[GPUX_MAX_DIMS + 1], per[GPUX_MAX_DIMS] = {0};
      operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
      want = fz_alloc((size_t)(a.n ? a.n : 1) * es);
      if (naxes == GPUX_ALL_AXES) {
        shifts[0] = rnd(-30, 30);
        const int64_t fsh[1] = {a.n};
        ref_asm_roll(es, 1, fsh, a.host, shifts, want);
      } else {
        for (int k = 0; k < naxes; k++) {
          axes[k] = (int)rnd(-nd, nd - 1);
          shifts[k] = rnd(-30, 30);
          int d = (axes[k] + nd) % nd;
          per[d] += S[d] ? shifts[k] % S[d] : 0;
        }
        ref_asm_roll(es, nd, S, a.host, per, want);
      }
      desc_add(" roll naxes %d", naxes);
      FZ_OUT_SHAPE();
      FZ_CALL(gpux_roll(&o.h, a.h, naxes, shifts, axes), gpux_roll_into(o.h, a.h, naxes, shifts, axes));
      break;
    }
    case 4: { /* pad: constant (a value every dtype holds) or edge */
      int64_t w[2 * GPUX_MAX_DIMS];
      const int edge = chance(50);
      int bad = 0;
      for (int d = 0; d < nd; d++) {
        w[2 * d] = rnd(0, 2);
        w[2 * d + 1] = rnd(0, 2);
        O[d] = S[d] + w[2 * d] + w[2 * d + 1];
        bad |= edge && S[d] == 0 && (w[2 * d] || w[2 * d + 1]);
      }
      desc_add("pad %s:", edge ? "edge" : "constant");
      operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
      if (bad) { /* an empty axis cannot be padded by its edge */
        gpux_array_t out = NULL;
        expect_fail(GPUX_ERROR_INVALID_ARGUMENT, gpux_pad(&out, a.h, w, GPUX_PAD_EDGE, 0), out,
                    g_desc);
        return;
      }
      unsigned char one[16];
      gpux_array_t v1 = NULL;
      GT_OK(gpux_array_ones(&v1, gt_ctx, dt, 0, NULL));
      GT_OK(gpux_array_read(v1, one, es));
      gpux_array_release(v1);
      want = fz_alloc((size_t)ref_shape_size(ond, O) * es);
      ref_asm_pad(es, nd, S, a.host, w, edge, one, want);
      FZ_OUT_SHAPE();
      const gpux_pad_mode m = edge ? GPUX_PAD_EDGE : GPUX_PAD_CONSTANT;
      FZ_CALL(gpux_pad(&o.h, a.h, w, m, 1.0), gpux_pad_into(o.h, a.h, w, m, 1.0));
      break;
    }
    case 5: { /* triu / tril */
      if (nd == 0) { nd = ond = 1; S[0] = O[0] = rnd(0, 5); }
      const int64_t k = rnd(-6, 6);
      const int up = chance(50);
      desc_add("%s k %" PRId64 ":", up ? "triu" : "tril", k);
      operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
      if (nd == 1) { ond = 2; O[1] = S[0]; }
      want = fz_alloc((size_t)(ref_shape_size(ond, O) ? ref_shape_size(ond, O) : 1) * es);
      ref_asm_tri(es, nd, S, a.host, k, up, want);
      FZ_OUT_SHAPE();
      FZ_CALL(up ? gpux_triu(&o.h, a.h, k) : gpux_tril(&o.h, a.h, k),
              up ? gpux_triu_into(o.h, a.h, k) : gpux_tril_into(o.h, a.h, k));
      break;
    }
    default: { /* views: flip or diagonal, read as they are */
      o.mode = OUT_NEW;
      operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
      if (kind == 6 || nd < 2) {
        int which[GPUX_MAX_DIMS] = {0}, axes[GPUX_MAX_DIMS], naxes = 0;
        for (int d = 0; d < nd; d++)
          if (chance(50)) {
            which[d] = 1;
            axes[naxes++] = d - (chance(50) ? nd : 0);
          }
        desc_add(" flip %d axes", naxes);
        want = fz_alloc((size_t)(a.n ? a.n : 1) * es);
        ref_asm_flip(es, nd, S, a.host, which, want);
        st = gpux_flip(&o.h, a.h, naxes, axes);
      } else {
        const int a1 = (int)rnd(0, nd - 1), a2 = (a1 + (int)rnd(1, nd - 1)) % nd;
        const int64_t off = rnd(-4, 4);
        int64_t len = 0;
        want = fz_alloc((size_t)(a.n ? a.n : 1) * es);
        ref_asm_diagonal(es, nd, S, a.host, off, a1, a2, &len, want);
        ond = 0;
        for (int d = 0; d < nd; d++)
          if (d != a1 && d != a2) O[ond++] = S[d];
        O[ond++] = len;
        desc_add(" diagonal %" PRId64 " axes %d %d", off, a1, a2);
        st = gpux_diagonal(&o.h, a.h, off, a1, a2);
      }
      if (o.h) track(o.h);
      break;
    }
  }
#undef FZ_OUT_SHAPE
#undef FZ_CALL
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  gt_compare_bits(g_desc, dt, out_read(&o, dt, ond, O), want, ref_shape_size(ond, O));
}

/* Gather and masks on random views: take (flattened or along an axis, wrap / clip with
 * indices anywhere in [-2n, 2n), checked with indices in [-n, n)), put on a contiguous copy
 * (repeats: the last write wins), compress by a random mask; bits against tests/ref. */
static void act_index(void) {
  const gpux_dtype dt = rand_cast_dtype();
  const size_t es = ref_dtype_size(dt);
  int nd;
  int64_t S[GPUX_MAX_DIMS], O[GPUX_MAX_DIMS];
  rand_shape(&nd, S, 2000);
  fz_arr a;
  operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
  const int kind = (int)rnd(0, 2), mode = (int)rnd(0, 2);
  gpux_status st = GPUX_SUCCESS;
  gpux_array_t out = NULL;
  void *want = NULL;
  int ond = 0;
  if (kind == 0) { /* take */
    const int flat = nd == 0 || chance(40), d = flat ? -1 : (int)rnd(0, nd - 1);
    const int64_t n = flat ? a.n : S[d];
    if (n == 0) return; /* no index fits an empty axis: test_index has that error */
    const int64_t m = rnd(0, 40), span = mode == GPUX_INDEX_CHECKED ? n : 2 * n;
    int64_t *idx = fz_alloc((size_t)(m ? m : 1) * sizeof *idx);
    for (int64_t i = 0; i < m; i++) idx[i] = rnd(-span, span - 1);
    gpux_array_t ih = NULL;
    const int i32 = chance(50);
    if (i32) {
      int32_t *i4 = fz_alloc((size_t)(m ? m : 1) * sizeof *i4);
      for (int64_t i = 0; i < m; i++) i4[i] = (int32_t)idx[i];
      GT_OK(gpux_array_from_host(&ih, gt_ctx, GPUX_INT32, 1, &m, i4));
    } else {
      GT_OK(gpux_array_from_host(&ih, gt_ctx, GPUX_INT64, 1, &m, idx));
    }
    track(ih);
    if (flat) {
      ond = 1;
      O[0] = m;
    } else {
      for (int k = 0; k < nd; k++) O[ond++] = k == d ? m : S[k];
    }
    want = fz_alloc((size_t)(ref_shape_size(ond, O) ? ref_shape_size(ond, O) : 1) * es);
    ref_take(want, a.host, es, nd, S, idx, m, d, mode);
    desc_add(" take axis %d mode %d, %" PRId64 " int%d indices", d, mode, m, i32 ? 32 : 64);
    st = gpux_take(&out, a.h, ih, flat ? GPUX_ALL_AXES : d - (chance(50) ? nd : 0),
                   (gpux_index_mode)mode);
  } else if (kind == 1) { /* put into a contiguous copy of a */
    if (a.n == 0) return;
    const int64_t m = rnd(1, 40);
    int64_t *idx = fz_alloc((size_t)m * sizeof *idx);
    const int64_t span = mode == GPUX_INDEX_CHECKED ? a.n : 2 * a.n;
    for (int64_t i = 0; i < m; i++) idx[i] = rnd(-span, span - 1) % (chance(50) ? 3 : span);
    const int64_t nv = rnd(1, m);
    void *vals = fz_alloc((size_t)nv * es);
    gt_fill_random(vals, dt, nv, GT_DOM_ANY, (uint64_t)rnd(0, 1 << 30));
    gpux_array_t ih = NULL, vh = NULL;
    GT_OK(gpux_array_from_host(&ih, gt_ctx, GPUX_INT64, 1, &m, idx));
    GT_OK(gpux_array_from_host(&vh, gt_ctx, dt, 1, &nv, vals));
    track(ih);
    track(vh);
    GT_OK(gpux_array_copy(&out, a.h));
    ond = nd;
    memcpy(O, S, sizeof S);
    want = fz_alloc((size_t)a.n * es);
    memcpy(want, a.host, (size_t)a.n * es);
    ref_put(want, es, a.n, idx, m, vals, nv, mode);
    desc_add(" put mode %d, %" PRId64 " indices, %" PRId64 " values", mode, m, nv);
    st = gpux_put(out, ih, vh, (gpux_index_mode)mode);
  } else { /* compress by a random mask of a's shape */
    uint8_t *mask = fz_alloc((size_t)(a.n ? a.n : 1));
    const int64_t pct = rnd(0, 100);
    for (int64_t i = 0; i < a.n; i++) mask[i] = (uint8_t)(rnd(0, 99) < pct);
    gpux_array_t mh = NULL;
    GT_OK(gpux_array_from_host(&mh, gt_ctx, GPUX_BOOL, nd, S, mask));
    track(mh);
    want = fz_alloc((size_t)(a.n ? a.n : 1) * es);
    ond = 1;
    O[0] = ref_mask_compress(es, a.n, a.host, mask, want);
    desc_add(" compress %" PRId64 "%% true", pct);
    st = gpux_compress(&out, a.h, mh);
  }
  if (out) track(out);
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  if (st != GPUX_SUCCESS) return;
  const int64_t n = ref_shape_size(ond, O);
  void *got = fz_alloc((size_t)(n ? n : 1) * es);
  if (n) GT_OK(gpux_array_read(out, got, (size_t)n * es));
  gt_compare_bits(g_desc, dt, got, want, n);
}

/* sort / argsort along a random axis, ascending or descending, of any view, any dtype
 * (complex: lexicographic) */
static void act_sort(void) {
  const gpux_dtype dt = rand_cast_dtype();
  int nd;
  int64_t S[GPUX_MAX_DIMS];
  rand_shape(&nd, S, 3000);
  fz_arr a;
  operand(&a, "a", dt, nd, S, GT_DOM_ANY, 1);
  const int axis = nd ? (int)rnd(-nd, nd - 1) : (int)rnd(-1, 0), desc = chance(50),
            arg = chance(50);
  const unsigned fl = desc ? GPUX_SORT_DESCENDING : 0u;
  desc_add(" %s axis %d%s", arg ? "argsort" : "sort", axis, desc ? " descending" : "");
  gpux_array_t out = NULL;
  const gpux_status st = arg ? gpux_argsort(&out, a.h, axis, fl) : gpux_sort(&out, a.h, axis, fl);
  if (out) track(out);
  if (!ref_sort_dtype(dt)) {
    gt_check_status(GPUX_ERROR_UNSUPPORTED_DTYPE, st, g_desc, __FILE__, __LINE__);
    return;
  }
  gt_check_ok_clean(st, g_desc, __FILE__, __LINE__);
  if (st != GPUX_SUCCESS) return;
  const size_t es = arg ? 8 : ref_dtype_size(dt);
  void *want = fz_alloc((size_t)(a.n ? a.n : 1) * es), *got = fz_alloc((size_t)(a.n ? a.n : 1) * es);
  ref_sort_along(dt, nd, S, axis, a.host, desc, arg ? NULL : want, arg ? want : NULL);
  if (a.n) GT_OK(gpux_array_read(out, got, (size_t)a.n * es));
  gt_compare_bits(g_desc, arg ? GPUX_INT64 : dt, got, want, a.n);
}

static void run_case(uint64_t seed) {
  gt_rng_seed(&R, seed);
  g_desc[0] = 0;
  gpux_clear_error(); /* a call that succeeds leaves no message: gt_check_ok_clean */
  pick_stream();
  int total = 0;
  for (int i = 0; i < A_COUNT; i++) total += k_weight[i];
  int64_t w = rnd(0, total - 1);
  int act = 0;
  while (w >= k_weight[act]) w -= k_weight[act++];
  g_case_action = act;
  switch (act) {
    /* complex64 / complex128 now and then: act_cx_* */
    case A_BINARY: chance(10) ? act_cx_binary() : act_binary(); break;
    case A_PROMOTE: act_promote(); break;
    case A_SCALAR: act_scalar(); break;
    case A_UNARY: chance(12) ? act_cx_unary() : act_unary(); break;
    case A_WHERE: act_where(); break;
    case A_CAST: act_cast(); break;
    case A_COPY: act_copy(); break;
    case A_REDUCE: chance(12) ? act_cx_reduce() : act_reduce(); break;
    case A_SCAN: chance(12) ? act_cx_scan() : act_scan(); break;
    case A_MATMUL: act_matmul(); break;
    case A_GEMM: act_gemm(); break;
    case A_CREATE: act_create(); break;
    case A_RANDOM: act_random(); break;
    case A_EXPR: act_expr(); break;
    case A_KERNEL: act_kernel(); break;
    case A_ASSEMBLE: act_assemble(); break;
    case A_INDEX: act_index(); break;
    case A_SORT: act_sort(); break;
    case A_SELECT: act_select(); break;
    default: act_bad(); break;
  }
}

static uint64_t case_seed(int64_t i) { return mix64(g_seed ^ mix64((uint64_t)i)); }

static int budget_left(void) {
  if (g_replay) return g_iters == 0;
  if (g_max_iters > 0 && g_iters >= g_max_iters) return 0;
  return now_s() - g_t0 < g_seconds;
}

/* The loop runs inside one cmocka test; a failing check leaves it (longjmp) and main
 * reports the case and starts the loop again with the next case. */
static void fuzz_loop(void **state) {
  (void)state;
  while (budget_left()) {
    g_case_seed = g_replay ? g_seed : case_seed(g_iters);
    g_case_action = -1;
    run_case(g_case_seed);
    if (g_verbose) printf("case 0x%016" PRIx64 ": %s\n", g_case_seed, g_desc);
    /* released while the queued work may still run, or after it; the pool trimmed now and
     * then with arrays alive */
    if (chance(50)) GT_OK(gpux_context_synchronize(gt_ctx));
    if (chance(3)) GT_OK(gpux_pool_trim(gt_ctx));
    release_case(g_case_seed);
    g_per_action[g_case_action]++;
    g_iters++;
  }
}

static uint64_t env_u64(const char *name, uint64_t dflt, int *set) {
  const char *v = getenv(name);
  if (set) *set = v && *v;
  return v && *v ? strtoull(v, NULL, 0) : dflt;
}

int main(int argc, char **argv) {
  (void)argc;
  const char *sec = getenv("GPUX_FUZZ_SECONDS");
  if (sec && *sec) g_seconds = strtod(sec, NULL);
  g_max_iters = (int64_t)env_u64("GPUX_FUZZ_ITERS", 0, NULL);
  int seed_set = 0;
  g_seed = env_u64("GPUX_FUZZ_SEED", 0, &seed_set);
  if (!seed_set) g_seed = mix64((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
  uint64_t one = env_u64("GPUX_FUZZ_CASE", 0, &g_replay);
  g_verbose = (int)env_u64("GPUX_FUZZ_VERBOSE", 0, NULL);
  if (g_replay) g_seed = one;
  gt_init("fuzz_api");
  gpux_backend_kind bk = gt_info.backend;
  g_is_opencl = bk == GPUX_BACKEND_OPENCL;
  if (gpux_context_create(&g_ctx2, bk, gt_info.index) != GPUX_SUCCESS) {
    fprintf(stderr, "fuzz_api: a second context: %s\n", gpux_last_error_message());
    return 1;
  }
  if (gpux_stream_create(&g_streams[0], gt_ctx) == GPUX_SUCCESS &&
      gpux_stream_create(&g_streams[1], gt_ctx) == GPUX_SUCCESS &&
      gpux_event_create_with_flags(&g_switch_ev, gt_ctx, GPUX_EVENT_DISABLE_TIMING) ==
          GPUX_SUCCESS) {
  } else { /* a backend without streams: the default one only */
    gpux_stream_release(g_streams[0]);
    gpux_stream_release(g_streams[1]);
    g_streams[0] = g_streams[1] = NULL;
    gpux_clear_error();
  }
  printf("fuzz_api: %s 0x%016" PRIx64 ", budget %g s%s, issue-21 fixes expected: %d\n",
         g_replay ? "replaying case" : "seed", g_seed, g_seconds,
         g_max_iters ? " (or the iteration limit)" : "", FUZZ_EXPECT_ISSUE21_FIXES);
  printf("fuzz_api: rerun with GPUX_FUZZ_SEED=0x%016" PRIx64 "\n", g_seed);
  fflush(stdout);
  g_t0 = now_s();
  const struct CMUnitTest tests[] = {cmocka_unit_test(fuzz_loop)};
  while (budget_left()) {
    if (gt_run("fuzz_api", tests, 1) == 0) continue;
    /* a failing case: report it, release what it made, go on with the next */
    g_failed++;
    const char *pocl = getenv("POCL_CACHE_DIR");
    printf("fuzz_api: case %" PRId64 " (%s) FAILED: %s\n"
           "fuzz_api: replay: GPUX_FUZZ_CASE=0x%016" PRIx64 " GPUX_BACKEND=%s%s%s %s\n",
           g_iters, g_case_action >= 0 ? k_action[g_case_action] : "?", g_desc, g_case_seed,
           gpux_backend_name(bk), pocl ? " POCL_CACHE_DIR=" : "", pocl ? pocl : "", argv[0]);
    fflush(stdout);
    gpux_clear_error();
    gpux_context_synchronize(gt_ctx);
    release_case(g_case_seed);
    if (g_case_action >= 0) g_per_action[g_case_action]++;
    g_iters++;
  }
  double t = now_s() - g_t0;
  printf("fuzz_api: %" PRId64 " cases in %.1f s (%.1f a second), %" PRId64 " failed; seed 0x%016" PRIx64 "\n",
         g_iters, t, t > 0 ? (double)g_iters / t : 0.0, g_failed, g_seed);
  for (int i = 0; i < A_COUNT; i++) printf("  %-9s %" PRId64 "\n", k_action[i], g_per_action[i]);
  (void)gpux_stream_set_current(gt_ctx, NULL);
  gpux_event_release(g_switch_ev);
  gpux_stream_release(g_streams[0]);
  gpux_stream_release(g_streams[1]);
  gpux_context_release(g_ctx2);
  gt_shutdown();
  return g_failed ? 1 : 0;
}
