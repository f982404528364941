/* gpux-bench: times gpux operations on the context's backend.
 *
 *   gpux-bench [--op add,exp,copy,transpose,sum,...,hostcost,sumscalar,gemm_f32,...|gemm|all]
 *              [--sizes 2^20,...] [--dtype float32] [--reps 20] [--warmup 3]
 *              [--backend cuda|opencl|auto] [--device N|gpu] [--json FILE] [--md FILE]
 *              [--calls 10000] [--batches 10] [--gemm-sizes 1024,4096,8192]
 *              [--gemm-path vendor,native]
 *
 * Device timing: every timed run is bracketed by two device events (gpux_event_record) on the
 * context's stream; the figure is the median over --reps runs, after --warmup untimed runs.
 * Bandwidth is (bytes read + bytes written) / median time, in GB/s (10^9 bytes per second).
 *
 *   add        c = a + b, gpux_binary_into into a preallocated c       3 n elements moved
 *   add_expr   c = a + b as an elementwise expression kernel (gpux_elementwise_call of
 *              "c = a + b", include/gpux/kernel.h), into a preallocated c        3 n
 *   exp        c = exp(a), gpux_unary_into into a preallocated c       2 n
 *   copy       device-to-device copy, gpux_array_copy_into              2 n
 *   concat     two arrays of n / 2 joined into a preallocated n, gpux_concatenate_into (axis
 *              0: two contiguous ranges)                                2 n
 *   concat1    two side x side / 2 arrays (side = floor(sqrt(n)), even) joined along axis 1
 *              into a preallocated side x side (strided blocks)         2 side^2
 *   roll       1-d roll by n / 3, gpux_roll_into                        2 n
 *   pad        1-d edge pad of n - 2 w elements by w = min(4096, n / 4) on each side,
 *              gpux_pad_into                                             2 n - 2 w
 *   tile       1-d, n / 2 elements twice, gpux_tile_into                 1.5 n
 *   repeat     1-d, each of n / 2 elements twice, gpux_repeat_into       1.5 n
 *   take       gather of n elements from a source of n by int64 indices, pseudo-random
 *              (i * 2654435761 mod n), gpux_take_into (checked mode)    n x + n idx + n out
 *   take_seq   the same with sequential indices (0, 1, ..., n - 1)      likewise
 *   compress   x[mask] (gpux_compress, a new array: the timing includes the count's one
 *              8-byte read and the pool allocation) with a half-true random bool mask
 *              (gpux_random_bernoulli, seed 3)        x + mask + output: n (es + 1) + count es
 *   nonzero    gpux_nonzero of that mask (1-d: one int64 array)   n + 8 count
 *   bincount   gpux_bincount_into of n int64 values i * 2654435761 mod 1024 into 1024
 *              int64 counts                                               8 n (the read)
 *   scatter_add  gpux_scatter_add (np.add.at, checked mode: its index check included) of n
 *              float32 values into 2^20 float32 at int64 indices i * 2654435761 mod 2^20
 *              (exact sums, rounded once)                          n (4 + 8) + 2^20 4 2
 *   scatter_add_i32  the same with int32 values (integer sums wrap)        likewise
 *   sort_f32   gpux_sort_into of n random float32 keys (keys only), ascending     8 n
 *   argsort_f32  gpux_argsort_into of them (int64 positions)                     12 n
 *   sort_pairs_i32  gpux_sort_by_key_into of n random int32 keys with one int32 value
 *              array (CUB's SortPairs)                                           16 n
 *              (the sorts' notes give Gkeys/s: n / median time; the bytes are one read of
 *              the input and one write of the outputs, not the passes' traffic)
 *   topk100    gpux_topk_into, the 100 largest of n (1-d, unsorted)    n (the input read)
 *   searchsorted  gpux_searchsorted_into of n queries (random in [-2^20, 2^20)) into the
 *              sorted 0 .. 2^20 - 1 (float32: the default dtype)     n (es + 8) + 2^20 es
 *   median     gpux_median_into of n elements, all axes (0-d result)   n (the input read)
 *   unique_i64  gpux_unique (values only, a new result: the count's read included) of n
 *              int64 values i * 2654435761 mod 1000                      8 n (the read)
 *   sort_i64u  gpux_sort_into of unique_i64's values (its sort alone)              16 n
 *   unique_inv_i64  gpux_unique of them with the inverse (values and inverse, new
 *              results)                                         16 n (the read, the inverse)
 *   transpose  side x side with side = floor(sqrt(n)), gpux_array_transpose (it allocates its
 *              output: the timing includes that allocation, served from the warm pool; the
 *              pool hit count is reported)                              2 side^2
 *   sum        full sum into a preallocated 0-d output, gpux_reduce_into       n (+ 1)
 *   rowsum     side x side (as transpose), sums along axis 1 (rows)              n (+ side)
 *   colsum     side x side, sums along axis 0 (columns)                          n (+ side)
 *   rowargmax  side x side, argmax along axis 1 (int64 indices)                  n (+ side)
 *   cumsum     inclusive cumsum of n elements, gpux_scan_into                    2 n
 *   rand       uniform [0, 1) into a preallocated array, gpux_random_uniform     n written
 *   randn      standard normal likewise, gpux_random_normal                       n written
 *              (one generator, seed 1, advancing run after run; the last draw's first and
 *              last 4096 values must equal gpux_random_*_host bit for bit)
 *   sumscalar  host time of gpux_sum_scalar on 1000 float32 elements (one call returns the
 *              value to the host), median over batches of us/call
 *   h2d_pinned, h2d_pageable, d2h_pinned, d2h_pageable (or "transfer" for all four)
 *              host -> device (gpux_array_write_async) and device -> host
 *              (gpux_array_read_async) copies of n elements from / into page-locked
 *              (gpux_pinned_alloc) or ordinary (malloc) memory, timed by device events around
 *              the call                                                  n one way
 *   overlap    a two-stream pipeline over n float32 elements in OVERLAP_CHUNKS chunks: stream
 *              1 uploads chunk k + 1 from pinned memory (gpux_array_write_async) while stream 2
 *              computes on chunk k (y_k = exp(x_k), R times, after an event of stream 1's
 *              upload); R is calibrated so that computing takes about as long as copying (the
 *              case where overlap matters most). Host clock, enqueue to synchronize, median
 *              of reps: the pipeline, the copies alone and the computing alone; the row's
 *              time is the pipeline's, its note the ratio pipeline / max(copy, compute)
 *              (ideal: 1 + 1 / chunks)                                   n one way
 *   hostcost   host time of one small op (1000 elements, float32 add): N calls queued back to
 *              back, timed with the host's monotonic clock per batch, synchronized outside the
 *              timed region; median over batches of us/call, for gpux_binary_into (no
 *              allocation), gpux_binary (allocates from the pool, output released each call),
 *              and gpux_binary_into followed by gpux_context_synchronize (latency).
 *   gemm_f32, gemm_f64, gemm_tf32, gemm_f16, gemm_bf16 (or "gemm" for all five), gemm_int
 *              (the integer --dtype, native path: small integers, C exact and wrapped)
 *              C = A @ B, n x n x n (--gemm-sizes, not --sizes), gpux_gemm with beta 0 into a
 *              preallocated C, once per path (--gemm-path: vendor = cuBLAS / CLBlast, native =
 *              gpux's kernels; ops are reported as gemm_f32_vendor, gemm_f32_native, ...).
 *              TFLOP/s = 2 n^3 / median time (complex: 8 n^3). Each row also gives the first call at that size
 *              (host clock, gemm + synchronize): at the first size of an op and path it is the
 *              cold call, including building or loading the kernels (gpux's and the vendor
 *              library's; on-disk kernel caches as found). gemm_tf32 is float32 with
 *              GPUX_OPTION_TF32 (vendor path only); tf32, f16 and bf16 are CUDA only (skipped
 *              elsewhere with a note). f16/bf16 inputs hold values exact in both formats
 *              (multiples of 1/8) uploaded as float32 and cast on the device. 16 entries of C
 *              are checked against a host double sum within the dtype's error bound.
 *   gemm_c64, gemm_c128 complex64 / complex128 C = A @ B (cgemm / zgemm on the vendor path),
 *              inputs with both parts uniform in [-1, 1); TFLOP/s = 8 n^3 / median time (a
 *              complex multiply-add is 4 real multiply-adds: 4x the real count).
 *
 * Sizes are element counts: 1048576, 2^20, or 16384x16384. Inputs are random (not zeros), and
 * a sample of each output is checked against the host. Exit status: 0, 1 on a failure,
 * 2 on a usage error, 77 when the backend has no usable device.
 *
 * --dtype: any dtype gpux names, for the arrays of the ops above (gemm, hostcost, sumscalar
 * and overlap have their own). Inputs: floats in [-4, 4) rounded to the dtype (float16 and
 * bfloat16 to nearest even), integers a hash's low bits in the dtype's width, bool 0 or 1,
 * complex (re, im) two such floats of the component dtype, each checked on its own (add, copy
 * and sums componentwise; exp within a few ulps of e^re). Checks: the dtype's arithmetic (integers wrap; the halves' add is float32's sum of the
 * stored values, rounded once to the dtype, exact as gpux computes it; their exp within one
 * ulp); sums within the error bound of the result dtype (gpux_reduce_result_dtype; a half
 * result: float32 accumulation, then 2 of its ulps). An op gpux does not define for the dtype
 * (its supports query, or GPUX_ERROR_UNSUPPORTED_DTYPE) gives a "skipped" row with the reason,
 * not a failure. Bytes moved count gpux_dtype_size per element. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gpux.h>

#include "bench_util.h"
/* host float16 / bfloat16 conversions, gpux's own (src/api/array.c includes it likewise) */
#include "../kernels/common/gpux_half.h"

#define MAX_SIZES 32
#define MAX_RESULTS 256
#define CHUNK_ELEMS ((int64_t)1 << 22) /* host staging for uploads and checks */
#define CHECK_ELEMS 4096               /* checked at the start and at the end of an output */
#define HOSTCOST_N 1000

enum {
  OP_ADD, OP_EXP, OP_COPY, OP_TRANSPOSE,
  OP_SUM, OP_ROWSUM, OP_COLSUM, OP_ROWARGMAX, OP_CUMSUM,
  OP_RAND, OP_RANDN,
  OP_HOSTCOST, OP_SUMSCALAR,
  OP_GEMM_F32, OP_GEMM_F64, OP_GEMM_TF32, OP_GEMM_F16, OP_GEMM_BF16, OP_GEMM_INT,
  OP_GEMM_C64, OP_GEMM_C128,
  OP_ADD_EXPR,
  OP_H2D_PINNED, OP_H2D_PAGEABLE, OP_D2H_PINNED, OP_D2H_PAGEABLE,
  OP_OVERLAP, OP_CONCAT, OP_CONCAT1, OP_ROLL, OP_PAD, OP_TILE, OP_REPEAT, OP_TAKE, OP_TAKE_SEQ,
  OP_COMPRESS, OP_NONZERO, OP_BINCOUNT, OP_SCATTER_ADD, OP_SCATTER_ADD_I32,
  OP_SORT_F32, OP_ARGSORT_F32, OP_SORT_PAIRS_I32, OP_TOPK100, OP_SEARCHSORTED, OP_MEDIAN,
  OP_UNIQUE_I64, OP_SORT_I64U, OP_UNIQUE_INV_I64, OP_COUNT
};
static const char *const k_op_names[OP_COUNT] = {
    "add", "exp", "copy", "transpose", "sum", "rowsum", "colsum", "rowargmax", "cumsum",
    "rand", "randn", "hostcost", "sumscalar", "gemm_f32", "gemm_f64", "gemm_tf32", "gemm_f16", "gemm_bf16",
    "gemm_int", "gemm_c64", "gemm_c128", "add_expr", "h2d_pinned", "h2d_pageable", "d2h_pinned", "d2h_pageable", "overlap",
    "concat", "concat1", "roll", "pad", "tile", "repeat", "take", "take_seq",
    "compress", "nonzero", "bincount", "scatter_add", "scatter_add_i32",
    "sort_f32", "argsort_f32", "sort_pairs_i32", "topk100", "searchsorted", "median",
    "unique_i64", "sort_i64u", "unique_inv_i64"};
#define OP_IS_TAKE(op) ((op) == OP_TAKE || (op) == OP_TAKE_SEQ)
#define TAKE_HASH 2654435761u /* take's pseudo-random indices: i * TAKE_HASH mod n */
#define OP_IS_MASK(op) ((op) == OP_COMPRESS || (op) == OP_NONZERO)
#define OP_IS_COUNTING(op) ((op) >= OP_BINCOUNT && (op) <= OP_SCATTER_ADD_I32)
#define OP_IS_SORT(op) ((op) >= OP_SORT_F32 && (op) <= OP_SORT_PAIRS_I32)
#define OP_IS_SELECT(op) ((op) >= OP_TOPK100 && (op) <= OP_MEDIAN)
#define SS_SORTED (1 << 20) /* searchsorted's sorted table: 0, 1, ..., 2^20 - 1 */
#define BC_BINS 1024          /* bincount's bins: values i * TAKE_HASH mod BC_BINS */
#define SC_TARGETS (1 << 20)  /* scatter_add's targets: indices i * TAKE_HASH mod SC_TARGETS */
#define UQ_DISTINCT 1000      /* unique_i64's values: i * TAKE_HASH mod UQ_DISTINCT */
static int64_t g_mask_count = -1; /* the mask's true elements (compress, nonzero) */
#define OP_IS_TRANSFER(op) ((op) >= OP_H2D_PINNED && (op) <= OP_D2H_PAGEABLE)
#define OP_IS_GEMM(op) ((op) >= OP_GEMM_F32 && (op) <= OP_GEMM_C128)
#define OP_IS_GEMM_CPLX(op) ((op) == OP_GEMM_C64 || (op) == OP_GEMM_C128)
#define GEMM_PATHS 3 /* indices: GPUX_GEMM_AUTO, _VENDOR, _NATIVE */
static const char *const k_gemm_path_names[GEMM_PATHS] = {"auto", "vendor", "native"};
#define GEMM_SAMPLES 16
#define OP_IS_SQUARE(op)                                                                 \
  ((op) == OP_TRANSPOSE || (op) == OP_ROWSUM || (op) == OP_COLSUM || (op) == OP_ROWARGMAX || \
   (op) == OP_CONCAT1)
#define OP_IS_CONCAT(op) ((op) == OP_CONCAT || (op) == OP_CONCAT1)
/* assembly ops on a 1-d input of n / 2 elements (tile, repeat), n - 2 PAD_W (pad) or n (roll)
 * into a preallocated n */
#define OP_IS_ASM1(op) ((op) >= OP_ROLL && (op) <= OP_REPEAT)
#define OP_IS_REDUCTION(op) ((op) >= OP_SUM && (op) <= OP_CUMSUM)
#define OP_IS_RANDOM(op) ((op) == OP_RAND || (op) == OP_RANDN)

typedef struct result {
  char op[32];
  char dtype[16];
  int64_t n;
  double median_ms, min_ms, max_ms;
  double bytes; /* read + written per run */
  double gbps;  /* 0 when not meaningful */
  double us_per_call; /* hostcost only */
  double tflops;        /* gemm only: 2 n^3 (complex 8 n^3) / median time, 1e12 FLOP/s */
  double first_call_ms; /* gemm only: the first call at this size, host clock, incl. sync */
  int is_gemm;          /* n is the side of the n x n x n product */
  int reps;
  char timing[64];
  char note[160];
  const char *status; /* "ok", "skipped" */
} result;

static struct {
  int ops[OP_COUNT];
  int64_t sizes[MAX_SIZES];
  int nsizes;
  int64_t gemm_sizes[MAX_SIZES];
  int ngemm_sizes;
  int gemm_paths[GEMM_PATHS]; /* 1: run this path (index = gpux_gemm_path) */
  gpux_dtype dtype;
  int reps, warmup;
} opt;
static bench_opts copt; /* --backend, --device, --calls, --batches, --json, --md */

static gpux_context_t g_ctx;
static gpux_generator_t g_gen;    /* rand, randn */
static gpux_elementwise_t g_ew_add; /* add_expr */
static gpux_rng_state g_gen_last; /* its state before the last draw */
static gpux_device_info g_dev;
static gpux_backend_kind g_backend;
static result g_results[MAX_RESULTS];
static int g_nresults;

/* ---- errors */

#define TRY(call) BENCH_TRY(call, last_status = s_)
/* TRY, but an op gpux does not define for the dtype (GPUX_ERROR_UNSUPPORTED_DTYPE) makes the
 * row "skipped", not a failure: the caller's label unsupported_dtype says so */
#define TRY_DT(call) \
  BENCH_TRY(call, if (s_ == GPUX_ERROR_UNSUPPORTED_DTYPE) goto unsupported_dtype; last_status = s_)

/* ---- helpers */

/* Counter-based random numbers: element i of stream `seed` can be recomputed for checks. */
static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* ---- dtypes: what gpux-bench knows of each, to generate and check values */

