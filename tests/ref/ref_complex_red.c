/* CPU reference of the complex reductions and scans (ref_complex_red.h). Built with
 * -ffp-contract=off: the complex product's a*b - c*d must round each product. */
#include "ref_complex_red.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ref.h"
#include "gpux_kernels.h"

typedef struct cval {
  double re, im; /* complex64: float values, exactly */
} cval;

static void *xmalloc_(size_t n) {
  void *p = calloc(n ? n : 1, 1); /* zeroed: no uninitialized reads to reason about */
  if (!p) abort();
  return p;
}

static int is_c64(gpux_dtype dt) { return dt == GPUX_COMPLEX64; }
static gpux_dtype comp_of(gpux_dtype dt) { return is_c64(dt) ? GPUX_FLOAT32 : GPUX_FLOAT64; }

static cval load_c(gpux_dtype dt, const void *x, int64_t i) {
  cval v;
  if (is_c64(dt)) {
    const float *f = (const float *)x + 2 * i;
    v.re = f[0];
    v.im = f[1];
  } else {
    const double *d = (const double *)x + 2 * i;
    v.re = d[0];
    v.im = d[1];
  }
  return v;
}

static void store_c(gpux_dtype dt, void *x, int64_t i, cval v) {
  if (is_c64(dt)) {
    float *f = (float *)x + 2 * i;
    f[0] = (float)v.re;
    f[1] = (float)v.im;
  } else {
    double *d = (double *)x + 2 * i;
    d[0] = v.re;
    d[1] = v.im;
  }
}

/* the complex product of the kernels: an operand equal to (1, 0) gives the other one */
static cval cmul_f32(float ar, float ai, float br, float bi) {
  const float rr = ar * br, ii = ai * bi, ri = ar * bi, ir = ai * br;
  const cval r = {(float)(rr - ii), (float)(ri + ir)};
  return r;
}
static cval cmul_f64(double ar, double ai, double br, double bi) {
  const double rr = ar * br, ii = ai * bi, ri = ar * bi, ir = ai * br;
  const cval r = {rr - ii, ri + ir};
  return r;
}
static cval cmul(gpux_dtype dt, cval a, cval b) {
  if (b.re == 1 && b.im == 0) return a;
  if (a.re == 1 && a.im == 0) return b;
  if (is_c64(dt)) return cmul_f32((float)a.re, (float)a.im, (float)b.re, (float)b.im);
  return cmul_f64(a.re, a.im, b.re, b.im);
}

static const cval C_ONE = {1.0, 0.0};

