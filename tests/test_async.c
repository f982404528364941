/* gpux tests: queued (asynchronous) execution. Work is queued in order on the context's one
 * queue; reads and downloads wait for the work that produces the array; host buffers may be
 * reused as soon as a call returns; arrays may be released while work that uses them is
 * still queued. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Many small in-place ops, then one synchronize. */
static void test_many_queued_ops(void **state) {
  (void)state;
  const int64_t n = 1 << 16, sh[1] = {n};
  gpux_array_t x = NULL;
  GT_OK(gpux_array_zeros(&x, gt_ctx, GPUX_INT32, 1, sh));
  for (int i = 0; i < 2000; i++) GT_OK(gpux_binary_scalar_into(x, GPUX_ADD, x, 1));
  GT_OK(gpux_context_synchronize(gt_ctx));
  int32_t *got = gt_malloc((size_t)n * 4);
  GT_OK(gpux_array_read(x, got, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == 2000, "[%" PRId64 "] = %d", i, got[i]);
  free(got);
  gpux_array_release(x);
}

/* A chain where every step makes a new array and releases the previous one while the
 * step that reads it is still queued (the pool reuses the block at once). */
static void test_chain_with_releases(void **state) {
  (void)state;
  const int64_t n = 100003, sh[1] = {n};
  int64_t *h = gt_malloc((size_t)n * 8);
  for (int64_t i = 0; i < n; i++) h[i] = i - 50000;
  gpux_array_t t = NULL;
  GT_OK(gpux_array_from_host(&t, gt_ctx, GPUX_INT64, 1, sh, h));
  for (int step = 0; step < 300; step++) {
    gpux_array_t next = NULL;
    if (step % 3 == 0) GT_OK(gpux_binary_scalar(&next, GPUX_ADD, t, 3));
    else if (step % 3 == 1) GT_OK(gpux_binary(&next, GPUX_SUB, t, t));
    else GT_OK(gpux_binary_scalar(&next, GPUX_MUL, t, 1));
    gpux_array_release(t);
    t = next;
    if (step % 3 == 1) {
      /* t is zeros now; put the original data back through a write */
      GT_OK(gpux_array_write(t, h, (size_t)n * 8));
    }
  }
  /* 300 steps: 100 rounds of (+3, x - x = 0 then rewritten to h, *1) -> h */
  int64_t *got = gt_malloc((size_t)n * 8);
  GT_OK(gpux_array_read(t, got, (size_t)n * 8));
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == h[i], "[%" PRId64 "] = %" PRId64, i, got[i]);
  free(got);
  free(h);
  gpux_array_release(t);
}