/* dt's kind as NumPy spells it: 'f' float, 'i' signed and 'u' unsigned integer, 'b' bool; 0
 * for a dtype gpux-bench has no values for (its rows are skipped). The integers' width is
 * gpux_dtype_size's: a new integer dtype is one case label here. */
static char dtype_kind(gpux_dtype dt) {
  switch (dt) {
    case GPUX_FLOAT32:
    case GPUX_FLOAT64:
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: return 'f';
    case GPUX_INT8:
    case GPUX_INT16:
    case GPUX_INT32:
    case GPUX_INT64: return 'i';
    case GPUX_UINT8:
    case GPUX_UINT16:
    case GPUX_UINT32:
    case GPUX_UINT64: return 'u';
    case GPUX_BOOL: return 'b';
    case GPUX_COMPLEX64:
    case GPUX_COMPLEX128: return 'c';
    default: return 0;
  }
}

/* A complex dtype's component dtype; any other dtype itself. A complex element's value is
 * checked component by component: component c of element i of a generated stream is
 * element 2 i + c of the component dtype's stream (gen_value), so that the componentwise
 * ops (add, copy, sums) are the component dtype's on those indices. */
static gpux_dtype comp_dtype(gpux_dtype dt) {
  return dt == GPUX_COMPLEX64 ? GPUX_FLOAT32 : dt == GPUX_COMPLEX128 ? GPUX_FLOAT64 : dt;
}
static int ncomp(gpux_dtype dt) { return dtype_kind(dt) == 'c' ? 2 : 1; }

static int is_half(gpux_dtype dt) { return dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16; }

/* A float dtype's significand bits, the implicit one included (1 ulp <= 2^(1 - digits) of
 * the value) */
static int float_digits(gpux_dtype dt) {
  switch (dt) {
    case GPUX_FLOAT16: return 11;
    case GPUX_BFLOAT16: return 8;
    case GPUX_FLOAT64: return 53;
    default: return 24;
  }
}

/* One element of any dtype: the member of its width (all start at the union's first byte,
 * which a buffer's element is copied to and from); bytes: room for the widest. */
typedef union hval {
  float f32;
  double f64;
  uint8_t u8;
  uint16_t u16; /* float16 / bfloat16 bit patterns */
  uint32_t u32;
  uint64_t u64;
  unsigned char bytes[16];
} hval;

/* Integers: the low es bytes of bits, in the member of that width (wrap-around). */
static hval bits_hval(uint64_t bits, size_t es) {
  hval v;
  memset(&v, 0, sizeof v);
  switch (es) {
    case 1: v.u8 = (uint8_t)bits; break;
    case 2: v.u16 = (uint16_t)bits; break;
    case 4: v.u32 = (uint32_t)bits; break;
    default: v.u64 = bits; break;
  }
  return v;
}

/* An integer element as uint64: sign-extended for a signed kind, zero-extended otherwise. */
static uint64_t hval_int(hval v, gpux_dtype dt) {
  const size_t es = gpux_dtype_size(dt);
  uint64_t b = es == 1 ? v.u8 : es == 2 ? v.u16 : es == 4 ? v.u32 : v.u64;
  if (es < 8 && dtype_kind(dt) == 'i' && (b >> (8 * es - 1) & 1)) b |= ~0ull << (8 * es);
  return b;
}

/* x rounded once to the float dtype dt (halves: to nearest even, as gpux rounds) */
static hval float_hval(gpux_dtype dt, double x) {
  hval v;
  uint64_t b;
  memset(&v, 0, sizeof v);
  memcpy(&b, &x, 8);
  switch (dt) {
    case GPUX_FLOAT64: v.f64 = x; break;
    case GPUX_FLOAT16: v.u16 = gpux_f64_to_f16(b); break;
    case GPUX_BFLOAT16: v.u16 = gpux_f64_to_bf16(b); break;
    default: v.f32 = (float)x; break;
  }
  return v;
}

/* Element i of random stream `seed` as dtype dt: floats in [-4, 4) (a double rounded to the
 * dtype); integers the hash's low bits in the dtype's width; bool 0 or 1. */
static hval gen_value(gpux_dtype dt, uint64_t seed, int64_t i) {
  uint64_t h = mix64(seed * 0x100000001B3ull ^ (uint64_t)i);
  double u = (double)(h >> 11) / (double)(1ull << 53) * 8.0 - 4.0;
  hval v;
  memset(&v, 0, sizeof v);
  switch (dtype_kind(dt)) {
    case 'f': v = float_hval(dt, u); break;
    case 'i':
    case 'u': v = bits_hval(h, gpux_dtype_size(dt)); break;
    case 'b': v.u8 = (uint8_t)(h & 1); break;
    case 'c': { /* (re, im): elements 2 i and 2 i + 1 of the component dtype's stream */
      const gpux_dtype cd = comp_dtype(dt);
      const size_t ces = gpux_dtype_size(cd);
      const hval re = gen_value(cd, seed, 2 * i), im = gen_value(cd, seed, 2 * i + 1);
      memcpy(v.bytes, &re, ces);
      memcpy(v.bytes + ces, &im, ces);
      break;
    }
    default: break; /* no values: the ops skip this dtype */
  }
  return v;
}

static double hval_double(hval v, gpux_dtype dt) {
  uint32_t b;
  float f;
  switch (dt) {
    case GPUX_FLOAT32: return v.f32;
    case GPUX_FLOAT64: return v.f64;
    case GPUX_FLOAT16:
    case GPUX_BFLOAT16: /* exact: every half value is a float32 value */
      b = dt == GPUX_FLOAT16 ? gpux_f16_to_f32(v.u16) : gpux_bf16_to_f32(v.u16);
      memcpy(&f, &b, 4);
      return f;
    default: break;
  }
  switch (dtype_kind(dt)) {
    case 'i': return (double)(int64_t)hval_int(v, dt);
    case 'u':
    case 'b': return (double)hval_int(v, dt);
    default: return 0;
  }
}

/* Element of a host buffer as double. */
static double as_double(const unsigned char *p, gpux_dtype dt) {
  hval v;
  memcpy(&v, p, gpux_dtype_size(dt));
  return hval_double(v, dt);
}
/* Component c of the element at p (c = 0 for a real dtype). */
static double comp_double(const unsigned char *p, gpux_dtype dt, int c) {
  const gpux_dtype cd = comp_dtype(dt);
  return as_double(p + (size_t)c * gpux_dtype_size(cd), cd);
}

/* 1-d view [lo, hi) of a 1-d array. */
static gpux_status view_1d(gpux_array_t *out, gpux_array_t a, int64_t lo, int64_t hi) {
  int64_t start[1] = {lo}, stop[1] = {hi}, step[1] = {1};
  return gpux_array_slice(out, a, start, stop, step);
}

/* Fills buf with elements lo..hi-1 (of es bytes each) of a generated array. */
typedef void (*fill_fn)(unsigned char *buf, int64_t lo, int64_t hi, size_t es, const void *arg);

/* A new 1-d array of n elements of dt, generated and uploaded a chunk at a time. */
static gpux_status upload_generated(gpux_array_t *out, int64_t n, gpux_dtype dt, fill_fn fill,
                                    const void *arg) {
  size_t es = gpux_dtype_size(dt);
  int64_t shape[1] = {n};
  gpux_array_t a = NULL, v = NULL;
  unsigned char *buf = NULL;
  gpux_status s = gpux_array_empty(&a, g_ctx, dt, 1, shape);
  if (s != GPUX_SUCCESS) goto done;
  buf = malloc((size_t)(n < CHUNK_ELEMS ? n : CHUNK_ELEMS) * es);
  if (!buf) {
    s = GPUX_ERROR_OUT_OF_HOST_MEMORY;
    fprintf(stderr, "gpux-bench: out of host memory\n");
    goto done;
  }
  for (int64_t lo = 0; lo < n; lo += CHUNK_ELEMS) {
    int64_t hi = lo + CHUNK_ELEMS < n ? lo + CHUNK_ELEMS : n;
    fill(buf, lo, hi, es, arg);
    s = view_1d(&v, a, lo, hi);
    if (s == GPUX_SUCCESS) s = gpux_array_write(v, buf, (size_t)(hi - lo) * es);
    gpux_array_release(v);
    v = NULL;
    if (s != GPUX_SUCCESS) goto done;
  }
  *out = a;
  a = NULL;
done:
  free(buf);
  gpux_array_release(a);
  return s;
}

typedef struct gen_arg {
  gpux_dtype dt;
  uint64_t seed;
} gen_arg;
/* The host generates and checks with every core where the build has OpenMP (element i is a
 * pure function of (seed, i)): at 2^30 elements a single core spent a minute per op of the
 * GPU machine's lease. */
static void fill_random(unsigned char *buf, int64_t lo, int64_t hi, size_t es, const void *arg) {
  const gen_arg *g = arg;
#pragma omp parallel for schedule(static) if (hi - lo >= 65536)
  for (int64_t i = lo; i < hi; i++) {
    hval v = gen_value(g->dt, g->seed, i);
    memcpy(buf + (size_t)(i - lo) * es, &v, es); /* the union's first bytes hold the value */
  }
}

/* A new 1-d array of n random elements (stream seed), uploaded in chunks. */
static gpux_status make_random(gpux_array_t *out, int64_t n, gpux_dtype dt, uint64_t seed) {
  const gen_arg g = {dt, seed};
  return upload_generated(out, n, dt, fill_random, &g);
}

/* Expected value of output element i, as double. */
typedef double (*expect_fn)(int64_t i, int c, gpux_dtype dt, int64_t side);

static double val(gpux_dtype dt, uint64_t seed, int64_t i) {
  return hval_double(gen_value(dt, seed, i), dt);
}
/* component c of element i (complex: the component stream's element 2 i + c) */
static double val_c(gpux_dtype dt, uint64_t seed, int64_t i, int c) {
  return dtype_kind(dt) == 'c' ? val(comp_dtype(dt), seed, 2 * i + c) : val(dt, seed, i);
}
static double expect_add(int64_t i, int c, gpux_dtype dt, int64_t side) {
  if (dtype_kind(dt) == 'c') return expect_add(2 * i + c, 0, comp_dtype(dt), side);
  hval x = gen_value(dt, 1, i), y = gen_value(dt, 2, i);
  switch (dtype_kind(dt)) { /* the dtype's own arithmetic */
    case 'f': {
      if (dt == GPUX_FLOAT64) return x.f64 + y.f64;
      /* float32's sum (exact operands for the halves, which gpux computes in float32),
       * rounded once to the dtype; the assignment drops any wider evaluation */
      float sum = (float)hval_double(x, dt) + (float)hval_double(y, dt);
      return hval_double(float_hval(dt, sum), dt);
    }
    case 'i':
    case 'u': /* wrap-around in the dtype's width */
      return hval_double(bits_hval(hval_int(x, dt) + hval_int(y, dt), gpux_dtype_size(dt)), dt);
    default: return 0;
  }
}
static double expect_exp(int64_t i, int c, gpux_dtype dt, int64_t side) {
  if (dtype_kind(dt) == 'c') { /* e^x (cos y + i sin y) */
    const double x = val_c(dt, 1, i, 0), y = val_c(dt, 1, i, 1);
    return exp(x) * (c ? sin(y) : cos(y));
  }
  return exp(val(dt, 1, i));
}
static double expect_copy(int64_t i, int c, gpux_dtype dt, int64_t side) {
  return val_c(dt, 1, i, c);
}
static double expect_take(int64_t i, int c, gpux_dtype dt, int64_t side) {
  return val_c(dt, 1, (int64_t)((uint64_t)i * TAKE_HASH % (uint64_t)side), c);
}
/* concat: a (seed 1) then b (seed 2), each of side elements; concat1: rows of side columns,
 * the first side / 2 from a's row, the rest from b's */
static double expect_concat(int64_t i, int c, gpux_dtype dt, int64_t side) {
  return i < side ? val_c(dt, 1, i, c) : val_c(dt, 2, i - side, c);
}
static double expect_concat1(int64_t i, int c, gpux_dtype dt, int64_t side) {
  const int64_t r = i / side, k = i % side, h = side / 2;
  return k < h ? val_c(dt, 1, r * h + k, c) : val_c(dt, 2, r * h + k - h, c);
}
/* the 1-d assembly ops: side is the input's length (roll: n, shifted by n / 3; pad: the
 * input's, between two edges of pad_width(n)) */
static int64_t pad_width(int64_t n) { return n / 4 < 4096 ? n / 4 : 4096; }
static double expect_roll(int64_t i, int c, gpux_dtype dt, int64_t side) {
  const int64_t s = side / 3;
  return val_c(dt, 1, (i - s + side) % side, c);
}
static int64_t g_pad_w; /* pad's width on each side, for expect_pad */
static double expect_pad(int64_t i, int c, gpux_dtype dt, int64_t side) {
  const int64_t j = i - g_pad_w;
  return val_c(dt, 1, j < 0 ? 0 : j >= side ? side - 1 : j, c);
}
static double expect_tile(int64_t i, int c, gpux_dtype dt, int64_t side) {
  return val_c(dt, 1, i % side, c);
}
static double expect_repeat(int64_t i, int c, gpux_dtype dt, int64_t side) {
  return val_c(dt, 1, i / 2, c);
}
static double expect_transpose(int64_t i, int c, gpux_dtype dt, int64_t side) {
  return val_c(dt, 1, (i % side) * side + i / side, c); /* out[r][c] = in[c][r] */
}

/* Reads part 0 (the first CHECK_ELEMS elements) or part 1 (the last ones) of the 1-d array a
 * of n elements into buf; [*lo, *hi) is the range read. */
static gpux_status read_part(gpux_array_t a, int64_t n, int part, void *buf, size_t es,
                             int64_t *lo, int64_t *hi) {
  gpux_array_t v = NULL;
  *lo = part == 0 ? 0 : (n > CHECK_ELEMS ? n - CHECK_ELEMS : 0);
  *hi = *lo + CHECK_ELEMS < n ? *lo + CHECK_ELEMS : n;
  gpux_status s = view_1d(&v, a, *lo, *hi);
  if (s == GPUX_SUCCESS) s = gpux_array_read(v, buf, (size_t)(*hi - *lo) * es);
  gpux_array_release(v);
  return s;
}

/* Checks the first and last CHECK_ELEMS elements of the (contiguous) output. Returns 0 if
 * they match: exactly, or within tol for transcendental float results (relative to
 * max(1, |expected|); the halves' relative to |expected|, tol being their ulp). */
static int check_output(gpux_array_t out, int64_t n, gpux_dtype dt, expect_fn f, int64_t side,
                        double tol, char *why, size_t why_len) {
  size_t es = gpux_dtype_size(dt);
  gpux_array_t flat = NULL;
  unsigned char *buf = malloc((size_t)CHECK_ELEMS * es);
  int bad = 0;
  int64_t shape1[1] = {n};
  if (!buf) {
    snprintf(why, why_len, "out of host memory");
    return 1;
  }
  gpux_status s = gpux_array_reshape(&flat, out, 1, shape1);
  for (int part = 0; part < 2 && s == GPUX_SUCCESS && !bad; part++) {
    int64_t lo, hi;
    s = read_part(flat, n, part, buf, es, &lo, &hi);
    for (int64_t i = lo; s == GPUX_SUCCESS && i < hi && !bad; i++)
      for (int c = 0; c < ncomp(dt); c++) {
        double got = comp_double(buf + (size_t)(i - lo) * es, dt, c), want = f(i, c, dt, side);
        double scale = is_half(dt) ? fabs(want) : fmax(1.0, fabs(want));
        int ok = tol > 0 ? fabs(got - want) <= tol * scale : got == want;
        if (!ok) {
          snprintf(why, why_len, "element %" PRId64 "%s is %.9g, expected %.9g", i,
                   ncomp(dt) == 1 ? "" : c ? " (im)" : " (re)", got, want);
          bad = 1;
          break;
        }
      }
  }
  if (s != GPUX_SUCCESS) {
    snprintf(why, why_len, "reading the output: %s: %s", gpux_status_name(s),
             gpux_last_error_message());
    bad = 1;
  }
  gpux_array_release(flat);
  free(buf);
  return bad;
}

/* The last draw's first and last CHECK_ELEMS values against the host's, bit for bit. */
static int check_random(int op, gpux_array_t out, int64_t n, char *why, size_t why_len) {
  size_t es = gpux_dtype_size(opt.dtype);
  unsigned char *got = malloc((size_t)CHECK_ELEMS * es), *want = malloc((size_t)CHECK_ELEMS * es);
  int bad = 0;
  gpux_status s = got && want ? GPUX_SUCCESS : GPUX_ERROR_OUT_OF_HOST_MEMORY;
  for (int part = 0; part < 2 && s == GPUX_SUCCESS && !bad; part++) {
    int64_t lo, hi;
    s = read_part(out, n, part, got, es, &lo, &hi);
    if (s == GPUX_SUCCESS)
      s = op == OP_RAND
              ? gpux_random_uniform_host(want, opt.dtype, lo, hi - lo, &g_gen_last, 0.0, 1.0)
              : gpux_random_normal_host(want, opt.dtype, lo, hi - lo, &g_gen_last, 0.0, 1.0);
    for (int64_t i = lo; s == GPUX_SUCCESS && i < hi; i++)
      if (memcmp(got + (size_t)(i - lo) * es, want + (size_t)(i - lo) * es, es)) {
        snprintf(why, why_len, "value %" PRId64 " is %.9g, the host's %.9g", i,
                 as_double(got + (size_t)(i - lo) * es, opt.dtype),
                 as_double(want + (size_t)(i - lo) * es, opt.dtype));
        bad = 1;
        break;
      }
  }
  if (s != GPUX_SUCCESS) {
    snprintf(why, why_len, "%s: %s", gpux_status_name(s), gpux_last_error_message());
    bad = 1;
  }
  free(got);
  free(want);
  return bad;
}

