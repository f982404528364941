/* gpux tests: every error path of the public API returns its documented status and leaves a
 * message; the context keeps working after errors (including out of device memory). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define E_NULL(call) GT_EXPECT(GPUX_ERROR_NULL_POINTER, call)

/* 1 when the integers of shape appear consecutively among the integers of msg. */


/* ------------------------------------------------------------------ NULL */

static void test_null_context_calls(void **state) {
  (void)state;
  gpux_backend_kind k;
  gpux_device_info info;
  gpux_pool_stats st;
  gpux_event_t ev = NULL;
  double ms;
  int n;
  E_NULL(gpux_context_create(NULL, GPUX_BACKEND_DEFAULT, -1));
  E_NULL(gpux_context_synchronize(NULL));
  E_NULL(gpux_context_backend(NULL, gt_ctx));
  E_NULL(gpux_context_backend(&k, NULL));
  E_NULL(gpux_context_device_info(NULL, gt_ctx));
  E_NULL(gpux_context_device_info(&info, NULL));
  E_NULL(gpux_context_set_option(NULL, GPUX_OPTION_POOL_LIMIT_BYTES, 0));
  E_NULL(gpux_device_count(NULL, gt_info.backend));
  E_NULL(gpux_device_get_info(NULL, gt_info.backend, 0));
  E_NULL(gpux_backend_from_name(NULL, "cuda"));
  E_NULL(gpux_backend_from_name(&k, NULL));
  E_NULL(gpux_pool_get_stats(NULL, gt_ctx));
  E_NULL(gpux_pool_get_stats(&st, NULL));
  E_NULL(gpux_pool_trim(NULL));
  E_NULL(gpux_event_create(NULL, gt_ctx));
  E_NULL(gpux_event_create(&ev, NULL));
  E_NULL(gpux_event_record(NULL));
  E_NULL(gpux_event_synchronize(NULL));
  gpux_status s = gpux_event_create(&ev, gt_ctx);
  if (s == GPUX_SUCCESS) {
    GT_OK(gpux_event_record(ev));
    E_NULL(gpux_event_elapsed_ms(NULL, ev, ev));
    E_NULL(gpux_event_elapsed_ms(&ms, NULL, ev));
    E_NULL(gpux_event_elapsed_ms(&ms, ev, NULL));
    gpux_event_release(ev);
  }
  (void)n;
}

