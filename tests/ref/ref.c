/* gpux tests: plain-C reference (see ref.h). Integer results are bit-exact; float results
 * are computed in double precision from the (exact) inputs, except the canonical reductions
 * and scans, which reproduce the kernels' bits (this file is compiled with
 * -ffp-contract=off: a fused multiply-add would change them). */
#include "ref.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpux_kernels.h"

/* float32 math must happen in float (SSE), not in a wider format */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "tests/ref needs FLT_EVAL_METHOD == 0 (float math in float)"
#endif

/* the facts of each dtype (the record of gpux_kernels.h): kind and bytes */
#define REF_DT_INFO(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = {kind, bytes},
static const struct {
  char kind;
  int bytes;
} k_dt[GPUX_KDT_COUNT] = {GPUX_DTYPES(REF_DT_INFO)};
#undef REF_DT_INFO
static int is_signed_int(gpux_dtype dt) { return k_dt[dt].kind == 'i'; }
static int int_width(gpux_dtype dt) { return 8 * k_dt[dt].bytes; }
int ref_dtype_is_int(gpux_dtype dt) { return k_dt[dt].kind == 'i' || k_dt[dt].kind == 'u'; }
int ref_int_lt(gpux_dtype dt, int64_t a, int64_t b) {
  return dt == GPUX_UINT64 ? (uint64_t)a < (uint64_t)b : a < b;
}
double ref_int_to_double(gpux_dtype dt, int64_t x) {
  return dt == GPUX_UINT64 ? (double)(uint64_t)x : (double)x;
}

int ref_dtype_is_float(gpux_dtype dt) {
  return dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64 || ref_dtype_is_half(dt);
}
int ref_dtype_is_half(gpux_dtype dt) { return dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16; }

/* ---- float16 / bfloat16 (see ref.h). The rounding is computed in long double arithmetic
 * (ldexpl / nearbyintl), independently of the kernels' integer bit operations. */
#include <fenv.h>

/* the value x (not NaN) rounded to nearest even into mb mantissa bits and exponent bias */
static uint16_t half_round(long double x, int mb, int bias) {
  const uint16_t sign = signbit(x) ? 0x8000u : 0u;
  const uint16_t expmask = (uint16_t)(((1u << (15 - mb)) - 1u) << mb);
  long double a = fabsl(x);
  if (isinf(a)) return sign | expmask;
  if (a == 0) return sign;
  int e2;
  (void)frexpl(a, &e2);
  int e = e2 - 1;            /* 2^e <= a < 2^(e+1) */
  const int emin = 1 - bias; /* the smallest normal exponent */
  int q = (e > emin ? e : emin) - mb; /* the exponent of one ulp */
  long double r = nearbyintl(ldexpl(a, -q)); /* exact scaling, then RNE (FE_TONEAREST) */
  if (r >= ldexpl(1.0L, mb + 1)) { /* rounded up to the next binade */
    r = r / 2;
    q += 1;
  }
  const uint32_t ri = (uint32_t)r;
  if (ri < (1u << mb)) return (uint16_t)(sign | ri); /* subnormal (or zero) */
  const int ef = q + mb; /* the exponent of the result */
  if (ef > bias) return sign | expmask; /* overflow */
  return (uint16_t)(sign | ((uint32_t)(ef + bias) << mb) | (ri - (1u << mb)));
}
static int half_mb(gpux_dtype hdt) { return hdt == GPUX_FLOAT16 ? 10 : 7; }
static int half_bias(gpux_dtype hdt) { return hdt == GPUX_FLOAT16 ? 15 : 127; }

uint16_t ref_half_from_f64(gpux_dtype hdt, double x) {
  const int mb = half_mb(hdt);
  if (isnan(x)) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return (uint16_t)(((b >> 48) & 0x8000u) | (((1u << (15 - mb)) - 1u) << mb) |
                      (1u << (mb - 1)) | ((b >> (52 - mb)) & ((1u << mb) - 1u)));
  }
  return half_round((long double)x, mb, half_bias(hdt));
}

uint16_t ref_half_from_f32(gpux_dtype hdt, float x) {
  const int mb = half_mb(hdt);
  if (isnan(x)) {
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return (uint16_t)(((b >> 16) & 0x8000u) | (((1u << (15 - mb)) - 1u) << mb) |
                      (1u << (mb - 1)) | ((b >> (23 - mb)) & ((1u << mb) - 1u)));
  }
  return half_round((long double)x, mb, half_bias(hdt));
}

uint16_t ref_half_from_i64(gpux_dtype hdt, int64_t x) {
  return half_round((long double)x, half_mb(hdt), half_bias(hdt)); /* exact in long double */
}
uint16_t ref_half_from_u64(gpux_dtype hdt, uint64_t x) {
  return half_round((long double)x, half_mb(hdt), half_bias(hdt)); /* exact in long double */
}

/* the exact value of a half (NaN: a NaN) */
static double half_value(gpux_dtype hdt, uint16_t h) {
  const int mb = half_mb(hdt), bias = half_bias(hdt);
  const uint32_t e = (h & 0x7fffu) >> mb, m = h & ((1u << mb) - 1u);
  const double s = (h & 0x8000u) ? -1.0 : 1.0;
  if (e == (1u << (15 - mb)) - 1u) return m ? NAN : s * INFINITY;
  if (e == 0) return s * ldexp((double)m, 1 - bias - mb);
  return s * ldexp((double)((1u << mb) | m), (int)e - bias - mb);
}

float ref_half_to_f32(gpux_dtype hdt, uint16_t h) {
  const int mb = half_mb(hdt);
  if ((h & 0x7fffu) > (uint32_t)((((1u << (15 - mb)) - 1u) << mb))) { /* NaN: quiet */
    uint32_t b = ((uint32_t)(h & 0x8000u) << 16) | 0x7fc00000u |
                 ((uint32_t)(h & ((1u << mb) - 1u)) << (23 - mb));
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  return (float)half_value(hdt, h); /* exact */
}

double ref_half_to_f64(gpux_dtype hdt, uint16_t h) {
  float f = ref_half_to_f32(hdt, h);
  if (isnan(f)) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    uint64_t d = ((uint64_t)(b >> 31) << 63) | 0x7ff8000000000000ULL |
                 ((uint64_t)(b & 0x7fffffu) << 29);
    double x;
    memcpy(&x, &d, sizeof x);
    return x;
  }
  return (double)f;
}

/* the component dtype of a complex dtype (float32, float64), else dt itself */
static gpux_dtype comp_of(gpux_dtype dt) {
  return dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : dt == GPUX_COMPLEX128 ? GPUX_FLOAT64 : dt;
}

