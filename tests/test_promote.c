/* Type promotion on request: gpux_result_type (NumPy 2's table), gpux_result_type_scalar
 * (NEP 50's weak scalars) and the promoting binary ops, against the CPU reference on the
 * inputs cast to the promoted dtype. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define F32 GPUX_FLOAT32
#define F64 GPUX_FLOAT64
#define I32 GPUX_INT32
#define I64 GPUX_INT64
#define U8 GPUX_UINT8
#define B8 GPUX_BOOL
#define F16 GPUX_FLOAT16
#define BF16 GPUX_BFLOAT16
#define I8 GPUX_INT8
#define I16 GPUX_INT16
#define U16 GPUX_UINT16
#define U32 GPUX_UINT32
#define U64 GPUX_UINT64
#define C64 GPUX_COMPLEX64
#define C128 GPUX_COMPLEX128

/* np.result_type for the dtypes NumPy has (numpy 2.x), bfloat16 as ml_dtypes and PyTorch
 * promote it with the others (uint8 and bool fit; int32 and int64 do not, as with float16;
 * with float16 the smallest float that holds both, float32) */
static const struct {
  gpux_dtype a, b, want;
} k_table[] = {
    {B8, B8, B8},     {B8, U8, U8},     {B8, I32, I32},   {B8, I64, I64},   {B8, F16, F16},
    {B8, BF16, BF16}, {B8, F32, F32},   {B8, F64, F64},   {U8, U8, U8},     {U8, I32, I32},
    {U8, I64, I64},   {U8, F16, F16},   {U8, BF16, BF16}, {U8, F32, F32},   {U8, F64, F64},
    {I32, I32, I32},  {I32, I64, I64},  {I32, F16, F64},  {I32, BF16, F64}, {I32, F32, F64},
    {I32, F64, F64},  {I64, I64, I64},  {I64, F16, F64},  {I64, BF16, F64}, {I64, F32, F64},
    {I64, F64, F64},  {F16, F16, F16},  {F16, BF16, F32}, {F16, F32, F32},  {F16, F64, F64},
    {BF16, BF16, BF16}, {BF16, F32, F32}, {BF16, F64, F64}, {F32, F32, F32}, {F32, F64, F64},
    {F64, F64, F64},
    /* the other integer widths (NumPy 2: uint64 with a signed integer gives float64) */
    {B8, I8, I8},     {B8, I16, I16},   {B8, U16, U16},   {B8, U32, U32},   {B8, U64, U64},
    {U8, I8, I16},    {U8, I16, I16},   {U8, U16, U16},   {U8, U32, U32},   {U8, U64, U64},
    {I8, I8, I8},     {I8, I16, I16},   {I8, I32, I32},   {I8, I64, I64},   {I8, U16, I32},
    {I8, U32, I64},   {I8, U64, F64},   {I8, F16, F16},   {I8, BF16, BF16}, {I8, F32, F32},
    {I8, F64, F64},   {I16, I16, I16},  {I16, I32, I32},  {I16, I64, I64},  {I16, U16, I32},
    {I16, U32, I64},  {I16, U64, F64},  {I16, F16, F32},  {I16, BF16, F32}, {I16, F32, F32},
    {I16, F64, F64},  {U16, U16, U16},  {U16, U32, U32},  {U16, U64, U64},  {U16, I32, I32},
    {U16, I64, I64},  {U16, F16, F32},  {U16, BF16, F32}, {U16, F32, F32},  {U16, F64, F64},
    {U32, U32, U32},  {U32, U64, U64},  {U32, I32, I64},  {U32, I64, I64},  {U32, F16, F64},
    {U32, BF16, F64}, {U32, F32, F64},  {U32, F64, F64},  {U64, U64, U64},  {U64, I32, F64},
    {U64, I64, F64},  {U64, F16, F64},  {U64, BF16, F64}, {U64, F32, F64},  {U64, F64, F64},
    /* complex (NumPy 2): complex64 holds what float32 holds, complex128 what float64 holds */
    {C64, B8, C64},   {C64, U8, C64},   {C64, I8, C64},   {C64, I16, C64},  {C64, U16, C64},
    {C64, I32, C128}, {C64, U32, C128}, {C64, I64, C128}, {C64, U64, C128}, {C64, F16, C64},
    {C64, BF16, C64}, {C64, F32, C64},  {C64, F64, C128}, {C64, C64, C64},  {C64, C128, C128},
    {C128, B8, C128}, {C128, U8, C128}, {C128, I8, C128}, {C128, I16, C128}, {C128, U16, C128},
    {C128, I32, C128}, {C128, U32, C128}, {C128, I64, C128}, {C128, U64, C128},
    {C128, F16, C128}, {C128, BF16, C128}, {C128, F32, C128}, {C128, F64, C128},
    {C128, C128, C128}};

