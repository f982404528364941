/* gpux tests: elementwise kernels from expressions (gpux_elementwise_*, include/gpux/kernel.h)
 * against the CPU reference (double precision; integers exact) and against the same chains
 * of built-in ops (bit for bit).
 *
 * Cases: saxpy on float32/float64/int32/int64 at sizes 0, 1, 1001 and 2^22 + 3; leaky relu
 * with a fixed-type float32 scalar; broadcasting ((3,1,5) with (4,5) into (3,4,5), 0-d
 * arrays, scalars); strided, offset and reversed views as inputs and outputs (the array API
 * has no transposed view: transpose and permute copy; views with steps of different signs
 * per dimension stand in); fixed-type params with mixed dtypes and placeholders bound by a
 * scalar or an output; uint8 and bool; two outputs; in place (one output, and two outputs
 * on swapped inputs); a preamble; fusion of built-in ops (relu(a*x+b),
 * sigmoid(x)*minimum(x,w), integer div/mod, every function of the ops prelude) equal bit for
 * bit to the chain of public ops; one object called with several dtype combinations;
 * gpux_elementwise_source; errors (bad parameter lists, NULL, nargs, shapes, dtypes, float16,
 * overlap, compile errors with the log, two contexts), each followed by a check that the
 * context still works and the failed call wrote nothing.
 *
 * Tolerances, per dtype (want = the exact value, computed in double or int64 on the host):
 *   int32, int64, uint8, bool: exact. Plain C operators get operands that cannot overflow
 *     (signed overflow is undefined in C, CUDA C++ and OpenCL C); wrap-around is tested
 *     through gpux_add / gpux_mul / gpux_sub, whose wrap is defined like the built-in ops'.
 *   float32, float64, one correctly rounded operation (x - y, alpha * x, x * k, a conversion):
 *     exact (IEEE +, -, * are correctly rounded on both backends; the inputs keep results
 *     away from subnormals).
 *   float32 saxpy a * x + y (two roundings): |got - want| <= 2.5 u (|a x| + |y|) + FLT_MIN,
 *     u = 2^-24. float64: 4.5 u (|a x| + |y|) + DBL_MIN, u = 2^-53 (the double reference
 *     rounds twice too). Besides, every float result must equal bit for bit the host's
 *     uncontracted evaluation fl(fl(a x) + y): the documented "no FMA contraction".
 *   fused expressions against the chain of built-in ops: bit for bit (any NaN matches any
 *     NaN). Each such float test also checks on the host that an FMA would have changed
 *     some results, so that a contracted kernel cannot pass. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

typedef struct dt_case {
  gpux_dtype dt;
} dt_case;

static const dt_case k_f32 = {GPUX_FLOAT32}, k_f64 = {GPUX_FLOAT64}, k_i32 = {GPUX_INT32},
                     k_i64 = {GPUX_INT64}, k_u8 = {GPUX_UINT8}, k_i8 = {GPUX_INT8},
                     k_i16 = {GPUX_INT16}, k_u16 = {GPUX_UINT16}, k_u32 = {GPUX_UINT32},
                     k_u64 = {GPUX_UINT64};

/* ------------------------------------------------------------------ helpers */

static void need_dtype(gpux_dtype dt) {
  if (!gt_dtype_available(dt)) {
    print_message("%s not supported by this device\n", gt_dtype_str(dt));
    skip();
  }
}

/* The dtype of a case (its state); skips the case when the device lacks it. */
static gpux_dtype case_dtype(void **state) {
  const dt_case *c = *state;
  need_dtype(c->dt);
  return c->dt;
}

static int is_float(gpux_dtype dt) { return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64; }

static gpux_array_t up(gpux_dtype dt, int nd, const int64_t *sh, const void *data) {
  gpux_array_t a = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, nd, sh, data));
  return a;
}

static void *rnd(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed) {
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt));
  gt_fill_random(p, dt, n, dom, seed);
  return p;
}

/* integers uniform in [lo, hi] (any integer dtype) */
static void *rnd_int(gpux_dtype dt, int64_t n, int64_t lo, int64_t hi, uint64_t seed) {
  void *p = gt_malloc((size_t)n * ref_dtype_size(dt));
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) {
    ref_value v;
    v.i = gt_rng_int(&r, lo, hi);
    ref_store(dt, p, i, v);
  }
  return p;
}

/* Every pair of special values of dt, then `extra` random values of dom: *pa and *pb hold
 * *pn elements. */
static void pairs_fill(gpux_dtype dt, int64_t extra, gt_domain dom, uint64_t seed, void **pa,
                       void **pb, int64_t *pn) {
  size_t es = ref_dtype_size(dt);
  char sv[32 * 8];
  int64_t ns = gt_special_values(sv, dt, 32), n = ns * ns + extra;
  char *a = gt_malloc((size_t)n * es), *b = gt_malloc((size_t)n * es);
  for (int64_t i = 0; i < ns; i++)
    for (int64_t j = 0; j < ns; j++) {
      memcpy(a + (size_t)(i * ns + j) * es, sv + (size_t)i * es, es);
      memcpy(b + (size_t)(i * ns + j) * es, sv + (size_t)j * es, es);
    }
  gt_fill_random(a + (size_t)(ns * ns) * es, dt, extra, dom, seed);
  gt_fill_random(b + (size_t)(ns * ns) * es, dt, extra, dom, seed + 1);
  *pa = a;
  *pb = b;
  *pn = n;
}

static gpux_elementwise_t ew_new(const char *in, const char *out, const char *body,
                                 const char *name, const char *preamble) {
  gpux_elementwise_t ew = NULL;
  GT_OK(gpux_elementwise_create(&ew, gt_ctx, in, out, body, name, preamble));
  GT_ASSERT(ew != NULL, "gpux_elementwise_create(\"%s\" -> \"%s\": %s) gave NULL", in, out, body);
  return ew;
}

static gpux_arg AR(gpux_array_t a) { return gpux_arg_array(a); }

/* A scalar argument of dtype dt holding v (v must be a value of dt). */
static gpux_arg scalar_of(gpux_dtype dt, double v) {
  switch (dt) {
    case GPUX_FLOAT32: return gpux_arg_f32((float)v);
    case GPUX_FLOAT64: return gpux_arg_f64(v);
    case GPUX_INT32: return gpux_arg_i32((int32_t)v);
    case GPUX_INT64: return gpux_arg_i64((int64_t)v);
    case GPUX_UINT8: return gpux_arg_u8((uint8_t)v);
    case GPUX_INT8: return gpux_arg_i8((int8_t)v);
    case GPUX_INT16: return gpux_arg_i16((int16_t)v);
    case GPUX_UINT16: return gpux_arg_u16((uint16_t)v);
    case GPUX_UINT32: return gpux_arg_u32((uint32_t)v);
    case GPUX_UINT64: return gpux_arg_u64((uint64_t)v);
    default: return gpux_arg_bool(v != 0);
  }
}

static ref_value *want_new(int64_t n) { return gt_malloc((size_t)n * sizeof(ref_value)); }

/* floats: random values of GT_DOM_ANY; integers: uniform in [-lim, lim] */
static void *rnd_in(gpux_dtype dt, int64_t n, int64_t lim, uint64_t seed) {
  return is_float(dt) ? rnd(dt, n, GT_DOM_ANY, seed) : rnd_int(dt, n, -lim, lim, seed);
}

/* want[i] = a[i] + b[i] (sign > 0) or a[i] - b[i] (sign < 0), a and b n elements of dt:
 * in double for floats, in int64 for integers (the operands must not overflow it) */
static void want_addsub(gpux_dtype dt, int64_t n, const void *a, const void *b, int sign,
                        ref_value *want) {
  for (int64_t i = 0; i < n; i++) {
    if (is_float(dt)) {
      double x = ref_load(dt, a, i).f, y = ref_load(dt, b, i).f;
      want[i].f = sign > 0 ? x + y : x - y;
    } else {
      int64_t x = ref_load(dt, a, i).i, y = ref_load(dt, b, i).i;
      want[i].i = sign > 0 ? x + y : x - y;
    }
  }
}

/* Reads out and compares its n elements (dtype rdt) with want within tol; in_a / in_b (n
 * elements of in_dt, may be NULL) are printed beside mismatches (gt_compare). */
static void expect_out(const char *label, gpux_array_t out, gpux_dtype rdt, const ref_value *want,
                       int64_t n, gt_tol tol, gpux_dtype in_dt, const void *in_a,
                       const void *in_b) {
  void *got = gt_read_all(out, NULL);
  gt_compare(label, rdt, got, want, n, tol, in_dt, in_a, in_b);
  free(got);
}

/* expect_out with the exact tolerance of rdt */
static void expect_exact(const char *label, gpux_array_t out, gpux_dtype rdt,
                         const ref_value *want, int64_t n, gpux_dtype in_dt, const void *in_a,
                         const void *in_b) {
  expect_out(label, out, rdt, want, n, gt_tolerance(rdt, GT_OPC_EXACT), in_dt, in_a, in_b);
}

/* Calls ew on args[0..nargs) (it must succeed; a failure names label), then expect_exact on
 * the output out. */
static void call_expect(gpux_elementwise_t ew, int nargs, const gpux_arg *args, const char *label,
                        gpux_array_t out, gpux_dtype rdt, const ref_value *want, int64_t n,
                        gpux_dtype in_dt, const void *in_a, const void *in_b) {
  char what[320];
  snprintf(what, sizeof what, "gpux_elementwise_call(%s)", label);
  gt_check_ok(gpux_elementwise_call(ew, nargs, args), what, __FILE__, __LINE__);
  expect_exact(label, out, rdt, want, n, in_dt, in_a, in_b);
}

/* Fails when any byte of a is not the poison pattern (a failed or empty call wrote). */
static void check_poisoned(gpux_array_t a, const char *label) {
  int64_t n = 0;
  gpux_dtype dt;
  GT_OK(gpux_array_dtype(&dt, a));
  unsigned char *p = gt_read_all(a, &n);
  size_t bytes = (size_t)n * ref_dtype_size(dt);
  for (size_t i = 0; i < bytes; i++)
    if (p[i] != GT_POISON_BYTE) {
      unsigned v = p[i];
      free(p);
      GT_FAIL("%s: byte %zu of the output was written (0x%02x)", label, i, v);
    }
  free(p);
}

/* Host evaluation of fl(fl(a * x) + y) without contraction (volatile forces the rounding of
 * the product), and whether fma(a, x, y) differs from it. */
static double nofma_axpy(gpux_dtype dt, double a, double x, double y, int *fma_differs) {
  if (dt == GPUX_FLOAT32) {
    volatile float p = (float)a * (float)x;
    float r = p + (float)y;
    *fma_differs = fmaf((float)a, (float)x, (float)y) != r;
    return r;
  }
  volatile double p = a * x;
  double r = p + y;
  *fma_differs = fma(a, x, y) != r;
  return r;
}

/* ------------------------------------------------------------------ saxpy */

static const char *k_saxpy_in = "T x, T y, T a", *k_saxpy_out = "T z", *k_saxpy_body = "z = a * x + y";

static double saxpy_scalar(gpux_dtype dt) {
  switch (dt) {
    case GPUX_FLOAT32: return (double)0.3f; /* inexact in binary: products round */
    case GPUX_FLOAT64: return 0.3;
    case GPUX_INT32: return 1000;           /* |a x + y| < 2^31 for |x|, |y| <= 2^20 */
    default: return (double)((1 << 19) + 3); /* int64: |a x + y| < 2^61 for |x|, |y| <= 2^40 */
  }
}

/* z = a * x + y on n elements of dt through ew ("T x, T y, T a" -> "T z"), checked against the
 * reference (tolerances: header) and, for floats, bit for bit against the uncontracted host
 * evaluation. */