void ref_cast_bits(gpux_dtype from, gpux_dtype to, int64_t n, const void *src, void *dst) {
  const size_t es = ref_dtype_size(to), fs = ref_dtype_size(from);
  for (int64_t i = 0; i < n; i++) {
    unsigned char *d = (unsigned char *)dst + (size_t)i * es;
    const unsigned char *s = (const unsigned char *)src + (size_t)i * fs;
    if (comp_of(from) != from || comp_of(to) != to) {
      /* complex (docs/semantics.md): real x -> (x cast to the component, +0.0); complex ->
       * bool: re != 0 || im != 0; -> another real dtype: the real part, cast from the
       * component; complex -> complex: each part */
      const gpux_dtype cf = comp_of(from), ct = comp_of(to);
      const size_t cfs = ref_dtype_size(cf), cts = ref_dtype_size(ct);
      if (cf != from && ct != to) {
        ref_cast_bits(cf, ct, 2, s, d);
      } else if (ct != to) {
        ref_cast_bits(from, ct, 1, s, d);
        memset(d + cts, 0, cts); /* +0.0 */
      } else if (to == GPUX_BOOL) {
        ref_value re = ref_load(cf, s, 0), im = ref_load(cf, s + cfs, 0);
        *d = re.f != 0 || im.f != 0;
      } else {
        ref_cast_bits(cf, to, 1, s, d);
      }
    } else if (ref_dtype_is_half(from)) {
      const uint16_t h = ((const uint16_t *)src)[i];
      if (to == from) {
        memcpy(d, &h, 2);
      } else if (to == GPUX_BOOL) {
        *d = (h & 0x7fffu) != 0;
      } else if (to == GPUX_FLOAT64) {
        double x = ref_half_to_f64(from, h);
        memcpy(d, &x, 8);
      } else if (to == GPUX_FLOAT32) {
        float x = ref_half_to_f32(from, h);
        memcpy(d, &x, 4);
      } else if (ref_dtype_is_half(to)) {
        uint16_t y = ref_half_from_f32(to, ref_half_to_f32(from, h));
        memcpy(d, &y, 2);
      } else { /* integers: through float32 */
        ref_value v;
        v.f = ref_half_to_f32(from, h);
        ref_store(to, d, 0, ref_cast1(GPUX_FLOAT32, to, v));
      }
    } else if (ref_dtype_is_half(to)) {
      uint16_t y;
      switch (from) {
        case GPUX_FLOAT32: y = ref_half_from_f32(to, ((const float *)src)[i]); break;
        case GPUX_FLOAT64: y = ref_half_from_f64(to, ((const double *)src)[i]); break;
        case GPUX_BOOL: y = ref_half_from_i64(to, ((const uint8_t *)src)[i] != 0); break;
        case GPUX_UINT64: y = ref_half_from_u64(to, ((const uint64_t *)src)[i]); break;
        default: y = ref_half_from_i64(to, ref_load(from, src, i).i); break;
      }
      memcpy(d, &y, 2);
    } else {
      ref_store(to, d, 0, ref_cast1(from, to, ref_load(from, src, i)));
    }
  }
}

size_t ref_dtype_size(gpux_dtype dt) {
  static const size_t sizes[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_SIZE_INIT)};
  return (unsigned)dt < GPUX_KDT_COUNT ? sizes[dt] : 0;
}

ref_value ref_load(gpux_dtype dt, const void *p, int64_t i) {
  ref_value v;
  v.i = 0;
  switch (dt) {
    case GPUX_FLOAT32: v.f = ((const float *)p)[i]; break;
    case GPUX_FLOAT64: v.f = ((const double *)p)[i]; break;
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: v.f = half_value(dt, ((const uint16_t *)p)[i]); break;
    default: { /* integers and bool: the bits, sign-extended for signed dtypes */
      uint64_t u = 0;
      switch (k_dt[dt].bytes) {
        case 1: u = ((const uint8_t *)p)[i]; break;
        case 2: u = ((const uint16_t *)p)[i]; break;
        case 4: u = ((const uint32_t *)p)[i]; break;
        default: u = ((const uint64_t *)p)[i]; break;
      }
      v.i = dt == GPUX_BOOL ? (int64_t)u : ref_wrap(dt, u);
    }
  }
  return v;
}

double ref_load_f64(gpux_dtype dt, const void *p, int64_t i) {
  /* through an aligned copy: callers pass byte buffers (stack arrays, row offsets) */
  const size_t es = ref_dtype_size(dt);
  uint64_t e = 0;
  memcpy(&e, (const unsigned char *)p + (size_t)i * es, es < sizeof e ? es : sizeof e);
  const ref_value v = ref_load(dt, &e, 0);
  return ref_dtype_is_float(dt) ? v.f : ref_int_to_double(dt, v.i);
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
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: ((uint16_t *)p)[i] = ref_half_from_f64(dt, v.f); break;
    default: /* integers and bool: the low bits */
      switch (k_dt[dt].bytes) {
        case 1: ((uint8_t *)p)[i] = (uint8_t)v.i; break;
        case 2: ((uint16_t *)p)[i] = (uint16_t)v.i; break;
        case 4: ((uint32_t *)p)[i] = (uint32_t)v.i; break;
        default: ((uint64_t *)p)[i] = (uint64_t)v.i; break;
      }
  }
}

int64_t ref_wrap(gpux_dtype dt, uint64_t u) {
  if (dt == GPUX_BOOL) return u != 0;
  if (!ref_dtype_is_int(dt)) return (int64_t)u;
  const int w = int_width(dt);
  if (w < 64) {
    u &= (UINT64_C(1) << w) - 1;
    if (is_signed_int(dt) && (u >> (w - 1))) u |= ~((UINT64_C(1) << w) - 1); /* sign-extend */
  }
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

int64_t ref_int_min(gpux_dtype dt) {
  return is_signed_int(dt) ? ref_wrap(dt, UINT64_C(1) << (int_width(dt) - 1)) : 0;
}

/* uint64's maximum is held as its bits (-1) */
int64_t ref_int_max(gpux_dtype dt) {
  if (dt == GPUX_BOOL) return 1;
  if (!ref_dtype_is_int(dt)) return 0;
  const int w = int_width(dt) - is_signed_int(dt);
  return w == 64 ? -1 : (int64_t)((UINT64_C(1) << w) - 1);
}

/* the dtypes of each op, from the op lists of gpux_kernels.h */
#define REF_DT_BIT(unused, dt) | (1u << GPUX_KDT_##dt)
#define REF_OP_DTYPES(op, id, dts, res) [id] = 0u dts(REF_DT_BIT, _),
int ref_binary_supported(gpux_binary_op op, gpux_dtype dt) {
  static const unsigned dtypes[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(REF_OP_DTYPES)};
  return (unsigned)op < GPUX_BINARY_OP_COUNT && (unsigned)dt < GPUX_KDT_COUNT &&
         (dtypes[op] >> dt & 1u);
}

/* the kernel lists alone (the expressions' ops preludes define those ops) */
int ref_unary_has_kernel(gpux_unary_op op, gpux_dtype dt) {
  static const unsigned dtypes[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(REF_OP_DTYPES)};
  return (unsigned)op < GPUX_UNARY_OP_COUNT && (unsigned)dt < GPUX_KDT_COUNT &&
         (dtypes[op] >> dt & 1u);
}

/* with the real dtypes the front end serves for conj, real, imag, angle */
#define REF_FRONT_DTYPES(op, id, dts) [id] = 0u dts(REF_DT_BIT, _),
int ref_unary_supported(gpux_unary_op op, gpux_dtype dt) {
  static const unsigned dtypes[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(REF_OP_DTYPES)};
  static const unsigned front[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_FRONT_OPS(REF_FRONT_DTYPES)};
  return (unsigned)op < GPUX_UNARY_OP_COUNT && (unsigned)dt < GPUX_KDT_COUNT &&
         ((dtypes[op] | front[op]) >> dt & 1u);
}
#undef REF_FRONT_DTYPES
#undef REF_OP_DTYPES
#undef REF_DT_BIT

/* the result kinds, from the same lists */
#define REF_OP_RES(op, id, dts, res) [id] = res,
/* GPUX_RES_REAL: the component dtype of a complex one, else dt */
static gpux_dtype result_of(int res, gpux_dtype dt) {
  if (res == GPUX_RES_BOOL) return GPUX_BOOL;
  if (res == GPUX_RES_REAL && dt == GPUX_COMPLEX64) return GPUX_FLOAT32;
  if (res == GPUX_RES_REAL && dt == GPUX_COMPLEX128) return GPUX_FLOAT64;
  return dt;
}

gpux_dtype ref_binary_result(gpux_binary_op op, gpux_dtype dt) {
  static const int res[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(REF_OP_RES)};
  return result_of(res[op], dt);
}

gpux_dtype ref_unary_result(gpux_unary_op op, gpux_dtype dt) {
  static const int res[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(REF_OP_RES)};
  return result_of(res[op], dt);
}
#undef REF_OP_RES

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
  if (!is_signed_int(dt)) return (int64_t)((uint64_t)a / (uint64_t)b);
  if (b == -1) return ref_wrap(dt, (uint64_t)0 - (uint64_t)a); /* MIN / -1 wraps to MIN */
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  return q;
}