static void test_null_array_calls(void **state) {
  (void)state;
  const int64_t sh[2] = {3, 4}, r[1] = {12}, st[2] = {0, 0}, sp[2] = {3, 4}, stp[2] = {1, 1};
  const int axes[2] = {1, 0};
  float buf[12] = {0};
  gpux_array_t a = NULL, o = NULL;
  void *p = NULL;
  size_t bytes = 0;
  gpux_dtype dt;
  int nd, contig;
  int64_t i64[GPUX_MAX_DIMS];
  size_t nb;
  gpux_context_t c;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, sh, buf));

  E_NULL(gpux_array_empty(NULL, gt_ctx, GPUX_FLOAT32, 2, sh));
  E_NULL(gpux_array_empty(&o, NULL, GPUX_FLOAT32, 2, sh));
  E_NULL(gpux_array_empty(&o, gt_ctx, GPUX_FLOAT32, 2, NULL));
  E_NULL(gpux_array_zeros(NULL, gt_ctx, GPUX_FLOAT32, 2, sh));
  E_NULL(gpux_array_zeros(&o, NULL, GPUX_FLOAT32, 2, sh));
  E_NULL(gpux_array_zeros(&o, gt_ctx, GPUX_FLOAT32, 2, NULL));
  E_NULL(gpux_array_ones(NULL, gt_ctx, GPUX_FLOAT32, 2, sh));
  E_NULL(gpux_array_ones(&o, NULL, GPUX_FLOAT32, 2, sh));
  E_NULL(gpux_array_ones(&o, gt_ctx, GPUX_FLOAT32, 2, NULL));
  E_NULL(gpux_array_full(NULL, gt_ctx, GPUX_FLOAT32, 2, sh, 1));
  E_NULL(gpux_array_full(&o, NULL, GPUX_FLOAT32, 2, sh, 1));
  E_NULL(gpux_array_full(&o, gt_ctx, GPUX_FLOAT32, 2, NULL, 1));
  E_NULL(gpux_array_arange(NULL, gt_ctx, GPUX_FLOAT32, 0, 10, 1));
  E_NULL(gpux_array_arange(&o, NULL, GPUX_FLOAT32, 0, 10, 1));
  E_NULL(gpux_array_linspace(NULL, gt_ctx, GPUX_FLOAT32, 0, 10, 5));
  E_NULL(gpux_array_linspace(&o, NULL, GPUX_FLOAT32, 0, 10, 5));
  E_NULL(gpux_array_from_host(NULL, gt_ctx, GPUX_FLOAT32, 2, sh, buf));
  E_NULL(gpux_array_from_host(&o, NULL, GPUX_FLOAT32, 2, sh, buf));
  E_NULL(gpux_array_from_host(&o, gt_ctx, GPUX_FLOAT32, 2, NULL, buf));
  E_NULL(gpux_array_from_host(&o, gt_ctx, GPUX_FLOAT32, 2, sh, NULL));
  E_NULL(gpux_array_write(NULL, buf, sizeof buf));
  E_NULL(gpux_array_write(a, NULL, sizeof buf));
  E_NULL(gpux_array_read(NULL, buf, sizeof buf));
  E_NULL(gpux_array_read(a, NULL, sizeof buf));
  E_NULL(gpux_array_download(NULL, &bytes, a));
  E_NULL(gpux_array_download(&p, &bytes, NULL));
  E_NULL(gpux_array_copy(NULL, a));
  E_NULL(gpux_array_copy(&o, NULL));
  E_NULL(gpux_array_copy_into(NULL, a));
  E_NULL(gpux_array_copy_into(a, NULL));
  E_NULL(gpux_array_contiguous(NULL, a));
  E_NULL(gpux_array_contiguous(&o, NULL));
  E_NULL(gpux_array_reshape(NULL, a, 1, r));
  E_NULL(gpux_array_reshape(&o, NULL, 1, r));
  E_NULL(gpux_array_reshape(&o, a, 1, NULL));
  E_NULL(gpux_array_slice(NULL, a, st, sp, stp));
  E_NULL(gpux_array_slice(&o, NULL, st, sp, stp));
  E_NULL(gpux_array_permute(NULL, a, axes));
  E_NULL(gpux_array_permute(&o, NULL, axes));
  E_NULL(gpux_array_permute(&o, a, NULL));
  E_NULL(gpux_array_transpose(NULL, a));
  E_NULL(gpux_array_transpose(&o, NULL));
  E_NULL(gpux_array_cast(NULL, a, GPUX_INT32));
  E_NULL(gpux_array_cast(&o, NULL, GPUX_INT32));
  E_NULL(gpux_array_cast_into(NULL, a));
  E_NULL(gpux_array_cast_into(a, NULL));
  E_NULL(gpux_array_dtype(NULL, a));
  E_NULL(gpux_array_dtype(&dt, NULL));
  E_NULL(gpux_array_ndim(NULL, a));
  E_NULL(gpux_array_ndim(&nd, NULL));
  E_NULL(gpux_array_shape(NULL, a));
  E_NULL(gpux_array_shape(i64, NULL));
  E_NULL(gpux_array_strides(NULL, a));
  E_NULL(gpux_array_strides(i64, NULL));
  E_NULL(gpux_array_size(NULL, a));
  E_NULL(gpux_array_size(i64, NULL));
  E_NULL(gpux_array_nbytes(NULL, a));
  E_NULL(gpux_array_nbytes(&nb, NULL));
  E_NULL(gpux_array_is_contiguous(NULL, a));
  E_NULL(gpux_array_is_contiguous(&contig, NULL));
  E_NULL(gpux_array_context(NULL, a));
  E_NULL(gpux_array_context(&c, NULL));
  /* the array is untouched by all this */
  float got[12];
  GT_OK(gpux_array_read(a, got, sizeof got));
  assert_memory_equal(got, buf, sizeof buf);
  gpux_array_release(a);
}

static void test_null_elementwise_calls(void **state) {
  (void)state;
  const int64_t sh[1] = {5};
  gpux_array_t a = NULL, cond = NULL, o = NULL;
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 1, sh));
  GT_OK(gpux_array_ones(&cond, gt_ctx, GPUX_BOOL, 1, sh));
  E_NULL(gpux_binary(NULL, GPUX_ADD, a, a));
  E_NULL(gpux_binary(&o, GPUX_ADD, NULL, a));
  E_NULL(gpux_binary(&o, GPUX_ADD, a, NULL));
  E_NULL(gpux_binary_into(NULL, GPUX_ADD, a, a));
  E_NULL(gpux_binary_into(a, GPUX_ADD, NULL, a));
  E_NULL(gpux_binary_into(a, GPUX_ADD, a, NULL));
  E_NULL(gpux_binary_scalar(NULL, GPUX_ADD, a, 1));
  E_NULL(gpux_binary_scalar(&o, GPUX_ADD, NULL, 1));
  E_NULL(gpux_binary_scalar_into(NULL, GPUX_ADD, a, 1));
  E_NULL(gpux_binary_scalar_into(a, GPUX_ADD, NULL, 1));
  E_NULL(gpux_scalar_binary(NULL, GPUX_SUB, 1, a));
  E_NULL(gpux_scalar_binary(&o, GPUX_SUB, 1, NULL));
  E_NULL(gpux_scalar_binary_into(NULL, GPUX_SUB, 1, a));
  E_NULL(gpux_scalar_binary_into(a, GPUX_SUB, 1, NULL));
  E_NULL(gpux_unary(NULL, GPUX_NEG, a));
  E_NULL(gpux_unary(&o, GPUX_NEG, NULL));
  E_NULL(gpux_unary_into(NULL, GPUX_NEG, a));
  E_NULL(gpux_unary_into(a, GPUX_NEG, NULL));
  E_NULL(gpux_where(NULL, cond, a, a));
  E_NULL(gpux_where(&o, NULL, a, a));
  E_NULL(gpux_where(&o, cond, NULL, a));
  E_NULL(gpux_where(&o, cond, a, NULL));
  E_NULL(gpux_where_into(NULL, cond, a, a));
  E_NULL(gpux_where_into(a, NULL, a, a));
  E_NULL(gpux_where_into(a, cond, NULL, a));
  E_NULL(gpux_where_into(a, cond, a, NULL));
  E_NULL(gpux_add(NULL, a, a));
  E_NULL(gpux_exp(&o, NULL));
  gpux_array_release(a);
  gpux_array_release(cond);
}

