/* groupby_topk: a small cuDF workflow end to end on a 1,000,000-row table generated on the
 * device with gpux's random numbers -- store (int32, 0 .. 999), price (float32, [1, 100))
 * and qty (int32, 1 .. 10):
 *
 *   SELECT store, SUM(qty), MEAN(price) FROM (table ORDER BY price) GROUP BY store
 *   ORDER BY MEAN(price) DESC LIMIT 10
 *
 * 1. the table sorted by price               (gpux_sort_by_key: price the key, store and qty
 *                                             carried along, one stable sort)
 * 2. per-store SUM(qty) and MEAN(price)      (gpux_reduce_by_key: the stores sorted, int64
 *                                             sums, float32 means)
 * 3. the 10 stores of the highest mean price (gpux_topk, sorted; ties by store id)
 *
 * Float sums are exact and rounded once (scatter-add), so the result does not depend on the
 * order of the rows (sorted or not), the backend or the launch shape; the CPU check below
 * reproduces every bit: the double sum of float32 prices in [1, 100) is exact, rounded to
 * float32 and divided once in float32. Backend from GPUX_BACKEND, device from GPUX_DEVICE.
 * Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any failure. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXAMPLE "groupby_topk"
#include "example_util.h"

#define ROWS 1000000
#define STORES 1000
#define TOP 10

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_generator_t gen = NULL;
  gpux_array_t store = NULL, price = NULL, qty = NULL, price_s = NULL, carried[2] = {NULL, NULL};
  gpux_array_t keys = NULL, agg[2] = {NULL, NULL}, top_mean = NULL, top_pos = NULL,
               top_store = NULL, top_qty = NULL;
  int32_t *h_store = malloc(ROWS * sizeof *h_store), *h_qty = malloc(ROWS * sizeof *h_qty);
  float *h_price = malloc(ROWS * sizeof *h_price), *h_sorted = malloc(ROWS * sizeof *h_sorted);
  if (!h_store || !h_qty || !h_price || !h_sorted) {
    fprintf(stderr, EXAMPLE ": out of host memory\n");
    goto done;
  }
  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;

  const int64_t n = ROWS;
  CHECK(gpux_generator_create(&gen, 2025));
  CHECK(gpux_randint(&store, ctx, gen, GPUX_INT32, 1, &n, 0, STORES));
  CHECK(gpux_randint(&qty, ctx, gen, GPUX_INT32, 1, &n, 1, 11));
  CHECK(gpux_array_empty(&price, ctx, GPUX_FLOAT32, 1, &n));
  CHECK(gpux_random_uniform(price, gen, 1.0, 100.0));

  /* 1. ORDER BY price */
  const gpux_array_t cols[2] = {store, qty};
  CHECK(gpux_sort_by_key(&price_s, carried, price, cols, 2, 0, 0));
  /* 2. GROUP BY store: SUM(qty), MEAN(price) */
  const gpux_array_t vals[2] = {carried[1], price_s};
  const gpux_group_op ops[2] = {GPUX_GROUP_SUM, GPUX_GROUP_MEAN};
  CHECK(gpux_reduce_by_key(&keys, agg, carried[0], vals, ops, 2));
  /* 3. the top 10 by mean price */
  CHECK(gpux_topk(&top_mean, &top_pos, agg[1], TOP, 0, GPUX_TOPK_SORTED));
  CHECK(gpux_take(&top_store, keys, top_pos, 0, GPUX_INDEX_CHECKED));
  CHECK(gpux_take(&top_qty, agg[0], top_pos, 0, GPUX_INDEX_CHECKED));

  int64_t ngroups = 0;
  CHECK(gpux_array_size(&ngroups, keys));
  int32_t g_store[TOP];
  int64_t g_qty[TOP];
  float g_mean[TOP];
  CHECK(gpux_array_read(top_store, g_store, sizeof g_store));
  CHECK(gpux_array_read(top_qty, g_qty, sizeof g_qty));
  CHECK(gpux_array_read(top_mean, g_mean, sizeof g_mean));

  /* the CPU's answer from the same table */
  CHECK(gpux_array_read(store, h_store, ROWS * sizeof *h_store));
  CHECK(gpux_array_read(qty, h_qty, ROWS * sizeof *h_qty));
  CHECK(gpux_array_read(price, h_price, ROWS * sizeof *h_price));
  CHECK(gpux_array_read(price_s, h_sorted, ROWS * sizeof *h_sorted));
  int bad = 0;
  for (int64_t i = 1; i < ROWS; i++)
    if (h_sorted[i - 1] > h_sorted[i]) {
      if (bad++ < 3) fprintf(stderr, EXAMPLE ": price not sorted at row %" PRId64 "\n", i);
    }
  static double c_sum[STORES];
  static int64_t c_qty[STORES], c_cnt[STORES];
  static float c_mean[STORES];
  for (int64_t i = 0; i < ROWS; i++) {
    c_sum[h_store[i]] += h_price[i]; /* exact: < 2^27 in steps of 2^-23 */
    c_qty[h_store[i]] += h_qty[i];
    c_cnt[h_store[i]]++;
  }
  int c_groups = 0;
  for (int s = 0; s < STORES; s++)
    if (c_cnt[s]) {
      c_groups++;
      c_mean[s] = (float)c_sum[s] / (float)c_cnt[s];
    }
  if (ngroups != c_groups) {
    fprintf(stderr, EXAMPLE ": %" PRId64 " groups, expected %d\n", ngroups, c_groups);
    bad++;
  }
  /* top 10 by mean, descending; ties: the lower store id first */
  int c_top[TOP];
  unsigned char taken[STORES] = {0};
  for (int t = 0; t < TOP; t++) {
    int best = -1;
    for (int s = 0; s < STORES; s++)
      if (c_cnt[s] && !taken[s] && (best < 0 || c_mean[s] > c_mean[best])) best = s;
    c_top[t] = best;
    taken[best] = 1;
  }
  printf("%d rows, %" PRId64 " stores; the %d stores of the highest mean price:\n", ROWS,
         ngroups, TOP);
  printf("rank  store   sum(qty)   mean(price)\n");
  for (int t = 0; t < TOP; t++) {
    const int s = c_top[t];
    printf("%4d %6d %10" PRId64 " %13.6f\n", t + 1, g_store[t], g_qty[t], g_mean[t]);
    if (g_store[t] != s || g_qty[t] != c_qty[s] || memcmp(&g_mean[t], &c_mean[s], 4) != 0) {
      fprintf(stderr, EXAMPLE ": rank %d: store %d, sum %" PRId64 ", mean %.9g; expected %d, %" PRId64 ", %.9g\n",
              t + 1, g_store[t], g_qty[t], g_mean[t], s, c_qty[s], c_mean[s]);
      bad++;
    }
  }
  if (bad) {
    fprintf(stderr, EXAMPLE ": FAILED (%d mismatches)\n", bad);
    goto done;
  }
  printf(EXAMPLE ": OK (bit-identical to the CPU)\n");
  rc = 0;
done:
  gpux_array_release(top_qty);
  gpux_array_release(top_store);
  gpux_array_release(top_pos);
  gpux_array_release(top_mean);
  gpux_array_release(agg[0]);
  gpux_array_release(agg[1]);
  gpux_array_release(keys);
  gpux_array_release(carried[0]);
  gpux_array_release(carried[1]);
  gpux_array_release(price_s);
  gpux_array_release(price);
  gpux_array_release(qty);
  gpux_array_release(store);
  gpux_generator_release(gen);
  gpux_context_release(ctx);
  free(h_store);
  free(h_qty);
  free(h_price);
  free(h_sorted);
  return rc;
}