static void saxpy_check(gpux_elementwise_t ew, gpux_dtype dt, int64_t n, uint64_t seed) {
  char label[160];
  snprintf(label, sizeof label, "saxpy %s, n = %" PRId64, gt_dtype_str(dt), n);
  size_t es = ref_dtype_size(dt);
  int64_t sh[1] = {n};
  double av = saxpy_scalar(dt);
  int64_t lim = dt == GPUX_INT32 ? (INT64_C(1) << 20) : (INT64_C(1) << 40); /* integers */
  void *hx = rnd_in(dt, n, lim, seed), *hy = rnd_in(dt, n, lim, seed + 1);
  gpux_array_t x = up(dt, 1, sh, hx), y = up(dt, 1, sh, hy), z = gt_poisoned(dt, 1, sh);
  gpux_arg args[4] = {AR(x), AR(y), scalar_of(dt, av), AR(z)};
  GT_OK(gpux_elementwise_call(ew, 4, args));
  void *got = gt_read_all(z, NULL);
  ref_value *want = want_new(n);
  double *tol = NULL;
  if (is_float(dt)) {
    double u = dt == GPUX_FLOAT32 ? 0x1p-24 : 0x1p-53;
    double k = dt == GPUX_FLOAT32 ? 2.5 : 4.5, tiny = dt == GPUX_FLOAT32 ? FLT_MIN : DBL_MIN;
    tol = gt_malloc((size_t)n * sizeof(double));
    void *exact = gt_malloc((size_t)n * es);
    int64_t differs = 0;
    for (int64_t i = 0; i < n; i++) {
      double xv = ref_load(dt, hx, i).f, yv = ref_load(dt, hy, i).f, p = av * xv;
      want[i].f = p + yv;
      tol[i] = k * u * (fabs(p) + fabs(yv)) + tiny;
      int d;
      ref_value e;
      e.f = nofma_axpy(dt, av, xv, yv, &d);
      ref_store(dt, exact, i, e);
      differs += d;
    }
    gt_compare_tol(label, dt, got, want, tol, n);
    char l2[200];
    snprintf(l2, sizeof l2, "%s (bits of the uncontracted a * x + y)", label);
    gt_compare_bits(l2, dt, got, exact, n);
    if (n >= 1001)
      GT_ASSERT(differs > 0, "%s: test bug: an FMA would change none of the results", label);
    free(exact);
  } else {
    for (int64_t i = 0; i < n; i++)
      want[i].i = (int64_t)av * ref_load(dt, hx, i).i + ref_load(dt, hy, i).i;
    gt_compare_tol(label, dt, got, want, NULL, n);
  }
  GT_FREE(tol, want, got, hx, hy);
  GT_RELEASE(x, y, z);
}

static void test_saxpy(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new(k_saxpy_in, k_saxpy_out, k_saxpy_body, "saxpy", NULL);
  const int64_t sizes[] = {1, 1001, 0, GT_BIG, 1001};
  for (int i = 0; i < 5; i++) saxpy_check(ew, dt, sizes[i], 100u * (uint64_t)dt + (uint64_t)i);
  gpux_elementwise_release(ew);
}

/* The same object with float32, float64, int32, then float32 again: one kernel per dtype
 * combination, each correct; the generated sources differ and contain the body. */
static void test_dtype_combos(void **state) {
  (void)state;
  gpux_elementwise_t ew = ew_new(k_saxpy_in, k_saxpy_out, k_saxpy_body, "saxpy_multi", NULL);
  const gpux_dtype order[] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_INT32, GPUX_INT64, GPUX_FLOAT32,
                              GPUX_INT32};
  for (int i = 0; i < 6; i++) {
    if (!gt_dtype_available(order[i])) continue;
    saxpy_check(ew, order[i], i < 4 ? 1001 : 4099, 7000u + (uint64_t)i);
  }
  /* the sources of two combinations */
  int64_t sh[1] = {5};
  char *src_f32 = NULL;
  for (int k = 0; k < 3; k++) {
    gpux_dtype dt = k == 0 ? GPUX_FLOAT32 : (k == 1 ? GPUX_INT32 : GPUX_FLOAT64);
    if (!gt_dtype_available(dt)) continue;
    gpux_array_t x = NULL, z = NULL;
    GT_OK(gpux_array_zeros(&x, gt_ctx, dt, 1, sh));
    GT_OK(gpux_array_zeros(&z, gt_ctx, dt, 1, sh));
    gpux_arg args[4] = {AR(x), AR(x), scalar_of(dt, 1), AR(z)};
    const char *src = NULL;
    GT_OK(gpux_elementwise_source(&src, ew, 4, args));
    GT_ASSERT(src != NULL && strstr(src, k_saxpy_body) != NULL,
              "gpux_elementwise_source(%s): the body \"%s\" is not in the source:\n%s",
              gt_dtype_str(dt), k_saxpy_body, src ? src : "(null)");
    if (k == 0) {
      src_f32 = gt_malloc(strlen(src) + 1);
      strcpy(src_f32, src);
    } else {
      GT_ASSERT(strcmp(src, src_f32) != 0,
                "gpux_elementwise_source gives the same text for float32 and %s arrays",
                gt_dtype_str(dt));
    }
    GT_RELEASE(x, z);
  }
  free(src_f32);
  gpux_elementwise_release(ew);
}

/* ------------------------------------------------------------------ leaky relu */

static void test_leaky_relu(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new("T x, float32 alpha", "T out", "out = x > 0 ? x : alpha * x",
                                 "leaky_relu", NULL);
  const float alpha = 0.01f;
  const int64_t sizes[] = {1001, 1, GT_BIG};
  for (int s = 0; s < 3; s++) {
    int64_t n = sizes[s];
    void *hx = rnd(dt, n, GT_DOM_ANY, 300u + (uint64_t)s);
    if (n >= 32) gt_special_values(hx, dt, 32); /* NaN, +-inf, +-0, ... at the front */
    int64_t sh[1] = {n};
    gpux_array_t x = up(dt, 1, sh, hx), o = gt_poisoned(dt, 1, sh);
    gpux_arg args[3] = {AR(x), gpux_arg_f32(alpha), AR(o)};
    ref_value *want = want_new(n);
    for (int64_t i = 0; i < n; i++) {
      double xv = ref_load(dt, hx, i).f;
      want[i].f = xv > 0 ? xv : (double)alpha * xv; /* one rounding: exact after ref_store */
    }
    char label[96];
    snprintf(label, sizeof label, "leaky relu %s, n = %" PRId64, gt_dtype_str(dt), n);
    call_expect(ew, 3, args, label, o, dt, want, n, dt, hx, NULL);
    GT_FREE(want, hx);
    GT_RELEASE(x, o);
  }
  gpux_elementwise_release(ew);
}

/* ------------------------------------------------------------------ broadcasting */

/* z = x - y (one rounding: exact) with x (nda, sa, la) and y (ndb, sb, lb) broadcast into an
 * output of layout lo. */
static void bcast_case(gpux_elementwise_t ew, gpux_dtype dt, int nda, const int64_t *sa,
                       gt_layout la, int ndb, const int64_t *sb, gt_layout lb, gt_layout lo,
                       uint64_t seed) {
  int ndo;
  int64_t so[GPUX_MAX_DIMS];
  GT_ASSERT(ref_broadcast_shape(nda, sa, ndb, sb, &ndo, so), "test bug: shapes do not broadcast");
  char label[256], s1[64], s2[64], s3[64];
  snprintf(label, sizeof label, "x - y %s: %s %s, %s %s -> %s %s", gt_dtype_str(dt),
           gt_shape_str(s1, sizeof s1, nda, sa), gt_layout_str(la),
           gt_shape_str(s2, sizeof s2, ndb, sb), gt_layout_str(lb),
           gt_shape_str(s3, sizeof s3, ndo, so), gt_layout_str(lo));
  size_t es = ref_dtype_size(dt);
  int64_t na = ref_shape_size(nda, sa), nb = ref_shape_size(ndb, sb), n = ref_shape_size(ndo, so);
  void *ha = rnd_in(dt, na, 1000000, seed), *hb = rnd_in(dt, nb, 1000000, seed + 1);
  gt_view va, vb, vo;
  gt_view_make(&va, dt, nda, sa, la, ha);
  gt_view_make(&vb, dt, ndb, sb, lb, hb);
  gt_view_make(&vo, dt, ndo, so, lo, NULL);
  gpux_arg args[3] = {AR(va.view), AR(vb.view), AR(vo.view)};
  GT_OK(gpux_elementwise_call(ew, 3, args));
  void *got = gt_malloc((size_t)n * es);
  gt_view_read(&vo, got, label);
  void *fa = gt_malloc((size_t)n * es), *fb = gt_malloc((size_t)n * es);
  ref_broadcast(fa, ha, es, ndo, so, nda, sa);
  ref_broadcast(fb, hb, es, ndo, so, ndb, sb);
  ref_value *want = want_new(n);
  want_addsub(dt, n, fa, fb, -1, want);
  gt_compare(label, dt, got, want, n, gt_tolerance(dt, GT_OPC_EXACT), dt, fa, fb);
  GT_FREE(want, fa, fb, got, ha, hb);
  gt_view_free(&va);
  gt_view_free(&vb);
  gt_view_free(&vo);
}

static void test_broadcast(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new("T x, T y", "T z", "z = x - y", "bsub", NULL);
  const int64_t a[3] = {3, 1, 5}, b[2] = {4, 5}, v[1] = {5}, one[1] = {1}, col[2] = {4, 1};
  const int64_t big[1] = {GT_BIG};
  bcast_case(ew, dt, 3, a, GT_CONTIG, 2, b, GT_CONTIG, GT_CONTIG, 1);
  bcast_case(ew, dt, 2, b, GT_CONTIG, 3, a, GT_CONTIG, GT_CONTIG, 2);
  bcast_case(ew, dt, 3, a, GT_STRIDED, 2, b, GT_REVERSED, GT_STRIDED, 3);
  bcast_case(ew, dt, 3, a, GT_REVERSED, 2, b, GT_STRIDED, GT_REVERSED, 4);
  bcast_case(ew, dt, 2, col, GT_CONTIG, 1, v, GT_CONTIG, GT_CONTIG, 5); /* outer (4,1) x (5,) */
  bcast_case(ew, dt, 0, NULL, GT_CONTIG, 2, b, GT_CONTIG, GT_CONTIG, 6); /* 0-d array */
  bcast_case(ew, dt, 2, b, GT_STRIDED, 0, NULL, GT_CONTIG, GT_STRIDED, 7);
  bcast_case(ew, dt, 0, NULL, GT_CONTIG, 0, NULL, GT_CONTIG, GT_CONTIG, 8); /* 0-d output */
  bcast_case(ew, dt, 1, one, GT_CONTIG, 1, big, GT_CONTIG, GT_CONTIG, 9);
  const int64_t d8a[8] = {2, 1, 3, 1, 2, 3, 1, 2}, d8b[8] = {1, 2, 1, 3, 2, 1, 2, 1};
  bcast_case(ew, dt, 8, d8a, GT_STRIDED, 8, d8b, GT_REVERSED, GT_STRIDED, 10);
  gpux_elementwise_release(ew);
}

/* Scalars and 0-d arrays as inputs: z = (x - a) * b with a 0-d array and b a scalar argument
 * (b = 2 or -4: exact, so one rounding in all). */