static result *new_result(const char *op, int64_t n) {
  if (g_nresults >= MAX_RESULTS) return NULL;
  result *r = &g_results[g_nresults++];
  memset(r, 0, sizeof *r);
  snprintf(r->op, sizeof r->op, "%s", op);
  snprintf(r->dtype, sizeof r->dtype, "%s", gpux_dtype_name(opt.dtype));
  r->n = n;
  r->status = "ok";
  return r;
}

/* ---- reductions: the result checked on a sample against a host sum in long double */

/* Sum of elements first, first + step, ... (count of them) of random stream 1, with the sum of
 * magnitudes (the error scale) and, for integer and bool inputs, the 64-bit wrap-around sum. */
typedef struct host_sum {
  long double sum, abs;
  uint64_t wrap;
} host_sum;

static host_sum sum_stream_c(int64_t first, int64_t step, int64_t count, int c) {
  long double sum = 0, abs = 0; /* in any order: far within the checks' bounds */
  uint64_t wrap = 0;
  const int is_int = dtype_kind(opt.dtype) != 'f' && dtype_kind(opt.dtype) != 'c';
#pragma omp parallel for schedule(static) reduction(+ : sum, abs, wrap) if (count >= 65536)
  for (int64_t k = 0; k < count; k++) {
    hval v = gen_value(opt.dtype, 1, first + k * step);
    double x = dtype_kind(opt.dtype) == 'c' ? val_c(opt.dtype, 1, first + k * step, c)
                                            : hval_double(v, opt.dtype);
    sum += x;
    abs += fabs(x);
    if (is_int) wrap += hval_int(v, opt.dtype);
  }
  const host_sum h = {sum, abs, wrap};
  return h;
}
/* a real stream's sums (complex: the real parts') */
static host_sum sum_stream(int64_t first, int64_t step, int64_t count) {
  return sum_stream_c(first, step, count, 0);
}

/* float results: within a tree sum's error bound (eps * (log2(count) + 2 * 16) * sum|x|), eps
 * float32's unit roundoff for float32 and the halves (which gpux accumulates in float32), and
 * for a half result 2 of its ulps more (the one rounding of the float32 sum to it); integer
 * results: exact, wrapping in the result's width. */
static int sum_ok(double got, host_sum h, gpux_dtype rdt, int64_t count) {
  const char kind = dtype_kind(rdt);
  if (kind == 'i' || kind == 'u')
    return hval_double(bits_hval(h.wrap, gpux_dtype_size(rdt)), rdt) == got;
  double eps = rdt == GPUX_FLOAT64 ? 0x1p-53 : 0x1p-24;
  double bound = eps * (log2((double)count + 1) + 32.0) * (double)h.abs;
  if (is_half(rdt)) bound += ldexp(fabs((double)h.sum), 2 - float_digits(rdt));
  return fabs(got - (double)h.sum) <= bound + 1e-300;
}

static int check_reduction(int op, gpux_array_t out, int64_t n, int64_t side, gpux_dtype rdt,
                           char *why, size_t why_len) {
  int64_t nout = op == OP_SUM ? 1 : op == OP_CUMSUM ? n : side;
  size_t res = gpux_dtype_size(rdt);
  unsigned char *buf = malloc((size_t)nout * res);
  if (!buf) {
    snprintf(why, why_len, "out of host memory");
    return 1;
  }
  gpux_status s = gpux_array_read(out, buf, (size_t)nout * res);
  if (s != GPUX_SUCCESS) {
    snprintf(why, why_len, "reading the output: %s: %s", gpux_status_name(s),
             gpux_last_error_message());
    free(buf);
    return 1;
  }
  int bad = 0;
  const int64_t sample[4] = {0, 1, side / 2, side - 1};
  const gpux_dtype rcd = comp_dtype(rdt); /* complex sums: checked component by component */
  if (op == OP_SUM) {
    for (int c = 0; c < ncomp(rdt) && !bad; c++) {
      double got = comp_double(buf, rdt, c);
      host_sum h = sum_stream_c(0, 1, n, c);
      if (!sum_ok(got, h, rcd, n)) {
        snprintf(why, why_len, "sum%s is %.17g, expected %.17Lg",
                 ncomp(rdt) == 1 ? "" : c ? " (im)" : " (re)", got, h.sum);
        bad = 1;
      }
    }
  } else if (op == OP_ROWSUM || op == OP_COLSUM) {
    for (int kc = 0; kc < 4 * ncomp(rdt) && !bad; kc++) {
      const int k = kc / ncomp(rdt), c = kc % ncomp(rdt);
      int64_t i = sample[k];
      double got = comp_double(buf + (size_t)i * res, rdt, c);
      host_sum h = op == OP_ROWSUM ? sum_stream_c(i * side, 1, side, c)
                                   : sum_stream_c(i, side, side, c);
      if (!sum_ok(got, h, rcd, side)) {
        snprintf(why, why_len, "%s %" PRId64 " is %.17g, expected %.17Lg",
                 op == OP_ROWSUM ? "row" : "column", i, got, h.sum);
        bad = 1;
      }
    }
  } else if (op == OP_ROWARGMAX) {
    for (int k = 0; k < 4 && !bad; k++) {
      int64_t i = sample[k], best = 0, got;
      double bv = val(opt.dtype, 1, i * side);
      for (int64_t j = 1; j < side; j++) {
        double x = val(opt.dtype, 1, i * side + j);
        if (x > bv) {
          bv = x;
          best = j;
        }
      }
      memcpy(&got, buf + (size_t)i * 8, 8);
      if (got != best) {
        snprintf(why, why_len, "argmax of row %" PRId64 " is %" PRId64 ", expected %" PRId64, i,
                 got, best);
        bad = 1;
      }
    }
  } else { /* cumsum: the first CHECK_ELEMS prefixes and the last one (complex: each component
            * in turn) */
    const int64_t nfirst = n < CHECK_ELEMS ? n : CHECK_ELEMS;
    for (int c = 0; c < ncomp(rdt) && !bad; c++) {
      host_sum h = {0, 0, 0};
      for (int64_t i = 0; i < n && !bad; i++) {
        if (i >= nfirst) { /* then the last prefix: the whole sum */
          i = n - 1;
          h = sum_stream_c(0, 1, n, c);
        } else {
          host_sum e = sum_stream_c(i, 1, 1, c);
          h.sum += e.sum;
          h.abs += e.abs;
          h.wrap += e.wrap;
        }
        double got = comp_double(buf + (size_t)i * res, rdt, c);
        if (!sum_ok(got, h, rcd, i + 1)) {
          snprintf(why, why_len, "cumsum element %" PRId64 " is %.17g, expected %.17Lg", i, got,
                   h.sum);
          bad = 1;
        }
      }
    }
  }
  free(buf);
  return bad;
}

/* ---- device-timed ops */

/* compress / nonzero: the count against count_nonzero, and the last selected element or
 * index against the host's search of the mask (read back) */
static int mask_check(int op, gpux_array_t x, gpux_array_t mask, char *why, size_t why_len) {
  int64_t want = 0, last = -1;
  void *data = NULL;
  size_t n = 0;
  if (gpux_array_download(&data, &n, mask) != GPUX_SUCCESS)
    return snprintf(why, why_len, "reading the mask failed"), 1;
  const uint8_t *m = data;
  for (size_t i = 0; i < n; i++)
    if (m[i]) {
      want++;
      last = (int64_t)i;
    }
  gpux_host_free(data);
  if (want != g_mask_count)
    return snprintf(why, why_len, "%" PRId64 " selected, the mask has %" PRId64, g_mask_count,
                    want), 1;
  if (op == OP_NONZERO && last >= 0) {
    gpux_array_t r = NULL, e = NULL;
    int64_t got = -1;
    if (gpux_nonzero(&r, mask) != GPUX_SUCCESS ||
        gpux_array_slice_axis(&e, r, 0, want - 1, want, 1) != GPUX_SUCCESS ||
        gpux_array_read(e, &got, sizeof got) != GPUX_SUCCESS || got != last) {
      snprintf(why, why_len, "the last index is %" PRId64 ", expected %" PRId64, got, last);
      gpux_array_release(e);
      gpux_array_release(r);
      return 1;
    }
    gpux_array_release(e);
    gpux_array_release(r);
  }
  (void)x;
  return 0;
}

/* Runs one timed op (enqueue only) on prepared arrays. */
typedef struct bench_arrays {
  int op;
  gpux_array_t a, b, c, d;
} bench_arrays;

/* sorts: a = n random keys (float32; pairs: int32), c = the sorted keys (argsort: int64
 * positions); pairs: b = the values 0 .. n-1 (int32), d = the sorted values */
static gpux_status sort_setup(bench_arrays *ba, int op, int64_t n) {
  const gpux_dtype kdt = op == OP_SORT_PAIRS_I32 ? GPUX_INT32 : GPUX_FLOAT32;
  gpux_status s = make_random(&ba->a, n, kdt, 1);
  if (s == GPUX_SUCCESS)
    s = gpux_array_empty(&ba->c, g_ctx, op == OP_ARGSORT_F32 ? GPUX_INT64 : kdt, 1, &n);
  if (s == GPUX_SUCCESS && op == OP_SORT_PAIRS_I32) {
    s = gpux_array_arange(&ba->b, g_ctx, GPUX_INT32, 0, (double)n, 1);
    if (s == GPUX_SUCCESS) s = gpux_array_empty(&ba->d, g_ctx, GPUX_INT32, 1, &n);
  }
  return s;
}
static gpux_status sort_run(bench_arrays *ba) {
  switch (ba->op) {
    case OP_SORT_F32: return gpux_sort_into(ba->c, ba->a, -1, 0);
    case OP_ARGSORT_F32: return gpux_argsort_into(ba->c, ba->a, -1, 0);
    default: return gpux_sort_by_key_into(ba->c, &ba->d, ba->a, &ba->b, 1, -1, 0);
  }
}
/* the whole result on the host: keys in order (no NaNs among the inputs); argsort: a
 * permutation whose keys are in order, ties in input order; pairs: the values are the keys'
 * positions, so keys[value] == sorted key and ties in input order */
static int sort_check(bench_arrays *ba, int64_t n, char *why, size_t why_len) {
  const int pairs = ba->op == OP_SORT_PAIRS_I32, arg = ba->op == OP_ARGSORT_F32;
  float *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
  int64_t *p = arg ? malloc((size_t)n * 8) : NULL;
  int32_t *v = pairs ? malloc((size_t)n * 4) : NULL;
  int bad = !x || !y || (arg && !p) || (pairs && !v);
  if (bad) snprintf(why, why_len, "out of host memory for the check");
  if (!bad && (gpux_array_read(ba->a, x, (size_t)n * 4) != GPUX_SUCCESS ||
               (arg ? gpux_array_read(ba->c, p, (size_t)n * 8)
                    : gpux_array_read(ba->c, y, (size_t)n * 4)) != GPUX_SUCCESS ||
               (pairs && gpux_array_read(ba->d, v, (size_t)n * 4) != GPUX_SUCCESS))) {
    bad = 1;
    snprintf(why, why_len, "reading the result failed: %.150s", gpux_last_error_message());
  }
  const int32_t *xi = (const int32_t *)x, *yi = (const int32_t *)y;
  int64_t prev = -1;
  for (int64_t i = 0; i < n && !bad; i++) {
    int64_t q = arg ? p[i] : pairs ? v[i] : -1;
    if ((arg || pairs) && (q < 0 || q >= n)) {
      bad = 1;
      snprintf(why, why_len, "position %" PRId64 " at %" PRId64 " is out of range", q, i);
      break;
    }
    if (pairs && xi[q] != yi[i]) bad = 1;
    if (i > 0) {
      if (arg) bad |= x[q] < x[p[i - 1]] || (x[q] == x[p[i - 1]] && q < prev);
      else if (pairs) bad |= yi[i] < yi[i - 1] || (yi[i] == yi[i - 1] && q < prev);
      else bad |= y[i] < y[i - 1];
    }
    if (bad) snprintf(why, why_len, "not sorted (or not stable) at %" PRId64, i);
    prev = q;
  }
  free(x);
  free(y);
  free(p);
  free(v);
  return bad;
}

/* unique_i64: the distinct values of i * TAKE_HASH mod UQ_DISTINCT for i < n, in order (its
 * first UQ_DISTINCT values are a permutation of 0 .. UQ_DISTINCT - 1: gcd(TAKE_HASH, 1000) = 1) */
static int unique_check(gpux_array_t u, int64_t n, char *why, size_t why_len) {
  unsigned char seen[UQ_DISTINCT] = {0};
  int64_t want[UQ_DISTINCT], nw = 0, m = -1, v[UQ_DISTINCT];
  for (int64_t i = 0; i < n && i < UQ_DISTINCT; i++)
    seen[(uint64_t)i * TAKE_HASH % UQ_DISTINCT] = 1;
  for (int64_t k = 0; k < UQ_DISTINCT; k++)
    if (seen[k]) want[nw++] = k;
  if (!u || gpux_array_size(&m, u) != GPUX_SUCCESS || m != nw ||
      gpux_array_read(u, v, (size_t)m * sizeof *v) != GPUX_SUCCESS) {
    snprintf(why, why_len, "%" PRId64 " unique values, expected %" PRId64, m, nw);
    return 1;
  }
  for (int64_t i = 0; i < m; i++)
    if (v[i] != want[i]) {
      snprintf(why, why_len, "unique value %" PRId64 " is %" PRId64 ", expected %" PRId64, i,
               v[i], want[i]);
      return 1;
    }
  return 0;
}

/* unique_inv_i64: the values are 0 .. UQ_DISTINCT - 1 (n >= UQ_DISTINCT) or their first n
 * hashes in order, so inverse[i] is the rank of i * TAKE_HASH mod UQ_DISTINCT among them */
static int inverse_check(gpux_array_t inv, int64_t n, char *why, size_t why_len) {
  int64_t rank[UQ_DISTINCT], nr = 0, m = -1;
  unsigned char seen[UQ_DISTINCT] = {0};
  for (int64_t i = 0; i < n && i < UQ_DISTINCT; i++) seen[(uint64_t)i * TAKE_HASH % UQ_DISTINCT] = 1;
  for (int k = 0; k < UQ_DISTINCT; k++) rank[k] = seen[k] ? nr++ : -1;
  int64_t *v = malloc((size_t)n * sizeof *v);
  int bad = !v || !inv || gpux_array_size(&m, inv) != GPUX_SUCCESS || m != n ||
            gpux_array_read(inv, v, (size_t)n * sizeof *v) != GPUX_SUCCESS;
  if (bad) snprintf(why, why_len, "the inverse could not be read (%" PRId64 " elements)", m);
  for (int64_t i = 0; i < n && !bad; i++)
    if (v[i] != rank[(uint64_t)i * TAKE_HASH % UQ_DISTINCT]) {
      snprintf(why, why_len, "inverse[%" PRId64 "] is %" PRId64 ", expected %" PRId64, i, v[i],
               rank[(uint64_t)i * TAKE_HASH % UQ_DISTINCT]);
      bad = 1;
    }
  free(v);
  return bad;
}

/* sort_i64u: the values in order, each v in 0 .. UQ_DISTINCT - 1 as often as among
 * i * TAKE_HASH mod UQ_DISTINCT */
static int sorted_hashed_check(gpux_array_t c, int64_t n, char *why, size_t why_len) {
  int64_t *v = malloc((size_t)n * sizeof *v), want[UQ_DISTINCT] = {0}, got[UQ_DISTINCT] = {0};
  int bad = !v || gpux_array_read(c, v, (size_t)n * sizeof *v) != GPUX_SUCCESS;
  if (bad) snprintf(why, why_len, "the result could not be read");
  for (int64_t i = 0; i < n && !bad; i++) {
    want[(uint64_t)i * TAKE_HASH % UQ_DISTINCT]++;
    if (v[i] < 0 || v[i] >= UQ_DISTINCT || (i > 0 && v[i] < v[i - 1])) {
      snprintf(why, why_len, "element %" PRId64 " is %" PRId64 " (out of order or range)", i, v[i]);
      bad = 1;
    } else {
      got[v[i]]++;
    }
  }
  for (int k = 0; k < UQ_DISTINCT && !bad; k++)
    if (got[k] != want[k]) {
      snprintf(why, why_len, "value %d appears %" PRId64 " times, expected %" PRId64, k, got[k],
               want[k]);
      bad = 1;
    }
  free(v);
  return bad;
}

