/* gpux tests: plain-C reference (see ref.h). Integer results are bit-exact; float results
 * are computed in double precision from the (exact) inputs. */
#include "ref.h"

#include <math.h>
#include <string.h>

int ref_dtype_is_float(gpux_dtype dt) { return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64; }

size_t ref_dtype_size(gpux_dtype dt) {
  switch (dt) {
    case GPUX_FLOAT32: return 4;
    case GPUX_FLOAT64: return 8;
    case GPUX_INT32: return 4;
    case GPUX_INT64: return 8;
    case GPUX_UINT8: return 1;
    case GPUX_BOOL: return 1;
  }
  return 0;
}

ref_value ref_load(gpux_dtype dt, const void *p, int64_t i) {
  ref_value v;
  v.i = 0;
  switch (dt) {
    case GPUX_FLOAT32: v.f = ((const float *)p)[i]; break;
    case GPUX_FLOAT64: v.f = ((const double *)p)[i]; break;
    case GPUX_INT32: v.i = ((const int32_t *)p)[i]; break;
    case GPUX_INT64: v.i = ((const int64_t *)p)[i]; break;
    case GPUX_UINT8: v.i = ((const uint8_t *)p)[i]; break;
    case GPUX_BOOL: v.i = ((const uint8_t *)p)[i]; break;
  }
  return v;
}

static float to_f32(double x) {
  /* IEEE round to nearest; values at or beyond FLT_MAX + half an ulp overflow to inf
   * (written out so that no out-of-range conversion happens in C). */
  if (isfinite(x) && fabs(x) >= 0x1.ffffffp127) return x > 0 ? INFINITY : -INFINITY;
  return (float)x;
}

void ref_store(gpux_dtype dt, void *p, int64_t i, ref_value v) {
  switch (dt) {
    case GPUX_FLOAT32: ((float *)p)[i] = to_f32(v.f); break;
    case GPUX_FLOAT64: ((double *)p)[i] = v.f; break;
    case GPUX_INT32: ((int32_t *)p)[i] = (int32_t)v.i; break;
    case GPUX_INT64: ((int64_t *)p)[i] = v.i; break;
    case GPUX_UINT8: ((uint8_t *)p)[i] = (uint8_t)v.i; break;
    case GPUX_BOOL: ((uint8_t *)p)[i] = (uint8_t)v.i; break;
  }
}

int64_t ref_wrap(gpux_dtype dt, uint64_t u) {
  switch (dt) {
    case GPUX_INT32:
      u &= 0xffffffffu;
      return u >= 0x80000000u ? (int64_t)u - (int64_t)0x100000000LL : (int64_t)u;
    case GPUX_INT64:
      return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
    case GPUX_UINT8: return (int64_t)(u & 0xffu);
    case GPUX_BOOL: return u != 0;
    default: return (int64_t)u;
  }
}

int64_t ref_int_min(gpux_dtype dt) {
  switch (dt) {
    case GPUX_INT32: return INT32_MIN;
    case GPUX_INT64: return INT64_MIN;
    default: return 0;
  }
}

int64_t ref_int_max(gpux_dtype dt) {
  switch (dt) {
    case GPUX_INT32: return INT32_MAX;
    case GPUX_INT64: return INT64_MAX;
    case GPUX_UINT8: return 255;
    case GPUX_BOOL: return 1;
    default: return 0;
  }
}

static int is_signed_int(gpux_dtype dt) { return dt == GPUX_INT32 || dt == GPUX_INT64; }

int ref_binary_supported(gpux_binary_op op, gpux_dtype dt) {
  if ((int)dt < 0 || (int)dt >= GPUX_DTYPE_COUNT) return 0;
  if ((int)op < 0 || (int)op > GPUX_LOGICAL_XOR) return 0;
  if (op <= GPUX_MOD) return dt != GPUX_BOOL; /* arithmetic: numeric dtypes */
  return 1;                                   /* comparisons and logical ops: all */
}

int ref_unary_supported(gpux_unary_op op, gpux_dtype dt) {
  if ((int)dt < 0 || (int)dt >= GPUX_DTYPE_COUNT) return 0;
  if ((int)op < 0 || (int)op > GPUX_LOGICAL_NOT) return 0;
  if (op == GPUX_LOGICAL_NOT) return 1;
  if (op <= GPUX_RELU) return dt != GPUX_BOOL;
  return ref_dtype_is_float(dt);
}

gpux_dtype ref_binary_result(gpux_binary_op op, gpux_dtype dt) {
  return op >= GPUX_EQ ? GPUX_BOOL : dt;
}