static int64_t int_mod(gpux_dtype dt, int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (!is_signed_int(dt)) return (int64_t)((uint64_t)a % (uint64_t)b);
  if (b == -1) return 0; /* MIN % -1 == 0, and so is every x % -1 */
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}


/* NumPy's shifts: a count outside [0, width) gives 0, or -1 for a negative value shifted
 * right; right shifts of signed values are arithmetic */
static int64_t int_shift(gpux_dtype dt, int64_t a, int64_t b, int left) {
  const int neg = is_signed_int(dt) && a < 0;
  if ((is_signed_int(dt) && b < 0) || !ref_int_lt(dt, b, int_width(dt)))
    return left ? 0 : (neg ? -1 : 0);
  if (left) return ref_wrap(dt, (uint64_t)a << b);
  return neg ? ~(~a >> b) : ref_wrap(dt, (uint64_t)a >> b);
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
    case GPUX_MINIMUM: r.i = ref_int_lt(dt, a, b) ? a : b; break;
    case GPUX_MAXIMUM: r.i = ref_int_lt(dt, b, a) ? a : b; break;
    case GPUX_MOD: r.i = int_mod(dt, a, b); break;
    case GPUX_EQ: r.i = a == b; break;
    case GPUX_NE: r.i = a != b; break;
    case GPUX_LT: r.i = ref_int_lt(dt, a, b); break;
    case GPUX_LE: r.i = !ref_int_lt(dt, b, a); break;
    case GPUX_GT: r.i = ref_int_lt(dt, b, a); break;
    case GPUX_GE: r.i = !ref_int_lt(dt, a, b); break;
    case GPUX_LOGICAL_AND: r.i = (a != 0) && (b != 0); break;
    case GPUX_LOGICAL_OR: r.i = (a != 0) || (b != 0); break;
    case GPUX_LOGICAL_XOR: r.i = (a != 0) != (b != 0); break;
    case GPUX_BITWISE_AND: r.i = ref_wrap(dt, ua & ub); break;
    case GPUX_BITWISE_OR: r.i = ref_wrap(dt, ua | ub); break;
    case GPUX_BITWISE_XOR: r.i = ref_wrap(dt, ua ^ ub); break;
    case GPUX_LEFT_SHIFT: r.i = int_shift(dt, a, b, 1); break;
    case GPUX_RIGHT_SHIFT: r.i = int_shift(dt, a, b, 0); break;
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
    default: break; /* integer-only ops */
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
    const int64_t x = a.i;
    const int neg = is_signed_int(dt) && x < 0;
    switch (op) {
      case GPUX_NEG: r.i = ref_wrap(dt, (uint64_t)0 - (uint64_t)x); break;
      case GPUX_ABS: r.i = neg ? ref_wrap(dt, (uint64_t)0 - (uint64_t)x) : x; break;
      case GPUX_SIGN: r.i = neg ? -1 : x != 0; break;
      case GPUX_RELU: r.i = neg ? 0 : x; break;
      case GPUX_LOGICAL_NOT: r.i = x == 0; break;
      case GPUX_BITWISE_NOT: r.i = ref_wrap(dt, ~(uint64_t)x); break;
      case GPUX_CONJ: /* real dtypes (NumPy): conj and real are x, imag 0 */
      case GPUX_REAL: r.i = x; break;
      case GPUX_IMAG: r.i = 0; break;
      case GPUX_POPCOUNT: {
        const int w = int_width(dt);
        const uint64_t bits = w == 64 ? (uint64_t)x : (uint64_t)x & ((UINT64_C(1) << w) - 1);
        r.i = __builtin_popcountll(bits);
        break;
      }
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
    case GPUX_CONJ:
    case GPUX_REAL: r.f = x; break;
    case GPUX_IMAG: r.f = 0.0; break;
    case GPUX_ANGLE: r.f = atan2(0.0, x); break; /* 0, pi (x < 0, -0.0), NaN */
    default: break; /* integer-only ops */
  }
  return r;
}

/* ---- conversions */

/* truncate toward zero, saturate to the range, NaN -> 0 */
static int64_t float_to_int(gpux_dtype to, double x) {
  if (to == GPUX_BOOL) return x != 0; /* NaN -> true */
  if (isnan(x)) return 0;
  const double t = trunc(x), top = ldexp(1.0, int_width(to) - is_signed_int(to)),
               lo = is_signed_int(to) ? -top : 0;
  if (t >= top) return ref_int_max(to);
  if (t <= lo) return ref_int_min(to);
  return t >= 0x1p63 ? (int64_t)(uint64_t)t : (int64_t)t;
}

ref_value ref_cast1(gpux_dtype from, gpux_dtype to, ref_value v) {
  ref_value r;
  r.i = 0;
  if (ref_dtype_is_float(from)) {
    if (to == GPUX_FLOAT64) r.f = v.f;
    else if (to == GPUX_FLOAT32) r.f = to_f32(v.f);
    else if (ref_dtype_is_half(to)) r.f = half_value(to, ref_half_from_f64(to, v.f));
    else r.i = float_to_int(to, v.f);
    return r;
  }
  int64_t x = from == GPUX_BOOL ? (v.i != 0) : v.i;
  const int big = from == GPUX_UINT64 && x < 0; /* a uint64 beyond INT64_MAX */
  if (ref_dtype_is_half(to)) /* one rounding */
    r.f = half_value(to, big ? ref_half_from_u64(to, (uint64_t)x) : ref_half_from_i64(to, x));
  else if (to == GPUX_FLOAT64) r.f = big ? (double)(uint64_t)x : (double)x; /* one rounding */
  else if (to == GPUX_FLOAT32) r.f = big ? (float)(uint64_t)x : (float)x; /* one rounding */
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

/* ====================================================================== reductions */

#define KID(k, id, list, acc) K_##k = id,
enum { GPUX_REDUCE_KINDS(KID) K_END_ };
#undef KID
#define SAME_ID(k, K) ((int)K_##k == (int)REF_RK_##K)
_Static_assert(SAME_ID(sum, SUM) && SAME_ID(prod, PROD) && SAME_ID(min, MIN) &&
                   SAME_ID(max, MAX) && SAME_ID(argmin, ARGMIN) && SAME_ID(argmax, ARGMAX) &&
                   SAME_ID(argmin_p, ARGMIN_P) && SAME_ID(argmax_p, ARGMAX_P) &&
                   SAME_ID(any, ANY) && SAME_ID(all, ALL) && SAME_ID(cnt, CNT) &&
                   SAME_ID(asum, ASUM) && SAME_ID(ssq, SSQ) && SAME_ID(ssd, SSD) &&
                   SAME_ID(amax, AMAX) && GPUX_REDUCE_KIND_COUNT == 15,
               "ref_rkind ids differ from GPUX_REDUCE_KINDS");
#undef SAME_ID
_Static_assert(REF_POST_NONE == GPUX_POST_NONE && REF_POST_DIV == GPUX_POST_DIV &&
                   REF_POST_SQRT == GPUX_POST_SQRT && REF_POST_DIV_SQRT == GPUX_POST_DIV_SQRT,
               "post op ids");
_Static_assert(GPUX_RED_LANES * GPUX_RED_ROWS == GPUX_RED_CHUNK, "chunk shape");
_Static_assert(GPUX_SCAN_THREADS * GPUX_SCAN_ITEMS == GPUX_SCAN_TILE &&
                   GPUX_SCAN_THREADS == 256,
               "scan tile shape (8 warps of 32)");
#define KACC(k, id, list, acc) [id] = acc,
static const int k_kind_acc[GPUX_REDUCE_KIND_COUNT] = {GPUX_REDUCE_KINDS(KACC)};
#undef KACC

#define LANES GPUX_RED_LANES
#define ROWS GPUX_RED_ROWS
#define CHUNK GPUX_RED_CHUNK

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) abort(); /* test code: the host ran out of memory */
  return p;
}

