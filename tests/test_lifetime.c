/* gpux tests: handles released in any order. Every object that needs its context (arrays,
 * views, events, programs, kernels, expression kernels; a generator's draws go into arrays)
 * keeps it alive, so the context handle may be released first, last or anywhere between:
 * the context goes with the last object. After the context handle is released, each object
 * is still used (read, recorded, launched, called) before it is released itself. CI runs
 * this binary under ASan and valgrind, which see any use of freed memory.
 *
 * GPUX_TEST_LIFETIME_ORDERS: random release orders per position of the context's release
 * (default 6; valgrind runs take 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_sources.h"
#include "test_util.h"

enum { O_A, O_OUT, O_VIEW, O_EVENT, O_PROGRAM, O_KERNEL, O_EW, O_COUNT };
#define N 37

typedef struct objs {
  gpux_array_t a, out, view;
  gpux_event_t ev;
  gpux_program_t prog;
  gpux_kernel_t k;
  gpux_elementwise_t ew;
  gpux_generator_t gen; /* host state only: no context */
  float ha[N];
} objs;

static void create_all(objs *o, gpux_context_t c, uint64_t seed) {
  const int64_t n = N;
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int i = 0; i < N; i++) o->ha[i] = (float)gt_rng_int(&r, -1000, 1000) * 0.25f;
  GT_OK(gpux_array_from_host(&o->a, c, GPUX_FLOAT32, 1, &n, o->ha));
  GT_OK(gpux_array_empty(&o->out, c, GPUX_FLOAT32, 1, &n));
  const int64_t start = -1, stop = INT64_MIN, step = -2; /* a[::-2] */
  GT_OK(gpux_array_slice(&o->view, o->a, &start, &stop, &step));
  GT_OK(gpux_event_create(&o->ev, c));
  GT_OK(gpux_program_create(&o->prog, c, GPUX_SOURCE_DIALECT, KSRC_VADD, NULL));
  GT_OK(gpux_kernel_create(&o->k, o->prog, "vadd"));
  GT_OK(gpux_elementwise_create(&o->ew, c, "float32 x", "float32 y", "y = x * 3.0f", "triple",
                                NULL));
  GT_OK(gpux_generator_create(&o->gen, seed));
}

static void expect_out(const objs *o, float mul, const char *what) {
  float got[N];
  GT_OK(gpux_array_read(o->out, got, sizeof got));
  for (int i = 0; i < N; i++)
    GT_ASSERT(got[i] == o->ha[i] * mul, "%s: element %d is %g, expected %g", what, i,
              (double)got[i], (double)(o->ha[i] * mul));
}

/* Uses object k with whatever else is still alive, then releases it. */
static void use_and_release(objs *o, int k) {
  switch (k) {
    case O_A: {
      float got[N];
      GT_OK(gpux_array_read(o->a, got, sizeof got));
      GT_ASSERT(memcmp(got, o->ha, sizeof got) == 0, "array read after its context's release");
      gpux_array_release(o->a);
      o->a = NULL;
      break;
    }
    case O_OUT: { /* a draw from the generator into it, read back */
      float got[N];
      GT_OK(gpux_random_uniform(o->out, o->gen, -1.0, 1.0));
      GT_OK(gpux_array_read(o->out, got, sizeof got));
      for (int i = 0; i < N; i++)
        GT_ASSERT(got[i] >= -1.0f && got[i] < 1.0f, "uniform value %g", (double)got[i]);
      gpux_array_release(o->out);
      o->out = NULL;
      break;
    }
    case O_VIEW: {
      float got[(N + 1) / 2];
      GT_OK(gpux_array_read(o->view, got, sizeof got));
      for (int i = 0; i < (N + 1) / 2; i++)
        GT_ASSERT(got[i] == o->ha[N - 1 - 2 * i], "view element %d is %g", i, (double)got[i]);
      gpux_array_release(o->view);
      o->view = NULL;
      break;
    }
    case O_EVENT:
      GT_OK(gpux_event_record(o->ev));
      GT_OK(gpux_event_synchronize(o->ev));
      gpux_event_release(o->ev);
      o->ev = NULL;
      break;
    case O_PROGRAM: { /* a new kernel from it */
      gpux_kernel_t k2 = NULL;
      GT_OK(gpux_kernel_create(&k2, o->prog, "vadd"));
      gpux_kernel_release(k2);
      gpux_program_release(o->prog);
      o->prog = NULL;
      break;
    }
    case O_KERNEL:
      if (o->a && o->out) {
        const uint64_t grid = 1;
        const uint32_t block = 64;
        gpux_arg args[4] = {gpux_arg_array(o->a), gpux_arg_array(o->a), gpux_arg_array(o->out),
                            gpux_arg_i64(N)};
        GT_OK(gpux_kernel_call(o->k, 1, &grid, &block, 4, args));
        expect_out(o, 2.0f, "vadd after the context's release");
      }
      gpux_kernel_release(o->k);
      o->k = NULL;
      break;
    case O_EW:
      if (o->a && o->out) {
        gpux_arg args[2] = {gpux_arg_array(o->a), gpux_arg_array(o->out)};
        GT_OK(gpux_elementwise_call(o->ew, 2, args));
        expect_out(o, 3.0f, "expression kernel after the context's release");
      }
      gpux_elementwise_release(o->ew);
      o->ew = NULL;
      break;
  }
}

