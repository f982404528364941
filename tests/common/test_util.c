/* gpux tests: shared helpers (see test_util.h). */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "test_util.h"

#include <dlfcn.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gpux_kernels.h"
#include "ref_complex_ew.h"

gpux_context_t gt_ctx = NULL;
gpux_device_info gt_info;

/* ------------------------------------------------------------------ set-up */

void gt_init(const char *binary) {
  const char *env = getenv("GPUX_BACKEND");
  gpux_status s = gpux_context_create(&gt_ctx, GPUX_BACKEND_DEFAULT, -1);
  if (s == GPUX_ERROR_BACKEND_UNAVAILABLE || s == GPUX_ERROR_NO_DEVICE) {
    printf("%s: SKIP: backend '%s' not usable here: %s: %s\n", binary, env ? env : "(auto)",
           gpux_status_name(s), gpux_last_error_message());
    fflush(stdout);
    exit(GT_EXIT_SKIP);
  }
  if (s != GPUX_SUCCESS) {
    fprintf(stderr, "%s: gpux_context_create(GPUX_BACKEND_DEFAULT) failed: %s: %s\n", binary,
            gpux_status_name(s), gpux_last_error_message());
    exit(1);
  }
  s = gpux_context_device_info(&gt_info, gt_ctx);
  if (s != GPUX_SUCCESS) {
    fprintf(stderr, "%s: gpux_context_device_info failed: %s: %s\n", binary,
            gpux_status_name(s), gpux_last_error_message());
    exit(1);
  }
  printf("%s: backend %s, device %d: %s (%s, %s), %.1f GiB, fp64 %d, gpu %d\n", binary,
         gpux_backend_name(gt_info.backend), gt_info.index, gt_info.name, gt_info.platform,
         gt_info.version, (double)gt_info.global_mem_bytes / (1024.0 * 1024.0 * 1024.0),
         gt_info.fp64, gt_info.is_gpu);
  fflush(stdout);
}

gpux_context_t gt_context_new(void) {
  gpux_context_t c = NULL;
  GT_OK(gpux_context_create(&c, gt_info.backend, gt_info.index));
  return c;
}

void gt_smoke(gpux_context_t c) {
  gpux_array_t a = NULL, b = NULL;
  float got[101];
  GT_OK(gpux_array_arange(&a, c, GPUX_FLOAT32, 0, 101, 1));
  GT_OK(gpux_binary_scalar(&b, GPUX_MUL, a, 3.0));
  GT_OK(gpux_binary_into(b, GPUX_ADD, b, a));
  GT_OK(gpux_array_read(b, got, sizeof got));
  for (int i = 0; i < 101; i++)
    GT_ASSERT(got[i] == 4.0f * (float)i, "smoke test: [%d] = %g, expected %g", i, got[i], 4.0 * i);
  gpux_array_release(a);
  gpux_array_release(b);
}

typedef struct cached_input {
  struct cached_input *next;
  gpux_dtype dt;
  int64_t n;
  gt_domain dom;
  uint64_t seed;
  void *buf;
} cached_input;
static cached_input *g_cache = NULL;

int gt_run(const char *group, const struct CMUnitTest *tests, size_t n) {
  /* GPUX_TEST_FILTER=pattern runs the matching tests only (cmocka's * and ? wildcards) */
  const char *filter = getenv("GPUX_TEST_FILTER");
  if (filter && *filter) cmocka_set_test_filter(filter);
  return _cmocka_run_group_tests(group, tests, n, NULL, NULL);
}

void gt_shutdown(void) {
  while (g_cache) {
    cached_input *c = g_cache;
    g_cache = c->next;
    free(c->buf);
    free(c);
  }
  gpux_context_release(gt_ctx);
  gt_ctx = NULL;
}

int gt_dtype_available(gpux_dtype dt) {
  return (dt != GPUX_FLOAT64 && dt != GPUX_COMPLEX128) || gt_info.fp64;
}

/* names for messages, from the records of kernels/common/gpux_kernels.h */
const char *gt_dtype_str(gpux_dtype dt) {
  static const char *const names[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_NAME_INIT)};
  return (unsigned)dt < GPUX_KDT_COUNT ? names[dt] : "?";
}

#define GT_OP_NAME(op, id, dts, res) [id] = #op,
const char *gt_binary_str(gpux_binary_op op) {
  static const char *const names[GPUX_BINARY_OP_COUNT] = {GPUX_BINARY_OPS(GT_OP_NAME)};
  return (unsigned)op < GPUX_BINARY_OP_COUNT ? names[op] : "?";
}

const char *gt_unary_str(gpux_unary_op op) {
  static const char *const names[GPUX_UNARY_OP_COUNT] = {GPUX_UNARY_OPS(GT_OP_NAME)};
  return (unsigned)op < GPUX_UNARY_OP_COUNT ? names[op] : "?";
}
#undef GT_OP_NAME

const char *gt_layout_str(gt_layout l) {
  switch (l) {
    case GT_CONTIG: return "contiguous";
    case GT_STRIDED: return "strided";
    case GT_REVERSED: return "reversed";
  }
  return "?";
}

const char *gt_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape) {
  size_t len = 0;
  len += (size_t)snprintf(buf + len, cap - len, "(");
  for (int d = 0; d < ndim && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%" PRId64, d ? ", " : "", shape[d]);
  if (len < cap) snprintf(buf + len, cap - len, ")");
  return buf;
}

/* ------------------------------------------------------------------ checks */

void gt_failf(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint_error(fmt, ap);
  va_end(ap);
  print_error("\n");
  _fail(file, line);
}

void gt_check_ok(gpux_status s, const char *expr, const char *file, int line) {
  if (s != GPUX_SUCCESS)
    gt_failf(file, line, "%s returned %s (%d): %s", expr, gpux_status_name(s), (int)s,
             gpux_last_error_message());
}

void gt_check_ok_clean(gpux_status s, const char *expr, const char *file, int line) {
  gt_check_ok(s, expr, file, line);
  /* GT_OK cleared the message before the call: a call that succeeds leaves none behind */
  const char *m = gpux_last_error_message();
  if (m && m[0]) gt_failf(file, line, "%s succeeded but left an error message: %s", expr, m);
}

/* An error message starts with the public function that failed ("gpux_matmul: ..."): the one
 * expr calls when libgpux exports it, else (a wrapper inline in a header, such as gpux_add)
 * the public function it calls. */
static void check_msg_names_function(const char *expr, const char *m, const char *file, int line) {
  char fn[128];
  size_t n = 0;
  while (n + 1 < sizeof fn && (isalnum((unsigned char)expr[n]) || expr[n] == '_')) {
    fn[n] = expr[n];
    n++;
  }
  fn[n] = '\0';
  if (strncmp(fn, "gpux_", 5) != 0 || expr[n] != '(') return; /* not a plain call */
  if (dlsym(RTLD_DEFAULT, fn)) {
    if (strncmp(m, fn, n) != 0 || m[n] != ':')
      gt_failf(file, line, "%s: the message does not start with \"%s: \": %s", expr, fn, m);
    return;
  }
  size_t k = 0;
  while (isalnum((unsigned char)m[k]) || m[k] == '_') k++;
  if (strncmp(m, "gpux_", 5) != 0 || m[k] != ':')
    gt_failf(file, line, "%s: the message does not start with a gpux function's name: %s", expr, m);
}

void gt_check_status(gpux_status want, gpux_status got, const char *expr, const char *file,
                     int line) {
  if (got != want)
    gt_failf(file, line, "%s returned %s (%d), expected %s (%d); message: %s", expr,
             gpux_status_name(got), (int)got, gpux_status_name(want), (int)want,
             gpux_last_error_message());
  if (want != GPUX_SUCCESS) {
    const char *m = gpux_last_error_message();
    if (!m || !m[0]) gt_failf(file, line, "%s: %s but the error message is empty", expr,
                              gpux_status_name(got));
    check_msg_names_function(expr, m, file, line);
  }
}

void *gt_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) gt_failf(__FILE__, __LINE__, "out of host memory (%zu bytes)", bytes);
  return p;
}