/* One accumulator value; the field in use follows the accumulator dtype. */
typedef struct rv {
  float s;     /* float32 */
  double d;    /* float64 */
  int64_t i;   /* integers and bool (0/1) */
  int64_t idx; /* argmin/argmax index */
} rv;

/* AT_U64: uint64, whose values compare unsigned (held as int64 bits) */
typedef enum { AT_F32, AT_F64, AT_INT, AT_U64 } acc_type;
#define AT_DT(at) ((at) == AT_U64 ? GPUX_UINT64 : GPUX_INT64)

static acc_type acc_type_of(gpux_dtype acc) {
  return acc == GPUX_FLOAT32   ? AT_F32
         : acc == GPUX_FLOAT64 ? AT_F64
         : acc == GPUX_UINT64  ? AT_U64
                               : AT_INT;
}

gpux_dtype ref_rkind_acc(ref_rkind kind, gpux_dtype dt) {
  if (ref_dtype_is_half(dt)) dt = GPUX_FLOAT32; /* halves compute in float32 */
  switch (k_kind_acc[kind]) {
    case GPUX_RACC_WIDE: return ref_scan_result(dt);
    case GPUX_RACC_BOOL: return GPUX_BOOL;
    case GPUX_RACC_I64: return GPUX_INT64;
    default: return dt;
  }
}

ref_rkind ref_rkind_next(ref_rkind kind) {
  switch (kind) {
    case REF_RK_ARGMIN: return REF_RK_ARGMIN_P;
    case REF_RK_ARGMAX: return REF_RK_ARGMAX_P;
    case REF_RK_CNT:
    case REF_RK_ASUM:
    case REF_RK_SSQ:
    case REF_RK_SSD: return REF_RK_SUM;
    case REF_RK_AMAX: return REF_RK_MAX;
    default: return kind;
  }
}

static int64_t wrap64(uint64_t u) { return ref_wrap(GPUX_INT64, u); }

/* The identity of kind on input dtype dt (accumulator values). */
static rv identity(ref_rkind kind, gpux_dtype dt) {
  rv e;
  memset(&e, 0, sizeof e);
  e.idx = INT64_MAX;
  switch (kind) {
    case REF_RK_SUM:
    case REF_RK_ASUM:
    case REF_RK_SSQ:
    case REF_RK_SSD:
      e.s = -0.0f;
      e.d = -0.0;
      e.i = 0;
      break;
    case REF_RK_PROD:
      e.s = 1.0f;
      e.d = 1.0;
      e.i = 1;
      break;
    case REF_RK_MIN:
    case REF_RK_ARGMIN:
    case REF_RK_ARGMIN_P:
      e.s = INFINITY;
      e.d = INFINITY;
      e.i = ref_int_max(dt);
      break;
    case REF_RK_MAX:
    case REF_RK_ARGMAX:
    case REF_RK_ARGMAX_P:
    case REF_RK_AMAX:
      e.s = -INFINITY;
      e.d = -INFINITY;
      e.i = ref_int_min(dt);
      break;
    case REF_RK_ANY:
    case REF_RK_CNT: e.i = 0; break;
    case REF_RK_ALL: e.i = 1; break;
  }
  return e;
}

/* Element i of x (dtype dt) converted to kind's accumulator: |x|, x*x, (x-m)*(x-m), x != 0. */
#if defined(__GNUC__)
#define REF_INLINE static inline __attribute__((always_inline))
#else
#define REF_INLINE static inline
#endif

REF_INLINE rv load_elem(ref_rkind kind, gpux_dtype dt, const void *x, int64_t i,
                    const int64_t *idx_in, rv m) {
  rv r;
  memset(&r, 0, sizeof r);
  float s = 0.0f;
  double d = 0.0;
  int64_t iv = 0;
  if (dt == GPUX_FLOAT32) s = ((const float *)x)[i];
  else if (dt == GPUX_FLOAT64) d = ((const double *)x)[i];
  else if (ref_dtype_is_half(dt)) s = (float)ref_load(dt, x, i).f; /* exact */
  else iv = ref_load(dt, x, i).i;
  switch (kind) {
    case REF_RK_ANY:
    case REF_RK_ALL:
    case REF_RK_CNT: /* NaN != 0 */
      r.i = dt == GPUX_FLOAT64 ? (d != 0.0) : ref_dtype_is_float(dt) ? (s != 0.0f) : (iv != 0);
      return r;
    case REF_RK_ASUM:
    case REF_RK_AMAX:
      r.s = fabsf(s);
      r.d = fabs(d);
      return r;
    case REF_RK_SSQ:
      r.s = s * s;
      r.d = d * d;
      return r;
    case REF_RK_SSD: {
      float ts = s - m.s;
      double td = d - m.d;
      r.s = ts * ts;
      r.d = td * td;
      return r;
    }
    default:
      r.s = s;
      r.d = d;
      r.i = iv;
      if (kind == REF_RK_ARGMIN || kind == REF_RK_ARGMAX) r.idx = i;
      if (kind == REF_RK_ARGMIN_P || kind == REF_RK_ARGMAX_P) r.idx = idx_in[i];
      return r;
  }
}

/* (value, index) pairs: NaN first, then the smaller (want_min) or larger value, ties and two
 * NaNs to the smaller index. */
REF_INLINE rv arg_pick(acc_type at, rv a, rv b, int want_min) {
  int an, bn, lt, eq;
  if (at == AT_F32) {
    an = isnan(a.s), bn = isnan(b.s);
    eq = a.s == b.s;
    lt = want_min ? b.s < a.s : b.s > a.s;
  } else if (at == AT_F64) {
    an = isnan(a.d), bn = isnan(b.d);
    eq = a.d == b.d;
    lt = want_min ? b.d < a.d : b.d > a.d;
  } else {
    an = bn = 0;
    eq = a.i == b.i;
    lt = want_min ? ref_int_lt(AT_DT(at), b.i, a.i) : ref_int_lt(AT_DT(at), a.i, b.i);
  }
  if (an && bn) return b.idx < a.idx ? b : a;
  if (an) return a;
  if (bn) return b;
  if (eq) return b.idx < a.idx ? b : a;
  return lt ? b : a;
}