static void test_result_type(void **state) {
  (void)state;
  int seen[GPUX_DTYPE_COUNT][GPUX_DTYPE_COUNT] = {{0}};
  for (size_t i = 0; i < sizeof k_table / sizeof k_table[0]; i++) {
    gpux_dtype got = (gpux_dtype)-1, got2 = (gpux_dtype)-1;
    GT_OK(gpux_result_type(&got, k_table[i].a, k_table[i].b));
    GT_OK(gpux_result_type(&got2, k_table[i].b, k_table[i].a));
    GT_ASSERT(got == k_table[i].want && got2 == k_table[i].want, "%s, %s: %s / %s, want %s",
              gt_dtype_str(k_table[i].a), gt_dtype_str(k_table[i].b), gt_dtype_str(got),
              gt_dtype_str(got2), gt_dtype_str(k_table[i].want));
    seen[k_table[i].a][k_table[i].b] = seen[k_table[i].b][k_table[i].a] = 1;
  }
  for (int a = 0; a < GPUX_DTYPE_COUNT; a++)
    for (int b = 0; b < GPUX_DTYPE_COUNT; b++)
      GT_ASSERT(seen[a][b], "the table misses %s, %s", gt_dtype_str((gpux_dtype)a),
                gt_dtype_str((gpux_dtype)b));
  gpux_dtype d;
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_result_type(NULL, F32, F32));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_result_type(&d, (gpux_dtype)GPUX_DTYPE_COUNT, F32));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE, gpux_result_type(&d, F32, (gpux_dtype)-1));
}