/* ------------------------------------------------------------------ random */

void gt_rng_seed(gt_rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 12345; }

uint64_t gt_rng_u64(gt_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double gt_rng_unit(gt_rng *r) { return (double)(gt_rng_u64(r) >> 11) * 0x1.0p-53; }

double gt_rng_uniform(gt_rng *r, double lo, double hi) {
  return lo + (hi - lo) * gt_rng_unit(r);
}

int64_t gt_rng_int(gt_rng *r, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
  if (span == 0) return (int64_t)gt_rng_u64(r);
  return (int64_t)((uint64_t)lo + gt_rng_u64(r) % span);
}

static double rand_float(gt_rng *r, gt_domain dom) {
  unsigned k = (unsigned)(gt_rng_u64(r) & 7);
  double sgn = (k & 1) ? -1.0 : 1.0;
  switch (dom) {
    case GT_DOM_ANY:
      if (k < 4) return gt_rng_uniform(r, -10, 10);
      if (k < 6) return gt_rng_uniform(r, -1000, 1000);
      return sgn * gt_rng_uniform(r, 1e-3, 1);
    case GT_DOM_POS:
      if (k < 3) return gt_rng_uniform(r, 1e-3, 1);
      if (k < 6) return gt_rng_uniform(r, 1, 10);
      return gt_rng_uniform(r, 10, 1000);
    case GT_DOM_LOG1P:
      if (k < 3) return gt_rng_uniform(r, -0.99, 0);
      if (k < 6) return gt_rng_uniform(r, 0, 10);
      return sgn * gt_rng_uniform(r, 1e-7, 1e-3);
    case GT_DOM_EXP:
      if (k < 6) return gt_rng_uniform(r, -20, 20);
      return sgn * gt_rng_uniform(r, 1e-6, 1e-2);
    case GT_DOM_TRIG: return gt_rng_uniform(r, -10, 10);
    case GT_DOM_TAN: return gt_rng_uniform(r, -1.4, 1.4);
    case GT_DOM_SIGMOID: return gt_rng_uniform(r, -30, 30);
    case GT_DOM_ROUND:
      if (k < 3) return (double)gt_rng_int(r, -200, 200) / 2.0;
      if (k < 4) return (double)gt_rng_int(r, -100, 100);
      if (k < 6) return gt_rng_uniform(r, -100, 100);
      return gt_rng_uniform(r, -1, 1);
    case GT_DOM_POW_BASE:
      if (k < 4) return gt_rng_uniform(r, 0.1, 1);
      return gt_rng_uniform(r, 1, 10);
    case GT_DOM_POW_EXP:
      if (k < 2) return (double)gt_rng_int(r, -4, 4);
      return gt_rng_uniform(r, -4, 4);
    case GT_DOM_SMALLINT:
      if (k < 5) return (double)gt_rng_int(r, -8, 8);
      return gt_rng_uniform(r, -10, 10);
  }
  return 1.0;
}

static int64_t rand_int(gt_rng *r, gpux_dtype dt, gt_domain dom) {
  unsigned k = (unsigned)(gt_rng_u64(r) & 7);
  if (dt == GPUX_BOOL) return (int64_t)(gt_rng_u64(r) & 1);
  int64_t mn = ref_int_min(dt), mx = ref_int_max(dt);
  if (mn == 0) { /* unsigned: any value (ref_wrap of 64 random bits), the edges, the middle */
    const uint64_t umx = (uint64_t)mx; /* uint64: all ones */
    switch (dom) {
      case GT_DOM_POW_BASE: return k < 5 ? gt_rng_int(r, 0, 5) : ref_wrap(dt, gt_rng_u64(r));
      case GT_DOM_POW_EXP: return k < 5 ? gt_rng_int(r, 0, 9) : ref_wrap(dt, gt_rng_u64(r));
      case GT_DOM_SMALLINT: return gt_rng_int(r, 0, 16);
      default:
        if (k < 4) return ref_wrap(dt, gt_rng_u64(r));
        if (k < 5) return gt_rng_int(r, 0, 2);
        if (k < 6) return ref_wrap(dt, umx - (uint64_t)gt_rng_int(r, 0, 2));
        if (k < 7) return gt_rng_int(r, 0, 20);
        return ref_wrap(dt, (umx >> 1) + (uint64_t)gt_rng_int(r, 0, 1));
    }
  }
  switch (dom) {
    case GT_DOM_POW_BASE:
      if (k < 4) return gt_rng_int(r, -5, 5);
      if (k < 5) return (gt_rng_u64(r) & 1) ? 1 : -1;
      if (k < 6) return ref_wrap(dt, gt_rng_u64(r));
      if (k < 7) return ref_wrap(dt, (uint64_t)gt_rng_int(r, -1000, 1000));
      return (gt_rng_u64(r) & 1) ? mn : mx;
    case GT_DOM_POW_EXP:
      if (k < 4) return gt_rng_int(r, 0, 70);
      if (k < 5) return gt_rng_int(r, -3, -1);
      if (k < 6) return gt_rng_int(r, 0, mx);
      if (k < 7) return gt_rng_int(r, 0, 2);
      return gt_rng_int(r, 0, 10);
    case GT_DOM_SMALLINT: return gt_rng_int(r, -8, 8);
    default:
      if (k < 2) return gt_rng_int(r, -20, 20);
      if (k < 3) return mn + gt_rng_int(r, 0, 3);
      if (k < 4) return mx - gt_rng_int(r, 0, 3);
      if (k < 6) return ref_wrap(dt, gt_rng_u64(r));
      if (k < 7) return ref_wrap(dt, (uint64_t)gt_rng_int(r, -100000, 100000));
      return gt_rng_int(r, -1, 1);
  }
}

/* the component dtype of a complex dtype (float32, float64); dt itself otherwise */
static gpux_dtype comp_dtype(gpux_dtype dt) {
  return dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : dt == GPUX_COMPLEX128 ? GPUX_FLOAT64 : dt;
}

void gt_fill_random(void *buf, gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed) {
  if (comp_dtype(dt) != dt) { /* complex: both parts from the component's domain */
    gt_fill_random(buf, comp_dtype(dt), 2 * n, dom, seed);
    return;
  }
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int64_t i = 0; i < n; i++) {
    ref_value v;
    if (ref_dtype_is_float(dt)) v.f = rand_float(&r, dom);
    else v.i = rand_int(&r, dt, dom);
    ref_store(dt, buf, i, v);
  }
}

