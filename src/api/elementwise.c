/* Elementwise ops: validation, broadcasting and layout choice; backends execute. */
#include <string.h>
#include "internal.h"

#define DT_BIT(unused, dt) | (1u << GPUX_KDT_##dt)
#define SUPPORT(op, id, list, res) [id] = 0 list(DT_BIT, _),
#define RESULT(op, id, list, res) [id] = res,
#define NAME(op, id, list, res) [id] = #op,
static const unsigned binary_support[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(SUPPORT)};
static const unsigned char binary_result[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(RESULT)};
static const char *const binary_names[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(NAME)};
static const unsigned unary_support[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(SUPPORT)};
static const unsigned char unary_result[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(RESULT)};
static const char *const unary_names[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(NAME)};
static const unsigned where_support = 0 GPUX_DT_WHERE(DT_BIT, _);
/* the real dtypes that the front end serves for conj, real, imag and angle (no kernels) */
#define FRONT(op, id, list) [id] = 0 list(DT_BIT, _),
static const unsigned unary_front[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_FRONT_OPS(FRONT)};
#undef FRONT
#undef DT_BIT
#undef SUPPORT
#undef RESULT
#undef NAME

/* The public enums and the kernel lists must agree. */
_Static_assert(GPUX_RIGHT_SHIFT + 1 == GPUX_BINARY_OP_COUNT, "binary op ids");
_Static_assert(GPUX_ANGLE + 1 == GPUX_UNARY_OP_COUNT && GPUX_CONJ == 21 && GPUX_REAL == 22 &&
                   GPUX_IMAG == 23,
               "unary op ids");
_Static_assert(GPUX_COMPLEX128 + 1 == GPUX_KDT_COUNT && GPUX_DTYPE_COUNT == GPUX_KDT_COUNT &&
                   GPUX_COMPLEX64 == GPUX_KDT_c64 && GPUX_COMPLEX128 == GPUX_KDT_c128 &&
                   GPUX_BOOL == GPUX_KDT_b8 && GPUX_UINT8 == GPUX_KDT_u8 &&
                   GPUX_FLOAT64 == GPUX_KDT_f64 && GPUX_INT64 == GPUX_KDT_i64 &&
                   GPUX_FLOAT16 == GPUX_KDT_f16 && GPUX_BFLOAT16 == GPUX_KDT_bf16 &&
                   GPUX_INT8 == GPUX_KDT_i8 && GPUX_INT16 == GPUX_KDT_i16 &&
                   GPUX_UINT16 == GPUX_KDT_u16 && GPUX_UINT32 == GPUX_KDT_u32 &&
                   GPUX_UINT64 == GPUX_KDT_u64,
               "dtype ids");

GPUX_API const char *gpux_binary_op_name(gpux_binary_op op) {
  return (unsigned)op < GPUX_BINARY_OP_COUNT ? binary_names[op] : NULL;
}
GPUX_API const char *gpux_unary_op_name(gpux_unary_op op) {
  return (unsigned)op < GPUX_UNARY_OP_COUNT ? unary_names[op] : NULL;
}
GPUX_API int gpux_binary_op_supports(gpux_binary_op op, gpux_dtype dt) {
  return (unsigned)op < GPUX_BINARY_OP_COUNT && (unsigned)dt < GPUX_DTYPE_COUNT &&
         (binary_support[op] >> dt & 1u);
}
GPUX_API int gpux_unary_op_supports(gpux_unary_op op, gpux_dtype dt) {
  return (unsigned)op < GPUX_UNARY_OP_COUNT && (unsigned)dt < GPUX_DTYPE_COUNT &&
         ((unary_support[op] | unary_front[op]) >> dt & 1u);
}

static gpux_status check_binary_op(gpux_binary_op op, gpux_dtype dt) {
  if ((unsigned)op >= GPUX_BINARY_OP_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_OP, "unknown binary op %d", (int)op);
  if ((unsigned)dt >= GPUX_DTYPE_COUNT || !(binary_support[op] >> dt & 1u))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s is not defined for %s%s",
                           binary_names[op], gpux_dtype_name(dt),
                           (unsigned)dt < GPUX_DTYPE_COUNT && gpux__dt_is_complex(dt)
                               ? " (complex numbers are not ordered, and have no bits or "
                                 "remainder: compare or combine their real parts)"
                               : "");
  return GPUX_SUCCESS;
}

