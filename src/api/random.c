/* Random numbers: generators, validation of the distributions' parameters, the draws on the
 * device (backends run kernels/{cuda,cl}/random.*) and the same draws on the host. Both run
 * kernels/common/gpux_random.h, so they agree bit for bit; this file is built with
 * -ffp-contract=off (src/api/CMakeLists.txt) so the host does exactly its operations. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

_Static_assert(GPUX_RANDOM_BERNOULLI + 1 == GPUX_RANDOM_KIND_COUNT &&
                   GPUX_RANDOM_UNIFORM == GPUX_RK_UNIFORM && GPUX_RANDOM_NORMAL == GPUX_RK_NORMAL &&
                   GPUX_RANDOM_INTEGERS == GPUX_RK_INTEGERS &&
                   GPUX_RANDOM_BERNOULLI == GPUX_RK_BERNOULLI,
               "random kind ids");

struct gpux_generator {
  gpux_rng_state st;
};

#define STREAM_LIMIT (UINT64_C(1) << 63)

static const char *const kind_names[GPUX_RANDOM_KIND_COUNT] = {"uniform", "normal", "integers",
                                                               "bernoulli"};
/* the dtypes each kind writes (GPUX_RANDOM_KINDS) */
#define DT_BIT(unused, dt) | (1u << GPUX_KDT_##dt)
#define SUPPORT(kind, id, list) [id] = 0 list(DT_BIT, _),
static const unsigned kind_dtypes[GPUX_RANDOM_KIND_COUNT] = {GPUX_RANDOM_KINDS(SUPPORT)};
#undef SUPPORT
#undef DT_BIT

/* ---- the engine and generators ------------------------------------------------------------ */

GPUX_API gpux_status gpux_philox4x32_10(uint32_t out[4], const uint32_t counter[4],
                                        const uint32_t key[2]) {
  GPUX__API_FN();
  if (!out || !counter || !key)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_philox4x32_10: %s is NULL",
                           !out ? "out" : !counter ? "counter" : "key");
  gpux_r4 c = {counter[0], counter[1], counter[2], counter[3]};
  c = gpux_r_philox(c, key[0], key[1]);
  out[0] = c.x;
  out[1] = c.y;
  out[2] = c.z;
  out[3] = c.w;
  return GPUX_SUCCESS;
}

static gpux_status check_gen(const struct gpux_generator *g, const char *fn) {
  if (!g) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: generator is NULL", fn);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_generator_create(gpux_generator_t *out, uint64_t seed) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_generator_create: out is NULL");
  *out = calloc(1, sizeof **out);
  if (!*out) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "generator");
  (*out)->st.seed = seed;
  return GPUX_SUCCESS;
}

GPUX_API void gpux_generator_release(gpux_generator_t g) { free(g); }

GPUX_API gpux_status gpux_generator_get_state(gpux_rng_state *out, gpux_generator_t g) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_generator_get_state: out is NULL");
  GPUX__CHECK(check_gen(g, "gpux_generator_get_state"));
  *out = g->st;
  return GPUX_SUCCESS;
}

static gpux_status check_state(const gpux_rng_state *st, const char *fn) {
  if (!st) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: state is NULL", fn);
  if (st->stream >= STREAM_LIMIT)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "%s: stream %llu is not below 2^63 (streams with the top bit set are "
                           "reserved for integer retries)",
                           fn, (unsigned long long)st->stream);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_generator_set_state(gpux_generator_t g, const gpux_rng_state *state) {
  GPUX__API_FN();
  GPUX__CHECK(check_gen(g, "gpux_generator_set_state"));
  GPUX__CHECK(check_state(state, "gpux_generator_set_state"));
  g->st = *state;
  return GPUX_SUCCESS;
}