const void *gt_random_cached(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed) {
  cached_input **link = &g_cache;
  int count = 0;
  for (cached_input *c = g_cache; c; link = &c->next, c = c->next, count++)
    if (c->dt == dt && c->n == n && c->dom == dom && c->seed == seed) {
      *link = c->next; /* most recently used first */
      c->next = g_cache;
      g_cache = c;
      return c->buf;
    }
  if (count >= 8) { /* drop the least recently used (never one of the last 8 asked for) */
    cached_input **l = &g_cache;
    while ((*l)->next) l = &(*l)->next;
    free((*l)->buf);
    free(*l);
    *l = NULL;
  }
  cached_input *c = gt_malloc(sizeof *c);
  c->dt = dt;
  c->n = n;
  c->dom = dom;
  c->seed = seed;
  c->buf = gt_malloc((size_t)n * ref_dtype_size(dt));
  gt_fill_random(c->buf, dt, n, dom, seed);
  c->next = g_cache;
  g_cache = c;
  return c->buf;
}

gt_domain gt_binary_domain(gpux_binary_op op, gpux_dtype dt, int operand) {
  if (op == GPUX_POW) return operand == 0 ? GT_DOM_POW_BASE : GT_DOM_POW_EXP;
  /* shift counts: 0 .. 70 with some negative and some huge (in and out of [0, width)) */
  if ((op == GPUX_LEFT_SHIFT || op == GPUX_RIGHT_SHIFT) && operand == 1) return GT_DOM_POW_EXP;
  if (ref_dtype_is_float(dt) && (op >= GPUX_EQ || op == GPUX_MINIMUM || op == GPUX_MAXIMUM))
    return GT_DOM_SMALLINT; /* ties and zeros; SMALLINT also yields fractions */
  return GT_DOM_ANY;
}

gt_domain gt_unary_domain(gpux_unary_op op, gpux_dtype dt) {
  if (!ref_dtype_is_float(dt)) return GT_DOM_ANY;
  switch (op) {
    case GPUX_EXP:
    case GPUX_EXPM1: return GT_DOM_EXP;
    case GPUX_LOG:
    case GPUX_SQRT:
    case GPUX_RSQRT: return GT_DOM_POS;
    case GPUX_LOG1P: return GT_DOM_LOG1P;
    case GPUX_SIN:
    case GPUX_COS: return GT_DOM_TRIG;
    case GPUX_TAN: return GT_DOM_TAN;
    case GPUX_TANH:
    case GPUX_SIGMOID: return GT_DOM_SIGMOID;
    case GPUX_FLOOR:
    case GPUX_CEIL:
    case GPUX_ROUND: return GT_DOM_ROUND;
    case GPUX_SIGN:
    case GPUX_RELU:
    case GPUX_LOGICAL_NOT: return GT_DOM_SMALLINT;
    default: return GT_DOM_ANY;
  }
}

void *gt_random_with_specials(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed,
                              uint64_t sp_seed, int one_in) {
  const size_t es = gpux_dtype_size(dt);
  unsigned char *b = gt_malloc((size_t)(n ? n : 1) * es);
  gt_fill_random(b, dt, n, dom, seed);
  unsigned char sp[64 * 16];
  const int64_t ns = gt_special_values(sp, dt, 64);
  gt_rng r;
  gt_rng_seed(&r, sp_seed);
  for (int64_t i = 0; i < n && ns > 0; i++)
    if (gt_rng_int(&r, 0, one_in - 1) == 0)
      memcpy(b + i * es, sp + gt_rng_int(&r, 0, ns - 1) * es, es);
  return b;
}

int64_t gt_special_values(void *buf, gpux_dtype dt, int64_t cap) {
  if (comp_dtype(dt) != dt) { /* complex: the component's specials, paired two ways */
    const gpux_dtype c = comp_dtype(dt);
    const size_t cs = ref_dtype_size(c);
    unsigned char sv[32 * 8];
    const int64_t ns = gt_special_values(sv, c, 32);
    const int64_t n = cap < 2 * ns ? cap : 2 * ns;
    for (int64_t i = 0; i < n; i++) {
      const int64_t re = i % ns, im = i < ns ? (i * 5 + 3) % ns : i % ns;
      memcpy((unsigned char *)buf + (size_t)i * 2 * cs, sv + (size_t)re * cs, cs);
      memcpy((unsigned char *)buf + (size_t)i * 2 * cs + cs, sv + (size_t)im * cs, cs);
    }
    return n;
  }
  ref_value v[32];
  int64_t n = 0;
  if (ref_dtype_is_float(dt)) {
    static const double f[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5,
                               1.5, 2.5, -2.5, 3.0, 100.0, -100.0, 1e30, -1e30};
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) v[n++].f = f[k];
    /* the half dtypes' edges: the largest finite value, the smallest normal and subnormal
     * ones, the largest subnormal */
    static const double h16[] = {65504.0, -65504.0, 0x1p-14, 0x1p-24, -0x1p-24, 0x1p-14 - 0x1p-24};
    static const double hbf[] = {0x1.fep127, -0x1.fep127, 0x1p-126, 0x1p-133, -0x1p-133,
                                 0x1p-126 - 0x1p-133};
    for (size_t k = 0; ref_dtype_is_half(dt) && k < 6; k++)
      v[n++].f = dt == GPUX_FLOAT16 ? h16[k] : hbf[k];
  } else if (dt == GPUX_BOOL) {
    v[n++].i = 0;
    v[n++].i = 1;
  } else {
    /* small values, shift counts at the width, the edges of the dtype and of the narrower
     * integers (casts), wrapped into the dtype (duplicates are harmless) */
    const uint64_t mn = (uint64_t)ref_int_min(dt), mx = (uint64_t)ref_int_max(dt);
    const uint64_t bits = 8 * (uint64_t)ref_dtype_size(dt) - (ref_int_min(dt) < 0);
    /* two's complement bits (uint64: no signed overflow at the edges) */
    const uint64_t s[] = {0,     1,     (uint64_t)-1,   2,     (uint64_t)-2,     3,
                          (uint64_t)-3, 7, (uint64_t)-7, bits, bits + 1,       mn,
                          mn + 1, mx,   mx - 1,         127,   128,              (uint64_t)-128,
                          (uint64_t)-129, 255, 256,     32767, 32768,            (uint64_t)-32769,
                          65535, 65536, mx >> 1,        (mx >> 1) + 1};
    for (size_t k = 0; k < sizeof s / sizeof s[0]; k++) v[n++].i = ref_wrap(dt, s[k]);
  }
  if (n > cap) n = cap;
  for (int64_t i = 0; i < n; i++) ref_store(dt, buf, i, v[i]);
  return n;
}