static void test_release_null(void **state) {
  (void)state;
  gpux_array_release(NULL);
  gpux_context_release(NULL);
  gpux_event_release(NULL);
  gpux_host_free(NULL);
}

/* ------------------------------------------------------------------ shapes */

static void test_shape_mismatch(void **state) {
  (void)state;
  const int64_t s1317[2] = {13, 17}, s19[1] = {19}, s17[1] = {17}, s1319[2] = {13, 19},
                s117[2] = {1, 17}, s1713[2] = {17, 13}, s131[2] = {13, 1};
  gpux_array_t a = NULL, b = NULL, b17 = NULL, o = NULL, o1319 = NULL, o117 = NULL, o1713 = NULL,
               c131 = NULL, o1317 = NULL, ob = NULL, od = NULL;
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_FLOAT32, 2, s1317));
  GT_OK(gpux_array_zeros(&b, gt_ctx, GPUX_FLOAT32, 1, s19));
  GT_OK(gpux_array_zeros(&b17, gt_ctx, GPUX_FLOAT32, 1, s17));
  GT_OK(gpux_array_zeros(&o1319, gt_ctx, GPUX_FLOAT32, 2, s1319));
  GT_OK(gpux_array_zeros(&o117, gt_ctx, GPUX_FLOAT32, 2, s117));
  GT_OK(gpux_array_zeros(&o1713, gt_ctx, GPUX_FLOAT32, 2, s1713));
  GT_OK(gpux_array_zeros(&o1317, gt_ctx, GPUX_FLOAT32, 2, s1317));
  GT_OK(gpux_array_zeros(&c131, gt_ctx, GPUX_BOOL, 2, s131));
  GT_OK(gpux_array_zeros(&ob, gt_ctx, GPUX_BOOL, 2, s1319));
  GT_EXPECT_SHAPES(gpux_binary(&o, GPUX_ADD, a, b), 2, s1317, 1, s19);
  GT_EXPECT_SHAPES(gpux_binary(&o, GPUX_LT, b, a), 1, s19, 2, s1317);
  GT_EXPECT_SHAPES(gpux_binary_into(o1319, GPUX_ADD, a, b17), 2, s1319, 2, s1317);
  GT_EXPECT_SHAPES(gpux_binary_into(o117, GPUX_MUL, a, a), 2, s117, 2, s1317);
  GT_EXPECT_SHAPES(gpux_binary_into(ob, GPUX_EQ, a, a), 2, s1319, 2, s1317);
  GT_EXPECT_SHAPES(gpux_binary_scalar_into(o1713, GPUX_ADD, a, 2), 2, s1713, 2, s1317);
  GT_EXPECT_SHAPES(gpux_scalar_binary_into(o1713, GPUX_ADD, 2, a), 2, s1713, 2, s1317);
  GT_EXPECT_SHAPES(gpux_unary_into(o1713, GPUX_NEG, a), 2, s1713, 2, s1317);
  GT_EXPECT_SHAPES(gpux_where(&o, c131, b17, b), 1, s17, 1, s19);
  GT_EXPECT_SHAPES(gpux_where_into(o1319, c131, a, a), 2, s1319, 2, s1317);
  GT_EXPECT_SHAPES(gpux_array_copy_into(a, b), 2, s1317, 1, s19);
  GT_EXPECT_SHAPES(gpux_array_copy_into(b17, a), 1, s17, 2, s1317);
  GT_OK(gpux_array_zeros(&od, gt_ctx, GPUX_FLOAT64, 2, s1713));
  {
    gpux_status s = gpux_array_cast_into(od, a);
    GT_ASSERT(s == GPUX_ERROR_SHAPE_MISMATCH, "cast_into (17, 13) <- (13, 17): %s", gpux_status_name(s));
  }
  /* host transfers with the wrong byte count */
  float buf[13 * 17 + 1];
  memset(buf, 0, sizeof buf);
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_write(a, buf, 13 * 17 * 4 - 4));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_write(a, buf, 13 * 17 * 4 + 4));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_read(a, buf, 13 * 17 * 4 - 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_read(a, buf, 13 * 17 * 4 + 4));
  /* reshape to another size */
  const int64_t r[2] = {10, 22};
  gpux_status s = gpux_array_reshape(&o, a, 2, r);
  GT_ASSERT(s == GPUX_ERROR_SHAPE_MISMATCH || s == GPUX_ERROR_INVALID_SHAPE,
            "reshape (13, 17) -> (10, 22): %s", gpux_status_name(s));
  gpux_array_t arrs[] = {a, b, b17, o1319, o117, o1713, o1317, c131, ob, od};
  for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) gpux_array_release(arrs[i]);
}