/* words a draw of n values uses; GPUX_ERROR_SIZE_OVERFLOW past 2^64 */
static gpux_status draw_words(uint64_t *words, int kind, gpux_dtype dt, int64_t n) {
  const uint64_t wpv = (uint64_t)GPUX_R_WPV(kind, (int)dt);
  uint64_t units = (uint64_t)n;
  if (kind == GPUX_RK_NORMAL && dt == GPUX_FLOAT64) units = (units + 1u) / 2u * 2u; /* pairs */
  if (units > UINT64_MAX / wpv)
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "a draw of %lld values needs more than 2^64 words",
                           (long long)n);
  *words = units * wpv;
  return GPUX_SUCCESS;
}

/* Complex normals (complex64 / complex128): value i of a draw is (re, im) = values 2i and
 * 2i + 1 of the component dtype's normal draw from the same position with mean 0 and std
 * s' = std * sqrt(1/2) (std times the double nearest sqrt(1/2), rounded to the component
 * dtype as a normal draw rounds its std), so each part has variance std^2 / 2 and
 * E|z - mean|^2 = std^2 (PyTorch's randn for complex); then mean (rounded to the component
 * dtype) is added to the real part, one correctly rounded add, when it is nonzero. The
 * words are those of the 2n component values. */
static int complex_normal(int kind, gpux_dtype dt) {
  return kind == GPUX_RK_NORMAL && gpux__dt_is_complex(dt);
}
static gpux_dtype comp_dtype(gpux_dtype dt) {
  return dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
}
#define SQRT1_2 0.70710678118654752440

static gpux_status check_kind_dtype(int kind, gpux_dtype dt, const char *fn) {
  if ((unsigned)kind >= GPUX_RANDOM_KIND_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_OP, "%s: unknown random kind %d", fn, kind);
  if ((unsigned)dt >= GPUX_DTYPE_COUNT)
    return gpux__set_error(GPUX_ERROR_INVALID_DTYPE, "%s: unknown dtype %d", fn, (int)dt);
  if (complex_normal(kind, dt)) return GPUX_SUCCESS;
  if (!(kind_dtypes[kind] >> dt & 1u))
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s: %s values cannot be %s (%s)", fn,
                           kind_names[kind], gpux_dtype_name(dt),
                           kind == GPUX_RK_INTEGERS ? "an integer dtype"
                           : kind == GPUX_RK_BERNOULLI ? "bool"
                           : kind == GPUX_RK_NORMAL ? "float32, float64, complex64 or complex128"
                                                    : "float32 or float64");
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_random_words(uint64_t *words, gpux_random_kind kind, gpux_dtype dt,
                                       int64_t n) {
  GPUX__API_FN();
  if (!words) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_random_words: words is NULL");
  GPUX__CHECK(check_kind_dtype((int)kind, dt, "gpux_random_words"));
  if (n < 0) return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "gpux_random_words: n = %lld", (long long)n);
  if (complex_normal((int)kind, dt)) {
    if (n > INT64_MAX / 2)
      return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "gpux_random_words: n = %lld", (long long)n);
    return draw_words(words, (int)kind, comp_dtype(dt), 2 * n);
  }
  return draw_words(words, (int)kind, dt, n);
}

/* the bits of v in dtype dt (float32 in the low half) */
static uint64_t fbits(double v, gpux_dtype dt) {
  if (dt == GPUX_FLOAT32) return (uint64_t)GPUX_R_F2U((float)v);
  return GPUX_R_D2U(v);
}

/* ---- parameters ---------------------------------------------------------------------------- */

/* v is finite after rounding to float32. An explicit bound: a test of (float)v itself may be
 * folded into a test of v by the optimizer (seen with GCC -O3). */
static int f32_finite(double v) { return fabs(v) < 0x1.ffffffp127; }

/* 2^128 mod r (r >= 1) */
static uint64_t pow2_128_mod(uint64_t r) {
  const uint64_t t = (0u - r) % r; /* 2^64 mod r */
#if defined(__SIZEOF_INT128__)
  return (uint64_t)(((unsigned __int128)t * t) % r);
#else
  uint64_t acc = 0, a = t, b = t; /* t * t mod r by doubling: t < r */
  while (b) {
    if (b & 1u) acc = acc >= r - a ? acc - (r - a) : acc + a;
    a = a >= r - a ? a - (r - a) : a + a;
    b >>= 1;
  }
  return acc;
#endif
}

