/* gpux tests: the caching allocator. Each test uses a fresh context so the statistics start
 * at zero. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static int setup(void **state) {
  gpux_context_t c = NULL;
  if (gpux_context_create(&c, gt_info.backend, gt_info.index) != GPUX_SUCCESS) return -1;
  *state = c;
  return 0;
}

static int teardown(void **state) {
  gpux_context_release((gpux_context_t)*state);
  return 0;
}

static gpux_pool_stats stats(gpux_context_t c) {
  gpux_pool_stats s;
  memset(&s, 0xEE, sizeof s);
  GT_OK(gpux_pool_get_stats(&s, c));
  return s;
}

static void print_stats(const char *what, const gpux_pool_stats *s) {
  print_message("%s: in_use %" PRIu64 " cached %" PRIu64 " peak %" PRIu64 " allocs %" PRIu64
                " frees %" PRIu64 " hits %" PRIu64 " misses %" PRIu64 "\n",
                what, s->bytes_in_use, s->bytes_cached, s->peak_bytes_in_use, s->device_allocs,
                s->device_frees, s->pool_hits, s->pool_misses);
}

/* Invariants that hold at any time in a context where no allocation failed. */
static void check_consistent(const gpux_pool_stats *s, const char *what) {
  GT_ASSERT(s->peak_bytes_in_use >= s->bytes_in_use, "%s: peak < in use", what);
  GT_ASSERT(s->device_allocs >= s->device_frees, "%s: more frees than allocs", what);
  GT_ASSERT(s->device_allocs == s->pool_misses,
            "%s: %" PRIu64 " driver allocations for %" PRIu64 " pool misses", what,
            s->device_allocs, s->pool_misses);
  GT_ASSERT((s->bytes_in_use + s->bytes_cached == 0) == (s->device_allocs == s->device_frees),
            "%s: bytes held (%" PRIu64 " + %" PRIu64 ") disagree with allocs - frees (%" PRIu64 ")",
            what, s->bytes_in_use, s->bytes_cached, s->device_allocs - s->device_frees);
}

static void test_fresh_context(void **state) {
  gpux_context_t c = *state;
  gpux_pool_stats s = stats(c);
  print_stats("fresh", &s);
  assert_true(s.bytes_in_use == 0);
  assert_true(s.bytes_cached == 0);
  assert_true(s.device_allocs == 0);
  assert_true(s.device_frees == 0);
  assert_true(s.pool_hits == 0);
  assert_true(s.pool_misses == 0);
}

/* A loop creating and releasing temporaries allocates from the driver only in its first
 * iteration. */
static void test_loop_reuses_blocks(void **state) {
  gpux_context_t c = *state;
  const int64_t n = 1000, sh[1] = {n}, shu[1] = {12345}, sh2[2] = {33, 77};
  float h[1000];
  for (int i = 0; i < 1000; i++) h[i] = (float)i * 0.01f;
  uint64_t allocs_after_first = 0, hits_before = 0, req_before = 0;
  for (int iter = 0; iter < 10; iter++) {
    gpux_array_t a = NULL, b = NULL, s = NULL, u = NULL, e = NULL, m = NULL;
    GT_OK(gpux_array_from_host(&a, c, GPUX_FLOAT32, 1, sh, h));
    GT_OK(gpux_array_zeros(&b, c, GPUX_FLOAT32, 1, sh));
    GT_OK(gpux_binary(&s, GPUX_ADD, a, b));
    GT_OK(gpux_array_empty(&u, c, GPUX_UINT8, 1, shu));
    GT_OK(gpux_unary(&e, GPUX_NEG, s));
    GT_OK(gpux_array_full(&m, c, GPUX_INT64, 2, sh2, (double)iter));
    float got[1000];
    GT_OK(gpux_array_read(e, got, sizeof got));
    for (int i = 0; i < 1000; i++) assert_true(got[i] == -h[i]);
    int64_t gm[33 * 77];
    GT_OK(gpux_array_read(m, gm, sizeof gm));
    for (int i = 0; i < 33 * 77; i++) assert_int_equal(gm[i], iter);
    gpux_pool_stats live = stats(c);
    GT_ASSERT(live.bytes_in_use >= 3 * 4000 + 12345 + 4000 + 33 * 77 * 8,
              "bytes_in_use %" PRIu64 " smaller than the live arrays", live.bytes_in_use);
    gpux_array_release(a);
    gpux_array_release(b);
    gpux_array_release(s);
    gpux_array_release(u);
    gpux_array_release(e);
    gpux_array_release(m);
    gpux_pool_stats st = stats(c);
    check_consistent(&st, "loop");
    assert_true(st.bytes_in_use == 0);
    assert_true(st.bytes_cached >= 3 * 4000 + 12345 + 4000 + 33 * 77 * 8);
    assert_true(st.peak_bytes_in_use >= live.bytes_in_use);
    uint64_t req = st.pool_hits + st.pool_misses;
    if (iter == 0) {
      allocs_after_first = st.device_allocs;
      assert_true(allocs_after_first >= 1);
    } else {
      GT_ASSERT(st.device_allocs == allocs_after_first,
                "iteration %d: device_allocs %" PRIu64 ", after the first iteration %" PRIu64, iter,
                st.device_allocs, allocs_after_first);
      GT_ASSERT(st.pool_hits == hits_before + 6, "iteration %d: pool_hits %" PRIu64 " -> %" PRIu64
                " for 6 arrays", iter, hits_before, st.pool_hits);
      GT_ASSERT(req == req_before + 6, "iteration %d: %" PRIu64 " requests for 6 arrays", iter,
                req - req_before);
      assert_true(st.device_frees == 0);
    }
    hits_before = st.pool_hits;
    req_before = req;
  }
}

