/* gpux tests: the complex dtypes (complex64, complex128), first part: creation, transfers,
 * views, copies, fill, casts between every pair involving a complex dtype (bits against
 * tests/ref, edge values in either component), promotion, and the ops that reject them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

static const gpux_dtype k_cplx[] = {GPUX_COMPLEX64, GPUX_COMPLEX128};
#define DT_ALL(a, dt) (gpux_dtype)GPUX_KDT_##dt,
static const gpux_dtype k_all[] = {GPUX_DT_CAST(DT_ALL, _)};
#define N_ALL ((int)(sizeof k_all / sizeof k_all[0]))
static const int64_t k_sizes[] = {0, 1, 7, 4099};

static int is_cplx(gpux_dtype dt) { return dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128; }

/* float64 edge values: signed zeros, subnormals, max, inf, NaN with payloads, integers at and
 * past the integer dtypes' limits, halfway cases */
static double edge(int i) {
  static const uint64_t nan_bits[] = {0x7ff8000000000001ull, 0xfff4000000000abcull,
                                      0x7ff0000000000001ull};
  static const double v[] = {0.0, -0.0, 1.0, -1.0, 1.5, -2.5, 0.49999997, 255.5, 256.0,
                             -129.0, 65504.0, 65520.0, 3e9, -3e9, 9.3e18, 1.9e19, -9.3e18,
                             1e300, -1e300, 3.4028234663852886e38, 3.5e38, 5e-324,
                             1.1754942e-38, 1e-45, 6e-8, 2.2250738585072014e-308, 0.1,
                             1.0000001, 16777217.0, 2147483648.0, INFINITY, -INFINITY};
  const int nv = (int)(sizeof v / sizeof v[0]), nn = (int)(sizeof nan_bits / sizeof nan_bits[0]);
  i %= nv + nn;
  if (i < nv) return v[i];
  double d;
  memcpy(&d, &nan_bits[i - nv], 8);
  return d;
}
#define N_EDGE 35

/* n elements of dt: edge values (both components of complex ones, paired differently), then
 * pseudo-random ones */
static void *make_input(gpux_dtype dt, int64_t n) {
  const size_t es = gpux_dtype_size(dt);
  unsigned char *p = malloc((size_t)n * es + 1);
  assert_non_null(p);
  uint64_t r = 0x9e3779b97f4a7c15ull;
  for (int64_t i = 0; i < n; i++) {
    double re, im;
    if (i < N_EDGE * 3) {
      re = edge((int)i);
      im = edge((int)(i * 7 + 3));
    } else {
      r = r * 6364136223846793005ull + 1442695040888963407ull;
      re = (double)(int64_t)(r >> 11) / 4096.0 - 1e12;
      im = (double)(int32_t)(r >> 32) / 3.0;
    }
    if (is_cplx(dt)) {
      const gpux_dtype c = dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
      const size_t cs = es / 2;
      ref_cast_bits(GPUX_FLOAT64, c, 1, &re, p + (size_t)i * es);
      ref_cast_bits(GPUX_FLOAT64, c, 1, &im, p + (size_t)i * es + cs);
    } else if (ref_dtype_is_int(dt) && i >= N_EDGE * 3) { /* every bit pattern */
      memcpy(p + (size_t)i * es, &r, es);
    } else {
      ref_cast_bits(GPUX_FLOAT64, dt, 1, &re, p + (size_t)i * es);
    }
  }
  return p;
}

static void *poisoned(size_t bytes) {
  void *p = malloc(bytes + 1);
  assert_non_null(p);
  memset(p, GT_POISON_BYTE, bytes + 1);
  return p;
}