/* A distribution's parameters as the caller gave them. fa, fb: uniform low/high, normal
 * mean/std, bernoulli p (fa); integers: [ia, ib), or with closed set [ua, ub] (uint64 bounds,
 * gpux_random_integers_u64). */
typedef struct dist {
  double fa, fb;
  int64_t ia, ib;
  uint64_t ua, ub;
  int closed;
} dist;

/* Validates one distribution's parameters for dtype dt and fills p's parameter fields. */
static gpux_status make_params(gpux_rparams *p, int kind, gpux_dtype dt, const dist *d,
                               const char *fn) {
  const double fa = d->fa, fb = d->fb;
  const int64_t ia = d->ia, ib = d->ib;
  memset(p, 0, sizeof *p);
  switch (kind) {
    case GPUX_RK_UNIFORM: {
      if (!isfinite(fa) || !isfinite(fb) || !(fa < fb))
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                               "%s: [low, high) = [%g, %g) must be finite with low < high", fn, fa, fb);
      if (dt == GPUX_FLOAT32) {
        if (!f32_finite(fa) || !f32_finite(fb))
          return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: [%g, %g) is outside float32",
                                 fn, fa, fb);
        const float lo = (float)fa, hi = (float)fb;
        const float d = hi - lo; /* rounded in float32 */
        if (!(lo < hi) || !f32_finite((double)hi - (double)lo))
          return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                                 "%s: [%g, %g) is empty or unbounded in float32", fn, fa, fb);
        p->pa = fbits(lo, dt);
        p->pb = fbits(d, dt);
        p->pc = fbits(hi, dt);
        p->pd = fbits(nextafterf(hi, -INFINITY), dt);
      } else {
        const double d = fb - fa;
        if (!isfinite(d))
          return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: high - low overflows float64", fn);
        p->pa = fbits(fa, dt);
        p->pb = fbits(d, dt);
        p->pc = fbits(fb, dt);
        p->pd = fbits(nextafter(fb, -INFINITY), dt);
      }
      return GPUX_SUCCESS;
    }
    case GPUX_RK_NORMAL: {
      const int f32 = dt == GPUX_FLOAT32;
      const double m = f32 ? (double)(float)fa : fa;
      const double s = f32 ? (double)(float)fb : fb;
      if (!isfinite(fa) || !isfinite(fb) || (f32 && (!f32_finite(fa) || !f32_finite(fb))) ||
          !(s >= 0))
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                               "%s: mean %g and std %g must be finite in %s, std >= 0", fn, fa, fb,
                               gpux_dtype_name(dt));
      p->pa = fbits(m, dt);
      p->pb = fbits(s, dt);
      return GPUX_SUCCESS;
    }
    case GPUX_RK_INTEGERS: {
      if (d->closed) { /* uint64 only (the API's): range 2^64 is 0, which the kernels know */
        if (dt != GPUX_UINT64)
          return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH, "%s: the output is %s, not uint64",
                                 fn, gpux_dtype_name(dt));
        if (!(d->ua <= d->ub))
          return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                                 "%s: [low, high] = [%llu, %llu] is empty", fn,
                                 (unsigned long long)d->ua, (unsigned long long)d->ub);
        p->low = d->ua;
        p->range = d->ub - d->ua + 1u;
        p->thr = p->range ? pow2_128_mod(p->range) : 0u;
        return GPUX_SUCCESS;
      }
      if (!(ia < ib))
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: [low, high) = [%lld, %lld) is empty",
                               fn, (long long)ia, (long long)ib);
      double lo, top; /* the dtype's values: [lo, top) */
      gpux__int_bounds(dt, &lo, &top);
      if ((double)ia < lo || (double)ib > top)
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                               "%s: [%lld, %lld) is outside %s (low >= %.17g, high <= %.17g)", fn,
                               (long long)ia, (long long)ib, gpux_dtype_name(dt), lo, top);
      p->low = (uint64_t)ia;
      p->range = (uint64_t)ib - (uint64_t)ia;
      p->thr = GPUX_R_WPV(kind, (int)dt) == 2 ? (0u - p->range) % p->range : pow2_128_mod(p->range);
      return GPUX_SUCCESS;
    }
    default: /* bernoulli */
      if (!(fa >= 0.0 && fa <= 1.0))
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: p = %g is not in [0, 1]", fn, fa);
      {
        /* round(p * 2^32), halves up, whatever the caller's rounding mode: the product is
         * exact, the truncation and the remainder too */
        const double x = fa * 4294967296.0;
        const uint64_t t = (uint64_t)x;
        p->thr = t + (x - (double)t >= 0.5 ? 1u : 0u);
      }
      return GPUX_SUCCESS;
  }
}