/* ------------------------------------------------------------------ poison */

void gt_poison_host(void *buf, size_t bytes) { memset(buf, GT_POISON_BYTE, bytes); }

gpux_array_t gt_poisoned(gpux_dtype dt, int ndim, const int64_t *shape) {
  gpux_array_t a = NULL;
  GT_OK(gpux_array_empty(&a, gt_ctx, dt, ndim, shape));
  size_t bytes = (size_t)ref_shape_size(ndim, shape) * ref_dtype_size(dt);
  void *p = gt_malloc(bytes);
  gt_poison_host(p, bytes);
  GT_OK(gpux_array_write(a, p, bytes));
  free(p);
  return a;
}

/* ------------------------------------------------------------------ views */

void gt_view_make(gt_view *v, gpux_dtype dt, int ndim, const int64_t *shape, gt_layout lay,
                  const void *data) {
  memset(v, 0, sizeof *v);
  v->dt = dt;
  v->layout = lay;
  v->ndim = ndim;
  for (int d = 0; d < ndim; d++) {
    v->shape[d] = shape[d];
    v->base_shape[d] = lay == GT_STRIDED ? 2 * shape[d] + 1 : shape[d];
  }
  v->n = ref_shape_size(ndim, shape);
  v->base_n = ref_shape_size(ndim, v->base_shape);
  size_t es = ref_dtype_size(dt);
  if (lay == GT_CONTIG) {
    /* identity map (map stays NULL) */
    if (data) {
      GT_OK(gpux_array_from_host(&v->base, gt_ctx, dt, ndim, shape, data));
    } else {
      v->base = gt_poisoned(dt, ndim, shape);
    }
    v->view = v->base;
    gt_check_shape(v->view, dt, ndim, shape, "gt_view_make");
    return;
  }
  /* map[i]: base element of logical element i, walked like an odometer */
  int64_t bstr[GPUX_MAX_DIMS], step[GPUX_MAX_DIMS], idx[GPUX_MAX_DIMS] = {0}, pos = 0;
  ref_row_major_strides(ndim, v->base_shape, bstr);
  for (int d = 0; d < ndim; d++) {
    if (lay == GT_STRIDED) {
      step[d] = (d % 2 == 0) ? 2 * bstr[d] : -2 * bstr[d];
      pos += ((d % 2 == 0) ? 1 : 2 * shape[d]) * bstr[d];
    } else {
      step[d] = -bstr[d];
      pos += (shape[d] - 1) * bstr[d];
    }
  }
  v->map = gt_malloc((size_t)v->n * sizeof(int64_t));
  for (int64_t i = 0; i < v->n; i++) {
    v->map[i] = pos;
    for (int d = ndim - 1; d >= 0; d--) {
      idx[d]++;
      pos += step[d];
      if (idx[d] < shape[d]) break;
      pos -= step[d] * shape[d];
      idx[d] = 0;
    }
  }
  char *host = gt_malloc((size_t)v->base_n * es);
  gt_poison_host(host, (size_t)v->base_n * es);
  if (data)
    for (int64_t i = 0; i < v->n; i++)
      memcpy(host + (size_t)v->map[i] * es, (const char *)data + (size_t)i * es, es);
  GT_OK(gpux_array_from_host(&v->base, gt_ctx, dt, ndim, v->base_shape, host));
  free(host);
  int64_t start[GPUX_MAX_DIMS], stop[GPUX_MAX_DIMS], stp[GPUX_MAX_DIMS];
  for (int d = 0; d < ndim; d++) {
    if (lay == GT_STRIDED) {
      if (d % 2 == 0) {
        start[d] = 1;
        stop[d] = 2 * shape[d] + 1;
        stp[d] = 2;
      } else {
        start[d] = 2 * shape[d];
        stop[d] = 1;
        stp[d] = -2;
      }
    } else {
      start[d] = -1;
      stop[d] = -(shape[d] + 1);
      stp[d] = -1;
    }
  }
  GT_OK(gpux_array_slice(&v->view, v->base, start, stop, stp));
  gt_check_shape(v->view, dt, ndim, shape, "gt_view_make");
}

void gt_view_read(const gt_view *v, void *out, const char *label) {
  size_t es = ref_dtype_size(v->dt);
  if (!v->map) {
    GT_OK(gpux_array_read(v->base, out, (size_t)v->n * es));
    return;
  }
  char *host = gt_malloc((size_t)v->base_n * es);
  GT_OK(gpux_array_read(v->base, host, (size_t)v->base_n * es));
  if (v->base_n != v->n) {
    char *inview = gt_malloc((size_t)v->base_n);
    memset(inview, 0, (size_t)v->base_n);
    for (int64_t i = 0; i < v->n; i++) inview[v->map[i]] = 1;
    int64_t bad = 0, first = -1;
    for (int64_t j = 0; j < v->base_n; j++) {
      if (inview[j]) continue;
      for (size_t b = 0; b < es; b++)
        if ((unsigned char)host[(size_t)j * es + b] != GT_POISON_BYTE) {
          if (first < 0) first = j;
          bad++;
          break;
        }
    }
    free(inview);
    if (bad) {
      free(host);
      GT_FAIL("%s: %" PRId64 " element(s) outside the output view were written (first: base "
              "element %" PRId64 ")", label, bad, first);
    }
  }
  for (int64_t i = 0; i < v->n; i++)
    memcpy((char *)out + (size_t)i * es, host + (size_t)v->map[i] * es, es);
  free(host);
}