/* bincount: a = the int64 values, c = BC_BINS int64 counts. scatter_add: a = n values
 * (float32 or int32), b = int64 indices, c = SC_TARGETS zeros. */
/* *out = the n int64 values i * TAKE_HASH mod m */
static gpux_status hashed_ints(gpux_array_t *out, int64_t n, int64_t m) {
  gpux_array_t i = NULL, h = NULL;
  gpux_status s = gpux_array_arange(&i, g_ctx, GPUX_INT64, 0, (double)n, 1);
  if (s == GPUX_SUCCESS) s = gpux_binary_scalar(&h, GPUX_MUL, i, (double)TAKE_HASH);
  if (s == GPUX_SUCCESS) s = gpux_binary_scalar(out, GPUX_MOD, h, (double)m);
  gpux_array_release(i);
  gpux_array_release(h);
  return s;
}
static gpux_status counting_setup(bench_arrays *ba, int op, int64_t n) {
  const int64_t m = op == OP_BINCOUNT ? BC_BINS : SC_TARGETS;
  gpux_status s = hashed_ints(op == OP_BINCOUNT ? &ba->a : &ba->b, n, m);
  const gpux_dtype dt = op == OP_BINCOUNT ? GPUX_INT64 : op == OP_SCATTER_ADD ? GPUX_FLOAT32 : GPUX_INT32;
  if (s == GPUX_SUCCESS && op != OP_BINCOUNT) s = make_random(&ba->a, n, dt, 1);
  if (s == GPUX_SUCCESS) s = gpux_array_zeros(&ba->c, g_ctx, dt, 1, &m);
  return s;
}

/* bincount: the counts add up to n and differ by at most one (i * odd mod 2^k visits every
 * bin in turn). scatter_add: from zeros once more, the targets add up to the values' sum
 * (int32: modulo 2^32, as each target wraps; float32: within 1e-5 of the sum of
 * magnitudes). */
static int counting_check(int op, bench_arrays *ba, int64_t n, char *why, size_t why_len) {
  if (op == OP_BINCOUNT) {
    int64_t c[BC_BINS], tot = 0, lo = INT64_MAX, hi = INT64_MIN;
    if (gpux_array_read(ba->c, c, sizeof c) != GPUX_SUCCESS)
      return snprintf(why, why_len, "reading the counts failed"), 1;
    for (int k = 0; k < BC_BINS; k++) {
      tot += c[k];
      lo = c[k] < lo ? c[k] : lo;
      hi = c[k] > hi ? c[k] : hi;
    }
    if (tot != n || hi - lo > 1)
      return snprintf(why, why_len, "counts add up to %" PRId64 " (of %" PRId64 "), from %" PRId64
                      " to %" PRId64, tot, n, lo, hi), 1;
    return 0;
  }
  gpux_array_t z = NULL;
  const int64_t m = SC_TARGETS;
  const gpux_dtype dt = op == OP_SCATTER_ADD ? GPUX_FLOAT32 : GPUX_INT32;
  if (gpux_array_zeros(&z, g_ctx, dt, 1, &m) != GPUX_SUCCESS ||
      gpux_scatter_add(z, ba->b, ba->a, GPUX_ALL_AXES, GPUX_INDEX_CHECKED) != GPUX_SUCCESS) {
    gpux_array_release(z);
    return snprintf(why, why_len, "scatter_add failed: %.150s", gpux_last_error_message()), 1;
  }
  int bad = 0;
  if (op == OP_SCATTER_ADD_I32) {
    int64_t got = 0, want = 0;
    bad = gpux_reduce_scalar_i64(&got, GPUX_REDUCE_SUM, z) != GPUX_SUCCESS ||
          gpux_reduce_scalar_i64(&want, GPUX_REDUCE_SUM, ba->a) != GPUX_SUCCESS ||
          (uint32_t)got != (uint32_t)want; /* each target wraps: equal modulo 2^32 */
    if (bad) snprintf(why, why_len, "targets add up to %" PRId64 ", values to %" PRId64 " (mod 2^32)", got, want);
  } else {
    double got = 0, want = 0, mag = 0;
    gpux_array_t ab = NULL;
    bad = gpux_reduce_scalar(&got, GPUX_REDUCE_SUM, z) != GPUX_SUCCESS ||
          gpux_reduce_scalar(&want, GPUX_REDUCE_SUM, ba->a) != GPUX_SUCCESS ||
          gpux_unary(&ab, GPUX_ABS, ba->a) != GPUX_SUCCESS ||
          gpux_reduce_scalar(&mag, GPUX_REDUCE_SUM, ab) != GPUX_SUCCESS ||
          fabs(got - want) > 1e-5 * mag;
    gpux_array_release(ab);
    if (bad) snprintf(why, why_len, "targets add up to %.9g, values to %.9g", got, want);
  }
  gpux_array_release(z);
  return bad;
}

/* topk100: a = x, b = the 100 values, c = their int64 indices. searchsorted: a = the
 * queries (random in [-2^20, 2^20)), b = the sorted table 0 .. 2^20 - 1, c = int64 results.
 * median: a = x, c = the 0-d result. */
static gpux_status select_setup(bench_arrays *ba, int op, int64_t n, gpux_dtype dt) {
  gpux_status s = make_random(&ba->a, n, dt, 1);
  const int64_t k = 100;
  if (s == GPUX_SUCCESS && op == OP_TOPK100) {
    s = gpux_array_empty(&ba->b, g_ctx, dt, 1, &k);
    if (s == GPUX_SUCCESS) s = gpux_array_empty(&ba->c, g_ctx, GPUX_INT64, 1, &k);
  } else if (s == GPUX_SUCCESS && op == OP_SEARCHSORTED) {
    gpux_array_t q = NULL;
    s = gpux_binary_scalar(&q, GPUX_MUL, ba->a, SS_SORTED / 4.0);
    gpux_array_release(ba->a);
    ba->a = q;
    if (s == GPUX_SUCCESS) s = gpux_array_arange(&ba->b, g_ctx, dt, 0, (double)SS_SORTED, 1);
    if (s == GPUX_SUCCESS) s = gpux_array_empty(&ba->c, g_ctx, GPUX_INT64, 1, &n);
  } else if (s == GPUX_SUCCESS) {
    s = gpux_array_empty(&ba->c, g_ctx, dt == GPUX_FLOAT32 ? GPUX_FLOAT32 : GPUX_FLOAT64, 0,
                         NULL);
  }
  return s;
}

/* counts of x above / at least a threshold */
static int count_cmp(gpux_array_t x, gpux_binary_op cmp, double v, int64_t *count) {
  gpux_array_t m = NULL;
  int bad = gpux_binary_scalar(&m, cmp, x, v) != GPUX_SUCCESS ||
            gpux_reduce_scalar_i64(count, GPUX_REDUCE_COUNT_NONZERO, m) != GPUX_SUCCESS;
  gpux_array_release(m);
  return bad;
}

/* topk100: fewer than 100 elements above the smallest of the 100, at least 100 at or above
 * it. searchsorted: the first 4096 results are ceil(q) clipped to [0, 2^20]. median: at
 * most n/2 elements on either side of it. */
static int select_check(int op, bench_arrays *ba, int64_t n, char *why, size_t why_len) {
  if (op == OP_TOPK100) {
    double lo = 0;
    int64_t above = 0, atleast = 0;
    if (gpux_reduce_scalar(&lo, GPUX_REDUCE_MIN, ba->b) != GPUX_SUCCESS ||
        count_cmp(ba->a, GPUX_GT, lo, &above) || count_cmp(ba->a, GPUX_GE, lo, &atleast))
      return snprintf(why, why_len, "checking failed: %.150s", gpux_last_error_message()), 1;
    if (above >= 100 || atleast < 100)
      return snprintf(why, why_len, "%" PRId64 " above the 100th value %g, %" PRId64
                      " at or above it", above, lo, atleast), 1;
    return 0;
  }
  if (op == OP_SEARCHSORTED) {
    enum { M = 4096 };
    const int64_t m = n < M ? n : M;
    gpux_dtype qdt = GPUX_FLOAT32;
    if (gpux_array_dtype(&qdt, ba->a) != GPUX_SUCCESS || qdt != GPUX_FLOAT32) return 0;
    static float q[M];
    static int64_t r[M];
    gpux_array_t qs = NULL, rs = NULL;
    int bad = gpux_array_slice_axis(&qs, ba->a, 0, 0, m, 1) != GPUX_SUCCESS ||
              gpux_array_slice_axis(&rs, ba->c, 0, 0, m, 1) != GPUX_SUCCESS ||
              gpux_array_read(qs, q, (size_t)m * 4) != GPUX_SUCCESS ||
              gpux_array_read(rs, r, (size_t)m * 8) != GPUX_SUCCESS;
    gpux_array_release(qs);
    gpux_array_release(rs);
    if (bad) return snprintf(why, why_len, "reading failed"), 1;
    for (int64_t i = 0; i < m; i++) {
      double w = ceil(q[i]);
      w = w < 0 ? 0 : w > SS_SORTED ? SS_SORTED : w;
      if ((double)r[i] != w)
        return snprintf(why, why_len, "query %" PRId64 " (%g): %" PRId64 ", want %g", i,
                        q[i], r[i], w), 1;
    }
    return 0;
  }
  double med = 0;
  int64_t below = 0, above = 0;
  if (gpux_reduce_scalar(&med, GPUX_REDUCE_SUM, ba->c) != GPUX_SUCCESS ||
      count_cmp(ba->a, GPUX_GT, med, &above) || count_cmp(ba->a, GPUX_LT, med, &below))
    return snprintf(why, why_len, "checking failed: %.150s", gpux_last_error_message()), 1;
  if (above > n / 2 || below > n / 2)
    return snprintf(why, why_len, "median %g: %" PRId64 " below, %" PRId64 " above", med, below,
                    above), 1;
  return 0;
}

static gpux_status run_once(bench_arrays *ba) {
  static const int ax0[1] = {0}, ax1[1] = {1};
  switch (ba->op) {
    case OP_RAND:
      (void)gpux_generator_get_state(&g_gen_last, g_gen);
      return gpux_random_uniform(ba->c, g_gen, 0.0, 1.0);
    case OP_RANDN:
      (void)gpux_generator_get_state(&g_gen_last, g_gen);
      return gpux_random_normal(ba->c, g_gen, 0.0, 1.0);
    case OP_SUM: return gpux_reduce_into(ba->c, GPUX_REDUCE_SUM, ba->a, NULL, GPUX_ALL_AXES, 0);
    case OP_ROWSUM: return gpux_reduce_into(ba->c, GPUX_REDUCE_SUM, ba->a, ax1, 1, 0);
    case OP_COLSUM: return gpux_reduce_into(ba->c, GPUX_REDUCE_SUM, ba->a, ax0, 1, 0);
    case OP_ROWARGMAX: return gpux_reduce_into(ba->c, GPUX_REDUCE_ARGMAX, ba->a, ax1, 1, 0);
    case OP_CUMSUM: return gpux_scan_into(ba->c, GPUX_SCAN_SUM, ba->a, 0, 0);
    case OP_ADD: return gpux_binary_into(ba->c, GPUX_ADD, ba->a, ba->b);
    case OP_ADD_EXPR: {
      gpux_arg args[3] = {gpux_arg_array(ba->a), gpux_arg_array(ba->b), gpux_arg_array(ba->c)};
      return gpux_elementwise_call(g_ew_add, 3, args);
    }
    case OP_EXP: return gpux_unary_into(ba->c, GPUX_EXP, ba->a);
    case OP_COPY: return gpux_array_copy_into(ba->c, ba->a);
    case OP_TAKE:
    case OP_TAKE_SEQ: return gpux_take_into(ba->c, ba->a, ba->b, 0, GPUX_INDEX_CHECKED);
    case OP_CONCAT: {
      gpux_array_t ab[2] = {ba->a, ba->b};
      return gpux_concatenate_into(ba->c, 2, ab, 0);
    }
    case OP_CONCAT1: {
      gpux_array_t ab[2] = {ba->a, ba->b};
      return gpux_concatenate_into(ba->c, 2, ab, 1);
    }
    case OP_ROLL: {
      int64_t n = 0, shift;
      (void)gpux_array_size(&n, ba->a);
      shift = n / 3;
      const int axis0[1] = {0};
      return gpux_roll_into(ba->c, ba->a, 1, &shift, axis0);
    }
    case OP_PAD: {
      int64_t n = 0;
      (void)gpux_array_size(&n, ba->c);
      const int64_t w[2] = {pad_width(n), pad_width(n)};
      return gpux_pad_into(ba->c, ba->a, w, GPUX_PAD_EDGE, 0.0);
    }
    case OP_TILE: {
      const int64_t two[1] = {2};
      return gpux_tile_into(ba->c, ba->a, 1, two);
    }
    case OP_REPEAT: return gpux_repeat_into(ba->c, ba->a, 2, 0);
    case OP_BINCOUNT: return gpux_bincount_into(ba->c, ba->a, NULL);
    case OP_SORT_F32:
    case OP_ARGSORT_F32:
    case OP_SORT_PAIRS_I32: return sort_run(ba);
    case OP_TOPK100: return gpux_topk_into(ba->b, ba->c, ba->a, 100, 0, 0);
    case OP_SEARCHSORTED: return gpux_searchsorted_into(ba->c, ba->b, ba->a, GPUX_SIDE_LEFT);
    case OP_MEDIAN: return gpux_median_into(ba->c, ba->a, GPUX_ALL_AXES);
    case OP_SORT_I64U: return gpux_sort_into(ba->c, ba->a, -1, 0);
    case OP_UNIQUE_I64:
    case OP_UNIQUE_INV_I64: { /* new results each run; the last ones are kept for the check */
      gpux_array_t u = NULL, inv = NULL;
      gpux_status s =
          gpux_unique(&u, NULL, ba->op == OP_UNIQUE_INV_I64 ? &inv : NULL, NULL, ba->a);
      if (s == GPUX_SUCCESS) {
        gpux_array_release(ba->c);
        gpux_array_release(ba->d);
        ba->c = u;
        ba->d = inv;
      }
      return s;
    }
    case OP_SCATTER_ADD:
    case OP_SCATTER_ADD_I32:
      return gpux_scatter_add(ba->c, ba->b, ba->a, GPUX_ALL_AXES, GPUX_INDEX_CHECKED);
    case OP_COMPRESS:
    case OP_NONZERO: { /* the result is new each run (its size is the data's), released */
      gpux_array_t r = NULL;
      gpux_status s = ba->op == OP_COMPRESS ? gpux_compress(&r, ba->a, ba->b) : gpux_nonzero(&r, ba->b);
      if (s == GPUX_SUCCESS) {
        (void)gpux_array_size(&g_mask_count, r);
        gpux_array_release(r);
      }
      return s;
    }
    case OP_TRANSPOSE: {
      gpux_array_release(ba->c); /* back to the pool: the next transpose reuses the block */
      ba->c = NULL;
      return gpux_array_transpose(&ba->c, ba->a);
    }
  }
  return GPUX_ERROR_INVALID_OP;
}