/* GPUX_ERROR_SIZE_OVERFLOW when `words` from `position` would pass word 2^64 */
static gpux_status check_room(uint64_t words, uint64_t position, const char *fn) {
  if (words > UINT64_MAX - position)
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW,
                           "%s: %llu words from position %llu would pass word 2^64", fn,
                           (unsigned long long)words, (unsigned long long)position);
  return GPUX_SUCCESS;
}

/* Validates a draw of n values of kind and dt starting at *st: p gets the parameters and
 * the start (pos, stream, seed), *words the draw's length. Device and host draws share it. */
static gpux_status plan_draw(gpux_rparams *p, uint64_t *words, int kind, gpux_dtype dt,
                             int64_t n, const gpux_rng_state *st, const dist *d, const char *fn) {
  GPUX__CHECK(check_kind_dtype(kind, dt, fn));
  GPUX__CHECK(make_params(p, kind, dt, d, fn));
  GPUX__CHECK(draw_words(words, kind, dt, n));
  GPUX__CHECK(check_room(*words, st->position, fn));
  p->pos = st->position;
  p->stream = st->stream;
  p->seed = st->seed;
  return GPUX_SUCCESS;
}

/* ---- device draws ---------------------------------------------------------------------------- */

/* The component draw of a complex normal: *cd its parameters (the caller's validated as the
 * component dtype's), *mean the mean to add to the real parts (0: none). */
static gpux_status complex_normal_dist(dist *cd, double *mean, gpux_dtype dt, const dist *d,
                                       const char *fn) {
  gpux_rparams p;
  const gpux_dtype c = comp_dtype(dt);
  GPUX__CHECK(make_params(&p, GPUX_RK_NORMAL, c, d, fn));
  memset(cd, 0, sizeof *cd);
  cd->fa = 0.0;
  cd->fb = d->fb * SQRT1_2;
  *mean = c == GPUX_FLOAT32 ? (double)(float)d->fa : d->fa;
  return GPUX_SUCCESS;
}

static gpux_status draw_complex_normal(struct gpux_array *out, struct gpux_generator *g,
                                       const dist *d, const char *fn) {
  const gpux_dtype c = comp_dtype(out->dtype);
  gpux_rparams p;
  uint64_t words = 0;
  dist cd;
  double mean = 0.0;
  GPUX__CHECK(complex_normal_dist(&cd, &mean, out->dtype, d, fn));
  if (out->size > INT64_MAX / 2)
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "%s: %lld values", fn, (long long)out->size);
  GPUX__CHECK(plan_draw(&p, &words, GPUX_RK_NORMAL, c, 2 * out->size, &g->st, &cd, fn));
  if (out->size == 0) return GPUX_SUCCESS;
  struct gpux_context *ctx = out->ctx;
  GPUX__NEED(ctx, GPUX__Q_RANDOM, GPUX_RK_NORMAL, c, -1);
  p.n = 2u * (uint64_t)out->size;
  p.nblocks = words / 4u + (words % 4u != 0u);
  struct gpux_array *tmp = NULL, *dst = out;
  if (!gpux__is_contiguous(out)) {
    GPUX__CHECK(gpux__array_new(&tmp, ctx, out->dtype, out->ndim, out->shape));
    dst = tmp;
  }
  /* the contiguous complex array as 2n values of the component dtype */
  struct gpux_array fv = *dst;
  fv.dtype = c;
  fv.ndim = 1;
  fv.size = 2 * dst->size;
  fv.offset = 2 * dst->offset;
  fv.shape[0] = fv.size;
  fv.strides[0] = 1;
  gpux__random r;
  r.kind = GPUX_RK_NORMAL;
  r.p = p;
  struct gpux_stream *q = gpux__stream_cur(ctx);
  r.out = gpux__operand_on(q, &fv);
  gpux_status s = ctx->be->random(q->q, &r);
  if (s == GPUX_SUCCESS && mean != 0.0) { /* the real parts: every second value */
    struct gpux_array re = fv;
    re.size = dst->size;
    re.shape[0] = dst->size;
    re.strides[0] = 2;
    s = gpux_binary_scalar_into(&re, GPUX_ADD, &re, mean);
  }
  if (s == GPUX_SUCCESS && tmp) s = gpux__copy_strided(out, tmp);
  gpux_array_release(tmp);
  if (s == GPUX_SUCCESS) g->st.position += words;
  return s;
}

