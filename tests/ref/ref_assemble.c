/* gpux tests: reference of the assembly ops (ref_assemble.h): for each element of the
 * result, the source element it holds, from NumPy's definitions. */
#include "ref_assemble.h"
#include <string.h>

#define MAXD 8

static int64_t size_of(int nd, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  return n;
}

/* row-major index i -> coordinates c */
static void unravel(int64_t i, int nd, const int64_t *shape, int64_t *c) {
  for (int d = nd - 1; d >= 0; d--) {
    c[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
}

static int64_t ravel(int nd, const int64_t *shape, const int64_t *c) {
  int64_t i = 0;
  for (int d = 0; d < nd; d++) i = i * shape[d] + c[d];
  return i;
}

static void put(size_t es, void *out, int64_t i, const void *in, int64_t j) {
  memcpy((char *)out + (size_t)i * es, (const char *)in + (size_t)j * es, es);
}

static int64_t mod(int64_t a, int64_t n) { return n ? ((a % n) + n) % n : 0; }

void ref_asm_concat(size_t es, int n, const void *const *in, int nd, const int64_t *const *shapes,
                    int axis, void *out) {
  if (axis < 0) {
    int64_t o = 0;
    for (int k = 0; k < n; k++) {
      int64_t m = size_of(nd, shapes[k]);
      memcpy((char *)out + (size_t)o * es, in[k], (size_t)m * es);
      o += m;
    }
    return;
  }
  int64_t oshape[MAXD], c[MAXD];
  memcpy(oshape, shapes[0], (size_t)nd * sizeof *oshape);
  oshape[axis] = 0;
  for (int k = 0; k < n; k++) oshape[axis] += shapes[k][axis];
  for (int64_t i = 0, m = size_of(nd, oshape); i < m; i++) {
    unravel(i, nd, oshape, c);
    int k = 0;
    while (c[axis] >= shapes[k][axis]) c[axis] -= shapes[k++][axis];
    put(es, out, i, in[k], ravel(nd, shapes[k], c));
  }
}

void ref_asm_slice(size_t es, int nd, const int64_t *shape, const void *in, int axis, int64_t lo,
                   int64_t hi, void *out) {
  int64_t oshape[MAXD], c[MAXD];
  memcpy(oshape, shape, (size_t)nd * sizeof *oshape);
  oshape[axis] = hi - lo;
  for (int64_t i = 0, m = size_of(nd, oshape); i < m; i++) {
    unravel(i, nd, oshape, c);
    c[axis] += lo;
    put(es, out, i, in, ravel(nd, shape, c));
  }
}

void ref_asm_tile(size_t es, int nd, const int64_t *shape, const void *in, int nreps,
                  const int64_t *reps, void *out) {
  int ond = nd > nreps ? nd : nreps;
  int64_t sh[MAXD], oshape[MAXD], c[MAXD];
  for (int d = 0; d < ond; d++) {
    int ia = d - (ond - nd), ir = d - (ond - nreps);
    sh[d] = ia >= 0 ? shape[ia] : 1;
    oshape[d] = sh[d] * (ir >= 0 ? reps[ir] : 1);
  }
  for (int64_t i = 0, m = size_of(ond, oshape); i < m; i++) {
    unravel(i, ond, oshape, c);
    for (int d = 0; d < ond; d++) c[d] %= sh[d];
    put(es, out, i, in, ravel(ond, sh, c));
  }
}

void ref_asm_repeat(size_t es, int nd, const int64_t *shape, const void *in,
                    const int64_t *counts, int axis, void *out) {
  int64_t oshape[MAXD], c[MAXD];
  memcpy(oshape, shape, (size_t)nd * sizeof *oshape);
  oshape[axis] = 0;
  for (int64_t j = 0; j < shape[axis]; j++) oshape[axis] += counts[j];
  for (int64_t i = 0, m = size_of(nd, oshape); i < m; i++) {
    unravel(i, nd, oshape, c);
    int64_t j = 0, p = c[axis];
    while (p >= counts[j]) p -= counts[j++];
    c[axis] = j;
    put(es, out, i, in, ravel(nd, shape, c));
  }
}

void ref_asm_flip(size_t es, int nd, const int64_t *shape, const void *in, const int *which,
                  void *out) {
  int64_t c[MAXD];
  for (int64_t i = 0, m = size_of(nd, shape); i < m; i++) {
    unravel(i, nd, shape, c);
    for (int d = 0; d < nd; d++)
      if (which[d]) c[d] = shape[d] - 1 - c[d];
    put(es, out, i, in, ravel(nd, shape, c));
  }
}

void ref_asm_roll(size_t es, int nd, const int64_t *shape, const void *in, const int64_t *shift,
                  void *out) {
  int64_t c[MAXD];
  for (int64_t i = 0, m = size_of(nd, shape); i < m; i++) {
    unravel(i, nd, shape, c); /* out[c] = in[c - shift] */
    for (int d = 0; d < nd; d++) c[d] = mod(c[d] - mod(shift[d], shape[d]), shape[d]);
    put(es, out, i, in, ravel(nd, shape, c));
  }
}

void ref_asm_pad(size_t es, int nd, const int64_t *shape, const void *in, const int64_t *widths,
                 int edge, const void *value, void *out) {
  int64_t oshape[MAXD], c[MAXD];
  for (int d = 0; d < nd; d++) oshape[d] = shape[d] + widths[2 * d] + widths[2 * d + 1];
  for (int64_t i = 0, m = size_of(nd, oshape); i < m; i++) {
    unravel(i, nd, oshape, c);
    int inside = 1;
    for (int d = 0; d < nd; d++) {
      c[d] -= widths[2 * d];
      if (c[d] < 0 || c[d] >= shape[d]) {
        inside = 0;
        c[d] = c[d] < 0 ? 0 : shape[d] - 1; /* edge: the nearest element */
      }
    }
    if (inside || edge)
      put(es, out, i, in, ravel(nd, shape, c));
    else
      memcpy((char *)out + (size_t)i * es, value, es);
  }
}

void ref_asm_tri(size_t es, int nd, const int64_t *shape, const void *in, int64_t k, int upper,
                 void *out) {
  int64_t oshape[MAXD], c[MAXD];
  int ond = nd == 1 ? 2 : nd;
  memcpy(oshape, shape, (size_t)nd * sizeof *oshape);
  if (nd == 1) oshape[1] = shape[0];
  for (int64_t i = 0, m = size_of(ond, oshape); i < m; i++) {
    unravel(i, ond, oshape, c);
    /* j - i >= k (upper) or <= k, without overflow for extreme k */
    __int128 diff = (__int128)c[ond - 1] - c[ond - 2];
    int keep = upper ? diff >= k : diff <= k;
    if (!keep) {
      memset((char *)out + (size_t)i * es, 0, es);
      continue;
    }
    int64_t j = nd == 1 ? c[1] : ravel(nd, shape, c);
    put(es, out, i, in, j);
  }
}

void ref_asm_diagonal(size_t es, int nd, const int64_t *shape, const void *in, int64_t off,
                      int a1, int a2, int64_t *len, void *out) {
  int64_t n1 = shape[a1], n2 = shape[a2], l = 0;
  for (int64_t t = 0; t < n1; t++) {
    __int128 u = (__int128)t + off;
    if (u >= 0 && u < n2) l++;
  }
  *len = l;
  int64_t rshape[MAXD], c[MAXD], r[MAXD];
  int rn = 0;
  for (int d = 0; d < nd; d++)
    if (d != a1 && d != a2) rshape[rn++] = shape[d];
  rshape[rn++] = l;
  int64_t i1 = l && off < 0 ? -off : 0, i2 = l && off > 0 ? off : 0;
  for (int64_t i = 0, m = size_of(rn, rshape); i < m; i++) {
    unravel(i, rn, rshape, r);
    for (int d = 0, q = 0; d < nd; d++)
      if (d != a1 && d != a2) c[d] = r[q++];
    c[a1] = i1 + r[rn - 1];
    c[a2] = i2 + r[rn - 1];
    put(es, out, i, in, ravel(nd, shape, c));
  }
}

void ref_asm_broadcast(size_t es, int nd, const int64_t *shape, const void *in, int ond,
                       const int64_t *oshape, void *out) {
  int64_t c[MAXD], s[MAXD];
  for (int64_t i = 0, m = size_of(ond, oshape); i < m; i++) {
    unravel(i, ond, oshape, c);
    for (int d = 0; d < nd; d++) {
      int64_t x = c[d + ond - nd];
      s[d] = shape[d] == 1 ? 0 : x;
    }
    put(es, out, i, in, ravel(nd, shape, s));
  }
}