static void test_invalid_shape(void **state) {
  (void)state;
  gpux_array_t o = NULL, a = NULL;
  const int64_t s9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, neg[2] = {3, -2}, neg1[2] = {-1, 4};
  float buf[16] = {0};
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_empty(&o, gt_ctx, GPUX_FLOAT32, 9, s9));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_zeros(&o, gt_ctx, GPUX_FLOAT32, 9, s9));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_ones(&o, gt_ctx, GPUX_FLOAT32, 9, s9));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_full(&o, gt_ctx, GPUX_FLOAT32, 9, s9, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_from_host(&o, gt_ctx, GPUX_FLOAT32, 9, s9, buf));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_empty(&o, gt_ctx, GPUX_FLOAT32, -1, s9));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_empty(&o, gt_ctx, GPUX_FLOAT32, 2, neg));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_empty(&o, gt_ctx, GPUX_FLOAT32, 2, neg1));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_zeros(&o, gt_ctx, GPUX_INT32, 2, neg));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_from_host(&o, gt_ctx, GPUX_FLOAT32, 2, neg, buf));
  const int64_t s4[2] = {4, 4};
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, s4, buf));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_reshape(&o, a, 9, s9));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_reshape(&o, a, -1, s9));
  const int64_t r2[2] = {-2, -8}, r3[2] = {-1, -1};
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_reshape(&o, a, 2, r2));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE, gpux_array_reshape(&o, a, 2, r3));
  /* permutations */
  const int dup[2] = {0, 0}, out_of_range[2] = {0, 2}, negax[2] = {-1, 0};
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_permute(&o, a, dup));
  GT_EXPECT(GPUX_ERROR_INVALID_AXIS, gpux_array_permute(&o, a, out_of_range));
  gpux_status s = gpux_array_permute(&o, a, negax);
  GT_ASSERT(s == GPUX_ERROR_INVALID_AXIS || s == GPUX_SUCCESS, "permute (-1, 0): %s", gpux_status_name(s));
  if (s == GPUX_SUCCESS) gpux_array_release(o);
  /* slice step 0 */
  const int64_t st[2] = {0, 0}, sp[2] = {4, 4}, z[2] = {1, 0};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_slice(&o, a, st, sp, z));
  /* arange / linspace arguments */
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_arange(&o, gt_ctx, GPUX_FLOAT32, 0, 10, 0));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_arange(&o, gt_ctx, GPUX_FLOAT32, 0, 10, NAN));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_arange(&o, gt_ctx, GPUX_FLOAT32, 0, INFINITY, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_arange(&o, gt_ctx, GPUX_FLOAT32, NAN, 10, 1));
  s = gpux_array_linspace(&o, gt_ctx, GPUX_FLOAT32, 0, 1, -1);
  GT_ASSERT(s == GPUX_ERROR_INVALID_ARGUMENT || s == GPUX_ERROR_INVALID_SHAPE, "linspace n = -1: %s",
            gpux_status_name(s));
  gpux_array_release(a);
}

static void test_size_overflow(void **state) {
  (void)state;
  gpux_array_t o = NULL;
  const int64_t s1[2] = {(int64_t)1 << 40, (int64_t)1 << 40};
  const int64_t s2[1] = {(int64_t)1 << 61};            /* 2^61 float64: 2^64 bytes */
  const int64_t s3[2] = {(int64_t)1 << 62, 4};         /* 2^64 elements */
  const int64_t s4[3] = {INT64_MAX, 2, 1};
  const int64_t s5[8] = {256, 256, 256, 256, 256, 256, 256, 256}; /* 2^64 elements */
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_array_empty(&o, gt_ctx, GPUX_FLOAT32, 2, s1));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_array_empty(&o, gt_ctx, GPUX_FLOAT64, 1, s2));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_array_zeros(&o, gt_ctx, GPUX_UINT8, 2, s3));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_array_full(&o, gt_ctx, GPUX_UINT8, 3, s4, 1));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_array_ones(&o, gt_ctx, GPUX_BOOL, 8, s5));
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW, gpux_array_linspace(&o, gt_ctx, GPUX_FLOAT64, 0, 1, (int64_t)1 << 61));
  gpux_status s = gpux_array_arange(&o, gt_ctx, GPUX_FLOAT32, 0, 1e30, 1);
  GT_ASSERT(s == GPUX_ERROR_SIZE_OVERFLOW || s == GPUX_ERROR_INVALID_ARGUMENT,
            "arange with 1e30 elements: %s", gpux_status_name(s));
  /* broadcast result too large to count */
  gpux_array_t a = NULL, b = NULL;
  const int64_t sa[2] = {(int64_t)1 << 10, 1}, sb[3] = {(int64_t)1 << 60, 1, 1};
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_FLOAT32, 2, sa));
  s = gpux_array_empty(&b, gt_ctx, GPUX_FLOAT32, 3, sb);
  GT_ASSERT(s == GPUX_ERROR_SIZE_OVERFLOW || s == GPUX_ERROR_OUT_OF_MEMORY,
            "2^60 float32 elements: %s", gpux_status_name(s));
  gpux_array_release(a);
  gt_smoke(gt_ctx);
}

