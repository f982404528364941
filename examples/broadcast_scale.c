/* broadcast_scale: standardize the columns of a matrix with broadcasting, then squash and
 * gate the result:
 *
 *   z   = (X - mean) / std        X is (2000, 64); mean and std are (64,) vectors that
 *                                 broadcast over the rows (NumPy rules)
 *   p   = sigmoid(z)
 *   out = where(z > 0, p, 0)      0 is a 0-d array that broadcasts to every element
 *
 * mean and std are computed on the host (gpux has no reductions yet); everything else runs on
 * the device, queued on one stream, and only the final reads wait.
 *
 * The backend comes from GPUX_BACKEND (cuda, opencl, auto; unset = auto) and the device from
 * GPUX_DEVICE. Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any
 * other failure (with the status and gpux_last_error_message()). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE "broadcast_scale"
#include "example_util.h"

#define ROWS 2000
#define COLS 64

static double next_uniform(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*state >> 11) / (double)(1ull << 53);
}

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_array_t x = NULL, mean = NULL, std = NULL, centered = NULL, z = NULL, p = NULL;
  gpux_array_t mask = NULL, zero = NULL, out = NULL;
  const int64_t shape[2] = {ROWS, COLS}, vshape[1] = {COLS};
  const size_t n = (size_t)ROWS * COLS;
  float *hx = malloc(n * sizeof *hx), *hz = malloc(n * sizeof *hz);
  float *hp = malloc(n * sizeof *hp), *hout = malloc(n * sizeof *hout);
  float hmean[COLS], hstd[COLS];
  if (!hx || !hz || !hp || !hout) {
    fprintf(stderr, "broadcast_scale: out of host memory\n");
    goto done;
  }
  /* Column j holds values around 10 * j with a spread that grows with j. */
  uint64_t seed = 2024;
  for (size_t r = 0; r < ROWS; r++)
    for (size_t j = 0; j < COLS; j++)
      hx[r * COLS + j] = (float)(10.0 * (double)j + (1.0 + (double)j) * (next_uniform(&seed) - 0.5));
  for (size_t j = 0; j < COLS; j++) {
    double s = 0, ss = 0;
    for (size_t r = 0; r < ROWS; r++) s += hx[r * COLS + j];
    double m = s / ROWS;
    for (size_t r = 0; r < ROWS; r++) ss += (hx[r * COLS + j] - m) * (hx[r * COLS + j] - m);
    hmean[j] = (float)m;
    hstd[j] = (float)sqrt(ss / ROWS);
  }

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;

  CHECK(gpux_array_from_host(&x, ctx, GPUX_FLOAT32, 2, shape, hx));
  CHECK(gpux_array_from_host(&mean, ctx, GPUX_FLOAT32, 1, vshape, hmean));
  CHECK(gpux_array_from_host(&std, ctx, GPUX_FLOAT32, 1, vshape, hstd));
  CHECK(gpux_array_zeros(&zero, ctx, GPUX_FLOAT32, 0, NULL)); /* 0-d: one element */

  CHECK(gpux_sub(&centered, x, mean));                           /* (2000,64) - (64,) */
  CHECK(gpux_div(&z, centered, std));                            /* (2000,64) / (64,) */
  CHECK(gpux_sigmoid(&p, z));
  CHECK(gpux_binary_scalar(&mask, GPUX_GT, z, 0.0));             /* bool (2000,64) */
  CHECK(gpux_where(&out, mask, p, zero));                        /* 0-d broadcasts */

  CHECK(gpux_array_read(z, hz, n * sizeof *hz));
  CHECK(gpux_array_read(p, hp, n * sizeof *hp));
  CHECK(gpux_array_read(out, hout, n * sizeof *hout));

  /* z against float64 on the CPU (OpenCL allows 2.5 ulp for float32 division), p against a
   * float64 sigmoid of the device's z (a few ulp for exp), and out exactly against the
   * device's own z and p, since the gate z > 0 must agree bit for bit with where's choice. */
  double max_z = 0, max_p = 0;
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    size_t j = i % COLS;
    double zc = ((double)hx[i] - hmean[j]) / hstd[j];
    double pc = 1.0 / (1.0 + exp(-(double)hz[i])); /* sigmoid of the device's z */
    double ez = fabs(hz[i] - zc) / fmax(1.0, fabs(zc)), ep = fabs(hp[i] - pc);
    if (!(ez <= max_z)) max_z = ez; /* also catches NaN */
    if (!(ep <= max_p)) max_p = ep;
    float want = hz[i] > 0.0f ? hp[i] : 0.0f;
    if (hout[i] != want && bad++ < 5)
      fprintf(stderr, "broadcast_scale: out[%zu] = %.9g, expected %.9g\n", i, hout[i], want);
  }
  printf("row 0, columns 0..3:  x = %8.4f %8.4f %8.4f %8.4f\n", hx[0], hx[1], hx[2], hx[3]);
  printf("                      z = %8.4f %8.4f %8.4f %8.4f\n", hz[0], hz[1], hz[2], hz[3]);
  printf("                    out = %8.4f %8.4f %8.4f %8.4f\n", hout[0], hout[1], hout[2],
         hout[3]);
  printf("max rel error of z = %.3g, max abs error of sigmoid(z) = %.3g, gate mismatches = %zu\n",
         max_z, max_p, bad);
  if (!(max_z <= 1e-5) || !(max_p <= 2e-6) || bad) {
    fprintf(stderr, "broadcast_scale: FAILED (tolerances: z 1e-5 relative, sigmoid 2e-6)\n");
    goto done;
  }
  printf("broadcast_scale: OK\n");
  rc = 0;

done:
  gpux_array_release(out);
  gpux_array_release(zero);
  gpux_array_release(mask);
  gpux_array_release(p);
  gpux_array_release(z);
  gpux_array_release(centered);
  gpux_array_release(std);
  gpux_array_release(mean);
  gpux_array_release(x);
  gpux_context_release(ctx);
  free(hx);
  free(hz);
  free(hp);
  free(hout);
  return rc;
}
