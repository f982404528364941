/* gpux tests: backends, devices, contexts, version, status strings, error messages. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Environment handling: tests change GPUX_BACKEND / GPUX_DEVICE and restore them. */
static char *saved_backend, *saved_device;

static void env_save(void) {
  free(saved_backend);
  free(saved_device);
  const char *b = getenv("GPUX_BACKEND"), *d = getenv("GPUX_DEVICE");
  saved_backend = b ? strdup(b) : NULL;
  saved_device = d ? strdup(d) : NULL;
}

static void env_restore(void) {
  if (saved_backend) setenv("GPUX_BACKEND", saved_backend, 1);
  else unsetenv("GPUX_BACKEND");
  if (saved_device) setenv("GPUX_DEVICE", saved_device, 1);
  else unsetenv("GPUX_DEVICE");
  free(saved_backend);
  free(saved_device);
  saved_backend = saved_device = NULL;
}

static gpux_backend_kind other_backend(void) {
  return gt_info.backend == GPUX_BACKEND_CUDA ? GPUX_BACKEND_OPENCL : GPUX_BACKEND_CUDA;
}

/* ------------------------------------------------------------------ version, status */

static void test_version(void **state) {
  (void)state;
  assert_non_null(gpux_version_string());
  assert_string_equal(gpux_version_string(), GPUX_VERSION_STRING);
  assert_int_equal(gpux_version_number(), GPUX_VERSION_NUMBER);
  assert_int_equal(GPUX_VERSION_NUMBER,
                   GPUX_VERSION_MAJOR * 10000 + GPUX_VERSION_MINOR * 100 + GPUX_VERSION_PATCH);
}

