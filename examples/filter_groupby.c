/* filter_groupby: cuDF's "filter, then group and sum" on a 1,000,000-row table held as three
 * device columns -- region (int32, 0 .. 63), amount (float32) and score (float32, [0, 1)):
 *
 *   SELECT region, SUM(amount), COUNT(*) FROM table WHERE score > 0.75 GROUP BY region
 *
 * 1. mask = score > 0.75                    (gpux_binary_scalar, a bool column)
 * 2. rows = nonzero(mask)                   (gpux_nonzero: the surviving row numbers, int64;
 *                                            one small read of the count)
 * 3. amount[rows], region[rows]             (gpux_take: gathers by row number)
 * 4. per-region sums and counts             (gpux_bincount with and without weights)
 *
 * The sums are deterministic: gpux_bincount adds the weights exactly and rounds each bin once,
 * so every backend and every run gives the same bits, and the CPU check below (a double sum
 * rounded to float) agrees to within one rounding. The backend comes from GPUX_BACKEND (cuda,
 * opencl, auto; unset = auto) and the device from GPUX_DEVICE. Exits 0 on success, 77 when the
 * chosen backend has no usable device, 1 on any other failure. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE "filter_groupby"
#include "example_util.h"

#define ROWS 1000000
#define REGIONS 64
#define THRESHOLD 0.75

static uint32_t next_word(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*state >> 32);
}

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_array_t region = NULL, amount = NULL, score = NULL, mask = NULL, rows = NULL;
  gpux_array_t amount_sel = NULL, region_sel = NULL, sums = NULL, counts = NULL;
  int32_t *h_region = malloc(ROWS * sizeof *h_region);
  float *h_amount = malloc(ROWS * sizeof *h_amount), *h_score = malloc(ROWS * sizeof *h_score);
  if (!h_region || !h_amount || !h_score) {
    fprintf(stderr, EXAMPLE ": out of host memory\n");
    goto done;
  }
  uint64_t seed = 2024;
  for (int64_t i = 0; i < ROWS; i++) {
    h_region[i] = (int32_t)(next_word(&seed) % REGIONS);
    /* amounts -500 .. 1500 with cents, as a ledger has */
    h_amount[i] = (float)((int32_t)(next_word(&seed) % 200000) - 50000) / 100.0f;
    h_score[i] = (float)(next_word(&seed) >> 8) / (float)(1u << 24);
  }

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;

  const int64_t n = ROWS;
  CHECK(gpux_array_from_host(&region, ctx, GPUX_INT32, 1, &n, h_region));
  CHECK(gpux_array_from_host(&amount, ctx, GPUX_FLOAT32, 1, &n, h_amount));
  CHECK(gpux_array_from_host(&score, ctx, GPUX_FLOAT32, 1, &n, h_score));

  CHECK(gpux_binary_scalar(&mask, GPUX_GT, score, THRESHOLD)); /* bool (ROWS,) */
  CHECK(gpux_nonzero(&rows, mask));                             /* one int64 array: 1-d mask */
  CHECK(gpux_take(&amount_sel, amount, rows, 0, GPUX_INDEX_CHECKED));
  CHECK(gpux_take(&region_sel, region, rows, 0, GPUX_INDEX_CHECKED));
  CHECK(gpux_bincount(&sums, region_sel, amount_sel, REGIONS)); /* float32 sums per region */
  CHECK(gpux_bincount(&counts, region_sel, NULL, REGIONS));     /* int64 counts per region */

  int64_t nsel = 0, nbins = 0;
  CHECK(gpux_array_size(&nsel, rows));
  CHECK(gpux_array_size(&nbins, sums));
  if (nbins != REGIONS) {
    fprintf(stderr, EXAMPLE ": %" PRId64 " bins, expected %d\n", nbins, REGIONS);
    goto done;
  }
  float g_sum[REGIONS];
  int64_t g_count[REGIONS];
  CHECK(gpux_array_read(sums, g_sum, sizeof g_sum));
  CHECK(gpux_array_read(counts, g_count, sizeof g_count));

  /* the CPU's answer, in double */
  double c_sum[REGIONS] = {0}, c_abs[REGIONS] = {0};
  int64_t c_count[REGIONS] = {0}, c_sel = 0;
  for (int64_t i = 0; i < ROWS; i++)
    if (h_score[i] > THRESHOLD) {
      c_sel++;
      c_sum[h_region[i]] += h_amount[i];
      c_abs[h_region[i]] += fabs(h_amount[i]);
      c_count[h_region[i]]++;
    }
  int bad = nsel != c_sel;
  if (bad) fprintf(stderr, EXAMPLE ": %" PRId64 " rows passed the filter, expected %" PRId64 "\n", nsel, c_sel);
  for (int r = 0; r < REGIONS; r++) {
    /* gpux: the exact sum rounded once to float32; the double sum is within 1e-12 of exact */
    const double tol = ldexp(fabs(c_sum[r]), -23) + 1e-9 * c_abs[r];
    if (g_count[r] != c_count[r] || fabs((double)g_sum[r] - c_sum[r]) > tol) {
      if (bad++ < 5)
        fprintf(stderr, EXAMPLE ": region %d: sum %.9g count %" PRId64 ", expected %.9g and %" PRId64 "\n",
                r, g_sum[r], g_count[r], c_sum[r], c_count[r]);
    }
  }
  printf("%" PRId64 " of %d rows with score > %.2f\n", nsel, ROWS, THRESHOLD);
  printf("region      rows          sum(amount)\n");
  for (int r = 0; r < 5; r++) printf("%6d %9" PRId64 " %20.2f\n", r, g_count[r], g_sum[r]);
  printf("   ... (%d regions)\n", REGIONS);
  if (bad) {
    fprintf(stderr, EXAMPLE ": FAILED (%d mismatches)\n", bad);
    goto done;
  }
  printf(EXAMPLE ": OK\n");
  rc = 0;
done:
  gpux_array_release(counts);
  gpux_array_release(sums);
  gpux_array_release(region_sel);
  gpux_array_release(amount_sel);
  gpux_array_release(rows);
  gpux_array_release(mask);
  gpux_array_release(score);
  gpux_array_release(amount);
  gpux_array_release(region);
  gpux_context_release(ctx);
  free(h_region);
  free(h_amount);
  free(h_score);
  return rc;
}