static void test_result_type_scalar(void **state) {
  (void)state;
  static const struct {
    gpux_dtype a;
    gpux_scalar_kind kind;
    double v;
    gpux_status st;
    gpux_dtype want;
  } cases[] = {
      /* NEP 50: the array's dtype wins over a weak scalar of its category or lower */
      {U8, GPUX_SCALAR_INT, 255, GPUX_SUCCESS, U8},
      {U8, GPUX_SCALAR_INT, 0, GPUX_SUCCESS, U8},
      {U8, GPUX_SCALAR_INT, 256, GPUX_ERROR_INVALID_ARGUMENT, U8},
      {U8, GPUX_SCALAR_INT, -1, GPUX_ERROR_INVALID_ARGUMENT, U8},
      {U8, GPUX_SCALAR_INT, 300, GPUX_ERROR_INVALID_ARGUMENT, U8},
      {I32, GPUX_SCALAR_INT, 2147483647.0, GPUX_SUCCESS, I32},
      {I32, GPUX_SCALAR_INT, -2147483648.0, GPUX_SUCCESS, I32},
      {I32, GPUX_SCALAR_INT, 2147483648.0, GPUX_ERROR_INVALID_ARGUMENT, I32},
      {I64, GPUX_SCALAR_INT, -9223372036854775808.0, GPUX_SUCCESS, I64},
      {I64, GPUX_SCALAR_INT, 9223372036854775808.0, GPUX_ERROR_INVALID_ARGUMENT, I64},
      {I32, GPUX_SCALAR_INT, 1.5, GPUX_ERROR_INVALID_ARGUMENT, I32},
      {I32, GPUX_SCALAR_INT, NAN, GPUX_ERROR_INVALID_ARGUMENT, I32},
      {B8, GPUX_SCALAR_INT, 3, GPUX_SUCCESS, I64},
      {F16, GPUX_SCALAR_INT, 1e6, GPUX_SUCCESS, F16}, /* rounds as a cast does (to inf) */
      {F32, GPUX_SCALAR_INT, 7, GPUX_SUCCESS, F32},
      /* float scalars: float64 with bool and integers, the array's float dtype otherwise */
      {I32, GPUX_SCALAR_FLOAT, 1.5, GPUX_SUCCESS, F64},
      {U8, GPUX_SCALAR_FLOAT, 2.0, GPUX_SUCCESS, F64},
      {B8, GPUX_SCALAR_FLOAT, 0.5, GPUX_SUCCESS, F64},
      {F32, GPUX_SCALAR_FLOAT, 1e300, GPUX_SUCCESS, F32},
      {BF16, GPUX_SCALAR_FLOAT, 0.1, GPUX_SUCCESS, BF16},
      {F64, GPUX_SCALAR_FLOAT, NAN, GPUX_SUCCESS, F64},
      /* bool scalars keep the array's dtype */
      {B8, GPUX_SCALAR_BOOL, 1, GPUX_SUCCESS, B8},
      {I64, GPUX_SCALAR_BOOL, 0, GPUX_SUCCESS, I64},
      {F32, GPUX_SCALAR_BOOL, 2, GPUX_ERROR_INVALID_ARGUMENT, F32},
      /* complex arrays keep their dtype; complex scalars give the complex dtype of a float
       * array's precision, complex128 with bool and integers */
      {C64, GPUX_SCALAR_INT, 3, GPUX_SUCCESS, C64},
      {C64, GPUX_SCALAR_FLOAT, 1e300, GPUX_SUCCESS, C64},
      {C128, GPUX_SCALAR_BOOL, 1, GPUX_SUCCESS, C128},
      {C64, GPUX_SCALAR_COMPLEX, 0, GPUX_SUCCESS, C64},
      {F32, GPUX_SCALAR_COMPLEX, 0, GPUX_SUCCESS, C64},
      {F16, GPUX_SCALAR_COMPLEX, 0, GPUX_SUCCESS, C64},
      {BF16, GPUX_SCALAR_COMPLEX, 0, GPUX_SUCCESS, C64},
      {F64, GPUX_SCALAR_COMPLEX, 0, GPUX_SUCCESS, C128},
      {I8, GPUX_SCALAR_COMPLEX, 0, GPUX_SUCCESS, C128},
      {B8, GPUX_SCALAR_COMPLEX, 0, GPUX_SUCCESS, C128},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gpux_dtype got = (gpux_dtype)-1;
    gpux_status st = gpux_result_type_scalar(&got, cases[i].a, cases[i].kind, cases[i].v);
    GT_ASSERT(st == cases[i].st, "case %zu (%s, kind %d, %g): status %s, want %s", i,
              gt_dtype_str(cases[i].a), (int)cases[i].kind, cases[i].v, gpux_status_name(st),
              gpux_status_name(cases[i].st));
    if (st == GPUX_SUCCESS)
      GT_ASSERT(got == cases[i].want, "case %zu: %s, want %s", i, gt_dtype_str(got),
                gt_dtype_str(cases[i].want));
    else
      GT_ASSERT(strstr(gpux_last_error_message(), "gpux_result_type_scalar"),
                "case %zu: the message names the call: %s", i, gpux_last_error_message());
    gpux_clear_error();
  }
  gpux_dtype d;
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_result_type_scalar(&d, F32, (gpux_scalar_kind)7, 1));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE,
            gpux_result_type_scalar(&d, (gpux_dtype)99, GPUX_SCALAR_INT, 1));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_result_type_scalar(NULL, F32, GPUX_SCALAR_INT, 1));
  /* the 300 case says what is wrong */
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_result_type_scalar(&d, U8, GPUX_SCALAR_INT, 300));
  GT_ASSERT(strstr(gpux_last_error_message(), "300") && strstr(gpux_last_error_message(), "uint8"),
            "message: %s", gpux_last_error_message());
  gpux_clear_error();
}

static const gpux_dtype k_compute[] = GT_STORAGE_DTYPE_INIT; /* every dtype */
#define NCOMPUTE ((int)(sizeof k_compute / sizeof k_compute[0]))

/* One promoting op on fresh random inputs of dtypes da (shape n) and db (shape nb: n, or 1
 * to broadcast), checked against the reference on the inputs cast to the promoted dtype;
 * into: the _into form on a poisoned output. */