gpux_dtype ref_unary_result(gpux_unary_op op, gpux_dtype dt) {
  return op == GPUX_LOGICAL_NOT ? GPUX_BOOL : dt;
}

/* ---- integers */

static int64_t int_pow(gpux_dtype dt, int64_t base, int64_t e) {
  if (is_signed_int(dt) && e < 0) {
    if (base == 1) return 1;
    if (base == -1) return (e % 2 != 0) ? -1 : 1;
    return 0;
  }
  uint64_t r = 1, b = (uint64_t)base, ue = (uint64_t)e;
  while (ue) {
    if (ue & 1u) r *= b;
    b *= b;
    ue >>= 1;
  }
  return ref_wrap(dt, r);
}

static int64_t int_div(gpux_dtype dt, int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (!is_signed_int(dt)) return a / b;
  if (b == -1) return ref_wrap(dt, (uint64_t)0 - (uint64_t)a); /* MIN / -1 wraps to MIN */
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  return q;
}

static int64_t int_mod(gpux_dtype dt, int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (!is_signed_int(dt)) return a % b;
  if (b == -1) return 0; /* MIN % -1 == 0, and so is every x % -1 */
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

static ref_value binary_int(gpux_binary_op op, gpux_dtype dt, int64_t a, int64_t b) {
  ref_value r;
  r.i = 0;
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
    case GPUX_ADD: r.i = ref_wrap(dt, ua + ub); break;
    case GPUX_SUB: r.i = ref_wrap(dt, ua - ub); break;
    case GPUX_MUL: r.i = ref_wrap(dt, ua * ub); break;
    case GPUX_DIV: r.i = int_div(dt, a, b); break;
    case GPUX_POW: r.i = int_pow(dt, a, b); break;
    case GPUX_MINIMUM: r.i = a < b ? a : b; break;
    case GPUX_MAXIMUM: r.i = a > b ? a : b; break;
    case GPUX_MOD: r.i = int_mod(dt, a, b); break;
    case GPUX_EQ: r.i = a == b; break;
    case GPUX_NE: r.i = a != b; break;
    case GPUX_LT: r.i = a < b; break;
    case GPUX_LE: r.i = a <= b; break;
    case GPUX_GT: r.i = a > b; break;
    case GPUX_GE: r.i = a >= b; break;
    case GPUX_LOGICAL_AND: r.i = (a != 0) && (b != 0); break;
    case GPUX_LOGICAL_OR: r.i = (a != 0) || (b != 0); break;
    case GPUX_LOGICAL_XOR: r.i = (a != 0) != (b != 0); break;
  }
  return r;
}

/* ---- floats */

