/* gpux tests: the user's own kernels (include/gpux/kernel.h) and the kernel dialect, on the
 * backend GPUX_BACKEND picks. Every result is checked against a CPU reference (double
 * precision where floats are involved) on random inputs, into outputs poisoned before the
 * call (NaN bytes for floats, 0xAB bytes for integers), so a kernel that writes nothing
 * fails.
 *
 *   vadd          dialect vector add, n = 1024 / block 256, n = 1, 1001 (block 256 and 96),
 *                 2^22 + 3; a grid of 0 queues nothing (output still poison); empty arrays
 *                 (null pointers) with grids 0 and 1. Exact: a float32 sum is the float32
 *                 rounding of the double sum.
 *   native_saxpy  OpenCL C on OpenCL; CUDA C++ with extern "C" and without it (the mangled
 *                 name is looked up) on CUDA. Tolerance 2^-22 (|a x| + |y|): two roundings,
 *                 or one with an FMA.
 *   scalars       float32, int32, int64, uint8, bool, float16 bits (an unsigned short
 *                 parameter: OpenCL devices without cl_khr_fp16 take no half parameters) and
 *                 float64 where the device has fp64, three value sets with extremes
 *                 (INT_MIN, INT64_MAX, -0.0, 255, ...): written out and compared bit for bit.
 *   macros        GPUX_CUDA / GPUX_OPENCL / GPUX_HAS_FP64 agree with the context.
 *   local_ptr     a work-group sum (float) and max (int) through two GPUX_LOCAL_PTR
 *                 parameters sized with gpux_arg_local (the first one 4 bytes longer than
 *                 needed, so the second one's alignment matters; on CUDA also 64 KiB
 *                 longer: over 48 KiB of dynamic shared memory), blocks 256 and 64, odd n;
 *                 sums within (log2(block) + 1) 2^-24 sum|x|, max exact.
 *   transpose     16x16 tiles in GPUX_LOCAL_ARRAY (17-float rows), 2-d launch, shapes 67x130,
 *                 130x67, 1x1, 1x200, 33x16: exact.
 *   histogram     61 bins, GPUX_ATOMIC_ADD_I32 on local then global memory, grid-stride loop
 *                 (GPUX_GLOBAL_SIZE), the output starting from random counts (not zeros), two
 *                 launches accumulate: exact.
 *   atomic_f32    GPUX_ATOMIC_ADD_F32 (global) and GPUX_ATOMIC_ADD_F32_LOCAL: integer-valued
 *                 floats whose sum stays below 2^24 (exact in any order), and random floats
 *                 within (n + 1) 2^-24 sum|x| (any order of n additions).
 *   atomics_int   GPUX_ATOMIC_ADD_I32's returned old values are a permutation of 0 .. n-1;
 *                 MIN, MAX, SUB, XCHG, CAS and ADD_U32 against the CPU; ADD_I64 where
 *                 GPUX_HAS_ATOMIC_I64 (sums past 2^32).
 *   ids           every GPUX_GLOBAL_ID / LOCAL_ID / GROUP_ID / NUM_GROUPS / LOCAL_SIZE /
 *                 GLOBAL_SIZE of every thread of 1-d, 2-d and 3-d launches: exact.
 *   math          sqrt, rsqrt, exp, log, sin, cos, tanh, fabs, floor, fmin, fmax, pow, fma in
 *                 float32 within 16 ulp (OpenCL's and CUDA's bounds are 2-4 ulp) and integer
 *                 min/max exactly.
 *   options       "-DSCALE=3" triples the result; without it the factor is 1.
 *   views         a slice at element 128 (512 bytes) works on both backends; at element 1 it
 *                 works on CUDA and is GPUX_ERROR_INVALID_ARGUMENT (naming the alignment) on
 *                 OpenCL; elements outside the view stay untouched.
 *   args_persist  arguments stay set between launches; one changed with gpux_kernel_set_arg.
 *   cuda_shared   CUDA only: extern __shared__ sized by shared_bytes (2 KiB and 80 KiB).
 *   build_error   a compile error on the user's line 3 (dialect and the native language):
 *                 GPUX_ERROR_KERNEL_BUILD, the message holds the compiler's log with line 3
 *                 (":3:"; NVRTC writes "(3)") and the offending identifier.
 *   not_found     GPUX_ERROR_KERNEL_NOT_FOUND listing the kernels the program defines.
 *   arg_errors    wrong counts, a float32 scalar for a pointer, an array for a scalar, local
 *                 memory for a pointer or a scalar, an unknown kind, out-of-range indices, an
 *                 unset argument: GPUX_ERROR_INVALID_ARGUMENT; the right kind of the wrong
 *                 dtype (an int32 or float64 scalar for a float parameter, an int64 for an int,
 *                 an int32 array for a float *): K_DTYPE_ERR; nothing written; the kernel still
 *                 runs with good arguments.
 *   launch_errors ndim -1, 0 and 4, a block over gpux_kernel_max_block_size (1-d, and as 2-d
 *                 and 3-d products), a zero block entry: GPUX_ERROR_INVALID_ARGUMENT; a grid
 *                 whose thread count overflows 64 bits: K_OVERFLOW_ERR; the largest block runs.
 *   null_errors   NULL handles and pointers in every call: GPUX_ERROR_NULL_POINTER; release
 *                 functions take NULL.
 *   lang_errors   CUDA source on OpenCL / OpenCL source on CUDA: GPUX_ERROR_UNSUPPORTED; an
 *                 unknown language: GPUX_ERROR_INVALID_ARGUMENT.
 *   other_context an array of another context: GPUX_ERROR_CONTEXT_MISMATCH.
 *   build_log     a #warning shows in gpux_program_build_log of a compiled program (a source
 *                 unique to the run, so no cache answers); "" when a cache answered.
 *   origin        a second create of the same source and options in one context is
 *                 GPUX_PROGRAM_MEMORY_CACHE; other options are not.
 *   release_order the program released before its kernel: the kernel still launches.
 * After every error: the context still works (gt_smoke, synchronize) and the pool's
 * bytes_in_use is what it was before (nothing leaked on the device; host leaks: ASan). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"
#include "gpux/kernel.h"
#include "kernel_sources.h"

static gpux_backend_kind g_backend;
static int is_cuda(void) { return g_backend == GPUX_BACKEND_CUDA; }
/* include/gpux/kernel.h: an argument of the right kind but the wrong dtype (an int32 scalar
 * for a float parameter, an int32 array for a float *) is a dtype mismatch; a grid whose
 * thread count overflows is a size overflow */
#define K_DTYPE_ERR GPUX_ERROR_DTYPE_MISMATCH
#define K_OVERFLOW_ERR GPUX_ERROR_SIZE_OVERFLOW
#define POISON_INT 0xAB
#define POISON_FLOAT 0xFF /* every byte 0xff: a NaN */

/* ------------------------------------------------------------------ dialect sources */

static const char *k_src_vadd = KSRC_VADD;

static const char *k_src_scalars =
    "GPUX_KERNEL scalars(GPUX_GLOBAL float *of, GPUX_GLOBAL int *oi, GPUX_GLOBAL gpux_i64 *ol,\n"
    "                    GPUX_GLOBAL gpux_u8 *ob, const float f, const gpux_u8 u8,\n"
    "                    const gpux_i64 i64, const gpux_u8 b, const int i32,\n"
    "                    const unsigned short h) {\n"
    "  if (GPUX_GLOBAL_ID(0) == 0) {\n"
    "    of[0] = f;\n"
    "    oi[0] = i32;\n"
    "    oi[1] = (int)h;\n"
    "    ol[0] = i64;\n"
    "    ob[0] = u8;\n"
    "    ob[1] = b;\n"
    "  }\n"
    "}\n"
    "#if GPUX_HAS_FP64\n"
    "GPUX_KERNEL scalar_f64(GPUX_GLOBAL double *od, const gpux_u8 pad, const double d) {\n"
    "  if (GPUX_GLOBAL_ID(0) == 0) {\n"
    "    od[0] = d;\n"
    "    od[1] = (double)pad;\n"
    "  }\n"
    "}\n"
    "#endif\n";

static const char *k_src_macros =
    "GPUX_KERNEL macros(GPUX_GLOBAL int *o) {\n"
    "#ifdef GPUX_CUDA\n"
    "  o[0] = 10 + GPUX_CUDA;\n"
    "#else\n"
    "  o[0] = 0;\n"
    "#endif\n"
    "#ifdef GPUX_OPENCL\n"
    "  o[1] = 10 + GPUX_OPENCL;\n"
    "#else\n"
    "  o[1] = 0;\n"
    "#endif\n"
    "  o[2] = GPUX_HAS_FP64;\n"
    "  o[3] = GPUX_HAS_ATOMIC_I64;\n"
    "}\n";

/* two local buffers: a float sum and an int max per work-group (block a power of two) */
static const char *k_src_local =
    "GPUX_FUNC int imax2(int a, int b) { return max(a, b); }\n"
    "GPUX_KERNEL block_sum(GPUX_GLOBAL const float *x, GPUX_GLOBAL float *sums,\n"
    "                      GPUX_GLOBAL int *maxes, GPUX_LOCAL_PTR(float) fbuf,\n"
    "                      GPUX_LOCAL_PTR(int) ibuf, const int n) {\n"
    "  int lid = (int)GPUX_LOCAL_ID(0);\n"
    "  int bs = (int)GPUX_LOCAL_SIZE(0);\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  *(fbuf + lid) = i < n ? x[i] : 0.0f;\n"
    "  ibuf[lid] = i < n ? (int)(x[i] * 1000.0f) : -2147483647;\n"
    "  GPUX_BARRIER();\n"
    "  for (int s = bs / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) {\n"
    "      fbuf[lid] = fbuf[lid] + fbuf[lid + s];\n"
    "      ibuf[lid] = imax2(ibuf[lid], ibuf[lid + s]);\n"
    "    }\n"
    "    GPUX_BARRIER();\n"
    "  }\n"
    "  if (lid == 0) {\n"
    "    sums[GPUX_GROUP_ID(0)] = *fbuf;\n"
    "    maxes[GPUX_GROUP_ID(0)] = ibuf[0];\n"
    "  }\n"
    "}\n";

static const char *k_src_transpose = KSRC_TRANSPOSE;

static const char *k_src_hist = KSRC_HISTOGRAM;

static const char *k_src_fsum =
    "GPUX_KERNEL fsum(GPUX_GLOBAL const float *x, GPUX_GLOBAL float *out, const int n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i < n) GPUX_ATOMIC_ADD_F32(out, x[i]);\n"
    "}\n"
    "GPUX_KERNEL fsum_local(GPUX_GLOBAL const float *x, GPUX_GLOBAL float *out, const int n) {\n"
    "  GPUX_LOCAL_ARRAY(float, acc, 1);\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (GPUX_LOCAL_ID(0) == 0) acc[0] = 0.0f;\n"
    "  GPUX_BARRIER();\n"
    "  if (i < n) GPUX_ATOMIC_ADD_F32_LOCAL(&acc[0], x[i]);\n"
    "  GPUX_BARRIER();\n"
    "  if (GPUX_LOCAL_ID(0) == 0) GPUX_ATOMIC_ADD_F32(out, acc[0]);\n"
    "}\n";