/* read and download wait for the queued work without an explicit synchronize */
static void test_read_waits(void **state) {
  (void)state;
  const int64_t n = GT_BIG, sh[1] = {n};
  gpux_array_t a = NULL;
  GT_OK(gpux_array_arange(&a, gt_ctx, GPUX_FLOAT32, 0, (double)n, 1));
  for (int i = 0; i < 10; i++) GT_OK(gpux_binary_scalar_into(a, GPUX_ADD, a, 1.0));
  GT_OK(gpux_unary_into(a, GPUX_NEG, a));
  void *p = NULL;
  size_t bytes = 0;
  GT_OK(gpux_array_download(&p, &bytes, a));
  assert_int_equal(bytes, (size_t)n * 4);
  const float *f = p;
  for (int64_t i = 0; i < n; i++)
    GT_ASSERT(f[i] == -(float)(i + 10), "download [%" PRId64 "] = %g", i, f[i]);
  gpux_host_free(p);
  for (int i = 0; i < 5; i++) GT_OK(gpux_binary_scalar_into(a, GPUX_MUL, a, 2.0));
  float *g = gt_malloc((size_t)n * 4);
  GT_OK(gpux_array_read(a, g, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++)
    GT_ASSERT(g[i] == -32.0f * (float)(i + 10), "read [%" PRId64 "] = %g", i, g[i]);
  free(g);
  gpux_array_release(a);
  (void)sh;
}

/* The host buffer of from_host / write may be reused (or freed) as soon as the call returns. */
static void test_host_buffer_reuse(void **state) {
  (void)state;
  const int64_t n = 1 << 20, sh[1] = {n};
  int32_t *h = gt_malloc((size_t)n * 4);
  for (int64_t i = 0; i < n; i++) h[i] = (int32_t)i;
  gpux_array_t a = NULL, b = NULL, c = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_INT32, 1, sh, h));
  memset(h, 0x7F, (size_t)n * 4);
  for (int64_t i = 0; i < n; i++) h[i] = (int32_t)(3 * i);
  GT_OK(gpux_array_empty(&b, gt_ctx, GPUX_INT32, 1, sh));
  GT_OK(gpux_array_write(b, h, (size_t)n * 4));
  free(h); /* gone: the library must not read it later */
  GT_OK(gpux_binary(&c, GPUX_ADD, a, b));
  int32_t *got = gt_malloc((size_t)n * 4);
  GT_OK(gpux_array_read(c, got, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == (int32_t)(4 * i), "[%" PRId64 "] = %d", i, got[i]);
  /* several writes into one array between kernels, each from the same host buffer */
  int32_t *w = gt_malloc((size_t)n * 4);
  for (int round = 0; round < 4; round++) {
    for (int64_t i = 0; i < n; i++) w[i] = round;
    GT_OK(gpux_array_write(b, w, (size_t)n * 4));
    GT_OK(gpux_binary_into(a, GPUX_ADD, a, b)); /* a += round */
  }
  GT_OK(gpux_array_read(a, got, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == (int32_t)(i + 6), "[%" PRId64 "] = %d", i, got[i]);
  free(w);
  free(got);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
}

/* Inputs released right after queuing; their blocks are reused and overwritten at once. */
static void test_release_while_queued(void **state) {
  (void)state;
  const int64_t n = GT_BIG, sh[1] = {n};
  gpux_array_t a = NULL, b = NULL, c = NULL;
  GT_OK(gpux_array_arange(&a, gt_ctx, GPUX_FLOAT32, 0, (double)n, 1));
  GT_OK(gpux_array_full(&b, gt_ctx, GPUX_FLOAT32, 1, sh, 0.5));
  GT_OK(gpux_binary(&c, GPUX_ADD, a, b));
  GT_OK(gpux_unary_into(c, GPUX_SQRT, c));
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_t x = NULL, y = NULL;
  GT_OK(gpux_array_full(&x, gt_ctx, GPUX_FLOAT32, 1, sh, -1.0));
  GT_OK(gpux_array_full(&y, gt_ctx, GPUX_FLOAT32, 1, sh, -2.0));
  GT_OK(gpux_binary_into(x, GPUX_MUL, x, y));
  float *got = gt_malloc((size_t)n * 4);
  GT_OK(gpux_array_read(c, got, (size_t)n * 4));
  gt_tol tol = gt_tolerance(GPUX_FLOAT32, GT_OPC_SQRT);
  for (int64_t i = 0; i < n; i++) {
    double want = sqrt((double)(float)((float)i + 0.5f));
    GT_ASSERT(fabs(got[i] - want) <= tol.rel * want + tol.abs, "[%" PRId64 "] = %.9g, expected %.9g",
              i, got[i], want);
  }
  GT_OK(gpux_array_read(x, got, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == 2.0f, "x[%" PRId64 "] = %g", i, got[i]);
  free(got);
  gpux_array_release(c);
  gpux_array_release(x);
  gpux_array_release(y);
}

/* copies, casts, views and kernels interleaved on the queue */
static void test_mixed_queue(void **state) {
  (void)state;
  const int64_t sh[2] = {513, 257};
  const int64_t n = 513 * 257;
  float *h = gt_malloc((size_t)n * 4);
  for (int64_t i = 0; i < n; i++) h[i] = (float)(i % 1000) - 500.0f;
  gpux_array_t a = NULL, t = NULL, tt = NULL, ci = NULL, cf = NULL, rev = NULL, acc = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, sh, h));
  GT_OK(gpux_array_zeros(&acc, gt_ctx, GPUX_FLOAT32, 2, sh));
  for (int round = 0; round < 5; round++) {
    GT_OK(gpux_array_transpose(&t, a));
    GT_OK(gpux_array_transpose(&tt, t));
    GT_OK(gpux_array_cast(&ci, tt, GPUX_INT32));
    GT_OK(gpux_array_cast(&cf, ci, GPUX_FLOAT32));
    const int64_t st[2] = {-1, -1}, sp[2] = {-514, -258}, stp[2] = {-1, -1};
    GT_OK(gpux_array_slice(&rev, cf, st, sp, stp));
    GT_OK(gpux_array_copy_into(tt, rev));       /* tt = reversed a */
    GT_OK(gpux_array_copy_into(cf, tt));
    GT_OK(gpux_binary_into(acc, GPUX_ADD, acc, cf));
    gpux_array_release(t);
    gpux_array_release(tt);
    gpux_array_release(ci);
    gpux_array_release(rev);
    gpux_array_release(cf);
  }
  float *got = gt_malloc((size_t)n * 4);
  GT_OK(gpux_array_read(acc, got, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++) {
    float want = 5.0f * h[n - 1 - i];
    GT_ASSERT(got[i] == want, "[%" PRId64 "] = %g, expected %g", i, got[i], want);
  }
  free(got);
  free(h);
  gpux_array_release(a);
  gpux_array_release(acc);
}

static void test_synchronize(void **state) {
  (void)state;
  GT_OK(gpux_context_synchronize(gt_ctx));
  GT_OK(gpux_context_synchronize(gt_ctx));
  gpux_array_t a = NULL;
  const int64_t sh[1] = {1 << 20};
  GT_OK(gpux_array_ones(&a, gt_ctx, gt_info.fp64 ? GPUX_FLOAT64 : GPUX_FLOAT32, 1, sh));
  for (int i = 0; i < 50; i++) GT_OK(gpux_unary_into(a, GPUX_EXP, a));
  GT_OK(gpux_unary_into(a, GPUX_SIGN, a)); /* exp^50(1) is inf; sign(inf) = 1 */
  GT_OK(gpux_context_synchronize(gt_ctx));
  gpux_array_t f = NULL;
  GT_OK(gpux_array_cast(&f, a, GPUX_UINT8));
  uint8_t got[1 << 10];
  const int64_t st[1] = {0}, sp[1] = {1 << 20}, stp[1] = {1 << 10};
  gpux_array_t s = NULL;
  GT_OK(gpux_array_slice(&s, f, st, sp, stp));
  GT_OK(gpux_array_read(s, got, sizeof got));
  for (int i = 0; i < (1 << 10); i++) assert_int_equal(got[i], 1);
  gpux_array_release(s);
  gpux_array_release(f);
  gpux_array_release(a);
}

int main(void) {
  gt_init("test_async");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_many_queued_ops),
      cmocka_unit_test(test_chain_with_releases),
      cmocka_unit_test(test_read_waits),
      cmocka_unit_test(test_host_buffer_reuse),
      cmocka_unit_test(test_release_while_queued),
      cmocka_unit_test(test_mixed_queue),
      cmocka_unit_test(test_synchronize),
  };
  int failed = gt_run("async", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
