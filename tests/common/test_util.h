/* gpux tests: shared helpers (context set-up, status checks, random inputs, poisoned
 * outputs, strided views built independently of the library, comparison against the
 * reference with the tolerance table). */
#ifndef GPUX_TEST_UTIL_H
#define GPUX_TEST_UTIL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpux.h"
#include "gpux_kernels.h"
#include "ref.h"

#define GT_EXIT_SKIP 77
/* Lists expanded from the records of kernels/common/gpux_kernels.h, so that a new dtype or
 * op reaches every test that iterates them. */
#define GT__DT(a, dt) (gpux_dtype)GPUX_KDT_##dt,
#define GT__ONE(a, dt) +1
/* the dtypes that compute in their own type (GPUX_DT_ALL); the half dtypes (float16,
 * bfloat16), which compute in float32, have their own test (test_half.c) */
#define GT_COMPUTE_DTYPES (0 GPUX_DT_ALL(GT__ONE, _))
#define GT_COMPUTE_DTYPE_INIT {GPUX_DT_ALL(GT__DT, _)}
/* every array dtype (GPUX_DT_STORAGE) */
#define GT_STORAGE_DTYPES (0 GPUX_DT_STORAGE(GT__ONE, _))
#define GT_STORAGE_DTYPE_INIT {GPUX_DT_STORAGE(GT__DT, _)}
#define GT_BINARY_OPS GPUX_BINARY_OP_COUNT /* gpux_binary_op values 0 .. count - 1 */
#define GT_UNARY_OPS GPUX_UNARY_OP_COUNT
/* the ops whose result has the input's dtype (GPUX_RES_SAME: arithmetic and math), which
 * the expressions' ops prelude defines as gpux_<op>() */
#define GT__SAME_PICK(res, id) GT__SAME_##res(id)
#define GT__SAME_0(id) id,
#define GT__SAME_1(id)
#define GT__SAME_2(id) id, /* GPUX_RES_REAL: the input's dtype for real inputs */
#define GT__SAME_OP(op, id, dts, res) GT__SAME_PICK(res, id)
#define GT_BINARY_SAME_OPS_INIT {GPUX_BINARY_OPS(GT__SAME_OP)}
#define GT_UNARY_SAME_OPS_INIT {GPUX_UNARY_OPS(GT__SAME_OP)}
/* The tests' large size: 2^22 + 3 elements (an odd tail), or GPUX_TEST_BIG (at least 2^16 +
 * 1; odd) where a run must be shorter: under compute-sanitizer's racecheck, which slows
 * kernels 100 times and more, the sizes' role (several blocks, a tail) needs no more. */
int64_t gt_big(void);
#define GT_BIG gt_big()
/* 2^22 + 3 itself, for the tests whose subject is that size (two reduction passes, the
 * ziggurat's rare paths in one draw) */
#define GT_2P22_PLUS_3 (((int64_t)1 << 22) + 3)
#define GT_POISON_BYTE 0xA5

/* The context of the binary, created from the environment by gt_init. */
extern gpux_context_t gt_ctx;
extern gpux_device_info gt_info;

/* Creates gt_ctx with GPUX_BACKEND_DEFAULT (GPUX_BACKEND from the environment) and device -1.
 * If the backend is unavailable or has no device, prints why and exits with 77 (skip). */
void gt_init(const char *binary);
/* Runs a test list built at run time; returns the number of failures. */
int gt_run(const char *group, const struct CMUnitTest *tests, size_t n);
/* Releases gt_ctx and the cached inputs. */
void gt_shutdown(void);
/* Creates another context on the same backend and device as gt_ctx. */
gpux_context_t gt_context_new(void);

/* Runs a small op on c and checks its result (the context works). */
void gt_smoke(gpux_context_t c);

int gt_dtype_available(gpux_dtype dt); /* float64 needs fp64 on the device */
const char *gt_dtype_str(gpux_dtype dt);
const char *gt_binary_str(gpux_binary_op op);
const char *gt_unary_str(gpux_unary_op op);
/* "(3, 4)" into buf */
const char *gt_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape);

