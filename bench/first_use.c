/* gpux-first-use: the first call of each built-in kernel family in a fresh process (host
 * clock, each call followed by a synchronize), the cost a program pays once: building the
 * OpenCL program (part) or loading the CUDA module, and the first launch. Run it with an
 * empty POCL_CACHE_DIR / GPUX_CACHE_DIR for the cold figures (bench/results/pocl.md).
 *
 *     gpux-first-use [dtype]      float32 (default), float16, ... : the dtype of the ops */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gpux.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int g_bad;
static gpux_context_t g_ctx;
static void row(const char *what, gpux_status s, double t0) {
  gpux_status w = gpux_context_synchronize(g_ctx);
  printf("%-34s %9.1f ms%s%s\n", what, now_ms() - t0, s || w ? " FAILED: " : "",
         s || w ? gpux_last_error_message() : "");
  g_bad |= s || w;
}

int main(int argc, char **argv) {
  gpux_dtype dt = GPUX_FLOAT32;
  if (argc > 1) {
    int k = 0;
    while (k < GPUX_DTYPE_COUNT && strcmp(gpux_dtype_name((gpux_dtype)k), argv[1])) k++;
    if (k == GPUX_DTYPE_COUNT) {
      fprintf(stderr, "gpux-first-use: unknown dtype %s\n", argv[1]);
      return 2;
    }
    dt = (gpux_dtype)k;
  }
  const int64_t n = 1000, sq[2] = {32, 32};
  double t0 = now_ms(), t_all = t0;
  gpux_status s = gpux_context_create(&g_ctx, GPUX_BACKEND_DEFAULT, -1);
  if (s) {
    fprintf(stderr, "gpux-first-use: %s\n", gpux_last_error_message());
    return 77;
  }
  row("context", s, t0);
  printf("dtype %s\n", gpux_dtype_name(dt));
  gpux_array_t a = NULL, b = NULL, c = NULL, d = NULL, e = NULL, f = NULL, m = NULL, p = NULL;
  t0 = now_ms(), row("fill (copy family)", gpux_array_full(&a, g_ctx, dt, 1, &n, 1.5), t0);
  (void)gpux_array_full(&b, g_ctx, dt, 1, &n, 2.5);
  t0 = now_ms(), row("add (elementwise family)", gpux_binary(&c, GPUX_ADD, a, b), t0);
  t0 = now_ms(), row("cast to int32 (copy family)", gpux_array_cast(&d, a, GPUX_INT32), t0);
  t0 = now_ms(), row("sum (reduce family)", gpux_reduce(&e, GPUX_REDUCE_SUM, a, NULL, GPUX_ALL_AXES, 0), t0);
  t0 = now_ms(), row("cumsum (scan family)", gpux_cumsum(&f, a, 0), t0);
  (void)gpux_array_full(&m, g_ctx, dt, 2, sq, 1.0);
  t0 = now_ms(), row("matmul (gemm family)", gpux_matmul(&p, m, m), t0);
  printf("%-34s %9.1f ms\n", "total", now_ms() - t_all);
  gpux_array_t all[] = {a, b, c, d, e, f, m, p};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gpux_array_release(all[i]);
  gpux_context_release(g_ctx);
  return g_bad ? 1 : 0;
}
