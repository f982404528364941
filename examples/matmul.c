/* matmul: the classic first example, [[1, 2], [3, 4]] @ [[1, 2], [3, 4]] = [[7, 10], [15, 22]],
 * then an n x n random float32 product (n = 4096 on a GPU, 512 on a CPU device such as pocl,
 * or GPUX_MATMUL_N) timed on the device and checked against a CPU double-precision reference
 * on 64 random entries, with the GFLOP/s and the path (GPUX_GEMM=auto|vendor|native picks it;
 * auto takes the vendor BLAS, cuBLAS or CLBlast, when there is one).
 *
 * The backend comes from GPUX_BACKEND (cuda, opencl, auto; unset = auto) and the device from
 * GPUX_DEVICE. Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any
 * other failure (with the status and gpux_last_error_message()). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXAMPLE "matmul"
#include "example_util.h"

#define SAMPLES 64
#define RUNS 5

/* Host clock in milliseconds (C11 timespec_get). */
static double now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Uniform floats in [-1, 1) from a fixed seed, so every run sees the same matrices. */
static float next_uniform(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((double)(*state >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
}

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_array_t a = NULL, c = NULL, x = NULL, y = NULL, z = NULL;
  gpux_event_t e0 = NULL, e1 = NULL;
  float *hx = NULL, *hy = NULL, *hz = NULL;
  gpux_device_info dev;

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;
  CHECK(gpux_context_device_info(&dev, ctx));

  /* --- 1. the 2 x 2 product */
  {
    const int64_t shape[2] = {2, 2};
    const float h[4] = {1, 2, 3, 4}, want[4] = {7, 10, 15, 22};
    float got[4];
    CHECK(gpux_array_from_host(&a, ctx, GPUX_FLOAT32, 2, shape, h));
    CHECK(gpux_matmul(&c, a, a));
    CHECK(gpux_array_read(c, got, sizeof got));
    printf("[[1, 2], [3, 4]] @ [[1, 2], [3, 4]] =\n  [[%g, %g],\n   [%g, %g]]\n", got[0], got[1],
           got[2], got[3]);
    if (memcmp(got, want, sizeof got) != 0) {
      fprintf(stderr, "matmul: FAILED: expected [[7, 10], [15, 22]]\n");
      goto done;
    }
  }

  /* --- 2. a large random product, timed */
  const char *env_n = getenv("GPUX_MATMUL_N");
  int64_t n = dev.is_gpu ? 4096 : 512;
  if (env_n && *env_n) {
    n = strtoll(env_n, NULL, 10);
    if (n < 1 || n > 65536) {
      fprintf(stderr, "matmul: GPUX_MATMUL_N=%s is not a size in 1..65536\n", env_n);
      goto done;
    }
    printf("n = %lld (GPUX_MATMUL_N)\n", (long long)n);
  } else if (!dev.is_gpu) {
    printf("n = 512 instead of 4096: %s is a CPU device, where a 4096^3 product takes minutes "
           "(GPUX_MATMUL_N sets n)\n", dev.name);
  }
  const char *env_path = getenv("GPUX_GEMM");
  const char *path = env_path && *env_path ? env_path : "auto";
  printf("path: %s (GPUX_GEMM; auto = the vendor BLAS of the backend: %s)\n", path,
         dev.backend == GPUX_BACKEND_CUDA ? "cuBLAS" : "CLBlast, else gpux's own kernel");

  const size_t nn = (size_t)n * (size_t)n;
  const int64_t shape[2] = {n, n};
  hx = malloc(nn * sizeof *hx);
  hy = malloc(nn * sizeof *hy);
  hz = malloc(nn * sizeof *hz);
  if (!hx || !hy || !hz) {
    fprintf(stderr, "matmul: out of host memory\n");
    goto done;
  }
  uint64_t seed = 2024;
  for (size_t i = 0; i < nn; i++) hx[i] = next_uniform(&seed);
  for (size_t i = 0; i < nn; i++) hy[i] = next_uniform(&seed);
  CHECK(gpux_array_from_host(&x, ctx, GPUX_FLOAT32, 2, shape, hx));
  CHECK(gpux_array_from_host(&y, ctx, GPUX_FLOAT32, 2, shape, hy));
  CHECK(gpux_array_empty(&z, ctx, GPUX_FLOAT32, 2, shape));
  CHECK(gpux_event_create(&e0, ctx));
  CHECK(gpux_event_create(&e1, ctx));

  /* the first call includes building (or loading) the kernels; then the steady state */
  double first_ms = 0, ms = 0;
  CHECK(gpux_context_synchronize(ctx));
  first_ms = now_ms();
  CHECK(gpux_matmul_into(z, x, y));
  CHECK(gpux_context_synchronize(ctx));
  first_ms = now_ms() - first_ms;
  double runs[RUNS];
  for (int r = 0; r < RUNS; r++) { /* the median of RUNS device-timed products */
    CHECK(gpux_event_record(e0));
    CHECK(gpux_matmul_into(z, x, y));
    CHECK(gpux_event_record(e1));
    CHECK(gpux_event_elapsed_ms(&runs[r], e0, e1));
    for (int q = r; q > 0 && runs[q] < runs[q - 1]; q--) { /* insertion sort */
      double t = runs[q];
      runs[q] = runs[q - 1];
      runs[q - 1] = t;
    }
  }
  ms = runs[RUNS / 2];
  CHECK(gpux_array_read(z, hz, nn * sizeof *hz));
  double flops = 2.0 * (double)n * (double)n * (double)n;
  printf("%lld x %lld float32 product: %.3f ms (median of %d, device events), %.1f GFLOP/s; first call "
         "%.3f ms (host clock, includes building or loading the kernels)\n",
         (long long)n, (long long)n, ms, RUNS, flops / (ms * 1e-3) / 1e9, first_ms);

  /* 64 random entries against a double-precision dot product on the CPU. A float32 product
   * errs by at most about n * 2^-24 * sum |x_il y_lj| (any summation order); typical errors
   * are far smaller. */
  double worst = 0.0;
  int bad = 0;
  uint64_t pick = 99;
  for (int s = 0; s < SAMPLES; s++) {
    pick = pick * 6364136223846793005ull + 1442695040888963407ull;
    size_t i = (size_t)((pick >> 33) % (uint64_t)n);
    pick = pick * 6364136223846793005ull + 1442695040888963407ull;
    size_t j = (size_t)((pick >> 33) % (uint64_t)n);
    double want = 0.0, sumabs = 0.0;
    for (size_t l = 0; l < (size_t)n; l++) {
      double p = (double)hx[i * (size_t)n + l] * (double)hy[l * (size_t)n + j];
      want += p;
      sumabs += fabs(p);
    }
    double got = hz[i * (size_t)n + j], err = fabs(got - want);
    double tol = ((double)n + 4.0) * 0x1p-24 * sumabs;
    double rel = sumabs > 0 ? err / sumabs : err;
    if (rel > worst) worst = rel;
    if (!(err <= tol)) {
      if (bad < 5)
        fprintf(stderr, "matmul: entry [%zu, %zu] is %.9g, expected %.9g (error %.3g > %.3g)\n", i,
                j, got, want, err, tol);
      bad++;
    }
  }
  printf("checked %d random entries against a CPU double reference: max error / sum|x y| = "
         "%.2g\n", SAMPLES, worst);
  if (bad) {
    fprintf(stderr, "matmul: FAILED: %d of %d entries outside the float32 error bound\n", bad,
            SAMPLES);
    goto done;
  }
  printf("matmul: OK\n");
  rc = 0;

done:
  gpux_event_release(e0);
  gpux_event_release(e1);
  gpux_array_release(a);
  gpux_array_release(c);
  gpux_array_release(x);
  gpux_array_release(y);
  gpux_array_release(z);
  gpux_context_release(ctx);
  free(hx);
  free(hy);
  free(hz);
  return rc;
}
