/* gpux tests: random numbers give the same bits on CUDA, OpenCL and the host. In one process,
 * a CUDA context and an OpenCL context (an OpenCL GPU when there is one) draw every
 * (distribution, dtype) with a few parameter sets (complex normals too), at sizes 1, 1001 and 2^22 + 3 from
 * positions 0, 3 and 2^40 - 3 (mid-block starts), also into a strided view; one generator
 * feeds both contexts (its state reset between them). The device bytes are compared with
 * memcmp against each other and against gpux_random_*_host, and (except normals, whose
 * reference is within a tolerance: test_random) against the independent reference of
 * tests/ref/ref_random.c. Exits 77 (skip) unless both backends have a device.
 * Not a cmocka binary: plain checks, a summary, exit 1 on any difference. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpux.h"
#include "gpux/random.h"
#include "ref.h"
#include "ref_random.h"
#include "test_util.h"
#include "xbackend_util.h"

static int g_fail = 0, g_checks = 0;


typedef struct rcase {
  int kind;
  gpux_dtype dt;
  double fa, fb;
  int64_t ia, ib;
  int closed; /* gpux_random_integers_u64 over [(uint64)ia, (uint64)ib] */
} rcase;

static const rcase k_cases[] = {
    {GPUX_RANDOM_UNIFORM, GPUX_FLOAT32, 0.0, 1.0, 0, 0, 0},
    {GPUX_RANDOM_UNIFORM, GPUX_FLOAT32, -3.5, 7.25, 0, 0, 0},
    {GPUX_RANDOM_UNIFORM, GPUX_FLOAT64, 0.0, 1.0, 0, 0, 0},
    {GPUX_RANDOM_UNIFORM, GPUX_FLOAT64, -3.5, 7.25, 0, 0, 0},
    {GPUX_RANDOM_NORMAL, GPUX_FLOAT32, 0.0, 1.0, 0, 0, 0},
    {GPUX_RANDOM_NORMAL, GPUX_FLOAT32, 2.5, 0.75, 0, 0, 0},
    {GPUX_RANDOM_NORMAL, GPUX_FLOAT64, 0.0, 1.0, 0, 0, 0},
    {GPUX_RANDOM_NORMAL, GPUX_FLOAT64, -1e3, 3.25, 0, 0, 0},
    /* complex normals: the component draw (std * sqrt(1/2)), mean added to the real parts */
    {GPUX_RANDOM_NORMAL, GPUX_COMPLEX64, 0.0, 1.0, 0, 0, 0},
    {GPUX_RANDOM_NORMAL, GPUX_COMPLEX64, 2.5, 0.75, 0, 0, 0},
    {GPUX_RANDOM_NORMAL, GPUX_COMPLEX128, 0.0, 1.0, 0, 0, 0},
    {GPUX_RANDOM_NORMAL, GPUX_COMPLEX128, -1e3, 3.25, 0, 0, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_INT32, 0, 0, 0, 3, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_INT32, 0, 0, INT32_MIN, (int64_t)1 << 31, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_INT32, 0, 0, -7, 1000003, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_INT64, 0, 0, -((int64_t)1 << 62), ((int64_t)1 << 62) + 12345, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_INT64, 0, 0, INT64_MIN, INT64_MAX, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_INT8, 0, 0, -128, 128, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_UINT16, 0, 0, 7, 60000, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_UINT32, 0, 0, 0, (int64_t)1 << 32, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_UINT64, 0, 0, 0, INT64_MAX, 0},
    {GPUX_RANDOM_INTEGERS, GPUX_UINT64, 0, 0, 0, -1, 1},             /* [0, 2^64 - 1] */
    {GPUX_RANDOM_INTEGERS, GPUX_UINT64, 0, 0, -6, -1, 1},            /* [2^64 - 6, 2^64 - 1] */
    {GPUX_RANDOM_BERNOULLI, GPUX_BOOL, 0.3, 0, 0, 0, 0},
};

static gpux_status dev_draw(const rcase *c, gpux_array_t out, gpux_generator_t g) {
  switch (c->kind) {
    case GPUX_RANDOM_UNIFORM: return gpux_random_uniform(out, g, c->fa, c->fb);
    case GPUX_RANDOM_NORMAL: return gpux_random_normal(out, g, c->fa, c->fb);
    case GPUX_RANDOM_INTEGERS:
      return c->closed ? gpux_random_integers_u64(out, g, (uint64_t)c->ia, (uint64_t)c->ib)
                       : gpux_random_integers(out, g, c->ia, c->ib);
    default: return gpux_random_bernoulli(out, g, c->fa);
  }
}

