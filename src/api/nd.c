/* n-d planning shared by every op: NumPy broadcasting, dimension collapsing, overlap. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

int gpux__same_shape(const struct gpux_array *a, const struct gpux_array *b) {
  return a->ndim == b->ndim &&
         memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof a->shape[0]) == 0;
}

int gpux__broadcasts_to(const struct gpux_array *in, const struct gpux_array *out) {
  if (in->ndim > out->ndim) return 0;
  for (int d = 0; d < in->ndim; d++) {
    int64_t s = in->shape[d], t = out->shape[d + out->ndim - in->ndim];
    if (s != t && s != 1) return 0;
  }
  return 1;
}

gpux_status gpux__broadcast_shapes(int n, const struct gpux_array *const *ops, int *out_ndim,
                                   int64_t *out_shape) {
  int nd = 0;
  for (int k = 0; k < n; k++)
    if (ops[k]->ndim > nd) nd = ops[k]->ndim;
  for (int d = 0; d < nd; d++) {
    int64_t size = 1;
    for (int k = 0; k < n; k++) {
      int dd = d - (nd - ops[k]->ndim);
      if (dd < 0) continue;
      int64_t s = ops[k]->shape[dd];
      if (s == 1) continue;
      if (size != 1 && s != size) {
        char msg[1024];
        size_t pos = 0;
        for (int j = 0; j < n && pos < sizeof msg; j++) {
          char sh[200];
          pos += (size_t)snprintf(msg + pos, sizeof msg - pos, "%s%s", j ? " and " : "",
                                  gpux__shape_str(sh, sizeof sh, ops[j]->ndim, ops[j]->shape));
        }
        return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                               "shapes %s do not broadcast (dimension %d: %lld vs %lld)", msg,
                               d - nd, (long long)size, (long long)s);
      }
      size = s;
    }
    out_shape[d] = size;
  }
  *out_ndim = nd;
  return GPUX_SUCCESS;
}

/* The planner holds every operand's strides on the stack. */
#define PLAN_MAX_OPERANDS 16
_Static_assert(GPUX_KMAX_OPERANDS <= PLAN_MAX_OPERANDS && GPUX_KMAX_DIMS == GPUX_MAX_DIMS,
               "gpux_nd_params must fit the planner's arrays");

int64_t gpux__plan_nd_multi(int n, const struct gpux_array *const *ops, int ndim,
                            const int64_t *shape, int *out_ndim, int64_t *out_shape,
                            int64_t (*out_stride)[GPUX_MAX_DIMS], int64_t *out_offset) {
  int64_t sh[GPUX_MAX_DIMS];
  int64_t st[PLAN_MAX_OPERANDS][GPUX_MAX_DIMS];
  int m = 0;
  if (n > PLAN_MAX_OPERANDS) n = PLAN_MAX_OPERANDS; /* callers stay within it */
  /* broadcast strides; drop dimensions of size 1 */
  for (int d = 0; d < ndim; d++) {
    if (shape[d] == 1) continue;
    for (int k = 0; k < n; k++) {
      int dd = d - (ndim - ops[k]->ndim);
      st[k][m] = (dd < 0 || ops[k]->shape[dd] == 1) ? 0 : ops[k]->strides[dd];
    }
    sh[m++] = shape[d];
  }
  int64_t total = 1;
  if (m == 0) { /* a single element */
    *out_ndim = 1;
    out_shape[0] = 1;
    for (int k = 0; k < n; k++) out_stride[k][0] = 0;
  } else {
    /* merge dimension d into the previous one where every operand steps through both as
     * one */
    int out = 0;
    for (int d = 0; d < m; d++) {
      int merge = out > 0;
      for (int k = 0; k < n && merge; k++)
        if (out_stride[k][out - 1] != st[k][d] * sh[d]) merge = 0;
      if (merge) {
        out_shape[out - 1] *= sh[d];
        for (int k = 0; k < n; k++) out_stride[k][out - 1] = st[k][d];
      } else {
        out_shape[out] = sh[d];
        for (int k = 0; k < n; k++) out_stride[k][out] = st[k][d];
        out++;
      }
    }
    *out_ndim = out;
    for (int d = 0; d < out; d++) total *= out_shape[d];
  }
  for (int k = 0; k < n; k++) out_offset[k] = ops[k]->offset;
  return total;
}

void gpux__plan_nd(gpux_nd_params *nd, int n, const struct gpux_array *const *ops, int ndim,
                   const int64_t *shape) {
  int nd_ndim;
  memset(nd, 0, sizeof *nd);
  nd->tile_dim = -1;
  nd->n = gpux__plan_nd_multi(n, ops, ndim, shape, &nd_ndim, nd->shape, nd->stride, nd->offset);
  nd->ndim = nd_ndim;
}

/* Lowest and highest element index an array touches. */
static void extent(const struct gpux_array *a, int64_t *lo, int64_t *hi) {
  *lo = *hi = a->offset;
  for (int d = 0; d < a->ndim; d++) {
    int64_t span = (a->shape[d] - 1) * a->strides[d];
    if (span < 0)
      *lo += span;
    else
      *hi += span;
  }
}

static int64_t gcd64(int64_t x, int64_t y) {
  while (y) {
    int64_t t = x % y;
    x = y;
    y = t;
  }
  return x;
}

int gpux__partial_overlap(const struct gpux_array *a, const struct gpux_array *b) {
  if (!a->st || !b->st || a->st != b->st || a->size == 0 || b->size == 0) return 0;
  int64_t alo, ahi, blo, bhi;
  extent(a, &alo, &ahi);
  extent(b, &blo, &bhi);
  if (ahi < blo || bhi < alo) return 0;
  /* every element of a sits at offset + k * g for g the gcd of the strides (likewise b):
   * views such as x[0::2] and x[1::2] interleave without sharing an element */
  int64_t g = 0;
  for (int pass = 0; pass < 2; pass++) {
    const struct gpux_array *v = pass ? b : a;
    for (int d = 0; d < v->ndim; d++)
      if (v->shape[d] > 1) g = gcd64(g, v->strides[d] < 0 ? -v->strides[d] : v->strides[d]);
  }
  if (g > 1 && (a->offset - b->offset) % g != 0) return 0;
  return !gpux__same_view(a, b); /* the same view: in-place is fine */
}

int gpux__same_view(const struct gpux_array *a, const struct gpux_array *b) {
  if (a->st != b->st || a->offset != b->offset || a->ndim != b->ndim) return 0;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d] || (a->shape[d] > 1 && a->strides[d] != b->strides[d]))
      return 0;
  return 1;
}

int gpux__overlaps(const struct gpux_array *a, const struct gpux_array *b) {
  return gpux__partial_overlap(a, b) ||
         (a->st && a->st == b->st && a->offset == b->offset && a->size > 0 && b->size > 0);
}