static void test_scalar_inputs(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new("T x, T a, T b", "T z", "z = (x - a) * b", "scalar_in", NULL);
  const int64_t sh[2] = {4, 5}, n = 20;
  for (int k = 0; k < 2; k++) {
    void *hx = rnd_in(dt, n, 100000, 40u + (uint64_t)k);
    double av = is_float(dt) ? 1.25 : 17, bv = k == 0 ? 2.0 : -4.0;
    ref_value ra;
    if (is_float(dt)) ra.f = av;
    else ra.i = (int64_t)av;
    char ha[8];
    ref_store(dt, ha, 0, ra);
    gpux_array_t x = up(dt, 2, sh, hx), a0 = up(dt, 0, NULL, ha), z = gt_poisoned(dt, 2, sh);
    gpux_arg args[4] = {AR(x), AR(a0), scalar_of(dt, bv), AR(z)};
    ref_value want[20];
    for (int64_t i = 0; i < n; i++) {
      if (is_float(dt)) want[i].f = (ref_load(dt, hx, i).f - av) * bv;
      else want[i].i = (ref_load(dt, hx, i).i - (int64_t)av) * (int64_t)bv;
    }
    char label[96];
    snprintf(label, sizeof label, "(x - a) * b %s, a 0-d array, b = %g scalar", gt_dtype_str(dt), bv);
    call_expect(ew, 4, args, label, z, dt, want, n, dt, hx, NULL);
    free(hx);
    GT_RELEASE(x, a0, z);
  }
  gpux_elementwise_release(ew);
}

/* ------------------------------------------------------------------ views */

/* Views built with gpux_array_slice directly: offsets that are not a multiple of anything
 * (1, 3, 5 elements), a negative step with an offset, and a strided output. */
static void test_views(void **state) {
  gpux_dtype dt = case_dtype(state);
  size_t es = ref_dtype_size(dt);
  gpux_elementwise_t ew = ew_new("T x, T y", "T z", "z = x - y", "vsub", NULL);
  /* 1-d: x = bx[3:3+n], y = by[n+4:4:-1] (reversed, offset), z = bz[5:5+2n:2] */
  const int64_t n = 1001, nb = 2 * n + 7;
  int64_t shb[1] = {nb};
  void *hbx = is_float(dt) ? rnd(dt, nb, GT_DOM_ANY, 51) : rnd(dt, nb, GT_DOM_SMALLINT, 51);
  void *hby = is_float(dt) ? rnd(dt, nb, GT_DOM_ANY, 52) : rnd(dt, nb, GT_DOM_SMALLINT, 52);
  if (dt == GPUX_UINT8) { /* keep x >= y so that x - y needs no wrap */
    for (int64_t i = 0; i < nb; i++) {
      ((uint8_t *)hbx)[i] = (uint8_t)(128 + ((uint8_t *)hbx)[i] % 128);
      ((uint8_t *)hby)[i] = (uint8_t)(((uint8_t *)hby)[i] % 128);
    }
  }
  gpux_array_t bx = up(dt, 1, shb, hbx), by = up(dt, 1, shb, hby), bz = gt_poisoned(dt, 1, shb);
  gpux_array_t x = NULL, y = NULL, z = NULL;
  const int64_t xs[1] = {3}, xe[1] = {3 + n}, x1[1] = {1};
  const int64_t ys[1] = {n + 4}, ye[1] = {4}, ym[1] = {-1};
  const int64_t zs[1] = {5}, ze[1] = {5 + 2 * n}, z2[1] = {2};
  GT_OK(gpux_array_slice(&x, bx, xs, xe, x1));
  GT_OK(gpux_array_slice(&y, by, ys, ye, ym));
  GT_OK(gpux_array_slice(&z, bz, zs, ze, z2));
  int64_t nn[3];
  GT_OK(gpux_array_size(&nn[0], x));
  GT_OK(gpux_array_size(&nn[1], y));
  GT_OK(gpux_array_size(&nn[2], z));
  GT_ASSERT(nn[0] == n && nn[1] == n && nn[2] == n, "test bug: view sizes %" PRId64 " %" PRId64
            " %" PRId64, nn[0], nn[1], nn[2]);
  gpux_arg args[3] = {AR(x), AR(y), AR(z)};
  GT_OK(gpux_elementwise_call(ew, 3, args));
  unsigned char *gb = gt_read_all(bz, NULL);
  char *got = gt_malloc((size_t)n * es), *hx = gt_malloc((size_t)n * es), *hy = gt_malloc((size_t)n * es);
  ref_value *want = want_new(n);
  int64_t outside = 0;
  for (int64_t j = 0; j < nb; j++) {
    int in_view = j >= 5 && j < 5 + 2 * n && (j - 5) % 2 == 0;
    if (in_view) continue;
    for (size_t b = 0; b < es; b++) outside += gb[(size_t)j * es + b] != GT_POISON_BYTE;
  }
  for (int64_t i = 0; i < n; i++) {
    memcpy(got + (size_t)i * es, gb + (size_t)(5 + 2 * i) * es, es);
    memcpy(hx + (size_t)i * es, (char *)hbx + (size_t)(3 + i) * es, es);
    memcpy(hy + (size_t)i * es, (char *)hby + (size_t)(n + 4 - i) * es, es);
    if (is_float(dt)) want[i].f = ref_load(dt, hx, i).f - ref_load(dt, hy, i).f;
    else want[i].i = ref_wrap(dt, (uint64_t)(ref_load(dt, hx, i).i - ref_load(dt, hy, i).i));
  }
  char label[128];
  snprintf(label, sizeof label, "x[3:1004] - y[1005:4:-1] -> z[5:2007:2] %s", gt_dtype_str(dt));
  GT_ASSERT(outside == 0, "%s: %" PRId64 " bytes outside the output view were written", label, outside);
  gt_compare(label, dt, got, want, n, gt_tolerance(dt, GT_OPC_EXACT), dt, hx, hy);
  GT_FREE(want, got, hx, hy, gb, hbx, hby);
  GT_RELEASE(x, y, z, bx, by, bz);
  gpux_elementwise_release(ew);
}

/* 2-d strided / reversed views (gt_view: step 2 and -2 with offsets, step -1) as inputs and
 * outputs, with the saxpy-like tolerance-free expression z = x - y. */
static void test_strided_2d(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new("T x, T y", "T z", "z = x - y", "ssub", NULL);
  const int64_t s[2] = {33, 17}, s1[1] = {1001};
  bcast_case(ew, dt, 2, s, GT_STRIDED, 2, s, GT_REVERSED, GT_CONTIG, 61);
  bcast_case(ew, dt, 2, s, GT_REVERSED, 2, s, GT_CONTIG, GT_STRIDED, 62);
  bcast_case(ew, dt, 2, s, GT_CONTIG, 2, s, GT_STRIDED, GT_REVERSED, 63);
  bcast_case(ew, dt, 1, s1, GT_REVERSED, 1, s1, GT_STRIDED, GT_STRIDED, 64);
  gpux_elementwise_release(ew);
}

/* ------------------------------------------------------------------ fixed types, mixed */

static void test_fixed_types(void **state) {
  (void)state;
  const int64_t n = 1001, sh[1] = {n};
  const gpux_dtype F32 = GPUX_FLOAT32, F64 = GPUX_FLOAT64, I32 = GPUX_INT32, I64 = GPUX_INT64;
  float *hx = rnd(F32, n, GT_DOM_ANY, 81);
  int32_t *hk = rnd_int(I32, n, -1000, 1000, 82);
  gpux_array_t x = up(F32, 1, sh, hx), k = up(I32, 1, sh, hk);
  ref_value *want = want_new(n);
  /* 1. float32 x, int32 k -> float32 y = x * k (k converts exactly: one rounding), and an
   *    int64 output m = k * 3 of another fixed type */
  {
    gpux_elementwise_t ew = ew_new("float32 x, int32 k", "float32 y, int64 m",
                                   "y = x * k; m = k * 3", "fixed", NULL);
    gpux_array_t y = gt_poisoned(F32, 1, sh), m = gt_poisoned(I64, 1, sh);
    gpux_arg args[4] = {AR(x), AR(k), AR(y), AR(m)};
    for (int64_t i = 0; i < n; i++) want[i].f = (double)hx[i] * (double)hk[i];
    call_expect(ew, 4, args, "float32 x * int32 k -> float32", y, F32, want, n, F32, hx, NULL);
    for (int64_t i = 0; i < n; i++) want[i].i = (int64_t)hk[i] * 3;
    expect_exact("int32 k * 3 -> int64", m, I64, want, n, I32, hk, NULL);
    /* the int32 param with a 0-d int32 array (broadcast) */
    int32_t k0 = -7;
    gpux_array_t kk = up(I32, 0, NULL, &k0);
    GT_RELEASE(y, m);
    y = gt_poisoned(F32, 1, sh);
    m = gt_poisoned(I64, 1, sh);
    gpux_arg args2[4] = {AR(x), AR(kk), AR(y), AR(m)};
    for (int64_t i = 0; i < n; i++) want[i].f = (double)hx[i] * -7.0;
    call_expect(ew, 4, args2, "float32 x * int32 k (0-d) -> float32", y, F32, want, n, F32, hx,
                NULL);
    for (int64_t i = 0; i < n; i++) want[i].i = -21;
    expect_exact("int32 k (0-d) * 3 -> int64", m, I64, want, n, I32, NULL, NULL);
    /* and with a scalar int32 */
    gpux_array_release(y);
    y = gt_poisoned(F32, 1, sh);
    gpux_arg args3[4] = {AR(x), gpux_arg_i32(5), AR(y), AR(m)};
    for (int64_t i = 0; i < n; i++) want[i].f = (double)hx[i] * 5.0;
    call_expect(ew, 4, args3, "float32 x * int32 scalar 5", y, F32, want, n, F32, hx, NULL);
    GT_RELEASE(kk, y, m);
    gpux_elementwise_release(ew);
  }
  /* 2. a placeholder beside a fixed type: T x, int32 k -> T y = x * k, with x float64
   *    (exact: the product of a double and an integer below 2^10 rounds once) */
  if (gt_info.fp64) {
    gpux_elementwise_t ew = ew_new("T x, int32 k", "T y", "y = x * k", "tfixed", NULL);
    double *hd = rnd(F64, n, GT_DOM_ANY, 83);
    gpux_array_t xd = up(F64, 1, sh, hd), y = gt_poisoned(F64, 1, sh);
    gpux_arg args[3] = {AR(xd), AR(k), AR(y)};
    for (int64_t i = 0; i < n; i++) want[i].f = hd[i] * (double)hk[i];
    call_expect(ew, 3, args, "T = float64 x * int32 k", y, F64, want, n, F64, hd, NULL);
    gpux_array_release(y);
    /* the same object with T = float32 */
    y = gt_poisoned(F32, 1, sh);
    gpux_arg args2[3] = {AR(x), AR(k), AR(y)};
    for (int64_t i = 0; i < n; i++) want[i].f = (double)hx[i] * (double)hk[i];
    call_expect(ew, 3, args2, "T = float32 x * int32 k", y, F32, want, n, F32, hx, NULL);
    free(hd);
    GT_RELEASE(xd, y);
    gpux_elementwise_release(ew);
  }
  /* 3. a placeholder that only a scalar declares takes the scalar's dtype: U = float64 here,
   *    so x * s is computed in double and converted to float32 (two roundings, both
   *    reproduced by the reference) */
  if (gt_info.fp64) {
    gpux_elementwise_t ew = ew_new("T x, U s", "T y", "y = x * s", "uscalar", NULL);
    gpux_array_t y = gt_poisoned(F32, 1, sh);
    const double sv = 0.1; /* not a float32 value: a float32 s would round it */
    gpux_arg args[3] = {AR(x), gpux_arg_f64(sv), AR(y)};
    for (int64_t i = 0; i < n; i++) want[i].f = (double)hx[i] * sv;
    call_expect(ew, 3, args, "float32 x * float64 scalar (U)", y, F32, want, n, F32, hx, NULL);
    gpux_array_release(y);
    gpux_elementwise_release(ew);
  }
  /* 4. a placeholder only an output declares takes the output array's dtype: U = float64
   *    (then int64) from y, the int32 / float32 inputs convert exactly */
  {
    gpux_elementwise_t ew = ew_new("T x", "U y", "y = x", "convert", NULL);
    for (int v = 0; v < 3; v++) {
      gpux_dtype idt = v == 1 ? I32 : F32;
      gpux_dtype odt = v == 2 ? I64 : F64;
      if (!gt_dtype_available(odt)) continue;
      gpux_array_t in = idt == I32 ? k : x, y = gt_poisoned(odt, 1, sh);
      if (v == 2) { /* float32 -> int64 of integral values only (others truncate) */
        float *hi = gt_malloc((size_t)n * sizeof(float));
        for (int64_t i = 0; i < n; i++) hi[i] = (float)hk[i];
        in = up(F32, 1, sh, hi);
        free(hi);
      }
      gpux_arg args[2] = {AR(in), AR(y)};
      for (int64_t i = 0; i < n; i++) {
        if (v == 0) want[i].f = hx[i];
        else if (v == 1) want[i].f = hk[i];
        else want[i].i = hk[i];
      }
      char label[96];
      snprintf(label, sizeof label, "U y = T x: %s -> %s", gt_dtype_str(idt), gt_dtype_str(odt));
      call_expect(ew, 2, args, label, y, odt, want, n, idt, NULL, NULL);
      if (v == 2) gpux_array_release(in);
      gpux_array_release(y);
    }
    gpux_elementwise_release(ew);
  }
  GT_FREE(want, hx, hk);
  GT_RELEASE(x, k);
}