static gpux_status draw(struct gpux_array *out, struct gpux_generator *g, int kind, const dist *d,
                        const char *fn) {
  gpux_rparams p;
  uint64_t words = 0;
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: out is NULL", fn);
  GPUX__CHECK(check_gen(g, fn));
  if (complex_normal(kind, out->dtype)) return draw_complex_normal(out, g, d, fn);
  GPUX__CHECK(plan_draw(&p, &words, kind, out->dtype, out->size, &g->st, d, fn));
  if (out->size == 0) return GPUX_SUCCESS;
  struct gpux_context *ctx = out->ctx;
  GPUX__NEED(ctx, GPUX__Q_RANDOM, kind, out->dtype, -1);
  p.n = (uint64_t)out->size;
  p.nblocks = words / 4u + (words % 4u != 0u);
  /* a strided view gets its values through a contiguous temporary */
  struct gpux_array *tmp = NULL, *dst = out;
  if (!gpux__is_contiguous(out)) {
    GPUX__CHECK(gpux__array_new(&tmp, ctx, out->dtype, out->ndim, out->shape));
    dst = tmp;
  }
  gpux__random r;
  r.kind = kind;
  r.p = p;
  struct gpux_stream *q = gpux__stream_cur(ctx);
  r.out = gpux__operand_on(q, dst);
  gpux_status s = ctx->be->random(q->q, &r);
  if (s == GPUX_SUCCESS && tmp) s = gpux__copy_strided(out, tmp);
  gpux_array_release(tmp);
  if (s == GPUX_SUCCESS) g->st.position += words;
  return s;
}

GPUX_API gpux_status gpux_random_uniform(gpux_array_t out, gpux_generator_t g, double low,
                                         double high) {
  GPUX__API_FN();
  return draw(out, g, GPUX_RK_UNIFORM, &(dist){.fa = low, .fb = high}, "gpux_random_uniform");
}
GPUX_API gpux_status gpux_random_normal(gpux_array_t out, gpux_generator_t g, double mean,
                                        double std) {
  GPUX__API_FN();
  return draw(out, g, GPUX_RK_NORMAL, &(dist){.fa = mean, .fb = std}, "gpux_random_normal");
}
GPUX_API gpux_status gpux_random_integers(gpux_array_t out, gpux_generator_t g, int64_t low,
                                          int64_t high) {
  GPUX__API_FN();
  return draw(out, g, GPUX_RK_INTEGERS, &(dist){.ia = low, .ib = high}, "gpux_random_integers");
}
GPUX_API gpux_status gpux_random_integers_u64(gpux_array_t out, gpux_generator_t g, uint64_t low,
                                              uint64_t high) {
  GPUX__API_FN();
  return draw(out, g, GPUX_RK_INTEGERS, &(dist){.ua = low, .ub = high, .closed = 1},
              "gpux_random_integers_u64");
}
GPUX_API gpux_status gpux_random_bernoulli(gpux_array_t out, gpux_generator_t g, double p) {
  GPUX__API_FN();
  return draw(out, g, GPUX_RK_BERNOULLI, &(dist){.fa = p}, "gpux_random_bernoulli");
}