static void test_complex_dtype_info(void **state) {
  (void)state;
  assert_string_equal(gpux_dtype_name(GPUX_COMPLEX64), "complex64");
  assert_string_equal(gpux_dtype_name(GPUX_COMPLEX128), "complex128");
  assert_int_equal(gpux_dtype_size(GPUX_COMPLEX64), 8);
  assert_int_equal(gpux_dtype_size(GPUX_COMPLEX128), 16);
  assert_int_equal(sizeof(gpux_complex64), 8);
  assert_int_equal(sizeof(gpux_complex128), 16);
  gpux_complex64 a = gpux_complex64_make(1.5f, -2.0f);
  gpux_complex128 b = gpux_complex128_make(-0.0, 3.25);
  assert_true(a.re == 1.5f && a.im == -2.0f);
  assert_true(b.re == 0.0 && signbit(b.re) && b.im == 3.25);
  assert_int_equal(GPUX_COMPLEX64, GPUX_KDT_c64);
  assert_int_equal(GPUX_COMPLEX128, GPUX_KDT_c128);
}

/* upload, download (poisoned first), copies, contiguous */
static void test_complex_round_trip(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    for (size_t s = 0; s < sizeof k_sizes / sizeof k_sizes[0]; s++) {
      const int64_t n = k_sizes[s];
      void *in = make_input(dt, n), *out = poisoned((size_t)n * es);
      gpux_array_t a = NULL, b = NULL;
      GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, &n, in));
      GT_OK(gpux_array_read(a, out, (size_t)n * es));
      assert_memory_equal(in, out, (size_t)n * es + 0);
      assert_int_equal(((unsigned char *)out)[n * es], GT_POISON_BYTE);
      GT_OK(gpux_array_copy(&b, a));
      memset(out, GT_POISON_BYTE, (size_t)n * es);
      GT_OK(gpux_array_read(b, out, (size_t)n * es));
      if (n) assert_memory_equal(in, out, (size_t)n * es);
      gpux_array_release(a);
      gpux_array_release(b);
      free(in);
      free(out);
    }
  }
}

/* transpose, negative-step slices, reshape: the copies by element size 8 and 16 */
static void test_complex_views(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const size_t es = gpux_dtype_size(dt);
    const int64_t R = 37, C = 53, shape[2] = {R, C}, n = R * C;
    unsigned char *in = make_input(dt, n);
    gpux_array_t a = NULL, t = NULL, tc = NULL, sl = NULL, r = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 2, shape, in));
    GT_OK(gpux_array_transpose(&t, a));
    GT_OK(gpux_array_contiguous(&tc, t));
    unsigned char *out = poisoned((size_t)n * es);
    GT_OK(gpux_array_read(tc, out, (size_t)n * es));
    for (int64_t i = 0; i < R; i++)
      for (int64_t j = 0; j < C; j++)
        assert_memory_equal(out + (size_t)(j * R + i) * es, in + (size_t)(i * C + j) * es, es);
    /* a[::-2, 1::3] */
    const int64_t st[2] = {-1, 1}, sp[2] = {-2, 3};
    GT_OK(gpux_array_slice(&sl, a, st, NULL, sp));
    const int64_t rn = (R + 1) / 2, cn = (C - 1 + 2) / 3;
    memset(out, GT_POISON_BYTE, (size_t)n * es);
    GT_OK(gpux_array_read(sl, out, (size_t)(rn * cn) * es));
    for (int64_t i = 0; i < rn; i++)
      for (int64_t j = 0; j < cn; j++)
        assert_memory_equal(out + (size_t)(i * cn + j) * es,
                            in + (size_t)((R - 1 - 2 * i) * C + 1 + 3 * j) * es, es);
    /* reshape of the transposed view: a copy */
    const int64_t rs[1] = {n};
    GT_OK(gpux_array_reshape(&r, t, 1, rs));
    memset(out, GT_POISON_BYTE, (size_t)n * es);
    GT_OK(gpux_array_read(r, out, (size_t)n * es));
    for (int64_t i = 0; i < R; i++)
      for (int64_t j = 0; j < C; j++)
        assert_memory_equal(out + (size_t)(j * R + i) * es, in + (size_t)(i * C + j) * es, es);
    /* write into a strided view */
    GT_OK(gpux_array_write(t, out, (size_t)n * es));
    GT_OK(gpux_array_read(a, out, (size_t)n * es));
    assert_memory_equal(out, in, (size_t)n * es);
    gpux_array_release(a);
    gpux_array_release(t);
    gpux_array_release(tc);
    gpux_array_release(sl);
    gpux_array_release(r);
    free(in);
    free(out);
  }
}