static void check_pair(gpux_binary_op op, gpux_dtype da, gpux_dtype db, int64_t n, int64_t nb,
                       int into, uint64_t seed) {
  gpux_dtype dt;
  GT_OK(gpux_result_type(&dt, da, db));
  if (!ref_binary_supported(op, dt)) return;
  const gpux_dtype rdt = ref_binary_result(op, dt);
  const gt_domain dom = op == GPUX_MUL ? GT_DOM_SMALLINT : GT_DOM_ANY;
  const size_t sa = gpux_dtype_size(da), sb = gpux_dtype_size(db), st = gpux_dtype_size(dt);
  void *ha = gt_malloc((size_t)n * sa), *hb = gt_malloc((size_t)nb * sb);
  void *ca = gt_malloc((size_t)n * st), *cb = gt_malloc((size_t)n * st);
  void *got = gt_malloc((size_t)n * gpux_dtype_size(rdt));
  ref_value *want = gt_malloc((size_t)n * sizeof *want);
  gt_fill_random(ha, da, n, dom, seed);
  gt_fill_random(hb, db, nb, dom, seed + 1);
  /* the reference: both inputs cast to dt (b repeated when it broadcasts), then the op */
  ref_cast_bits(da, dt, n, ha, ca);
  for (int64_t i = 0; i < n; i++)
    ref_cast_bits(db, dt, 1, (const char *)hb + (size_t)(nb == 1 ? 0 : i) * sb,
                  (char *)cb + (size_t)i * st);
  ref_binary(op, dt, n, ca, cb, want);
  gpux_array_t a = NULL, b = NULL, c = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, da, 1, &n, ha));
  GT_OK(gpux_array_from_host(&b, gt_ctx, db, 1, &nb, hb));
  if (into) {
    c = gt_poisoned(rdt, 1, &n);
    GT_OK(gpux_binary_promote_into(c, op, a, b));
  } else {
    GT_OK(gpux_binary_promote(&c, op, a, b));
  }
  gt_check_shape(c, rdt, 1, &n, "promoted result");
  if (n > 0) {
    GT_OK(gpux_array_read(c, got, (size_t)n * gpux_dtype_size(rdt)));
    char label[160];
    snprintf(label, sizeof label, "%s(%s, %s) -> %s, n=%lld%s%s", gt_binary_str(op),
             gt_dtype_str(da), gt_dtype_str(db), gt_dtype_str(dt), (long long)n,
             nb == 1 ? " (b broadcast)" : "", into ? " into" : "");
    gt_compare(label, rdt, got, want, n, gt_tolerance(rdt, gt_binary_class(op, dt)), dt, ca, cb);
  }
  GT_RELEASE(a, b, c);
  GT_FREE(ha, hb, ca, cb, got, want);
}

static void test_binary_promote(void **state) {
  (void)state;
  static const gpux_binary_op ops[] = {GPUX_ADD, GPUX_MUL, GPUX_LT, GPUX_MAXIMUM, GPUX_EQ};
  const int64_t sizes[] = {1, 7, 1003};
  uint64_t seed = 100;
  for (int i = 0; i < NCOMPUTE; i++)
    for (int j = 0; j < NCOMPUTE; j++) {
      gpux_dtype da = k_compute[i], db = k_compute[j], dt;
      GT_OK(gpux_result_type(&dt, da, db));
      if (!gt_dtype_available(dt)) continue;
      for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
          check_pair(ops[o], da, db, sizes[k], sizes[k], (int)(k & 1), seed++);
      check_pair(GPUX_SUB, da, db, 33, 1, 0, seed++);
    }
  /* empty, and large enough for many work-groups */
  check_pair(GPUX_ADD, U8, I32, 0, 0, 0, 7);
  check_pair(GPUX_ADD, I32, F32, gt_big(), gt_big(), 1, 8);
}

/* array op scalar and scalar op array, the scalar weak (NEP 50) */
static void check_scalar(gpux_binary_op op, gpux_dtype da, gpux_scalar_kind kind, double s,
                         int scalar_first, gpux_dtype want_dt) {
  const int64_t n = 517;
  void *ha = gt_malloc((size_t)n * gpux_dtype_size(da));
  gt_fill_random(ha, da, n, GT_DOM_SMALLINT, 40 + (uint64_t)op);
  gpux_array_t a = NULL, c = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, da, 1, &n, ha));
  GT_OK(scalar_first ? gpux_scalar_binary_promote(&c, op, kind, s, a)
                     : gpux_binary_scalar_promote(&c, op, a, kind, s));
  const gpux_dtype rdt = ref_binary_result(op, want_dt);
  gt_check_shape(c, rdt, 1, &n, "promoted scalar result");
  void *ca = gt_malloc((size_t)n * gpux_dtype_size(want_dt));
  void *got = gt_malloc((size_t)n * gpux_dtype_size(rdt));
  ref_value *want = gt_malloc((size_t)n * sizeof *want);
  ref_cast_bits(da, want_dt, n, ha, ca);
  ref_binary_scalar(op, want_dt, n, ca, s, scalar_first, want);
  GT_OK(gpux_array_read(c, got, (size_t)n * gpux_dtype_size(rdt)));
  char label[128];
  snprintf(label, sizeof label, "%s(%s, scalar kind %d %g%s) -> %s", gt_binary_str(op),
           gt_dtype_str(da), (int)kind, s, scalar_first ? ", first" : "", gt_dtype_str(want_dt));
  gt_compare(label, rdt, got, want, n, gt_tolerance(rdt, gt_binary_class(op, want_dt)), want_dt,
             ca, NULL);
  GT_RELEASE(a, c);
  GT_FREE(ha, ca, got, want);
}

