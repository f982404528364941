/* matrix_add: two random 1000 x 1000 float32 matrices added on the device, checked against
 * the same sum computed on the CPU.
 *
 * The backend comes from GPUX_BACKEND (cuda, opencl, auto; unset = auto) and the device from
 * GPUX_DEVICE. Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any
 * other failure (with the status and gpux_last_error_message()). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE "matrix_add"
#include "example_util.h"

#define ROWS 1000
#define COLS 1000

/* Uniform floats in [-1, 1) from a fixed seed, so every run sees the same matrices. */
static float next_uniform(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((double)(*state >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
}

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_array_t a = NULL, b = NULL, c = NULL;
  const int64_t shape[2] = {ROWS, COLS};
  const size_t n = (size_t)ROWS * COLS;
  float *ha = malloc(n * sizeof *ha), *hb = malloc(n * sizeof *hb), *hc = malloc(n * sizeof *hc);
  if (!ha || !hb || !hc) {
    fprintf(stderr, "matrix_add: out of host memory\n");
    goto done;
  }
  uint64_t seed = 12345;
  for (size_t i = 0; i < n; i++) ha[i] = next_uniform(&seed);
  for (size_t i = 0; i < n; i++) hb[i] = next_uniform(&seed);

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;

  CHECK(gpux_array_from_host(&a, ctx, GPUX_FLOAT32, 2, shape, ha));
  CHECK(gpux_array_from_host(&b, ctx, GPUX_FLOAT32, 2, shape, hb));
  CHECK(gpux_add(&c, a, b));
  CHECK(gpux_array_read(c, hc, n * sizeof *hc));

  /* float32 addition is exactly rounded on every IEEE device: expect a max error of 0. */
  double max_err = 0.0;
  size_t worst = 0;
  for (size_t i = 0; i < n; i++) {
    double err = fabs((double)hc[i] - (double)(ha[i] + hb[i]));
    if (err > max_err || isnan(hc[i])) {
      max_err = isnan(hc[i]) ? INFINITY : err;
      worst = i;
    }
  }
  printf("c[0:3, 0:3] (top-left corner):\n");
  for (int r = 0; r < 3; r++)
    printf("  %10.6f %10.6f %10.6f\n", hc[r * COLS + 0], hc[r * COLS + 1], hc[r * COLS + 2]);
  printf("c[999, 999] = %.6f\n", hc[n - 1]);
  printf("max |c - (a + b)| over %zu elements = %g\n", n, max_err);
  if (max_err != 0.0) {
    fprintf(stderr, "matrix_add: FAILED at [%zu, %zu]: got %.9g, expected %.9g\n", worst / COLS,
            worst % COLS, hc[worst], ha[worst] + hb[worst]);
    goto done;
  }
  printf("matrix_add: OK\n");
  rc = 0;

done:
  gpux_array_release(c);
  gpux_array_release(b);
  gpux_array_release(a);
  gpux_context_release(ctx);
  free(ha);
  free(hb);
  free(hc);
  return rc;
}