static int bench_device_op(int op, int64_t n_req) {
  int rc = 0;
  gpux_status last_status = GPUX_SUCCESS;
  bench_arrays ba = {op, NULL, NULL, NULL, NULL};
  gpux_event_t e0 = NULL, e1 = NULL;
  double *times = NULL;
  gpux_pool_stats p0, p1;
  int64_t n = n_req, side = 0;
  size_t es = gpux_dtype_size(opt.dtype);
  const char *name = k_op_names[op];
  char why[256] = "";
  expect_fn f = NULL;
  double tol = 0, moved = 0;
  gpux_dtype rdt = opt.dtype;

  if (OP_IS_SQUARE(op)) {
    side = (int64_t)sqrt((double)n_req);
    while (side * side > n_req) side--;
    while ((side + 1) * (side + 1) <= n_req) side++;
    if (op == OP_CONCAT1) side &= ~(int64_t)1;
    n = side * side;
  }
  result *r = new_result(name, n);
  if (!r) return bench_fail_status("too many results", GPUX_ERROR_INVALID_ARGUMENT);
  r->reps = opt.reps;
  snprintf(r->timing, sizeof r->timing, "device events, median of %d after %d warm-up",
           opt.reps, opt.warmup);
  if (!dtype_kind(opt.dtype)) goto no_values;

  switch (op) {
    case OP_ADD:
    case OP_ADD_EXPR:
      if (!gpux_binary_op_supports(GPUX_ADD, opt.dtype)) goto unsupported;
      moved = 3.0 * (double)n * (double)es;
      f = expect_add;
      if (op == OP_ADD_EXPR && !g_ew_add)
        TRY(gpux_elementwise_create(&g_ew_add, g_ctx, "T a, T b", "T c", "c = a + b", "add", NULL));
      break;
    case OP_EXP:
      if (!gpux_unary_op_supports(GPUX_EXP, opt.dtype)) goto unsupported;
      moved = 2.0 * (double)n * (double)es;
      f = expect_exp;
      /* halves: 1 ulp (computed in float32, rounded once: within half an ulp and a bit) */
      /* complex: each component e^x cos y, e^x sin y within a few ulps of e^x (<= e^4) */
      tol = opt.dtype == GPUX_FLOAT32      ? 1e-5
            : opt.dtype == GPUX_FLOAT64    ? 1e-12
            : opt.dtype == GPUX_COMPLEX64  ? 4e-5
            : opt.dtype == GPUX_COMPLEX128 ? 1e-11
                                           : ldexp(1.0, 1 - float_digits(opt.dtype));
      break;
    case OP_COPY:
      moved = 2.0 * (double)n * (double)es;
      f = expect_copy;
      break;
    case OP_TAKE:
    case OP_TAKE_SEQ:
      side = n;
      moved = 2.0 * (double)n * (double)es + 8.0 * (double)n;
      f = op == OP_TAKE ? expect_take : expect_copy;
      break;
    case OP_CONCAT:
      n &= ~(int64_t)1;
      r->n = n;
      side = n / 2;
      moved = 2.0 * (double)n * (double)es;
      f = expect_concat;
      break;
    case OP_CONCAT1:
      moved = 2.0 * (double)n * (double)es;
      f = expect_concat1;
      break;
    case OP_ROLL:
    case OP_PAD:
    case OP_TILE:
    case OP_REPEAT:
      if (op != OP_ROLL) n &= ~(int64_t)1;
      r->n = n;
      g_pad_w = pad_width(n);
      side = op == OP_ROLL ? n : op == OP_PAD ? n - 2 * g_pad_w : n / 2;
      moved = (double)(n + side) * (double)es;
      f = op == OP_ROLL ? expect_roll : op == OP_PAD ? expect_pad : op == OP_TILE ? expect_tile
                                                                                  : expect_repeat;
      break;
    case OP_TRANSPOSE:
      moved = 2.0 * (double)n * (double)es;
      f = expect_transpose;
      break;
    case OP_BINCOUNT:
    case OP_UNIQUE_I64:
      moved = 8.0 * (double)n;
      break;
    case OP_SORT_I64U:
    case OP_UNIQUE_INV_I64:
      moved = 16.0 * (double)n;
      break;
    case OP_SORT_F32:
    case OP_ARGSORT_F32:
    case OP_SORT_PAIRS_I32:
      moved = (op == OP_SORT_F32 ? 8.0 : op == OP_ARGSORT_F32 ? 12.0 : 16.0) * (double)n;
      break;
    case OP_TOPK100: /* the input read once, as the goal counts it */
    case OP_MEDIAN:
      moved = (double)n * (double)es;
      break;
    case OP_SEARCHSORTED: /* queries read, results written, the table once */
      moved = (double)n * (double)(es + 8) + (double)SS_SORTED * (double)es;
      break;
    case OP_SCATTER_ADD:
    case OP_SCATTER_ADD_I32:
      moved = 12.0 * (double)n + 8.0 * SC_TARGETS;
      break;
    case OP_COMPRESS:
    case OP_NONZERO:
      moved = 0; /* set from the count after the runs */
      if (!g_gen) TRY(gpux_generator_create(&g_gen, 1));
      break;
    case OP_RAND:
    case OP_RANDN: {
      uint64_t words; /* the dtypes gpux draws: a draw of them has a size in words */
      if (gpux_random_words(&words, op == OP_RAND ? GPUX_RANDOM_UNIFORM : GPUX_RANDOM_NORMAL,
                            opt.dtype, n) == GPUX_ERROR_UNSUPPORTED_DTYPE)
        goto unsupported;
      moved = (double)n * (double)es;
      if (!g_gen) TRY(gpux_generator_create(&g_gen, 1));
      break;
    }
    default: { /* reductions: read n, write the (small) result; cumsum writes n */
      gpux_reduce_op rop = op == OP_ROWARGMAX ? GPUX_REDUCE_ARGMAX : GPUX_REDUCE_SUM;
      if (gpux_reduce_result_dtype(&rdt, rop, opt.dtype) != GPUX_SUCCESS) goto unsupported;
      int64_t nout = op == OP_SUM ? 1 : op == OP_CUMSUM ? n : side;
      moved = (double)n * (double)es + (double)nout * (double)gpux_dtype_size(rdt);
      break;
    }
  }
  r->bytes = moved;

  {
    gpux_status s = OP_IS_RANDOM(op) || OP_IS_CONCAT(op) || OP_IS_ASM1(op) ||
                            (op == OP_NONZERO) || OP_IS_COUNTING(op) || OP_IS_SORT(op) ||
                            OP_IS_SELECT(op) || op == OP_UNIQUE_I64 || op == OP_SORT_I64U ||
                            op == OP_UNIQUE_INV_I64
                        ? GPUX_SUCCESS
                        : make_random(&ba.a, n, opt.dtype, 1);
    if (OP_IS_ASM1(op)) s = make_random(&ba.a, side, opt.dtype, 1);
    if (OP_IS_CONCAT(op)) { /* a and b of n / 2 elements each, c of n */
      s = make_random(&ba.a, n / 2, opt.dtype, 1);
      if (s == GPUX_SUCCESS) s = make_random(&ba.b, n / 2, opt.dtype, 2);
      if (s == GPUX_SUCCESS && op == OP_CONCAT1) {
        const int64_t half[2] = {side, side / 2};
        gpux_array_t a2 = NULL, b2 = NULL;
        s = gpux_array_reshape(&a2, ba.a, 2, half);
        if (s == GPUX_SUCCESS) s = gpux_array_reshape(&b2, ba.b, 2, half);
        gpux_array_release(ba.a);
        gpux_array_release(ba.b);
        ba.a = a2;
        ba.b = b2;
      }
      const int64_t full[2] = {op == OP_CONCAT1 ? side : n, side};
      if (s == GPUX_SUCCESS)
        s = gpux_array_empty(&ba.c, g_ctx, opt.dtype, op == OP_CONCAT1 ? 2 : 1, full);
    }
    if (s == GPUX_SUCCESS && OP_IS_MASK(op)) { /* the half-true mask in b; no c */
      const int64_t shape1[1] = {n};
      gpux_generator_t g3 = NULL;
      s = gpux_array_empty(&ba.b, g_ctx, GPUX_BOOL, 1, shape1);
      if (s == GPUX_SUCCESS) s = gpux_generator_create(&g3, 3);
      if (s == GPUX_SUCCESS) s = gpux_random_bernoulli(ba.b, g3, 0.5);
      gpux_generator_release(g3);
    }
    if (s == GPUX_SUCCESS && OP_IS_COUNTING(op)) s = counting_setup(&ba, op, n);
    if (s == GPUX_SUCCESS && OP_IS_SORT(op)) s = sort_setup(&ba, op, n);
    if (s == GPUX_SUCCESS && (op == OP_UNIQUE_I64 || op == OP_SORT_I64U || op == OP_UNIQUE_INV_I64))
      s = hashed_ints(&ba.a, n, UQ_DISTINCT);
    if (s == GPUX_SUCCESS && op == OP_SORT_I64U) s = gpux_array_empty(&ba.c, g_ctx, GPUX_INT64, 1, &n);
    if (s == GPUX_SUCCESS && OP_IS_SELECT(op)) s = select_setup(&ba, op, n, opt.dtype);
    if (s == GPUX_SUCCESS && (op == OP_ADD || op == OP_ADD_EXPR))
      s = make_random(&ba.b, n, opt.dtype, 2);
    if (s == GPUX_SUCCESS && OP_IS_TAKE(op)) { /* int64 indices */
      s = gpux_array_arange(&ba.b, g_ctx, GPUX_INT64, 0, (double)n, 1);
      if (s == GPUX_SUCCESS && op == OP_TAKE) {
        gpux_array_t m = NULL, h = NULL;
        s = gpux_binary_scalar(&m, GPUX_MUL, ba.b, (double)TAKE_HASH);
        if (s == GPUX_SUCCESS) s = gpux_binary_scalar(&h, GPUX_MOD, m, (double)n);
        gpux_array_release(m);
        gpux_array_release(ba.b);
        ba.b = h;
      }
    }
    if (s == GPUX_SUCCESS && OP_IS_SQUARE(op) && !OP_IS_CONCAT(op)) {
      int64_t shape2[2] = {side, side};
      gpux_array_t sq = NULL;
      s = gpux_array_reshape(&sq, ba.a, 2, shape2);
      gpux_array_release(ba.a);
      ba.a = sq;
    }
    if (s == GPUX_SUCCESS && OP_IS_REDUCTION(op)) {
      int64_t shape1[1] = {op == OP_CUMSUM ? n : side};
      s = gpux_array_empty(&ba.c, g_ctx, rdt, op == OP_SUM ? 0 : 1, shape1);
    } else if (s == GPUX_SUCCESS && op != OP_TRANSPOSE && !OP_IS_CONCAT(op) && !OP_IS_MASK(op) &&
               !OP_IS_COUNTING(op) && !OP_IS_SORT(op) && !OP_IS_SELECT(op) &&
               op != OP_SORT_I64U) {
      int64_t shape1[1] = {n};
      s = gpux_array_empty(&ba.c, g_ctx, opt.dtype, 1, shape1);
    }
    if (s == GPUX_ERROR_OUT_OF_MEMORY || s == GPUX_ERROR_SIZE_OVERFLOW) {
      r->status = "skipped";
      snprintf(r->note, sizeof r->note, "%s: %.150s", gpux_status_name(s),
               gpux_last_error_message());
      printf("  %s n=%" PRId64 ": skipped, %s\n", name, n, r->note);
      goto done;
    }
    TRY_DT(s);
  }
  times = malloc(sizeof *times * (size_t)opt.reps);
  if (!times) TRY(GPUX_ERROR_OUT_OF_HOST_MEMORY);
  TRY(gpux_event_create(&e0, g_ctx));
  TRY(gpux_event_create(&e1, g_ctx));

  for (int w = 0; w < opt.warmup; w++) TRY_DT(run_once(&ba));
  TRY(gpux_context_synchronize(g_ctx));
  TRY(gpux_pool_get_stats(&p0, g_ctx));
  for (int i = 0; i < opt.reps; i++) {
    TRY(gpux_event_record(e0));
    TRY_DT(run_once(&ba));
    TRY(gpux_event_record(e1));
    TRY(gpux_event_elapsed_ms(&times[i], e0, e1));
  }
  TRY(gpux_pool_get_stats(&p1, g_ctx));
  TRY(gpux_context_synchronize(g_ctx));

  if (OP_IS_MASK(op)) { /* the bytes depend on the count */
    moved = op == OP_COMPRESS ? (double)n * (double)(es + 1) + (double)g_mask_count * (double)es
                              : (double)n + 8.0 * (double)g_mask_count;
    r->bytes = moved;
  }
  bench_batch_stats(times, opt.reps, &r->median_ms, &r->min_ms, &r->max_ms);
  r->gbps = r->median_ms > 0 ? moved / (r->median_ms * 1e-3) / 1e9 : 0;
  if (op == OP_TRANSPOSE)
    snprintf(r->note, sizeof r->note,
             "%" PRId64 "x%" PRId64 ", includes gpux_array_transpose's allocation (pool hits "
             "%" PRIu64 "/%d)",
             side, side, p1.pool_hits - p0.pool_hits, opt.reps);
  else if (op == OP_COPY)
    snprintf(r->note, sizeof r->note, "gpux_array_copy_into, contiguous");
  else if (OP_IS_MASK(op))
    snprintf(r->note, sizeof r->note, "%s of a half-true mask (%" PRId64 " true), a new result, "
             "the count's 8-byte read included", op == OP_COMPRESS ? "x[mask]" : "nonzero",
             g_mask_count);
  else if (op == OP_CONCAT)
    snprintf(r->note, sizeof r->note, "gpux_concatenate_into, 2 x n/2 along axis 0");
  else if (op == OP_BINCOUNT)
    snprintf(r->note, sizeof r->note, "gpux_bincount_into, int64 values i * 2654435761 mod %d, %d bins",
             BC_BINS, BC_BINS);
  else if (OP_IS_SORT(op))
    snprintf(r->note, sizeof r->note, "%.3g Gkeys/s; %s, random %s keys, ascending, _into",
             r->median_ms > 0 ? (double)n / (r->median_ms * 1e-3) / 1e9 : 0.0,
             op == OP_SORT_F32 ? "gpux_sort_into (keys only)"
             : op == OP_ARGSORT_F32 ? "gpux_argsort_into (int64 positions)"
                                    : "gpux_sort_by_key_into, one int32 value array",
             op == OP_SORT_PAIRS_I32 ? "int32" : "float32");
  else if (op == OP_UNIQUE_I64)
    snprintf(r->note, sizeof r->note, "gpux_unique (values only, a new result), int64 values "
             "i * 2654435761 mod %d; bytes: the input read", UQ_DISTINCT);
  else if (op == OP_UNIQUE_INV_I64)
    snprintf(r->note, sizeof r->note, "gpux_unique with the inverse (new results), int64 values "
             "i * 2654435761 mod %d; bytes: the input read, the inverse written", UQ_DISTINCT);
  else if (op == OP_SORT_I64U)
    snprintf(r->note, sizeof r->note, "%.3g Gkeys/s; gpux_sort_into of int64 values "
             "i * 2654435761 mod %d (unique_i64's sort), _into",
             r->median_ms > 0 ? (double)n / (r->median_ms * 1e-3) / 1e9 : 0.0, UQ_DISTINCT);
  else if (OP_IS_COUNTING(op))
    snprintf(r->note, sizeof r->note, "gpux_scatter_add of %s into %d at int64 indices i * 2654435761 "
             "mod %d, checked, exact sums", op == OP_SCATTER_ADD ? "float32" : "int32", SC_TARGETS,
             SC_TARGETS);
  else if (OP_IS_SELECT(op))
    snprintf(r->note, sizeof r->note, "%s",
             op == OP_TOPK100 ? "gpux_topk_into, k = 100, 1-d, unsorted; bytes: the input read"
             : op == OP_MEDIAN ? "gpux_median_into, all axes; bytes: the input read"
                               : "gpux_searchsorted_into, left, into 0 .. 2^20 - 1");
  else if (OP_IS_TAKE(op))
    snprintf(r->note, sizeof r->note, "gpux_take_into, int64 %s indices, checked",
             op == OP_TAKE ? "pseudo-random (i * 2654435761 mod n)" : "sequential");
  else if (OP_IS_ASM1(op))
    snprintf(r->note, sizeof r->note, "%s, 1-d, from %" PRId64 " elements, _into",
             op == OP_ROLL ? "roll by n/3" : op == OP_PAD ? "edge pad" : op == OP_TILE ? "2 tiles" : "each twice",
             side);
  else if (op == OP_CONCAT1)
    snprintf(r->note, sizeof r->note,
             "gpux_concatenate_into, 2 x (%" PRId64 ", %" PRId64 ") along axis 1", side, side / 2);
  else if (OP_IS_SQUARE(op))
    snprintf(r->note, sizeof r->note, "%" PRId64 "x%" PRId64 ", _into a preallocated output",
             side, side);
  else
    snprintf(r->note, sizeof r->note, "_into a preallocated output");

  if (OP_IS_MASK(op) ? mask_check(op, ba.a, ba.b, why, sizeof why)
      : OP_IS_COUNTING(op)        ? counting_check(op, &ba, n, why, sizeof why)
      : OP_IS_SORT(op)            ? sort_check(&ba, n, why, sizeof why)
      : op == OP_UNIQUE_I64       ? unique_check(ba.c, n, why, sizeof why)
      : op == OP_UNIQUE_INV_I64   ? unique_check(ba.c, n, why, sizeof why) ||
                                      inverse_check(ba.d, n, why, sizeof why)
      : op == OP_SORT_I64U        ? sorted_hashed_check(ba.c, n, why, sizeof why)
      : OP_IS_SELECT(op)          ? select_check(op, &ba, n, why, sizeof why)
      : OP_IS_RANDOM(op)          ? check_random(op, ba.c, n, why, sizeof why)
      : OP_IS_REDUCTION(op) ? check_reduction(op, ba.c, n, side, rdt, why, sizeof why)
                            : check_output(ba.c, n, opt.dtype, f, side, tol, why, sizeof why)) {
    fprintf(stderr, "gpux-bench: %s n=%" PRId64 ": WRONG RESULT: %s\n", name, n, why);
    r->status = "wrong";
    rc = 1;
  }

done:
  if (rc && last_status != GPUX_SUCCESS) r->status = "error";
  free(times);
  gpux_event_release(e0);
  gpux_event_release(e1);
  gpux_array_release(ba.a);
  gpux_array_release(ba.b);
  gpux_array_release(ba.c);
  gpux_array_release(ba.d);
  return rc;

unsupported:
  r->status = "skipped";
  snprintf(r->note, sizeof r->note, "%s does not support %s", name, gpux_dtype_name(opt.dtype));
  printf("  %s: skipped, %s\n", name, r->note);
  return 0;

unsupported_dtype: /* gpux's word, once arrays exist (freed at done) */
  r->status = "skipped";
  snprintf(r->note, sizeof r->note, "%s: %.150s", gpux_status_name(GPUX_ERROR_UNSUPPORTED_DTYPE),
           gpux_last_error_message());
  printf("  %s n=%" PRId64 ": skipped, %s\n", name, n, r->note);
  goto done;

no_values:
  r->status = "skipped";
  snprintf(r->note, sizeof r->note, "gpux-bench has no values for %s",
           gpux_dtype_name(opt.dtype));
  printf("  %s: skipped, %s\n", name, r->note);
  return 0;
}

