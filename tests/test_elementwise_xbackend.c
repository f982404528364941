/* gpux tests: CUDA and OpenCL give the same bits for the elementwise ops whose results are
 * exact. In one process, a CUDA context and an OpenCL context (an OpenCL GPU when there is
 * one) run every binary and unary op on every dtype it takes, and every cast, on identical
 * random inputs led by each dtype's special values (NaN, +-inf, +-0, subnormals, MIN, MAX):
 *   - integer and bool results: every op;
 *   - float results: the ops IEEE defines exactly (add, sub, mul, mod, minimum, maximum,
 *     neg, abs, sign, relu, floor, ceil, round, comparisons, logical ops, casts), div and
 *     sqrt on float64 (float32's are correctly rounded on CUDA but need not be on an OpenCL
 *     device), and the float16 / bfloat16 forms of the same ops;
 *   - complex64 / complex128 (kernels/common/gpux_complex.h): add, sub, mul, eq, ne, the
 *     logical ops, neg, conj, real, imag, logical_not, and div on complex128 (float32
 *     division as above);
 * compared bit for bit (two NaNs are equal whatever their payloads: devices differ there).
 * pocl is compared with the same CPU reference by test_elementwise with no tolerance for
 * these ops, so pocl agrees too. Exits 77 (skip) unless both backends have a device.
 * Not a cmocka binary: plain checks, a summary, exit 1 on any difference. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpux.h"
#include "ref.h"
#include "test_util.h"
#include "xbackend_util.h"

#define N 100003

static int g_fail = 0, g_checks = 0;
static const gpux_dtype k_dtypes[] = GT_STORAGE_DTYPE_INIT;
#define NDT ((int)(sizeof k_dtypes / sizeof k_dtypes[0]))

static int binary_exact(gpux_binary_op op, gpux_dtype dt) {
  if (!ref_dtype_is_float(dt) || op >= GPUX_EQ) return 1;
  switch (op) {
    case GPUX_ADD: case GPUX_SUB: case GPUX_MUL: case GPUX_MOD: case GPUX_MINIMUM: case GPUX_MAXIMUM:
      return 1;
    case GPUX_DIV: return dt == GPUX_FLOAT64;
    default: return 0;
  }
}

static int unary_exact(gpux_unary_op op, gpux_dtype dt) {
  if (!ref_dtype_is_float(dt)) return 1;
  switch (op) {
    case GPUX_NEG: case GPUX_ABS: case GPUX_SIGN: case GPUX_RELU: case GPUX_FLOOR: case GPUX_CEIL:
    case GPUX_ROUND: case GPUX_LOGICAL_NOT:
      return 1;
    case GPUX_SQRT: return dt == GPUX_FLOAT64;
    default: return 0;
  }
}

/* n values of dt: its special values first, then random ones of domain dom */
static void *inputs(gpux_dtype dt, gt_domain dom, uint64_t seed) {
  const size_t es = gpux_dtype_size(dt);
  unsigned char *p = xmalloc((size_t)N * es);
  gt_fill_random(p, dt, N, dom, seed);
  gt_special_values(p + 17 * es, dt, 64); /* specials from element 17 on, paired with randoms */
  return p;
}

/* a and b of dt have the same bits, NaNs being equal to NaNs */
static int64_t differ(gpux_dtype dt, const void *a, const void *b, int64_t n, int64_t *first) {
  if (dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128) { /* part by part */
    int64_t f = 0;
    const int64_t bad = differ(dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : GPUX_FLOAT64, a, b, 2 * n, &f);
    if (bad) *first = f / 2;
    return bad;
  }
  const size_t es = gpux_dtype_size(dt);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    const unsigned char *x = (const unsigned char *)a + (size_t)i * es,
                        *y = (const unsigned char *)b + (size_t)i * es;
    if (!memcmp(x, y, es)) continue;
    if (ref_dtype_is_float(dt) && isnan(ref_load(dt, x, 0).f) && isnan(ref_load(dt, y, 0).f))
      continue;
    if (!bad++) *first = i;
  }
  return bad;
}

static void *read_all(gpux_array_t o, gpux_dtype *dt) {
  int64_t n;
  CHECK(gpux_array_size(&n, o));
  CHECK(gpux_array_dtype(dt, o));
  void *p = xmalloc((size_t)n * gpux_dtype_size(*dt));
  CHECK(gpux_array_read(o, p, (size_t)n * gpux_dtype_size(*dt)));
  return p;
}

/* kind 0: binary op, 1: unary op, 2: cast to dtype op */
static void *run(gpux_context_t ctx, int kind, int op, gpux_dtype dt, const void *ha,
                 const void *hb, gpux_dtype *rdt) {
  const int64_t n = N;
  gpux_array_t a = NULL, b = NULL, o = NULL;
  CHECK(gpux_array_from_host(&a, ctx, dt, 1, &n, ha));
  if (kind == 0) {
    CHECK(gpux_array_from_host(&b, ctx, dt, 1, &n, hb));
    CHECK(gpux_binary(&o, (gpux_binary_op)op, a, b));
  } else if (kind == 1) {
    CHECK(gpux_unary(&o, (gpux_unary_op)op, a));
  } else {
    CHECK(gpux_array_cast(&o, a, (gpux_dtype)op));
  }
  void *r = read_all(o, rdt);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(o);
  return r;
}

