/* monte_carlo_pi: random numbers that every device and the host agree on.
 * Draws 2^22 points (x, y) uniform in [0, 1)^2 on the device, counts those inside the unit
 * circle with gpux reductions, and estimates pi. Then it shows the reproducibility that the
 * counter-based generator gives: the host recomputes a few of the device's values from the
 * saved generator state, bit for bit, and a second generator restored to the same state
 * draws the same array again. The estimate is printed with its standard error; the program
 * fails if it is more than 6 standard errors from pi or if any value differs. */
#define EXAMPLE "monte_carlo_pi"
#include <math.h>
#include <string.h>

#include "example_util.h"

#define N ((int64_t)1 << 22)

int main(void) {
  gpux_context_t ctx = NULL;
  gpux_generator_t g = NULL, again = NULL;
  gpux_array_t xy = NULL, sq = NULL, r2 = NULL, inside = NULL, xy2 = NULL, same = NULL;
  gpux_array_t xs = NULL;
  gpux_rng_state st;
  int rc = 1, open = example_open(&ctx);
  if (open != 0) return open;

  const int64_t shape[2] = {N, 2};
  CHECK(gpux_generator_create(&g, 2026));
  CHECK(gpux_generator_get_state(&st, g)); /* where the draw starts */
  CHECK(gpux_rand(&xy, ctx, g, GPUX_FLOAT32, 2, shape));

  /* inside = x^2 + y^2 < 1, counted on the device */
  const int axis1[1] = {1};
  double count = 0;
  CHECK(gpux_binary(&sq, GPUX_MUL, xy, xy));
  CHECK(gpux_reduce(&r2, GPUX_REDUCE_SUM, sq, axis1, 1, 0));
  CHECK(gpux_binary_scalar(&inside, GPUX_LT, r2, 1.0));
  CHECK(gpux_reduce_scalar(&count, GPUX_REDUCE_COUNT_NONZERO, inside));
  const double p = count / (double)N, est = 4.0 * p, se = 4.0 * sqrt(p * (1.0 - p) / (double)N);
  const double pi = 3.14159265358979323846;
  printf("pi ~ %.6f +- %.6f (%lld points; error %.2f standard errors)\n", est, se,
         (long long)N, fabs(est - pi) / se);

  /* value k of the draw is element k of xy (row-major): the host gets the same bits */
  float host[6], dev[6];
  const int64_t first = 2 * 123456; /* point 123456 and the two after it */
  CHECK(gpux_random_uniform_host(host, GPUX_FLOAT32, first, 6, &st, 0.0, 1.0));
  const int64_t start[2] = {123456, 0}, stop[2] = {123459, 2};
  CHECK(gpux_array_slice(&xs, xy, start, stop, NULL)); /* rows 123456 .. 123458 */
  CHECK(gpux_array_read(xs, dev, sizeof dev));
  printf("point 123456 on the device (%.9g, %.9g), on the host (%.9g, %.9g)\n", dev[0], dev[1],
         host[0], host[1]);

  /* a generator restored to the saved state draws the same array */
  CHECK(gpux_generator_create(&again, 0));
  CHECK(gpux_generator_set_state(again, &st));
  CHECK(gpux_rand(&xy2, ctx, again, GPUX_FLOAT32, 2, shape));
  double differ = 0;
  CHECK(gpux_binary(&same, GPUX_NE, xy, xy2));
  CHECK(gpux_reduce_scalar(&differ, GPUX_REDUCE_COUNT_NONZERO, same));

  if (memcmp(host, dev, sizeof dev) != 0)
    fprintf(stderr, EXAMPLE ": the host's values differ from the device's\n");
  else if (differ != 0)
    fprintf(stderr, EXAMPLE ": the restored generator drew %.0f different values\n", differ);
  else if (!(fabs(est - pi) <= 6.0 * se))
    fprintf(stderr, EXAMPLE ": the estimate is off by more than 6 standard errors\n");
  else {
    printf("host and device agree; the restored generator drew the same %lld values\n",
           (long long)(2 * N));
    rc = 0;
  }

done:
  gpux_array_release(xs);
  gpux_array_release(same);
  gpux_array_release(xy2);
  gpux_array_release(inside);
  gpux_array_release(r2);
  gpux_array_release(sq);
  gpux_array_release(xy);
  gpux_generator_release(again);
  gpux_generator_release(g);
  gpux_context_release(ctx);
  return rc;
}
