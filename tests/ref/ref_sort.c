/* gpux tests: plain-C reference of the sort family (ref_sort.h). */
#include "ref_sort.h"
#include <stdlib.h>
#include <string.h>
#include "../../kernels/common/gpux_kernels.h"
#include "../../kernels/common/gpux_sort.h"

typedef struct sdt {
  int w, cls;
  uint64_t em, mm, nan;
} sdt;
static const sdt k_sdt[GPUX_KDT_COUNT] = {
#define R_SDT(dt, w, W, cls, em, mm, nan) [GPUX_KDT_##dt] = {w, cls, em, mm, nan},
    GPUX_SORT_DTYPES(R_SDT)
#undef R_SDT
};

int ref_sort_dtype(gpux_dtype dt) {
  return (unsigned)dt < GPUX_KDT_COUNT && k_sdt[dt].w != 0;
}

static uint64_t load_bits(int w, const void *x, int64_t i) {
  switch (w) {
    case 8: return ((const uint8_t *)x)[i];
    case 16: return ((const uint16_t *)x)[i];
    case 32: return ((const uint32_t *)x)[i];
    default: return ((const uint64_t *)x)[i];
  }
}
static void store_bits(int w, void *x, int64_t i, uint64_t v) {
  switch (w) {
    case 8: ((uint8_t *)x)[i] = (uint8_t)v; break;
    case 16: ((uint16_t *)x)[i] = (uint16_t)v; break;
    case 32: ((uint32_t *)x)[i] = (uint32_t)v; break;
    default: ((uint64_t *)x)[i] = v; break;
  }
}

uint64_t ref_sort_img(gpux_dtype dt, const void *x, int64_t i, unsigned flags) {
  const sdt *d = &k_sdt[dt];
  return gpux_so_img(load_bits(d->w, x, i), d->w, d->cls, flags, d->em, d->mm);
}

/* stable merge sort of idx[0..n) by key[idx] */
static void msort(int64_t *idx, int64_t *tmp, int64_t n, const uint64_t *key) {
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) tmp[k++] = GPUX_SO_LESS(key[idx[b]], key[idx[a]]) ? idx[b++] : idx[a++];
      while (a < mid) tmp[k++] = idx[a++];
      while (b < hi) tmp[k++] = idx[b++];
    }
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
  }
}

void ref_sort_perm(gpux_dtype dt, int64_t rows, int64_t len, const void *x, int desc,
                   int eqz, int64_t *perm) {
  const unsigned fl = (desc ? GPUX_SO_DESC : 0u) | (eqz ? GPUX_SO_EQZ : 0u);
  const size_t es = (size_t)k_sdt[dt].w / 8;
  uint64_t *key = malloc((size_t)(len ? len : 1) * sizeof *key);
  int64_t *tmp = malloc((size_t)(len ? len : 1) * sizeof *tmp);
  for (int64_t r = 0; r < rows; r++) {
    const void *row = (const unsigned char *)x + (size_t)(r * len) * es;
    int64_t *p = perm + r * len;
    for (int64_t j = 0; j < len; j++) {
      key[j] = ref_sort_img(dt, row, j, fl);
      p[j] = j;
    }
    msort(p, tmp, len, key);
  }
  free(tmp);
  free(key);
}

void ref_sort_keys(gpux_dtype dt, int64_t rows, int64_t len, const void *x, int desc,
                   void *out) {
  const sdt *d = &k_sdt[dt];
  const unsigned fl = desc ? GPUX_SO_DESC : 0u;
  const size_t es = (size_t)d->w / 8;
  int64_t *perm = malloc((size_t)(rows * len > 0 ? rows * len : 1) * sizeof *perm);
  ref_sort_perm(dt, rows, len, x, desc, 0, perm);
  for (int64_t r = 0; r < rows; r++) {
    const void *row = (const unsigned char *)x + (size_t)(r * len) * es;
    for (int64_t j = 0; j < len; j++) {
      const uint64_t k = ref_sort_img(dt, row, perm[r * len + j], fl);
      store_bits(d->w, out, r * len + j, gpux_so_unimg(k, d->w, d->cls, fl, d->nan));
    }
  }
  free(perm);
}

/* moved[k] = x[i] where k is i's index with the axis moved last (mv = 1), or the inverse */
static void move_axis(size_t es, int nd, const int64_t *shape, int axis, const void *src,
                      void *dst, int mv) {
  int64_t n = 1, idx[GPUX_MAX_DIMS] = {0}, mshape[GPUX_MAX_DIMS];
  for (int d = 0; d < nd; d++) n *= shape[d];
  int k = 0;
  for (int d = 0; d < nd; d++)
    if (d != axis) mshape[k++] = d;
  mshape[k] = axis; /* dims in moved order */
  for (int64_t i = 0; i < n; i++) {
    int64_t m = 0;
    for (int d = 0; d < nd; d++) m = m * shape[mshape[d]] + idx[mshape[d]];
    if (mv) memcpy((char *)dst + (size_t)m * es, (const char *)src + (size_t)i * es, es);
    else memcpy((char *)dst + (size_t)i * es, (const char *)src + (size_t)m * es, es);
    for (int d = nd - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

void ref_sort_along(gpux_dtype dt, int nd, const int64_t *shape, int axis, const void *x,
                    int desc, void *keys, int64_t *pos) {
  const size_t es = (size_t)k_sdt[dt].w / 8;
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  if (axis < 0) axis += nd;
  const int64_t len = nd ? shape[axis] : 1, rows = len ? n / len : 0;
  void *mx = malloc((size_t)n * es + 1), *mk = malloc((size_t)n * es + 1);
  int64_t *mp = malloc((size_t)n * 8 + 8);
  if (nd) move_axis(es, nd, shape, axis, x, mx, 1);
  else memcpy(mx, x, es);
  if (n) {
    ref_sort_keys(dt, rows, len, mx, desc, mk);
    ref_sort_perm(dt, rows, len, mx, desc, 1, mp);
  }
  if (nd) {
    if (keys) move_axis(es, nd, shape, axis, mk, keys, 0);
    if (pos) move_axis(8, nd, shape, axis, mp, pos, 0);
  } else if (n) {
    if (keys) memcpy(keys, mk, es);
    if (pos) pos[0] = 0;
  }
  free(mx);
  free(mk);
  free(mp);
}

