/* column_add: a two-column table of 1,000,000 rows, stored row-major as one (1000000, 2)
 * array. gpux_array_slice gives each column as a strided view (no copy); adding the views
 * gives a new contiguous (1000000, 1) array: total = a + b for every row.
 *
 * The backend comes from GPUX_BACKEND (cuda, opencl, auto; unset = auto) and the device from
 * GPUX_DEVICE. Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any
 * other failure (with the status and gpux_last_error_message()). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE "column_add"
#include "example_util.h"

#define ROWS 1000000

static float next_uniform(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((double)(*state >> 40) / (double)(1ull << 24) * 100.0);
}

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_array_t table = NULL, col_a = NULL, col_b = NULL, total = NULL;
  const int64_t shape[2] = {ROWS, 2};
  float *rows = malloc((size_t)ROWS * 2 * sizeof *rows); /* row i: a = rows[2i], b = rows[2i+1] */
  float *sum = malloc((size_t)ROWS * sizeof *sum);
  if (!rows || !sum) {
    fprintf(stderr, "column_add: out of host memory\n");
    goto done;
  }
  uint64_t seed = 7;
  for (size_t i = 0; i < (size_t)ROWS * 2; i++) rows[i] = next_uniform(&seed);

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;

  CHECK(gpux_array_from_host(&table, ctx, GPUX_FLOAT32, 2, shape, rows));

  /* Column views: rows [0, ROWS), columns [0, 1) and [1, 2). Both share the table's memory. */
  {
    const int64_t start_a[2] = {0, 0}, stop_a[2] = {ROWS, 1};
    const int64_t start_b[2] = {0, 1}, stop_b[2] = {ROWS, 2};
    const int64_t step[2] = {1, 1};
    CHECK(gpux_array_slice(&col_a, table, start_a, stop_a, step));
    CHECK(gpux_array_slice(&col_b, table, start_b, stop_b, step));
  }
  {
    int64_t vshape[GPUX_MAX_DIMS], vstrides[GPUX_MAX_DIMS];
    int contiguous;
    CHECK(gpux_array_shape(vshape, col_a));
    CHECK(gpux_array_strides(vstrides, col_a));
    CHECK(gpux_array_is_contiguous(&contiguous, col_a));
    printf("column view: shape (%" PRId64 ", %" PRId64 "), strides (%" PRId64 ", %" PRId64
           ") elements, contiguous: %s\n",
           vshape[0], vshape[1], vstrides[0], vstrides[1], contiguous ? "yes" : "no");
  }

  CHECK(gpux_add(&total, col_a, col_b)); /* strided inputs, contiguous (ROWS, 1) output */
  CHECK(gpux_array_read(total, sum, (size_t)ROWS * sizeof *sum));

  int64_t bad = 0;
  for (int64_t i = 0; i < ROWS; i++) {
    float expect = rows[2 * i] + rows[2 * i + 1];
    if (sum[i] != expect) {
      if (bad++ < 5)
        fprintf(stderr, "column_add: row %" PRId64 ": %.9g + %.9g gave %.9g, expected %.9g\n",
                i, rows[2 * i], rows[2 * i + 1], sum[i], expect);
    }
  }
  printf("row        a          b          a + b\n");
  for (int64_t i = 0; i < 3; i++)
    printf("%-7" PRId64 " %10.4f %10.4f %10.4f\n", i, rows[2 * i], rows[2 * i + 1], sum[i]);
  printf("%-7d %10.4f %10.4f %10.4f\n", ROWS - 1, rows[2 * (ROWS - 1)], rows[2 * (ROWS - 1) + 1],
         sum[ROWS - 1]);
  if (bad) {
    fprintf(stderr, "column_add: FAILED, %" PRId64 " of %d rows differ\n", bad, ROWS);
    goto done;
  }
  printf("column_add: OK, %d rows match the CPU sum exactly\n", ROWS);
  rc = 0;

done:
  gpux_array_release(total);
  gpux_array_release(col_b);
  gpux_array_release(col_a);
  gpux_array_release(table); /* the views above keep the memory alive until they go too */
  gpux_context_release(ctx);
  free(rows);
  free(sum);
  return rc;
}
