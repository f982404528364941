/* Grouping (include/gpux/group.h): unique and reduce_by_key, composed of public ops and
 * the mask family's run kinds (no kernels of their own; docs/grouping.md):
 *   perm  = argsort(x)                     stable, THE ORDER
 *   sk    = x[perm]                        the sorted keys, their own bits
 *   start = the first sorted position of each group (waits): real keys and bool by
 *           gpux__run_starts (one pass over sk writes the starts as bits; THE ORDER's
 *           equality, so -0.0 == +0.0 and NaN == NaN), complex keys by nonzero(flag) of
 *   flag  = [1, sk[1:] != sk[:-1]]         floats: & (sk[:-1] == sk[:-1]), so NaN == NaN
 *                                          (NaNs sort last: a NaN's successor is a NaN);
 *                                          != already holds -0.0 == +0.0; complex: that
 *                                          of the real parts | that of the imaginary ones
 *   values = sk[start], index = perm[start], counts = diff([start, n])
 *   inverse[perm] = the group of each sorted position: real keys from the same bits in
 *           one pass (the mask family's ids kind), complex ones cumsum(flag) - 1 and a put
 * reduce_by_key then aggregates each column with scatter-add / -max / -min at the inverse
 * indices, the counts serving COUNT and MEAN. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define NEED(x, what) \
  if (!(x)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what)
/* run a call, jumping to the cleanup label on failure */
#define TRY(call)                        \
  do {                                   \
    if ((s = (call)) != GPUX_SUCCESS) goto done; \
  } while (0)

static void rel(struct gpux_array **a) {
  gpux_array_release(*a);
  *a = NULL;
}

static int is_float_dt(gpux_dtype dt) { return gpux__dt_info[dt].kind == 'f'; }

/* reduce_by_key's keys: real dtypes and bool (unique also takes complex) */
static gpux_status key_dtype_ok(const struct gpux_array *x, const char *fn, const char *what) {
  if (gpux__dt_is_complex(x->dtype))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "%s: %s is %s; grouping of complex keys is not supported", fn, what,
                           gpux_dtype_name(x->dtype));
  return GPUX_SUCCESS;
}

/* the groups of a 1-d x of n >= 1 elements */
typedef struct groups {
  struct gpux_array *perm, *sk, *flag, *start; /* start: (nu,) int64 */
  struct gpux_array *inv;                      /* real keys: the inverse, (n,) int64 */
  int64_t n, nu;
} groups;

static void groups_free(groups *g) {
  rel(&g->perm);
  rel(&g->sk);
  rel(&g->flag);
  rel(&g->start);
  rel(&g->inv);
}

/* f (bool, n - 1) = "sorted part p (real, n) differs from its predecessor":
 * p[1:] != p[:-1], floats & (p[:-1] == p[:-1]) (NaN == NaN: a NaN's successor in the sorted
 * order is a NaN) */
static gpux_status differs_into(struct gpux_array *f, struct gpux_array *p) {
  gpux_status s;
  struct gpux_array *a = NULL, *b = NULL, *t = NULL;
  const int64_t n = p->size;
  TRY(gpux_array_slice_axis(&a, p, 0, 1, INT64_MAX, 1));
  TRY(gpux_array_slice_axis(&b, p, 0, 0, n - 1, 1));
  TRY(gpux_binary_into(f, GPUX_NE, a, b));
  if (is_float_dt(p->dtype)) {
    TRY(gpux_binary(&t, GPUX_EQ, b, b)); /* b is not NaN */
    TRY(gpux_binary_into(f, GPUX_LOGICAL_AND, f, t));
  }
done:
  rel(&a);
  rel(&b);
  rel(&t);
  return s;
}

/* perm: 0 when neither the first indices nor the inverse are wanted. Integer and bool keys
 * come back from the sort (equal keys are equal bits), with their positions in the same sort
 * where perm is wanted; floats keep argsort + take, whose groups keep their first element's
 * bits (-0.0 or +0.0, a NaN's payload). inv: 1 when the inverse is wanted
 * (perm must be 1 then): real keys get it with their runs from one pass over the sorted
 * keys (gpux__run_starts: no bool array, no second read of them) in g->inv, complex keys
 * keep g->flag for groups_inverse */