static void check_filled(gpux_array_t a, gpux_dtype dt, int64_t n, double re, double im) {
  const size_t es = gpux_dtype_size(dt);
  unsigned char *out = poisoned((size_t)n * es), want[16];
  double v[2] = {re, im};
  if (is_cplx(dt))
    ref_cast_bits(GPUX_FLOAT64, dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64, 2, v, want);
  else
    ref_cast_bits(GPUX_FLOAT64, dt, 1, v, want);
  GT_OK(gpux_array_read(a, out, (size_t)n * es));
  for (int64_t i = 0; i < n; i++) assert_memory_equal(out + (size_t)i * es, want, es);
  assert_int_equal(out[n * es], GT_POISON_BYTE);
  free(out);
}

static void test_complex_fill(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    for (size_t s = 0; s < sizeof k_sizes / sizeof k_sizes[0]; s++) {
      const int64_t n = k_sizes[s];
      gpux_array_t a = NULL;
      GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 1, &n));
      check_filled(a, dt, n, 0.0, 0.0);
      gpux_array_release(a);
      GT_OK(gpux_array_ones(&a, gt_ctx, dt, 1, &n));
      check_filled(a, dt, n, 1.0, 0.0);
      gpux_array_release(a);
      GT_OK(gpux_array_full(&a, gt_ctx, dt, 1, &n, -2.5));
      check_filled(a, dt, n, -2.5, 0.0);
      gpux_array_release(a);
      for (int e = 0; e < N_EDGE; e++) {
        const double re = edge(e), im = edge(e * 5 + 2);
        GT_OK(gpux_array_full_complex(&a, gt_ctx, dt, 1, &n, re, im));
        check_filled(a, dt, n, re, im);
        gpux_array_release(a);
      }
      GT_OK(gpux_array_empty(&a, gt_ctx, dt, 1, &n));
      gpux_array_release(a);
    }
  }
  /* a real dtype takes no imaginary part */
  const int64_t n = 5;
  gpux_array_t a = NULL;
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_array_full_complex(&a, gt_ctx, GPUX_FLOAT32, 1, &n, 1.0, 2.0));
  assert_null(a);
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_array_full_complex(&a, gt_ctx, GPUX_INT32, 1, &n, 1.0, NAN));
  GT_OK(gpux_array_full_complex(&a, gt_ctx, GPUX_INT16, 1, &n, 7.9, -0.0));
  check_filled(a, GPUX_INT16, n, 7.9, 0.0);
  gpux_array_release(a);
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE,
            gpux_array_full_complex(&a, gt_ctx, (gpux_dtype)GPUX_DTYPE_COUNT, 1, &n, 1.0, 0.0));
}

/* one cast pair, layouts c (contiguous) and n (a strided input), against ref_cast_bits */
typedef struct cast_case {
  gpux_dtype from, to;
} cast_case;