static gpux_status check_unary_op(gpux_unary_op op, gpux_dtype dt) {
  if ((unsigned)op >= GPUX_UNARY_OP_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_OP, "unknown unary op %d", (int)op);
  if ((unsigned)dt >= GPUX_DTYPE_COUNT || !((unary_support[op] | unary_front[op]) >> dt & 1u))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s is not defined for %s%s",
                           unary_names[op], gpux_dtype_name(dt),
                           (unsigned)dt < GPUX_DTYPE_COUNT && gpux__dt_is_complex(dt)
                               ? " (apply it to the real or imaginary part)"
                               : " (cast to float32 or float64 first)");
  return GPUX_SUCCESS;
}

static gpux_status check_binary_dtypes(gpux_binary_op op, const struct gpux_array *a,
                                       const struct gpux_array *b) {
  if (a->dtype != b->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: a is %s, b is %s (cast one first)",
                           gpux_binary_op_name(op) ? gpux_binary_op_name(op) : "binary op",
                           gpux_dtype_name(a->dtype), gpux_dtype_name(b->dtype));
  return check_binary_op(op, a->dtype);
}

/* Checks the output of an op on inputs ops[1..n): context, dtype, broadcast shape, overlap. */
static gpux_status check_out(const struct gpux_array *const *ops, int n, gpux_dtype want,
                             const char *fn) {
  const struct gpux_array *out = ops[0];
  for (int k = 1; k < n; k++)
    if (ops[k]->ctx != out->ctx)
      return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "%s: arrays belong to different contexts", fn);
  if (out->dtype != want)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: output is %s, the result is %s", fn,
                           gpux_dtype_name(out->dtype), gpux_dtype_name(want));
  int fast = 1;
  for (int k = 1; k < n; k++) fast &= gpux__same_shape(out, ops[k]);
  if (!fast) {
    int nd;
    int64_t shape[GPUX_MAX_DIMS];
    GPUX__CHECK(gpux__broadcast_shapes(n - 1, ops + 1, &nd, shape));
    if (nd != out->ndim || memcmp(shape, out->shape, (size_t)nd * sizeof shape[0]) != 0) {
      char a[256], b[256];
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH, "%s: output shape %s, the inputs broadcast to %s", fn,
                             gpux__shape_str(a, sizeof a, out->ndim, out->shape),
                             gpux__shape_str(b, sizeof b, nd, shape));
    }
  }
  for (int k = 1; k < n; k++)
    if (gpux__partial_overlap(out, ops[k]))
      return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: output partially overlaps input %d", fn, k);
  return GPUX_SUCCESS;
}

/* Fills the launch for operands ops[0..n) on the calling thread's current stream, which it
 * returns: layout C when every operand is contiguous with the output's shape, else N. */
static gpux__bq *plan(gpux__launch *l, const struct gpux_array *const *ops, int n) {
  const struct gpux_array *out = ops[0];
  struct gpux_stream *q = gpux__stream_cur(out->ctx);
  int contiguous = 1;
  for (int k = 0; k < n; k++) {
    l->opnd[k] = gpux__operand_on(q, ops[k]);
    contiguous &= (k == 0 || gpux__same_shape(out, ops[k])) && gpux__is_contiguous(ops[k]);
  }
  if (contiguous) {
    l->layout = GPUX_LAYOUT_C;
    l->n = out->size;
  } else {
    l->layout = GPUX_LAYOUT_N;
    gpux__plan_nd(&l->nd, n, ops, out->ndim, out->shape);
    l->n = l->nd.n;
  }
  return q->q;
}

static gpux_dtype result_dtype(unsigned char kind, gpux_dtype in) {
  if (kind == GPUX_RES_REAL && in == GPUX_COMPLEX64) return GPUX_FLOAT32;
  if (kind == GPUX_RES_REAL && in == GPUX_COMPLEX128) return GPUX_FLOAT64;
  return kind == GPUX_RES_BOOL ? GPUX_BOOL : in;
}