/* c: [0] add counter, [1] min, [2] max, [3] sub, [4] xchg target, [5] CAS counter;
 * u: [0] unsigned add */
static const char *k_src_atomics =
    "GPUX_KERNEL atomics(GPUX_GLOBAL const int *x, GPUX_GLOBAL int *c, GPUX_GLOBAL gpux_u32 *u,\n"
    "                    GPUX_GLOBAL int *old, GPUX_GLOBAL int *xchg_old, const int n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i >= n) return;\n"
    "  old[i] = GPUX_ATOMIC_ADD_I32(&c[0], 1);\n"
    "  GPUX_ATOMIC_MIN_I32(&c[1], x[i]);\n"
    "  GPUX_ATOMIC_MAX_I32(&c[2], x[i]);\n"
    "  GPUX_ATOMIC_SUB_I32(&c[3], x[i] & 255);\n"
    "  xchg_old[i] = GPUX_ATOMIC_XCHG_I32(&c[4], (int)i);\n"
    "  int cur = c[5], prev;\n"
    "  while ((prev = GPUX_ATOMIC_CAS_I32(&c[5], cur, cur + 3)) != cur) cur = prev;\n"
    "  GPUX_ATOMIC_ADD_U32(&u[0], (gpux_u32)x[i]);\n"
    "}\n"
    "GPUX_KERNEL atomics64(GPUX_GLOBAL const gpux_i64 *x, GPUX_GLOBAL gpux_i64 *s, const int n) {\n"
    "#if GPUX_HAS_ATOMIC_I64\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i < n) GPUX_ATOMIC_ADD_I64(s, x[i]);\n"
    "#endif\n"
    "}\n";

#define NIDS 18
static const char *k_src_ids =
    "GPUX_KERNEL ids(GPUX_GLOBAL gpux_i64 *out) {\n"
    "  gpux_i64 lin = GPUX_GLOBAL_ID(0) +\n"
    "      GPUX_GLOBAL_SIZE(0) * (GPUX_GLOBAL_ID(1) + GPUX_GLOBAL_SIZE(1) * GPUX_GLOBAL_ID(2));\n"
    "  GPUX_GLOBAL gpux_i64 *o = out + lin * 18;\n"
    "  o[0] = GPUX_GLOBAL_ID(0); o[1] = GPUX_GLOBAL_ID(1); o[2] = GPUX_GLOBAL_ID(2);\n"
    "  o[3] = GPUX_LOCAL_ID(0); o[4] = GPUX_LOCAL_ID(1); o[5] = GPUX_LOCAL_ID(2);\n"
    "  o[6] = GPUX_GROUP_ID(0); o[7] = GPUX_GROUP_ID(1); o[8] = GPUX_GROUP_ID(2);\n"
    "  o[9] = GPUX_NUM_GROUPS(0); o[10] = GPUX_NUM_GROUPS(1); o[11] = GPUX_NUM_GROUPS(2);\n"
    "  o[12] = GPUX_LOCAL_SIZE(0); o[13] = GPUX_LOCAL_SIZE(1); o[14] = GPUX_LOCAL_SIZE(2);\n"
    "  o[15] = GPUX_GLOBAL_SIZE(0); o[16] = GPUX_GLOBAL_SIZE(1); o[17] = GPUX_GLOBAL_SIZE(2);\n"
    "}\n";

#define NMATH 13
static const char *k_src_math =
    "GPUX_KERNEL mathf(GPUX_GLOBAL const float *x, GPUX_GLOBAL const float *y,\n"
    "                  GPUX_GLOBAL float *o, GPUX_GLOBAL int *oi, const int n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i >= n) return;\n"
    "  float a = x[i], b = y[i];  /* a in [0.5, 4), b in [-2, 2) */\n"
    "  GPUX_GLOBAL float *r = o + i * 13;\n"
    "  r[0] = sqrt(a); r[1] = rsqrt(a); r[2] = exp(b); r[3] = log(a); r[4] = sin(b);\n"
    "  r[5] = cos(b); r[6] = tanh(b); r[7] = fabs(b); r[8] = floor(b); r[9] = fmin(a, b);\n"
    "  r[10] = fmax(a, b); r[11] = pow(a, b); r[12] = fma(a, b, 1.0f);\n"
    "  int ia = (int)(b * 1000.0f), ib = (int)(a * 100.0f) - 200;\n"
    "  oi[2 * i] = min(ia, ib); oi[2 * i + 1] = max(ia, ib);\n"
    "}\n";

static const char *k_src_scale =
    "#ifndef SCALE\n"
    "#define SCALE 1\n"
    "#endif\n"
    "GPUX_KERNEL scale(GPUX_GLOBAL const float *x, GPUX_GLOBAL float *y, const int n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i < n) y[i] = x[i] * (float)SCALE;\n"
    "}\n";

/* x = 2 x + 1 in place: 2x is exact, so FMA contraction does not change the result */
static const char *k_src_inplace =
    "GPUX_KERNEL twice_plus_one(GPUX_GLOBAL float *x, const int n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i < n) x[i] = x[i] * 2.0f + 1.0f;\n"
    "}\n";

static const char *k_src_err =
    "GPUX_KERNEL errk(GPUX_GLOBAL float *x, const float a, const int n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i < n) x[i] = x[i] * a;\n"
    "}\n";

/* ------------------------------------------------------------------ helpers */

static gpux_program_t prog_new(gpux_source_lang lang, const char *src, const char *opts) {
  gpux_program_t p = NULL;
  GT_OK(gpux_program_create(&p, gt_ctx, lang, src, opts));
  assert_non_null(p);
  return p;
}

static gpux_kernel_t kern_new(gpux_program_t p, const char *name) {
  gpux_kernel_t k = NULL;
  GT_OK(gpux_kernel_create(&k, p, name));
  assert_non_null(k);
  return k;
}

/* program + kernel from one dialect source; the program handle is released at once (the
 * kernel keeps it alive) */
static gpux_kernel_t dialect_kernel(const char *src, const char *name) {
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, src, NULL);
  gpux_kernel_t k = kern_new(p, name);
  gpux_program_release(p);
  return k;
}

static uint64_t cdiv(int64_t n, uint32_t b) { return (uint64_t)((n + b - 1) / b); }

static void call1(gpux_kernel_t k, uint64_t grid, uint32_t block, int nargs,
                  const gpux_arg *args) {
  const uint64_t g[1] = {grid};
  const uint32_t b[1] = {block};
  GT_OK(gpux_kernel_call(k, 1, g, b, nargs, args));
}

static gpux_array_t arr_from(gpux_dtype dt, int64_t n, const void *h) {
  gpux_array_t a = NULL;
  const int64_t s[1] = {n};
  GT_OK(gpux_array_from_host(&a, gt_ctx, dt, 1, s, h));
  return a;
}

static gpux_array_t poisoned(gpux_dtype dt, int64_t n) {
  const int64_t s[1] = {n};
  unsigned char byte = (dt == GPUX_FLOAT32 || dt == GPUX_FLOAT64) ? POISON_FLOAT : POISON_INT;
  return gt_filled_bytes(dt, 1, s, byte);
}

static void read_into(gpux_array_t a, void *h, size_t bytes) { GT_OK(gpux_array_read(a, h, bytes)); }

static gpux_pool_stats pool_now(void) {
  gpux_pool_stats s;
  GT_OK(gpux_pool_get_stats(&s, gt_ctx));
  return s;
}

/* After an error: nothing queued failed, the context runs ops, no device memory leaked. */
static void after_error(const gpux_pool_stats *before, const char *what) {
  GT_OK(gpux_context_synchronize(gt_ctx));
  gpux_pool_stats now = pool_now();
  GT_ASSERT(now.bytes_in_use == before->bytes_in_use,
            "%s: pool bytes_in_use %" PRIu64 " after the error, %" PRIu64 " before", what,
            now.bytes_in_use, before->bytes_in_use);
  gt_smoke(gt_ctx);
}

/* An error case: the status and a non-empty message, then after_error. A wrong status is
 * counted rather than fatal, so one run reports every error case that is off; each test
 * ends with expect_no_soft_failures(). */
static int g_soft_bad = 0;
/* the message of the last EXPECT_ERR (after_error's GT_OK calls clear the thread's) */
static char g_last_msg[4096];

static void soft_expect(gpux_status want, gpux_status got, const char *expr,
                        const gpux_pool_stats *before) {
  const char *m = gpux_last_error_message();
  snprintf(g_last_msg, sizeof g_last_msg, "%s", m);
  if (got != want) {
    print_error("%s returned %s (%d), expected %s (%d); message: %s\n", expr,
                gpux_status_name(got), (int)got, gpux_status_name(want), (int)want, m);
    g_soft_bad++;
  } else if (want != GPUX_SUCCESS && (!m || !m[0])) {
    print_error("%s: %s with an empty message\n", expr, gpux_status_name(got));
    g_soft_bad++;
  }
  after_error(before, expr);
}
#define EXPECT_ERR(want, call, before) soft_expect((want), (call), #call, (before))
static void expect_no_soft_failures(const char *what) {
  int n = g_soft_bad;
  g_soft_bad = 0;
  GT_ASSERT(n == 0, "%s: %d error case(s) returned the wrong status (listed above)", what, n);
}

/* the thread's message, or the last EXPECT_ERR's (cleared since by after_error) */
static int msg_has(const char *needle) {
  return strstr(gpux_last_error_message(), needle) || strstr(g_last_msg, needle);
}

/* n float32 values compared exactly (bits, except -0 == +0) */
static void expect_f32_equal(const char *label, const float *got, const float *want, int64_t n) {
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++)
    if (!(got[i] == want[i])) {
      if (first < 0) first = i;
      if (bad < 8)
        print_error("%s: [%" PRId64 "] got %.9g, expected %.9g\n", label, i, (double)got[i],
                    (double)want[i]);
      bad++;
    }
  if (bad)
    GT_FAIL("%s: %" PRId64 " of %" PRId64 " values differ (first [%" PRId64 "])", label, bad, n,
            first);
}

static void expect_i32_equal(const char *label, const int32_t *got, const int32_t *want,
                             int64_t n) {
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      if (first < 0) first = i;
      if (bad < 8)
        print_error("%s: [%" PRId64 "] got %" PRId32 ", expected %" PRId32 "\n", label, i,
                    got[i], want[i]);
      bad++;
    }
  if (bad)
    GT_FAIL("%s: %" PRId64 " of %" PRId64 " values differ (first [%" PRId64 "])", label, bad, n,
            first);
}