/* ------------------------------------------------------------------ uint8 and bool */

static void test_uint8_bool(void **state) {
  (void)state;
  const int64_t n = 1001, sh[1] = {n};
  const gpux_dtype U8 = GPUX_UINT8, I32 = GPUX_INT32;
  ref_value *want = want_new(n);
  /* uint8: x + y and x * y wrap modulo 256 (the int result converts to unsigned char) */
  {
    uint8_t *hx = rnd(U8, n, GT_DOM_ANY, 91), *hy = rnd(U8, n, GT_DOM_ANY, 92);
    gpux_elementwise_t ew = ew_new("T x, T y", "T s, T p", "s = x + y; p = x * y", "u8", NULL);
    gpux_array_t x = up(U8, 1, sh, hx), y = up(U8, 1, sh, hy);
    gpux_array_t s = gt_poisoned(U8, 1, sh), p = gt_poisoned(U8, 1, sh);
    gpux_arg args[4] = {AR(x), AR(y), AR(s), AR(p)};
    for (int64_t i = 0; i < n; i++) want[i].i = (uint8_t)(hx[i] + hy[i]);
    call_expect(ew, 4, args, "uint8 x + y", s, U8, want, n, U8, hx, hy);
    for (int64_t i = 0; i < n; i++) want[i].i = (uint8_t)(hx[i] * hy[i]);
    expect_exact("uint8 x * y", p, U8, want, n, U8, hx, hy);
    /* with a uint8 scalar */
    gpux_elementwise_t ew2 = ew_new("T x, T c", "T z", "z = x - c", "u8s", NULL);
    gpux_arg args2[3] = {AR(x), gpux_arg_u8(200), AR(s)};
    for (int64_t i = 0; i < n; i++) want[i].i = (uint8_t)(hx[i] - 200);
    call_expect(ew2, 3, args2, "uint8 x - 200 (scalar)", s, U8, want, n, U8, hx, NULL);
    GT_FREE(hx, hy);
    GT_RELEASE(x, y, s, p);
    gpux_elementwise_release(ew);
    gpux_elementwise_release(ew2);
  }
  /* bool output of a comparison: every byte exactly 0 or 1 (float32 with NaN, ties, and
   * int32) */
  {
    gpux_elementwise_t ew = ew_new("T x, T y", "bool lt, bool ne", "lt = x < y; ne = x != y",
                                   "cmp", NULL);
    for (int k = 0; k < 2; k++) {
      gpux_dtype dt = k == 0 ? GPUX_FLOAT32 : I32;
      void *ha, *hb;
      int64_t m;
      pairs_fill(dt, 1001, GT_DOM_SMALLINT, 93u + (uint64_t)k, &ha, &hb, &m);
      int64_t shm[1] = {m};
      gpux_array_t x = up(dt, 1, shm, ha), y = up(dt, 1, shm, hb);
      gpux_array_t lt = gt_poisoned(GPUX_BOOL, 1, shm), ne = gt_poisoned(GPUX_BOOL, 1, shm);
      gpux_arg args[4] = {AR(x), AR(y), AR(lt), AR(ne)};
      ref_value *w1 = want_new(m), *w2 = want_new(m);
      ref_binary(GPUX_LT, dt, m, ha, hb, w1);
      ref_binary(GPUX_NE, dt, m, ha, hb, w2);
      char l1[64], l2[64];
      snprintf(l1, sizeof l1, "bool lt = x < y (%s)", gt_dtype_str(dt));
      snprintf(l2, sizeof l2, "bool ne = x != y (%s)", gt_dtype_str(dt));
      call_expect(ew, 4, args, l1, lt, GPUX_BOOL, w1, m, dt, ha, hb);
      expect_exact(l2, ne, GPUX_BOOL, w2, m, dt, ha, hb);
      GT_FREE(w1, w2, ha, hb);
      GT_RELEASE(x, y, lt, ne);
    }
    gpux_elementwise_release(ew);
  }
  /* bool input: o = c ? a : b, equal to gpux_where */
  {
    gpux_elementwise_t ew = ew_new("bool c, T a, T b", "T o", "o = c ? a : b", "sel", NULL);
    uint8_t *hc = rnd(GPUX_BOOL, n, GT_DOM_ANY, 95);
    int32_t *ha = rnd(I32, n, GT_DOM_ANY, 96), *hb = rnd(I32, n, GT_DOM_ANY, 97);
    gpux_array_t cc = up(GPUX_BOOL, 1, sh, hc), a = up(I32, 1, sh, ha), b = up(I32, 1, sh, hb),
                 o = gt_poisoned(I32, 1, sh);
    gpux_arg args[4] = {AR(cc), AR(a), AR(b), AR(o)};
    ref_where(I32, n, hc, ha, hb, want);
    call_expect(ew, 4, args, "o = c ? a : b (bool c, int32)", o, I32, want, n, I32, ha, hb);
    /* a bool scalar */
    gpux_arg args2[4] = {gpux_arg_bool(0), AR(a), AR(b), AR(o)};
    for (int64_t i = 0; i < n; i++) want[i].i = hb[i];
    call_expect(ew, 4, args2, "o = false ? a : b (bool scalar)", o, I32, want, n, I32, ha, hb);
    GT_FREE(hc, ha, hb);
    GT_RELEASE(cc, a, b, o);
    gpux_elementwise_release(ew);
  }
  free(want);
}

/* ------------------------------------------------------------------ two outputs, in place */

static void test_two_outputs(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new("T x, T y", "T s, T d", "s = x + y; d = x - y", "sumdiff", NULL);
  const int64_t sizes[] = {1001, 1, GT_BIG};
  for (int k = 0; k < 3; k++) {
    int64_t n = sizes[k], sh[1] = {n};
    void *hx = rnd_in(dt, n, INT64_C(1) << 29, 110u + (uint64_t)k);
    void *hy = rnd_in(dt, n, INT64_C(1) << 29, 120u + (uint64_t)k);
    gpux_array_t x = up(dt, 1, sh, hx), y = up(dt, 1, sh, hy);
    gpux_array_t s = gt_poisoned(dt, 1, sh), d = gt_poisoned(dt, 1, sh);
    gpux_arg args[4] = {AR(x), AR(y), AR(s), AR(d)};
    ref_value *w1 = want_new(n), *w2 = want_new(n);
    want_addsub(dt, n, hx, hy, +1, w1);
    want_addsub(dt, n, hx, hy, -1, w2);
    char l1[96], l2[96];
    snprintf(l1, sizeof l1, "s = x + y %s n = %" PRId64, gt_dtype_str(dt), n);
    snprintf(l2, sizeof l2, "d = x - y %s n = %" PRId64, gt_dtype_str(dt), n);
    call_expect(ew, 4, args, l1, s, dt, w1, n, dt, hx, hy);
    expect_exact(l2, d, dt, w2, n, dt, hx, hy);
    GT_FREE(w1, w2, hx, hy);
    GT_RELEASE(x, y, s, d);
  }
  gpux_elementwise_release(ew);
}

static void test_inplace(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new("T x, T y", "T z", "z = x - y", "isub", NULL);
  const int64_t n = 4099, sh[1] = {n};
  size_t es = ref_dtype_size(dt);
  void *hx = rnd_in(dt, n, 100000, 131), *hy = rnd_in(dt, n, 100000, 132);
  ref_value *want = want_new(n);
  const char *names[] = {"z == x", "z == y", "z == x == y"};
  for (int which = 0; which < 3; which++) {
    gpux_array_t x = up(dt, 1, sh, hx), y = up(dt, 1, sh, hy);
    gpux_array_t xs = x, ys = which == 2 ? x : y, zs = which == 1 ? y : x;
    gpux_arg args[3] = {AR(xs), AR(ys), AR(zs)};
    want_addsub(dt, n, hx, which == 2 ? hx : hy, -1, want);
    char label[96];
    snprintf(label, sizeof label, "z = x - y %s in place (%s)", gt_dtype_str(dt), names[which]);
    call_expect(ew, 3, args, label, zs, dt, want, n, dt, hx, hy);
    GT_RELEASE(x, y);
  }
  /* two outputs, each the same view as an input (swapped): every input element is read
   * before the element's outputs are written, so the results equal the out-of-place ones */
  {
    gpux_elementwise_t ew2 = ew_new("T x, T y", "T s, T d", "s = x + y; d = x - y", "isd", NULL);
    gpux_array_t x = up(dt, 1, sh, hx), y = up(dt, 1, sh, hy);
    gpux_arg args[4] = {AR(x), AR(y), AR(y), AR(x)}; /* s is y, d is x */
    ref_value *w2 = want_new(n);
    want_addsub(dt, n, hx, hy, +1, want);
    want_addsub(dt, n, hx, hy, -1, w2);
    char label[96];
    snprintf(label, sizeof label, "s = x + y %s in place (s == y, d == x)", gt_dtype_str(dt));
    call_expect(ew2, 4, args, label, y, dt, want, n, dt, hx, hy);
    snprintf(label, sizeof label, "d = x - y %s in place (s == y, d == x)", gt_dtype_str(dt));
    expect_exact(label, x, dt, w2, n, dt, hx, hy);
    free(w2);
    GT_RELEASE(x, y);
    gpux_elementwise_release(ew2);
  }
  /* the output is the same strided view as x (the rest of the base stays poisoned) */
  {
    const int64_t s2[2] = {21, 13};
    int64_t n2 = 21 * 13;
    gt_view vx, vy;
    gt_view_make(&vx, dt, 2, s2, GT_STRIDED, hx);
    gt_view_make(&vy, dt, 2, s2, GT_REVERSED, hy);
    gpux_arg args[3] = {AR(vx.view), AR(vy.view), AR(vx.view)};
    GT_OK(gpux_elementwise_call(ew, 3, args));
    char *got = gt_malloc((size_t)n2 * es);
    char label[96];
    snprintf(label, sizeof label, "z = x - y %s in place (strided view)", gt_dtype_str(dt));
    gt_view_read(&vx, got, label);
    want_addsub(dt, n2, hx, hy, -1, want);
    gt_compare(label, dt, got, want, n2, gt_tolerance(dt, GT_OPC_EXACT), dt, hx, hy);
    free(got);
    gt_view_free(&vx);
    gt_view_free(&vy);
  }
  GT_FREE(want, hx, hy);
  gpux_elementwise_release(ew);
}

