/* gpux tests: the CPU reference of the complex elementwise ops (ref_complex_ew.h). */
#include "ref_complex_ew.h"
#include <math.h>
#include <string.h>

typedef struct { float re, im; } cf;
typedef struct { double re, im; } cd;
typedef struct { long double re, im; } cl;

/* ---- the exact formulas, in the component type (the kernels' formulas, gpux_complex.h) */
#define REF_CX_EXACT(S, R, C, FABS)                                                          \
  static C add_##S(C a, C b) { return (C){a.re + b.re, a.im + b.im}; }                       \
  static C sub_##S(C a, C b) { return (C){a.re - b.re, a.im - b.im}; }                       \
  static C mul_##S(C a, C b) {                                                               \
    return (C){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};                        \
  }                                                                                          \
  static C div_##S(C a, C b) {                                                               \
    const R abr = FABS(b.re), abi = FABS(b.im);                                              \
    if (abr >= abi) {                                                                        \
      if (abr == 0 && abi == 0) return (C){a.re / abr, a.im / abr};                          \
      const R rat = b.im / b.re, d = b.re + b.im * rat;                                      \
      return (C){(a.re + a.im * rat) / d, (a.im - a.re * rat) / d};                          \
    }                                                                                        \
    const R rat = b.re / b.im, d = b.im + b.re * rat;                                        \
    return (C){(a.re * rat + a.im) / d, (a.im * rat - a.re) / d};                            \
  }                                                                                          \
  /* pow's exact cases: 1 when handled (*r set) */                                           \
  static int pow_exact_##S(C a, C b, C *r) {                                                 \
    if (b.re == 0 && b.im == 0) { *r = (C){1, 0}; return 1; }                                \
    if (a.re == 0 && a.im == 0) {                                                            \
      *r = b.re > 0 && b.im == 0 ? (C){0, 0} : (C){(R)NAN, (R)NAN};                          \
      return 1;                                                                              \
    }                                                                                        \
    if (!(b.im == 0 && FABS(b.re) < 100 && b.re == (R)(int)b.re)) return 0;                  \
    const int n = (int)b.re, m = n < 0 ? -n : n;                                             \
    if (n == 1) { *r = a; return 1; }                                                        \
    if (n == 2) { *r = mul_##S(a, a); return 1; }                                            \
    if (n == 3) { *r = mul_##S(a, mul_##S(a, a)); return 1; }                                \
    C acc = {1, 0}, p = a;                                                                   \
    for (int mask = 1;; mask <<= 1) {                                                        \
      if (m & mask) acc = mul_##S(acc, p);                                                   \
      if (m < (mask << 1)) break;                                                            \
      p = mul_##S(p, p);                                                                     \
    }                                                                                        \
    *r = n < 0 ? div_##S((C){1, 0}, acc) : acc;                                              \
    return 1;                                                                                \
  }
REF_CX_EXACT(f, float, cf, fabsf)
REF_CX_EXACT(d, double, cd, fabs)

/* ---- the others, in long double */
static const long double LINF = (long double)INFINITY;
static cl l_mul(cl a, cl b) { return (cl){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static long double l_abs(cl z) {
  if (fabsl(z.re) == LINF || fabsl(z.im) == LINF) return LINF;
  return hypotl(z.re, z.im);
}
static cl l_exp(cl z) {
  const long double x = z.re, y = z.im;
  if (y == 0) return (cl){expl(x), y};
  if (fabsl(x) == LINF && !(fabsl(y) < LINF)) return x > 0 ? (cl){x, y - y} : (cl){0, 0};
  const long double e = expl(x);
  return (cl){e * cosl(y), e * sinl(y)};
}
static cl l_log(cl z) {
  const long double ax = fabsl(z.re), ay = fabsl(z.im);
  long double re;
  if (ax == LINF || ay == LINF) re = LINF;
  else if (isnan(ax) || isnan(ay)) re = ax + ay;
  else if (ax == 0 && ay == 0) re = -LINF;
  else if (fmaxl(ax, ay) >= 0.5L && fmaxl(ax, ay) <= 2) { /* near |z| = 1, as the kernels */
    const long double m = fmaxl(ax, ay), n = fminl(ax, ay);
    re = 0.5L * log1pl((m - 1) * (m + 1) + n * n);
  } else re = logl(hypotl(ax, ay));
  return (cl){re, atan2l(z.im, z.re)};
}
static cl l_sqrt(cl z) {
  const long double a = z.re, b = z.im;
  if (a == 0 && b == 0) return (cl){0, b};
  if (fabsl(b) == LINF) return (cl){LINF, b};
  if (isnan(a)) return (cl){a, a};
  if (fabsl(a) == LINF)
    return a < 0 ? (cl){fabsl(b - b), copysignl(a, b)} : (cl){a, copysignl(b - b, b)};
  const long double h = hypotl(a, b);
  if (a >= 0) {
    const long double t = sqrtl((a + h) / 2);
    return (cl){t, b / (2 * t)};
  }
  const long double t = sqrtl((-a + h) / 2);
  return (cl){fabsl(b) / (2 * t), copysignl(t, b)};
}
static cl l_sin(cl z) {
  const long double x = z.re, y = z.im;
  if (x == 0) return (cl){x, sinhl(y)};
  if (y == 0) return (cl){sinl(x), fabsl(x) < LINF ? cosl(x) * y : y};
  return (cl){sinl(x) * coshl(y), cosl(x) * sinhl(y)};
}
static cl l_cos(cl z) {
  const long double x = z.re, y = z.im;
  if (x == 0) return (cl){coshl(y), -x * (fabsl(y) < LINF ? sinhl(y) : 1)};
  if (y == 0) return (cl){cosl(x), fabsl(x) < LINF ? -(sinl(x) * y) : -y};
  return (cl){cosl(x) * coshl(y), -(sinl(x) * sinhl(y))};
}

/* ---- element access */
static cl load(gpux_dtype dt, const void *p, int64_t i) {
  if (dt == GPUX_COMPLEX64) {
    cf v;
    memcpy(&v, (const char *)p + 8 * i, 8);
    return (cl){v.re, v.im};
  }
  cd v;
  memcpy(&v, (const char *)p + 16 * i, 16);
  return (cl){v.re, v.im};
}
static void store_c(gpux_dtype dt, void *p, int64_t i, cl v) {
  if (dt == GPUX_COMPLEX64) {
    const cf w = {(float)v.re, (float)v.im};
    memcpy((char *)p + 8 * i, &w, 8);
  } else {
    const cd w = {(double)v.re, (double)v.im};
    memcpy((char *)p + 16 * i, &w, 16);
  }
}
static void store_r(gpux_dtype dt, void *p, int64_t i, long double v) {
  if (dt == GPUX_COMPLEX64) {
    const float w = (float)v;
    memcpy((char *)p + 4 * i, &w, 4);
  } else {
    const double w = (double)v;
    memcpy((char *)p + 8 * i, &w, 8);
  }
}
static int nz(cl v) { return v.re != 0 || v.im != 0; }

/* one element of a binary op; the exact ones in the component type */
static void binary1(gpux_binary_op op, gpux_dtype dt, cl a, cl b, void *out, int64_t i) {
  unsigned char *ob = out;
  switch (op) {
    case GPUX_EQ: ob[i] = a.re == b.re && a.im == b.im; return;
    case GPUX_NE: ob[i] = !(a.re == b.re && a.im == b.im); return;
    case GPUX_LOGICAL_AND: ob[i] = nz(a) && nz(b); return;
    case GPUX_LOGICAL_OR: ob[i] = nz(a) || nz(b); return;
    case GPUX_LOGICAL_XOR: ob[i] = nz(a) != nz(b); return;
    default: break;
  }
  if (dt == GPUX_COMPLEX64) {
    const cf x = {(float)a.re, (float)a.im}, y = {(float)b.re, (float)b.im};
    cf r = {0, 0};
    switch (op) {
      case GPUX_ADD: r = add_f(x, y); break;
      case GPUX_SUB: r = sub_f(x, y); break;
      case GPUX_MUL: r = mul_f(x, y); break;
      case GPUX_DIV: r = div_f(x, y); break;
      default: /* pow */
        if (!pow_exact_f(x, y, &r)) {
          const cl lg = l_log(a), e = l_exp(l_mul(b, lg));
          store_c(dt, out, i, e);
          return;
        }
    }
    memcpy((char *)out + 8 * i, &r, 8);
  } else {
    const cd x = {(double)a.re, (double)a.im}, y = {(double)b.re, (double)b.im};
    cd r = {0, 0};
    switch (op) {
      case GPUX_ADD: r = add_d(x, y); break;
      case GPUX_SUB: r = sub_d(x, y); break;
      case GPUX_MUL: r = mul_d(x, y); break;
      case GPUX_DIV: r = div_d(x, y); break;
      default:
        if (!pow_exact_d(x, y, &r)) {
          const cl lg = l_log(a), e = l_exp(l_mul(b, lg));
          store_c(dt, out, i, e);
          return;
        }
    }
    memcpy((char *)out + 16 * i, &r, 16);
  }
}

void ref_cx_binary(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a, const void *b,
                   void *out) {
  for (int64_t i = 0; i < n; i++) binary1(op, dt, load(dt, a, i), load(dt, b, i), out, i);
}

void ref_cx_binary_scalar(gpux_binary_op op, gpux_dtype dt, int64_t n, const void *a,
                          const void *s, int scalar_first, void *out) {
  const cl sv = load(dt, s, 0);
  for (int64_t i = 0; i < n; i++) {
    const cl x = load(dt, a, i);
    binary1(op, dt, scalar_first ? sv : x, scalar_first ? x : sv, out, i);
  }
}

int ref_cx_binary_exact(gpux_binary_op op, gpux_dtype dt, const void *a, const void *b) {
  if (op != GPUX_POW) return 1;
  const cl x = load(dt, a, 0), y = load(dt, b, 0);
  if (dt == GPUX_COMPLEX64) {
    cf r;
    return pow_exact_f((cf){(float)x.re, (float)x.im}, (cf){(float)y.re, (float)y.im}, &r);
  }
  cd r;
  return pow_exact_d((cd){(double)x.re, (double)x.im}, (cd){(double)y.re, (double)y.im}, &r);
}

int ref_cx_unary_exact(gpux_unary_op op) {
  return op == GPUX_NEG || op == GPUX_CONJ || op == GPUX_REAL || op == GPUX_IMAG ||
         op == GPUX_LOGICAL_NOT;
}

void ref_cx_unary(gpux_unary_op op, gpux_dtype dt, int64_t n, const void *a, void *out) {
  for (int64_t i = 0; i < n; i++) {
    const cl z = load(dt, a, i);
    switch (op) {
      case GPUX_NEG: store_c(dt, out, i, (cl){-z.re, -z.im}); break;
      case GPUX_CONJ: store_c(dt, out, i, (cl){z.re, -z.im}); break;
      case GPUX_REAL: store_r(dt, out, i, z.re); break;
      case GPUX_IMAG: store_r(dt, out, i, z.im); break;
      case GPUX_ABS: store_r(dt, out, i, l_abs(z)); break;
      case GPUX_ANGLE: store_r(dt, out, i, atan2l(z.im, z.re)); break;
      case GPUX_LOGICAL_NOT: ((unsigned char *)out)[i] = !nz(z); break;
      case GPUX_EXP: store_c(dt, out, i, l_exp(z)); break;
      case GPUX_LOG: store_c(dt, out, i, l_log(z)); break;
      case GPUX_SQRT: store_c(dt, out, i, l_sqrt(z)); break;
      case GPUX_SIN: store_c(dt, out, i, l_sin(z)); break;
      case GPUX_COS: store_c(dt, out, i, l_cos(z)); break;
      default: break;
    }
  }
}