static void test_status_strings(void **state) {
  (void)state;
  int count = 0;
#define CHECK_STATUS(name, value, text)                                     \
  do {                                                                      \
    assert_int_equal((int)GPUX_##name, value);                              \
    assert_non_null(gpux_status_string(GPUX_##name));                       \
    assert_string_equal(gpux_status_string(GPUX_##name), text);             \
    assert_non_null(gpux_status_name(GPUX_##name));                         \
    assert_string_equal(gpux_status_name(GPUX_##name), "GPUX_" #name);      \
    count++;                                                                \
  } while (0);
  GPUX_STATUS_MAP(CHECK_STATUS)
#undef CHECK_STATUS
  assert_true(count >= 26);
  assert_string_equal(gpux_status_string((gpux_status)12345), "unknown status");
  assert_string_equal(gpux_status_string((gpux_status)-1), "unknown status");
  (void)gpux_status_name((gpux_status)12345); /* must not crash */
}

static void test_backend_names(void **state) {
  (void)state;
  assert_string_equal(gpux_backend_name(GPUX_BACKEND_DEFAULT), "default");
  assert_string_equal(gpux_backend_name(GPUX_BACKEND_AUTO), "auto");
  assert_string_equal(gpux_backend_name(GPUX_BACKEND_CUDA), "cuda");
  assert_string_equal(gpux_backend_name(GPUX_BACKEND_OPENCL), "opencl");
  /* any other value: static text, never NULL */
  assert_string_equal(gpux_backend_name((gpux_backend_kind)99), "unknown");
  assert_string_equal(gpux_backend_name((gpux_backend_kind)-1), "unknown");
  const struct { const char *n; gpux_backend_kind k; } ok[] = {
      {"cuda", GPUX_BACKEND_CUDA},     {"CUDA", GPUX_BACKEND_CUDA},
      {"opencl", GPUX_BACKEND_OPENCL}, {"OpenCL", GPUX_BACKEND_OPENCL},
      {"auto", GPUX_BACKEND_AUTO},     {"Auto", GPUX_BACKEND_AUTO},
      {"default", GPUX_BACKEND_DEFAULT}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    gpux_backend_kind k = (gpux_backend_kind)-1;
    GT_OK(gpux_backend_from_name(&k, ok[i].n));
    GT_ASSERT(k == ok[i].k, "gpux_backend_from_name(\"%s\") = %d", ok[i].n, (int)k);
  }
  const char *bad[] = {"cudaa", "metal", "open cl", "vulkan", "x"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gpux_backend_kind k;
    gpux_clear_error();
    GT_EXPECT(GPUX_ERROR_BACKEND_UNKNOWN, gpux_backend_from_name(&k, bad[i]));
    GT_ASSERT(strstr(gpux_last_error_message(), bad[i]) != NULL,
              "message for unknown backend '%s' does not name it: %s", bad[i],
              gpux_last_error_message());
  }
}

/* ------------------------------------------------------------------ selection */

static void test_backend_from_env(void **state) {
  (void)state;
  gpux_backend_kind k;
  GT_OK(gpux_context_backend(&k, gt_ctx));
  assert_int_equal(k, gt_info.backend);
  assert_true(k == GPUX_BACKEND_CUDA || k == GPUX_BACKEND_OPENCL);
  const char *env = getenv("GPUX_BACKEND");
  if (env && *env) {
    gpux_backend_kind want;
    GT_OK(gpux_backend_from_name(&want, env));
    if (want == GPUX_BACKEND_CUDA || want == GPUX_BACKEND_OPENCL)
      GT_ASSERT(k == want, "GPUX_BACKEND=%s but the context uses %s", env, gpux_backend_name(k));
  }
  /* a fresh context from the environment gets the same backend and device */
  gpux_context_t c = NULL;
  GT_OK(gpux_context_create(&c, GPUX_BACKEND_DEFAULT, -1));
  GT_OK(gpux_context_backend(&k, c));
  assert_int_equal(k, gt_info.backend);
  gpux_device_info info;
  GT_OK(gpux_context_device_info(&info, c));
  assert_int_equal(info.index, gt_info.index);
  gt_smoke(c);
  gpux_context_release(c);
}

static void test_backend_by_code_and_env(void **state) {
  (void)state;
  env_save();
  gpux_context_t c = NULL;
  gpux_backend_kind k;
  /* an unknown GPUX_BACKEND is an error for DEFAULT ... */
  setenv("GPUX_BACKEND", "no-such-backend", 1);
  GT_EXPECT(GPUX_ERROR_BACKEND_UNKNOWN, gpux_context_create(&c, GPUX_BACKEND_DEFAULT, -1));
  assert_null(c);
  GT_ASSERT(strstr(gpux_last_error_message(), "no-such-backend") != NULL,
            "message does not name the bad GPUX_BACKEND value: %s", gpux_last_error_message());
  /* ... but code that names the backend overrides the environment */
  GT_OK(gpux_context_create(&c, gt_info.backend, -1));
  GT_OK(gpux_context_backend(&k, c));
  assert_int_equal(k, gt_info.backend);
  gt_smoke(c);
  gpux_context_release(c);
  c = NULL;
  /* GPUX_BACKEND naming the other backend does not change an explicit choice */
  setenv("GPUX_BACKEND", gpux_backend_name(other_backend()), 1);
  GT_OK(gpux_context_create(&c, gt_info.backend, gt_info.index));
  GT_OK(gpux_context_backend(&k, c));
  assert_int_equal(k, gt_info.backend);
  gpux_context_release(c);
  c = NULL;
  /* GPUX_BACKEND set to this backend's name, upper case */
  setenv("GPUX_BACKEND", gt_info.backend == GPUX_BACKEND_CUDA ? "CUDA" : "OPENCL", 1);
  GT_OK(gpux_context_create(&c, GPUX_BACKEND_DEFAULT, -1));
  GT_OK(gpux_context_backend(&k, c));
  assert_int_equal(k, gt_info.backend);
  gpux_context_release(c);
  c = NULL;
  /* an unknown backend id in code */
  GT_EXPECT(GPUX_ERROR_BACKEND_UNKNOWN, gpux_context_create(&c, (gpux_backend_kind)42, -1));
  env_restore();
}

static void test_backend_auto(void **state) {
  (void)state;
  env_save();
  unsetenv("GPUX_DEVICE");
  gpux_context_t c = NULL;
  gpux_backend_kind k;
  int ncuda = 0;
  gpux_status cs = gpux_device_count(&ncuda, GPUX_BACKEND_CUDA);
  /* AUTO in code */
  GT_OK(gpux_context_create(&c, GPUX_BACKEND_AUTO, -1));
  GT_OK(gpux_context_backend(&k, c));
  if (cs == GPUX_SUCCESS && ncuda > 0)
    GT_ASSERT(k == GPUX_BACKEND_CUDA, "auto with a CUDA device picked %s", gpux_backend_name(k));
  else
    GT_ASSERT(k == GPUX_BACKEND_OPENCL, "auto without CUDA picked %s", gpux_backend_name(k));
  gt_smoke(c);
  gpux_context_release(c);
  c = NULL;
  /* GPUX_BACKEND=auto and unset behave the same */
  setenv("GPUX_BACKEND", "auto", 1);
  GT_OK(gpux_context_create(&c, GPUX_BACKEND_DEFAULT, -1));
  gpux_backend_kind k2;
  GT_OK(gpux_context_backend(&k2, c));
  assert_int_equal(k2, k);
  gpux_context_release(c);
  c = NULL;
  unsetenv("GPUX_BACKEND");
  GT_OK(gpux_context_create(&c, GPUX_BACKEND_DEFAULT, -1));
  GT_OK(gpux_context_backend(&k2, c));
  assert_int_equal(k2, k);
  gpux_context_release(c);
  env_restore();
}

/* The backend this run is not about: either it works (and is what was asked for) or it is
 * reported unavailable with a reason; never a silent fallback. */
static void test_other_backend_explicit(void **state) {
  (void)state;
  gpux_context_t c = NULL;
  gpux_backend_kind o = other_backend();
  gpux_clear_error();
  gpux_status s = gpux_context_create(&c, o, 0);
  if (s == GPUX_SUCCESS) {
    gpux_backend_kind k;
    GT_OK(gpux_context_backend(&k, c));
    GT_ASSERT(k == o, "asked for %s, got %s", gpux_backend_name(o), gpux_backend_name(k));
    gpux_context_release(c);
    return;
  }
  GT_ASSERT(s == GPUX_ERROR_BACKEND_UNAVAILABLE || s == GPUX_ERROR_NO_DEVICE,
            "explicit %s: %s (%s)", gpux_backend_name(o), gpux_status_name(s), gpux_last_error_message());
  GT_ASSERT(gpux_last_error_message()[0] != '\0', "no reason given for the unavailable backend");
  assert_null(c);
  print_message("%s: %s\n", gpux_backend_name(o), gpux_last_error_message());
  int n = 99;
  s = gpux_device_count(&n, o);
  GT_ASSERT(s == GPUX_ERROR_BACKEND_UNAVAILABLE || s == GPUX_ERROR_NO_DEVICE,
            "gpux_device_count(%s) = %s", gpux_backend_name(o), gpux_status_name(s));
  if (s == GPUX_ERROR_NO_DEVICE) assert_int_equal(n, 0);
}

static void test_device_env(void **state) {
  (void)state;
  env_save();
  int n = 0;
  GT_OK(gpux_device_count(&n, gt_info.backend));
  assert_true(n >= 1);
  gpux_context_t c = NULL;
  gpux_device_info info;
  char buf[32];
  /* GPUX_DEVICE=0 */
  setenv("GPUX_DEVICE", "0", 1);
  GT_OK(gpux_context_create(&c, gt_info.backend, -1));
  GT_OK(gpux_context_device_info(&info, c));
  assert_int_equal(info.index, 0);
  gpux_context_release(c);
  c = NULL;
  /* the last device */
  snprintf(buf, sizeof buf, "%d", n - 1);
  setenv("GPUX_DEVICE", buf, 1);
  GT_OK(gpux_context_create(&c, GPUX_BACKEND_DEFAULT, -1));
  GT_OK(gpux_context_device_info(&info, c));
  assert_int_equal(info.index, n - 1);
  gt_smoke(c);
  gpux_context_release(c);
  c = NULL;
  /* out of range */
  snprintf(buf, sizeof buf, "%d", n);
  setenv("GPUX_DEVICE", buf, 1);
  GT_EXPECT(GPUX_ERROR_INVALID_DEVICE, gpux_context_create(&c, gt_info.backend, -1));
  assert_null(c);
  /* an explicit device overrides GPUX_DEVICE */
  GT_OK(gpux_context_create(&c, gt_info.backend, 0));
  GT_OK(gpux_context_device_info(&info, c));
  assert_int_equal(info.index, 0);
  gpux_context_release(c);
  c = NULL;
  /* not a number */
  setenv("GPUX_DEVICE", "first", 1);
  gpux_status s = gpux_context_create(&c, gt_info.backend, -1);
  GT_ASSERT(s != GPUX_SUCCESS, "GPUX_DEVICE=first was accepted");
  assert_null(c);
  env_restore();
  /* explicit indices */
  GT_EXPECT(GPUX_ERROR_INVALID_DEVICE, gpux_context_create(&c, gt_info.backend, n));
  GT_EXPECT(GPUX_ERROR_INVALID_DEVICE, gpux_context_create(&c, gt_info.backend, -2));
  GT_EXPECT(GPUX_ERROR_INVALID_DEVICE, gpux_context_create(&c, gt_info.backend, 1 << 30));
}

static void test_device_listing(void **state) {
  (void)state;
  int n = 0;
  GT_OK(gpux_device_count(&n, gt_info.backend));
  assert_true(n >= 1);
  for (int i = 0; i < n; i++) {
    gpux_device_info d;
    memset(&d, 0xCD, sizeof d);
    GT_OK(gpux_device_get_info(&d, gt_info.backend, i));
    print_message("device %d: %s | %s | %s | driver %s | %s | %.2f GiB (max alloc %.2f GiB), "
                  "%d CUs, fp64 %d, gpu %d\n",
                  i, d.name, d.vendor, d.platform, d.driver_version, d.version,
                  (double)d.global_mem_bytes / 1073741824.0, (double)d.max_alloc_bytes / 1073741824.0,
                  d.compute_units, d.fp64, d.is_gpu);
    assert_int_equal(d.backend, gt_info.backend);
    assert_int_equal(d.index, i);
    assert_true(memchr(d.name, '\0', sizeof d.name) != NULL && d.name[0] != '\0');
    assert_true(memchr(d.vendor, '\0', sizeof d.vendor) != NULL);
    assert_true(memchr(d.platform, '\0', sizeof d.platform) != NULL && d.platform[0] != '\0');
    assert_true(memchr(d.driver_version, '\0', sizeof d.driver_version) != NULL);
    assert_true(memchr(d.version, '\0', sizeof d.version) != NULL && d.version[0] != '\0');
    assert_true(d.global_mem_bytes > 0);
    assert_true(d.max_alloc_bytes > 0 && d.max_alloc_bytes <= d.global_mem_bytes);
    assert_true(d.compute_units >= 1);
    assert_true(d.fp64 == 0 || d.fp64 == 1);
    assert_true(d.is_gpu == 0 || d.is_gpu == 1);
    if (d.backend == GPUX_BACKEND_CUDA) {
      assert_string_equal(d.platform, "CUDA");
      assert_true(strncmp(d.version, "sm_", 3) == 0);
      assert_int_equal(d.is_gpu, 1);
    }
  }
  gpux_device_info d;
  GT_EXPECT(GPUX_ERROR_INVALID_DEVICE, gpux_device_get_info(&d, gt_info.backend, n));
  GT_EXPECT(GPUX_ERROR_INVALID_DEVICE, gpux_device_get_info(&d, gt_info.backend, -1));
  /* the context's device info is the listing's entry */
  gpux_device_info c, l;
  GT_OK(gpux_context_device_info(&c, gt_ctx));
  GT_OK(gpux_device_get_info(&l, c.backend, c.index));
  assert_string_equal(c.name, l.name);
  assert_string_equal(c.platform, l.platform);
  assert_true(c.global_mem_bytes == l.global_mem_bytes);
  assert_int_equal(c.fp64, l.fp64);
  assert_int_equal(c.is_gpu, l.is_gpu);
  /* pocl is a CPU device */
  if (strstr(c.platform, "Portable Computing Language")) assert_int_equal(c.is_gpu, 0);
}

/* ------------------------------------------------------------------ contexts */

static void test_context_basics(void **state) {
  (void)state;
  GT_OK(gpux_context_synchronize(gt_ctx));
  GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_POOL_LIMIT_BYTES, 1 << 20));
  GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_POOL_LIMIT_BYTES, INT64_MAX));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_context_set_option(gt_ctx, (gpux_context_option)9999, 1));
  /* two contexts on one device, used interleaved */
  gpux_context_t c1 = gt_context_new(), c2 = gt_context_new();
  gt_smoke(c1);
  gt_smoke(c2);
  gpux_array_t a1 = NULL, a2 = NULL;
  const int64_t sh[1] = {1000};
  GT_OK(gpux_array_full(&a1, c1, GPUX_INT32, 1, sh, 1));
  GT_OK(gpux_array_full(&a2, c2, GPUX_INT32, 1, sh, 2));
  for (int i = 0; i < 10; i++) {
    GT_OK(gpux_binary_into(a1, GPUX_ADD, a1, a1));
    GT_OK(gpux_binary_scalar_into(a2, GPUX_MUL, a2, 3));
  }
  int32_t g1[1000], g2[1000];
  GT_OK(gpux_array_read(a2, g2, sizeof g2));
  GT_OK(gpux_array_read(a1, g1, sizeof g1));
  for (int i = 0; i < 1000; i++) {
    assert_int_equal(g1[i], 1024);
    assert_int_equal(g2[i], 2 * 59049);
  }
  gpux_context_t q = NULL;
  GT_OK(gpux_array_context(&q, a1));
  assert_ptr_equal(q, c1);
  gpux_array_release(a1);
  gpux_array_release(a2);
  gpux_context_release(c1);
  /* c2 still works after c1 is gone */
  gt_smoke(c2);
  GT_OK(gpux_context_synchronize(c2));
  gpux_context_release(c2);
  /* releasing a context with queued work waits for it */
  gpux_context_t c3 = gt_context_new();
  gpux_array_t big = NULL;
  const int64_t sb[1] = {1 << 20};
  GT_OK(gpux_array_zeros(&big, c3, GPUX_FLOAT32, 1, sb));
  for (int i = 0; i < 20; i++) GT_OK(gpux_unary_into(big, GPUX_COS, big));
  gpux_array_release(big);
  gpux_context_release(c3);
}

static void test_events(void **state) {
  (void)state;
  gpux_event_t e0 = NULL, e1 = NULL;
  gpux_status s = gpux_event_create(&e0, gt_ctx);
  if (s == GPUX_ERROR_UNSUPPORTED) {
    print_message("events unsupported by this backend\n");
    skip();
  }
  GT_OK(s);
  GT_OK(gpux_event_create(&e1, gt_ctx));
  double ms = -1;
  GT_ASSERT(gpux_event_elapsed_ms(&ms, e0, e1) != GPUX_SUCCESS,
            "elapsed time of events never recorded succeeded");
  GT_OK(gpux_event_record(e0));
  gpux_array_t a = NULL;
  const int64_t sh[1] = {1 << 20};
  GT_OK(gpux_array_ones(&a, gt_ctx, GPUX_FLOAT32, 1, sh));
  for (int i = 0; i < 10; i++) GT_OK(gpux_unary_into(a, GPUX_SQRT, a));
  GT_OK(gpux_event_record(e1));
  GT_OK(gpux_event_synchronize(e1));
  GT_OK(gpux_event_elapsed_ms(&ms, e0, e1));
  GT_ASSERT(ms >= 0 && ms < 60000, "elapsed %g ms", ms);
  GT_OK(gpux_event_synchronize(e0));
  /* recorded again later: the second interval is not negative either */
  GT_OK(gpux_event_record(e0));
  GT_OK(gpux_event_record(e1));
  GT_OK(gpux_event_elapsed_ms(&ms, e0, e1));
  GT_ASSERT(ms >= 0, "elapsed %g ms", ms);
  gpux_event_release(e0);
  gpux_event_release(e1);
  gpux_array_release(a);
}

/* ------------------------------------------------------------------ error messages */

static void *thread_fail(void *arg) {
  (void)arg;
  gpux_backend_kind k;
  gpux_backend_from_name(&k, "thread-local-check");
  return strstr(gpux_last_error_message(), "thread-local-check") ? (void *)1 : NULL;
}

static void test_error_message(void **state) {
  (void)state;
  gpux_clear_error();
  assert_non_null(gpux_last_error_message());
  assert_string_equal(gpux_last_error_message(), "");
  gpux_backend_kind k;
  GT_EXPECT(GPUX_ERROR_BACKEND_UNKNOWN, gpux_backend_from_name(&k, "main-thread-bad"));
  char saved[512];
  snprintf(saved, sizeof saved, "%s", gpux_last_error_message());
  assert_non_null(strstr(saved, "main-thread-bad"));
  /* a successful call leaves it alone (GT_OK would clear it first) */
  assert_int_equal(gpux_backend_from_name(&k, "opencl"), GPUX_SUCCESS);
  const int64_t n = 5;
  gpux_array_t a = NULL, b = NULL;
  assert_int_equal(gpux_array_ones(&a, gt_ctx, GPUX_INT32, 1, &n), GPUX_SUCCESS);
  assert_int_equal(gpux_binary(&b, GPUX_ADD, a, a), GPUX_SUCCESS);
  assert_int_equal(gpux_context_synchronize(gt_ctx), GPUX_SUCCESS);
  gpux_array_release(a);
  gpux_array_release(b);
  assert_string_equal(gpux_last_error_message(), saved);
  /* the message is per thread */
  pthread_t t;
  void *ret = NULL;
  assert_int_equal(pthread_create(&t, NULL, thread_fail, NULL), 0);
  assert_int_equal(pthread_join(t, &ret), 0);
  assert_true(ret == (void *)1);
  assert_string_equal(gpux_last_error_message(), saved);
  gpux_clear_error();
  assert_string_equal(gpux_last_error_message(), "");
}

/* a context per thread, used concurrently */
static void *thread_work(void *arg) {
  gpux_context_t c = NULL;
  int *ok = arg;
  if (gpux_context_create(&c, gt_info.backend, gt_info.index) != GPUX_SUCCESS) return NULL;
  gpux_array_t a = NULL;
  const int64_t sh[1] = {4096};
  int32_t got[4096];
  *ok = gpux_array_arange(&a, c, GPUX_INT32, 0, 4096, 1) == GPUX_SUCCESS;
  for (int i = 0; *ok && i < 50; i++) *ok = gpux_binary_scalar_into(a, GPUX_ADD, a, 1) == GPUX_SUCCESS;
  if (*ok) *ok = gpux_array_read(a, got, sizeof got) == GPUX_SUCCESS;
  for (int i = 0; *ok && i < 4096; i++) *ok = got[i] == i + 50;
  (void)sh;
  gpux_array_release(a);
  gpux_context_release(c);
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  pthread_t t[4];
  int ok[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++) assert_int_equal(pthread_create(&t[i], NULL, thread_work, &ok[i]), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < 4; i++) GT_ASSERT(ok[i], "thread %d: wrong result or a failing call", i);
}

int main(void) {
  gt_init("test_context");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_version),
      cmocka_unit_test(test_status_strings),
      cmocka_unit_test(test_backend_names),
      cmocka_unit_test(test_backend_from_env),
      cmocka_unit_test(test_backend_by_code_and_env),
      cmocka_unit_test(test_backend_auto),
      cmocka_unit_test(test_other_backend_explicit),
      cmocka_unit_test(test_device_env),
      cmocka_unit_test(test_device_listing),
      cmocka_unit_test(test_context_basics),
      cmocka_unit_test(test_events),
      cmocka_unit_test(test_error_message),
      cmocka_unit_test(test_threads),
  };
  int failed = gt_run("context", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
