/* gpux tests: one kernel-dialect source gives the same results on CUDA and on OpenCL. In one
 * process, a CUDA context and an OpenCL context (an OpenCL GPU when there is one) build the
 * same GPUX_SOURCE_DIALECT text (k_src: the three kernels of kernel_sources.h) and run its
 * kernels on the same random inputs, into outputs poisoned with NaN / 0xAB bytes:
 *   vadd       n = 1, 1001, 2^22 + 3, blocks of 256;
 *   transpose  16x16 tiles in local memory, shapes 67x130, 130x67, 1x1, 33x16 (2-d launch);
 *   histogram  61 bins, atomics on local then global memory, n = 1, 1001, 1000003, output
 *              starting from random counts.
 * Each result is compared byte for byte between the backends and with the CPU (exact: a
 * float32 sum is the rounding of the double sum, a transpose moves bits, counts are
 * integers). Exits 77 (skip) unless both backends have a device.
 * Not a cmocka binary: plain checks, a summary, exit 1 on any difference. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpux.h"
#include "gpux/kernel.h"
#include "test_util.h"
#include "xbackend_util.h"
#include "kernel_sources.h"

static const char *k_src = KSRC_VADD KSRC_TRANSPOSE KSRC_HISTOGRAM;

static int g_fail = 0, g_checks = 0;

typedef struct side {
  const char *name;
  gpux_context_t ctx;
  gpux_program_t prog;
  gpux_kernel_t vadd, transpose, histogram;
} side;

static void side_open(side *s, const char *name, gpux_context_t ctx) {
  s->name = name;
  s->ctx = ctx;
  CHECK(gpux_program_create(&s->prog, ctx, GPUX_SOURCE_DIALECT, k_src, NULL));
  CHECK(gpux_kernel_create(&s->vadd, s->prog, "vadd"));
  CHECK(gpux_kernel_create(&s->transpose, s->prog, "transpose"));
  CHECK(gpux_kernel_create(&s->histogram, s->prog, "histogram"));
}

static void side_close(side *s) {
  gpux_kernel_release(s->vadd);
  gpux_kernel_release(s->transpose);
  gpux_kernel_release(s->histogram);
  gpux_program_release(s->prog);
}

static gpux_array_t upload(gpux_context_t ctx, gpux_dtype dt, int64_t n, const void *h) {
  gpux_array_t a = NULL;
  const int64_t s[1] = {n};
  CHECK(gpux_array_from_host(&a, ctx, dt, 1, s, h));
  return a;
}

static gpux_array_t poisoned(gpux_context_t ctx, gpux_dtype dt, int64_t n) {
  size_t bytes = (size_t)n * gpux_dtype_size(dt);
  void *p = xmalloc(bytes);
  memset(p, dt == GPUX_FLOAT32 ? 0xff : 0xab, bytes);
  gpux_array_t a = upload(ctx, dt, n, p);
  free(p);
  return a;
}

static void *download(gpux_array_t a, size_t bytes) {
  void *p = xmalloc(bytes);
  CHECK(gpux_array_read(a, p, bytes));
  return p;
}

/* got (one backend) against want (the CPU or the other backend), bytes of elem-size units */
static void compare(const char *what, const char *a_name, const void *a, const char *b_name,
                    const void *b, int64_t n, size_t es) {
  g_checks++;
  if (memcmp(a, b, (size_t)n * es) == 0) return;
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++)
    if (memcmp((const char *)a + i * es, (const char *)b + i * es, es)) {
      if (first < 0) first = i;
      bad++;
    }
  printf("DIFFER  %s: %s vs %s: %" PRId64 " of %" PRId64 " elements differ (first %" PRId64
         ")\n", what, a_name, b_name, bad, n, first);
  g_fail++;
}

/* The CUDA result r0, the OpenCL result r1 and the CPU's want, compared two by two; frees
 * r0 and r1. */
static void compare3(const char *what, void *r0, void *r1, const void *want, int64_t n) {
  compare(what, "CUDA", r0, "OpenCL", r1, n, 4);
  compare(what, "CUDA", r0, "CPU", want, n, 4);
  compare(what, "OpenCL", r1, "CPU", want, n, 4);
  free(r0);
  free(r1);
}

static void *run_vadd(side *s, const float *ha, const float *hb, int64_t n) {
  gpux_array_t a = upload(s->ctx, GPUX_FLOAT32, n, ha), b = upload(s->ctx, GPUX_FLOAT32, n, hb);
  gpux_array_t c = poisoned(s->ctx, GPUX_FLOAT32, n);
  const gpux_arg args[4] = {gpux_arg_array(a), gpux_arg_array(b), gpux_arg_array(c),
                            gpux_arg_i64(n)};
  const uint64_t grid[1] = {(uint64_t)((n + 255) / 256)};
  const uint32_t block[1] = {256};
  CHECK(gpux_kernel_call(s->vadd, 1, grid, block, 4, args));
  void *r = download(c, (size_t)n * 4);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
  return r;
}