static double float_mod(double a, double b) {
  if (b == 0) return NAN;
  double r = fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

static ref_value binary_float(gpux_binary_op op, double a, double b) {
  ref_value r;
  r.f = 0;
  switch (op) {
    case GPUX_ADD: r.f = a + b; break;
    case GPUX_SUB: r.f = a - b; break;
    case GPUX_MUL: r.f = a * b; break;
    case GPUX_DIV: r.f = a / b; break;
    case GPUX_POW: r.f = pow(a, b); break;
    case GPUX_MINIMUM: r.f = (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b); break;
    case GPUX_MAXIMUM: r.f = (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b); break;
    case GPUX_MOD: r.f = float_mod(a, b); break;
    case GPUX_EQ: r.i = a == b; break;
    case GPUX_NE: r.i = a != b; break;
    case GPUX_LT: r.i = a < b; break;
    case GPUX_LE: r.i = a <= b; break;
    case GPUX_GT: r.i = a > b; break;
    case GPUX_GE: r.i = a >= b; break;
    case GPUX_LOGICAL_AND: r.i = (a != 0) && (b != 0); break;
    case GPUX_LOGICAL_OR: r.i = (a != 0) || (b != 0); break;
    case GPUX_LOGICAL_XOR: r.i = (a != 0) != (b != 0); break;
  }
  return r;
}

ref_value ref_binary1(gpux_binary_op op, gpux_dtype dt, ref_value a, ref_value b) {
  if (ref_dtype_is_float(dt)) return binary_float(op, a.f, b.f);
  return binary_int(op, dt, a.i, b.i);
}

ref_value ref_unary1(gpux_unary_op op, gpux_dtype dt, ref_value a) {
  ref_value r;
  r.i = 0;
  if (!ref_dtype_is_float(dt)) {
    int64_t x = a.i;
    switch (op) {
      case GPUX_NEG: r.i = ref_wrap(dt, (uint64_t)0 - (uint64_t)x); break;
      case GPUX_ABS: r.i = x < 0 ? ref_wrap(dt, (uint64_t)0 - (uint64_t)x) : x; break;
      case GPUX_SIGN: r.i = (x > 0) - (x < 0); break;
      case GPUX_RELU: r.i = x < 0 ? 0 : x; break;
      case GPUX_LOGICAL_NOT: r.i = x == 0; break;
      default: break; /* unsupported for integers */
    }
    return r;
  }
  double x = a.f;
  switch (op) {
    case GPUX_NEG: r.f = -x; break;
    case GPUX_ABS: r.f = fabs(x); break;
    case GPUX_SIGN: r.f = isnan(x) ? x : (x > 0 ? 1.0 : (x < 0 ? -1.0 : x)); break;
    case GPUX_RELU: r.f = x < 0 ? 0.0 : x; break;
    case GPUX_EXP: r.f = exp(x); break;
    case GPUX_LOG: r.f = log(x); break;
    case GPUX_LOG1P: r.f = log1p(x); break;
    case GPUX_EXPM1: r.f = expm1(x); break;
    case GPUX_SQRT: r.f = sqrt(x); break;
    case GPUX_RSQRT: r.f = 1.0 / sqrt(x); break;
    case GPUX_SIN: r.f = sin(x); break;
    case GPUX_COS: r.f = cos(x); break;
    case GPUX_TAN: r.f = tan(x); break;
    case GPUX_TANH: r.f = tanh(x); break;
    case GPUX_SIGMOID: r.f = 1.0 / (1.0 + exp(-x)); break;
    case GPUX_FLOOR: r.f = floor(x); break;
    case GPUX_CEIL: r.f = ceil(x); break;
    case GPUX_ROUND: r.f = rint(x); break; /* default rounding mode: half to even */
    case GPUX_LOGICAL_NOT: r.i = x == 0; break;
  }
  return r;
}

/* ---- conversions */

static int64_t float_to_int(gpux_dtype to, double x) {
  if (to == GPUX_BOOL) return x != 0; /* NaN -> true */
  if (isnan(x)) return 0;
  double t = trunc(x);
  switch (to) {
    case GPUX_INT32:
      if (t >= 2147483647.0) return INT32_MAX;
      if (t <= -2147483648.0) return INT32_MIN;
      return (int64_t)t;
    case GPUX_INT64:
      if (t >= 9223372036854775808.0) return INT64_MAX;
      if (t <= -9223372036854775808.0) return INT64_MIN;
      return (int64_t)t;
    case GPUX_UINT8:
      if (t >= 255.0) return 255;
      if (t <= 0.0) return 0;
      return (int64_t)t;
    default: return 0;
  }
}

ref_value ref_cast1(gpux_dtype from, gpux_dtype to, ref_value v) {
  ref_value r;
  r.i = 0;
  if (ref_dtype_is_float(from)) {
    if (to == GPUX_FLOAT64) r.f = v.f;
    else if (to == GPUX_FLOAT32) r.f = to_f32(v.f);
    else r.i = float_to_int(to, v.f);
    return r;
  }
  int64_t x = from == GPUX_BOOL ? (v.i != 0) : v.i;
  if (to == GPUX_FLOAT64) r.f = (double)x;     /* one rounding */
  else if (to == GPUX_FLOAT32) r.f = (float)x; /* one rounding, int64 -> float directly */
  else r.i = ref_wrap(to, (uint64_t)x);
  return r;
}

ref_value ref_from_double(gpux_dtype dt, double x) {
  ref_value v;
  v.f = x;
  return ref_cast1(GPUX_FLOAT64, dt, v);
}

/* ---- arrays */

void ref_binary(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a, const void *b,
                ref_value *out) {
  for (int64_t i = 0; i < n; i++) out[i] = ref_binary1(op, dt, ref_load(dt, a, i), ref_load(dt, b, i));
}

void ref_binary_scalar(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a, double s,
                       int scalar_first, ref_value *out) {
  ref_value sv = ref_from_double(dt, s);
  for (int64_t i = 0; i < n; i++) {
    ref_value x = ref_load(dt, a, i);
    out[i] = scalar_first ? ref_binary1(op, dt, sv, x) : ref_binary1(op, dt, x, sv);
  }
}

void ref_unary(gpux_unary_op op, gpux_dtype dt, int64_t n, const void *a, ref_value *out) {
  for (int64_t i = 0; i < n; i++) out[i] = ref_unary1(op, dt, ref_load(dt, a, i));
}

void ref_where(gpux_dtype dt, int64_t n, const uint8_t *cond, const void *a, const void *b,
               ref_value *out) {
  for (int64_t i = 0; i < n; i++) out[i] = cond[i] ? ref_load(dt, a, i) : ref_load(dt, b, i);
}

void ref_cast(gpux_dtype from, gpux_dtype to, int64_t n, const void *src, ref_value *out) {
  for (int64_t i = 0; i < n; i++) out[i] = ref_cast1(from, to, ref_load(from, src, i));
}

int64_t ref_arange_length(double start, double stop, double step) {
  double len = ceil((stop - start) / step);
  return len > 0 ? (int64_t)len : 0;
}

void ref_arange(gpux_dtype dt, double start, double step, int64_t n, ref_value *out) {
  for (int64_t i = 0; i < n; i++) out[i] = ref_from_double(dt, start + (double)i * step);
}

void ref_linspace(gpux_dtype dt, double start, double stop, int64_t n, ref_value *out) {
  double step = n > 1 ? (stop - start) / (double)(n - 1) : 0.0;
  for (int64_t i = 0; i < n; i++) {
    double x = (i == n - 1 && n > 1) ? stop : start + (double)i * step;
    out[i] = ref_from_double(dt, x);
  }
}

int64_t ref_slice_dim(int64_t len, int64_t start, int64_t stop, int64_t step,
                      int64_t *first) {
  /* CPython's PySlice_AdjustIndices */
  if (start < 0) {
    start += len;
    if (start < 0) start = step < 0 ? -1 : 0;
  } else if (start >= len) {
    start = step < 0 ? len - 1 : len;
  }
  if (stop < 0) {
    stop += len;
    if (stop < 0) stop = step < 0 ? -1 : 0;
  } else if (stop >= len) {
    stop = step < 0 ? len - 1 : len;
  }
  *first = start;
  if (step < 0) {
    if (stop < start) return (start - stop - 1) / (-step) + 1;
  } else {
    if (start < stop) return (stop - start - 1) / step + 1;
  }
  return 0;
}

void ref_row_major_strides(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    strides[d] = s;
    s *= shape[d];
  }
}