/* One canonical pass of the complex product over x[0..len): nparts values to out. */
static int64_t prod_pass(gpux_dtype dt, int64_t len, const cval *x, cval *out) {
  const int64_t nparts = (len + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK;
  cval a[GPUX_RED_LANES];
  for (int64_t c = 0; c < nparts; c++) {
    for (int l = 0; l < GPUX_RED_LANES; l++) {
      a[l] = C_ONE;
      for (int k = 0; k < GPUX_RED_ROWS; k++) {
        const int64_t i = c * GPUX_RED_CHUNK + l + (int64_t)GPUX_RED_LANES * k;
        a[l] = cmul(dt, a[l], i < len ? x[i] : C_ONE);
      }
    }
    for (int s = GPUX_RED_LANES / 2; s >= 1; s /= 2)
      for (int l = 0; l < s; l++) a[l] = cmul(dt, a[l], a[l + s]);
    out[c] = a[0];
  }
  return nparts;
}

static cval prod_chain(gpux_dtype dt, int64_t n, const cval *x) {
  cval *cur = xmalloc_((size_t)((n + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK) * sizeof *cur);
  int64_t m = prod_pass(dt, n, x, cur);
  while (m > 1) {
    cval *next = xmalloc_((size_t)((m + GPUX_RED_CHUNK - 1) / GPUX_RED_CHUNK) * sizeof *next);
    m = prod_pass(dt, m, cur, next);
    free(cur);
    cur = next;
  }
  cval r = cur[0];
  free(cur);
  return r;
}

/* component k (0 re, 1 im) of x[0..n) as a contiguous array of the component dtype */
static void *component(gpux_dtype dt, int64_t n, const void *x, int k) {
  const size_t es = is_c64(dt) ? 4 : 8;
  char *o = xmalloc_((size_t)n * es);
  for (int64_t i = 0; i < n; i++)
    memcpy(o + (size_t)i * es, (const char *)x + (size_t)(2 * i + k) * es, es);
  return o;
}

/* canonical float sum of one component, post op applied: the value as a double */
static double comp_sum(gpux_dtype dt, int64_t n, const void *x, int k, int post, double div) {
  void *c = component(dt, n, x, k);
  double r;
  if (is_c64(dt)) {
    float f;
    ref_reduce_chain(REF_RK_SUM, GPUX_FLOAT32, n, c, 0.0, post, div, &f, NULL);
    r = f;
  } else {
    ref_reduce_chain(REF_RK_SUM, GPUX_FLOAT64, n, c, 0.0, post, div, &r, NULL);
  }
  free(c);
  return r;
}

static int nz(cval v) { return v.re != 0 || v.im != 0; }

static void store_real(gpux_dtype rdt, void *out, double v) {
  if (rdt == GPUX_FLOAT32) {
    float f = (float)v;
    memcpy(out, &f, sizeof f);
  } else {
    memcpy(out, &v, sizeof v);
  }
}

int refc_reduce_canon(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, int64_t ddof,
                      void *out) {
  const gpux_dtype cdt = comp_of(dt);
  switch (op) {
    case GPUX_REDUCE_SUM:
    case GPUX_REDUCE_MEAN: {
      cval r;
      if (n == 0) {
        r.re = op == GPUX_REDUCE_SUM ? 0.0 : NAN;
        r.im = r.re;
      } else {
        const int post = op == GPUX_REDUCE_MEAN ? REF_POST_DIV : REF_POST_NONE;
        r.re = comp_sum(dt, n, x, 0, post, (double)n);
        r.im = comp_sum(dt, n, x, 1, post, (double)n);
      }
      store_c(dt, out, 0, r);
      return 0;
    }
    case GPUX_REDUCE_PROD: {
      cval r = C_ONE;
      if (n > 0) {
        cval *v = xmalloc_((size_t)n * sizeof *v);
        for (int64_t i = 0; i < n; i++) v[i] = load_c(dt, x, i);
        r = prod_chain(dt, n, v);
        free(v);
      }
      store_c(dt, out, 0, r);
      return 0;
    }
    case GPUX_REDUCE_ANY:
    case GPUX_REDUCE_ALL:
    case GPUX_REDUCE_COUNT_NONZERO: {
      int64_t c = 0;
      for (int64_t i = 0; i < n; i++) c += nz(load_c(dt, x, i));
      if (op == GPUX_REDUCE_COUNT_NONZERO)
        memcpy(out, &c, sizeof c);
      else
        *(uint8_t *)out = op == GPUX_REDUCE_ANY ? c > 0 : c == n;
      return 0;
    }
    case GPUX_REDUCE_VAR:
    case GPUX_REDUCE_STD: {
      if (n == 0) {
        store_real(cdt, out, NAN);
        return 0;
      }
      /* the mean, rounded to the dtype, then |x - m|^2 per element in the component dtype */
      const double mr = comp_sum(dt, n, x, 0, REF_POST_DIV, (double)n);
      const double mi = comp_sum(dt, n, x, 1, REF_POST_DIV, (double)n);
      void *d = xmalloc_((size_t)n * (is_c64(dt) ? 4 : 8));
      for (int64_t i = 0; i < n; i++) {
        const cval v = load_c(dt, x, i);
        if (is_c64(dt)) {
          const float dr = (float)v.re - (float)mr, di = (float)v.im - (float)mi;
          const float p = dr * dr, q = di * di;
          ((float *)d)[i] = p + q;
        } else {
          const double dr = v.re - mr, di = v.im - mi;
          const double p = dr * dr, q = di * di;
          ((double *)d)[i] = p + q;
        }
      }
      double div = (double)n - (double)ddof;
      if (div < 0) div = 0;
      const int post = op == GPUX_REDUCE_VAR ? REF_POST_DIV : REF_POST_DIV_SQRT;
      ref_reduce_chain(REF_RK_SUM, cdt, n, d, 0.0, post, div, out, NULL);
      free(d);
      return 0;
    }
    default: return -1;
  }
}

int refc_reduce_axes_canon(gpux_reduce_op op, gpux_dtype dt, int ndim, const int64_t *shape,
                           const void *x, const int *red, int64_t ddof, void *out) {
  int64_t strides[GPUX_MAX_DIMS];
  ref_row_major_strides(ndim, shape, strides);
  int kd[GPUX_MAX_DIMS], rd[GPUX_MAX_DIMS], nk = 0, nr = 0;
  int64_t n_out = 1, n_red = 1;
  for (int d = 0; d < ndim; d++) {
    if (red[d]) {
      rd[nr++] = d;
      n_red *= shape[d];
    } else {
      kd[nk++] = d;
      n_out *= shape[d];
    }
  }
  /* the result's element size (the ref's own table, not the library's) */
  size_t rs;
  switch (op) {
    case GPUX_REDUCE_SUM: case GPUX_REDUCE_PROD: case GPUX_REDUCE_MEAN: rs = is_c64(dt) ? 8 : 16; break;
    case GPUX_REDUCE_ANY: case GPUX_REDUCE_ALL: rs = 1; break;
    case GPUX_REDUCE_COUNT_NONZERO: rs = 8; break;
    case GPUX_REDUCE_VAR: case GPUX_REDUCE_STD: rs = is_c64(dt) ? 4 : 8; break;
    default: return -1;
  }
  const size_t es = is_c64(dt) ? 8 : 16;
  char *seq = xmalloc_((size_t)n_red * es);
  for (int64_t o = 0; o < n_out; o++) {
    int64_t base = 0, t = o;
    for (int k = nk - 1; k >= 0; k--) {
      base += (t % shape[kd[k]]) * strides[kd[k]];
      t /= shape[kd[k]];
    }
    for (int64_t r = 0; r < n_red; r++) {
      int64_t off = base, u = r;
      for (int k = nr - 1; k >= 0; k--) {
        off += (u % shape[rd[k]]) * strides[rd[k]];
        u /= shape[rd[k]];
      }
      memcpy(seq + (size_t)r * es, (const char *)x + (size_t)off * es, es);
    }
    if (refc_reduce_canon(op, dt, n_red, seq, ddof, (char *)out + (size_t)o * rs) != 0) {
      free(seq);
      return -1;
    }
  }
  free(seq);
  return 0;
}

/* THE CANONICAL SCAN with the complex product, one row */
static void prod_scan_row(gpux_dtype dt, int64_t len, const cval *x, int exclusive, cval *out) {
  enum { NT = GPUX_SCAN_THREADS, NI = GPUX_SCAN_ITEMS, TILE = GPUX_SCAN_TILE, NW = NT / 32 };
  static cval s[TILE]; /* s_{j,k} at 16j + k (single-threaded tests) */
  cval W[NT], W2[NT], X[NW], T[NW];
  const int64_t ntiles = (len + TILE - 1) / TILE;
  cval P = C_ONE;
  for (int64_t c = 0; c < ntiles; c++) {
    const int64_t t0 = c * TILE;
    for (int j = 0; j < NT; j++) {
      cval a = C_ONE;
      for (int k = 0; k < NI; k++) {
        const int64_t i = t0 + NI * j + k;
        a = cmul(dt, a, i < len ? x[i] : C_ONE);
        s[NI * j + k] = a;
      }
      W[j] = a;
    }
    for (int off = 1; off < 32; off <<= 1) {
      for (int j = 0; j < NT; j++) W2[j] = (j % 32) >= off ? cmul(dt, W[j - off], W[j]) : W[j];
      memcpy(W, W2, sizeof W);
    }
    for (int w = 0; w < NW; w++) T[w] = W[32 * w + 31];
    X[0] = C_ONE;
    for (int w = 1; w < NW; w++) X[w] = cmul(dt, X[w - 1], T[w - 1]);
    const cval A = cmul(dt, X[NW - 1], T[NW - 1]);
    for (int j = 0; j < NT; j++) {
      const int w = j / 32, q = j % 32;
      const cval E = q == 0 ? X[w] : cmul(dt, X[w], W[j - 1]);
      const cval base = cmul(dt, P, E);
      for (int k = 0; k < NI; k++) {
        const int64_t i = t0 + NI * j + k;
        if (i >= len) break;
        const cval sk = s[NI * j + k], skm = k ? s[NI * j + k - 1] : C_ONE;
        out[i] = cmul(dt, base, exclusive ? skm : sk);
      }
    }
    P = cmul(dt, P, A);
  }
}

void refc_scan_canon(gpux_scan_op op, gpux_dtype dt, int64_t rows, int64_t len, const void *x,
                     int exclusive, void *out) {
  const int64_t n = rows * len;
  if (n == 0) return;
  if (op == GPUX_SCAN_SUM) { /* componentwise: ref.c's canonical float scan per component */
    const gpux_dtype cdt = comp_of(dt);
    const size_t es = is_c64(dt) ? 4 : 8;
    for (int k = 0; k < 2; k++) {
      void *c = component(dt, n, x, k);
      char *o = xmalloc_((size_t)n * es);
      ref_scan_canon(GPUX_SCAN_SUM, cdt, rows, len, c, exclusive, o);
      for (int64_t i = 0; i < n; i++)
        memcpy((char *)out + (size_t)(2 * i + k) * es, o + (size_t)i * es, es);
      free(o);
      free(c);
    }
    return;
  }
  cval *v = xmalloc_((size_t)len * sizeof *v), *o = xmalloc_((size_t)len * sizeof *o);
  for (int64_t r = 0; r < rows; r++) {
    for (int64_t i = 0; i < len; i++) v[i] = load_c(dt, x, r * len + i);
    prod_scan_row(dt, len, v, exclusive, o);
    for (int64_t i = 0; i < len; i++) store_c(dt, out, r * len + i, o[i]);
  }
  free(o);
  free(v);
}

void refc_precise(gpux_reduce_op op, gpux_dtype dt, int64_t n, const void *x, long double *re,
                  long double *im, double *sumabs) {
  long double r = op == GPUX_REDUCE_PROD ? 1 : 0, i = 0;
  double sa = 0;
  for (int64_t k = 0; k < n; k++) {
    const cval v = load_c(dt, x, k);
    sa += fabs(v.re) + fabs(v.im);
    if (op == GPUX_REDUCE_PROD) {
      const long double nr = r * v.re - i * v.im, ni = r * v.im + i * v.re;
      r = nr;
      i = ni;
    } else {
      r += v.re;
      i += v.im;
    }
  }
  if (op == GPUX_REDUCE_MEAN && n > 0) {
    r /= n;
    i /= n;
  }
  *re = r;
  *im = i;
  if (sumabs) *sumabs = sa;
}