void gt_view_free(gt_view *v) {
  if (v->view != v->base) gpux_array_release(v->view);
  gpux_array_release(v->base);
  free(v->map);
  memset(v, 0, sizeof *v);
}

/* ------------------------------------------------------------------ tolerances */

/* The one tolerance table of the suite. |got - want| <= rel * |want| + abs.
 *   class    float32                    float64                   why
 *   EXACT    0                          0                         integer, bool, comparisons,
 *                                                                 min/max, casts, copies,
 *                                                                 sign/abs/floor/ceil/round
 *   ARITH    rel 2.4e-7 (2 ulp)         rel 4.5e-16 (2 ulp)       add, sub, mul
 *   DIV      rel 3.6e-7 (3 ulp)         rel 4.5e-16 (2 ulp)       div, mod (OpenCL allows 2.5 ulp
 *                                                                 for float32 division)
 *   SQRT     rel 4.8e-7 (4 ulp)         rel 6.7e-16 (3 ulp)       sqrt, rsqrt
 *   TRANSC   rel 4e-6 + abs 1e-6        rel 8e-15 + abs 1e-15     exp, log, log1p, expm1, sin,
 *                                                                 cos, tan, tanh, sigmoid, pow
 *                                                                 (OpenCL: pow <= 16 ulp)
 *   RANGE    rel 2.4e-7                 rel 4.5e-16               arange/linspace; the caller
 *                                                                 adds abs = rel * max(|start|,
 *                                                                 |stop|)
 * ARITH/DIV/SQRT also allow abs = FLT_MIN / DBL_MIN (flush of subnormals to zero). */
gt_tol gt_tolerance(gpux_dtype rdt, gt_opclass c) {
  gt_tol t = {0, 0};
  int f32 = rdt == GPUX_FLOAT32;
  if (!ref_dtype_is_float(rdt)) return t;
  if (ref_dtype_is_half(rdt)) {
    /* float32's op, rounded once: add, sub, mul exact (the double rounding is harmless);
     * div, sqrt and the float32 functions one unit of the dtype's last place (a float32
     * result within a few float32 ulps of a tie between two half values), relative to the
     * value (2^-10, 2^-7), and the least subnormal below that */
    const int f16 = rdt == GPUX_FLOAT16;
    if (c == GT_OPC_EXACT || c == GT_OPC_ARITH) return t;
    t.rel = f16 ? 0x1p-10 : 0x1p-7;
    t.abs = f16 ? 0x1p-24 : 0x1p-133;
    return t;
  }
  switch (c) {
    case GT_OPC_EXACT: break;
    case GT_OPC_ARITH:
      t.rel = f32 ? 2.4e-7 : 4.5e-16;
      t.abs = f32 ? FLT_MIN : DBL_MIN;
      break;
    case GT_OPC_DIV:
      t.rel = f32 ? 3.6e-7 : 4.5e-16;
      t.abs = f32 ? FLT_MIN : DBL_MIN;
      break;
    case GT_OPC_SQRT:
      t.rel = f32 ? 4.8e-7 : 6.7e-16;
      t.abs = f32 ? FLT_MIN : DBL_MIN;
      break;
    case GT_OPC_TRANSC:
      t.rel = f32 ? 4e-6 : 8e-15;
      t.abs = f32 ? 1e-6 : 1e-15;
      break;
    case GT_OPC_RANGE: t.rel = f32 ? 2.4e-7 : 4.5e-16; break;
  }
  return t;
}

gt_opclass gt_binary_class(gpux_binary_op op, gpux_dtype dt) {
  if (!ref_dtype_is_float(dt) || op >= GPUX_EQ) return GT_OPC_EXACT;
  switch (op) {
    case GPUX_ADD:
    case GPUX_SUB:
    case GPUX_MUL: return GT_OPC_ARITH;
    case GPUX_DIV:
    case GPUX_MOD: return GT_OPC_DIV;
    case GPUX_POW: return GT_OPC_TRANSC;
    default: return GT_OPC_EXACT;
  }
}

gt_opclass gt_unary_class(gpux_unary_op op, gpux_dtype dt) {
  if (!ref_dtype_is_float(dt)) return GT_OPC_EXACT;
  switch (op) {
    case GPUX_NEG:
    case GPUX_ABS:
    case GPUX_SIGN:
    case GPUX_RELU:
    case GPUX_FLOOR:
    case GPUX_CEIL:
    case GPUX_ROUND:
    case GPUX_LOGICAL_NOT:
    case GPUX_CONJ: /* on real dtypes: a copy, zeros, 0 or pi */
    case GPUX_REAL:
    case GPUX_IMAG:
    case GPUX_ANGLE: return GT_OPC_EXACT;
    case GPUX_SQRT:
    case GPUX_RSQRT: return GT_OPC_SQRT;
    default: return GT_OPC_TRANSC;
  }
}

/* ------------------------------------------------------------------ comparison */

static void fmt_value(char *buf, size_t cap, gpux_dtype dt, const void *p, int64_t i) {
  ref_value v = ref_load(dt, p, i);
  if (dt == GPUX_FLOAT32) snprintf(buf, cap, "%.9g", v.f);
  else if (dt == GPUX_FLOAT64) snprintf(buf, cap, "%.17g", v.f);
  else if (ref_dtype_is_half(dt)) snprintf(buf, cap, "%.6g", v.f);
  else snprintf(buf, cap, "%" PRId64, v.i);
}

void gt_compare(const char *label, gpux_dtype rdt, const void *got, const ref_value *want,
                int64_t n, gt_tol tol, gpux_dtype in_dt, const void *in_a, const void *in_b) {
  int64_t bad = 0;
  int isf = ref_dtype_is_float(rdt);
  for (int64_t i = 0; i < n; i++) {
    int ok;
    ref_value g = ref_load(rdt, got, i);
    double w = 0;
    if (isf) {
      w = want[i].f;
      if (rdt != GPUX_FLOAT64) { /* the reference rounded to the result dtype */
        uint32_t t;
        ref_store(rdt, &t, 0, want[i]);
        w = ref_load(rdt, &t, 0).f;
      }
      if (isnan(w)) ok = isnan(g.f);
      else if (isinf(w)) ok = g.f == w;
      else ok = !isnan(g.f) && fabs(g.f - w) <= tol.rel * fabs(w) + tol.abs;
    } else {
      ok = g.i == want[i].i;
    }
    if (ok) continue;
    if (bad < 8) {
      char gs[48], ws[48], as[48] = "", bs[48] = "";
      fmt_value(gs, sizeof gs, rdt, got, i);
      if (isf) snprintf(ws, sizeof ws, rdt == GPUX_FLOAT32 ? "%.9g" : "%.17g", w);
      else snprintf(ws, sizeof ws, "%" PRId64, want[i].i);
      if (in_a) fmt_value(as, sizeof as, in_dt, in_a, i);
      if (in_b) fmt_value(bs, sizeof bs, in_dt, in_b, i);
      print_error("%s: [%" PRId64 "] got %s, expected %s%s%s%s%s%s (tol rel %g abs %g)\n",
                  label, i, gs, ws, in_a ? "; inputs " : "", as, in_b ? ", " : "", bs,
                  "", tol.rel, tol.abs);
    }
    bad++;
  }
  if (bad) GT_FAIL("%s: %" PRId64 " of %" PRId64 " elements differ from the reference", label,
                   bad, n);
}