#define NEED(x, what) \
  if (!(x)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", __func__, what)

GPUX_API gpux_status gpux_binary_into(gpux_array_t out, gpux_binary_op op, gpux_array_t a,
                                      gpux_array_t b) {
  GPUX__API_FN();
  NEED(out, "out");
  NEED(a, "a");
  NEED(b, "b");
  GPUX__CHECK(check_binary_dtypes(op, a, b));
  const struct gpux_array *ops[3] = {out, a, b};
  GPUX__CHECK(check_out(ops, 3, result_dtype(binary_result[op], a->dtype), binary_names[op]));
  if (out->size == 0) return GPUX_SUCCESS;
  GPUX__NEED(out->ctx, GPUX__Q_BINARY, op, a->dtype, -1);
  gpux__launch l;
  gpux__bq *q = plan(&l, ops, 3);
  return out->ctx->be->binary(q, (int)op, &l);
}

/* Creates the output for inputs ops[1..n) and runs `into` on it. */
static gpux_status new_out(struct gpux_array **out, const struct gpux_array *const *ins, int n,
                           gpux_dtype dt) {
  int nd;
  int64_t shape[GPUX_MAX_DIMS];
  for (int k = 1; k < n; k++)
    if (ins[k]->ctx != ins[0]->ctx)
      return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH, "arrays belong to different contexts");
  GPUX__CHECK(gpux__broadcast_shapes(n, ins, &nd, shape));
  return gpux__array_new(out, ins[0]->ctx, dt, nd, shape);
}

static gpux_status finish(gpux_array_t *out, gpux_status s) {
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

GPUX_API gpux_status gpux_binary(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                 gpux_array_t b) {
  GPUX__API_FN();
  NEED(out, "out");
  *out = NULL;
  NEED(a, "a");
  NEED(b, "b");
  GPUX__CHECK(check_binary_dtypes(op, a, b));
  const struct gpux_array *ins[2] = {a, b};
  GPUX__CHECK(new_out(out, ins, 2, result_dtype(binary_result[op], a->dtype)));
  return finish(out, gpux_binary_into(*out, op, a, b));
}

/* s + im i: a complex array takes both parts, each rounded to the component dtype; a real
 * one takes s as gpux__scalar_exact does, and no imaginary part */
static gpux_status scalar_value(gpux__scalar *sv, gpux_dtype dt, double s, double im) {
  if (gpux__dt_is_complex(dt)) {
    *sv = gpux__scalar_from_parts(s, im, dt);
    return GPUX_SUCCESS;
  }
  if (im != 0.0) /* NaN too */
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "the complex scalar %g%+gi has an imaginary part, which a %s array "
                           "cannot take (gpux_binary_scalar_complex_promote casts the array)",
                           s, im, gpux_dtype_name(dt));
  return gpux__scalar_exact(sv, s, dt);
}

static gpux_status binary_scalar_into(gpux_array_t out, gpux_binary_op op, gpux_array_t a, double s,
                                      double im, int scalar_first) {
  NEED(out, "out");
  NEED(a, "a");
  GPUX__CHECK(check_binary_op(op, a->dtype));
  gpux__scalar sv;
  GPUX__CHECK(scalar_value(&sv, a->dtype, s, im));
  const struct gpux_array *ops[2] = {out, a};
  GPUX__CHECK(check_out(ops, 2, result_dtype(binary_result[op], a->dtype), binary_names[op]));
  if (out->size == 0) return GPUX_SUCCESS;
  if (gpux__same_shape(out, a) && gpux__is_contiguous(out) && gpux__is_contiguous(a)) {
    GPUX__NEED(out->ctx, GPUX__Q_BINARY, op, a->dtype, -1);
    gpux__launch l;
    l.layout = GPUX_LAYOUT_S;
    l.n = out->size;
    struct gpux_stream *q = gpux__stream_cur(out->ctx);
    l.opnd[0] = gpux__operand_on(q, out);
    l.opnd[1] = gpux__operand_on(q, a);
    l.scalar = sv;
    l.scalar_first = scalar_first;
    return out->ctx->be->binary(q->q, (int)op, &l);
  }
  /* strided operands: the scalar becomes a one-element device array that broadcasts */
  struct gpux_array *sa;
  GPUX__CHECK(gpux_array_full_complex(&sa, a->ctx, a->dtype, 0, NULL, s, im));
  gpux_status st = scalar_first ? gpux_binary_into(out, op, sa, a) : gpux_binary_into(out, op, a, sa);
  gpux_array_release(sa);
  return st;
}