static int all_bytes(const void *p, size_t n, unsigned char b) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++)
    if (c[i] != b) return 0;
  return 1;
}

/* ------------------------------------------------------------------ vadd */

static void vadd_case(gpux_kernel_t k, int64_t n, uint32_t block, uint64_t seed) {
  char label[96];
  snprintf(label, sizeof label, "vadd n=%" PRId64 " block=%u", n, block);
  const float *ha = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, seed);
  const float *hb = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, seed + 1);
  gpux_array_t a = arr_from(GPUX_FLOAT32, n, ha), b = arr_from(GPUX_FLOAT32, n, hb);
  gpux_array_t c = poisoned(GPUX_FLOAT32, n);
  const gpux_arg args[4] = {gpux_arg_array(a), gpux_arg_array(b), gpux_arg_array(c),
                            gpux_arg_i64(n)};
  call1(k, cdiv(n, block), block, 4, args);
  float *got = gt_malloc((size_t)n * sizeof *got), *want = gt_malloc((size_t)n * sizeof *want);
  read_into(c, got, (size_t)n * sizeof *got);
  /* the float32 rounding of the exact (double) sum: tolerance 0 */
  for (int64_t i = 0; i < n; i++) want[i] = (float)((double)ha[i] + (double)hb[i]);
  expect_f32_equal(label, got, want, n);
  GT_FREE(got, want);
  GT_RELEASE(a, b, c);
}

static void test_vadd(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_vadd, "vadd");
  int na = -1;
  GT_OK(gpux_kernel_num_args(&na, k));
  GT_ASSERT(na == 4, "vadd: gpux_kernel_num_args = %d, expected 4", na);
  uint32_t mb = 0;
  GT_OK(gpux_kernel_max_block_size(&mb, k));
  GT_ASSERT(mb >= 256, "vadd: max block %u < 256", mb);
  vadd_case(k, 1024, 256, 11);
  vadd_case(k, 1, 256, 12);
  vadd_case(k, 1, 1, 13);
  vadd_case(k, 1001, 256, 14);
  vadd_case(k, 1001, 96, 15);
  vadd_case(k, GT_BIG, 256, 16);

  /* a grid of 0 queues nothing: the output stays poison */
  const int64_t n = 1024;
  const float *ha = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, 11);
  gpux_array_t a = arr_from(GPUX_FLOAT32, n, ha), c = poisoned(GPUX_FLOAT32, n);
  const gpux_arg args[4] = {gpux_arg_array(a), gpux_arg_array(a), gpux_arg_array(c),
                            gpux_arg_i64(n)};
  const uint64_t g0[3] = {0, 1, 1}, g20[3] = {4, 0, 1}, g30[3] = {4, 1, 0};
  const uint32_t b256[3] = {256, 1, 1};
  GT_OK(gpux_kernel_call(k, 1, g0, b256, 4, args));
  GT_OK(gpux_kernel_call(k, 2, g20, b256, 4, args));
  GT_OK(gpux_kernel_call(k, 3, g30, b256, 4, args));
  float *got = gt_malloc((size_t)n * sizeof *got);
  read_into(c, got, (size_t)n * sizeof *got);
  GT_ASSERT(all_bytes(got, (size_t)n * sizeof *got, POISON_FLOAT),
            "vadd: a launch with a grid entry of 0 wrote to the output");
  free(got);
  GT_RELEASE(a, c);

  /* empty arrays pass null pointers; n = 0 makes every thread return */
  gpux_array_t e = NULL;
  const int64_t s0[1] = {0};
  GT_OK(gpux_array_empty(&e, gt_ctx, GPUX_FLOAT32, 1, s0));
  const gpux_arg eargs[4] = {gpux_arg_array(e), gpux_arg_array(e), gpux_arg_array(e),
                             gpux_arg_i64(0)};
  GT_OK(gpux_kernel_call(k, 1, g0, b256, 4, eargs));
  call1(k, 1, 256, 4, eargs);
  GT_OK(gpux_context_synchronize(gt_ctx));
  gpux_array_release(e);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ native saxpy */

static const char *k_cl_saxpy =
    "__kernel void saxpy(const float a, __global const float *x, __global float *y,\n"
    "                    const int n) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static const char *k_cu_saxpy =
    "extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "__global__ void saxpy_cpp(float a, const float *__restrict__ x, float *__restrict__ y,\n"
    "                          int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static void saxpy_case(gpux_kernel_t k, const char *label, int64_t n, float alpha, uint64_t seed) {
  char lb[128];
  snprintf(lb, sizeof lb, "%s n=%" PRId64, label, n);
  const float *hx = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, seed);
  const float *hy = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, seed + 1);
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, hx), y = arr_from(GPUX_FLOAT32, n, hy);
  const gpux_arg args[4] = {gpux_arg_f32(alpha), gpux_arg_array(x), gpux_arg_array(y),
                            gpux_arg_i32((int32_t)n)};
  call1(k, cdiv(n, 128), 128, 4, args);
  float *got = gt_malloc((size_t)n * sizeof *got);
  read_into(y, got, (size_t)n * sizeof *got);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    double ax = (double)alpha * hx[i], want = ax + hy[i];
    double tol = 0x1p-22 * (fabs(ax) + fabs((double)hy[i])); /* 2 roundings of 2^-24 */
    if (!(fabs((double)got[i] - want) <= tol)) {
      if (bad < 8)
        print_error("%s: [%" PRId64 "] got %.9g, expected %.9g (tol %.3g)\n", lb, i,
                    (double)got[i], want, tol);
      bad++;
    }
  }
  GT_ASSERT(bad == 0, "%s: %" PRId64 " of %" PRId64 " values outside the tolerance", lb, bad, n);
  free(got);
  GT_RELEASE(x, y);
}

static void test_native_saxpy(void **state) {
  (void)state;
  if (is_cuda()) {
    gpux_program_t p = prog_new(GPUX_SOURCE_CUDA, k_cu_saxpy, NULL);
    gpux_kernel_t k1 = kern_new(p, "saxpy"), k2 = kern_new(p, "saxpy_cpp");
    int na = 0;
    GT_OK(gpux_kernel_num_args(&na, k2));
    GT_ASSERT(na == 4, "saxpy_cpp: %d parameters, expected 4", na);
    saxpy_case(k1, "CUDA extern \"C\" saxpy", 1001, 2.5f, 21);
    saxpy_case(k1, "CUDA extern \"C\" saxpy", 1, -0.75f, 23);
    saxpy_case(k2, "CUDA C++ saxpy_cpp (mangled)", 1001, -3.25f, 25);
    saxpy_case(k2, "CUDA C++ saxpy_cpp (mangled)", GT_BIG, 1.5f, 27);
    gpux_kernel_release(k1);
    gpux_kernel_release(k2);
    gpux_program_release(p);
  } else {
    gpux_program_t p = prog_new(GPUX_SOURCE_OPENCL, k_cl_saxpy, NULL);
    gpux_kernel_t k = kern_new(p, "saxpy");
    int na = 0;
    GT_OK(gpux_kernel_num_args(&na, k));
    GT_ASSERT(na == 4, "saxpy: %d parameters, expected 4", na);
    saxpy_case(k, "OpenCL C saxpy", 1001, 2.5f, 21);
    saxpy_case(k, "OpenCL C saxpy", 1, -0.75f, 23);
    saxpy_case(k, "OpenCL C saxpy", GT_BIG, 1.5f, 27);
    gpux_kernel_release(k);
    gpux_program_release(p);
  }
}

/* ------------------------------------------------------------------ scalars */

static void test_scalars(void **state) {
  (void)state;
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, k_src_scalars, NULL);
  gpux_kernel_t k = kern_new(p, "scalars");
  int na = 0;
  GT_OK(gpux_kernel_num_args(&na, k));
  GT_ASSERT(na == 10, "scalars: %d parameters, expected 10", na);
  static const struct {
    float f;
    uint8_t u8, b;
    int64_t i64;
    int32_t i32;
    uint16_t h;
  } sets[3] = {
      {3.14159274f, 200, 1, INT64_C(-1234567890123456789), -123456789, 0x3c00},
      {-0.0f, 255, 0, INT64_MAX, INT32_MIN, 0xfbff},
      {1.17549435e-38f, 0, 1, INT64_MIN, INT32_MAX, 0x8001},
  };
  gpux_array_t of = poisoned(GPUX_FLOAT32, 1), oi = poisoned(GPUX_INT32, 2);
  gpux_array_t ol = poisoned(GPUX_INT64, 1), ob = poisoned(GPUX_UINT8, 2);
  for (int s = 0; s < 3; s++) {
    const gpux_arg args[10] = {gpux_arg_array(of),    gpux_arg_array(oi),
                               gpux_arg_array(ol),    gpux_arg_array(ob),
                               gpux_arg_f32(sets[s].f), gpux_arg_u8(sets[s].u8),
                               gpux_arg_i64(sets[s].i64), gpux_arg_bool(sets[s].b),
                               gpux_arg_i32(sets[s].i32), gpux_arg_f16_bits(sets[s].h)};
    call1(k, 1, 1, 10, args);
    float gf;
    int32_t gi[2];
    int64_t gl;
    uint8_t gb[2];
    read_into(of, &gf, sizeof gf);
    read_into(oi, gi, sizeof gi);
    read_into(ol, &gl, sizeof gl);
    read_into(ob, gb, sizeof gb);
    GT_ASSERT(memcmp(&gf, &sets[s].f, 4) == 0, "set %d: float32 %.9g arrived as %.9g", s,
              (double)sets[s].f, (double)gf);
    GT_ASSERT(gi[0] == sets[s].i32, "set %d: int32 %" PRId32 " arrived as %" PRId32, s,
              sets[s].i32, gi[0]);
    GT_ASSERT(gi[1] == (int32_t)sets[s].h, "set %d: float16 bits 0x%04x arrived as 0x%04x", s,
              sets[s].h, (unsigned)gi[1]);
    GT_ASSERT(gl == sets[s].i64, "set %d: int64 %" PRId64 " arrived as %" PRId64, s,
              sets[s].i64, gl);
    GT_ASSERT(gb[0] == sets[s].u8, "set %d: uint8 %u arrived as %u", s, sets[s].u8, gb[0]);
    GT_ASSERT(gb[1] == sets[s].b, "set %d: bool %u arrived as %u", s, sets[s].b, gb[1]);
  }
  gpux_kernel_release(k);
  GT_RELEASE(of, oi, ol, ob);

  if (gt_info.fp64) {
    gpux_kernel_t k64 = kern_new(p, "scalar_f64");
    gpux_array_t od = poisoned(GPUX_FLOAT64, 2);
    const double vals[4] = {1.0 / 3.0, -1e300, -0.0, 4.9406564584124654e-324};
    const uint8_t pads[4] = {255, 0, 1, 77};
    for (int s = 0; s < 4; s++) {
      const gpux_arg args[3] = {gpux_arg_array(od), gpux_arg_u8(pads[s]), gpux_arg_f64(vals[s])};
      call1(k64, 1, 1, 3, args);
      double got[2];
      read_into(od, got, sizeof got);
      /* copied, not computed: the bits arrive unchanged (-0.0 and a subnormal too) */
      GT_ASSERT(memcmp(&got[0], &vals[s], sizeof(double)) == 0,
                "float64 %.17g arrived as %.17g", vals[s], got[0]);
      GT_ASSERT(got[1] == (double)pads[s], "uint8 %u before a float64 arrived as %g", pads[s],
                got[1]);
    }
    gpux_kernel_release(k64);
    gpux_array_release(od);
  } else {
    gpux_kernel_t k64 = NULL;
    GT_EXPECT(GPUX_ERROR_KERNEL_NOT_FOUND, gpux_kernel_create(&k64, p, "scalar_f64"));
    assert_null(k64);
  }
  gpux_program_release(p);
}