static void test_cast(void **state) {
  const cast_case *cc = (const cast_case *)*state;
  if (!gt_dtype_available(cc->from) || !gt_dtype_available(cc->to)) skip();
  const size_t fs = gpux_dtype_size(cc->from), ts = gpux_dtype_size(cc->to);
  for (size_t s = 0; s < sizeof k_sizes / sizeof k_sizes[0]; s++) {
    const int64_t n = k_sizes[s], n2 = 2 * n;
    unsigned char *in = make_input(cc->from, n2), *want = malloc((size_t)n2 * ts + 1),
                  *out = poisoned((size_t)n2 * ts);
    assert_non_null(want);
    gpux_array_t a = NULL, b = NULL, v = NULL, bv = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, cc->from, 1, &n2, in));
    /* layout c: the whole array */
    ref_cast_bits(cc->from, cc->to, n2, in, want);
    GT_OK(gpux_array_cast(&b, a, cc->to));
    GT_OK(gpux_array_read(b, out, (size_t)n2 * ts));
    for (int64_t i = 0; i < n2; i++)
      if (memcmp(out + (size_t)i * ts, want + (size_t)i * ts, ts)) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s -> %s, element %lld of %lld differs (layout c)",
                 gt_dtype_str(cc->from), gt_dtype_str(cc->to), (long long)i, (long long)n2);
        fail_msg("%s", msg);
      }
    assert_int_equal(out[n2 * ts], GT_POISON_BYTE);
    /* layout n: every other element */
    const int64_t st = 1, sp = 2;
    GT_OK(gpux_array_slice(&v, a, &st, NULL, &sp));
    GT_OK(gpux_array_cast(&bv, v, cc->to));
    memset(out, GT_POISON_BYTE, (size_t)n2 * ts);
    GT_OK(gpux_array_read(bv, out, (size_t)n * ts));
    for (int64_t i = 0; i < n; i++)
      if (memcmp(out + (size_t)i * ts, want + (size_t)(2 * i + 1) * ts, ts))
        fail_msg("%s -> %s, element %lld differs (layout n)", gt_dtype_str(cc->from),
                 gt_dtype_str(cc->to), (long long)i);
    (void)fs;
    gpux_array_release(a);
    gpux_array_release(b);
    gpux_array_release(v);
    gpux_array_release(bv);
    free(in);
    free(want);
    free(out);
  }
}

/* the documented rules on values known by heart (the reference's own check) */
static void test_complex_cast_rules(void **state) {
  (void)state;
  gpux_complex128 z[3] = {{-3.75, 2.0}, {0.0, -0.0}, {-0.0, 1e-300}};
  int32_t i32[3];
  uint8_t b8[3];
  gpux_complex64 c64[3];
  ref_cast_bits(GPUX_COMPLEX128, GPUX_INT32, 3, z, i32);
  ref_cast_bits(GPUX_COMPLEX128, GPUX_BOOL, 3, z, b8);
  ref_cast_bits(GPUX_COMPLEX128, GPUX_COMPLEX64, 3, z, c64);
  assert_int_equal(i32[0], -3);
  assert_int_equal(b8[0], 1);
  assert_int_equal(b8[1], 0);
  assert_int_equal(b8[2], 1); /* the imaginary part counts */
  assert_true(c64[0].re == -3.75f && c64[0].im == 2.0f && c64[2].im == 0.0f);
  double d = -7.5;
  gpux_complex128 w;
  ref_cast_bits(GPUX_FLOAT64, GPUX_COMPLEX128, 1, &d, &w);
  assert_true(w.re == -7.5 && w.im == 0.0 && !signbit(w.im));
}