/* Releases the objects in `order`, the context handle before order[ctx_pos] (ctx_pos ==
 * O_COUNT: after all of them). */
static void run_order(const int *order, int ctx_pos, uint64_t seed) {
  gpux_context_t c = NULL;
  objs o;
  memset(&o, 0, sizeof o);
  GT_OK(gpux_context_create(&c, gt_info.backend, gt_info.index));
  create_all(&o, c, seed);
  for (int i = 0; i <= O_COUNT; i++) {
    if (i == ctx_pos) {
      gpux_context_release(c);
      c = NULL;
    }
    if (i < O_COUNT) use_and_release(&o, order[i]);
  }
  gpux_generator_release(o.gen);
}

static void shuffle(int *v, int n, gt_rng *r) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)gt_rng_int(r, 0, i), t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

static void test_release_orders(void **state) {
  (void)state;
  const char *env = getenv("GPUX_TEST_LIFETIME_ORDERS");
  int orders = env && *env ? atoi(env) : 6;
  gt_rng r;
  gt_rng_seed(&r, 2112);
  int runs = 0;
  for (int ctx_pos = 0; ctx_pos <= O_COUNT; ctx_pos++)
    for (int t = 0; t < orders; t++) {
      int order[O_COUNT];
      for (int k = 0; k < O_COUNT; k++) order[k] = k;
      if (t == 1) /* creation order reversed */
        for (int k = 0; k < O_COUNT; k++) order[k] = O_COUNT - 1 - k;
      else if (t > 1)
        shuffle(order, O_COUNT, &r);
      run_order(order, ctx_pos, (uint64_t)(ctx_pos * 100 + t));
      runs++;
    }
  print_message("%d release orders\n", runs);
}

/* Each kind of object alone outlives its context: the context goes with it. */
static void test_each_object_last(void **state) {
  (void)state;
  for (int last = 0; last < O_COUNT; last++) {
    gpux_context_t c = NULL;
    objs o;
    memset(&o, 0, sizeof o);
    GT_OK(gpux_context_create(&c, gt_info.backend, gt_info.index));
    create_all(&o, c, (uint64_t)last);
    /* the others first (with the context still held), then the context, then `last` */
    for (int k = 0; k < O_COUNT; k++)
      if (k != last) use_and_release(&o, k);
    gpux_context_release(c);
    use_and_release(&o, last);
    gpux_generator_release(o.gen);
  }
}

/* Views keep the memory and the context: a view of a view of a released array. */
static void test_views_outlive_base(void **state) {
  (void)state;
  gpux_context_t c = NULL;
  gpux_array_t a = NULL, v1 = NULL, v2 = NULL;
  const int64_t n = 12, st = 1, sp = 11, step = 1, st2 = -1, sp2 = INT64_MIN, step2 = -3;
  float h[12], got[4];
  for (int i = 0; i < 12; i++) h[i] = (float)(i * i) - 7.5f;
  GT_OK(gpux_context_create(&c, gt_info.backend, gt_info.index));
  GT_OK(gpux_array_from_host(&a, c, GPUX_FLOAT32, 1, &n, h));
  GT_OK(gpux_array_slice(&v1, a, &st, &sp, &step));    /* h[1:11] */
  GT_OK(gpux_array_slice(&v2, v1, &st2, &sp2, &step2)); /* h[10], h[7], h[4], h[1] */
  gpux_context_release(c);
  gpux_array_release(a);
  gpux_array_release(v1);
  GT_OK(gpux_array_read(v2, got, sizeof got));
  for (int i = 0; i < 4; i++)
    GT_ASSERT(got[i] == h[10 - 3 * i], "element %d is %g", i, (double)got[i]);
  gpux_array_release(v2);
}

int main(void) {
  gt_init("test_lifetime");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_views_outlive_base),
      cmocka_unit_test(test_each_object_last),
      cmocka_unit_test(test_release_orders),
  };
  int failed = gt_run("lifetime", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
