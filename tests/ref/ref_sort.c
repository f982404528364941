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

static int is_cx(gpux_dtype dt) { return dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128; }
/* element bytes */
static size_t es_of(gpux_dtype dt) {
  return dt == GPUX_COMPLEX64 ? 8 : dt == GPUX_COMPLEX128 ? 16 : (size_t)k_sdt[dt].w / 8;
}

int ref_sort_dtype(gpux_dtype dt) {
  return (unsigned)dt < GPUX_KDT_COUNT && (k_sdt[dt].w != 0 || is_cx(dt));
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

/* b before a: by key, then (complex keys) by key2 */
static int before(const uint64_t *key, const uint64_t *key2, int64_t b, int64_t a) {
  if (key[b] != key[a] || !key2) return GPUX_SO_LESS(key[b], key[a]);
  return GPUX_SO_LESS(key2[b], key2[a]);
}

/* stable merge sort of idx[0..n) by key[idx] (then key2[idx] when key2 is not NULL) */
static void msort(int64_t *idx, int64_t *tmp, int64_t n, const uint64_t *key,
                  const uint64_t *key2) {
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) tmp[k++] = before(key, key2, idx[b], idx[a]) ? idx[b++] : idx[a++];
      while (a < mid) tmp[k++] = idx[a++];
      while (b < hi) tmp[k++] = idx[b++];
    }
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
  }
}

void ref_sort_perm(gpux_dtype dt, int64_t rows, int64_t len, const void *x, int desc,
                   int eqz, int64_t *perm) {
  const unsigned fl = (desc ? GPUX_SO_DESC : 0u) | (eqz ? GPUX_SO_EQZ : 0u);
  const size_t es = es_of(dt);
  const int cx = is_cx(dt);
  /* complex: the parts' images (EQZ always: complex sorts carry positions) */
  const gpux_dtype pdt = dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
  uint64_t *key = malloc((size_t)(len ? len : 1) * sizeof *key);
  uint64_t *key2 = cx ? malloc((size_t)(len ? len : 1) * sizeof *key2) : NULL;
  int64_t *tmp = malloc((size_t)(len ? len : 1) * sizeof *tmp);
  for (int64_t r = 0; r < rows; r++) {
    const void *row = (const unsigned char *)x + (size_t)(r * len) * es;
    int64_t *p = perm + r * len;
    for (int64_t j = 0; j < len; j++) {
      if (cx) {
        key[j] = ref_sort_img(pdt, row, 2 * j, fl | GPUX_SO_EQZ);
        key2[j] = ref_sort_img(pdt, row, 2 * j + 1, fl | GPUX_SO_EQZ);
      } else {
        key[j] = ref_sort_img(dt, row, j, fl);
      }
      p[j] = j;
    }
    msort(p, tmp, len, key, key2);
  }
  free(tmp);
  free(key2);
  free(key);
}

void ref_sort_keys(gpux_dtype dt, int64_t rows, int64_t len, const void *x, int desc,
                   void *out) {
  const sdt *d = &k_sdt[dt];
  const unsigned fl = desc ? GPUX_SO_DESC : 0u;
  const size_t es = es_of(dt);
  int64_t *perm = malloc((size_t)(rows * len > 0 ? rows * len : 1) * sizeof *perm);
  ref_sort_perm(dt, rows, len, x, desc, 0, perm);
  if (is_cx(dt)) { /* complex: the keys' own bits in the stable order */
    for (int64_t r = 0; r < rows; r++)
      for (int64_t j = 0; j < len; j++)
        memcpy((unsigned char *)out + (size_t)(r * len + j) * es,
               (const unsigned char *)x + (size_t)(r * len + perm[r * len + j]) * es, es);
    free(perm);
    return;
  }
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
  const size_t es = es_of(dt);
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