/* Reused blocks carry old data; creation functions must still initialize them. */
static void test_reused_blocks_initialized(void **state) {
  gpux_context_t c = *state;
  const int64_t sh[1] = {4099};
  for (int round = 0; round < 3; round++) {
    gpux_array_t a = NULL;
    GT_OK(gpux_array_full(&a, c, GPUX_INT32, 1, sh, 0x5A5A5A5A));
    gpux_array_release(a);
    int32_t got[4099];
    GT_OK(gpux_array_zeros(&a, c, GPUX_INT32, 1, sh));
    GT_OK(gpux_array_read(a, got, sizeof got));
    for (int i = 0; i < 4099; i++) assert_int_equal(got[i], 0);
    gpux_array_release(a);
    GT_OK(gpux_array_ones(&a, c, GPUX_INT32, 1, sh));
    GT_OK(gpux_array_read(a, got, sizeof got));
    for (int i = 0; i < 4099; i++) assert_int_equal(got[i], 1);
    gpux_array_release(a);
    GT_OK(gpux_array_arange(&a, c, GPUX_INT32, 0, 4099, 1));
    GT_OK(gpux_array_read(a, got, sizeof got));
    for (int i = 0; i < 4099; i++) assert_int_equal(got[i], i);
    gpux_array_release(a);
  }
  gpux_pool_stats st = stats(c);
  check_consistent(&st, "reuse");
  assert_true(st.pool_hits >= 8);
}

static void test_trim(void **state) {
  gpux_context_t c = *state;
  const int64_t sh[1] = {1 << 18}, keep_sh[1] = {1 << 16};
  gpux_array_t keep = NULL;
  GT_OK(gpux_array_ones(&keep, c, GPUX_FLOAT32, 1, keep_sh));
  for (int i = 0; i < 4; i++) {
    gpux_array_t a = NULL, b = NULL;
    GT_OK(gpux_array_zeros(&a, c, GPUX_FLOAT32, 1, sh));
    GT_OK(gpux_binary_scalar(&b, GPUX_ADD, a, 1.0));
    gpux_array_release(a);
    gpux_array_release(b);
  }
  gpux_pool_stats st = stats(c);
  check_consistent(&st, "before trim");
  assert_true(st.bytes_cached >= 2u * (1u << 20));
  uint64_t in_use = st.bytes_in_use;
  assert_true(in_use >= (1u << 18));
  GT_OK(gpux_pool_trim(c));
  gpux_pool_stats t = stats(c);
  print_stats("after trim", &t);
  check_consistent(&t, "after trim");
  assert_true(t.bytes_cached == 0);
  assert_true(t.bytes_in_use == in_use);
  assert_true(t.device_frees > st.device_frees);
  assert_true(t.device_allocs - t.device_frees == 1); /* only `keep` is held */
  /* the live array survived the trim */
  float got[1 << 16];
  GT_OK(gpux_array_read(keep, got, sizeof got));
  for (int i = 0; i < (1 << 16); i++) assert_true(got[i] == 1.0f);
  gpux_array_release(keep);
  GT_OK(gpux_pool_trim(c));
  t = stats(c);
  assert_true(t.bytes_cached == 0);
  assert_true(t.bytes_in_use == 0);
  assert_true(t.device_allocs == t.device_frees);
  /* trimming an empty pool is fine */
  GT_OK(gpux_pool_trim(c));
  gt_smoke(c);
}