/* creates the array, then draws into it (released again on failure) */
static gpux_status create_draw(gpux_array_t *out, gpux_context_t ctx, gpux_generator_t g,
                               gpux_dtype dt, int ndim, const int64_t *shape, int kind,
                               const dist *d, const char *fn) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  GPUX__CHECK(check_gen(g, fn));
  GPUX__CHECK(check_kind_dtype(kind, dt, fn));
  GPUX__CHECK(gpux__array_new(out, ctx, dt, ndim, shape));
  gpux_status s = draw(*out, g, kind, d, fn);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(*out);
    *out = NULL;
  }
  return s;
}

GPUX_API gpux_status gpux_rand(gpux_array_t *out, gpux_context_t ctx, gpux_generator_t g,
                               gpux_dtype dt, int ndim, const int64_t *shape) {
  GPUX__API_FN();
  return create_draw(out, ctx, g, dt, ndim, shape, GPUX_RK_UNIFORM, &(dist){.fa = 0.0, .fb = 1.0},
                     "gpux_rand");
}
GPUX_API gpux_status gpux_randn(gpux_array_t *out, gpux_context_t ctx, gpux_generator_t g,
                                gpux_dtype dt, int ndim, const int64_t *shape) {
  GPUX__API_FN();
  return create_draw(out, ctx, g, dt, ndim, shape, GPUX_RK_NORMAL, &(dist){.fa = 0.0, .fb = 1.0},
                     "gpux_randn");
}
GPUX_API gpux_status gpux_randint(gpux_array_t *out, gpux_context_t ctx, gpux_generator_t g,
                                  gpux_dtype dt, int ndim, const int64_t *shape, int64_t low,
                                  int64_t high) {
  GPUX__API_FN();
  return create_draw(out, ctx, g, dt, ndim, shape, GPUX_RK_INTEGERS,
                     &(dist){.ia = low, .ib = high}, "gpux_randint");
}

/* ---- host draws ---------------------------------------------------------------------------- */

/* gpux_r_blk_<kind>_<dt> for each (kind, dtype) of GPUX_RANDOM_KINDS, on the values of one
 * block as bytes */
typedef void host_blk_fn(void *v, gpux_r4 w, gpux_u64 g0, const gpux_rparams *p);
#define HOST_BLK(kind, dt)                                                                    \
  static void host_blk_##kind##_##dt(void *v, gpux_r4 w, gpux_u64 g0, const gpux_rparams *p) { \
    gpux_r_blk_##kind##_##dt(v, w, g0, p);                                                    \
  }
#define HOST_BLK_KIND(kind, id, dts) dts(HOST_BLK, kind)
GPUX_RANDOM_KINDS(HOST_BLK_KIND)
#define HOST_BLK_AT(kind, dt) [GPUX_KDT_##dt] = host_blk_##kind##_##dt,
#define HOST_BLK_ROW(kind, id, dts) [id] = {dts(HOST_BLK_AT, kind)},
static host_blk_fn *const host_blk[GPUX_RANDOM_KIND_COUNT][GPUX_KDT_COUNT] = {
    GPUX_RANDOM_KINDS(HOST_BLK_ROW)};
#undef HOST_BLK_ROW
#undef HOST_BLK_AT
#undef HOST_BLK_KIND
#undef HOST_BLK

/* values first .. first + n - 1 of the draw p describes (p.pos, p.stream, p.seed set), by
 * the relative blocks that hold them, as the kernels compute them */