/* Runs the macros kernel into got: GPUX_CUDA and GPUX_OPENCL (10 + the value, 0 when not
 * defined), GPUX_HAS_FP64, GPUX_HAS_ATOMIC_I64. */
static void macros_run(int32_t got[4]) {
  gpux_kernel_t k = dialect_kernel(k_src_macros, "macros");
  gpux_array_t o = poisoned(GPUX_INT32, 4);
  const gpux_arg args[1] = {gpux_arg_array(o)};
  call1(k, 1, 1, 1, args);
  read_into(o, got, 4 * sizeof got[0]);
  gpux_array_release(o);
  gpux_kernel_release(k);
}

static void test_macros(void **state) {
  (void)state;
  int32_t got[4];
  macros_run(got);
  GT_ASSERT(got[0] == (is_cuda() ? 11 : 0), "GPUX_CUDA: got %d", got[0]);
  GT_ASSERT(got[1] == (is_cuda() ? 0 : 11), "GPUX_OPENCL: got %d", got[1]);
  GT_ASSERT(got[2] == (gt_info.fp64 ? 1 : 0), "GPUX_HAS_FP64 = %d, device fp64 %d", got[2],
            gt_info.fp64);
  GT_ASSERT(got[3] == 0 || got[3] == 1, "GPUX_HAS_ATOMIC_I64 = %d", got[3]);
  if (is_cuda()) GT_ASSERT(got[3] == 1, "GPUX_HAS_ATOMIC_I64 = 0 on CUDA");
}

/* ------------------------------------------------------------------ local memory */

/* extra: bytes added to the first local buffer (unused by the kernel) */
static void local_case(gpux_kernel_t k, int64_t n, uint32_t block, uint64_t extra,
                       uint64_t seed) {
  char label[128];
  snprintf(label, sizeof label, "block_sum n=%" PRId64 " block=%u local %" PRIu64 " + %u bytes",
           n, block, (uint64_t)block * 4 + extra, block * 4);
  const float *hx = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, seed);
  int64_t ng = (int64_t)cdiv(n, block);
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, hx);
  gpux_array_t sums = poisoned(GPUX_FLOAT32, ng), maxes = poisoned(GPUX_INT32, ng);
  const gpux_arg args[6] = {gpux_arg_array(x), gpux_arg_array(sums), gpux_arg_array(maxes),
                            gpux_arg_local((uint64_t)block * 4 + extra),
                            gpux_arg_local((uint64_t)block * 4), gpux_arg_i32((int32_t)n)};
  call1(k, (uint64_t)ng, block, 6, args);
  float *gs = gt_malloc((size_t)ng * 4);
  int32_t *gm = gt_malloc((size_t)ng * 4), *wm = gt_malloc((size_t)ng * 4);
  read_into(sums, gs, (size_t)ng * 4);
  read_into(maxes, gm, (size_t)ng * 4);
  int depth = 0;
  while ((1u << depth) < block) depth++;
  int64_t bad = 0;
  for (int64_t g = 0; g < ng; g++) {
    double s = 0, sa = 0;
    int32_t m = -2147483647;
    for (int64_t i = g * block; i < (g + 1) * block && i < n; i++) {
      s += hx[i];
      sa += fabs((double)hx[i]);
      int32_t v = (int32_t)(hx[i] * 1000.0f);
      if (v > m) m = v;
    }
    wm[g] = m;
    double tol = (depth + 1) * 0x1p-24 * sa;
    if (!(fabs((double)gs[g] - s) <= tol)) {
      if (bad < 8)
        print_error("%s: group %" PRId64 " sum %.9g, expected %.9g (tol %.3g)\n", label, g,
                    (double)gs[g], s, tol);
      bad++;
    }
  }
  GT_ASSERT(bad == 0, "%s: %" PRId64 " of %" PRId64 " group sums outside the tolerance", label,
            bad, ng);
  expect_i32_equal(label, gm, wm, ng);
  GT_FREE(gs, gm, wm);
  GT_RELEASE(x, sums, maxes);
}

static void test_local_ptr(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_local, "block_sum");
  local_case(k, 100003, 256, 4, 31); /* the second buffer is not 16-byte aligned by luck */
  local_case(k, 1, 64, 4, 32);
  local_case(k, 4097, 64, 0, 33);
  /* CUDA: over 48 KiB of dynamic shared memory needs the kernel's opt-in attribute (every
   * supported GPU has 99 KiB or more per block); OpenCL devices may have only 32 KiB */
  if (is_cuda()) local_case(k, 100003, 256, 64 * 1024, 34);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ transpose */

static void transpose_case(gpux_kernel_t k, int rows, int cols, uint64_t seed) {
  char label[96];
  snprintf(label, sizeof label, "transpose %dx%d", rows, cols);
  int64_t n = (int64_t)rows * cols;
  float *h = gt_malloc((size_t)n * 4), *want = gt_malloc((size_t)n * 4),
        *got = gt_malloc((size_t)n * 4);
  gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, seed);
  gpux_array_t in = arr_from(GPUX_FLOAT32, n, h), out = poisoned(GPUX_FLOAT32, n);
  const gpux_arg args[4] = {gpux_arg_array(in), gpux_arg_array(out), gpux_arg_i32(rows),
                            gpux_arg_i32(cols)};
  const uint64_t grid[2] = {cdiv(cols, TILE), cdiv(rows, TILE)};
  const uint32_t block[2] = {TILE, TILE};
  GT_OK(gpux_kernel_call(k, 2, grid, block, 4, args));
  read_into(out, got, (size_t)n * 4);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) want[(int64_t)c * rows + r] = h[(int64_t)r * cols + c];
  expect_f32_equal(label, got, want, n);
  GT_FREE(h, want, got);
  GT_RELEASE(in, out);
}

static void test_transpose(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_transpose, "transpose");
  transpose_case(k, 67, 130, 41);
  transpose_case(k, 130, 67, 42);
  transpose_case(k, 1, 1, 43);
  transpose_case(k, 1, 200, 44);
  transpose_case(k, 33, 16, 45);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ histogram */

static void test_histogram(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_hist, "histogram");
  const int64_t sizes[3] = {1, 1001, 1000003};
  const uint64_t grids[3] = {1, 3, 13};
  for (int t = 0; t < 3; t++) {
    int64_t n = sizes[t];
    char label[96];
    snprintf(label, sizeof label, "histogram n=%" PRId64 " grid=%" PRIu64, n, grids[t]);
    gt_rng r;
    gt_rng_seed(&r, 51 + (uint64_t)t);
    int32_t *hx = gt_malloc((size_t)n * 4);
    int32_t h0[NBINS], want[NBINS], got[NBINS];
    ksrc_histogram_inputs(&r, hx, n, h0, want, 2); /* two launches */
    gpux_array_t x = arr_from(GPUX_INT32, n, hx), hist = arr_from(GPUX_INT32, NBINS, h0);
    const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_array(hist), gpux_arg_i32((int32_t)n)};
    call1(k, grids[t], 128, 3, args);
    call1(k, grids[t], 128, 3, args);
    read_into(hist, got, sizeof got);
    expect_i32_equal(label, got, want, NBINS);
    free(hx);
    GT_RELEASE(x, hist);
  }
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ float atomics */

/* One launch of an fsum kernel (x, out, n) over x's n elements in blocks of `block`, into a
 * one-float output that starts at start; returns the float the kernel left there. */
static float fsum_run(gpux_kernel_t k, gpux_array_t x, int64_t n, uint32_t block, float start) {
  float got = 0;
  gpux_array_t out = arr_from(GPUX_FLOAT32, 1, &start);
  const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_array(out), gpux_arg_i32((int32_t)n)};
  call1(k, cdiv(n, block), block, 3, args);
  read_into(out, &got, 4);
  gpux_array_release(out);
  return got;
}

static void test_atomic_f32(void **state) {
  (void)state;
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, k_src_fsum, NULL);
  gpux_kernel_t kg = kern_new(p, "fsum"), kl = kern_new(p, "fsum_local");
  gpux_program_release(p);
  const int64_t n = 100003;
  float *hx = gt_malloc((size_t)n * 4);
  gt_rng r;
  gt_rng_seed(&r, 61);
  /* integers 0..15: every partial sum is an integer below 2^24, exact in any order */
  double exact = 0;
  for (int64_t i = 0; i < n; i++) {
    hx[i] = (float)gt_rng_int(&r, 0, 15);
    exact += hx[i];
  }
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, hx);
  for (int which = 0; which < 2; which++) {
    float got = fsum_run(which ? kl : kg, x, n, 256, 0.5f);
    GT_ASSERT((double)got == exact + 0.5, "%s integer-valued: got %.9g, expected %.9g",
              which ? "fsum_local" : "fsum", (double)got, exact + 0.5);
  }
  gpux_array_release(x);

  /* random floats: any order of the n additions, |error| <= (n + 1) 2^-24 sum |x| */
  const float *hr = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_POS, 62);
  double s = 0, sa = 0;
  for (int64_t i = 0; i < n; i++) {
    s += hr[i];
    sa += fabs((double)hr[i]);
  }
  x = arr_from(GPUX_FLOAT32, n, hr);
  for (int which = 0; which < 2; which++) {
    float got = fsum_run(which ? kl : kg, x, n, 128, 0.0f);
    double tol = (double)(n + 1) * 0x1p-24 * sa;
    GT_ASSERT(fabs((double)got - s) <= tol, "%s random: got %.9g, expected %.9g (tol %.3g)",
              which ? "fsum_local" : "fsum", (double)got, s, tol);
  }
  free(hx);
  gpux_array_release(x);
  gpux_kernel_release(kg);
  gpux_kernel_release(kl);
}

/* ------------------------------------------------------------------ integer atomics */