static gpux_status groups_make(groups *g, struct gpux_array *x1, int perm, int inv) {
  gpux_status s;
  struct gpux_array *re = NULL, *im = NULL, *f1 = NULL, *f0 = NULL, *t = NULL, *nz[1] = {NULL};
  memset(g, 0, sizeof *g);
  g->n = x1->size;
  const int64_t n = g->n;
  if (gpux__dt_is_int(x1->dtype) || x1->dtype == GPUX_BOOL) {
    TRY(gpux_array_empty(&g->sk, x1->ctx, x1->dtype, 1, &n));
    if (perm) TRY(gpux_array_empty(&g->perm, x1->ctx, GPUX_INT64, 1, &n));
    /* the keys from their images (exact for integers), the positions with them */
    TRY(gpux__sort_keys_pos(x1, g->sk, g->perm));
  } else {
    TRY(gpux_argsort(&g->perm, x1, 0, 0));
    TRY(gpux_take(&g->sk, x1, g->perm, 0, GPUX_INDEX_WRAP));
  }
  if (!gpux__dt_is_complex(x1->dtype)) {
    TRY(gpux__run_starts(&g->start, inv ? &g->inv : NULL, g->sk, g->perm));
    g->nu = g->start->size;
    goto done;
  }
  TRY(gpux_array_empty(&g->flag, x1->ctx, GPUX_BOOL, 1, &n));
  TRY(gpux_array_slice_axis(&f0, g->flag, 0, 0, 1, 1));
  const uint8_t one = 1;
  TRY(gpux_array_write(f0, &one, 1));
  if (n > 1) {
    TRY(gpux_array_slice_axis(&f1, g->flag, 0, 1, INT64_MAX, 1));
    if (gpux__dt_is_complex(x1->dtype)) {
      /* sorted by the real parts, then the imaginary ones: a new group where the real parts
       * differ, or (equal real parts, so imaginary parts sorted, NaN last) the imaginary
       * ones do */
      const int64_t m = n - 1;
      TRY(gpux_unary(&re, GPUX_REAL, g->sk));
      TRY(gpux_unary(&im, GPUX_IMAG, g->sk));
      TRY(differs_into(f1, re));
      TRY(gpux_array_empty(&t, x1->ctx, GPUX_BOOL, 1, &m));
      TRY(differs_into(t, im));
      TRY(gpux_binary_into(f1, GPUX_LOGICAL_OR, f1, t));
    } else {
      TRY(differs_into(f1, g->sk));
    }
  }
  TRY(gpux_nonzero(nz, g->flag));
  g->start = nz[0];
  nz[0] = NULL;
  g->nu = g->start->size;
done:
  rel(&re);
  rel(&im);
  rel(&f0);
  rel(&f1);
  rel(&t);
  if (s != GPUX_SUCCESS) groups_free(g);
  return s;
}

/* counts = diff([start, n]) */
static gpux_status groups_counts(struct gpux_array **out, const groups *g) {
  gpux_status s;
  struct gpux_array *ext = NULL, *head = NULL, *last = NULL, *hi = NULL;
  const int64_t m = g->nu + 1;
  TRY(gpux_array_empty(&ext, g->sk->ctx, GPUX_INT64, 1, &m));
  TRY(gpux_array_slice_axis(&head, ext, 0, 0, g->nu, 1));
  TRY(gpux_array_copy_into(head, g->start));
  TRY(gpux_array_slice_axis(&last, ext, 0, g->nu, m, 1));
  TRY(gpux_array_write(last, &g->n, sizeof g->n));
  TRY(gpux_array_slice_axis(&hi, ext, 0, 1, m, 1));
  TRY(gpux_binary(out, GPUX_SUB, hi, head));
done:
  rel(&ext);
  rel(&head);
  rel(&last);
  rel(&hi);
  return s;
}

/* inverse (1-d, n): inverse[perm[j]] = cumsum(flag)[j] - 1 (real keys: made with the
 * starts, moved out of g) */