/* ------------------------------------------------------------------ dtypes, ops */

static void test_dtype_errors(void **state) {
  (void)state;
  const int64_t sh[1] = {8};
  gpux_array_t f = NULL, i = NULL, bo = NULL, f64o = NULL, o = NULL;
  GT_OK(gpux_array_ones(&f, gt_ctx, GPUX_FLOAT32, 1, sh));
  GT_OK(gpux_array_ones(&i, gt_ctx, GPUX_INT32, 1, sh));
  GT_OK(gpux_array_ones(&bo, gt_ctx, GPUX_BOOL, 1, sh));
  GT_OK(gpux_array_ones(&f64o, gt_ctx, GPUX_INT64, 1, sh));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary(&o, GPUX_ADD, f, i));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary(&o, GPUX_EQ, i, f));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary_into(i, GPUX_ADD, f, f));  /* out dtype */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary_into(f, GPUX_LT, f, f));   /* result is bool */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary_into(bo, GPUX_ADD, f, f));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary_scalar_into(i, GPUX_ADD, f, 1));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_scalar_binary_into(i, GPUX_ADD, 1, f));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_unary_into(f64o, GPUX_NEG, f));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_unary_into(f, GPUX_LOGICAL_NOT, f));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_where(&o, f, f, f));   /* cond must be bool */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_where(&o, bo, f, i));  /* a, b differ */
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_where_into(i, bo, f, f));
  GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_array_copy_into(i, f));
  /* unknown dtypes */
  const gpux_dtype bad = (gpux_dtype)17;
  float buf[8] = {0};
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_empty(&o, gt_ctx, bad, 1, sh));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_zeros(&o, gt_ctx, bad, 1, sh));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_full(&o, gt_ctx, bad, 1, sh, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_from_host(&o, gt_ctx, bad, 1, sh, buf));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_arange(&o, gt_ctx, bad, 0, 4, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_linspace(&o, gt_ctx, bad, 0, 4, 4));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_cast(&o, f, bad));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_array_empty(&o, gt_ctx, (gpux_dtype)-1, 1, sh));
  /* unknown ops */
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_binary(&o, (gpux_binary_op)GPUX_BINARY_OP_COUNT, f, f));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_binary(&o, (gpux_binary_op)-1, f, f));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_binary_into(f, (gpux_binary_op)100, f, f));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_binary_scalar(&o, (gpux_binary_op)100, f, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_scalar_binary(&o, (gpux_binary_op)100, 1, f));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_unary(&o, (gpux_unary_op)GPUX_UNARY_OP_COUNT, f));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_unary_into(f, (gpux_unary_op)-3, f));
  /* dtypes an op does not support */
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary(&o, GPUX_ADD, bo, bo));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary_scalar(&o, GPUX_POW, bo, 2));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_unary(&o, GPUX_EXP, i));
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_unary(&o, GPUX_NEG, bo));
  gpux_array_release(f);
  gpux_array_release(i);
  gpux_array_release(bo);
  gpux_array_release(f64o);
}

static void test_context_mismatch(void **state) {
  (void)state;
  gpux_context_t c2 = gt_context_new();
  const int64_t sh[1] = {6};
  gpux_array_t a = NULL, b = NULL, o2 = NULL, cond2 = NULL, o = NULL, i2 = NULL;
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 1, sh));
  GT_OK(gpux_array_ones(&b, c2, GPUX_FLOAT32, 1, sh));
  GT_OK(gpux_array_zeros(&o2, c2, GPUX_FLOAT32, 1, sh));
  GT_OK(gpux_array_zeros(&i2, c2, GPUX_INT32, 1, sh));
  GT_OK(gpux_array_ones(&cond2, c2, GPUX_BOOL, 1, sh));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_binary(&o, GPUX_ADD, a, b));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_binary(&o, GPUX_GT, b, a));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_binary_into(o2, GPUX_ADD, a, a));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_binary_into(a, GPUX_ADD, a, b));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_binary_scalar_into(o2, GPUX_ADD, a, 1));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_scalar_binary_into(o2, GPUX_ADD, 1, a));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_unary_into(o2, GPUX_NEG, a));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_where(&o, cond2, a, a));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_where_into(o2, cond2, b, a));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_array_copy_into(o2, a));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_array_cast_into(i2, a));
  /* events of two contexts */
  gpux_event_t e1 = NULL, e2 = NULL;
  if (gpux_event_create(&e1, gt_ctx) == GPUX_SUCCESS && gpux_event_create(&e2, c2) == GPUX_SUCCESS) {
    double ms;
    GT_OK(gpux_event_record(e1));
    GT_OK(gpux_event_record(e2));
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_event_elapsed_ms(&ms, e1, e2));
  }
  gpux_event_release(e1);
  gpux_event_release(e2);
  /* nothing was written */
  float got[6];
  GT_OK(gpux_array_read(o2, got, sizeof got));
  for (int i = 0; i < 6; i++) assert_true(got[i] == 0.0f);
  gpux_array_t arrs[] = {a, b, o2, cond2, i2};
  for (size_t i = 0; i < 5; i++) gpux_array_release(arrs[i]);
  gt_smoke(c2);
  gpux_context_release(c2);
}

