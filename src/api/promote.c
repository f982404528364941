/* Type promotion on request (docs/semantics.md, "Type promotion"): NumPy 2's rules, derived
 * from each dtype's kind and value range (the dtype record, gpux_kernels.h) rather than a
 * table, so that a new dtype promotes by its facts alone.
 *
 *   category: bool < integer < float < complex. The result has the higher category of the
 *   two.
 *   A dtype holds another when every value of the other is one of its values: bool is held
 *   by all; an integer by an integer of its signedness or a signed one with as many digits
 *   (a signed one never by an unsigned one); a bool or integer by a float whose significand
 *   has the integer's digits; a float by a float with as many significand and exponent bits;
 *   a complex dtype holds what its component float holds, and a complex of a component that
 *   holds the other's; nothing real holds a complex.
 *   If one operand holds the other, it is the result; else the smallest dtype of the result's
 *   category that holds both; else float64, or complex128 in the complex category (NumPy:
 *   int64 with a float that cannot hold it, uint64 with a signed integer; complex64 with
 *   int64 or uint64).
 *
 * Python scalars are weak (NEP 50): an integer scalar takes the array's dtype (an error when
 * the dtype cannot hold it), except with bool arrays, where it gives int64; a float scalar
 * takes a float array's dtype and gives float64 with bool and integer arrays; a complex
 * scalar takes a complex array's dtype, gives the complex dtype that holds a float array's
 * dtype (complex64 for float16, bfloat16, float32), else complex128; a bool scalar takes the
 * array's dtype. */
#include <math.h>
#include <string.h>
#include "internal.h"

#define INFO(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = {kind, bytes, digits, exp},
const gpux__dtinfo gpux__dt_info[GPUX_DTYPE_COUNT] = {GPUX_DTYPES(INFO)};
#undef INFO

static int category(gpux_dtype d) {
  const char k = gpux__dt_info[d].kind;
  return k == 'b' ? 0 : k == 'f' ? 2 : k == 'c' ? 3 : 1;
}

/* every value of x is one of h's */
static int holds(gpux_dtype h, gpux_dtype x) {
  const gpux__dtinfo *H = &gpux__dt_info[h], *X = &gpux__dt_info[x];
  if (X->kind == 'b') return 1;
  switch (H->kind) {
  case 'b': return 0;
  case 'u': return X->kind == 'u' && H->digits >= X->digits;
  case 'i': return (X->kind == 'u' || X->kind == 'i') && H->digits >= X->digits;
  case 'f':
    if (X->kind == 'c') return 0;
    if (X->kind == 'f') return H->digits >= X->digits && H->exp >= X->exp;
    return H->digits >= X->digits; /* integers: every float's range covers its digits */
  default: /* 'c': its component's values, of a real or complex x */
    if (X->kind == 'f' || X->kind == 'c') return H->digits >= X->digits && H->exp >= X->exp;
    return H->digits >= X->digits;
  }
}

static gpux_dtype promote(gpux_dtype a, gpux_dtype b) {
  if (holds(a, b)) return a;
  if (holds(b, a)) return b;
  const int cat = category(a) > category(b) ? category(a) : category(b);
  int best = -1;
  for (int d = 0; d < GPUX_DTYPE_COUNT; d++)
    if (category((gpux_dtype)d) == cat && holds((gpux_dtype)d, a) && holds((gpux_dtype)d, b) &&
        (best < 0 || gpux__dt_info[d].bytes < gpux__dt_info[best].bytes))
      best = d;
  if (best >= 0) return (gpux_dtype)best;
  return cat == 3 ? GPUX_COMPLEX128 : GPUX_FLOAT64;
}

GPUX_API gpux_status gpux_result_type(gpux_dtype *out, gpux_dtype a, gpux_dtype b) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  GPUX__CHECK(gpux__check_dtype(a, "a"));
  GPUX__CHECK(gpux__check_dtype(b, "b"));
  *out = promote(a, b);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_result_type_scalar(gpux_dtype *out, gpux_dtype a,
                                             gpux_scalar_kind kind, double value) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  GPUX__CHECK(gpux__check_dtype(a, "a"));
  switch (kind) {
  case GPUX_SCALAR_BOOL:
    if (value != 0.0 && value != 1.0)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "a bool scalar is 0 or 1, not %g", value);
    *out = a;
    return GPUX_SUCCESS;
  case GPUX_SCALAR_INT: {
    if (!isfinite(value) || value != floor(value))
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "an integer scalar has an integral value, not %g",
                             value);
    const gpux_dtype d = gpux__dt_info[a].kind == 'b' ? GPUX_INT64 : a;
    if (gpux__dt_is_int(d)) {
      double lo, top;
      gpux__int_bounds(d, &lo, &top);
      if (value < lo || value >= top)
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "the integer %.17g is out of the range of %s",
                               value, gpux_dtype_name(d));
    }
    *out = d;
    return GPUX_SUCCESS;
  }
  case GPUX_SCALAR_FLOAT:
    *out = gpux__dt_info[a].kind == 'f' || gpux__dt_info[a].kind == 'c' ? a : GPUX_FLOAT64;
    return GPUX_SUCCESS;
  case GPUX_SCALAR_COMPLEX:
    *out = gpux__dt_info[a].kind == 'c'   ? a
           : gpux__dt_info[a].kind == 'f' ? promote(a, GPUX_COMPLEX64)
                                          : GPUX_COMPLEX128;
    return GPUX_SUCCESS;
  default:
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%d is not a scalar kind", (int)kind);
  }
}