static void test_complex_promotion(void **state) {
  (void)state;
  static const struct {
    gpux_dtype a, b, r;
  } t[] = {
      {GPUX_COMPLEX64, GPUX_FLOAT64, GPUX_COMPLEX128}, {GPUX_COMPLEX64, GPUX_INT64, GPUX_COMPLEX128},
      {GPUX_INT8, GPUX_COMPLEX64, GPUX_COMPLEX64},     {GPUX_FLOAT16, GPUX_COMPLEX64, GPUX_COMPLEX64},
      {GPUX_BOOL, GPUX_COMPLEX64, GPUX_COMPLEX64},     {GPUX_COMPLEX64, GPUX_COMPLEX128, GPUX_COMPLEX128},
      {GPUX_COMPLEX64, GPUX_FLOAT32, GPUX_COMPLEX64},  {GPUX_INT16, GPUX_COMPLEX64, GPUX_COMPLEX64},
      {GPUX_INT32, GPUX_COMPLEX64, GPUX_COMPLEX128},   {GPUX_UINT64, GPUX_COMPLEX64, GPUX_COMPLEX128},
      {GPUX_UINT16, GPUX_COMPLEX64, GPUX_COMPLEX64},   {GPUX_BFLOAT16, GPUX_COMPLEX64, GPUX_COMPLEX64},
      {GPUX_COMPLEX128, GPUX_INT64, GPUX_COMPLEX128},  {GPUX_COMPLEX64, GPUX_COMPLEX64, GPUX_COMPLEX64},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    gpux_dtype r, r2;
    GT_OK(gpux_result_type(&r, t[i].a, t[i].b));
    GT_OK(gpux_result_type(&r2, t[i].b, t[i].a));
    if (r != t[i].r || r2 != t[i].r)
      fail_msg("%s, %s -> %s / %s, want %s", gt_dtype_str(t[i].a), gt_dtype_str(t[i].b),
               gt_dtype_str(r), gt_dtype_str(r2), gt_dtype_str(t[i].r));
  }
  /* every real dtype with a complex one gives a complex one */
  for (int a = 0; a < N_ALL; a++) {
    gpux_dtype r;
    GT_OK(gpux_result_type(&r, k_all[a], GPUX_COMPLEX64));
    assert_true(is_cplx(r));
  }
  /* scalars (NEP 50) */
  static const struct {
    gpux_dtype a;
    gpux_scalar_kind k;
    gpux_dtype r;
  } s[] = {
      {GPUX_COMPLEX64, GPUX_SCALAR_FLOAT, GPUX_COMPLEX64},  {GPUX_COMPLEX64, GPUX_SCALAR_INT, GPUX_COMPLEX64},
      {GPUX_COMPLEX64, GPUX_SCALAR_BOOL, GPUX_COMPLEX64},   {GPUX_COMPLEX64, GPUX_SCALAR_COMPLEX, GPUX_COMPLEX64},
      {GPUX_FLOAT32, GPUX_SCALAR_COMPLEX, GPUX_COMPLEX64},  {GPUX_FLOAT16, GPUX_SCALAR_COMPLEX, GPUX_COMPLEX64},
      {GPUX_FLOAT64, GPUX_SCALAR_COMPLEX, GPUX_COMPLEX128}, {GPUX_INT8, GPUX_SCALAR_COMPLEX, GPUX_COMPLEX128},
      {GPUX_BOOL, GPUX_SCALAR_COMPLEX, GPUX_COMPLEX128},    {GPUX_COMPLEX128, GPUX_SCALAR_FLOAT, GPUX_COMPLEX128},
  };
  for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
    gpux_dtype r;
    GT_OK(gpux_result_type_scalar(&r, s[i].a, s[i].k, 1.0));
    if (r != s[i].r)
      fail_msg("%s with scalar kind %d -> %s, want %s", gt_dtype_str(s[i].a), (int)s[i].k,
               gt_dtype_str(r), gt_dtype_str(s[i].r));
  }
}

/* every op outside the copy family and the complex elementwise ops rejects complex with
 * GPUX_ERROR_UNSUPPORTED_DTYPE and a message naming the dtype */
#define REJECT(call)                                                                        \
  do {                                                                                      \
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, (call));                                        \
    if (!strstr(gpux_last_error_message(), gpux_dtype_name(dt)))                            \
      fail_msg("%s: the message \"%s\" does not name %s", #call, gpux_last_error_message(), \
               gpux_dtype_name(dt));                                                        \
  } while (0)

