/* gpux tests: page-locked host memory and asynchronous transfers (gpux_pinned_alloc,
 * gpux_array_write_async, gpux_array_read_async). Round trips of odd sizes from pinned and
 * from ordinary memory, contiguous and strided arrays, completion by synchronize, by an event
 * and by a later blocking read, in queue order with kernels between, the pinned memory
 * outliving its context, and the errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const int64_t k_sizes[] = {1, 3, 4097, (1 << 20) + 3};

/* write_async from pinned memory, a kernel, read_async into pinned memory */
static void test_pinned_round_trip(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof k_sizes / sizeof k_sizes[0]; k++) {
    const int64_t n = k_sizes[k];
    const size_t bytes = (size_t)n * 4;
    float *in = NULL, *out = NULL;
    GT_OK(gpux_pinned_alloc((void **)&in, gt_ctx, bytes));
    GT_OK(gpux_pinned_alloc((void **)&out, gt_ctx, bytes));
    GT_ASSERT(in && out && in != out, "pinned pointers");
    gt_fill_random(in, GPUX_FLOAT32, n, GT_DOM_ANY, 40 + k);
    gt_poison_host(out, bytes);
    gpux_array_t a = NULL, b = NULL;
    GT_OK(gpux_array_empty(&a, gt_ctx, GPUX_FLOAT32, 1, &n));
    GT_OK(gpux_array_write_async(a, in, bytes));
    GT_OK(gpux_unary(&b, GPUX_NEG, a));
    GT_OK(gpux_array_read_async(b, out, bytes));
    GT_OK(gpux_context_synchronize(gt_ctx));
    for (int64_t i = 0; i < n; i++)
      GT_ASSERT(out[i] == -in[i], "n=%lld: [%lld] is %g, expected %g", (long long)n,
                (long long)i, (double)out[i], (double)-in[i]);
    gpux_array_release(a);
    gpux_array_release(b);
    gpux_pinned_free(in);
    gpux_pinned_free(out);
  }
}

/* from and to ordinary (pageable) memory, completion by an event, then by a blocking read */
static void test_pageable_and_events(void **state) {
  (void)state;
  const int64_t n = 1001;
  int64_t *in = gt_malloc(n * 8), *out = gt_malloc(n * 8), *out2 = gt_malloc(n * 8);
  gt_fill_random(in, GPUX_INT64, n, GT_DOM_ANY, 5);
  gt_poison_host(out, (size_t)n * 8);
  gpux_array_t a = NULL;
  GT_OK(gpux_array_empty(&a, gt_ctx, GPUX_INT64, 1, &n));
  GT_OK(gpux_array_write_async(a, in, (size_t)n * 8));
  GT_OK(gpux_array_read_async(a, out, (size_t)n * 8));
  gpux_event_t ev = NULL;
  gpux_status es = gpux_event_create(&ev, gt_ctx);
  if (es == GPUX_SUCCESS) {
    GT_OK(gpux_event_record(ev));
    GT_OK(gpux_event_synchronize(ev));
    gpux_event_release(ev);
  } else {
    GT_OK(gpux_context_synchronize(gt_ctx));
  }
  GT_ASSERT(!memcmp(out, in, (size_t)n * 8), "async round trip through pageable memory");
  /* a blocking read waits for the queued async copies before it */
  gt_poison_host(out, (size_t)n * 8);
  GT_OK(gpux_array_read_async(a, out, (size_t)n * 8));
  GT_OK(gpux_array_read(a, out2, (size_t)n * 8));
  GT_ASSERT(!memcmp(out, in, (size_t)n * 8) && !memcmp(out2, in, (size_t)n * 8),
            "a blocking read completes the async one before it");
  gpux_array_release(a);
  free(in);
  free(out);
  free(out2);
}

/* strided and reversed views, both ways */
static void test_strided(void **state) {
  (void)state;
  const int64_t shape[2] = {7, 9}, n = 63;
  int32_t h[63], got[63], back[63];
  gt_fill_random(h, GPUX_INT32, n, GT_DOM_ANY, 8);
  gpux_array_t a = NULL, v = NULL;
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_INT32, 2, shape));
  /* v = a[::-2, 1::3]: 4 x 3 */
  const int64_t start[2] = {-1, 1}, stop[2] = {INT64_MIN, 9}, step[2] = {-2, 3};
  GT_OK(gpux_array_slice(&v, a, start, stop, step));
  int32_t vin[12], vout[12];
  for (int i = 0; i < 12; i++) vin[i] = h[i];
  GT_OK(gpux_array_write_async(v, vin, sizeof vin));
  GT_OK(gpux_array_read_async(v, vout, sizeof vout));
  GT_OK(gpux_context_synchronize(gt_ctx));
  GT_ASSERT(!memcmp(vin, vout, sizeof vin), "strided round trip");
  GT_OK(gpux_array_read(a, got, sizeof got));
  memset(back, 0, sizeof back);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) back[(6 - 2 * i) * 9 + 1 + 3 * j] = vin[i * 3 + j];
  GT_ASSERT(!memcmp(got, back, sizeof got), "the strided write landed where the view is");
  gpux_array_release(v);
  gpux_array_release(a);
}

/* the pinned memory keeps its context; frees in any order; errors */
/* Large transfers from and to pageable memory go through page-locked bounce buffers (4 MiB
 * chunks, 4 of them; staging.c): sizes at and around the chunk and ring boundaries, at an
 * offset into the array, through a strided view, blocking and async forms, on the default
 * stream and on another one, an upload right after a download (the same buffers). */