/* ---- host cost */

/* Host <-> device copies of n elements: gpux_array_write_async / _read_async from and to
 * pinned (gpux_pinned_alloc) or ordinary (malloc) memory, timed by device events around the
 * call (as PyTorch's copy_ with non_blocking=True is timed), bytes = one way. */
static int bench_transfer(int op, int64_t n) {
  int rc = 0;
  gpux_status last_status = GPUX_SUCCESS;
  const int h2d = op == OP_H2D_PINNED || op == OP_H2D_PAGEABLE;
  const int pinned = op == OP_H2D_PINNED || op == OP_D2H_PINNED;
  const size_t es = gpux_dtype_size(opt.dtype), bytes = (size_t)n * es;
  gpux_array_t a = NULL;
  gpux_event_t e0 = NULL, e1 = NULL;
  unsigned char *host = NULL;
  double *times = malloc(sizeof(double) * (size_t)opt.reps);
  char why[256] = "";
  result *r = new_result(k_op_names[op], n);
  if (!r || !times) TRY(GPUX_ERROR_OUT_OF_HOST_MEMORY);
  r->reps = opt.reps;
  r->bytes = (double)bytes;
  snprintf(r->timing, sizeof r->timing, "device events, median of %d after %d warm-up",
           opt.reps, opt.warmup);
  snprintf(r->note, sizeof r->note, "gpux_array_%s_async %s %s memory (%s)",
           h2d ? "write" : "read", h2d ? "from" : "into", pinned ? "pinned" : "pageable",
           pinned ? "gpux_pinned_alloc" : "malloc");
  if (!dtype_kind(opt.dtype)) {
    r->status = "skipped";
    snprintf(r->note, sizeof r->note, "gpux-bench has no values for %s",
             gpux_dtype_name(opt.dtype));
    printf("  %s: skipped, %s\n", r->op, r->note);
    goto done;
  }
  if (pinned) {
    gpux_status s = gpux_pinned_alloc((void **)&host, g_ctx, bytes);
    if (s == GPUX_ERROR_UNSUPPORTED) {
      r->status = "skipped";
      goto done;
    }
    TRY(s);
  } else {
    host = malloc(bytes);
    if (!host) TRY(GPUX_ERROR_OUT_OF_HOST_MEMORY);
  }
  /* the device array holds stream 1 (make_random); the host buffer the same values, so that
   * both directions can be checked against the generator */
  TRY(make_random(&a, n, opt.dtype, 1));
  TRY(gpux_array_read(a, host, bytes));
  TRY(gpux_event_create(&e0, g_ctx));
  TRY(gpux_event_create(&e1, g_ctx));
  for (int w = 0; w < opt.warmup; w++)
    TRY(h2d ? gpux_array_write_async(a, host, bytes) : gpux_array_read_async(a, host, bytes));
  TRY(gpux_context_synchronize(g_ctx));
  for (int i = 0; i < opt.reps; i++) {
    TRY(gpux_event_record(e0));
    TRY(h2d ? gpux_array_write_async(a, host, bytes) : gpux_array_read_async(a, host, bytes));
    TRY(gpux_event_record(e1));
    TRY(gpux_event_elapsed_ms(&times[i], e0, e1));
  }
  TRY(gpux_context_synchronize(g_ctx));
  bench_batch_stats(times, opt.reps, &r->median_ms, &r->min_ms, &r->max_ms);
  r->gbps = r->median_ms > 0 ? (double)bytes / (r->median_ms * 1e-3) / 1e9 : 0;
  r->status = "ok";
  /* both sides still hold the generator's values */
  if (check_output(a, n, opt.dtype, expect_copy, 0, 0, why, sizeof why)) {
    fprintf(stderr, "gpux-bench: %s: WRONG RESULT: %s\n", k_op_names[op], why);
    r->status = "wrong";
    rc = 1;
  }
  printf("  %-13s n=%-11" PRId64 " %10.4f ms %9.1f GB/s\n", r->op, r->n, r->median_ms, r->gbps);

done:
  if (rc && r && strcmp(r->status, "wrong") != 0) r->status = "error";
  (void)last_status;
  if (pinned) gpux_pinned_free(host);
  else free(host);
  gpux_event_release(e0);
  gpux_event_release(e1);
  gpux_array_release(a);
  free(times);
  return rc;
}

#define OVERLAP_CHUNKS 16
#define OV_TRY(call)                          \
  do {                                        \
    gpux_status s_ = (call);                  \
    if (s_ != GPUX_SUCCESS) return s_;        \
  } while (0)
/* copy (stream s1) and compute (stream s2) phases of the pipeline; which: 1 copies only, 2
 * computes only, 3 both, chained by events */
static gpux_status overlap_run(int which, gpux_stream_t s1, gpux_stream_t s2, gpux_event_t *ev,
                               gpux_array_t *xs, gpux_array_t *ys, const float *host,
                               int64_t chunk, int reps_compute) {
  for (int k = 0; k < OVERLAP_CHUNKS; k++) {
    if (which & 1) {
      OV_TRY(gpux_stream_set_current(g_ctx, s1));
      OV_TRY(gpux_array_write_async(xs[k], host + (size_t)k * (size_t)chunk,
                                       (size_t)chunk * sizeof *host));
      OV_TRY(gpux_event_record(ev[k]));
    }
    if (which & 2) {
      OV_TRY(gpux_stream_set_current(g_ctx, s2));
      if (which & 1) OV_TRY(gpux_stream_wait_event(s2, ev[k]));
      for (int r = 0; r < reps_compute; r++)
        OV_TRY(gpux_unary_into(ys[k], GPUX_EXP, xs[k]));
    }
  }
  OV_TRY(gpux_stream_set_current(g_ctx, NULL));
  return gpux_context_synchronize(g_ctx);
}

/* median host time of overlap_run(which) over opt.reps, in ms */
static gpux_status overlap_time(double *ms, double *times, int which, gpux_stream_t s1,
                                gpux_stream_t s2, gpux_event_t *ev, gpux_array_t *xs,
                                gpux_array_t *ys, const float *host, int64_t chunk, int rc) {
  for (int w = 0; w < opt.warmup; w++)
    OV_TRY(overlap_run(which, s1, s2, ev, xs, ys, host, chunk, rc));
  for (int i = 0; i < opt.reps; i++) {
    double t0 = bench_now_s();
    OV_TRY(overlap_run(which, s1, s2, ev, xs, ys, host, chunk, rc));
    times[i] = (bench_now_s() - t0) * 1e3;
  }
  double lo, hi;
  bench_batch_stats(times, opt.reps, ms, &lo, &hi);
  return GPUX_SUCCESS;
}

static int bench_overlap(int64_t n) {
  int rc = 0;
  gpux_status last_status = GPUX_SUCCESS;
  const int64_t chunk = n / OVERLAP_CHUNKS;
  gpux_stream_t s1 = NULL, s2 = NULL;
  gpux_event_t ev[OVERLAP_CHUNKS] = {0};
  gpux_array_t x = NULL, y = NULL, xs[OVERLAP_CHUNKS] = {0}, ys[OVERLAP_CHUNKS] = {0};
  float *host = NULL;
  double *times = malloc(sizeof(double) * (size_t)opt.reps);
  result *r = new_result("overlap", n);
  if (!r || !times) TRY(GPUX_ERROR_OUT_OF_HOST_MEMORY);
  snprintf(r->dtype, sizeof r->dtype, "float32"); /* whatever --dtype says */
  r->reps = opt.reps;
  r->bytes = (double)n * sizeof(float);
  snprintf(r->timing, sizeof r->timing, "host clock, median of %d after %d warm-up", opt.reps,
           opt.warmup);
  if (chunk < 1) {
    r->status = "skipped";
    snprintf(r->note, sizeof r->note, "needs at least %d elements", OVERLAP_CHUNKS);
    goto done;
  }
  {
    gpux_status s = gpux_stream_create(&s1, g_ctx);
    if (s == GPUX_ERROR_UNSUPPORTED) {
      r->status = "skipped";
      snprintf(r->note, sizeof r->note, "no streams on this backend");
      goto done;
    }
    TRY(s);
  }
  TRY(gpux_stream_create(&s2, g_ctx));
  TRY(gpux_pinned_alloc((void **)&host, g_ctx, (size_t)n * sizeof *host));
  for (int64_t i = 0; i < n; i++) host[i] = (float)val(GPUX_FLOAT32, 1, i);
  const int64_t total = chunk * OVERLAP_CHUNKS;
  TRY(gpux_array_empty(&x, g_ctx, GPUX_FLOAT32, 1, &total));
  TRY(gpux_array_empty(&y, g_ctx, GPUX_FLOAT32, 1, &total));
  for (int k = 0; k < OVERLAP_CHUNKS; k++) {
    TRY(view_1d(&xs[k], x, k * chunk, (k + 1) * chunk));
    TRY(view_1d(&ys[k], y, k * chunk, (k + 1) * chunk));
    TRY(gpux_event_create_with_flags(&ev[k], g_ctx, GPUX_EVENT_DISABLE_TIMING));
  }
  /* R: computing about as long as copying */
  double t_copy = 0, t_one = 0, t_comp = 0, t_pipe = 0;
  TRY(overlap_time(&t_copy, times, 1, s1, s2, ev, xs, ys, host, chunk, 1));
  TRY(overlap_time(&t_one, times, 2, s1, s2, ev, xs, ys, host, chunk, 1));
  int reps_compute = t_one > 0 ? (int)(t_copy / t_one + 0.5) : 1;
  if (reps_compute < 1) reps_compute = 1;
  if (reps_compute > 4096) reps_compute = 4096;
  TRY(overlap_time(&t_comp, times, 2, s1, s2, ev, xs, ys, host, chunk, reps_compute));
  TRY(overlap_time(&t_pipe, times, 3, s1, s2, ev, xs, ys, host, chunk, reps_compute));
  const double ratio = t_pipe / (t_copy > t_comp ? t_copy : t_comp);
  r->median_ms = t_pipe;
  r->gbps = t_pipe > 0 ? (double)total * sizeof(float) / (t_pipe * 1e-3) / 1e9 : 0;
  snprintf(r->note, sizeof r->note,
           "%d chunks; copy %.3f ms, compute (exp x %d) %.3f ms; pipeline / max = %.3f",
           OVERLAP_CHUNKS, t_copy, reps_compute, t_comp, ratio);
  r->status = "ok";
  /* the last pipeline's result: y = exp(x) */
  {
    char why[256] = "";
    if (check_output(y, total, GPUX_FLOAT32, expect_exp, 0, 1e-5, why, sizeof why)) {
      fprintf(stderr, "gpux-bench: overlap: WRONG RESULT: %s\n", why);
      r->status = "wrong";
      rc = 1;
    }
  }
  printf("  %-13s n=%-11" PRId64 " %10.4f ms  %s\n", r->op, r->n, r->median_ms, r->note);

done:
  if (rc && r && strcmp(r->status, "wrong") != 0) r->status = "error";
  (void)last_status;
  (void)gpux_stream_set_current(g_ctx, NULL);
  for (int k = 0; k < OVERLAP_CHUNKS; k++) {
    gpux_array_release(xs[k]);
    gpux_array_release(ys[k]);
    gpux_event_release(ev[k]);
  }
  gpux_array_release(x);
  gpux_array_release(y);
  gpux_pinned_free(host);
  gpux_stream_release(s1);
  gpux_stream_release(s2);
  free(times);
  return rc;
}

static int bench_hostcost(void) {
  int rc = 0;
  gpux_status last_status = GPUX_SUCCESS;
  gpux_array_t a = NULL, b = NULL, c = NULL, tmp = NULL;
  const int64_t n = HOSTCOST_N;
  const gpux_dtype saved = opt.dtype;
  int per_batch = copt.calls / copt.batches;
  int sync_calls = per_batch < 100 ? per_batch : 100;
  double *batch_us = malloc(sizeof(double) * (size_t)copt.batches);
  char why[256] = "";
  result *rs[3] = {NULL, NULL, NULL};
  static const char *const names[3] = {"hostcost_into", "hostcost_alloc", "hostcost_sync"};
  static const char *const notes[3] = {
      "gpux_binary_into add, queued back to back, sync outside the timed region",
      "gpux_binary add (allocates from the pool) + release, queued",
      "gpux_binary_into add + gpux_context_synchronize each call (latency)"};

  opt.dtype = GPUX_FLOAT32;
  if (!batch_us) TRY(GPUX_ERROR_OUT_OF_HOST_MEMORY);
  if (per_batch < 1) per_batch = 1;
  TRY(make_random(&a, n, GPUX_FLOAT32, 1));
  TRY(make_random(&b, n, GPUX_FLOAT32, 2));
  TRY(gpux_array_empty(&c, g_ctx, GPUX_FLOAT32, 1, &n));
  /* warm-up: kernels built and resolved, pool primed */
  for (int i = 0; i < 200; i++) {
    TRY(gpux_binary_into(c, GPUX_ADD, a, b));
    TRY(gpux_binary(&tmp, GPUX_ADD, a, b));
    gpux_array_release(tmp);
    tmp = NULL;
  }
  TRY(gpux_context_synchronize(g_ctx));

  for (int form = 0; form < 3; form++) {
    int calls = form == 2 ? sync_calls : per_batch;
    gpux_pool_stats p0, p1;
    TRY(gpux_pool_get_stats(&p0, g_ctx));
    for (int bi = 0; bi < copt.batches; bi++) {
      double t0 = bench_now_s();
      for (int i = 0; i < calls; i++) {
        if (form == 0) {
          TRY(gpux_binary_into(c, GPUX_ADD, a, b));
        } else if (form == 1) {
          TRY(gpux_binary(&tmp, GPUX_ADD, a, b));
          gpux_array_release(tmp);
          tmp = NULL;
        } else {
          TRY(gpux_binary_into(c, GPUX_ADD, a, b));
          TRY(gpux_context_synchronize(g_ctx));
        }
      }
      double t1 = bench_now_s();
      TRY(gpux_context_synchronize(g_ctx)); /* outside the timed region */
      batch_us[bi] = (t1 - t0) * 1e6 / calls;
    }
    result *r = new_result(names[form], n);
    if (!r) TRY(GPUX_ERROR_INVALID_ARGUMENT);
    rs[form] = r;
    double lo, hi;
    bench_batch_stats(batch_us, copt.batches, &r->us_per_call, &lo, &hi);
    r->median_ms = r->us_per_call * 1e-3;
    r->min_ms = lo * 1e-3;
    r->max_ms = hi * 1e-3;
    r->reps = copt.batches;
    snprintf(r->timing, sizeof r->timing, "host monotonic clock, median of %d batches x %d calls",
             copt.batches, calls);
    TRY(gpux_pool_get_stats(&p1, g_ctx));
    if (form == 1)
      snprintf(r->note, sizeof r->note, "%s (pool hits %" PRIu64 ", misses %" PRIu64 ")",
               notes[form], p1.pool_hits - p0.pool_hits, p1.pool_misses - p0.pool_misses);
    else
      snprintf(r->note, sizeof r->note, "%s", notes[form]);
  }
  if (check_output(c, n, GPUX_FLOAT32, expect_add, 0, 0, why, sizeof why)) {
    fprintf(stderr, "gpux-bench: hostcost: WRONG RESULT: %s\n", why);
    for (int k = 0; k < 3; k++)
      if (rs[k]) rs[k]->status = "wrong";
    rc = 1;
  }

done:
  (void)last_status;
  opt.dtype = saved;
  free(batch_us);
  gpux_array_release(tmp);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
  return rc;
}