void gt_release_arrays(gpux_array_t *arrays, size_t n) {
  for (size_t i = 0; i < n; i++) gpux_array_release(arrays[i]);
}

void gt_free_all(void **bufs, size_t n) {
  for (size_t i = 0; i < n; i++) free(bufs[i]);
}

void *gt_read_all(gpux_array_t a, int64_t *n_out) {
  int64_t n = 0;
  gpux_dtype dt;
  GT_OK(gpux_array_size(&n, a));
  GT_OK(gpux_array_dtype(&dt, a));
  size_t bytes = (size_t)n * ref_dtype_size(dt);
  void *p = gt_malloc(bytes);
  GT_OK(gpux_array_read(a, p, bytes));
  if (n_out) *n_out = n;
  return p;
}

void gt_check_shape(gpux_array_t a, gpux_dtype dt, int ndim, const int64_t *shape,
                    const char *label) {
  gpux_dtype gdt;
  int gnd = -1;
  int64_t gshape[GPUX_MAX_DIMS];
  GT_OK(gpux_array_dtype(&gdt, a));
  GT_OK(gpux_array_ndim(&gnd, a));
  GT_ASSERT(gdt == dt, "%s: dtype %s, expected %s", label, gt_dtype_str(gdt), gt_dtype_str(dt));
  GT_ASSERT(gnd == ndim, "%s: ndim %d, expected %d", label, gnd, ndim);
  GT_OK(gpux_array_shape(gshape, a));
  for (int d = 0; d < ndim; d++) {
    char s1[128], s2[128];
    GT_ASSERT(gshape[d] == shape[d], "%s: shape %s, expected %s", label,
              gt_shape_str(s1, sizeof s1, ndim, gshape), gt_shape_str(s2, sizeof s2, ndim, shape));
  }
}

/* ------------------------------------------------------------------ reductions and scans */

gpux_array_t gt_filled_bytes(gpux_dtype dt, int ndim, const int64_t *shape, unsigned char byte) {
  gpux_array_t a = NULL;
  GT_OK(gpux_array_empty(&a, gt_ctx, dt, ndim, shape));
  size_t bytes = (size_t)ref_shape_size(ndim, shape) * ref_dtype_size(dt);
  void *p = gt_malloc(bytes);
  memset(p, byte, bytes);
  GT_OK(gpux_array_write(a, p, bytes));
  free(p);
  return a;
}

/* The tolerance table of reductions and scans: |got - want| <= the value returned, want the
 * precise (long double, compensated) result before rounding to the result dtype.
 * u = 2^-24 (float32 results) or 2^-53 (float64), D = ref_reduce_depth(n): the rounded
 * operations on an element's path through the canonical tree (n = 2^22 + 3: 37; 4096: 24),
 * S = sum |x|, c = 1 for integer inputs of the float ops (their conversion to float64 rounds),
 * tiny = FLT_MIN / DBL_MIN (a flushed subnormal).
 *   op                 bound                                   why
 *   sum                1.01 D u S + 2u|want| + tiny            every rounding of a tree sum is
 *                                                              at most u times a partial sum
 *   mean               (1.01 D + c) u S / n + 2u|want| + tiny  the sum's bound over n
 *   norm_l1            (1.01 D + c) u S + 2u|want| + tiny      a sum of |x|
 *   prod               min(n + 1, 8 sqrt(n) + 8) u|want|+tiny  n - 1 roundings, each u (bound
 *                                                              n + 1; statistical 8 sqrt(n))
 *   var                (D + 8 + 2c) u|want| + tiny             positive terms (x - m)^2 summed:
 *                                                              relative error; the mean's
 *                                                              error enters squared
 *   std                ((D + 8 + 2c) / 2 + 2) u|want| + tiny   half of var's, plus the sqrt
 *   norm_l2            ((D + 1 + 2c) / 2 + 2) u|want| + tiny   the same for sum x^2
 *   min, max, argmin, argmax, any, all, count_nonzero, norm_max, integer sum/prod: exact
 *     (integer sums and products wrap modulo 2^64 in int64)
 *   cumsum at position p (tile t = p / 4096)
 *                      (t + 40) u S_p + 2u|want| + tiny        S_p = sum |x| up to p; the tile
 *                                                              prefixes form a serial chain
 *   cumprod at p       min(p + 2, 8 sqrt(p + 1) + 8) u|want| + tiny
 *   integer scans      exact (int64, wrapping) */
/* A float16 / bfloat16 result is float32 math rounded once to the dtype: the float32 bound
 * plus half an ulp of the result (its unit roundoff times |want|, or the spacing of the
 * smallest values). */
static double half_rounding(gpux_dtype rdt, double w) {
  if (rdt == GPUX_FLOAT16) return 0x1p-11 * w + 0x1p-24;
  if (rdt == GPUX_BFLOAT16) return 0x1p-8 * w + FLT_MIN;
  return 0.0;
}

double gt_reduce_tol(gpux_reduce_op op, gpux_dtype in_dt, gpux_dtype rdt, int64_t n, double want,
                     double sumabs) {
  if (!ref_dtype_is_float(rdt)) return 0.0;
  double u = rdt == GPUX_FLOAT64 ? 0x1p-53 : 0x1p-24; /* halves: float32 math */
  double tiny = rdt == GPUX_FLOAT64 ? DBL_MIN : FLT_MIN;
  double D = ref_reduce_depth(n > 0 ? n : 1), w = fabs(want), nn = n > 0 ? (double)n : 1.0;
  double c = ref_dtype_is_float(in_dt) ? 0.0 : 1.0, t;
  switch (op) {
    case GPUX_REDUCE_SUM: t = 1.01 * D * u * sumabs + 2 * u * w + tiny; break;
    case GPUX_REDUCE_MEAN: t = (1.01 * D + c) * u * sumabs / nn + 2 * u * w + tiny; break;
    case GPUX_REDUCE_NORM_L1: t = (1.01 * D + c) * u * sumabs + 2 * u * w + tiny; break;
    case GPUX_REDUCE_PROD: t = fmin(nn + 1, 8 * sqrt(nn) + 8) * u * w + tiny; break;
    case GPUX_REDUCE_VAR: t = (D + 8 + 2 * c) * u * w + tiny; break;
    case GPUX_REDUCE_STD: t = ((D + 8 + 2 * c) / 2 + 2) * u * w + tiny; break;
    case GPUX_REDUCE_NORM_L2: t = ((D + 1 + 2 * c) / 2 + 2) * u * w + tiny; break;
    default: return 0.0; /* min, max, norm_max: exact */
  }
  return t + half_rounding(rdt, w);
}