static void test_complex_rejects(void **state) {
  (void)state;
  for (int c = 0; c < 2; c++) {
    const gpux_dtype dt = k_cplx[c];
    if (!gt_dtype_available(dt)) continue;
    const int64_t shape[2] = {4, 4};
    gpux_array_t a = NULL, b = NULL, o = NULL, cond = NULL;
    GT_OK(gpux_array_ones(&a, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_ones(&b, gt_ctx, dt, 2, shape));
    GT_OK(gpux_array_ones(&cond, gt_ctx, GPUX_BOOL, 2, shape));
    /* the elementwise ops complex does not take (tests/test_complex_ew.c tests the others) */
    for (int op = 0; op < GPUX_BINARY_OP_COUNT; op++) {
      if (ref_binary_supported((gpux_binary_op)op, dt)) continue;
      assert_int_equal(gpux_binary_op_supports((gpux_binary_op)op, dt), 0);
      REJECT(gpux_binary(&o, (gpux_binary_op)op, a, b));
      assert_null(o);
      REJECT(gpux_binary_scalar(&o, (gpux_binary_op)op, a, 1.0));
      REJECT(gpux_binary_promote(&o, (gpux_binary_op)op, a, b));
    }
    for (int op = 0; op < GPUX_UNARY_OP_COUNT; op++) {
      if (ref_unary_supported((gpux_unary_op)op, dt)) continue;
      assert_int_equal(gpux_unary_op_supports((gpux_unary_op)op, dt), 0);
      REJECT(gpux_unary(&o, (gpux_unary_op)op, a));
    }
    for (int op = 0; op < GPUX_REDUCE_OP_COUNT; op++) {
      gpux_dtype r;
      const char *nm = gpux_reduce_op_name((gpux_reduce_op)op);
      if (!nm) continue;
      /* complex numbers have no order; the norms are left out (tests/test_complex_reduce.c
       * covers the reductions complex has: sum, prod, mean, any, all, count_nonzero, var,
       * std, and the scans and normals) */
      if (op != GPUX_REDUCE_MIN && op != GPUX_REDUCE_MAX && op != GPUX_REDUCE_ARGMIN &&
          op != GPUX_REDUCE_ARGMAX && op != GPUX_REDUCE_NORM_L1 &&
          op != GPUX_REDUCE_NORM_L2 && op != GPUX_REDUCE_NORM_MAX)
        continue;
      REJECT(gpux_reduce_result_dtype(&r, (gpux_reduce_op)op, dt));
      REJECT(gpux_reduce(&o, (gpux_reduce_op)op, a, NULL, GPUX_ALL_AXES, 0));
    }
    gpux_array_t cm = NULL;
    GT_OK(gpux_array_zeros(&cm, gt_ctx, dt, 2, shape));
    /* gemm, matmul, gemv and dot take complex (tests/test_complex_gemm.c); a complex dot
     * product does not fit dot_scalar's double */
    const int64_t vn = 4;
    gpux_array_t v = NULL, y = NULL;
    GT_OK(gpux_array_ones(&v, gt_ctx, dt, 1, &vn));
    GT_OK(gpux_array_zeros(&y, gt_ctx, dt, 1, &vn));
    double dv = 0;
    REJECT(gpux_dot_scalar(&dv, v, v));
    REJECT(gpux_reduce_scalar(&dv, GPUX_REDUCE_SUM, v)); /* a complex result: the _complex form */
    gpux_array_release(v);
    gpux_array_release(y);
    gpux_generator_t g = NULL;
    GT_OK(gpux_generator_create(&g, 1));
    REJECT(gpux_random_uniform(cm, g, 0.0, 1.0));
    gpux_generator_release(g);
    REJECT(gpux_array_arange(&o, gt_ctx, dt, 0.0, 5.0, 1.0));
    assert_null(o);
    REJECT(gpux_array_linspace(&o, gt_ctx, dt, 0.0, 1.0, 5));
    assert_null(o);
    gpux_array_release(cm);
    gpux_array_release(a);
    gpux_array_release(b);
    gpux_array_release(cond);
  }
}

/* user kernels: elementwise kernels take no complex arrays or scalars yet, run-time kernels
 * no complex scalar (gpux_arg holds none); a complex array is memory like any other */
static void test_complex_user_kernels(void **state) {
  (void)state;
  const gpux_dtype dt = GPUX_COMPLEX64;
  const int64_t n = 8;
  gpux_array_t a = NULL, z = NULL;
  GT_OK(gpux_array_ones(&a, gt_ctx, dt, 1, &n));
  GT_OK(gpux_array_zeros(&z, gt_ctx, dt, 1, &n));
  gpux_elementwise_t ew = NULL;
  GT_OK(gpux_elementwise_create(&ew, gt_ctx, "T x", "T z", "z = x", "cplx_copy", NULL));
  gpux_arg args[2] = {gpux_arg_array(a), gpux_arg_array(z)};
  REJECT(gpux_elementwise_call(ew, 2, args));
  gpux_elementwise_release(ew);
  gpux_program_t p = NULL;
  GT_OK(gpux_program_create(&p, gt_ctx, GPUX_SOURCE_DIALECT,
                            "GPUX_KERNEL parts(GPUX_GLOBAL void *p, const float s) {\n"
                            "  ((GPUX_GLOBAL float *)p)[GPUX_GLOBAL_ID(0)] = s;\n"
                            "}\n",
                            NULL));
  gpux_kernel_t k = NULL;
  GT_OK(gpux_kernel_create(&k, p, "parts"));
  gpux_arg c = gpux_arg_f32(1.0f);
  c.dtype = dt; /* a complex scalar: its value has no field in gpux_arg */
  REJECT(gpux_kernel_set_arg(k, 1, &c));
  /* the array itself, through void *: two float parts per element */
  const gpux_arg arr = gpux_arg_array(z);
  GT_OK(gpux_kernel_set_arg(k, 0, &arr));
  const gpux_arg s = gpux_arg_f32(-3.0f);
  GT_OK(gpux_kernel_set_arg(k, 1, &s));
  const uint64_t grid[1] = {2 * (uint64_t)n};
  const uint32_t block[1] = {1};
  GT_OK(gpux_kernel_launch(k, 1, grid, block, 0));
  gpux_complex64 got[8];
  GT_OK(gpux_array_read(z, got, sizeof got));
  for (int i = 0; i < 8; i++) assert_true(got[i].re == -3.0f && got[i].im == -3.0f);
  gpux_kernel_release(k);
  gpux_program_release(p);
  gpux_array_release(a);
  gpux_array_release(z);
}

int main(void) {
  gt_init("test_complex");
  static cast_case cc[N_ALL * N_ALL];
  static char names[N_ALL * N_ALL][64];
  struct CMUnitTest tests[16 + N_ALL * N_ALL];
  size_t n = 0;
#define ADD(f) tests[n++] = (struct CMUnitTest){#f, f, NULL, NULL, NULL}
  ADD(test_complex_dtype_info);
  ADD(test_complex_round_trip);
  ADD(test_complex_views);
  ADD(test_complex_fill);
  ADD(test_complex_cast_rules);
  ADD(test_complex_promotion);
  ADD(test_complex_rejects);
  ADD(test_complex_user_kernels);
#undef ADD
  int k = 0;
  for (int a = 0; a < N_ALL; a++)
    for (int b = 0; b < N_ALL; b++) {
      if (!is_cplx(k_all[a]) && !is_cplx(k_all[b])) continue;
      cc[k] = (cast_case){k_all[a], k_all[b]};
      snprintf(names[k], sizeof names[k], "complex_cast_%s_to_%s", gt_dtype_str(k_all[a]),
               gt_dtype_str(k_all[b]));
      tests[n++] = (struct CMUnitTest){names[k], test_cast, NULL, NULL, &cc[k]};
      k++;
    }
  int failed = gt_run("complex", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
