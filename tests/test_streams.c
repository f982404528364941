/* Streams (include/gpux/context.h): several queues per context, the calling thread's current
 * stream, events recorded on streams and waited on by others, the caching allocator across
 * streams (a block is never handed to another stream while work that uses it may still
 * run), several threads on one context with a stream each, and releases in every order.
 *
 * A kernel that is slow on purpose (slow_copy: spins, then copies) holds a stream busy; its
 * spin count is calibrated at start so that one launch takes about SLOW_MS on the device,
 * whatever the device. The assertions on order hold whether or not the device overlaps the
 * two streams; the pool's are made only while an event says the slow kernel is still
 * running. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

#define SLOW_MS 150.0

static const char *k_slow_src =
    "GPUX_KERNEL slow_copy(GPUX_GLOBAL const float *x, GPUX_GLOBAL float *y, const int n,\n"
    "                      const int spin) {\n"
    "  int i = (int)GPUX_GLOBAL_ID(0);\n"
    "  if (i >= n) return;\n"
    "  float t = (float)i;\n"
    "  for (int k = 0; k < spin; k++) t = t * 0.5f + 1.0f; /* stays in [1, 2] + i: never < 0 */\n"
    "  y[i] = x[i] + (t < -1.0f ? 1.0f : 0.0f);\n"
    "}\n";

static gpux_program_t g_prog;
static gpux_kernel_t g_slow;
static int g_spin = 1024;
static int64_t g_n; /* elements of the slow copies */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* y = x after a spin, queued on the calling thread's current stream */
static void slow_copy(gpux_array_t y, gpux_array_t x, int spin) {
  const uint64_t g[1] = {(uint64_t)g_n};
  const uint32_t b[1] = {64};
  const gpux_arg args[4] = {gpux_arg_array(x), gpux_arg_array(y), gpux_arg_i32((int32_t)g_n),
                            gpux_arg_i32(spin)};
  GT_OK(gpux_kernel_call(g_slow, 1, g, b, 4, args));
}

static void read_f32(gpux_array_t a, float *h, int64_t n) {
  GT_OK(gpux_array_read(a, h, (size_t)n * sizeof *h));
}

static void setup_slow(void) {
  GT_OK(gpux_program_create(&g_prog, gt_ctx, GPUX_SOURCE_DIALECT, k_slow_src, NULL));
  GT_OK(gpux_kernel_create(&g_slow, g_prog, "slow_copy"));
  g_n = gt_info.is_gpu ? (int64_t)1 << 16 : 1024;
  gpux_array_t x = NULL, y = NULL;
  GT_OK(gpux_array_ones(&x, gt_ctx, GPUX_FLOAT32, 1, &g_n));
  GT_OK(gpux_array_empty(&y, gt_ctx, GPUX_FLOAT32, 1, &g_n));
  /* double the spin until a launch takes SLOW_MS / 4, then scale to SLOW_MS */
  for (;;) {
    GT_OK(gpux_context_synchronize(gt_ctx));
    double t0 = now_ms();
    slow_copy(y, x, g_spin);
    GT_OK(gpux_context_synchronize(gt_ctx));
    double ms = now_ms() - t0;
    if (ms >= SLOW_MS / 4 || g_spin >= (1 << 29)) {
      double f = SLOW_MS / (ms > 0.01 ? ms : 0.01);
      g_spin = (int)(g_spin * (f < 1 ? 1 : f > 8 ? 8 : f));
      break;
    }
    g_spin *= 2;
  }
  gpux_array_release(x);
  gpux_array_release(y);
}