/* a (+) b, a the left operand. */
REF_INLINE rv combine(ref_rkind kind, acc_type at, rv a, rv b) {
  switch (kind) {
    case REF_RK_SUM:
    case REF_RK_ASUM:
    case REF_RK_SSQ:
    case REF_RK_SSD:
    case REF_RK_CNT:
      if (at == AT_F32) a.s = a.s + b.s;
      else if (at == AT_F64) a.d = a.d + b.d;
      else a.i = wrap64((uint64_t)a.i + (uint64_t)b.i);
      return a;
    case REF_RK_PROD:
      if (at == AT_F32) a.s = a.s * b.s;
      else if (at == AT_F64) a.d = a.d * b.d;
      else a.i = wrap64((uint64_t)a.i * (uint64_t)b.i);
      return a;
    case REF_RK_MIN:
      if (at == AT_F32) a.s = isnan(a.s) ? a.s : isnan(b.s) ? b.s : (b.s < a.s ? b.s : a.s);
      else if (at == AT_F64) a.d = isnan(a.d) ? a.d : isnan(b.d) ? b.d : (b.d < a.d ? b.d : a.d);
      else a.i = ref_int_lt(AT_DT(at), b.i, a.i) ? b.i : a.i;
      return a;
    case REF_RK_MAX:
    case REF_RK_AMAX:
      if (at == AT_F32) a.s = isnan(a.s) ? a.s : isnan(b.s) ? b.s : (b.s > a.s ? b.s : a.s);
      else if (at == AT_F64) a.d = isnan(a.d) ? a.d : isnan(b.d) ? b.d : (b.d > a.d ? b.d : a.d);
      else a.i = ref_int_lt(AT_DT(at), a.i, b.i) ? b.i : a.i;
      return a;
    case REF_RK_ARGMIN:
    case REF_RK_ARGMIN_P: return arg_pick(at, a, b, 1);
    case REF_RK_ARGMAX:
    case REF_RK_ARGMAX_P: return arg_pick(at, a, b, 0);
    case REF_RK_ANY: a.i = a.i | b.i; return a;
    case REF_RK_ALL: a.i = a.i & b.i; return a;
  }
  return a;
}

/* One pass: elements from x (raw, converted by load_elem) or from xin (accumulator values
 * of an earlier pass); writes ceil(len / CHUNK) values to out. Inlined into pass_rv once per
 * kind, so that the kind's switches fold away (the reference runs on millions of elements). */
REF_INLINE void pass_impl(ref_rkind kind, gpux_dtype dt, int64_t len, const void *x,
                          const rv *xin, const int64_t *idx_in, rv m, rv *out) {
  acc_type at = acc_type_of(ref_rkind_acc(kind, dt));
  rv e = identity(kind, dt);
  int64_t nparts = (len + CHUNK - 1) / CHUNK;
  rv a[LANES];
  for (int64_t c = 0; c < nparts; c++) {
    for (int l = 0; l < LANES; l++) {
      a[l] = e;
      for (int k = 0; k < ROWS; k++) {
        int64_t p = c * CHUNK + l + (int64_t)LANES * k;
        rv b = p >= len ? e : xin ? xin[p] : load_elem(kind, dt, x, p, idx_in, m);
        a[l] = combine(kind, at, a[l], b);
      }
    }
    for (int sh = LANES / 2; sh >= 1; sh /= 2)
      for (int l = 0; l < sh; l++) a[l] = combine(kind, at, a[l], a[l + sh]);
    out[c] = a[0];
  }
}

static int64_t pass_rv(ref_rkind kind, gpux_dtype dt, int64_t len, const void *x, const rv *xin,
                       const int64_t *idx_in, rv m, rv *out) {
  switch (kind) {
#define REF_PASS_CASE(K) \
  case K: pass_impl(K, dt, len, x, xin, idx_in, m, out); break;
    REF_PASS_CASE(REF_RK_SUM)
    REF_PASS_CASE(REF_RK_PROD)
    REF_PASS_CASE(REF_RK_MIN)
    REF_PASS_CASE(REF_RK_MAX)
    REF_PASS_CASE(REF_RK_ARGMIN)
    REF_PASS_CASE(REF_RK_ARGMAX)
    REF_PASS_CASE(REF_RK_ARGMIN_P)
    REF_PASS_CASE(REF_RK_ARGMAX_P)
    REF_PASS_CASE(REF_RK_ANY)
    REF_PASS_CASE(REF_RK_ALL)
    REF_PASS_CASE(REF_RK_CNT)
    REF_PASS_CASE(REF_RK_ASUM)
    REF_PASS_CASE(REF_RK_SSQ)
    REF_PASS_CASE(REF_RK_SSD)
    REF_PASS_CASE(REF_RK_AMAX)
#undef REF_PASS_CASE
  }
  return (len + CHUNK - 1) / CHUNK;
}

static rv post_op(acc_type at, rv v, int post, double d) {
  if (post == REF_POST_NONE) return v;
  if (at == AT_F32) {
    if (post == REF_POST_DIV) v.s = (float)((double)v.s / d);
    else if (post == REF_POST_SQRT) v.s = (float)sqrt((double)v.s);
    else {
      float r = (float)((double)v.s / d);
      v.s = (float)sqrt((double)r);
    }
  } else if (at == AT_F64) {
    if (post == REF_POST_DIV) v.d = v.d / d;
    else if (post == REF_POST_SQRT) v.d = sqrt(v.d);
    else v.d = sqrt(v.d / d);
  }
  return v;
}

static rv aux_value(gpux_dtype dt, double aux) {
  rv m;
  memset(&m, 0, sizeof m);
  if (dt == GPUX_FLOAT32 || ref_dtype_is_half(dt)) m.s = (float)aux; /* a float32 value */
  m.d = aux;
  return m;
}

static void store_rv(gpux_dtype acc, void *out, int64_t i, rv v) {
  switch (acc) {
    case GPUX_FLOAT32: ((float *)out)[i] = v.s; break;
    case GPUX_FLOAT64: ((double *)out)[i] = v.d; break;
    /* a half result: the float32 accumulator rounded once */
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: ((uint16_t *)out)[i] = ref_half_from_f64(acc, v.s); break;
    default: { /* integers and bool: the low bits */
      ref_value x;
      x.i = v.i;
      ref_store(acc, out, i, x);
    }
  }
}

int64_t ref_reduce_pass(ref_rkind kind, gpux_dtype dt, int64_t len, const void *x,
                        const int64_t *idx_in, double aux, int post, double post_div,
                        void *out, int64_t *idx_out) {
  gpux_dtype acc = ref_rkind_acc(kind, dt);
  int64_t nparts = (len + CHUNK - 1) / CHUNK;
  rv *parts = xmalloc((size_t)nparts * sizeof *parts);
  pass_rv(kind, dt, len, x, NULL, idx_in, aux_value(dt, aux), parts);
  if (nparts == 1) parts[0] = post_op(acc_type_of(acc), parts[0], post, post_div);
  for (int64_t p = 0; p < nparts; p++) {
    store_rv(acc, out, p, parts[p]);
    if (idx_out) idx_out[p] = parts[p].idx;
  }
  free(parts);
  return nparts;
}

