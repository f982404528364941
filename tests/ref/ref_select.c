/* CPU references of the select family: see ref_select.h. Stable merge sort of positions by
 * image; values computed as include/gpux/select.h writes them. */
#include "ref_select.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpux_kernels.h"
#include "gpux_sort.h"
#include "ref.h"

uint64_t ref_sel_img(gpux_dtype dt, const void *buf, int64_t i, unsigned fl) {
  const size_t es = gpux_dtype_size(dt);
  uint64_t b = 0;
  memcpy(&b, (const unsigned char *)buf + (size_t)i * es, es);
  switch (dt) {
    case GPUX_FLOAT32:
      return gpux_so_img(b, 32, GPUX_SO_FLOAT, fl, GPUX_SO_F32_EXP, GPUX_SO_F32_MAN);
    case GPUX_FLOAT64:
      return gpux_so_img(b, 64, GPUX_SO_FLOAT, fl, GPUX_SO_F64_EXP, GPUX_SO_F64_MAN);
    case GPUX_FLOAT16:
      return gpux_so_img(b, 16, GPUX_SO_FLOAT, fl, GPUX_SO_F16_EXP, GPUX_SO_F16_MAN);
    case GPUX_BFLOAT16:
      return gpux_so_img(b, 16, GPUX_SO_FLOAT, fl, GPUX_SO_BF16_EXP, GPUX_SO_BF16_MAN);
    case GPUX_INT8:
    case GPUX_INT16:
    case GPUX_INT32:
    case GPUX_INT64:
      return gpux_so_img(b, (int)es * 8, GPUX_SO_SIGNED, fl, 0, 0);
    default:
      return gpux_so_img(b, (int)es * 8, GPUX_SO_UNSIGNED, fl, 0, 0);
  }
}

void ref_searchsorted(gpux_dtype dt, const void *s, int64_t ne, const void *q, int64_t n, int right,
                      int64_t *out) {
  for (int64_t i = 0; i < n; i++) {
    const uint64_t v = ref_sel_img(dt, q, i, GPUX_SO_EQZ);
    int64_t c = 0; /* a linear count: independent of the kernel's binary search */
    while (c < ne) {
      const uint64_t e = ref_sel_img(dt, s, c, GPUX_SO_EQZ);
      if (right ? e <= v : e < v)
        c++;
      else
        break;
    }
    out[i] = c;
  }
}

/* positions 0..len-1 of row x (len keys) stably sorted by their images */
static const uint64_t *g_keys;
static void msort(int64_t *p, int64_t *t, int64_t n) {
  if (n < 2) return;
  const int64_t h = n / 2;
  msort(p, t, h);
  msort(p + h, t, n - h);
  int64_t i = 0, j = h, o = 0;
  while (i < h && j < n) t[o++] = g_keys[p[j]] < g_keys[p[i]] ? p[j++] : p[i++];
  while (i < h) t[o++] = p[i++];
  while (j < n) t[o++] = p[j++];
  memcpy(p, t, (size_t)n * sizeof *p);
}
static int64_t *sorted_pos(gpux_dtype dt, const void *x, int64_t len, unsigned fl, uint64_t *keys) {
  int64_t *p = malloc((size_t)(len ? len : 1) * sizeof *p);
  int64_t *t = malloc((size_t)(len ? len : 1) * sizeof *t);
  for (int64_t i = 0; i < len; i++) {
    keys[i] = ref_sel_img(dt, x, i, fl);
    p[i] = i;
  }
  g_keys = keys;
  msort(p, t, len);
  free(t);
  return p;
}

static void put(gpux_dtype dt, void *dst, int64_t j, const void *src, int64_t i) {
  const size_t es = gpux_dtype_size(dt);
  memcpy((unsigned char *)dst + (size_t)j * es, (const unsigned char *)src + (size_t)i * es, es);
}

