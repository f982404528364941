/* gpux tests: CPU reference of gather and put (ref_index.h). */
#include "ref_index.h"
#include <string.h>

int64_t ref_ix_resolve(int64_t v, int64_t n, int mode) {
  if (mode == 1) { /* wrap */
    int64_t r = v % n;
    return r < 0 ? r + n : r;
  }
  if (mode == 2) return v < 0 ? 0 : v >= n ? n - 1 : v; /* clip */
  if (v < -n || v >= n) return -1;
  return v < 0 ? v + n : v;
}

static int64_t prod(int from, int to, const int64_t *s) {
  int64_t p = 1;
  for (int d = from; d < to; d++) p *= s[d];
  return p;
}

int64_t ref_take(void *out, const void *a, size_t es, int nd, const int64_t *shape,
                 const int64_t *idx, int64_t nidx, int axis, int mode) {
  int64_t pre = 1, len = prod(0, nd, shape), post = 1, bad = -1;
  if (axis >= 0) {
    pre = prod(0, axis, shape);
    len = shape[axis];
    post = prod(axis + 1, nd, shape);
  }
  unsigned char *o = out;
  const unsigned char *s = a;
  for (int64_t i = 0; i < pre; i++)
    for (int64_t j = 0; j < nidx; j++) {
      int64_t w = ref_ix_resolve(idx[j], len, mode);
      if (w < 0 && (bad < 0 || j < bad)) bad = j;
      for (int64_t k = 0; k < post; k++) {
        unsigned char *dst = o + ((i * nidx + j) * post + k) * es;
        if (w < 0) memset(dst, 0, es);
        else memcpy(dst, s + ((i * len + w) * post + k) * es, es);
      }
    }
  return bad;
}

/* row-major offset of coordinate c in shape sh, dims of length 1 broadcast */
static int64_t off_bc(int nd, const int64_t *sh, const int64_t *c) {
  int64_t o = 0;
  for (int d = 0; d < nd; d++) o = o * sh[d] + (sh[d] == 1 ? 0 : c[d]);
  return o;
}

int64_t ref_take_along(void *out, const void *a, size_t es, int nd, const int64_t *shape,
                       const int64_t *idx, const int64_t *ishape, int axis, int mode) {
  int64_t osh[8], c[8] = {0}, n = 1, bad = -1;
  for (int d = 0; d < nd; d++) {
    osh[d] = d == axis ? ishape[d] : shape[d] == 1 ? ishape[d] : shape[d];
    n *= osh[d];
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t r = i;
    for (int d = nd - 1; d >= 0; d--) c[d] = r % osh[d], r /= osh[d];
    const int64_t ip = off_bc(nd, ishape, c);
    const int64_t w = ref_ix_resolve(idx[ip], shape[axis], mode);
    unsigned char *dst = (unsigned char *)out + i * es;
    if (w < 0) {
      if (bad < 0 || ip < bad) bad = ip;
      memset(dst, 0, es);
      continue;
    }
    int64_t ca[8];
    memcpy(ca, c, sizeof ca);
    ca[axis] = w;
    memcpy(dst, (const unsigned char *)a + off_bc(nd, shape, ca) * es, es);
  }
  return bad;
}

int64_t ref_put(void *a, size_t es, int64_t n, const int64_t *idx, int64_t nidx,
                const void *values, int64_t nvalues, int mode) {
  int64_t bad = -1;
  for (int64_t j = 0; j < nidx; j++) {
    const int64_t w = ref_ix_resolve(idx[j], n, mode);
    if (w < 0) {
      if (bad < 0) bad = j;
      continue;
    }
    memcpy((unsigned char *)a + w * es, (const unsigned char *)values + (j % nvalues) * es, es);
  }
  return bad;
}

int64_t ref_put_along(void *a, size_t es, int nd, const int64_t *shape, const int64_t *idx,
                      const int64_t *ishape, const void *values, int axis, int mode) {
  int64_t sh[8], c[8] = {0}, n = 1, bad = -1;
  for (int d = 0; d < nd; d++) {
    sh[d] = d == axis ? ishape[d] : shape[d] == 1 ? ishape[d] : shape[d];
    n *= sh[d];
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t r = i;
    for (int d = nd - 1; d >= 0; d--) c[d] = r % sh[d], r /= sh[d];
    const int64_t ip = off_bc(nd, ishape, c);
    const int64_t w = ref_ix_resolve(idx[ip], shape[axis], mode);
    if (w < 0) {
      if (bad < 0 || ip < bad) bad = ip;
      continue;
    }
    int64_t ca[8];
    memcpy(ca, c, sizeof ca);
    ca[axis] = w;
    memcpy((unsigned char *)a + off_bc(nd, shape, ca) * es, (const unsigned char *)values + i * es, es);
  }
  return bad;
}