static rv chain_rv(ref_rkind kind, gpux_dtype dt, int64_t len, const void *x, rv m, int post,
                   double post_div, gpux_dtype *acc_out) {
  int64_t n = (len + CHUNK - 1) / CHUNK;
  rv *cur = xmalloc((size_t)n * sizeof *cur);
  pass_rv(kind, dt, len, x, NULL, NULL, m, cur);
  while (n > 1) {
    /* the partials (accumulator dtype) are reduced by the next kind */
    dt = ref_rkind_acc(kind, dt);
    kind = ref_rkind_next(kind);
    int64_t n2 = (n + CHUNK - 1) / CHUNK;
    rv *next = xmalloc((size_t)n2 * sizeof *next);
    pass_rv(kind, dt, n, NULL, cur, NULL, m, next);
    free(cur);
    cur = next;
    n = n2;
  }
  gpux_dtype acc = ref_rkind_acc(kind, dt);
  rv r = post_op(acc_type_of(acc), cur[0], post, post_div);
  free(cur);
  if (acc_out) *acc_out = acc;
  return r;
}

void ref_reduce_chain(ref_rkind kind, gpux_dtype dt, int64_t len, const void *x, double aux,
                      int post, double post_div, void *out, int64_t *idx) {
  gpux_dtype acc;
  rv r = chain_rv(kind, dt, len, x, aux_value(dt, aux), post, post_div, &acc);
  store_rv(acc, out, 0, r);
  if (idx) *idx = r.idx;
}

int ref_reduce_result(gpux_reduce_op op, gpux_dtype dt, gpux_dtype *rdt) {
  if ((int)dt < 0 || (int)dt >= GPUX_DTYPE_COUNT) return 0;
  int numeric = dt != GPUX_BOOL;
  switch (op) {
    case GPUX_REDUCE_SUM:
    case GPUX_REDUCE_PROD:
      *rdt = ref_scan_result(dt);
      return numeric;
    case GPUX_REDUCE_MIN:
    case GPUX_REDUCE_MAX: *rdt = dt; return numeric;
    case GPUX_REDUCE_ARGMIN:
    case GPUX_REDUCE_ARGMAX: *rdt = GPUX_INT64; return numeric;
    case GPUX_REDUCE_ANY:
    case GPUX_REDUCE_ALL: *rdt = GPUX_BOOL; return 1;
    case GPUX_REDUCE_COUNT_NONZERO: *rdt = GPUX_INT64; return 1;
    case GPUX_REDUCE_MEAN:
    case GPUX_REDUCE_VAR:
    case GPUX_REDUCE_STD:
    case GPUX_REDUCE_NORM_L1:
    case GPUX_REDUCE_NORM_L2:
    case GPUX_REDUCE_NORM_MAX:
      *rdt = ref_dtype_is_float(dt) ? dt : GPUX_FLOAT64; /* halves: float32 math, rounded */
      return numeric;
  }
  return 0;
}

static int float_math(gpux_reduce_op op) { return op >= GPUX_REDUCE_MEAN; }

/* The value of a reduction of nothing; 0 when the op has none. */
static int empty_value(gpux_reduce_op op, double *v) {
  switch (op) {
    case GPUX_REDUCE_MIN:
    case GPUX_REDUCE_MAX:
    case GPUX_REDUCE_ARGMIN:
    case GPUX_REDUCE_ARGMAX:
    case GPUX_REDUCE_NORM_MAX: return 0;
    case GPUX_REDUCE_PROD:
    case GPUX_REDUCE_ALL: *v = 1.0; return 1;
    case GPUX_REDUCE_MEAN:
    case GPUX_REDUCE_VAR:
    case GPUX_REDUCE_STD: *v = NAN; return 1;
    default: *v = 0.0; return 1;
  }
}