GPUX_API gpux_status gpux_binary_scalar_into(gpux_array_t out, gpux_binary_op op, gpux_array_t a,
                                             double s) {
  GPUX__API_FN();
  return binary_scalar_into(out, op, a, s, 0.0, 0);
}

GPUX_API gpux_status gpux_scalar_binary_into(gpux_array_t out, gpux_binary_op op, double s,
                                             gpux_array_t a) {
  GPUX__API_FN();
  return binary_scalar_into(out, op, a, s, 0.0, 1);
}

static gpux_status binary_scalar(gpux_array_t *out, gpux_binary_op op, gpux_array_t a, double s,
                                 double im, int scalar_first) {
  NEED(out, "out");
  *out = NULL;
  NEED(a, "a");
  GPUX__CHECK(check_binary_op(op, a->dtype));
  gpux__scalar sv; /* the scalar's error before any allocation */
  GPUX__CHECK(scalar_value(&sv, a->dtype, s, im));
  GPUX__CHECK(gpux__array_new(out, a->ctx, result_dtype(binary_result[op], a->dtype), a->ndim, a->shape));
  return finish(out, binary_scalar_into(*out, op, a, s, im, scalar_first));
}

GPUX_API gpux_status gpux_binary_scalar(gpux_array_t *out, gpux_binary_op op, gpux_array_t a,
                                        double s) {
  GPUX__API_FN();
  return binary_scalar(out, op, a, s, 0.0, 0);
}

GPUX_API gpux_status gpux_scalar_binary(gpux_array_t *out, gpux_binary_op op, double s,
                                        gpux_array_t a) {
  GPUX__API_FN();
  return binary_scalar(out, op, a, s, 0.0, 1);
}

GPUX_API gpux_status gpux_binary_scalar_complex(gpux_array_t *out, gpux_binary_op op,
                                                gpux_array_t a, gpux_complex128 s) {
  GPUX__API_FN();
  return binary_scalar(out, op, a, s.re, s.im, 0);
}

GPUX_API gpux_status gpux_scalar_complex_binary(gpux_array_t *out, gpux_binary_op op,
                                                gpux_complex128 s, gpux_array_t a) {
  GPUX__API_FN();
  return binary_scalar(out, op, a, s.re, s.im, 1);
}

GPUX_API gpux_status gpux_binary_scalar_complex_into(gpux_array_t out, gpux_binary_op op,
                                                     gpux_array_t a, gpux_complex128 s) {
  GPUX__API_FN();
  return binary_scalar_into(out, op, a, s.re, s.im, 0);
}

GPUX_API gpux_status gpux_scalar_complex_binary_into(gpux_array_t out, gpux_binary_op op,
                                                     gpux_complex128 s, gpux_array_t a) {
  GPUX__API_FN();
  return binary_scalar_into(out, op, a, s.re, s.im, 1);
}

/* conj, real, imag and angle of a real array (NumPy's results, no kernels of their own):
 * conj, real: a copy; imag: zeros; angle: atan2(+0, x) by the complex angle kernel on x cast
 * to complex (float64: complex128, the other floats complex64), rounded to x's dtype */