void ref_topk(gpux_dtype dt, const void *x, int64_t rows, int64_t len, int64_t k, int smallest,
              int sorted, void *vals, int64_t *idx) {
  const size_t es = gpux_dtype_size(dt);
  uint64_t *keys = malloc((size_t)(len ? len : 1) * sizeof *keys);
  char *take = malloc((size_t)(len ? len : 1));
  for (int64_t r = 0; r < rows; r++) {
    const void *xr = (const unsigned char *)x + (size_t)(r * len) * es;
    int64_t *p = sorted_pos(dt, xr, len, GPUX_SO_EQZ | (smallest ? 0u : GPUX_SO_DESC), keys);
    if (sorted) {
      for (int64_t j = 0; j < k; j++) {
        put(dt, vals, r * k + j, xr, p[j]);
        idx[r * k + j] = p[j];
      }
    } else {
      memset(take, 0, (size_t)len);
      for (int64_t j = 0; j < k; j++) take[p[j]] = 1;
      int64_t o = 0;
      for (int64_t i = 0; i < len; i++)
        if (take[i]) {
          put(dt, vals, r * k + o, xr, i);
          idx[r * k + o++] = i;
        }
    }
    free(p);
  }
  free(keys);
  free(take);
}

void ref_partition(gpux_dtype dt, const void *x, int64_t rows, int64_t len, int64_t kth, void *vals,
                   int64_t *idx) {
  const size_t es = gpux_dtype_size(dt);
  uint64_t *keys = malloc((size_t)len * sizeof *keys);
  for (int64_t r = 0; r < rows; r++) {
    const void *xr = (const unsigned char *)x + (size_t)(r * len) * es;
    int64_t *p = sorted_pos(dt, xr, len, GPUX_SO_EQZ, keys);
    const uint64_t T = keys[p[kth]];
    int64_t o = 0;
    for (int pass = 0; pass < 3; pass++)
      for (int64_t i = 0; i < len; i++) {
        const int c = keys[i] < T ? 0 : keys[i] == T ? 1 : 2;
        if (c != pass) continue;
        put(dt, vals, r * len + o, xr, i);
        idx[r * len + o++] = i;
      }
    free(p);
  }
  free(keys);
}

void ref_quantile(gpux_dtype dt, const void *x, int64_t rows, int64_t len, const double *q, int nq,
                  int mode, void *out) {
  const size_t es = gpux_dtype_size(dt);
  const int f32 = dt == GPUX_FLOAT32 || dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16;
  uint64_t *keys = malloc((size_t)len * sizeof *keys);
  for (int64_t r = 0; r < rows; r++) {
    const void *xr = (const unsigned char *)x + (size_t)(r * len) * es;
    int64_t *p = sorted_pos(dt, xr, len, 0u, keys);
    int nan = 0;
    for (int64_t i = 0; i < len; i++) nan |= isnan(ref_load_f64(dt, xr, i));
    for (int j = 0; j < nq; j++) {
      int64_t a, b;
      double g = 0.5;
      if (mode == 0) {
        a = (len - 1) / 2;
        b = len / 2;
      } else {
        const double v = ((double)len * q[j] + (1.0 + q[j] * -1.0)) - 1.0;
        a = (int64_t)floor(v);
        b = a + 1;
        if (v < 0) a = b = 0;
        if (v >= (double)(len - 1)) a = b = len - 1;
        g = v - (double)a;
      }
      const double va = ref_load_f64(dt, xr, p[a]), vb = ref_load_f64(dt, xr, p[b]);
      double res;
      if (f32) {
        const float fa = (float)va, fb = (float)vb, t = (float)g, d = fb - fa;
        float fr;
        if (nan)
          fr = NAN;
        else if (mode == 0)
          fr = a == b ? fa : (fa + fb) * 0.5f;
        else
          fr = t >= 0.5f ? fb - d * (1.0f - t) : fa + d * t;
        memcpy((unsigned char *)out + (size_t)(j * rows + r) * 4, &fr, 4);
        continue;
      }
      const double d = vb - va;
      if (nan)
        res = NAN;
      else if (mode == 0)
        res = a == b ? va : (va + vb) * 0.5;
      else
        res = g >= 0.5 ? vb - d * (1.0 - g) : va + d * g;
      memcpy((unsigned char *)out + (size_t)(j * rows + r) * 8, &res, 8);
    }
    free(p);
  }
  free(keys);
}