static void host_values(void *dst, int kind, gpux_dtype dt, int64_t first, int64_t n,
                        const gpux_rparams *p) {
  const int64_t vpb = 4 / GPUX_R_WPV(kind, (int)dt);
  const size_t es = gpux_dtype_size(dt);
  const int sh = (int)(p->pos & 3u);
  host_blk_fn *const blk = host_blk[kind][dt];
  unsigned char *o = (unsigned char *)dst;
  int64_t i = first;
  while (i < first + n) {
    const uint64_t j = (uint64_t)(i / vpb);
    const gpux_r4 w = gpux_r_words4((p->pos >> 2) + j, sh, p->stream, p->seed);
    union { /* one block's values: 16 bytes at the most, aligned for every dtype */
      double f64[2];
      uint64_t u64[2];
      unsigned char b[16];
    } v;
    blk(&v, w, p->pos + 4u * j, p);
    for (int64_t k = i % vpb; k < vpb && i < first + n; ++k, ++i)
      memcpy(o + (size_t)(i - first) * es, v.b + (size_t)k * es, es);
  }
}

static gpux_status host_draw(void *dst, gpux_dtype dt, int64_t first, int64_t n,
                             const gpux_rng_state *st, int kind, const dist *d, const char *fn) {
  gpux_rparams p;
  uint64_t words = 0;
  if (!dst && n > 0) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: dst is NULL", fn);
  GPUX__CHECK(check_state(st, fn));
  GPUX__CHECK(check_kind_dtype(kind, dt, fn));
  if (first < 0 || n < 0 || n > INT64_MAX - first)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "%s: first = %lld, n = %lld", fn,
                           (long long)first, (long long)n);
  if (complex_normal(kind, dt)) { /* values 2 first .. of the component draw, see above */
    const gpux_dtype c = comp_dtype(dt);
    dist cd;
    double mean = 0.0;
    GPUX__CHECK(complex_normal_dist(&cd, &mean, dt, d, fn));
    if (first + n > INT64_MAX / 2)
      return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "%s: first + n = %lld", fn,
                             (long long)(first + n));
    GPUX__CHECK(plan_draw(&p, &words, kind, c, 2 * (first + n), st, &cd, fn));
    p.n = 2u * (uint64_t)n;
    host_values(dst, kind, c, 2 * first, 2 * n, &p);
    if (mean != 0.0)
      for (int64_t i = 0; i < n; i++) {
        if (c == GPUX_FLOAT32) { /* a float32 add, correctly rounded */
          float *v = (float *)dst + 2 * i;
          *v = *v + (float)mean;
        } else {
          double *v = (double *)dst + 2 * i;
          *v = *v + mean;
        }
      }
    return GPUX_SUCCESS;
  }
  /* the words of values 0 .. first + n - 1 must exist */
  GPUX__CHECK(plan_draw(&p, &words, kind, dt, first + n, st, d, fn));
  p.n = (uint64_t)n;
  host_values(dst, kind, dt, first, n, &p);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_random_uniform_host(void *dst, gpux_dtype dt, int64_t first,
                                              int64_t n, const gpux_rng_state *state,
                                              double low, double high) {
  GPUX__API_FN();
  return host_draw(dst, dt, first, n, state, GPUX_RK_UNIFORM, &(dist){.fa = low, .fb = high},
                   "gpux_random_uniform_host");
}
GPUX_API gpux_status gpux_random_normal_host(void *dst, gpux_dtype dt, int64_t first, int64_t n,
                                             const gpux_rng_state *state, double mean,
                                             double std) {
  GPUX__API_FN();
  return host_draw(dst, dt, first, n, state, GPUX_RK_NORMAL, &(dist){.fa = mean, .fb = std},
                   "gpux_random_normal_host");
}
GPUX_API gpux_status gpux_random_integers_host(void *dst, gpux_dtype dt, int64_t first,
                                               int64_t n, const gpux_rng_state *state,
                                               int64_t low, int64_t high) {
  GPUX__API_FN();
  return host_draw(dst, dt, first, n, state, GPUX_RK_INTEGERS, &(dist){.ia = low, .ib = high},
                   "gpux_random_integers_host");
}
GPUX_API gpux_status gpux_random_integers_u64_host(uint64_t *dst, int64_t first, int64_t n,
                                                   const gpux_rng_state *state, uint64_t low,
                                                   uint64_t high) {
  GPUX__API_FN();
  return host_draw(dst, GPUX_UINT64, first, n, state, GPUX_RK_INTEGERS,
                   &(dist){.ua = low, .ub = high, .closed = 1}, "gpux_random_integers_u64_host");
}
GPUX_API gpux_status gpux_random_bernoulli_host(uint8_t *dst, int64_t first, int64_t n,
                                                const gpux_rng_state *state, double p) {
  GPUX__API_FN();
  return host_draw(dst, GPUX_BOOL, first, n, state, GPUX_RK_BERNOULLI, &(dist){.fa = p},
                   "gpux_random_bernoulli_host");
}