/* ------------------------------------------------------------------ preamble */

static void test_preamble(void **state) {
  (void)state;
  const int64_t n = 1001, sh[1] = {n};
  ref_value *want = want_new(n);
  /* a typed helper function (float32): cube of small integers is exact */
  {
    const char *pre = "GPUX_FUNC gpux_f32 cube_helper(gpux_f32 v) { return v * v * v; }\n";
    gpux_elementwise_t ew = ew_new("float32 x", "float32 y", "y = cube_helper(x) - x", "pre_fn", pre);
    float *hx = gt_malloc((size_t)n * sizeof(float)); /* integers: v * v * v is exact */
    gt_rng r;
    gt_rng_seed(&r, 141);
    for (int64_t i = 0; i < n; i++) hx[i] = (float)gt_rng_int(&r, -40, 40);
    gpux_array_t x = up(GPUX_FLOAT32, 1, sh, hx), y = gt_poisoned(GPUX_FLOAT32, 1, sh);
    gpux_arg args[2] = {AR(x), AR(y)};
    for (int64_t i = 0; i < n; i++) want[i].f = (double)hx[i] * hx[i] * hx[i] - hx[i];
    call_expect(ew, 2, args, "preamble cube_helper(x) - x (float32)", y, GPUX_FLOAT32, want, n,
                GPUX_FLOAT32, hx, NULL);
    const char *src = NULL;
    GT_OK(gpux_elementwise_source(&src, ew, 2, args));
    GT_ASSERT(src && strstr(src, "cube_helper(gpux_f32 v)") && strstr(src, "y = cube_helper(x) - x"),
              "the generated source lacks the preamble or the body:\n%s", src ? src : "(null)");
    free(hx);
    GT_RELEASE(x, y);
    gpux_elementwise_release(ew);
  }
  /* a macro helper that works for every T: int32 and float64 through one object */
  {
    const char *pre = "#define TWICE_PLUS(v, w) ((v) + (v) + (w))\n";
    gpux_elementwise_t ew = ew_new("T x, T w", "T y", "y = TWICE_PLUS(x, w)", "pre_macro", pre);
    for (int k = 0; k < 2; k++) {
      gpux_dtype dt = k == 0 ? GPUX_INT32 : GPUX_FLOAT64;
      if (!gt_dtype_available(dt)) continue;
      void *hx = rnd_in(dt, n, 100000, 150u + (uint64_t)k);
      void *hw = rnd_in(dt, n, 100000, 160u + (uint64_t)k);
      gpux_array_t x = up(dt, 1, sh, hx), w = up(dt, 1, sh, hw), y = gt_poisoned(dt, 1, sh);
      gpux_arg args[3] = {AR(x), AR(w), AR(y)};
      for (int64_t i = 0; i < n; i++) {
        if (is_float(dt)) want[i].f = 2 * ref_load(dt, hx, i).f + ref_load(dt, hw, i).f;
        else want[i].i = 2 * ref_load(dt, hx, i).i + ref_load(dt, hw, i).i;
      }
      char label[64];
      /* floats: x + x is exact, so (x + x) + w rounds once */
      snprintf(label, sizeof label, "preamble macro TWICE_PLUS (%s)", gt_dtype_str(dt));
      call_expect(ew, 3, args, label, y, dt, want, n, dt, hx, hw);
      GT_FREE(hx, hw);
      GT_RELEASE(x, w, y);
    }
    gpux_elementwise_release(ew);
  }
  free(want);
}

/* ------------------------------------------------------------------ fusion */

/* Runs ew on inputs ins[0..nin) into a poisoned output per out dtype, returns the outputs'
 * host copies in got[0..nout). */
static void ew_run(gpux_elementwise_t ew, int nin, gpux_array_t *ins, int nout,
                   const gpux_dtype *odt, int nd, const int64_t *sh, void **got) {
  gpux_arg args[8];
  gpux_array_t outs[4];
  for (int i = 0; i < nin; i++) args[i] = AR(ins[i]);
  for (int j = 0; j < nout; j++) {
    outs[j] = gt_poisoned(odt[j], nd, sh);
    args[nin + j] = AR(outs[j]);
  }
  GT_OK(gpux_elementwise_call(ew, nin + nout, args));
  for (int j = 0; j < nout; j++) {
    got[j] = gt_read_all(outs[j], NULL);
    gpux_array_release(outs[j]);
  }
}

/* y = relu(a * x + b) fused, against mul, add, relu of the public API into temporaries. */
static void test_fusion_relu(void **state) {
  gpux_dtype dt = case_dtype(state);
  /* floats: C operators (the documented example); integers: gpux_mul / gpux_add, whose
   * wrap-around is defined, on full-range values */
  const char *body = is_float(dt) ? "y = gpux_relu(a * x + b)"
                                  : "y = gpux_relu(gpux_add(gpux_mul(a, x), b))";
  gpux_elementwise_t ew = ew_new("T a, T x, T b", "T y", body, "fused_relu", NULL);
  const int64_t sizes[] = {4099, 1, GT_BIG};
  for (int k = 0; k < 3; k++) {
    if (sizes[k] == GT_BIG && dt != GPUX_FLOAT32 && dt != GPUX_INT32) continue;
    int64_t n = sizes[k];
    void *ha = NULL, *hx = NULL, *hb;
    if (n >= 1001) {
      pairs_fill(dt, n - 300, GT_DOM_ANY, 170u + (uint64_t)k, &ha, &hx, &n);
    } else {
      ha = rnd(dt, n, GT_DOM_ANY, 170);
      hx = rnd(dt, n, GT_DOM_ANY, 171);
    }
    hb = rnd(dt, n, GT_DOM_ANY, 172u + (uint64_t)k);
    if (n > 40) gt_special_values((char *)hb + 20 * ref_dtype_size(dt), dt, 20);
    int64_t sh[1] = {n};
    gpux_array_t in[3] = {up(dt, 1, sh, ha), up(dt, 1, sh, hx), up(dt, 1, sh, hb)};
    void *got;
    ew_run(ew, 3, in, 1, &dt, 1, sh, &got);
    gpux_array_t t1 = NULL, t2 = NULL, t3 = NULL;
    GT_OK(gpux_binary(&t1, GPUX_MUL, in[0], in[1]));
    GT_OK(gpux_binary(&t2, GPUX_ADD, t1, in[2]));
    GT_OK(gpux_unary(&t3, GPUX_RELU, t2));
    void *chain = gt_read_all(t3, NULL);
    char label[128];
    snprintf(label, sizeof label, "%s (%s, n = %" PRId64 ") vs relu(add(mul(a, x), b))", body,
             gt_dtype_str(dt), n);
    gt_compare_bits(label, dt, got, chain, n);
    if (is_float(dt) && n >= 1001) {
      /* an FMA would have changed some of these results */
      int64_t differs = 0;
      for (int64_t i = 0; i < n; i++) {
        int d;
        double r = nofma_axpy(dt, ref_load(dt, ha, i).f, ref_load(dt, hx, i).f, ref_load(dt, hb, i).f, &d);
        differs += d && r > 0;
      }
      GT_ASSERT(differs > 0, "%s: test bug: an FMA would change none of the results", label);
    }
    GT_FREE(got, chain, ha, hx, hb);
    GT_RELEASE(in[0], in[1], in[2], t1, t2, t3);
  }
  gpux_elementwise_release(ew);
}

/* y = sigmoid(x) * minimum(x, w) fused, against sigmoid, minimum, mul. */
static void test_fusion_sigmoid(void **state) {
  gpux_dtype dt = case_dtype(state);
  const char *body = "y = gpux_sigmoid(x) * gpux_minimum(x, w)";
  gpux_elementwise_t ew = ew_new("T x, T w", "T y", body, "fused_sig", NULL);
  void *hx, *hw;
  int64_t n;
  pairs_fill(dt, 20000, GT_DOM_SIGMOID, 180, &hx, &hw, &n);
  int64_t sh[1] = {n};
  gpux_array_t in[2] = {up(dt, 1, sh, hx), up(dt, 1, sh, hw)};
  void *got;
  ew_run(ew, 2, in, 1, &dt, 1, sh, &got);
  gpux_array_t t1 = NULL, t2 = NULL, t3 = NULL;
  GT_OK(gpux_unary(&t1, GPUX_SIGMOID, in[0]));
  GT_OK(gpux_binary(&t2, GPUX_MINIMUM, in[0], in[1]));
  GT_OK(gpux_binary(&t3, GPUX_MUL, t1, t2));
  void *chain = gt_read_all(t3, NULL);
  char label[128];
  snprintf(label, sizeof label, "%s (%s) vs mul(sigmoid(x), minimum(x, w))", body, gt_dtype_str(dt));
  gt_compare_bits(label, dt, got, chain, n);
  /* and the random part against the CPU: sigmoid's tolerance plus one rounding (the special
   * values are covered by the bits of the chain: e.g. sigmoid(-100) underflows in float32,
   * and times -inf gives NaN, not the exact product -inf) */
  int64_t nsp = n - 20000;
  const char *rx = (const char *)hx + (size_t)nsp * ref_dtype_size(dt);
  const char *rw = (const char *)hw + (size_t)nsp * ref_dtype_size(dt);
  const char *rg = (const char *)got + (size_t)nsp * ref_dtype_size(dt);
  n -= nsp;
  ref_value *want = want_new(n), *mn = want_new(n);
  ref_unary(GPUX_SIGMOID, dt, n, rx, want);
  ref_binary(GPUX_MINIMUM, dt, n, rx, rw, mn);
  for (int64_t i = 0; i < n; i++) want[i].f *= mn[i].f;
  /* sigmoid's tolerance times |min(x, w)| <= 30 (random part; the special values give exact
   * 0, +-1 or inf factors), plus the product's rounding */
  gt_tol tol = gt_tolerance(dt, GT_OPC_TRANSC);
  tol.rel += dt == GPUX_FLOAT32 ? 1.2e-7 : 2.3e-16;
  tol.abs *= 100;
  char l2[160];
  snprintf(l2, sizeof l2, "%s (%s) vs CPU", body, gt_dtype_str(dt));
  gt_compare(l2, dt, rg, want, n, tol, dt, rx, rw);
  GT_FREE(want, mn, got, chain, hx, hw);
  GT_RELEASE(in[0], in[1], t1, t2, t3);
  gpux_elementwise_release(ew);
}

/* Floor division and mod through the ops prelude equal the built-in div and mod (negative
 * operands, zero divisors, MIN / -1), and for integers the CPU reference. */