static gpux_status unary_on_real(gpux_array_t out, gpux_unary_op op, gpux_array_t a) {
  gpux_array_t t = NULL, r = NULL;
  gpux_status s;
  switch (op) {
    case GPUX_CONJ:
    case GPUX_REAL: return out == a ? GPUX_SUCCESS : gpux_array_copy_into(out, a);
    case GPUX_IMAG:
      GPUX__CHECK(gpux_array_zeros(&t, a->ctx, a->dtype, 0, NULL));
      s = gpux_array_copy_into(out, t); /* broadcasts */
      break;
    default: { /* angle */
      const gpux_dtype cdt = a->dtype == GPUX_FLOAT64 ? GPUX_COMPLEX128 : GPUX_COMPLEX64;
      GPUX__CHECK(gpux_array_cast(&t, a, cdt));
      if (out->dtype == result_dtype(GPUX_RES_REAL, cdt)) {
        s = gpux_unary_into(out, GPUX_ANGLE, t);
      } else { /* float16, bfloat16: float32's angle, rounded once */
        s = gpux_unary(&r, GPUX_ANGLE, t);
        if (s == GPUX_SUCCESS) s = gpux_array_cast_into(out, r);
      }
      break;
    }
  }
  gpux_array_release(t);
  gpux_array_release(r);
  return s;
}

GPUX_API gpux_status gpux_unary_into(gpux_array_t out, gpux_unary_op op, gpux_array_t a) {
  GPUX__API_FN();
  NEED(out, "out");
  NEED(a, "a");
  GPUX__CHECK(check_unary_op(op, a->dtype));
  const struct gpux_array *ops[2] = {out, a};
  GPUX__CHECK(check_out(ops, 2, result_dtype(unary_result[op], a->dtype), unary_names[op]));
  if (out->size == 0) return GPUX_SUCCESS;
  if (!(unary_support[op] >> a->dtype & 1u)) return unary_on_real(out, op, a);
  GPUX__NEED(out->ctx, GPUX__Q_UNARY, op, a->dtype, -1);
  gpux__launch l;
  gpux__bq *q = plan(&l, ops, 2);
  return out->ctx->be->unary(q, (int)op, &l);
}

GPUX_API gpux_status gpux_unary(gpux_array_t *out, gpux_unary_op op, gpux_array_t a) {
  GPUX__API_FN();
  NEED(out, "out");
  *out = NULL;
  NEED(a, "a");
  GPUX__CHECK(check_unary_op(op, a->dtype));
  GPUX__CHECK(gpux__array_new(out, a->ctx, result_dtype(unary_result[op], a->dtype), a->ndim, a->shape));
  return finish(out, gpux_unary_into(*out, op, a));
}

static gpux_status check_where(gpux_array_t cond, gpux_array_t a, gpux_array_t b) {
  if (cond->dtype != GPUX_BOOL)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "gpux_where: cond is %s, must be bool",
                           gpux_dtype_name(cond->dtype));
  if (a->dtype != b->dtype)
    return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "gpux_where: a is %s, b is %s",
                           gpux_dtype_name(a->dtype), gpux_dtype_name(b->dtype));
  if (!(where_support >> a->dtype & 1u))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "gpux_where is not defined for %s",
                           gpux_dtype_name(a->dtype));
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_where_into(gpux_array_t out, gpux_array_t cond, gpux_array_t a,
                                     gpux_array_t b) {
  GPUX__API_FN();
  NEED(out, "out");
  NEED(cond, "cond");
  NEED(a, "a");
  NEED(b, "b");
  GPUX__CHECK(check_where(cond, a, b));
  const struct gpux_array *ops[4] = {out, cond, a, b};
  GPUX__CHECK(check_out(ops, 4, a->dtype, "where"));
  if (out->size == 0) return GPUX_SUCCESS;
  GPUX__NEED(out->ctx, GPUX__Q_WHERE, 0, a->dtype, -1);
  gpux__launch l;
  gpux__bq *q = plan(&l, ops, 4);
  return out->ctx->be->where(q, &l);
}

GPUX_API gpux_status gpux_where(gpux_array_t *out, gpux_array_t cond, gpux_array_t a,
                                gpux_array_t b) {
  GPUX__API_FN();
  NEED(out, "out");
  *out = NULL;
  NEED(cond, "cond");
  NEED(a, "a");
  NEED(b, "b");
  GPUX__CHECK(check_where(cond, a, b));
  const struct gpux_array *ins[3] = {cond, a, b};
  GPUX__CHECK(new_out(out, ins, 3, a->dtype));
  return finish(out, gpux_where_into(*out, cond, a, b));
}