static void *run_transpose(side *s, const float *h, int rows, int cols) {
  int64_t n = (int64_t)rows * cols;
  gpux_array_t in = upload(s->ctx, GPUX_FLOAT32, n, h), out = poisoned(s->ctx, GPUX_FLOAT32, n);
  const gpux_arg args[4] = {gpux_arg_array(in), gpux_arg_array(out), gpux_arg_i32(rows),
                            gpux_arg_i32(cols)};
  const uint64_t grid[2] = {(uint64_t)((cols + TILE - 1) / TILE),
                            (uint64_t)((rows + TILE - 1) / TILE)};
  const uint32_t block[2] = {TILE, TILE};
  CHECK(gpux_kernel_call(s->transpose, 2, grid, block, 4, args));
  void *r = download(out, (size_t)n * 4);
  gpux_array_release(in);
  gpux_array_release(out);
  return r;
}

static void *run_histogram(side *s, const int32_t *hx, int64_t n, const int32_t *h0) {
  gpux_array_t x = upload(s->ctx, GPUX_INT32, n, hx), hist = upload(s->ctx, GPUX_INT32, NBINS, h0);
  const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_array(hist), gpux_arg_i32((int32_t)n)};
  const uint64_t grid[1] = {13};
  const uint32_t block[1] = {128};
  CHECK(gpux_kernel_call(s->histogram, 1, grid, block, 3, args));
  void *r = download(hist, NBINS * 4);
  gpux_array_release(x);
  gpux_array_release(hist);
  return r;
}

int main(void) {
  gpux_context_t cu = NULL, cl = NULL;
  if (open_pair("test_kernel_xbackend", &cu, &cl) != 0) return 77;
  side sides[2];
  side_open(&sides[0], "CUDA", cu);
  side_open(&sides[1], "OpenCL", cl);
  char what[96];

  const int64_t vn[3] = {1, 1001, ((int64_t)1 << 22) + 3};
  for (int t = 0; t < 3; t++) {
    int64_t n = vn[t];
    float *ha = xmalloc((size_t)n * 4), *hb = xmalloc((size_t)n * 4), *want = xmalloc((size_t)n * 4);
    gt_fill_random(ha, GPUX_FLOAT32, n, GT_DOM_ANY, 1000 + (uint64_t)t);
    gt_fill_random(hb, GPUX_FLOAT32, n, GT_DOM_ANY, 2000 + (uint64_t)t);
    for (int64_t i = 0; i < n; i++) want[i] = (float)((double)ha[i] + (double)hb[i]);
    void *r0 = run_vadd(&sides[0], ha, hb, n), *r1 = run_vadd(&sides[1], ha, hb, n);
    snprintf(what, sizeof what, "vadd n=%" PRId64, n);
    compare3(what, r0, r1, want, n);
    free(ha);
    free(hb);
    free(want);
  }

  const int shapes[4][2] = {{67, 130}, {130, 67}, {1, 1}, {33, 16}};
  for (int t = 0; t < 4; t++) {
    int rows = shapes[t][0], cols = shapes[t][1];
    int64_t n = (int64_t)rows * cols;
    float *h = xmalloc((size_t)n * 4), *want = xmalloc((size_t)n * 4);
    gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, 3000 + (uint64_t)t);
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) want[(int64_t)c * rows + r] = h[(int64_t)r * cols + c];
    void *r0 = run_transpose(&sides[0], h, rows, cols), *r1 = run_transpose(&sides[1], h, rows, cols);
    snprintf(what, sizeof what, "transpose %dx%d", rows, cols);
    compare3(what, r0, r1, want, n);
    free(h);
    free(want);
  }

  const int64_t hn[3] = {1, 1001, 1000003};
  for (int t = 0; t < 3; t++) {
    int64_t n = hn[t];
    gt_rng r;
    gt_rng_seed(&r, 4000 + (uint64_t)t);
    int32_t *hx = xmalloc((size_t)n * 4), h0[NBINS], want[NBINS];
    ksrc_histogram_inputs(&r, hx, n, h0, want, 1);
    void *r0 = run_histogram(&sides[0], hx, n, h0), *r1 = run_histogram(&sides[1], hx, n, h0);
    snprintf(what, sizeof what, "histogram n=%" PRId64, n);
    compare3(what, r0, r1, want, NBINS);
    free(hx);
  }

  printf("test_kernel_xbackend: %d comparisons, %d differ\n", g_checks, g_fail);
  side_close(&sides[0]);
  side_close(&sides[1]);
  gpux_context_release(cl);
  gpux_context_release(cu);
  return g_fail ? 1 : 0;
}