/* ---- the API: defaults, current streams, errors */
static void test_basics(void **state) {
  (void)state;
  gpux_stream_t d = NULL, cur = NULL, s = NULL, s2 = NULL;
  gpux_context_t c = NULL;
  GT_OK(gpux_context_default_stream(&d, gt_ctx));
  GT_ASSERT(d != NULL, "default stream");
  GT_OK(gpux_stream_get_current(&cur, gt_ctx));
  GT_ASSERT(cur == d, "the current stream starts as the default one");
  GT_OK(gpux_stream_create(&s, gt_ctx));
  GT_OK(gpux_stream_context(&c, s));
  GT_ASSERT(c == gt_ctx, "the stream's context");
  GT_OK(gpux_stream_set_current(gt_ctx, s));
  GT_OK(gpux_stream_get_current(&cur, gt_ctx));
  GT_ASSERT(cur == s, "set_current");
  /* ops run on it: a round trip */
  const int64_t n = 1001;
  float *h = gt_malloc(n * sizeof *h), *got = gt_malloc(n * sizeof *got);
  gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, 11);
  gpux_array_t a = NULL, b = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, &n, h));
  GT_OK(gpux_binary_scalar(&b, GPUX_MUL, a, 2.0));
  memset(got, GT_POISON_BYTE, n * sizeof *got);
  read_f32(b, got, n);
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == h[i] * 2.0f, "x * 2 on a stream at %lld", (long long)i);
  GT_OK(gpux_stream_synchronize(s));
  GT_OK(gpux_stream_synchronize(d));
  /* back to the default stream; another stream made current replaces it */
  GT_OK(gpux_stream_create(&s2, gt_ctx));
  GT_OK(gpux_stream_set_current(gt_ctx, s2));
  GT_OK(gpux_stream_get_current(&cur, gt_ctx));
  GT_ASSERT(cur == s2, "set_current again");
  GT_OK(gpux_stream_set_current(gt_ctx, d)); /* the default stream by its handle */
  GT_OK(gpux_stream_get_current(&cur, gt_ctx));
  GT_ASSERT(cur == d, "back to the default stream");
  GT_OK(gpux_stream_set_current(gt_ctx, s));
  GT_OK(gpux_stream_set_current(gt_ctx, NULL));
  GT_OK(gpux_stream_get_current(&cur, gt_ctx));
  GT_ASSERT(cur == d, "NULL is the default stream");
  /* the arrays made on s outlive it */
  gpux_stream_release(s);
  gpux_stream_release(s2);
  gpux_stream_release(d); /* the context's: nothing happens */
  memset(got, GT_POISON_BYTE, n * sizeof *got);
  read_f32(b, got, n);
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == h[i] * 2.0f, "after the stream's release");
  gpux_array_release(a);
  gpux_array_release(b);
  free(h);
  free(got);

  /* errors */
  gpux_event_t e = NULL;
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_create(NULL, gt_ctx));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_create(&s, NULL));
  GT_ASSERT(s == NULL, "out cleared on error");
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_set_current(NULL, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_get_current(NULL, gt_ctx));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_get_current(&cur, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_synchronize(NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_context(&c, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_context_default_stream(NULL, gt_ctx));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_stream_wait_event(NULL, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_event_record_on(NULL, d));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_event_query(NULL, NULL));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_event_create_with_flags(&e, gt_ctx, 0x10));
  gpux_stream_release(NULL);
  /* a stream of another context */
  gpux_context_t other = gt_context_new();
  gpux_stream_t os = NULL;
  GT_OK(gpux_stream_create(&os, other));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_stream_set_current(gt_ctx, os));
  GT_OK(gpux_event_create_with_flags(&e, gt_ctx, GPUX_EVENT_DISABLE_TIMING));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_event_record_on(e, os));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_stream_wait_event(os, e));
  /* an event never recorded: done, nothing to wait for */
  int done = 0;
  GT_OK(gpux_event_query(&done, e));
  GT_ASSERT(done == 1, "an unrecorded event is done");
  GT_OK(gpux_stream_wait_event(d, e));
  GT_OK(gpux_event_synchronize(e));
  /* a timing-free event has no time */
  double ms = 0;
  GT_OK(gpux_event_record(e));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_event_elapsed_ms(&ms, e, e));
  gpux_event_release(e);
  /* the other context goes first, its stream after */
  gpux_context_release(other);
  GT_OK(gpux_stream_synchronize(os));
  gpux_stream_release(os);
}