static gpux_status groups_inverse(struct gpux_array **out, groups *g) {
  if (g->inv) {
    *out = g->inv;
    g->inv = NULL;
    return GPUX_SUCCESS;
  }
  gpux_status s;
  struct gpux_array *gid = NULL, *inv = NULL;
  TRY(gpux_scan(&gid, GPUX_SCAN_SUM, g->flag, 0, 0));
  TRY(gpux_binary_scalar_into(gid, GPUX_SUB, gid, 1.0));
  TRY(gpux_array_empty(&inv, g->sk->ctx, GPUX_INT64, 1, &g->n));
  TRY(gpux_put(inv, g->perm, gid, GPUX_INDEX_WRAP));
  *out = inv;
  inv = NULL;
done:
  rel(&gid);
  rel(&inv);
  return s;
}

/* x flattened to 1-d (a view when it can be) */
static gpux_status flat(struct gpux_array **out, struct gpux_array *x) {
  const int64_t n = x->size;
  return gpux_array_reshape(out, x, 1, &n);
}

GPUX_API gpux_status gpux_unique(gpux_array_t *values, gpux_array_t *index,
                                 gpux_array_t *inverse, gpux_array_t *counts, gpux_array_t x) {
  GPUX__API_FN();
  const char *fn = "gpux_unique";
  NEED(values, "values");
  *values = NULL;
  if (index) *index = NULL;
  if (inverse) *inverse = NULL;
  if (counts) *counts = NULL;
  NEED(x, "x");
  GPUX__CHECK(gpux__check_array(x, "x"));
  gpux_status s;
  struct gpux_array *x1 = NULL, *v = NULL, *ix = NULL, *inv1 = NULL, *inv = NULL, *c = NULL;
  groups g;
  memset(&g, 0, sizeof g);
  TRY(flat(&x1, x));
  if (x1->size == 0) {
    const int64_t z = 0;
    TRY(gpux_array_empty(&v, x->ctx, x->dtype, 1, &z));
    if (index) TRY(gpux_array_empty(&ix, x->ctx, GPUX_INT64, 1, &z));
    if (inverse) TRY(gpux_array_empty(&inv, x->ctx, GPUX_INT64, x->ndim, x->shape));
    if (counts) TRY(gpux_array_empty(&c, x->ctx, GPUX_INT64, 1, &z));
  } else {
    TRY(groups_make(&g, x1, index || inverse, inverse != NULL));
    TRY(gpux_take(&v, g.sk, g.start, 0, GPUX_INDEX_WRAP));
    if (index) TRY(gpux_take(&ix, g.perm, g.start, 0, GPUX_INDEX_WRAP));
    if (counts) TRY(groups_counts(&c, &g));
    if (inverse) {
      TRY(groups_inverse(&inv1, &g));
      TRY(gpux_array_reshape(&inv, inv1, x->ndim, x->shape));
    }
  }
  *values = v;
  v = NULL;
  if (index) *index = ix, ix = NULL;
  if (inverse) *inverse = inv, inv = NULL;
  if (counts) *counts = c, c = NULL;
done:
  groups_free(&g);
  rel(&x1);
  rel(&v);
  rel(&ix);
  rel(&inv1);
  rel(&inv);
  rel(&c);
  return s;
}

/* ---- reduce_by_key */

static const char *const k_op_names[GPUX_GROUP_OP_COUNT] = {"sum", "mean", "min", "max",
                                                            "count"};

GPUX_API const char *gpux_group_op_name(gpux_group_op op) {
  return (unsigned)op < GPUX_GROUP_OP_COUNT ? k_op_names[op] : NULL;
}

static gpux_status result_dtype(gpux_dtype *out, gpux_group_op op, gpux_dtype dt) {
  if ((unsigned)op >= GPUX_GROUP_OP_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_OP, "unknown group op %d", (int)op);
  if ((unsigned)dt >= GPUX_DTYPE_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_DTYPE, "unknown dtype %d", (int)dt);
  if (gpux__dt_is_complex(dt))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                           "%s of %s values is not supported (real dtypes and bool)",
                           k_op_names[op], gpux_dtype_name(dt));
  switch (op) {
    case GPUX_GROUP_SUM: return gpux_reduce_result_dtype(out, GPUX_REDUCE_SUM, dt);
    case GPUX_GROUP_MEAN:
      if (dt == GPUX_BOOL)
        return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                               "mean of bool values is not defined (cast them first)");
      *out = is_float_dt(dt) ? dt : GPUX_FLOAT64;
      return GPUX_SUCCESS;
    case GPUX_GROUP_MIN:
    case GPUX_GROUP_MAX: *out = dt; return GPUX_SUCCESS;
    default: *out = GPUX_INT64; return GPUX_SUCCESS;
  }
}