double gt_scan_tol(gpux_scan_op op, gpux_dtype rdt, int64_t pos, double want, double sumabs) {
  if (!ref_dtype_is_float(rdt)) return 0.0;
  double u = rdt == GPUX_FLOAT64 ? 0x1p-53 : 0x1p-24;
  double tiny = rdt == GPUX_FLOAT64 ? DBL_MIN : FLT_MIN, w = fabs(want), p = (double)pos;
  if (op == GPUX_SCAN_SUM)
    return ((double)(pos / 4096) + 40) * u * sumabs + 2 * u * w + tiny + half_rounding(rdt, w);
  return fmin(p + 2, 8 * sqrt(p + 1) + 8) * u * w + tiny + half_rounding(rdt, w);
}

static void fmt_bits(char *buf, size_t cap, gpux_dtype dt, const void *p, int64_t i) {
  if (comp_dtype(dt) != dt) { /* complex: (re, im) */
    char re[96], im[96];
    fmt_bits(re, sizeof re, comp_dtype(dt), p, 2 * i);
    fmt_bits(im, sizeof im, comp_dtype(dt), p, 2 * i + 1);
    snprintf(buf, cap, "(%.44s, %.44s)", re, im); /* the bits fit in 44 */
    return;
  }
  char v[48];
  fmt_value(v, sizeof v, dt, p, i);
  if (dt == GPUX_FLOAT32) {
    uint32_t b;
    memcpy(&b, (const char *)p + (size_t)i * 4, 4);
    snprintf(buf, cap, "%s (0x%08" PRIx32 ")", v, b);
  } else if (dt == GPUX_FLOAT64) {
    uint64_t b;
    memcpy(&b, (const char *)p + (size_t)i * 8, 8);
    snprintf(buf, cap, "%s (0x%016" PRIx64 ")", v, b);
  } else if (ref_dtype_is_half(dt)) {
    uint16_t b;
    memcpy(&b, (const char *)p + (size_t)i * 2, 2);
    snprintf(buf, cap, "%s (0x%04x)", v, (unsigned)b);
  } else {
    snprintf(buf, cap, "%s", v);
  }
}

void gt_compare_tol(const char *label, gpux_dtype rdt, const void *got, const ref_value *want,
                    const double *tol, int64_t n) {
  int64_t bad = 0;
  int isf = ref_dtype_is_float(rdt);
  for (int64_t i = 0; i < n; i++) {
    ref_value g = ref_load(rdt, got, i);
    double t = tol ? tol[i] : 0.0;
    int ok;
    if (isf) {
      double w = want[i].f;
      /* beyond float32's range the result is an infinity */
      if (rdt == GPUX_FLOAT32 && isfinite(w) && fabs(w) >= 0x1.ffffffp127) w = copysign(INFINITY, w);
      if (rdt == GPUX_FLOAT16 && isfinite(w) && fabs(w) >= 65520.0) w = copysign(INFINITY, w);
      if (rdt == GPUX_BFLOAT16 && isfinite(w) && fabs(w) >= 0x1.ffp127) w = copysign(INFINITY, w);
      if (isnan(w)) ok = isnan(g.f);
      else if (isinf(w)) ok = g.f == w;
      else ok = !isnan(g.f) && fabs(g.f - w) <= t;
    } else {
      ok = g.i == want[i].i;
    }
    if (ok) continue;
    if (bad < 8) {
      char gs[96];
      fmt_bits(gs, sizeof gs, rdt, got, i);
      if (isf)
        print_error("%s: [%" PRId64 "] got %s, precise %.17g (|diff| %.3g, tolerance %.3g)\n",
                    label, i, gs, want[i].f, fabs(g.f - want[i].f), t);
      else
        print_error("%s: [%" PRId64 "] got %s, expected %" PRId64 "\n", label, i, gs, want[i].i);
    }
    bad++;
  }
  if (bad) GT_FAIL("%s: %" PRId64 " of %" PRId64 " results differ from the precise reference", label,
                   bad, n);
}

void gt_compare_bits(const char *label, gpux_dtype dt, const void *got, const void *want,
                     int64_t n) {
  size_t es = ref_dtype_size(dt);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    const char *g = (const char *)got + (size_t)i * es, *w = (const char *)want + (size_t)i * es;
    if (memcmp(g, w, es) == 0) continue;
    if (ref_dtype_is_float(dt) && isnan(ref_load(dt, got, i).f) && isnan(ref_load(dt, want, i).f))
      continue;
    if (bad < 8) {
      char gs[96], ws[96];
      fmt_bits(gs, sizeof gs, dt, got, i);
      fmt_bits(ws, sizeof ws, dt, want, i);
      print_error("%s: [%" PRId64 "] got %s, canonical %s\n", label, i, gs, ws);
    }
    bad++;
  }
  if (bad) GT_FAIL("%s: %" PRId64 " of %" PRId64 " results differ in bits from the canonical order",
                   label, bad, n);
}

int gt_msg_has_shape(const char *msg, int nd, const int64_t *shape) {
  int64_t v[256];
  int n = 0;
  for (const char *p = msg; *p && n < 256;) {
    if (isdigit((unsigned char)*p)) v[n++] = strtoll(p, (char **)&p, 10);
    else p++;
  }
  for (int i = 0; i + nd <= n; i++) {
    int ok = 1;
    for (int d = 0; d < nd && ok; d++) ok = v[i + d] == shape[d];
    if (ok) return 1;
  }
  return 0;
}

int64_t gt_big(void) {
  static int64_t big = 0;
  if (!big) {
    const char *e = getenv("GPUX_TEST_BIG");
    long long v = e && *e ? atoll(e) : 0;
    big = v >= (1 << 16) + 1 ? (int64_t)(v | 1) : GT_2P22_PLUS_3;
  }
  return big;
}

/* ------------------------------------------------------------------ complex results */

static gpux_dtype cx_comp_of(gpux_dtype dt) {
  return dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64;
}

static double cx_ulp_of(gpux_dtype rdt) { return rdt == GPUX_FLOAT32 ? 0x1p-23 : 0x1p-52; }