/* ------------------------------------------------------------------ out of memory */

static void expect_oom(gpux_status s, const char *what, gpux_pool_stats *before) {
  GT_ASSERT(s == GPUX_ERROR_OUT_OF_MEMORY, "%s: %s (%s), expected GPUX_ERROR_OUT_OF_MEMORY", what,
            gpux_status_name(s), gpux_last_error_message());
  GT_ASSERT(gpux_last_error_message()[0] != '\0', "%s: empty message", what);
  print_message("%s: %s\n", what, gpux_last_error_message());
  gpux_pool_stats after;
  GT_OK(gpux_pool_get_stats(&after, gt_ctx));
  GT_ASSERT(after.bytes_in_use == before->bytes_in_use,
            "%s: bytes_in_use %" PRIu64 " after the failure, %" PRIu64 " before", what,
            after.bytes_in_use, before->bytes_in_use);
  GT_ASSERT(after.bytes_cached <= before->bytes_cached,
            "%s: bytes_cached grew from %" PRIu64 " to %" PRIu64, what, before->bytes_cached,
            after.bytes_cached);
  /* the context still works */
  gt_smoke(gt_ctx);
  GT_OK(gpux_context_synchronize(gt_ctx));
}

static void test_out_of_memory(void **state) {
  (void)state;
  uint64_t mem = gt_info.global_mem_bytes;
  assert_true(mem > 0);
  gpux_pool_stats before;
  gt_smoke(gt_ctx); /* something cached */
  GT_OK(gpux_pool_get_stats(&before, gt_ctx));
  gpux_array_t o = NULL;
  const int64_t s1[1] = {(int64_t)(4 * mem)};
  expect_oom(gpux_array_empty(&o, gt_ctx, GPUX_UINT8, 1, s1), "empty uint8 of 4x device memory", &before);
  assert_null(o);
  const int64_t s2[2] = {4, (int64_t)mem / 4};
  expect_oom(gpux_array_zeros(&o, gt_ctx, GPUX_FLOAT32, 2, s2), "zeros float32 (4, mem / 4)", &before);
  const int64_t s3[1] = {(int64_t)(mem / 2)};
  expect_oom(gpux_array_full(&o, gt_ctx, GPUX_INT64, 1, s3, 7), "full int64 of 4x device memory", &before);
  /* an op whose broadcast output does not fit */
  gpux_array_t a = NULL, b = NULL;
  const int64_t sa[2] = {(int64_t)1 << 20, 1}, sb[2] = {1, (int64_t)(mem >> 18) + 1};
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 2, sa));
  GT_OK(gpux_array_ones(&b, gt_ctx, GPUX_FLOAT32, 2, sb));
  GT_OK(gpux_pool_get_stats(&before, gt_ctx));
  expect_oom(gpux_binary(&o, GPUX_ADD, a, b), "a + b with a 4x device memory result", &before);
  gpux_array_release(a);
  gpux_array_release(b);
  /* repeated failures do not leak either */
  GT_OK(gpux_pool_get_stats(&before, gt_ctx));
  for (int i = 0; i < 5; i++)
    expect_oom(gpux_array_empty(&o, gt_ctx, GPUX_UINT8, 1, s1), "repeated", &before);
  /* everything released and trimmed: nothing in use, nothing cached */
  GT_OK(gpux_pool_trim(gt_ctx));
  gpux_pool_stats st;
  GT_OK(gpux_pool_get_stats(&st, gt_ctx));
  assert_true(st.bytes_cached == 0);
}

/* ------------------------------------------------------------------ overlap */

static void test_overlap(void **state) {
  (void)state;
  float h[20];
  for (int i = 0; i < 20; i++) h[i] = (float)i;
  const int64_t s20[1] = {20}, s10[1] = {10};
  gpux_array_t base = NULL, v1 = NULL, v2 = NULL, cond = NULL, other = NULL, rev = NULL;
  GT_OK(gpux_array_from_host(&base, gt_ctx, GPUX_FLOAT32, 1, s20, h));
  GT_OK(gpux_array_ones(&cond, gt_ctx, GPUX_BOOL, 1, s10));
  GT_OK(gpux_array_ones(&other, gt_ctx, GPUX_FLOAT32, 1, s10));
  const int64_t a0[1] = {0}, a1[1] = {10}, b0[1] = {5}, b1[1] = {15}, one[1] = {1};
  GT_OK(gpux_array_slice(&v1, base, a0, a1, one)); /* [0, 10) */
  GT_OK(gpux_array_slice(&v2, base, b0, b1, one)); /* [5, 15) */
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_binary_into(v2, GPUX_ADD, v1, other));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_binary_into(v2, GPUX_ADD, other, v1));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_binary_scalar_into(v2, GPUX_ADD, v1, 1));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_scalar_binary_into(v1, GPUX_SUB, 1, v2));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_unary_into(v2, GPUX_NEG, v1));
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_where_into(v1, cond, other, v2));
  /* the same elements in another order overlap too */
  const int64_t r0[1] = {9}, r1[1] = {-21}, m1[1] = {-1};
  GT_OK(gpux_array_slice(&rev, v1, r0, r1, m1)); /* v1 reversed */
  GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_unary_into(rev, GPUX_NEG, v1));
  float got[20];
  GT_OK(gpux_array_read(base, got, sizeof got));
  assert_memory_equal(got, h, sizeof h); /* nothing was written */
  gpux_array_t arrs[] = {base, v1, v2, cond, other, rev};
  for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) gpux_array_release(arrs[i]);
}