static void test_divmod(void **state) {
  gpux_dtype dt = case_dtype(state);
  gpux_elementwise_t ew = ew_new("T a, T b", "T q, T r", "q = gpux_div(a, b); r = gpux_mod(a, b)",
                                 "divmod", NULL);
  void *ha, *hb;
  int64_t n;
  pairs_fill(dt, 4099, GT_DOM_ANY, 190, &ha, &hb, &n);
  if (!is_float(dt)) { /* small divisors of both signs, zeros included */
    int64_t ns = (int64_t)sqrt((double)(n - 4099)) , base = ns * ns;
    gt_rng r;
    gt_rng_seed(&r, 191);
    for (int64_t i = base; i < base + 2000; i++) {
      ref_value v;
      v.i = gt_rng_int(&r, ref_int_min(dt) == 0 ? 0 : -9, 9);
      ref_store(dt, hb, i, v);
    }
  }
  int64_t sh[1] = {n};
  gpux_array_t in[2] = {up(dt, 1, sh, ha), up(dt, 1, sh, hb)};
  gpux_dtype odt[2] = {dt, dt};
  void *got[2];
  ew_run(ew, 2, in, 2, odt, 1, sh, got);
  gpux_array_t tq = NULL, tr = NULL;
  GT_OK(gpux_binary(&tq, GPUX_DIV, in[0], in[1]));
  GT_OK(gpux_binary(&tr, GPUX_MOD, in[0], in[1]));
  void *cq = gt_read_all(tq, NULL), *cr = gt_read_all(tr, NULL);
  char label[96];
  snprintf(label, sizeof label, "gpux_div(a, b) %s vs built-in div", gt_dtype_str(dt));
  gt_compare_bits(label, dt, got[0], cq, n);
  snprintf(label, sizeof label, "gpux_mod(a, b) %s vs built-in mod", gt_dtype_str(dt));
  gt_compare_bits(label, dt, got[1], cr, n);
  if (!is_float(dt)) {
    ref_value *want = want_new(n);
    ref_binary(GPUX_DIV, dt, n, ha, hb, want);
    snprintf(label, sizeof label, "gpux_div(a, b) %s vs CPU", gt_dtype_str(dt));
    gt_compare(label, dt, got[0], want, n, gt_tolerance(dt, GT_OPC_EXACT), dt, ha, hb);
    ref_binary(GPUX_MOD, dt, n, ha, hb, want);
    snprintf(label, sizeof label, "gpux_mod(a, b) %s vs CPU", gt_dtype_str(dt));
    gt_compare(label, dt, got[1], want, n, gt_tolerance(dt, GT_OPC_EXACT), dt, ha, hb);
    free(want);
  }
  GT_FREE(got[0], got[1], cq, cr, ha, hb);
  GT_RELEASE(in[0], in[1], tq, tr);
  gpux_elementwise_release(ew);
}

/* uint8 and the remaining ops of the prelude against the built-ins: a chain over several
 * ops per dtype. */
static void test_fusion_misc(void **state) {
  gpux_dtype dt = case_dtype(state);
  const char *body = "y = gpux_maximum(gpux_sub(x, w), gpux_abs(gpux_neg(x))); "
                     "v = gpux_sign(gpux_minimum(x, w))";
  gpux_elementwise_t ew = ew_new("T x, T w", "T y, T v", body, "fused_misc", NULL);
  void *hx, *hw;
  int64_t n;
  pairs_fill(dt, 4099, GT_DOM_ANY, 200, &hx, &hw, &n);
  int64_t sh[1] = {n};
  gpux_array_t in[2] = {up(dt, 1, sh, hx), up(dt, 1, sh, hw)};
  gpux_dtype odt[2] = {dt, dt};
  void *got[2];
  ew_run(ew, 2, in, 2, odt, 1, sh, got);
  gpux_array_t t1 = NULL, t2 = NULL, t3 = NULL, t4 = NULL, t5 = NULL, t6 = NULL;
  GT_OK(gpux_binary(&t1, GPUX_SUB, in[0], in[1]));
  GT_OK(gpux_unary(&t2, GPUX_NEG, in[0]));
  GT_OK(gpux_unary(&t3, GPUX_ABS, t2));
  GT_OK(gpux_binary(&t4, GPUX_MAXIMUM, t1, t3));
  GT_OK(gpux_binary(&t5, GPUX_MINIMUM, in[0], in[1]));
  GT_OK(gpux_unary(&t6, GPUX_SIGN, t5));
  void *c1 = gt_read_all(t4, NULL), *c2 = gt_read_all(t6, NULL);
  char label[160];
  snprintf(label, sizeof label, "y = maximum(sub(x, w), abs(neg(x))) %s vs built-ins", gt_dtype_str(dt));
  gt_compare_bits(label, dt, got[0], c1, n);
  snprintf(label, sizeof label, "v = sign(minimum(x, w)) %s vs built-ins", gt_dtype_str(dt));
  gt_compare_bits(label, dt, got[1], c2, n);
  GT_FREE(got[0], got[1], c1, c2, hx, hw);
  GT_RELEASE(in[0], in[1], t1, t2, t3, t4, t5, t6);
  gpux_elementwise_release(ew);
}

/* Every function of the ops prelude against its built-in op, bit for bit: one object whose
 * body switches on an int32 scalar, so each dtype compiles once. Inputs: every pair of
 * special values, then random values of the op's domain (test_elementwise's domains). */
static void test_ops_prelude(void **state) {
  gpux_dtype dt = case_dtype(state);
  static const gpux_binary_op bops[] = GT_BINARY_SAME_OPS_INIT;
  static const gpux_unary_op uops[] = GT_UNARY_SAME_OPS_INIT;
  enum { NB = sizeof bops / sizeof bops[0], NU = sizeof uops / sizeof uops[0] };
  /* the body: case k < NB: binary op k; case NB + j: unary op j (the ops the dtype lacks,
   * such as float-only ones for integers or bitwise ones for floats, left out: the prelude
   * does not define them there) */
  char body[4096];
  size_t len = (size_t)snprintf(body, sizeof body, "switch (op) {\n");
  for (int k = 0; k < NB; k++)
    if (ref_binary_supported(bops[k], dt))
      len += (size_t)snprintf(body + len, sizeof body - len,
                              "  case %d: y = gpux_%s(x, w); break;\n", k, gt_binary_str(bops[k]));
  for (int j = 0; j < NU; j++)
    if (ref_unary_has_kernel(uops[j], dt))
      len += (size_t)snprintf(body + len, sizeof body - len, "  case %d: y = gpux_%s(x); break;\n",
                              NB + j, gt_unary_str(uops[j]));
  snprintf(body + len, sizeof body - len, "  default: y = 0; break;\n}");
  gpux_elementwise_t ew = ew_new("T x, T w, int32 op", "T y", body, "ops_all", NULL);
  for (int k = 0; k < NB + NU; k++) {
    int unary = k >= NB;
    if (unary ? !ref_unary_has_kernel(uops[k - NB], dt) : !ref_binary_supported(bops[k], dt)) continue;
    gt_domain d0 = unary ? gt_unary_domain(uops[k - NB], dt) : gt_binary_domain(bops[k], dt, 0);
    gt_domain d1 = unary ? GT_DOM_ANY : gt_binary_domain(bops[k], dt, 1);
    void *hx, *hw;
    int64_t n;
    pairs_fill(dt, 4099, d0, 210u + (uint64_t)k, &hx, &hw, &n);
    int64_t ns = (int64_t)sqrt((double)(n - 4099));
    gt_fill_random((char *)hw + (size_t)(ns * ns) * ref_dtype_size(dt), dt, 4099, d1, 260u + (uint64_t)k);
    int64_t sh[1] = {n};
    gpux_array_t x = up(dt, 1, sh, hx), w = up(dt, 1, sh, hw), y = gt_poisoned(dt, 1, sh), t = NULL;
    gpux_arg args[4] = {AR(x), AR(w), gpux_arg_i32(k), AR(y)};
    GT_OK(gpux_elementwise_call(ew, 4, args));
    if (unary) GT_OK(gpux_unary(&t, uops[k - NB], x));
    else GT_OK(gpux_binary(&t, bops[k], x, w));
    void *got = gt_read_all(y, NULL), *want = gt_read_all(t, NULL);
    char label[96];
    snprintf(label, sizeof label, "gpux_%s %s vs the built-in op",
             unary ? gt_unary_str(uops[k - NB]) : gt_binary_str(bops[k]), gt_dtype_str(dt));
    gt_compare_bits(label, dt, got, want, n);
    GT_FREE(got, want, hx, hw);
    GT_RELEASE(x, w, y, t);
  }
  gpux_elementwise_release(ew);
}

/* ------------------------------------------------------------------ empty */

/* float16 / bfloat16: the expression sees float (the exact values) and each output is
 * rounded once to its dtype; products and sums of two half values are exact in float, so
 * the results are the correctly rounded ones (no tolerance) */
static void test_half_exprs(void **state) {
  (void)state;
  const int64_t n = 1003, sh[1] = {1003};
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = k ? GPUX_BFLOAT16 : GPUX_FLOAT16;
    const gpux_binary_op op = k ? GPUX_ADD : GPUX_MUL;
    gpux_elementwise_t ew = ew_new("T a, T b", "T y", k ? "y = a + b" : "y = a * b", "hop", NULL);
    void *ha = gt_malloc((size_t)n * 2), *hb = gt_malloc((size_t)n * 2);
    gt_fill_random(ha, dt, n, GT_DOM_ANY, 70u + (uint64_t)k);
    gt_fill_random(hb, dt, n, GT_DOM_ANY, 80u + (uint64_t)k);
    gt_special_values((char *)ha + 2 * 10, dt, 40);
    ref_value *want = gt_malloc((size_t)n * sizeof *want);
    ref_binary(op, dt, n, ha, hb, want);
    gpux_array_t a = up(dt, 1, sh, ha), b = up(dt, 1, sh, hb), y = gt_poisoned(dt, 1, sh);
    gpux_arg args[3] = {AR(a), AR(b), AR(y)};
    call_expect(ew, 3, args, k ? "bfloat16 a + b" : "float16 a * b", y, dt, want, n, dt, ha, hb);
    /* the strided kernel: a reversed */
    gpux_array_t r = NULL, y2 = gt_poisoned(dt, 1, sh);
    const int64_t lo = -1, hi = -n - 1, st = -1;
    GT_OK(gpux_array_slice(&r, a, &lo, &hi, &st));
    void *hr = gt_malloc((size_t)n * 2);
    for (int64_t i = 0; i < n; i++) memcpy((char *)hr + 2 * i, (char *)ha + 2 * (n - 1 - i), 2);
    ref_binary(op, dt, n, hr, hb, want);
    gpux_arg args2[3] = {AR(r), AR(b), AR(y2)};
    call_expect(ew, 3, args2, "half, a reversed", y2, dt, want, n, dt, hr, hb);
    /* a half scalar (0x3555: 0.33325... in float16; 0x3eab: 0.333984375 in bfloat16) */
    gpux_elementwise_t ews = ew_new("T x, U s", "T z", "z = x * s", "hscalar", NULL);
    const uint16_t sbits = k ? 0x3eab : 0x3555;
    const double sv = ref_load(dt, &sbits, 0).f;
    gpux_array_t z = gt_poisoned(dt, 1, sh);
    gpux_arg args3[3] = {AR(a), k ? gpux_arg_bf16_bits(sbits) : gpux_arg_f16_bits(sbits), AR(z)};
    ref_binary_scalar(GPUX_MUL, dt, n, ha, sv, 0, want);
    call_expect(ews, 3, args3, "half x * half scalar", z, dt, want, n, dt, ha, NULL);
    /* declared types: a float16 input with a float32 output (exact: 11 x 24 bits) */
    gpux_elementwise_t ewd = ew_new("float16 a, float32 s", "float32 y", "y = a * s", "hdecl", NULL);
    if (!k) {
      gpux_array_t yf = gt_poisoned(GPUX_FLOAT32, 1, sh);
      gpux_arg args4[3] = {AR(a), gpux_arg_f32(1.5f), AR(yf)};
      for (int64_t i = 0; i < n; i++) want[i].f = ref_load(dt, ha, i).f * 1.5;
      call_expect(ewd, 3, args4, "float16 a * float32 s -> float32", yf, GPUX_FLOAT32, want, n, dt, ha, NULL);
      gpux_array_release(yf);
    }
    GT_RELEASE(a, b, y, r, y2, z);
    GT_FREE(ha, hb, hr, want);
    gpux_elementwise_release(ew);
    gpux_elementwise_release(ews);
    gpux_elementwise_release(ewd);
  }
}