static void test_views_do_not_allocate(void **state) {
  gpux_context_t c = *state;
  const int64_t sh[2] = {64, 32};
  gpux_array_t a = NULL, s = NULL, r = NULL;
  GT_OK(gpux_array_arange(&a, c, GPUX_FLOAT32, 0, 2048, 1));
  const int64_t flat[2] = {64, 32};
  GT_OK(gpux_array_reshape(&r, a, 2, flat));
  gpux_pool_stats before = stats(c);
  const int64_t st[2] = {1, 0}, sp[2] = {64, 32}, stp[2] = {2, 3};
  GT_OK(gpux_array_slice(&s, r, st, sp, stp));
  gpux_array_t r2 = NULL;
  const int64_t back[1] = {-1};
  GT_OK(gpux_array_reshape(&r2, r, 1, back));
  gpux_pool_stats after = stats(c);
  assert_true(after.device_allocs == before.device_allocs);
  assert_true(after.pool_hits + after.pool_misses == before.pool_hits + before.pool_misses);
  assert_true(after.bytes_in_use == before.bytes_in_use);
  /* the memory lives until the last view goes */
  gpux_array_release(a);
  gpux_array_release(r);
  gpux_array_release(r2);
  after = stats(c);
  assert_true(after.bytes_in_use == before.bytes_in_use);
  float got[32 * 11];
  GT_OK(gpux_array_read(s, got, sizeof got));
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 11; j++) assert_true(got[i * 11 + j] == (float)((1 + 2 * i) * 32 + 3 * j));
  gpux_array_release(s);
  after = stats(c);
  assert_true(after.bytes_in_use == 0);
  check_consistent(&after, "views");
  (void)sh;
}

static void test_pool_limit(void **state) {
  gpux_context_t c = *state;
  const int64_t mib[1] = {1 << 18}; /* 1 MiB of float32 */
  GT_OK(gpux_context_set_option(c, GPUX_OPTION_POOL_LIMIT_BYTES, 0));
  gpux_array_t a = NULL;
  GT_OK(gpux_array_ones(&a, c, GPUX_FLOAT32, 1, mib));
  gpux_array_release(a);
  gpux_pool_stats st = stats(c);
  check_consistent(&st, "limit 0");
  assert_true(st.bytes_cached == 0);
  assert_true(st.device_frees == st.device_allocs);
  /* limit 1.5 MiB with four 1 MiB blocks released */
  GT_OK(gpux_context_set_option(c, GPUX_OPTION_POOL_LIMIT_BYTES, 3 << 19));
  gpux_array_t x[4];
  for (int i = 0; i < 4; i++) GT_OK(gpux_array_zeros(&x[i], c, GPUX_FLOAT32, 1, mib));
  for (int i = 0; i < 4; i++) gpux_array_release(x[i]);
  st = stats(c);
  print_stats("limit 1.5 MiB", &st);
  check_consistent(&st, "limit 1.5 MiB");
  assert_true(st.bytes_cached <= (3u << 19));
  assert_true(st.bytes_in_use == 0);
  /* lowering the limit trims what is cached */
  GT_OK(gpux_context_set_option(c, GPUX_OPTION_POOL_LIMIT_BYTES, 0));
  st = stats(c);
  assert_true(st.bytes_cached == 0);
  GT_OK(gpux_context_set_option(c, GPUX_OPTION_POOL_LIMIT_BYTES, INT64_MAX));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_context_set_option(c, GPUX_OPTION_POOL_LIMIT_BYTES, -1));
  gt_smoke(c);
}

static void test_peak(void **state) {
  gpux_context_t c = *state;
  const int64_t sh[1] = {1 << 20};
  gpux_array_t a = NULL, b = NULL, d = NULL;
  GT_OK(gpux_array_zeros(&a, c, GPUX_UINT8, 1, sh));
  GT_OK(gpux_array_zeros(&b, c, GPUX_UINT8, 1, sh));
  GT_OK(gpux_array_zeros(&d, c, GPUX_UINT8, 1, sh));
  gpux_pool_stats three = stats(c);
  assert_true(three.bytes_in_use >= 3u << 20);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(d);
  gpux_pool_stats none = stats(c);
  assert_true(none.bytes_in_use == 0);
  assert_true(none.peak_bytes_in_use == three.bytes_in_use);
  GT_OK(gpux_array_zeros(&a, c, GPUX_UINT8, 1, sh));
  gpux_pool_stats one = stats(c);
  assert_true(one.peak_bytes_in_use == three.bytes_in_use);
  gpux_array_release(a);
  check_consistent(&one, "peak");
}

int main(void) {
  gt_init("test_pool");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_fresh_context, setup, teardown),
      cmocka_unit_test_setup_teardown(test_loop_reuses_blocks, setup, teardown),
      cmocka_unit_test_setup_teardown(test_reused_blocks_initialized, setup, teardown),
      cmocka_unit_test_setup_teardown(test_trim, setup, teardown),
      cmocka_unit_test_setup_teardown(test_views_do_not_allocate, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pool_limit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_peak, setup, teardown),
  };
  int failed = gt_run("pool", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