/* Views that share memory but no element (even / odd elements) do not overlap. */
static void test_overlap_interleaved_allowed(void **state) {
  (void)state;
  float h[20], got[20];
  for (int i = 0; i < 20; i++) h[i] = (float)i;
  const int64_t s20[1] = {20}, a0[1] = {0}, one[1] = {1}, two[1] = {2};
  gpux_array_t base = NULL, even = NULL, odd = NULL;
  GT_OK(gpux_array_from_host(&base, gt_ctx, GPUX_FLOAT32, 1, s20, h));
  GT_OK(gpux_array_slice(&even, base, a0, s20, two));
  GT_OK(gpux_array_slice(&odd, base, one, s20, two));
  GT_OK(gpux_binary_into(even, GPUX_ADD, odd, odd));
  GT_OK(gpux_array_read(base, got, sizeof got));
  for (int i = 0; i < 20; i++) {
    float want = (i % 2 == 0) ? 2.0f * (float)(i + 1) : (float)i;
    GT_ASSERT(got[i] == want, "[%d] = %g, expected %g", i, got[i], want);
  }
  gpux_array_release(even);
  gpux_array_release(odd);
  gpux_array_release(base);
}

/* Exactly the same elements through another view handle: in place, allowed. */
static void test_overlap_same_view_allowed(void **state) {
  (void)state;
  float h[20], got[20];
  for (int i = 0; i < 20; i++) h[i] = (float)i;
  const int64_t s20[1] = {20}, a0[1] = {0}, a1[1] = {10}, one[1] = {1};
  gpux_array_t base = NULL, v1 = NULL, same = NULL;
  GT_OK(gpux_array_from_host(&base, gt_ctx, GPUX_FLOAT32, 1, s20, h));
  GT_OK(gpux_array_slice(&v1, base, a0, a1, one));
  GT_OK(gpux_array_slice(&same, v1, NULL, NULL, NULL));
  GT_OK(gpux_binary_scalar_into(same, GPUX_MUL, v1, 10));
  GT_OK(gpux_array_read(base, got, sizeof got));
  for (int i = 0; i < 20; i++) {
    float want = i < 10 ? 10.0f * (float)i : (float)i;
    GT_ASSERT(got[i] == want, "[%d] = %g, expected %g", i, got[i], want);
  }
  gpux_array_release(same);
  gpux_array_release(v1);
  gpux_array_release(base);
}

/* The same elements through a view that differs only in the stride of a length-1 axis
 * (a slice with step -1 there): still in place, allowed (found by fuzz_api). */
static void test_overlap_same_elements_allowed(void **state) {
  (void)state;
  float h[6] = {1, 2, 3, 4, 5, 6}, got[6];
  const int64_t s16[2] = {1, 6}, start[2] = {0, 0}, stop[2] = {-2, 6}, step[2] = {-1, 1};
  gpux_array_t a = NULL, v = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, s16, h));
  GT_OK(gpux_array_slice(&v, a, start, stop, step));
  gt_check_shape(v, GPUX_FLOAT32, 2, s16, "x[0::-1, :]");
  GT_OK(gpux_binary_into(v, GPUX_ADD, a, a));
  GT_OK(gpux_unary_into(a, GPUX_NEG, v));
  GT_OK(gpux_scan_into(v, GPUX_SCAN_SUM, a, 1, 0));
  GT_OK(gpux_array_read(a, got, sizeof got));
  for (int i = 0; i < 6; i++) {
    float want = -(float)((i + 1) * (i + 2)); /* the running sum of -2, -4, ... */
    GT_ASSERT(got[i] == want, "[%d] = %g, expected %g", i, got[i], want);
  }
  gpux_array_release(v);
  gpux_array_release(a);
}

/* after all of the above the context is fine */
static void test_context_still_works(void **state) {
  (void)state;
  gt_smoke(gt_ctx);
  GT_OK(gpux_context_synchronize(gt_ctx));
}

/* A scalar operand that an integer or bool array's dtype does not hold exactly is an error,
 * never a silent change of value (1.5 on int32 used to multiply by 1). */
