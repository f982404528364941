/* vector_add: the smallest gpux program. 1024 ones + 1024 ones = 1024 twos.
 *
 * The backend comes from GPUX_BACKEND (cuda, opencl, auto; unset = auto) and the device from
 * GPUX_DEVICE. Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any
 * other failure (with the status and gpux_last_error_message()). */
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE "vector_add"
#include "example_util.h"

#define N 1024

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_array_t a = NULL, b = NULL, c = NULL;
  static float host[N];
  const int64_t shape[1] = {N};

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;

  CHECK(gpux_array_ones(&a, ctx, GPUX_FLOAT32, 1, shape));
  CHECK(gpux_array_ones(&b, ctx, GPUX_FLOAT32, 1, shape));
  CHECK(gpux_add(&c, a, b));                       /* queued; returns at once */
  CHECK(gpux_array_read(c, host, sizeof host));    /* waits and reports queued errors */

  int bad = 0;
  for (int i = 0; i < N; i++)
    if (host[i] != 2.0f) {
      if (bad++ < 5) fprintf(stderr, "vector_add: c[%d] = %g, expected 2\n", i, host[i]);
    }
  printf("c[0..7] = %g %g %g %g %g %g %g %g\n", host[0], host[1], host[2], host[3], host[4],
         host[5], host[6], host[7]);
  if (bad) {
    fprintf(stderr, "vector_add: FAILED, %d of %d elements are not 2\n", bad, N);
    goto done;
  }
  printf("vector_add: OK, all %d elements are 2\n", N);
  rc = 0;

done:
  gpux_array_release(c);
  gpux_array_release(b);
  gpux_array_release(a);
  gpux_context_release(ctx);
  return rc;
}