/* ---- two streams ordered by an event: B reads what the slow kernel on A wrote */
static void test_event_order(void **state) {
  (void)state;
  gpux_stream_t sa = NULL, sb = NULL;
  GT_OK(gpux_stream_create(&sa, gt_ctx));
  GT_OK(gpux_stream_create(&sb, gt_ctx));
  float *h = gt_malloc((size_t)g_n * sizeof *h), *got = gt_malloc((size_t)g_n * sizeof *got);
  gt_fill_random(h, GPUX_FLOAT32, g_n, GT_DOM_ANY, 21);
  for (int timing = 0; timing < 2; timing++) {
    gpux_event_t ev = NULL;
    gpux_status st = gpux_event_create_with_flags(&ev, gt_ctx,
                                                  timing ? GPUX_EVENT_DEFAULT : GPUX_EVENT_DISABLE_TIMING);
    if (timing && st == GPUX_ERROR_UNSUPPORTED) continue; /* an adopted queue without profiling */
    GT_OK(st);
    gpux_array_t x = NULL, y = NULL, z = NULL;
    GT_OK(gpux_stream_set_current(gt_ctx, sa));
    GT_OK(gpux_array_from_host(&x, gt_ctx, GPUX_FLOAT32, 1, &g_n, h));
    GT_OK(gpux_array_full(&y, gt_ctx, GPUX_FLOAT32, 1, &g_n, -5.0));
    slow_copy(y, x, g_spin);
    GT_OK(gpux_event_record(ev));
    GT_OK(gpux_stream_set_current(gt_ctx, sb));
    GT_OK(gpux_stream_wait_event(sb, ev));
    GT_OK(gpux_binary_scalar(&z, GPUX_ADD, y, 1.0)); /* on B, after the event */
    memset(got, GT_POISON_BYTE, (size_t)g_n * sizeof *got);
    read_f32(z, got, g_n); /* waits for B only */
    for (int64_t i = 0; i < g_n; i++)
      GT_ASSERT(got[i] == h[i] + 1.0f, "B saw A's write at %lld: %g, want %g", (long long)i,
                got[i], h[i] + 1.0f);
    int done = 0;
    GT_OK(gpux_event_query(&done, ev));
    GT_ASSERT(done == 1, "the event is reached once B has waited for it");
    GT_OK(gpux_stream_set_current(gt_ctx, NULL));
    gpux_array_release(x);
    gpux_array_release(y);
    gpux_array_release(z);
    gpux_event_release(ev);
  }
  GT_OK(gpux_context_synchronize(gt_ctx));
  gpux_stream_release(sa);
  gpux_stream_release(sb);
  free(h);
  free(got);
}

/* ---- the caching allocator across streams */
static gpux_pool_stats stats(void) {
  gpux_pool_stats s;
  GT_OK(gpux_pool_get_stats(&s, gt_ctx));
  return s;
}