/* Status checks: fail the test with the status name and gpux_last_error_message(). */
void gt_check_ok(gpux_status s, const char *expr, const char *file, int line);
void gt_check_status(gpux_status want, gpux_status got, const char *expr, const char *file,
                     int line);
/* GT_OK clears the error message first, so that gt_check_ok_clean can check that a call
 * that succeeds leaves none behind. */
void gt_check_ok_clean(gpux_status s, const char *expr, const char *file, int line);
#define GT_OK(call) (gpux_clear_error(), gt_check_ok_clean((call), #call, __FILE__, __LINE__))
#define GT_EXPECT(want, call) gt_check_status((want), (call), #call, __FILE__, __LINE__)

/* 1 if the numbers in msg contain shape[0..nd) in a row (an error message names a shape). */
int gt_msg_has_shape(const char *msg, int nd, const int64_t *shape);
/* call fails with GPUX_ERROR_SHAPE_MISMATCH and its message names both shapes */
#define GT_EXPECT_SHAPES(call, nd1, s1, nd2, s2)                                               \
  do {                                                                                         \
    GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, call);                                                \
    const char *m_ = gpux_last_error_message();                                                \
    char b1_[64], b2_[64];                                                                     \
    GT_ASSERT(gt_msg_has_shape(m_, nd1, s1) && gt_msg_has_shape(m_, nd2, s2),                  \
              "%s: the message does not give both shapes %s and %s: \"%s\"", #call,         \
              gt_shape_str(b1_, sizeof b1_, nd1, s1), gt_shape_str(b2_, sizeof b2_, nd2, s2), \
              m_);                                                                             \
  } while (0)