static void compare(gpux_context_t cu, gpux_context_t cl, int kind, int op, gpux_dtype dt,
                    gt_domain da, gt_domain db, uint64_t seed) {
  void *ha = inputs(dt, da, seed), *hb = kind == 0 ? inputs(dt, db, seed + 1) : NULL;
  gpux_dtype r1, r2;
  void *x = run(cu, kind, op, dt, ha, hb, &r1), *y = run(cl, kind, op, dt, ha, hb, &r2);
  int64_t first = 0, bad = r1 == r2 ? differ(r1, x, y, N, &first) : N;
  g_checks++;
  if (bad) {
    g_fail++;
    const char *name = kind == 0   ? gpux_binary_op_name((gpux_binary_op)op)
                       : kind == 1 ? gpux_unary_op_name((gpux_unary_op)op)
                                   : gpux_dtype_name((gpux_dtype)op);
    fprintf(stderr, "%s%s %s: %" PRId64 " of %d results differ between CUDA and OpenCL (first at %" PRId64 ")\n",
            kind == 2 ? "cast to " : "", name, gpux_dtype_name(dt), bad, N, first);
  }
  free(ha);
  free(hb);
  free(x);
  free(y);
}

int main(void) {
  gpux_context_t cu, cl;
  int rc = open_pair("test_elementwise_xbackend", &cu, &cl);
  if (rc) return rc;
  gpux_device_info i1, i2;
  CHECK(gpux_context_device_info(&i1, cu));
  CHECK(gpux_context_device_info(&i2, cl));
  uint64_t seed = 1;
  for (int d = 0; d < NDT; d++) {
    const gpux_dtype dt = k_dtypes[d];
    if (dt == GPUX_FLOAT64 && (!i1.fp64 || !i2.fp64)) continue;
    for (int op = 0; op < GPUX_BINARY_OP_COUNT; op++)
      if (gpux_binary_op_supports((gpux_binary_op)op, dt) && binary_exact((gpux_binary_op)op, dt))
        compare(cu, cl, 0, op, dt, gt_binary_domain((gpux_binary_op)op, dt, 0),
                gt_binary_domain((gpux_binary_op)op, dt, 1), seed++);
    for (int op = 0; op < GPUX_UNARY_OP_COUNT; op++)
      if (gpux_unary_op_supports((gpux_unary_op)op, dt) && unary_exact((gpux_unary_op)op, dt))
        compare(cu, cl, 1, op, dt, gt_unary_domain((gpux_unary_op)op, dt), GT_DOM_ANY, seed++);
    for (int to = 0; to < NDT; to++)
      if (k_dtypes[to] != GPUX_FLOAT64 || (i1.fp64 && i2.fp64))
        compare(cu, cl, 2, k_dtypes[to], dt, GT_DOM_ANY, GT_DOM_ANY, seed++);
  }
  const gpux_dtype kc[2] = {GPUX_COMPLEX64, GPUX_COMPLEX128};
  const gpux_binary_op cb[] = {GPUX_ADD, GPUX_SUB, GPUX_MUL, GPUX_DIV, GPUX_EQ, GPUX_NE,
                               GPUX_LOGICAL_AND, GPUX_LOGICAL_OR, GPUX_LOGICAL_XOR};
  const gpux_unary_op cu_[] = {GPUX_NEG, GPUX_CONJ, GPUX_REAL, GPUX_IMAG, GPUX_LOGICAL_NOT};
  for (int k = 0; k < 2; k++) {
    const gpux_dtype dt = kc[k];
    if (dt == GPUX_COMPLEX128 && (!i1.fp64 || !i2.fp64)) continue;
    for (size_t j = 0; j < sizeof cb / sizeof cb[0]; j++)
      if (cb[j] != GPUX_DIV || dt == GPUX_COMPLEX128)
        compare(cu, cl, 0, cb[j], dt, cb[j] >= GPUX_EQ ? GT_DOM_SMALLINT : GT_DOM_ANY,
                cb[j] >= GPUX_EQ ? GT_DOM_SMALLINT : GT_DOM_ANY, seed++);
    for (size_t j = 0; j < sizeof cu_ / sizeof cu_[0]; j++)
      compare(cu, cl, 1, cu_[j], dt, GT_DOM_ANY, GT_DOM_ANY, seed++);
  }
  printf("test_elementwise_xbackend: %d comparisons of %d elements, %d differ\n", g_checks, N,
         g_fail);
  gpux_context_release(cu);
  gpux_context_release(cl);
  return g_fail ? 1 : 0;
}