static void test_pool_streams(void **state) {
  (void)state;
  gpux_stream_t sb = NULL;
  GT_OK(gpux_stream_create(&sb, gt_ctx));
  float *got = gt_malloc((size_t)g_n * sizeof *got);
  int checked = 0;
  for (int round = 0; round < 3; round++) {
    GT_OK(gpux_pool_trim(gt_ctx)); /* no cached block: a hit can only be a freed one */
    /* x on the default stream, read late by B's slow kernel; released while it runs */
    gpux_array_t x = NULL, y = NULL, z = NULL, w = NULL;
    GT_OK(gpux_array_full(&x, gt_ctx, GPUX_FLOAT32, 1, &g_n, 3.0));
    GT_OK(gpux_context_synchronize(gt_ctx));
    gpux_event_t ev = NULL;
    GT_OK(gpux_event_create_with_flags(&ev, gt_ctx, GPUX_EVENT_DISABLE_TIMING));
    GT_OK(gpux_stream_set_current(gt_ctx, sb));
    GT_OK(gpux_array_empty(&y, gt_ctx, GPUX_FLOAT32, 1, &g_n));
    slow_copy(y, x, g_spin);
    GT_OK(gpux_event_record(ev));
    GT_OK(gpux_stream_set_current(gt_ctx, NULL));
    gpux_array_release(x); /* B may still read it */
    gpux_pool_stats s0 = stats();
    int busy = 0;
    GT_OK(gpux_event_query(&busy, ev));
    busy = !busy;
    /* the default stream asks for a block of the same size and overwrites it at once */
    GT_OK(gpux_array_full(&z, gt_ctx, GPUX_FLOAT32, 1, &g_n, 7.0));
    gpux_pool_stats s1 = stats();
    int still = 0;
    GT_OK(gpux_event_query(&still, ev));
    still = !still;
    if (busy && still) { /* B's kernel ran the whole time: x's block was not reused */
      GT_ASSERT(s1.pool_hits == s0.pool_hits, "a block B may still read went to another stream");
      checked++;
    }
    /* whatever the timing, B read 3s */
    GT_OK(gpux_stream_set_current(gt_ctx, sb));
    memset(got, GT_POISON_BYTE, (size_t)g_n * sizeof *got);
    read_f32(y, got, g_n);
    for (int64_t i = 0; i < g_n; i++)
      GT_ASSERT(got[i] == 3.0f, "B read %g at %lld, want 3 (its input was reused)", got[i],
                (long long)i);
    GT_OK(gpux_stream_set_current(gt_ctx, NULL));
    /* once B has passed the event, the block goes back to its stream: a hit */
    GT_OK(gpux_event_synchronize(ev));
    gpux_pool_stats s2 = stats();
    GT_OK(gpux_array_empty(&w, gt_ctx, GPUX_FLOAT32, 1, &g_n));
    gpux_pool_stats s3 = stats();
    /* when B had finished before z was asked for, z took x's block and nothing is left */
    if (s1.pool_hits == s0.pool_hits)
      GT_ASSERT(s3.pool_hits == s2.pool_hits + 1, "the block did not come back after B passed");
    /* y (B's) released while B is idle; the default stream may take it after a full
     * synchronization */
    gpux_array_release(y);
    GT_OK(gpux_context_synchronize(gt_ctx));
    gpux_array_t v = NULL;
    GT_OK(gpux_array_empty(&v, gt_ctx, GPUX_FLOAT32, 1, &g_n));
    gpux_pool_stats s4 = stats();
    GT_ASSERT(s4.pool_hits == s3.pool_hits + 1, "an idle block of B's was not reused");
    gpux_array_release(v);
    gpux_array_release(w);
    gpux_array_release(z);
    gpux_event_release(ev);
  }
  /* the other direction: a block of B's own, used by B's slow kernel, released while it
   * runs, asked for by the default stream */
  for (int round = 0; round < 3; round++) {
    GT_OK(gpux_context_synchronize(gt_ctx));
    GT_OK(gpux_pool_trim(gt_ctx));
    gpux_array_t x = NULL, y = NULL, z = NULL;
    gpux_event_t ev = NULL;
    GT_OK(gpux_event_create_with_flags(&ev, gt_ctx, GPUX_EVENT_DISABLE_TIMING));
    GT_OK(gpux_array_full(&x, gt_ctx, GPUX_FLOAT32, 1, &g_n, 4.0));
    GT_OK(gpux_context_synchronize(gt_ctx));
    GT_OK(gpux_stream_set_current(gt_ctx, sb));
    GT_OK(gpux_array_empty(&y, gt_ctx, GPUX_FLOAT32, 1, &g_n));
    slow_copy(y, x, g_spin);
    GT_OK(gpux_event_record(ev));
    gpux_array_t y2 = NULL;
    GT_OK(gpux_binary_scalar(&y2, GPUX_ADD, y, 1.0)); /* B reads y after the slow kernel */
    gpux_array_release(y); /* B's own block: B's later work may reuse it, no other stream */
    GT_OK(gpux_stream_set_current(gt_ctx, NULL));
    gpux_pool_stats s0 = stats();
    GT_OK(gpux_array_full(&z, gt_ctx, GPUX_FLOAT32, 1, &g_n, 9.0));
    gpux_pool_stats s1 = stats();
    /* B's own block never goes to another stream before a full synchronization */
    GT_ASSERT(s1.pool_hits == s0.pool_hits, "B's block went to the default stream");
    GT_OK(gpux_stream_set_current(gt_ctx, sb));
    memset(got, GT_POISON_BYTE, (size_t)g_n * sizeof *got);
    read_f32(y2, got, g_n);
    for (int64_t i = 0; i < g_n; i++)
      GT_ASSERT(got[i] == 5.0f, "B read %g at %lld, want 5", got[i], (long long)i);
    GT_OK(gpux_stream_set_current(gt_ctx, NULL));
    gpux_array_release(x);
    gpux_array_release(y2);
    gpux_array_release(z);
    gpux_event_release(ev);
  }
  printf("test_streams: a pending block's reuse checked in %d of 3 rounds (in the others the "
         "slow kernel ended too early)\n", checked);
  GT_OK(gpux_context_synchronize(gt_ctx));
  gpux_stream_release(sb);
  free(got);
}