/* a cast to dt, or a itself (*tmp NULL) when it has dt already */
static gpux_status as_dtype(gpux_array_t *view, gpux_array_t *tmp, gpux_array_t a, gpux_dtype dt) {
  *tmp = NULL;
  *view = a;
  if (a->dtype == dt) return GPUX_SUCCESS;
  GPUX__CHECK(gpux_array_cast(tmp, a, dt));
  *view = *tmp;
  return GPUX_SUCCESS;
}

/* the op must take the promoted dtype: checked before any cast is queued (an unknown op is
 * the op's own call's error) */
static gpux_status check_op(gpux_binary_op op, gpux_dtype dt) {
  if (gpux_binary_op_name(op) && !gpux_binary_op_supports(op, dt))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s is not defined for %s (the promoted dtype)",
                           gpux_binary_op_name(op), gpux_dtype_name(dt));
  return GPUX_SUCCESS;
}

/* a and b cast to their result type for op (the temporaries in ta, tb: release both) */
static gpux_status promote_pair(gpux_array_t *pa, gpux_array_t *pb, gpux_array_t *ta,
                                gpux_array_t *tb, gpux_binary_op op, gpux_array_t a,
                                gpux_array_t b) {
  *ta = *tb = NULL;
  if (!a) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "a is NULL");
  if (!b) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "b is NULL");
  GPUX__CHECK(gpux__check_array(a, "a"));
  GPUX__CHECK(gpux__check_array(b, "b"));
  if (a->ctx != b->ctx)
    return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "a and b belong to different contexts");
  const gpux_dtype dt = promote(a->dtype, b->dtype);
  GPUX__CHECK(check_op(op, dt));
  GPUX__CHECK(as_dtype(pa, ta, a, dt));
  return as_dtype(pb, tb, b, dt);
}

/* into: the _into form on *out; else a new *out */
static gpux_status pair_promote(gpux_array_t *out, int into, gpux_binary_op op, gpux_array_t a,
                                gpux_array_t b) {
  gpux_array_t pa = NULL, pb = NULL, ta, tb;
  gpux_status s = promote_pair(&pa, &pb, &ta, &tb, op, a, b);
  if (s == GPUX_SUCCESS) s = into ? gpux_binary_into(*out, op, pa, pb) : gpux_binary(out, op, pa, pb);
  gpux_array_release(ta);
  gpux_array_release(tb);
  return s;
}

GPUX_API gpux_status gpux_binary_promote(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                         gpux_array_t b) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  return pair_promote(out, 0, op, a, b);
}

GPUX_API gpux_status gpux_binary_promote_into(gpux_array_t out, gpux_binary_op op,
                                              gpux_array_t a, gpux_array_t b) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  return pair_promote(&out, 1, op, a, b);
}

/* a cast to the result type of (a, kind, s) */
static gpux_status promote_scalar(gpux_array_t *pa, gpux_array_t *ta, gpux_binary_op op,
                                  gpux_array_t a, gpux_scalar_kind kind, double s) {
  *ta = NULL;
  if (!a) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "a is NULL");
  GPUX__CHECK(gpux__check_array(a, "a"));
  gpux_dtype dt;
  GPUX__CHECK(gpux_result_type_scalar(&dt, a->dtype, kind, s));
  GPUX__CHECK(check_op(op, dt));
  return as_dtype(pa, ta, a, dt);
}

static gpux_status scalar_promote(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                  gpux_scalar_kind kind, double s, int scalar_first) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  gpux_array_t pa = NULL, ta;
  gpux_status st = promote_scalar(&pa, &ta, op, a, kind, s);
  if (st == GPUX_SUCCESS)
    st = scalar_first ? gpux_scalar_binary(out, op, s, pa) : gpux_binary_scalar(out, op, pa, s);
  gpux_array_release(ta);
  return st;
}

GPUX_API gpux_status gpux_binary_scalar_promote(gpux_array_t *out, gpux_binary_op op,
                                                gpux_array_t a, gpux_scalar_kind kind,
                                                double s) {
  GPUX__API_FN();
  return scalar_promote(out, op, a, kind, s, 0);
}

GPUX_API gpux_status gpux_scalar_binary_promote(gpux_array_t *out, gpux_binary_op op,
                                                gpux_scalar_kind kind, double s,
                                                gpux_array_t a) {
  GPUX__API_FN();
  return scalar_promote(out, op, a, kind, s, 1);
}

/* the complex scalar forms: a cast to the result type of (a, a complex scalar) */
static gpux_status scalar_complex_promote(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                          gpux_complex128 s, int scalar_first) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  gpux_array_t pa = NULL, ta;
  gpux_status st = promote_scalar(&pa, &ta, op, a, GPUX_SCALAR_COMPLEX, 0.0);
  if (st == GPUX_SUCCESS)
    st = scalar_first ? gpux_scalar_complex_binary(out, op, s, pa)
                      : gpux_binary_scalar_complex(out, op, pa, s);
  gpux_array_release(ta);
  return st;
}

GPUX_API gpux_status gpux_binary_scalar_complex_promote(gpux_array_t *out, gpux_binary_op op,
                                                        gpux_array_t a, gpux_complex128 s) {
  GPUX__API_FN();
  return scalar_complex_promote(out, op, a, s, 0);
}

GPUX_API gpux_status gpux_scalar_complex_binary_promote(gpux_array_t *out, gpux_binary_op op,
                                                        gpux_complex128 s, gpux_array_t a) {
  GPUX__API_FN();
  return scalar_complex_promote(out, op, a, s, 1);
}
