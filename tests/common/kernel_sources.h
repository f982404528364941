/* gpux tests: kernel-dialect sources (GPUX_SOURCE_DIALECT, include/gpux/kernel.h) that more
 * than one test builds (test_kernel.c, test_kernel_xbackend.c), as string literals that can
 * be joined into one program, and what the host needs to run and check them:
 *   KSRC_VADD       vadd(a, b, c, gpux_i64 n): c[i] = a[i] + b[i] for i < n (1-d);
 *   KSRC_TRANSPOSE  transpose(in, out, int rows, int cols): out (cols x rows) = in (rows x
 *                   cols) transposed through TILE x TILE tiles in local memory (2-d launch,
 *                   blocks of TILE x TILE, grid {ceil(cols / TILE), ceil(rows / TILE)});
 *   KSRC_HISTOGRAM  histogram(int *x, int *hist, int n): hist[x[i]] += 1 for every i < n
 *                   (grid-stride loop), atomics on local then global memory, NBINS bins. */
#ifndef GPUX_TEST_KERNEL_SOURCES_H
#define GPUX_TEST_KERNEL_SOURCES_H
#include <stdint.h>

#include "test_util.h"

#define TILE 16  /* KSRC_TRANSPOSE's tile side: its "#define TILE" */
#define NBINS 61 /* KSRC_HISTOGRAM's bins: its "#define NBINS" */

#define KSRC_VADD                                                                     \
  "GPUX_KERNEL vadd(GPUX_GLOBAL const float *a, GPUX_GLOBAL const float *b,\n"        \
  "                 GPUX_GLOBAL float *c, const gpux_i64 n) {\n"                       \
  "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"                                                \
  "  if (i < n) c[i] = a[i] + b[i];\n"                                                 \
  "}\n"

#define KSRC_TRANSPOSE                                                                          \
  "#define TILE 16\n"                                                                           \
  "GPUX_KERNEL transpose(GPUX_GLOBAL const float *GPUX_RESTRICT in,\n"                          \
  "                      GPUX_GLOBAL float *GPUX_RESTRICT out, const int rows, const int cols) {\n" \
  "  GPUX_LOCAL_ARRAY(float, tile, TILE * (TILE + 1));\n"                                       \
  "  int tx = (int)GPUX_LOCAL_ID(0), ty = (int)GPUX_LOCAL_ID(1);\n"                             \
  "  int c = (int)GPUX_GROUP_ID(0) * TILE + tx;\n"                                              \
  "  int r = (int)GPUX_GROUP_ID(1) * TILE + ty;\n"                                              \
  "  if (r < rows && c < cols) tile[ty * (TILE + 1) + tx] = in[(gpux_i64)r * cols + c];\n"     \
  "  GPUX_BARRIER();\n"                                                                         \
  "  int oc = (int)GPUX_GROUP_ID(1) * TILE + tx;\n"                                             \
  "  int orow = (int)GPUX_GROUP_ID(0) * TILE + ty;\n"                                           \
  "  if (orow < cols && oc < rows) out[(gpux_i64)orow * rows + oc] = tile[tx * (TILE + 1) + ty];\n" \
  "}\n"

#define KSRC_HISTOGRAM                                                                \
  "#define NBINS 61\n"                                                                \
  "GPUX_KERNEL histogram(GPUX_GLOBAL const int *x, GPUX_GLOBAL int *hist, const int n) {\n" \
  "  GPUX_LOCAL_ARRAY(int, lh, NBINS);\n"                                              \
  "  int lid = (int)GPUX_LOCAL_ID(0);\n"                                               \
  "  int ls = (int)GPUX_LOCAL_SIZE(0);\n"                                              \
  "  for (int b = lid; b < NBINS; b += ls) lh[b] = 0;\n"                               \
  "  GPUX_BARRIER();\n"                                                                \
  "  for (gpux_i64 i = GPUX_GLOBAL_ID(0); i < n; i += GPUX_GLOBAL_SIZE(0))\n"          \
  "    GPUX_ATOMIC_ADD_I32(&lh[x[i]], 1);\n"                                           \
  "  GPUX_BARRIER();\n"                                                                \
  "  for (int b = lid; b < NBINS; b += ls)\n"                                          \
  "    if (lh[b] != 0) GPUX_ATOMIC_ADD_I32(&hist[b], lh[b]);\n"                        \
  "}\n"

/* Histogram inputs from r: hx[0..n) in [0, NBINS), skewed (a quarter of them bin 7, a hot
 * bin: contention), then h0[0..NBINS) starting counts in [-1000, 1000]; want = h0 plus
 * `launches` times the counts of hx (the result of that many launches). */
static inline void ksrc_histogram_inputs(gt_rng *r, int32_t *hx, int64_t n, int32_t *h0,
                                         int32_t *want, int launches) {
  for (int64_t i = 0; i < n; i++)
    hx[i] = (gt_rng_u64(r) & 3) == 0 ? 7 : (int32_t)gt_rng_int(r, 0, NBINS - 1);
  for (int b = 0; b < NBINS; b++) want[b] = h0[b] = (int32_t)gt_rng_int(r, -1000, 1000);
  for (int64_t i = 0; i < n; i++) want[hx[i]] += launches;
}

#endif