static void test_atomics_int(void **state) {
  (void)state;
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, k_src_atomics, NULL);
  gpux_kernel_t k = kern_new(p, "atomics"), k64 = kern_new(p, "atomics64");
  gpux_program_release(p);
  const int64_t n = 5001;
  int32_t *hx = gt_malloc((size_t)n * 4);
  gt_fill_random(hx, GPUX_INT32, n, GT_DOM_ANY, 71);
  int32_t c0[6] = {0, INT32_MAX, INT32_MIN, 1000000, -1, 7};
  uint32_t u0 = 0xfffff000u;
  gpux_array_t x = arr_from(GPUX_INT32, n, hx), c = arr_from(GPUX_INT32, 6, c0);
  gpux_array_t u = arr_from(GPUX_INT32, 1, &u0); /* gpux has no uint32: int32 storage */
  gpux_array_t old = poisoned(GPUX_INT32, n), xold = poisoned(GPUX_INT32, n);
  const gpux_arg args[6] = {gpux_arg_array(x),   gpux_arg_array(c),    gpux_arg_array(u),
                            gpux_arg_array(old), gpux_arg_array(xold), gpux_arg_i32((int32_t)n)};
  call1(k, cdiv(n, 64), 64, 6, args);
  int32_t gc[6];
  uint32_t gu;
  int32_t *gold = gt_malloc((size_t)n * 4), *gxold = gt_malloc((size_t)n * 4);
  read_into(c, gc, sizeof gc);
  read_into(u, &gu, sizeof gu);
  read_into(old, gold, (size_t)n * 4);
  read_into(xold, gxold, (size_t)n * 4);
  int32_t mn = INT32_MAX, mx = INT32_MIN, sub = 1000000;
  uint32_t us = u0;
  for (int64_t i = 0; i < n; i++) {
    if (hx[i] < mn) mn = hx[i];
    if (hx[i] > mx) mx = hx[i];
    sub -= hx[i] & 255;
    us += (uint32_t)hx[i];
  }
  GT_ASSERT(gc[0] == n, "ATOMIC_ADD_I32 counter %d, expected %" PRId64, gc[0], n);
  GT_ASSERT(gc[1] == mn, "ATOMIC_MIN_I32 %d, expected %d", gc[1], mn);
  GT_ASSERT(gc[2] == mx, "ATOMIC_MAX_I32 %d, expected %d", gc[2], mx);
  GT_ASSERT(gc[3] == sub, "ATOMIC_SUB_I32 %d, expected %d", gc[3], sub);
  GT_ASSERT(gc[5] == 7 + 3 * n, "ATOMIC_CAS_I32 loop %d, expected %" PRId64, gc[5], 7 + 3 * n);
  GT_ASSERT(gu == us, "ATOMIC_ADD_U32 %u, expected %u", gu, us);
  /* the old values of the counter: each of 0 .. n-1 exactly once */
  char *seen = gt_malloc((size_t)n);
  memset(seen, 0, (size_t)n);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    if (gold[i] < 0 || gold[i] >= n || seen[gold[i]]) bad++;
    else seen[gold[i]] = 1;
  }
  GT_ASSERT(bad == 0, "ATOMIC_ADD_I32's returned old values are not a permutation of 0..n-1 "
            "(%" PRId64 " bad)", bad);
  /* XCHG: the old values and the final value are -1 and each index once */
  memset(seen, 0, (size_t)n);
  int minus1 = 0;
  bad = 0;
  for (int64_t i = 0; i <= n; i++) {
    int32_t v = i < n ? gxold[i] : gc[4];
    if (v == -1) minus1++;
    else if (v < 0 || v >= n || seen[v]) bad++;
    else seen[v] = 1;
  }
  GT_ASSERT(bad == 0 && minus1 == 1, "ATOMIC_XCHG_I32: old values and final value are not "
            "{-1, 0..n-1} (%" PRId64 " bad, %d times -1)", bad, minus1);
  GT_FREE(seen, gold, gxold, hx);
  GT_RELEASE(x, c, u, old, xold);

  /* int64 atomics where the dialect has them (macros test checks the flag) */
  int32_t fl[4];
  macros_run(fl);
  if (fl[3] == 1) {
    int64_t *h64 = gt_malloc((size_t)n * 8), s0 = INT64_C(5) << 40, want = s0, got = 0;
    gt_rng r;
    gt_rng_seed(&r, 72);
    for (int64_t i = 0; i < n; i++) {
      h64[i] = gt_rng_int(&r, -(INT64_C(1) << 40), INT64_C(1) << 41);
      want += h64[i];
    }
    gpux_array_t x64 = arr_from(GPUX_INT64, n, h64), s = arr_from(GPUX_INT64, 1, &s0);
    const gpux_arg a64[3] = {gpux_arg_array(x64), gpux_arg_array(s), gpux_arg_i32((int32_t)n)};
    call1(k64, cdiv(n, 64), 64, 3, a64);
    read_into(s, &got, 8);
    GT_ASSERT(got == want, "ATOMIC_ADD_I64 %" PRId64 ", expected %" PRId64, got, want);
    free(h64);
    GT_RELEASE(x64, s);
  }
  gpux_kernel_release(k64);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ indexing */

static void ids_case(gpux_kernel_t k, int ndim, const uint64_t *grid, const uint32_t *block) {
  uint64_t g[3] = {1, 1, 1};
  uint32_t b[3] = {1, 1, 1};
  for (int d = 0; d < ndim; d++) {
    g[d] = grid[d];
    b[d] = block[d];
  }
  char label[128];
  snprintf(label, sizeof label, "ids %d-d grid (%" PRIu64 ", %" PRIu64 ", %" PRIu64
           ") block (%u, %u, %u)", ndim, g[0], g[1], g[2], b[0], b[1], b[2]);
  int64_t gs[3], threads = 1;
  for (int d = 0; d < 3; d++) {
    gs[d] = (int64_t)(g[d] * b[d]);
    threads *= gs[d];
  }
  gpux_array_t out = poisoned(GPUX_INT64, threads * NIDS);
  const gpux_arg args[1] = {gpux_arg_array(out)};
  GT_OK(gpux_kernel_call(k, ndim, grid, block, 1, args));
  int64_t *got = gt_malloc((size_t)(threads * NIDS) * 8);
  read_into(out, got, (size_t)(threads * NIDS) * 8);
  int64_t bad = 0;
  for (int64_t z = 0; z < gs[2]; z++)
    for (int64_t y = 0; y < gs[1]; y++)
      for (int64_t x = 0; x < gs[0]; x++) {
        const int64_t gid[3] = {x, y, z};
        int64_t want[NIDS];
        for (int d = 0; d < 3; d++) {
          want[d] = gid[d];
          want[3 + d] = gid[d] % b[d];
          want[6 + d] = gid[d] / b[d];
          want[9 + d] = (int64_t)g[d];
          want[12 + d] = b[d];
          want[15 + d] = gs[d];
        }
        const int64_t *o = got + (x + gs[0] * (y + gs[1] * z)) * NIDS;
        for (int j = 0; j < NIDS; j++)
          if (o[j] != want[j]) {
            static const char *names[6] = {"GLOBAL_ID", "LOCAL_ID", "GROUP_ID", "NUM_GROUPS",
                                           "LOCAL_SIZE", "GLOBAL_SIZE"};
            if (bad < 8)
              print_error("%s: thread (%" PRId64 ", %" PRId64 ", %" PRId64 ") GPUX_%s(%d) = %"
                          PRId64 ", expected %" PRId64 "\n", label, x, y, z, names[j / 3],
                          j % 3, o[j], want[j]);
            bad++;
          }
      }
  GT_ASSERT(bad == 0, "%s: %" PRId64 " wrong values", label, bad);
  free(got);
  gpux_array_release(out);
}

static void test_ids(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_ids, "ids");
  const uint64_t g1[1] = {5}, g2[2] = {5, 3}, g3[3] = {3, 2, 5};
  const uint32_t b1[1] = {7}, b2[2] = {8, 4}, b3[3] = {4, 3, 2};
  ids_case(k, 1, g1, b1);
  ids_case(k, 2, g2, b2);
  ids_case(k, 3, g3, b3);
  const uint64_t g3b[3] = {1, 7, 2};
  const uint32_t b3b[3] = {5, 1, 3};
  ids_case(k, 3, g3b, b3b);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ math */

static void test_math(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_math, "mathf");
  const int64_t n = 2001;
  float *hx = gt_malloc((size_t)n * 4), *hy = gt_malloc((size_t)n * 4);
  gt_rng r;
  gt_rng_seed(&r, 81);
  for (int64_t i = 0; i < n; i++) {
    hx[i] = (float)gt_rng_uniform(&r, 0.5, 4.0);
    hy[i] = (float)gt_rng_uniform(&r, -2.0, 2.0);
  }
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, hx), y = arr_from(GPUX_FLOAT32, n, hy);
  gpux_array_t o = poisoned(GPUX_FLOAT32, n * NMATH), oi = poisoned(GPUX_INT32, 2 * n);
  const gpux_arg args[5] = {gpux_arg_array(x), gpux_arg_array(y), gpux_arg_array(o),
                            gpux_arg_array(oi), gpux_arg_i32((int32_t)n)};
  call1(k, cdiv(n, 64), 64, 5, args);
  float *got = gt_malloc((size_t)(n * NMATH) * 4);
  int32_t *goti = gt_malloc((size_t)(2 * n) * 4);
  read_into(o, got, (size_t)(n * NMATH) * 4);
  read_into(oi, goti, (size_t)(2 * n) * 4);
  static const char *names[NMATH] = {"sqrt", "rsqrt", "exp",   "log",  "sin",  "cos", "tanh",
                                     "fabs", "floor", "fmin", "fmax", "pow", "fma"};
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    double a = hx[i], b = hy[i];
    double want[NMATH] = {sqrt(a), 1.0 / sqrt(a), exp(b), log(a), sin(b), cos(b), tanh(b),
                          fabs(b), floor(b), fmin(a, b), fmax(a, b), pow(a, b), a * b + 1.0};
    for (int j = 0; j < NMATH; j++) {
      /* 16 ulp of the result (the languages promise 2-4), with an absolute part of 16 ulp of
       * 1 for results near 0 (sin, log, tanh); exact functions must be exact */
      int exact = j == 7 || j == 8 || j == 9 || j == 10;
      double tol = exact ? 0 : 16 * 0x1p-23 * (fabs(want[j]) + 1.0);
      double w = exact ? (double)(float)want[j] : want[j];
      double g = got[i * NMATH + j];
      if (!(fabs(g - w) <= tol)) {
        if (bad < 8)
          print_error("math: %s(%.9g, %.9g) = %.9g, expected %.9g (tol %.3g)\n", names[j], a, b,
                      g, w, tol);
        bad++;
      }
    }
    int32_t ia = (int32_t)(hy[i] * 1000.0f), ib = (int32_t)(hx[i] * 100.0f) - 200;
    if (goti[2 * i] != (ia < ib ? ia : ib) || goti[2 * i + 1] != (ia > ib ? ia : ib)) {
      if (bad < 8)
        print_error("math: min/max(%d, %d) = %d, %d\n", ia, ib, goti[2 * i], goti[2 * i + 1]);
      bad++;
    }
  }
  GT_ASSERT(bad == 0, "math: %" PRId64 " results outside the tolerance", bad);
  GT_FREE(hx, hy, got, goti);
  GT_RELEASE(x, y, o, oi);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ options */