/* Host time of a scalar sum returned to the host (launch, copy back, wait). */
static int bench_sumscalar(void) {
  int rc = 0;
  gpux_status last_status = GPUX_SUCCESS;
  gpux_array_t a = NULL;
  const int64_t n = HOSTCOST_N;
  const gpux_dtype saved = opt.dtype;
  int per_batch = copt.calls / copt.batches;
  double *batch_us = malloc(sizeof(double) * (size_t)copt.batches);
  double v = 0;
  opt.dtype = GPUX_FLOAT32;
  if (!batch_us) TRY(GPUX_ERROR_OUT_OF_HOST_MEMORY);
  if (per_batch < 1) per_batch = 1;
  TRY(make_random(&a, n, GPUX_FLOAT32, 1));
  for (int i = 0; i < 200; i++) TRY(gpux_sum_scalar(&v, a));
  for (int bi = 0; bi < copt.batches; bi++) {
    double t0 = bench_now_s();
    for (int i = 0; i < per_batch; i++) TRY(gpux_sum_scalar(&v, a));
    batch_us[bi] = (bench_now_s() - t0) * 1e6 / per_batch;
  }
  result *r = new_result("sumscalar", n);
  if (!r) TRY(GPUX_ERROR_INVALID_ARGUMENT);
  double lo, hi;
  bench_batch_stats(batch_us, copt.batches, &r->us_per_call, &lo, &hi);
  r->median_ms = r->us_per_call * 1e-3;
  r->min_ms = lo * 1e-3;
  r->max_ms = hi * 1e-3;
  r->reps = copt.batches;
  snprintf(r->timing, sizeof r->timing, "host monotonic clock, median of %d batches x %d calls",
           copt.batches, per_batch);
  snprintf(r->note, sizeof r->note, "gpux_sum_scalar: launch, copy to the host, wait");
  if (!sum_ok(v, sum_stream(0, 1, n), GPUX_FLOAT32, n)) {
    fprintf(stderr, "gpux-bench: sumscalar: WRONG RESULT %.9g\n", v);
    r->status = "wrong";
    rc = 1;
  }
done:
  (void)last_status;
  opt.dtype = saved;
  free(batch_us);
  gpux_array_release(a);
  return rc;
}

/* ---- matrix products */

/* Element i of gemm input stream `seed`: uniform in [-1, 1) (float32 values, or float64), or
 * for the half dtypes a multiple of 1/8 in [-4, 4) (exact in float16 and bfloat16). Complex
 * ops: i counts components (element e's real part is 2e, its imaginary part 2e + 1). */
static double gemm_value(int op, uint64_t seed, int64_t i) {
  uint64_t h = mix64(seed * 0x100000001B3ull ^ (uint64_t)i);
  double u = (double)(h >> 11) / (double)(1ull << 53) * 2.0 - 1.0;
  if (op == OP_GEMM_F16 || op == OP_GEMM_BF16) return floor(u * 32.0) / 8.0;
  if (op == OP_GEMM_F64 || op == OP_GEMM_C128) return u;
  if (op == OP_GEMM_INT) return dtype_kind(opt.dtype) == 'u' ? floor((u + 1.0) * 8.0) : floor(u * 8.0);
  return (double)(float)u;
}

static gpux_dtype gemm_dtype(int op) {
  switch (op) {
    case OP_GEMM_F64: return GPUX_FLOAT64;
    case OP_GEMM_F16: return GPUX_FLOAT16;
    case OP_GEMM_BF16: return GPUX_BFLOAT16;
    case OP_GEMM_INT: return opt.dtype;
    case OP_GEMM_C64: return GPUX_COMPLEX64;
    case OP_GEMM_C128: return GPUX_COMPLEX128;
    default: return GPUX_FLOAT32;
  }
}

typedef struct gemm_gen_arg {
  int op;
  uint64_t seed;
} gemm_gen_arg;
static void fill_gemm(unsigned char *buf, int64_t lo, int64_t hi, size_t es, const void *arg) {
  const gemm_gen_arg *g = arg;
  if (OP_IS_GEMM_CPLX(g->op)) { /* two components per element */
    for (int64_t i = lo; i < hi; i++)
      for (int p = 0; p < 2; p++) {
        double x = gemm_value(g->op, g->seed, 2 * i + p);
        if (es == 16) memcpy(buf + (size_t)(i - lo) * 16 + 8 * (size_t)p, &x, 8);
        else {
          float f = (float)x;
          memcpy(buf + (size_t)(i - lo) * 8 + 4 * (size_t)p, &f, 4);
        }
      }
    return;
  }
  for (int64_t i = lo; i < hi; i++) {
    double x = gemm_value(g->op, g->seed, i);
    if (es == 8) memcpy(buf + (size_t)(i - lo) * 8, &x, 8);
    else {
      float f = (float)x;
      memcpy(buf + (size_t)(i - lo) * 4, &f, 4);
    }
  }
}

/* A new n x n array of gemm_dtype(op) holding stream `seed`, uploaded in chunks (half dtypes:
 * as float32, then cast on the device). */
static gpux_status make_gemm_operand(gpux_array_t *out, int op, int64_t n, uint64_t seed) {
  gpux_dtype dt = gemm_dtype(op), up = dt == GPUX_FLOAT64 ? GPUX_FLOAT64 : GPUX_FLOAT32;
  if (OP_IS_GEMM_CPLX(op)) up = dt; /* uploaded as they are */
  const int64_t shape2[2] = {n, n};
  const gemm_gen_arg g = {op, seed};
  gpux_array_t a = NULL, a2 = NULL, h = NULL;
  gpux_status s = upload_generated(&a, n * n, up, fill_gemm, &g);
  if (s != GPUX_SUCCESS) goto done;
  s = gpux_array_reshape(&a2, a, 2, shape2);
  if (s != GPUX_SUCCESS) goto done;
  if (dt != up) {
    s = gpux_array_cast(&h, a2, dt);
    if (s != GPUX_SUCCESS) goto done;
    *out = h;
  } else {
    *out = a2;
    a2 = NULL;
  }
done:
  gpux_array_release(a);
  gpux_array_release(a2);
  return s;
}

/* The error bound of one entry (host double sum `want`, sum of |products| `sabs`). */
static double gemm_tolerance(int op, int64_t n, double want, double sabs) {
  double k = (double)n;
  switch (op) {
    case OP_GEMM_F64: return (k + 4) * 0x1p-53 * sabs + 1e-300;
    case OP_GEMM_TF32: return (0x1p-9 + (k + 4) * 0x1p-24) * sabs + 1e-30;
    case OP_GEMM_F16: return (k + 4) * 0x1p-24 * sabs + 0x1p-11 * fabs(want) + 0x1p-25;
    case OP_GEMM_BF16: return (k + 4) * 0x1p-24 * sabs + 0x1p-8 * fabs(want) + 1e-30;
    case OP_GEMM_INT: return 0; /* exact (want wrapped to the dtype) */
    /* complex, per part: two real products and a sum per term; sabs sums |a|_1 |b|_1 */
    case OP_GEMM_C64: return (2 * k + 8) * 0x1p-24 * sabs + 1e-30;
    case OP_GEMM_C128: return (2 * k + 8) * 0x1p-53 * sabs + 1e-300;
    default: return (k + 4) * 0x1p-24 * sabs + 1e-30;
  }
}

/* GEMM_SAMPLES entries of C (the corners, then pseudo-random ones) against the host. */
static int check_gemm(int op, gpux_array_t c, int64_t n, char *why, size_t why_len) {
  gpux_dtype dt = gemm_dtype(op);
  gpux_array_t c32 = NULL, e = NULL;
  gpux_status s = GPUX_SUCCESS;
  int bad = 0;
  if (is_half(dt)) {
    s = gpux_array_cast(&c32, c, GPUX_FLOAT32);
    dt = GPUX_FLOAT32;
  }
  for (int k = 0; k < GEMM_SAMPLES && s == GPUX_SUCCESS && !bad; k++) {
    int64_t i, j;
    if (k < 4) {
      i = (k & 1) ? n - 1 : 0;
      j = (k & 2) ? n - 1 : 0;
    } else {
      i = (int64_t)(mix64(77 + (uint64_t)k) % (uint64_t)n);
      j = (int64_t)(mix64(991 + (uint64_t)k) % (uint64_t)n);
    }
    int64_t start[2] = {i, j}, stop[2] = {i + 1, j + 1}, step[2] = {1, 1};
    unsigned char got_b[16];
    s = gpux_array_slice(&e, c32 ? c32 : c, start, stop, step);
    if (s == GPUX_SUCCESS) s = gpux_array_read(e, got_b, gpux_dtype_size(dt));
    gpux_array_release(e);
    e = NULL;
    if (s != GPUX_SUCCESS) break;
    if (OP_IS_GEMM_CPLX(op)) { /* both parts against a host double complex sum */
      double gr, gi, wr = 0, wi = 0, sabs = 0;
      if (dt == GPUX_COMPLEX64) {
        float f[2];
        memcpy(f, got_b, 8);
        gr = f[0];
        gi = f[1];
      } else {
        double d[2];
        memcpy(d, got_b, 16);
        gr = d[0];
        gi = d[1];
      }
      for (int64_t l = 0; l < n; l++) {
        const double ar = gemm_value(op, 1, 2 * (i * n + l)), ai = gemm_value(op, 1, 2 * (i * n + l) + 1);
        const double br = gemm_value(op, 2, 2 * (l * n + j)), bi = gemm_value(op, 2, 2 * (l * n + j) + 1);
        wr += ar * br - ai * bi;
        wi += ar * bi + ai * br;
        sabs += (fabs(ar) + fabs(ai)) * (fabs(br) + fabs(bi));
      }
      const double tol = gemm_tolerance(op, n, 0, sabs);
      if (!(fabs(gr - wr) <= tol && fabs(gi - wi) <= tol)) {
        snprintf(why, why_len, "C[%" PRId64 ", %" PRId64 "] is %.9g%+.9gi, expected %.9g%+.9gi (bound %.3g)",
                 i, j, gr, gi, wr, wi, tol);
        bad = 1;
      }
      continue;
    }
    double got = as_double(got_b, dt), want = 0, sabs = 0;
    for (int64_t l = 0; l < n; l++) {
      double p = gemm_value(op, 1, i * n + l) * gemm_value(op, 2, l * n + j);
      want += p;
      sabs += fabs(p);
    }
    if (op == OP_GEMM_INT) /* an exact small sum, wrapped to the dtype's width */
      want = hval_double(bits_hval((uint64_t)(int64_t)want, gpux_dtype_size(dt)), dt);
    if (!(fabs(got - want) <= gemm_tolerance(op, n, want, sabs))) {
      snprintf(why, why_len, "C[%" PRId64 ", %" PRId64 "] is %.9g, expected %.9g (bound %.3g)", i,
               j, got, want, gemm_tolerance(op, n, want, sabs));
      bad = 1;
    }
  }
  if (s != GPUX_SUCCESS) {
    snprintf(why, why_len, "reading C: %s: %s", gpux_status_name(s), gpux_last_error_message());
    bad = 1;
  }
  gpux_array_release(c32);
  return bad;
}

static result *gemm_result(int op, int path, int64_t n) {
  char name[32];
  snprintf(name, sizeof name, "%s_%s", k_op_names[op], k_gemm_path_names[path]);
  result *r = new_result(name, n);
  if (!r) return NULL;
  r->is_gemm = 1;
  snprintf(r->dtype, sizeof r->dtype, "%s", op == OP_GEMM_TF32 ? "float32-tf32"
                                            : gpux_dtype_name(gemm_dtype(op)) ? gpux_dtype_name(gemm_dtype(op))
                                                                              : "?");
  r->reps = opt.reps;
  snprintf(r->timing, sizeof r->timing, "device events, median of %d after %d warm-up", opt.reps,
           opt.warmup);
  return r;
}

static void gemm_skip(result *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  r->status = "skipped";
  vsnprintf(r->note, sizeof r->note, fmt, ap);
  va_end(ap);
  printf("  %-18s n=%-6" PRId64 " skipped: %s\n", r->op, r->n, r->note);
}

/* Why op cannot run on this path here at any size (NULL: it can). */
static const char *gemm_skip_reason(int op, int path, char *buf, size_t len) {
  gpux_dtype dt = gemm_dtype(op);
  if (op == OP_GEMM_INT && dtype_kind(dt) != 'i' && dtype_kind(dt) != 'u') {
    snprintf(buf, len, "gemm_int takes an integer --dtype, not %s",
             gpux_dtype_name(dt) ? gpux_dtype_name(dt) : "?");
    return buf;
  }
  if (op == OP_GEMM_INT && path == GPUX_GEMM_VENDOR) {
    snprintf(buf, len, "no vendor library has integer products (gpux's native path has)");
    return buf;
  }
  if ((op == OP_GEMM_TF32 || is_half(dt)) &&
      g_backend != GPUX_BACKEND_CUDA) {
    snprintf(buf, len, "CUDA only (the %s backend has no %s products)",
             gpux_backend_name(g_backend),
             op == OP_GEMM_TF32 ? "TF32" : gpux_dtype_name(dt) ? gpux_dtype_name(dt) : "half");
    return buf;
  }
  if (op == OP_GEMM_TF32 && path == GPUX_GEMM_NATIVE) {
    snprintf(buf, len, "TF32 is a vendor-path mode (the native kernels compute float32)");
    return buf;
  }
  if (gpux_dtype_size(dt) == 0) {
    snprintf(buf, len, "dtype %d is not in this build of gpux", (int)dt);
    return buf;
  }
  if ((dt == GPUX_FLOAT64 || dt == GPUX_COMPLEX128) && !g_dev.fp64) {
    snprintf(buf, len, "the device has no float64");
    return buf;
  }
  return NULL;
}

/* One gemm op on one path at one size. */
static int bench_gemm_one(int op, int path, int64_t n) {
  int rc = 0;
  gpux_status last_status = GPUX_SUCCESS;
  gpux_array_t a = NULL, b = NULL, c = NULL;
  gpux_event_t e0 = NULL, e1 = NULL;
  double *times = NULL;
  char why[256] = "";
  int tf32 = op == OP_GEMM_TF32;
  gpux_dtype dt = gemm_dtype(op);
  result *r = gemm_result(op, path, n);
  if (!r) return bench_fail_status("too many results", GPUX_ERROR_INVALID_ARGUMENT);

  {
    char buf[160];
    const char *why_not = gemm_skip_reason(op, path, buf, sizeof buf);
    if (why_not) {
      gemm_skip(r, "%s", why_not);
      return 0;
    }
  }
  {
    gpux_status s = make_gemm_operand(&a, op, n, 1);
    if (s == GPUX_SUCCESS) s = make_gemm_operand(&b, op, n, 2);
    if (s == GPUX_SUCCESS) {
      int64_t shape[2] = {n, n};
      s = gpux_array_empty(&c, g_ctx, dt, 2, shape);
    }
    if (s == GPUX_ERROR_OUT_OF_MEMORY || s == GPUX_ERROR_SIZE_OVERFLOW) {
      gemm_skip(r, "%s: %.120s", gpux_status_name(s), gpux_last_error_message());
      goto done;
    }
    TRY(s);
  }
  TRY(gpux_context_set_option(g_ctx, GPUX_OPTION_GEMM_PATH, path));
  TRY(gpux_context_set_option(g_ctx, GPUX_OPTION_TF32, tf32));
  TRY(gpux_context_synchronize(g_ctx));

  /* the first call at this size: host clock around the call and its completion */
  {
    double t0 = bench_now_s();
    gpux_status s = gpux_gemm(c, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, a, b, 0.0);
    if (s == GPUX_ERROR_UNSUPPORTED || s == GPUX_ERROR_UNSUPPORTED_DTYPE) {
      gemm_skip(r, "%s: %.120s", gpux_status_name(s), gpux_last_error_message());
      goto done;
    }
    TRY(s);
    TRY(gpux_context_synchronize(g_ctx));
    r->first_call_ms = (bench_now_s() - t0) * 1e3;
  }
  times = malloc(sizeof *times * (size_t)opt.reps);
  if (!times) TRY(GPUX_ERROR_OUT_OF_HOST_MEMORY);
  TRY(gpux_event_create(&e0, g_ctx));
  TRY(gpux_event_create(&e1, g_ctx));
  for (int w = 0; w < opt.warmup; w++)
    TRY(gpux_gemm(c, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, a, b, 0.0));
  TRY(gpux_context_synchronize(g_ctx));
  for (int i = 0; i < opt.reps; i++) {
    TRY(gpux_event_record(e0));
    TRY(gpux_gemm(c, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, a, b, 0.0));
    TRY(gpux_event_record(e1));
    TRY(gpux_event_elapsed_ms(&times[i], e0, e1));
  }
  TRY(gpux_context_synchronize(g_ctx));
  bench_batch_stats(times, opt.reps, &r->median_ms, &r->min_ms, &r->max_ms);
  /* a complex multiply-add is 4 real ones: 8 n^3 FLOP */
  const double flop = (OP_IS_GEMM_CPLX(op) ? 8.0 : 2.0) * (double)n * (double)n * (double)n;
  r->tflops = r->median_ms > 0 ? flop / (r->median_ms * 1e-3) / 1e12 : 0;
  snprintf(r->note, sizeof r->note, "%s path, C = A @ B into a preallocated C; first call %.1f ms",
           k_gemm_path_names[path], r->first_call_ms);
  if (check_gemm(op, c, n, why, sizeof why)) {
    fprintf(stderr, "gpux-bench: %s n=%" PRId64 ": WRONG RESULT: %s\n", r->op, n, why);
    r->status = "wrong";
    rc = 1;
  } else {
    printf("  %-18s n=%-6" PRId64 " %10.4f ms %9.4g TFLOP/s  (first call %.1f ms)\n", r->op, n,
           r->median_ms, r->tflops, r->first_call_ms);
  }

done:
  if (rc && last_status != GPUX_SUCCESS) r->status = "error";
  gpux_context_set_option(g_ctx, GPUX_OPTION_TF32, 0);
  gpux_context_set_option(g_ctx, GPUX_OPTION_GEMM_PATH, GPUX_GEMM_AUTO);
  free(times);
  gpux_event_release(e0);
  gpux_event_release(e1);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
  fflush(stdout);
  return rc;
}