static void test_empty(void **state) {
  (void)state;
  gpux_elementwise_t ew = ew_new(k_saxpy_in, k_saxpy_out, k_saxpy_body, "saxpy_empty", NULL);
  /* an empty output view of a poisoned base: success, nothing written */
  const int64_t shb[1] = {16}, sh0[1] = {0};
  gpux_array_t base = gt_poisoned(GPUX_FLOAT32, 1, shb), z = NULL, x = NULL;
  const int64_t st[1] = {3}, sp[1] = {3};
  GT_OK(gpux_array_slice(&z, base, st, sp, NULL));
  GT_OK(gpux_array_empty(&x, gt_ctx, GPUX_FLOAT32, 1, sh0));
  gpux_arg args[4] = {AR(x), AR(x), gpux_arg_f32(2.0f), AR(z)};
  GT_OK(gpux_elementwise_call(ew, 4, args));
  check_poisoned(base, "empty output view [3:3]");
  /* empty 2-d output (0, 5) with a (1, 5) input that broadcasts to it */
  const int64_t s05[2] = {0, 5}, s15[2] = {1, 5};
  gpux_array_t z2 = NULL, x2 = NULL, y2 = NULL;
  GT_OK(gpux_array_empty(&z2, gt_ctx, GPUX_FLOAT32, 2, s05));
  GT_OK(gpux_array_ones(&x2, gt_ctx, GPUX_FLOAT32, 2, s15));
  GT_OK(gpux_array_empty(&y2, gt_ctx, GPUX_FLOAT32, 2, s05));
  gpux_arg args2[4] = {AR(x2), AR(y2), gpux_arg_f32(2.0f), AR(z2)};
  GT_OK(gpux_elementwise_call(ew, 4, args2));
  int64_t shz[2];
  GT_OK(gpux_array_shape(shz, z2));
  GT_ASSERT(shz[0] == 0 && shz[1] == 5, "the empty output changed shape");
  /* the same object still computes */
  GT_RELEASE(z, x, z2, x2, y2, base);
  saxpy_check(ew, GPUX_FLOAT32, 3, 210);
  gpux_elementwise_release(ew);
}

/* ------------------------------------------------------------------ errors */

/* After an error: the context still computes, and a valid expression runs. */
static void check_usable(const char *after) {
  gt_smoke(gt_ctx);
  gpux_elementwise_t ew = NULL;
  gpux_status s = gpux_elementwise_create(&ew, gt_ctx, "T x, T y", "T z", "z = x - y", "after_err", NULL);
  GT_ASSERT(s == GPUX_SUCCESS, "after %s: a valid gpux_elementwise_create fails: %s: %s", after,
            gpux_status_name(s), gpux_last_error_message());
  const int64_t sh[1] = {7};
  gpux_array_t x = NULL, z = gt_poisoned(GPUX_FLOAT32, 1, sh);
  GT_OK(gpux_array_arange(&x, gt_ctx, GPUX_FLOAT32, 0, 7, 1));
  gpux_arg args[3] = {AR(x), gpux_arg_f32(0.5f), AR(z)};
  s = gpux_elementwise_call(ew, 3, args);
  GT_ASSERT(s == GPUX_SUCCESS, "after %s: a valid gpux_elementwise_call fails: %s: %s", after,
            gpux_status_name(s), gpux_last_error_message());
  float got[7];
  GT_OK(gpux_array_read(z, got, sizeof got));
  for (int i = 0; i < 7; i++)
    GT_ASSERT(got[i] == (float)i - 0.5f, "after %s: z[%d] = %g, expected %g", after, i, got[i],
              i - 0.5);
  GT_RELEASE(x, z);
  gpux_elementwise_release(ew);
}

static void expect_create_fails(gpux_status want, const char *in, const char *out,
                                const char *body, const char *why) {
  gpux_elementwise_t ew = NULL;
  gpux_status s = gpux_elementwise_create(&ew, gt_ctx, in, out, body, "bad", NULL);
  if (s == GPUX_SUCCESS) gpux_elementwise_release(ew);
  GT_ASSERT(s == want, "gpux_elementwise_create(\"%s\", \"%s\", \"%s\") [%s]: got %s, expected %s (%s)",
            in ? in : "NULL", out ? out : "NULL", body ? body : "NULL", why, gpux_status_name(s),
            gpux_status_name(want), s == GPUX_SUCCESS ? "" : gpux_last_error_message());
  GT_ASSERT(s == GPUX_SUCCESS || gpux_last_error_message()[0] != '\0',
            "[%s]: the error has no message", why);
}

static void test_errors_params(void **state) {
  (void)state;
  const gpux_status IA = GPUX_ERROR_INVALID_ARGUMENT;
  expect_create_fails(IA, "float32", "float32 z", "z = 1", "a type without a name");
  expect_create_fails(IA, "T x, float32", "T z", "z = x", "a type without a name");
  expect_create_fails(IA, "T x", "float32", "z = x", "an output type without a name");
  expect_create_fails(IA, "T x, T x", "T z", "z = x", "duplicate input names");
  expect_create_fails(IA, "T x, T y", "T x", "x = y", "an output named like an input");
  expect_create_fails(IA, "T x", "T z, T z", "z = x", "duplicate output names");
  expect_create_fails(IA, "T gpux_x", "T z", "z = gpux_x", "a reserved gpux_ name");
  expect_create_fails(IA, "T x", "T gpux_out", "gpux_out = x", "a reserved gpux_ output name");
  expect_create_fails(IA, "T x, T y z", "T w", "w = x", "three words in an entry");
  expect_create_fails(IA, "T x, T 9y", "T w", "w = x", "a name that is not an identifier");
  expect_create_fails(IA, "T x, T y!", "T w", "w = x", "an unknown character");
  expect_create_fails(IA, "T x,, T y", "T w", "w = x", "an empty entry");
  expect_create_fails(IA, "T x", "", "x", "zero outputs");
  expect_create_fails(IA, "T x", "  ", "x", "zero outputs (blanks)");
  /* NULL arguments */
  const gpux_status NP = GPUX_ERROR_NULL_POINTER;
  expect_create_fails(NP, "T x", NULL, "z = x", "out_params NULL");
  expect_create_fails(NP, "T x", "T z", NULL, "body NULL");
  expect_create_fails(NP, NULL, "T z", "z = 1", "in_params NULL");
  gpux_elementwise_t ew = NULL;
  GT_EXPECT(NP, gpux_elementwise_create(NULL, gt_ctx, "T x", "T z", "z = x", "n", NULL));
  GT_EXPECT(NP, gpux_elementwise_create(&ew, NULL, "T x", "T z", "z = x", "n", NULL));
  gpux_elementwise_release(NULL); /* accepted */
  check_usable("bad parameter lists");
}

static void test_errors_call(void **state) {
  (void)state;
  gpux_elementwise_t ew = ew_new("T x, T y", "T z", "z = x + y", "add2", NULL);
  gpux_elementwise_t ew2 = ew_new("T x, T y", "T s, T d", "s = x + y; d = x - y", "sd2", NULL);
  gpux_elementwise_t ewf = ew_new("float32 x, int32 k", "float32 y", "y = x * k", "fixed2", NULL);
  const int64_t s34[2] = {3, 4}, s54[2] = {5, 4}, s4[1] = {4}, s12[1] = {12};
  gpux_array_t a = NULL, b = NULL, o = gt_poisoned(GPUX_FLOAT32, 2, s34);
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 2, s34));
  GT_OK(gpux_array_ones(&b, gt_ctx, GPUX_FLOAT32, 2, s34));
  const gpux_status IA = GPUX_ERROR_INVALID_ARGUMENT, NP = GPUX_ERROR_NULL_POINTER;
  gpux_arg ok3[3] = {AR(a), AR(b), AR(o)};
  /* NULL */
  GT_EXPECT(NP, gpux_elementwise_call(NULL, 3, ok3));
  GT_EXPECT(NP, gpux_elementwise_call(ew, 3, NULL));
  gpux_arg nul[3] = {AR(a), AR(NULL), AR(o)};
  GT_EXPECT(NP, gpux_elementwise_call(ew, 3, nul));
  gpux_arg nulo[3] = {AR(a), AR(b), AR(NULL)};
  GT_EXPECT(NP, gpux_elementwise_call(ew, 3, nulo));
  const char *src = NULL;
  GT_EXPECT(NP, gpux_elementwise_source(NULL, ew, 3, ok3));
  GT_EXPECT(NP, gpux_elementwise_source(&src, NULL, 3, ok3));
  /* wrong nargs */
  GT_EXPECT(IA, gpux_elementwise_call(ew, 2, ok3));
  GT_EXPECT(IA, gpux_elementwise_call(ew, 0, ok3));
  GT_EXPECT(IA, gpux_elementwise_call(ew, -1, ok3));
  gpux_arg four[4] = {AR(a), AR(b), AR(o), AR(o)};
  GT_EXPECT(IA, gpux_elementwise_call(ew, 4, four));
  GT_EXPECT(IA, gpux_elementwise_source(&src, ew, 2, ok3));
  /* an output that is a scalar; local memory as an argument */
  gpux_arg so[3] = {AR(a), AR(b), gpux_arg_f32(1.0f)};
  GT_EXPECT(IA, gpux_elementwise_call(ew, 3, so));
  gpux_arg lo[3] = {AR(a), gpux_arg_local(64), AR(o)};
  GT_EXPECT(IA, gpux_elementwise_call(ew, 3, lo));
  check_poisoned(o, "after the failed calls (NULL, nargs, scalar output)");
  /* shapes that do not broadcast; an input larger than the output */
  gpux_array_t c54 = NULL, o4 = gt_poisoned(GPUX_FLOAT32, 1, s4), o12 = gt_poisoned(GPUX_FLOAT32, 1, s12);
  GT_OK(gpux_array_ones(&c54, gt_ctx, GPUX_FLOAT32, 2, s54));
  gpux_arg nb[3] = {AR(a), AR(c54), AR(o)};
  GT_EXPECT_SHAPES(gpux_elementwise_call(ew, 3, nb), 2, s34, 2, s54);
  gpux_arg big_in[3] = {AR(a), AR(b), AR(o4)};
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_elementwise_call(ew, 3, big_in));
  gpux_arg same_size[3] = {AR(a), AR(b), AR(o12)}; /* (3,4) into (12,): same size, other shape */
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_elementwise_call(ew, 3, same_size));
  /* outputs of different shapes */
  gpux_array_t o34b = gt_poisoned(GPUX_FLOAT32, 2, s34);
  gpux_arg diff[4] = {AR(a), AR(b), AR(o), AR(o4)};
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_elementwise_call(ew2, 4, diff));
  gpux_arg diff2[4] = {AR(a), AR(b), AR(o4), AR(o34b)};
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_elementwise_call(ew2, 4, diff2));
  check_poisoned(o, "after the failed calls (shapes)");
  check_poisoned(o4, "after the failed calls (shapes)");
  check_poisoned(o34b, "after the failed calls (shapes)");
  /* dtypes: a fixed float32 param given an int32 array (the message names the parameter);
   * T bound to float32 by x, then an int32 y; a float32 output declared T given float64 */
  gpux_array_t i34 = NULL, f64o = NULL;
  GT_OK(gpux_array_ones(&i34, gt_ctx, GPUX_INT32, 2, s34));
  gpux_array_t yo = gt_poisoned(GPUX_FLOAT32, 2, s34);
  gpux_arg dm1[3] = {AR(i34), AR(i34), AR(yo)};
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ewf, 3, dm1));
  gpux_arg dm2[3] = {AR(a), AR(i34), AR(o)};
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ew, 3, dm2));
  gpux_arg dm3[3] = {AR(a), AR(a), AR(i34)};
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ew, 3, dm3));
  gpux_arg dm4[3] = {AR(a), AR(i34), AR(i34)}; /* the fixed float32 output given int32 */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ewf, 3, dm4));
  if (gt_info.fp64) {
    GT_OK(gpux_array_zeros(&f64o, gt_ctx, GPUX_FLOAT64, 2, s34));
    gpux_arg dm6[3] = {AR(a), AR(b), AR(f64o)};
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ew, 3, dm6));
  }
  {
    gpux_elementwise_t ewn = ew_new("float32 xin, int32 kcount", "float32 yout", "yout = xin * kcount",
                                    "named", NULL);
    gpux_arg dm7[3] = {AR(i34), AR(i34), AR(yo)};
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ewn, 3, dm7));
    GT_ASSERT(strstr(gpux_last_error_message(), "xin") != NULL,
              "the dtype error does not name the parameter xin: \"%s\"", gpux_last_error_message());
    gpux_elementwise_release(ewn);
  }
  check_poisoned(o, "after the failed calls (dtypes)");
  check_poisoned(yo, "after the failed calls (dtypes)");
  /* float16 / bfloat16 arrays where the placeholder is bound to float32 by an earlier one:
   * a mismatch (test_half_exprs: the working calls) */
  gpux_array_t h = NULL, hb = NULL;
  GT_OK(gpux_array_zeros(&h, gt_ctx, GPUX_FLOAT16, 2, s34));
  GT_OK(gpux_array_zeros(&hb, gt_ctx, GPUX_BFLOAT16, 2, s34));
  gpux_arg u1[3] = {AR(a), AR(h), AR(o)};
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ew, 3, u1));
  gpux_arg u2[3] = {AR(hb), AR(h), AR(o)};
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_elementwise_call(ew, 3, u2));
  check_poisoned(o, "after the failed calls (float16)");
  /* partial overlap of an output with an input: shifted by one, and reversed */
  {
    const int64_t sb[1] = {1002};
    gpux_array_t base = NULL, xv = NULL, zv = NULL, rv = NULL, other = NULL;
    GT_OK(gpux_array_ones(&base, gt_ctx, GPUX_FLOAT32, 1, sb));
    const int64_t s0[1] = {0}, e0[1] = {1001}, s1[1] = {1}, e1[1] = {1002};
    GT_OK(gpux_array_slice(&xv, base, s0, e0, NULL));
    GT_OK(gpux_array_slice(&zv, base, s1, e1, NULL));
    const int64_t rs[1] = {-1}, re[1] = {-1003}, rstep[1] = {-1};
    GT_OK(gpux_array_slice(&rv, base, rs, re, rstep));
    GT_OK(gpux_array_ones(&other, gt_ctx, GPUX_FLOAT32, 1, e0));
    gpux_arg ov1[3] = {AR(xv), AR(other), AR(zv)};
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_elementwise_call(ew, 3, ov1));
    gpux_arg ov2[3] = {AR(other), AR(xv), AR(zv)};
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_elementwise_call(ew, 3, ov2));
    gpux_array_t ob = NULL;
    GT_OK(gpux_array_ones(&ob, gt_ctx, GPUX_FLOAT32, 1, sb));
    gpux_arg ov3[3] = {AR(rv), AR(ob), AR(base)}; /* out = base, in = base[::-1] */
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_elementwise_call(ew, 3, ov3));
    float *hb1 = gt_read_all(base, NULL);
    for (int i = 0; i < 1002; i++)
      GT_ASSERT(hb1[i] == 1.0f, "a call failing with GPUX_ERROR_OVERLAP wrote base[%d] = %g", i, hb1[i]);
    free(hb1);
    GT_RELEASE(ob, base, xv, zv, rv, other);
  }
  /* arrays of two contexts */
  {
    gpux_context_t c2 = gt_context_new();
    gpux_array_t a2 = NULL, o2 = NULL;
    GT_OK(gpux_array_ones(&a2, c2, GPUX_FLOAT32, 2, s34));
    GT_OK(gpux_array_zeros(&o2, c2, GPUX_FLOAT32, 2, s34));
    gpux_arg cm1[3] = {AR(a), AR(a2), AR(o)};
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_elementwise_call(ew, 3, cm1));
    gpux_arg cm2[3] = {AR(a2), AR(a2), AR(o2)}; /* all of the other context */
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_elementwise_call(ew, 3, cm2));
    gpux_arg cm3[3] = {AR(a), AR(b), AR(o2)};
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_elementwise_call(ew, 3, cm3));
    GT_RELEASE(a2, o2);
    gt_smoke(c2);
    gpux_context_release(c2);
  }
  check_poisoned(o, "after the failed calls (overlap, contexts)");
  /* the objects still work after all that */
  gpux_array_t hx = NULL;
  GT_OK(gpux_array_arange(&hx, gt_ctx, GPUX_FLOAT32, 0, 12, 1));
  gpux_array_t hx34 = NULL;
  GT_OK(gpux_array_reshape(&hx34, hx, 2, s34));
  gpux_arg fine[3] = {AR(hx34), AR(b), AR(o)};
  GT_OK(gpux_elementwise_call(ew, 3, fine));
  float got[12];
  GT_OK(gpux_array_read(o, got, sizeof got));
  for (int i = 0; i < 12; i++)
    GT_ASSERT(got[i] == (float)i + 1.0f, "after the errors: z[%d] = %g, expected %d", i, got[i], i + 1);
  GT_RELEASE(hx, hx34, h, hb, i34, f64o, yo, c54, o4, o12, o34b, a, b, o);
  gpux_elementwise_release(ew);
  gpux_elementwise_release(ew2);
  gpux_elementwise_release(ewf);
  check_usable("the call errors");
}