/* ---- split and permutation (host words) ---------------------------------------------------- */

GPUX_API gpux_status gpux_generator_split(gpux_generator_t *children, int n, gpux_generator_t g) {
  GPUX__API_FN();
  if (!children) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "gpux_generator_split: children is NULL");
  GPUX__CHECK(check_gen(g, "gpux_generator_split"));
  if (n < 1) return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "gpux_generator_split: n = %d", n);
  GPUX__CHECK(check_room(2u * (uint64_t)n, g->st.position, "gpux_generator_split"));
  for (int i = 0; i < n; ++i) {
    children[i] = calloc(1, sizeof *children[i]);
    if (!children[i]) {
      while (i-- > 0) {
        free(children[i]);
        children[i] = NULL;
      }
      return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_generator_split: %d generators", n);
    }
  }
  for (int i = 0; i < n; ++i) {
    const uint64_t at = g->st.position + 2u * (uint64_t)i;
    const gpux_r4 w = gpux_r_words4(at >> 2, (int)(at & 3u), g->st.stream, g->st.seed);
    children[i]->st.seed = g->st.seed;
    children[i]->st.stream = ((uint64_t)w.x | (uint64_t)w.y << 32) & (STREAM_LIMIT - 1u);
    children[i]->st.position = 0;
  }
  g->st.position += 2u * (uint64_t)n;
  return GPUX_SUCCESS;
}

/* Fisher-Yates: for k = 0 .. n-2, swap element n-1-k with element j, j drawn uniformly from
 * [0, n-k) as an int64 integers value (4 words, value k of the draw). */
GPUX_API gpux_status gpux_random_permutation(gpux_array_t *out, gpux_context_t ctx,
                                             gpux_generator_t g, int64_t n) {
  GPUX__API_FN();
  static const char fn[] = "gpux_random_permutation";
  uint64_t words = 0;
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  GPUX__CHECK(check_gen(g, fn));
  if (n < 0) return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "%s: n = %lld is negative", fn, (long long)n);
  if ((uint64_t)n > SIZE_MAX / sizeof(int64_t))
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "%s: n = %lld", fn, (long long)n);
  GPUX__CHECK(draw_words(&words, GPUX_RK_INTEGERS, GPUX_INT64, n > 1 ? n - 1 : 0));
  GPUX__CHECK(check_room(words, g->st.position, fn));
  int64_t *perm = malloc((size_t)(n > 0 ? n : 1) * sizeof *perm);
  if (!perm) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "%s: %lld indices", fn, (long long)n);
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  for (int64_t k = 0; k + 1 < n; ++k) {
    gpux_rparams p;
    int64_t j;
    const uint64_t at = g->st.position + 4u * (uint64_t)k;
    (void)make_params(&p, GPUX_RK_INTEGERS, GPUX_INT64, &(dist){.ia = 0, .ib = n - k}, fn);
    p.stream = g->st.stream;
    p.seed = g->st.seed;
    j = (int64_t)gpux_r_int64(gpux_r_words4(at >> 2, (int)(at & 3u), p.stream, p.seed), at, &p);
    const int64_t t = perm[n - 1 - k];
    perm[n - 1 - k] = perm[j];
    perm[j] = t;
  }
  gpux_status s = gpux_array_from_host(out, ctx, GPUX_INT64, 1, &n, perm);
  free(perm);
  if (s == GPUX_SUCCESS) g->st.position += words;
  return s;
}