static int bench_gemm(int op) {
  int rc = 0;
  for (int p = 0; p < GEMM_PATHS; p++) {
    if (!opt.gemm_paths[p]) continue;
    char buf[160];
    /* a reason that holds at every size: one row (at the first size) says it */
    int nsz = gemm_skip_reason(op, p, buf, sizeof buf) ? 1 : opt.ngemm_sizes;
    for (int k = 0; k < nsz; k++) rc |= bench_gemm_one(op, p, opt.gemm_sizes[k]);
  }
  return rc;
}

/* ---- output */

static int write_json(const char *path) {
  FILE *f = bench_fopen(path, "w");
  if (!f) return 1;
  char stamp[32];
  bench_utc_stamp(stamp, sizeof stamp);
  fprintf(f, "{\n  \"tool\": \"gpux-bench\",\n  \"gpux_version\": ");
  bench_json_str(f, gpux_version_string());
  fprintf(f, ",\n  \"date\": \"%s\",\n  \"backend\": ", stamp);
  bench_json_str(f, gpux_backend_name(g_backend));
  fprintf(f, ",\n  \"device\": {\"index\": %d", g_dev.index);
  bench_json_kv(f, "name", g_dev.name);
  bench_json_kv(f, "vendor", g_dev.vendor);
  bench_json_kv(f, "platform", g_dev.platform);
  bench_json_kv(f, "driver_version", g_dev.driver_version);
  bench_json_kv(f, "version", g_dev.version);
  fprintf(f, ", \"is_gpu\": %s, \"compute_units\": %d, \"global_mem_bytes\": %" PRIu64 "},\n",
          g_dev.is_gpu ? "true" : "false", g_dev.compute_units, g_dev.global_mem_bytes);
  fprintf(f, "  \"gbps_definition\": \"(bytes read + bytes written) / median time, 1e9 B/s\",\n");
  fprintf(f, "  \"tflops_definition\": \"gemm: 2 n^3 (complex: 8 n^3) / median time, 1e12 FLOP/s; first_call_ms: "
             "host clock around the first call at that size and its completion\",\n");
  fprintf(f, "  \"results\": [\n");
  for (int i = 0; i < g_nresults; i++) {
    const result *r = &g_results[i];
    fprintf(f, "    {\"op\": ");
    bench_json_str(f, r->op);
    bench_json_kv(f, "dtype", r->dtype);
    fprintf(f,
            ", \"n\": %" PRId64 ", \"status\": \"%s\", \"median_ms\": %.6g, \"min_ms\": %.6g, "
            "\"max_ms\": %.6g, \"bytes\": %.0f, \"gbps\": %.6g, \"reps\": %d",
            r->n, r->status, r->median_ms, r->min_ms, r->max_ms, r->bytes, r->gbps, r->reps);
    if (r->us_per_call > 0) fprintf(f, ", \"us_per_call\": %.4g", r->us_per_call);
    if (r->is_gemm) {
      fprintf(f, ", \"flop\": %.0f", 2.0 * (double)r->n * (double)r->n * (double)r->n);
      if (r->tflops > 0) fprintf(f, ", \"tflops\": %.6g", r->tflops);
      if (r->first_call_ms > 0) fprintf(f, ", \"first_call_ms\": %.6g", r->first_call_ms);
    }
    bench_json_kv(f, "timing", r->timing);
    bench_json_kv(f, "note", r->note);
    fprintf(f, "}%s\n", i + 1 < g_nresults ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  if (fclose(f) != 0) {
    fprintf(stderr, "gpux-bench: writing %s failed: %s\n", path, strerror(errno));
    return 1;
  }
  return 0;
}

static void fmt_n(char *buf, size_t len, int64_t n) {
  int k = 0;
  if (n < 0) { /* a gemm side */
    snprintf(buf, len, "%" PRId64 "^3", -n);
    return;
  }
  while (k < 62 && ((int64_t)1 << k) < n) k++;
  if (((int64_t)1 << k) == n && k >= 10)
    snprintf(buf, len, "2^%d", k);
  else
    snprintf(buf, len, "%" PRId64, n);
}

static int write_md(const char *path) {
  FILE *f = bench_md_open(path);
  if (!f) return 1;
  for (int i = 0; i < g_nresults; i++) {
    const result *r = &g_results[i];
    char nb[32], gb[32] = "", us[32] = "", tf[32] = "";
    fmt_n(nb, sizeof nb, r->is_gemm ? -r->n : r->n);
    if (r->gbps > 0) snprintf(gb, sizeof gb, "%.1f", r->gbps);
    if (r->tflops > 0) snprintf(tf, sizeof tf, "%.4g", r->tflops);
    if (r->us_per_call > 0) snprintf(us, sizeof us, "%.2f", r->us_per_call);
    fprintf(f, "| %s | %s | %s | %s | %s | %.4g | %s | %s | %s | %s%s%s |\n",
            gpux_backend_name(g_backend), g_dev.name, r->op, r->dtype, nb, r->median_ms, gb, tf, us,
            strcmp(r->status, "ok") ? r->status : "", strcmp(r->status, "ok") ? ": " : "",
            r->note);
  }
  return fclose(f) != 0;
}

static void print_table(void) {
  char dev[29];
  snprintf(dev, sizeof dev, "%.28s", g_dev.name);
  printf("\n%-7s %-28s %-18s %-8s %11s %11s %9s %9s %8s  %s\n", "backend", "device", "op",
         "dtype", "n", "median_ms", "GB/s", "TFLOP/s", "us/call", "note");
  for (int i = 0; i < g_nresults; i++) {
    const result *r = &g_results[i];
    char nb[32], gb[32] = "-", us[32] = "-", tf[32] = "-";
    fmt_n(nb, sizeof nb, r->is_gemm ? -r->n : r->n);
    if (r->gbps > 0) snprintf(gb, sizeof gb, "%.1f", r->gbps);
    if (r->tflops > 0) snprintf(tf, sizeof tf, "%.4g", r->tflops);
    if (r->us_per_call > 0) snprintf(us, sizeof us, "%.2f", r->us_per_call);
    printf("%-7s %-28s %-18s %-8s %11s %11.4g %9s %9s %8s  %s%s%s\n", gpux_backend_name(g_backend),
           dev, r->op, r->dtype, nb, r->median_ms, gb, tf, us, strcmp(r->status, "ok") ? r->status : "",
           strcmp(r->status, "ok") ? ": " : "", r->note);
  }
}

/* ---- options */

static int parse_size(const char *s, int64_t *out) {
  char *end;
  errno = 0;
  if (s[0] == '2' && s[1] == '^') {
    long k = strtol(s + 2, &end, 10);
    if (errno || *end || k < 0 || k > 40) return -1;
    *out = (int64_t)1 << k;
    return 0;
  }
  long long a = strtoll(s, &end, 10);
  if (errno || end == s || a <= 0) return -1;
  if (*end == 'x' || *end == 'X') {
    const char *s2 = end + 1;
    long long b = strtoll(s2, &end, 10);
    if (errno || end == s2 || *end || b <= 0 || a > (1ll << 40) / b) return -1;
    *out = a * b;
    return 0;
  }
  if (*end || a > (1ll << 40)) return -1;
  *out = a;
  return 0;
}

static int parse_list(const char *arg, int (*each)(const char *item)) {
  char *copy = strdup(arg), *save = NULL;
  int rc = 0;
  if (!copy) return -1;
  for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
    rc = each(tok);
  free(copy);
  return rc;
}

static int add_op(const char *item) {
  if (!strcmp(item, "all")) {
    for (int i = 0; i < OP_COUNT; i++) opt.ops[i] = 1;
    return 0;
  }
  if (!strcmp(item, "gemm")) {
    for (int i = OP_GEMM_F32; i <= OP_GEMM_BF16; i++) opt.ops[i] = 1;
    return 0;
  }
  if (!strcmp(item, "transfer")) {
    for (int i = OP_H2D_PINNED; i <= OP_D2H_PAGEABLE; i++) opt.ops[i] = 1;
    return 0;
  }
  for (int i = 0; i < OP_COUNT; i++)
    if (!strcmp(item, k_op_names[i])) {
      opt.ops[i] = 1;
      return 0;
    }
  fprintf(stderr, "gpux-bench: unknown op '%s' (see --help)\n", item);
  return -1;
}

static int add_size(const char *item) {
  int64_t v;
  if (parse_size(item, &v) || opt.nsizes >= MAX_SIZES) {
    fprintf(stderr, "gpux-bench: bad size '%s' (e.g. 1048576, 2^20, 16384x16384)\n", item);
    return -1;
  }
  opt.sizes[opt.nsizes++] = v;
  return 0;
}

static int add_gemm_size(const char *item) {
  int64_t v;
  if (parse_size(item, &v) || v > 65536 || opt.ngemm_sizes >= MAX_SIZES) {
    fprintf(stderr, "gpux-bench: bad gemm size '%s' (the side n of an n x n x n product, "
                    "1..65536, e.g. 4096 or 2^12)\n", item);
    return -1;
  }
  opt.gemm_sizes[opt.ngemm_sizes++] = v;
  return 0;
}

static int add_gemm_path(const char *item) {
  if (!strcmp(item, "both")) {
    opt.gemm_paths[GPUX_GEMM_VENDOR] = opt.gemm_paths[GPUX_GEMM_NATIVE] = 1;
    return 0;
  }
  for (int p = 0; p < GEMM_PATHS; p++)
    if (!strcmp(item, k_gemm_path_names[p])) {
      opt.gemm_paths[p] = 1;
      return 0;
    }
  fprintf(stderr, "gpux-bench: unknown gemm path '%s' (vendor, native, auto, both)\n", item);
  return -1;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpux-bench [options]\n"
          "  --op LIST        add,exp,copy,transpose,sum,rowsum,colsum,rowargmax,cumsum,\n"
          "                   hostcost,sumscalar,gemm_f32,gemm_f64,gemm_tf32,gemm_f16,gemm_bf16,\n"
          "                   gemm_int,gemm_c64,gemm_c128 (complex: TFLOP/s counts 8 n^3, 4x\n"
          "                   the real 2 n^3: a complex multiply-add is 4 real ones),\n"
          "                   gemm (the five gemm ops) or all (default all)\n"
          "  --sizes LIST     element counts: 1048576, 2^20, 16384x16384 (default 2^20,2^24);\n"
          "                   transpose, rowsum, colsum, rowargmax use side x side with\n"
          "                   side = floor(sqrt(n)) (2^28 -> 16384x16384)\n"
          "  --dtype NAME     the arrays' dtype, one of gpux's (an op gpux lacks for it is\n"
          "                   skipped; gemm, hostcost, sumscalar and overlap have their own):\n");
  /* the names from gpux, so that a new dtype shows without an edit here */
  for (int d = 0, col = 0; d < GPUX_DTYPE_COUNT; d++) {
    const char *nm = gpux_dtype_name((gpux_dtype)d);
    if (!nm) continue;
    if (col > 0 && col + 2 + strlen(nm) > 86) { /* a new line */
      fprintf(f, ",\n");
      col = 0;
    }
    col += fprintf(f, col ? ", %s%s" : "                   %s%s", nm,
                   d == GPUX_FLOAT32 ? " (default)" : "");
  }
  fprintf(f,
          "\n"
          "  --reps N         timed runs per size (default 20); --warmup N (default 3)\n"
          "  --backend NAME   cuda, opencl or auto (default: GPUX_BACKEND, else auto)\n"
          "  --device N|gpu   device index, or the backend's first GPU (default: GPUX_DEVICE)\n"
          "  --calls N        hostcost: calls in all (default 10000); --batches N (default 10)\n"
          "  --gemm-sizes LIST gemm: sides n of n x n x n products (default 1024,4096,8192 on\n"
          "                   a GPU, 256,512 on a CPU device; the pocl comparison uses\n"
          "                   256,512,1024,2048)\n"
          "  --gemm-path LIST vendor, native, auto or both (default both = vendor,native)\n"
          "  --json FILE      write the results as JSON\n"
          "  --md FILE        append the results as markdown table rows (header if new)\n");
}

/* gpux-bench's own options (bench_parse_args) */
static int own_option(const char *a, const char *v) {
  int bad = 0;
  if (!strcmp(a, "--op")) {
    bad = parse_list(v, add_op);
  } else if (!strcmp(a, "--sizes")) {
    opt.nsizes = 0;
    bad = parse_list(v, add_size);
  } else if (!strcmp(a, "--dtype")) {
    bad = -1;
    for (int d = 0; d < GPUX_DTYPE_COUNT; d++) /* every dtype gpux names */
      if (gpux_dtype_name((gpux_dtype)d) && !strcmp(v, gpux_dtype_name((gpux_dtype)d))) {
        opt.dtype = (gpux_dtype)d;
        bad = 0;
      }
  } else if (!strcmp(a, "--reps")) {
    bad = bench_parse_int(v, 1, copt.int_max, &opt.reps);
  } else if (!strcmp(a, "--warmup")) {
    bad = bench_parse_int(v, 0, copt.int_max, &opt.warmup);
  } else if (!strcmp(a, "--gemm-sizes")) {
    opt.ngemm_sizes = 0;
    bad = parse_list(v, add_gemm_size);
  } else if (!strcmp(a, "--gemm-path")) {
    memset(opt.gemm_paths, 0, sizeof opt.gemm_paths);
    bad = parse_list(v, add_gemm_path);
  } else {
    bad = BENCH_UNKNOWN_OPTION;
  }
  return bad;
}

int main(int argc, char **argv) {
  int rc = 0, any_op = 0;
  bench_tool = "gpux-bench";
  bench_opts_init(&copt, 100000000);
  opt.dtype = GPUX_FLOAT32;
  opt.reps = 20;
  opt.warmup = 3;
  if ((rc = bench_parse_args(argc, argv, &copt, own_option, usage)) >= 0) return rc;
  rc = 0;
  for (int i = 0; i < OP_COUNT; i++) any_op |= opt.ops[i];
  if (!any_op)
    for (int i = 0; i < OP_COUNT; i++) opt.ops[i] = 1;
  if (opt.nsizes == 0) {
    opt.sizes[opt.nsizes++] = (int64_t)1 << 20;
    opt.sizes[opt.nsizes++] = (int64_t)1 << 24;
  }
  if (copt.device_gpu && bench_pick_gpu_device(&copt)) return 77;

  if ((rc = bench_open_context(&g_ctx, &copt, &g_backend, &g_dev, NULL)) != 0) return rc;
  printf("timing: device events, median of %d runs after %d warm-up runs; GB/s = (bytes read + "
         "written) / median\n",
         opt.reps, opt.warmup);
  if (opt.ngemm_sizes == 0) { /* defaults by device type */
    static const int64_t gpu_sizes[3] = {1024, 4096, 8192}, cpu_sizes[2] = {256, 512};
    const int64_t *d = g_dev.is_gpu ? gpu_sizes : cpu_sizes;
    opt.ngemm_sizes = g_dev.is_gpu ? 3 : 2;
    for (int k = 0; k < opt.ngemm_sizes; k++) opt.gemm_sizes[k] = d[k];
  }
  {
    int anyp = 0;
    for (int p = 0; p < GEMM_PATHS; p++) anyp |= opt.gemm_paths[p];
    if (!anyp) opt.gemm_paths[GPUX_GEMM_VENDOR] = opt.gemm_paths[GPUX_GEMM_NATIVE] = 1;
  }
  fflush(stdout);

  for (int op = 0; op < OP_COUNT; op++) {
    if (!opt.ops[op]) continue;
    if (op == OP_HOSTCOST) {
      rc |= bench_hostcost();
    } else if (op == OP_SUMSCALAR) {
      rc |= bench_sumscalar();
    } else if (OP_IS_GEMM(op)) {
      rc |= bench_gemm(op);
    } else if (OP_IS_TRANSFER(op)) {
      for (int k = 0; k < opt.nsizes; k++) rc |= bench_transfer(op, opt.sizes[k]);
    } else if (op == OP_OVERLAP) {
      for (int k = 0; k < opt.nsizes; k++) rc |= bench_overlap(opt.sizes[k]);
    } else {
      for (int k = 0; k < opt.nsizes; k++) {
        rc |= bench_device_op(op, opt.sizes[k]);
        if (g_nresults > 0) {
          const result *r = &g_results[g_nresults - 1];
          if (!strcmp(r->status, "ok"))
            printf("  %-10s n=%-11" PRId64 " %10.4f ms %9.1f GB/s\n", r->op, r->n, r->median_ms,
                   r->gbps);
          fflush(stdout);
        }
      }
    }
  }
  print_table();
  if (copt.json_path) rc |= write_json(copt.json_path);
  if (copt.md_path) rc |= write_md(copt.md_path);
  gpux_generator_release(g_gen);
  gpux_elementwise_release(g_ew_add);
  gpux_context_release(g_ctx);
  return rc ? 1 : 0;
}