/* ---- threads: four threads on one context, a stream each */
#define NTHREADS 4
typedef struct worker {
  int id;
  gpux_array_t shared; /* made on the default stream, read by every thread */
  const float *shared_h;
  int64_t n;
  int failures;
  char msg[256];
} worker;

static void *work(void *arg) {
  worker *w = arg;
  gpux_stream_t s = NULL;
  float *h = NULL, *got = NULL;
  gpux_array_t a = NULL, b = NULL, c = NULL, r = NULL;
#define WCHECK(call)                                                                      \
  do {                                                                                    \
    gpux_status st_ = (call);                                                             \
    if (st_ != GPUX_SUCCESS) {                                                            \
      snprintf(w->msg, sizeof w->msg, "thread %d: %s: %s", w->id, #call,                  \
               gpux_last_error_message());                                                \
      w->failures++;                                                                      \
      goto out;                                                                           \
    }                                                                                     \
  } while (0)
  WCHECK(gpux_stream_create(&s, gt_ctx));
  WCHECK(gpux_stream_set_current(gt_ctx, s));
  const int64_t n = w->n;
  h = malloc((size_t)n * sizeof *h);
  got = malloc((size_t)n * sizeof *got);
  if (!h || !got) {
    w->failures++;
    goto out;
  }
  for (int it = 0; it < 12; it++) {
    gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, (uint64_t)(1000 * w->id + it));
    WCHECK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, &n, h));
    WCHECK(gpux_binary(&b, GPUX_ADD, a, w->shared));
    WCHECK(gpux_unary(&c, GPUX_NEG, b));
    const int axis = 0;
    WCHECK(gpux_reduce(&r, GPUX_REDUCE_MAX, c, &axis, 1, 0));
    memset(got, GT_POISON_BYTE, (size_t)n * sizeof *got);
    WCHECK(gpux_array_read(c, got, (size_t)n * sizeof *got));
    float mx = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
      float want = -(h[i] + w->shared_h[i]);
      if (got[i] != want) {
        snprintf(w->msg, sizeof w->msg, "thread %d iteration %d: element %lld is %g, want %g",
                 w->id, it, (long long)i, got[i], want);
        w->failures++;
        goto out;
      }
      if (want > mx) mx = want;
    }
    float m = 0;
    WCHECK(gpux_array_read(r, &m, sizeof m));
    if (m != mx) {
      snprintf(w->msg, sizeof w->msg, "thread %d: max %g, want %g", w->id, m, mx);
      w->failures++;
      goto out;
    }
    gpux_array_release(a);
    gpux_array_release(b);
    gpux_array_release(c);
    gpux_array_release(r);
    a = b = c = r = NULL;
  }
out:
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
  gpux_array_release(r);
  (void)gpux_stream_set_current(gt_ctx, NULL);
  gpux_stream_release(s);
  free(h);
  free(got);
  return NULL;
#undef WCHECK
}

static void test_threads(void **state) {
  (void)state;
  const int64_t n = gt_info.is_gpu ? 100003 : 4099;
  float *sh = gt_malloc((size_t)n * sizeof *sh);
  gt_fill_random(sh, GPUX_FLOAT32, n, GT_DOM_ANY, 77);
  gpux_array_t shared = NULL;
  GT_OK(gpux_array_from_host(&shared, gt_ctx, GPUX_FLOAT32, 1, &n, sh));
  pthread_t t[NTHREADS];
  worker w[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    w[i] = (worker){i, shared, sh, n, 0, ""};
    GT_ASSERT(pthread_create(&t[i], NULL, work, &w[i]) == 0, "pthread_create");
  }
  for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < NTHREADS; i++) GT_ASSERT(w[i].failures == 0, "%s", w[i].msg);
  gpux_array_release(shared); /* every thread's streams read it */
  free(sh);
}