static gpux_status host_draw(const rcase *c, void *dst, int64_t n, const gpux_rng_state *st) {
  switch (c->kind) {
    case GPUX_RANDOM_UNIFORM: return gpux_random_uniform_host(dst, c->dt, 0, n, st, c->fa, c->fb);
    case GPUX_RANDOM_NORMAL: return gpux_random_normal_host(dst, c->dt, 0, n, st, c->fa, c->fb);
    case GPUX_RANDOM_INTEGERS:
      return c->closed
                 ? gpux_random_integers_u64_host(dst, 0, n, st, (uint64_t)c->ia, (uint64_t)c->ib)
                 : gpux_random_integers_host(dst, c->dt, 0, n, st, c->ia, c->ib);
    default: return gpux_random_bernoulli_host(dst, 0, n, st, c->fa);
  }
}

/* n values drawn on ctx from state st (strided: into every other element of a 2n base) */
static void *draw_on(gpux_context_t ctx, const rcase *c, int64_t n, const gpux_rng_state *st,
                     int strided, gpux_generator_t g) {
  size_t es = gpux_dtype_size(c->dt);
  CHECK(gpux_generator_set_state(g, st));
  gpux_array_t base = NULL, view = NULL;
  const int64_t shape[1] = {strided ? 2 * n : n};
  CHECK(gpux_array_full(&base, ctx, c->dt, 1, shape, 0));
  if (strided) {
    const int64_t start[1] = {1}, stop[1] = {2 * n}, step[1] = {2};
    CHECK(gpux_array_slice(&view, base, start, stop, step));
  }
  CHECK(dev_draw(c, strided ? view : base, g));
  void *h = xmalloc((size_t)n * es);
  CHECK(gpux_array_read(strided ? view : base, h, (size_t)n * es));
  gpux_array_release(view);
  gpux_array_release(base);
  return h;
}

static void compare(gpux_context_t cu, gpux_context_t cl, const rcase *c, int64_t n, uint64_t pos,
                    int strided, gpux_generator_t g) {
  gpux_rng_state st = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull & ~(UINT64_C(1) << 63), pos};
  size_t es = gpux_dtype_size(c->dt);
  void *a = draw_on(cu, c, n, &st, strided, g), *b = draw_on(cl, c, n, &st, strided, g);
  void *h = xmalloc((size_t)n * es);
  CHECK(host_draw(c, h, n, &st));
  void *r = NULL;
  if (c->kind != GPUX_RANDOM_NORMAL) {
    r = xmalloc((size_t)n * es);
    rr_state s = {st.seed, st.stream, st.position};
    if (c->kind == GPUX_RANDOM_UNIFORM) rr_uniform(r, c->dt, 0, n, s, c->fa, c->fb);
    else if (c->closed) rr_integers_u64(r, 0, n, s, (uint64_t)c->ia, (uint64_t)c->ib);
    else if (c->kind == GPUX_RANDOM_INTEGERS) rr_integers(r, c->dt, 0, n, s, c->ia, c->ib);
    else rr_bernoulli(r, 0, n, s, c->fa);
  }
  const void *others[3] = {b, h, r};
  const char *names[3] = {"OpenCL", "host", "reference"};
  for (int k = 0; k < 3; k++) {
    if (!others[k]) continue;
    g_checks++;
    if (memcmp(a, others[k], (size_t)n * es) != 0) {
      int64_t bad = 0, first = -1;
      for (int64_t i = 0; i < n; i++)
        if (memcmp((char *)a + i * es, (const char *)others[k] + i * es, es)) {
          if (first < 0) first = i;
          bad++;
        }
      printf("DIFFER  kind %d %s n %" PRId64 " pos %#" PRIx64 "%s: CUDA vs %s: %" PRId64
             " values differ (first %" PRId64 ")\n",
             c->kind, gpux_dtype_name(c->dt), n, pos, strided ? " strided" : "", names[k], bad,
             first);
      g_fail++;
    }
  }
  free(a);
  free(b);
  free(h);
  free(r);
}

int main(void) {
  gpux_context_t cu = NULL, cl = NULL;
  if (open_pair("test_random_xbackend", &cu, &cl) != 0) return 77;
  gpux_device_info i1, i2;
  CHECK(gpux_context_device_info(&i1, cu));
  CHECK(gpux_context_device_info(&i2, cl));
  gpux_generator_t g = NULL;
  CHECK(gpux_generator_create(&g, 1));
  const int64_t sizes[3] = {1, 1001, ((int64_t)1 << 22) + 3};
  const uint64_t positions[3] = {0, 3, ((uint64_t)1 << 40) - 3};
  for (size_t ci = 0; ci < sizeof k_cases / sizeof k_cases[0]; ci++) {
    const rcase *c = &k_cases[ci];
    if ((c->dt == GPUX_FLOAT64 || c->dt == GPUX_COMPLEX128) && !(i1.fp64 && i2.fp64)) continue;
    for (int si = 0; si < 3; si++)
      for (int pi = 0; pi < 3; pi++) compare(cu, cl, c, sizes[si], positions[pi], 0, g);
    compare(cu, cl, c, 4099, 5, 1, g);
  }
  printf("test_random_xbackend: %d comparisons, %d differ\n", g_checks, g_fail);
  gpux_generator_release(g);
  gpux_context_release(cl);
  gpux_context_release(cu);
  return g_fail ? 1 : 0;
}