int ref_reduce_canon(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, int64_t ddof,
                     void *out) {
  gpux_dtype rdt;
  if (!ref_reduce_result(op, dt, &rdt)) return -1;
  if (n == 0) {
    double v;
    if (!empty_value(op, &v)) return -1;
    ref_store(rdt, out, 0, ref_from_double(rdt, v));
    return 0;
  }
  /* integers are converted to float64 (rounding to nearest) for the float ops */
  double *conv = NULL;
  if (float_math(op) && !ref_dtype_is_float(dt)) {
    conv = xmalloc((size_t)n * sizeof *conv);
    for (int64_t i = 0; i < n; i++) conv[i] = ref_load_f64(dt, x, i);
    x = conv;
    dt = GPUX_FLOAT64;
  }
  rv none = aux_value(dt, 0.0), r;
  gpux_dtype acc;
  switch (op) {
    case GPUX_REDUCE_SUM: r = chain_rv(REF_RK_SUM, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_PROD: r = chain_rv(REF_RK_PROD, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_MIN: r = chain_rv(REF_RK_MIN, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_MAX: r = chain_rv(REF_RK_MAX, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_ARGMIN:
    case GPUX_REDUCE_ARGMAX:
      r = chain_rv(op == GPUX_REDUCE_ARGMIN ? REF_RK_ARGMIN : REF_RK_ARGMAX, dt, n, x, none, 0,
                   0, &acc);
      r.i = r.idx;
      acc = GPUX_INT64;
      break;
    case GPUX_REDUCE_ANY: r = chain_rv(REF_RK_ANY, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_ALL: r = chain_rv(REF_RK_ALL, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_COUNT_NONZERO: r = chain_rv(REF_RK_CNT, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_MEAN:
      r = chain_rv(REF_RK_SUM, dt, n, x, none, REF_POST_DIV, (double)n, &acc);
      break;
    case GPUX_REDUCE_VAR:
    case GPUX_REDUCE_STD: {
      /* two passes over the data: the mean (rounded to dt), then the squared deviations */
      rv m = chain_rv(REF_RK_SUM, dt, n, x, none, REF_POST_DIV, (double)n, &acc);
      double d = (double)n - (double)ddof;
      if (d < 0) d = 0;
      r = chain_rv(REF_RK_SSD, dt, n, x, m, op == GPUX_REDUCE_VAR ? REF_POST_DIV : REF_POST_DIV_SQRT,
                   d, &acc);
      break;
    }
    case GPUX_REDUCE_NORM_L1: r = chain_rv(REF_RK_ASUM, dt, n, x, none, 0, 0, &acc); break;
    case GPUX_REDUCE_NORM_L2:
      r = chain_rv(REF_RK_SSQ, dt, n, x, none, REF_POST_SQRT, 0, &acc);
      break;
    case GPUX_REDUCE_NORM_MAX: r = chain_rv(REF_RK_AMAX, dt, n, x, none, 0, 0, &acc); break;
    default: free(conv); return -1;
  }
  (void)acc;
  store_rv(rdt, out, 0, r);
  free(conv);
  return 0;
}

/* ---- the precise (serial, long double) reference */

/* Neumaier's compensated sum in long double; non-finite terms are summed apart (the
 * compensation of an infinite term would be NaN). */
typedef struct ksum {
  long double s, c, nonfinite;
  int any_nonfinite;
} ksum;

static void kadd(ksum *k, long double x) {
  if (!isfinite(x)) {
    k->nonfinite = k->any_nonfinite ? k->nonfinite + x : x;
    k->any_nonfinite = 1;
    return;
  }
  long double t = k->s + x;
  if (fabsl(k->s) >= fabsl(x)) k->c += (k->s - t) + x;
  else k->c += (x - t) + k->s;
  k->s = t;
}

static long double kval(const ksum *k) { return k->any_nonfinite ? k->nonfinite : k->s + k->c; }

static long double ld_elem(gpux_dtype dt, const void *x, int64_t i) {
  ref_value v = ref_load(dt, x, i);
  return ref_dtype_is_float(dt)   ? (long double)v.f
         : dt == GPUX_UINT64 ? (long double)(uint64_t)v.i
                             : (long double)v.i;
}

int ref_reduce_precise(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, int64_t ddof,
                       ref_value *val, double *sumabs) {
  gpux_dtype rdt;
  ref_value r;
  r.i = 0;
  if (!ref_reduce_result(op, dt, &rdt)) return -1;
  int isf = ref_dtype_is_float(dt);
  ksum ks = {0, 0, 0, 0}, ka = {0, 0, 0, 0};
  for (int64_t i = 0; i < n; i++) kadd(&ka, fabsl(ld_elem(dt, x, i)));
  if (sumabs) *sumabs = (double)kval(&ka);
  if (n == 0) {
    double v;
    if (!empty_value(op, &v)) return -1;
    r = ref_from_double(rdt, v);
    if (ref_dtype_is_float(rdt)) r.f = v;
    *val = r;
    return 0;
  }
  switch (op) {
    case GPUX_REDUCE_SUM:
    case GPUX_REDUCE_MEAN:
      if (!isf && op == GPUX_REDUCE_SUM) {
        uint64_t u = 0;
        for (int64_t i = 0; i < n; i++) u += (uint64_t)ref_load(dt, x, i).i;
        r.i = wrap64(u);
        break;
      }
      for (int64_t i = 0; i < n; i++) kadd(&ks, ld_elem(dt, x, i));
      r.f = (double)(op == GPUX_REDUCE_MEAN ? kval(&ks) / (long double)n : kval(&ks));
      break;
    case GPUX_REDUCE_PROD:
      if (!isf) {
        uint64_t u = 1;
        for (int64_t i = 0; i < n; i++) u *= (uint64_t)ref_load(dt, x, i).i;
        r.i = wrap64(u);
      } else {
        long double p = 1;
        for (int64_t i = 0; i < n; i++) p *= ld_elem(dt, x, i);
        r.f = (double)p;
      }
      break;
    case GPUX_REDUCE_MIN:
    case GPUX_REDUCE_MAX:
    case GPUX_REDUCE_ARGMIN:
    case GPUX_REDUCE_ARGMAX: {
      int want_min = op == GPUX_REDUCE_MIN || op == GPUX_REDUCE_ARGMIN;
      int64_t best = 0;
      for (int64_t i = 1; i < n && !isnan(ld_elem(dt, x, best)); i++) {
        long double v = ld_elem(dt, x, i), b = ld_elem(dt, x, best);
        if (isnan(v) || (want_min ? v < b : v > b)) best = i;
      }
      if (op == GPUX_REDUCE_ARGMIN || op == GPUX_REDUCE_ARGMAX) r.i = best;
      else r = ref_load(dt, x, best);
      break;
    }
    case GPUX_REDUCE_ANY:
    case GPUX_REDUCE_ALL:
    case GPUX_REDUCE_COUNT_NONZERO: {
      int64_t c = 0;
      for (int64_t i = 0; i < n; i++) c += ld_elem(dt, x, i) != 0; /* NaN counts */
      r.i = op == GPUX_REDUCE_ANY ? c > 0 : op == GPUX_REDUCE_ALL ? c == n : c;
      break;
    }
    case GPUX_REDUCE_VAR:
    case GPUX_REDUCE_STD: {
      for (int64_t i = 0; i < n; i++) kadd(&ks, ld_elem(dt, x, i));
      long double m = kval(&ks) / (long double)n;
      ksum kd = {0, 0, 0, 0};
      for (int64_t i = 0; i < n; i++) {
        long double t = ld_elem(dt, x, i) - m;
        kadd(&kd, t * t);
      }
      long double d = (long double)n - (long double)ddof;
      if (d < 0) d = 0;
      long double v = kval(&kd) / d;
      r.f = (double)(op == GPUX_REDUCE_VAR ? v : sqrtl(v));
      break;
    }
    case GPUX_REDUCE_NORM_L1: r.f = (double)kval(&ka); break;
    case GPUX_REDUCE_NORM_L2:
      for (int64_t i = 0; i < n; i++) {
        long double t = ld_elem(dt, x, i);
        kadd(&ks, t * t);
      }
      r.f = (double)sqrtl(kval(&ks));
      break;
    case GPUX_REDUCE_NORM_MAX: {
      long double m = 0;
      for (int64_t i = 0; i < n; i++) {
        long double t = fabsl(ld_elem(dt, x, i));
        if (isnan(t)) {
          m = t;
          break;
        }
        if (t > m) m = t;
      }
      r.f = (double)m;
      break;
    }
    default: return -1;
  }
  *val = r;
  return 0;
}

/* ---- arrays: each output's sequence in row-major order of the reduced axes */

typedef struct axes_split {
  int nk, nr;
  int64_t kshape[GPUX_MAX_DIMS], kstr[GPUX_MAX_DIMS], rshape[GPUX_MAX_DIMS],
      rstr[GPUX_MAX_DIMS];
  int64_t n_out, n_red;
} axes_split;

static void split_axes(axes_split *s, int ndim, const int64_t *shape, const int *red) {
  int64_t str[GPUX_MAX_DIMS];
  ref_row_major_strides(ndim, shape, str);
  s->nk = s->nr = 0;
  s->n_out = s->n_red = 1;
  for (int d = 0; d < ndim; d++) {
    if (red[d]) {
      s->rshape[s->nr] = shape[d];
      s->rstr[s->nr++] = str[d];
      s->n_red *= shape[d];
    } else {
      s->kshape[s->nk] = shape[d];
      s->kstr[s->nk++] = str[d];
      s->n_out *= shape[d];
    }
  }
}

/* Offsets of the n_out outputs' first elements (row-major over the kept axes). */
static int64_t *output_bases(const axes_split *s) {
  int64_t *base = xmalloc((size_t)s->n_out * sizeof *base);
  int64_t idx[GPUX_MAX_DIMS] = {0}, pos = 0;
  for (int64_t o = 0; o < s->n_out; o++) {
    base[o] = pos;
    for (int k = s->nk - 1; k >= 0; k--) {
      idx[k]++;
      pos += s->kstr[k];
      if (idx[k] < s->kshape[k]) break;
      pos -= s->kstr[k] * s->kshape[k];
      idx[k] = 0;
    }
  }
  return base;
}

static int reduce_axes(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                       const void *x, const int *red, int64_t ddof, void *out, ref_value *val,
                       double *sumabs) {
  gpux_dtype rdt;
  if (!ref_reduce_result(op, dt, &rdt)) return -1;
  axes_split s;
  split_axes(&s, ndim, shape, red);
  double dummy; /* nothing to reduce and no identity fails even with no output (NumPy) */
  if (s.n_red == 0 && !empty_value(op, &dummy)) return -1;
  if (s.n_out == 0) return 0;
  size_t es = ref_dtype_size(dt), rs = ref_dtype_size(rdt);
  int64_t *base = output_bases(&s);
  char *seq = xmalloc((size_t)s.n_red * es);
  int rc = 0;
  for (int64_t o = 0; o < s.n_out && rc == 0; o++) {
    ref_gather(seq, x, es, s.nr, s.rshape, s.rstr, base[o]);
    if (out) rc = ref_reduce_canon(op, dt, s.n_red, seq, ddof, (char *)out + (size_t)o * rs);
    if (val && rc == 0)
      rc = ref_reduce_precise(op, dt, s.n_red, seq, ddof, &val[o], sumabs ? &sumabs[o] : NULL);
  }
  free(seq);
  free(base);
  return rc;
}

int ref_reduce_axes_canon(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                          const void *x, const int *red, int64_t ddof, void *out) {
  return reduce_axes(op, dt, ndim, shape, x, red, ddof, out, NULL, NULL);
}

int ref_reduce_axes_precise(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                            const void *x, const int *red, int64_t ddof, ref_value *val,
                            double *sumabs) {
  return reduce_axes(op, dt, ndim, shape, x, red, ddof, NULL, val, sumabs);
}

int ref_reduce_depth(int64_t len) {
  int d = 0;
  for (;;) {
    int64_t m = len < CHUNK ? len : CHUNK, t = m < LANES ? m : LANES;
    d += (int)((m + LANES - 1) / LANES); /* the lane's serial fold */
    for (int64_t p = 1; p < t; p *= 2) d++; /* the tree over the lanes */
    if (len <= CHUNK) return d;
    len = (len + CHUNK - 1) / CHUNK;
  }
}

/* ====================================================================== scans */

#define STHREADS GPUX_SCAN_THREADS
#define SITEMS GPUX_SCAN_ITEMS
#define STILE GPUX_SCAN_TILE

/* sums and products: floats keep their dtype; integers and bool give int64, uint64 uint64 */
gpux_dtype ref_scan_result(gpux_dtype dt) {
  return ref_dtype_is_float(dt) ? dt : dt == GPUX_UINT64 ? GPUX_UINT64 : GPUX_INT64;
}

void ref_scan_canon(gpux_scan_op op, gpux_dtype dt, int64_t rows, int64_t len, const void *x,
                    int exclusive, void *out) {
  ref_rkind kind = op == GPUX_SCAN_PROD ? REF_RK_PROD : REF_RK_SUM;
  gpux_dtype acc = ref_rkind_acc(kind, dt);
  acc_type at = acc_type_of(acc);
  rv e = identity(kind, dt), none = aux_value(dt, 0.0);
  rv *s = xmalloc((size_t)STILE * sizeof *s); /* s_{j,k} at 16j + k */
  rv W[STHREADS], W2[STHREADS], X[STHREADS / 32], T[STHREADS / 32];
  int64_t ntiles = (len + STILE - 1) / STILE;
  for (int64_t r = 0; r < rows; r++) {
    rv P = e; /* the prefix of the tiles before this one */
    for (int64_t c = 0; c < ntiles; c++) {
      int64_t t0 = r * len + c * STILE;
      for (int j = 0; j < STHREADS; j++) {
        rv acc_j = e;
        for (int k = 0; k < SITEMS; k++) {
          int64_t p = c * STILE + SITEMS * j + k;
          rv b = p < len ? load_elem(kind, dt, x, t0 + SITEMS * j + k, NULL, none) : e;
          acc_j = combine(kind, at, acc_j, b);
          s[SITEMS * j + k] = acc_j;
        }
        W[j] = acc_j;
      }
      /* inclusive scan inside each warp of 32, every step from the previous step's values */
      for (int off = 1; off < 32; off *= 2) {
        for (int j = 0; j < STHREADS; j++)
          W2[j] = (j % 32) >= off ? combine(kind, at, W[j - off], W[j]) : W[j];
        memcpy(W, W2, sizeof W);
      }
      for (int w = 0; w < STHREADS / 32; w++) T[w] = W[32 * w + 31];
      X[0] = e;
      for (int w = 1; w < STHREADS / 32; w++) X[w] = combine(kind, at, X[w - 1], T[w - 1]);
      rv A = combine(kind, at, X[STHREADS / 32 - 1], T[STHREADS / 32 - 1]);
      for (int j = 0; j < STHREADS; j++) {
        int w = j / 32, q = j % 32;
        rv E = q == 0 ? X[w] : combine(kind, at, X[w], W[j - 1]);
        rv base = combine(kind, at, P, E);
        for (int k = 0; k < SITEMS; k++) {
          int64_t p = c * STILE + SITEMS * j + k;
          if (p >= len) break;
          rv v = exclusive ? (k == 0 ? e : s[SITEMS * j + k - 1]) : s[SITEMS * j + k];
          store_rv(ref_scan_result(dt), out, t0 + SITEMS * j + k, combine(kind, at, base, v));
        }
      }
      P = combine(kind, at, P, A);
    }
  }
  free(s);
}

void ref_scan_precise(gpux_scan_op op, gpux_dtype dt, int64_t rows, int64_t len, const void *x,
                      int exclusive, ref_value *val, double *sumabs) {
  int isf = ref_dtype_is_float(dt);
  for (int64_t r = 0; r < rows; r++) {
    ksum ks = {0, 0, 0, 0}, ka = {0, 0, 0, 0};
    long double p = 1;
    uint64_t u = op == GPUX_SCAN_PROD ? 1 : 0;
    for (int64_t i = 0; i < len; i++) {
      int64_t at = r * len + i;
      ref_value v;
      v.i = 0;
      if (exclusive) {
        if (isf) v.f = (double)(op == GPUX_SCAN_PROD ? p : kval(&ks));
        else v.i = wrap64(u);
        if (sumabs) sumabs[at] = op == GPUX_SCAN_PROD ? 0.0 : (double)kval(&ka);
      }
      long double xv = ld_elem(dt, x, at);
      kadd(&ka, fabsl(xv));
      if (op == GPUX_SCAN_PROD) {
        p *= xv;
        if (!isf) u *= (uint64_t)ref_load(dt, x, at).i;
      } else {
        kadd(&ks, xv);
        if (!isf) u += (uint64_t)ref_load(dt, x, at).i;
      }
      if (!exclusive) {
        if (isf) v.f = (double)(op == GPUX_SCAN_PROD ? p : kval(&ks));
        else v.i = wrap64(u);
        if (sumabs) sumabs[at] = op == GPUX_SCAN_PROD ? 0.0 : (double)kval(&ka);
      }
      val[at] = v;
    }
  }
}

/* ---- matrix products (issue 4) */

void ref_gemm(gpux_dtype dt, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
              const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
              const void *c, int64_t ldc, ref_value *out, double *sumabs) {
  int isf = ref_dtype_is_float(dt);
  if (isf) {
    long double al = dt == GPUX_FLOAT32 ? (long double)(float)alpha : (long double)alpha;
    long double be = dt == GPUX_FLOAT32 ? (long double)(float)beta : (long double)beta;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        long double s = 0, sa = 0;
        for (int64_t l = 0; l < k; l++) {
          long double x = ref_load(dt, a, ta ? l * lda + i : i * lda + l).f;
          long double y = ref_load(dt, b, tb ? j * ldb + l : l * ldb + j).f;
          s += x * y;
          sa += fabsl(x * y);
        }
        long double r = al * s, ra = fabsl(al) * sa;
        if (be != 0) {
          long double cv = ref_load(dt, c, i * ldc + j).f;
          r += be * cv;
          ra += fabsl(be * cv);
        }
        out[i * n + j].f = (double)r;
        if (sumabs) sumabs[i * n + j] = (double)ra;
      }
    return;
  }
  uint64_t al = (uint64_t)ref_from_double(dt, alpha).i, be = (uint64_t)ref_from_double(dt, beta).i;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      uint64_t s = 0;
      for (int64_t l = 0; l < k; l++)
        s += (uint64_t)ref_load(dt, a, ta ? l * lda + i : i * lda + l).i *
             (uint64_t)ref_load(dt, b, tb ? j * ldb + l : l * ldb + j).i;
      s *= al;
      if (be != 0) s += be * (uint64_t)ref_load(dt, c, i * ldc + j).i;
      out[i * n + j].i = ref_wrap(dt, s);
      if (sumabs) sumabs[i * n + j] = 0.0;
    }
}