GPUX_API gpux_status gpux_group_result_dtype(gpux_dtype *out, gpux_group_op op, gpux_dtype dt) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_group_result_dtype: out is NULL");
  return result_dtype(out, op, dt);
}

static gpux_status need_1d(const struct gpux_array *a, const char *fn, const char *what,
                           int col) {
  if (a->ndim == 1) return GPUX_SUCCESS;
  char b[256];
  if (col < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s: %s must be 1-d, not of shape %s", fn,
                           what, gpux__shape_str(b, sizeof b, a->ndim, a->shape));
  return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s: %s[%d] must be 1-d, not of shape %s",
                         fn, what, col, gpux__shape_str(b, sizeof b, a->ndim, a->shape));
}

/* values converted to dt (a new reference to v itself when it has that dtype) */
static gpux_status as_dtype(struct gpux_array **out, struct gpux_array *v, gpux_dtype dt) {
  if (v->dtype == dt) {
    const int64_t n = v->size;
    return gpux_array_reshape(out, v, 1, &n); /* a view: v is 1-d */
  }
  return gpux_array_cast(out, v, dt);
}

/* one result column: op on v (1-d, n) grouped by g (inv: the 1-d inverse, cnt: counts,
 * first: each group's first position in v) */
static gpux_status aggregate(struct gpux_array **out, gpux_group_op op, struct gpux_array *v,
                             const groups *g, struct gpux_array *inv, struct gpux_array *cnt,
                             struct gpux_array *first) {
  gpux_status s;
  gpux_dtype rdt;
  struct gpux_array *w = NULL, *acc = NULL, *c = NULL, *r = NULL, *q = NULL, *nm = NULL, *m = NULL;
  struct gpux_context *ctx = v->ctx;
  TRY(result_dtype(&rdt, op, v->dtype));
  const int64_t nu = g->nu;
  switch (op) {
    case GPUX_GROUP_COUNT: TRY(gpux_array_copy(&r, cnt)); break;
    case GPUX_GROUP_SUM:
    case GPUX_GROUP_MEAN: {
      /* the halves' mean sums and divides in float32 */
      const gpux_dtype wdt =
          op == GPUX_GROUP_MEAN && (rdt == GPUX_FLOAT16 || rdt == GPUX_BFLOAT16) ? GPUX_FLOAT32
                                                                                 : rdt;
      TRY(as_dtype(&w, v, wdt));
      /* -0.0: the identity of float sums, so that a group of -0.0 sums to -0.0 */
      TRY(gpux_array_full(&acc, ctx, wdt, 1, &nu, is_float_dt(wdt) ? -0.0 : 0.0));
      TRY(gpux_scatter(acc, GPUX_SCATTER_ADD, inv, w, 0, GPUX_INDEX_WRAP));
      if (op == GPUX_GROUP_SUM) {
        r = acc;
        acc = NULL;
        break;
      }
      TRY(gpux_array_cast(&c, cnt, wdt));
      TRY(gpux_binary(&q, GPUX_DIV, acc, c));
      if (is_float_dt(wdt)) {
        /* a NaN sum keeps the canonical NaN the exact sum wrote: dividing it would give the
         * device's own NaN bits (NVIDIA's 0x7fffffff, x86's payload) */
        TRY(gpux_binary(&nm, GPUX_NE, acc, acc));
        TRY(gpux_where(&m, nm, acc, q));
        rel(&q);
        q = m;
        m = NULL;
      }
      if (wdt != rdt) TRY(gpux_array_cast(&r, q, rdt));
      else r = q, q = NULL;
      break;
    }
    default: {
      /* scatter-max / -min from each group's first value (bool through uint8) */
      const gpux_dtype wdt = v->dtype == GPUX_BOOL ? GPUX_UINT8 : v->dtype;
      TRY(as_dtype(&w, v, wdt));
      TRY(gpux_take(&acc, w, first, 0, GPUX_INDEX_WRAP));
      TRY(gpux_scatter(acc, op == GPUX_GROUP_MAX ? GPUX_SCATTER_MAX : GPUX_SCATTER_MIN, inv, w,
                       0, GPUX_INDEX_WRAP));
      if (wdt != rdt) TRY(gpux_array_cast(&r, acc, rdt));
      else r = acc, acc = NULL;
      break;
    }
  }
  *out = r;
  r = NULL;
done:
  rel(&w);
  rel(&acc);
  rel(&c);
  rel(&r);
  rel(&q);
  rel(&nm);
  rel(&m);
  return s;
}