static void test_scalar_not_representable(void **state) {
  (void)state;
  const int64_t n = 5;
  static const struct { gpux_dtype dt; double bad[4]; double good[3]; } cases[] = {
      {GPUX_INT32, {1.5, 2147483648.0, -2147483649.0, NAN}, {-2147483648.0, 2147483647.0, -3}},
      {GPUX_INT64, {0.5, 9223372036854775808.0, -INFINITY, NAN}, {-9223372036854775808.0, 1e18, 0}},
      {GPUX_UINT8, {-1, 256, 0.25, 300}, {0, 255, 17}},
      {GPUX_BOOL, {2, -1, 0.5, NAN}, {0, 1, 1}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    gpux_array_t a = NULL, o = NULL;
    GT_OK(gpux_array_ones(&a, gt_ctx, cases[c].dt, 1, &n));
    for (int i = 0; i < 4; i++) {
      const double v = cases[c].bad[i];
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_binary_scalar(&o, GPUX_EQ, a, v));
      assert_null(o);
      GT_ASSERT(strstr(gpux_last_error_message(), gpux_dtype_name(cases[c].dt)) != NULL,
                "the message does not name %s: %s", gpux_dtype_name(cases[c].dt),
                gpux_last_error_message());
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_scalar_binary(&o, GPUX_NE, v, a));
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_binary_scalar_into(a, GPUX_LT, a, v));
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_scalar_binary_into(a, GPUX_GT, v, a));
    }
    for (int i = 0; i < 3; i++) {
      GT_OK(gpux_binary_scalar(&o, GPUX_EQ, a, cases[c].good[i]));
      gpux_array_release(o);
      o = NULL;
    }
    /* the array was never changed by the refused calls: still ones */
    int64_t sum = 0;
    gpux_array_t i64 = NULL;
    GT_OK(gpux_array_cast(&i64, a, GPUX_INT64));
    int64_t h[5];
    GT_OK(gpux_array_read(i64, h, sizeof h));
    for (int k = 0; k < 5; k++) sum += h[k];
    assert_int_equal(sum, 5);
    gpux_array_release(i64);
    gpux_array_release(a);
  }
  /* float dtypes round as casts do: 0.1 on float32, 1e300 -> inf */
  gpux_array_t f = NULL, o = NULL;
  GT_OK(gpux_array_ones(&f, gt_ctx, GPUX_FLOAT32, 1, &n));
  GT_OK(gpux_binary_scalar(&o, GPUX_MUL, f, 0.1));
  gpux_array_release(o);
  GT_OK(gpux_binary_scalar(&o, GPUX_MUL, f, 1e300));
  gpux_array_release(o);
  gpux_array_release(f);
}

/* min/max/argmin/argmax of nothing have no identity: an error also when the result is empty
 * ((0, 0) over axis 0, as NumPy raises), not when only the result is ((3, 0) over axis 0). */
static void test_no_identity_empty_result(void **state) {
  (void)state;
  const int64_t s00[2] = {0, 0}, s30[2] = {3, 0};
  const int ax0[1] = {0};
  static const gpux_reduce_op ops[4] = {GPUX_REDUCE_MIN, GPUX_REDUCE_MAX, GPUX_REDUCE_ARGMIN,
                                        GPUX_REDUCE_ARGMAX};
  gpux_array_t a = NULL, b = NULL, o = NULL;
  GT_OK(gpux_array_empty(&a, gt_ctx, GPUX_FLOAT32, 2, s00));
  GT_OK(gpux_array_empty(&b, gt_ctx, GPUX_FLOAT32, 2, s30));
  for (int i = 0; i < 4; i++) {
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_reduce(&o, ops[i], a, ax0, 1, 0));
    assert_null(o);
    GT_OK(gpux_reduce(&o, ops[i], b, ax0, 1, 0));
    int64_t n = -1;
    GT_OK(gpux_array_size(&n, o));
    assert_int_equal(n, 0);
    gpux_array_release(o);
    o = NULL;
  }
  GT_OK(gpux_reduce(&o, GPUX_REDUCE_SUM, a, ax0, 1, 0)); /* sum has one: an empty (0,) */
  gpux_array_release(o);
  gpux_array_release(a);
  gpux_array_release(b);
}

int main(void) {
  gt_init("test_errors");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_null_context_calls),
      cmocka_unit_test(test_null_array_calls),
      cmocka_unit_test(test_null_elementwise_calls),
      cmocka_unit_test(test_release_null),
      cmocka_unit_test(test_shape_mismatch),
      cmocka_unit_test(test_invalid_shape),
      cmocka_unit_test(test_size_overflow),
      cmocka_unit_test(test_dtype_errors),
      cmocka_unit_test(test_context_mismatch),
      cmocka_unit_test(test_out_of_memory),
      cmocka_unit_test(test_overlap),
      cmocka_unit_test(test_overlap_interleaved_allowed),
      cmocka_unit_test(test_overlap_same_view_allowed),
      cmocka_unit_test(test_overlap_same_elements_allowed),
      cmocka_unit_test(test_context_still_works),
      cmocka_unit_test(test_scalar_not_representable),
      cmocka_unit_test(test_no_identity_empty_result),
  };
  int failed = gt_run("errors", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