/* A thread ends with its stream current: the thread's reference goes with it. */
static void *end_with_current(void *arg) {
  gpux_stream_t s = NULL;
  if (gpux_stream_create(&s, (gpux_context_t)arg) != GPUX_SUCCESS) return (void *)1;
  if (gpux_stream_set_current((gpux_context_t)arg, s) != GPUX_SUCCESS) return (void *)1;
  gpux_array_t a = NULL;
  const int64_t n = 77;
  if (gpux_array_ones(&a, (gpux_context_t)arg, GPUX_INT32, 1, &n) != GPUX_SUCCESS) return (void *)1;
  gpux_array_release(a);
  gpux_stream_release(s); /* the thread's current reference keeps it */
  return NULL;
}

/* ---- releases in every order */
static void test_release_orders(void **state) {
  (void)state;
  /* objects: context, stream, an array made on the stream, an event recorded on it, and the
   * stream current on this thread; released in each of the 4! orders of the first four */
  static const int perms[24][4] = {
      {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
      {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
      {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
      {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
  for (int p = 0; p < 24; p++)
    for (int current = 0; current < 2; current++) {
      gpux_context_t c = gt_context_new();
      gpux_stream_t s = NULL;
      gpux_array_t a = NULL;
      gpux_event_t e = NULL;
      GT_OK(gpux_stream_create(&s, c));
      GT_OK(gpux_stream_set_current(c, s));
      const int64_t n = 33;
      GT_OK(gpux_array_full(&a, c, GPUX_FLOAT32, 1, &n, 2.5));
      GT_OK(gpux_event_create_with_flags(&e, c, GPUX_EVENT_DISABLE_TIMING));
      GT_OK(gpux_event_record(e));
      /* reads below may run on the default stream: the fill on s comes first */
      GT_OK(gpux_event_synchronize(e));
      if (!current) GT_OK(gpux_stream_set_current(c, NULL));
      for (int k = 0; k < 4; k++) {
        switch (perms[p][k]) {
          case 0: gpux_context_release(c); break;
          case 1: gpux_stream_release(s); break;
          case 2: {
            float v[33];
            GT_OK(gpux_array_read(a, v, sizeof v)); /* still usable */
            GT_ASSERT(v[32] == 2.5f && v[0] == 2.5f, "the array after other releases: %g (order %d, current %d)", v[32], p, current);
            gpux_array_release(a);
            break;
          }
          case 3:
            GT_OK(gpux_event_synchronize(e));
            gpux_event_release(e);
            break;
        }
      }
      /* the current stream holds the context: set it back, and the rest goes */
      if (current) {
        /* the context handle is gone; the thread's reference is dropped through a context
         * pointer it still holds (the stream keeps the context alive) */
        GT_OK(gpux_stream_set_current(c, NULL));
      }
    }
  /* a thread that ends with a stream current */
  gpux_context_t c = gt_context_new();
  pthread_t t;
  void *rv = (void *)1;
  GT_ASSERT(pthread_create(&t, NULL, end_with_current, c) == 0, "pthread_create");
  pthread_join(t, &rv);
  GT_ASSERT(rv == NULL, "the thread's calls failed");
  gpux_context_release(c);
}

int main(void) {
  gt_init("test_streams");
  gpux_stream_t s = NULL;
  gpux_status st = gpux_stream_create(&s, gt_ctx);
  if (st == GPUX_ERROR_UNSUPPORTED) {
    printf("test_streams: %s\n", gpux_last_error_message());
    gt_shutdown();
    return GT_EXIT_SKIP;
  }
  gpux_stream_release(s);
  setup_slow();
  printf("test_streams: slow_copy of %lld elements spins %d times (about %.0f ms)\n",
         (long long)g_n, g_spin, SLOW_MS);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_basics),     cmocka_unit_test(test_event_order),
      cmocka_unit_test(test_pool_streams), cmocka_unit_test(test_threads),
      cmocka_unit_test(test_release_orders),
  };
  int failed = gt_run("streams", tests, sizeof tests / sizeof tests[0]);
  gpux_kernel_release(g_slow);
  gpux_program_release(g_prog);
  gt_shutdown();
  return failed ? 1 : 0;
}