static void test_options(void **state) {
  (void)state;
  const int64_t n = 1001;
  const float *hx = gt_random_cached(GPUX_FLOAT32, n, GT_DOM_ANY, 91);
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, hx);
  float *got = gt_malloc((size_t)n * 4), *want = gt_malloc((size_t)n * 4);
  const char *opts[3] = {NULL, "-DSCALE=3", ""};
  const float factor[3] = {1.0f, 3.0f, 1.0f};
  for (int t = 0; t < 3; t++) {
    gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, k_src_scale, opts[t]);
    gpux_kernel_t k = kern_new(p, "scale");
    gpux_array_t y = poisoned(GPUX_FLOAT32, n);
    const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_array(y), gpux_arg_i32((int32_t)n)};
    call1(k, cdiv(n, 128), 128, 3, args);
    read_into(y, got, (size_t)n * 4);
    for (int64_t i = 0; i < n; i++) want[i] = (float)((double)hx[i] * factor[t]);
    char label[64];
    snprintf(label, sizeof label, "options \"%s\"", opts[t] ? opts[t] : "(NULL)");
    expect_f32_equal(label, got, want, n);
    gpux_array_release(y);
    gpux_kernel_release(k);
    gpux_program_release(p);
  }
  GT_FREE(got, want);
  gpux_array_release(x);
}

/* ------------------------------------------------------------------ views */

/* twice_plus_one on base[off .. off + len); want: the status of the call (for an error, the
 * message must explain the alignment and the base stays untouched) */
static void view_case(gpux_kernel_t k, int64_t off, int64_t len, gpux_status want_status) {
  const int64_t nb = 4096;
  const float *h = gt_random_cached(GPUX_FLOAT32, nb, GT_DOM_ANY, 101);
  gpux_array_t base = arr_from(GPUX_FLOAT32, nb, h), v = NULL;
  const int64_t start[1] = {off}, stop[1] = {off + len}, step[1] = {1};
  GT_OK(gpux_array_slice(&v, base, start, stop, step));
  gpux_pool_stats before = pool_now();
  const gpux_arg args[2] = {gpux_arg_array(v), gpux_arg_i32((int32_t)len)};
  const uint64_t g[1] = {cdiv(len, 64)};
  const uint32_t b[1] = {64};
  char label[96];
  snprintf(label, sizeof label, "view [%" PRId64 ", %" PRId64 ") of %" PRId64 " floats", off,
           off + len, nb);
  gpux_status s = gpux_kernel_call(k, 1, g, b, 2, args);
  GT_EXPECT(want_status, s);
  int ok = want_status == GPUX_SUCCESS;
  if (!ok) {
    GT_ASSERT(strstr(gpux_last_error_message(), "align"),
              "%s: the message does not explain the alignment: %s", label,
              gpux_last_error_message());
    after_error(&before, label);
  }
  float *got = gt_malloc((size_t)nb * 4), *want = gt_malloc((size_t)nb * 4);
  read_into(base, got, (size_t)nb * 4);
  for (int64_t i = 0; i < nb; i++)
    want[i] = (ok && i >= off && i < off + len) ? h[i] * 2.0f + 1.0f : h[i];
  expect_f32_equal(label, got, want, nb);
  GT_FREE(got, want);
  GT_RELEASE(v, base);
}

static void test_views(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_inplace, "twice_plus_one");
  /* 128 floats = 512 bytes: a multiple of every supported device's base alignment */
  view_case(k, 128, 1001, GPUX_SUCCESS);
  view_case(k, 0, 1, GPUX_SUCCESS);
  view_case(k, 2048, 2048, GPUX_SUCCESS);
  /* element 1 (4 bytes): CUDA takes any element-aligned pointer; OpenCL sub-buffers need the
   * device's base-address alignment */
  gpux_status unaligned = is_cuda() ? GPUX_SUCCESS : GPUX_ERROR_INVALID_ARGUMENT;
  view_case(k, 1, 1001, unaligned);
  view_case(k, 3, 1, unaligned);
  /* the kernel still runs afterwards */
  view_case(k, 128, 1001, GPUX_SUCCESS);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ arguments persist */

static void test_args_persist(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_err, "errk"); /* x[i] *= a */
  const int64_t n = 513;
  float h[513], got[513], want[513];
  for (int64_t i = 0; i < n; i++) h[i] = (float)(i % 17) - 8.0f;
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, h);
  const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_f32(2.0f), gpux_arg_i32((int32_t)n)};
  GT_OK(gpux_kernel_set_args(k, 3, args));
  const uint64_t g[1] = {cdiv(n, 32)};
  const uint32_t b[1] = {32};
  GT_OK(gpux_kernel_launch(k, 1, g, b, 0));
  GT_OK(gpux_kernel_launch(k, 1, g, b, 0)); /* x 4 */
  const gpux_arg three = gpux_arg_f32(3.0f);
  GT_OK(gpux_kernel_set_arg(k, 1, &three));
  GT_OK(gpux_kernel_launch(k, 1, g, b, 0)); /* x 12 */
  const gpux_arg n100 = gpux_arg_i32(100);
  GT_OK(gpux_kernel_set_arg(k, 2, &n100));
  GT_OK(gpux_kernel_launch(k, 1, g, b, 0)); /* first 100: x 36 */
  read_into(x, got, sizeof got);
  for (int64_t i = 0; i < n; i++) want[i] = h[i] * (i < 100 ? 36.0f : 12.0f);
  expect_f32_equal("arguments kept between launches", got, want, n);
  gpux_array_release(x);
  gpux_kernel_release(k);
}

/* ------------------------------------------------------------------ CUDA dynamic shared */

static const char *k_cu_shared =
    "extern \"C\" __global__ void bsum(const int *x, int *out, int n) {\n"
    "  extern __shared__ int s[];\n"
    "  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "  s[t] = i < n ? x[i] : 0;\n"
    "  __syncthreads();\n"
    "  for (int k = blockDim.x / 2; k > 0; k >>= 1) {\n"
    "    if (t < k) s[t] += s[t + k];\n"
    "    __syncthreads();\n"
    "  }\n"
    "  if (t == 0) out[blockIdx.x] = s[0];\n"
    "}\n";

static void test_cuda_shared(void **state) {
  (void)state;
  if (!is_cuda()) {
    print_message("cuda_shared: CUDA only (OpenCL takes local memory as arguments)\n");
    return;
  }
  gpux_program_t p = prog_new(GPUX_SOURCE_CUDA, k_cu_shared, NULL);
  gpux_kernel_t k = kern_new(p, "bsum");
  const int64_t n = 10007;
  const uint32_t block = 512;
  int64_t ng = (int64_t)cdiv(n, block);
  int32_t *hx = gt_malloc((size_t)n * 4), *want = gt_malloc((size_t)ng * 4),
          *got = gt_malloc((size_t)ng * 4);
  gt_rng r;
  gt_rng_seed(&r, 111);
  for (int64_t i = 0; i < n; i++) hx[i] = (int32_t)gt_rng_int(&r, -100000, 100000);
  for (int64_t g = 0; g < ng; g++) {
    want[g] = 0;
    for (int64_t i = g * block; i < (g + 1) * block && i < n; i++) want[g] += hx[i];
  }
  gpux_array_t x = arr_from(GPUX_INT32, n, hx), out = poisoned(GPUX_INT32, ng);
  const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_array(out), gpux_arg_i32((int32_t)n)};
  GT_OK(gpux_kernel_set_args(k, 3, args));
  const uint64_t g[1] = {(uint64_t)ng};
  const uint32_t b[1] = {block};
  GT_OK(gpux_kernel_launch(k, 1, g, b, block * 4));
  read_into(out, got, (size_t)ng * 4);
  expect_i32_equal("CUDA extern __shared__ block sums", got, want, ng);
  /* over 48 KiB (the kernel's opt-in attribute) */
  gpux_array_release(out);
  out = poisoned(GPUX_INT32, ng);
  const gpux_arg out2 = gpux_arg_array(out);
  GT_OK(gpux_kernel_set_arg(k, 1, &out2));
  GT_OK(gpux_kernel_launch(k, 1, g, b, 80 * 1024));
  read_into(out, got, (size_t)ng * 4);
  expect_i32_equal("CUDA extern __shared__ block sums, 80 KiB", got, want, ng);
  GT_FREE(hx, want, got);
  GT_RELEASE(x, out);
  gpux_kernel_release(k);
  gpux_program_release(p);
}

/* ------------------------------------------------------------------ build errors */

static void expect_build_error(gpux_source_lang lang, const char *src, const char *ident,
                               const char *what) {
  gpux_pool_stats before = pool_now();
  gpux_program_t p = NULL;
  GT_EXPECT(GPUX_ERROR_KERNEL_BUILD, gpux_program_create(&p, gt_ctx, lang, src, NULL));
  assert_null(p);
  const char *m = gpux_last_error_message();
  print_message("%s: %s\n", what, m);
  /* clang (pocl) and NVIDIA's OpenCL write "name:3:col:" (the backend corrects NVIDIA's
   * line numbers), NVRTC "name(3):" */
  GT_ASSERT(strstr(m, ":3:") || (is_cuda() && strstr(m, "(3)")),
            "%s: the message does not give the user's line 3: %s", what, m);
  GT_ASSERT(strstr(m, ident) != NULL, "%s: the message does not hold the log (no '%s'): %s",
            what, ident, m);
  after_error(&before, what);
}

static void test_build_error(void **state) {
  (void)state;
  expect_build_error(GPUX_SOURCE_DIALECT,
                     "GPUX_KERNEL bad(GPUX_GLOBAL float *x) {\n"
                     "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
                     "  x[i] = gpux_undefined_q + 1.0f;\n"
                     "}\n",
                     "gpux_undefined_q", "dialect compile error on line 3");
  if (is_cuda())
    expect_build_error(GPUX_SOURCE_CUDA,
                       "extern \"C\" __global__ void bad(float *x) {\n"
                       "  int i = threadIdx.x;\n"
                       "  x[i] = gpux_undefined_c + 1.0f;\n"
                       "}\n",
                       "gpux_undefined_c", "CUDA compile error on line 3");
  else
    expect_build_error(GPUX_SOURCE_OPENCL,
                       "__kernel void bad(__global float *x) {\n"
                       "  int i = get_global_id(0);\n"
                       "  x[i] = gpux_undefined_c + 1.0f;\n"
                       "}\n",
                       "gpux_undefined_c", "OpenCL compile error on line 3");
  /* the same good source still builds afterwards */
  gpux_kernel_t k = dialect_kernel(k_src_vadd, "vadd");
  gpux_kernel_release(k);
}