GPUX_API gpux_status gpux_reduce_by_key(gpux_array_t *keys_out, gpux_array_t *results,
                                        gpux_array_t keys, const gpux_array_t *values,
                                        const gpux_group_op *ops, int ncols) {
  GPUX__API_FN();
  const char *fn = "gpux_reduce_by_key";
  if (keys_out) *keys_out = NULL;
  if (ncols < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: ncols = %d (must be >= 0)", fn,
                           ncols);
  if (ncols > 0) {
    NEED(results, "results");
    for (int i = 0; i < ncols; i++) results[i] = NULL;
    NEED(values, "values");
    NEED(ops, "ops");
  }
  NEED(keys, "keys");
  GPUX__CHECK(key_dtype_ok(keys, fn, "keys"));
  GPUX__CHECK(need_1d(keys, fn, "keys", -1));
  for (int i = 0; i < ncols; i++) {
    const struct gpux_array *v = values[i];
    if (!v) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: values[%d] is NULL", fn, i);
    if (v->ctx != keys->ctx)
      return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH,
                             "%s: values[%d] and keys belong to different contexts", fn, i);
    GPUX__CHECK(need_1d(v, fn, "values", i));
    if (v->size != keys->size)
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                             "%s: values[%d] has %lld elements, keys %lld", fn, i,
                             (long long)v->size, (long long)keys->size);
    if ((unsigned)ops[i] >= GPUX_GROUP_OP_COUNT)
      return gpux__set_error(GPUX_ERROR_INVALID_OP, "%s: ops[%d] = %d is not a gpux_group_op", fn,
                             i, (int)ops[i]);
    gpux_dtype rdt;
    gpux_status s0 = result_dtype(&rdt, ops[i], v->dtype);
    if (s0 != GPUX_SUCCESS) {
      char msg[512];
      snprintf(msg, sizeof msg, "%s", gpux__error_body());
      return gpux__set_error(s0, "%s: values[%d]: %s", fn, i, msg);
    }
  }
  gpux_status s = GPUX_SUCCESS;
  struct gpux_array *k = NULL, *inv = NULL, *cnt = NULL, *first = NULL;
  gpux_array_t *res = NULL;
  groups g;
  memset(&g, 0, sizeof g);
  if (ncols > 0) {
    res = calloc((size_t)ncols, sizeof *res);
    if (!res) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "%s: %d result handles", fn, ncols);
  }
  if (keys->size == 0) {
    const int64_t z = 0;
    if (keys_out) TRY(gpux_array_empty(&k, keys->ctx, keys->dtype, 1, &z));
    for (int i = 0; i < ncols; i++) {
      gpux_dtype rdt;
      TRY(result_dtype(&rdt, ops[i], values[i]->dtype));
      TRY(gpux_array_empty(&res[i], keys->ctx, rdt, 1, &z));
    }
  } else {
    TRY(groups_make(&g, keys, 1, 1));
    if (keys_out) TRY(gpux_take(&k, g.sk, g.start, 0, GPUX_INDEX_WRAP));
    if (ncols > 0) {
      TRY(groups_inverse(&inv, &g));
      TRY(groups_counts(&cnt, &g));
      TRY(gpux_take(&first, g.perm, g.start, 0, GPUX_INDEX_WRAP));
    }
    for (int i = 0; i < ncols; i++)
      TRY(aggregate(&res[i], ops[i], values[i], &g, inv, cnt, first));
  }
  if (keys_out) *keys_out = k, k = NULL;
  for (int i = 0; i < ncols; i++) results[i] = res[i], res[i] = NULL;
done:
  if (res)
    for (int i = 0; i < ncols; i++) gpux_array_release(res[i]);
  free(res);
  groups_free(&g);
  rel(&k);
  rel(&inv);
  rel(&cnt);
  rel(&first);
  return s;
}