int64_t ref_shape_size(int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  return n;
}

/* Walks all multi-indices of shape in row-major order; calls back with the linear
 * source offset sum(idx * strides) + offset. */
void ref_gather(void *dst, const void *src, size_t elem, int ndim, const int64_t *shape,
                const int64_t *strides, int64_t offset) {
  int64_t n = ref_shape_size(ndim, shape);
  if (n == 0) return;
  int64_t idx[GPUX_MAX_DIMS] = {0};
  int64_t pos = offset;
  char *d = (char *)dst;
  const char *s = (const char *)src;
  for (int64_t i = 0; i < n; i++) {
    memcpy(d + (size_t)i * elem, s + (size_t)pos * elem, elem);
    for (int k = ndim - 1; k >= 0; k--) {
      idx[k]++;
      pos += strides[k];
      if (idx[k] < shape[k]) break;
      pos -= strides[k] * shape[k];
      idx[k] = 0;
    }
  }
}

void ref_broadcast(void *dst, const void *src, size_t elem, int out_ndim,
                   const int64_t *out_shape, int src_ndim, const int64_t *src_shape) {
  int64_t sstr[GPUX_MAX_DIMS], bstr[GPUX_MAX_DIMS];
  ref_row_major_strides(src_ndim, src_shape, sstr);
  int off = out_ndim - src_ndim;
  for (int d = 0; d < out_ndim; d++) {
    int sd = d - off;
    bstr[d] = (sd < 0 || src_shape[sd] == 1) ? 0 : sstr[sd];
  }
  ref_gather(dst, src, elem, out_ndim, out_shape, bstr, 0);
}

void ref_permute(void *dst, const void *src, size_t elem, int ndim, const int64_t *shape,
                 const int *axes) {
  int64_t sstr[GPUX_MAX_DIMS], oshape[GPUX_MAX_DIMS], ostr[GPUX_MAX_DIMS];
  ref_row_major_strides(ndim, shape, sstr);
  for (int d = 0; d < ndim; d++) {
    oshape[d] = shape[axes[d]];
    ostr[d] = sstr[axes[d]];
  }
  ref_gather(dst, src, elem, ndim, oshape, ostr, 0);
}

int ref_broadcast_shape(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout,
                        int64_t *sout) {
  int n = na > nb ? na : nb;
  for (int d = 0; d < n; d++) {
    int da = d - (n - na), db = d - (n - nb);
    int64_t x = da >= 0 ? sa[da] : 1, y = db >= 0 ? sb[db] : 1;
    if (x == y || y == 1) sout[d] = x;
    else if (x == 1) sout[d] = y;
    else return 0;
  }
  *nout = n;
  return 1;
}