static void test_not_found(void **state) {
  (void)state;
  gpux_pool_stats before = pool_now();
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT,
                              "GPUX_KERNEL alpha_kern(GPUX_GLOBAL int *x) { x[0] = 1; }\n"
                              "GPUX_KERNEL beta_kern(GPUX_GLOBAL int *x, const int v) {\n"
                              "  x[0] = v;\n"
                              "}\n",
                              NULL);
  gpux_kernel_t k = NULL;
  GT_EXPECT(GPUX_ERROR_KERNEL_NOT_FOUND, gpux_kernel_create(&k, p, "gamma_kern"));
  assert_null(k);
  GT_ASSERT(msg_has("gamma_kern"), "the message does not name the missing kernel: %s",
            gpux_last_error_message());
  GT_ASSERT(msg_has("alpha_kern") && msg_has("beta_kern"),
            "the message does not list the program's kernels: %s", gpux_last_error_message());
  after_error(&before, "kernel not found");
  GT_EXPECT(GPUX_ERROR_KERNEL_NOT_FOUND, gpux_kernel_create(&k, p, "alpha"));
  GT_EXPECT(GPUX_ERROR_KERNEL_NOT_FOUND, gpux_kernel_create(&k, p, ""));
  after_error(&before, "kernel not found (prefix, empty)");
  /* the program still gives its kernels */
  k = kern_new(p, "beta_kern");
  gpux_array_t o = poisoned(GPUX_INT32, 1);
  const gpux_arg args[2] = {gpux_arg_array(o), gpux_arg_i32(-77)};
  call1(k, 1, 1, 2, args);
  int32_t v = 0;
  read_into(o, &v, 4);
  GT_ASSERT(v == -77, "beta_kern wrote %d, expected -77", v);
  gpux_array_release(o);
  gpux_kernel_release(k);
  gpux_program_release(p);
}

/* ------------------------------------------------------------------ argument errors */

static void test_arg_errors(void **state) {
  (void)state;
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, k_src_err, NULL);
  gpux_kernel_t k = kern_new(p, "errk"); /* (float *x, float a, int n) */
  const int64_t n = 301;
  float h[301], got[301], want[301];
  for (int i = 0; i < n; i++) h[i] = (float)(i % 13) - 6.0f;
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, h), xi = poisoned(GPUX_INT32, n);
  gpux_pool_stats before = pool_now();
  const gpux_arg good[3] = {gpux_arg_array(x), gpux_arg_f32(3.0f), gpux_arg_i32((int32_t)n)};
  const gpux_arg a_i32 = gpux_arg_i32(3), a_f32 = gpux_arg_f32(1.0f), a_i64 = gpux_arg_i64(3);
  const gpux_arg a_xi = gpux_arg_array(xi), a_x = gpux_arg_array(x), a_loc = gpux_arg_local(64);
  const gpux_arg a_f64 = gpux_arg_f64(3.0);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_args(k, 2, good), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_args(k, 4, good), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_args(k, 0, good), &before);
  EXPECT_ERR(K_DTYPE_ERR, gpux_kernel_set_arg(k, 1, &a_i32), &before);
  EXPECT_ERR(K_DTYPE_ERR, gpux_kernel_set_arg(k, 1, &a_f64), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(k, 0, &a_f32), &before);
  EXPECT_ERR(K_DTYPE_ERR, gpux_kernel_set_arg(k, 0, &a_xi), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(k, 0, &a_loc), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(k, 2, &a_x), &before);
  EXPECT_ERR(K_DTYPE_ERR, gpux_kernel_set_arg(k, 2, &a_i64), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(k, 1, &a_loc), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(k, -1, &a_f32), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(k, 3, &a_f32), &before);
  const gpux_arg bad_kind = {(gpux_arg_kind)9, GPUX_FLOAT32, {.f32 = 1.0f}};
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_set_arg(k, 1, &bad_kind), &before);
  const uint64_t g[1] = {cdiv(n, 64)};
  const uint32_t b[1] = {64};
  const gpux_arg mixed[3] = {gpux_arg_array(x), gpux_arg_i32(3), gpux_arg_i32((int32_t)n)};
  EXPECT_ERR(K_DTYPE_ERR, gpux_kernel_call(k, 1, g, b, 3, mixed), &before);
  /* x untouched by every failed call */
  read_into(x, got, sizeof got);
  expect_f32_equal("arg errors: x untouched", got, h, n);

  /* an argument left unset: a fresh kernel with two of three set */
  gpux_kernel_t k2 = kern_new(p, "errk");
  GT_OK(gpux_kernel_set_arg(k2, 0, &good[0]));
  GT_OK(gpux_kernel_set_arg(k2, 2, &good[2]));
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k2, 1, g, b, 0), &before);
  GT_OK(gpux_kernel_set_arg(k2, 1, &good[1]));
  GT_OK(gpux_kernel_launch(k2, 1, g, b, 0)); /* x 3 */
  gpux_kernel_release(k2);

  /* the first kernel still runs with good arguments */
  call1(k, g[0], b[0], 3, good); /* x 9 */
  read_into(x, got, sizeof got);
  for (int i = 0; i < n; i++) want[i] = h[i] * 9.0f;
  expect_f32_equal("after argument errors", got, want, n);
  GT_RELEASE(x, xi);
  gpux_kernel_release(k);
  gpux_program_release(p);
  expect_no_soft_failures("arg_errors");
}

static void test_launch_errors(void **state) {
  (void)state;
  gpux_kernel_t k = dialect_kernel(k_src_err, "errk");
  const int64_t n = 100;
  float h[100], got[100];
  for (int i = 0; i < n; i++) h[i] = (float)i;
  gpux_array_t x = arr_from(GPUX_FLOAT32, n, h);
  const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_f32(2.0f), gpux_arg_i32((int32_t)n)};
  GT_OK(gpux_kernel_set_args(k, 3, args));
  gpux_pool_stats before = pool_now();
  uint32_t mb = 0;
  GT_OK(gpux_kernel_max_block_size(&mb, k));
  GT_ASSERT(mb >= 1 && mb <= 65536, "max block size %u", mb);
  const uint64_t g1[3] = {1, 1, 1};
  const uint32_t b1[3] = {1, 1, 1};
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k, 0, g1, b1, 0), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k, 4, g1, b1, 0), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k, -1, g1, b1, 0), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_call(k, 4, g1, b1, 3, args), &before);
  const uint32_t big1[1] = {mb + 1};
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k, 1, g1, big1, 0), &before);
  GT_ASSERT(msg_has("block") || msg_has("work-group") || msg_has("work group"),
            "the message does not name the block limit: %s", gpux_last_error_message());
  const uint32_t big2[2] = {mb / 2 + 1, 2}; /* each entry fits, the product does not */
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k, 2, g1, big2, 0), &before);
  const uint32_t big3[3] = {1, 2, mb}; /* product 2 mb */
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k, 3, g1, big3, 0), &before);
  const uint32_t zero[1] = {0};
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT, gpux_kernel_launch(k, 1, g1, zero, 0), &before);
  /* (2^62 + 1) x 64 threads overflows 64 bits (wrapped, it would be 64 threads: x changes) */
  const uint64_t huge[1] = {(UINT64_C(1) << 62) + 1};
  const uint32_t b64[1] = {64};
  EXPECT_ERR(K_OVERFLOW_ERR, gpux_kernel_launch(k, 1, huge, b64, 0), &before);
  read_into(x, got, sizeof got);
  expect_f32_equal("launch errors: x untouched", got, h, n);
  /* the largest legal block runs */
  const uint64_t gm[1] = {cdiv(n, mb)};
  const uint32_t bm[1] = {mb};
  GT_OK(gpux_kernel_launch(k, 1, gm, bm, 0));
  read_into(x, got, sizeof got);
  for (int i = 0; i < n; i++) h[i] *= 2.0f;
  expect_f32_equal("the largest block", got, h, n);
  gpux_array_release(x);
  gpux_kernel_release(k);
  expect_no_soft_failures("launch_errors");
}

static void test_null_errors(void **state) {
  (void)state;
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, k_src_err, NULL), pn = NULL;
  gpux_kernel_t k = kern_new(p, "errk"), kn = NULL;
  const char *log = NULL;
  gpux_program_origin org;
  int na;
  uint32_t mb;
  const uint64_t g[1] = {1};
  const uint32_t b[1] = {1};
  gpux_array_t x = poisoned(GPUX_FLOAT32, 4);
  const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_f32(2.0f), gpux_arg_i32(4)};
  gpux_pool_stats before = pool_now();
  const gpux_status NP = GPUX_ERROR_NULL_POINTER;
  EXPECT_ERR(NP, gpux_program_create(NULL, gt_ctx, GPUX_SOURCE_DIALECT, k_src_err, NULL), &before);
  EXPECT_ERR(NP, gpux_program_create(&pn, NULL, GPUX_SOURCE_DIALECT, k_src_err, NULL), &before);
  EXPECT_ERR(NP, gpux_program_create(&pn, gt_ctx, GPUX_SOURCE_DIALECT, NULL, NULL), &before);
  assert_null(pn);
  EXPECT_ERR(NP, gpux_program_build_log(NULL, p), &before);
  EXPECT_ERR(NP, gpux_program_build_log(&log, NULL), &before);
  EXPECT_ERR(NP, gpux_program_origin_of(NULL, p), &before);
  EXPECT_ERR(NP, gpux_program_origin_of(&org, NULL), &before);
  EXPECT_ERR(NP, gpux_kernel_create(NULL, p, "errk"), &before);
  EXPECT_ERR(NP, gpux_kernel_create(&kn, NULL, "errk"), &before);
  EXPECT_ERR(NP, gpux_kernel_create(&kn, p, NULL), &before);
  assert_null(kn);
  EXPECT_ERR(NP, gpux_kernel_num_args(NULL, k), &before);
  EXPECT_ERR(NP, gpux_kernel_num_args(&na, NULL), &before);
  EXPECT_ERR(NP, gpux_kernel_max_block_size(NULL, k), &before);
  EXPECT_ERR(NP, gpux_kernel_max_block_size(&mb, NULL), &before);
  EXPECT_ERR(NP, gpux_kernel_set_arg(NULL, 0, &args[0]), &before);
  EXPECT_ERR(NP, gpux_kernel_set_arg(k, 0, NULL), &before);
  const gpux_arg null_arr = gpux_arg_array(NULL);
  EXPECT_ERR(NP, gpux_kernel_set_arg(k, 0, &null_arr), &before);
  EXPECT_ERR(NP, gpux_kernel_set_args(NULL, 3, args), &before);
  EXPECT_ERR(NP, gpux_kernel_set_args(k, 3, NULL), &before);
  GT_OK(gpux_kernel_set_args(k, 3, args));
  EXPECT_ERR(NP, gpux_kernel_launch(NULL, 1, g, b, 0), &before);
  EXPECT_ERR(NP, gpux_kernel_launch(k, 1, NULL, b, 0), &before);
  EXPECT_ERR(NP, gpux_kernel_launch(k, 1, g, NULL, 0), &before);
  EXPECT_ERR(NP, gpux_kernel_call(NULL, 1, g, b, 3, args), &before);
  EXPECT_ERR(NP, gpux_kernel_call(k, 1, NULL, b, 3, args), &before);
  EXPECT_ERR(NP, gpux_kernel_call(k, 1, g, NULL, 3, args), &before);
  EXPECT_ERR(NP, gpux_kernel_call(k, 1, g, b, 3, NULL), &before);
  gpux_program_release(NULL);
  gpux_kernel_release(NULL);
  /* nothing ran: x is still poison */
  float got[4];
  read_into(x, got, sizeof got);
  GT_ASSERT(all_bytes(got, sizeof got, POISON_FLOAT), "a failed call wrote to x");
  gpux_array_release(x);
  gpux_kernel_release(k);
  gpux_program_release(p);
  expect_no_soft_failures("null_errors");
}