/* A compile error in the body: GPUX_ERROR_KERNEL_BUILD, the compiler's log in the message
 * (it names the undeclared identifier); again on a second call; then everything works. */
static void test_errors_build(void **state) {
  (void)state;
  const char *body = "z = a * x + y + undeclared_thing_42";
  gpux_elementwise_t ew = NULL;
  gpux_status s = gpux_elementwise_create(&ew, gt_ctx, k_saxpy_in, k_saxpy_out, body, "broken", NULL);
  if (s == GPUX_ERROR_KERNEL_BUILD) { /* a build at creation is allowed too */
    GT_ASSERT(strstr(gpux_last_error_message(), "undeclared_thing_42") != NULL,
              "the build error does not carry the compiler's log: \"%s\"", gpux_last_error_message());
    check_usable("a compile error");
    return;
  }
  GT_ASSERT(s == GPUX_SUCCESS, "gpux_elementwise_create(%s): %s: %s", body, gpux_status_name(s),
            gpux_last_error_message());
  const int64_t sh[1] = {33};
  gpux_array_t x = NULL, z = gt_poisoned(GPUX_FLOAT32, 1, sh);
  GT_OK(gpux_array_ones(&x, gt_ctx, GPUX_FLOAT32, 1, sh));
  gpux_arg args[4] = {AR(x), AR(x), gpux_arg_f32(2.0f), AR(z)};
  for (int k = 0; k < 2; k++) {
    gpux_clear_error();
    GT_EXPECT(GPUX_ERROR_KERNEL_BUILD, gpux_elementwise_call(ew, 4, args));
    const char *msg = gpux_last_error_message();
    GT_ASSERT(strstr(msg, "undeclared_thing_42") != NULL,
              "call %d: the build error does not carry the compiler's log: \"%s\"", k + 1, msg);
  }
  check_poisoned(z, "after the failed build");
  /* the generated source is still readable (generation does not compile) */
  const char *src = NULL;
  s = gpux_elementwise_source(&src, ew, 4, args);
  GT_ASSERT(s == GPUX_SUCCESS && src && strstr(src, body),
            "gpux_elementwise_source of a body that does not compile: %s", gpux_status_name(s));
  GT_RELEASE(x, z);
  gpux_elementwise_release(ew);
  check_usable("a compile error");
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_ewkernel");
  static const struct {
    const char *name;
    void (*fn)(void **);
    const dt_case *c;
  } list[] = {
      {"saxpy_float32", test_saxpy, &k_f32},
      {"saxpy_float64", test_saxpy, &k_f64},
      {"saxpy_int32", test_saxpy, &k_i32},
      {"saxpy_int64", test_saxpy, &k_i64},
      {"dtype_combinations", test_dtype_combos, NULL},
      {"leaky_relu_float32", test_leaky_relu, &k_f32},
      {"leaky_relu_float64", test_leaky_relu, &k_f64},
      {"broadcast_float32", test_broadcast, &k_f32},
      {"broadcast_int64", test_broadcast, &k_i64},
      {"scalar_inputs_float32", test_scalar_inputs, &k_f32},
      {"scalar_inputs_int32", test_scalar_inputs, &k_i32},
      {"views_float32", test_views, &k_f32},
      {"views_int64", test_views, &k_i64},
      {"views_uint8", test_views, &k_u8},
      {"strided_2d_float32", test_strided_2d, &k_f32},
      {"strided_2d_float64", test_strided_2d, &k_f64},
      {"fixed_types_mixed", test_fixed_types, NULL},
      {"uint8_and_bool", test_uint8_bool, NULL},
      {"two_outputs_float32", test_two_outputs, &k_f32},
      {"two_outputs_int32", test_two_outputs, &k_i32},
      {"inplace_float32", test_inplace, &k_f32},
      {"inplace_int64", test_inplace, &k_i64},
      {"preamble", test_preamble, NULL},
      {"fusion_relu_float32", test_fusion_relu, &k_f32},
      {"fusion_relu_float64", test_fusion_relu, &k_f64},
      {"fusion_relu_int32", test_fusion_relu, &k_i32},
      {"fusion_relu_int64", test_fusion_relu, &k_i64},
      {"fusion_sigmoid_float32", test_fusion_sigmoid, &k_f32},
      {"fusion_sigmoid_float64", test_fusion_sigmoid, &k_f64},
      {"divmod_int32", test_divmod, &k_i32},
      {"divmod_int64", test_divmod, &k_i64},
      {"divmod_uint8", test_divmod, &k_u8},
      {"divmod_float32", test_divmod, &k_f32},
      {"divmod_float64", test_divmod, &k_f64},
      {"fusion_misc_float32", test_fusion_misc, &k_f32},
      {"fusion_misc_int32", test_fusion_misc, &k_i32},
      {"fusion_misc_uint8", test_fusion_misc, &k_u8},
      {"fusion_misc_float64", test_fusion_misc, &k_f64},
      {"fusion_misc_int64", test_fusion_misc, &k_i64},
      {"ops_prelude_float32", test_ops_prelude, &k_f32},
      {"ops_prelude_float64", test_ops_prelude, &k_f64},
      {"ops_prelude_int32", test_ops_prelude, &k_i32},
      {"ops_prelude_int64", test_ops_prelude, &k_i64},
      {"ops_prelude_uint8", test_ops_prelude, &k_u8},
      {"ops_prelude_int8", test_ops_prelude, &k_i8},
      {"ops_prelude_int16", test_ops_prelude, &k_i16},
      {"ops_prelude_uint16", test_ops_prelude, &k_u16},
      {"ops_prelude_uint32", test_ops_prelude, &k_u32},
      {"ops_prelude_uint64", test_ops_prelude, &k_u64},
      {"divmod_int8", test_divmod, &k_i8},
      {"divmod_uint16", test_divmod, &k_u16},
      {"divmod_uint64", test_divmod, &k_u64},
      {"fusion_misc_int16", test_fusion_misc, &k_i16},
      {"fusion_misc_uint32", test_fusion_misc, &k_u32},
      {"half_exprs", test_half_exprs, NULL},
      {"empty", test_empty, NULL},
      {"errors_params", test_errors_params, NULL},
      {"errors_call", test_errors_call, NULL},
      {"errors_build", test_errors_build, NULL},
  };
  enum { N = sizeof list / sizeof list[0] };
  static struct CMUnitTest tests[N];
  for (size_t i = 0; i < N; i++)
    tests[i] = (struct CMUnitTest){list[i].name, list[i].fn, NULL, NULL, (void *)list[i].c};
  int failed = gt_run("ewkernel", tests, N);
  gt_shutdown();
  return failed ? 1 : 0;
}
