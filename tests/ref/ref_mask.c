/* gpux tests: the boolean-mask reference (ref_mask.h). */
#include "ref_mask.h"
#include <math.h>
#include <string.h>
#include "ref.h"

int ref_mask_nonzero(gpux_dtype dt, const void *x, int64_t i) {
  switch (dt) {
    case GPUX_FLOAT32: return ((const float *)x)[i] != 0.0f || isnan(((const float *)x)[i]);
    case GPUX_FLOAT64: return ((const double *)x)[i] != 0.0 || isnan(((const double *)x)[i]);
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: {
      const double v = ref_load(dt, x, i).f;
      return v != 0.0 || isnan(v);
    }
    case GPUX_COMPLEX64: {
      const float *p = (const float *)x + 2 * i;
      return p[0] != 0.0f || p[1] != 0.0f || isnan(p[0]) || isnan(p[1]);
    }
    case GPUX_COMPLEX128: {
      const double *p = (const double *)x + 2 * i;
      return p[0] != 0.0 || p[1] != 0.0 || isnan(p[0]) || isnan(p[1]);
    }
    default: { /* integers and bool: any bit */
      const size_t es = ref_dtype_size(dt);
      const unsigned char *p = (const unsigned char *)x + (size_t)i * es;
      for (size_t b = 0; b < es; b++)
        if (p[b]) return 1;
      return 0;
    }
  }
}

int64_t ref_mask_compress(size_t es, int64_t n, const void *x, const uint8_t *mask, void *out) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (mask[i]) memcpy((char *)out + (size_t)k++ * es, (const char *)x + (size_t)i * es, es);
  return k;
}

int64_t ref_mask_put(size_t es, int64_t n, void *x, const uint8_t *mask, const void *vals) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (mask[i]) memcpy((char *)x + (size_t)i * es, (const char *)vals + (size_t)k++ * es, es);
  return k;
}

int64_t ref_mask_argwhere(int nd, const int64_t *shape, const uint8_t *sel, int64_t *out) {
  int64_t n = 1, k = 0;
  for (int d = 0; d < nd; d++) n *= shape[d];
  int64_t idx[GPUX_MAX_DIMS] = {0};
  for (int64_t i = 0; i < n; i++) {
    if (sel[i]) {
      for (int d = 0; d < nd; d++) out[k * nd + d] = idx[d];
      k++;
    }
    for (int d = nd - 1; d >= 0; d--) { /* the next index, last dimension fastest */
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return k;
}