static void test_lang_errors(void **state) {
  (void)state;
  gpux_pool_stats before = pool_now();
  gpux_program_t p = NULL;
  if (is_cuda())
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED,
               gpux_program_create(&p, gt_ctx, GPUX_SOURCE_OPENCL, k_cl_saxpy, NULL), &before);
  else
    EXPECT_ERR(GPUX_ERROR_UNSUPPORTED,
               gpux_program_create(&p, gt_ctx, GPUX_SOURCE_CUDA, k_cu_saxpy, NULL), &before);
  assert_null(p);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT,
             gpux_program_create(&p, gt_ctx, (gpux_source_lang)7, k_src_err, NULL), &before);
  EXPECT_ERR(GPUX_ERROR_INVALID_ARGUMENT,
             gpux_program_create(&p, gt_ctx, (gpux_source_lang)-1, k_src_err, NULL), &before);
  assert_null(p);
  expect_no_soft_failures("lang_errors");
}

static void test_other_context(void **state) {
  (void)state;
  gpux_context_t c2 = gt_context_new();
  gpux_kernel_t k = dialect_kernel(k_src_err, "errk");
  gpux_array_t other = NULL;
  const int64_t s[1] = {16};
  GT_OK(gpux_array_ones(&other, c2, GPUX_FLOAT32, 1, s));
  gpux_pool_stats before = pool_now();
  const gpux_arg a = gpux_arg_array(other);
  EXPECT_ERR(GPUX_ERROR_CONTEXT_MISMATCH, gpux_kernel_set_arg(k, 0, &a), &before);
  const gpux_arg args[3] = {a, gpux_arg_f32(2.0f), gpux_arg_i32(16)};
  const uint64_t g[1] = {1};
  const uint32_t b[1] = {16};
  EXPECT_ERR(GPUX_ERROR_CONTEXT_MISMATCH, gpux_kernel_call(k, 1, g, b, 3, args), &before);
  float got[16];
  GT_OK(gpux_array_read(other, got, sizeof got));
  for (int i = 0; i < 16; i++) GT_ASSERT(got[i] == 1.0f, "the other context's array changed");
  /* a program of the other context works there */
  gpux_program_t p2 = NULL;
  GT_OK(gpux_program_create(&p2, c2, GPUX_SOURCE_DIALECT, k_src_err, NULL));
  gpux_kernel_t k2 = kern_new(p2, "errk");
  GT_OK(gpux_kernel_call(k2, 1, g, b, 3, args));
  GT_OK(gpux_array_read(other, got, sizeof got));
  for (int i = 0; i < 16; i++) GT_ASSERT(got[i] == 2.0f, "other context: [%d] = %g", i, got[i]);
  gpux_kernel_release(k2);
  gpux_program_release(p2);
  gpux_array_release(other);
  gpux_kernel_release(k);
  gt_smoke(c2);
  gpux_context_release(c2);
  expect_no_soft_failures("other_context");
}

/* ------------------------------------------------------------------ log, origin, release */

static void test_build_log(void **state) {
  (void)state;
  /* unique to this run, so neither the memory nor the disk cache can answer */
  char src[512];
  snprintf(src, sizeof src,
           "/* run %ld-%ld */\n"
           "#warning gpux_test_warning_marker\n"
           "GPUX_KERNEL warned(GPUX_GLOBAL int *x) { x[0] = 5; }\n",
           (long)getpid(), (long)time(NULL));
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, src, NULL);
  const char *log = NULL;
  gpux_program_origin org;
  GT_OK(gpux_program_build_log(&log, p));
  GT_OK(gpux_program_origin_of(&org, p));
  assert_non_null(log);
  print_message("build log (origin %d): %s\n", (int)org, log);
  GT_ASSERT(org == GPUX_PROGRAM_COMPILED, "a source new to this run has origin %d", (int)org);
  GT_ASSERT(strstr(log, "gpux_test_warning_marker") != NULL,
            "the build log does not hold the #warning: \"%s\"", log);
  gpux_kernel_t k = kern_new(p, "warned");
  gpux_array_t o = poisoned(GPUX_INT32, 1);
  const gpux_arg args[1] = {gpux_arg_array(o)};
  call1(k, 1, 1, 1, args);
  int32_t v;
  read_into(o, &v, 4);
  GT_ASSERT(v == 5, "warned wrote %d", v);
  gpux_array_release(o);
  gpux_kernel_release(k);
  gpux_program_release(p);

  /* a clean program's log is a string (maybe empty); from a cache it is "" */
  p = prog_new(GPUX_SOURCE_DIALECT, k_src_vadd, NULL);
  GT_OK(gpux_program_build_log(&log, p));
  GT_OK(gpux_program_origin_of(&org, p));
  assert_non_null(log);
  if (org != GPUX_PROGRAM_COMPILED)
    GT_ASSERT(log[0] == '\0', "origin %d (a cache) but the log is \"%s\"", (int)org, log);
  gpux_program_release(p);
}

static void test_origin(void **state) {
  (void)state;
  char src[512];
  snprintf(src, sizeof src, "/* origin %ld-%ld */\n%s", (long)getpid(), (long)time(NULL),
           k_src_scale);
  gpux_program_t p1 = prog_new(GPUX_SOURCE_DIALECT, src, "-DSCALE=2");
  gpux_program_origin o1, o2, o3, o4;
  GT_OK(gpux_program_origin_of(&o1, p1));
  GT_ASSERT(o1 == GPUX_PROGRAM_COMPILED, "first create of a new source: origin %d", (int)o1);
  gpux_program_t p2 = prog_new(GPUX_SOURCE_DIALECT, src, "-DSCALE=2");
  GT_OK(gpux_program_origin_of(&o2, p2));
  GT_ASSERT(o2 == GPUX_PROGRAM_MEMORY_CACHE, "second create: origin %d, expected %d (memory)",
            (int)o2, (int)GPUX_PROGRAM_MEMORY_CACHE);
  gpux_program_t p3 = prog_new(GPUX_SOURCE_DIALECT, src, "-DSCALE=4");
  GT_OK(gpux_program_origin_of(&o3, p3));
  GT_ASSERT(o3 != GPUX_PROGRAM_MEMORY_CACHE, "other options came from the memory cache");
  /* the first handle released: the second still works, and the cache still answers */
  gpux_program_release(p1);
  gpux_kernel_t k2 = kern_new(p2, "scale"), k3 = kern_new(p3, "scale");
  gpux_program_t p4 = prog_new(GPUX_SOURCE_DIALECT, src, "-DSCALE=2");
  GT_OK(gpux_program_origin_of(&o4, p4));
  GT_ASSERT(o4 == GPUX_PROGRAM_MEMORY_CACHE, "third create: origin %d", (int)o4);
  float h[37], got[37];
  for (int i = 0; i < 37; i++) h[i] = (float)i - 18.5f;
  gpux_array_t x = arr_from(GPUX_FLOAT32, 37, h), y = poisoned(GPUX_FLOAT32, 37);
  const gpux_arg args[3] = {gpux_arg_array(x), gpux_arg_array(y), gpux_arg_i32(37)};
  call1(k2, 1, 64, 3, args);
  read_into(y, got, sizeof got);
  for (int i = 0; i < 37; i++) GT_ASSERT(got[i] == 2.0f * h[i], "SCALE=2: [%d] = %g", i, got[i]);
  call1(k3, 1, 64, 3, args);
  read_into(y, got, sizeof got);
  for (int i = 0; i < 37; i++) GT_ASSERT(got[i] == 4.0f * h[i], "SCALE=4: [%d] = %g", i, got[i]);
  GT_RELEASE(x, y);
  gpux_kernel_release(k2);
  gpux_kernel_release(k3);
  gpux_program_release(p2);
  gpux_program_release(p3);
  gpux_program_release(p4);
}

static void test_release_order(void **state) {
  (void)state;
  gpux_program_t p = prog_new(GPUX_SOURCE_DIALECT, k_src_vadd, NULL);
  gpux_kernel_t k = kern_new(p, "vadd"), k2 = kern_new(p, "vadd");
  gpux_program_release(p); /* the kernels keep it alive */
  gpux_kernel_release(k2);
  vadd_case(k, 1001, 128, 121);
  gpux_kernel_release(k);
  /* a program whose kernels are all gone can be created again */
  k = dialect_kernel(k_src_vadd, "vadd");
  vadd_case(k, 257, 64, 122);
  gpux_kernel_release(k);
}

int main(void) {
  gt_init("test_kernel");
  gpux_status s = gpux_context_backend(&g_backend, gt_ctx);
  if (s != GPUX_SUCCESS) {
    fprintf(stderr, "test_kernel: gpux_context_backend: %s: %s\n", gpux_status_name(s),
            gpux_last_error_message());
    gt_shutdown();
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vadd),
      cmocka_unit_test(test_native_saxpy),
      cmocka_unit_test(test_scalars),
      cmocka_unit_test(test_macros),
      cmocka_unit_test(test_local_ptr),
      cmocka_unit_test(test_transpose),
      cmocka_unit_test(test_histogram),
      cmocka_unit_test(test_atomic_f32),
      cmocka_unit_test(test_atomics_int),
      cmocka_unit_test(test_ids),
      cmocka_unit_test(test_math),
      cmocka_unit_test(test_options),
      cmocka_unit_test(test_views),
      cmocka_unit_test(test_args_persist),
      cmocka_unit_test(test_cuda_shared),
      cmocka_unit_test(test_build_error),
      cmocka_unit_test(test_not_found),
      cmocka_unit_test(test_arg_errors),
      cmocka_unit_test(test_launch_errors),
      cmocka_unit_test(test_null_errors),
      cmocka_unit_test(test_lang_errors),
      cmocka_unit_test(test_other_context),
      cmocka_unit_test(test_build_log),
      cmocka_unit_test(test_origin),
      cmocka_unit_test(test_release_order),
  };
  int failed = gt_run("kernel", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