static void test_staged(void **state) {
  (void)state;
  /* float32 elements: the staging threshold (4 MiB: two 2 MiB chunks), one more (a short
   * third chunk), 16 MiB - 4 bytes (eight chunks: the ring of four buffers wraps twice) and
   * 20 MiB + 12 bytes (3 MiB chunks, the last short) */
  const int64_t mib = (int64_t)1 << 18;
  const int64_t sizes[] = {4 * mib, 4 * mib + 1, 16 * mib - 1, 20 * mib + 3};
  gpux_stream_t other = NULL;
  if (gpux_stream_create(&other, gt_ctx) != GPUX_SUCCESS) gpux_clear_error();
  for (int on = 0; on < (other ? 2 : 1); on++) {
    GT_OK(gpux_stream_set_current(gt_ctx, on ? other : NULL));
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      for (int async = 0; async < 2; async++) {
        const int64_t n = sizes[k], big = n + 7;
        const size_t bytes = (size_t)n * 4;
        float *in = gt_malloc(bytes), *out = gt_malloc(bytes), *back = gt_malloc(bytes);
        gt_fill_random(in, GPUX_FLOAT32, n, GT_DOM_ANY, 700 + k);
        gpux_array_t a = NULL, v = NULL, b = NULL;
        /* into elements 5 .. 5 + n of a larger array: the chunks land at an offset */
        GT_OK(gpux_array_full(&a, gt_ctx, GPUX_FLOAT32, 1, &big, -1.0));
        const int64_t lo = 5, hi = 5 + n, st = 1;
        GT_OK(gpux_array_slice(&v, a, &lo, &hi, &st));
        GT_OK(async ? gpux_array_write_async(v, in, bytes) : gpux_array_write(v, in, bytes));
        memset(in + n / 2, 0x7f, 4); /* the caller's memory is free once the write returns */
        GT_OK(gpux_unary(&b, GPUX_NEG, v));
        gt_poison_host(out, bytes);
        GT_OK(async ? gpux_array_read_async(b, out, bytes) : gpux_array_read(b, out, bytes));
        if (async) GT_OK(gpux_context_synchronize(gt_ctx));
        gt_fill_random(back, GPUX_FLOAT32, n, GT_DOM_ANY, 700 + k); /* the values written */
        for (int64_t i = 0; i < n; i++)
          GT_ASSERT(out[i] == -back[i], "n=%lld async=%d stream=%d: [%lld] is %g, want %g",
                    (long long)n, async, on, (long long)i, (double)out[i], (double)-back[i]);
        /* the elements around the view are untouched */
        float edge[5];
        const int64_t e0 = 0, e1 = 5;
        gpux_array_t head = NULL;
        GT_OK(gpux_array_slice(&head, a, &e0, &e1, &st));
        GT_OK(gpux_array_read(head, edge, sizeof edge));
        for (int i = 0; i < 5; i++) GT_ASSERT(edge[i] == -1.0f, "element %d before the view", i);
        /* a strided destination (every other element of a 2n array) */
        const int64_t n2 = 2 * n, s2 = 2, z = 0;
        gpux_array_t c = NULL, cv = NULL;
        GT_OK(gpux_array_zeros(&c, gt_ctx, GPUX_FLOAT32, 1, &n2));
        GT_OK(gpux_array_slice(&cv, c, &z, &n2, &s2));
        GT_OK(gpux_array_write(cv, back, bytes));
        gt_poison_host(out, bytes);
        GT_OK(gpux_array_read(cv, out, bytes));
        GT_ASSERT(!memcmp(out, back, bytes), "strided staged round trip, n=%lld", (long long)n);
        gpux_array_release(head);
        gpux_array_release(cv);
        gpux_array_release(c);
        gpux_array_release(a);
        gpux_array_release(v);
        gpux_array_release(b);
        free(in);
        free(out);
        free(back);
      }
  }
  GT_OK(gpux_stream_set_current(gt_ctx, NULL));
  gpux_stream_release(other);
}

static void test_lifetime_and_errors(void **state) {
  (void)state;
  gpux_context_t c = gt_context_new();
  void *p = NULL, *q = NULL;
  GT_OK(gpux_pinned_alloc(&p, c, 100));
  GT_OK(gpux_pinned_alloc(&q, c, 1));
  gpux_context_release(c);
  memset(p, 7, 100);
  ((unsigned char *)q)[0] = 1;
  gpux_pinned_free(q);
  gpux_pinned_free(p);
  gpux_pinned_free(NULL);
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_pinned_alloc(&p, gt_ctx, 0));
  GT_ASSERT(p == NULL, "out set on failure");
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_pinned_alloc(NULL, gt_ctx, 8));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_pinned_alloc(&p, NULL, 8));
  const int64_t n = 4;
  gpux_array_t a = NULL;
  float f[4] = {0};
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_FLOAT32, 1, &n));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_write_async(a, f, 12));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_array_read_async(a, f, 20));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_array_write_async(a, NULL, 16));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_array_read_async(NULL, f, 16));
  /* empty arrays: nothing to copy */
  const int64_t zero = 0;
  gpux_array_t e = NULL;
  GT_OK(gpux_array_empty(&e, gt_ctx, GPUX_FLOAT32, 1, &zero));
  GT_OK(gpux_array_write_async(e, NULL, 0));
  GT_OK(gpux_array_read_async(e, NULL, 0));
  gpux_array_release(e);
  gpux_array_release(a);
}

int main(void) {
  gt_init("test_transfer");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pinned_round_trip),
      cmocka_unit_test(test_pageable_and_events),
      cmocka_unit_test(test_strided),
      cmocka_unit_test(test_staged),
      cmocka_unit_test(test_lifetime_and_errors),
  };
  int failed = gt_run("transfer", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