static double cx_get_r(gpux_dtype rdt, const void *p, int64_t i) {
  if (rdt == GPUX_FLOAT32) {
    float f;
    memcpy(&f, (const char *)p + 4 * i, 4);
    return f;
  }
  double d;
  memcpy(&d, (const char *)p + 8 * i, 8);
  return d;
}

/* one real value against the reference: exact (bits, NaN = NaN) or within tol ulp of mag */
static int cx_ok_val(gpux_dtype rdt, const void *g, const void *w, int64_t i, int exact,
                     double tol, double mag) {
  const size_t s = rdt == GPUX_FLOAT32 ? 4 : 8;
  const double gv = cx_get_r(rdt, g, i), wv = cx_get_r(rdt, w, i);
  if (isnan(wv) || isnan(gv)) return isnan(wv) && isnan(gv);
  if (exact) return memcmp((const char *)g + s * i, (const char *)w + s * i, s) == 0;
  if (isinf(wv) || isinf(gv)) return gv == wv;
  const double m = mag > 0 ? mag : fabs(wv);
  return fabs(gv - wv) <= tol * cx_ulp_of(rdt) * m + (rdt == GPUX_FLOAT32 ? 0x1p-149 : 0x1p-1074);
}

/* pow's general tolerance for operands a, b (element i) */
static double cx_pow_tol(gpux_dtype dt, const void *a, const void *b, int64_t i) {
  const gpux_dtype c = cx_comp_of(dt);
  const double ar = cx_get_r(c, a, 2 * i), ai = cx_get_r(c, a, 2 * i + 1),
               br = cx_get_r(c, b, 2 * i), bi = cx_get_r(c, b, 2 * i + 1);
  const double t = 32 + 4 * hypot(br, bi) * (fabs(log(hypot(ar, ai))) + 3.14159265358979323846);
  return isfinite(t) ? t : 1e300;
}

void gt_cx_check(const char *label, gpux_dtype rdt, gpux_dtype dt, const void *got,
                 const void *want, int64_t n, int op_pow, int ex, double tol, const void *a,
                 const void *b) {
  int64_t bad = 0;
  const gpux_dtype c = cx_comp_of(dt);
  for (int64_t i = 0; i < n; i++) {
    int ok;
    if (rdt == GPUX_BOOL) {
      ok = ((const unsigned char *)got)[i] == ((const unsigned char *)want)[i];
    } else if (rdt == c) {
      ok = cx_ok_val(rdt, got, want, i, ex, tol, 0);
    } else {
      int exact = ex;
      double t = tol;
      if (op_pow && b) {
        exact = ref_cx_binary_exact(GPUX_POW, dt, (const char *)a + gpux_dtype_size(dt) * i,
                                    (const char *)b + gpux_dtype_size(dt) * i);
        t = cx_pow_tol(dt, a, b, i);
        if (!exact && t > 0x1p20) continue; /* |b log a| so large that no digit is right */
      }
      const double wr = cx_get_r(c, want, 2 * i), wi = cx_get_r(c, want, 2 * i + 1);
      const double mag = hypot(isfinite(wr) ? wr : 0, isfinite(wi) ? wi : 0);
      ok = cx_ok_val(c, got, want, 2 * i, exact, t, mag) &&
           cx_ok_val(c, got, want, 2 * i + 1, exact, t, mag);
    }
    if (!ok && bad++ < 6) {
      const double ar = cx_get_r(c, a, 2 * i), ai = cx_get_r(c, a, 2 * i + 1);
      const double br = b ? cx_get_r(c, b, 2 * i) : 0, bi = b ? cx_get_r(c, b, 2 * i + 1) : 0;
      if (rdt == GPUX_BOOL)
        print_error("%s [%lld]: a = %.17g%+.17gi b = %.17g%+.17gi: got %d want %d\n", label,
                    (long long)i, ar, ai, br, bi, ((const unsigned char *)got)[i],
                    ((const unsigned char *)want)[i]);
      else if (rdt == c)
        print_error("%s [%lld]: a = %.17g%+.17gi: got %.17g want %.17g\n", label, (long long)i,
                    ar, ai, cx_get_r(c, got, i), cx_get_r(c, want, i));
      else
        print_error("%s [%lld]: a = %.17g%+.17gi b = %.17g%+.17gi: got %.17g%+.17gi want "
                    "%.17g%+.17gi\n",
                    label, (long long)i, ar, ai, br, bi, cx_get_r(c, got, 2 * i),
                    cx_get_r(c, got, 2 * i + 1), cx_get_r(c, want, 2 * i),
                    cx_get_r(c, want, 2 * i + 1));
    }
  }
  if (bad) GT_FAIL("%s: %lld of %lld elements wrong", label, (long long)bad, (long long)n);
}

gt_domain gt_cx_binary_domain(gpux_binary_op op, int operand) {
  if (op == GPUX_POW) return operand ? GT_DOM_POW_EXP : GT_DOM_POW_BASE;
  if (op >= GPUX_EQ) return GT_DOM_SMALLINT; /* ties */
  return GT_DOM_ANY;
}

static double cx_unary_tol(gpux_unary_op op) {
  switch (op) {
    case GPUX_ABS: return 4;
    case GPUX_ANGLE: return 6;
    case GPUX_SQRT: return 8;
    default: return 16; /* exp, log, sin, cos */
  }
}
gt_domain gt_cx_unary_domain(gpux_unary_op op) {
  switch (op) {
    case GPUX_EXP: return GT_DOM_EXP;
    case GPUX_SIN:
    case GPUX_COS: return GT_DOM_TRIG;
    case GPUX_LOGICAL_NOT: return GT_DOM_SMALLINT;
    default: return GT_DOM_ANY;
  }
}

void gt_cx_check_binary(const char *label, gpux_binary_op op, gpux_dtype dt, const void *got,
                        const void *a, const void *b, int64_t n) {
  const gpux_dtype rdt = ref_binary_result(op, dt);
  void *want = gt_malloc((size_t)n * ref_dtype_size(rdt) + 1);
  ref_cx_binary(op, dt, n, a, b, want);
  gt_cx_check(label, rdt, dt, got, want, n, op == GPUX_POW, 1, 0, a, b);
  free(want);
}

void gt_cx_check_unary(const char *label, gpux_unary_op op, gpux_dtype dt, const void *got,
                       const void *a, int64_t n) {
  const gpux_dtype rdt = ref_unary_result(op, dt);
  void *want = gt_malloc((size_t)n * ref_dtype_size(rdt) + 1);
  ref_cx_unary(op, dt, n, a, want);
  gt_cx_check(label, rdt, dt, got, want, n, 0, ref_cx_unary_exact(op), cx_unary_tol(op), a, NULL);
  free(want);
}
