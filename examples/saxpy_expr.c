/* saxpy_expr: an elementwise kernel written as an expression (gpux_elementwise_create, like
 * CuPy's ElementwiseKernel):
 *
 *   inputs "T x, T y, T a", output "T z", body "z = a * x + y"
 *
 * T is a placeholder: it takes the dtype of the arrays x and y (float32 here), and a is a
 * scalar of the same dtype passed by value. gpux generates and compiles the kernel at the
 * first call for these dtypes (then caches it), and runs it on 2^20 elements. The result is
 * checked against float64 arithmetic on the CPU (two float32 roundings: the error is bounded
 * by 2 * 2^-24 * (|a x| + |y|)).
 *
 * The backend comes from GPUX_BACKEND (cuda, opencl, auto; unset = auto) and the device from
 * GPUX_DEVICE. Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any
 * other failure (with the status and gpux_last_error_message()). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE "saxpy_expr"
#include "example_util.h"

#define N (1 << 20)

static double next_uniform(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*state >> 11) / (double)(1ull << 53);
}

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_elementwise_t saxpy = NULL;
  gpux_array_t x = NULL, y = NULL, z = NULL;
  const int64_t shape[1] = {N};
  const float a = 2.5f;
  float *hx = malloc(N * sizeof *hx), *hy = malloc(N * sizeof *hy), *hz = malloc(N * sizeof *hz);
  if (!hx || !hy || !hz) {
    fprintf(stderr, EXAMPLE ": out of host memory\n");
    goto done;
  }
  uint64_t seed = 42;
  for (size_t i = 0; i < N; i++) {
    hx[i] = (float)(2.0 * next_uniform(&seed) - 1.0);
    hy[i] = (float)(10.0 * next_uniform(&seed) - 5.0);
  }

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;

  CHECK(gpux_elementwise_create(&saxpy, ctx, "T x, T y, T a", "T z", "z = a * x + y", "saxpy",
                                NULL));
  CHECK(gpux_array_from_host(&x, ctx, GPUX_FLOAT32, 1, shape, hx));
  CHECK(gpux_array_from_host(&y, ctx, GPUX_FLOAT32, 1, shape, hy));
  CHECK(gpux_array_empty(&z, ctx, GPUX_FLOAT32, 1, shape));
  /* the inputs in order, then the outputs */
  const gpux_arg args[4] = {gpux_arg_array(x), gpux_arg_array(y), gpux_arg_f32(a),
                            gpux_arg_array(z)};
  CHECK(gpux_elementwise_call(saxpy, 4, args));
  CHECK(gpux_array_read(z, hz, N * sizeof *hz)); /* waits for the kernel */

  double max_err = 0, max_rel = 0;
  size_t bad = 0;
  for (size_t i = 0; i < N; i++) {
    double p = (double)a * hx[i], want = p + hy[i];
    double err = fabs((double)hz[i] - want), bound = 2.5 * 0x1p-24 * (fabs(p) + fabs(hy[i]));
    if (!(err <= max_err)) max_err = err; /* also catches NaN */
    double rel = err / (fabs(p) + fabs(hy[i]));
    if (!(rel <= max_rel)) max_rel = rel;
    if (!(err <= bound) && bad++ < 5)
      fprintf(stderr, EXAMPLE ": z[%zu] = %.9g, expected %.9g (bound %.3g)\n", i, hz[i], want,
              bound);
  }
  printf("z = %.2f * x + y on %d float32 elements\n", a, N);
  printf("  x[0..2] = %9.5f %9.5f %9.5f\n", hx[0], hx[1], hx[2]);
  printf("  y[0..2] = %9.5f %9.5f %9.5f\n", hy[0], hy[1], hy[2]);
  printf("  z[0..2] = %9.5f %9.5f %9.5f\n", hz[0], hz[1], hz[2]);
  printf("max abs error vs float64 = %.3g, max error / (|a x| + |y|) = %.3g (bound 1.5e-7), "
         "out of bound: %zu\n", max_err, max_rel, bad);
  if (bad) {
    fprintf(stderr, EXAMPLE ": FAILED\n");
    goto done;
  }
  printf(EXAMPLE ": OK\n");
  rc = 0;

done:
  gpux_array_release(z);
  gpux_array_release(y);
  gpux_array_release(x);
  gpux_elementwise_release(saxpy);
  gpux_context_release(ctx);
  free(hx);
  free(hy);
  free(hz);
  return rc;
}