static void test_scalar_promote(void **state) {
  (void)state;
  const int f64 = gt_dtype_available(F64);
  if (f64) {
    check_scalar(GPUX_MUL, I32, GPUX_SCALAR_FLOAT, 1.5, 0, F64); /* int32 * 1.5 -> float64 */
    check_scalar(GPUX_SUB, U8, GPUX_SCALAR_FLOAT, 0.25, 1, F64);
    check_scalar(GPUX_ADD, B8, GPUX_SCALAR_FLOAT, 0.5, 0, F64);
  }
  check_scalar(GPUX_ADD, U8, GPUX_SCALAR_INT, 200, 0, U8); /* wraps as uint8 does */
  check_scalar(GPUX_SUB, U8, GPUX_SCALAR_INT, 3, 1, U8);
  check_scalar(GPUX_ADD, B8, GPUX_SCALAR_INT, 3, 0, I64);
  check_scalar(GPUX_MUL, I64, GPUX_SCALAR_BOOL, 1, 1, I64);
  check_scalar(GPUX_ADD, F32, GPUX_SCALAR_FLOAT, 0.1, 0, F32);
  check_scalar(GPUX_LT, I32, GPUX_SCALAR_INT, -2, 0, I32);
  check_scalar(GPUX_MAXIMUM, F32, GPUX_SCALAR_INT, 3, 1, F32);
}

static void test_errors(void **state) {
  (void)state;
  const int64_t n = 5;
  gpux_array_t a = NULL, b = NULL, h = NULL, c = (gpux_array_t)1, o = NULL;
  GT_OK(gpux_array_full(&a, gt_ctx, I32, 1, &n, 3));
  GT_OK(gpux_array_full(&b, gt_ctx, F32, 1, &n, 2));
  GT_OK(gpux_array_full(&h, gt_ctx, F16, 1, &n, 1));
  /* an op not defined for the promoted dtype fails before any cast */
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary_promote(&c, GPUX_BITWISE_AND, a, b));
  GT_ASSERT(c == NULL, "out is NULL after a failure");
  GT_ASSERT(strstr(gpux_last_error_message(), "gpux_binary_promote") &&
                strstr(gpux_last_error_message(), "float64"),
            "message: %s", gpux_last_error_message());
  GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_binary_promote(&c, GPUX_BITWISE_OR, h, h));
  GT_EXPECT(GPUX_ERROR_INVALID_OP, gpux_binary_promote(&c, (gpux_binary_op)999, a, a));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_binary_promote(NULL, GPUX_ADD, a, b));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_binary_promote(&c, GPUX_ADD, NULL, b));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_binary_promote(&c, GPUX_ADD, a, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_binary_promote_into(NULL, GPUX_ADD, a, b));
  /* a scalar the dtype cannot hold */
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_binary_scalar_promote(&c, GPUX_ADD, a, GPUX_SCALAR_INT, 3e9));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            gpux_scalar_binary_promote(&c, GPUX_ADD, GPUX_SCALAR_INT, 0.5, a));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER,
            gpux_binary_scalar_promote(&c, GPUX_ADD, NULL, GPUX_SCALAR_INT, 1));
  /* _into: the output has the op's result dtype for the promoted inputs */
  if (gt_dtype_available(F64)) {
    GT_OK(gpux_array_full(&o, gt_ctx, F32, 1, &n, 0));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_binary_promote_into(o, GPUX_ADD, a, b));
    gpux_array_release(o);
    o = NULL;
  }
  /* arrays of two contexts */
  gpux_context_t other = gt_context_new();
  gpux_array_t x = NULL;
  GT_OK(gpux_array_full(&x, other, F32, 1, &n, 1));
  GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_binary_promote(&c, GPUX_ADD, a, x));
  gpux_array_release(x);
  gpux_context_release(other);
  /* the context is usable after the errors, and a success leaves no message */
  GT_OK(gpux_binary_promote(&c, GPUX_ADD, a, a));
  GT_ASSERT(gpux_last_error_message()[0] == '\0', "a success left: %s", gpux_last_error_message());
  GT_RELEASE(a, b, h, c);
}

int main(void) {
  gt_init("test_promote");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_result_type),
      cmocka_unit_test(test_result_type_scalar),
      cmocka_unit_test(test_binary_promote),
      cmocka_unit_test(test_scalar_promote),
      cmocka_unit_test(test_errors),
  };
  int failed = gt_run("promote", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