void gt_failf(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#define GT_FAIL(...) gt_failf(__FILE__, __LINE__, __VA_ARGS__)
#define GT_ASSERT(cond, ...)              \
  do {                                    \
    if (!(cond)) GT_FAIL(__VA_ARGS__);    \
  } while (0)

void *gt_malloc(size_t bytes); /* fails the test on NULL; never returns NULL (bytes 0 ok) */

/* ---- random inputs (splitmix64; fixed seeds) */
typedef struct gt_rng {
  uint64_t s;
} gt_rng;
void gt_rng_seed(gt_rng *r, uint64_t seed);
uint64_t gt_rng_u64(gt_rng *r);
double gt_rng_unit(gt_rng *r);                   /* [0, 1) */
double gt_rng_uniform(gt_rng *r, double lo, double hi);
int64_t gt_rng_int(gt_rng *r, int64_t lo, int64_t hi); /* [lo, hi] */

typedef enum gt_domain {
  GT_DOM_ANY,      /* floats: mixed magnitudes 1e-3..1e3 with both signs; ints: small values,
                      values next to MIN/MAX, random bits, 0, 1, -1 (wrap-around, x/0, MIN/-1) */
  GT_DOM_POS,      /* floats: positive 1e-3..1e3 */
  GT_DOM_LOG1P,    /* floats: (-1, 10] with tiny values */
  GT_DOM_EXP,      /* floats: [-20, 20] and tiny values */
  GT_DOM_TRIG,     /* floats: [-10, 10] */
  GT_DOM_TAN,      /* floats: [-1.4, 1.4], away from the poles */
  GT_DOM_SIGMOID,  /* floats: [-30, 30] */
  GT_DOM_ROUND,    /* floats: [-100, 100] with many exact halves and integers */
  GT_DOM_POW_BASE, /* floats: [0.1, 10]; ints: small bases, +-1, 0, random bits */
  GT_DOM_POW_EXP,  /* floats: [-4, 4] with integers; ints: 0..70, some negative, some huge */
  GT_DOM_SMALLINT  /* floats and ints: integers in [-8, 8] (many ties for comparisons) */
} gt_domain;
void gt_fill_random(void *buf, gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed);
/* A cached buffer for big inputs (generated once per (dt, dom, n, seed)); do not free. */
const void *gt_random_cached(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed);
gt_domain gt_binary_domain(gpux_binary_op op, gpux_dtype dt, int operand);
gt_domain gt_unary_domain(gpux_unary_op op, gpux_dtype dt);

/* Special values of a dtype (NaN, +-inf, +-0, halves, +-1e30 for floats; MIN, MAX, 0, +-1,
 * bit widths for ints; 0 and 1 for bool). Writes up to cap values of dt into buf and returns
 * their count. */
int64_t gt_special_values(void *buf, gpux_dtype dt, int64_t cap);
/* A new buffer (free it) of n values of dt from gt_fill_random(dom, seed), one element in
 * about `one_in` then replaced by a special value (positions and choices drawn from sp_seed). */
void *gt_random_with_specials(gpux_dtype dt, int64_t n, gt_domain dom, uint64_t seed,
                              uint64_t sp_seed, int one_in);

/* ---- poison */
void gt_poison_host(void *buf, size_t bytes);
/* An array of the given shape filled with the poison byte pattern (written with
 * gpux_array_write). */
gpux_array_t gt_poisoned(gpux_dtype dt, int ndim, const int64_t *shape);

/* ---- views built independently of the library's layout logic */
typedef enum gt_layout {
  GT_CONTIG = 0,  /* a plain contiguous array */
  GT_STRIDED = 1, /* a slice of a larger array: step 2 on even dims, step -2 on odd dims */
  GT_REVERSED = 2 /* every dim reversed (step -1), given with negative start/stop */
} gt_layout;
const char *gt_layout_str(gt_layout l);

typedef struct gt_view {
  gpux_array_t base; /* the allocation */
  gpux_array_t view; /* == base for GT_CONTIG */
  gpux_dtype dt;
  gt_layout layout;
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  int64_t n;
  int64_t base_shape[GPUX_MAX_DIMS];
  int64_t base_n;
  int64_t *map; /* logical row-major index -> base element index */
} gt_view;
/* data: n logical elements (row-major) or NULL for a poisoned output. Positions of the base
 * that are not in the view hold the poison pattern. */
void gt_view_make(gt_view *v, gpux_dtype dt, int ndim, const int64_t *shape, gt_layout lay,
                  const void *data);
/* Reads the base and gathers the view's n elements into out (row-major); fails the test if
 * an element of the base outside the view is not poison any more. */
void gt_view_read(const gt_view *v, void *out, const char *label);
void gt_view_free(gt_view *v);

/* ---- comparison */
typedef enum gt_opclass {
  GT_OPC_EXACT,  /* integers, bool, comparisons, logical ops, copies, casts, min/max,
                    neg/abs/sign/relu, floor/ceil/round, where */
  GT_OPC_ARITH,  /* float add, sub, mul */
  GT_OPC_DIV,    /* float div, mod */
  GT_OPC_SQRT,   /* float sqrt, rsqrt */
  GT_OPC_TRANSC, /* float exp, log, log1p, expm1, sin, cos, tan, tanh, sigmoid, pow */
  GT_OPC_RANGE   /* arange / linspace in float (abs part scales with the range) */
} gt_opclass;
typedef struct gt_tol {
  double rel, abs;
} gt_tol;
/* The tolerance table (test_util.c): |got - want| <= rel * |want| + abs, where want is the
 * double-precision reference rounded to the result dtype; NaN must match NaN, inf must match
 * exactly; integer and bool results must be equal. */
gt_tol gt_tolerance(gpux_dtype result_dt, gt_opclass c);
gt_opclass gt_binary_class(gpux_binary_op op, gpux_dtype dt);
gt_opclass gt_unary_class(gpux_unary_op op, gpux_dtype dt);

/* Compares n results of dtype rdt with the reference; prints up to 8 mismatches with the
 * inputs (in_a / in_b of dtype in_dt, contiguous, may be NULL) and fails the test when
 * any. */
void gt_compare(const char *label, gpux_dtype rdt, const void *got, const ref_value *want,
                int64_t n, gt_tol tol, gpux_dtype in_dt, const void *in_a, const void *in_b);
/* ---- clean-up of lists: GT_RELEASE(a, b, c) releases arrays (NULL entries allowed),
 * GT_FREE(p, q) frees host buffers, each in the order given */
void gt_release_arrays(gpux_array_t *arrays, size_t n);
void gt_free_all(void **bufs, size_t n);
#define GT_RELEASE(...)                                          \
  gt_release_arrays((gpux_array_t[]){__VA_ARGS__},               \
                    sizeof((gpux_array_t[]){__VA_ARGS__}) / sizeof(gpux_array_t))
#define GT_FREE(...) \
  gt_free_all((void *[]){__VA_ARGS__}, sizeof((void *[]){__VA_ARGS__}) / sizeof(void *))

/* Reads an array (any layout) into a new buffer (size * dtype_size bytes). */
void *gt_read_all(gpux_array_t a, int64_t *n_out);
/* Shape/dtype check of an array. */
void gt_check_shape(gpux_array_t a, gpux_dtype dt, int ndim, const int64_t *shape,
                    const char *label);

/* ---- reductions and scans */
/* An array of the given shape whose every byte is `byte` (e.g. 0x7f: a huge finite float). */
gpux_array_t gt_filled_bytes(gpux_dtype dt, int ndim, const int64_t *shape, unsigned char byte);
/* The tolerance table of reductions and scans (test_util.c), against the precise reference
 * (ref_reduce_precise / ref_scan_precise): the absolute bound for one result of op on n
 * elements of in_dt, whose precise value is want and whose elements' |x| sum to sumabs.
 * 0 means exact. Scans: pos is the element's position along the row. */
double gt_reduce_tol(gpux_reduce_op op, gpux_dtype in_dt, gpux_dtype rdt, int64_t n, double want,
                     double sumabs);
double gt_scan_tol(gpux_scan_op op, gpux_dtype rdt, int64_t pos, double want, double sumabs);
/* Compares n results of dtype rdt with precise values: floats within tol[i] (NaN must match
 * NaN, inf exactly; tol NULL: equal values), integers and bool equal. Fails the test when any
 * differs (prints up to 8). */
void gt_compare_tol(const char *label, gpux_dtype rdt, const void *got, const ref_value *want,
                    const double *tol, int64_t n);
/* Bit-for-bit comparison with the canonical reference (any NaN matches any NaN: payloads are
 * not specified). */
void gt_compare_bits(const char *label, gpux_dtype dt, const void *got, const void *want,
                     int64_t n);

/* Complex elementwise results (test_complex_ew.c, fuzz_api.c) against got's reference want
 * (result dtype rdt: dt, its component dtype or bool), with the exactness and tolerances
 * that test_complex_ew.c's header states: ex, the bits (NaN = any NaN); else tol ulps of
 * the component dtype relative to the reference's magnitude; op_pow: per element from a, b
 * (the inputs, for messages; b NULL for unary ops). Fails the test on a wrong element. */
void gt_cx_check(const char *label, gpux_dtype rdt, gpux_dtype dt, const void *got,
                 const void *want, int64_t n, int op_pow, int ex, double tol, const void *a,
                 const void *b);
/* got = a op b (n elements of complex dt, already broadcast), computed by ref_cx_binary */
void gt_cx_check_binary(const char *label, gpux_binary_op op, gpux_dtype dt, const void *got,
                        const void *a, const void *b, int64_t n);
void gt_cx_check_unary(const char *label, gpux_unary_op op, gpux_dtype dt, const void *got,
                       const void *a, int64_t n);
/* the input domains of the complex ops: pow's base / exponent, ties for comparisons and
 * logical ops, the math functions' ranges */
gt_domain gt_cx_binary_domain(gpux_binary_op op, int operand);
gt_domain gt_cx_unary_domain(gpux_unary_op op);

#endif
